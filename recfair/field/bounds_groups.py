r"""Achievable ranges of Part VI's group measures: REO, ExpRatio, MMF, EE, C_KL, UGF, UserMAD and BD.

The companion of :mod:`recfair.field.bounds` for the measures whose ends depend on more than the
sizes: the users' relevant items, their histories, the users' groups. None of them has a closed
form in general, so each function here is an **exact search** that uses the measure's structure
to avoid enumerating every recommendation:

================  ==========================================================================
measure           what the search enumerates (exact; a clear ValueError past its size limit)
================  ==========================================================================
REO, PopREO       each user's feasible hit counts per group, summed over users
                  (``relevant_counts``: one row per user, one column per group)
ExpRatio, MMF     each list's exposure per group (capacity-respecting group sequences),
                  summed over users (``group_sizes=``; examination options as the measure)
EE-L, EE-D, EE-R  per user (the measure is a mean of independent users): every group sequence
                  of a list against that user's ideal exposure (``relevant_counts``)
C_KL              per user: every list of the user's candidates (``history``, ``item_features``)
UGF, UserMAD      per user: every hit-position pattern; per group: every achievable sum
BD                per user group (the measure is a sum over user groups): every achievable
                  vector of recommended counts per item group
================  ==========================================================================

The searches of REO, ExpRatio, MMF and EE exclude the histories when given ``history_counts``
(each user's history items per group, :func:`relevant_counts` of the histories); without it, like
the closed forms of :mod:`recfair.field.bounds`, they let every item reach every user. Every item
needs a group. C_KL, UGF, UserMAD and BD read the histories and exclude them.
:func:`recfair.field.bounds.exhaustive` enumerates every recommendation at tiny sizes and the
tests check each search against it.

ItemMAD has **no** achievable range in this sense: each recommended item's gain is its rated
value, so its ends are a property of the ratings, not of (m, n, k) and the groups
(:data:`NO_BOUND` holds the reason the registry and the chapters print).

>>> achievable_exp_ratio(2, 4, 2, group_sizes=(2, 2))
Bounds(most_unfair=0.0, most_fair=1.0)
>>> achievable_reo(2, 4, 1, relevant_counts=[[1, 1], [1, 0]])     # equal opportunity is out of reach
Bounds(most_unfair=1.0, most_fair=0.3333333333333333)
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._validation import check_positive_int
from ..spec import Bounds

__all__ = ["achievable_reo", "achievable_exp_ratio", "achievable_mmf", "achievable_ee_l", "achievable_ee_d",
           "achievable_ee_r", "achievable_c_kl", "achievable_ugf", "achievable_user_mad", "achievable_bd",
           "relevant_counts", "ACHIEVABLE", "NO_BOUND"]

#: Default size limit of every search (states, lists or combinations it may hold at once).
MAX_STATES = 200_000

#: Measures with no achievable range, and why (the registry's and the chapters' text).
NO_BOUND = {
    "ItemMAD": ("no achievable range: a recommended item's gain is its rated value (2^r - 1), so the ends depend "
                "on the ratings, not on (m, n, k) and the item groups; at most the largest gain apart, and 0 is "
                "reached whenever the groups' recommended items have equal mean gain"),
}

_NAN = Bounds(most_unfair=float("nan"), most_fair=float("nan"))


def _sizes(m, n, k):
    m, n, k = check_positive_int(m, "m"), check_positive_int(n, "n"), check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n={n}.")
    return m, n, k


def _too_big(what, count, limit, name):
    if count > limit:
        raise ValueError(f"the exact search needs {count} {what}, above {name}={limit}: it is exact only for small "
                         f"sizes (raise {name} to search anyway).")


def _group_sizes(group_sizes, n):
    sizes = np.asarray([int(s) for s in group_sizes])
    if sizes.ndim != 1 or sizes.size < 2 or (sizes < 1).any() or sizes.sum() != n:
        raise ValueError(f"group_sizes must be two or more positive sizes summing to n={n} (every item in a group), "
                         f"got {group_sizes!r}.")
    return sizes


def _relevant_counts(counts, m, n, name="relevant_counts"):
    """Per-user counts per item group (``relevant_counts`` or ``history_counts``), validated."""
    r = np.asarray(counts)
    if r.ndim != 2 or r.shape[0] != m or r.shape[1] < 2 or not np.issubdtype(r.dtype, np.number) or (r < 0).any() \
            or (r != np.round(r)).any():
        raise ValueError(f"{name} must be non-negative integers, one row per user ({m}) and one column per "
                         f"item group (two or more), got shape {getattr(r, 'shape', None)}.")
    r = r.astype(np.int64)
    if (r.sum(axis=1) > n).any():
        what = "relevant" if name == "relevant_counts" else "history"
        raise ValueError(f"{name}: a user has more {what} items than the catalogue holds ({n}).")
    return r


def relevant_counts(relevant, item_groups) -> np.ndarray:
    """Each user's number of listed items per item group (columns in the sorted labels' order).

    Of the relevant items: the ``relevant_counts`` input of :func:`achievable_reo` and the EE
    searches; of the histories: the ``history_counts`` input of :func:`achievable_exp_ratio` and
    :func:`achievable_mmf`.

    >>> relevant_counts([[0, 3], [2]], ["a", "a", "b", "b"]).tolist()
    [[1, 1], [0, 1]]
    """
    labels = sorted({g for g in item_groups if g is not None}, key=repr)
    index = {g: j for j, g in enumerate(labels)}
    out = np.zeros((len(relevant), len(labels)), dtype=np.int64)
    for u, items in enumerate(relevant):
        for i in items:
            g = item_groups[int(i)]
            if g is None:
                raise ValueError(f"item {int(i)} has no group: the searches assume every item has one.")
            out[u, index[g]] += 1
    return out


def _minkowski(per_user, limit, name):
    """Every sum of one vector per user (rows of floats rounded to 9 decimals), in blocks of bounded memory."""
    first = np.asarray(sorted(per_user[0]), float)
    states = np.zeros((1, first.shape[1]))
    for options in per_user:
        opts = np.asarray(sorted(options), float)
        step = max(1, 1_000_000 // len(opts))
        acc = np.empty((0, opts.shape[1]))
        for start in range(0, len(states), step):
            block = (states[start:start + step, None, :] + opts[None, :, :]).reshape(-1, opts.shape[1])
            acc = np.unique(np.concatenate([acc, np.round(block, 9)]), axis=0)
            _too_big("partial sums", len(acc), limit, name)
        states = acc
    return [tuple(row) for row in states]


def _bounded_vectors(caps, low, high):
    """Integer vectors x with 0 <= x <= caps and low <= sum(x) <= high."""
    return [x for x in itertools.product(*(range(c + 1) for c in caps)) if low <= sum(x) <= high]


def _cv(values):
    """Population standard deviation over the mean (RSP/REO's finish), NaN when the mean is 0."""
    v = np.asarray(values, float)
    return float("nan") if v.mean() == 0 else float(v.std() / v.mean())


def _ends(values, higher_is_better):
    values = np.asarray([v for v in values if not math.isnan(v)], float)
    if values.size == 0:
        return _NAN
    lo, hi = float(values.min()), float(values.max())
    return Bounds(most_unfair=lo, most_fair=hi) if higher_is_better else Bounds(most_unfair=hi, most_fair=lo)


# ============================================================================ REO, PopREO

def achievable_reo(m, n, k, *, relevant_counts, empty_groups: str = "undefined", history_counts=None,
                   max_states: int = MAX_STATES) -> Bounds:
    r"""REO's (and PopREO's) exact ends: every achievable vector of hits per group.

    User :math:`u` with :math:`r_{u,g}` relevant items in group :math:`g` can hit any
    :math:`0 \le h_{u,g} \le r_{u,g}` with :math:`k - (n - r_u) \le \sum_g h_{u,g} \le k` (the
    rest of the list is non-relevant items, of which there are :math:`n - r_u`, or
    :math:`n - r_u - |H_u|` outside a history of :math:`|H_u|` items: ``history_counts``, whose
    row sums are read). REO reads only the summed hits :math:`H_g`, so the search runs over the
    set of achievable sums.

    Parameters
    ----------
    m, n, k : int
        Users, items, list length.
    relevant_counts : array-like of int, shape (m, N)
        Each user's relevant items per group (:func:`relevant_counts`; head and tail for PopREO).
    empty_groups : {"undefined", "drop"}
        The measure's option: a group without relevant items makes REO undefined, or drops out
        (WarpRec's convention), the search then running over the other groups.
    max_states : int
        Refuse a search holding more partial sums.

    Returns
    -------
    Bounds
        NaN ends when a group has no relevant item (REO is then undefined for every list), or,
        with ``empty_groups="drop"``, when fewer than two groups have one.

    Examples
    --------
    >>> achievable_reo(1, 4, 1, relevant_counts=[[1, 1]])      # one slot: one group always misses out
    Bounds(most_unfair=1.0, most_fair=1.0)
    """
    m, n, k = _sizes(m, n, k)
    r = _relevant_counts(relevant_counts, m, n)
    if empty_groups not in ("undefined", "drop"):
        raise ValueError(f'empty_groups must be "undefined" or "drop", got {empty_groups!r}.')
    if history_counts is None:
        hist = np.zeros(m, dtype=np.int64)
    else:
        hist = _relevant_counts(history_counts, m, n, "history_counts").sum(axis=1)
        if (r.sum(axis=1) + hist > n).any() or (hist > n - k).any():
            raise ValueError("a user's relevant and history items exceed the catalogue, or its history leaves fewer "
                             "than k items.")
    if empty_groups == "drop":
        keep = r.sum(axis=0) > 0
        r = r[:, keep]
    totals = r.sum(axis=0)
    if totals.size < 2 or (totals == 0).any():
        return _NAN
    per_user = [_bounded_vectors(row, max(0, k - (n - int(row.sum()) - int(h))), k) for row, h in zip(r, hist)]
    values = [_cv(np.asarray(h, float) / totals) for h in _minkowski(per_user, max_states, "max_states")]
    return _ends(values, higher_is_better=False)


# ============================================================================ ExpRatio, MMF

def _position_weights(k, examination, gamma):
    from ..examination import weights

    return weights(examination, k, **({"gamma": gamma} if examination == "rbp" else {}))


def _list_vectors(sizes, pos, limit, name):
    """Every capacity-respecting group sequence of a list, as its exposure per group (deduplicated)."""
    k = pos.size
    _too_big("group sequences per list", sizes.size ** k, limit, name)
    out = set()
    for seq in itertools.product(range(sizes.size), repeat=k):
        counts = np.bincount(seq, minlength=sizes.size)
        if (counts <= sizes).all():
            out.add(tuple(np.round(np.bincount(seq, weights=pos, minlength=sizes.size), 12)))
    return out


def _history_caps(history_counts, m, n, k, sizes):
    """Each user's candidate items per group, outside its history (``history_counts`` None: every item)."""
    if history_counts is None:
        return np.tile(sizes, (m, 1))
    hist = _relevant_counts(history_counts, m, n, "history_counts")
    if hist.shape[1] != sizes.size or (hist > sizes).any():
        raise ValueError(f"history_counts must have one column per group ({sizes.size}) and at most the group's "
                         f"size in each, got shape {hist.shape}.")
    caps = sizes - hist
    short = np.flatnonzero(caps.sum(axis=1) < k)
    if short.size:
        raise ValueError(f"user {int(short[0])} has fewer than k = {k} items outside its history.")
    return caps


def _lists_per_user(caps, pos, max_states):
    """Each user's exposure-per-group vectors; users with the same candidates share theirs."""
    lists = {}
    for row in map(tuple, caps):
        if row not in lists:
            lists[row] = _list_vectors(np.asarray(row), pos, max_states, "max_states")
    return [lists[tuple(row)] for row in caps]


def _exposure_totals(m, n, k, group_sizes, examination, gamma, max_states, history_counts=None):
    m, n, k = _sizes(m, n, k)
    sizes = _group_sizes(group_sizes, n)
    pos = _position_weights(k, examination, gamma)
    caps = _history_caps(history_counts, m, n, k, sizes)
    return sizes, _minkowski(_lists_per_user(caps, pos, max_states), max_states, "max_states")


def achievable_exp_ratio(m, n, k, *, group_sizes, examination="dcg", gamma=0.8, history_counts=None,
                         max_states: int = MAX_STATES) -> Bounds:
    r"""The exposure ratio's exact ends: every achievable exposure per group.

    ExpRatio is :math:`\min_g \mathrm{Exp}_g / \max_g \mathrm{Exp}_g` of the groups' mean exposure
    per item; it depends on the lists only through each group's summed exposure, so the search
    runs over every sum of one capacity-respecting group sequence per user. Its unfair end is 0
    whenever a list can leave a group out (:math:`k \le n - |G_g|`).

    ``history_counts`` (users × groups, :func:`relevant_counts` of the histories) removes each
    user's history items from its candidates, as a run does; without it every item can reach
    every user, and the ends enclose those of any history.

    >>> b = achievable_exp_ratio(1, 3, 2, group_sizes=(1, 2))
    >>> round(b.most_unfair, 4), round(b.most_fair, 4)
    (0.0, 0.7925)
    """
    sizes, totals = _exposure_totals(m, n, k, group_sizes, examination, gamma, max_states, history_counts)
    values = []
    for t in totals:
        mean = np.asarray(t) / sizes
        values.append(float("nan") if mean.max() == 0 else float(mean.min() / mean.max()))
    return _ends(values, higher_is_better=True)


def achievable_mmf(m, n, k, *, group_sizes, examination="dcg", gamma=0.8, ratio=0.5, history_counts=None,
                   max_states: int = MAX_STATES) -> Bounds:
    r"""Provider MMF's exact ends: every achievable exposure per group (``history_counts`` as in
    :func:`achievable_exp_ratio`).

    MMF is the worst-off :math:`\lfloor \rho N \rfloor` groups' share of all exposure; the search
    is :func:`achievable_exp_ratio`'s. Its fair end :math:`\lfloor \rho N \rfloor / N` needs equal
    exposure of the groups, which the position weights often forbid.

    >>> achievable_mmf(2, 4, 2, group_sizes=(2, 2))
    Bounds(most_unfair=0.0, most_fair=0.5)
    """
    sizes, totals = _exposure_totals(m, n, k, group_sizes, examination, gamma, max_states, history_counts)
    worst = int(float(ratio) * sizes.size)
    if not 0 < float(ratio) <= 1:
        raise ValueError(f"ratio must be in (0, 1], got {ratio!r}.")
    if worst == 0:
        return _NAN
    values = []
    for t in totals:
        e = np.sort(np.asarray(t))
        values.append(float("nan") if e.sum() == 0 else float(e[:worst].sum() / e.sum()))
    return _ends(values, higher_is_better=True)


# ============================================================================ expected exposure

def _ee_ends(key, m, n, k, group_sizes, relevant_counts_, patience, max_states, history_counts=None):
    from ..examination import check_gamma

    m, n, k = _sizes(m, n, k)
    sizes = _group_sizes(group_sizes, n)
    gamma = check_gamma(patience)
    pos = gamma ** np.arange(k)
    cum = np.concatenate([[0.0], np.cumsum(pos)])
    caps = _history_caps(history_counts, m, n, k, sizes)
    per_user = [np.array(sorted(vectors)) for vectors in _lists_per_user(caps, pos, max_states)]   # (L_u, N)
    if key == "EE-D":
        d = [(lists ** 2).sum(axis=1) for lists in per_user]
        return Bounds(most_unfair=float(np.mean([x.max() for x in d])), most_fair=float(np.mean([x.min() for x in d])))
    r = _relevant_counts(relevant_counts_, m, n)
    if r.shape[1] != sizes.size or (r > caps).any():
        raise ValueError(f"relevant_counts needs one column per group ({sizes.size}), none above its group's size "
                         "outside the user's history.")
    lows, highs = [], []
    for row, free, lists in zip(r, caps, per_user):
        n_rel, n_free = int(row.sum()), int(free.sum())     # free: the items outside the history
        top = cum[min(n_rel, k)] / n_rel if n_rel else 0.0
        rest = (cum[k] - cum[min(n_rel, k)]) / (n_free - n_rel) if n_free > n_rel else 0.0
        target = row * top + (free - row) * rest
        values = ((lists - target) ** 2).sum(axis=1) if key == "EE-L" else 2 * (lists * target).sum(axis=1)
        lows.append(values.min())
        highs.append(values.max())
    low, high = float(np.mean(lows)), float(np.mean(highs))
    return Bounds(most_unfair=low, most_fair=high) if key == "EE-R" else Bounds(most_unfair=high, most_fair=low)


def achievable_ee_l(m, n, k, *, group_sizes, relevant_counts, patience=0.5, history_counts=None,
                    max_states: int = MAX_STATES) -> Bounds:
    r"""EE-L's exact ends: per user, every group sequence against the ideal exposure.

    EE-L is a mean over users, each of whom may get any list, so its ends are the means of each
    user's own best and worst list; a user's value depends on the list only through its exposure
    per group, :math:`\varepsilon_g = \sum_j \gamma^{j-1}[L(j) \in G_g]`. ``history_counts``
    (users × groups) removes each user's history from its lists and from its ideal exposure, as the
    measure does (the EE searches share it).

    >>> achievable_ee_l(1, 4, 2, group_sizes=(2, 2), relevant_counts=[[1, 1]])
    Bounds(most_unfair=1.125, most_fair=0.125)
    """
    return _ee_ends("EE-L", m, n, k, group_sizes, relevant_counts, patience, max_states, history_counts)


def achievable_ee_d(m, n, k, *, group_sizes, patience=0.5, history_counts=None, max_states: int = MAX_STATES) -> Bounds:
    r"""EE-D's exact ends: the most and least concentrated exposure each user's list can give.

    EE-D does not read relevance: without histories every user's list has the same best and
    worst value.

    >>> achievable_ee_d(3, 4, 2, group_sizes=(2, 2))
    Bounds(most_unfair=2.25, most_fair=1.25)
    """
    return _ee_ends("EE-D", m, n, k, group_sizes, None, patience, max_states, history_counts)


def achievable_ee_r(m, n, k, *, group_sizes, relevant_counts, patience=0.5, history_counts=None,
                    max_states: int = MAX_STATES) -> Bounds:
    r"""EE-R's exact ends (higher is better): per user, every group sequence.

    >>> achievable_ee_r(1, 4, 2, group_sizes=(2, 2), relevant_counts=[[1, 0]])
    Bounds(most_unfair=1.0, most_fair=3.5)
    """
    return _ee_ends("EE-R", m, n, k, group_sizes, relevant_counts, patience, max_states, history_counts)


# ============================================================================ C_KL

def _history_lists(history, m):
    import scipy.sparse as sp

    if sp.issparse(history):
        h = sp.csr_matrix(history)
        rows = [list(h.indices[h.indptr[u]:h.indptr[u + 1]]) for u in range(h.shape[0])]
    else:
        rows = [[int(i) for i in items] for items in history]
    if len(rows) != m:
        raise ValueError(f"history has {len(rows)} users, expected m={m}.")
    return rows


def achievable_c_kl(m, n, k, *, history, item_features, mix=0.01, examination="uniform",
                    max_states: int = MAX_STATES) -> Bounds:
    r"""C_KL's exact ends: per user, every list of the items outside the user's history.

    C_KL is a mean over users of a value that reads only the user's own list and history, so
    its ends are the means of each user's best and worst list (lists of the user's candidates,
    ordered when ``examination="dcg"``). The worst is at most :math:`\ln(1/\alpha)`, reached by a
    list sharing no genre with the history; the best is 0 only when some list's genre mix equals
    the history's.

    >>> genres = [[1, 0], [1, 0], [0, 1], [0, 1], [1, 1]]
    >>> b = achievable_c_kl(1, 5, 1, history=[[0, 2]], item_features=genres)   # item 4 mirrors the history
    >>> round(b.most_unfair, 4), round(b.most_fair, 4)
    (1.9585, 0.0)
    """
    from ..run import Run
    from .measures import KERNELS, _c_kl_values

    m, n, k = _sizes(m, n, k)
    rows = _history_lists(history, m)
    choose = itertools.permutations if examination == "dcg" else itertools.combinations
    lows, highs = [], []
    for items in rows:
        banned = set(items)
        candidates = [i for i in range(n) if i not in banned]
        if len(candidates) < k:
            raise ValueError(f"a user has {len(candidates)} items outside its history, fewer than k={k}.")
        count = math.perm(len(candidates), k) if examination == "dcg" else math.comb(len(candidates), k)
        _too_big("lists for one user", count, max_states, "max_states")
        lists = np.array(list(choose(candidates, k)), dtype=np.int64)
        run = Run(lists, n, history=[items] * len(lists), item_features=item_features)
        context = KERNELS["C_KL"].context(run)
        values = _c_kl_values(run, context=context, mix=mix, examination=examination)
        if np.isnan(values).any():
            return _NAN
        lows.append(values.min())
        highs.append(values.max())
    return Bounds(most_unfair=float(np.mean(highs)), most_fair=float(np.mean(lows)))


# ============================================================================ UGF, UserMAD

def _user_effectiveness_sets(m, n, k, relevant, history, base, limit):
    """Each user's achievable effectiveness values (binary relevance): one list per hit-position pattern."""
    from ..relevance import per_user_effectiveness
    from ..run import Run

    if len(relevant) != m:
        raise ValueError(f"relevant has {len(relevant)} users, expected m={m}.")
    hist = [[] for _ in range(m)] if history is None else _history_lists(history, m)
    _too_big("hit patterns per user", 2 ** k, limit, "max_states")
    out = []
    for u in range(m):
        banned = set(hist[u])
        rel = [int(i) for i in relevant[u] if int(i) not in banned]
        other = [i for i in range(n) if i not in banned and i not in set(rel)]
        lists = []
        for pattern in itertools.product((0, 1), repeat=k):
            hits = sum(pattern)
            if hits > len(rel) or k - hits > len(other):
                continue
            r_it, o_it = iter(rel), iter(other)
            lists.append([next(r_it) if p else next(o_it) for p in pattern])
        if not lists:
            raise ValueError(f"user {u} has fewer than k={k} items outside its history.")
        run = Run(np.array(lists, dtype=np.int64), n, relevant=[relevant[u]] * len(lists),
                  history=None if history is None else [hist[u]] * len(lists))
        values = per_user_effectiveness(run, base=base)
        if np.isnan(values).any():
            return None
        out.append(sorted({round(float(v), 12) for v in values}))
    return out


def _group_means(sets, codes, n_groups, limit):
    """Every achievable mean effectiveness of each user group (sorted arrays)."""
    means = []
    for g in range(n_groups):
        members = [sets[u] for u in np.flatnonzero(codes == g)]
        if not members:
            return None
        sums = _minkowski([[(v,) for v in s] for s in members], limit, "max_states")
        means.append(np.array(sorted(s[0] / len(members) for s in sums)))
    return means


def achievable_ugf(m, n, k, *, relevant, history=None, groups=None, active_share=0.05, base="NDCG",
                   max_states: int = MAX_STATES) -> Bounds:
    r"""UGF's exact ends: every achievable mean effectiveness of the two user groups.

    Each user's effectiveness takes a value per hit-position pattern of its list (binary
    relevance, the user's candidates outside its history); a group's mean ranges over every sum
    of one value per member, and UGF is the gap between the two means. Its unfair end is the
    larger of the two "one group served best, the other worst" gaps; its fair end is the
    closest pair of achievable means, 0 only when the two groups can score the same mean.

    Parameters
    ----------
    m, n, k : int
        Users, items, list length.
    relevant : sequences of int
        Each user's relevant items.
    history : sequences of int, optional
        Each user's training items (excluded from the lists; the activity split).
    groups : array-like (m,), optional
        Two user groups instead of the activity split.
    active_share : float
        Share of advantaged users (the activity split).
    base : str
        The per-user effectiveness.
    max_states : int
        Refuse larger searches.

    Examples
    --------
    >>> achievable_ugf(2, 4, 1, relevant=[[0], [1]], groups=["a", "b"])
    Bounds(most_unfair=1.0, most_fair=0.0)
    """
    from .measures import _ugf_context

    m, n, k = _sizes(m, n, k)

    class _R:                                        # the split needs only the history and the number of users
        n_users = m

    ctx_run = _R()
    ctx_run.history = None if history is None else _as_csr(history, m, n)
    codes = _ugf_context(ctx_run, groups=groups, active_share=active_share)["user_codes"]
    sets = _user_effectiveness_sets(m, n, k, relevant, history, base, max_states)
    if sets is None:
        return _NAN
    means = _group_means(sets, codes, 2, max_states)
    if means is None:
        return _NAN
    a, d = means
    high = max(a[-1] - d[0], d[-1] - a[0])
    j = np.clip(np.searchsorted(d, a), 0, d.size - 1)
    low = float(np.minimum(np.abs(a - d[j]), np.abs(a - d[np.clip(j - 1, 0, d.size - 1)])).min())
    return Bounds(most_unfair=float(abs(high)), most_fair=low)


def _as_csr(history, m, n):
    import scipy.sparse as sp

    rows = _history_lists(history, m)
    data = [1] * sum(len(r) for r in rows)
    indices = [i for r in rows for i in r]
    indptr = np.concatenate([[0], np.cumsum([len(r) for r in rows])])
    return sp.csr_matrix((data, indices, indptr), shape=(m, n))


def achievable_user_mad(m, n, k, *, relevant, groups, history=None, base="NDCG",
                        max_states: int = MAX_STATES) -> Bounds:
    r"""UserMAD's exact ends: every combination of achievable group means.

    The search of :func:`achievable_ugf`, then the mean absolute difference over pairs of
    groups at every combination of one achievable mean per group.

    >>> achievable_user_mad(2, 4, 1, relevant=[[0], [1]], groups=["a", "b"])
    Bounds(most_unfair=1.0, most_fair=0.0)
    """
    import pandas as pd

    from ..groups import encode_groups

    m, n, k = _sizes(m, n, k)
    frame = groups if isinstance(groups, pd.DataFrame) else pd.DataFrame({"group": list(groups)})
    codes, labels = encode_groups(frame, n_users=m)
    if len(labels) < 2:
        return _NAN
    sets = _user_effectiveness_sets(m, n, k, relevant, history, base, max_states)
    if sets is None:
        return _NAN
    means = _group_means(sets, np.asarray(codes), len(labels), max_states)
    _too_big("combinations of group means", math.prod(x.size for x in means), max_states, "max_states")
    values = []
    for combo in itertools.product(*means):
        values.append(float(np.mean([abs(x - y) for j, x in enumerate(combo) for y in combo[j + 1:]])))
    return _ends(values, higher_is_better=False)


# ============================================================================ BD

def achievable_bd(m, n, k, *, history, item_groups, groups, max_states: int = MAX_STATES) -> Bounds:
    r"""BD's exact ends: per user group, every achievable vector of recommended counts per item group.

    BS is fixed by the history; BR of a user group reads only its summed counts per item group,
    and BD is a mean over the cells with :math:`\mathrm{BS} > 0`, a sum of one term per user
    group. So its ends add up each user group's own extremes, found over every sum of one
    feasible count vector per member (counts within the member's candidates outside its history,
    items without a group filling the rest of the list).

    >>> achievable_bd(2, 4, 1, history=[[1], [3]], item_groups=["a", "a", "b", "b"], groups=["x", "x"])
    Bounds(most_unfair=1.0, most_fair=0.0)
    """
    import pandas as pd

    from ..groups import encode_groups

    m, n, k = _sizes(m, n, k)
    rows = _history_lists(history, m)
    if len(item_groups) != n:
        raise ValueError(f"item_groups must hold one label per item ({n}).")
    labels = sorted({g for g in item_groups if g is not None}, key=repr)
    code = np.array([-1 if g is None else labels.index(g) for g in item_groups])
    c = len(labels)
    frame = groups if isinstance(groups, pd.DataFrame) else pd.DataFrame({"group": list(groups)})
    ucodes, ulabels = encode_groups(frame, n_users=m)
    ucodes = np.asarray(ucodes)
    items = np.bincount(code[code >= 0], minlength=c).astype(float)
    prior = items / items.sum()
    cells = 0
    low = high = 0.0
    for g in range(len(ulabels)):
        members = np.flatnonzero(ucodes == g)
        src = np.zeros(c)
        for u in members:
            h = code[rows[u]]
            src += np.bincount(h[h >= 0], minlength=c)
        if src.sum() == 0:                           # no BS for this group; its lists still need a labelled item
            if all((code[[i for i in range(n) if i not in set(rows[u])]] < 0).all() for u in members):
                return _NAN
            continue
        bs = src / src.sum() / prior
        defined = bs > 0
        cells += int(defined.sum())
        per_user = []
        for u in members:
            banned = set(rows[u])
            cand = code[[i for i in range(n) if i not in banned]]
            caps = list(np.bincount(cand[cand >= 0], minlength=c)) + [int((cand < 0).sum())]
            per_user.append(_bounded_vectors(caps, k, k))
            if not per_user[-1]:
                raise ValueError(f"user {int(u)} has fewer than k={k} items outside its history.")
        terms = []
        for t in _minkowski(per_user, max_states, "max_states"):
            rec = np.asarray(t[:c], float)
            if rec.sum() == 0:
                continue
            br = rec / rec.sum() / prior
            terms.append(float(np.abs((br[defined] - bs[defined]) / bs[defined]).sum()))
        if not terms:
            return _NAN
        low += min(terms)
        high += max(terms)
    if cells == 0:
        return _NAN
    return Bounds(most_unfair=high / cells, most_fair=low / cells)


#: Searches by registry name (merged into :data:`recfair.field.bounds.ACHIEVABLE`).
ACHIEVABLE = {"REO": achievable_reo, "PopREO": achievable_reo, "ExpRatio": achievable_exp_ratio,
              "MMF": achievable_mmf, "EE-L": achievable_ee_l, "EE-D": achievable_ee_d, "EE-R": achievable_ee_r,
              "C_KL": achievable_c_kl, "UGF": achievable_ugf, "UserMAD": achievable_user_mad, "BD": achievable_bd}
