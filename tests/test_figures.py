"""The book's figure conventions (recfair.plotting): colour-blind-safe series colours, one τ colour
map for square and rectangular matrices without grid lines, stacked phone-width panels."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from recfair import plotting  # noqa: E402

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
