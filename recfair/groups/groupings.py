r"""Ways of grouping users by their sensitive attributes (thesis Paper 6), and the paper's attribute mappings.

With attributes :math:`A` (e.g. gender, age, occupation) every non-empty subset
:math:`S \subseteq A` defines a grouping: the users are grouped by the intersection of their
values on :math:`S`, and only non-empty groups exist. :math:`\mathrm{Grp}(a)` is the mean of a
between-group measure over the :math:`\binom{|A|}{a}` groupings with :math:`|S| = a`.

The MovieLens mappings follow the paper's grouping of ML-1M (gender as is; age 18–24, 25–49,
≥ 50, minors removed; occupation working / non-working, "other / not specified" removed); they
accept ML-1M's integer codes and ML-100K's raw ages and occupation names alike.

>>> import pandas as pd
>>> users = pd.DataFrame({"gender": ["M", "F", "M", "F"], "age": [23, 35, 61, 30],
...                       "occupation": ["student", "engineer", "retired", "writer"]})
>>> movielens_groups(users).to_dict("list")  # doctest: +NORMALIZE_WHITESPACE
{'gender': ['M', 'F', 'M', 'F'], 'age': ['18-24', '25-49', '50+', '25-49'],
 'occupation': ['non-working', 'working', 'non-working', 'working']}
"""

from __future__ import annotations

import itertools
import numbers

import numpy as np
import pandas as pd

from .._validation import check_effectiveness
from .measures import GROUP_MEASURES, OPTIONS, encode_groups

__all__ = [
    "attribute_subsets", "all_groupings", "n_groups", "by_grouping", "grp", "stairs", "ml_age_group",
    "ml_occupation_group", "movielens_groups", "AGE_GROUPS", "OCCUPATION_GROUPS", "ML1M_NON_WORKING",
    "ML100K_NON_WORKING",
]

#: The paper's age groups (ONS classification), youngest first.
AGE_GROUPS = ("18-24", "25-49", "50+")
#: The paper's occupation groups.
OCCUPATION_GROUPS = ("non-working", "working")
#: ML-1M occupation codes of non-working users: college/grad student, homemaker, K-12 student, retired, unemployed.
ML1M_NON_WORKING = frozenset({4, 9, 10, 13, 19})
#: ML-1M's "other or not specified" code (removed).
ML1M_UNSPECIFIED = frozenset({0})
#: ML-100K occupation names of non-working users ("none" read as unemployed).
ML100K_NON_WORKING = frozenset({"student", "homemaker", "retired", "none"})
#: ML-100K's occupation names without information (removed).
ML100K_UNSPECIFIED = frozenset({"other"})


# ============================================================================ groupings


def attribute_subsets(user_attributes, *, sizes=None) -> list[tuple]:
    """Every non-empty subset of the attributes, by size then in the attributes' order.

    Parameters
    ----------
    user_attributes : sequence of hashable, or pandas.DataFrame (its columns)
    sizes : int or sequence of int, optional
        Keep only subsets of these sizes.

    Returns
    -------
    list of tuple

    Examples
    --------
    >>> attribute_subsets(["gender", "age", "occupation"])  # doctest: +NORMALIZE_WHITESPACE
    [('gender',), ('age',), ('occupation',), ('gender', 'age'), ('gender', 'occupation'),
     ('age', 'occupation'), ('gender', 'age', 'occupation')]
    >>> attribute_subsets("abc", sizes=2)
    [('a', 'b'), ('a', 'c'), ('b', 'c')]
    """
    names = list(user_attributes.columns) if isinstance(user_attributes, pd.DataFrame) else list(user_attributes)
    if not names:
        raise ValueError("attributes is empty: give at least one sensitive attribute.")
    if len(set(names)) != len(names):
        raise ValueError(f"attributes has repeated names: {names}.")
    if sizes is None:
        sizes = range(1, len(names) + 1)
    elif isinstance(sizes, numbers.Integral):
        sizes = [sizes]
    out = []
    for a in sizes:
        if isinstance(a, bool) or not isinstance(a, numbers.Integral) or not 1 <= a <= len(names):
            raise ValueError(f"subset sizes must be integers in [1, {len(names)}], got {a!r}.")
        out.extend(itertools.combinations(names, int(a)))
    return out


def _check_frame(attributes) -> pd.DataFrame:
    if not isinstance(attributes, pd.DataFrame):
        raise TypeError(f"groups must be a pandas DataFrame (one column per sensitive attribute), "
                        f"got {type(attributes).__name__}.")
    if attributes.shape[1] == 0:
        raise ValueError("attributes has no columns: give one column per sensitive attribute.")
    return attributes


def all_groupings(groups, *, sizes=None) -> dict[tuple, pd.DataFrame]:
    """Every way of grouping the users: attribute subset -> the DataFrame of those columns.

    Each value can be passed as ``groups`` to any measure of :mod:`recfair.groups`.

    Parameters
    ----------
    groups : pandas.DataFrame
        One row per user, one column per sensitive attribute.
    sizes : int or sequence of int, optional
        Only subsets of these sizes.

    Returns
    -------
    dict of tuple to pandas.DataFrame

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"g": ["M", "F"], "a": [1, 2]})
    >>> list(all_groupings(frame))
    [('g',), ('a',), ('g', 'a')]
    """
    frame = _check_frame(groups)
    return {subset: frame[list(subset)] for subset in attribute_subsets(frame, sizes=sizes)}


def n_groups(groups) -> int:
    """The number of non-empty groups (intersections) of a grouping.

    Parameters
    ----------
    groups : array-like, shape (n_users,), or pandas.DataFrame
        One group label per user, or one column per sensitive attribute.

    Returns
    -------
    int

    Examples
    --------
    >>> import pandas as pd
    >>> n_groups(pd.DataFrame({"g": ["M", "F", "M"], "a": [1, 1, 1]}))
    2
    """
    return len(encode_groups(groups)[1])


def _measure(measure):
    if isinstance(measure, str):
        if measure not in GROUP_MEASURES:
            raise ValueError(f"unknown group measure {measure!r}; known: {', '.join(GROUP_MEASURES)}.")
        return GROUP_MEASURES[measure]
    if not callable(measure):
        raise TypeError(f"measure must be a name from GROUP_MEASURES or a function f(effectiveness, *, groups), "
                        f"got {type(measure).__name__}.")
    return measure


def by_grouping(effectiveness, *, groups, measure, sizes=None, **options) -> dict[tuple, float]:
    """A measure under every way of grouping the users: attribute subset -> value.

    Parameters
    ----------
    effectiveness : array-like of float, shape (n_users,)
        One effectiveness value per user.
    groups : pandas.DataFrame
        One row per user (in the order of ``effectiveness``), one column per sensitive attribute.
    measure : str or callable
        A name from :data:`~recfair.groups.GROUP_MEASURES` or any ``f(effectiveness, *, groups, **options)``.
    sizes : int or sequence of int, optional
        Only subsets of these sizes.
    **options
        Passed to the measure (e.g. ``epsilon``, ``on_undefined``).

    Returns
    -------
    dict of tuple to float

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"g": ["M", "M", "F", "F"], "a": [1, 2, 1, 2]})
    >>> out = by_grouping([0.1, 0.3, 0.5, 0.9], groups=frame, measure="Range_group")
    >>> {k: round(v, 3) for k, v in out.items()}
    {('g',): 0.5, ('a',): 0.3, ('g', 'a'): 0.8}
    """
    f = _measure(measure)
    x = check_effectiveness(effectiveness)
    frame = _check_frame(groups)
    if len(frame) != x.size:
        raise ValueError(f"groups has {len(frame)} rows but effectiveness has {x.size} users: one row per user.")
    return {subset: float(f(x, groups=sub, **options)) for subset, sub in all_groupings(frame, sizes=sizes).items()}


def grp(effectiveness, *, groups, measure, **options) -> dict[int, float]:
    r"""Grp(a): the mean of a measure over every grouping by :math:`a` attributes, for each :math:`a`.

    .. math::

        \mathrm{Grp}(a) = \binom{|A|}{a}^{-1} \sum_{S \subseteq A,\ |S| = a} X(\text{groups by } S)

    Range: the measure's.

    Parameters
    ----------
    effectiveness : array-like of float, shape (n_users,)
        One effectiveness value per user.
    groups : pandas.DataFrame
        One row per user, one column per sensitive attribute :math:`A`.
    measure : str or callable
        A name from :data:`~recfair.groups.GROUP_MEASURES` or any ``f(effectiveness, *, groups, **options)``.
    **options
        Passed to the measure.

    Returns
    -------
    dict
        ``{1: Grp(1), 2: Grp(2), ..., |A|: Grp(|A|)}``.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"g": ["M", "M", "F", "F"], "a": [1, 2, 1, 2]})
    >>> {a: round(v, 3) for a, v in grp([0.1, 0.3, 0.5, 0.9], groups=frame, measure="Range_group").items()}
    {1: 0.4, 2: 0.8}
    """
    values = by_grouping(effectiveness, groups=groups, measure=measure, **options)
    out: dict[int, list[float]] = {}
    for subset, value in values.items():
        out.setdefault(len(subset), []).append(value)
    return {a: float(np.mean(v)) for a, v in out.items()}


def stairs(effectiveness, *, groups, measures=("SD_group", "SD_within", "Gini_group", "Gini_within", "Atk_group",
                                               "Atk_within"), **options) -> pd.DataFrame:
    """One row per grouping: its attributes, its number of groups and the measures (the paper's "stairs").

    Rows are sorted by the number of groups; the individual values (``SD_ind`` etc.) do not depend
    on the grouping and are left to the caller.

    Parameters
    ----------
    effectiveness : array-like of float, shape (n_users,)
        One effectiveness value per user.
    groups : pandas.DataFrame
        One row per user, one column per sensitive attribute.
    measures : str or sequence of str
        Names from :data:`~recfair.groups.GROUP_MEASURES`.
    **options
        Passed to the measures that take them.

    Returns
    -------
    pandas.DataFrame
        Columns ``grouping``, ``n_attributes``, ``n_groups`` and one per measure.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"g": ["M", "M", "F", "F"], "a": [1, 2, 1, 2]})
    >>> table = stairs([0.1, 0.3, 0.5, 0.9], groups=frame, measures=["Range_group"])
    >>> table[["grouping", "n_groups", "Range_group"]].round(2)
      grouping  n_groups  Range_group
    0        g         2          0.5
    1        a         2          0.3
    2      g+a         4          0.8
    """
    x = check_effectiveness(effectiveness)
    frame = _check_frame(groups)
    if len(frame) != x.size:
        raise ValueError(f"groups has {len(frame)} rows but effectiveness has {x.size} users: one row per user.")
    if isinstance(measures, str):
        measures = [measures]
    rows = []
    for subset, sub in all_groupings(frame).items():
        row = {"grouping": "+".join(map(str, subset)), "n_attributes": len(subset), "n_groups": n_groups(sub)}
        for name in measures:
            row[name] = float(_measure(name)(x, **({} if name == "Atk_ind" else {"groups": sub}),
                                             **_options_for(name, options)))
        rows.append(row)
    table = pd.DataFrame(rows)
    return table.sort_values(["n_groups", "n_attributes"], kind="stable").reset_index(drop=True)


def _options_for(name, options):
    return {k: v for k, v in options.items() if k in OPTIONS.get(name, ())}


# ============================================================================ the paper's attribute mappings


def ml_age_group(age) -> pd.Series:
    """The paper's age groups for MovieLens: 18-24, 25-49, 50+; minors (and missing ages) give NaN.

    Works on ML-100K's ages in years and on ML-1M's age codes alike (1 = under 18, 18 = 18-24,
    25/35/45 = 25-49, 50/56 = 50+), since each code is the lower end of its range.

    Parameters
    ----------
    age : array-like or pandas.Series
        Ages in years (ML-100K) or ML-1M's age codes.

    Returns
    -------
    pandas.Series of str (NaN for minors and missing ages)

    Examples
    --------
    >>> ml_age_group([1, 18, 25, 35, 45, 50, 56]).tolist()
    [nan, '18-24', '25-49', '25-49', '25-49', '50+', '50+']
    >>> ml_age_group([7, 24, 49, 73]).tolist()
    [nan, '18-24', '25-49', '50+']
    """
    index = age.index if isinstance(age, pd.Series) else None
    values = pd.to_numeric(pd.Series(np.asarray(age), index=index), errors="coerce")
    out = pd.Series(np.full(len(values), np.nan, dtype=object), index=values.index, name="age")
    out[(values >= 18) & (values < 25)] = AGE_GROUPS[0]
    out[(values >= 25) & (values < 50)] = AGE_GROUPS[1]
    out[values >= 50] = AGE_GROUPS[2]
    return out


def ml_occupation_group(occupation) -> pd.Series:
    """The paper's occupation groups for MovieLens: non-working or working; "other" gives NaN.

    Non-working: students (ML-1M codes 4 and 10), homemakers (9), retired (13) and unemployed
    (19; ML-100K's "none"). Unspecified (ML-1M code 0, ML-100K's "other") and missing values give
    NaN. Every other occupation is working. Integer codes are read as ML-1M's, strings as
    ML-100K's names (case-insensitive).

    Parameters
    ----------
    occupation : array-like or pandas.Series
        ML-1M codes (int) or ML-100K names (str).

    Returns
    -------
    pandas.Series of str (NaN for unspecified and missing)

    Examples
    --------
    >>> ml_occupation_group([0, 4, 7, 10, 19, 20]).tolist()
    [nan, 'non-working', 'working', 'non-working', 'non-working', 'working']
    >>> ml_occupation_group(["student", "Other", "none", "doctor"]).tolist()
    ['non-working', nan, 'non-working', 'working']
    """
    index = occupation.index if isinstance(occupation, pd.Series) else None
    values = pd.Series(np.asarray(occupation, dtype=object), index=index)
    out = []
    for v in values:
        if v is None or (isinstance(v, float) and np.isnan(v)):
            out.append(np.nan)
        elif isinstance(v, (numbers.Integral, np.integer)) and not isinstance(v, bool):
            code = int(v)
            if not 0 <= code <= 20:
                raise ValueError(f"ML-1M occupation codes are 0..20, got {code}.")
            out.append(np.nan if code in ML1M_UNSPECIFIED
                       else OCCUPATION_GROUPS[0] if code in ML1M_NON_WORKING else OCCUPATION_GROUPS[1])
        elif isinstance(v, str):
            name = v.strip().lower()
            out.append(np.nan if name in ML100K_UNSPECIFIED or not name
                       else OCCUPATION_GROUPS[0] if name in ML100K_NON_WORKING else OCCUPATION_GROUPS[1])
        else:
            raise TypeError(f"occupation values must be ML-1M integer codes or ML-100K names, got {v!r}.")
    return pd.Series(out, index=values.index, name="occupation", dtype=object)


def movielens_groups(users, *, drop: bool = True) -> pd.DataFrame:
    """The paper's three sensitive attributes of MovieLens users: gender, age group, occupation group.

    Parameters
    ----------
    users : pandas.DataFrame
        With columns ``gender``, ``age`` and ``occupation`` (e.g. ``recfair.datasets.load("ml-100k").users``).
    drop : bool
        Drop the users the paper removes (minors, unspecified occupation, missing gender); with
        ``False`` they keep NaN labels.

    Returns
    -------
    pandas.DataFrame
        Same index as ``users`` (minus the dropped rows), columns ``gender``, ``age``, ``occupation``.

    Examples
    --------
    >>> import pandas as pd
    >>> users = pd.DataFrame({"gender": ["M", "F", "F"], "age": [16, 30, 52], "occupation": [10, 0, 13]})
    >>> movielens_groups(users, drop=False).to_dict("list")
    {'gender': ['M', 'F', 'F'], 'age': [nan, '25-49', '50+'], 'occupation': ['non-working', nan, 'non-working']}
    >>> len(movielens_groups(users))
    1
    """
    if not isinstance(users, pd.DataFrame):
        raise TypeError(f"users must be a pandas DataFrame, got {type(users).__name__}.")
    missing = [c for c in ("gender", "age", "occupation") if c not in users.columns]
    if missing:
        raise ValueError(f"users lacks column(s) {missing}; it needs gender, age and occupation.")
    gender = users["gender"].astype(object).where(users["gender"].isin(["M", "F"]), np.nan)
    out = pd.DataFrame({"gender": gender, "age": ml_age_group(users["age"]),
                        "occupation": ml_occupation_group(users["occupation"])}, index=users.index)
    return out.dropna() if drop else out
