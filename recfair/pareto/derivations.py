r"""The teaser of Paper 4 (thesis Fig. 5.1), derived exactly with sympy.

The thesis draws a made-up frontier from the most relevant end :math:`(1.0, 0.2)` to the fairest
end :math:`(0.2, 1.0)` (x: relevance, y: fairness) and prints its midpoint, (0.766, 0.766), without
naming the curve. Read here as a quarter circle with centre :math:`(c, c) = (0.2, 0.2)` and radius
:math:`\rho = 0.8`, which joins the two ends and has exactly that midpoint (an inference). DPFR's reference point :math:`s_\alpha` is the
point whose arc length from the most relevant end is :math:`\alpha` times the frontier's length;
:func:`teaser_reference_point` derives it, :func:`teaser_distances` gives the exact DPFR of the
teaser's three models, and :func:`check_teaser` compares the derivation with the library's
:func:`recfair.pareto.reference_point` on a finely sampled arc.

>>> d = teaser_reference_point()
>>> d.cases["alpha = 1/2"]
1/5 + 2*sqrt(2)/5
>>> round(d.evaluate(0.5), 4)
0.7657
>>> check_teaser().ok
True
"""

from __future__ import annotations

from functools import cache

import numpy as np
import pandas as pd
import sympy as sp

from ..book.symbolic import CheckResult, Derivation, Typeset, eq

__all__ = ["alpha", "theta", "CENTRE", "RADIUS", "TEASER_MODELS", "teaser_reference_point", "teaser_distances",
           "teaser_frontier", "check_teaser", "REL", "FAIR"]

#: the fairness weight of DPFR, and the angle of a point on the arc (0 at the most relevant end)
alpha = sp.Symbol("alpha", nonnegative=True)
theta, t = sp.symbols("theta t", nonnegative=True)
#: the teaser's circle: centre (c, c) and radius rho, exact
CENTRE = sp.Rational(1, 5)
RADIUS = sp.Rational(4, 5)
#: the teaser's three models, (Rel, Fair) exactly
TEASER_MODELS = {"A": (sp.Rational(1, 5), sp.Rational(9, 10)), "B": (sp.Rational(13, 20), sp.Rational(1, 5)),
                 "C": (sp.Rational(1, 2), sp.Rational(1, 2))}
#: the two frontier columns that stand for "relevance" and "fairness" in :func:`teaser_frontier`
#: (any relevance measure and any higher-is-better fairness measure would do)
REL, FAIR = "NDCG", "Jain_our"

_S_R = Typeset(r"s_{\alpha,\mathrm{Rel}}")
_S_F = Typeset(r"s_{\alpha,\mathrm{Fair}}")


def _arc(angle):
    """The point of the arc at ``angle`` (0: the most relevant end, pi/2: the fairest end)."""
    return CENTRE + RADIUS * sp.cos(angle), CENTRE + RADIUS * sp.sin(angle)


@cache
def teaser_reference_point() -> Derivation:
    r"""The reference point of the quarter-circle frontier, exactly, for every :math:`\alpha`.

    The arc :math:`(c + \rho\cos\theta,\ c + \rho\sin\theta)`, :math:`\theta \in [0, \pi/2]`,
    has speed :math:`\rho`, so its length up to :math:`\theta` is :math:`\rho\theta` and the
    whole frontier is :math:`\rho\pi/2` long. The point at :math:`\alpha` of that length has
    :math:`\theta = \alpha\pi/2`. ``result`` is the Rel coordinate; ``forms["Fair"]`` the Fair
    coordinate; ``cases["alpha = 1/2"]`` the midpoint, equal on both axes.

    Returns
    -------
    Derivation
        The reference point as a function of :math:`\alpha`, with sympy's steps.

    Examples
    --------
    >>> teaser_reference_point().result
    4*cos(pi*alpha/2)/5 + 1/5
    """
    x, y = _arc(t)
    speed = sp.simplify(sp.sqrt(sp.diff(x, t) ** 2 + sp.diff(y, t) ** 2))
    length_to = sp.integrate(speed, (t, 0, theta))
    total = length_to.subs(theta, sp.pi / 2)
    angle = sp.solve(sp.Eq(length_to, alpha * total), theta)
    if len(angle) != 1:
        raise ArithmeticError(f"expected one angle, sympy found {angle}")
    angle = angle[0]
    rel, fair = (sp.simplify(c) for c in _arc(angle))
    mid_rel, mid_fair = (sp.nsimplify(sp.simplify(c.subs(alpha, sp.Rational(1, 2)))) for c in (rel, fair))
    if sp.simplify(mid_rel - mid_fair) != 0:
        raise ArithmeticError("the midpoint of a symmetric arc must be equal on both axes")
    if sp.simplify(mid_rel - (CENTRE + RADIUS / sp.sqrt(2))) != 0:
        raise ArithmeticError("the midpoint is not c + rho / sqrt(2)")
    steps = (
        (r"The frontier: a quarter circle of centre $(c, c)$ and radius $\rho$, from the most relevant end "
         r"($\theta = 0$) to the fairest end ($\theta = \pi/2$).",
         eq(Typeset(r"\bigl(x_{\mathrm{Rel}}(\theta),\ x_{\mathrm{Fair}}(\theta)\bigr)"), sp.Tuple(x, y).subs(t, theta))),
        (r"Its speed is constant.",
         eq(Typeset(r"\sqrt{x_{\mathrm{Rel}}'(\theta)^2 + x_{\mathrm{Fair}}'(\theta)^2}"), speed)),
        (r"So the length travelled from the most relevant end up to $\theta$ is",
         eq(Typeset(r"\mathrm{lenPF}(\theta)"), length_to)),
        (r"and the whole frontier is", eq(Typeset(r"\mathrm{lenPF}"), total)),
        (r"The reference point lies where the length travelled is $\alpha\,\mathrm{lenPF}$:",
         eq(theta, angle)),
        (r"Its coordinates:", eq(_S_R, rel)),
        (r"", eq(_S_F, fair)),
        (r"At $\alpha = 1/2$ both coordinates are $c + \rho/\sqrt{2}$:", eq(Typeset(r"s_{1/2}"),
                                                                         sp.Tuple(mid_rel, mid_fair))),
    )
    return Derivation(key="teaser_reference_point", measure="DPFR", end="reference_point", symbol=_S_R,
                      steps=steps, result=rel, symbols={"alpha": alpha}, params=("alpha",),
                      domain=sp.And(sp.Ge(alpha, 0), sp.Le(alpha, 1)),
                      cases={"alpha = 1/2": mid_rel, "alpha = 0": rel.subs(alpha, 0), "alpha = 1": rel.subs(alpha, 1)},
                      forms={"Fair": fair}, source="thesis Ch. 5, Fig. 5.1 (the teaser)")


def teaser_distances(*, alpha_value=sp.Rational(1, 2)) -> dict[str, sp.Expr]:
    r"""The exact DPFR of the teaser's models A, B, C: their Euclidean distance to :math:`s_\alpha`.

    Parameters
    ----------
    alpha_value : sympy number, default=1/2
        The weight :math:`\alpha` of fairness.

    Returns
    -------
    dict of str to sympy.Expr
        The exact DPFR of models A, B and C.

    Examples
    --------
    >>> {name: round(float(v), 4) for name, v in teaser_distances().items()}
    {'A': 0.5814, 'B': 0.5774, 'C': 0.3757}
    """
    d = teaser_reference_point()
    point = (d.result.subs(alpha, alpha_value), d.forms["Fair"].subs(alpha, alpha_value))
    return {name: sp.sqrt(sp.expand((xr - point[0]) ** 2 + (xf - point[1]) ** 2))
            for name, (xr, xf) in TEASER_MODELS.items()}


def teaser_frontier(*, samples: int = 2001) -> pd.DataFrame:
    """The quarter circle sampled at ``samples`` equally spaced angles, as a frontier table.

    The columns :data:`REL` and :data:`FAIR` stand for the teaser's relevance and fairness axes, so
    the table goes straight into :func:`recfair.pareto.reference_point` and :func:`recfair.pareto.dpfr`.
    An odd ``samples`` puts a sample exactly at the arc's midpoint.

    Parameters
    ----------
    samples : int, default=2001
        The number of equally spaced angles.

    Returns
    -------
    pandas.DataFrame
        Columns ``replacements``, :data:`REL` and :data:`FAIR`.

    Examples
    --------
    >>> teaser_frontier(samples=3).round(4).values.tolist()
    [[0.0, 1.0, 0.2], [1.0, 0.7657, 0.7657], [2.0, 0.2, 1.0]]
    """
    if not isinstance(samples, (int, np.integer)) or isinstance(samples, bool):
        raise TypeError(f"samples must be an int, got {type(samples).__name__}.")
    if samples < 2:
        raise ValueError(f"samples must be at least 2 (the two ends), got {samples}.")
    angles = np.linspace(0.0, np.pi / 2, int(samples))
    c, rho = float(CENTRE), float(RADIUS)
    return pd.DataFrame({"replacements": np.arange(int(samples)), REL: c + rho * np.cos(angles),
                         FAIR: c + rho * np.sin(angles)})


def check_teaser(*, alphas=None, samples: int = 2001, atol: float = 2e-3) -> CheckResult:
    """Compare the exact reference point with :func:`recfair.pareto.reference_point` on the sampled arc.

    For every ``alpha`` both coordinates must agree within ``atol`` (the library snaps to a sample,
    so the gap shrinks with ``samples``).

    Parameters
    ----------
    alphas : sequence of float, optional
        The weights checked (default: 0, 0.05, ..., 1).
    samples : int, default=2001
        Samples of the arc.
    atol : float, default=2e-3
        The tolerance.

    Returns
    -------
    CheckResult
        The largest gap and the number of points checked.

    Examples
    --------
    >>> check_teaser(alphas=[0, 0.5, 1]).points
    3
    """
    from .measures import reference_point

    alphas = np.linspace(0, 1, 11) if alphas is None else alphas
    table = teaser_frontier(samples=samples)
    d = teaser_reference_point()
    exact_fair = sp.lambdify(alpha, d.forms["Fair"], modules="math")
    mismatches = []
    for a in alphas:
        got = reference_point(table, rel=REL, fair=FAIR, fairness_weight=float(a))
        want = (d.evaluate(float(a)), float(exact_fair(float(a))))
        if max(abs(got[0] - want[0]), abs(got[1] - want[1])) > atol:
            mismatches.append(((float(a),), want, got))
    return CheckResult(len(list(alphas)), mismatches)
