"""Kernels shared by Part VI's measures (private): every measure is context -> partial -> finish.

Each measure of :mod:`recfair.field.measures` is computed in three steps, the computation
shape its registry record declares (:class:`recfair.spec.Computation`):

* ``context(run, **options)``: the whole-run facts a block of users needs (item popularity and
  the head/tail split from every user's history, the item groups, the users' groups);
* ``partial(run, *, weights=None, context, **options)``: sums over the users of one block, one
  non-negative weight per user (``None``: all 1), that add up exactly across blocks (entries whose
  name starts with ``_`` are facts of the run, carried, not added);
* ``finish(state, *, on_undefined, **options)``: the value from the summed state.

The public functions and the records' ``compute`` are ``finish(partial(run, context=context(run)))``.
"""

from __future__ import annotations

import numpy as np

from .._validation import check_real

__all__ = ["user_weights", "per_user_state", "per_user_finish", "kl", "jsd", "group_items", "dcg_weights"]


def user_weights(run, weights) -> np.ndarray:
    """The users' weights as a float array ``(n_users,)`` (None: all 1), checked.

    >>> from recfair.run import Run
    >>> user_weights(Run([[0], [1]], 2), None).tolist()
    [1.0, 1.0]
    """
    if weights is None:
        return np.ones(run.n_users)
    w = np.asarray(weights, dtype=np.float64)
    if w.shape != (run.n_users,) or not np.all(np.isfinite(w)) or (w < 0).any():
        raise ValueError(f"weights must be one finite non-negative weight per user, shape ({run.n_users},).")
    return w


def per_user_state(values: np.ndarray, w: np.ndarray) -> dict:
    """The additive state of a mean over users: weighted sum, weight, weight of undefined (NaN) users.

    >>> per_user_state(np.array([0.5, np.nan, 1.0]), np.ones(3))
    {'total': 1.5, 'weight': 2.0, 'undefined': 1.0}
    """
    nan = np.isnan(values)
    return {"total": float(np.dot(w[~nan], values[~nan])), "weight": float(w[~nan].sum()),
            "undefined": float(w[nan].sum())}


def per_user_finish(key: str, state: dict, on_undefined: str, what: str = "users with an undefined value"):
    """Mean over users from a :func:`per_user_state`; NaN users make the measure undefined.

    >>> per_user_finish("APLT", {"total": 1.5, "weight": 2.0, "undefined": 0.0}, "raise")
    0.75
    """
    from .._validation import undefined

    if state["undefined"]:
        return undefined(key, f"{state['undefined']:g} {what}", on_undefined)
    if state["weight"] == 0:
        return undefined(key, "no user to average over", on_undefined)
    return state["total"] / state["weight"]


def kl(p: np.ndarray, q: np.ndarray, *, epsilon: float = 0.0, base: float | None = None) -> np.ndarray:
    """KL divergence along the last axis, :math:`0 \\log 0 = 0`; ``epsilon`` is added to both sides first.

    >>> round(float(kl([1.0, 0.0], [0.5, 0.5])), 4)
    0.6931
    """
    p, q = np.asarray(p, float) + epsilon, np.asarray(q, float) + epsilon
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = np.where(p > 0, p * np.log(np.where(p > 0, p, 1.0) / q), 0.0)
    out = terms.sum(axis=-1)
    return out / np.log(base) if base is not None else out


def jsd(p: np.ndarray, q: np.ndarray, *, base: float = 2.0) -> np.ndarray:
    """Jensen-Shannon divergence along the last axis in log ``base`` (base 2: within [0, 1]).

    >>> float(jsd([1.0, 0.0], [0.0, 1.0]))
    1.0
    """
    base = check_real(base, "log_base", low=1.0, strict=True)
    mid = (np.asarray(p, float) + np.asarray(q, float)) / 2
    return (kl(p, mid, base=base) + kl(q, mid, base=base)) / 2


def group_items(codes: np.ndarray, n_groups: int) -> np.ndarray:
    """Number of catalogue items in each group ``(n_groups,)`` (code -1: no group).

    >>> group_items(np.array([0, 1, 1, -1]), 2).tolist()
    [1.0, 2.0]
    """
    return np.bincount(codes[codes >= 0], minlength=n_groups).astype(np.float64)


def dcg_weights(k: int) -> np.ndarray:
    """The DCG examination weights :math:`1/\\log_2(j+1)` of positions ``1..k`` (from :mod:`recfair.examination`).

    >>> dcg_weights(3).round(4).tolist()
    [1.0, 0.6309, 0.5]
    """
    from ..examination import weights

    return weights("dcg", k)
