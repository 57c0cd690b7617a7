"""Preprocessing as in the thesis (RecBole's ``_data_filtering`` order).

1. drop rows with a missing user or item id;
2. remove duplicate user-item pairs, keeping the last (most recent) one;
3. value filter: keep ratings >= ``threshold`` (and inside ``rating_range``) and binarise them;
   every other rating is *discarded*, not turned into a negative;
4. iterative k-core: remove users and items with fewer than ``k`` interactions, repeatedly, until
   every remaining user and item has at least ``k`` (optionally also users with more than
   ``user_max``).

Each step is a public function taking and returning :class:`~recfair.datasets.Interactions`;
:func:`preprocess` chains them.
"""

from __future__ import annotations

import numbers

import numpy as np
import pandas as pd

from ._interactions import Interactions

__all__ = ["drop_missing_ids", "drop_duplicates", "filter_ratings", "k_core_filter", "preprocess"]

_DEDUP = ("last", "first", None)


def _check_interactions(inter) -> Interactions:
    if not isinstance(inter, Interactions):
        raise TypeError(f"expected an Interactions object, got {type(inter).__name__}.")
    return inter


def _check_count(value, name: str, *, minimum: int, allow_none: bool = True):
    if value is None and allow_none:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer{' or None' if allow_none else ''}, got {value!r}.")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}.")
    return int(value)


def _check_number(value, name: str):
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or np.isnan(value):
        raise TypeError(f"{name} must be a real number or None, got {value!r}.")
    return float(value)


def drop_missing_ids(inter: Interactions) -> Interactions:
    """Remove rows whose ``user_id`` or ``item_id`` is missing (NaN/None/empty string).

    >>> import pandas as pd
    >>> inter = Interactions(pd.DataFrame({"user_id": ["a", None, "b"], "item_id": ["x", "y", ""]}))
    >>> drop_missing_ids(inter).n_interactions
    1
    """
    frame = _check_interactions(inter).frame
    missing = frame["user_id"].isna() | frame["item_id"].isna()
    for column in ("user_id", "item_id"):
        if not pd.api.types.is_numeric_dtype(frame[column]):
            missing |= frame[column].astype(str).str.strip().eq("") & frame[column].notna()
    return inter.with_frame(frame[~missing], step=f"dropped {int(missing.sum())} rows with a missing id")


def drop_duplicates(inter: Interactions, *, keep: str | None = "last") -> Interactions:
    """Keep one row per user-item pair.

    Parameters
    ----------
    inter : Interactions
    keep : {"last", "first"} or None, default "last"
        ``"last"`` keeps the most recent row of each pair: the one with the latest timestamp when
        the data has timestamps (ties, and rows without timestamp, resolved by file order: the
        later row wins; missing timestamps count as oldest), otherwise the last in file order.
        ``"first"`` keeps the earliest. ``None`` keeps every row. Surviving rows keep their
        original order.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1, 1, 1], "item_id": [5, 5, 6],
    ...                       "rating": [2.0, 4.0, 3.0], "timestamp": [20.0, 10.0, 15.0]})
    >>> drop_duplicates(Interactions(frame)).frame[["item_id", "rating"]].to_numpy().tolist()
    [[5.0, 2.0], [6.0, 3.0]]
    """
    frame = _check_interactions(inter).frame
    if keep not in _DEDUP:
        raise ValueError(f"keep must be one of {_DEDUP}, got {keep!r}.")
    if keep is None:
        return inter
    order = np.arange(len(frame))
    if frame["timestamp"].notna().any():
        # a stable sort keeps file order among equal timestamps, so "last" = latest, then later in file
        order = np.argsort(frame["timestamp"].fillna(-np.inf).to_numpy(), kind="stable")
    ranked = frame.iloc[order]
    duplicated = ranked.duplicated(subset=["user_id", "item_id"], keep=keep).to_numpy()
    drop = np.zeros(len(frame), dtype=bool)
    drop[order[duplicated]] = True
    return inter.with_frame(frame[~drop], step=f"removed {int(drop.sum())} duplicate user-item rows (keep={keep})")


def filter_ratings(inter: Interactions, *, threshold: float | None = None,
                   rating_range: tuple[float, float] | None = None, binarize: bool = True) -> Interactions:
    """Keep the interactions rated ``>= threshold`` (and within ``rating_range``), discard the rest.

    Parameters
    ----------
    inter : Interactions
    threshold : float, optional
        Lowest rating kept (the thesis: 3 on 1-5 scales, 6 for Book-Crossing, 0 for Jester).
    rating_range : (float, float), optional
        Closed interval of ratings kept, e.g. ``(3, 5)``.
    binarize : bool, default True
        Set the rating of every kept row to 1.0 and mark the result implicit.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1, 1, 2], "item_id": [5, 6, 5], "rating": [2.0, 3.0, 5.0]})
    >>> out = filter_ratings(Interactions(frame), threshold=3)
    >>> out.frame["rating"].tolist(), out.implicit
    ([1.0, 1.0], True)
    """
    frame = _check_interactions(inter).frame
    threshold = _check_number(threshold, "threshold")
    if rating_range is not None:
        if not isinstance(rating_range, (tuple, list)) or len(rating_range) != 2:
            raise TypeError(f"rating_range must be a pair (low, high), got {rating_range!r}.")
        low, high = (_check_number(v, "rating_range bound") for v in rating_range)
        if low > high:
            raise ValueError(f"rating_range must have low <= high, got {rating_range!r}.")
    if threshold is None and rating_range is None:
        return inter
    ratings = frame["rating"]
    if ratings.isna().all():
        raise ValueError(
            f"Dataset {inter.name!r} has no ratings (it is implicit), so threshold/rating_range cannot "
            f"apply; leave them as None."
        )
    keep = ratings.notna()
    if threshold is not None:
        keep &= ratings >= threshold
    if rating_range is not None:
        keep &= ratings.between(low, high)
    kept = frame[keep]
    if binarize:
        kept = kept.assign(rating=1.0)
    rule = " and ".join(filter(None, [threshold is not None and f">= {threshold:g}",
                                      rating_range is not None and f"in [{low:g}, {high:g}]"]))
    return inter.with_frame(
        kept, implicit=True if binarize else inter.implicit,
        step=f"kept {len(kept)} of {len(frame)} ratings {rule}{' (binarised)' if binarize else ''}",
    )


def _core_mask(users: np.ndarray, items: np.ndarray, user_k: int, item_k: int,
               user_max: int | None, item_max: int | None) -> tuple[np.ndarray, int]:
    """Boolean mask of the rows in the k-core; also the number of removal rounds."""
    n_users, n_items = int(users.max(initial=-1)) + 1, int(items.max(initial=-1)) + 1
    alive = np.ones(len(users), dtype=bool)
    # Counts only shrink, so an upper bound can only be violated on the first round: applying it
    # once up front gives the same result as checking it inside the loop.
    if user_max is not None:
        alive &= np.bincount(users, minlength=n_users)[users] <= user_max
    if item_max is not None:
        alive &= np.bincount(items, minlength=n_items)[items] <= item_max
    rounds = 0
    while True:
        user_count = np.bincount(users[alive], minlength=n_users)
        item_count = np.bincount(items[alive], minlength=n_items)
        weak = alive & ((user_count[users] < user_k) | (item_count[items] < item_k))
        if not weak.any():
            return alive, rounds
        alive &= ~weak
        rounds += 1


def k_core_filter(inter: Interactions, *, k: int = 5, user_k: int | None = None, item_k: int | None = None,
                  user_max: int | None = None, item_max: int | None = None) -> Interactions:
    """Iterative k-core: the largest subset in which every user and item has ``>= k`` interactions.

    Users and items below their minimum are removed together, counts are recomputed, and this
    repeats until nothing changes (RecBole's ``user/item_inter_num_interval`` filter). With the
    lower bounds only, the result does not depend on removal order: it is the unique largest
    subset with the property.

    Parameters
    ----------
    inter : Interactions
    k : int, default 5
        Minimum number of interactions per user and per item.
    user_k, item_k : int, optional
        Separate minimums for users/items (default ``k``).
    user_max, item_max : int, optional
        Also remove users/items with more than this many interactions (counted when the filter
        starts; the Jester setting of the thesis is ``user_max=80``).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1, 1, 2, 2, 3], "item_id": [7, 8, 7, 8, 7]})
    >>> k_core_filter(Interactions(frame), k=2).frame[["user_id", "item_id"]].to_numpy().tolist()
    [[1, 7], [1, 8], [2, 7], [2, 8]]
    """
    frame = _check_interactions(inter).frame
    k = _check_count(k, "k", minimum=0, allow_none=False)
    user_k = k if user_k is None else _check_count(user_k, "user_k", minimum=0)
    item_k = k if item_k is None else _check_count(item_k, "item_k", minimum=0)
    user_max = _check_count(user_max, "user_max", minimum=1)
    item_max = _check_count(item_max, "item_max", minimum=1)
    if user_max is not None and user_max < user_k:
        raise ValueError(f"user_max ({user_max}) must be >= the user minimum ({user_k}).")
    if item_max is not None and item_max < item_k:
        raise ValueError(f"item_max ({item_max}) must be >= the item minimum ({item_k}).")
    users = pd.factorize(frame["user_id"])[0]
    items = pd.factorize(frame["item_id"])[0]
    if (users < 0).any() or (items < 0).any():
        raise ValueError("k_core_filter needs every user_id and item_id present; call drop_missing_ids first.")
    keep, rounds = _core_mask(users, items, user_k, item_k, user_max, item_max)
    bounds = f"users >= {user_k}, items >= {item_k}"
    bounds += f", users <= {user_max}" if user_max is not None else ""
    bounds += f", items <= {item_max}" if item_max is not None else ""
    out = frame[keep]
    return inter.with_frame(
        out, step=f"k-core ({bounds}): kept {len(out)} of {len(frame)} rows after {rounds} removal rounds",
    )


def preprocess(interactions: Interactions, *, threshold: float | None = None,
               rating_range: tuple[float, float] | None = None, k_core: int | None = 5,
               user_max: int | None = None, dedup: str | None = "last", binarize: bool = True) -> Interactions:
    """Run the thesis's preprocessing: missing ids -> duplicates -> rating filter -> iterative k-core.

    Parameters
    ----------
    interactions : Interactions
    threshold, rating_range, binarize
        See :func:`filter_ratings` (no value filter when both are None, as for Last.fm).
    k_core : int or None, default 5
        Minimum interactions per user and item (iterative); None or 0 skips the step.
    user_max : int, optional
        Remove users with more than this many interactions (Jester in the thesis: 80).
    dedup : {"last", "first"} or None, default "last"
        See :func:`drop_duplicates`.

    Returns
    -------
    Interactions
        With :attr:`~Interactions.log` describing each step.

    See Also
    --------
    thesis_preprocessing : the per-dataset settings of the thesis.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1, 1, 2, 2, 3], "item_id": [7, 8, 7, 8, 7],
    ...                       "rating": [5, 4, 3, 4, 1]})
    >>> out = preprocess(Interactions(frame), threshold=3, k_core=2)
    >>> out.n_users, out.n_items, out.n_interactions
    (2, 2, 4)
    """
    inter = drop_missing_ids(_check_interactions(interactions))
    inter = drop_duplicates(inter, keep=dedup)
    inter = filter_ratings(inter, threshold=threshold, rating_range=rating_range, binarize=binarize)
    k_core = _check_count(k_core, "k_core", minimum=0)
    if k_core or user_max is not None:
        inter = k_core_filter(inter, k=k_core or 0, user_max=user_max)
    return inter
