"""Per-user bounds of the Paper 3 relevance-aware measures, checked by brute force.

The measures are recomputed here from their definitions (p2.md §3, p3.md §2), item by item and
pair by pair, without recfair.joint, and compared with recfair.joint.bounds (closed forms,
identities, exact searches) and recfair.joint.generators (the generators) on every ranking of
tiny catalogues. The thesis's slips found this way are pinned as regression tests.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import _reference as reference
from recfair import examination
from recfair.joint import bounds as jb
from recfair.joint.generators import extreme_ranking, fairest_ranking, unfairest_ranking

# ----------------------------------------------------------------------------- reference measures
# literal definitions on a relevance vector in rank order: tests/_reference.py


def rel_of(n, positions):
    rel = [0] * n
    for p in positions:
        rel[p - 1] = 1
    return rel


def brute(ref, n, k, R, **kw):
    """(min, max) of a reference measure over every set of relevant positions."""
    values = [ref(rel_of(n, pos), k, **kw) for pos in itertools.combinations(range(1, n + 1), R)]
    values = [v for v in values if not math.isnan(v)]
    return min(values), max(values)


SMALL = [(n, k, R) for n in range(2, 8) for k in range(1, n + 1) for R in range(0, n + 1)]
close = pytest.approx


# ----------------------------------------------------------------------------- kernels = references

@pytest.mark.parametrize("n", [3, 5, 6])
def test_kernels_match_references_on_every_ranking(n):
    for k in range(1, n + 1):
        for R in range(n + 1):
            for pos in itertools.combinations(range(1, n + 1), R):
                rel = rel_of(n, pos)
                assert jb.iaa_user(rel, k=k) == close(reference.iaa_user(rel, k))
                if k >= 2:
                    assert jb.iaa_user(rel, k=k, corrected=False) == close(reference.iaa_user(rel, k, False))
                assert jb.iif_user(rel, k=k, gamma=0.8) == close(reference.iif_user(rel, k, 0.8))
                assert jb.ifd_mul_user(rel, k=k) == close(reference.ifd_mul_user(rel, k))
                if R:
                    assert jb.ifd_div_user(rel, k=k) == close(reference.ifd_div_user(rel, k))
                    assert jb.ifd_div_user(rel, k=None) == close(reference.ifd_div_user(rel, None))
                else:
                    assert math.isnan(jb.ifd_div_user(rel, k=k))


def test_exchangeability_all_permutations():
    """Enumerating all n! orderings gives the same extremes as enumerating position sets."""
    for n, k, R in [(5, 2, 2), (5, 3, 3), (4, 4, 2)]:
        for kernel in (jb.iaa_user, jb.iif_user, jb.ifd_div_user, jb.ifd_mul_user):
            a = jb.exhaustive(kernel, 1, n, k, n_relevant=R)
            b = jb.exhaustive(kernel, 1, n, k, n_relevant=R, permutations=True)
            assert (a.low, a.high) == (close(b.low), close(b.high))
            assert b.count == math.factorial(n) and a.count == math.comb(n, R)


# ----------------------------------------------------------------------------- IAA and II-F closed forms

@pytest.mark.parametrize("n,k,R", SMALL)
def test_iaa_closed_forms_are_the_exact_extremes(n, k, R):
    lo, hi = brute(reference.iaa_user, n, k, R)
    assert jb.iaa_most_fair(n, k, R) == close(lo)
    assert jb.iaa_most_unfair(n, k, R) == close(hi)
    if k >= 2:
        lo, hi = brute(reference.iaa_user, n, k, R, corrected=False)
        assert jb.iaa_most_fair(n, k, R, corrected=False) == close(lo)
        assert jb.iaa_most_unfair(n, k, R, corrected=False) == close(hi)


@pytest.mark.parametrize("gamma", [0.8, 0.5, 0.95])
@pytest.mark.parametrize("n,k,R", SMALL)
def test_iif_closed_forms_are_the_exact_extremes(n, k, R, gamma):
    lo, hi = brute(reference.iif_user, n, k, R, gamma=gamma)
    assert jb.iif_most_fair(n, k, R, gamma=gamma) == close(lo)
    assert jb.iif_most_unfair(n, k, R, gamma=gamma) == close(hi)


def test_iif_other_examination_uses_the_same_rankings():
    # the exchange argument needs only non-increasing exposure: check with DCG on n=6
    for k in range(1, 7):
        for R in range(7):
            values = [jb.iif_user(rel_of(6, pos), k=k, examination="dcg") for pos in itertools.combinations(range(1, 7), R)]
            assert jb.iif_most_fair(6, k, R, examination="dcg") == close(min(values))
            assert jb.iif_most_unfair(6, k, R, examination="dcg") == close(max(values))


def test_iaa_spec_closed_forms_d1_to_d4_literally():
    for n in range(2, 30):
        for k in range(1, n + 1):
            for R in range(1, n):
                d1 = (R * (R - 1) + (k - R) * (k - R + 1)) / (2 * k * n) if R <= k else ((k - 1) / 2 + R - k) / n
                assert jb.iaa_most_fair(n, k, R) == close(d1)
                s = R - (n - k)
                d2 = ((k + 1) / 2 + R) / n if s <= 0 else (
                    ((k * (k + 1) / 2 - s * (s + 1) / 2) / k + s * (2 * k - s - 1) / (2 * k) + (n - k)) / n)
                assert jb.iaa_most_unfair(n, k, R) == close(d2)
                if k >= 2:
                    d3 = ((R * (R - 1) + (k - R) * (k - R - 1)) / (2 * (k - 1) * n) if R <= k
                          else (k / 2 + R - k) / n)
                    assert jb.iaa_most_fair(n, k, R, corrected=False) == close(d3)
                    d4 = (k / 2 + R) / n if s <= 0 else (
                        sum((k - p) / (k - 1) for p in range(1, k - s + 1))
                        + sum((p - 1) / (k - 1) for p in range(k - s + 1, k + 1)) + (n - k)) / n
                    assert jb.iaa_most_unfair(n, k, R, corrected=False) == close(d4)


def test_iif_spec_closed_forms_d12_d13_literally():
    g = 0.8
    for n in range(2, 25):
        for k in range(1, n + 1):
            for R in range(1, n):
                t = (1 - g**R) / (R * (1 - g))
                shown = (1 - g ** (2 * k)) / (1 - g**2)
                d12 = (shown - (1 - g**R) ** 2 / (R * (1 - g) ** 2)) / n if R <= k else (
                    (shown - 2 * t * (1 - g**k) / (1 - g) + R * t**2) / n)
                assert jb.iif_most_fair(n, k, R, gamma=g) == close(d12)
                s = R - (n - k)
                d13 = (shown + R * t**2) / n if s <= 0 else (
                    sum(g ** (2 * (p - 1)) for p in range(1, k - s + 1))
                    + sum((g ** (p - 1) - t) ** 2 for p in range(k - s + 1, k + 1)) + (n - k) * t**2) / n
                assert jb.iif_most_unfair(n, k, R, gamma=g) == close(d13)


# ----------------------------------------------------------------------------- IFD identities and searches

@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(0, 1, allow_nan=False), min_size=1, max_size=12))
def test_ifd_div_sorted_weight_identity_d5(values):
    R = len(values)
    literal = sum(max(0.0, a - b) for a in values for b in values) / R**2
    unordered = sum(abs(values[a] - values[b]) for a in range(R) for b in range(a + 1, R)) / R**2
    assert jb.ifd_div_from_values(values) == close(literal, abs=1e-12)
    assert literal == close(unordered, abs=1e-12)


@settings(max_examples=200, deadline=None)
@given(st.integers(2, 14).flatmap(lambda n: st.tuples(
    st.just(n), st.integers(1, n), st.lists(st.integers(1, n), unique=True, max_size=n))))
def test_ifd_mul_variance_identity_d8(case):
    n, k, positions = case
    rel = rel_of(n, positions)
    assert jb.ifd_mul_user(rel, k=k) == close(reference.ifd_mul_user(rel, k), abs=1e-12)
    shown = [p for p in positions if p <= k]
    assert jb.ifd_mul_from_positions(n, shown) == close(reference.ifd_mul_user(rel, k), abs=1e-12)


@pytest.mark.parametrize("n,k,R", [c for c in SMALL if c[2] >= 1] + [(8, 8, 4), (8, 5, 5), (9, 4, 7)])
def test_ifd_div_search_is_exact(n, k, R):
    for cut in (k, None):
        lo, hi = brute(reference.ifd_div_user, n, cut, R)
        assert jb.ifd_div_most_fair(n, cut, R) == close(lo, abs=1e-12)
        assert jb.ifd_div_most_unfair(n, cut, R) == close(hi, abs=1e-12)
        for end, value in (("most_fair", lo), ("most_unfair", hi)):
            pos = jb.ifd_div_positions(n, cut, R, end=end)
            assert len(pos) == R and len(set(pos.tolist())) == R
            assert reference.ifd_div_user(rel_of(n, pos), cut) == close(value, abs=1e-12)


@pytest.mark.parametrize("n,k,R", [c for c in SMALL if c[0] >= 2] + [(10, 10, R) for R in range(11)]
                         + [(12, 5, R) for R in range(13)])
def test_ifd_mul_strategies_are_exact(n, k, R):
    lo, hi = brute(reference.ifd_mul_user, n, k, R)
    assert jb.ifd_mul_most_fair(n, k, R, exact=True) == close(lo, abs=1e-12)
    assert jb.ifd_mul_most_unfair(n, k, R, exact=True) == close(hi, abs=1e-12)
    # the thesis's strategies (bottom; "a on top, rest at the bottom") match the exact search here
    assert jb.ifd_mul_most_fair(n, k, R) == close(lo, abs=1e-12)
    assert jb.ifd_mul_most_unfair(n, k, R) == close(hi, abs=1e-12)


def test_ifd_mul_thesis_strategies_match_exact_on_a_wider_grid():
    for n in (10, 15, 20, 30):
        for k in (1, 3, 5, 10):
            for R in range(1, n):
                assert jb.ifd_mul_most_unfair(n, k, R) == close(jb.ifd_mul_most_unfair(n, k, R, exact=True))
                assert jb.ifd_mul_most_fair(n, k, R) == close(jb.ifd_mul_most_fair(n, k, R, exact=True))


def test_ifd_div_half_half_closed_form_d6():
    for n in range(2, 16):
        for k in range(1, n + 1):
            for R in range(1, n + 1):
                h = R // 2
                if h <= k and R - h <= n - k:
                    assert jb.ifd_div_most_unfair(n, k, R) == close(jb.ifd_div_half_half_closed(R))
                    assert jb.ifd_div_half_half(n, k, R) == close(jb.ifd_div_half_half_closed(R))


# ----------------------------------------------------------------------------- thesis numbers and slips

IFD_DIV_K10 = {2: (0.00299, 0.17773), 3: (0.00587, 0.15799), 4: (0.00920, 0.15392), 5: (0.01333, 0.14014),
               6: (0.01868, 0.13136), 7: (0.02601, 0.12152), 8: (0.03690, 0.11370), 9: (0.05551, 0.10617),
               10: (0.09953, 0.09953)}


def test_ifd_div_k_eq_n_10_table_and_the_0158_slip():
    """Spec §8.2 item 1: for k = n = 10 the unfairest IFD÷ is 0.178 (R = 2), not the printed 0.158."""
    for R, (lo, hi) in IFD_DIV_K10.items():
        assert round(jb.ifd_div_most_fair(10, 10, R), 5) == lo
        assert round(jb.ifd_div_most_unfair(10, 10, R), 5) == hi
    overall = max(jb.ifd_div_most_unfair(10, 10, R) for R in range(2, 11))
    assert round(overall, 3) == 0.178 and round(overall, 3) != 0.158
    assert jb.ifd_div_positions(10, 10, 2).tolist() == [1, 10]
    # brute force at R = 2 independently of the search
    assert brute(reference.ifd_div_user, 10, 10, 2)[1] == close(0.17773, abs=5e-6)


def test_ifd_div_bottom_strategy_fails_when_r_exceeds_n_minus_k():
    """Spec §8.2 item 11 / D7': n=15, k=10, R=6: bottom 0.04015, true minimum 0.01868 at positions 5-10."""
    bottom = jb.ifd_div_user(rel_of(15, range(10, 16)), k=10)
    assert round(bottom, 5) == 0.04015
    assert round(jb.ifd_div_most_fair(15, 10, 6), 5) == 0.01868
    assert jb.ifd_div_positions(15, 10, 6, end="most_fair").tolist() == [5, 6, 7, 8, 9, 10]


def test_ifd_mul_thesis_numbers_and_n20_rule_slip():
    """X6: IFD× in [0.0167, 0.265] at k = n = 10; §3.3 n = 20 maxima; §8.2 item 9."""
    assert round(min(jb.ifd_mul_most_fair(10, 10, R) for R in range(1, 10)), 4) == 0.0167
    assert round(max(jb.ifd_mul_most_unfair(10, 10, R) for R in range(1, 10)), 3) == 0.265
    expected = {1: 0.1, 2: 0.13317, 3: 0.14958, 4: 0.15847, 5: 0.16300, 17: 0.16415, 18: 0.16202, 19: 0.15856}
    expected.update({R: 0.16464 for R in range(6, 17)})
    for R, value in expected.items():
        assert round(jb.ifd_mul_most_unfair(20, 10, R, exact=True), 5) == value
    for R in range(11, 17):   # thesis: "|R| - 10 items at the top"; true: 6 on top
        S = jb.ifd_mul_positions(20, 10, R, exact=True).tolist()
        assert S == list(range(1, 7))
        thesis = jb.ifd_mul_from_positions(20, range(1, R - 10 + 1))   # the other 10 unexposed
        if R < 16:
            assert thesis < jb.ifd_mul_most_unfair(20, 10, R) - 1e-6
        else:                                                          # R - 10 = 6 coincides
            assert thesis == close(jb.ifd_mul_most_unfair(20, 10, R))
    assert [jb.ifd_mul_greedy_prefix(n) for n in (10, 15, 20)] == [3, 5, 6]


def test_ifd_mul_non_prefix_maxima_k_eq_n_10():
    expected = {6: [1, 2, 3, 4, 5, 10], 7: [1, 2, 3, 4, 5, 9, 10], 8: [1, 2, 3, 4, 7, 8, 9, 10]}
    for R, S in expected.items():
        assert jb.ifd_mul_positions(10, 10, R, exact=True).tolist() == S
        assert jb.ifd_mul_positions(10, 10, R).tolist() == S


def test_iif_toy_values_and_swapped_parentheticals():
    """X8 (k=2, n=3): max 0.88 = 22/25 and min 1/150; §8.2 item 3: 0.88 comes from *irrelevant*
    items in the top-k, the minimum from the relevant items in the top-k."""
    assert jb.iif_most_unfair(3, 2, 1) == close(22 / 25)
    assert reference.iif_user([0, 0, 1], 2) == close(22 / 25)          # both shown items irrelevant
    assert jb.iif_most_fair(3, 2, 2) == close(1 / 150)
    assert reference.iif_user([1, 1, 0], 2) == close(1 / 150)          # both relevant items shown
    assert max(jb.iif_most_unfair(3, 2, R) for R in range(4)) == close(22 / 25)
    assert min(jb.iif_most_fair(3, 2, R) for R in range(1, 4)) == close(1 / 150)


def test_iaa_toy_values():
    # X11: relevant item at position 10 of k = 10: corrected weight 0.1 (diff 0.9), original 0 (diff 1)
    assert 1 - jb.iaa_attention(10)[9] == close(0.9)
    assert 1 - jb.iaa_attention(10, corrected=False)[9] == close(1.0)
    rel, without = rel_of(10, [10]), rel_of(10, [])
    assert (jb.iaa_user(rel, k=10) - jb.iaa_user(without, k=10)) * 10 == close(0.9 - 0.1)
    # the per-user normalisation reaches 0 and 1 at the generated rankings
    for n, k, R in [(10, 3, 2), (10, 3, 9), (6, 6, 3)]:
        lo, hi = jb.iaa_most_fair(n, k, R), jb.iaa_most_unfair(n, k, R)
        assert hi > lo


def test_ifd_div_top_k_insensitivity_example_x12():
    rel = [0, 1, 1]
    assert round(jb.ifd_div_user(rel, k=None), 3) == 0.033
    assert round(jb.ifd_div_user(rel, k=2), 3) == 0.158
    assert jb.ifd_div_user(rel, k=1) == 0.0


# ----------------------------------------------------------------------------- generators

MEASURE_REFS = {
    "IAA": lambda rel, k: reference.iaa_user(rel, k),
    "II-F": lambda rel, k: reference.iif_user(rel, k),
    "IFD_div": lambda rel, k: reference.ifd_div_user(rel, k),
    "IFD_div_ori": lambda rel, k: reference.ifd_div_user(rel, None),
    "IFD_mul": lambda rel, k: reference.ifd_mul_user(rel, k),
}


@pytest.mark.parametrize("measure", list(MEASURE_REFS))
@pytest.mark.parametrize("n,k", [(5, 2), (6, 3), (7, 7), (7, 1)])
def test_generated_rankings_reach_the_brute_force_extremes(measure, n, k):
    ref = MEASURE_REFS[measure]
    rng = np.random.default_rng(n * 10 + k)
    relevant = [sorted(rng.choice(n, size=R, replace=False).tolist()) for R in range(1, n)]
    for end, pick in (("most_fair", min), ("most_unfair", max)):
        rankings = extreme_ranking(relevant, n_items=n, measure=measure, end=end, k=k)
        assert rankings.shape == (len(relevant), n)
        for u, items in enumerate(relevant):
            assert sorted(rankings[u].tolist()) == list(range(n))
            rel = [int(i in items) for i in rankings[u]]
            target = pick(ref(rel_of(n, pos), k) for pos in itertools.combinations(range(1, n + 1), len(items)))
            assert ref(rel, k) == close(target, abs=1e-12)


def test_generators_inputs_and_seed():
    relevant = [[0, 3], [], list(range(6)), [5]]
    a = fairest_ranking(relevant, n_items=6, measure="II-F", k=2)
    mask = np.zeros((4, 6), dtype=bool)
    for u, items in enumerate(relevant):
        mask[u, items] = True
    assert np.array_equal(a, fairest_ranking(mask, n_items=6, measure="II-F", k=2))
    assert a[0, :2].tolist() == [0, 3] and a[1].tolist() == list(range(6))
    b = unfairest_ranking(relevant, n_items=6, measure="IAA", k=2, seed=3)
    assert sorted(b[0, -2:].tolist()) == [0, 3]
    assert np.array_equal(b, unfairest_ranking(relevant, n_items=6, measure="IAA", k=2, seed=3))
    sparse = pytest.importorskip("scipy.sparse")
    assert np.array_equal(a, fairest_ranking(sparse.csr_matrix(mask), n_items=6, measure="II-F", k=2))
    with pytest.raises(ValueError):
        fairest_ranking([[6]], n_items=6, measure="IAA", k=2)
    with pytest.raises(ValueError):
        fairest_ranking([[1, 1]], n_items=6, measure="IAA", k=2)
    with pytest.raises(ValueError):
        fairest_ranking([[1]], n_items=6, measure="HD", k=2)
    with pytest.raises(ValueError):
        extreme_ranking([[1]], n_items=6, measure="IAA", end="fairest", k=2)
    with pytest.raises(ValueError):
        fairest_ranking([[1]], n_items=3, measure="IAA", k=4)


def test_generator_scales_to_dataset_sizes():
    rng = np.random.default_rng(0)
    relevant = [rng.choice(2000, size=int(s), replace=False) for s in rng.integers(1, 60, size=50)]
    for measure in ("IAA", "II-F", "IFD_div", "IFD_mul"):
        for end in ("most_fair", "most_unfair"):
            out = extreme_ranking(relevant, n_items=2000, measure=measure, end=end, k=10)
            assert out.shape == (50, 2000)


def test_validation_errors():
    with pytest.raises(ValueError):
        jb.iaa_most_fair(5, 6, 1)
    with pytest.raises(ValueError):
        jb.iaa_most_fair(5, 2, 6)
    with pytest.raises(ValueError):
        jb.iaa_most_fair(5, 1, 2, corrected=False)
    with pytest.raises(ValueError):
        jb.iaa_user([0, 2, 1], k=2)
    with pytest.raises(ValueError):
        jb.ifd_mul_positions(30, 25, 3, exact=True)
    with pytest.raises(ValueError):
        jb.exhaustive(jb.iaa_user, 1, 30, 5, n_relevant=10, max_configurations=1000)
    assert math.isnan(jb.ifd_div_most_fair(5, 2, 0))


# ----------------------------------------------------------------------------- sympy derivations

sp = pytest.importorskip("sympy")
from recfair.joint import derivations as dj  # noqa: E402
from recfair.book.symbolic import check_against  # noqa: E402

NKR_GRID = [(nn, kk, RR) for nn in range(2, 16) for kk in range(1, nn + 1) for RR in range(1, nn)]


@pytest.mark.parametrize("derivation,func,kw", [
    (dj.iaa_most_fair, jb.iaa_most_fair, {}),
    (dj.iaa_most_unfair, jb.iaa_most_unfair, {}),
    (dj.iaa_ori_most_fair, lambda n, k, R: jb.iaa_most_fair(n, k, R, corrected=False), {}),
    (dj.iaa_ori_most_unfair, lambda n, k, R: jb.iaa_most_unfair(n, k, R, corrected=False), {}),
    (dj.iif_most_fair, jb.iif_most_fair, {"gamma": 0.8}),
    (dj.iif_most_unfair, jb.iif_most_unfair, {"gamma": 0.8}),
    (dj.iif_most_fair, jb.iif_most_fair, {"gamma": 0.5}),
    (dj.iif_most_unfair, jb.iif_most_unfair, {"gamma": 0.5}),
])
def test_derivations_match_numeric_closed_forms(derivation, func, kw):
    d = derivation()
    assert d.bound_name == func.__name__ or func.__name__ == "<lambda>"
    assert check_against(func, d, NKR_GRID, atol=1e-12, rtol=1e-10, **kw).ok     # main branch, in its domain
    for point in NKR_GRID:                                                      # every branch (Piecewise)
        if "ori" in d.key and point[1] < 2:
            continue
        assert d.evaluate(*point, **kw) == close(func(*point, **kw), abs=1e-12)


def test_derivation_other_forms_agree():
    forced = dj.iif_most_unfair()
    form = forced.forms["spec D13'"]
    for nn, kk, RR in [(10, 10, 3), (12, 5, 9), (20, 10, 15)]:
        sub = {dj.n: nn, dj.k: kk, dj.R: RR, dj.s: RR - (nn - kk), dj.gamma: sp.Rational(4, 5)}
        assert float(form.subs(sub).doit()) == close(jb.iif_most_unfair(nn, kk, RR, gamma=0.8))
    assert float(dj.iif_target().result.subs({dj.R: 2, dj.gamma: sp.Rational(4, 5)})) == close(0.9)
    assert dj.iif_target().evaluate(5) == close(jb.iif_target(5, gamma=0.8))
    # thesis toy values, exactly
    assert sp.nsimplify(dj.iif_most_fair().result.subs({dj.n: 3, dj.k: 2, dj.R: 2, dj.gamma: sp.Rational(4, 5)})) \
        == sp.Rational(1, 150)
    assert sp.simplify(dj.iif_most_unfair().result.subs({dj.n: 3, dj.k: 2, dj.R: 1, dj.gamma: sp.Rational(4, 5)})) \
        == sp.Rational(22, 25)


def test_exchange_steps_are_nonnegative_differences():
    a, b, t = dj.a_p, dj.a_q, dj.t
    assert sp.expand(dj.exchange_iaa().result - 2 * (a - b)) == 0
    assert sp.expand(dj.exchange_iif().result - 2 * t * (a - b)) == 0
    assert sp.expand(dj.exchange_ifd_mul().result - (a**2 - b**2)) == 0
    for d in (dj.exchange_iaa(), dj.exchange_iif(), dj.exchange_ifd_mul(), dj.ifd_div_identity(),
              dj.ifd_mul_identity(), *[f() for ends in dj.JOINT_DERIVATIONS.values() for f in ends.values()]):
        assert d.latex().startswith("\\begin{aligned}") and d.steps


def test_identities_match_numeric_kernels():
    rng = np.random.default_rng(1)
    values = np.sort(rng.random(6))[::-1]
    expr = dj.ifd_div_identity().result.subs(dj.R, 6).doit()
    num = float(expr.subs({dj.v[jj + 1]: float(values[jj]) for jj in range(6)}))
    assert num == close(jb.ifd_div_from_values(values))
    pos = [1, 3, 4]
    e = examination.dcg(pos)
    expr = dj.ifd_mul_identity().result.subs(dj.n, 7).doit()
    J = dict.fromkeys([dj.J[x] for x in range(1, 8)], 0.0)
    J.update({dj.J[pp]: float(ee) for pp, ee in zip(pos, e)})
    assert float(expr.subs(J)) == close(jb.ifd_mul_from_positions(7, pos))


@pytest.mark.parametrize("n, k, R", [(4, 2, 1), (4, 2, 2), (5, 3, 2), (5, 2, 4)])
def test_bounds_exhaustive_over_library_measures_matches_closed_forms(n, k, R):
    """recfair.bounds.exhaustive enumerates full rankings and scores them with recfair.evaluate."""
    from recfair import bounds

    rel = [list(range(R))]
    iaa = bounds.exhaustive("IAA_ori", 1, n, k, relevant=rel)
    assert iaa == pytest.approx((jb.iaa_most_fair(n, k, R, corrected=False), jb.iaa_most_unfair(n, k, R, corrected=False)))
    iif = bounds.exhaustive("II-F_ori", 1, n, k, relevant=rel)
    assert iif == pytest.approx((jb.iif_most_fair(n, k, R), jb.iif_most_unfair(n, k, R)))
    ifd = bounds.exhaustive("IFD_div_ori", 1, n, k, relevant=rel)
    assert ifd == pytest.approx((jb.ifd_div_most_fair(n, None, R), jb.ifd_div_most_unfair(n, None, R)))
    assert bounds.exhaustive("IAA_our", 1, n, k, relevant=rel) == pytest.approx((0.0, 1.0))


def test_bounds_exhaustive_joint_errors():
    from recfair import bounds

    with pytest.raises(ValueError, match="needs relevant="):
        bounds.exhaustive("MME", 2, 3, 2)
    with pytest.raises(ValueError, match="exceed max_configurations"):
        bounds.exhaustive("MME", 3, 8, 2, relevant=[[0], [1], [2]])
    with pytest.raises(ValueError, match="only for the relevance-aware"):
        bounds.exhaustive("Jain_ori", 2, 3, 2, relevant=[[0], [1]])


def test_one_search_two_forms_agree_and_check_their_arguments():
    n, k, R = 5, 2, 2
    by_name = jb.exhaustive("IAA_ori", 1, n, k, relevant=[list(range(R))])
    by_kernel = jb.exhaustive(jb.iaa_user, 1, n, k, n_relevant=R, corrected=False)
    assert tuple(by_name) == pytest.approx(tuple(by_kernel))
    assert by_kernel.count == math.comb(n, R) and by_name.count == math.factorial(n)
    assert jb.iaa_user(jb.ranking_from_positions(n, by_kernel.argmin), k=k, corrected=False) == by_kernel.low
    with pytest.raises(ValueError, match="m must be 1"):
        jb.exhaustive(jb.iaa_user, 2, n, k, n_relevant=R)
    with pytest.raises(ValueError, match="needs n_relevant="):
        jb.exhaustive(jb.iaa_user, 1, n, k)
    with pytest.raises(ValueError, match="per-user kernel"):
        jb.exhaustive("IAA_ori", 1, n, k, relevant=[[0]], n_relevant=1)
