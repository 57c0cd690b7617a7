"""Paper 5's pairwise user-fairness measures at ML-20M scale, on a Dask cluster, and beside loop transcriptions.

    python benchmarks/bench_user.py [--users 90000 --items 16000 --k 10 --relevant 20 --history 50]
                                    [--small-users 300] [--skip JACC,UF,DASK] [--workers 2]

1. At scale (default: a synthetic split of 90,000 users, 16,000 items, k = 10, ~20 relevant and ~50
   history items per user, random lists): wall and CPU time of each measure, its ratio to the
   target of issue 19 (2 cores: PUF-Jaccard <= 10 s, PUF-cosine first run <= 10 s, UF <= 40 s, peak
   memory <= 1 GB) and the peak memory. Every pair of users is visited (4.05e9 pairs) by the compiled
   kernels of ``recfair/users/_kernels.py``; PUF with cosine similarity is timed twice, as the paper
   computes it: the first run finds the similarity's min-max range (one pass over all pairs, once per
   dataset), the next model's run reuses it (and visits no pair).
2. On a local Dask cluster (``client=``): PUF-Jaccard with 1 and with 2 single-threaded workers, the
   measured pairs per second per core, and the projection to 10^6 users (5e11 pairs).
3. At a size where loops finish (``--small-users``): the same measures beside the direct loop
   transcriptions of each formula in ``tests/_reference.py``; the values must agree (1e-9) and the
   ratio of the times is printed.

The CPU column is the process's CPU time: on a machine shared with other jobs (the load average is
printed first) the wall time is CPU time divided by the share of the cores the process got.

Measured (2 cores shared with other jobs, load average 2-3, i.e. about one free core; 90,000 x 16,000,
k = 10, one compiled pass over the 4.05e9 pairs each): PUF-Jaccard 8.8-10.4 s (CPU 8.9-11.5 s; was
54-59 s); PUF-cosine 8.2 s for the first model (CPU 8.7 s, the min-max range pass; was 45-51 s), 0.7 s
for the next model; ME_user / MME_user / PEU 0.9-1.4 s each (were 1.4 s); UF 79 s wall for 78 s of CPU,
about 39 s on 2 free cores (was 353 s). UF's profile (CPU): the threshold pass ~9 s, the similarity
sweep and selection of the 6.4e8 similar pairs ~20 s, the rows A_u ~25-30 s (co-occurrence rows of the
costliest ~6,000 recommended items held exactly in 192 MB, the others walked through their users'
histories), the k lookups per similar pair ~15 s. Peak RSS 932 MB with the data (229 MB). On a local
Dask cluster (load 3): PUF-Jaccard 15.2 s on 1 worker, 12.8 s on 2 (1.19x: the workers shared the 2
cores with other jobs), 300-360 M pairs per CPU-second, so 10^6 users (5e11 pairs) take ~11.5 min on
2 free cores, ~1.4 min on 16. Beside the loops at 300 users: PUF 250-1,600x, envy 500-3,800x, UF
~900x, all values equal.
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np
from _timing import best_of

from recfair.synthetic import random_split, random_top_k
from recfair.users import UserSimilarity, mean_envy_user, mean_max_envy_user, peu, puf, sd_ind, uf_details

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
import _reference as ref  # noqa: E402


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


#: Issue 19's targets at 90,000 users on 2 cores (seconds).
TARGETS = {"PUF-cos, first model (+ min-max range pass)": 10.0, "PUF-Jacc (one pass over all pairs)": 10.0,
           "UF (threshold pass + similar pairs' lists)": 40.0}


def timed(label, call, rows):
    start, cpu = time.perf_counter(), time.process_time()
    value = call()
    seconds, cpu = time.perf_counter() - start, time.process_time() - cpu
    rows.append((label, seconds, value))
    target = TARGETS.get(label)
    ratio = f"{seconds / target:5.2f}x target ({cpu / 2 / target:4.2f}x on 2 free cores)" if target else ""
    print(f"  {label:<44s} {seconds:8.2f} s  cpu {cpu:8.2f} s   value {value if isinstance(value, float) else value!s:.12}"
          f"   peak RSS {peak_mb():6.0f} MB  {ratio}", flush=True)
    return value


def make_run(m, n, k, relevant, history):
    hist, rel = random_split(m, n, relevant=relevant, history=history, seed=0)
    return hist, rel, random_top_k(m, n, k, seed=1)


def warm_up():
    """Run every kernel on a tiny run (loads the compiled code; compiles it on the very first run)."""
    hist, rel = random_split(40, 30, relevant=3, history=5, seed=0)
    top = random_top_k(40, 30, 3, seed=1)
    scores = np.linspace(0, 1, 40)
    for kind in ("jaccard", "cosine"):
        puf(scores, similarity=UserSimilarity.from_history(hist, similarity=kind), minmax=True)
        uf_details(top, history=hist, n_items=30, similarity=kind)
    mean_envy_user(top, relevant=rel, n_items=30)


def at_scale(args):
    m, n, k = args.users, args.items, args.k
    print(f"== at scale: {m:,} users, {n:,} items, k = {k}; load average {os.getloadavg()[0]:.1f} on "
          f"{os.cpu_count()} cores ==", flush=True)
    # generated in a child process, so that the peak memory printed is the measures' (and the data's), not the generator's
    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        hist, rel, top = pool.submit(make_run, m, n, k, args.relevant, args.history).result()
    print(f"  the run in memory: peak RSS {peak_mb():.0f} MB", flush=True)
    start = time.perf_counter()
    warm_up()
    print(f"  compiled kernels loaded once per process (numba's disk cache): {time.perf_counter() - start:.1f} s",
          flush=True)
    scores = np.random.default_rng(0).random(m)
    second = np.random.default_rng(1).random(m)
    skip = set(args.skip.split(",")) if args.skip else set()
    rows = []
    cos = UserSimilarity.from_history(hist, similarity="cosine")
    timed("PUF-cos, first model (+ min-max range pass)", lambda: puf(scores, similarity=cos, minmax=True), rows)
    timed("PUF-cos, next model (range cached)", lambda: puf(second, similarity=cos, minmax=True), rows)
    timed("PUF-cos without min-max", lambda: puf(second, similarity=cos), rows)
    if "JACC" not in skip:
        jac = UserSimilarity.from_history(hist, similarity="jaccard")
        timed("PUF-Jacc (one pass over all pairs)", lambda: puf(scores, similarity=jac, minmax=True), rows)
    timed("SD_ind", lambda: sd_ind(scores), rows)
    timed("ME_user", lambda: mean_envy_user(top, relevant=rel, n_items=n), rows)
    timed("MME_user", lambda: mean_max_envy_user(top, relevant=rel, n_items=n), rows)
    timed("PEU", lambda: peu(top, relevant=rel, n_items=n), rows)
    if "UF" not in skip:
        timed("UF (threshold pass + similar pairs' lists)", lambda: uf_details(top, history=hist, n_items=n)["UF"],
              rows)
    print(f"  peak RSS of the process (data included): {peak_mb():.0f} MB (target 1,024 MB)", flush=True)
    if "DASK" not in skip:
        on_a_cluster(args, hist, scores)
    return rows


def on_a_cluster(args, hist, scores):
    """PUF-Jaccard on a local Dask cluster of 1 and of ``--workers`` single-threaded workers; projection to 10^6 users."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        print("  (dask.distributed is not installed: pip install recfair[dask])")
        return
    m = hist.shape[0]
    pairs = m * (m - 1) / 2
    local = puf(scores, similarity=UserSimilarity.from_history(hist, similarity="jaccard"), minmax=True)
    print(f"\n== on a local Dask cluster: PUF-Jaccard, {m:,} users ({pairs:.3g} pairs); load average "
          f"{os.getloadavg()[0]:.1f} ==", flush=True)
    rates, cpu_rates = {}, {}
    for workers in sorted({1, args.workers}):
        with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=":0",
                          silence_logs=40) as cluster, Client(cluster) as client:
            # first call: the workers load the compiled kernels; not timed
            puf(scores[:2000], similarity=UserSimilarity.from_history(hist[:2000], similarity="jaccard"), client=client)
            before = client.run(time.process_time)
            start = time.perf_counter()
            value = puf(scores, similarity=UserSimilarity.from_history(hist, similarity="jaccard"), minmax=True, client=client)
            seconds = time.perf_counter() - start
            after = client.run(time.process_time)
            cpu = sum(after[w] - before[w] for w in after if w in before)
        rates[workers] = pairs / seconds / workers
        cpu_rates[workers] = pairs / cpu
        print(f"  {workers} worker(s): {seconds:7.2f} s (workers' CPU {cpu:6.2f} s)   {rates[workers] / 1e6:6.1f} M pairs/s "
              f"per core, {cpu_rates[workers] / 1e6:6.1f} M per CPU-second   value {value:.12f}   equal to local: "
              f"{abs(value - local) <= 1e-12 * abs(local)}", flush=True)
    if len(rates) > 1:
        print(f"  speed-up {args.workers} vs 1 worker: {rates[args.workers] * args.workers / rates[1]:.2f}x", flush=True)
    big = 1e6 * (1e6 - 1) / 2
    for name, rate in (("measured wall", max(rates.values())), ("a free core (CPU time)", max(cpu_rates.values()))):
        print(f"  projection for 10^6 users ({big:.2g} pairs), {name}: {rate / 1e6:.0f} M pairs/s per core: "
              + ", ".join(f"{cores} cores {big / rate / cores / 60:.1f} min" for cores in (2, 16, 64, 256)), flush=True)


def beside_loops(args):
    m, n, k = args.small_users, min(args.items, 2000), args.k
    print(f"\n== beside loop transcriptions: {m:,} users, {n:,} items, k = {k} ==", flush=True)
    hist, rel = random_split(m, n, relevant=args.relevant, history=args.history, seed=2)
    top = random_top_k(m, n, k, seed=3)
    hist_sets = [row.indices.tolist() for row in hist]
    rel_sets = [row.indices.tolist() for row in rel]
    top_lists = top.tolist()
    scores = np.random.default_rng(2).random(m)
    cases = [
        ("PUF-Jacc (min-max)",
         lambda: puf(scores, similarity=UserSimilarity.from_history(hist, similarity="jaccard"), minmax=True),
         lambda: ref.puf(scores, ref.minmax_pairs(ref.jaccard_sim(hist_sets)))),
        ("PUF-cos (min-max)",
         lambda: puf(scores, similarity=UserSimilarity.from_history(hist, similarity="cosine"), minmax=True),
         lambda: ref.puf(scores, ref.minmax_pairs(ref.cosine_sim(hist_sets)))),
        ("ME_user", lambda: mean_envy_user(top, relevant=rel, n_items=n),
         lambda: ref.mean_envy(top_lists, rel_sets, k)),
        ("MME_user", lambda: mean_max_envy_user(top, relevant=rel, n_items=n),
         lambda: ref.mean_max_envy_users(top_lists, rel_sets, k)),
        ("PEU", lambda: peu(top, relevant=rel, n_items=n), lambda: ref.peu(top_lists, rel_sets, k)),
        ("UF", lambda: uf_details(top, history=hist, n_items=n)["UF"],
         lambda: ref.uf(top_lists, hist_sets, n)[1]),
    ]
    print(f"  {'measure':<22s} {'recfair':>10s} {'loop':>10s} {'ratio':>9s}   agree")
    out = []
    for label, ours, loop in cases:
        value, t_ours = best_of(3, ours)
        expected, t_loop = best_of(1, loop)
        agree = abs(value - expected) <= 1e-9 * max(1.0, abs(expected))
        out.append((label, t_ours, t_loop, agree))
        print(f"  {label:<22s} {t_ours:9.4f}s {t_loop:9.2f}s {t_loop / t_ours:8.0f}x   {agree}", flush=True)
    assert all(row[3] for row in out), "recfair and the loop transcriptions disagree"
    return out


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--users", type=int, default=90_000)
    parser.add_argument("--items", type=int, default=16_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--relevant", type=float, default=20.0)
    parser.add_argument("--history", type=float, default=50.0)
    parser.add_argument("--small-users", type=int, default=300)
    parser.add_argument("--skip", default="", help="comma-separated: JACC (PUF-Jaccard), UF, DASK, LOOPS")
    parser.add_argument("--workers", type=int, default=2, help="Dask workers of the second cluster run")
    args = parser.parse_args(argv)
    if "LOOPS" not in args.skip.split(","):
        beside_loops(args)
    at_scale(args)


if __name__ == "__main__":
    main()
