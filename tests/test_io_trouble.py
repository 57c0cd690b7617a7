"""recfair.io looking for trouble: random runs through every writer and reader, and corrupted files.

Property tests (hypothesis) write random runs with string ids, tied scores and shuffled rows through
every writer, add a byte-order mark, Windows line ends or gzip, read them back and require the
array API's numbers. The fuzz tests damage a valid file byte by byte and require, for every damaged
copy, the right number or a clear ``ValueError`` (in Python) / exit 1 with a message (on the
command line): never a traceback, never a changed number without a word.
"""

from __future__ import annotations

import gzip
import warnings

import numpy as np
import pandas as pd
import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

import recfair as rf  # noqa: E402
from recfair import io as rio  # noqa: E402

MEASURES = ["MRR", "NDCG", "Gini_ori", "Jain_our"]
# (file name, writer keywords, how the reader orders the rows: "rank", "trec" or "score")
WRITERS = [("run.trec", {}, "trec"), ("run.json", {}, "score"), ("run.csv", {"style": "recfair"}, "rank"),
           ("run.csv", {"style": "lenskit"}, "rank"), ("run.csv", {"style": "recommenders"}, "score"),
           ("run.tsv", {"style": "elliot"}, "score"), ("run.inter", {"style": "recbole"}, "score"),
           ("run.parquet", {"style": "lenskit"}, "rank"), ("run.parquet", {"style": "recommenders"}, "score")]
# ids that no reader could take for a header or a number: letters (one accented), digits, underscore
ID = st.text(alphabet="abxyzé_0123456789", min_size=1, max_size=6).filter(lambda s: not s.isdigit())


@st.composite
def worlds(draw):
    m = draw(st.integers(2, 6))
    n = draw(st.integers(4, 9))
    k = draw(st.integers(1, min(4, n)))
    users = draw(st.lists(ID, min_size=m, max_size=m, unique=True))
    items = draw(st.lists(ID, min_size=n, max_size=n, unique=True))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    top = np.array([rng.choice(n, k, replace=False) for _ in range(m)])
    # scores from a small set, non-increasing along each list: ties are common
    scores = -np.sort(-rng.choice([0.25, 0.5, 1.0, 2.0], size=(m, k)), axis=1)
    relevant = [np.sort(rng.choice(n, rng.integers(1, n), replace=False)) for _ in range(m)]
    return users, items, top, scores, relevant, draw(st.booleans()), draw(st.sampled_from(["", "bom", "crlf",
                                                                                            "gz", "bom+crlf+gz"]))


def _expected(frame, items, top, how):
    """The lists as the tool that wrote the file means them (computed here independently of recfair.io)."""
    if how == "rank":
        return top
    index = {item: j for j, item in enumerate(items)}
    out = []
    for user in dict.fromkeys(frame["user"]):     # frame rows: in file order
        rows = frame[frame["user"] == user]
        entries = list(zip(rows["score"], rows["item"]))
        if how == "trec":                          # trec_eval: descending score, then descending docno
            entries.sort(key=lambda e: e[1].encode(), reverse=True)
            entries.sort(key=lambda e: -e[0])
        else:                                      # descending score, ties in the file's order
            entries.sort(key=lambda e: -e[0])
        out.append((user, [index[i] for _, i in entries]))
    return out


def _mangle(path, how):
    data = path.read_bytes()
    if "crlf" in how and path.suffix != ".parquet":
        data = data.replace(b"\n", b"\r\n")
    if "bom" in how and path.suffix != ".parquet":
        data = b"\xef\xbb\xbf" + data
    if "gz" in how:
        target = path.with_name(path.name + ".gz")
        target.write_bytes(gzip.compress(data))
        path.unlink()
        return target
    path.write_bytes(data)
    return path


@pytest.mark.parametrize("filename, kw, how", WRITERS, ids=[f"{w[0]}-{w[1].get('style', '')}" for w in WRITERS])
@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(world=worlds())
def test_random_runs_through_every_writer_and_reader_give_the_array_apis_numbers(tmp_path_factory, filename, kw,
                                                                                 how, world):
    users, items, top, scores, relevant, shuffle, mangle = world
    tmp = tmp_path_factory.mktemp("prop")
    m, k = top.shape
    frame = pd.DataFrame({"user": np.repeat(users, k), "item": np.asarray(items, dtype=object)[top.ravel()],
                          "rank": np.tile(np.arange(1, k + 1), m), "score": scores.ravel()})
    if shuffle:
        frame = frame.sample(frac=1.0, random_state=len(users) + len(items)).reset_index(drop=True)
    path = _mangle(rio.write_run(frame, tmp / filename, **kw), mangle)
    qrels = _mangle(rio.write_relevant(relevant, tmp / "test.qrels", users=users, items=items), mangle)
    (tmp / "items.txt").write_text("\n".join(items) + "\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")            # disagreeing ranks and ties are announced; checked elsewhere
        data = rio.load(path, relevant=qrels, items=tmp / "items.txt", k=k)
    name = next(iter(data.top_k))
    if how == "rank":
        want_top = top
        order = users
    else:
        written = rio.read_run(path)               # the rows as the file holds them
        pairs = _expected(written, items, top, how)
        order = [u for u, _ in pairs]
        want_top = np.array([lst for _, lst in pairs])
    rows = {u: j for j, u in enumerate(order)}
    perm = [rows[str(u)] for u in data.users.ids]
    got_top = data.top_k[name]
    assert np.array_equal(got_top, want_top[perm]), (filename, kw, mangle)
    truth = [relevant[users.index(str(u))] for u in data.users.ids]
    want = rf.evaluate(want_top[perm], n_items=len(items), measures=MEASURES, relevant=truth, on_undefined="nan")
    got = data.evaluate(MEASURES).set_index("measure")["value"].to_dict()
    assert got == pytest.approx(want, nan_ok=True)


# --------------------------------------------------------------------------- fuzz: damaged files

def _fuzz_world(tmp_path):
    users = ["ann", "bob", "cat", "dan"]
    items = [f"it{j}" for j in range(8)]
    top = np.array([[0, 1, 2], [3, 4, 5], [6, 7, 0], [1, 3, 5]])
    relevant = [[0, 5], [4], [7, 2], [1, 3]]
    run = rio.write_run(top, tmp_path / "clean.trec", users=users, items=items,
                        scores=np.array([[0.9, 0.7, 0.5], [0.8, 0.6, 0.4], [0.95, 0.3, 0.1], [0.5, 0.45, 0.2]]))
    qrels = rio.write_relevant(relevant, tmp_path / "test.qrels", users=users, items=items)
    (tmp_path / "items.txt").write_text("\n".join(items) + "\n")
    want = rf.evaluate(top, n_items=len(items), measures=MEASURES, relevant=relevant)
    return run, qrels, tmp_path / "items.txt", want


def _outcome(path, qrels, items):
    """``("value", numbers, warned)`` or ``("error", message)``; anything else fails the test."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            data = rio.load({"run": path}, relevant=qrels, items=items, k=3)
            values = data.evaluate(MEASURES).set_index("measure")["value"].to_dict()
        except ValueError as err:
            return ("error", str(err))
    return ("value", values, [str(w.message) for w in caught])


# bytes that damage a text file in the ways files get damaged: NUL, invalid UTF-8, a lone lead byte,
# a line break, a field separator, a byte-order mark in the middle
DAMAGE = [b"\x00", b"\xff", b"\xc3", b"\n", b" ", b"\xef\xbb\xbf"]


@pytest.mark.parametrize("kind", ["replace", "insert", "truncate"])
def test_a_damaged_trec_file_gives_the_right_number_or_a_clear_error(tmp_path, kind):
    run, qrels, items, want = _fuzz_world(tmp_path)
    clean = run.read_bytes()
    bad = tmp_path / "bad.trec"
    outcomes = {"same": 0, "error": 0, "announced": 0}
    positions = range(len(clean)) if kind != "truncate" else range(1, len(clean))
    for pos in positions:
        variants = [clean[:pos]] if kind == "truncate" else \
            [clean[:pos] + d + clean[pos + (kind == "replace"):] for d in DAMAGE]
        for data in variants:
            bad.write_bytes(data)
            result = _outcome(bad, qrels, items)
            if result[0] == "error":
                message = result[1]
                assert "bad.trec" in message or "ground-truth users" in message or "k=3" in message, message
                outcomes["error"] += 1
            elif result[1] == pytest.approx(want, nan_ok=True):
                outcomes["same"] += 1
            else:                                   # a changed number must come with a warning naming the change
                assert result[2], (pos, data)
                outcomes["announced"] += 1
    assert outcomes["error"] > 0 and outcomes["same"] > 0


@pytest.mark.parametrize("suffix, stride", [(".csv", 2), (".trec.gz", 2), (".json", 2), (".parquet", 13)])
def test_a_damaged_gzip_csv_json_or_parquet_file_gives_the_right_number_or_a_clear_error(tmp_path, suffix, stride):
    run, qrels, items, want = _fuzz_world(tmp_path)
    frame = rio.read_run(run)[["user", "item", "rank", "score"]]
    clean_path = tmp_path / f"clean{suffix}"
    if suffix == ".trec.gz":
        clean_path.write_bytes(gzip.compress(run.read_bytes()))
    else:
        rio.write_run(frame, clean_path)
    clean = clean_path.read_bytes()
    bad = tmp_path / f"bad{suffix}"
    outcomes = []
    for pos in range(0, len(clean), stride):
        for d in (b"\x00", b"\xff", b","):
            bad.write_bytes(clean[:pos] + d + clean[pos + 1:])
            result = _outcome(bad, qrels, items)       # only ValueError may escape as an error
            if result[0] == "value" and result[1] != pytest.approx(want, nan_ok=True):
                assert result[2], (suffix, pos, d)      # changed: announced
            outcomes.append(result[0])
    assert "error" in outcomes


def test_the_command_line_never_shows_a_traceback_on_a_damaged_file(tmp_path, capsys):
    from recfair.io.cli import main

    run, qrels, items, want = _fuzz_world(tmp_path)
    clean = run.read_bytes()
    bad = tmp_path / "bad.trec"
    for pos in range(0, len(clean), 7):
        for d in (b"\x00", b"\xff", b"\n", b" "):
            bad.write_bytes(clean[:pos] + d + clean[pos + 1:])
            status = main(["evaluate", str(bad), "--qrels", str(qrels), "--items", str(items), "-m", *MEASURES,
                           "-k", "3", "--format", "json"])
            out, err = capsys.readouterr()
            assert "Traceback" not in err
            if status == 0:
                import json

                got = {v["measure"]: v["value"] for v in json.loads(out)["values"]}
                if got != pytest.approx(want):
                    assert "warning" in err, (pos, d, err)
            else:
                assert status == 1 and "recfair: error: " in err, err
