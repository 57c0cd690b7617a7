"""Paper 4's published numbers (recfair.thesis) and the Part III chapters' place in the book."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from recfair import thesis

ROOT = Path(__file__).resolve().parents[1]


def test_teaser_as_printed():
    t = thesis.paper4_teaser()
    assert t.index.tolist() == ["A", "B", "C"]
    assert t["DPFR"].idxmin() == "C" and t["average"].idxmax() == "A"


def test_gradients_cover_30_pairs_and_six_datasets():
    g = thesis.paper4_gradients()
    assert g.shape == (30, 6)
    assert np.isnan(g.loc[("HR", "Ent"), "Jester"])
    # the thesis's 12 "always good" pairs: defined and non-zero on all six datasets
    good = g[(g.notna() & (g != 0)).all(axis=1)]
    assert sorted(good.index) == sorted((r, f) for r in ("P", "MAP", "R", "NDCG") for f in ("Jain", "Ent", "Gini"))
    # HR and MRR rows are printed identical
    assert g.xs("HR").equals(g.xs("MRR"))


def test_disagreement_all_datasets_row():
    d = thesis.paper4_disagreement()
    assert d.loc["All datasets"].tolist() == [13.89, 44.44, 29.17]
    assert d.loc["Lastfm", "all"] == pytest.approx(58.33)


def test_efficiency_percent_points_match_the_point_counts():
    e = thesis.paper4_efficiency()
    points = e.loc[("points", "PF")]
    assert int(points["Lastfm"]) == 4882
    assert (e.loc[("min tau", "Est. PF (12 pts)")] >= 0.9).all()


def test_part_iii_chapters_are_in_the_toc_after_part_ii():
    yaml = pytest.importorskip("yaml")
    toc = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))
    captions = [part["caption"] for part in toc["parts"]]
    i = captions.index("Part III: Joint evaluation with the Pareto frontier (Paper 4)")
    assert captions[i - 1].startswith("Part II:")
    files = [c["file"] for c in toc["parts"][i]["chapters"]]
    assert files == ["book/pareto/overview", "book/pareto/dpfr", "book/pareto/generation", "book/pareto/experiments"]
    labels = {"dpfr": "dpfr", "generation": "pareto-generation", "experiments": "pareto-experiments"}
    for name, label in labels.items():
        assert f"({label})=" in (ROOT / f"book/pareto/{name}.md").read_text(encoding="utf-8")
