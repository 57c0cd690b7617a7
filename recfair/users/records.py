"""Registry records of Part IV's individual user-fairness measures, collected by :mod:`recfair.registry`.

Each is asked for by name on a run, like every measure::

    rf.evaluate(top_k, n_items=n, measures=["PUF", "SD_ind", "ME_user", "UF"], relevant=test,
                history=train, base="P", similarity="cosine")

or, for PUF, SD_ind and Gini_ind, on per-user effectiveness values directly with
:func:`recfair.evaluate_scores` (the records' ``from_scores`` hook).

>>> [s.key for s in RECORDS]
['PUF', 'SD_ind', 'Gini_ind', 'ME_user', 'MME_user', 'PEU', 'UF']

Part V's group measures (:data:`GROUP_RECORDS`, family ``"groups"``) take the groups from the run's
``user_attributes`` (the intersections of its columns, or of ``attributes=``) and each user's
effectiveness from ``base=``, or per-user scores and ``groups=`` through :func:`recfair.evaluate_scores`::

    rf.evaluate(top_k, n_items=n, measures=["Atk_group", "Atk_within", "Atk_ind"], relevant=test,
                user_attributes=attrs, base="P", attributes=["gender", "age"])
    rf.evaluate_scores(ndcg_per_user, ["MAD_group", "KL_group"], groups=attrs)

>>> [s.key for s in GROUP_RECORDS][:3]
['Min_group', 'Range_group', 'SD_group']
"""

from __future__ import annotations

import hashlib
import inspect
import math
from collections import OrderedDict

import numpy as np

from .. import relevance as _relevance
from .._validation import undefined
from ..spec import MeasureSpec
from . import groups as _groups
from . import measures as _m
from .similarity import KINDS, UserSimilarity

__all__ = ["RECORDS", "GROUP_RECORDS", "BASES", "per_user_effectiveness", "similarity_for"]

#: The per-user relevance measures that can serve as S(u) (``base=``).
BASES = {s.key: s.per_user for s in _relevance.RECORDS if s.per_user is not None}


def per_user_effectiveness(run, base: str = "NDCG") -> np.ndarray:
    """S(u) of every user of a run: the per-user values of relevance measure ``base`` (NaN = undefined).

    >>> from recfair.run import Run
    >>> per_user_effectiveness(Run([[0, 1], [2, 3]], 4, relevant=[[1], [0]]), "P").tolist()
    [0.5, 0.0]
    """
    if not isinstance(base, str) or base not in BASES:
        raise ValueError(f"base must be a per-user relevance measure ({', '.join(BASES)}); got {base!r}.")
    return np.asarray(BASES[base](run), dtype=np.float64)


_CACHE: OrderedDict = OrderedDict()
_CACHE_SIZE = 4


def similarity_for(history, kind: str) -> UserSimilarity:
    """:class:`UserSimilarity` of a validated history, cached by its content (4 kept).

    The paper computes the similarity once per dataset; scoring many runs of the same split
    reuses it (and its min-max range, once computed).

    >>> from recfair.run import Run
    >>> run = Run([[0], [1]], 4, history=[[2], [3]])
    >>> similarity_for(run.history, "cosine") is similarity_for(run.history, "cosine")
    True
    """
    h = hashlib.sha1()
    h.update(np.asarray(history.indptr).tobytes())
    h.update(np.asarray(history.indices).tobytes())
    key = (h.hexdigest(), history.shape, kind)
    if key in _CACHE:
        _CACHE.move_to_end(key)
        return _CACHE[key]
    source = UserSimilarity.from_history(history, kind)
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
        return similarity_for(run.history, similarity), True
    return UserSimilarity.from_matrix(similarity, run.n_users), False


def _puf(run, *, on_undefined="warn", base="NDCG", similarity="jaccard", minmax=None, normalization="mean",
         block_size=None, client=None):
    source, computed = _similarity(run, similarity)
    return _m.puf(per_user_effectiveness(run, base), source, normalization=normalization,
                  minmax=computed if minmax is None else bool(minmax), block_size=block_size,
                  on_undefined=on_undefined, client=client)


def _puf_scores(scores, *, similarity=None, on_undefined="warn", normalization="mean", minmax=False,
                block_size=None, client=None):
    if similarity is None:
        raise ValueError("PUF weighs user pairs by similarity: pass similarity= (a users x users matrix).")
    if isinstance(similarity, str):
        raise ValueError("evaluate_scores takes the similarity as a users x users matrix (there is no history "
                         "to compute it from); build one with recfair.users.user_similarity(history, kind).")
    return _m.puf(scores, similarity, normalization=normalization, minmax=minmax, block_size=block_size,
                  on_undefined=on_undefined, client=client)


def _sd(run, *, on_undefined="warn", base="NDCG"):
    return _m.sd_ind(per_user_effectiveness(run, base), on_undefined=on_undefined)


def _gini(run, *, on_undefined="warn", base="NDCG"):
    return _m.gini_ind(per_user_effectiveness(run, base), on_undefined=on_undefined)


def _sd_scores(scores, *, similarity=None, on_undefined="warn"):
    return _m.sd_ind(scores, on_undefined=on_undefined)


def _gini_scores(scores, *, similarity=None, on_undefined="warn"):
    return _m.gini_ind(scores, on_undefined=on_undefined)


def _me(run, *, on_undefined="warn", normalization="mean", phi="k", block_size=None, client=None):
    return _m.mean_envy_user(run.top_k, relevant=run.relevant, n_items=run.n_items, normalization=normalization,
                             phi=phi, block_size=block_size, client=client)


def _mme(run, *, on_undefined="warn", phi="k", block_size=None, client=None):
    return _m.mean_max_envy_user(run.top_k, relevant=run.relevant, n_items=run.n_items, phi=phi,
                                 block_size=block_size, client=client)


def _peu(run, *, on_undefined="warn", epsilon=0.05, phi="k", block_size=None, client=None):
    return _m.peu(run.top_k, relevant=run.relevant, n_items=run.n_items, epsilon=epsilon, phi=phi,
                  block_size=block_size, client=client)


def _uf(run, *, on_undefined="warn", gamma=1.0, similarity="jaccard", item_vectors=None, block_size=None,
        client=None):
    return _m.uf(run.top_k, history=run.history, n_items=run.n_items, gamma=gamma, similarity=similarity,
                 item_features=run.item_features, item_vectors=item_vectors, block_size=block_size,
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
        compute=_puf, func=_m.puf, from_scores=_puf_scores,
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
        func=_m.sd_ind, from_scores=_sd_scores,
        description="Population SD of the per-user effectiveness (SD-P, SD-NDCG); blind to user similarity.",
        reference="Patro et al. 2020; Wu et al. 2021; thesis Ch. 6-7 (Papers 5-6)",
        undefined="some user's effectiveness is undefined", options=dict(_EFF), chapter="user-individual",
    ),
    MeasureSpec(
        key="Gini_ind", label="Gini index of user effectiveness", symbol=r"\mathrm{Gini}",
        formula=r"\mathrm{Gini} = \frac{\sum_{j=1}^m (2j - m - 1) x_{(j)}}{m \sum_{j=1}^m x_{(j)}}", family="users",
        paper=5, version="single", higher_is_better=False, range=(0.0, 1.0), needs=("top_k", "relevant"),
        compute=_gini, func=_m.gini_ind, from_scores=_gini_scores,
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
        description="Share of users whose largest envy exceeds epsilon (default 0.05).",
        reference="Do et al. 2022; corrected in thesis Ch. 6", undefined="never",
        options={"epsilon": 0.05, "phi": "k", "block_size": None}, chapter="user-individual",
    ),
    MeasureSpec(
        key="UF", label="Distance-based user unfairness", symbol=r"\mathrm{UF}",
        formula=r"\mathrm{UF} = \log_{\binom m2} \sum_{(u, u') \in U^*} \mathrm{sim}_{UF}(u, u')\, d_L(u, u')",
        family="users", paper=5, version="single", higher_is_better=False, range=(-math.inf, 1.0),
        needs=("top_k", "history"), compute=_uf, func=_m.uf,
        description="Log of the similarity-weighted mean cosine distance between the lists of the most similar user "
                    "pairs; ignores relevance; negative when the sum is below 1.",
        reference="Wu et al. 2023; as used in thesis Ch. 6", undefined="two users (log base 1)",
        options={"gamma": 1.0, "similarity": "jaccard", "item_vectors": None, "block_size": None},
        chapter="user-individual",
    ),
)


# ============================================================================ Part V: user groups (Paper 6)

def _groups_of(run, attributes):
    """The groups of a run's users: the intersections of the chosen ``user_attributes`` columns."""
    import pandas as pd

    frame = run.user_attributes
    if frame is None:
        raise ValueError("the group measures need user_attributes= (one row per user, a column per attribute).")
    if not isinstance(frame, pd.DataFrame):
        frame = pd.DataFrame(frame)
    if attributes is None:
        return frame
    columns = [attributes] if isinstance(attributes, str) else list(attributes)
    missing = [c for c in columns if c not in frame.columns]
    if missing or not columns:
        raise ValueError(f"attributes must name columns of user_attributes {list(frame.columns)}; got {attributes!r}.")
    return frame[columns]


def _group_compute(key):
    func = _groups.GROUP_MEASURES[key]

    def compute(run, *, on_undefined="warn", base="NDCG", attributes=None, **options):
        scores = per_user_effectiveness(run, base)
        if np.isnan(scores).any():
            return undefined(key, f"{int(np.isnan(scores).sum())} user(s) have an undefined {base} (no relevant item)",
                             on_undefined)
        groups = None if key == "Atk_ind" else _groups_of(run, attributes)
        return func(scores, groups, on_undefined=on_undefined, **options)

    return compute


def _group_from_scores(key):
    func = _groups.GROUP_MEASURES[key]

    def from_scores(scores, *, groups=None, on_undefined="warn", **options):
        if groups is None and key != "Atk_ind":
            raise ValueError(f"{key} compares groups of users: pass groups= (one label per user, or a DataFrame "
                             "with a column per attribute).")
        return func(scores, groups, on_undefined=on_undefined, **options)

    from_scores.options = tuple(name for name in _groups.OPTIONS[key] if name != "on_undefined")
    return from_scores


_MEANS = r"\bar g_j = \tfrac{1}{|G_j|}\textstyle\sum_{u \in G_j} S(u)"
_GROUP_FORMULAS = {
    "Min_group": r"\mathrm{Min} = \operatorname{mean}\{\bar g_j : \bar g_j \le Q_{1/4}(\bar g)\},\quad " + _MEANS,
    "Range_group": r"\mathrm{Range} = \max_j \bar g_j - \min_j \bar g_j,\quad " + _MEANS,
    "SD_group": r"\mathrm{SD} = \sqrt{\tfrac{1}{N'}\textstyle\sum_j (\bar g_j - \bar{\bar g})^2}",
    "MAD_group": r"\mathrm{MAD} = \binom{N'}{2}^{-1} \textstyle\sum_{j < l} \lvert \bar g_j - \bar g_l \rvert",
    "Gini_group": r"\mathrm{Gini} = \frac{\sum_{j=1}^{N'} (2j - N' - 1)\, \bar g_{(j)}}{N' \sum_j \bar g_j}",
    "CV_group": r"\mathrm{CV} = \mathrm{SD}(\bar g) / \operatorname{mean}(\bar g)",
    "FStat_group": r"F = \frac{\sum_j |G_j| (\bar g_j - \bar S)^2 / (N' - 1)}"
                   r"{\sum_j \sum_{u \in G_j} (S(u) - \bar g_j)^2 / (m - N')}",
    "KL_group": r"\mathrm{KL} = \textstyle\sum_j p_j \log_2 \frac{p_j}{q_j},\ p_j = \frac{\bar g_j}{\sum_l \bar g_l},"
                r"\ q_j = \frac{|G_j|}{m}",
    "GCE_group": r"\mathrm{GCE} = \frac{1}{\beta(1-\beta)} \textstyle\sum_j \bigl[p_{f,j}^{\beta}\,"
                 r"p_j^{1-\beta} - 1\bigr]",
    "Atk_group": r"\mathrm{Atk}_{\mathrm{group}} = 1 - \frac{\bigl(\sum_j \frac{|G_j|}{m} \xi_j^{1-\varepsilon}"
                 r"\bigr)^{1/(1-\varepsilon)}}{\bar S},\ \xi_j = \mathrm{EDE}_\varepsilon(G_j)",
    "SD_within": r"\mathrm{SD}_{\mathrm{within}} = \textstyle\sum_j w_j\, \mathrm{SD}(G_j),"
                 r"\ w_j = \frac{\sum_{u \in G_j} S(u)}{\sum_u S(u)}",
    "Gini_within": r"\mathrm{Gini}_{\mathrm{within}} = \textstyle\sum_j w_j\, \mathrm{Gini}(G_j),"
                   r"\ w_j = \frac{\sum_{u \in G_j} S(u)}{\sum_u S(u)}",
    "Atk_within": r"\mathrm{Atk}_{\mathrm{within}} = \textstyle\sum_j w_j\, \mathrm{Atk}(G_j),"
                  r"\ w_j = \frac{\sum_{u \in G_j} S(u)}{\sum_u S(u)}",
    "Atk_ind": r"\mathrm{Atk}_{\mathrm{ind}} = 1 - \frac{\bigl(\frac1m \sum_u S(u)^{1-\varepsilon}\bigr)"
               r"^{1/(1-\varepsilon)}}{\bar S}",
}
_GROUP_TEXT = {
    "Min_group": ("Min of group effectiveness", "Mean of the worst quarter of the group means (higher is fairer)."),
    "Range_group": ("Range of group effectiveness", "Largest minus smallest group mean."),
    "SD_group": ("SD of group effectiveness", "Population SD of the group means (every group counts once)."),
    "MAD_group": ("Mean absolute difference of groups", "Mean over unordered pairs of groups of the gap between "
                  "their means (the printed formula is half of it)."),
    "Gini_group": ("Gini index of group effectiveness", "Gini index of the group means."),
    "CV_group": ("Coefficient of variation of groups", "SD of the group means over their mean."),
    "FStat_group": ("F statistic of groups", "One-way ANOVA F: variance between the groups over variance within."),
    "KL_group": ("KL divergence of groups", "Base-2 KL divergence of the groups' shares of effectiveness from their "
                 "shares of users."),
    "GCE_group": ("Generalized cross entropy of groups", "GCE (beta = 2) of the groups' shares of effectiveness "
                  "against a fair distribution; explodes when a group's effectiveness is 0."),
    "Atk_group": ("Atkinson index between groups", "Atkinson index of the groups' equally distributed equivalents, "
                  "weighted by group size."),
    "SD_within": ("SD within groups", "SD inside each group, weighted by each group's share of total effectiveness."),
    "Gini_within": ("Gini index within groups", "Gini inside each group, weighted by each group's share of total "
                    "effectiveness."),
    "Atk_within": ("Atkinson index within groups", "The part of the individual Atkinson index not explained by the "
                   "groups: 1 - Atk_ind = (1 - Atk_group)(1 - Atk_within), exactly."),
    "Atk_ind": ("Atkinson index of users", "Atkinson index of the per-user effectiveness (epsilon = 0.5)."),
}
_REF_P6 = "Rampisela et al. 2025 (user groups vs individuals), thesis Ch. 7 (Paper 6)"
_GROUP_UNDEFINED = {
    "Gini_group": "every group mean is 0", "CV_group": "every group mean is 0", "KL_group": "every score is 0",
    "GCE_group": "every score is 0", "Gini_within": "every score is 0", "MAD_group": "a single group",
    "FStat_group": "one group, one user per group, or every group constant",
}


def _group_record(key):
    label, description = _GROUP_TEXT[key]
    options = {"base": "NDCG", **({} if key == "Atk_ind" else {"attributes": None})}
    options |= {name: inspect.signature(_groups.GROUP_MEASURES[key]).parameters[name].default
                for name in _groups.OPTIONS[key] if name != "on_undefined"}
    undefined_cases = "some user's effectiveness is undefined (no relevant item)"
    if key in _GROUP_UNDEFINED:
        undefined_cases += "; " + _GROUP_UNDEFINED[key]
    return MeasureSpec(
        key=key, label=label, symbol=_GROUP_FORMULAS[key].split(" = ")[0], formula=_GROUP_FORMULAS[key],
        family="groups", paper=6, version="single", higher_is_better=key in _groups.HIGHER_IS_FAIRER,
        range=_groups.RANGES[key],
        needs=("top_k", "relevant") if key == "Atk_ind" else ("top_k", "relevant", "user_attributes"),
        compute=_group_compute(key), func=_groups.GROUP_MEASURES[key] if key != "Atk_ind" else _groups.atk_ind,
        from_scores=_group_from_scores(key), description=description, reference=_REF_P6,
        undefined=undefined_cases, options=options,
        chapter="user-decomposition" if key in ("Atk_within", "Atk_ind", "SD_within", "Gini_within")
        else "user-groups",
    )


#: The Part V records (collected by :mod:`recfair.registry`): between groups, within groups, individual.
GROUP_RECORDS = tuple(_group_record(key) for key in _groups.GROUP_MEASURES)
