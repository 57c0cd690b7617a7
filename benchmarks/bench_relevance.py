"""Time the relevance measures on a synthetic run at ML-20M scale.

    python benchmarks/bench_relevance.py [--users 90000 --items 16000 --k 10 --relevant 20 --repeat 3]

Prints, per measure, the best wall time over the repeats (a fresh Run each time, so input
validation is included) and the peak memory traced by tracemalloc during one evaluation.
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

import numpy as np
from _timing import best_of

import recfair as rf
from recfair.registry import names
from recfair.synthetic import random_relevant, random_top_k


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=90_000)
    parser.add_argument("--items", type=int, default=16_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--relevant", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    rng = np.random.default_rng(2020)
    top_k = random_top_k(args.users, args.items, args.k, seed=rng)
    relevant = random_relevant(args.users, args.items, mean=args.relevant, seed=rng)
    print(f"synthetic run: m={args.users:,} n={args.items:,} k={args.k} "
          f"relevant/user={relevant.nnz / args.users:.1f}")

    start = time.perf_counter()
    run = rf.Run(top_k, args.items, relevant=relevant)
    print(f"Run validation: {time.perf_counter() - start:.3f} s")

    print(f"{'measure':<8}{'value':>12}{'best s':>10}{'peak MiB':>10}")
    for name in names("relevance"):
        value, best = best_of(args.repeat, lambda: rf.evaluate(top_k, n_items=args.items, measures=[name], relevant=relevant)[name])
        tracemalloc.start()
        rf.evaluate(top_k, n_items=args.items, measures=[name], relevant=relevant)
        peak = tracemalloc.get_traced_memory()[1] / 2**20
        tracemalloc.stop()
        print(f"{name:<8}{value:>12.6f}{best:>10.3f}{peak:>10.1f}")

    start = time.perf_counter()
    rf.evaluate(top_k, n_items=args.items, measures=names("relevance"), relevant=relevant)
    print(f"all six in one evaluate call: {time.perf_counter() - start:.3f} s")


if __name__ == "__main__":
    main()
