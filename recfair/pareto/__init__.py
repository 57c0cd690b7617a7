"""Part III of the book: joint evaluation of relevance and fairness with the Pareto frontier (thesis Ch. 5, Paper 4).

==============  ==========================================================================
module          what it holds
==============  ==========================================================================
``generators``  the Oracle and Oracle2Fair (the frontier sequence with 11 scores per step),
                the stopping count and the estimate of the number of replacements
``measures``    the 2-D frontier of a pair, its slope (compatibility), the reference point
                and DPFR
``derivations`` the teaser's quarter-circle frontier, derived with sympy (loaded on first use)
``records``     DPFR's registry record (``rf.evaluate(..., measures="DPFR")``)
==============  ==========================================================================

Part III builds on Part I's corrected exposure measures (it imports :mod:`recfair.item_exposure`'s
public package) and on the relevance measures of the core.

>>> from recfair.pareto import oracle2fair, dpfr
>>> table = oracle2fair(history=[[5], [4], [], [3]], relevant=[[0, 1], [0, 1, 2], [0], [0, 1]], n_items=6, k=2)
>>> round(dpfr(0.5, 0.5, frontier=table, rel="P", fair="Jain_our"), 3)
0.269
"""

from __future__ import annotations

import importlib

from .generators import (FAIR_MEASURES, MEASURES, REL_MEASURES, FrontierWarning, estimate_replacements, oracle,
                         oracle2fair, stop_count)
from .measures import INDEX_RANGES, compatible, dpfr, frontier, reference_point, slope, slopes

__all__ = [
    "oracle", "oracle2fair", "estimate_replacements", "stop_count", "frontier", "reference_point", "dpfr", "slope",
    "slopes", "compatible", "REL_MEASURES", "FAIR_MEASURES", "MEASURES", "INDEX_RANGES", "FrontierWarning",
]

_SUBMODULES = ("derivations", "generators", "measures", "records")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
