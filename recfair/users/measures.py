r"""Individual user fairness (Paper 5, thesis Ch. 6): PUF and its baselines SD, Gini, envy (ME, MME, PEU) and UF.

Every measure here is an **un**\ fairness measure: lower is fairer. The conventions that the
paper leaves open (p5.md §8) are fixed as follows, each printed variant available as an option:

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
:class:`dask.distributed.Client`), as tasks on a Dask cluster (:func:`recfair._distributed.map_blocks`):
the per-user partial results are combined in user order, so the value is the same either way,
and a worker lost mid-way only costs its tasks being re-run. Memory: a few arrays of ``m``
values per running block, the history's indexes, and for UF up to 192 MB of exact item
co-occurrence rows.
"""

from __future__ import annotations

import math

import numpy as np
import scipy.sparse as sp

from .._distributed import check_client
from .._validation import check_item_sets, check_on_undefined, check_top_k, undefined
from ..run import contains
from .similarity import UserSimilarity, genre_distributions, sim_js

__all__ = ["puf", "sd_ind", "gini_ind", "mean_envy_user", "mean_max_envy_user", "peu", "uf", "uf_details",
           "utility_matrix", "envy_matrix", "NORMALIZATIONS", "PHI"]

#: Normalisations of PUF and ME: the library's default and the printed factor.
NORMALIZATIONS = ("mean", "printed")
#: Denominators of the utility phi: k (P@k) or the user's own ideal min(k, |R_u|).
PHI = ("k", "ideal")


# --------------------------------------------------------------------------------- input checks

def check_scores(scores, name: str = "scores", *, low=None, high=None, min_users: int = 2) -> np.ndarray:
    """Per-user values as a float 1-D array (NaN allowed: an undefined user), at least ``min_users`` of them."""
    arr = np.asarray(scores, dtype=np.float64)
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one value per user (a 1-D array); got shape {arr.shape}.")
    if arr.size < min_users:
        raise ValueError(f"user fairness compares users: {name} needs at least {min_users} users, got {arr.size}.")
    finite = arr[~np.isnan(arr)]
    if np.isinf(finite).any():
        raise ValueError(f"{name} has infinite values.")
    if low is not None and finite.size and finite.min() < low:
        raise ValueError(f"{name} must be >= {low}; found {finite.min():g}.")
    if high is not None and finite.size and finite.max() > high:
        raise ValueError(f"{name} must be <= {high}; found {finite.max():g} (scale the effectiveness to [0, 1]).")
    return arr


def _check_choice(value, choices, name):
    if value not in choices:
        raise ValueError(f"{name} must be one of {choices}; got {value!r}.")
    return value


def _undefined_users(name, arr, on_undefined):
    missing = int(np.isnan(arr).sum())
    if missing:
        return undefined(name, f"{missing} of {arr.size} users have no defined effectiveness (e.g. no relevant item)",
                         on_undefined)
    return None


def _source(similarity, m: int) -> UserSimilarity:
    if isinstance(similarity, UserSimilarity):
        if similarity.n_users != m:
            raise ValueError(f"similarity is for {similarity.n_users} users but there are {m}.")
        return similarity
    if isinstance(similarity, str):
        raise ValueError(f"similarity={similarity!r} needs the users' history: use the run (recfair.evaluate with "
                         "history=) or UserSimilarity.from_history(history, kind).")
    return UserSimilarity.from_matrix(similarity, m)


def pair_abs_diff_sum(scores) -> float:
    r""":math:`\sum_{u < u'} |S(u) - S(u')|` in :math:`O(m \log m)` (sorted: :math:`\sum_j (2j - m + 1) s_{(j)}`).

    >>> pair_abs_diff_sum([0.0, 1.0, 0.5])
    2.0
    """
    s = np.sort(np.asarray(scores, dtype=np.float64))
    m = s.size
    return float(np.dot(2 * np.arange(m) - m + 1, s))


# ------------------------------------------------------------------------------------------ PUF

def puf(scores, similarity, *, normalization: str = "mean", minmax: bool = False, block_size: int | None = None,
        on_undefined: str = "warn", client=None) -> float:
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
    scores : array-like of float, shape (m,)
        :math:`S(u) \in [0, 1]` per user (e.g. NDCG@k); NaN = undefined user.
    similarity : array-like or sparse (m, m), or :class:`~recfair.users.UserSimilarity`
        Symmetric similarity in [0, 1] (diagonal ignored). Lower is fairer either way.
    normalization : {"mean", "printed"}, default "mean"
        Mean over the unordered pairs, or the printed factor (twice that).
    minmax : bool, default False
        Min-max scale the similarity over the distinct pairs first (the paper does so for
        similarities computed from history; :func:`recfair.evaluate` turns it on for those).
        With no spread (e.g. two users) the similarity is left as it is.
    block_size : int, optional
        Users per block of pairs (a task on a cluster); the result does not depend on it.
    on_undefined : {"warn", "nan", "raise"}
        Policy when a user's effectiveness is undefined.
    client : dask.distributed.Client, optional
        Compute the blocks of pairs as tasks on this Dask cluster (same value); default: this machine.

    Returns
    -------
    float

    Examples
    --------
    Four users of the toy example (p5.md §5.9), P@2 and min-max scaled Jaccard similarity:

    >>> from recfair.users import user_similarity
    >>> sim = user_similarity([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], "jaccard", minmax=True)
    >>> round(puf([0.5, 0.5, 0.5, 0.0], sim), 4), round(puf([0.5, 0.5, 0.5, 0.0], sim, normalization="printed"), 4)
    (0.0417, 0.0833)
    """
    check_on_undefined(on_undefined)
    _check_choice(normalization, NORMALIZATIONS, "normalization")
    s = check_scores(scores, low=0.0, high=1.0)
    source = _source(similarity, s.size)
    check_client(client)
    bad = _undefined_users("PUF", s, on_undefined)
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
        weighted = (weighted - lo * pair_abs_diff_sum(s)) / (hi - lo)
    value = weighted / (m * (m - 1) / 2.0)
    return float(max(value, 0.0) * (2.0 if normalization == "printed" else 1.0))


# ------------------------------------------------------------------------------------ SD, Gini

def sd_ind(scores, *, on_undefined: str = "warn") -> float:
    r"""Population standard deviation of the per-user effectiveness (Paper 5's SD-P / SD-NDCG).

    .. math:: \mathrm{SD} = \sqrt{\frac1m \sum_{u \in U} \bigl(S(u) - \bar S\bigr)^2}

    Lower is fairer: 0 when every user gets the same effectiveness. Range [0, 0.5] for scores
    in [0, 1] (half the users at 0, half at 1). Ignores how similar users are.

    Examples
    --------
    >>> round(sd_ind([0.5, 0.5, 0.5, 0.0]), 4)
    0.2165
    """
    s = check_scores(scores)
    bad = _undefined_users("SD_ind", s, on_undefined)
    if bad is not None:
        return bad
    return float(np.std(s))


def gini_ind(scores, *, on_undefined: str = "warn") -> float:
    r"""Gini index of the per-user effectiveness (Paper 5's Gini-P / Gini-NDCG).

    .. math:: \mathrm{Gini} = \frac{\sum_{j=1}^{m} (2j - m - 1)\, x_{(j)}}{m \sum_{j=1}^{m} x_{(j)}}

    with :math:`x_{(1)} \le \dots \le x_{(m)}` the sorted scores. Lower is fairer. Range
    [0, (m-1)/m]; undefined when every score is 0 (0/0), handled by ``on_undefined``. It
    tracks the *level* of effectiveness as much as its disparity: halving every score leaves
    it unchanged, but one more user at 0 raises it.

    Examples
    --------
    >>> round(gini_ind([0.5, 0.5, 0.5, 0.0]), 4)
    0.25
    """
    s = check_scores(scores, low=0.0)
    bad = _undefined_users("Gini_ind", s, on_undefined)
    if bad is not None:
        return bad
    total = s.sum()
    if total <= 0:
        return undefined("Gini_ind", "every user's effectiveness is 0", on_undefined)
    x = np.sort(s)
    m = x.size
    return float(np.dot(2 * np.arange(1, m + 1) - m - 1, x) / (m * total))


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

    ``phi="ideal"`` divides by :math:`\min(k, |R_u|)` instead (a user without relevant items has 0).

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

    >>> envy_matrix([[0, 1], [2, 3]], relevant=[[1, 2], [3]], n_items=4).tolist()
    [[0.0, 0.0], [0.0, 0.0]]
    """
    util = utility_matrix(top_k, relevant=relevant, n_items=n_items, k=k, phi=phi)
    return np.maximum(util - np.diag(util)[:, None], 0.0)


def mean_envy_user(top_k, *, relevant, n_items: int, k: int | None = None, normalization: str = "mean",
                   phi: str = "k", block_size: int | None = None, client=None) -> float:
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
    resolves the inconsistency ME > 2 MME noted in p5.md §8 A4).

    Examples
    --------
    Toy example (p5.md §5.9): only user 3 is envious, of users 0 and 1, by 0.5 each.

    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> rel = [[3, 4], [2], [0, 5], [0, 1, 2]]
    >>> round(mean_envy_user(top, relevant=rel, n_items=6), 4)
    0.0833
    """
    top, rel = _lists_and_relevant(top_k, relevant, n_items, k)
    _check_choice(normalization, NORMALIZATIONS, "normalization")
    total, _ = _envy_stats(top, rel, phi, block_size, client)
    m = top.shape[0]
    return total / (m * (m - 1)) * (2.0 if normalization == "printed" else 1.0)


def mean_max_envy_user(top_k, *, relevant, n_items: int, k: int | None = None, phi: str = "k",
                       block_size: int | None = None, client=None) -> float:
    r"""Mean over users of their largest envy (user-side MME; Do et al. 2022) on the corrected utility.

    .. math:: \mathrm{MME}_{user} = \frac1m \sum_{u \in U} \max_{u' \in U} \mathrm{envy}(u, u')

    Lower is fairer; range [0, 1]. Not to be confused with Paper 2's item-side ``MME`` (Saito
    & Joachims' exposure-swap envy), a different measure. The thesis's reported MME values match
    this library's ``ME_user`` and its ME values this measure (see :func:`mean_envy_user`).

    Examples
    --------
    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> rel = [[3, 4], [2], [0, 5], [0, 1, 2]]
    >>> mean_max_envy_user(top, relevant=rel, n_items=6)
    0.125
    """
    top, rel = _lists_and_relevant(top_k, relevant, n_items, k)
    _, best = _envy_stats(top, rel, phi, block_size, client)
    return float(best.mean())


def peu(top_k, *, relevant, n_items: int, k: int | None = None, epsilon: float = 0.05, phi: str = "k",
        block_size: int | None = None, client=None) -> float:
    r"""Proportion of :math:`\varepsilon`-envious users (PEU; Do et al. 2022) on the corrected utility.

    .. math:: \mathrm{PEU} = \frac1m \sum_{u \in U} \mathbb{1}\bigl[\max_{u' \in U} \mathrm{envy}(u, u') > \varepsilon\bigr]

    Lower is fairer; range [0, 1]; :math:`\varepsilon \ge 0` (default 0.05, the paper's).

    Examples
    --------
    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> rel = [[3, 4], [2], [0, 5], [0, 1, 2]]
    >>> peu(top, relevant=rel, n_items=6)
    0.25
    """
    eps = float(epsilon)
    if not math.isfinite(eps) or eps < 0:
        raise ValueError(f"epsilon must be a finite number >= 0, got {epsilon!r}.")
    top, rel = _lists_and_relevant(top_k, relevant, n_items, k)
    _, best = _envy_stats(top, rel, phi, block_size, client)
    return float((best > eps).mean())


# -------------------------------------------------------------------------------------------- UF

def _uf_similarity(history, n_users, n_items, gamma, item_features, similarity):
    gamma = float(gamma)
    if not 0.0 <= gamma <= 1.0:
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}.")
    if not isinstance(similarity, str):
        if gamma != 1.0:
            raise ValueError("gamma mixes the similarities computed from history and item features; with a "
                             "precomputed similarity leave gamma=1 (mix them yourself).")
        return _source(similarity, n_users)
    if history is None:
        raise ValueError("UF needs the users' history (history=) or a precomputed similarity.")
    source = UserSimilarity.from_history(history, similarity, n_items=n_items)
    if source.n_users != n_users:
        raise ValueError(f"history has {source.n_users} users but top_k has {n_users}.")
    if gamma == 1.0:
        return source
    if item_features is None:
        raise ValueError("gamma < 1 mixes in the item-feature (e.g. genre) similarity: pass item_features=.")
    mixed = gamma * source.dense() + (1 - gamma) * sim_js(genre_distributions(history, item_features, n_items=n_items))
    return UserSimilarity.from_matrix(np.clip(mixed, 0.0, 1.0), n_users)


def uf_details(top_k, *, history=None, n_items: int, k: int | None = None, gamma: float = 1.0,
               similarity="jaccard", item_features=None, item_vectors=None, block_size: int | None = None,
               client=None) -> dict:
    r"""UF and its parts: ``{"UF", "sum", "threshold", "n_similar_pairs", "n_pairs", "log_base"}``.

    ``sum`` is :math:`\sum_{(u, u') \in U^*} \mathrm{sim}_{UF}(u, u')\, d_L(u, u')` over unordered
    pairs; UF is its logarithm to base ``n_pairs`` :math:`= m(m-1)/2`. See :func:`uf`.

    >>> d = uf_details([[3, 0], [2, 4], [4, 5], [3, 5]], history=[[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], n_items=6)
    >>> round(d["sum"], 4), d["n_similar_pairs"], round(d["UF"], 3)
    (0.3125, 1, -0.649)
    """
    top = check_top_k(top_k, n_items=n_items, k=k)
    m, kk = top.shape
    if m < 2:
        raise ValueError(f"user fairness compares users: at least 2 users are needed, got {m}.")
    source = _uf_similarity(history, m, n_items, gamma, item_features, similarity)
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


def uf(top_k, *, history=None, n_items: int, k: int | None = None, gamma: float = 1.0, similarity="jaccard",
       item_features=None, item_vectors=None, block_size: int | None = None, on_undefined: str = "warn",
       client=None) -> float:
    r"""Wu et al.'s distance-based UnFairness score (UF, 2023), as Paper 5 uses it.

    .. math::

        \mathrm{UF} = \log_{\binom m2} \sum_{(u, u') \in U^*} \mathrm{sim}_{UF}(u, u')\, d_L(u, u'),
        \qquad d_L(u, u') = \frac1{k^2} \sum_{i \in L_u} \sum_{i' \in L_{u'}} \bigl(1 - \cos(\vec i, \vec{i'})\bigr)

    with :math:`\mathrm{sim}_{UF} = \gamma\,\mathrm{sim}_{Jacc} + (1-\gamma)\,\mathrm{sim}_{JS}` (raw,
    not min-max scaled), :math:`U^*` the unordered pairs with :math:`\mathrm{sim}_{UF} \ge t`,
    :math:`t` = mean + population SD of :math:`\mathrm{sim}_{UF}` over the unordered pairs, item
    vectors :math:`\vec i` = the item's column of the binary history matrix (reading (a) of
    p5.md §8 A6; ``item_vectors=`` for others). Lower is fairer. Range :math:`(-\infty, 1]`:
    the paper's claimed [0, 1] needs the sum to be at least 1; a smaller sum gives a
    **negative** UF, and :math:`-\infty` when it is 0. UF ignores relevance entirely: similar
    users who get different but equally good items count as unfair.

    Parameters
    ----------
    top_k : array-like (m, k)
    history : lists or sparse (m, n_items)
        The users' train items: the similarity and the default item vectors.
    n_items, k : int
    gamma : float in [0, 1], default 1
        Weight of the Jaccard similarity; ``gamma < 1`` needs ``item_features`` (e.g. genres).
    similarity : "jaccard", "cosine" or a (m, m) matrix, default "jaccard"
        The user similarity; a matrix is used as :math:`\mathrm{sim}_{UF}` as it is.
    item_features : array (n_items, d), optional
    item_vectors : array or sparse (n_items, d), optional
    block_size : int, optional
        Users per block of pairs (a task on a cluster); the result does not depend on it.
    on_undefined : {"warn", "nan", "raise"}
        Two users have a single pair: the log base 1 makes UF undefined.
    client : dask.distributed.Client, optional
        Compute the blocks of pairs as tasks on this Dask cluster (same value); default: this machine.

    Examples
    --------
    Toy example (p5.md §5.9): one pair is similar enough, its weighted distance 0.3125 < 1.

    >>> top = [[3, 0], [2, 4], [4, 5], [3, 5]]
    >>> round(uf(top, history=[[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], n_items=6), 3)
    -0.649
    """
    check_on_undefined(on_undefined)
    details = uf_details(top_k, history=history, n_items=n_items, k=k, gamma=gamma, similarity=similarity,
                         item_features=item_features, item_vectors=item_vectors, block_size=block_size,
                         client=client)
    if math.isnan(details["UF"]):
        return undefined("UF", "with 2 users there is one pair and the log base m(m-1)/2 is 1", on_undefined)
    return details["UF"]
