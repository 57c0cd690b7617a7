"""Toy and extreme runs for Part VI's explorers: lists that pass, fail or break each measure.

* :func:`uniform_random_top_k`: every user gets ``k`` items drawn uniformly (the
  :func:`recfair.synthetic.random_top_k` recommender). It "passes" the popularity measures: its
  expected APLT is the tail's share of the catalogue, :math:`|\\sim\\!\\Phi|/n`, often above 0.8
  (:func:`recfair.field.derivations.aplt_of_uniform_random`), although it recommends nothing
  anyone wants.
* :func:`most_popular_top_k`: every user gets the ``k`` most popular items (ARP's largest value,
  APLT's smallest).
* :func:`mirror_catalogue_top_k`: a list whose every prefix is as close to the catalogue's group
  shares as a prefix can be; NDKL's smallest value, and still not 0
  (:func:`recfair.field.bounds.achievable_ndkl`).
* :func:`one_group_top_k`: every list from one item group (RSP's, ExpRatio's and NDKL's unfair end).
* :func:`reo_without_relevant_group`: a run where an item group holds no relevant item, so REO is
  undefined whatever is recommended.

>>> mirror_catalogue_top_k(["a", "a", "b", "b"], n_users=1, k=4).tolist()
[[0, 2, 1, 3]]
"""

from __future__ import annotations

import numpy as np

from .._validation import check_item_groups, check_positive_int
from ..synthetic import random_top_k
from . import _core

__all__ = ["uniform_random_top_k", "most_popular_top_k", "mirror_catalogue_top_k", "one_group_top_k",
           "reo_without_relevant_group"]


def uniform_random_top_k(n_users: int, n_items: int, k: int, *, seed=None) -> np.ndarray:
    """Top-k lists drawn uniformly at random (no two equal items in a list).

    >>> uniform_random_top_k(2, 5, 3, seed=0).shape
    (2, 3)
    """
    return random_top_k(n_users, n_items, k, seed=seed)


def most_popular_top_k(popularity, *, n_users: int, k: int) -> np.ndarray:
    """Every user gets the ``k`` most popular items, most popular first (ties by item index).

    >>> most_popular_top_k([1, 5, 3, 5], n_users=2, k=2).tolist()
    [[1, 3], [1, 3]]
    """
    pop = np.asarray(popularity, dtype=np.float64)
    n_users, k = check_positive_int(n_users, "n_users"), check_positive_int(k, "k")
    if k > pop.size:
        raise ValueError(f"k={k} exceeds the {pop.size} items.")
    order = np.lexsort((np.arange(pop.size), -pop))[:k]
    return np.tile(order, (n_users, 1))


def mirror_catalogue_top_k(item_groups, *, n_users: int, k: int) -> np.ndarray:
    """One list for every user whose prefixes follow the catalogue's group shares as closely as possible.

    Position by position it takes the next unused item (lowest index) of the group whose choice
    gives the prefix the smallest KL divergence from the catalogue's shares (ties to the first
    label); it is the exact NDKL minimiser when that greedy path is optimal, which the tests
    check against :func:`recfair.field.bounds.achievable_ndkl`.

    >>> mirror_catalogue_top_k(["a", "b", "b", "b"], n_users=2, k=2).tolist()
    [[1, 0], [1, 0]]
    """
    codes, labels = check_item_groups(item_groups, len(item_groups))
    if (codes < 0).any():
        raise ValueError("mirror_catalogue_top_k needs a group for every item.")
    n_users, k = check_positive_int(n_users, "n_users"), check_positive_int(k, "k")
    if k > codes.size:
        raise ValueError(f"k={k} exceeds the {codes.size} items.")
    g = len(labels)
    sizes = np.bincount(codes, minlength=g)
    p_star = sizes / sizes.sum()
    queues = [list(np.flatnonzero(codes == j)) for j in range(g)]
    counts = np.zeros(g)
    out = []
    for i in range(1, k + 1):
        best, best_kl = None, np.inf
        for j in range(g):
            if not queues[j]:
                continue
            trial = counts.copy()
            trial[j] += 1
            value = float(_core.kl(trial / i, p_star))
            if value < best_kl - 1e-12:
                best, best_kl = j, value
        counts[best] += 1
        out.append(int(queues[best].pop(0)))
    return np.tile(np.array(out, dtype=np.int64), (n_users, 1))


def one_group_top_k(item_groups, *, n_users: int, k: int, group) -> np.ndarray:
    """Every user gets the first ``k`` items of one group (the group must hold ``k`` items).

    >>> one_group_top_k(["a", "b", "a", "a"], n_users=1, k=2, group="a").tolist()
    [[0, 2]]
    """
    codes, labels = check_item_groups(item_groups, len(item_groups))
    if group not in labels:
        raise ValueError(f"group {group!r} is not one of the labels {labels}.")
    items = np.flatnonzero(codes == labels.index(group))
    k = check_positive_int(k, "k")
    if items.size < k:
        raise ValueError(f"group {group!r} holds {items.size} items, fewer than k={k}.")
    return np.tile(items[:k], (check_positive_int(n_users, "n_users"), 1))


def reo_without_relevant_group() -> dict:
    """A run (as keyword arguments of :func:`recfair.evaluate`) where group ``"b"`` has no relevant item.

    >>> import recfair as rf
    >>> rf.evaluate(measures="REO", on_undefined="nan", **reo_without_relevant_group())
    {'REO': nan}
    """
    return {"top_k": np.array([[0, 2], [1, 3]]), "n_items": 4, "relevant": [[0], [1]],
            "item_groups": ["a", "a", "b", "b"]}
