r"""Item popularity, the popular head and the long tail: the one home of Part VI's popularity facts.

The popularity-bias measures (ARP, APLT, ACLT, PopRSP, PopREO) and the item-group measures
run on head/tail groups all read the same three facts:

* **popularity** :math:`\phi(i)`: by default the number of distinct users with item :math:`i`
  in their training history (``popularity="users"``, Elliot's and WarpRec's count), or the
  number of interaction rows (``"interactions"``, RecBole's and rectools' count; it differs only
  when a log repeats a (user, item) pair, see :func:`item_popularity`), or one given count per
  item; ``min_popularity=1`` floors it as WarpRec does, so that a never-seen item counts once;
* **the head** :math:`\Phi`: the most popular items, sorted by popularity and then by item
  index, taken until they cover ``head_share`` (80 %) of all training interactions, the item
  that crosses the threshold included (``crossing="include"``, Elliot's rule; ``"exclude"``
  leaves it out; ``"exceed"`` takes items until they cover strictly *more* than the share,
  WarpRec's rule, which differs from ``"include"`` only when a prefix reaches the share exactly);
* **the tail** :math:`\sim\!\Phi`: every other item of the catalogue, never-seen items included
  (``tail="catalogue"``); ``tail="seen"`` keeps only items seen in training (Elliot's catalogue
  is its training items), and ``tail_items=`` / ``tail_threshold=`` give RecBole's rules instead
  (the ``tail_items`` least popular *seen* items, a share when a float in (0, 1], ties by item
  index; or the seen items whose popularity is at most ``tail_threshold``).

>>> history = [[0, 1], [0, 2], [0, 1], [3]]
>>> item_popularity(history, n_items=5).tolist()
[3, 2, 1, 1, 0]
>>> head_tail(item_popularity(history, n_items=5)).tolist()      # 0 = head, 1 = tail
[0, 0, 0, 1, 1]
"""

from __future__ import annotations

import numbers

import numpy as np
import scipy.sparse as sp

from .._validation import check_item_sets, check_positive_int, check_real

__all__ = ["HEAD", "TAIL", "POPULARITY_OPTIONS", "item_popularity", "head_tail", "popularity_of"]

#: Group codes of :func:`head_tail` (``-1``: an item in neither group).
HEAD, TAIL = 0, 1

#: The options every popularity-based measure takes, with their defaults (one meaning each).
POPULARITY_OPTIONS = {"popularity": "users", "min_popularity": 0, "head_share": 0.8, "crossing": "include",
                      "tail": "catalogue", "tail_items": None, "tail_threshold": None}

_CROSSING = ("include", "exclude", "exceed")


def item_popularity(history, *, n_items: int, popularity: str = "users") -> np.ndarray:
    r"""Popularity :math:`\phi(i)` of every item from the training history.

    Parameters
    ----------
    history : sequences of int (one per user), scipy.sparse matrix, or array of (user, item) rows
        The training interactions: each user's items, a users x items matrix (its values are
        counts when ``popularity="interactions"``), or an ``(N, 2)`` integer array of
        (user, item) rows of a log, where a repeated row is a repeated interaction.
    n_items : int
        Catalogue size.
    popularity : {"users", "interactions"}, default="users"
        Count distinct users (Elliot, WarpRec) or interaction rows (RecBole, rectools).

    Returns
    -------
    numpy.ndarray of int64, shape (n_items,)

    Examples
    --------
    >>> log = np.array([[0, 1], [0, 1], [1, 1], [1, 0]])       # user 0 played item 1 twice
    >>> item_popularity(log, n_items=3).tolist(), item_popularity(log, n_items=3, popularity="interactions").tolist()
    ([1, 2, 0], [1, 3, 0])
    """
    n_items = check_positive_int(n_items, "n_items")
    if popularity not in ("users", "interactions"):
        raise ValueError(f'popularity must be "users" or "interactions" (or per-item counts), got {popularity!r}.')
    if isinstance(history, np.ndarray) and history.ndim == 2 and history.shape[1] == 2 and \
            np.issubdtype(history.dtype, np.integer):
        users, items = history[:, 0].astype(np.int64), history[:, 1].astype(np.int64)
        if items.size and (items.min() < 0 or items.max() >= n_items or users.min() < 0):
            raise ValueError(f"history rows must be (user >= 0, item in [0, {n_items})).")
        if popularity == "interactions":
            return np.bincount(items, minlength=n_items).astype(np.int64)
        pairs = np.unique(users * n_items + items)
        return np.bincount(pairs % n_items, minlength=n_items).astype(np.int64)
    if sp.issparse(history):
        mat = sp.csr_matrix(history)
        if mat.shape[1] != n_items:
            raise ValueError(f"history has {mat.shape[1]} item columns; expected n_items={n_items}.")
        if mat.nnz and (mat.data < 0).any():
            raise ValueError("history holds negative counts.")
        if popularity == "interactions":
            return np.asarray(mat.sum(axis=0)).ravel().astype(np.int64)
        mat = mat.copy()
        mat.eliminate_zeros()
        return np.bincount(mat.indices, minlength=n_items).astype(np.int64)
    sets = check_item_sets(history, n_users=len(history), n_items=n_items, name="history")
    return np.bincount(sets.indices, minlength=n_items).astype(np.int64)


def popularity_of(history, *, n_items: int, popularity="users", min_popularity=0) -> np.ndarray:
    """Per-item popularity as a measure reads it: counted from ``history`` or given, then floored.

    ``popularity`` is ``"users"``, ``"interactions"`` or one non-negative count per item (e.g.
    counted from the whole training set, when the run holds only the test users).

    >>> popularity_of([[0], [0, 1]], n_items=3, min_popularity=1).tolist()
    [2.0, 1.0, 1.0]
    """
    if isinstance(popularity, str):
        if history is None:
            raise ValueError("the popularity measures need history= (the training items of each user) or "
                             "popularity= (one count per item).")
        counts = item_popularity(history, n_items=n_items, popularity=popularity).astype(np.float64)
    else:
        counts = np.asarray(popularity, dtype=np.float64)
        if counts.shape != (n_items,):
            raise ValueError(f"popularity must be 'users', 'interactions' or one count per item, shape ({n_items},); "
                             f"got shape {counts.shape}.")
        if not np.all(np.isfinite(counts)) or (counts < 0).any():
            raise ValueError("popularity counts must be finite and non-negative.")
    floor = check_real(min_popularity, "min_popularity", low=0.0)
    return np.maximum(counts, floor)


def head_tail(popularity, *, head_share: float = 0.8, crossing: str = "include", tail: str = "catalogue",
              tail_items=None, tail_threshold=None, seen=None) -> np.ndarray:
    r"""Split the catalogue into the popular head (code 0) and the long tail (code 1).

    Parameters
    ----------
    popularity : array-like of float, shape (n_items,)
        :math:`\phi(i)` (see :func:`popularity_of`).
    head_share : float in (0, 1], default=0.8
        The head covers this share of all training interactions :math:`\sum_i \phi(i)`.
    crossing : {"include", "exclude", "exceed"}, default="include"
        Whether the item whose cumulative popularity first reaches ``head_share`` belongs to the
        head (``"include"``, Elliot) or not (``"exclude"``); ``"exceed"`` takes items until their
        cumulative popularity is strictly above the share, the item that exceeds it included
        (WarpRec: with a prefix covering exactly 80 %, one more item joins the head).
    tail : {"catalogue", "seen"}, default="catalogue"
        The tail is every non-head item, or only the non-head items seen in training (unseen
        items get code ``-1``: in neither group).
    tail_items : int or float, optional
        RecBole's rule instead of the head share (its ``tail_ratio`` in (0, 1]): the tail is the
        ``tail_items`` least popular seen items, sorted by popularity then item index (an int is
        a number of items; a float in (0, 1] a share of the seen items, rounded down, at least
        one item); every other seen item is the head and unseen items are in neither group.
    tail_threshold : float, optional
        RecBole's other rule (its ``tail_ratio`` above 1): the tail is the seen items whose
        popularity is at most ``tail_threshold``; every other seen item is the head and unseen
        items are in neither group.
    seen : array-like of bool, optional
        Which items were seen in training (default: popularity > 0; give it when popularity was
        floored).

    Returns
    -------
    numpy.ndarray of int64, shape (n_items,)
        0 = head, 1 = tail, -1 = neither.

    Examples
    --------
    >>> pop = [5, 0, 2, 2, 1]                  # 10 interactions: 5 + 2 + 2 cross 80 %
    >>> head_tail(pop).tolist(), head_tail(pop, crossing="exclude").tolist()
    ([0, 1, 0, 0, 1], [0, 1, 0, 1, 1])
    >>> head_tail(pop, tail="seen").tolist(), head_tail(pop, tail_items=0.5).tolist()
    ([0, -1, 0, 0, 1], [0, -1, 1, 0, 1])
    >>> head_tail(pop, tail_threshold=2).tolist()
    [0, -1, 1, 1, 1]
    >>> head_tail([5, 3, 2], crossing="include").tolist(), head_tail([5, 3, 2], crossing="exceed").tolist()
    ([0, 0, 1], [0, 0, 0])
    """
    pop = np.asarray(popularity, dtype=np.float64)
    if pop.ndim != 1 or not np.all(np.isfinite(pop)) or (pop < 0).any():
        raise ValueError("popularity must be one finite, non-negative value per item.")
    n = pop.size
    seen = pop > 0 if seen is None else np.asarray(seen, dtype=bool)
    if crossing not in _CROSSING:
        raise ValueError(f'crossing must be "include", "exclude" or "exceed", got {crossing!r}.')
    if tail not in ("catalogue", "seen"):
        raise ValueError(f'tail must be "catalogue" or "seen", got {tail!r}.')
    codes = np.full(n, TAIL, dtype=np.int64)
    if tail_items is not None and tail_threshold is not None:
        raise ValueError("give tail_items= or tail_threshold=, not both (they are two rules for RecBole's tail).")
    if tail_items is not None or tail_threshold is not None:
        items = np.flatnonzero(seen)
        codes[:] = -1
        codes[items] = HEAD
        if tail_threshold is not None:
            limit = check_real(tail_threshold, "tail_threshold", low=0.0)
            codes[items[pop[items] <= limit]] = TAIL
            return codes
        if isinstance(tail_items, bool) or not isinstance(tail_items, numbers.Real) or not tail_items > 0 or \
                (not isinstance(tail_items, numbers.Integral) and tail_items > 1):
            raise ValueError(f"tail_items must be a positive number of items (an int) or a share in (0, 1] (a float), "
                             f"got {tail_items!r}.")
        order = items[np.lexsort((items, pop[items]))]                       # least popular first
        if isinstance(tail_items, numbers.Integral):
            cut = int(tail_items)
        else:
            cut = max(int(items.size * float(tail_items)), 1)
        codes[order[:cut]] = TAIL
        return codes
    share = check_real(head_share, "head_share", low=0.0, high=1.0)
    if share == 0:
        raise ValueError("head_share must be > 0.")
    total = pop.sum()
    if total == 0:
        raise ValueError("no item has any popularity: the head is undefined (is history empty?).")
    order = np.lexsort((np.arange(n), -pop))                                 # most popular first, ties by index
    cumulative = np.cumsum(pop[order])
    limit = share * total
    if crossing == "include":
        size = int(np.searchsorted(cumulative, limit * (1 - 1e-12), side="left")) + 1
    elif crossing == "exceed":
        size = int(np.searchsorted(cumulative, limit * (1 + 1e-12), side="right")) + 1
    else:
        size = int(np.searchsorted(cumulative, limit * (1 + 1e-12), side="right"))
    codes[order[:min(size, n)]] = HEAD
    if tail == "seen":
        codes[(codes == TAIL) & ~seen] = -1
    return codes
