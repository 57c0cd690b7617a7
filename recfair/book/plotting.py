"""Figures for the book and notebooks. Imports matplotlib/seaborn lazily; the core never imports this."""

from __future__ import annotations

import numpy as np
import pandas as pd

__all__ = ["set_book_style", "format_float", "tau_heatmap", "tau_blocks", "tau_figure", "responsive", "Responsive", "plot_achievable_range", "plot_frontier", "stacked",
           "legend_below", "rows_with_legends", "PALETTE", "TAU_CMAP", "PHONE_WIDTH"]

#: The book's series colours, in order (``C0``, ``C1``, ... once :func:`set_book_style` ran): the
#: Okabe–Ito colours, ordered so that the first six (one per model of a study) differ in hue and
#: lightness for every common colour-vision deficiency (seaborn's "colorblind" palette puts three
#: oranges and browns among its first six), then the rest of the set and a dark red.
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#000000",
           "#D55E00", "#999999", "#F0E442", "#882255"]

#: The colour map of every Kendall τ heatmap in the book: diverging, blue for τ = −1 (opposite
#: rankings), white for 0, red for τ = +1 (the same ranking).
TAU_CMAP = "vlag"

#: The widest figure (inches at 100 dpi) whose tick labels (12 pt in the book's style) stay at
#: least 9 px high when a 390 px phone shrinks the figure to its output column (about 320 px).
PHONE_WIDTH = 5.5


def set_book_style() -> None:
    """One seaborn theme, the colour-blind-safe :data:`PALETTE` and one figure size for every chapter.

    The default figure is :data:`PHONE_WIDTH` inches wide, so that its text stays legible when a
    phone shrinks it to the column; multi-panel figures stack their panels (:func:`stacked`).

    Examples
    --------
    >>> set_book_style()
    >>> import matplotlib
    >>> matplotlib.rcParams["figure.figsize"][0] <= PHONE_WIDTH
    True
    >>> from matplotlib.colors import to_hex
    >>> [to_hex(c) for c in matplotlib.rcParams["axes.prop_cycle"].by_key()["color"][:2]]
    ['#0072b2', '#e69f00']
    >>> pd.DataFrame({"x": [0.123456]})
            x
    0  0.1235
    >>> for option in ("display.float_format", "styler.format.formatter", "display.max_colwidth"):
    ...     pd.reset_option(option)
    """
    import matplotlib as mpl
    import seaborn as sns

    sns.set_theme(style="whitegrid", palette=PALETTE, context="notebook", font_scale=1.1)
    mpl.rcParams.update({"figure.figsize": (PHONE_WIDTH, 3.6), "figure.dpi": 100, "savefig.bbox": "tight",
                         "legend.fontsize": 11})
    # tables: four significant digits unless a chapter formats a table itself; whole cells, never "..."
    pd.set_option("display.float_format", format_float)
    pd.set_option("styler.format.formatter", format_float)
    pd.set_option("display.max_colwidth", None)


def format_float(value) -> str:
    """The book's default text for a number in a table: four significant digits.

    Numbers of 1000 or more get thousands separators and no decimals, numbers below
    :math:`10^{-4}` scientific notation; anything that is not a float is shown as it is.
    :func:`set_book_style` makes it pandas' default for DataFrames and Stylers, so that no
    table prints the six unrounded decimals of pandas' default; a chapter that discusses more
    (or fewer) digits formats its table itself.

    Examples
    --------
    >>> [format_float(v) for v in (0.000970, 0.998564, 26.999172, 12345.6, 2.5e-6, 1.0, 3)]
    ['0.00097', '0.9986', '27', '12,346', '2.50e-06', '1', '3']
    """
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (float, np.floating)):
        return str(value)
    if not np.isfinite(value):
        return str(float(value))
    size = abs(value)
    if size >= 1000:
        return f"{value:,.0f}"
    if 0 < size < 1e-4:
        return f"{value:.2e}"
    return f"{value:.4g}"


def stacked(n_panels: int, *, width: float = PHONE_WIDTH, panel_height: float = 2.8, ncols: int = 1,
            sharex: bool = False, sharey: bool = False):
    """A figure whose panels are stacked (``ncols`` per row, one by default): ``(fig, axes)``.

    The book's layout for multi-panel figures: stacked panels keep a figure :data:`PHONE_WIDTH`
    wide, so it is not shrunk below legibility on a phone, and read top to bottom on a desktop.
    ``axes`` is a flat array of ``n_panels`` axes (extra cells of the last row are removed).

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, axes = stacked(3, ncols=2)
    >>> len(axes), bool(fig.get_figwidth() <= PHONE_WIDTH), type(fig.get_layout_engine()).__name__
    (3, True, 'TightLayoutEngine')
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    if n_panels < 1 or ncols < 1:
        raise ValueError(f"need at least one panel and one column, got {n_panels} and {ncols}.")
    nrows = -(-n_panels // ncols)
    # the tight layout engine runs at every draw, so a panel's x-label and the next panel's title
    # never overlap whether or not the chapter calls fig.tight_layout() (which, on this engine,
    # changes nothing and warns of nothing)
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, panel_height * nrows), squeeze=False,
                             sharex=sharex, sharey=sharey, layout="tight")
    axes = axes.ravel()
    for ax in axes[n_panels:]:
        ax.remove()
    return fig, axes[:n_panels]


def rows_with_legends(nrows: int, ncols: int = 2, *, width: float = PHONE_WIDTH, panel_height: float = 2.4,
                      legend_height: float = 0.8, sharex: bool = False):
    """Panels in ``nrows`` rows of ``ncols``, each row followed by a strip for that row's legend.

    For figures whose rows show different series (one legend per row): the legend goes in the
    strip under its row, never over a curve, and the figure stays :data:`PHONE_WIDTH` wide.
    Returns ``(fig, axes, strips)``: ``axes`` of shape ``(nrows, ncols)`` and one blank axes per
    row; fill a strip with ``strip.legend(*axes[r, 0].get_legend_handles_labels(), loc="center")``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, axes, strips = rows_with_legends(3)
    >>> axes.shape, len(strips), strips[0].axison
    ((3, 2), 3, False)
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt

    if nrows < 1 or ncols < 1:
        raise ValueError(f"need at least one row and one column, got {nrows} and {ncols}.")
    fig = plt.figure(figsize=(width, nrows * (panel_height + legend_height)), layout="constrained")
    grid = fig.add_gridspec(2 * nrows, ncols, height_ratios=[panel_height, legend_height] * nrows)
    axes = np.empty((nrows, ncols), dtype=object)
    for r in range(nrows):
        for c in range(ncols):
            share = axes[0, c] if (sharex and r > 0) else None
            axes[r, c] = fig.add_subplot(grid[2 * r, c], sharex=share)
    strips = [fig.add_subplot(grid[2 * r + 1, :]) for r in range(nrows)]
    for strip in strips:
        strip.axis("off")
    return fig, axes, strips


def legend_below(fig, ax=None, *, ncol: int = 3, **kwargs):
    """One legend for the whole figure, centred below its panels (never over a curve); returns it.

    The handles come from ``ax`` (default: the first axes that has labelled artists). Call it
    after ``fig.tight_layout()``; the legend sits under the figure and ``savefig.bbox="tight"``
    makes room for it.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, axes = stacked(2)
    >>> _ = axes[0].plot([0, 1], [0, 1], label="a")
    >>> legend_below(fig).get_texts()[0].get_text()
    'a'
    >>> plt.close(fig)
    """
    axes = [ax] if ax is not None else [a for a in fig.axes if a.get_legend_handles_labels()[0]]
    if not axes:
        raise ValueError("no labelled artists to put in a legend.")
    handles, labels = axes[0].get_legend_handles_labels()
    for a in fig.axes:
        if a.get_legend() is not None:
            a.get_legend().remove()
    return fig.legend(handles, labels, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=ncol,
                      frameon=False, **kwargs)


def _tau_label(v: float, annot_fmt: str) -> str:
    """A τ cell's label: no leading zero (``.87``, ``−.47``), ``1``/``−1`` for exact agreement, ``""`` for NaN."""
    if np.isnan(v):
        return ""
    if np.isclose(abs(v), 1):
        return "1" if v > 0 else "−1"
    return format(v, annot_fmt).replace("0.", ".", 1).replace("-", "−")


def _check_tau(tau, significant) -> pd.DataFrame:
    if not isinstance(tau, pd.DataFrame):
        raise TypeError("tau must be a square DataFrame (measures x measures) or a DataFrame block "
                        "(rows x columns of measures).")
    if significant is not None and getattr(significant, "shape", None) != tau.shape:
        raise ValueError(f"significant must have tau's shape {tau.shape}.")
    return tau.astype(float)


def _draw_tau(ax, tau: pd.DataFrame, significant, mask, *, annot_fmt, vmin, vmax, fontsize, cbar, diagonal):
    """Draw ``tau`` (cells under ``mask`` left blank) on ``ax``: the one drawing of every τ heatmap."""
    import seaborn as sns
    from matplotlib.patches import Rectangle

    rows, cols = tau.shape
    labels = tau.map(lambda v: _tau_label(v, annot_fmt)).to_numpy()
    plain = np.ones(tau.shape, dtype=bool) if significant is None else (
        np.asarray(significant, dtype=bool) | diagonal)
    sns.heatmap(tau, mask=mask, annot=labels, fmt="", cmap=TAU_CMAP, vmin=vmin, vmax=vmax,
                square=True, linewidths=0.5, linecolor="white", cbar=cbar,
                cbar_kws={"label": "Kendall τ-b", "shrink": 0.5} if cbar else None,
                annot_kws={"size": fontsize}, ax=ax)
    ax.grid(False)
    # seaborn writes one text per unmasked cell, row by row (an empty label for NaN)
    missing = tau.isna().to_numpy()
    cells = [(r, c) for r in range(rows) for c in range(cols) if not (mask[r, c] or missing[r, c])]
    for (r, c), text in zip(cells, ax.texts):
        if not plain[r, c]:
            text.set_color("0.25")
            ax.add_patch(Rectangle((c, r), 1, 1, fill=False, hatch="//", edgecolor="0.7",
                                   linewidth=0))
    for r, c in zip(*np.nonzero(missing & ~mask)):      # undefined τ (a constant measure): a dash
        ax.text(c + 0.5, r + 0.5, "–", ha="center", va="center", fontsize=fontsize, color="0.4")
    ax.set(xlabel="", ylabel="")
    ax.tick_params(length=0)
    return ax


def tau_heatmap(tau: pd.DataFrame, significant: pd.DataFrame | None = None, *, ax=None, title=None,
                annot_fmt: str = ".2f", vmin: float = -1.0, vmax: float = 1.0, fontsize: float = 8.5):
    """Heatmap of a Kendall τ matrix; non-significant pairs are hatched.

    A square matrix of measures against themselves shows its lower triangle; any other matrix
    (e.g. group measures against individual ones) is shown whole. Every τ heatmap of the book is
    drawn here, in :data:`TAU_CMAP` (blue −1, white 0, red +1), with white cell borders and no
    grid lines over the numbers. Each cell is labelled with its τ in ``annot_fmt`` without the leading zero (``.87``,
    ``−.47``; exact agreement shows as ``1``), so that labels stay legible when a matrix of
    some twenty measures is shrunk to a page's width; a pair that is not significant
    (``significant`` False) is hatched and its label greyed. Returns the matplotlib ``Axes``.
    No ``show``. A matrix of more than about ten measures is too wide for a phone: draw it
    also with :func:`tau_blocks` and show the two with :func:`responsive`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> tau = pd.DataFrame([[1.0, 0.5], [0.5, 1.0]], index=["NDCG", "Jain_our"], columns=["NDCG", "Jain_our"])
    >>> ax = tau_heatmap(tau)
    >>> ax.get_xticklabels()[0].get_text(), sorted(t.get_text() for t in ax.texts)
    ('NDCG', ['.50', '1', '1'])
    >>> plt.close("all")
    """
    import matplotlib.pyplot as plt

    tau = _check_tau(tau, significant)
    rows, cols = tau.shape
    square = rows == cols and list(tau.index) == list(tau.columns)
    if ax is None:
        _, ax = plt.subplots(figsize=(0.40 * cols + 1.8, 0.40 * rows + 1.0))
    mask = np.triu(np.ones(tau.shape, dtype=bool), k=1) if square else np.zeros(tau.shape, dtype=bool)
    diagonal = np.eye(rows, dtype=bool) if square else np.zeros(tau.shape, dtype=bool)
    _draw_tau(ax, tau, significant, mask, annot_fmt=annot_fmt, vmin=vmin, vmax=vmax, fontsize=fontsize,
              cbar=True, diagonal=diagonal)
    if title:
        ax.set_title(title)
    return ax


def tau_blocks(tau: pd.DataFrame, significant: pd.DataFrame | None = None, *, columns: int = 10, title=None,
               annot_fmt: str = ".2f", fontsize: float = 11.0, cell: float = 0.38):
    """A square τ matrix as stacked blocks of at most ``columns`` columns: its phone layout.

    The lower triangle of :func:`tau_heatmap`, cut into vertical slices of ``columns`` measures
    (the first slice against every measure, the next against the measures from its own first one
    on, and so on) and stacked top to bottom, with one horizontal colour bar under them. With the
    default ten columns of ``cell`` inches the figure stays within :data:`PHONE_WIDTH`, so its
    labels (``fontsize`` points) stay at least 9 px high on a 390 px phone. Same colours,
    labels and hatching as :func:`tau_heatmap`. Returns the matplotlib ``Figure``; no ``show``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> import pandas as pd
    >>> names = [f"M{i}" for i in range(12)]
    >>> tau = pd.DataFrame(np.eye(12), index=names, columns=names)
    >>> fig = tau_blocks(tau, columns=8)
    >>> [len(ax.get_xticklabels()) for ax in fig.axes[:2]], [len(ax.get_yticklabels()) for ax in fig.axes[:2]]
    ([8, 4], [12, 4])
    >>> plt.close(fig)
    """
    import matplotlib.pyplot as plt
    from matplotlib.colors import Normalize

    tau = _check_tau(tau, significant)
    n = tau.shape[0]
    if tau.shape[1] != n or list(tau.index) != list(tau.columns):
        raise ValueError("tau_blocks draws a square matrix of measures against themselves; "
                         "draw a rectangular block with tau_heatmap.")
    if not isinstance(columns, (int, np.integer)) or isinstance(columns, bool) or columns < 1:
        raise ValueError(f"columns must be a positive integer, got {columns!r}.")
    sig = None if significant is None else pd.DataFrame(np.asarray(significant, dtype=bool),
                                                        index=tau.index, columns=tau.columns)
    starts = list(range(0, n, columns))
    heights = [n - s for s in starts]
    width = min(columns, n) * cell + 1.6
    label_room = 1.3                                        # rotated column names under each block
    fig = plt.figure(figsize=(width, sum(h * cell + label_room for h in heights) + 0.9), layout="constrained")
    grid = fig.add_gridspec(len(starts) + 1, 1, height_ratios=[h * cell + label_room for h in heights] + [0.35])
    for b, s in enumerate(starts):
        e = min(s + columns, n)
        block = tau.iloc[s:, s:e]
        rows = np.arange(s, n)[:, None]
        cols_ = np.arange(s, e)[None, :]
        mask = cols_ > rows
        diagonal = cols_ == rows
        ax = fig.add_subplot(grid[b, 0])
        _draw_tau(ax, block, None if sig is None else sig.iloc[s:, s:e], mask, annot_fmt=annot_fmt,
                  vmin=-1.0, vmax=1.0, fontsize=fontsize, cbar=False, diagonal=diagonal)
        ax.set_xlim(0, columns)                             # every block's cells the same size
        ax.set_aspect("equal")
        if b == 0 and title:
            ax.set_title(title)
    bar = fig.add_subplot(grid[-1, 0])
    fig.colorbar(plt.cm.ScalarMappable(norm=Normalize(-1, 1), cmap=TAU_CMAP), cax=bar, orientation="horizontal",
                 label="Kendall τ-b", ticks=[-1, -0.5, 0, 0.5, 1])
    return fig


class Responsive:
    """One figure in two layouts: ``wide`` on a desktop or tablet, ``narrow`` on a phone.

    Shown as HTML holding both images; a stylesheet rule inside it shows ``narrow`` only when the
    page (or the notebook's output area) is narrower than ``breakpoint`` pixels, ``wide``
    otherwise. The images are rendered at 100 dpi, never enlarged, and the figures are closed.
    Made by :func:`responsive`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> view = Responsive(plt.figure(figsize=(8, 3)), plt.figure(figsize=(4, 3)), breakpoint=600)
    >>> sorted(view.png), "max-width:599.98px" in view._repr_html_()
    (['narrow', 'wide'], True)
    """

    def __init__(self, wide, narrow=None, *, breakpoint: int = 768, alt: str = "figure"):
        self.breakpoint = int(breakpoint)
        self.alt = str(alt)
        self.png = {"wide": _png_uri(wide)}
        if narrow is not None:
            self.png["narrow"] = _png_uri(narrow)

    def _repr_html_(self) -> str:
        import html

        b, alt = self.breakpoint, html.escape(self.alt)
        style = "" if len(self.png) == 1 else (          # two layouts: the screen's width picks one
            f"<style>@media (max-width:{b - 0.02}px){{.rf-wide-only{{display:none!important}}}}"
            f"@media (min-width:{b}px){{.rf-narrow-only{{display:none!important}}}}</style>")
        imgs = "".join(f'<img class="rf-{kind}-only" style="max-width:100%;height:auto" alt="{alt}" src="{uri}">'
                       for kind, uri in self.png.items())
        return f'<div class="rf-responsive">{style}{imgs}</div>'


def tau_figure(tau: pd.DataFrame, significant: pd.DataFrame | None = None, *, title=None, columns: int = 10,
               alt: str | None = None) -> Responsive:
    """The book's τ figure: :func:`tau_heatmap` on wide screens, :func:`tau_blocks` on phones.

    A square matrix of more than ``columns`` measures is too wide to stay legible on a phone, so
    the phone gets its lower triangle in stacked blocks of ``columns``; a smaller matrix, or a
    rectangular block, is the one heatmap everywhere. Returns a :class:`Responsive`.

    Examples
    --------
    >>> import numpy as np
    >>> import pandas as pd
    >>> names = [f"M{i}" for i in range(12)]
    >>> view = tau_figure(pd.DataFrame(np.eye(12), index=names, columns=names), title="demo")
    >>> sorted(view.png)
    ['narrow', 'wide']
    """
    tau = _check_tau(tau, significant)
    square = tau.shape[0] == tau.shape[1] and list(tau.index) == list(tau.columns)
    alt = alt or f"Kendall τ-b between {tau.shape[0]} measures" + (f" ({title})" if title else "")
    wide = tau_heatmap(tau, significant, title=title).figure
    narrow = tau_blocks(tau, significant, columns=columns, title=title) if square and tau.shape[0] > columns else None
    return responsive(wide, narrow, alt=alt)


def _png_uri(fig, *, dpi: int = 100, close: bool = True) -> str:
    """``fig`` (a Figure or an Axes) as a PNG ``data:`` URI at ``dpi``, tight; closed unless ``close=False``.

    The one figure-to-image step of the book's HTML outputs (:class:`Responsive`, the explorers).
    The image is quantised to a palette of at most 256 colours, without dithering (Pillow, which
    matplotlib requires): the book's figures are flat colours and antialiased lines, which a
    palette keeps to the eye, and an explorer that precomputes a hundred states stays a page of
    a few megabytes rather than six (the browser check fails a page over 4 MB).
    """
    import base64
    import io

    import matplotlib.pyplot as plt
    from PIL import Image

    if not hasattr(fig, "savefig"):
        fig = getattr(fig, "figure", fig)                   # an Axes: its figure
    if not hasattr(fig, "savefig"):
        raise TypeError(f"expected a matplotlib Figure or Axes, got {type(fig).__name__}.")
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=dpi, bbox_inches="tight")
    if close:
        plt.close(fig)
    buf.seek(0)
    palette = Image.open(buf).quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    palette.save(out, format="png", optimize=True)
    return "data:image/png;base64," + base64.b64encode(out.getvalue()).decode("ascii")


def responsive(wide, narrow=None, *, breakpoint: int = 768, alt: str = "figure") -> Responsive:
    """Show ``wide`` on wide screens and ``narrow`` on phones (Figures or Axes); closes both.

    ``narrow=None`` shows ``wide`` everywhere (a figure that already fits a phone).
    For a figure that cannot be both complete and legible on a phone, such as a τ matrix of
    twenty measures (:func:`tau_heatmap` for the page, :func:`tau_blocks` for the phone): the
    page carries both images and shows one, by the width of the screen. Returns a
    :class:`Responsive`, which Jupyter and the book display as HTML.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> view = responsive(plt.figure(figsize=(8, 3)), plt.figure(figsize=(4, 3)), alt="demo")
    >>> html = view._repr_html_()
    >>> html.count("<img"), "rf-narrow-only" in html, plt.get_fignums()
    (2, True, [])
    """
    return Responsive(wide, narrow, breakpoint=breakpoint, alt=alt)


def plot_achievable_range(ax, measure: str, *, n_users: int, n_items: int, k_max: int, highlight_k=None):
    """Draw the achievable band of ``measure`` against k (1..k_max) on ``ax``; return ``ax``.

    The band runs from the score of the most unfair to that of the most fair achievable top-k
    lists (:func:`recfair.bounds.achievable`); dashed lines mark the theoretical range, and a
    dotted line marks ``k = n / m`` where the slots ``km`` equal the catalogue. The title states (m, n); no show.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots()
    >>> plot_achievable_range(ax, "Jain_ori", n_users=10, n_items=50, k_max=10) is ax
    True
    >>> plt.close(fig)
    """
    from ..bounds import achievable
    from ..registry import get

    spec = get(measure)
    ks = np.arange(1, min(k_max, n_items) + 1)
    bands = [achievable(measure, n_users, n_items, int(k)) for k in ks]
    unfair = np.array([b.most_unfair for b in bands], dtype=float)
    fair = np.array([b.most_fair for b in bands], dtype=float)
    ax.fill_between(ks, unfair, fair, alpha=0.3, step="mid", label="achievable")
    ax.plot(ks, fair, marker="o", ms=3, lw=1, label="most fair")
    ax.plot(ks, unfair, marker="v", ms=3, lw=1, label="most unfair")
    for level in spec.range:
        if np.isfinite(level):
            ax.axhline(level, ls="--", lw=0.8, color="grey")
    if n_items / n_users <= ks[-1]:
        ax.axvline(n_items / n_users, ls=":", lw=1, color="grey")
    if highlight_k is not None:
        ax.axvline(highlight_k, color="k", lw=1.2)
    better = "higher" if spec.higher_is_better else "lower"
    ax.set(xlabel="list length k", ylabel=f"{measure} ({better} is fairer)",
           title=f"m = {n_users}, n = {n_items}")
    ax.legend(fontsize="small", loc="best")
    return ax


def plot_item_vectors(ax, top_k, *, n_items: int, item_features, alpha: float = 2.0, beta: float = 0.0):
    """Draw 2-D item representations as arrows and join the alpha-similar recommended pairs; return ``ax``.

    Each arrow is an item's direction (its length does not matter for cosine similarity),
    labelled with its count :math:`c_i`; unrecommended items are grey. A line joins every pair
    of recommended items whose cosine distance is at most ``alpha`` (within 1e-12, as in
    :func:`recfair.vocd`): the set :math:`A` of VoCD. The title gives :func:`recfair.vocd` of
    ``top_k`` with these features (NaN when :math:`A` is empty). No show.
    """
    from matplotlib.patches import Circle

    from ..item_exposure import vocd

    top_k = np.asarray(top_k)
    feats = np.asarray(item_features, dtype=float)
    if feats.shape != (n_items, 2):
        raise ValueError(f"item_features must have shape (n_items={n_items}, 2) to be drawn, got {feats.shape}.")
    unit = feats / np.linalg.norm(feats, axis=1, keepdims=True)
    counts = np.bincount(top_k.ravel(), minlength=n_items)
    shown = np.flatnonzero(counts)
    cosine_distance = 1.0 - unit @ unit.T
    ax.add_patch(Circle((0, 0), 1.0, fill=False, lw=0.6, color="lightgrey"))
    for a, i in enumerate(shown):
        for j in shown[a + 1:]:
            if cosine_distance[i, j] <= alpha + 1e-12:
                ax.plot(*zip(unit[i], unit[j]), color="crimson", lw=2.5, alpha=0.8, zorder=1)
    for i, (x, y) in enumerate(unit):
        colour = "C0" if counts[i] else "grey"
        ax.annotate("", xy=(x, y), xytext=(0, 0), zorder=2,
                    arrowprops={"arrowstyle": "-|>", "color": colour, "lw": 1.5})
        radius = 1.12 + 0.18 * (i % 2)                 # stagger labels of neighbouring items
        ha = "left" if x > 0.3 else "right" if x < -0.3 else "center"
        ax.text(radius * x, radius * y, f"$i_{{{i + 1}}}$: $c={counts[i]}$", ha=ha, va="center",
                fontsize="small", color=colour)
    score = vocd(top_k, n_items=n_items, alpha=alpha, beta=beta, item_features=feats, on_undefined="nan")
    ax.set(xlim=(-2.0, 2.0), ylim=(-1.7, 1.7), aspect="equal", xticks=[], yticks=[],
           title=f"α = {alpha:g}, β = {beta:g}: VoCD = {score:.3f}")
    ax.grid(False)
    return ax


def plot_iid_constant(ax, *, ks=(1, 5, 10, 20), gamma: float = 0.8, n_range=(10, 10_000), points=None):
    """Draw the single-round II-D constant against the catalogue size ``n`` (log-log); return ``ax``.

    One line per list length in ``ks``, from :func:`recfair.bounds.iid_single_round`, over
    ``n`` in ``n_range`` (only ``n >= k``). ``points`` optionally maps a label to
    ``(n, value)``, marked with a cross (e.g. published values). No show.
    """
    from ..item_exposure.bounds import iid_single_round

    n_all = np.unique(np.geomspace(n_range[0], n_range[1], 200).astype(int))
    for k in ks:
        n_k = n_all[n_all >= k]
        ax.plot(n_k, [iid_single_round(int(n), int(k), gamma=gamma) for n in n_k], label=f"k = {k}")
    for index, (label, (n, value)) in enumerate((points or {}).items()):
        ax.plot([n], [value], marker="x", color="k", ms=7, ls="none")
        offset = (-6, 8) if index % 2 == 0 else (6, -12)      # alternate sides: close points stay legible
        ax.annotate(label, (n, value), textcoords="offset points", xytext=offset, fontsize="x-small",
                    ha="right" if index % 2 == 0 else "left")
    ax.set(xscale="log", yscale="log", xlabel="catalogue size n",
           ylabel="single-round II-D (lower: fairer)", title=f"γ = {gamma:g}")
    ax.legend(fontsize="small", loc="lower left")
    return ax


def plot_fsat_range(ax, *, n_users: int, n_items: int, k_max: int, highlight_k=None):
    """Draw FSat's range against k: the thesis's band, the true minimum and the always-fair region; return ``ax``.

    The band is :func:`plot_achievable_range` of ``"FSat_ori"``, i.e. the thesis's ends
    ``k/n`` and 1. Black crosses mark the true minimum over all top-k recommendations,
    :func:`recfair.bounds.fsat_true_minimum`, which lies below ``k/n`` whenever fewer than
    ``k`` items can be left satisfied. A grey span covers the list lengths with ``km < n``,
    where the maximin share is 0 and every recommendation scores 1 (always-fair). No show.
    """
    from ..item_exposure.bounds import fsat_true_minimum

    plot_achievable_range(ax, "FSat_ori", n_users=n_users, n_items=n_items, k_max=k_max,
                          highlight_k=highlight_k)
    ks = np.arange(1, min(k_max, n_items) + 1)
    lowest = [fsat_true_minimum(n_users, n_items, int(k)) for k in ks]
    ax.plot(ks, lowest, marker="x", ms=5, lw=1, color="k", label="true minimum")
    always = ks[ks * n_users < n_items]
    if always.size:
        ax.axvspan(0.5, always[-1] + 0.5, color="grey", alpha=0.2, lw=0, label="always fair (km < n)")
    ax.legend(fontsize="small", loc="best")
    return ax


def ifd_nonlocal_scores(names, *, n_items: int, k: int, top_positions=(1, 3)) -> pd.DataFrame:
    """Scores of one user whose extra relevant item moves from rank ``k + 1`` to rank ``n``.

    The user's full ranking is items ``0..n-1`` in order; the items at the 1-based
    ``top_positions`` (all ``<= k``) are relevant, and so is one more item, placed at every
    rank ``k + 1..n`` in turn. The top-k list is the same in every row. Returns a DataFrame
    indexed by that rank (``"rank of the extra relevant item"``), one column per measure of
    ``names`` computed by :func:`recfair.evaluate` (undefined values are NaN).
    """
    from ..engine import evaluate

    names = [names] if isinstance(names, str) else list(names)
    top = [int(p) for p in top_positions]
    if not 1 <= k < n_items or any(not 1 <= p <= k for p in top):
        raise ValueError(f"need 1 <= k < n_items and top_positions within 1..k; got k={k}, "
                         f"n_items={n_items}, top_positions={top}.")
    ranking = np.arange(n_items)[None, :]
    rows = {}
    for rank in range(k + 1, n_items + 1):
        relevant = [[p - 1 for p in top] + [rank - 1]]
        rows[rank] = evaluate(ranking[:, :k], n_items=n_items, measures=names, relevant=relevant, ranking=ranking, on_undefined="nan")
    frame = pd.DataFrame.from_dict(rows, orient="index")
    frame.index.name = "rank of the extra relevant item"
    return frame


def plot_ifd_nonlocal(ax, names, *, n_items: int, k: int, top_positions=(1, 3), highlight=None):
    """Draw :func:`ifd_nonlocal_scores` against the extra item's rank on ``ax``; return ``ax``.

    One line per measure; ``highlight`` (a rank in ``k + 1..n``) marks that rank with a
    vertical line. The top-k list never changes along the x-axis. No show.
    """
    frame = ifd_nonlocal_scores(names, n_items=n_items, k=k, top_positions=top_positions)
    for name in frame.columns:
        ax.plot(frame.index, frame[name], marker="o", ms=3, label=name)
    if highlight is not None:
        ax.axvline(highlight, color="k", lw=1.2)
    ax.set(xlabel=f"rank of the extra relevant item (beyond k = {k})", ylabel="score (lower is fairer)")
    ax.legend(fontsize="small", loc="best")
    return ax


def iif_gamma_scores(top_k, *, n_items: int, relevant, names=("II-F_ori", "II-F_our", "AI-F"),
                     gammas=None) -> pd.DataFrame:
    """Scores of RBP-based joint measures on one run for each RBP patience ``gamma`` (one row each).

    ``gammas`` defaults to 0.05, 0.10, ..., 0.95; every score comes from :func:`recfair.evaluate`
    (undefined values are NaN). Columns follow ``names``; the index is named ``"gamma"``.
    """
    from ..engine import evaluate

    names = [names] if isinstance(names, str) else list(names)
    gammas = np.round(np.arange(1, 20) * 0.05, 2) if gammas is None else np.asarray(gammas, dtype=float)
    rows = {float(g): evaluate(top_k, n_items=n_items, measures=names, relevant=relevant, gamma=float(g), on_undefined="nan")
            for g in gammas}
    return pd.DataFrame.from_dict(rows, orient="index")[names].rename_axis("gamma")


def plot_iif_gamma(ax, top_k, *, n_items: int, relevant, names=("II-F_ori", "II-F_our", "AI-F"),
                   gammas=None, highlight=None, log: bool = False):
    """Draw the scores of :func:`iif_gamma_scores` against ``gamma`` on ``ax``; return ``ax``.

    ``highlight`` marks one patience value with a vertical line (the thesis uses 0.8);
    ``log=True`` uses a log-scaled y-axis (the original scores are orders of magnitude below
    the corrected one). No show.
    """
    frame = iif_gamma_scores(top_k, n_items=n_items, relevant=relevant, names=names, gammas=gammas)
    for name in frame.columns:
        ax.plot(frame.index, frame[name], marker=".", label=name)
    if highlight is not None:
        ax.axvline(highlight, color="k", lw=1.2)
    ax.set(xlabel="RBP patience γ", ylabel="score (lower is fairer)", yscale="log" if log else "linear")
    ax.legend(fontsize="small", loc="best")
    return ax


def plot_per_user(axes, per_user: dict, keys, *, bins: int = 30):
    """Histograms of per-user scores: one panel per measure in ``keys``, one outline per run.

    ``per_user`` maps a run label to a frame of per-user values (as
    :func:`recfair.evaluate_per_user` returns, one column per measure); NaN users are left
    out. ``axes`` holds one axis per key. Returns ``axes``; no show.
    """
    from ..registry import REGISTRY

    keys = [keys] if isinstance(keys, str) else list(keys)
    axes = np.atleast_1d(axes)
    if len(axes) != len(keys):
        raise ValueError(f"need one axis per measure: {len(keys)} measures, {len(axes)} axes.")
    for ax, key in zip(axes, keys):
        values = {label: frame[key].dropna().to_numpy() for label, frame in per_user.items()}
        pooled = np.concatenate(list(values.values()))
        edges = np.histogram_bin_edges(pooled, bins=bins) if pooled.size else bins
        for label, vals in values.items():
            ax.hist(vals, bins=edges, histtype="step", lw=1.5, label=label)
        ax.set(xlabel=f"{key} per user ({REGISTRY[key].direction})", ylabel="users")
        ax.legend(fontsize="small")
    return axes


def plot_frontier(ax, table: pd.DataFrame, rel: str, fair: str, *, runs: pd.DataFrame | None = None,
                  fairness_weight: float = 0.5, title=None):
    """Draw the Pareto frontier of (``rel``, ``fair``), its reference point and optional runs; return ``ax``.

    ``table`` is a frontier sequence (:func:`recfair.pareto.oracle2fair`); the frontier comes
    from :func:`recfair.pareto.frontier` and the star marks :func:`recfair.pareto.reference_point`
    at ``fairness_weight``. ``runs`` (one row per run, columns ``rel`` and ``fair``) are drawn as dots.
    Axis labels name the measures without the ``_our`` suffix. No show.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> t = pd.DataFrame({"P": [1.0, 0.5, 0.0], "Jain_our": [0.0, 0.5, 1.0]})
    >>> fig, ax = plt.subplots()
    >>> plot_frontier(ax, t, "P", "Jain_our").get_ylabel()
    'Jain'
    >>> plt.close(fig)
    """
    from ..pareto import frontier, reference_point

    front = frontier(table, rel=rel, fair=fair)
    ax.plot(front[rel], front[fair], color="0.3", lw=2, label="frontier")
    star = reference_point(table, rel=rel, fair=fair, fairness_weight=fairness_weight)
    ax.plot(*star, marker="*", color=PALETTE[6], ms=13, ls="none",
            label="midpoint" if fairness_weight == 0.5 else f"reference point (α = {fairness_weight:g})")
    if runs is not None:
        ax.scatter(runs[rel], runs[fair], s=16, color=PALETTE[0], label="runs", zorder=3)
    k = table.attrs.get("k")
    ax.set(xlabel=f"{rel}@{k}" if k else rel, ylabel=fair.removesuffix("_our"))
    if title:
        ax.set_title(title)
    return ax
