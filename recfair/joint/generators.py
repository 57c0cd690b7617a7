r"""Fairest and unfairest full rankings for the relevance-aware item-fairness measures (Paper 3).

Given each user's relevant items, these generators build the full ranking of all ``n`` items
that reaches one end of a measure's per-user range (binary relevance, one round). The
positions of the relevant items come from :func:`recfair.joint.bounds.attaining_positions`
(appendix Theorems 1–5 as corrected in the spec, with exact searches where the thesis's
strategy is not optimal); the items fill them in ascending item id, or shuffled within the
relevant and the irrelevant group when ``seed`` is given.

================  ======================================  =====================================
measure           fairest                                 unfairest
================  ======================================  =====================================
``"IAA"``         relevant items on top                   relevant items at the bottom
``"II-F"``        relevant items on top                   relevant items at the bottom
``"IFD_div"``     relevant items unexposed (bottom) if    about half on top, half at the bottom
                  they fit beyond ``k``; else the exact
                  optimum (a block inside the top-k)
``"IFD_mul"``     relevant items at the bottom            a prefix on top, the rest at the bottom
================  ======================================  =====================================

>>> fairest_ranking([[3], [0, 4]], n_items=5, measure="IAA", k=2).tolist()
[[3, 0, 1, 2, 4], [0, 4, 1, 2, 3]]
>>> unfairest_ranking([[3], [0, 4]], n_items=5, measure="IAA", k=2).tolist()
[[0, 1, 2, 4, 3], [1, 2, 3, 0, 4]]
"""

from __future__ import annotations

import numpy as np

from .._validation import check_positive_int, check_seed
from .bounds import ENDS, _measure_name, attaining_positions

__all__ = ["extreme_ranking", "fairest_ranking", "unfairest_ranking"]


def _relevant_sets(relevant, n_items: int) -> list[np.ndarray]:
    """Per-user sorted arrays of relevant item ids from id lists or an (m, n) boolean matrix."""
    if hasattr(relevant, "tocsr"):                                      # scipy sparse indicator
        relevant = relevant.tocsr()
        if relevant.shape[1] != n_items:
            raise ValueError(f"relevant has {relevant.shape[1]} columns, expected n_items={n_items}.")
        return [np.unique(relevant.indices[relevant.indptr[u]:relevant.indptr[u + 1]][
            relevant.data[relevant.indptr[u]:relevant.indptr[u + 1]] != 0]) for u in range(relevant.shape[0])]
    if isinstance(relevant, np.ndarray) and relevant.dtype == bool:
        if relevant.ndim != 2 or relevant.shape[1] != n_items:
            raise ValueError(f"a boolean relevant matrix must have shape (m, {n_items}), got {relevant.shape}.")
        return [np.flatnonzero(row) for row in relevant]
    sets = []
    for u, items in enumerate(relevant):
        arr = np.asarray(list(items), dtype=np.int64).reshape(-1)
        if arr.size and (arr.min() < 0 or arr.max() >= n_items):
            raise ValueError(f"user {u}: relevant item ids must lie in [0, {n_items}), got {arr.tolist()}.")
        uniq = np.unique(arr)
        if uniq.size != arr.size:
            raise ValueError(f"user {u}: relevant item ids must be distinct, got {arr.tolist()}.")
        sets.append(uniq)
    return sets


def extreme_ranking(relevant, *, n_items: int, measure: str, end: str, k: int, seed=None,
                    **params) -> np.ndarray:
    r"""Full rankings (shape ``(m, n_items)``, item ids in rank order) at one end of ``measure``.

    Parameters
    ----------
    relevant : sequence of iterables of int, (m, n_items) bool array, or scipy sparse matrix
        Each user's relevant items (binary relevance, :math:`R_u^*`).
    n_items : int
        Catalogue size ``n``; every ranking holds all items.
    measure : str
        ``"IAA"``, ``"II-F"``, ``"IFD_div"`` or ``"IFD_mul"`` (``_ori``/``_our`` suffixes
        accepted; ``"IFD_div_ori"`` has no cut-off, so its fairest and unfairest differ).
    end : {"most_fair", "most_unfair"}
    k : int, default=10
        Cut-off.
    seed : None, int or numpy Generator
        ``None``: relevant and irrelevant items fill their positions in ascending id;
        otherwise each group is shuffled.
    **params
        Passed to :func:`~recfair.joint.bounds.attaining_positions` (``exact`` for IFD×,
        ``examination`` and its parameters for IFD).

    Users with no relevant item, or with every item relevant, get the identity order (every
    ranking scores the same for them).

    >>> extreme_ranking([[0, 1, 2, 3]], n_items=8, measure="IFD_div", end="most_unfair", k=8).tolist()  # thesis X14
    [[0, 1, 4, 5, 6, 7, 2, 3]]
    """
    n_items = check_positive_int(n_items, "n_items")
    k = check_positive_int(k, "k")
    if k > n_items:
        raise ValueError(f"k={k} exceeds n_items={n_items}.")
    if end not in ENDS:
        raise ValueError(f"end must be one of {ENDS}, got {end!r}.")
    _measure_name(measure)                                              # validates the name
    rng = None if seed is None else check_seed(seed)
    sets = _relevant_sets(relevant, n_items)
    out = np.empty((len(sets), n_items), dtype=np.int64)
    cache: dict[int, np.ndarray] = {}
    everything = np.arange(n_items)
    for u, rel in enumerate(sets):
        R = rel.size
        if R in (0, n_items):
            out[u] = everything if rng is None else rng.permutation(n_items)
            continue
        if R not in cache:
            cache[R] = attaining_positions(measure, end, n_items, k, R, **params) - 1
        slots = cache[R]
        mask = np.ones(n_items, dtype=bool)
        mask[slots] = False
        others = np.setdiff1d(everything, rel, assume_unique=True)
        if rng is not None:
            rel, others = rng.permutation(rel), rng.permutation(others)
        out[u, slots] = rel
        out[u, mask] = others
    return out


def fairest_ranking(relevant, *, n_items: int, measure: str, k: int, seed=None, **params) -> np.ndarray:
    """The fairest full ranking per user for ``measure`` (see :func:`extreme_ranking`).

    >>> fairest_ranking([[0, 1]], n_items=4, measure="IFD_mul", k=2).tolist()   # relevant items unexposed
    [[2, 3, 0, 1]]
    """
    return extreme_ranking(relevant, n_items=n_items, measure=measure, end="most_fair", k=k, seed=seed, **params)


def unfairest_ranking(relevant, *, n_items: int, measure: str, k: int, seed=None, **params) -> np.ndarray:
    """The unfairest full ranking per user for ``measure`` (see :func:`extreme_ranking`).

    >>> unfairest_ranking([[0, 1]], n_items=4, measure="IFD_mul", k=2).tolist()
    [[0, 2, 3, 1]]
    """
    return extreme_ranking(relevant, n_items=n_items, measure=measure, end="most_unfair", k=k, seed=seed, **params)
