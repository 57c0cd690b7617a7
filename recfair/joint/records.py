"""Registry records of the Part II measures (Papers 2-3): one :class:`~recfair.spec.MeasureSpec` each.

The central :mod:`recfair.registry` collects :data:`RECORDS`; this module never imports it.
Paper 3's guideline marks (:mod:`recfair.joint.guidelines`) travel with the records.

>>> [s.key for s in RECORDS][:2]
['IAA_ori', 'IAA_our']
"""

from __future__ import annotations

import numpy as np

from ..spec import Computation, MeasureSpec, mean_state
from . import bounds as _joint_bounds
from . import guidelines as _guidelines
from . import measures as _joint

__all__ = ["RECORDS"]


def _joint_compute(key):
    def compute(run, *, on_undefined="warn", **options):
        return _joint._compute(key, run, on_undefined=on_undefined, **options)

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
        return _joint_bounds.achievable(key, m, n, k, n_relevant=n_relevant, **params)

    return achievable


def _joint_exhaustive(key):
    def exhaustive(m, n, k, **params):
        return _joint_bounds.exhaustive(key, m, n, k, **params)

    return exhaustive


def _joint_per_user(key):
    if key not in _joint.PER_USER:
        return None

    def per_user(run, **options):
        return _joint._per_user(key, run, **options)

    return per_user


def _joint_computation(key, needs) -> Computation:
    cost = "O(mn)" if "ranking" in needs or "scores" in needs else "O(mk)"
    if key in _joint.PER_USER:
        def partial(run, *, weights=None, **options):
            values, reason = _joint._per_user_block(key, run, **options)
            return {**mean_state(values, weights=weights), "reason": reason}

        def merge(a, b):
            return {"sum": a["sum"] + b["sum"], "defined": a["defined"] + b["defined"],
                    "users": a["users"] + b["users"], "reason": a["reason"] if a["reason"] is not None else b["reason"]}

        def finish(state, *, on_undefined="warn", **options):
            return _joint.finish_mean(key, state["sum"].value, n_users=state["users"], n_defined=state["defined"],
                                      reason=state["reason"], on_undefined=on_undefined)

        return Computation("per_user", partial=partial, finish=finish, merge=merge, cost=cost,
                           state="a sum, 2 counts")
    if key in _joint.ITEM_SUMS:
        def partial(run, *, weights=None, **options):
            if weights is not None:
                raise ValueError(f"{key}'s per-item sums take no user weights.")
            return {"sums": _joint._item_sums_block(key, run, **options), "users": run.n_users,
                    "_n_items": run.n_items, "_k": run.k}

        def finish(state, *, on_undefined="warn", **options):
            return _joint.finish_item_sums(key, state["sums"], n_users=state["users"], n_items=state["_n_items"],
                                           k=state["_k"], on_undefined=on_undefined, **options)

        return Computation("item_sums", partial=partial, finish=finish, cost=cost,
                           state="2k sums" if key == "HD" else "per-item sums")
    return Computation("run", cost="O(n²)", state="no: item pairs")


_CHAPTERS = {"IAA": "iaa", "IFD": "ifd", "HD": "hd", "MME": "mme-ibo-iwo", "IBO": "mme-ibo-iwo",
             "IWO": "mme-ibo-iwo", "II-F": "iif-aif", "AI-F": "iif-aif"}


def _joint_spec(key, label, symbol, formula, version, paper, higher, description, reference, undefined, *,
           needs=("top_k", "relevant"), value_range=(0.0, 1.0), options=None):
    return MeasureSpec(
        computation=_joint_computation(key, needs),
        key=key, label=label, symbol=symbol, formula=formula, family="joint", paper=paper, version=version,
        higher_is_better=higher, range=value_range, needs=needs, compute=_joint_compute(key), func=_joint.FUNCTIONS[key],
        description=description, reference=reference, undefined=undefined, options=dict(options or {}),
        chapter=_CHAPTERS[key.split("_")[0]], graded=key in _joint.GRADED, achievable=_joint_achievable(key),
        exhaustive=_joint_exhaustive(key), per_user=_joint_per_user(key), guidelines=_guidelines.MARKS.get(key),
    )


def _aligned(*rows: str) -> str:
    """Display lines aligned at their ``&``, so that no formula is wider than a phone's column."""
    return r"\begin{aligned}" + r" \\ ".join(rows) + r"\end{aligned}"


_IMP = (r"\mathrm{Imp}_i(i') &= \sum_{u\in U}\sum_{p=1}^{k} r_{u,i}\,\frac1p\,X_{u,i',p}",
        r"X_{u,i',p} &= \frac{1}{Wm}\sum_{w=1}^{W}\mathbb{1}\bigl[z(u,i',w) = p\bigr]")
_IMP_UNIF = (r"\mathrm{Imp}_i^{unif} &= \frac{1}{mn}\sum_{p=1}^{k}\frac1p\sum_{u\in U}r_{u,i}",)
_EXP = (r"E_{u,i} &= \mathbb{1}_{L_u}(i)\,\gamma^{z(u,i)-1}",
        r"E^*_{u,i} &= \frac{r_{u,i}}{|R^*_u|}\,\frac{1-\gamma^{|R^*_u|}}{1-\gamma}")
_R_TILDE = (r"\tilde r(u,i) &= \frac{r_{u,i} - \min_{i'} r_{u,i'}}{\max_{i'} r_{u,i'} - \min_{i'} r_{u,i'}}",
            r"&\bigl(\mathbb{1}[r_{u,i} > 0]\ \text{if } \max = \min\bigr)")


def _per_user(symbol: str, *score: str, one_relevant: bool = False) -> str:
    """A corrected measure: the per-user score ``M(u)`` (rows ``score``) min-max rescaled between its
    smallest and largest value over all top-k lists of that user, averaged over the users in ``U'``."""
    kept = r"U' &= \{u : M_{\min}(u) < M_{\max}(u)\}"
    if one_relevant:                      # IFD÷: a user with one relevant item scores 0 and is kept
        kept = r"U' &= \{u : M_{\min}(u) < M_{\max}(u)\} \\ &\quad\cup \{u : |R^*_u| = 1\}"
    return _aligned(
        symbol + r" &= \frac{1}{|U'|}\sum_{u\in U'}\hat M(u)",
        r"\hat M(u) &= \frac{M(u) - M_{\min}(u)}{M_{\max}(u) - M_{\min}(u)}",
        *((r"\hat M(u) &= 0\ \text{ if } |R^*_u| = 1",) if one_relevant else ()),
        *score,
        r"M_{\min}(u) &= \min_{L_u} M(u)",
        r"M_{\max}(u) &= \max_{L_u} M(u)",
        r"&\text{over all top-}k\text{ lists } L_u",
        kept,
    )


_PAIRS = (r"H_u &= R^*_u \times R^*_u",
          r"R^*_u &= \{i\in I : r_{u,i} > 0\}")
_I_MINUS = r"I^- &= \{i : \textstyle\sum_{u\in U} r_{u,i} > 0\}"

#: The Part II records, in the thesis's order (collected by :mod:`recfair.registry`).
RECORDS = (
    _joint_spec("IAA_ori", "Inequity of amortized attention", r"\mathrm{IAA}_{\mathrm{ori}}",
           _aligned(r"\mathrm{IAA} &= \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}\bigl|a(u,i) - \tilde r(u,i)\bigr|",
                    r"a(u,i) &= \mathbb{1}_{L_u}(i)\,\frac{k-z(u,i)}{k-1}", *_R_TILDE), "original", 2, False,
           "Mean absolute gap between each item's linear attention and its relevance, over all n items.",
           f"Biega et al. 2018; Borges & Stefanidis 2019; {_P2}", "k = 1 ((k - z)/(k - 1) is 0/0); no users"),
    _joint_spec("IAA_our", "Inequity of amortized attention (corrected)", r"\mathrm{IAA}_{\mathrm{our}}",
           _per_user(r"\mathrm{IAA}_{\mathrm{our}}",
                     r"M(u) &= \frac1n\sum_{i\in I}\bigl|\tilde e(u,i) - \tilde r(u,i)\bigr|",
                     r"\tilde e(u,i) &= \mathbb{1}_{L_u}(i)\,\frac{k+1-z(u,i)}{k}", *_R_TILDE),
           "corrected", 3, False,
           "IAA with rank k still exposed, rescaled per user between relevant-on-top (0) and "
           "relevant-at-the-bottom (1); both ends exact.", _P3, _OUR_EXCL, options={"attention": "corrected"}),
    _joint_spec("IFD_div_ori", "Individual fairness disparity (division)", r"\mathrm{IFD}_{\div}",
           _aligned(r"\mathrm{IFD}_\div &= \frac1m\sum_{u\in U}\frac{1}{|H_u|}\sum_{(i,i')\in H_u}d_{i,i'}",
                    r"d_{i,i'} &= \max\{0,\ J_\div(u,i) - J_\div(u,i')\}",
                    r"J_\div(u,i) &= \frac{e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}}",
                    r"z(u,i) &= \text{rank of } i \text{ in all of } I", *_PAIRS),
           "original", 2, False,
           "Mean pairwise excess of DCG exposure per unit relevance among each user's relevant items, "
           "read from the full ranking (k-independent).", f"Singh & Joachims 2019; {_P2}",
           f"{_NO_REL_USER} (|H_u| = 0); no users", needs=("ranking", "relevant"), value_range=(0.0, np.inf),
           options={"exposure": "full"}),
    _joint_spec("IFD_div_our", "Individual fairness disparity (division, corrected)", r"\mathrm{IFD}_{\div\text{-our}}",
           _per_user(r"\mathrm{IFD}_{\div\text{-our}}",
                     r"M(u) &= \frac{1}{|H_u|}\sum_{(i,i')\in H_u}d_{i,i'}",
                     r"d_{i,i'} &= \max\{0,\ J(u,i) - J(u,i')\}",
                     r"J(u,i) &= \mathbb{1}_{L_u}(i)\,\frac{e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}}", *_PAIRS,
                     one_relevant=True), "corrected", 3, False,
           "IFD (division) with top-k exposure, rescaled per user to its exact achievable range; "
           "one relevant item scores 0.", _P3, _OUR_EXCL),
    _joint_spec("IFD_mul_ori", "Individual fairness disparity (multiplication)", r"\mathrm{IFD}_{\times}",
           _aligned(r"\mathrm{IFD}_\times &= \frac1m\sum_{u\in U}\frac{1}{n(n-1)}\sum_{i\in I}\sum_{i'\ne i}"
                    r"D_{u,i,i'}^2",
                    r"D_{u,i,i'} &= J_\times(u,i) - J_\times(u,i')",
                    r"J_\times(u,i) &= r_{u,i}\,\mathbb{1}_{L_u}(i)\,e_{\mathrm{DCG}}(z(u,i))"),
           "original", 2, False,
           "Mean squared pairwise gap of relevance-weighted DCG exposure over all n items (closed form).",
           f"Oosterhuis 2021; {_P2}", "n < 2 (no item pair); no users", value_range=(0.0, np.inf)),
    _joint_spec("IFD_mul_our", "Individual fairness disparity (multiplication, corrected)",
           r"\mathrm{IFD}_{\times\text{-our}}",
           _per_user(r"\mathrm{IFD}_{\times\text{-our}}",
                     r"M(u) &= \frac{1}{n(n-1)}\sum_{i\in I}\sum_{i'\ne i}D_{u,i,i'}^2",
                     r"D_{u,i,i'} &= J(u,i) - J(u,i')",
                     r"J(u,i) &= r_{u,i}\,\mathbb{1}_{L_u}(i)\,e_{\mathrm{DCG}}(z(u,i))"),
           "corrected", 3, False,
           "IFD (multiplication) rescaled per user to its exact achievable range (exact maximum over "
           "prefix-plus-suffix placements).", _P3, f"n < 2; {_OUR_EXCL}"),
    _joint_spec("HD", "Hellinger distance", r"\mathrm{HD}",
           _aligned(r"\mathrm{HD} &= \frac{1}{\sqrt2}\sqrt{\sum_{p=1}^{k}\bigl(\sqrt{q'_p} - \sqrt{c'_p}\bigr)^2}",
                    r"q'_p &= \frac1m\sum_{u\in U}\sum_{i\in I}\delta\bigl(z^*(u,i) = p\bigr)\,r'_{u,i}",
                    r"r'_{u,i} &= r_{u,i}\Big/\textstyle\sum_{i'\in I} r_{u,i'}",
                    r"c'_p &= \frac1m\sum_{u\in U}\frac{c^*_{u,p}}{\sum_{\ell=1}^{k}c^*_{u,\ell}}",
                    r"c^*_{u,p} &= \sum_{i\in L_u}\delta\bigl(z^*(u,i) = p\bigr)\,c'_{u,z(u,i)}",
                    r"c'_{u,p} &= \frac{c_{u,p}}{\sum_{\ell=1}^{k}c_{u,\ell}}",
                    r"c_{u,p} &= \gamma^{p}\,\rho_{u,p}\prod_{j<p}(1 - \rho_{u,j})",
                    r"\rho_{u,p} &= \sum_{i\in L_u}\delta\bigl(z(u,i) = p\bigr)\,r_{u,i}",
                    r"z^*(u,i) &= \text{rank by decreasing } r_{u,i}",
                    r"&\text{ties: lower index first; } 0/0 := 0"),
           "single", 2, False,
           "Hellinger distance between user-averaged relevance and click distributions over the positions "
           "of a ground-truth reference list (ties: lower index first, random, or numpy<=1.24's order "
           "as in the published values).", f"Jeunen & Goethals 2021; {_P2}",
           f"{_NO_REL_USER} (r' is 0/0); no users", options={"gamma": 0.9, "tie_break": "stable", "seed": None}),
    _joint_spec("MME", "Mean max envy", r"\mathrm{MME}",
           _aligned(r"\mathrm{MME} &= \frac1n\sum_{i\in I}\Bigl\{\max_{i'\in I}\mathrm{Imp}_i(i') - "
                    r"\mathrm{Imp}_i(i)\Bigr\}", *_IMP), "single", 2, False,
           "Mean over items of the largest impact gain from taking another item's exposure (1/p examination).",
           f"Saito & Joachims 2022; {_P2}", "no users", value_range=(0.0, np.inf)),
    _joint_spec("IBO_ori", "Item better-off", r"\mathrm{IBO}_{\mathrm{ori}}",
           _aligned(r"\mathrm{IBO} &= \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}"
                    r"{\mathrm{Imp}_i^{unif}} \ge 1.1\Bigr)", *_IMP, *_IMP_UNIF), "original", 2, True,
           "Share of all items whose impact is at least 10% above that under uniformly random rankings.",
           f"Saito & Joachims 2022; {_P2}", "an item relevant to no user (ratio 0/0); no users"),
    _joint_spec("IWO_ori", "Item worse-off", r"\mathrm{IWO}_{\mathrm{ori}}",
           _aligned(r"\mathrm{IWO} &= \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}"
                    r"{\mathrm{Imp}_i^{unif}} \le 0.9\Bigr)", *_IMP, *_IMP_UNIF), "original", 2, False,
           "Share of all items whose impact is at least 10% below that under uniformly random rankings.",
           f"Saito & Joachims 2022; {_P2}", "an item relevant to no user (ratio 0/0); no users"),
    _joint_spec("IBO_our", "Item better-off (corrected)", r"\mathrm{IBO}_{\mathrm{our}}",
           _aligned(r"\mathrm{IBO} &= \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i)",
                    r"&\qquad \ge 1.1\,\mathrm{Imp}_i^{unif}\bigr)", _I_MINUS, *_IMP, *_IMP_UNIF), "corrected", 3, True,
           "Share of items relevant to someone whose impact is at least 10% above uniform rankings.",
           f"{_P2} (published form); {_P3}", "no item is relevant to any user; no users"),
    _joint_spec("IWO_our", "Item worse-off (corrected)", r"\mathrm{IWO}_{\mathrm{our}}",
           _aligned(r"\mathrm{IWO} &= \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i)",
                    r"&\qquad \le 0.9\,\mathrm{Imp}_i^{unif}\bigr)", _I_MINUS, *_IMP, *_IMP_UNIF), "corrected", 3, False,
           "Share of items relevant to someone whose impact is at least 10% below uniform rankings.",
           f"{_P2} (published form); {_P3}", "no item is relevant to any user; no users"),
    _joint_spec("II-F_ori", "Individual-user-to-individual-item fairness", r"\mathrm{II\text{-}F}",
           _aligned(r"\mathrm{II\text{-}F} &= \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}(E_{u,i} - E^*_{u,i})^2",
                    *_EXP),
           "original", 2, False,
           "Mean squared gap between each user's RBP exposure of each item and its ideal target exposure.",
           f"Diaz et al. 2020; Wu et al. 2022; {_P2}", "no users", options={"gamma": 0.8}),
    _joint_spec("II-F_our", "Individual-user-to-individual-item fairness (corrected)",
                r"\mathrm{II\text{-}F}_{\mathrm{our}}",
           _per_user(r"\mathrm{II\text{-}F}_{\mathrm{our}}",
                     r"M(u) &= \frac1n\sum_{i\in I}(E_{u,i} - E^*_{u,i})^2", *_EXP),
           "corrected", 3, False,
           "II-F rescaled per user between relevant-on-top (0) and relevant-at-the-bottom (1); both ends exact.",
           _P3, _OUR_EXCL, options={"gamma": 0.8}),
    _joint_spec("AI-F", "All-users-to-individual-item fairness", r"\mathrm{AI\text{-}F}",
           _aligned(r"\mathrm{AI\text{-}F} &= \frac1n\sum_{i\in I}\bigl(\bar E_i - \bar E^*_i\bigr)^2",
                    r"\bar E_i &= \frac1m\sum_{u\in U}E_{u,i},\quad \bar E^*_i = \frac1m\sum_{u\in U}E^*_{u,i}",
                    *_EXP), "single", 2, False,
           "Mean squared gap between each item's user-averaged RBP exposure and its user-averaged target.",
           f"Wu et al. 2022; {_P2}", "no users", options={"gamma": 0.8}),
)
