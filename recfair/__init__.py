"""recfair: offline evaluation measures of fairness in recommender systems.

The reference implementation of the measures studied in T. V. Rampisela's PhD thesis
*Offline Evaluation Measures of Fairness in Recommender Systems* (University of Copenhagen):
original and corrected versions, their achievable bounds, and the thesis's studies.

Items and users are 0-based integer indices. A run is the ``(n_users, k)`` array of top-k
lists in rank order plus ``n_items``; optional inputs are each user's relevant items,
scores or a full ranking, history, user attributes and item representations.

Every part's measure functions are exported here (Parts I-VI) and from their part's package
(``recfair.item_exposure``, ``recfair.joint``, ``recfair.pareto``, ``recfair.users``,
``recfair.groups``, ``recfair.field``); the relevance measures from here and ``recfair.relevance``.

>>> import recfair as rf
>>> rf.evaluate([[0, 1], [1, 2]], n_items=4, measures=["HR", "NDCG"], relevant=[[1], [1, 2]])
{'HR': 1.0, 'NDCG': 0.8154648767857288}
"""

import importlib as _importlib

from ._validation import UndefinedMeasureError, UndefinedMeasureWarning
from .scale.blocks import Accumulator
from .engine import evaluate, evaluate_effectiveness, evaluate_per_user, evaluate_run
from .io.frames import from_frame, item_sets_from_frame, relevance_from_frame, to_frame
from .item_exposure import (ai_disparity, fraction_satisfied, fraction_satisfied_corrected, gini_index,
                            gini_index_corrected, gini_index_weighted, gini_index_weighted_corrected,
                            ii_disparity, item_entropy, item_entropy_corrected, item_entropy_defined, jain_index,
                            jain_index_corrected, qualification_fairness, qualification_fairness_corrected, vocd)
from .joint import (ai_fairness, hellinger_distance, ii_fairness, ii_fairness_corrected,
                    individual_fairness_disparity_div, individual_fairness_disparity_div_corrected,
                    individual_fairness_disparity_mul, individual_fairness_disparity_mul_corrected,
                    inequity_of_amortized_attention, inequity_of_amortized_attention_corrected,
                    item_better_off, item_better_off_corrected, item_worse_off, item_worse_off_corrected,
                    mean_max_envy)
from .pareto import dpfr
from .users import gini_ind, mean_envy_user, mean_max_envy_user, peu, puf, sd_ind, uf, user_similarity
from .groups import (atk_group, atk_ind, atk_within, cv_group, fstat_group, gce_group, gini_group, gini_within, kl_group,
                     mad_group, min_group, range_group, sd_group, sd_within)
from .field import (aclt, aplt, arp, awrf, bd, c_kl, ee_d, ee_l, ee_r, exposure_ratio, item_mad, ndkl, pop_reo, pop_rsp,
                    provider_mmf, reo, rsp, ugf, user_mad)
from .ranking import full_ranking, top_k_from_scores
from .registry import ALL_MEASURES, REGISTRY
from .spec import Bounds, Extremes, MeasureSpec
from .relevance import average_precision, hit_rate, mrr, ndcg, precision, recall
from .run import Run
from .analysis.report import Report, compare
from . import io

__version__ = "0.1.0"

# heavier subpackages load on first use: ``recfair.datasets``, ``recfair.recommenders`` ...
_LAZY = ("analysis", "book", "bounds", "datasets", "engine", "examination", "field", "groups", "inequality",
         "item_exposure", "joint", "pareto", "ranking", "recommenders", "registry", "relevance", "scale", "spec",
         "synthetic", "users")
#: Short names of the services, loaded on first use: ``recfair.plotting`` is ``recfair.book.plotting``.
_ALIASES = {"plotting": "book.plotting", "widgets": "book.widgets", "guide": "book.guide",
            "exercises": "book.exercises", "thesis": "book.thesis", "symbolic": "book.symbolic",
            "cli": "io.cli", "frames": "io.frames", "rerank": "recommenders.rerank"}


def __getattr__(name):
    if name in _LAZY or name in _ALIASES:
        return _importlib.import_module(f".{_ALIASES.get(name, name)}", __name__)
    raise AttributeError(f"module 'recfair' has no attribute {name!r}")


__all__ = [
    "Accumulator", "ALL_MEASURES", "REGISTRY", "Bounds", "Report", "compare", "io", "Extremes", "MeasureSpec", "Run",
    "UndefinedMeasureError", "UndefinedMeasureWarning", "average_precision", "evaluate", "evaluate_effectiveness",
    "evaluate_per_user", "evaluate_run",
    "from_frame", "full_ranking", "hit_rate", "item_sets_from_frame", "mrr", "ndcg", "precision",
    "recall", "relevance_from_frame", "to_frame", "top_k_from_scores",
    # Part I, Paper 1: exposure-based individual item fairness (recfair.item_exposure)
    "ai_disparity", "fraction_satisfied", "fraction_satisfied_corrected", "gini_index", "gini_index_corrected",
    "gini_index_weighted", "gini_index_weighted_corrected", "ii_disparity", "item_entropy", "item_entropy_corrected",
    "item_entropy_defined", "jain_index", "jain_index_corrected", "qualification_fairness",
    "qualification_fairness_corrected", "vocd",
    # Part II, Papers 2-3: relevance-aware ("joint") individual item fairness (recfair.joint)
    "ai_fairness", "hellinger_distance", "ii_fairness", "ii_fairness_corrected", "individual_fairness_disparity_div",
    "individual_fairness_disparity_div_corrected", "individual_fairness_disparity_mul",
    "individual_fairness_disparity_mul_corrected", "inequity_of_amortized_attention",
    "inequity_of_amortized_attention_corrected", "item_better_off", "item_better_off_corrected", "item_worse_off",
    "item_worse_off_corrected", "mean_max_envy",
    # Part III, Paper 4: the Pareto frontier of relevance and fairness (recfair.pareto)
    "dpfr",
    # Part IV, Paper 5: individual user fairness (recfair.users)
    "gini_ind", "mean_envy_user", "mean_max_envy_user", "peu", "puf", "sd_ind", "uf", "user_similarity",
    # Part V, Paper 6: user groups versus individuals (recfair.groups)
    "atk_group", "atk_ind", "atk_within", "cv_group", "fstat_group", "gce_group", "gini_group", "gini_within",
    "kl_group", "mad_group", "min_group", "range_group", "sd_group", "sd_within",
    # Part VI: the field's other fairness measures (recfair.field)
    "aclt", "aplt", "arp", "awrf", "bd", "c_kl", "ee_d", "ee_l", "ee_r", "exposure_ratio", "item_mad", "ndkl",
    "pop_reo", "pop_rsp", "provider_mmf", "reo", "rsp", "ugf", "user_mad",
]
