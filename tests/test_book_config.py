"""The book's configuration: the table of contents, chapter headers, and _config.yml.

These checks are fast and need no build; building the book (`jupyter-book build . -W -n
--keep-going`) is what executes the chapters.
"""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path

import pytest

yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[1]
CHAPTER_SUFFIXES = (".md", ".ipynb")


def load_yaml(name: str) -> dict:
    return yaml.safe_load((ROOT / name).read_text(encoding="utf-8"))


def toc_files(node) -> list[str]:
    """Every ``root``/``file`` entry of the table of contents, in order."""
    found = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("root", "file") and isinstance(value, str):
                found.append(value)
            else:
                found.extend(toc_files(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(toc_files(item))
    return found


def chapter_path(entry: str) -> Path:
    """The one file a toc entry (given without suffix) points at."""
    matches = [ROOT / f"{entry}{suffix}" for suffix in CHAPTER_SUFFIXES if (ROOT / f"{entry}{suffix}").is_file()]
    assert len(matches) == 1, f"toc entry {entry!r} matches {len(matches)} files: {matches}"
    return matches[0]


TOC = load_yaml("_toc.yml")
CONFIG = load_yaml("_config.yml")
CHAPTERS = [chapter_path(entry) for entry in toc_files(TOC)]


def test_toc_is_a_book_with_captioned_numbered_parts():
    assert TOC["format"] == "jb-book"
    assert TOC["root"] == "book/index"
    parts = TOC["parts"]
    assert parts, "the toc has no parts"
    for part in parts:
        assert part.get("caption"), f"a part has no caption: {part}"
        assert part.get("chapters"), f"part {part['caption']!r} has no chapters"
    assert parts[0]["caption"] == "Start here"
    foundations = next(part for part in parts if part["caption"] == "Foundations")
    assert foundations.get("numbered") is True


def test_toc_lists_only_existing_files_once():
    entries = toc_files(TOC)
    assert len(entries) == len(set(entries)), "a file appears twice in _toc.yml"
    for entry in entries:
        assert not entry.endswith(CHAPTER_SUFFIXES), f"give {entry!r} without its suffix"
        chapter_path(entry)


@pytest.mark.parametrize("path", CHAPTERS, ids=lambda p: str(p.relative_to(ROOT)))
def test_chapter_is_a_notebook_with_the_python3_kernel(path):
    if path.suffix == ".ipynb":
        kernelspec = json.loads(path.read_text(encoding="utf-8"))["metadata"]["kernelspec"]
        assert kernelspec["name"] == "python3"
        return
    text = path.read_text(encoding="utf-8")
    match = re.match(r"---\n(.*?)\n---\n", text, flags=re.S)
    assert match, f"{path.name} does not start with the jupytext YAML header"
    header = yaml.safe_load(match.group(1))
    representation = header["jupytext"]["text_representation"]
    assert representation["extension"] == ".md"
    assert representation["format_name"] == "myst"
    assert str(representation["format_version"]) == "0.13"
    assert header["kernelspec"] == {
        "display_name": "Python 3 (ipykernel)",
        "language": "python",
        "name": "python3",
    }


def test_config_builds_only_the_toc_and_executes_with_a_cache():
    assert CONFIG["only_build_toc_files"] is True
    execute = CONFIG["execute"]
    assert execute["execute_notebooks"] == "cache"
    assert execute["allow_errors"] is False
    assert execute["timeout"] >= 300
    for pattern in ("tests", "recfair", "benchmarks", "_build", ".venv", "README.md", "**/.ipynb_checkpoints"):
        assert pattern in CONFIG["exclude_patterns"], pattern


def test_config_points_launch_buttons_at_the_main_branch():
    repository = CONFIG["repository"]
    assert repository["url"].startswith("https://github.com/")
    assert repository["branch"] == "main"
    assert repository["path_to_book"] == ""
    buttons = CONFIG["launch_buttons"]
    assert buttons["binderhub_url"] == "https://mybinder.org"
    assert buttons["notebook_interface"] == "jupyterlab"
    assert buttons["colab_url"] == "https://colab.research.google.com"
    assert buttons["thebe"] is True


def test_colab_opens_the_published_executed_notebooks():
    """Colab opens only .ipynb files: the Markdown chapters' links go to the published notebooks."""
    sphinx = CONFIG["sphinx"]
    assert "launch_links" in sphinx["extra_extensions"]
    assert (ROOT / sphinx["local_extensions"]["page_fixes"] / "launch_links.py").is_file()
    target = sphinx["config"]["recfair_colab_notebooks"]
    assert target == {"branch": "gh-pages", "folder": "_sources"}
    pytest.importorskip("sphinx")
    spec = importlib.util.spec_from_file_location("launch_links", ROOT / "book/_ext/launch_links.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    url = module.colab_url(CONFIG["launch_buttons"]["colab_url"], "recfair", "recfair", target["branch"],
                           target["folder"], "book/foundations/fairness")
    assert url == ("https://colab.research.google.com/github/recfair/recfair/blob/gh-pages/"
                   "_sources/book/foundations/fairness.ipynb")


def test_binder_installs_recfair_and_opens_markdown_chapters_as_notebooks():
    binder = ROOT / "binder"
    requirements = (binder / "requirements.txt").read_text(encoding="utf-8")
    # a slim set of its own (tests/test_exercises.py checks it against pyproject and the pins), not the whole stack
    assert "-r ../requirements.txt" not in requirements.splitlines()
    post_build = (binder / "postBuild").read_text(encoding="utf-8")
    assert post_build.startswith("#!/bin/bash")
    assert 'pip install --no-cache-dir -e ".[plot,widgets,symbolic,recommenders]"' in post_build
    assert "jupytext-config set-default-viewer markdown myst" in post_build
    assert (binder / "postBuild").stat().st_mode & 0o111, "binder/postBuild must be executable"
    root_requirements = (ROOT / "requirements.txt").read_text(encoding="utf-8")
    assert re.search(r"^jupytext==", root_requirements, flags=re.M), "Binder needs jupytext to open .md"


def test_config_enables_the_myst_and_sphinx_extensions():
    assert {"dollarmath", "amsmath", "colon_fence"} <= set(CONFIG["parse"]["myst_enable_extensions"])
    sphinx = CONFIG["sphinx"]
    assert {"sphinx_proof", "sphinx_exercise", "sphinx_togglebutton"} <= set(sphinx["extra_extensions"])
    assert sphinx["config"]["exercise_style"] == "solution_follow_exercise"
    assert "topk" in sphinx["config"]["mathjax3_config"]["tex"]["macros"]


def test_mathjax_is_served_from_the_build():
    sphinx = CONFIG["sphinx"]
    assert "sphinx-mathjax-offline" in sphinx["extra_extensions"]
    assert "mathjax_path" not in sphinx["config"], "mathjax_path would override the offline copy"


def test_widget_scripts_are_local_and_vendored_by_the_extension(monkeypatch):
    sphinx = CONFIG["sphinx"]
    ext_dir = ROOT / sphinx["local_extensions"]["offline_widgets"]
    module_file = ext_dir / "offline_widgets.py"
    assert module_file.is_file()

    widgets_js = sphinx["config"]["nb_ipywidgets_js"]
    assert all("://" not in key for key in widgets_js), "a widget script is loaded from the network"
    names = [key.rsplit("/", 1)[-1] for key in widgets_js]
    assert names == ["require.js", "embed-amd.js"], "require.js must load before the html-manager"
    manager = widgets_js[next(key for key in widgets_js if key.endswith("embed-amd.js"))]
    assert manager["data-jupyter-widgets-cdn-only"] == "true"
    assert "://" not in manager["data-jupyter-widgets-cdn"]
    assert all("crossorigin" not in attributes for attributes in widgets_js.values())

    overrides = sphinx["config"]["nb_mime_priority_overrides"]
    assert ["html", "application/vnd.jupyter.widget-view+json", 1] in overrides

    pytest.importorskip("sphinx")
    spec = importlib.util.spec_from_file_location("offline_widgets", module_file)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "offline_widgets", module)  # dataclasses look it up
    spec.loader.exec_module(module)
    parsed = [module.VendoredFile.from_key(key) for key in widgets_js]
    assert [(f.package, f.version, f.path) for f in parsed] == [
        ("requirejs", "2.3.7", "require.js"),
        ("@jupyter-widgets/html-manager", "1.0.6", "dist/embed-amd.js"),
    ]
    with pytest.raises(Exception, match="URL"):
        module.VendoredFile.from_key("https://cdn.example/x@1/dist/a.js")


def test_every_citation_is_in_the_bibliography():
    bib_files = [ROOT / name for name in CONFIG.get("bibtex_bibfiles", [])]
    keys = set()
    for bib in bib_files:
        keys |= set(re.findall(r"@\w+\{([^,\s]+),", bib.read_text(encoding="utf-8")))
    cited = set()
    for path in CHAPTERS:
        for group in re.findall(r"\{cite(?::\w+)?\}`([^`]+)`", path.read_text(encoding="utf-8")):
            cited |= {key.strip() for key in group.split(",")}
    if cited:
        assert bib_files, "chapters cite, but _config.yml lists no bibtex_bibfiles"
    assert cited <= keys, f"cited but not in the bibliography: {sorted(cited - keys)}"


# --------------------------------------------------------------------------- chapter conventions

INSTALL_CELL = """```{code-cell} ipython3
:tags: [remove-cell]

# Runs this chapter in a bare kernel (Colab, a fresh Binder): install recfair where it is missing.
import importlib.util

if importlib.util.find_spec("recfair") is None:
    %pip install --quiet "recfair[plot,widgets,symbolic,recommenders] @ git+https://github.com/recfair/recfair@main"
```"""

#: Pages without code: no install cell.
NO_CODE = {"book/index", "book/references", "book/start/glossary", "book/start/how-to-use"}
#: Pages that are not chapters to study: no objectives admonition.
NO_OBJECTIVES = {"book/index", "book/references", "book/start/glossary"}
ENTRIES = toc_files(TOC)


def cells(path: Path) -> list[tuple[str, str]]:
    """(kind, source) of every cell: "code" or "markdown", in order."""
    if path.suffix == ".ipynb":
        notebook = json.loads(path.read_text(encoding="utf-8"))
        return [(c["cell_type"], "".join(c["source"]), c.get("metadata", {})) for c in notebook["cells"]]
    text = path.read_text(encoding="utf-8")
    text = re.sub(r"\A---\n.*?\n---\n", "", text, flags=re.S)
    out, pos = [], 0
    for match in re.finditer(r"^```\{code-cell\}[^\n]*\n.*?^```$", text, flags=re.S | re.M):
        out.append(("markdown", text[pos:match.start()], {}))
        out.append(("code", match.group(0), {}))
        pos = match.end()
    out.append(("markdown", text[pos:], {}))
    return out


def install_cell_source() -> str:
    """The install cell's code, without the MyST fence and tag lines."""
    return INSTALL_CELL.split("\n\n", 1)[1].rsplit("\n```", 1)[0]


@pytest.mark.parametrize("entry", ENTRIES)
def test_chapter_starts_with_the_install_cell(entry):
    path = chapter_path(entry)
    code = [(source, meta) for kind, source, meta in cells(path) if kind == "code"]
    if entry in NO_CODE:
        assert not code, f"{entry} has code: give it the install cell and take it off NO_CODE"
        return
    assert code, f"{entry} has no code cell"
    first, meta = code[0]
    if path.suffix == ".ipynb":
        assert first == install_cell_source(), f"{entry}: the first code cell is not the install cell"
        assert "remove-cell" in meta.get("tags", []), f"{entry}: the install cell needs the remove-cell tag"
    else:
        assert first == INSTALL_CELL, f"{entry}: the first code cell is not the install cell (verbatim)"


@pytest.mark.parametrize("entry", ENTRIES)
def test_chapter_states_objectives_right_after_its_title(entry):
    if entry in NO_OBJECTIVES:
        return
    path = chapter_path(entry)
    text = "\n".join(source for kind, source, _ in cells(path) if kind == "markdown")
    match = re.search(r"^# [^\n]+\n+(.*)", text, flags=re.M | re.S)
    assert match, f"{entry} has no '# Title' line"
    after = match.group(1)
    assert after.startswith("```{admonition} Objectives and prerequisites\n:class: note\n\nAfter this chapter you can:\n- "), (
        f"{entry}: the objectives admonition must follow the title")
    block = after.split("\n```", 1)[0]
    objectives = re.findall(r"^- ", block, flags=re.M)
    assert 2 <= len(objectives) <= 4, f"{entry}: give 2-4 objectives, found {len(objectives)}"
    assert "\n**Prerequisites:** " in block, f"{entry}: the admonition names no prerequisites"
    headings = re.findall(r"^#{1,6} .*", after, flags=re.M)
    assert not headings or after.index(headings[0]) > len(block), f"{entry}: a heading precedes the objectives"


def test_headings_are_not_numbered_by_hand():
    for entry in ENTRIES:
        text = "\n".join(source for kind, source, _ in cells(chapter_path(entry)) if kind == "markdown")
        numbered = re.findall(r"^#{1,6} \d+(?:\.\d+)*\.? ", text, flags=re.M)
        assert not numbered, f"{entry}: the book numbers headings itself, drop {numbered}"


def test_built_chapters_have_binder_and_colab_links():
    """After a build: every chapter page launches on Binder (its source) and Colab (a notebook)."""
    html_dir = ROOT / "_build" / "html"
    if not (html_dir / "genindex.html").is_file():
        pytest.skip("the book is not built")
    repo = CONFIG["repository"]["url"].split("github.com/")[1].strip("/")
    target = CONFIG["sphinx"]["config"]["recfair_colab_notebooks"]
    for entry, path in zip(ENTRIES, CHAPTERS):
        page = html_dir / f"{entry}.html"
        if entry in NO_CODE or not page.is_file():
            continue
        text = page.read_text(encoding="utf-8")
        binder = f"https://mybinder.org/v2/gh/{repo}/main?urlpath=lab/tree/{entry}{path.suffix}"
        assert f'href="{binder}"' in text, f"{entry}: no Binder link to {binder}"
        if path.suffix == ".ipynb":
            colab = f"https://colab.research.google.com/github/{repo}/blob/main/{entry}.ipynb"
        else:
            colab = (f"https://colab.research.google.com/github/{repo}/blob/{target['branch']}/"
                     f"{target['folder']}/{entry}.ipynb")
            assert (html_dir / target["folder"] / f"{entry}.ipynb").is_file(), f"{entry}: no published notebook"
        assert f'href="{colab}"' in text, f"{entry}: no Colab link to {colab}"


def test_no_raw_label_proof_index_and_a_glossary_for_the_general_index():
    # sphinx-proof's domain index lists raw labels (no titles): the book does not generate it
    assert CONFIG["sphinx"]["config"]["html_domain_indices"] is False
    glossary = chapter_path("book/start/glossary").read_text(encoding="utf-8")
    assert "```{glossary}" in glossary
