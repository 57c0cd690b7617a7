"""Registry records of the Part I measures (Paper 1): one :class:`~recfair.spec.MeasureSpec` each.

The central :mod:`recfair.registry` collects :data:`RECORDS`; this module never imports it.

>>> [s.key for s in RECORDS][:3]
['Jain_ori', 'Jain_our', 'QF_ori']
"""

from __future__ import annotations

import numpy as np

from ..spec import Computation, MeasureSpec
from . import bounds as _bounds
from . import measures as _ie
from . import resample as _resample
from . import search as _search

__all__ = ["RECORDS"]


def _item_exposure_compute(key):
    def compute(run, *, on_undefined="warn", **options):
        return _ie._compute(key, run, on_undefined=on_undefined, **options)

    return compute


def _item_exposure_achievable(key):
    def achievable(m, n, k, **params):
        return _bounds.achievable(key, m, n, k, **params)

    return achievable


def _item_exposure_exhaustive(key):
    def exhaustive(m, n, k, **params):
        return _search.exhaustive(key, m, n, k, **params)

    return exhaustive


_P1 = "Rampisela et al. 2024 (ACM TORS), thesis Ch. 2"
_NO_USERS = "no users (m = 0: no slots)"
_EMPTY = ("the achievable range is empty (0/0): k = n, or m = 1 (then km < n)")


def _rank_counts(run, *, weights=None) -> dict:
    """The block state of every Part I measure: how often each item fills each rank (user weights: multiplicities)."""
    if weights is None:
        counts = _ie.RankCounts.of(run.top_k, n_items=run.n_items)
    else:
        weights = np.asarray(weights, dtype=np.float64)
        if weights.shape != (run.n_users,) or (weights < 0).any() or (weights != np.round(weights)).any():
            raise ValueError("Part I's rank counts take one non-negative whole weight per user "
                             f"({run.n_users}), got shape {weights.shape}.")
        k = run.k
        flat = (run.top_k * k + np.arange(k)).ravel()
        table = np.bincount(flat, weights=np.repeat(weights, k), minlength=run.n_items * k)
        counts = _ie.RankCounts(np.rint(table).astype(np.int64).reshape(run.n_items, k), int(weights.sum()))
    return {"counts": counts, "_n_items": run.n_items, "_item_features": run.item_features}


def _item_exposure_computation(key) -> Computation:
    def finish(state, *, on_undefined="warn", **options):
        extra = {"item_features": state["_item_features"]} if key == "VoCD" else {}
        return _ie.from_rank_counts(key, state["counts"], n_items=state["_n_items"], on_undefined=on_undefined,
                                    **options, **extra)

    # VoCD: a gap per pair of recommended items (O(mk + n log n) from sorted counts at the default alpha = 2)
    cost = "O(mk + n²)" if key == "VoCD" else "O(mk)"
    return Computation("item_sums", partial=_rank_counts, finish=finish, whole_run_if=_several_rounds,
                       linear=_linear_form(key), cost=cost, state="n × k counts")


def _several_rounds(run) -> bool:
    """Rank counts hold one round of lists: a run of several rounds is computed whole."""
    rounds = getattr(run, "rounds", None)
    return rounds is not None and rounds.shape[0] > 1


def _linear_form(key):
    def linear(run, **options):
        return _resample.linear_form(key, run, **options)

    return linear


def _item_exposure(key, label, symbol, formula, func, version, higher, description, reference, chapter,
                   undefined, *, value_range=(0.0, 1.0)):
    return MeasureSpec(
        computation=_item_exposure_computation(key),
        key=key, label=label, symbol=symbol, formula=formula, family="item_exposure", paper=1,
        version=version, higher_is_better=higher, range=value_range, needs=("top_k",),
        compute=_item_exposure_compute(key), func=func, description=description, reference=reference,
        undefined=undefined, options=_bounds.parameters(key),
        achievable=_item_exposure_achievable(key), exhaustive=_item_exposure_exhaustive(key), chapter=chapter,
    )


def _aligned(*equations):
    """Display several equations one per line, aligned at their first ``=`` (fits a phone screen)."""
    return (r"\begin{aligned}" + r",\\ ".join(eq.replace(" = ", " &= ", 1) for eq in equations)
            + r"\end{aligned}")


_JAIN_F = r"\mathrm{Jain}_{\mathrm{ori}} = \frac{(km)^2}{n\sum_{i\in I} c_i^2}"
_QF_F = r"\mathrm{QF}_{\mathrm{ori}} = \frac{|R|}{n}"
_ENT_F = _aligned(r"\mathrm{Ent}_{\mathrm{ori}} = -\sum_{i\in I} p(i)\log_n p(i)", r"p(i) = \frac{c_i}{km}")
_GINI_F = _aligned(r"\mathrm{Gini}_{\mathrm{ori}} = \frac{\sum_{j=1}^{n}(2j-n-1)\,Ex_j}{n\sum_{j=1}^{n}Ex_j}",
                   r"Ex_j = \sum_{u\in U}\sum_{w=1}^{W}\mathbb{1}_{R^k_{u,w}}(x_j)")
_GINIW_F = _aligned(r"\mathrm{Gini\text{-}w}_{\mathrm{ori}} = \frac{\sum_{j=1}^{n}(2j-n-1)\,Ex_j}{n\sum_{j=1}^{n}Ex_j}",
                    r"Ex_j = \sum_{u\in U}\sum_{w=1}^{W}\frac{\mathbb{1}_{R^k_{u,w}}(x_j)}{\log_2(z(u,x_j,w)+1)}")
_FSAT_F = (r"\mathrm{FSat}_{\mathrm{ori}} = \frac{1}{n}\sum_{i\in I}"
           r"\delta\Bigl(c_i \ge \Bigl\lfloor\frac{km}{n}\Bigr\rfloor\Bigr)")
_EUI = (r"E_{u,i} = \frac{1}{W}\sum_{w=1}^{W}\mathbb{1}_{R^k_{u,w}}(i)\,\gamma^{z(u,i,w)-1}",
        r"\tilde E = \frac{1-\gamma^k}{n(1-\gamma)}")

#: The Part I records, in the thesis's order (collected by :mod:`recfair.registry`).
RECORDS = (
    _item_exposure("Jain_ori", "Jain's index", r"\mathrm{Jain}_{\mathrm{ori}}", _JAIN_F, _ie.jain_index,
                   "original", True, "How evenly the km slots are spread over all n items (1 = equal counts).",
                   f"Jain et al. 1984; Zhu et al. 2020 (FARM); {_P1}", "jain", _NO_USERS),
    _item_exposure("Jain_our", "Jain's index (corrected)", r"\mathrm{Jain}_{\mathrm{our}}",
                   _aligned(r"\mathrm{Jain}_{\mathrm{our}} = \frac{\mathrm{Jain}_{\mathrm{ori}} - k/n}"
                            r"{\mathrm{Jain}_{\max} - k/n}",
                            r"\mathrm{Jain}_{\max} = \frac{(km)^2}{n(nf^2 + r(2f+1))}"),
                   _ie.jain_index_corrected, "corrected", True,
                   "Jain's index rescaled between the same k items for everyone (0) and balanced counts (1); "
                   "both ends exact.", f"{_P1}", "jain", f"{_EMPTY}; {_NO_USERS}"),
    _item_exposure("QF_ori", "Qualification fairness", r"\mathrm{QF}_{\mathrm{ori}}", _QF_F,
                   _ie.qualification_fairness, "original", True,
                   "Share of the catalogue recommended at least once (coverage); ignores how often.",
                   f"Zhu et al. 2020 (FARM); Mansoury et al. 2020 (FairMatch); {_P1}", "qf", _NO_USERS),
    _item_exposure("QF_our", "Qualification fairness (corrected)", r"\mathrm{QF}_{\mathrm{our}}",
                   r"\mathrm{QF}_{\mathrm{our}} = \frac{|R| - k}{\min(km, n) - k}",
                   _ie.qualification_fairness_corrected, "corrected", True,
                   "Coverage rescaled between k shown items (0) and min(km, n) shown items (1); both ends exact.",
                   f"{_P1}", "qf", f"{_EMPTY}; {_NO_USERS}"),
    _item_exposure("Ent_ori", "Entropy", r"\mathrm{Ent}_{\mathrm{ori}}", _ENT_F, _ie.item_entropy, "original",
                   True, "Shannon entropy (base n by default) of the recommendation frequencies over all n items.",
                   f"Shannon 1948; Patro et al. 2020 (FairRec); Mansoury et al. 2020, 2021; {_P1}",
                   "entropy", "some item is never recommended (log 0; the usual case, NaN in every thesis table); "
                   f"default base n with n = 1; {_NO_USERS}"),
    _item_exposure("Ent_our", "Entropy (corrected)", r"\mathrm{Ent}_{\mathrm{our}}",
                   _aligned(r"\mathrm{Ent}_{\mathrm{our}} = \frac{\mathrm{Ent}_{\mathrm{def}} - \log k}"
                            r"{\mathrm{Ent}_{\max} - \log k}",
                            r"\mathrm{Ent}_{\mathrm{def}} = -\sum_{i\in R} p(i)\log p(i)"),
                   _ie.item_entropy_corrected, "corrected", True,
                   "Entropy over recommended items, rescaled between the same k items (0) and balanced counts (1); "
                   "base-invariant, both ends exact.", f"{_P1}", "entropy",
                   f"{_EMPTY}; {_NO_USERS}"),
    _item_exposure("Gini_ori", "Gini index", r"\mathrm{Gini}_{\mathrm{ori}}", _GINI_F, _ie.gini_index,
                   "original", False, "Inequality of the item counts over all n items (0 = equal).",
                   f"Gini 1912; Mansoury et al. 2020 (FairMatch); {_P1}", "gini", _NO_USERS),
    _item_exposure("Gini_our", "Gini index (corrected)", r"\mathrm{Gini}_{\mathrm{our}}",
                   _aligned(r"\mathrm{Gini}_{\mathrm{our}} = \frac{\mathrm{Gini}_{\mathrm{ori}} - \mathrm{Gini}_{\min}}"
                            r"{1 - k/n - \mathrm{Gini}_{\min}}",
                            r"\mathrm{Gini}_{\min} = \frac{(n-r)\,r}{kmn}"),
                   _ie.gini_index_corrected, "corrected", False,
                   "Gini index rescaled between balanced counts (0) and the same k items for everyone (1); "
                   "both ends exact.", f"{_P1}", "gini",
                   f"{_EMPTY} (m counts user-rounds); {_NO_USERS}"),
    _item_exposure("Gini-w_ori", "Weighted Gini index", r"\mathrm{Gini\text{-}w}_{\mathrm{ori}}", _GINIW_F,
                   _ie.gini_index_weighted, "original", False,
                   "Gini index of DCG-weighted exposure (rank l adds 1/log2(l+1)) over all n items.",
                   f"Do et al. 2021, 2022; {_P1}", "gini", _NO_USERS),
    _item_exposure("Gini-w_our", "Weighted Gini index (corrected)", r"\mathrm{Gini\text{-}w}_{\mathrm{our}}",
                   _aligned(r"\mathrm{Gini\text{-}w}_{\mathrm{our}} = \frac{\mathrm{Gini\text{-}w}_{\mathrm{ori}} - "
                            r"\mathrm{Gini\text{-}w}_{\min}}{\mathrm{Gini\text{-}w}_{\max} - \mathrm{Gini\text{-}w}_{\min}}",
                            r"\mathrm{Gini\text{-}w}_{\max} = 1 - \frac{C_k}{n}",
                            r"\mathrm{Gini\text{-}w}_{\min} = \begin{cases}1 - \dfrac{mC_k}{n}, & km \le n\\[4pt] "
                            r"0, & km > n\end{cases}",
                            r"C_k = \frac{\sum_{\ell=1}^{k}(2\ell-1)\,w_\ell}{\sum_{\ell=1}^{k}w_\ell}",
                            r"w_\ell = \frac{1}{\log_2(\ell+1)}"),
                   _ie.gini_index_weighted_corrected, "corrected", False,
                   "Weighted Gini rescaled to the thesis's achievable range: 1 is exact; 0 is exact only when "
                   "km <= n (for km > n the fairest lists score above 0, C4).", f"{_P1}", "gini",
                   f"the achievable range is empty (0/0): m = 1 (m counts user-rounds) or n = 1; {_NO_USERS}"),
    _item_exposure("FSat_ori", "Fraction of satisfied items", r"\mathrm{FSat}_{\mathrm{ori}}", _FSAT_F,
                   _ie.fraction_satisfied, "original", True,
                   "Share of items recommended at least their maximin share floor(km/n) times; always 1 when km < n.",
                   f"Patro et al. 2020 (FairRec); {_P1}", "fsat", _NO_USERS),
    _item_exposure("FSat_our", "Fraction of satisfied items (corrected)", r"\mathrm{FSat}_{\mathrm{our}}",
                   r"\mathrm{FSat}_{\mathrm{our}} = \frac{\mathrm{FSat}_{\mathrm{ori}} - k/n}{1 - k/n}",
                   _ie.fraction_satisfied_corrected, "corrected", True,
                   "FSat rescaled with the thesis's most unfair value k/n (0) and 1; k/n is not the true minimum, "
                   "so scores below 0 occur (true minimum: recfair.bounds.fsat_true_minimum).",
                   f"{_P1}", "fsat", f"k = n (0/0); {_NO_USERS}", value_range=(-np.inf, 1.0)),
    _item_exposure("VoCD", "Violation of coverage disparity", r"\mathrm{VoCD}",
                   r"\mathrm{VoCD} = \frac{1}{|A|}\sum_{(i,i')\in A}\max\Bigl(\frac{|c_i - c_{i'}|}"
                   r"{\max(c_i, c_{i'})} - \beta, 0\Bigr)",
                   _ie.vocd, "single", False,
                   "Mean excess normalised count gap over pairs of alpha-similar recommended items; the most "
                   "unfair end (m-1)/m - beta is only an upper bound, the most fair end 0 is exact.",
                   f"Wang & Wang 2022; {_P1}", "vocd",
                   f"no alpha-similar pair of recommended items (|A| = 0, e.g. at most one recommended item); "
                   f"{_NO_USERS}"),
    _item_exposure("II-D", "Individual-user-to-individual-item disparity", r"\mathrm{II\text{-}D}",
                   _aligned(r"\mathrm{II\text{-}D} = \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}(E_{u,i} - \tilde E)^2",
                            *_EUI), _ie.ii_disparity, "single", False,
                   "Mean squared gap between each user's RBP exposure of each item and uniformly random exposure; "
                   "a constant in single-round evaluation (both achievable ends equal it, exactly).",
                   f"Diaz et al. 2020; Wu et al. 2022; {_P1}", "iid-aid", _NO_USERS,
                   ),
    _item_exposure("AI-D", "All-users-to-individual-item disparity", r"\mathrm{AI\text{-}D}",
                   _aligned(r"\mathrm{AI\text{-}D} = \frac{1}{n}\sum_{i\in I}\Bigl(\frac{1}{m}\sum_{u\in U}E_{u,i}"
                            r" - \tilde E\Bigr)^2", *_EUI), _ie.ai_disparity, "single", False,
                   "Squared gap between each item's user-averaged RBP exposure and random exposure; its most unfair "
                   "end (the II-D constant) is exact, its most fair end 0 only a lower bound.",
                   f"Wu et al. 2022; {_P1}", "iid-aid", _NO_USERS),
)
