"""Interactive demos for the book and classroom notebooks, all through one helper: :func:`explore`.

In a Jupyter kernel (a classroom, Binder, Colab, Thebe) every demo is a set of live ipywidgets.
On the book's static pages (the build sets ``RECFAIR_WIDGETS=static``) the same call precomputes
the output of every position of its controls at build time, so moving a control shows results
that recfair computed, without a kernel; controls that take free input (typed lists) are shown
disabled with a "make it live" action. Every demo draws through :mod:`recfair.book.plotting` or
computes through :func:`recfair.evaluate`, so a figure printed in a chapter and the demo beside
it cannot disagree.

Chapters build their own demos with :func:`explore` and the controls :func:`slider`,
:func:`dropdown`, :func:`toggle` and :func:`text`; the functions below are the demos that
several chapters share.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._interactive import MAX_POSITIONS, Control, Explorer, dropdown, explore, mode, slider, text, toggle
from ..engine import evaluate
from ..registry import get

__all__ = [
    "explore", "slider", "dropdown", "toggle", "text", "mode", "Control", "Explorer", "MAX_POSITIONS",
    "achievable_range", "toy_lists", "parse_lists", "item_vectors", "iid_constant", "fsat_range",
    "ifd_nonlocal", "iif_gamma",
]


def _positions(default, grid, *, low=None, high=None) -> list:
    """``grid`` plus ``default``, sorted, within ``[low, high]``."""
    values = sorted({*grid, default})
    return [v for v in values if (low is None or v >= low) and (high is None or v <= high)]


def _figure(width: float = 5.5, height: float = 3.5, ncols: int = 1):
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, ncols, figsize=(width, height), squeeze=False)
    return fig, axes[0]


def achievable_range(names, *, n_users: int = 20, n_items: int = 100, k: int = 5, k_max: int = 20):
    """Sliders for m, n and k, redrawing the theoretical and achievable ranges of ``names``.

    Draws through :func:`recfair.book.plotting.plot_achievable_range`; each slider offers a handful
    of positions (the defaults among them), all precomputed on a static page.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> view = achievable_range(["Jain_ori"], n_users=10, n_items=50, k=5, k_max=10)
    >>> len(view.outputs) > 1
    True
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    from .plotting import plot_achievable_range

    names = [names] if isinstance(names, str) else list(names)
    for name in names:
        get(name)

    def draw(m, n, k):
        from .plotting import stacked

        fig, axes = stacked(len(names), panel_height=2.8)      # stacked: legible on a phone
        for ax, name in zip(axes, names):
            plot_achievable_range(ax, name, n_users=m, n_items=n, k_max=min(k_max, n), highlight_k=min(k, n))
        fig.tight_layout()
        return fig

    return explore(draw, m=slider(_positions(n_users, (5, 20, 100)), value=n_users, label="users m"),
                   n=slider(_positions(n_items, (20, 100, 400)), value=n_items, label="items n"),
                   k=slider(_positions(k, (1, 5, 10, 20), high=k_max), value=k, label="k"))


def parse_lists(text_value: str) -> np.ndarray:
    """Parse one top-k list per line, items separated by spaces or commas (0-based ints).

    >>> parse_lists("0 1 2\\n3, 4, 5").tolist()
    [[0, 1, 2], [3, 4, 5]]
    """
    rows = [line.replace(",", " ").split() for line in text_value.strip().splitlines() if line.strip()]
    if not rows:
        raise ValueError("type at least one list, one user per line.")
    widths = {len(r) for r in rows}
    if len(widths) != 1:
        raise ValueError(f"every list needs the same length k; got lengths {sorted(widths)}.")
    try:
        return np.array([[int(x) for x in r] for r in rows], dtype=np.int64)
    except ValueError:
        raise ValueError("lists must hold integer item ids (0-based).") from None


def toy_lists(measures, lists: str, *, n_items: int, **options):
    """A text box of top-k lists (one user per line) and a table of ``measures`` on them.

    The lists are free input, so on a static page the box is shown disabled (with the table for
    the lists given) and becomes editable once the page runs in a kernel; the catalogue size
    ``n`` is a slider, precomputed everywhere. Bad input shows the library's error message.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> view = toy_lists(["Jain_ori", "QF_ori"], "0 1\\n0 2", n_items=5)
    >>> "data-rfx-live-only" in view._repr_html_(), len(view.outputs)
    (True, 3)
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    names = [measures] if isinstance(measures, str) else list(measures)
    for name in names:
        get(name)

    def table(lists, n):
        top = parse_lists(lists)
        values = evaluate(top, n_items=n, measures=names, on_undefined="nan", **options)
        return pd.Series(values, name="score").to_frame().style.format("{:.4f}")

    return explore(table, lists=text(lists, label="top-k lists (one user per line)"),
                   n=slider(_positions(n_items, (2 * n_items, 5 * n_items)), value=n_items, label="items n"))


def item_vectors(top_k, *, n_items: int, angles, alpha: float = 2.0, beta: float = 0.0):
    """Sliders for the direction of the last item (degrees) and for alpha, redrawing VoCD's similar pairs.

    Item ``i`` is the unit vector at ``angles[i]`` degrees (the last one moves with its slider);
    the figure comes from :func:`recfair.book.plotting.plot_item_vectors`.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> view = item_vectors([[0, 1], [0, 2]], n_items=3, angles=[0, 25, 160], alpha=0.1)
    >>> len(view.outputs) > 1
    True
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    from .plotting import plot_item_vectors

    if len(angles) != n_items:
        raise ValueError(f"angles needs one direction per item (n_items={n_items}), got {len(angles)}.")
    fixed = [float(a) for a in angles[:-1]]

    def draw(last, alpha):
        rad = np.deg2rad(fixed + [last])
        fig, (ax,) = _figure(4.2, 4.2)
        plot_item_vectors(ax, top_k, n_items=n_items, item_features=np.c_[np.cos(rad), np.sin(rad)],
                          alpha=alpha, beta=beta)
        return fig

    return explore(draw, last=slider(_positions(int(angles[-1]), range(0, 181, 20)), value=int(angles[-1]),
                                     label=f"item {n_items} (°)"),
                   alpha=slider(_positions(alpha, (0.05, 0.1, 0.3, 1.0, 2.0)), value=alpha, label="α"))


def iid_constant(*, gamma: float = 0.8, k: int = 10, n_range=(10, 10_000)):
    """Sliders for the RBP patience γ and the list length k, redrawing the single-round II-D constant against n.

    Draws through :func:`recfair.book.plotting.plot_iid_constant`.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> len(iid_constant(gamma=0.8, k=10).outputs) > 1
    True
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    from .plotting import plot_iid_constant

    def draw(gamma, k):
        fig, (ax,) = _figure()
        plot_iid_constant(ax, ks=(k,), gamma=gamma, n_range=n_range)
        return fig

    gammas = _positions(round(gamma, 2), [round(g, 2) for g in np.arange(0.1, 0.95, 0.2)])
    return explore(draw, gamma=slider(gammas, value=round(gamma, 2), label="γ"),
                   k=slider(_positions(k, (1, 5, 20, 50)), value=k, label="k"))


def fsat_range(*, n_users: int = 20, n_items: int = 100, k: int = 10, k_max: int = 20):
    """Sliders for m, n and k, redrawing FSat's thesis band, its true minimum and the always-fair region.

    Draws through :func:`recfair.book.plotting.plot_fsat_range`.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> len(fsat_range(n_users=20, n_items=100, k=10).outputs) > 1
    True
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    from .plotting import plot_fsat_range

    def draw(m, n, k):
        fig, (ax,) = _figure()
        plot_fsat_range(ax, n_users=m, n_items=n, k_max=min(k_max, n), highlight_k=min(k, n))
        return fig

    return explore(draw, m=slider(_positions(n_users, (5, 50)), value=n_users, label="users m"),
                   n=slider(_positions(n_items, (30, 300)), value=n_items, label="items n"),
                   k=slider(_positions(k, (1, 5, 20), high=k_max), value=k, label="k"))


def ifd_nonlocal(*, names=("IFD_div_ori", "IFD_div_our"), n_items: int = 20, k: int = 5, top_positions=(1, 3)):
    """A slider for the rank of one extra relevant item beyond the top-k, with the scores it gives.

    The top-k list stays the same whatever the slider says; the figure comes from
    :func:`recfair.book.plotting.plot_ifd_nonlocal` (the whole curve, the current rank marked) and
    the table from :func:`recfair.book.plotting.ifd_nonlocal_scores`.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> len(ifd_nonlocal(n_items=10, k=3).outputs)
    7
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    from .plotting import ifd_nonlocal_scores, plot_ifd_nonlocal

    names = [names] if isinstance(names, str) else list(names)
    frame = ifd_nonlocal_scores(names, n_items=n_items, k=k, top_positions=top_positions)

    def draw(rank):
        fig, (ax,) = _figure()
        plot_ifd_nonlocal(ax, names, n_items=n_items, k=k, top_positions=top_positions, highlight=rank)
        return [fig, frame.loc[[rank]].style.format("{:.4f}")]

    return explore(draw, rank=slider(list(range(k + 1, n_items + 1)), value=k + 1, label="extra rank"))


def iif_gamma(top_k, *, n_items: int, relevant, names=("II-F_ori", "II-F_our", "AI-F"), gamma: float = 0.8,
              log: bool = False):
    """A slider for the RBP patience ``gamma``, redrawing II-F/AI-F against it on a fixed run.

    The figure comes from :func:`recfair.book.plotting.plot_iif_gamma` (the whole curve, the
    current ``gamma`` marked; ``log`` as there) and the table from
    :func:`recfair.book.plotting.iif_gamma_scores`.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> view = iif_gamma([[0, 1], [1, 2]], n_items=4, relevant=[[0], [2]])
    >>> len(view.outputs) > 1
    True
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    from .plotting import iif_gamma_scores, plot_iif_gamma

    names = [names] if isinstance(names, str) else list(names)
    gammas = _positions(round(gamma, 2), [round(g, 2) for g in np.arange(0.05, 0.96, 0.1)])

    def draw(gamma):
        fig, (ax,) = _figure()
        plot_iif_gamma(ax, top_k, n_items=n_items, relevant=relevant, names=names, highlight=gamma, log=log)
        now = iif_gamma_scores(top_k, n_items=n_items, relevant=relevant, names=names, gammas=[gamma])
        return [fig, now.style.format("{:.4f}")]

    return explore(draw, gamma=slider(gammas, value=round(gamma, 2), label="γ"))
