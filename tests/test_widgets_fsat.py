"""The FSat chapter's drawing function and widget: thesis band, true minimum, always-fair span."""

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pytest  # noqa: E402

from recfair.item_exposure import bounds  # noqa: E402
from recfair.book.plotting import plot_fsat_range  # noqa: E402


def _line(ax, label):
    (line,) = [ln for ln in ax.get_lines() if ln.get_label() == label]
    return line


def test_true_minimum_line_follows_bounds_and_dips_below_k_over_n():
    fig, ax = plt.subplots()
    plot_fsat_range(ax, n_users=6, n_items=3, k_max=3)
    ks, values = _line(ax, "true minimum").get_data()
    assert list(ks) == [1, 2, 3]
    assert values == pytest.approx([bounds.fsat_true_minimum(6, 3, int(k)) for k in ks])
    assert values[1] == pytest.approx(1 / 3) and values[1] < bounds.fsat_most_unfair(6, 3, 2)
    plt.close(fig)


def test_always_fair_span_covers_exactly_the_k_with_km_below_n():
    fig, ax = plt.subplots()
    plot_fsat_range(ax, n_users=20, n_items=100, k_max=10, highlight_k=5)
    (span,) = [p for p in ax.patches if p.get_label() == "always fair (km < n)"]
    if hasattr(span, "get_width"):                  # matplotlib >= 3.9: a Rectangle
        x0, x1 = span.get_x(), span.get_x() + span.get_width()
    else:                                           # older: a Polygon
        xs = np.asarray(span.get_xy())[:, 0]
        x0, x1 = xs.min(), xs.max()
    assert (x0, x1) == pytest.approx((0.5, 4.5))    # k = 1..4 have km < n
    ks, values = _line(ax, "true minimum").get_data()
    assert np.all(values[ks * 20 < 100] == 1.0)
    plt.close(fig)


def test_no_span_when_every_k_fills_the_catalogue():
    fig, ax = plt.subplots()
    plot_fsat_range(ax, n_users=10, n_items=5, k_max=5)
    assert not [p for p in ax.patches if p.get_label() == "always fair (km < n)"]
    plt.close(fig)


def test_fsat_range_widget_builds_and_redraws():
    pytest.importorskip("ipywidgets")
    from recfair.book.widgets import fsat_range

    box = fsat_range(n_users=6, n_items=3, k=2, k_max=3)
    m, n, k = box.children[0].children
    assert (m.value, n.value, k.value) == (6, 3, 2)
    n.value = 30                                    # km < n for small k: still draws
    k.value = 1
    plt.close("all")
