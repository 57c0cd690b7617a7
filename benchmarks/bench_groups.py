"""Paper 6's group, within-group and individual measures at scale: every grouping of 3 attributes.

    python benchmarks/bench_groups.py [--users 90000 --repeat 3 --seed 0]

90,000 users with per-user effectiveness like NDCG@10 (40 % zeros, the rest in (0, 1]) and three
sensitive attributes (2, 3 and 5 values, skewed; 30 intersectional groups, some tiny). For each of
the 7 ways of grouping (every non-empty subset of the attributes) it times every measure of
:data:`recfair.groups.GROUP_MEASURES` through :func:`recfair.evaluate_effectiveness` (the one
per-user entry point) and, for comparison, each measure function called on its own. Target: < 1 s
per grouping.

Last, the free-text matcher (:func:`recfair.groups.text.match_titles`) on the same number of users,
10 recommended titles each against 1-19 test titles drawn from a synthetic catalogue of 3,000 titles.
"""

from __future__ import annotations

import argparse

import numpy as np
import pandas as pd
from _timing import best_of

import recfair as rf
from recfair.groups import measures as G
from recfair.groups.groupings import all_groupings, n_groups
from recfair.groups.text import match_titles, text_per_user


def synthetic_users(m: int, seed: int) -> tuple[np.ndarray, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    effectiveness = rng.beta(0.8, 2.0, m)
    effectiveness[rng.random(m) < 0.4] = 0.0
    frame = pd.DataFrame({
        "gender": rng.choice(["M", "F"], m, p=[0.75, 0.25]),
        "age": rng.choice(["18-24", "25-49", "50+"], m, p=[0.5, 0.45, 0.05]),
        "continent": rng.choice(["Europe", "America", "Asia", "Oceania", "Africa"], m,
                                p=[0.6, 0.32, 0.05, 0.0295, 0.0005]),
    })
    return effectiveness, frame


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=90_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    effectiveness, frame = synthetic_users(args.users, args.seed)
    names = list(G.GROUP_MEASURES)
    print(f"{args.users:,} users, 3 attributes, {len(names)} measures per grouping; best of {args.repeat}\n")
    print(f"{'grouping':<24}{'groups':>7}{'evaluate (s)':>17}{'functions (s)':>16}  target < 1 s")
    worst = 0.0
    for subset, sub in all_groupings(frame).items():
        values, t_all = best_of(args.repeat, lambda sub=sub: rf.evaluate_effectiveness(effectiveness, measures=names, groups=sub,
                                                                                       on_undefined="nan"))
        _, t_each = best_of(args.repeat, lambda sub=sub: {
            n: G.GROUP_MEASURES[n](effectiveness, **({} if n == "Atk_ind" else {"groups": sub})) for n in names})
        worst = max(worst, t_all, t_each)
        print(f"{'+'.join(subset):<24}{n_groups(sub):>7}{t_all:>17.3f}{t_each:>16.3f}  "
              f"{'ok' if max(t_all, t_each) < 1 else 'SLOW'}")
    last = values
    print("\nvalues under the finest grouping:")
    for name in names:
        print(f"  {name:<12} {last[name]:.4f}")
    d = G.atkinson_decomposition(effectiveness, groups=frame)
    print(f"\nAtkinson decomposition residual: {d.residual:.2e}")
    print(f"slowest grouping: {worst:.3f} s ({'within' if worst < 1 else 'over'} the 1 s target)")

    rng = np.random.default_rng(args.seed)
    words = ["star", "wars", "love", "night", "dark", "return", "king", "city", "lost", "story", "house",
             "black", "blue", "man", "woman", "day"]
    catalogue = [" ".join(rng.choice(words, rng.integers(1, 5))) for _ in range(3000)]
    rec = [list(rng.choice(catalogue, 10)) for _ in range(args.users)]
    test = [list(rng.choice(catalogue, rng.integers(1, 20))) for _ in range(args.users)]
    match, t_match = best_of(1, lambda: match_titles(rec, test, corpus=catalogue))
    print(f"\ntitle matcher: {args.users:,} users x 10 titles: {t_match:.2f} s; "
          f"mean NDCG {np.mean(text_per_user('NDCG', match)):.4f} (standard), "
          f"{np.mean(text_per_user('NDCG', match, variant='paper')):.4f} (the paper's variant)")


if __name__ == "__main__":
    main()
