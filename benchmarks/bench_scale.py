"""Runs larger than memory: every relevance and Part I measure of a 10^7-user run streamed from parquet.

    python benchmarks/bench_scale.py [--users 10000000 --items 20000 --k 10 --block-users 200000]
                                     [--check-users 200000] [--dir /tmp/somewhere] [--json results.json]

1. Writes a synthetic long run (``user, item, rank``; ``--users`` x ``--k`` rows) and its ground truth
   (``user, item``: ~4.5 relevant items per user, ~1.5 of them in the top-k) to parquet under a temporary
   directory, in chunks (the writer never holds more than one chunk), in a child process so that the
   peak memory printed below is the evaluation's alone. The files are deleted at the end.
2. ``rf.evaluate(path, ...)`` streams the run in ranges of ``--block-users`` users through
   ``rf.Accumulator``: every relevance measure and every Part I measure, one pass. Prints the wall time
   and the peak resident memory (``resource.getrusage``; the target is < 2 GB) and the Accumulator's
   state size.
3. Checks the values on the first ``--check-users`` users against the in-memory ``rf.evaluate``
   (equal to 1e-12 relative) and prints the throughput of both paths.

Measured (2 cores shared with six other jobs, load ~5, 2026-11-27; 10^7 users x k = 10, 20,000 items, ranges of
200,000 users): written in 56 s (412 MB of parquet); the 21 measures streamed in 283 s (35,000 users/s), peak RSS
593 MB (< 2 GB); the first 200,000 users equal to the in-memory values to 8e-16 relative. Timings are indicative.
With ``--json`` the figures are written to a file (the book's appendix "Evaluating at scale" reads
``benchmarks/results/bench_scale.json``).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import platform
import resource
import shutil
import tempfile
import time
from pathlib import Path

import numpy as np

CHUNK = 500_000                     # users per written chunk (one parquet row group of the run per chunk)


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def make_chunk(start: int, stop: int, n: int, k: int, seed: int):
    """Lists and ground truth of users ``start..stop-1``: distinct items per user, popular items favoured."""
    rng = np.random.default_rng([seed, start])
    b = stop - start
    # k + 3 strictly increasing offsets < n per user: the lists and three extra relevant items, all distinct
    steps = rng.integers(1, n // (k + 3), size=(b, k + 3))
    offsets = np.cumsum(steps, axis=1)
    first = (rng.pareto(1.2, size=b) * n / 50).astype(np.int64) % n    # skewed: some items far more exposed
    items = (first[:, None] + offsets) % n
    order = np.argsort(rng.random((b, k)), axis=1)                      # a random rank order
    top = np.take_along_axis(items[:, :k], order, axis=1)
    users = np.arange(start, stop, dtype=np.int64)
    hits = [top[:, 0][users % 2 == 0], top[:, 4][users % 3 == 0]]       # some relevant items are recommended
    rel_users = np.concatenate([np.repeat(users, 3), users[users % 2 == 0], users[users % 3 == 0]])
    rel_items = np.concatenate([items[:, k:].ravel()] + hits)
    sort = np.argsort(rel_users, kind="stable")
    return top, rel_users[sort], rel_items[sort]


def write(directory: str, m: int, n: int, k: int, seed: int) -> None:
    import pyarrow as pa
    import pyarrow.parquet as pq

    run_schema = pa.schema([("user", pa.int64()), ("item", pa.int32()), ("rank", pa.int8())])
    rel_schema = pa.schema([("user", pa.int64()), ("item", pa.int32())])
    with pq.ParquetWriter(os.path.join(directory, "run.parquet"), run_schema) as run_w, \
            pq.ParquetWriter(os.path.join(directory, "relevant.parquet"), rel_schema) as rel_w:
        for start in range(0, m, CHUNK):
            stop = min(m, start + CHUNK)
            top, ru, ri = make_chunk(start, stop, n, k, seed)
            run_w.write_table(pa.table({
                "user": np.repeat(np.arange(start, stop, dtype=np.int64), k),
                "item": top.ravel().astype(np.int32), "rank": np.tile(np.arange(1, k + 1, dtype=np.int8), stop - start),
            }, schema=run_schema), row_group_size=(stop - start) * k)
            rel_w.write_table(pa.table({"user": ru, "item": ri.astype(np.int32)}, schema=rel_schema),
                              row_group_size=len(ru))


def in_memory(m: int, total: int, n: int, k: int, seed: int):
    """The first ``m`` users of the written run (same chunks, same draws), in memory."""
    tops, rels = [], []
    for start in range(0, m, CHUNK):
        stop = min(total, start + CHUNK)
        top, ru, ri = make_chunk(start, stop, n, k, seed)
        keep = ru < m
        tops.append(top[: max(0, min(stop, m) - start)])
        rels.append((ru[keep], ri[keep]))
    import scipy.sparse as sp

    ru = np.concatenate([r[0] for r in rels])
    ri = np.concatenate([r[1] for r in rels])
    return np.concatenate(tops), sp.csr_matrix((np.ones(ru.size), (ru, ri)), shape=(m, n))


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--users", type=int, default=10_000_000)
    parser.add_argument("--items", type=int, default=20_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--block-users", type=int, default=200_000)
    parser.add_argument("--check-users", type=int, default=200_000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--dir", default=None, help="where to write the parquet files (default: a temp dir)")
    parser.add_argument("--json", default=None, help="write the figures to this JSON file")
    args = parser.parse_args(argv)

    import recfair as rf
    from recfair.registry import names

    measures = names("relevance") + names("item_exposure")
    m, n, k = args.users, args.items, args.k
    root = tempfile.mkdtemp(prefix="recfair-scale-", dir=args.dir)
    try:
        print(f"== writing {m:,} users x k = {k} ({m * k:,} rows) and their ground truth to {root} ==", flush=True)
        start = time.perf_counter()
        child = mp.get_context("spawn").Process(target=write, args=(root, m, n, k, args.seed))
        child.start()
        child.join()
        if child.exitcode:
            raise SystemExit(f"writing failed (exit code {child.exitcode})")
        write_s = time.perf_counter() - start
        size_mb = sum(f.stat().st_size for f in Path(root).iterdir()) / 2**20
        print(f"  written in {write_s:.1f} s, {size_mb:,.0f} MB on disk", flush=True)

        print(f"== streaming {len(measures)} measures ({', '.join(measures)}) in ranges of "
              f"{args.block_users:,} users ==", flush=True)
        base_mb = peak_mb()
        start = time.perf_counter()
        values = rf.evaluate(os.path.join(root, "run.parquet"), n_items=n, k=k, measures=measures,
                             relevant=os.path.join(root, "relevant.parquet"), block_users=args.block_users,
                             on_undefined="nan")
        stream_s = time.perf_counter() - start
        peak = peak_mb()
        print(f"  {stream_s:.1f} s ({m / stream_s:,.0f} users/s), peak RSS {peak:,.0f} MB "
              f"(before: {base_mb:,.0f} MB; target < 2,048 MB)", flush=True)
        for name, value in values.items():
            print(f"    {name:<11s} {value:.6g}")

        check = min(args.check_users, m)
        print(f"== the first {check:,} users: streamed vs in memory ==", flush=True)
        top, rel = in_memory(check, m, n, k, args.seed)
        start = time.perf_counter()
        local = rf.evaluate(top, n_items=n, measures=measures, relevant=rel, on_undefined="nan")
        local_s = time.perf_counter() - start
        part = Path(root) / "head"
        part.mkdir()
        import pyarrow.dataset as ds

        ds.write_dataset(ds.dataset(os.path.join(root, "run.parquet")).to_table(filter=ds.field("user") < check),
                         part / "run", format="parquet")
        ds.write_dataset(ds.dataset(os.path.join(root, "relevant.parquet")).to_table(filter=ds.field("user") < check),
                         part / "rel", format="parquet")
        start = time.perf_counter()
        streamed = rf.evaluate(part / "run", n_items=n, k=k, measures=measures, relevant=part / "rel",
                               block_users=args.block_users, on_undefined="nan")
        head_s = time.perf_counter() - start
        worst = max(abs(streamed[x] - local[x]) / max(abs(local[x]), 1e-300) for x in measures
                    if not np.isnan(local[x]))
        print(f"  in memory {local_s:.2f} s, streamed {head_s:.2f} s; largest relative difference {worst:.1e} "
              f"({'equal' if worst <= 1e-12 else 'DIFFERENT'} to 1e-12)", flush=True)
        figures = {
            "users": m, "items": n, "k": k, "block_users": args.block_users, "measures": measures,
            "write_seconds": round(write_s, 1), "disk_mb": round(size_mb), "stream_seconds": round(stream_s, 1),
            "users_per_second": round(m / stream_s), "peak_rss_mb": round(peak),
            "check_users": check, "check_in_memory_seconds": round(local_s, 2),
            "check_streamed_seconds": round(head_s, 2), "check_max_relative_difference": float(f"{worst:.1e}"),
            "cores": os.cpu_count(), "load_average_1min": round(os.getloadavg()[0], 1),
            "python": platform.python_version(), "date": time.strftime("%Y-%m-%d"),
            "values": {x: float(v) for x, v in values.items()},
        }
        if args.json:
            Path(args.json).parent.mkdir(parents=True, exist_ok=True)
            Path(args.json).write_text(json.dumps(figures, indent=1) + "\n")
            print(f"  figures written to {args.json}")
        print("(2 cores shared with other jobs: timings are indicative)")
    finally:
        shutil.rmtree(root, ignore_errors=True)


if __name__ == "__main__":
    main()
