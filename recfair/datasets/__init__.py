"""Real datasets of the thesis: sources, loading, preprocessing and splits.

The pipeline is ``fetch -> load -> preprocess -> split``:

>>> from recfair import datasets
>>> split = datasets.load_split("lastfm", protocol="paper1", seed=2020)  # doctest: +SKIP
>>> split.matrix("train").shape  # doctest: +SKIP
(1859, 2823)

* :func:`fetch` finds a dataset in ``$RECFAIR_DATA`` or the cache, or downloads it (checksums
  verified, atomic moves) from the official source or RecBole's processed files.
* :func:`load` parses the files into :class:`Interactions` (original ids, ratings, timestamps,
  user attributes and item metadata).
* :func:`preprocess` (and its steps) reproduces the thesis's filtering;
  :func:`thesis_preprocessing` gives the per-dataset settings.
* :func:`split_per_user` (Paper 1) and :func:`split_global` (Papers 2-6) return a :class:`Split`
  over a shared 0-based index space; :func:`filter_split` applies the post-split filters.
* :func:`load_split` does all of it in one call; :func:`statistics_table` prints the tables.

No data ships with recfair: MovieLens may not be redistributed, and the other datasets are for
non-commercial research. Each registry entry (:func:`dataset_info`) carries its licence and
citation.
"""

from ._fetch import UnverifiedDownloadWarning, default_data_home, fetch, locate
from ._interactions import Interactions
from ._load import PROTOCOLS, load, load_split, thesis_preprocessing
from ._preprocess import drop_duplicates, drop_missing_ids, filter_ratings, k_core_filter, preprocess
from ._readers import jester_wide_to_long, read_atomic_file
from ._registry import REGISTRY, DatasetInfo, available_datasets, dataset_info
from ._split import Split, filter_split, min_train_interactions, part_sizes, split_global, split_per_user
from ._stats import statistics, statistics_table

__all__ = [
    "fetch",
    "locate",
    "default_data_home",
    "UnverifiedDownloadWarning",
    "load",
    "load_split",
    "thesis_preprocessing",
    "PROTOCOLS",
    "Interactions",
    "preprocess",
    "drop_missing_ids",
    "drop_duplicates",
    "filter_ratings",
    "k_core_filter",
    "Split",
    "split_per_user",
    "split_global",
    "filter_split",
    "min_train_interactions",
    "part_sizes",
    "statistics",
    "statistics_table",
    "available_datasets",
    "dataset_info",
    "DatasetInfo",
    "REGISTRY",
    "read_atomic_file",
    "jester_wide_to_long",
]
