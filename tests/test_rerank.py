"""Fair re-rankers: COMBMNZ (both modes) and Borda Count, against hand computations and a
plain per-user reference written from the spec."""

import numpy as np
import pytest

import _reference as reference
import scipy.sparse as sp

from recfair.ranking import full_ranking, top_k_from_scores
from recfair.recommenders.rerank import Reranked, borda, combmnz, greedy_substitution, rerank_run, rerank_scores

# 3 users x 6 items, k=2, k'=4. Original top-4 (T):
#   u0 [0,1,2,3] scores 5,4,3,2   u1 [1,0,4,5] scores 5,4,3,1   u2 [0,2,5,4] scores 5,4,3,2
# global min/max of top-4 scores = 1/5, so s_A = (s - 1) / 4
# top-2 coverage: u0 {0,1}, u1 {1,0}, u2 {0,2} -> cov = [3, 2, 1, 0, 0, 0]; min/max 0/3
# s_B = 1 - cov/3 = [0, 1/3, 2/3, 1, 1, 1]
S = np.array([
    [5, 4, 3, 2, 0, 0],
    [4, 5, 0, 0, 3, 1],
    [5, 0, 4, 0, 2, 3],
], dtype=float)


def test_combmnz_thesis_mode_by_hand():
    out = combmnz(S, k=2, k_prime=4)
    third = 1 / 3
    expected = np.array([
        # u0: 0:(1+0)*1, 1:(.75+1/3)*2, 2:(.5+2/3)*2, 3:(.25+1)*2
        [1.0, (0.75 + third) * 2, (0.5 + 2 * third) * 2, 2.5, 0.0, 0.0],
        # u1: 1:(1+1/3)*2, 0:(.75+0)*1, 4:(.5+1)*2, 5:(0+1)*1
        [0.75, (1 + third) * 2, 0.0, 0.0, 3.0, 1.0],
        # u2: 0:(1+0)*1, 2:(.75+2/3)*2, 5:(.5+1)*2, 4:(.25+1)*2
        [1.0, 0.0, (0.75 + 2 * third) * 2, 0.0, 2.5, 3.0],
    ])
    np.testing.assert_allclose(out.scores, expected)
    assert out.ranking.tolist() == [[3, 2, 1, 0, 4, 5], [4, 1, 5, 0, 2, 3], [5, 2, 4, 0, 1, 3]]
    assert out.top_k.tolist() == [[3, 2], [4, 1], [5, 2]]
    assert isinstance(out, Reranked) and out.k == 2


def test_combmnz_published_mode_by_hand():
    # lists cut at 2 before fusion. A top-2 = T[:2]; B = T by (cov, id):
    #   u0 B=[3,2,1,0] -> {3,2};  u1 B=[4,5,1,0] -> {4,5};  u2 B=[4,5,2,0] -> {4,5}
    out = combmnz(S, k=2, k_prime=4, score_only_top=2)
    expected = np.array([
        [1.0, 0.75, 2 / 3, 1.0, 0.0, 0.0],   # 0: A only, 1: A only, 2: B only, 3: B only
        [0.75, 1.0, 0.0, 0.0, 1.0, 1.0],     # 1, 0 from A; 4, 5 from B (s_B = 1)
        [1.0, 0.0, 0.75, 0.0, 1.0, 1.0],     # 0, 2 from A; 4, 5 from B; item 5 cut from A
    ])
    np.testing.assert_allclose(out.scores, expected)
    # ties (fused 1.0) go to the lower item index; unscored items follow in index order
    assert out.ranking.tolist() == [[0, 3, 1, 2, 4, 5], [1, 4, 5, 0, 2, 3], [0, 4, 5, 2, 1, 3]]
    assert out.top_k.tolist() == [[0, 3], [1, 4], [0, 4]]


def test_borda_by_hand():
    # points 3,2,1,0 by position in A and in B
    out = borda(S, k=2, k_prime=4)
    assert out.scores[:, :].tolist() == [
        [3, 3, 3, 3, 0, 0],   # every candidate ties -> index order
        [2, 4, 0, 0, 4, 2],
        [3, 0, 3, 0, 3, 3],
    ]
    assert out.ranking.tolist() == [[0, 1, 2, 3, 4, 5], [1, 4, 0, 5, 2, 3], [0, 2, 4, 5, 1, 3]]
    assert out.top_k.tolist() == [[0, 1], [1, 4], [0, 2]]


def test_float32_input_gives_same_hand_results():
    for mode in (None, 2):
        a = combmnz(S.astype(np.float32), k=2, k_prime=4, score_only_top=mode)
        b = combmnz(S, k=2, k_prime=4, score_only_top=mode)
        assert np.array_equal(a.ranking, b.ranking)
        np.testing.assert_allclose(a.scores, b.scores, rtol=1e-6)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("mode", ["thesis", "published", "borda"])
def test_matches_reference(seed, mode):
    rng = np.random.default_rng(seed)
    m, n, k, kp = 7, 15, 3, 6
    scores = rng.integers(0, 6, size=(m, n)).astype(float) if seed % 2 else rng.random((m, n))
    scores[rng.random((m, n)) < 0.15] = -np.inf
    scores[:, :kp] = np.where(np.isneginf(scores[:, :kp]), 0.0, scores[:, :kp])  # >= k' finite per user
    method = "borda" if mode == "borda" else "combmnz"
    top = k if mode == "published" else None
    kw = {} if method == "borda" else {"score_only_top": top}
    out = rerank_scores(scores, method=method, k=k, k_prime=kp, **kw)
    ref_scores, ref_ranking = reference.fused_rerank(scores, k, kp, method, top)
    np.testing.assert_allclose(out.scores, ref_scores, atol=1e-12)
    assert np.array_equal(out.ranking, ref_ranking)
    assert np.array_equal(out.top_k, ref_ranking[:, :k])


# ---- properties -----------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [combmnz, lambda s, **kw: combmnz(s, score_only_top=kw["k"], **kw), borda])
def test_subset_prefix_permutation_determinism(fn):
    rng = np.random.default_rng(1)
    scores = rng.random((40, 60))
    out = fn(scores, k=10, k_prime=25)
    original = top_k_from_scores(scores, k=25)
    for u in range(40):
        assert set(out.top_k[u]) <= set(original[u])
    assert np.array_equal(out.ranking[:, :10], out.top_k)
    assert np.array_equal(np.sort(out.ranking, axis=1), np.broadcast_to(np.arange(60), (40, 60)))
    again = fn(scores.copy(), k=10, k_prime=25)
    assert np.array_equal(again.ranking, out.ranking) and np.array_equal(again.scores, out.scores)
    # the stored fused scores reproduce the ranking under the library's rule
    assert np.array_equal(full_ranking(out.scores), out.ranking)


def test_history_items_never_recommended_and_placed_last():
    scores = S.copy()
    scores[0, 4] = -np.inf          # an item that would otherwise tie at 0 in the tail
    scores[2, 1] = -np.inf
    h = combmnz(scores, k=2, k_prime=4)
    assert h.ranking[0].tolist() == [3, 2, 1, 0, 5, 4]
    assert h.ranking[2].tolist() == [5, 2, 4, 0, 3, 1]
    # authors' full ranking: excluded items sit among the zero-score items in index order
    a = combmnz(scores, k=2, k_prime=4, excluded_last=False)
    assert a.ranking[0].tolist() == [3, 2, 1, 0, 4, 5]
    assert np.array_equal(a.top_k, h.top_k)
    # a history item with the highest score is not a candidate
    rng = np.random.default_rng(3)
    big = rng.random((30, 40))
    big[:, 7] = 10.0
    big[::2, 7] = -np.inf
    for fn in (combmnz, borda):
        out = fn(big, k=5, k_prime=12)
        assert not (out.top_k[::2] == 7).any()
        assert (out.ranking[::2, -1] == 7).all()


def test_constant_scores_do_not_divide_by_zero():
    out = combmnz(np.ones((3, 5)), k=2, k_prime=3)
    # s_A = 0 everywhere; coverage [3,3,0,..] -> s_B = [0,0,1]: item 2 first, then index order
    assert out.top_k.tolist() == [[2, 0]] * 3
    assert np.isfinite(out.scores).all()


def _distinct(top_k):
    return np.unique(top_k).size


def test_rerankers_increase_coverage_on_popularity_biased_data():
    rng = np.random.default_rng(0)
    m, n = 300, 200
    popularity = np.sort(rng.pareto(1.5, n))[::-1]
    scores = popularity[None, :] + 0.3 * rng.standard_normal((m, n))
    original = top_k_from_scores(scores, k=10)
    for out in (combmnz(scores), combmnz(scores, score_only_top=10), borda(scores)):
        assert _distinct(out.top_k) > _distinct(original)
        # the slots taken by the ten most-recommended items of the original run shrink
        head = np.argsort(-np.bincount(original.ravel(), minlength=n), kind="stable")[:10]
        assert np.isin(out.top_k, head).sum() < np.isin(original, head).sum()


def test_k_equal_k_prime_cm_reorders_within_top_k():
    scores = np.random.default_rng(2).random((10, 20))
    for out in (combmnz(scores, k=5, k_prime=5),):
        original = top_k_from_scores(scores, k=5)
        assert np.array_equal(np.sort(out.top_k, axis=1), np.sort(original, axis=1))


# ---- validation -----------------------------------------------------------------------------
@pytest.mark.parametrize("fn", [combmnz, borda])
def test_validation_errors(fn):
    with pytest.raises(ValueError, match="exceeds k_prime"):
        fn(S, k=5, k_prime=4)
    with pytest.raises(ValueError, match="exceeds n_items"):
        fn(S, k=2, k_prime=7)
    bad = S.copy()
    bad[1, 2] = np.nan
    with pytest.raises(ValueError, match="NaN"):
        fn(bad, k=2, k_prime=4)
    with pytest.raises(ValueError, match="2-D"):
        fn(S[0], k=2, k_prime=4)
    with pytest.raises(TypeError, match="integer"):
        fn(S, k=2.5, k_prime=4)
    with pytest.raises(ValueError, match=">= 1"):
        fn(S, k=0, k_prime=4)
    few = S.copy()
    few[1, :3] = -np.inf
    with pytest.raises(ValueError, match="user at row 1 has only 3"):
        fn(few, k=2, k_prime=4)
    with pytest.raises(TypeError, match="excluded_last"):
        fn(S, k=2, k_prime=4, excluded_last="yes")


def test_combmnz_specific_validation_and_dispatch():
    with pytest.raises(ValueError, match="score_only_top=5 exceeds k_prime=4"):
        combmnz(S, k=2, k_prime=4, score_only_top=5)
    with pytest.raises(ValueError, match=">= 1"):
        combmnz(S, k=2, k_prime=4, score_only_top=0)
    with pytest.raises(ValueError, match="method must be one of"):
        rerank_scores(S, method="greedy", k=2, k_prime=4)
    assert np.array_equal(rerank_scores(S, method="CM", k=2, k_prime=4).ranking, combmnz(S, k=2, k_prime=4).ranking)
    assert np.array_equal(rerank_scores(S, method="bc", k=2, k_prime=4).ranking, borda(S, k=2, k_prime=4).ranking)


def test_empty_user_set():
    out = combmnz(np.zeros((0, 6)), k=2, k_prime=4)
    assert out.top_k.shape == (0, 2) and out.ranking.shape == (0, 6)


# ---- RecRun wrapper -------------------------------------------------------------------------
def _rec_run(scores_matrix, history):
    from recfair.recommenders.runs import RecRun

    hist = sp.csr_matrix(history, dtype=bool)
    scores = scores_matrix.astype(np.float32)
    scores[hist.toarray()] = -np.inf
    relevant = sp.csr_matrix(np.eye(*scores.shape, dtype=bool))
    return RecRun(model="toy", params={}, users=np.arange(scores.shape[0]), top_k=top_k_from_scores(scores, k=2),
                  scores=scores, relevant=relevant, history=hist, n_items=scores.shape[1], split_name="toy")


def test_rerank_run_roundtrip():
    history = np.zeros(S.shape, dtype=bool)
    history[0, 5] = history[1, 3] = True
    rec = _rec_run(S, history)
    new = rerank_run(rec, method="combmnz", k_prime=4, score_only_top=2)
    direct = combmnz(rec.scores, k=2, k_prime=4, score_only_top=2)
    assert np.array_equal(new.top_k, direct.top_k)
    assert new.info["rerank"] == {"method": "combmnz", "k": 2, "k_prime": 4, "score_only_top": 2}
    run = new.to_run()
    assert np.array_equal(run.ranking, direct.ranking)
    assert np.array_equal(rec.top_k, top_k_from_scores(rec.scores, k=2))  # original untouched
    with pytest.raises(ValueError, match="excluded_last"):
        rerank_run(rec, method="combmnz", k_prime=4, excluded_last=False)
    with pytest.raises(ValueError, match="stored scores"):
        import dataclasses

        rerank_run(dataclasses.replace(rec, scores=None), method="borda", k_prime=4)


# ---- greedy substitution --------------------------------------------------------------------
def test_greedy_substitution_by_hand():
    # cov over T = [3,2,1,0,0,0]: avg 1, max 3 -> sup = min(floor(1 + .15), 3) = 1, inf = .85
    # C+ = {0, 1}, C- = {3, 4, 5}. Best user per pair (loss = s(u,i) - s(u,i')):
    #   (0,3) u0 3   (0,4) u1 1   (0,5) u2 2   (1,3) u0 2   (1,4) u1 2   (1,5) u0 4 (tie u0/u1)
    # stable sort: (u1,0,4) (u2,0,5) (u0,1,3) (u1,1,4) (u0,0,3) (u0,1,5)
    out = greedy_substitution(S, k=2, k_prime=4)          # budget round(0.25*3*2) = 2
    assert out.info == {"c_plus": 2, "c_minus": 3, "sup": 1, "inf": pytest.approx(0.85), "pairs": 6,
                        "attempted": 2, "replaced": 2}
    assert out.ranking.tolist() == [[0, 1, 2, 3, 4, 5], [1, 4, 0, 5, 2, 3], [5, 2, 0, 4, 1, 3]]
    assert out.top_k.tolist() == [[0, 1], [1, 4], [5, 2]]
    full = greedy_substitution(S, k=2, k_prime=4, fraction=1.0)
    # (u0,1,3): 1<->3; (u1,1,4): 4 already in u1's top-k -> swap inside it; (u0,0,3): 0<->3;
    # (u0,1,5): item 1 left u0's top-k -> skipped
    assert full.info["attempted"] == 6 and full.info["replaced"] == 5
    assert full.ranking.tolist() == [[3, 0, 2, 1, 4, 5], [4, 1, 0, 5, 2, 3], [5, 2, 0, 4, 1, 3]]
    assert np.array_equal(full_ranking(full.scores), full.ranking)


def test_greedy_substitution_empty_sets_are_filled():
    # C- empty: cov [2, 1] -> sup 1, inf .9, C+ = {0}, C- filled with {1}; budget round(.75) = 1
    s = np.array([[5.0, 4.0, 0.0], [5.0, 1.0, 0.0], [1.0, 5.0, 0.0]])
    out = greedy_substitution(s, k=1, k_prime=1)
    assert out.ranking.tolist() == [[1, 0, 2], [0, 1, 2], [1, 0, 2]]
    assert out.info["c_minus"] == 1 and out.info["replaced"] == 1
    # both empty: only C+ is filled (authors' if/elif), so nothing changes
    s = np.array([[5.0, 4.0, 0.0], [4.0, 5.0, 0.0]])
    out = greedy_substitution(s, k=1, k_prime=2)
    assert out.info["c_minus"] == 0 and out.info["pairs"] == 0
    assert np.array_equal(out.ranking, full_ranking(s))


def test_greedy_substitution_properties():
    rng = np.random.default_rng(0)
    m, n = 200, 120
    popularity = np.sort(rng.pareto(1.5, n))[::-1]
    scores = (popularity[None, :] + 0.3 * rng.standard_normal((m, n))).astype(np.float32)
    scores[rng.random((m, n)) < 0.1] = -np.inf
    out = greedy_substitution(scores, k=10, k_prime=25)
    original = top_k_from_scores(scores, k=10)
    assert 0 < out.info["replaced"] <= out.info["attempted"] <= round(0.25 * m * 10)
    assert np.array_equal(np.sort(out.ranking, axis=1), np.broadcast_to(np.arange(n), (m, n)))
    assert np.array_equal(out.ranking[:, :10], out.top_k)
    assert not np.isneginf(np.take_along_axis(scores, out.top_k, axis=1)).any()
    assert np.array_equal(full_ranking(out.scores), out.ranking)
    assert _distinct(out.top_k) >= _distinct(original)
    head = np.argsort(-np.bincount(original.ravel(), minlength=n), kind="stable")[:10]
    assert np.isin(out.top_k, head).sum() < np.isin(original, head).sum()
    # each user changes at most by swaps: top-k differs from the original in replaced slots only
    changed = (np.sort(out.top_k, axis=1) != np.sort(original, axis=1)).any(axis=1).sum()
    assert changed <= out.info["replaced"]
    again = greedy_substitution(scores.copy(), k=10, k_prime=25)
    assert np.array_equal(again.ranking, out.ranking)
    assert np.array_equal(greedy_substitution(scores, k=10, k_prime=25, fraction=0).ranking, full_ranking(scores))


def test_greedy_substitution_validation_and_dispatch():
    with pytest.raises(ValueError, match="beta"):
        greedy_substitution(S, k=2, k_prime=4, beta=-1)
    with pytest.raises(ValueError, match="fraction"):
        greedy_substitution(S, k=2, k_prime=4, fraction=1.5)
    with pytest.raises(ValueError, match="exceeds k_prime"):
        greedy_substitution(S, k=5, k_prime=4)
    assert np.array_equal(rerank_scores(S, method="GS", k=2, k_prime=4).ranking, greedy_substitution(S, k=2, k_prime=4).ranking)
    out = greedy_substitution(np.zeros((0, 6)), k=2, k_prime=4)
    assert out.top_k.shape == (0, 2)


def test_rerank_run_greedy_substitution():
    history = np.zeros(S.shape, dtype=bool)
    history[0, 5] = True
    rec = _rec_run(S, history)
    new = rerank_run(rec, method="gs", k_prime=4)
    direct = greedy_substitution(rec.scores, k=2, k_prime=4)
    assert np.array_equal(new.to_run().ranking, direct.ranking)
    assert np.array_equal(new.top_k, direct.top_k)


@pytest.mark.parametrize("seed", range(8))
def test_greedy_substitution_matches_the_literal_transcription(seed):
    rng = np.random.default_rng(seed)
    m, n = int(rng.integers(3, 25)), int(rng.integers(8, 30))
    k, k_prime = 3, int(rng.integers(3, 8))
    # popularity-biased scores, a few ties and excluded (history) items
    scores = np.round(rng.random((m, n)) + np.linspace(1, 0, n), 2)
    scores[rng.random((m, n)) < 0.1] = -np.inf
    keep = np.isfinite(scores).sum(axis=1) >= k_prime
    scores = scores[keep]
    beta = float(rng.choice([0.0, 0.05, 0.3]))
    out = greedy_substitution(scores, k=k, k_prime=k_prime, beta=beta)
    np.testing.assert_array_equal(out.ranking, reference.greedy_substitution(scores, k, k_prime, beta))
