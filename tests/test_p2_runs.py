"""Part II's reference runs (recfair.recommenders.rerank.paper23_runs) and their scores placed in the
achievable range (recfair.recommenders.rerank.measure_on_runs)."""

from __future__ import annotations

import numpy as np
import pytest

import recfair as rf
from recfair.recommenders.rerank import PAPER23_MODELS, measure_on_runs, paper23_runs
from recfair.run import Run


def _toy_runs():
    rng = np.random.default_rng(0)
    m, n = 6, 12
    relevant = [rng.choice(n, size=size, replace=False).tolist() for size in (1, 2, 3, 4, 2, 5)]
    out = {}
    for label, seed in (("a", 1), ("b", 2)):
        scores = np.random.default_rng(seed).random((m, n))
        out["toy", label] = Run(None, n, k=3, relevant=relevant, scores=scores)
    return out, relevant, n


def test_measure_on_runs_places_scores_between_the_registry_ends():
    runs, relevant, n = _toy_runs()
    frame = measure_on_runs(runs, ["IAA_ori", "IAA_our", "MME"], k=3)
    assert list(frame.index.names) == ["dataset", "run"]
    for (d, label), run in runs.items():
        row = frame.loc[(d, label)]
        expected = rf.evaluate(run.ranking[:, :3], n_items=n, measures=["IAA_ori", "MME"],
                               relevant=run.relevant, ranking=run.ranking)
        assert np.isclose(row["IAA_ori", "score"], expected["IAA_ori"])
        ends = rf.REGISTRY["IAA_ori"].bounds(run.n_users, n, 3, n_relevant=run.n_relevant)
        assert np.isclose(row["IAA_ori", "fairest"], ends.most_fair)
        pos = (row["IAA_ori", "score"] - ends.most_fair) / (ends.most_unfair - ends.most_fair)
        assert np.isclose(row["IAA_ori", "position"], pos) and 0 <= pos <= 1
        assert np.isclose(row["IAA_our", "fairest"], 0) and np.isclose(row["IAA_our", "most unfair"], 1)
        assert np.isnan(row["MME", "fairest"]) and np.isnan(row["MME", "position"])
        assert np.isclose(row["MME", "score"], expected["MME"])


def test_measure_on_runs_rejects_bad_input():
    runs, _, _ = _toy_runs()
    with pytest.raises(ValueError):
        measure_on_runs(runs, ["not a measure"])
    with pytest.raises(TypeError):
        measure_on_runs([], ["IAA_ori"])
    with pytest.raises(TypeError):
        measure_on_runs(runs, ["IAA_ori"], k=2.5)


def test_paper23_runs_rejects_a_single_string():
    with pytest.raises(TypeError):
        paper23_runs("lastfm")
    with pytest.raises(TypeError):
        paper23_runs(("lastfm",), "pop")


def test_paper23_runs_on_real_data(monkeypatch, tmp_path):
    from _data_fixtures import SHARED_DATA

    if SHARED_DATA is None:
        pytest.skip("real datasets not available (set RECFAIR_DATA)")
    monkeypatch.setenv("RECFAIR_DATA", str(SHARED_DATA))
    monkeypatch.setenv("RECFAIR_CACHE", str(tmp_path / "cache"))
    runs, base = paper23_runs(("ml-100k",), ("pop",), with_base=True)
    assert set(runs) == {("ml-100k", "pop"), ("ml-100k", "pop-CM")}
    assert set(base) == {("ml-100k", "pop")}
    plain, cm = runs["ml-100k", "pop"], runs["ml-100k", "pop-CM"]
    assert plain.n_users == cm.n_users and plain.n_items == cm.n_items
    assert (plain.relevant != cm.relevant).nnz == 0
    assert not np.array_equal(plain.top_k, cm.top_k)          # COMBMNZ changed some lists
    assert "pop" in PAPER23_MODELS and "random" not in PAPER23_MODELS
