"""Train/validation/test splits of the thesis, and the :class:`Split` they produce.

Two families, both seeded and leakage-free (every interaction lands in exactly one part):

* :func:`split_per_user` (Paper 1): each user's interactions, ordered by time or by a seeded
  shuffle, are cut 80/10/10.
* :func:`split_global` (Papers 2-6): all interactions, ordered by time (stable) or by a seeded
  shuffle, are cut at 60% and 80% (6:2:2, which is also Paper 6's 3:1:1).

**Rounding rule** (the one RecBole applies, so part sizes match the thesis's): for a group of
``n`` interactions (one user, or the whole data set), the validation and test parts get
``floor(ratio * n)`` interactions each and training gets the rest; then, test first and
validation second, a held-out part whose exact share ``ratio * n`` lies strictly between 0 and 1
takes one interaction from training, as long as training keeps at least one. So a user with 5
interactions gets 3/1/1 and a user with 2 gets 1/0/1 under 80/10/10.

Random orders use :func:`numpy.random.default_rng` with ``seed``; they are reproducible but not
bit-identical to RecBole's (which shuffles with torch).
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import scipy.sparse as sp

from .._validation import check_seed
from ._interactions import Interactions, _core_stats
from ._preprocess import _check_count

__all__ = ["Split", "split_per_user", "split_global", "filter_split", "min_train_interactions",
           "PARTS", "MATRIX_PARTS"]

PARTS = ("train", "valid", "test")
MATRIX_PARTS = ("train", "valid", "test", "train+valid", "all")
_ORDERS = ("auto", "temporal", "random")


@dataclass(frozen=True, eq=False)
class Split:
    """A train/validation/test split over one shared 0-based index space.

    Attributes
    ----------
    name : str
        Dataset name.
    train, valid, test : pandas.DataFrame
        Columns ``user`` and ``item`` (``int64`` indices), plus ``rating`` and/or ``timestamp``
        when the data has them. Treat them as read-only.
    n_users, n_items : int
        Catalogue sizes: every user/item of the (preprocessed, post-filtered) data; ``n_items`` is
        the thesis's ``n``.
    user_ids, item_ids : numpy.ndarray
        Original id of each index (``user_ids[u]`` is user ``u``'s id in the raw files).
    user_attributes, item_metadata : pandas.DataFrame or None
        Indexed by user/item index (``0..n-1``), with the original id in column
        ``user_id``/``item_id``; None when the dataset has no such side information.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1] * 5 + [2] * 5, "item_id": list(range(5)) * 2})
    >>> split = split_per_user(Interactions(frame), order="random", seed=0)
    >>> [len(split.train), len(split.valid), len(split.test)]
    [6, 2, 2]
    >>> split.matrix("train").shape, split.test_users.tolist()
    ((2, 5), [0, 1])
    """

    name: str
    train: pd.DataFrame
    valid: pd.DataFrame
    test: pd.DataFrame
    n_users: int
    n_items: int
    user_ids: np.ndarray
    item_ids: np.ndarray
    user_attributes: pd.DataFrame | None = None
    item_metadata: pd.DataFrame | None = None
    _cache: dict = field(default_factory=dict, init=False, repr=False, compare=False)

    def __post_init__(self):
        for attr in ("n_users", "n_items"):
            value = getattr(self, attr)
            if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < 0:
                raise TypeError(f"{attr} must be a non-negative integer, got {value!r}.")
        for part in PARTS:
            frame = getattr(self, part)
            if not isinstance(frame, pd.DataFrame):
                raise TypeError(f"{part} must be a pandas DataFrame, got {type(frame).__name__}.")
            for column, size in (("user", self.n_users), ("item", self.n_items)):
                if column not in frame.columns:
                    raise ValueError(f"{part} must have an int64 column {column!r}; columns: {list(frame.columns)}.")
                if frame[column].dtype != np.int64:
                    raise TypeError(f"{part}[{column!r}] must be int64, got {frame[column].dtype}.")
                if len(frame) and (frame[column].min() < 0 or frame[column].max() >= size):
                    raise ValueError(
                        f"{part}[{column!r}] holds indices outside [0, {size}): "
                        f"min={frame[column].min()}, max={frame[column].max()}."
                    )
        for attr, size in (("user_ids", self.n_users), ("item_ids", self.n_items)):
            if len(getattr(self, attr)) != size:
                raise ValueError(f"{attr} must have one entry per index ({size}), got {len(getattr(self, attr))}.")
        for attr, size in (("user_attributes", self.n_users), ("item_metadata", self.n_items)):
            table = getattr(self, attr)
            if table is not None and (not isinstance(table, pd.DataFrame) or len(table) != size):
                raise ValueError(f"{attr} must be None or a DataFrame with {size} rows (one per index).")

    # -- matrices ----------------------------------------------------------------------------
    def _part_frame(self, part: str) -> pd.DataFrame:
        if part not in MATRIX_PARTS:
            raise ValueError(f"part must be one of {MATRIX_PARTS}, got {part!r}.")
        if part == "train+valid":
            return pd.concat([self.train[["user", "item"]], self.valid[["user", "item"]]])
        if part == "all":
            return pd.concat([getattr(self, p)[["user", "item"]] for p in PARTS])
        return getattr(self, part)

    def matrix(self, part: str = "train") -> sp.csr_matrix:
        """Binary user-item matrix ``(n_users, n_items)`` (float32 ones) of one part.

        Parameters
        ----------
        part : {"train", "valid", "test", "train+valid", "all"}
        """
        if part not in self._cache:
            frame = self._part_frame(part)
            data = np.ones(len(frame), dtype=np.float32)
            matrix = sp.csr_matrix((data, (frame["user"].to_numpy(), frame["item"].to_numpy())),
                                   shape=(self.n_users, self.n_items))
            matrix.sum_duplicates()
            matrix.data[:] = 1.0  # a pair present twice is still one interaction
            self._cache[part] = matrix
        return self._cache[part].copy()

    @property
    def test_users(self) -> np.ndarray:
        """Sorted indices of the users with at least one test interaction."""
        return np.unique(self.test["user"].to_numpy())

    def _rows(self, users) -> np.ndarray:
        if users is None:
            return self.test_users
        rows = np.asarray(users)
        if rows.ndim != 1:
            raise ValueError(f"users must be a 1-D sequence of user indices, got shape {rows.shape}.")
        if rows.size and not np.issubdtype(rows.dtype, np.integer):
            raise TypeError(f"users must hold integer user indices, got dtype {rows.dtype}.")
        if rows.size and (rows.min() < 0 or rows.max() >= self.n_users):
            raise ValueError(f"users must be in [0, {self.n_users}), got min={rows.min()}, max={rows.max()}.")
        return rows.astype(np.int64, copy=False)

    def relevant(self, users=None) -> sp.csr_matrix:
        """Each user's test items, as a boolean matrix ``(len(users), n_items)``.

        ``users`` defaults to :attr:`test_users`; row ``r`` belongs to ``users[r]``.
        """
        return self.matrix("test")[self._rows(users)].astype(bool)

    def history(self, users=None) -> sp.csr_matrix:
        """Each user's train + validation items (the items excluded from their rankings).

        Boolean matrix ``(len(users), n_items)``; ``users`` defaults to :attr:`test_users`, so the
        rows line up with :meth:`relevant`.
        """
        return self.matrix("train+valid")[self._rows(users)].astype(bool)

    def statistics(self) -> pd.Series:
        """Sizes and density of the whole split, of each part, and relevant items per test user."""
        return pd.Series(_split_stats(self), name=self.name, dtype=object)

    def __repr__(self) -> str:
        sizes = ", ".join(f"{p} {len(getattr(self, p)):,}" for p in PARTS)
        return f"Split({self.name!r}: {self.n_users:,} users, {self.n_items:,} items; {sizes})"


# --- building -----------------------------------------------------------------------------

def _check_ratios(ratios) -> tuple[float, float, float]:
    try:
        values = tuple(float(r) for r in ratios)
    except (TypeError, ValueError):
        raise TypeError(f"ratios must be three numbers (train, valid, test), got {ratios!r}.") from None
    if len(values) != 3:
        raise ValueError(f"ratios must have three entries (train, valid, test), got {len(values)}: {ratios!r}.")
    if any(not np.isfinite(r) or r < 0 for r in values) or values[0] <= 0:
        raise ValueError(f"ratios must be non-negative with a positive train share, got {ratios!r}.")
    total = sum(values)
    if abs(total - 1.0) > 1e-6:
        raise ValueError(f"ratios must sum to 1, got {ratios!r} (sum {total:g}); e.g. (0.8, 0.1, 0.1).")
    return values


def part_sizes(n, ratios) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Train/valid/test sizes for groups of ``n`` interactions under the module's rounding rule.

    >>> [a.tolist() for a in part_sizes([1, 2, 5, 10, 19], (0.8, 0.1, 0.1))]
    [[1, 1, 3, 8, 17], [0, 0, 1, 1, 1], [0, 1, 1, 1, 1]]
    """
    n = np.asarray(n, dtype=np.int64)
    _, r_valid, r_test = _check_ratios(ratios)
    valid = np.floor(r_valid * n).astype(np.int64)
    test = np.floor(r_test * n).astype(np.int64)
    train = n - valid - test
    for held, ratio in ((test, r_test), (valid, r_valid)):
        bump = (held == 0) & (ratio * n > 0) & (train > 1)
        held[bump] += 1
        train[bump] -= 1
    return train, valid, test


def _resolve_order(inter: Interactions, order: str) -> str:
    if order not in _ORDERS:
        raise ValueError(f"order must be one of {_ORDERS}, got {order!r}.")
    if order == "auto":
        return "temporal" if inter.has_timestamps else "random"
    if order == "temporal" and not inter.has_timestamps:
        raise ValueError(
            f"A temporal split needs a timestamp on every interaction, but dataset {inter.name!r} has "
            f"{int(inter.frame['timestamp'].isna().sum())} rows without one; use order='random'."
        )
    return order


def _row_order(inter: Interactions, order: str, seed) -> np.ndarray:
    if order == "temporal":
        return np.argsort(inter.frame["timestamp"].to_numpy(), kind="stable")
    return check_seed(seed).permutation(len(inter.frame))


def _index_space(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    codes, uniques = pd.factorize(values, sort=True)
    return codes.astype(np.int64), np.asarray(uniques)


def _side_table(table: pd.DataFrame | None, ids: np.ndarray, id_name: str) -> pd.DataFrame | None:
    if table is None:
        return None
    table = table[~table.index.duplicated(keep="first")]
    aligned = table.reindex(pd.Index(ids)).reset_index(drop=True)
    aligned.insert(0, id_name, ids)
    aligned.index.name = id_name.replace("_id", "")
    return aligned


def _make_split(inter: Interactions, assignment: np.ndarray) -> Split:
    """Build a :class:`Split` from a part code (0 train, 1 valid, 2 test) per row of ``inter.frame``."""
    frame = inter.frame
    users, user_ids = _index_space(frame["user_id"])
    items, item_ids = _index_space(frame["item_id"])
    columns = {"user": users, "item": items}
    for extra in ("rating", "timestamp"):
        if frame[extra].notna().any():
            columns[extra] = frame[extra].to_numpy()
    table = pd.DataFrame(columns)
    parts = {p: table[assignment == code].reset_index(drop=True) for code, p in enumerate(PARTS)}
    return Split(
        name=inter.name, **parts, n_users=len(user_ids), n_items=len(item_ids),
        user_ids=user_ids, item_ids=item_ids,
        user_attributes=_side_table(inter.users, user_ids, "user_id"),
        item_metadata=_side_table(inter.items, item_ids, "item_id"),
    )


def _check_split_input(inter) -> Interactions:
    if not isinstance(inter, Interactions):
        raise TypeError(f"expected an Interactions object, got {type(inter).__name__}.")
    if inter.frame["user_id"].isna().any() or inter.frame["item_id"].isna().any():
        raise ValueError("interactions have missing ids; run preprocess() or drop_missing_ids() first.")
    if inter.frame.duplicated(["user_id", "item_id"]).any():
        raise ValueError(
            f"Dataset {inter.name!r} has repeated user-item pairs; a pair could land in two parts and "
            f"leak. Run preprocess() or drop_duplicates() first."
        )
    return inter


def split_per_user(interactions: Interactions, *, ratios=(0.8, 0.1, 0.1), order: str = "auto",
                   seed=2020) -> Split:
    """Per-user split (Paper 1): cut every user's interactions into train/valid/test.

    Parameters
    ----------
    interactions : Interactions
        Without duplicate user-item pairs (see :func:`preprocess`).
    ratios : (float, float, float), default (0.8, 0.1, 0.1)
    order : {"auto", "temporal", "random"}, default "auto"
        ``"temporal"``: each user's most recent interactions form the test part (ties by file
        order); ``"random"``: a seeded shuffle; ``"auto"``: temporal when every row has a timestamp.
    seed : int, numpy Generator or None, default 2020
        Only used by random orders.

    Returns
    -------
    Split
        Part sizes per user follow the module's rounding rule.

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1] * 10, "item_id": range(10), "timestamp": range(10)})
    >>> split = split_per_user(Interactions(frame), order="temporal")
    >>> split.test["timestamp"].tolist(), split.valid["timestamp"].tolist()
    ([9.0], [8.0])
    """
    inter = _check_split_input(interactions)
    ratios = _check_ratios(ratios)
    order = _resolve_order(inter, order)
    rows = _row_order(inter, order, check_seed(seed))
    users = pd.factorize(inter.frame["user_id"])[0]
    rows = rows[np.argsort(users[rows], kind="stable")]  # grouped by user, order kept inside
    grouped_users = users[rows]
    counts = np.bincount(grouped_users)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.arange(len(rows)) - starts[grouped_users]
    train, valid, _ = part_sizes(counts, ratios)
    code = np.where(rank < train[grouped_users], 0, np.where(rank < (train + valid)[grouped_users], 1, 2))
    assignment = np.empty(len(rows), dtype=np.int8)
    assignment[rows] = code
    return _make_split(inter, assignment)


def split_global(interactions: Interactions, *, ratios=(0.6, 0.2, 0.2), order: str = "auto",
                 seed=2020) -> Split:
    """Global split (Papers 2-6): order all interactions and cut at the ratio boundaries.

    Parameters
    ----------
    interactions : Interactions
        Without duplicate user-item pairs.
    ratios : (float, float, float), default (0.6, 0.2, 0.2)
        6:2:2 (Papers 2-5) and 3:1:1 (Paper 6) are the same cut.
    order : {"auto", "temporal", "random"}, default "auto"
        ``"temporal"``: stable sort by timestamp, so every training interaction is no later than
        any validation one, and those no later than any test one; ``"random"``: seeded shuffle.
    seed : int, numpy Generator or None, default 2020

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1, 2, 1, 2, 1], "item_id": [1, 1, 2, 2, 3],
    ...                       "timestamp": [5, 1, 4, 2, 3]})
    >>> split = split_global(Interactions(frame), order="temporal")
    >>> bool(split.train["timestamp"].max() <= split.test["timestamp"].min())
    True
    """
    inter = _check_split_input(interactions)
    ratios = _check_ratios(ratios)
    order = _resolve_order(inter, order)
    rows = _row_order(inter, order, check_seed(seed))
    train, valid, _ = (int(x[0]) for x in part_sizes([len(rows)], ratios))
    code = np.full(len(rows), 2, dtype=np.int8)
    code[:train] = 0
    code[train:train + valid] = 1
    assignment = np.empty(len(rows), dtype=np.int8)
    assignment[rows] = code
    return _make_split(inter, assignment)


# --- post-split filters -------------------------------------------------------------------

def _train_counts(split: Split, column: str, size: int) -> np.ndarray:
    return np.bincount(split.train[column].to_numpy(), minlength=size)


def filter_split(split: Split, *, min_user_train: int | None = None, min_item_train: int | None = None,
                 drop_cold_start: bool = False, reindex: bool = True) -> Split:
    """Post-split filters of Papers 2-6, each a single pass (no iteration).

    Applied in this order:

    1. ``min_item_train``: remove items with fewer train interactions from every part (Paper 6);
    2. ``min_user_train``: remove users with fewer train interactions (counted after step 1) from
       every part (Papers 2-6);
    3. ``drop_cold_start``: remove validation/test interactions whose user or item no longer has
       any train interaction (Paper 6).

    Parameters
    ----------
    split : Split
    min_user_train, min_item_train : int, optional
    drop_cold_start : bool, default False
    reindex : bool, default True
        Compact the index space to the users/items left in some part, so that ``n_users`` and
        ``n_items`` count only them (as when the filtered parts are reloaded into RecBole).

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"user_id": [1] * 10 + [2] * 3, "item_id": list(range(10)) + [0, 1, 2]})
    >>> split = split_per_user(Interactions(frame), order="random")
    >>> min_train_interactions(split, t=5).n_users
    1
    """
    if not isinstance(split, Split):
        raise TypeError(f"expected a Split, got {type(split).__name__}.")

    min_user_train = _check_count(min_user_train, "min_user_train", minimum=0)
    min_item_train = _check_count(min_item_train, "min_item_train", minimum=0)
    parts = {p: getattr(split, p) for p in PARTS}
    if min_item_train:
        weak = _train_counts(split, "item", split.n_items) < min_item_train
        parts = {p: f[~weak[f["item"].to_numpy()]] for p, f in parts.items()}
    if min_user_train:
        counts = np.bincount(parts["train"]["user"].to_numpy(), minlength=split.n_users)
        weak = counts < min_user_train
        parts = {p: f[~weak[f["user"].to_numpy()]] for p, f in parts.items()}
    if drop_cold_start:
        seen_users = np.zeros(split.n_users, dtype=bool)
        seen_items = np.zeros(split.n_items, dtype=bool)
        seen_users[parts["train"]["user"].to_numpy()] = True
        seen_items[parts["train"]["item"].to_numpy()] = True
        for p in ("valid", "test"):
            f = parts[p]
            parts[p] = f[seen_users[f["user"].to_numpy()] & seen_items[f["item"].to_numpy()]]
    parts = {p: f.reset_index(drop=True) for p, f in parts.items()}
    if not reindex:
        return Split(split.name, **parts, n_users=split.n_users, n_items=split.n_items,
                     user_ids=split.user_ids, item_ids=split.item_ids,
                     user_attributes=split.user_attributes, item_metadata=split.item_metadata)
    return _compact(split, parts)


def _compact(split: Split, parts: dict) -> Split:
    used_users = np.zeros(split.n_users, dtype=bool)
    used_items = np.zeros(split.n_items, dtype=bool)
    for frame in parts.values():
        used_users[frame["user"].to_numpy()] = True
        used_items[frame["item"].to_numpy()] = True
    new_user = np.cumsum(used_users) - 1
    new_item = np.cumsum(used_items) - 1
    parts = {
        p: f.assign(user=new_user[f["user"].to_numpy()], item=new_item[f["item"].to_numpy()])
        for p, f in parts.items()
    }

    def subset(table, used):
        return None if table is None else table[used].reset_index(drop=True).rename_axis(table.index.name)

    return Split(
        split.name, **parts, n_users=int(used_users.sum()), n_items=int(used_items.sum()),
        user_ids=split.user_ids[used_users], item_ids=split.item_ids[used_items],
        user_attributes=subset(split.user_attributes, used_users),
        item_metadata=subset(split.item_metadata, used_items),
    )


def min_train_interactions(split: Split, *, t: int = 5, items: bool = False) -> Split:
    """Remove users with fewer than ``t`` train interactions from every part (single pass).

    With ``items=True`` items with fewer than ``t`` train interactions are removed first
    (Paper 6). A shortcut for :func:`filter_split`.

    Examples
    --------
    >>> import pandas as pd
    >>> from recfair.datasets import Interactions, split_global
    >>> frame = pd.DataFrame({"user_id": [1] * 8 + [2] * 2, "item_id": list(range(8)) + [0, 1]})
    >>> split = split_global(Interactions(frame), order="random", seed=0)
    >>> min_train_interactions(split, t=2).n_users <= split.n_users
    True
    """
    return filter_split(split, min_user_train=t, min_item_train=t if items else None)


def _split_stats(split: Split) -> dict:
    """The values of :meth:`Split.statistics`."""
    n_inter = sum(len(getattr(split, p)) for p in PARTS)
    values = _core_stats(split.n_users, split.n_items, n_inter)
    for part in PARTS:
        frame = getattr(split, part)
        values[f"{part} #users"] = int(frame["user"].nunique())
        values[f"{part} #items"] = int(frame["item"].nunique())
        values[f"{part} #interactions"] = int(len(frame))
    per_user = np.bincount(split.test["user"].to_numpy(), minlength=split.n_users)
    per_user = per_user[per_user > 0]
    values["#test users"] = int(per_user.size)
    if per_user.size:
        values.update({"relevant mean": float(per_user.mean()), "relevant min": int(per_user.min()),
                       "relevant median": float(np.median(per_user)), "relevant max": int(per_user.max())})
    else:
        values.update({"relevant mean": np.nan, "relevant min": None, "relevant median": np.nan,
                       "relevant max": None})
    return values
