"""Reference transcriptions shared by several test modules (written from the thesis's formulas)."""

from __future__ import annotations

import math

import numpy as np


def loop_hd(top_k, grades, gamma=0.9):
    m, n = grades.shape
    k = top_k.shape[1]
    q = np.zeros(k)
    c = np.zeros(k)
    for u in range(m):
        ref = sorted(range(n), key=lambda i: (-grades[u, i], i))[:k]     # stable: lower index first
        share = grades[u] / grades[u].sum()
        for p, i in enumerate(ref):
            q[p] += share[i] / m
        clicks, survive = np.zeros(k), 1.0
        for p in range(k):
            r = grades[u, top_k[u, p]]
            clicks[p] = r * gamma ** (p + 1) * survive
            survive *= 1 - r
        if clicks.sum() > 0:
            clicks /= clicks.sum()
        at_ref = np.array([clicks[list(top_k[u]).index(i)] if i in top_k[u] else 0.0 for i in ref])
        at_ref = np.concatenate([at_ref, np.zeros(k - len(ref))])
        if at_ref.sum() > 0:
            c += at_ref / at_ref.sum() / m
    return math.sqrt(0.5 * ((np.sqrt(q) - np.sqrt(c)) ** 2).sum())
