r"""DPFR (thesis Ch. 5, Paper 4): the distance of a run to the Pareto frontier of one relevance and one fairness measure.

For a pair (Rel, Fair) the frontier :math:`P` is the sequence of :func:`recfair.pareto.oracle2fair`
projected on the two measures, duplicate Rel values collapsed (the best Fair kept), ordered from the
most relevant end :math:`x^1` (the Oracle) to the fairest :math:`x^{|P|}`. With
:math:`\mathrm{lenPF}(T^j) = \sum_{t<j} d_E(x^t, x^{t+1})` the polyline length up to :math:`x^j`,
the reference point is

.. math:: s_\alpha = x^{t'},\qquad t' = \operatorname*{argmin}_j \bigl|\mathrm{lenPF}(T^j) - \alpha\,\mathrm{lenPF}(P)\bigr|,

and :math:`\mathrm{DPFR}_\alpha = d_E\bigl((\mathrm{Rel}, \mathrm{Fair}), s_\alpha\bigr)`, lower is better.
Both scores enter raw (Gini is not flipped).
"""

from __future__ import annotations

import math
import numbers

import numpy as np
import pandas as pd

from .._validation import check_on_undefined, check_real, renamed_options, undefined
from ..item_exposure import RECORDS as _EXPOSURE_RECORDS
from .generators import FAIR_MEASURES, REL_MEASURES

__all__ = ["frontier", "reference_point", "dpfr", "slope", "compatible", "slopes", "INDEX_RANGES"]

#: Which frontier points may be the reference point: every one (recfair's default), the thesis's
#: :math:`j \in [1, |P| - 1]` (never the fairest end), or the published code's :math:`j \in [2, |P|]`
#: (never the Oracle end).
INDEX_RANGES = ("full", "thesis", "code")

_HIGHER = {s.key: s.higher_is_better for s in _EXPOSURE_RECORDS if s.key in FAIR_MEASURES}


def _check_pair(table, rel, fair):
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"frontier must be the DataFrame of recfair.pareto.oracle2fair, got {type(table).__name__}.")
    if rel not in REL_MEASURES:
        raise ValueError(f"rel must be a relevance measure of the frontier ({', '.join(REL_MEASURES)}); got {rel!r}.")
    if fair not in FAIR_MEASURES:
        raise ValueError(f"fair must be a fairness measure of the frontier ({', '.join(FAIR_MEASURES)}); got {fair!r}.")
    missing = [c for c in (rel, fair) if c not in table.columns]
    if missing:
        raise ValueError(f"frontier has no column {missing}: pass the table of recfair.pareto.oracle2fair.")
    if len(table) == 0:
        raise ValueError("frontier is empty.")


def _check_fairness_weight(weight) -> float:
    weight = check_real(weight, "fairness_weight")
    if not 0.0 <= weight <= 1.0:
        raise ValueError(f"fairness_weight must lie in [0, 1] (0: relevance only, 1: fairness only), got {weight}.")
    return weight


def frontier(frontier: pd.DataFrame, *, rel: str, fair: str, strict: bool = False) -> pd.DataFrame:
    r"""The 2-D Pareto frontier of the pair (``rel``, ``fair``), from the most relevant point to the fairest.

    .. math:: P = \{x^1, \dots, x^{|P|}\},\qquad x^j = (\mathrm{Rel}_j, \mathrm{Fair}_j),\quad
        \mathrm{Rel}_1 > \mathrm{Rel}_2 > \dots

    Rows with the same Rel value (equal to 12 decimals) collapse into the one with the best Fair
    value (direction-aware: lowest Gini; on a tie the later replacement), as the thesis does. The
    result is ordered by Rel descending. With ``strict=True`` dominated points are dropped too
    (a point is dominated when another is at least as good on both axes and better on one),
    which matters only for pairs whose Fair value stalls along the walk (QF, FSat). Range: the
    measures' ranges.

    Parameters
    ----------
    frontier : pandas.DataFrame
        The frontier sequence of :func:`recfair.pareto.oracle2fair` (full or estimated): one row
        per step, one column per measure.
    rel : str
        The relevance measure of the pair (:data:`~recfair.pareto.REL_MEASURES`), e.g. ``"NDCG"``.
    fair : str
        The fairness measure of the pair (:data:`~recfair.pareto.FAIR_MEASURES`), e.g. ``"Ent_our"``.
    strict : bool, default=False
        Also drop dominated points.

    Returns
    -------
    pandas.DataFrame
        Columns ``rel``, ``fair`` (named after the measures) and ``replacements``.

    Examples
    --------
    >>> t = pd.DataFrame({"replacements": [0, 1, 2, 3], "P": [0.9, 0.8, 0.8, 0.7],
    ...                   "Gini_our": [0.6, 0.5, 0.4, 0.3]})
    >>> frontier(t, rel="P", fair="Gini_our").values.tolist()
    [[0.9, 0.6, 0.0], [0.8, 0.4, 2.0], [0.7, 0.3, 3.0]]
    """
    table = frontier
    _check_pair(table, rel, fair)
    steps = table["replacements"] if "replacements" in table.columns else pd.Series(np.arange(len(table)))
    frame = pd.DataFrame({rel: table[rel].to_numpy(float), fair: table[fair].to_numpy(float),
                          "replacements": steps.to_numpy()})
    if frame[[rel, fair]].isna().to_numpy().any():
        raise ValueError(f"the frontier of ({rel}, {fair}) has undefined (NaN) scores.")
    higher = _HIGHER[fair]
    frame["_key"] = frame[rel].round(12)
    frame["_fair"] = frame[fair] if higher else -frame[fair]
    frame = frame.sort_values(["_key", "_fair", "replacements"], ascending=[False, True, True], kind="stable")
    frame = frame.drop_duplicates("_key", keep="last")
    if strict:
        best = frame["_fair"].cummax().shift(fill_value=-np.inf)
        frame = frame[frame["_fair"] > best]
    return frame[[rel, fair, "replacements"]].reset_index(drop=True)


def _segments(points: np.ndarray) -> np.ndarray:
    """Cumulative polyline length at each point (0 at the first)."""
    if len(points) < 2:
        return np.zeros(len(points))
    return np.concatenate([[0.0], np.cumsum(np.hypot(*np.diff(points, axis=0).T))])


@renamed_options("DPFR")
def reference_point(frontier: pd.DataFrame, *, rel: str, fair: str, fairness_weight: float = 0.5,
                    index_range: str = "full") -> tuple[float, float]:
    r"""The reference point :math:`s_\alpha` of the pair's frontier: the point whose polyline length from the
    most relevant end is closest to :math:`\alpha\cdot\mathrm{lenPF}` (first on a tie: the more relevant),
    with :math:`\alpha` the ``fairness_weight``.

    ``fairness_weight = 0`` weighs relevance only, ``1`` fairness only; ``0.5`` is the frontier's midpoint.
    ``index_range`` picks the admissible points (:data:`INDEX_RANGES`): ``"full"`` (default, every
    point, so ``fairness_weight`` reaches both ends), ``"thesis"`` (:math:`j \in [1, |P|-1]`, as printed) or
    ``"code"`` (:math:`j \in [2, |P|]`, as in the published code); they agree at ``fairness_weight = 0.5`` except on
    frontiers of two points. A frontier of one point is its own reference point.

    .. math:: s_\alpha = x^{t'},\qquad t' = \operatorname*{argmin}_j \bigl|\mathrm{lenPF}(T^j) - \alpha\,\mathrm{lenPF}(P)\bigr|

    Range: a point of the frontier.

    Parameters
    ----------
    frontier : pandas.DataFrame
        The frontier sequence of :func:`recfair.pareto.oracle2fair` (full or estimated): one row
        per step, one column per measure.
    rel : str
        The relevance measure of the pair (:data:`~recfair.pareto.REL_MEASURES`), e.g. ``"NDCG"``.
    fair : str
        The fairness measure of the pair (:data:`~recfair.pareto.FAIR_MEASURES`), e.g. ``"Ent_our"``.
    fairness_weight : float in [0, 1], default=0.5
        The weight of fairness, :math:`\alpha` (0: relevance only, 1: fairness only).
    index_range : {"full", "thesis", "code"}, default="full"
        Which frontier points may be the reference point (:data:`INDEX_RANGES`).

    Returns
    -------
    tuple of float
        ``(Rel, Fair)`` of the reference point.

    Examples
    --------
    >>> t = pd.DataFrame({"P": [1.0, 0.5, 0.0], "Jain_our": [0.0, 0.5, 1.0]})
    >>> reference_point(t, rel="P", fair="Jain_our")
    (0.5, 0.5)
    """
    alpha = _check_fairness_weight(fairness_weight)
    if index_range not in INDEX_RANGES:
        raise ValueError(f"index_range must be one of {INDEX_RANGES}, got {index_range!r}.")
    front = _pareto_frontier(frontier, rel=rel, fair=fair)
    points = front[[rel, fair]].to_numpy()
    if len(points) == 1:
        return float(points[0, 0]), float(points[0, 1])
    length = _segments(points)
    lo, hi = {"full": (0, len(points)), "thesis": (0, len(points) - 1), "code": (1, len(points))}[index_range]
    j = lo + int(np.argmin(np.abs(length[lo:hi] - alpha * length[-1])))
    return float(points[j, 0]), float(points[j, 1])


@renamed_options("DPFR")
def dpfr(rel_score, fair_score, *, frontier: pd.DataFrame, rel: str, fair: str, fairness_weight: float = 0.5,
         index_range: str = "full", on_undefined: str = "warn") -> float:
    r"""DPFR: the Euclidean distance from a run's (Rel, Fair) scores to the frontier's reference point.

    .. math:: \mathrm{DPFR}_\alpha = \sqrt{(\mathrm{Rel} - s_{\alpha,r})^2 + (\mathrm{Fair} - s_{\alpha,f})^2}

    Lower is better (0: the run sits on the reference point). Scores are raw, Gini included.
    Range: :math:`[0, \sqrt 2]` for two measures in [0, 1].

    Parameters
    ----------
    rel_score, fair_score : float
        The run's scores on the two measures (same ``k`` and test users as the frontier); NaN
        (an undefined score) makes DPFR undefined, handled by ``on_undefined``.
    frontier : pandas.DataFrame
        The frontier sequence of :func:`recfair.pareto.oracle2fair` (full or estimated): one row
        per step, one column per measure.
    rel : str
        The relevance measure of the pair (:data:`~recfair.pareto.REL_MEASURES`), e.g. ``"NDCG"``.
    fair : str
        The fairness measure of the pair (:data:`~recfair.pareto.FAIR_MEASURES`), e.g. ``"Ent_our"``.
    fairness_weight : float in [0, 1], default=0.5
        The weight of fairness :math:`\alpha`, as in :func:`reference_point`.
    index_range : {"full", "thesis", "code"}, default="full"
        As in :func:`reference_point`.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        What an undefined score gives: NaN with a warning, NaN, or an error.

    Returns
    -------
    float

    Examples
    --------
    >>> t = pd.DataFrame({"P": [1.0, 0.5, 0.0], "Jain_our": [0.0, 0.5, 1.0]})
    >>> round(dpfr(0.5, 0.2, frontier=t, rel="P", fair="Jain_our"), 3)
    0.3
    """
    check_on_undefined(on_undefined)
    values = []
    for name, value in (("rel_score", rel_score), ("fair_score", fair_score)):
        if isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isnan(value):
            values.append(float("nan"))
        else:
            values.append(check_real(value, name))
    sx, sy = reference_point(frontier, rel=rel, fair=fair, fairness_weight=fairness_weight,
                             index_range=index_range)
    x, y = values
    if math.isnan(x) or math.isnan(y):
        return undefined("DPFR", f"the run's score is undefined (NaN): ({x}, {y})", on_undefined)
    return float(math.hypot(x - sx, y - sy))


def slope(frontier: pd.DataFrame, *, rel: str, fair: str, on_undefined: str = "warn") -> float:
    r"""Paper 4's compatibility check: the slope between the two ends of the frontier sequence,

    .. math:: \frac{\mathrm{Fair}_{\mathrm{start}} - \mathrm{Fair}_{\mathrm{end}}}{\mathrm{Rel}_{\mathrm{start}} - \mathrm{Rel}_{\mathrm{end}}}

    (the raw sequence, Oracle first). A pair suits DPFR when the slope is defined and non-zero
    (:func:`compatible`): 0 means the Oracle was already fairest on Fair, and the slope is undefined
    (NaN under ``on_undefined``) when Rel does not move, e.g. HR and MRR when every list keeps a hit.
    Range: :math:`(-\infty, \infty)`.

    Parameters
    ----------
    frontier : pandas.DataFrame
        The frontier sequence of :func:`recfair.pareto.oracle2fair` (full or estimated): one row
        per step, one column per measure.
    rel : str
        The relevance measure of the pair (:data:`~recfair.pareto.REL_MEASURES`), e.g. ``"NDCG"``.
    fair : str
        The fairness measure of the pair (:data:`~recfair.pareto.FAIR_MEASURES`), e.g. ``"Ent_our"``.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        What an undefined slope gives.

    Returns
    -------
    float

    Examples
    --------
    >>> t = pd.DataFrame({"P": [0.9, 0.7], "Jain_our": [0.5, 0.9]})
    >>> round(slope(t, rel="P", fair="Jain_our"), 3)
    -2.0
    """
    table = frontier
    _check_pair(table, rel, fair)
    r0, r1 = float(table[rel].iloc[0]), float(table[rel].iloc[-1])
    f0, f1 = float(table[fair].iloc[0]), float(table[fair].iloc[-1])
    if abs(r0 - r1) <= 1e-12:
        return undefined(f"slope({rel}, {fair})", f"{rel} is the same at both ends of the frontier ({r0:.6g})",
                         on_undefined)
    return (f0 - f1) / (r0 - r1)


def compatible(frontier: pd.DataFrame, *, rel: str, fair: str) -> bool:
    r"""Whether the pair's frontier slope is defined and non-zero (:func:`slope`), so DPFR can trade the two.

    .. math:: \text{compatible} \iff \text{slope defined and } |\text{slope}| > 10^{-12}

    Parameters
    ----------
    frontier : pandas.DataFrame
        The frontier sequence of :func:`recfair.pareto.oracle2fair` (full or estimated): one row
        per step, one column per measure.
    rel : str
        The relevance measure of the pair (:data:`~recfair.pareto.REL_MEASURES`), e.g. ``"NDCG"``.
    fair : str
        The fairness measure of the pair (:data:`~recfair.pareto.FAIR_MEASURES`), e.g. ``"Ent_our"``.

    Returns
    -------
    bool

    Examples
    --------
    >>> t = pd.DataFrame({"P": [0.9, 0.7], "Jain_our": [0.5, 0.9], "QF_our": [1.0, 1.0]})
    >>> compatible(t, rel="P", fair="Jain_our"), compatible(t, rel="P", fair="QF_our")
    (True, False)
    """
    value = slope(frontier, rel=rel, fair=fair, on_undefined="nan")
    return bool(np.isfinite(value) and abs(value) > 1e-12)


def slopes(frontier: pd.DataFrame) -> pd.DataFrame:
    """The slope of every (Rel, Fair) pair of a frontier table: Rel measures as rows, Fair as columns (NaN: undefined).

    Each entry is :func:`slope` of the pair.

    Parameters
    ----------
    frontier : pandas.DataFrame
        The frontier sequence of :func:`recfair.pareto.oracle2fair`.

    Returns
    -------
    pandas.DataFrame
        Shape (6, 5): :data:`~recfair.pareto.REL_MEASURES` by :data:`~recfair.pareto.FAIR_MEASURES`.

    Examples
    --------
    >>> t = pd.DataFrame({m: [0.9, 0.7] for m in REL_MEASURES} | {m: [0.5, 0.9] for m in FAIR_MEASURES})
    >>> slopes(t).shape
    (6, 5)
    """
    return pd.DataFrame({f: {r: slope(frontier, rel=r, fair=f, on_undefined="nan") for r in REL_MEASURES}
                         for f in FAIR_MEASURES})


_pareto_frontier = frontier          # the function, for the functions whose parameter is named ``frontier``
