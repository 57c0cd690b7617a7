r"""Achievable bounds of the item-exposure measures of Paper 1, derived with sympy.

Every function builds the recommendation that attains the bound, feeds its counts (or exposures)
into the measure's own formula and lets sympy do the algebra. It returns a
:class:`~recfair.book.symbolic.Derivation`: the captioned steps, the closed form and its special
cases. The numeric twins live in :mod:`recfair.item_exposure.bounds`; the tests check that both agree.

Two recommendations recur (Paper 1, appendix on the mathematical workings for the bounds):

* **most unfair**: the same :math:`k` items go to all :math:`m` users, so :math:`k` items are
  counted :math:`m` times and the other :math:`n - k` never;
* **most fair (balanced)**: with :math:`km = nf + r`, :math:`f = \lfloor km/n \rfloor` and
  :math:`r = km \bmod n`, :math:`n - r` items are counted :math:`f` times and :math:`r` items
  :math:`f + 1` times.

>>> from recfair.item_exposure.derivations import jain_most_fair
>>> d = jain_most_fair()
>>> d.result
(f*n + r)**2/(n*(f**2*n + r*(2*f + 1)))
>>> d.cases["n divides km (r = 0)"]
1
>>> round(d.evaluate(3, 7, 2), 6)  # m = 3 users, n = 7 items, k = 2: counts (1, 1, 1, 1, 1, 1, 0)
0.857143
"""

from __future__ import annotations

from functools import cache

import sympy as sp

from ..book.symbolic import (CheckResult, Derivation, Typeset, as_written, beta, check_against, ell, eq, f, frac, gamma,
                        generic_branch, i, j, k, linear_sum, m, n, r, s, u, w, x1, x2, x3)

__all__ = [
    "jain_most_unfair", "jain_most_fair", "qf_most_unfair", "qf_most_fair", "ent_most_unfair",
    "ent_most_fair", "gini_most_unfair", "gini_most_fair", "gini_w_most_unfair", "gini_w_most_fair",
    "fsat_most_unfair", "fsat_true_minimum", "fsat_most_fair", "vocd_upper_bound", "dcg_weight",
    "iid_single_round", "aid_single_round_max", "random_exposure",
    "DERIVATIONS", "derive", "all_derivations", "CheckResult", "Derivation", "check_against",
]

_MNK = {"m": m, "n": n, "k": k}
_MNKFR = {**_MNK, "f": f, "r": r}
_K_BELOW_N = sp.Lt(k, n)

# typeset names of the quantities that appear on the left of the steps
SUM_C = Typeset(r"\sum_{i\in I} c_i")
SUM_C2 = Typeset(r"\sum_{i\in I} c_i^2")
KM = Typeset(r"km")
C_MIN = Typeset(r"c_{\min}")

# where the thesis states the bounds (cited by paper, section and name, never by line or label)
_APPENDIX = "Paper 1, appendix (mathematical workings for the bounds)"
_TABLE = "Paper 1's table of achievable scores"
_RESOLVING = "Paper 1, section Resolving Limitations"


def dcg_weight(position):
    r"""The DCG examination weight :math:`w_\ell = 1/\log_2(\ell + 1) = \log_{\ell+1} 2`.

    >>> dcg_weight(1)
    1
    """
    return sp.log(2) / sp.log(position + 1)


def _balanced_total() -> list[tuple[str, sp.Basic]]:
    """The two steps that show the balanced counts use every slot exactly once."""
    total = (n - r) * f + r * (f + 1)
    return [
        (r"Balanced counts: $n - r$ items are recommended $f$ times and $r$ items $f + 1$ times.",
         eq(SUM_C, total)),
        (r"They fill all $km = nf + r$ slots.", eq(SUM_C, sp.expand(total))),
    ]


# ----------------------------------------------------------------------------------------------
# Jain's index (B1, B2)
# ----------------------------------------------------------------------------------------------

JAIN = Typeset(r"\mathrm{Jain}")


@cache
def jain_most_unfair() -> Derivation:
    r"""B1: :math:`\mathrm{Jain}_{\min} = k/n`, from the same :math:`k` items for everyone.

    It is the true minimum: :math:`c_i \le m` gives :math:`\sum_i c_i^2 \le m \sum_i c_i = km^2`.
    """
    sum_c, sum_c2 = k * m, k * m**2
    jain = frac((k * m) ** 2, n * sum_c2)
    result = sp.simplify(jain)
    steps = [
        (r"Same $k$ items for all users: $k$ items have $c_i = m$, the other $n - k$ have $c_i = 0$.",
         eq(SUM_C, sum_c)),
        (r"Sum of squared counts.", eq(SUM_C2, sum_c2)),
        (r"Jain's index $(km)^2 / (n\sum_i c_i^2)$ of these counts.", eq(JAIN, jain)),
        (r"Cancel $km^2$.", eq(Typeset(r"\mathrm{Jain}_{\min}"), result)),
        (r"No recommendation does worse: $c_i \le m$ gives $\sum_i c_i^2 \le m\sum_i c_i = km^2$.",
         sp.Le(SUM_C2, m * sum_c)),
    ]
    return Derivation(
        key="jain_most_unfair", measure="Jain_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{Jain}_{\min}"), steps=tuple(steps), result=result, symbols=_MNK,
        domain=_K_BELOW_N, source=f"{_APPENDIX}, Jain; {_TABLE}",
    )


@cache
def jain_most_fair() -> Derivation:
    r"""B2: :math:`\mathrm{Jain}_{\max} = (km)^2 / \bigl(n(nf^2 + r(2f+1))\bigr)`."""
    squares = (n - r) * f**2 + r * (f + 1) ** 2
    expanded = sp.expand(squares)
    collected = sp.collect(expanded, r)
    thesis = (k * m) ** 2 / (n * collected)
    result = (n * f + r) ** 2 / (n * collected)
    steps = _balanced_total() + [
        (r"Sum of squared counts.", eq(SUM_C2, squares)),
        (r"Expand $(f+1)^2 = f^2 + 2f + 1$ ...", eq(SUM_C2, expanded)),
        (r"... and collect the terms in $r$.", eq(SUM_C2, collected)),
        (r"Jain's index of the balanced counts (the thesis's form).",
         eq(Typeset(r"\mathrm{Jain}_{\max}"), thesis)),
        (r"Written in $n, f, r$ only, with $km = nf + r$.", eq(Typeset(r"\mathrm{Jain}_{\max}"), result)),
    ]
    cases = {
        "n divides km (r = 0)": sp.simplify(result.subs(r, 0)),
        "km < n (f = 0, r = km)": sp.simplify(result.subs(f, 0).subs(r, k * m)),
    }
    return Derivation(
        key="jain_most_fair", measure="Jain_ori", end="most_fair",
        symbol=Typeset(r"\mathrm{Jain}_{\max}"), steps=tuple(steps), result=result, symbols=_MNKFR,
        domain=_K_BELOW_N, cases=cases, forms={"thesis": thesis},
        source=f"{_APPENDIX}, Jain; {_TABLE}",
    )


# ----------------------------------------------------------------------------------------------
# Qualification fairness (B3, B4)
# ----------------------------------------------------------------------------------------------

SIZE_R = Typeset(r"|R|")


def _qf_of(size):
    """QF is Jain's index of the indicators :math:`1_R(i)`: :math:`|R|^2 / (n|R|)`."""
    return frac(size**2, n * size)


@cache
def qf_most_unfair() -> Derivation:
    r"""B3: :math:`\mathrm{QF}_{\min} = k/n`: only the same :math:`k` items are ever recommended."""
    result = sp.simplify(_qf_of(k))
    steps = [
        (r"QF is Jain's index of the indicators $1_R(i)$; both sums equal $|R|$.",
         eq(Typeset(r"\mathrm{QF}"), _qf_of(SIZE_R))),
        (r"Same $k$ items for all users: $|R| = k$.", eq(Typeset(r"\mathrm{QF}_{\min}"), _qf_of(k))),
        (r"Cancel.", eq(Typeset(r"\mathrm{QF}_{\min}"), result)),
    ]
    return Derivation(
        key="qf_most_unfair", measure="QF_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{QF}_{\min}"), steps=tuple(steps), result=result, symbols=_MNK,
        domain=_K_BELOW_N, source=f"{_APPENDIX}, QF",
    )


@cache
def qf_most_fair() -> Derivation:
    r"""B4: :math:`\mathrm{QF}_{\max} = \min(km/n, 1)`: as many distinct items as slots allow."""
    qf = sp.simplify(_qf_of(SIZE_R))
    result = sp.Min(k * m / n, 1)
    steps = [
        (r"QF simplifies to the share of recommended items.", eq(Typeset(r"\mathrm{QF}"), qf)),
        (r"$|R|$ is at most the number of slots and at most the catalogue.",
         sp.Le(SIZE_R, sp.Min(k * m, n))),
        (r"If $km < n$, every slot holds a different item: $|R| = km$.",
         eq(Typeset(r"\mathrm{QF}_{\max}"), _qf_of(k * m))),
        (r"If $km \ge n$, every item can be recommended: $|R| = n$.",
         eq(Typeset(r"\mathrm{QF}_{\max}"), _qf_of(n))),
        (r"Both cases in one formula.", eq(Typeset(r"\mathrm{QF}_{\max}"), result)),
    ]
    cases = {"km < n": sp.simplify(_qf_of(k * m)), "km >= n": sp.simplify(_qf_of(n))}
    return Derivation(
        key="qf_most_fair", measure="QF_ori", end="most_fair",
        symbol=Typeset(r"\mathrm{QF}_{\max}"), steps=tuple(steps), result=result, symbols=_MNK,
        domain=_K_BELOW_N, cases=cases, source=f"{_APPENDIX}, QF",
    )


# ----------------------------------------------------------------------------------------------
# Entropy (B5, B6)
# ----------------------------------------------------------------------------------------------

ENT = Typeset(r"\mathrm{Ent}")


def _entropy_term(size, p, evaluate=True):
    """``size`` items with probability ``p`` each contribute :math:`-\\text{size}\\, p \\log p`."""
    return -size * p * sp.log(p, evaluate=evaluate)


@cache
def ent_most_unfair() -> Derivation:
    r"""B5: :math:`\mathrm{Ent}_{\min} = \log k` (base :math:`n` in the thesis's experiments)."""
    p = frac(m, k * m)
    written = _entropy_term(k, sp.Symbol("p"))
    result = sp.simplify(_entropy_term(k, 1 / k))
    steps = [
        (r"Same $k$ items for all users: each has $p(i) = m / km = 1/k$, the others $p(i) = 0$ "
         r"(left out, as in $\mathrm{Ent}_{\mathrm{def}}$).", eq(Typeset(r"p(i)"), p)),
        (r"$k$ equal terms $-p \log p$.", eq(ENT, written)),
        (r"With $p = 1/k$.", eq(Typeset(r"\mathrm{Ent}_{\min}"), _entropy_term(k, sp.Pow(k, -1), evaluate=False))),
        (r"Simplify.", eq(Typeset(r"\mathrm{Ent}_{\min}"), result)),
    ]
    cases = {"base n": result / sp.log(n)}
    return Derivation(
        key="ent_most_unfair", measure="Ent_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{Ent}_{\min}"), steps=tuple(steps), result=result, symbols=_MNK,
        domain=_K_BELOW_N, cases=cases, log_result=True,
        source=f"{_APPENDIX}, Ent",
    )


@cache
def ent_most_fair() -> Derivation:
    r"""B6: :math:`\mathrm{Ent}_{\max}` from the balanced counts; :math:`\log n` if :math:`n \mid km`."""
    total = n * f + r
    p_low, p_high = f / total, (f + 1) / total
    thesis = _entropy_term(n - r, f / KM) + _entropy_term(r, (f + 1) / KM)
    result = _entropy_term(n - r, p_low) + _entropy_term(r, p_high)
    r_pos = sp.Symbol("r", positive=True)
    zero_log_zero = sp.limit(f * sp.log(f), f, 0)
    short = sp.limit(result.subs(r, r_pos), f, 0).subs(r_pos, r)
    steps = _balanced_total() + [
        (r"Recommendation frequencies $p = c_i / km$ of the two groups.",
         sp.Tuple(eq(Typeset(r"p_{\mathrm{low}}"), f / KM), eq(Typeset(r"p_{\mathrm{high}}"), (f + 1) / KM))),
        (r"They sum to one.", eq((n - r) * p_low + r * p_high, sp.simplify((n - r) * p_low + r * p_high))),
        (r"Entropy of the balanced counts (the thesis's closed form of the fairest entropy).", eq(Typeset(r"\mathrm{Ent}_{\max}"), thesis)),
        (r"Written in $n, f, r$ only, with $km = nf + r$.", eq(Typeset(r"\mathrm{Ent}_{\max}"), result)),
        (r"If $n \mid km$ ($r = 0$) every item has $p = 1/n$.",
         eq(Typeset(r"\mathrm{Ent}_{\max}"), sp.simplify(result.subs(r, 0)))),
        (r"If $km < n$ ($f = 0$) the first group is never recommended; $0 \log 0 = 0$ by continuity ...",
         eq(sp.Limit(f * sp.log(f), f, 0), zero_log_zero)),
        (r"... so only the $r = km$ items recommended once remain.",
         eq(Typeset(r"\mathrm{Ent}_{\max}"), short.subs(r, k * m))),
    ]
    cases = {
        "n divides km (r = 0)": sp.simplify(result.subs(r, 0)),
        "km < n (f = 0, r = km)": sp.expand_log(short.subs(r, k * m), force=True),
    }
    numeric = sp.Piecewise((sp.log(k * m), sp.Lt(k * m, n)), (result, True))
    return Derivation(
        key="ent_most_fair", measure="Ent_ori", end="most_fair",
        symbol=Typeset(r"\mathrm{Ent}_{\max}"), steps=tuple(steps), result=result, symbols=_MNKFR,
        domain=_K_BELOW_N, cases=cases, forms={"thesis": thesis}, numeric_result=numeric,
        log_result=True, source=f"{_APPENDIX}, Ent; {_RESOLVING}, the equation of Ent_max",
    )


# ----------------------------------------------------------------------------------------------
# Gini index (B7, B8)
# ----------------------------------------------------------------------------------------------

GINI = Typeset(r"\mathrm{Gini}")
XBAR = Typeset(r"\bar{x}")


@cache
def gini_most_unfair() -> Derivation:
    r"""B7: :math:`\mathrm{Gini}_{\max} = 1 - k/n` from the sorted-index form of the Gini index (Paper 1's definition)."""
    numerator_sum = sp.Sum((2 * j - n - 1) * m, (j, n - k + 1, n))
    numerator = as_written(numerator_sum.doit(), k * m * (n - k))
    twice_j = as_written(2 * sp.Sum(j, (j, n - k + 1, n)).doit(), (2 * n - k + 1) * k)
    denominator = n * k * m
    result = sp.expand(sp.simplify(numerator / denominator))
    steps = [
        (r"Same $k$ items for all users. Sorted ascending, $Ex_j = 0$ for $j \le n - k$ and "
         r"$Ex_j = m$ for the last $k$ indices.",
         eq(GINI, frac(numerator_sum, n * Typeset(r"\sum_{j} Ex_j")))),
        (r"The arithmetic series $2\sum_{j=n-k+1}^{n} j$ (an intermediate line of the thesis's appendix has $2n - km + 1$; "
         r"it should be $2n - k + 1$).", eq(2 * sp.Sum(j, (j, n - k + 1, n)), twice_j)),
        (r"So the numerator is", eq(numerator_sum, numerator)),
        (r"and the total exposure is $km$.", eq(Typeset(r"\sum_{j} Ex_j"), denominator / n)),
        (r"Divide.", eq(Typeset(r"\mathrm{Gini}_{\max}"), frac(numerator, denominator))),
        (r"Simplify.", eq(Typeset(r"\mathrm{Gini}_{\max}"), result)),
    ]
    return Derivation(
        key="gini_most_unfair", measure="Gini_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{Gini}_{\max}"), steps=tuple(steps), result=result, symbols=_MNK,
        domain=_K_BELOW_N, source=f"{_APPENDIX}, Gini",
    )


@cache
def gini_most_fair() -> Derivation:
    r"""B8: :math:`\mathrm{Gini}_{\min} = (n - r) r / (kmn)` from the pairwise form."""
    blocks = [(n - r, f), (r, f + 1)]  # (number of items, count)
    pairs = sp.Add(*[a * b * sp.Abs(ca - cb) for a, ca in blocks for b, cb in blocks])
    xbar = sp.expand(((n - r) * f + r * (f + 1))) / n
    pairwise = pairs / (2 * n**2 * xbar)
    result = (n - r) * r / (n * (n * f + r))
    assert sp.simplify(pairwise - result) == 0
    thesis = (n - r) * r / (k * m * n)
    # cross-check with the sorted-index form: n - r counts f first, then r counts f + 1
    sorted_num = (sp.Sum((2 * j - n - 1) * f, (j, 1, n - r)) + sp.Sum((2 * j - n - 1) * (f + 1), (j, n - r + 1, n)))
    sorted_form = sp.factor(sorted_num.doit() / (n * (n * f + r)))
    assert sp.simplify(sorted_form - result) == 0
    steps = _balanced_total() + [
        (r"Mean count.", eq(XBAR, xbar)),
        (r"Pairwise form: sum of $|c_i - c_{i'}|$ over ordered pairs, block by block; only the "
         r"$2(n - r)r$ ordered pairs across the two groups differ, by one.",
         eq(Typeset(r"\sum_{(i,i')} |c_i - c_{i'}|"), pairs)),
        (r"Gini of the balanced counts, $\sum |c_i - c_{i'}| / (2n^2\bar{x})$.",
         eq(Typeset(r"\mathrm{Gini}_{\min}"), frac(pairs, 2 * n**2 * xbar))),
        (r"Simplify.", eq(Typeset(r"\mathrm{Gini}_{\min}"), result)),
        (r"With $nf + r = km$ this is the thesis's form.", eq(Typeset(r"\mathrm{Gini}_{\min}"), thesis)),
        (r"Cross-check with the sorted-index form of the Gini index: the same value.",
         eq(frac(sorted_num, n * KM), as_written(sorted_form, result))),
    ]
    cases = {
        "n divides km (r = 0)": sp.simplify(result.subs(r, 0)),
        # the thesis says "km > n" beside its Gini_min equation; the simplification needs km < n
        "km < n (f = 0, r = km)": sp.expand(sp.simplify(result.subs(f, 0)).subs(r, k * m)),
    }
    return Derivation(
        key="gini_most_fair", measure="Gini_ori", end="most_fair",
        symbol=Typeset(r"\mathrm{Gini}_{\min}"), steps=tuple(steps), result=result, symbols=_MNKFR,
        domain=_K_BELOW_N, cases=cases, forms={"thesis": thesis},
        source=f"{_APPENDIX}, Gini; {_RESOLVING}, the equation of Gini_min",
    )


# ----------------------------------------------------------------------------------------------
# Weighted Gini with DCG examination (B9, B10)
# ----------------------------------------------------------------------------------------------

W_SUM = sp.Sum(w[ell], (ell, 1, k))
C_K = Typeset(r"C_k")


def _c_k(weights=None):
    r""":math:`C_k = \sum_\ell (2\ell - 1) w_\ell / \sum_\ell w_\ell` (symbolic or with given weights)."""
    expr = sp.Sum((2 * ell - 1) * w[ell], (ell, 1, k)) / W_SUM
    return expr if weights is None else _with_weights(expr, weights)


def _with_weights(expr, weights):
    """Replace every :math:`w_\\ell` by ``weights(ell)``."""
    return expr.replace(lambda e: isinstance(e, sp.Indexed) and e.base == w,
                        lambda e: weights(e.indices[0]))


def _dcg(expr):
    return _with_weights(expr, dcg_weight)


def _uniform(expr):
    return sp.simplify(_with_weights(expr, lambda position: sp.Integer(1)).doit())


def _concrete_k(expr, value):
    return sp.nsimplify(sp.simplify(expr.subs(k, value).doit()))


@cache
def gini_w_most_unfair() -> Derivation:
    r"""B9: :math:`\mathrm{Gini\text{-}w}_{\max} = 1 - C_k/n` with DCG weights.

    The same :math:`k` items in the same positions for all users. Sorted ascending, the item at
    rank :math:`\ell` has the sorted index :math:`j = n - \ell + 1` and exposure :math:`m w_\ell`.
    """
    j_of_rank = n - ell + 1
    coefficient = 2 * j_of_rank - n - 1
    numerator = sp.Sum(coefficient * m * w[ell], (ell, 1, k))
    denominator = n * sp.Sum(m * w[ell], (ell, 1, k))
    ratio = sp.factor_terms(numerator) / sp.factor_terms(denominator)
    split = linear_sum(sp.Sum(coefficient * w[ell], (ell, 1, k)))
    general = 1 - _c_k() / n
    assert sp.simplify(linear_sum(sp.expand(split / (n * W_SUM) - general))) == 0
    thesis = _dcg(sp.Sum((n - 2 * ell + 1) * w[ell], (ell, 1, k)) / (n * W_SUM))
    result = _dcg(general)
    steps = [
        (r"The item at rank $\ell$ has the sorted index $j = n - \ell + 1$, so its coefficient "
         r"$2j - n - 1$ is", eq(Typeset(r"2j - n - 1"), coefficient)),
        (r"Every user gives it exposure $w_\ell$: numerator and denominator of the sorted-index Gini index.",
         eq(Typeset(r"\mathrm{Gini\text{-}w}_{\max}"), frac(numerator, denominator))),
        (r"$m$ cancels.", eq(Typeset(r"\mathrm{Gini\text{-}w}_{\max}"), ratio)),
        (r"Split the numerator by linearity.", eq(sp.Sum(coefficient * w[ell], (ell, 1, k)), split)),
        (r"So, with $C_k = \sum_\ell (2\ell - 1) w_\ell / \sum_\ell w_\ell$,",
         eq(Typeset(r"\mathrm{Gini\text{-}w}_{\max}"), 1 - C_K / n)),
        (r"With DCG weights $w_\ell = \log_{\ell+1} 2 = 1 / \log_2(\ell + 1)$.",
         eq(Typeset(r"\mathrm{Gini\text{-}w}_{\max}"), result)),
        (r"Uniform weights ($w_\ell = 1$) give $C_k = k$ and recover Gini.",
         eq(Typeset(r"\mathrm{Gini}_{\max}"), sp.expand(_uniform(general)))),
    ]
    cases = {
        "uniform weights": sp.expand(_uniform(general)),
        "k = 1": _concrete_k(result, 1),
        "k = 2": sp.simplify(result.subs(k, 2).doit()),
    }
    return Derivation(
        key="gini_w_most_unfair", measure="Gini-w_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{Gini\text{-}w}_{\max}"), steps=tuple(steps), result=result,
        symbols=_MNK, domain=_K_BELOW_N, cases=cases,
        forms={"thesis": thesis, "general weights": general},
        source=f"{_APPENDIX}, Gini-w; {_RESOLVING}, the equation of Gini-w_max",
    )


@cache
def gini_w_most_fair() -> Derivation:
    r"""B10: :math:`\mathrm{Gini\text{-}w}_{\min} = 1 - mC_k/n`, only for :math:`km \le n`.

    All :math:`km` slots hold distinct items. Sorted ascending: :math:`n - km` zeros, then
    :math:`m` items at :math:`w_k`, ..., :math:`m` items at :math:`w_1`; the block of rank
    :math:`\ell` has the sorted indices :math:`n - \ell m + 1, \dots, n - \ell m + m`.
    """
    inner = sp.Sum(2 * j - n - 1, (j, n - ell * m + 1, n - ell * m + m))
    inner_value = sp.factor(inner.doit())
    inner_thesis = m * (n - (2 * ell - 1) * m)
    assert sp.expand(inner_value - inner_thesis) == 0
    double = sp.Sum(inner * w[ell], (ell, 1, k))
    denominator = m * n * W_SUM
    numerator = sp.Sum(inner_thesis * w[ell], (ell, 1, k))
    split = linear_sum(numerator)
    general = 1 - m * _c_k() / n
    assert sp.simplify(linear_sum(sp.expand(split / denominator - general))) == 0
    thesis = _dcg(double / denominator)
    result = _dcg(general)
    steps = [
        (r"Numerator and denominator of the fairest Gini-w: $m$ distinct items at every rank, "
         r"total exposure $m\sum_\ell w_\ell$.",
         eq(Typeset(r"\mathrm{Gini\text{-}w}_{\min}"), frac(double, denominator))),
        (r"The inner sum over one block of $m$ sorted indices.", eq(inner, inner_value)),
        (r"That is $m(n - (2\ell - 1)m)$.", eq(inner, inner_thesis)),
        (r"Split the numerator by linearity.", eq(numerator, split)),
        (r"So, with the same $C_k$ as for $\mathrm{Gini\text{-}w}_{\max}$,",
         eq(Typeset(r"\mathrm{Gini\text{-}w}_{\min}"), 1 - m * C_K / n)),
        (r"With DCG weights.", eq(Typeset(r"\mathrm{Gini\text{-}w}_{\min}"), result)),
        (r"Uniform weights recover $\mathrm{Gini}_{\min} = 1 - km/n$ for $km \le n$.",
         eq(Typeset(r"\mathrm{Gini}_{\min}"), sp.expand(_uniform(general)))),
    ]
    cases = {
        "uniform weights": sp.expand(_uniform(general)),
        "k = 1": _concrete_k(result, 1),
        "k = 2, m = 2, n = 4": result.subs({k: 2, m: 2, n: 4}).doit(),
    }
    return Derivation(
        key="gini_w_most_fair", measure="Gini-w_ori", end="most_fair",
        symbol=Typeset(r"\mathrm{Gini\text{-}w}_{\min}"), steps=tuple(steps), result=result,
        symbols=_MNK, domain=sp.And(_K_BELOW_N, sp.Le(k * m, n)), cases=cases,
        forms={"thesis": thesis, "general weights": general},
        source=f"{_APPENDIX}, Gini-w; {_RESOLVING}, the equation of Gini-w_min",
    )


# ----------------------------------------------------------------------------------------------
# Fraction of satisfied items (B11, B12, and the true minimum)
# ----------------------------------------------------------------------------------------------

DELTA = sp.Function(r"\delta")
FSAT = Typeset(r"\mathrm{FSat}")


def _fsat_of(blocks, threshold=f):
    """``(number of items, count)`` blocks -> FSat with unevaluated :math:`\\delta` indicators."""
    return sp.Add(*[size * DELTA(sp.Ge(count, threshold, evaluate=False)) for size, count in blocks]) / n


def _delta_values(expr, known=None):
    """Each :math:`\\delta(\\text{condition})` in ``expr`` with its value, 1 or 0.

    Sympy decides the condition from the symbols' assumptions; ``known`` supplies the
    values it cannot decide (each justified by a step of the derivation).
    """
    known = known or {}
    values = {}
    for delta in sorted(expr.atoms(sp.core.function.AppliedUndef), key=sp.default_sort_key):
        if delta.func != DELTA:
            continue
        condition = delta.args[0]
        truth = known.get(condition, condition.func(*condition.args))
        if truth not in (sp.true, sp.false, True, False):
            raise ValueError(f"cannot decide {condition}; pass its value in 'known'")
        values[delta] = sp.Integer(1 if truth else 0)
    return values


@cache
def fsat_most_unfair() -> Derivation:
    r"""B11: the thesis's :math:`\mathrm{FSat}_{\min} = k/n` (same :math:`k` items for everyone).

    Valid for :math:`km \ge n` only; then :math:`f \ge 1` and the unrecommended items are
    unsatisfied. It is **not** the true minimum: see :func:`fsat_true_minimum`.
    """
    f_pos = sp.Symbol("f", positive=True, integer=True)  # km >= n means f >= 1
    written = _fsat_of([(k, m), (n - k, 0)], threshold=f_pos)
    headroom = as_written(m - k * m / n, m * (n - k) / n)
    d = sp.Symbol("d", nonnegative=True, integer=True)
    assert headroom.subs(n, k + d).is_nonnegative  # k <= n, so m >= km/n >= f
    values = _delta_values(written, known={sp.Ge(m, f_pos, evaluate=False): True})
    result = sp.simplify(written.subs(values))
    always = _fsat_of([(k, m), (n - k, 0)], threshold=sp.Integer(0))
    steps = [
        (r"Same $k$ items for all users: $k$ counts equal $m$, $n - k$ counts equal 0; "
         r"an item is satisfied iff $c_i \ge f$.", eq(FSAT, written)),
        (r"$m - km/n \ge 0$ because $k \le n$, so $m \ge km/n \ge f$.", eq(m - KM / n, headroom)),
        (r"With $km \ge n$, $f \ge 1$: the $k$ recommended items are satisfied, the others are not.",
         sp.Tuple(*[eq(delta, value) for delta, value in values.items()])),
        (r"Hence", eq(Typeset(r"\mathrm{FSat}_{\min}"), result)),
        (r"If $km < n$ instead, $f = 0$ and every item is satisfied (always-fair).",
         eq(FSAT, sp.simplify(always.subs(_delta_values(always))))),
    ]
    return Derivation(
        key="fsat_most_unfair", measure="FSat_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{FSat}_{\min}"), steps=tuple(steps), result=result, symbols=_MNK,
        domain=sp.And(_K_BELOW_N, sp.Ge(k * m, n)),
        cases={"km < n (same lists)": sp.simplify(always.subs(_delta_values(always)))},
        source=f"{_APPENDIX}, FSat; {_TABLE}",
    )


@cache
def fsat_true_minimum() -> Derivation:
    r"""The true minimum of FSat for :math:`km \ge n`: :math:`s_{\min}/n` with
    :math:`s_{\min} = \lceil (km - n(f-1)) / (m - f + 1) \rceil = \lceil (n + r)/(m - f + 1) \rceil`.

    With :math:`s` satisfied items, the counts can hold at most :math:`sm + (n - s)(f - 1)`
    slots (a satisfied item at most :math:`m`, an unsatisfied one at most :math:`f - 1`). Every
    count vector with :math:`c_i \le m` and total :math:`km` is realisable by top-:math:`k` lists.
    """
    capacity = s * m + (n - s) * (f - 1)
    inequality = sp.Ge(capacity, KM)
    polynomial = sp.Poly(sp.expand(capacity - k * m), s)
    coefficient = polynomial.coeff_monomial(s)
    d = sp.Symbol("d", nonnegative=True, integer=True)  # m - f >= 0 since f <= km/n <= m
    boundary = sp.solve(sp.Eq(capacity, k * m), s)[0]
    boundary_fr = sp.simplify(boundary.subs(k * m, n * f + r).subs(k, (n * f + r) / m))
    s_min = sp.ceiling(boundary_fr)
    result = s_min / n
    gap = as_written(k - boundary, (n - k) * (f - 1) / (m - f + 1))
    steps = [
        (r"With $s$ satisfied items, the largest total the counts can hold must reach $km$.", inequality),
        (r"Collect in $s$.", sp.Ge(sp.collect(sp.expand(capacity - k * m), s), 0)),
        (r"The coefficient of $s$ is positive (write $m = f + d$ with $d \ge 0$).",
         eq(coefficient, sp.simplify(coefficient.subs(m, f + d)))),
        (r"So the inequality holds iff $s$ is at least the root of the linear equation.",
         sp.Ge(s, boundary)),
        (r"With $km = nf + r$ the root simplifies.", sp.Ge(s, boundary_fr)),
        (r"$s$ is an integer, so the fewest satisfied items is the ceiling.", eq(Typeset(r"s_{\min}"), s_min)),
        (r"The thesis's lists have $s = k$; the gap to the root is", eq(k - Typeset(r"s^{*}"), gap)),
        (r"So $s_{\min} < k$ whenever $(n - k)(f - 1) \ge m - f + 1$, e.g. $n = 3, k = 2, m = 6$.",
         eq(Typeset(r"s_{\min}"), s_min.subs({n: 3, f: 4, r: 0, m: 6}))),
        (r"If $km < n$ instead, $f = 0$, every item is satisfied and FSat is always 1.",
         eq(Typeset(r"s_{\min}"), n)),
    ]
    numeric = sp.Piecewise((sp.Integer(1), sp.Lt(k * m, n)), (result, True))
    return Derivation(
        key="fsat_true_minimum", measure="FSat_ori", end="true_most_unfair",
        symbol=Typeset(r"\mathrm{FSat}_{\min}^{\mathrm{true}}"), steps=tuple(steps), result=result,
        symbols={**_MNKFR, "s": s}, domain=_K_BELOW_N,
        cases={"n = 3, k = 2, m = 6": result.subs({n: 3, f: 4, r: 0, m: 6}), "km < n": sp.Integer(1)},
        forms={"with km": sp.ceiling(boundary) / n}, numeric_result=numeric,
        source="derived here (thesis Ch. 2, Paper 1, does not state it)",
    )


@cache
def fsat_most_fair() -> Derivation:
    r"""B12: :math:`\mathrm{FSat}_{\max} = 1`: every balanced count is at least :math:`f`."""
    written = _fsat_of([(n - r, f), (r, f + 1)])
    values = _delta_values(written)
    substituted = frac(sp.Add(*[size for size, _ in [(n - r, f), (r, f + 1)]], evaluate=False), n)
    result = sp.simplify(written.subs(values))
    steps = _balanced_total() + [
        (r"An item is satisfied iff $c_i \ge f$.", eq(FSAT, written)),
        (r"Both conditions hold.", sp.Tuple(*[eq(delta, value) for delta, value in values.items()])),
        (r"So every item is satisfied.", eq(Typeset(r"\mathrm{FSat}_{\max}"), substituted)),
        (r"Simplify.", eq(Typeset(r"\mathrm{FSat}_{\max}"), result)),
    ]
    return Derivation(
        key="fsat_most_fair", measure="FSat_ori", end="most_fair",
        symbol=Typeset(r"\mathrm{FSat}_{\max}"), steps=tuple(steps), result=result, symbols=_MNKFR,
        domain=_K_BELOW_N, source=f"{_APPENDIX}, FSat",
    )


# ----------------------------------------------------------------------------------------------
# Violation of coverage disparity (B13, B14)
# ----------------------------------------------------------------------------------------------

CD = Typeset(r"CD")


@cache
def vocd_upper_bound() -> Derivation:
    r"""B13/B14: :math:`\mathrm{VoCD} \le \max\bigl((m - 1)/m - \beta, 0\bigr)`, an upper bound.

    :math:`CD = 1 - x_1/x_2` for counts :math:`1 \le x_1 \le x_2 \le m`. It falls in
    :math:`x_1` and rises in :math:`x_2`, so its largest value is at :math:`x_1 = 1, x_2 = m`.
    Each term :math:`\max(CD - \beta, 0)` of the mean is at most that value minus
    :math:`\beta` (or 0), so the mean is too. The thesis writes :math:`(m-1)/m - \beta`
    (the ``"thesis"`` form), which needs :math:`\beta \le (m-1)/m`.
    """
    cd = (x2 - x1) / x2
    d1, d2 = sp.simplify(sp.diff(cd, x1)), sp.simplify(sp.diff(cd, x2))
    assert d1.is_negative and d2.is_positive
    peak = sp.simplify(cd.subs({x1: 1, x2: m}))
    star = sp.Rational(1, 2) * ((x3 - x1) / x3 + (x3 - x2) / x3)
    star_d = [sp.simplify(sp.diff(star, x)) for x in (x1, x2, x3)]
    assert star_d[0].is_negative and star_d[1].is_negative and star_d[2].is_positive
    star_peak = sp.simplify(star.subs({x1: 1, x2: 1, x3: m}))
    size_a = sp.Symbol("|A|", positive=True, integer=True)
    result = sp.Max(peak - beta, 0)
    mean_bound = sp.Sum(result, (i, 1, size_a)).doit() / size_a
    thesis = peak - beta
    steps = [
        (r"One similar pair with counts $1 \le x_1 \le x_2 \le m$.", eq(CD, cd)),
        (r"$CD$ falls as $x_1$ grows (the derivative is negative) ...", eq(sp.Derivative(CD, x1), d1)),
        (r"... and rises as $x_2$ grows.", eq(sp.Derivative(CD, x2), d2)),
        (r"So it peaks at the smallest $x_1 = 1$ and the largest $x_2 = m$ (Theorem 1).",
         eq(Typeset(r"CD_{\max}"), peak)),
        (r"Two pairs sharing an item, counts $1 \le x_1 \le x_2 \le x_3 \le m$ (Theorem 2, case 2): "
         r"the mean $CD$ falls in $x_1, x_2$ and rises in $x_3$ ...", eq(Typeset(r"\overline{CD}"), sp.expand(star))),
        (r"... so it is again largest at $x_1 = x_2 = 1$, $x_3 = m$.",
         eq(Typeset(r"\overline{CD}_{\max}"), star_peak)),
        (r"In general each of the $|A|$ terms $\max(CD - \beta, 0)$ is at most $\max(CD_{\max} - \beta, 0)$, "
         r"so their mean is too.", sp.Le(Typeset(r"\mathrm{VoCD}"), mean_bound)),
        (r"The upper bound, attained when the only similar pair is shown once and $m$ times.",
         eq(Typeset(r"\mathrm{VoCD}_{\max}"), result)),
        (r"The thesis's form drops the clip at 0, which matters only for $\beta > (m-1)/m$.",
         eq(Typeset(r"\mathrm{VoCD}_{\max}"), thesis)),
    ]
    return Derivation(
        key="vocd_upper_bound", measure="VoCD_ori", end="most_unfair",
        symbol=Typeset(r"\mathrm{VoCD}_{\max}"), steps=tuple(steps), result=result,
        symbols={"m": m, "beta": beta}, params=("m",), defaults={"beta": 0.0}, domain=sp.true,
        cases={"beta = 0": result.subs(beta, 0), "m = 3, beta = 0": result.subs({m: 3, beta: 0}),
               "m = 2, beta = 3/5": result.subs({m: 2, beta: sp.Rational(3, 5)})},
        forms={"thesis": thesis},
        source="thesis Ch. 2 (Paper 1), appendix on VoCD, Theorems 1-2",
    )

# --------------------------------------------------------------------------- II-D and AI-D, single round
# II-D and AI-D in a single round (:math:`W = 1`), derived with sympy (thesis Ch. 2, Paper 1).
# 
# Neither bound is in the thesis. In one round every user's list gives RBP exposures
# :math:`\gamma^0, \dots, \gamma^{k-1}` to exactly :math:`k` items and 0 to the other
# :math:`n - k`, so II-D cannot depend on *which* items are recommended: it is a constant of
# :math:`(n, k, \gamma)`. AI-D can vary, but never exceeds that constant.


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
        source="derived here; thesis Ch. 2 (Paper 1) states only that II-D is constant",
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
        source="derived here (thesis Ch. 2, Paper 1)",
    )


# --------------------------------------------------------------------------- index

#: measure -> end -> function returning the :class:`Derivation` (cached after the first call).
#: The function's ``__name__`` (and the derivation's ``key``) is the matching ``recfair.bounds`` name,
#: except AI-D, whose single-round maximum is the II-D constant ``iid_single_round``.
DERIVATIONS = {
    "Jain_ori": {"most_unfair": jain_most_unfair, "most_fair": jain_most_fair},
    "QF_ori": {"most_unfair": qf_most_unfair, "most_fair": qf_most_fair},
    "Ent_ori": {"most_unfair": ent_most_unfair, "most_fair": ent_most_fair},
    "Gini_ori": {"most_unfair": gini_most_unfair, "most_fair": gini_most_fair},
    "Gini-w_ori": {"most_unfair": gini_w_most_unfair, "most_fair": gini_w_most_fair},
    "FSat_ori": {"most_unfair": fsat_most_unfair, "most_fair": fsat_most_fair,
                 "true_most_unfair": fsat_true_minimum},
    "VoCD_ori": {"most_unfair": vocd_upper_bound},
    "II-D_ori": {"constant": iid_single_round},
    "AI-D_ori": {"most_unfair": aid_single_round_max},
}


def derive(measure: str, end: str) -> Derivation:
    """The derivation of one end of one measure's achievable range, e.g. ``derive("Jain_ori", "most_fair")``.

    Examples
    --------
    >>> derive("Jain_ori", "most_unfair").result
    k/n
    """
    try:
        return DERIVATIONS[measure][end]()
    except KeyError:
        known = ", ".join(f"{key}: {sorted(ends)}" for key, ends in DERIVATIONS.items())
        raise KeyError(f"no derivation for ({measure!r}, {end!r}); known: {known}") from None


def all_derivations() -> list[Derivation]:
    """Every derivation, in the thesis's order of the measures.

    Examples
    --------
    >>> len(all_derivations()) >= 10
    True
    """
    return [func() for ends in DERIVATIONS.values() for func in ends.values()]
