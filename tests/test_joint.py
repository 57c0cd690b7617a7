"""Relevance-aware (joint) measures: test vectors of Papers 2-3, exact ends, edge cases, invariances."""

import itertools

import numpy as np
import pytest

import recfair as rf
from recfair.joint.bounds import iaa_attention
from recfair.joint import measures as joint
from recfair.joint import bounds as jb
from recfair._validation import UndefinedMeasureError, UndefinedMeasureWarning
from recfair.examination import dcg, inverse
from recfair.run import Run

KEYS = rf.registry.names("joint")

# Paper 2 §12 T1: m=3, n=6, k=2
T1_RANK = np.array([[0, 1, 2, 3, 4, 5], [1, 0, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5]])
T1_REL = [[0, 2], [1, 4], [0, 1, 5]]
T1 = {"IAA_ori": 4 / 18, "IFD_div_ori": 0.140451, "IFD_mul_ori": 0.349522, "MME": 1 / 6, "II-F_ori": 0.200919,
      "AI-F": 0.078677, "IBO_our": 0.4, "IWO_our": 0.6, "HD": 0.527046}


def _eval(key, top=None, n=None, rel=None, **kw):
    return rf.evaluate(top, n_items=n, measures=[key], relevant=rel, **kw)[key]


def _full(top, n):
    return np.array([np.concatenate([row, np.setdiff1d(np.arange(n), row)]) for row in np.asarray(top)])


def _by_relevance(flags):
    """One user whose full ranking is 0..n-1 with relevance flags in rank order."""
    flags = np.asarray(flags, dtype=bool)
    return np.arange(flags.size)[None], [np.flatnonzero(flags)]


def test_family_keys():
    assert KEYS == ["IAA_ori", "IAA_our", "IFD_div_ori", "IFD_div_our", "IFD_mul_ori", "IFD_mul_our", "HD", "MME",
                    "IBO_ori", "IWO_ori", "IBO_our", "IWO_our", "II-F_ori", "II-F_our", "AI-F"]
    for key in KEYS:
        spec = rf.registry.get(key)
        assert spec.family == "joint" and spec.paper == (3 if key.endswith("_our") else 2)


@pytest.mark.parametrize("key", list(T1))
def test_t1_paper2(key):
    assert _eval(key, None, 6, T1_REL, ranking=T1_RANK, k=2) == pytest.approx(T1[key], abs=1e-6)


def test_t1_ibo_original_undefined_and_public_functions():
    # item 3 is relevant to nobody: the original ratio is 0/0
    with pytest.warns(UndefinedMeasureWarning):
        assert np.isnan(rf.item_better_off(T1_RANK[:, :2], n_items=6, relevant=T1_REL))
    with pytest.raises(UndefinedMeasureError):
        rf.item_worse_off(T1_RANK[:, :2], n_items=6, relevant=T1_REL, on_undefined="raise")
    top = T1_RANK[:, :2]
    assert rf.mean_max_envy(top, n_items=6, relevant=T1_REL) == pytest.approx(1 / 6)
    assert rf.hellinger_distance(top, n_items=6, relevant=T1_REL) == pytest.approx(np.sqrt(5 / 18))
    assert rf.individual_fairness_disparity_div(None, n_items=6, relevant=T1_REL, ranking=T1_RANK, k=2) == \
        pytest.approx(0.140451, abs=1e-6)


def test_t2_hd_stable_tie_break():
    # relevant {A, B, C}, ranking [C, X, ...]; stable reference = lowest indices first
    assert rf.hellinger_distance([[2, 3]], n_items=5, relevant=[[0, 1, 2]]) == pytest.approx(np.sqrt(1 / 3))
    # relabel so that C has the lowest index: reference [C, A]
    assert rf.hellinger_distance([[0, 3]], n_items=5, relevant=[[0, 1, 2]]) == pytest.approx(0.505948, abs=1e-6)
    assert rf.hellinger_distance([[0, 3]], n_items=5, relevant=[[0, 1, 2]], gamma=0.5) == pytest.approx(0.505948,
                                                                                                        abs=1e-6)


def test_t3_iaa_binary_examples():
    top, rel = _by_relevance([1, 1, 0, 0, 0])
    assert rf.inequity_of_amortized_attention(top[:, :2], n_items=5, relevant=rel) == pytest.approx(0.2)
    assert rf.inequity_of_amortized_attention(top[:, :2], n_items=5, relevant=[range(5)]) == pytest.approx(0.8)
    # X11: relevant item at rank 10 weighs 0 (original) vs 0.1 (corrected weights)
    top10, rel10 = _by_relevance([0] * 9 + [1])
    assert rf.inequity_of_amortized_attention(top10, n_items=10, relevant=rel10) == pytest.approx(6 / 10)
    a = iaa_attention(10, corrected=True)
    assert abs(a[9] - 1) == pytest.approx(0.9)


@pytest.mark.parametrize("flags, expected", [([0, 1, 1], 0.032732), ([1, 1, 0, 0, 0], 0.092268),
                                             ([1, 1, 1, 1, 1], 0.114124), ([1, 1, 0, 0, 1], 0.136255)])
def test_t4_ifd_div_full_ranking(flags, expected):
    rank, rel = _by_relevance(flags)
    for k in range(1, len(flags) + 1):                   # k-independent (top-k-insensitive)
        value = rf.individual_fairness_disparity_div(None, n_items=len(flags), relevant=rel, ranking=rank, k=k)
        assert value == pytest.approx(expected, abs=1e-6)


@pytest.mark.parametrize("k, expected", [(1, 0.0), (2, 0.157732), (3, 0.032732)])
def test_t4_ifd_div_topk_masked(k, expected):
    rank, rel = _by_relevance([0, 1, 1])
    # "IFD÷-ori + J_our": the top-k indicator without the per-user rescaling (thesis Ch. 4 §6.4)
    value = rf.individual_fairness_disparity_div(rank[:, :k], n_items=3, relevant=rel, exposure="top-k")
    assert value == pytest.approx(expected, abs=1e-6)


def test_t5_ifd_bounds_k_equals_n_10():
    def mul(flags):
        top, rel = _by_relevance(flags)
        return rf.individual_fairness_disparity_mul(top, n_items=10, relevant=rel)

    def div(flags):
        rank, rel = _by_relevance(flags)
        return rf.individual_fairness_disparity_div(None, n_items=10, relevant=rel, ranking=rank, k=10)

    assert mul([0] * 9 + [1]) == pytest.approx(0.016712, abs=1e-6)
    assert mul([1, 1, 1] + [0] * 7) == pytest.approx(0.265330, abs=1e-6)
    assert div([0] * 8 + [1, 1]) == pytest.approx(0.002991, abs=1e-6)
    assert div([1] + [0] * 8 + [1]) == pytest.approx(0.177734, abs=1e-6)


# p3 §3.3: per-R extremes of IFD÷ at k = n = 10
IFD_DIV_10 = {2: (0.00299, 0.17773), 3: (0.00587, 0.15799), 4: (0.00920, 0.15392), 5: (0.01333, 0.14014),
              6: (0.01868, 0.13136), 7: (0.02601, 0.12152), 8: (0.03690, 0.11370), 9: (0.05551, 0.10617),
              10: (0.09953, 0.09953)}


@pytest.mark.parametrize("r", sorted(IFD_DIV_10))
def test_ifd_div_ends_table(r):
    ends = (jb.ifd_div_most_fair(10, 10, r), jb.ifd_div_most_unfair(10, 10, r))
    assert ends == pytest.approx(IFD_DIV_10[r], abs=1e-5)


IFD_MUL_20 = {1: 0.1, 2: 0.13317, 3: 0.14958, 4: 0.15847, 5: 0.16300, **{r: 0.16464 for r in range(6, 17)},
              17: 0.16415, 18: 0.16202, 19: 0.15856}


@pytest.mark.parametrize("r", sorted(IFD_MUL_20))
def test_ifd_mul_max_table_n20_k10(r):
    assert jb.ifd_mul_most_unfair(20, 10, r) == pytest.approx(IFD_MUL_20[r], abs=1e-5)


def _subset_values(n, k, r, func):
    vals = []
    for s in range(max(0, r - (n - k)), min(r, k) + 1):
        for S in itertools.combinations(range(1, k + 1), s):
            vals.append(func(np.array(S, dtype=int)))
    return min(vals), max(vals)


@pytest.mark.parametrize("n, k", [(5, 3), (6, 6), (8, 5), (10, 10), (12, 7), (15, 10)])
def test_ifd_ends_exact_against_brute_force(n, k):
    for r in range(1, n):
        def mul(S):
            e = dcg(S) if S.size else np.zeros(0)
            return 2 * (n * (e ** 2).sum() - e.sum() ** 2) / (n * (n - 1))

        def div(S):
            v = np.concatenate([dcg(S) if S.size else np.zeros(0), np.zeros(r - S.size)])
            return np.abs(v[:, None] - v[None, :]).sum() / 2

        mul_ends = (jb.ifd_mul_most_fair(n, k, r), jb.ifd_mul_most_unfair(n, k, r))
        div_ends = (jb.ifd_div_most_fair(n, k, r) * r ** 2, jb.ifd_div_most_unfair(n, k, r) * r ** 2)
        assert mul_ends == pytest.approx(_subset_values(n, k, r, mul), abs=1e-12)
        assert div_ends == pytest.approx(_subset_values(n, k, r, div), abs=1e-12)


def test_ifd_div_min_counterexample_r_above_n_minus_k():
    # p3 D7': n=15, k=10, R=6: bottom strategy 0.04015, true minimum 0.01868 (positions 5-10)
    assert jb.ifd_div_most_fair(15, 10, 6) == pytest.approx(0.01868, abs=1e-5)
    assert jb.ifd_div_positions(15, 10, 6, end="most_fair").tolist() == [5, 6, 7, 8, 9, 10]


def _all_top2_lists(n=3, k=2):
    return list(itertools.permutations(range(n), k))


def _all_rel_sets(n=3, empty=False):
    return [list(c) for r in range(0 if empty else 1, n + 1) for c in itertools.combinations(range(n), r)]


def test_t6_enumeration_k_m_2_n_3():
    lists, rels = _all_top2_lists(), _all_rel_sets()
    iif, aif, hd = [], [], []
    for (l1, r1), (l2, r2) in itertools.product(itertools.product(lists, rels), repeat=2):
        run = Run(np.array([l1, l2]), 3, relevant=[r1, r2])
        iif.append(rf.evaluate_run(run, measures=["II-F_ori"])["II-F_ori"])
        aif.append(rf.evaluate_run(run, measures=["AI-F"])["AI-F"])
        hd.append(rf.evaluate_run(run, measures=["HD"])["HD"])
    assert min(iif) == pytest.approx(1 / 150) and max(iif) == pytest.approx(0.88)
    assert max(aif) == pytest.approx(0.88)
    assert max(hd) == pytest.approx(1 / np.sqrt(2))


def test_x8_ii_f_multi_round_minimum():
    # II-F averages per-user values, so its minimum over users equals the per-user minimum
    lists, rels = _all_top2_lists(), _all_rel_sets()
    best = {}
    for w in (2, 3):
        vals = []
        for rounds in itertools.product(lists, repeat=w):
            arr = np.array(rounds)[:, None, :]
            for rel in rels:
                vals.append(rf.ii_fairness(arr[0], n_items=3, relevant=[rel], rounds=arr))
        best[w] = min(vals)
    assert best[2] == pytest.approx(0.0, abs=1e-15) and best[3] == pytest.approx(1 / 1350)


def test_t7_mme_ibo_iwo_k_n_3_m_2():
    everything = [[0, 1, 2], [0, 1, 2]]
    perms = list(itertools.permutations(range(3)))
    det = [rf.mean_max_envy([a, b], n_items=3, relevant=everything) for a in perms for b in perms]
    assert min(det) == pytest.approx(1 / 18)
    assert rf.mean_max_envy([[0, 1, 2], [2, 1, 0]], n_items=3, relevant=everything) == pytest.approx(1 / 18)
    rels = _all_rel_sets(empty=True)
    mme, ibo, iwo = [], [], []
    for a, b in itertools.product(perms, repeat=2):
        for r1, r2 in itertools.product(rels, repeat=2):
            run = Run(np.array([a, b]), 3, relevant=[r1, r2])
            mme.append(rf.evaluate_run(run, measures=["MME"])["MME"])
            if len(set(r1) | set(r2)) == 3:
                ibo.append(rf.evaluate_run(run, measures=["IBO_ori"])["IBO_ori"])
                iwo.append(rf.evaluate_run(run, measures=["IWO_ori"])["IWO_ori"])
    assert max(mme) == pytest.approx(7 / 18)
    assert max(ibo) == pytest.approx(2 / 3) and min(iwo) == pytest.approx(1 / 3)


def test_mme_and_impacts_match_brute_force(monkeypatch):
    rng = np.random.default_rng(3)
    m, n, k = 12, 9, 3
    top = rf.synthetic.random_top_k(m, n, k, seed=rng)
    rel = (rng.random((m, n)) < 0.3)
    inv = np.zeros((m, n))
    for u in range(m):
        inv[u, top[u]] = inverse(np.arange(1, k + 1))
    imp = np.array([[(rel[:, i] * inv[:, j]).sum() / m for j in range(n)] for i in range(n)])
    expected = (imp.max(axis=1) - np.diag(imp)).mean()
    assert rf.mean_max_envy(top, n_items=n, relevant=rel) == pytest.approx(expected, abs=1e-15)
    monkeypatch.setattr(joint, "_BLOCK", 5)                 # many tiny item blocks
    assert rf.mean_max_envy(top, n_items=n, relevant=rel) == pytest.approx(expected, abs=1e-15)
    unif = rel.sum(0) * inverse(np.arange(1, k + 1)).sum() / (n * m)
    own, mask = np.diag(imp), unif > 0
    assert rf.item_better_off_corrected(top, n_items=n, relevant=rel) == (own >= 1.1 * unif)[mask].mean()
    assert rf.item_worse_off_corrected(top, n_items=n, relevant=rel) == (own <= 0.9 * unif)[mask].mean()


def test_ii_f_ai_f_match_dense():
    rng = np.random.default_rng(4)
    m, n, k, g = 10, 12, 4, 0.7
    top = rf.synthetic.random_top_k(m, n, k, seed=rng)
    rel = rng.random((m, n)) < 0.25
    rel[0] = False                                          # a user with no relevant item: target 0
    E = np.zeros((m, n))
    for u in range(m):
        E[u, top[u]] = g ** np.arange(k)
    R = rel.sum(1)
    T = np.where(R[:, None] > 0, rel * (1 - g ** R[:, None]) / (np.maximum(R, 1)[:, None] * (1 - g)), 0)
    assert rf.ii_fairness(top, n_items=n, relevant=rel, gamma=g) == pytest.approx(((E - T) ** 2).mean())
    assert rf.ai_fairness(top, n_items=n, relevant=rel, gamma=g) == pytest.approx(((E - T).mean(0) ** 2).mean())


# ---------------------------------------------------------------------- corrected versions: exact 0 and 1

def _one_user(flags, k):
    rank, rel = _by_relevance(flags)
    return rank[:, :k], rel


@pytest.mark.parametrize("n, k, r", [(8, 3, 2), (10, 4, 5), (10, 10, 3), (12, 5, 9), (6, 1, 2)])
def test_iaa_and_iif_corrected_hit_0_and_1(n, k, r):
    top_fair, rel = _one_user([1] * r + [0] * (n - r), k)
    top_unfair, rel_u = _one_user([0] * (n - r) + [1] * r, k)
    for func in (rf.inequity_of_amortized_attention_corrected, rf.ii_fairness_corrected):
        assert func(top_fair, n_items=n, relevant=rel) == 0.0
        assert func(top_unfair, n_items=n, relevant=rel_u) == 1.0


def test_ifd_corrected_hit_0_and_1():
    n, k = 20, 10
    # fairest: relevant items unexposed (beyond k)
    top, rel = _one_user([0] * 16 + [1] * 4, k)
    assert rf.individual_fairness_disparity_div_corrected(top, n_items=n, relevant=rel) == 0.0
    assert rf.individual_fairness_disparity_mul_corrected(top, n_items=n, relevant=rel) == 0.0
    # IFD÷ unfairest: half on top, half unexposed (X14 shape)
    top, rel = _one_user([1, 1] + [0] * 16 + [1, 1], k)
    assert rf.individual_fairness_disparity_div_corrected(top, n_items=n, relevant=rel) == 1.0
    # IFD× unfairest for R <= 6 at n = 20: all relevant on top
    top, rel = _one_user([1] * 4 + [0] * 16, k)
    assert rf.individual_fairness_disparity_mul_corrected(top, n_items=n, relevant=rel) == 1.0
    # one relevant item: IFD÷ is always 0
    top, rel = _one_user([1] + [0] * 19, k)
    assert rf.individual_fairness_disparity_div_corrected(top, n_items=n, relevant=rel) == 0.0


@pytest.mark.parametrize("key", [k for k in KEYS if k.endswith("_our") and not k.startswith(("IBO", "IWO"))])
def test_corrected_in_unit_interval_on_random_runs(key):
    rng = np.random.default_rng(5)
    for n, k in [(6, 3), (9, 9), (30, 5)]:
        top = rf.synthetic.random_top_k(40, n, k, seed=rng)
        rel = rng.random((40, n)) < 0.4
        rel[:, 0] = True                                   # nobody without a relevant item
        rel[0, :] = True                                   # one user with every item relevant: left out
        value = _eval(key, top, n, rel)
        assert 0.0 <= value <= 1.0


# ---------------------------------------------------------------------- edge cases

def test_users_without_relevant_items():
    top, rel = [[0, 1], [2, 3]], [[0], []]
    with pytest.warns(UndefinedMeasureWarning, match="no relevant item"):
        assert np.isnan(_eval("HD", top, 5, rel))
    assert np.isnan(_eval("IFD_div_ori", None, 5, rel, ranking=_full(top, 5), k=2, on_undefined="nan"))
    with pytest.raises(UndefinedMeasureError):
        _eval("IFD_div_ori", None, 5, rel, ranking=_full(top, 5), k=2, on_undefined="raise")
    # defined: IAA (r~ = 0), II-F and AI-F (target 0)
    for key in ("IAA_ori", "IFD_mul_ori", "II-F_ori", "AI-F", "MME", "IBO_our", "IWO_our"):
        assert np.isfinite(_eval(key, top, 5, rel))
    # corrected: the empty-range user is left out
    for key in ("IAA_our", "II-F_our", "IFD_mul_our"):
        assert _eval(key, top, 5, rel) == pytest.approx(_eval(key, [[0, 1]], 5, [[0]]))
        with pytest.warns(UndefinedMeasureWarning, match="non-empty range"):
            assert np.isnan(_eval(key, [[0, 1]], 5, [[]]))


def test_k1_iaa_and_items_relevant_to_nobody():
    with pytest.raises(UndefinedMeasureError, match="k = 1"):
        rf.inequity_of_amortized_attention([[0], [1]], n_items=3, relevant=[[0], [1]], on_undefined="raise")
    assert rf.inequity_of_amortized_attention_corrected([[0], [1]], n_items=3, relevant=[[0], [1]]) == 0.0
    # item 2 is relevant to nobody: original IBO/IWO undefined, corrected ones skip it
    assert np.isnan(rf.item_better_off([[0], [1]], n_items=3, relevant=[[0], [1]], on_undefined="nan"))
    assert rf.item_better_off_corrected([[0], [1]], n_items=3, relevant=[[0], [1]]) == 1.0
    with pytest.raises(UndefinedMeasureError, match="I\\^- is empty"):
        rf.item_worse_off_corrected([[0], [1]], n_items=3, relevant=[[], []], on_undefined="raise")


def test_hd_zero_over_zero_users_contribute_nothing():
    # user 1 has no hit: c' = 0 (0/0 read as 0); q' still counts them
    hd = rf.hellinger_distance([[0, 1], [2, 3]], n_items=5, relevant=[[0], [4]])
    q, c = np.array([1.0, 0.0]), np.array([0.5, 0.0])
    assert hd == pytest.approx(np.sqrt(0.5 * ((np.sqrt(q) - np.sqrt(c)) ** 2).sum()))


def test_single_round_measures_reject_rounds():
    top = np.array([[0, 1], [1, 2]])
    rounds = np.stack([top, top[:, ::-1]])
    with pytest.raises(ValueError, match="single-round"):
        rf.evaluate(top, n_items=4, measures=["IAA_ori"], relevant=[[0], [1]], rounds=rounds)
    # multi-round measures average the rounds
    one = rf.mean_max_envy(top, n_items=4, relevant=[[0], [1]], rounds=top[None])
    assert one == rf.mean_max_envy(top, n_items=4, relevant=[[0], [1]])


# ---------------------------------------------------------------------- invariances and inputs

def test_ifd_div_scores_ranking_and_blocks_agree(monkeypatch):
    rng = np.random.default_rng(7)
    m, n, k = 25, 30, 5
    scores = np.round(rng.random((m, n)), 1)                # many ties: lower index first
    rel = rng.random((m, n)) < 0.2
    rel[:, 3] = True
    a = rf.individual_fairness_disparity_div(None, n_items=n, relevant=rel, scores=scores, k=k)
    rank = np.argsort(-scores, axis=1, kind="stable")
    b = rf.individual_fairness_disparity_div(None, n_items=n, relevant=rel, ranking=rank, k=k)
    monkeypatch.setattr(joint, "_BLOCK", 40)                # blocks of one user
    c = rf.individual_fairness_disparity_div(rank[:, :k], n_items=n, relevant=rel, scores=scores)
    # brute force over H_u with self-pairs
    expected = []
    for u in range(m):
        pos = np.flatnonzero(np.isin(rank[u], np.flatnonzero(rel[u]))) + 1
        v = dcg(pos)
        expected.append(np.maximum(v[:, None] - v[None, :], 0).mean())
    assert a == b == c
    assert a == pytest.approx(np.mean(expected), abs=1e-14)


@pytest.mark.parametrize("key", [k for k in KEYS if k != "HD"])
def test_item_relabelling_invariance(key):
    rng = np.random.default_rng(8)
    m, n, k = 15, 12, 4
    rank = np.argsort(rng.random((m, n)), axis=1)
    rel = rng.random((m, n)) < 0.3
    rel[:, :2] = True
    perm = rng.permutation(n)                               # item i becomes perm[i]
    rel2 = np.zeros_like(rel)
    rel2[:, perm] = rel
    a = _eval(key, None, n, rel, ranking=rank, k=k, on_undefined="nan")
    b = _eval(key, None, n, rel2, ranking=perm[rank], k=k, on_undefined="nan")
    assert a == pytest.approx(b, abs=1e-12)


@pytest.mark.parametrize("key", KEYS)
def test_user_permutation_invariance(key):
    rng = np.random.default_rng(9)
    m, n, k = 15, 12, 4
    rank = np.argsort(rng.random((m, n)), axis=1)
    rel = rng.random((m, n)) < 0.3
    rel[:, :4] = True
    p = rng.permutation(m)
    a = _eval(key, None, n, rel, ranking=rank, k=k)
    b = _eval(key, None, n, rel[p], ranking=rank[p], k=k)
    assert a == pytest.approx(b, abs=1e-12)


def test_gamma_is_validated():
    with pytest.raises(ValueError, match="gamma"):
        rf.ii_fairness([[0, 1]], n_items=3, relevant=[[0]], gamma=1.0)


def test_per_user_scores_average_to_the_measure():
    rng = np.random.default_rng(31)
    m, n, k = 20, 30, 5
    rank = np.argsort(rng.random((m, n)), axis=1)
    rel = rng.random((m, n)) < 0.15
    rel[:, 0] = True
    rel[3] = False
    rel[3, 7] = True                                        # one user with a single relevant item
    keys = list(joint.PER_USER)
    frame = rf.evaluate_per_user(None, n_items=n, measures=keys, relevant=rel, ranking=rank, k=k)
    whole = rf.evaluate(None, n_items=n, measures=keys, relevant=rel, ranking=rank, k=k)
    for key in keys:
        values = frame[key].to_numpy()
        assert whole[key] == pytest.approx(np.nanmean(values), abs=1e-12), key
    assert frame.loc[3, "IFD_div_our"] == 0.0 and frame.loc[3, "IFD_div_ori"] == 0.0
    # II-F(u): the user's squared exposure gaps over all n items, written out
    e = np.zeros((m, n))
    np.put_along_axis(e, rank[:, :k], 0.8 ** np.arange(k)[None, :].repeat(m, 0), axis=1)
    size = rel.sum(axis=1, keepdims=True)
    target = rel / size * (1 - 0.8 ** size) / 0.2
    assert np.allclose(frame["II-F_ori"], ((e - target) ** 2).mean(axis=1), atol=1e-15)
    with pytest.raises(ValueError, match="no per-user values"):
        rf.evaluate_per_user(None, n_items=n, measures=["HD"], relevant=rel, ranking=rank, k=k)
    with pytest.raises(ValueError, match="no per-user scores"):
        joint._per_user("MME", Run(rank[:, :k], n, relevant=rel))


def test_per_user_marks_undefined_users_with_nan():
    top_k, rel = [[0, 1], [2, 3]], [[0, 4], []]
    frame = rf.evaluate_per_user(top_k, n_items=6, measures=["IFD_mul_our", "IAA_our", "II-F_ori"], relevant=rel,
                                 on_undefined="nan")
    assert np.isnan(frame.loc[1, "IFD_mul_our"]) and np.isnan(frame.loc[1, "IAA_our"])
    assert frame.loc[1, "II-F_ori"] == pytest.approx((1 + 0.8 ** 2) / 6)       # no target: only exposure
