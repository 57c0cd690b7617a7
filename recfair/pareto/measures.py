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

import numpy as np
import pandas as pd

from .._validation import check_real, undefined
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
        raise TypeError(f"table must be the DataFrame of recfair.pareto.oracle2fair, got {type(table).__name__}.")
    if rel not in REL_MEASURES:
        raise ValueError(f"rel must be a relevance measure of the frontier ({', '.join(REL_MEASURES)}); got {rel!r}.")
    if fair not in FAIR_MEASURES:
        raise ValueError(f"fair must be a fairness measure of the frontier ({', '.join(FAIR_MEASURES)}); got {fair!r}.")
    missing = [c for c in (rel, fair) if c not in table.columns]
    if missing:
        raise ValueError(f"table has no column {missing}: pass the table of recfair.pareto.oracle2fair.")
    if len(table) == 0:
        raise ValueError("table is empty.")


def _check_alpha(alpha) -> float:
    alpha = check_real(alpha, "alpha")
    if not 0.0 <= alpha <= 1.0:
        raise ValueError(f"alpha must lie in [0, 1] (0: relevance only, 1: fairness only), got {alpha}.")
    return alpha


def frontier(table: pd.DataFrame, rel: str, fair: str, *, strict: bool = False) -> pd.DataFrame:
    """The 2-D Pareto frontier of the pair (``rel``, ``fair``), from the most relevant point to the fairest.

    Rows with the same Rel value (equal to 12 decimals) collapse into the one with the best Fair
    value (direction-aware: lowest Gini; on a tie the later replacement), as the thesis does. The
    result is ordered by Rel descending. With ``strict=True`` dominated points are dropped too
    (a point is dominated when another is at least as good on both axes and better on one),
    which matters only for pairs whose Fair value stalls along the walk (QF, FSat).

    Returns
    -------
    pandas.DataFrame
        Columns ``rel``, ``fair`` (named after the measures) and ``replacements``.

    Examples
    --------
    >>> t = pd.DataFrame({"replacements": [0, 1, 2, 3], "P": [0.9, 0.8, 0.8, 0.7],
    ...                   "Gini_our": [0.6, 0.5, 0.4, 0.3]})
    >>> frontier(t, "P", "Gini_our").values.tolist()
    [[0.9, 0.6, 0.0], [0.8, 0.4, 2.0], [0.7, 0.3, 3.0]]
    """
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


def reference_point(table: pd.DataFrame, rel: str, fair: str, *, alpha: float = 0.5,
                    index_range: str = "full") -> tuple[float, float]:
    r"""The reference point :math:`s_\alpha` of the pair's frontier: the point whose polyline length from the
    most relevant end is closest to :math:`\alpha\cdot\mathrm{lenPF}` (first on a tie: the more relevant).

    ``alpha = 0`` weighs relevance only, ``1`` fairness only; ``0.5`` is the frontier's midpoint.
    ``index_range`` picks the admissible points (:data:`INDEX_RANGES`): ``"full"`` (default, every
    point, so ``alpha`` reaches both ends), ``"thesis"`` (:math:`j \in [1, |P|-1]`, as printed) or
    ``"code"`` (:math:`j \in [2, |P|]`, as in the published code); they agree at ``alpha = 0.5`` except on
    frontiers of two points. A frontier of one point is its own reference point.

    Examples
    --------
    >>> t = pd.DataFrame({"P": [1.0, 0.5, 0.0], "Jain_our": [0.0, 0.5, 1.0]})
    >>> reference_point(t, "P", "Jain_our")
    (0.5, 0.5)
    """
    alpha = _check_alpha(alpha)
    if index_range not in INDEX_RANGES:
        raise ValueError(f"index_range must be one of {INDEX_RANGES}, got {index_range!r}.")
    front = frontier(table, rel, fair)
    points = front[[rel, fair]].to_numpy()
    if len(points) == 1:
        return float(points[0, 0]), float(points[0, 1])
    length = _segments(points)
    lo, hi = {"full": (0, len(points)), "thesis": (0, len(points) - 1), "code": (1, len(points))}[index_range]
    j = lo + int(np.argmin(np.abs(length[lo:hi] - alpha * length[-1])))
    return float(points[j, 0]), float(points[j, 1])


def dpfr(rel_score, fair_score, table: pd.DataFrame, rel: str, fair: str, *, alpha: float = 0.5,
         index_range: str = "full") -> float:
    r"""DPFR: the Euclidean distance from a run's (Rel, Fair) scores to the frontier's reference point.

    .. math:: \mathrm{DPFR}_\alpha = \sqrt{(\mathrm{Rel} - s_{\alpha,r})^2 + (\mathrm{Fair} - s_{\alpha,f})^2}

    Lower is better (0: the run sits on the reference point). Scores are raw, Gini included.

    Parameters
    ----------
    rel_score, fair_score : float
        The run's scores on the two measures (same ``k`` and test users as the frontier).
    table : pandas.DataFrame
        The frontier sequence of :func:`recfair.pareto.oracle2fair` (full or estimated).
    rel, fair : str
        The pair, e.g. ``"NDCG"`` and ``"Ent_our"``.
    alpha, index_range
        As in :func:`reference_point`.

    Examples
    --------
    >>> t = pd.DataFrame({"P": [1.0, 0.5, 0.0], "Jain_our": [0.0, 0.5, 1.0]})
    >>> round(dpfr(0.5, 0.2, t, "P", "Jain_our"), 3)
    0.3
    """
    x = check_real(rel_score, "rel_score")
    y = check_real(fair_score, "fair_score")
    if not (math.isfinite(x) and math.isfinite(y)):
        raise ValueError(f"the run's scores must be finite numbers, got ({x}, {y}).")
    sx, sy = reference_point(table, rel, fair, alpha=alpha, index_range=index_range)
    return float(math.hypot(x - sx, y - sy))


def slope(table: pd.DataFrame, rel: str, fair: str, *, on_undefined: str = "warn") -> float:
    r"""Paper 4's compatibility check: the slope between the two ends of the frontier sequence,

    .. math:: \frac{\mathrm{Fair}_{\mathrm{start}} - \mathrm{Fair}_{\mathrm{end}}}{\mathrm{Rel}_{\mathrm{start}} - \mathrm{Rel}_{\mathrm{end}}}

    (the raw sequence, Oracle first). A pair suits DPFR when the slope is defined and non-zero
    (:func:`compatible`): 0 means the Oracle was already fairest on Fair, and the slope is undefined
    (NaN under ``on_undefined``) when Rel does not move, e.g. HR and MRR when every list keeps a hit.

    Examples
    --------
    >>> t = pd.DataFrame({"P": [0.9, 0.7], "Jain_our": [0.5, 0.9]})
    >>> round(slope(t, "P", "Jain_our"), 3)
    -2.0
    """
    _check_pair(table, rel, fair)
    r0, r1 = float(table[rel].iloc[0]), float(table[rel].iloc[-1])
    f0, f1 = float(table[fair].iloc[0]), float(table[fair].iloc[-1])
    if abs(r0 - r1) <= 1e-12:
        return undefined(f"slope({rel}, {fair})", f"{rel} is the same at both ends of the frontier ({r0:.6g})",
                         on_undefined)
    return (f0 - f1) / (r0 - r1)


def compatible(table: pd.DataFrame, rel: str, fair: str) -> bool:
    """Whether the pair's frontier slope is defined and non-zero (:func:`slope`), so DPFR can trade the two.

    >>> t = pd.DataFrame({"P": [0.9, 0.7], "Jain_our": [0.5, 0.9], "QF_our": [1.0, 1.0]})
    >>> compatible(t, "P", "Jain_our"), compatible(t, "P", "QF_our")
    (True, False)
    """
    value = slope(table, rel, fair, on_undefined="nan")
    return bool(np.isfinite(value) and abs(value) > 1e-12)


def slopes(table: pd.DataFrame) -> pd.DataFrame:
    """The slope of every (Rel, Fair) pair of a frontier table: Rel measures as rows, Fair as columns (NaN: undefined).

    >>> t = pd.DataFrame({m: [0.9, 0.7] for m in REL_MEASURES} | {m: [0.5, 0.9] for m in FAIR_MEASURES})
    >>> slopes(t).shape
    (6, 5)
    """
    return pd.DataFrame({f: {r: slope(table, r, f, on_undefined="nan") for r in REL_MEASURES}
                         for f in FAIR_MEASURES})
