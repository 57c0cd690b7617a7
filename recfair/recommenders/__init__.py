"""Recommenders that produce the runs the fairness measures are computed on.

Seven models share one scikit-learn-like interface (``Model(**params, seed=2020)``,
``fit(train) -> self``, ``score(users) -> (len(users), n_items)`` float64):

* :class:`Pop` -- item popularity; :class:`Random` -- seeded uniform scores;
* :class:`ItemKNN` -- item-item cosine neighbourhoods (Deshpande & Karypis, 2004);
* :class:`UserKNN` -- user-user cosine neighbourhoods (Resnick et al., 1994; Paper 5's U-KNN);
* :class:`EASE` -- closed-form shallow autoencoder (Steck, 2019);
* :class:`BPR` and :class:`ALS` -- matrix factorisation via the ``implicit`` library.

:func:`recommend` turns a fitted model into top-k lists with history excluded, following the
tie rule of :mod:`recfair.ranking`. :func:`produce_run` does the whole pipeline on a dataset
split and caches the result on disk; :meth:`RecRun.to_run` hands it to the measures.

Example
-------
>>> import scipy.sparse as sp
>>> from recfair.recommenders import make_model, recommend
>>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 0, 0]])
>>> recommend(make_model("pop").fit(train), [0, 1, 2], k=2, history=train)
array([[2, 3],
       [0, 3],
       [1, 2]])
"""

from ._base import NotFittedError, Recommender, recommend
from .factorization import ALS, BPR
from .models import EASE, ItemKNN, Pop, Random, UserKNN
from .registry import MODELS, REFERENCE_MODELS, available_models, default_params, get_model_class, make_model
from .runs import (
    CACHE_VERSION,
    RecRun,
    RunCacheWarning,
    clear_cache,
    default_cache_dir,
    produce_run,
    produce_runs,
    run_cache_key,
    split_fingerprint,
)

__all__ = [
    "Recommender", "NotFittedError", "recommend",
    "Pop", "Random", "ItemKNN", "UserKNN", "EASE", "BPR", "ALS",
    "MODELS", "REFERENCE_MODELS", "available_models", "default_params", "get_model_class", "make_model",
    "RecRun", "produce_run", "produce_runs", "clear_cache", "default_cache_dir",
    "run_cache_key", "split_fingerprint", "RunCacheWarning", "CACHE_VERSION",
]
