"""The VoCD chapter's drawing function and widget: item vectors, similar pairs, the score in the title."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

import recfair as rf  # noqa: E402
from recfair.book.plotting import plot_item_vectors  # noqa: E402

LISTS = [[0, 1], [0, 2]]          # thesis L5 example (T12)
NEAR_12 = [[1, 0], [1, 0.2], [-1, 0.3]]   # items 1 and 2 point the same way
NEAR_23 = [[1, 0], [-0.3, 1], [-0.5, 1]]  # items 2 and 3 point the same way


@pytest.mark.parametrize("feats, expected", [(NEAR_12, 0.5), (NEAR_23, 0.0)])
def test_title_shows_vocd_and_lines_mark_similar_pairs(feats, expected):
    fig, ax = plt.subplots()
    plot_item_vectors(ax, LISTS, n_items=3, item_features=feats, alpha=0.1)
    assert rf.vocd(LISTS, n_items=3, alpha=0.1, item_features=feats) == pytest.approx(expected)
    assert f"VoCD = {expected:.3f}" in ax.get_title()
    assert len(ax.lines) == 1                       # exactly one similar pair is joined
    plt.close(fig)


def test_no_similar_pair_gives_nan_title_and_no_lines():
    fig, ax = plt.subplots()
    plot_item_vectors(ax, LISTS, n_items=3, item_features=[[1, 0], [0, 1], [-1, 0]], alpha=0.5)
    assert "nan" in ax.get_title() and not ax.lines
    plt.close(fig)


def test_alpha_two_joins_every_recommended_pair_only():
    fig, ax = plt.subplots()
    plot_item_vectors(ax, [[0, 1], [0, 2]], n_items=4, item_features=np.eye(4)[:, :2] + 0.1, alpha=2.0)
    assert len(ax.lines) == 3                       # item 4 is never recommended
    plt.close(fig)


def test_features_must_be_two_dimensional():
    fig, ax = plt.subplots()
    with pytest.raises(ValueError, match="shape"):
        plot_item_vectors(ax, LISTS, n_items=3, item_features=np.ones((3, 3)))
    plt.close(fig)


def test_item_vectors_widget_builds_and_redraws():
    pytest.importorskip("ipywidgets")
    from recfair.book.widgets import item_vectors

    box = item_vectors(LISTS, n_items=3, angles=[0, 10, 170], alpha=0.1)
    last, alpha = box.children[0].children
    assert last.value == 170 and alpha.value == 0.1
    last.value = 20                                 # move item 3 next to item 2: still valid
    with pytest.raises(ValueError, match="one direction per item"):
        item_vectors(LISTS, n_items=3, angles=[0, 10])
    plt.close("all")
