r"""Exhaustive search for the exact extremes of the Paper 1 measures at tiny ``(m, n, k)``.

The tests and the book use it to confirm the closed forms of :mod:`recfair.item_exposure.bounds`
and to locate the thesis's two slips (the FSat minimum and Gini-w's fairest value for
``km > n``). :func:`recfair.bounds.exhaustive` dispatches here for the Part I names.

>>> exhaustive("Jain_ori", 2, 3, 1)
Extremes(low=0.3333333333333333, high=0.6666666666666666)
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._validation import check_positive_int
from ..examination import check_gamma
from ..examination import dcg as _dcg_weights
from ..spec import Extremes
from . import measures as _ie
from .bounds import _CORRECTED, _ORIGINAL, _check_params, _empty_range_reason, _mnk, random_rbp_exposure

__all__ = ["count_configurations", "exhaustive"]


# --------------------------------------------------------------------------- exhaustive search

_RANKED = {"Gini-w_ori", "II-D", "AI-D"}
_MULTI_ROUND = {"Gini_ori", "Gini-w_ori", "II-D", "AI-D"}


def count_configurations(measure: str, m: int, n: int, k: int, *, rounds: int = 1) -> int:
    """How many recommendations :func:`exhaustive` would enumerate for ``measure`` at (m, n, k).

    Users are exchangeable, so a recommendation is a multiset of ``m`` user profiles; a
    profile is a multiset of ``rounds`` lists; a list is a ``k``-subset of the ``n`` items
    (set-based measures) or a ``k``-permutation (rank-sensitive: Gini-w, II-D, AI-D).

    >>> count_configurations("Gini-w_ori", 2, 3, 3)   # 6 permutations, multisets of 2
    21
    """
    base = _CORRECTED.get(measure, measure)
    if base not in _ORIGINAL:
        raise ValueError(f"exhaustive search knows {', '.join(_ORIGINAL + tuple(_CORRECTED))}; got {measure!r}.")
    m, n, k = _mnk(m, n, k)
    rounds = check_positive_int(rounds, "rounds")
    if rounds > 1 and base not in _MULTI_ROUND:
        raise ValueError(f"{measure} is a single-round measure; rounds must be 1, got {rounds}.")
    lists = math.perm(n, k) if base in _RANKED else math.comb(n, k)
    profiles = math.comb(lists + rounds - 1, rounds)
    return math.comb(profiles + m - 1, m)


def exhaustive(measure: str, m: int, n: int, k: int, *, rounds: int = 1, max_configurations: int = 2_000_000,
               relevant=None, **params) -> Extremes:
    """Exact smallest and largest value of ``measure`` over every top-k recommendation.

    Enumerates multisets (users are exchangeable) of user profiles, each a multiset of
    ``rounds`` lists (see :func:`count_configurations`), and evaluates the measure with the
    same kernels as :mod:`recfair.item_exposure.measures`. Recommendations where the measure is
    undefined (e.g. the original entropy with an unshown item, VoCD with one shown item)
    are skipped.

    Parameters
    ----------
    measure : str
        An original name (``"Jain_ori"``, ``"QF_ori"``, ``"Ent_ori"``, ``"Ent_def"``,
        ``"Gini_ori"``, ``"Gini-w_ori"``, ``"FSat_ori"``, ``"VoCD"``, ``"II-D"``, ``"AI-D"``)
        or a corrected one (``"Jain_our"``, ...; rescaled with the closed forms).
    m, n, k : int
        Users, catalogue size, list length.
    rounds : int, default=1
        Recommendation rounds ``W`` (Gini, Gini-w, II-D and AI-D only).
    max_configurations : int, default=2_000_000
        Refuse (``ValueError`` stating the count) when there are more recommendations.
    relevant : None
        Part I measures take no relevance; passing it is an error.
    **params
        ``log_base`` (entropy), ``beta`` (VoCD; all shown items are similar, ``alpha = 2``),
        ``gamma`` (II-D, AI-D, and the joint measures that take it).

    Returns
    -------
    Extremes
        ``Extremes(low, high)``; both NaN if the measure is undefined for every recommendation.

    Examples
    --------
    >>> lo, hi = exhaustive("Gini-w_ori", 2, 3, 3)          # thesis C4 example
    >>> round(lo, 7), round(hi, 7)
    (0.0372514, 0.1564262)
    >>> exhaustive("FSat_ori", 6, 3, 2)                      # below the thesis's k/n = 2/3
    Extremes(low=0.3333333333333333, high=1.0)
    >>> lo, hi = exhaustive("II-D", 2, 3, 2, rounds=2)       # thesis C3/C4 example
    >>> round(lo, 6), round(hi, 6)
    (0.02, 0.186667)
    """
    if relevant is not None:
        raise ValueError(f"relevant= is only for the relevance-aware measures, not {measure!r}.")
    total = count_configurations(measure, m, n, k, rounds=rounds)
    if total > max_configurations:
        raise ValueError(f"exhaustive search over {total:,} recommendations for {measure} at (m={m}, n={n}, k={k}, "
                         f"rounds={rounds}) exceeds max_configurations={max_configurations:,}.")
    base = _CORRECTED.get(measure, measure)
    _check_params(base, params)
    corrected = measure in _CORRECTED
    if measure == "Ent_our":
        params = {"log_base": math.e}       # the correction works in natural log (it is base-invariant)
    slots_users = m * rounds            # users x rounds: the effective number of lists
    if corrected and _empty_range_reason(measure, slots_users, n, k) is not None:
        raise ValueError(f"{measure} is undefined at (m={m}, n={n}, k={k}, rounds={rounds}): "
                         f"{_empty_range_reason(measure, slots_users, n, k)}.")

    ranked = base in _RANKED
    lists = np.array(list((itertools.permutations if ranked else itertools.combinations)(range(n), k)),
                     dtype=np.int64).reshape(-1, k)
    if base == "Gini-w_ori":
        pos_w = _dcg_weights(np.arange(1, k + 1))
    elif base in ("II-D", "AI-D"):
        gamma = check_gamma(params.get("gamma", 0.8))
        pos_w = gamma ** np.arange(k, dtype=np.float64)
    else:
        pos_w = np.ones(k)
    per_list = np.zeros((lists.shape[0], n))
    np.put_along_axis(per_list, lists, np.broadcast_to(pos_w, lists.shape), axis=1)
    prof_idx = np.array(list(itertools.combinations_with_replacement(range(lists.shape[0]), rounds)),
                        dtype=np.int64).reshape(-1, rounds)
    per_profile = per_list[prof_idx].sum(axis=1)          # (profiles, n): summed over rounds
    if base in ("II-D", "AI-D"):
        e_rand = random_rbp_exposure(n, k, gamma=gamma)
        per_profile = per_profile / rounds                 # E_{u,i}: mean over rounds
        profile_dev = ((per_profile - e_rand) ** 2).sum(axis=1)

    lo, hi = math.inf, -math.inf
    configs = itertools.combinations_with_replacement(range(per_profile.shape[0]), m)
    chunk = max(1, 200_000 // max(m * n, 1))
    while True:
        block = np.fromiter(itertools.chain.from_iterable(itertools.islice(configs, chunk)), dtype=np.int64)
        if block.size == 0:
            break
        block = block.reshape(-1, m)
        if base == "II-D":
            values = profile_dev[block].sum(axis=1) / (m * n)
        elif base == "AI-D":
            values = ((per_profile[block].sum(axis=1) / m - e_rand) ** 2).mean(axis=1)
        else:
            totals = per_profile[block].sum(axis=1)        # (B, n) counts or exposures
            values = _ie._batch_measure(base, totals, m=slots_users, n=n, k=k, params=params)
        if corrected:
            values = _ie._rescale(measure, values, slots_users, n, k)
        values = values[~np.isnan(values)]
        if values.size:
            lo, hi = min(lo, float(values.min())), max(hi, float(values.max()))
    if lo == math.inf:
        return Extremes(math.nan, math.nan)
    return Extremes(lo, hi)
