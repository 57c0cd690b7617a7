r"""Symbolic derivations of the achievable bounds of the Paper 1 measures (needs sympy).

One derivation, three uses: this package *derives* every bound with sympy, the book *displays*
the steps, and the tests *check* the result against the plain-Python functions in
:mod:`recfair.bounds`, which the library uses at run time (it never imports sympy).

Each function returns a :class:`Derivation`, named like its numeric twin in :mod:`recfair.bounds`:

>>> from recfair.derivations import gini_most_fair, r, f, k, m
>>> d = gini_most_fair()
>>> d.key, d.end
('gini_most_fair', 'most_fair')
>>> d.cases["km < n (f = 0, r = km)"]
-k*m/n + 1
>>> [caption for caption, _ in d.steps][:1]
['Balanced counts: $n - r$ items are recommended $f$ times and $r$ items $f + 1$ times.']

:data:`DERIVATIONS` lists them by measure and end; :func:`check_against` compares one with a
numeric bound on a grid of ``(m, n, k)``.
"""

from __future__ import annotations

from ._core import (CheckResult, Derivation, Typeset, beta, check_against, ell, f, gamma, i, j, k,
                    m, n, r, s, u, w, x1, x2, x3)
from . import joint
from .exposure_disparity import aid_single_round_max, iid_single_round, random_exposure
from .item_exposure import (dcg_weight, ent_most_fair, ent_most_unfair, fsat_most_fair,
                            fsat_most_unfair, fsat_true_minimum, gini_most_fair, gini_most_unfair,
                            gini_w_most_fair, gini_w_most_unfair, jain_most_fair, jain_most_unfair,
                            qf_most_fair, qf_most_unfair, vocd_upper_bound)

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
    """The derivation of one end of one measure's achievable range, e.g. ``derive("Jain_ori", "most_fair")``."""
    try:
        return DERIVATIONS[measure][end]()
    except KeyError:
        known = ", ".join(f"{key}: {sorted(ends)}" for key, ends in DERIVATIONS.items())
        raise KeyError(f"no derivation for ({measure!r}, {end!r}); known: {known}") from None


def all_derivations() -> list[Derivation]:
    """Every derivation, in the thesis's order of the measures."""
    return [func() for ends in DERIVATIONS.values() for func in ends.values()]


__all__ = [
    "CheckResult", "DERIVATIONS", "joint", "Derivation", "Typeset", "aid_single_round_max", "all_derivations",
    "check_against", "dcg_weight", "derive", "ent_most_fair", "ent_most_unfair", "fsat_most_fair",
    "fsat_most_unfair", "fsat_true_minimum", "gini_most_fair", "gini_most_unfair", "gini_w_most_fair",
    "gini_w_most_unfair", "iid_single_round", "jain_most_fair", "jain_most_unfair", "qf_most_fair",
    "qf_most_unfair", "random_exposure", "vocd_upper_bound",
    "m", "n", "k", "f", "r", "ell", "j", "i", "u", "s", "gamma", "beta", "w", "x1", "x2", "x3",
]
