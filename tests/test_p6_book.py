"""Part V's derivations and thesis numbers: the sympy identities agree with the library."""

from __future__ import annotations

import numpy as np
import pytest

from recfair.book import thesis
from recfair.groups import derivations as gd
from recfair.groups import atkinson_decomposition, cv_group, gce_group, mad_group


@pytest.mark.parametrize("n_groups", [1, 2, 4])
def test_atkinson_identity_holds_symbolically(n_groups):
    assert gd.atkinson_identity(n_groups).holds


def test_atkinson_identity_rejects_bad_sizes():
    with pytest.raises(ValueError):
        gd.atkinson_identity(0)


def test_atkinson_identity_matches_the_library_numerically():
    rng = np.random.default_rng(6)
    x = rng.random(200) * (rng.random(200) > 0.3)
    g = rng.integers(0, 7, 200)
    d = atkinson_decomposition(x, groups=g)
    assert abs(d.residual) < 1e-12


def test_mad_printed_factor_is_half():
    assert gd.mad_factor().holds
    x, g = [0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], [0] * 3 + [1] * 4 + [2] * 3
    assert round(mad_group(x, groups=g), 4) == 0.15


@pytest.mark.parametrize("k", [2, 3, 7])
def test_cv_maximum_is_reached_by_one_group_at_one(k):
    assert gd.cv_maximum().holds
    x = [1.0] + [0.0] * (k - 1)
    assert cv_group(x, groups=list(range(k))) == pytest.approx(np.sqrt(k - 1))


def test_gce_zero_group_term_matches_library():
    d = gd.gce_zero_group()
    assert d.holds
    # two groups: one at 0, one at 0.5; p = (0, 1), p_hat = (5e-6, 0.95 + 5e-6)
    value = gce_group([0.0, 0.5], groups=[0, 1])
    p_hat = np.array([0.05 * 1e-4, 0.95 + 0.05 * 1e-4])
    tilde = p_hat / p_hat.sum()
    assert value == pytest.approx(0.5 * (np.sum(1 / (4 * tilde)) - 1))
    zero_term = float(d.result.rhs.subs({gd.sp.Symbol("S", positive=True): p_hat.sum(), gd.Np: 2}))
    assert zero_term == pytest.approx(1 / (2 * 4 * tilde[0]))


def test_paper6_thesis_tables():
    table = thesis.paper6_results()
    assert table.shape == (16, 8)
    assert thesis.paper6_results("P").loc[("Eff", "P"), "GLM NS"] == 0.082
    with pytest.raises(ValueError):
        thesis.paper6_results("MRR")
    with pytest.raises(ValueError, match="dataset"):
        thesis.paper6_results(dataset="ML-100K")
    for dataset in ("JobRec", "LFM-1B"):
        for base in ("NDCG", "P"):
            assert thesis.paper6_results(base, dataset=dataset).shape == (16, 8)
    assert thesis.paper6_results("P", dataset="JobRec").loc[("Grp", "Min")].eq(0).all()


@pytest.mark.parametrize("dataset", ["ML-1M", "JobRec", "LFM-1B"])
def test_paper6_gce_counts_zero_groups(dataset):
    """Every printed GCE above 1 is a whole number of zero-effectiveness groups' terms."""
    table = thesis.paper6_results(dataset=dataset)
    n_groups = table.attrs["n_groups"]
    term = float(gd.gce_zero_group().result.rhs.subs(
        {gd.sp.Symbol("S", positive=True): 0.95 + n_groups * 0.05e-4, gd.Np: n_groups}))
    gce = table.loc[("Grp", "GCE")]
    zeros = (gce[gce > 1] / term).to_numpy()
    assert np.allclose(zeros, np.round(zeros), atol=0.01)
    assert int(thesis.paper6_ml1m_groups()["users"].sum()) == 620
    teaser = thesis.paper6_teaser()
    assert teaser.loc["Group 1", "users"] + teaser.loc["Group 2", "users"] == teaser.loc["Individual", "users"]


def test_part5_chapters_are_last_numbered_part_and_define_the_registry_labels():
    from pathlib import Path

    import yaml

    from recfair import REGISTRY
    from recfair.book.guide import chapter_doc

    root = Path(__file__).resolve().parents[1]
    toc = yaml.safe_load((root / "_toc.yml").read_text(encoding="utf-8"))
    captions = [p["caption"] for p in toc["parts"]]
    assert captions[-1] == "Back matter"
    numbered = [p for p in toc["parts"] if p["caption"].startswith("Part ")]
    part5 = next(p for p in numbered if p["caption"].startswith("Part V:"))   # Part VI follows it
    assert numbered.index(part5) == len(numbered) - 2 and numbered[-1]["caption"].startswith("Part VI:")
    files = [c["file"] for c in part5["chapters"]]
    assert files == ["book/groups/overview", "book/groups/user-groups", "book/groups/user-decomposition",
                     "book/groups/experiments"]
    for name, spec in REGISTRY.items():
        if spec.family == "groups":
            text = (root / f"{chapter_doc(name)}.md").read_text(encoding="utf-8")
            assert f"({spec.chapter})=" in text


def _page(name: str) -> str:
    from pathlib import Path

    path = Path(__file__).resolve().parents[1] / "book" / "groups" / f"{name}.md"
    return " ".join(path.read_text(encoding="utf-8").split())


def test_findings_table_holds_only_statements_of_the_thesis():
    text = _page("experiments")
    findings = text.split("findings = [")[1].split("findings_table(findings)")[0]
    assert "GCE explodes" not in findings          # the thesis's text never states it
    assert "not a statement of the thesis" in text


def test_deviations_from_the_thesis_text_are_named_and_measured():
    text = _page("experiments")
    assert "levels 4 and 5" in text and "$\\le t$" in text and "$t = 5$" in text
    assert '"min_user_train": 6' in text and '"threshold": 4' in text


def test_part5_tau_heatmap_uses_the_book_convention():
    text = _page("experiments")
    assert "tau_heatmap(agreement" in text and "imshow" not in text
