"""Speed-up of recfair's MME and IFD× over direct transcriptions of the published algorithms.

    python benchmarks/bench_joint_published.py [--users 1000 --items 2000 --k 10 --relevant 20]

The published code (Paper 2's RecBole fork, after Saito & Joachims' envy code) computes MME with
a loop over the n items, each an m x n product, i.e. O(m n^2), and IFD× with a pairwise
distance over all n items per user, O(m n^2). They are transcribed below as plainly as
possible, run on a size where they finish, and timed against ``recfair.evaluate``; the
values must agree. The transcriptions exist only as timing baselines.
"""

from __future__ import annotations

import argparse

import numpy as np
from _timing import best_of
from scipy.spatial.distance import pdist

import recfair as rf
from recfair.synthetic import random_relevant, random_top_k


def published_mme(top_k: np.ndarray, relevant: np.ndarray) -> float:
    m, n = relevant.shape
    inv = np.zeros((m, n))
    inv[np.arange(m)[:, None], top_k] = 1.0 / np.arange(1, top_k.shape[1] + 1)
    max_envy = np.zeros(n)
    for i in range(n):
        u_d_swap = (inv * relevant[:, [i]]).sum(0)
        max_envy[i] = np.max(u_d_swap - u_d_swap[i])
    return float(max_envy.mean() / m)


def published_ifd_mul(top_k: np.ndarray, relevant: np.ndarray) -> float:
    m, n = relevant.shape
    dcg = 1.0 / np.log2(np.arange(2, top_k.shape[1] + 2))
    per_user = []
    for u in range(m):
        j = np.zeros(n)
        j[top_k[u]] = relevant[u, top_k[u]] * dcg
        per_user.append(pdist(j[:, None], "sqeuclidean").mean())
    return float(np.mean(per_user))


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=1000)
    parser.add_argument("--items", type=int, default=2000)
    parser.add_argument("--k", type=int, default=10)
    parser.add_argument("--relevant", type=float, default=20.0)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)

    rng = np.random.default_rng(2020)
    top_k = random_top_k(args.users, args.items, args.k, seed=rng)
    relevant = random_relevant(args.users, args.items, mean=args.relevant, seed=rng)
    dense = relevant.toarray().astype(np.float64)
    print(f"synthetic run: m={args.users:,} n={args.items:,} k={args.k} relevant/user={relevant.nnz / args.users:.1f}")
    print(f"{'measure':<10}{'recfair s':>12}{'published s':>14}{'speed-up':>10}  values agree")
    cases = (("MME", "MME", published_mme), ("IFD_mul", "IFD_mul_ori", published_ifd_mul))
    for label, name, published in cases:
        ours, t_ours = best_of(args.repeat, lambda: rf.evaluate(top_k, n_items=args.items, measures=[name], relevant=relevant)[name])
        theirs, t_theirs = best_of(1, lambda: published(top_k, dense))
        agree = np.isclose(ours, theirs, rtol=1e-9, atol=1e-15)
        print(f"{label:<10}{t_ours:>12.4f}{t_theirs:>14.3f}{t_theirs / t_ours:>10.0f}x  {agree} ({ours:.6g})")


if __name__ == "__main__":
    main()
