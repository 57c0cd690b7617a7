"""The book's front door follows the library and the table of contents, so it cannot go stale.

The measure index shows every registry record, part by part; the glossary has an entry for every
measure symbol of the registry and for the terms the parts use; no page calls a built part
"coming"; every part opens with an overview chapter; the reading paths cover every part; the
selector page offers every input the registry knows.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from recfair import REGISTRY
from recfair.book.guide import HAS, KINDS, measure_index
from recfair.registry import PARTS

ROOT = Path(__file__).resolve().parents[1]
TOC = yaml.safe_load((ROOT / "_toc.yml").read_text(encoding="utf-8"))


def page(entry: str) -> str:
    for suffix in (".md", ".ipynb"):
        path = ROOT / f"{entry}{suffix}"
        if path.is_file():
            return path.read_text(encoding="utf-8")
    raise FileNotFoundError(entry)


def toc_parts() -> list[dict]:
    return TOC["parts"]


def toc_entries() -> list[str]:
    return [TOC["root"]] + [c["file"] for part in toc_parts() for c in part["chapters"]]


def labels(entry: str) -> list[str]:
    return re.findall(r"^\(([\w-]+)\)=\s*$", page(entry), flags=re.M)


def glossary_terms() -> set[str]:
    text = page("book/start/glossary")
    block = re.search(r"```\{glossary\}\n(.*?)\n```", text, flags=re.S).group(1)
    return {line.strip() for line in block.splitlines()
            if line.strip() and not line.startswith((" ", "\t", ":"))}


def symbol_name(symbol: str) -> str:
    """The short name of a registry symbol: ``\\mathrm{Gini\\text{-}w}_{\\mathrm{ori}}`` -> ``Gini-w``."""
    text = re.sub(r"\\text\{([^}]*)\}", r"\1", symbol)
    text = re.sub(r"\\mathrm\{([^{}]*)\}", r"\1", text)
    text = re.sub(r"\\mathrm\{([^{}]*)\}", r"\1", text)
    return re.split(r"[_^@]", text)[0].replace("\\", "").strip()


# --------------------------------------------------------------------------- the measure index

def test_the_measure_index_shows_every_part_of_the_registry():
    text = page("book/start/measures")
    for part in set(PARTS.values()):
        assert f"```{{glue:}} index-{part}\n```" in text, f"the measure index does not show part {part}"
    index = measure_index()
    shown = set()
    for part in set(PARTS.values()):
        shown |= set(index[index["part"] == part].index)
    assert shown == set(REGISTRY), f"records on no part's table: {sorted(set(REGISTRY) - shown)}"


def test_symbol_names_are_parsed():
    assert symbol_name(r"\mathrm{Gini\text{-}w}_{\mathrm{ori}}") == "Gini-w"
    assert symbol_name(r"\mathrm{NDCG@}k") == "NDCG"
    assert symbol_name(r"\mathrm{Atk}_{\mathrm{group}}") == "Atk"
    assert symbol_name("F") == "F"


# --------------------------------------------------------------------------- the glossary

def test_the_glossary_has_an_entry_for_every_registry_symbol():
    terms = glossary_terms()
    missing = sorted({symbol_name(spec.symbol) for spec in REGISTRY.values()} - terms)
    assert not missing, f"registry symbols without a glossary entry: {missing}"


@pytest.mark.parametrize("term", [
    "Atkinson index", "EDE", "envy", "UF", "between-group", "within-group", "DPFR", "PUF", "Pareto frontier",
    "individual fairness", "group fairness", "user fairness", "similarity", "Oracle2Fair", "joint evaluation",
])
def test_the_glossary_defines_the_terms_of_parts_three_to_five(term):
    assert term in glossary_terms()


def test_no_glossary_entry_is_coming():
    assert not re.search(r"\bcoming\b", page("book/start/glossary"), flags=re.I)


# --------------------------------------------------------------------------- parts and pages

@pytest.mark.parametrize("entry", toc_entries())
def test_no_page_says_a_built_part_is_coming(entry):
    text = page(entry)
    for phrase in (r"\bcoming\b", r"as they are added", r"not yet written", r"when their chapters are written"):
        found = re.search(phrase, text, flags=re.I)
        assert not found, f"{entry}: '{found.group(0)}' though every part is in _toc.yml"


@pytest.mark.parametrize("part", [p for p in toc_parts() if p["caption"].startswith("Part ")],
                         ids=lambda p: p["caption"].split(":")[0])
def test_every_part_opens_with_an_overview_from_the_registry(part):
    first = part["chapters"][0]["file"]
    assert first.endswith("/overview"), f"{part['caption']}: the first chapter is {first}, not an overview"
    text = page(first)
    assert "Objectives and prerequisites" in text
    assert "## Reading order" in text or "## Overview" in text
    folder = first.split("/")[1]
    family = {"foundations": "relevance"}.get(folder, folder)
    if family in PARTS and PARTS[family] in ("III", "IV", "V"):
        assert f'rf.registry.table("{family}")' in text, f"{first} does not read its measures from the registry"
        for chapter in part["chapters"][1:]:
            assert f"{{doc}}`{chapter['file'].split('/')[-1]}`" in text, f"{first} does not connect {chapter['file']}"


def test_the_one_week_course_and_the_thesis_table_cover_every_part():
    text = page("book/start/how-to-use")
    # the one-week course lives once, in teaching (generated there from every chapter of _toc.yml)
    course = text[text.index("### A one-week course"):text.index("### A researcher")]
    assert "{ref}`one-week-plan`" in course
    assert 'gen.course_plan(book, 5)' in page("book/start/teaching")
    thesis = text[text.index("### A reader of the thesis"):text.index("## How to run a chapter")]
    for part in toc_parts():
        if not part["caption"].startswith("Part "):
            continue
        chapter_labels = {label for chapter in part["chapters"] for label in labels(chapter["file"])}
        assert any(f"{{ref}}`{label}`" in thesis for label in chapter_labels), \
            f"the thesis table does not reach {part['caption']}"


def test_the_landing_page_presents_every_part():
    text = page("book/index")
    for part in toc_parts():
        if part["caption"].startswith("Part "):
            overview = part["chapters"][0]["file"]
            assert f"{{ref}}`{labels(overview)[0]}`" in text, f"book/index does not present {part['caption']}"


# --------------------------------------------------------------------------- the selector page

def test_the_selector_page_offers_every_input_and_kind_of_measure():
    text = page("book/start/choose")
    needed = {need for spec in REGISTRY.values() for need in spec.needs} - {"top_k", "relevant", "scores"}
    offered = {"ranking", "history", "user_attributes", "graded", "relevance", "effectiveness", "similarity",
               "item_groups"}
    assert needed - {"item_features", "rounds"} <= offered <= set(HAS)
    for key in offered:
        assert f'"{key}"' in text, f"the selector offers no run with {key!r}"
    for kind in ("fairness", "item fairness", "joint evaluation", "individual users", "user groups"):
        assert kind in KINDS and f'"{kind}"' in text
    assert "use the corrected version" not in text


def test_the_phone_table_of_contents_fix_is_loaded_on_every_page():
    config = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))["sphinx"]["config"]
    assert "recfair.js" in config["html_js_files"] and "book/_static" in config["html_static_path"]
    script = (ROOT / "book" / "_static" / "recfair.js").read_text(encoding="utf-8")
    assert 'forwardToggles("primary")' in script and 'forwardToggles("secondary")' in script
