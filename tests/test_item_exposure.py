"""Paper 1 item-exposure measures: the thesis's worked examples, its tables, properties and edge cases."""

from __future__ import annotations

import math
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import _reference as reference
import recfair as rf
from recfair.item_exposure import bounds, search
from recfair.item_exposure import measures as ie
from recfair.registry import REGISTRY, names

KEYS = ["Jain_ori", "Jain_our", "QF_ori", "QF_our", "Ent_ori", "Ent_our", "Gini_ori", "Gini_our",
        "Gini-w_ori", "Gini-w_our", "FSat_ori", "FSat_our", "VoCD", "II-D", "AI-D"]
FUNCS = {
    "Jain_ori": rf.jain_index, "Jain_our": rf.jain_index_corrected,
    "QF_ori": rf.qualification_fairness, "QF_our": rf.qualification_fairness_corrected,
    "Ent_ori": rf.item_entropy, "Ent_our": rf.item_entropy_corrected,
    "Gini_ori": rf.gini_index, "Gini_our": rf.gini_index_corrected,
    "Gini-w_ori": rf.gini_index_weighted, "Gini-w_our": rf.gini_index_weighted_corrected,
    "FSat_ori": rf.fraction_satisfied, "FSat_our": rf.fraction_satisfied_corrected,
    "VoCD": rf.vocd, "II-D": rf.ii_disparity, "AI-D": rf.ai_disparity,
}
ALL_FUNCS = [*FUNCS.values(), rf.item_entropy_defined]
CORRECTED = {"Jain_our": "Jain_ori", "QF_our": "QF_ori", "Ent_our": "Ent_def", "Gini_our": "Gini_ori",
             "Gini-w_our": "Gini-w_ori", "FSat_our": "FSat_ori"}
ORIGINAL_FUNCS = {"Jain_ori": rf.jain_index, "QF_ori": rf.qualification_fairness, "Ent_def": rf.item_entropy_defined,
                  "Gini_ori": rf.gini_index, "Gini-w_ori": rf.gini_index_weighted, "FSat_ori": rf.fraction_satisfied}


def most_unfair_top_k(m, n, k):
    """The thesis's most unfair recommendation: the same k items, in the same order, for everyone."""
    return np.tile(np.arange(k), (m, 1))


def balanced_top_k(m, n, k):
    """The thesis's most fair recommendation (repeatable MostFair): round-robin items (u*k + j) mod n."""
    return (np.arange(m)[:, None] * k + np.arange(k)[None, :]) % n


def random_top_k(m, n, k, *, seed):
    return np.argsort(seed.random((m, n)), axis=1)[:, :k]


def _quiet(func, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rf.UndefinedMeasureWarning)
        return func(*args, **kwargs)


# ----------------------------------------------------------------------------------------------
# the worked examples of the text (p1.md §6, T1-T14)
# ----------------------------------------------------------------------------------------------


def test_T1_jain_equal_exposure_reads_as_share_of_items():
    assert Fraction(rf.jain_index([[0, 1, 2], [3, 4, 5]], n_items=10)).limit_denominator(1000) == Fraction(3, 5)


def test_T2_jain_unequal_exposure_breaks_the_reading():
    value = rf.jain_index([[0, 1, 2], [0, 1, 3], [0, 4, 5]], n_items=10)
    assert Fraction(value).limit_denominator(1000) == Fraction(81, 170)
    assert rf.qualification_fairness([[0, 1, 2], [0, 1, 3], [0, 4, 5]], n_items=10) == pytest.approx(0.6)


def test_T3_iid_aid_single_round_k1():
    # k = 1, m = 2, n = 3: II-D is 2/9 for every recommendation; AI-D is 1/18 or 2/9
    for top_k in ([[0], [1]], [[0], [0]], [[2], [1]]):
        assert rf.ii_disparity(top_k, n_items=3) == pytest.approx(2 / 9, abs=1e-15)
    assert rf.ai_disparity([[0], [1]], n_items=3) == pytest.approx(1 / 18, abs=1e-15)
    assert rf.ai_disparity([[1], [1]], n_items=3) == pytest.approx(2 / 9, abs=1e-15)
    assert search.exhaustive("II-D", 2, 3, 1) == pytest.approx((2 / 9, 2 / 9), abs=1e-15)
    assert search.exhaustive("AI-D", 2, 3, 1) == pytest.approx((1 / 18, 2 / 9), abs=1e-15)


def test_T4_iid_aid_two_rounds_k1():
    # k = 1, m = 2, W = 2, n = 5: min II-D 0.06 and min AI-D 0.01; both at most 0.16
    assert search.exhaustive("II-D", 2, 5, 1, rounds=2) == pytest.approx((0.06, 0.16), abs=1e-15)
    assert search.exhaustive("AI-D", 2, 5, 1, rounds=2) == pytest.approx((0.01, 0.16), abs=1e-15)
    top_k = [[0], [2]]
    rounds = [[[0], [2]], [[1], [3]]]               # every user sees two items, four distinct in all
    assert rf.ii_disparity(top_k, n_items=5, rounds=rounds) == pytest.approx(0.06, abs=1e-15)
    assert rf.ai_disparity(top_k, n_items=5, rounds=rounds) == pytest.approx(0.01, abs=1e-15)


def test_T5_one_item_gets_one_more_slot_when_n_does_not_divide_km():
    # km = 4 slots, n = 3 items: the fairest counts are (2, 1, 1), so the originals stop short of 0/1
    m, n, k = 2, 3, 2
    fair = balanced_top_k(m, n, k)
    assert sorted(np.bincount(fair.ravel(), minlength=n)) == [1, 1, 2]
    assert Fraction(rf.jain_index(fair, n_items=n)).limit_denominator(100) == Fraction(8, 9)
    assert Fraction(rf.gini_index(fair, n_items=n)).limit_denominator(100) == Fraction(1, 6)
    assert rf.jain_index_corrected(fair, n_items=n) == 1.0 and rf.gini_index_corrected(fair, n_items=n) == 0.0
    assert search.exhaustive("Jain_ori", m, n, k)[1] == pytest.approx(8 / 9)


def test_T6_iid_aid_two_rounds_k2_n3():
    constant = bounds.iid_single_round(3, 2, gamma=0.8)
    assert constant == pytest.approx(0.186667, abs=5e-7)
    assert search.exhaustive("II-D", 2, 3, 2, rounds=2) == pytest.approx((0.02, constant), abs=1e-15)
    assert search.exhaustive("AI-D", 2, 3, 2, rounds=2) == pytest.approx((0.005, constant), abs=1e-15)
    # one round: II-D is constant, AI-D spans [0.02, 0.1867]
    assert search.exhaustive("II-D", 2, 3, 2) == pytest.approx((constant, constant), abs=1e-15)
    assert search.exhaustive("AI-D", 2, 3, 2) == pytest.approx((0.02, constant), abs=1e-15)


def test_T7_gini_w_extremes_at_k_equal_n():
    assert rf.gini_index_weighted([[0, 1, 2], [2, 1, 0]], n_items=3) == pytest.approx(0.0372514, abs=5e-8)
    assert rf.gini_index_weighted([[0, 1, 2], [0, 1, 2]], n_items=3) == pytest.approx(0.1564262, abs=5e-8)
    lo, hi = search.exhaustive("Gini-w_ori", 2, 3, 3)
    assert (lo, hi) == pytest.approx((0.0372514, 0.1564262), abs=5e-8)
    assert hi == pytest.approx(bounds.gini_w_most_unfair(2, 3, 3), abs=1e-15)


def _two_cluster_features(similar_pair, n=3):
    """Unit vectors where exactly the two items of ``similar_pair`` coincide (cosine distance 0)."""
    feats = np.eye(n)
    a, b = similar_pair
    feats[b] = feats[a]
    return feats


def test_T8_vocd_upper_bound_reached_by_one_similar_pair():
    feats = _two_cluster_features((0, 1))
    value = rf.vocd([[0, 1], [0, 2], [0, 2]], n_items=3, alpha=0.5, item_features=feats)
    assert value == pytest.approx(2 / 3, abs=1e-15)
    assert value == pytest.approx(bounds.vocd_upper_bound(3), abs=1e-15)


def test_T9_T10_qf_is_quantity_insensitive_and_jain_is_not():
    s1 = [[0, 1], [1, 2], [0, 2]]       # counts (2, 2, 2): balanced
    s2 = [[0, 1], [0, 1], [0, 2]]       # counts (3, 2, 1)
    assert rf.qualification_fairness(s1, n_items=5) == rf.qualification_fairness(s2, n_items=5) == pytest.approx(0.6)
    # the thesis swaps these two values (E2): the balanced scenario is the one with 0.6
    assert Fraction(rf.jain_index(s1, n_items=5)).limit_denominator(1000) == Fraction(3, 5)
    assert Fraction(rf.jain_index(s2, n_items=5)).limit_denominator(1000) == Fraction(18, 35)
    assert round(rf.jain_index(s2, n_items=5), 3) == 0.514


def test_T11_entropy_undefinedness_and_its_fix():
    top_k = [[0, 1], [0, 1]]
    with pytest.warns(rf.UndefinedMeasureWarning, match="never recommended"):
        assert math.isnan(rf.item_entropy(top_k, n_items=3))
    assert rf.item_entropy_defined(top_k, n_items=3) == pytest.approx(math.log(2, 3))
    assert rf.item_entropy_defined(top_k, n_items=3) == pytest.approx(bounds.ent_most_unfair(2, 3, 2))
    assert rf.item_entropy_corrected(top_k, n_items=3) == 0.0


@pytest.mark.parametrize("beta", [0.0, 0.2, 0.5])
def test_T12_vocd_depends_on_the_item_representation(beta):
    top_k = [[0, 1], [0, 2]]            # counts (2, 1, 1)
    a12 = rf.vocd(top_k, n_items=3, alpha=0.5, beta=beta, item_features=_two_cluster_features((0, 1)))
    a23 = rf.vocd(top_k, n_items=3, alpha=0.5, beta=beta, item_features=_two_cluster_features((1, 2)))
    assert a12 == pytest.approx(0.5 - beta, abs=1e-15)
    assert a23 == 0.0


@pytest.mark.parametrize("m, n, k", [(3, 5, 1), (4, 6, 2), (2, 4, 3)])
def test_T13_gini_one_is_out_of_reach(m, n, k):
    assert rf.gini_index(most_unfair_top_k(m, n, k), n_items=n) == pytest.approx(1 - k / n)
    largest = search.exhaustive("Gini_ori", m, n, k)[1]
    assert largest == pytest.approx(1 - k / n) and largest < 1


def _insertion(m, k, steps):
    """Exp. 5 LE insertion: the bottom ``steps`` positions replaced by each user's own items u*k + p."""
    top = np.tile(np.arange(k), (m, 1))
    own = np.arange(m)[:, None] * k + np.arange(k)[None, :]
    if steps:
        top[:, k - steps:] = own[:, k - steps:]
    return top


# p1.md §8.5, LE+relevant insertion, m = 1000, n = km = 10000, k = 10
INSERTION = {  # P: (Jain_ori, Jain_our, Gini_ori, Gini-w_ori, Gini-w_our, VoCD, AI-D)
    0.0: (0.001, 0.0, 0.999, 0.999219, 1.0, 0.0, 0.000274376),
    0.3: (0.00142796, 0.000428388, 0.90909, 0.940648, 0.924924, 0.00464186, 0.000265371),
    0.5: (0.001998, 0.000999001, 0.74925, 0.831186, 0.784617, 0.00199441, 0.000247779),
    0.9: (0.0099108, 0.00891972, 0.18981, 0.396872, 0.227918, 0.000221975, 9.99754e-05),
    1.0: (1.0, 1.0, 0.0, 0.219059, 0.0, 0.0, 7.538e-08),
}


@pytest.mark.parametrize("p", list(INSERTION))
def test_T14_artificial_insertion_table(p):
    m, k = 1000, 10
    n = m * k
    top = _insertion(m, k, round(p * k))
    jain, jain_our, gini, giniw, giniw_our, vocd_value, aid = INSERTION[p]
    assert rf.jain_index(top, n_items=n) == pytest.approx(jain, rel=1e-5)
    assert rf.jain_index_corrected(top, n_items=n) == pytest.approx(jain_our, rel=1e-5, abs=1e-12)
    assert rf.gini_index(top, n_items=n) == pytest.approx(gini, rel=1e-5, abs=1e-12)
    assert rf.gini_index_weighted(top, n_items=n) == pytest.approx(giniw, rel=1e-5)
    assert rf.gini_index_weighted_corrected(top, n_items=n) == pytest.approx(giniw_our, rel=1e-5, abs=1e-12)
    assert rf.vocd(top, n_items=n) == pytest.approx(vocd_value, rel=1e-5, abs=1e-12)
    assert rf.ii_disparity(top, n_items=n) == pytest.approx(0.000274376, rel=1e-5)
    assert rf.ai_disparity(top, n_items=n) == pytest.approx(aid, rel=1e-4)
    # QF_our = FSat_our = Ent_our = P exactly, and QF_ori = FSat_ori
    for func in (rf.qualification_fairness_corrected, rf.fraction_satisfied_corrected, rf.item_entropy_corrected):
        assert func(top, n_items=n) == pytest.approx(p, abs=1e-12)
    assert rf.qualification_fairness(top, n_items=n) == rf.fraction_satisfied(top, n_items=n)


def test_T14_the_endpoints_are_exact():
    m, k = 1000, 10
    n = m * k
    start, end = _insertion(m, k, 0), _insertion(m, k, k)
    for key in ["Jain_our", "QF_our", "Ent_our", "FSat_our"]:
        assert FUNCS[key](start, n_items=n) == 0.0 and FUNCS[key](end, n_items=n) == 1.0
    for key in ["Gini_our", "Gini-w_our"]:        # km = n, so Gini-w_our reaches 0 too
        assert FUNCS[key](start, n_items=n) == 1.0 and FUNCS[key](end, n_items=n) == 0.0


# ----------------------------------------------------------------------------------------------
# the thesis's tables
# ----------------------------------------------------------------------------------------------

# p1.md §8.3, repeatable MostFair (round robin), original values and Gini-w_our
MOST_FAIR = {  # (m, n): {k: (Jain_ori, QF_ori, Ent_ori, Gini_ori, Gini-w_ori, Gini-w_our)}
    (1859, 2823): {1: (0.658519, 0.658519, None, 0.341481, 0.341481, 0.0),
                   2: (0.889025, 1.0, 0.992660, 0.164403, 0.204475, 0.204603),
                   5: (0.981265, 1.0, 0.998843, 0.062863, 0.102665, 0.102812),
                   10: (0.994433, 1.0, 0.999644, 0.036862, 0.066927, 0.067113),
                   20: (0.999186, 1.0, 0.999950, 0.010733, 0.037226, 0.037432)},
    (6038, 3307): {1: (0.958637, 1.0, 0.996916, 0.078780, 0.078780, 0.078804),
                   3: (0.991753, 1.0, 0.999488, 0.045549, 0.053346, 0.053387),
                   10: (0.999426, 1.0, 0.999965, 0.010491, 0.021380, 0.021431),
                   15: (0.999684, 1.0, 0.999981, 0.008665, 0.017574, 0.017637)},
}


@pytest.mark.parametrize("m, n, k", [(m, n, k) for (m, n), rows in MOST_FAIR.items() for k in rows])
def test_repeatable_most_fair_table(m, n, k):
    top = balanced_top_k(m, n, k)
    jain, qf, ent, gini, giniw, giniw_our = MOST_FAIR[(m, n)][k]
    got = [rf.jain_index(top, n_items=n), rf.qualification_fairness(top, n_items=n),
           rf.item_entropy(top, n_items=n, on_undefined="nan"), rf.gini_index(top, n_items=n),
           rf.gini_index_weighted(top, n_items=n), rf.gini_index_weighted_corrected(top, n_items=n)]
    expected = [jain, qf, math.nan if ent is None else ent, gini, giniw, giniw_our]
    assert got == pytest.approx(expected, abs=5e-7, nan_ok=True)
    for key in ["Jain_our", "QF_our", "Ent_our", "FSat_our"]:
        assert FUNCS[key](top, n_items=n) == 1.0
    assert rf.gini_index_corrected(top, n_items=n) == 0.0


@pytest.mark.parametrize("m, n", [(1859, 2823), (6038, 3307), (5639, 7455)])
@pytest.mark.parametrize("k", [1, 2, 10])
def test_repeatable_most_unfair_scores(m, n, k):
    top = most_unfair_top_k(m, n, k)
    for key in ["Jain_our", "QF_our", "Ent_our"]:
        assert FUNCS[key](top, n_items=n) == 0.0
    assert rf.fraction_satisfied_corrected(top, n_items=n) == (1.0 if k * m < n else 0.0)   # always-fair at km < n
    for key in ["Gini_our", "Gini-w_our"]:
        assert FUNCS[key](top, n_items=n) == 1.0
    assert rf.gini_index_weighted(top, n_items=n) == pytest.approx(bounds.gini_w_most_unfair(m, n, k), abs=1e-14)


# Tab. base-main: ori -> our with the (m, n) of Tab. dataset (p1.md §5.6 consistency check), k = 10
BASE_MAIN = {  # (dataset m, n): [(key, ori, our), ...] for a few models
    (1859, 2823): [("Jain_our", 0.080549, 0.077714), ("QF_our", 0.428268, 0.426235), ("FSat_our", 0.171803, 0.168859),
                   ("Gini_our", 0.884752, 0.883591), ("Gini-w_our", 0.895154, 0.897637),
                   ("Jain_our", 0.134035, 0.131692), ("Gini-w_our", 0.793962, 0.796164)],
    (6038, 3307): [("Jain_our", 0.068296, 0.065508), ("QF_our", 0.485939, 0.484380), ("FSat_our", 0.167523, 0.164998),
                   ("Gini_our", 0.888977, 0.890521), ("Gini-w_our", 0.894798, 0.896916)],
}


@pytest.mark.parametrize("m, n", list(BASE_MAIN))
def test_published_corrected_values_follow_from_the_originals(m, n):
    for key, ori, our in BASE_MAIN[(m, n)]:
        assert float(ie._rescale(key, ori, m, n, 10)) == pytest.approx(our, abs=3e-6), key


# ----------------------------------------------------------------------------------------------
# implementation against brute force
# ----------------------------------------------------------------------------------------------


@settings(max_examples=60, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=40), st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.9]))
def test_vocd_sorted_counts_formula_matches_pdist(counts, beta):
    counts = np.array(counts)
    total, pairs = ie._vocd_sorted(counts, beta)
    expected = reference.vocd_all_similar(counts, beta)
    if pairs == 0:
        assert math.isnan(expected)
    else:
        assert total / pairs == pytest.approx(expected, abs=1e-12)


def test_vocd_through_the_measure_matches_pdist_on_a_run():
    rng = np.random.default_rng(3)
    top = random_top_k(200, 60, 5, seed=rng)
    counts = np.bincount(top.ravel(), minlength=60)
    for beta in (0.0, 0.3):
        assert rf.vocd(top, n_items=60, beta=beta) == pytest.approx(reference.vocd_all_similar(counts, beta), abs=1e-12)


@pytest.mark.parametrize("alpha", [0.0, 0.4, 1.0, 1.7])
def test_vocd_with_features_matches_pairwise_definition(alpha):
    rng = np.random.default_rng(4)
    n, d = 40, 3
    top = random_top_k(30, n, 4, seed=rng)
    feats = rng.normal(size=(n, d))
    feats[5] = feats[7] * 2.0                     # identical direction: distance 0
    counts = np.bincount(top.ravel(), minlength=n)
    shown = np.flatnonzero(counts)
    unit = feats / np.linalg.norm(feats, axis=1, keepdims=True)
    terms = []
    for a in range(shown.size):
        for b in range(a + 1, shown.size):
            i, j = shown[a], shown[b]
            if 1 - unit[i] @ unit[j] <= alpha + 1e-12:
                terms.append(max(abs(counts[i] - counts[j]) / max(counts[i], counts[j]) - 0.1, 0))
    value = rf.vocd(top, n_items=n, alpha=alpha, beta=0.1, item_features=feats, on_undefined="nan")
    if terms:
        assert value == pytest.approx(np.mean(terms), abs=1e-12)
    else:
        assert math.isnan(value)
    # small blocks give the same answer
    total, pairs = ie._vocd_features(counts, feats, alpha, 0.1, block=7)
    assert pairs == len(terms)
    if terms:
        assert total / pairs == pytest.approx(np.mean(terms), abs=1e-12)


def test_vocd_alpha_two_ignores_features_and_equals_all_pairs():
    rng = np.random.default_rng(5)
    top = random_top_k(25, 30, 3, seed=rng)
    feats = rng.normal(size=(30, 4))
    assert rf.vocd(top, n_items=30, item_features=feats) == rf.vocd(top, n_items=30)


@pytest.mark.parametrize("n_rounds", [1, 2, 4])
@pytest.mark.parametrize("gamma", [0.5, 0.8])
def test_iid_aid_match_the_dense_definition(n_rounds, gamma):
    rng = np.random.default_rng(n_rounds)
    m, n, k = 7, 9, 3
    rounds = np.stack([random_top_k(m, n, k, seed=rng) for _ in range(n_rounds)])
    e = reference.rbp_exposure(rounds, n, gamma)
    e_rand = (1 - gamma**k) / (n * (1 - gamma))
    iid = rf.ii_disparity(rounds[0], n_items=n, gamma=gamma, rounds=rounds)
    aid = rf.ai_disparity(rounds[0], n_items=n, gamma=gamma, rounds=rounds)
    assert iid == pytest.approx(np.mean((e - e_rand) ** 2), abs=1e-15)
    assert aid == pytest.approx(np.mean((e.mean(axis=0) - e_rand) ** 2), abs=1e-15)
    assert aid <= iid + 1e-15 <= bounds.iid_single_round(n, k, gamma=gamma) + 2e-15      # Jensen, twice


def test_iid_is_constant_in_one_round():
    rng = np.random.default_rng(6)
    values = {round(rf.ii_disparity(random_top_k(11, 13, 4, seed=rng), n_items=13), 15) for _ in range(5)}
    assert len(values) == 1
    assert values.pop() == pytest.approx(bounds.iid_single_round(13, 4), abs=1e-15)


@pytest.mark.parametrize("seed", range(3))
def test_gini_matches_the_mean_absolute_difference_form(seed):
    rng = np.random.default_rng(seed)
    n, k = 20, 4
    rounds = np.stack([random_top_k(15, n, k, seed=rng) for _ in range(2)])
    counts = np.bincount(rounds.ravel(), minlength=n)
    assert rf.gini_index(rounds[0], n_items=n, rounds=rounds) == pytest.approx(reference.gini_mean_difference(counts), abs=1e-14)
    weights = 1 / np.log2(np.arange(2, k + 2))
    exposure = np.bincount(rounds.ravel(), weights=np.tile(weights, 30), minlength=n)
    assert rf.gini_index_weighted(rounds[0], n_items=n, rounds=rounds) == pytest.approx(reference.gini_mean_difference(exposure),
                                                                                        abs=1e-14)
    # one round = the same as passing nothing
    assert rf.gini_index_weighted(rounds[0], n_items=n, rounds=rounds[:1]) == rf.gini_index_weighted(rounds[0],
                                                                                                     n_items=n)


def test_rounds_act_like_more_users_for_gini():
    rng = np.random.default_rng(8)
    rounds = np.stack([random_top_k(6, 10, 3, seed=rng) for _ in range(3)])
    stacked = rounds.reshape(-1, 3)
    for with_rounds, plain in [(rf.gini_index_corrected, rf.gini_index_corrected),
                               (rf.gini_index_weighted_corrected, rf.gini_index_weighted_corrected)]:
        assert with_rounds(rounds[0], n_items=10, rounds=rounds) == pytest.approx(plain(stacked, n_items=10))


def test_entropy_base_and_definitions():
    top = balanced_top_k(6, 4, 2)              # every item three times
    assert rf.item_entropy(top, n_items=4) == pytest.approx(1.0)
    assert rf.item_entropy(top, n_items=4, log_base=2) == pytest.approx(2.0)
    assert rf.item_entropy(top, n_items=4, log_base=2) == rf.item_entropy_defined(top, n_items=4, log_base=2)
    rng = np.random.default_rng(9)
    top = random_top_k(5, 12, 3, seed=rng)
    assert rf.item_entropy_corrected(top, n_items=12, log_base=2) == rf.item_entropy_corrected(top, n_items=12)


def test_k_cuts_the_lists():
    top = [[0, 1, 2], [3, 4, 5]]
    for func in ALL_FUNCS:
        assert _quiet(func, top, n_items=8, k=2, on_undefined="nan") == pytest.approx(
            _quiet(func, [[0, 1], [3, 4]], n_items=8, on_undefined="nan"), nan_ok=True)


# ----------------------------------------------------------------------------------------------
# properties
# ----------------------------------------------------------------------------------------------

mnk = st.integers(2, 12).flatmap(lambda n: st.tuples(st.integers(2, 9), st.just(n), st.integers(1, n - 1)))


@settings(max_examples=60, deadline=None)
@given(mnk)
def test_corrected_measures_hit_zero_and_one_at_the_extremes(point):
    m, n, k = point
    unfair, fair = most_unfair_top_k(m, n, k), balanced_top_k(m, n, k)
    for key in ["Jain_our", "QF_our", "Ent_our"]:
        assert FUNCS[key](unfair, n_items=n) == 0.0 and FUNCS[key](fair, n_items=n) == 1.0, key
    assert rf.gini_index_corrected(unfair, n_items=n) == 1.0 and rf.gini_index_corrected(fair, n_items=n) == 0.0
    assert rf.gini_index_weighted_corrected(unfair, n_items=n) == 1.0
    if k * m <= n:
        assert rf.gini_index_weighted_corrected(fair, n_items=n) == 0.0
    if k * m >= n:
        assert rf.fraction_satisfied_corrected(unfair, n_items=n) == 0.0
    assert rf.fraction_satisfied_corrected(fair, n_items=n) == 1.0
    # and the originals hit the closed forms of recfair.bounds
    for key in ["Jain_ori", "QF_ori", "Gini_ori", "Gini-w_ori", "II-D", "AI-D"]:
        assert FUNCS[key](unfair, n_items=n) == pytest.approx(bounds.achievable(key, m, n, k).most_unfair, abs=1e-13)
    for key in ["Jain_ori", "QF_ori", "Gini_ori", "FSat_ori", "II-D"] + (["Gini-w_ori"] if k * m <= n else []):
        assert FUNCS[key](fair, n_items=n) == pytest.approx(bounds.achievable(key, m, n, k).most_fair, abs=1e-13)
    if k * m >= n:
        assert rf.fraction_satisfied(unfair, n_items=n) == pytest.approx(bounds.fsat_most_unfair(m, n, k))
    if k >= 2:   # VoCD calls the most unfair recommendation perfectly fair
        assert rf.vocd(unfair, n_items=n) == 0.0
    assert rf.item_entropy_defined(unfair, n_items=n) == pytest.approx(bounds.ent_most_unfair(m, n, k), abs=1e-13)
    assert rf.item_entropy_defined(fair, n_items=n) == pytest.approx(bounds.ent_most_fair(m, n, k), abs=1e-13)


@settings(max_examples=60, deadline=None)
@given(mnk, st.integers(0, 2**32 - 1))
def test_corrected_stay_in_unit_interval_except_fsat(point, seed):
    m, n, k = point
    top = random_top_k(m, n, k, seed=np.random.default_rng(seed))
    for key in ["Jain_our", "QF_our", "Ent_our", "Gini_our", "Gini-w_our"]:
        assert 0.0 <= FUNCS[key](top, n_items=n) <= 1.0, key
    fsat = rf.fraction_satisfied_corrected(top, n_items=n)
    true_min = (bounds.fsat_true_minimum(m, n, k) - k / n) / (1 - k / n)
    assert true_min - 1e-12 <= fsat <= 1.0


def test_fsat_corrected_goes_below_zero_and_reaches_its_true_minimum():
    top = [[0, 1]] * 3 + [[0, 2]] * 3
    assert rf.fraction_satisfied_corrected(top, n_items=3) == pytest.approx(-1.0)
    assert search.exhaustive("FSat_our", 6, 3, 2)[0] == pytest.approx(-1.0)


@settings(max_examples=40, deadline=None)
@given(mnk, st.integers(0, 2**32 - 1))
def test_invariant_to_user_order_and_item_relabelling(point, seed):
    m, n, k = point
    rng = np.random.default_rng(seed)
    top = random_top_k(m, n, k, seed=rng)
    users, relabel = rng.permutation(m), rng.permutation(n)
    for func in ALL_FUNCS:
        base = _quiet(func, top, n_items=n, on_undefined="nan")
        assert _quiet(func, top[users], n_items=n, on_undefined="nan") == pytest.approx(base, abs=1e-12, nan_ok=True)
        assert _quiet(func, relabel[top], n_items=n, on_undefined="nan") == pytest.approx(base, abs=1e-12, nan_ok=True)


@settings(max_examples=30, deadline=None)
@given(mnk, st.integers(0, 2**32 - 1))
def test_set_based_measures_ignore_the_order_within_lists(point, seed):
    m, n, k = point
    top = random_top_k(m, n, k, seed=np.random.default_rng(seed))
    for key in ["Jain_ori", "Jain_our", "QF_ori", "QF_our", "Ent_our", "Gini_ori", "Gini_our", "FSat_ori",
                "FSat_our", "VoCD", "II-D"]:
        assert FUNCS[key](top[:, ::-1], n_items=n, on_undefined="nan") == pytest.approx(
            FUNCS[key](top, n_items=n, on_undefined="nan"), abs=1e-12, nan_ok=True)


@pytest.mark.parametrize("key", list(CORRECTED))
@pytest.mark.parametrize("m, n, k", [(7, 12, 2), (8, 9, 3), (4, 10, 4)])   # km >= n: FSat varies
def test_corrected_is_a_strictly_increasing_map_of_the_original(key, m, n, k):
    rng = np.random.default_rng(10)
    runs = [most_unfair_top_k(m, n, k), balanced_top_k(m, n, k)]
    for _ in range(60):   # draw from pools of varying size, so that concentration varies
        pool = rng.permutation(n)[: rng.integers(k, n + 1)]
        runs.append(pool[random_top_k(m, pool.size, k, seed=rng)])
    ori = np.array([ORIGINAL_FUNCS[CORRECTED[key]](t, n_items=n) for t in runs])
    our = np.array([FUNCS[key](t, n_items=n) for t in runs])
    order = np.argsort(ori, kind="stable")
    d_ori, d_our = np.diff(ori[order]), np.diff(our[order])
    assert np.all(d_our[d_ori > 1e-12] > 0)
    assert np.allclose(d_our[d_ori <= 1e-12], 0, atol=1e-12)
    assert len(np.unique(ori.round(12))) > 3


def test_measures_return_builtin_floats():
    top = [[0, 1], [2, 3], [1, 2]]
    for func in ALL_FUNCS:
        assert type(_quiet(func, top, n_items=4)) is float


# ----------------------------------------------------------------------------------------------
# undefined values: every case, all three policies
# ----------------------------------------------------------------------------------------------

EMPTY = np.empty((0, 2), dtype=int)
UNDEFINED = [(func, EMPTY, {"n_items": 4}, "no recommendation slots") for func in ALL_FUNCS] + [
    (rf.item_entropy, [[0, 1], [0, 1]], {"n_items": 3}, "never recommended"),
    (rf.item_entropy, [[0], [0]], {"n_items": 1}, "log base 1"),
    (rf.item_entropy_defined, [[0]], {"n_items": 1}, "log base 1"),
    (rf.jain_index_corrected, [[0, 1], [1, 0]], {"n_items": 2}, "k == n_items"),
    (rf.qualification_fairness_corrected, [[0, 1], [1, 0]], {"n_items": 2}, "k == n_items"),
    (rf.item_entropy_corrected, [[0, 1], [1, 0]], {"n_items": 2}, "k == n_items"),
    (rf.gini_index_corrected, [[0, 1], [1, 0]], {"n_items": 2}, "k == n_items"),
    (rf.fraction_satisfied_corrected, [[0, 1], [1, 0]], {"n_items": 2}, "k == n_items"),
    (rf.jain_index_corrected, [[0, 1]], {"n_items": 5}, "n_users == 1"),
    (rf.qualification_fairness_corrected, [[0, 1]], {"n_items": 5}, "n_users == 1"),
    (rf.item_entropy_corrected, [[0, 1]], {"n_items": 5}, "n_users == 1"),
    (rf.gini_index_corrected, [[0, 1]], {"n_items": 5}, "n_users == 1"),
    (rf.gini_index_weighted_corrected, [[0, 1]], {"n_items": 5}, "n_users == 1"),
    (rf.gini_index_weighted_corrected, [[0], [0]], {"n_items": 1}, "n_items == 1"),
    (rf.vocd, [[0], [0]], {"n_items": 3}, "fewer than two items"),
    (rf.vocd, [[0, 1], [0, 2]], {"n_items": 3, "alpha": 0.5, "item_features": np.eye(3)}, "alpha-similar"),
]


@pytest.mark.parametrize("func, top_k, kwargs, reason", UNDEFINED,
                         ids=[f"{c[0].__name__}-{c[3]}" for c in UNDEFINED])
def test_undefined_cases_follow_the_policy(func, top_k, kwargs, reason):
    with pytest.warns(rf.UndefinedMeasureWarning, match=reason):
        assert math.isnan(func(top_k, **kwargs))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert math.isnan(func(top_k, on_undefined="nan", **kwargs))
    with pytest.raises(rf.UndefinedMeasureError, match=reason):
        func(top_k, on_undefined="raise", **kwargs)


def test_defined_neighbours_of_the_undefined_cases():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        # Gini-w_our stays defined at k = n with m >= 2 (km > n: the denominator is Gini-w_max > 0)
        assert rf.gini_index_weighted_corrected([[0, 1, 2], [0, 1, 2]], n_items=3) == 1.0
        # FSat_our with one user: km < n, always fair
        assert rf.fraction_satisfied_corrected([[0, 1]], n_items=5) == 1.0
        assert rf.fraction_satisfied([[0, 1]], n_items=5) == 1.0
        # an explicit base works for a one-item catalogue
        assert rf.item_entropy([[0], [0]], n_items=1, log_base=2) == 0.0


# ----------------------------------------------------------------------------------------------
# validation
# ----------------------------------------------------------------------------------------------

TOP = [[0, 1], [1, 2]]


@pytest.mark.parametrize("gamma", [0, 1, -0.5, 1.5, 2])
@pytest.mark.parametrize("func", [rf.ii_disparity, rf.ai_disparity])
def test_gamma_outside_zero_one_is_rejected(func, gamma):
    with pytest.raises(ValueError, match="gamma"):
        func(TOP, n_items=4, gamma=gamma)


def test_gamma_of_the_wrong_type_is_rejected():
    with pytest.raises(TypeError, match="gamma"):
        rf.ii_disparity(TOP, n_items=4, gamma="0.8")


@pytest.mark.parametrize("beta", [-0.1, 1.0, 2.0, float("nan")])
def test_beta_outside_zero_one_is_rejected(beta):
    with pytest.raises(ValueError, match="beta"):
        rf.vocd(TOP, n_items=4, beta=beta)


@pytest.mark.parametrize("alpha", [-0.1, 2.5, float("inf")])
def test_alpha_outside_zero_two_is_rejected(alpha):
    with pytest.raises(ValueError, match="alpha"):
        rf.vocd(TOP, n_items=4, alpha=alpha, item_features=np.eye(4))


def test_alpha_below_two_needs_features():
    with pytest.raises(ValueError, match="needs item_features"):
        rf.vocd(TOP, n_items=4, alpha=1.0)


@pytest.mark.parametrize("features, match", [(np.eye(3), "shape"), (np.ones(4), "shape"),
                                             (np.full((4, 2), np.nan), "NaN")])
def test_item_features_are_checked(features, match):
    with pytest.raises(ValueError, match=match):
        rf.vocd(TOP, n_items=4, alpha=1.0, item_features=features)


def test_zero_feature_vector_of_a_recommended_item_is_rejected():
    feats = np.eye(4)
    feats[1] = 0
    with pytest.raises(ValueError, match="zero vector"):
        rf.vocd(TOP, n_items=4, alpha=1.0, item_features=feats)


@pytest.mark.parametrize("base", [1, 0.5, -2, float("inf"), "e"])
@pytest.mark.parametrize("func", [rf.item_entropy, rf.item_entropy_defined, rf.item_entropy_corrected])
def test_bad_log_base_is_rejected(func, base):
    with pytest.raises(TypeError if isinstance(base, str) else ValueError, match="log_base"):   # one check_real
        func(TOP, n_items=4, log_base=base)


ROUND_FUNCS = [rf.gini_index, rf.gini_index_corrected, rf.gini_index_weighted, rf.gini_index_weighted_corrected,
               rf.ii_disparity, rf.ai_disparity]


@pytest.mark.parametrize("func", ROUND_FUNCS)
@pytest.mark.parametrize("rounds, match", [
    ([[[1, 0], [1, 2]]], r"rounds\[0\] must equal top_k"),
    ([[0, 1], [1, 2]], "3-D"),
    ([[[0, 1]]], "users per round"),
    (np.empty((0, 2, 2), dtype=int), "at least one round"),
    ([[[0, 1], [1, 2]], [[0, 0], [1, 2]]], "repeated item"),
    ([[[0, 1], [1, 2]], [[0, 9], [1, 2]]], "outside"),
])
def test_bad_rounds_are_rejected(func, rounds, match):
    with pytest.raises(ValueError, match=match):
        func(TOP, n_items=4, rounds=rounds)


def test_bad_top_k_and_policy_are_rejected():
    with pytest.raises(ValueError, match="repeated item"):
        rf.jain_index([[0, 0]], n_items=3)
    with pytest.raises(ValueError, match="on_undefined"):
        rf.gini_index(TOP, n_items=4, on_undefined="ignore")
    with pytest.raises(ValueError, match="exceeds"):
        rf.gini_index([[0, 1, 2]], n_items=2)


# ----------------------------------------------------------------------------------------------
# registry and evaluate
# ----------------------------------------------------------------------------------------------


def test_registry_records():
    assert names("item_exposure") == KEYS
    chapters = {"Jain": "jain", "QF": "qf", "Ent": "entropy", "Gini": "gini", "FSat": "fsat", "VoCD": "vocd",
                "II-D": "iid-aid", "AI-D": "iid-aid"}
    lower = {"Gini_ori", "Gini_our", "Gini-w_ori", "Gini-w_our", "VoCD", "II-D", "AI-D"}
    for key in KEYS:
        spec = REGISTRY[key]
        assert spec.family == "item_exposure" and spec.paper == 1 and spec.func is FUNCS[key]
        assert spec.version == ("corrected" if key.endswith("_our") else "original" if key.endswith("_ori")
                                else "single")
        assert spec.higher_is_better is (key not in lower)
        assert spec.chapter == chapters[key.split("_")[0].replace("Gini-w", "Gini")]
        assert spec.needs == ("top_k",)
        assert spec.achievable is not None and spec.undefined != "never"
    assert REGISTRY["Ent_ori"].options == {"log_base": None}
    assert REGISTRY["VoCD"].options == {"alpha": 2.0, "beta": 0.0}
    assert REGISTRY["II-D"].options == REGISTRY["AI-D"].options == {"gamma": 0.8}
    assert REGISTRY["FSat_our"].range[0] == -np.inf


@pytest.mark.parametrize("m, n, k", [(4, 5, 2), (3, 7, 3), (5, 10, 2)])
def test_registry_achievable_matches_the_extreme_lists(m, n, k):
    unfair, fair = most_unfair_top_k(m, n, k), balanced_top_k(m, n, k)
    for key in ["Jain_ori", "QF_ori", "Gini_ori", "FSat_ori", "Jain_our", "QF_our", "Ent_our", "Gini_our",
                "FSat_our", "II-D"]:
        b = REGISTRY[key].bounds(m, n, k)
        assert FUNCS[key](unfair, n_items=n) == pytest.approx(b.most_unfair, abs=1e-13), key
        assert FUNCS[key](fair, n_items=n) == pytest.approx(b.most_fair, abs=1e-13), key
    giniw = REGISTRY["Gini-w_ori"].bounds(m, n, k)
    assert rf.gini_index_weighted(unfair, n_items=n) == pytest.approx(giniw.most_unfair)
    assert rf.ai_disparity(unfair, n_items=n) == pytest.approx(REGISTRY["AI-D"].bounds(m, n, k).most_unfair)
    assert rf.vocd(unfair, n_items=n) == REGISTRY["VoCD"].bounds(m, n, k).most_fair == 0.0
    assert rf.item_entropy(fair, n_items=n) == pytest.approx(REGISTRY["Ent_ori"].bounds(m, n, k).most_fair)


def test_evaluate_matches_the_public_functions_and_passes_options():
    rng = np.random.default_rng(11)
    m, n, k = 40, 30, 4
    rounds = np.stack([random_top_k(m, n, k, seed=rng) for _ in range(3)])
    top = rounds[0]
    feats = rng.normal(size=(n, 5))
    got = rf.evaluate(top, n_items=n, measures=KEYS, on_undefined="nan", rounds=rounds, item_features=feats, gamma=0.5, beta=0.1, alpha=1.2,
                      log_base=2)
    for key in KEYS:
        kwargs = {}
        if key in ("Gini_ori", "Gini_our", "Gini-w_ori", "Gini-w_our"):
            kwargs = {"rounds": rounds}
        elif key in ("II-D", "AI-D"):
            kwargs = {"rounds": rounds, "gamma": 0.5}
        elif key == "VoCD":
            kwargs = {"alpha": 1.2, "beta": 0.1, "item_features": feats}
        elif key.startswith("Ent"):
            kwargs = {"log_base": 2}
        assert got[key] == pytest.approx(FUNCS[key](top, n_items=n, on_undefined="nan", **kwargs), nan_ok=True), key


def test_evaluate_checks_the_first_round():
    rounds = np.stack([[[1, 0], [1, 2]]])
    with pytest.raises(ValueError, match=r"rounds\[0\] must equal top_k"):
        rf.evaluate(TOP, n_items=4, measures=["II-D"], rounds=rounds)
