"""Runs larger than memory: evaluate a long run from parquet or a Dask DataFrame, block by block.

A *long* run has one row per recommendation, columns ``user, item, rank`` (0-based user and
item indices, ranks ``1..k``); the ground truth and the history are long frames ``user, item``.
Each may be a parquet path (a file or a directory of files), a pandas DataFrame or a Dask
DataFrame. The users are taken in ranges of about ``block_users`` users; each range is read
(parquet: only the row groups whose statistics overlap it, via :mod:`pyarrow.dataset`),
turned into top-k lists and fed to a :class:`recfair.Accumulator`, so memory holds one range
at a time, whatever the size of the run. With a ``client``, the ranges are tasks on the cluster
(each worker reads its own ranges) and their Accumulators are merged.

The per-user inputs of IFD÷ ori come the same way: ``scores=`` may be an array-like indexed by
user (a NumPy memmap, a Dask array, zarr/h5py datasets) or a callback ``scores(users) -> (len(users),
n_items)`` array, called once per range.

Dask is imported only when a Dask object or a client is given.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

import numpy as np

from ._distributed import check_client
from .._validation import check_item_range, check_positive_int
from .blocks import Accumulator
from ..io.frames import from_frame

__all__ = ["evaluate_long", "is_long_source", "user_ranges"]

BLOCK_USERS = 100_000


def is_dask_collection(x) -> bool:
    """A Dask DataFrame/Array (checked without importing dask)."""
    return type(x).__module__.split(".")[0] in ("dask", "dask_expr") and hasattr(x, "__dask_graph__")


def _is_path(x) -> bool:
    return isinstance(x, (str, os.PathLike))


def is_long_source(x) -> bool:
    """Whether ``x`` is a long run rather than top-k lists: a parquet path or a Dask DataFrame.

    >>> is_long_source("runs/als.parquet"), is_long_source([[0, 1], [2, 3]])
    (True, False)
    """
    if _is_path(x) and os.fspath(x).lower().endswith(_RUN_FILES):
        raise ValueError(f"{os.fspath(x)} is a run file, not a parquet long run: recfair.evaluate streams parquet "
                         "runs; read TREC, ranx, CSV/TSV or RecBole files with recfair.io.load(path, relevant=..., "
                         "items=...).evaluate(measures), or `recfair evaluate`.")
    return _is_path(x) or (is_dask_collection(x) and hasattr(x, "columns"))


# the text run files recfair.io reads (a path ending so is not streamed as parquet)
_RUN_FILES = (".trec", ".run", ".txt", ".qrels", ".json", ".csv", ".tsv", ".inter", ".gz")


# --------------------------------------------------------------------------- tasks on a cluster

def map_merge(client, func, items, kwargs, total: Accumulator) -> Accumulator:
    """Run ``func(item, **kwargs) -> Accumulator`` for every item as tasks on ``client``; merge into ``total``.

    The arguments travel with the tasks (nothing is scattered that a lost worker could take with
    it), so a task lost with its worker is simply run again elsewhere; results are merged as they
    arrive (the driver holds one partial at a time).
    """
    from distributed import as_completed

    futures = client.map(func, items, pure=False, **kwargs)
    try:
        for future in as_completed(futures):
            total.merge(future.result())
    finally:
        client.cancel(futures)
    return total


# --------------------------------------------------------------------------- reading one user range

@dataclass(frozen=True)
class UserRange:
    """Users ``lo <= user < hi`` (half-open)."""

    lo: int
    hi: int


def _read(source, columns, rng: UserRange):
    """Rows of ``source`` with ``rng.lo <= user < rng.hi``, as a pandas DataFrame."""
    import pandas as pd

    if source is None:
        return None
    if _is_path(source):
        import pyarrow.dataset as ds

        dataset = ds.dataset(os.fspath(source), format="parquet")
        missing = [c for c in columns if c not in dataset.schema.names]
        if missing:
            raise ValueError(f"parquet {os.fspath(source)!r} has no column(s) {missing} (it has "
                             f"{dataset.schema.names}).")
        field = ds.field(columns[0])
        table = dataset.to_table(columns=columns, filter=(field >= rng.lo) & (field < rng.hi))
        return table.to_pandas()
    if is_dask_collection(source):
        if columns[0] not in source.columns and source.index.name == columns[0]:
            # indexed by user (with known divisions Dask reads only the partitions of the range)
            return source.loc[rng.lo:rng.hi - 1, columns[1:]].compute().reset_index()
        missing = [c for c in columns if c not in source.columns]
        if missing:
            raise ValueError(f"the Dask DataFrame has no column(s) {missing} (it has {list(source.columns)}).")
        part = source[(source[columns[0]] >= rng.lo) & (source[columns[0]] < rng.hi)]
        return part[columns].compute()
    if isinstance(source, pd.DataFrame):
        missing = [c for c in columns if c not in source.columns]
        if missing:
            raise ValueError(f"frame has no column(s) {missing} (it has {list(source.columns)}).")
        u = source[columns[0]].to_numpy()
        return source.loc[(u >= rng.lo) & (u < rng.hi), columns]
    raise TypeError(f"a long input must be a parquet path, a pandas or a Dask DataFrame; got {type(source).__name__}.")


def _scores_block(scores, users: np.ndarray, n_items: int):
    if scores is None:
        return None
    if callable(scores) and not hasattr(scores, "shape"):
        block = np.asarray(scores(users), dtype=np.float64)
        if block.shape != (users.size, n_items):
            raise ValueError(f"the scores callback returned shape {block.shape} for {users.size} users; expected "
                             f"({users.size}, {n_items}).")
        return block
    block = scores[users]
    if is_dask_collection(block):
        block = block.compute()
    return np.asarray(block, dtype=np.float64)


def accumulate_range(rng: UserRange, *, source, relevant, history, scores, user_attributes, measures, n_items, k,
                     on_undefined, columns, options) -> Accumulator:
    """An :class:`~recfair.Accumulator` over the users of one range (a task on a cluster, or a local step)."""
    acc = Accumulator(measures=measures, n_items=n_items, k=k, on_undefined=on_undefined, **options)
    user, item, rank = columns
    frame = _read(source, [user, item, rank], rng)
    if frame is None or len(frame) == 0:
        return acc
    users, top_k = from_frame(frame, n_items=n_items, k=k, user=user, item=item, rank=rank)
    side = {}
    for name, src in (("relevant", relevant), ("history", history)):
        if src is not None:
            side[name] = _item_sets(_read(src, [user, item], rng), users, n_items, user, item)
    attrs = None
    if user_attributes is not None:
        missing = np.setdiff1d(users, user_attributes.index.to_numpy())
        if missing.size:
            raise ValueError(f"user_attributes (indexed by user) has no row for user {int(missing[0])}.")
        attrs = user_attributes.loc[users].reset_index(drop=True)
    acc.update(top_k, scores=_scores_block(scores, users, n_items), user_attributes=attrs, **side)
    return acc


def _item_sets(frame, users: np.ndarray, n_items: int, user: str, item: str):
    """Per-user item sets of ``users`` (sorted) from a long frame, as a 0/1 CSR matrix (vectorised
    :func:`recfair.io.frames.item_sets_from_frame`: same checks, same errors)."""
    import scipy.sparse as sp

    u = frame[user].to_numpy().astype(np.int64, copy=False)
    i = frame[item].to_numpy().astype(np.int64, copy=False)
    check_item_range(i, n_items, f"column {item!r}")
    row = np.searchsorted(users, u)
    known = (row < users.size) & (users[np.minimum(row, users.size - 1)] == u) if users.size else np.zeros(u.size, bool)
    row, i, u = row[known], i[known], u[known]              # users without lists are not evaluated
    order = np.lexsort((i, row))
    row, i, u = row[order], i[order], u[order]
    dup = np.flatnonzero((row[1:] == row[:-1]) & (i[1:] == i[:-1]))
    if dup.size:
        raise ValueError(f"frame lists item {int(i[dup[0]])} for user {int(u[dup[0]])} more than once.")
    indptr = np.concatenate(([0], np.cumsum(np.bincount(row, minlength=users.size))))
    return sp.csr_matrix((np.ones(i.size, dtype=bool), i, indptr), shape=(users.size, n_items))


def _user_bounds(source, user: str) -> tuple[int, int, int]:
    """``(min user, max user, number of rows)`` of a long run."""
    if _is_path(source):
        import pyarrow.compute as pc
        import pyarrow.dataset as ds

        dataset = ds.dataset(os.fspath(source), format="parquet")
        if user not in dataset.schema.names:
            raise ValueError(f"parquet {os.fspath(source)!r} has no column {user!r} (it has {dataset.schema.names}).")
        lo, hi, rows = None, None, 0
        for batch in dataset.to_batches(columns=[user]):             # one column at a time: bounded memory
            if batch.num_rows:
                mm = pc.min_max(batch.column(0))
                lo = mm["min"].as_py() if lo is None else min(lo, mm["min"].as_py())
                hi = mm["max"].as_py() if hi is None else max(hi, mm["max"].as_py())
                rows += batch.num_rows
        return (0, -1, 0) if lo is None else (int(lo), int(hi), rows)
    import dask

    if user not in source.columns and source.index.name == user:
        lo, hi, rows = dask.compute(source.index.min(), source.index.max(), source.index.size)
        return (0, -1, 0) if rows == 0 else (int(lo), int(hi), int(rows))
    if user not in source.columns:
        raise ValueError(f"the run has no column {user!r} (it has {list(source.columns)}).")
    lo, hi, rows = dask.compute(source[user].min(), source[user].max(), source[user].count())
    return (0, -1, 0) if rows == 0 else (int(lo), int(hi), int(rows))


def _max_rank(source, rank: str) -> int:
    if _is_path(source):
        import pyarrow.compute as pc
        import pyarrow.dataset as ds

        dataset = ds.dataset(os.fspath(source), format="parquet")
        if rank not in dataset.schema.names:
            raise ValueError(f"parquet {os.fspath(source)!r} has no column {rank!r} (it has {dataset.schema.names}).")
        top = 0
        for batch in dataset.to_batches(columns=[rank]):
            if batch.num_rows:
                top = max(top, pc.max(batch.column(0)).as_py())
        return int(top)
    if rank not in source.columns:
        raise ValueError(f"the run has no column {rank!r} (it has {list(source.columns)}).")
    return int(source[rank].max().compute())


def user_ranges(lo: int, hi: int, n_rows: int, k: int, block_users: int) -> list[UserRange]:
    """Consecutive ranges covering users ``lo..hi`` with about ``block_users`` users each.

    >>> user_ranges(0, 9, 20, 2, 4)
    [UserRange(lo=0, hi=4), UserRange(lo=4, hi=8), UserRange(lo=8, hi=10)]
    """
    if hi < lo:
        return []
    step = max(1, int(block_users))
    return [UserRange(a, min(a + step, hi + 1)) for a in range(lo, hi + 1, step)]


def evaluate_long(top_k, *, n_items, measures, k=None, relevant=None, history=None, scores=None,
                  user_attributes=None, on_undefined="warn", client=None, block_users=BLOCK_USERS,
                  columns=("user", "item", "rank"), item_features=None, **options) -> dict[str, float]:
    """Evaluate a long run (parquet path or Dask DataFrame) in ranges of users: :func:`recfair.evaluate`'s stream.

    Parameters
    ----------
    top_k : str, os.PathLike or dask.dataframe.DataFrame
        The long run: columns ``user, item, rank`` (ranks ``1..k``).
    relevant, history : str, os.PathLike, pandas or Dask DataFrame, optional
        Long frames ``user, item``; users absent have none.
    scores : array-like (n_users, n_items) indexed by user, Dask array, or callable, optional
        The predicted scores, read one range of users at a time (IFD÷ ori).
    user_attributes : pandas.DataFrame indexed by user, optional
        For the group measures.
    client : dask.distributed.Client, optional
        Run the ranges as tasks on this cluster.
    block_users : int, default=100_000
        Users per range (memory holds about ``block_users * (k + |relevant| + |history|)`` rows).
    Other parameters are those of :func:`recfair.evaluate` (only the measures of
    :data:`recfair.scale.blocks.ACCUMULABLE` are available from a long run).

    Examples
    --------
    >>> import pandas as pd, tempfile, os, recfair as rf
    >>> run = pd.DataFrame({"user": [0, 0, 1, 1], "item": [0, 1, 1, 2], "rank": [1, 2, 1, 2]})
    >>> path = os.path.join(tempfile.mkdtemp(), "run.parquet")
    >>> run.to_parquet(path)
    >>> rf.evaluate(path, n_items=4, measures=["HR", "Gini_ori"], relevant=pd.DataFrame({"user": [1], "item": [2]}))
    {'HR': 0.5, 'Gini_ori': 0.375}
    """
    client = check_client(client)
    n_items = check_positive_int(n_items, "n_items")
    block_users = check_positive_int(block_users, "block_users")
    if user_attributes is not None:
        import pandas as pd

        if not isinstance(user_attributes, pd.DataFrame):
            raise TypeError("with a long run, user_attributes must be a pandas DataFrame indexed by user.")
    user, _, rank = columns
    if k is None:
        k = _max_rank(top_k, rank)
    k = check_positive_int(k, "k")
    options = dict(options, **({"item_features": item_features} if item_features is not None else {}))
    Accumulator(measures=measures, n_items=n_items, k=k, on_undefined=on_undefined, **options)   # fail fast on bad names
    lo, hi, rows = _user_bounds(top_k, user)
    ranges = user_ranges(lo, hi, rows, k, block_users)
    kwargs = dict(source=top_k, relevant=relevant, history=history, scores=scores, user_attributes=user_attributes,
                  measures=measures, n_items=n_items, k=k, on_undefined=on_undefined, columns=tuple(columns),
                  options=options)
    total = Accumulator(measures=measures, n_items=n_items, k=k, on_undefined=on_undefined, **options)
    if client is None or any(is_dask_collection(x) for x in (top_k, relevant, history, scores)):
        # Dask collections are read range by range from here: each range's rows are computed by the
        # active scheduler (the client's cluster when there is one), the Accumulator runs here
        for rng in ranges:
            total.merge(accumulate_range(rng, **kwargs))
    else:                                   # parquet ranges: each task reads and accumulates its own
        total = map_merge(client, accumulate_range, ranges, kwargs, total)
    return total.result()
