"""Registry record of DPFR (Paper 4), collected by :mod:`recfair.registry`; this module never imports it.

DPFR is asked for by name like every measure, for a run that has ``relevant`` and ``history``
(the test split the frontier is built from)::

    rf.evaluate(top_k, n_items=n, measures="DPFR", relevant=test, history=train_val,
                rel="NDCG", fair="Ent_our", fairness_weight=0.5)

The frontier is generated from ``history`` and ``relevant`` with :func:`recfair.pareto.oracle2fair`
and kept in a small cache keyed by the split's content, so scoring many runs of the same test
split generates it once. To score against a frontier computed before (an estimated one, or one
saved to disk), pass it as ``frontier=table``.

>>> [s.key for s in RECORDS]
['DPFR']
"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict

import numpy as np

from .. import relevance as _relevance
from .._validation import undefined
from ..item_exposure import RECORDS as _EXPOSURE_RECORDS
from ..spec import Computation, MeasureSpec
from . import generators as _gen
from . import measures as _pf

#: Part I's records by name: the frontier's fairness measure is computed by its record.
_EXPOSURE = {spec.key: spec for spec in _EXPOSURE_RECORDS}

__all__ = ["RECORDS", "frontier_for"]

_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 8
_REL_COMPUTE = {s.key: s.compute for s in _relevance.RECORDS}


def _digest(*matrices) -> str:
    h = hashlib.sha1()
    for mat in matrices:
        h.update(np.asarray(mat.indptr).tobytes())
        h.update(np.asarray(mat.indices).tobytes())
    return h.hexdigest()


def frontier_for(history, relevant, *, n_items: int, k: int, points=None):
    """:func:`~recfair.pareto.oracle2fair` of a validated test split, cached by its content (8 splits kept).

    Parameters
    ----------
    history, relevant : item sets (validated, CSR)
        The run's history and relevant items.
    n_items : int
        Catalogue size.
    k : int
        The list length.
    points : int, optional
        As in :func:`~recfair.pareto.oracle2fair`.

    Returns
    -------
    pandas.DataFrame
        The frontier table of :func:`~recfair.pareto.oracle2fair`.

    Examples
    --------
    >>> from recfair.run import Run
    >>> run = Run([[0, 1], [2, 3], [0, 4]], 5, relevant=[[0, 1], [1, 2, 3], [0]], history=[[3], [0], [1]])
    >>> frontier_for(run.history, run.relevant, n_items=5, k=2) is frontier_for(run.history, run.relevant, n_items=5, k=2)
    True
    """
    key = (_digest(history, relevant), int(n_items), int(k), points)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    table = _gen.oracle2fair(history, relevant, n_items=n_items, k=k, points=points)
    _CACHE[key] = table
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return table


def _compute(run, *, on_undefined="warn", rel="NDCG", fair="Ent_our", fairness_weight=0.5, index_range="full",
             points=None, frontier=None):
    if rel not in _gen.REL_MEASURES or fair not in _gen.FAIR_MEASURES:
        raise ValueError(f"DPFR pairs a relevance measure ({', '.join(_gen.REL_MEASURES)}) with a fairness measure "
                         f"({', '.join(_gen.FAIR_MEASURES)}); got rel={rel!r}, fair={fair!r}.")
    if frontier is None:
        table = frontier_for(run.history, run.relevant, n_items=run.n_items, k=run.k, points=points)
    else:
        table = frontier
        shape = {name: table.attrs.get(name) for name in ("n_users", "n_items", "k")}
        if shape != {"n_users": run.n_users, "n_items": run.n_items, "k": run.k}:
            raise ValueError(f"the frontier was built for {shape}, but the run has n_users={run.n_users}, "
                             f"n_items={run.n_items}, k={run.k}: score a run against the frontier of its own test split.")
    rel_score = _REL_COMPUTE[rel](run, on_undefined=on_undefined)
    fair_score = _EXPOSURE[fair].compute(run, on_undefined=on_undefined)
    if not (math.isfinite(rel_score) and math.isfinite(fair_score)):
        return undefined("DPFR", f"the run's {rel} or {fair} is undefined", on_undefined)
    return _pf.dpfr(rel_score, fair_score, frontier=table, rel=rel, fair=fair, fairness_weight=fairness_weight,
                    index_range=index_range, on_undefined=on_undefined)


_FORMULA = (r"\mathrm{DPFR}_\alpha = d_E\bigl((\mathrm{Rel}, \mathrm{Fair}),\, s_\alpha\bigr),"
            r"\quad s_\alpha = x^{t'},\\ t' = \operatorname*{argmin}_{j}\,"
            r"\bigl|\mathrm{lenPF}(T^j) - \alpha\,\mathrm{lenPF}(P)\bigr|")

#: The Part III record (collected by :mod:`recfair.registry`).
RECORDS = (
    MeasureSpec(
        # the frontier walk: about km one-slot replacements of O(k) each, and up to n insertions
        computation=Computation("run", cost="O(k²m + n)", state="no: frontier"),
        key="DPFR", label="Distance to the Pareto frontier of fairness and relevance", symbol=r"\mathrm{DPFR}_\alpha",
        formula=_FORMULA, family="pareto", paper=4, version="single", higher_is_better=False,
        range=(0.0, math.sqrt(2)), needs=("top_k", "relevant", "history"), compute=_compute, func=_pf.dpfr,
        description="Euclidean distance from a run's (Rel, Fair) scores to the point of the empirical Pareto frontier "
                    "that weighs the two by fairness_weight (0.5: the frontier's midpoint); 0 = on the reference point.",
        reference="Rampisela et al. 2025 (WWW), thesis Ch. 5",
        undefined="the run's Rel or Fair score is undefined",
        options={"rel": "NDCG", "fair": "Ent_our", "fairness_weight": 0.5, "index_range": "full",
                 "points": None, "frontier": None},
        chapter="dpfr",
    ),
)
