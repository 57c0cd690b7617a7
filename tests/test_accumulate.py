"""rf.Accumulator: block-by-block values equal the one-shot rf.evaluate, whatever the split."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.scale.blocks import ACCUMULABLE, NOT_ACCUMULABLE


def _run(m=240, n=60, k=6, seed=0):
    rng = np.random.default_rng(seed)
    scores = rng.random((m, n))
    scores[:, :3] += 0.5                                     # popular items: unequal exposure
    history = [rng.choice(n, 4, replace=False) for _ in range(m)]
    for u, h in enumerate(history):
        scores[u, h] = -np.inf
    top_k = rf.top_k_from_scores(scores, k=k)
    relevant = []
    for u in range(m):
        pool = np.setdiff1d(np.arange(n), history[u])
        relevant.append(rng.choice(pool, 1 + u % 7, replace=False))
    attrs = pd.DataFrame({"gender": rng.choice(["f", "m"], m), "age": rng.choice(["young", "old", "mid"], m)})
    return dict(top_k=top_k, scores=scores, history=history, relevant=relevant, user_attributes=attrs, n=n, k=k, m=m)


RUN = _run()
MEASURES = [key for key in ACCUMULABLE]


def _one_shot(measures, **options):
    return rf.evaluate(RUN["top_k"], n_items=RUN["n"], measures=measures, relevant=RUN["relevant"],
                       scores=RUN["scores"], history=RUN["history"], user_attributes=RUN["user_attributes"],
                       on_undefined="nan", **options)


def _blocks(acc, bounds):
    for a, b in zip(bounds[:-1], bounds[1:]):
        acc.update(RUN["top_k"][a:b], relevant=RUN["relevant"][a:b], scores=RUN["scores"][a:b],
                   history=RUN["history"][a:b], user_attributes=RUN["user_attributes"].iloc[a:b])
    return acc


def _close(a, b):
    assert a.keys() == b.keys()
    for key in a:
        if np.isnan(a[key]):
            assert np.isnan(b[key]), key
        else:
            assert b[key] == pytest.approx(a[key], rel=1e-12, abs=1e-15), key


@pytest.mark.parametrize("bounds", [[0, 240], [0, 1, 100, 101, 240], [0, 37, 80, 150, 199, 240]])
def test_every_accumulable_measure_equals_evaluate(bounds):
    expected = _one_shot(MEASURES)
    acc = _blocks(rf.Accumulator(measures=MEASURES, n_items=RUN["n"], k=RUN["k"], on_undefined="nan"), bounds)
    assert acc.n_users == RUN["m"]
    _close(expected, acc.result())


def test_count_measures_are_identical():
    names = [k for k in ACCUMULABLE if rf.REGISTRY[k].family == "item_exposure" and "w" not in k and k not in
             ("VoCD", "II-D", "AI-D")]
    acc = _blocks(rf.Accumulator(measures=names, n_items=RUN["n"], k=RUN["k"], on_undefined="nan"), [0, 50, 240])
    assert acc.result() == _one_shot(names)


def test_merge_equals_sequential_and_options_apply():
    opts = dict(gamma=0.5, base="P", epsilon=0.3, attributes="gender")
    names = ["II-D", "AI-D", "II-F_ori", "II-F_our", "Atk_group", "Atk_ind", "Range_group", "SD_ind"]
    left = _blocks(rf.Accumulator(measures=names, n_items=RUN["n"], k=RUN["k"], **opts), [0, 90])
    right = rf.Accumulator(measures=names, n_items=RUN["n"], k=RUN["k"], **opts)
    for a, b in [(90, 200), (200, 240)]:
        right.update(RUN["top_k"][a:b], relevant=RUN["relevant"][a:b],
                     user_attributes=RUN["user_attributes"].iloc[a:b])
    _close(_one_shot(names, **opts), left.merge(right).result())


def test_scores_in_blocks_give_ifd_div_ori_without_top_k():
    acc = rf.Accumulator(measures=["IFD_div_ori", "NDCG"], n_items=RUN["n"], k=RUN["k"])
    for a in range(0, RUN["m"], 64):
        acc.update(None, scores=RUN["scores"][a:a + 64], relevant=RUN["relevant"][a:a + 64])
    _close(_one_shot(["IFD_div_ori", "NDCG"]), acc.result())


def test_undefined_follows_on_undefined_like_evaluate():
    top_k, relevant = [[0, 1], [1, 2], [2, 3]], [[1], [], [2]]
    with pytest.warns(rf.UndefinedMeasureWarning):
        expected = rf.evaluate(top_k, n_items=4, measures=["R", "IAA_our"], relevant=relevant)
    acc = rf.Accumulator(measures=["R", "IAA_our"], n_items=4, k=2)
    acc.update(top_k[:1], relevant=relevant[:1])
    acc.update(top_k[1:], relevant=relevant[1:])
    with pytest.warns(rf.UndefinedMeasureWarning, match="1 user"):
        got = acc.result()
    assert np.isnan(got["R"]) and got["IAA_our"] == pytest.approx(expected["IAA_our"])
    strict = rf.Accumulator(measures=["R"], n_items=4, k=2, on_undefined="raise")
    strict.update(top_k, relevant=relevant)
    with pytest.raises(rf.UndefinedMeasureError):
        strict.result()
    empty = rf.Accumulator(measures=["HR"], n_items=4, k=2, on_undefined="nan")
    assert np.isnan(empty.result()["HR"])


def test_clear_errors():
    with pytest.raises(ValueError, match="PUF .*pair of users"):
        rf.Accumulator(measures=["NDCG", "PUF"], n_items=5)
    with pytest.raises(ValueError, match="MME .*items"):
        rf.Accumulator(measures=["MME"], n_items=5)
    with pytest.raises(ValueError, match="unknown measure"):
        rf.Accumulator(measures=["nDCG"], n_items=5)
    with pytest.raises(ValueError, match="not parameters"):
        rf.Accumulator(measures=["NDCG"], n_items=5, gamma=0.5)
    acc = rf.Accumulator(measures=["NDCG"], n_items=5, k=2)
    with pytest.raises(ValueError, match="NDCG needs relevant"):
        acc.update([[0, 1]])
    with pytest.raises(ValueError, match="k"):
        acc.update([[0]], relevant=[[0]])
    with pytest.raises(ValueError, match="out of range|n_items|in \\[0"):
        acc.update([[0, 9]], relevant=[[0]])
    with pytest.raises(ValueError, match="different"):
        acc.merge(rf.Accumulator(measures=["NDCG"], n_items=6, k=2))
    assert set(NOT_ACCUMULABLE) | set(ACCUMULABLE) == set(rf.REGISTRY)


def test_costs_orders_name_real_measures_and_grow_with_pairs():
    from recfair.scale.blocks import PAIRWISE, costs
    from recfair.registry import REGISTRY

    table = costs()
    assert set(table.index) == set(REGISTRY)
    for key in PAIRWISE:
        assert "m²" in table.loc[key, "time"], key
    for key in ("SD_ind", "Gini_ind", "NDCG", "Jain_our"):
        assert table.loc[key, "time"] == "O(mk)", key
    assert table.loc["UF", "time"] == "O(m²k²)" and table.loc["DPFR", "time"] != "O(mk)"
