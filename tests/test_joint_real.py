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
import _reference as reference

import recfair as rf
from recfair import datasets as ds
from recfair.recommenders import produce_run
from recfair.recommenders.rerank import rerank_run

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
    """IAA per user (tests/_reference.py); the corrected version min-max scaled between relevant-on-top
    and relevant-at-the-bottom, users with an empty range left out."""
    m, n = rel.shape
    raw = np.array([reference.iaa_user(rel[u][ranking[u]], k, corrected) for u in range(m)])
    if not corrected:
        return raw.mean()
    R = rel.sum(axis=1).astype(int)
    low = np.array([reference.iaa_user(np.r_[np.ones(r), np.zeros(n - r)], k, True) for r in R])
    high = np.array([reference.iaa_user(np.r_[np.zeros(n - r), np.ones(r)], k, True) for r in R])
    ok = high > low
    return ((raw[ok] - low[ok]) / (high[ok] - low[ok])).mean()


def ref_ifd_div(rel, ranking, k, corrected):
    """IFD÷ per user (tests/_reference.py), with the published runs' conventions: the original reads the
    full ranking; the corrected one the top-k, min-max scaled between all relevant items below k and
    half-half (ceil(R/2) on top), a user with one relevant item scoring 0."""
    m, n = rel.shape
    out = []
    for u in range(m):
        by_rank = rel[u][ranking[u]]
        raw = reference.ifd_div_user(by_rank, k if corrected else None)
        if not corrected:
            out.append(raw)
            continue
        R = int(by_rank.sum())
        if R == 1:
            out.append(0.0)                                          # the experiments' convention
            continue
        e = reference.dcg_exposure(n, k)
        front = R - R // 2
        low = reference.pair_excess(np.zeros(R))                     # all relevant items below k
        high = reference.pair_excess(np.r_[e[:front], np.zeros(R - front)])
        out.append((raw - low) / (high - low))
    return np.mean(out)


def ref_ifd_mul(rel, ranking, pos, k, n_check_users=25):
    """IFD× per user over all n items for the first users (tests/_reference.py), and the J matrix."""
    m, n = rel.shape
    values = np.array([reference.ifd_mul_user(rel[u][ranking[u]], k) for u in range(min(m, n_check_users))])
    J = rel * reference.dcg_exposure(n, k)[pos - 1]
    return values, J


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
    """II-F and AI-F (tests/_reference.py) and the corrected II-F with the authors' strategies
    (relevant items on top / at the bottom of the full ranking)."""
    m, n = rel.shape
    k = top_k.shape[1]
    E, target = reference.exposure_and_target(top_k, rel, gamma)
    diff = E - target
    iif = (diff ** 2).mean()
    aif = (diff.mean(axis=0) ** 2).mean()
    per_user = (diff ** 2).mean(axis=1)
    R = rel.sum(axis=1).astype(int)
    low = np.array([reference.iif_user(np.r_[np.ones(r), np.zeros(n - r)], k, gamma) for r in R])
    high = np.array([reference.iif_user(np.r_[np.zeros(n - r), np.ones(r)], k, gamma) for r in R])
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
                "itemknn-CM": rerank_run(itemknn, method="combmnz", k=K, k_prime=25, score_only_top=10).to_run()}
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
    got = rf.evaluate_run(run, measures=keys, on_undefined="nan")

    assert got["IAA_ori"] == pytest.approx(ref_iaa(rel, ranking, K, corrected=False), abs=1e-12)
    assert got["IAA_our"] == pytest.approx(ref_iaa(rel, ranking, K, corrected=True), abs=1e-12)
    assert got["IFD_div_ori"] == pytest.approx(ref_ifd_div(rel, ranking, K, corrected=False), abs=1e-12)
    assert got["IFD_div_our"] == pytest.approx(ref_ifd_div(rel, ranking, K, corrected=True), abs=1e-12)

    per_user, J = ref_ifd_mul(rel, ranking, pos, K)
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

    assert got["HD"] == pytest.approx(reference.hd(top_k, rel), abs=1e-12)
    mme, ibo, iwo = ref_impacts(rel, top_k)
    assert got["MME"] == pytest.approx(mme, abs=1e-15)
    assert got["IBO_our"] == pytest.approx(ibo) and got["IWO_our"] == pytest.approx(iwo)
    assert np.isnan(got["IBO_ori"]) == (rel.sum(axis=0) == 0).any()
    iif, aif, iif_our = ref_iif_aif(rel, top_k)
    assert got["II-F_ori"] == pytest.approx(iif, abs=1e-15)
    assert got["AI-F"] == pytest.approx(aif, abs=1e-15)
    assert got["II-F_our"] == pytest.approx(iif_our, abs=1e-12)
