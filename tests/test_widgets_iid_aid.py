"""The II-D/AI-D chapter's drawing function and widget: the single-round II-D constant against n."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from recfair.item_exposure.bounds import iid_single_round  # noqa: E402
from recfair.book.plotting import plot_iid_constant  # noqa: E402


def test_one_line_per_k_on_the_closed_form():
    fig, ax = plt.subplots()
    plot_iid_constant(ax, ks=(1, 10), gamma=0.5, n_range=(5, 500))
    lines = [line for line in ax.lines if line.get_label().startswith("k =")]
    assert [line.get_label() for line in lines] == ["k = 1", "k = 10"]
    x, y = lines[1].get_data()
    assert x.min() >= 10                            # only n >= k
    assert np.allclose(y, [iid_single_round(int(n), 10, gamma=0.5) for n in x])
    assert ax.get_xscale() == "log" and ax.get_yscale() == "log"
    plt.close(fig)


def test_points_are_marked():
    fig, ax = plt.subplots()
    plot_iid_constant(ax, ks=(10,), points={"Lastfm": (2823, 0.00097)})
    assert any(line.get_marker() == "x" for line in ax.lines)
    assert any(text.get_text() == "Lastfm" for text in ax.texts)
    plt.close(fig)


def test_iid_constant_widget_builds_and_redraws():
    pytest.importorskip("ipywidgets")
    from recfair.book.widgets import iid_constant

    box = iid_constant(gamma=0.8, k=3)
    gamma_slider, k_slider = box.children[0].children
    gamma_slider.value = 0.5
    k_slider.value = 20
    plt.close("all")
