"""Part I measures as functions of user-additive statistics, for fast resampling.

Every Part I measure of a single-round run depends on the users only through a **sum over
users** of a per-user vector: the item counts :math:`c_i = \\sum_u \\mathbb 1[i \\in R^k_u]`
(Jain, QF, Ent, Gini, FSat, VoCD), the DCG-weighted exposure (Gini-w), the RBP exposure (AI-D)
or one number per user (II-D). A resample of the users (a bootstrap, or a permutation that swaps
users' lists between two runs) is then a weight vector :math:`w` over users, and the measure of
the resample is ``finish(w @ rows)``: one sparse product for a whole batch of resamples instead
of recomputing the measure from lists. :func:`linear_form` gives ``rows`` and ``finish``, built
from the very kernels of :mod:`recfair.item_exposure.measures` (no formula is repeated here).

>>> import numpy as np
>>> from recfair.run import Run
>>> run = Run([[0, 1], [1, 2], [0, 2]], 4)
>>> form = linear_form("Gini_ori", run)
>>> form.finish(np.ones((1, 3)) @ form.rows).round(4).tolist()       # weight 1 per user: the run itself
[0.25]
"""

from __future__ import annotations

from typing import Callable, NamedTuple

import numpy as np
import scipy.sparse as sp

from ..examination import dcg as _dcg
from ..examination import rbp as _rbp
from . import bounds as _b
from . import measures as _ie

__all__ = ["LinearForm", "linear_form", "LINEAR"]

#: The measures :func:`linear_form` covers (default options, a single round).
LINEAR = _ie.COUNT_MEASURES + ("Gini-w_ori", "Gini-w_our", "VoCD", "II-D", "AI-D")


class LinearForm(NamedTuple):
    """``rows`` (m, d) per-user statistics and ``finish(totals (B, d)) -> values (B,)``.

    ``statistic`` names what ``rows`` holds (``"counts"``, ``"dcg"``, ``"rbp0.8"``, ``"iid0.8"``), so
    a caller can share one product among the measures that read the same statistic.
    ``rank_weights`` (k,), when given, says that ``rows`` is the incidence of the top-k lists with
    weight ``rank_weights[j]`` at rank ``j + 1``: the totals are then
    ``sum_j rank_weights[j] * C_j`` with ``C_j`` the weighted counts of the items at rank ``j + 1``,
    which one pass serves for every such statistic.

    >>> from recfair.run import Run
    >>> linear_form("Jain_ori", Run([[0, 1]], 3)).statistic
    'counts'
    """

    statistic: str
    rows: sp.csr_matrix
    finish: Callable
    rank_weights: np.ndarray | None = None


def _incidence(top_k: np.ndarray, n_items: int, weights: np.ndarray) -> sp.csr_matrix:
    m, k = top_k.shape
    data = np.tile(np.asarray(weights, dtype=np.float64), m)
    indptr = np.arange(0, m * k + 1, k)
    mat = sp.csr_matrix((data, top_k.ravel(), indptr), shape=(m, n_items))
    mat.sum_duplicates()
    return mat


# The measures reading one statistic share its summary: ``finish`` is called on the same totals
# array once per measure, so the last array's derived values are kept (keyed by identity).
_LAST: dict = {}


def _once(totals, what: str, make):
    recent = _LAST.setdefault(what, [])
    for array, value in recent:
        if array is totals:
            return value
    value = make()
    recent.insert(0, (totals, value))
    del recent[4:]
    return value


def _summary(counts, threshold) -> "_ie.CountSummary":
    c = np.asarray(counts, dtype=np.float64)
    n = c.shape[1]
    return _ie.CountSummary(sum_sq=np.einsum("bi,bi->b", c, c), sum_c_ln_c=_ie._c_ln_c(c).sum(axis=1),
                            n_shown=np.count_nonzero(c, axis=1),
                            rank_sum=_rank_sum(c),
                            n_satisfied=np.count_nonzero(c >= threshold, axis=1))


def _rank_sum(counts: np.ndarray) -> np.ndarray:
    """:math:`\\sum_j j\\,c_{(j)}` of each row of integer counts, without sorting: the items with
    count ``v`` hold the ranks after the ``N_{<v}`` smaller ones, ``h_v N_{<v} + h_v (h_v + 1) / 2``."""
    c = np.rint(counts).astype(np.int64)
    b, n = c.shape
    top = int(c.max()) + 1 if c.size else 1
    hist = np.bincount((c + top * np.arange(b)[:, None]).ravel(), minlength=b * top).reshape(b, top)
    below = np.cumsum(hist, axis=1) - hist
    v = np.arange(top, dtype=np.float64)
    return (v * (hist * below + hist * (hist + 1) / 2.0)).sum(axis=1)


def _vocd_zero_beta(counts: np.ndarray) -> np.ndarray:
    """VoCD (all shown items similar, beta = 0) of each row of integer counts, from their histogram.

    The identity of :func:`recfair.item_exposure.measures._vocd_sorted` with beta = 0, grouped by
    count value: the ``h_w`` items with count ``w`` each add ``N_{<w} - S_{<w} / w`` (``N``, ``S``: how
    many shown items have a smaller count, and their sum); there are ``R (R - 1) / 2`` pairs.
    """
    c = np.rint(counts).astype(np.int64)
    b = c.shape[0]
    top = int(c.max()) + 1 if c.size else 1
    hist = np.bincount((c + top * np.arange(b)[:, None]).ravel(), minlength=b * top).reshape(b, top)
    hist[:, 0] = 0                                               # never-shown items are not in A
    v = np.arange(top, dtype=np.float64)
    n_below = np.cumsum(hist, axis=1) - hist
    s_below = np.cumsum(hist * v, axis=1) - hist * v
    with np.errstate(invalid="ignore", divide="ignore"):
        per_value = np.where(hist > 0, hist * (n_below - s_below / np.maximum(v, 1.0)), 0.0)
        shown = hist.sum(axis=1)
        pairs = shown * (shown - 1) / 2.0
        return np.where(pairs > 0, per_value.sum(axis=1) / np.where(pairs > 0, pairs, 1.0), np.nan)


def linear_form(key: str, run, **options) -> LinearForm | None:
    """The user-additive form of Part I measure ``key`` on ``run``, or None where there is none.

    None for measures outside :data:`LINEAR`, multi-round runs, entropy with a non-default
    ``log_base``, and VoCD with item features (``alpha < 2``); callers then recompute the measure.

    >>> import numpy as np
    >>> from recfair.run import Run
    >>> form = linear_form("Jain_ori", Run([[0, 1], [1, 2]], 3))
    >>> form.finish(np.array([[1.0, 1.0]]) @ form.rows.toarray()).tolist()     # both users once
    [0.8888888888888888]
    >>> form.finish(np.array([[2.0, 0.0]]) @ form.rows.toarray()).tolist()     # the first user twice
    [0.6666666666666666]
    >>> linear_form("HD", Run([[0]], 2)) is None
    True
    """
    if key not in LINEAR or getattr(run, "rounds", None) is not None and run.rounds.shape[0] > 1:
        return None
    m, n, k = run.n_users, run.n_items, run.k
    if key in _ie.COUNT_MEASURES:
        if options.get("log_base") is not None:
            return None
        threshold = _ie.fsat_threshold(k * m, n)

        def finish(counts):
            summary = _once(counts, "summary", lambda: _summary(counts, threshold))
            return np.asarray(_ie.from_count_summary(key, summary, n_users=m, n_items=n, k=k, on_undefined="nan"),
                              dtype=np.float64) * np.ones(counts.shape[0])

        return LinearForm("counts", _incidence(run.top_k, n, np.ones(k)), finish, np.ones(k))
    if key == "VoCD":
        alpha, beta = _ie.check_alpha(options.get("alpha", 2.0)), _ie.check_beta(options.get("beta", 0.0))
        if alpha < 2.0:
            return None

        def finish(counts):
            if beta == 0.0:
                return _once(counts, "vocd0", lambda: _vocd_zero_beta(counts))
            out = np.full(counts.shape[0], np.nan)
            for b, row in enumerate(np.asarray(counts)):
                total, pairs = _ie._vocd_sorted(np.rint(row).astype(np.int64), beta)
                if pairs:
                    out[b] = total / pairs
            return out

        return LinearForm("counts", _incidence(run.top_k, n, np.ones(k)), finish, np.ones(k))
    if key in ("Gini-w_ori", "Gini-w_our"):
        weights = _dcg(np.arange(1, k + 1))
        empty = key == "Gini-w_our" and _b._empty_range_reason(key, m, n, k) is not None

        def finish(exposure):
            raw = _once(exposure, "gini", lambda: _ie._gini(np.asarray(exposure, dtype=np.float64)))
            if key == "Gini-w_ori":
                return raw
            if empty:
                return np.full(raw.shape, np.nan)
            return np.asarray(_ie._rescale(key, raw, m, n, k), dtype=np.float64)

        return LinearForm("dcg", _incidence(run.top_k, n, weights), finish, weights)
    gamma = _ie.check_gamma(options.get("gamma", 0.8))
    e_rand = _b.random_rbp_exposure(n, k, gamma=gamma)
    weights = _rbp(np.arange(1, k + 1), gamma=gamma)
    if key == "AI-D":
        def finish(exposure):
            return np.mean((np.asarray(exposure) / m - e_rand) ** 2, axis=1)

        return LinearForm(f"rbp{gamma!r}", _incidence(run.top_k, n, weights), finish, weights)
    # II-D: e_rand^2 + (1/(mn)) sum_u sum_{i in R_u} E_ui (E_ui - 2 e_rand), one number per user
    exposure = _incidence(run.top_k, n, weights)
    per_user = np.asarray(exposure.multiply(exposure).sum(axis=1)).ravel() - 2.0 * e_rand * exposure.sum(axis=1).A1

    def finish(cross):
        return e_rand ** 2 + np.asarray(cross)[:, 0] / (m * n)

    return LinearForm(f"iid{gamma!r}", sp.csr_matrix(per_user[:, None]), finish)
