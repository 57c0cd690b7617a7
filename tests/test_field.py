"""Part VI (recfair.field): peers' conventions reproduced on one five-user example, bounds against the
exhaustive search, the computation shapes, generators, derivations and bad input.

The peers' numbers are recomputed here from their code, as read (each test names the file):
their conventions are written out in plain Python below, independently of recfair, and recfair
reaches each one through a named option.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.field import bounds as B
from recfair.field import derivations as D
from recfair.field import generators as G
from recfair.field.measures import KERNELS
from recfair.registry import REGISTRY
from recfair.run import Run

# ---------------------------------------------------------------------------- the five-user example
N = 8
HISTORY = [[0, 1, 2], [0, 1], [0, 3], [0, 1, 4], [2]]          # popularity 4, 3, 2, 1, 1, 0, 0, 0
TOP = np.array([[3, 5], [2, 6], [1, 7], [2, 5], [0, 6]])
RELEVANT = [[5], [2], [7], [6], [0]]
GROUPS = ["a", "a", "b", "b", "a", "b", "c", "c"]
USERS = ["x", "y", "x", "y", "x"]


def _pop():
    return {i: sum(i in h for h in HISTORY) for i in range(N)}


def _elliot_head():
    """Elliot, elliot/evaluation/popularity_utils.py (``Popularity.get_short_head``): distinct users
    (``sp_i_train.astype(bool).sum(axis=0)``), sorted by popularity (Python's stable sort over the
    training items in item order), items appended while ``limit -= pop`` stays > 0, the crossing item
    included; ``get_long_tail``: the *training* items not in the head."""
    pop = {i: p for i, p in _pop().items() if p > 0}                # Elliot's catalogue: training items
    ranked = sorted(pop.items(), key=lambda kv: kv[1], reverse=True)
    limit, head = sum(pop.values()) * 0.8, []
    for i, p in ranked:
        head.append(i)
        limit -= p
        if limit <= 0:
            break
    return set(head), [i for i, _ in ranked if i not in head]


def test_elliot_aplt_is_the_seen_tail():
    """Elliot's APLT (elliot/evaluation/metrics/bias/aplt/aplt.py, ``__user_aplt``): |set(L_u) & long_tail| / |L_u|."""
    _, tail = _elliot_head()
    elliot = np.mean([len(set(row) & set(tail)) / len(row) for row in TOP.tolist()])
    assert rf.aplt(TOP, n_items=N, history=HISTORY, tail="seen") == pytest.approx(elliot)
    assert elliot == pytest.approx(0.1)
    # recfair's default counts never-seen items in the tail (they are catalogue items too)
    assert rf.aplt(TOP, n_items=N, history=HISTORY) == pytest.approx(0.6)


def test_elliot_poprsp():
    """Elliot's PopRSP (elliot/evaluation/metrics/bias/pop_rsp/pop_rsp.py, ``eval``): per user the head and
    tail items recommended and the head/tail items outside its training set, summed; np.std / np.mean."""
    head, tail = _elliot_head()
    num, den = np.zeros(2), np.zeros(2)
    for row, h in zip(TOP.tolist(), HISTORY):
        num += [len(set(row) & head), len(set(row) & set(tail))]
        den += [len(head - set(h)), len(set(tail) - set(h))]
    pr = num / den
    elliot = np.std(pr) / np.mean(pr)
    assert rf.pop_rsp(TOP, n_items=N, history=HISTORY, tail="seen") == pytest.approx(elliot)
    assert rf.pop_rsp(TOP, n_items=N, history=HISTORY) != pytest.approx(elliot)


def test_recbole_tail_percentage():
    """RecBole 1.2.1, recbole/evaluator/metrics.py (``TailPercentage.get_tail``): with tail_ratio <= 1 the
    items of ``data.count_items`` (training interaction counts, seen items only) sorted by (count, item),
    the first ``max(int(len * tail_ratio), 1)`` are the tail; the value is the mean share of tail items."""
    counts = sorted(((i, p) for i, p in _pop().items() if p > 0), key=lambda kv: (kv[1], kv[0]))
    tail = {i for i, _ in counts[:max(int(len(counts) * 0.1), 1)]}
    recbole = np.mean([sum(i in tail for i in row) / len(row) for row in TOP.tolist()])
    assert rf.aplt(TOP, n_items=N, history=HISTORY, tail_items=0.1) == pytest.approx(recbole)


def test_warprec_floor_and_rectools_normalisation():
    """WarpRec floors popularity at 1 (``min_popularity=1``); rectools 0.19.0's ``AvgRecPopularity(normalize=True)``
    divides by the total number of interactions (rectools/metrics/popularity.py line 122:
    ``value_counts(normalize=self.normalize)``), recfair's ``normalize=True``."""
    pop = _pop()
    floored = np.mean([np.mean([max(pop[i], 1) for i in row]) for row in TOP.tolist()])
    assert rf.arp(TOP, n_items=N, history=HISTORY, min_popularity=1) == pytest.approx(floored)
    plain = rf.arp(TOP, n_items=N, history=HISTORY)
    assert plain == pytest.approx(np.mean([np.mean([pop[i] for i in row]) for row in TOP.tolist()]))
    assert rf.arp(TOP, n_items=N, history=HISTORY, normalize=True) == pytest.approx(plain / sum(map(len, HISTORY)))


def test_elliot_and_warprec_item_mad():
    """Elliot, elliot/evaluation/metrics/fairness/MAD/ItemMADranking.py (``eval``): per recommended item
    the mean gain over its appearances, averaged per cluster over its recommended items; the mean of
    |avg_i - avg_j| over cluster pairs. Gain 2^(r-t+1)-1 (1 on binary data; WarpRec: 2^(r+1)-1 = 3)."""
    count, gain = {}, {}
    for row, rel in zip(TOP.tolist(), RELEVANT):
        for i in row:
            count[i] = count.get(i, 0) + 1
            gain[i] = gain.get(i, 0) + (1 if i in rel else 0)
    labels = sorted(set(GROUPS))
    sums, sizes = np.zeros(len(labels)), np.zeros(len(labels))
    for i, g in gain.items():
        sums[labels.index(GROUPS[i])] += g / count[i]
        sizes[labels.index(GROUPS[i])] += 1
    avg = sums / sizes
    elliot = np.mean([abs(avg[i] - avg[j]) for i in range(len(avg)) for j in range(i + 1, len(avg))])
    assert rf.item_mad(TOP, RELEVANT, n_items=N, item_groups=GROUPS) == pytest.approx(elliot)
    assert rf.item_mad(TOP, RELEVANT, n_items=N, item_groups=GROUPS, gain="shifted") == pytest.approx(3 * elliot)


def test_fairdiverse_mmf():
    """FairDiverse, fairdiverse/recommendation/metric.py (``MMF``): sort the utilities, sum the first
    ``int(ratio * len)`` over the total; the utilities here are the groups' DCG exposures."""
    labels = sorted(set(GROUPS))
    utility = np.zeros(len(labels))
    for row in TOP.tolist():
        for j, i in enumerate(row):
            utility[labels.index(GROUPS[i])] += 1 / math.log2(j + 2)
    fairdiverse = np.sort(utility)[:int(0.5 * len(utility))].sum() / utility.sum()
    assert rf.provider_mmf(TOP, n_items=N, item_groups=GROUPS) == pytest.approx(fairdiverse)


def test_unlabelled_items_as_a_group_is_warprec_convention():
    groups = ["a", "a", None, "b", "b", None, "a", "b"]
    skip = rf.rsp(TOP, n_items=N, item_groups=groups, history=HISTORY)
    as_group = rf.rsp(TOP, n_items=N, item_groups=[g or "none" for g in groups], history=HISTORY)
    assert rf.rsp(TOP, n_items=N, item_groups=groups, history=HISTORY, unlabelled="group") == pytest.approx(as_group)
    assert skip != pytest.approx(as_group)


# ---------------------------------------------------------------------------- live peers (optional)

def test_fairranktune_ndkl_live():
    """FairRankTune 0.0.7, FairRankTune/Metrics/NDKL.py: one ranking, target = the ranking's own group
    shares, KL with 1e-7 added to both sides (lines 17-21). On a full ranking of the catalogue the target
    is the catalogue's shares: recfair's NDKL with ``smoothing=1e-7``."""
    frt = pytest.importorskip("FairRankTune")
    rng = np.random.default_rng(3)
    groups = rng.choice(["p", "q", "r"], N)
    groups[:3] = ["p", "q", "r"]
    for _ in range(5):
        ranking = rng.permutation(N)
        theirs = frt.NDKL(pd.DataFrame({"r": ranking}), dict(enumerate(groups)))
        ours = rf.ndkl([ranking], n_items=N, item_groups=groups, smoothing=1e-7)
        assert ours == pytest.approx(theirs, rel=1e-9)


def test_fairranktune_awrf_is_recfairs_exposure_ratio_live():
    """FairRankTune 0.0.7, FairRankTune/Metrics/AWRF.py: group attention 100 p (1-p)^(j-1) summed over the
    rankings, divided by group size, aggregated by ``combo``; with ``"MinMaxRatio"`` it is min/max of the
    groups' mean attention: recfair's ExpRatio with ``examination="rbp"``, ``gamma=1-p`` (not TREC's AWRF)."""
    frt = pytest.importorskip("FairRankTune")
    rng = np.random.default_rng(4)
    groups = np.array(["p", "q"] * (N // 2))
    rankings = np.array([rng.permutation(N) for _ in range(4)])
    theirs, _ = frt.AWRF(pd.DataFrame(rankings.T), dict(enumerate(groups)), 0.3, "MinMaxRatio")
    ours = rf.exposure_ratio(rankings, n_items=N, item_groups=groups, examination="rbp", gamma=0.7)
    assert ours == pytest.approx(theirs, rel=1e-9)


# ---------------------------------------------------------------------------- bounds vs exhaustive

@pytest.mark.parametrize("m,n,k,n_tail", [(2, 4, 2, 1), (2, 5, 3, 4), (1, 4, 3, 2)])
def test_aplt_aclt_bounds_are_exact(m, n, k, n_tail):
    pop = [5] * (n - n_tail) + [0] * n_tail                       # the head: the popular items
    assert (rf.field.head_tail(pop) == 1).sum() == n_tail
    for key, func in (("APLT", B.achievable_aplt), ("ACLT", B.achievable_aclt)):
        found = B.exhaustive(key, m, n, k, popularity=np.array(pop, float))
        bounds = func(m, n, k, n_tail=n_tail)
        assert (found.low, found.high) == pytest.approx((bounds.most_unfair, bounds.most_fair))


@pytest.mark.parametrize("m,n,k", [(2, 4, 2), (1, 5, 3), (2, 5, 2)])
def test_arp_bounds_are_exact(m, n, k):
    pop = np.array([5, 0, 3, 1, 2][:n], float)
    found = B.exhaustive("ARP", m, n, k, popularity=pop)
    bounds = B.achievable_arp(m, n, k, popularity=pop)
    assert (found.low, found.high) == pytest.approx((bounds.most_fair, bounds.most_unfair))


@pytest.mark.parametrize("m,n,k,sizes", [(1, 5, 2, (2, 3)), (2, 4, 2, (1, 3)), (2, 5, 3, (2, 3)), (3, 4, 1, (2, 2))])
def test_rsp_bounds_are_exact(m, n, k, sizes):
    groups = ["a"] * sizes[0] + ["b"] * sizes[1]
    found = B.exhaustive("RSP", m, n, k, item_groups=groups)
    bounds = B.achievable_rsp(m, n, k, group_sizes=sizes)
    assert (found.low, found.high) == pytest.approx((bounds.most_fair, bounds.most_unfair))
    pop_found = B.exhaustive("PopRSP", m, n, k, popularity=np.array([9.0] * sizes[0] + [0.0] * sizes[1]),
                             head_share=1.0)
    assert (pop_found.low, pop_found.high) == pytest.approx((bounds.most_fair, bounds.most_unfair))


@pytest.mark.parametrize("n,k,groups", [(4, 2, "aabb"), (5, 3, "abbbb"), (5, 4, "aabbc"), (4, 3, "abbb")])
def test_ndkl_and_awrf_bounds_are_exact(n, k, groups):
    sizes = [groups.count(g) for g in sorted(set(groups))]
    for key, func in (("NDKL", B.achievable_ndkl), ("AWRF", B.achievable_awrf)):
        found = B.exhaustive(key, 1, n, k, item_groups=list(groups))
        bounds = func(2, n, k, group_sizes=sizes)
        ends = sorted((bounds.most_fair, bounds.most_unfair))
        assert (found.low, found.high) == pytest.approx(tuple(ends))
    assert B.achievable_ndkl(3, n, k, group_sizes=sizes).most_fair > 0          # the zero is unreachable


def test_mirror_list_reaches_ndkl_minimum():
    for groups in ("aabb", "aaabbbbb", "aabbbccc"):
        top = G.mirror_catalogue_top_k(list(groups), n_users=2, k=len(groups) - 1)
        sizes = [groups.count(g) for g in sorted(set(groups))]
        best = B.achievable_ndkl(2, len(groups), len(groups) - 1, group_sizes=sizes).most_fair
        assert rf.ndkl(top, n_items=len(groups), item_groups=list(groups)) == pytest.approx(best)


def test_records_expose_bounds_and_search():
    assert REGISTRY["APLT"].bounds(3, 10, 2, n_tail=8) == B.achievable_aplt(3, 10, 2, n_tail=8)
    assert rf.bounds.exhaustive("RSP", 1, 4, 2, item_groups=["a", "a", "b", "b"]) == (0.0, 1.0)


# ---------------------------------------------------------------------------- computation shapes

def _run(idx=None, weights=False):
    rng = np.random.default_rng(0)
    m, n, k = 12, 10, 3
    hist = [rng.choice(np.arange(5), rng.integers(1, 4), replace=False).tolist() for _ in range(m)]
    hist[0] = [0, 1, 2, 3]
    top = np.array([rng.choice(np.setdiff1d(np.arange(n), h), k, replace=False) for h in hist])
    rel = [rng.choice(np.setdiff1d(np.arange(n), h), 2, replace=False).tolist() for h in hist]
    feats = (rng.random((n, 3)) < 0.5).astype(float)
    feats[:, 0] = 1.0
    attrs = pd.DataFrame({"g": ["x", "y"] * (m // 2)})
    idx = np.arange(m) if idx is None else np.asarray(idx)
    return Run(top[idx], n, history=[hist[i] for i in idx], relevant=[rel[i] for i in idx],
               item_groups=["a", "b", "c", "a", "b", "c", "a", "b", "c", "a"], item_features=feats,
               user_attributes=attrs.iloc[idx].reset_index(drop=True))


def _add(a, b):
    """The default merge: matching entries added, ``_``-named facts of the run carried."""
    return {key: a[key] if key.startswith("_") else a[key] + b[key] for key in a}


@pytest.mark.parametrize("key", sorted(k for k in KERNELS if KERNELS[k].kind != "run"))
def test_blocks_merge_to_the_whole_run(key):
    spec = REGISTRY[key]
    comp = spec.computation
    assert comp is not None and comp.kind in ("per_user", "item_sums")
    whole = _run()
    context = comp.context(whole, **spec.options)
    a = comp.partial(_run(range(5)), context=context, **spec.options)
    b = comp.partial(_run(range(5, 12)), context=context, **spec.options)
    merged = (comp.merge or _add)(a, b)
    got = comp.finish(merged, on_undefined="nan", **spec.options)
    want = spec.compute(whole, on_undefined="nan")
    assert got == pytest.approx(want, nan_ok=True)
    # integer weights are user multiplicities (compare's bootstrap)
    w = np.array([2.0] + [1.0] * 11)
    weighted = comp.finish(comp.partial(whole, weights=w, context=context, **spec.options), on_undefined="nan",
                           **spec.options)
    dup = comp.finish(_add(comp.partial(whole, context=context, **spec.options),
                           comp.partial(_run([0]), context=context, **spec.options)) if comp.merge is None else
                      comp.merge(comp.partial(whole, context=context, **spec.options),
                                 comp.partial(_run([0]), context=context, **spec.options)),
                      on_undefined="nan", **spec.options)
    assert weighted == pytest.approx(dup, nan_ok=True)


def test_ugf_is_a_whole_run_computation():
    assert REGISTRY["UGF"].computation.kind == "run"       # its activity split ranks every user of the run


# ---------------------------------------------------------------------------- UGF, generators, derivations

def test_ugf_advantaged_users_and_order():
    hist = [[0], [0, 1, 2], [0, 1], [3]]
    top = [[4, 5], [4, 5], [4, 5], [4, 5]]
    rel = [[4], [6], [5], [4]]
    assert rf.field.advantaged_users(hist, share=0.05).tolist() == [False, True, False, False]   # ceil(0.2) = 1
    value = rf.ugf(top, rel, n_items=8, history=hist)
    perm = [3, 1, 0, 2]
    again = rf.ugf([top[i] for i in perm], [rel[i] for i in perm], n_items=8, history=[hist[i] for i in perm])
    assert value == pytest.approx(again)
    ndcg = rf.evaluate_per_user(top, n_items=8, measures="NDCG", relevant=rel)["NDCG"].to_numpy()
    assert value == pytest.approx(abs(ndcg[1] - np.mean(ndcg[[0, 2, 3]])))


def test_uniform_random_recommender_passes_aplt():
    rng = np.random.default_rng(0)
    n, m, k = 50, 400, 5
    pop = np.sort(rng.zipf(1.5, n).astype(float))[::-1]
    codes = rf.field.head_tail(pop)
    top = G.uniform_random_top_k(m, n, k, seed=1)
    value = rf.aplt(top, n_items=n, popularity=pop)
    share = float((codes == 1).mean())
    assert value == pytest.approx(share, abs=0.03) and share > 0.5
    assert rf.aplt(G.most_popular_top_k(pop, n_users=m, k=k), n_items=n, popularity=pop) == 0.0


def test_reo_undefined_when_a_group_has_no_relevant_item():
    with pytest.raises(rf.UndefinedMeasureError, match="no relevant item"):
        rf.evaluate(measures="REO", on_undefined="raise", **G.reo_without_relevant_group())


@pytest.mark.parametrize("name", ["aplt_of_uniform_random", "rsp_parity", "ndkl_lower_bound", "awrf_single_group",
                                  "c_kl_maximum"])
def test_derivations_hold(name):
    assert getattr(D, name)().holds


def test_derivations_match_the_library():
    groups = ["a", "a", "b", "b"]
    one = G.one_group_top_k(groups, n_users=1, k=2, group="a")
    assert rf.awrf(one, n_items=4, item_groups=groups) == pytest.approx(
        float(D.awrf_single_group().result.subs(D.p, 0.5)))
    low = D.ndkl_lower_bound(list_length=2).result.subs(D.p, 0.5)
    assert B.achievable_ndkl(1, 4, 2, group_sizes=(2, 2)).most_fair == pytest.approx(float(low))
    genres = [[1, 0], [1, 0], [0, 1], [0, 1]]
    assert rf.c_kl([[0, 1]], [[2, 3]], n_items=4, item_features=genres) == pytest.approx(math.log(100))


# ---------------------------------------------------------------------------- bad input

def test_bad_input_is_refused_clearly():
    with pytest.raises(ValueError, match="one label per item"):
        rf.evaluate(TOP, n_items=N, measures="RSP", item_groups=["a"] * 3)
    with pytest.raises(TypeError, match="one label per item"):
        rf.evaluate(TOP, n_items=N, measures="RSP", item_groups="aabbccdd")
    with pytest.raises(ValueError, match="item_groups"):
        rf.evaluate(TOP, n_items=N, measures="RSP")
    with pytest.raises(ValueError, match="a group for every item"):
        rf.ndkl(TOP, n_items=N, item_groups=["a", None] * 4)
    with pytest.raises(ValueError, match="history"):
        rf.aplt(TOP, n_items=N)
    with pytest.raises(ValueError, match="crossing"):
        rf.aplt(TOP, n_items=N, history=HISTORY, crossing="maybe")
    with pytest.raises(ValueError, match="not parameters"):
        rf.evaluate(TOP, n_items=N, measures="APLT", history=HISTORY, gain="shifted")
    with pytest.raises(ValueError, match="two user groups"):
        rf.ugf(TOP, RELEVANT, n_items=N, groups=["a", "b", "c", "a", "b"])
    with pytest.raises(ValueError, match="non-negative"):
        rf.c_kl(TOP, HISTORY, n_items=N, item_features=-np.ones((N, 2)))


def test_evaluate_options_reach_the_measures():
    out = rf.evaluate(TOP, n_items=N, measures=["APLT", "RSP", "NDKL"], history=HISTORY, item_groups=GROUPS,
                      tail="seen")
    assert out["APLT"] == pytest.approx(0.1)
    assert out["RSP"] == pytest.approx(rf.rsp(TOP, n_items=N, item_groups=GROUPS, history=HISTORY))


def test_trec_awrf_with_scipy_natural_logs():
    """The TREC Fair Ranking 2022 scripts take scipy's ``jensenshannon`` (natural logs; it returns the
    square root of the divergence): ``log_base=math.e`` reproduces it, and a list of one group then scores
    1 - ln 2 = 0.307 at best, never 0 (recfair's default is base 2)."""
    from scipy.spatial.distance import jensenshannon

    groups = ["a", "a", "b", "b"]
    top = [[0, 2], [1, 0]]
    want = []
    for row in top:
        att = np.zeros(2)
        for j, i in enumerate(row):
            att[int(groups[i] == "b")] += 1 / math.log2(j + 2)
        want.append(1 - jensenshannon(att / att.sum(), [0.5, 0.5]) ** 2)
    assert rf.awrf(top, n_items=4, item_groups=groups, log_base=math.e) == pytest.approx(np.mean(want))
    one = rf.awrf([[0, 1]], n_items=4, item_groups=groups, target=[1.0, 0.0], log_base=math.e)
    worst = rf.awrf([[2, 3]], n_items=4, item_groups=groups, target=[1.0, 0.0], log_base=math.e)
    assert one == pytest.approx(1.0) and worst == pytest.approx(1 - math.log(2))


def test_per_user_values_average_to_the_measure():
    for key in ("ARP", "APLT", "ACLT", "NDKL", "AWRF"):
        frame = rf.evaluate_per_user(TOP, n_items=N, measures=key, history=HISTORY, item_groups=GROUPS)
        value = rf.evaluate(TOP, n_items=N, measures=key, history=HISTORY, item_groups=GROUPS)[key]
        assert frame[key].mean() == pytest.approx(value)
    assert rf.evaluate_per_user(TOP, n_items=N, measures="APLT", history=HISTORY)["APLT"].tolist() == [1, .5, .5, .5, .5]
