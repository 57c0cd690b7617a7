"""A validated recommendation run: what every measure reads.

A run is the top-``k`` lists of ``m`` users over a catalogue of ``n_items`` items (0-based
indices), plus whatever optional inputs a measure needs: each user's relevant items, full
scores or an explicit full ranking, each user's history, user attributes, item
representations. :class:`Run` validates once and derives lazily (hits, counts, rankings),
so that :func:`recfair.evaluate` computes many measures without repeating work.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np
import scipy.sparse as sp

from ._validation import (
    check_full_ranking,
    check_item_features,
    check_item_groups,
    check_item_sets,
    check_positive_int,
    check_relevance,
    check_rounds,
    check_scores,
    check_top_k,
)
from .ranking import mask_history, top_k_from_scores

__all__ = ["Run", "INPUTS"]

#: Names of the inputs a measure can need (the registry's ``needs`` field uses these).
INPUTS = ("top_k", "relevant", "ranking", "scores", "history", "user_attributes", "item_features", "rounds",
          "item_groups")


class Run:
    """One recommender's output for ``m`` users, validated.

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, >= k), or None
        Each row is a user's list in rank order. ``None`` derives it from ``ranking`` or ``scores``.
    n_items : int
        Catalogue size ``n`` (every item of the dataset, recommended or not).
    k : int, optional
        Cut-off; defaults to the width of ``top_k`` (or 10 when ``top_k`` is derived).
    relevant : sequence of sequences of int, or scipy.sparse matrix (n_users, n_items), optional
        Ground-truth relevant items of each user (binary relevance).
    relevance : array-like or scipy.sparse matrix of float (n_users, n_items), optional
        Graded ground truth :math:`r_{u,i} \\ge 0` instead of ``relevant`` (0 = not relevant;
        the relevant items are those with :math:`r_{u,i} > 0`). Only measures whose registry
        record says ``graded=True`` accept a run whose grades are not all 1.
    scores : array-like of float, shape (n_users, n_items), optional
        Predicted scores; ``-inf`` marks an excluded item. The full ranking is their stable
        descending sort (ties to the lower index, history last).
    ranking : array-like of int, shape (n_users, n_items), optional
        An explicit full ranking instead of ``scores``.
    history : sequence of sequences of int, or sparse matrix, optional
        Items each user interacted with in training/validation; they sink to the bottom of
        the ranking and may not appear in ``top_k``.
    rounds : array-like of int, shape (W, n_users, >= k), optional
        Top-k lists of ``W`` recommendation rounds (multi-round measures); round 0 must equal ``top_k``.
    user_attributes : pandas.DataFrame or mapping, optional
        One row per user (sensitive attributes for user-group measures).
    item_features : array-like, shape (n_items, d), optional
        Item representations (e.g. for VoCD; the items' genres for C_KL).
    item_groups : array-like, shape (n_items,), optional
        One group label per item (a provider, a genre, head or tail; ``None``/NaN: no group), for
        Part VI's item-group measures. Kept as integer codes (``-1``: no group) in
        ``item_groups`` and the sorted labels in ``item_group_labels``.

    Examples
    --------
    >>> run = Run([[0, 1], [1, 2]], 4, relevant=[[1], [3]])
    >>> run.n_users, run.k, run.has("relevant"), run.has("scores")
    (2, 2, True, False)
    """

    def __init__(self, top_k, n_items, *, k=None, relevant=None, scores=None, ranking=None,
                 history=None, rounds=None, user_attributes=None, item_features=None, relevance=None,
                 item_groups=None):
        self.n_items = check_positive_int(n_items, "n_items")
        if scores is not None and ranking is not None:
            raise ValueError("give either scores or ranking, not both.")
        n_users = None if top_k is None else _n_rows(top_k, "top_k")
        self.history = None
        if scores is not None:
            scores = check_scores(scores, n_users=n_users, n_items=self.n_items)
            n_users = scores.shape[0]
        if ranking is not None:
            ranking = check_full_ranking(ranking, n_users=n_users, n_items=self.n_items)
            n_users = ranking.shape[0]
        if top_k is None and scores is None and ranking is None:
            raise ValueError("a run needs top_k, scores or ranking.")
        if n_users is None:
            n_users = _n_rows(top_k, "top_k")
        if history is not None:
            self.history = check_item_sets(history, n_users=n_users, n_items=self.n_items, name="history")
        if scores is not None:
            scores = mask_history(scores, self.history)
        self.scores = scores
        self._ranking = ranking

        if top_k is None:
            k = 10 if k is None else check_positive_int(k, "k")
            if k > self.n_items:
                raise ValueError(f"k={k} exceeds n_items={self.n_items}.")
            top_k = ranking[:, :k] if ranking is not None else top_k_from_scores(scores, k=k)
        self.top_k = check_top_k(top_k, n_items=self.n_items, k=k)
        self.n_users, self.k = self.top_k.shape
        if ranking is not None and not np.array_equal(ranking[:, : self.k], self.top_k):
            u = int(np.flatnonzero((ranking[:, : self.k] != self.top_k).any(axis=1))[0])
            raise ValueError(f"top_k disagrees with the first k={self.k} items of ranking (first at user {u}).")
        if scores is not None:
            expected = top_k_from_scores(scores, k=self.k)
            if not np.array_equal(expected, self.top_k):
                u = int(np.flatnonzero((expected != self.top_k).any(axis=1))[0])
                raise ValueError(
                    f"top_k disagrees with the stable descending sort of scores (first at user {u}: "
                    f"top_k {self.top_k[u].tolist()} vs scores {expected[u].tolist()})."
                )
        if self.history is not None and self.history.nnz:
            in_hist = contains(self.history, self.top_k)
            if in_hist.any():
                u = int(np.flatnonzero(in_hist.any(axis=1))[0])
                raise ValueError(f"top_k recommends a history item to user {u}; history items must be excluded.")

        self.relevant = None
        self.grades = None
        if relevant is not None and relevance is not None:
            raise ValueError("give either relevant (binary) or relevance (graded), not both.")
        if relevant is not None:
            self.relevant = check_item_sets(relevant, n_users=self.n_users, n_items=self.n_items, name="relevant")
        elif relevance is not None:
            grades = check_relevance(relevance, n_users=self.n_users, n_items=self.n_items)
            self.relevant = grades.astype(bool)
            if grades.nnz and not np.all(grades.data == 1.0):
                self.grades = grades

        self.rounds = check_rounds(rounds, self.top_k, self.n_items)
        self.user_attributes = user_attributes
        if user_attributes is not None and len(user_attributes) != self.n_users:
            raise ValueError(f"user_attributes has {len(user_attributes)} rows but top_k has {self.n_users} users.")
        self.item_features = check_item_features(item_features, self.n_items)
        checked = check_item_groups(item_groups, self.n_items)
        self.item_groups, self.item_group_labels = (None, None) if checked is None else checked

    def __repr__(self) -> str:
        extra = [name for name in ("relevant", "scores", "history", "rounds") if getattr(self, name) is not None]
        if self.graded:
            extra[extra.index("relevant")] = "relevance (graded)"
        if self._ranking is not None:
            extra.append("ranking")
        return f"Run(n_users={self.n_users}, n_items={self.n_items}, k={self.k}, with={extra})"

    @property
    def graded(self) -> bool:
        """Whether the run carries graded relevance (some grade differs from 1)."""
        return self.grades is not None

    @cached_property
    def relevance_values(self) -> sp.csr_matrix:
        """Float CSR ``(n_users, n_items)`` of :math:`r_{u,i}`: the grades, or 1 for every relevant item."""
        if self.grades is not None:
            return self.grades
        return self._need_relevant().astype(np.float64)

    @cached_property
    def top_grades(self) -> np.ndarray:
        """Float ``(n_users, k)``: :math:`r_{u,i}` of the item in each top-k slot (0 if not relevant)."""
        rel = self.relevance_values
        pos = locate(rel, self.top_k)
        return np.where(pos >= 0, rel.data[np.maximum(pos, 0)] if rel.nnz else 0.0, 0.0)

    def has(self, name: str) -> bool:
        """Whether the input ``name`` (one of :data:`INPUTS`) is available."""
        if name == "top_k":
            return True
        if name == "ranking":
            return self._ranking is not None or self.scores is not None
        return getattr(self, name) is not None

    @cached_property
    def ranking(self) -> np.ndarray:
        """Full ranking ``(n_users, n_items)``, from ``ranking`` or the stable sort of ``scores``."""
        if self._ranking is not None:
            return self._ranking
        if self.scores is None:
            raise ValueError("this run has no full ranking: pass scores or ranking.")
        return np.argsort(-self.scores, axis=1, kind="stable")

    @cached_property
    def hits(self) -> np.ndarray:
        """Bool ``(n_users, k)``: is the item in that slot relevant to its user?"""
        return contains(self._need_relevant(), self.top_k)

    @cached_property
    def n_relevant(self) -> np.ndarray:
        """Number of relevant items of each user, ``(n_users,)``."""
        return np.diff(self._need_relevant().indptr).astype(np.int64)

    @cached_property
    def counts(self) -> np.ndarray:
        """``c_i``: number of users whose top-k contains item ``i``, ``(n_items,)``."""
        return np.bincount(self.top_k.ravel(), minlength=self.n_items).astype(np.int64)

    def _need_relevant(self) -> sp.csr_matrix:
        if self.relevant is None:
            raise ValueError("this measure needs the relevant items of each user: pass relevant=.")
        return self.relevant


def contains(sets: sp.csr_matrix, items: np.ndarray) -> np.ndarray:
    """Bool array shaped like ``items`` ``(n_users, j)``: is ``items[u, j]`` in row ``u`` of ``sets``?"""
    return locate(sets, items) >= 0


def locate(sets: sp.csr_matrix, items: np.ndarray) -> np.ndarray:
    """Index into ``sets.data`` of each ``items[u, j]`` in row ``u`` (``-1`` if absent); sorted indices."""
    m, n = sets.shape
    rows = np.repeat(np.arange(m, dtype=np.int64), np.diff(sets.indptr))
    # one sorted key per (user, item) pair turns membership into a binary search
    keys = rows * n + sets.indices.astype(np.int64)
    query = np.arange(m, dtype=np.int64)[:, None] * n + items
    if keys.size == 0:
        return np.full(items.shape, -1, dtype=np.int64)
    pos = np.minimum(np.searchsorted(keys, query), keys.size - 1)
    return np.where(keys[pos] == query, pos, -1)


def _n_rows(values, name: str) -> int:
    try:
        return len(values)
    except TypeError:
        raise TypeError(f"{name} must be array-like, got {type(values).__name__}.") from None
