"""Part VI against the peers, on the five-user example of /work/shared/examples/five-users.md.

Each peer's convention is written out below in plain Python from the peer's code, as read (the
docstring names the file and the lines), independently of recfair; the test then checks that

* the plain-Python peer gives the number the peer's own code printed on this example (the table
  of five-users.md), and
* recfair reaches the same number through named options.

Versions read: rectools 0.19.0 and RecBole 1.2.1 and WarpRec 2.2.8 (their wheels from PyPI),
Elliot at the commits of the stored sisinflab/elliot repository named below.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

import recfair as rf

# ---------------------------------------------------------------------------- the example
N, K = 5, 2
HISTORY = [[0, 1, 2], [0, 1, 3], [0, 1, 2], [0], [0]]          # popularity (distinct users): 5 3 2 1 0
RELEVANT = [[3, 4], [2, 4], [4], [1, 2], [3]]
TOP = np.array([[4, 3], [2, 4], [3, 4], [1, 4], [1, 2]])
USER_GROUPS = ["A", "A", "B", "B", "B"]
ITEM_GROUPS = [1, 1, 1, 2, 2]
ITEM_4_UNLABELLED = [1, 1, 1, 2, None]                          # WarpRec's cluster 0


def _counts():
    """Training interactions per item (every (user, item) pair occurs once, so users = rows)."""
    return [sum(i in h for h in HISTORY) for i in range(N)]


def _lists():
    return [list(map(int, row)) for row in TOP]


# ---------------------------------------------------------------------------- peers, as read

def _elliot_head_tail():
    """Elliot, elliot/evaluation/popularity_utils.py (class ``Popularity``): popularity = distinct users
    (line 26, ``sp_i_train.astype(bool).sum(axis=0)``), a stable sort by popularity (line 32),
    ``short_head_limit = transactions * 0.8`` then items appended while ``limit -= pop`` and ``break`` once
    ``limit <= 0`` (lines 38-44: the item reaching 80 % is in the head); the long tail is every other item
    of its item set (line 50). The five-user table's Elliot values hold item 4 (never seen in training)
    in that set; ``_elliot_seen_tail`` is the case where the item set is the training items only."""
    pop = _counts()
    order = sorted(range(N), key=lambda i: pop[i], reverse=True)          # Python's sort is stable
    limit, head = sum(pop) * 0.8, []
    for i in order:
        head.append(i)
        limit -= pop[i]
        if limit <= 0:
            break
    return set(head), [i for i in order if i not in head]


def _elliot_seen_tail():
    """Elliot's item set as its dataset loaders build it, ``self.items = list({k for a in
    self.train_dict.values() ...})`` (elliot/dataset/dataset.py): the training items, so a test-only item
    is in neither the head nor the tail: recfair's ``tail="seen"``."""
    head, tail = _elliot_head_tail()
    return head, [i for i in tail if _counts()[i] > 0]


def _warprec_head_tail(pop):
    """WarpRec 2.2.8, warprec/evaluation/metrics/base_metric.py, ``compute_head_tail`` (lines 133-148): sort
    by popularity, ``cutoff_index = where(cumulative_pop > total * pop_ratio)[0][0]`` (line 140, strictly
    greater), the head up to and including the cutoff, the tail every other catalogue item."""
    order = sorted(range(len(pop)), key=lambda i: -pop[i])
    total, cumulative = sum(pop), 0
    for j, i in enumerate(order):
        cumulative += pop[i]
        if cumulative > total * 0.8:
            return set(order[:j + 1]), order[j + 1:]
    raise AssertionError("WarpRec's torch.where(...)[0][0] raises here")


def _recbole_tail(tail_ratio):
    """RecBole 1.2.1, recbole/evaluator/metrics.py, ``TailPercentage.get_tail`` (lines 737-743): with
    ``tail_ratio > 1`` the items of ``data.count_items`` with ``cnt <= tail_ratio`` (line 738); otherwise
    the count items sorted by ``(count, item)`` (line 740) cut at ``max(int(len * tail_ratio), 1)``
    (line 741). ``data.count_items`` is the training set's item counter: seen items only."""
    count_items = {i: c for i, c in enumerate(_counts()) if c > 0}
    if tail_ratio > 1:
        return {i for i, c in count_items.items() if c <= tail_ratio}
    ranked = sorted(count_items.items(), key=lambda kv: (kv[1], kv[0]))
    return {i for i, _ in ranked[:max(int(len(ranked) * tail_ratio), 1)]}


def _share(lists, tail):
    return float(np.mean([sum(i in tail for i in row) / len(row) for row in lists]))


def _share_in(tail):
    return _share(_lists(), tail)


def _parity(num, den):
    pr = np.asarray(num, float) / np.asarray(den, float)
    return float(np.std(pr) / np.mean(pr))


# ---------------------------------------------------------------------------- ARP

def test_arp_elliot_recbole_rectools_warprec():
    """Elliot and RecBole: the mean popularity of the recommended items (RecBole, metrics.py line 552:
    ``item_count.get(row[j], 0)``, never-seen items count 0); WarpRec floors it at 1
    (base_metric.py line 163, ``torch.clamp(item_interactions, min=1)``; its popularity is distinct users,
    evaluation/evaluator.py line 148, ``train_set.getnnz(axis=0)``); rectools 0.19.0,
    rectools/metrics/popularity.py line 122: ``value_counts(normalize=self.normalize)``, so ``normalize=True``
    divides by the number of interactions, and line 127 fills never-seen items with 0."""
    pop = _counts()
    plain = float(np.mean([np.mean([pop[i] for i in row]) for row in _lists()]))
    floored = float(np.mean([np.mean([max(pop[i], 1) for i in row]) for row in _lists()]))
    shares = float(np.mean([np.mean([pop[i] / sum(pop) for i in row]) for row in _lists()]))
    assert (plain, floored) == pytest.approx((1.2, 1.6))                     # the table: 1.2 and 1.6
    assert rf.arp(TOP, n_items=N, history=HISTORY) == pytest.approx(plain)
    assert rf.arp(TOP, n_items=N, history=HISTORY, popularity="interactions") == pytest.approx(plain)
    assert rf.arp(TOP, n_items=N, history=HISTORY, min_popularity=1) == pytest.approx(floored)
    assert rf.arp(TOP, n_items=N, history=HISTORY, popularity="interactions", normalize=True) == pytest.approx(shares)
    assert shares == pytest.approx(1.2 / 11)


# ---------------------------------------------------------------------------- APLT, ACLT

def test_aplt_aclt_elliot_and_warprec():
    """Elliot's APLT, elliot/evaluation/metrics/bias/aplt/aplt.py line 69 (commit 01269263):
    ``len(set(L_u) & set(long_tail)) / len(L_u)``; WarpRec's, bias/aplt.py line 27 (tail count / k) and
    bias/aclt.py line 27 (the count)."""
    _, elliot_tail = _elliot_head_tail()
    _, warprec_tail = _warprec_head_tail(_counts())
    assert _share_in(set(elliot_tail)) == pytest.approx(0.6)                 # the table: 0.6, 0.6
    assert _share_in(set(warprec_tail)) == pytest.approx(0.6)
    assert rf.aplt(TOP, n_items=N, history=HISTORY) == pytest.approx(0.6)
    assert rf.aplt(TOP, n_items=N, history=HISTORY, crossing="exceed") == pytest.approx(0.6)
    _, seen_tail = _elliot_seen_tail()
    assert rf.aplt(TOP, n_items=N, history=HISTORY, tail="seen") == pytest.approx(_share_in(set(seen_tail)))
    assert _share_in(set(seen_tail)) == pytest.approx(0.2)
    aclt = float(np.mean([sum(i in set(warprec_tail) for i in row) for row in _lists()]))
    assert aclt == pytest.approx(1.2) and rf.aclt(TOP, n_items=N, history=HISTORY) == pytest.approx(aclt)


def test_crossing_where_elliot_and_warprec_part():
    """When a prefix covers exactly 80 % of the interactions, Elliot stops there (``limit <= 0``) and
    WarpRec takes one more item (``cumulative > 0.8 total``): ``crossing="include"`` vs ``"exceed"``."""
    pop = [5, 3, 2, 0]                                                   # 5 + 3 = 8 = 80 % of 10
    head_w, _ = _warprec_head_tail(pop)
    limit, head_e = 8.0, []
    for i in (0, 1, 2, 3):
        head_e.append(i)
        limit -= pop[i]
        if limit <= 0:
            break
    assert set(head_e) == {0, 1} and head_w == {0, 1, 2}
    codes = rf.field.head_tail(pop)
    assert set(np.flatnonzero(codes == rf.field.popularity.HEAD)) == set(head_e)
    codes = rf.field.head_tail(pop, crossing="exceed")
    assert set(np.flatnonzero(codes == rf.field.popularity.HEAD)) == head_w


def test_tail_percentage_recbole():
    """RecBole's TailPercentage (see ``_recbole_tail``): 0.2 with the default ``tail_ratio=0.1``
    (metrics.py line 719), against Elliot's and WarpRec's 0.6. ``tail_items=0.1`` (a float: a share of the
    seen items) and ``tail_threshold=`` (``tail_ratio`` above 1) reproduce it; RecBole counts interaction rows."""
    opts = dict(n_items=N, history=HISTORY, popularity="interactions")
    assert _share_in(_recbole_tail(0.1)) == pytest.approx(0.2)              # the table: 0.2
    assert rf.aplt(TOP, tail_items=0.1, **opts) == pytest.approx(0.2)
    for ratio in (0.5, 0.75, 1.0):
        assert rf.aplt(TOP, tail_items=ratio, **opts) == pytest.approx(_share_in(_recbole_tail(ratio)))
    for ratio in (2, 3, 4.5):
        assert rf.aplt(TOP, tail_threshold=ratio, **opts) == pytest.approx(_share_in(_recbole_tail(ratio)))
    assert rf.aplt(TOP, tail_items=1, **opts) == pytest.approx(_share_in({3}))      # an int: one item
    with pytest.raises(ValueError, match=r"share in \(0, 1\]"):
        rf.aplt(TOP, tail_items=1.5, **opts)
    with pytest.raises(ValueError, match="not both"):
        rf.aplt(TOP, tail_items=0.1, tail_threshold=2, **opts)


# ---------------------------------------------------------------------------- PopRSP, PopREO

def test_pop_rsp_pop_reo_elliot_warprec():
    """Elliot, bias/pop_rsp/pop_rsp.py lines 57-58 (commit 0e002db8, the oldest stored; the newest,
    c085d430, is the same): ``den_h = len(short_head - u_train)``: every version divides by the group's
    items *outside* the user's training set (recfair's ``denominator="unseen"``). WarpRec, bias/pop_rsp.py
    lines 99-100, counts the head/tail items on offer (not in training) the same way."""
    head, tail = _elliot_head_tail()
    tail = set(tail)
    num, den, hits, rel = np.zeros(2), np.zeros(2), np.zeros(2), np.zeros(2)
    for row, h, r in zip(_lists(), HISTORY, RELEVANT):
        num += [len(set(row) & head), len(set(row) & tail)]
        den += [len(head - set(h)), len(tail - set(h))]
        hits += [len(set(row) & head & set(r)), len(set(row) & tail & set(r))]
        rel += [len(head & set(r) - set(h)), len(tail & set(r) - set(h))]
    assert _parity(num, den) == pytest.approx(1 / 11) and _parity(hits, rel) == pytest.approx(1 / 11)  # 0.0909
    assert rf.pop_rsp(TOP, n_items=N, history=HISTORY) == pytest.approx(_parity(num, den))
    assert rf.pop_reo(TOP, RELEVANT, n_items=N, history=HISTORY) == pytest.approx(_parity(hits, rel))
    group = [len(head), len(tail)]
    whole = _parity(num, [len(HISTORY) * g for g in group])
    assert rf.pop_rsp(TOP, n_items=N, history=HISTORY, denominator="group") == pytest.approx(whole)
    assert whole != pytest.approx(_parity(num, den))                      # a convention no peer uses


# ---------------------------------------------------------------------------- RSP, REO on item groups

def _warprec_groups(labels):
    """WarpRec's clusters: 1, 2, ... for the labels, 0 for an unlabelled item (counted as one more group)."""
    return [0 if g is None else g for g in labels]


def _warprec_rsp(labels):
    """WarpRec 2.2.8, warprec/evaluation/metrics/fairness/rsp.py: per cluster, recommendations over the
    items on offer (lines 115-123: finite scores, i.e. not in the user's training set); clusters with
    nothing on offer are dropped (line 136, ``valid_mask``), cluster 0 included; std (unbiased=False) over
    mean (lines 159-163)."""
    clusters = _warprec_groups(labels)
    c = max(clusters) + 1
    num, den = np.zeros(c), np.zeros(c)
    for row, h in zip(_lists(), HISTORY):
        for i in row:
            num[clusters[i]] += 1
        for i in range(N):
            if i not in h:
                den[clusters[i]] += 1
    keep = den > 0
    return _parity(num[keep], den[keep])


def _warprec_reo(labels):
    """WarpRec 2.2.8, fairness/reo.py: per cluster, relevant recommended items over relevant items
    (lines 93-110); clusters without a relevant item dropped (line 115), cluster 0 included; std over mean
    (lines 141-145)."""
    clusters = _warprec_groups(labels)
    c = max(clusters) + 1
    num, den = np.zeros(c), np.zeros(c)
    for row, r in zip(_lists(), RELEVANT):
        for i in row:
            if i in r:
                num[clusters[i]] += 1
        for i in r:
            den[clusters[i]] += 1
    keep = den > 0
    return _parity(num[keep], den[keep])


def _elliot_rsp():
    """Elliot, fairness/rsp/rsp.py line 97 (commit c085d430; line 72 at 0e002db8, the oldest stored):
    ``self._den[i] += len(i_set - user_train)``; line 96 the recommended items of the cluster."""
    num, den = np.zeros(2), np.zeros(2)
    for row, h in zip(_lists(), HISTORY):
        for g in (1, 2):
            items = {i for i in range(N) if ITEM_GROUPS[i] == g}
            num[g - 1] += len(set(row) & items)
            den[g - 1] += len(items - set(h))
    return _parity(num, den)


def test_rsp_reo_elliot_and_warprec():
    assert _elliot_rsp() == pytest.approx(1 / 11) and _warprec_rsp(ITEM_GROUPS) == pytest.approx(1 / 11)
    assert rf.rsp(TOP, n_items=N, item_groups=ITEM_GROUPS, history=HISTORY) == pytest.approx(_elliot_rsp())
    assert _warprec_reo(ITEM_GROUPS) == pytest.approx(1 / 11)                # the table: 0.0909
    assert rf.reo(TOP, RELEVANT, n_items=N, item_groups=ITEM_GROUPS) == pytest.approx(_warprec_reo(ITEM_GROUPS))


def test_warprec_unlabelled_items_and_empty_groups():
    """Item 4 unlabelled: WarpRec's REO is 0.288 (its cluster 0 is one more group in the aggregate),
    recfair's default leaves the item out; ``unlabelled="group"`` reproduces WarpRec, and
    ``empty_groups="drop"`` its dropping of clusters with nothing to divide by."""
    warprec = _warprec_reo(ITEM_4_UNLABELLED)
    assert warprec == pytest.approx(0.288, abs=5e-4)                        # the table: 0.288
    opts = dict(n_items=N, item_groups=ITEM_4_UNLABELLED, unlabelled="group", empty_groups="drop")
    assert rf.reo(TOP, RELEVANT, **opts) == pytest.approx(warprec)
    assert rf.reo(TOP, RELEVANT, n_items=N, item_groups=ITEM_4_UNLABELLED) != pytest.approx(warprec)
    assert rf.rsp(TOP, history=HISTORY, **opts) == pytest.approx(_warprec_rsp(ITEM_4_UNLABELLED))
    # a group with no relevant item: undefined by default, dropped by WarpRec
    groups = [1, 1, 1, 2, 3]
    relevant = [[r for r in rel if r != 4] or [0] for rel in RELEVANT]        # no user finds item 4 relevant
    with pytest.raises(rf.UndefinedMeasureError, match="no relevant item"):
        rf.reo(TOP, relevant, n_items=N, item_groups=groups, on_undefined="raise")
    dropped = rf.reo(TOP, relevant, n_items=N, item_groups=groups, empty_groups="drop")
    assert dropped == pytest.approx(rf.reo(TOP, relevant, n_items=N, item_groups=[1, 1, 1, 2, None]))
    with pytest.raises(ValueError, match="empty_groups"):
        rf.reo(TOP, relevant, n_items=N, item_groups=groups, empty_groups="skip")


# ---------------------------------------------------------------------------- bias disparity, MAD

def test_bias_disparity_table():
    """Elliot's and WarpRec's BS/BR/BD on the example (five-users.md); BS = 0 gives inf (Elliot) where
    WarpRec prints 3.4e38."""
    table = rf.field.bias_disparity(TOP, HISTORY, n_items=N, item_groups=ITEM_GROUPS, groups=USER_GROUPS)
    assert table["BR"].tolist() == pytest.approx([0.417, 1.875, 0.833, 1.25], abs=5e-4)
    assert table["BS"].tolist() == pytest.approx([1.389, 0.417, 1.667, 0.0], abs=5e-4)
    assert table["BD"].tolist()[:3] == pytest.approx([-0.7, 3.5, -0.5]) and table["BD"].tolist()[3] == math.inf


def test_item_mad_gain_and_unlabelled():
    """WarpRec's gain, base_metric.py line 57: ``2 ** (target + 1) - 1`` (3 on binary data), Elliot's
    2^(r-t+1)-1 (1 on binary data): ItemMAD 0.375 vs 0.125; with item 4 unlabelled WarpRec's cluster 0
    joins the pairs (0.5)."""
    def mad(gain, labels):
        count, total = {}, {}
        for row, rel in zip(_lists(), RELEVANT):
            for i in row:
                count[i] = count.get(i, 0) + 1
                total[i] = total.get(i, 0) + (gain if i in rel else 0)
        clusters = sorted({0 if g is None else g for g in labels})
        avg = []
        for c in clusters:
            items = [i for i in count if (0 if labels[i] is None else labels[i]) == c]
            avg.append(np.mean([total[i] / count[i] for i in items]))
        return float(np.mean([abs(a - b) for j, a in enumerate(avg) for b in avg[j + 1:]]))

    assert (mad(1, ITEM_GROUPS), mad(3, ITEM_GROUPS), mad(3, ITEM_4_UNLABELLED)) == pytest.approx((0.125, 0.375, 0.5))
    assert rf.item_mad(TOP, RELEVANT, n_items=N, item_groups=ITEM_GROUPS) == pytest.approx(0.125)
    assert rf.item_mad(TOP, RELEVANT, n_items=N, item_groups=ITEM_GROUPS, gain="shifted") == pytest.approx(0.375)
    assert rf.item_mad(TOP, RELEVANT, n_items=N, item_groups=ITEM_4_UNLABELLED, gain="shifted",
                       unlabelled="group") == pytest.approx(0.5)


def test_user_mad():
    """Elliot's and WarpRec's UserMADranking agree: 0.5853 (mean |NDCG gap| over user-group pairs)."""
    ndcg = rf.evaluate_per_user(TOP, n_items=N, measures="NDCG", relevant=RELEVANT)["NDCG"].to_numpy()
    gap = abs(ndcg[:2].mean() - ndcg[2:].mean())
    assert gap == pytest.approx(0.5853, abs=5e-5)
    assert rf.field.user_mad(TOP, RELEVANT, n_items=N, groups=USER_GROUPS) == pytest.approx(gap)


# ---------------------------------------------------------------------------- exposure of item groups

def test_fairdiverse_mmf_and_fairranktune_exp():
    """FairDiverse's provider MMF counts slots, undiscounted (groups 4 and 6 slots: 0.4): ``examination=
    "uniform"``. FairRankTune 0.0.7, FairRankTune/Metrics/EXP.py: per group the exposure 1/log2(1 + rank)
    (line 201) summed over the rankings, divided by the group's size (line 51); ``"MinMaxRatio"`` is
    recfair's ExpRatio (0.5351)."""
    slots = [sum(ITEM_GROUPS[i] == g for row in _lists() for i in row) for g in (1, 2)]
    assert slots == [4, 6]
    assert rf.field.provider_mmf(TOP, n_items=N, item_groups=ITEM_GROUPS, examination="uniform") == pytest.approx(0.4)
    exposure = np.zeros(2)
    for row in _lists():
        for j, i in enumerate(row):
            exposure[ITEM_GROUPS[i] - 1] += 1 / math.log2(j + 2)
    mean = exposure / [3, 2]
    assert mean.tolist() == pytest.approx([1.2103, 2.2619], abs=5e-5)
    assert rf.field.exposure_ratio(TOP, n_items=N, item_groups=ITEM_GROUPS) == pytest.approx(mean.min() / mean.max())
    assert mean.min() / mean.max() == pytest.approx(0.5351, abs=5e-5)


# ---------------------------------------------------------------------------- RecBole's Gini and coverage

def test_recbole_gini_and_coverage_count_the_padding_item():
    """RecBole 1.2.1 divides Gini (metrics.py lines 686-688) and ItemCoverage (line 503) by
    ``data.num_items``, the number of item tokens after remapping, which includes its padding token
    ``[PAD]`` (recbole/data/dataset/dataset.py line 1207): n + 1 items. recfair's Gini_ori on n + 1 items
    is RecBole's GiniIndex (0.4333; 0.32 on the n = 5 catalogue items)."""
    counts = np.bincount(TOP.ravel(), minlength=N)
    num_items = N + 1
    shown = np.sort(counts[counts > 0])
    idx = np.arange(num_items - shown.size + 1, num_items + 1)
    recbole = float(np.sum((2 * idx - num_items - 1) * shown) / TOP.size / num_items)
    assert recbole == pytest.approx(0.4333, abs=5e-5)
    assert rf.gini_index(TOP, n_items=N + 1) == pytest.approx(recbole)
    assert rf.gini_index(TOP, n_items=N) == pytest.approx(0.32)
    assert shown.size / num_items == pytest.approx(0.6667, abs=5e-5)           # RecBole's ItemCoverage


def test_warprec_floors_popularity_for_arp_only():
    """WarpRec's ARP reads the clamped counts (bias/arp.py line 42, ``compute_popularity``), its long tail
    the raw ones (bias/long_tail.py line 51, ``compute_head_tail(item_interactions, ...)``): with
    ``min_popularity=1`` recfair's ARP changes and its head does not."""
    history = [[0], [0], [0], [0], [1]]                  # 4 + 1 interactions; items 2-4 never seen
    top = [[2, 3], [3, 4], [1, 2], [2, 4], [3, 2]]
    raw = [4, 1, 0, 0, 0]
    _, tail = _warprec_head_tail(raw)                    # 4 + 1 > 0.8 * 5: the head is items 0 and 1
    assert tail == [2, 3, 4]
    for floor in (0, 1):
        assert rf.aplt(top, n_items=5, history=history, crossing="exceed", min_popularity=floor) == \
            pytest.approx(_share(top, set(tail)))
    floored_head, _ = _warprec_head_tail([4, 1, 1, 1, 1])                 # a floored split would differ
    assert floored_head == {0, 1, 2, 3} and _share(top, {4}) != pytest.approx(_share(top, set(tail)))
    assert rf.arp(top, n_items=5, history=history, min_popularity=1) > rf.arp(top, n_items=5, history=history)
