"""One record per measure: the single source for ``evaluate``, docs, widgets, tests and tables.

Every measure of the thesis has exactly one :class:`MeasureSpec` in :data:`ALL_MEASURES`,
listed explicitly (no registering decorators, no import-time side effects).
``REGISTRY`` maps the canonical name (``"NDCG"``, ``"Jain_our"``, ...) to its record.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Callable

import numpy as np
import pandas as pd

from . import bounds as _bounds
from . import guidelines as _guidelines
from . import item_exposure as _ie
from . import joint as _joint
from . import joint_bounds as _joint_bounds
from . import relevance as _rel

__all__ = ["Bounds", "MeasureSpec", "ALL_MEASURES", "REGISTRY", "get", "names", "table"]


@dataclass(frozen=True)
class Bounds:
    """Ends of a range, named by fairness (or effectiveness), never by min/max."""

    most_unfair: float
    most_fair: float

    def __iter__(self):
        """Unpack as ``most_unfair, most_fair = bounds``.

        >>> most_unfair, most_fair = Bounds(0.1, 1.0)
        >>> most_fair
        1.0
        """
        return iter((self.most_unfair, self.most_fair))


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
    guidelines : Paper 3's marks on the guideline factors (:mod:`recfair.guidelines`), joint measures only.
    graded : whether the measure accepts graded relevance (``relevance=``); the others need
        binary relevance (or none at all).
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
    guidelines: tuple[str, ...] | None = None
    graded: bool = False

    @property
    def direction(self) -> str:
        """``"↑"`` if higher is better (fairer), ``"↓"`` otherwise."""
        return "↑" if self.higher_is_better else "↓"

    def bounds(self, m: int, n: int, k: int, **params) -> Bounds | None:
        """Achievable bounds at (m, n, k), or None where the thesis gives no closed form.

        The joint measures' ends also depend on how many items each user finds relevant:
        pass ``n_relevant`` (one count per user, ``m`` of them).
        """
        return None if self.achievable is None else self.achievable(m, n, k, **params)


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


def _item_exposure_compute(key):
    def compute(run, *, on_undefined="warn", **options):
        return _ie.compute(key, run, on_undefined=on_undefined, **options)

    return compute


def _item_exposure_achievable(key):
    def achievable(m, n, k, **params):
        return _bounds.achievable(key, m, n, k, **params)

    return achievable


_P1 = "Rampisela et al. 2024 (ACM TORS), thesis Ch. 2"
_NO_USERS = "no users (m = 0: no slots)"
_EMPTY = ("the achievable range is empty (0/0): k = n, or m = 1 (then km < n)")


def _item_exposure(key, label, symbol, formula, func, version, higher, description, reference, chapter,
                   undefined, *, value_range=(0.0, 1.0), options=None):
    return MeasureSpec(
        key=key, label=label, symbol=symbol, formula=formula, family="item_exposure", paper=1,
        version=version, higher_is_better=higher, range=value_range, needs=("top_k",),
        compute=_item_exposure_compute(key), func=func, description=description, reference=reference,
        undefined=undefined, options=dict(options or {}),
        achievable=_item_exposure_achievable(key), chapter=chapter,
    )


_JAIN_F = r"\mathrm{Jain}_{\mathrm{ori}} = \frac{(km)^2}{n\sum_{i\in I} c_i^2}"
_QF_F = r"\mathrm{QF}_{\mathrm{ori}} = \frac{|R|}{n}"
_ENT_F = r"\mathrm{Ent}_{\mathrm{ori}} = -\sum_{i\in I} p(i)\log_n p(i),\quad p(i) = \frac{c_i}{km}"
_GINI_F = (r"\mathrm{Gini}_{\mathrm{ori}} = \frac{\sum_{j=1}^{n}(2j-n-1)\,Ex_j}{n\sum_{j=1}^{n}Ex_j},\quad "
           r"Ex_j = \sum_{u\in U}\sum_{w=1}^{W}\mathbb{1}_{R^k_{u,w}}(x_j)")
_GINIW_F = (r"\mathrm{Gini\text{-}w}_{\mathrm{ori}} = \frac{\sum_{j=1}^{n}(2j-n-1)\,Ex_j}{n\sum_{j=1}^{n}Ex_j},\quad "
            r"Ex_j = \sum_{u\in U}\sum_{w=1}^{W}\frac{\mathbb{1}_{R^k_{u,w}}(x_j)}{\log_2(z(u,x_j,w)+1)}")
_FSAT_F = (r"\mathrm{FSat}_{\mathrm{ori}} = \frac{1}{n}\sum_{i\in I}"
           r"\delta\Bigl(c_i \ge \Bigl\lfloor\frac{km}{n}\Bigr\rfloor\Bigr)")
_EUI = (r"E_{u,i} = \frac{1}{W}\sum_{w=1}^{W}\mathbb{1}_{R^k_{u,w}}(i)\,\gamma^{z(u,i,w)-1},\quad "
        r"\tilde E = \frac{1-\gamma^k}{n(1-\gamma)}")

ITEM_EXPOSURE = (
    _item_exposure("Jain_ori", "Jain's index", r"\mathrm{Jain}_{\mathrm{ori}}", _JAIN_F, _ie.jain_index,
                   "original", True, "How evenly the km slots are spread over all n items (1 = equal counts).",
                   f"Jain et al. 1984; Zhu et al. 2020 (FARM); {_P1}, Eq. jain-ori", "jain", _NO_USERS),
    _item_exposure("Jain_our", "Jain's index (corrected)", r"\mathrm{Jain}_{\mathrm{our}}",
                   r"\mathrm{Jain}_{\mathrm{our}} = \frac{\mathrm{Jain}_{\mathrm{ori}} - k/n}"
                   r"{\mathrm{Jain}_{\max} - k/n},\quad \mathrm{Jain}_{\max} = \frac{(km)^2}{n(nf^2 + r(2f+1))}",
                   _ie.jain_index_corrected, "corrected", True,
                   "Jain's index rescaled between the same k items for everyone (0) and balanced counts (1); "
                   "both ends exact.", f"{_P1}, Eqs. jain-max, jain-norm", "jain", f"{_EMPTY}; {_NO_USERS}"),
    _item_exposure("QF_ori", "Qualification fairness", r"\mathrm{QF}_{\mathrm{ori}}", _QF_F,
                   _ie.qualification_fairness, "original", True,
                   "Share of the catalogue recommended at least once (coverage); ignores how often.",
                   f"Zhu et al. 2020 (FARM); Mansoury et al. 2020 (FairMatch); {_P1}, Eq. qf-ori", "qf", _NO_USERS),
    _item_exposure("QF_our", "Qualification fairness (corrected)", r"\mathrm{QF}_{\mathrm{our}}",
                   r"\mathrm{QF}_{\mathrm{our}} = \frac{|R| - k}{\min(km, n) - k}",
                   _ie.qualification_fairness_corrected, "corrected", True,
                   "Coverage rescaled between k shown items (0) and min(km, n) shown items (1); both ends exact.",
                   f"{_P1}, Eq. qf-norm", "qf", f"{_EMPTY}; {_NO_USERS}"),
    _item_exposure("Ent_ori", "Entropy", r"\mathrm{Ent}_{\mathrm{ori}}", _ENT_F, _ie.item_entropy, "original",
                   True, "Shannon entropy (base n by default) of the recommendation frequencies over all n items.",
                   f"Shannon 1948; Patro et al. 2020 (FairRec); Mansoury et al. 2020, 2021; {_P1}, Eq. ent-ori",
                   "entropy", "some item is never recommended (log 0; the usual case, NaN in every thesis table); "
                   f"default base n with n = 1; {_NO_USERS}", options={"base": None}),
    _item_exposure("Ent_our", "Entropy (corrected)", r"\mathrm{Ent}_{\mathrm{our}}",
                   r"\mathrm{Ent}_{\mathrm{our}} = \frac{\mathrm{Ent}_{\mathrm{def}} - \log k}"
                   r"{\mathrm{Ent}_{\max} - \log k},\quad \mathrm{Ent}_{\mathrm{def}} = "
                   r"-\sum_{i\in R} p(i)\log p(i)",
                   _ie.item_entropy_corrected, "corrected", True,
                   "Entropy over recommended items, rescaled between the same k items (0) and balanced counts (1); "
                   "base-invariant, both ends exact.", f"{_P1}, Eqs. ent-fair, ent-max, ent-norm", "entropy",
                   f"{_EMPTY}; {_NO_USERS}", options={"base": None}),
    _item_exposure("Gini_ori", "Gini index", r"\mathrm{Gini}_{\mathrm{ori}}", _GINI_F, _ie.gini_index,
                   "original", False, "Inequality of the item counts over all n items (0 = equal).",
                   f"Gini 1912; Mansoury et al. 2020 (FairMatch); {_P1}, Eq. gini-ori", "gini", _NO_USERS),
    _item_exposure("Gini_our", "Gini index (corrected)", r"\mathrm{Gini}_{\mathrm{our}}",
                   r"\mathrm{Gini}_{\mathrm{our}} = \frac{\mathrm{Gini}_{\mathrm{ori}} - \mathrm{Gini}_{\min}}"
                   r"{1 - k/n - \mathrm{Gini}_{\min}},\quad \mathrm{Gini}_{\min} = \frac{(n-r)\,r}{kmn}",
                   _ie.gini_index_corrected, "corrected", False,
                   "Gini index rescaled between balanced counts (0) and the same k items for everyone (1); "
                   "both ends exact.", f"{_P1}, Eqs. gini-min, gini-norm", "gini",
                   f"{_EMPTY} (m counts user-rounds); {_NO_USERS}"),
    _item_exposure("Gini-w_ori", "Weighted Gini index", r"\mathrm{Gini\text{-}w}_{\mathrm{ori}}", _GINIW_F,
                   _ie.gini_index_weighted, "original", False,
                   "Gini index of DCG-weighted exposure (rank l adds 1/log2(l+1)) over all n items.",
                   f"Do et al. 2021, 2022; {_P1}, Eq. gini-ori (DCG examination)", "gini", _NO_USERS),
    _item_exposure("Gini-w_our", "Weighted Gini index (corrected)", r"\mathrm{Gini\text{-}w}_{\mathrm{our}}",
                   r"\mathrm{Gini\text{-}w}_{\mathrm{our}} = \frac{\mathrm{Gini\text{-}w}_{\mathrm{ori}} - "
                   r"\mathrm{Gini\text{-}w}_{\min}}{\mathrm{Gini\text{-}w}_{\max} - \mathrm{Gini\text{-}w}_{\min}}"
                   r"\ (km \le n),\qquad \frac{\mathrm{Gini\text{-}w}_{\mathrm{ori}}}{\mathrm{Gini\text{-}w}_{\max}}"
                   r"\ (km > n)",
                   _ie.gini_index_weighted_corrected, "corrected", False,
                   "Weighted Gini rescaled to the thesis's achievable range: 1 is exact; 0 is exact only when "
                   "km <= n (for km > n the fairest lists score above 0, C4).", f"{_P1}, Eqs. gini-w-max, "
                   "gini-w-min, gini-w-norm", "gini",
                   f"the achievable range is empty (0/0): m = 1 (m counts user-rounds) or n = 1; {_NO_USERS}"),
    _item_exposure("FSat_ori", "Fraction of satisfied items", r"\mathrm{FSat}_{\mathrm{ori}}", _FSAT_F,
                   _ie.fraction_satisfied, "original", True,
                   "Share of items recommended at least their maximin share floor(km/n) times; always 1 when km < n.",
                   f"Patro et al. 2020 (FairRec); {_P1}, Eq. fsat-ori", "fsat", _NO_USERS),
    _item_exposure("FSat_our", "Fraction of satisfied items (corrected)", r"\mathrm{FSat}_{\mathrm{our}}",
                   r"\mathrm{FSat}_{\mathrm{our}} = \frac{\mathrm{FSat}_{\mathrm{ori}} - k/n}{1 - k/n}",
                   _ie.fraction_satisfied_corrected, "corrected", True,
                   "FSat rescaled with the thesis's most unfair value k/n (0) and 1; k/n is not the true minimum, "
                   "so scores below 0 occur (true minimum: recfair.bounds.fsat_true_minimum).",
                   f"{_P1}, Eq. fsat-norm", "fsat", f"k = n (0/0); {_NO_USERS}", value_range=(-np.inf, 1.0)),
    _item_exposure("VoCD", "Violation of coverage disparity", r"\mathrm{VoCD}",
                   r"\mathrm{VoCD} = \frac{1}{|A|}\sum_{(i,i')\in A}\max\Bigl(\frac{|c_i - c_{i'}|}"
                   r"{\max(c_i, c_{i'})} - \beta, 0\Bigr)",
                   _ie.vocd, "single", False,
                   "Mean excess normalised count gap over pairs of alpha-similar recommended items; the most "
                   "unfair end (m-1)/m - beta is only an upper bound, the most fair end 0 is exact.",
                   f"Wang & Wang 2022; {_P1}, Eq. vocd-ori", "vocd",
                   f"no alpha-similar pair of recommended items (|A| = 0, e.g. at most one recommended item); "
                   f"{_NO_USERS}", options={"alpha": 2.0, "beta": 0.0}),
    _item_exposure("II-D", "Individual-user-to-individual-item disparity", r"\mathrm{II\text{-}D}",
                   r"\mathrm{II\text{-}D} = \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}(E_{u,i} - \tilde E)^2,\quad "
                   + _EUI, _ie.ii_disparity, "single", False,
                   "Mean squared gap between each user's RBP exposure of each item and uniformly random exposure; "
                   "a constant in single-round evaluation (both achievable ends equal it, exactly).",
                   f"Diaz et al. 2020; Wu et al. 2022; {_P1}, Eqs. iid-ori, eui", "iid-aid", _NO_USERS,
                   options={"gamma": 0.8}),
    _item_exposure("AI-D", "All-users-to-individual-item disparity", r"\mathrm{AI\text{-}D}",
                   r"\mathrm{AI\text{-}D} = \frac{1}{n}\sum_{i\in I}\Bigl(\frac{1}{m}\sum_{u\in U}E_{u,i}"
                   r" - \tilde E\Bigr)^2,\quad " + _EUI, _ie.ai_disparity, "single", False,
                   "Squared gap between each item's user-averaged RBP exposure and random exposure; its most unfair "
                   "end (the II-D constant) is exact, its most fair end 0 only a lower bound.",
                   f"Wu et al. 2022; {_P1}, Eq. aid-ori", "iid-aid", _NO_USERS, options={"gamma": 0.8}),
)


def _joint_compute(key):
    def compute(run, *, on_undefined="warn", **options):
        return _joint.compute(key, run, on_undefined=on_undefined, **options)

    return compute


_P2 = "Rampisela et al. 2024 (SIGIR), thesis Ch. 3"
_P3 = "Rampisela et al., relevance-aware individual item fairness measures, thesis Ch. 4"
_NO_REL_USER = "a user with no relevant item"
_OUR_EXCL = ("users with no relevant item or only relevant items (empty per-user range) are left out; "
             "undefined if none is left")


def _joint_achievable(key):
    if key not in _joint_bounds.ACHIEVABLE:
        return None

    def achievable(m, n, k, *, n_relevant=None, **params):
        return Bounds(*_joint_bounds.achievable(key, m, n, k, n_relevant=n_relevant, **params))

    return achievable


def _joint_per_user(key):
    if key not in _joint.PER_USER:
        return None

    def per_user(run, **options):
        return _joint.per_user(key, run, **options)

    return per_user


def _joint_spec(key, label, symbol, formula, func, version, paper, higher, description, reference, undefined, *,
           needs=("top_k", "relevant"), value_range=(0.0, 1.0), options=None):
    return MeasureSpec(
        key=key, label=label, symbol=symbol, formula=formula, family="joint", paper=paper, version=version,
        higher_is_better=higher, range=value_range, needs=needs, compute=_joint_compute(key), func=func,
        description=description, reference=reference, undefined=undefined, options=dict(options or {}),
        chapter="joint", graded=key in _joint.GRADED, achievable=_joint_achievable(key),
        per_user=_joint_per_user(key),
    )


_IMP = (r"\mathrm{Imp}_i(i') = \sum_{u\in U}\sum_{p=1}^{k} r_{u,i}\,\frac1p\,X_{u,i',p},\quad "
        r"\mathrm{Imp}_i^{unif} = \frac{1}{mn}\sum_{p=1}^{k}\frac1p\sum_{u\in U}r_{u,i}")
_EXP = (r"E_{u,i} = \mathbb{1}_{L_u}(i)\,\gamma^{z(u,i)-1},\quad "
        r"E^*_{u,i} = \frac{r_{u,i}}{|R^*_u|}\,\frac{1-\gamma^{|R^*_u|}}{1-\gamma}")
_NORM = r"\quad\text{(per-user min-max: }\tfrac{M(u) - M_{\min}(u)}{M_{\max}(u) - M_{\min}(u)}\text{)}"

JOINT = (
    _joint_spec("IAA_ori", "Inequity of amortized attention", r"\mathrm{IAA}_{\mathrm{ori}}",
           r"\mathrm{IAA} = \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}\bigl|\mathbb{1}_{L_u}(i)\,\frac{k-z(u,i)}{k-1}"
           r" - \tilde r(u,i)\bigr|", _joint.inequity_of_amortized_attention, "original", 2, False,
           "Mean absolute gap between each item's linear attention and its relevance, over all n items.",
           f"Biega et al. 2018; Borges & Stefanidis 2019; {_P2}", "k = 1 ((k - z)/(k - 1) is 0/0); no users"),
    _joint_spec("IAA_our", "Inequity of amortized attention (corrected)", r"\mathrm{IAA}_{\mathrm{our}}",
           r"\mathrm{IAA}(u)\ \text{with}\ \tilde e = \frac{k+1-z(u,i)}{k}" + _NORM,
           _joint.inequity_of_amortized_attention_corrected, "corrected", 3, False,
           "IAA with rank k still exposed, rescaled per user between relevant-on-top (0) and "
           "relevant-at-the-bottom (1); both ends exact.", _P3, _OUR_EXCL, options={"attention": "corrected"}),
    _joint_spec("IFD_div_ori", "Individual fairness disparity (division)", r"\mathrm{IFD}_{\div}",
           r"\mathrm{IFD}_\div = \frac1m\sum_{u\in U}\frac{1}{|H_u|}\sum_{(i,i')\in H_u}\max\{0, J_\div(u,i)"
           r" - J_\div(u,i')\},\quad J_\div(u,i) = \frac{e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}}",
           _joint.individual_fairness_disparity_div, "original", 2, False,
           "Mean pairwise excess of DCG exposure per unit relevance among each user's relevant items, "
           "read from the full ranking (k-independent).", f"Singh & Joachims 2019; {_P2}",
           f"{_NO_REL_USER} (|H_u| = 0); no users", needs=("ranking", "relevant"), value_range=(0.0, np.inf),
           options={"exposure": "full"}),
    _joint_spec("IFD_div_our", "Individual fairness disparity (division, corrected)", r"\mathrm{IFD}_{\div\text{-our}}",
           r"\mathrm{IFD}_\div(u)\ \text{with}\ J = \frac{\mathbb{1}_{L_u}(i)\,e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}}"
           + _NORM, _joint.individual_fairness_disparity_div_corrected, "corrected", 3, False,
           "IFD (division) with top-k exposure, rescaled per user to its exact achievable range; "
           "one relevant item scores 0.", _P3, _OUR_EXCL),
    _joint_spec("IFD_mul_ori", "Individual fairness disparity (multiplication)", r"\mathrm{IFD}_{\times}",
           r"\mathrm{IFD}_\times = \frac1m\sum_{u\in U}\frac{1}{n(n-1)}\sum_{i\in I}\sum_{i'\ne i}"
           r"\bigl[J_\times(u,i) - J_\times(u,i')\bigr]^2,\quad J_\times(u,i) = r_{u,i}\,\mathbb{1}_{L_u}(i)\,"
           r"e_{\mathrm{DCG}}(z(u,i))", _joint.individual_fairness_disparity_mul, "original", 2, False,
           "Mean squared pairwise gap of relevance-weighted DCG exposure over all n items (closed form).",
           f"Oosterhuis 2021; {_P2}", "n < 2 (no item pair); no users", value_range=(0.0, np.inf)),
    _joint_spec("IFD_mul_our", "Individual fairness disparity (multiplication, corrected)",
           r"\mathrm{IFD}_{\times\text{-our}}", r"\mathrm{IFD}_\times(u)" + _NORM,
           _joint.individual_fairness_disparity_mul_corrected, "corrected", 3, False,
           "IFD (multiplication) rescaled per user to its exact achievable range (exact maximum over "
           "prefix-plus-suffix placements).", _P3, f"n < 2; {_OUR_EXCL}"),
    _joint_spec("HD", "Hellinger distance", r"\mathrm{HD}",
           r"\mathrm{HD} = \frac{1}{\sqrt2}\sqrt{\sum_{p=1}^{k}\bigl(\sqrt{q'_p} - \sqrt{c'_p}\bigr)^2}",
           _joint.hellinger_distance, "single", 2, False,
           "Hellinger distance between user-averaged relevance and click distributions over the positions "
           "of a ground-truth reference list (ties: lower index first, random, or numpy<=1.24's order "
           "as in the published values).", f"Jeunen & Goethals 2021; {_P2}",
           f"{_NO_REL_USER} (r' is 0/0); no users", options={"gamma": 0.9, "tie_break": "stable", "seed": None}),
    _joint_spec("MME", "Mean max envy", r"\mathrm{MME}",
           r"\mathrm{MME} = \frac1n\sum_{i\in I}\Bigl\{\max_{i'\in I}\mathrm{Imp}_i(i') - \mathrm{Imp}_i(i)\Bigr\},"
           r"\quad " + _IMP, _joint.mean_max_envy, "single", 2, False,
           "Mean over items of the largest impact gain from taking another item's exposure (1/p examination).",
           f"Saito & Joachims 2022; {_P2}", "no users", value_range=(0.0, np.inf)),
    _joint_spec("IBO_ori", "Item better-off", r"\mathrm{IBO}_{\mathrm{ori}}",
           r"\mathrm{IBO} = \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}{\mathrm{Imp}_i^{unif}}"
           r" \ge 1.1\Bigr),\quad " + _IMP, _joint.item_better_off, "original", 2, True,
           "Share of all items whose impact is at least 10% above that under uniformly random rankings.",
           f"Saito & Joachims 2022; {_P2}", "an item relevant to no user (ratio 0/0); no users"),
    _joint_spec("IWO_ori", "Item worse-off", r"\mathrm{IWO}_{\mathrm{ori}}",
           r"\mathrm{IWO} = \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}{\mathrm{Imp}_i^{unif}}"
           r" \le 0.9\Bigr),\quad " + _IMP, _joint.item_worse_off, "original", 2, False,
           "Share of all items whose impact is at least 10% below that under uniformly random rankings.",
           f"Saito & Joachims 2022; {_P2}", "an item relevant to no user (ratio 0/0); no users"),
    _joint_spec("IBO_our", "Item better-off (corrected)", r"\mathrm{IBO}_{\mathrm{our}}",
           r"\mathrm{IBO} = \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i) \ge 1.1\,"
           r"\mathrm{Imp}_i^{unif}\bigr)", _joint.item_better_off_corrected, "corrected", 3, True,
           "Share of items relevant to someone whose impact is at least 10% above uniform rankings.",
           f"{_P2} (published form); {_P3}", "no item is relevant to any user; no users"),
    _joint_spec("IWO_our", "Item worse-off (corrected)", r"\mathrm{IWO}_{\mathrm{our}}",
           r"\mathrm{IWO} = \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i) \le 0.9\,"
           r"\mathrm{Imp}_i^{unif}\bigr)", _joint.item_worse_off_corrected, "corrected", 3, False,
           "Share of items relevant to someone whose impact is at least 10% below uniform rankings.",
           f"{_P2} (published form); {_P3}", "no item is relevant to any user; no users"),
    _joint_spec("II-F_ori", "Individual-user-to-individual-item fairness", r"\mathrm{II\text{-}F}",
           r"\mathrm{II\text{-}F} = \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}(E_{u,i} - E^*_{u,i})^2,\quad " + _EXP,
           _joint.ii_fairness, "original", 2, False,
           "Mean squared gap between each user's RBP exposure of each item and its ideal target exposure.",
           f"Diaz et al. 2020; Wu et al. 2022; {_P2}", "no users", options={"gamma": 0.8}),
    _joint_spec("II-F_our", "Individual-user-to-individual-item fairness (corrected)",
                r"\mathrm{II\text{-}F}_{\mathrm{our}}",
           r"\mathrm{II\text{-}F}(u) = \frac1n\sum_{i\in I}(E_{u,i} - E^*_{u,i})^2" + _NORM,
           _joint.ii_fairness_corrected, "corrected", 3, False,
           "II-F rescaled per user between relevant-on-top (0) and relevant-at-the-bottom (1); both ends exact.",
           _P3, _OUR_EXCL, options={"gamma": 0.8}),
    _joint_spec("AI-F", "All-users-to-individual-item fairness", r"\mathrm{AI\text{-}F}",
           r"\mathrm{AI\text{-}F} = \frac1n\sum_{i\in I}\Bigl(\frac1m\sum_{u\in U}E_{u,i} - \frac1m\sum_{u\in U}"
           r"E^*_{u,i}\Bigr)^2,\quad " + _EXP, _joint.ai_fairness, "single", 2, False,
           "Mean squared gap between each item's user-averaged RBP exposure and its user-averaged target.",
           f"Wu et al. 2022; {_P2}", "no users", options={"gamma": 0.8}),
)

#: Every measure, in the thesis's order.
# Paper 3's guideline marks travel with the joint records
JOINT = tuple(replace(s, guidelines=_guidelines.MARKS.get(s.key)) for s in JOINT)

ALL_MEASURES: tuple[MeasureSpec, ...] = RELEVANCE + ITEM_EXPOSURE + JOINT

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
            "needs": ", ".join(s.needs), "graded": s.graded,
            "options": ", ".join(f"{k}={v!r}" for k, v in s.options.items()),
            "undefined": s.undefined, "description": s.description,
        })
    return pd.DataFrame(rows).set_index("measure")


def _fmt(x: float) -> str:
    if np.isinf(x):
        return "∞" if x > 0 else "-∞"
    return f"{x:g}"
