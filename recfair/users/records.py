"""Registry records of Part IV's individual user-fairness measures, collected by :mod:`recfair.registry`.

Each is asked for by name on a run, like every measure::

    rf.evaluate(top_k, n_items=n, measures=["PUF", "SD_ind", "ME_user", "UF"], relevant=test,
                history=train, base="P", similarity="cosine")

or, for PUF, SD_ind and Gini_ind, on per-user effectiveness values directly with
:func:`recfair.evaluate_effectiveness` (the records' ``from_effectiveness`` hook).

>>> [s.key for s in RECORDS]
['PUF', 'SD_ind', 'Gini_ind', 'ME_user', 'MME_user', 'PEU', 'UF']

"""

from __future__ import annotations

import hashlib
import math
from collections import OrderedDict

import numpy as np

from ..relevance import effectiveness_computation, per_user_effectiveness
from .._validation import undefined
from dataclasses import replace

from ..spec import Computation, MeasureSpec
from . import measures as _m
from .similarity import KINDS, UserSimilarity

__all__ = ["RECORDS", "similarity_for"]



_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 4


def similarity_for(history, *, similarity: str) -> UserSimilarity:
    """:class:`UserSimilarity` of a validated history, cached by its content (4 kept).

    The paper computes the similarity once per dataset; scoring many runs of the same split
    reuses it (and its min-max range, once computed).

    Parameters
    ----------
    history : scipy.sparse (m, n_items)
        A validated history (:attr:`recfair.run.Run.history`).
    similarity : {"jaccard", "cosine"}
        Which similarity.

    Returns
    -------
    UserSimilarity

    Examples
    --------
    >>> from recfair.run import Run
    >>> run = Run([[0], [1]], 4, history=[[2], [3]])
    >>> similarity_for(run.history, similarity="cosine") is similarity_for(run.history, similarity="cosine")
    True
    """
    h = hashlib.sha1()
    h.update(np.asarray(history.indptr).tobytes())
    h.update(np.asarray(history.indices).tobytes())
    key = (h.hexdigest(), history.shape, similarity)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    source = UserSimilarity.from_history(history, similarity=similarity)
    _CACHE[key] = source
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)
    return source


def _similarity(run, similarity):
    if isinstance(similarity, str):
        if similarity not in KINDS:
            raise ValueError(f"similarity must be one of {KINDS} or a users x users matrix; got {similarity!r}.")
        if run.history is None:
            raise ValueError(f"similarity={similarity!r} is computed from the users' history: pass history=.")
        return similarity_for(run.history, similarity=similarity), True
    return UserSimilarity.from_matrix(similarity, n_users=run.n_users), False


def _puf(run, *, on_undefined="warn", base="NDCG", similarity="jaccard", minmax=None, normalization="mean",
         block_size=None, client=None):
    source, computed = _similarity(run, similarity)
    return _m.puf(per_user_effectiveness(run, base=base), similarity=source, normalization=normalization,
                  minmax=computed if minmax is None else bool(minmax), block_size=block_size,
                  on_undefined=on_undefined, client=client)


def _puf_effectiveness(effectiveness, *, similarity=None, groups=None, on_undefined="warn", normalization="mean",
                       minmax=False, block_size=None, client=None):
    if similarity is None:
        raise ValueError("PUF weighs user pairs by similarity: pass similarity= (a users x users matrix).")
    if isinstance(similarity, str):
        raise ValueError("evaluate_effectiveness takes the similarity as a users x users matrix (there is no history "
                         "to compute it from); build one with recfair.users.user_similarity(history, "
                         f"similarity={similarity!r}).")
    return _m.puf(effectiveness, similarity=similarity, normalization=normalization, minmax=minmax,
                  block_size=block_size, on_undefined=on_undefined, client=client)


def _sd(run, *, on_undefined="warn", base="NDCG"):
    return _m.sd_ind(per_user_effectiveness(run, base=base), on_undefined=on_undefined)


def _gini(run, *, on_undefined="warn", base="NDCG"):
    return _m.gini_ind(per_user_effectiveness(run, base=base), on_undefined=on_undefined)


def _sd_effectiveness(effectiveness, *, similarity=None, groups=None, on_undefined="warn"):
    return _m.sd_ind(effectiveness, on_undefined=on_undefined)


def _gini_effectiveness(effectiveness, *, similarity=None, groups=None, on_undefined="warn"):
    return _m.gini_ind(effectiveness, on_undefined=on_undefined)


def _me(run, *, on_undefined="warn", normalization="mean", phi="k", block_size=None, client=None):
    return _m.mean_envy_user(run.top_k, relevant=run.relevant, n_items=run.n_items, normalization=normalization,
                             phi=phi, block_size=block_size, on_undefined=on_undefined, client=client)


def _mme(run, *, on_undefined="warn", phi="k", block_size=None, client=None):
    return _m.mean_max_envy_user(run.top_k, relevant=run.relevant, n_items=run.n_items, phi=phi,
                                 block_size=block_size, on_undefined=on_undefined, client=client)


def _peu(run, *, on_undefined="warn", envy_tolerance=0.05, phi="k", block_size=None, client=None):
    return _m.peu(run.top_k, relevant=run.relevant, n_items=run.n_items, envy_tolerance=envy_tolerance, phi=phi,
                  block_size=block_size, on_undefined=on_undefined, client=client)


def _uf(run, *, on_undefined="warn", history_weight=1.0, similarity="jaccard", item_vectors=None, block_size=None,
        client=None):
    return _m.uf(run.top_k, history=run.history, n_items=run.n_items, history_weight=history_weight,
                 similarity=similarity, item_features=run.item_features, item_vectors=item_vectors, block_size=block_size,
                 on_undefined=on_undefined, client=client)


_SIM = r"\mathrm{sim}(u, u')"
_PUF = (r"\mathrm{PUF} = \frac{1}{m(m-1)} \sum_{u \in U} \sum_{u' \in U,\, u' \ne u} " + _SIM
        + r"\,\lvert S(u) - S(u') \rvert")
_ENVY = r"\mathrm{envy}(u, u') = \max\{\phi_u(L_{u'}) - \phi_u(L_u), 0\},\ \phi_u(L_{u'}) = \frac{|L_{u'} \cap R_u|}{k}"
_REF_P5 = "Rampisela et al. 2025 (under review), thesis Ch. 6 (Paper 5)"
_EFF = {"base": "NDCG"}

#: The Part IV records (collected by :mod:`recfair.registry`).
RECORDS = (
    MeasureSpec(
        key="PUF", label="Pairwise User unFairness", symbol=r"\mathrm{PUF}", formula=_PUF, family="users", paper=5,
        version="single", higher_is_better=False, range=(0.0, 1.0), needs=("top_k", "relevant"),
        compute=_puf, func=_m.puf, from_effectiveness=_puf_effectiveness,
        description="Similarity-weighted mean absolute effectiveness gap over the unordered user pairs: similar users "
                    "served unequally well are unfair. The similarity comes from the run's history (similarity='jaccard' "
                    "or 'cosine') or is given as a users x users matrix. normalization='printed' gives the printed "
                    "factor (twice).",
        reference=_REF_P5, undefined="some user's effectiveness is undefined (e.g. NDCG without relevant items)",
        options={"base": "NDCG", "similarity": "jaccard", "minmax": None, "normalization": "mean",
                 "block_size": None},
        chapter="user-puf",
    ),
    MeasureSpec(
        key="SD_ind", label="Standard deviation of user effectiveness", symbol=r"\mathrm{SD}",
        formula=r"\mathrm{SD} = \sqrt{\tfrac1m \textstyle\sum_{u \in U} (S(u) - \bar S)^2}", family="users", paper=5,
        version="single", higher_is_better=False, range=(0.0, 0.5), needs=("top_k", "relevant"), compute=_sd,
        func=_m.sd_ind, from_effectiveness=_sd_effectiveness,
        description="Population SD of the per-user effectiveness (SD-P, SD-NDCG); blind to user similarity.",
        reference="Patro et al. 2020; Wu et al. 2021; thesis Ch. 6-7 (Papers 5-6)",
        undefined="some user's effectiveness is undefined", options=dict(_EFF), chapter="user-individual",
    ),
    MeasureSpec(
        key="Gini_ind", label="Gini index of user effectiveness", symbol=r"\mathrm{Gini}",
        formula=r"\mathrm{Gini} = \frac{\sum_{j=1}^m (2j - m - 1) x_{(j)}}{m \sum_{j=1}^m x_{(j)}}", family="users",
        paper=5, version="single", higher_is_better=False, range=(0.0, 1.0), needs=("top_k", "relevant"),
        compute=_gini, func=_m.gini_ind, from_effectiveness=_gini_effectiveness,
        description="Gini index of the per-user effectiveness (Gini-P, Gini-NDCG); tracks the effectiveness level "
                    "as much as its disparity.",
        reference="Fu et al. 2020; Leonhardt et al. 2018; thesis Ch. 6-7 (Papers 5-6)",
        undefined="every user's effectiveness is 0, or some user's is undefined", options=dict(_EFF),
        chapter="user-individual",
    ),
    MeasureSpec(
        key="ME_user", label="Mean envy between users", symbol=r"\mathrm{ME}",
        formula=r"\mathrm{ME} = \frac{1}{m(m-1)} \sum_{u} \sum_{u' \ne u} \mathrm{envy}(u, u'),\quad " + _ENVY,
        family="users", paper=5, version="corrected", higher_is_better=False, range=(0.0, 1.0),
        needs=("top_k", "relevant"), compute=_me, func=_m.mean_envy_user,
        description="Mean over ordered user pairs of how much more a user would get from the other's list (ground-"
                    "truth utility); normalization='printed' doubles it.",
        reference="Patro et al. 2020; Biswas et al. 2021; corrected in thesis Ch. 6", undefined="never",
        options={"normalization": "mean", "phi": "k", "block_size": None}, chapter="user-individual",
    ),
    MeasureSpec(
        key="MME_user", label="Mean max envy between users (user side)", symbol=r"\mathrm{MME}_{user}",
        formula=r"\mathrm{MME}_{user} = \frac1m \sum_{u} \max_{u'} \mathrm{envy}(u, u'),\quad " + _ENVY,
        family="users", paper=5, version="corrected", higher_is_better=False, range=(0.0, 1.0),
        needs=("top_k", "relevant"), compute=_mme, func=_m.mean_max_envy_user,
        description="Mean over users of their largest envy towards another user (not Paper 2's item-side MME).",
        reference="Do et al. 2022; corrected in thesis Ch. 6", undefined="never",
        options={"phi": "k", "block_size": None}, chapter="user-individual",
    ),
    MeasureSpec(
        key="PEU", label="Proportion of epsilon-envious users", symbol=r"\mathrm{PEU}",
        formula=r"\mathrm{PEU} = \frac1m \sum_{u} \mathbb 1\bigl[\max_{u'} \mathrm{envy}(u, u') > \varepsilon\bigr],"
                r"\quad " + _ENVY,
        family="users", paper=5, version="corrected", higher_is_better=False, range=(0.0, 1.0),
        needs=("top_k", "relevant"), compute=_peu, func=_m.peu,
        description="Share of users whose largest envy exceeds envy_tolerance (epsilon; default 0.05).",
        reference="Do et al. 2022; corrected in thesis Ch. 6", undefined="never",
        options={"envy_tolerance": 0.05, "phi": "k", "block_size": None}, chapter="user-individual",
    ),
    MeasureSpec(
        key="UF", label="Distance-based user unfairness", symbol=r"\mathrm{UF}",
        formula=r"\mathrm{UF} = \log_{\binom m2} \sum_{(u, u') \in U^*} \mathrm{sim}_{UF}(u, u')\, d_L(u, u')",
        family="users", paper=5, version="single", higher_is_better=False, range=(-math.inf, 1.0),
        needs=("top_k", "history"), compute=_uf, func=_m.uf,
        description="Log of the similarity-weighted mean cosine distance between the lists of the most similar user "
                    "pairs; ignores relevance; negative when the sum is below 1.",
        reference="Wu et al. 2023; as used in thesis Ch. 6", undefined="two users (log base 1)",
        options={"history_weight": 1.0, "similarity": "jaccard", "item_vectors": None, "block_size": None},
        chapter="user-individual",
    ),
)


def _computation(spec) -> Computation:
    if spec.key in ("SD_ind", "Gini_ind"):          # functions of every user's effectiveness S(u)
        return effectiveness_computation(spec.key, spec.from_effectiveness, whole=False, grouped=False)
    # PUF: a product per pair of users from S(u) and the similarity; the envy measures: every user's relevant
    # items looked up in every other user's list; UF: the k x k item distances of every pair of similar users
    cost = {"PUF": "O(m²)", "UF": "O(m²k²)"}.get(spec.key, "O(m²k)")
    return Computation("pairs", cost=cost, state="no: user pairs")


RECORDS = tuple(replace(spec, computation=_computation(spec)) for spec in RECORDS)
