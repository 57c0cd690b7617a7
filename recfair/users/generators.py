r"""The synthetic studies of Paper 5 (thesis Ch. 6; the book's Part IV experiments chapter): runs and similarities.

* :func:`relevance_steps`: every user starts with a list of relevant items (filled with
  irrelevant ones when a user has fewer than ``k``); at each step another 10 % of the users
  (a fixed random order, cumulative) get all-irrelevant lists, from 0 % to 100 %.
* :func:`synthetic_similarity`: pairwise similarities drawn from a Weibull distribution of shape
  :math:`\lambda` (:data:`WEIBULL_SHAPES`) or from N(0, 1), min-max scaled to [0, 1] and assigned
  to the unordered pairs at random.
* :func:`extreme_similarity`: the same values assigned by sorted effectiveness gap:
  ``"most_fair"`` gives the highest similarities to the smallest gaps, ``"most_unfair"`` to the
  largest.
* :func:`gamma_similarity`: Wu et al.'s :math:`\mathrm{sim}_{UF} = \gamma\,\mathrm{sim}_{Jacc} + (1-\gamma)\,\mathrm{sim}_{JS}`
  mixing interactions with item features (genres), for :data:`GAMMAS`.
* :func:`puf_extreme_cases`: effectiveness profiles and similarities at PUF's two ends
  (:mod:`recfair.users.derivations`).

Every function with randomness takes ``seed`` (an int, a Generator or None).

>>> steps = relevance_steps([[0, 1], [2], [3, 4, 5]], n_items=8, k=2, seed=0)
>>> [share for share, _ in steps][:3], steps[0][1].shape
([0.0, 0.1, 0.2], (3, 2))
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_effectiveness, check_item_sets, check_positive_int, check_seed
from .similarity import UserSimilarity, genre_distributions, sim_js

__all__ = ["WEIBULL_SHAPES", "GAMMAS", "relevant_lists", "irrelevant_lists", "relevance_steps", "weibull_skewness",
           "pair_values_to_matrix", "synthetic_values", "synthetic_similarity", "extreme_similarity", "gamma_similarity",
           "puf_extreme_cases"]

#: The Weibull shapes of the similarity study (thesis Ch. 6); N(0, 1) is added as ``"normal"``.
WEIBULL_SHAPES = (0.5, 1.0, 2.0, 5.0, 10.0, 50.0)
#: The weights of sim_Jacc in sim_UF of the item-feature study (thesis Ch. 6).
GAMMAS = (0.0, 0.25, 0.5, 0.75, 1.0)


def _sets(relevant, history, n_items):
    m = relevant.shape[0] if hasattr(relevant, "shape") else len(relevant)
    rel = check_item_sets(relevant, n_users=m, n_items=n_items, name="relevant")
    hist = None if history is None else check_item_sets(history, n_users=m, n_items=n_items, name="history")
    return rel, hist


def _draw(rng, candidates, size, u, what):
    if candidates.size < size:
        raise ValueError(f"user {u} has only {candidates.size} {what} items to draw {size} from.")
    return rng.choice(candidates, size, replace=False)


def _irrelevant_to(u, rel, hist, everything) -> np.ndarray:
    """The items that user ``u`` neither finds relevant nor has in its history."""
    banned = rel.indices[rel.indptr[u]:rel.indptr[u + 1]]
    if hist is not None:
        banned = np.union1d(banned, hist.indices[hist.indptr[u]:hist.indptr[u + 1]])
    return np.setdiff1d(everything, banned)


def relevant_lists(relevant, *, n_items: int, k: int, history=None, seed=None) -> np.ndarray:
    r"""Each user's best list: ``k`` random relevant items, or all of them plus random irrelevant ones.

    The first step of the relevance study (thesis Ch. 6). Irrelevant fillers avoid the user's
    relevant and history items, so each list holds :math:`\min(k, |R_u|)` relevant items (P@k at
    its largest, :math:`\min(k, |R_u|)/k`).

    Parameters
    ----------
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items.
    n_items : int
        Catalogue size.
    k : int
        Length of each list.
    history : sequences of int or scipy.sparse (m, n_items), optional
        Items never recommended (each user's train items).
    seed : int, numpy.random.Generator or None
        The randomness.

    Returns
    -------
    numpy.ndarray of int64, shape (m, k)

    Examples
    --------
    >>> int(relevant_lists([[0, 1, 2], [3]], n_items=6, k=2, seed=0)[1][0])
    3
    """
    rng = check_seed(seed)
    k = check_positive_int(k, "k")
    rel, hist = _sets(relevant, history, n_items)
    out = np.empty((rel.shape[0], k), dtype=np.int64)
    everything = np.arange(n_items)
    for u in range(rel.shape[0]):
        mine = rel.indices[rel.indptr[u]:rel.indptr[u + 1]]
        if mine.size >= k:
            out[u] = rng.choice(mine, k, replace=False)
            continue
        fill = _draw(rng, _irrelevant_to(u, rel, hist, everything), k - mine.size, u, "irrelevant")
        out[u] = np.concatenate([rng.permutation(mine), fill])
    return out


def irrelevant_lists(relevant, *, n_items: int, k: int, history=None, seed=None) -> np.ndarray:
    r"""Each user's list of ``k`` random items that are neither relevant to them nor in their history.

    Every list has effectiveness 0 (:math:`L_u \cap R_u = \emptyset`).

    Parameters
    ----------
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items.
    n_items : int
        Catalogue size.
    k : int
        Length of each list.
    history : sequences of int or scipy.sparse (m, n_items), optional
        Items never recommended (each user's train items).
    seed : int, numpy.random.Generator or None
        The randomness.

    Returns
    -------
    numpy.ndarray of int64, shape (m, k)

    Examples
    --------
    >>> bool(np.isin(irrelevant_lists([[0, 1]], n_items=5, k=3, seed=0), [0, 1]).any())
    False
    """
    rng = check_seed(seed)
    k = check_positive_int(k, "k")
    rel, hist = _sets(relevant, history, n_items)
    out = np.empty((rel.shape[0], k), dtype=np.int64)
    everything = np.arange(n_items)
    for u in range(rel.shape[0]):
        out[u] = _draw(rng, _irrelevant_to(u, rel, hist, everything), k, u, "irrelevant")
    return out


def relevance_steps(relevant, *, n_items: int, k: int, history=None, step: float = 0.1,
                    seed=None) -> list[tuple[float, np.ndarray]]:
    r"""The relevance study's runs (thesis Ch. 6): ``[(share of users at zero relevance, top_k), ...]``, 0 to 1.

    The users are put in one random order; at step ``j`` the first ``round(j * step * m)`` of them
    get all-irrelevant lists (cumulative: a user once zeroed stays zeroed), the others keep
    their best list. With ``step=0.1`` there are 11 runs; the share runs over
    :math:`\{0, \text{step}, 2\,\text{step}, \dots, 1\}`.

    Parameters
    ----------
    relevant : sequences of int or scipy.sparse (m, n_items)
        Each user's relevant (test) items.
    n_items : int
        Catalogue size.
    k : int
        Length of each list.
    history : sequences of int or scipy.sparse (m, n_items), optional
        Items never recommended (each user's train items).
    seed : int, numpy.random.Generator or None
        The randomness.
    step : float in (0, 1], default=0.1
        The share of users zeroed at each step.

    Returns
    -------
    list of (float, numpy.ndarray)
        ``(share, top_k)`` pairs, ``top_k`` of shape (m, k).

    Examples
    --------
    >>> runs = relevance_steps([[0], [1], [2], [3]], n_items=10, k=1, step=0.5, seed=1)
    >>> [(s, int((top == [[0], [1], [2], [3]]).sum())) for s, top in runs]
    [(0.0, 4), (0.5, 2), (1.0, 0)]
    """
    rng = check_seed(seed)
    if not 0 < step <= 1:
        raise ValueError(f"step must be in (0, 1], got {step!r}.")
    best = relevant_lists(relevant, n_items=n_items, k=k, history=history, seed=rng)
    worst = irrelevant_lists(relevant, n_items=n_items, k=k, history=history, seed=rng)
    m = best.shape[0]
    order = rng.permutation(m)
    n_steps = int(round(1 / step))
    runs = []
    for j in range(n_steps + 1):
        share = min(round(j * step, 10), 1.0)
        top = best.copy()
        zero = order[: int(round(share * m))]
        top[zero] = worst[zero]
        runs.append((share, top))
    return runs


def weibull_skewness(shape: float) -> float:
    r"""Skewness of the Weibull distribution with this shape (scale 1; unchanged by min-max scaling).

    .. math:: \frac{\Gamma_3 - 3\Gamma_1\Gamma_2 + 2\Gamma_1^3}{(\Gamma_2 - \Gamma_1^2)^{3/2}}, \quad \Gamma_i = \Gamma(1 + i/\lambda)

    Range: :math:`(-1.14, \infty)` over the shapes (about 0 near :math:`\lambda = 3.6`).

    Parameters
    ----------
    shape : float > 0
        The Weibull shape :math:`\lambda`.

    Returns
    -------
    float

    Examples
    --------
    >>> round(weibull_skewness(1.0), 2), round(weibull_skewness(0.5), 2)
    (2.0, 6.62)
    """
    g1, g2, g3 = (math.gamma(1 + i / shape) for i in (1, 2, 3))
    return (g3 - 3 * g1 * g2 + 2 * g1 ** 3) / (g2 - g1 ** 2) ** 1.5


def pair_values_to_matrix(values, *, n_users: int) -> np.ndarray:
    r"""Symmetric ``(m, m)`` matrix with ``values`` on the unordered pairs (row-major upper triangle), diagonal 1.

    .. math:: S[u, u'] = S[u', u] = v_{p(u, u')},\quad u < u',\qquad S[u, u] = 1

    Parameters
    ----------
    values : array-like of float, shape (m (m - 1) / 2,)
        One value per unordered pair, row-major over the upper triangle.
    n_users : int
        The number of users :math:`m`.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)

    Examples
    --------
    >>> pair_values_to_matrix([0.1, 0.2, 0.3], n_users=3).tolist()
    [[1.0, 0.1, 0.2], [0.1, 1.0, 0.3], [0.2, 0.3, 1.0]]
    """
    m = check_positive_int(n_users, "n_users", minimum=2)
    values = np.asarray(values, dtype=np.float64)
    if values.size != m * (m - 1) // 2:
        raise ValueError(f"{m} users have {m * (m - 1) // 2} pairs; got {values.size} values.")
    out = np.zeros((m, m))
    rows, cols = np.triu_indices(m, 1)
    out[rows, cols] = values
    out[cols, rows] = values
    np.fill_diagonal(out, 1.0)
    return out


def _minmax(values):
    lo, hi = values.min(), values.max()
    return (values - lo) / (hi - lo) if hi > lo else np.ones_like(values)


def synthetic_values(n_pairs: int, *, distribution: str = "weibull", shape: float = 2.0, seed=None) -> np.ndarray:
    r"""``n_pairs`` similarities from Weibull(``shape``) or N(0, 1) (``distribution="normal"``), min-max scaled to [0, 1].

    .. math:: v = \frac{x - \min x}{\max x - \min x}

    Range: [0, 1] (both ends reached).

    Parameters
    ----------
    n_pairs : int
        How many values.
    distribution : {"weibull", "normal"}, default="weibull"
        The distribution drawn from.
    shape : float > 0, default=2.0
        The Weibull shape :math:`\lambda` (ignored for ``"normal"``).
    seed : int, numpy.random.Generator or None
        The randomness.

    Returns
    -------
    numpy.ndarray of float, shape (n_pairs,)

    Examples
    --------
    >>> v = synthetic_values(1000, shape=0.5, seed=0)
    >>> float(v.min()), float(v.max())
    (0.0, 1.0)
    """
    rng = check_seed(seed)
    if distribution == "weibull":
        if not shape > 0:
            raise ValueError(f"the Weibull shape must be > 0, got {shape!r}.")
        raw = rng.weibull(shape, size=n_pairs)
    elif distribution == "normal":
        raw = rng.standard_normal(n_pairs)
    else:
        raise ValueError(f"distribution must be 'weibull' or 'normal', got {distribution!r}.")
    return _minmax(raw)


def synthetic_similarity(n_users: int, *, distribution: str = "weibull", shape: float = 2.0, seed=None) -> np.ndarray:
    """A random ``(m, m)`` similarity for the similarity study (thesis Ch. 6): i.i.d. values, min-max scaled, random pairs.

    The values of :func:`synthetic_values` placed on the unordered pairs (:func:`pair_values_to_matrix`).
    Range: [0, 1], diagonal 1.

    Parameters
    ----------
    n_users : int >= 2
        The number of users :math:`m`.
    distribution, shape, seed
        As in :func:`synthetic_values`.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)

    Examples
    --------
    >>> s = synthetic_similarity(5, distribution="weibull", shape=2.0, seed=0)
    >>> s.shape, bool((s == s.T).all()), float(np.diag(s).min())
    ((5, 5), True, 1.0)
    """
    m = check_positive_int(n_users, "n_users", minimum=2)
    values = synthetic_values(m * (m - 1) // 2, distribution=distribution, shape=shape, seed=seed)
    return pair_values_to_matrix(values, n_users=m)


def extreme_similarity(effectiveness, values, *, mode: str = "most_fair") -> np.ndarray:
    """Assign similarity ``values`` to the pairs by sorted effectiveness gap |S(u) - S(u')| (thesis Ch. 6).

    ``"most_fair"``: the highest similarities go to the smallest gaps; ``"most_unfair"``: to the
    largest. Ties among equal gaps keep the pairs' row-major order (the paper leaves them open).
    For a fixed multiset of values this gives PUF's smallest (``"most_fair"``) and largest
    (``"most_unfair"``) value (rearrangement inequality). Range: the values', diagonal 1.

    Parameters
    ----------
    effectiveness : array-like of float, shape (m,)
        :math:`S(u)` per user.
    values : array-like of float, shape (m (m - 1) / 2,)
        The similarities to place.
    mode : {"most_fair", "most_unfair"}, default="most_fair"
        Which end.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)

    Examples
    --------
    >>> extreme_similarity([0.0, 1.0, 0.0], [0.1, 0.5, 0.9], mode="most_fair").round(1).tolist()
    [[1.0, 0.5, 0.9], [0.5, 1.0, 0.1], [0.9, 0.1, 1.0]]
    """
    s = check_effectiveness(effectiveness, allow_nan=False, min_users=2, measure="extreme_similarity")
    m = s.size
    rows, cols = np.triu_indices(m, 1)
    vals = np.sort(np.asarray(values, dtype=np.float64))
    if vals.size != rows.size:
        raise ValueError(f"{m} users have {rows.size} pairs; got {vals.size} similarity values.")
    if mode not in ("most_fair", "most_unfair"):
        raise ValueError(f"mode must be 'most_fair' or 'most_unfair', got {mode!r}.")
    by_gap = np.argsort(np.abs(s[rows] - s[cols]), kind="stable")
    assigned = np.empty_like(vals)
    assigned[by_gap] = vals[::-1] if mode == "most_fair" else vals
    return pair_values_to_matrix(assigned, n_users=m)


def gamma_similarity(history, item_features, *, gamma: float, n_items: int | None = None) -> np.ndarray:
    r"""Dense :math:`\mathrm{sim}_{UF} = \gamma\,\mathrm{sim}_{Jacc} + (1-\gamma)\,\mathrm{sim}_{JS}` (thesis Ch. 6), raw.

    .. math:: \mathrm{sim}_{UF} = \gamma\,\mathrm{sim}_{Jacc} + (1-\gamma)\,\mathrm{sim}_{JS}

    Each user's feature distribution is the normalised sum of the feature rows of their history.
    Range: [0, 1].

    Parameters
    ----------
    history : sequences of int or scipy.sparse (m, n_items)
        Each user's history items.
    item_features : array-like, shape (n_items, d)
        Non-negative item features (e.g. multi-hot genres).
    gamma : float in [0, 1]
        The weight of the Jaccard similarity.
    n_items : int, optional
        Catalogue size (default: the rows of ``item_features``).

    Returns
    -------
    numpy.ndarray of float, shape (m, m)

    Examples
    --------
    >>> gamma_similarity([[0], [1]], [[1, 0], [0, 1]], gamma=0.5).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    if not 0 <= gamma <= 1:
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}.")
    n_items = np.asarray(item_features).shape[0] if n_items is None else n_items
    jac = UserSimilarity.from_history(history, similarity="jaccard", n_items=n_items).dense()
    if gamma == 1:
        return jac
    return np.clip(gamma * jac + (1 - gamma) * sim_js(genre_distributions(history, item_features, n_items=n_items)),
                   0.0, 1.0)


def puf_extreme_cases(m: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    r"""Effectiveness profiles and similarities at PUF's ends: ``{case: (effectiveness, similarity)}``.

    * ``"most_unfair"``: every similarity 1, ``floor(m/2)`` users at 1 and the rest at 0
      (the maximum of :func:`recfair.users.derivations.puf_most_unfair`);
    * ``"most_fair_equal_scores"``: every similarity 1, every user at 0.5 (PUF 0);
    * ``"most_fair_dissimilar"``: the same two-level effectiveness, every similarity 0 (PUF 0);
    * ``"most_fair_similar_equal"``: similarity 1 only within the two effectiveness levels (PUF 0).

    At the most unfair end PUF is :math:`\lfloor m/2\rfloor\lceil m/2\rceil / \binom m2`.

    Parameters
    ----------
    m : int >= 2
        The number of users.

    Returns
    -------
    dict of str to (numpy.ndarray, numpy.ndarray)
        Effectiveness of shape (m,) and similarity of shape (m, m) per case.

    Examples
    --------
    >>> from recfair.users import puf
    >>> effectiveness, sim = puf_extreme_cases(4)["most_unfair"]
    >>> round(puf(effectiveness, similarity=sim), 4)
    0.6667
    """
    m = check_positive_int(m, "m", minimum=2)
    top = np.zeros(m)
    top[: m // 2] = 1.0
    ones = np.ones((m, m))
    zeros = np.eye(m)
    same = (top[:, None] == top[None, :]).astype(float)
    return {
        "most_unfair": (top, ones),
        "most_fair_equal_scores": (np.full(m, 0.5), ones),
        "most_fair_dissimilar": (top.copy(), zeros),
        "most_fair_similar_equal": (top.copy(), same),
    }
