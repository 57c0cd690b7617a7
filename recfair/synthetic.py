"""Random runs for tests, benchmarks and toy examples: uniformly random top-k lists and relevance sets.

The generators of the thesis's synthetic studies live with their parts
(:mod:`recfair.item_exposure.generators`, :mod:`recfair.joint.generators`).
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._validation import check_positive_int, check_seed

__all__ = ["random_top_k", "random_relevant"]


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
