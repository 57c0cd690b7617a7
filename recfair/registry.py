"""One record per measure: the single source for ``evaluate``, docs, widgets, tests and tables.

Every measure of the thesis has exactly one :class:`MeasureSpec` in :data:`ALL_MEASURES`,
listed explicitly (no registering decorators, no import-time side effects). Each part of the
library keeps its own records beside its measures (``recfair/<part>/records.py``; the relevance
measures' in :mod:`recfair.relevance`); this module only collects them, in the book's order.
``REGISTRY`` maps the canonical name (``"NDCG"``, ``"Jain_our"``, ...) to its record.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from . import relevance as _relevance
from .item_exposure import records as _item_exposure
from .joint import records as _joint
from .pareto import records as _pareto
from .users import records as _users
from .groups import records as _groups
from .spec import Bounds, Extremes, MeasureSpec

__all__ = ["Bounds", "Extremes", "MeasureSpec", "ALL_MEASURES", "PARTS", "REGISTRY", "check_needs", "get", "names", "table", "with_directions"]


#: Every measure, in the book's order (the relevance measures, then Parts I, II, III, IV and V).
ALL_MEASURES: tuple[MeasureSpec, ...] = (_relevance.RECORDS + _item_exposure.RECORDS + _joint.RECORDS
                                         + _pareto.RECORDS + _users.RECORDS + _groups.RECORDS)

REGISTRY: dict[str, MeasureSpec] = {s.key: s for s in ALL_MEASURES}

#: The book part of each family (the library's subpackage of the same name holds it).
PARTS = {"relevance": "Foundations", "item_exposure": "I", "joint": "II", "pareto": "III", "users": "IV",
         "groups": "V"}


def get(name: str) -> MeasureSpec:
    """The record of measure ``name``; a clear error lists the known names otherwise.

    Examples
    --------
    >>> get("Jain_our").direction
    '↑'
    """
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown measure {name!r}; known measures: {', '.join(REGISTRY)}.") from None


def check_needs(run, specs) -> None:
    """Raise a ``ValueError`` naming what a run lacks for the measures ``specs`` (or a graded-relevance clash).

    >>> from recfair import Run
    >>> check_needs(Run([[0, 1]], 3), [get("Jain_our")])
    >>> check_needs(Run([[0, 1]], 3), [get("NDCG")])
    Traceback (most recent call last):
    ...
    ValueError: NDCG needs relevant, which the run does not have; pass relevant=.
    """
    for spec in specs:
        if run.graded and "relevant" in spec.needs and not spec.graded:
            raise ValueError(f"{spec.key} is defined for binary relevance only; this run has graded relevance "
                             "(measures that accept it: " + ", ".join(s.key for s in ALL_MEASURES if s.graded) + ").")
        missing = [need for need in spec.needs if not run.has(need)]
        if missing:
            raise ValueError(f"{spec.key} needs {', '.join(missing)}, which the run does not have; pass "
                             + ", ".join(f"{m}=" for m in missing) + ".")


def names(family: str | None = None) -> list[str]:
    """Canonical names, optionally of one family, in registry order.

    Examples
    --------
    >>> names("relevance")
    ['HR', 'MRR', 'P', 'R', 'MAP', 'NDCG']
    """
    return [s.key for s in ALL_MEASURES if family is None or s.family == family]


def table(family: str | None = None) -> pd.DataFrame:
    """The registry as a DataFrame (one row per measure), for docs and the book.

    Examples
    --------
    >>> t = table("item_exposure")
    >>> t.loc["Gini_ori", ["direction", "range", "part"]].tolist()
    ['↓', '[0, 1]', 'I']
    """
    rows = []
    for s in ALL_MEASURES:
        if family is not None and s.family != family:
            continue
        rows.append({
            "measure": s.key, "label": s.label, "family": s.family, "part": PARTS[s.family],
            "module": s.func.__module__, "chapter": s.chapter, "paper": s.paper,
            "version": s.version, "direction": s.direction,
            "range": f"[{_fmt(s.range[0])}, {_fmt(s.range[1])}]",
            "needs": ", ".join(s.needs), "graded": s.graded,
            "options": ", ".join(f"{k}={v!r}" for k, v in s.options.items()),
            "undefined": s.undefined, "description": s.description,
        })
    return pd.DataFrame(rows).set_index("measure")


def with_directions(frame, *, axis: int = 0):
    """Prefix each measure name of a table's labels with its direction (``"↑ NDCG"``, ``"↓ Gini_ori"``).

    For the book's result tables, where measures are the rows (``axis=0``) or the columns
    (``axis=1``); labels that are not measure names stay as they are. Takes a DataFrame (returns
    a relabelled copy) or a pandas ``Styler`` (returns it with its labels formatted).

    Examples
    --------
    >>> frame = pd.DataFrame({"run": [0.3, 0.1]}, index=["NDCG", "Gini_ori"])
    >>> with_directions(frame).index.tolist()
    ['↑ NDCG', '↓ Gini_ori']
    """
    if axis not in (0, 1):
        raise ValueError(f"axis must be 0 (rows) or 1 (columns), got {axis!r}.")

    def label(key):
        return f"{REGISTRY[key].direction} {key}" if isinstance(key, str) and key in REGISTRY else key

    if isinstance(frame, pd.DataFrame):
        return frame.rename(index=label) if axis == 0 else frame.rename(columns=label)
    if hasattr(frame, "format_index"):
        return frame.format_index(label, axis=axis)
    raise TypeError(f"with_directions takes a DataFrame or a Styler, got {type(frame).__name__}.")


def _fmt(x: float) -> str:
    if np.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:g}"
