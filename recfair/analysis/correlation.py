"""Agreement between measures: Kendall's τ-b over runs, with Benjamini–Hochberg correction.

The thesis compares measures by how they rank a set of runs (recommenders, re-rankers,
datasets). Scores are first oriented so that higher is better for every measure (measures
where lower is fairer are negated), then every pair of measures gets Kendall's τ-b (which
handles ties) and its p-value; the p-values of the whole matrix form one family for the
Benjamini–Hochberg false-discovery-rate correction.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats

from .._validation import UndefinedMeasureWarning
from ..registry import REGISTRY

__all__ = ["orient", "kendall_matrix", "benjamini_hochberg", "Finding", "findings_table"]


def orient(results: pd.DataFrame, *, lower_is_better=None) -> pd.DataFrame:
    """Negate the columns where lower is better, so that higher is better everywhere.

    Columns named after registry measures take their direction from the registry; any
    other column must be listed in ``lower_is_better`` or be known as higher-better by
    being absent from it *and* passed in ``results`` deliberately (unknown names raise).

    Examples
    --------
    >>> orient(pd.DataFrame({"NDCG": [0.1, 0.2], "x": [3.0, 1.0]}), lower_is_better=["x"])
       NDCG    x
    0   0.1 -3.0
    1   0.2 -1.0
    """
    if not isinstance(results, pd.DataFrame):
        raise TypeError(f"results must be a DataFrame (runs x measures), got {type(results).__name__}.")
    lower = set(lower_is_better or ())
    unknown = [c for c in results.columns if c not in REGISTRY and c not in lower and lower_is_better is None]
    if unknown:
        raise ValueError(f"columns {unknown} are not registry measures; say which are lower-is-better "
                         "with lower_is_better=[...] (pass [] if none).")
    out = results.astype(float).copy()
    for c in out.columns:
        spec = REGISTRY.get(c)
        if c in lower or (spec is not None and not spec.higher_is_better and c not in (lower_is_better or ())):
            out[c] = -out[c]
    return out


def benjamini_hochberg(pvalues, *, alpha: float = 0.05):
    """Benjamini–Hochberg step-up procedure.

    Returns ``(reject, adjusted)``: which hypotheses are rejected at FDR ``alpha`` and the
    adjusted p-values (monotone, capped at 1), both shaped like ``pvalues``. NaN p-values
    are left out of the family and stay NaN / not rejected.

    Examples
    --------
    >>> reject, adj = benjamini_hochberg([0.01, 0.04, 0.03, 0.2])
    >>> reject.tolist(), adj.round(4).tolist()
    ([True, False, False, False], [0.04, 0.0533, 0.0533, 0.2])
    """
    p = np.asarray(pvalues, dtype=np.float64)
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}.")
    flat = p.ravel()
    ok = ~np.isnan(flat)
    if np.any((flat[ok] < 0) | (flat[ok] > 1)):
        raise ValueError("p-values must lie in [0, 1].")
    adjusted = np.full(flat.shape, np.nan)
    q = flat[ok]
    m = q.size
    if m:
        order = np.argsort(q, kind="stable")
        ranked = q[order] * m / np.arange(1, m + 1)
        ranked = np.minimum.accumulate(ranked[::-1])[::-1]
        adj = np.empty(m)
        adj[order] = np.minimum(ranked, 1.0)
        adjusted[ok] = adj
    reject = np.zeros(flat.shape, dtype=bool)
    reject[ok] = adjusted[ok] <= alpha
    return reject.reshape(p.shape), adjusted.reshape(p.shape)


def kendall_matrix(results: pd.DataFrame, *, lower_is_better=None, alpha: float = 0.05):
    """Kendall's τ-b between every pair of measures over the runs (rows) of ``results``.

    Parameters
    ----------
    results : DataFrame, runs x measures
        Scores of each run; columns named by registry measures are oriented automatically.
    lower_is_better : list of str, optional
        Extra columns to negate (see :func:`orient`).
    alpha : float
        FDR level of the Benjamini–Hochberg correction over the off-diagonal pairs.

    Returns
    -------
    tau, pvalue, significant : DataFrames (measures x measures)
        τ-b, raw two-sided p-values, and whether each pair is significant after BH. A pair
        involving a constant measure has no τ (NaN, with an :class:`UndefinedMeasureWarning`).

    Examples
    --------
    >>> import pandas as pd
    >>> runs = pd.DataFrame({"NDCG": [0.1, 0.2, 0.3, 0.4], "Gini_our": [0.9, 0.7, 0.8, 0.1]})
    >>> tau, p, significant = kendall_matrix(runs)     # Gini is lower-is-fairer, so it is negated
    >>> round(float(tau.loc["NDCG", "Gini_our"]), 4)
    0.6667
    """
    oriented = orient(results, lower_is_better=lower_is_better)
    if len(oriented) < 2:
        raise ValueError(f"need at least 2 runs to rank, got {len(oriented)}.")
    if oriented.isna().any().any():
        bad = oriented.columns[oriented.isna().any()].tolist()
        raise ValueError(f"results has NaN scores in {bad}; drop or fix those runs/measures first.")
    cols = list(oriented.columns)
    d = len(cols)
    tau = np.eye(d)
    pval = np.zeros((d, d))
    constant = [c for c in cols if oriented[c].nunique() == 1]
    if constant:
        warnings.warn(f"measures {constant} are constant over the runs; their τ is undefined (NaN).",
                      UndefinedMeasureWarning, stacklevel=2)
    for a in range(d):
        for b in range(a + 1, d):
            if cols[a] in constant or cols[b] in constant:
                t, pv = np.nan, np.nan
            else:
                t, pv = stats.kendalltau(oriented[cols[a]], oriented[cols[b]], variant="b")
            tau[a, b] = tau[b, a] = t
            pval[a, b] = pval[b, a] = pv
    for c in constant:
        i = cols.index(c)
        tau[i, i], pval[i, i] = np.nan, np.nan
    upper = np.triu_indices(d, 1)
    reject, _ = benjamini_hochberg(pval[upper], alpha=alpha)
    sig = np.zeros((d, d), dtype=bool)
    sig[upper] = reject
    sig = sig | sig.T
    frame = lambda a: pd.DataFrame(a, index=cols, columns=cols)  # noqa: E731
    return frame(tau), frame(pval), frame(sig)


@dataclass(frozen=True)
class Finding:
    """One statement of the thesis, checked against the numbers a chapter computed.

    A chapter builds each finding from its own outputs, so its verdict cannot drift from them:
    ``holds`` is the result of the test, never typed in.

    Parameters
    ----------
    claim : str
        What the thesis states, in a short paraphrase.
    test : str
        The computation that decides it, in words ("Jain_our rises with every insertion step").
    holds : bool
        The test's outcome on this page's numbers.
    evidence : str, default ""
        The numbers behind the verdict, formatted by the chapter.

    Examples
    --------
    >>> scores = [0.2, 0.4, 0.7]
    >>> f = Finding("fairness improves", "every step raises Jain", all(a < b for a, b in zip(scores, scores[1:])))
    >>> f.verdict
    're-observed'
    """

    claim: str
    test: str
    holds: bool
    evidence: str = ""

    def __post_init__(self):
        if not isinstance(self.holds, (bool, np.bool_)):
            raise TypeError(f"holds must be a bool (the outcome of the test), got {type(self.holds).__name__}.")
        object.__setattr__(self, "holds", bool(self.holds))

    @property
    def verdict(self) -> str:
        """``"re-observed"`` if the test holds on this page's numbers, else ``"not re-observed"``."""
        return "re-observed" if self.holds else "not re-observed"


def findings_table(findings) -> pd.DataFrame:
    """The findings as a table with one row per claim: claim, test, evidence and verdict.

    Examples
    --------
    >>> table = findings_table([Finding("A", "a > 0", True, "a = 1"), Finding("B", "b > 0", False, "b = -1")])
    >>> table["verdict"].tolist()
    ['re-observed', 'not re-observed']
    >>> table.index.tolist()
    [1, 2]
    """
    findings = list(findings)
    if not findings:
        raise ValueError("findings_table needs at least one Finding.")
    for f in findings:
        if not isinstance(f, Finding):
            raise TypeError(f"findings_table takes Finding objects, got {type(f).__name__}.")
    frame = pd.DataFrame([{"claim": f.claim, "test": f.test, "evidence": f.evidence, "verdict": f.verdict}
                          for f in findings])
    frame.index = pd.RangeIndex(1, len(findings) + 1, name="#")
    return frame
