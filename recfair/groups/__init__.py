"""Part V of the book: user groups versus individual users (thesis Ch. 7, Paper 6).

Can a recommender that is fair to user *groups* still be unfair to individual users? Every
measure here takes ``effectiveness`` (one value per user, e.g. per-user NDCG@10) and, except
``Atk_ind``, ``groups`` (one label per user, or a DataFrame with one column per sensitive
attribute whose non-empty intersections are the groups).

================  ==========================================================================
module            what it holds
================  ==========================================================================
``measures``      between-group (``*_group``), within-group (``*_within``) and individual
                  (``atk_ind``) measures, the exact Atkinson decomposition
``groupings``     intersectional groupings, Grp(a), the paper's attribute mappings
``text``          free-text (LLM) recommendations matched to test titles
``derivations``   the Atkinson identity, MAD's factor, CV's maximum, GCE's zero group (sympy;
                  loaded on first use)
``records``       the registry records (``rf.evaluate(..., measures="Atk_group")``,
                  ``rf.evaluate_effectiveness(effectiveness, measures="Atk_group", groups=attrs)``)
================  ==========================================================================

The helpers of the module ``groupings`` are also available here (``all_groupings``, ``grp``, ``stairs`` ...).

Registry names: ``Min_group`` ... ``Atk_group`` (chapter ``user-groups``); ``SD_within``,
``Gini_within``, ``Atk_within``, ``Atk_ind`` (chapter ``user-decomposition``).

>>> from recfair.groups import atk_group, atk_ind
>>> x = [0.0, 0.5, 1.0, 0.2, 0.3, 0.0, 0.6, 0.9, 0.0, 0.4]
>>> round(atk_group(x, groups=["a"] * 3 + ["b"] * 4 + ["c"] * 3), 4), round(atk_ind(x), 4)
(0.0114, 0.3441)
"""

from __future__ import annotations

import importlib

from .groupings import (AGE_GROUPS, ML1M_NON_WORKING, ML100K_NON_WORKING, OCCUPATION_GROUPS, all_groupings,
                        attribute_subsets,
                        by_grouping, grp, ml_age_group, ml_occupation_group, movielens_groups, n_groups,
                        stairs)
from .measures import (GROUP_MEASURES, HIGHER_IS_FAIRER, OPTIONS, RANGES, AtkinsonDecomposition, atk_group, atk_ind,
                       atk_within, atkinson_decomposition, cv_group, encode_groups, fstat_group, gce_group,
                       gini_group, gini_within, group_means, group_sizes, kl_group, mad_group, min_group, range_group,
                       sd_group, sd_within)
from .text import TEXT_MEASURES, TfidfNgrams, TitleMatch, clean_title, match_titles, strip_year, text_per_user, title_ngrams

__all__ = [
    "min_group", "range_group", "sd_group", "mad_group", "gini_group", "cv_group", "fstat_group", "kl_group",
    "gce_group", "atk_group", "sd_within", "gini_within", "atk_within", "atk_ind", "atkinson_decomposition",
    "AtkinsonDecomposition", "group_sizes", "group_means", "encode_groups", "GROUP_MEASURES", "OPTIONS", "RANGES",
    "HIGHER_IS_FAIRER",
    "all_groupings", "attribute_subsets", "n_groups", "by_grouping", "grp", "stairs", "ml_age_group",
    "ml_occupation_group", "movielens_groups", "AGE_GROUPS", "OCCUPATION_GROUPS", "ML1M_NON_WORKING",
    "ML100K_NON_WORKING",
    "strip_year", "clean_title", "title_ngrams", "TfidfNgrams", "TitleMatch", "match_titles", "text_per_user",
    "TEXT_MEASURES",
]

_SUBMODULES = ("derivations", "groupings", "measures", "records", "text")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
