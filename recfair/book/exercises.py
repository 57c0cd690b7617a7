"""Self-checks and grading for the classroom notebooks: right or not yet, without revealing the answer.

The exercise notebooks (``notebooks/exercises/``) end each checkable exercise with

    answer = ...
    recfair.book.exercises.check("jain-ex-1", answer)

The check compares a salted hash of the normalised answer with the one stored in the package data
``recfair/book/exercise_answers.json``; the store holds no answer in clear. An answer is read as what it
means: a number may be a float, an exact sympy number (``sp.Rational(1, 5) + 2*sp.sqrt(3)/5``), a
fraction, a numeric string or a one-element list or Series; a set of names may be any collection. A
number is rounded to the decimals the exercise asks for, and the neighbours of the last digit also
count, so a tolerance of one unit in the last decimal holds although only hashes are compared. The
store also keeps the hashes of the answer at fewer decimals, so an answer right but short of digits is
told so ("right to 2 decimals — give 3") instead of getting the chapter's hint.

Some numeric exercises come in variants: ``recfair.book.exercises.student("ada")`` (the first cell of a
student notebook) fixes a student's seed, :func:`variant` gives the student's value of the exercise's
parameter, and :func:`check` compares with the answer of that variant, so answers cannot simply be
copied from a classmate.

The store is written by ``python notebooks/make_exercises.py``, which executes the instructor notebooks
with each check cell replaced by a call of :func:`_record_answer` (the generator's own function: nothing
a student's kernel sets, such as an environment variable, changes what :func:`check` says).

A teacher grades a folder of submitted notebooks with :func:`scorecard` (``python -m recfair.book.exercises
score FOLDER --csv scores.csv``): a table label x student of right / not yet / open.

>>> from recfair.book.exercises import normalise
>>> normalise("set", "", {3, 1, 2})
'["1","2","3"]'
>>> normalise("number", "2", 0.12345)
'0.12'
"""

from __future__ import annotations

import decimal
import fractions
import hashlib
import itertools
import json
import math
import numbers
import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["check", "Result", "normalise", "catalogue", "student", "variant", "scorecard"]

_STORE = "exercise_answers.json"
_PEPPER = "recfair-exercises-v1"
#: kinds of checked answers (``open`` questions have no check)
KINDS = ("number", "numbers", "integer", "set", "list", "choice", "yes/no", "text")


@lru_cache(maxsize=1)
def _store() -> dict:
    try:
        text = resources.files("recfair.book").joinpath(_STORE).read_text(encoding="utf-8")
    except FileNotFoundError:  # a checkout before `python notebooks/make_exercises.py` ran
        return {}
    return json.loads(text)


def catalogue() -> dict:
    """Every exercise the store knows: label -> its chapter, kind and page, without any answer.

    >>> info = catalogue()["jain-ex-1"]
    >>> info["chapter"], info["kind"]
    ("Jain's index", 'set')
    """
    return {label: {k: entry[k] for k in ("chapter", "kind", "url")} for label, entry in _store().items()}


# ------------------------------------------------------------------------------------------------
# reading an answer: what a value means, whatever its type
# ------------------------------------------------------------------------------------------------
def _is_sympy(value) -> bool:
    return type(value).__module__.split(".")[0] == "sympy"


def _plain(value):
    """numpy scalars and arrays, pandas objects, sympy numbers and matrices, fractions -> Python values
    (a number, a str, a bool, a list, a set, a dict or None)."""
    if value is None or isinstance(value, (bool, str, int, float)):
        return value
    if _is_sympy(value):
        if hasattr(value, "tolist"):                    # a Matrix
            rows = value.tolist()
            return [x for row in rows for x in row] if min(value.shape) == 1 else rows
        if type(value).__name__ in ("BooleanTrue", "BooleanFalse"):
            return bool(value)
        if not getattr(value, "is_number", False) and hasattr(value, "__iter__"):   # a Tuple, a list
            return [_plain(v) for v in value]
        if getattr(value, "free_symbols", None):
            names = ", ".join(sorted(str(s) for s in value.free_symbols))
            raise TypeError(f"expected a number, got a sympy expression in {names}: substitute values for them")
        if getattr(value, "is_number", False):
            if value.is_Integer:
                return int(value)
            number = complex(value.evalf(30))
            if number.imag:
                raise TypeError(f"expected a real number, got the complex {value}")
            return number.real
        raise TypeError(f"expected a number, got the sympy object {value}")
    if isinstance(value, (fractions.Fraction, decimal.Decimal)) or (
            isinstance(value, numbers.Rational) and not isinstance(value, numbers.Integral)):
        return int(value) if value == int(value) else float(value)
    if type(value).__name__ == "DataFrame" and hasattr(value, "to_numpy"):
        array = value.to_numpy()
        return _plain(array.ravel() if 1 in array.shape else array)
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):   # numpy, pandas
        return _plain(value.tolist())
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        return _plain(value.item())
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, dict):
        return value
    if isinstance(value, (set, frozenset)):
        return {_hashable(_plain(v)) for v in value}
    if isinstance(value, (list, tuple, range)) or (hasattr(value, "__iter__") and not isinstance(value, bytes)):
        return [_plain(v) for v in value]
    return value


def _hashable(value):
    return tuple(value) if isinstance(value, list) else value


def _type_name(value) -> str:
    if isinstance(value, (set, frozenset)):
        return "a set"
    if isinstance(value, (list, tuple)):
        return f"a {type(value).__name__} of {len(value)}"
    if isinstance(value, dict):
        return "a dict"
    if isinstance(value, str):
        return f"the text {value!r}"
    return type(value).__name__


def _one(value, expected: str):
    """A one-element container stands for its element."""
    if isinstance(value, (list, tuple, set, frozenset)) and len(value) == 1:
        return next(iter(value))
    if isinstance(value, (list, tuple, set, frozenset, dict)):
        raise TypeError(f"expected {expected}, got {_type_name(value)}")
    return value


_NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def _number(value, expected: str = "a number") -> float | int:
    """A real number from a float, int, exact sympy number, fraction, numeric string or one-element container."""
    value = _one(_plain(value), expected)
    if isinstance(value, str):
        text = value.strip().replace("−", "-")
        if _NUMBER.match(text):
            value = float(text) if any(c in text for c in ".eE") else int(text)
        elif re.fullmatch(r"[+-]?\d+\s*/\s*\d+", text):
            value = _plain(fractions.Fraction(text.replace(" ", "")))
        else:
            raise TypeError(f"expected {expected}, got the text {value!r}")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected {expected}, got {_type_name(value)}")
    return value


def _round(value, decimals: int) -> str:
    value = _number(value)
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    text = f"{round(float(value), decimals):.{max(decimals, 0)}f}"
    return "0" + text[2:] if text.startswith("-0") and float(text) == 0 else text


def _scalar(value) -> str:
    """An element of a set or a list: numbers by value (2 == 2.0 == "2"), texts without case or spacing."""
    value = _plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and _NUMBER.match(value.strip()):
        value = _number(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else _round(value, 6)
    if isinstance(value, str):
        return " ".join(value.strip().lower().split())
    raise TypeError(f"expected numbers or names as elements, got {_type_name(value)}")


def _sequence(value, kind: str) -> list:
    value = _plain(value)
    if kind == "list" or kind == "numbers":
        if isinstance(value, (set, frozenset)):
            raise TypeError("expected a list in order, e.g. [3, 1, 2]: a set has no order, and here the order matters")
        if isinstance(value, dict):
            raise TypeError("expected a list in order, got a dict (give its values as a list)")
        if not isinstance(value, (list, tuple)):
            raise TypeError(f"expected a list in order, got {_type_name(value)}")
        return list(value)
    if isinstance(value, dict):
        raise TypeError("expected a set, got a dict (give its keys or values as a set)")
    if isinstance(value, (list, tuple, set, frozenset)):
        return list(value)
    return [value]       # one element stands for the set of it


def _decimals(options: str, default: int = 3) -> int:
    options = options.strip()
    return int(options) if options else default


def _choices(options: str) -> list[str]:
    return [" ".join(c.strip().lower().split()) for c in options.split("|")]


def normalise(kind: str, options: str, value, *, decimals: int | None = None) -> str:
    """The canonical text of an answer of the given kind (what is hashed).

    ``options`` is the exercise's option text: the decimals of a number, the choices of a choice;
    ``decimals`` overrides the decimals of a number (the store's coarser hashes).

    >>> normalise("number", "3", 0.33333), normalise("yes/no", "", "Yes")
    ('0.333', 'true')
    >>> normalise("choice", "first | second", " Second ")
    'second'
    >>> import fractions
    >>> normalise("numbers", "2", [fractions.Fraction(1, 3), "0.5"])
    '["0.33","0.50"]'
    """
    if kind in ("number", "numbers"):
        d = _decimals(options) if decimals is None else decimals
        if kind == "number":
            return _round(value, d)
        return json.dumps([_round(v, d) for v in _sequence(value, kind)], separators=(",", ":"))
    if kind == "integer":
        v = _number(value, "a whole number")
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if not isinstance(v, int):
            raise TypeError(f"expected a whole number, got {v!r}")
        return str(v)
    if kind == "set":
        items = {_scalar(v) for v in _sequence(value, kind)}
        return json.dumps(sorted(items, key=lambda s: (not _is_number(s), float(s) if _is_number(s) else 0, s)),
                          separators=(",", ":"))
    if kind == "list":
        return json.dumps([_scalar(v) for v in _sequence(value, kind)], separators=(",", ":"))
    if kind == "choice":
        choices = _choices(options)
        v = _one(_plain(value), f"one of {', '.join(repr(c) for c in choices)}")
        if not isinstance(v, str):
            raise TypeError(f"expected one of {', '.join(repr(c) for c in choices)} (a text), got {_type_name(v)}")
        v = _scalar(v)
        if v not in choices:
            raise ValueError(f"expected one of {', '.join(repr(c) for c in choices)}, got {value!r}")
        return v
    if kind == "yes/no":
        v = _one(_plain(value), "True or False")
        if isinstance(v, str) and v.strip().lower() in ("yes", "no", "true", "false", "y", "n"):
            return "true" if v.strip().lower() in ("yes", "true", "y") else "false"
        if isinstance(v, bool):
            return "true" if v else "false"
        raise TypeError(f"expected True or False (or 'yes' / 'no'), got {_type_name(v)}")
    if kind == "text":
        v = _one(_plain(value), "a text")
        if not isinstance(v, str):
            raise TypeError(f"expected a text, got {_type_name(v)}")
        return _scalar(v)
    raise ValueError(f"unknown kind of answer {kind!r}")


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _candidates(kind: str, options: str, value, decimals: int | None = None) -> list[str]:
    """The canonical answer and, for numbers, its neighbours one unit away in the last decimal."""
    text = normalise(kind, options, value, decimals=decimals)
    if kind not in ("number", "numbers"):
        return [text]
    d = _decimals(options) if decimals is None else decimals
    step = 10.0 ** -d

    def around(v) -> list[str]:
        v = _number(v)
        if not math.isfinite(v):
            return [str(v)]
        r = round(float(v), d)
        return list(dict.fromkeys(_round(r + s * step, d) for s in (0, -1, 1)))

    if kind == "number":
        return around(value)
    values = _sequence(value, kind)
    if len(values) > 8:  # 3**n candidates: beyond eight numbers only the exact rounding counts
        return [text]
    return [json.dumps(list(c), separators=(",", ":")) for c in itertools.product(*(around(v) for v in values))]


def _given_decimals(value) -> int | None:
    """The decimals a student wrote (a float's shortest form, a numeric text); None for exact values."""
    value = _plain(value)
    if isinstance(value, (list, tuple)) and len(value) == 1:
        value = value[0]
    if isinstance(value, str) and _NUMBER.match(value.strip()):
        text = value.strip()
    elif isinstance(value, float) and math.isfinite(value):
        text = repr(value)
    else:
        return None
    mantissa, _, exponent = text.lower().partition("e")
    places = len(mantissa.partition(".")[2])
    return max(places - int(exponent or 0), 0)


def _hash(label: str, salt: str, text: str) -> str:
    return hashlib.sha256(f"{_PEPPER}|{label}|{salt}|{text}".encode()).hexdigest()


def make_entry(label: str, kind: str, options: str, recorded) -> dict:
    """What the store keeps for one checked exercise (used by the generator).

    ``recorded`` is the normalised answer (a str), or, for numbers, a dict ``{decimals: text}`` from
    :func:`_record_answer`: then the coarser hashes (fewer decimals) are kept too. A list of those is one
    per variant of the exercise.
    """
    salt = hashlib.sha256(f"salt|{label}".encode()).hexdigest()[:16]
    if isinstance(recorded, list):
        entries = [make_entry(label, kind, options, r) for r in recorded]
        return {"options": options, "salt": salt, "variants": [
            {k: e[k] for k in ("digest", "coarse") if k in e} for e in entries]}
    if isinstance(recorded, dict):
        full = recorded[str(_decimals(options))]
        coarse = {d: _hash(label, salt, text) for d, text in recorded.items() if d != str(_decimals(options))}
        return {"options": options, "salt": salt, "digest": _hash(label, salt, full), "coarse": coarse}
    return {"options": options, "salt": salt, "digest": _hash(label, salt, recorded)}


# ------------------------------------------------------------------------------------------------
# students and variants
# ------------------------------------------------------------------------------------------------
_STUDENT: dict = {"name": None, "book": False}


def student(name: str | None = None, *, book: bool = False) -> "Result":
    """Fix the student whose variants this kernel works on (the first cell of a student notebook).

    ``name`` is any identifier the teacher hands out (a login, a student number); ``None`` returns to the
    book's own values, and the checks of varied exercises then remind the student to give a name.
    ``book=True`` (the instructor edition) works on the book's values on purpose, without reminders.
    :func:`variant` and :func:`check` read it. The result says, in the notebook, who is working (or
    that no name is set yet); it is truthy when a name is set.

    >>> student("ada")
    Working as **ada**: the exercises marked *Your variant* use your own values, and their checks expect your answers.
    >>> bool(student(None))
    False
    """
    if name is not None and (not isinstance(name, str) or not name.strip()):
        raise TypeError(f"name must be a non-empty str (a student's login or number) or None, got {name!r}")
    if not isinstance(book, bool):
        raise TypeError(f"book must be True or False, got {book!r}")
    if book and name is not None:
        raise ValueError("give a student's name or book=True (the book's values), not both")
    _STUDENT["name"] = name.strip() if name else None
    _STUDENT["book"] = book
    if book:
        return Result("student", False, "Working on the **book's values** (no student): a student notebook names "
                                        "its student here, and varied exercises then expect that student's answers.",
                      "book")
    if _STUDENT["name"]:
        return Result("student", True, f"Working as **{_STUDENT['name']}**: the exercises marked *Your variant* use "
                                        "your own values, and their checks expect your answers.", "named")
    return Result("student", False, _NO_NAME, "no name")


_NO_NAME = ("**No name set.** Type your name (or the number your teacher gave you) in quotes in the first cell, "
            "e.g. `recfair.book.exercises.student(\"Ada Lovelace\")`, and run it: until then the exercises marked "
            "*Your variant* use the book's values, and your teacher's scorecard cannot tell your variant.")


def _variant_index(label: str, n_variants: int) -> int:
    """Variant 0 is the book's; a student gets one of all variants from a hash of name and label."""
    name = _STUDENT["name"]
    if not name or n_variants <= 1:
        return 0
    return int(hashlib.sha256(f"variant|{name}|{label}".encode()).hexdigest(), 16) % n_variants


def variant(label: str, name: str):
    """The current student's value of parameter ``name`` of exercise ``label`` (the book's value when
    no student is set).

    >>> _ = student(None)
    >>> variant("puf-ex-1", "m_odd")       # the book's value
    5
    """
    entry = _entry(label)
    params = entry.get("vary")
    if not params or name not in params:
        raise ValueError(f"exercise {label!r} has no variant parameter {name!r}"
                         + (f" (it has {', '.join(params)})" if params else ""))
    values = params[name]
    return values[_variant_index(label, len(values))]


# ------------------------------------------------------------------------------------------------
# the check
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """The outcome of a check; shown as one line of text (or Markdown in a notebook), truthy when right.

    ``status`` is ``"right"``, ``"not yet"`` or ``"open"`` (for :func:`student`: ``"named"``, ``"no name"``
    or ``"book"``).

    >>> result = Result("jain-ex-1", False, "**jain-ex-1: not yet.**")
    >>> bool(result), result
    (False, **jain-ex-1: not yet.**)
    """

    label: str
    right: bool
    message: str
    status: str = ""

    def __bool__(self) -> bool:
        return self.right

    def __repr__(self) -> str:
        return self.message

    def _repr_markdown_(self) -> str:
        return self.message


def _entry(label) -> dict:
    if not isinstance(label, str):
        raise TypeError(f"label must be a str such as 'jain-ex-1', got {type(label).__name__}")
    store = _store()
    if label not in store:
        known = ", ".join(sorted(store)[:5])
        raise ValueError(f"unknown exercise {label!r} (known labels look like: {known}, ...)")
    return store[label]


def check(label: str, answer) -> Result:
    """Say whether ``answer`` solves exercise ``label``: right, or not yet with the chapter's hint.

    Parameters
    ----------
    label : str
        The exercise's label, as in the chapter (e.g. ``"jain-ex-1"``).
    answer : object
        A number, a set, a list, a choice, True/False or a text, as the exercise's cell says, in any
        form that means it: an exact sympy number, a fraction, a numeric string or a one-element list
        or Series for a number; any collection for a set. ``None`` (nothing answered yet) is "not yet".

    Returns
    -------
    Result
        Truthy when right; its text says right / not yet and why: the hint of the chapter, the
        decimals missing, or the type expected.

    Examples
    --------
    >>> check("jain-ex-1", None)
    **jain-ex-1: not yet** — no answer given (set `answer = ...` and run the cell again).
    >>> bool(check("jain-ex-1", {1, 2}))
    False
    """
    entry = _entry(label)
    if entry["kind"] == "open":
        return Result(label, False, f"**{label}** is an open question: there is no automatic check. "
                                    f"Compare your reasoning with the chapter: {entry['url']}", "open")
    if answer is None:
        return Result(label, False, f"**{label}: not yet** — no answer given (set `answer = ...` and run the cell again).",
                      "not yet")
    kind, options = entry["kind"], entry["options"]
    digests = entry.get("variants")
    target = digests[_variant_index(label, len(digests))] if digests else entry
    # a varied exercise checked with no student named: the book's variant, and the student is told so
    note = f" ({_UNNAMED})" if digests and not _STUDENT["name"] and not _STUDENT["book"] else ""
    try:
        candidates = _candidates(kind, options, answer)
    except (TypeError, ValueError) as error:
        return Result(label, False, f"**{label}: not yet** — {error}.{note}", "not yet")
    if any(_hash(label, entry["salt"], c) == target["digest"] for c in candidates):
        return Result(label, True, f"**{label}: right.** ✓{note}", "right")
    short = _short_of_digits(label, entry, target, answer)
    if short:
        return Result(label, False, f"**{label}: not yet** — {short}.{note}", "not yet")
    hint = entry.get("hint") or "reread the chapter's section on this question."
    return Result(label, False, f"**{label}: not yet.** Hint: {hint} (chapter: [{entry['chapter']}]({entry['url']})){note}",
                  "not yet")


_UNNAMED = ("checked against the book's variant: no name is set — put yours into "
            "`recfair.book.exercises.student(...)` in the first cell and run the notebook again from there")


def _short_of_digits(label: str, entry: dict, target: dict, answer) -> str | None:
    """"right to N decimals — give M" when the answer has fewer decimals than asked and is right to those."""
    coarse = target.get("coarse")
    if not coarse:
        return None
    wanted = _decimals(entry["options"])
    values = _plain(answer)
    given = [_given_decimals(v) for v in values] if entry["kind"] == "numbers" and isinstance(values, list) \
        else [_given_decimals(values)]
    if not given or any(g is None for g in given):
        return None
    places = max(given)      # [0.89, 0.6]: two decimals given (0.6 may be exact)
    if places >= wanted or str(places) not in coarse:
        return None
    if any(_hash(label, entry["salt"], c) == coarse[str(places)]
           for c in _candidates(entry["kind"], entry["options"], answer, decimals=places)):
        return f"right to {places} decimal{'s' if places != 1 else ''} — give {wanted}"
    return None


def _record_answer(label: str, answer, *, kind: str, options: str, path: str, variant: int | None = None) -> Result:
    """The generator's recording (``notebooks/make_exercises.py`` writes this call into the copies of the
    instructor notebooks it executes): append the normalised answer, at every precision up to the one
    asked for a number, to the JSON-lines file ``path``. Never called by a student notebook."""
    if kind in ("number", "numbers"):
        value = {str(d): normalise(kind, options, answer, decimals=d) for d in range(_decimals(options) + 1)}
    else:
        value = normalise(kind, options, answer)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"label": label, "value": value, "variant": variant}) + "\n")
    return Result(label, True, f"**{label}**: recorded the solution's answer.", "right")


# ------------------------------------------------------------------------------------------------
# grading: a scorecard of submitted notebooks
# ------------------------------------------------------------------------------------------------
_CHECK_CALL = re.compile(r"recfair\.(?:book\.)?exercises\.check\(\s*([\"'])([^\"']+)\1")
_STUDENT_CALL = re.compile(r"recfair\.(?:book\.)?exercises\.student\(\s*([\"'])([^\"']+)\1")
_MARK = "@@recfair-score@@ "


def _notebooks(path) -> list:
    from pathlib import Path

    path = Path(path)
    if path.is_file():
        if path.suffix != ".ipynb":
            raise ValueError(f"{path} is not a notebook (.ipynb)")
        return [path]
    if not path.is_dir():
        raise ValueError(f"no notebook or folder at {path}")
    found = sorted(p for p in path.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts)
    if not found:
        raise ValueError(f"no notebook (.ipynb) in the folder {path}")
    return found


def _student_name(nb, path, root) -> tuple[str, bool]:
    """The name given to ``recfair.book.exercises.student(...)`` in the notebook (a code line, not a
    comment), else its sub-folder of the graded folder, else its file name; and whether the notebook
    names its student."""
    for cell in nb.cells:
        if cell.cell_type == "code":
            code = "\n".join(line.split("#")[0] for line in cell.source.splitlines())
            match = _STUDENT_CALL.search(code)
            if match:
                return match.group(2), True
    if path.parent != root and root in path.parents:
        return path.relative_to(root).parts[0], False
    return path.stem, False


def _read_status(cell, label: str) -> str:
    """The status a saved check cell shows (reading mode: the outputs as the student saved them)."""
    texts = [o.get("data", {}).get("text/plain", "") for o in cell.get("outputs", []) if o.get("output_type") == "execute_result"]
    text = " ".join(t if isinstance(t, str) else "".join(t) for t in texts)
    if f"**{label}: right.**" in text:
        return "right"
    if f"**{label}** is an open question" in text:
        return "open"
    return "not yet"


def _grade_one(path, *, execute: bool, timeout: int) -> tuple[list[tuple[str, str]], list[str], object]:
    """(label, status) per check cell of one notebook, the errors its cells raised, and the notebook."""
    import nbformat

    nb = nbformat.read(str(path), as_version=4)
    labels = [(i, m.group(2)) for i, c in enumerate(nb.cells) if c.cell_type == "code"
              for m in [_CHECK_CALL.search(c.source)] if m]
    if not execute:
        return [(label, _read_status(nb.cells[i], label)) for i, label in labels], [], nb
    from nbclient import NotebookClient

    cells = []
    for i, cell in enumerate(nb.cells):
        cells.append(cell)
        label = next((lab for j, lab in labels if j == i), None)
        if label is not None:     # the grader's own check of the student's answer, after the student's cell
            probe = nbformat.v4.new_code_cell(
                "import json as _rf_json, recfair.book.exercises as _rf_ex\n"
                f"print({_MARK!r} + _rf_json.dumps([{label!r}, _rf_ex.check({label!r}, "
                "globals().get('answer')).status]))")
            probe.metadata["recfair_probe"] = label
            cells.append(probe)
    graded = nbformat.v4.new_notebook(cells=cells, metadata=nb.metadata)
    NotebookClient(graded, timeout=timeout, kernel_name="python3", allow_errors=True,
                   resources={"metadata": {"path": str(path.parent)}}).execute()
    results, errors = [], []
    for cell in graded.cells:
        if cell.cell_type != "code":
            continue
        for output in cell.get("outputs", []):
            if output.get("output_type") == "error" and "recfair_probe" not in cell.metadata:
                errors.append(f"{output.get('ename')}: {output.get('evalue')}")
        if "recfair_probe" in cell.metadata:
            label = cell.metadata["recfair_probe"]
            status = "not yet"
            for output in cell.get("outputs", []):
                text = output.get("text", "") if output.get("output_type") == "stream" else ""
                for line in text.splitlines():
                    if line.startswith(_MARK):
                        got_label, status = json.loads(line[len(_MARK):])
            results.append((label, status))
    return results, errors, nb


def scorecard(path, *, execute: bool = True, timeout: int = 1800):
    """A table of submitted notebooks: one row per exercise label, one column per student, each cell
    ``"right"``, ``"not yet"`` or ``"open"`` (an open question, for the teacher to read).

    Parameters
    ----------
    path : str or Path
        A notebook, or a folder of them (searched recursively). A student is named by the
        ``recfair.book.exercises.student("...")`` call of their notebook, else by the sub-folder of ``path``
        holding it, else by the file name; several notebooks of one student fill one column.
    execute : bool, keyword-only
        True (default): run each notebook top to bottom in a fresh kernel, in its own folder, and check
        each answer the student's code computes (a cell that raises does not stop the rest; what the
        notebook shows does not count). False: read the check outputs saved in the notebooks.
    timeout : int, keyword-only
        Seconds a cell may run.

    Returns
    -------
    pandas.DataFrame
        Labels in the notebooks' order × students; ``.attrs["errors"]`` maps a student to the errors
        their cells raised; ``.attrs["unnamed"]`` lists the notebooks that name no student
        (``student("...")``) although they hold varied exercises: those are graded on the book's
        variants. ``scorecard(...).to_csv("scores.csv")`` exports it.

    Examples
    --------
    >>> import nbformat, tempfile, pathlib
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> cell = nbformat.v4.new_code_cell('answer = None\\nrecfair.book.exercises.check("jain-ex-1", answer)')
    >>> cell.outputs = [nbformat.v4.new_output("execute_result", {"text/plain": "**jain-ex-1: right.** ✓"})]
    >>> nbformat.write(nbformat.v4.new_notebook(cells=[cell]), str(folder / "ada.ipynb"))
    >>> scorecard(folder, execute=False)
    student      ada
    label
    jain-ex-1  right
    """
    import pandas as pd
    from pathlib import Path

    if not isinstance(execute, bool):
        raise TypeError(f"execute must be True or False, got {execute!r}")
    if not isinstance(timeout, int) or isinstance(timeout, bool) or timeout <= 0:
        raise ValueError(f"timeout must be a positive number of seconds, got {timeout!r}")
    root = Path(path)
    columns: dict[str, dict[str, str]] = {}
    order: list[str] = []
    errors: dict[str, list[str]] = {}
    unnamed: list[str] = []
    rank = {"right": 2, "open": 1, "not yet": 0}
    store = _store()
    for notebook in _notebooks(root):
        results, raised, nb = _grade_one(notebook, execute=execute, timeout=timeout)
        name, named = _student_name(nb, notebook, root if root.is_dir() else notebook.parent)
        if not named and any("variants" in store.get(label, {}) for label, _ in results):
            unnamed.append(str(notebook.relative_to(root) if root.is_dir() else notebook.name))
        column = columns.setdefault(name, {})
        for label, status in results:
            if label not in order:
                order.append(label)
            if rank[status] >= rank.get(column.get(label, "not yet"), 0):
                column[label] = status
        if raised:
            errors.setdefault(name, []).extend(f"{notebook.name}: {e}" for e in raised)
    table = pd.DataFrame({name: [col.get(label, "not yet") for label in order] for name, col in columns.items()},
                         index=pd.Index(order, name="label"))
    table.columns.name = "student"
    table.attrs["errors"] = errors
    table.attrs["unnamed"] = unnamed
    return table


def main(argv: list[str] | None = None) -> int:
    """``python -m recfair.book.exercises score FOLDER [--csv FILE] [--read] [--strict]``."""
    import argparse
    import sys

    parser = argparse.ArgumentParser(prog="python -m recfair.book.exercises",
                                     description="Grade the classroom notebooks of a folder.")
    sub = parser.add_subparsers(dest="command", required=True)
    score = sub.add_parser("score", help="a table exercise x student: right / not yet / open")
    score.add_argument("folder", help="a notebook or a folder of submitted notebooks")
    score.add_argument("--csv", help="write the table to this CSV file")
    score.add_argument("--read", action="store_true",
                       help="read the saved check outputs instead of executing the notebooks")
    score.add_argument("--timeout", type=int, default=1800, help="seconds a cell may run (default 1800)")
    score.add_argument("--strict", action="store_true", help="exit 1 when a notebook cell raised an error")
    args = parser.parse_args(argv)
    try:
        table = scorecard(args.folder, execute=not args.read, timeout=args.timeout)
    except (TypeError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    print(table.to_string())
    counts = (table == "right").sum()
    print("\nright per student: " + ", ".join(f"{name} {n}/{int((table[name] != 'open').sum())}"
                                             for name, n in counts.items()))
    for notebook in table.attrs["unnamed"]:
        print(f"{notebook}: names no student (recfair.book.exercises.student(\"...\") in its first cell): "
              "its varied exercises are graded on the book's variants", file=sys.stderr)
    for name, raised in table.attrs["errors"].items():
        for error in raised:
            print(f"{name}: a cell raised {error}", file=sys.stderr)
    if args.csv:
        table.to_csv(args.csv)
        print(f"wrote {args.csv}")
    return 1 if args.strict and table.attrs["errors"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
