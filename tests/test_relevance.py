"""Relevance measures: hand-computed examples and a loop-by-loop reference on random runs."""

import math

import numpy as np
import pytest
import scipy.sparse as sp

import _reference as reference
import recfair as rf
from recfair import relevance

LOG2 = math.log2

# Two users, k = 4, n = 10. User 0: hits at ranks 1 and 3 of 3 relevant items.
# User 1: one hit at rank 4, 5 relevant items.
TOP = [[0, 1, 2, 3], [4, 5, 6, 7]]
REL = [[0, 2, 9], [7, 8, 9, 1, 3]]


def test_hand_computed_values():
    hr = (1 + 1) / 2
    mrr = (1 / 1 + 1 / 4) / 2
    p = (2 / 4 + 1 / 4) / 2
    r = (2 / 3 + 1 / 5) / 2
    ap = ((1 / 1 + 2 / 3) / 3 + (1 / 4) / 4) / 2
    dcg0, dcg1 = 1 + 1 / LOG2(4), 1 / LOG2(5)
    idcg0 = 1 + 1 / LOG2(3) + 1 / LOG2(4)
    idcg1 = 1 + 1 / LOG2(3) + 1 / LOG2(4) + 1 / LOG2(5)
    ndcg = (dcg0 / idcg0 + dcg1 / idcg1) / 2
    got = rf.evaluate(TOP, n_items=10, measures=["HR", "MRR", "P", "R", "MAP", "NDCG"], relevant=REL)
    assert got == pytest.approx({"HR": hr, "MRR": mrr, "P": p, "R": r, "MAP": ap, "NDCG": ndcg}, abs=1e-15)


def test_public_functions_match_evaluate():
    funcs = {"HR": rf.hit_rate, "MRR": rf.mrr, "P": rf.precision, "R": rf.recall,
             "MAP": rf.average_precision, "NDCG": rf.ndcg}
    got = rf.evaluate(TOP, n_items=10, measures=list(funcs), relevant=REL)
    for name, f in funcs.items():
        assert f(TOP, relevant=REL, n_items=10) == got[name]
        assert isinstance(f(TOP, relevant=REL, n_items=10), float)


def test_cutoff_k_uses_prefix():
    assert rf.precision(TOP, relevant=REL, n_items=10, k=1) == pytest.approx(0.5)
    assert rf.ndcg(TOP, relevant=REL, n_items=10, k=1) == pytest.approx(0.5)
    # MAP normalises by min(|R_u|, k): user 0 with k=1 reaches 1
    assert rf.average_precision(TOP, relevant=REL, n_items=10, k=1) == pytest.approx(0.5)


def test_perfect_and_empty_lists():
    top = [[0, 1, 2]]
    assert rf.ndcg(top, relevant=[[0, 1]], n_items=5) == 1.0          # fewer relevant than k: still 1
    assert rf.average_precision(top, relevant=[[0, 1]], n_items=5) == 1.0
    assert rf.recall(top, relevant=[[0, 1, 2, 3]], n_items=5) == 0.75  # more relevant than k: < 1
    assert rf.mrr(top, relevant=[[4]], n_items=5) == 0.0


def test_sparse_relevant_equals_lists():
    mat = sp.lil_matrix((2, 10), dtype=np.int8)
    for u, items in enumerate(REL):
        mat[u, items] = 1
    assert rf.evaluate(TOP, n_items=10, measures=["MAP", "NDCG"], relevant=mat.tocsr()) == rf.evaluate(TOP, n_items=10, measures=["MAP", "NDCG"], relevant=REL)


def test_user_without_relevant_items_follows_policy():
    top, rel = [[0, 1], [2, 3]], [[0], []]
    for name in ("R", "MAP", "NDCG"):
        with pytest.warns(rf.UndefinedMeasureWarning, match="1 user"):
            assert math.isnan(rf.evaluate(top, n_items=5, measures=[name], relevant=rel)[name])
        assert math.isnan(rf.evaluate(top, n_items=5, measures=[name], relevant=rel, on_undefined="nan")[name])
        with pytest.raises(rf.UndefinedMeasureError):
            rf.evaluate(top, n_items=5, measures=[name], relevant=rel, on_undefined="raise")
    # HR, MRR and P are defined (0) for such a user
    assert rf.evaluate(top, n_items=5, measures=["HR", "MRR", "P"], relevant=rel) == {"HR": 0.5, "MRR": 0.5, "P": 0.25}


def test_no_users_is_undefined():
    empty = np.zeros((0, 3), dtype=int)
    with pytest.warns(rf.UndefinedMeasureWarning, match="no users"):
        assert math.isnan(rf.hit_rate(empty, relevant=[], n_items=5))


@pytest.mark.parametrize("seed", range(5))
def test_against_loop_reference(seed):
    rng = np.random.default_rng(seed)
    m, n, k = 40, 30, 7
    top = np.array([rng.choice(n, k, replace=False) for _ in range(m)])
    rel = [rng.choice(n, rng.integers(1, 12), replace=False) for _ in range(m)]
    got = rf.evaluate(top, n_items=n, measures=["HR", "MRR", "P", "R", "MAP", "NDCG"], relevant=rel)
    assert got == pytest.approx(reference.relevance_measures(top, rel, k), abs=1e-12)


def test_per_user_frame():
    frame = rf.evaluate_per_user(TOP, n_items=10, measures=["P", "R"], relevant=REL, users=[3, 8])
    assert frame.index.tolist() == [3, 8]
    assert frame.loc[3, "P"] == 0.5 and frame.loc[8, "R"] == pytest.approx(0.2)
    assert frame["P"].mean() == rf.precision(TOP, relevant=REL, n_items=10)


def test_derived_topk_from_scores_and_history():
    scores = np.array([[0.9, 0.1, 0.5, 0.5], [0.2, 0.2, 0.3, 0.1]])
    history = [[0], []]
    # user 0: item 0 is history -> 2, 3 (tie, lower index first); user 1: 2, 0
    got = rf.evaluate(None, n_items=4, measures=["P"], k=2, scores=scores, history=history, relevant=[[3], [0]])
    assert got["P"] == pytest.approx(0.5)
    assert relevance is not None
