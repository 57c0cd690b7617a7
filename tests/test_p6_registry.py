"""Part V's measures through the registry: recfair.evaluate on runs with user attributes, evaluate_scores with groups."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.groups import measures as g

NAMES = list(g.GROUP_MEASURES)


def _run(seed=0, m=40, n=30, k=5):
    rng = np.random.default_rng(seed)
    top = np.array([rng.choice(n, k, replace=False) for _ in range(m)])
    relevant = [rng.choice(n, rng.integers(1, 6), replace=False) for _ in range(m)]
    attrs = pd.DataFrame({"gender": rng.choice(["f", "m"], m), "age": rng.choice(["18-24", "25-49", "50+"], m)})
    return top, relevant, attrs, n


@pytest.mark.parametrize("base", ["P", "NDCG"])
def test_evaluate_on_a_run_equals_the_functions_on_per_user_effectiveness(base):
    top, relevant, attrs, n = _run()
    per_user = rf.evaluate_per_user(top, n_items=n, measures=base, relevant=relevant)[base].to_numpy()
    got = rf.evaluate(top, n_items=n, measures=NAMES, relevant=relevant, user_attributes=attrs, base=base,
                      on_undefined="nan")
    for name in NAMES:
        context = {} if name == "Atk_ind" else {"groups": attrs}
        want = g.GROUP_MEASURES[name](per_user, **context, on_undefined="nan")
        assert got[name] == pytest.approx(want, abs=1e-12, nan_ok=True), name
    scores = rf.evaluate_effectiveness(per_user, measures=NAMES, groups=attrs, on_undefined="nan")
    assert scores == pytest.approx(got, abs=1e-12, nan_ok=True)


def test_attributes_choose_the_grouping_and_options_reach_the_measure():
    top, relevant, attrs, n = _run(1)
    one = rf.evaluate(top, n_items=n, measures="Atk_group", relevant=relevant, user_attributes=attrs,
                      attributes="gender", epsilon=0.8)["Atk_group"]
    per_user = rf.evaluate_per_user(top, n_items=n, measures="NDCG", relevant=relevant)["NDCG"].to_numpy()
    assert one == pytest.approx(g.atk_group(per_user, groups=attrs["gender"], epsilon=0.8), abs=1e-12)
    assert one != pytest.approx(g.atk_group(per_user, groups=attrs["gender"]), abs=1e-6)
    parts = g.atkinson_decomposition(per_user, groups=attrs)
    values = rf.evaluate_effectiveness(per_user, measures=["Atk_ind", "Atk_group", "Atk_within"], groups=attrs)
    assert 1 - values["Atk_ind"] == pytest.approx((1 - values["Atk_group"]) * (1 - values["Atk_within"]), abs=1e-12)
    assert values["Atk_ind"] == pytest.approx(parts.individual, abs=1e-12)


def test_undefined_effectiveness_and_bad_input():
    top, relevant, attrs, n = _run(2)
    relevant[3] = []
    with pytest.warns(rf.UndefinedMeasureWarning, match="undefined NDCG"):
        assert np.isnan(rf.evaluate(top, n_items=n, measures="SD_group", relevant=relevant,
                                    user_attributes=attrs)["SD_group"])
    top, relevant, attrs, n = _run(3)
    with pytest.raises(ValueError, match="user_attributes"):
        rf.evaluate(top, n_items=n, measures="SD_group", relevant=relevant)
    with pytest.raises(ValueError, match="attributes must name columns"):
        rf.evaluate(top, n_items=n, measures="SD_group", relevant=relevant, user_attributes=attrs,
                    attributes=["income"])
    with pytest.raises(ValueError, match="pass groups="):
        rf.evaluate_effectiveness([0.1, 0.5], measures="MAD_group")
    with pytest.raises(ValueError, match="not parameters"):
        rf.evaluate_effectiveness([0.1, 0.5], measures="MAD_group", groups=["a", "b"], epsilon=0.5)
    with pytest.raises(ValueError, match="base must be"):
        rf.evaluate(top, n_items=n, measures="SD_group", relevant=relevant, user_attributes=attrs, base="Jain_our")


def test_registry_facts_of_part_v():
    spec = rf.REGISTRY["Min_group"]
    assert spec.higher_is_better and spec.family == "groups" and rf.registry.PARTS[spec.family] == "V"
    assert not rf.REGISTRY["KL_group"].higher_is_better
    assert "user_attributes" not in rf.REGISTRY["Atk_ind"].needs
    assert set(rf.registry.names("groups")) == set(NAMES)
