"""Random runs for tests, benchmarks and toy examples: uniformly random top-k lists and relevance sets.

The generators of the thesis's synthetic studies live with their parts
(:mod:`recfair.item_exposure.generators`, :mod:`recfair.joint.generators`).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._validation import check_positive_int, check_seed

__all__ = ["random_top_k", "random_relevant", "random_split"]


def random_top_k(n_users: int, n_items: int, k: int, *, seed=None) -> np.ndarray:
    """Uniformly random top-k lists without repeats, shape ``(n_users, k)``.

    ``seed`` is an int, a :class:`numpy.random.Generator` or None (fresh entropy).

    >>> random_top_k(2, 5, 3, seed=0).shape
    (2, 3)
    """
    rng = check_seed(seed)
    n_users = check_positive_int(n_users, "n_users", minimum=0)
    n_items, k = check_positive_int(n_items, "n_items"), check_positive_int(k, "k")
    if k > n_items:
        raise ValueError(f"k={k} exceeds n_items={n_items}.")
    if 4 * k > n_items:
        return np.argsort(rng.random((n_users, n_items)), axis=1)[:, :k]
    top = rng.integers(0, n_items, size=(n_users, k))
    while True:
        srt = np.sort(top, axis=1)
        bad = np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))
        if bad.size == 0:
            return top
        # rows with a repeat are redrawn whole, which keeps each row uniform over k-subsets in order
        top[bad] = rng.integers(0, n_items, size=(bad.size, k))


def random_relevant(n_users: int, n_items: int, *, mean: float = 20.0, seed=None) -> sp.csr_matrix:
    """Random relevance sets: each user gets about ``1 + Poisson(mean - 1)`` distinct items.

    ``seed`` is an int, a :class:`numpy.random.Generator` or None (fresh entropy).

    >>> random_relevant(3, 50, mean=4, seed=0).shape
    (3, 50)
    """
    rng = check_seed(seed)
    n_users = check_positive_int(n_users, "n_users", minimum=0)
    n_items = check_positive_int(n_items, "n_items")
    if not 1 <= mean <= n_items:
        raise ValueError(f"mean must be in [1, n_items={n_items}], got {mean}.")
    counts = 1 + rng.poisson(mean - 1, size=n_users)
    counts = np.minimum(counts, n_items)
    rows = np.repeat(np.arange(n_users, dtype=np.int64), counts)
    keys = np.unique(rows * n_items + rng.integers(0, n_items, size=rows.size))
    data = np.ones(keys.size, dtype=bool)
    return sp.csr_matrix((data, (keys // n_items, keys % n_items)), shape=(n_users, n_items))


def random_split(n_users: int, n_items: int, *, relevant: float = 20.0, history: float = 50.0, skew: float = 0.8,
                 seed=None) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """A random test split ``(history, relevant)``: disjoint per-user item sets, popular items more often.

    Each user gets about ``1 + Poisson(relevant - 1)`` test items and ``Poisson(history)`` train
    items (fewer when collisions leave too few distinct items, and never more than half the
    catalogue), drawn with probability proportional to ``rank**-skew`` over a random ordering of
    the items; every user has at least one test item. For Paper 4's frontier at scale (tests,
    benchmarks and toy examples).

    >>> hist, rel = random_split(3, 40, relevant=4, history=5, seed=0)
    >>> hist.shape, bool((hist.multiply(rel)).nnz == 0), bool((rel.sum(axis=1) >= 1).all())
    ((3, 40), True, True)
    """
    rng = check_seed(seed)
    n_users = check_positive_int(n_users, "n_users")
    n_items = check_positive_int(n_items, "n_items", minimum=2)
    if not 1 <= relevant <= n_items / 2:
        raise ValueError(f"relevant must be in [1, n_items / 2 = {n_items / 2}], got {relevant}.")
    if not 0 <= history <= n_items / 2:
        raise ValueError(f"history must be in [0, n_items / 2 = {n_items / 2}], got {history}.")
    weight = 1.0 / np.arange(1, n_items + 1) ** float(skew)
    weight = weight[rng.permutation(n_items)]
    n_rel = np.minimum(1 + rng.poisson(relevant - 1, size=n_users), n_items // 2)
    n_hist = np.minimum(rng.poisson(history, size=n_users), n_items // 2)
    draws = 2 * (n_rel + n_hist) + 4
    rows = np.repeat(np.arange(n_users, dtype=np.int64), draws)
    keys = np.sort(rows * n_items + rng.choice(n_items, size=rows.size, p=weight / weight.sum()))
    keys = keys[np.concatenate([[True], keys[1:] != keys[:-1]])]      # distinct (sorting beats hashing here)
    user, item = keys // n_items, keys % n_items
    order = np.lexsort((rng.random(keys.size), user))          # shuffle within each user
    user, item = user[order], item[order]
    start = np.searchsorted(user, np.arange(n_users))
    rank = np.arange(user.size) - start[user]
    is_rel = rank < n_rel[user]
    is_hist = ~is_rel & (rank < n_rel[user] + n_hist[user])

    def matrix(mask):
        return sp.csr_matrix((np.ones(int(mask.sum()), dtype=bool), (user[mask], item[mask])),
                             shape=(n_users, n_items))

    return matrix(is_hist), matrix(is_rel)
