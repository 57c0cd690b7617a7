r"""Achievable ranges of Part VI's measures for given (m, n, k) and inputs, and the exhaustive search.

The thesis's question for every measure: which values can a recommender actually reach with
:math:`m` users, :math:`n` items and lists of length :math:`k`, given what the measure reads
(the popularity, the head and tail sizes, the item groups)? The closed forms here assume users
without history exclusions (every item can be recommended to everyone); :func:`exhaustive`
enumerates every recommendation at tiny sizes, with or without histories, and the tests check
the closed forms against it.

================  ==========================================================================
measure           achievable range (``achievable(m, n, k, **inputs)``)
================  ==========================================================================
ARP               mean popularity of the k least / k most popular items (``popularity=``)
APLT, ACLT        :math:`\max(0, k-|\Phi|)/k` .. :math:`\min(k, |\sim\!\Phi|)/k` (times k for ACLT)
RSP, PopRSP       two groups: a scan over how many of the :math:`mk` slots go to group 1
                  (``group_sizes=(n_1, n_2)``); 0 iff :math:`mk\,n_1/n` is an integer
NDKL              exact search over the group counts of each prefix (``group_sizes=``); its
                  minimum is **never 0** with two or more groups: the first position alone is
                  a single group, :math:`\mathrm{KL}(\delta_g \| p^*) = \ln(1/p^*_g) > 0`
AWRF              exact search over the group sequences of a list (``group_sizes=``); its
                  minimum is 0 only when the target gives a group no share: against the
                  catalogue's shares a list of one group still scores above 0
REO, PopREO,      exact searches of :mod:`recfair.field.bounds_groups` (no closed form: their
ExpRatio, MMF,    ends depend on the relevant items, histories or user groups); each raises
EE-L/D/R, C_KL,   a ValueError naming its size limit rather than guess past it
UGF, UserMAD, BD
ItemMAD           no achievable range (:data:`NO_BOUND`): the gains are the rated values
================  ==========================================================================

Corrected (``_our``) versions. The thesis corrects a measure by min-max normalising it over its
achievable range when the published definition cannot reach its nominal ends. Among Part VI's
measures this applies to NDKL (its achievable minimum is positive whenever there are two groups)
and AWRF (against the catalogue's shares a list cannot score below the one-group value). recfair
ships no ``NDKL_our``/``AWRF_our`` yet, deliberately: their achievable ends computed here assume
that every user may be shown every item, and with history exclusions the ends move per user, so
a normalisation by these closed forms would be exact only for history-free runs. The popularity
measures (APLT, ACLT, ARP) and RSP reach their ends in closed form and need no correction; their
limitation is another one (a uniformly random recommender scores well, see
:mod:`recfair.field.generators`), which no rescaling fixes.

>>> achievable_aplt(10, 100, 10, n_tail=80)
Bounds(most_unfair=0.0, most_fair=1.0)
>>> b = achievable_ndkl(5, 10, 4, group_sizes=(5, 5))
>>> round(b.most_fair, 4) > 0                                   # NDKL cannot reach 0
True
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._validation import check_positive_int
from ..spec import Bounds, Extremes
from . import _core

__all__ = ["achievable_arp", "achievable_aplt", "achievable_aclt", "achievable_rsp", "achievable_ndkl",
           "achievable_awrf", "exhaustive", "ACHIEVABLE", "EXHAUSTIVE", "RANKED", "NO_BOUND"]


def _sizes(m, n, k):
    m, n, k = check_positive_int(m, "m"), check_positive_int(n, "n"), check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n={n}.")
    return m, n, k


def achievable_arp(m, n, k, *, popularity) -> Bounds:
    r"""ARP's ends: every list the :math:`k` most popular items (most biased) or the :math:`k` least popular.

    >>> achievable_arp(3, 4, 2, popularity=[5, 0, 3, 1])
    Bounds(most_unfair=4.0, most_fair=0.5)
    """
    m, n, k = _sizes(m, n, k)
    pop = np.sort(np.asarray(popularity, dtype=np.float64))
    if pop.shape != (n,):
        raise ValueError(f"popularity must hold one value per item ({n}).")
    return Bounds(most_unfair=float(pop[-k:].mean()), most_fair=float(pop[:k].mean()))


def achievable_aplt(m, n, k, *, n_tail) -> Bounds:
    r"""APLT's ends: as few tail items as the head allows, or as many as the tail holds, in every list.

    >>> achievable_aplt(2, 5, 3, n_tail=1)
    Bounds(most_unfair=0.0, most_fair=0.3333333333333333)
    """
    m, n, k = _sizes(m, n, k)
    n_tail = check_positive_int(n_tail, "n_tail", minimum=0)
    if n_tail > n:
        raise ValueError(f"n_tail={n_tail} exceeds n={n}.")
    return Bounds(most_unfair=max(0, k - (n - n_tail)) / k, most_fair=min(k, n_tail) / k)


def achievable_aclt(m, n, k, *, n_tail) -> Bounds:
    """ACLT's ends: ``k`` times APLT's.

    >>> achievable_aclt(2, 5, 3, n_tail=1)
    Bounds(most_unfair=0.0, most_fair=1.0)
    """
    b = achievable_aplt(m, n, k, n_tail=n_tail)
    return Bounds(most_unfair=b.most_unfair * k, most_fair=b.most_fair * k)


def _two(group_sizes, n):
    sizes = [int(s) for s in group_sizes]
    if len(sizes) != 2 or min(sizes) < 1 or sum(sizes) != n:
        raise ValueError(f"group_sizes must be two positive sizes summing to n={n} (the closed form covers two "
                         f"groups; use exhaustive() for more), got {group_sizes!r}.")
    return sizes


def rsp_scan(m, n, k, *, group_sizes):
    """Every achievable (slots of group 1, RSP) pair for two groups and no history (the closed form's scan).

    >>> rsp_scan(1, 4, 2, group_sizes=(2, 2))
    [(0, 1.0), (1, 0.0), (2, 1.0)]
    """
    m, n, k = _sizes(m, n, k)
    n1, n2 = _two(group_sizes, n)
    out = []
    for a in range(m * max(0, k - n2), m * min(k, n1) + 1):      # a user holds between k - n2 and min(k, n1) of G1
        r1, r2 = a / (m * n1), (m * k - a) / (m * n2)
        out.append((a, abs(r1 - r2) / (r1 + r2)))
    return out


def achievable_rsp(m, n, k, *, group_sizes) -> Bounds:
    r"""RSP's (and PopRSP's) ends for two groups of sizes :math:`n_1, n_2` without history.

    With :math:`a` of the :math:`mk` slots in group 1 (from :math:`m\max(0, k-n_2)` to
    :math:`m\min(k, n_1)`), :math:`\mathrm{RSP} = |r_1 - r_2|/(r_1 + r_2)`, :math:`r_1 = a/(mn_1)`,
    :math:`r_2 = (mk-a)/(mn_2)`: parity needs :math:`a = mk\,n_1/n`, an integer; the most unfair
    end is an end of the scan (1 when one group can take every slot).

    >>> achievable_rsp(1, 5, 2, group_sizes=(2, 3))
    Bounds(most_unfair=1.0, most_fair=0.2)
    """
    values = [v for _, v in rsp_scan(m, n, k, group_sizes=group_sizes)]
    return Bounds(most_unfair=max(values), most_fair=min(values))


def _check_groups(group_sizes, n):
    sizes = np.asarray([int(s) for s in group_sizes])
    if sizes.ndim != 1 or sizes.size < 2 or (sizes < 1).any() or sizes.sum() != n:
        raise ValueError(f"group_sizes must be two or more positive sizes summing to n={n}, got {group_sizes!r}.")
    return sizes


def _ndkl_prefix_terms(sizes, k):
    """Min and max over capacity-respecting group sequences of sum_i KL(D_i || p*) / log2(i+1) (dynamic programme)."""
    p_star = sizes / sizes.sum()
    disc = _core.dcg_weights(k)
    states = {tuple([0] * sizes.size): (0.0, 0.0)}
    for i in range(1, k + 1):
        nxt = {}
        for counts, (lo, hi) in states.items():
            for g in range(sizes.size):
                if counts[g] >= sizes[g]:
                    continue
                c = list(counts)
                c[g] += 1
                term = float(_core.kl(np.array(c) / i, p_star)) * disc[i - 1]
                key = tuple(c)
                old = nxt.get(key)
                cand = (lo + term, hi + term)
                nxt[key] = cand if old is None else (min(old[0], cand[0]), max(old[1], cand[1]))
        states = nxt
    lows, highs = zip(*states.values())
    return float(min(lows) / disc.sum()), float(max(highs) / disc.sum())


def achievable_ndkl(m, n, k, *, group_sizes) -> Bounds:
    r"""NDKL's exact ends without history: the best and worst prefix sequences of group counts.

    KL at prefix :math:`i` depends only on the group counts of the first :math:`i` items, so a
    dynamic programme over count vectors is exact; every user takes the same best (worst) list.

    >>> b = achievable_ndkl(2, 4, 2, group_sizes=(2, 2))
    >>> round(b.most_fair, 4), round(b.most_unfair, 4)
    (0.425, 0.6931)
    """
    m, n, k = _sizes(m, n, k)
    low, high = _ndkl_prefix_terms(_check_groups(group_sizes, n), k)
    return Bounds(most_unfair=high, most_fair=low)


def achievable_awrf(m, n, k, *, group_sizes, log_base=2.0, max_sequences: int = 2_000_000) -> Bounds:
    r"""AWRF's exact ends without history: every capacity-respecting sequence of groups in a list.

    >>> b = achievable_awrf(3, 4, 2, group_sizes=(2, 2))      # never below 0.689: the target is (1/2, 1/2)
    >>> round(b.most_unfair, 4), round(b.most_fair, 4)
    (0.6887, 0.9906)
    """
    m, n, k = _sizes(m, n, k)
    sizes = _check_groups(group_sizes, n)
    if sizes.size ** k > max_sequences:
        raise ValueError(f"{sizes.size}^{k} group sequences exceed max_sequences={max_sequences}.")
    p_star = sizes / sizes.sum()
    pos = _core.dcg_weights(k)
    values = []
    for seq in itertools.product(range(sizes.size), repeat=k):
        if (np.bincount(seq, minlength=sizes.size) > sizes).any():
            continue
        att = np.bincount(seq, weights=pos, minlength=sizes.size)
        values.append(1.0 - float(_core.jsd(att / att.sum(), p_star, base=log_base)))
    return Bounds(most_unfair=min(values), most_fair=max(values))


#: Measures whose value depends on the order of a list (the search enumerates permutations for them).
RANKED = frozenset({"NDKL", "ExpRatio", "MMF", "AWRF", "EE-L", "EE-D", "EE-R", "UGF", "UserMAD", "C_KL"})


def exhaustive(measure: str, m, n, k, *, max_configurations: int = 200_000, **inputs) -> Extremes:
    """Exact smallest and largest value of a Part VI measure over every recommendation at tiny sizes.

    Parameters
    ----------
    measure : str
        A Part VI registry name.
    m, n, k : int
        Users, items, list length.
    max_configurations : int
        Refuse larger searches.
    **inputs
        The run's other inputs (``history``, ``relevant``, ``item_groups``, ``item_features``,
        ``user_attributes``) and the measure's options. Each user's candidates exclude its history.

    Returns
    -------
    Extremes
        NaN ends when the measure is undefined for every recommendation.

    Examples
    --------
    >>> exhaustive("RSP", 1, 5, 2, item_groups=["a", "a", "b", "b", "b"])
    Extremes(low=0.2, high=1.0)
    """
    from ..run import Run
    from .measures import KERNELS, _evaluate

    key = measure
    if key not in KERNELS:
        raise ValueError(f"{key} is not a Part VI measure ({', '.join(KERNELS)}).")
    m, n, k = _sizes(m, n, k)
    run_inputs = {name: inputs.pop(name) for name in ("history", "relevant", "item_groups", "item_features",
                                                      "user_attributes") if name in inputs}
    hist = run_inputs.get("history")
    choose = itertools.permutations if (key in RANKED) else itertools.combinations
    per_user = []
    for u in range(m):
        banned = set() if hist is None else set(int(i) for i in hist[u])
        per_user.append(list(choose([i for i in range(n) if i not in banned], k)))
    total = math.prod(len(c) for c in per_user)
    if total > max_configurations:
        raise ValueError(f"{total} configurations exceed max_configurations={max_configurations}.")
    values = []
    for lists in itertools.product(*per_user):
        run = Run(np.array(lists, dtype=np.int64), n, **run_inputs)
        values.append(_evaluate(key, run, "nan", **inputs))
    values = np.array(values)
    ok = ~np.isnan(values)
    if not ok.any():
        return Extremes(float("nan"), float("nan"), count=total)
    return Extremes(float(values[ok].min()), float(values[ok].max()), count=total)


#: Closed forms by registry name (each record's ``achievable``).
ACHIEVABLE = {"ARP": achievable_arp, "APLT": achievable_aplt, "ACLT": achievable_aclt, "RSP": achievable_rsp,
              "PopRSP": achievable_rsp, "NDKL": achievable_ndkl, "AWRF": achievable_awrf}

from .bounds_groups import ACHIEVABLE as _GROUP_SEARCHES, NO_BOUND  # noqa: E402  (the group measures' searches)

ACHIEVABLE.update(_GROUP_SEARCHES)


def _search(key):
    def search(m, n, k, **params):
        return exhaustive(key, m, n, k, **params)

    return search


#: The exhaustive search of every Part VI measure (each record's ``exhaustive``).
EXHAUSTIVE = {key: _search(key) for key in ("ARP", "APLT", "ACLT", "PopRSP", "PopREO", "RSP", "REO", "BD",
                                            "ItemMAD", "UserMAD", "NDKL", "ExpRatio", "MMF", "UGF", "C_KL", "AWRF",
                                            "EE-L", "EE-D", "EE-R")}
