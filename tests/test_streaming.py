"""rf.evaluate on runs larger than memory: long parquet runs and Dask DataFrames, scores in blocks."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.scale.blocks import ACCUMULABLE
from recfair.scale.streaming import user_ranges

M, N, K = 230, 40, 5


def _data(seed=1):
    rng = np.random.default_rng(seed)
    scores = rng.random((M, N)) + np.linspace(0.6, 0, N)
    history = [rng.choice(N, 3, replace=False) for _ in range(M)]
    for u, h in enumerate(history):
        scores[u, h] = -np.inf
    top_k = rf.top_k_from_scores(scores, k=K)
    relevant = [rng.choice(np.setdiff1d(np.arange(N), history[u]), 1 + u % 5, replace=False) for u in range(M)]
    return scores, top_k, history, relevant


SCORES, TOP_K, HISTORY, RELEVANT = _data()
ATTRS = pd.DataFrame({"group": np.where(np.arange(M) % 3 == 0, "a", "b")})
NAMES = [key for key in ACCUMULABLE if key != "IFD_div_ori"]


def _long(top_k, shuffle=True):
    m, k = top_k.shape
    frame = pd.DataFrame({"user": np.repeat(np.arange(m), k), "item": top_k.ravel(), "rank": np.tile(np.arange(1, k + 1), m)})
    return frame.sample(frac=1.0, random_state=0) if shuffle else frame


def _pairs(sets):
    return pd.DataFrame({"user": np.repeat(np.arange(len(sets)), [len(s) for s in sets]),
                         "item": np.concatenate(sets).astype(np.int64)})


@pytest.fixture(scope="module")
def paths(tmp_path_factory):
    root = tmp_path_factory.mktemp("long")
    run = _long(TOP_K, shuffle=False)
    run.to_parquet(root / "run.parquet", row_group_size=97)            # row groups cut users in two
    (root / "parts").mkdir()
    shuffled = _long(TOP_K)
    for i, rows in enumerate(np.array_split(np.arange(len(shuffled)), 3)):   # an unsorted directory of files
        shuffled.iloc[rows].to_parquet(root / "parts" / f"{i}.parquet")
    _pairs(RELEVANT).to_parquet(root / "relevant.parquet", row_group_size=50)
    _pairs(HISTORY).to_parquet(root / "history.parquet")
    return root


def _expected(names, **options):
    return rf.evaluate(TOP_K, n_items=N, measures=names, relevant=RELEVANT, history=HISTORY, scores=SCORES,
                       user_attributes=ATTRS, on_undefined="nan", **options)


def _close(a, b):
    assert list(a) == list(b)
    for key in a:
        assert b[key] == pytest.approx(a[key], rel=1e-12, abs=1e-15, nan_ok=True), key


@pytest.mark.parametrize("block_users", [1, 17, 1000])
def test_parquet_long_run_equals_in_memory(paths, block_users):
    got = rf.evaluate(str(paths / "run.parquet"), n_items=N, measures=NAMES, relevant=paths / "relevant.parquet",
                      history=paths / "history.parquet", user_attributes=ATTRS, on_undefined="nan",
                      block_users=block_users)
    _close(_expected(NAMES), got)


def test_unsorted_parquet_directory_and_pandas_ground_truth(paths):
    got = rf.evaluate(paths / "parts", n_items=N, measures=["NDCG", "Gini_our", "IAA_our"], k=K,
                      relevant=_pairs(RELEVANT).sample(frac=1.0, random_state=3), block_users=50)
    _close(_expected(["NDCG", "Gini_our", "IAA_our"]), got)


def test_dask_dataframe_streams_partition_by_partition():
    dd = pytest.importorskip("dask.dataframe")
    run = dd.from_pandas(_long(TOP_K), npartitions=4)
    rel = dd.from_pandas(_pairs(RELEVANT), npartitions=3)
    got = rf.evaluate(run, n_items=N, measures=["MAP", "Jain_our", "II-F_our"], relevant=rel, block_users=64)
    _close(_expected(["MAP", "Jain_our", "II-F_our"]), got)
    indexed = dd.from_pandas(_long(TOP_K, shuffle=False).set_index("user"), npartitions=5, sort=True)
    got = rf.evaluate(indexed, n_items=N, measures=["MAP", "Jain_our"], relevant=rel, block_users=64)
    _close(_expected(["MAP", "Jain_our"]), got)


def test_ifd_div_ori_scores_in_blocks(paths):
    expected = _expected(["IFD_div_ori", "NDCG"])
    calls = []

    def scores(users):
        calls.append(len(users))
        return SCORES[users]

    got = rf.evaluate(paths / "run.parquet", n_items=N, measures=["IFD_div_ori", "NDCG"],
                      relevant=paths / "relevant.parquet", history=paths / "history.parquet", scores=scores,
                      block_users=40)
    _close(expected, got)
    assert max(calls) <= 40 and sum(calls) == M
    # an in-memory run whose scores come from a callback or a Dask array
    got = rf.evaluate(TOP_K, n_items=N, measures=["IFD_div_ori", "NDCG"], relevant=RELEVANT, history=HISTORY,
                      scores=lambda users: SCORES[users])
    _close(expected, got)
    da = pytest.importorskip("dask.array")
    got = rf.evaluate(None, n_items=N, k=K, measures=["IFD_div_ori", "NDCG"], relevant=RELEVANT, history=HISTORY,
                      scores=da.from_array(SCORES, chunks=(50, N)))
    _close(expected, got)


def test_clear_errors(paths, tmp_path):
    with pytest.raises(ValueError, match="PUF"):
        rf.evaluate(paths / "run.parquet", n_items=N, measures=["PUF"], relevant=paths / "relevant.parquet")
    with pytest.raises(ValueError, match="NDCG needs relevant"):
        rf.evaluate(paths / "run.parquet", n_items=N, measures=["NDCG"])
    bad = _long(TOP_K, shuffle=False)
    bad.loc[3, "item"] = N + 2
    bad.to_parquet(tmp_path / "bad.parquet")
    with pytest.raises(ValueError, match=str(N + 2)):
        rf.evaluate(tmp_path / "bad.parquet", n_items=N, measures=["Gini_ori"])
    bad = _long(TOP_K, shuffle=False).drop(index=7)
    bad.to_parquet(tmp_path / "short.parquet")
    with pytest.raises(ValueError, match="user 1 has 4 rows"):
        rf.evaluate(tmp_path / "short.parquet", n_items=N, measures=["Gini_ori"])
    _long(TOP_K).rename(columns={"rank": "pos"}).to_parquet(tmp_path / "cols.parquet")
    with pytest.raises(ValueError, match="no column 'rank'"):
        rf.evaluate(tmp_path / "cols.parquet", n_items=N, measures=["Gini_ori"])
    with pytest.raises(ValueError, match="ranking= is not supported"):
        rf.evaluate(paths / "run.parquet", n_items=N, measures=["HR"], ranking=np.zeros((2, 2)))
    with pytest.raises(ValueError, match="callback returned shape"):
        rf.evaluate(TOP_K, n_items=N, measures=["IFD_div_ori"], relevant=RELEVANT, scores=lambda users: SCORES[:1])


def test_user_ranges_cover_every_user_once():
    ranges = user_ranges(3, 20, 0, 1, 5)
    assert ranges[0].lo == 3 and ranges[-1].hi == 21
    assert all(a.hi == b.lo for a, b in zip(ranges, ranges[1:]))
