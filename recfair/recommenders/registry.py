"""Model names -> classes; each class's constructor defaults are the recommended settings.

The defaults suit ML-100K / Last.fm scale (about 1k-2k users and 2k-3k items):

=========  ==========================================================================
name       defaults
=========  ==========================================================================
pop        --
random     seed=2020
itemknn    k_neighbours=100, shrink=10
userknn    k_neighbours=100, shrink=0 (plain cosine, Paper 5's U-KNN)
bpr        factors=64, learning_rate=0.01, regularization=0.01, iterations=100
als        factors=64, regularization=0.05, iterations=15, alpha=1
ease       reg=500
=========  ==========================================================================
"""

from __future__ import annotations

from ._base import Recommender
from .factorization import ALS, BPR
from .models import EASE, ItemKNN, Pop, Random, UserKNN

__all__ = ["MODELS", "REFERENCE_MODELS", "available_models", "get_model_class", "make_model", "default_params"]

#: Registered recommenders by lower-case name.
MODELS: dict[str, type[Recommender]] = {
    "pop": Pop,
    "random": Random,
    "itemknn": ItemKNN,
    "userknn": UserKNN,
    "bpr": BPR,
    "als": ALS,
    "ease": EASE,
}


#: The six reference recommenders of the book's Foundations and Part I (Paper 1's study); the other
#: models (U-KNN for Paper 5) join the studies of the parts that use them.
REFERENCE_MODELS = ("pop", "random", "itemknn", "bpr", "als", "ease")


def available_models() -> list[str]:
    """Names accepted by :func:`make_model` and :func:`recfair.recommenders.produce_run`.

    Examples
    --------
    >>> available_models()[:3]
    ['pop', 'random', 'itemknn']
    """
    return list(MODELS)


def canonical_name(name) -> str:
    """Lower-case registry name of ``name`` (``"ItemKNN"`` -> ``"itemknn"``); ``ValueError`` if unknown."""
    if not isinstance(name, str):
        raise TypeError(f"model name must be a string, got {type(name).__name__} {name!r}.")
    key = name.strip().lower()
    if key not in MODELS:
        raise ValueError(f"unknown model {name!r}; choose one of {available_models()}.")
    return key


def get_model_class(name: str) -> type[Recommender]:
    """The class registered under ``name`` (case-insensitive).

    Examples
    --------
    >>> get_model_class("EASE").__name__
    'EASE'
    """
    return MODELS[canonical_name(name)]


def default_params(name: str) -> dict:
    """Default hyperparameters of model ``name``, e.g. ``default_params("ease")["reg"] == 500.0``.

    Examples
    --------
    >>> default_params("ease")["reg"]
    500.0
    """
    return get_model_class(name)().get_params()


def make_model(name: str, **params) -> Recommender:
    """Instantiate model ``name`` with ``params`` overriding its defaults.

    >>> make_model("itemknn", k_neighbours=50)
    ItemKNN(k_neighbours=50, shrink=10.0, block_size=None, seed=2020, progress=False)
    """
    cls = get_model_class(name)
    allowed = cls._param_names()
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise ValueError(f"unknown parameter(s) {unknown} for {cls.__name__}; allowed: {allowed}.")
    return cls(**params)
