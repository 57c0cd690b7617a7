"""One option name, one meaning; per-measure options; one plan for every entry point."""

import inspect

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.registry import plan
from recfair._validation import RENAMED_OPTIONS
from recfair.item_exposure import bounds as _ib
from recfair.registry import ALL_MEASURES, OPTION_MEANINGS, option_meaning, unknown_measure

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
    not_plain = sorted(name for name, meaning in OPTION_MEANINGS.items() if not isinstance(meaning, str) or not meaning)
    assert not not_plain, f"options {not_plain} must have one meaning (a non-empty string): rename one of them"


def test_option_meaning_only_for_a_measure_that_takes_the_option():
    assert option_meaning("SD_ind", "base") == OPTION_MEANINGS["base"]
    assert option_meaning("GCE_group", "base") == OPTION_MEANINGS["base"]     # a from-effectiveness measure
    assert option_meaning("Ent_ori", "base") == ""                            # Ent_ori's log base is log_base
    assert option_meaning("Ent_ori", "log_base") == option_meaning("AWRF", "log_base") != ""


def test_ent_and_sd_ind_in_one_call_with_their_own_base():
    rng = np.random.default_rng(0)
    top = np.argsort(rng.random((30, 12)), axis=1)[:, :3]
    rel = [list(rng.choice(12, 2, replace=False)) for _ in range(30)]
    out = rf.evaluate(top, n_items=12, measures=["Ent_ori", "SD_ind"], relevant=rel, base="P")
    assert out["Ent_ori"] == rf.item_entropy(top, n_items=12)
    assert out["SD_ind"] == rf.evaluate(top, n_items=12, measures="SD_ind", relevant=rel, base="P")["SD_ind"]
    assert out["SD_ind"] != rf.evaluate(top, n_items=12, measures="SD_ind", relevant=rel)["SD_ind"]
    assert out == rf.evaluate(top, n_items=12, measures=["Ent_ori", "SD_ind"], relevant=rel,
                              options={"SD_ind": {"base": "P"}})
    both = rf.evaluate(top, n_items=12, measures=["Ent_ori", "SD_ind"], relevant=rel, base="P", log_base=2)
    assert both["Ent_ori"] == rf.item_entropy(top, n_items=12, log_base=2) != out["Ent_ori"]
    assert both["SD_ind"] == out["SD_ind"]


#: (function, positional arguments, keywords without the renamed option, measure, old name, a value)
_TOP, _REL, _HIST = [[3, 0], [2, 4], [4, 5], [3, 5]], [[3, 4], [2], [0, 5], [0, 1, 2]], [[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]]
_FRONT = pd.DataFrame({"P": [1.0, 0.5, 0.0], "Jain_our": [0.0, 0.5, 1.0]})
RENAMED_CALLS = [
    (rf.item_entropy, (_TOP,), dict(n_items=6, on_undefined="nan"), "Ent_ori", "base", 2),
    (rf.item_entropy_defined, (_TOP,), dict(n_items=6), "Ent_def", "base", 2),
    (rf.item_entropy_corrected, (_TOP,), dict(n_items=6), "Ent_our", "base", 2),
    (_ib.ent_most_fair, (4, 6, 2), {}, "Ent_ori", "base", 2),
    (_ib.ent_most_unfair, (4, 6, 2), {}, "Ent_ori", "base", 2),
    (rf.pareto.dpfr, (0.5, 0.2), dict(frontier=_FRONT, rel="P", fair="Jain_our"), "DPFR", "alpha", 0.3),
    (rf.pareto.reference_point, (_FRONT,), dict(rel="P", fair="Jain_our"), "DPFR", "alpha", 0.3),
    (rf.groups.gce_group, ([0.1, 0.5, 0.2, 0.9],), dict(groups=[0, 0, 1, 1]), "GCE_group", "beta", 3.0),
    (rf.users.peu, (_TOP,), dict(relevant=_REL, n_items=6), "PEU", "epsilon", 0.5),
    (rf.users.uf, (_TOP,), dict(history=_HIST, n_items=6), "UF", "gamma", 1.0),
    (rf.users.uf_details, (_TOP,), dict(history=_HIST, n_items=6), "UF", "gamma", 1.0),
]


@pytest.mark.parametrize("func, args, kwargs, measure, old, value", RENAMED_CALLS,
                         ids=[f"{c[0].__name__}-{c[4]}" for c in RENAMED_CALLS])
def test_an_old_keyword_is_a_type_error_naming_the_new_one(func, args, kwargs, measure, old, value):
    new = RENAMED_OPTIONS[measure, old]
    assert new in inspect.signature(func).parameters and old not in inspect.signature(func).parameters
    with pytest.raises(TypeError, match=f"{func.__name__}.*'{old}'.*now called '{new}'"):
        func(*args, **kwargs, **{old: value})
    func(*args, **kwargs, **{new: value})                              # the new name works


def test_every_renamed_option_is_gone_from_its_measure_and_the_new_one_is_there():
    from recfair.item_exposure.bounds import parameters

    for (measure, old), new in RENAMED_OPTIONS.items():
        assert new in OPTION_MEANINGS, new
        options = set(parameters(measure)) if measure == "Ent_def" else _options(rf.registry.get(measure))
        assert new in options and old not in options, (measure, old, new)


_RUNS = {"Ent_ori": {}, "Ent_our": {}, "DPFR": dict(relevant=_REL, history=[[5], [0], [1], [0]]), "PEU": dict(relevant=_REL),
         "UF": dict(history=[[5], [0], [1], [0]]), "GCE_group": dict(relevant=_REL, user_attributes=pd.DataFrame({"g": [0, 0, 1, 1]}))}


@pytest.mark.parametrize("measure, old", [key for key in RENAMED_OPTIONS if key[0] != "Ent_def"])
def test_an_old_option_through_evaluate_is_a_value_error_naming_the_new_one(measure, old):
    new = RENAMED_OPTIONS[measure, old]
    message = f"{measure}'s option '{old}' is now called '{new}'"
    data = _RUNS[measure]
    with pytest.raises(ValueError, match=message):
        rf.evaluate(_TOP, n_items=6, measures=[measure], options={measure: {old: 1}}, **data)
    with pytest.raises(ValueError, match=message):
        rf.evaluate(_TOP, n_items=6, measures=[measure], **data, **{old: 1})
    with pytest.raises(ValueError, match=message):
        plan([measure], keywords={old: 1})
    from recfair.io.cli import parse_options

    with pytest.raises(ValueError, match=f"--option {measure}.{old}=1: {message}"):
        parse_options([f"{measure}.{old}=1"], [measure])
    assert parse_options([f"{measure}.{new}=1"], [measure]) == {measure: {new: 1}}


def test_an_old_option_on_effectiveness_and_bounds():
    with pytest.raises(ValueError, match="GCE_group's option 'beta' is now called 'exponent'"):
        rf.evaluate_effectiveness([0.1, 0.5, 0.2, 0.9], measures="GCE_group", groups=[0, 0, 1, 1], beta=3.0)
    got = rf.evaluate_effectiveness([0.1, 0.5, 0.2, 0.9], measures="GCE_group", groups=[0, 0, 1, 1], exponent=3.0)
    assert got["GCE_group"] == rf.groups.gce_group([0.1, 0.5, 0.2, 0.9], groups=[0, 0, 1, 1], exponent=3.0)
    with pytest.raises(ValueError, match="Ent_def's option 'base' is now called 'log_base'"):
        _ib.achievable("Ent_our", 4, 6, 2, base=2)


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
