r"""The formulas shared by the joint measures (:mod:`recfair.joint`) and their per-user bounds
(:mod:`recfair.joint.bounds`); each lives here once.

Everything is vectorised over users. Per-user item values are passed in CSR order: a flat
array ``values`` with row pointer ``indptr`` (user ``u`` owns ``values[indptr[u]:indptr[u+1]]``).
"""

from __future__ import annotations

import numpy as np

from .._validation import check_positive_int
from ..examination import weights

# --------------------------------------------------------------------------- exposures and targets


def iaa_attention(k: int, *, corrected: bool = True) -> np.ndarray:
    r"""IAA's linear attention of positions ``1..k``.

    ``corrected=True``: the thesis's corrected :math:`\tilde e = (k + 1 - p)/k` (weights
    ``1, (k-1)/k, ..., 1/k``); ``False``: the original :math:`(k - p)/(k - 1)`, zero at
    position ``k`` and undefined for ``k = 1``.

    >>> iaa_attention(2).tolist(), iaa_attention(3, corrected=False).tolist()
    ([1.0, 0.5], [1.0, 0.5, 0.0])
    """
    k = check_positive_int(k, "k")
    p = np.arange(1, k + 1, dtype=np.float64)
    if corrected:
        return (k + 1 - p) / k
    if k < 2:
        raise ValueError("the original IAA attention (k - p)/(k - 1) is undefined for k = 1.")
    return (k - p) / (k - 1)


def iif_targets(n_rel, examination: str = "rbp", **params) -> np.ndarray:
    r"""II-F's target exposure :math:`t_u` of each relevant item, per user (0 without relevant items).

    The mean examination weight of positions ``1..R`` (the ideal stochastic policy shuffles the
    ``R`` relevant items over the first ``R`` positions, not truncated at ``k``); for RBP,
    :math:`(1-\gamma^R)/(R(1-\gamma))`.

    >>> iif_targets([0, 1, 2], gamma=0.8).round(10).tolist()
    [0.0, 1.0, 0.9]
    """
    r = np.asarray(n_rel, dtype=np.int64)
    top = int(r.max()) if r.size else 0
    if top == 0:
        return np.zeros(r.shape)
    cum = np.concatenate([[0.0], np.cumsum(weights(examination, top, **params))])
    return np.where(r > 0, cum[r] / np.maximum(r, 1), 0.0)


# --------------------------------------------------------------------------- separable sums (IAA, II-F)

def abs_cost(x):
    return np.abs(x)


def square_cost(x):
    return x * x


def separable_raw(top_vals: np.ndarray, a: np.ndarray, total: np.ndarray, cost) -> np.ndarray:
    r"""Per-user :math:`\sum_{i\in I}\mathrm{cost}(x_i - v_i)`, with exposure :math:`x` = ``a`` in the
    top-k and 0 beyond.

    ``top_vals`` ``(m, k)``: the user's value :math:`v` of the item in each top-k slot (0 if
    irrelevant); ``total`` ``(m,)``: :math:`\sum_i \mathrm{cost}(-v_i)` over all items (what the
    user would score with nothing exposed). Items with :math:`v = 0` beyond the top-k add 0.
    """
    return (cost(a[None, :] - top_vals) - cost(-top_vals)).sum(axis=1) + total


def sort_rows(values: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    """Permutation sorting CSR-ordered ``values`` decreasingly within each row (stable: CSR order breaks ties)."""
    rows = np.repeat(np.arange(indptr.size - 1), np.diff(indptr))
    return np.lexsort((-values, rows))


def row_slots(values_desc: np.ndarray, indptr: np.ndarray, k: int, n: int, largest: bool) -> np.ndarray:
    """``(m, k)`` values that fill positions ``1..k`` when a user's ``n`` values (the stored ones,
    sorted descending per row, plus zeros for the rest) are laid out in decreasing order
    (``largest=True``) or increasing order (``largest=False``)."""
    m = indptr.size - 1
    n_rel = np.diff(indptr)
    j = np.arange(k)[None, :]
    if largest:
        ok = j < n_rel[:, None]
        idx = indptr[:-1, None] + j
    else:
        zeros = (n - n_rel)[:, None]                        # the unstored (zero) values come first
        ok = j >= zeros
        idx = indptr[1:, None] - 1 - (j - zeros)           # then the stored ones, smallest first
    out = np.zeros((m, k))
    if values_desc.size:
        out[ok] = values_desc[np.clip(idx, 0, values_desc.size - 1)][ok]
    return out


def matching_ends(values: np.ndarray, indptr: np.ndarray, n: int, a: np.ndarray, cost):
    r"""Exact smallest and largest :math:`\sum_i \mathrm{cost}(x_i - v_i)` over all rankings, per user.

    ``values`` are each user's non-zero :math:`v_i` (CSR order); exposure ``a`` (non-increasing)
    in the top-k, 0 beyond. For a convex ``cost`` the pair cost :math:`\mathrm{cost}(x - v)` is
    submodular, so the smallest sum matches exposures and values in the same order (largest
    values on top) and the largest sum in opposite orders (largest values at the bottom): the
    rearrangement argument behind thesis Ch. 4 Theorems 1, 2 and 5, here for any grades.
    """
    k = a.size
    order = sort_rows(values, indptr)
    desc = values[order]
    total = np.bincount(np.repeat(np.arange(indptr.size - 1), np.diff(indptr)), weights=cost(-desc),
                        minlength=indptr.size - 1)
    low = separable_raw(row_slots(desc, indptr, k, n, largest=True), a, total, cost)
    high = separable_raw(row_slots(desc, indptr, k, n, largest=False), a, total, cost)
    return low, high


# --------------------------------------------------------------------------- IFD÷ (identity D5)

def ifd_div_identity(values: np.ndarray, indptr: np.ndarray) -> np.ndarray:
    r"""Per-user :math:`\frac{1}{R^2}\sum_{a,b}\max(0, v_a - v_b) = \frac{1}{R^2}\sum_{j=1}^{R}(R-2j+1)\,v_{(j)}`.

    Over all ordered pairs of the user's ``R`` values, self-pairs included (:math:`|H_u| = R^2`),
    with :math:`v_{(1)} \ge \dots \ge v_{(R)}`; NaN for a user without values.

    >>> ifd_div_identity(np.array([1.0, 0.0, 0.5]), np.array([0, 2, 3])).tolist()
    [0.25, 0.0]
    """
    m = indptr.size - 1
    n_rel = np.diff(indptr)
    users = np.repeat(np.arange(m), n_rel)
    v = values[sort_rows(values, indptr)]
    j = np.arange(v.size) - indptr[users]                          # 0-based rank within the user
    total = np.bincount(users, weights=v * (n_rel[users] - 2 * j - 1), minlength=m)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(n_rel > 0, total / np.maximum(n_rel, 1) ** 2, np.nan)


def ifd_div_extreme(n: int, k: int, r: int, end: str, e: np.ndarray) -> tuple[float, np.ndarray]:
    r""":math:`R^2\,\mathrm{IFD}_\div(u)` at its fairest or most unfair ranking, and the 1-based positions
    of the ``r`` relevant items there (exact).

    ``e`` holds the (convex, non-increasing) exposure of positions ``1..k``; beyond ``k`` it is 0.
    With ``s`` relevant items in the top-k at :math:`p_1 < \dots < p_s`, the sum is
    :math:`\sum_{j\le s}(R - 2j + 1)\,e(p_j)`. For each feasible ``s``
    (:math:`\max(0, R-(n-k)) \le s \le \min(R, k)`): the maximum puts the items with a positive
    coefficient at positions ``1, 2, ...`` and the others at the end of the top-k; the minimum
    puts all ``s`` in one block at the end of the top-k (smallest sum and, by convexity, the
    smallest pairwise gaps). The best ``s`` wins; ties go to the smallest ``s``. Relevant items
    outside the top-k sit at the bottom of the full ranking.
    """
    best_val, best_pos = None, None
    for s in range(max(0, r - (n - k)), min(r, k) + 1):
        j = np.arange(1, s + 1)
        c = r - 2 * j + 1
        pos = k - s + j if end == "most_fair" else np.where(c > 0, j, k - s + j)
        val = float((c * e[pos - 1]).sum())
        if best_val is None or (val < best_val - 1e-15 if end == "most_fair" else val > best_val + 1e-15):
            best_val, best_pos = val, pos
    rest = np.arange(n - (r - best_pos.size) + 1, n + 1)
    return best_val, np.concatenate([best_pos, rest]).astype(np.int64)


# --------------------------------------------------------------------------- IFD× (identity D8)

def ifd_mul_closed_form(n: int, s1, s2):
    r""":math:`\frac{1}{n(n-1)}\sum_{i\ne i'}(J_i - J_{i'})^2 = \frac{2(nS_2 - S_1^2)}{n(n-1)}`,
    :math:`S_1 = \sum_i J_i`, :math:`S_2 = \sum_i J_i^2`.

    >>> float(ifd_mul_closed_form(10, 1.0, 1.0))    # one item with J = 1, nine with 0
    0.2
    """
    return 2.0 * (n * np.asarray(s2) - np.asarray(s1) ** 2) / (n * (n - 1))


def ifd_mul_extreme(n: int, k: int, r: int, end: str, e: np.ndarray) -> tuple[float, np.ndarray]:
    r"""Smallest or largest :math:`\mathrm{IFD}_\times(u)` over all rankings of ``r`` relevant items
    (binary relevance), and the top-k positions holding relevant items there (exact).

    The score depends only on the set ``S`` of top-k positions with a relevant item,
    :math:`\max(0, R-(n-k)) \le |S| \le \min(R, k)`. For a fixed size, changing one chosen
    weight :math:`x` to :math:`y` changes the score by a convex quadratic in :math:`y` that
    vanishes at :math:`y = x`, so the maximum is a prefix ``1..a`` plus a suffix ending at ``k``;
    the minimum is the block at the end of the top-k (smallest sum and smallest spread). Every
    size and split is evaluated; ties go to the smallest size, then the longest prefix.
    """
    c1 = np.concatenate([[0.0], np.cumsum(e)])
    c2 = np.concatenate([[0.0], np.cumsum(e ** 2)])
    best_val, best_pos = None, None
    for s in range(max(0, r - (n - k)), min(r, k) + 1):
        a = np.arange(s + 1) if end == "most_unfair" else np.zeros(1, dtype=np.int64)
        vals = ifd_mul_closed_form(n, c1[a] + c1[k] - c1[k - s + a], c2[a] + c2[k] - c2[k - s + a])
        pick = int(np.flatnonzero(vals >= vals.max() - 1e-15)[-1]) if end == "most_unfair" else 0
        val = float(vals[pick])
        if best_val is None or (val < best_val - 1e-15 if end == "most_fair" else val > best_val + 1e-15):
            best_val = val
            best_pos = np.concatenate([np.arange(1, a[pick] + 1), np.arange(k - s + a[pick] + 1, k + 1)])
    return best_val, best_pos.astype(np.int64)
