r"""Per-user bounds of the Paper 3 relevance-aware measures, derived with sympy.

Setting of Paper 3's appendix (mathematical workings for the ranking strategies that reach the
(un)fairest scores): one user, one round, binary
relevance, :math:`R = |R_u^*|` relevant items among :math:`n`, cut-off :math:`k`, exposure
:math:`a_p` of position :math:`p` (zero beyond :math:`k`, non-increasing). Each function builds
the ranking that attains a bound, feeds it to the measure's per-item sum and lets sympy do the
algebra; the numeric twins are in :mod:`recfair.joint.bounds` (named by ``Derivation.bound``).

* exchange steps (Theorems 1, 2, 5 with their typos fixed): swapping a relevant item up past an
  irrelevant one changes IAA(u) by :math:`-2(a_p - a_{p'})` and II-F(u) by
  :math:`-2t(a_p - a_{p'})`; since both sums are separable over items, sorting by relevance is
  optimal (relevant on top: most fair; at the bottom: most unfair);
* closed forms D1–D4 (IAA), D11–D13 (II-F);
* identities D5 (IFD÷ as a sorted-weight sum) and D8 (IFD× as a variance).

>>> d = iaa_most_fair()
>>> d.result
(R*(R - 1) + (-R + k)*(-R + k + 1))/(2*k*n)
>>> d.cases["R > k"]
(R - k/2 - 1/2)/n
>>> round(d.evaluate(10, 10, 3), 4)   # n = k = 10, R = 3: (6 + 56) / 200
0.31
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from ..book.symbolic import Derivation, Typeset, as_written, eq, gamma, generic_branch, i, j, k, linear_sum, m, n, s

__all__ = [
    "R", "p", "q", "exchange_iaa", "exchange_iif", "exchange_ifd_mul",
    "iaa_most_fair", "iaa_most_unfair", "iaa_ori_most_fair", "iaa_ori_most_unfair",
    "iif_target", "iif_most_fair", "iif_most_unfair", "ifd_div_identity", "ifd_mul_identity",
    "mme_most_unfair", "ibo_rank_one", "JOINT_DERIVATIONS",
]

#: number of relevant items of the user, :math:`|R_u^*|`
R = sp.Symbol("R", positive=True, integer=True)
#: two rank positions, :math:`p < q` (the thesis's :math:`p < p'`)
p, q = sp.symbols("p q", positive=True, integer=True)
#: exposures of the two positions and the relevant item's target
a_p, a_q, t = sp.symbols("a_p a_{p'} t", nonnegative=True)
v = sp.IndexedBase("v")   # sorted exposures of the relevant items
J = sp.IndexedBase("J")   # IFD× values of the n items
ii = sp.Symbol("i'", positive=True, integer=True)

_NKR = {"n": n, "k": k, "R": R}
_NKRG = {**_NKR, "gamma": gamma}
_PARAMS = ("n", "k", "R")
_DOMAIN = sp.And(sp.Le(k, n), sp.Le(R, n - 1))

IAA_U = Typeset(r"\mathrm{IAA}(u)")
IIF_U = Typeset(r"\mathrm{II\text{-}F}(u)")


def _sum(expr, lo, hi):
    """A finite sum over positions :math:`p = lo..hi`, evaluated (geometric: ratio-not-1 branch)."""
    return sp.factor(generic_branch(sp.piecewise_fold(sp.Sum(expr, (p, lo, hi)).doit())))


# ----------------------------------------------------------------------------------------------
# exchange arguments (Theorems 1, 2, 4, 5)
# ----------------------------------------------------------------------------------------------

@cache
def exchange_iaa() -> Derivation:
    r"""Theorems 1 and 2: a relevant item at :math:`p` and an irrelevant one at :math:`p' > p`
    cost :math:`|a_p - 1| + |a_{p'} - 0|`; swapped, :math:`|a_{p'} - 1| + |a_p - 0|`. The swap
    costs :math:`2(a_p - a_{p'}) \ge 0` more, so relevant-on-top is the minimum and (mirror, T2
    with its missing minus restored) relevant-at-the-bottom the maximum."""
    before = (1 - a_p) + a_q            # |a_p - 1| + |a_q - 0| with 0 <= a <= 1
    after = (1 - a_q) + a_p
    result = sp.factor(after - before)
    steps = [
        (r"Relevant item at $p$, irrelevant at $p' > p$ (with $0 \le a \le 1$, $|a - 1| = 1 - a$).",
         eq(Typeset(r"\mathrm{LHS}"), before)),
        (r"Swapped.", eq(Typeset(r"\mathrm{RHS}"), after)),
        (r"Difference, non-negative as $a_p \ge a_{p'}$.", eq(Typeset(r"\mathrm{RHS}-\mathrm{LHS}"), result)),
    ]
    return Derivation(key="exchange_iaa", measure="IAA", end="exchange", symbol=Typeset(r"\Delta"),
                      steps=tuple(steps), result=result, symbols={"a_p": a_p, "a_q": a_q},
                      params=("a_p", "a_q"), source="Paper 3, appendix, Theorems 1-2")


@cache
def exchange_iif() -> Derivation:
    r"""Theorem 5: with target :math:`t > 0` for the relevant item and 0 for the irrelevant one,
    :math:`(a_{p'}-t)^2 + a_p^2 - (a_p-t)^2 - a_{p'}^2 = 2t(a_p - a_{p'}) \ge 0`."""
    before = (a_p - t) ** 2 + a_q**2
    after = (a_q - t) ** 2 + a_p**2
    result = sp.factor(sp.expand(after - before))
    steps = [
        (r"Relevant item (target $t$) at $p$, irrelevant (target 0) at $p' > p$.",
         eq(Typeset(r"\mathrm{LHS}"), before)),
        (r"Swapped.", eq(Typeset(r"\mathrm{RHS}"), after)),
        (r"Expand: the squares cancel.", eq(Typeset(r"\mathrm{RHS}-\mathrm{LHS}"), result)),
    ]
    return Derivation(key="exchange_iif", measure="II-F", end="exchange", symbol=Typeset(r"\Delta"),
                      steps=tuple(steps), result=result, symbols={"a_p": a_p, "a_q": a_q, "t": t},
                      params=("a_p", "a_q", "t"), source="Paper 3, appendix, Theorem 5")


@cache
def exchange_ifd_mul() -> Derivation:
    r"""Theorem 4 (RHS typo fixed to :math:`(a_{p'}r_i - a_p r_{i'})^2`): with :math:`r_i = 0`,
    :math:`r_{i'} = 1` the pair's own term is :math:`a_{p'}^2` before and :math:`a_p^2` after the
    swap. This compares one pair only; IFD× sums over all pairs, so it is not a global proof."""
    r_i, r_ii = 0, 1
    before = (a_p * r_i - a_q * r_ii) ** 2
    after = (a_q * r_i - a_p * r_ii) ** 2
    result = sp.factor(after - before)
    steps = [
        (r"$r_i = 0$ at $p$, $r_{i'} = 1$ at $p' > p$.", eq(Typeset(r"\mathrm{LHS}"), before)),
        (r"Swapped.", eq(Typeset(r"\mathrm{RHS}"), after)),
        (r"Difference.", eq(Typeset(r"\mathrm{RHS}-\mathrm{LHS}"), result)),
    ]
    return Derivation(key="exchange_ifd_mul", measure="IFD_mul", end="exchange",
                      symbol=Typeset(r"\Delta"),
                      steps=tuple(steps), result=result, symbols={"a_p": a_p, "a_q": a_q},
                      params=("a_p", "a_q"), source="Paper 3, appendix, Theorem 4")


# ----------------------------------------------------------------------------------------------
# IAA (D1-D4)
# ----------------------------------------------------------------------------------------------

def _attention(corrected: bool):
    return (k + 1 - p) / k if corrected else (k - p) / (k - 1)


def _iaa_fair(corrected: bool) -> Derivation:
    a = _attention(corrected)
    hits = _sum(1 - a, 1, R)                 # relevant items on top: |a_p - 1|
    misses = _sum(a, R + 1, k)               # irrelevant items in the rest of the top-k
    total = sp.factor(sp.simplify((hits + misses) / n))
    if corrected:
        written = (R * (R - 1) + (k - R) * (k - R + 1)) / (2 * k * n)
        many = ((k - 1) / sp.Integer(2) + R - k) / n
    else:
        written = (R * (R - 1) + (k - R) * (k - R - 1)) / (2 * (k - 1) * n)
        many = (k / sp.Integer(2) + R - k) / n
    result = as_written(total, written)
    all_top = sp.simplify(_sum(1 - a, 1, k))
    assert sp.simplify(all_top + R - k - many * n) == 0
    name = "iaa_most_fair" if corrected else "iaa_ori_most_fair"
    symbol = Typeset(r"\mathrm{IAA}_{\min}(u)" if corrected else r"\mathrm{IAA}^{\mathrm{ori}}_{\min}(u)")
    steps = [
        (r"Attention of position $p \le k$ (zero beyond $k$).", eq(Typeset(r"a_p"), a)),
        (r"Relevant items on top (Theorem 1). If $R \le k$ they occupy $1..R$ and cost $1 - a_p$ each.",
         eq(sp.Sum(1 - a, (p, 1, R)), hits)),
        (r"The irrelevant items at $R+1..k$ cost $a_p$ each; items beyond $k$ cost nothing.",
         eq(sp.Sum(a, (p, R + 1, k)), misses)),
        (r"Divide by $n$.", eq(symbol, result)),
        (r"If $R > k$: the whole top-k is relevant and the other $R - k$ relevant items cost 1 each.",
         eq(symbol, many)),
    ]
    return Derivation(
        key=name, bound="iaa_most_fair", measure="IAA_our" if corrected else "IAA_ori", end="most_fair",
        symbol=symbol, steps=tuple(steps), result=result, symbols=_NKR, params=_PARAMS,
        domain=sp.And(_DOMAIN, sp.Le(R, k)) if corrected else sp.And(_DOMAIN, sp.Le(R, k), sp.Ge(k, 2)),
        cases={"R > k": many}, numeric_result=sp.Piecewise((result, sp.Le(R, k)), (many, True)),
        source="thesis Ch. 4 (Paper 3), Theorem 1",
    )


def _iaa_unfair(corrected: bool) -> Derivation:
    a = _attention(corrected)
    shown = _sum(a, 1, k)                    # R <= n - k: the top-k is irrelevant
    simple = sp.factor((shown + R) / n)
    written = ((k + 1) / sp.Integer(2) + R) / n if corrected else (k / sp.Integer(2) + R) / n
    result = as_written(simple, written)
    # R > n - k: s = R - (n - k) relevant items forced to positions k-s+1..k
    irrelevant_top = _sum(a, 1, k - s)
    relevant_top = _sum(1 - a, k - s + 1, k)
    forced = sp.simplify((irrelevant_top + relevant_top + (n - k)) / n)
    if corrected:
        thesis = ((k * (k + 1) / 2 - s * (s + 1) / 2) / k + s * (2 * k - s - 1) / (2 * k) + (n - k)) / n
        forced = as_written(forced, thesis)
    forced_R = forced.subs(s, R - (n - k))
    name = "iaa_most_unfair" if corrected else "iaa_ori_most_unfair"
    symbol = Typeset(r"\mathrm{IAA}_{\max}(u)" if corrected else r"\mathrm{IAA}^{\mathrm{ori}}_{\max}(u)")
    steps = [
        (r"Attention of position $p \le k$.", eq(Typeset(r"a_p"), a)),
        (r"Relevant items at the bottom (Theorem 2). If $R \le n - k$ the top-k is irrelevant and costs",
         eq(sp.Sum(a, (p, 1, k)), shown)),
        (r"Each relevant item beyond $k$ costs $|0 - 1| = 1$; divide by $n$.", eq(symbol, result)),
        (r"If $R > n - k$, $s = R - (n - k)$ relevant items sit at $k - s + 1..k$: irrelevant top part ...",
         eq(sp.Sum(a, (p, 1, k - s)), irrelevant_top)),
        (r"... relevant part of the top-k ...", eq(sp.Sum(1 - a, (p, k - s + 1, k)), relevant_top)),
        (r"... plus $n - k$ unexposed relevant items.", eq(symbol, forced)),
    ]
    return Derivation(
        key=name, bound="iaa_most_unfair", measure="IAA_our" if corrected else "IAA_ori", end="most_unfair",
        symbol=symbol, steps=tuple(steps), result=result, symbols=_NKR, params=_PARAMS,
        domain=(sp.And(_DOMAIN, sp.Le(R, n - k)) if corrected
                else sp.And(_DOMAIN, sp.Le(R, n - k), sp.Ge(k, 2))),
        cases={"R > n - k": forced}, numeric_result=sp.Piecewise((result, sp.Le(R, n - k)), (forced_R, True)),
        source="thesis Ch. 4 (Paper 3), Theorem 2",
    )


@cache
def iaa_most_fair() -> Derivation:
    r"""D1: :math:`\mathrm{IAA}_{\min}(u) = \frac{R(R-1) + (k-R)(k-R+1)}{2kn}` (:math:`R \le k`,
    corrected attention :math:`(k+1-p)/k`); :math:`\frac{(k-1)/2 + R - k}{n}` for :math:`R > k`."""
    return _iaa_fair(True)


@cache
def iaa_ori_most_fair() -> Derivation:
    r"""D3: the same with the original attention :math:`(k - p)/(k - 1)` (``k >= 2``)."""
    return _iaa_fair(False)


@cache
def iaa_most_unfair() -> Derivation:
    r"""D2: :math:`\mathrm{IAA}_{\max}(u) = \frac{(k+1)/2 + R}{n}` (:math:`R \le n - k`), D2' beyond."""
    return _iaa_unfair(True)


@cache
def iaa_ori_most_unfair() -> Derivation:
    r"""D4: the same with the original attention (``k >= 2``)."""
    return _iaa_unfair(False)


# ----------------------------------------------------------------------------------------------
# II-F (D11-D13)
# ----------------------------------------------------------------------------------------------

T = Typeset(r"t")


@cache
def iif_target() -> Derivation:
    r"""D11: :math:`t = E^*_{u,i} = \frac{1-\gamma^R}{R(1-\gamma)}` for a relevant item: the mean
    RBP exposure of the first :math:`R` positions (not truncated at :math:`k`)."""
    total = _sum(gamma ** (p - 1), 1, R)
    result = sp.factor(total / R)
    written = (1 - gamma**R) / (R * (1 - gamma))
    result = as_written(result, written)
    steps = [
        (r"Ideal policy: the $R$ relevant items share positions $1..R$ equally.",
         eq(Typeset(r"R\,t"), sp.Sum(gamma ** (p - 1), (p, 1, R)))),
        (r"Geometric sum.", eq(Typeset(r"R\,t"), total)),
        (r"Per relevant item.", eq(T, result)),
    ]
    return Derivation(key="iif_target", measure="II-F", end="constant", symbol=T, steps=tuple(steps),
                      result=result, symbols={"R": R, "gamma": gamma}, params=("R",), defaults={"gamma": 0.8},
                      source="thesis Ch. 4 (Paper 3), the II-F target equation")


def _shown():
    return _sum(gamma ** (2 * (p - 1)), 1, k)


@cache
def iif_most_fair() -> Derivation:
    r"""D12: :math:`\mathrm{II\text{-}F}_{\min}(u) = \frac1n\big[\frac{1-\gamma^{2k}}{1-\gamma^2}
    - \frac{(1-\gamma^R)^2}{R(1-\gamma)^2}\big]` for :math:`R \le k` (relevant items on top)."""
    tt = iif_target().result
    shown = _shown()
    hit = _sum(gamma ** (p - 1), 1, R)
    split = shown - 2 * T * hit + R * T**2                      # sum over the top-k + misses
    assert sp.simplify(hit - R * tt) == 0                       # sum_{p<=R} gamma^(p-1) = R t
    collapsed = sp.expand(split.subs(hit, R * T))
    result = sp.simplify(collapsed.subs(T, tt) / n)
    written = ((1 - gamma ** (2 * k)) / (1 - gamma**2) - (1 - gamma**R) ** 2 / (R * (1 - gamma) ** 2)) / n
    result = as_written(result, written)
    hit_k = _sum(gamma ** (p - 1), 1, k)
    many = ((1 - gamma ** (2 * k)) / (1 - gamma**2) - 2 * tt * (1 - gamma**k) / (1 - gamma) + R * tt**2) / n
    assert sp.simplify(many - (shown - 2 * tt * hit_k + R * tt**2) / n) == 0
    steps = [
        (r"Relevant items on top (Theorem 5). Over the top-k, $\sum_p (a_p - t\,r_{(p)})^2$ with "
         r"$a_p = \gamma^{p-1}$ expands to $\sum a_p^2 - 2t\sum_{p\le R} a_p + R t^2$.",
         eq(Typeset(r"n\,\mathrm{II\text{-}F}(u)"), split)),
        (r"The top-k's squared exposures.", eq(sp.Sum(gamma ** (2 * (p - 1)), (p, 1, k)), shown)),
        (r"With $R \le k$, $\sum_{p\le R}\gamma^{p-1} = Rt$, so the cross term is $-2Rt^2$.",
         eq(Typeset(r"n\,\mathrm{II\text{-}F}_{\min}(u)"), collapsed)),
        (r"Substitute $t$.", eq(Typeset(r"\mathrm{II\text{-}F}_{\min}(u)"), result)),
        (r"If $R > k$, all $k$ shown items are relevant and $R - k$ relevant items are unexposed.",
         eq(Typeset(r"\mathrm{II\text{-}F}_{\min}(u)"), many)),
    ]
    return Derivation(
        key="iif_most_fair", measure="II-F_our", end="most_fair", symbol=Typeset(r"\mathrm{II\text{-}F}_{\min}(u)"),
        steps=tuple(steps), result=result, symbols=_NKRG, params=_PARAMS, defaults={"gamma": 0.8},
        domain=sp.And(_DOMAIN, sp.Le(R, k)), cases={"R > k": many},
        numeric_result=sp.Piecewise((result, sp.Le(R, k)), (many, True)),
        source="thesis Ch. 4 (Paper 3), Theorem 5",
    )


@cache
def iif_most_unfair() -> Derivation:
    r"""D13: :math:`\mathrm{II\text{-}F}_{\max}(u) = \frac1n\big[\frac{1-\gamma^{2k}}{1-\gamma^2} + Rt^2\big]`
    for :math:`R \le n - k` (relevant items at the bottom); D13' with :math:`s = R - (n-k)` forced."""
    tt = iif_target().result
    shown = _shown()
    result = as_written(sp.simplify((shown + R * tt**2) / n),
                        ((1 - gamma ** (2 * k)) / (1 - gamma**2) + R * tt**2) / n)
    hit_forced = _sum(gamma ** (p - 1), k - s + 1, k)
    forced = (shown - 2 * tt * hit_forced + R * tt**2) / n
    thesis = (_sum(gamma ** (2 * (p - 1)), 1, k - s) + sp.Sum((gamma ** (p - 1) - tt) ** 2, (p, k - s + 1, k))
              + (n - k) * tt**2) / n
    forced_R = forced.subs(s, R - (n - k))
    steps = [
        (r"Relevant items at the bottom. If $R \le n - k$ the top-k holds irrelevant items only ...",
         eq(sp.Sum(gamma ** (2 * (p - 1)), (p, 1, k)), shown)),
        (r"... and each relevant item misses its target $t$.",
         eq(Typeset(r"\mathrm{II\text{-}F}_{\max}(u)"), result)),
        (r"If $R > n - k$, $s = R - (n - k)$ relevant items sit at $k - s + 1..k$; their exposure is",
         eq(sp.Sum(gamma ** (p - 1), (p, k - s + 1, k)), hit_forced)),
        (r"so (equal to the per-position form of the sum):", eq(Typeset(r"\mathrm{II\text{-}F}_{\max}(u)"), forced)),
    ]
    return Derivation(
        key="iif_most_unfair", measure="II-F_our", end="most_unfair",
        symbol=Typeset(r"\mathrm{II\text{-}F}_{\max}(u)"), steps=tuple(steps), result=result, symbols=_NKRG,
        params=_PARAMS, defaults={"gamma": 0.8}, domain=sp.And(_DOMAIN, sp.Le(R, n - k)),
        cases={"R > n - k": forced}, forms={"spec D13'": thesis},
        numeric_result=sp.Piecewise((result, sp.Le(R, n - k)), (forced_R, True)),
        source="mirror of thesis Ch. 4 (Paper 3), Theorem 5",
    )


# ----------------------------------------------------------------------------------------------
# IFD identities (D5, D8)
# ----------------------------------------------------------------------------------------------

@cache
def ifd_div_identity() -> Derivation:
    r"""D5: with :math:`v_1 \ge \dots \ge v_R`, :math:`\sum_{a,b}\max(0, v_a - v_b)
    = \sum_{a<b}(v_a - v_b) = \sum_j v_j (R - 2j + 1)`; IFD÷(u) is that over :math:`R^2`."""
    b = sp.Symbol("b", positive=True, integer=True)
    pairs = sp.Sum(sp.Sum(v[j] - v[b], (b, j + 1, R)), (j, 1, R))
    first = sp.Sum(v[j] * (R - j), (j, 1, R))          # v_j is the larger element of R - j pairs
    second = sp.Sum(v[j] * (j - 1), (j, 1, R))         # and the smaller one of j - 1 pairs
    result = sp.Sum(v[j] * (R - 2 * j + 1), (j, 1, R)) / R**2
    # exact check for small R
    for size in range(1, 7):
        literal = sum(sp.Max(0, v[x] - v[y]) for x in range(1, size + 1) for y in range(1, size + 1))
        literal = literal.subs({sp.Max(0, v[x] - v[y]): (v[x] - v[y] if x < y else 0)
                                for x in range(1, size + 1) for y in range(1, size + 1)})
        assert sp.expand(literal - (result * R**2).subs(R, size).doit()) == 0
    steps = [
        (r"Ordered pairs with $v_a < v_b$ (and self-pairs) contribute 0; the rest, with exposures "
         r"sorted non-increasingly, are the pairs $a < b$.", eq(Typeset(r"R^2\,\mathrm{IFD}_\div(u)"), pairs)),
        (r"$v_j$ is the larger element of $R - j$ pairs ...", eq(Typeset(r"\sum_{a<b} v_a"), first)),
        (r"... and the smaller of $j - 1$ pairs.", eq(Typeset(r"\sum_{a<b} v_b"), second)),
        (r"Hence:", eq(Typeset(r"\mathrm{IFD}_\div(u)"), result)),
    ]
    return Derivation(key="ifd_div_identity", bound="ifd_div_from_values", measure="IFD_div", end="identity",
                      symbol=Typeset(r"\mathrm{IFD}_\div(u)"), steps=tuple(steps), result=result,
                      symbols={"R": R}, params=("R",), source="derived here from thesis Ch. 4 (Paper 3)")


@cache
def ifd_mul_identity() -> Derivation:
    r"""D8: :math:`\sum_{i \ne i'}(J_i - J_{i'})^2 = 2[n\sum_i J_i^2 - (\sum_i J_i)^2]`, so
    IFD×(u) is :math:`2[n\sum J^2 - (\sum J)^2]/(n(n-1))` (self-pairs add 0)."""
    pairs = sp.Sum(sp.Sum((J[i] - J[ii]) ** 2, (ii, 1, n)), (i, 1, n))
    inner = linear_sum(sp.Sum((J[i] - J[ii]) ** 2, (ii, 1, n)))
    outer = linear_sum(sp.Sum(inner, (i, 1, n)))
    outer = outer.subs(sp.Sum(J[ii] ** 2, (ii, 1, n)), sp.Sum(J[i] ** 2, (i, 1, n)))
    s1, s2 = sp.Sum(J[i], (i, 1, n)), sp.Sum(J[i] ** 2, (i, 1, n))
    collected = 2 * n * s2 - 2 * s1**2
    result = 2 * (n * s2 - s1**2) / (n * (n - 1))
    for size in range(2, 6):
        literal = sum((J[x] - J[y]) ** 2 for x in range(1, size + 1) for y in range(1, size + 1))
        assert sp.expand(literal - collected.subs(n, size).doit()) == 0
    steps = [
        (r"All ordered pairs; the diagonal $i = i'$ adds 0.", eq(Typeset(r"\sum_{i\ne i'}(J_i-J_{i'})^2"), pairs)),
        (r"Expand the square and use linearity.", eq(Typeset(r"\sum_{i\ne i'}(J_i-J_{i'})^2"), outer)),
        (r"Collect:", eq(Typeset(r"\mathrm{IFD}_\times(u)"), result)),
    ]
    return Derivation(key="ifd_mul_identity", bound="ifd_mul_from_positions", measure="IFD_mul", end="identity",
                      symbol=Typeset(r"\mathrm{IFD}_\times(u)"), steps=tuple(steps), result=result,
                      symbols={"n": n}, params=("n",), source="derived here from thesis Ch. 4 (Paper 3)")


# ----------------------------------------------------------------------------------------------
# MME and IBO/IWO (inverse examination 1/p; Paper 3's small cases generalised)
# ----------------------------------------------------------------------------------------------

H_k = sp.Sum(1 / p, (p, 1, k))        # the inverse examination summed over the k shown positions
HK = Typeset(r"H_k")                   # its name on the page (sympy would print harmonic(k))
MME_MAX = Typeset(r"\mathrm{MME}_{\max}")


@cache
def mme_most_unfair() -> Derivation:
    r"""The largest MME over every binary relevance and every single-round top-:math:`k`
    recommendation: :math:`1 - H_k/n`, for any :math:`m` (Paper 3's 7/18 at :math:`k = n = 3`)."""
    missed_shown = sp.Sum(1 - 1 / p, (p, 1, k))
    per_user = sp.simplify(missed_shown.doit() + (n - k))
    bound = sp.simplify(m * per_user / (m * n))
    reached = sp.simplify((missed_shown.doit() + (n - k)) / n)
    exact = sp.simplify(1 - sp.harmonic(k) / n)
    assert sp.simplify(bound - exact) == 0 and sp.simplify(reached - exact) == 0
    per_user, bound, result = (e.subs(sp.harmonic(k), HK) for e in (per_user, bound, exact))
    steps = [
        (r"With $e_u(i)$ the exposure $1/p$ that user $u$ gives item $i$ (0 if unshown), item $i$'s "
         r"envy is $\frac1m\bigl[\max_{i'}\sum_u r_{u,i}e_u(i') - \sum_u r_{u,i}e_u(i)\bigr]$; since "
         r"$e_u(i') \le 1$ and $r_{u,i} \le 1$, it is at most $\frac1m\sum_u (1 - e_u(i))$. "
         r"A user's exposures over the catalogue add up to",
         eq(H_k, HK)),
        (r"so summing the bound over the $n$ items, each user contributes the exposure the $k$ shown "
         r"items miss plus 1 for each of the $n - k$ unshown ones:",
         eq(missed_shown + (n - k), per_user)),
        (r"Averaging over the $m$ users and the $n$ items, the $m$ cancels:",
         sp.Le(Typeset(r"\mathrm{MME}"), bound, evaluate=False)),
        (r"Equality: every item relevant to every user and the same list for all, so the item at "
         r"rank 1 has full exposure and every other item envies it by exactly what it misses.",
         eq(MME_MAX, result)),
    ]
    return Derivation(key="mme_most_unfair", bound="mme_largest", measure="MME", end="most_unfair",
                      symbol=MME_MAX, steps=tuple(steps), result=result,
                      symbols={"n": n, "k": k}, params=("n", "k"), domain=sp.Le(k, n),
                      cases={"k = n = 3": exact.subs({n: 3, k: 3})}, forms={"harmonic": exact},
                      numeric_result=1 - H_k / n,
                      source="Paper 3, non-realisability of MME (its 7/18 at k = n = 3, m = 2)")


@cache
def ibo_rank_one() -> Derivation:
    r"""The impact ratio of an item shown at rank 1 to each of the :math:`c` users who find it
    relevant: :math:`n/H_k`; with :math:`m \ge n` users, one relevant item each, seen first,
    every item has it, so IBO_ori = 1 and IWO_ori = 0 when :math:`n/H_k \ge 1.1`."""
    c = sp.Symbol("c", positive=True, integer=True)
    unif = H_k * c / (m * n)
    imp = c / m
    ratio = sp.simplify(imp / unif.doit())
    exact = sp.simplify(n / sp.harmonic(k))
    assert sp.simplify(ratio - exact) == 0
    result = exact.subs(sp.harmonic(k), HK)
    symbol = Typeset(r"\mathrm{Imp}_i(i)/\mathrm{Imp}_i^{unif}")
    steps = [
        (r"Under uniformly random rankings of all $n$ items every item is at each position with "
         r"probability $1/n$, so an item relevant to $c$ users has the impact",
         eq(Typeset(r"\mathrm{Imp}_i^{unif}"), c * HK / (m * n))),
        (r"Shown at rank 1 (exposure 1) to each of those $c$ users, it has",
         eq(Typeset(r"\mathrm{Imp}_i(i)"), imp)),
        (r"so its ratio does not depend on $c$ or $m$:", eq(symbol, result)),
        (r"With $m \ge n$ users, give each item its own user who finds only that item relevant and "
         r"sees it first: every item has this ratio, so every item is better off (IBO = 1, "
         r"IWO = 0) as soon as $n/H_k \ge 1.1$; at $k = n = 3$ the ratio is",
         eq(symbol, exact.subs({n: 3, k: 3}))),
    ]
    return Derivation(key="ibo_rank_one", bound="ibo_rank_one_ratio", measure="IBO_ori", end="most_fair",
                      symbol=symbol, steps=tuple(steps), result=result,
                      symbols={"n": n, "k": k}, params=("n", "k"), domain=sp.Le(k, n),
                      cases={"k = n = 3": exact.subs({n: 3, k: 3})}, forms={"harmonic": exact},
                      numeric_result=n / H_k,
                      source="Paper 3, non-realisability of IBO/IWO (its 2/3 and 1/3 at k = n = 3, m = 2)")


#: measure -> end -> derivation function (the closed forms with a numeric twin in recfair.joint.bounds)
JOINT_DERIVATIONS = {
    "IAA_our": {"most_fair": iaa_most_fair, "most_unfair": iaa_most_unfair},
    "IAA_ori": {"most_fair": iaa_ori_most_fair, "most_unfair": iaa_ori_most_unfair},
    "II-F_our": {"most_fair": iif_most_fair, "most_unfair": iif_most_unfair},
}
