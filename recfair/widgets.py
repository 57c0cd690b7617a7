"""Interactive demos for the book and classroom notebooks (ipywidgets).

Every widget draws through a function of :mod:`recfair.plotting` or computes through
:func:`recfair.evaluate`, so the static figure printed before a widget and the widget itself
cannot disagree. Widgets need a live kernel (Jupyter, Binder, Thebe) to react; a static page
shows their initial state.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from .evaluate import evaluate
from .registry import get

__all__ = ["achievable_range", "toy_lists", "parse_lists"]


def _widgets():
    import ipywidgets

    return ipywidgets


def achievable_range(names, *, n_users: int = 20, n_items: int = 100, k: int = 5, k_max: int = 20):
    """Sliders for m, n and k, redrawing the theoretical and achievable ranges of ``names``.

    Returns the ``VBox``; display it as a cell's last expression.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):     # outside a kernel the output widget prints
    ...     box = achievable_range(["Jain_ori", "Jain_our"], n_users=10, n_items=50, k=5)
    >>> type(box).__name__
    'VBox'
    """
    import matplotlib.pyplot as plt

    from .plotting import plot_achievable_range

    w = _widgets()
    names = [names] if isinstance(names, str) else list(names)
    for name in names:
        get(name)
    m = w.IntSlider(value=n_users, min=1, max=200, description="users m")
    n = w.IntSlider(value=n_items, min=2, max=400, description="items n")
    kk = w.IntSlider(value=k, min=1, max=k_max, description="k")
    out = w.Output()

    def draw(*_):
        out.clear_output(wait=True)
        with out:
            fig, axes = plt.subplots(1, len(names), figsize=(4.2 * len(names), 3.2), squeeze=False)
            for ax, name in zip(axes[0], names):
                plot_achievable_range(ax, name, n_users=m.value, n_items=n.value,
                                      k_max=min(k_max, n.value), highlight_k=min(kk.value, n.value))
            plt.show()

    for slider in (m, n, kk):
        slider.observe(draw, names="value")
    draw()
    return w.VBox([w.HBox([m, n, kk]), out])


def parse_lists(text: str) -> np.ndarray:
    """Parse one top-k list per line, items separated by spaces or commas (0-based ints).

    >>> parse_lists("0 1 2\\n3, 4, 5").tolist()
    [[0, 1, 2], [3, 4, 5]]
    """
    rows = [line.replace(",", " ").split() for line in text.strip().splitlines() if line.strip()]
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
    """A text box of top-k lists (one user per line) and a live table of ``measures`` on them.

    Bad input shows the library's error message instead of a table.

    Examples
    --------
    >>> import contextlib, io
    >>> with contextlib.redirect_stdout(io.StringIO()):
    ...     box = toy_lists(["Jain_ori", "QF_ori"], "0 1\\n0 2", n_items=5)
    >>> type(box).__name__
    'HBox'
    """
    w = _widgets()
    names = [measures] if isinstance(measures, str) else list(measures)
    box = w.Textarea(value=lists, description="top-k lists", layout=w.Layout(width="22em", height="8em"))
    n = w.BoundedIntText(value=n_items, min=1, max=100_000, description="items n")
    out = w.Output()

    def update(*_):
        out.clear_output(wait=True)
        with out:
            from IPython.display import display

            try:
                top = parse_lists(box.value)
                values = evaluate(top, n_items=n.value, measures=names, on_undefined="nan", **options)
            except (ValueError, TypeError) as exc:
                print(f"⚠ {exc}")
                return
            display(pd.Series(values, name="score").to_frame().style.format("{:.4f}"))

    box.observe(update, names="value")
    n.observe(update, names="value")
    update()
    return w.HBox([w.VBox([box, n]), out])


def item_vectors(top_k, *, n_items: int, angles, alpha: float = 2.0, beta: float = 0.0):
    """Sliders for each item's direction (degrees) and for alpha and beta, redrawing VoCD's similar pairs.

    Item ``i`` is the unit vector at ``angles[i]`` degrees; the figure comes from
    :func:`recfair.plotting.plot_item_vectors`. Returns the ``VBox``.
    """
    import matplotlib.pyplot as plt

    from .plotting import plot_item_vectors

    w = _widgets()
    if len(angles) != n_items:
        raise ValueError(f"angles needs one direction per item (n_items={n_items}), got {len(angles)}.")
    turns = [w.IntSlider(value=int(a), min=0, max=359, description=f"item {i + 1} (°)")
             for i, a in enumerate(angles)]
    a_slider = w.FloatSlider(value=alpha, min=0.0, max=2.0, step=0.05, description="α")
    b_slider = w.FloatSlider(value=beta, min=0.0, max=0.95, step=0.05, description="β")
    out = w.Output()

    def draw(*_):
        out.clear_output(wait=True)
        with out:
            rad = np.deg2rad([s.value for s in turns])
            fig, ax = plt.subplots(figsize=(4.2, 4.2))
            plot_item_vectors(ax, top_k, n_items=n_items, item_features=np.c_[np.cos(rad), np.sin(rad)],
                              alpha=a_slider.value, beta=b_slider.value)
            plt.show()

    for slider in (*turns, a_slider, b_slider):
        slider.observe(draw, names="value")
    draw()
    return w.VBox([w.HBox([w.VBox(turns), w.VBox([a_slider, b_slider])]), out])


def iid_constant(*, gamma: float = 0.8, k: int = 10, n_range=(10, 10_000)):
    """Sliders for the RBP patience γ and the list length k, redrawing the single-round II-D constant against n.

    Draws through :func:`recfair.plotting.plot_iid_constant`. Returns the ``VBox``.
    """
    import matplotlib.pyplot as plt

    from .plotting import plot_iid_constant

    w = _widgets()
    g_slider = w.FloatSlider(value=gamma, min=0.05, max=0.95, step=0.05, description="γ")
    k_slider = w.IntSlider(value=k, min=1, max=50, description="k")
    out = w.Output()

    def draw(*_):
        out.clear_output(wait=True)
        with out:
            fig, ax = plt.subplots(figsize=(5.5, 3.5))
            plot_iid_constant(ax, ks=(k_slider.value,), gamma=g_slider.value, n_range=n_range)
            plt.show()

    g_slider.observe(draw, names="value")
    k_slider.observe(draw, names="value")
    draw()
    return w.VBox([w.HBox([g_slider, k_slider]), out])


def fsat_range(*, n_users: int = 20, n_items: int = 100, k: int = 10, k_max: int = 20):
    """Sliders for m, n and k, redrawing FSat's thesis band, its true minimum and the always-fair region.

    Draws through :func:`recfair.plotting.plot_fsat_range`. Returns the ``VBox``.
    """
    import matplotlib.pyplot as plt

    from .plotting import plot_fsat_range

    w = _widgets()
    m = w.IntSlider(value=n_users, min=1, max=200, description="users m")
    n = w.IntSlider(value=n_items, min=2, max=400, description="items n")
    kk = w.IntSlider(value=k, min=1, max=k_max, description="k")
    out = w.Output()

    def draw(*_):
        out.clear_output(wait=True)
        with out:
            fig, ax = plt.subplots(figsize=(5.5, 3.5))
            plot_fsat_range(ax, n_users=m.value, n_items=n.value, k_max=min(k_max, n.value),
                            highlight_k=min(kk.value, n.value))
            plt.show()

    for slider in (m, n, kk):
        slider.observe(draw, names="value")
    draw()
    return w.VBox([w.HBox([m, n, kk]), out])


def ifd_nonlocal(names=("IFD_div_ori", "IFD_div_our"), *, n_items: int = 20, k: int = 5, top_positions=(1, 3)):
    """A slider for the rank of one extra relevant item beyond the top-k, with the scores it gives.

    The top-k list stays the same whatever the slider says; the figure comes from
    :func:`recfair.plotting.plot_ifd_nonlocal` (the whole curve, the current rank marked) and
    the table from :func:`recfair.plotting.ifd_nonlocal_scores`. Returns the ``VBox``.
    """
    import matplotlib.pyplot as plt
    from IPython.display import display

    from .plotting import ifd_nonlocal_scores, plot_ifd_nonlocal

    w = _widgets()
    names = [names] if isinstance(names, str) else list(names)
    frame = ifd_nonlocal_scores(names, n_items=n_items, k=k, top_positions=top_positions)
    rank = w.IntSlider(value=k + 1, min=k + 1, max=n_items, description="extra rank")
    out = w.Output()

    def draw(*_):
        out.clear_output(wait=True)
        with out:
            fig, ax = plt.subplots(figsize=(5.5, 3.5))
            plot_ifd_nonlocal(ax, names, n_items=n_items, k=k, top_positions=top_positions,
                              highlight=rank.value)
            plt.show()
            display(frame.loc[[rank.value]].style.format("{:.4f}"))

    rank.observe(draw, names="value")
    draw()
    return w.VBox([rank, out])


def iif_gamma(top_k, *, n_items: int, relevant, names=("II-F_ori", "II-F_our", "AI-F"), gamma: float = 0.8,
              log: bool = False):
    """A slider for the RBP patience ``gamma``, redrawing II-F/AI-F against it on a fixed run.

    The figure comes from :func:`recfair.plotting.plot_iif_gamma` (the whole curve, the
    current ``gamma`` marked; ``log`` as there) and the table from
    :func:`recfair.plotting.iif_gamma_scores`. Returns the ``VBox``.
    """
    import matplotlib.pyplot as plt
    from IPython.display import display

    from .plotting import iif_gamma_scores, plot_iif_gamma

    w = _widgets()
    names = [names] if isinstance(names, str) else list(names)
    slider = w.FloatSlider(value=gamma, min=0.05, max=0.95, step=0.05, description="γ")
    out = w.Output()

    def draw(*_):
        out.clear_output(wait=True)
        with out:
            fig, ax = plt.subplots(figsize=(5.5, 3.5))
            plot_iif_gamma(ax, top_k, n_items=n_items, relevant=relevant, names=names, highlight=slider.value,
                           log=log)
            plt.show()
            now = iif_gamma_scores(top_k, n_items=n_items, relevant=relevant, names=names, gammas=[slider.value])
            display(now.style.format("{:.4f}"))

    slider.observe(draw, names="value")
    draw()
    return w.VBox([slider, out])
