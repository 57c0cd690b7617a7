"""Time the relevance-aware (joint) measures of Papers 2-3 on a synthetic run at ML-20M scale.

    python benchmarks/bench_joint.py [--users 90000 --items 16000 --k 10 --relevant 20 --repeat 3 --target 2]

Each measure is timed through ``recfair.evaluate`` with a fresh Run every repeat, so input
validation is included; the table shows the best wall time over the repeats and its ratio to
the target. IFD÷ (original) needs the full ranking of all n items per user, i.e. an
``m x n`` score matrix (90,000 x 16,000 float64 = 11.5 GB), so it is timed at
``--ranking-users`` users and its per-user cost extrapolated to ``--users``, beside the cost of
reading those scores once, a floor for any exact method (each relevant item's position depends
on every score of its user).
"""

from __future__ import annotations

import argparse
import warnings

import numpy as np
from _timing import best_of

import recfair as rf
from recfair.registry import get, names
from recfair.synthetic import random_relevant, random_top_k


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=90_000)
    parser.add_argument("--items", type=int, default=16_000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--relevant", type=float, default=20.0, help="mean relevant items per user")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--target", type=float, default=2.0, help="seconds per measure")
    parser.add_argument("--ranking-users", type=int, default=2_000, help="users for the full-ranking measure")
    args = parser.parse_args(argv)

    rng = np.random.default_rng(2020)
    top_k = random_top_k(args.users, args.items, args.k, seed=rng)
    relevant = random_relevant(args.users, args.items, mean=args.relevant, seed=rng)
    print(f"synthetic run: m={args.users:,} n={args.items:,} k={args.k} relevant pairs={relevant.nnz:,}")

    header = f"{'measure':<14}{'users':>9}{'value':>14}{'best s':>10}{'/target':>9}"
    print(header)
    print("-" * len(header))
    worst = 0.0
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rf.UndefinedMeasureWarning)
        for name in names("joint"):
            if "ranking" in get(name).needs:
                continue
            value, best = best_of(args.repeat, lambda: rf.evaluate(top_k, n_items=args.items, measures=[name], relevant=relevant)[name])
            worst = max(worst, best / args.target)
            print(f"{name:<14}{args.users:>9,}{value:>14.6g}{best:>10.3f}{best / args.target:>9.2f}")

        m = args.ranking_users
        scores = rng.random((m, args.items))
        rel_small = random_relevant(m, args.items, mean=args.relevant, seed=rng)
        for name in names("joint"):
            if "ranking" not in get(name).needs:
                continue
            value, best = best_of(args.repeat, lambda: rf.evaluate(None, n_items=args.items, measures=[name], k=args.k, relevant=rel_small, scores=scores)[name])
            run = rf.Run(None, args.items, k=args.k, relevant=rel_small, scores=scores)
            _, kernel = best_of(args.repeat, lambda: get(name).compute(run))
            print(f"{name:<14}{m:>9,}{value:>14.6g}{best:>10.3f}{'':>9}"
                  f"   (measure alone {kernel:.3f} s, ~{kernel * args.users / m:.1f} s at m={args.users:,}; "
                  f"the rest is Run validation of the scores)")
        # the floor of any exact method: every one of the m x n scores must be read at least once
        _, one_pass = best_of(args.repeat, lambda: int((scores > 0.5).sum()))
        print(f"{'(one pass)':<14}{m:>9,}{'':>14}{one_pass:>10.3f}{'':>9}"
              f"   (reading the scores once: ~{one_pass * args.users / m:.1f} s at m={args.users:,}; "
              f"IFD_div_ori costs {kernel / one_pass:.0f} passes)")
    print(f"slowest measure without a full ranking: {worst:.2f} x target")


if __name__ == "__main__":
    main()
