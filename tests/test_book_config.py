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
    assert parts[0]["caption"] == "Foundations" and parts[0].get("numbered") is True


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
