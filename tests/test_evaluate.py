"""The entry points' vocabulary: keyword-only inputs, documented run inputs, one undefined policy."""

import inspect

import numpy as np
import pytest

import recfair as rf

TOP = [[0, 1], [1, 2]]


@pytest.mark.parametrize("func", [rf.evaluate, rf.evaluate_per_user])
def test_everything_after_top_k_is_keyword_only(func):
    params = inspect.signature(func).parameters
    assert list(params)[0] == "top_k"
    kinds = {name: p.kind for name, p in params.items()}
    assert all(kind is not inspect.Parameter.POSITIONAL_OR_KEYWORD for name, kind in kinds.items() if name != "top_k")
    for name in ("n_items", "measures", "rounds", "item_features", "user_attributes", "on_undefined"):
        assert name in params
        assert f"{name} :" in func.__doc__ or name in func.__doc__
    with pytest.raises(TypeError):
        func(TOP, 4, ["HR"], relevant=[[1], [2]])


def test_run_inputs_are_parameters_not_options():
    rounds = np.array([TOP, [[2, 3], [0, 3]]])
    got = rf.evaluate(TOP, n_items=4, measures=["Gini_ori"], rounds=rounds)["Gini_ori"]
    assert got == rf.gini_index(TOP, n_items=4, rounds=rounds)
    with pytest.raises(ValueError, match="not parameters of any requested measure"):
        rf.evaluate(TOP, n_items=4, measures=["Jain_ori"], colour="red")


@pytest.mark.parametrize("func", [rf.hit_rate, rf.mrr, rf.precision, rf.recall, rf.average_precision, rf.ndcg])
def test_relevance_functions_take_relevant_by_keyword(func):
    assert func(TOP, relevant=[[1], [2]], n_items=4) == pytest.approx(
        rf.evaluate(TOP, n_items=4, measures=[func.__name__.replace("hit_rate", "HR").replace("mrr", "MRR")
                    .replace("average_precision", "MAP").replace("precision", "P").replace("recall", "R")
                    .replace("ndcg", "NDCG")], relevant=[[1], [2]]).popitem()[1])
    with pytest.raises(TypeError):
        func(TOP, [[1], [2]], n_items=4)


def test_per_user_follows_the_undefined_policy():
    relevant = [[1], []]                      # the second user has no relevant item: recall is 0/0
    with pytest.warns(rf.UndefinedMeasureWarning, match="1 of 2 users"):
        frame = rf.evaluate_per_user(TOP, n_items=4, measures=["R"], relevant=relevant)
    assert frame["R"].tolist()[0] == 1.0 and np.isnan(frame["R"].tolist()[1])
    with pytest.raises(rf.UndefinedMeasureError):
        rf.evaluate_per_user(TOP, n_items=4, measures=["R"], relevant=relevant, on_undefined="raise")
    quiet = rf.evaluate_per_user(TOP, n_items=4, measures=["R"], relevant=relevant, on_undefined="nan")
    assert quiet.equals(frame)
    with pytest.raises(ValueError, match="on_undefined"):
        rf.evaluate_per_user(TOP, n_items=4, measures=["R"], relevant=relevant, on_undefined="ignore")
