r"""II-D and AI-D in a single round (:math:`W = 1`), derived with sympy (p1.md §5.5 B15, B16).

Neither bound is in the thesis. In one round every user's list gives RBP exposures
:math:`\gamma^0, \dots, \gamma^{k-1}` to exactly :math:`k` items and 0 to the other
:math:`n - k`, so II-D cannot depend on *which* items are recommended: it is a constant of
:math:`(n, k, \gamma)`. AI-D can vary, but never exceeds that constant.

>>> from recfair.derivations import iid_single_round
>>> d = iid_single_round()
>>> round(d.evaluate(2823, 10), 6)  # Lastfm at k = 10, gamma = 0.8
0.00097
>>> d.cases["k = 1"]
(n - 1)/n**2
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from ._core import Derivation, Typeset, eq, gamma, generic_branch, i, j, k, linear_sum, m, n, u

__all__ = ["iid_single_round", "aid_single_round_max", "random_exposure"]

E = sp.IndexedBase("E")  # E[u, i]: system exposure of item i for user u
EBAR = sp.IndexedBase(r"\bar{E}")  # mean over users, one value per item
E_TILDE = Typeset(r"E^{\sim}")
IID = Typeset(r"\mathrm{II\text{-}D}")
AID = Typeset(r"\mathrm{AI\text{-}D}")
_PARAMS = {"n": n, "k": k, "gamma": gamma}


def _geometric(expr) -> sp.Expr:
    """Evaluate a geometric sum and keep the branch for a ratio other than 1 (:math:`0 < \\gamma < 1`)."""
    return sp.factor(generic_branch(sp.piecewise_fold(expr.doit())))


def random_exposure() -> sp.Expr:
    r""":math:`E^{\sim} = (1 - \gamma^k) / (n(1 - \gamma))`: the mean RBP exposure of an item
    placed by a uniformly random permutation (each of the :math:`k` ranks with probability 1/n).

    >>> random_exposure()
    (gamma**k - 1)/(n*(gamma - 1))
    """
    return _geometric(sp.Sum(gamma ** (j - 1), (j, 1, k))) / n


def _centre(values, mean, size, index):
    r"""Steps for :math:`\frac{1}{N}\sum (x - \mu)^2 = \frac{1}{N}\sum x^2 - \mu^2` when
    :math:`\sum x = N\mu`."""
    squares = sp.Sum((values - mean) ** 2, (index, 1, size))
    split = linear_sum(squares)
    collapsed = sp.expand(split.subs(sp.Sum(values, (index, 1, size)), size * mean))
    return squares, split, collapsed


@cache
def iid_single_round() -> Derivation:
    r"""B15: :math:`\mathrm{II\text{-}D} = \frac{1 - \gamma^{2k}}{n(1 - \gamma^2)} - \bigl(E^{\sim}\bigr)^2`
    for any single-round top-:math:`k` recommendation, independent of :math:`m`."""
    e_tilde = random_exposure()
    row_sum = _geometric(sp.Sum(gamma**j, (j, 0, k - 1)))
    row_squares = _geometric(sp.Sum(gamma ** (2 * j), (j, 0, k - 1)))
    squares, split, collapsed = _centre(E[u, i], E_TILDE, n, i)
    per_user = collapsed.subs(sp.Sum(E[u, i] ** 2, (i, 1, n)), row_squares)
    over_users = sp.Sum(per_user, (u, 1, m)).doit() / (m * n)
    result = sp.expand(over_users).subs(E_TILDE, e_tilde)
    thesis_like = (1 - gamma ** (2 * k)) / (n * (1 - gamma**2)) - ((1 - gamma**k) / (n * (1 - gamma))) ** 2
    assert sp.simplify(result - thesis_like) == 0
    steps = [
        (r"Uniformly random exposure: an item sits at each of the $k$ ranks with probability $1/n$.",
         eq(E_TILDE, e_tilde)),
        (r"Each user's row holds $\gamma^0, \dots, \gamma^{k-1}$ on $k$ items and 0 elsewhere, so its sum is ...",
         eq(sp.Sum(E[u, i], (i, 1, n)), row_sum)),
        (r"... which is exactly $nE^{\sim}$, and its sum of squares is",
         eq(sp.Sum(E[u, i] ** 2, (i, 1, n)), row_squares)),
        (r"Expand one user's squared gaps to $E^{\sim}$ ...", eq(squares, split)),
        (r"... the cross term collapses because $\sum_i E_{u,i} = nE^{\sim}$.", eq(squares, collapsed)),
        (r"Every user gives the same value, so the mean over $m$ users and $n$ items loses $m$.",
         eq(IID, over_users)),
        (r"With $E^{\sim}$ written out.", eq(IID, thesis_like)),
    ]
    cases = {
        "k = 1": sp.factor(sp.simplify(result.subs(k, 1))),
        "k = 1, n = 3": sp.simplify(result.subs({k: 1, n: 3})),
        "k = 2, n = 3, gamma = 4/5": sp.nsimplify(result.subs({k: 2, n: 3, gamma: sp.Rational(4, 5)})),
    }
    return Derivation(
        key="iid_single_round", measure="II-D_ori", end="constant", symbol=IID, steps=tuple(steps),
        result=thesis_like, symbols=_PARAMS, params=("n", "k"), defaults={"gamma": 0.8},
        domain=sp.Le(k, n), cases=cases,
        source="p1.md §2.7, §5.5 B15 (derived; thesis L1704 states only that II-D is constant)",
    )


@cache
def aid_single_round_max() -> Derivation:
    r"""B16: :math:`\mathrm{AI\text{-}D} = \frac1n\sum_i \bar E_i^2 - (E^{\sim})^2 \le \mathrm{II\text{-}D}`,
    with equality when every user gets the same ranked list."""
    squares, split, collapsed = _centre(EBAR[i], E_TILDE, n, i)
    mean_of_user = sp.Sum(E[u, i], (u, 1, m)) / m
    jensen_squares, jensen_split, jensen_gap = _centre(E[u, i], EBAR[i], m, u)
    iid = iid_single_round()
    # a concrete check: n = 4 items, k = 2, two users with the same list -> AI-D equals II-D
    e_same = [1, gamma, 0, 0]
    e_tilde_4 = random_exposure().subs({n: 4, k: 2})
    aid_same = sp.factor(sp.Add(*[(x - e_tilde_4) ** 2 for x in e_same]) / 4)
    assert sp.simplify(aid_same - iid.result.subs({n: 4, k: 2})) == 0
    steps = [
        (r"User-averaged exposure of item $i$.", eq(EBAR[i], mean_of_user)),
        (r"Summed over items it is $\frac1m\sum_u\sum_i E_{u,i} = nE^{\sim}$, as every row sums to $nE^{\sim}$.",
         eq(sp.Sum(EBAR[i], (i, 1, n)), n * E_TILDE)),
        (r"Expand AI-D's squared gaps ...", eq(squares, split)),
        (r"... and the cross term collapses.", eq(AID, sp.expand(collapsed / n))),
        (r"Per item, the mean square over users exceeds the squared mean by a variance, which is "
         r"never negative:", eq(jensen_squares / m, sp.expand(jensen_gap / m))),
        (r"So $\frac1n\sum_i\bar E_i^2 \le \frac{1}{mn}\sum_u\sum_i E_{u,i}^2$ and AI-D is at most "
         r"the II-D constant, with equality iff all users get the same ranked list.",
         sp.Le(AID, iid.result)),
        (r"Check: $n = 4$, $k = 2$, the same list for everyone.", eq(AID, aid_same)),
    ]
    return Derivation(
        key="aid_single_round_max", bound="iid_single_round", measure="AI-D_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{AI\text{-}D}_{\max}"), steps=tuple(steps), result=iid.result,
        symbols=_PARAMS, params=("n", "k"), defaults={"gamma": 0.8}, domain=sp.Le(k, n),
        cases={"n = 4, k = 2 (same list)": aid_same},
        forms={"decomposition": sp.expand(collapsed / n)},
        source="p1.md §2.8, §5.5 B16 (derived)",
    )
