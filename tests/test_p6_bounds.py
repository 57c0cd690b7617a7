"""Part VI's achievable ranges of the group measures (recfair.field.bounds_groups) against brute force.

Every search is compared with two enumerations of every recommendation at tiny (m, n, k): the
library's :func:`recfair.field.bounds.exhaustive` (the registry's measure on each run) and the
independent transcriptions of ``tests/_reference.py`` (:func:`_reference.reference_extremes`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

import _reference as ref
from recfair.field import bounds as B
from recfair.field import bounds_groups as BG
from recfair.field import derivations as D
from recfair.registry import REGISTRY


def _ends(bounds):
    return tuple(sorted((bounds.most_fair, bounds.most_unfair)))


def _check(bounds, found, *, higher_is_better):
    assert (found.low, found.high) == pytest.approx(_ends(bounds), abs=1e-9)
    if higher_is_better:
        assert bounds.most_fair >= bounds.most_unfair
    else:
        assert bounds.most_fair <= bounds.most_unfair


def _case(m, n, k, **kw):
    return {"m": m, "n": n, "k": k, "hist": kw.pop("hist", [[] for _ in range(m)]), **kw}


# ---------------------------------------------------------------------------- REO, PopREO

@pytest.mark.parametrize("n,k,groups,relevant", [
    (4, 2, "aabb", [[0, 2], [1]]),
    (4, 1, "aabb", [[0, 3], [2]]),
    (5, 2, "abbbb", [[0, 1, 2], [0, 4]]),
    (5, 3, "aabbc", [[0, 2, 4], [1, 3]]),
    (4, 3, "aabb", [[0, 1, 2], [3]]),                       # few non-relevant items force hits
])
def test_reo_search_is_exact(n, k, groups, relevant):
    labels, m = list(groups), len(relevant)
    bounds = BG.achievable_reo(m, n, k, relevant_counts=BG.relevant_counts(relevant, labels))
    _check(bounds, B.exhaustive("REO", m, n, k, item_groups=labels, relevant=relevant), higher_is_better=False)
    assert ref.reference_extremes(ref.shown_reo, _case(m, n, k, ig=labels, rel=relevant), ranked=False) == \
        pytest.approx(_ends(bounds))


def test_pop_reo_uses_the_same_search():
    pop, relevant = np.array([9.0, 9.0, 0.0, 0.0]), [[0, 2], [3]]
    found = B.exhaustive("PopREO", 2, 4, 2, popularity=pop, head_share=1.0, relevant=relevant)
    bounds = REGISTRY["PopREO"].bounds(2, 4, 2, relevant_counts=BG.relevant_counts(relevant, ["h", "h", "t", "t"]))
    _check(bounds, found, higher_is_better=False)


def test_reo_undefined_when_a_group_has_no_relevant_item():
    bounds = BG.achievable_reo(2, 4, 2, relevant_counts=[[1, 0], [2, 0]])
    assert math.isnan(bounds.most_fair) and math.isnan(bounds.most_unfair)
    found = B.exhaustive("REO", 2, 4, 2, item_groups=list("aabb"), relevant=[[0], [0, 1]])
    assert math.isnan(found.low)


def test_reo_search_drops_empty_groups_as_the_measure_does():
    # WarpRec's convention: a group without relevant items leaves REO, which is then over the others
    labels, relevant = list("aabbcc"), [[0, 2], [1]]
    counts = BG.relevant_counts(relevant, labels)
    assert counts[:, 2].sum() == 0
    bounds = BG.achievable_reo(2, 6, 2, relevant_counts=counts, empty_groups="drop")
    found = B.exhaustive("REO", 2, 6, 2, item_groups=labels, relevant=relevant, empty_groups="drop")
    _check(bounds, found, higher_is_better=False)
    assert REGISTRY["REO"].bounds(2, 6, 2, relevant_counts=counts, empty_groups="drop") == bounds
    assert math.isnan(BG.achievable_reo(2, 6, 2, relevant_counts=counts).most_fair)
    # one group left: undefined either way
    assert math.isnan(BG.achievable_reo(1, 4, 1, relevant_counts=[[1, 0]], empty_groups="drop").most_fair)
    with pytest.raises(ValueError, match="empty_groups"):
        BG.achievable_reo(2, 6, 2, relevant_counts=counts, empty_groups="skip")


# ---------------------------------------------------------------------------- ExpRatio, MMF

@pytest.mark.parametrize("m,n,k,groups", [(1, 3, 2, "abb"), (2, 4, 2, "aabb"), (2, 4, 3, "abbb"), (1, 5, 3, "aabbc"),
                                          (2, 3, 2, "abc")])
def test_exposure_searches_are_exact(m, n, k, groups):
    labels = list(groups)
    sizes = [groups.count(g) for g in sorted(set(groups))]
    for key, func, shown in (("ExpRatio", BG.achievable_exp_ratio, ref.shown_exp_ratio),
                             ("MMF", BG.achievable_mmf, ref.shown_mmf)):
        bounds = func(m, n, k, group_sizes=sizes)
        _check(bounds, B.exhaustive(key, m, n, k, item_groups=labels), higher_is_better=True)
        assert ref.reference_extremes(shown, _case(m, n, k, ig=labels), ranked=True) == pytest.approx(_ends(bounds))


def test_exposure_options_reach_the_search():
    bounds = BG.achievable_exp_ratio(2, 4, 2, group_sizes=(1, 3), examination="rbp", gamma=0.6)
    found = B.exhaustive("ExpRatio", 2, 4, 2, item_groups=list("abbb"), examination="rbp", gamma=0.6)
    _check(bounds, found, higher_is_better=True)
    bounds = BG.achievable_mmf(1, 5, 3, group_sizes=(1, 2, 2), ratio=0.7)
    _check(bounds, B.exhaustive("MMF", 1, 5, 3, item_groups=list("abbcc"), ratio=0.7), higher_is_better=True)


@pytest.mark.parametrize("m,n,k,groups,history", [(2, 4, 2, "aabb", [[0], [2]]), (2, 5, 2, "aabbb", [[0, 1], []]),
                                                  (3, 5, 2, "abbcc", [[0], [1, 3], [4]]), (1, 4, 3, "abbb", [[2]])])
def test_exposure_searches_exclude_the_histories(m, n, k, groups, history):
    labels = list(groups)
    sizes = [groups.count(g) for g in sorted(set(groups))]
    counts = BG.relevant_counts(history, labels)
    for key, func in (("ExpRatio", BG.achievable_exp_ratio), ("MMF", BG.achievable_mmf)):
        bounds = func(m, n, k, group_sizes=sizes, history_counts=counts)
        _check(bounds, B.exhaustive(key, m, n, k, item_groups=labels, history=history), higher_is_better=True)
        free = func(m, n, k, group_sizes=sizes)             # without histories the range can only widen
        assert free.most_unfair <= bounds.most_unfair + 1e-12 and bounds.most_fair <= free.most_fair + 1e-12
        assert REGISTRY[key].bounds(m, n, k, group_sizes=sizes, history_counts=counts) == bounds


def test_exposure_searches_refuse_impossible_histories():
    with pytest.raises(ValueError, match="fewer than k = 2 items outside its history"):
        BG.achievable_exp_ratio(2, 3, 2, group_sizes=(1, 2), history_counts=[[1, 1], [0, 0]])
    with pytest.raises(ValueError, match="history_counts must have one column per group"):
        BG.achievable_mmf(1, 4, 2, group_sizes=(2, 2), history_counts=[[3, 0]])
    with pytest.raises(ValueError, match="history_counts must be non-negative integers, one row per user"):
        BG.achievable_ee_d(1, 4, 2, group_sizes=(2, 2), history_counts=[[1]])


def test_mmf_fair_end_misses_its_nominal_maximum():
    # one list of two positions, two groups: the DCG weights never split evenly
    assert BG.achievable_mmf(1, 4, 2, group_sizes=(2, 2)).most_fair < 0.5


# ---------------------------------------------------------------------------- expected exposure

@pytest.mark.parametrize("n,k,groups,relevant", [(4, 2, "aabb", [[0], [2, 3]]), (5, 3, "abbcc", [[1, 3], [0]]),
                                                 (4, 3, "abbb", [[0, 1], [3]])])
def test_ee_searches_are_exact(n, k, groups, relevant):
    labels, m = list(groups), len(relevant)
    sizes = [groups.count(g) for g in sorted(set(groups))]
    counts = BG.relevant_counts(relevant, labels)
    case = _case(m, n, k, ig=labels, rel=relevant)
    for key, func, shown, higher in (("EE-L", BG.achievable_ee_l, ref.shown_ee_l, False),
                                     ("EE-D", BG.achievable_ee_d, ref.shown_ee_d, False),
                                     ("EE-R", BG.achievable_ee_r, ref.shown_ee_r, True)):
        params = {"group_sizes": sizes} if key == "EE-D" else {"group_sizes": sizes, "relevant_counts": counts}
        bounds = func(m, n, k, **params)
        _check(bounds, B.exhaustive(key, m, n, k, item_groups=labels, relevant=relevant), higher_is_better=higher)
        assert ref.reference_extremes(shown, case, ranked=True) == pytest.approx(_ends(bounds))


@pytest.mark.parametrize("n,k,groups,relevant,history", [(5, 2, "aabbb", [[0], [2, 3]], [[1], [4]]),
                                                         (6, 3, "abbccc", [[1, 3], [0]], [[4, 5], [2]]),
                                                         (5, 2, "abbbb", [[0, 1], [3]], [[], [0, 1]])])
def test_ee_and_reo_searches_exclude_the_histories(n, k, groups, relevant, history):
    labels, m = list(groups), len(relevant)
    sizes = [groups.count(g) for g in sorted(set(groups))]
    counts, hist = BG.relevant_counts(relevant, labels), BG.relevant_counts(history, labels)
    data = {"item_groups": labels, "relevant": relevant, "history": history}
    for key, func, higher in (("EE-L", BG.achievable_ee_l, False), ("EE-D", BG.achievable_ee_d, False),
                              ("EE-R", BG.achievable_ee_r, True)):
        params = {"group_sizes": sizes, "history_counts": hist}
        if key != "EE-D":
            params["relevant_counts"] = counts
        _check(func(m, n, k, **params), B.exhaustive(key, m, n, k, **data), higher_is_better=higher)
    bounds = BG.achievable_reo(m, n, k, relevant_counts=counts, history_counts=hist)
    _check(bounds, B.exhaustive("REO", m, n, k, **data), higher_is_better=False)


def test_reo_search_histories_can_force_the_hits():
    # both users' histories leave them exactly their relevant item and one other: every list hits, REO is 0
    labels, relevant, history = list("aabb"), [[0], [2]], [[1, 3], [0, 1]]
    counts, hist = BG.relevant_counts(relevant, labels), BG.relevant_counts(history, labels)
    bounds = BG.achievable_reo(2, 4, 2, relevant_counts=counts, history_counts=hist)
    assert (bounds.most_unfair, bounds.most_fair) == (0.0, 0.0)
    assert BG.achievable_reo(2, 4, 2, relevant_counts=counts).most_unfair == 1.0
    _check(bounds, B.exhaustive("REO", 2, 4, 2, item_groups=labels, relevant=relevant, history=history),
           higher_is_better=False)


def test_reo_search_refuses_an_impossible_history():
    with pytest.raises(ValueError, match="history leaves fewer than k items"):
        BG.achievable_reo(1, 4, 2, relevant_counts=[[1, 1]], history_counts=[[2, 1]])


def test_ee_patience_reaches_the_search():
    bounds = BG.achievable_ee_l(2, 4, 2, group_sizes=(2, 2), relevant_counts=[[1, 0], [0, 2]], patience=0.8)
    found = B.exhaustive("EE-L", 2, 4, 2, item_groups=list("aabb"), relevant=[[0], [2, 3]], patience=0.8)
    _check(bounds, found, higher_is_better=False)


# ---------------------------------------------------------------------------- C_KL

GENRES = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1]]


@pytest.mark.parametrize("history,k", [([[0, 2], [1]], 2), ([[0], [3, 4]], 1), ([[0, 1, 2], [4]], 2)])
def test_c_kl_search_is_exact(history, k):
    m, n = len(history), len(GENRES)
    bounds = BG.achievable_c_kl(m, n, k, history=history, item_features=GENRES)
    _check(bounds, B.exhaustive("C_KL", m, n, k, history=history, item_features=GENRES), higher_is_better=False)
    case = _case(m, n, k, hist=history, features=GENRES)
    assert ref.reference_extremes(ref.shown_c_kl, case, ranked=False) == pytest.approx(_ends(bounds))


def test_c_kl_rank_weights_search_is_exact():
    history = [[0, 2], [4]]
    bounds = BG.achievable_c_kl(2, 5, 2, history=history, item_features=GENRES, examination="dcg")
    found = B.exhaustive("C_KL", 2, 5, 2, history=history, item_features=GENRES, examination="dcg")
    _check(bounds, found, higher_is_better=False)


def test_c_kl_worst_is_steck_cap():
    # a history of genre 0 only, candidates of genre 1 only: every list is the worst, ln(1/alpha)
    genres = [[1, 0], [0, 1], [0, 1]]
    bounds = BG.achievable_c_kl(1, 3, 1, history=[[0]], item_features=genres)
    assert bounds.most_unfair == pytest.approx(float(D.c_kl_maximum().result.subs(D.alpha, 0.01)))


# ---------------------------------------------------------------------------- UGF, UserMAD

@pytest.mark.parametrize("n,k,relevant,groups", [
    (4, 2, [[0], [1, 2], [3]], ["a", "b", "b"]),
    (4, 1, [[0], [1], [0, 2]], ["a", "b", "a"]),
    (4, 2, [[0, 1, 2], [3], [1]], ["x", "x", "y"]),
])
def test_ugf_and_user_mad_searches_are_exact(n, k, relevant, groups):
    m = len(relevant)
    for key, func, shown in (("UGF", BG.achievable_ugf, ref.shown_ugf), ("UserMAD", BG.achievable_user_mad,
                                                                        ref.shown_user_mad)):
        bounds = func(m, n, k, relevant=relevant, groups=groups)
        run_groups = {"groups": groups} if key == "UGF" else {"user_attributes": pd.DataFrame({"g": groups})}
        _check(bounds, B.exhaustive(key, m, n, k, relevant=relevant, **run_groups), higher_is_better=False)
    case = _case(m, n, k, rel=relevant, ug=groups)
    assert ref.reference_extremes(ref.shown_user_mad, case, ranked=True) == \
        pytest.approx(_ends(BG.achievable_user_mad(m, n, k, relevant=relevant, groups=groups)))


def test_ugf_activity_split_with_history_is_exact():
    history, relevant = [[0, 1], [2], [3]], [[2], [0, 3], [1]]
    bounds = BG.achievable_ugf(3, 5, 2, relevant=relevant, history=history)
    _check(bounds, B.exhaustive("UGF", 3, 5, 2, relevant=relevant, history=history), higher_is_better=False)
    case = _case(3, 5, 2, rel=relevant, hist=history)
    assert ref.reference_extremes(ref.shown_ugf, case, ranked=True) == pytest.approx(_ends(bounds))


def test_user_mad_three_groups():
    relevant, groups = [[0], [1, 2], [3]], ["a", "b", "c"]
    bounds = BG.achievable_user_mad(3, 4, 1, relevant=relevant, groups=groups)
    found = B.exhaustive("UserMAD", 3, 4, 1, relevant=relevant, user_attributes=pd.DataFrame({"g": groups}))
    _check(bounds, found, higher_is_better=False)


# ---------------------------------------------------------------------------- BD

@pytest.mark.parametrize("n,k,history,items,users", [
    (4, 1, [[1], [3]], "aabb", ["x", "x"]),
    (5, 2, [[0, 2], [4], [1]], "aabbb", ["x", "y", "y"]),
    (5, 2, [[0], [2, 3], [4]], "abbcc", ["x", "x", "y"]),
])
def test_bd_search_is_exact(n, k, history, items, users):
    m, labels = len(history), list(items)
    bounds = BG.achievable_bd(m, n, k, history=history, item_groups=labels, groups=users)
    found = B.exhaustive("BD", m, n, k, history=history, item_groups=labels,
                         user_attributes=pd.DataFrame({"g": users}))
    _check(bounds, found, higher_is_better=False)
    case = _case(m, n, k, hist=history, ig=labels, ug=users)
    assert ref.reference_extremes(ref.shown_bd, case, ranked=False) == pytest.approx(_ends(bounds))


# ---------------------------------------------------------------------------- registry, limits, no bound

def test_registry_records_carry_every_search():
    for key in ("REO", "PopREO", "ExpRatio", "MMF", "EE-L", "EE-D", "EE-R", "C_KL", "UGF", "UserMAD", "BD"):
        assert REGISTRY[key].achievable is B.ACHIEVABLE[key] is BG.ACHIEVABLE[key]
    assert REGISTRY["MMF"].bounds(2, 4, 2, group_sizes=(2, 2)) == BG.achievable_mmf(2, 4, 2, group_sizes=(2, 2))


def test_item_mad_says_why_it_has_no_bound():
    import recfair as rf

    assert REGISTRY["ItemMAD"].achievable is None
    assert "ratings" in B.NO_BOUND["ItemMAD"] and REGISTRY["ItemMAD"].no_bound == B.NO_BOUND["ItemMAD"]
    # a reason only where there is no range
    assert all(not spec.no_bound or spec.achievable is None for spec in REGISTRY.values())
    with pytest.raises(ValueError, match="rated value"):
        rf.bounds.achievable("ItemMAD", 2, 4, 2)
    from recfair.book.guide import recommend_measures

    why = recommend_measures(has=["relevance", "item_groups"], wants=["realisable_range"], explain=True)
    assert why.loc["ItemMAD", "why"] == B.NO_BOUND["ItemMAD"]


def test_searches_refuse_large_sizes():
    with pytest.raises(ValueError, match="exact only for small sizes"):
        BG.achievable_exp_ratio(50, 100, 18, group_sizes=(50, 50))             # 2^18 group sequences per list
    with pytest.raises(ValueError, match="partial sums"):
        BG.achievable_exp_ratio(50, 100, 6, group_sizes=(50, 50), max_states=500)
    with pytest.raises(ValueError, match="max_states"):
        BG.achievable_c_kl(1, 40, 5, history=[[0]], item_features=[[1, 0]] * 40, max_states=1000)
    with pytest.raises(ValueError, match="max_states"):
        BG.achievable_ugf(2, 30, 20, relevant=[[0], [1]], groups=["a", "b"])


def test_bad_inputs_are_named():
    with pytest.raises(ValueError, match="relevant_counts"):
        BG.achievable_reo(2, 4, 2, relevant_counts=[[1, 1]])
    with pytest.raises(ValueError, match="group_sizes"):
        BG.achievable_mmf(2, 4, 2, group_sizes=(2, 1))
    with pytest.raises(ValueError, match="k=5 exceeds"):
        BG.achievable_ee_d(2, 4, 5, group_sizes=(2, 2))


def test_derivations_match_the_searches():
    mmf = BG.achievable_mmf(1, 4, 2, group_sizes=(2, 2)).most_fair
    assert mmf == pytest.approx(float(D.mmf_two_positions().result)) and D.mmf_two_positions().holds
    assert BG.achievable_mmf(3, 4, 2, group_sizes=(2, 2)).most_fair > mmf         # more users even out the exposure
    d = D.ee_d_concentrated(list_length=3)
    assert d.holds
    assert BG.achievable_ee_d(2, 6, 3, group_sizes=(3, 3), patience=0.6).most_unfair == \
        pytest.approx(float(d.result.subs(D.gamma, 0.6)))
