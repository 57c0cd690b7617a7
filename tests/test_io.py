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

def test_score_only_runs_use_recfairs_tie_rule_and_rank_columns_are_respected():
    scores = pd.DataFrame({"user": ["u"] * 4, "item": ["d", "c", "b", "a"], "score": [0.5, 0.9, 0.5, 0.5]})
    with pytest.warns(UserWarning, match="catalogue"):
        data = rio.load(scores, k=4)
    # c first (0.9); the three tied at 0.5 in item-index order: a < b < d (ids sorted)
    assert data.items.ids[data.top_k["run"][0]].tolist() == ["c", "a", "b", "d"]
    # with an item list, its order decides the ties
    data = rio.load(scores, items=["d", "b", "a", "c"], k=4)
    assert data.items.ids[data.top_k["run"][0]].tolist() == ["c", "d", "b", "a"]
    ranked = scores.assign(rank=[4, 3, 2, 1])                     # a rank column beats the scores
    data = rio.load(ranked, items=["a", "b", "c", "d"], k=4)
    assert data.items.ids[data.top_k["run"][0]].tolist() == ["a", "b", "c", "d"]
    assert rio.load(ranked, items=["a", "b", "c", "d"], k=4, order="score").top_k["run"][0].tolist() == [2, 0, 1, 3]


# --------------------------------------------------------------------------- the catalogue

def test_catalogue_is_never_guessed_silently(tmp_path):
    run = pd.DataFrame({"user": ["u", "u"], "item": ["a", "b"], "rank": [1, 2]})
    with pytest.warns(UserWarning, match="2 distinct items"):
        data = rio.load(run)
    assert data.n_items == 2 and "n_items taken from the union" in data.report["issue"].iloc[0]
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
    with pytest.warns(UserWarning) as caught:
        data = rio.load(run, relevant=truth, items=["x", "y"], k=2)
    text = " ".join(str(w.message) for w in caught)
    assert "outside the item list" in text and "left out" in text
    report = data.report.set_index("issue")["count"]
    assert report["unknown item ids (rows dropped)"] == 1          # zz
    assert report["lists shorter than k=2"] == 2                   # b (after dropping zz) and c
    assert report["users without relevant items (dropped)"] == 1   # d
    assert data.users.ids.tolist() == ["a"]
    with pytest.raises(ValueError, match="shorter than k=2"):
        rio.load(run, relevant=truth, items=["x", "y", "zz"], k=2, on_missing="raise")


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
