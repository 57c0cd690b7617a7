"""The formula shown is the formula computed.

Every registry record's LaTeX is rendered by the book (``REGISTRY[key].formula``). For each one,
``tests/_reference.py`` keeps a transcription written from that LaTeX, with the LaTeX itself
beside it (:data:`_reference.DISPLAYED`). This module checks, for every record:

* that the record still displays exactly the LaTeX that was transcribed (so a changed display
  must be transcribed again), and
* that the transcription and the library agree on random small runs.

The few records whose display leaves a quantity to the chapter's prose (a per-user range, a
reference distribution) are listed in :data:`NOT_TRANSCRIBED` with the reason; the list may only
shrink.
"""

from __future__ import annotations

import math

import _reference as ref
import numpy as np
import pytest

import recfair as rf
from recfair.registry import ALL_MEASURES, REGISTRY

#: Records whose displayed formula names a quantity it does not define; checked by their own tests.
NOT_TRANSCRIBED = {
    "Gini-w_our": "Gini-w_max and Gini-w_min are the achievable bounds of the chapter, not in the display",
    "IAA_ori": "the display leaves the normalised relevance r~(u, i) to the chapter",
    "IAA_our": "per-user M_min(u), M_max(u) are the chapter's achievable bounds",
    "IFD_div_ori": "the display leaves the pair set H_u to the chapter",
    "IFD_div_our": "per-user M_min(u), M_max(u) are the chapter's achievable bounds",
    "IFD_mul_our": "per-user M_min(u), M_max(u) are the chapter's achievable bounds",
    "HD": "the display leaves the distributions q'_p and c'_p to the chapter",
    "IBO_our": "the display leaves the item set I^- to the chapter",
    "IWO_our": "the display leaves the item set I^- to the chapter",
    "II-F_our": "per-user M_min(u), M_max(u) are the chapter's achievable bounds",
}


def _case(seed):
    """A small run (5 users, 8 items, k = 2) and 9 users' effectiveness, groups and similarity."""
    rng = np.random.default_rng(seed)
    m, n, k = 5, 8, 2
    top, rel, hist = [], [], []
    for _ in range(m):
        perm = rng.permutation(n)
        top.append(perm[:k].tolist())
        rel.append(sorted(rng.choice(perm[:6], size=int(rng.integers(1, 4)), replace=False).tolist()))
        hist.append(sorted(perm[6:6 + int(rng.integers(1, 3))].tolist()))
    mu = 9
    x = rng.random(mu)
    x[rng.random(mu) < 0.2] = 0.0
    g = ["a", "a", "b", "b", "c", "c"] + rng.choice(["a", "b", "c"], size=mu - 6).tolist()
    sim = rng.random((mu, mu))
    sim = (sim + sim.T) / 2
    np.fill_diagonal(sim, 1.0)
    return {"top": top, "rel": rel, "hist": hist, "n": n, "k": k, "m": m,
            "x": x.tolist(), "g": g, "sim": sim.tolist()}


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
        return rf.evaluate_effectiveness(case["x"], [key], similarity=np.array(case["sim"]), groups=case["g"],
                                         on_undefined="nan")[key], eff
    value = rf.evaluate(np.array(case["top"]), n_items=case["n"], measures=[key], relevant=case["rel"],
                        history=case["hist"], on_undefined="nan")[key]
    return value, case


def test_every_record_is_transcribed_or_explained():
    keys = {s.key for s in ALL_MEASURES}
    assert set(ref.DISPLAYED) | set(NOT_TRANSCRIBED) == keys
    assert not set(ref.DISPLAYED) & set(NOT_TRANSCRIBED)


@pytest.mark.parametrize("key", sorted(ref.DISPLAYED))
def test_the_record_displays_the_transcribed_latex(key):
    latex, _ = ref.DISPLAYED[key]
    assert REGISTRY[key].formula == latex, (
        f"{key}'s displayed formula changed: transcribe the new LaTeX in tests/_reference.py")


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("key", sorted(set(ref.DISPLAYED) - {"DPFR"}))
def test_the_displayed_formula_is_the_computed_one(key, seed):
    case = _case(seed)
    if key in ("IBO_ori", "IWO_ori"):
        case = _cover_every_item(case)
    value, used = _library(key, case)
    want = ref.DISPLAYED[key][1](used)
    assert value == pytest.approx(want, rel=1e-9, abs=1e-12, nan_ok=True), key
    if key != "Ent_ori":
        assert math.isfinite(want) or key == "UF", f"{key}: the case should be defined"


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
