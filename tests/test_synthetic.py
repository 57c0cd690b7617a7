import numpy as np
import pytest

import _reference as reference
from recfair.synthetic import random_relevant, random_top_k


@pytest.mark.parametrize("m, n, k", [(50, 1000, 10), (20, 12, 5), (5, 3, 3)])
def test_random_top_k_distinct_and_reproducible(m, n, k):
    top = random_top_k(m, n, k, seed=7)
    assert top.shape == (m, k) and top.min() >= 0 and top.max() < n
    assert all(len(set(row)) == k for row in top)
    assert np.array_equal(top, random_top_k(m, n, k, seed=7))


def test_random_top_k_roughly_uniform():
    top = random_top_k(20000, 50, 5, seed=0)
    counts = np.bincount(top.ravel(), minlength=50)
    assert counts.min() > 0.9 * counts.mean() and counts.max() < 1.1 * counts.mean()


def test_random_relevant():
    rel = random_relevant(1000, 500, mean=10, seed=0)
    per_user = np.diff(rel.indptr)
    assert per_user.min() >= 1 and abs(per_user.mean() - 10) < 0.5
    with pytest.raises(ValueError, match="mean must be"):
        random_relevant(3, 5, mean=0, seed=0)
    with pytest.raises(TypeError, match="seed"):
        random_top_k(3, 5, 2, seed="x")


# ---------------------------------------------------------------------------------------------
# Paper 1 generators: MostFair / MostUnfair (Exp. 3), sliding windows (Exp. 4), insertion (Exp. 5)
# ---------------------------------------------------------------------------------------------

import math

import scipy.sparse as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from recfair.item_exposure.generators import (
    insertion_relevant,
    insertion_steps,
    insertion_top_k,
    most_fair_top_k,
    most_fair_top_k_nonrepeatable,
    most_unfair_top_k,
    most_unfair_top_k_nonrepeatable,
    popularity_order,
    sliding_windows,
)


def _rows_distinct(top):
    return all(len(set(row.tolist())) == top.shape[1] for row in top)


def _csr(lists, n):
    m = len(lists)
    dense = np.zeros((m, n), dtype=bool)
    for u, items in enumerate(lists):
        dense[u, list(items)] = True
    return sp.csr_matrix(dense)


# slow, obviously-correct references (straight from the spec §8.3 wording) --------------------

def _ref_order(pop):
    return sorted(range(len(pop)), key=lambda i: (pop[i], i))


def _ref_most_unfair(hist, n, k, pop):
    order = _ref_order(pop)
    return [[i for i in order if i not in set(h)][:k] for h in hist]


def _ref_most_fair(hist, n, k, pop):
    rank = {i: r for r, i in enumerate(_ref_order(pop))}
    count = [0] * n
    out = []
    for h in hist:
        blocked = set(h)
        cands = sorted((i for i in range(n) if i not in blocked), key=lambda i: (count[i], rank[i]))
        row = cands[:k]
        for i in row:
            count[i] += 1
        out.append(row)
    return out


@st.composite
def _histories(draw):
    n = draw(st.integers(1, 12))
    k = draw(st.integers(1, n))
    m = draw(st.integers(0, 9))
    hist = [sorted(draw(st.sets(st.integers(0, n - 1), max_size=n - k))) for _ in range(m)]
    pop = draw(st.none() | st.lists(st.integers(0, 3), min_size=n, max_size=n))
    return hist, n, k, pop


# repeatable -------------------------------------------------------------------------------

@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(1, 40), st.data())
def test_most_fair_repeatable_balanced(m, n, data):
    k = data.draw(st.integers(1, n))
    top = most_fair_top_k(m, n, k)
    assert top.shape == (m, k) and top.dtype == np.int64
    assert _rows_distinct(top)
    counts = np.bincount(top.ravel(), minlength=n)
    f = k * m // n
    assert set(np.unique(counts)) <= {f, f + 1}
    assert (counts == f + 1).sum() == (k * m) % n
    # user u gets (u*k + j) mod n
    if m:
        assert top[-1].tolist() == [((m - 1) * k + j) % n for j in range(k)]


def test_most_fair_repeatable_examples():
    assert most_fair_top_k(2, 3, 3).tolist() == [[0, 1, 2], [0, 1, 2]]
    assert most_fair_top_k(4, 6, 3).tolist() == [[0, 1, 2], [3, 4, 5], [0, 1, 2], [3, 4, 5]]
    assert most_fair_top_k(0, 6, 3).shape == (0, 3)


def test_most_unfair_repeatable():
    m, n, k = 50, 30, 4
    top = most_unfair_top_k(m, n, k)
    assert top.shape == (m, k) and top.dtype == np.int64
    counts = np.bincount(top.ravel(), minlength=n)
    assert counts[:k].tolist() == [m] * k and counts[k:].sum() == 0
    top = most_unfair_top_k(3, n, 2, items=np.array([9, 4, 7]))
    assert top.tolist() == [[9, 4]] * 3
    with pytest.raises(ValueError, match="distinct"):
        most_unfair_top_k(3, n, 2, items=[4, 4, 1])
    with pytest.raises(ValueError, match="only|holds 1 items"):
        most_unfair_top_k(3, n, 2, items=[4])
    with pytest.raises(ValueError, match="outside"):
        most_unfair_top_k(3, n, 2, items=[4, 30])
    with pytest.raises(TypeError, match="items"):
        most_unfair_top_k(3, n, 2, items=[0.5, 1.5])


@pytest.mark.parametrize("fn", [most_fair_top_k, most_unfair_top_k])
def test_repeatable_validation(fn):
    with pytest.raises(ValueError, match="k=6 exceeds n_items=5"):
        fn(3, 5, 6)
    with pytest.raises(ValueError, match="k must be >= 1, got 0"):
        fn(3, 5, 0)
    with pytest.raises(ValueError, match="n_users must be >= 0"):
        fn(-1, 5, 2)
    with pytest.raises(TypeError, match="k must be an integer"):
        fn(3, 5, 2.0)


# non-repeatable ---------------------------------------------------------------------------

@settings(max_examples=300, deadline=None)
@given(_histories())
def test_nonrepeatable_match_slow_reference(case):
    hist, n, k, pop = case
    ref_pop = pop if pop is not None else _csr(hist, n).sum(axis=0).A1.tolist() if hist else [0] * n
    fair = most_fair_top_k_nonrepeatable(hist, n_items=n, k=k, popularity=pop)
    unfair = most_unfair_top_k_nonrepeatable(hist, n_items=n, k=k, popularity=pop)
    assert fair.shape == unfair.shape == (len(hist), k)
    assert fair.dtype == unfair.dtype == np.int64
    assert fair.tolist() == _ref_most_fair(hist, n, k, ref_pop)
    assert unfair.tolist() == _ref_most_unfair(hist, n, k, ref_pop)
    for top in (fair, unfair):
        assert _rows_distinct(top)
        for row, h in zip(top.tolist(), hist):
            assert not set(row) & set(h)


def test_nonrepeatable_random_histories_against_reference():
    rng = np.random.default_rng(3)
    for _ in range(20):
        m, n, k = int(rng.integers(1, 40)), int(rng.integers(5, 30)), int(rng.integers(1, 5))
        hist = [sorted(rng.choice(n, size=int(rng.integers(0, n - k + 1)), replace=False).tolist())
                for _ in range(m)]
        pop = rng.integers(0, 5, size=n)
        assert most_fair_top_k_nonrepeatable(hist, n_items=n, k=k, popularity=pop).tolist() == \
            _ref_most_fair(hist, n, k, pop.tolist())
        assert most_unfair_top_k_nonrepeatable(hist, n_items=n, k=k, popularity=pop).tolist() == \
            _ref_most_unfair(hist, n, k, pop.tolist())


def test_nonrepeatable_large_scale_properties():
    """Popular items fill the histories (the usual case) at a moderate scale."""
    rng = np.random.default_rng(0)
    m, n, k = 3000, 800, 10
    p = 1.0 / np.arange(1, n + 1)
    p /= p.sum()
    deg = rng.integers(0, 200, size=m)
    rows = np.repeat(np.arange(m), deg)
    keys = np.unique(rows * n + rng.choice(n, size=rows.size, p=p))
    hist = sp.csr_matrix((np.ones(keys.size, bool), (keys // n, keys % n)), shape=(m, n))
    fair = most_fair_top_k_nonrepeatable(hist, n_items=n, k=k)
    unfair = most_unfair_top_k_nonrepeatable(hist, n_items=n, k=k)
    for top in (fair, unfair):
        assert top.shape == (m, k) and _rows_distinct(top)
        assert not hist[np.arange(m)[:, None], top].toarray().any()
    counts = np.bincount(fair.ravel(), minlength=n)
    assert counts.max() - counts.min() <= 2  # balanced as far as the histories allow
    assert np.unique(unfair).size < 3 * k
    # deterministic, and the same for every accepted history format
    assert np.array_equal(fair, most_fair_top_k_nonrepeatable(hist.toarray(), n_items=n, k=k))
    lists = [hist.indices[hist.indptr[u]:hist.indptr[u + 1]].tolist() for u in range(m)]
    assert np.array_equal(fair, most_fair_top_k_nonrepeatable(lists, n_items=n, k=k))
    assert np.array_equal(unfair, most_unfair_top_k_nonrepeatable(lists, n_items=n, k=k))


def test_nonrepeatable_without_history_equals_repeatable_in_popularity_order():
    rng = np.random.default_rng(1)
    for m, n, k in [(7, 5, 2), (13, 9, 4), (40, 17, 5), (3, 50, 10)]:
        pop = rng.integers(0, 4, size=n)
        order = popularity_order(pop)
        empty = [[] for _ in range(m)]
        fair = most_fair_top_k_nonrepeatable(empty, n_items=n, k=k, popularity=pop)
        assert np.array_equal(fair, order[most_fair_top_k(m, n, k)])
        unfair = most_unfair_top_k_nonrepeatable(empty, n_items=n, k=k, popularity=pop)
        assert np.array_equal(unfair, most_unfair_top_k(m, n, k, items=order))


def test_nonrepeatable_popularity_order_and_default():
    # items 2 and 4 are in nobody's train/val (popularity 0): they come first, by index
    hist = [[0, 1], [1, 3], [1]]
    assert popularity_order([1, 3, 0, 1, 0]).tolist() == [2, 4, 0, 3, 1]
    unfair = most_unfair_top_k_nonrepeatable(hist, n_items=5, k=3)
    assert unfair.tolist() == [[2, 4, 3], [2, 4, 0], [2, 4, 0]]
    fair = most_fair_top_k_nonrepeatable(hist, n_items=5, k=3)
    # user 0: first 3 recommendable of the order; then least count, ties by the order
    assert fair.tolist() == [[2, 4, 3], [0, 2, 4], [0, 3, 2]]
    assert np.array_equal(fair, most_fair_top_k_nonrepeatable(hist, n_items=5, k=3, popularity=[1, 3, 0, 1, 0]))


def test_nonrepeatable_validation():
    for fn in (most_fair_top_k_nonrepeatable, most_unfair_top_k_nonrepeatable):
        with pytest.raises(ValueError, match="user 1 has only 2 recommendable items"):
            fn([[0], [0, 1, 2]], n_items=5, k=3)
        with pytest.raises(ValueError, match="k=6 exceeds n_items=5"):
            fn([[0]], n_items=5, k=6)
        with pytest.raises(ValueError, match="k must be >= 1"):
            fn([[0]], n_items=5, k=0)
        with pytest.raises(ValueError, match=r"history has shape \(2, 4\)"):
            fn(sp.csr_matrix((2, 4), dtype=bool), n_items=5, k=2)
        with pytest.raises(ValueError, match=r"history has shape \(2, 4\)"):
            fn(np.zeros((2, 4), dtype=bool), n_items=5, k=2)
        with pytest.raises(ValueError, match=r"history\[0\] holds item indices outside"):
            fn([[7]], n_items=5, k=2)
        with pytest.raises(TypeError, match="history must be"):
            fn(3, n_items=5, k=2)
        with pytest.raises(ValueError, match="popularity has 4 entries but n_items=5"):
            fn([[0]], n_items=5, k=2, popularity=[1, 2, 3, 4])
        with pytest.raises(ValueError, match="popularity must be finite and >= 0"):
            fn([[0]], n_items=5, k=2, popularity=[1, 2, -3, 4, 0])
        with pytest.raises(TypeError, match="popularity must be numeric"):
            fn([[0]], n_items=5, k=2, popularity=list("abcde"))
        assert fn([], n_items=5, k=2).shape == (0, 2)


# sliding windows --------------------------------------------------------------------------

def test_sliding_windows_thesis_default():
    top = random_top_k(30, 100, 10, seed=0)
    wins = sliding_windows(top)
    assert [s for s, _ in wins] == [0, 1, 2, 3, 4]  # ranks 1-5 ... 5-9; rank 10 never used
    for s, w in wins:
        assert w.shape == (30, 5) and w.flags.c_contiguous and w.dtype == np.int64
        assert np.array_equal(w, top[:, s:s + 5])
    covered = np.concatenate([w for _, w in wins], axis=1)
    assert not (covered == top[:, 9:10]).any()  # no user's rank-10 item is in any of its windows
    wins[0][1][0, 0] = -1  # windows are copies
    assert top[0, 0] != -1


def test_sliding_windows_options_and_errors():
    top = np.arange(12).reshape(2, 6)
    assert [s for s, _ in sliding_windows(top, width=3, n_windows=4)] == [0, 1, 2, 3]
    assert sliding_windows(top, width=6, n_windows=1)[0][1].tolist() == top.tolist()
    assert [w[0].tolist() for _, w in sliding_windows(top, width=1)] == [[0], [1], [2], [3], [4]]
    with pytest.raises(ValueError, match="width=7 exceeds"):
        sliding_windows(top, width=7)
    with pytest.raises(ValueError, match="width=6 equals k=6"):
        sliding_windows(top, width=6)
    with pytest.raises(ValueError, match="n_windows=5 exceeds"):
        sliding_windows(top, width=3, n_windows=5)
    with pytest.raises(ValueError, match="width must be >= 1"):
        sliding_windows(top, width=0)
    with pytest.raises(ValueError, match="top_k must be 2-D"):
        sliding_windows(np.arange(5), width=2)


# artificial insertion ---------------------------------------------------------------------
# independent transcriptions of the formulas: tests/_reference.py

# spec §8.5 tables (m=1000, n=10000, k=10), P = 0.0, 0.1, ..., 1.0
LE_JAIN = [0.001, 0.00111099, 0.00124969, 0.00142796, 0.00166556, 0.001998, 0.00249626,
           0.00332557, 0.00498008, 0.0099108, 1]
LE_QF = [0.001, 0.1009, 0.2008, 0.3007, 0.4006, 0.5005, 0.6004, 0.7003, 0.8002, 0.9001, 1]
LE_GINI = [0.999, 0.98901, 0.95904, 0.90909, 0.83916, 0.74925, 0.63936, 0.50949, 0.35964, 0.18981, 0]
LE_GINI_W = [0.999219, 0.992863, 0.973533, 0.940648, 0.893497, 0.831186, 0.752537, 0.655912,
             0.538825, 0.396872, 0.219059]
ME_GINI_W = [0.219059, 0.339745, 0.452197, 0.556178, 0.651403, 0.737511, 0.814034, 0.880309,
             0.935297, 0.976992, 0.999219]
LE_PREC = [0.001, 0.1009, 0.2008, 0.3007, 0.4006, 0.5005, 0.6004, 0.7003, 0.8002, 0.9001, 1]


def test_insertion_thesis_tables():
    m, n, k = 1000, 10000, 10
    steps = list(insertion_steps(m, n, k))
    assert [p for p, _ in steps] == [t / 10 for t in range(11)]
    assert [p for p, _ in steps][3] == 0.3
    rel = insertion_relevant(m, n, k)
    for t, (p, top) in enumerate(steps):
        assert top.shape == (m, k) and top.dtype == np.int64 and _rows_distinct(top)
        assert reference.jain(top, n) == pytest.approx(LE_JAIN[t], rel=1e-5)
        assert reference.qf(top, n) == pytest.approx(LE_QF[t], abs=1e-12)
        assert reference.fsat(top, n) == pytest.approx(LE_QF[t], abs=1e-12)  # QF_ori = FSat_ori
        assert reference.gini(reference.counts(top, n).astype(float)) == pytest.approx(LE_GINI[t], abs=1e-6)
        assert reference.gini_w(top, n) == pytest.approx(LE_GINI_W[t], abs=1e-6)
        # corrected QF / FSat / Ent are exactly P (n divides km, so Ent_max = log n)
        qf_our = (np.count_nonzero(reference.counts(top, n)) - k) / (n - k)
        fsat_our = (reference.fsat(top, n) - k / n) / (1 - k / n)
        ent_our = (reference.entropy_defined(top, n) - math.log(k)) / (math.log(n) - math.log(k))
        assert qf_our == pytest.approx(p, abs=1e-12)
        assert fsat_our == pytest.approx(p, abs=1e-12)
        assert ent_our == pytest.approx(p, abs=1e-12)
        hits = rel[np.arange(m)[:, None], top].toarray()
        assert hits.mean() == pytest.approx(LE_PREC[t], abs=1e-12)  # precision@10 (= recall: 10 relevant each)
    # T14: P = 0.9
    top = steps[9][1]
    assert round(reference.jain(top, n), 4) == 0.0099
    assert reference.qf(top, n) == 0.9001 and reference.fsat(top, n) == 0.9001
    assert (top[:, 0] == 0).all()  # item i_1 still goes to every user


def test_insertion_most_exposed_reverse():
    m, n, k = 1000, 10000, 10
    le = list(insertion_steps(m, n, k))
    me = list(insertion_steps(m, n, k, kind="me"))
    assert np.array_equal(me[0][1], le[-1][1]) and np.array_equal(me[-1][1], le[0][1])
    for t, (p, top) in enumerate(me):
        assert p == t / k and _rows_distinct(top)
        # same exposure counts as the LE state with the complementary fraction, other positions
        assert np.array_equal(np.sort(reference.counts(top, n)), np.sort(reference.counts(le[k - t][1], n)))
        assert reference.gini_w(top, n) == pytest.approx(ME_GINI_W[t], abs=1e-6)


@pytest.mark.parametrize("m", [1, 2, 100, 500])
def test_insertion_structure(m):
    k = 10
    n = m * k
    start = insertion_top_k(m, n, k, n_inserted=0)
    assert np.array_equal(start, most_unfair_top_k(m, n, k))
    end = insertion_top_k(m, n, k, n_inserted=k)
    assert np.array_equal(end, most_fair_top_k(m, n, k))
    assert np.array_equal(reference.counts(end, n), np.ones(n, dtype=np.int64))  # every item exactly once
    rel = insertion_relevant(m, n, k)
    assert np.array_equal(np.diff(rel.indptr), np.full(m, k))
    assert rel[np.arange(m)[:, None], end].toarray().all()
    prev = start
    gini_our = []
    for t in range(k + 1):
        top = insertion_top_k(m, n, k, n_inserted=t)
        assert np.array_equal(top[0], np.arange(k))  # u_1's list never changes
        changed = np.flatnonzero((top != prev)[1:].any(axis=0))
        assert changed.tolist() == ([] if t == 0 or m == 1 else [k - t])  # one position, bottom up
        # inserted items are relevant, the rest (except for user 0) are not
        hits = rel[np.arange(m)[:, None], top].toarray()
        assert hits[1:, k - t:].all() and not hits[1:, :k - t].any()
        if m > 1:
            g = reference.gini(reference.counts(top, n).astype(float))
            gini_our.append((g - 0) / (1 - k / n - 0))
            assert (np.count_nonzero(reference.counts(top, n)) - k) / (n - k) == pytest.approx(t / k)
        prev = top
    if m > 1:  # spec §8.5 scaling check: the same curve for every m
        assert gini_our == pytest.approx([1, .99, .96, .91, .84, .75, .64, .51, .36, .19, 0], abs=1e-12)


def test_insertion_larger_catalogue_and_validation():
    top = insertion_top_k(3, 50, 4, n_inserted=2)
    assert top.tolist() == [[0, 1, 2, 3], [0, 1, 6, 7], [0, 1, 10, 11]]
    assert insertion_relevant(3, 50, 4).shape == (3, 50)
    with pytest.raises(ValueError, match="n_items=29 is smaller than n_users \\* k = 30"):
        insertion_top_k(3, 29, 10, n_inserted=1)
    with pytest.raises(ValueError, match="n_items=29 is smaller"):
        insertion_steps(3, 29, 10)  # raised eagerly, not on first iteration
    with pytest.raises(ValueError, match="n_inserted must be <= k=10, got 11"):
        insertion_top_k(3, 30, 10, n_inserted=11)
    with pytest.raises(ValueError, match="n_inserted must be >= 0"):
        insertion_top_k(3, 30, 10, n_inserted=-1)
    with pytest.raises(ValueError, match="kind must be one of"):
        insertion_top_k(3, 30, 10, n_inserted=1, kind="LE")
    with pytest.raises(ValueError, match="n_users must be >= 1"):
        insertion_steps(0, 30, 10)


def test_fewest_satisfied_attains_the_true_minimum():
    import recfair as rf
    from recfair.item_exposure.bounds import fsat_true_minimum
    from recfair.item_exposure.generators import fewest_satisfied_top_k
    from recfair.item_exposure.search import exhaustive

    for m, n, k in [(6, 3, 2), (5, 4, 3), (4, 5, 3), (20, 100, 10), (1859, 2823, 10)]:
        top = fewest_satisfied_top_k(m, n, k)
        assert top.shape == (m, k) and all(len(set(row)) == k for row in top)
        assert rf.fraction_satisfied(top, n_items=n) == pytest.approx(fsat_true_minimum(m, n, k))
    assert fsat_true_minimum(6, 3, 2) == pytest.approx(exhaustive("FSat_ori", 6, 3, 2)[0])
    with pytest.raises(ValueError, match="every item is satisfied"):
        fewest_satisfied_top_k(2, 10, 3)
