"""Part I of the book: exposure-based individual item fairness (thesis Ch. 2, Paper 1).

==============  ==========================================================================
module          what it holds
==============  ==========================================================================
``measures``    the 15 measures (Jain, QF, Ent, Gini, Gini-w, FSat: ori and our; VoCD, II-D, AI-D)
``bounds``      their achievable bounds in closed form (plain NumPy)
``search``      the exhaustive search that checks those bounds at tiny sizes
``generators``  the synthetic recommendations of Paper 1's studies (MostFair/MostUnfair,
                sliding windows, insertion)
``derivations`` the bounds derived with sympy (imports sympy; loaded on first use)
``records``     the registry records collected by :mod:`recfair.registry`
==============  ==========================================================================

The measure functions are re-exported here and at the top level (``recfair.jain_index``).

>>> from recfair.item_exposure import jain_index
>>> jain_index([[0, 1], [1, 2], [0, 2]], n_items=4)
0.75
"""

from __future__ import annotations

import importlib

from .measures import (ai_disparity, fraction_satisfied, fraction_satisfied_corrected, gini_index,
                       gini_index_corrected, gini_index_weighted, gini_index_weighted_corrected, ii_disparity,
                       item_entropy, item_entropy_corrected, item_entropy_defined, jain_index, jain_index_corrected,
                       qualification_fairness, qualification_fairness_corrected, vocd)
# the count-statistics form of the count-based measures (used by Part III's frontier)
from .measures import COUNT_MEASURES, CountSummary, count_summary, from_count_summary, fsat_threshold
# the rank-count form of every single-round measure (recfair.Accumulator sums it over blocks of users)
from .measures import RankCounts, from_rank_counts
from .records import RECORDS

__all__ = [
    "ai_disparity", "fraction_satisfied", "fraction_satisfied_corrected", "gini_index",
    "gini_index_corrected", "gini_index_weighted", "gini_index_weighted_corrected", "ii_disparity", "item_entropy",
    "item_entropy_corrected", "item_entropy_defined", "jain_index", "jain_index_corrected", "qualification_fairness",
    "qualification_fairness_corrected", "vocd",
    "COUNT_MEASURES", "CountSummary", "count_summary", "from_count_summary", "fsat_threshold", "RECORDS",
    "RankCounts", "from_rank_counts",
]

_SUBMODULES = ("bounds", "derivations", "generators", "measures", "records", "search")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
