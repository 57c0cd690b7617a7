"""Graded relevance (``relevance=``) for the joint measures, and their run-level achievable ends.

Thesis values: p2 §12 T3 and p3 §4 X5, X7, X13. Every other graded value is checked against a
literal loop transcription of the thesis's formula, written here independently of the library.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import recfair as rf
import _reference as reference
from recfair.joint import bounds as jb
from recfair.registry import REGISTRY
from recfair.joint.generators import fairest_ranking, unfairest_ranking


def _one_user(grades_by_rank, k):
    """A single user whose items 0..n-1 are ranked in index order, with these grades."""
    grades = np.asarray(grades_by_rank, dtype=float)[None, :]
    return np.arange(k)[None, :], grades


# --------------------------------------------------------------------------- thesis toy values

@pytest.mark.parametrize("grades, expected", [([1, 0.8, 0, 0], 0.2), ([0, 0, 0.8, 1], 0.7),
                                              ([5, 4, 0, 0], 0.2)])      # grades are min-max normalised
def test_x5_iaa_graded(grades, expected):
    top_k, rel = _one_user(grades, 2)
    assert rf.inequity_of_amortized_attention(top_k, n_items=4, relevance=rel) == pytest.approx(expected)


@pytest.mark.parametrize("grades, expected", [([1, 1, 0, 0, 0], 0.2), ([1, 1, 1, 1, 1], 0.8)])
def test_t3_iaa_binary_as_grades(grades, expected):
    top_k, rel = _one_user(grades, 2)
    assert rf.inequity_of_amortized_attention(top_k, n_items=5, relevance=rel) == pytest.approx(expected)


def test_x13_iaa_corrected_graded():
    top_k, rel = _one_user([0.8, 1, 0, 0], 2)
    ours = rf.inequity_of_amortized_attention_corrected(top_k, n_items=4, relevance=rel)
    assert ours == pytest.approx(2 / 15)                                  # thesis 0.133
    ori_e = rf.inequity_of_amortized_attention_corrected(top_k, n_items=4, relevance=rel, attention="original")
    assert ori_e == pytest.approx(0.2)                                    # thesis 0.2


def test_x7_ifd_graded_k_equals_n_10():
    n = 10
    zero = np.zeros((1, n))
    zero[0, [0, 2]] = [1.0, 0.5]                                          # r = 1 at p = 1, 0.5 at p = 3
    top = np.arange(n)[None, :]
    value = rf.individual_fairness_disparity_div(top, n_items=n, relevance=zero, ranking=top)
    assert value == pytest.approx(0.0, abs=1e-15)
    worst = np.zeros((1, n))
    worst[0, [0, 9]] = [0.5, 1.0]                                         # the thesis's maximum 0.428
    value = rf.individual_fairness_disparity_div(top, n_items=n, relevance=worst, ranking=top)
    assert value == pytest.approx((2 - 1 / math.log2(11)) / 4)
    assert value == pytest.approx(0.4277, abs=5e-5)
    low = np.zeros((1, n))
    low[0, 9] = 0.5                                                       # the thesis's IFD× minimum 0.004
    value = rf.individual_fairness_disparity_mul(top, n_items=n, relevance=low)
    assert value == pytest.approx(2 * (0.5 / math.log2(11)) ** 2 / n)
    assert value == pytest.approx(0.00418, abs=5e-6)


# --------------------------------------------------------------------------- loop transcriptions: tests/_reference.py


def _random_graded(seed, m=5, n=7, k=3, top=1.0):
    rng = np.random.default_rng(seed)
    grades = np.where(rng.random((m, n)) < 0.5, np.round(rng.uniform(0.1, top, (m, n)), 2), 0.0)
    grades[np.arange(m), rng.integers(0, n, m)] = 0.5                     # everyone has a relevant item
    top_k = np.array([rng.permutation(n)[:k] for _ in range(m)])
    return top_k, grades


@pytest.mark.parametrize("seed", range(12))
def test_graded_measures_match_loops(seed):
    top_k, grades = _random_graded(seed)
    n = grades.shape[1]
    got = rf.evaluate(top_k, n_items=n, measures=["IAA_ori", "HD", "MME", "IBO_our", "IWO_our", "II-F_ori", "AI-F"], relevance=grades, on_undefined="nan")
    assert got["IAA_ori"] == pytest.approx(reference.iaa(top_k, grades, corrected=False), abs=1e-12)
    assert got["HD"] == pytest.approx(reference.hd(top_k, grades), abs=1e-12)
    imp, unif = reference.impacts(top_k, grades)
    own = np.diag(imp)
    assert got["MME"] == pytest.approx((imp.max(axis=1) - own).mean(), abs=1e-12)
    known = unif > 0
    assert got["IBO_our"] == pytest.approx((own[known] >= 1.1 * unif[known]).mean())
    assert got["IWO_our"] == pytest.approx((own[known] <= 0.9 * unif[known]).mean())
    iif, aif = reference.iif_aif(top_k, grades)
    assert got["II-F_ori"] == pytest.approx(iif, abs=1e-12)
    assert got["AI-F"] == pytest.approx(aif, abs=1e-12)


def _all_rankings_ends(grades_u, k, per_ranking):
    values = [per_ranking(np.array(perm)) for perm in itertools.permutations(range(grades_u.size))]
    return min(values), max(values)


@pytest.mark.parametrize("seed", range(6))
def test_graded_corrected_ends_are_exact(seed):
    """IAA_our and II-F_our rescale with the true extremes over all n! rankings, for any grades."""
    rng = np.random.default_rng(100 + seed)
    n, k, gamma = 6, 3, 0.8
    grades_u = np.where(rng.random(n) < 0.6, np.round(rng.uniform(0.1, 1.0, n), 2), 0.0)
    grades_u[0] = 0.7
    size = int((grades_u > 0).sum())
    t = (1 - gamma ** size) / (size * (1 - gamma))

    def iaa(ranking):
        return reference.iaa(ranking[None, :k], grades_u[None, :], corrected=True)

    def iif(ranking):
        e = np.zeros(n)
        e[ranking[:k]] = gamma ** np.arange(k)
        return ((e - t * grades_u) ** 2).mean()

    ranking = rng.permutation(n)
    for func, key, per_ranking in ((rf.inequity_of_amortized_attention_corrected, "IAA", iaa),
                                   (rf.ii_fairness_corrected, "II-F", iif)):
        lo, hi = _all_rankings_ends(grades_u, k, per_ranking)
        expected = (per_ranking(ranking) - lo) / (hi - lo)
        got = func(ranking[None, :k], n_items=n, relevance=grades_u[None, :])
        assert got == pytest.approx(expected, abs=1e-9), key


def test_all_ones_grades_equal_binary():
    top_k = np.array([[0, 1, 2], [3, 4, 5], [1, 0, 6]])
    relevant = [[0, 5], [3], [2, 4, 6]]
    dense = np.zeros((3, 8))
    for u, items in enumerate(relevant):
        dense[u, items] = 1.0
    keys = [key for key, spec in REGISTRY.items() if spec.family == "joint" and key != "IFD_div_ori"]
    binary = rf.evaluate(top_k, n_items=8, measures=keys, relevant=relevant, on_undefined="nan")
    graded = rf.evaluate(top_k, n_items=8, measures=keys, relevance=dense, on_undefined="nan")
    assert graded == pytest.approx(binary, nan_ok=True)


# --------------------------------------------------------------------------- errors

def test_graded_errors():
    top_k, grades = _random_graded(0)
    n = grades.shape[1]
    with pytest.raises(ValueError, match="either relevant"):
        rf.Run(top_k, n, relevant=[[0]] * 5, relevance=grades)
    with pytest.raises(ValueError, match="non-negative"):
        rf.Run(top_k, n, relevance=-grades)
    bad = grades.copy()
    bad[0, 0] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        rf.Run(top_k, n, relevance=bad)
    with pytest.raises(ValueError, match="shape"):
        rf.Run(top_k, n, relevance=grades[:, :-1])
    with pytest.raises(TypeError, match="numeric"):
        rf.Run(top_k, n, relevance=np.full(grades.shape, "a"))
    for key in ("IFD_div_our", "IFD_mul_our", "NDCG", "P"):
        with pytest.raises(ValueError, match="binary relevance"):
            rf.evaluate(top_k, n_items=n, measures=[key], relevance=grades)
    with pytest.raises(ValueError, match="binary relevance"):
        rf.evaluate_run(rf.Run(top_k, n, relevance=grades), measures=["IFD_mul_our"])
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        rf.evaluate(top_k, n_items=n, measures=["HD"], relevance=grades * 3)
    with pytest.raises(ValueError, match="relevance="):
        rf.ii_fairness(top_k, n_items=n)
    # exposure-only measures do not read relevance, so grades are fine there
    assert np.isfinite(rf.evaluate(top_k, n_items=n, measures=["Jain_our"], relevance=grades)["Jain_our"])


# --------------------------------------------------------------------------- achievable ends

@pytest.mark.parametrize("key, measure", [("IAA_ori", "IAA"), ("IFD_mul_ori", "IFD_mul"), ("II-F_ori", "II-F"),
                                          ("IFD_div_ori", "IFD_div"), ("IAA_our", "IAA"), ("IFD_mul_our", "IFD_mul"),
                                          ("II-F_our", "II-F"), ("IFD_div_our", "IFD_div")])
def test_registry_achievable_matches_extreme_rankings(key, measure):
    rng = np.random.default_rng(7)
    n, k, m = 14, 4, 9
    relevant = [np.sort(rng.choice(n, size=size, replace=False)) for size in rng.integers(1, 9, m)]
    counts = np.array([len(r) for r in relevant])
    ends = REGISTRY[key].bounds(m, n, k, n_relevant=counts)
    for end, target in (("most_fair", ends.most_fair), ("most_unfair", ends.most_unfair)):
        if key == "IFD_div_ori":
            ranking = (fairest_ranking if end == "most_fair" else unfairest_ranking)(relevant, n_items=n, measure="IFD_div_ori", k=k)
            value = rf.evaluate(None, n_items=n, measures=[key], k=k, relevant=relevant, ranking=ranking)[key]
        else:
            ranking = (fairest_ranking if end == "most_fair" else unfairest_ranking)(relevant, n_items=n, measure=measure, k=k)
            value = rf.evaluate(ranking[:, :k], n_items=n, measures=[key], relevant=relevant)[key]
        assert value == pytest.approx(target, abs=1e-12), (key, end)


def test_achievable_errors_and_unknown_ends():
    assert REGISTRY["HD"].achievable is None and REGISTRY["MME"].achievable is None
    with pytest.raises(ValueError, match="n_relevant"):
        REGISTRY["IAA_ori"].bounds(3, 10, 2)
    with pytest.raises(ValueError, match="m=3"):
        jb.achievable("IAA_ori", 3, 10, 2, n_relevant=[1, 2])
    assert math.isnan(jb.achievable("IFD_div_ori", 2, 10, 2, n_relevant=[0, 2])[0])
    assert all(math.isnan(x) for x in jb.achievable("IAA_our", 2, 10, 2, n_relevant=[0, 10]))


@pytest.mark.parametrize("key", rf.joint.GRADED)
def test_graded_relabelling_and_user_order_invariance(key):
    rng = np.random.default_rng(21)
    m, n, k = 12, 15, 4
    rank = np.argsort(rng.random((m, n)), axis=1)
    grades = np.where(rng.random((m, n)) < 0.35, rng.uniform(0.05, 1.0, (m, n)), 0.0)   # distinct grades
    grades[:, :2] = rng.uniform(0.05, 1.0, (m, 2))                                      # every item relevant once
    perm = rng.permutation(n)                                                           # item i becomes perm[i]
    relabelled = np.zeros_like(grades)
    relabelled[:, perm] = grades
    users = rng.permutation(m)
    a = rf.evaluate(None, n_items=n, measures=[key], relevance=grades, ranking=rank, k=k, on_undefined="nan")[key]
    b = rf.evaluate(None, n_items=n, measures=[key], relevance=relabelled, ranking=perm[rank], k=k, on_undefined="nan")[key]
    c = rf.evaluate(None, n_items=n, measures=[key], relevance=grades[users], ranking=rank[users], k=k, on_undefined="nan")[key]
    assert a == pytest.approx(b, abs=1e-12, nan_ok=True)
    assert a == pytest.approx(c, abs=1e-12, nan_ok=True)
