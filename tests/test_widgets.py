"""recfair.book.widgets: one helper, live in a kernel and precomputed on a static page."""

import os

import matplotlib

matplotlib.use("Agg")

import numpy as np  # noqa: E402
import pytest  # noqa: E402

from recfair.book import widgets  # noqa: E402

pytest.importorskip("ipywidgets")

DEMOS = {
    "achievable_range": lambda: widgets.achievable_range(["Jain_ori"], n_users=10, n_items=50, k=5, k_max=10),
    "toy_lists": lambda: widgets.toy_lists(["Jain_ori", "QF_ori"], "0 1\n0 2", n_items=5),
    "item_vectors": lambda: widgets.item_vectors([[0, 1], [0, 2]], n_items=3, angles=[0, 25, 160], alpha=0.1),
    "iid_constant": lambda: widgets.iid_constant(gamma=0.8, k=10),
    "fsat_range": lambda: widgets.fsat_range(n_users=20, n_items=100, k=10),
    "ifd_nonlocal": lambda: widgets.ifd_nonlocal(n_items=10, k=3),
    "iif_gamma": lambda: widgets.iif_gamma([[0, 1], [1, 2]], n_items=4, relevant=[[0], [2]]),
}


@pytest.fixture
def static(monkeypatch):
    monkeypatch.setenv("RECFAIR_WIDGETS", "static")


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_every_position_is_precomputed_and_each_control_changes_the_output(static, name):
    view = DEMOS[name]()
    assert isinstance(view, widgets.Explorer)
    grid = [c for c in view.controls if c.precomputed]
    keys = {key for keys in view.outputs.values() for key in keys}
    assert len(keys) == int(np.prod([len(c.values) for c in grid]))          # every combination
    shown = {key: body for body, ks in view.outputs.items() for key in ks}
    start = [c.start for c in grid]
    for axis, c in enumerate(grid):                                            # move one control
        if len(c.values) < 2:
            continue
        moved = list(start)
        moved[axis] = (c.start + 1) % len(c.values)
        assert shown[",".join(map(str, moved))] != shown[",".join(map(str, start))], (name, c.label)
    html = view._repr_html_()
    assert html.count('data-rfx-control="') == len(grid)
    assert "⚠" not in html                                                     # no position failed


def test_free_input_is_live_only_on_a_static_page(static):
    html = DEMOS["toy_lists"]()._repr_html_()
    assert "data-rfx-live-only" in html and "disabled" in html and "Thebe" in html


@pytest.mark.parametrize("name", sorted(DEMOS))
def test_live_in_a_kernel(monkeypatch, name):
    monkeypatch.delenv("RECFAIR_WIDGETS", raising=False)
    import contextlib
    import io

    with contextlib.redirect_stdout(io.StringIO()):
        box = DEMOS[name]()
        controls = box.children[0].children
        for control in controls:                                               # every control redraws
            options = getattr(control, "options", None)
            if options:
                control.value = options[-1][1] if isinstance(options[-1], tuple) else options[-1]
    assert type(box).__name__ == "VBox"


def test_bad_controls_and_grids_are_refused(static):
    with pytest.raises(ValueError, match="not one of"):
        widgets.slider([1, 2], value=3)
    with pytest.raises(TypeError, match="slider, dropdown, toggle or text"):
        widgets.explore(lambda k: k, k=[1, 2])
    with pytest.raises(ValueError, match="at most"):
        widgets.explore(lambda a, b: a, a=widgets.slider(range(30)), b=widgets.slider(range(30)))
    with pytest.raises(ValueError, match="RECFAIR_WIDGETS"):
        os.environ["RECFAIR_WIDGETS"] = "sometimes"
        widgets.mode()


def test_errors_of_the_function_are_shown_not_raised(static):
    view = widgets.explore(lambda lists: widgets.parse_lists(lists), lists=widgets.text("0 1\n2"))
    assert "every list needs the same length" in view._repr_html_()


def test_live_explorers_close_every_figure_they_draw(monkeypatch):
    """Moving a live control 30 times leaves no figure open (pyplot warns beyond 20)."""
    import contextlib
    import io
    import warnings

    import matplotlib.pyplot as plt

    monkeypatch.delenv("RECFAIR_WIDGETS", raising=False)
    plt.close("all")

    def draw(n, extra):
        fig, ax = plt.subplots()
        ax.plot(range(n))
        if extra:
            plt.figure()                                  # a figure left open, not returned
        return fig

    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        with contextlib.redirect_stdout(io.StringIO()):
            box = widgets.explore(draw, n=widgets.slider([2, 3, 4]), extra=widgets.toggle(value=True))
            slider = box.children[0].children[0]
            for step in range(30):
                slider.value = [2, 3, 4][step % 3]
    assert plt.get_fignums() == []
    for name in sorted(DEMOS):
        with contextlib.redirect_stdout(io.StringIO()):
            DEMOS[name]()
        assert plt.get_fignums() == [], f"{name} leaves figures open"


def test_static_explorers_close_their_figures_and_name_their_start(static):
    import matplotlib.pyplot as plt

    plt.close("all")
    view = widgets.achievable_range(["Jain_ori"], n_users=10, n_items=50, k=5, k_max=10)
    assert plt.get_fignums() == []
    assert f'data-rfx-start="{view.start_key}"' in view._repr_html_()
    assert len(repr(view)) < 200
    live_only = widgets.toy_lists(["Jain_ori"], "0 1\n0 2", n_items=5)._repr_html_()
    assert "window.initThebeSBT || window.initThebe" in live_only and ".thebe-launch-button" in live_only
