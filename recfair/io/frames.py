"""Pandas adapters: long frames ``user, item, rank[, score]`` to and from run arrays."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._validation import check_item_range, check_positive_int, check_top_k

__all__ = ["from_frame", "to_frame", "item_sets_from_frame", "relevance_from_frame", "markdown_table"]


def _require_columns(frame: pd.DataFrame, columns, name="frame") -> None:
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"{name} must be a pandas DataFrame, got {type(frame).__name__}.")
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise ValueError(f"{name} lacks column(s) {missing}; it has {list(frame.columns)}.")


def _int_column(frame: pd.DataFrame, column: str) -> np.ndarray:
    values = frame[column].to_numpy()
    if not np.issubdtype(values.dtype, np.integer):
        raise TypeError(f"column {column!r} must hold integers, got dtype {values.dtype}.")
    return values.astype(np.int64)


def from_frame(frame: pd.DataFrame, *, n_items: int, k: int | None = None, user="user", item="item",
               rank="rank", score=None):
    """Turn a long frame of recommendations into ``(users, top_k)`` (and scores if asked).

    Each user needs ranks ``1..k`` exactly once (rank 1 first). Rows of ``top_k`` follow
    ``users``, the sorted distinct user indices of the frame.

    Returns
    -------
    users : ndarray of int, shape (n_users,)
    top_k : ndarray of int, shape (n_users, k)
    top_scores : ndarray of float, shape (n_users, k)
        Only if ``score`` names a column.

    Examples
    --------
    >>> df = pd.DataFrame({"user": [5, 5, 2, 2], "item": [3, 1, 0, 2], "rank": [1, 2, 2, 1]})
    >>> users, top_k = from_frame(df, n_items=4)
    >>> users.tolist(), top_k.tolist()
    ([2, 5], [[2, 0], [3, 1]])
    """
    n_items = check_positive_int(n_items, "n_items")
    _require_columns(frame, [user, item, rank] + ([score] if score else []))
    u, i, r = _int_column(frame, user), _int_column(frame, item), _int_column(frame, rank)
    users, row = np.unique(u, return_inverse=True)
    width = int(r.max()) if r.size else 0
    if k is None:
        k = width
    k = check_positive_int(k, "k")
    if r.size and r.min() < 1:
        raise ValueError(f"column {rank!r} must be 1-based ranks, found {int(r.min())}.")
    counts = np.bincount(row, minlength=users.size)
    if np.any(counts != width):
        bad = int(users[np.flatnonzero(counts != width)[0]])
        raise ValueError(f"every user needs ranks 1..{width} once each; user {bad} has {int(counts[users == bad][0])} rows.")
    top = np.full((users.size, width), -1, dtype=np.int64)
    top[row, r - 1] = i
    if (top < 0).any():
        bad = int(users[np.flatnonzero((top < 0).any(axis=1))[0]])
        raise ValueError(f"user {bad} repeats a rank; each rank 1..{width} must appear once per user.")
    top_k = check_top_k(top, n_items=n_items, k=k)
    if score is None:
        return users, top_k
    s = np.full((users.size, width), np.nan)
    s[row, r - 1] = frame[score].to_numpy(dtype=np.float64)
    return users, top_k, s[:, :k]


def to_frame(top_k, *, users=None, scores=None) -> pd.DataFrame:
    """Long frame ``user, item, rank[, score]`` from a ``(n_users, k)`` top-k array.

    ``scores`` may be the ``(n_users, k)`` scores of the listed items.

    Examples
    --------
    >>> to_frame([[2, 0]], users=[7])
       user  item  rank
    0     7     2     1
    1     7     0     2
    """
    top = np.asarray(top_k)
    if top.ndim != 2:
        raise ValueError(f"top_k must be 2-D (n_users, k), got shape {top.shape}.")
    m, k = top.shape
    users = np.arange(m) if users is None else np.asarray(users)
    if users.shape != (m,):
        raise ValueError(f"users must have one entry per row of top_k ({m}), got shape {users.shape}.")
    out = pd.DataFrame({"user": np.repeat(users, k), "item": top.ravel(), "rank": np.tile(np.arange(1, k + 1), m)})
    if scores is not None:
        s = np.asarray(scores, dtype=np.float64)
        if s.shape != (m, k):
            raise ValueError(f"scores must have the shape of top_k {top.shape}, got {s.shape}.")
        out["score"] = s.ravel()
    return out


def item_sets_from_frame(frame: pd.DataFrame, users, *, n_items: int, user="user", item="item") -> list[np.ndarray]:
    """Per-user item arrays (e.g. relevant items) for ``users``, in that order, from a long frame.

    Users absent from the frame get an empty array; duplicate rows are an error.

    Examples
    --------
    >>> df = pd.DataFrame({"user": [1, 1, 3], "item": [4, 0, 2]})
    >>> [a.tolist() for a in item_sets_from_frame(df, [3, 1, 2], n_items=5)]
    [[2], [0, 4], []]
    """
    _require_columns(frame, [user, item])
    u, i = _int_column(frame, user), _int_column(frame, item)
    check_item_range(i, check_positive_int(n_items, "n_items"), f"column {item!r}")
    pairs = pd.DataFrame({"u": u, "i": i})
    if pairs.duplicated().any():
        first = pairs[pairs.duplicated()].iloc[0]
        raise ValueError(f"frame lists item {int(first.i)} for user {int(first.u)} more than once.")
    groups = {key: np.sort(g.to_numpy()) for key, g in pairs.groupby("u")["i"]}
    return [groups.get(int(x), np.zeros(0, dtype=np.int64)) for x in np.asarray(users)]


def relevance_from_frame(frame: pd.DataFrame, users, *, n_items: int, value: str, user="user", item="item"):
    """Graded relevance ``(len(users), n_items)`` as a sparse matrix, from a long frame with a grade column.

    Row ``j`` holds the grades of ``users[j]`` (0 where the frame has no row, i.e. not relevant);
    pass it as ``relevance=`` to the measures that accept grades. Grades must be finite and
    non-negative (rescale ratings first, e.g. to ``[0, 1]`` for HD, which reads grades as click
    probabilities); duplicate (user, item) rows are an error.

    Examples
    --------
    >>> df = pd.DataFrame({"user": [1, 1, 3], "item": [4, 0, 2], "grade": [0.5, 1.0, 0.8]})
    >>> relevance_from_frame(df, [3, 1], n_items=5, value="grade").toarray()
    array([[0. , 0. , 0.8, 0. , 0. ],
           [1. , 0. , 0. , 0. , 0.5]])
    """
    import scipy.sparse as sp

    _require_columns(frame, [user, item, value])
    u, i = _int_column(frame, user), _int_column(frame, item)
    n_items = check_positive_int(n_items, "n_items")
    check_item_range(i, n_items, f"column {item!r}")
    grades = pd.to_numeric(frame[value], errors="coerce").to_numpy(dtype=np.float64)
    if not np.all(np.isfinite(grades)):
        raise ValueError(f"column {value!r} must hold finite numbers.")
    if (grades < 0).any():
        raise ValueError(f"column {value!r} must be non-negative (0 = not relevant).")
    pairs = pd.DataFrame({"u": u, "i": i})
    if pairs.duplicated().any():
        first = pairs[pairs.duplicated()].iloc[0]
        raise ValueError(f"frame lists item {int(first.i)} for user {int(first.u)} more than once.")
    users = np.asarray(users)
    row_of = pd.Series(np.arange(users.size), index=pd.Index(users))
    if row_of.index.duplicated().any():
        raise ValueError("users lists a user more than once.")
    rows = row_of.reindex(u).to_numpy()
    keep = ~np.isnan(rows)
    matrix = sp.csr_matrix((grades[keep], (rows[keep].astype(np.int64), i[keep])), shape=(users.size, n_items))
    matrix.eliminate_zeros()
    matrix.sort_indices()
    return matrix


def markdown_table(frame: pd.DataFrame) -> str:
    """A DataFrame as a Markdown table (index first), for pages where long text should wrap.

    A ``|`` inside a cell is escaped so it cannot split the row.

    Examples
    --------
    >>> print(markdown_table(pd.DataFrame({"x": [1, 2]}, index=pd.Index(["a", "b"], name="k"))))
    | k | x |
    |---|---|
    | a | 1 |
    | b | 2 |
    """
    if not isinstance(frame, pd.DataFrame):
        raise TypeError(f"frame must be a pandas DataFrame, got {type(frame).__name__}.")

    def cell(value) -> str:
        return str(value).replace("|", r"\|").replace("\n", " ")

    head = [frame.index.name or ""] + [cell(c) for c in frame.columns]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for index, row in frame.iterrows():
        lines.append("| " + " | ".join([cell(index)] + [cell(v) for v in row]) + " |")
    return "\n".join(lines)
