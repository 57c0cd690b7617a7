"""The download path of recfair.datasets.fetch against a local HTTP server (no internet needed)."""

from __future__ import annotations

import warnings

import pytest
from _data_fixtures import ML100K_FILES, http_server, isolated_env, make_zip, sha256  # noqa: F401

from recfair import datasets
from recfair.datasets import UnverifiedDownloadWarning, fetch, load

pytestmark = pytest.mark.filterwarnings("ignore::recfair.datasets.UnverifiedDownloadWarning")

GOOD_ZIP = make_zip(ML100K_FILES)
GOOD_HASH = sha256(GOOD_ZIP)


def _serve(folder, name, data: bytes):
    (folder / name).write_bytes(data)


def _snapshot(folder):
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _leftovers(cache):
    return [p.name for p in cache.iterdir() if p.name.startswith(".staging")] if cache.exists() else []


def test_download_unzip_and_checksum(http_server, isolated_env):
    url, folder, seen = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP)
    path = fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": GOOD_HASH}, progress=False)
    assert path == isolated_env / "ml-100k"
    assert sorted(p.name for p in path.iterdir()) == ["u.data", "u.item", "u.user"]
    assert seen == ["/ml-100k.zip"]
    assert _leftovers(isolated_env) == []

    inter = load("ml-100k", progress=False)  # now served from the cache: no new request
    assert seen == ["/ml-100k.zip"]
    assert (inter.n_users, inter.n_items, inter.n_interactions) == (3, 3, 4)
    assert inter.users.loc[2, "gender"] == "F"
    assert inter.items.loc[20, "genres"] == "Comedy"


def test_mirror_from_environment(http_server, isolated_env, monkeypatch):
    url, folder, seen = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP)
    monkeypatch.setenv("RECFAIR_MIRROR", url + "/")
    fetch("ml-100k", hashes={"ml-100k.zip": GOOD_HASH}, progress=False)
    assert seen == ["/ml-100k.zip"]


def test_local_folder_as_mirror(tmp_path, isolated_env):
    mirror = tmp_path / "archives"
    mirror.mkdir()
    _serve(mirror, "ml-100k.zip", GOOD_ZIP)
    path = fetch("ml-100k", mirror=str(mirror), hashes={"ml-100k.zip": GOOD_HASH}, progress=False)
    assert (path / "u.data").is_file()


def test_known_checksum_mismatch_raises_and_caches_nothing(http_server, isolated_env):
    url, folder, _ = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP)  # not the real archive, so the registry hash cannot match
    with pytest.raises(ValueError) as info:
        fetch("ml-100k", mirror=url, progress=False)
    message = str(info.value)
    assert "'ml-100k'" in message and "'ml-100k.zip'" in message
    assert "expected sha256:50d2a982c66986937beb9ffb3aa76efe955bf3d5c6b761f4e3a7cd717c6a3229" in message
    assert f"got {GOOD_HASH}" in message
    assert not (isolated_env / "ml-100k").exists()
    assert _leftovers(isolated_env) == []


def test_checksum_mismatch_leaves_cached_copy_untouched(http_server, isolated_env):
    url, folder, _ = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP)
    path = fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": GOOD_HASH}, progress=False)
    before = _snapshot(path)

    tampered = make_zip({**ML100K_FILES, "ml-100k/u.data": "1\t10\t1\t1\n"})
    _serve(folder, "ml-100k.zip", tampered)
    with pytest.raises(ValueError, match="Checksum mismatch"):
        fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": GOOD_HASH}, force=True, progress=False)
    assert _snapshot(path) == before
    assert _leftovers(isolated_env) == []


def test_truncated_download_is_rejected(http_server, isolated_env):
    url, folder, _ = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP[: len(GOOD_ZIP) // 2])
    with pytest.raises(ValueError, match="Checksum mismatch"):
        fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": GOOD_HASH}, progress=False)
    assert not (isolated_env / "ml-100k").exists()


@pytest.mark.parametrize("payload", [b"<html>503 Service Unavailable</html>", GOOD_ZIP[: len(GOOD_ZIP) // 2]],
                         ids=["html-page", "truncated-zip"])
def test_malformed_archive_raises_clearly(http_server, isolated_env, payload):
    url, folder, _ = http_server
    _serve(folder, "ml-100k.zip", payload)
    # the hash matches the bad bytes, so only the unpacking can catch the problem
    with pytest.raises(ValueError, match="'ml-100k.zip' of dataset 'ml-100k' is not a readable zip"):
        fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": sha256(payload)}, progress=False)
    assert not (isolated_env / "ml-100k").exists()
    assert _leftovers(isolated_env) == []


def test_malformed_archive_keeps_good_cache(http_server, isolated_env):
    url, folder, _ = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP)
    path = fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": GOOD_HASH}, progress=False)
    before = _snapshot(path)
    _serve(folder, "ml-100k.zip", b"garbage")
    with pytest.raises(ValueError, match="not a readable zip"):
        fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": sha256(b"garbage")}, force=True, progress=False)
    assert _snapshot(path) == before


def test_force_replaces_cache_after_success(http_server, isolated_env):
    url, folder, _ = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP)
    fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": GOOD_HASH}, progress=False)
    newer = make_zip({**ML100K_FILES, "ml-100k/u.data": "1\t10\t2\t7\n"})
    _serve(folder, "ml-100k.zip", newer)
    path = fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": sha256(newer)}, force=True, progress=False)
    assert (path / "u.data").read_text() == "1\t10\t2\t7\n"
    assert _leftovers(isolated_env) == []


def test_archive_without_expected_files(http_server, isolated_env):
    url, folder, _ = http_server
    payload = make_zip({"ml-100k/README": "nothing here"})
    _serve(folder, "ml-100k.zip", payload)
    with pytest.raises(ValueError, match=r"does not contain the expected files \['u.data'\]"):
        fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": sha256(payload)}, progress=False)
    assert not (isolated_env / "ml-100k").exists()


def test_archive_member_outside_target_is_refused(http_server, isolated_env, tmp_path):
    url, folder, _ = http_server
    payload = make_zip({**ML100K_FILES, "../escaped.txt": "x"})
    _serve(folder, "ml-100k.zip", payload)
    with pytest.raises(ValueError, match="outside the target folder"):
        fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": sha256(payload)}, progress=False)
    assert not list(tmp_path.rglob("escaped.txt"))


def test_missing_file_on_server(http_server, isolated_env):
    url, _, _ = http_server
    with pytest.raises(ConnectionError, match="Could not download 'ml-100k.zip' for dataset 'ml-100k'"):
        fetch("ml-100k", mirror=url, progress=False)
    assert _leftovers(isolated_env) == []


def test_unknown_hash_warns_with_the_hash_to_pin(http_server, isolated_env):
    url, folder, _ = http_server
    csv = b"B001,U1,5.0,1500000000\nB002,U1,2.0,1500000100\nB001,U2,4.0,1500000200\n"
    _serve(folder, "Luxury_Beauty.csv", csv)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        path = fetch("amazon-lb", mirror=url, progress=False)
    unverified = [w for w in caught if issubclass(w.category, UnverifiedDownloadWarning)]
    assert len(unverified) == 1 and unverified[0].filename == __file__  # points at the caller
    message = str(unverified[0].message)
    assert sha256(csv) in message and "hashes={'Luxury_Beauty.csv': 'sha256:" in message
    assert path == isolated_env / "Amazon_Luxury_Beauty"

    inter = load("amazon-lb", progress=False)
    assert inter.frame["user_id"].tolist() == ["U1", "U1", "U2"]
    assert inter.frame["item_id"].tolist() == ["B001", "B002", "B001"]
    assert inter.frame["timestamp"].iloc[-1] == 1500000200


def test_pinned_hash_is_enforced_for_unregistered_files(http_server, isolated_env):
    url, folder, _ = http_server
    _serve(folder, "Luxury_Beauty.csv", b"B001,U1,5.0,1\n")
    with pytest.raises(ValueError, match="Checksum mismatch"):
        fetch("amazon-lb", mirror=url, hashes={"Luxury_Beauty.csv": "md5:" + "0" * 32}, progress=False)


def test_recbole_archive_download(http_server, isolated_env):
    url, folder, _ = http_server
    payload = make_zip({
        "ml-100k/ml-100k.inter": "user_id:token\titem_id:token\trating:float\ttimestamp:float\n1\t10\t4\t5\n",
        "ml-100k/ml-100k.user": "user_id:token\tage:token\tgender:token\toccupation:token\tzip_code:token\n"
                                "1\t30\tF\twriter\t01234\n",
    })
    _serve(folder, "ml-100k.zip", payload)
    path = fetch("ml-100k", source="recbole", mirror=url, progress=False)
    assert path == isolated_env / "recbole" / "ml-100k"
    inter = load("ml-100k", source="recbole", download=False)
    assert inter.frame[["user_id", "item_id", "rating"]].values.tolist() == [[1, 10, 4.0]]
    assert inter.users.loc[1, "zip_code"] == "01234" and inter.users.loc[1, "age"] == 30


def test_local_data_directory_wins_and_is_never_written(tmp_path, http_server, isolated_env, monkeypatch):
    url, folder, seen = http_server
    local = tmp_path / "local"
    (local / "ml-100k").mkdir(parents=True)
    (local / "ml-100k" / "u.data").write_text("5\t6\t3\t10\n")
    monkeypatch.setenv("RECFAIR_DATA", str(local))
    before = _snapshot(local)
    assert fetch("ml-100k", mirror=url, progress=False) == local / "ml-100k"
    assert load("ml-100k").n_interactions == 1
    assert seen == [] and _snapshot(local) == before
    assert datasets.locate("ml-100k") == local / "ml-100k"


def test_not_found_without_download_says_where_it_looked(tmp_path, isolated_env, monkeypatch):
    monkeypatch.setenv("RECFAIR_DATA", str(tmp_path / "nowhere"))
    with pytest.raises(FileNotFoundError) as info:
        fetch("ml-1m", download=False)
    message = str(info.value)
    assert "RECFAIR_DATA" in message and str(tmp_path / "nowhere" / "ml-1m") in message
    assert str(isolated_env / "ml-1m") in message and "ratings.dat" in message
    assert datasets.locate("ml-1m") is None


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"hashes": {"other.zip": "sha256:" + "0" * 64}}, ValueError, "not part of the official archive"),
        ({"hashes": {"ml-100k.zip": "sha1:abc"}}, ValueError, "must look like 'sha256:"),
        ({"hashes": {"ml-100k.zip": "sha256:xyz"}}, ValueError, "must look like"),
        ({"hashes": {"ml-100k.zip": 5}}, TypeError, "must be a string"),
        ({"hashes": ["sha256:" + "0" * 64]}, TypeError, "hashes must be a mapping"),
        ({"source": "kaggle"}, ValueError, "source must be one of"),
        ({"download": "yes"}, TypeError, "download must be True or False"),
        ({"download": False, "force": True}, ValueError, "download=False forbids"),
        ({"data_home": 3}, TypeError, "data_home must be a path"),
    ],
)
def test_fetch_argument_errors(isolated_env, kwargs, error, match):
    with pytest.raises(error, match=match):
        fetch("ml-100k", **kwargs)


def test_bare_digest_is_accepted(http_server, isolated_env):
    url, folder, _ = http_server
    _serve(folder, "ml-100k.zip", GOOD_ZIP)
    path = fetch("ml-100k", mirror=url, hashes={"ml-100k.zip": GOOD_HASH.split(":")[1].upper()}, progress=False)
    assert (path / "u.data").is_file()
