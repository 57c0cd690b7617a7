"""The teaser of Paper 4 (thesis Fig. 5.1): the sympy derivation against recfair.pareto."""

from __future__ import annotations

import math

import numpy as np
import pytest

sp = pytest.importorskip("sympy")

import recfair as rf  # noqa: E402
from recfair.pareto import derivations as dv  # noqa: E402


def test_midpoint_is_exactly_c_plus_rho_over_sqrt2_on_both_axes():
    d = dv.teaser_reference_point()
    mid = d.cases["alpha = 1/2"]
    assert sp.simplify(mid - (sp.Rational(1, 5) + sp.Rational(4, 5) / sp.sqrt(2))) == 0
    assert sp.simplify(d.forms["Fair"].subs(dv.alpha, sp.Rational(1, 2)) - mid) == 0
    assert round(float(mid), 3) == 0.766


def test_ends_of_the_arc():
    d = dv.teaser_reference_point()
    assert d.cases["alpha = 0"] == 1 and d.cases["alpha = 1"] == sp.Rational(1, 5)
    assert d.forms["Fair"].subs(dv.alpha, 0) == sp.Rational(1, 5)
    assert d.forms["Fair"].subs(dv.alpha, 1) == 1


def test_derivation_agrees_with_the_library_on_a_sampled_arc():
    result = dv.check_teaser(alphas=np.linspace(0, 1, 21), samples=4001, atol=1e-3)
    assert result.ok, result.mismatches


def test_exact_distances_match_rf_pareto_dpfr():
    table = dv.teaser_frontier(samples=2001)
    exact = dv.teaser_distances()
    for name, (x, y) in dv.TEASER_MODELS.items():
        got = rf.pareto.dpfr(float(x), float(y), frontier=table, rel=dv.REL, fair=dv.FAIR)
        assert got == pytest.approx(float(exact[name]), abs=1e-6)


def test_teaser_ranking_dpfr_picks_c_average_picks_a():
    exact = {k: float(v) for k, v in dv.teaser_distances().items()}
    assert min(exact, key=exact.get) == "C"
    average = {k: float(x + y) / 2 for k, (x, y) in dv.TEASER_MODELS.items()}
    assert max(average, key=average.get) == "A"


def test_thesis_prints_distances_to_the_rounded_midpoint():
    # the thesis's 0.582 / 0.578 / 0.376 are distances to (0.766, 0.766), the midpoint rounded
    rounded = {k: math.hypot(float(x) - 0.766, float(y) - 0.766) for k, (x, y) in dv.TEASER_MODELS.items()}
    assert {k: round(v, 3) for k, v in rounded.items()} == {"A": 0.582, "B": 0.578, "C": 0.376}


def test_teaser_frontier_rejects_bad_input():
    with pytest.raises(ValueError):
        dv.teaser_frontier(samples=1)
    with pytest.raises(TypeError):
        dv.teaser_frontier(samples=2.5)


def test_derivation_is_loaded_lazily_from_the_package():
    assert rf.pareto.derivations is dv
