"""Part II of the book: relevance-aware ("joint") individual item fairness (thesis Ch. 3-4, Papers 2-3).

==============  ==========================================================================
module          what it holds
==============  ==========================================================================
``measures``    the 15 measures (IAA, IFD÷, IFD×, HD, MME, IBO/IWO, II-F, AI-F; ori and our)
``_core``       the formulas they share with ``bounds`` (identities, separable sums, exact
                end searches)
``bounds``      per-user achievable ends, the rankings that reach them, the exhaustive searches
``generators``  fairest and most unfair full rankings of a run
``guidelines``  Paper 3's guideline marks for choosing a measure
``derivations`` the per-user ends derived with sympy (imports sympy; loaded on first use)
``records``     the registry records collected by :mod:`recfair.registry`
==============  ==========================================================================

The measure functions are re-exported here and at the top level.

>>> from recfair.joint import inequity_of_amortized_attention
>>> top_k, rel = [[0, 1], [1, 0], [0, 1]], [[0, 2], [1, 4], [0, 1, 5]]
>>> round(inequity_of_amortized_attention(top_k, n_items=6, relevant=rel), 6)
0.222222
"""

from __future__ import annotations

import importlib

from .measures import (GRADED, PER_USER, ai_fairness, hellinger_distance, ii_fairness, ii_fairness_corrected,
                       individual_fairness_disparity_div, individual_fairness_disparity_div_corrected,
                       individual_fairness_disparity_mul, individual_fairness_disparity_mul_corrected,
                       inequity_of_amortized_attention, inequity_of_amortized_attention_corrected, item_better_off,
                       item_better_off_corrected, item_worse_off, item_worse_off_corrected, mean_max_envy)

__all__ = [
    "GRADED", "PER_USER", "ai_fairness", "hellinger_distance", "ii_fairness", "ii_fairness_corrected",
    "individual_fairness_disparity_div", "individual_fairness_disparity_div_corrected",
    "individual_fairness_disparity_mul", "individual_fairness_disparity_mul_corrected",
    "inequity_of_amortized_attention", "inequity_of_amortized_attention_corrected", "item_better_off",
    "item_better_off_corrected", "item_worse_off", "item_worse_off_corrected", "mean_max_envy",
]

_SUBMODULES = ("bounds", "derivations", "generators", "guidelines", "measures", "records")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
