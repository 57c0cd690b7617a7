r"""The empirical Pareto frontier of Paper 4: the Oracle and Oracle2Fair (thesis Ch. 5, Algs. 1-2).

:func:`oracle2fair` starts from the most relevant top-:math:`k` lists a test split allows
(the *Oracle*) and makes one-slot replacements, each moving a slot from the most recommended
item to an unexposed or least recommended one, until no item is recommended more than
:math:`\lceil km/n \rceil` times. After every replacement it records the six relevance measures
and the five corrected exposure measures of Paper 1; the 2-D projections of that sequence are
the frontiers (:func:`recfair.pareto.frontier`).

The thesis leaves several choices open and its pseudocode has slips; recfair fixes each one
deterministically (the fixes are named ``Fix n`` in :func:`oracle2fair`'s notes).

Speed. The published code recomputes all 11 measures from scratch after every replacement.
Here each replacement updates the statistics the measures are made of in :math:`O(k)`:
:math:`\sum_i c_i^2` (Jain), :math:`\sum_i c_i\ln c_i` (Ent), the number of shown items (QF), the
rank-weighted sum of the sorted counts (Gini: one count moves by one, so its place in the
sorted order is known from a histogram of counts), the number of satisfied items (FSat), and
the changed user's relevance, whose hits are always packed at the top of the list. The scores
then follow from these statistics with the library's own formulas
(:func:`recfair.item_exposure.from_count_summary`, :func:`recfair.relevance.per_user_from_hits`).
"""

from __future__ import annotations

import heapq
import math
import warnings

import numpy as np
import pandas as pd

from .. import relevance as _relevance
from .._validation import check_item_sets, check_on_undefined, check_positive_int
from ..item_exposure import COUNT_MEASURES, CountSummary, count_summary, from_count_summary, fsat_threshold

__all__ = ["REL_MEASURES", "FAIR_MEASURES", "MEASURES", "oracle", "oracle2fair", "estimate_replacements",
           "stop_count"]

#: The relevance measures of Paper 4, in the thesis's order.
REL_MEASURES = tuple(s.key for s in _relevance.RECORDS)
#: The exposure-fairness measures of Paper 4: Paper 1's corrected versions (the thesis's numbers show it).
FAIR_MEASURES = ("Jain_our", "QF_our", "Ent_our", "Gini_our", "FSat_our")
#: The 11 columns of every frontier table.
MEASURES = REL_MEASURES + FAIR_MEASURES

assert set(FAIR_MEASURES) <= set(COUNT_MEASURES)


class FrontierWarning(UserWarning):
    """Oracle2Fair stopped before every item was at most ⌈km/n⌉ times in the lists."""


# --------------------------------------------------------------------------- inputs

def _split(history, relevant, n_items, k):
    """Validate the test split; return ``(m, n, k, hist CSR, rel CSR)``."""
    n = check_positive_int(n_items, "n_items")
    k = check_positive_int(k, "k")
    if k >= n:
        raise ValueError(f"k = {k} must be smaller than n_items = {n}: with k >= n every list holds the whole "
                         "catalogue and there is nothing to trade.")
    if relevant is None or history is None:
        raise ValueError("oracle2fair needs both history (train/validation items) and relevant (test items) "
                         "per user.")
    m = relevant.shape[0] if hasattr(relevant, "shape") and getattr(relevant, "ndim", 1) == 2 else len(relevant)
    if m == 0:
        raise ValueError("relevant has no users: the frontier is built over the test users.")
    rel = check_item_sets(relevant, n_users=m, n_items=n, name="relevant")
    hist = check_item_sets(history, n_users=m, n_items=n, name="history")
    n_rel = np.diff(rel.indptr)
    if (n_rel == 0).any():
        raise ValueError(f"user {int(np.flatnonzero(n_rel == 0)[0])} has no relevant item: the frontier is built over "
                         "test users, each with at least one test item.")
    both = rel.multiply(hist)
    if both.nnz:
        u, i = (int(x[0]) for x in both.nonzero())
        raise ValueError(f"item {i} is both relevant to user {u} and in that user's history; the test items must "
                         "not repeat the train/validation items.")
    free = n - np.diff(hist.indptr)
    if (free < k).any():
        u = int(np.flatnonzero(free < k)[0])
        raise ValueError(f"user {u} has {int(free[u])} items outside the history, fewer than k = {k}: no valid list.")
    return m, n, k, hist, rel


def stop_count(n_users: int, n_items: int, k: int) -> int:
    r"""Oracle2Fair's stopping count :math:`\lceil km/n \rceil`: no item needs more slots when the
    :math:`km` slots are spread as evenly as possible.

    Parameters
    ----------
    n_users : int
        The number of users :math:`m`.
    n_items : int
        The number of items :math:`n`.
    k : int
        The list length.

    Returns
    -------
    int

    Examples
    --------
    >>> stop_count(3, 4, 2)
    2
    """
    return -(-int(k) * int(n_users) // int(n_items))


def estimate_replacements(top_k, *, n_items: int) -> int:
    r"""Paper 4's estimate of the number of replacements Oracle2Fair makes from ``top_k``:

    .. math:: \mathrm{numRep} = \sum_{i:\ c_i > \lceil km/n\rceil} \bigl(c_i - \lceil km/n\rceil\bigr)

    Every replacement made while some item exceeds the bound lowers this excess by exactly one,
    so the true count is at least ``numRep``; it is larger when unexposed items are still put in
    after the bound is met (the thesis's first phase puts in every unexposed item).

    Parameters
    ----------
    top_k : array-like of int, shape (m, k)
        A run's lists (e.g. the Oracle's).
    n_items : int
        Catalogue size.

    Returns
    -------
    int

    Examples
    --------
    >>> estimate_replacements([[0, 1], [0, 2], [0, 1]], n_items=4)   # item 0: 3 lists, 1 above ceil(6/4)
    1
    """
    top_k = np.asarray(top_k)
    if top_k.ndim != 2 or top_k.shape[0] == 0:
        raise ValueError(f"top_k must be a non-empty (n_users, k) array, got shape {top_k.shape}.")
    n = check_positive_int(n_items, "n_items")
    m, k = top_k.shape
    counts = np.bincount(top_k.ravel(), minlength=n)
    if counts.size > n:
        raise ValueError(f"top_k holds item ids outside [0, {n}).")
    return int(np.maximum(counts - stop_count(m, n, k), 0).sum())


# --------------------------------------------------------------------------- the Oracle

def _oracle(m, n, k, hist, rel):
    """The Oracle (Alg. 1, with Fixes 1-4): ``(rec, unexposed)``; ``rec`` is a list of lists."""
    rel_ptr, rel_idx = rel.indptr, rel.indices
    hist_ptr, hist_idx = hist.indptr, hist.indices
    n_rel = np.diff(rel_ptr)
    rec: list[list[int] | None] = [None] * m
    cnt = np.zeros(n, dtype=np.int64)

    # users with exactly k relevant items: their relevant items (ascending id)
    for u in np.flatnonzero(n_rel == k):
        rec[u] = rel_idx[rel_ptr[u]:rel_ptr[u + 1]].tolist()
    if (n_rel == k).any():
        cnt += np.bincount(rel_idx[np.repeat(n_rel == k, n_rel)], minlength=n)

    # users with more than k: batches by |R*_u| ascending; within a batch by the exposure their
    # relevant items already have (Alg. 1 L8), ties by user index; each takes its k least exposed
    # relevant items at the moment it is served (Fix 1), ties by item id
    for size in np.unique(n_rel[n_rel > k]):
        batch = np.flatnonzero(n_rel == size)
        weight = np.array([cnt[rel_idx[rel_ptr[u]:rel_ptr[u + 1]]].sum() for u in batch])
        for u in batch[np.argsort(weight, kind="stable")]:
            items = rel_idx[rel_ptr[u]:rel_ptr[u + 1]]
            chosen = np.sort(items[np.argsort(cnt[items], kind="stable")[:k]])
            cnt[chosen] += 1
            rec[u] = chosen.tolist()

    # users with fewer than k: their relevant items on top (Alg. 1 L19, Fix 2), then unexposed
    # items in ascending id that are not in their history (Fix 3: stop at k), then the least
    # recommended admissible items (Alg. 1 L32; ties by item id, Fix 4)
    short = np.flatnonzero(n_rel < k)
    for u in short:
        rec[u] = rel_idx[rel_ptr[u]:rel_ptr[u + 1]].tolist()
    if short.size:
        cnt += np.bincount(rel_idx[np.repeat(n_rel < k, n_rel)], minlength=n)
    unexposed = np.flatnonzero(cnt == 0).tolist()
    taken = set()
    start = 0
    least: list | None = None                      # lazy (count, item) heap over recommended items
    for u in short:
        row = rec[u]
        filled = []
        h = hist_idx[hist_ptr[u]:hist_ptr[u + 1]]
        j = start
        while len(row) < k and j < len(unexposed):
            item = unexposed[j]
            j += 1
            if item in taken:
                continue
            pos = np.searchsorted(h, item)
            if pos < h.size and h[pos] == item:
                continue
            row.append(item)
            filled.append(item)
            taken.add(item)
            cnt[item] += 1
        if least is not None:
            for item in filled:
                heapq.heappush(least, (1, item))
        while start < len(unexposed) and unexposed[start] in taken:
            start += 1
        if len(row) < k:
            if least is None:
                least = [(int(c), int(i)) for i, c in enumerate(cnt) if c > 0]
                heapq.heapify(least)
            banned = set(h.tolist()) | set(rel_idx[rel_ptr[u]:rel_ptr[u + 1]].tolist()) | set(row)
            put_back = []
            while len(row) < k:
                c, item = heapq.heappop(least)
                if cnt[item] != c:
                    continue                        # stale entry
                if item in banned:
                    put_back.append((c, item))
                    continue
                row.append(item)
                banned.add(item)
                cnt[item] += 1
                heapq.heappush(least, (c + 1, item))
            for entry in put_back:
                heapq.heappush(least, entry)
    remaining = [i for i in unexposed if i not in taken]
    return rec, remaining


def oracle(history, relevant, *, n_items: int, k: int) -> np.ndarray:
    """The Oracle of Paper 4 (Alg. 1): the most relevant top-``k`` lists, least exposed items first.

    Users with exactly ``k`` relevant items get them; users with more get their ``k`` least
    exposed relevant items; users with fewer get all of theirs on top, then unexposed items, then
    the least recommended items. History items are never recommended. See :func:`oracle2fair`
    for the deterministic choices and the fixes.

    Returns
    -------
    ndarray of int, shape (n_users, k)

    Parameters
    ----------
    history : sequences of int or scipy.sparse (m, n_items)
        Items never recommended (each user's train items).
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items.
    n_items : int
        Catalogue size.
    k : int
        The list length.

    Examples
    --------
    >>> oracle(history=[[5], [4], [], [3]], relevant=[[0, 1], [0, 1, 2], [0], [0, 1]], n_items=6, k=2).tolist()
    [[0, 1], [0, 2], [0, 3], [0, 1]]
    """
    m, n, k, hist, rel = _split(history, relevant, n_items, k)
    rec, _ = _oracle(m, n, k, hist, rel)
    return np.array(rec, dtype=np.int64)


# --------------------------------------------------------------------------- Oracle2Fair

class _Engine:
    """Oracle2Fair's state: the lists, item counts, and the statistics of the 11 measures."""

    def __init__(self, m, n, k, hist, rel, rec):
        self.m, self.n, self.k = m, n, k
        self.rel_ptr, self.rel_idx = rel.indptr, rel.indices
        self.hist_ptr, self.hist_idx = hist.indptr, hist.indices
        self.rel_csc = rel.tocsc()
        self.rec = rec
        top = np.array(rec, dtype=np.int64)
        counts = np.bincount(top.ravel(), minlength=n)
        self.cnt = counts.tolist()
        self.hist_counts = np.bincount(counts, minlength=m + 2).tolist()   # items per count value
        summary = count_summary(top, n_items=n)
        self.sum_sq, self.sum_c_ln_c = summary.sum_sq, summary.sum_c_ln_c
        self.n_shown, self.rank_sum, self.n_sat = summary.n_shown, summary.rank_sum, summary.n_satisfied
        self.threshold = fsat_threshold(k * m, n)
        self.c_ln_c = [0.0] + [c * math.log(c) for c in range(1, m + 2)]
        # hits of each list (relevant items packed on top)
        member = rel[np.repeat(np.arange(m), k), top.ravel()].A1.reshape(m, k).astype(bool)
        self.r = member.sum(axis=1).tolist()
        self.r0 = np.array(self.r, dtype=np.int64)   # hits at the Oracle
        # heaps: most popular (-count, item), least popular (count, item); lazy deletion
        self.most = [(-c, i) for i, c in enumerate(self.cnt) if c > 0]
        heapq.heapify(self.most)
        self.least = [(c, i) for i, c in enumerate(self.cnt)]
        heapq.heapify(self.least)
        # holders of each item, in Alg. 2's order: its position in the list descending, then user
        # ascending; key = (k - 1 - position) * m + user, valid while rec[user][position] == item
        keys = ((k - 1 - np.arange(k))[None, :] * m + np.arange(m)[:, None]).ravel()
        order = np.lexsort((keys, top.ravel()))
        bounds = np.searchsorted(top.ravel()[order], np.arange(n + 1))
        sorted_keys = keys[order]
        self.holders = [sorted_keys[bounds[i]:bounds[i + 1]].tolist() for i in range(n)]
        self.holding = [set((sorted_keys[bounds[i]:bounds[i + 1]] % m).tolist()) for i in range(n)]
        self._relevant_to = {}                     # item -> users it is relevant to (built on first use)
        self.log = []                              # per replacement: (user, hits before, hits after)

    # ---- membership
    def in_history(self, u, item):
        h = self.hist_idx[self.hist_ptr[u]:self.hist_ptr[u + 1]]
        pos = np.searchsorted(h, item)
        return pos < h.size and h[pos] == item

    def is_relevant(self, u, item):
        r = self.rel_idx[self.rel_ptr[u]:self.rel_ptr[u + 1]]
        pos = np.searchsorted(r, item)
        return pos < r.size and r[pos] == item

    # ---- popularity
    def most_popular(self):
        while True:
            c, item = self.most[0]
            if self.cnt[item] == -c:
                return item, -c
            heapq.heappop(self.most)

    def least_popular(self):
        """Items in (count, id) order, as a generator over the lazy heap (entries are restored)."""
        popped = []
        try:
            while self.least:
                c, item = heapq.heappop(self.least)
                if self.cnt[item] != c:
                    continue
                popped.append((c, item))
                yield item, c
        finally:
            for entry in popped:
                heapq.heappush(self.least, entry)

    def _below(self, c):
        """Number of items with a count below ``c`` (O(1) at the smallest and largest counts)."""
        hc = self.hist_counts
        low = self._least_count()
        if c <= low:
            return 0
        high = self.most_popular()[1]
        if c >= high:
            return self.n - sum(hc[c:high + 1])
        return sum(hc[low:c])

    def _least_count(self):
        while True:
            c, item = self.least[0]
            if self.cnt[item] == c:
                return c
            heapq.heappop(self.least)

    # ---- the user who receives ``item`` in place of ``top``
    def receiver(self, top, item, *, check_list):
        k, m = self.k, self.m
        relevant_to = self._relevant_to.get(item)
        if relevant_to is None:
            ptr = self.rel_csc.indptr
            relevant_to = self._relevant_to[item] = set(self.rel_csc.indices[ptr[item]:ptr[item + 1]].tolist())
        both = self.holding[top] & relevant_to if relevant_to else ()
        best = None
        for u in both:                      # holders of ``top`` for whom ``item`` is relevant: the first in order
            row = self.rec[u]
            if item not in row:
                key = (k - 1 - row.index(top)) * m + u
                if best is None or key < best:
                    best = key
        if best is not None:
            return best % m
        heap = self.holders[top]
        aside, found = [], None
        while heap:
            key = heap[0]
            u, pos = key % m, k - 1 - key // m
            if self.rec[u][pos] != top:
                heapq.heappop(heap)                  # stale: the user no longer holds it there
                continue
            if self.in_history(u, item) or (check_list and item in self.rec[u]):
                aside.append(heapq.heappop(heap))
                continue
            found = u
            break
        for key in aside:
            heapq.heappush(heap, key)
        return found

    # ---- one replacement
    def replace(self, u, top, item):
        k, m, row = self.k, self.m, self.rec[u]
        pos = row.index(top)
        r_old = self.r[u]
        top_rel = pos < r_old                         # hits are packed on top
        item_rel = self.is_relevant(u, item)
        row[pos] = item
        if top_rel and not item_rel:                  # the new item sinks below the remaining hits
            row[pos:r_old] = row[pos + 1:r_old] + [item]
            moved = range(pos, r_old)
            self.r[u] = r_old - 1
        elif item_rel and not top_rel:                # the new hit rises to the end of the hits
            row[r_old:pos + 1] = [item] + row[r_old:pos]
            moved = range(r_old, pos + 1)
            self.r[u] = r_old + 1
        else:
            moved = (pos,)
        self.holding[top].discard(u)
        self.holding[item].add(u)
        for p in moved:
            heapq.heappush(self.holders[row[p]], (k - 1 - p) * m + u)
        self._move(top, -1)
        self._move(item, +1)
        self.log.append((u, r_old, self.r[u]))

    def _move(self, item, step):
        c = self.cnt[item]
        hc = self.hist_counts
        if step < 0:   # c -> c - 1: the item leaves the front of the block of count c in sorted order
            self.rank_sum -= 1 + self._below(c)
            self.sum_sq += 1 - 2 * c
            self.sum_c_ln_c += self.c_ln_c[c - 1] - self.c_ln_c[c]
            if c == 1:
                self.n_shown -= 1
            if self.threshold and c == self.threshold:
                self.n_sat -= 1
        else:          # c -> c + 1: the item leaves the back of the block of count c
            self.rank_sum += self._below(c) + hc[c]
            self.sum_sq += 2 * c + 1
            self.sum_c_ln_c += self.c_ln_c[c + 1] - self.c_ln_c[c]
            if c == 0:
                self.n_shown += 1
            if self.threshold and c + 1 == self.threshold:
                self.n_sat += 1
        hc[c] -= 1
        hc[c + step] += 1
        self.cnt[item] = c + step
        heapq.heappush(self.most, (-(c + step), item))
        heapq.heappush(self.least, (c + step, item))

    def summary(self):
        return (self.sum_sq, self.sum_c_ln_c, self.n_shown, self.rank_sum, self.n_sat)


def oracle2fair(history, relevant, *, n_items: int, k: int, points: int | None = None,
                lists: bool = False, on_undefined: str = "warn") -> pd.DataFrame:
    r"""Paper 4's frontier sequence: the Oracle, then Oracle2Fair's replacements, with 11 scores each.

    Parameters
    ----------
    history : sequences of int or scipy.sparse (n_users, n_items)
        Each test user's train/validation items; never recommended.
    relevant : sequences of int or scipy.sparse (n_users, n_items)
        Each test user's test items (binary relevance); every user needs at least one, and none
        may be in that user's history.
    n_items : int
        Catalogue size :math:`n` (every item of the dataset).
    k : int, default=10
        List length; must be smaller than ``n_items``.
    points : int, optional
        ``None`` records every replacement (the full frontier). An int :math:`p \ge 2` records the
        *estimated* frontier of Paper 4: the Oracle, the states after every
        :math:`\lfloor \mathrm{numRep}/(p-1) \rfloor`-th replacement (:func:`estimate_replacements`),
        :math:`p - 2` of them, and the fairest end, so exactly ``p`` rows (fewer only when the full
        sequence is shorter). The replacements are the same as for the full frontier, so the
        estimated rows are rows of the full table.
    lists : bool, default=False
        Also keep the top-``k`` lists of every recorded row, as ``table.attrs["lists"]`` (one
        ``(n_users, k)`` array per row; for small examples: the full walk of a large split is long).
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        Policy for undefined scores (e.g. a corrected measure whose achievable range is empty).

    Returns
    -------
    pandas.DataFrame
        One row per recorded state, the Oracle first: ``replacements`` (how many were made so far)
        and the measures ``HR MRR P R MAP NDCG Jain_our QF_our Ent_our Gini_our FSat_our`` at ``k``.
        ``attrs`` holds ``n_users``, ``n_items``, ``k``, ``stop`` (:math:`\lceil km/n\rceil`),
        ``estimated_replacements``, ``total_replacements``, ``reached_stop`` and ``points``.

    Notes
    -----
    Deterministic choices where the thesis is silent, and fixes of its slips:

    * Ties: the most popular item is the one with the highest count, then the lowest id; the least
      popular the lowest count, then the lowest id; users holding the most popular item are taken
      from the one holding it lowest in the list, then the lowest user index; items are taken in
      ascending id wherever the published code iterates a Python set.
    * Fix 1 (Oracle, batch bookkeeping): users with more than ``k`` relevant items are served in
      ascending order of the exposure their relevant items have before their batch (Alg. 1 L8), but
      each takes the ``k`` relevant items that are least exposed *when it is served*, so two users
      of one batch never both count the same item as unexposed. This deviates from the published
      code, which does it the literal way (the "taken" items from the counts before the batch, the
      whole batch's fresh items added to the counts before anyone is served); on such a batch its
      Oracle leaves relevant items unexposed that recfair's exposes.
    * Fix 2 (Alg. 1 L19): ``rec[u] <- |R*_u|`` means the relevant items themselves, on top.
    * Fix 3 (Alg. 1 L22-29): filling stops at ``k`` items and skips items in the user's history;
      when no unexposed item is admissible the loop ends instead of never halting.
    * Fix 4 (Alg. 1 L32): the least recommended admissible item, ties by lowest id.
    * Fix 5 (Alg. 2 L7, L22, the stale ``cntPop``): the break tests the *current* largest count:
      the first phase stops once no item is recommended more than once (moving a slot from a
      count-1 item to an unexposed one changes no measure); phase 2 runs only if phase 1 ended
      without that break (the for-else of Alg. 2 L25), while the largest count exceeds
      :math:`\lceil km/n\rceil`.
    * Fix 6 (candidate bookkeeping): the user who received an item leaves the most popular item's
      holders; when no holder may receive the item (its history has it, or its list), phase 1 skips
      the item and phase 2 tries the next least popular one that is at least two below the largest
      count; if none exists the walk stops with a :class:`FrontierWarning` (the published code raises
      ``IndexError``; the thesis notes Alg. 2 "might not halt").
    * After each replacement the list is stably re-partitioned, hits first (Alg. 2 L18).
    * Estimated frontier: exactly ``p`` points including the fairest end (the published code's
      schedule, every ``numRep // (p - 1)`` replacements, can overshoot ``p`` or stop before the end,
      because the true number of replacements can exceed ``numRep``).

    Examples
    --------
    >>> table = oracle2fair(history=[[5], [4], [], [3]], relevant=[[0, 1], [0, 1, 2], [0], [0, 1]],
    ...                     n_items=6, k=2, lists=True)
    >>> table[["replacements", "P", "NDCG", "Jain_our"]].round(3).to_dict("list")
    {'replacements': [0, 1, 2], 'P': [0.875, 0.75, 0.625], 'NDCG': [1.0, 0.903, 0.807], 'Jain_our': [0.273, 0.6, 1.0]}
    >>> table.attrs["lists"][-1].tolist()          # item 0 gave two slots to the unexposed items 4 and 5
    [[1, 4], [2, 5], [0, 3], [0, 1]]
    """
    check_on_undefined(on_undefined)
    m, n, k, hist, rel = _split(history, relevant, n_items, k)
    if points is not None:
        points = check_positive_int(points, "points", minimum=2)
    rec, unexposed = _oracle(m, n, k, hist, rel)
    eng = _Engine(m, n, k, hist, rel, rec)
    stop = stop_count(m, n, k)
    estimate = int(sum(max(0, c - stop) for c in eng.cnt))
    every = None if points is None else max(1, estimate // (points - 1))
    last_scheduled = None if points is None else (points - 2) * every
    states = [eng.summary()]
    recorded = [0]
    kept = [np.array(eng.rec)] if lists else None

    def record():
        t = len(eng.log)
        if points is None or (t % every == 0 and t <= last_scheduled):
            states.append(eng.summary())
            recorded.append(t)
            if lists:
                kept.append(np.array(eng.rec))

    # phase 1: every unexposed item, in ascending id
    broke = False
    for item in unexposed:
        top, cmax = eng.most_popular()
        if cmax <= 1:
            broke = True
            break
        u = eng.receiver(top, item, check_list=False)
        if u is None:
            continue
        eng.replace(u, top, item)
        record()
    # phase 2 (for-else): the least popular item takes a slot of the most popular one
    reached = True
    if not broke:
        while True:
            top, cmax = eng.most_popular()
            if cmax <= stop:
                break
            done = False
            candidates = eng.least_popular()
            try:
                for item, c in candidates:
                    if c > cmax - 2:
                        break
                    u = eng.receiver(top, item, check_list=True)
                    if u is not None:
                        eng.replace(u, top, item)
                        done = True
                        break
            finally:
                candidates.close()
            if not done:
                reached = False
                warnings.warn(f"Oracle2Fair stopped after {len(eng.log)} replacements with item {top} in {cmax} "
                              f"lists (> {stop} = ceil(km/n)): no holder of it may receive a less recommended "
                              "item (their histories or lists have them all).", FrontierWarning, stacklevel=2)
                break
            record()
    total = len(eng.log)
    if recorded[-1] != total:
        states.append(eng.summary())
        recorded.append(total)
        if lists:
            kept.append(np.array(eng.rec))
    table = _scores(eng, states, recorded, on_undefined)
    table.attrs.update(n_users=m, n_items=n, k=k, stop=stop, estimated_replacements=estimate,
                       total_replacements=total, reached_stop=reached, points=points)
    if lists:
        table.attrs["lists"] = kept
    return table


def _scores(eng, states, recorded, on_undefined):
    """The 11 scores at the recorded states, from the logged relevance changes and count statistics."""
    m, k = eng.m, eng.k
    n_rel = np.diff(eng.rel_ptr)
    sizes, group = np.unique(n_rel, return_inverse=True)
    # per-user value of each relevance measure for r hits on top (r = 0..k) and each |R*_u| size
    r_grid = np.minimum(np.arange(k + 1)[None, :], sizes[:, None])             # (sizes, k + 1)
    hits = np.arange(k)[None, None, :] < r_grid[:, :, None]
    table = {name: _relevance.per_user_from_hits(name, hits.reshape(-1, k), np.repeat(sizes, k + 1))
             .reshape(sizes.size, k + 1) for name in REL_MEASURES}
    r0 = eng.r0
    if eng.log:
        log = np.array(eng.log, dtype=np.int64)
    g = group
    steps = np.asarray(recorded)
    out = {"replacements": steps}
    for name in REL_MEASURES:
        values = table[name]
        total0 = values[g, r0].sum()
        if eng.log:
            delta = values[g[log[:, 0]], log[:, 2]] - values[g[log[:, 0]], log[:, 1]]
            running = np.concatenate([[0.0], np.cumsum(delta)])
        else:
            running = np.zeros(1)
        out[name] = (total0 + running[steps]) / m
    stats = CountSummary(*(np.array(col) for col in zip(*states)))
    for name in FAIR_MEASURES:
        out[name] = np.asarray(from_count_summary(name, stats, n_users=m, n_items=eng.n, k=k,
                                                  on_undefined=on_undefined), dtype=np.float64) * np.ones(len(steps))
    return pd.DataFrame(out)
