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


def test_every_entry_point_refuses_an_unknown_option_alike():
    """One dispatcher core: the same ValueError for an option no requested measure takes."""
    import recfair as rf

    top, rel = [[0, 1], [1, 2]], [[1], [2]]
    calls = [
        lambda: rf.evaluate(top, n_items=4, measures=["NDCG"], relevant=rel, gamma=0.5),
        lambda: rf.evaluate_per_user(top, n_items=4, measures=["NDCG"], relevant=rel, gamma=0.5),
        lambda: rf.evaluate_effectiveness([0.2, 0.4], measures=["SD_ind"], gamma=0.5),
    ]
    for call in calls:
        with pytest.raises(ValueError, match=r"option\(s\) \['gamma'\] are not parameters of any requested measure"):
            call()
    with pytest.raises(ValueError, match="cannot be computed from per-user effectiveness"):
        rf.evaluate_effectiveness([0.2, 0.4], measures=["ME_user"])
    with pytest.raises(ValueError, match="no per-user values"):
        rf.evaluate_per_user(top, n_items=4, measures=["Jain_ori"], relevant=rel)


def test_evaluate_effectiveness_dispatches_similarity_and_groups():
    import numpy as np

    import recfair as rf

    x = [0.2, 0.6, 0.6, 0.1]
    sim = np.array([[1, .5, 0, .2], [.5, 1, 1, 0], [0, 1, 1, .3], [.2, 0, .3, 1]])
    got = rf.evaluate_effectiveness(x, measures=["PUF", "SD_ind", "Atk_group", "Atk_ind"], similarity=sim,
                                    groups=["a", "a", "b", "b"], epsilon=0.8)
    assert got["PUF"] == pytest.approx(rf.puf(x, similarity=sim))
    assert got["Atk_group"] == pytest.approx(rf.atk_group(x, groups=["a", "a", "b", "b"], epsilon=0.8))
    assert got["Atk_ind"] == pytest.approx(rf.atk_ind(x, epsilon=0.8))
    with pytest.raises(ValueError, match="pass groups="):
        rf.evaluate_effectiveness(x, measures=["SD_group"])
    with pytest.raises(ValueError, match="pass similarity="):
        rf.evaluate_effectiveness(x, measures=["PUF"])
    nan = [0.2, float("nan"), 0.6, 0.1]
    out = rf.evaluate_effectiveness(nan, measures=["SD_ind", "SD_group", "Atk_ind"], groups=["a", "a", "b", "b"],
                                    on_undefined="nan")
    assert all(np.isnan(v) for v in out.values())          # one NaN policy for Parts IV and V
