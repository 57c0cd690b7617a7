"""The IFD chapter's non-localisation figure and widget: an extra relevant item beyond the top-k."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from recfair.joint import bounds as joint_bounds  # noqa: E402
from recfair.book.plotting import ifd_nonlocal_scores, plot_ifd_nonlocal  # noqa: E402


def test_scores_follow_the_per_user_kernels():
    frame = ifd_nonlocal_scores(["IFD_div_ori", "IFD_div_our"], n_items=8, k=3, top_positions=(1, 3))
    assert list(frame.index) == list(range(4, 9))
    for rank, row in frame.iterrows():
        rel = joint_bounds.ranking_from_positions(8, [1, 3, rank])
        assert row["IFD_div_ori"] == pytest.approx(joint_bounds.ifd_div_user(rel, k=None))
    # the corrected version reads only the top-k and R, so it is the same in every row
    assert np.ptp(frame["IFD_div_our"].to_numpy()) == pytest.approx(0.0)
    assert np.ptp(frame["IFD_div_ori"].to_numpy()) > 0.01


def test_bad_positions_are_rejected():
    with pytest.raises(ValueError, match="top_positions"):
        ifd_nonlocal_scores("IFD_div_ori", n_items=8, k=3, top_positions=(4,))


def test_plot_draws_one_line_per_measure():
    fig, ax = plt.subplots()
    plot_ifd_nonlocal(ax, ["IFD_div_ori", "IFD_mul_ori"], n_items=10, k=4, highlight=6)
    labels = [ln.get_label() for ln in ax.get_lines()]
    assert "IFD_div_ori" in labels and "IFD_mul_ori" in labels
    plt.close(fig)


def test_ifd_nonlocal_widget_builds_and_redraws():
    pytest.importorskip("ipywidgets")
    from recfair.book.widgets import ifd_nonlocal

    box = ifd_nonlocal(n_items=10, k=4)
    slider = box.children[0].children[0]
    assert (slider.options[0][1], slider.options[-1][1], slider.value) == (5, 10, 5)
    slider.value = 10
