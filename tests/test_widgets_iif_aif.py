"""The II-F/AI-F chapter's drawing function and widget: scores against the RBP patience γ."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import recfair as rf  # noqa: E402
from recfair.book.plotting import iif_gamma_scores, plot_iif_gamma  # noqa: E402

TOP_K = [[0, 1], [1, 0], [0, 1]]
RELEVANT = [[0, 2], [1, 4], [0, 1, 5]]


def test_scores_are_the_library_values_per_gamma():
    frame = iif_gamma_scores(TOP_K, n_items=6, relevant=RELEVANT, gammas=[0.5, 0.8])
    assert list(frame.index) == [0.5, 0.8]
    assert list(frame.columns) == ["II-F_ori", "II-F_our", "AI-F"]
    assert frame.loc[0.8, "II-F_ori"] == pytest.approx(rf.ii_fairness(TOP_K, n_items=6, relevant=RELEVANT))
    assert frame.loc[0.5, "AI-F"] == pytest.approx(rf.ai_fairness(TOP_K, n_items=6, relevant=RELEVANT, gamma=0.5))
    assert len(iif_gamma_scores(TOP_K, n_items=6, relevant=RELEVANT, names="AI-F")) == 19


def test_one_line_per_measure_and_the_marker():
    fig, ax = plt.subplots()
    plot_iif_gamma(ax, TOP_K, n_items=6, relevant=RELEVANT, gammas=np.array([0.2, 0.5, 0.8]), highlight=0.8)
    labels = [line.get_label() for line in ax.lines if not line.get_label().startswith("_")]
    assert labels == ["II-F_ori", "II-F_our", "AI-F"]
    assert any(list(line.get_xdata()) == [0.8, 0.8] for line in ax.lines)
    assert ax.get_yscale() == "linear"
    plt.close(fig)
    fig, ax = plt.subplots()
    plot_iif_gamma(ax, TOP_K, n_items=6, relevant=RELEVANT, gammas=[0.5, 0.8], log=True)
    assert ax.get_yscale() == "log"
    plt.close(fig)


def test_iif_gamma_widget_builds_and_redraws():
    pytest.importorskip("ipywidgets")
    from recfair.book.widgets import iif_gamma

    box = iif_gamma(TOP_K, n_items=6, relevant=RELEVANT, names=("II-F_ori", "AI-F"), log=True)
    box.children[0].value = 0.5
    plt.close("all")
