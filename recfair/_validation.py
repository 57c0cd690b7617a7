"""Input checks shared by every measure, and the one policy for undefined values.

Every check raises ``ValueError`` or ``TypeError`` naming the parameter, the rule and the
offending value. Nothing here uses ``assert``.
"""

from __future__ import annotations

import functools
import numbers
import warnings
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp

ON_UNDEFINED = ("warn", "nan", "raise")


class UndefinedMeasureWarning(RuntimeWarning):
    """A measure has no value for this input (e.g. 0/0); NaN was returned."""


class UndefinedMeasureError(ValueError):
    """A measure has no value for this input and ``on_undefined="raise"`` was asked for."""


def check_on_undefined(on_undefined) -> str:
    if on_undefined not in ON_UNDEFINED:
        raise ValueError(f"on_undefined must be one of {ON_UNDEFINED}, got {on_undefined!r}.")
    return on_undefined


def undefined(measure: str, reason: str, on_undefined: str) -> float:
    """Apply the undefined-value policy: return NaN (warning or not) or raise."""
    check_on_undefined(on_undefined)
    message = f"{measure} is undefined: {reason}."
    if on_undefined == "raise":
        raise UndefinedMeasureError(message)
    if on_undefined == "warn":
        warnings.warn(message + " Returning NaN.", UndefinedMeasureWarning, stacklevel=_caller_level())
    return float("nan")


def _caller_level() -> int:
    """Stack level of the first frame outside recfair, so a warning points at the user's line."""
    import os
    import sys

    package = os.path.dirname(os.path.abspath(__file__))
    frame, level = sys._getframe(1), 1
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package + os.sep):
        frame, level = frame.f_back, level + 1
    return level


def check_positive_int(value, name: str, *, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {type(value).__name__} {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return int(value)


def _as_int_matrix(values, name: str) -> np.ndarray:
    if isinstance(values, np.ndarray):
        arr = values
    else:
        try:
            arr = np.asarray(values)
        except ValueError as exc:  # numpy refuses inhomogeneous nested sequences
            raise ValueError(f"{name} must be rectangular (every row the same length): {exc}") from None
        if arr.dtype == object:
            raise ValueError(f"{name} must be rectangular (every row the same length); got ragged rows.")
    if arr.ndim != 2:
        raise ValueError(f"{name} must be 2-D (n_users, k), got an array with shape {arr.shape}.")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        if np.issubdtype(arr.dtype, np.floating) and np.all(np.isfinite(arr)) and np.all(arr == np.round(arr)):
            arr = arr.astype(np.int64)
        else:
            raise TypeError(f"{name} must hold integer item indices, got dtype {arr.dtype}.")
    return arr.astype(np.int64, copy=False)


def check_item_range(arr: np.ndarray, n_items: int, name: str) -> None:
    if arr.size == 0:
        return
    lo, hi = int(arr.min()), int(arr.max())
    if lo < 0 or hi >= n_items:
        raise ValueError(
            f"{name} holds item indices outside [0, n_items={n_items}): min={lo}, max={hi}."
        )


def check_top_k(top_k, *, n_items: int, k: int | None = None, name: str = "top_k") -> np.ndarray:
    """Return ``top_k`` as an ``(n_users, k)`` int64 array, cut to ``k`` columns.

    Rows must be distinct item indices in ``[0, n_items)``; ``k`` defaults to the width.
    """
    n_items = check_positive_int(n_items, "n_items")
    arr = _as_int_matrix(top_k, name)
    width = arr.shape[1]
    if k is None:
        k = width
    k = check_positive_int(k, "k")
    if k > n_items:
        raise ValueError(f"k={k} exceeds n_items={n_items}: a top-k list cannot hold more items than exist.")
    if k > width:
        raise ValueError(f"k={k} but {name} has only {width} columns per user.")
    arr = np.ascontiguousarray(arr[:, :k])
    check_item_range(arr, n_items, name)
    if k > 1 and arr.size:
        srt = np.sort(arr, axis=1)
        dup_rows = np.flatnonzero((srt[:, 1:] == srt[:, :-1]).any(axis=1))
        if dup_rows.size:
            u = int(dup_rows[0])
            raise ValueError(
                f"{name} has a repeated item in a user's list: user {u} has {arr[u].tolist()} "
                f"({dup_rows.size} user(s) affected)."
            )
    return arr


def _per_user_to_csr(lists, n_users: int, n_items: int, name: str) -> sp.csr_matrix:
    if isinstance(lists, (str, bytes)) or not isinstance(lists, (Sequence, np.ndarray)):
        raise TypeError(
            f"{name} must be a sequence of per-user item-index sequences or a scipy.sparse matrix, "
            f"got {type(lists).__name__}."
        )
    if len(lists) != n_users:
        raise ValueError(f"{name} has {len(lists)} users but top_k has {n_users}.")
    indptr = np.zeros(n_users + 1, dtype=np.int64)
    chunks = []
    for u, items in enumerate(lists):
        row = np.asarray(items if items is not None else [], dtype=object if items is None else None).ravel()
        if row.size and not np.issubdtype(row.dtype, np.integer):
            if np.issubdtype(row.dtype, np.floating) and np.all(row == np.round(row)):
                row = row.astype(np.int64)
            else:
                raise TypeError(f"{name}[{u}] must hold integer item indices, got {row.tolist()[:5]}.")
        row = row.astype(np.int64)
        if row.size:
            if row.min() < 0 or row.max() >= n_items:
                raise ValueError(
                    f"{name}[{u}] holds item indices outside [0, n_items={n_items}): "
                    f"min={int(row.min())}, max={int(row.max())}."
                )
            srt = np.sort(row)
            if np.any(srt[1:] == srt[:-1]):
                raise ValueError(f"{name}[{u}] lists an item more than once: {row.tolist()}.")
            row = srt
        chunks.append(row)
        indptr[u + 1] = indptr[u] + row.size
    indices = np.concatenate(chunks) if chunks else np.zeros(0, dtype=np.int64)
    data = np.ones(indices.size, dtype=bool)
    return sp.csr_matrix((data, indices, indptr), shape=(n_users, n_items))


def check_item_sets(lists, *, n_users: int, n_items: int, name: str) -> sp.csr_matrix:
    """Per-user item sets (sequences or a sparse 0/1 matrix) as a boolean CSR ``(n_users, n_items)``."""
    if sp.issparse(lists):
        mat = sp.csr_matrix(lists)
        if mat.shape != (n_users, n_items):
            raise ValueError(f"{name} has shape {mat.shape}; expected (n_users, n_items) = ({n_users}, {n_items}).")
        mat.eliminate_zeros()
        if mat.nnz and not np.all(mat.data == 1):
            bad = mat.data[mat.data != 1][:5]
            raise ValueError(f"{name} must be a 0/1 matrix; found values {bad.tolist()}.")
        mat = mat.astype(bool)
        mat.sort_indices()
        return mat
    if isinstance(lists, np.ndarray) and lists.ndim == 2 and lists.dtype != object and lists.shape == (n_users, n_items) \
            and lists.dtype == bool:
        return sp.csr_matrix(lists)
    return _per_user_to_csr(lists, n_users, n_items, name)


def check_relevance(values, *, n_users: int, n_items: int, name: str = "relevance") -> sp.csr_matrix:
    """Graded relevance ``r_{u,i} >= 0`` (dense or sparse ``(n_users, n_items)``) as a float CSR.

    Zeros mean "not relevant" and are not stored; indices are sorted within each row.
    """
    if sp.issparse(values):
        mat = sp.csr_matrix(values, dtype=np.float64, copy=True)
    else:
        arr = np.asarray(values)
        if arr.dtype == object or not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)
                                       or arr.dtype == bool):
            raise TypeError(f"{name} must be a numeric (n_users, n_items) array or a scipy.sparse matrix, "
                            f"got dtype {arr.dtype}.")
        if arr.ndim != 2:
            raise ValueError(f"{name} must be 2-D (n_users, n_items), got shape {arr.shape}.")
        mat = sp.csr_matrix(arr.astype(np.float64))
    if mat.shape != (n_users, n_items):
        raise ValueError(f"{name} has shape {mat.shape}; expected (n_users, n_items) = ({n_users}, {n_items}).")
    if mat.nnz and not np.all(np.isfinite(mat.data)):
        raise ValueError(f"{name} contains NaN or infinite values.")
    if mat.nnz and (mat.data < 0).any():
        bad = mat.data[mat.data < 0][:5]
        raise ValueError(f"{name} must be non-negative (0 = not relevant); found {bad.tolist()}.")
    mat.sum_duplicates()
    mat.eliminate_zeros()
    mat.sort_indices()
    return mat


def check_scores(scores, *, n_users: int | None, n_items: int | None) -> np.ndarray:
    arr = np.asarray(scores)
    if arr.ndim != 2:
        raise ValueError(f"scores must be 2-D (n_users, n_items), got shape {arr.shape}.")
    if not (np.issubdtype(arr.dtype, np.floating) or np.issubdtype(arr.dtype, np.integer)):
        raise TypeError(f"scores must be numeric, got dtype {arr.dtype}.")
    arr = arr.astype(np.float64, copy=False)
    if n_users is not None and arr.shape[0] != n_users:
        raise ValueError(f"scores has {arr.shape[0]} users but top_k has {n_users}.")
    if n_items is not None and arr.shape[1] != n_items:
        raise ValueError(f"scores has {arr.shape[1]} items but n_items={n_items}.")
    # one pass: the maximum is NaN if any entry is, and +inf if any entry is
    largest = arr.max() if arr.size else 0.0
    if np.isnan(largest):
        u, i = np.argwhere(np.isnan(arr))[0]
        raise ValueError(f"scores contains NaN (first at user {u}, item {i}); use -inf to exclude an item.")
    if np.isposinf(largest):
        u, i = np.argwhere(np.isposinf(arr))[0]
        raise ValueError(f"scores contains +inf (user {u}, item {i}); scores must be finite or -inf.")
    return arr


def check_full_ranking(ranking, *, n_users: int | None, n_items: int) -> np.ndarray:
    arr = _as_int_matrix(ranking, "ranking")
    if n_users is not None and arr.shape[0] != n_users:
        raise ValueError(f"ranking has {arr.shape[0]} users but top_k has {n_users}.")
    if arr.shape[1] != n_items:
        raise ValueError(f"ranking must rank all n_items={n_items} items per user, got {arr.shape[1]} columns.")
    check_item_range(arr, n_items, "ranking")
    srt = np.sort(arr, axis=1)
    bad = np.flatnonzero((srt != np.arange(n_items)).any(axis=1))
    if bad.size:
        raise ValueError(f"ranking row {int(bad[0])} is not a permutation of 0..{n_items - 1}.")
    return np.ascontiguousarray(arr)


def check_seed(seed, name: str = "seed") -> np.random.Generator:
    """A :class:`numpy.random.Generator` from ``seed``: an int (>= 0), a Generator (used as is) or None.

    The one way recfair takes randomness: every function with randomness has a ``seed``
    parameter accepting these three.

    >>> bool(check_seed(3).integers(10) == check_seed(3).integers(10))
    True
    >>> g = np.random.default_rng(0); check_seed(g) is g
    True
    """
    if isinstance(seed, np.random.Generator):
        return seed
    if seed is None:
        return np.random.default_rng()
    if isinstance(seed, bool) or not isinstance(seed, (numbers.Integral, np.integer)):
        raise TypeError(f"{name} must be an int, a numpy.random.Generator or None, got {type(seed).__name__}.")
    if seed < 0:
        raise ValueError(f"{name} must be a non-negative int, got {seed}.")
    return np.random.default_rng(int(seed))


# --------------------------------------------------------------------------- measure parameters

#: Corrected scores within this distance of 0 or 1 are snapped to exactly 0 or 1 (never clipped).
SNAP = 1e-12


def snap(values):
    """Round noise within :data:`SNAP` of 0 or 1 to exactly 0 or 1; never clip (NaN stays NaN).

    >>> snap([1e-15, 0.5, 1 - 1e-14, -0.2]).tolist()
    [0.0, 0.5, 1.0, -0.2]
    """
    v = np.asarray(values, dtype=np.float64)
    v = np.where(np.abs(v) <= SNAP, 0.0, v)
    v = np.where(np.abs(v - 1.0) <= SNAP, 1.0, v)
    return v + 0.0                                   # turns -0.0 into 0.0


def check_real(value, name: str, *, low: float | None = None, high: float | None = None,
               strict: bool = False) -> float:
    """``value`` as a finite float, optionally within ``[low, high]`` (open at ``low`` when ``strict``).

    A boolean or a non-number is a ``TypeError``; NaN, infinity or a value out of range a
    ``ValueError``, each naming ``name``.

    >>> check_real(2, "alpha")
    2.0
    >>> check_real(0.5, "rate", low=0.0, strict=True)
    0.5
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a finite real number, got {type(value).__name__} {value!r}.")
    if not np.isfinite(value):
        raise ValueError(f"{name} must be a finite real number, got {value!r}.")
    value = float(value)
    if low is not None and (value < low or (strict and value == low)):
        raise ValueError(f"{name} must be {'>' if strict else '>='} {low}, got {value}.")
    if high is not None and value > high:
        raise ValueError(f"{name} must be <= {high}, got {value}.")
    return value


def check_alpha(alpha) -> float:
    """VoCD's similarity threshold: a cosine distance, so in ``[0, 2]``.

    >>> check_alpha(0.5)
    0.5
    """
    alpha = check_real(alpha, "alpha")
    if not 0.0 <= alpha <= 2.0:
        raise ValueError(f"alpha must lie in [0, 2] (cosine distances do), got {alpha}.")
    return alpha


def check_beta(beta) -> float:
    """VoCD's tolerated disparity, in ``[0, 1)``.

    >>> check_beta(0.1)
    0.1
    """
    beta = check_real(beta, "beta")
    if not 0.0 <= beta < 1.0:
        raise ValueError(f"beta must lie in [0, 1), got {beta}.")
    return beta


def check_log_base(log_base):
    """A logarithm base ``> 1``, or None (the measure's default).

    >>> check_log_base(None), check_log_base(2)
    (None, 2.0)
    """
    if log_base is None:
        return None
    log_base = check_real(log_base, "log_base")
    if log_base <= 1.0:
        raise ValueError(f"log_base must be > 1, got {log_base}.")
    return log_base


def ln_of_base(log_base, n: int) -> float:
    """Natural log of an entropy's ``log_base``; ``None`` means base ``n`` (the thesis's choice).

    >>> round(ln_of_base(2, 8), 6)             # ln 2
    0.693147
    """
    if log_base is None:
        if n < 2:
            raise ValueError("log_base defaults to n, which must then be >= 2 (log base 1 is undefined); "
                             "pass an explicit log_base.")
        return float(np.log(n))
    if isinstance(log_base, bool) or not isinstance(log_base, numbers.Real) or not np.isfinite(log_base):
        raise ValueError(f"log_base must be a finite real number > 1, got {log_base!r}.")
    if log_base <= 1:
        raise ValueError(f"log_base must be > 1, got {log_base}.")
    return float(np.log(log_base))


#: Options renamed so that one option name has one meaning across every measure:
#: ``(measure, old name) -> new name``. An old name is a ``TypeError`` when passed to the measure's
#: function and a ``ValueError`` through :func:`recfair.evaluate` (and the CLI); both name the new one.
RENAMED_OPTIONS: dict[tuple[str, str], str] = {
    ("Ent_ori", "base"): "log_base",
    ("Ent_def", "base"): "log_base",
    ("Ent_our", "base"): "log_base",
    ("DPFR", "alpha"): "fairness_weight",
    ("GCE_group", "beta"): "exponent",
    ("PEU", "epsilon"): "envy_tolerance",
    ("UF", "gamma"): "history_weight",
}


def renamed_option_message(measure: str, option: str) -> str | None:
    """The message for an old option name of ``measure`` (:data:`RENAMED_OPTIONS`), or None.

    >>> renamed_option_message("Ent_ori", "base")
    "Ent_ori's option 'base' is now called 'log_base'"
    >>> renamed_option_message("SD_ind", "base") is None
    True
    """
    new = RENAMED_OPTIONS.get((measure, option))
    return None if new is None else f"{measure}'s option {option!r} is now called {new!r}"


def renamed_options(measure: str):
    """Decorate the function of ``measure`` so that an old keyword (:data:`RENAMED_OPTIONS`) is a
    ``TypeError`` naming the new one; the signature (``inspect.signature``) is the function's own.

    >>> @renamed_options("PEU")
    ... def f(*, envy_tolerance=0.05):
    ...     return envy_tolerance
    >>> f(epsilon=0.1)
    Traceback (most recent call last):
    ...
    TypeError: f() got the keyword 'epsilon': PEU's option 'epsilon' is now called 'envy_tolerance'.
    """
    old = {o for (key, o) in RENAMED_OPTIONS if key == measure}
    if not old:
        raise ValueError(f"{measure!r} has no renamed options in RENAMED_OPTIONS.")

    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            stale = sorted(old & set(kwargs))
            if stale:
                raise TypeError(f"{func.__name__}() got the keyword {stale[0]!r}: "
                                f"{renamed_option_message(measure, stale[0])}.")
            return func(*args, **kwargs)
        return wrapper
    return decorate


def check_rounds(rounds, top_k: np.ndarray, n_items: int, name: str = "rounds") -> np.ndarray | None:
    """``rounds`` as a validated ``(W, m, k)`` int array whose round 0 is ``top_k`` (or None).

    >>> check_rounds([[[0, 1]], [[2, 0]]], np.array([[0, 1]]), 3).shape
    (2, 1, 2)
    """
    if rounds is None:
        return None
    arr = rounds if isinstance(rounds, np.ndarray) else np.asarray(rounds)
    if arr.ndim != 3:
        raise ValueError(f"{name} must be 3-D (W, n_users, k), got an array with shape {arr.shape}.")
    if arr.shape[0] < 1:
        raise ValueError(f"{name} must hold at least one round, got shape {arr.shape}.")
    m, k = top_k.shape
    if arr.shape[1] != m:
        raise ValueError(f"{name} has {arr.shape[1]} users per round but top_k has {m}.")
    arr = np.stack([check_top_k(r, n_items=n_items, k=k, name=f"{name}[{w}]") for w, r in enumerate(arr)])
    diff = arr[0] != top_k
    if diff.any():
        u = int(np.flatnonzero(diff.any(axis=1))[0])
        raise ValueError(f"{name}[0] must equal top_k (round 1 is the run's lists); they differ first at user {u}: "
                         f"{arr[0, u].tolist()} vs {top_k[u].tolist()}.")
    return arr


def check_item_features(item_features, n_items: int) -> np.ndarray | None:
    """Item representations as a finite ``(n_items, d)`` float array (or None).

    >>> check_item_features(np.eye(3), 3).shape
    (3, 3)
    """
    if item_features is None:
        return None
    feats = np.asarray(item_features, dtype=np.float64)
    if feats.ndim != 2 or feats.shape[0] != n_items:
        raise ValueError(f"item_features must have shape (n_items={n_items}, d), got {feats.shape}.")
    if not np.all(np.isfinite(feats)):
        raise ValueError("item_features contains NaN or infinite values.")
    return feats


def check_item_groups(item_groups, n_items: int) -> tuple[np.ndarray, tuple] | None:
    """One group label per item as integer codes ``(n_items,)`` and the labels (or None).

    Labels may be numbers or strings; ``None``/NaN marks an item that belongs to no group
    (code ``-1``). Codes follow the sorted labels, so the same labels always get the same codes.

    >>> codes, labels = check_item_groups(["b", "a", None, "b"], 4)
    >>> codes.tolist(), labels
    ([1, 0, -1, 1], ('a', 'b'))
    """
    if item_groups is None:
        return None
    if isinstance(item_groups, (str, bytes)) or sp.issparse(item_groups) or isinstance(item_groups, dict):
        raise TypeError(f"item_groups must be one label per item (a 1-D array-like), got {type(item_groups).__name__}.")
    import pandas as pd

    values = item_groups.to_numpy() if isinstance(item_groups, (pd.Series, pd.Index)) else np.asarray(
        item_groups, dtype=object if not isinstance(item_groups, np.ndarray) else None)
    if values.ndim != 1 or values.shape[0] != n_items:
        raise ValueError(f"item_groups must have one label per item, shape (n_items={n_items},), got {values.shape}.")
    try:
        codes, labels = pd.factorize(pd.Series(values, dtype=object), sort=True)
    except TypeError:
        raise TypeError("item_groups mixes labels that cannot be sorted together (e.g. numbers and strings).") from None
    return codes.astype(np.int64), tuple(labels.tolist())


# --------------------------------------------------------------------------- per-user data

def check_effectiveness(effectiveness, *, allow_nan: bool = True, nonnegative: bool = False, high: float | None = None,
                        min_users: int = 1, measure: str = "", name: str = "effectiveness") -> np.ndarray:
    """One effectiveness value per user (e.g. per-user NDCG@10) as a 1-D float64 array.

    The one validator of per-user values (Parts IV and V). NaN marks a user whose
    effectiveness is undefined (e.g. NDCG without a relevant item): kept when ``allow_nan``
    (the measure then applies its ``on_undefined`` policy, see :func:`undefined_users`),
    refused otherwise. Infinity, a non-numeric input, a 2-D input or too few users are errors;
    ``nonnegative`` and ``high`` bound the defined values.

    >>> check_effectiveness([0.5, float("nan")]).tolist()
    [0.5, nan]
    >>> check_effectiveness([0.5, -1.0], nonnegative=True, measure="Gini_ind")
    Traceback (most recent call last):
    ...
    ValueError: Gini_ind needs non-negative effectiveness: user 1 has -1.0.
    """
    if isinstance(effectiveness, (str, bytes)) or hasattr(effectiveness, "columns"):
        raise TypeError(f"{name} must be a 1-D array of numbers (one per user), got {type(effectiveness).__name__}.")
    if sp.issparse(effectiveness):
        raise TypeError(f"{name} must be a dense 1-D array (one value per user), got a sparse matrix.")
    arr = np.asarray(effectiveness)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"{name} must hold numbers (one effectiveness value per user), got dtype {arr.dtype}.")
    if arr.ndim != 1:
        raise ValueError(f"{name} must be one value per user (a 1-D array); got shape {arr.shape}.")
    if arr.size == 0:
        raise ValueError(f"{name} is empty: give one effectiveness value per user.")
    if arr.size < min_users:
        raise ValueError(f"{measure or 'user fairness'} compares users: {name} needs at least {min_users} users, "
                         f"got {arr.size}.")
    arr = arr.astype(np.float64)
    nan = np.isnan(arr)
    if np.isinf(arr).any():
        u = int(np.flatnonzero(np.isinf(arr))[0])
        raise ValueError(f"{name} must be finite or NaN (undefined): user {u} has {arr[u]}.")
    if not allow_nan and nan.any():
        u = int(np.flatnonzero(nan)[0])
        raise ValueError(f"{name} must be defined for every user: user {u} has NaN ({int(nan.sum())} user(s)).")
    defined = arr[~nan]
    if nonnegative and defined.size and defined.min() < 0:
        u = int(np.flatnonzero(arr < 0)[0])
        raise ValueError(f"{measure or name} needs non-negative effectiveness: user {u} has {arr[u]}.")
    if high is not None and defined.size and defined.max() > high:
        u = int(np.flatnonzero(arr > high)[0])
        raise ValueError(f"{measure or name} needs effectiveness <= {high}: user {u} has {arr[u]} "
                         "(scale the effectiveness to [0, 1]).")
    return arr


def undefined_users(measure: str, effectiveness: np.ndarray, on_undefined: str):
    """The ``on_undefined`` value when some user's effectiveness is NaN, else None (the one NaN-input policy).

    >>> undefined_users("SD_ind", np.array([0.1, 0.2]), "warn") is None
    True
    >>> undefined_users("SD_ind", np.array([0.1, np.nan]), "nan")
    nan
    """
    missing = int(np.isnan(effectiveness).sum())
    if missing:
        return undefined(measure, f"{missing} of {effectiveness.size} users have no defined effectiveness "
                         "(NaN, e.g. no relevant item)", on_undefined)
    return None


def check_similarity(similarity, n_users: int, *, name: str = "similarity", atol: float = 1e-9):
    """Validate a precomputed users x users similarity (dense or sparse): shape, finite, [0, 1], symmetric.

    Returns a float64 ndarray or a CSR matrix.

    >>> check_similarity([[1, 0.5], [0.5, 1]], 2).tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    """
    if isinstance(similarity, (str, bytes)):
        raise TypeError(f"{name} must be a users x users matrix here, got the name {similarity!r} (a name needs "
                        "the users' history).")
    if sp.issparse(similarity):
        mat = sp.csr_matrix(similarity, dtype=np.float64)
        values = mat.data
    else:
        mat = np.asarray(similarity, dtype=np.float64)
        values = mat
    if mat.ndim != 2 or mat.shape != (n_users, n_users):
        raise ValueError(f"{name} must be a users x users matrix of shape ({n_users}, {n_users}); got shape "
                         f"{mat.shape}.")
    if not np.all(np.isfinite(values)):
        raise ValueError(f"{name} has NaN or infinite entries.")
    if values.size and (values.min() < -atol or values.max() > 1 + atol):
        raise ValueError(f"{name} must lie in [0, 1]; found values in [{values.min():g}, {values.max():g}] "
                         "(scale it first, e.g. with recfair.users.minmax_offdiag).")
    asym = abs(mat - mat.T)
    worst = asym.max() if asym.shape[0] else 0.0
    if worst > atol:
        raise ValueError(f"{name} must be symmetric (sim(u, u') = sim(u', u)); the largest difference is {worst:g}.")
    if sp.issparse(mat):
        mat.data = np.clip(mat.data, 0.0, 1.0)
        mat.eliminate_zeros()
        return mat
    return np.clip(mat, 0.0, 1.0)
