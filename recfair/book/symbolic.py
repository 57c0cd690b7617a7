"""The pieces every derivation shares: symbols, the :class:`Derivation` record and the checker.

Nothing here knows about a particular measure.
The symbols are module constants, so that every derivation (and the book) uses the same
:math:`m, n, k, f, r` and sympy can cancel them against each other.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable, Iterable

import sympy as sp

__all__ = [
    "Derivation", "CheckResult", "Typeset", "as_written", "check_against", "eq", "frac", "latex_rows", "linear_sum",
    "generic_branch", "m", "n", "k", "f", "r", "ell", "j", "i", "u", "s", "gamma", "beta", "x1",
    "x2", "x3", "w",
]

# ----------------------------------------------------------------------------------------------
# symbols
# ----------------------------------------------------------------------------------------------

#: number of users, number of catalogue items, cut-off
m, n, k = sp.symbols("m n k", positive=True, integer=True)
#: f = floor(km / n) and r = km mod n, so that km = n f + r with 0 <= r < n
f, r = sp.symbols("f r", nonnegative=True, integer=True)
#: rank position, sorted index, item index, user index, number of satisfied items
ell, j, i, u, s = sp.symbols("ell j i u s", positive=True, integer=True)
#: RBP patience and VoCD tolerance
gamma = sp.Symbol("gamma", positive=True)
beta = sp.Symbol("beta", nonnegative=True)
#: counts of the items in a VoCD pair (or triple)
x1, x2, x3 = sp.symbols("x_1 x_2 x_3", positive=True)
#: position weights w_ell of an examination function
w = sp.IndexedBase("w", positive=True)


class Typeset(sp.Symbol):
    """A named quantity such as :math:`\\sum_i c_i^2` whose name is printed as raw LaTeX.

    It stands on the left of a step (``Eq(Typeset(...), expression)``); sympy never simplifies
    it away, and the LaTeX printer does not split the name at ``_`` or ``^``.

    Examples
    --------
    >>> import sympy as sp
    >>> print(sp.latex(Typeset(r"\\sum_i c_i^2")))
    \\sum_i c_i^2
    """

    def _latex(self, printer):
        return self.name


def eq(lhs, rhs) -> sp.Eq:
    """An equation kept as written (``evaluate=False``), so that ``x = x`` stays on the page.

    Examples
    --------
    >>> eq(m, m)
    Eq(m, m)
    """
    return sp.Eq(lhs, rhs, evaluate=False)


def frac(numerator, denominator) -> sp.Expr:
    """``numerator / denominator`` without cancelling, to show a fraction before simplifying it.

    Examples
    --------
    >>> frac(2 * k, 2 * n)
    (2*k)/((2*n))
    """
    return sp.Mul(numerator, sp.Pow(denominator, -1, evaluate=False), evaluate=False)


def linear_sum(expr: sp.Expr) -> sp.Expr:
    """Use linearity: split every sum over an ``Add`` and pull out factors free of the index.

    Sums of a constant become the constant times the number of terms.

    >>> import sympy as sp
    >>> x, t = sp.IndexedBase("x"), sp.Symbol("t")
    >>> linear_sum(sp.Sum((x[i] - t) ** 2, (i, 1, n)))
    n*t**2 - 2*t*Sum(x[i], (i, 1, n)) + Sum(x[i]**2, (i, 1, n))
    """
    expanded = sp.expand(expr)
    terms = [sp.factor_terms(term) for term in sp.Add.make_args(expanded)]
    out = sp.Add(*terms)
    return out.replace(lambda e: isinstance(e, sp.Sum) and not e.function.free_symbols & set(e.variables),
                       lambda e: e.doit())


def as_written(computed: sp.Expr, written: sp.Expr) -> sp.Expr:
    """``written``, after checking that it equals what sympy ``computed``.

    Sympy orders terms its own way (``-k*(k - n)``); this keeps the page in the thesis's
    order (``k*(n - k)``) without trusting a hand-typed formula.

    >>> as_written(sp.factor(k * n - k**2), k * (n - k))
    k*(-k + n)
    """
    if sp.simplify(computed - written) != 0:
        raise ValueError(f"{written} is not equal to {computed}")
    return written


def generic_branch(expr: sp.Expr) -> sp.Expr:
    """The last branch of a ``Piecewise``: the general case of a geometric sum (ratio not 1).

    Examples
    --------
    >>> import sympy as sp
    >>> generic_branch(sp.Piecewise((k, sp.Eq(gamma, 1)), ((1 - gamma**k) / (1 - gamma), True)))
    (1 - gamma**k)/(1 - gamma)
    """
    if isinstance(expr, sp.Piecewise):
        return expr.args[-1].expr
    return expr


# ----------------------------------------------------------------------------------------------
# the record
# ----------------------------------------------------------------------------------------------


# ----------------------------------------------------------------------------------------------
# displays that fit a phone
# ----------------------------------------------------------------------------------------------

#: widest row of a display, in :func:`latex_width` units: about 320 px of a phone's column at
#: the book's display size (90 % of the body text; the browser check measures the real width)
PHONE_ROW = 38
#: the same inside a proof or admonition box, which is narrower than the column by its padding
BOX_ROW = 34
_SCRIPT = re.compile(r"([\^_])\{([^{}]*)\}")
_FRAC = re.compile(r"\\frac\{([^{}]*)\}\{([^{}]*)\}")


def latex_width(latex: str) -> int:
    r"""Estimated printed width of ``latex``, in glyphs: a fraction is as wide as its wider part,
    scripts count 0.6, a command is one glyph, spacing and grouping nothing.

    >>> latex_width(r"\frac{a + b}{c}"), latex_width(r"x^{2} + \log{\left(y \right)}")
    (3, 7)
    """
    s = latex
    while True:
        t = _SCRIPT.sub(lambda mt: mt.group(1) + "\x01" * max(1, round(0.6 * latex_width(mt.group(2)))), s)
        t = _FRAC.sub(lambda mt: "\x01" * max(latex_width(mt.group(1)), latex_width(mt.group(2))), t)
        if t == s:
            break
        s = t
    s = re.sub(r"\\(left|right|displaystyle|mathrm|operatorname|text|bigl|bigr|Bigl|Bigr|,|;|!)(?![a-zA-Z])", "", s)
    s = re.sub(r"\\quad", "xx", s)
    s = re.sub(r"\\[a-zA-Z]+", "X", s)
    return len(re.sub(r"[{}\s^_&]", "", s))


def latex_rows(expr, *, width: int = PHONE_ROW) -> str:
    """LaTeX of a sympy relation (or expression), broken into ``aligned`` rows that fit a phone.

    A display at most ``width`` (:func:`latex_width`) wide is returned as ``sp.latex`` gives it.
    A longer one puts its right-hand side's terms on rows of at most ``width``, each continued
    row starting with its sign under the relation (the left-hand side on a row of its own when it
    is long itself). A single term too wide for a row stays whole.

    >>> x, y = sp.symbols("x y")
    >>> latex_rows(sp.Eq(y, x + 1))
    'y = x + 1'
    >>> print(latex_rows(sp.Eq(y, sum(sp.Symbol(f"a_{q}") * x ** q for q in range(12))), width=20))
    \\begin{aligned}
    y &= a_{0} + a_{1} x + a_{10} x^{10} + a_{11} x^{11}\\\\
    &\\quad + a_{2} x^{2} + a_{3} x^{3} + a_{4} x^{4}\\\\
    &\\quad + a_{5} x^{5} + a_{6} x^{6} + a_{7} x^{7}\\\\
    &\\quad + a_{8} x^{8} + a_{9} x^{9}
    \\end{aligned}
    """
    whole = sp.latex(expr)
    if latex_width(whole) <= width:
        return whole
    if isinstance(expr, sp.core.relational.Relational):
        lhs, rhs = sp.latex(expr.lhs), expr.rhs
        relation = {"==": "=", "<=": r"\le", ">=": r"\ge", "<": "<", ">": ">", "!=": r"\ne"}[expr.rel_op]
    else:
        lhs, rhs, relation = "", expr, ""
    factor, close = None, ""
    if isinstance(rhs, sp.Mul):                   # c * (a + b + ...): c [a + b + ...], the sum in rows
        sums = [a for a in rhs.args if isinstance(a, sp.Add)]
        if len(sums) == 1:
            factor = sp.latex(sp.Mul(*[a for a in rhs.args if a is not sums[0]]))
            rhs, close = sums[0], r" \Bigr]"
    terms = rhs.as_ordered_terms() if isinstance(rhs, sp.Add) else [rhs]
    pieces = []
    for index, term in enumerate(terms):
        if term.could_extract_minus_sign():
            pieces.append(("-", sp.latex(-term)))
        else:
            pieces.append(("+" if index else "", sp.latex(term)))

    def build(own_row):
        rows, current = [], (f"{lhs} &{relation} " if lhs and not own_row else (r"&\quad " + relation + " " if lhs else ""))
        start = latex_width(current)
        used = start
        if factor is not None:
            current += factor + r" \Bigl[ "
            used += latex_width(factor) + 1
        for sign, body in pieces:
            piece = f"{sign} {body}".strip() if (used > start or rows) else f"{'- ' if sign == '-' else ''}{body}"
            cost = latex_width(piece)
            if used > start and used + cost > width:
                rows.append(current.rstrip())
                current, used = r"&\quad ", 2
                piece = f"{sign} {body}".strip()
                cost = latex_width(piece)
            current += piece + " "
            used += cost
        rows.append(current.rstrip() + close)
        if own_row:
            rows.insert(0, f"&{lhs}")
        return rows

    # the left-hand side takes a row of its own when it is long itself, or when, set in its own
    # column before every row, it would make the widest continued row too wide (the rows keep
    # their breaks then: the first one only loses the left-hand side)
    own_row = bool(lhs) and latex_width(lhs) > width // 2
    rows = build(own_row)
    if lhs and not own_row and len(rows) > 1 and latex_width(lhs) + max(map(latex_width, rows[1:])) > width:
        rows = [f"&{lhs}", r"&\quad " + rows[0][len(lhs) + 2:]] + rows[1:]
    if len(rows) == 1:
        return whole
    return "\\begin{aligned}\n" + "\\\\\n".join(rows) + "\n\\end{aligned}"


@dataclass(frozen=True, eq=False)
class Derivation:
    """One achievable bound, derived step by step from the recommendation that attains it.

    Attributes
    ----------
    key : name of the function that built it, and of its twin in :mod:`recfair.item_exposure.bounds`
        (e.g. ``"jain_most_fair"``) unless ``bound`` says otherwise.
    measure : canonical measure name (e.g. ``"Jain_ori"``).
    end : ``"most_fair"``, ``"most_unfair"``, ``"true_most_unfair"`` or ``"constant"``.
    symbol : the quantity on the left of the final equation (typeset).
    steps : ``(caption, expression)`` pairs in reading order; each expression is usually an
        ``Eq`` and can be shown with ``display`` or glued as math.
    result : the derived closed form. Bounds that depend on :math:`\\lfloor km/n \\rfloor` and
        :math:`km \\bmod n` are written in :math:`n, f, r` only (using :math:`km = nf + r`), so a
        special case is one substitution away, e.g. ``result.subs(r, 0)``.
    symbols : the sympy symbols by plain name (``"m"``, ``"gamma"``, ...).
    params : the positional arguments of :meth:`evaluate`, in the order of :mod:`recfair.item_exposure.bounds`.
    defaults : default values of keyword parameters (``gamma``, ``beta``).
    domain : where the derivation holds, as a sympy condition on the parameters.
    cases : special cases, each simplified exactly (caption -> expression).
    forms : other forms equal to ``result`` (the thesis's form, a simplified one ...).
    source : where the thesis states it.
    numeric_result : the expression :meth:`evaluate` uses, when it must differ from ``result``
        (e.g. a ``Piecewise`` adding the :math:`km < n` branch); defaults to ``result``.
    log_result : the result is a natural logarithm; ``evaluate(..., log_base=b)`` changes the base.
    bound : name of the :mod:`recfair.item_exposure.bounds` function it equals, when it is not ``key``.

    Examples
    --------
    >>> from recfair.item_exposure.derivations import qf_most_unfair
    >>> d = qf_most_unfair()
    >>> isinstance(d, Derivation), d.result
    (True, k/n)
    """

    key: str
    measure: str
    end: str
    symbol: sp.Symbol
    steps: tuple[tuple[str, sp.Basic], ...]
    result: sp.Expr
    symbols: dict[str, sp.Symbol]
    params: tuple[str, ...] = ("m", "n", "k")
    defaults: dict[str, float] = field(default_factory=dict)
    domain: sp.Basic = sp.true
    cases: dict[str, sp.Expr] = field(default_factory=dict)
    forms: dict[str, sp.Expr] = field(default_factory=dict)
    source: str = ""
    numeric_result: sp.Expr | None = None
    log_result: bool = False
    bound: str | None = None

    @property
    def bound_name(self) -> str:
        """Name of the matching function in :mod:`recfair.item_exposure.bounds`."""
        return self.bound or self.key

    # -- display -------------------------------------------------------------------------------
    def equation(self) -> sp.Eq:
        """``symbol = result``, ready for ``display`` or MyST ``glue``."""
        return eq(self.symbol, self.result)

    def latex(self) -> str:
        """All steps as one ``aligned`` LaTeX block, each preceded by its caption as text."""
        rows = []
        for caption, expr in self.steps:
            rows.append(r"&\text{%s}\\" % caption.replace("%", r"\%"))
            rows.append(r"&\quad %s\\" % sp.latex(expr))
        return "\\begin{aligned}\n" + "\n".join(rows) + "\n\\end{aligned}"

    def markdown(self, *, width: int = PHONE_ROW) -> str:
        """All steps as Markdown: each caption, then its relation as a display equation.

        A relation too wide for a phone is broken into rows (:func:`latex_rows`) of at most ``width``
        (:data:`BOX_ROW` for steps shown inside a proof or admonition box).

        >>> from recfair.item_exposure.derivations import qf_most_unfair
        >>> qf_most_unfair().markdown().count("$$") == 2 * len(qf_most_unfair().steps)
        True
        """
        return "\n\n".join(f"{caption}\n\n$$\n{latex_rows(expr, width=width)}\n$$" for caption, expr in self.steps)

    def show(self) -> None:
        """Display every step in a notebook (the Markdown of :meth:`markdown`)."""
        from IPython.display import Markdown, display  # imported lazily: notebooks only

        display(Markdown(self.markdown()))

    def _repr_latex_(self) -> str:
        return "$\\displaystyle %s$" % sp.latex(self.equation())

    def __repr__(self) -> str:
        return f"Derivation({self.key!r}: {self.symbol} = {self.result}, {len(self.steps)} steps)"

    # -- numbers -------------------------------------------------------------------------------
    @cached_property
    def _compiled(self) -> tuple[tuple[str, ...], Callable, Callable]:
        expr = self.result if self.numeric_result is None else self.numeric_result
        names = tuple(sorted(name for name, sym in self.symbols.items() if sym in expr.free_symbols))
        func = sp.lambdify([self.symbols[name] for name in names], expr, modules="math")
        cond_names = tuple(name for name in self.params if self.symbols[name] in self.domain.free_symbols)
        cond = sp.lambdify([self.symbols[name] for name in cond_names], self.domain, modules="math")
        return names, func, (lambda values: bool(cond(*[values[name] for name in cond_names])))

    def _values(self, args, kwargs) -> dict:
        if len(args) != len(self.params):
            raise TypeError(f"{self.key} takes {len(self.params)} positional arguments {self.params}")
        values = dict(self.defaults)
        values.update(zip(self.params, args))
        values.update(kwargs)
        if {"m", "n", "k"} <= values.keys():
            values["f"], values["r"] = divmod(values["k"] * values["m"], values["n"])
        return values

    def applies(self, *args, **kwargs) -> bool:
        """Whether the derivation's domain contains these parameter values."""
        return self._compiled[2](self._values(args, kwargs))

    def evaluate(self, *args, log_base: float | None = None, **kwargs) -> float:
        """The bound as a float, with arguments in the order of :mod:`recfair.item_exposure.bounds`.

        ``f`` and ``r`` are computed from ``(m, n, k)``. ``log_base`` (as in :func:`recfair.item_entropy`) applies only to a logarithmic
        result (``None``: natural logarithm).
        """
        values = self._values(args, kwargs)
        names, func, _ = self._compiled
        value = float(func(*[values[name] for name in names]))
        if log_base is not None:
            if not self.log_result:
                raise TypeError(f"{self.key} is not a logarithm; 'log_base' does not apply")
            value /= math.log(log_base)
        return value


# ----------------------------------------------------------------------------------------------
# checking against recfair.bounds
# ----------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CheckResult:
    """Outcome of :func:`check_against`: how many grid points were compared, and the misses.

    Examples
    --------
    >>> r = CheckResult(points=3, mismatches=[])
    >>> r.points, bool(r)
    (3, True)
    """

    points: int
    mismatches: list[tuple[tuple, float, float]]

    @property
    def ok(self) -> bool:
        """At least one point was compared and none disagreed."""
        return self.points > 0 and not self.mismatches

    def __bool__(self) -> bool:
        return self.ok


def check_against(bounds_func: Callable, derivation: Derivation, grid: Iterable[tuple], *,
                  atol: float = 1e-12, rtol: float = 1e-12, **params) -> CheckResult:
    """Compare a numeric bound with a derivation on every grid point inside its domain.

    Each grid point is a tuple of positional arguments in ``derivation.params`` order (usually
    ``(m, n, k)``); ``params`` are passed as keywords to both sides (``gamma=0.8``, ``log_base=n`` ...).
    Points outside ``derivation.domain`` are skipped.

    >>> from recfair.item_exposure.derivations import jain_most_unfair
    >>> check_against(lambda m, n, k: k / n, jain_most_unfair(), [(2, 5, 1), (3, 7, 2)]).ok
    True
    """
    points, mismatches = 0, []
    for point in grid:
        point = tuple(point)
        if not derivation.applies(*point, **params):
            continue
        points += 1
        expected = float(bounds_func(*point, **params))
        got = derivation.evaluate(*point, **params)
        if not math.isclose(expected, got, rel_tol=rtol, abs_tol=atol):
            mismatches.append((point, expected, got))
    return CheckResult(points, mismatches)
