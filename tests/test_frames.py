import numpy as np
import pandas as pd
import pytest

import recfair as rf


def test_round_trip():
    top = np.array([[3, 1, 0], [2, 4, 1]])
    frame = rf.to_frame(top, users=[10, 4], scores=[[0.9, 0.5, 0.1], [0.8, 0.7, 0.2]])
    users, back, s = rf.from_frame(frame.sample(frac=1, random_state=0), n_items=5, score="score")
    assert users.tolist() == [4, 10]
    assert back.tolist() == [[2, 4, 1], [3, 1, 0]]
    assert s[1].tolist() == [0.9, 0.5, 0.1]


def test_from_frame_cut_to_k():
    frame = rf.to_frame([[3, 1, 0]])
    assert rf.from_frame(frame, n_items=5, k=2)[1].tolist() == [[3, 1]]


@pytest.mark.parametrize("frame, exc, match", [
    (pd.DataFrame({"user": [0, 0], "item": [1, 2]}), ValueError, r"lacks column\(s\) \['rank'\]"),
    (pd.DataFrame({"user": [0, 0, 1], "item": [1, 2, 3], "rank": [1, 2, 1]}), ValueError, "user 1 has 1 rows"),
    (pd.DataFrame({"user": [0, 0, 0], "item": [1, 2, 3], "rank": [1, 1, 3]}), ValueError, "repeats a rank"),
    (pd.DataFrame({"user": [0, 0], "item": [1, 2], "rank": [0, 1]}), ValueError, "1-based"),
    (pd.DataFrame({"user": [0, 0], "item": [1, 1], "rank": [1, 2]}), ValueError, "repeated item"),
    (pd.DataFrame({"user": [0, 0], "item": ["a", "b"], "rank": [1, 2]}), TypeError, "must hold integers"),
])
def test_from_frame_errors(frame, exc, match):
    with pytest.raises(exc, match=match):
        rf.from_frame(frame, n_items=5)


def test_item_sets_and_evaluate_from_frames():
    recs = rf.to_frame([[0, 1], [2, 3]], users=[7, 9])
    truth = pd.DataFrame({"user": [7, 9, 9], "item": [1, 3, 4]})
    users, top = rf.from_frame(recs, n_items=5)
    rel = rf.item_sets_from_frame(truth, users, n_items=5)
    assert rf.evaluate(top, n_items=5, measures=["HR"], relevant=rel) == {"HR": 1.0}
    with pytest.raises(ValueError, match="more than once"):
        rf.item_sets_from_frame(pd.concat([truth, truth]), users, n_items=5)
    with pytest.raises(TypeError, match="DataFrame"):
        rf.item_sets_from_frame({"user": [1]}, users, n_items=5)


def test_relevance_from_frame():
    df = pd.DataFrame({"user": [1, 1, 3, 9], "item": [4, 0, 2, 1], "grade": [0.5, 1.0, 0.8, 0.3]})
    mat = rf.relevance_from_frame(df, [3, 1, 2], n_items=5, value="grade")
    assert mat.toarray().tolist() == [[0, 0, 0.8, 0, 0], [1.0, 0, 0, 0, 0.5], [0] * 5]
    run = rf.Run([[2, 0], [0, 4], [1, 3]], 5, relevance=mat)
    assert run.graded and run.n_relevant.tolist() == [1, 2, 0]
    with pytest.raises(ValueError, match="non-negative"):
        rf.relevance_from_frame(df.assign(grade=-1.0), [1], n_items=5, value="grade")
    with pytest.raises(ValueError, match="finite"):
        rf.relevance_from_frame(df.assign(grade=["a", 1, 2, 3]), [1], n_items=5, value="grade")
    with pytest.raises(ValueError, match="more than once"):
        rf.relevance_from_frame(pd.concat([df, df]), [1], n_items=5, value="grade")
    with pytest.raises(ValueError, match="users lists"):
        rf.relevance_from_frame(df, [1, 1], n_items=5, value="grade")
