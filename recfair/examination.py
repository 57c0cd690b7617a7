r"""Examination functions: how likely a user is to look at the item in slot :math:`p`.

Each function maps 1-based slot positions :math:`p = 1, 2, \dots` to weights and is
vectorised over arrays of positions. They depend on the position only, never on the user
or the item (Paper 1, section Individual Item Fairness Measures, the table of examination
functions; for :func:`inverse` the erratum of Ch. 3).

=========  ====================================  =============================
name       weight at position :math:`p`          used by
=========  ====================================  =============================
uniform    :math:`1`                             Jain, QF, Ent, Gini, FSat, VoCD
dcg        :math:`1 / \log_2(p + 1)`             Gini-w (Do et al.)
rbp        :math:`\gamma^{\,p - 1}`              II-D, AI-D (Wu et al.)
inverse    :math:`1 / p`                         Part II (erratum: :math:`e_{inv}(p) = 1/p`)
=========  ====================================  =============================

>>> from recfair import examination
>>> examination.dcg([1, 2, 3]).round(4).tolist()
[1.0, 0.6309, 0.5]
>>> examination.weights("rbp", 3, gamma=0.5).tolist()
[1.0, 0.5, 0.25]
"""

from __future__ import annotations

import numbers

import numpy as np

from ._validation import check_top_k

__all__ = ["EXAMINATION", "uniform", "dcg", "rbp", "inverse", "weights", "exposure", "check_gamma"]


def _positions(positions) -> np.ndarray:
    arr = np.asarray(positions)
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise TypeError(f"positions must be integers (1-based slot positions), got dtype {arr.dtype}.")
    if arr.size and int(arr.min()) < 1:
        raise ValueError(f"positions are 1-based: every position must be >= 1, got min={int(arr.min())}.")
    return arr.astype(np.float64)


def check_gamma(gamma) -> float:
    """Validate the RBP patience ``gamma``: a real number strictly between 0 and 1.

    Examples
    --------
    >>> check_gamma(0.8)
    0.8
    """
    if isinstance(gamma, bool) or not isinstance(gamma, numbers.Real):
        raise TypeError(f"gamma must be a real number in (0, 1), got {type(gamma).__name__} {gamma!r}.")
    gamma = float(gamma)
    if not 0.0 < gamma < 1.0:
        raise ValueError(f"gamma must lie strictly between 0 and 1, got {gamma}.")
    return gamma


def uniform(positions) -> np.ndarray:
    """Every slot is examined: weight 1 at any position.

    >>> uniform([1, 5]).tolist()
    [1.0, 1.0]
    """
    return np.ones_like(_positions(positions))


def dcg(positions) -> np.ndarray:
    r"""Logarithmic discount :math:`1/\log_2(p+1)` (equivalently :math:`\log_{p+1} 2`).

    >>> dcg([1, 3]).tolist()
    [1.0, 0.5]
    """
    return 1.0 / np.log2(_positions(positions) + 1.0)


def rbp(positions, *, gamma: float = 0.8) -> np.ndarray:
    r"""Rank-biased precision patience :math:`\gamma^{\,p-1}`, with :math:`0 < \gamma < 1`.

    >>> rbp([1, 2, 3], gamma=0.8).round(2).tolist()
    [1.0, 0.8, 0.64]
    """
    gamma = check_gamma(gamma)
    return gamma ** (_positions(positions) - 1.0)


def inverse(positions) -> np.ndarray:
    r"""Inverse position :math:`1/p` (the erratum's :math:`e_{\mathrm{inv}}(p) = 1/p`).

    >>> inverse([1, 2, 4]).tolist()
    [1.0, 0.5, 0.25]
    """
    return 1.0 / _positions(positions)


#: The examination functions by name.
EXAMINATION = {"uniform": uniform, "dcg": dcg, "rbp": rbp, "inverse": inverse}


def weights(name: str, k: int, **params) -> np.ndarray:
    """Weights of positions ``1..k`` under the examination function ``name``.

    ``params`` go to the function (``gamma`` for ``"rbp"``).

    >>> weights("uniform", 2).tolist()
    [1.0, 1.0]
    """
    if name not in EXAMINATION:
        raise ValueError(f"examination must be one of {tuple(EXAMINATION)}, got {name!r}.")
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 0:
        raise ValueError(f"k must be a non-negative integer, got {k!r}.")
    return EXAMINATION[name](np.arange(1, int(k) + 1), **params)


def exposure(top_k, *, n_items: int, examination: str = "uniform", k: int | None = None, **params) -> np.ndarray:
    r"""Exposure of every item over the users' top-k lists: :math:`\mathrm{Exp}_e(i) = \sum_u e(z(u, i))`.

    Each list position adds its examination weight (:func:`weights`) to the item shown there;
    with ``"uniform"`` the exposure is the count :math:`c_i` of lists that show the item.

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, >= k)
        The users' lists in rank order (0-based item indices).
    n_items : int
        Catalogue size :math:`n`; items never shown get 0.
    examination : {"uniform", "dcg", "rbp", "inverse"}, default="uniform"
        The examination function (:data:`EXAMINATION`).
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    **params
        Parameters of the examination function (``gamma`` for ``"rbp"``).

    Returns
    -------
    ndarray of float, shape (n_items,)

    Examples
    --------
    >>> exposure([[2, 0], [2, 1]], n_items=3).tolist()
    [1.0, 1.0, 2.0]
    >>> exposure([[2, 0], [2, 1]], n_items=3, examination="rbp", gamma=0.5).tolist()
    [0.5, 0.5, 2.0]
    """
    lists = check_top_k(top_k, n_items=n_items, k=k)
    w = weights(examination, lists.shape[1], **params)
    return np.bincount(lists.ravel(), weights=np.tile(w, lists.shape[0]), minlength=n_items).astype(np.float64)
