r"""Exposure-based individual item fairness (thesis Ch. 2, Paper 1): Jain, QF, Ent, Gini(-w), FSat, VoCD, II-D, AI-D.

Shared inputs: ``top_k``, an ``(m, k)`` int array whose row ``u`` is user ``u``'s ranked
list of distinct item indices in ``[0, n_items)``, and ``n_items`` (:math:`n`), the size of
the **whole catalogue**, recommended or not. No measure here uses relevance. The count
:math:`c_i` is the number of users whose list contains item :math:`i`, so
:math:`\sum_i c_i = km`. Multi-round measures (Gini, Gini-w, II-D, AI-D) also accept
``rounds``, an ``(W, m, k)`` array whose round 0 equals ``top_k``; VoCD may take
``item_features``.

Each measure has an original version (as published) and, where the thesis gives one, a
``_corrected`` version: min-max rescaled to the scores of the most unfair and most fair
recommendations achievable with :math:`km` slots (:mod:`recfair.item_exposure.bounds`). Corrected scores
within 1e-12 of 0 or 1 are snapped to exactly 0 or 1 and never clipped, so the corrected
FSat can be negative (the thesis's minimum ``k/n`` is not the true minimum).

Undefined values (0/0, log 0, no item pairs, an empty achievable range) follow the one
policy ``on_undefined`` in ``{"warn", "nan", "raise"}``: NaN with an
:class:`~recfair.UndefinedMeasureWarning` (default), NaN silently, or an
:class:`~recfair.UndefinedMeasureError`. With no users (``m = 0``) there are no slots and
every measure here is undefined.

>>> import recfair as rf
>>> top_k = [[0, 1], [1, 2], [0, 2]]
>>> rf.jain_index(top_k, n_items=4), rf.jain_index_corrected(top_k, n_items=4)
(0.75, 0.625)
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from . import bounds as _b
from .._docs import ON_UNDEFINED, ROUNDS, doc_filler
from ..inequality import gini, gini_from_rank_sum
from .._validation import (check_alpha, check_beta, check_item_features, check_on_undefined, check_real,
                           check_log_base, check_rounds, check_top_k, ln_of_base, renamed_options, snap,
                           undefined)
from ..examination import check_gamma
from ..examination import dcg as _dcg_weights

__all__ = [
    "jain_index", "jain_index_corrected",
    "qualification_fairness", "qualification_fairness_corrected",
    "item_entropy", "item_entropy_defined", "item_entropy_corrected",
    "gini_index", "gini_index_corrected", "gini_index_weighted", "gini_index_weighted_corrected",
    "fraction_satisfied", "fraction_satisfied_corrected",
    "vocd", "ii_disparity", "ai_disparity",
    "RankCounts", "from_rank_counts", "CountSummary", "COUNT_MEASURES", "count_summary", "from_count_summary", "fsat_threshold",
]

_NO_SLOTS = "there are no recommendation slots (n_users == 0)"

# --------------------------------------------------------------------------- shared docs

_REF_THESIS = ("T. V. Rampisela, M. Maistro, T. Ruotsalo, C. Lioma (2024). Evaluation measures of\n"
               "           individual item fairness for recommender systems: a critical study.\n"
               "           ACM Trans. Recomm. Syst. (thesis Ch. 2)")
_DOC = {
    "<<top_k>>": """top_k : array-like of int, shape (n_users, >= k)
        Item indices in ``[0, n_items)``, distinct within a row; row ``u`` is user ``u``'s
        ranked list.
    n_items : int
        Size of the catalogue :math:`n` (all items of the dataset, recommended or not).
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.""",
    "<<rounds>>": ROUNDS,
    "<<on_undefined>>": ON_UNDEFINED,
    "<<thesis>>": _REF_THESIS,
}


_fill_doc = doc_filler(_DOC)


def _lists(top_k, rounds) -> np.ndarray:
    """All lists as one ``(W*m, k)`` array: a round is, for exposure totals, just more users."""
    return top_k if rounds is None else rounds.reshape(-1, rounds.shape[-1])


# --------------------------------------------------------------------------- kernels (last axis)

def _counts(top_k: np.ndarray, n_items: int) -> np.ndarray:
    if isinstance(top_k, RankCounts):
        return top_k.counts
    return np.bincount(top_k.ravel(), minlength=n_items)


def _dcg_exposure(lists: np.ndarray, n_items: int) -> np.ndarray:
    w = _dcg_weights(np.arange(1, lists.shape[1] + 1))
    if isinstance(lists, RankCounts):
        return lists.table @ w
    return np.bincount(lists.ravel(), weights=np.tile(w, lists.shape[0]), minlength=n_items)


# The five count-based measures follow from a few statistics of the counts (one formula each, below):
# the Paper 4 frontier (recfair.pareto) updates these statistics one slot at a time.

def _jain_from(sum_sq, slots: int, n: int):
    """Jain's index from :math:`\\sum_i c_i^2`: :math:`(km)^2 / (n \\sum_i c_i^2)`."""
    return float(slots) ** 2 / (n * np.asarray(sum_sq, dtype=np.float64))


def _qf_from(n_shown, n: int):
    """QF from the number of recommended items :math:`|R|`: :math:`|R| / n`."""
    return np.asarray(n_shown, dtype=np.float64) / n


def _entropy_from(sum_c_ln_c, slots: int, ln_base: float):
    """Entropy from :math:`\\sum_i c_i \\ln c_i`: :math:`-\\sum_i p_i \\log p_i = \\ln(km) - \\frac{1}{km}\\sum_i c_i \\ln c_i`."""
    return (math.log(slots) - np.asarray(sum_c_ln_c, dtype=np.float64) / slots) / ln_base


_gini_from = gini_from_rank_sum          # the one Gini formula lives in recfair.inequality


def fsat_threshold(slots: int, n: int) -> int:
    """The count an item needs to be satisfied in FSat: :math:`\\lfloor km/n \\rfloor`.

    >>> fsat_threshold(15, 4)
    3
    """
    return slots // n


def _fsat_from(n_satisfied, n: int):
    """FSat from the number of items with :math:`c_i \\ge \\lfloor km/n \\rfloor`."""
    return np.asarray(n_satisfied, dtype=np.float64) / n


def _jain(counts, slots: int, n: int):
    counts = np.asarray(counts, dtype=np.float64)
    return _jain_from(np.einsum("...i,...i->...", counts, counts), slots, n)


def _qf(counts, n: int):
    return _qf_from(np.count_nonzero(counts, axis=-1), n)


def _c_ln_c(counts):
    c = np.asarray(counts, dtype=np.float64)
    out = np.zeros_like(c)
    shown = c > 0
    out[shown] = c[shown] * np.log(c[shown])
    return out


def _entropy(counts, slots: int, ln_base: float, *, defined: bool):
    value = _entropy_from(_c_ln_c(counts).sum(axis=-1), slots, ln_base)
    if defined:
        return value
    # the original sums over all n items: an unshown item gives 0 * log 0, which is NaN (L3)
    return np.where((np.asarray(counts) > 0).all(axis=-1), value, np.nan)


_gini = gini


def _fsat(counts, slots: int, n: int):
    return _fsat_from(np.count_nonzero(np.asarray(counts) >= fsat_threshold(slots, n), axis=-1), n)


class RankCounts:
    """How often each item fills each rank, standing in for the lists of ``n_users`` users.

    Every Part I measure of a single round depends on the lists only through these counts
    (:math:`c_i` is a row sum; DCG and RBP exposure weigh the columns), so blocks of users can
    be counted one at a time and summed (:class:`recfair.Accumulator`); :func:`from_rank_counts`
    then gives exactly what the measure gives on the whole run.

    Parameters
    ----------
    table : ndarray of int, shape (n_items, k)
        ``table[i, j]``: number of users with item ``i`` at rank ``j + 1``.
    n_users : int

    Examples
    --------
    >>> rc = RankCounts.of([[0, 1], [1, 2], [0, 2]], n_items=4)
    >>> rc.table.tolist(), rc.counts.tolist(), rc.shape
    ([[2, 0], [1, 1], [0, 2], [0, 0]], [2, 2, 2, 0], (3, 2))
    """

    def __init__(self, table, n_users: int):
        self.table = np.asarray(table, dtype=np.int64)
        if self.table.ndim != 2:
            raise ValueError(f"table must be (n_items, k), got shape {self.table.shape}.")
        self.shape = (int(n_users), self.table.shape[1])

    @classmethod
    def of(cls, top_k, *, n_items) -> "RankCounts":
        """The rank counts of one block of lists ``(n_users, k)``."""
        top_k = check_top_k(top_k, n_items=n_items)
        m, k = top_k.shape
        flat = (top_k * k + np.arange(k)).ravel()
        return cls(np.bincount(flat, minlength=int(n_items) * k).reshape(int(n_items), k), m)

    @property
    def counts(self) -> np.ndarray:
        """:math:`c_i`, ``(n_items,)``."""
        return self.table.sum(axis=1)

    def __add__(self, other: "RankCounts") -> "RankCounts":
        if self.table.shape != other.table.shape:
            raise ValueError(f"cannot add rank counts of shapes {self.table.shape} and {other.table.shape} "
                             "(different n_items or k).")
        return RankCounts(self.table + other.table, self.shape[0] + other.shape[0])


class CountSummary(NamedTuple):
    """The statistics of the item counts :math:`c_i` behind Jain, QF, Ent, Gini and FSat (ori and our).

    Each field is a number, or an array with one entry per recommendation state (e.g. per step
    of :func:`recfair.pareto.oracle2fair`).

    Attributes
    ----------
    sum_sq : :math:`\\sum_i c_i^2` (Jain).
    sum_c_ln_c : :math:`\\sum_{i: c_i > 0} c_i \\ln c_i` (Ent).
    n_shown : :math:`|R|`, the number of items with :math:`c_i > 0` (QF).
    rank_sum : :math:`\\sum_j j\\,c_{(j)}` over the counts in ascending order, :math:`j = 1..n` (Gini).
    n_satisfied : the number of items with :math:`c_i \\ge \\lfloor km/n \\rfloor` (FSat).

    Examples
    --------
    >>> CountSummary(sum_sq=12, sum_c_ln_c=4.16, n_shown=3, rank_sum=18, n_satisfied=3).n_shown
    3
    """

    sum_sq: object
    sum_c_ln_c: object
    n_shown: object
    rank_sum: object
    n_satisfied: object


#: The measures :func:`from_count_summary` computes.
COUNT_MEASURES = ("Jain_ori", "Jain_our", "QF_ori", "QF_our", "Ent_ori", "Ent_our", "Gini_ori", "Gini_our",
                  "FSat_ori", "FSat_our")


def count_summary(top_k, *, n_items) -> CountSummary:
    """The count statistics of one run (see :class:`CountSummary`).

    Examples
    --------
    >>> count_summary([[0, 1], [1, 2], [0, 2]], n_items=4)
    CountSummary(sum_sq=12, sum_c_ln_c=4.158883083359672, n_shown=3, rank_sum=18, n_satisfied=3)
    """
    top_k = check_top_k(top_k, n_items=n_items)
    m, k = top_k.shape
    c = _counts(top_k, n_items)
    return CountSummary(int(c @ c), float(_c_ln_c(c).sum()), int(np.count_nonzero(c)),
                        int(np.sort(c) @ np.arange(1, n_items + 1)),
                        int(np.count_nonzero(c >= fsat_threshold(k * m, n_items))))


def from_count_summary(key: str, summary: CountSummary, *, n_users: int, n_items: int, k: int,
                       on_undefined: str = "warn"):
    """Jain, QF, Ent, Gini or FSat (``key`` of :data:`COUNT_MEASURES`) from count statistics.

    The same formulas as the measure functions (which call them), so a caller that keeps
    :class:`CountSummary` up to date as single slots change (the Paper 4 frontier does) gets
    exactly the library's scores without recounting. Entropy uses the default base ``n`` (the
    corrected entropy is base-invariant). Accepts arrays of statistics and returns an array then.

    Examples
    --------
    >>> top_k = [[0, 1], [1, 2], [0, 2]]
    >>> s = count_summary(top_k, n_items=4)
    >>> float(from_count_summary("Jain_our", s, n_users=3, n_items=4, k=2))
    0.625
    >>> float(from_count_summary("Gini_ori", s, n_users=3, n_items=4, k=2))
    0.25
    """
    if key not in COUNT_MEASURES:
        raise ValueError(f"from_count_summary computes {', '.join(COUNT_MEASURES)}; got {key!r}.")
    check_on_undefined(on_undefined)
    m, n, k = int(n_users), int(n_items), int(k)
    slots = k * m
    base = key.rsplit("_", 1)[0]
    if m == 0:
        return undefined(key, _NO_SLOTS, on_undefined)
    if base == "Jain":
        raw = _jain_from(summary.sum_sq, slots, n)
    elif base == "QF":
        raw = _qf_from(summary.n_shown, n)
    elif base == "Ent":
        if key == "Ent_ori":
            value = _entropy_from(summary.sum_c_ln_c, slots, math.log(n))
            return np.where(np.asarray(summary.n_shown) == n, value, np.nan)
        raw = _entropy_from(summary.sum_c_ln_c, slots, 1.0)
    elif base == "Gini":
        raw = _gini_from(summary.rank_sum, slots, n)
    else:
        raw = _fsat_from(summary.n_satisfied, n)
    if key.endswith("_ori"):
        return raw
    reason = _b._empty_range_reason(key, m, n, k)
    if reason is not None:
        return undefined(key, f"the achievable range is empty: {reason} (0/0)", on_undefined)
    return _rescale(key, raw, m, n, k)


def _vocd_sorted(counts: np.ndarray, beta: float) -> tuple[float, int]:
    r"""Sum of :math:`\max(CD-\beta, 0)` over all unordered pairs of shown items, and the pair count.

    With the shown counts sorted ascending, :math:`c_{(1)} \le \dots \le c_{(R)}`, the pair
    :math:`(i, j)`, :math:`i < j`, contributes :math:`1 - \beta - c_{(i)}/c_{(j)}` exactly when
    :math:`c_{(i)} < (1-\beta)\,c_{(j)}`, i.e. for the first :math:`t_j` items. Hence

    .. math:: \sum_j \Bigl(t_j(1-\beta) - \frac{S_{t_j}}{c_{(j)}}\Bigr),

    with :math:`S_t` the sum of the :math:`t` smallest counts (for :math:`\beta = 0`,
    :math:`t_j` counts the strictly smaller counts and ties add 0).
    """
    c = np.sort(counts[counts > 0]).astype(np.float64)
    size = c.size
    prefix = np.concatenate(([0.0], np.cumsum(c)))
    t = np.searchsorted(c, (1.0 - beta) * c, side="left")
    total = float((t * (1.0 - beta) - prefix[t] / c).sum())
    return total, size * (size - 1) // 2


def _vocd_features(counts: np.ndarray, feats: np.ndarray, alpha: float, beta: float,
                   block: int = 1024) -> tuple[float, int]:
    """Blocked pairwise VoCD over shown items whose cosine distance is at most ``alpha``."""
    shown = np.flatnonzero(counts > 0)
    c = counts[shown].astype(np.float64)
    x = feats[shown]
    norms = np.linalg.norm(x, axis=1)
    if np.any(norms == 0):
        bad = int(shown[np.flatnonzero(norms == 0)[0]])
        raise ValueError(f"item_features of recommended item {bad} is the zero vector: its cosine similarity "
                         "is undefined.")
    x = x / norms[:, None]
    total, pairs = 0.0, 0
    for start in range(0, shown.size, block):
        stop = min(start + block, shown.size)
        dist = 1.0 - x[start:stop] @ x[start:].T                         # (b, R - start)
        upper = np.arange(start, shown.size)[None, :] > np.arange(start, stop)[:, None]
        similar = upper & (dist <= alpha + 1e-12)
        ci, cj = c[start:stop, None], c[None, start:]
        cd = np.abs(ci - cj) / np.maximum(ci, cj)
        total += float(np.maximum(cd - beta, 0.0)[similar].sum())
        pairs += int(similar.sum())
    return total, pairs


def _vocd_pairs_batch(counts: np.ndarray, beta: float) -> np.ndarray:
    """Brute-force VoCD (all shown pairs similar) for a batch of count vectors ``(B, n)``."""
    c = np.asarray(counts, dtype=np.float64)
    ci, cj = c[:, :, None], c[:, None, :]
    n = c.shape[-1]
    valid = (ci > 0) & (cj > 0) & np.triu(np.ones((n, n), dtype=bool), 1)
    with np.errstate(invalid="ignore", divide="ignore"):
        cd = np.where(valid, np.abs(ci - cj) / np.maximum(ci, cj), 0.0)
    pairs = valid.sum(axis=(1, 2))
    total = np.where(valid, np.maximum(cd - beta, 0.0), 0.0).sum(axis=(1, 2))
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(pairs > 0, total / np.maximum(pairs, 1), np.nan)


def _rbp_stats(top_k: np.ndarray, rounds, n_items: int, gamma: float) -> tuple[np.ndarray, float]:
    r"""Per-item mean exposure :math:`\bar E_i` and :math:`\sum_{u,i} E_{u,i}(E_{u,i} - 2\tilde E)`.

    Only the non-zero :math:`E_{u,i}` enter; nothing of size ``m * n`` is built.
    """
    m, k = top_k.shape
    w = gamma ** np.arange(k, dtype=np.float64)
    e_rand = _b.random_rbp_exposure(n_items, k, gamma=gamma)
    if isinstance(top_k, RankCounts):
        return top_k.table @ w / m, m * float((w * (w - 2.0 * e_rand)).sum())
    if rounds is None or rounds.shape[0] == 1:
        mean_exposure = np.bincount(top_k.ravel(), weights=np.tile(w, m), minlength=n_items) / m
        cross = m * float((w * (w - 2.0 * e_rand)).sum())
        return mean_exposure, cross
    n_rounds = rounds.shape[0]
    width = n_rounds * k
    slot_w = np.tile(w, n_rounds)                                          # weight of each (round, rank) slot
    items = rounds.transpose(1, 0, 2).reshape(m, width)                    # user-major: (m, W*k)
    mean_exposure = np.bincount(items.ravel(), weights=np.tile(slot_w, m), minlength=n_items) / (m * n_rounds)
    # sort each user's slots by item: one key carries the item and the slot it came from
    keys = items * width + np.arange(width)
    keys.sort(axis=1)
    s_items, s_w = keys // width, slot_w[keys % width]
    new = np.ones(keys.shape, dtype=bool)
    new[:, 1:] = s_items[:, 1:] != s_items[:, :-1]
    e = np.add.reduceat(s_w.ravel(), np.flatnonzero(new.ravel())) / n_rounds   # the non-zero E_{u,i}
    return mean_exposure, float((e * (e - 2.0 * e_rand)).sum())


# --------------------------------------------------------------------------- corrections

def _rescale_ends(name: str, m: int, n: int, k: int) -> tuple[float, float]:
    """``(x_min, x_max)`` of the min-max correction of ``name``: its original's achievable range
    (:func:`recfair.item_exposure.bounds.achievable`; entropy in natural log, as the correction is base-invariant)."""
    original = _b.CORRECTED[name]
    ends = _b.achievable(original, m, n, k, **({"log_base": math.e} if original == "Ent_def" else {}))
    return min(ends), max(ends)


def _rescale(name: str, raw, m: int, n: int, k: int):
    """Min-max correction of raw original scores (caller has checked the range is not empty)."""
    low, high = _rescale_ends(name, m, n, k)
    return snap((np.asarray(raw, dtype=np.float64) - low) / (high - low))


def _corrected(name: str, func: str, raw_fn, m: int, n: int, k: int, on_undefined: str) -> float:
    if m == 0:
        return undefined(func, _NO_SLOTS, on_undefined)
    reason = _b._empty_range_reason(name, m, n, k)
    if reason is not None:
        return undefined(func, f"the achievable range is empty: {reason} (0/0)", on_undefined)
    return float(_rescale(name, raw_fn(), m, n, k))


def _batch_measure(base: str, totals: np.ndarray, *, m: int, n: int, k: int, params: dict):
    """Original measure ``base`` for a batch of count/exposure vectors ``(B, n)`` (used by exhaustive search)."""
    slots = k * m
    if base == "Jain_ori":
        return _jain(totals, slots, n)
    if base == "QF_ori":
        return _qf(totals, n)
    if base in ("Ent_ori", "Ent_def"):
        ln_b = ln_of_base(params.get("log_base"), n)
        return _entropy(totals, slots, ln_b, defined=base == "Ent_def")
    if base in ("Gini_ori", "Gini-w_ori"):
        return _gini(totals)
    if base == "FSat_ori":
        return _fsat(totals, slots, n)
    if base == "VoCD":
        check_alpha(params.get("alpha", 2.0))
        if params.get("alpha", 2.0) < 2.0:
            raise ValueError("exhaustive search supports VoCD with alpha = 2 (all shown items similar) only.")
        return _vocd_pairs_batch(totals, check_beta(params.get("beta", 0.0)))
    raise ValueError(f"no batch kernel for {base!r}.")


# --------------------------------------------------------------------------- internal measures

def _jain_ori(top_k, n, on_undefined):
    m, k = top_k.shape
    if m == 0:
        return undefined("jain_index", _NO_SLOTS + ", so (km)^2 / (n sum c_i^2) is 0/0", on_undefined)
    return float(_jain(_counts(top_k, n), k * m, n))


def _jain_our(top_k, n, on_undefined):
    m, k = top_k.shape
    return _corrected("Jain_our", "jain_index_corrected", lambda: _jain(_counts(top_k, n), k * m, n),
                      m, n, k, on_undefined)


def _qf_ori(top_k, n, on_undefined):
    if top_k.shape[0] == 0:
        return undefined("qualification_fairness", _NO_SLOTS, on_undefined)
    return float(_qf(_counts(top_k, n), n))


def _qf_our(top_k, n, on_undefined):
    m, k = top_k.shape
    return _corrected("QF_our", "qualification_fairness_corrected", lambda: _qf(_counts(top_k, n), n),
                      m, n, k, on_undefined)


def _resolve_log_base(func: str, log_base, n: int, on_undefined: str):
    log_base = check_log_base(log_base)
    if log_base is None and n == 1:
        return None, undefined(func, "the default log base is n_items = 1, and log base 1 is undefined", on_undefined)
    return math.log(n if log_base is None else log_base), None


def _ent_ori(top_k, n, on_undefined, log_base=None):
    ln_b, fail = _resolve_log_base("item_entropy", log_base, n, on_undefined)
    if ln_b is None:
        return fail
    m, k = top_k.shape
    if m == 0:
        return undefined("item_entropy", _NO_SLOTS, on_undefined)
    counts = _counts(top_k, n)
    unshown = n - np.count_nonzero(counts)
    if unshown:
        return undefined("item_entropy", f"{unshown} of the {n} items are never recommended, so p(i) log p(i) "
                         "meets log 0 (use item_entropy_defined or item_entropy_corrected)", on_undefined)
    return float(_entropy(counts, k * m, ln_b, defined=False))


def _ent_def(top_k, n, on_undefined, log_base=None):
    ln_b, fail = _resolve_log_base("item_entropy_defined", log_base, n, on_undefined)
    if ln_b is None:
        return fail
    m, k = top_k.shape
    if m == 0:
        return undefined("item_entropy_defined", _NO_SLOTS, on_undefined)
    return float(_entropy(_counts(top_k, n), k * m, ln_b, defined=True))


def _ent_our(top_k, n, on_undefined, log_base=None):
    check_log_base(log_base)                      # accepted for symmetry; the corrected entropy is base-invariant
    m, k = top_k.shape
    return _corrected("Ent_our", "item_entropy_corrected",
                      lambda: _entropy(_counts(top_k, n), k * m, 1.0, defined=True), m, n, k, on_undefined)


def _gini_ori(top_k, n, on_undefined, rounds=None):
    if top_k.shape[0] == 0:
        return undefined("gini_index", _NO_SLOTS + ", so the Gini index is 0/0", on_undefined)
    return float(_gini(_counts(_lists(top_k, rounds), n)))


def _gini_our(top_k, n, on_undefined, rounds=None):
    lists = _lists(top_k, rounds)
    return _corrected("Gini_our", "gini_index_corrected", lambda: _gini(_counts(lists, n)),
                      lists.shape[0], n, top_k.shape[1], on_undefined)


def _giniw_ori(top_k, n, on_undefined, rounds=None):
    if top_k.shape[0] == 0:
        return undefined("gini_index_weighted", _NO_SLOTS + ", so the Gini index is 0/0", on_undefined)
    return float(_gini(_dcg_exposure(_lists(top_k, rounds), n)))


def _giniw_our(top_k, n, on_undefined, rounds=None):
    lists = _lists(top_k, rounds)
    return _corrected("Gini-w_our", "gini_index_weighted_corrected", lambda: _gini(_dcg_exposure(lists, n)),
                      lists.shape[0], n, top_k.shape[1], on_undefined)


def _fsat_ori(top_k, n, on_undefined):
    m, k = top_k.shape
    if m == 0:
        return undefined("fraction_satisfied", _NO_SLOTS, on_undefined)
    return float(_fsat(_counts(top_k, n), k * m, n))


def _fsat_our(top_k, n, on_undefined):
    m, k = top_k.shape
    return _corrected("FSat_our", "fraction_satisfied_corrected", lambda: _fsat(_counts(top_k, n), k * m, n),
                      m, n, k, on_undefined)


def _vocd(top_k, n, on_undefined, alpha=2.0, beta=0.0, item_features=None):
    alpha, beta = check_alpha(alpha), check_beta(beta)
    if alpha < 2.0 and item_features is None:
        raise ValueError(f"VoCD with alpha={alpha} < 2 needs item_features to decide which items are similar "
                         "(with alpha = 2 every pair of recommended items is similar).")
    if top_k.shape[0] == 0:
        return undefined("vocd", _NO_SLOTS + ", so there are no item pairs", on_undefined)
    counts = _counts(top_k, n)
    if alpha >= 2.0:
        total, pairs = _vocd_sorted(counts, beta)
    else:
        total, pairs = _vocd_features(counts, item_features, alpha, beta)
    if pairs == 0:
        shown = int(np.count_nonzero(counts))
        why = ("fewer than two items are recommended" if shown < 2
               else f"no pair of the {shown} recommended items is alpha-similar (alpha={alpha})")
        return undefined("vocd", f"{why}, so the set A of similar pairs is empty (|A| = 0)", on_undefined)
    return float(total / pairs)


def _iid(top_k, n, on_undefined, gamma=0.8, rounds=None):
    gamma = check_gamma(gamma)
    m, k = top_k.shape
    if m == 0:
        return undefined("ii_disparity", _NO_SLOTS + ", so the mean over users is 0/0", on_undefined)
    e_rand = _b.random_rbp_exposure(n, k, gamma=gamma)
    _, cross = _rbp_stats(top_k, rounds, n, gamma)
    return float(e_rand**2 + cross / (m * n))


def _aid(top_k, n, on_undefined, gamma=0.8, rounds=None):
    gamma = check_gamma(gamma)
    m, k = top_k.shape
    if m == 0:
        return undefined("ai_disparity", _NO_SLOTS + ", so the mean over users is 0/0", on_undefined)
    e_rand = _b.random_rbp_exposure(n, k, gamma=gamma)
    mean_exposure, _ = _rbp_stats(top_k, rounds, n, gamma)
    return float(np.mean((mean_exposure - e_rand) ** 2))


def _prepare(top_k, n_items, k, on_undefined):
    check_on_undefined(on_undefined)
    top_k = check_top_k(top_k, n_items=n_items, k=k)
    return top_k, int(n_items)


# --------------------------------------------------------------------------- Jain

@_fill_doc
def jain_index(top_k, *, n_items, k=None, on_undefined="warn") -> float:
    r"""Jain's index of how evenly the :math:`km` slots are spread over the catalogue.

    Higher is fairer. Every catalogue item counts, recommended or not.

    .. math::

        \mathrm{Jain}_{\mathrm{ori}} = \frac{\bigl(\sum_{i \in I} c_i\bigr)^2}{n \sum_{i \in I} c_i^2}
        = \frac{(km)^2}{n \sum_{i \in I} c_i^2}

    where :math:`c_i` is the number of users whose top-k list contains item :math:`i`
    (Paper 1, Individual Item Fairness Measures: Jain_ori; chapter :ref:`jain`).

    Parameters
    ----------
    <<top_k>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range (0, 1]. Achievable at (m, n, k): from ``k / n`` (everyone gets the
        same k items) to :func:`recfair.bounds.jain_most_fair`, which is 1 only if ``n``
        divides ``km`` and ``km / n`` if ``km < n``.

    See Also
    --------
    jain_index_corrected : The index rescaled to its achievable range.

    Notes
    -----
    Undefined (0/0) without users (``m = 0``). If x% of the items are each shown equally
    often and the rest never, the index is x; with unequal counts this reading fails.

    References
    ----------
    .. [1] R. Jain, D. Chiu, W. Hawe (1984). A quantitative measure of fairness and
           discrimination for resource allocation in shared computer systems. DEC-TR-301.
    .. [2] <<thesis>>, section Individual Item Fairness Measures (Jain_ori).

    Examples
    --------
    >>> jain_index([[0, 1, 2], [3, 4, 5]], n_items=10)
    0.6
    >>> round(jain_index([[0, 1, 2], [0, 1, 3], [0, 4, 5]], n_items=10), 4)   # 81/170
    0.4765
    >>> jain_index(np.empty((0, 3), dtype=int), n_items=10, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _jain_ori(top_k, n, on_undefined)


@_fill_doc
def jain_index_corrected(top_k, *, n_items, k=None, on_undefined="warn") -> float:
    r"""Jain's index rescaled so that the most unfair achievable lists score 0 and the fairest 1.

    Higher is fairer.

    .. math::

        \mathrm{Jain}_{\mathrm{our}} = \frac{\mathrm{Jain}_{\mathrm{ori}} - \frac{k}{n}}
        {\mathrm{Jain}_{\max} - \frac{k}{n}}, \qquad
        \mathrm{Jain}_{\max} = \frac{(km)^2}{n\,\bigl(nf^2 + r(2f+1)\bigr)}

    with :math:`km = nf + r`, :math:`0 \le r < n` (Paper 1, Resolving Limitations: Jain_max, Jain_our).

    Parameters
    ----------
    <<top_k>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Range [0, 1], both ends achievable: 0 when everyone gets the same k items, 1 for
        balanced counts (``n - r`` items ``f`` times, ``r`` items ``f + 1`` times).

    See Also
    --------
    jain_index : The original index.

    Notes
    -----
    Undefined when the achievable range is empty: ``k == n_items`` (every list shows the
    whole catalogue) or ``n_users == 1`` (a single list fixes the counts), and without users.

    References
    ----------
    .. [1] <<thesis>>, section Resolving Limitations (Jain_our).

    Examples
    --------
    >>> jain_index_corrected([[0, 1, 2], [3, 4, 5]], n_items=10)
    1.0
    >>> round(jain_index_corrected([[0, 1, 2], [0, 1, 3], [0, 4, 5]], n_items=10), 4)
    0.2941
    >>> jain_index_corrected([[0, 1, 2]], n_items=3, on_undefined="nan")      # k == n
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _jain_our(top_k, n, on_undefined)


# --------------------------------------------------------------------------- QF

@_fill_doc
def qualification_fairness(top_k, *, n_items, k=None, on_undefined="warn") -> float:
    r"""Qualification fairness: the share of the catalogue recommended at least once (= coverage).

    Higher is fairer. How often an item is recommended does not matter (quantity-insensitive).

    .. math::

        \mathrm{QF}_{\mathrm{ori}} = \frac{\bigl(\sum_{i \in I} \mathbb{1}_R(i)\bigr)^2}
        {n \sum_{i \in I} \mathbb{1}_R(i)^2} = \frac{|R|}{n}

    where :math:`R` is the set of items in at least one top-k list (Paper 1, Individual Item
    Fairness Measures: QF_ori; chapter :ref:`qf`).

    Parameters
    ----------
    <<top_k>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1]. Achievable: from ``k / n`` to ``min(km, n) / n``.

    See Also
    --------
    qualification_fairness_corrected : Rescaled to the achievable range.
    jain_index : The count-sensitive index QF derives from.

    Notes
    -----
    Undefined without users: the Jain form of the formula is then 0/0.

    References
    ----------
    .. [1] Zhu et al. (2020). FARM: a fairness-aware recommendation method for high visibility
           and low visibility mobile apps. IEEE Access.
    .. [2] M. Mansoury, H. Abdollahpouri, M. Pechenizkiy, B. Mobasher, R. Burke (2020).
           FairMatch: a graph-based approach for improving aggregate diversity in recommender
           systems. UMAP.
    .. [3] <<thesis>>, section Individual Item Fairness Measures (QF_ori).

    Examples
    --------
    >>> qualification_fairness([[0, 1], [1, 2], [0, 2]], n_items=5)
    0.6
    >>> qualification_fairness([[0, 1], [0, 1], [0, 2]], n_items=5)   # same coverage
    0.6
    >>> qualification_fairness(np.empty((0, 2), dtype=int), n_items=5, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _qf_ori(top_k, n, on_undefined)


@_fill_doc
def qualification_fairness_corrected(top_k, *, n_items, k=None, on_undefined="warn") -> float:
    r"""Qualification fairness rescaled to the achievable range: 0 for ``k`` shown items, 1 for ``min(km, n)``.

    Higher is fairer.

    .. math::

        \mathrm{QF}_{\mathrm{our}} =
        \begin{cases}
        \dfrac{\mathrm{QF}_{\mathrm{ori}} - \frac{k}{n}}{1 - \frac{k}{n}} = \dfrac{|R| - k}{n - k} & km \ge n \\[6pt]
        \dfrac{\mathrm{QF}_{\mathrm{ori}} - \frac{k}{n}}{\frac{km}{n} - \frac{k}{n}} = \dfrac{|R| - k}{k(m-1)} & km < n
        \end{cases}

    (Paper 1, Resolving Limitations: QF_our).

    Parameters
    ----------
    <<top_k>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Range [0, 1], both ends achievable.

    See Also
    --------
    qualification_fairness : The original measure.

    Notes
    -----
    Undefined when the achievable range is empty: ``k == n_items``, or ``n_users == 1``
    (then ``km < n`` and the denominator :math:`k(m-1)` is 0), and without users.

    References
    ----------
    .. [1] <<thesis>>, section Resolving Limitations (QF_our).

    Examples
    --------
    >>> qualification_fairness_corrected([[0, 1], [1, 2], [0, 2]], n_items=5)   # (3 - 2) / (5 - 2)
    0.3333333333333333
    >>> qualification_fairness_corrected([[0, 1]], n_items=5, on_undefined="nan")  # m == 1
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _qf_our(top_k, n, on_undefined)


# --------------------------------------------------------------------------- entropy

@_fill_doc
@renamed_options("Ent_ori")
def item_entropy(top_k, *, n_items, k=None, log_base=None, on_undefined="warn") -> float:
    r"""Shannon entropy of the recommendation frequencies over **all** catalogue items.

    Higher is fairer.

    .. math::

        \mathrm{Ent}_{\mathrm{ori}} = -\sum_{i \in I} p(i) \log_b p(i), \qquad p(i) = \frac{c_i}{km}

    with log base :math:`b = n` by default, as in the thesis's experiments (Paper 1, Individual
    Item Fairness Measures: Ent_ori; chapter :ref:`entropy`).

    Parameters
    ----------
    <<top_k>>
    log_base : float, optional
        Log base :math:`b > 1`; default ``n_items``.
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range :math:`[0, \log_b n]` ([0, 1] in base ``n``). Achievable: from
        :math:`\log_b k` (a value only the defined entropy reaches, since the same k items
        for everyone leave items unshown) to :func:`recfair.bounds.ent_most_fair`.

    See Also
    --------
    item_entropy_defined : The sum over recommended items only.
    item_entropy_corrected : The defined entropy rescaled to its achievable range.

    Notes
    -----
    Undefined as soon as one item is never recommended: :math:`p(i) = 0` meets
    :math:`\log 0` (limitation L3). This is the normal case, e.g. whenever ``km < n``; the
    thesis reports NaN for every model. Also undefined without users, and with the default
    log_base when ``n_items == 1`` (log base 1).

    References
    ----------
    .. [1] C. E. Shannon (1948). A mathematical theory of communication. Bell Syst. Tech. J.
    .. [2] G. K. Patro, A. Biswas, N. Ganguly, K. P. Gummadi, A. Chakraborty (2020).
           FairRec: two-sided fairness for personalized recommendations in two-sided
           platforms. WWW.
    .. [3] <<thesis>>, section Individual Item Fairness Measures (Ent_ori).

    Examples
    --------
    >>> item_entropy([[0, 1], [1, 2], [0, 2]], n_items=3)   # every item twice: log_3 3
    1.0
    >>> item_entropy([[0, 1], [0, 1]], n_items=3, on_undefined="nan")   # item 2 unshown
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _ent_ori(top_k, n, on_undefined, log_base=log_base)


@_fill_doc
@renamed_options("Ent_def")
def item_entropy_defined(top_k, *, n_items, k=None, log_base=None, on_undefined="warn") -> float:
    r"""Entropy of the recommendation frequencies summed over the recommended items only.

    Higher is fairer. It fixes the original's undefinedness and equals it whenever every
    item is recommended (with :math:`0 \log 0 = 0`).

    .. math::

        \mathrm{Ent}_{\mathrm{def}} = -\sum_{i \in R} p(i) \log_b p(i), \qquad p(i) = \frac{c_i}{km}

    (Paper 1, Resolving Limitations: Ent_def).

    Parameters
    ----------
    <<top_k>>
    log_base : float, optional
        Log base :math:`b > 1`; default ``n_items``.
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range :math:`[0, \log_b n]`. Achievable: from :math:`\log_b k` to
        :func:`recfair.bounds.ent_most_fair`.

    See Also
    --------
    item_entropy, item_entropy_corrected

    Notes
    -----
    Undefined without users and, with the default log_base, when ``n_items == 1``.

    References
    ----------
    .. [1] <<thesis>>, section Resolving Limitations (Ent_def).

    Examples
    --------
    >>> round(item_entropy_defined([[0, 1], [0, 1]], n_items=3), 6)   # log_3 2
    0.63093
    >>> item_entropy_defined(np.empty((0, 2), dtype=int), n_items=3, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _ent_def(top_k, n, on_undefined, log_base=log_base)


@_fill_doc
@renamed_options("Ent_our")
def item_entropy_corrected(top_k, *, n_items, k=None, log_base=None, on_undefined="warn") -> float:
    r"""The defined entropy rescaled: the same ``k`` items for everyone score 0, balanced counts 1.

    Higher is fairer.

    .. math::

        \mathrm{Ent}_{\mathrm{our}} =
        \begin{cases}
        \dfrac{\mathrm{Ent}_{\mathrm{def}} - \log k}{\mathrm{Ent}_{\max} - \log k} & km \ge n \\[6pt]
        \dfrac{\mathrm{Ent}_{\mathrm{def}} - \log k}{\log km - \log k} & km < n
        \end{cases}

    with :math:`\mathrm{Ent}_{\max}` the entropy of the balanced counts (Paper 1, Resolving
    Limitations: Ent_max, Ent_our).

    Parameters
    ----------
    <<top_k>>
    log_base : float, optional
        Accepted for symmetry with :func:`item_entropy` and validated; the corrected entropy
        does not depend on the log base (every term scales by :math:`1/\ln b`).
    <<on_undefined>>

    Returns
    -------
    score : float
        Range [0, 1], both ends achievable.

    See Also
    --------
    item_entropy_defined : The entropy being rescaled.

    Notes
    -----
    Undefined when the achievable range is empty: ``k == n_items``, or ``n_users == 1``
    (then :math:`\log m = 0`), and without users.

    References
    ----------
    .. [1] <<thesis>>, section Resolving Limitations (Ent_our).

    Examples
    --------
    >>> item_entropy_corrected([[0, 1], [0, 1]], n_items=3)   # thesis's log 0 example
    0.0
    >>> item_entropy_corrected([[0, 1], [1, 2], [0, 2]], n_items=3, on_undefined="nan")   # k < n fine
    1.0
    >>> item_entropy_corrected([[0, 1]], n_items=3, on_undefined="nan")   # m == 1
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _ent_our(top_k, n, on_undefined, log_base=log_base)


# --------------------------------------------------------------------------- Gini

@_fill_doc
def gini_index(top_k, *, n_items, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Gini index of the item exposure counts, over all ``n`` items (unshown ones count as 0).

    Lower is fairer.

    .. math::

        \mathrm{Gini}_{\mathrm{ori}} = \frac{\sum_{j=1}^{n} (2j - n - 1)\, Ex_j}{n \sum_{j=1}^{n} Ex_j},
        \qquad Ex_j = \sum_{u \in U} \sum_{w=1}^{W} \mathbb{1}_{R^k_{u,w}}(x_j)

    where :math:`x_j` is the item with the :math:`j`-th smallest exposure (uniform
    examination; Paper 1, Individual Item Fairness Measures: Gini_ori; chapter :ref:`gini`).

    Parameters
    ----------
    <<top_k>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1). Achievable: from :func:`recfair.bounds.gini_most_fair`
        (0 iff ``n`` divides ``kmW``) to ``1 - k/n``.

    See Also
    --------
    gini_index_corrected, gini_index_weighted

    Notes
    -----
    Undefined (0/0) without users. Ties between items do not matter. With ``W`` rounds the
    exposures add up over rounds, so a round acts like ``m`` more users.

    References
    ----------
    .. [1] C. Gini (1912). Variabilità e mutabilità.
    .. [2] M. Mansoury, H. Abdollahpouri, M. Pechenizkiy, B. Mobasher, R. Burke (2020).
           FairMatch. UMAP.
    .. [3] <<thesis>>, section Individual Item Fairness Measures (Gini_ori).

    Examples
    --------
    >>> gini_index([[0, 1], [1, 2], [0, 2]], n_items=3)
    0.0
    >>> round(gini_index([[0, 1], [0, 1]], n_items=4), 6)   # 1 - k/n
    0.5
    >>> gini_index(np.empty((0, 2), dtype=int), n_items=4, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _gini_ori(top_k, n, on_undefined, rounds=check_rounds(rounds, top_k, n))


@_fill_doc
def gini_index_corrected(top_k, *, n_items, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Gini index rescaled: balanced counts score 0, the same ``k`` items for everyone 1.

    Lower is fairer.

    .. math::

        \mathrm{Gini}_{\mathrm{our}} = \frac{\mathrm{Gini}_{\mathrm{ori}} - \mathrm{Gini}_{\min}}
        {1 - \frac{k}{n} - \mathrm{Gini}_{\min}}, \qquad
        \mathrm{Gini}_{\min} = \frac{(n - r)\, r}{kmn}

    with :math:`km = nf + r` (Paper 1, Resolving Limitations: Gini_min, Gini_our).

    Parameters
    ----------
    <<top_k>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Range [0, 1], both ends achievable.

    See Also
    --------
    gini_index : The original index.

    Notes
    -----
    Undefined when the achievable range is empty: ``k == n_items`` or ``n_users * W == 1``,
    and without users. With ``W`` rounds the bounds are those of ``m * W`` users (the
    thesis defines the correction for one round).

    References
    ----------
    .. [1] <<thesis>>, section Resolving Limitations (Gini_our).

    Examples
    --------
    >>> gini_index_corrected([[0, 1], [0, 1]], n_items=4)
    1.0
    >>> gini_index_corrected([[0, 1], [2, 3]], n_items=4)
    0.0
    >>> gini_index_corrected([[0, 1]], n_items=4, on_undefined="nan")   # m == 1
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _gini_our(top_k, n, on_undefined, rounds=check_rounds(rounds, top_k, n))


@_fill_doc
def gini_index_weighted(top_k, *, n_items, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Gini index of DCG-weighted item exposure (an item at rank :math:`\ell` gets :math:`1/\log_2(\ell+1)`).

    Lower is fairer.

    .. math::

        \mathrm{Gini\text{-}w}_{\mathrm{ori}} = \frac{\sum_{j=1}^{n} (2j - n - 1)\, Ex_j}{n \sum_{j=1}^{n} Ex_j},
        \qquad Ex_j = \sum_{u \in U} \sum_{w=1}^{W} \mathbb{1}_{R^k_{u,w}}(x_j)\,
        \frac{1}{\log_2\bigl(z(u, x_j, w) + 1\bigr)}

    with :math:`x_j` the item of :math:`j`-th smallest exposure and :math:`z` the 1-based
    rank (Paper 1, Individual Item Fairness Measures: Gini_ori with DCG examination; chapter :ref:`gini`).

    Parameters
    ----------
    <<top_k>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1). Achievable: up to :func:`recfair.bounds.gini_w_most_unfair`
        (the same ranked list for everyone); down to
        :func:`recfair.bounds.gini_w_most_fair` when ``km <= n``, which is positive even at
        ``km = n``. For ``km > n`` the fairest value has no closed form (C4).

    See Also
    --------
    gini_index_weighted_corrected, gini_index

    Notes
    -----
    Undefined (0/0) without users. The thesis's experiments use one round; rounds add up.

    References
    ----------
    .. [1] V. Do, S. Corbett-Davies, J. Atif, N. Usunier (2021). Two-sided fairness in
           rankings via Lorenz dominance. NeurIPS.
    .. [2] V. Do, N. Usunier (2022). Optimizing generalized Gini indices for fairness in
           rankings. SIGIR.
    .. [3] <<thesis>>, section Individual Item Fairness Measures (Gini_ori).

    Examples
    --------
    >>> round(gini_index_weighted([[0, 1, 2], [0, 1, 2]], n_items=3), 7)   # thesis C4 maximum
    0.1564262
    >>> round(gini_index_weighted([[0, 1, 2], [2, 1, 0]], n_items=3), 7)   # and its minimum
    0.0372514
    >>> gini_index_weighted(np.empty((0, 3), dtype=int), n_items=3, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _giniw_ori(top_k, n, on_undefined, rounds=check_rounds(rounds, top_k, n))


@_fill_doc
def gini_index_weighted_corrected(top_k, *, n_items, k=None, rounds=None, on_undefined="warn") -> float:
    r"""DCG-weighted Gini rescaled to the thesis's achievable range (exact only when ``km <= n``).

    Lower is fairer.

    .. math::

        \mathrm{Gini\text{-}w}_{\mathrm{our}} =
        \begin{cases}
        \dfrac{\mathrm{Gini\text{-}w}_{\mathrm{ori}} - \mathrm{Gini\text{-}w}_{\min}}
              {\mathrm{Gini\text{-}w}_{\max} - \mathrm{Gini\text{-}w}_{\min}} & km \le n \\[6pt]
        \dfrac{\mathrm{Gini\text{-}w}_{\mathrm{ori}}}{\mathrm{Gini\text{-}w}_{\max}} & km > n
        \end{cases}

    with :math:`\mathrm{Gini\text{-}w}_{\max} = 1 - C_k/n` and
    :math:`\mathrm{Gini\text{-}w}_{\min} = 1 - mC_k/n`,
    :math:`C_k = \sum_\ell (2\ell-1) w_\ell / \sum_\ell w_\ell` (Paper 1, Resolving Limitations:
    Gini-w_max, Gini-w_min, Gini-w_our).

    Parameters
    ----------
    <<top_k>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Range [0, 1]. 1 is achieved (the same ranked list for everyone). 0 is achieved when
        ``km <= n`` (all slots distinct items); when ``km > n`` the thesis rescales with 0 in
        place of the unknown fairest value, so the fairest lists score above 0 (C4).

    See Also
    --------
    gini_index_weighted : The original index.

    Notes
    -----
    Undefined when the achievable range is empty: ``n_users * W == 1`` or ``n_items == 1``,
    and without users. Unlike the other corrections, ``k == n_items`` with ``m >= 2`` stays
    defined: then ``km > n`` and the denominator :math:`\mathrm{Gini\text{-}w}_{\max}` is
    positive. With ``W`` rounds the bounds are those of ``m * W`` users.

    References
    ----------
    .. [1] <<thesis>>, section Resolving Limitations (Gini-w_our).

    Examples
    --------
    >>> gini_index_weighted_corrected([[0, 1], [0, 1]], n_items=4)
    1.0
    >>> gini_index_weighted_corrected([[0, 1], [2, 3]], n_items=4)     # km = n: all distinct
    0.0
    >>> round(gini_index_weighted_corrected([[0, 1, 2], [2, 1, 0]], n_items=3), 6)   # km > n: > 0
    0.23814
    >>> gini_index_weighted_corrected([[0, 1]], n_items=4, on_undefined="nan")   # m == 1
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _giniw_our(top_k, n, on_undefined, rounds=check_rounds(rounds, top_k, n))


# --------------------------------------------------------------------------- FSat

@_fill_doc
def fraction_satisfied(top_k, *, n_items, k=None, on_undefined="warn") -> float:
    r"""Fraction of items that get at least their maximin share :math:`\lfloor km/n \rfloor` of slots.

    Higher is fairer.

    .. math::

        \mathrm{FSat}_{\mathrm{ori}} = \frac{1}{n} \sum_{i \in I}
        \delta\Bigl(c_i \ge \Bigl\lfloor \frac{km}{n} \Bigr\rfloor\Bigr)

    (Paper 1, Individual Item Fairness Measures: FSat_ori; chapter :ref:`fsat`).

    Parameters
    ----------
    <<top_k>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range (0, 1]. The thesis's achievable range is ``k/n`` to 1, but its
        true minimum is :func:`recfair.bounds.fsat_true_minimum`, which can be below ``k/n``.

    See Also
    --------
    fraction_satisfied_corrected

    Notes
    -----
    Always 1 when ``km < n`` (the maximin share is 0: limitation L4, always-fair); never use
    FSat then. Undefined without users.

    References
    ----------
    .. [1] G. K. Patro, A. Biswas, N. Ganguly, K. P. Gummadi, A. Chakraborty (2020).
           FairRec. WWW.
    .. [2] <<thesis>>, section Individual Item Fairness Measures (FSat_ori).

    Examples
    --------
    >>> fraction_satisfied([[0, 1]] * 6, n_items=3)                # thesis's most unfair: k/n
    0.6666666666666666
    >>> fraction_satisfied([[0, 1]] * 3 + [[0, 2]] * 3, n_items=3)   # counts (6, 3, 3): lower
    0.3333333333333333
    >>> fraction_satisfied([[0]], n_items=3)                        # km < n: always fair
    1.0
    >>> fraction_satisfied(np.empty((0, 2), dtype=int), n_items=3, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _fsat_ori(top_k, n, on_undefined)


@_fill_doc
def fraction_satisfied_corrected(top_k, *, n_items, k=None, on_undefined="warn") -> float:
    r"""FSat rescaled with the thesis's most unfair value ``k/n``: can be **negative**.

    Higher is fairer. Range: :math:`(-\infty, 1]` (negative below the thesis's most unfair value).

    .. math::

        \mathrm{FSat}_{\mathrm{our}} = \frac{\mathrm{FSat}_{\mathrm{ori}} - \frac{k}{n}}{1 - \frac{k}{n}}

    (Paper 1, Resolving Limitations: FSat_our).

    Parameters
    ----------
    <<top_k>>
    <<on_undefined>>

    Returns
    -------
    score : float
        At most 1 (balanced counts). 0 when everyone gets the same k items and ``km >= n``.
        Its true minimum is :math:`(s_{\min} - k)/(n - k)` with :math:`s_{\min}` from
        :func:`recfair.bounds.fsat_true_minimum`, which is negative whenever
        :math:`s_{\min} < k`; it has no fixed lower end (as low as ``2 - n``). The value is
        never clipped.

    See Also
    --------
    fraction_satisfied : The original measure.
    recfair.bounds.fsat_true_minimum : The true minimum of the original.

    Notes
    -----
    Undefined when ``k == n_items`` (0/0) and without users. Always 1 when ``km < n``
    (always-fair).

    References
    ----------
    .. [1] <<thesis>>, section Resolving Limitations (FSat_our).

    Examples
    --------
    >>> fraction_satisfied_corrected([[0, 1]] * 6, n_items=3)
    0.0
    >>> fraction_satisfied_corrected([[0, 1]] * 3 + [[0, 2]] * 3, n_items=3)   # below "most unfair"
    -1.0
    >>> fraction_satisfied_corrected([[0, 1]], n_items=2, on_undefined="nan")   # k == n
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _fsat_our(top_k, n, on_undefined)


# --------------------------------------------------------------------------- VoCD

@_fill_doc
def vocd(top_k, *, n_items, k=None, alpha=2.0, beta=0.0, item_features=None, on_undefined="warn") -> float:
    r"""Violation of coverage disparity: mean excess count gap over pairs of similar recommended items.

    Lower is fairer.

    .. math::

        \mathrm{VoCD} = \frac{1}{|A|} \sum_{(i, i') \in A} \max\bigl(CD(i, i') - \beta, 0\bigr),
        \qquad CD(i, i') = \frac{|c_i - c_{i'}|}{\max(c_i, c_{i'})}

    where :math:`A` holds the unordered pairs of distinct recommended items whose cosine
    distance :math:`1 - \cos(v_i, v_{i'})` is at most :math:`\alpha` (Paper 1, Individual Item
    Fairness Measures: VoCD; chapter :ref:`vocd`).

    Parameters
    ----------
    <<top_k>>
    alpha : float, default=2.0
        Similarity threshold in [0, 2]. At 2 (the thesis's setting) every pair of recommended
        items is similar and ``item_features`` is not needed.
    beta : float, default=0.0
        Tolerated normalised gap in [0, 1).
    item_features : array-like of float, shape (n_items, d), optional
        Item representations; required when ``alpha < 2``.
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range :math:`[0, 1 - \beta)`. 0 is achievable (e.g. the same k >= 2
        items for everyone); :func:`recfair.bounds.vocd_upper_bound`,
        :math:`\frac{m-1}{m} - \beta`, is only an upper bound (C4).

    Notes
    -----
    Undefined when :math:`A` is empty: fewer than two recommended items, or no
    :math:`\alpha`-similar pair; and without users. Unrecommended items never enter, so
    VoCD cannot see items the recommender ignores. With ``alpha = 2`` the sum over pairs is
    computed from the sorted counts in :math:`O(|R| \log |R|)`; with features it is a
    blocked pairwise computation over recommended items (distances within 1e-12 of
    ``alpha`` count as similar).

    References
    ----------
    .. [1] X. Wang, W. H. Wang (2022). Providing item-side individual fairness for deep
           recommender systems. FAccT.
    .. [2] <<thesis>>, section Individual Item Fairness Measures (VoCD).

    Examples
    --------
    >>> vocd([[0, 1], [0, 2], [0, 2]], n_items=3)    # pairs (3,1), (3,2), (1,2): (2/3 + 1/3 + 1/2) / 3
    0.5
    >>> vocd([[0, 1], [0, 1]], n_items=3)            # same items for everyone: "perfectly fair"
    0.0
    >>> vocd([[0], [0]], n_items=3, on_undefined="nan")   # one recommended item: |A| = 0
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _vocd(top_k, n, on_undefined, alpha=alpha, beta=beta, item_features=check_item_features(item_features, n))


# --------------------------------------------------------------------------- II-D, AI-D

@_fill_doc
def ii_disparity(top_k, *, n_items, k=None, gamma=0.8, rounds=None, on_undefined="warn") -> float:
    r"""Individual-user-to-individual-item disparity: mean squared gap to uniformly random RBP exposure.

    Lower is fairer.

    .. math::

        \mathrm{II\text{-}D} = \frac{1}{mn} \sum_{u \in U} \sum_{i \in I}
        \bigl(E_{u,i} - \tilde E\bigr)^2, \qquad
        E_{u,i} = \frac{1}{W} \sum_{w=1}^{W} \mathbb{1}_{R^k_{u,w}}(i)\, \gamma^{z(u,i,w) - 1},
        \qquad \tilde E = \frac{1 - \gamma^k}{n(1 - \gamma)}

    (Paper 1, Individual Item Fairness Measures: II-D and its exposure; chapter :ref:`iid-aid`).

    Parameters
    ----------
    <<top_k>>
    gamma : float, default=0.8
        RBP patience in (0, 1).
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1). With one round it is the constant
        :func:`recfair.bounds.iid_single_round` for every recommendation; that constant is
        also the maximum for any number of rounds.

    See Also
    --------
    ai_disparity

    Notes
    -----
    Undefined without users. Since :math:`\sum_i E_{u,i} = n\tilde E`, the sum expands to
    :math:`\tilde E^2 + \frac{1}{mn}\sum E_{u,i}(E_{u,i} - 2\tilde E)` over the non-zero
    :math:`E_{u,i}` only; no ``m x n`` matrix is built. Never use it for single-round
    evaluation, where it is constant.

    References
    ----------
    .. [1] F. Diaz, B. Mitra, M. D. Ekstrand, A. J. Biega, B. Carterette (2020). Evaluating
           stochastic rankings with expected exposure. CIKM.
    .. [2] H. Wu, B. Mitra, C. Ma, F. Diaz, X. Liu (2022). Joint multisided exposure
           fairness for recommendation. SIGIR.
    .. [3] <<thesis>>, section Individual Item Fairness Measures (II-D).

    Examples
    --------
    >>> round(ii_disparity([[0], [1]], n_items=3), 6)   # 2/9, whatever the lists
    0.222222
    >>> round(ii_disparity([[0], [0]], n_items=5, rounds=[[[0], [0]], [[1], [2]]]), 6)
    0.06
    >>> ii_disparity(np.empty((0, 1), dtype=int), n_items=3, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _iid(top_k, n, on_undefined, gamma=gamma, rounds=check_rounds(rounds, top_k, n))


@_fill_doc
def ai_disparity(top_k, *, n_items, k=None, gamma=0.8, rounds=None, on_undefined="warn") -> float:
    r"""All-users-to-individual-item disparity: squared gap of each item's mean exposure to random exposure.

    Lower is fairer.

    .. math::

        \mathrm{AI\text{-}D} = \frac{1}{n} \sum_{i \in I}
        \Bigl(\frac{1}{m} \sum_{u \in U} E_{u,i} - \tilde E\Bigr)^2

    with :math:`E_{u,i}` and :math:`\tilde E` as in :func:`ii_disparity` (Paper 1, Individual Item
    Fairness Measures: AI-D).

    Parameters
    ----------
    <<top_k>>
    gamma : float, default=0.8
        RBP patience in (0, 1).
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1). At most :func:`recfair.bounds.iid_single_round` (reached
        when everyone always gets the same ranked list); 0 is a lower bound that is
        reached only in special cases (C2-C4).

    See Also
    --------
    ii_disparity

    Notes
    -----
    Undefined without users. Computed from the per-item mean exposure (one
    ``np.bincount``). Its values are minuscule on real data (1e-8 to 1e-3).

    References
    ----------
    .. [1] H. Wu, B. Mitra, C. Ma, F. Diaz, X. Liu (2022). Joint multisided exposure
           fairness for recommendation. SIGIR.
    .. [2] <<thesis>>, section Individual Item Fairness Measures (AI-D).

    Examples
    --------
    >>> round(ai_disparity([[0], [1]], n_items=3), 6)   # 1/18
    0.055556
    >>> round(ai_disparity([[0], [0]], n_items=3), 6)   # the II-D constant 2/9
    0.222222
    >>> ai_disparity(np.empty((0, 1), dtype=int), n_items=3, on_undefined="nan")
    nan
    """
    top_k, n = _prepare(top_k, n_items, k, on_undefined)
    return _aid(top_k, n, on_undefined, gamma=gamma, rounds=check_rounds(rounds, top_k, n))


# --------------------------------------------------------------------------- registry hooks

def _run_rounds(run):
    return run.rounds                 # a Run validated its rounds (recfair._validation.check_rounds)


def _compute(key: str, run, *, on_undefined: str = "warn", **options) -> float:
    """Compute the measure ``key`` on a validated :class:`~recfair.run.Run` (private: its record's ``compute``;
    the public way is :func:`recfair.evaluate`)."""
    check_on_undefined(on_undefined)
    top_k, n = run.top_k, run.n_items
    if key in ("Gini_ori", "Gini_our", "Gini-w_ori", "Gini-w_our", "II-D", "AI-D"):
        options = {**options, "rounds": _run_rounds(run)}
    if key == "VoCD":
        options = {**options, "item_features": run.item_features}
    return _KERNELS[key](top_k, n, on_undefined, **options)


def from_rank_counts(key: str, rank_counts: RankCounts, *, n_items: int, on_undefined: str = "warn",
                     **options) -> float:
    """Part I measure ``key`` (single round) from the :class:`RankCounts` of a whole run.

    The same kernels as the measures, fed counts instead of lists: equal to the measure on
    the lists the counts were taken from (``rounds`` are not supported here).

    Examples
    --------
    >>> top_k = [[0, 1], [1, 2], [0, 2]]
    >>> a, b = RankCounts.of(top_k[:1], n_items=4), RankCounts.of(top_k[1:], n_items=4)
    >>> from_rank_counts("Gini-w_our", a + b, n_items=4) == gini_index_weighted_corrected(top_k, n_items=4)
    True
    """
    check_on_undefined(on_undefined)
    if key not in _KERNELS:
        raise ValueError(f"from_rank_counts computes the Part I measures {', '.join(_KERNELS)}; got {key!r}.")
    if "rounds" in options:
        raise ValueError("from_rank_counts is for a single round: the counts carry no rounds.")
    if rank_counts.table.shape[0] != int(n_items):
        raise ValueError(f"rank counts cover {rank_counts.table.shape[0]} items but n_items={n_items}.")
    return _KERNELS[key](rank_counts, int(n_items), on_undefined, **options)


_KERNELS = {
    "Jain_ori": _jain_ori, "Jain_our": _jain_our, "QF_ori": _qf_ori, "QF_our": _qf_our,
    "Ent_ori": _ent_ori, "Ent_our": _ent_our, "Gini_ori": _gini_ori, "Gini_our": _gini_our,
    "Gini-w_ori": _giniw_ori, "Gini-w_our": _giniw_our, "FSat_ori": _fsat_ori, "FSat_our": _fsat_our,
    "VoCD": _vocd, "II-D": _iid, "AI-D": _aid,
}
