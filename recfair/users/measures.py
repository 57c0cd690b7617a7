r"""Individual user fairness (Paper 5, thesis Ch. 6): PUF and its baselines SD, Gini, envy (ME, MME, PEU) and UF.

Every measure here is an **un**\ fairness measure: lower is fairer. The conventions that the
paper leaves open (thesis Ch. 6, Paper 5, §3) are fixed as follows, each printed variant available as an option:

* :math:`U` is the set of users given (the test users); there must be at least two.
* :math:`S(u)` is a per-user effectiveness in [0, 1] (``base``: any per-user relevance measure,
  default NDCG@k; the paper uses P@k and NDCG@k).
* PUF is the mean over the :math:`m(m-1)/2` unordered pairs (range [0, 1]); ``normalization="printed"``
  gives the printed :math:`\frac{2}{m(m-1)}\sum_u\sum_{u' \ne u}`, twice that.
* The utility of :math:`u` from :math:`u'`'s list is :math:`\phi_u(L_{u'}) = |L_{u'} \cap R_u| / k`
  (``phi="ideal"`` divides by :math:`\min(k, |R_u|)` instead, the user's *own* ideal list).
* ``ME_user`` is the mean envy over the ordered pairs :math:`u \ne u'`; ``normalization="printed"``
  doubles it. ``MME_user`` is the mean over users of their largest envy; ``PEU`` the share of
  users whose largest envy exceeds :math:`\varepsilon`.
* UF sums over the unordered pairs with Wu et al.'s raw similarity at or above
  :math:`t = \text{mean} + \text{SD}` (population SD over the unordered pairs), with
  :math:`d_{cos} = 1 - \cos` between item vectors (default: the items' columns of the binary
  history matrix) and the logarithm to base :math:`m(m-1)/2`.

Nothing builds an :math:`m \times m` matrix: compiled kernels (:mod:`recfair.users._kernels`)
visit every unordered pair once and fold what the measure needs (weighted gaps, sums, minimum
and maximum of the similarity, UF's list distances) into running per-user values; envy visits
only the pairs where a user's relevant item is in the other's list. PUF with cosine similarity
visits no pair at all once its min-max range is known (the cosine of binary histories is
bilinear; :meth:`~recfair.users.UserSimilarity.cosine_weighted_sum`); the range is found in one
pass, cached per history as the paper computes the similarity once per dataset.

The pairs are cut into blocks of users (``block_size`` users each, paired with every later
user). They run on this machine's cores, or, with ``client=`` (a
:class:`dask.distributed.Client`), as tasks on a Dask cluster (:func:`recfair.scale._distributed.map_blocks`):
the per-user partial results are combined in user order, so the value is the same either way,
and a worker lost mid-way only costs its tasks being re-run. Memory: a few arrays of ``m``
values per running block, the history's indexes, and for UF up to 192 MB of exact item
co-occurrence rows.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from ..scale._distributed import check_client
from ..inequality import gini, pair_gap_sum
from .._validation import (check_effectiveness, check_item_sets, check_on_undefined, check_real, check_top_k,
                           renamed_options, undefined, undefined_users)
from ..run import contains
from .similarity import UserSimilarity, genre_distributions, sim_js

__all__ = ["puf", "sd_ind", "gini_ind", "mean_envy_user", "mean_max_envy_user", "peu", "uf", "uf_details",
           "utility_matrix", "envy_matrix", "NORMALIZATIONS", "PHI"]

#: Normalisations of PUF and ME: the library's default and the printed factor.
NORMALIZATIONS = ("mean", "printed")
#: Denominators of the utility phi: k (P@k) or the user's own ideal min(k, |R_u|).
PHI = ("k", "ideal")


# --------------------------------------------------------------------------------- input checks

def _check_choice(value, choices, name):
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}; got {value!r}.")
    return value


def _source(similarity, m: int) -> UserSimilarity:
    if isinstance(similarity, UserSimilarity):
        if similarity.n_users != m:
            raise ValueError(f"similarity is for {similarity.n_users} users but there are {m}.")
        return similarity
    if isinstance(similarity, str):
        raise ValueError(f"similarity={similarity!r} needs the users' history: use the run (recfair.evaluate with "
                         "history=) or UserSimilarity.from_history(history, similarity).")
    return UserSimilarity.from_matrix(similarity, n_users=m)


# ------------------------------------------------------------------------------------------ PUF

def puf(effectiveness, *, similarity, normalization: str = "mean", minmax: bool = False,
        block_size: int | None = None, on_undefined: str = "warn", client=None) -> float:
    r"""Pairwise User unFairness: similarity-weighted effectiveness gaps over user pairs (Paper 5).

    .. math::

        \mathrm{PUF} = \frac{1}{m(m-1)} \sum_{u \in U} \sum_{u' \ne u} \mathrm{sim}(u, u')\,|S(u) - S(u')|
        = \binom{m}{2}^{-1} \sum_{u < u'} \mathrm{sim}(u, u')\,|S(u) - S(u')|

    the mean over the unordered pairs (default). The thesis prints the factor
    :math:`\frac{2}{m(m-1)}` in front of the sum over ordered pairs, which is twice the mean
    (``normalization="printed"``). Lower is fairer: 0 when every pair of similar users is equally well
    served. Range: [0, 1] by default; the largest value reachable is
    :math:`\lfloor m/2\rfloor\lceil m/2\rceil / \binom{m}{2}` (about 1/2: all similarities 1,
    half the users at :math:`S = 1`, half at 0); printed: [0, m/(m-1)] for even ``m``
    (:mod:`recfair.users.derivations`).

    Parameters
    ----------
    effectiveness : array-like of float, shape (m,)
        :math:`S(u) \in [0, 1]` per user (e.g. per-user NDCG@k); NaN = undefined user.
    similarity : array-like or sparse (m, m), or :class:`~recfair.users.UserSimilarity`
        Symmetric users x users similarity in [0, 1] (diagonal ignored), e.g.
        :func:`~recfair.users.user_similarity` of the users' history.
    normalization : {"mean", "printed"}, default "mean"
        Mean over the unordered pairs, or the printed factor (twice that).
    minmax : bool, default False
        Min-max scale the similarity over the distinct pairs first (the paper does so for
        similarities computed from history; :func:`recfair.evaluate` turns it on for those).
        With no spread (e.g. two users) the similarity is left as it is.
    block_size : int, optional
        Users per block of pairs (a task on a cluster); the result does not depend on it.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        Policy when some user's effectiveness is undefined (NaN): NaN with a warning, NaN, or
        an :class:`~recfair.UndefinedMeasureError`.
    client : dask.distributed.Client, optional
        Compute the blocks of pairs as tasks on this Dask cluster (same value); default: this machine.

    Returns
    -------
    float

    Examples
    --------
    Four users of the toy example of the book's PUF chapter, P@2 and min-max scaled Jaccard
    similarity:

    >>> from recfair.users import user_similarity
    >>> sim = user_similarity([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], similarity="jaccard", minmax=True)
    >>> x = [0.5, 0.5, 0.5, 0.0]
    >>> round(puf(x, similarity=sim), 4), round(puf(x, similarity=sim, normalization="printed"), 4)
    (0.0417, 0.0833)
    """
    check_on_undefined(on_undefined)
    _check_choice(normalization, NORMALIZATIONS, "normalization")
    s = check_effectiveness(effectiveness, high=1.0, nonnegative=True, min_users=2, measure="PUF")
    source = _source(similarity, s.size)
    check_client(client)
    bad = undefined_users("PUF", s, on_undefined)
    if bad is not None:
        return bad
    from . import _kernels                               # numba: compiled on first use, cached on disk
    m = s.size
    lo = hi = 0.0
    if source.kind == "cosine" and not (minmax and getattr(source, "_range", None) is None):
        weighted = source.cosine_weighted_sum(s) / 2.0   # bilinear: one pass over the items, no pair visited
        if minmax:
            lo, hi = source._range                       # found once per similarity (the paper computes it once)
    else:                                                # one compiled pass over the pairs: sum, min and max
        stats = _kernels.pair_stats(source, s, client=client, block_size=block_size)
        weighted, lo, hi = stats["weighted"], stats["min"], stats["max"]
        if source.kind == "cosine":
            source._range = (lo, hi)
    if minmax and hi > lo:
        weighted = (weighted - lo * pair_gap_sum(s)) / (hi - lo)
    value = weighted / (m * (m - 1) / 2.0)
    return float(max(value, 0.0) * (2.0 if normalization == "printed" else 1.0))


# ------------------------------------------------------------------------------------ SD, Gini

def sd_ind(effectiveness, *, on_undefined: str = "warn") -> float:
    r"""Population standard deviation of the per-user effectiveness (Paper 5's SD-P / SD-NDCG).

    .. math:: \mathrm{SD} = \sqrt{\frac1m \sum_{u \in U} \bigl(S(u) - \bar S\bigr)^2}

    Lower is fairer: 0 when every user gets the same effectiveness. Range [0, 0.5] for
    effectiveness in [0, 1] (half the users at 0, half at 1). Ignores how similar users are.

    Parameters
    ----------
    effectiveness : array-like of float, shape (m,)
        :math:`S(u)` per user (e.g. per-user NDCG@k), at least 2 users; NaN = undefined user.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        Policy when some user's effectiveness is undefined (NaN).

    Returns
    -------
    float

    Examples
    --------
    >>> round(sd_ind([0.5, 0.5, 0.5, 0.0]), 4)
    0.2165
    """
    check_on_undefined(on_undefined)
    s = check_effectiveness(effectiveness, min_users=2, measure="SD_ind")
    bad = undefined_users("SD_ind", s, on_undefined)
    if bad is not None:
        return bad
    return float(np.std(s))


def gini_ind(effectiveness, *, on_undefined: str = "warn") -> float:
    r"""Gini index of the per-user effectiveness (Paper 5's Gini-P / Gini-NDCG).

    .. math:: \mathrm{Gini} = \frac{\sum_{j=1}^{m} (2j - m - 1)\, x_{(j)}}{m \sum_{j=1}^{m} x_{(j)}}

    with :math:`x_{(1)} \le \dots \le x_{(m)}` the sorted effectiveness values (the one Gini
    of :mod:`recfair.inequality`). Lower is fairer. Range [0, (m-1)/m]; undefined when every
    value is 0 (0/0), handled by ``on_undefined``. It tracks the *level* of effectiveness as
    much as its disparity: halving every value leaves it unchanged, but one more user at 0
    raises it.

    Parameters
    ----------
    effectiveness : array-like of float, shape (m,)
        Non-negative :math:`S(u)` per user, at least 2 users; NaN = undefined user.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        Policy when some user's effectiveness is undefined (NaN) or every value is 0.

    Returns
    -------
    float

    Examples
    --------
    >>> round(gini_ind([0.5, 0.5, 0.5, 0.0]), 4)
    0.25
    """
    check_on_undefined(on_undefined)
    s = check_effectiveness(effectiveness, nonnegative=True, min_users=2, measure="Gini_ind")
    bad = undefined_users("Gini_ind", s, on_undefined)
    if bad is not None:
        return bad
    if s.sum() <= 0:
        return undefined("Gini_ind", "every user's effectiveness is 0", on_undefined)
    return gini(s)


# ------------------------------------------------------------------------------------------ envy

def _lists_and_relevant(top_k, relevant, n_items, k):
    top = check_top_k(top_k, n_items=n_items, k=k)
    if top.shape[0] < 2:
        raise ValueError(f"user fairness compares users: at least 2 users are needed, got {top.shape[0]}.")
    rel = check_item_sets(relevant, n_users=top.shape[0], n_items=n_items, name="relevant")
    return top, rel


def _denominator(rel, k, phi):
    _check_choice(phi, PHI, "phi")
    n_rel = np.diff(rel.indptr).astype(np.float64)
    return np.full(n_rel.shape, float(k)) if phi == "k" else np.minimum(n_rel, k)


def _envy_stats(top, rel, phi, block_size=None, client=None):
    """(sum of envy over ordered pairs, each user's largest envy): one compiled pass over each user's hits."""
    from . import _kernels

    check_client(client)
    k = top.shape[1]
    den = _denominator(rel, k, phi)
    inv = np.divide(1.0, den, out=np.zeros_like(den), where=den > 0)
    own = contains(rel, top).sum(axis=1) * inv                       # phi_u(L_u)
    return _kernels.envy_stats(top, rel, inv, own, client=client, block_size=block_size)


def utility_matrix(top_k, *, relevant, n_items: int, k: int | None = None, phi: str = "k") -> np.ndarray:
    r"""Dense :math:`\Phi[u, u'] = \phi_u(L_{u'}) = |L_{u'} \cap R_u| / k` (small ``m``: teaching and tests).

    .. math:: \phi_u(L_{u'}) = \frac{|L_{u'} \cap R_u|}{k}

    ``phi="ideal"`` divides by :math:`\min(k, |R_u|)` instead (a user without relevant items has 0).
    Range: [0, 1] per entry.

    Parameters
    ----------
    top_k : array-like of int, shape (m, >= k)
        Each user's recommended items in rank order (at least 2 users).
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items :math:`R_u`.
    n_items : int
        Catalogue size.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    phi : {"k", "ideal"}, default="k"
        Denominator of the utility: ``k``, or the user's own ideal :math:`\min(k, |R_u|)`.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)
        Row ``u``, column ``u'``: what user ``u`` would get from ``u'``'s list.

    Examples
    --------
    >>> utility_matrix([[0, 1], [2, 3]], relevant=[[1, 2], [3]], n_items=4).tolist()
    [[0.5, 0.5], [0.0, 0.5]]
    """
    top, rel = _lists_and_relevant(top_k, relevant, n_items, k)
    m, kk = top.shape
    den = _denominator(rel, kk, phi)
    inv = np.divide(1.0, den, out=np.zeros_like(den), where=den > 0)
    lists = sp.csr_matrix((np.ones(top.size), top.ravel(), np.arange(0, top.size + 1, kk)), shape=(m, n_items))
    return np.asarray((rel.astype(np.float64) @ lists.T).toarray()) * inv[:, None]


def envy_matrix(top_k, *, relevant, n_items: int, k: int | None = None, phi: str = "k") -> np.ndarray:
    r"""Dense :math:`\mathrm{envy}(u, u') = \max\{\phi_u(L_{u'}) - \phi_u(L_u), 0\}` (small ``m``).

    .. math:: \mathrm{envy}(u, u') = \max\{\phi_u(L_{u'}) - \phi_u(L_u),\, 0\}

    Range: [0, 1] per entry; the diagonal is 0.

    Parameters
    ----------
    top_k : array-like of int, shape (m, >= k)
        Each user's recommended items in rank order (at least 2 users).
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items :math:`R_u`.
    n_items : int
        Catalogue size.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    phi : {"k", "ideal"}, default="k"
        Denominator of the utility: ``k``, or the user's own ideal :math:`\min(k, |R_u|)`.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)

    Examples
    --------
    >>> envy_matrix([[0, 1], [2, 3]], relevant=[[1, 2], [3]], n_items=4).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """
    util = utility_matrix(top_k, relevant=relevant, n_items=n_items, k=k, phi=phi)
    return np.maximum(util - np.diag(util)[:, None], 0.0)


def mean_envy_user(top_k, *, relevant, n_items: int, k: int | None = None, normalization: str = "mean",
                   phi: str = "k", block_size: int | None = None, on_undefined: str = "warn", client=None) -> float:
    r"""Mean envy between users (ME; Patro et al. 2020, Biswas et al. 2021), on the corrected utility.

    .. math::

        \mathrm{ME} = \frac{1}{m(m-1)} \sum_{u \in U} \sum_{u' \ne u} \mathrm{envy}(u, u'), \qquad
        \mathrm{envy}(u, u') = \max\{\phi_u(L_{u'}) - \phi_u(L_u),\, 0\}

    with :math:`\phi_u(L_{u'}) = |L_{u'} \cap R_u| / k` (ground truth, the user's *own*
    denominator). Envy is not symmetric, so this is the mean over the :math:`m(m-1)` ordered
    pairs; ``normalization="printed"`` applies the printed factor :math:`2/(m(m-1))` (twice the mean,
    range [0, 2]). Lower is fairer; range [0, 1]. (Not Paper 2's item-side ``MME``.)

    On Last.fm (the thesis's preprocessing and split, recfair's U-KNN and I-KNN) this gives
    about 0.002-0.003 and :func:`mean_max_envy_user` about 0.08-0.09: the thesis's table
    reports ME ≈ 0.08-0.09 and MME ≈ 0.002, i.e. the two columns look swapped (which also
    resolves the inconsistency ME > 2 MME of the thesis's Ch. 6 results table).

    Parameters
    ----------
    top_k : array-like of int, shape (m, >= k)
        Each user's recommended items in rank order (at least 2 users).
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items :math:`R_u`.
    n_items : int
        Catalogue size.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    normalization : {"mean", "printed"}, default="mean"
        The mean over ordered pairs, or the printed factor (twice that).
    phi : {"k", "ideal"}, default="k"
        Denominator of the utility: ``k``, or the user's own ideal :math:`\min(k, |R_u|)`.
    block_size : int, optional
        Users handled at once (memory only; the result does not depend on it).
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        The undefined-value policy (never needed here: the value is defined for every run of at
        least 2 users; accepted so that every measure is called alike).

    Returns
    -------
    float

    Examples
    --------
    The toy example of the book's PUF chapter: only user 3 is envious, of users 0 and 1, by 0.5 each.

    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> rel = [[3, 4], [2], [0, 5], [0, 1, 2]]
    >>> round(mean_envy_user(top, relevant=rel, n_items=6), 4)
    0.0833
    """
    check_on_undefined(on_undefined)
    top, rel = _lists_and_relevant(top_k, relevant, n_items, k)
    _check_choice(normalization, NORMALIZATIONS, "normalization")
    total, _ = _envy_stats(top, rel, phi, block_size, client)
    m = top.shape[0]
    return total / (m * (m - 1)) * (2.0 if normalization == "printed" else 1.0)


def mean_max_envy_user(top_k, *, relevant, n_items: int, k: int | None = None, phi: str = "k",
                       block_size: int | None = None, on_undefined: str = "warn", client=None) -> float:
    r"""Mean over users of their largest envy (user-side MME; Do et al. 2022) on the corrected utility.

    .. math:: \mathrm{MME}_{user} = \frac1m \sum_{u \in U} \max_{u' \in U} \mathrm{envy}(u, u')

    Lower is fairer; range [0, 1]. Not to be confused with Paper 2's item-side ``MME`` (Saito
    & Joachims' exposure-swap envy), a different measure. The thesis's reported MME values match
    this library's ``ME_user`` and its ME values this measure (see :func:`mean_envy_user`).

    Parameters
    ----------
    top_k : array-like of int, shape (m, >= k)
        Each user's recommended items in rank order (at least 2 users).
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items :math:`R_u`.
    n_items : int
        Catalogue size.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    phi : {"k", "ideal"}, default="k"
        Denominator of the utility: ``k``, or the user's own ideal :math:`\min(k, |R_u|)`.
    block_size : int, optional
        Users handled at once (memory only; the result does not depend on it).
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        The undefined-value policy (never needed here: the value is defined for every run of at
        least 2 users; accepted so that every measure is called alike).

    Returns
    -------
    float

    Examples
    --------
    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> rel = [[3, 4], [2], [0, 5], [0, 1, 2]]
    >>> mean_max_envy_user(top, relevant=rel, n_items=6)
    0.125
    """
    check_on_undefined(on_undefined)
    top, rel = _lists_and_relevant(top_k, relevant, n_items, k)
    _, best = _envy_stats(top, rel, phi, block_size, client)
    return float(best.mean())


@renamed_options("PEU")
def peu(top_k, *, relevant, n_items: int, k: int | None = None, envy_tolerance: float = 0.05, phi: str = "k",
        block_size: int | None = None, on_undefined: str = "warn", client=None) -> float:
    r"""Proportion of :math:`\varepsilon`-envious users (PEU; Do et al. 2022) on the corrected utility.

    .. math:: \mathrm{PEU} = \frac1m \sum_{u \in U} \mathbb{1}\bigl[\max_{u' \in U} \mathrm{envy}(u, u') > \varepsilon\bigr]

    Lower is fairer; range [0, 1]; the tolerance :math:`\varepsilon \ge 0` is ``envy_tolerance`` (default 0.05,
    the paper's).

    Parameters
    ----------
    top_k : array-like of int, shape (m, >= k)
        Each user's recommended items in rank order (at least 2 users).
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items :math:`R_u`.
    n_items : int
        Catalogue size.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    envy_tolerance : float >= 0, default=0.05
        The envy :math:`\varepsilon` a user must exceed to count as envious.
    phi : {"k", "ideal"}, default="k"
        Denominator of the utility: ``k``, or the user's own ideal :math:`\min(k, |R_u|)`.
    block_size : int, optional
        Users handled at once (memory only; the result does not depend on it).
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        The undefined-value policy (never needed here: the value is defined for every run of at
        least 2 users; accepted so that every measure is called alike).

    Returns
    -------
    float

    Examples
    --------
    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> rel = [[3, 4], [2], [0, 5], [0, 1, 2]]
    >>> peu(top, relevant=rel, n_items=6)
    0.25
    """
    check_on_undefined(on_undefined)
    eps = check_real(envy_tolerance, "envy_tolerance", low=0.0)
    top, rel = _lists_and_relevant(top_k, relevant, n_items, k)
    _, best = _envy_stats(top, rel, phi, block_size, client)
    return float((best > eps).mean())


# -------------------------------------------------------------------------------------------- UF

def _uf_similarity(history, n_users, n_items, history_weight, item_features, similarity):
    gamma = check_real(history_weight, "history_weight", low=0.0, high=1.0)
    if not isinstance(similarity, str):
        if gamma != 1.0:
            raise ValueError("history_weight mixes the similarities computed from history and item features; with a "
                             "precomputed similarity leave history_weight=1 (mix them yourself).")
        return _source(similarity, n_users)
    if history is None:
        raise ValueError("UF needs the users' history (history=) or a precomputed similarity.")
    source = UserSimilarity.from_history(history, similarity=similarity, n_items=n_items)
    if source.n_users != n_users:
        raise ValueError(f"history has {source.n_users} users but top_k has {n_users}.")
    if gamma == 1.0:
        return source
    if item_features is None:
        raise ValueError("history_weight < 1 mixes in the item-feature (e.g. genre) similarity: pass item_features=.")
    mixed = gamma * source.dense() + (1 - gamma) * sim_js(genre_distributions(history, item_features, n_items=n_items))
    return UserSimilarity.from_matrix(np.clip(mixed, 0.0, 1.0), n_users=n_users)


@renamed_options("UF")
def uf_details(top_k, *, history=None, n_items: int, k: int | None = None, history_weight: float = 1.0,
               similarity="jaccard", item_features=None, item_vectors=None, block_size: int | None = None,
               client=None) -> dict:
    r"""UF and its parts: ``{"UF", "sum", "threshold", "n_similar_pairs", "n_pairs", "log_base"}``.

    ``sum`` is :math:`\sum_{(u, u') \in U^*} \mathrm{sim}_{UF}(u, u')\, d_L(u, u')` over unordered
    pairs; UF is its logarithm to base ``n_pairs`` :math:`= m(m-1)/2`. See :func:`uf` for the
    formula and range.

    .. math:: \mathrm{UF} = \log_{\binom m2} \mathrm{sum}

    Parameters
    ----------
    top_k, history, n_items, k, history_weight, similarity, item_features, item_vectors, block_size
        As in :func:`uf`.

    Returns
    -------
    dict
        ``UF`` (float), ``sum`` (float), ``threshold`` (the similarity cut :math:`t`),
        ``n_similar_pairs`` (int), ``n_pairs`` (int) and ``log_base`` (float).

    Examples
    --------
    >>> d = uf_details([[3, 0], [2, 4], [4, 5], [3, 5]], history=[[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], n_items=6)
    >>> round(d["sum"], 4), d["n_similar_pairs"], round(d["UF"], 3)
    (0.3125, 1, -0.649)
    """
    top = check_top_k(top_k, n_items=n_items, k=k)
    m, kk = top.shape
    if m < 2:
        raise ValueError(f"user fairness compares users: at least 2 users are needed, got {m}.")
    source = _uf_similarity(history, m, n_items, history_weight, item_features, similarity)
    check_client(client)
    from . import _kernels
    n_pairs = m * (m - 1) / 2.0
    if item_vectors is None:
        if history is None:
            raise ValueError("UF's default item vectors are the columns of the history matrix: pass history= or "
                             "item_vectors=.")
        vectors = check_item_sets(history, n_users=m, n_items=n_items, name="history").T.tocsr()
    else:
        vectors = item_vectors if sp.issparse(item_vectors) else np.asarray(item_vectors, dtype=np.float64)
        if vectors.ndim != 2 or vectors.shape[0] != n_items:
            raise ValueError(f"item_vectors must have one row per item ({n_items}); got shape {vectors.shape}.")
        if sp.issparse(vectors):
            vectors = sp.csr_matrix(vectors)
        elif not np.all(np.isfinite(vectors)):
            raise ValueError("item_vectors has NaN or infinite entries.")
    stats = _kernels.pair_stats(source, client=client, block_size=block_size)       # threshold: mean + SD
    mean = stats["sum"] / n_pairs
    threshold = mean + math.sqrt(max(stats["sum_sq"] / n_pairs - mean * mean, 0.0))
    total, similar = _kernels.uf_stats(source, top, vectors, threshold, client=client, block_size=block_size)
    total = max(total, 0.0)
    if n_pairs <= 1:
        value = float("nan")
    elif total == 0:
        value = -math.inf
    else:
        value = math.log(total) / math.log(n_pairs)
    return {"UF": value, "sum": total, "threshold": threshold, "n_similar_pairs": similar,
            "n_pairs": int(n_pairs), "log_base": n_pairs}


@renamed_options("UF")
def uf(top_k, *, history=None, n_items: int, k: int | None = None, history_weight: float = 1.0, similarity="jaccard",
       item_features=None, item_vectors=None, block_size: int | None = None, on_undefined: str = "warn",
       client=None) -> float:
    r"""Wu et al.'s distance-based UnFairness score (UF, 2023), as Paper 5 uses it.

    .. math::

        \mathrm{UF} = \log_{\binom m2} \sum_{(u, u') \in U^*} \mathrm{sim}_{UF}(u, u')\, d_L(u, u'),
        \qquad d_L(u, u') = \frac1{k^2} \sum_{i \in L_u} \sum_{i' \in L_{u'}} \bigl(1 - \cos(\vec i, \vec{i'})\bigr)

    with :math:`\mathrm{sim}_{UF} = \gamma\,\mathrm{sim}_{Jacc} + (1-\gamma)\,\mathrm{sim}_{JS}` (:math:`\gamma` is
    ``history_weight``; raw, not min-max scaled), :math:`U^*` the unordered pairs with :math:`\mathrm{sim}_{UF} \ge t`,
    :math:`t` = mean + population SD of :math:`\mathrm{sim}_{UF}` over the unordered pairs, item
    vectors :math:`\vec i` = the item's column of the binary history matrix (the reading the
    thesis's Ch. 6 §3 leaves open; ``item_vectors=`` for others). Lower is fairer. Range :math:`(-\infty, 1]`:
    the paper's claimed [0, 1] needs the sum to be at least 1; a smaller sum gives a
    **negative** UF, and :math:`-\infty` when it is 0. UF ignores relevance entirely: similar
    users who get different but equally good items count as unfair.

    Parameters
    ----------
    top_k : array-like of int, shape (m, >= k)
        Each user's recommended items in rank order (at least 2 users).
    history : sequences of int or scipy.sparse (m, n_items)
        The users' train items: the similarity and the default item vectors.
    n_items : int
        Catalogue size.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    history_weight : float in [0, 1], default=1
        Weight :math:`\gamma` of the history similarity; ``history_weight < 1`` needs ``item_features``
        (e.g. genres).
    similarity : {"jaccard", "cosine"} or array-like (m, m), default="jaccard"
        The users x users similarity: a name (computed from ``history``) or a matrix, used as
        :math:`\mathrm{sim}_{UF}` as it is.
    item_features : array-like (n_items, d), optional
        Item features (e.g. genres) for the :math:`\mathrm{sim}_{JS}` part when ``history_weight < 1``.
    item_vectors : array-like or scipy.sparse (n_items, d), optional
        Item vectors of the list distance (default: the columns of the history matrix).
    block_size : int, optional
        Users per block of pairs (a task on a cluster); the result does not depend on it.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        Two users have a single pair: the log base 1 makes UF undefined.
    client : dask.distributed.Client, optional
        Compute the blocks of pairs as tasks on this Dask cluster (same value); default: this machine.

    Returns
    -------
    float

    Examples
    --------
    The toy example of the book's PUF chapter: one pair is similar enough, its weighted distance 0.3125 < 1.

    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> round(uf(top, history=[[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], n_items=6), 3)
    -0.649
    """
    check_on_undefined(on_undefined)
    details = uf_details(top_k, history=history, n_items=n_items, k=k, history_weight=history_weight,
                         similarity=similarity, item_features=item_features, item_vectors=item_vectors,
                         block_size=block_size, client=client)
    if math.isnan(details["UF"]):
        return undefined("UF", "with 2 users there is one pair and the log base m(m-1)/2 is 1", on_undefined)
    return details["UF"]
