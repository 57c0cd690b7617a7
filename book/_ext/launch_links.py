"""Launch links, install cells and published notebooks that follow the repository named in ``_config.yml``.

**The repository in one place.** ``repository.url`` and ``repository.branch`` of ``_config.yml``
(which Jupyter Book passes to the theme as ``repository_url`` / ``repository_branch``) drive the
repository button, the Binder, Colab and Thebe launch buttons, and, through this extension, the
install cell of every chapter: the chapters carry the upstream install spec
(:data:`UPSTREAM_INSTALL`, so that a chapter opened on its own still installs recfair), and
``source-read`` replaces it with the configured repository before the chapter is executed. A
fork changes ``_config.yml`` only.

**Small notebooks for Colab.** The executed notebooks that the Colab links open
(``_build/html/_sources/<page>.ipynb``) would carry every precomputed position of every explorer
(megabytes of figures a reader running the notebook does not need). ``build-finished`` keeps, for
each explorer, only its output at the start position with a note, and drops embedded widget
states.

**Colab launch links** that open a runnable notebook for every chapter.

The chapters are MyST Markdown files (jupytext), which Colab cannot open: it opens only
``.ipynb`` files from GitHub. The build writes each chapter's executed notebook to
``_build/html/_sources/<page>.ipynb`` (the page's download button), and the published book
(``ghp-import -n -p -f _build/html``) puts that folder on the ``gh-pages`` branch. This extension
points the Colab launch button of every Markdown chapter at that notebook:

    https://colab.research.google.com/github/<org>/<repo>/blob/<branch>/<folder>/<page>.ipynb

with ``branch`` and ``folder`` from the Sphinx setting ``recfair_colab_notebooks`` (set in
``_config.yml``). Chapters that are notebooks already (``.ipynb`` in the repository) keep the
theme's link to the repository's own file. Binder keeps the theme's link to the ``.md`` file on
the main branch: ``binder/postBuild`` makes JupyterLab open it as a notebook.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from sphinx.util import logging

LOGGER = logging.getLogger(__name__)


def colab_url(colab: str, org: str, repo: str, branch: str, folder: str, pagename: str) -> str:
    """The Colab URL of the published notebook of page ``pagename``.

    >>> colab_url("https://colab.research.google.com", "o", "r", "gh-pages", "_sources", "book/x")
    'https://colab.research.google.com/github/o/r/blob/gh-pages/_sources/book/x.ipynb'
    """
    path = "/".join(part for part in (folder.strip("/"), f"{pagename}.ipynb") if part)
    return f"{colab.rstrip('/')}/github/{org}/{repo}/blob/{branch}/{path}"


def _retarget(app, pagename, templatename, context, doctree):
    if not str(context.get("sourcename", "")).endswith((".md", ".md.txt")):
        return
    settings = app.config.recfair_colab_notebooks or {}
    if not settings:
        return
    theme = app.config.html_theme_options
    colab = theme.get("launch_buttons", {}).get("colab_url", "")
    repo_url = theme.get("repository_url", "")
    if not colab or "github.com/" not in repo_url:
        return
    org, repo = repo_url.split("github.com/")[-1].strip("/").split("/")[:2]
    for group in context.get("header_buttons", []):
        for button in group.get("buttons", []) if isinstance(group, dict) else []:
            if button.get("text") == "Colab":
                button["url"] = colab_url(colab, org, repo, settings["branch"], settings.get("folder", ""),
                                          pagename)


#: The install spec the chapters carry (the upstream repository); the build swaps in the configured one.
UPSTREAM_INSTALL = "git+https://github.com/recfair/recfair@main"
#: What a Colab notebook shows instead of an explorer's precomputed positions.
EXPLORER_NOTE = ('<p><em>Interactive explorer: run this cell for live controls. Shown: its output at the '
                 'start position (the online book precomputes every position).</em></p>')


def install_spec(repository_url: str, branch: str = "main") -> str:
    """The pip spec that installs recfair from ``repository_url`` at ``branch``.

    >>> install_spec("https://github.com/someone/recfair/", "dev")
    'git+https://github.com/someone/recfair@dev'
    """
    return f"git+{repository_url.rstrip('/')}@{branch or 'main'}"


def _install_from_configured_repository(app, docname, source):
    theme = app.config.html_theme_options or {}
    url = theme.get("repository_url", "")
    if not url:
        return
    wanted = install_spec(url, theme.get("repository_branch", "main"))
    if wanted != UPSTREAM_INSTALL:
        source[0] = source[0].replace(UPSTREAM_INSTALL, wanted)


def _closing_div(text: str, start: int) -> int:
    """The index just after the ``</div>`` that closes the ``<div`` opening at ``start``."""
    depth = 0
    for tag in re.finditer(r"<div\b|</div\s*>", text[start:]):
        depth += 1 if tag.group(0).startswith("<div") else -1
        if depth == 0:
            return start + tag.end()
    return len(text)


def _start_from_controls(html: str) -> str:
    """The start key read off the controls' initial state (explorers built before ``data-rfx-start``)."""
    parts = []
    for control in re.finditer(r"<(input|select)\b([^>]*)data-rfx-control=[^>]*>", html):
        tag = control.group(0)
        if 'type="checkbox"' in tag:
            parts.append("1" if re.search(r"\schecked\b", tag) else "0")
        elif control.group(1) == "select":
            body = html[control.end():html.index("</select>", control.end())]
            chosen = re.search(r'<option value="(\d+)" selected', body)
            parts.append(chosen.group(1) if chosen else "0")
        else:
            value = re.search(r'\svalue="(\d+)"', tag)
            parts.append(value.group(1) if value else "0")
    return ",".join(parts)


def explorer_start_output(html: str) -> str | None:
    """The body of a static explorer's output at its start position (None if ``html`` is no explorer).

    >>> page = ('<div data-recfair-widget="explore" data-rfx-start="1"><div class="rfx-output" '
    ...         'data-rfx-keys="0">a</div><div class="rfx-output" data-rfx-keys="1 2"><div>b</div></div></div>')
    >>> explorer_start_output(page)
    '<div>b</div>'
    """
    if 'data-recfair-widget="explore"' not in html:
        return None
    root = re.search(r'data-recfair-widget="explore"[^>]*data-rfx-start="([^"]*)"', html)
    start = root.group(1) if root else _start_from_controls(html)
    for output in re.finditer(r'<div class="rfx-output" data-rfx-keys="([^"]*)">', html):
        if start in output.group(1).split(" "):
            end = _closing_div(html, output.start())
            return html[output.end():end - len("</div>")]
    return ""


def slim_notebook(notebook: dict) -> bool:
    """Keep only each explorer's start output and drop embedded widget states; True if anything changed."""
    changed = notebook.get("metadata", {}).pop("widgets", None) is not None
    for cell in notebook.get("cells", []):
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            html = data.get("text/html")
            if html is None:
                continue
            text = "".join(html) if isinstance(html, list) else html
            body = explorer_start_output(text)
            if body is None:
                continue
            data["text/html"] = EXPLORER_NOTE + body
            data["text/plain"] = "Interactive explorer: run this cell for live controls."
            changed = True
    return changed


def outputs_from_cache(notebook: dict, cache_path) -> bool:
    """Fill in the outputs of a notebook that has none from the execution cache; True if it did.

    MyST-NB 1.4 writes a chapter's notebook *without* its outputs when the outputs come from the
    jupyter-cache (a cache hit), so an incremental build, or a CI run that restores the cache,
    would publish notebooks without outputs. The cache holds them: merge them back.
    """
    code = [cell for cell in notebook.get("cells", []) if cell.get("cell_type") == "code"]
    if not code or any(cell.get("outputs") for cell in code) or not Path(cache_path).is_dir():
        return False
    try:
        import nbformat
        from jupyter_cache import get_cache

        node = nbformat.from_dict(notebook)
        _, merged = get_cache(str(cache_path)).merge_match_into_notebook(node)
    except (ImportError, KeyError, ValueError):
        return False
    notebook.clear()
    notebook.update(json.loads(nbformat.writes(merged)))
    return True


def _slim_published_notebooks(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    folder = (app.config.recfair_colab_notebooks or {}).get("folder", "_sources")
    root = Path(app.outdir, folder)
    cache_path = getattr(app.config, "nb_execution_cache_path", "") or Path(app.outdir).parent / ".jupyter_cache"
    before = after = restored = 0
    for path in sorted(root.rglob("*.ipynb")) if root.is_dir() else []:
        raw = path.read_text(encoding="utf-8")
        notebook = json.loads(raw)
        before += len(raw)
        filled = outputs_from_cache(notebook, cache_path)
        restored += filled
        if slim_notebook(notebook) or filled:
            raw = json.dumps(notebook, ensure_ascii=False, indent=1) + "\n"
            tmp = path.with_suffix(".ipynb.tmp")
            tmp.write_text(raw, encoding="utf-8")
            tmp.replace(path)
        after += len(raw)
    if before:
        LOGGER.info(f"[launch_links] published notebooks: {before / 1e6:.1f} MB -> {after / 1e6:.1f} MB "
                    f"({restored} given their outputs back from the execution cache)")


def setup(app):
    # {"branch": "gh-pages", "folder": "_sources"}: where the published executed notebooks live
    app.add_config_value("recfair_colab_notebooks", {}, "html")
    # after sphinx-book-theme's add_launch_buttons (priority 501), before the page is rendered
    app.connect("html-page-context", _retarget, priority=600)
    # the install cells follow _config.yml's repository; the published notebooks stay small
    app.connect("source-read", _install_from_configured_repository)
    app.connect("build-finished", _slim_published_notebooks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
