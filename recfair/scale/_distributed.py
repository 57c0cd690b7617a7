r"""Run a function over blocks of work: on this machine's cores, or as tasks on a Dask cluster.

The pairwise user measures (:mod:`recfair.users`) cost :math:`O(m^2)` and are computed by compiled
kernels over *blocks of users* (each block: its users paired with every later user). The same
blocks run either on a local thread pool (the default; the kernels release the GIL) or, when
the caller passes ``client=`` (a :class:`dask.distributed.Client`), as one Dask task per block. Each
block returns its own partial result (per-user sums, minima, maxima), so the combination is
exact and does not depend on where, in which order or how often (a lost worker's tasks are
re-run) a block was computed.

Dask is never imported here: a client object is only *used* (``scatter``, ``submit``,
``gather``), and checked by its type's module, so ``recfair`` runs without Dask installed
(``pip install recfair[dask]`` brings it).

>>> map_blocks(lambda shared, block: shared * sum(block), [[1, 2], [3]], shared=10)
[30, 30]
>>> map_blocks(lambda shared, block: len(block), [[1, 2], [3]], combine=sum)
3
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor

__all__ = ["check_client", "local_threads", "map_blocks", "interleaved_blocks"]


def local_threads() -> int:
    """Threads for local block execution: ``NUMBA_NUM_THREADS`` if set, else the CPUs this process may use.

    >>> local_threads() >= 1
    True
    """
    env = os.environ.get("NUMBA_NUM_THREADS")
    if env and env.isdigit() and int(env) > 0:
        return int(env)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:                                          # not on Linux
        return max(1, os.cpu_count() or 1)


def check_client(client):
    """``client`` if it is ``None`` or a :class:`dask.distributed.Client`, else a :class:`TypeError`.

    >>> check_client(None) is None
    True
    >>> check_client("tcp://127.0.0.1:8786")
    Traceback (most recent call last):
    ...
    TypeError: client must be a dask.distributed.Client (or None to compute on this machine); got str.
    """
    if client is None:
        return None
    kind = type(client)
    is_client = any(cls.__name__ == "Client" and cls.__module__.split(".")[0] == "distributed"
                    for cls in kind.__mro__)
    if not is_client:
        raise TypeError("client must be a dask.distributed.Client (or None to compute on this machine); "
                        f"got {kind.__name__}.")
    if getattr(client, "status", "running") not in ("running", "newly-created"):
        raise ValueError(f"the Dask client is not connected (status {client.status!r}).")
    return client


def interleaved_blocks(n: int, n_blocks: int):
    """``n_blocks`` arrays of the indices ``0 .. n-1``, block ``b`` holding ``b, b + n_blocks, ...``.

    For pair work where index ``u`` meets every later index, interleaving gives every block
    about the same number of pairs.

    >>> [b.tolist() for b in interleaved_blocks(5, 2)]
    [[0, 2, 4], [1, 3]]
    """
    import numpy as np

    n_blocks = max(1, min(int(n_blocks), int(n))) if n else 1
    return [np.arange(b, n, n_blocks, dtype=np.int64) for b in range(n_blocks)]


def map_blocks(func, blocks, *, shared=None, client=None, combine=None, threads: int | None = None):
    """``combine([func(shared, block) for block in blocks])``, the calls run in parallel.

    Parameters
    ----------
    func : callable ``(shared, block) -> partial``
        A module-level function (Dask ships it to the workers by reference). Locally it runs on
        a thread pool, so it should release the GIL (compiled ``nogil`` kernels do).
    blocks : sequence
        The units of work, small (they are sent with each task).
    shared : object, optional
        Data every block needs (e.g. a tuple of arrays). With a client it is scattered once to
        every worker (``broadcast``), not once per task.
    client : dask.distributed.Client, optional
        Run the blocks as Dask tasks on this cluster; ``None`` (default) runs them here. Tasks of a
        worker that dies are re-run by Dask on the others, so the result is unchanged.
    combine : callable, optional
        Applied to the list of partial results, in the order of ``blocks``; default: the list.
    threads : int, optional
        Local threads (default :func:`local_threads`); ignored with a client.

    Returns
    -------
    object
        ``combine`` of the partial results (the list of them by default).

    Examples
    --------
    >>> import operator
    >>> map_blocks(operator.mul, [1, 2, 3], shared=10, combine=sum)
    60
    """
    blocks = list(blocks)
    client = check_client(client)
    if client is None:
        n_threads = local_threads() if threads is None else max(1, int(threads))
        if n_threads == 1 or len(blocks) <= 1:
            results = [func(shared, block) for block in blocks]
        else:
            with ThreadPoolExecutor(max_workers=min(n_threads, len(blocks))) as pool:
                results = list(pool.map(lambda block: func(shared, block), blocks))
    else:
        shared_future = client.scatter([shared], broadcast=True, hash=False)[0]
        futures = [client.submit(func, shared_future, block, pure=False) for block in blocks]
        try:
            results = client.gather(futures)
        finally:
            client.cancel(futures + [shared_future])
    return results if combine is None else combine(results)
