"""Colab launch links that open a runnable notebook for every chapter.

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


def setup(app):
    # {"branch": "gh-pages", "folder": "_sources"}: where the published executed notebooks live
    app.add_config_value("recfair_colab_notebooks", {}, "html")
    # after sphinx-book-theme's add_launch_buttons (priority 501), before the page is rendered
    app.connect("html-page-context", _retarget, priority=600)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
