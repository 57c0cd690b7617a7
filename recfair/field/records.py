r"""Registry records of Part VI's measures, collected by :mod:`recfair.registry`.

Each record computes through the kernels of :data:`recfair.field.measures.KERNELS` and declares
them as its :class:`~recfair.spec.Computation`: ``context`` (popularity and the head/tail split
from every user's history, the item groups, the users' groups), ``partial`` (additive sums over a
block of users, weighted) and ``finish``::

    rf.evaluate(top_k, n_items=n, measures=["APLT", "PopRSP", "RSP", "NDKL"], history=train,
                item_groups=genre_of_item)

``paper`` is 0 for every Part VI record: the measures come from outside the thesis. Each record's
``achievable`` is the closed form or exact search of :mod:`recfair.field.bounds` /
:mod:`recfair.field.bounds_groups`; a record without one (ItemMAD) has its reason in
:data:`recfair.field.bounds.NO_BOUND`, carried by the record as ``no_bound`` (what
:func:`recfair.bounds.achievable` reports).

>>> [s.key for s in RECORDS][:5]
['ARP', 'APLT', 'ACLT', 'PopRSP', 'PopREO']
"""

from __future__ import annotations

import math

from ..spec import Computation, MeasureSpec
from . import bounds as _bounds
from . import measures as _m

__all__ = ["RECORDS", "FORMULAS"]

_PHI = r"\phi(i) = |\{u : i \in H_u\}|"
_HEAD = (r"\Phi = \text{the most popular items (ties by index)},\ "
         r"\text{taken until } \textstyle\sum_{i \in \Phi} \phi(i) \ge 0.8 \sum_i \phi(i)")

_EPS = r"\varepsilon_{u,g} = \sum_{j=1}^{k} \gamma^{j-1} [L_u(j) \in G_g]"
_EPS_STAR = (r"\varepsilon^*_{u,g} = \sum_{i \in G_g} \bigl([i \in R_u]\, \rho_u + [i \notin R_u \cup H_u]\, \eta_u\bigr),\ "
             r"\rho_u = \frac{1}{|R_u|} \sum_{j \le \min(|R_u|, k)} \gamma^{j-1},\ "
             r"\eta_u = \frac{\sum_{|R_u| < j \le k} \gamma^{j-1}}{n - |R_u| - |H_u|}")

#: The displayed LaTeX of every Part VI measure (each transcribed in ``tests/_reference.py``).
FORMULAS = {
    "ARP": r"\mathrm{ARP} = \frac{1}{m} \sum_u \frac{1}{k} \sum_{i \in L_u} \phi(i),\quad " + _PHI,
    "APLT": r"\mathrm{APLT} = \frac{1}{m} \sum_u \frac{|L_u \setminus \Phi|}{k},\quad " + _HEAD,
    "ACLT": r"\mathrm{ACLT} = \frac{1}{m} \sum_u |L_u \setminus \Phi|,\quad " + _HEAD,
    "PopRSP": r"\mathrm{PopRSP} = \frac{\operatorname{std}(P_\Phi, P_{\sim\Phi})}{\operatorname{mean}(P_\Phi, "
              r"P_{\sim\Phi})},\ P_G = \frac{\sum_u |L_u \cap G|}{\sum_u |G \setminus H_u|}",
    "PopREO": r"\mathrm{PopREO} = \frac{\operatorname{std}(P_\Phi, P_{\sim\Phi})}{\operatorname{mean}(P_\Phi, "
              r"P_{\sim\Phi})},\ P_G = \frac{\sum_u |L_u \cap G \cap R_u|}{\sum_u |G \cap R_u|}",
    "RSP": r"\mathrm{RSP} = \frac{\operatorname{std}_g P_g}{\operatorname{mean}_g P_g},"
           r"\ P_g = \frac{\sum_u |L_u \cap G_g|}{\sum_u |G_g \setminus H_u|}",
    "REO": r"\mathrm{REO} = \frac{\operatorname{std}_g P_g}{\operatorname{mean}_g P_g},"
           r"\ P_g = \frac{\sum_u |L_u \cap G_g \cap R_u|}{\sum_u |G_g \cap R_u|}",
    "BD": r"\mathrm{BD} = \operatorname{mean}_{(V, g) : B_H(V, g) > 0} \Bigl|\frac{B_L(V, g) - B_H(V, g)}{B_H(V, g)}\Bigr|,"
          r"\ B_X(V, g) = \frac{\sum_{u \in V} |X_u \cap G_g| / \sum_{u \in V} |X_u|}{|G_g| / n}",
    "ItemMAD": r"\mathrm{ItemMAD} = \binom{N}{2}^{-1} \sum_{g < h} |A_g - A_h|,"
               r"\ A_g = \operatorname{mean}_{i \in G_g,\, c_i > 0} \frac{\sum_{u : i \in L_u} (2^{r_{u,i}} - 1)}{c_i}",
    "UserMAD": r"\mathrm{UserMAD} = \binom{N}{2}^{-1} \sum_{g < h} |\bar S_g - \bar S_h|,"
               r"\ \bar S_g = \operatorname{mean}_{u \in V_g} \mathrm{NDCG}(u)",
    "NDKL": r"\mathrm{NDKL} = \frac{1}{m} \sum_u \frac{1}{Z} \sum_{i=1}^{k} \frac{\mathrm{KL}(D_{u,i} \,\|\, p^*)}"
            r"{\log_2(i+1)},\ Z = \sum_{i=1}^{k} \frac{1}{\log_2(i+1)},\ p^*_g = \frac{|G_g|}{n}",
    "ExpRatio": r"\mathrm{ExpRatio} = \frac{\min_g E_g}{\max_g E_g},"
                r"\ E_g = \frac{1}{|G_g|} \sum_u \sum_{j=1}^{k} \frac{[L_u(j) \in G_g]}{\log_2(j+1)}",
    "MMF": r"\mathrm{MMF} = \frac{\sum_{g \le \lfloor N/2 \rfloor} U_{(g)}}{\sum_g U_g},"
           r"\ U_g = \sum_u \sum_{j=1}^{k} \frac{[L_u(j) \in G_g]}{\log_2(j+1)}",
    "UGF": r"\mathrm{UGF} = \bigl|\operatorname{mean}_{u \in A} \mathrm{NDCG}(u) - "
           r"\operatorname{mean}_{u \notin A} \mathrm{NDCG}(u)\bigr|,\ A = \text{the } \lceil 0.05\, m \rceil "
           r"\text{ users with most history items}",
    "C_KL": r"C_{KL} = \frac{1}{m} \sum_u \sum_g p_{u,g} \ln \frac{p_{u,g}}{(1-\alpha)\, q_{u,g} + \alpha\, p_{u,g}},"
            r"\ p_{u} = \operatorname{mean}_{i \in H_u} \pi_i,\ q_{u} = \operatorname{mean}_{i \in L_u} \pi_i,"
            r"\ \pi_{i,g} = \frac{F_{i,g}}{\sum_h F_{i,h}}",
    "AWRF": r"\mathrm{AWRF} = \frac{1}{m} \sum_u \bigl(1 - \mathrm{JSD}_2(a_u, p^*)\bigr),"
            r"\ a_{u,g} \propto \sum_{j=1}^{k} \frac{[L_u(j) \in G_g]}{\log_2(j+1)},\ p^*_g = \frac{|G_g|}{n}",
    "EE-L": r"\text{EE-L} = \frac{1}{m} \sum_u \sum_g (\varepsilon_{u,g} - \varepsilon^*_{u,g})^2,\ " + _EPS + r",\ "
            + _EPS_STAR,
    "EE-D": r"\text{EE-D} = \frac{1}{m} \sum_u \sum_g \varepsilon_{u,g}^2,\ " + _EPS,
    "EE-R": r"\text{EE-R} = \frac{2}{m} \sum_u \sum_g \varepsilon_{u,g}\, \varepsilon^*_{u,g},\ " + _EPS + r",\ "
            + _EPS_STAR,
}

# key: (function, label, description, higher_is_better, range, needs, chapter, reference, undefined)
_POP_NEEDS = ("top_k", "history")
_ITEM_NEEDS = ("top_k", "item_groups")
_TABLE = {
    "ARP": (_m.arp, "Average recommendation popularity", "Mean popularity (distinct training users) of the "
            "recommended items.", False, (0.0, math.inf), _POP_NEEDS, "field-popularity",
            "Abdollahpouri, Burke & Mobasher 2019 (FLAIRS)", "never"),
    "APLT": (_m.aplt, "Average percentage of long-tail items", "Mean share of long-tail items in a user's top-k.",
             True, (0.0, 1.0), _POP_NEEDS, "field-popularity", "Abdollahpouri, Burke & Mobasher 2017 (RecSys)",
             "never (an empty history is an error: the head needs some popularity)"),
    "ACLT": (_m.aclt, "Average coverage of long-tail items", "Mean number of long-tail items in a user's top-k.",
             True, (0.0, math.inf), _POP_NEEDS, "field-popularity", "Abdollahpouri, Burke & Mobasher 2019 (FLAIRS)",
             "never (an empty history is an error)"),
    "PopRSP": (_m.pop_rsp, "Popularity ranking-based statistical parity", "RSP between the popular head and the "
               "long tail.", False, (0.0, 1.0), _POP_NEEDS, "field-popularity", "Zhu, Wang & Caverlee 2021 (SIGIR)",
               "head or tail has no item outside the histories; nothing recommended"),
    "PopREO": (_m.pop_reo, "Popularity ranking-based equal opportunity", "REO between the popular head and the "
               "long tail.", False, (0.0, 1.0), ("top_k", "history", "relevant"), "field-popularity",
               "Zhu, Wang & Caverlee 2021 (SIGIR)", "head or tail holds no relevant item; no hit at all"),
    "RSP": (_m.rsp, "Ranking-based statistical parity", "Coefficient of variation of the item groups' "
            "recommendation rates.", False, (0.0, math.inf), _ITEM_NEEDS, "field-item-groups",
            "Zhu, Wang & Caverlee 2020 (SIGIR)", "fewer than two item groups; nothing with a group recommended"),
    "REO": (_m.reo, "Ranking-based equal opportunity", "Coefficient of variation of the item groups' hit rates "
            "among their relevant items.", False, (0.0, math.inf), ("top_k", "item_groups", "relevant"),
            "field-item-groups", "Zhu, Wang & Caverlee 2020 (SIGIR)",
            "a group has no relevant item; fewer than two groups; no hit"),
    "BD": (_m.bd, "Bias disparity (mean absolute)", "Mean over (user group, item group) of the relative change "
           "from the training preference BS to the recommendation preference BR.", False, (0.0, math.inf),
           ("top_k", "history", "item_groups", "user_attributes"), "field-item-groups",
           "Tsintzou, Pitoura & Tsaparas 2019 (RMSE workshop); Elliot's BiasDisparityBD",
           "no (user group, item group) cell has BS > 0; a group's lists hold no item with a group "
           "(cells with BS = 0 are left out)"),
    "ItemMAD": (_m.item_mad, "Item MAD (ranking)", "Mean absolute difference between item groups of their "
                "recommended items' mean gain.", False, (0.0, math.inf), ("top_k", "item_groups", "relevant"),
                "field-item-groups", "Deldjoo et al. 2020 (UMUAI); Elliot's ItemMADranking",
                "fewer than two groups; a group has no recommended item"),
    "UserMAD": (_m.user_mad, "User MAD (ranking)", "Mean absolute difference between user groups of their mean "
                "NDCG.", False, (0.0, 1.0), ("top_k", "relevant", "user_attributes"), "field-user-groups",
                "Deldjoo et al. 2020 (UMUAI); Elliot's UserMADranking",
                "a single user group; a user without a relevant item"),
    "NDKL": (_m.ndkl, "Normalised discounted KL divergence", "Rank-discounted KL divergence of each prefix's "
             "group shares from the catalogue's.", False, (0.0, math.inf), _ITEM_NEEDS, "field-item-groups",
             "Geyik, Ambler & Kenthapadi 2019 (KDD)", "never (every item needs a group)"),
    "ExpRatio": (_m.exposure_ratio, "Exposure ratio between item groups", "Smallest over largest mean exposure "
                 "per item of the item groups (demographic parity of exposure).", True, (0.0, 1.0), _ITEM_NEEDS,
                 "field-item-groups", "Singh & Joachims 2018 (KDD)",
                 "fewer than two groups; nothing with a group recommended"),
    "MMF": (_m.provider_mmf, "Provider max-min fairness", "Share of all exposure that the worst-off half of the "
            "item groups receive.", True, (0.0, 1.0), _ITEM_NEEDS, "field-item-groups",
            "Xu et al. 2023 (WWW, P-MMF); FairDiverse's MMF",
            "the ratio selects no group; nothing with a group recommended"),
    "UGF": (_m.ugf, "User-oriented group fairness gap", "NDCG gap between the most active users and the rest.",
            False, (0.0, 1.0), ("top_k", "relevant", "history"), "field-user-groups",
            "Li, Chen, Fu, Ge & Zhang 2021 (WWW)", "a user without a relevant item; an empty group"),
    "C_KL": (_m.c_kl, "Miscalibration (KL)", "Mean KL divergence of the history's genre mix from the smoothed "
             "genre mix of the top-k.", False, (0.0, math.inf), ("top_k", "history", "item_features"),
             "field-item-groups", "Steck 2018 (RecSys)", "a user's history has no item with a genre"),
    "AWRF": (_m.awrf, "Attention-weighted rank fairness", "One minus the base-2 Jensen-Shannon divergence between "
             "each list's attention per group and the target shares.", True, (0.0, 1.0), _ITEM_NEEDS,
             "field-attention", "Sapiezynski et al. 2019 (WWW); TREC Fair Ranking 2022",
             "a list holds no item with a group"),
    "EE-L": (_m.ee_l, "Group expected exposure loss", "Squared distance of the groups' expected exposure from "
             "the ideal policy's.", False, (0.0, math.inf), ("top_k", "item_groups", "relevant"), "field-attention",
             "Diaz et al. 2020 (CIKM); TREC Fair Ranking 2020", "never"),
    "EE-D": (_m.ee_d, "Group expected exposure disparity", "Squared norm of the groups' expected exposure.", False,
             (0.0, math.inf), ("top_k", "item_groups", "relevant"), "field-attention",
             "Diaz et al. 2020 (CIKM); TREC Fair Ranking 2020", "never"),
    "EE-R": (_m.ee_r, "Group expected exposure relevance", "Twice the inner product of the groups' expected "
             "exposure with the ideal policy's.", True, (0.0, math.inf), ("top_k", "item_groups", "relevant"),
             "field-attention", "Diaz et al. 2020 (CIKM); TREC Fair Ranking 2020", "never"),
}


def _compute(key):
    def compute(run, *, on_undefined="warn", **options):
        return _m._evaluate(key, run, on_undefined, **options)

    compute.__name__ = f"compute_{key}"
    return compute


def _per_user(key):
    """Per-user values of a mean-over-users measure (``rf.evaluate_per_user``), None for the others."""
    kernel = _m.KERNELS[key]
    values = getattr(kernel.partial, "values", None)
    if values is None:
        return None

    def per_user(run, **options):
        opts = {**kernel.options, **options}
        return values(run, context=kernel.context(run, **opts), **opts)

    return per_user


def _record(key) -> MeasureSpec:
    func, label, description, higher, rng, needs, chapter, reference, undefined_cases = _TABLE[key]
    kernel = _m.KERNELS[key]
    return MeasureSpec(
        key=key, label=label, symbol=FORMULAS[key].split(" = ")[0], formula=FORMULAS[key], family="field", paper=0,
        version="single", higher_is_better=higher, range=rng, needs=needs, compute=_compute(key), func=func,
        description=description, reference=reference, undefined=undefined_cases,
        options=dict(kernel.options),
        per_user=_per_user(key), achievable=_bounds.ACHIEVABLE.get(key), exhaustive=_bounds.EXHAUSTIVE.get(key),
        no_bound=_bounds.NO_BOUND.get(key, ""), chapter=chapter,
        computation=(Computation(kind="run", cost=kernel.cost, state=kernel.state) if kernel.kind == "run" else
                     Computation(kind=kernel.kind, partial=kernel.partial, finish=kernel.finish, merge=kernel.merge,
                                 context=kernel.context, cost=kernel.cost, state=kernel.state)),
    )


#: The Part VI records, in the book's order (popularity, item groups, user groups, attention).
RECORDS = tuple(_record(key) for key in _TABLE)
