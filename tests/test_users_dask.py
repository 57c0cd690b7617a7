"""The pairwise user measures on a real Dask cluster (``client=``): the local values, a lost worker, bad input.

One module-scoped ``LocalCluster(n_workers=2, processes=True, threads_per_worker=1)``; small runs.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest
import scipy.sparse as sp

import recfair as rf
from recfair.scale._distributed import check_client, map_blocks
from recfair.users import UserSimilarity, mean_envy_user, mean_max_envy_user, peu, puf, uf, uf_details, user_similarity

distributed = pytest.importorskip("distributed")

M, N, K = 400, 300, 10


@pytest.fixture(scope="module")
def client():
    cluster = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0",
                                       silence_logs=40)
    with distributed.Client(cluster) as c:
        yield c
    cluster.close()


@pytest.fixture(scope="module")
def run():
    hist, rel = rf.synthetic.random_split(M, N, relevant=8, history=20, seed=11)
    top = rf.synthetic.random_top_k(M, N, K, seed=12)
    scores = np.random.default_rng(13).random(M)
    return top, rel, hist, scores


def _same(a, b):
    return a == pytest.approx(b, rel=1e-12, abs=1e-15)


@pytest.mark.parametrize("kind", ["jaccard", "cosine"])
def test_puf_on_the_cluster_equals_the_local_value(client, run, kind):
    _, _, hist, scores = run
    local = puf(scores, similarity=UserSimilarity.from_history(hist, similarity=kind), minmax=True)
    remote = puf(scores, similarity=UserSimilarity.from_history(hist, similarity=kind), minmax=True, client=client, block_size=37)
    assert _same(remote, local)
    assert _same(puf(scores, similarity=UserSimilarity.from_history(hist, similarity=kind), client=client),
                 puf(scores, similarity=UserSimilarity.from_history(hist, similarity=kind)))


def test_puf_with_a_given_matrix_on_the_cluster(client, run):
    _, _, hist, scores = run
    sim = user_similarity(hist[:60], similarity="jaccard", minmax=True)
    for matrix in (sim, sp.csr_matrix(np.where(sim > 0.3, sim, 0.0))):
        assert _same(puf(scores[:60], similarity=matrix, client=client, block_size=7), puf(scores[:60], similarity=matrix))


def test_envy_measures_on_the_cluster_equal_the_local_values(client, run):
    top, rel, _, _ = run
    for phi in ("k", "ideal"):
        assert _same(mean_envy_user(top, relevant=rel, n_items=N, phi=phi, client=client),
                     mean_envy_user(top, relevant=rel, n_items=N, phi=phi))
        assert _same(mean_max_envy_user(top, relevant=rel, n_items=N, phi=phi, client=client, block_size=50),
                     mean_max_envy_user(top, relevant=rel, n_items=N, phi=phi))
        assert _same(peu(top, relevant=rel, n_items=N, phi=phi, envy_tolerance=0.1, client=client),
                     peu(top, relevant=rel, n_items=N, phi=phi, envy_tolerance=0.1))


def test_uf_on_the_cluster_equals_the_local_value(client, run):
    top, _, hist, _ = run
    local = uf_details(top, history=hist, n_items=N)
    remote = uf_details(top, history=hist, n_items=N, client=client, block_size=64)
    assert _same(remote["sum"], local["sum"]) and remote["n_similar_pairs"] == local["n_similar_pairs"]
    assert _same(uf(top, history=hist, n_items=N, similarity="cosine", client=client),
                 uf(top, history=hist, n_items=N, similarity="cosine"))


def test_bad_input_raises_the_local_error_before_anything_is_sent(client, run):
    top, rel, hist, scores = run
    source = UserSimilarity.from_history(hist, similarity="jaccard")
    bad = scores.copy()
    bad[3] = 1.5
    for call in (lambda c: puf(bad, similarity=source, client=c),
                 lambda c: puf(scores, similarity=source, normalization="twice", client=c),
                 lambda c: mean_envy_user(top, relevant=rel, n_items=N - 1, client=c),
                 lambda c: peu(top, relevant=rel, n_items=N, envy_tolerance=-1, client=c),
                 lambda c: uf(top, history=hist, n_items=N, item_vectors=np.ones((N - 1, 3)), client=c)):
        with pytest.raises(ValueError) as local:
            call(None)
        with pytest.raises(ValueError) as remote:
            call(client)
        assert str(remote.value) == str(local.value)
    with pytest.raises(TypeError, match="dask.distributed.Client"):
        puf(scores, similarity=source, client="tcp://127.0.0.1:8786")
    with pytest.raises(TypeError, match="dask.distributed.Client"):
        check_client(object())


def _slow_down_blocks(delay):
    """In a worker: make every PUF block sleep ``delay`` s first (so a kill lands mid-computation)."""
    from recfair.users import _kernels

    original = getattr(_kernels, "_unpatched_pair_stats_task", _kernels._pair_stats_task)
    _kernels._unpatched_pair_stats_task = original

    def slowed(shared, users):
        time.sleep(delay)
        return original(shared, users)

    _kernels._pair_stats_task = slowed if delay else original


def test_a_worker_killed_mid_computation_does_not_change_the_result(client, run):
    _, _, hist, scores = run
    expected = puf(scores, similarity=UserSimilarity.from_history(hist, similarity="jaccard"), minmax=True)
    client.run(_slow_down_blocks, 0.25)
    pids = client.run(os.getpid)
    try:
        with ThreadPoolExecutor(1) as pool:
            pending = pool.submit(puf, scores, similarity=UserSimilarity.from_history(hist, similarity="jaccard"), minmax=True,
                                  client=client, block_size=M // 16)
            victim = None
            deadline = time.monotonic() + 30
            while victim is None and time.monotonic() < deadline:
                busy = [addr for addr, keys in client.processing().items() if keys]
                victim = busy[0] if busy else None
                time.sleep(0.02)
            assert victim is not None, "no block ever started on the cluster"
            os.kill(pids[victim], signal.SIGKILL)
            assert not pending.done(), "the computation ended before the worker was killed"
            value = pending.result(timeout=120)
    finally:
        client.wait_for_workers(2, timeout=60)
        client.run(_slow_down_blocks, 0)
    assert pids[victim] not in client.run(os.getpid).values()          # the nanny replaced the killed worker
    assert _same(value, expected)


def test_map_blocks_runs_the_same_blocks_locally_and_on_the_cluster(client):
    blocks = [np.arange(b, 100, 7) for b in range(7)]
    local = map_blocks(_weighted_sum, blocks, shared=np.linspace(0, 1, 100))
    remote = map_blocks(_weighted_sum, blocks, shared=np.linspace(0, 1, 100), client=client)
    assert remote == local
    assert map_blocks(_weighted_sum, blocks, shared=np.linspace(0, 1, 100), client=client, combine=sum) == sum(local)


def _weighted_sum(shared, block):
    return float(shared[block].sum())


def test_without_a_client_dask_is_never_imported(tmp_path):
    code = ("import sys, numpy as np, recfair as rf\n"
            "from recfair.users import UserSimilarity, puf, uf, mean_envy_user\n"
            "hist, rel = rf.synthetic.random_split(50, 40, relevant=4, history=6, seed=0)\n"
            "top = rf.synthetic.random_top_k(50, 40, 5, seed=1)\n"
            "puf(np.linspace(0, 1, 50), similarity=UserSimilarity.from_history(hist, similarity='jaccard'), minmax=True)\n"
            "uf(top, history=hist, n_items=40); mean_envy_user(top, relevant=rel, n_items=40)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('dask', 'distributed')]\n"
            "assert not bad, bad\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=tmp_path,
                   env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
