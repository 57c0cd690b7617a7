"""One-call entry points: :func:`load` (files to :class:`Interactions`) and :func:`load_split`
(load, preprocess as in the thesis, split as in one of its papers)."""

from __future__ import annotations

from pathlib import Path

from ._fetch import _fetch
from ._interactions import Interactions
from ._preprocess import preprocess
from ._readers import detect_layout, read_directory
from ._registry import dataset_info
from ._split import Split, filter_split, split_global, split_per_user

__all__ = ["load", "load_split", "thesis_preprocessing", "PROTOCOLS"]

#: Split protocols of the thesis. ``order="auto"`` is temporal when the data has timestamps
#: (ML-*, Amazon-*) and random otherwise (Last.fm, Book-Crossing, Jester), as in the papers.
PROTOCOLS = {
    # Paper 1: per-user 80/10/10, no post-split filter.
    "paper1": {"kind": "per_user", "ratios": (0.8, 0.1, 0.1), "order": "auto"},
    # Papers 2-5: global 6:2:2, then users with < 5 train interactions removed from all parts.
    "paper2": {"kind": "global", "ratios": (0.6, 0.2, 0.2), "order": "auto", "min_user_train": 5},
    # Paper 6: global temporal 3:1:1; items then users with < 5 train interactions removed,
    # then validation/test interactions of users/items unseen in training.
    "paper6": {"kind": "global", "ratios": (0.6, 0.2, 0.2), "order": "temporal",
               "min_item_train": 5, "min_user_train": 5, "drop_cold_start": True},
}
_PROTOCOL_ALIASES = {"paper3": "paper2", "paper4": "paper2", "paper5": "paper2"}


def load(name, *, path=None, data_home=None, download: bool = True, source: str | None = None,
         mirror: str | None = None, hashes=None, progress: bool = True) -> Interactions:
    """Load a dataset's raw interactions (no filtering) with its side information.

    Parameters
    ----------
    name : str
        Dataset name or alias (``"ml-100k"``, ``"Lastfm"``, ``"Amazon-lb"``, ...).
    path : path-like, optional
        Read this folder directly (official or RecBole layout, detected) instead of
        :func:`fetch`-ing.
    data_home, download, source, mirror, hashes, progress
        Passed to :func:`fetch`.

    Returns
    -------
    Interactions
        ``frame`` with ``user_id``, ``item_id``, ``rating``, ``timestamp`` (+ ``weight`` for
        Last.fm); ``users``/``items`` side tables where the dataset has them.

    Examples
    --------
    >>> inter = load("ml-100k")  # doctest: +SKIP
    >>> inter  # doctest: +SKIP
    Interactions('ml-100k': 943 users, 1,682 items, 100,000 interactions, rated, side info: users+items)
    """
    info = dataset_info(name)
    if path is not None:
        hit = detect_layout(Path(path), info, source)
        if hit is None:
            markers = "; ".join(f"{a.source}: {', '.join(a.markers)}" for a in info.archives.values())
            raise FileNotFoundError(f"{path} holds no recognised files of dataset {info.name!r} ({markers}).")
    else:
        hit = _fetch(info, data_home=data_home, download=download, source=source, mirror=mirror,
                     hashes=hashes, progress=progress)
    archive, root = hit
    return read_directory(root, info, archive)


def thesis_preprocessing(name) -> dict:
    """Keyword arguments of :func:`preprocess` that the thesis used for a dataset.

    ML-* and Amazon-*: ratings >= 3 kept and binarised; Book-Crossing: >= 6; Jester: ratings in
    [0, 10] and users with more than 80 interactions removed; Last.fm: implicit, no value filter.
    All: duplicates keep the last, iterative 5-core on users and items.

    >>> thesis_preprocessing("Lastfm")
    {'threshold': None, 'k_core': 5}
    >>> thesis_preprocessing("jester")
    {'threshold': 0.0, 'rating_range': (0.0, 10.0), 'k_core': 5, 'user_max': 80}
    """
    return dict(dataset_info(name).preprocessing)


def _protocol(protocol: str) -> dict:
    if not isinstance(protocol, str):
        raise TypeError(f"protocol must be a string, got {type(protocol).__name__}.")
    key = _PROTOCOL_ALIASES.get(protocol.lower(), protocol.lower())
    if key not in PROTOCOLS:
        raise ValueError(f"protocol must be one of {sorted(PROTOCOLS) + sorted(_PROTOCOL_ALIASES)}, got {protocol!r}.")
    return dict(PROTOCOLS[key])


def load_split(name, *, protocol: str = "paper1", seed=2020, interactions: Interactions | None = None,
               preprocessing: dict | None = None, order: str | None = None, ratios=None,
               min_user_train: int | None = None, min_item_train: int | None = None,
               **load_kwargs) -> Split:
    """Load a dataset, preprocess it as the thesis did, and split it with one paper's protocol.

    Parameters
    ----------
    name : str
        Dataset name or alias.
    protocol : {"paper1", "paper2", "paper6"}, default "paper1"
        ``"paper1"``: per-user 80/10/10 (temporal when timestamps exist, else random).
        ``"paper2"`` (also ``"paper3"``-``"paper5"``): global 6:2:2 (temporal/random likewise),
        then users with < 5 train interactions removed from all parts.
        ``"paper6"``: global temporal 3:1:1, items then users with < 5 train interactions removed,
        then cold-start validation/test interactions dropped.
    seed : int, default 2020
        Seed of random orders (the thesis's RecBole seed; the shuffles themselves differ from RecBole's).
    interactions : Interactions, optional
        Use these raw interactions instead of loading ``name`` (which then only selects the defaults).
    preprocessing : dict, optional
        Overrides of :func:`thesis_preprocessing` (e.g. ``{"k_core": 10}``).
    order : {"auto", "temporal", "random"}, optional
        Override the protocol's order.
    ratios : (float, float, float), optional
        Override the protocol's ratios.
    min_user_train, min_item_train : int, optional
        Override the protocol's post-split thresholds on train interactions per user/item (0
        disables the filter; e.g. ``min_user_train=2, min_item_train=2`` for Paper 6's JobRec).
    **load_kwargs
        Passed to :func:`load` (``path``, ``data_home``, ``download``, ``source``, ...).

    Returns
    -------
    Split

    Examples
    --------
    >>> split = load_split("lastfm", protocol="paper1")  # doctest: +SKIP
    >>> split.n_users, split.n_items  # doctest: +SKIP
    (1859, 2823)
    """
    settings = _protocol(protocol)
    kwargs = thesis_preprocessing(name)
    kwargs.update(preprocessing or {})
    raw = interactions if interactions is not None else load(name, **load_kwargs)
    if not isinstance(raw, Interactions):
        raise TypeError(f"interactions must be an Interactions object, got {type(raw).__name__}.")
    data = preprocess(raw, **kwargs)
    splitter = split_per_user if settings["kind"] == "per_user" else split_global
    split = splitter(data, ratios=ratios or settings["ratios"], order=order or settings["order"], seed=seed)
    min_user = settings.get("min_user_train") if min_user_train is None else min_user_train
    min_item = settings.get("min_item_train") if min_item_train is None else min_item_train
    cold = settings.get("drop_cold_start", False)
    if min_user or min_item or cold:
        split = filter_split(split, min_user_train=min_user or None, min_item_train=min_item or None,
                             drop_cold_start=cold)
    return split
