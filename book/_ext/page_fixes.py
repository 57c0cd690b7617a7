"""Small fixes to every built page, so that a reader's browser sees valid, quiet pages.

* **Scripts added twice.** Some extensions register their inline configuration scripts once per
  read phase (e.g. sphinx-thebe's ``const THEBE_JS_URL = ...``, which a second copy turns into a
  ``SyntaxError``). ``html-page-context`` drops exact duplicates from the page's script list.
* **Repeated ids.** sphinx-exercise gives the body of every solution the same id
  (``solution-content``), so a page with several solutions has duplicate ids. ``doctree-resolved``
  numbers them (``solution-content``, ``solution-content-2``, ...).
"""

from __future__ import annotations

from docutils import nodes
from sphinx.application import Sphinx

REPEATED_IDS = ("solution-content",)


def drop_duplicate_scripts(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    scripts = context.get("script_files")
    if not scripts:
        return
    seen, kept = set(), []
    for script in scripts:
        attributes = getattr(script, "attributes", {}) or {}
        # the same script may be registered once with filename None and once with '' (an inline body)
        key = (getattr(script, "filename", None) or "", tuple(sorted(attributes.items())))
        if key in seen:
            continue
        seen.add(key)
        kept.append(script)
    scripts[:] = kept


def number_repeated_ids(app: Sphinx, doctree: nodes.document, docname: str) -> None:
    counts: dict[str, int] = {}
    for node in doctree.findall(nodes.Element):
        ids = node.get("ids")
        if not ids:
            continue
        for i, ident in enumerate(ids):
            if ident in REPEATED_IDS:
                counts[ident] = counts.get(ident, 0) + 1
                if counts[ident] > 1:
                    ids[i] = f"{ident}-{counts[ident]}"


def setup(app: Sphinx) -> dict:
    app.connect("html-page-context", drop_duplicate_scripts, priority=900)
    app.connect("doctree-resolved", number_repeated_ids)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
