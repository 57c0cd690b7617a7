import numpy as np
import pytest

from recfair.synthetic import random_relevant, random_top_k


@pytest.mark.parametrize("m, n, k", [(50, 1000, 10), (20, 12, 5), (5, 3, 3)])
def test_random_top_k_distinct_and_reproducible(m, n, k):
    top = random_top_k(7, m, n, k)
    assert top.shape == (m, k) and top.min() >= 0 and top.max() < n
    assert all(len(set(row)) == k for row in top)
    assert np.array_equal(top, random_top_k(7, m, n, k))


def test_random_top_k_roughly_uniform():
    top = random_top_k(0, 20000, 50, 5)
    counts = np.bincount(top.ravel(), minlength=50)
    assert counts.min() > 0.9 * counts.mean() and counts.max() < 1.1 * counts.mean()


def test_random_relevant():
    rel = random_relevant(0, 1000, 500, mean=10)
    per_user = np.diff(rel.indptr)
    assert per_user.min() >= 1 and abs(per_user.mean() - 10) < 0.5
    with pytest.raises(ValueError, match="mean must be"):
        random_relevant(0, 3, 5, mean=0)
    with pytest.raises(TypeError, match="rng"):
        random_top_k("x", 3, 5, 2)
