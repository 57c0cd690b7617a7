"""The generators of thesis Paper 1: MostFair/MostUnfair, sliding windows, insertion.

This module builds the artificial recommendations of the experiments in thesis Chapter 2 (Paper 1, Rampisela et al., TORS 2024):

* Exp. 3, max/min achievable fairness (Paper 1, Empirical Analysis, Max/min Achievable Fairness): the MostFair and
  MostUnfair recommenders, in the *repeatable* setting (:func:`most_fair_top_k`,
  :func:`most_unfair_top_k`) and the *non-repeatable* one, where a user's train/validation
  items may not be recommended (:func:`most_fair_top_k_nonrepeatable`,
  :func:`most_unfair_top_k_nonrepeatable`);
* Exp. 4, sliding window over rank positions (Paper 1, Empirical Analysis, Sliding Window): :func:`sliding_windows`;
* Exp. 5, artificial insertion of least-exposed relevant items, and its reverse with
  most-exposed irrelevant items (Paper 1, Empirical Analysis, Artificial Insertion of Items, and the appendix's extended
  insertion results):
  :func:`insertion_top_k`, :func:`insertion_steps`, :func:`insertion_relevant`.

Every generator is deterministic. Items and users are 0-based; top-k arrays are
``(n_users, k)`` int64 in rank order.
"""

from __future__ import annotations

from bisect import bisect_left
from heapq import heappop, heappush

import numpy as np
import scipy.sparse as sp

from .._validation import _as_int_matrix, check_item_sets, check_positive_int

__all__ = [
    "most_fair_top_k", "most_unfair_top_k",
    "most_fair_top_k_nonrepeatable", "most_unfair_top_k_nonrepeatable", "popularity_order",
    "sliding_windows",
    "insertion_top_k", "insertion_steps", "insertion_relevant", "insertion_scores",
]


# ---------------------------------------------------------------------------------------------
# Exp. 3 (Paper 1, Max/min Achievable Fairness): MostFair / MostUnfair recommenders
# ---------------------------------------------------------------------------------------------

def _check_k_le_n(k: int, n_items: int) -> None:
    if k > n_items:
        raise ValueError(f"k={k} exceeds n_items={n_items}: a top-k list cannot hold more items than exist.")


def most_unfair_top_k(n_users: int, n_items: int, k: int, *, items=None) -> np.ndarray:
    """Repeatable MostUnfair: the same ``k`` items, in the same order, for every user.

    Paper 1, Exp. 3 (Max/min Achievable Fairness): "Repeatable MostUnfair recommends the
    same ``k`` items to each user". It attains the achievable most unfair value @k of
    every corrected measure (Paper 1's table of achievable scores); every item of ``items`` is recommended
    ``n_users`` times and every other item never.

    Parameters
    ----------
    n_users : int
        Number of users ``m`` (rows), ``>= 0``.
    n_items : int
        Catalogue size ``n``.
    k : int
        Cut-off, ``1 <= k <= n_items``.
    items : sequence of int, optional
        The items to recommend, in rank order; at least ``k`` distinct indices in
        ``[0, n_items)``, of which the first ``k`` are used (the authors' code truncated one
        list of 20 items to each ``k``; which items they are is arbitrary there). Default
        ``0, 1, ..., k-1``.

    Returns
    -------
    numpy.ndarray of int64, shape (n_users, k)

    Examples
    --------
    >>> most_unfair_top_k(3, 10, 2)
    array([[0, 1],
           [0, 1],
           [0, 1]])
    >>> most_unfair_top_k(2, 10, 2, items=[7, 3, 5])
    array([[7, 3],
           [7, 3]])
    """
    n_users = check_positive_int(n_users, "n_users", minimum=0)
    n_items, k = check_positive_int(n_items, "n_items"), check_positive_int(k, "k")
    _check_k_le_n(k, n_items)
    if items is None:
        row = np.arange(k, dtype=np.int64)
    else:
        arr = np.asarray(items)
        if arr.ndim != 1 or (arr.size and not np.issubdtype(arr.dtype, np.integer)):
            raise TypeError(f"items must be a 1-D sequence of integer item indices, got {arr!r}.")
        if arr.size < k:
            raise ValueError(f"items holds {arr.size} items but k={k}.")
        row = arr[:k].astype(np.int64)
        if row.min() < 0 or row.max() >= n_items:
            raise ValueError(f"items holds indices outside [0, n_items={n_items}): {row.tolist()}.")
        if np.unique(row).size < k:
            raise ValueError(f"items must be distinct; the first k={k} are {row.tolist()}.")
    return np.tile(row, (n_users, 1))


def most_fair_top_k(n_users: int, n_items: int, k: int) -> np.ndarray:
    """Repeatable MostFair: round-robin over the catalogue, user ``u`` gets ``(u*k + j) mod n``.

    Paper 1, Exp. 3 (Max/min Achievable Fairness): every item is recommended equally often,
    or, when ``n`` does not divide ``km``, ``floor(km/n)`` or ``floor(km/n) + 1`` times. As
    in the authors' code (``04_most_fair_unfair.ipynb``), the item list is repeated,
    truncated to ``km`` slots and reshaped to ``(m, k)``; here the list is ``0..n-1``, so
    the first ``km mod n`` items get the extra slot. Rows never repeat an item since
    ``k <= n``. Gini-w depends on which rank each item gets; this is the authors'
    round-robin assignment, not a Gini-w-optimal one (the book's chapter :ref:`p1-experiments`).

    Parameters
    ----------
    n_users : int
        Number of users ``m``, ``>= 0``.
    n_items : int
        Catalogue size ``n``.
    k : int
        Cut-off, ``1 <= k <= n_items``.

    Returns
    -------
    numpy.ndarray of int64, shape (n_users, k)

    Examples
    --------
    >>> most_fair_top_k(3, 5, 2)
    array([[0, 1],
           [2, 3],
           [4, 0]])
    >>> np.bincount(most_fair_top_k(3, 5, 2).ravel(), minlength=5)  # km = 6 slots, n = 5
    array([2, 1, 1, 1, 1])
    """
    n_users = check_positive_int(n_users, "n_users", minimum=0)
    n_items, k = check_positive_int(n_items, "n_items"), check_positive_int(k, "k")
    _check_k_le_n(k, n_items)
    slots = np.arange(n_users, dtype=np.int64)[:, None] * k + np.arange(k, dtype=np.int64)
    return slots % n_items


def popularity_order(popularity) -> np.ndarray:
    """Items in increasing popularity, ties by item index (a stable sort).

    The global order of the non-repeatable recommenders of Exp. 3 (as in the authors' code):
    items never seen in train/validation (popularity 0) come first.

    >>> popularity_order([3, 0, 1, 0])
    array([1, 3, 2, 0])
    """
    pop = _check_popularity(popularity, None)
    return np.argsort(pop, kind="stable").astype(np.int64)


def _check_popularity(popularity, n_items) -> np.ndarray:
    pop = np.asarray(popularity)
    if pop.dtype == bool or not (np.issubdtype(pop.dtype, np.integer) or np.issubdtype(pop.dtype, np.floating)):
        raise TypeError(f"popularity must be numeric, got dtype {pop.dtype}.")
    if pop.ndim != 1:
        raise ValueError(f"popularity must be 1-D (one value per item), got shape {pop.shape}.")
    if n_items is not None and pop.size != n_items:
        raise ValueError(f"popularity has {pop.size} entries but n_items={n_items}.")
    if pop.size and (not np.all(np.isfinite(pop)) or pop.min() < 0):
        bad = pop[~np.isfinite(pop) | (pop < 0)][:5]
        raise ValueError(f"popularity must be finite and >= 0, found {bad.tolist()}.")
    return pop


def _nonrepeatable_inputs(history, n_items, k, popularity):
    """Validate the shared inputs; return (history CSR, k, popularity order)."""
    n_items, k = check_positive_int(n_items, "n_items"), check_positive_int(k, "k")
    _check_k_le_n(k, n_items)
    if sp.issparse(history) or (isinstance(history, np.ndarray) and history.ndim == 2 and history.dtype == bool):
        n_users = history.shape[0]
        if history.shape[1] != n_items:
            raise ValueError(
                f"history has shape {history.shape}; expected (n_users, n_items) with n_items={n_items}."
            )
    else:
        try:
            n_users = len(history)
        except TypeError:
            raise TypeError(
                "history must be a scipy.sparse matrix (n_users, n_items), a boolean array, or a "
                f"sequence of per-user item sequences; got {type(history).__name__}."
            ) from None
    hist = check_item_sets(history, n_users=n_users, n_items=n_items, name="history")
    deg = np.diff(hist.indptr)
    short = np.flatnonzero(n_items - deg < k)
    if short.size:
        u = int(short[0])
        raise ValueError(
            f"user {u} has only {n_items - int(deg[u])} recommendable items (n_items={n_items} minus "
            f"{int(deg[u])} history items) but k={k}; {short.size} user(s) affected."
        )
    if popularity is None:
        pop = np.asarray(hist.sum(axis=0)).ravel()
    else:
        pop = _check_popularity(popularity, n_items)
    return hist, k, np.argsort(pop, kind="stable").astype(np.int64)


def most_unfair_top_k_nonrepeatable(history, *, n_items: int, k: int, popularity=None) -> np.ndarray:
    """Non-repeatable MostUnfair: the ``k`` globally least popular items each user may receive.

    Paper 1, Exp. 3 (Max/min Achievable Fairness): like repeatable MostUnfair, "but if any of
    those ``k`` items is a non-recommendable item, [it] is replaced by a recommendable item".
    How (the authors' code; the thesis leaves it open): one **global** order of increasing train+validation
    popularity; each user gets its first ``k`` items, skipping that user's history items.
    Items with popularity 0 (seen only in test) come first. Ties in popularity go to the
    lower item index (the authors' code used ``Counter.most_common`` order, an
    implementation detail; a stable sort is the deterministic choice here).

    Parameters
    ----------
    history : scipy.sparse matrix (n_users, n_items), bool array, or sequence of sequences of int
        Each user's train/validation items, which may not be recommended to that user.
    n_items : int
        Catalogue size ``n`` (all items of train, validation and test).
    k : int
        Cut-off, ``1 <= k <= n_items``.
    popularity : array-like of shape (n_items,), optional
        Train+validation popularity of each item (interaction counts). Default: the number
        of users with the item in ``history`` (the column sums), which is the same for
        deduplicated interactions when ``history`` covers every user.

    Returns
    -------
    numpy.ndarray of int64, shape (n_users, k)

    Raises
    ------
    ValueError
        If some user has fewer than ``k`` recommendable items, or on malformed inputs.

    Examples
    --------
    >>> most_unfair_top_k_nonrepeatable([[], [0], [2, 3]], n_items=5, k=2, popularity=[1, 4, 0, 2, 3])
    array([[2, 0],
           [2, 3],
           [0, 4]])
    """
    hist, k, order = _nonrepeatable_inputs(history, n_items, k, popularity)
    n = order.size
    m = hist.shape[0]
    rank_of = np.empty(n, dtype=np.int64)
    rank_of[order] = np.arange(n, dtype=np.int64)
    deg = np.diff(hist.indptr)
    entry_user = np.repeat(np.arange(m, dtype=np.int64), deg)
    entry_rank = rank_of[hist.indices]
    out = np.empty((m, k), dtype=np.int64)
    users = np.arange(m, dtype=np.int64)
    # look only at the first `width` ranks; users with too many history items there are redone
    # with a doubled window (popular items, which fill histories, sit at the end of the order)
    width = min(n, 2 * k)
    e_user, e_rank = entry_user, entry_rank
    while users.size:
        local = np.full(m, -1, dtype=np.int64)
        local[users] = np.arange(users.size)
        near = e_rank < width
        blocked = np.zeros((users.size, width), dtype=bool)
        blocked[local[e_user[near]], e_rank[near]] = True
        free = ~blocked
        done = free.sum(axis=1) >= k
        take = free[done] & (np.cumsum(free[done], axis=1) <= k)
        out[users[done]] = np.nonzero(take)[1].reshape(-1, k)
        users = users[~done]
        if users.size:
            pending = np.zeros(m, dtype=bool)
            pending[users] = True
            keep = pending[e_user]
            e_user, e_rank = e_user[keep], e_rank[keep]
            width = min(n, 2 * width)
    return order[out]


def most_fair_top_k_nonrepeatable(history, *, n_items: int, k: int, popularity=None) -> np.ndarray:
    """Non-repeatable MostFair: user by user, the ``k`` least exposed recommendable items.

    Paper 1, Exp. 3 (Max/min Achievable Fairness): "For one user at a time, we then recommend
    the least popular ``k`` recommendable items based on the current recommendation lists
    of all users", where an item is recommendable to a user unless it is in the user's
    train/validation split. Spec §8.3 [code] / §10.2 U7: the first user gets the first
    ``k`` recommendable items of the global increasing train+validation popularity order;
    every later user gets the ``k`` recommendable items with the smallest count in the lists
    built so far.

    **Tie-breaking** (underspecified in the thesis): in the authors' notebook equal counts
    fall to the iteration order of a Python ``collections.Counter``, an implementation detail
    of their code that does not follow the popularity order. Here ties go to the earlier
    item in the increasing-popularity order (popularity ties to the lower item index), so
    one rule serves every user, the first included; each list is in increasing (count,
    popularity rank) order, the least exposed item at rank 1. Without history this is the
    repeatable round-robin of :func:`most_fair_top_k` over the popularity order. Other
    tie-breaking changes which items end in which lists and at which rank, so counts-based
    measures can move slightly and Gini-w (rank-weighted) a little more.

    Runs in ``O((m k + h) log n)`` for ``h`` history items met while scanning (a heap keyed
    by (count, popularity rank), and a binary search in each user's sorted history row).

    Parameters
    ----------
    history : scipy.sparse matrix (n_users, n_items), bool array, or sequence of sequences of int
        Each user's train/validation items, which may not be recommended to that user.
    n_items : int
        Catalogue size ``n``.
    k : int
        Cut-off, ``1 <= k <= n_items``.
    popularity : array-like of shape (n_items,), optional
        Train+validation popularity of each item; default the column sums of ``history``.

    Returns
    -------
    numpy.ndarray of int64, shape (n_users, k)

    Raises
    ------
    ValueError
        If some user has fewer than ``k`` recommendable items, or on malformed inputs.

    Examples
    --------
    >>> most_fair_top_k_nonrepeatable([[], [0], [2, 3]], n_items=5, k=2, popularity=[1, 4, 0, 2, 3])
    array([[2, 0],
           [3, 4],
           [1, 0]])
    """
    hist, k, order = _nonrepeatable_inputs(history, n_items, k, popularity)
    n = order.size
    m = hist.shape[0]
    order_l = order.tolist()
    indptr = hist.indptr.tolist()
    # each row's item indices are sorted (check_item_sets); a memoryview gives bisect Python
    # ints without converting millions of history entries up front
    rows = memoryview(np.ascontiguousarray(hist.indices))
    # one heap entry per item: key = count * n + (rank in the popularity order); all counts
    # start at 0, so the sorted list 0..n-1 is already a valid heap
    heap = list(range(n))
    flat = []
    for u in range(m):
        a, b = indptr[u], indptr[u + 1]
        chosen = [heappop(heap) for _ in range(k)]
        if a != b:
            # drop the user's history items; later pops have larger keys, so appending keeps
            # `chosen` in increasing (count, rank) order. Terminates: >= k recommendable items.
            good, skipped, batch = [], [], chosen
            while True:
                for key in batch:
                    item = order_l[key % n]
                    j = bisect_left(rows, item, a, b)
                    if j < b and rows[j] == item:
                        skipped.append(key)
                    else:
                        good.append(key)
                if len(good) == k:
                    break
                batch = [heappop(heap) for _ in range(k - len(good))]
            chosen = good
            for key in skipped:
                heappush(heap, key)
        for key in chosen:
            heappush(heap, key + n)
        flat.extend(chosen)
    if m == 0:
        return np.zeros((0, k), dtype=np.int64)
    return order[np.array(flat, dtype=np.int64).reshape(m, k) % n]


# ---------------------------------------------------------------------------------------------
# Exp. 4 (Paper 1, Sliding Window): sliding window over rank positions
# ---------------------------------------------------------------------------------------------

def sliding_windows(top_k, *, width: int = 5, n_windows: int | None = None) -> list[tuple[int, np.ndarray]]:
    """Windows of consecutive rank positions, each to be evaluated as a top-``width`` list.

    Paper 1, Exp. 4 (Sliding Window): measures are computed on rank
    windows 1–5, 2–6, ..., 5–9 of the BPR top-10 lists. Spec §8.4 [code] / §10.2 U5: the
    window starting at 0-based ``s`` is the slice ``top_k[:, s:s+width]`` for
    ``s = 0..4``, evaluated with ``k = width`` (so every measure and bound is @5; relevance
    measures use the same slice). By default the windows stop one short of the end, so the
    last rank position (10) is never in a window, as in the thesis; pass
    ``n_windows = k - width + 1`` to include it.

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, k)
        Lists in rank order.
    width : int, default 5
        Window length, ``1 <= width <= k``.
    n_windows : int, optional
        Number of windows (starts ``0..n_windows-1``); default ``k - width`` (the thesis's
        five windows for ``k = 10``), at most ``k - width + 1``.

    Returns
    -------
    list of (int, numpy.ndarray)
        ``(start, window)`` pairs: ``start`` is the 0-based first rank position, ``window`` a
        contiguous int64 copy of shape ``(n_users, width)`` covering 1-based ranks
        ``start + 1 .. start + width``.

    Examples
    --------
    >>> top = np.arange(20).reshape(2, 10)
    >>> [(s, w[0].tolist()) for s, w in sliding_windows(top)]  # doctest: +NORMALIZE_WHITESPACE
    [(0, [0, 1, 2, 3, 4]), (1, [1, 2, 3, 4, 5]), (2, [2, 3, 4, 5, 6]),
     (3, [3, 4, 5, 6, 7]), (4, [4, 5, 6, 7, 8])]
    """
    arr = _as_int_matrix(top_k, "top_k")
    k = arr.shape[1]
    width = check_positive_int(width, "width")
    if width > k:
        raise ValueError(f"width={width} exceeds the list length k={k} of top_k.")
    most = k - width + 1
    if n_windows is None:
        n_windows = k - width
        if n_windows == 0:
            raise ValueError(
                f"width={width} equals k={k}: the default windows leave the last position out, so "
                "none fits; pass n_windows=1 to use the whole list."
            )
    n_windows = check_positive_int(n_windows, "n_windows")
    if n_windows > most:
        raise ValueError(f"n_windows={n_windows} exceeds k - width + 1 = {most} windows of width {width} in k={k}.")
    return [(s, np.ascontiguousarray(arr[:, s:s + width])) for s in range(n_windows)]


# ---------------------------------------------------------------------------------------------
# Exp. 5 (Paper 1, Artificial Insertion of Items, and its appendix): artificial insertion
# ---------------------------------------------------------------------------------------------

_INSERTION_KINDS = ("le", "me")


def _insertion_args(n_users, n_items, k, kind):
    n_users = check_positive_int(n_users, "n_users")
    n_items, k = check_positive_int(n_items, "n_items"), check_positive_int(k, "k")
    if n_items < n_users * k:
        raise ValueError(
            f"n_items={n_items} is smaller than n_users * k = {n_users * k}: the insertion experiment "
            "gives every slot its own item (the thesis uses n_items = n_users * k)."
        )
    if kind not in _INSERTION_KINDS:
        raise ValueError(f"kind must be one of {_INSERTION_KINDS}, got {kind!r}.")
    return n_users, n_items, k


def insertion_top_k(n_users: int, n_items: int, k: int, *, n_inserted: int, kind: str = "le") -> np.ndarray:
    """The top-k lists of the artificial insertion experiment after ``n_inserted`` steps.

    Paper 1, Exp. 5 (Artificial Insertion of Items; the book's chapter :ref:`p1-experiments`).
    Two list states are interpolated from the bottom up:

    * *start* (most unfair): every user gets items ``0..k-1`` (the thesis's
      ``i_1..i_k``) in that order;
    * *end* (fairest): user ``u`` gets its own items ``u*k .. u*k + k-1`` (1-based
      ``uk+1..uk+k`` in the authors' code), which are also its only relevant items
      (:func:`insertion_relevant`). User 0's own items are the start items, so its list
      never changes.

    ``kind="le"`` inserts jointly least-exposed and relevant items: after ``t`` steps the
    last ``t`` positions (0-based ``k-t .. k-1``) hold the end items and the rest the start
    items. Each step replaces one rank position **for all users at once**, the bottom one
    first. ``kind="me"`` is the reverse run of Paper 1's appendix (extended insertion results): it starts from the
    end state and puts back copies of the start items, again bottom first, so position
    ``p`` receives item ``p``. Either way the fraction of inserted positions is
    ``P = n_inserted / k``.

    Parameters
    ----------
    n_users : int
        Number of users ``m >= 1`` (1000 in the thesis; 100 and 500 in the appendix).
    n_items : int
        Catalogue size ``n >= m*k`` (the thesis forces ``n = m*k``; larger ``n`` adds never
        recommended items).
    k : int
        Cut-off (10 in the thesis).
    n_inserted : int
        Number of steps ``t``, ``0 <= t <= k``.
    kind : {"le", "me"}, default "le"
        Least-exposed relevant insertion (the main experiment) or most-exposed irrelevant
        insertion (the appendix's reverse experiment).

    Returns
    -------
    numpy.ndarray of int64, shape (n_users, k)

    Examples
    --------
    >>> insertion_top_k(3, 9, 3, n_inserted=1)
    array([[0, 1, 2],
           [0, 1, 5],
           [0, 1, 8]])
    >>> insertion_top_k(3, 9, 3, n_inserted=1, kind="me")
    array([[0, 1, 2],
           [3, 4, 2],
           [6, 7, 2]])
    """
    n_users, n_items, k = _insertion_args(n_users, n_items, k, kind)
    n_inserted = check_positive_int(n_inserted, "n_inserted", minimum=0)
    if n_inserted > k:
        raise ValueError(f"n_inserted must be <= k={k}, got {n_inserted}.")
    start = np.tile(np.arange(k, dtype=np.int64), (n_users, 1))
    end = np.arange(n_users, dtype=np.int64)[:, None] * k + np.arange(k, dtype=np.int64)
    base, new = (start, end) if kind == "le" else (end, start)
    cut = k - n_inserted
    base[:, cut:] = new[:, cut:]
    return base


def insertion_steps(n_users: int, n_items: int, k: int, *, kind: str = "le"):
    """All ``k + 1`` states of the artificial insertion experiment, as ``(P, top_k)`` pairs.

    Paper 1, Exp. 5 (Artificial Insertion of Items): ``P`` runs from 0 to 1 in steps of
    ``1/k``; the ``t``-th state is :func:`insertion_top_k` with ``n_inserted = t`` and
    ``P = t / k``. The relevance labels, the same at every step, are
    :func:`insertion_relevant`. With ``m=1000``, ``n=10000``, ``k=10`` (the thesis setup) the
    state at ``P = 0.9`` still recommends item 0 to every user, which is why Jain stays near
    0 (about 0.0099) while QF and FSat reach 0.9001 (the book's chapter :ref:`p1-experiments`).

    Parameters
    ----------
    n_users, n_items, k, kind
        As in :func:`insertion_top_k`.

    Yields
    ------
    (float, numpy.ndarray)
        ``P = t / k`` and a fresh ``(n_users, k)`` int64 array, for ``t = 0..k``.

    Examples
    --------
    >>> [(p, top[1].tolist()) for p, top in insertion_steps(2, 4, 2)]
    [(0.0, [0, 1]), (0.5, [0, 3]), (1.0, [2, 3])]
    """
    n_users, n_items, k = _insertion_args(n_users, n_items, k, kind)

    def gen():
        for t in range(k + 1):
            yield t / k, insertion_top_k(n_users, n_items, k, n_inserted=t, kind=kind)

    return gen()


def insertion_relevant(n_users: int, n_items: int, k: int) -> sp.csr_matrix:
    """Relevance labels of the insertion experiment: user ``u``'s relevant items are ``u*k .. u*k+k-1``.

    Paper 1, Exp. 5 (Artificial Insertion of Items; the authors' code): the inserted items are
    relevant only to the user who receives them, every user has exactly ``k`` relevant items, and the
    start items ``0..k-1`` are relevant to user 0 only. The labels do not change over the
    steps (hence relevance is already 0.001 at ``P = 0`` for ``m = 1000``) and are the same
    for the ``"le"`` and ``"me"`` runs.

    Parameters
    ----------
    n_users, n_items, k
        As in :func:`insertion_top_k`.

    Returns
    -------
    scipy.sparse.csr_matrix of bool, shape (n_users, n_items)

    Examples
    --------
    >>> insertion_relevant(2, 5, 2).toarray()
    array([[ True,  True, False, False, False],
           [False, False,  True,  True, False]])
    """
    n_users, n_items, k = _insertion_args(n_users, n_items, k, "le")
    indices = np.arange(n_users * k, dtype=np.int64)
    indptr = np.arange(0, n_users * k + 1, k, dtype=np.int64)
    return sp.csr_matrix((np.ones(indices.size, dtype=bool), indices, indptr), shape=(n_users, n_items))


def insertion_scores(top_k, relevant) -> np.ndarray:
    """Scores whose stable descending sort is the insertion study's full ranking (Papers 2-3).

    Each user's top-k first (in order), then every other item by id, and the user's relevant
    items not yet in the top-k last (p2 §6.4 [code]): the full ranking that IAA and IFD÷ read.

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, k)
        The lists of one insertion step (:func:`insertion_steps`).
    relevant : scipy.sparse matrix (n_users, n_items)
        The labels of :func:`insertion_relevant`.

    Returns
    -------
    numpy.ndarray of float, shape (n_users, n_items)

    Examples
    --------
    >>> rel = insertion_relevant(2, 6, 2)
    >>> scores = insertion_scores([[0, 1], [0, 3]], rel)
    >>> np.argsort(-scores, axis=1, kind="stable").tolist()
    [[0, 1, 2, 3, 4, 5], [0, 3, 1, 4, 5, 2]]
    """
    top = np.asarray(top_k, dtype=np.int64)
    m, k = top.shape
    n = relevant.shape[1]
    key = np.tile(k + np.arange(n, dtype=float), (m, 1))
    key[relevant.nonzero()] += n
    np.put_along_axis(key, top, np.tile(np.arange(k, dtype=float), (m, 1)), axis=1)
    return -key


def fewest_satisfied_top_k(n_users: int, n_items: int, k: int) -> np.ndarray:
    r"""Top-k lists attaining the true minimum of FSat (see :func:`recfair.bounds.fsat_true_minimum`).

    With :math:`f = \lfloor km/n \rfloor \ge 1`, the ``s_min`` satisfied items are shown to every
    user and the others at most :math:`f - 1` times; the counts are trimmed from the last
    items until they add up to :math:`km`. Laying the items out in consecutive slots, slot
    ``t`` going to user ``t mod m``, realises any counts that are at most ``m`` without a
    repeated item in a list. Requires ``k * n_users >= n_items`` (otherwise every list
    satisfies every item).

    >>> fewest_satisfied_top_k(6, 3, 2).tolist()
    [[0, 1], [0, 1], [0, 1], [0, 2], [0, 2], [0, 2]]
    """
    from .bounds import fsat_true_minimum

    m, n = check_positive_int(n_users, "n_users"), check_positive_int(n_items, "n_items")
    k = check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n_items={n}.")
    if k * m < n:
        raise ValueError(f"k * n_users = {k * m} < n_items = {n}: every item is satisfied, FSat is 1 for any lists.")
    f = k * m // n
    s = round(fsat_true_minimum(m, n, k) * n)
    counts = np.concatenate([np.full(s, m), np.full(n - s, f - 1)])
    surplus = int(counts.sum()) - k * m
    for i in range(n - 1, -1, -1):  # trim the unsatisfied items first, never below their floor
        cut = min(surplus, int(counts[i]) - (f if i < s else 0))
        counts[i] -= cut
        surplus -= cut
    slots = np.repeat(np.arange(n, dtype=np.int64), counts)
    return np.ascontiguousarray(slots.reshape(k, m).T)
