"""The joint measures on real recommendation runs against dense transcriptions of the published code.

Each reference below follows the conventions of the authors' public code as the spec records them
(p2.md §3 [code] notes, p3.md §A): dense users x items matrices, the model's full ranking with the
train/validation items at the bottom, the extreme rankings built by the authors' strategies.
Nothing here calls recfair's kernels; only the run (lists, scores, relevance) comes from recfair.
"""

from __future__ import annotations

import numpy as np
import pytest
from _data_fixtures import SHARED_DATA
from _reference import loop_hd

import recfair as rf
from recfair import datasets as ds
from recfair.recommenders import produce_run
from recfair.rerank import rerank_run

K = 10


def dense(run):
    """Full ranking (stable sort of the scores, history last), binary relevance and their positions."""
    m, n = run.n_users, run.n_items
    ranking = np.argsort(-run.scores, axis=1, kind="stable")
    rel = run.relevant.toarray().astype(float)
    pos = np.empty((m, n), dtype=int)
    np.put_along_axis(pos, ranking, np.arange(1, n + 1)[None, :].repeat(m, 0), axis=1)
    return ranking, rel, pos


def ref_iaa(rel, ranking, k, corrected):
    m, n = rel.shape
    p = np.arange(1, n + 1)
    att = np.where(p <= k, (k + 1 - p) / k if corrected else (k - p) / (k - 1), 0.0)
    rel_by_rank = np.take_along_axis(rel, ranking, axis=1)
    raw = np.abs(att[None, :] - rel_by_rank).sum(axis=1) / n
    if not corrected:
        return raw.mean()
    R = rel.sum(axis=1).astype(int)
    low = np.array([np.abs(att - np.r_[np.ones(r), np.zeros(n - r)]).sum() / n for r in R])
    high = np.array([np.abs(att - np.r_[np.zeros(n - r), np.ones(r)]).sum() / n for r in R])
    ok = high > low
    return ((raw[ok] - low[ok]) / (high[ok] - low[ok])).mean()


def _pair_excess(J):
    return np.maximum(0.0, J[:, None] - J[None, :]).mean()       # cdist(J, J, max(0, u - v)).mean()


def ref_ifd_div(rel, pos, k, corrected):
    m, n = rel.shape
    e_full = 1 / np.log2(np.arange(1, n + 1) + 1)
    e = np.where(np.arange(1, n + 1) <= k, e_full, 0.0) if corrected else e_full
    out = []
    for u in range(m):
        J = e[pos[u, rel[u] > 0] - 1]
        raw = _pair_excess(J)
        if not corrected:
            out.append(raw)
            continue
        R = J.size
        if R == 1:
            out.append(0.0)                                          # the experiments' convention
            continue
        bottom = np.zeros(R)                                         # all relevant items below k
        front = R - R // 2                                           # half-half: ceil(R/2) on top
        half = np.r_[e[:front], np.zeros(R - front)]
        low, high = _pair_excess(bottom), _pair_excess(half)
        out.append((raw - low) / (high - low))
    return np.mean(out)


def ref_ifd_mul(rel, pos, k, n_check_users=25):
    """pdist over all n items for the first users; the authors' "all relevant on top" maximum."""
    m, n = rel.shape
    e = 1 / np.log2(np.arange(1, n + 1) + 1)
    J = np.where(pos <= k, rel * e[pos - 1], 0.0)
    values = []
    for u in range(min(m, n_check_users)):
        diff = J[u][:, None] - J[u][None, :]
        values.append((diff ** 2).sum() / (n * (n - 1)))
    return np.array(values), J


def ref_impacts(rel, top_k):
    m, n = rel.shape
    k = top_k.shape[1]
    inv = np.zeros((m, n))
    np.put_along_axis(inv, top_k, 1 / np.arange(1, k + 1)[None, :].repeat(m, 0), axis=1)
    imp_all = rel.T @ inv                                            # Imp_i(i') * m, dense n x n
    for i in np.random.default_rng(0).choice(n, size=60, replace=False):
        u_d_swap = (inv * rel[:, [i]]).sum(axis=0)                   # the authors' per-item loop
        assert np.allclose(u_d_swap, imp_all[i], rtol=0, atol=1e-12)
    mme = (imp_all.max(axis=1) - np.diag(imp_all)).mean() / m
    imp = (inv * rel).sum(axis=0) / m
    unif = rel.sum(axis=0) * (1 / np.arange(1, k + 1)).sum() / n / m
    mask = unif != 0
    return mme, (imp[mask] >= 1.1 * unif[mask]).mean(), (imp[mask] <= 0.9 * unif[mask]).mean()


def ref_iif_aif(rel, top_k, gamma=0.8):
    m, n = rel.shape
    k = top_k.shape[1]
    E = np.zeros((m, n))
    np.put_along_axis(E, top_k, gamma ** np.arange(k)[None, :].repeat(m, 0), axis=1)
    R = rel.sum(axis=1, keepdims=True)
    with np.errstate(invalid="ignore", divide="ignore"):
        target = np.nan_to_num(rel / R * (1 - gamma ** R) / (1 - gamma))
    diff = E - target
    iif = (diff ** 2).mean()
    aif = (diff.mean(axis=0) ** 2).mean()
    per_user = (diff ** 2).mean(axis=1)
    low, high = [], []
    for u in range(m):                                               # the authors' strategies
        r = int(R[u, 0])
        t = target[u][rel[u] > 0][0] if r else 0.0
        e_top = np.where(np.arange(n) < k, gamma ** np.arange(n), 0.0)
        v_top = np.r_[np.full(r, t), np.zeros(n - r)]
        v_bottom = np.r_[np.zeros(n - r), np.full(r, t)]
        low.append(((e_top - v_top) ** 2).mean())
        high.append(((e_top - v_bottom) ** 2).mean())
    low, high = np.array(low), np.array(high)
    ok = high > low
    return iif, aif, ((per_user[ok] - low[ok]) / (high[ok] - low[ok])).mean()


@pytest.fixture(scope="module")
def lastfm_runs(tmp_path_factory):
    if SHARED_DATA is None:
        pytest.skip("real datasets not available (set RECFAIR_DATA)")
    mp = pytest.MonkeyPatch()
    mp.setenv("RECFAIR_DATA", str(SHARED_DATA))
    mp.setenv("RECFAIR_CACHE", str(tmp_path_factory.mktemp("cache")))
    try:
        split = ds.load_split("lastfm", protocol="paper2", seed=2020)
        itemknn = produce_run("itemknn", split, k=K, progress=False)
        runs = {"itemknn": itemknn.to_run(), "pop": produce_run("pop", split, k=K).to_run(),
                "itemknn-CM": rerank_run(itemknn, "combmnz", k=K, k_prime=25, score_only_top=10).to_run()}
    finally:
        mp.undo()
    return runs


@pytest.mark.parametrize("name", ["itemknn", "pop", "itemknn-CM"])
def test_joint_measures_match_published_conventions(lastfm_runs, name):
    run = lastfm_runs[name]
    ranking, rel, pos = dense(run)
    top_k = run.top_k
    assert np.array_equal(ranking[:, :K], top_k)
    keys = rf.registry.names("joint")
    got = rf.evaluate_run(run, keys, on_undefined="nan")

    assert got["IAA_ori"] == pytest.approx(ref_iaa(rel, ranking, K, corrected=False), abs=1e-12)
    assert got["IAA_our"] == pytest.approx(ref_iaa(rel, ranking, K, corrected=True), abs=1e-12)
    assert got["IFD_div_ori"] == pytest.approx(ref_ifd_div(rel, pos, K, corrected=False), abs=1e-12)
    assert got["IFD_div_our"] == pytest.approx(ref_ifd_div(rel, pos, K, corrected=True), abs=1e-12)

    per_user, J = ref_ifd_mul(rel, pos, K)
    n = run.n_items
    s1, s2 = J.sum(axis=1), (J ** 2).sum(axis=1)
    closed = 2 * (n * s2 - s1 ** 2) / (n * (n - 1))
    assert closed[:per_user.size] == pytest.approx(per_user, abs=1e-15)   # the pdist definition itself
    assert got["IFD_mul_ori"] == pytest.approx(closed.mean(), abs=1e-15)
    # the authors' maximum: every relevant item as high as possible (n >> k here, so it is exact)
    e = 1 / np.log2(np.arange(1, K + 1) + 1)
    R = rel.sum(axis=1).astype(int)
    top_s1 = np.array([e[:min(r, K)].sum() for r in R])
    top_s2 = np.array([(e[:min(r, K)] ** 2).sum() for r in R])
    high = 2 * (n * top_s2 - top_s1 ** 2) / (n * (n - 1))
    ok = (R > 0) & (R < n)
    assert got["IFD_mul_our"] == pytest.approx((closed[ok] / high[ok]).mean(), abs=1e-12)

    assert got["HD"] == pytest.approx(loop_hd(top_k, rel), abs=1e-12)
    mme, ibo, iwo = ref_impacts(rel, top_k)
    assert got["MME"] == pytest.approx(mme, abs=1e-15)
    assert got["IBO_our"] == pytest.approx(ibo) and got["IWO_our"] == pytest.approx(iwo)
    assert np.isnan(got["IBO_ori"]) == (rel.sum(axis=0) == 0).any()
    iif, aif, iif_our = ref_iif_aif(rel, top_k)
    assert got["II-F_ori"] == pytest.approx(iif, abs=1e-15)
    assert got["AI-F"] == pytest.approx(aif, abs=1e-15)
    assert got["II-F_our"] == pytest.approx(iif_our, abs=1e-12)
