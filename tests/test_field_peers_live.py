"""Part VI against the peers themselves: rectools, FairRankTune and RecBole run on random runs.

Each test imports the peer with ``pytest.importorskip`` (none of them is a dependency of recfair:
install them in a separate environment), runs the peer's own metric on random runs, and checks
recfair's value under the options that name the peer's conventions; where recfair's default
differs, the test shows that the difference is exactly that named convention.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import recfair as rf
from recfair.field import item_popularity

SEEDS = range(4)


def _random_run(seed, m=30, n=25, k=5, repeats=True):
    """Lists, a training log (with repeated (user, item) rows when ``repeats``), and item groups."""
    rng = np.random.default_rng(seed)
    sizes = rng.integers(1, 8, m)
    weights = 1 / np.arange(1, n + 1) ** 1.1                                 # a long tail
    weights /= weights.sum()
    rows = [(u, int(i)) for u in range(m) for i in rng.choice(n, sizes[u], replace=False, p=weights)]
    if repeats:
        rows += [rows[j] for j in rng.choice(len(rows), len(rows) // 3)]
    log = np.array(rows, dtype=np.int64)
    seen = [set(log[log[:, 0] == u, 1].tolist()) for u in range(m)]
    top = np.array([rng.choice([i for i in range(n) if i not in seen[u]], k, replace=False) for u in range(m)])
    history = [sorted(s) for s in seen]
    groups = rng.choice(["p", "q", "r"], n)
    groups[:3] = ["p", "q", "r"]
    return top, log, history, groups, n


# ---------------------------------------------------------------------------- rectools

@pytest.mark.parametrize("seed", SEEDS)
def test_rectools_avg_rec_popularity(seed):
    """rectools' AvgRecPopularity counts interaction rows (``popularity`` given as those counts) and, with
    ``normalize=True``, divides them by the number of interactions (recfair's ``normalize=True``)."""
    pytest.importorskip("rectools")
    from rectools import Columns
    from rectools.metrics import AvgRecPopularity

    top, log, history, _, n = _random_run(seed)
    m, k = top.shape
    reco = pd.DataFrame({Columns.User: np.repeat(np.arange(m), k), Columns.Item: top.ravel(),
                         Columns.Rank: np.tile(np.arange(1, k + 1), m)})
    prev = pd.DataFrame({Columns.User: log[:, 0], Columns.Item: log[:, 1]})
    rows = item_popularity(log, n_items=n, popularity="interactions")
    for normalize in (False, True):
        theirs = AvgRecPopularity(k=k, normalize=normalize).calc(reco, prev)
        ours = rf.arp(top, n_items=n, popularity=rows, normalize=normalize)
        assert ours == pytest.approx(theirs, rel=1e-12)
    # recfair's default counts distinct users: the difference is the repeated rows, nothing else
    users = item_popularity(log, n_items=n)
    assert (users < rows).any()
    assert rf.arp(top, n_items=n, history=history) == pytest.approx(rf.arp(top, n_items=n, popularity=users))
    assert rf.arp(top, n_items=n, history=history) < AvgRecPopularity(k=k).calc(reco, prev)


# ---------------------------------------------------------------------------- FairRankTune

@pytest.mark.parametrize("seed", SEEDS)
def test_fairranktune_exp_ndkl_awrf(seed):
    """FairRankTune 0.0.7 on rankings of the catalogue: ``EXP(..., "MinMaxRatio")`` is recfair's ExpRatio
    (DCG exposure per group over its size); ``NDKL`` is recfair's NDKL with ``smoothing=1e-7``
    (FairRankTune adds it to both distributions, NDKL.py lines 17-21); ``AWRF(..., p, "MinMaxRatio")`` is
    recfair's ExpRatio with ``examination="rbp", gamma=1-p``, not TREC's AWRF (another measure)."""
    frt = pytest.importorskip("FairRankTune")
    _, _, _, groups, n = _random_run(seed)
    rng = np.random.default_rng(100 + seed)
    rankings = np.array([rng.permutation(n) for _ in range(4)])
    frame = pd.DataFrame(rankings.T)
    labels = dict(enumerate(groups))
    exp, _ = frt.EXP(frame, labels, "MinMaxRatio")
    assert rf.exposure_ratio(rankings, n_items=n, item_groups=groups) == pytest.approx(exp, rel=1e-9)
    awrf, _ = frt.AWRF(frame, labels, 0.2, "MinMaxRatio")
    assert rf.exposure_ratio(rankings, n_items=n, item_groups=groups, examination="rbp",
                             gamma=0.8) == pytest.approx(awrf, rel=1e-9)
    assert rf.awrf(rankings, n_items=n, item_groups=groups) != pytest.approx(awrf, rel=1e-3)
    for ranking in rankings:                                 # FairRankTune's NDKL scores one ranking
        ndkl = frt.NDKL(pd.DataFrame({"r": ranking}), labels)
        assert rf.ndkl([ranking], n_items=n, item_groups=groups, smoothing=1e-7) == pytest.approx(ndkl, rel=1e-9)


# ---------------------------------------------------------------------------- RecBole

def _recbole_metrics():
    """RecBole's metric classes (RecBole needs PyTorch; skipped without it)."""
    return pytest.importorskip("recbole.evaluator.metrics")


def _recbole_ids(top):
    """RecBole numbers items from 1 (0 is its padding token): item i is RecBole's i + 1."""
    return np.asarray(top) + 1


@pytest.mark.parametrize("seed", SEEDS)
def test_recbole_average_popularity_and_tail_percentage(seed):
    """RecBole 1.2.1's AveragePopularity counts interaction rows (``data.count_items``): recfair's ARP on
    those counts. TailPercentage with ``tail_ratio`` in (0, 1] is recfair's APLT with ``tail_items=`` (a
    float share of the seen items) and with ``tail_ratio`` above 1 with ``tail_threshold=``; recfair's
    default tail (the items beyond 80 % of the interactions, never-seen items included) is another set."""
    metrics = _recbole_metrics()
    top, log, _, _, n = _random_run(seed)
    k = top.shape[1]
    rows = item_popularity(log, n_items=n, popularity="interactions")
    count_items = {i + 1: int(c) for i, c in enumerate(rows) if c > 0}
    items = _recbole_ids(top)

    avg = metrics.AveragePopularity({"topk": [k], "metric_decimal_place": 12})
    theirs = avg.topk_result("averagepopularity", avg.metric_info(avg.get_pop(items, count_items)))
    ours = rf.arp(top, n_items=n, popularity=rows)
    assert ours == pytest.approx(theirs[f"averagepopularity@{k}"], abs=1e-10)

    for ratio, option in ((0.1, {"tail_items": 0.1}), (0.5, {"tail_items": 0.5}), (1.0, {"tail_items": 1.0}),
                          (2, {"tail_threshold": 2}), (5, {"tail_threshold": 5})):
        tail = metrics.TailPercentage({"topk": [k], "metric_decimal_place": 12, "tail_ratio": ratio})
        theirs = tail.topk_result("tailpercentage", tail.metric_info(tail.get_tail(items, count_items)))
        ours = rf.aplt(top, n_items=n, popularity=rows, **option)
        assert ours == pytest.approx(theirs[f"tailpercentage@{k}"], abs=1e-10), ratio
    default = rf.aplt(top, n_items=n, popularity=rows)
    assert default != pytest.approx(rf.aplt(top, n_items=n, popularity=rows, tail_items=0.1))


@pytest.mark.parametrize("seed", SEEDS)
def test_recbole_gini_and_coverage_over_n_plus_one_items(seed):
    """RecBole's GiniIndex and ItemCoverage divide by ``data.num_items``, which counts its padding item:
    recfair's Gini_ori and coverage on ``n_items = n + 1``."""
    metrics = _recbole_metrics()
    top, _, _, _, n = _random_run(seed)
    k = top.shape[1]
    config = {"topk": [k], "metric_decimal_place": 12}
    gini = metrics.GiniIndex(config).get_gini(_recbole_ids(top), n + 1)
    assert rf.gini_index(top, n_items=n + 1) == pytest.approx(gini, abs=1e-12)
    assert rf.gini_index(top, n_items=n) != pytest.approx(gini, abs=1e-6)
    coverage = metrics.ItemCoverage(config).get_coverage(_recbole_ids(top), n + 1)
    assert rf.evaluate(top, n_items=n + 1, measures="QF_ori")["QF_ori"] == pytest.approx(coverage)
