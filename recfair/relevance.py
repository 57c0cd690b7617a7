r"""Relevance (effectiveness) measures @k: HR, MRR, P, R, MAP, NDCG.

All six read a run's top-:math:`k` lists and each user's set of relevant items
:math:`R^*_u` (binary relevance), score every user, and average over the users given
(the thesis evaluates test users only). The conventions are the thesis's (RecBole's):

* :math:`\mathrm{P@}k` divides the hits by :math:`k`, :math:`\mathrm{R@}k` by :math:`|R^*_u|`;
* MAP and NDCG are normalised by :math:`\min(|R^*_u|, k)`, so a user with fewer than
  :math:`k` relevant items can still score 1;
* the DCG discount is :math:`1/\log_2(j+1)` at rank :math:`j`.

A user with no relevant item has no recall, MAP or NDCG (0/0); HR, MRR and P are 0 for
such a user. An undefined per-user value makes the mean undefined, handled by the
``on_undefined`` policy (warn and return NaN by default).
"""

from __future__ import annotations

import numpy as np

from ._validation import check_on_undefined, undefined
from .examination import dcg
from .run import Run
from .spec import Computation, MeasureSpec, mean_state

__all__ = ["hit_rate", "mrr", "precision", "recall", "average_precision", "ndcg", "per_user_from_hits",
           "per_user_effectiveness", "BASES"]


def _hits(run: Run) -> np.ndarray:
    return run.hits


def _hr_per_user(run: Run) -> np.ndarray:
    return _hits(run).any(axis=1).astype(np.float64)


def _mrr_per_user(run: Run) -> np.ndarray:
    hits = _hits(run)
    first = hits.argmax(axis=1)
    return np.where(hits.any(axis=1), 1.0 / (first + 1.0), 0.0)


def _precision_per_user(run: Run) -> np.ndarray:
    return _hits(run).sum(axis=1) / run.k


def _divide_or_nan(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    out = np.full(num.shape, np.nan)
    np.divide(num, den, out=out, where=den > 0)
    return out


def _recall_per_user(run: Run) -> np.ndarray:
    return _divide_or_nan(_hits(run).sum(axis=1).astype(np.float64), run.n_relevant.astype(np.float64))


def _ap_per_user(run: Run) -> np.ndarray:
    hits = _hits(run).astype(np.float64)
    precision_at_j = np.cumsum(hits, axis=1) / np.arange(1, run.k + 1)
    return _divide_or_nan((hits * precision_at_j).sum(axis=1), np.minimum(run.n_relevant, run.k).astype(np.float64))


def _discounts(k: int) -> np.ndarray:
    return dcg(np.arange(1, k + 1))


def _ndcg_per_user(run: Run) -> np.ndarray:
    disc = _discounts(run.k)
    dcg = _hits(run) @ disc
    ideal = np.concatenate([[0.0], np.cumsum(disc)])[np.minimum(run.n_relevant, run.k)]
    return _divide_or_nan(dcg, ideal)


def _mean(name: str, values: np.ndarray, on_undefined: str) -> float:
    missing = np.isnan(values)
    return mean_from_sum(name, float(values[~missing].sum()) if values.size else 0.0, n_users=values.size,
                         n_undefined=int(missing.sum()), on_undefined=on_undefined)


def mean_from_sum(name: str, total: float, *, n_users: int, n_undefined: int, on_undefined: str) -> float:
    """A relevance measure from the sum of its defined per-user values (what :class:`recfair.Accumulator` keeps).

    >>> mean_from_sum("P", 1.5, n_users=3, n_undefined=0, on_undefined="raise")
    0.5
    """
    check_on_undefined(on_undefined)
    if n_users == 0:
        return undefined(name, "there are no users", on_undefined)
    if n_undefined:
        return undefined(name, f"{int(n_undefined)} user(s) have no relevant item (0/0)", on_undefined)
    return float(total / n_users)


def per_user_from_hits(measure: str, hits, n_relevant) -> np.ndarray:
    """Per-user values of the relevance measure ``measure`` from hit flags alone.

    For callers that know where the relevant items sit without holding the lists, e.g. the
    Paper 4 frontier (:mod:`recfair.pareto`), which tabulates every hit pattern it can meet.

    Parameters
    ----------
    measure : {"HR", "MRR", "P", "R", "MAP", "NDCG"}
    hits : array-like of bool, shape (n_users, k)
        ``hits[u, j]``: is the item at rank ``j + 1`` of user ``u``'s list relevant?
    n_relevant : array-like of int, shape (n_users,)
        :math:`|R^*_u|`, each user's number of relevant items (0 gives NaN for R, MAP, NDCG).

    Examples
    --------
    >>> per_user_from_hits("MAP", [[True, False, True], [False, False, False]], [2, 4]).round(4).tolist()
    [0.8333, 0.0]
    """
    kernels = {"HR": _hr_per_user, "MRR": _mrr_per_user, "P": _precision_per_user, "R": _recall_per_user,
               "MAP": _ap_per_user, "NDCG": _ndcg_per_user}
    if measure not in kernels:
        raise ValueError(f"per_user_from_hits computes {', '.join(kernels)}; got {measure!r}.")
    hits = np.asarray(hits)
    if hits.ndim != 2 or hits.dtype != bool:
        raise TypeError(f"hits must be a 2-D boolean array (n_users, k), got {hits.dtype} with shape {hits.shape}.")
    n_relevant = np.asarray(n_relevant)
    if n_relevant.shape != (hits.shape[0],) or not np.issubdtype(n_relevant.dtype, np.integer):
        raise ValueError(f"n_relevant must be {hits.shape[0]} integers (one per row of hits).")
    if (n_relevant < hits.sum(axis=1)).any():
        raise ValueError("a user has more hits than relevant items.")

    class _Hits:                          # the three attributes the kernels read from a Run
        pass

    view = _Hits()
    view.hits, view.k, view.n_relevant = hits, hits.shape[1], n_relevant.astype(np.int64)
    return kernels[measure](view)


def _public(name: str, kernel, top_k, relevant, n_items, k, on_undefined) -> float:
    run = Run(top_k, n_items, k=k, relevant=relevant)
    return _mean(name, kernel(run), on_undefined)


def hit_rate(top_k, *, relevant, n_items, k=None, on_undefined="warn") -> float:
    r"""Hit rate @k: the share of users with at least one relevant item in their top-k.

    Higher is better. Range: [0, 1].

    .. math::

        \mathrm{HR@}k = \frac{1}{m}\sum_{u \in U} \mathbb{1}\bigl[R^k_u \cap R^*_u \neq \emptyset\bigr]

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, >= k)
        Each user's recommended items in rank order, 0-based indices in ``[0, n_items)``.
    relevant : sequence of sequences of int, or scipy.sparse matrix (n_users, n_items)
        Each user's relevant items :math:`R^*_u`.
    n_items : int
        Catalogue size :math:`n`.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        Policy when there are no users: NaN with a warning, NaN, or an error.

    Returns
    -------
    score : float
        In [0, 1]; 1 when every user gets a hit.

    Examples
    --------
    >>> hit_rate([[0, 1], [2, 3]], relevant=[[1], [4]], n_items=5)
    0.5
    """
    return _public("HR", _hr_per_user, top_k, relevant, n_items, k, on_undefined)


def mrr(top_k, *, relevant, n_items, k=None, on_undefined="warn") -> float:
    r"""Mean reciprocal rank @k of the first relevant item (0 for a user with no hit).

    Higher is better. Range: [0, 1].

    .. math::

        \mathrm{MRR@}k = \frac{1}{m}\sum_{u \in U} \frac{1}{\min\{j \le k : r_{u,j} = 1\}}

    Parameters are those of :func:`hit_rate`.

    Returns
    -------
    score : float
        In [0, 1].

    Examples
    --------
    >>> mrr([[0, 1], [2, 3]], relevant=[[1], [4]], n_items=5)
    0.25
    """
    return _public("MRR", _mrr_per_user, top_k, relevant, n_items, k, on_undefined)


def precision(top_k, *, relevant, n_items, k=None, on_undefined="warn") -> float:
    r"""Precision @k: relevant items in the top-k, divided by k.

    Higher is better. Range: [0, 1].

    .. math::

        \mathrm{P@}k = \frac{1}{m}\sum_{u \in U} \frac{|R^k_u \cap R^*_u|}{k}

    Parameters are those of :func:`hit_rate`.

    Returns
    -------
    score : float
        In [0, 1]; 1 only if every user has at least k relevant items.

    Examples
    --------
    >>> precision([[0, 1], [2, 3]], relevant=[[0, 1], [4]], n_items=5)
    0.5
    """
    return _public("P", _precision_per_user, top_k, relevant, n_items, k, on_undefined)


def recall(top_k, *, relevant, n_items, k=None, on_undefined="warn") -> float:
    r"""Recall @k: relevant items in the top-k, divided by the user's number of relevant items.

    Higher is better. Range: [0, 1].

    .. math::

        \mathrm{R@}k = \frac{1}{m}\sum_{u \in U} \frac{|R^k_u \cap R^*_u|}{|R^*_u|}

    Parameters are those of :func:`hit_rate`; ``on_undefined`` also applies when a user
    has no relevant item (0/0).

    Returns
    -------
    score : float
        In [0, 1]; 1 only if no user has more than k relevant items.

    Examples
    --------
    >>> recall([[0, 1], [2, 3]], relevant=[[0, 4], [2]], n_items=5)
    0.75
    >>> recall([[0, 1]], relevant=[[]], n_items=5, on_undefined="nan")
    nan
    """
    return _public("R", _recall_per_user, top_k, relevant, n_items, k, on_undefined)


def average_precision(top_k, *, relevant, n_items, k=None, on_undefined="warn") -> float:
    r"""Mean average precision @k, normalised by :math:`\min(|R^*_u|, k)`.

    Higher is better. Range: [0, 1].

    .. math::

        \mathrm{MAP@}k = \frac{1}{m}\sum_{u \in U} \frac{1}{\min(|R^*_u|, k)}
        \sum_{j=1}^{k} r_{u,j}\, \mathrm{P@}j(u)

    Parameters are those of :func:`hit_rate`; ``on_undefined`` also applies when a user
    has no relevant item.

    Returns
    -------
    score : float
        In [0, 1].

    Examples
    --------
    >>> average_precision([[0, 1, 2]], relevant=[[1, 2]], n_items=5)  # (1/2 + 2/3) / 2
    0.5833333333333333
    """
    return _public("MAP", _ap_per_user, top_k, relevant, n_items, k, on_undefined)


def ndcg(top_k, *, relevant, n_items, k=None, on_undefined="warn") -> float:
    r"""Normalised discounted cumulative gain @k with binary gains and a log2 discount.

    Higher is better. Range: [0, 1].

    .. math::

        \mathrm{NDCG@}k = \frac{1}{m}\sum_{u \in U}
        \frac{\sum_{j=1}^{k} r_{u,j} / \log_2(j+1)}{\sum_{j=1}^{\min(|R^*_u|, k)} 1/\log_2(j+1)}

    Parameters are those of :func:`hit_rate`; ``on_undefined`` also applies when a user
    has no relevant item.

    Returns
    -------
    score : float
        In [0, 1].

    Examples
    --------
    >>> round(ndcg([[0, 1, 2]], relevant=[[1, 2]], n_items=5), 6)  # (1/log2(3) + 1/2) / (1 + 1/log2(3))
    0.693426
    """
    return _public("NDCG", _ndcg_per_user, top_k, relevant, n_items, k, on_undefined)


# --------------------------------------------------------------------------- registry records

def _relevance_compute(name, kernel):
    def compute(run, *, on_undefined="warn"):
        return _mean(name, kernel(run), on_undefined)

    return compute


_RELEVANCE_REF = "Thesis Ch. 2 §5 and RecBole's definitions (Zhao et al. 2021); @k, averaged over test users."
_NO_REL = "a user with no relevant item (0/0): NaN per user, so the mean follows on_undefined"


def _relevance_computation(name, kernel) -> Computation:
    def partial(run, *, weights=None):
        return mean_state(kernel(run), weights=weights)

    def finish(state, *, on_undefined="warn"):
        return mean_from_sum(name, state["sum"].value, n_users=state["users"],
                             n_undefined=state["users"] - state["defined"], on_undefined=on_undefined)

    return Computation("per_user", partial=partial, finish=finish, cost="O(mk)", state="a sum, 2 counts")


def _relevance(key, label, symbol, formula, kernel, func, description, undefined="a run with no users"):
    return MeasureSpec(
        computation=_relevance_computation(key, kernel),
        key=key, label=label, symbol=symbol, formula=formula, family="relevance", paper=1,
        version="single", higher_is_better=True, range=(0.0, 1.0), needs=("top_k", "relevant"),
        compute=_relevance_compute(key, kernel), per_user=kernel, func=func,
        description=description, reference=_RELEVANCE_REF, undefined=undefined, chapter="data",
    )


#: The relevance measures' registry records (collected by :mod:`recfair.registry`).
RECORDS = (
    _relevance("HR", "Hit rate", r"\mathrm{HR@}k",
               r"\mathrm{HR@}k = \frac{1}{m}\sum_{u\in U}\mathbb{1}\bigl[R^k_u\cap R^*_u\neq\emptyset\bigr]",
               _hr_per_user, hit_rate, "Share of users with at least one relevant item in the top-k."),
    _relevance("MRR", "Mean reciprocal rank", r"\mathrm{MRR@}k",
               r"\mathrm{MRR@}k = \frac{1}{m}\sum_{u\in U}\frac{1}{\min\{j\le k : r_{u,j}=1\}}",
               _mrr_per_user, mrr, "Reciprocal rank of the first relevant item (0 without a hit)."),
    _relevance("P", "Precision", r"\mathrm{P@}k",
               r"\mathrm{P@}k = \frac{1}{m}\sum_{u\in U}\frac{|R^k_u\cap R^*_u|}{k}",
               _precision_per_user, precision, "Relevant items in the top-k divided by k."),
    _relevance("R", "Recall", r"\mathrm{R@}k",
               r"\mathrm{R@}k = \frac{1}{m}\sum_{u\in U}\frac{|R^k_u\cap R^*_u|}{|R^*_u|}",
               _recall_per_user, recall, "Relevant items in the top-k divided by the user's relevant items.",
               undefined=_NO_REL),
    _relevance("MAP", "Mean average precision", r"\mathrm{MAP@}k",
               r"\mathrm{MAP@}k = \frac{1}{m}\sum_{u\in U}\frac{1}{\min(|R^*_u|,k)}\sum_{j=1}^{k} r_{u,j}\,\mathrm{P@}j(u)",
               _ap_per_user, average_precision, "Average of the precisions at the ranks of the hits.",
               undefined=_NO_REL),
    _relevance("NDCG", "Normalised discounted cumulative gain", r"\mathrm{NDCG@}k",
               r"\mathrm{NDCG@}k = \frac{1}{m}\sum_{u\in U}\frac{\sum_{j=1}^{k} r_{u,j}/\log_2(j+1)}"
               r"{\sum_{j=1}^{\min(|R^*_u|,k)} 1/\log_2(j+1)}",
               _ndcg_per_user, ndcg, "Discounted hits relative to the best achievable for the user.",
               undefined=_NO_REL),
)


# --------------------------------------------------------------------------- per-user effectiveness

#: The per-user relevance measures that can serve as a user's effectiveness S(u) (``base=``).
BASES = {s.key: s.per_user for s in RECORDS if s.per_user is not None}


def per_user_effectiveness(run: Run, *, base: str = "NDCG") -> np.ndarray:
    """Effectiveness S(u) of every user of a run: the per-user values of relevance measure ``base``.

    The user-fairness measures of Parts IV and V take this vector (``effectiveness``); a user
    whose value is undefined (recall, MAP or NDCG without a relevant item) gets NaN.

    Parameters
    ----------
    run : recfair.run.Run
        A validated run with relevant items.
    base : {"HR", "MRR", "P", "R", "MAP", "NDCG"}, default="NDCG"
        The relevance measure giving each user's effectiveness.

    Returns
    -------
    numpy.ndarray of float, shape (n_users,)

    Examples
    --------
    >>> per_user_effectiveness(Run([[0, 1], [2, 3]], 4, relevant=[[1], [0]]), base="P").tolist()
    [0.5, 0.0]
    """
    if not isinstance(base, str) or base not in BASES:
        raise ValueError(f"base must be a per-user relevance measure ({', '.join(BASES)}); got {base!r}.")
    return np.asarray(BASES[base](run), dtype=np.float64)


def effectiveness_computation(key: str, hook, *, grouped: bool, whole: bool) -> Computation:
    """How a measure of per-user effectiveness S(u) is computed in blocks: gather S(u) (and the attribute rows
    when ``grouped``), then apply ``hook`` (the record's ``from_effectiveness``) to all of it.

    ``whole``: a user with an undefined S(u) makes the measure undefined before ``hook`` sees it
    (Part V), else ``hook`` decides.
    """
    def partial(run, *, weights=None, base="NDCG", attributes=None):
        if weights is not None:
            raise ValueError(f"{key} gathers each user's effectiveness; user weights are not supported.")
        state = {"values": [per_user_effectiveness(run, base=base)]}
        if grouped:
            import pandas as pd

            frame = run.user_attributes
            state["attributes"] = [frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame)]
        return state

    def finish(state, *, on_undefined="warn", base="NDCG", attributes=None, **options):
        scores = np.concatenate(state["values"]) if state["values"] else np.zeros(0)
        if whole and np.isnan(scores).any():
            return undefined(key, f"{int(np.isnan(scores).sum())} user(s) have an undefined {base} "
                             "(no relevant item)", on_undefined)
        if not grouped:
            return hook(scores, on_undefined=on_undefined, **options)
        import pandas as pd

        frame = pd.concat(state["attributes"], ignore_index=True) if state["attributes"] else pd.DataFrame()
        if attributes is not None:
            columns = [attributes] if isinstance(attributes, str) else list(attributes)
            missing = [c for c in columns if c not in frame.columns]
            if missing or not columns:
                raise ValueError(f"attributes must name columns of user_attributes {list(frame.columns)}; "
                                 f"got {attributes!r}.")
            frame = frame[columns]
        return hook(scores, groups=frame, on_undefined=on_undefined, **options)

    return Computation("per_user", partial=partial, finish=finish, cost="O(mk)",
                       state="S(u)" + (", groups" if grouped else ""))
