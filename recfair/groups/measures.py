r"""User groups versus individual users (thesis Paper 6): between-group, within-group and individual measures.

Every measure takes ``effectiveness`` (one value per user, e.g. per-user NDCG@10: the
*base score*), positionally, and ``groups`` by keyword (one label per user, or a pandas DataFrame with one column per
sensitive attribute: the groups are then the *intersections* of all its columns, and only the
non-empty ones exist). Notation: :math:`N` users, :math:`N'` non-empty groups, :math:`g_j` the
effectiveness values of group :math:`j`, :math:`|g_j|` its size, :math:`\bar g_j` its mean and :math:`\bar x`
the mean over all users.

Between groups (``*_group``) the measures are computed from the group means as the published
numbers were computed: Min, Range, SD, MAD, Gini and CV treat every group alike whatever its
size; FStat and KL use the sizes; Atk_group weights each group's equally-distributed equivalent
by its size. Within groups (``*_within``) a measure is averaged over the groups with weights
:math:`s_j=\sum g_j/\sum_\ell x_\ell`, each group's share of total effectiveness. Only
Atkinson's index decomposes exactly (:func:`atkinson_decomposition`):

.. math::

    1-\mathrm{Atk}_{ind}=(1-\mathrm{Atk}_{group})\,(1-\mathrm{Atk}_{within}).

Values with no definition (e.g. the Gini of all-zero effectiveness, or any measure when some
user's effectiveness is NaN) follow the library's policy ``on_undefined`` (``"warn"``: NaN with
an :class:`~recfair.UndefinedMeasureWarning`, ``"nan"``, ``"raise"``). Where the thesis defines a
value the published code does not compute (Atkinson of all-zero effectiveness is 0), recfair
returns the thesis's value.

>>> x = [0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4]
>>> g = ["a"] * 3 + ["b"] * 4 + ["c"] * 3
>>> round(sd_group(x, groups=g), 4), round(sd_within(x, groups=g), 4), round(atk_ind(x), 4)
(0.0944, 0.3408, 0.3441)
"""

from __future__ import annotations

import functools
import inspect
import math
import numbers
from dataclasses import dataclass

import numpy as np
import pandas as pd

from .._docs import ON_UNDEFINED, doc_filler
from .._validation import (check_effectiveness, check_on_undefined, check_real, renamed_options, undefined,
                           undefined_users)
from ..inequality import gini, gini_segments, pair_gap_sum

__all__ = [
    "min_group", "range_group", "sd_group", "mad_group", "gini_group", "cv_group", "fstat_group", "kl_group",
    "gce_group", "atk_group", "sd_within", "gini_within", "atk_within", "atk_ind", "atkinson_decomposition",
    "AtkinsonDecomposition", "group_sizes", "group_means", "encode_groups", "GROUP_MEASURES",
    "OPTIONS", "RANGES", "HIGHER_IS_FAIRER",
]


# ============================================================================ input checks and grouping

_DOCS = {
    "<<effectiveness>>": """effectiveness : array-like of float, shape (n_users,)
        One effectiveness value per user (e.g. per-user NDCG@10); NaN marks a user whose
        effectiveness is undefined, and the measure then follows ``on_undefined``.""",
    "<<groups>>": """groups : array-like, shape (n_users,), or pandas.DataFrame
        One group label per user, or one column per sensitive attribute (the groups are then the
        non-empty intersections of all columns); keyword-only. Missing labels are an error.""",
    "<<epsilon>>": """epsilon : float > 0, default=0.5
        Atkinson's inequality aversion (0.5 in the thesis; 1 uses geometric means).""",
    "<<on_undefined>>": ON_UNDEFINED,
}


class _Undefined(Exception):
    """Raised inside a measure when some user's effectiveness is NaN; carries the policy's value."""

    def __init__(self, value: float):
        super().__init__(value)
        self.value = value


def _nan_policy(func):
    """A user whose effectiveness is NaN makes the measure undefined: ``on_undefined`` decides (one policy)."""

    @functools.wraps(func)
    def measure(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except _Undefined as undefined_input:
            return undefined_input.value

    return measure


def _missing(values: np.ndarray) -> np.ndarray:
    return np.asarray(pd.isna(values), dtype=bool)


def encode_groups(groups, *, n_users: int | None = None) -> tuple[np.ndarray, list]:
    """Integer group codes ``0 .. N'-1`` (one per user) and the group labels, in order of first appearance.

    Parameters
    ----------
    groups : array-like (one label per user) or pandas.DataFrame
        A DataFrame has one column per sensitive attribute; a group is a combination of values of
        all columns that at least one user has (empty intersections do not exist). Labels may be
        numbers, strings, tuples or any hashable; a missing label (None/NaN) is an error. Labels
        are matched to ``effectiveness`` by position: a Series' or DataFrame's index is not used.
    n_users : int, optional
        The number of users the labels must cover (the length of ``effectiveness``).

    Returns
    -------
    codes : numpy.ndarray of int64, shape (n_users,)
    labels : list
        ``labels[j]`` is group ``j``'s label (a tuple of attribute values for a DataFrame).

    Examples
    --------
    >>> import pandas as pd
    >>> codes, labels = encode_groups(pd.DataFrame({"g": ["M", "F", "M"], "age": [1, 1, 2]}))
    >>> codes.tolist(), labels
    ([0, 1, 2], [('M', 1), ('F', 1), ('M', 2)])
    """
    if isinstance(groups, pd.DataFrame):
        if groups.shape[1] == 0:
            raise ValueError("groups is a DataFrame without columns: give one column per sensitive attribute.")
        columns = []
        for name in groups.columns:
            col = groups[name].to_numpy()
            miss = _missing(col)
            if miss.any():
                u = int(np.flatnonzero(miss)[0])
                raise ValueError(f"groups column {name!r} has a missing label at user {u} "
                                 f"({int(miss.sum())} user(s)): drop those users or give them a label.")
            columns.append(pd.factorize(col)[0].astype(np.int64))
        n = len(groups)
        if len(columns) == 1:
            combined = columns[0]
        else:
            combined = np.zeros(n, dtype=np.int64)
            for col in columns:              # mixed radix; re-factorised each step so it never overflows
                combined = pd.factorize(combined * (int(col.max()) + 1 if n else 1) + col)[0].astype(np.int64)
        codes, first = _first_appearance(combined)
        rows = groups.iloc[first]
        labels = [tuple(r) for r in rows.itertuples(index=False, name=None)]
    else:
        if isinstance(groups, (str, bytes)) or np.ndim(groups) == 0:
            raise TypeError(f"groups must be one label per user or a DataFrame, got {type(groups).__name__}.")
        if isinstance(groups, pd.Series):
            values = groups.to_numpy()
        elif isinstance(groups, np.ndarray):
            values = groups
        else:                                  # a list; tuples stay labels (not rows of a 2-D array)
            values = pd.Series(list(groups), dtype=object).to_numpy()
        if values.ndim != 1:
            raise ValueError(f"groups must be 1-D (one label per user) or a DataFrame, got shape {values.shape}.")
        miss = _missing(values)
        if miss.any():
            u = int(np.flatnonzero(miss)[0])
            raise ValueError(f"groups has a missing label at user {u} ({int(miss.sum())} user(s)): "
                             "drop those users or give them a label.")
        raw, uniques = pd.factorize(values)
        codes, first = _first_appearance(raw.astype(np.int64))
        labels = [values[i] for i in first]
        labels = [v.item() if isinstance(v, np.generic) else v for v in labels]
        n = len(values)
    if n_users is not None and n != n_users:
        raise ValueError(f"groups has {n} labels but effectiveness has {n_users} users: give one label per user.")
    if n == 0:
        raise ValueError("groups is empty: give one label per user.")
    return codes, labels


def _first_appearance(raw: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Renumber codes by first appearance; also return each group's first user."""
    uniq, first = np.unique(raw, return_index=True)
    order = np.argsort(first, kind="stable")
    remap = np.empty(uniq.size, dtype=np.int64)
    remap[order] = np.arange(uniq.size)
    lookup = np.searchsorted(uniq, raw)
    return remap[lookup], first[order]


@dataclass(frozen=True)
class _Grouped:
    """Effectiveness sorted by group (and by value within a group), with per-group statistics."""

    x: np.ndarray          # effectiveness in the caller's order
    codes: np.ndarray      # group code per user
    sorted_x: np.ndarray   # effectiveness sorted by (group, value)
    starts: np.ndarray     # start of each group in sorted_x
    sizes: np.ndarray      # |g_j| (float)
    sums: np.ndarray       # sum of g_j
    means: np.ndarray      # mean of g_j (exact for constant groups)
    constant: np.ndarray   # is every value of g_j the same?

    @property
    def n_groups(self) -> int:
        return self.sizes.size


def _group(effectiveness, groups, *, nonnegative: bool = False, measure: str = "",
           on_undefined: str | None = None) -> _Grouped:
    """Validate and group; NaN effectiveness raises :class:`_Undefined` (``on_undefined``) or, without a policy, an error."""
    x = check_effectiveness(effectiveness, allow_nan=on_undefined is not None, nonnegative=nonnegative,
                            measure=measure)
    if on_undefined is not None:
        value = undefined_users(measure, x, on_undefined)
        if value is not None:
            raise _Undefined(value)
    codes, _ = encode_groups(groups, n_users=x.size)
    order = np.lexsort((x, codes))
    sorted_x = x[order]
    sizes_int = np.bincount(codes)
    starts = np.concatenate(([0], np.cumsum(sizes_int)[:-1]))
    sizes = sizes_int.astype(np.float64)
    sums = np.add.reduceat(sorted_x, starts)
    lo = sorted_x[starts]
    hi = sorted_x[starts + sizes_int - 1]
    constant = lo == hi
    means = np.where(constant, lo, sums / sizes)
    return _Grouped(x, codes, sorted_x, starts, sizes, sums, means, constant)


def _check_epsilon(epsilon) -> float:
    return check_real(epsilon, "epsilon (Atkinson's inequality aversion)", low=0.0, strict=True)


def group_sizes(groups) -> np.ndarray:
    """:math:`|g_j|`, the number of users of each non-empty group (groups in order of first appearance).

    Parameters
    ----------
    groups : array-like, shape (n_users,), or pandas.DataFrame
        One group label per user, or one column per sensitive attribute.

    Returns
    -------
    numpy.ndarray of int64, shape (n_groups,)

    Examples
    --------
    >>> group_sizes(["b", "a", "b"]).tolist()
    [2, 1]
    """
    codes, _ = encode_groups(groups)
    return np.bincount(codes).astype(np.int64)


def group_means(effectiveness, *, groups) -> np.ndarray:
    r""":math:`\bar g_j`, the mean effectiveness of each non-empty group (groups in order of first appearance).

    .. math:: \bar g_j = \frac{1}{|g_j|} \sum_{\ell} x_{j,\ell}

    Parameters
    ----------
    effectiveness : array-like of float, shape (n_users,)
        One value per user, defined for every user (no NaN).
    groups : array-like, shape (n_users,), or pandas.DataFrame
        One group label per user, or one column per sensitive attribute.

    Returns
    -------
    numpy.ndarray of float, shape (n_groups,)

    Examples
    --------
    >>> group_means([0.1, 0.2, 0.3], groups=["b", "a", "b"]).round(3).tolist()
    [0.2, 0.2]
    """
    return _group(effectiveness, groups).means.copy()


# ============================================================================ one-vector kernels


def _power_mean(values: np.ndarray, weights: np.ndarray, epsilon: float) -> float:
    """Weighted power mean of order ``1 - epsilon`` of non-negative values (the Atkinson EDE)."""
    w = weights / weights.sum()
    if epsilon == 1.0:
        if (values[w > 0] == 0).any():
            return 0.0
        return float(np.exp((w * np.log(np.where(w > 0, values, 1.0))).sum()))
    if epsilon > 1.0 and (values[w > 0] == 0).any():
        return 0.0
    r = 1.0 - epsilon
    with np.errstate(over="ignore"):          # tiny values with epsilon > 1: the power mean tends to 0
        return float((w * np.power(values, r, where=w > 0, out=np.zeros_like(values))).sum() ** (1.0 / r))


def _group_edes(g: _Grouped, epsilon: float) -> np.ndarray:
    """Each group's equally-distributed equivalent (users weighted equally within the group)."""
    x = g.sorted_x
    if epsilon == 1.0:
        with np.errstate(divide="ignore"):
            logs = np.log(x)
        has_zero = np.add.reduceat((x == 0).astype(np.float64), g.starts) > 0
        safe = np.where(x > 0, logs, 0.0)
        ede = np.exp(np.add.reduceat(safe, g.starts) / g.sizes)
        ede = np.where(has_zero, 0.0, ede)
    else:
        r = 1.0 - epsilon
        if epsilon > 1.0:
            has_zero = np.add.reduceat((x == 0).astype(np.float64), g.starts) > 0
            with np.errstate(over="ignore"):
                powered = np.power(np.where(x > 0, x, 1.0), r)
                ede = (np.add.reduceat(powered, g.starts) / g.sizes) ** (1.0 / r)
            ede = np.where(has_zero, 0.0, ede)
        else:
            ede = (np.add.reduceat(np.power(x, r), g.starts) / g.sizes) ** (1.0 / r)
    return np.where(g.constant, g.means, ede)


def _shares(g: _Grouped) -> np.ndarray:
    """:math:`s_j`, each group's share of total effectiveness (total must be positive)."""
    return g.sums / g.sums.sum()


# ============================================================================ between groups


@doc_filler(_DOCS)
@_nan_policy
def min_group(effectiveness, *, groups, q: float = 0.25, on_undefined: str = "warn") -> float:
    r"""Min: the mean of the group means at or below their first quartile (higher is fairer).

    .. math::

        \mathrm{Min} = \operatorname{mean}\{\bar g_j : \bar g_j \le Q_q(\bar g_1,\dots,\bar g_{N'})\}

    :math:`Q_q` is the linearly interpolated quantile (pandas' and numpy's default), as in the
    published code; every group counts once whatever its size. Range: the range of the effectiveness values
    ([0, 1] for P or NDCG). One group gives its mean.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    q : float in [0, 1], default=0.25
        The quantile used as threshold (0.25: the worst quarter of the groups).
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(min_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.275
    """
    check_on_undefined(on_undefined)
    if isinstance(q, bool) or not isinstance(q, numbers.Real) or not 0 <= q <= 1:
        raise ValueError(f"q must be a number in [0, 1], got {q!r}.")
    m = _group(effectiveness, groups, measure="Min_group", on_undefined=on_undefined).means
    threshold = np.quantile(m, q)
    return float(m[m <= threshold].mean())


@doc_filler(_DOCS)
@_nan_policy
def range_group(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""Range: the largest minus the smallest group mean (lower is fairer).

    .. math::

        \mathrm{Range} = \max_j \bar g_j - \min_j \bar g_j

    Unweighted (a group of one user counts as much as a group of thousands). Range: [0, 1] for
    effectiveness in [0, 1]; 0 for a single group.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(range_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.225
    """
    check_on_undefined(on_undefined)
    m = _group(effectiveness, groups, measure="Range_group", on_undefined=on_undefined).means
    return float(m.max() - m.min())


@doc_filler(_DOCS)
@_nan_policy
def sd_group(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""SD between groups: the population standard deviation of the group means (lower is fairer).

    .. math::

        \mathrm{SD}_{group} = \sqrt{\tfrac{1}{N'}\textstyle\sum_j (\bar g_j - \mu)^2},
        \qquad \mu = \tfrac{1}{N'}\textstyle\sum_j \bar g_j

    Population SD (divisor :math:`N'`, numpy ``ddof=0``) of the unweighted means. Range:
    [0, 0.5] for effectiveness in [0, 1]; 0 for a single group.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(sd_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.0944
    """
    check_on_undefined(on_undefined)
    m = _group(effectiveness, groups, measure="SD_group", on_undefined=on_undefined).means
    return float(np.std(m))


@doc_filler(_DOCS)
@_nan_policy
def mad_group(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""MAD: the mean absolute difference between two group means, over unordered pairs (lower is fairer).

    .. math::

        \mathrm{MAD} = \frac{2}{N'(N'-1)} \sum_{j<j'} \lvert \bar g_j - \bar g_{j'} \rvert

    This is the value the published numbers were computed with (the mean over the
    :math:`N'(N'-1)/2` unordered pairs). The formula printed in the thesis has
    :math:`\frac{1}{N'(N'-1)}` in front, which is **half** of this. Computed in
    :math:`O(N' \log N')` from the sorted means. Range: [0, 1] for effectiveness in [0, 1]. Undefined
    (no pair) for a single group.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(mad_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.15
    """
    check_on_undefined(on_undefined)
    m = np.sort(_group(effectiveness, groups, measure="MAD_group", on_undefined=on_undefined).means)
    n = m.size
    if n < 2:
        return undefined("MAD_group", "a single group has no pair of groups", on_undefined)
    return float(2.0 * pair_gap_sum(m) / (n * (n - 1)))


@doc_filler(_DOCS)
@_nan_policy
def gini_group(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""Gini between groups: the Gini index of the (unweighted) group means (lower is fairer).

    With the :math:`N'` means sorted ascending, :math:`\bar g_{(1)} \le \dots \le \bar g_{(N')}`,

    .. math::

        \mathrm{Gini}_{group} = \frac{\sum_{j=1}^{N'} (2j - N' - 1)\, \bar g_{(j)}}{N' \sum_j \bar g_j}

    Needs non-negative effectiveness. Range: [0, (N'-1)/N']. Undefined when every group mean is 0.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(gini_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.1241
    """
    check_on_undefined(on_undefined)
    m = _group(effectiveness, groups, nonnegative=True, measure="Gini_group", on_undefined=on_undefined).means
    if m.sum() == 0:
        return undefined("Gini_group", "every group has mean effectiveness 0", on_undefined)
    return gini(m)


@doc_filler(_DOCS)
@_nan_policy
def cv_group(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""CV between groups: the coefficient of variation of the group means (lower is fairer).

    .. math::

        \mathrm{CV} = \frac{\mathrm{SD}(\bar g_1, \dots, \bar g_{N'})}
        {\operatorname{mean}(\bar g_1, \dots, \bar g_{N'})}

    Population SD over the unweighted mean of the means. Needs non-negative effectiveness. Range:
    :math:`[0, \sqrt{N'-1}]`. Undefined when every group mean is 0.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(cv_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.2343
    """
    check_on_undefined(on_undefined)
    m = _group(effectiveness, groups, nonnegative=True, measure="CV_group", on_undefined=on_undefined).means
    mu = m.mean()
    if mu == 0:
        return undefined("CV_group", "every group has mean effectiveness 0", on_undefined)
    return float(np.std(m) / mu)


@doc_filler(_DOCS)
@_nan_policy
def fstat_group(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""FStat: the one-way ANOVA F statistic of the effectiveness by group (lower is fairer).

    .. math::

        V = \frac1N \sum_j |g_j| (\bar g_j - \bar x)^2, \quad
        U = \frac1N \sum_j \sum_{\ell} (x_{j,\ell} - \bar g_j)^2, \quad
        \mathrm{FStat} = \frac{V / (N' - 1)}{U / (N - N')}

    (The thesis's text says ":math:`N'` users" where it means :math:`N` users.) Range:
    :math:`[0, \infty)`. Undefined for a single group, for one user per group (:math:`N = N'`)
    and when every group is constant (:math:`U = 0`).

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(fstat_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.3034
    """
    check_on_undefined(on_undefined)
    g = _group(effectiveness, groups, measure="FStat_group", on_undefined=on_undefined)
    n, k = g.x.size, g.n_groups
    if k < 2:
        return undefined("FStat_group", "a single group has no between-group variance", on_undefined)
    if n == k:
        return undefined("FStat_group", "every group has one user (no within-group degrees of freedom)",
                         on_undefined)
    if g.constant.all():
        return undefined("FStat_group", "every group is constant (within-group variance 0)", on_undefined)
    xbar = g.x.mean()
    v = (g.sizes * (g.means - xbar) ** 2).sum()
    dev = g.sorted_x - np.repeat(g.means, g.sizes.astype(np.int64))
    u = (dev ** 2).sum()
    return float((v / (k - 1)) / (u / (n - k)))


def _mean_shares(g: _Grouped, name: str, on_undefined: str):
    total = g.means.sum()
    if total == 0:
        return None, undefined(name, "every group has mean effectiveness 0 (no effectiveness shares)",
                               on_undefined)
    return g.means / total, None


@doc_filler(_DOCS)
@_nan_policy
def kl_group(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""KL: the divergence (base 2) of the groups' effectiveness shares from their size shares (lower is fairer).

    .. math::

        \mathrm{KL} = \sum_j p_j \log_2 \frac{p_j}{q_j}, \qquad
        p_j = \frac{\bar g_j}{\sum_{j'} \bar g_{j'}}, \quad q_j = \frac{|g_j|}{N}

    Terms with :math:`p_j = 0` are 0. Note the target: KL is 0 when each group's *mean*
    effectiveness is proportional to its *size*, not when all groups are equally served.
    Needs non-negative effectiveness. Range: :math:`[0, \infty)`. Undefined when every group mean is 0.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(kl_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.0992
    """
    check_on_undefined(on_undefined)
    g = _group(effectiveness, groups, nonnegative=True, measure="KL_group", on_undefined=on_undefined)
    p, bad = _mean_shares(g, "KL_group", on_undefined)
    if p is None:
        return bad
    q = g.sizes / g.sizes.sum()
    pos = p > 0
    return float((p[pos] * np.log2(p[pos] / q[pos])).sum())


@renamed_options("GCE_group")
@doc_filler(_DOCS)
@_nan_policy
def gce_group(effectiveness, *, groups, exponent: float = 2.0, lam: float = 0.95, c: float = 1e-4,
              on_undefined: str = "warn") -> float:
    r"""GCE: generalised cross entropy of the groups' smoothed effectiveness shares against uniform (lower is fairer).

    .. math::

        \mathrm{GCE} = -\frac{1}{\beta(1-\beta)}
        \Bigl[\sum_{j=1}^{N'} p_{ref}^{\beta}\, \tilde p_j^{\,1-\beta} - 1\Bigr],
        \qquad \tilde p_j = \frac{\hat p_j}{\sum_{j'} \hat p_{j'}}, \quad
        \hat p_j = \lambda p_j + (1-\lambda) c

    with :math:`p_j = \bar g_j / \sum_{j'} \bar g_{j'}` (as in :func:`kl_group`) and
    :math:`p_{ref} = 1/N'`. The bracket encloses the ``- 1`` (as in the published code; the
    thesis prints it outside, which would make uniform groups score -0.5). Defaults β = 2 (``exponent``),
    λ = 0.95, c = 1e-4. With β = 2, GCE = ½(Σ_j 1/(N'² p̃_j) − 1) ≥ 0, zero iff all group means
    are equal. A group with zero mean effectiveness adds about ½·Σp̂/(N'²(1−λ)c) (hundreds
    with these defaults), so GCE mostly counts such groups. Needs non-negative effectiveness. Range:
    :math:`[0, \infty)`. Undefined when every group mean is 0 (no shares).

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    exponent : float, default=2
        The GCE exponent β (not 0 or 1).
    lam : float in [0, 1], default=0.95
        Jelinek-Mercer weight λ of the shares.
    c : float >= 0, default=1e-4
        The smoothing constant.
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(gce_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.0333
    """
    check_on_undefined(on_undefined)
    for name, val in (("exponent", exponent), ("lam", lam), ("c", c)):
        if isinstance(val, bool) or not isinstance(val, numbers.Real) or not np.isfinite(val):
            raise TypeError(f"{name} must be a finite real number, got {val!r}.")
    if exponent in (0, 1):
        raise ValueError(f"exponent must differ from 0 and 1 (the formula divides by beta(1 - beta), beta = exponent), "
                         f"got {exponent}.")
    if not 0 <= lam <= 1:
        raise ValueError(f"lam must be in [0, 1], got {lam}.")
    if c < 0:
        raise ValueError(f"c must be >= 0, got {c}.")
    g = _group(effectiveness, groups, nonnegative=True, measure="GCE_group", on_undefined=on_undefined)
    p, bad = _mean_shares(g, "GCE_group", on_undefined)
    if p is None:
        return bad
    hat = lam * p + (1.0 - lam) * c
    tilde = hat / hat.sum()
    k = g.n_groups
    beta = exponent
    if beta > 1 and (tilde == 0).any():
        return float("inf")
    with np.errstate(divide="ignore"):
        inner = (k ** -beta * np.power(tilde, 1.0 - beta)).sum()
    return float(-(inner - 1.0) / (beta * (1.0 - beta)))


@doc_filler(_DOCS)
@_nan_policy
def atk_group(effectiveness, *, groups, epsilon: float = 0.5, on_undefined: str = "warn") -> float:
    r"""Atkinson between groups: the Atkinson index of the groups' equally-distributed equivalents (lower is fairer).

    Each group is summarised by its EDE, the power mean of order :math:`1-\varepsilon` of its
    users' effectiveness (users weighted equally), and the outer index weights the EDEs by group size,
    with the size-weighted mean in the denominator:

    .. math::

        f(g_j) = \Bigl(\tfrac{1}{|g_j|}\textstyle\sum_\ell x_{j,\ell}^{1-\varepsilon}\Bigr)^{\frac{1}{1-\varepsilon}},
        \qquad
        \mathrm{Atk}_{group} = 1 - \frac{\bigl(\sum_j \frac{|g_j|}{N}
        f(g_j)^{1-\varepsilon}\bigr)^{\frac{1}{1-\varepsilon}}}
        {\sum_j \frac{|g_j|}{N} f(g_j)}

    The size-weighted mean is what makes :func:`atkinson_decomposition` exact (an unweighted
    mean leaves a residual). ε = 1 uses geometric means. Needs non-negative effectiveness. Range:
    [0, 1]; 0 for all-zero effectiveness (the thesis's definition; the published code gives NaN).

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<epsilon>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(atk_group([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.0114
    """
    check_on_undefined(on_undefined)
    epsilon = _check_epsilon(epsilon)
    g = _group(effectiveness, groups, nonnegative=True, measure="Atk_group", on_undefined=on_undefined)
    return _atk_between(g, epsilon, on_undefined)


def _atk_between(g: _Grouped, epsilon: float, on_undefined: str) -> float:
    ede = _group_edes(g, epsilon)
    fbar = (g.sizes * ede).sum() / g.sizes.sum()
    if g.sums.sum() == 0:
        return 0.0
    if fbar == 0:
        return undefined("Atk_group", f"every group's equally-distributed equivalent is 0 (epsilon={epsilon} "
                         ">= 1 and every group has a zero score)", on_undefined)
    if (ede == ede[0]).all():
        return 0.0
    return float(1.0 - _power_mean(ede, g.sizes, epsilon) / fbar)


# ============================================================================ within groups and individual


@doc_filler(_DOCS)
@_nan_policy
def sd_within(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""SD within groups: the groups' population SDs weighted by their share of total effectiveness (lower is fairer).

    .. math::

        \mathrm{SD}_{within} = \sum_j s_j\, \mathrm{SD}(g_j), \qquad s_j = \frac{\sum_\ell x_{j,\ell}}{\sum_{i} x_i}

    This is *not* the classical variance decomposition (which weights by population share and
    adds a size-weighted between term): SD_within may exceed the individual SD. Groups with zero
    effectiveness weigh 0. Needs non-negative effectiveness. Range: [0, 0.5] for effectiveness in [0, 1]; 0 when
    every score is 0 (every group's SD is 0).

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(sd_within([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.3408
    """
    check_on_undefined(on_undefined)
    g = _group(effectiveness, groups, nonnegative=True, measure="SD_within", on_undefined=on_undefined)
    if g.sums.sum() == 0:
        return 0.0
    dev = g.sorted_x - np.repeat(g.means, g.sizes.astype(np.int64))
    sd = np.sqrt(np.add.reduceat(dev ** 2, g.starts) / g.sizes)
    sd = np.where(g.constant, 0.0, sd)
    return float((_shares(g) * sd).sum())


@doc_filler(_DOCS)
@_nan_policy
def gini_within(effectiveness, *, groups, on_undefined: str = "warn") -> float:
    r"""Gini within groups: the groups' Gini indices weighted by their share of total effectiveness (lower is fairer).

    .. math::

        \mathrm{Gini}_{within} = \sum_j s_j\, \mathrm{Gini}(g_j), \qquad s_j = \frac{\sum_\ell x_{j,\ell}}{\sum_{i} x_i}

    A group with zero total effectiveness has no Gini but weight 0: it is skipped (as in the
    published code). Not a decomposition of the individual Gini. Needs non-negative effectiveness.
    Range: [0, 1). Undefined when every effectiveness value is 0.

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(gini_within([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.4466
    """
    check_on_undefined(on_undefined)
    g = _group(effectiveness, groups, nonnegative=True, measure="Gini_within", on_undefined=on_undefined)
    if g.sums.sum() == 0:
        return undefined("Gini_within", "every score is 0", on_undefined)
    per_group = gini_segments(g.sorted_x, g.starts, g.sizes)          # values ascend within each group
    per_group = np.where(g.constant | (g.sums <= 0), 0.0, per_group)   # a zero group weighs 0 anyway
    return float((_shares(g) * per_group).sum())


@doc_filler(_DOCS)
@_nan_policy
def atk_within(effectiveness, *, groups, epsilon: float = 0.5, on_undefined: str = "warn") -> float:
    r"""Atkinson within groups: the groups' Atkinson indices weighted by their share of total effectiveness (lower is fairer).

    .. math::

        \mathrm{Atk}_{within} = \sum_j s_j\, \mathrm{Atk}(g_j)
        = 1 - \frac{1}{\bar x}\sum_j \frac{|g_j|}{N} f(g_j),
        \qquad \mathrm{Atk}(g_j) = 1 - \frac{f(g_j)}{\bar g_j}

    (:math:`f` is the EDE of :func:`atk_group`.) With these weights the decomposition of
    :func:`atkinson_decomposition` is exact. Needs non-negative effectiveness. Range: [0, 1]; 0 for
    all-zero effectiveness (the thesis defines the Atkinson index of all-zero values as 0).

    Parameters
    ----------
    <<effectiveness>>
    <<groups>>
    <<epsilon>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(atk_within([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3), 4)
    0.3365
    """
    check_on_undefined(on_undefined)
    epsilon = _check_epsilon(epsilon)
    g = _group(effectiveness, groups, nonnegative=True, measure="Atk_within", on_undefined=on_undefined)
    return _atk_within(g, epsilon)


def _atk_within(g: _Grouped, epsilon: float) -> float:
    if g.sums.sum() == 0:
        return 0.0
    ede = _group_edes(g, epsilon)
    pos = g.means > 0
    atk = np.zeros_like(g.means)
    atk[pos] = 1.0 - ede[pos] / g.means[pos]
    atk = np.where(g.constant, 0.0, atk)
    return float((_shares(g) * atk).sum())


@doc_filler(_DOCS)
@_nan_policy
def atk_ind(effectiveness, *, epsilon: float = 0.5, on_undefined: str = "warn") -> float:
    r"""Atkinson index of the individual users' effectiveness (lower is fairer).

    .. math::

        \mathrm{Atk}_{ind} = 1 - \frac{1}{\bar x}
        \Bigl(\frac1N \sum_{i=1}^N x_i^{1-\varepsilon}\Bigr)^{\frac{1}{1-\varepsilon}}

    ε = 0.5 in the thesis; ε = 1 uses the geometric mean. Needs non-negative effectiveness. Range:
    [0, 1]; 0 when every effectiveness value is 0 (the thesis's definition; the published code gives NaN) and
    when every value is the same.

    Parameters
    ----------
    <<effectiveness>>
    <<epsilon>>
    <<on_undefined>>

    Returns
    -------
    float

    Examples
    --------
    >>> round(atk_ind([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4]), 4)
    0.3441
    >>> atk_ind([0.0, 0.0])
    0.0
    """
    check_on_undefined(on_undefined)
    epsilon = _check_epsilon(epsilon)
    x = check_effectiveness(effectiveness, nonnegative=True, measure="Atk_ind")
    bad = undefined_users("Atk_ind", x, on_undefined)
    if bad is not None:
        return bad
    return _atk_ind(x, epsilon)


def _atk_ind(x: np.ndarray, epsilon: float) -> float:
    mean = x.mean()
    if mean == 0 or x.min() == x.max():
        return 0.0
    return float(1.0 - _power_mean(x, np.ones_like(x), epsilon) / mean)


@dataclass(frozen=True)
class AtkinsonDecomposition:
    """The three Atkinson indices of one grouping: ``1 - ind == (1 - between) * (1 - within)``.

    >>> d = AtkinsonDecomposition(individual=0.28, between=0.1, within=0.2)
    >>> round(d.residual, 12)
    0.0
    """

    individual: float
    between: float
    within: float

    @property
    def residual(self) -> float:
        """``(1 - between)(1 - within) - (1 - individual)``: 0 up to rounding."""
        return (1.0 - self.between) * (1.0 - self.within) - (1.0 - self.individual)


@_nan_policy
def atkinson_decomposition(effectiveness, *, groups, epsilon: float = 0.5,
                           on_undefined: str = "warn") -> AtkinsonDecomposition:
    r"""Atk_ind, Atk_group and Atk_within together, with the exact identity between them.

    .. math::

        1 - \mathrm{Atk}_{ind} = (1 - \mathrm{Atk}_{group})\,(1 - \mathrm{Atk}_{within})

    Proof sketch: with :math:`f_{all}` the EDE of all users,
    :math:`f_{all}^{1-\varepsilon} = \sum_j \frac{|g_j|}{N} f(g_j)^{1-\varepsilon}`, so
    :math:`1-\mathrm{Atk}_{group} = f_{all}/\bar f` with :math:`\bar f = \sum_j \frac{|g_j|}{N} f(g_j)`,
    and :math:`1-\mathrm{Atk}_{within} = \bar f/\bar x`; their product is
    :math:`f_{all}/\bar x = 1-\mathrm{Atk}_{ind}`.

    Parameters
    ----------
    effectiveness : array-like of float, shape (n_users,)
        One non-negative effectiveness value per user; NaN follows ``on_undefined``.
    groups : array-like, shape (n_users,), or pandas.DataFrame
        One group label per user, or one column per sensitive attribute.
    epsilon : float > 0, default=0.5
        Atkinson's inequality aversion.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        The undefined-value policy.

    Returns
    -------
    AtkinsonDecomposition
        Fields ``individual``, ``between``, ``within`` (floats) and the property ``residual``.

    Examples
    --------
    >>> d = atkinson_decomposition([0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4], groups=[0] * 3 + [1] * 4 + [2] * 3)
    >>> round(d.individual, 6), round(d.between, 4), round(d.within, 4), abs(d.residual) < 1e-12
    (0.344074, 0.0114, 0.3365, True)
    """
    check_on_undefined(on_undefined)
    epsilon = _check_epsilon(epsilon)
    g = _group(effectiveness, groups, nonnegative=True, measure="Atkinson decomposition", on_undefined=on_undefined)
    return AtkinsonDecomposition(individual=_atk_ind(g.x, epsilon), between=_atk_between(g, epsilon, on_undefined),
                                 within=_atk_within(g, epsilon))


# ============================================================================ all at once


#: Canonical name -> function ``f(effectiveness, *, groups, **options)`` (``Atk_ind`` takes no ``groups``).
GROUP_MEASURES = {
    "Min_group": min_group,
    "Range_group": range_group,
    "SD_group": sd_group,
    "MAD_group": mad_group,
    "Gini_group": gini_group,
    "CV_group": cv_group,
    "FStat_group": fstat_group,
    "KL_group": kl_group,
    "GCE_group": gce_group,
    "Atk_group": atk_group,
    "SD_within": sd_within,
    "Gini_within": gini_within,
    "Atk_within": atk_within,
    "Atk_ind": atk_ind,
}

#: Which keyword options each measure takes besides ``groups`` (``on_undefined`` included).
OPTIONS = {name: tuple(p.name for p in inspect.signature(f).parameters.values()
                       if p.kind is p.KEYWORD_ONLY and p.name != "groups")
           for name, f in GROUP_MEASURES.items()}

#: The range of each measure for effectiveness in [0, 1] (CV is at most sqrt(N' - 1); Gini at most (N - 1)/N).
RANGES = {
    "Min_group": (0.0, 1.0), "Range_group": (0.0, 1.0), "SD_group": (0.0, 0.5), "MAD_group": (0.0, 1.0),
    "Gini_group": (0.0, 1.0), "CV_group": (0.0, math.inf), "FStat_group": (0.0, math.inf),
    "KL_group": (0.0, math.inf), "GCE_group": (0.0, math.inf), "Atk_group": (0.0, 1.0),
    "SD_within": (0.0, 0.5), "Gini_within": (0.0, 1.0), "Atk_within": (0.0, 1.0), "Atk_ind": (0.0, 1.0),
}

#: Higher is fairer for these; lower is fairer for every other measure here.
HIGHER_IS_FAIRER = frozenset({"Min_group"})
