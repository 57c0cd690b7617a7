"""Time recfair.compare: 4 runs, bootstrap intervals and paired randomisation tests, ML-1M scale.

    python benchmarks/bench_compare.py [--users 6040 --items 3706 --k 10 --runs 4 --resamples 1000
                                        --slow-resamples 10 --skip-slow]

Target (issue 18): the relevance measures and every Part I measure, 4 runs, 1,000 resamples
(bootstrap for each run and a randomisation test for each of the 6 pairs) in under 10 s on 2 cores.
Those measures are vectorised (per-user means; item exposure counts). Parts II-V's run-level
measures are recomputed on each resampled run: they are timed with ``--slow-resamples`` resamples
and the time for 1,000 is extrapolated linearly (the loop is linear in the resamples).
"""

from __future__ import annotations

import argparse
import time
import warnings

import numpy as np
import pandas as pd

import recfair as rf
from recfair.registry import names
from recfair.synthetic import random_relevant


def skewed_runs(n_runs: int, m: int, n: int, k: int, rng) -> dict:
    """Runs with popularity bias of different strength (so fairness measures differ between runs)."""
    runs = {}
    for j in range(n_runs):
        weights = np.arange(1, n + 1, dtype=np.float64) ** -(0.3 + 0.3 * j)
        weights /= weights.sum()
        # Gumbel top-k: k distinct items per user, drawn with these weights
        keys = np.log(weights)[None, :] + rng.gumbel(size=(m, n))
        runs[f"model{j + 1}"] = np.argpartition(-keys, k, axis=1)[:, :k]
    return runs


def _load() -> str:
    try:
        import os

        return ", ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=6040)
    parser.add_argument("--items", type=int, default=3706)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--runs", type=int, default=4)
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--slow-resamples", type=int, default=10)
    parser.add_argument("--skip-slow", action="store_true", help="time only the vectorised measures")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(2020)
    m, n, k = args.users, args.items, args.k
    runs = skewed_runs(args.runs, m, n, k, rng)
    relevant = random_relevant(m, n, mean=20.0, seed=rng)
    print(f"synthetic: {args.runs} runs, m={m:,} n={n:,} k={k}; {args.resamples} resamples; "
          f"{args.runs * (args.runs - 1) // 2} pairs tested (all pairs)")

    fast = names("relevance") + names("item_exposure")
    start, cpu = time.perf_counter(), time.process_time()
    report = rf.compare(runs, measures=fast, relevant=relevant, n_items=n, k=k, n_resamples=args.resamples, resampling_seed=0,
                        progress=False)
    elapsed, cpu = time.perf_counter() - start, time.process_time() - cpu
    print(f"relevance + Part I ({len(fast)} measures): {elapsed:.2f} s wall, {cpu:.2f} s CPU  (target < 10 s wall: "
          f"{'met' if elapsed < 10 else 'NOT met'}; load average now {_load()})")
    print(report.values.pivot(index="measure", columns="run", values="value").loc[fast].round(4).to_string())

    if args.skip_slow:
        return
    history = random_relevant(m, n, mean=50.0, seed=rng)
    history = history - history.multiply(relevant)        # history and test items apart
    history.eliminate_zeros()
    for name, top in runs.items():                        # and no history item recommended
        hit = np.asarray(history[np.repeat(np.arange(m), k), top.ravel()]).reshape(m, k) != 0
        if hit.any():
            history = history.tolil()
            rows, cols = np.nonzero(hit)
            history[rows, top[rows, cols]] = 0
            history = history.tocsr()
            history.eliminate_zeros()
    attrs = pd.DataFrame({"gender": rng.choice(["F", "M"], m), "age": rng.choice(["<35", ">=35"], m)})
    print(f"\nParts II-V, 2 runs and 1 pair: means of per-user values with {args.resamples} resamples, the others "
          f"(recomputed per resample) with {args.slow_resamples}, extrapolated to 1000")
    rows = []
    pair = dict(list(runs.items())[:2])
    for family in ("joint", "pareto", "users", "groups"):
        for key in names(family):
            opts = {}
            if key == "DPFR":
                continue                         # needs a frontier per resample (Part III): not resampled
            if key == "IFD_div_ori":
                continue                         # needs full scores (m x n) for every run
            vectorised = rf.REGISTRY[key].per_user is not None      # means of per-user values: all resamples
            resamples = args.resamples if vectorised else args.slow_resamples
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                start = time.perf_counter()
                try:
                    rf.compare(pair, measures=[key], relevant=relevant, history=history, user_attributes=attrs, n_items=n,
                               k=k, n_resamples=resamples, resampling_seed=0, progress=False, **opts)
                    note = ""
                except Exception as err:          # report, keep timing the others
                    note = f"error: {type(err).__name__}: {str(err)[:60]}"
                t = time.perf_counter() - start
            per_1000 = t / resamples * 1000
            rows.append({"measure": key, "part": rf.registry.PARTS[rf.REGISTRY[key].family],
                         "vectorised": vectorised, "resamples": resamples, "s": round(t, 2),
                         "s per 1000 (est.)": round(per_1000, 1), "note": note})
            print(f"  {key:<12} part {rows[-1]['part']:<3} {'vectorised' if vectorised else 'recomputed':<10} "
                  f"{t:8.2f} s  ->  {per_1000:9.1f} s per 1000 resamples {note}", flush=True)
    print("(IFD_div_ori needs the full scores of every run; DPFR a Pareto frontier: both skipped here.)")


if __name__ == "__main__":
    main()
