"""The ranking contract: stable descending sort, ties to the lower index, history last."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from recfair.ranking import full_ranking, top_k_from_scores


def test_ties_and_history():
    scores = [[1.0, 3.0, 3.0, 0.0, 3.0]]
    assert full_ranking(scores).tolist() == [[1, 2, 4, 0, 3]]
    assert full_ranking(scores, history=[[2]]).tolist() == [[1, 4, 0, 3, 2]]
    assert top_k_from_scores(scores, k=2, history=[[1]]).tolist() == [[2, 4]]


def test_minus_inf_items_sink_in_index_order():
    scores = [[-np.inf, 0.0, -np.inf, 1.0]]
    assert full_ranking(scores).tolist() == [[3, 1, 0, 2]]


@settings(max_examples=150, deadline=None)
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 9)),
                  elements=st.sampled_from([0.0, 0.5, 1.0, 2.0, -np.inf])), st.data())
def test_top_k_is_prefix_of_full_ranking(scores, data):
    k = data.draw(st.integers(1, scores.shape[1]))
    assert np.array_equal(top_k_from_scores(scores, k=k), full_ranking(scores)[:, :k])


def test_k_too_large():
    with pytest.raises(ValueError, match="exceeds n_items"):
        top_k_from_scores([[0.0, 1.0]], k=3)
