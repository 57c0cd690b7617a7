"""client= on a real local Dask cluster (two worker processes): same values, lost workers, same errors."""

from __future__ import annotations

import os
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.scale.blocks import ACCUMULABLE

distributed = pytest.importorskip("distributed")

M, N, K = 300, 50, 6


def _data(seed=7):
    rng = np.random.default_rng(seed)
    scores = rng.random((M, N)) + np.linspace(0.5, 0, N)
    history = [rng.choice(N, 4, replace=False) for _ in range(M)]
    for u, h in enumerate(history):
        scores[u, h] = -np.inf
    top_k = rf.top_k_from_scores(scores, k=K)
    relevant = [rng.choice(np.setdiff1d(np.arange(N), history[u]), 1 + u % 6, replace=False) for u in range(M)]
    attrs = pd.DataFrame({"g": rng.choice(["a", "b", "c"], M)})
    return dict(top_k=top_k, scores=scores, history=history, relevant=relevant, user_attributes=attrs)


DATA = _data()


@pytest.fixture(scope="module")
def client():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None,
                                           silence_logs=50)
        client = distributed.Client(cluster)
    yield client
    client.close()
    cluster.close()


def _close(a, b):
    assert list(a) == list(b)
    for key in a:
        assert b[key] == pytest.approx(a[key], rel=1e-12, abs=1e-15, nan_ok=True), key


NAMES = list(ACCUMULABLE) + ["MME", "PUF", "ME_user"]


def test_evaluate_with_client_equals_local(client):
    local = rf.evaluate(DATA["top_k"], n_items=N, measures=NAMES, on_undefined="nan",
                        **{k: v for k, v in DATA.items() if k != "top_k"})
    remote = rf.evaluate(DATA["top_k"], n_items=N, measures=NAMES, on_undefined="nan", client=client,
                         **{k: v for k, v in DATA.items() if k != "top_k"})
    _close(local, remote)


def test_per_user_and_effectiveness_with_client(client):
    names = ["NDCG", "R", "IAA_our", "II-F_ori"]
    local = rf.evaluate_per_user(DATA["top_k"], n_items=N, measures=names, relevant=DATA["relevant"],
                                 on_undefined="nan", users=np.arange(M) + 100)
    remote = rf.evaluate_per_user(DATA["top_k"], n_items=N, measures=names, relevant=DATA["relevant"],
                                  on_undefined="nan", users=np.arange(M) + 100, client=client)
    pd.testing.assert_frame_equal(local, remote, rtol=1e-12)
    eff = local["NDCG"].to_numpy()
    rng = np.random.default_rng(0)
    sim = rng.random((M, M))
    sim = (sim + sim.T) / 2
    np.fill_diagonal(sim, 1.0)
    kwargs = dict(groups=DATA["user_attributes"]["g"].to_numpy(), similarity=sim)
    names = ["PUF", "SD_ind", "Gini_ind", "Range_group", "Atk_ind"]
    # the per-user-effectiveness entry point (rf.evaluate_effectiveness after issue 16)
    entry = rf.evaluate_effectiveness
    _close(entry(eff, measures=names, **kwargs), entry(eff, measures=names, client=client, **kwargs))


def test_long_parquet_run_on_the_cluster(client, tmp_path):
    top_k = DATA["top_k"]
    run = pd.DataFrame({"user": np.repeat(np.arange(M), K), "item": top_k.ravel(), "rank": np.tile(np.arange(1, K + 1), M)})
    run.to_parquet(tmp_path / "run.parquet", row_group_size=200)
    rel = pd.DataFrame({"user": np.repeat(np.arange(M), [len(r) for r in DATA["relevant"]]),
                        "item": np.concatenate(DATA["relevant"])})
    rel.to_parquet(tmp_path / "rel.parquet")
    names = ["NDCG", "MRR", "Gini_our", "Ent_our", "IFD_mul_our"]
    local = rf.evaluate(top_k, n_items=N, measures=names, relevant=DATA["relevant"])
    _close(local, rf.evaluate(str(tmp_path / "run.parquet"), n_items=N, measures=names,
                              relevant=str(tmp_path / "rel.parquet"), client=client, block_users=40))


def test_dask_dataframe_with_a_client(client):
    dd = pytest.importorskip("dask.dataframe")
    top_k = DATA["top_k"]
    run = dd.from_pandas(pd.DataFrame({"user": np.repeat(np.arange(M), K), "item": top_k.ravel(),
                                       "rank": np.tile(np.arange(1, K + 1), M)}), npartitions=3)
    names = ["HR", "Gini_our"]
    _close(rf.evaluate(top_k, n_items=N, measures=names, relevant=DATA["relevant"]),
           rf.evaluate(run, n_items=N, measures=names, client=client, block_users=100,
                       relevant=pd.DataFrame({"user": np.repeat(np.arange(M), [len(r) for r in DATA["relevant"]]),
                                              "item": np.concatenate(DATA["relevant"])})))


def _slow_block(block, **kwargs):
    import time

    from recfair.scale.cluster import _accumulate_rows

    time.sleep(0.3)
    return _accumulate_rows(block, **kwargs)


def test_a_worker_killed_mid_computation_changes_nothing(client, monkeypatch):
    import recfair.scale.cluster as scale

    names = ["NDCG", "P", "Gini_our", "Jain_ori", "IAA_ori"]
    local = rf.evaluate(DATA["top_k"], n_items=N, measures=names, relevant=DATA["relevant"])
    monkeypatch.setattr(scale, "_accumulate_rows", _slow_block)
    monkeypatch.setattr(scale, "partitions", lambda n, c, task_users=0: [(a, min(a + 20, n)) for a in range(0, n, 20)])
    import threading

    before = set(client.scheduler_info()["workers"])

    def kill():
        import time

        deadline = time.time() + 60
        while time.time() < deadline and not any(client.processing().values()):   # the tasks are running
            time.sleep(0.05)
        time.sleep(0.2)
        try:
            client.run(lambda: os._exit(1), workers=sorted(before)[:1])   # a worker process dies mid-run
        except Exception:                                                # its connection closes as it dies
            pass

    killer = threading.Thread(target=kill)
    killer.start()
    got = rf.evaluate(DATA["top_k"], n_items=N, measures=names, relevant=DATA["relevant"], client=client)
    killer.join()
    _close(local, got)
    client.wait_for_workers(2, timeout=60)                          # the nanny restarts it
    assert set(client.scheduler_info()["workers"]) != before         # a worker really was lost


@pytest.mark.parametrize("bad", [
    dict(top_k=[[0, 1, 1]]),                                        # a repeated item
    dict(top_k=[[0, 1, N + 3]]),                                    # out of range
    dict(measures=["NDCG", "nope"]),
    dict(gamma=2.0, measures=["II-D"]),
])
def test_bad_input_raises_the_same_error(client, bad):
    call = dict(top_k=DATA["top_k"], n_items=N, measures=["NDCG", "Gini_our"], relevant=DATA["relevant"]) | bad
    if "top_k" in bad:
        call["relevant"] = [[0]]
    with pytest.raises(Exception) as local:
        rf.evaluate(call.pop("top_k"), **call)
    call["top_k"] = bad.get("top_k", DATA["top_k"])
    with pytest.raises(type(local.value)) as remote:
        rf.evaluate(call.pop("top_k"), **call, client=client)
    assert str(remote.value) == str(local.value)


def test_client_must_be_a_client():
    with pytest.raises(TypeError, match="dask.distributed.Client"):
        rf.evaluate([[0, 1]], n_items=3, measures=["HR"], relevant=[[1]], client="tcp://localhost:8786")


def test_dask_is_not_imported_without_a_client():
    import subprocess

    code = ("import sys, recfair as rf; rf.evaluate([[0, 1]], n_items=3, measures=['HR', 'Gini_our'], relevant=[[1]]);"
            "rf.Accumulator(measures=['HR'], n_items=3, k=2); print(any(m.split('.')[0] in ('dask', 'distributed') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
