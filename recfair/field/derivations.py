r"""Part VI's closed forms derived with sympy (loaded on first use).

* :func:`aplt_of_uniform_random`: a recommender that draws each list uniformly has expected APLT
  :math:`t/n` (the tail's share of the catalogue): it "passes" the popularity measures.
* :func:`rsp_parity`: for two groups, RSP is :math:`|r_1 - r_2|/(r_1 + r_2)` and is 0 exactly
  when group 1 holds :math:`a = mk\,n_1/n` of the :math:`mk` slots (the closed form of
  :func:`recfair.field.bounds.achievable_rsp`).
* :func:`ndkl_lower_bound`: NDKL's first prefix is one item of one group, so
  :math:`\mathrm{NDKL} \ge \ln(1/\max_g p^*_g)/Z > 0`: the zero cannot be reached.
* :func:`awrf_single_group`: a list of one group against the target :math:`(p, 1-p)` scores
  :math:`1 - \mathrm{JSD}_2`, which is :math:`\tfrac{3}{4}\log_2 3 - \tfrac12 \approx 0.689` at
  :math:`p = 1/2`: AWRF's least value is not 0.
* :func:`c_kl_maximum`: a list sharing no genre with the history has
  :math:`C_{KL} = \ln(1/\alpha)`, Steck's smoothing caps the divergence.
* :func:`mmf_two_positions`: one list of two positions and two groups: the fairest split gives
  the worse-off group the second position, :math:`\mathrm{MMF} = 1/(1 + \log_2 3) \approx 0.387`,
  never its nominal 1/2.
* :func:`ee_d_concentrated`: a list of one group has EE-D
  :math:`\bigl((1-\gamma^k)/(1-\gamma)\bigr)^2`, its most unfair end when a group can fill
  the list.

Each returns a :class:`FieldDerivation`: the captioned steps, the result and sympy's check
(``holds``).

>>> aplt_of_uniform_random().holds
True
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from ..book.symbolic import eq

__all__ = ["FieldDerivation", "aplt_of_uniform_random", "rsp_parity", "ndkl_lower_bound", "awrf_single_group",
           "c_kl_maximum", "mmf_two_positions", "ee_d_concentrated"]

m, n, k, t, a, n1, n2 = sp.symbols("m n k t a n_1 n_2", positive=True)
p, alpha = sp.symbols("p alpha", positive=True)
gamma = sp.Symbol("gamma", positive=True)


@dataclass(frozen=True)
class FieldDerivation:
    """Captioned steps (sympy relations), the result, and the expression sympy reduced to 0 (``holds``).

    >>> FieldDerivation(steps=(), result=p, check=p - p).holds
    True
    """

    steps: tuple
    result: sp.Expr
    check: sp.Expr

    @property
    def holds(self) -> bool:
        """Whether sympy simplified the check to 0."""
        return sp.simplify(self.check) == 0


def aplt_of_uniform_random(*, n_items: int = 10, n_tail: int = 8, list_length: int = 3) -> FieldDerivation:
    r"""Expected APLT of a uniformly random list: the hypergeometric mean :math:`kt/n` over :math:`k`.

    The symbolic result :math:`t/n` is checked against sympy's hypergeometric expectation at the
    given sizes.

    >>> d = aplt_of_uniform_random()
    >>> d.result, d.holds
    (t/n, True)
    """
    from sympy.stats import E, Hypergeometric

    expected_count = k * t / n                           # hypergeometric mean of tail items in k draws
    result = sp.simplify(expected_count / k)
    x = Hypergeometric("X", n_items, n_tail, list_length)
    check = E(x) / list_length - result.subs({t: n_tail, n: n_items})
    steps = (("Tail items among k uniform draws without replacement", eq(sp.Symbol("E|L∩T|"), expected_count)),
             ("APLT divides by k", eq(sp.Symbol("E[APLT]"), result)))
    return FieldDerivation(steps=steps, result=result, check=check)


def rsp_parity() -> FieldDerivation:
    r"""Two groups: the slots of group 1 that make RSP 0.

    >>> d = rsp_parity()
    >>> d.result, d.holds
    (k*m*n_1/(n_1 + n_2), True)
    """
    r1, r2 = a / (m * n1), (m * k - a) / (m * n2)
    rsp = sp.Abs(r1 - r2) / (r1 + r2)
    solution = sp.solve(sp.Eq(r1, r2), a)[0]
    steps = (("Rates of the two groups", eq(sp.Symbol("r_1"), r1)), ("", eq(sp.Symbol("r_2"), r2)),
             ("Population SD over mean of two values", eq(sp.Symbol("RSP"), rsp)),
             ("Parity", eq(a, solution)))
    return FieldDerivation(steps=steps, result=sp.factor(solution), check=sp.simplify((r1 - r2).subs(a, solution)))


def ndkl_lower_bound(*, list_length: int = 10) -> FieldDerivation:
    r"""NDKL's first term alone: :math:`\ln(1/p^*_g)/Z` with :math:`Z = \sum_{i \le k} 1/\log_2(i+1)`.

    >>> d = ndkl_lower_bound(list_length=2)
    >>> d.holds, round(float(d.result.subs(p, sp.Rational(1, 2))), 4)
    (True, 0.425)
    """
    i = sp.Symbol("i", integer=True, positive=True)
    z = sp.Sum(1 / sp.log(i + 1, 2), (i, 1, list_length)).doit()
    first = sp.log(1 / p)                                # KL(delta_g || p*) with p = p*_g
    bound = first / z
    kl_point = 1 * sp.log(1 / p)                         # the only non-zero term of the point mass
    steps = (("The first prefix is one item: a point mass on its group", eq(sp.Symbol("KL_1"), kl_point)),
             ("Every later term is >= 0", eq(sp.Symbol("NDKL_min"), bound)))
    return FieldDerivation(steps=steps, result=bound, check=kl_point - first)


def awrf_single_group() -> FieldDerivation:
    r"""AWRF of a list of one group against the target :math:`(p, 1-p)`; at :math:`p = 1/2` it is :math:`\frac34\log_2 3 - \frac12`.

    >>> d = awrf_single_group()
    >>> d.holds, round(float(d.result.subs(p, sp.Rational(1, 2))), 4)
    (True, 0.6887)
    """
    mid1, mid2 = (1 + p) / 2, (1 - p) / 2
    kl_list = sp.log(1 / mid1, 2)
    kl_target = p * sp.log(p / mid1, 2) + (1 - p) * sp.log((1 - p) / mid2, 2)
    awrf = 1 - (kl_list + kl_target) / 2
    at_half = sp.Rational(3, 4) * sp.log(3, 2) - sp.Rational(1, 2)
    steps = (("Midpoint of (1, 0) and (p, 1-p)", eq(sp.Symbol("M"), sp.Matrix([[mid1, mid2]]))),
             ("1 - JSD in base 2", eq(sp.Symbol("AWRF"), awrf)))
    return FieldDerivation(steps=steps, result=awrf, check=sp.nsimplify(awrf.subs(p, sp.Rational(1, 2)) - at_half))


def c_kl_maximum() -> FieldDerivation:
    r"""A list sharing no genre with the history: :math:`q = 0` on the history's genres, so :math:`C_{KL} = \ln(1/\alpha)`.

    >>> c_kl_maximum().result
    log(1/alpha)
    """
    q0 = 0
    per_genre = sp.log(p / ((1 - alpha) * q0 + alpha * p))
    result = sp.log(1 / alpha)
    steps = (("Each history genre g with share p", eq(sp.Symbol("term_g"), p * per_genre)),
             ("Shares sum to 1", eq(sp.Symbol("C_KL"), result)))
    return FieldDerivation(steps=steps, result=result, check=sp.simplify(sp.expand_log(per_genre - result, force=True)))



def mmf_two_positions() -> FieldDerivation:
    r"""One list, two positions, two groups: MMF's fair end is :math:`w_2/(w_1 + w_2) = 1/(1 + \log_2 3)`.

    Each group's exposure is the DCG weight of the positions it holds; the worse-off group gets
    at most the second position's weight :math:`w_2 = 1/\log_2 3` (giving it the first makes it the
    better-off one), so the nominal 1/2 is out of reach.

    >>> d = mmf_two_positions()
    >>> d.holds, round(float(d.result), 4)
    (True, 0.3869)
    """
    w1, w2 = sp.Integer(1) / sp.log(2, 2), 1 / sp.log(3, 2)
    share = w2 / (w1 + w2)
    result = 1 / (1 + sp.log(3, 2))
    steps = (("DCG weights of the two positions", eq(sp.Symbol("w_1"), w1)), ("", eq(sp.Symbol("w_2"), w2)),
             ("One position per group; the worse-off group holds w_2", eq(sp.Symbol("MMF_max"), share)))
    return FieldDerivation(steps=steps, result=result, check=share - result)


def ee_d_concentrated(*, list_length: int = 3) -> FieldDerivation:
    r"""EE-D of a list of one group: the square of the total patience weight :math:`\sum_{j \le k} \gamma^{j-1}`.

    >>> d = ee_d_concentrated(list_length=2)
    >>> d.holds, d.result.subs(gamma, sp.Rational(1, 2))
    (True, 9/4)
    """
    j = sp.Symbol("j", integer=True, positive=True)
    total = sp.Sum(gamma ** (j - 1), (j, 1, list_length)).doit()
    closed = ((1 - gamma ** list_length) / (1 - gamma)) ** 2
    steps = (("Every position's weight goes to one group", eq(sp.Symbol("varepsilon_g"), total)),
             ("The other groups get 0", eq(sp.Symbol("EE-D_max"), total ** 2)))
    return FieldDerivation(steps=steps, result=sp.expand(total ** 2), check=sp.simplify(total ** 2 - closed))
