r"""Inequality kernels shared by Parts I, IV and V: the Gini index and the sum of pairwise gaps.

One home for the Gini formula. With :math:`x_{(1)} \le \dots \le x_{(n)}` sorted ascending,

.. math::

    \mathrm{Gini}(x) = \frac{\sum_{j=1}^{n} (2j - n - 1)\, x_{(j)}}{n \sum_{j=1}^{n} x_j}
    = \frac{\sum_{j<l} \lvert x_j - x_l \rvert}{n \sum_j x_j},

the form used for item exposure (Part I, :func:`recfair.gini_index`), user effectiveness
(Part IV, :func:`recfair.gini_ind`) and group means (Part V, :func:`recfair.gini_group`,
:func:`recfair.gini_within`). The numerator is :func:`pair_gap_sum`, the sum of
:math:`|x_j - x_l|` over the unordered pairs, computed in :math:`O(n \log n)` from the sorted values.

These kernels take validated arrays and do not apply an undefined-value policy: the measures do.
"""

from __future__ import annotations

import numpy as np

__all__ = ["gini", "gini_from_rank_sum", "gini_segments", "pair_gap_sum"]


def gini_from_rank_sum(rank_sum, total, n: int):
    r"""Gini from :math:`\sum_j j\,x_{(j)}` (ascending order) and :math:`\sum_j x_j` of ``n`` values.

    :math:`\mathrm{Gini} = \bigl(2\sum_j j\,x_{(j)} - (n + 1)\sum_j x_j\bigr) / (n \sum_j x_j)`;
    vectorised over any leading shape (e.g. one value per recommendation state).

    Parameters
    ----------
    rank_sum : float or array-like
        :math:`\sum_{j=1}^n j\,x_{(j)}` with the values sorted ascending.
    total : float or array-like
        :math:`\sum_j x_j` (positive; 0 gives NaN or inf, which the caller handles).
    n : int
        The number of values.

    Returns
    -------
    numpy.ndarray or float

    Examples
    --------
    >>> float(gini_from_rank_sum(1 * 0 + 2 * 0 + 3 * 3, 3, 3))
    0.6666666666666666
    """
    total = np.asarray(total, dtype=np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return (2.0 * np.asarray(rank_sum, dtype=np.float64) - (n + 1.0) * total) / (n * total)


def gini(values, *, axis: int = -1):
    r"""The Gini index of non-negative values along ``axis`` (NaN where they sum to 0).

    .. math:: \mathrm{Gini}(x) = \frac{\sum_{j=1}^{n} (2j - n - 1)\, x_{(j)}}{n \sum_j x_j}

    Range: :math:`[0, (n-1)/n]`; 0 when all values are equal.

    Parameters
    ----------
    values : array-like of float
        Non-negative values (not checked here).
    axis : int, default=-1
        The axis holding the ``n`` values.

    Returns
    -------
    float or numpy.ndarray

    Examples
    --------
    >>> gini([0.5, 0.5, 0.5, 0.0])
    0.25
    >>> gini([[1, 1], [0, 2]]).tolist()
    [0.0, 0.5]
    """
    x = np.sort(np.moveaxis(np.asarray(values, dtype=np.float64), axis, -1), axis=-1)
    n = x.shape[-1]
    out = gini_from_rank_sum(x @ np.arange(1.0, n + 1.0), x.sum(axis=-1), n)
    return float(out) if np.ndim(out) == 0 else out


def pair_gap_sum(values) -> float:
    r""":math:`\sum_{j<l} |x_j - x_l|` over the unordered pairs, in :math:`O(n \log n)`.

    From the sorted values: :math:`\sum_{j=1}^{n} (2j - n - 1)\, x_{(j)}`.

    Parameters
    ----------
    values : array-like of float, shape (n,)

    Returns
    -------
    float

    Examples
    --------
    >>> pair_gap_sum([0.0, 1.0, 0.5])
    2.0
    """
    x = np.sort(np.asarray(values, dtype=np.float64))
    n = x.size
    return float(((2.0 * np.arange(1, n + 1) - n - 1.0) * x).sum())


def gini_segments(sorted_values, starts, sizes) -> np.ndarray:
    r"""The Gini index of each contiguous segment of ``sorted_values`` (each segment sorted ascending).

    Segment :math:`j` holds ``sizes[j]`` values from ``starts[j]``; its Gini is
    :func:`gini` of those values, all segments in one pass. A segment summing to 0 gives NaN.

    Parameters
    ----------
    sorted_values : array-like of float, shape (n,)
        Non-negative values, ascending within each segment.
    starts : array-like of int, shape (n_segments,)
        The first index of each segment (increasing, ``starts[0] == 0``, no empty segment).
    sizes : array-like of int, shape (n_segments,)
        The length of each segment.

    Returns
    -------
    numpy.ndarray of float, shape (n_segments,)

    Examples
    --------
    >>> gini_segments([0.0, 2.0, 1.0, 1.0, 1.0], [0, 2], [2, 3]).tolist()
    [0.5, 0.0]
    """
    x = np.asarray(sorted_values, dtype=np.float64)
    starts = np.asarray(starts, dtype=np.int64)
    sizes_int = np.asarray(sizes, dtype=np.int64)
    rank = np.arange(x.size) - np.repeat(starts, sizes_int) + 1.0
    rank_sum = np.add.reduceat(rank * x, starts)
    total = np.add.reduceat(x, starts)
    return gini_from_rank_sum(rank_sum, total, sizes_int.astype(np.float64))
