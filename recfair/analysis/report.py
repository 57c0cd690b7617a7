"""Compare runs on any registered measure: values, bootstrap intervals, paired tests, a report.

:func:`compare` scores several runs of the **same users** on the same catalogue and asks two
questions of every measure:

* *How sure is the value?* A user-level bootstrap: draw the ``m`` users with replacement,
  recompute the measure on the resampled run, repeat ``n_resamples`` times; the percentile
  interval of the resampled values is the confidence interval. It recomputes the measure, so it
  is valid for run-level measures (Gini, Jain, Entropy, IFD ...), which are not means of
  per-user values.
* *Do two runs differ?* A paired randomisation test: under the null hypothesis that the two
  runs are exchangeable for every user, swapping a user's **whole list** between them changes
  nothing; the p-value is the share of random swaps whose difference is at least as large as
  the observed one, ``(1 + #{|d*| >= |d|}) / (1 + B)``. For means of per-user values the paired
  t-test (``test="t"``) and Wilcoxon's signed-rank test (``test="wilcoxon"``) are options. The
  p-values of each measure are corrected for the several comparisons (Holm or
  Benjamini–Hochberg).

**Fast.** A resample is a weight vector over users. Where the measure allows it, its value on a
resample is a function of weighted sums over users: the mean of per-user values (the relevance
measures; IAA, IFD, II-F) or item exposure counts (Part I, :mod:`recfair.item_exposure.resample`).
A whole batch of resamples is then one sparse product. The other measures (Parts II–V's
run-level measures) are recomputed on each resampled run.

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> relevant = [rng.choice(20, 3, replace=False) for _ in range(40)]
>>> runs = {"a": np.array([rng.choice(20, 5, replace=False) for _ in range(40)]),
...         "b": np.array([np.r_[r, rng.choice(np.setdiff1d(np.arange(20), r), 2, replace=False)]
...                        for r in relevant])}
>>> report = compare(runs, measures=["NDCG", "Gini_our"], relevant=relevant, n_items=20, k=5, n_resamples=200, resampling_seed=1)
>>> report.values.round(3)
  run   measure  value  ci_low  ci_high
0   a      NDCG  0.282   0.211    0.352
1   a  Gini_our  0.207   0.136    0.287
2   b      NDCG  1.000   1.000    1.000
3   b  Gini_our  0.147   0.066    0.228
>>> report.tests[["run", "versus", "measure", "p_adjusted"]].round(3)
  run versus   measure  p_adjusted
0   a      b      NDCG       0.005
1   a      b  Gini_our       0.224
"""

from __future__ import annotations

import html
import unicodedata
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import scipy.sparse as sp

from ..io import files as _io
from ..engine import run_plan
from ..registry import check_needs, get, plan
from ..run import Run

__all__ = ["compare", "adjust", "Report", "TESTS", "INTERVALS", "CORRECTIONS", "expand_measures"]

TESTS = ("permutation", "t", "wilcoxon")
INTERVALS = ("centred", "percentile")
CORRECTIONS = ("holm", "bh", "none")
_CHUNK = 100          # resamples per batch: bounds memory (B x n) and paces the progress bar


# --------------------------------------------------------------------------- inputs

def expand_measures(measures) -> list[str]:
    """Measure names, where a family (``"relevance"``, ``"item_exposure"``...) or a part
    (``"I"``...``"V"``, ``"Foundations"``) stands for all its measures.

    Examples
    --------
    >>> expand_measures(["relevance", "Gini_our"])
    ['HR', 'MRR', 'P', 'R', 'MAP', 'NDCG', 'Gini_our']
    """
    return list(plan(measures).names)


def _as_runs(runs, *, relevant, history, n_items, k, user_attributes, relevance=None, item_features=None,
             items=None, measures=(), missing_users=None) -> dict[str, Run]:
    if not isinstance(runs, dict) or not runs:
        raise TypeError("runs must be a non-empty dict {name: top-k array, recfair.Run or run file}.")
    values = list(runs.values())
    if (relevance is not None or item_features is not None) and not all(
            isinstance(v, (list, tuple, np.ndarray)) for v in values):
        raise ValueError("relevance= and item_features= go with runs given as top-k arrays (a recfair.Run or a run "
                         "file carries its own).")
    if all(isinstance(v, Run) for v in values):
        out = dict(runs)
    elif any(isinstance(v, (str, Path, pd.DataFrame, dict)) or _io._is_ranx(v) for v in values):
        if missing_users == "zero":
            raise ValueError("missing_users='zero' gives point values only (RunSet.evaluate): the users without a "
                             "list cannot be resampled; compare with missing_users='drop'.")
        data = _io.load(runs, relevant=relevant, history=history, items=items, n_items=n_items, k=k,
                        user_attributes=user_attributes, missing_users=missing_users)
        data.check_catalogue(measures)
        groups = data.split(measures)
        graded = any(flag for _, flag in groups)
        if graded and any("relevant" in get(key).needs for keys, flag in groups if not flag for key in keys):
            raise ValueError(f"the ground truth is graded: the graded measures "
                             f"({', '.join(k for keys, flag in groups if flag for k in keys)}) take the grades and "
                             "the binary ones grade > 0, so compare them in separate calls (`recfair evaluate "
                             "--compare` does this for you).")
        out = {name: data.run(name, graded=graded) for name in runs}
    else:
        if n_items is None:
            raise ValueError("n_items is required with top-k arrays (the catalogue size; item-fairness measures "
                             "depend on it).")
        out = {name: Run(top, n_items, k=k, relevant=relevant, relevance=relevance, history=history,
                         user_attributes=user_attributes, item_features=item_features)
               for name, top in runs.items()}
    first = next(iter(out.values()))
    for name, run in out.items():
        if (run.n_users, run.n_items, run.k) != (first.n_users, first.n_items, first.k):
            raise ValueError(f"run {name!r} has (m, n, k) = {(run.n_users, run.n_items, run.k)}; the first run has "
                             f"{(first.n_users, first.n_items, first.k)}: runs must cover the same users, catalogue "
                             "and k.")
        if (run.relevant is None) != (first.relevant is None) or (
                run.relevant is not None and (run.relevant != first.relevant).nnz):
            raise ValueError(f"run {name!r} has other ground truth than the first run: runs are compared on the "
                             "same users' relevant items.")
    return out


# --------------------------------------------------------------------------- resampling engines

class _Linear:
    """A measure whose resampled value is ``finish(weights @ rows)``."""

    def __init__(self, statistic, rows, finish, rank_weights=None):
        self.statistic, self.rows, self.finish, self.rank_weights = statistic, rows, finish, rank_weights


def _mean_form(spec, run, options) -> _Linear:
    values = np.asarray(spec.per_user(run, **options), dtype=np.float64)
    defined = ~np.isnan(values)
    rows = np.column_stack([np.where(defined, values, 0.0), defined.astype(np.float64)])

    def finish(totals):
        with np.errstate(invalid="ignore", divide="ignore"):
            return totals[:, 0] / totals[:, 1]

    return _Linear(f"mean:{spec.key}", rows, finish)


def _linear(spec, run, options) -> _Linear | None:
    """The record's user-additive form on ``run``: the mean of its per-user values, or its computation's
    ``linear`` form (Part I's counts); None where there is none (the measure is then recomputed)."""
    if spec.per_user is not None and not run.graded:
        return _mean_form(spec, run, options)
    linear = spec.computation.linear
    form = None if linear is None else linear(run, **options)
    if form is not None:
        return _Linear(form.statistic, form.rows, form.finish, form.rank_weights)
    return None


def _product(weights: np.ndarray, rows) -> np.ndarray:
    """``weights (B, m) @ rows (m, d)`` as a dense ``(B, d)`` (sparse rows: ``rows.T`` as CSR times
    C-ordered ``weights.T``, the fastest order for scipy)."""
    if sp.issparse(rows):
        if rows.dtype == np.float32 and weights.shape[1] * max(float(np.abs(weights).max(initial=0)), 1.0) < 2 ** 23:
            # 0/1 positional rows and integer weights: single precision is exact here, and ~4x faster
            w = np.ascontiguousarray(weights.T, dtype=np.float32)
            return (_transposed(rows) @ w).T.astype(np.float64)
        return (_transposed(rows) @ np.ascontiguousarray(weights.T, dtype=np.float64)).T
    return weights @ rows


_TRANSPOSED: dict = {}


def _transposed(rows):
    hit = _TRANSPOSED.get(id(rows))
    if hit is None or hit[0] is not rows:
        hit = (rows, rows.T.tocsr())
        _TRANSPOSED.clear() if len(_TRANSPOSED) > 64 else None
        _TRANSPOSED[id(rows)] = hit
    return hit[1]


def _positional(top_k: np.ndarray, n_items: int) -> sp.csr_matrix:
    """``(m, k n)`` 0/1: user ``u`` has a 1 at ``j n + top_k[u, j]``; ``weights @`` it gives, for every
    rank ``j``, the weighted count of each item at that rank (all rank-weighted exposures follow)."""
    m, k = top_k.shape
    cols = (np.arange(k) * n_items)[None, :] + top_k
    return sp.csr_matrix((np.ones(m * k, dtype=np.float32), cols.ravel(), np.arange(0, m * k + 1, k)),
                         shape=(m, k * n_items))


def _column_sums(mat) -> np.ndarray:
    """``(1, d)`` float64 column sums of a dense or CSR matrix (every user weighted once)."""
    if sp.issparse(mat):
        csr = sp.csr_matrix(mat)
        return np.bincount(csr.indices, weights=csr.data.astype(np.float64), minlength=csr.shape[1])[None, :]
    return np.asarray(mat, dtype=np.float64).sum(axis=0)[None, :]


def _bases(run: Run, forms) -> dict:
    """The matrices whose weighted sums give every linear form of ``run``: one positional matrix for
    the rank-weighted exposures, and the dense per-user columns of all mean forms stacked into one
    (so a batch of resamples costs two products, whatever the number of measures)."""
    out, dense, slices = {}, [], {}
    for form in forms:
        if form is None or form.statistic in slices or form.statistic in out:
            continue
        if form.rank_weights is not None:
            if "pos" not in out:
                out["pos"] = _positional(run.top_k, run.n_items)
        elif sp.issparse(form.rows):
            out[form.statistic] = form.rows
        else:
            start = sum(block.shape[1] for block in dense)
            dense.append(np.asarray(form.rows, dtype=np.float64))
            slices[form.statistic] = slice(start, start + dense[-1].shape[1])
    if dense:
        out["dense"] = np.ascontiguousarray(np.hstack(dense))
    out["_slices"] = slices
    return out


def _totals(weights: np.ndarray, bases: dict) -> dict:
    """``weights @ basis`` for every basis of :func:`_bases`."""
    out = {"_slices": bases["_slices"]}
    for key, mat in bases.items():
        if key != "_slices":
            out[key] = _product(weights, mat)
    return out


def _statistics(forms, totals: dict, k: int, n: int) -> dict:
    """``statistic -> (B, d)`` totals of each form from the bases' totals (one array per statistic)."""
    out = {}
    slices = totals["_slices"]
    for form in forms:
        if form is None or form.statistic in out:
            continue
        if form.rank_weights is not None:
            per_rank = totals["pos"].reshape(-1, k, n)
            w = form.rank_weights
            total = per_rank[:, 0] * w[0]
            for j in range(1, k):            # k axpys: cheaper than an einsum over (B, k, n)
                total += per_rank[:, j] * w[j]
            out[form.statistic] = total
        elif form.statistic in slices:
            out[form.statistic] = totals["dense"][:, slices[form.statistic]]
        else:
            out[form.statistic] = totals[form.statistic]
    return out


def _subrun(run: Run, rows: np.ndarray) -> Run:
    """The run of users ``rows`` (repeats allowed), every per-user input taken along."""
    take = (lambda mat: None if mat is None else mat[rows])
    attrs = None if run.user_attributes is None else run.user_attributes.iloc[rows].reset_index(drop=True)
    grades = run.grades
    return Run(run.top_k[rows], run.n_items, relevant=None if grades is not None else take(run.relevant),
               relevance=take(grades), scores=take(run.scores), history=take(run.history),
               user_attributes=attrs, item_features=run.item_features,
               rounds=None if run.rounds is None else run.rounds[:, rows])


def _swapped(x: Run, y: Run, swap: np.ndarray) -> tuple[Run, Run]:
    """Runs x' and y': users with ``swap`` True exchange their lists (and scores) between x and y."""
    def mix(a, b, mask):
        if a is None:
            return None
        if sp.issparse(a):
            d = sp.diags(mask.astype(np.float64))
            return (sp.diags(1.0 - mask) @ a + d @ b).tocsr()
        shape = (-1,) + (1,) * (a.ndim - 1)
        return np.where(mask.reshape(shape), b, a)

    def build(a, b, mask):
        return Run(mix(a.top_k, b.top_k, mask), a.n_items,
                   relevant=None if a.grades is not None else a.relevant, relevance=a.grades,
                   scores=mix(a.scores, b.scores, mask), history=a.history, user_attributes=a.user_attributes,
                   item_features=a.item_features)

    return build(x, y, swap), build(x, y, ~swap)


# --------------------------------------------------------------------------- compare

def compare(runs, *, measures, relevant=None, relevance=None, history=None, n_items=None, k=None, baseline=None,
            ci: float = 0.95, n_resamples: int = 1000, interval: str = "centred", test: str = "permutation",
            correction: str = "holm", significance: float = 0.05, resampling_seed=None, user_attributes=None,
            item_features=None, items=None, progress=None, on_undefined: str = "nan", missing_users=None,
            options=None, **keywords) -> "Report":
    """Score runs on registry measures with bootstrap intervals and paired significance tests.

    Parameters
    ----------
    runs : dict of str to top-k array, :class:`recfair.Run` or run file
        The runs to compare, over the same users. Files (TREC, ranx JSON, LensKit/Recommenders/Elliot
        frames, ...) are read with :func:`recfair.io.load` together with ``relevant``, ``history``,
        ``items``/``n_items``.
    measures : str or list of str
        Canonical names (``"NDCG"``, ``"Gini_our"``), families (``"relevance"``) or parts
        (``"I"``); see :func:`expand_measures`.
    relevant, history : per-user item lists, sparse matrices, or files (with run files)
    n_items : int
        Catalogue size (required with arrays; with files, see :func:`recfair.io.load`).
    relevance : array-like or scipy.sparse (n_users, n_items), optional
        Graded ground truth, as in :func:`recfair.evaluate` (with top-k arrays).
    k : int, optional
        Cut-off; defaults to the width of the lists.
    baseline : str, optional
        Test every run against this one; default: every pair of runs.
    ci : float, default 0.95
        Level of the percentile bootstrap interval.
    n_resamples : int, default 1000
        Bootstrap resamples, and random swaps of the randomisation test.
    interval : {"centred", "percentile"}
        ``"percentile"``: the quantiles of the resampled values. ``"centred"`` (default): the same
        quantiles shifted by the point value minus the resamples' mean, i.e. the bootstrap's
        spread around the point value. They agree for means of per-user values. They differ for
        run-level measures of item counts: drawing users with replacement repeats some lists,
        which spreads the counts, so resampled Gini values sit above the run's own (and Jain,
        Entropy, coverage below); the percentile interval can then miss the point value
        altogether, while the centred one estimates where the measure of ``m`` users drawn like
        these falls.
    test : {"permutation", "t", "wilcoxon"}
        ``"t"`` and ``"wilcoxon"`` apply to means of per-user values; other measures fall back to
        the permutation test (the ``test`` column of :attr:`Report.tests` says which ran).
    correction : {"holm", "bh", "none"}
        Multiple-comparison correction over each measure's comparisons.
    significance : float, default 0.05
        Level of the significance marks (named so that no measure's option is shadowed: VoCD's
        and DPFR's ``alpha`` reach the measures).
    resampling_seed : int or numpy Generator, optional
        Randomness of the resamples and swaps (HD's own ``seed`` stays a measure option).
    user_attributes : pandas.DataFrame, optional
        For Part V's group measures.
    item_features : array-like (n_items, d), optional
        Item representations (VoCD with ``alpha < 2``), as in :func:`recfair.evaluate`.
    progress : bool, optional
        A progress bar over batches of resamples; default: shown when some measure is recomputed
        per resample (no vectorised form) on more than a thousand users.
    missing_users : {None, "drop"}
        With run files: ground-truth users without a list (see :func:`recfair.io.load`).
    on_undefined : {"nan", "warn", "raise"}, default "nan"
        For the point values (resampled values are always NaN where undefined).
    options : dict of str to dict, optional
        Per-measure options, ``{"VoCD": {"alpha": 0.3}}``, as in :func:`recfair.evaluate`.
    **keywords
        Plain measure parameters (e.g. ``gamma``), as in :func:`recfair.evaluate`.

    Returns
    -------
    Report

    Examples
    --------
    >>> runs = {"x": [[0, 1], [1, 2], [2, 0]], "y": [[0, 1], [0, 1], [0, 1]]}
    >>> report = compare(runs, measures=["Jain_our", "HR"], relevant=[[0], [2], [1]], n_items=4, k=2, n_resamples=50, resampling_seed=0)
    >>> report.values[["run", "measure", "value"]]
      run   measure     value
    0   x  Jain_our  0.625000
    1   x        HR  0.666667
    2   y  Jain_our  0.000000
    3   y        HR  0.666667
    >>> report.best().to_dict()          # HR ties: the first run
    {'Jain_our': 'x', 'HR': 'x'}
    """
    if interval not in INTERVALS:
        raise ValueError(f"interval must be one of {INTERVALS}, got {interval!r}.")
    if test not in TESTS:
        raise ValueError(f"test must be one of {TESTS}, got {test!r}.")
    if correction not in CORRECTIONS:
        raise ValueError(f"correction must be one of {CORRECTIONS}, got {correction!r}.")
    if not 0 < ci < 1:
        raise ValueError(f"ci must lie in (0, 1), got {ci!r}.")
    if not 0 < significance < 1:
        raise ValueError(f"significance must lie in (0, 1), got {significance!r}.")
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, (int, np.integer)) or n_resamples < 1:
        raise ValueError(f"n_resamples must be a positive integer, got {n_resamples!r}.")
    the_plan = plan(measures, options=options, keywords=keywords, on_undefined=on_undefined)
    names = list(the_plan.names)
    run_map = _as_runs(runs, relevant=relevant, relevance=relevance, history=history, n_items=n_items, k=k,
                       user_attributes=user_attributes, item_features=item_features, items=items, measures=names,
                       missing_users=missing_users)
    labels = list(run_map)
    if baseline is not None and baseline not in run_map:
        raise ValueError(f"baseline {baseline!r} is not one of the runs {labels}.")
    rng = np.random.default_rng(resampling_seed)
    specs = list(the_plan.specs)
    first = run_map[labels[0]]
    m = first.n_users
    if m == 0:
        raise ValueError("the runs have no users.")

    # point values (evaluate_run checks that each run has what each measure needs)
    per_options = the_plan.options
    point = {}
    for name, run in run_map.items():
        check_needs(run, specs)
        point[name] = run_plan(run, the_plan)
    forms = {(r, s.key): _linear(s, run_map[r], per_options[s.key]) for r in labels for s in specs}
    generic = [s for s in specs if any(forms[(r, s.key)] is None for r in labels)]
    if progress is None:
        progress = bool(generic) and m > 1000
    pairs = ([(r, baseline) for r in labels if r != baseline] if baseline is not None
             else [(labels[i], labels[j]) for i in range(len(labels)) for j in range(i + 1, len(labels))])

    from tqdm.auto import tqdm

    chunks = [min(_CHUNK, n_resamples - s) for s in range(0, n_resamples, _CHUNK)]
    total_steps = len(chunks) * (1 + len(pairs) * (test == "permutation" or bool(generic)))
    bar = tqdm(total=total_steps, desc="compare: resampling", unit="batch", disable=not progress, leave=False)

    # ---- bootstrap (the same resampled users for every run: paired intervals)
    n, kk = first.n_items, first.k
    run_forms = {r: [forms[(r, s.key)] for s in specs] for r in labels}
    bases = {r: _bases(run_map[r], run_forms[r]) for r in labels}
    boot = {(r, s.key): [] for r in labels for s in specs}
    for size in chunks:
        idx = rng.integers(0, m, size=(size, m))
        weights = np.bincount((idx + m * np.arange(size)[:, None]).ravel(), minlength=size * m).reshape(size, m)
        weights = weights.astype(np.float64)
        for r in labels:
            stats = _statistics(run_forms[r], _totals(weights, bases[r]), kk, n)
            for s, form in zip(specs, run_forms[r]):
                if form is not None:
                    boot[(r, s.key)].append(form.finish(stats[form.statistic]))
            gen = [s for s, form in zip(specs, run_forms[r]) if form is None]
            if gen:
                vals = np.array([[_safe(s, _subrun(run_map[r], row), per_options[s.key]) for s in gen] for row in idx])
                for j, s in enumerate(gen):
                    boot[(r, s.key)].append(vals[:, j])
        bar.update(1)
    lo_q, hi_q = (1 - ci) / 2, 1 - (1 - ci) / 2
    rows = []
    for r in labels:
        for s in specs:
            samples = np.concatenate(boot[(r, s.key)])
            value = point[r][s.key]
            if np.isnan(value) or np.isnan(samples).all():
                low = high = np.nan
            else:
                low, high = np.nanquantile(samples, [lo_q, hi_q])
                if interval == "centred":       # the bootstrap's spread around the point value, not its bias
                    shift = value - np.nanmean(samples)
                    low, high = np.clip([low + shift, high + shift], *s.range)
            rows.append({"run": r, "measure": s.key, "value": value, "ci_low": float(low), "ci_high": float(high)})
    values = pd.DataFrame(rows, columns=["run", "measure", "value", "ci_low", "ci_high"])
    reasons = {(r, key): _io._reason(run_map[r], key, per_options[key])
               for r, key, v in zip(values["run"], values["measure"], values["value"]) if np.isnan(v)}

    # ---- paired tests
    tests = []
    for a, b in pairs:
        x, y = run_map[a], run_map[b]
        rows_ab = []
        for s in specs:
            kind = test
            if test in ("t", "wilcoxon") and (s.per_user is None or x.graded):
                kind = "permutation"
            observed = point[a][s.key] - point[b][s.key]
            if kind != "permutation":
                p = _classic(kind, s, x, y, per_options[s.key])
            elif np.isnan(observed):
                p = np.nan
            else:
                p = None
            rows_ab.append({"run": a, "versus": b, "measure": s.key, "test": kind, "difference": observed,
                            "p_value": p})
        tests += rows_ab
        todo = [(s, t) for s, t in zip(specs, rows_ab) if t["p_value"] is None]
        if not todo:
            bar.update(len(chunks))
            continue
        lin = [(s, t) for s, t in todo if forms[(a, s.key)] is not None and forms[(b, s.key)] is not None]
        gen = [(s, t) for s, t in todo if (s, t) not in lin]
        fa = [forms[(a, s.key)] for s, _ in lin]
        fb = [forms[(b, s.key)] for s, _ in lin]
        base_a, base_b = _bases(x, fa), _bases(y, fb)
        keys = [key for key in base_a if key != "_slices"]
        full_a = {key: _column_sums(base_a[key]) for key in keys}
        full_b = {key: _column_sums(base_b[key]) for key in keys}
        delta = {key: base_b[key] - base_a[key] for key in keys}
        delta["_slices"] = base_a["_slices"]
        exceed = {s.key: 0 for s, _ in todo}
        done = {s.key: 0 for s, _ in todo}
        for size in chunks:
            swap = rng.random((size, m)) < 0.5
            if lin:
                moved = _totals(swap.astype(np.float64), delta)
                stats_a = _statistics(fa, {**moved, **{key: full_a[key] + moved[key] for key in keys}}, kk, n)
                stats_b = _statistics(fb, {**moved, **{key: full_b[key] - moved[key] for key in keys}}, kk, n)
            for (s, t), form_a, form_b in zip(lin, fa, fb):
                d = form_a.finish(stats_a[form_a.statistic]) - form_b.finish(stats_b[form_b.statistic])
                _count(d, t, exceed, done, s.key)
            for s, t in gen:
                d = np.array([_swap_diff(s, x, y, row, per_options[s.key]) for row in swap])
                _count(d, t, exceed, done, s.key)
            bar.update(1)
        for s, t in todo:
            t["p_value"] = (1 + exceed[s.key]) / (1 + done[s.key]) if done[s.key] else np.nan
    bar.close()
    tests = pd.DataFrame(tests, columns=["run", "versus", "measure", "test", "difference", "p_value"])
    tests["p_value"] = tests["p_value"].astype(np.float64)
    tests["p_adjusted"] = np.nan
    for key, idx in tests.groupby("measure", sort=False).groups.items():
        tests.loc[idx, "p_adjusted"] = adjust(tests.loc[idx, "p_value"].to_numpy(), method=correction)
    tests["significant"] = tests["p_adjusted"] <= significance
    return Report(values=values, tests=tests, measures=names, runs=labels, baseline=baseline, ci=ci, alpha=significance,
                  interval=interval,
                  n_resamples=int(n_resamples), test=test, correction=correction, n_users=m, reasons=reasons)


def _count(d, t, exceed, done, key):
    """Tally the swaps whose |difference| reaches the observed one (float noise forgiven)."""
    ok = ~np.isnan(d)
    target = abs(t["difference"])
    exceed[key] += int((np.abs(d[ok]) >= target - 1e-12 * max(1.0, target)).sum())
    done[key] += int(ok.sum())


def _safe(spec, run, options) -> float:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return float(spec.compute(run, on_undefined="nan", **options))
        except ValueError:
            return np.nan


def _swap_diff(spec, x, y, swap, options) -> float:
    xs, ys = _swapped(x, y, swap)
    return _safe(spec, xs, options) - _safe(spec, ys, options)


def _classic(kind, spec, x, y, options) -> float:
    from scipy import stats

    vx = np.asarray(spec.per_user(x, **options), dtype=np.float64)
    vy = np.asarray(spec.per_user(y, **options), dtype=np.float64)
    ok = ~(np.isnan(vx) | np.isnan(vy))
    diff = vx[ok] - vy[ok]
    if diff.size < 2 or np.allclose(diff, 0):
        return 1.0 if diff.size else np.nan
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if kind == "t":
            return float(stats.ttest_rel(vx[ok], vy[ok]).pvalue)
        return float(stats.wilcoxon(vx[ok], vy[ok]).pvalue)


def adjust(pvalues, *, method: str = "holm") -> np.ndarray:
    """Adjusted p-values: Holm's step-down or Benjamini–Hochberg (NaN left out of the family).

    Examples
    --------
    >>> adjust([0.01, 0.04, 0.03, 0.2], method="holm").round(4).tolist()
    [0.04, 0.09, 0.09, 0.2]
    >>> adjust([0.01, 0.04, 0.03, 0.2], method="bh").round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.2]
    """
    p = np.asarray(pvalues, dtype=np.float64)
    if method == "none":
        return p.copy()
    if method == "bh":
        from .correlation import benjamini_hochberg

        return benjamini_hochberg(p)[1]
    if method != "holm":
        raise ValueError(f"correction must be one of {CORRECTIONS}, got {method!r}.")
    out = np.full(p.shape, np.nan)
    ok = ~np.isnan(p)
    q = p[ok]
    order = np.argsort(q, kind="stable")
    stepped = np.maximum.accumulate(q[order] * (q.size - np.arange(q.size)))
    adj = np.empty(q.size)
    adj[order] = np.minimum(stepped, 1.0)
    out[ok] = adj
    return out


# --------------------------------------------------------------------------- the report

@dataclass
class Report:
    """What :func:`compare` found: tidy frames, tables in Markdown/LaTeX/CSV/HTML, a figure.

    Attributes
    ----------
    values : pandas.DataFrame
        ``run, measure, value, ci_low, ci_high``.
    tests : pandas.DataFrame
        ``run, versus, measure, test, difference, p_value, p_adjusted, significant``; ``test`` is
        the test that ran (``"t"``/``"wilcoxon"`` apply to means of per-user values only; other
        measures fall back to ``"permutation"``).
    reasons : dict
        ``(run, measure) -> why the value is NaN`` (the library's explanation), shown as notes.
    notes : list of str
        Lines printed under every table (e.g. how run files were read).
    digits : int or None
        Significant digits of the smallest value of each measure (default 3): every number of a
        measure is printed with the decimals that gives, so small values stay readable.

    Examples
    --------
    >>> report = compare({"x": [[0, 1], [2, 3]], "y": [[0, 1], [0, 1]]}, measures=["Gini_ori"], n_items=4, k=2,
    ...                  n_resamples=20, resampling_seed=0)
    >>> print(report.to_markdown().splitlines()[0])
    | run | ↓ Gini_ori |
    >>> report.tests[["run", "versus", "measure"]].values.tolist()
    [['x', 'y', 'Gini_ori']]
    """

    values: pd.DataFrame
    tests: pd.DataFrame
    measures: list
    runs: list
    baseline: str | None = None
    ci: float = 0.95
    interval: str = "centred"
    alpha: float = 0.05
    n_resamples: int = 1000
    test: str = "permutation"
    correction: str = "holm"
    n_users: int = 0
    digits: int | None = field(default=None, repr=False)
    notes: list = field(default_factory=list, repr=False)
    reasons: dict = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        return (f"Report(runs={self.runs}, measures={self.measures}, n_users={self.n_users}, ci={self.ci}, "
                f"n_resamples={self.n_resamples}, test={self.test!r}, correction={self.correction!r})")

    @classmethod
    def of_values(cls, values: pd.DataFrame, *, n_users: int, notes=()) -> "Report":
        """A report of point values alone (``run, measure, value[, reason]``): no intervals, no tests."""
        values = values.copy()
        reasons = {}
        if "reason" in values:
            reasons = {(r, key): why for r, key, why in zip(values["run"], values["measure"], values["reason"])
                       if why}
            values = values.drop(columns="reason")
        for col in ("ci_low", "ci_high"):
            if col not in values:
                values[col] = np.nan
        tests = pd.DataFrame(columns=["run", "versus", "measure", "test", "difference", "p_value", "p_adjusted",
                                      "significant"])
        return cls(values=values, tests=tests, measures=list(dict.fromkeys(values["measure"])),
                   runs=list(dict.fromkeys(values["run"])), n_resamples=0, n_users=n_users, notes=list(notes),
                   reasons=reasons)

    def best(self) -> pd.Series:
        """The best run of each measure, by the registry's direction (ties: the first run)."""
        out = {}
        for key in self.measures:
            sub = self.values[self.values["measure"] == key].dropna(subset=["value"])
            if sub.empty or len(self.runs) < 2:
                out[key] = None
                continue
            pick = sub["value"].idxmax() if get(key).higher_is_better else sub["value"].idxmin()
            out[key] = sub.loc[pick, "run"]
        return pd.Series(out, name="best", dtype=object)

    def _used(self) -> dict:
        """``measure -> the test(s) that ran`` (one name, or several joined by '/')."""
        return {key: "/".join(dict.fromkeys(sub["test"])) for key, sub in self.tests.groupby("measure", sort=False)}

    def _marks(self) -> dict:
        """``(run, measure) -> superscripts``: the runs it beats significantly (by index, 1-based), followed
        by the test's letter where it is not the test asked for."""
        index = {r: str(j + 1) for j, r in enumerate(self.runs)}
        marks = {}
        for _, t in self.tests[self.tests["significant"].astype(bool)].iterrows():
            higher = get(t["measure"]).higher_is_better
            better, worse = (t["run"], t["versus"]) if (t["difference"] > 0) == higher else (t["versus"], t["run"])
            marks.setdefault((better, t["measure"]), []).append(index[worse])
        used = self._used()
        out = {}
        for key, v in marks.items():
            text = ",".join(sorted(v, key=int))
            if used.get(key[1], self.test) != self.test:
                text += " " + _LETTER[used[key[1]]]
            out[key] = text
        return out

    def _decimals(self, digits) -> dict:
        """Decimals per measure: ``digits`` significant digits of its smallest non-zero value."""
        digits = self.digits if digits is None else digits
        digits = 3 if digits is None else digits
        if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 1 <= digits <= 15:
            raise ValueError(f"digits must be an integer from 1 to 15, got {digits!r}.")
        out = {}
        for key in self.measures:
            sub = self.values.loc[self.values["measure"] == key]
            v = sub["value"].to_numpy(float)
            v = np.abs(v[np.isfinite(v) & (v != 0)])
            if not v.size:                      # every value 0 or NaN: the intervals set the scale
                v = sub[["ci_low", "ci_high"]].to_numpy(float)
                v = np.abs(v[np.isfinite(v) & (v != 0)])
            smallest = v.min() if v.size else 1.0
            out[key] = int(min(15, max(0, digits - 1 - np.floor(np.log10(smallest)))))
        return out

    def _reasons(self) -> dict:
        """``(run, measure) -> footnote letter`` and the notes ``letter: reason`` of NaN values."""
        letters, notes, marks = {}, [], {}
        for cell, reason in self.reasons.items():
            if reason not in letters:
                letters[reason] = chr(ord("a") + len(letters) % 26)
                notes.append(f"NaN ({letters[reason]}): {reason}")
            marks[cell] = letters[reason]
        return marks, notes

    def table(self, *, digits: int | None = None, intervals: bool = True) -> pd.DataFrame:
        """Runs × measures of formatted cells ``value [low, high]``, ``*`` best, superscripts = beaten runs."""
        dec, best, marks = self._decimals(digits), self.best(), self._marks()
        why, _ = self._reasons()
        cells = {}
        for _, row in self.values.iterrows():
            r, key = row["run"], row["measure"]
            d = dec[key]
            text = f"NaN ({why[(r, key)]})" if (r, key) in why else _number(row["value"], d)
            if intervals and not np.isnan(row["ci_low"]):
                text += f" [{_number(row['ci_low'], d)}, {_number(row['ci_high'], d)}]"
            if best.get(key) == r:
                text += " *"
            if (r, key) in marks:
                text += f" ^{marks[(r, key)]}"
            cells.setdefault(r, {})[f"{get(key).direction} {key}"] = text
        frame = pd.DataFrame(cells).T
        frame.index = [f"{j + 1}. {r}" for j, r in enumerate(frame.index)]
        frame.index.name = "run"
        return frame

    def _legend(self) -> str:
        corr = {"holm": "Holm", "bh": "Benjamini–Hochberg", "none": "no"}[self.correction]
        if self.n_resamples == 0:
            text = f"{self.n_users} users; ↑ higher better, ↓ lower better" + \
                ("; * best run by the measure's direction." if len(self.runs) > 1 else ".")
        else:
            text = (f"{self.n_users} users; value [{self.ci:.0%} user-bootstrap interval ({self.interval}), "
                    f"{self.n_resamples} resamples]; * best run by the measure's direction (↑ higher better, ↓ lower "
                    f"better); superscript j: significantly better than run j ({self.test} test, {corr} correction "
                    f"per measure, α = {self.alpha}).")
            used = self._used()
            other = {key: t for key, t in used.items() if t != self.test}
            if other:
                text += (f" The {self.test} test applies to means of per-user values only; "
                         + ", ".join(f"{key}: {t} test ({_LETTER.get(t, t)})" for key, t in other.items()) + ".")
        return " ".join([text, *self.notes, *self._reasons()[1]])

    def to_markdown(self, *, digits: int | None = None) -> str:
        """The table in Markdown (GitHub pipes), with its legend."""
        from ..io.frames import markdown_table

        return _sup_html(markdown_table(self.table(digits=digits))) + "\n\n" + self._legend()

    def to_csv(self, *, path=None, digits: int | None = None) -> str | None:
        """Values, tests and notes in one CSV: a ``kind`` column (``value``, ``test``, ``note``) tells them apart.

        Numbers are written in full (``digits`` does not round them: a CSV is for further
        computation). With ``path`` the CSV is written there; else it is returned.
        """
        values = self.values.assign(kind="value", reason=[self.reasons.get((r, key), "") for r, key in
                                                          zip(self.values["run"], self.values["measure"])])
        tests = self.tests.assign(kind="test")
        notes = pd.DataFrame({"kind": "note", "note": [self._legend()]})
        frames = [values] + ([tests] if len(tests) else []) + [notes]
        out = pd.concat(frames, ignore_index=True)
        cols = ["kind"] + [c for c in out.columns if c != "kind"]
        text = out[cols].to_csv(index=False)
        if path is None:
            return text
        Path(path).write_text(text)
        return None

    def to_latex(self, *, digits: int | None = None, caption: str | None = None, label: str | None = None) -> str:
        """A ``booktabs`` LaTeX table (``\\usepackage{booktabs}``): best in bold, superscripts for
        significance, intervals beneath; the legend and notes are the caption."""
        dec, best, marks = self._decimals(digits), self.best(), self._marks()
        why, _ = self._reasons()
        arrows = {True: r"$\uparrow$", False: r"$\downarrow$"}
        head = " & ".join(["Run"] + [f"{_tex(k)} {arrows[get(k).higher_is_better]}" for k in self.measures])
        body = []
        for j, r in enumerate(self.runs):
            cells = [f"{j + 1}. {_tex(r)}"]
            for key in self.measures:
                row = self.values[(self.values["run"] == r) & (self.values["measure"] == key)].iloc[0]
                d = dec[key]
                cell = f"NaN$^{{{why[(r, key)]}}}$" if (r, key) in why else _number(row["value"], d)
                if best.get(key) == r:
                    cell = f"\\textbf{{{cell}}}"
                if (r, key) in marks:
                    cell += f"$^{{{marks[(r, key)].replace(' ', '')}}}$"
                if not np.isnan(row["ci_low"]):
                    cell += f" {{\\tiny[{_number(row['ci_low'], d)}, {_number(row['ci_high'], d)}]}}"
                cells.append(cell)
            body.append(" & ".join(cells) + r" \\")
        lines = [r"\begin{table}", r"\centering", r"\begin{tabular}{l" + "r" * len(self.measures) + "}",
                 r"\toprule", head + r" \\", r"\midrule", *body, r"\bottomrule", r"\end{tabular}",
                 f"\\caption{{{_tex(caption or self._legend())}}}"]
        if label:
            lines.append(f"\\label{{{label}}}")
        lines.append(r"\end{table}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        table = self.table()
        cells = table.map(lambda t: html.escape(t).replace(" *", " <b>*</b>")) if hasattr(table, "map") else table
        cells = cells.map(_sup_html)
        body = cells.to_html(escape=False, classes="recfair-report")
        return (f'<div style="max-width:100%;overflow-x:auto">{body}'
                f'<p style="font-size:smaller">{html.escape(self._legend())}</p></div>')

    def plot(self, *, ax=None, measures=None):
        """Values with their intervals, one panel per measure (returns the matplotlib Figure)."""
        from matplotlib.ticker import MaxNLocator

        keys = list(measures or self.measures)
        if ax is None:
            from ..book.plotting import stacked

            # the book's phone-width layout, two panels a row
            fig, axes = stacked(len(keys), ncols=min(2, len(keys)), panel_height=0.45 * len(self.runs) + 1.2)
            fig.set_layout_engine("constrained")
        else:
            axes = np.atleast_1d(ax).ravel()
            fig = axes[0].figure
        best = self.best()
        for a, key in zip(axes, keys):
            sub = self.values[self.values["measure"] == key].set_index("run").loc[self.runs]
            y = np.arange(len(self.runs))[::-1]
            err = np.vstack([sub["value"] - sub["ci_low"], sub["ci_high"] - sub["value"]])
            colours = ["C3" if r == best.get(key) else "C0" for r in self.runs]
            a.errorbar(sub["value"], y, xerr=np.nan_to_num(err), fmt="none", ecolor="0.5", capsize=3)
            a.scatter(sub["value"], y, c=colours, zorder=3)
            a.set_yticks(y, self.runs)
            a.set_title(f"{get(key).direction} {key}", fontsize="medium")
            a.grid(axis="x", alpha=0.3)
            a.xaxis.set_major_locator(MaxNLocator(3))
        for a in axes[len(keys):]:
            a.set_visible(False)
        return fig


_LETTER = {"permutation": "P", "t": "t", "wilcoxon": "W"}


def _number(x, decimals: int) -> str:
    return "NaN" if np.isnan(x) else f"{x:.{decimals}f}"


def _sup_html(text: str) -> str:
    import re

    return re.sub(r"\^([\d,]+(?: [PtW])?)", r"<sup>\1</sup>", text)


def _tex(text) -> str:
    """``text`` safe in LaTeX (special characters escaped; the report's few Unicode signs as macros)."""
    out = []
    table = {"\\": r"\textbackslash{}", "_": r"\_", "%": r"\%", "&": r"\&", "#": r"\#", "$": r"\$",
             "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "–": "--",
             "α": r"$\alpha$", "↑": r"$\uparrow$", "↓": r"$\downarrow$", "×": r"$\times$", "≥": r"$\geq$",
             "≤": r"$\leq$", "…": r"\ldots{}", "’": "'"}
    accents = {"\u0301": "'", "\u0300": "`", "\u0308": '"', "\u0302": "^", "\u0303": "~", "\u0327": "c "}
    for ch in str(text):
        if ch in table:
            out.append(table[ch])
        elif ord(ch) < 128:
            out.append(ch)
        else:                           # an accented Latin letter as a LaTeX accent; anything else is not set
            base = unicodedata.normalize("NFD", ch)
            if len(base) == 2 and base[0].isascii() and base[1] in accents:
                out.append(f"\\{accents[base[1]]}{{{base[0]}}}")
            else:
                out.append("?")
    return "".join(out)
