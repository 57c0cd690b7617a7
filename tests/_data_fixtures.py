"""Shared fixtures for the dataset tests: the offline real data, an isolated cache and a local HTTP server.

Test modules import the fixtures they use from here (``from _data_fixtures import ...``).
"""

from __future__ import annotations

import functools
import hashlib
import http.server
import io
import os
import threading
import zipfile
from pathlib import Path

import pytest

ENV_VARS = ("RECFAIR_DATA", "RECFAIR_CACHE", "RECFAIR_MIRROR")


def _shared_data_dir() -> Path | None:
    """The offline copy of the real datasets: $RECFAIR_DATA, or shared/datasets beside the repo."""
    repo = Path(__file__).resolve().parents[1]
    candidates = [os.environ.get("RECFAIR_DATA", "")]
    candidates += [str(repo.parent / "shared" / "datasets"), "/work/shared/datasets"]
    for candidate in candidates:
        if candidate and (Path(candidate) / "ml-100k").is_dir():
            return Path(candidate)
    return None


SHARED_DATA = _shared_data_dir()


@pytest.fixture
def isolated_env(tmp_path, monkeypatch) -> Path:
    """No RECFAIR_* variables from outside; the cache is a fresh temporary folder (returned)."""
    for name in ENV_VARS:
        monkeypatch.delenv(name, raising=False)
    cache = tmp_path / "cache"
    monkeypatch.setenv("RECFAIR_CACHE", str(cache))
    return cache


@pytest.fixture
def shared_data(isolated_env, monkeypatch) -> Path:
    """RECFAIR_DATA pointing at the real offline datasets; skips when they are not available."""
    if SHARED_DATA is None:
        pytest.skip("real datasets not available: set RECFAIR_DATA to a folder holding ml-100k/ and "
                    "hetrec2011-lastfm-2k/ (CI uses shared/datasets)")
    monkeypatch.setenv("RECFAIR_DATA", str(SHARED_DATA))
    return SHARED_DATA


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    requests_seen: list

    def log_message(self, format, *args):  # keep test output clean
        pass

    def do_GET(self):
        self.requests_seen.append(self.path)
        super().do_GET()


@pytest.fixture
def http_server(tmp_path):
    """A local HTTP server on 127.0.0.1 (ephemeral port) serving a temporary folder.

    Yields ``(base_url, folder, requests)``, where ``requests`` lists the paths asked for.
    """
    folder = tmp_path / "served"
    folder.mkdir()
    seen: list = []
    handler = type("Handler", (_QuietHandler,), {"requests_seen": seen})
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(handler, directory=str(folder)))
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}", folder, seen
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


def make_zip(members: dict[str, str | bytes]) -> bytes:
    """Bytes of a zip archive holding ``{name: content}``."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, content in members.items():
            archive.writestr(name, content)
    return buffer.getvalue()


def sha256(data: bytes) -> str:
    return "sha256:" + hashlib.sha256(data).hexdigest()


# A miniature official ML-100K (same layout and formats as the GroupLens archive).
ML100K_FILES = {
    "ml-100k/u.data": "1\t10\t5\t881250949\n1\t20\t3\t881250950\n2\t10\t4\t881250951\n3\t30\t1\t881250952\n",
    "ml-100k/u.user": "1|24|M|technician|85711\n2|53|F|other|94043\n3|23|M|writer|32067\n",
    "ml-100k/u.item": "".join(
        f"{i}|Movie {i} (1995)|01-Jan-1995||http://example.org/{i}|" + "|".join(
            "1" if g == j else "0" for g in range(19)) + "\n"
        for i, j in ((10, 1), (20, 5), (30, 8))
    ),
}
