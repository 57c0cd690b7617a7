"""Self-checks for the classroom notebooks: right or not yet, without revealing the answer.

The exercise notebooks (``notebooks/exercises/``) end each checkable exercise with

    answer = ...
    recfair.book.exercises.check("jain-ex-1", answer)

The check compares a salted hash of the normalised answer with the one stored in the package data
``recfair/book/exercise_answers.json``; the store holds no answer in clear. Numbers are rounded to the
precision the exercise asks for, and the neighbours of the last digit also count, so a tolerance of one
unit in the last decimal holds although only hashes are compared. On a wrong answer the check shows the
chapter's hint and a link to the chapter.

The store is written by ``python notebooks/make_exercises.py``, which runs the instructor notebooks:
there ``RECFAIR_EXERCISES_RECORD`` names a file and each check records the normalised answer its
solution computed, instead of checking it.

>>> from recfair.book.exercises import normalise
>>> normalise("set", "", {3, 1, 2})
'["1","2","3"]'
>>> normalise("number", "2", 0.12345)
'0.12'
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import numbers
import os
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

__all__ = ["check", "Result", "normalise", "catalogue"]

_STORE = "exercise_answers.json"
_PEPPER = "recfair-exercises-v1"


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
# normalisation
# ------------------------------------------------------------------------------------------------
def _decimals(options: str, default: int = 3) -> int:
    options = options.strip()
    return int(options) if options else default


def _plain(value):
    """numpy scalars and arrays, pandas objects -> Python values."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        value = value.tolist()
    elif hasattr(value, "item") and not isinstance(value, (str, bytes)):
        value = value.item()
    if isinstance(value, bool):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    return value


def _round(value: float, decimals: int) -> str:
    value = _plain(value)
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"expected a number, got {type(value).__name__}")
    if not math.isfinite(value):
        return str(value)
    text = f"{round(float(value), decimals):.{max(decimals, 0)}f}"
    return "0" + text[2:] if text.startswith("-0") and float(text) == 0 else text


def _scalar(value) -> str:
    value = _plain(value)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else _round(value, 6)
    if isinstance(value, str):
        return " ".join(value.strip().lower().split())
    raise TypeError(f"expected numbers or texts, got {type(value).__name__}")


def _sequence(value) -> list:
    value = _plain(value)
    if isinstance(value, (str, bytes)) or not hasattr(value, "__iter__"):
        raise TypeError(f"expected a collection (a set or a list), got {type(value).__name__}")
    if isinstance(value, dict):
        raise TypeError("expected a set or a list, got a dict")
    return list(value)


def normalise(kind: str, options: str, value) -> str:
    """The canonical text of an answer of the given kind (what is hashed).

    ``options`` is the exercise's option text: the decimals of a number, the choices of a choice.

    >>> normalise("number", "3", 0.33333), normalise("yes/no", "", "Yes")
    ('0.333', 'true')
    >>> normalise("choice", "first | second", " Second ")
    'second'
    """
    if kind == "number":
        return _round(value, _decimals(options))
    if kind == "numbers":
        return json.dumps([_round(v, _decimals(options)) for v in _sequence(value)], separators=(",", ":"))
    if kind == "integer":
        v = _plain(value)
        if isinstance(v, float) and v.is_integer():
            v = int(v)
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"expected a whole number, got {value!r}")
        return str(v)
    if kind == "set":
        items = {_scalar(v) for v in _sequence(value)}
        return json.dumps(sorted(items, key=lambda s: (not _is_number(s), float(s) if _is_number(s) else 0, s)),
                          separators=(",", ":"))
    if kind == "list":
        return json.dumps([_scalar(v) for v in _sequence(value)], separators=(",", ":"))
    if kind == "choice":
        choices = [" ".join(c.strip().lower().split()) for c in options.split("|")]
        v = _scalar(value)
        if v not in choices:
            raise ValueError(f"expected one of {', '.join(repr(c) for c in choices)}, got {value!r}")
        return v
    if kind == "yes/no":
        v = _plain(value)
        if isinstance(v, str) and v.strip().lower() in ("yes", "no", "true", "false"):
            return "true" if v.strip().lower() in ("yes", "true") else "false"
        if isinstance(v, bool):
            return "true" if v else "false"
        raise TypeError(f"expected True or False (or 'yes' / 'no'), got {value!r}")
    if kind == "text":
        return _scalar(str(value))
    raise ValueError(f"unknown kind of answer {kind!r}")


def _is_number(s: str) -> bool:
    try:
        float(s)
    except ValueError:
        return False
    return True


def _candidates(kind: str, options: str, value) -> list[str]:
    """The canonical answer and, for numbers, its neighbours one unit away in the last decimal."""
    text = normalise(kind, options, value)
    if kind not in ("number", "numbers"):
        return [text]
    d = _decimals(options)
    step = 10.0 ** -d

    def around(v) -> list[str]:
        v = _plain(v)
        if not math.isfinite(v):
            return [str(v)]
        r = round(float(v), d)
        return list(dict.fromkeys(_round(r + s * step, d) for s in (0, -1, 1)))

    if kind == "number":
        return around(value)
    values = _sequence(value)
    if len(values) > 8:  # 3**n candidates: beyond eight numbers only the exact rounding counts
        return [text]
    return [json.dumps(list(c), separators=(",", ":")) for c in itertools.product(*(around(v) for v in values))]


def _hash(label: str, salt: str, text: str) -> str:
    return hashlib.sha256(f"{_PEPPER}|{label}|{salt}|{text}".encode()).hexdigest()


def make_entry(label: str, kind: str, options: str, recorded: str) -> dict:
    """What the store keeps for one checked exercise (used by the generator)."""
    salt = hashlib.sha256(f"salt|{label}".encode()).hexdigest()[:16]
    return {"options": options, "salt": salt, "digest": _hash(label, salt, recorded)}


# ------------------------------------------------------------------------------------------------
# the check
# ------------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Result:
    """The outcome of a check; shown as one line of text (or Markdown in a notebook), truthy when right.

    >>> result = Result("jain-ex-1", False, "**jain-ex-1: not yet.**")
    >>> bool(result), result
    (False, **jain-ex-1: not yet.**)
    """

    label: str
    right: bool
    message: str

    def __bool__(self) -> bool:
        return self.right

    def __repr__(self) -> str:
        return self.message

    def _repr_markdown_(self) -> str:
        return self.message


def check(label: str, answer) -> Result:
    """Say whether ``answer`` solves exercise ``label``: right, or not yet with the chapter's hint.

    Parameters
    ----------
    label : str
        The exercise's label, as in the chapter (e.g. ``"jain-ex-1"``).
    answer : object
        A number, a set, a list, a choice, True/False or a text, as the exercise's cell says.
        ``None`` (nothing answered yet) is "not yet".

    Returns
    -------
    Result
        Truthy when right; its text says right / not yet and gives the hint.

    Examples
    --------
    >>> check("jain-ex-1", None)
    **jain-ex-1: not yet** — no answer given (set `answer = ...` and run the cell again).
    >>> bool(check("jain-ex-1", {1, 2}))
    False
    """
    if not isinstance(label, str):
        raise TypeError(f"label must be a str such as 'jain-ex-1', got {type(label).__name__}")
    store = _store()
    record = os.environ.get("RECFAIR_EXERCISES_RECORD")
    if label not in store and not record:
        known = ", ".join(sorted(store)[:5])
        raise ValueError(f"unknown exercise {label!r} (known labels look like: {known}, ...)")
    entry = store.get(label, {})
    if record:
        return _record(label, entry, answer, record)
    if entry["kind"] == "open":
        return Result(label, False, f"**{label}** is an open question: there is no automatic check. "
                                    f"Compare your reasoning with the chapter: {entry['url']}")
    if answer is None:
        return Result(label, False, f"**{label}: not yet** — no answer given (set `answer = ...` and run the cell again).")
    try:
        candidates = _candidates(entry["kind"], entry["options"], answer)
    except (TypeError, ValueError) as error:
        return Result(label, False, f"**{label}: not yet** — {error}.")
    if any(_hash(label, entry["salt"], c) == entry["digest"] for c in candidates):
        return Result(label, True, f"**{label}: right.** ✓")
    hint = entry.get("hint") or "reread the chapter's section on this question."
    return Result(label, False, f"**{label}: not yet.** Hint: {hint} (chapter: [{entry['chapter']}]({entry['url']}))")


def _record(label: str, entry: dict, answer, path: str) -> Result:
    """Generator mode: write the normalised answer of a solution to ``path`` (JSON lines)."""
    from pathlib import Path

    kind_options = os.environ.get("RECFAIR_EXERCISES_KINDS")
    kinds = json.loads(Path(kind_options).read_text()) if kind_options else {}
    kind, options = kinds.get(label, (entry.get("kind"), entry.get("options", "")))
    if kind is None:
        raise ValueError(f"recording {label!r}: its kind is unknown")
    text = normalise(kind, options, answer)
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps({"label": label, "value": text}) + "\n")
    return Result(label, True, f"**{label}**: recorded the solution's answer.")
