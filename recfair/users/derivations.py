r"""PUF's range and extreme cases, derived with sympy (thesis Ch. 6, Paper 5: the definition of PUF and its printed factor).

The thesis claims PUF lies in [0, 1]. With :math:`\mathrm{sim} \le 1` and :math:`S \in [0, 1]`:

* :func:`puf_most_unfair` derives the largest value: every similarity 1, :math:`\lfloor m/2 \rfloor`
  users at :math:`S = 1` and the others at 0. Under the library's normalisation (mean over
  unordered pairs) it is :math:`\lfloor m/2\rfloor\lceil m/2\rceil / \binom m2`, which tends to
  1/2 (``m/(2(m-1))`` for even ``m``); under the printed factor it is twice that, ``m/(m-1)``
  for even ``m``: slightly **above** 1.
* :func:`puf_most_fair` derives the smallest value, 0: reached exactly when every pair has
  similarity 0 or equal effectiveness (so all-equal scores, or all-zero similarity).

>>> d = puf_most_unfair()
>>> d.evaluate(4), d.cases["m to infinity"]
(0.6666666666666666, 1/2)
"""

from __future__ import annotations

import sympy as sp

from ..book.symbolic import Derivation, Typeset, eq, m

__all__ = ["puf_most_unfair", "puf_most_fair", "a"]

#: number of users at S = 1 in a two-level effectiveness profile
a = sp.Symbol("a", nonnegative=True, integer=True)

_NORMS = {"mean": sp.Integer(1), "printed": sp.Integer(2)}


def _factor(normalization):
    if normalization not in _NORMS:
        raise ValueError(f"normalization must be one of {tuple(_NORMS)}, got {normalization!r}.")
    return _NORMS[normalization]


def puf_most_unfair(*, normalization: str = "mean") -> Derivation:
    """The largest PUF over every similarity in [0, 1] and every effectiveness profile in [0, 1]^m.

    ``normalization="printed"`` applies the printed factor :math:`2/(m(m-1))` (twice the mean).

    Parameters
    ----------
    normalization : {"mean", "printed"}, default="mean"
        The mean over unordered pairs or the printed factor.

    Returns
    -------
    Derivation
        PUF's largest value as a function of :math:`m`, with its cases (even and odd :math:`m`).

    Examples
    --------
    >>> puf_most_unfair(normalization="printed").cases["even m"]
    m/(m - 1)
    """
    c = _factor(normalization)
    pairs = m * (m - 1) / 2
    total = Typeset(r"\sum_{u<u'} s_{uu'}\, g_{uu'}")
    gaps = Typeset(r"\sum_{u<u'} g_{uu'}")
    two_level = a * (m - a)
    stationary = sp.solve(sp.diff(two_level, a), a)[0]
    best = sp.floor(m / 2) * sp.ceiling(m / 2)
    result = c * best / pairs
    even = sp.simplify(c * (m / 2) ** 2 / pairs)
    odd = sp.simplify(c * ((m - 1) / 2) * ((m + 1) / 2) / pairs)
    steps = (
        ("Write $s_{uu'} = \\mathrm{sim}(u,u')$ and $g_{uu'} = |S(u)-S(u')|$ for a pair's similarity "
         "and gap. Similarities are at most 1, so the weighted sum is at most the plain sum of gaps "
         "(equal when every pair with a gap has similarity 1)", sp.Le(total, gaps)),
        ("The sum of gaps is convex in each $S(u)$, so its maximum over $[0, 1]^m$ is at a vertex: "
         "$a$ users at $S = 1$ and $m - a$ at $S = 0$; each of the $a(m - a)$ mixed pairs has gap 1",
         eq(gaps, two_level)),
        ("Setting the derivative in $a$ to zero", eq(sp.diff(two_level, a), 0)),
        (r"gives $a = m/2$; with whole users, $a = \lfloor m/2 \rfloor$", eq(a, stationary)),
        ("Dividing by the number of unordered pairs, $m(m-1)/2$"
         + (" (times 2, the printed factor)" if c == 2 else ""),
         eq(Typeset(r"\max \mathrm{PUF}"), result)),
    )
    return Derivation(
        key=f"puf_most_unfair_{normalization}", measure="PUF", end="most_unfair",
        symbol=Typeset(r"\max \mathrm{PUF}"), steps=steps, result=result, symbols={"m": m, "a": a},
        params=("m",), domain=sp.Ge(m, 2),
        cases={"even m": even, "odd m": odd, "m = 2": result.subs(m, 2),
               "m to infinity": sp.limit(even, m, sp.oo)},
        forms={"two-level profile": c * two_level / pairs},
        source="thesis Ch. 6 (Paper 5), the definition of PUF and its printed normalisation",
    )


def puf_most_fair(*, normalization: str = "mean") -> Derivation:
    """The smallest PUF, 0: every term :math:`\\mathrm{sim}(u,u')|S(u)-S(u')|` is non-negative.

    Parameters
    ----------
    normalization : {"mean", "printed"}, default="mean"
        As in :func:`puf_most_unfair`.

    Returns
    -------
    Derivation
        PUF's smallest value, 0.

    Examples
    --------
    >>> puf_most_fair().result
    0
    """
    c = _factor(normalization)
    term = Typeset(r"\mathrm{sim}(u,u')\,|S(u)-S(u')|")
    steps = (
        ("Each term is a product of two non-negative numbers", sp.Ge(term, 0)),
        ("so PUF is 0 exactly when, for every pair, the similarity is 0 or the effectiveness is equal "
         "(all scores equal; or all similarities 0; or similar users only ever equally served)",
         eq(Typeset(r"\min \mathrm{PUF}"), sp.Integer(0) * c)),
    )
    return Derivation(
        key=f"puf_most_fair_{normalization}", measure="PUF", end="most_fair",
        symbol=Typeset(r"\min \mathrm{PUF}"), steps=steps, result=sp.Integer(0), symbols={"m": m},
        params=("m",), domain=sp.Ge(m, 2), source="thesis Ch. 6 (Paper 5), the definition of PUF",
    )
