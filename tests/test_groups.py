"""Part V (thesis Paper 6): user groups versus individual users.

The toy example of the paper's digest, every measure against a loop transcription of its formula
(``tests/_reference.py``) on random groupings, invariance under relabelling, the exact Atkinson
decomposition (property test), undefined cases, bad input, the groupings and the MovieLens
mappings, and the free-text title matcher.
"""

from __future__ import annotations

import math
import warnings

import _reference as ref
import numpy as np
import pandas as pd
import pytest

import recfair as rf
from _data_fixtures import isolated_env, shared_data  # noqa: F401
from hypothesis import given, settings
from hypothesis import strategies as st

from recfair._validation import UndefinedMeasureError, UndefinedMeasureWarning
from recfair.groups import groupings as gp
from recfair.groups import measures as G
from recfair.groups import text as T


def _evaluate(effectiveness, groups, measures=None, **options):
    """Every group measure (or ``measures``) through the one per-user entry point."""
    names = list(G.GROUP_MEASURES) if measures is None else measures
    return rf.evaluate_effectiveness(effectiveness, measures=names, groups=groups, **options)


TOY = [0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4]
TOY_GROUPS = ["a"] * 3 + ["b"] * 4 + ["c"] * 3


# ============================================================================ the toy example


def test_toy_example_of_the_paper():
    expected = {"Min_group": 0.2750, "Range_group": 0.2250, "SD_group": 0.0944, "MAD_group": 0.1500,
                "Gini_group": 0.1241, "Atk_group": 0.0114, "CV_group": 0.2343, "FStat_group": 0.3034,
                "KL_group": 0.0992, "GCE_group": 0.0333, "SD_within": 0.3408, "Gini_within": 0.4466,
                "Atk_within": 0.3365, "Atk_ind": 0.3441}
    got = _evaluate(TOY, TOY_GROUPS)
    assert set(got) == set(expected)
    for name, value in expected.items():
        assert got[name] == pytest.approx(value, abs=5e-5), name
    np.testing.assert_allclose(G.group_means(TOY, groups=TOY_GROUPS), [0.5, 0.275, 0.43333333], atol=1e-8)
    d = G.atkinson_decomposition(TOY, groups=TOY_GROUPS)
    assert 1 - (1 - d.between) * (1 - d.within) == pytest.approx(0.344074, abs=1e-6)
    assert abs(d.residual) < 1e-12
    # the printed MAD formula is half of the value computed
    m = G.group_means(TOY, groups=TOY_GROUPS)
    printed = sum(abs(m[a] - m[b]) for a in range(3) for b in range(a + 1, 3)) / (3 * 2)
    assert got["MAD_group"] == pytest.approx(2 * printed, rel=1e-12)


def test_teaser_two_groups_fair_to_each_other_unfair_within():
    rng = np.random.default_rng(0)
    x = np.concatenate([rng.uniform(0, 1, 50), rng.uniform(0, 1, 50)])
    g = [0] * 50 + [1] * 50
    assert G.gini_group(x, groups=g) < 0.1 < G.gini_within(x, groups=g)


# ============================================================================ against the loop transcriptions


def _random_grouping(rng, n_groups, max_size, *, zeros=0.2, constant=False):
    sizes = rng.integers(1, max_size + 1, size=n_groups)
    sizes[0] = 1                                          # always a singleton
    if n_groups > 1:
        sizes[1] = max_size
    groups = []
    for j, s in enumerate(sizes):
        if constant:
            values = np.full(s, 0.37)
        else:
            values = rng.uniform(0, 1, s)
            values[rng.random(s) < zeros] = 0.0
        groups.append(values)
    if not constant and n_groups > 2:
        groups[2] = np.zeros(sizes[2])                    # a group with zero effectiveness
    labels = np.concatenate([np.full(len(v), j) for j, v in enumerate(groups)])
    x = np.concatenate(groups)
    perm = rng.permutation(x.size)                        # users in no particular order
    return x[perm], labels[perm], [list(v) for v in groups]


CASES = [(seed, k, size) for seed, (k, size) in enumerate([(2, 3), (3, 500), (7, 40), (12, 200), (40, 12),
                                                           (5, 1), (25, 500)])]

REFERENCE = {
    "Min_group": ref.p6_min, "Range_group": ref.p6_range, "SD_group": ref.p6_sd_group, "MAD_group": ref.p6_mad,
    "Gini_group": ref.p6_gini_group, "CV_group": ref.p6_cv, "FStat_group": ref.p6_fstat, "KL_group": ref.p6_kl,
    "GCE_group": ref.p6_gce, "Atk_group": ref.p6_atk_group, "SD_within": ref.p6_sd_within,
    "Gini_within": ref.p6_gini_within, "Atk_within": ref.p6_atk_within,
}


@pytest.mark.parametrize("seed,k,size", CASES)
def test_every_measure_equals_its_transcription(seed, k, size):
    rng = np.random.default_rng(seed)
    x, labels, groups = _random_grouping(rng, k, size)
    got = _evaluate(x, labels, on_undefined="nan")
    for name, f in REFERENCE.items():
        if name == "FStat_group" and x.size == k:
            assert math.isnan(got[name])
            continue
        assert got[name] == pytest.approx(f(groups), rel=1e-9, abs=1e-12), name
    assert got["Atk_ind"] == pytest.approx(ref.p6_atk_ind(x), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("eps", [0.25, 0.5, 0.8, 1.5])
def test_atkinson_options_equal_the_transcription(eps):
    rng = np.random.default_rng(5)
    x, labels, groups = _random_grouping(rng, 9, 30, zeros=0.0)
    x = x + 0.01                                          # eps > 1 needs positive values for a finite EDE
    groups = [[v + 0.01 for v in g] for g in groups]
    assert G.atk_group(x, groups=labels, epsilon=eps) == pytest.approx(ref.p6_atk_group(groups, eps), rel=1e-9)
    assert G.atk_within(x, groups=labels, epsilon=eps) == pytest.approx(ref.p6_atk_within(groups, eps), rel=1e-9)
    assert G.atk_ind(x, epsilon=eps) == pytest.approx(ref.p6_atk_ind(x, eps), rel=1e-9)


@pytest.mark.parametrize("beta,lam,c", [(2.0, 0.95, 1e-4), (3.0, 0.9, 1e-3), (0.5, 1.0, 0.0), (-1.0, 0.8, 0.01)])
def test_gce_options_equal_the_transcription(beta, lam, c):
    rng = np.random.default_rng(6)
    x, labels, groups = _random_grouping(rng, 6, 20)
    if lam == 1.0:                                        # no smoothing: keep every group mean positive
        x, groups = x + 0.01, [[v + 0.01 for v in g] for g in groups]
    assert G.gce_group(x, groups=labels, exponent=beta, lam=lam, c=c) == pytest.approx(ref.p6_gce(groups, beta, lam, c),
                                                                            rel=1e-9, abs=1e-12)


def test_constant_scores():
    rng = np.random.default_rng(3)
    x, labels, _ = _random_grouping(rng, 8, 50, constant=True)
    got = _evaluate(x, labels, on_undefined="nan")
    for name in ("Range_group", "SD_group", "MAD_group", "Gini_group", "CV_group", "KL_group", "GCE_group",
                 "Atk_group", "SD_within", "Gini_within", "Atk_within", "Atk_ind"):
        if name == "KL_group":
            continue                                      # KL compares with group sizes: not 0 here
        assert got[name] == 0.0, name
    assert got["Min_group"] == 0.37
    assert math.isnan(got["FStat_group"])                 # U = 0: no within-group variance
    assert got["KL_group"] == pytest.approx(ref.p6_kl([[0.37] * s for s in G.group_sizes(labels)]))


def test_gce_counts_groups_with_zero_effectiveness():
    x = [0.5, 0.5, 0.0, 0.0, 0.5, 0.5]
    one_zero = G.gce_group(x, groups=[0, 0, 1, 1, 2, 2])
    k = 3
    hat_sum = 0.95 + 3 * 0.05 * 1e-4
    assert one_zero == pytest.approx(0.5 * hat_sum / (k ** 2 * 0.05 * 1e-4), rel=0.01)
    assert one_zero > 100


# ============================================================================ invariances and groupings by DataFrame


def test_invariant_under_relabelling_users_and_groups():
    rng = np.random.default_rng(11)
    x, labels, _ = _random_grouping(rng, 15, 60)
    base = _evaluate(x, labels)
    perm = rng.permutation(x.size)
    names = {j: f"group-{(7 * j) % 15}" for j in range(15)}
    renamed = [names[j] for j in labels[perm]]
    moved = _evaluate(x[perm], renamed)
    for name in base:
        assert moved[name] == pytest.approx(base[name], rel=1e-12, abs=1e-15), name


def test_dataframe_groups_are_the_intersections():
    rng = np.random.default_rng(2)
    n = 400
    frame = pd.DataFrame({"gender": rng.choice(["M", "F"], n), "age": rng.choice([18, 25, 50], n),
                          "job": rng.choice(["w", "n"], n, p=[0.9, 0.1])})
    x = rng.uniform(0, 1, n)
    combined = frame.astype(str).agg("|".join, axis=1).to_list()
    a, b = _evaluate(x, frame), _evaluate(x, combined)
    for name in a:
        assert a[name] == pytest.approx(b[name], rel=1e-12, abs=1e-15), name
    codes, labels = G.encode_groups(frame)
    assert len(labels) == len(set(combined)) and codes.max() == len(labels) - 1
    tuples = list(frame.itertuples(index=False, name=None))   # tuple labels are labels too
    assert _evaluate(x, tuples) == pytest.approx(a, rel=1e-12, nan_ok=True)
    assert G.encode_groups(tuples)[1] == labels
    # a single-column DataFrame equals its labels
    assert G.sd_group(x, groups=frame[["age"]]) == G.sd_group(x, groups=frame["age"])


# ============================================================================ the decomposition


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.sampled_from([0.0, 0.0, 1.0, 0.5]) | st.floats(0, 1), st.integers(0, 6)),
                min_size=1, max_size=60),
       st.sampled_from([0.5, 0.5, 0.2, 1.0, 2.0]))
def test_atkinson_decomposition_is_exact(pairs, eps):
    x = [p[0] for p in pairs]
    labels = [p[1] for p in pairs]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UndefinedMeasureWarning)
        d = G.atkinson_decomposition(x, groups=labels, epsilon=eps)
    if math.isnan(d.between):                             # eps >= 1 and a zero in every group: Atk_b is 0/0
        assert eps >= 1 and d.individual == pytest.approx(1.0) and d.within == pytest.approx(1.0)
        return
    assert abs((1 - d.individual) - (1 - d.between) * (1 - d.within)) <= 1e-12
    for v in (d.individual, d.between, d.within):
        assert -1e-12 <= v <= 1 + 1e-12
    assert d.between == G.atk_group(x, groups=labels, epsilon=eps, on_undefined="nan")
    assert d.within == G.atk_within(x, groups=labels, epsilon=eps)
    assert d.individual == G.atk_ind(x, epsilon=eps)


def test_decomposition_at_the_extremes():
    rng = np.random.default_rng(4)
    x = rng.uniform(0, 1, 30)
    x[::4] = 0
    singletons = G.atkinson_decomposition(x, groups=np.arange(30))          # one group per user
    assert singletons.within == 0.0
    assert singletons.between == pytest.approx(singletons.individual, rel=1e-12)
    one = G.atkinson_decomposition(x, groups=np.zeros(30))                  # a single group
    assert one.between == 0.0 and one.within == pytest.approx(one.individual, rel=1e-12)
    zero = G.atkinson_decomposition(np.zeros(5), groups=[0, 0, 1, 2, 2])    # all-zero: the thesis's Atk = 0
    assert (zero.individual, zero.between, zero.within) == (0.0, 0.0, 0.0)


# ============================================================================ undefined values


def test_undefined_values_follow_the_policy():
    with pytest.warns(UndefinedMeasureWarning, match="MAD_group"):
        assert math.isnan(G.mad_group([0.1, 0.2], groups=[0, 0]))
    with pytest.warns(UndefinedMeasureWarning, match="FStat_group"):
        assert math.isnan(G.fstat_group([0.1, 0.2, 0.3], groups=[0, 1, 2]))    # one user per group
    with pytest.warns(UndefinedMeasureWarning, match="FStat_group"):
        assert math.isnan(G.fstat_group([0.1, 0.2], groups=[0, 0]))            # a single group
    zeros = [0.0] * 4
    for f in (G.gini_group, G.cv_group, G.kl_group, G.gce_group, G.gini_within):
        assert math.isnan(f(zeros, groups=[0, 0, 1, 1], on_undefined="nan"))
        with pytest.raises(UndefinedMeasureError):
            f(zeros, groups=[0, 0, 1, 1], on_undefined="raise")
    assert G.atk_ind(zeros) == 0.0 and G.atk_group(zeros, groups=[0, 0, 1, 1]) == 0.0
    assert G.atk_within(zeros, groups=[0, 0, 1, 1]) == 0.0 and G.sd_within(zeros, groups=[0, 0, 1, 1]) == 0.0
    assert G.sd_group(zeros, groups=[0, 1, 1, 1]) == 0.0 and G.min_group(zeros, groups=[0, 1, 1, 1]) == 0.0
    # singleton groups are valid input everywhere
    out = _evaluate([0.2, 0.4, 0.0, 0.9], [0, 1, 2, 3], on_undefined="nan")
    assert out["Gini_within"] == 0.0 and out["SD_within"] == 0.0 and out["Atk_within"] == 0.0
    assert math.isnan(out["FStat_group"])
    with pytest.raises(ValueError, match="on_undefined"):
        G.mad_group([0.1], groups=[0], on_undefined="ignore")


# ============================================================================ bad input


@pytest.mark.parametrize("call,error,match", [
    (lambda: G.sd_group([0.1, 0.2, 0.3], groups=[0, 1]), ValueError, "2 labels but effectiveness has 3 users"),
    (lambda: G.sd_group([0.1, np.inf], groups=[0, 1]), ValueError, "finite or NaN"),
    (lambda: G.sd_group([0.1, np.nan], groups=[0, 1], on_undefined="raise"), UndefinedMeasureError, "1 of 2 users"),
    (lambda: G.gini_group([0.1, -0.2], groups=[0, 1]), ValueError, "Gini_group needs non-negative"),
    (lambda: G.atk_ind([0.1, -0.2]), ValueError, "Atk_ind needs non-negative"),
    (lambda: G.atk_within([0.1, -0.2], groups=[0, 1]), ValueError, "non-negative"),
    (lambda: G.kl_group([0.1, -0.2], groups=[0, 1]), ValueError, "non-negative"),
    (lambda: G.atk_group([0.1, 0.2], groups=[0, 1], epsilon=0), ValueError, "epsilon"),
    (lambda: G.atk_ind([0.1, 0.2], epsilon=-0.5), ValueError, "epsilon"),
    (lambda: G.atkinson_decomposition([0.1, 0.2], groups=[0, 1], epsilon=0.0), ValueError, "epsilon"),
    (lambda: G.atk_ind([0.1, 0.2], epsilon="0.5"), TypeError, "epsilon"),
    (lambda: G.sd_group([0.1, 0.2], groups=[0, None]), ValueError, "missing label at user 1"),
    (lambda: G.sd_group([0.1, 0.2], groups=pd.DataFrame({"a": [1, np.nan]})), ValueError, "column 'a'"),
    (lambda: G.sd_group([0.1, 0.2], groups=pd.DataFrame(index=[0, 1])), ValueError, "without columns"),
    (lambda: G.sd_group([], groups=[]), ValueError, "empty"),
    (lambda: G.sd_group([[0.1, 0.2]], groups=[0]), ValueError, "1-D"),
    (lambda: G.sd_group(["a", "b"], groups=[0, 1]), TypeError, "numbers"),
    (lambda: G.sd_group([0.1, 0.2], groups="ab"), TypeError, "groups"),
    (lambda: G.min_group([0.1, 0.2], groups=[0, 1], q=2), ValueError, "q"),
    (lambda: G.gce_group([0.1, 0.2], groups=[0, 1], exponent=1), ValueError, "exponent"),
    (lambda: G.gce_group([0.1, 0.2], groups=[0, 1], lam=1.5), ValueError, "lam"),
    (lambda: _evaluate([0.1], [0], ["Nope"]), ValueError, "unknown measure"),
    (lambda: _evaluate([0.1], [0], eps=0.5), ValueError, "not parameters of any requested measure"),
])
def test_bad_input_is_refused_clearly(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_group_measures_dict():
    assert list(G.GROUP_MEASURES) == ["Min_group", "Range_group", "SD_group", "MAD_group", "Gini_group",
                                      "CV_group", "FStat_group", "KL_group", "GCE_group", "Atk_group",
                                      "SD_within", "Gini_within", "Atk_within", "Atk_ind"]
    for name, f in G.GROUP_MEASURES.items():
        context = {} if name == "Atk_ind" else {"groups": TOY_GROUPS}
        assert f(TOY, **context) == pytest.approx(_evaluate(TOY, TOY_GROUPS, [name])[name], rel=1e-12)
        assert "on_undefined" in G.OPTIONS[name]
        assert f(TOY, **context, on_undefined="raise") == f(TOY, **context)
    assert set(G.RANGES) == set(G.GROUP_MEASURES) and G.HIGHER_IS_FAIRER == {"Min_group"}


@pytest.mark.parametrize("seed", range(4))
def test_values_stay_in_their_ranges(seed):
    rng = np.random.default_rng(100 + seed)
    x, labels, _ = _random_grouping(rng, int(rng.integers(2, 30)), int(rng.integers(1, 80)), zeros=0.5)
    for name, value in _evaluate(x, labels, on_undefined="nan").items():
        lo, hi = G.RANGES[name]
        assert math.isnan(value) or lo - 1e-12 <= value <= hi + 1e-12, name


# ============================================================================ groupings


def test_attribute_subsets_and_grp():
    assert len(gp.attribute_subsets(["a", "b", "c"])) == 7
    assert gp.attribute_subsets(["a", "b", "c"], sizes=[3]) == [("a", "b", "c")]
    rng = np.random.default_rng(8)
    n = 300
    frame = pd.DataFrame({"a": rng.choice(list("xy"), n), "b": rng.choice(list("pqr"), n),
                          "c": rng.choice(list("uv"), n)})
    x = rng.uniform(0, 1, n)
    per = gp.by_grouping(x, measure="SD_group", groups=frame)
    assert list(per) == gp.attribute_subsets(frame)
    assert per[("a", "b")] == G.sd_group(x, groups=frame[["a", "b"]])
    out = gp.grp(x, measure="SD_group", groups=frame)
    assert set(out) == {1, 2, 3}
    assert out[1] == pytest.approx(np.mean([per[("a",)], per[("b",)], per[("c",)]]))
    assert out[3] == per[("a", "b", "c")]
    assert gp.grp(x, measure=G.atk_group, groups=frame, epsilon=0.5)[2] == pytest.approx(
        np.mean([G.atk_group(x, groups=frame[list(s)]) for s in gp.attribute_subsets(frame, sizes=2)]))
    table = gp.stairs(x, groups=frame)
    assert len(table) == 7 and table["n_groups"].is_monotonic_increasing
    assert table["n_groups"].iloc[-1] == gp.n_groups(frame) == 12
    with pytest.raises(ValueError, match="rows but effectiveness"):
        gp.by_grouping(x[:-1], measure="SD_group", groups=frame)
    with pytest.raises(TypeError, match="DataFrame"):
        gp.grp(x, measure="SD_group", groups=[1, 2])
    with pytest.raises(ValueError, match="unknown group measure"):
        gp.grp(x, measure="SD", groups=frame)


def test_movielens_mappings_on_codes_and_names():
    codes = gp.ml_occupation_group(list(range(21)))
    assert codes.isna().tolist() == [True] + [False] * 20
    assert sorted(i for i, v in enumerate(codes) if v == "non-working") == [4, 9, 10, 13, 19]
    assert (codes == "working").sum() == 15                          # the code's 15 working occupations
    assert gp.ml_age_group([1, 18, 25, 35, 45, 50, 56]).tolist()[1:] == ["18-24", "25-49", "25-49", "25-49",
                                                                          "50+", "50+"]
    with pytest.raises(ValueError, match="0..20"):
        gp.ml_occupation_group([21])
    with pytest.raises(ValueError, match="gender, age and occupation"):
        gp.movielens_groups(pd.DataFrame({"age": [20]}))


def test_movielens_100k_user_groups(shared_data):  # noqa: F811
    from recfair import datasets

    users = datasets.load("ml-100k").users
    frame = gp.movielens_groups(users)
    kept = (users["age"] >= 18) & (users["occupation"] != "other")
    assert len(frame) == int(kept.sum()) and frame.index.equals(users.index[kept])
    assert set(frame["age"]) == {"18-24", "25-49", "50+"}
    assert set(frame["occupation"]) == {"working", "non-working"}
    assert set(frame["gender"]) == {"M", "F"}
    students = users.loc[frame.index, "occupation"].isin(["student", "retired", "homemaker", "none"])
    assert (frame["occupation"] == "non-working").equals(students)
    assert gp.n_groups(frame) == 12                                  # 2 x 3 x 2, all non-empty as in ML-1M
    x = np.random.default_rng(0).uniform(0, 1, len(frame))
    assert len(gp.stairs(x, groups=frame)) == 7


# ============================================================================ free-text recommendations


def test_matcher_handles_case_punctuation_typos_and_accents():
    test = [["The Lord of the Rings: The Fellowship of the Ring", "Forrest Gump", "Amélie", "Pulp Fiction"]]
    rec = [["Lord of the Rings - The Felowship of the Ring", "Forest Gump", "AMELIE", "pulp fiction.",
            "The Lord of the Rings: The Two Towers"]]
    m = T.match_titles(rec, test)
    assert m.hits.shape == (1, 10)
    # a typo in a long title passes 0.75; one in a short title does not (0.70 for "Forest Gump")
    assert m.hits[0, :5].tolist() == [True, False, True, True, False]
    assert 0.65 < m.similarity[0, 1] < 0.75
    assert T.match_titles(rec, test, threshold=0.65).hits[0, 1]
    assert not m.hits[0, 5:].any() and np.isnan(m.similarity[0, 5:]).all()
    assert m.matched[0].tolist()[:5] == [0, -1, 2, 3, -1]
    assert m.n_returned.tolist() == [5] and m.n_relevant.tolist() == [4]


def test_each_test_title_is_matched_at_most_once():
    m = T.match_titles([["Heat", "heat", "HEAT", "Alien"]], [["Heat", "Alien"]], k=4)
    assert m.hits.tolist() == [[True, False, False, True]]
    twice = T.match_titles([["Heat", "heat"]], [["Heat", "Heat"]], k=2)   # a test title listed twice
    assert twice.hits.tolist() == [[True, True]] and twice.matched.tolist() == [[0, 1]]


def test_short_lists_empty_lists_and_short_titles():
    m = T.match_titles([["Up"], [], ["Fargo", "Se7en"]], [["Up"], ["Heat"], []], k=3)
    assert m.hits.tolist() == [[True, False, False], [False] * 3, [False] * 3]
    assert m.n_returned.tolist() == [1, 0, 2] and m.n_relevant.tolist() == [1, 1, 0]
    p = T.text_per_user("P", m)
    assert p.tolist() == pytest.approx([1 / 3, 0.0, 0.0])
    assert T.text_per_user("P", m, variant="paper").tolist() == pytest.approx([1.0, 0.0, 0.0])
    ndcg = T.text_per_user("NDCG", m)
    assert ndcg[0] == 1.0 and ndcg[1] == 0.0 and math.isnan(ndcg[2])
    assert T.text_per_user("NDCG", m, variant="paper").tolist() == [1.0, 0.0, 0.0]
    long = T.match_titles([[f"title {w}" for w in "abcdefghijklmno"]], [["Heat"], ], k=10)
    assert long.n_returned.tolist() == [10] and not long.hits.any()
    cut = T.match_titles([["Alien"] * 9 + ["Fargo", "Heat"]], [["Heat"]])        # "Heat" is 11th: cut off
    assert not cut.hits.any()
    # short words carry no 3-gram: "Rocky II" and "Rocky V" look the same
    assert T.match_titles([["Rocky II"]], [["Rocky V"]]).hits[0, 0]


def test_threshold_and_corpus():
    rec, test = [["Star Wars Episode IV"]], [["Star Wars"]]
    sim = float(T.match_titles(rec, test).similarity[0, 0])
    assert 0 < sim < 1
    assert T.match_titles(rec, test, threshold=sim - 1e-9).hits[0, 0]
    assert not T.match_titles(rec, test, threshold=min(1.0, sim + 1e-6)).hits[0, 0]
    corpus = ["Star Wars", "Star Trek", "Wars of the Roses", "Episode"]
    m = T.match_titles(rec, test, corpus=corpus)
    assert 0 < m.similarity[0, 0] < 1


def test_paper_variants_against_hand_values():
    m = T.match_titles([["a b c x", "Fargo", "Heat", "Alien", "Ronin"]],
                       [["Heat", "Ronin", "Casino", "Brazil", "Ran x"]], k=10)
    assert m.hits[0].tolist() == [False, False, True, False, True] + [False] * 5
    disc = 1 / np.log2(np.arange(2, 12))
    assert T.text_per_user("NDCG", m, variant="paper")[0] == pytest.approx((disc[2] + disc[4]) / (disc[0] + disc[1]))
    assert T.text_per_user("NDCG", m)[0] == pytest.approx((disc[2] + disc[4]) / disc[:5].sum())
    assert T.text_per_user("P", m, variant="paper")[0] == pytest.approx(2 / 5)
    assert T.text_per_user("P", m)[0] == pytest.approx(2 / 10)
    assert T.text_per_user("HR", m)[0] == 1.0 and T.text_per_user("MRR", m)[0] == pytest.approx(1 / 3)


def test_tfidf_is_unit_length_and_ignores_unknown_ngrams():
    model = T.TfidfNgrams(["Heat", "Heathers"])
    v = model.transform(["Heathers", "zzz qqq"])
    assert v[0].multiply(v[0]).sum() == pytest.approx(1.0) and v[1].nnz == 0
    assert model.idf[model.vocabulary["hea"]] == pytest.approx(1.0)           # in every document
    assert model.idf[model.vocabulary["her"]] == pytest.approx(math.log(3 / 2) + 1)


@pytest.mark.parametrize("call,error,match", [
    (lambda: T.match_titles([["a"]], [["a"], ["b"]]), ValueError, "1 users but test has 2"),
    (lambda: T.match_titles("abc", [["a"]]), TypeError, "recommended"),
    (lambda: T.match_titles([["a", 3]], [["a"]]), TypeError, "non-string"),
    (lambda: T.match_titles([["a"]], [["a"]], threshold=0), ValueError, "threshold"),
    (lambda: T.match_titles([["a"]], [["a"]], k=0), ValueError, "k must"),
    (lambda: T.text_per_user("P", [[True]]), TypeError, "TitleMatch"),
    (lambda: T.text_per_user("F1", T.match_titles([["a"]], [["a"]])), ValueError, "measure"),
    (lambda: T.text_per_user("P", T.match_titles([["a"]], [["a"]]), variant="llm"), ValueError, "variant"),
])
def test_matcher_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_published_conventions_with_pandas_and_scipy():
    """The conventions of the published numbers, computed with pandas and scipy directly."""
    from scipy.spatial.distance import pdist
    from scipy.stats import entropy, f_oneway

    rng = np.random.default_rng(21)
    x, labels, _ = _random_grouping(rng, 17, 90)
    df = pd.DataFrame({"s": x, "g": labels})
    per_group = df.groupby("g")["s"]
    means, counts = per_group.mean(), per_group.count()
    got = _evaluate(x, labels)
    thresh = means.quantile(0.25)
    assert got["Min_group"] == pytest.approx(means[means <= thresh].mean(), rel=1e-12)
    assert got["SD_group"] == pytest.approx(means.std(ddof=0), rel=1e-12)
    assert got["MAD_group"] == pytest.approx(pdist(means.to_numpy().reshape(-1, 1)).mean(), rel=1e-12)
    assert got["CV_group"] == pytest.approx(means.std(ddof=0) / means.mean(), rel=1e-12)
    assert got["KL_group"] == pytest.approx(entropy(means, counts, base=2), rel=1e-10)
    assert got["FStat_group"] == pytest.approx(f_oneway(*[g.to_numpy() for _, g in per_group]).statistic, rel=1e-9)
    share = per_group.sum() / df["s"].sum()
    assert got["SD_within"] == pytest.approx((share * per_group.std(ddof=0)).sum(), rel=1e-12)
    ede = per_group.apply(lambda v: np.mean(np.sqrt(v)) ** 2)
    w = counts / counts.sum()
    atk_b = 1 - (w * np.sqrt(ede)).sum() ** 2 / np.average(ede, weights=w)
    assert got["Atk_group"] == pytest.approx(atk_b, rel=1e-10)
    atk_w = (share * (1 - ede / means)).sum(skipna=True)
    assert got["Atk_within"] == pytest.approx(atk_w, rel=1e-10)


def test_matcher_equals_the_greedy_loop_on_random_titles():
    rng = np.random.default_rng(31)
    words = ["star", "wars", "love", "night", "dark", "return", "king", "city", "lost", "up", "ii", "house"]
    titles = [" ".join(rng.choice(words, rng.integers(1, 4))) for _ in range(60)]
    titles += [t.upper() + "!" for t in titles[:10]] + [t[:-1] for t in titles[10:20]]
    rec = [list(rng.choice(titles, rng.integers(0, 14))) for _ in range(150)]
    test = [list(rng.choice(titles, rng.integers(0, 8))) for _ in range(150)]
    model = T.TfidfNgrams(rec and [t for row in rec for t in row] + [t for row in test for t in row])

    def cosine(a, b):
        va, vb = model.transform([a, b])
        if va.nnz == 0 or vb.nnz == 0:
            return 1.0 if T.clean_title(a) == T.clean_title(b) else 0.0
        return float((va @ vb.T).toarray()[0, 0])

    for threshold in (0.75, 0.5):
        m = T.match_titles(rec, test, threshold=threshold)
        np.testing.assert_array_equal(m.hits, ref.p6_match_titles(rec, test, cosine, threshold=threshold))
        assert (m.hits.sum(axis=1) <= m.n_relevant).all()
        for u in range(len(rec)):                       # matched titles are distinct per user
            js = m.matched[u][m.matched[u] >= 0]
            assert len(set(js.tolist())) == js.size
