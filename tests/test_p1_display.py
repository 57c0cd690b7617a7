"""Part I as readers meet it: formulas that fit a phone, references without the thesis's internal labels,
and a Kendall-τ heatmap whose labels stay legible."""

import re

import numpy as np
import pandas as pd
import pytest

import recfair as rf

PART1 = rf.registry.names("item_exposure")


@pytest.mark.parametrize("key", PART1)
def test_formula_has_one_equation_per_line(key):
    formula = rf.REGISTRY[key].formula
    # several equations are stacked in an aligned environment, never chained with \quad
    assert r",\quad" not in formula
    if formula.count("=") > 1 and r"\begin{cases}" not in formula:
        assert formula.startswith(r"\begin{aligned}") and formula.endswith(r"\end{aligned}")
        assert formula.count(r"\\") == formula.count("&=") - 1


@pytest.mark.parametrize("key", PART1)
def test_reference_has_no_internal_labels(key):
    reference = rf.REGISTRY[key].reference
    assert not re.search(r"Eqs?\. [a-z]|Tab\. [a-z]|\bL\d{3,4}\b", reference), reference


def test_derivation_steps_have_no_internal_labels():
    from recfair.item_exposure import derivations

    for key, end in [("Gini_ori", "most_unfair"), ("Gini_ori", "most_fair"), ("Ent_ori", "most_fair"),
                     ("Gini-w_ori", "most_unfair"), ("Gini-w_ori", "most_fair")]:
        text = derivations.derive(key, end).markdown()
        assert not re.search(r"Eqs?\. [a-z]|\bL\d{3,4}\b", text), (key, end)


def test_tau_heatmap_hatches_exactly_the_non_significant_pairs():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from recfair.book.plotting import tau_heatmap

    names = ["NDCG", "Jain_our", "Gini_our"]
    tau = pd.DataFrame([[1.0, -0.47, 0.2], [-0.47, 1.0, 0.87], [0.2, 0.87, 1.0]], index=names, columns=names)
    sig = pd.DataFrame(np.eye(3, dtype=bool), index=names, columns=names)
    sig.loc["Gini_our", "Jain_our"] = sig.loc["Jain_our", "Gini_our"] = True
    ax = tau_heatmap(tau, sig)
    texts = sorted(t.get_text() for t in ax.texts)
    assert texts == sorted(["1", "1", "1", "−.47", ".20", ".87"])
    assert len([p for p in ax.patches if p.get_hatch()]) == 2      # the two pairs with NDCG
    plt.close("all")


def test_tau_heatmap_rejects_bad_input():
    from recfair.book.plotting import tau_heatmap

    with pytest.raises(TypeError, match="square DataFrame"):
        tau_heatmap(np.eye(2))
    tau = pd.DataFrame(np.eye(2), index=["a", "b"], columns=["a", "b"])
    with pytest.raises(ValueError, match="shape"):
        tau_heatmap(tau, pd.DataFrame(np.eye(3, dtype=bool)))
