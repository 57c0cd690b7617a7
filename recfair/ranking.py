"""From scores to rankings: the one place where ties and history are decided.

The contract: a full ranking is the **stable** descending sort of a user's scores, so ties go
to the lower item index; items in the user's history (train/validation items) get score
``-inf`` and sink to the bottom, in index order.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from ._validation import check_positive_int, check_scores

__all__ = ["mask_history", "full_ranking", "top_k_from_scores"]


def mask_history(scores: np.ndarray, history: sp.csr_matrix | None, *, copy: bool = True) -> np.ndarray:
    """Return ``scores`` with every history item of each user set to ``-inf``.

    Examples
    --------
    >>> import numpy as np
    >>> import scipy.sparse as sp
    >>> mask_history(np.array([[0.5, 0.9, 0.1]]), sp.csr_matrix([[0, 1, 0]])).tolist()
    [[0.5, -inf, 0.1]]
    """
    if history is None or not history.nnz:
        return np.asarray(scores, dtype=np.float64)
    out = np.array(scores, dtype=np.float64, copy=copy)
    h = history.tocoo()
    out[h.row, h.col] = -np.inf
    return out


def full_ranking(scores, history=None) -> np.ndarray:
    """Full ranking ``(n_users, n_items)``: stable descending sort, history last.

    >>> full_ranking([[0.1, 0.5, 0.5, 0.2]])
    array([[1, 2, 3, 0]])
    >>> import scipy.sparse as sp
    >>> full_ranking([[0.1, 0.5, 0.5, 0.2]], history=sp.csr_matrix([[0, 1, 0, 0]]))
    array([[2, 3, 0, 1]])
    """
    arr = check_scores(scores, n_users=None, n_items=None)
    arr = mask_history(arr, _history_matrix(history, arr.shape))
    # negating maps -inf to +inf, so excluded items sort last; "stable" keeps ties in index order
    return np.argsort(-arr, axis=1, kind="stable")


def top_k_from_scores(scores, *, k: int, history=None) -> np.ndarray:
    """The first ``k`` columns of :func:`full_ranking`, computed in O(n) per user.

    >>> top_k_from_scores([[0.0, 0.0, 1.0, 0.0], [3.0, 2.0, 2.0, 2.0]], k=2)
    array([[2, 0],
           [0, 1]])
    """
    arr = check_scores(scores, n_users=None, n_items=None)
    m, n = arr.shape
    k = check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n_items={n}.")
    arr = mask_history(arr, _history_matrix(history, arr.shape))
    if m == 0:
        return np.zeros((0, k), dtype=np.int64)
    if k == n:
        return np.argsort(-arr, axis=1, kind="stable")
    # threshold = k-th largest score per user; take everything above it, then fill with the
    # lowest-indexed items equal to it, exactly as the stable full sort would
    kth = _kth_largest(arr, k)
    above = arr > kth[:, None]
    at = arr == kth[:, None]
    need = k - above.sum(axis=1)
    take = above | at
    tied = np.flatnonzero(at.sum(axis=1) > need)
    if tied.size:  # more items tie at the threshold than fit: keep the lowest-indexed ones
        take[tied] = above[tied] | (at[tied] & (np.cumsum(at[tied], axis=1) <= need[tied, None]))
    rows, cols = np.nonzero(take)
    cand = cols.reshape(m, k)
    order = np.argsort(-arr[rows, cols].reshape(m, k), axis=1, kind="stable")
    return np.take_along_axis(cand, order, axis=1).astype(np.int64)


def _kth_largest(arr: np.ndarray, k: int) -> np.ndarray:
    """The k-th largest value of each row."""
    n = arr.shape[1]
    out = np.empty(arr.shape[0])
    # row by row: numpy's 1-D partition is about ten times faster than partition(axis=1)
    for u, row in enumerate(arr):
        out[u] = np.partition(row, n - k)[n - k]
    return out


def _history_matrix(history, shape) -> sp.csr_matrix | None:
    if history is None:
        return None
    from ._validation import check_item_sets

    return check_item_sets(history, n_users=shape[0], n_items=shape[1], name="history")
