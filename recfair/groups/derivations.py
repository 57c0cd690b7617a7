r"""Identities and ranges of Part V's group measures, derived with sympy (thesis Paper 6).

* :func:`atkinson_identity` derives the exact decomposition
  :math:`1-\mathrm{Atk}_{ind}=(1-\mathrm{Atk}_{group})(1-\mathrm{Atk}_{within})` for any number of
  groups, every step checked by sympy on ``n_groups`` groups with symbolic sizes, means and
  equally-distributed equivalents.
* :func:`mad_factor` shows that the printed MAD normalisation is half the mean over unordered pairs.
* :func:`cv_maximum` derives CV's largest value over group means in [0, 1]: :math:`\sqrt{N'-1}`.
* :func:`gce_zero_group` derives what one group with zero mean effectiveness adds to GCE.

>>> d = atkinson_identity()
>>> d.holds
True
"""

from __future__ import annotations

from dataclasses import dataclass, field

import sympy as sp

from ..book.symbolic import Typeset, eq

__all__ = ["Identity", "atkinson_identity", "mad_factor", "cv_maximum", "gce_zero_group"]

#: symbols shared by the derivations
r, N, Np = sp.symbols("r N N'", positive=True)
beta, lam, c = sp.symbols("beta lambda c", positive=True)


@dataclass(frozen=True)
class Identity:
    """A derivation: captioned steps (each a sympy relation), the result, and sympy's checks.

    ``checks`` maps a description to an expression that sympy simplified; the identity
    ``holds`` when every check is 0.

    >>> x = sp.Symbol("x")
    >>> Identity(steps=(("Squares", eq(x**2, x * x)),), result=eq(x**2, x * x), checks={"sq": x**2 - x * x}).holds
    True
    """

    steps: tuple[tuple[str, sp.Basic], ...]
    result: sp.Basic
    checks: dict = field(default_factory=dict)

    @property
    def holds(self) -> bool:
        """Every check simplifies to 0.

        >>> mad_factor().holds
        True
        """
        return all(sp.simplify(v) == 0 for v in self.checks.values())

    def markdown(self) -> str:
        """The steps as Markdown: each caption, then its relation as a display equation.

        >>> mad_factor().markdown().count("$$")
        4
        """
        return "\n\n".join(f"{caption}\n\n$$\n{sp.latex(expr)}\n$$" for caption, expr in self.steps)


def atkinson_identity(n_groups: int = 3) -> Identity:
    r"""The Atkinson decomposition, derived step by step and checked by sympy on ``n_groups`` groups.

    With :math:`r = 1-\varepsilon`, group :math:`j` of :math:`n_j` users has mean :math:`\mu_j` and
    equally-distributed equivalent (EDE) :math:`f_j=(\frac1{n_j}\sum_{u\in g_j}x_u^r)^{1/r}`, so
    :math:`\mathrm{Atk}(g_j)=1-f_j/\mu_j`.

    Parameters
    ----------
    n_groups : int, default=3
        The number of groups sympy checks the identity on (symbolic sizes, means and EDEs).

    Returns
    -------
    Identity
        The captioned steps, the result and sympy's checks (``holds``).

    Examples
    --------
    >>> atkinson_identity(2).holds
    True
    """
    if not isinstance(n_groups, int) or n_groups < 1:
        raise ValueError(f"n_groups must be a positive integer, got {n_groups!r}.")
    n = sp.symbols(f"n1:{n_groups + 1}", positive=True)
    mu = sp.symbols(f"mu1:{n_groups + 1}", positive=True)
    f = sp.symbols(f"f1:{n_groups + 1}", positive=True)
    total = sum(n)
    mean = sum(nj * mj for nj, mj in zip(n, mu)) / total                      # overall mean
    f_all = (sum(nj * fj ** r for nj, fj in zip(n, f)) / total) ** (1 / r)    # EDE of all users
    f_bar = sum(nj * fj for nj, fj in zip(n, f)) / total                      # size-weighted mean EDE
    s = [nj * mj / (total * mean) for nj, mj in zip(n, mu)]                    # shares of effectiveness
    atk_ind = 1 - f_all / mean
    atk_group = 1 - f_all / f_bar
    atk_within = sum(sj * (1 - fj / mj) for sj, fj, mj in zip(s, f, mu))
    j = sp.Symbol("j")
    x = Typeset(r"x")
    T = Typeset
    steps = (
        ("The EDE of all users pools the groups' power sums: each group contributes "
         r"$n_j f_j^{\,r}$ to $\sum_u x_u^{\,r}$, so",
         eq(T(r"f_{all}"), T(r"\Bigl(\sum_j \tfrac{n_j}{N} f_j^{\,r}\Bigr)^{1/r}"))),
        (r"Atk_group is Atkinson's index of the EDEs $f_j$ weighted by $n_j/N$, with the weighted mean "
         r"$\bar f=\sum_j \tfrac{n_j}{N} f_j$; its EDE is $f_{all}$ again, so",
         eq(T(r"1-\mathrm{Atk}_{group}"), T(r"f_{all}/\bar f"))),
        (r"The within-group weights are the shares of effectiveness $s_j = n_j\mu_j/(N\bar x)$, which sum "
         r"to 1; hence $1-\mathrm{Atk}_{within}=\sum_j s_j f_j/\mu_j$, and the $\mu_j$ cancel",
         eq(T(r"1-\mathrm{Atk}_{within}"), T(r"\sum_j \tfrac{n_j f_j}{N \bar x} = \bar f/\bar x"))),
        ("Multiplying the two, $\\bar f$ cancels",
         eq(T(r"(1-\mathrm{Atk}_{group})(1-\mathrm{Atk}_{within})"),
            T(r"f_{all}/\bar x = 1-\mathrm{Atk}_{ind}"))),
        (f"sympy checks the three identities on {n_groups} groups with symbolic sizes, means, EDEs and "
         r"$r$; the residual, $(1-\mathrm{Atk}_{group})(1-\mathrm{Atk}_{within})$ minus $1-\mathrm{Atk}_{ind}$, "
         "simplifies to",
         eq(T(r"\text{residual}"), sp.simplify((1 - atk_group) * (1 - atk_within) - (1 - atk_ind)))),
    )
    del j, x
    checks = {
        "sum of shares is 1": sum(s) - 1,
        "1 - Atk_within = mean EDE / mean": (1 - atk_within) - f_bar / mean,
        "1 - Atk_group = f_all / mean EDE": (1 - atk_group) - f_all / f_bar,
        "decomposition": (1 - atk_group) * (1 - atk_within) - (1 - atk_ind),
    }
    return Identity(steps=steps, result=eq(T(r"1-\mathrm{Atk}_{ind}"),
                                              T(r"(1-\mathrm{Atk}_{group})(1-\mathrm{Atk}_{within})")),
                    checks=checks)


def mad_factor() -> Identity:
    r"""The printed MAD, :math:`\frac1{N'(N'-1)}\sum_{j<l}|\cdot|`, is half the mean over unordered pairs.

    Returns
    -------
    Identity
        The ratio of the printed factor to the mean over unordered pairs (1/2).

    Examples
    --------
    >>> mad_factor().result
    Eq(printed/mean, 1/2)
    """
    pairs = Np * (Np - 1) / 2
    printed = 1 / (Np * (Np - 1))
    mean = 1 / pairs
    ratio = sp.simplify(printed / mean)
    steps = (
        ("There are $N'(N'-1)/2$ unordered pairs of groups, so the mean over them divides the sum by",
         eq(T_("pairs"), pairs)),
        ("The printed formula divides by $N'(N'-1)$; the ratio of the two factors is",
         eq(T_(r"\frac{\text{printed}}{\text{mean}}"), ratio)),
    )
    return Identity(steps=steps, result=eq(sp.Symbol("printed/mean"), ratio), checks={"half": ratio - sp.Rational(1, 2)})


def cv_maximum() -> Identity:
    r"""CV's largest value over :math:`N'` group means in [0, 1]: :math:`\sqrt{N'-1}` (one group at 1, the rest 0).

    CV is scale-free, so only the profile matters; for a profile with :math:`a` groups at 1 and
    :math:`N'-a` at 0, :math:`\mathrm{CV}^2 = (N'-a)/a`, largest at :math:`a = 1`.

    Returns
    -------
    Identity
        The largest CV, :math:`\sqrt{N'-1}`.

    Examples
    --------
    >>> cv_maximum().result
    Eq(max CV, sqrt(N' - 1))
    """
    a = sp.Symbol("a", positive=True)
    mean = a / Np
    var = a / Np - mean ** 2
    cv2 = sp.simplify(var / mean ** 2)
    best = sp.sqrt(cv2.subs(a, 1))
    steps = (
        (r"CV is unchanged when every mean is scaled, and $\mathrm{CV}^2 = N'\sum_j \bar g_j^2/(\sum_j \bar g_j)^2 - 1$ "
         r"first falls and then rises in any one mean (the others fixed), so its maximum over $[0,1]^{N'}$ "
         r"is at a vertex: $a$ groups at 1, $N'-a$ at 0",
         eq(T_(r"\mathrm{CV}^2"), cv2)),
        ("which decreases in $a$, so the maximum is at $a = 1$", eq(T_(r"\max \mathrm{CV}"), best)),
    )
    return Identity(steps=steps, result=eq(sp.Symbol("max CV"), best),
                    checks={"derivative negative": sp.simplify(sp.diff(cv2, a) + Np / a ** 2)})


def gce_zero_group() -> Identity:
    r"""What one group with zero mean effectiveness adds to GCE with :math:`\beta = 2`.

    Its smoothed share is :math:`\hat p_j=(1-\lambda)c`; with :math:`\tilde p_j=\hat p_j/\sum\hat p`
    and :math:`\beta=2` its term of :math:`\frac12\sum_j 1/(N'^2\tilde p_j)` is
    :math:`\sum\hat p/(2N'^2(1-\lambda)c)`.

    Returns
    -------
    Identity
        The term one zero group adds (the default lambda and c).

    Examples
    --------
    >>> gce_zero_group().result
    Eq(term, 100000*S/N'**2)
    """
    S = sp.Symbol("S", positive=True)  # sum of the smoothed shares (close to lambda + N'(1 - lambda)c)
    p_hat = (1 - lam) * c
    p_tilde = p_hat / S
    term = sp.simplify(-(Np ** -beta * p_tilde ** (1 - beta)) / (beta * (1 - beta))).subs(beta, 2)
    value = term.subs({lam: sp.Rational(19, 20), c: sp.Rational(1, 10000)})
    steps = (
        (r"A group with $\bar g_j = 0$ has $p_j = 0$, so its smoothed share is", eq(T_(r"\hat p_j"), p_hat)),
        (r"Its term in GCE, $-\frac{1}{\beta(1-\beta)} p_{ref}^{\beta}\tilde p_j^{\,1-\beta}$ with "
         r"$p_{ref}=1/N'$, $\tilde p_j = \hat p_j/S$ and $\beta = 2$, is", eq(T_("term"), sp.simplify(term))),
        (r"With $\lambda = 0.95$ and $c = 10^{-4}$", eq(T_("term"), value)),
    )
    return Identity(steps=steps, result=eq(sp.Symbol("term"), value),
                    checks={"closed form": sp.simplify(term - S / (2 * Np ** 2 * (1 - lam) * c))})


def T_(latex: str) -> Typeset:
    """A typeset left-hand side.

    >>> T_("f_{all}").name
    'f_{all}'
    """
    return Typeset(latex)
