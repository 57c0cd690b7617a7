"""Tests of recfair.recommenders: the models, batched top-k, run production and its cache."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
import scipy.sparse as sp

from recfair.ranking import full_ranking, top_k_from_scores
from recfair.recommenders import (
    ALS,
    BPR,
    EASE,
    MODELS,
    ItemKNN,
    NotFittedError,
    Pop,
    Random,
    RecRun,
    RunCacheWarning,
    available_models,
    clear_cache,
    default_params,
    make_model,
    produce_run,
    produce_runs,
    recommend,
)
from recfair.run import Run

ML100K = Path("/work/shared/datasets/ml-100k/ml-100k.inter")


# ---- fixtures ---------------------------------------------------------------------------
class TinySplit:
    """Stand-in with the interface of recfair.datasets.Split, built from interaction frames."""

    def __init__(self, train, valid, test, n_users, n_items, name="tiny"):
        self.name, self.n_users, self.n_items = name, n_users, n_items
        self.train, self.valid, self.test = (pd.DataFrame(p, columns=["user", "item"]).astype(int)
                                             for p in (train, valid, test))
        self.test_users = np.unique(self.test["user"].to_numpy())

    def matrix(self, part):
        frame = pd.concat([self.train, self.valid]) if part == "train+valid" else getattr(self, part)
        return sp.csr_matrix((np.ones(len(frame)), (frame["user"], frame["item"])),
                             shape=(self.n_users, self.n_items))

    def relevant(self, users=None):
        users = self.test_users if users is None else users
        return self.matrix("test")[users].astype(bool)

    def history(self, users=None):
        users = self.test_users if users is None else users
        return self.matrix("train+valid")[users].astype(bool)


def planted_split(seed=0, n_groups=3, users_per_group=20, items_per_group=10, n_test=2):
    """Block-diagonal data: each user likes only their group's items; ``n_test`` of them held out."""
    rng = np.random.default_rng(seed)
    train, valid, test = [], [], []
    for g in range(n_groups):
        items = np.arange(g * items_per_group, (g + 1) * items_per_group)
        for u in range(g * users_per_group, (g + 1) * users_per_group):
            liked = rng.permutation(items)
            test += [(u, i) for i in liked[:n_test]]
            valid.append((u, liked[n_test]))
            train += [(u, i) for i in liked[n_test + 1:]]
    return TinySplit(train, valid, test, n_groups * users_per_group, n_groups * items_per_group, name="planted")


def random_csr(n_users=30, n_items=25, density=0.2, seed=0):
    rng = np.random.default_rng(seed)
    return sp.csr_matrix((rng.random((n_users, n_items)) < density).astype(np.float64))


def hit_rate(top_k, relevant):
    rows = np.repeat(np.arange(top_k.shape[0]), top_k.shape[1])
    hits = np.asarray(relevant[rows, top_k.ravel()]).reshape(top_k.shape)
    return float(hits.any(axis=1).mean())


FAST = {"bpr": {"factors": 8, "iterations": 60, "learning_rate": 0.05},
        "als": {"factors": 8, "iterations": 10}}


# ---- Pop and the ranking contract ------------------------------------------------------
def test_pop_ranks_by_popularity_with_ties_to_lower_index():
    # item popularity: [2, 3, 3, 1, 0]
    train = sp.csr_matrix(np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 0], [0, 1, 1, 0, 0]]))
    model = Pop().fit(train)
    np.testing.assert_array_equal(model.score([0, 2]), [[2, 3, 3, 1, 0]] * 2)
    np.testing.assert_array_equal(recommend(model, [0], k=5), [[1, 2, 0, 3, 4]])
    history = sp.csr_matrix(np.array([[0, 1, 0, 0, 0], [0, 0, 1, 0, 1]]))
    np.testing.assert_array_equal(recommend(model, [0, 1], k=3, history=history), [[2, 0, 3], [1, 0, 3]])


@pytest.mark.parametrize("name", sorted(MODELS))
def test_history_never_recommended_and_matches_the_ranking_contract(name):
    train = random_csr(density=0.3)
    model = make_model(name, **FAST.get(name, {})).fit(train)
    users = np.array([3, 0, 7, 7, 12])
    history = train[users].astype(bool)
    top = recommend(model, users, k=8, history=history, batch_size=2)
    assert top.shape == (5, 8) and top.dtype == np.int64
    assert not np.asarray(history[np.repeat(np.arange(5), 8), top.ravel()]).any()
    np.testing.assert_array_equal(top, full_ranking(model.score(users), history)[:, :8])


@pytest.mark.parametrize("name", sorted(MODELS))
def test_score_shape_dtype_and_no_masking(name):
    train = random_csr()
    model = make_model(name, **FAST.get(name, {})).fit(train)
    scores = model.score(np.arange(5))
    assert scores.shape == (5, train.shape[1]) and scores.dtype == np.float64
    assert np.all(np.isfinite(scores))


def test_recommend_refuses_users_without_enough_candidates():
    train = sp.csr_matrix(np.array([[1, 1, 1, 0], [1, 0, 0, 0]]))
    model = Pop().fit(train)
    with pytest.raises(ValueError, match="fewer than k=2"):
        recommend(model, [0, 1], k=2, history=train)


# ---- Random ------------------------------------------------------------------------------
def test_random_is_reproducible_and_independent_of_batching():
    train = random_csr(n_users=40, n_items=50)
    users = np.arange(40)
    a = recommend(Random(seed=7).fit(train), users, k=10, batch_size=40)
    b = recommend(Random(seed=7).fit(train), users, k=10, batch_size=3)
    c = recommend(Random(seed=8).fit(train), users, k=10)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)
    # a user's scores do not depend on which other users are scored with them
    model = Random(seed=7).fit(train)
    np.testing.assert_array_equal(model.score([5, 9])[1], model.score([9])[0])
    assert np.all((model.score(users) >= 0) & (model.score(users) < 1))


def test_random_without_seed_draws_one():
    model = Random(seed=None).fit(random_csr())
    assert isinstance(model.seed_, int)


# ---- ItemKNN ---------------------------------------------------------------------------
def test_itemknn_matches_hand_computed_cosine_on_4x4():
    train = sp.csr_matrix(np.array([[1, 1, 0, 0],
                                    [1, 1, 1, 0],
                                    [0, 1, 1, 1],
                                    [0, 0, 1, 1]]))
    # item degrees 2, 3, 3, 2; co-occurrences (0,1)=2 (0,2)=1 (1,2)=2 (1,3)=1 (2,3)=2 (0,3)=0
    # with shrink 1: s = co / (sqrt(deg_i * deg_j) + 1)
    r6 = np.sqrt(6.0)
    expected = np.array([[0, 2 / (r6 + 1), 1 / (r6 + 1), 0],
                         [2 / (r6 + 1), 0, 2 / 4, 1 / (r6 + 1)],
                         [1 / (r6 + 1), 2 / 4, 0, 2 / (r6 + 1)],
                         [0, 1 / (r6 + 1), 2 / (r6 + 1), 0]])
    full = ItemKNN(k_neighbours=3, shrink=1).fit(train)
    np.testing.assert_allclose(full.similarity_.toarray(), expected, rtol=1e-12)
    np.testing.assert_allclose(full.score([0]), [expected[0] + expected[1]], rtol=1e-12)  # user 0 has items 0, 1

    # one neighbour per item: 0 -> 1, 1 -> 0, 2 -> 3, 3 -> 2
    top1 = ItemKNN(k_neighbours=1, shrink=1).fit(train).similarity_.toarray()
    keep = np.zeros((4, 4), dtype=bool)
    keep[[0, 1, 2, 3], [1, 0, 3, 2]] = True
    np.testing.assert_allclose(top1, np.where(keep, expected, 0.0), rtol=1e-12)


def test_itemknn_neighbour_ties_go_to_lower_index_and_blocks_do_not_matter():
    # item 1 is equally similar to items 0 and 2
    train = sp.csr_matrix(np.array([[1, 1, 0], [0, 1, 1]]))
    sim = ItemKNN(k_neighbours=1, shrink=0).fit(train).similarity_.toarray()
    assert sim[1, 0] > 0 and sim[1, 2] == 0
    big = random_csr(n_users=60, n_items=40, density=0.15, seed=3)
    one = ItemKNN(k_neighbours=5, block_size=1000).fit(big).similarity_
    many = ItemKNN(k_neighbours=5, block_size=7).fit(big).similarity_
    assert (one != many).nnz == 0
    assert np.all(np.diff(one.indptr) <= 5)


# ---- EASE ------------------------------------------------------------------------------
def test_ease_matches_closed_form():
    train = random_csr(n_users=40, n_items=15, density=0.3, seed=1)
    reg = 3.0
    X = train.toarray()
    P = np.linalg.inv(X.T @ X + reg * np.eye(15))
    B = np.eye(15) - P / np.diag(P)[None, :]
    model = EASE(reg=reg).fit(train)
    np.testing.assert_allclose(np.diag(model.weights_), 0.0, atol=1e-12)
    np.testing.assert_allclose(model.weights_, B, atol=1e-10)
    np.testing.assert_allclose(model.score(np.arange(40)), X @ B, atol=1e-10)


def test_training_values_are_binarised():
    counts = sp.csr_matrix(np.array([[5.0, 0, 2], [1, 3, 0], [0, 0, 7]]))
    np.testing.assert_allclose(EASE(reg=1).fit(counts).weights_, EASE(reg=1).fit(counts.sign()).weights_)


# ---- BPR and ALS -----------------------------------------------------------------------
@pytest.mark.parametrize("cls", [BPR, ALS])
def test_factorization_is_deterministic_given_the_seed(cls):
    split = planted_split()
    train, users, history = split.matrix("train"), split.test_users, split.history()
    params = FAST[cls.__name__.lower()]
    a = cls(**params, seed=5).fit(train)
    b = cls(**params, seed=5).fit(train)
    c = cls(**params, seed=6).fit(train)
    np.testing.assert_array_equal(a.item_factors_, b.item_factors_)
    np.testing.assert_array_equal(recommend(a, users, k=5, history=history), recommend(b, users, k=5, history=history))
    assert not np.array_equal(a.item_factors_, c.item_factors_)


def test_als_result_does_not_depend_on_threads():
    train = planted_split().matrix("train")
    one = ALS(**FAST["als"], num_threads=1).fit(train)
    two = ALS(**FAST["als"], num_threads=2).fit(train)
    np.testing.assert_array_equal(one.user_factors_, two.user_factors_)


@pytest.mark.parametrize("name", ["bpr", "als", "itemknn", "userknn", "ease"])
def test_models_beat_random_on_planted_groups(name):
    split = planted_split()
    users, relevant, history = split.test_users, split.relevant(), split.history()
    train = split.matrix("train")
    rand = hit_rate(recommend(Random().fit(train), users, k=2, history=history), relevant=relevant)
    params = {"itemknn": {"k_neighbours": 10}, "userknn": {"k_neighbours": 10}, "ease": {"reg": 10.0}}.get(name, FAST.get(name, {}))
    model = make_model(name, **params).fit(train)
    hr = hit_rate(recommend(model, users, k=2, history=history), relevant=relevant)
    assert hr >= 0.9 and hr > rand + 0.4, (name, hr, rand)


# ---- UserKNN ---------------------------------------------------------------------------
def test_userknn_matches_a_loop_over_users_and_blocks_do_not_matter():
    from recfair.recommenders import UserKNN

    rng = np.random.default_rng(5)
    train = sp.csr_matrix((rng.random((30, 12)) < 0.3).astype(float))
    X = train.toarray()
    for k_nb, shrink in ((3, 0.0), (100, 2.0)):
        model = UserKNN(k_neighbours=k_nb, shrink=shrink).fit(train)
        got = model.score(np.arange(30))
        for u in range(30):
            sims = []
            for v in range(30):
                den = np.linalg.norm(X[u]) * np.linalg.norm(X[v]) + shrink
                sims.append(0.0 if v == u or den == 0 else X[u] @ X[v] / den)
            order = sorted(range(30), key=lambda v: (-sims[v], v))[:k_nb]
            expected = sum(sims[v] * X[v] for v in order if sims[v] > 0)
            np.testing.assert_allclose(got[u], expected, atol=1e-12)
        np.testing.assert_allclose(UserKNN(k_neighbours=k_nb, shrink=shrink, block_size=4).fit(train).score(
            np.arange(30)), got)
    with pytest.raises(ValueError, match="k_neighbours"):
        UserKNN(k_neighbours=0)
    assert make_model("UserKNN").get_params()["shrink"] == 0.0


# ---- validation ------------------------------------------------------------------------
@pytest.mark.parametrize("make, match", [
    (lambda: ItemKNN(k_neighbours=0), "k_neighbours"),
    (lambda: ItemKNN(k_neighbours=-3), "k_neighbours"),
    (lambda: ItemKNN(shrink=-1), "shrink"),
    (lambda: EASE(reg=0), "reg"),
    (lambda: BPR(learning_rate=-0.1), "learning_rate"),
    (lambda: ALS(factors=0), "factors"),
    (lambda: ALS(alpha=0), "alpha"),
    (lambda: Random(seed=-1), "seed"),
    (lambda: make_model("svd"), "unknown model"),
    (lambda: make_model("ease", lambda_=3), "unknown parameter"),
])
def test_bad_parameters_raise_value_error(make, match):
    with pytest.raises(ValueError, match=match):
        make()


def test_bad_parameter_types_raise_type_error():
    with pytest.raises(TypeError, match="k_neighbours"):
        ItemKNN(k_neighbours=2.5)
    with pytest.raises(TypeError, match="seed"):
        BPR(seed="seed")


def test_bad_inputs():
    train = random_csr()
    with pytest.raises(TypeError, match="scipy.sparse"):
        Pop().fit(train.toarray())
    with pytest.raises(ValueError, match="non-negative"):
        Pop().fit(sp.csr_matrix(np.array([[1.0, -1.0]])))
    with pytest.raises(NotFittedError):
        Pop().score([0])
    model = Pop().fit(train)
    with pytest.raises(ValueError, match="outside"):
        model.score([0, 30])
    with pytest.raises(ValueError, match="outside"):
        recommend(model, [-1], k=3)
    with pytest.raises(ValueError, match="k must be >= 1"):
        recommend(model, [0], k=-2)
    with pytest.raises(ValueError, match="exceeds n_items"):
        recommend(model, [0], k=26)
    with pytest.raises(ValueError, match="shape"):
        recommend(model, [0, 1], k=3, history=train[:3])
    with pytest.raises(ValueError, match="k must be >= 1"):
        produce_run("pop", planted_split(), k=0, use_cache=False)


def test_registry_defaults():
    assert set(available_models()) == {"pop", "random", "itemknn", "userknn", "bpr", "als", "ease"}
    assert default_params("ItemKNN")["k_neighbours"] == 100 and default_params("itemknn")["shrink"] == 10
    assert default_params("ease")["reg"] == 500
    bpr = default_params("bpr")
    assert (bpr["factors"], bpr["learning_rate"], bpr["regularization"], bpr["iterations"]) == (64, 0.01, 0.01, 100)
    als = default_params("als")
    assert (als["factors"], als["regularization"], als["iterations"], als["alpha"]) == (64, 0.05, 15, 1.0)
    assert all(default_params(n)["seed"] == 2020 for n in available_models())


# ---- runs and the cache ----------------------------------------------------------------
def test_produce_run_contents_and_to_run_round_trip(tmp_path):
    split = planted_split()
    rec = produce_run("ease", split, k=4, params={"reg": 10.0}, cache_dir=tmp_path)
    assert isinstance(rec, RecRun) and rec.model == "ease" and rec.params["reg"] == 10.0
    np.testing.assert_array_equal(rec.users, split.test_users)
    assert rec.top_k.shape == (len(split.test_users), 4) and rec.scores.dtype == np.float32
    assert np.all(np.isneginf(rec.scores[rec.history.toarray()]))
    np.testing.assert_array_equal(rec.top_k, top_k_from_scores(rec.scores, k=4))
    run = rec.to_run()
    assert isinstance(run, Run) and run.k == 4 and run.n_items == split.n_items
    np.testing.assert_array_equal(run.top_k, rec.top_k)
    np.testing.assert_array_equal(run.scores, rec.scores.astype(np.float64))
    assert (run.relevant != split.relevant()).nnz == 0 and (run.history != split.history()).nnz == 0
    # without scores the lists are the same, and still convertible
    bare = produce_run("ease", split, k=4, params={"reg": 10.0}, store_scores=False, use_cache=False)
    assert bare.scores is None
    np.testing.assert_array_equal(bare.top_k, rec.top_k)
    assert bare.to_run().scores is None


def test_pop_run_with_many_ties_round_trips():
    split = planted_split()  # every group's items are about equally popular: many ties
    rec = produce_run("pop", split, k=5, use_cache=False)
    np.testing.assert_array_equal(rec.to_run().top_k, rec.top_k)


def test_cache_hit_returns_identical_run(tmp_path):
    split = planted_split()
    first = produce_run("bpr", split, k=3, params=FAST["bpr"], cache_dir=tmp_path)
    second = produce_run("bpr", split, k=3, params=FAST["bpr"], cache_dir=tmp_path, progress=False)
    assert not first.info["from_cache"] and second.info["from_cache"]
    np.testing.assert_array_equal(first.top_k, second.top_k)
    np.testing.assert_array_equal(first.scores, second.scores)
    assert first.params == second.params and first.info["key"] == second.info["key"]
    assert len(list(tmp_path.glob("run-*.npz"))) == 1 and len(list(tmp_path.glob("run-*.json"))) == 1
    assert not list(tmp_path.glob(".*"))  # no temporary file left behind
    meta = json.loads(next(tmp_path.glob("run-*.json")).read_text())
    assert meta["model"] == "bpr" and meta["key"] == first.info["key"]


def test_cache_invalidated_by_params_k_and_data(tmp_path):
    split = planted_split()
    base = produce_run("itemknn", split, k=3, cache_dir=tmp_path)
    other_params = produce_run("itemknn", split, k=3, params={"shrink": 0.0}, cache_dir=tmp_path)
    other_k = produce_run("itemknn", split, k=4, cache_dir=tmp_path)
    other_data = produce_run("itemknn", planted_split(seed=1), k=3, cache_dir=tmp_path)
    keys = {r.info["key"] for r in (base, other_params, other_k, other_data)}
    assert len(keys) == 4
    assert not any(r.info["from_cache"] for r in (other_params, other_k, other_data))
    # a parameter that cannot change the result does not change the key
    same = produce_run("itemknn", split, k=3, params={"block_size": 5}, cache_dir=tmp_path, progress=False)
    assert same.info["from_cache"] and same.info["key"] == base.info["key"]


def test_scores_requested_after_a_scoreless_run_are_recomputed(tmp_path):
    split = planted_split()
    produce_run("pop", split, k=3, store_scores=False, cache_dir=tmp_path)
    with_scores = produce_run("pop", split, k=3, store_scores=True, cache_dir=tmp_path)
    assert not with_scores.info["from_cache"] and with_scores.scores is not None
    again = produce_run("pop", split, k=3, store_scores=False, cache_dir=tmp_path)
    assert again.info["from_cache"] and again.scores is None


@pytest.mark.parametrize("damage", ["npz_bytes", "npz_truncated", "json_garbage", "npz_missing"])
def test_corrupted_cache_is_detected_and_recomputed(tmp_path, damage):
    split = planted_split()
    good = produce_run("als", split, k=3, params=FAST["als"], cache_dir=tmp_path)
    npz, sidecar = next(tmp_path.glob("run-*.npz")), next(tmp_path.glob("run-*.json"))
    if damage == "npz_bytes":
        data = bytearray(npz.read_bytes())
        data[len(data) // 2] ^= 0xFF
        npz.write_bytes(bytes(data))
    elif damage == "npz_truncated":
        npz.write_bytes(npz.read_bytes()[:100])
    elif damage == "json_garbage":
        sidecar.write_text("{not json")
    else:
        npz.unlink()
    with pytest.warns(RunCacheWarning, match="recomputing"):
        redone = produce_run("als", split, k=3, params=FAST["als"], cache_dir=tmp_path)
    assert not redone.info["from_cache"]
    np.testing.assert_array_equal(redone.top_k, good.top_k)
    np.testing.assert_array_equal(redone.scores, good.scores)
    assert produce_run("als", split, k=3, params=FAST["als"], cache_dir=tmp_path).info["from_cache"]


def test_clear_cache_removes_only_runs(tmp_path, monkeypatch):
    monkeypatch.setenv("RECFAIR_CACHE", str(tmp_path))
    split = planted_split()
    produce_runs(["pop", "random"], split, k=2)
    runs_dir = tmp_path / "runs"
    (runs_dir / "notes.txt").write_text("keep me")
    assert clear_cache() == 4
    assert [p.name for p in runs_dir.iterdir()] == ["notes.txt"]
    assert clear_cache(cache_dir=tmp_path / "nowhere") == 0


def test_produce_runs_per_model_params(tmp_path):
    runs = produce_runs(["Pop", "ease"], planted_split(), k=2, cache_dir=tmp_path, params={"ease": {"reg": 5.0}})
    assert list(runs) == ["Pop", "ease"] and runs["ease"].params["reg"] == 5.0


def test_fit_on_train_plus_valid_changes_the_key(tmp_path):
    split = planted_split()
    a = produce_run("pop", split, k=2, cache_dir=tmp_path)
    b = produce_run("pop", split, k=2, cache_dir=tmp_path, fit_on="train+valid")
    assert a.info["key"] != b.info["key"]
    with pytest.raises(ValueError, match="fit_on"):
        produce_run("pop", split, k=2, fit_on="test", use_cache=False)


# ---- smoke test on real data -----------------------------------------------------------
@pytest.mark.skipif(not ML100K.exists(), reason="ML-100K not available")
def test_ml100k_smoke(tmp_path):
    raw = pd.read_csv(ML100K, sep="\t")
    users = raw["user_id:token"].astype("category").cat.codes.to_numpy()
    items = raw["item_id:token"].astype("category").cat.codes.to_numpy()
    part = np.random.default_rng(2020).random(len(raw))
    pairs = np.column_stack([users, items])
    split = TinySplit(pairs[part < 0.8], pairs[(part >= 0.8) & (part < 0.9)], pairs[part >= 0.9],
                      int(users.max()) + 1, int(items.max()) + 1, name="ml-100k-random")
    assert (split.n_users, split.n_items) == (943, 1682)
    rates = {}
    for name in ["random", "pop", "ease", "als"]:
        rec = produce_run(name, split, k=10, cache_dir=tmp_path)
        run = rec.to_run()
        assert run.n_users == len(split.test_users)
        rates[name] = hit_rate(rec.top_k, relevant=rec.relevant)
    assert rates["random"] < 0.15 < rates["pop"] < rates["ease"]
    assert rates["als"] > rates["pop"]


def test_settings_that_cannot_change_results_share_a_cache_entry(tmp_path):
    split = planted_split()
    pop = produce_run("pop", split, k=2, cache_dir=tmp_path)
    assert produce_run("pop", split, k=2, params={"seed": 1}, cache_dir=tmp_path).info["from_cache"]
    assert "seed" not in pop.params
    als = produce_run("als", split, k=2, params={**FAST["als"], "num_threads": 1}, cache_dir=tmp_path)
    again = produce_run("als", split, k=2, params={**FAST["als"], "num_threads": 2}, cache_dir=tmp_path)
    assert again.info["from_cache"] and again.info["key"] == als.info["key"]


def test_unseeded_runs_are_never_cached(tmp_path):
    split = planted_split()
    produce_run("random", split, k=2, params={"seed": None}, cache_dir=tmp_path)
    assert not list(tmp_path.iterdir())


def test_unwritable_cache_warns_and_still_returns_the_run(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("a file where the cache directory should be")
    with pytest.warns(RunCacheWarning, match="not cached"):
        rec = produce_run("pop", planted_split(), k=2, cache_dir=blocker)
    assert rec.top_k.shape == (60, 2)


def test_reference_models_are_registered_and_fixed():
    from recfair.recommenders import MODELS, REFERENCE_MODELS

    assert REFERENCE_MODELS == ("pop", "random", "itemknn", "bpr", "als", "ease")
    assert set(REFERENCE_MODELS) <= set(MODELS)
