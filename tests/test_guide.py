"""recfair.book.guide: the measure selector and the measure index agree with the registry records."""

from __future__ import annotations

from pathlib import Path

import pytest

from recfair import REGISTRY
from recfair.book.guide import HAS, KINDS, WANTS, chapter_doc, measure_index, recommend_measures

ROOT = Path(__file__).resolve().parents[1]


def test_every_measure_links_to_an_existing_chapter_that_defines_its_label():
    for name, spec in REGISTRY.items():
        path = ROOT / f"{chapter_doc(name)}.md"
        assert path.is_file(), (name, path)
        assert f"({spec.chapter})=" in path.read_text(encoding="utf-8"), (name, spec.chapter)


def test_measure_index_has_one_row_per_measure_with_a_myst_link():
    index = measure_index()
    assert index.index.tolist() == list(REGISTRY)
    for name, row in index.iterrows():
        assert row["chapter"] == f"{{ref}}`{REGISTRY[name].chapter}`"
        assert row["dir."] == REGISTRY[name].direction
    with pytest.raises(ValueError, match="link"):
        measure_index(link="html")


def test_without_relevance_only_the_measures_that_need_only_the_lists_fit():
    fit = recommend_measures(kind="any")
    assert set(fit.index) == {k for k, s in REGISTRY.items() if s.needs == ("top_k",)}


def test_a_full_ranking_is_what_ifd_div_ori_needs():
    without = recommend_measures(has=["relevance"], kind="relevance-aware")
    with_ranking = recommend_measures(has=["relevance", "ranking"], kind="relevance-aware")
    assert set(with_ranking.index) - set(without.index) == {"IFD_div_ori"}


def test_graded_relevance_rules_out_the_binary_only_measures_and_implies_relevance():
    fit = recommend_measures(has=["graded"], kind="any")
    needs_relevance = {k for k, s in REGISTRY.items() if "relevant" in s.needs and not s.graded}
    assert not set(fit.index) & needs_relevance
    assert {k for k, s in REGISTRY.items() if s.graded and s.needs == ("top_k", "relevant")} <= set(fit.index)


def test_realisable_range_keeps_corrected_versions_and_uses_paper3_for_grades():
    binary = recommend_measures(has=["relevance"], wants=["realisable_range"], kind="fairness")
    assert all(REGISTRY[k].version == "corrected" for k in binary.index)
    assert "IAA_our" in binary.index            # Paper 3: I1 holds for binary relevance
    graded = recommend_measures(has=["graded"], wants=["realisable_range"], kind="fairness")
    assert "IAA_our" not in graded.index
    explained = recommend_measures(has=["graded"], wants=["realisable_range"], explain=True)
    assert "binary relevance" in explained.loc["IAA_our", "why"] and not explained.loc["IAA_our", "fits"]
    assert "miss the ends" in explained.loc["IBO_our", "why"]    # Paper 3: I1 does not hold


def test_always_defined_and_per_user_follow_the_records():
    fit = recommend_measures(has=["relevance"], wants=["always_defined"], kind="any")
    assert "Ent_ori" not in fit.index and "R" not in fit.index and "IAA_ori" not in fit.index
    assert {"Jain_our", "Gini_ori", "HR"} <= set(fit.index)
    per_user = recommend_measures(has=["relevance"], wants=["per_user"], kind="any")
    assert all(REGISTRY[k].per_user is not None for k in per_user.index)


RUN_INPUTS = [name for name in HAS if name != "effectiveness"]


def test_explain_returns_every_measure_of_the_kind_with_a_reason():
    for has in (RUN_INPUTS, ["effectiveness", "similarity", "user_attributes"]):
        for kind, families in KINDS.items():
            frame = recommend_measures(has=has, wants=list(WANTS), kind=kind, explain=True)
            assert frame.index.tolist() == [k for k, s in REGISTRY.items() if s.family in families]
            assert frame["why"].str.len().gt(0).all()


def test_every_registered_measure_can_be_recommended():
    """The selector knows every part: each of the registry's measures fits some run."""
    binary = set(recommend_measures(has=[n for n in RUN_INPUTS if n != "graded"], kind="any").index)
    assert binary == set(REGISTRY)
    assert {"fairness", "item fairness", "joint evaluation", "user fairness"} <= set(KINDS)
    assert set(KINDS["any"]) == {s.family for s in REGISTRY.values()}


def test_the_default_wants_keep_dpfr_and_drop_only_superseded_originals():
    fit = recommend_measures(has=["relevance", "history", "ranking", "user_attributes", "item_groups", "item_features"],
                             wants=["corrected"], kind="fairness", explain=True)
    assert fit.loc["DPFR", "fits"]
    for name, row in fit.iterrows():
        if not row["fits"]:
            ours = name.replace("_ori", "_our")
            assert name.endswith("_ori") and ours in REGISTRY, name
            assert row["why"] == f"superseded by {ours}, its corrected version"


def test_no_advice_names_a_corrected_version_that_does_not_exist():
    frame = recommend_measures(has=RUN_INPUTS, wants=["realisable_range"], kind="any", explain=True)
    for name, why in frame["why"].items():
        if "corrected version" in why and "no corrected version" not in why:
            ours = name.replace("_ori", "_our")
            assert name.endswith("_ori") and ours in REGISTRY and REGISTRY[ours].version == "corrected", (name, why)
    for name in ("PUF", "SD_ind", "Gini_ind", "UF", "Atk_ind", "VoCD", "Atk_group"):
        assert "use the corrected" not in frame.loc[name, "why"]
        assert not frame.loc[name, "fits"]


def test_user_attributes_and_similarity_unlock_parts_four_and_five():
    without = recommend_measures(has=["relevance"], kind="user fairness")
    assert not {k for k, s in REGISTRY.items() if "user_attributes" in s.needs} & set(without.index)
    assert "PUF" not in without.index        # its similarity needs the history or a matrix
    with_groups = recommend_measures(has=["relevance", "user_attributes", "similarity"], kind="user fairness")
    assert {"PUF", "Atk_group", "Atk_within", "Gini_group"} <= set(with_groups.index)
    assert "UF" not in with_groups.index     # UF reads the history itself
    assert "UF" in recommend_measures(has=["relevance", "history"], kind="individual users").index


def test_effectiveness_only_gives_the_measures_computed_from_per_user_values():
    def hook(spec):
        return getattr(spec, "from_effectiveness", None) or getattr(spec, "from_scores", None)

    fit = recommend_measures(has=["effectiveness", "similarity", "user_attributes"], kind="any")
    assert set(fit.index) == {k for k, s in REGISTRY.items() if hook(s) is not None}
    assert "PUF" not in recommend_measures(has=["effectiveness"], kind="any").index
    with pytest.raises(ValueError, match="without lists"):
        recommend_measures(has=["effectiveness", "relevance"])


@pytest.mark.parametrize("kwargs, error", [
    ({"has": ["scores"]}, ValueError), ({"wants": ["fast"]}, ValueError), ({"kind": "user"}, ValueError),
    ({"has": 3}, TypeError), ({"explain": "yes"}, TypeError),
])
def test_bad_input_is_a_clear_error(kwargs, error):
    with pytest.raises(error):
        recommend_measures(**kwargs)
