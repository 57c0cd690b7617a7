"""One option name, one meaning; per-measure options; one plan for every entry point."""

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.registry import plan
from recfair.registry import ALL_MEASURES, OPTION_MEANINGS, option_meaning, unknown_measure

#: Names that still mean two things (each listed with the measures involved). Shrink it, never grow it:
#: a rename removes the entry; a new name with two meanings makes test_one_meaning_per_option_name fail.
STILL_TWO_MEANINGS = {
    "alpha": {"VoCD", "DPFR"},
    "base": {"Ent_ori", "Ent_our"},
    "beta": {"VoCD", "GCE_group"},
    "epsilon": {"PEU"},
    "gamma": {"UF"},
}


def _options(spec):
    names = set(spec.options)
    hook = spec.from_effectiveness
    if hook is not None and getattr(hook, "options", None):
        names |= set(hook.options)
    return names


def test_every_option_of_every_record_has_a_meaning():
    missing = sorted((s.key, o) for s in ALL_MEASURES for o in _options(s) if not option_meaning(s.key, o))
    assert not missing, f"add these to recfair.registry.OPTION_MEANINGS: {missing}"


def test_one_meaning_per_option_name():
    for name, meaning in OPTION_MEANINGS.items():
        if isinstance(meaning, str):
            continue
        majority = max(set(meaning.values()), key=list(meaning.values()).count)
        odd = {key for key, value in meaning.items() if value != majority}
        assert odd, f"{name}: give it one meaning as a plain string"
        assert name in STILL_TWO_MEANINGS and odd <= STILL_TWO_MEANINGS[name], (
            f"option {name!r} gained a second meaning for {sorted(odd)}: rename it")
        assert len(set(meaning.values())) == 2, f"option {name!r} has more than two meanings"


def test_ent_and_sd_ind_in_one_call_with_their_own_base():
    rng = np.random.default_rng(0)
    top = np.argsort(rng.random((30, 12)), axis=1)[:, :3]
    rel = [list(rng.choice(12, 2, replace=False)) for _ in range(30)]
    out = rf.evaluate(top, n_items=12, measures=["Ent_ori", "SD_ind"], options={"SD_ind": {"base": "P"}},
                      relevant=rel)
    assert out["Ent_ori"] == rf.item_entropy(top, n_items=12)
    assert out["SD_ind"] == rf.evaluate(top, n_items=12, measures="SD_ind", relevant=rel, base="P")["SD_ind"]
    assert out["SD_ind"] != rf.evaluate(top, n_items=12, measures="SD_ind", relevant=rel)["SD_ind"]
    both = rf.evaluate(top, n_items=12, measures=["Ent_ori", "SD_ind"], relevant=rel,
                       options={"Ent_ori": {"base": 2}, "SD_ind": {"base": "P"}})
    assert both["Ent_ori"] == rf.item_entropy(top, n_items=12, base=2) and both["SD_ind"] == out["SD_ind"]
    with pytest.raises(ValueError, match="'base' means two things.*Ent_ori.*SD_ind"):
        rf.evaluate(top, n_items=12, measures=["Ent_ori", "SD_ind"], relevant=rel, base="P")


def test_plain_keyword_still_works_when_it_means_one_thing():
    top = [[0, 1], [1, 2], [2, 0]]
    a = rf.evaluate(top, n_items=4, measures=["II-D", "AI-D"], gamma=0.5)
    b = rf.evaluate(top, n_items=4, measures=["II-D", "AI-D"], options={"II-D": {"gamma": 0.5}, "AI-D": {"gamma": 0.5}})
    assert a == b and a != rf.evaluate(top, n_items=4, measures=["II-D", "AI-D"])


@pytest.mark.parametrize("kwargs, message", [
    (dict(options={"NDCG": {"gamma": 1}}), "not a requested measure"),
    (dict(options={"II-D": {"beta": 1}}), r"II-D takes no option\(s\) \['beta'\]"),
    (dict(options={"II-D": 0.5}), "must be a dict"),
    (dict(options=[("II-D", {})]), "options must be a dict"),
])
def test_bad_options(kwargs, message):
    with pytest.raises((ValueError, TypeError), match=message):
        rf.evaluate([[0, 1]], n_items=3, measures=["II-D"], **kwargs)


@pytest.mark.parametrize("name, expected", [
    ("NDGC", ["NDCG"]), ("gini_our", ["Gini_our"]), ("Jain", ["Jain_ori", "Jain_our"]), ("ndcg", ["NDCG"]),
])
def test_unknown_names_get_the_closest(name, expected):
    message = unknown_measure(name)
    assert len(message) < 300
    hint = message.split("did you mean ")[1].split("?")[0].split(", ")
    assert hint[:len(expected)] == expected
    with pytest.raises(ValueError, match="did you mean"):
        rf.evaluate([[0, 1]], n_items=3, measures=[name])


def test_families_and_parts_everywhere():
    top, rel = [[0, 1], [1, 2], [2, 0]], [[1], [2], [0]]
    relevance = rf.evaluate(top, n_items=4, measures="relevance", relevant=rel)
    assert list(relevance) == rf.registry.names("relevance")
    part = pd.Series(rf.evaluate(top, n_items=4, measures=["Part I"], on_undefined="nan"))
    assert part.equals(pd.Series(rf.evaluate(top, n_items=4, measures="I", on_undefined="nan")))
    assert list(part.index) == rf.registry.names("item_exposure")
    assert list(rf.evaluate_per_user(top, n_items=4, measures="relevance", relevant=rel).columns) == list(relevance)
    acc = rf.Accumulator(measures=["relevance", "NDCG"], n_items=4)
    acc.update(top, relevant=rel)
    assert acc.result() == relevance
    eff = rf.evaluate_effectiveness([0.1, 0.5, 0.2, 0.9], measures="V", groups=["a", "a", "b", "b"])
    assert list(eff) == rf.registry.names("groups")
    assert plan(["relevance", "Gini_our"]).names == ("HR", "MRR", "P", "R", "MAP", "NDCG", "Gini_our")


def test_accumulator_and_compare_default_k_to_the_list_width():
    top, rel = np.array([[0, 1, 2], [1, 2, 3], [2, 3, 0]]), [[1], [2], [0]]
    acc = rf.Accumulator(measures=["NDCG", "Gini_our"], n_items=5)
    acc.update(top, relevant=rel)
    assert acc.k == 3
    assert acc.result() == rf.evaluate(top, n_items=5, measures=["NDCG", "Gini_our"], relevant=rel)
    report = rf.compare({"a": top, "b": top[:, ::-1]}, measures=["NDCG"], relevant=rel, n_items=5, n_resamples=5,
                        resampling_seed=0)
    got = report.values.set_index("run")["value"]
    assert got["a"] == rf.evaluate(top, n_items=5, measures="NDCG", relevant=rel)["NDCG"]


def test_compare_gives_the_measures_their_alpha_and_data():
    rng = np.random.default_rng(3)
    n, m = 8, 20
    top = np.argsort(rng.random((m, n)), axis=1)[:, :3]
    other = np.argsort(rng.random((m, n)), axis=1)[:, :3]
    feats = rng.normal(size=(n, 3))
    report = rf.compare({"a": top, "b": other}, measures=["VoCD"], n_items=n, item_features=feats,
                        options={"VoCD": {"alpha": 0.3}}, n_resamples=5, resampling_seed=0, significance=0.1)
    value = report.values.set_index("run").loc["a", "value"]
    assert value == rf.vocd(top, n_items=n, alpha=0.3, item_features=feats, on_undefined="nan")
    assert report.alpha == 0.1
    with pytest.raises(TypeError):
        rf.compare({"a": top}, ["VoCD"], n_items=n)            # measures is keyword-only everywhere


def test_per_user_nan_warning_once_per_measure():
    with pytest.warns(rf.UndefinedMeasureWarning, match="1 of 2 users") as record:
        rf.evaluate_per_user([[0, 1], [1, 2]], n_items=4, measures=["R"], relevant=[[1], []])
    assert len(record) == 1
