"""Part IV of the book: individual user fairness (thesis Ch. 6, Paper 5).

Is each *user* treated fairly, given how similar users are and how well the recommender serves
each of them (PUF and its baselines)? Part V (user groups) is :mod:`recfair.groups`.

==============  ==========================================================================
module          what it holds
==============  ==========================================================================
``measures``    PUF, SD_ind, Gini_ind (on per-user effectiveness), ME_user, MME_user, PEU (envy on
                the corrected utility), UF (Wu et al.), the utility and envy matrices
``similarity``  Jaccard and cosine user similarity from history, block by block
                (:class:`UserSimilarity`), min-max over distinct pairs, sim_JS
``derivations`` PUF's range and extreme cases, derived with sympy (loaded on first use)
``generators``  the synthetic studies: relevance steps, Weibull / normal similarity,
                MostFair / MostUnfair pairings, the gamma mixing, PUF's extreme cases
``records``     the registry records (``rf.evaluate(..., measures="PUF")``,
                ``rf.evaluate_effectiveness(effectiveness, measures="PUF", similarity=sim)``)
==============  ==========================================================================

Registry names: ``PUF`` (chapter ``user-puf``); ``SD_ind``, ``Gini_ind``, ``ME_user``,
``MME_user``, ``PEU``, ``UF`` (chapter ``user-individual``). ``MME`` stays Paper 2's item-side
measure.

>>> from recfair.users import puf, user_similarity
>>> sim = user_similarity([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], similarity="cosine", minmax=True)
>>> round(puf([0.6131, 1.0, 0.3869, 0.0], similarity=sim), 4)
0.1739
"""

from __future__ import annotations

import importlib

from .measures import (NORMALIZATIONS, PHI, envy_matrix, gini_ind, mean_envy_user, mean_max_envy_user, peu, puf,
                       sd_ind, uf, uf_details, utility_matrix)
from .similarity import (KINDS, UserSimilarity, check_similarity, cosine, genre_distributions, jaccard,
                         minmax_offdiag, sim_js, user_similarity)

__all__ = [
    "puf", "sd_ind", "gini_ind", "mean_envy_user", "mean_max_envy_user", "peu", "uf", "uf_details",
    "utility_matrix", "envy_matrix", "NORMALIZATIONS", "PHI",
    "UserSimilarity", "jaccard", "cosine", "user_similarity", "minmax_offdiag", "check_similarity",
    "genre_distributions", "sim_js", "KINDS",
]

_SUBMODULES = ("derivations", "generators", "measures", "records", "similarity")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
