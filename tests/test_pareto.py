"""Part III (Paper 4): the Oracle, Oracle2Fair, the frontier, the reference point and DPFR."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.pareto import (FAIR_MEASURES, MEASURES, REL_MEASURES, FrontierWarning, compatible, dpfr,
                            estimate_replacements, frontier, oracle, oracle2fair, reference_point, slope, slopes,
                            stop_count)

import _reference as ref


def random_split(seed, m, n, *, max_rel=8, max_hist=6, skew=1.2, k=5):
    """A popularity-skewed test split: per user disjoint history and relevant items (>= k items free)."""
    rng = np.random.default_rng(seed)
    p = 1.0 / np.arange(1, n + 1) ** skew
    p = p[rng.permutation(n)] / p.sum()
    history, relevant = [], []
    for _ in range(m):
        size = min(n - 1, rng.integers(1, max_rel + 1) + rng.integers(0, max_hist + 1))
        items = rng.choice(n, size=size, replace=False, p=p)
        r = rng.integers(1, min(size, max_rel) + 1)
        relevant.append(items[:r])
        history.append(items[r:][:n - k])
    return history, relevant


SPLITS = [  # (seed, m, n, k): km > n and km < n, k = 1, long histories, many items per user
    (0, 12, 10, 3), (1, 30, 25, 5), (2, 8, 40, 3), (3, 20, 12, 4), (4, 15, 9, 1), (5, 40, 30, 5),
    (6, 25, 16, 6), (7, 5, 7, 2),
]


@pytest.mark.parametrize("seed, m, n, k", SPLITS)
def test_walk_matches_the_reference_transcription(seed, m, n, k):
    history, relevant = random_split(seed, m, n, max_rel=2 * k, max_hist=n // 3, k=k)
    table = oracle2fair(history, relevant, n_items=n, k=k, lists=True)
    expected = ref.oracle2fair_walk(history, relevant, n, k)
    assert len(table) == len(expected) == table.attrs["total_replacements"] + 1
    for got, want in zip(table.attrs["lists"], expected):
        assert got.tolist() == want


@pytest.mark.parametrize("seed, m, n, k", SPLITS)
def test_incremental_scores_equal_evaluate_at_every_step(seed, m, n, k):
    history, relevant = random_split(seed, m, n, max_rel=2 * k, max_hist=n // 3, k=k)
    table = oracle2fair(history, relevant, n_items=n, k=k, lists=True, on_undefined="nan")
    assert list(table.columns) == ["replacements", *MEASURES]
    for (_, row), lists in zip(table.iterrows(), table.attrs["lists"]):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            scores = rf.evaluate(lists, n_items=n, measures=list(MEASURES), relevant=relevant, history=history,
                                 on_undefined="nan")
        for name in MEASURES:
            assert row[name] == pytest.approx(scores[name], abs=1e-12, nan_ok=True), name


@pytest.mark.parametrize("seed, m, n, k", SPLITS)
def test_lists_valid_fairness_monotone_and_stop_reached(seed, m, n, k):
    history, relevant = random_split(seed, m, n, max_rel=2 * k, max_hist=n // 3, k=k)
    table = oracle2fair(history, relevant, n_items=n, k=k, lists=True, on_undefined="nan")
    for lists in table.attrs["lists"]:
        assert all(len(set(row)) == k for row in lists.tolist())
        assert not any(set(row) & set(h.tolist()) for row, h in zip(lists.tolist(), history))
    final = np.bincount(table.attrs["lists"][-1].ravel(), minlength=n)
    assert table.attrs["reached_stop"] and final.max() <= stop_count(m, n, k)
    # every replacement is a transfer from a count >= 2 above the receiver's: strictly fairer
    counts = [np.bincount(lists.ravel(), minlength=n) for lists in table.attrs["lists"]]
    squares = [int(c @ c) for c in counts]
    assert all(a > b for a, b in zip(squares, squares[1:]))
    if table[["Jain_our", "Gini_our", "Ent_our"]].notna().all().all():
        assert table["Jain_our"].is_monotonic_increasing and table["Ent_our"].is_monotonic_increasing
        assert table["Gini_our"].is_monotonic_decreasing


@pytest.mark.parametrize("points", [2, 3, 4, 6, 12])
@pytest.mark.parametrize("seed, m, n, k", SPLITS[:4])
def test_estimated_frontier_is_a_subsequence_of_the_full_one(points, seed, m, n, k):
    history, relevant = random_split(seed, m, n, max_rel=2 * k, max_hist=n // 3, k=k)
    full = oracle2fair(history, relevant, n_items=n, k=k, on_undefined="nan")
    est = oracle2fair(history, relevant, n_items=n, k=k, points=points, on_undefined="nan")
    rows = full.set_index("replacements").loc[est["replacements"]].reset_index()
    pd.testing.assert_frame_equal(rows, est, check_exact=False, rtol=0, atol=1e-12)
    assert est["replacements"].iloc[0] == 0 and est["replacements"].iloc[-1] == full["replacements"].iloc[-1]
    assert len(est) <= points
    total = full.attrs["total_replacements"]
    step = max(1, est.attrs["estimated_replacements"] // (points - 1))
    if total > (points - 2) * step:
        assert len(est) == points
    assert est.attrs["estimated_replacements"] <= total


def test_estimate_of_replacements():
    top = [[0, 1], [0, 2], [0, 1], [0, 3]]          # km = 8, n = 5, ceil = 2: item 0 is 2 over
    assert estimate_replacements(top, n_items=5) == 2
    with pytest.raises(ValueError, match="outside"):
        estimate_replacements([[0, 7]], n_items=5)


# --------------------------------------------------------------------------- the Oracle's branches

def test_oracle_users_with_exactly_more_and_fewer_than_k_relevant_items():
    # user 0: exactly k; user 1: more than k, takes its least exposed relevant items (3, 4 unexposed)
    # user 2: fewer than k, relevant on top then unexposed items not in its history (5 is, 6 is not)
    top = oracle(history=[[9], [8], [5]], relevant=[[0, 1], [0, 3, 4], [2]], n_items=10, k=2)
    assert top.tolist() == [[0, 1], [3, 4], [2, 6]]


def test_oracle_batch_serves_lower_weight_first_and_recounts():
    # users 1 and 2 (3 relevant each): user 2's relevant items are unexposed so it goes first and
    # takes 2, 3; user 1 then finds 2 exposed and keeps 0 (its least exposed), 4
    top = oracle(history=[[], [], []], relevant=[[0, 1], [0, 2, 4], [2, 3, 5]], n_items=7, k=2)
    assert top.tolist() == [[0, 1], [0, 4], [2, 3]]


def test_oracle_fills_with_least_recommended_items_once_unexposed_ones_run_out():
    # the unexposed items 2 and 3 go to users 1 and 2; user 3 then takes the least recommended
    # admissible item: 1 is in its history, 2 and 3 tie at one list each, so the lower id 2
    top = oracle(history=[[], [], [], [1]], relevant=[[0, 1], [0], [0], [0]], n_items=4, k=2)
    assert top.tolist() == [[0, 1], [0, 2], [0, 3], [0, 2]]


def test_oracle_user_whose_history_blocks_every_unexposed_item():
    # user 1's history holds every unexposed item, so it must take an already recommended one
    top = oracle(history=[[], [3, 4, 5]], relevant=[[0, 1], [2]], n_items=6, k=2)
    assert top[1].tolist() == [2, 0]          # least recommended admissible: 0 and 1 tie at 1, lower id
    assert set(top[0]) == {0, 1}


def test_walk_stops_with_a_warning_when_no_holder_may_take_any_item():
    history = [[1, 2]] * 4                    # every user's history holds every other item
    with pytest.warns(FrontierWarning, match="stopped after 0 replacements"):
        table = oracle2fair(history, [[0]] * 4, n_items=3, k=1, on_undefined="nan")
    assert len(table) == 1 and not table.attrs["reached_stop"]


def test_no_replacement_when_the_oracle_is_already_fairest():
    table = oracle2fair([[2], [0]], [[0, 1], [2, 3]], n_items=4, k=2)
    assert len(table) == 1 and table.attrs["total_replacements"] == 0 and table.attrs["reached_stop"]


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize("history, relevant, n, k, match", [
    ([[0]], [[0, 1]], 5, 2, "both relevant to user 0 and in that user's history"),
    ([[]], [[0]], 3, 3, "must be smaller than n_items"),
    ([], [], 5, 2, "no users"),
    ([[], []], [[0], []], 5, 2, "user 1 has no relevant item"),
    ([[1, 2, 3, 4]], [[0]], 5, 2, "fewer than k"),
    ([[7]], [[0]], 5, 2, "history"),
])
def test_bad_input(history, relevant, n, k, match):
    with pytest.raises(ValueError, match=match):
        oracle2fair(history, relevant, n_items=n, k=k)


def test_bad_points_alpha_and_pair():
    table = oracle2fair([[5], [4], [], [3]], [[0, 1], [0, 1, 2], [0], [0, 1]], n_items=6, k=2)
    with pytest.raises(ValueError, match="points"):
        oracle2fair([[5], [4], [], [3]], [[0, 1], [0, 1, 2], [0], [0, 1]], n_items=6, k=2, points=1)
    for alpha in (-0.1, 1.5):
        with pytest.raises(ValueError, match="fairness_weight must lie in"):
            dpfr(0.5, 0.5, frontier=table, rel="P", fair="Jain_our", fairness_weight=alpha)
    with pytest.raises(ValueError, match="rel must be a relevance measure"):
        dpfr(0.5, 0.5, frontier=table, rel="Jain_our", fair="P")
    with pytest.raises(ValueError, match="fair must be a fairness measure"):
        reference_point(table, rel="P", fair="Gini_ori")
    with pytest.raises(ValueError, match="index_range"):
        reference_point(table, rel="P", fair="Jain_our", index_range="middle")
    with pytest.raises(ValueError, match="finite"):
        dpfr(float("inf"), 0.5, frontier=table, rel="P", fair="Jain_our")
    with pytest.raises(rf.UndefinedMeasureError, match="DPFR"):
        dpfr(float("nan"), 0.5, frontier=table, rel="P", fair="Jain_our", on_undefined="raise")
    assert math.isnan(dpfr(float("nan"), 0.5, frontier=table, rel="P", fair="Jain_our", on_undefined="nan"))
    with pytest.raises(TypeError, match="DataFrame"):
        frontier(table.to_numpy(), rel="P", fair="Jain_our")


# --------------------------------------------------------------------------- frontier, reference point, DPFR

def quarter_circle(samples=2001):
    """Paper 4's teaser frontier: from (1.0, 0.2) to (0.2, 1.0) around (0.2, 0.2), radius 0.8."""
    t = np.linspace(0.0, np.pi / 2, samples)
    return pd.DataFrame({"replacements": np.arange(samples), "NDCG": 0.2 + 0.8 * np.cos(t),
                         "Jain_our": 0.2 + 0.8 * np.sin(t)})


def test_teaser_midpoint_and_distances():
    pf = quarter_circle()
    mid = 0.2 + 0.8 / math.sqrt(2)
    assert reference_point(pf, rel="NDCG", fair="Jain_our") == pytest.approx((mid, mid), abs=1e-12)
    models = [(0.2, 0.9), (0.65, 0.2), (0.5, 0.5)]                     # A, B, C
    got = [dpfr(x, y, frontier=pf, rel="NDCG", fair="Jain_our") for x, y in models]
    assert [round(v, 4) for v in got] == [0.5814, 0.5774, 0.3757]
    # the thesis prints 0.582 / 0.578 / 0.376: distances to the midpoint rounded to (0.766, 0.766)
    printed = [math.dist(p, (round(mid, 3),) * 2) for p in models]
    assert [round(v, 3) for v in printed] == [0.582, 0.578, 0.376]
    average = [(x + y) / 2 for x, y in models]
    assert int(np.argmax(average)) == 0 and int(np.argmin(got)) == 2     # averaging picks A, DPFR picks C


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("index_range, lo, hi", [("full", 0, 0), ("thesis", 0, -1), ("code", 1, 0)])
def test_reference_point_matches_the_transcription(seed, index_range, lo, hi):
    rng = np.random.default_rng(seed)
    size = int(rng.integers(2, 9))
    rel = np.sort(rng.random(size))[::-1]
    fair = np.sort(rng.random(size))
    pf = pd.DataFrame({"replacements": np.arange(size), "P": rel, "Ent_our": fair})
    points = list(zip(rel.tolist(), fair.tolist()))
    for alpha in (0.0, 0.3, 0.5, 1.0):
        want = ref.pareto_reference_point(points, alpha, lo, size + hi)
        assert reference_point(pf, rel="P", fair="Ent_our", fairness_weight=alpha, index_range=index_range) == pytest.approx(want)


def test_index_ranges_differ_only_at_the_ends():
    pf = pd.DataFrame({"P": [0.9, 0.5], "Jain_our": [0.1, 0.6]})
    assert reference_point(pf, rel="P", fair="Jain_our", fairness_weight=1.0) == (0.5, 0.6)
    assert reference_point(pf, rel="P", fair="Jain_our", fairness_weight=1.0, index_range="thesis") == (0.9, 0.1)
    assert reference_point(pf, rel="P", fair="Jain_our", fairness_weight=0.0, index_range="code") == (0.5, 0.6)
    assert reference_point(pf.iloc[:1], rel="P", fair="Jain_our") == (0.9, 0.1)


def test_frontier_collapses_equal_relevance_keeping_the_best_fairness():
    t = pd.DataFrame({"replacements": range(5), "P": [0.9, 0.8, 0.8, 0.7, 0.7],
                      "Gini_our": [0.6, 0.5, 0.4, 0.45, 0.3], "Jain_our": [0.1, 0.3, 0.2, 0.4, 0.4]})
    assert frontier(t, rel="P", fair="Gini_our")["Gini_our"].tolist() == [0.6, 0.4, 0.3]
    jain = frontier(t, rel="P", fair="Jain_our")
    assert jain["Jain_our"].tolist() == [0.1, 0.3, 0.4] and jain["replacements"].tolist() == [0, 1, 4]
    s = pd.DataFrame({"replacements": range(3), "P": [0.9, 0.8, 0.7], "QF_our": [1.0, 1.0, 1.0]})
    assert len(frontier(s, rel="P", fair="QF_our")) == 3 and len(frontier(s, rel="P", fair="QF_our", strict=True)) == 1


def test_slope_and_compatibility():
    t = pd.DataFrame({"replacements": [0, 1], "HR": [1.0, 1.0], "P": [0.9, 0.7], "Jain_our": [0.5, 0.9],
                      "QF_our": [1.0, 1.0]})
    assert slope(t, rel="P", fair="Jain_our") == pytest.approx(-2.0)
    assert slope(t, rel="P", fair="QF_our") == 0.0 and not compatible(t, rel="P", fair="QF_our")
    with pytest.warns(rf.UndefinedMeasureWarning, match="HR is the same at both ends"):
        assert math.isnan(slope(t, rel="HR", fair="Jain_our"))
    assert not compatible(t, rel="HR", fair="Jain_our")
    full = pd.DataFrame({m: [0.9, 0.7] for m in REL_MEASURES} | {m: [0.5, 0.9] for m in FAIR_MEASURES})
    assert slopes(full).shape == (6, 5)


def test_dpfr_through_evaluate_with_and_without_a_given_frontier():
    history, relevant = random_split(3, 20, 12, max_rel=8, max_hist=4, k=4)
    rng = np.random.default_rng(0)
    top = np.array([rng.choice(np.setdiff1d(np.arange(12), h), 4, replace=False) for h in history])
    table = oracle2fair(history, relevant, n_items=12, k=4)
    scores = rf.evaluate(top, n_items=12, measures=["MAP", "Gini_our"], relevant=relevant)
    want = dpfr(scores["MAP"], scores["Gini_our"], frontier=table, rel="MAP", fair="Gini_our")
    got = rf.evaluate(top, n_items=12, measures="DPFR", relevant=relevant, history=history, rel="MAP",
                      fair="Gini_our")["DPFR"]
    assert got == pytest.approx(want, abs=1e-12)
    given = rf.evaluate(top, n_items=12, measures="DPFR", relevant=relevant, history=history, rel="MAP",
                        fair="Gini_our", frontier=table)["DPFR"]
    assert given == pytest.approx(want, abs=1e-12)
    with pytest.raises(ValueError, match="frontier of its own test split"):
        rf.evaluate(top[:5], n_items=12, measures="DPFR", relevant=relevant[:5], history=history[:5],
                    frontier=table)
    with pytest.raises(ValueError, match="needs|history"):
        rf.evaluate(top, n_items=12, measures="DPFR", relevant=relevant)
    with pytest.raises(ValueError, match="DPFR pairs"):
        rf.evaluate(top, n_items=12, measures="DPFR", relevant=relevant, history=history, fair="II-F_ori")


# --------------------------------------------------------------------------- the statistics behind the scores

@pytest.mark.parametrize("seed", range(5))
def test_count_statistics_give_the_measure_functions(seed):
    from recfair.item_exposure import COUNT_MEASURES, count_summary, from_count_summary

    rng = np.random.default_rng(seed)
    m, n, k = int(rng.integers(2, 30)), int(rng.integers(6, 40)), 3
    top = np.array([rng.choice(n, k, replace=False) for _ in range(m)])
    summary = count_summary(top, n_items=n)
    for key in COUNT_MEASURES:
        want = rf.evaluate(top, n_items=n, measures=key, on_undefined="nan")[key]
        got = float(from_count_summary(key, summary, n_users=m, n_items=n, k=k, on_undefined="nan"))
        assert got == pytest.approx(want, abs=1e-12, nan_ok=True), key
    with pytest.raises(ValueError, match="computes"):
        from_count_summary("VoCD", summary, n_users=m, n_items=n, k=k)


def test_relevance_from_hits_equals_the_run_path():
    from recfair.relevance import per_user_from_hits

    rng = np.random.default_rng(0)
    top = np.array([rng.choice(20, 5, replace=False) for _ in range(15)])
    relevant = [rng.choice(20, rng.integers(1, 9), replace=False) for _ in range(15)]
    hits = np.array([[i in set(r) for i in row] for row, r in zip(top, relevant)])
    per_user = rf.evaluate_per_user(top, n_items=20, measures=list(REL_MEASURES), relevant=relevant)
    for name in REL_MEASURES:
        got = per_user_from_hits(name, hits, np.array([len(r) for r in relevant]))
        np.testing.assert_allclose(got, per_user[name].to_numpy(), atol=1e-12)
    with pytest.raises(TypeError, match="boolean"):
        per_user_from_hits("P", hits.astype(int), [1] * 15)
    with pytest.raises(ValueError, match="more hits"):
        per_user_from_hits("P", np.ones((1, 3), bool), [2])
