"""One record per measure: the single source for ``evaluate``, docs, widgets, tests and tables.

Every measure of the thesis has exactly one :class:`MeasureSpec` in :data:`ALL_MEASURES`,
listed explicitly (no registering decorators, no import-time side effects).
``REGISTRY`` maps the canonical name (``"NDCG"``, ``"Jain_our"``, ...) to its record.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np
import pandas as pd

from . import relevance as _rel

__all__ = ["Bounds", "MeasureSpec", "ALL_MEASURES", "REGISTRY", "get", "names", "table"]


@dataclass(frozen=True)
class Bounds:
    """Ends of a range, named by fairness (or effectiveness), never by min/max."""

    most_unfair: float
    most_fair: float


@dataclass(frozen=True)
class MeasureSpec:
    """Everything known about one (measure, version).

    Attributes
    ----------
    key : canonical name used by :func:`recfair.evaluate` (e.g. ``"Jain_our"``).
    label, symbol : human name and LaTeX symbol.
    formula : the defining equation in LaTeX (rendered by the book; never retyped there).
    family : measure family = library module and book chapter group.
    paper : thesis paper (1-6) where the measure (version) is defined or studied.
    version : ``"original"``, ``"corrected"`` or ``"single"`` (no ori/our pair).
    higher_is_better : direction; for fairness measures "better" means fairer.
    range : theoretical range ``(low, high)`` of the formula.
    needs : run inputs required (names from :data:`recfair.run.INPUTS`).
    options : keyword parameters and their defaults.
    compute : ``compute(run, on_undefined=..., **options) -> float``.
    per_user : optional ``per_user(run, **options) -> ndarray (n_users,)``.
    func : the public function.
    achievable : optional ``achievable(m, n, k) -> Bounds`` (achievable most unfair / most fair).
    undefined : when the measure is undefined and what recfair then does.
    description : one-sentence description.
    reference : where the measure comes from.
    chapter : label of the book chapter that treats it.
    """

    key: str
    label: str
    symbol: str
    formula: str
    family: str
    paper: int
    version: str
    higher_is_better: bool
    range: tuple[float, float]
    needs: tuple[str, ...]
    compute: Callable
    func: Callable
    description: str
    reference: str
    undefined: str = "never"
    per_user: Callable | None = None
    options: dict = field(default_factory=dict)
    achievable: Callable | None = None
    chapter: str | None = None

    @property
    def direction(self) -> str:
        """``"↑"`` if higher is better (fairer), ``"↓"`` otherwise."""
        return "↑" if self.higher_is_better else "↓"

    def bounds(self, m: int, n: int, k: int) -> Bounds | None:
        """Achievable bounds at (m, n, k), or None where the thesis gives no closed form."""
        return None if self.achievable is None else self.achievable(m, n, k)


def _relevance_compute(name, kernel):
    def compute(run, *, on_undefined="warn"):
        return _rel._mean(name, kernel(run), on_undefined)

    return compute


_RELEVANCE_REF = "Thesis Ch. 2 §5 and RecBole's definitions (Zhao et al. 2021); @k, averaged over test users."
_NO_REL = "a user with no relevant item (0/0): NaN per user, so the mean follows on_undefined"


def _relevance(key, label, symbol, formula, kernel, func, description, undefined="a run with no users"):
    return MeasureSpec(
        key=key, label=label, symbol=symbol, formula=formula, family="relevance", paper=1,
        version="single", higher_is_better=True, range=(0.0, 1.0), needs=("top_k", "relevant"),
        compute=_relevance_compute(key, kernel), per_user=kernel, func=func,
        description=description, reference=_RELEVANCE_REF, undefined=undefined, chapter="data",
    )


RELEVANCE = (
    _relevance("HR", "Hit rate", r"\mathrm{HR@}k",
               r"\mathrm{HR@}k = \frac{1}{m}\sum_{u\in U}\mathbb{1}\bigl[R^k_u\cap R^*_u\neq\emptyset\bigr]",
               _rel._hr_per_user, _rel.hit_rate, "Share of users with at least one relevant item in the top-k."),
    _relevance("MRR", "Mean reciprocal rank", r"\mathrm{MRR@}k",
               r"\mathrm{MRR@}k = \frac{1}{m}\sum_{u\in U}\frac{1}{\min\{j\le k : r_{u,j}=1\}}",
               _rel._mrr_per_user, _rel.mrr, "Reciprocal rank of the first relevant item (0 without a hit)."),
    _relevance("P", "Precision", r"\mathrm{P@}k",
               r"\mathrm{P@}k = \frac{1}{m}\sum_{u\in U}\frac{|R^k_u\cap R^*_u|}{k}",
               _rel._precision_per_user, _rel.precision, "Relevant items in the top-k divided by k."),
    _relevance("R", "Recall", r"\mathrm{R@}k",
               r"\mathrm{R@}k = \frac{1}{m}\sum_{u\in U}\frac{|R^k_u\cap R^*_u|}{|R^*_u|}",
               _rel._recall_per_user, _rel.recall, "Relevant items in the top-k divided by the user's relevant items.",
               undefined=_NO_REL),
    _relevance("MAP", "Mean average precision", r"\mathrm{MAP@}k",
               r"\mathrm{MAP@}k = \frac{1}{m}\sum_{u\in U}\frac{1}{\min(|R^*_u|,k)}\sum_{j=1}^{k} r_{u,j}\,\mathrm{P@}j(u)",
               _rel._ap_per_user, _rel.average_precision, "Average of the precisions at the ranks of the hits.",
               undefined=_NO_REL),
    _relevance("NDCG", "Normalised discounted cumulative gain", r"\mathrm{NDCG@}k",
               r"\mathrm{NDCG@}k = \frac{1}{m}\sum_{u\in U}\frac{\sum_{j=1}^{k} r_{u,j}/\log_2(j+1)}"
               r"{\sum_{j=1}^{\min(|R^*_u|,k)} 1/\log_2(j+1)}",
               _rel._ndcg_per_user, _rel.ndcg, "Discounted hits relative to the best achievable for the user.",
               undefined=_NO_REL),
)

#: Every measure, in the thesis's order.
ALL_MEASURES: tuple[MeasureSpec, ...] = RELEVANCE

REGISTRY: dict[str, MeasureSpec] = {s.key: s for s in ALL_MEASURES}


def get(name: str) -> MeasureSpec:
    """The record of measure ``name``; a clear error lists the known names otherwise."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown measure {name!r}; known measures: {', '.join(REGISTRY)}.") from None


def names(family: str | None = None) -> list[str]:
    """Canonical names, optionally of one family, in registry order."""
    return [s.key for s in ALL_MEASURES if family is None or s.family == family]


def table(family: str | None = None) -> pd.DataFrame:
    """The registry as a DataFrame (one row per measure), for docs and the book."""
    rows = []
    for s in ALL_MEASURES:
        if family is not None and s.family != family:
            continue
        rows.append({
            "measure": s.key, "label": s.label, "family": s.family, "paper": s.paper,
            "version": s.version, "direction": s.direction,
            "range": f"[{_fmt(s.range[0])}, {_fmt(s.range[1])}]",
            "needs": ", ".join(s.needs), "options": ", ".join(f"{k}={v!r}" for k, v in s.options.items()),
            "undefined": s.undefined, "description": s.description,
        })
    return pd.DataFrame(rows).set_index("measure")


def _fmt(x: float) -> str:
    if np.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:g}"
