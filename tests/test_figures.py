"""The book's figure conventions (recfair.book.plotting): colour-blind-safe series colours, one τ colour
map for square and rectangular matrices without grid lines, stacked phone-width panels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from recfair.book import plotting  # noqa: E402

# Machado et al. (2009) simulation matrices, severity 1, on linear RGB.
_CVD = {
    "normal": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868], [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968], [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
    "tritanopia": np.array([[1.255528, -0.076749, -0.178779], [-0.078411, 0.930809, 0.147602],
                            [0.004733, 0.691367, 0.303900]]),
}


def _lab(hex_colour: str, matrix: np.ndarray) -> np.ndarray:
    rgb = np.array([int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)])
    linear = np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)
    xyz = np.array([[0.4124, 0.3576, 0.1805], [0.2126, 0.7152, 0.0722],
                    [0.0193, 0.1192, 0.9505]]) @ np.clip(matrix @ linear, 0, 1)
    t = xyz / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > 0.008856, np.cbrt(t), 7.787 * t + 16 / 116)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _closest_pair(colours, matrix) -> float:
    labs = [_lab(c, matrix) for c in colours]
    return min(float(np.linalg.norm(a - b)) for i, a in enumerate(labs) for b in labs[i + 1:])


@pytest.mark.parametrize("vision", sorted(_CVD))
def test_first_six_series_colours_stay_apart_for_colour_blind_readers(vision):
    # six series (the models of a study) at least 15 CIELAB units apart under each simulation
    assert _closest_pair(plotting.PALETTE[:6], _CVD[vision]) >= 15


def test_the_colour_test_rejects_seaborns_colorblind_palette():
    # its orange (C1) and tan (C5) are what the issue found indistinguishable: the test must catch it
    sns = pytest.importorskip("seaborn")
    palette = sns.color_palette("colorblind").as_hex()[:6]
    assert min(_closest_pair(palette, m) for m in _CVD.values()) < 15


@pytest.fixture
def book_style():
    plotting.set_book_style()
    yield
    for option in ("display.float_format", "styler.format.formatter", "display.max_colwidth"):
        pd.reset_option(option)


def test_book_style_formats_table_floats_and_never_cuts_cells(book_style):
    frame = pd.DataFrame({"x": [0.000970, 0.998564], "why": ["a long reason " * 10, "b"]})
    html = frame.to_html() + frame.style.to_html()
    assert "0.9986" in html and "0.998564" not in html and "0.00097" in html
    assert "..." not in html and "…" not in html


def test_book_style_uses_the_palette_and_a_phone_width(book_style):
    from matplotlib.colors import to_hex

    cycle = [to_hex(c) for c in matplotlib.rcParams["axes.prop_cycle"].by_key()["color"]]
    assert cycle[:len(plotting.PALETTE)] == [c.lower() for c in plotting.PALETTE]
    assert matplotlib.rcParams["figure.figsize"][0] <= plotting.PHONE_WIDTH


def test_tau_heatmap_draws_a_rectangular_block_whole_with_dashes_for_undefined():
    tau = pd.DataFrame([[0.5, np.nan], [-0.25, 1.0], [0.9, 0.1]], index=["Min", "SD", "Gini"],
                       columns=["SD_ind", "Gini_ind"])
    sig = pd.DataFrame(True, index=tau.index, columns=tau.columns)
    sig.loc["Min", "SD_ind"] = False
    ax = plotting.tau_heatmap(tau, sig)
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted([".50", "–", "−.25", "1", ".90", ".10"])
    assert len([p for p in ax.patches if p.get_hatch()]) == 1
    assert not any(line.get_visible() for line in ax.get_xgridlines() + ax.get_ygridlines())
    assert ax.collections[0].get_cmap().name == plotting.TAU_CMAP
    plt.close("all")


def test_every_tau_heatmap_has_the_same_colour_direction():
    square = pd.DataFrame([[1.0, -0.5], [-0.5, 1.0]], index=["a", "b"], columns=["a", "b"])
    block = pd.DataFrame([[-0.5]], index=["a"], columns=["b"])
    colours = []
    for tau in (square, block):
        mesh = plotting.tau_heatmap(tau)
        colours.append(mesh.collections[0].get_cmap()(mesh.collections[0].norm(-0.5)))
    assert np.allclose(colours[0], colours[1])
    plt.close("all")


def test_stacked_panels_keep_the_phone_width_and_legend_goes_below():
    fig, axes = plotting.stacked(3, ncols=2)
    assert len(axes) == 3 and fig.get_figwidth() <= plotting.PHONE_WIDTH
    axes[0].plot([0, 1], [0, 1], label="a")
    axes[0].legend()
    legend = plotting.legend_below(fig)
    assert axes[0].get_legend() is None and legend.get_texts()[0].get_text() == "a"
    with pytest.raises(ValueError, match="at least one panel"):
        plotting.stacked(0)
    plt.close(fig)


def test_plot_frontier_draws_the_frontier_its_midpoint_and_the_runs():
    table = pd.DataFrame({"replacements": [0, 1, 2], "NDCG": [1.0, 0.5, 0.0], "Jain_our": [0.0, 0.5, 1.0]})
    table.attrs["k"] = 10
    runs = pd.DataFrame({"NDCG": [0.2, 0.3], "Jain_our": [0.1, 0.2]})
    fig, ax = plt.subplots()
    plotting.plot_frontier(ax, table, "NDCG", "Jain_our", runs=runs)
    labels = ax.get_legend_handles_labels()[1]
    assert labels == ["frontier", "midpoint", "runs"] and ax.get_xlabel() == "NDCG@10"
    star = ax.lines[1].get_xydata()[0]
    assert np.allclose(star, [0.5, 0.5])
    plt.close(fig)


# ----------------------------------------------------------------------------- τ matrices on phones

_PHONE_COLUMN = 342   # px: the figure column of a 390 px phone (measured by .ci/browser_check.py)


def _twenty(seed=0):
    names = ["HR", "MRR", "P", "R", "MAP", "NDCG", "Jain_our", "QF_our", "Ent_our", "FSat_our", "Gini_our",
             "Gini-w_our", "VoCD", "II-D", "AI-D", "IAA_our", "IFD_div_our", "IFD_mul_our", "Gini_within", "MME"]
    rng = np.random.default_rng(seed)
    a = rng.uniform(-1, 1, (20, 20))
    a = (a + a.T) / 2
    np.fill_diagonal(a, 1.0)
    tau = pd.DataFrame(a, index=names, columns=names)
    return tau, tau.abs() > 0.3


def _smallest_text_on_a_phone(fig) -> float:
    """The smallest text of ``fig`` in px once a phone shrinks its 100-dpi PNG to the column."""
    import io

    from PIL import Image

    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, bbox_inches="tight")
    width = Image.open(io.BytesIO(buf.getvalue())).size[0]
    sizes = [t.get_fontsize() for t in fig.findobj(matplotlib.text.Text) if t.get_text() and t.get_visible()]
    return min(sizes) * 100 / 72 * min(1.0, _PHONE_COLUMN / width)


def test_tau_blocks_keep_twenty_measures_legible_on_a_phone_where_the_heatmap_cannot():
    tau, sig = _twenty()
    whole = plotting.tau_heatmap(tau, sig).figure
    assert _smallest_text_on_a_phone(whole) < 9          # the reason for a phone layout
    plt.close(whole)
    fig = plotting.tau_blocks(tau, sig, title="demo")
    assert _smallest_text_on_a_phone(fig) >= 9
    plt.close(fig)


def test_tau_blocks_show_every_lower_triangle_cell_once_with_its_hatching():
    tau, sig = _twenty(1)
    fig = plotting.tau_blocks(tau, sig, columns=7)
    blocks = fig.axes[:-1]                                # the last axes is the colour bar
    assert len(blocks) == 3
    shown, hatched = {}, 0
    for ax in blocks:
        rows = [t.get_text() for t in ax.get_yticklabels()]
        cols = [t.get_text() for t in ax.get_xticklabels()]
        for text in ax.texts:
            x, y = text.get_position()
            shown[(rows[int(y)], cols[int(x)])] = text.get_text()
        hatched += len([p for p in ax.patches if p.get_hatch()])
    want = {(r, c) for i, r in enumerate(tau.index) for c in tau.columns[:i + 1]}
    assert set(shown) == want
    assert shown[("MAP", "HR")] == format(tau.loc["MAP", "HR"], ".2f").replace("0.", ".", 1).replace("-", "−")
    lower = np.tril(np.ones(tau.shape, dtype=bool), k=-1)
    assert hatched == int((~sig.to_numpy() & lower).sum())
    plt.close(fig)


def test_tau_blocks_reject_a_rectangular_block_and_bad_columns():
    tau, _ = _twenty()
    with pytest.raises(ValueError, match="square"):
        plotting.tau_blocks(tau.iloc[:5, :3])
    for bad in (0, 2.5, True):
        with pytest.raises(ValueError, match="columns"):
            plotting.tau_blocks(tau, columns=bad)
    with pytest.raises(TypeError, match="DataFrame"):
        plotting.tau_blocks(tau.to_numpy())


def test_tau_figure_gives_phones_the_blocks_only_when_the_matrix_is_too_wide():
    tau, sig = _twenty()
    big = plotting.tau_figure(tau, sig, title="Last.fm")
    html = big._repr_html_()
    assert sorted(big.png) == ["narrow", "wide"] and html.count("<img") == 2
    assert "@media (max-width:767.98px){.rf-wide-only{display:none!important}}" in html
    assert "@media (min-width:768px){.rf-narrow-only{display:none!important}}" in html
    small = plotting.tau_figure(tau.iloc[:6, :6], sig.iloc[:6, :6])
    assert list(small.png) == ["wide"] and small._repr_html_().count("<img") == 1
    block = plotting.tau_figure(tau.iloc[:12, 12:15])             # rectangular: one heatmap
    assert list(block.png) == ["wide"]
    assert plt.get_fignums() == []                                 # every figure closed


def test_responsive_takes_figures_or_axes_and_rejects_anything_else():
    fig, ax = plt.subplots()
    view = plotting.responsive(ax, plt.figure(), alt='a "quoted" figure')
    assert 'alt="a &quot;quoted&quot; figure"' in view._repr_html_()
    with pytest.raises(TypeError, match="Figure or Axes"):
        plotting.responsive("not a figure")
    plt.close("all")


# ----------------------------------------------------------------------------- no text over text

def _overlaps(fig, tolerance: float = 1.0):
    """Pairs of drawn texts whose boxes overlap by more than ``tolerance`` px in both directions.

    The texts are those the canvas actually draws (a tick label outside the view is an artist
    but is never drawn), boxed by the renderer after the figure's layout has run.
    """
    drawn = []
    original = matplotlib.text.Text.draw

    def recording(self, renderer):
        if self.get_visible() and self.get_text().strip():
            drawn.append(self)
        return original(self, renderer)

    matplotlib.text.Text.draw = recording
    try:
        fig.canvas.draw()
    finally:
        matplotlib.text.Text.draw = original
    renderer = fig.canvas.get_renderer()
    texts = [(t.get_text(), t.get_window_extent(renderer)) for t in dict.fromkeys(drawn)]
    pairs = []
    for i, (a, box_a) in enumerate(texts):
        for b, box_b in texts[i + 1:]:
            dx = min(box_a.x1, box_b.x1) - max(box_a.x0, box_b.x0)
            dy = min(box_a.y1, box_b.y1) - max(box_a.y0, box_b.y0)
            if dx > tolerance and dy > tolerance:
                pairs.append((a, b))
    return pairs


def _per_user_frames():
    rng = np.random.default_rng(0)
    return {label: pd.DataFrame({"NDCG": rng.random(50), "Gini_ind": rng.random(50)}) for label in ("BPR", "EASE")}


def _two(draw, **stack):
    """Two stacked panels drawn by ``draw(ax, i)``, as the chapters compose them."""
    fig, axes = plotting.stacked(2, **stack)
    for i, ax in enumerate(axes):
        draw(ax, i)
    return fig


def _tau(n):
    rng = np.random.default_rng(1)
    names = [f"Measure_{i}" for i in range(n)]
    values = np.clip(rng.normal(0.3, 0.4, (n, n)), -1, 1)
    values = (values + values.T) / 2
    np.fill_diagonal(values, 1.0)
    return pd.DataFrame(values, index=names, columns=names)


def _legend_below_figure():
    fig, axes = plotting.stacked(2, panel_height=3.0, sharex=True)
    for ax in axes:
        for j in range(4):
            ax.plot([0, 1, 2], [j, j + 1, j + 0.5], label=f"run {j}")
        ax.set(xlabel="number of fair replacements", ylabel="score", title="a panel title")
    fig.tight_layout()
    plotting.legend_below(fig, ncol=2)
    return fig


def _rows_with_legends_figure():
    fig, axes, strips = plotting.rows_with_legends(2)
    for r in range(2):
        for c in range(2):
            axes[r, c].plot([0, 1], [0, 1], label=f"series {r}{c}")
            axes[r, c].set(xlabel="list length k", ylabel="score", title=f"panel {r}{c}")
        strips[r].legend(*axes[r, 0].get_legend_handles_labels(), loc="center")
    return fig


def _item_vectors_figure():
    fig, ax = plt.subplots()
    features = np.array([[1.0, 0.0], [0.0, 1.0], [-1.0, 0.2], [0.3, -1.0]])
    plotting.plot_item_vectors(ax, np.array([[0, 1], [0, 2]]), n_items=4, item_features=features)
    return fig


#: Every figure helper of recfair.book.plotting, drawn the way the book's chapters draw it.
FIGURES = {
    "stacked": lambda: _two(lambda ax, i: ax.set(xlabel="list length k", ylabel="score", title=f"panel {i}")),
    "legend_below": _legend_below_figure,
    "rows_with_legends": _rows_with_legends_figure,
    "plot_achievable_range": lambda: _two(lambda ax, i: plotting.plot_achievable_range(
        ax, ("Jain_ori", "Gini_ori")[i], n_users=20, n_items=100, k_max=20, highlight_k=5), sharey=False),
    "plot_fsat_range": lambda: _two(lambda ax, i: plotting.plot_fsat_range(
        ax, n_users=(20, 10)[i], n_items=(100, 8)[i], k_max=(20, 8)[i])),
    "plot_iid_constant": lambda: _two(lambda ax, i: plotting.plot_iid_constant(
        ax, gamma=(0.8, 0.5)[i]), sharey=True, panel_height=3.4),
    "plot_ifd_nonlocal": lambda: _two(lambda ax, i: plotting.plot_ifd_nonlocal(
        ax, [("IFD_div_ori", "IFD_mul_ori")[i]], n_items=20, k=5, highlight=10), panel_height=3.0),
    "plot_iif_gamma": lambda: _two(lambda ax, i: plotting.plot_iif_gamma(
        ax, np.array([[0, 1, 2], [1, 2, 3]]), n_items=10, relevant=[[0, 5], [2, 3]], highlight=0.8, log=bool(i))),
    "plot_per_user": lambda: plotting.plot_per_user(plotting.stacked(2)[1], _per_user_frames(),
                                                   ["NDCG", "Gini_ind"])[0].figure,
    "plot_item_vectors": _item_vectors_figure,
    "plot_frontier": lambda: _two(lambda ax, i: plotting.plot_frontier(
        ax, pd.DataFrame({"NDCG": [1.0, 0.6, 0.0], "Jain_our": [0.0, 0.7, 1.0]}), "NDCG", "Jain_our",
        title=f"dataset {i}")),
    "tau_heatmap": lambda: plotting.tau_heatmap(_tau(8), title="Kendall's τ").figure,
    "tau_blocks": lambda: plotting.tau_blocks(_tau(14), title="Kendall's τ"),
}


def test_every_figure_helper_has_an_overlap_case():
    helpers = {name for name in dir(plotting) if name.startswith("plot_")} | {
        "stacked", "legend_below", "rows_with_legends", "tau_heatmap", "tau_blocks"}
    assert helpers <= set(FIGURES), f"figure helpers without an overlap case: {sorted(helpers - set(FIGURES))}"


@pytest.mark.parametrize("name", sorted(FIGURES))
def test_no_text_of_a_figure_overlaps_another(name, book_style):
    fig = FIGURES[name]()
    try:
        assert _overlaps(fig) == [], f"{name}: overlapping texts"
    finally:
        plt.close("all")


def test_the_overlap_check_sees_an_overlap():
    fig, ax = plt.subplots()
    ax.text(0.5, 0.5, "one label")
    ax.text(0.5, 0.5, "another")
    assert _overlaps(fig) == [("one label", "another")]
    plt.close(fig)


def test_page_images_are_palette_pngs_much_smaller_than_matplotlibs():
    import base64
    import io

    from PIL import Image

    fig, ax = plt.subplots(figsize=(5.5, 3.5))
    plotting.plot_achievable_range(ax, "Jain_ori", n_users=20, n_items=100, k_max=20, highlight_k=5)
    plain = io.BytesIO()
    fig.savefig(plain, format="png", dpi=80, bbox_inches="tight")
    uri = plotting._png_uri(fig, dpi=80)
    assert uri.startswith("data:image/png;base64,")
    data = base64.b64decode(uri.split(",", 1)[1])
    image = Image.open(io.BytesIO(data))
    assert image.mode == "P" and image.size == Image.open(plain).size
    assert len(data) < len(plain.getvalue()) / 2
    # to the eye the same picture: no pixel moves far from matplotlib's own rendering
    same = np.asarray(Image.open(plain).convert("RGB"), dtype=float)
    assert np.abs(np.asarray(image.convert("RGBA").convert("RGB"), dtype=float) - same).mean() < 2.0
