"""Family-independent entry points to the achievable bounds and the exhaustive searches.

:func:`achievable` and :func:`exhaustive` take any registered measure name and dispatch through
its registry record to the part that owns it (Part I: :mod:`recfair.item_exposure.bounds` and
:mod:`recfair.item_exposure.search`; Part II: :mod:`recfair.joint.bounds`). The closed forms
themselves live in those modules.

>>> achievable("Gini_ori", 2, 4, 2)
Bounds(most_unfair=0.5, most_fair=0.0)
>>> exhaustive("Jain_ori", 2, 3, 1)
Extremes(low=0.3333333333333333, high=0.6666666666666666)
"""

from __future__ import annotations

from .registry import get
from .spec import Bounds, Extremes

__all__ = ["Bounds", "Extremes", "achievable", "exhaustive"]


def achievable(measure: str, m: int, n: int, k: int, **params) -> Bounds:
    """Scores of ``measure`` at its most unfair and most fair achievable recommendations @k.

    Parameters
    ----------
    measure : str
        A canonical measure name with achievable bounds (``REGISTRY[name].achievable`` is set):
        every Part I measure, and the joint measures IAA, IFD and II-F (ori and our).
    m, n, k : int
        Users, catalogue size, list length (``1 <= k <= n``).
    **params
        The measure's parameters (e.g. ``base``, ``beta``, ``gamma``); for the joint measures
        ``n_relevant``, each user's number of relevant items.

    Returns
    -------
    Bounds
        ``Bounds(most_unfair, most_fair)``; which ends are exact is documented by the owning
        part (:func:`recfair.item_exposure.bounds.achievable`, :func:`recfair.joint.bounds.achievable`).

    Examples
    --------
    >>> achievable("Jain_ori", 6, 3, 2)
    Bounds(most_unfair=0.6666666666666666, most_fair=1.0)
    >>> achievable("IAA_our", 2, 10, 2, n_relevant=[1, 3])
    Bounds(most_unfair=1.0, most_fair=0.0)
    """
    spec = get(measure)
    if spec.achievable is None:
        why = spec.no_bound
        raise ValueError(f"{measure} has {why}." if why else
                         f"{measure} has no achievable bounds (see REGISTRY[{measure!r}].undefined and its chapter).")
    return spec.achievable(m, n, k, **params)


def exhaustive(measure: str, m: int, n: int, k: int, **params) -> Extremes:
    """Exact smallest and largest value of ``measure`` over every recommendation at tiny sizes.

    Parameters
    ----------
    measure : str
        A canonical measure name whose record has an exhaustive search (every Part I and Part II
        measure).
    m, n, k : int
        Users, catalogue size, list length.
    **params
        Passed to the part's search: the measure's parameters, ``max_configurations``,
        ``rounds`` (Part I multi-round measures), ``relevant`` (joint measures: each user's
        relevant items).

    Returns
    -------
    Extremes
        ``Extremes(low, high)``, NaN where the measure is undefined for every recommendation.

    Examples
    --------
    >>> exhaustive("FSat_ori", 6, 3, 2)                      # below the thesis's k/n = 2/3
    Extremes(low=0.3333333333333333, high=1.0)
    >>> exhaustive("IAA_our", 1, 4, 2, relevant=[[0, 1]])    # corrected IAA spans [0, 1]
    Extremes(low=0.0, high=1.0)
    """
    spec = get(measure)
    if spec.exhaustive is None:
        raise ValueError(f"{measure} has no exhaustive search.")
    return spec.exhaustive(m, n, k, **params)
