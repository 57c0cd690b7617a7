"""Registry records of Part V's group, within-group and individual measures, collected by :mod:`recfair.registry`.

The group measures take the groups from the run's ``user_attributes`` (the intersections of its
columns, or of ``attributes=``) and each user's effectiveness from ``base=``, or per-user
effectiveness and ``groups=`` through :func:`recfair.evaluate_effectiveness`::

    rf.evaluate(top_k, n_items=n, measures=["Atk_group", "Atk_within", "Atk_ind"], relevant=test,
                user_attributes=attrs, base="P", attributes=["gender", "age"])
    rf.evaluate_effectiveness(ndcg_per_user, measures=["MAD_group", "KL_group"], groups=attrs)

>>> [s.key for s in RECORDS][:3]
['Min_group', 'Range_group', 'SD_group']
"""

from __future__ import annotations

import inspect

import numpy as np


from .._validation import undefined
from ..relevance import effectiveness_computation, per_user_effectiveness
from ..spec import MeasureSpec
from . import measures as _groups

__all__ = ["RECORDS"]


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
        effectiveness = per_user_effectiveness(run, base=base)
        missing = int(np.isnan(effectiveness).sum())
        if missing:            # the run knows why: name the base measure
            return undefined(key, f"{missing} user(s) have an undefined {base} (no relevant item)", on_undefined)
        context = {} if key == "Atk_ind" else {"groups": _groups_of(run, attributes)}
        return func(effectiveness, on_undefined=on_undefined, **context, **options)

    return compute


def _group_from_effectiveness(key):
    func = _groups.GROUP_MEASURES[key]

    def from_effectiveness(effectiveness, *, similarity=None, groups=None, on_undefined="warn", **options):
        if key == "Atk_ind":
            return func(effectiveness, on_undefined=on_undefined, **options)
        if groups is None:
            raise ValueError(f"{key} compares groups of users: pass groups= (one label per user, or a DataFrame "
                             "with a column per attribute).")
        return func(effectiveness, groups=groups, on_undefined=on_undefined, **options)

    from_effectiveness.options = tuple(name for name in _groups.OPTIONS[key] if name != "on_undefined")
    return from_effectiveness


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
    "GCE_group": r"\mathrm{GCE} = \frac{1 - \sum_{j=1}^{N'} p_f^{\beta}\,\tilde p_j^{\,1-\beta}}{\beta(1-\beta)},"
                 r"\ p_f = \frac{1}{N'},"
                 r"\ \tilde p_j = \frac{\lambda p_j + (1-\lambda) c}{\sum_l (\lambda p_l + (1-\lambda) c)},"
                 r"\ p_j = \frac{\bar g_j}{\sum_l \bar g_l}",
    "Atk_group": r"\mathrm{Atk}_{\mathrm{group}} = 1 - \frac{M_{1-\varepsilon}(\xi)}{M_1(\xi)},"
                 r"\ M_r(\xi) = \Bigl(\textstyle\sum_j \frac{|G_j|}{m} \xi_j^{\,r}\Bigr)^{1/r},"
                 r"\ \xi_j = \Bigl(\tfrac{1}{|G_j|}\textstyle\sum_{u \in G_j} S(u)^{1-\varepsilon}\Bigr)"
                 r"^{1/(1-\varepsilon)}",
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
                  "weighted by group size, against their size-weighted mean (not the mean of all users)."),
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
    needs = ("top_k", "relevant") if key == "Atk_ind" else ("top_k", "relevant", "user_attributes")
    return MeasureSpec(
        computation=effectiveness_computation(key, _group_from_effectiveness(key), whole=True,
                                              grouped="user_attributes" in needs),
        key=key, label=label, symbol=_GROUP_FORMULAS[key].split(" = ")[0], formula=_GROUP_FORMULAS[key],
        family="groups", paper=6, version="single", higher_is_better=key in _groups.HIGHER_IS_FAIRER,
        range=_groups.RANGES[key],
        needs=("top_k", "relevant") if key == "Atk_ind" else ("top_k", "relevant", "user_attributes"),
        compute=_group_compute(key), func=_groups.GROUP_MEASURES[key] if key != "Atk_ind" else _groups.atk_ind,
        from_effectiveness=_group_from_effectiveness(key), description=description, reference=_REF_P6,
        undefined=undefined_cases, options=options,
        chapter="user-decomposition" if key in ("Atk_within", "Atk_ind", "SD_within", "Gini_within")
        else "user-groups",
    )


#: The Part V records (collected by :mod:`recfair.registry`): between groups, within groups, individual.
RECORDS = tuple(_group_record(key) for key in _groups.GROUP_MEASURES)
