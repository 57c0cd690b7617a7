"""Timing helper shared by the benchmark scripts (run them as ``python benchmarks/<script>.py``)."""

from __future__ import annotations

import time


def best_of(repeat: int, call) -> tuple[float, float]:
    """Call ``call()`` ``repeat`` times; return its last value and the best wall time in seconds."""
    best, value = float("inf"), float("nan")
    for _ in range(repeat):
        start = time.perf_counter()
        value = call()
        best = min(best, time.perf_counter() - start)
    return value, best
