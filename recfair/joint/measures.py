r"""Relevance-aware ("joint") individual item fairness (thesis Ch. 3-4, Papers 2 and 3).

IAA, IFD (division and multiplication), HD, MME, IBO/IWO, II-F and AI-F: each scores how an
item's exposure in the top-k lists matches its relevance to the users.

Shared inputs: ``top_k``, an ``(m, k)`` int array whose row ``u`` is user ``u``'s ranked
list of distinct items in ``[0, n_items)``; ``n_items`` (:math:`n`), the size of the **whole
catalogue**; ``relevant``, each user's ground-truth relevant items (binary relevance
:math:`r_{u,i}`, :math:`R^*_u` and :math:`|R^*_u|`), or ``relevance``, graded
:math:`r_{u,i} \ge 0` as a users x items array (the relevant items are those with
:math:`r_{u,i} > 0`). Graded relevance is accepted where the measure's formula defines it
(``GRADED``; the registry's ``graded`` field); the corrected IFD versions, whose per-user ends
are derived for binary relevance, raise a ``ValueError`` on grades. :math:`\mathrm{IFD}_\div` (original) also
needs the full ranking of all :math:`n` items (``ranking=`` or ``scores=``, whose stable
descending sort is the ranking). MME, IBO/IWO, II-F and AI-F accept ``rounds``, a
``(W, m, k)`` array of the lists of ``W`` recommendation rounds (round 0 equals ``top_k``);
all other measures are single-round.

Original versions (``IAA_ori``, ``IFD_div_ori``, ``IFD_mul_ori``, ``IBO_ori``, ``IWO_ori``,
``II-F_ori``) follow Paper 2 with the conventions of its published numbers: binary relevance;
pairs :math:`(i, i)` included in :math:`H_u`; the full ranking, without top-k indicator, in
:math:`\mathrm{IFD}_\div`; :math:`1/m` averaging in MME and IBO/IWO; IBO/IWO as fractions in
[0, 1]. ``IBO_ori``/``IWO_ori`` are Saito and Joachims' ratio form over all :math:`n` items
(as restated in Paper 3); Paper 2's published IBO/IWO numbers use the form over the items
relevant to someone, i.e. ``IBO_our``/``IWO_our``. Corrected versions (``*_our``) follow Paper 3: each user's score is min-max rescaled
between the fairest and the most unfair ranking of that user's relevant items (computed
exactly, see each function), then averaged over users; corrected scores within 1e-12 of 0
or 1 are snapped to 0 or 1, never clipped.

Undefined values follow the one policy ``on_undefined`` in ``{"warn", "nan", "raise"}``.
Users whose :math:`n` items all share one relevance value (no relevant item, or every item
relevant) have an empty per-user range and are left out of the corrected means (thesis
Ch. 4, footnote on the normalisation); if no user is left, the measure is undefined.

The measures that average per-user scores (IAA, IFD, II-F: :data:`PER_USER`) also give
those scores, through :func:`recfair.evaluate_per_user` (NaN for a user who
is undefined or left out).

Nothing of size ``m * n`` is built except, for :math:`\mathrm{IFD}_\div` (original), the full
ranking, which is read in blocks of users.

>>> import recfair as rf
>>> top_k, rel = [[0, 1], [1, 0], [0, 1]], [[0, 2], [1, 4], [0, 1, 5]]
>>> round(rf.inequity_of_amortized_attention(top_k, n_items=6, relevant=rel), 6)
0.222222
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np
import scipy.sparse as sp

from .._docs import ON_UNDEFINED, ROUNDS, doc_filler
from .._validation import SNAP, check_on_undefined, check_seed, snap, undefined
from ..examination import check_gamma
from ..examination import dcg as _dcg
from ..examination import inverse as _inverse
from ..examination import rbp as _rbp
from . import _core as core
from ._legacy_sort import numpy_legacy_argsort
from ..run import Run, locate

__all__ = [
    "inequity_of_amortized_attention", "inequity_of_amortized_attention_corrected",
    "individual_fairness_disparity_div", "individual_fairness_disparity_div_corrected",
    "individual_fairness_disparity_mul", "individual_fairness_disparity_mul_corrected",
    "hellinger_distance", "mean_max_envy",
    "item_better_off", "item_worse_off", "item_better_off_corrected", "item_worse_off_corrected",
    "ii_fairness", "ii_fairness_corrected", "ai_fairness",
]

_NO_USERS = "there are no users (m = 0)"
_BLOCK = 1 << 23          # entries of a dense block of the full ranking / of an item block of Imp

_REF2 = ("T. V. Rampisela, T. Ruotsalo, M. Maistro, C. Lioma (2024). Can we trust recommender system\n"
         "           fairness evaluation? The role of fairness and relevance. SIGIR (thesis Ch. 3)")
_REF3 = ("T. V. Rampisela, M. Maistro, T. Ruotsalo, C. Lioma. Relevance-aware individual item fairness\n"
         "           measures in recommender systems: limitations and usage guidelines (thesis Ch. 4)")
_LISTS = """top_k : array-like of int, shape (n_users, >= k)
        Item indices in ``[0, n_items)``, distinct within a row; row ``u`` is user ``u``'s
        ranked list.
    n_items : int
        Size of the catalogue :math:`n` (all items of the dataset, recommended or not)."""
_CUTOFF = """
    k : int, optional
        Cut-off; defaults to the width of ``top_k``."""
_DOC = {
    "<<inputs>>": _LISTS + """
    relevant : sequence of sequences of int, or scipy.sparse matrix (n_users, n_items)
        Ground-truth relevant items of each user (binary relevance).
    relevance : array-like or scipy.sparse matrix of float (n_users, n_items), optional
        Graded ground truth :math:`r_{u,i} \\ge 0` instead of ``relevant`` (0 = not relevant).""" + _CUTOFF,
    "<<inputs_binary>>": _LISTS + """
    relevant : sequence of sequences of int, or scipy.sparse matrix (n_users, n_items)
        Ground-truth relevant items of each user (binary relevance only: the per-user bounds
        of this corrected measure assume :math:`r_{u,i} \\in \\{0, 1\\}`).""" + _CUTOFF,
    "<<rounds>>": ROUNDS,
    "<<on_undefined>>": ON_UNDEFINED,
    "<<ref2>>": _REF2,
    "<<ref3>>": _REF3,
}


_fill_doc = doc_filler(_DOC)


# --------------------------------------------------------------------------- shared kernels

def _lists(run) -> np.ndarray:
    """The ``(W, m, k)`` lists of every round (``W = 1`` without ``rounds``)."""
    return run.top_k[None] if run.rounds is None else run.rounds


def _exposure_matrix(lists: np.ndarray, weights: np.ndarray, n: int) -> sp.csr_matrix:
    r"""CSR ``(m, n)``: :math:`\frac1W\sum_w` of the weight of the slot holding item ``i`` for user ``u``."""
    n_rounds, m, k = lists.shape
    rows = np.broadcast_to(np.arange(m)[None, :, None], lists.shape).ravel()
    data = np.broadcast_to(weights[None, None, :], lists.shape).ravel() / n_rounds
    mat = sp.csr_matrix((data, (rows, lists.ravel())), shape=(m, n))   # duplicates (rounds) are summed
    mat.sum_duplicates()
    return mat


def _mean_users(name: str, values: np.ndarray, on_undefined: str, reason: str) -> float:
    """Mean over users; NaN users make the whole measure undefined."""
    bad = np.isnan(values)
    return mean_from_sum(name, float(values[~bad].sum()) if values.size else 0.0, n_users=values.size,
                         n_defined=int((~bad).sum()), corrected=False, reason=reason, on_undefined=on_undefined)


def _mean_defined(name: str, values: np.ndarray, on_undefined: str) -> float:
    """Mean over the users with a non-empty per-user range (corrected versions)."""
    keep = ~np.isnan(values)
    return mean_from_sum(name, float(values[keep].sum()) if values.size else 0.0, n_users=values.size,
                         n_defined=int(keep.sum()), corrected=True, on_undefined=on_undefined)


def mean_from_sum(name: str, total: float, *, n_users: int, n_defined: int, corrected: bool, on_undefined: str,
                  reason: str = "are undefined") -> float:
    """A per-user measure from the sum of its defined per-user values (what :class:`recfair.Accumulator` keeps).

    The original versions need every user defined (else undefined: ``n_users - n_defined`` users
    ``reason``); the corrected ones average over the ``n_defined`` users with a non-empty range.

    >>> mean_from_sum("iaa", 1.5, n_users=3, n_defined=3, corrected=False, on_undefined="raise")
    0.5
    """
    if n_users == 0:
        return undefined(name, _NO_USERS, on_undefined)
    if corrected:
        if n_defined == 0:
            return undefined(name, "no user has a non-empty range (every user has no relevant item "
                                   "or only relevant items)", on_undefined)
        return float(snap(total / n_defined))
    if n_defined < n_users:
        return undefined(name, f"{int(n_users - n_defined)} user(s) {reason}", on_undefined)
    return float(total / n_users)


def _rescale_users(raw, low, high):
    """Per-user min-max rescaling; users with an empty range (high == low) get NaN."""
    span = high - low
    ok = span > SNAP * np.maximum(1.0, np.abs(high))
    out = np.full(raw.shape, np.nan)
    out[ok] = (raw[ok] - low[ok]) / span[ok]
    return snap(out)


def _per_distinct(values: np.ndarray, func):
    """Apply ``func(v) -> tuple`` once per distinct value; returns arrays aligned with ``values``."""
    uniq, inverse = np.unique(values, return_inverse=True)
    table = np.array([func(int(v)) for v in uniq], dtype=np.float64).reshape(uniq.size, -1)
    return tuple(table[inverse, j] for j in range(table.shape[1]))


def _binary_only(run, name: str) -> None:
    if run.graded:
        raise ValueError(f"{name} is defined for binary relevance only (its per-user bounds assume r in {{0, 1}}); "
                         "this run has graded relevance.")


def _topk_values(run) -> np.ndarray:
    """CSR-ordered ``(nnz,)``: e_DCG of each relevant item's top-k slot, 0 beyond the top-k."""
    out = np.zeros(run.relevant.nnz)
    pos = locate(run.relevant, run.top_k)
    hit = pos >= 0
    out[pos[hit]] = np.broadcast_to(_dcg(np.arange(1, run.k + 1)), pos.shape)[hit]
    return out


# --------------------------------------------------------------------------- IAA

def _iaa_normalised(run):
    r"""Min-max normalised relevance :math:`\tilde r`: ``(values in CSR order, top-k slot values, per-user sum)``.

    Per user over all :math:`n` items: the minimum is 0 unless every item is relevant. A user
    whose items all share one value (no relevant item, or all equally relevant) keeps
    :math:`\tilde r = 1` on relevant items (binary :math:`\tilde r = r`), never 0/0.
    """
    rel = run.relevance_values
    n_rel = run.n_relevant
    if not run.graded:
        return np.ones(rel.nnz), run.hits.astype(np.float64), n_rel.astype(np.float64)
    users = np.repeat(np.arange(run.n_users), n_rel)
    hi = np.zeros(run.n_users)
    lo = np.zeros(run.n_users)
    np.maximum.at(hi, users, rel.data)
    full = n_rel == run.n_items
    if full.any():
        lo_full = np.full(run.n_users, np.inf)
        np.minimum.at(lo_full, users, rel.data)
        lo[full] = lo_full[full]
    span = np.where(hi > lo, hi - lo, np.where(hi > 0, hi, 1.0))
    base = np.where(hi > lo, lo, 0.0)
    values = (rel.data - base[users]) / span[users]
    g = run.top_grades
    top = np.where(g > 0, (g - base[:, None]) / span[:, None], 0.0)
    return values, top, np.bincount(users, weights=values, minlength=run.n_users)


def _iaa_ori_users(run):
    m, k = run.top_k.shape
    if k == 1:
        return np.full(m, np.nan), "k = 1: the normalised linear examination (k - z)/(k - 1) is 0/0"
    values, top, total = _iaa_normalised(run)
    return core.separable_raw(top, core.iaa_attention(k, corrected=False), total, core.abs_cost) / run.n_items, None


def _iaa_our_users(run, attention="corrected"):
    if attention not in ("corrected", "original"):
        raise ValueError(f"attention must be 'corrected' ((k+1-z)/k) or 'original' ((k-z)/(k-1)), got {attention!r}.")
    m, k = run.top_k.shape
    if attention == "original" and k == 1:
        return np.full(m, np.nan), "k = 1: the original linear examination (k - z)/(k - 1) is 0/0"
    a = core.iaa_attention(k, corrected=attention == "corrected")
    values, top, total = _iaa_normalised(run)
    raw = core.separable_raw(top, a, total, core.abs_cost)
    low, high = core.matching_ends(values, run.relevant.indptr, run.n_items, a, core.abs_cost)
    return _rescale_users(raw, low, high), None


# --------------------------------------------------------------------------- IFD

def _relevant_full_positions(run) -> np.ndarray:
    """1-based position in the full ranking of every relevant (u, i), in CSR order of ``relevant``.

    With scores, nothing is argsorted: a relevant item's position in the stable descending sort
    is 1 + #(higher scores) + #(equal scores at a lower index), read from each row's sorted scores.
    """
    rel, n = run.relevant, run.n_items
    out = np.empty(rel.nnz, dtype=np.int64)
    explicit = run._ranking if run._ranking is not None else run.__dict__.get("ranking")
    step = max(1, _BLOCK // n)
    for start in range(0, run.n_users, step):
        stop = min(run.n_users, start + step)
        lo, hi = rel.indptr[start], rel.indptr[stop]
        if lo == hi:
            continue
        rows = np.repeat(np.arange(stop - start), np.diff(rel.indptr[start:stop + 1]))
        if explicit is not None:
            # read the relevance of every ranked slot; the hits come out in rank order per row
            mask = np.zeros((stop - start, n), dtype=bool)
            mask[rows, rel.indices[lo:hi]] = True
            hit_rows, hit_pos = np.nonzero(np.take_along_axis(mask, explicit[start:stop], axis=1))
            items = explicit[start:stop][hit_rows, hit_pos]
            out[lo:hi] = hit_pos[np.lexsort((items, hit_rows))] + 1          # back to CSR (item) order
            continue
        vals = run.scores[start:stop]
        srt = np.sort(vals, axis=1)
        for r in range(stop - start):
            a, b = rel.indptr[start + r], rel.indptr[start + r + 1]
            if a == b:
                continue
            items = rel.indices[a:b]
            x = vals[r, items]
            right = np.searchsorted(srt[r], x, side="right")
            pos = n - right + 1
            tied = np.flatnonzero(right - np.searchsorted(srt[r], x, side="left") > 1)
            for t in tied:                                         # ties go to the lower index first
                pos[t] += np.count_nonzero(vals[r, :items[t]] == x[t])
            out[a:b] = pos
    return out


def _ifd_div_ori_users(run, exposure="full"):
    if exposure not in ("full", "top-k"):
        raise ValueError(f"exposure must be 'full' (Paper 2) or 'top-k' (J_our), got {exposure!r}.")
    rel = run.relevance_values
    if exposure == "top-k":
        values = _topk_values(run)
    else:
        values = _dcg(_relevant_full_positions(run)) if rel.nnz else np.zeros(0)
    return core.ifd_div_identity(values / rel.data, rel.indptr), None


def _ifd_div_ends(n: int, k: int, r: int) -> tuple[float, float]:
    """Exact fairest / most unfair IFD÷ with top-k exposure for a user with r relevant items."""
    e = _dcg(np.arange(1, k + 1))
    return (core.ifd_div_extreme(n, k, r, "most_fair", e)[0] / r ** 2,
            core.ifd_div_extreme(n, k, r, "most_unfair", e)[0] / r ** 2)


def _ifd_div_our_users(run):
    n, k = run.n_items, run.k
    raw = core.ifd_div_identity(_topk_values(run), run.relevant.indptr)
    low, high = _per_distinct(run.n_relevant, lambda r: _ifd_div_ends(n, k, r) if r > 0 else (0.0, 0.0))
    per_user = _rescale_users(np.nan_to_num(raw), low, high)
    per_user[run.n_relevant == 1] = 0.0                             # thesis: |R_u| = 1 scores 0 (always fair)
    return per_user, None


def _ifd_mul_raw(run) -> np.ndarray:
    j = run.top_grades * _dcg(np.arange(1, run.k + 1))
    return core.ifd_mul_closed_form(run.n_items, j.sum(axis=1), (j ** 2).sum(axis=1))


def _ifd_mul_ends(n: int, k: int, r: int) -> tuple[float, float]:
    """Exact fairest / most unfair IFD× for a user with r relevant items (binary relevance)."""
    e = _dcg(np.arange(1, k + 1))
    return core.ifd_mul_extreme(n, k, r, "most_fair", e)[0], core.ifd_mul_extreme(n, k, r, "most_unfair", e)[0]


def _ifd_mul_ori_users(run):
    if run.n_items < 2:
        return np.full(run.n_users, np.nan), "n < 2: there is no item pair"
    return _ifd_mul_raw(run), None


def _ifd_mul_our_users(run):
    n, k = run.n_items, run.k
    if n < 2:
        return np.full(run.n_users, np.nan), "n < 2: there is no item pair"
    low, high = _per_distinct(run.n_relevant, lambda r: _ifd_mul_ends(n, k, r))
    return _rescale_users(_ifd_mul_raw(run), low, high), None


# --------------------------------------------------------------------------- HD

_TIE_BREAKS = ("stable", "random", "numpy_legacy")
_LEGACY_REFERENCES: OrderedDict = OrderedDict()


def _reference_lists(run, k: int, tie_break: str, seed) -> np.ndarray:
    """``(m, k)`` items of each user's reference list: items by decreasing relevance (-1 = empty slot)."""
    rel = run.relevance_values
    m, n = run.n_users, run.n_items
    if tie_break == "numpy_legacy":
        key = (n, k, hashlib.sha1(b"".join(np.ascontiguousarray(a).tobytes()
                                           for a in (rel.indptr, rel.indices, rel.data))).hexdigest())
        if key not in _LEGACY_REFERENCES:                          # the slow replayed sort, once per relevance
            out = np.empty((m, k), dtype=np.int64)
            for u in range(m):
                lo, hi = rel.indptr[u], rel.indptr[u + 1]
                negated = np.zeros(n)
                negated[rel.indices[lo:hi]] = -rel.data[lo:hi]
                out[u] = numpy_legacy_argsort(negated)[:k]
            _LEGACY_REFERENCES[key] = out
            while len(_LEGACY_REFERENCES) > 4:
                _LEGACY_REFERENCES.popitem(last=False)
        return _LEGACY_REFERENCES[key].copy()
    if tie_break == "random":
        rows = np.repeat(np.arange(m), np.diff(rel.indptr))
        order = np.lexsort((check_seed(seed).random(rel.nnz), -rel.data, rows))
    else:                                                            # CSR order: ties to the lower index
        order = core.sort_rows(rel.data, rel.indptr)
    return core.row_slots(rel.indices[order].astype(np.float64) + 1.0, rel.indptr, k, n,
                          largest=True).astype(np.int64) - 1


def _hd(run, on_undefined, gamma=0.9, tie_break="stable", seed=None):
    check_gamma(gamma)
    if tie_break not in _TIE_BREAKS:
        raise ValueError(f"tie_break must be one of {_TIE_BREAKS}, got {tie_break!r}.")
    m, k = run.top_k.shape
    n_rel = run.n_relevant
    if m == 0:
        return undefined("hellinger_distance", _NO_USERS, on_undefined)
    if (n_rel == 0).any():
        return undefined("hellinger_distance", f"{int((n_rel == 0).sum())} user(s) have no relevant item "
                         "(r'_{u,i} = r_{u,i} / 0)", on_undefined)
    sums = _hd_sums(run, gamma, tie_break, seed)
    return _hd_from(sums[0] / m, sums[1] / m)


def _hd_sums(run, gamma, tie_break, seed) -> np.ndarray:
    """``(2, k)``: the users' reference shares and normalised clicks at each reference position, summed."""
    m, k = run.top_k.shape
    rel = run.relevance_values
    g = run.top_grades
    if (g > 1).any():
        raise ValueError("HD reads the grades of the recommended items as click probabilities; "
                         "they must lie in [0, 1].")
    ref_items = _reference_lists(run, k, tie_break, seed)
    pos = locate(rel, np.maximum(ref_items, 0))
    ref_share = np.where((ref_items >= 0) & (pos >= 0), rel.data[np.maximum(pos, 0)] if rel.nnz else 0.0, 0.0)
    ref_share /= np.asarray(rel.sum(axis=1)).ravel()[:, None]
    # cascade clicks on the system list: r * gamma^p * prod_{j<p} (1 - r_j), normalised per user (0/0 -> 0)
    survive = np.cumprod(np.concatenate([np.ones((m, 1)), 1.0 - g[:, :-1]], axis=1), axis=1)
    clicks = g * gamma ** np.arange(1, k + 1) * survive
    clicks = _normalise_rows(clicks)
    # map each clicked item to its reference position (0 if it is not among the k reference items)
    same = run.top_k[:, :, None] == ref_items[:, None, :]                   # (m, slot, ref position)
    at_ref = (clicks[:, :, None] * same).sum(axis=1)
    return np.vstack([ref_share.sum(axis=0), _normalise_rows(at_ref).sum(axis=0)])


def _hd_from(q, c) -> float:
    return float(np.sqrt(0.5 * ((np.sqrt(q) - np.sqrt(c)) ** 2).sum()))


def _normalise_rows(x: np.ndarray) -> np.ndarray:
    total = x.sum(axis=1, keepdims=True)
    return np.divide(x, total, out=np.zeros_like(x), where=total > 0)


# --------------------------------------------------------------------------- MME, IBO, IWO

def _impacts(run):
    r"""``(r as float CSR, X·e_inv as CSR (m, n) divided by m, Imp_i(i) (n,), Imp_i^unif (n,))``."""
    m, k, n = run.n_users, run.k, run.n_items
    exposure = _exposure_matrix(_lists(run), _inverse(np.arange(1, k + 1)), n) / m
    rel = run.relevance_values
    own = np.asarray(rel.multiply(exposure).sum(axis=0)).ravel()
    harmonic = float(_inverse(np.arange(1, k + 1)).sum())
    unif = np.asarray(rel.sum(axis=0)).ravel() * harmonic / (n * m)
    return rel, exposure, own, unif


def _mme(run, on_undefined):
    if run.n_users == 0:
        return undefined("mean_max_envy", _NO_USERS, on_undefined)
    rel, exposure, own, _ = _impacts(run)
    rel_t = rel.T.tocsr()                                           # (n, m)
    n = run.n_items
    best = np.zeros(n)
    per_row = max(1.0, rel.nnz / max(n, 1)) * max(1.0, exposure.nnz / max(run.n_users, 1))
    step = max(1, int(_BLOCK // per_row))                          # ~ _BLOCK nonzeros per block product
    for start in range(0, n, step):
        stop = min(n, start + step)
        block = rel_t[start:stop] @ exposure                       # Imp_i(i') for i in the block
        if block.nnz:
            best[start:stop] = block.max(axis=1).toarray().ravel()
    return float(np.maximum(best - own, 0.0).mean())


def _ibo_iwo(run, on_undefined, *, better: bool, corrected: bool):
    name = ("item_better_off" if better else "item_worse_off") + ("_corrected" if corrected else "")
    if run.n_users == 0:
        return undefined(name, _NO_USERS, on_undefined)
    _, _, own, unif = _impacts(run)
    return _ibo_iwo_from(name, own, unif, on_undefined, better=better, corrected=corrected)


def _ibo_iwo_from(name, own, unif, on_undefined, *, better: bool, corrected: bool):
    known = unif > 0
    if corrected:
        if not known.any():
            return undefined(name, "no item is relevant to any user (I^- is empty)", on_undefined)
        own, unif = own[known], unif[known]
        hit = own >= 1.1 * unif if better else own <= 0.9 * unif
        return float(hit.mean())
    if not known.all():
        return undefined(name, f"{int((~known).sum())} item(s) are relevant to no user: "
                               "Imp_i(i) / Imp_i^unif is 0/0", on_undefined)
    ratio = own / unif
    return float((ratio >= 1.1).mean() if better else (ratio <= 0.9).mean())


# --------------------------------------------------------------------------- II-F, AI-F

def _exposure_gap(run, gamma):
    """CSR ``(m, n)`` of :math:`E_{u,i} - E^*_{u,i}`."""
    k, n = run.k, run.n_items
    system = _exposure_matrix(_lists(run), _rbp(np.arange(1, k + 1), gamma=gamma), n)
    t = core.iif_targets(run.n_relevant, "rbp", gamma=gamma)
    target = sp.diags(t) @ run.relevance_values
    return (system - target).tocsr()


def _iif_ori_users(run, gamma=0.8):
    gap = _exposure_gap(run, check_gamma(gamma))
    return np.asarray(gap.multiply(gap).sum(axis=1)).ravel() / run.n_items, None


def _iif_our_users(run, gamma=0.8):
    gamma = check_gamma(gamma)
    if run.rounds is not None and run.rounds.shape[0] > 1:
        raise ValueError("ii_fairness_corrected is defined for a single round (its bounds assume W = 1).")
    m, k = run.top_k.shape
    a = _rbp(np.arange(1, k + 1), gamma=gamma)
    t = core.iif_targets(run.n_relevant, "rbp", gamma=gamma)
    rel = run.relevance_values
    users = np.repeat(np.arange(m), run.n_relevant)
    values = rel.data * t[users]                                    # E*_{u,i} of the relevant items
    total = np.bincount(users, weights=values ** 2, minlength=m)
    raw = core.separable_raw(run.top_grades * t[:, None], a, total, core.square_cost)
    low, high = core.matching_ends(values, rel.indptr, run.n_items, a, core.square_cost)
    return _rescale_users(raw, low, high), None


def _aif(run, on_undefined, gamma=0.8):
    gamma = check_gamma(gamma)
    if run.n_users == 0:
        return undefined("ai_fairness", _NO_USERS, on_undefined)
    per_item = np.asarray(_exposure_gap(run, gamma).sum(axis=0)).ravel() / run.n_users
    return float((per_item ** 2).mean())


# --------------------------------------------------------------------------- registry entry point

#: Per-user scores of the measures that average over users: ``(values, reason)``, where ``reason``
#: says why the whole measure is undefined (else None); NaN marks a user left out or undefined.
_PER_USER = {
    "IAA_ori": _iaa_ori_users, "IAA_our": _iaa_our_users,
    "IFD_div_ori": _ifd_div_ori_users, "IFD_div_our": _ifd_div_our_users,
    "IFD_mul_ori": _ifd_mul_ori_users, "IFD_mul_our": _ifd_mul_our_users,
    "II-F_ori": _iif_ori_users, "II-F_our": _iif_our_users,
}
_NAN_USERS = {"IFD_div_ori": "have no relevant item (|H_u| = 0)"}


def _averaged(key):
    """Kernel of a per-user measure: the original versions need every user defined, the
    corrected ones leave out users with an empty range (thesis Ch. 4)."""
    def kernel(run, on_undefined, **options):
        name = FUNCTIONS[key].__name__
        if run.n_users == 0:
            return undefined(name, _NO_USERS, on_undefined)
        values, reason = _PER_USER[key](run, **options)
        if reason is not None:
            return undefined(name, reason, on_undefined)
        if key.endswith("_our"):
            return _mean_defined(name, values, on_undefined)
        return _mean_users(name, values, on_undefined, _NAN_USERS.get(key, "are undefined"))
    return kernel


_KERNELS = {key: _averaged(key) for key in _PER_USER} | {
    "HD": _hd, "MME": _mme,
    "IBO_ori": lambda run, on_undefined: _ibo_iwo(run, on_undefined, better=True, corrected=False),
    "IWO_ori": lambda run, on_undefined: _ibo_iwo(run, on_undefined, better=False, corrected=False),
    "IBO_our": lambda run, on_undefined: _ibo_iwo(run, on_undefined, better=True, corrected=True),
    "IWO_our": lambda run, on_undefined: _ibo_iwo(run, on_undefined, better=False, corrected=True),
    "AI-F": _aif,
}
_SINGLE_ROUND = ("IAA_ori", "IAA_our", "IFD_div_ori", "IFD_div_our", "IFD_mul_ori", "IFD_mul_our", "HD")
#: Measures defined for graded relevance (the others need r in {0, 1}).
GRADED = ("IAA_ori", "IAA_our", "IFD_div_ori", "IFD_mul_ori", "HD", "MME", "IBO_ori", "IWO_ori",
          "IBO_our", "IWO_our", "II-F_ori", "II-F_our", "AI-F")


def _check_run(key: str, run: Run) -> None:
    run._need_relevant()
    if key in _SINGLE_ROUND and run.rounds is not None and run.rounds.shape[0] > 1:
        raise ValueError(f"{key} is single-round here (the thesis evaluates W = 1); rounds were given.")
    if key not in GRADED:
        _binary_only(run, key)


def _compute(key: str, run: Run, *, on_undefined: str = "warn", **options) -> float:
    """Compute the joint measure ``key`` on a validated :class:`~recfair.run.Run`.

    Private: its record's ``compute``; the public way is :func:`recfair.evaluate`.

    Examples
    --------
    >>> from recfair.run import Run
    >>> run = Run([[0, 1], [1, 0], [0, 1]], 6, relevant=[[0, 2], [1, 4], [0, 1, 5]])
    >>> round(_compute("IAA_ori", run), 6)
    0.222222
    """
    check_on_undefined(on_undefined)
    _check_run(key, run)
    return float(_KERNELS[key](run, on_undefined, **options))


#: Measures that average per-user scores (their per-user values: :func:`_per_user`).
PER_USER = tuple(_PER_USER)


def _per_user_block(key: str, run: Run, **options) -> tuple[np.ndarray, str | None]:
    """``(values, reason)`` of a measure of :data:`PER_USER` on a block of users (:class:`recfair.Accumulator`).

    ``reason`` is not None when the measure is undefined whatever the other users; combine the
    blocks' sums with :func:`mean_from_sum` (via :func:`finish_mean`).
    """
    if key not in _PER_USER:
        raise ValueError(f"{key} has no per-user scores (it is not an average over users); "
                         f"measures that have them: {', '.join(PER_USER)}.")
    _check_run(key, run)
    return _PER_USER[key](run, **options)


def finish_mean(key: str, total: float, *, n_users: int, n_defined: int, reason: str | None,
                on_undefined: str) -> float:
    """Measure ``key`` of :data:`PER_USER` from its blocks' sums of defined per-user values."""
    name = FUNCTIONS[key].__name__
    if n_users and reason is not None:
        return undefined(name, reason, on_undefined)
    return mean_from_sum(name, total, n_users=n_users, n_defined=n_defined, corrected=key.endswith("_our"),
                         reason=_NAN_USERS.get(key, "are undefined"), on_undefined=on_undefined)


#: Measures that are functions of per-item sums over users (:func:`_item_sums_block`, :func:`finish_item_sums`).
ITEM_SUMS = ("HD", "IBO_ori", "IWO_ori", "IBO_our", "IWO_our", "AI-F")


def _item_sums_block(key: str, run: Run, **options) -> np.ndarray:
    """Per-item sums over a block of users behind a measure of :data:`ITEM_SUMS` (:class:`recfair.Accumulator`).

    AI-F: :math:`\\sum_u (E_{u,i} - E^*_{u,i})`, shape ``(n,)``; IBO/IWO: the rows
    :math:`\\sum_u r_{u,i} e_{u,i}` and :math:`\\sum_u r_{u,i}`, shape ``(2, n)``. Blocks add up.
    """
    if key not in ITEM_SUMS:
        raise ValueError(f"{key} is not a function of per-item sums; measures that are: {', '.join(ITEM_SUMS)}.")
    _check_run(key, run)
    if key == "HD":
        gamma, tie_break = check_gamma(options.get("gamma", 0.9)), options.get("tie_break", "stable")
        if tie_break not in _TIE_BREAKS:
            raise ValueError(f"tie_break must be one of {_TIE_BREAKS}, got {tie_break!r}.")
        if tie_break == "random":
            raise ValueError("HD with tie_break='random' draws its tie-breaks over all users at once: it cannot be "
                             "fed in blocks of users (use tie_break='stable').")
        missing = int((run.n_relevant == 0).sum())
        sums = _hd_sums(run, gamma, tie_break, options.get("seed")) if not missing else np.zeros((2, run.k))
        return np.hstack([sums, [[missing], [0.0]]])               # the last column counts users without relevant items
    if key == "AI-F":
        return np.asarray(_exposure_gap(run, check_gamma(options.get("gamma", 0.8))).sum(axis=0)).ravel()
    exposure = _exposure_matrix(_lists(run), _inverse(np.arange(1, run.k + 1)), run.n_items)
    rel = run.relevance_values
    return np.vstack([np.asarray(rel.multiply(exposure).sum(axis=0)).ravel(), np.asarray(rel.sum(axis=0)).ravel()])


def finish_item_sums(key: str, sums: np.ndarray, *, n_users: int, n_items: int, k: int, on_undefined: str,
                     **options) -> float:
    """Measure ``key`` of :data:`ITEM_SUMS` from the per-item sums of every block (:func:`_item_sums_block`)."""
    name = FUNCTIONS[key].__name__
    if n_users == 0:
        return undefined(name, _NO_USERS, on_undefined)
    if key == "HD":
        if sums[0, -1]:
            return undefined(name, f"{int(sums[0, -1])} user(s) have no relevant item (r'_{{u,i}} = r_{{u,i}} / 0)",
                             on_undefined)
        return _hd_from(sums[0, :-1] / n_users, sums[1, :-1] / n_users)
    if key == "AI-F":
        check_gamma(options.get("gamma", 0.8))
        return float(((sums / n_users) ** 2).mean())
    harmonic = float(_inverse(np.arange(1, k + 1)).sum())
    own, unif = sums[0] / n_users, sums[1] * harmonic / (n_items * n_users)
    return _ibo_iwo_from(name, own, unif, on_undefined, better=key.startswith("IBO"), corrected=key.endswith("_our"))


def _per_user(key: str, run: Run, **options) -> np.ndarray:
    """Per-user scores ``(n_users,)`` of a measure of :data:`PER_USER`.

    Private: its record's ``per_user``; the public way is :func:`recfair.evaluate_per_user`.

    NaN marks a user whose score is undefined (e.g. IFD÷ without relevant items) or, for the
    corrected versions, a user left out because their range is empty; the measure is the mean
    of these values (over the non-NaN ones for the corrected versions).
    """
    if key not in _PER_USER:
        raise ValueError(f"{key} has no per-user scores (it is not an average over users); "
                         f"measures that have them: {', '.join(PER_USER)}.")
    _check_run(key, run)
    return _PER_USER[key](run, **options)[0]


def _run(top_k, n_items, relevant, k, rounds=None, ranking=None, scores=None, relevance=None) -> Run:
    if relevant is None and relevance is None:
        raise ValueError("this measure needs the ground truth: pass relevant= (binary) or relevance= (graded).")
    return Run(top_k, n_items, k=k, relevant=relevant, rounds=rounds, ranking=ranking, scores=scores,
               relevance=relevance)

# --------------------------------------------------------------------------- public functions: IAA

@_fill_doc
def inequity_of_amortized_attention(top_k, *, n_items, relevant=None, relevance=None, k=None,
                                    on_undefined="warn") -> float:
    r"""Inequity of amortized attention: gap between each item's attention and its relevance.

    Lower is fairer. Every catalogue item counts, so relevant items beyond the top-k add 1 each.

    .. math::

        \mathrm{IAA}_{\mathrm{ori}} = \frac{1}{m}\sum_{u\in U}\frac{1}{n}\sum_{i\in I}
        \bigl|\mathbb{1}_{L_u}(i)\,\tilde e_{\mathrm{li}}(u,i) - \tilde r(u,i)\bigr|,\quad
        \tilde e_{\mathrm{li}}(u,i) = \frac{k - z(u,i)}{k - 1}

    where :math:`z(u,i)` is the rank of :math:`i` for :math:`u` and :math:`\tilde r` the
    min-max normalised relevance (single round, Paper 2 Eq. IAA).

    Parameters
    ----------
    <<inputs>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1]; 0 and 1 are not reachable (see the corrected version).

    See Also
    --------
    inequity_of_amortized_attention_corrected : Rescaled per user to its achievable range.

    Notes
    -----
    Binary relevance: :math:`\tilde r = r` (as the published numbers; a user with no relevant
    item or only relevant items keeps :math:`\tilde r = r`, no 0/0). With graded relevance
    :math:`\tilde r = (r - \min_i r)/(\max_i r - \min_i r)` over all :math:`n` items of the
    user (the minimum is 0 unless every item is relevant); a user whose items all share one
    grade keeps :math:`\tilde r = 1` on them, never 0/0. The item at rank ``k`` gets weight 0.
    Undefined for ``k = 1`` (:math:`k - 1 = 0`). Only the top-k and the relevant items'
    grades matter, so no full ranking is needed.

    References
    ----------
    .. [1] A. J. Biega, K. P. Gummadi, G. Weikum (2018). Equity of attention. SIGIR.
    .. [2] <<ref2>>.

    Examples
    --------
    >>> inequity_of_amortized_attention([[0, 1]], n_items=5, relevant=[[0, 1]])   # [1, 0] vs [1, 1]
    0.2
    """
    run = _run(top_k, n_items, relevant, k, relevance=relevance)
    return _compute("IAA_ori", run, on_undefined=on_undefined)


@_fill_doc
def inequity_of_amortized_attention_corrected(top_k, *, n_items, relevant=None, relevance=None, k=None,
                                              attention="corrected", on_undefined="warn") -> float:
    r"""IAA rescaled per user: relevant items on top score 0, relevant items at the bottom 1.

    Lower is fairer.

    .. math::

        \mathrm{IAA}_{\mathrm{our}} = \frac1m\sum_{u\in U}
        \frac{\mathrm{IAA}(u) - \mathrm{IAA}_{\min}(u)}{\mathrm{IAA}_{\max}(u) - \mathrm{IAA}_{\min}(u)},
        \quad \tilde e_{\mathrm{our\text{-}li}}(u,i) = \frac{k + 1 - z(u,i)}{k}

    All three terms use the corrected linear examination (rank ``k`` keeps weight ``1/k``).
    :math:`\mathrm{IAA}_{\min}(u)` is the list with the relevant items on top and
    :math:`\mathrm{IAA}_{\max}(u)` the list with them at the bottom (exact: the sum is
    separable over items, thesis Ch. 4 Theorems 1-2).

    Parameters
    ----------
    <<inputs>>
    attention : {"corrected", "original"}, default="corrected"
        ``"original"`` rescales with the original :math:`(k - z)/(k - 1)` instead: the thesis's
        "IAA_ori e" of its synthetic study, which shows the zero exposure at rank ``k``.
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1], both ends exact.

    Notes
    -----
    Users with no relevant item or only relevant items have an empty range and are left out
    (thesis Ch. 4); if no user is left the measure is undefined. Defined for ``k = 1``.

    Graded relevance (``relevance=``) uses the min-max normalised :math:`\tilde r` of
    :func:`inequity_of_amortized_attention`; the ends stay exact because the cost
    :math:`|x - \tilde r|` is convex in the difference: the smallest sum pairs the largest
    exposures with the largest :math:`\tilde r` (sorted by decreasing relevance), the largest
    sum pairs them in opposite orders (rearrangement inequality). The thesis states the
    rescaling for binary relevance; its toy example with grades (Ch. 4, 0.133) is reproduced.

    References
    ----------
    .. [1] <<ref3>>.

    Examples
    --------
    >>> inequity_of_amortized_attention_corrected([[0, 1, 2, 3]], n_items=8, relevant=[[0, 1]])
    0.0
    >>> inequity_of_amortized_attention_corrected([[2, 3, 4, 5]], n_items=8, relevant=[[0, 1]])
    1.0
    """
    run = _run(top_k, n_items, relevant, k, relevance=relevance)
    return _compute("IAA_our", run, on_undefined=on_undefined, attention=attention)


# --------------------------------------------------------------------------- public functions: IFD

@_fill_doc
def individual_fairness_disparity_div(top_k, *, n_items, relevant=None, relevance=None, ranking=None, scores=None,
                                      k=None, exposure="full", on_undefined="warn") -> float:
    r"""Individual fairness disparity (division): pairwise gaps of exposure per unit of relevance.

    Lower is fairer. Uses the **full ranking** of all :math:`n` items, not only the top-k.

    .. math::

        \mathrm{IFD}_{\div} = \frac1m\sum_{u\in U}\frac{1}{|H_u|}\sum_{(i,i')\in H_u}
        \max\bigl\{0,\ J_\div(u,i) - J_\div(u,i')\bigr\},\quad
        J_\div(u,i) = \frac{e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}}

    with :math:`H_u = \{(i,i') \in I\times I : r_{u,i}\ge r_{u,i'} > 0\}`, self-pairs included,
    so :math:`|H_u| = |R^*_u|^2` for binary relevance, and :math:`e_{\mathrm{DCG}}(z) = 1/\log_2(z+1)`
    at the item's position :math:`z` in the full ranking (no top-k indicator).

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, >= k), or None
        Derived from ``ranking`` or ``scores`` when None.
    n_items : int
        Size of the catalogue :math:`n`.
    relevant : sequence of sequences of int, or scipy.sparse matrix (n_users, n_items)
        Ground-truth relevant items of each user.
    ranking : array-like of int, shape (n_users, n_items), optional
        Full ranking of every item per user.
    scores : array-like of float, shape (n_users, n_items), optional
        Predicted scores; the ranking is their stable descending sort (ties to the lower index).
    relevance : array-like or scipy.sparse matrix of float (n_users, n_items), optional
        Graded ground truth instead of ``relevant``: :math:`J_\div = e_{\mathrm{DCG}}/r`.
    k : int, optional
        Cut-off (irrelevant for this measure with ``exposure="full"``; checks ``top_k``).
    exposure : {"full", "top-k"}, default="full"
        ``"full"``: the original, exposure read from the full ranking. ``"top-k"``: the
        corrected :math:`J_{\div\text{-our}} = \mathbb{1}_{L_u}(i)\,e_{\mathrm{DCG}}/r` without the
        per-user rescaling (thesis Ch. 4's "IFD÷-ori + J_our" of its sensitivity-to-k study); it
        needs no full ranking.
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, inf) (at most 1 with binary relevance).

    Notes
    -----
    As the published numbers (Paper 2, authors' code): the exposure is read from the full
    ranking, so the score depends only on the positions of the relevant items there, not on
    ``k``; per user it equals
    :math:`\frac{1}{R^2}\sum_{j=1}^{R}(R - 2j + 1)\,v_{(j)}` with the relevant items' weights
    sorted in decreasing order (O(|R_u| log |R_u|) per user). A user with no relevant item
    has :math:`|H_u| = 0`, so the measure is undefined. With graded relevance :math:`H_u` is
    every ordered pair of items with :math:`r > 0` (self-pairs included), as in the authors'
    code and the only reading that reproduces the thesis's graded toy values (0.006, 0.428);
    the literal :math:`r_{u,i} \ge r_{u,i'}` condition would give other numbers.

    References
    ----------
    .. [1] A. Singh, T. Joachims (2019). Policy learning for fairness in ranking. NeurIPS.
    .. [2] <<ref2>>.

    Examples
    --------
    >>> round(individual_fairness_disparity_div(None, n_items=3, relevant=[[1, 2]], ranking=[[0, 1, 2]], k=2), 6)
    0.032732
    """
    run = _run(top_k, n_items, relevant, k, ranking=ranking, scores=scores, relevance=relevance)
    return _compute("IFD_div_ori", run, on_undefined=on_undefined, exposure=exposure)


@_fill_doc
def individual_fairness_disparity_div_corrected(top_k, *, n_items, relevant, k=None, on_undefined="warn") -> float:
    r"""IFD (division) with top-k exposure, rescaled per user to its exact achievable range.

    Lower is fairer.

    .. math::

        \mathrm{IFD}_{\div\text{-our}} = \frac1m\sum_{u\in U}
        \frac{\mathrm{IFD}_\div(u) - \mathrm{IFD}_{\div\text{-}\min}(u)}
        {\mathrm{IFD}_{\div\text{-}\max}(u) - \mathrm{IFD}_{\div\text{-}\min}(u)},\quad
        J_{\div\text{-our}}(u,i) = \frac{\mathbb{1}_{L_u}(i)\,e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}}

    Parameters
    ----------
    <<inputs_binary>>
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1], both ends exact.

    Notes
    -----
    The per-user ends are exact, not the thesis's strategies: with :math:`s` relevant items in
    the top-k at positions :math:`p_1 < \dots < p_s`, :math:`R^2\,\mathrm{IFD}_\div(u) =
    \sum_{j}(R - 2j + 1)\,e_{\mathrm{DCG}}(p_j)`. For each feasible :math:`s`
    (:math:`\max(0, R - (n-k)) \le s \le \min(R, k)`) the maximum puts the items with a positive
    coefficient at positions :math:`1, 2, \dots` and the others at the bottom of the top-k
    (the "half on top, half unexposed" strategy), and the minimum puts all :math:`s` items in a
    block at the bottom of the top-k (it minimises every pairwise gap and the sum at once);
    both are then optimised over :math:`s`. This differs from "all relevant items beyond k"
    only when :math:`R > n - k` (thesis Ch. 4 counterexample). Users with one relevant item
    score 0 (as in the thesis's experiments); users with no relevant item or only relevant
    items are left out.

    References
    ----------
    .. [1] <<ref3>>.

    Examples
    --------
    >>> individual_fairness_disparity_div_corrected([[0, 1], [2, 3]], n_items=8, relevant=[[0, 7], [0, 1]])
    0.5
    """
    run = _run(top_k, n_items, relevant, k)
    return _compute("IFD_div_our", run, on_undefined=on_undefined)


@_fill_doc
def individual_fairness_disparity_mul(top_k, *, n_items, relevant=None, relevance=None, k=None,
                                      on_undefined="warn") -> float:
    r"""Individual fairness disparity (multiplication): squared gaps of relevance-weighted exposure.

    Lower is fairer.

    .. math::

        \mathrm{IFD}_{\times} = \frac1m\sum_{u\in U}\frac{1}{n(n-1)}\sum_{i\in I}\sum_{i'\in I\setminus i}
        \bigl[J_\times(u,i) - J_\times(u,i')\bigr]^2,\quad
        J_\times(u,i) = r_{u,i}\,\mathbb{1}_{L_u}(i)\,e_{\mathrm{DCG}}(z(u,i))

    Parameters
    ----------
    <<inputs>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, inf) (at most :math:`2k/(n-1)` with binary relevance).

    Notes
    -----
    Computed through the closed form :math:`\frac{2(nS_2 - S_1^2)}{n(n-1)}` with
    :math:`S_1 = \sum_i J_\times(u,i)` and :math:`S_2 = \sum_i J_\times(u,i)^2`, so O(k) per
    user instead of O(n^2). Undefined for ``n < 2``.

    References
    ----------
    .. [1] H. Oosterhuis (2021). Computationally efficient optimization of Plackett-Luce ranking
           models for relevance and fairness. SIGIR.
    .. [2] <<ref2>>.

    Examples
    --------
    >>> round(individual_fairness_disparity_mul([[0, 1]], n_items=10, relevant=[[0]]), 6)   # 2/n
    0.2
    """
    run = _run(top_k, n_items, relevant, k, relevance=relevance)
    return _compute("IFD_mul_ori", run, on_undefined=on_undefined)


@_fill_doc
def individual_fairness_disparity_mul_corrected(top_k, *, n_items, relevant, k=None, on_undefined="warn") -> float:
    r"""IFD (multiplication) rescaled per user to its exact achievable range.

    Lower is fairer.

    .. math::

        \mathrm{IFD}_{\times\text{-our}} = \frac1m\sum_{u\in U}
        \frac{\mathrm{IFD}_\times(u) - \mathrm{IFD}_{\times\text{-}\min}(u)}
        {\mathrm{IFD}_{\times\text{-}\max}(u) - \mathrm{IFD}_{\times\text{-}\min}(u)}

    Parameters
    ----------
    <<inputs_binary>>
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1], both ends exact.

    Notes
    -----
    :math:`\mathrm{IFD}_\times(u)` depends only on the set :math:`S` of top-k positions holding
    relevant items, :math:`g(S) = 2[n\sum_{p\in S}e_p^2 - (\sum_{p\in S}e_p)^2]/(n(n-1))`, with
    :math:`\max(0, R-(n-k)) \le |S| \le \min(R, k)`. The **exact maximum** is obtained by
    evaluating, for every feasible size :math:`s`, every split "``a`` positions on top
    (:math:`1..a`), ``s - a`` at the bottom of the top-k" and taking the largest. This is exact:
    for a fixed size, changing one chosen weight :math:`x` to :math:`y` changes :math:`g` by a
    convex quadratic in :math:`y` that vanishes at :math:`y = x`, so a chosen position with free
    positions above and below it can move outwards without loss, which ends in a prefix plus a
    suffix. The exact minimum is, for each size, the block at the bottom of the top-k (smallest
    mean and smallest pairwise gaps), optimised over the size (0 when :math:`R \le n - k`).
    Users with no relevant item or only relevant items are left out; undefined for ``n < 2``.

    References
    ----------
    .. [1] <<ref3>>.

    Examples
    --------
    >>> individual_fairness_disparity_mul_corrected([[0, 1], [2, 3]], n_items=6, relevant=[[0, 1], [4, 5]])
    0.5
    """
    run = _run(top_k, n_items, relevant, k)
    return _compute("IFD_mul_our", run, on_undefined=on_undefined)


# --------------------------------------------------------------------------- public functions: HD

@_fill_doc
def hellinger_distance(top_k, *, n_items, relevant=None, relevance=None, k=None, gamma=0.9, tie_break="stable",
                       seed=None, on_undefined="warn") -> float:
    r"""Hellinger distance between the relevance and the click distributions over reference positions.

    Lower is fairer. Range: [0, 1].

    .. math::

        \mathrm{HD} = \frac{1}{\sqrt2}\sqrt{\sum_{p=1}^{k}\bigl(\sqrt{q'_p} - \sqrt{c'_p}\bigr)^2},\quad
        q'_p = \frac1m\sum_{u\in U}\sum_{i\in I}\delta(z^*(u,i) = p)\,\frac{r_{u,i}}{|R^*_u|},\quad
        c'_p = \frac1m\sum_{u\in U}\frac{c^*_{u,p}}{\sum_{\ell=1}^{k}c^*_{u,\ell}}

    where :math:`z^*(u,i)` is the position of :math:`i` in the reference list (items sorted by
    ground-truth relevance) and :math:`c^*_{u,p}` the cascade click probability
    (:math:`c_{u,p} = r_{u,i}\,\gamma^{p}\,\prod_{j<p}(1 - r_{u,(j)})`, normalised per user) of the
    reference item at :math:`p`.

    Parameters
    ----------
    <<inputs>>
    gamma : float, default=0.9
        RBP patience, in (0, 1). With binary relevance it cancels out.
    tie_break : {"stable", "random", "numpy_legacy"}, default="stable"
        How items of equal relevance are ordered in the reference list. ``"stable"``: lower
        item index first. ``"random"``: a random order drawn with ``seed``. ``"numpy_legacy"``:
        the order of ``np.argsort(-r_u)`` in numpy <= 1.24 (its introsort, replayed in Python by
        :func:`recfair._legacy_sort.numpy_legacy_argsort`), which the published values were
        computed with; slow (a pure-Python sort of all :math:`n` items per user).
    seed : int or None, default=None
        Seed of ``tie_break="random"``.
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1] (the thesis states [0, inf)).

    Notes
    -----
    Binary relevance makes each user's click vector one-hot on the first relevant item of the
    top-k; users without a hit, or whose first hit is not in the reference top-k, contribute a
    zero vector (0/0 is read as 0, as in the authors' code). Graded relevance (``relevance=``)
    enters the cascade as click probabilities, so grades of recommended items must lie in
    [0, 1] (a ``ValueError`` otherwise); the reference list sorts by decreasing grade.

    Ties in the reference list are broken **stably, lower item index first** by default. The
    published values (Papers 2-3) depend on numpy's unstable default sort (thesis Ch. 3 §4.4
    and §6, guideline S3); ``tie_break="numpy_legacy"`` reproduces them (e.g. the insertion
    study's 0.270473 at the first step, where a stable order gives 0.820933). Undefined if a
    user has no relevant item (:math:`r'` is 0/0).

    References
    ----------
    .. [1] O. Jeunen, B. Goethals (2021). Top-K contextual bandits with equity of exposure. RecSys.
    .. [2] <<ref2>>.

    Examples
    --------
    >>> round(hellinger_distance([[2, 3]], n_items=5, relevant=[[0, 1, 2]]), 6)   # sqrt(1/3)
    0.57735
    """
    run = _run(top_k, n_items, relevant, k, relevance=relevance)
    return _compute("HD", run, on_undefined=on_undefined, gamma=gamma, tie_break=tie_break, seed=seed)


# --------------------------------------------------------------------------- public functions: MME, IBO, IWO

@_fill_doc
def mean_max_envy(top_k, *, n_items, relevant=None, relevance=None, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Mean max envy: how much each item would gain, at most, from another item's exposure.

    Lower is fairer.

    .. math::

        \mathrm{MME} = \frac1n\sum_{i\in I}\Bigl\{\max_{i'\in I}\mathrm{Imp}_i(i') - \mathrm{Imp}_i(i)\Bigr\},\quad
        \mathrm{Imp}_i(i') = \sum_{u\in U}\sum_{p=1}^{k} r_{u,i}\,\frac1p\,X_{u,i',p}

    with :math:`X_{u,i',p} = \frac{1}{Wm}\sum_w \mathbb{1}_{L_{u,w}}(i')\,\delta(z(u,i',w) = p)`
    (inverse examination, erratum :math:`e_{\mathrm{inv}}(p) = 1/p`).

    Parameters
    ----------
    <<inputs>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, inf).

    Notes
    -----
    :math:`\mathrm{Imp} = R^\top X_{\mathrm{inv}} / m` is a sparse matrix product, computed in
    blocks of items (no O(m n^2) loop). Relevance of items outside a user's top-k enters
    through :math:`r_{u,i}`. Undefined without users.

    References
    ----------
    .. [1] Y. Saito, T. Joachims (2022). Fair ranking as fair division: impact-based individual
           fairness in ranking. KDD.
    .. [2] <<ref2>>.

    Examples
    --------
    >>> round(mean_max_envy([[0, 1, 2], [2, 1, 0]], n_items=3, relevant=[[0, 1, 2], [0, 1, 2]]), 6)   # 1/18
    0.055556
    """
    run = _run(top_k, n_items, relevant, k, rounds=rounds, relevance=relevance)
    return _compute("MME", run, on_undefined=on_undefined)


@_fill_doc
def item_better_off(top_k, *, n_items, relevant=None, relevance=None, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Item better-off: share of items whose impact is at least 10% higher than under uniformly random rankings.

    Higher is fairer. Range: [0, 1].

    .. math::

        \mathrm{IBO}_{\mathrm{ori}} = \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}{\mathrm{Imp}_i^{unif}} \ge 1.1\Bigr),\quad
        \mathrm{Imp}_i^{unif} = \frac{1}{mn}\sum_{p=1}^{k}\frac1p\sum_{u\in U} r_{u,i}

    with :math:`\mathrm{Imp}_i(i)` as in :func:`mean_max_envy`.

    Parameters
    ----------
    <<inputs>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1] (the formula's percentage divided by 100, as in the experiments).

    Notes
    -----
    The original over all :math:`n` items (Saito and Joachims; restated in thesis Ch. 4): an item
    relevant to no user has :math:`\mathrm{Imp}_i(i) / \mathrm{Imp}_i^{unif} = 0/0`, so the
    measure is undefined. Paper 2's published numbers use the corrected form over :math:`I^-`.

    References
    ----------
    .. [1] Y. Saito, T. Joachims (2022). Fair ranking as fair division. KDD.
    .. [2] <<ref3>>.

    Examples
    --------
    >>> item_better_off([[0, 1], [1, 0], [0, 1]], n_items=6, relevant=[[0, 2], [1, 4], [0, 1, 5]], on_undefined="nan")
    nan
    """
    run = _run(top_k, n_items, relevant, k, rounds=rounds, relevance=relevance)
    return _compute("IBO_ori", run, on_undefined=on_undefined)


@_fill_doc
def item_worse_off(top_k, *, n_items, relevant=None, relevance=None, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Item worse-off: share of items whose impact is at least 10% lower than under uniformly random rankings.

    Lower is fairer. Range: [0, 1].

    .. math::

        \mathrm{IWO}_{\mathrm{ori}} = \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}{\mathrm{Imp}_i^{unif}} \le 0.9\Bigr),\quad
        \mathrm{Imp}_i^{unif} = \frac{1}{mn}\sum_{p=1}^{k}\frac1p\sum_{u\in U} r_{u,i}

    with :math:`\mathrm{Imp}_i(i)` as in :func:`mean_max_envy`.

    Parameters
    ----------
    <<inputs>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1] (the formula's percentage divided by 100, as in the experiments).

    Notes
    -----
    The original over all :math:`n` items (Saito and Joachims; restated in thesis Ch. 4): an item
    relevant to no user has :math:`\mathrm{Imp}_i(i) / \mathrm{Imp}_i^{unif} = 0/0`, so the
    measure is undefined. Paper 2's published numbers use the corrected form over :math:`I^-`.

    References
    ----------
    .. [1] Y. Saito, T. Joachims (2022). Fair ranking as fair division. KDD.
    .. [2] <<ref3>>.

    Examples
    --------
    >>> item_worse_off([[0, 1], [1, 0], [0, 1]], n_items=6, relevant=[[0, 2], [1, 4], [0, 1, 5]], on_undefined="nan")
    nan
    """
    run = _run(top_k, n_items, relevant, k, rounds=rounds, relevance=relevance)
    return _compute("IWO_ori", run, on_undefined=on_undefined)


@_fill_doc
def item_better_off_corrected(top_k, *, n_items, relevant=None, relevance=None, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Item better-off (over relevant items): share of items whose impact is at least 10% higher than under uniformly random rankings.

    Higher is fairer. Range: [0, 1].

    .. math::

        \mathrm{IBO}_{\mathrm{our}} = \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i) \ge 1.1\,\mathrm{Imp}_i^{unif}\bigr),\quad
        \mathrm{Imp}_i^{unif} = \frac{1}{mn}\sum_{p=1}^{k}\frac1p\sum_{u\in U} r_{u,i}

    with :math:`\mathrm{Imp}_i(i)` as in :func:`mean_max_envy`.

    Parameters
    ----------
    <<inputs>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1] (the formula's percentage divided by 100, as in the experiments).

    Notes
    -----
    Only items relevant to at least one user (:math:`I^-`) count, so the better-off and
    worse-off sets are disjoint (Paper 3; also the form behind Paper 2's published numbers).
    Undefined if no item is relevant to anyone.

    References
    ----------
    .. [1] Y. Saito, T. Joachims (2022). Fair ranking as fair division. KDD.
    .. [2] <<ref2>>; <<ref3>>.

    Examples
    --------
    >>> item_better_off_corrected([[0, 1], [1, 0], [0, 1]], n_items=6, relevant=[[0, 2], [1, 4], [0, 1, 5]])
    0.4
    """
    run = _run(top_k, n_items, relevant, k, rounds=rounds, relevance=relevance)
    return _compute("IBO_our", run, on_undefined=on_undefined)


@_fill_doc
def item_worse_off_corrected(top_k, *, n_items, relevant=None, relevance=None, k=None, rounds=None, on_undefined="warn") -> float:
    r"""Item worse-off (over relevant items): share of items whose impact is at least 10% lower than under uniformly random rankings.

    Lower is fairer. Range: [0, 1].

    .. math::

        \mathrm{IWO}_{\mathrm{our}} = \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i) \le 0.9\,\mathrm{Imp}_i^{unif}\bigr),\quad
        \mathrm{Imp}_i^{unif} = \frac{1}{mn}\sum_{p=1}^{k}\frac1p\sum_{u\in U} r_{u,i}

    with :math:`\mathrm{Imp}_i(i)` as in :func:`mean_max_envy`.

    Parameters
    ----------
    <<inputs>>
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1] (the formula's percentage divided by 100, as in the experiments).

    Notes
    -----
    Only items relevant to at least one user (:math:`I^-`) count, so the better-off and
    worse-off sets are disjoint (Paper 3; also the form behind Paper 2's published numbers).
    Undefined if no item is relevant to anyone.

    References
    ----------
    .. [1] Y. Saito, T. Joachims (2022). Fair ranking as fair division. KDD.
    .. [2] <<ref2>>; <<ref3>>.

    Examples
    --------
    >>> item_worse_off_corrected([[0, 1], [1, 0], [0, 1]], n_items=6, relevant=[[0, 2], [1, 4], [0, 1, 5]])
    0.6
    """
    run = _run(top_k, n_items, relevant, k, rounds=rounds, relevance=relevance)
    return _compute("IWO_our", run, on_undefined=on_undefined)



# --------------------------------------------------------------------------- public functions: II-F, AI-F

_EXPOSURE_MATH = (r"E_{u,i} = \frac1W\sum_{w=1}^{W}\mathbb{1}_{L_{u,w}}(i)\,\gamma^{z(u,i,w)-1},\quad "
                  r"E^*_{u,i} = \frac{r_{u,i}}{|R^*_u|}\,\frac{1-\gamma^{|R^*_u|}}{1-\gamma}")


@_fill_doc
def ii_fairness(top_k, *, n_items, relevant=None, relevance=None, k=None, gamma=0.8, rounds=None,
                on_undefined="warn") -> float:
    r"""Individual-user-to-individual-item fairness: squared gap between system and target exposure.

    Lower is fairer.

    .. math::

        \mathrm{II\text{-}F} = \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}\bigl(E_{u,i} - E^*_{u,i}\bigr)^2,\quad
        E_{u,i} = \frac1W\sum_{w=1}^{W}\mathbb{1}_{L_{u,w}}(i)\,\gamma^{z(u,i,w)-1},\quad
        E^*_{u,i} = \frac{r_{u,i}}{|R^*_u|}\,\frac{1-\gamma^{|R^*_u|}}{1-\gamma}

    Parameters
    ----------
    <<inputs>>
    gamma : float, default=0.8
        RBP patience, in (0, 1).
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1].

    Notes
    -----
    A user with no relevant item has target 0. Only the non-zero :math:`E` and :math:`E^*` are
    stored (sparse). Undefined without users.

    References
    ----------
    .. [1] F. Diaz et al. (2020). Evaluating stochastic rankings with expected exposure. CIKM.
    .. [2] H. Wu et al. (2022). Joint multisided exposure fairness for recommendation. SIGIR.
    .. [3] <<ref2>>.

    Examples
    --------
    >>> round(ii_fairness([[0, 1], [1, 0], [0, 1]], n_items=6, relevant=[[0, 2], [1, 4], [0, 1, 5]]), 6)
    0.200919
    """
    run = _run(top_k, n_items, relevant, k, rounds=rounds, relevance=relevance)
    return _compute("II-F_ori", run, on_undefined=on_undefined, gamma=gamma)


@_fill_doc
def ii_fairness_corrected(top_k, *, n_items, relevant=None, relevance=None, k=None, gamma=0.8,
                          on_undefined="warn") -> float:
    r"""II-F rescaled per user: relevant items on top score 0, relevant items at the bottom 1.

    Lower is fairer. Range: [0, 1].

    .. math::

        \mathrm{II\text{-}F}_{\mathrm{our}} = \frac1m\sum_{u\in U}
        \frac{\mathrm{II\text{-}F}(u) - \mathrm{II\text{-}F}_{\min}(u)}{\mathrm{II\text{-}F}_{\max}(u)
        - \mathrm{II\text{-}F}_{\min}(u)},\quad
        \mathrm{II\text{-}F}(u) = \frac1n\sum_{i\in I}\bigl(E_{u,i} - E^*_{u,i}\bigr)^2

    Parameters
    ----------
    <<inputs>>
    gamma : float, default=0.8
        RBP patience, in (0, 1).
    <<on_undefined>>

    Returns
    -------
    score : float
        In [0, 1], both ends exact.

    Notes
    -----
    Single round. The ends are exact (the sum is separable per item; thesis Ch. 4 Theorem 5):
    the minimum has the relevant items on top, the maximum at the bottom of the full ranking.
    With graded relevance the targets :math:`E^*_{u,i}` differ between items and the same
    rearrangement argument (convex cost) sorts them: largest targets on top for the minimum,
    at the bottom for the maximum. Users with no relevant item or only relevant items are
    left out.

    References
    ----------
    .. [1] <<ref3>>.

    Examples
    --------
    >>> ii_fairness_corrected([[0, 1, 2], [2, 3, 4]], n_items=8, relevant=[[0, 1], [0, 1]])
    0.5
    """
    run = _run(top_k, n_items, relevant, k, relevance=relevance)
    return _compute("II-F_our", run, on_undefined=on_undefined, gamma=gamma)


@_fill_doc
def ai_fairness(top_k, *, n_items, relevant=None, relevance=None, k=None, gamma=0.8, rounds=None,
                on_undefined="warn") -> float:
    r"""All-users-to-individual-item fairness: squared gap of user-averaged system and target exposure.

    Lower is fairer.

    .. math::

        \mathrm{AI\text{-}F} = \frac1n\sum_{i\in I}\Bigl(\frac1m\sum_{u\in U}E_{u,i}
        - \frac1m\sum_{u\in U}E^*_{u,i}\Bigr)^2

    with :math:`E_{u,i}` and :math:`E^*_{u,i}` as in :func:`ii_fairness`.

    Parameters
    ----------
    <<inputs>>
    gamma : float, default=0.8
        RBP patience, in (0, 1).
    <<rounds>>
    <<on_undefined>>

    Returns
    -------
    score : float
        Theoretical range [0, 1].

    Notes
    -----
    Undefined without users.

    References
    ----------
    .. [1] H. Wu et al. (2022). Joint multisided exposure fairness for recommendation. SIGIR.
    .. [2] <<ref2>>.

    Examples
    --------
    >>> round(ai_fairness([[0, 1], [1, 0], [0, 1]], n_items=6, relevant=[[0, 2], [1, 4], [0, 1, 5]]), 6)
    0.078677
    """
    run = _run(top_k, n_items, relevant, k, rounds=rounds, relevance=relevance)
    return _compute("AI-F", run, on_undefined=on_undefined, gamma=gamma)


#: The public function of each joint measure (the registry records' ``func``).
FUNCTIONS = {
    "IAA_ori": inequity_of_amortized_attention, "IAA_our": inequity_of_amortized_attention_corrected,
    "IFD_div_ori": individual_fairness_disparity_div, "IFD_div_our": individual_fairness_disparity_div_corrected,
    "IFD_mul_ori": individual_fairness_disparity_mul, "IFD_mul_our": individual_fairness_disparity_mul_corrected,
    "HD": hellinger_distance, "MME": mean_max_envy,
    "IBO_ori": item_better_off, "IWO_ori": item_worse_off,
    "IBO_our": item_better_off_corrected, "IWO_our": item_worse_off_corrected,
    "II-F_ori": ii_fairness, "II-F_our": ii_fairness_corrected, "AI-F": ai_fairness,
}
