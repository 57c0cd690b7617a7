r"""Per-user achievable bounds of the relevance-aware item-fairness measures (Paper 3).

The corrected measures of Paper 3 (IAA, IFD÷, IFD×, II-F) rescale each user's score with the
lowest and highest score that user could get, given *how many* items are relevant to them.
This module computes those two numbers, the rankings that reach them, and an exhaustive
search over every ranking of a tiny catalogue to check both (plain Python and NumPy; sympy
derivations of the same formulas live in :mod:`recfair.joint.derivations`).

Setting (thesis Paper 3 appendix): one user, one round (``W = 1``), binary relevance.
Because items are exchangeable, a user's score depends only on *where* their relevant items
sit, so a ranking is written here as its relevance vector in rank order,
``rel_by_rank[p - 1] = 1`` if the item at position ``p`` is relevant.

Parameters used throughout
--------------------------
n : int
    Number of items; the full ranking holds all of them.
k : int
    Cut-off, ``1 <= k <= n``: positions ``1..k`` are shown, the rest get zero exposure.
n_relevant : int
    :math:`|R_u^*|`, number of items relevant to the user, ``0 <= n_relevant <= n``; the formulas
    write it :math:`R`.
examination : str
    Name of an examination function of :mod:`recfair.examination` (``"dcg"`` for IFD,
    ``"rbp"`` for II-F, with ``gamma``); IAA uses its own linear attention
    (:func:`iaa_attention`).

Most fair / most unfair name the ends by fairness (all four measures are "lower is fairer",
so most fair is the minimum). What reaches them (Paper 3, section Resolving Limitations, the table
summarising the ranking strategies for the (un)fairest scores, and the appendix Theorems 1–5,
as corrected in the book's chapters :ref:`iaa`, :ref:`ifd` and :ref:`iif-aif`):

==========  ======================================  ==========================================
measure     most fair                               most unfair
==========  ======================================  ==========================================
IAA, II-F   relevant items on top (exact: T1, T5)   relevant items at the bottom (exact: T2,
                                                    mirror of T5)
IFD÷        relevant items beyond the top-k if      about half on top, the rest unexposed
            R <= n - k; otherwise a block at the    (exact search over the number of exposed
            end of the top-k, *not* the bottom      items, :func:`ifd_div_positions`)
IFD×        relevant items beyond the top-k if      a prefix of the top-k plus a suffix ending
            R <= n - k; otherwise the last          at k (exact search; it contains the thesis's
            ``R - (n - k)`` top-k positions         "a on top, the rest at the bottom")
==========  ======================================  ==========================================

The formulas behind these functions (the identities D5 and D8, the separable sums, the exact
searches) live in :mod:`recfair.joint._core`, which the measures of :mod:`recfair.joint` use too;
:func:`achievable` turns the per-user ends into a run's achievable scores.

>>> round(iaa_most_fair(4, 2, 2), 4), round(iaa_most_unfair(4, 2, 2), 4)  # corrected e: [1, 0.5]
(0.125, 0.875)
>>> round(iif_most_fair(3, 2, 2), 6), round(iif_most_unfair(3, 2, 1), 6)  # thesis 0.007 and 0.88
(0.006667, 0.88)
>>> round(ifd_div_most_unfair(10, 10, 2), 5)   # thesis prints 0.158; the true maximum is at R = 2
0.17773
"""

from __future__ import annotations

import itertools
import math
from typing import Callable

import numpy as np

from ..run import Run
from ..spec import Bounds, Extremes
from . import _core as core
from . import measures as _measures
from ._core import iaa_attention
from .._validation import check_positive_int
from ..examination import check_gamma, weights

__all__ = [
    "iaa_attention", "iif_target",
    "iaa_user", "iif_user", "ifd_div_user", "ifd_mul_user", "KERNELS",
    "iaa_most_fair", "iaa_most_unfair", "iif_most_fair", "iif_most_unfair",
    "ifd_div_from_values", "ifd_div_positions", "ifd_div_most_fair", "ifd_div_most_unfair",
    "ifd_div_half_half", "ifd_div_half_half_closed",
    "ifd_mul_from_positions", "ifd_mul_positions", "ifd_mul_most_fair", "ifd_mul_most_unfair",
    "ifd_mul_greedy_prefix",
    "attaining_positions", "ranking_from_positions",
    "ACHIEVABLE", "achievable", "exhaustive", "mme_largest", "ibo_rank_one_ratio",
]

MEASURES = ("IAA", "II-F", "IFD_div", "IFD_mul")
ENDS = ("most_fair", "most_unfair")


# --------------------------------------------------------------------------- validation

def _nkr(n, k, R) -> tuple[int, int, int]:
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k")
    R = check_positive_int(R, "n_relevant", minimum=0)
    if k > n:
        raise ValueError(f"k={k} exceeds n={n}.")
    if R > n:
        raise ValueError(f"n_relevant={R} exceeds n={n}: a user cannot have more relevant items than exist.")
    return n, k, R


def _rel_vector(rel_by_rank) -> np.ndarray:
    rel = np.asarray(rel_by_rank)
    if rel.ndim != 1 or rel.size == 0:
        raise ValueError("rel_by_rank must be a non-empty 1-D vector (relevance in rank order).")
    if not np.isin(rel, (0, 1)).all():
        raise ValueError("rel_by_rank must be binary (0/1): the bounds hold for binary relevance only.")
    return rel.astype(np.float64)


def _exposure(name: str, k: int, n: int, **params) -> np.ndarray:
    """Exposure of positions ``1..n``: the examination weight up to ``k``, zero after."""
    out = np.zeros(n)
    out[:k] = weights(name, k, **params)
    return out


# --------------------------------------------------------------------------- building blocks

def iif_target(n_relevant: int, *, examination: str = "rbp", **params) -> float:
    r"""II-F's target exposure :math:`E^*` of each relevant item (0 if ``R = 0``).

    The mean examination weight of positions ``1..R`` (the ideal stochastic policy shuffles
    the ``R`` relevant items over the first ``R`` positions, not truncated at ``k``). For RBP:
    :math:`(1-\gamma^R)/(R(1-\gamma))`.

    >>> round(iif_target(2, gamma=0.8), 10)
    0.9
    """
    R = check_positive_int(n_relevant, "n_relevant", minimum=0)
    return float(core.iif_targets([R], examination, **params)[0])


# --------------------------------------------------------------------------- per-user kernels

def iaa_user(rel_by_rank, *, k: int, corrected: bool = True) -> float:
    r"""IAA(u) of one full ranking: :math:`\frac1n\sum_p |a_p - r_{(p)}|`, ``a_p`` = attention in
    the top-k, else 0 (W = 1, binary relevance, so :math:`\tilde r = r`).

    >>> iaa_user([0, 0, 1, 1], k=2, corrected=False)   # thesis toy (binary analogue): 1/4 + 2/4
    0.75
    """
    rel = _rel_vector(rel_by_rank)
    return float(_separable_user(rel, iaa_attention(k, corrected=corrected)[:rel.size], rel, core.abs_cost) / rel.size)


def iif_user(rel_by_rank, *, k: int, examination: str = "rbp", **params) -> float:
    r"""II-F(u) of one full ranking: :math:`\frac1n\sum_p (E_{(p)} - E^*_{(p)})^2`.

    >>> round(iif_user([1, 1, 0], k=2, gamma=0.8), 6)   # thesis's II-F minimum 0.007 (1/150)
    0.006667
    """
    rel = _rel_vector(rel_by_rank)
    n = rel.size
    target = iif_target(int(rel.sum()), examination=examination, **params) * rel
    return float(_separable_user(rel, weights(examination, min(k, n), **params), target, core.square_cost) / n)


def _separable_user(rel: np.ndarray, a: np.ndarray, values: np.ndarray, cost) -> float:
    """One full ranking's separable sum through :func:`recfair.joint._core.separable_raw`."""
    k = a.size
    return float(core.separable_raw(values[None, :k], a, np.array([cost(-values).sum()]), cost)[0])


def ifd_div_from_values(values) -> float:
    r"""IFD÷(u) from the exposures :math:`v` of the user's relevant items (binary relevance).

    Over all ordered pairs (self-pairs included, :math:`|H_u| = R^2`):
    :math:`\frac1{R^2}\sum_{a,b}\max(0, v_a - v_b) = \frac1{R^2}\sum_{j=1}^{R} v_{(j)}(R - 2j + 1)`
    with :math:`v_{(1)} \ge \dots \ge v_{(R)}` (identity D5). ``nan`` if ``R = 0``.

    >>> round(ifd_div_from_values([1.0, 0.0]), 6)
    0.25
    """
    v = np.asarray(values, dtype=np.float64).ravel()
    if v.size == 0:
        return math.nan
    return float(core.ifd_div_identity(v, np.array([0, v.size]))[0])


def ifd_div_user(rel_by_rank, *, k: int | None, examination: str = "dcg", **params) -> float:
    r"""IFD÷(u) of one full ranking.

    ``k`` given: the corrected :math:`J_{\div\text{-our}}` (exposure zero beyond ``k``);
    ``k=None``: the original, whose :math:`J_\div` is the weight of the position in the full
    ranking (no top-k indicator). ``nan`` if no item is relevant.

    >>> round(ifd_div_user([0, 1, 1], k=None), 3), round(ifd_div_user([0, 1, 1], k=2), 3)  # thesis X12
    (0.033, 0.158)
    """
    rel = _rel_vector(rel_by_rank)
    n = rel.size
    exposure = _exposure(examination, n if k is None else k, n, **params)
    return ifd_div_from_values(exposure[rel == 1])


def ifd_mul_from_positions(n: int, positions, *, examination: str = "dcg", **params) -> float:
    r"""IFD×(u) from the top-k positions ``S`` holding relevant items (identity D8).

    :math:`J_i = e_p` for a relevant item at :math:`p \le k`, else 0, so
    :math:`\mathrm{IFD}_\times(u) = 2[n\sum_{p\in S} e_p^2 - (\sum_{p\in S} e_p)^2] / (n(n-1))`.

    >>> round(ifd_mul_from_positions(10, [1, 2, 3]), 5)   # thesis's IFD× maximum 0.265 (k = n = 10)
    0.26533
    """
    n = check_positive_int(n, "n", minimum=2)
    pos = np.asarray(positions, dtype=np.int64).reshape(-1)
    if pos.size == 0:
        return 0.0
    e = np.asarray(weights(examination, int(pos.max()), **params))[pos - 1]
    return float(core.ifd_mul_closed_form(n, e.sum(), (e**2).sum()))


def ifd_mul_user(rel_by_rank, *, k: int, examination: str = "dcg", **params) -> float:
    """IFD×(u) of one full ranking (relevant items beyond ``k`` get ``J = 0``).

    >>> round(ifd_mul_user([0] * 9 + [1], k=10), 5)   # thesis's IFD× minimum 0.0167
    0.01671
    """
    rel = _rel_vector(rel_by_rank)
    positions = np.flatnonzero(rel[:k]) + 1
    return ifd_mul_from_positions(rel.size, positions, examination=examination, **params)


#: The per-user kernels by measure name: ``kernel(rel_by_rank, *, k, **params) -> float``.
KERNELS: dict[str, Callable[..., float]] = {
    "IAA": iaa_user, "II-F": iif_user, "IFD_div": ifd_div_user, "IFD_mul": ifd_mul_user,
}


# --------------------------------------------------------------------------- IAA (D1-D4)

def iaa_most_fair(n: int, k: int, n_relevant: int, *, corrected: bool = True) -> float:
    r"""Smallest IAA(u): relevant items on top (Theorem 1; exact, the sum is separable).

    Corrected attention (D1): :math:`[R(R-1) + (k-R)(k-R+1)]/(2kn)` if :math:`R \le k`, else
    :math:`[(k-1)/2 + R - k]/n`. Original attention (D3, ``k >= 2``):
    :math:`[R(R-1) + (k-R)(k-R-1)]/(2(k-1)n)` if :math:`R \le k`, else :math:`[k/2 + R - k]/n`.

    >>> iaa_most_fair(10, 10, 10)
    0.45
    """
    n, k, R = _nkr(n, k, n_relevant)
    if corrected:
        if R <= k:
            return (R * (R - 1) + (k - R) * (k - R + 1)) / (2 * k * n)
        return ((k - 1) / 2 + R - k) / n
    iaa_attention(k, corrected=False)  # validates k >= 2
    if R <= k:
        return (R * (R - 1) + (k - R) * (k - R - 1)) / (2 * (k - 1) * n)
    return (k / 2 + R - k) / n


def iaa_most_unfair(n: int, k: int, n_relevant: int, *, corrected: bool = True) -> float:
    r"""Largest IAA(u): relevant items at the bottom (Theorem 2; exact).

    With :math:`s = \max(0, R - (n - k))` relevant items forced into the top-k (positions
    :math:`k-s+1..k`), corrected attention (D2):
    :math:`\frac1n\big[\frac{k(k+1)/2 - s(s+1)/2}{k} + \frac{s(2k-s-1)}{2k} + R - s\big]`,
    i.e. :math:`((k+1)/2 + R)/n` when :math:`R \le n-k`. Original attention (D4):
    :math:`\frac1n\big[\sum_{p\le k-s}\frac{k-p}{k-1} + \sum_{p>k-s}^{k}\frac{p-1}{k-1} + R - s\big]`,
    i.e. :math:`(k/2 + R)/n` when :math:`R \le n - k`.

    >>> iaa_most_unfair(10, 2, 3)
    0.45
    """
    n, k, R = _nkr(n, k, n_relevant)
    s = max(0, R - (n - k))
    if corrected:
        top = (k * (k + 1) / 2 - s * (s + 1) / 2) / k + s * (2 * k - s - 1) / (2 * k)
        return (top + R - s) / n
    iaa_attention(k, corrected=False)
    # sum_{p<=k-s} (k-p) = sum_{q=s}^{k-1} q ; sum_{p=k-s+1}^{k} (p-1) = sum_{q=k-s}^{k-1} q
    top = ((k - 1) * k / 2 - (s - 1) * s / 2 + s * (2 * k - s - 1) / 2) / (k - 1)
    return (top + R - s) / n


# --------------------------------------------------------------------------- II-F (D11-D13)

def _iif_generic(n, k, R, on_top: bool, examination, params) -> float:
    rel = np.zeros(n)
    if on_top:
        rel[:R] = 1
    elif R:
        rel[-R:] = 1
    return iif_user(rel, k=k, examination=examination, **params)


def iif_most_fair(n: int, k: int, n_relevant: int, *, gamma: float = 0.8, examination: str = "rbp", **params) -> float:
    r"""Smallest II-F(u): relevant items on top (Theorem 5; exact, the sum is separable).

    RBP (D12), with target :math:`t = (1-\gamma^R)/(R(1-\gamma))`:
    :math:`\frac1n\big[\frac{1-\gamma^{2k}}{1-\gamma^2} - 2t\frac{1-\gamma^{\min(R,k)}}{1-\gamma}
    + Rt^2\big]`, which for :math:`R \le k` is
    :math:`\frac1n\big[\frac{1-\gamma^{2k}}{1-\gamma^2} - \frac{(1-\gamma^R)^2}{R(1-\gamma)^2}\big]`.
    Another ``examination`` is evaluated on that ranking (``params`` go to it).

    >>> round(iif_most_fair(3, 2, 1), 6)
    0.213333
    """
    n, k, R = _nkr(n, k, n_relevant)
    if examination != "rbp":
        return _iif_generic(n, k, R, True, examination, params)
    g = check_gamma(gamma)
    t = iif_target(R, examination="rbp", gamma=g)
    shown = (1 - g ** (2 * k)) / (1 - g**2)
    return (shown - 2 * t * (1 - g ** min(R, k)) / (1 - g) + R * t**2) / n


def iif_most_unfair(n: int, k: int, n_relevant: int, *, gamma: float = 0.8, examination: str = "rbp", **params) -> float:
    r"""Largest II-F(u): relevant items at the bottom (mirror of Theorem 5; exact).

    RBP (D13): :math:`\frac1n\big[\frac{1-\gamma^{2k}}{1-\gamma^2} + Rt^2\big]` when
    :math:`R \le n - k`; otherwise :math:`s = R - (n-k)` relevant items sit at positions
    :math:`k-s+1..k` and
    :math:`\frac1n\big[\frac{1-\gamma^{2k}}{1-\gamma^2} - 2t\gamma^{k-s}\frac{1-\gamma^{s}}{1-\gamma} + Rt^2\big]`.

    >>> round(iif_most_unfair(3, 2, 1), 6)   # thesis 0.88 (both shown items irrelevant)
    0.88
    """
    n, k, R = _nkr(n, k, n_relevant)
    if examination != "rbp":
        return _iif_generic(n, k, R, False, examination, params)
    g = check_gamma(gamma)
    t = iif_target(R, examination="rbp", gamma=g)
    s = max(0, R - (n - k))
    shown = (1 - g ** (2 * k)) / (1 - g**2)
    hit = g ** (k - s) * (1 - g**s) / (1 - g)
    return (shown - 2 * t * hit + R * t**2) / n


# --------------------------------------------------------------------------- IFD÷ (D5-D7)

def ifd_div_positions(n: int, k: int | None, n_relevant: int, *, end: str = "most_unfair",
                      examination: str = "dcg", **params) -> np.ndarray:
    r"""Positions (1-based, ascending) of the ``R`` relevant items at one end of IFD÷(u).

    Exact (:func:`recfair.joint._core.ifd_div_extreme`): by identity D5 the ``j``-th relevant
    position gets the coefficient :math:`R - 2j + 1`; for each number ``s`` of relevant items
    inside the top-k the most unfair ranking puts the positive coefficients on top and the
    rest at the end of the top-k, the fairest puts all ``s`` in a block at the end of the
    top-k (the examination functions are convex), and the best ``s`` wins. ``k=None`` is the
    original IFD÷ (exposure of the full ranking, no cut-off). Relevant items left outside the
    top-k go to the bottom of the full ranking.

    >>> ifd_div_positions(8, 8, 4).tolist()              # thesis: [1,1,0,0,0,0,1,1]
    [1, 2, 7, 8]
    >>> ifd_div_positions(15, 10, 6, end="most_fair").tolist()   # not the bottom (spec D7')
    [5, 6, 7, 8, 9, 10]
    """
    n, kk, R = _nkr(n, n if k is None else k, n_relevant)
    if end not in ENDS:
        raise ValueError(f"end must be one of {ENDS}, got {end!r}.")
    if R == 0:
        return np.zeros(0, dtype=np.int64)
    return core.ifd_div_extreme(n, kk, R, end, np.asarray(weights(examination, kk, **params)))[1]


def _ifd_div_at(n, k, positions, examination, params) -> float:
    e = _exposure(examination, n if k is None else k, n, **params)
    return ifd_div_from_values(e[np.asarray(positions, dtype=np.int64) - 1])


def ifd_div_most_fair(n: int, k: int | None, n_relevant: int, *, examination: str = "dcg", **params) -> float:
    r"""Smallest IFD÷(u) (exact). 0 when :math:`R \le n - k` (all relevant items unexposed,
    D7); otherwise found by :func:`ifd_div_positions` — *not* always the thesis's bottom
    strategy (D7'). ``nan`` if ``R = 0``.

    >>> round(ifd_div_most_fair(15, 10, 6), 5), round(ifd_div_most_fair(10, 10, 2), 5)
    (0.01868, 0.00299)
    """
    n, _, R = _nkr(n, n if k is None else k, n_relevant)
    if R == 0:
        return math.nan
    return _ifd_div_at(n, k, ifd_div_positions(n, k, R, end="most_fair", examination=examination, **params), examination, params)


def ifd_div_most_unfair(n: int, k: int | None, n_relevant: int, *, examination: str = "dcg", **params) -> float:
    """Largest IFD÷(u) (exact; D6 when its conditions hold). ``nan`` if ``R = 0``.

    >>> [round(ifd_div_most_unfair(10, 10, R), 5) for R in (2, 3)]   # 0.158 is the R = 3 value
    [0.17773, 0.15799]
    """
    n, _, R = _nkr(n, n if k is None else k, n_relevant)
    if R == 0:
        return math.nan
    return _ifd_div_at(n, k, ifd_div_positions(n, k, R, end="most_unfair", examination=examination, **params), examination, params)


def ifd_div_half_half(n: int, k: int | None, n_relevant: int, *, examination: str = "dcg", **params) -> float:
    r"""IFD÷(u) of the thesis's unfairest strategy: :math:`\lfloor R/2 \rfloor` relevant items
    on top, the other :math:`\lceil R/2 \rceil` at the bottom of the full ranking.

    >>> ifd_div_half_half(8, 8, 4) == ifd_div_most_unfair(8, 8, 4)
    True
    """
    n, _, R = _nkr(n, n if k is None else k, n_relevant)
    if R == 0:
        return math.nan
    h = R // 2
    positions = list(range(1, h + 1)) + list(range(n - (R - h) + 1, n + 1))
    return _ifd_div_at(n, k, positions, examination, params)


def ifd_div_half_half_closed(n_relevant: int, *, examination: str = "dcg", **params) -> float:
    r"""D6: :math:`\frac1{R^2}\sum_{j=1}^{\lfloor R/2\rfloor}(R-2j+1)\,e_j`, the IFD÷ maximum when
    :math:`\lfloor R/2\rfloor \le k` and :math:`\lceil R/2\rceil \le n - k` (then it does not
    depend on ``n`` or ``k``).

    >>> round(ifd_div_half_half_closed(2), 5)
    0.25
    """
    R = check_positive_int(n_relevant, "n_relevant")
    h = R // 2
    if h == 0:
        return 0.0
    e = weights(examination, h, **params)
    return float(((R - 2 * np.arange(1, h + 1) + 1) * e).sum() / R**2)


# --------------------------------------------------------------------------- IFD× (D8-D10)

def ifd_mul_positions(n: int, k: int, n_relevant: int, *, end: str = "most_unfair", exact: bool = False,
                      examination: str = "dcg", **params) -> np.ndarray:
    r"""Top-k positions ``S`` of relevant items at one end of IFD×(u) (the other relevant items
    go beyond ``k``).

    Most fair: ``S`` empty if :math:`R \le n - k`, else the last :math:`s = R - (n-k)` top-k
    positions (D9). Most unfair: the best prefix ``1..a`` plus suffix ending at ``k`` over every
    size and split (exact, :func:`recfair.joint._core.ifd_mul_extreme`; it contains the thesis's
    "``a`` on top, the rest at the bottom", D10). ``exact=True`` instead enumerates every
    feasible ``S`` (:math:`\max(0, R-(n-k)) \le |S| \le \min(R, k)`; ``k <= 20``), as a check.

    >>> ifd_mul_positions(10, 10, 7).tolist()      # spec D10: {1..5, 9, 10}
    [1, 2, 3, 4, 5, 9, 10]
    """
    n, k, R = _nkr(n, k, n_relevant)
    if end not in ENDS:
        raise ValueError(f"end must be one of {ENDS}, got {end!r}.")
    if n < 2:
        raise ValueError("IFD× needs n >= 2.")
    sign = 1.0 if end == "most_unfair" else -1.0
    lo, hi = max(0, R - (n - k)), min(R, k)
    if exact:
        if k > 20:
            raise ValueError(f"exact enumeration of top-k subsets is limited to k <= 20, got k={k}.")
        best, best_s = -math.inf, None
        for size in range(lo, hi + 1):
            for S in itertools.combinations(range(1, k + 1), size):
                val = sign * ifd_mul_from_positions(n, S, examination=examination, **params)
                if val > best + 1e-15:
                    best, best_s = val, S
        return np.array(best_s, dtype=np.int64)
    return core.ifd_mul_extreme(n, k, R, end, np.asarray(weights(examination, k, **params)))[1]


def ifd_mul_most_fair(n: int, k: int, n_relevant: int, *, exact: bool = False, examination: str = "dcg", **params) -> float:
    r"""Smallest IFD×(u): 0 if :math:`R \le n-k`, else the bottom strategy (D9).

    >>> round(ifd_mul_most_fair(10, 10, 1), 5)
    0.01671
    """
    S = ifd_mul_positions(n, k, n_relevant, end="most_fair", exact=exact, examination=examination, **params)
    return ifd_mul_from_positions(n, S, examination=examination, **params)


def ifd_mul_most_unfair(n: int, k: int, n_relevant: int, *, exact: bool = False, examination: str = "dcg", **params) -> float:
    """Largest IFD×(u) (D10): see :func:`ifd_mul_positions`.

    >>> [round(ifd_mul_most_unfair(20, 10, R), 5) for R in (1, 6, 16, 17)]
    [0.1, 0.16464, 0.16464, 0.16415]
    """
    S = ifd_mul_positions(n, k, n_relevant, end="most_unfair", exact=exact, examination=examination, **params)
    return ifd_mul_from_positions(n, S, examination=examination, **params)


def ifd_mul_greedy_prefix(n: int, *, examination: str = "dcg", limit: int = 10_000, **params) -> int:
    r""":math:`\hat s` of D10: the first ``s`` at which extending the prefix ``{1..s}`` by one
    position stops paying, :math:`(n-1)e_{s+1} \le 2\sum_{p\le s} e_p` (gain of the extension
    is :math:`e_{s+1}[(n-1)e_{s+1} - 2\sum_{p\le s}e_p]`).

    >>> [ifd_mul_greedy_prefix(n) for n in (10, 15, 20)]
    [3, 5, 6]
    """
    n = check_positive_int(n, "n", minimum=2)
    e = weights(examination, limit + 1, **params)
    total = 0.0
    for s in range(0, limit):
        if s > 0 and (n - 1) * e[s] <= 2 * total:
            return s
        total += e[s]
    return limit


# --------------------------------------------------------------------------- generic front door

def mme_largest(n: int, k: int) -> float:
    r"""Largest MME over every binary relevance and every single-round top-``k`` recommendation.

    :math:`1 - H_k/n` with :math:`H_k = \sum_{p \le k} 1/p` (the users' inverse examination
    summed), for any number of users: each item envies at most the exposure it misses,
    :math:`1 - 1/p` at rank :math:`p` and 1 when unshown; reached when every item is relevant
    to every user and all users get the same list (derivation: ``derivations.mme_most_unfair``).

    >>> round(mme_largest(3, 3) * 18, 6)      # Paper 3's 7/18 at k = n = 3
    7.0
    """
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n={n}.")
    return 1.0 - float(weights("inverse", k).sum()) / n


def ibo_rank_one_ratio(n: int, k: int) -> float:
    r"""Impact ratio :math:`\mathrm{Imp}_i(i)/\mathrm{Imp}^{unif}_i` of an item shown at rank 1
    to every user who finds it relevant: :math:`n / H_k`, whatever the number of those users.

    With at least as many users as items, each user finding one item relevant and seeing it
    first, every item has this ratio, so the original IBO is 1 and IWO 0 whenever
    :math:`n/H_k \ge 1.1` (derivation: ``derivations.ibo_rank_one``).

    >>> round(ibo_rank_one_ratio(3, 3), 4)
    1.6364
    """
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n={n}.")
    return n / float(weights("inverse", k).sum())


def attaining_positions(measure: str, end: str, n: int, k: int, n_relevant: int, **params) -> np.ndarray:
    """Positions (1-based) of the ``R`` relevant items in a full ranking at one end of ``measure``.

    ``measure``: ``"IAA"``, ``"II-F"``, ``"IFD_div"``, ``"IFD_mul"`` (suffixes ``_ori``/``_our``
    are accepted; ``"IFD_div_ori"`` uses the full-ranking exposure). ``params``: ``exact``
    (IFD×), ``examination`` (IFD, II-F) and its parameters. For IFD×, relevant items not in
    ``S`` are put at the bottom of the full ranking.

    >>> attaining_positions("IAA", "most_unfair", 5, 2, 2).tolist()
    [4, 5]
    """
    base, original = _measure_name(measure)
    n, k, R = _nkr(n, k, n_relevant)
    if end not in ENDS:
        raise ValueError(f"end must be one of {ENDS}, got {end!r}.")
    if base in ("IAA", "II-F"):
        pos = np.arange(1, R + 1) if end == "most_fair" else np.arange(n - R + 1, n + 1)
        return pos.astype(np.int64)
    if base == "IFD_div":
        return ifd_div_positions(n, None if original else k, R, end=end, **params)
    S = ifd_mul_positions(n, k, R, end=end, **params)
    rest = R - S.size
    bottom = np.arange(n - rest + 1, n + 1) if rest else np.zeros(0, dtype=np.int64)
    return np.concatenate([S, bottom]).astype(np.int64)


def _measure_name(measure: str) -> tuple[str, bool]:
    name = str(measure).replace("÷", "_div").replace("×", "_mul").replace("IIF", "II-F")
    original = name.endswith("_ori")
    for suffix in ("_ori", "_our"):
        if name.endswith(suffix):
            name = name[: -len(suffix)]
    if name not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES} (optionally with _ori/_our), got {measure!r}.")
    return name, original


def ranking_from_positions(n: int, positions) -> np.ndarray:
    """Binary relevance vector in rank order with ones at the 1-based ``positions``.

    >>> ranking_from_positions(4, [1, 4]).tolist()
    [1, 0, 0, 1]
    """
    rel = np.zeros(check_positive_int(n, "n"), dtype=np.int64)
    rel[np.asarray(positions, dtype=np.int64) - 1] = 1
    return rel


# --------------------------------------------------------------------------- exhaustive search

# --------------------------------------------------------------------------- run-level achievable scores

#: Joint measures with achievable ends (the others have none: thesis Ch. 4, non-realisability Cause 1).
ACHIEVABLE = ("IAA_ori", "IAA_our", "IFD_div_ori", "IFD_div_our", "IFD_mul_ori", "IFD_mul_our",
              "II-F_ori", "II-F_our")


def achievable(measure: str, m: int, n: int, k: int, *, n_relevant=None, gamma: float = 0.8,
               **options) -> Bounds:
    r"""``Bounds(most_unfair, most_fair)``: scores of a joint measure over all rankings, given each user's
    number of relevant items (binary relevance, one round).

    The ends are per user (they depend on :math:`|R^*_u|`) and the measures average over
    users, so the run-level ends are the means of the users' ends. Corrected versions reach
    exactly 1 and 0 (``IFD_div_our``: users with one relevant item score 0 at both ends, as in
    the thesis's experiments, so its most unfair mean is the share of the other users);
    they leave out users with an empty range, and are NaN if none is left. HD, MME, IBO/IWO and
    AI-F have no entry: their ends are unknown (thesis Ch. 4, Cause 1).

    Parameters
    ----------
    measure : str
        One of :data:`ACHIEVABLE`.
    m, n, k : int
        Users, catalogue size, cut-off.
    n_relevant : array-like of int, shape (m,)
        :math:`|R^*_u|` of every user.
    gamma : float, default=0.8
        RBP patience of II-F.
    options
        ``exposure`` of ``IFD_div_ori`` (``"full"``, the default, or ``"top-k"``).

    Examples
    --------
    >>> [round(x, 6) for x in achievable("IAA_ori", 2, 10, 2, n_relevant=[1, 3])]
    [0.3, 0.1]
    >>> achievable("IAA_our", 2, 10, 2, n_relevant=[1, 3])
    Bounds(most_unfair=1.0, most_fair=0.0)
    """
    if measure not in ACHIEVABLE:
        raise ValueError(f"no achievable ends for {measure!r}; known: {', '.join(ACHIEVABLE)}.")
    m = check_positive_int(m, "m")
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k")
    if n_relevant is None:
        raise ValueError(f"the ends of {measure} depend on each user's number of relevant items: pass n_relevant=.")
    counts = np.asarray(n_relevant)
    if counts.shape != (m,) or not np.issubdtype(counts.dtype, np.integer):
        raise ValueError(f"n_relevant must hold m={m} integer counts, got shape {counts.shape} "
                         f"and dtype {counts.dtype}.")
    if counts.size and (counts.min() < 0 or counts.max() > n):
        raise ValueError(f"n_relevant must lie in [0, n={n}].")
    exposure = options.pop("exposure", "full")
    if options:
        raise ValueError(f"unknown option(s) {sorted(options)} for {measure}.")
    if measure.endswith("_our"):
        usable = (counts > 0) & (counts < n)                         # a non-empty per-user range
        if not usable.any():
            return Bounds(math.nan, math.nan)
        if measure == "IFD_div_our":
            return Bounds(float((counts[usable] >= 2).mean()), 0.0)
        return Bounds(1.0, 0.0)
    per_user = {
        "IAA_ori": lambda r: (iaa_most_unfair(n, k, r, corrected=False), iaa_most_fair(n, k, r, corrected=False)),
        "IFD_div_ori": lambda r: (ifd_div_most_unfair(n, None if exposure == "full" else k, r),
                                  ifd_div_most_fair(n, None if exposure == "full" else k, r)),
        "IFD_mul_ori": lambda r: (ifd_mul_most_unfair(n, k, r), ifd_mul_most_fair(n, k, r)),
        "II-F_ori": lambda r: (iif_most_unfair(n, k, r, gamma=gamma), iif_most_fair(n, k, r, gamma=gamma)),
    }[measure]
    if measure == "IFD_div_ori" and (counts == 0).any():
        return Bounds(math.nan, math.nan)                            # undefined: |H_u| = 0
    uniq, inverse = np.unique(counts, return_inverse=True)
    table = np.array([per_user(int(r)) for r in uniq], dtype=np.float64).reshape(-1, 2)
    ends = table[inverse].mean(axis=0)
    return Bounds(float(ends[0]), float(ends[1]))


def exhaustive(measure, m: int, n: int, k: int, *, relevant=None, n_relevant: int | None = None,
               permutations: bool = False, max_configurations: int = 2_000_000, **params) -> Extremes:
    """Exact smallest and largest value of a joint measure over every ranking (tiny sizes only).

    The one exhaustive search of Part II, in two forms:

    * ``measure`` a **registry name** (``"IAA_our"``, ``"IFD_div_ori"``, ``"HD"``, ``"MME"``, ...):
      every combination of one full ranking per user (``(n!)^m`` of them) for the users'
      ``relevant`` items, each scored by the measure itself; what
      :func:`recfair.bounds.exhaustive` dispatches to.
    * ``measure`` a **per-user kernel** ``kernel(rel_by_rank, *, k, **params)`` (one of
      :data:`KERNELS`, e.g. :func:`iaa_user`), ``m = 1`` and ``R`` relevant items: items are
      exchangeable, so every ranking is covered by trying each set of ``R`` relevant positions
      once (``math.comb(n, R)`` of them; ``permutations=True`` literally enumerates all ``n!``
      orderings instead, a check of that argument). The result then also tells where the
      extremes are: ``argmin`` and ``argmax`` are the 1-based positions of the relevant items
      (the first found in lexicographic order) and ``count`` the rankings tried.

    Values where the measure is undefined (NaN) are skipped.

    Parameters
    ----------
    measure : str or callable
        A registry name, or a per-user kernel.
    m, n, k : int
        Users, catalogue size, cut-off.
    relevant : sequence of ``m`` sequences of int
        Each user's relevant items (registry names).
    n_relevant : int
        The number of relevant items (kernels).
    permutations : bool, default=False
        Kernels only: enumerate all ``n!`` orderings.
    max_configurations : int, default=2_000_000
        Refuse (``ValueError`` stating the count) when there are more rankings to try.
    **params
        The measure's or the kernel's options (e.g. ``gamma``, ``corrected``).

    Returns
    -------
    Extremes
        ``Extremes(low, high)``; both NaN if the measure is undefined everywhere.

    Examples
    --------
    >>> exhaustive("IAA_our", 1, 4, 2, relevant=[[0, 1]])   # corrected IAA spans [0, 1]
    Extremes(low=0.0, high=1.0)
    >>> ex = exhaustive(iaa_user, 1, 4, 2, n_relevant=2, corrected=False)
    >>> ex.low, ex.argmin, ex.high, ex.argmax, ex.count
    (0.25, (1, 2), 0.75, (2, 3), 6)
    """
    m, n, k = check_positive_int(m, "m"), check_positive_int(n, "n"), check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n={n}.")
    if callable(measure):
        return _exhaustive_kernel(measure, m, n, k, n_relevant, permutations, max_configurations, params)
    if n_relevant is not None or permutations:
        raise ValueError("n_relevant= and permutations= are for a per-user kernel; a registry measure takes relevant=.")
    if relevant is None:
        raise ValueError(f"{measure} needs relevant=: each user's relevant items.")
    if len(relevant) != m:
        raise ValueError(f"relevant has {len(relevant)} users but m={m}.")
    total = math.factorial(n) ** m
    if total > max_configurations:
        raise ValueError(f"{total:,} combinations of rankings ((n!)^m with n={n}, m={m}) exceed "
                         f"max_configurations={max_configurations:,}; use a smaller n or m.")
    perms = np.array(list(itertools.permutations(range(n))), dtype=np.int64)
    low, high = math.inf, -math.inf
    for combo in itertools.product(range(len(perms)), repeat=m):
        ranking = perms[list(combo)]
        run = Run(ranking[:, :k], n, ranking=ranking, relevant=relevant)
        value = float(_measures._compute(measure, run, on_undefined="nan", **params))
        if not math.isnan(value):
            low, high = min(low, value), max(high, value)
    if low > high:
        return Extremes(math.nan, math.nan, count=total)
    return Extremes(low, high, count=total)


def _exhaustive_kernel(kernel, m, n, k, n_relevant, permutations, max_configurations, params) -> Extremes:
    """The per-user form of :func:`exhaustive`: every set of relevant positions (or every ordering)."""
    if m != 1:
        raise ValueError(f"a per-user kernel scores one user: m must be 1, got {m}.")
    if n_relevant is None:
        raise ValueError("a per-user kernel needs n_relevant=, the user's number of relevant items.")
    n, k, R = _nkr(n, k, n_relevant)
    if permutations:
        total = math.factorial(n)
        rel0 = np.array([1] * R + [0] * (n - R))
        configs = (tuple(int(p) + 1 for p in np.flatnonzero(rel0[list(perm)]))
                   for perm in itertools.permutations(range(n)))
    else:
        total = math.comb(n, R)
        configs = (tuple(c + 1 for c in combo) for combo in itertools.combinations(range(n), R))
    if total > max_configurations:
        raise ValueError(f"{total:,} rankings exceed max_configurations={max_configurations:,}.")
    lo, hi, arg_lo, arg_hi = math.inf, -math.inf, None, None
    for positions in configs:
        value = kernel(ranking_from_positions(n, positions), k=k, **params)
        if math.isnan(value):
            continue
        if value < lo - 1e-15:
            lo, arg_lo = value, positions
        if value > hi + 1e-15:
            hi, arg_hi = value, positions
    if arg_lo is None:
        return Extremes(math.nan, math.nan, argmin=(), argmax=(), count=total)
    return Extremes(float(lo), float(hi), argmin=arg_lo, argmax=arg_hi, count=total)
