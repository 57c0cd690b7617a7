"""The Paper 1 experiment numbers transcribed in recfair.book.thesis (used by book/item_exposure/experiments.md)."""

import numpy as np
import pytest

from recfair.book import thesis
from recfair.item_exposure import generators
from recfair.engine import evaluate


def test_kendall_ranges_are_well_formed():
    ranges = thesis.paper1_kendall_ranges()
    assert set(ranges.index.get_level_values("dataset")) == {"Lastfm", "Ml-1m"}
    assert (ranges["low"] <= ranges["high"]).all()
    assert ranges["low"].between(-1, 1).all() and ranges["high"].between(-1, 1).all()
    assert ranges.loc[("Ml-1m", "relevance vs fairness"), "low"] == 0.14
    assert "Correlation between Measures" in ranges.attrs["source"]


def test_kendall_ranges_agree_with_the_thesis_table():
    """Relevance vs relevance on Lastfm is [0.81, 1]: recompute it from the thesis table of scores."""
    from recfair.analysis import kendall_matrix

    table = thesis.paper1_results("Lastfm").loc[["HR", "MRR", "P", "MAP", "R", "NDCG"]].T
    tau, _, _ = kendall_matrix(table)
    off = tau.to_numpy()[np.triu_indices(len(tau), 1)]
    expected = thesis.paper1_kendall_ranges().loc[("Lastfm", "relevance vs relevance")]
    assert round(off.min(), 2) == expected["low"] and round(off.max(), 2) == expected["high"]


def test_sliding_ranges_are_well_formed():
    ranges = thesis.paper1_sliding_ranges()
    assert len(ranges) == 8
    assert (ranges["first_low"] <= ranges["first_high"]).all()
    assert (ranges["last_low"] <= ranges["last_high"]).all()
    assert ranges.loc[("Ml-1m", "VoCD"), "last_low"] == 0.67


@pytest.mark.parametrize("measure", ["QF", "FSat"])
def test_insertion_claims_hold_for_the_generator(measure):
    claims = thesis.paper1_insertion_claims().set_index("measure")
    m, k = 1000, 10
    n = m * k
    top = generators.insertion_top_k(m, n, k, n_inserted=round(claims.loc[measure, "P"] * k))
    scores = evaluate(top, n_items=n, measures=[f"{measure}_ori", f"{measure}_our"])
    for value in scores.values():
        assert value == pytest.approx(claims.loc[measure, "value"], abs=1e-3)


def test_original_entropy_is_undefined_at_the_quoted_insertion_step():
    """The thesis quotes Ent = 0.9 at P = 0.9 for both versions; only the corrected one is defined there."""
    m, k = 100, 10
    n = m * k
    top = generators.insertion_top_k(m, n, k, n_inserted=9)
    unshown = n - np.unique(top).size
    assert unshown == m - 1                       # every user but the first still waits for one item
    scores = evaluate(top, n_items=n, measures=["Ent_ori", "Ent_our"], on_undefined="nan")
    assert np.isnan(scores["Ent_ori"])
    assert scores["Ent_our"] == pytest.approx(0.9)
