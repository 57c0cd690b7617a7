"""Serve the JavaScript that renders ipywidgets from the build itself, never from a CDN.

MyST-NB embeds each notebook's widget state in the page and, by default, loads require.js
and ``@jupyter-widgets/html-manager`` from public CDNs to draw it. A reader behind a
firewall then sees an empty box. This extension keeps the two packages in a vendor folder
of the book and makes MyST-NB load them from there.

The single source of truth is ``nb_ipywidgets_js`` in ``_config.yml``. Each key names a
file inside an npm package, relative to the static root, in the layout of the npm CDNs::

    npm/<package>@<version>/<path inside the package>

For every key the extension

* checks, when an HTML builder starts, that ``<vendor dir>/npm/<package>@<version>/<path>``
  exists, and otherwise fetches the package with ``npm pack`` into a temporary folder and
  unpacks (with :mod:`tarfile`) the files that sit beside the requested one, source maps
  and type stubs left out; the build stops with a clear error if this is impossible;
* puts the vendor folder on ``html_static_path``, so its ``npm/`` tree is copied to
  ``_static/npm/``;
* rewrites, page by page, the ``data-jupyter-widgets-cdn`` attribute (written relative to
  the static root, like the keys) into a URL relative to that page, because the
  html-manager resolves it from the page's own address.

The vendor folder must not be called ``_static``: Jupyter Book 1 adds every script found
in a root ``_static`` folder to every page.
"""

from __future__ import annotations

import os
import posixpath
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.errors import ExtensionError
from sphinx.util import logging

logger = logging.getLogger(__name__)

#: Keys of ``nb_ipywidgets_js`` start with this folder (the npm-CDN layout).
NPM_ROOT = "npm"
#: The attribute the html-manager reads to find widget modules that it does not bundle.
CDN_ATTRIBUTE = "data-jupyter-widgets-cdn"
#: Files never copied out of a package: they only help debugging or type checking.
SKIPPED_SUFFIXES = (".map", ".d.ts", ".ts", ".md")


@dataclass(frozen=True)
class VendoredFile:
    """One file of one npm package, as named by a key of ``nb_ipywidgets_js``."""

    package: str  # e.g. "@jupyter-widgets/html-manager"
    version: str  # e.g. "1.0.6"
    path: str  # path inside the package, e.g. "dist/embed-amd.js"

    @property
    def spec(self) -> str:
        return f"{self.package}@{self.version}"

    @property
    def package_dir(self) -> str:
        """Folder of the package below the vendor root, e.g. ``npm/requirejs@2.3.7``."""
        return posixpath.join(NPM_ROOT, self.spec)

    @classmethod
    def from_key(cls, key: str) -> VendoredFile:
        """Parse ``npm/<package>@<version>/<path>``; scoped packages start with ``@``."""
        if "://" in key or key.startswith("/"):
            raise ExtensionError(
                f"nb_ipywidgets_js key {key!r} is a URL: the book must not load widget code "
                f"from the network. Use a key of the form '{NPM_ROOT}/<package>@<version>/<file>'."
            )
        parts = key.split("/")
        if parts[0] != NPM_ROOT or len(parts) < 3:
            raise ExtensionError(
                f"nb_ipywidgets_js key {key!r} must have the form "
                f"'{NPM_ROOT}/<package>@<version>/<file>'."
            )
        n_name = 2 if parts[1].startswith("@") else 1  # "@scope/name@1.0" spans two parts
        name_and_version = "/".join(parts[1 : 1 + n_name])
        package, sep, version = name_and_version.rpartition("@")
        path = "/".join(parts[1 + n_name :])
        if not sep or not package or not version or not path:
            raise ExtensionError(f"nb_ipywidgets_js key {key!r} names no '<package>@<version>/<file>'.")
        return cls(package=package, version=version, path=path)


def vendor_root(app: Sphinx) -> Path:
    """The vendor folder, resolved against the folder of ``_config.yml``."""
    root = Path(app.confdir, app.config.offline_widgets_dir).resolve()
    if root.name == "_static":
        raise ExtensionError("offline_widgets_dir must not be named '_static' (Jupyter Book loads every script in it).")
    return root


def vendored_files(app: Sphinx) -> list[VendoredFile]:
    """The files that ``nb_ipywidgets_js`` asks for, validated."""
    return [VendoredFile.from_key(key) for key in app.config.nb_ipywidgets_js]


def fetch_package(spec: str, destination: Path, wanted: str) -> None:
    """``npm pack`` one package and unpack the folder that holds ``wanted`` into ``destination``.

    The files are unpacked next to ``destination`` first and moved into place in one rename,
    so an interrupted fetch never leaves a half-filled package folder behind.
    """
    npm = shutil.which("npm")
    if npm is None:
        raise ExtensionError(
            f"{destination / wanted} is missing and 'npm' is not on PATH, so {spec} cannot be "
            f"fetched. Install Node.js/npm, or copy the package's files into {destination}."
        )
    logger.info(f"[offline_widgets] fetching {spec} with npm pack")
    with tempfile.TemporaryDirectory(prefix="offline-widgets-") as tmp:
        try:
            result = subprocess.run(
                [npm, "pack", spec, "--silent", "--pack-destination", tmp],
                cwd=tmp,
                capture_output=True,
                text=True,
                timeout=300,
                check=True,
            )
        except (subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
            stderr = getattr(exc, "stderr", "") or ""
            raise ExtensionError(f"'npm pack {spec}' failed: {stderr.strip() or exc}") from exc
        tarballs = sorted(Path(tmp).glob("*.tgz"))
        if len(tarballs) != 1:
            raise ExtensionError(f"'npm pack {spec}' produced {len(tarballs)} tarballs: {result.stdout!r}")
        keep_dir = posixpath.dirname(wanted)
        staging = Path(tempfile.mkdtemp(prefix=".fetch-", dir=destination.parent))
        try:
            with tarfile.open(tarballs[0], "r:gz") as tar:
                for member in tar.getmembers():
                    # npm tarballs put everything below "package/"
                    inner = member.name.split("/", 1)[1] if "/" in member.name else ""
                    if not member.isfile() or inner.endswith(SKIPPED_SUFFIXES):
                        continue
                    if posixpath.dirname(inner) != keep_dir and inner != "LICENSE":
                        continue
                    target = staging / inner
                    target.parent.mkdir(parents=True, exist_ok=True)
                    source = tar.extractfile(member)
                    if source is None:
                        raise ExtensionError(f"cannot read {member.name} from the {spec} tarball.")
                    with source, open(target, "wb") as out:
                        shutil.copyfileobj(source, out)
            if not (staging / wanted).is_file():
                raise ExtensionError(f"{spec} has no file {wanted!r}.")
            if destination.exists():
                shutil.rmtree(destination)
            staging.rename(destination)
        finally:
            shutil.rmtree(staging, ignore_errors=True)


def add_static_path(app: Sphinx, config) -> None:
    """``config-inited``: copy the vendor folder's ``npm/`` tree to ``_static/npm/``.

    The folder is created (empty) if needed, because Sphinx drops static paths that do not
    exist right after this event; it is filled at ``builder-inited``, before any copying.
    Doing this here, with a path that never changes, keeps the configuration identical from
    one build to the next, so an unchanged book is not re-read.
    """
    vendored_files(app)  # fail early on a key that is a URL or malformed
    root = vendor_root(app)
    root.mkdir(parents=True, exist_ok=True)
    static = [str(p) for p in config.html_static_path]
    if str(root) not in static:
        config.html_static_path = [*static, str(root)]


def ensure_vendored(app: Sphinx) -> None:
    """``builder-inited``: make sure every widget script is on disk before HTML is written."""
    if app.builder.format != "html":
        return
    root = vendor_root(app)
    for item in vendored_files(app):
        destination = root / item.package_dir
        if not (destination / item.path).is_file():
            destination.parent.mkdir(parents=True, exist_ok=True)
            fetch_package(item.spec, destination, item.path)


def localise_cdn_attribute(app: Sphinx, pagename: str, templatename: str, context: dict, doctree) -> None:
    """``html-page-context``: point the html-manager's module base URL at ``_static/npm/``.

    The attribute is configured relative to the static root; the page needs it relative to
    itself (``../_static/npm/`` one folder down). This runs after MyST-NB added the scripts.
    """
    scripts = context.get("script_files")
    if not scripts:
        return
    for i, script in enumerate(scripts):
        attributes = getattr(script, "attributes", None)
        if not attributes or CDN_ATTRIBUTE not in attributes:
            continue
        configured = attributes[CDN_ATTRIBUTE]
        if "://" in configured or configured.startswith("/"):
            continue  # an absolute URL was chosen on purpose; leave it
        target = posixpath.join("_static", configured.rstrip("/")) + "/"
        relative = context["pathto"](target, 1)
        if not relative.endswith("/"):
            relative += "/"
        scripts[i] = type(script)(script.filename, priority=script.priority, **{**attributes, CDN_ATTRIBUTE: relative})


def setup(app: Sphinx) -> dict:
    # Chapters build their controls with recfair.book.widgets.explore, which precomputes every
    # position into static HTML when RECFAIR_WIDGETS=static. The kernels that execute the
    # chapters inherit this process's environment, so setting it here makes every built page
    # respond without a kernel, while the same chapter code gives live ipywidgets in Jupyter.
    os.environ["RECFAIR_WIDGETS"] = "static"
    app.setup_extension("myst_nb")  # defines nb_ipywidgets_js, which is read here
    app.add_config_value("offline_widgets_dir", "book/_vendor", "html", types=[str])
    app.connect("config-inited", add_static_path)
    app.connect("builder-inited", ensure_vendored)
    app.connect("html-page-context", localise_cdn_attribute, priority=800)
    return {"version": "0.1", "parallel_read_safe": True, "parallel_write_safe": True}
