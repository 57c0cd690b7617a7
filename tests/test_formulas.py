"""The formula shown is the formula computed.

Every registry record's LaTeX is rendered by the book (``REGISTRY[key].formula``). For each one,
``tests/_reference.py`` keeps a transcription written from that LaTeX, with the LaTeX itself
beside it (:data:`_reference.DISPLAYED`). This module checks, for every record:

* that the record still displays exactly the LaTeX that was transcribed (so a changed display
  must be transcribed again), and
* that the transcription and the library agree on random small runs.

Every display defines each quantity it uses (a corrected measure's per-user range as the minimum
and maximum over the user's possible top-k lists, HD's distributions, IBO/IWO's item set, the
bounds of Gini-w), so every record is transcribed.
"""

from __future__ import annotations

import math

import _reference as ref
import numpy as np
import pytest

import recfair as rf
from recfair.registry import ALL_MEASURES, REGISTRY


def _case(seed):
    """A small run (5 users, 8 items, k = 2, with full rankings) and 9 users' effectiveness, groups and similarity."""
    rng = np.random.default_rng(seed)
    m, n, k = 5, 8, 2
    top, rel, hist, ranking = [], [], [], []
    for _ in range(m):
        perm = rng.permutation(n)
        top.append(perm[:k].tolist())
        rel.append(sorted(rng.choice(perm[:6], size=int(rng.integers(1, 4)), replace=False).tolist()))
        hist.append(sorted(perm[6:6 + int(rng.integers(1, 3))].tolist()))
        ranking.append([int(i) for i in perm if i not in hist[-1]] + hist[-1])     # the history sinks
    mu = 9
    x = rng.random(mu)
    x[rng.random(mu) < 0.2] = 0.0
    g = ["a", "a", "b", "b", "c", "c"] + rng.choice(["a", "b", "c"], size=mu - 6).tolist()
    sim = rng.random((mu, mu))
    sim = (sim + sim.T) / 2
    np.fill_diagonal(sim, 1.0)
    ig = ["a", "b"] * (n // 2)                                         # Part VI: two item groups,
    ug = ["x", "y", "x", "y", "x"]                                     # two user groups,
    features = (rng.random((n, 3)) < 0.5).astype(float)               # genres, each item with one at least
    features[np.arange(n), rng.integers(0, 3, n)] = 1.0
    return {"top": top, "rel": rel, "hist": hist, "ranking": ranking, "n": n, "k": k, "m": m,
            "x": x.tolist(), "g": g, "sim": sim.tolist(), "ig": ig, "ug": ug, "features": features.tolist()}


def _cover_every_item(case):
    """Make every item relevant to some user (IBO/IWO are undefined for an item relevant to nobody)."""
    for i in range(case["n"]):
        if not any(i in r for r in case["rel"]):
            u = next(u for u in range(case["m"]) if i not in case["hist"][u])
            case["rel"][u] = sorted(case["rel"][u] + [i])
    return case


def _library(key, case):
    spec = REGISTRY[key]
    if spec.from_effectiveness is not None:
        eff = dict(case, m=len(case["x"]))
        return rf.evaluate_effectiveness(case["x"], measures=[key], similarity=np.array(case["sim"]), groups=case["g"],
                                         on_undefined="nan")[key], eff
    ranking = np.array(case["ranking"]) if "ranking" in spec.needs else None
    field = {}                                                          # Part VI's inputs
    if "item_groups" in spec.needs:
        field["item_groups"] = case["ig"]
    if "item_features" in spec.needs:
        field["item_features"] = case["features"]
    if "user_attributes" in spec.needs:
        import pandas as pd

        field["user_attributes"] = pd.DataFrame({"group": case["ug"]})
    value = rf.evaluate(np.array(case["top"]), n_items=case["n"], measures=[key], relevant=case["rel"],
                        history=case["hist"], ranking=ranking, on_undefined="nan", **field)[key]
    return value, case


def test_every_record_is_transcribed():
    assert set(ref.DISPLAYED) == {s.key for s in ALL_MEASURES}


@pytest.mark.parametrize("key", sorted(ref.DISPLAYED))
def test_the_record_displays_the_transcribed_latex(key):
    latex, _ = ref.DISPLAYED[key]
    assert REGISTRY[key].formula == latex, (
        f"{key}'s displayed formula changed: transcribe the new LaTeX in tests/_reference.py")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("key", sorted(set(ref.DISPLAYED) - {"DPFR"}))
def test_the_displayed_formula_is_the_computed_one(key, seed):
    case = _case(seed)
    if key in ("IBO_ori", "IWO_ori") or REGISTRY[key].family == "field":    # REO: every group has relevant items
        case = _cover_every_item(case)
    value, used = _library(key, case)
    want = ref.DISPLAYED[key][1](used)
    assert value == pytest.approx(want, rel=1e-9, abs=1e-12, nan_ok=True), key
    if key != "Ent_ori":
        assert math.isfinite(want) or key == "UF", f"{key}: the case should be defined"


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("m", [3, 4])
def test_the_displayed_gini_w_our_when_km_is_at_most_n(m, seed):
    """The random case has km > n; with 3 or 4 users (km <= n = 8) Gini-w_min is the closed form."""
    case = _case(seed)
    case = dict(case, m=m, top=case["top"][:m], rel=case["rel"][:m], hist=case["hist"][:m],
                ranking=case["ranking"][:m])
    value, _ = _library("Gini-w_our", case)
    assert value == pytest.approx(ref.shown_gini_w_our(case), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_the_displayed_dpfr_is_the_computed_one(seed):
    case = _case(seed)
    top = np.array(case["top"])
    table = rf.pareto.oracle2fair(case["hist"], case["rel"], n_items=case["n"], k=case["k"])
    got = rf.evaluate(top, n_items=case["n"], measures="DPFR", relevant=case["rel"], history=case["hist"])["DPFR"]
    scores = rf.evaluate(top, n_items=case["n"], measures=["NDCG", "Ent_our"], relevant=case["rel"])
    points = [tuple(p) for p in rf.pareto.frontier(table, rel="NDCG", fair="Ent_our")[["NDCG", "Ent_our"]].to_numpy()]
    assert got == pytest.approx(ref.shown_dpfr(scores["NDCG"], scores["Ent_our"], points), abs=1e-12)


def test_the_corrected_group_formulas_on_the_chapter_toy():
    """The two displays fixed by issue 16: GCE and Atk_group of the chapter's toy (0.0333 and 0.0114)."""
    toy = {"x": [0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], "g": ["a"] * 3 + ["b"] * 4 + ["c"] * 3, "m": 10}
    assert ref.shown_gce_group(toy) == pytest.approx(0.0333, abs=5e-5)
    assert ref.shown_atk_group(toy) == pytest.approx(0.0114, abs=5e-5)
    equal = {"x": [0.5] * 6, "g": ["a", "a", "b", "b", "c", "c"], "m": 6}
    assert ref.shown_gce_group(equal) == pytest.approx(0.0, abs=1e-12)
