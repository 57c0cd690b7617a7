"""Fair re-rankers of the thesis: COMBMNZ (Paper 2 §3, Paper 4 §5), Borda Count and the
modified Greedy Substitution (Paper 4 §5).

COMBMNZ (:func:`combmnz`) and Borda Count (:func:`borda`) work **per user** on the user's
top-``k_prime`` items (``k_prime`` = 25 in the thesis) of an already trained recommender
and fuse two orderings of those items:

* **A, relevance**: the items in the original ranking order (stable descending sort of the
  predicted scores, ties to the lower item index, see :mod:`recfair.ranking`);
* **B, fairness**: the same items by *increasing coverage*, ties by ascending item index,
  where the coverage of an item is the number of users that have it in the top-``k`` of
  the **original** ranking (items only at ranks ``k+1 .. k_prime`` have coverage 0).

The new top-``k`` is the head of the fused order. Every computation is vectorised over
users: ``O(m k' log k')`` for the fusion plus one stable sort per user for the full ranking.
Greedy Substitution (:func:`greedy_substitution`) instead swaps over-exposed items for
under-exposed ones across all users, cheapest relevance loss first.

Full ranking
------------
Both functions also return the new **full ranking** of all ``n`` items (the thesis uses it
for IAA and IFD of re-ranked runs): the stable descending sort of the fused score, where
items that received no fused score get 0 and therefore follow in item-index order (this
is the authors' code, see :func:`combmnz`). Items excluded from the input (score
``-inf``, i.e. history items) are put at the very bottom, in index order, by default
(``excluded_last=True``, the library's ranking rule). ``excluded_last=False`` leaves them
among the zero-score items in index order, as the authors' code did.
"""

from __future__ import annotations

import dataclasses
import math
import statistics
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from .._validation import check_positive_int, check_scores
from ..ranking import full_ranking, top_k_from_scores

__all__ = ["Reranked", "combmnz", "borda", "greedy_substitution", "rerank_scores", "rerank_run", "METHODS"]

#: Re-rankers available through :func:`rerank_scores` / :func:`rerank_run`.
METHODS = ("combmnz", "borda", "greedy_substitution")


@dataclass(frozen=True, repr=False, eq=False)
class Reranked:
    """Output of a re-ranker.

    Attributes
    ----------
    top_k : numpy.ndarray of int64, shape (m, k)
        The re-ranked top-``k`` lists.
    ranking : numpy.ndarray of int64, shape (m, n)
        The re-ranked full ranking; ``ranking[:, :k] == top_k``.
    scores : numpy.ndarray of float64, shape (m, n)
        A score whose stable descending sort is ``ranking``: the fused score for CM/BC
        (excluded items at ``-inf`` when ``excluded_last=True``), ``n - position`` for GS.
    info : dict
        Diagnostics of the re-ranker (GS: candidate-set sizes and replacement counts).

    Examples
    --------
    >>> import numpy as np
    >>> out = rerank_scores(np.array([[0.9, 0.8, 0.1, 0.5]]), method="borda", k=2, k_prime=3)
    >>> isinstance(out, Reranked), out.top_k.shape
    (True, (1, 2))
    """

    top_k: np.ndarray
    ranking: np.ndarray
    scores: np.ndarray
    info: dict = field(default_factory=dict)

    @property
    def k(self) -> int:
        return int(self.top_k.shape[1])

    def __repr__(self) -> str:
        m, n = self.ranking.shape
        return f"Reranked(n_users={m}, n_items={n}, k={self.k})"


# ---- shared preparation -------------------------------------------------------------------
@dataclass(frozen=True)
class _Candidates:
    scores: np.ndarray      # (m, n) float64 input scores
    work_dtype: type        # float32 if the input was float32, else float64
    cand: np.ndarray        # (m, k') original top-k' items, in rank order (list A)
    cand_scores: np.ndarray  # (m, k') their scores, in work_dtype
    cand_cov: np.ndarray    # (m, k') their coverage (top-k counts of the original ranking)
    cov: np.ndarray         # (n,) coverage of every item
    pos_b: np.ndarray       # (m, k') position of each candidate in list B (0-based)


def _prepare(scores, k, k_prime) -> _Candidates:
    raw = np.asarray(scores)
    work_dtype = np.float32 if raw.dtype == np.float32 else np.float64
    arr = check_scores(raw, n_users=None, n_items=None)
    m, n = arr.shape
    k = check_positive_int(k, "k")
    k_prime = check_positive_int(k_prime, "k_prime")
    if k > k_prime:
        raise ValueError(f"k={k} exceeds k_prime={k_prime}: the re-ranked list is cut from the top-k_prime.")
    if k_prime > n:
        raise ValueError(f"k_prime={k_prime} exceeds n_items={n}.")
    if m:
        left = np.isfinite(arr).sum(axis=1)
        short = np.flatnonzero(left < k_prime)
        if short.size:
            u = int(short[0])
            raise ValueError(
                f"user at row {u} has only {int(left[u])} items with a finite score (not -inf), "
                f"fewer than k_prime={k_prime} ({short.size} user(s) affected)."
            )
    cand = top_k_from_scores(arr, k=k_prime)  # (m, k'), the library's tie rule
    cand_scores = np.take_along_axis(arr, cand, axis=1).astype(work_dtype)
    cov = np.bincount(cand[:, :k].ravel(), minlength=n)
    cand_cov = cov[cand]
    # list B: increasing coverage, ties by ascending item index
    order_b = np.lexsort((cand, cand_cov), axis=1)
    pos_b = np.empty_like(order_b)
    np.put_along_axis(pos_b, order_b, np.broadcast_to(np.arange(k_prime), order_b.shape), axis=1)
    return _Candidates(arr, work_dtype, cand, cand_scores, cand_cov, cov, pos_b)


def _minmax(values: np.ndarray, dtype) -> np.ndarray:
    """Min-max normalise with the global min and max of ``values``; a constant array gives 0."""
    values = values.astype(dtype, copy=False)
    if values.size == 0:
        return values
    lo, hi = values.min(), values.max()
    if hi == lo:
        return np.zeros_like(values)
    return (values - lo) / (hi - lo)


def _check_excluded_last(excluded_last) -> bool:
    if not isinstance(excluded_last, (bool, np.bool_)):
        raise TypeError(f"excluded_last must be a bool, got {type(excluded_last).__name__} {excluded_last!r}.")
    return bool(excluded_last)


def _finish(c: _Candidates, fused: np.ndarray, k: int, *, fill: float, excluded_last: bool) -> Reranked:
    m, n = c.scores.shape
    full = np.full((m, n), fill, dtype=np.float64)
    np.put_along_axis(full, c.cand, fused.astype(np.float64), axis=1)
    if excluded_last:
        full[np.isneginf(c.scores)] = -np.inf
    ranking = full_ranking(full)
    return Reranked(top_k=np.ascontiguousarray(ranking[:, :k]), ranking=ranking, scores=full)


# ---- COMBMNZ --------------------------------------------------------------------------------
def combmnz(scores, *, k: int = 10, k_prime: int = 25, score_only_top: int | None = None,
            excluded_last: bool = True) -> Reranked:
    """COMBMNZ (CM) fair re-ranking of each user's top-``k_prime`` items (thesis Paper 2 §3).

    For user ``u`` let ``T_u`` be the original top-``k_prime`` (stable descending sort of
    ``scores``). Two scored lists of the same items are fused:

    * A (relevance): ``s_A(i) = (s(u,i) - min) / (max - min)``, with ``min``/``max`` taken
      **globally** over the scores of all users' ``T_u`` (not per user);
    * B (fairness): ``T_u`` by increasing coverage (ties: ascending item index), with
      ``s_B(i) = 1 - (cov(i) - min) / (max - min)``, ``cov(i)`` = number of users with ``i``
      in their original top-``k``, ``min``/``max`` global over all users' ``T_u`` items.

    The fused score is ``(s_A + s_B) * #{nonzero among s_A, s_B}`` (CombMNZ, Lee 1997).
    The new full ranking is the stable descending sort of the fused score over all items,
    items without a fused score counting as 0 (so they, and candidates whose fused score
    is exactly 0, follow in item-index order); the new top-``k`` is its head.

    Two modes (the difference matters, the published numbers use the second):

    * ``score_only_top=None`` (default) -- **the thesis text**: every one of the
      ``k_prime`` entries of both lists is scored.
    * ``score_only_top=k`` -- **the authors' code, i.e. the published CM runs** (Paper 2
      Table 3, Paper 4): only the first ``score_only_top`` entries of each list get a score
      (the helper used the global ``k=10``), entries further down a list contribute 0 from
      that list. An item in neither truncated list gets fused score 0.

    Normalisation is done in the precision of ``scores`` (float32 for
    :class:`~recfair.recommenders.RecRun` scores, as the authors' torch code did) so that
    ties between fused scores match. A constant score (or coverage) range normalises to 0.

    Parameters
    ----------
    scores : array-like of float, shape (m, n)
        Predicted scores, ``-inf`` for excluded (history) items. Every user needs at least
        ``k_prime`` finite scores.
    k : int, default 10
        Cut-off of the re-ranked list, and the depth at which coverage is counted.
    k_prime : int, default 25
        Re-ranking depth, ``k <= k_prime <= n``.
    score_only_top : int or None, default None
        ``None``: thesis text; an int ``t`` (``1 <= t <= k_prime``): only the first ``t``
        entries of each list are scored (``t = k`` reproduces the published runs).
    excluded_last : bool, default True
        Put ``-inf`` items at the bottom of the full ranking (library rule). ``False``
        reproduces the authors' full ranking, where they sit among the zero-score items in
        index order.

    Returns
    -------
    Reranked
        ``top_k`` (m, k), ``ranking`` (m, n) and the fused ``scores`` (m, n).

    Notes
    -----
    If some of a user's candidates get fused score 0 (only with ties at the global minimum
    score and maximum coverage, or when ``score_only_top`` leaves fewer than ``k`` scored
    items), the top-``k`` can contain items outside ``T_u``: zero-score items are ordered
    by index, exactly as in the authors' code.

    >>> import numpy as np
    >>> s = np.array([[.9, .8, .7, .1], [.9, .8, .1, .7]])
    >>> combmnz(s, k=1, k_prime=3).top_k
    array([[1],
           [1]])
    """
    if score_only_top is not None:
        score_only_top = check_positive_int(score_only_top, "score_only_top")
    c = _prepare(scores, k, k_prime)
    if score_only_top is not None and score_only_top > k_prime:
        raise ValueError(f"score_only_top={score_only_top} exceeds k_prime={k_prime}.")
    excluded_last = _check_excluded_last(excluded_last)
    dt = c.work_dtype
    s_a = _minmax(c.cand_scores, dt)
    s_b = (dt(1) - _minmax(c.cand_cov, dt)).astype(dt)
    if score_only_top is not None:
        pos_a = np.arange(c.cand.shape[1])[None, :]
        s_a = np.where(pos_a < score_only_top, s_a, dt(0))
        s_b = np.where(c.pos_b < score_only_top, s_b, dt(0))
    multiplier = (s_a != 0).astype(np.int64) + (s_b != 0).astype(np.int64)
    fused = (s_a + s_b).astype(np.float64) * multiplier
    return _finish(c, fused, int(k), fill=0.0, excluded_last=excluded_last)


# ---- Borda count ----------------------------------------------------------------------------
def borda(scores, *, k: int = 10, k_prime: int = 25, excluded_last: bool = True) -> Reranked:
    """Borda Count (BC) fair re-ranking of each user's top-``k_prime`` items (thesis Paper 4 §5).

    The same two lists as :func:`combmnz` (A: original order of the top-``k_prime``; B: the
    same items by increasing top-``k`` coverage, ties by ascending item index). Position
    ``p`` (1-based) of a list earns ``k_prime - p`` points (``k_prime - 1`` for the first,
    0 for the last); an item's score is the sum over both lists. The new order sorts by
    points, descending, ties by ascending item index (the authors' code); the top-``k`` is
    its head.

    Full ranking (as the authors' code; not stated in the thesis): the stable descending
    sort of the points over all items, non-candidates having 0 points, so they follow in
    index order (a candidate last in both lists also has 0 points and joins them; with
    ``k < k_prime`` it is never in the top-``k``). With ``excluded_last=True`` the excluded
    (``-inf``) items come last, in index order.

    >>> import numpy as np
    >>> s = np.array([[.9, .8, .7, .1], [.9, .8, .1, .7]])
    >>> borda(s, k=1, k_prime=3).top_k
    array([[1],
           [1]])
    """
    c = _prepare(scores, k, k_prime)
    excluded_last = _check_excluded_last(excluded_last)
    kp = c.cand.shape[1]
    points = (kp - 1 - np.arange(kp))[None, :] + (kp - 1 - c.pos_b)
    return _finish(c, points.astype(np.float64), int(k), fill=0.0, excluded_last=excluded_last)


# ---- Greedy substitution --------------------------------------------------------------------
def greedy_substitution(scores, *, k: int = 10, k_prime: int = 25, beta: float = 0.05,
                        fraction: float = 0.25) -> Reranked:
    """Modified Greedy Substitution (GS) of Wang et al. 2022 (thesis Paper 4 §5, authors' code).

    Unlike CM and BC, GS works jointly over all users, with all items in one cluster:

    1. Coverage ``cov(i)`` = number of users with ``i`` in the original top-``k``, for the
       items in some user's top-``k_prime`` (items only at ranks ``k+1 .. k_prime`` have 0).
    2. With ``avg``/``max`` the mean/maximum of these coverages,
       ``sup = min(floor(avg + beta * max), max)`` and ``inf = sup - beta * max``;
       ``C+ = {cov > sup}`` (to replace), ``C- = {cov < inf}`` (replacements). If ``C+`` is
       empty it becomes the remaining items with ``cov != inf``; otherwise, if ``C-`` is
       empty, ``C-`` does (the authors' ``if/elif``: when both are empty only ``C+`` is filled).
    3. For every pair ``(i, i')`` in ``C+ x C-`` (ascending item indices) the user with ``i``
       in the top-``k`` and ``i'`` not in the top-``k`` that loses the least predicted score
       ``s(u,i) - s(u,i')`` is kept (first such user on ties). Users for whom ``i'`` is
       excluded (``-inf``) are not eligible (a guard the authors' code did not need).
    4. Entries are sorted by loss (stable) and the first ``round(fraction * m * k)`` are
       applied in order: if ``i`` is still in ``u``'s top-``k``, ``i`` and ``i'`` swap
       places in ``u``'s full ranking (``i'`` takes ``i``'s slot, ``i`` goes to ``i'``'s
       former position); otherwise the entry is skipped.

    The original full ranking is the library's (stable descending sort, excluded items
    last); the result's ``top_k`` is the head of the modified full ranking. The pair search
    is vectorised per item of ``C+``; the replacements are a loop over at most
    ``round(fraction * m * k)`` entries.

    Returns
    -------
    Reranked
        ``scores`` is ``n - position`` (excluded items ``-inf``), so that its stable
        descending sort is ``ranking``; ``info`` has the sizes of ``C+``/``C-``, the
        thresholds, the number of pairs, attempted and applied replacements.

    Examples
    --------
    >>> import numpy as np
    >>> scores = np.random.default_rng(0).random((6, 8))
    >>> greedy_substitution(scores, k=2, k_prime=4).top_k.shape
    (6, 2)
    """
    c = _prepare(scores, k, k_prime)
    k = int(k)
    if isinstance(beta, bool) or not isinstance(beta, (int, float, np.integer, np.floating)) \
            or not np.isfinite(beta) or beta < 0:
        raise ValueError(f"beta must be a finite number >= 0, got {beta!r}.")
    if isinstance(fraction, bool) or not isinstance(fraction, (int, float, np.integer, np.floating)) \
            or not 0 <= fraction <= 1:
        raise ValueError(f"fraction must be a number in [0, 1], got {fraction!r}.")
    arr = c.scores
    m, n = arr.shape
    ranking = full_ranking(arr)
    info = {"c_plus": 0, "c_minus": 0, "sup": None, "inf": None, "pairs": 0, "attempted": 0, "replaced": 0}
    if m == 0:
        return Reranked(np.zeros((0, k), dtype=np.int64), ranking, np.zeros((0, n)), info)

    items = np.unique(c.cand)
    cov_items = c.cov[items]
    cov_avg = statistics.mean(cov_items.tolist())
    cov_max = int(cov_items.max())
    sup = min(math.floor(cov_avg + beta * cov_max), cov_max)
    inf = sup - beta * cov_max
    plus = items[cov_items > sup]
    minus = items[cov_items < inf]
    if plus.size == 0 or minus.size == 0:
        rest = items[(cov_items <= sup) & (cov_items >= inf)]
        rest = rest[c.cov[rest] != inf]
        if plus.size == 0:
            plus = rest
        else:
            minus = rest
    info.update(c_plus=int(plus.size), c_minus=int(minus.size), sup=sup, inf=inf)

    # which users hold which items in their original top-k (CSC: users of an item, ascending)
    topk = ranking[:, :k]
    member = sp.csr_matrix((np.ones(m * k, dtype=bool), topk.ravel(), np.arange(0, m * k + 1, k)),
                           shape=(m, n))
    by_item = member.tocsc()
    dt = c.work_dtype
    ent_u, ent_i, ent_ip, ent_loss = [], [], [], []
    if plus.size and minus.size:
        for i in plus.tolist():
            users = by_item.indices[by_item.indptr[i]:by_item.indptr[i + 1]]
            users = np.sort(users)
            if users.size == 0:
                continue
            loss = arr[users, i].astype(dt)[:, None] - arr[np.ix_(users, minus)].astype(dt)
            blocked = member[users][:, minus].toarray() | np.isneginf(arr[np.ix_(users, minus)])
            loss = np.where(blocked, np.inf, loss)
            ok = ~blocked.all(axis=0)
            best = np.argmin(loss, axis=0)  # first user on ties
            cols = np.flatnonzero(ok)
            ent_u.append(users[best[cols]])
            ent_i.append(np.full(cols.size, i, dtype=np.int64))
            ent_ip.append(minus[cols])
            ent_loss.append(loss[best[cols], cols])
    if ent_u:
        ent_u, ent_i, ent_ip = (np.concatenate(x) for x in (ent_u, ent_i, ent_ip))
        ent_loss = np.concatenate(ent_loss)
    else:
        ent_u = ent_i = ent_ip = np.zeros(0, dtype=np.int64)
        ent_loss = np.zeros(0, dtype=dt)
    info["pairs"] = int(ent_u.size)
    budget = round(fraction * m * k)
    chosen = np.argsort(ent_loss, kind="stable")[:budget]
    info["attempted"] = int(chosen.size)

    positions = {}
    replaced = 0
    for e in chosen.tolist():
        u, i, ip = int(ent_u[e]), int(ent_i[e]), int(ent_ip[e])
        pos = positions.get(u)
        if pos is None:
            pos = np.empty(n, dtype=np.int64)
            pos[ranking[u]] = np.arange(n)
            positions[u] = pos
        p_i, p_ip = pos[i], pos[ip]
        if p_i >= k:
            continue  # i already left u's top-k through an earlier replacement
        ranking[u, p_i], ranking[u, p_ip] = ip, i
        pos[i], pos[ip] = p_ip, p_i
        replaced += 1
    info["replaced"] = replaced

    rank_scores = np.empty((m, n), dtype=np.float64)
    np.put_along_axis(rank_scores, ranking, np.arange(n, 0, -1, dtype=np.float64)[None, :].repeat(m, 0), axis=1)
    rank_scores[np.isneginf(arr)] = -np.inf
    return Reranked(np.ascontiguousarray(ranking[:, :k]), ranking, rank_scores, info)


# ---- dispatch -------------------------------------------------------------------------------
_FUNCS = {"combmnz": combmnz, "cm": combmnz, "borda": borda, "bc": borda,
          "greedy_substitution": greedy_substitution, "gs": greedy_substitution}


def rerank_scores(scores, *, method: str = "combmnz", **kwargs) -> Reranked:
    """Re-rank with ``method``: ``"combmnz"``/``"cm"``, ``"borda"``/``"bc"`` or
    ``"greedy_substitution"``/``"gs"`` (case-insensitive).

    Examples
    --------
    >>> import numpy as np
    >>> rerank_scores(np.array([[0.9, 0.8, 0.1, 0.5], [0.9, 0.8, 0.5, 0.1]]), method="combmnz", k=2,
    ...               k_prime=3).top_k.shape
    (2, 2)
    """
    if not isinstance(method, str) or method.lower() not in _FUNCS:
        raise ValueError(f"method must be one of {sorted(_FUNCS)}, got {method!r}.")
    return _FUNCS[method.lower()](scores, **kwargs)


def rerank_run(rec_run, *, method: str = "combmnz", k: int | None = None, **kwargs):
    """A re-ranked copy of a :class:`~recfair.recommenders.RecRun` (which must store scores).

    The copy's ``top_k`` is the re-ranked list, its ``scores`` the fused scores (float64,
    history items at ``-inf``), so that ``.to_run()`` gives a :class:`~recfair.run.Run`
    whose full ranking is the re-ranked one. ``k`` defaults to the run's ``k``; the other
    keyword arguments go to the re-ranker (``k_prime``, ``score_only_top``). The run's
    ``info["rerank"]`` records the settings.

    >>> # rr = rerank_run(produce_run("bpr", split), "combmnz", k_prime=25, score_only_top=10)
    """
    if getattr(rec_run, "scores", None) is None:
        raise ValueError("rerank_run needs a run with stored scores (produce_run(..., store_scores=True)).")
    if kwargs.get("excluded_last", True) is not True:
        raise ValueError("rerank_run keeps history items last (excluded_last=True); call combmnz/borda "
                         "directly for the authors' full ranking.")
    k = rec_run.k if k is None else k
    out = rerank_scores(rec_run.scores, method=method, k=k, **kwargs)
    info = dict(rec_run.info)
    info["rerank"] = {"method": method.lower(), "k": int(k), **{key: val for key, val in kwargs.items()}}
    return dataclasses.replace(rec_run, top_k=out.top_k, scores=out.scores, info=info)


#: The reference recommenders of Papers 2-3 as this book reruns them (no Random: the thesis has none).
PAPER23_MODELS = ("pop", "itemknn", "bpr", "als", "ease")


def paper23_runs(datasets=("lastfm", "ml-100k"), models=PAPER23_MODELS, *, k: int = 10,
                 k_prime: int = 25, score_only_top: int | None = 10, seed: int = 2020,
                 with_base: bool = False):
    """The runs of the book's Part II: every model with and without COMBMNZ on each dataset.

    Each dataset is split with the protocol of Papers 2 and 3
    (``load_split(name, protocol="paper2", seed=seed)``), each model's run comes from
    :func:`~recfair.recommenders.produce_run` (so from the on-disk cache after the first
    call), and its top ``k_prime`` is re-ranked with :func:`combmnz` in the mode of the
    published runs (``score_only_top``). Returns a dict ``(dataset, run name) ->``
    :class:`~recfair.run.Run` with run names ``model`` and ``model-CM``; with
    ``with_base=True`` also the dict ``(dataset, model) ->`` the un-reranked
    :class:`~recfair.recommenders.RecRun` (which keeps the training history), as
    ``(runs, base)``.

    >>> # runs = paper23_runs(); runs["lastfm", "itemknn-CM"].n_users
    """
    from ..datasets import load_split
    from . import produce_run

    if isinstance(datasets, str) or isinstance(models, str):
        raise TypeError("datasets and models must be sequences of names, not one string.")
    check_positive_int(k, "k")
    base = {}
    for name in datasets:
        split = load_split(name, protocol="paper2", seed=seed)
        for model in models:
            base[name, model] = produce_run(model, split, k=k)
    runs = {}
    for (name, model), rec in base.items():
        reranked = rerank_run(rec, method="combmnz", k=k, k_prime=k_prime, score_only_top=score_only_top)
        runs[name, model], runs[name, f"{model}-CM"] = rec.to_run(), reranked.to_run()
    return (runs, base) if with_base else runs


def measure_on_runs(runs, keys, *, k: int = 10):
    """Score ``keys`` on every run and place each score inside its achievable range.

    ``runs`` is a dict ``(dataset, run name) -> Run`` (as :func:`paper23_runs` returns). For
    each run and measure the frame holds the score at ``k``, the measure's fairest and most
    unfair achievable scores for that run's users
    (``REGISTRY[key].bounds(m, n, k, n_relevant=...)``; NaN where no closed form is known)
    and ``position``: where the score lies between them, 0 at the fairest end and 1 at the
    most unfair one. Rows are indexed by ``(dataset, run)``, columns by ``(measure, field)``.

    >>> # measure_on_runs(paper23_runs(), ["IAA_ori", "IAA_our"]).round(3)
    """
    import pandas as pd

    from ..engine import evaluate
    from ..registry import REGISTRY

    if isinstance(keys, str):
        keys = [keys]
    unknown = [key for key in keys if key not in REGISTRY]
    if unknown:
        raise ValueError(f"unknown measure(s) {unknown}.")
    if not isinstance(runs, dict) or not runs:
        raise TypeError("runs must be a non-empty dict (dataset, run name) -> Run.")
    check_positive_int(k, "k")
    rows = {}
    for label, run in runs.items():
        scores = evaluate(run.ranking[:, :k], n_items=run.n_items, measures=list(keys),
                          relevant=run.relevant, ranking=run.ranking, on_undefined="nan")
        row = {}
        for key in keys:
            ends = REGISTRY[key].bounds(run.n_users, run.n_items, k, n_relevant=run.n_relevant)
            fair, unfair = (np.nan, np.nan) if ends is None else (ends.most_fair, ends.most_unfair)
            span = unfair - fair
            row[key, "score"], row[key, "fairest"], row[key, "most unfair"] = scores[key], fair, unfair
            row[key, "position"] = (scores[key] - fair) / span if span else np.nan
        rows[label] = row
    frame = pd.DataFrame(rows).T
    frame.index.names = ["dataset", "run"]
    return frame
