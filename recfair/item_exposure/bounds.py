r"""Achievable bounds of the Paper 1 item-exposure measures, in closed form and by enumeration.

Plain Python and NumPy (sympy is never imported here; ``recfair/derivations`` and
``tests/test_derivations.py`` check these closed forms symbolically). Arguments always come
in the order ``(m, n, k)``: number of users, catalogue size, list length, with
``m >= 1`` and ``1 <= k <= n``.

Throughout, :math:`km = nf + r` with :math:`f = \lfloor km/n \rfloor` and
:math:`r = km \bmod n` (``f, r = divmod(k * m, n)``).

*Most unfair* and *most fair* name the ends of a range by fairness, never by min/max.
The thesis's most unfair recommendation gives the same ``k`` items to every user; its most
fair one spreads the ``km`` slots as evenly as possible (``n - r`` items ``f`` times and
``r`` items ``f + 1`` times; round-robin lists ``(u*k + j) % n`` do this).

:func:`achievable` returns those scores for a measure name;
:func:`recfair.item_exposure.search.exhaustive` finds the exact extremes of a measure by enumerating every recommendation at tiny ``(m, n, k)``,
which is how the tests confirm the closed forms and locate the thesis's two slips: the
FSat minimum (:func:`fsat_true_minimum`) and Gini-w's unknown fairest value when
``km > n``.

>>> round(jain_most_fair(3, 10, 3), 4)   # km = 9 < n: only 9 of the 10 items can be shown
0.9
>>> achievable("Gini_ori", 2, 4, 2)
Bounds(most_unfair=0.5, most_fair=0.0)
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from .._validation import (check_alpha, check_beta, check_positive_int, ln_of_base, renamed_option_message,
                           renamed_options)
from ..examination import check_gamma
from ..examination import dcg as _dcg_weights
from ..spec import Bounds

__all__ = [
    "jain_most_unfair", "jain_most_fair", "qf_most_unfair", "qf_most_fair",
    "ent_most_unfair", "ent_most_fair", "gini_most_unfair", "gini_most_fair",
    "gini_w_most_unfair", "gini_w_most_fair", "fsat_most_unfair", "fsat_most_fair",
    "fsat_true_minimum", "vocd_upper_bound", "iid_single_round", "random_rbp_exposure",
    "achievable",
]


# --------------------------------------------------------------------------- helpers

def _mnk(m, n, k) -> tuple[int, int, int]:
    m = check_positive_int(m, "m")
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k")
    if k > n:
        raise ValueError(f"k={k} exceeds n={n}: a top-k list cannot hold more items than exist.")
    return m, n, k


def _dcg_c(k: int) -> float:
    r""":math:`C_k = \sum_\ell (2\ell-1) w_\ell / \sum_\ell w_\ell` with DCG weights :math:`w_\ell`."""
    w = _dcg_weights(np.arange(1, k + 1))
    return float(((2.0 * np.arange(1, k + 1) - 1.0) * w).sum() / w.sum())


# --------------------------------------------------------------------------- Jain, QF

def jain_most_unfair(m: int, n: int, k: int) -> float:
    """Jain's index when every user gets the same ``k`` items: ``k / n`` (also its true minimum).

    >>> jain_most_unfair(5, 10, 2)
    0.2
    """
    m, n, k = _mnk(m, n, k)
    return k / n


def jain_most_fair(m: int, n: int, k: int) -> float:
    r"""Jain's index of the balanced counts: :math:`\frac{(km)^2}{n(nf^2 + r(2f+1))}` (Paper 1, Resolving Limitations: Jain_max).

    Equals ``km / n`` when ``km < n`` and 1 when ``n`` divides ``km``; it is the true maximum.

    >>> jain_most_fair(2, 3, 2)   # counts (2, 1, 1)
    0.8888888888888888
    """
    m, n, k = _mnk(m, n, k)
    f, r = divmod(k * m, n)
    return (k * m) ** 2 / (n * (n * f * f + r * (2 * f + 1)))


def qf_most_unfair(m: int, n: int, k: int) -> float:
    """Qualification fairness (coverage) of the same ``k`` items for everyone: ``k / n``.

    >>> qf_most_unfair(5, 10, 2)
    0.2
    """
    m, n, k = _mnk(m, n, k)
    return k / n


def qf_most_fair(m: int, n: int, k: int) -> float:
    """Largest coverage: ``min(km, n) / n``.

    >>> qf_most_fair(2, 10, 3), qf_most_fair(5, 10, 3)
    (0.6, 1.0)
    """
    m, n, k = _mnk(m, n, k)
    return min(k * m, n) / n


# --------------------------------------------------------------------------- entropy

@renamed_options("Ent_ori")
def ent_most_unfair(m: int, n: int, k: int, *, log_base=None) -> float:
    r"""Entropy of the same ``k`` items for everyone: :math:`\log_b k` (base ``n`` by default).

    The original entropy is undefined (log 0) at that recommendation when ``k < n``; the
    value is the one of :func:`recfair.item_entropy_defined`, which sums over shown items.

    >>> round(ent_most_unfair(1859, 2823, 10), 6)   # Lastfm, base n
    0.289795
    """
    m, n, k = _mnk(m, n, k)
    return math.log(k) / ln_of_base(log_base, n)


@renamed_options("Ent_ori")
def ent_most_fair(m: int, n: int, k: int, *, log_base=None) -> float:
    r"""Entropy of the balanced counts (Paper 1, Resolving Limitations: Ent_max): base ``n`` by default.

    .. math::

        -(n - r)\,\tfrac{f}{km}\log\tfrac{f}{km} - r\,\tfrac{f+1}{km}\log\tfrac{f+1}{km}
        \quad (km \ge n), \qquad \log km \quad (km < n).

    It equals :math:`\log n` when ``n`` divides ``km``.

    >>> round(ent_most_fair(1859, 2823, 10), 6)   # Lastfm, base n
    0.999644
    """
    m, n, k = _mnk(m, n, k)
    ln_b = ln_of_base(log_base, n)
    km = k * m
    f, r = divmod(km, n)
    if f == 0:                       # km < n: km items once each; avoids 0 log 0
        return math.log(km) / ln_b
    value = -(n - r) * (f / km) * math.log(f / km)
    if r:
        value -= r * ((f + 1) / km) * math.log((f + 1) / km)
    return value / ln_b


# --------------------------------------------------------------------------- Gini, Gini-w

def gini_most_unfair(m: int, n: int, k: int) -> float:
    """Gini index of the same ``k`` items for everyone: ``1 - k / n`` (also its true maximum).

    >>> gini_most_unfair(3, 4, 1)
    0.75
    """
    m, n, k = _mnk(m, n, k)
    return 1.0 - k / n


def gini_most_fair(m: int, n: int, k: int) -> float:
    r"""Gini index of the balanced counts: :math:`\frac{(n-r)\,r}{kmn}` (Paper 1, Resolving Limitations: Gini_min).

    0 when ``n`` divides ``km``; ``1 - km/n`` when ``km < n`` (the thesis's text says
    ``km > n`` there, a slip).

    >>> gini_most_fair(2, 3, 2)   # counts (2, 1, 1)
    0.16666666666666666
    """
    m, n, k = _mnk(m, n, k)
    f, r = divmod(k * m, n)
    return (n - r) * r / (k * m * n)


def gini_w_most_unfair(m: int, n: int, k: int) -> float:
    r"""DCG-weighted Gini of the same ranked list for everyone (Paper 1, Resolving Limitations: Gini-w_max).

    .. math::

        \frac{\sum_{\ell=1}^{k}(n-2\ell+1)\,w_\ell}{n\sum_{\ell=1}^{k} w_\ell}
        = 1 - \frac{C_k}{n}, \qquad w_\ell = \frac{1}{\log_2(\ell+1)},\;
        C_k = \frac{\sum_\ell (2\ell-1)\,w_\ell}{\sum_\ell w_\ell}.

    It does not depend on ``m``. It is the true maximum (checked by :func:`exhaustive`).

    >>> round(gini_w_most_unfair(2, 3, 3), 7)
    0.1564262
    """
    m, n, k = _mnk(m, n, k)
    return 1.0 - _dcg_c(k) / n


def gini_w_most_fair(m: int, n: int, k: int) -> float:
    r"""DCG-weighted Gini when all ``km`` slots hold distinct items (Paper 1, Resolving Limitations: Gini-w_min): ``km <= n`` only.

    .. math::

        \frac{\sum_{\ell=1}^{k}\sum_{j=n-\ell m+1}^{n-\ell m+m}(2j-n-1)\,w_\ell}{mn\sum_{\ell=1}^{k}w_\ell}
        = 1 - \frac{m\,C_k}{n}.

    It is positive even at ``km = n``. For ``km > n`` the fairest value has no closed form
    (C4) and the thesis rescales Gini-w with 0 instead; this function then raises.

    >>> round(gini_w_most_fair(2, 4, 2), 6)
    0.113147
    >>> gini_w_most_fair(2, 3, 2)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: gini_w_most_fair needs km <= n (here km=4 > n=3): ...
    """
    m, n, k = _mnk(m, n, k)
    if k * m > n:
        raise ValueError(
            f"gini_w_most_fair needs km <= n (here km={k * m} > n={n}): the fairest DCG-weighted Gini has "
            "no closed form then (C4); the thesis's correction uses 0 in its place."
        )
    return 1.0 - m * _dcg_c(k) / n


# --------------------------------------------------------------------------- FSat

def fsat_most_unfair(m: int, n: int, k: int) -> float:
    """The thesis's most unfair FSat, ``k / n`` (Paper 1's table of achievable scores), used by the correction.

    It is FSat of the same ``k`` items for everyone when ``km >= n``. It is *not* the
    true minimum (see :func:`fsat_true_minimum`), and when ``km < n`` every list scores 1.

    >>> fsat_most_unfair(6, 3, 2)
    0.6666666666666666
    """
    m, n, k = _mnk(m, n, k)
    return k / n


def fsat_most_fair(m: int, n: int, k: int) -> float:
    """Largest FSat: 1 (every item reaches its maximin share with the balanced counts).

    >>> fsat_most_fair(6, 3, 2)
    1.0
    """
    _mnk(m, n, k)
    return 1.0


def fsat_true_minimum(m: int, n: int, k: int) -> float:
    r"""The true minimum of the original FSat, :math:`s_{\min}/n`, over all top-k recommendations.

    With ``f = km // n >= 1``, an item is satisfied iff its count is at least ``f``. Counts
    ``c_i <= m`` summing to ``km`` are exactly the realisable ones, so the fewest satisfied
    items is the smallest ``s`` with :math:`s\,m + (n-s)(f-1) \ge km`:

    .. math::

        s_{\min} = \left\lceil \frac{km - n(f-1)}{m - f + 1} \right\rceil
                 = \left\lceil \frac{n + r}{m - f + 1} \right\rceil .

    When ``km < n`` (``f = 0``) every item is satisfied and the minimum is 1 (always-fair).
    The thesis's value ``k / n`` is larger whenever ``s_min < k``, so the corrected FSat can
    be negative.

    >>> fsat_true_minimum(6, 3, 2), fsat_most_unfair(6, 3, 2)   # 1/3 < 2/3
    (0.3333333333333333, 0.6666666666666666)
    >>> fsat_true_minimum(1, 3, 2)                               # km < n: always fair
    1.0
    """
    m, n, k = _mnk(m, n, k)
    f, r = divmod(k * m, n)
    if f == 0:
        return 1.0
    s_min = -(-(n + r) // (m - f + 1))     # integer ceiling
    return min(s_min, n) / n


# --------------------------------------------------------------------------- VoCD, II-D, AI-D

def vocd_upper_bound(m: int, *, beta: float = 0.0) -> float:
    r"""Upper bound of VoCD (thesis Theorems 1-2): :math:`\max(\frac{m-1}{m} - \beta, 0)`.

    Every pair term is :math:`\max(CD - \beta, 0)` with :math:`CD = 1 - c_{\min}/c_{\max}
    \le 1 - 1/m`, so the mean is at most the bound (for any similarity threshold). It is
    attained when the only similar pair is shown once and ``m`` times; with all pairs
    similar (``alpha = 2``) it is never attained for ``m >= 2`` (two shown items, for
    instance, reach at most :math:`1 - 1/(m-1)`). The thesis
    writes :math:`\frac{m-1}{m}-\beta` without the clip at 0 needed for
    :math:`\beta > \frac{m-1}{m}`.

    >>> round(vocd_upper_bound(3), 6), vocd_upper_bound(2, beta=0.6)
    (0.666667, 0.0)
    """
    m = check_positive_int(m, "m")
    return max((m - 1) / m - check_beta(beta), 0.0)


def random_rbp_exposure(n: int, k: int, *, gamma: float = 0.8) -> float:
    r"""Expected RBP exposure of an item under a uniformly random ranking: :math:`\frac{1-\gamma^k}{n(1-\gamma)}`.

    >>> round(random_rbp_exposure(2823, 10), 6)   # Lastfm
    0.001581
    """
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k")
    gamma = check_gamma(gamma)
    return (1.0 - gamma**k) / (n * (1.0 - gamma))


def iid_single_round(n: int, k: int, *, gamma: float = 0.8) -> float:
    r"""II-D of any single-round recommendation (a constant, B15), and AI-D's maximum.

    .. math::

        \frac{1-\gamma^{2k}}{n(1-\gamma^2)} - \left(\frac{1-\gamma^k}{n(1-\gamma)}\right)^2

    Every list puts the weights :math:`\gamma^0, \dots, \gamma^{k-1}` on ``k`` distinct
    items, so II-D depends on ``n``, ``k`` and ``gamma`` only. By Jensen's inequality the
    same value bounds II-D with any number of rounds and AI-D from above; both reach it when
    every user always gets the same ranked list.

    >>> iid_single_round(3, 1)    # 1/n - 1/n**2
    0.2222222222222222
    >>> round(iid_single_round(2823, 10), 6)   # Lastfm
    0.00097
    """
    n = check_positive_int(n, "n")
    k = check_positive_int(k, "k")
    gamma = check_gamma(gamma)
    return (1.0 - gamma ** (2 * k)) / (n * (1.0 - gamma**2)) - random_rbp_exposure(n, k, gamma=gamma) ** 2


# --------------------------------------------------------------------------- achievable

_ORIGINAL = ("Jain_ori", "QF_ori", "Ent_ori", "Ent_def", "Gini_ori", "Gini-w_ori", "FSat_ori", "VoCD", "II-D", "AI-D")
#: Each corrected measure and the original whose achievable range rescales it.
CORRECTED = {"Jain_our": "Jain_ori", "QF_our": "QF_ori", "Ent_our": "Ent_def", "Gini_our": "Gini_ori",
             "Gini-w_our": "Gini-w_ori", "FSat_our": "FSat_ori"}
#: The parameters of the Part I measures and their defaults (the registry records' ``options``
#: are read from here; a corrected measure takes its original's).
PARAMETERS = {"Ent_ori": {"log_base": None}, "Ent_def": {"log_base": None}, "VoCD": {"alpha": 2.0, "beta": 0.0},
              "II-D": {"gamma": 0.8}, "AI-D": {"gamma": 0.8}}
_CORRECTED = CORRECTED


def parameters(name: str) -> dict:
    """The parameters (with defaults) that Part I measure ``name`` takes.

    >>> parameters("Ent_our")
    {'log_base': None}
    """
    return dict(PARAMETERS.get(CORRECTED.get(name, name), {}))


def _check_params(name: str, params: dict) -> None:
    allowed = set(PARAMETERS.get(name, {}))
    unknown = sorted(set(params) - allowed)
    for option in unknown:
        message = renamed_option_message(name, option)
        if message:
            raise ValueError(message + ".")
    if unknown:
        raise ValueError(f"{name} takes the parameters {sorted(allowed) or 'none'}, got {unknown}.")


def _empty_range_reason(name: str, m: int, n: int, k: int) -> str | None:
    """Why the corrected measure ``name`` has no achievable range at (m, n, k), or None."""
    base = _CORRECTED[name]
    if base == "Gini-w_ori":
        if m == 1:
            return "n_users == 1 (and W == 1), so every recommendation has the same exposure spread"
        if n == 1:
            return "n_items == 1, so every recommendation has the same exposure spread"
        return None
    if k == n:
        return "k == n_items, so every user is shown the whole catalogue and all recommendations score the same"
    if m == 1 and base != "FSat_ori":
        return "n_users == 1 (and W == 1), so every recommendation has the same counts"
    return None


def achievable(measure: str, m: int, n: int, k: int, **params):
    """Scores of ``measure`` at the thesis's most unfair and most fair recommendations @k.

    Parameters
    ----------
    measure : str
        Canonical name of a Paper 1 measure: ``"Jain_ori"``, ``"QF_ori"``, ``"Ent_ori"``
        (also ``"Ent_def"``), ``"Gini_ori"``, ``"Gini-w_ori"``, ``"FSat_ori"``, ``"VoCD"``,
        ``"II-D"``, ``"AI-D"``, or a corrected name (``"Jain_our"``, ...).
    m, n, k : int
        Users, catalogue size, list length (``1 <= k <= n``).
    **params
        ``log_base`` for entropy (default ``n``), ``beta`` for VoCD (``alpha`` is accepted and
        does not change the bound), ``gamma`` for II-D/AI-D (default 0.8).

    Returns
    -------
    Bounds
        ``Bounds(most_unfair, most_fair)`` (Paper 1's table of achievable scores). Which ends are exact:

        * Jain, QF, Gini, Ent: both exact (Ent's most unfair end is the value of the
          defined entropy; the original is undefined there when ``k < n``);
        * Gini-w: most unfair exact; most fair exact for ``km <= n``, otherwise 0 — the
          value the thesis rescales with, a lower bound that is not attained (C4);
        * FSat: ``k/n`` as in the thesis, which is not the true minimum
          (:func:`fsat_true_minimum`); 1 is exact;
        * VoCD: most unfair is only an upper bound; 0 is attained;
        * II-D (single round): the constant :func:`iid_single_round` at both ends;
        * AI-D (single round): most unfair exact (the II-D constant); most fair 0 is only a
          lower bound;
        * corrected names: ``Bounds(0, 1)`` (higher is fairer) or ``Bounds(1, 0)``, NaN at
          both ends where the corrected measure is undefined (empty achievable range).

    Examples
    --------
    >>> achievable("Jain_ori", 6, 3, 2)
    Bounds(most_unfair=0.6666666666666666, most_fair=1.0)
    >>> achievable("Gini-w_our", 2, 3, 2)
    Bounds(most_unfair=1.0, most_fair=0.0)
    >>> achievable("Jain_our", 2, 3, 3)
    Bounds(most_unfair=nan, most_fair=nan)
    """
    m, n, k = _mnk(m, n, k)
    if measure in _CORRECTED:
        _check_params(_CORRECTED[measure], params)
        if _empty_range_reason(measure, m, n, k) is not None:
            return Bounds(math.nan, math.nan)
        original = achievable(_CORRECTED[measure], m, n, k, **params)
        if original.most_unfair > original.most_fair:       # lower is fairer: Gini, Gini-w
            return Bounds(1.0, 0.0)
        return Bounds(0.0, 1.0)
    if measure not in _ORIGINAL:
        raise ValueError(f"no achievable bounds for {measure!r}; known names: "
                         f"{', '.join(_ORIGINAL + tuple(_CORRECTED))}.")
    _check_params(measure, params)
    if measure == "Jain_ori":
        return Bounds(jain_most_unfair(m, n, k), jain_most_fair(m, n, k))
    if measure == "QF_ori":
        return Bounds(qf_most_unfair(m, n, k), qf_most_fair(m, n, k))
    if measure in ("Ent_ori", "Ent_def"):
        log_base = params.get("log_base")
        return Bounds(ent_most_unfair(m, n, k, log_base=log_base), ent_most_fair(m, n, k, log_base=log_base))
    if measure == "Gini_ori":
        return Bounds(gini_most_unfair(m, n, k), gini_most_fair(m, n, k))
    if measure == "Gini-w_ori":
        fair = gini_w_most_fair(m, n, k) if k * m <= n else 0.0
        return Bounds(gini_w_most_unfair(m, n, k), fair)
    if measure == "FSat_ori":
        return Bounds(fsat_most_unfair(m, n, k), fsat_most_fair(m, n, k))
    if measure == "VoCD":
        check_alpha(params.get("alpha", 2.0))
        return Bounds(vocd_upper_bound(m, beta=params.get("beta", 0.0)), 0.0)
    gamma = params.get("gamma", 0.8)
    constant = iid_single_round(n, k, gamma=gamma)
    if measure == "II-D":
        return Bounds(constant, constant)
    return Bounds(constant, 0.0)   # AI-D
