"""The sympy derivations (recfair.derivations) against the closed forms in recfair.bounds.

One derivation, three uses: the chapter displays the steps, recfair.bounds computes the numbers,
and this file checks that the two agree on a grid of (m, n, k), that special cases simplify
exactly, and that the derived results reproduce the thesis's printed constants.
"""

from __future__ import annotations

import math

import pytest

sp = pytest.importorskip("sympy")

from recfair.item_exposure import bounds, search  # noqa: E402
from recfair.item_exposure import derivations as dv  # noqa: E402
from recfair.book.symbolic import f, gamma, k, m, n, r  # noqa: E402

GRID = [(mm, nn, kk) for mm in range(1, 8) for nn in range(2, 14) for kk in range(1, min(nn - 1, 5) + 1)]
VOCD_GRID = [(mm,) for mm in range(1, 21)]
IID_GRID = [(nn, kk) for nn in range(1, 14) for kk in range(1, nn + 1)]
ALL = dv.all_derivations()
MNK = [d for d in ALL if d.params == ("m", "n", "k")]

# thesis Tab. dataset (m users, n items) and the p1.md §5.6 constants at k = 10
DATASETS = {
    # name: (m, n, Jain_max, Gini_min, Ent_max base n, Ent_min base n, Gini-w_max, II-D, s_min)
    "Lastfm": (1859, 2823, 0.994433, 0.036862, 0.999644, 0.289795, 0.997234, 0.000970, 3),
    "Ml-1m": (6038, 3307, 0.999426, 0.010491, 0.999965, 0.284137, 0.997639, 0.000828, 1),
    "Book-x": (5639, 7455, 0.995721, 0.032509, 0.999757, 0.258235, 0.998952, 0.000368, 3),
    "Amazon-lb": (1644, 791, 0.999608, 0.008153, 0.999970, 0.345045, 0.990127, 0.003439, 1),
    "Amazon-is": (6574, 3569, 0.999283, 0.013223, 0.999956, 0.281488, 0.997812, 0.000768, 1),
    "Amazon-dm": (11750, 9462, 0.998425, 0.019592, 0.999914, 0.251510, 0.999175, 0.000290, 2),
}


def _numeric(expr, **values):
    """Evaluate a sympy expression at plain-name values (f and r from m, n, k when needed)."""
    if {"m", "n", "k"} <= values.keys():
        values["f"], values["r"] = divmod(values["k"] * values["m"], values["n"])
    table = {sym: values[sym.name] for sym in expr.free_symbols if sym.name in values}
    return float(sp.N(expr.subs(table).doit()))


# ----------------------------------------------------------------------------------------------
# structure: every derivation is a displayable, checkable record
# ----------------------------------------------------------------------------------------------


def test_registry_lists_every_bound_once():
    keys = [d.key for d in ALL]
    assert len(keys) == len(set(keys)) == 16
    assert set(dv.DERIVATIONS) == {"Jain_ori", "QF_ori", "Ent_ori", "Gini_ori", "Gini-w_ori", "FSat_ori",
                                   "VoCD_ori", "II-D_ori", "AI-D_ori"}
    for measure, ends in dv.DERIVATIONS.items():
        for end, func in ends.items():
            d = dv.derive(measure, end)
            assert d is func()  # cached
            assert (d.measure, d.end) == (measure, end)
            assert hasattr(bounds, d.bound_name), d.bound_name
    with pytest.raises(KeyError, match="known"):
        dv.derive("Jain_ori", "middle")


@pytest.mark.parametrize("d", ALL, ids=lambda d: d.key)
def test_steps_are_captioned_sympy_objects(d):
    assert len(d.steps) >= 3
    for caption, expr in d.steps:
        assert isinstance(caption, str) and caption
        assert isinstance(expr, sp.Basic)
    assert isinstance(d.result, sp.Expr)
    assert isinstance(d.equation(), sp.Eq)
    assert d.latex().startswith("\\begin{aligned}")
    assert d._repr_latex_().startswith("$\\displaystyle")
    assert d.result.free_symbols <= set(d.symbols.values())


def test_show_displays_every_step(capsys):
    pytest.importorskip("IPython")
    d = dv.jain_most_fair()
    d.show()
    assert "Markdown" in capsys.readouterr().out   # outside a notebook, display prints the object
    assert d.markdown().count("$$") == 2 * len(d.steps)
    assert all(sp.latex(expr) in d.markdown() for _, expr in d.steps)


def test_as_written_refuses_a_wrong_rewrite():
    from recfair.book.symbolic import as_written

    assert as_written(sp.factor(k * n - k**2), k * (n - k)) == k * (n - k)
    with pytest.raises(ValueError, match="not equal"):
        as_written(k * (n - k), k * (k - n))


# ----------------------------------------------------------------------------------------------
# the derived closed forms equal recfair.bounds
# ----------------------------------------------------------------------------------------------

EXTRA = {"ent_most_unfair": {"log_base": math.e}, "ent_most_fair": {"log_base": math.e}}


@pytest.mark.parametrize("d", MNK, ids=lambda d: d.key)
def test_matches_bounds_on_grid(d):
    check = dv.check_against(getattr(bounds, d.bound_name), d, GRID, **EXTRA.get(d.key, {}))
    assert check.ok, check.mismatches[:5]
    assert check.points >= 40


@pytest.mark.parametrize("key", ["ent_most_unfair", "ent_most_fair"])
def test_entropy_in_base_n_matches_bounds_default(key):
    d, func = getattr(dv, key)(), getattr(bounds, key)
    for point in GRID:
        assert d.evaluate(*point, log_base=point[1]) == pytest.approx(func(*point), abs=1e-12)


@pytest.mark.parametrize("beta_value", [0.0, 0.25, 0.5, 0.9])
def test_vocd_matches_bounds(beta_value):
    check = dv.check_against(bounds.vocd_upper_bound, dv.vocd_upper_bound(), VOCD_GRID, beta=beta_value)
    assert check.ok, check.mismatches


@pytest.mark.parametrize("gamma_value", [0.5, 0.8, 0.95])
@pytest.mark.parametrize("d", [dv.iid_single_round(), dv.aid_single_round_max()], ids=lambda d: d.key)
def test_exposure_disparity_matches_bounds(d, gamma_value):
    check = dv.check_against(bounds.iid_single_round, d, IID_GRID, gamma=gamma_value)
    assert check.ok, check.mismatches


def test_check_against_reports_a_wrong_bound():
    check = dv.check_against(lambda mm, nn, kk: kk / nn + 1e-9, dv.jain_most_unfair(), GRID)
    assert not check.ok and len(check.mismatches) == check.points
    assert not dv.check_against(bounds.gini_w_most_fair, dv.gini_w_most_fair(), [(3, 4, 2)])  # outside km <= n


@pytest.mark.parametrize("d", [d for d in MNK if "thesis" in d.forms], ids=lambda d: d.key)
def test_thesis_form_equals_result(d):
    form = d.forms["thesis"]
    for mm, nn, kk in GRID[::7]:
        if not d.applies(mm, nn, kk) or (d.key == "ent_most_fair" and kk * mm < nn):
            continue
        values = {"m": mm, "n": nn, "k": kk}
        expected = d.evaluate(mm, nn, kk)
        km_symbols = [sym for sym in form.free_symbols if sym.name == "km"]  # the typeset km of Ent's form
        form_value = _numeric(form.subs({sym: k * m for sym in km_symbols}), **values)
        assert form_value == pytest.approx(expected, abs=1e-12)


def test_thesis_forms_reduce_symbolically_with_km_equal_nf_plus_r():
    km_to_fr = {k: (n * f + r) / m}
    assert sp.simplify(dv.jain_most_fair().forms["thesis"].subs(km_to_fr) - dv.jain_most_fair().result) == 0
    assert sp.simplify(dv.gini_most_fair().forms["thesis"].subs(km_to_fr) - dv.gini_most_fair().result) == 0
    ent = dv.ent_most_fair()
    km_symbol = next(s for s in ent.forms["thesis"].free_symbols if s.name == "km")
    assert sp.simplify(ent.forms["thesis"].subs(km_symbol, n * f + r) - ent.result) == 0


# ----------------------------------------------------------------------------------------------
# special cases simplify exactly
# ----------------------------------------------------------------------------------------------


def test_jain_special_cases():
    jain_max = dv.jain_most_fair().result
    assert sp.simplify(jain_max.subs(r, 0)) == 1
    assert sp.simplify(jain_max.subs(f, 0).subs(r, k * m) - k * m / n) == 0
    assert dv.jain_most_unfair().result == k / n


def test_qf_bounds():
    assert dv.qf_most_unfair().result == k / n
    assert dv.qf_most_fair().cases == {"km < n": k * m / n, "km >= n": 1}
    assert dv.qf_most_fair().result == sp.Min(k * m / n, 1)


def test_entropy_special_cases():
    assert dv.ent_most_unfair().result == sp.log(k)
    ent_max = dv.ent_most_fair()
    assert sp.simplify(ent_max.result.subs(r, 0)) == sp.log(n)
    assert sp.simplify(ent_max.cases["km < n (f = 0, r = km)"] - sp.log(k * m)) == 0


def test_gini_special_cases():
    assert dv.gini_most_unfair().result == 1 - k / n
    gini_min = dv.gini_most_fair()
    assert sp.simplify(gini_min.result.subs(r, 0)) == 0
    # the thesis says "km > n" (E3); the simplification 1 - km/n holds for km < n (f = 0, r = km)
    assert sp.simplify(gini_min.result.subs(f, 0).subs(r, k * m) - (1 - k * m / n)) == 0
    assert gini_min.result.subs({n: 5, f: 1, r: 1}) != 1 - sp.Rational(6, 5)


def test_gini_w_simplifies_and_recovers_gini_with_uniform_weights():
    gw_max, gw_min = dv.gini_w_most_unfair(), dv.gini_w_most_fair()
    assert gw_max.cases["uniform weights"] == 1 - k / n
    assert gw_min.cases["uniform weights"] == 1 - k * m / n
    assert sp.simplify(gw_max.cases["k = 1"] - (1 - 1 / n)) == 0
    assert sp.simplify(gw_max.cases["k = 2"] - (1 - sp.log(24) / (n * sp.log(6)))) == 0
    inner = sp.Sum(2 * dv.j - n - 1, (dv.j, n - dv.ell * m + 1, n - dv.ell * m + m)).doit()
    assert sp.expand(inner - m * (n - (2 * dv.ell - 1) * m)) == 0
    # the general-weight forms: 1 - C_k/n and 1 - m C_k/n with C_k = sum (2l-1) w_l / sum w_l
    c_k = sp.Sum((2 * dv.ell - 1) * dv.w[dv.ell], (dv.ell, 1, k)) / sp.Sum(dv.w[dv.ell], (dv.ell, 1, k))
    assert gw_max.forms["general weights"] == 1 - c_k / n
    assert gw_min.forms["general weights"] == 1 - m * c_k / n


def test_gini_w_values_from_the_text():
    gw_min = dv.gini_w_most_fair()
    assert round(gw_min.evaluate(2, 4, 2), 6) == 0.113147                        # p1.md §6
    assert round(float(gw_min.cases["k = 2, m = 2, n = 4"]), 6) == 0.113147
    assert round(_numeric(gw_min.forms["thesis"], m=2, n=4, k=2), 6) == 0.113147  # the double sum
    assert round(gw_min.evaluate(10, 100, 10), 3) == 0.219                       # km = n, k = 10
    assert round(dv.gini_w_most_unfair().evaluate(2, 3, 3), 7) == 0.1564262     # C4 example (L1254)


def test_fsat_bounds():
    assert dv.fsat_most_unfair().result == k / n
    assert dv.fsat_most_fair().result == 1
    true_min = dv.fsat_true_minimum()
    assert true_min.cases["n = 3, k = 2, m = 6"] == sp.Rational(1, 3)   # below the thesis's 2/3
    (ceiling,) = true_min.forms["with km"].atoms(sp.ceiling)
    assert sp.simplify(ceiling.args[0] - (k * m - n * (f - 1)) / (m - f + 1)) == 0
    f_of_r = (k * m - r) / n
    assert sp.simplify(true_min.result.subs(f, f_of_r) - true_min.forms["with km"].subs(f, f_of_r)) == 0
    # the gap between the thesis's k satisfied items and the root is (n - k)(f - 1)/(m - f + 1)
    gap = dict(true_min.steps)[next(c for c, _ in true_min.steps if c.startswith("The thesis's lists"))]
    assert sp.simplify(gap.rhs - (n - k) * (f - 1) / (m - f + 1)) == 0
    assert true_min.evaluate(1, 3, 2) == 1.0   # km < n: always fair


def test_fsat_true_minimum_agrees_with_exhaustive_search():
    for point in [(6, 3, 2), (4, 3, 2), (3, 4, 2), (5, 4, 1)]:
        assert dv.fsat_true_minimum().evaluate(*point) == pytest.approx(search.exhaustive("FSat_ori", *point)[0])


def test_vocd_bound():
    d = dv.vocd_upper_bound()
    assert d.cases["beta = 0"] == (m - 1) / m
    assert d.cases["m = 3, beta = 0"] == sp.Rational(2, 3)   # thesis example (L1258)
    assert d.forms["thesis"] == (m - 1) / m - dv.beta


def test_iid_constant_is_independent_of_m_and_matches_small_cases():
    d = dv.iid_single_round()
    assert m not in d.result.free_symbols
    assert d.cases["k = 1"] == (n - 1) / n**2
    assert d.cases["k = 1, n = 3"] == sp.Rational(2, 9)
    assert round(float(d.cases["k = 2, n = 3, gamma = 4/5"]), 6) == 0.186667
    expected = (1 - gamma ** (2 * k)) / (n * (1 - gamma**2)) - ((1 - gamma**k) / (n * (1 - gamma))) ** 2
    assert sp.simplify(d.result - expected) == 0
    assert sp.simplify(dv.random_exposure() - (1 - gamma**k) / (n * (1 - gamma))) == 0


def test_aid_decomposition_and_maximum():
    d = dv.aid_single_round_max()
    assert sp.simplify(d.result - dv.iid_single_round().result) == 0
    case = d.cases["n = 4, k = 2 (same list)"]
    assert sp.simplify(case - dv.iid_single_round().result.subs({n: 4, k: 2})) == 0
    decomposition = d.forms["decomposition"]
    assert any(isinstance(a, sp.Sum) for a in sp.preorder_traversal(decomposition))


# ----------------------------------------------------------------------------------------------
# the thesis's printed constants (p1.md §5.6, Tab. base-main)
# ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", list(DATASETS))
def test_dataset_constants_at_k10(name):
    mm, nn, jain_max, gini_min, ent_max, ent_min, gw_max, iid, s_min = DATASETS[name]
    kk = 10
    assert round(dv.jain_most_fair().evaluate(mm, nn, kk), 6) == jain_max
    assert round(dv.gini_most_fair().evaluate(mm, nn, kk), 6) == gini_min
    assert round(dv.ent_most_fair().evaluate(mm, nn, kk, log_base=nn), 6) == ent_max
    assert round(dv.ent_most_unfair().evaluate(mm, nn, kk, log_base=nn), 6) == ent_min
    assert round(dv.gini_w_most_unfair().evaluate(mm, nn, kk), 6) == gw_max
    assert round(dv.iid_single_round().evaluate(nn, kk, gamma=0.8), 6) == iid
    assert round(dv.fsat_true_minimum().evaluate(mm, nn, kk) * nn) == s_min


# ----------------------------------------------------------------------------------------------
# Part II: MME and IBO/IWO (recfair.joint.derivations, checked against recfair's own measures)
# ----------------------------------------------------------------------------------------------


def _joint_search(m_, n_, k_):
    """Largest MME, largest IBO_ori and smallest IWO_ori over every relevance and every list."""
    import itertools

    import numpy as np

    import recfair as rf

    lists = list(itertools.permutations(range(n_), k_))
    subsets = [list(c) for size in range(n_ + 1) for c in itertools.combinations(range(n_), size)]
    mme, ibo, iwo = -1.0, -1.0, 2.0
    for chosen in itertools.product(lists, repeat=m_):
        for rel in itertools.product(subsets, repeat=m_):
            if not any(rel):
                continue
            s = rf.evaluate([list(c) for c in chosen], n_items=n_, measures=["MME", "IBO_ori", "IWO_ori"],
                            relevant=list(rel), on_undefined="nan")
            mme = max(mme, s["MME"])
            if not np.isnan(s["IBO_ori"]):
                ibo, iwo = max(ibo, s["IBO_ori"]), min(iwo, s["IWO_ori"])
    return mme, ibo, iwo


def test_mme_most_unfair_and_ibo_rank_one_match_their_closed_forms():
    from recfair.joint import bounds as jb
    from recfair.joint import derivations as dj
    from recfair.book.symbolic import check_against

    grid = [(nn, kk) for nn in range(1, 25) for kk in range(1, nn + 1)]
    assert check_against(jb.mme_largest, dj.mme_most_unfair(), grid).ok
    assert check_against(jb.ibo_rank_one_ratio, dj.ibo_rank_one(), grid).ok
    assert dj.mme_most_unfair().cases["k = n = 3"] == sp.Rational(7, 18)      # Paper 3's 7/18
    assert dj.ibo_rank_one().cases["k = n = 3"] == sp.Rational(18, 11)
    assert "H_k" in sp.latex(dj.mme_most_unfair().equation())
    with pytest.raises(ValueError):
        jb.mme_largest(2, 3)
    with pytest.raises(TypeError):
        jb.ibo_rank_one_ratio(3.0, 2)


@pytest.mark.parametrize("m_, n_, k_", [(1, 2, 1), (1, 2, 2), (2, 2, 1), (2, 2, 2), (3, 2, 2), (1, 3, 2), (2, 3, 3)])
def test_mme_and_ibo_ends_by_exhaustive_search(m_, n_, k_):
    from recfair.joint import bounds as jb

    mme, ibo, iwo = _joint_search(m_, n_, k_)
    assert math.isclose(mme, jb.mme_largest(n_, k_), abs_tol=1e-12)       # for every m
    if m_ >= n_ and jb.ibo_rank_one_ratio(n_, k_) >= 1.1:
        assert ibo == 1.0 and iwo == 0.0
    if (m_, n_, k_) == (2, 3, 3):                                          # Paper 3's small case
        assert math.isclose(ibo, 2 / 3) and math.isclose(iwo, 1 / 3)


def test_a_step_too_wide_for_a_phone_is_broken_into_rows_that_keep_every_term():
    from recfair.book.symbolic import PHONE_ROW, latex_rows, latex_width
    from recfair.joint import derivations as joint_derivations

    step = joint_derivations.iif_most_unfair().steps[-1][1]         # II-F_max(u) = (a + b + c) / n
    assert latex_width(sp.latex(step)) > PHONE_ROW
    rows = latex_rows(step)
    assert rows.startswith("\\begin{aligned}") and rows.count("\\\\") >= 1
    total = next(a for a in step.rhs.args if isinstance(a, sp.Add))
    for term in total.as_ordered_terms():
        assert sp.latex(term) in rows or sp.latex(-term) in rows
    short = sp.Eq(sp.Symbol("y"), sp.Symbol("x") + 1)
    assert latex_rows(short) == sp.latex(short)
