"""Finding dataset files locally, or downloading, verifying and unpacking them into a cache.

Lookup order of :func:`fetch`:

1. a local data directory named by the environment variable ``RECFAIR_DATA`` (several may be
   given, separated by ``os.pathsep``), holding the dataset in a sub-folder named like its archive
   unpacks (``ml-100k``, ``hetrec2011-lastfm-2k``, ...), in official or RecBole atomic layout;
2. the cache ``data_home`` (default ``~/.cache/recfair``, or ``RECFAIR_CACHE``);
3. a download with :mod:`pooch` from the registry URL (or a mirror: ``mirror=`` or
   ``RECFAIR_MIRROR``), checked against the registry checksum, then unpacked.

Nothing is ever written into ``RECFAIR_DATA``. Downloads and unpacking happen in a staging folder
inside the cache and are moved into place only once everything checked out, so a failed,
truncated or tampered download never replaces good cached data.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import shutil
import tempfile
import urllib.parse
import warnings
import zipfile
import zlib
from pathlib import Path

from ._readers import detect_layout
from ._registry import Archive, DatasetInfo, RemoteFile, dataset_info

__all__ = ["fetch", "locate", "default_data_home", "UnverifiedDownloadWarning",
           "ENV_DATA", "ENV_CACHE", "ENV_MIRROR"]

ENV_DATA = "RECFAIR_DATA"
ENV_CACHE = "RECFAIR_CACHE"
ENV_MIRROR = "RECFAIR_MIRROR"

_HASH_LENGTHS = {"sha256": 64, "md5": 32}


class UnverifiedDownloadWarning(UserWarning):
    """A file was downloaded for which no checksum is known; its SHA-256 is in the message.

    Examples
    --------
    >>> issubclass(UnverifiedDownloadWarning, UserWarning)
    True
    """


def default_data_home() -> Path:
    """The cache directory: ``$RECFAIR_CACHE`` if set, else ``~/.cache/recfair``.

    Examples
    --------
    >>> import os
    >>> old = os.environ.get("RECFAIR_CACHE")
    >>> os.environ["RECFAIR_CACHE"] = "/tmp/recfair-cache"
    >>> str(default_data_home())
    '/tmp/recfair-cache'
    >>> _ = os.environ.pop("RECFAIR_CACHE") if old is None else os.environ.update(RECFAIR_CACHE=old)
    """
    env = os.environ.get(ENV_CACHE, "").strip()
    return Path(env).expanduser() if env else Path.home() / ".cache" / "recfair"


def _data_home(data_home) -> Path:
    if data_home is None:
        return default_data_home()
    if not isinstance(data_home, (str, os.PathLike)):
        raise TypeError(f"data_home must be a path or None, got {type(data_home).__name__} {data_home!r}.")
    return Path(data_home).expanduser()


def _local_roots() -> list[Path]:
    value = os.environ.get(ENV_DATA, "")
    return [Path(part).expanduser() for part in value.split(os.pathsep) if part.strip()]


# --- lookup -------------------------------------------------------------------------------

def locate(name, *, data_home=None, source: str | None = None) -> Path | None:
    """The folder holding a dataset already on disk (``RECFAIR_DATA``, then the cache), or None.

    Never downloads. ``source`` restricts the accepted layout as in :func:`fetch`.

    Examples
    --------
    >>> locate("ml-100k", data_home="/nonexistent/folder", source="recbole") is None or True
    True
    """
    hit = _locate(dataset_info(name), data_home, source, [])
    return None if hit is None else hit[1]


def _locate(info: DatasetInfo, data_home, source, looked: list) -> tuple[Archive, Path] | None:
    if source is not None:
        info.archive(source)  # validates the value
    for root in _local_roots():
        for folder in info.folders:
            candidate = root / folder
            hit = detect_layout(candidate, info, source)
            if hit is not None:
                return hit
            state = "no recognised files" if candidate.is_dir() else "missing"
            looked.append(f"{candidate} ({state}; from ${ENV_DATA})")
    home = _data_home(data_home)
    sources = [source] if source is not None else list(info.archives)
    for src in sources:
        candidate = home / info.archives[src].cache_folder
        hit = detect_layout(candidate, info, src)
        if hit is not None:
            return hit
        looked.append(f"{candidate} ({'no recognised files' if candidate.is_dir() else 'missing'}; cache)")
    return None


def fetch(name, *, data_home=None, download: bool = True, source: str | None = None,
          mirror: str | None = None, hashes=None, force: bool = False, progress: bool = True) -> Path:
    """Return a local directory holding the dataset's unpacked files, downloading it if needed.

    Parameters
    ----------
    name : str
        Dataset name or alias (see :func:`available_datasets`), e.g. ``"ml-1m"``, ``"Lastfm"``.
    data_home : path-like, optional
        Cache directory; default ``$RECFAIR_CACHE`` or ``~/.cache/recfair``.
    download : bool, default True
        If False, only look locally and raise :class:`FileNotFoundError` when nothing is there.
    source : {"official", "recbole"}, optional
        Which layout to accept locally and which archive to download; default: accept either
        locally, download the dataset's ``default_source``.
    mirror : str, optional
        Base URL (or local folder) replacing the registry's URLs; the file is fetched from
        ``mirror + "/" + filename``. Defaults to ``$RECFAIR_MIRROR``. Checksums still apply.
    hashes : mapping of str to str, optional
        ``{filename: "sha256:<hex>"}`` overriding or supplying checksums (e.g. to pin a file the
        registry has no hash for).
    force : bool, default False
        Download again even if a usable copy exists; the cached copy is replaced only after the
        new one has been verified and unpacked.
    progress : bool, default True
        Show download/unpack progress bars.

    Returns
    -------
    pathlib.Path
        Folder that directly holds the dataset's files.

    Raises
    ------
    FileNotFoundError
        ``download=False`` and the dataset is not on disk (the message lists where it looked).
    ValueError
        Checksum mismatch, unreadable archive, or an archive without the expected files. The
        message names the dataset, the file and (for checksums) the expected and actual hash.
    ConnectionError
        No URL could be downloaded.

    Notes
    -----
    Files without a registered checksum (RecBole archives, Amazon CSVs, Book-Crossing, Jester)
    are accepted on first download with an :class:`UnverifiedDownloadWarning` that prints their
    SHA-256; pass it back through ``hashes=`` to pin the file from then on. A registered checksum
    is always enforced.

    Examples
    --------
    >>> path = fetch("ml-100k")  # doctest: +SKIP
    >>> sorted(p.name for p in path.iterdir())[:3]  # doctest: +SKIP
    ['README', 'allbut.pl', 'mku.sh']
    """
    return _fetch(name, data_home=data_home, download=download, source=source, mirror=mirror,
                  hashes=hashes, force=force, progress=progress)[1]


def _fetch(name, *, data_home=None, download=True, source=None, mirror=None, hashes=None,
           force=False, progress=True) -> tuple[Archive, Path]:
    info = dataset_info(name)
    archive = info.archive(source)
    hashes = _check_hashes(hashes, archive, info)
    if not isinstance(download, bool):
        raise TypeError(f"download must be True or False, got {download!r}.")
    if force and not download:
        raise ValueError("force=True asks for a fresh download, which download=False forbids.")
    looked: list[str] = []
    if not force:
        hit = _locate(info, data_home, source, looked)
        if hit is not None:
            return hit
    if not download:
        raise FileNotFoundError(_not_found_message(info, looked))
    home = _data_home(data_home)
    mirror = mirror if mirror is not None else (os.environ.get(ENV_MIRROR, "").strip() or None)
    folder = _download_archive(info, archive, home, mirror, hashes, progress)
    return archive, folder


def _not_found_message(info: DatasetInfo, looked: list[str]) -> str:
    markers = " or ".join(f"{a.source}: {', '.join(a.markers)}" for a in info.archives.values())
    places = "\n".join(f"  - {entry}" for entry in looked) or "  - (nowhere)"
    env = os.environ.get(ENV_DATA)
    env_note = f"${ENV_DATA} is {env!r}." if env else f"${ENV_DATA} is not set."
    return (
        f"Dataset {info.name!r} was not found locally and download=False. Looked in:\n{places}\n"
        f"{env_note} Point {ENV_DATA} at a directory with a sub-folder named "
        f"{' or '.join(repr(f) for f in info.folders)} holding the files ({markers}), "
        f"or call fetch({info.name!r}, download=True)."
    )


def _check_hashes(hashes, archive: Archive, info: DatasetInfo) -> dict[str, str]:
    if hashes is None:
        return {}
    if not hasattr(hashes, "items"):
        raise TypeError(f"hashes must be a mapping {{filename: 'sha256:<hex>'}}, got {type(hashes).__name__}.")
    names = {remote.filename for remote in archive.files}
    checked = {}
    for filename, value in hashes.items():
        if filename not in names:
            raise ValueError(
                f"hashes names file {filename!r}, which is not part of the {archive.source} archive of "
                f"{info.name!r} (files: {sorted(names)})."
            )
        checked[filename] = _parse_hash(value, f"hashes[{filename!r}]")
    return checked


def _parse_hash(value, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} must be a string like 'sha256:<hex>', got {type(value).__name__}.")
    alg, sep, digest = value.strip().partition(":")
    if not sep:  # a bare digest: infer the algorithm from its length
        alg, digest = next((a for a, n in _HASH_LENGTHS.items() if n == len(value.strip())), ""), value.strip()
    alg = alg.lower()
    if alg not in _HASH_LENGTHS or not re.fullmatch(f"[0-9a-fA-F]{{{_HASH_LENGTHS[alg]}}}", digest):
        raise ValueError(f"{what} must look like 'sha256:<64 hex digits>' or 'md5:<32 hex digits>', got {value!r}.")
    return f"{alg}:{digest.lower()}"


# --- download -----------------------------------------------------------------------------

def _download_archive(info: DatasetInfo, archive: Archive, home: Path, mirror, hashes, progress) -> Path:
    home.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".staging-{info.name}-", dir=home))
    try:
        content = staging / "content"
        content.mkdir()
        for remote in archive.files:
            path = _download_file(info, remote, staging / "downloads", mirror, hashes, progress)
            if remote.is_zip:
                _extract_zip(info, path, content, progress)
                path.unlink()
            else:
                os.replace(path, content / remote.filename)
        hit = detect_layout(content, info, archive.source)
        if hit is None:
            found = sorted(str(p.relative_to(content)) for p in content.rglob("*") if p.is_file())[:10]
            raise ValueError(
                f"The {archive.source} archive of dataset {info.name!r} "
                f"({', '.join(r.filename for r in archive.files)}) does not contain the expected files "
                f"{list(archive.markers)}; it holds {found}. Nothing was written to the cache."
            )
        final = home / archive.cache_folder
        _move_into_place(hit[1], final, staging)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return final


def _move_into_place(source: Path, final: Path, staging: Path) -> None:
    """Rename ``source`` to ``final``; an existing ``final`` is swapped out and restored on failure."""
    final.parent.mkdir(parents=True, exist_ok=True)
    if not final.exists():
        os.replace(source, final)
        return
    previous = staging / "previous"
    os.replace(final, previous)
    try:
        os.replace(source, final)
    except BaseException:
        os.replace(previous, final)
        raise


def _urls(remote: RemoteFile, mirror: str | None) -> tuple[str, ...]:
    if not mirror:
        return remote.urls
    if "://" not in mirror:  # a local folder used as a mirror
        return (Path(mirror).expanduser().resolve().as_uri() + "/" + remote.filename,)
    return (mirror.rstrip("/") + "/" + remote.filename,)


def _download_file(info: DatasetInfo, remote: RemoteFile, folder: Path, mirror, hashes, progress) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    errors = []
    for url in _urls(remote, mirror):
        try:
            path = _retrieve(url, folder, remote.filename, progress)
            break
        except OSError as exc:  # requests' exceptions derive from OSError too
            errors.append(f"{url}: {exc}")
    else:
        tried = "\n".join(f"  - {e}" for e in errors)
        raise ConnectionError(
            f"Could not download {remote.filename!r} for dataset {info.name!r}. Tried:\n{tried}\n"
            f"Set ${ENV_MIRROR} (or mirror=) to another location, or place the files under ${ENV_DATA}."
        )
    _verify(info, remote, path, hashes.get(remote.filename, remote.known_hash), url)
    return path


@contextlib.contextmanager
def _quiet_pooch():
    """Silence pooch's own INFO log (its hint names pooch's API, not ours); we report hashes ourselves."""
    import pooch

    logger = pooch.get_logger()
    level = logger.level
    logger.setLevel(logging.WARNING)
    try:
        yield pooch
    finally:
        logger.setLevel(level)


def _retrieve(url: str, folder: Path, filename: str, progress: bool) -> Path:
    if url.startswith("file://"):
        source = Path(urllib.parse.unquote(urllib.parse.urlparse(url).path))
        shutil.copyfile(source, folder / filename)
        return folder / filename
    with _quiet_pooch() as pooch:
        downloader = pooch.HTTPDownloader(progressbar=bool(progress), timeout=60)
        return Path(pooch.retrieve(url, known_hash=None, fname=filename, path=folder, downloader=downloader))


def file_hash(path, algorithm: str = "sha256") -> str:
    """Hex digest of a file, read in 1 MiB chunks."""
    digest = hashlib.new(algorithm)
    with open(path, "rb") as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            digest.update(chunk)
    return digest.hexdigest()


def _verify(info: DatasetInfo, remote: RemoteFile, path: Path, expected: str | None, url: str) -> None:
    if expected is None:
        actual = file_hash(path, "sha256")
        warnings.warn(
            f"Dataset {info.name!r}: no checksum is known for {remote.filename!r} (from {url}), so it was "
            f"accepted unverified. Its hash is sha256:{actual}; pin it with "
            f"fetch({info.name!r}, hashes={{{remote.filename!r}: 'sha256:{actual}'}}).",
            UnverifiedDownloadWarning,
            stacklevel=6,  # the caller of fetch() or load()
        )
        return
    algorithm, _, value = _parse_hash(expected, f"known hash of {remote.filename}").partition(":")
    actual = file_hash(path, algorithm)
    if actual != value:
        path.unlink(missing_ok=True)
        raise ValueError(
            f"Checksum mismatch for dataset {info.name!r}, file {remote.filename!r} (from {url}): "
            f"expected {algorithm}:{value}, got {algorithm}:{actual}. The download was discarded and any "
            f"cached copy was left untouched. If the file changed upstream on purpose, pass "
            f"hashes={{{remote.filename!r}: '{algorithm}:<new hash>'}} after checking it."
        )


def _extract_zip(info: DatasetInfo, path: Path, target: Path, progress: bool) -> None:
    root = target.resolve()
    try:
        with zipfile.ZipFile(path) as archive:
            members = archive.infolist()
            for member in members:
                destination = (root / member.filename).resolve()
                if not destination.is_relative_to(root):
                    raise ValueError(
                        f"Archive {path.name!r} of dataset {info.name!r} has a member outside the target "
                        f"folder ({member.filename!r}); refusing to unpack it."
                    )
            from tqdm.auto import tqdm

            for member in tqdm(members, desc=f"unpacking {path.name}", unit="file",
                               disable=not progress or len(members) < 2, leave=False):
                archive.extract(member, root)
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError) as exc:
        raise ValueError(
            f"Archive {path.name!r} of dataset {info.name!r} is not a readable zip file ({exc}); it may be "
            f"truncated or not an archive at all (e.g. an HTML error page). Nothing was written to the cache."
        ) from None
