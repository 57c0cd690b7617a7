"""The tie order of numpy's default ``argsort`` before vectorised sorting (numpy <= 1.24).

HD's published values (thesis Papers 2-3) took each user's reference list from
``np.argsort(-r_u)[:k]``, numpy's default *unstable* introsort (quicksort with a
median-of-three pivot, insertion sort for ranges of at most 16 elements and a heapsort fallback), whose order
among tied values is an artefact of the algorithm. Newer numpy versions sort with SIMD
kernels on many CPUs and order ties differently, so the published numbers cannot be recovered
with the installed numpy. This module replays that algorithm step by step in Python; it is
checked against numpy 1.23.5's output (``tests/test_legacy_sort.py``).

It is slow (pure Python, about ``n log n`` element steps per call) and exists only to
reproduce the published HD values.
"""

from __future__ import annotations

import numpy as np

_SMALL = 15          # numpy's SMALL_QUICKSORT: ranges with pr - pl <= 15 use insertion sort


def numpy_legacy_argsort(values) -> np.ndarray:
    """``np.argsort(values)`` as numpy 1.23 computed it (default kind, 1-D, no NaN).

    >>> numpy_legacy_argsort([0.0, -1.0, 0.0, -1.0]).tolist()
    [1, 3, 0, 2]
    """
    v = [float(x) for x in np.asarray(values, dtype=np.float64).ravel()]
    if any(x != x for x in v):
        raise ValueError("numpy_legacy_argsort does not handle NaN values.")
    n = len(v)
    a = list(range(n))
    if n < 2:
        return np.array(a, dtype=np.int64)
    ranges: list[tuple[int, int, int]] = []
    pl, pr = 0, n - 1
    depth = 2 * (n.bit_length() - 1)                  # twice the index of the highest set bit
    while True:
        if depth < 0:
            _heapsort(v, a, pl, pr - pl + 1)
        else:
            while pr - pl > _SMALL:
                pm = pl + ((pr - pl) >> 1)
                if v[a[pm]] < v[a[pl]]:
                    a[pm], a[pl] = a[pl], a[pm]
                if v[a[pr]] < v[a[pm]]:
                    a[pr], a[pm] = a[pm], a[pr]
                if v[a[pm]] < v[a[pl]]:
                    a[pm], a[pl] = a[pl], a[pm]
                pivot = v[a[pm]]
                pi, pj = pl, pr - 1
                a[pm], a[pj] = a[pj], a[pm]
                while True:
                    pi += 1
                    while v[a[pi]] < pivot:
                        pi += 1
                    pj -= 1
                    while pivot < v[a[pj]]:
                        pj -= 1
                    if pi >= pj:
                        break
                    a[pi], a[pj] = a[pj], a[pi]
                a[pi], a[pr - 1] = a[pr - 1], a[pi]
                depth -= 1
                if pi - pl < pr - pi:                 # keep the smaller side, defer the larger
                    ranges.append((pi + 1, pr, depth))
                    pr = pi - 1
                else:
                    ranges.append((pl, pi - 1, depth))
                    pl = pi + 1
            for pi in range(pl + 1, pr + 1):          # insertion sort of the short range
                item = a[pi]
                key = v[item]
                pj = pi
                while pj > pl and key < v[a[pj - 1]]:
                    a[pj] = a[pj - 1]
                    pj -= 1
                a[pj] = item
        if not ranges:
            break
        pl, pr, depth = ranges.pop()
    return np.array(a, dtype=np.int64)


def _heapsort(v: list, a: list, start: int, size: int) -> None:
    """In-place heapsort of ``a[start:start + size]`` by ``v`` (1-based heap over that slice)."""
    def at(i):
        return a[start + i - 1]

    def put(i, item):
        a[start + i - 1] = item

    def sift(item, i, last):
        j = 2 * i
        while j <= last:
            if j < last and v[at(j)] < v[at(j + 1)]:
                j += 1
            if v[item] < v[at(j)]:
                put(i, at(j))
                i = j
                j += j
            else:
                break
        put(i, item)

    for top in range(size >> 1, 0, -1):
        sift(at(top), top, size)
    last = size
    while last > 1:
        item = at(last)
        put(last, at(1))
        last -= 1
        sift(item, 1, last)
