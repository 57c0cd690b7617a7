"""recfair.bounds: closed forms against exhaustive search, the thesis's slips, and its printed constants.

The symbolic side (sympy derivations equal these closed forms) lives in tests/test_derivations.py.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from recfair import examination
from recfair.item_exposure import bounds, search
from recfair.spec import Bounds

# every (m, n, k) with m <= 3, n <= 5, k <= 3
GRID = [(m, n, k) for m in range(1, 4) for n in range(1, 6) for k in range(1, min(n, 3) + 1)]
GRID_K_BELOW_N = [(m, n, k) for m, n, k in GRID if k < n]
EXACT = 1e-12


@pytest.mark.parametrize("m, n, k", GRID)
def test_jain_qf_gini_closed_forms_are_the_exact_extremes(m, n, k):
    assert search.exhaustive("Jain_ori", m, n, k) == pytest.approx(
        (bounds.jain_most_unfair(m, n, k), bounds.jain_most_fair(m, n, k)), abs=EXACT)
    assert search.exhaustive("QF_ori", m, n, k) == pytest.approx(
        (bounds.qf_most_unfair(m, n, k), bounds.qf_most_fair(m, n, k)), abs=EXACT)
    assert search.exhaustive("Gini_ori", m, n, k) == pytest.approx(
        (bounds.gini_most_fair(m, n, k), bounds.gini_most_unfair(m, n, k)), abs=EXACT)


@pytest.mark.parametrize("m, n, k", [p for p in GRID if p[1] >= 2])
def test_entropy_closed_forms_are_the_exact_extremes_of_the_defined_entropy(m, n, k):
    low, high = search.exhaustive("Ent_def", m, n, k)
    assert (low, high) == pytest.approx((bounds.ent_most_unfair(m, n, k), bounds.ent_most_fair(m, n, k)), abs=EXACT)
    for base in (2, math.e):
        assert search.exhaustive("Ent_def", m, n, k, log_base=base) == pytest.approx(
            (bounds.ent_most_unfair(m, n, k, log_base=base), bounds.ent_most_fair(m, n, k, log_base=base)), abs=EXACT)
    # the original entropy is defined only when every item is shown; its maximum is the same
    ori = search.exhaustive("Ent_ori", m, n, k)
    if k * m >= n:
        assert ori[1] == pytest.approx(high, abs=EXACT)
    else:
        assert all(math.isnan(v) for v in ori)


@pytest.mark.parametrize("m, n, k", GRID)
def test_gini_w_most_unfair_is_exact_and_most_fair_is_exact_when_km_le_n(m, n, k):
    low, high = search.exhaustive("Gini-w_ori", m, n, k)
    assert high == pytest.approx(bounds.gini_w_most_unfair(m, n, k), abs=EXACT)
    if k * m <= n:
        assert low == pytest.approx(bounds.gini_w_most_fair(m, n, k), abs=EXACT)
    else:
        assert low >= -EXACT   # the thesis's 0 is a lower bound only (C4); exact minima below
        with pytest.raises(ValueError, match="km <= n"):
            bounds.gini_w_most_fair(m, n, k)


def test_gini_w_fairest_is_above_zero_when_km_exceeds_n():
    # C4 (L1254): k = n = 3, m = 2 spans [0.0373, 0.156] although n divides km
    assert search.exhaustive("Gini-w_ori", 2, 3, 3) == pytest.approx((0.0372514, 0.1564262), abs=5e-8)
    low, high = search.exhaustive("Gini-w_our", 2, 3, 3)
    assert high == 1.0 and low == pytest.approx(0.0372514 / 0.1564262, abs=1e-6)
    for m, n, k in [(3, 4, 2), (2, 5, 3), (3, 5, 2)]:
        assert search.exhaustive("Gini-w_ori", m, n, k)[0] > 0.01


@pytest.mark.parametrize("m, n, k", [(m, n, k) for m in range(1, 7) for n in range(1, 6)
                                     for k in range(1, min(n, 3) + 1)])
def test_fsat_true_minimum_is_the_exhaustive_minimum(m, n, k):
    low, high = search.exhaustive("FSat_ori", m, n, k)
    assert low == pytest.approx(bounds.fsat_true_minimum(m, n, k), abs=EXACT)
    assert high == bounds.fsat_most_fair(m, n, k) == 1.0
    if k * m >= n:
        assert low <= bounds.fsat_most_unfair(m, n, k) + EXACT
    else:
        assert low == 1.0   # always fair


def test_fsat_thesis_minimum_is_not_the_true_minimum():
    assert bounds.fsat_most_unfair(6, 3, 2) == pytest.approx(2 / 3)
    assert search.exhaustive("FSat_ori", 6, 3, 2) == pytest.approx((1 / 3, 1.0))
    assert search.exhaustive("FSat_our", 6, 3, 2) == pytest.approx((-1.0, 1.0))
    below = [(m, n, k) for m in range(1, 7) for n in range(2, 6) for k in range(1, n)
             if bounds.fsat_true_minimum(m, n, k) < k / n - EXACT]
    assert (6, 3, 2) in below and len(below) > 5


@pytest.mark.parametrize("name, m, n, k", [("Jain_our", 3, 4, 2), ("QF_our", 2, 5, 2), ("Ent_our", 3, 4, 2),
                                           ("Gini_our", 3, 5, 2), ("Gini-w_our", 2, 5, 2), ("FSat_our", 3, 4, 2)])
def test_corrected_exhaustive_range_is_the_unit_interval(name, m, n, k):
    assert search.exhaustive(name, m, n, k) == pytest.approx((0.0, 1.0), abs=EXACT)


def test_corrected_exhaustive_refuses_an_empty_range():
    with pytest.raises(ValueError, match="k == n_items"):
        search.exhaustive("Jain_our", 2, 3, 3)


@pytest.mark.parametrize("m, n, k", [p for p in GRID if p[2] >= 2 or p[0] >= 2])
@pytest.mark.parametrize("beta", [0.0, 0.3])
def test_vocd_upper_bound_holds_and_zero_is_reached(m, n, k, beta):
    low, high = search.exhaustive("VoCD", m, n, k, beta=beta)
    if math.isnan(high):       # |A| = 0 everywhere (e.g. n = 1)
        assert n == 1 or (k == 1 and n == 1)
        return
    assert high <= bounds.vocd_upper_bound(m, beta=beta) + EXACT
    assert low == 0.0 or k == 1


def test_vocd_upper_bound_is_not_reached_with_all_pairs_similar():
    # alpha = 2 and >= 3 shown items: the bound (m-1)/m is strictly above the largest VoCD
    assert search.exhaustive("VoCD", 3, 4, 2)[1] < bounds.vocd_upper_bound(3) - 0.1


@pytest.mark.parametrize("m, n, k", GRID)
@pytest.mark.parametrize("gamma", [0.5, 0.8])
def test_iid_is_constant_and_bounds_aid_in_one_round(m, n, k, gamma):
    constant = bounds.iid_single_round(n, k, gamma=gamma)
    assert search.exhaustive("II-D", m, n, k, gamma=gamma) == pytest.approx((constant, constant), abs=1e-15)
    low, high = search.exhaustive("AI-D", m, n, k, gamma=gamma)
    assert high == pytest.approx(constant, abs=1e-15) and low >= 0.0


@pytest.mark.parametrize("m, n, k, rounds", [(2, 3, 1, 2), (2, 3, 2, 2), (2, 4, 1, 3), (3, 3, 1, 2)])
def test_multi_round_maximum_of_iid_and_aid_is_the_single_round_constant(m, n, k, rounds):
    constant = bounds.iid_single_round(n, k)
    assert search.exhaustive("II-D", m, n, k, rounds=rounds)[1] == pytest.approx(constant, abs=1e-15)
    assert search.exhaustive("AI-D", m, n, k, rounds=rounds)[1] == pytest.approx(constant, abs=1e-15)


def test_thesis_iid_aid_examples():
    assert search.exhaustive("II-D", 2, 3, 1)[0] == pytest.approx(2 / 9)                       # T3
    assert search.exhaustive("AI-D", 2, 3, 1)[0] == pytest.approx(1 / 18)
    assert search.exhaustive("II-D", 2, 5, 1, rounds=2)[0] == pytest.approx(0.06)              # T4
    assert search.exhaustive("AI-D", 2, 5, 1, rounds=2)[0] == pytest.approx(0.01)
    assert search.exhaustive("II-D", 2, 3, 2, rounds=2) == pytest.approx((0.02, 0.186667), abs=5e-7)   # T6
    assert search.exhaustive("AI-D", 2, 3, 2, rounds=2) == pytest.approx((0.005, 0.186667), abs=5e-7)


def test_multi_round_gini_bounds_are_those_of_m_times_w_users():
    assert search.exhaustive("Gini_ori", 2, 4, 1, rounds=2) == pytest.approx(search.exhaustive("Gini_ori", 4, 4, 1))
    assert search.exhaustive("Gini_our", 1, 4, 1, rounds=3) == pytest.approx((0.0, 1.0), abs=EXACT)


# ----------------------------------------------------------------------------------------------
# exhaustive search: counting and refusing
# ----------------------------------------------------------------------------------------------


def test_count_configurations():
    assert search.count_configurations("Jain_ori", 2, 4, 2) == math.comb(6 + 1, 2)
    assert search.count_configurations("Gini-w_ori", 2, 3, 3) == 21
    assert search.count_configurations("II-D", 2, 3, 2, rounds=2) == math.comb(math.comb(7, 2) + 1, 2)


def test_exhaustive_refuses_a_large_space_and_states_the_count():
    count = search.count_configurations("Gini-w_ori", 10, 8, 4)
    with pytest.raises(ValueError, match=f"{count:,}"):
        search.exhaustive("Gini-w_ori", 10, 8, 4)
    with pytest.raises(ValueError, match="exceeds max_configurations=10"):
        search.exhaustive("Jain_ori", 3, 5, 2, max_configurations=10)


def test_exhaustive_rejects_bad_requests():
    with pytest.raises(ValueError, match="single-round"):
        search.exhaustive("Jain_ori", 2, 3, 1, rounds=2)
    with pytest.raises(ValueError, match="exhaustive search knows"):
        search.exhaustive("NDCG", 2, 3, 1)
    with pytest.raises(ValueError, match="parameters"):
        search.exhaustive("Jain_ori", 2, 3, 1, gamma=0.5)
    with pytest.raises(ValueError, match="alpha = 2"):
        search.exhaustive("VoCD", 2, 3, 1, alpha=1.0)


# ----------------------------------------------------------------------------------------------
# closed forms: special cases, the paper's literal forms, argument checks
# ----------------------------------------------------------------------------------------------


def _gini_w_min_paper(m, n, k):
    """Eq. gini-w-min written as in the thesis: the double sum over ranks and sorted positions."""
    w = 1 / np.log2(np.arange(2, k + 2))
    num = sum((2 * j - n - 1) * w[ell - 1]
              for ell in range(1, k + 1) for j in range(n - ell * m + 1, n - ell * m + m + 1))
    return num / (m * n * w.sum())


def _gini_w_max_paper(m, n, k):
    w = 1 / np.log2(np.arange(2, k + 2))
    return sum((n - 2 * ell + 1) * w[ell - 1] for ell in range(1, k + 1)) / (n * w.sum())


@pytest.mark.parametrize("m, n, k", [(m, n, k) for m in range(1, 6) for n in range(1, 30, 4) for k in range(1, n + 1)
                                     if k * m <= n])
def test_gini_w_simplified_forms_equal_the_paper_forms(m, n, k):
    assert bounds.gini_w_most_fair(m, n, k) == pytest.approx(_gini_w_min_paper(m, n, k), abs=1e-12)
    assert bounds.gini_w_most_unfair(m, n, k) == pytest.approx(_gini_w_max_paper(m, n, k), abs=1e-12)


def test_special_cases_simplify():
    assert bounds.jain_most_fair(3, 10, 2) == pytest.approx(6 / 10)          # km < n: km/n
    assert bounds.jain_most_fair(5, 10, 4) == pytest.approx(1.0)             # n | km
    assert bounds.gini_most_fair(3, 10, 2) == pytest.approx(1 - 6 / 10)      # km < n: 1 - km/n (E3)
    assert bounds.gini_most_fair(5, 10, 4) == 0.0
    assert bounds.ent_most_fair(5, 10, 4) == pytest.approx(1.0)              # n | km: log_n n
    assert bounds.ent_most_fair(3, 10, 2, log_base=math.e) == pytest.approx(math.log(6))   # km < n: log km
    assert bounds.gini_w_most_fair(2, 4, 2) == pytest.approx(0.113147, abs=5e-7)
    assert bounds.gini_w_most_fair(10, 100, 10) == pytest.approx(0.219, abs=5e-4)
    assert bounds.iid_single_round(3, 1) == pytest.approx(1 / 3 - 1 / 9)
    assert bounds.vocd_upper_bound(3) == pytest.approx(2 / 3)
    assert bounds.vocd_upper_bound(2, beta=0.6) == 0.0
    assert bounds.fsat_true_minimum(2, 5, 2) == 1.0                          # km < n


@pytest.mark.parametrize("args, error, match", [
    ((0, 5, 2), ValueError, "m must be >= 1"),
    ((2, 5, 6), ValueError, "exceeds n"),
    ((2, 0, 1), ValueError, "n must be >= 1"),
    ((2.5, 5, 2), TypeError, "m must be an integer"),
])
def test_bound_arguments_are_checked(args, error, match):
    with pytest.raises(error, match=match):
        bounds.jain_most_fair(*args)


def test_bound_parameters_are_checked():
    with pytest.raises(ValueError, match="log_base"):
        bounds.ent_most_fair(2, 5, 2, log_base=1)
    with pytest.raises(ValueError, match="n, which must then be >= 2"):
        bounds.ent_most_unfair(2, 1, 1)
    with pytest.raises(ValueError, match="gamma"):
        bounds.iid_single_round(5, 2, gamma=1.0)
    with pytest.raises(ValueError, match="beta"):
        bounds.vocd_upper_bound(3, beta=1.0)


# ----------------------------------------------------------------------------------------------
# achievable
# ----------------------------------------------------------------------------------------------


def test_achievable_original_names():
    m, n, k = 4, 7, 3
    assert bounds.achievable("Jain_ori", m, n, k) == Bounds(k / n, bounds.jain_most_fair(m, n, k))
    assert bounds.achievable("QF_ori", m, n, k) == Bounds(k / n, 1.0)
    assert bounds.achievable("Ent_ori", m, n, k, log_base=2) == Bounds(bounds.ent_most_unfair(m, n, k, log_base=2),
                                                                   bounds.ent_most_fair(m, n, k, log_base=2))
    assert bounds.achievable("Gini_ori", m, n, k) == Bounds(1 - k / n, bounds.gini_most_fair(m, n, k))
    assert bounds.achievable("Gini-w_ori", m, n, k) == Bounds(bounds.gini_w_most_unfair(m, n, k), 0.0)  # km > n
    assert bounds.achievable("Gini-w_ori", 2, 7, 3) == Bounds(bounds.gini_w_most_unfair(2, 7, 3),
                                                              bounds.gini_w_most_fair(2, 7, 3))
    assert bounds.achievable("FSat_ori", m, n, k) == Bounds(k / n, 1.0)
    assert bounds.achievable("VoCD", m, n, k, beta=0.25) == Bounds(0.5, 0.0)
    c = bounds.iid_single_round(n, k, gamma=0.5)
    assert bounds.achievable("II-D", m, n, k, gamma=0.5) == Bounds(c, c)
    assert bounds.achievable("AI-D", m, n, k, gamma=0.5) == Bounds(c, 0.0)


def test_achievable_corrected_names():
    assert bounds.achievable("Jain_our", 3, 5, 2) == Bounds(0.0, 1.0)
    assert bounds.achievable("Gini-w_our", 3, 5, 2) == Bounds(1.0, 0.0)
    assert bounds.achievable("FSat_our", 1, 5, 2) == Bounds(0.0, 1.0)
    empty = bounds.achievable("QF_our", 1, 5, 2)
    assert math.isnan(empty.most_unfair) and math.isnan(empty.most_fair)
    assert not math.isnan(bounds.achievable("Gini-w_our", 2, 3, 3).most_fair)   # k = n, m >= 2: defined


def test_achievable_rejects_unknown_names_and_parameters():
    with pytest.raises(ValueError, match="no achievable bounds for 'NDCG'"):
        bounds.achievable("NDCG", 2, 3, 1)
    with pytest.raises(ValueError, match="takes the parameters"):
        bounds.achievable("Jain_ori", 2, 3, 1, gamma=0.8)


# ----------------------------------------------------------------------------------------------
# the thesis's constants (p1.md §5.6) at k = 10
# ----------------------------------------------------------------------------------------------

DATASETS = {  # name: (m, n, Jain_max, k/n, Gini_min, 1-k/n, Ent_max, Ent_min, Gini-w_max, II-D, E~)
    "Lastfm": (1859, 2823, 0.994433, 0.003542, 0.036862, 0.996458, 0.999644, 0.289795, 0.997234, 0.000970, 1.581e-03),
    "Ml-1m": (6038, 3307, 0.999426, 0.003024, 0.010491, 0.996976, 0.999965, 0.284137, 0.997639, 0.000828, 1.350e-03),
    "Book-x": (5639, 7455, 0.995721, 0.001341, 0.032509, 0.998659, 0.999757, 0.258235, 0.998952, 0.000368, 5.987e-04),
    "Amazon-lb": (1644, 791, 0.999608, 0.012642, 0.008153, 0.987358, 0.999970, 0.345045, 0.990127, 0.003439,
                  5.642e-03),
    "Amazon-is": (6574, 3569, 0.999283, 0.002802, 0.013223, 0.997198, 0.999956, 0.281488, 0.997812, 0.000768,
                  1.251e-03),
    "Amazon-dm": (11750, 9462, 0.998425, 0.001057, 0.019592, 0.998943, 0.999914, 0.251510, 0.999175, 0.000290,
                  4.717e-04),
}


@pytest.mark.parametrize("name", list(DATASETS))
def test_dataset_constants(name):
    m, n, jain_max, k_n, gini_min, gini_max, ent_max, ent_min, giniw_max, iid, e_rand = DATASETS[name]
    k = 10
    assert round(bounds.jain_most_fair(m, n, k), 6) == jain_max
    assert round(bounds.jain_most_unfair(m, n, k), 6) == round(bounds.qf_most_unfair(m, n, k), 6) == k_n
    assert round(bounds.gini_most_fair(m, n, k), 6) == gini_min
    assert round(bounds.gini_most_unfair(m, n, k), 6) == gini_max
    assert round(bounds.ent_most_fair(m, n, k), 6) == ent_max
    assert round(bounds.ent_most_unfair(m, n, k), 6) == ent_min
    assert round(bounds.gini_w_most_unfair(m, n, k), 6) == giniw_max
    assert round(bounds.iid_single_round(n, k), 6) == iid
    assert float(f"{bounds.random_rbp_exposure(n, k):.3e}") == e_rand
    assert k * m > n     # so Gini-w_our rescales with 0 at k = 10 on every dataset


@pytest.mark.parametrize("name, s_min", [("Lastfm", 3), ("Ml-1m", 1), ("Book-x", 3), ("Amazon-lb", 1),
                                         ("Amazon-is", 1), ("Amazon-dm", 2)])
def test_dataset_fsat_true_minimum_is_below_k(name, s_min):
    m, n = DATASETS[name][:2]
    assert round(bounds.fsat_true_minimum(m, n, 10) * n) == s_min < 10


# ----------------------------------------------------------------------------------------------
# examination functions
# ----------------------------------------------------------------------------------------------


def test_examination_functions():
    p = np.arange(1, 6)
    assert np.array_equal(examination.uniform(p), np.ones(5))
    assert np.allclose(examination.dcg(p), 1 / np.log2(p + 1))
    assert np.allclose(examination.dcg(p), [math.log(2, q + 1) for q in p])
    assert np.allclose(examination.rbp(p, gamma=0.8), 0.8 ** (p - 1))
    assert np.allclose(examination.inverse(p), 1 / p)          # erratum: e_inv(p) = 1/p
    assert examination.weights("rbp", 3, gamma=0.5).tolist() == [1.0, 0.5, 0.25]
    assert examination.dcg(np.array([[1, 3], [7, 1]])).shape == (2, 2)


@pytest.mark.parametrize("call, error, match", [
    (lambda: examination.dcg([0, 1]), ValueError, "1-based"),
    (lambda: examination.inverse([1.5]), TypeError, "integers"),
    (lambda: examination.rbp([1], gamma=1.0), ValueError, "gamma"),
    (lambda: examination.weights("cascade", 3), ValueError, "examination must be one of"),
    (lambda: examination.weights("dcg", -1), ValueError, "k must be"),
])
def test_examination_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
