r"""The synthetic studies of Paper 5 (thesis Ch. 6, §5.3-5.7; p5.md §5): runs and similarities.

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

from .._validation import check_item_sets, check_positive_int, check_seed
from .similarity import UserSimilarity, genre_distributions, sim_js

__all__ = ["WEIBULL_SHAPES", "GAMMAS", "relevant_lists", "irrelevant_lists", "relevance_steps", "weibull_skewness",
           "pair_values_to_matrix", "synthetic_values", "synthetic_similarity", "extreme_similarity", "gamma_similarity",
           "puf_extreme_cases"]

#: The Weibull shapes of the similarity study (thesis line 5868); N(0, 1) is added as ``"normal"``.
WEIBULL_SHAPES = (0.5, 1.0, 2.0, 5.0, 10.0, 50.0)
#: The weights of sim_Jacc in sim_UF of the item-feature study (§5.7).
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


def relevant_lists(relevant, n_items: int, k: int, *, history=None, seed=None) -> np.ndarray:
    """Each user's best list: ``k`` random relevant items, or all of them plus random irrelevant ones (§5.3 step 1).

    Irrelevant fillers avoid the user's relevant and history items. Returns ``(m, k)`` int.

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


def irrelevant_lists(relevant, n_items: int, k: int, *, history=None, seed=None) -> np.ndarray:
    """Each user's list of ``k`` random items that are neither relevant to them nor in their history.

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


def relevance_steps(relevant, n_items: int, k: int, *, history=None, step: float = 0.1,
                    seed=None) -> list[tuple[float, np.ndarray]]:
    """The relevance study's runs (§5.3): ``[(share of users at zero relevance, top_k), ...]`` from 0 to 1.

    The users are put in one random order; at step ``j`` the first ``round(j * step * m)`` of them
    get all-irrelevant lists (cumulative: a user once zeroed stays zeroed), the others keep
    their best list. With ``step=0.1`` there are 11 runs.

    >>> runs = relevance_steps([[0], [1], [2], [3]], n_items=10, k=1, step=0.5, seed=1)
    >>> [(s, int((top == [[0], [1], [2], [3]]).sum())) for s, top in runs]
    [(0.0, 4), (0.5, 2), (1.0, 0)]
    """
    rng = check_seed(seed)
    if not 0 < step <= 1:
        raise ValueError(f"step must be in (0, 1], got {step!r}.")
    best = relevant_lists(relevant, n_items, k, history=history, seed=rng)
    worst = irrelevant_lists(relevant, n_items, k, history=history, seed=rng)
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

    >>> round(weibull_skewness(1.0), 2), round(weibull_skewness(0.5), 2)
    (2.0, 6.62)
    """
    g1, g2, g3 = (math.gamma(1 + i / shape) for i in (1, 2, 3))
    return (g3 - 3 * g1 * g2 + 2 * g1 ** 3) / (g2 - g1 ** 2) ** 1.5


def pair_values_to_matrix(values, m: int) -> np.ndarray:
    """Symmetric ``(m, m)`` matrix with ``values`` on the unordered pairs (row-major upper triangle), diagonal 1.

    >>> pair_values_to_matrix([0.1, 0.2, 0.3], 3).tolist()
    [[1.0, 0.1, 0.2], [0.1, 1.0, 0.3], [0.2, 0.3, 1.0]]
    """
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


def synthetic_values(n_pairs: int, distribution="weibull", shape: float = 2.0, *, seed=None) -> np.ndarray:
    """``n_pairs`` similarities from Weibull(``shape``) or N(0, 1) (``distribution="normal"``), min-max scaled to [0, 1].

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


def synthetic_similarity(m: int, distribution: str = "weibull", shape: float = 2.0, *, seed=None) -> np.ndarray:
    """A random ``(m, m)`` similarity for the similarity study (§5.4): i.i.d. values, min-max scaled, random pairs.

    >>> s = synthetic_similarity(5, "weibull", 2.0, seed=0)
    >>> s.shape, bool((s == s.T).all()), float(np.diag(s).min())
    ((5, 5), True, 1.0)
    """
    m = check_positive_int(m, "m", minimum=2)
    return pair_values_to_matrix(synthetic_values(m * (m - 1) // 2, distribution, shape, seed=seed), m)


def extreme_similarity(scores, values, mode: str = "most_fair") -> np.ndarray:
    """Assign similarity ``values`` to the pairs by sorted effectiveness gap |S(u) - S(u')| (§5.5).

    ``"most_fair"``: the highest similarities go to the smallest gaps; ``"most_unfair"``: to the
    largest. Ties among equal gaps keep the pairs' row-major order (the paper leaves them open).
    Returns the symmetric ``(m, m)`` matrix, diagonal 1.

    >>> extreme_similarity([0.0, 1.0, 0.0], [0.1, 0.5, 0.9], "most_fair").round(1).tolist()
    [[1.0, 0.5, 0.9], [0.5, 1.0, 0.1], [0.9, 0.1, 1.0]]
    """
    s = np.asarray(scores, dtype=np.float64)
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
    return pair_values_to_matrix(assigned, m)


def gamma_similarity(history, item_features, gamma: float, *, n_items: int | None = None) -> np.ndarray:
    r"""Dense :math:`\mathrm{sim}_{UF} = \gamma\,\mathrm{sim}_{Jacc} + (1-\gamma)\,\mathrm{sim}_{JS}` (§5.7), raw.

    ``item_features``: ``(n_items, d)`` non-negative (e.g. multi-hot genres); each user's
    feature distribution is the normalised sum over their history.

    >>> gamma_similarity([[0], [1]], [[1, 0], [0, 1]], 0.5).tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    if not 0 <= gamma <= 1:
        raise ValueError(f"gamma must lie in [0, 1], got {gamma!r}.")
    n_items = np.asarray(item_features).shape[0] if n_items is None else n_items
    jac = UserSimilarity.from_history(history, "jaccard", n_items=n_items).dense()
    if gamma == 1:
        return jac
    return np.clip(gamma * jac + (1 - gamma) * sim_js(genre_distributions(history, item_features, n_items=n_items)),
                   0.0, 1.0)


def puf_extreme_cases(m: int) -> dict[str, tuple[np.ndarray, np.ndarray]]:
    """Effectiveness profiles and similarities at PUF's ends: ``{case: (scores, similarity)}``.

    * ``"most_unfair"``: every similarity 1, ``floor(m/2)`` users at 1 and the rest at 0
      (the maximum of :func:`recfair.users.derivations.puf_most_unfair`);
    * ``"most_fair_equal_scores"``: every similarity 1, every score 0.5 (PUF 0);
    * ``"most_fair_dissimilar"``: the same two-level scores, every similarity 0 (PUF 0);
    * ``"most_fair_similar_equal"``: similarity 1 only within the two score levels (PUF 0).

    >>> from recfair.users import puf
    >>> scores, sim = puf_extreme_cases(4)["most_unfair"]
    >>> round(puf(scores, sim), 4)
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
