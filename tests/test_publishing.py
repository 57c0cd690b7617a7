"""Publishing: the repository lives in _config.yml only, the workflow publishes what Colab opens, notebooks stay small."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
CONFIG = yaml.safe_load((ROOT / "_config.yml").read_text(encoding="utf-8"))
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import launch_links  # noqa: E402


def test_the_chapters_install_from_the_repository_named_in_config():
    app = SimpleNamespace(config=SimpleNamespace(html_theme_options={
        "repository_url": "https://github.com/someone/fork", "repository_branch": "dev"}))
    source = [f'%pip install --quiet "recfair[plot] @ {launch_links.UPSTREAM_INSTALL}"']
    launch_links._install_from_configured_repository(app, "book/x", source)
    assert source == ['%pip install --quiet "recfair[plot] @ git+https://github.com/someone/fork@dev"']


def test_every_install_cell_carries_the_spec_the_build_rewrites():
    specs = set()
    for path in list((ROOT / "book").rglob("*.md")) + list((ROOT / "notebooks").glob("*.ipynb")):
        specs |= set(re.findall(r"git\+https://github\.com/[\w.-]+/[\w.-]+@[\w./-]+", path.read_text(encoding="utf-8")))
    assert specs <= {launch_links.UPSTREAM_INSTALL}, f"install specs the build does not rewrite: {specs}"


def test_readme_leaves_the_repository_to_config_and_says_how_to_fork():
    """Outside the section that explains _config.yml's setting, README names no repository of its own."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Publish the book (and point it at a fork)")
    end = readme.index("\n## ", start + 1)
    outside = readme[:start] + readme[end:]
    # the classroom notebooks' launch links are the one exception: tests/test_exercises.py checks
    # that every one of them is the link _config.yml's repository gives
    lo = outside.index("## Classroom notebooks")
    hi = outside.index("\n## ", lo + 1)
    outside = outside[:lo] + outside[hi:]
    found = re.findall(r"https://(?:github\.com|mybinder\.org/v2/gh)/([\w.-]+/[\w.-]+)", outside)
    assert not found, f"README hard-codes repositories {found}: point at _config.yml's repository.url instead"
    section = readme[start:end]
    assert "repository:" in section and "url:" in section and ".github/workflows/book.yml" in section


def test_the_workflow_builds_checks_and_publishes_the_colab_branch():
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "book.yml").read_text(encoding="utf-8"))
    steps = workflow["jobs"]["book"]["steps"]
    runs = " ".join(step.get("run", "") for step in steps)
    assert "jupyter-book build . -W -n --keep-going" in runs
    assert "python -m pytest" in runs and ".ci/browser_check.py" in runs
    publish = [step for step in steps if "actions-gh-pages" in step.get("uses", "")]
    assert len(publish) == 1 and publish[0]["with"]["publish_dir"] == "_build/html"
    assert "pages_branch" in publish[0]["with"]["publish_branch"]      # read from _config.yml
    assert CONFIG["sphinx"]["config"]["recfair_colab_notebooks"]["branch"] == "gh-pages"


def test_published_notebooks_keep_only_each_explorers_start_output(monkeypatch):
    monkeypatch.setenv("RECFAIR_WIDGETS", "static")
    from recfair.book import widgets

    view = widgets.explore(lambda n, show: f"<b>n = {n}</b>" if show else "hidden",
                           n=widgets.slider([10, 20, 30], value=20), show=widgets.toggle(value=True))
    html = view._repr_html_()
    notebook = {"metadata": {"widgets": {"state": {"x": 1}}}, "cells": [
        {"cell_type": "code", "outputs": [{"output_type": "display_data",
                                           "data": {"text/html": [html], "text/plain": [repr(view)]}}]}]}
    assert launch_links.slim_notebook(notebook)
    data = notebook["cells"][0]["outputs"][0]["data"]
    assert "widgets" not in notebook["metadata"]
    assert "n = 20" in data["text/html"] and "n = 10" not in data["text/html"] and "n = 30" not in data["text/html"]
    assert len(data["text/html"]) < len(html) / 2
    assert not launch_links.slim_notebook(json.loads(json.dumps(notebook)))   # nothing left to slim


@pytest.mark.parametrize("entry", ["book/start/choose", "book/item_exposure/overview"])
def test_built_colab_notebooks_are_small(entry):
    notebook = ROOT / "_build" / "html" / "_sources" / f"{entry}.ipynb"
    if not notebook.is_file():
        pytest.skip("the book is not built")
    assert notebook.stat().st_size < 1_500_000, f"{notebook} is {notebook.stat().st_size / 1e6:.1f} MB"


def test_outputs_come_back_from_the_execution_cache(tmp_path):
    """A cache hit leaves MyST-NB's written notebook without outputs; the build merges them back."""
    nbformat = pytest.importorskip("nbformat")
    jupyter_cache = pytest.importorskip("jupyter_cache")

    executed = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(1)", outputs=[
        nbformat.v4.new_output("stream", name="stdout", text="1\n")])])
    executed.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    cache = jupyter_cache.get_cache(str(tmp_path / "cache"))
    cache.cache_notebook_bundle(__import__("jupyter_cache.base").base.CacheBundleIn(executed, "x.ipynb"), check_validity=False)
    written = json.loads(nbformat.writes(executed))
    written["cells"][0]["outputs"] = []
    assert launch_links.outputs_from_cache(written, tmp_path / "cache")
    assert "".join(written["cells"][0]["outputs"][0]["text"]) == "1\n"
    assert not launch_links.outputs_from_cache(written, tmp_path / "cache")          # has outputs now
    assert not launch_links.outputs_from_cache({"cells": []}, tmp_path / "missing")


def test_no_chapter_carries_a_magic_masked_by_a_formatter():
    # a code formatter once turned `%matplotlib inline` into a comment, "# MAGIC%matplotlib inline",
    # which the pages then showed and the kernel never ran
    masked = [f"{path.relative_to(ROOT)}:{number}"
              for path in sorted((ROOT / "book").rglob("*.md"))
              for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
              if re.match(r"\s*#\s*MAGIC", line)]
    assert masked == []


def test_one_one_week_plan_linked_from_the_front_page_with_own_runs():
    labels = [path for path in (ROOT / "book").rglob("*.md")
              if "(one-week-plan)=" in path.read_text(encoding="utf-8")]
    assert [p.relative_to(ROOT).as_posix() for p in labels] == ["book/start/teaching.md"]
    front = (ROOT / "book" / "index.md").read_text(encoding="utf-8")
    assert "{ref}`one-week-plan`" in front and "{ref}`own-runs`" in front
    how_to = (ROOT / "book" / "start" / "how-to-use.md").read_text(encoding="utf-8")
    assert "{ref}`one-week-plan`" in how_to and "| day |" not in how_to      # linked, not a second plan
