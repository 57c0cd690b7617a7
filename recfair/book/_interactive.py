"""One helper for every interactive control of the book: live in a kernel, precomputed on a static page.

:func:`explore` takes a function and its controls. In a Jupyter kernel (a classroom, Binder,
Colab, Thebe) it returns live ipywidgets that call the function whenever a control moves. On
the book's static pages (the build sets ``RECFAIR_WIDGETS=static``) it calls the function for
**every position** of the controls at build time and emits one self-contained HTML block with
plain HTML controls and a few lines of JavaScript that show the matching precomputed output.
No kernel, network or widget library is needed to read it.

Controls with a finite set of positions (:func:`slider`, :func:`dropdown`, :func:`toggle`) are
precomputed; controls that take free input (:func:`text`, e.g. typed top-k lists) cannot be, so
the static page shows them disabled, with the output for their default value and a visible
"live" action (start Thebe on the page, or open it in Binder).

>>> import os
>>> os.environ["RECFAIR_WIDGETS"] = "static"
>>> view = explore(lambda k: f"k squared is {k * k}", k=slider([1, 2, 3], value=2))
>>> html = view._repr_html_()
>>> "k squared is 9" in html and 'data-rfx-keys="1"' in html
True
>>> del os.environ["RECFAIR_WIDGETS"]
"""

from __future__ import annotations

import html as _html
import itertools
import json
import os
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

__all__ = ["Control", "Explorer", "explore", "slider", "dropdown", "toggle", "text", "mode", "MAX_POSITIONS"]

#: The most combinations of control positions one static explorer may precompute.
MAX_POSITIONS = 400

_LIVE_NOTE = ("Live only: this control takes free input, which a static page cannot precompute. "
              "Run the page to edit it:")


@dataclass(frozen=True)
class Control:
    """One control of :func:`explore`: its kind, positions, start position and label.

    Build it with :func:`slider`, :func:`dropdown`, :func:`toggle` or :func:`text`.

    Examples
    --------
    >>> c = slider([1, 5, 10], value=5, label="k")
    >>> c.kind, c.start, c.labels
    ('slider', 1, ('1', '5', '10'))
    """

    kind: str                       # "slider", "dropdown", "toggle" or "text"
    values: tuple = ()              # the positions (not for "text")
    labels: tuple = ()              # how each position is shown
    value: object = None            # the start value
    label: str | None = None        # the control's caption (default: the parameter's name)
    rows: int = 4                   # text boxes only

    @property
    def start(self) -> int:
        """Index of the start value among :attr:`values`."""
        return self.values.index(self.value)

    @property
    def precomputed(self) -> bool:
        """Whether a static page can show every position (everything but free text)."""
        return self.kind != "text"


def _fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _positions(values, value, kind: str, fmt) -> Control:
    values = tuple(values)
    if not values:
        raise ValueError(f"a {kind} needs at least one position.")
    if len(set(map(repr, values))) != len(values):
        raise ValueError(f"the positions of a {kind} must be distinct, got {list(values)}.")
    if value is None:
        value = values[0]
    if value not in values:
        raise ValueError(f"the start value {value!r} is not one of the {kind}'s positions {list(values)}.")
    fmt = fmt or _fmt
    return values, tuple(fmt(v) for v in values), value


def slider(values: Sequence, *, value=None, label: str | None = None, fmt: Callable | None = None) -> Control:
    """A slider over an explicit list of positions (numbers, in order).

    >>> slider([0.5, 0.8, 0.9], value=0.8).start
    1
    """
    values, labels, value = _positions(values, value, "slider", fmt)
    return Control("slider", values, labels, value, label)


def dropdown(options: Sequence | Mapping, *, value=None, label: str | None = None) -> Control:
    """A choice among ``options`` (a list of values, or a mapping label -> value).

    >>> dropdown({"DCG": "dcg", "RBP": "rbp"}).labels
    ('DCG', 'RBP')
    """
    if isinstance(options, Mapping):
        labels, values = tuple(map(str, options)), tuple(options.values())
        values_, _, value = _positions(values, value, "dropdown", None)
        return Control("dropdown", values_, labels, value, label)
    values, labels, value = _positions(options, value, "dropdown", None)
    return Control("dropdown", values, labels, value, label)


def toggle(*, value: bool = False, label: str | None = None) -> Control:
    """An on/off switch.

    >>> toggle(value=True).values
    (False, True)
    """
    return Control("toggle", (False, True), ("off", "on"), bool(value), label)


def text(value: str, *, label: str | None = None, rows: int = 4) -> Control:
    """A free-text box (e.g. top-k lists, one user per line): live in a kernel only.

    >>> text("0 1\\n1 2").precomputed
    False
    """
    if not isinstance(value, str):
        raise TypeError(f"a text control's value must be a string, got {type(value).__name__}.")
    return Control("text", (), (), value, label, rows)


def mode() -> str:
    """``"static"`` when building the book's pages (``RECFAIR_WIDGETS=static``), else ``"live"``.

    ``RECFAIR_WIDGETS`` may also be ``"live"``; any other value is an error.

    Examples
    --------
    >>> import os
    >>> os.environ.pop("RECFAIR_WIDGETS", None) and None
    >>> mode()
    'live'
    """
    value = os.environ.get("RECFAIR_WIDGETS", "live").strip().lower() or "live"
    if value not in ("static", "live"):
        raise ValueError(f"RECFAIR_WIDGETS must be 'static' or 'live', got {value!r}.")
    return value


# --------------------------------------------------------------------------- rendering one result

def _figure_html(fig) -> str:
    from .plotting import _png_uri

    return f'<img class="rfx-figure" alt="figure" src="{_png_uri(fig, dpi=80, close=False)}">'


def _to_html(obj) -> str:
    """HTML of one result: a figure, a table, text, or a sequence of those."""
    if obj is None:
        return ""
    if isinstance(obj, (list, tuple)):
        return "".join(_to_html(o) for o in obj)
    if isinstance(obj, str):
        return f'<pre class="rfx-text">{_html.escape(obj)}</pre>'
    if hasattr(obj, "savefig"):
        return _figure_html(obj)
    import pandas as pd

    if isinstance(obj, pd.Series):
        obj = obj.to_frame()
    if isinstance(obj, pd.DataFrame):
        return obj.to_html(border=0, classes="rfx-table")
    if hasattr(obj, "_repr_html_"):                                  # a Styler, a display object
        out = obj._repr_html_()
        if out is not None:
            return out
    if hasattr(obj, "_repr_markdown_"):
        return f'<pre class="rfx-text">{_html.escape(obj._repr_markdown_())}</pre>'
    return f'<pre class="rfx-text">{_html.escape(repr(obj))}</pre>'


def _call(func, values: dict) -> str:
    """Call ``func`` and render what it returns plus every figure it left open."""
    import matplotlib.pyplot as plt

    before = set(plt.get_fignums())
    try:
        result = func(**values)
    except (ValueError, TypeError) as exc:                           # the library's own messages
        result = f"⚠ {exc}"
    parts = []
    returned_figs = set()
    for obj in (result if isinstance(result, (list, tuple)) else [result]):
        if hasattr(obj, "savefig"):
            returned_figs.add(id(obj))
    for num in sorted(set(plt.get_fignums()) - before):
        fig = plt.figure(num)
        if id(fig) not in returned_figs:
            parts.append(_figure_html(fig))
        plt.close(fig)
    parts.insert(0, _to_html(result))
    for obj in (result if isinstance(result, (list, tuple)) else [result]):
        if hasattr(obj, "savefig"):
            plt.close(obj)
    return "".join(parts)


# --------------------------------------------------------------------------- the explorer

_SCRIPT = """(function () {
  var root = document.getElementById("%(id)s");
  if (!root) { return; }
  var controls = root.querySelectorAll("[data-rfx-control]");
  var outputs = root.querySelectorAll("[data-rfx-keys]");
  function key() {
    var parts = [];
    controls.forEach(function (c) {
      parts.push(c.type === "checkbox" ? (c.checked ? "1" : "0") : c.value);
      var shown = root.querySelector('[data-rfx-shows="' + c.getAttribute("data-rfx-control") + '"]');
      if (shown) { shown.textContent = JSON.parse(c.getAttribute("data-rfx-labels"))[Number(c.value)]; }
    });
    return parts.join(",");
  }
  function update() {
    var k = key();
    outputs.forEach(function (o) {
      o.hidden = o.getAttribute("data-rfx-keys").split(" ").indexOf(k) < 0;
    });
  }
  controls.forEach(function (c) {
    c.addEventListener("input", update);
    c.addEventListener("change", update);
  });
  root.querySelectorAll("[data-rfx-thebe]").forEach(function (b) {
    b.addEventListener("click", function () {
      // sphinx-thebe's initThebe() writes its progress into the page's .thebe-launch-button and
      // fails without one; sphinx-book-theme's initThebeSBT() adds that button under the title
      // first (what the launch menu's "Live code" does). Either way the page's cells turn into
      // runnable cells once Binder has started a kernel; then run this cell for live controls.
      var start = window.initThebeSBT || window.initThebe;
      if (typeof start !== "function") {
        b.textContent = "Thebe is not available on this page: use the launch button for Binder or Colab";
        return;
      }
      if (!window.initThebeSBT && !document.querySelector(".thebe-launch-button")) {
        var status = document.createElement("button");
        status.className = "thebe-launch-button";
        b.insertAdjacentElement("afterend", status);
      }
      b.disabled = true;
      b.textContent = "Starting Thebe (Binder): run this cell when the page's cells become editable";
      try { start(); } catch (err) {
        b.disabled = false;
        b.textContent = "Thebe could not start (" + err.message + "): use the launch button for Binder or Colab";
      }
      var launch = document.querySelector(".thebe-launch-button");
      if (launch && launch.scrollIntoView) { launch.scrollIntoView({block: "center"}); }
    });
  });
  update();
})();"""

_STYLE = """<style>
.recfair-explore { border: 1px solid #d0d7de; border-radius: 6px; padding: 0.6em; margin: 0.8em 0; max-width: 100%%; }
.recfair-explore .rfx-controls { display: flex; flex-wrap: wrap; gap: 0.4em 1.2em; margin-bottom: 0.5em; }
.recfair-explore label { display: inline-flex; align-items: center; gap: 0.4em; font-size: 0.9em; }
.recfair-explore input[type=range] { width: 10em; }
.recfair-explore .rfx-output { overflow-x: auto; max-width: 100%%; }
.recfair-explore .rfx-output pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.recfair-explore img.rfx-figure { max-width: 100%%; height: auto; }
.recfair-explore .rfx-live { flex-basis: 100%%; font-size: 0.85em; background: #fff8c5; border-radius: 4px; padding: 0.4em; }
.recfair-explore .rfx-live textarea { display: block; width: 100%%; max-width: 22em; font-family: monospace; }
.recfair-explore .rfx-live button { margin: 0.3em 0.4em 0 0; }
</style>"""


@dataclass
class Explorer:
    """What :func:`explore` returns on a static page: HTML with every output precomputed.

    ``outputs`` maps each distinct rendered output to the control positions that show it
    (keys like ``"2,0,1"``: one index per precomputed control, in order).

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> view = explore(lambda k: f"k = {k}", k=slider([1, 2]))
    >>> isinstance(view, Explorer), len(view.outputs)
    (True, 2)
    >>> 'data-recfair-widget="explore"' in view._repr_html_()
    True
    >>> del os.environ["RECFAIR_WIDGETS"]
    """

    names: tuple
    controls: tuple
    outputs: dict = field(default_factory=dict)
    uid: str = field(default_factory=lambda: "rfx-" + uuid.uuid4().hex[:10])

    def __repr__(self) -> str:
        # the text/plain form of a notebook output: short, not every precomputed position
        return f"Explorer({', '.join(self.names)}; {len(self.outputs)} distinct outputs precomputed)"

    @property
    def start_key(self) -> str:
        """The key of the output shown at the controls' start positions (e.g. ``"1,0"``).

        >>> import os
        >>> os.environ["RECFAIR_WIDGETS"] = "static"
        >>> explore(lambda n, show: n, n=slider([10, 20], value=20), show=toggle(value=False)).start_key
        '1,0'
        >>> del os.environ["RECFAIR_WIDGETS"]
        """
        return ",".join(str(c.start) for c in self.controls if c.precomputed)

    def _control_html(self, name: str, c: Control) -> str:
        caption = _html.escape(c.label or name)
        labels = _html.escape(json.dumps(list(c.labels)))
        if c.kind == "slider":
            return (f'<label>{caption} <input type="range" min="0" max="{len(c.values) - 1}" step="1" '
                    f'value="{c.start}" data-rfx-control="{name}" data-rfx-labels="{labels}" '
                    f'aria-label="{caption}"> <output data-rfx-shows="{name}">'
                    f'{_html.escape(c.labels[c.start])}</output></label>')
        if c.kind == "dropdown":
            options = "".join(f'<option value="{i}"{" selected" if i == c.start else ""}>{_html.escape(lab)}</option>'
                              for i, lab in enumerate(c.labels))
            return (f'<label>{caption} <select data-rfx-control="{name}" data-rfx-labels="{labels}">'
                    f'{options}</select></label>')
        if c.kind == "toggle":
            checked = " checked" if c.value else ""
            return (f'<label><input type="checkbox" value="1" data-rfx-control="{name}" '
                    f'data-rfx-labels="{labels}"{checked}> {caption}</label>')
        return (f'<div class="rfx-live" data-rfx-live-only="{name}"><label>{caption}</label>'
                f'<textarea rows="{c.rows}" disabled>{_html.escape(c.value)}</textarea>'
                f'{_html.escape(_LIVE_NOTE)} '
                f'<button type="button" data-rfx-thebe="1">⚡ Make this page live (Thebe)</button>'
                f'or use the launch button (rocket icon) at the top of the page for Binder or Colab.</div>')

    def _repr_html_(self) -> str:
        controls = "".join(self._control_html(n, c) for n, c in zip(self.names, self.controls))
        outputs = "".join(f'<div class="rfx-output" data-rfx-keys="{" ".join(keys)}">{body}</div>'
                          for body, keys in self.outputs.items())
        script = _SCRIPT % {"id": self.uid}
        return (f'{_STYLE % ()}<div class="recfair-explore" id="{self.uid}" data-recfair-widget="explore" '
                f'data-rfx-start="{self.start_key}">'
                f'<div class="rfx-controls">{controls}</div>{outputs}<script>{script}</script></div>')


def _static(func, names, controls) -> Explorer:
    grid = [range(len(c.values)) if c.precomputed else [None] for c in controls]
    total = 1
    for axis in grid:
        total *= len(axis)
    if total > MAX_POSITIONS:
        raise ValueError(f"the controls have {total:,} combinations of positions; a static page precomputes at "
                         f"most {MAX_POSITIONS} (offer fewer positions per slider).")
    view = Explorer(tuple(names), tuple(controls))
    for combo in itertools.product(*grid):
        values = {n: (c.values[i] if c.precomputed else c.value) for n, c, i in zip(names, controls, combo)}
        body = _call(func, values)
        key = ",".join(str(i) for i, c in zip(combo, controls) if c.precomputed)
        view.outputs.setdefault(body, []).append(key)
    return view


def _live(func, names, controls):
    import ipywidgets as w
    import matplotlib.pyplot as plt
    from IPython.display import display

    boxes = []
    for name, c in zip(names, controls):
        caption = c.label or name
        if c.kind == "slider":
            box = w.SelectionSlider(options=list(zip(c.labels, c.values)), value=c.value, description=caption,
                                    continuous_update=False)
        elif c.kind == "dropdown":
            box = w.Dropdown(options=list(zip(c.labels, c.values)), value=c.value, description=caption)
        elif c.kind == "toggle":
            box = w.Checkbox(value=bool(c.value), description=caption)
        else:
            box = w.Textarea(value=c.value, description=caption, rows=c.rows, layout=w.Layout(width="24em"))
        boxes.append(box)
    out = w.Output()

    def update(*_):
        # Every figure the call opens is shown once (returned ones where they stand, left-open
        # ones after them) and then closed, so moving a control never piles up open figures.
        before = set(plt.get_fignums())
        result = None
        out.clear_output(wait=True)
        try:
            with out:
                try:
                    result = func(**{n: b.value for n, b in zip(names, boxes)})
                except (ValueError, TypeError) as exc:
                    print(f"⚠ {exc}")
                    return
                shown = set()
                for obj in (result if isinstance(result, (list, tuple)) else [result]):
                    if obj is not None:
                        display(obj)
                    if hasattr(obj, "savefig"):
                        shown.add(id(obj))
                for num in sorted(set(plt.get_fignums()) - before):
                    fig = plt.figure(num)
                    if id(fig) not in shown:
                        display(fig)
        finally:
            for num in set(plt.get_fignums()) - before:
                plt.close(num)
            for obj in (result if isinstance(result, (list, tuple)) else [result]):
                if hasattr(obj, "savefig"):        # a figure made before the call, returned by it
                    plt.close(obj)

    for box in boxes:
        box.observe(update, names="value")
    update()
    return w.VBox([w.HBox(boxes, layout=w.Layout(flex_flow="row wrap")), out])


def explore(func: Callable, **controls: Control):
    """Controls over ``func``'s keyword arguments, showing what ``func`` returns for their positions.

    Parameters
    ----------
    func : callable
        Called as ``func(**values)``; returns what to show: a matplotlib figure, a DataFrame, a
        Styler, text, or a list of those. Figures it leaves open are shown too. A ``ValueError``
        or ``TypeError`` it raises is shown as its message (so bad typed input explains itself).
    **controls : Control
        One control per keyword argument of ``func``: :func:`slider`, :func:`dropdown`,
        :func:`toggle` (precomputed on static pages) or :func:`text` (live only).

    Returns
    -------
    Explorer or ipywidgets.VBox
        On a static page (``RECFAIR_WIDGETS=static``, set by the book build) an :class:`Explorer`
        whose HTML holds the output of every combination of positions (at most
        :data:`MAX_POSITIONS`); in a kernel, live ipywidgets.

    Examples
    --------
    >>> import os
    >>> os.environ["RECFAIR_WIDGETS"] = "static"
    >>> view = explore(lambda n, show: f"n = {n}" if show else "hidden",
    ...                n=slider([10, 20]), show=toggle(value=True))
    >>> sorted(view.outputs.values())
    [['0,0', '1,0'], ['0,1'], ['1,1']]
    >>> del os.environ["RECFAIR_WIDGETS"]
    """
    if not callable(func):
        raise TypeError(f"explore needs a function, got {type(func).__name__}.")
    if not controls:
        raise ValueError("explore needs at least one control (e.g. k=slider([1, 5, 10])).")
    for name, c in controls.items():
        if not isinstance(c, Control):
            raise TypeError(f"control {name!r} must be made with slider, dropdown, toggle or text; "
                            f"got {type(c).__name__}.")
    names, ctrls = tuple(controls), tuple(controls.values())
    if mode() == "static":
        return _static(func, names, ctrls)
    return _live(func, names, ctrls)
