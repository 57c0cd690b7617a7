"""The one engine against the engine it replaced: old vs new timings and their ratio.

Three workloads, each timed in a fresh subprocess on both code bases (the same synthetic data,
the same seed):

* ``evaluate``: every Part I and Part II measure on 90,000 users (n = 2,000 items, k = 10) but
  IFD÷ ori, which needs the full ranking (90,000 x 2,000 scores);
* ``compare``: ML-1M's scale (6,040 users, 3,706 items, k = 10), 4 runs x 18 measures
  (the relevance measures and Part I's count-based ones) x 1,000 resamples;
* ``Accumulator``: the relevance, Part I and Part II per-user measures fed in 9 blocks of
  10,000 users.

The "old" side is the code at commit 595539a (before the engine), checked out with
``git worktree add /tmp/old 595539a`` (or ``--old PATH``); the "new" side is this checkout.
The target: no ratio new / old above 1.1.

Run: ``python benchmarks/bench_engine.py [--old /tmp/old] [--repeat 3] [--only evaluate compare accumulator]``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
NEW = HERE.parent

WORKER = r'''
import inspect, json, sys, time, warnings
import numpy as np
import recfair as rf
from recfair.registry import ALL_MEASURES
warnings.simplefilter("ignore")
task, repeat = sys.argv[1], int(sys.argv[2])

def lists(rng, m, n, k, skew=1.2):
    p = 1.0 / np.arange(1, n + 1) ** skew
    p /= p.sum()
    keys = np.log(rng.random((m, n))) / p          # weighted sampling without replacement (popular first)
    return np.argsort(-keys, axis=1)[:, :k]

def relevant_sets(rng, m, n):
    return [list(rng.choice(n, size=int(rng.integers(1, 20)), replace=False)) for _ in range(m)]

def best(call):
    out, t = None, float("inf")
    for _ in range(repeat):
        s = time.perf_counter(); out = call(); t = min(t, time.perf_counter() - s)
    return t

rng = np.random.default_rng(0)
if task == "evaluate":
    m, n, k = 90_000, 2_000, 10
    top, rel = lists(rng, m, n, k), relevant_sets(rng, m, n)
    names = [s.key for s in ALL_MEASURES if s.family in ("item_exposure", "joint")
             and set(s.needs) <= {"top_k", "relevant"}]           # IFD÷ ori needs the full ranking
    t = best(lambda: rf.evaluate(top, n_items=n, measures=names, relevant=rel, on_undefined="nan"))
elif task == "compare":
    m, n, k = 6_040, 3_706, 10
    rel = relevant_sets(rng, m, n)
    runs = {f"run{i}": lists(rng, m, n, k, skew=0.8 + 0.2 * i) for i in range(4)}
    names = ["HR", "MRR", "P", "R", "MAP", "NDCG"] + [f"{b}_{v}" for b in ("Jain", "QF", "Ent", "Gini", "Gini-w", "FSat")
                                                     for v in ("ori", "our")]
    params = inspect.signature(rf.compare).parameters
    seed = {"resampling_seed": 0} if "resampling_seed" in params else {"seed": 0}
    if "measures" in params and params["measures"].kind is inspect.Parameter.KEYWORD_ONLY:
        call = lambda: rf.compare(runs, measures=names, relevant=rel, n_items=n, k=k, n_resamples=1000,
                                  progress=False, **seed)
    else:
        call = lambda: rf.compare(runs, names, relevant=rel, n_items=n, k=k, n_resamples=1000, progress=False, **seed)
    t = best(call)
elif task == "accumulator":
    m, n, k = 90_000, 2_000, 10
    top, rel = lists(rng, m, n, k), relevant_sets(rng, m, n)
    names = [s.key for s in ALL_MEASURES if s.family in ("relevance", "item_exposure")] + [
        "IAA_ori", "IAA_our", "IFD_div_our", "IFD_mul_ori", "IFD_mul_our", "II-F_ori", "II-F_our", "AI-F",
        "IBO_ori", "IWO_ori", "IBO_our", "IWO_our"]
    params = inspect.signature(rf.Accumulator).parameters
    def run():
        if "measures" in params and params["measures"].kind is inspect.Parameter.KEYWORD_ONLY:
            acc = rf.Accumulator(measures=names, n_items=n, k=k, on_undefined="nan")
        else:
            acc = rf.Accumulator(names, n_items=n, k=k, on_undefined="nan")
        for a in range(0, m, 10_000):
            acc.update(top[a:a + 10_000], relevant=rel[a:a + 10_000])
        return acc.result()
    t = best(run)
print(json.dumps({"task": task, "seconds": t}))
'''


def _time(code_root: Path, task: str, repeat: int) -> float:
    env = dict(os.environ, PYTHONPATH=str(code_root))
    out = subprocess.run([sys.executable, "-c", WORKER, task, str(repeat)], env=env, capture_output=True, text=True,
                         cwd=str(code_root))
    if out.returncode:
        raise RuntimeError(f"{task} on {code_root} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])["seconds"]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", default="/tmp/old", help="checkout of the old engine (commit 595539a)")
    parser.add_argument("--repeat", type=int, default=2, help="timings per subprocess (the best is kept)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="subprocesses per side, old and new alternating (the machine's load hits both alike)")
    parser.add_argument("--only", nargs="+", default=["evaluate", "compare", "accumulator"])
    args = parser.parse_args(argv)
    old = Path(args.old)
    if not (old / "recfair" / "__init__.py").exists():
        raise SystemExit(f"no old checkout at {old}: run `git worktree add {old} 595539a` first.")
    print(f"{'workload':<12} {'old s':>9} {'new s':>9} {'new/old':>8}")
    worst = 0.0
    for task in args.only:
        t_old = t_new = float("inf")
        for _ in range(args.rounds):
            t_old = min(t_old, _time(old, task, args.repeat))
            t_new = min(t_new, _time(NEW, task, args.repeat))
        ratio = t_new / t_old
        worst = max(worst, ratio)
        print(f"{task:<12} {t_old:9.3f} {t_new:9.3f} {ratio:8.3f}", flush=True)
    print(f"worst ratio {worst:.3f} (target: at most 1.1)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
