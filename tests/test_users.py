"""Part IV (Paper 5): individual user fairness, PUF and its baselines.

Hand-computed toy values (p5.md §5.9), every blocked path against the loop transcriptions of
``tests/_reference.py`` on random runs (users without relevant items, identical lists, m = 2,
tiny blocks), PUF's derived ends reached by the generated extreme cases, invariance under
relabelling users, bad input, ``evaluate_scores``, the generators and U-KNN.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import scipy.sparse as sp
import sympy

import recfair as rf
from recfair.registry import REGISTRY
from recfair.users import (UserSimilarity, cosine, envy_matrix, gini_ind, jaccard, mean_envy_user,
                           mean_max_envy_user, minmax_offdiag, peu, puf, sd_ind, uf, uf_details, user_similarity,
                           utility_matrix)
from recfair.users import derivations as der
from recfair.users import generators as gen

import _reference as ref

# ------------------------------------------------------------------------------ toy (p5.md §5.9)
HIST = [[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]]
REL = [[3, 4], [2], [0, 5], [0, 1, 2]]
TOP = [[3, 0], [2, 4], [4, 5], [3, 5]]
P2 = [0.5, 0.5, 0.5, 0.0]
NDCG2 = [1 / (1 + 1 / math.log2(3)), 1.0, (1 / math.log2(3)) / (1 + 1 / math.log2(3)), 0.0]


def test_toy_similarities():
    np.testing.assert_allclose(jaccard(HIST)[np.triu_indices(4, 1)], [0.5, 0.2, 0, 0.2, 0, 0.25])
    np.testing.assert_allclose(cosine(HIST)[np.triu_indices(4, 1)],
                               [2 / 3, 1 / 3, 0, 1 / 3, 0, 1 / math.sqrt(6)])
    np.testing.assert_allclose(minmax_offdiag(jaccard(HIST))[0, 1], 1.0)


@pytest.mark.parametrize("scores, kind, expected", [
    (P2, "jaccard", 0.0417), (NDCG2, "jaccard", 0.1527), (P2, "cosine", 0.0510), (NDCG2, "cosine", 0.1739)])
def test_toy_puf_four_variants(scores, kind, expected):
    sim = user_similarity(HIST, similarity=kind, minmax=True)
    assert puf(scores, similarity=sim) == pytest.approx(expected, abs=5e-5)
    assert puf(scores, similarity=sim, normalization="printed") == pytest.approx(2 * puf(scores, similarity=sim))
    # from history, block by block, min-max on the fly
    assert puf(scores, similarity=UserSimilarity.from_history(HIST, similarity=kind), minmax=True, block_size=1) == pytest.approx(
        puf(scores, similarity=sim))


def test_toy_sd_gini_envy_uf():
    assert sd_ind(P2) == pytest.approx(0.2165, abs=5e-5) and sd_ind(NDCG2) == pytest.approx(0.3625, abs=5e-5)
    assert gini_ind(P2) == pytest.approx(0.25) and gini_ind(NDCG2) == pytest.approx(0.4033, abs=5e-5)
    env = envy_matrix(TOP, relevant=REL, n_items=6)
    expected = np.zeros((4, 4))
    expected[3, 0] = expected[3, 1] = 0.5
    np.testing.assert_allclose(env, expected)
    assert mean_envy_user(TOP, relevant=REL, n_items=6) == pytest.approx(1 / 12)
    assert mean_envy_user(TOP, relevant=REL, n_items=6, normalization="printed") == pytest.approx(1 / 6)
    assert mean_max_envy_user(TOP, relevant=REL, n_items=6) == pytest.approx(0.125)
    assert peu(TOP, relevant=REL, n_items=6) == 0.25 and peu(TOP, relevant=REL, n_items=6, envy_tolerance=0.5) == 0.0
    d = uf_details(TOP, history=HIST, n_items=6)
    assert d["n_similar_pairs"] == 1 and d["sum"] == pytest.approx(0.3125)
    assert d["threshold"] == pytest.approx(0.3610, abs=5e-4) and d["UF"] == pytest.approx(math.log(0.3125, 6))
    assert d["UF"] < 0          # UF can be negative, contrary to the claimed [0, 1]


def test_phi_is_precision_on_the_diagonal():
    util = utility_matrix(TOP, relevant=REL, n_items=6)
    np.testing.assert_allclose(np.diag(util), P2)
    ideal = utility_matrix(TOP, relevant=REL, n_items=6, phi="ideal")
    np.testing.assert_allclose(np.diag(ideal), [0.5, 1.0, 0.5, 0.0])


# ---------------------------------------------------------------------- random runs vs the loops

def _random_case(seed, m, n=14, k=3, empty_rel=True, identical=True):
    rng = np.random.default_rng(seed)
    top = np.array([rng.choice(n, k, replace=False) for _ in range(m)])
    if identical and m >= 3:
        top[1] = top[0]
    rel = [list(rng.choice(n, rng.integers(1, 6), replace=False)) for _ in range(m)]
    if empty_rel and m >= 3:
        rel[2] = []
    hist = [list(rng.choice(n, rng.integers(0, 7), replace=False)) for _ in range(m)]
    return top, rel, hist, n, k


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("m", [2, 3, 9, 23])
def test_envy_equals_the_loops(seed, m):
    top, rel, _, n, k = _random_case(seed, m)
    for phi, ideal in (("k", False), ("ideal", True)):
        for block in (None, 1, 4):
            assert mean_envy_user(top, relevant=rel, n_items=n, phi=phi, block_size=block) == pytest.approx(
                ref.mean_envy(top.tolist(), rel, k, ideal=ideal), abs=1e-12)
            assert mean_envy_user(top, relevant=rel, n_items=n, phi=phi, normalization="printed",
                                  block_size=block) == pytest.approx(
                ref.mean_envy(top.tolist(), rel, k, printed=True, ideal=ideal), abs=1e-12)
            assert mean_max_envy_user(top, relevant=rel, n_items=n, phi=phi, block_size=block) == pytest.approx(
                ref.mean_max_envy_users(top.tolist(), rel, k, ideal=ideal), abs=1e-12)
            for eps in (0.0, 0.05, 0.4):
                assert peu(top, relevant=rel, n_items=n, envy_tolerance=eps, phi=phi, block_size=block) == pytest.approx(
                    ref.peu(top.tolist(), rel, k, eps, ideal=ideal), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("m", [2, 3, 9, 23])
def test_puf_sd_gini_equal_the_loops(seed, m):
    rng = np.random.default_rng(100 + seed)
    _, _, hist, n, _ = _random_case(seed, m)
    scores = rng.random(m)
    scores[rng.random(m) < 0.3] = 0.0
    for kind, loop in (("jaccard", ref.jaccard_sim), ("cosine", ref.cosine_sim)):
        raw = loop(hist)
        scaled = ref.minmax_pairs(raw)
        source = UserSimilarity.from_history(hist, similarity=kind, n_items=n)
        for block in (None, 1, 5):
            assert puf(scores, similarity=source, minmax=True, block_size=block) == pytest.approx(ref.puf(scores, scaled),
                                                                                     abs=1e-12)
            assert puf(scores, similarity=source, block_size=block) == pytest.approx(ref.puf(scores, raw), abs=1e-12)
            assert puf(scores, similarity=source, minmax=True, normalization="printed", block_size=block) == pytest.approx(
                ref.puf(scores, scaled, printed=True), abs=1e-12)
        np.testing.assert_allclose(source.dense() - np.eye(m), raw - np.diag(np.diag(raw)), atol=1e-12)
        # a precomputed matrix, dense or sparse, gives the same (its diagonal is ignored)
        scaled = scaled.copy()
        np.fill_diagonal(scaled, 1.0)
        assert puf(scores, similarity=scaled) == pytest.approx(ref.puf(scores, scaled), abs=1e-12)
        assert puf(scores, similarity=sp.csr_matrix(scaled), block_size=2) == pytest.approx(ref.puf(scores, scaled), abs=1e-12)
    assert sd_ind(scores) == pytest.approx(ref.sd(scores), abs=1e-12)
    g = ref.gini_users(scores)
    if g is None:
        assert math.isnan(gini_ind(scores, on_undefined="nan"))
    else:
        assert gini_ind(scores) == pytest.approx(g, abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("m", [3, 9, 23])
def test_uf_equals_the_loop(seed, m):
    top, _, hist, n, _ = _random_case(seed, m)
    total, value = ref.uf(top.tolist(), hist, n)
    for block in (None, 1, 4):
        d = uf_details(top, history=hist, n_items=n, block_size=block)
        assert d["sum"] == pytest.approx(total, abs=1e-12)
        assert d["UF"] == pytest.approx(value, abs=1e-12) or (d["UF"] == value == -math.inf)
    # a given similarity matrix and given item vectors (one-hot ids: reading (b) of A6)
    sim = ref.cosine_sim(hist)
    total_b, value_b = ref.uf(top.tolist(), hist, n, sim=sim, item_vectors=np.eye(n))
    d = uf_details(top, history=hist, n_items=n, similarity=sim, item_vectors=np.eye(n))
    assert d["sum"] == pytest.approx(total_b, abs=1e-12)
    assert uf(top, history=hist, n_items=n, similarity="cosine", item_vectors=sp.eye(n)) == pytest.approx(
        uf(top, history=hist, n_items=n, similarity=sim, item_vectors=np.eye(n)), abs=1e-12)


def test_uf_two_users_is_undefined_and_identical_lists_are_not_at_distance_zero():
    with pytest.warns(rf.UndefinedMeasureWarning):
        assert math.isnan(uf([[0, 1], [2, 3]], history=[[4], [4]], n_items=5))
    # d_L averages over all k^2 item pairs, so two identical lists of dissimilar items are at distance > 0
    top, hist = [[0, 1]] * 4, [[2], [2], [3], [4]]
    assert uf(top, history=hist, n_items=5) == pytest.approx(ref.uf(top, hist, 5)[1])
    assert uf_details(top, history=hist, n_items=5)["sum"] == pytest.approx(1 * (1 - 2 / 4))
    # one-item lists of the same item: distance 0, the sum is 0 and UF is -inf
    assert uf([[0]] * 4, history=hist, n_items=5) == -math.inf


def test_gamma_mixes_item_features():
    rng = np.random.default_rng(3)
    top, _, hist, n, _ = _random_case(3, 8, empty_rel=False)
    feats = rng.integers(0, 2, size=(n, 3)).astype(float)
    for g in gen.GAMMAS:
        mixed = gen.gamma_similarity(hist, feats, gamma=g)
        assert np.allclose(mixed, mixed.T) and mixed.min() >= 0 and mixed.max() <= 1
        got = uf(top, history=hist, n_items=n, history_weight=g, item_features=feats)
        assert got == pytest.approx(uf(top, history=hist, n_items=n, similarity=mixed), abs=1e-12)
    np.testing.assert_allclose(gen.gamma_similarity(hist, feats, gamma=1.0), jaccard(hist, n_items=n))


# -------------------------------------------------------------------------- through the registry

def _run_case(seed, m=12, n=30, k=4):
    hist, rel = rf.synthetic.random_split(m, n, relevant=4, history=5, seed=seed)
    rng = np.random.default_rng(seed)
    banned = hist.tolil().rows
    top = np.array([rng.choice(np.setdiff1d(np.arange(n), banned[u]), k, replace=False) for u in range(m)])
    return top, rel, hist, n, k


def test_evaluate_matches_the_functions():
    top, rel, hist, n, k = _run_case(0)
    run = rf.Run(top, n, relevant=rel, history=hist)
    p = rf.relevance.per_user_from_hits("P", run.hits, run.n_relevant)
    sim = user_similarity(hist, similarity="cosine", minmax=True)
    got = rf.evaluate(top, n_items=n, measures=["PUF", "SD_ind", "Gini_ind", "ME_user", "MME_user", "PEU", "UF"],
                      relevant=rel, history=hist, base="P", similarity="cosine", envy_tolerance=0.1)
    assert got["PUF"] == pytest.approx(puf(p, similarity=sim), abs=1e-12)
    assert got["SD_ind"] == pytest.approx(sd_ind(p)) and got["Gini_ind"] == pytest.approx(gini_ind(p))
    assert got["ME_user"] == pytest.approx(mean_envy_user(top, relevant=rel, n_items=n))
    assert got["PEU"] == pytest.approx(peu(top, relevant=rel, n_items=n, envy_tolerance=0.1))
    assert got["UF"] == pytest.approx(uf(top, history=hist, n_items=n, similarity="cosine"))
    # a precomputed similarity is used as it is (no min-max unless asked)
    raw = cosine(hist)
    assert rf.evaluate(top, n_items=n, measures="PUF", relevant=rel, history=hist, base="P",
                       similarity=raw)["PUF"] == pytest.approx(puf(p, similarity=raw))
    scores_route = rf.evaluate_effectiveness(p, measures=["PUF", "SD_ind", "Gini_ind"], similarity=sim)
    assert scores_route == pytest.approx({"PUF": got["PUF"], "SD_ind": got["SD_ind"], "Gini_ind": got["Gini_ind"]})


@pytest.mark.parametrize("base", ["HR", "MRR", "P", "R", "MAP", "NDCG"])
def test_every_per_user_relevance_measure_is_a_base(base):
    top, rel, hist, n, _ = _run_case(1)
    run = rf.Run(top, n, relevant=rel, history=hist)
    s = REGISTRY[base].per_user(run)
    got = rf.evaluate(top, n_items=n, measures=["PUF", "SD_ind"], relevant=rel, history=hist, base=base)
    assert got["PUF"] == pytest.approx(ref.puf(s, ref.minmax_pairs(ref.jaccard_sim(hist.tolil().rows))), abs=1e-12)
    assert got["SD_ind"] == pytest.approx(ref.sd(s), abs=1e-12)


def test_users_without_relevant_items_make_ndcg_based_measures_undefined():
    top, rel, hist, n, _ = _run_case(2)
    rel = rel.tolil()
    rel.rows[0], rel.data[0] = [], []
    with pytest.warns(rf.UndefinedMeasureWarning, match="PUF"):
        value = rf.evaluate(top, n_items=n, measures="PUF", relevant=rel.tocsr(), history=hist)["PUF"]
    assert math.isnan(value)
    with pytest.raises(rf.UndefinedMeasureError):
        rf.evaluate(top, n_items=n, measures="SD_ind", relevant=rel.tocsr(), on_undefined="raise")
    assert not math.isnan(rf.evaluate(top, n_items=n, measures="PUF", relevant=rel.tocsr(), history=hist,
                                      base="P")["PUF"])
    with pytest.warns(rf.UndefinedMeasureWarning, match="Gini_ind"):
        assert math.isnan(gini_ind([0.0, 0.0, 0.0]))


@pytest.mark.parametrize("seed", range(3))
def test_relabelling_users_changes_nothing(seed):
    top, rel, hist, n, _ = _run_case(seed, m=15)
    perm = np.random.default_rng(seed).permutation(len(top))
    names = ["PUF", "SD_ind", "Gini_ind", "ME_user", "MME_user", "PEU", "UF"]
    a = rf.evaluate(top, n_items=n, measures=names, relevant=rel, history=hist, base="P")
    b = rf.evaluate(top[perm], n_items=n, measures=names, relevant=rel[perm], history=hist[perm], base="P")
    assert a == pytest.approx(b, abs=1e-12)


# ------------------------------------------------------------------------------- derivations

@pytest.mark.parametrize("m", [2, 3, 4, 5, 8, 11])
def test_puf_ends_are_reached_by_the_generated_extremes(m):
    cases = gen.puf_extreme_cases(m)
    for norm in ("mean", "printed"):
        top = der.puf_most_unfair(normalization=norm).evaluate(m)
        scores, sim = cases["most_unfair"]
        assert puf(scores, similarity=sim, normalization=norm) == pytest.approx(top)
        assert puf(scores, similarity=sim, normalization=norm) == pytest.approx(ref.puf(scores, sim, printed=norm == "printed"))
        for name in ("most_fair_equal_scores", "most_fair_dissimilar", "most_fair_similar_equal"):
            effectiveness, sim = cases[name]
            assert puf(effectiveness, similarity=sim, normalization=norm) == der.puf_most_fair(normalization=norm).evaluate(m) == 0
    # no profile beats the derived maximum (random search at this m)
    rng = np.random.default_rng(m)
    best = max(puf(rng.integers(0, 2, m).astype(float), similarity=np.ones((m, m))) for _ in range(200))
    assert best <= der.puf_most_unfair().evaluate(m) + 1e-12


def test_puf_range_derivation_cases():
    d = der.puf_most_unfair()
    m = d.symbols["m"]
    assert sympy.simplify(d.cases["even m"] - m / (2 * (m - 1))) == 0 and d.cases["m = 2"] == 1 and d.cases["m to infinity"] == sympy.Rational(1, 2)
    p = der.puf_most_unfair(normalization="printed")
    assert p.cases["m to infinity"] == 1 and p.evaluate(4) == pytest.approx(4 / 3)   # above the claimed 1
    assert "floor" in d.latex() or "lfloor" in d.latex()
    with pytest.raises(ValueError, match="normalization"):
        der.puf_most_unfair(normalization="ordered")


# -------------------------------------------------------------------------------- generators

def test_relevance_steps_are_cumulative_and_reach_both_ends():
    hist, rel = rf.synthetic.random_split(40, 60, relevant=6, history=5, seed=4)
    runs = gen.relevance_steps(rel, n_items=60, k=5, history=hist, seed=4)
    assert [s for s, _ in runs] == pytest.approx([j / 10 for j in range(11)])
    zeroed_before = set()
    for share, top in runs:
        run = rf.Run(top, 60, relevant=rel, history=hist)     # valid runs: no history item recommended
        zero = set(np.flatnonzero(~run.hits.any(axis=1)))
        assert zeroed_before <= zero and len(zero) >= round(share * 40)
        zeroed_before = zero
        if share == 0:
            assert run.hits.any(axis=1).all()
    assert not runs[-1][1].size or not rf.Run(runs[-1][1], 60, relevant=rel).hits.any()
    again = gen.relevance_steps(rel, n_items=60, k=5, history=hist, seed=4)
    assert all((a[1] == b[1]).all() for a, b in zip(runs, again))


@pytest.mark.parametrize("shape", gen.WEIBULL_SHAPES)
def test_weibull_similarity_has_the_predicted_skew(shape):
    values = gen.synthetic_values(200_000, distribution="weibull", shape=shape, seed=0)
    assert values.min() == 0 and values.max() == 1
    x = values - values.mean()
    skew = (x ** 3).mean() / (x ** 2).mean() ** 1.5
    assert skew == pytest.approx(gen.weibull_skewness(shape), abs=0.15 if shape < 1 else 0.05)
    sim = gen.synthetic_similarity(30, distribution="weibull", shape=shape, seed=1)
    rf.users.check_similarity(sim, 30)
    normal = gen.synthetic_values(100_000, distribution="normal", seed=0)
    assert abs(((normal - normal.mean()) ** 3).mean()) < 0.01


def test_most_fair_is_below_random_is_below_most_unfair():
    rng = np.random.default_rng(0)
    scores = rng.random(25)
    values = gen.synthetic_values(25 * 24 // 2, shape=2.0, seed=1)
    fair = puf(scores, similarity=gen.extreme_similarity(scores, values, mode="most_fair"))
    unfair = puf(scores, similarity=gen.extreme_similarity(scores, values, mode="most_unfair"))
    rand = puf(scores, similarity=gen.pair_values_to_matrix(values, n_users=25))
    assert fair < rand < unfair
    # the rearrangement inequality: no assignment of the same values does better or worse
    for _ in range(20):
        other = puf(scores, similarity=gen.pair_values_to_matrix(rng.permutation(values), n_users=25))
        assert fair - 1e-12 <= other <= unfair + 1e-12


# ------------------------------------------------------------------------------------- bad input

def test_bad_input_gives_clear_errors():
    sim = np.array([[1, 0.2, 0.3], [0.2, 1, 0.5], [0.3, 0.5, 1]])
    with pytest.raises(ValueError, match="symmetric"):
        puf([0.1, 0.2, 0.3], similarity=sim + np.triu(np.full((3, 3), 0.1), 1))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        puf([0.1, 0.2, 0.3], similarity=sim * 2)
    with pytest.raises(ValueError, match="shape"):
        puf([0.1, 0.2, 0.3], similarity=np.eye(4))
    with pytest.raises(ValueError, match="at least 2 users"):
        puf([0.1], similarity=np.eye(1))
    with pytest.raises(ValueError, match="at least 2 users"):
        mean_envy_user([[0, 1]], relevant=[[0]], n_items=3)
    with pytest.raises(ValueError, match="<= 1"):
        puf([0.1, 2.0, 0.3], similarity=sim)
    with pytest.raises(ValueError, match="envy_tolerance"):
        peu(TOP, relevant=REL, n_items=6, envy_tolerance=-0.1)
    with pytest.raises(ValueError, match="normalization"):
        puf([0.1, 0.2, 0.3], similarity=sim, normalization="ordered")
    with pytest.raises(ValueError, match="phi"):
        mean_envy_user(TOP, relevant=REL, n_items=6, phi="R")
    top, rel, hist, n, _ = _run_case(0)
    with pytest.raises(ValueError, match="per-user relevance measure"):
        rf.evaluate(top, n_items=n, measures="PUF", relevant=rel, history=hist, base="Jain_our")
    with pytest.raises(ValueError, match="similarity must be one of"):
        rf.evaluate(top, n_items=n, measures="PUF", relevant=rel, history=hist, similarity="pearson")
    with pytest.raises(ValueError, match="needs history"):
        rf.evaluate(top, n_items=n, measures="UF", relevant=rel)
    with pytest.raises(ValueError, match="history_weight"):
        rf.evaluate(top, n_items=n, measures="UF", history=hist, history_weight=1.5)
    with pytest.raises(ValueError, match="item_features"):
        rf.evaluate(top, n_items=n, measures="UF", history=hist, history_weight=0.5)


def test_evaluate_scores_dispatch_and_errors():
    sim = user_similarity(HIST, minmax=True)
    assert rf.evaluate_effectiveness(P2, measures="PUF", similarity=sim, normalization="printed") == {
        "PUF": pytest.approx(2 * puf(P2, similarity=sim))}
    assert rf.evaluate_effectiveness(P2, measures=["SD_ind", "Gini_ind"]) == {"SD_ind": pytest.approx(sd_ind(P2)),
                                                              "Gini_ind": pytest.approx(0.25)}
    assert rf.evaluate_effectiveness(P2, measures="PUF", similarity=sp.csr_matrix(sim)) == {"PUF": pytest.approx(puf(P2, similarity=sim))}
    with pytest.raises(ValueError, match="need the lists"):
        rf.evaluate_effectiveness(P2, measures=["PUF", "ME_user"], similarity=sim)
    with pytest.raises(ValueError, match="pass similarity"):
        rf.evaluate_effectiveness(P2, measures="PUF")
    with pytest.raises(ValueError, match="not parameters"):
        rf.evaluate_effectiveness(P2, measures="PUF", similarity=sim, base="P")
    with pytest.raises(ValueError, match="users x users"):
        rf.evaluate_effectiveness(P2, measures="PUF", similarity="jaccard")
    with pytest.warns(rf.UndefinedMeasureWarning):
        assert math.isnan(rf.evaluate_effectiveness([0.5, np.nan, 0.1], measures="SD_ind")["SD_ind"])


def test_records_are_labelled_for_the_book():
    chapters = {key: REGISTRY[key].chapter for key in ("PUF", "SD_ind", "Gini_ind", "ME_user", "MME_user", "PEU",
                                                        "UF")}
    assert chapters["PUF"] == "user-puf" and set(chapters.values()) == {"user-puf", "user-individual"}
    assert REGISTRY["MME"].family == "joint" and REGISTRY["MME_user"].family == "users"
    assert all(REGISTRY[key].from_effectiveness is not None for key in ("PUF", "SD_ind", "Gini_ind"))
    assert rf.registry.PARTS["users"] == "IV"
    assert rf.registry.table("users").index.tolist() == list(chapters)


def test_memory_stays_bounded_by_the_block():
    """A run of 3,000 users: the PUF pass never builds the 3,000 x 3,000 matrix (the blocks do)."""
    hist, rel = rf.synthetic.random_split(3000, 400, relevant=5, history=8, seed=0)
    source = UserSimilarity.from_history(hist, similarity="jaccard")
    sizes = [vals.size for _, _, vals in source.pairs(block_size=100)]
    assert max(sizes) <= 100 * 3000 and len(sizes) == 30
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = puf(np.random.default_rng(0).random(3000), similarity=source, minmax=True, block_size=100)
    assert 0 <= value <= 1


@pytest.mark.parametrize("kind, loop", [("jaccard", ref.jaccard_sim), ("cosine", ref.cosine_sim)])
def test_the_dense_popular_item_path_equals_the_loop(kind, loop):
    """Catalogues of more than 256 items put the most co-consumed items through BLAS: same values."""
    hist, _ = rf.synthetic.random_split(70, 700, relevant=2, history=40, seed=9)
    sets = [row.indices.tolist() for row in hist]
    source = UserSimilarity.from_history(hist, similarity=kind)
    assert source._split_items()[0] is not None
    raw = loop(sets)
    np.testing.assert_allclose(source.dense() - np.eye(70), raw - np.diag(np.diag(raw)), atol=1e-12)
    scores = np.random.default_rng(9).random(70)
    assert puf(scores, similarity=UserSimilarity.from_history(hist, similarity=kind), minmax=True, block_size=8) == pytest.approx(
        ref.puf(scores, ref.minmax_pairs(raw)), abs=1e-12)


def test_uf_list_distance_strategies_agree():
    """UF's kernel sums a user's list distances through the row A_u or by dotting summed item vectors: same sum.

    Beyond 4,096 recommended items (the old float32 limit) the sums are exact too.
    """
    from recfair.users import _kernels

    top, _, hist, n, _ = _random_case(4, 12)
    source = UserSimilarity.from_history(hist, similarity="jaccard", n_items=n)
    vectors = rf._validation.check_item_sets(hist, n_users=top.shape[0], n_items=n, name="history").T.tocsr()
    threshold = uf_details(top, history=hist, n_items=n)["threshold"]
    sums = {s: _kernels.uf_stats(source, top, vectors, threshold, strategy=s)[0] for s in _kernels.UF_STRATEGIES}
    assert sums["row"] == pytest.approx(sums["dot"], abs=1e-12) and sums["auto"] == pytest.approx(sums["dot"], abs=1e-12)
    assert sums["auto"] == pytest.approx(ref.uf(top.tolist(), hist, n)[0], abs=1e-12)
    hist2, _ = rf.synthetic.random_split(500, 6000, relevant=2, history=30, seed=5)
    top2 = rf.synthetic.random_top_k(500, 6000, 20, seed=6)
    assert np.unique(top2).size > 4096
    source2 = UserSimilarity.from_history(hist2, similarity="jaccard")
    details = uf_details(top2, history=hist2, n_items=6000)
    for strategy in ("row", "dot"):
        assert _kernels.uf_stats(source2, top2, hist2.T.tocsr(), details["threshold"], strategy=strategy)[0] == \
            pytest.approx(details["sum"], rel=1e-12)


def test_uf_cooccurrence_rows_in_memory_give_the_loop_value(monkeypatch):
    """Heavy items' co-occurrence rows held in memory (binary item vectors) give the loop's UF; so does no cache."""
    from recfair.users import _kernels

    hist, _ = rf.synthetic.random_split(120, 40, relevant=2, history=8, seed=3)
    top = rf.synthetic.random_top_k(120, 40, 5, seed=4)
    sets = [row.indices.tolist() for row in hist]
    items = np.unique(top)
    unit = _kernels._item_vectors(hist.T.tocsr(), items)
    assert (unit[-3] >= 0).any()                                   # some rows are cached
    expected = ref.uf(top.tolist(), sets, 40)[0]
    source = UserSimilarity.from_history(hist, similarity="jaccard")
    threshold = uf_details(top, history=hist, n_items=40)["threshold"]
    for strategy in _kernels.UF_STRATEGIES:
        assert _kernels.uf_stats(source, top, hist.T.tocsr(), threshold, strategy=strategy)[0] == pytest.approx(
            expected, rel=1e-12)
    monkeypatch.setattr(_kernels, "UF_CACHE_BYTES", 0)
    assert uf_details(top, history=hist, n_items=40)["sum"] == pytest.approx(expected, rel=1e-12)
    vectors = np.random.default_rng(5).normal(size=(40, 3))            # real-valued vectors, two of them zero
    vectors[[int(top[0, 0]), int(top[1, 1])]] = 0.0
    assert uf_details(top, history=hist, n_items=40, item_vectors=vectors)["sum"] == pytest.approx(
        ref.uf(top.tolist(), sets, 40, item_vectors=vectors)[0], rel=1e-12)