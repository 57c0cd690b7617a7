"""numpy 1.23's default argsort, replayed, against its real output; HD's published values with it."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import recfair as rf
from recfair.item_exposure import generators
from recfair.joint._legacy_sort import _heapsort, numpy_legacy_argsort

# Produced once with numpy 1.23.5 (np.argsort(values) and np.argsort(values, kind="heapsort")).
FIXTURE = json.loads((Path(__file__).parent / "data" / "numpy_1_23_argsort.json").read_text())


def test_fixture_is_from_numpy_1_23():
    assert FIXTURE["numpy"] == "1.23.5"


@pytest.mark.parametrize("case", FIXTURE["quicksort"], ids=lambda c: f"n{len(c['values'])}")
def test_default_argsort_matches_numpy_1_23(case):
    assert numpy_legacy_argsort(case["values"]).tolist() == case["argsort"]


@pytest.mark.parametrize("case", FIXTURE["heapsort"], ids=lambda c: f"n{len(c['values'])}")
def test_heapsort_fallback_matches_numpy_1_23(case):
    order = list(range(len(case["values"])))
    _heapsort([float(v) for v in case["values"]], order, 0, len(order))
    assert order == case["argsort"]


@pytest.mark.parametrize("case", FIXTURE["insertion_users"], ids=lambda c: f"user{c['user']}")
def test_insertion_reference_lists_match_numpy_1_23(case):
    relevance = np.zeros(10_000)
    u = case["user"]
    relevance[10 * u:10 * u + 10] = 1
    assert numpy_legacy_argsort(-relevance)[:10].tolist() == case["first10"]


def test_sorts_and_rejects_nan():
    rng = np.random.default_rng(0)
    x = rng.integers(0, 4, 500).astype(float)
    assert np.array_equal(np.sort(x), x[numpy_legacy_argsort(x)])
    with pytest.raises(ValueError, match="NaN"):
        numpy_legacy_argsort([1.0, np.nan])


def _insertion_run(step, m=1000, n=10_000, k=10):
    """Paper 2's insertion study after `step` replacements (p2 §6.4)."""
    return generators.insertion_top_k(m, n, k, n_inserted=step), generators.insertion_relevant(m, n, k)


@pytest.mark.parametrize("step, published, stable", [(1, 0.270473, 0.820933), (2, 0.240304, 0.820933)])
def test_hd_reproduces_the_published_insertion_values(step, published, stable):
    top_k, relevant = _insertion_run(step)
    legacy = rf.hellinger_distance(top_k, n_items=10_000, relevant=relevant, tie_break="numpy_legacy")
    assert legacy == pytest.approx(published, abs=5e-7)
    assert rf.hellinger_distance(top_k, n_items=10_000, relevant=relevant) == pytest.approx(stable, abs=5e-7)


def test_hd_tie_break_options():
    top_k, relevant = [[2, 3]], [[0, 1, 2]]
    values = {round(rf.hellinger_distance(top_k, n_items=5, relevant=relevant, tie_break="random", seed=s), 6)
              for s in range(20)}
    assert values == {round(np.sqrt(1 / 3), 6), 0.505948}              # p2 T2: both tie orders occur
    again = [rf.hellinger_distance(top_k, n_items=5, relevant=relevant, tie_break="random", seed=3) for _ in range(2)]
    assert again[0] == again[1]
    with pytest.raises(ValueError, match="tie_break"):
        rf.hellinger_distance(top_k, n_items=5, relevant=relevant, tie_break="quick")
