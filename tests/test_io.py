"""recfair.io: every reader and writer, the shared id map, the catalogue, reported problems, peers' numbers."""

from __future__ import annotations

import json
import warnings

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair import io as rio


def _world(seed=0, m=30, n=40, k=5, max_relevant=8):
    rng = np.random.default_rng(seed)
    users = [f"u{j:03d}" for j in range(m)]
    items = [f"i{j:03d}" for j in range(n)]
    top = np.array([rng.choice(n, k, replace=False) for _ in range(m)])
    relevant = [np.sort(rng.choice(n, rng.integers(1, max_relevant), replace=False)) for _ in range(m)]
    return users, items, top, relevant


# --------------------------------------------------------------------------- round trips

ROUND_TRIPS = [("run.trec", {}), ("run.txt", {}), ("run.json", {}), ("run.csv", {"style": "recfair"}),
               ("run.csv", {"style": "lenskit"}), ("run.csv", {"style": "recommenders"}),
               ("run.tsv", {"style": "elliot"}), ("run.tsv", {"style": "lenskit"}), ("run.inter", {"style": "recbole"}),
               ("run.parquet", {"style": "lenskit"}), ("run.parquet", {"style": "recommenders"})]


@pytest.mark.parametrize("filename, kw", ROUND_TRIPS)
def test_run_round_trip_through_every_writer_and_reader(tmp_path, filename, kw):
    users, items, top, relevant = _world()
    path = rio.write_run(top, tmp_path / filename, users=users, items=items, **kw)
    qrels = rio.write_relevant(relevant, tmp_path / "test.qrels", users=users, items=items)
    data = rio.load({"m": path}, relevant=qrels, items=items, k=5)
    assert data.users.ids.tolist() == users                  # already sorted
    assert np.array_equal(data.top_k["m"], top)
    assert [np.flatnonzero(r).tolist() for r in data.relevant.toarray()] == [r.tolist() for r in relevant]
    # and the numbers equal recfair.evaluate on the original arrays
    want = rf.evaluate(top, n_items=len(items), measures=["NDCG", "Gini_our"], relevant=relevant)
    assert rf.evaluate_run(data.run("m"), measures=["NDCG", "Gini_our"]) == pytest.approx(want)


@pytest.mark.parametrize("filename, kw", [("t.qrels", {}), ("t.json", {}), ("t.csv", {}), ("t.tsv", {}),
                                          ("t.inter", {"style": "recbole"}), ("t.parquet", {})])
def test_ground_truth_round_trip(tmp_path, filename, kw):
    frame = pd.DataFrame({"user": ["a", "a", "b"], "item": ["x", "y", "x"], "relevance": [1.0, 3.0, 2.0]})
    path = rio.write_relevant(frame, tmp_path / filename, **kw)
    back = rio.read_relevant(path)
    assert back[["user", "item"]].values.tolist() == frame[["user", "item"]].values.tolist()
    assert back["relevance"].tolist() == frame["relevance"].tolist()


def test_ranx_objects_round_trip():
    pytest.importorskip("ranx")
    users, items, top, relevant = _world(1)
    run = rio.to_ranx(top, users=users, items=items, name="model")
    qrels = rio.to_ranx(relevant, users=users, items=items, kind="qrels")
    data = rio.load({"model": run}, relevant=qrels, items=items)
    assert np.array_equal(data.top_k["model"], top)
    back = rio.from_ranx(run)
    assert set(back.columns) >= {"user", "item", "score"}
    frame = data.to_frame("model")
    assert frame["user"].iloc[0] == users[0] and frame["item"].iloc[0] == items[top[0, 0]]


def test_the_id_map_is_shared_by_run_truth_history_and_attributes():
    run = pd.DataFrame({"user": [7, 7, 3, 3], "item": ["b", "c", "a", "c"], "rank": [1, 2, 1, 2]})
    truth = pd.DataFrame({"user": ["3", "7"], "item": ["c", "d"]})            # ids as strings: same users
    history = pd.DataFrame({"user": [3, 7], "item": ["d", "a"]})
    attrs = pd.DataFrame({"user_id": [7, 3], "gender": ["F", "M"]})
    data = rio.load(run, relevant=truth, history=history, items=["a", "b", "c", "d"], user_attributes=attrs)
    assert data.users.ids.tolist() == [3, 7]                                 # integer ids sort numerically
    assert data.top_k["run"].tolist() == [[0, 2], [1, 2]]
    assert data.relevant.toarray().astype(int).tolist() == [[0, 0, 1, 0], [0, 0, 0, 1]]
    assert data.history.toarray().astype(int).tolist() == [[0, 0, 0, 1], [1, 0, 0, 0]]
    assert data.user_attributes["gender"].tolist() == ["M", "F"]


# --------------------------------------------------------------------------- ordering and ties

def test_score_only_runs_keep_the_files_order_of_ties_and_say_so():
    scores = pd.DataFrame({"user": ["u"] * 4, "item": ["d", "c", "b", "a"], "score": [0.5, 0.9, 0.5, 0.5]})
    with pytest.warns(UserWarning, match=r"tied scores within the top 4; the tie-break \(file order\)"):
        data = rio.load(scores, k=4)
    # c first (0.9); the three tied at 0.5 in the order of the rows: d, b, a
    assert data.items.ids[data.top_k["run"][0]].tolist() == ["c", "d", "b", "a"]
    assert "tied scores" in data.report["issue"].iloc[-1] and data.order == {"run": "score"}
    ranked = scores.assign(rank=[4, 3, 2, 1])                     # a rank column beats the scores
    with pytest.warns(UserWarning, match="disagrees with the scores for 1 user"):
        data = rio.load(ranked, items=["a", "b", "c", "d"], k=4)
    assert data.items.ids[data.top_k["run"][0]].tolist() == ["a", "b", "c", "d"]
    with pytest.warns(UserWarning):
        assert rio.load(ranked, items=["a", "b", "c", "d"], k=4, order="score").top_k["run"][0].tolist() == [2, 3, 1, 0]
    with pytest.warns(UserWarning):
        assert rio.load(ranked, items=["a", "b", "c", "d"], k=4, order="file").top_k["run"][0].tolist() == [3, 2, 1, 0]


def test_trec_runs_follow_the_scores_as_trec_eval_does(tmp_path):
    # ranks contradict the scores on line 2; d2 and d3 tie at 0.5: trec_eval puts the larger docno first
    path = tmp_path / "r.trec"
    path.write_text("q Q0 d1 1 0.1 t\nq Q0 d2 2 0.5 t\nq Q0 d3 3 0.5 t\nq Q0 d4 4 0.9 t\n")
    with pytest.warns(UserWarning) as caught:
        data = rio.load(path, items=["d1", "d2", "d3", "d4"], k=4)
    text = " ".join(str(w.message) for w in caught)
    assert "r.trec: the rank column disagrees with the scores for 1 user(s) (first at line 1)" in text
    assert "descending document id" in text
    assert data.items.ids[data.top_k["r"][0]].tolist() == ["d4", "d3", "d2", "d1"]
    with pytest.warns(UserWarning, match="disagrees"):
        ranked = rio.load(path, items=["d1", "d2", "d3", "d4"], k=4, order="rank")
    assert ranked.top_k["r"][0].tolist() == [0, 1, 2, 3] and ranked.order == {"r": "rank"}
    ranx = pytest.importorskip("ranx")
    run = ranx.Run.from_file(str(path), kind="trec")
    assert list(run.to_dict()["q"])[0] == "d4"         # ranx too ranks by score


# --------------------------------------------------------------------------- the catalogue

def test_catalogue_is_never_guessed(tmp_path):
    run = pd.DataFrame({"user": ["u", "u"], "item": ["a", "b"], "rank": [1, 2]})
    truth = pd.DataFrame({"user": ["u"], "item": ["a"]})
    data = rio.load(run, relevant=truth)
    assert data.catalogue == "union" and "catalogue measures refused" in data.report["issue"].iloc[0]
    assert data.evaluate(["MRR"])["value"].tolist() == [1.0]             # relevance measures need no catalogue
    with pytest.raises(ValueError, match=r"Gini_ori depend\(s\) on the catalogue size.*items="):
        data.evaluate(["MRR", "Gini_ori"])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert rio.load(run, n_items=10).n_items == 10
        (tmp_path / "items.txt").write_text("a\nb\nc\n")
        assert rio.load(run, items=tmp_path / "items.txt").n_items == 3
    with pytest.raises(ValueError, match="smaller than the 2 distinct items"):
        rio.load(run, n_items=1)


# --------------------------------------------------------------------------- problems counted, not dropped silently

def test_unknown_ids_missing_truth_and_short_lists_are_reported():
    run = pd.DataFrame({"user": ["a", "a", "b", "b", "c", "d", "d"],
                        "item": ["x", "y", "x", "zz", "x", "x", "y"], "rank": [1, 2, 1, 2, 1, 1, 2]})
    truth = pd.DataFrame({"user": ["a", "b", "c"], "item": ["x", "y", "y"]})
    with pytest.raises(ValueError, match=r"2 of the 3 ground-truth users have a list shorter than k=2"):
        rio.load(run, relevant=truth, items=["x", "y"], k=2)
    with pytest.warns(UserWarning) as caught:
        data = rio.load(run, relevant=truth, items=["x", "y"], k=2, missing_users="drop")
    text = " ".join(str(w.message) for w in caught)
    assert "outside the item list" in text and "left out" in text
    report = data.report.set_index("issue")["count"]
    assert report["unknown item ids (rows dropped)"] == 1          # zz
    assert report["lists shorter than k=2"] == 2                   # b (after dropping zz) and c
    assert report["users without relevant items (dropped)"] == 1   # d
    assert data.users.ids.tolist() == ["a"]
    assert "2 ground-truth user(s) with a list shorter than k=2" in data.policy()
    with pytest.raises(ValueError, match="shorter than k=2"):
        rio.load(run, relevant=truth, items=["x", "y", "zz"], k=2, on_missing="raise", missing_users="drop")


def test_users_missing_from_one_run_are_counted():
    a = pd.DataFrame({"user": ["u", "v"], "item": ["x", "x"], "rank": [1, 1]})
    b = pd.DataFrame({"user": ["u"], "item": ["y"], "rank": [1]})
    with pytest.warns(UserWarning, match="left out"):
        data = rio.load({"a": a, "b": b}, n_items=2)
    assert data.report.set_index(["source", "issue"])["count"][("run b", "users of other runs missing from this run")] == 1
    assert data.users.ids.tolist() == ["u"]


def test_history_items_in_the_lists_are_an_error():
    run = pd.DataFrame({"user": ["u", "u"], "item": ["x", "y"], "rank": [1, 2]})
    with pytest.raises(ValueError, match="in the users' history"):
        rio.load(run, history=pd.DataFrame({"user": ["u"], "item": ["y"]}), n_items=3)


# --------------------------------------------------------------------------- malformed files

@pytest.mark.parametrize("name, text, match", [
    ("bad.trec", "q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 2 0.4\n", r"bad.trec: line 2: expected a TREC run line"),
    ("bad.trec", "q1 Q0 d1 1 0.5 tag\nq1 Q0 d2 x 0.4 tag\n", r"bad.trec: line 2: rank 'x' is not an integer"),
    ("bad.trec", "q1 Q0 d1 1 0.5 t\nq1 Q0 d1 2 0.4 t\n", r"bad.trec: line 2: item 'd1' appears twice"),
    ("bad.csv", "user_id,item_id,score\n1,2,0.5\n1,3,oops\n", r"bad.csv: line 3: score 'oops' is not a number"),
    ("bad.csv", "user_id,item_id,rank\n1,2,1\n1,3,1\n", r"line 3: rank 1 repeats for user '1'"),
    ("bad.csv", "who,what,score\n1,2,0.5\n", r"no user column"),
    ("bad.json", '{"q": {"d": 1}', r"bad.json: line 1: not valid JSON"),
    ("bad.tsv", "1\t2\t0.5\n1\t3\t0.4\t9\t9\n", r"bad.tsv: malformed TSV file"),
])
def test_malformed_files_name_the_file_and_line(tmp_path, name, text, match):
    path = tmp_path / name
    path.write_text(text)
    with pytest.raises(ValueError, match=match):
        rio.load(path, n_items=10, k=1)


def test_format_detection(tmp_path):
    (tmp_path / "a.txt").write_text("q1 Q0 d1 1 0.5 tag\n")
    (tmp_path / "q.txt").write_text("q1 0 d1 1\n")
    (tmp_path / "e.tsv").write_text("1\t2\t4.0\t881250949\n")
    (tmp_path / "f.txt").write_text("user,item,score\n1,2,0.5\n")
    assert rio.detect_format(tmp_path / "a.txt") == "trec"
    assert rio.detect_format(tmp_path / "q.txt", kind="relevant") == "trec"
    assert rio.detect_format(tmp_path / "e.tsv") == "tsv"          # Elliot's headerless TSV is not TREC
    assert rio.detect_format(tmp_path / "f.txt") == "csv"
    elliot = rio.read_relevant(tmp_path / "e.tsv")
    assert elliot[["user", "item", "relevance"]].values.tolist() == [["1", "2", 4.0]]


def test_recbole_inter_files(tmp_path):
    (tmp_path / "ml.train.inter").write_text("user_id:token\titem_id:token\trating:float\ttimestamp:float\n"
                                             "1\t10\t4\t100\n1\t11\t5\t101\n2\t10\t3\t102\n")
    (tmp_path / "ml.test.inter").write_text("user_id:token\titem_id:token\trating:float\ttimestamp:float\n"
                                            "1\t12\t5\t200\n2\t12\t4\t201\n")
    run = pd.DataFrame({"user_id": [1, 2], "item_id": [12, 11], "score": [0.9, 0.8]})
    data = rio.load(run, relevant=tmp_path / "ml.test.inter", history=tmp_path / "ml.train.inter", n_items=3, k=1)
    assert data.relevance is not None                     # ratings are grades
    assert rf.evaluate_run(data.run("run"), measures=["HR"]) == {"HR": 0.5}


# --------------------------------------------------------------------------- peers: ranx and ir_measures

def _peer_world(tmp_path, seed=3):
    users, items, top, relevant = _world(seed, m=60, n=50, k=10, max_relevant=25)   # some users: |R_u| > k
    run_path = rio.write_run(top, tmp_path / "run.trec", users=users, items=items)     # scores k..1, no ties
    qrels_path = rio.write_relevant(relevant, tmp_path / "test.qrels", users=users, items=items)
    data = rio.load({"run": run_path}, relevant=qrels_path, items=items, k=10)
    mine = rf.evaluate_per_user(data.top_k["run"], n_items=data.n_items, relevant=data.relevant,
                                measures=["HR", "MRR", "P", "R", "MAP", "NDCG"], users=data.users.ids)
    return run_path, qrels_path, data, mine


def test_ranx_gives_recfairs_per_user_values(tmp_path):
    ranx = pytest.importorskip("ranx")
    run_path, qrels_path, data, mine = _peer_world(tmp_path)
    run, qrels = ranx.Run.from_file(str(run_path), kind="trec"), ranx.Qrels.from_file(str(qrels_path), kind="trec")
    names = {"HR": "hit_rate@10", "MRR": "mrr@10", "P": "precision@10", "R": "recall@10", "NDCG": "ndcg@10",
             "MAP": "map@10"}
    ranx.evaluate(qrels, run, list(names.values()), make_comparable=True)
    for ours, theirs in names.items():
        peer = pd.Series(run.scores[theirs]).reindex(mine.index.astype(str))
        if ours == "MAP":
            continue
        np.testing.assert_allclose(mine[ours].to_numpy(), peer.to_numpy(), rtol=1e-9, atol=1e-12, err_msg=ours)
    # MAP: ranx (like trec_eval) divides AP@k by |R_u|; recfair (like RecBole) by min(k, |R_u|)
    peer_ap = pd.Series(run.scores["map@10"]).reindex(mine.index.astype(str)).to_numpy()
    n_rel = np.diff(data.relevant.indptr)
    np.testing.assert_allclose(mine["MAP"].to_numpy(), peer_ap * n_rel / np.minimum(n_rel, 10), rtol=1e-9)
    many = n_rel > 10
    assert many.any() and not many.all()
    np.testing.assert_allclose(mine["MAP"].to_numpy()[~many], peer_ap[~many], rtol=1e-9)     # |R_u| <= k: equal
    assert (mine["MAP"].to_numpy()[many] > peer_ap[many]).all() or (peer_ap[many] == 0).any()


def test_ir_measures_gives_recfairs_per_user_values(tmp_path):
    irm = pytest.importorskip("ir_measures")
    run_path, qrels_path, data, mine = _peer_world(tmp_path, seed=4)
    qrels = list(irm.read_trec_qrels(str(qrels_path)))
    run = list(irm.read_trec_run(str(run_path)))
    measures = {"HR": irm.Success @ 10, "MRR": irm.RR @ 10, "P": irm.P @ 10, "R": irm.R @ 10,
                "NDCG": irm.nDCG @ 10, "MAP": irm.AP @ 10}
    got = {(m.query_id, str(m.measure)): m.value for m in irm.iter_calc(list(measures.values()), qrels, run)}
    n_rel = np.diff(data.relevant.indptr)
    for ours, theirs in measures.items():
        peer = np.array([got[(str(u), str(theirs))] for u in data.users.ids])
        if ours == "MAP":          # trec_eval's AP@k divides by |R_u|, recfair's by min(k, |R_u|)
            peer = peer * n_rel / np.minimum(n_rel, 10)
        np.testing.assert_allclose(mine[ours].to_numpy(), peer, rtol=1e-6, atol=1e-9, err_msg=ours)


def test_map_differs_exactly_for_users_with_more_than_k_relevant_items(tmp_path):
    ranx = pytest.importorskip("ranx")
    users, items = ["u1", "u2"], [f"i{j}" for j in range(30)]
    top = np.array([[0, 1, 2], [0, 1, 2]])
    relevant = [[0, 2], [0, 2, 5, 6, 7, 8]]                 # u2 has 6 > k = 3 relevant items
    run = rio.to_ranx(top, users=users, items=items)
    qrels = rio.to_ranx(relevant, users=users, items=items, kind="qrels")
    ranx.evaluate(qrels, run, ["map@3"])
    ours = rf.evaluate_per_user(top, n_items=30, relevant=relevant, measures=["MAP"])["MAP"].to_numpy()
    theirs = np.array([run.scores["map@3"][u] for u in users])
    assert ours[0] == pytest.approx(theirs[0])             # |R| <= k: same
    assert ours[1] == pytest.approx(theirs[1] * 6 / 3)     # |R| > k: min(k, |R|) = 3 vs |R| = 6


def test_json_is_rankx_dict_form(tmp_path):
    path = rio.write_run(np.array([[1, 0]]), tmp_path / "r.json", users=["q"], items=["a", "b"])
    assert json.loads(path.read_text()) == {"q": {"b": 2.0, "a": 1.0}}


# --------------------------------------------------------------------------- the doors: files that go wrong

def _files(tmp_path, m=12, n=20, k=4, seed=3):
    users, items, top, relevant = _world(seed, m=m, n=n, k=k, max_relevant=5)
    run = rio.write_run(top, tmp_path / "run.trec", users=users, items=items)
    qrels = rio.write_relevant(relevant, tmp_path / "test.qrels", users=users, items=items)
    want = rf.evaluate(top, n_items=n, measures=["MRR", "NDCG", "Gini_ori"], relevant=relevant)
    return users, items, top, relevant, run, qrels, want


def test_a_headerless_rank_file_is_refused_until_columns_say_what_it_holds(tmp_path):
    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    frame = rio.read_run(run)[["user", "item", "rank"]]
    path = tmp_path / "nohead.csv"
    frame.to_csv(path, index=False, header=False)
    with pytest.raises(ValueError, match=r"nohead.csv: no header, and column 3 holds whole numbers only: it could "
                                         r"be a rank .* columns=\['user', 'item', 'rank'\]"):
        rio.load(path, relevant=qrels, items=items)
    data = rio.load(path, relevant=qrels, items=items, columns=["user", "item", "rank"])
    assert data.evaluate(["MRR", "NDCG", "Gini_ori"]).set_index("measure")["value"].to_dict() == pytest.approx(want)
    read_as_scores = rio.load(path, relevant=qrels, items=items, columns="user,item,score")   # the wrong reading, asked for
    assert not np.array_equal(read_as_scores.top_k["nohead"], data.top_k["nohead"])
    with pytest.raises(ValueError, match="columns= names 2 columns, the file has 3"):
        rio.load(path, relevant=qrels, items=items, columns=["user", "item"])
    with pytest.raises(ValueError, match="among user, item, rank"):
        rio.load(path, relevant=qrels, items=items, columns=["user", "item", "rnak"])


def test_bom_crlf_and_gzip_read_as_the_plain_file(tmp_path):
    import gzip

    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    raw = run.read_bytes()
    variants = {"bom.trec": b"\xef\xbb\xbf" + raw, "crlf.trec": raw.replace(b"\n", b"\r\n"),
                "zipped.trec.gz": gzip.compress(raw), "both.trec.gz": gzip.compress(b"\xef\xbb\xbf" +
                                                                                     raw.replace(b"\n", b"\r\n"))}
    (tmp_path / "items.txt").write_bytes(b"\xef\xbb\xbf" + "\r\n".join(items).encode() + b"\r\n")
    qz = tmp_path / "test.qrels.gz"
    qz.write_bytes(gzip.compress(b"\xef\xbb\xbf" + qrels.read_bytes()))
    for name, data in variants.items():
        (tmp_path / name).write_bytes(data)
        got = rio.load(tmp_path / name, relevant=qz, items=tmp_path / "items.txt")
        assert list(got.top_k) == [name.split(".")[0]]
        assert np.array_equal(got.top_k[name.split(".")[0]], top), name
        assert got.evaluate(["MRR", "NDCG", "Gini_ori"]).set_index("measure")["value"].to_dict() == \
            pytest.approx(want)
    broken = tmp_path / "broken.trec.gz"
    broken.write_bytes(gzip.compress(raw)[:-9])
    with pytest.raises(ValueError, match="broken.trec.gz: not a readable gzip file"):
        rio.load(broken, relevant=qrels, items=items)


def test_bytes_that_are_not_text_are_refused_naming_file_and_line(tmp_path):
    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    lines = run.read_bytes().split(b"\n")
    lines[6] = lines[6].replace(b"u", b"\xe9", 1)                       # a latin-1 e-acute on line 7
    bad = tmp_path / "latin.trec"
    bad.write_bytes(b"\n".join(lines))
    with pytest.raises(ValueError, match=r"latin.trec: line 7: byte b'\\xe9' is not utf-8 text; pass encoding="):
        rio.load(bad, relevant=qrels, items=items)
    data = rio.load(bad, relevant=qrels, items=items, encoding="latin-1", missing_users="drop", on_missing="drop")
    # read as latin-1, line 7's user is a new user "é..." with one item: both halves are short lists, reported
    assert data.report["issue"].str.contains("shorter than k=4").any() and len(data.users) == len(users) - 1
    nul = tmp_path / "nul.trec"
    nul.write_bytes(run.read_bytes().replace(b"u001", b"u0\x001", 1))
    with pytest.raises(ValueError, match=r"nul.trec: line \d+: control character"):
        rio.load(nul, relevant=qrels, items=items)
    empty = tmp_path / "empty.csv"
    empty.write_text("")
    with pytest.raises(ValueError, match="empty.csv: the file is empty"):
        rio.load(empty, relevant=qrels, items=items)
    with pytest.raises(ValueError, match="is a folder, not a file"):
        rio.load(tmp_path, relevant=qrels, items=items)
    with pytest.raises(ValueError, match="unknown encoding"):
        rio.load(run, relevant=qrels, items=items, encoding="klingon")


def test_ground_truth_users_without_a_list_need_a_policy(tmp_path):
    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    extra = tmp_path / "more.qrels"
    extra.write_text(qrels.read_text() + "ghost1 0 i001 1\nghost2 0 i002 1\nghost3 0 i003 0\n")
    with pytest.raises(ValueError, match=r"2 of the 14 ground-truth users have no list in any run .*"
                                         r"missing_users='zero'.*missing_users='drop'"):
        rio.load(run, relevant=extra, items=items)
    dropped = rio.load(run, relevant=extra, items=items, missing_users="drop")
    assert dropped.evaluate(["MRR"])["value"].iloc[0] == pytest.approx(want["MRR"])
    assert "2 ground-truth user(s) without a list are left out" in dropped.policy()
    zero = rio.load(run, relevant=extra, items=items, missing_users="zero")
    got = zero.evaluate(["MRR", "Gini_ori"]).set_index("measure")["value"]
    assert got["MRR"] == pytest.approx(want["MRR"] * 12 / 14)          # trec_eval -c: the mean over all 14
    assert got["Gini_ori"] == pytest.approx(want["Gini_ori"])           # the lists are the lists
    assert "count as 0" in zero.policy()
    with pytest.raises(ValueError, match="missing_users must be"):
        rio.load(run, relevant=extra, items=items, missing_users="ignore")


def test_graded_ground_truth_gives_graded_measures_their_grades(tmp_path):
    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    rng = np.random.default_rng(0)
    grades = [rng.integers(1, 5, len(r)).astype(float) for r in relevant]
    frame = pd.DataFrame({"user": np.repeat(users, [len(r) for r in relevant]),
                          "item": [items[i] for r in relevant for i in r], "relevance": np.concatenate(grades)})
    frame = pd.concat([frame, pd.DataFrame({"user": [users[0]], "item": [items[top[0, 0]]], "relevance": [0.0]})])
    path = rio.write_relevant(frame.drop_duplicates(["user", "item"], keep="first"), tmp_path / "graded.qrels")
    data = rio.load(run, relevant=path, items=items)
    got = data.evaluate(["NDCG", "IAA_ori"]).set_index("measure")["value"]
    import scipy.sparse as sp

    dense = np.zeros((len(users), len(items)))
    for u, (r, g) in enumerate(zip(relevant, grades)):
        dense[u, r] = g
    assert got["IAA_ori"] == pytest.approx(rf.evaluate(top, n_items=len(items), measures=["IAA_ori"],
                                                       relevance=sp.csr_matrix(dense))["IAA_ori"])
    assert got["NDCG"] == pytest.approx(want["NDCG"])                   # binary: grade > 0
    assert "graded ground truth" in data.policy()


def test_every_nan_carries_its_reason():
    run = pd.DataFrame({"user": ["a", "a", "b", "b"], "item": ["x", "y", "x", "y"], "rank": [1, 2, 1, 2]})
    truth = pd.DataFrame({"user": ["a", "b"], "item": ["x", "x"]})
    data = rio.load(run, relevant=truth, n_items=3)
    out = data.evaluate(["IBO_ori", "NDCG"]).set_index("measure")
    assert np.isnan(out.loc["IBO_ori", "value"]) and "relevant to no user" in out.loc["IBO_ori", "reason"]
    assert out.loc["NDCG", "reason"] == ""
    with pytest.raises(ValueError, match=r"option\(s\) \['gamma'\] are taken by none"):
        data.evaluate(["NDCG"], gamma=0.5)


def test_k_longer_than_every_list_is_an_error_that_says_so():
    run = pd.DataFrame({"user": ["a", "a"], "item": ["x", "y"], "rank": [1, 2]})
    with pytest.raises(ValueError, match=r"k=5 but the longest list in the runs has 2 item\(s\)"):
        rio.load(run, n_items=10, k=5)


def test_file_order_and_unordered_runs(tmp_path):
    path = tmp_path / "pairs.csv"
    path.write_text("u,b\nu,a\nv,a\nv,c\n")
    with pytest.raises(ValueError, match="nothing orders the lists"):
        rio.load(path, n_items=3)
    with pytest.raises(ValueError, match="neither a rank nor a score"):
        rio.load(path, n_items=3, columns=["user", "item"])
    data = rio.load(path, n_items=3, columns=["user", "item"], order="file")
    assert data.items.ids[data.top_k["pairs"]].tolist() == [["b", "a"], ["a", "c"]]


def test_evaluate_on_a_run_file_points_to_the_reader(tmp_path):
    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    with pytest.raises(ValueError, match=r"run.trec is a run file, not a parquet long run.*recfair.io.load"):
        rf.evaluate(str(run), n_items=len(items), measures=["MRR"], relevant=str(qrels))


def test_compare_on_files_keeps_the_doors(tmp_path):
    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    with pytest.raises(ValueError, match="Gini_ori depend"):
        rf.compare({"a": run}, measures=["Gini_ori"], relevant=qrels, n_resamples=10, k=4)
    extra = tmp_path / "more.qrels"
    extra.write_text(qrels.read_text() + "ghost 0 i001 1\n")
    with pytest.raises(ValueError, match="1 of the 13 ground-truth users have no list"):
        rf.compare({"a": run}, measures=["MRR"], relevant=extra, items=items, n_resamples=10, k=4)
    report = rf.compare({"a": run}, measures=["MRR"], relevant=extra, items=items, n_resamples=10, k=4, missing_users="drop")
    assert report.values["value"].iloc[0] == pytest.approx(want["MRR"])
    with pytest.raises(ValueError, match="point values only"):
        rf.compare({"a": run}, measures=["MRR"], relevant=extra, items=items, n_resamples=10, k=4, missing_users="zero")


def test_compare_on_graded_files_gives_graded_measures_their_grades(tmp_path):
    users, items, top, relevant, run, qrels, want = _files(tmp_path)
    graded = tmp_path / "graded.qrels"
    graded.write_text("".join(line.rsplit(" ", 1)[0] + f" {1 + j % 3}\n"
                              for j, line in enumerate(qrels.read_text().splitlines())))
    data = rio.load(run, relevant=graded, items=items)
    report = rf.compare({"a": run}, measures=["IAA_ori", "Gini_ori"], relevant=graded, items=items, k=4, n_resamples=10)
    assert report.values.set_index("measure")["value"].to_dict() == pytest.approx(
        data.evaluate(["IAA_ori", "Gini_ori"]).set_index("measure")["value"].to_dict())
    assert report.values.set_index("measure")["value"]["IAA_ori"] != pytest.approx(
        rio.load(run, relevant=qrels, items=items).evaluate(["IAA_ori"])["value"].iloc[0])
    with pytest.raises(ValueError, match="the ground truth is graded"):
        rf.compare({"a": run}, measures=["IAA_ori", "NDCG"], relevant=graded, items=items, k=4, n_resamples=10)
