"""Every validation error names the problem."""

import numpy as np
import pytest
import scipy.sparse as sp

import recfair as rf
from recfair.run import Run

TOP = [[0, 1], [2, 3]]
REL = [[0], [3]]


@pytest.mark.parametrize("kwargs, match", [
    (dict(measures=["NOPE"]), "unknown measure 'NOPE'"),
    (dict(measures=[]), "measures is empty"),
    (dict(measures=["P", "P"]), r"\['P'\] more than once"),
    (dict(measures=["P"], gamma=0.8), r"option\(s\) \['gamma'\]"),
    (dict(measures=["P"], on_undefined="zero"), "on_undefined must be one of"),
])
def test_evaluate_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        rf.evaluate(TOP, n_items=5, relevant=REL, **kwargs)


def test_missing_input_names_it():
    with pytest.raises(ValueError, match="P needs relevant.*pass relevant="):
        rf.evaluate(TOP, n_items=5, measures=["P"])


@pytest.mark.parametrize("top, n, k, exc, match", [
    ([[0, 0], [1, 2]], 5, None, ValueError, "repeated item.*user 0"),
    ([[0, 5], [1, 2]], 5, None, ValueError, r"outside \[0, n_items=5\).*max=5"),
    ([[0, -1], [1, 2]], 5, None, ValueError, "min=-1"),
    ([[0, 1], [1, 2, 3]], 5, None, ValueError, "rectangular"),
    ([0, 1, 2], 5, None, ValueError, "must be 2-D"),
    ([[0, 1], [1, 2]], 5, 3, ValueError, "only 2 columns"),
    ([[0, 1], [1, 2]], 1, None, ValueError, "k=2 exceeds n_items=1"),
    ([[0.5, 1], [1, 2]], 5, None, TypeError, "integer item indices"),
    ([["a", "b"], ["c", "d"]], 5, None, TypeError, "integer item indices"),
    ([[0, 1], [1, 2]], 0, None, ValueError, "n_items must be >= 1"),
    ([[0, 1], [1, 2]], 5.0, None, TypeError, "n_items must be an integer"),
    ([[0, 1], [1, 2]], 5, 0, ValueError, "k must be >= 1"),
])
def test_top_k_errors(top, n, k, exc, match):
    with pytest.raises(exc, match=match):
        Run(top, n, k=k)


def test_relevant_errors():
    with pytest.raises(ValueError, match="relevant has 1 users but top_k has 2"):
        Run(TOP, 5, relevant=[[0]])
    with pytest.raises(ValueError, match=r"relevant\[1\] holds item indices outside"):
        Run(TOP, 5, relevant=[[0], [9]])
    with pytest.raises(ValueError, match=r"relevant\[0\] lists an item more than once"):
        Run(TOP, 5, relevant=[[0, 0], [1]])
    with pytest.raises(ValueError, match="0/1 matrix"):
        Run(TOP, 5, relevant=sp.csr_matrix(np.array([[2, 0, 0, 0, 0], [0, 1, 0, 0, 0]])))
    with pytest.raises(ValueError, match=r"shape \(2, 4\); expected"):
        Run(TOP, 5, relevant=sp.csr_matrix((2, 4)))
    with pytest.raises(TypeError, match="relevant must be a sequence"):
        Run(TOP, 5, relevant=3)
    with pytest.raises(TypeError, match=r"relevant\[0\] must hold integer"):
        Run(TOP, 5, relevant=[[0.5], [1]])


def test_scores_errors():
    scores = np.zeros((2, 5))
    bad = scores.copy()
    bad[1, 3] = np.nan
    with pytest.raises(ValueError, match="NaN .*user 1, item 3.*-inf"):
        Run(None, 5, scores=bad)
    bad[1, 3] = np.inf
    with pytest.raises(ValueError, match=r"\+inf"):
        Run(None, 5, scores=bad)
    with pytest.raises(ValueError, match="scores has 4 items but n_items=5"):
        Run(None, 5, scores=np.zeros((2, 4)))
    with pytest.raises(ValueError, match="scores has 2 users but top_k has 1"):
        Run([[0, 1]], 5, scores=scores)
    with pytest.raises(ValueError, match="disagrees with the stable descending sort"):
        Run([[1, 0], [0, 1]], 5, scores=scores)
    with pytest.raises(ValueError, match="either scores or ranking"):
        Run(None, 5, scores=scores, ranking=np.tile(np.arange(5), (2, 1)))
    with pytest.raises(TypeError, match="numeric"):
        Run(None, 2, scores=[["a", "b"]])


def test_ranking_errors():
    with pytest.raises(ValueError, match="not a permutation"):
        Run(None, 3, ranking=[[0, 0, 1]])
    with pytest.raises(ValueError, match="rank all n_items=3"):
        Run(None, 3, ranking=[[0, 1]])
    with pytest.raises(ValueError, match="disagrees with the first k=1"):
        Run([[1]], 3, ranking=[[0, 1, 2]])
    with pytest.raises(ValueError, match="needs top_k, scores or ranking"):
        Run(None, 3)


def test_history_errors():
    with pytest.raises(ValueError, match="recommends a history item to user 1"):
        Run(TOP, 5, history=[[4], [3]])
    with pytest.raises(ValueError, match="history has 1 users"):
        Run(TOP, 5, history=[[4]])


def test_other_inputs():
    with pytest.raises(ValueError, match="rounds must be 3-D"):
        Run(TOP, 5, rounds=[[0, 1]])
    with pytest.raises(ValueError, match=r"rounds\[0\] must equal top_k"):
        Run(TOP, 5, rounds=[[[1, 0], [2, 3]]])
    with pytest.raises(ValueError, match="item_features must have shape"):
        Run(TOP, 5, item_features=np.zeros((4, 2)))
    with pytest.raises(ValueError, match="user_attributes has 3 rows"):
        Run(TOP, 5, user_attributes=[1, 2, 3])


def test_undefined_warning_points_at_the_callers_line():
    with pytest.warns(rf.UndefinedMeasureWarning) as record:
        rf.evaluate([[0, 1]], n_items=3, measures=["Ent_ori"])
    assert record[0].filename == __file__
