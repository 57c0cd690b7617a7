r"""Part VI: the fairness measures the field uses beside the thesis's, one public function each.

Every function takes the lists ``top_k`` (and ``relevant`` or ``history`` where they are the
subject) positionally and everything else by keyword; it validates its inputs into a
:class:`recfair.run.Run` and computes ``finish(partial(run, context=context(run)))`` with the
kernels of :data:`KERNELS`, the same ones the registry records hand to the engines. Notation:
:math:`m` users, :math:`n` items, :math:`L_u` user :math:`u`'s top-:math:`k`, :math:`H_u` the
history, :math:`R_u` the relevant items, :math:`G` an item group (``item_groups``: one label per
item, ``None`` for an item in no group), :math:`\Phi` the popular head and :math:`\sim\!\Phi`
the long tail (:mod:`recfair.field.popularity`).

=============  ==============================================================  ========
function       measure (registry name)                                         better
=============  ==============================================================  ========
``arp``        average recommendation popularity (``ARP``)                      lower
``aplt``       average percentage of long-tail items (``APLT``)                higher
``aclt``       average coverage of long-tail items (``ACLT``)                  higher
``pop_rsp``    popularity ranking-based statistical parity (``PopRSP``)        lower
``pop_reo``    popularity ranking-based equal opportunity (``PopREO``)         lower
``rsp``        ranking-based statistical parity over item groups (``RSP``)     lower
``reo``        ranking-based equal opportunity over item groups (``REO``)      lower
``bias_disparity``  BS/BR/BD per (user group, item group); ``bd`` (``BD``)     lower
``item_mad``   MAD of item groups' mean gain (``ItemMAD``)                     lower
``user_mad``   MAD of user groups' mean NDCG (``UserMAD``)                     lower
``ndkl``       normalised discounted KL divergence (``NDKL``)                  lower
``exposure_ratio``  min/max of item groups' mean exposure (``ExpRatio``)       higher
``provider_mmf``    exposure share of the worst-off providers (``MMF``)        higher
``ugf``        user-oriented group fairness gap (``UGF``)                      lower
``c_kl``       Steck's miscalibration (``C_KL``)                               lower
``awrf``       attention-weighted rank fairness (``AWRF``)                     higher
``ee_l``, ``ee_d``, ``ee_r``  group expected exposure (``EE-L``, ``EE-D``, ``EE-R``)  lower, lower, higher
=============  ==============================================================  ========

>>> top = [[0, 3], [1, 4], [0, 2]]
>>> history = [[1], [0], [1, 3]]
>>> round(aplt(top, n_items=5, history=history), 4), round(aclt(top, n_items=5, history=history), 4)
(0.3333, 0.6667)
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .._docs import ON_UNDEFINED, doc_filler
from .._validation import check_on_undefined, check_real, undefined
from ..run import Run
from . import _core
from .popularity import HEAD, POPULARITY_OPTIONS, TAIL, head_tail, popularity_of

__all__ = ["arp", "aplt", "aclt", "pop_rsp", "pop_reo", "rsp", "reo", "bias_disparity", "bd", "item_mad", "user_mad",
           "ndkl", "exposure_ratio", "provider_mmf", "ugf", "c_kl", "awrf", "ee_l", "ee_d", "ee_r",
           "advantaged_users", "genre_distributions", "KERNELS", "Kernel"]

_DOCS = {
    "<<top_k>>": """top_k : array-like of int, shape (n_users, >= k)
        Each user's recommended items in rank order (0-based).""",
    "<<n_items>>": """n_items : int
        Catalogue size.""",
    "<<k>>": """k : int, optional
        Cut-off (default: the width of ``top_k``).""",
    "<<history>>": """history : sequences of int or scipy.sparse (n_users, n_items), optional
        Each user's training items (never recommended to that user); the popularity counts come
        from it unless ``popularity`` gives one count per item.""",
    "<<relevant>>": """relevant : sequences of int or scipy.sparse (n_users, n_items)
        Each user's relevant (test) items.""",
    "<<item_groups>>": """item_groups : array-like, shape (n_items,)
        One group label per item (a provider, a genre, ...); ``None``/NaN: the item is in no group.""",
    "<<popularity>>": """popularity : {"users", "interactions"} or array-like of float (n_items,), default="users"
        Item popularity: distinct users with the item in their history, interaction rows (the
        same for a history of item sets, see :func:`recfair.field.popularity.item_popularity`),
        or one count per item (e.g. from the whole training set).
    min_popularity : float, default=0
        Floor of the popularity in ARP (WarpRec: 1, so a never-seen item counts once); the head
        and the tail are always split on the unfloored counts, as in WarpRec.""",
    "<<empty_groups>>": """empty_groups : {"undefined", "drop"}, default="undefined"
        A group with nothing to divide by (no candidate item, resp. no relevant item) makes the
        measure undefined, or is left out of the standard deviation and the mean (WarpRec).""",
    "<<head>>": """head_share : float in (0, 1], default=0.8
        The head covers this share of the training interactions.
    crossing : {"include", "exclude", "exceed"}, default="include"
        Whether the item that reaches ``head_share`` is in the head (Elliot) or not; ``"exceed"``:
        items are taken until they cover strictly more than the share (WarpRec).
    tail : {"catalogue", "seen"}, default="catalogue"
        The tail is every non-head catalogue item, or only those seen in training.
    tail_items : int or float, optional
        RecBole's tail instead (its ``tail_ratio`` in (0, 1]): the ``tail_items`` least popular
        seen items (an int: a number of items; a float in (0, 1]: a share of the seen items).
    tail_threshold : float, optional
        RecBole's tail for ``tail_ratio`` above 1: the seen items with popularity at most this.""",
    "<<unlabelled>>": """unlabelled : {"skip", "group"}, default="skip"
        Items in no group are left out, or form one more group (WarpRec's convention).""",
    "<<groups>>": """groups : array-like (n_users,) or pandas.DataFrame
        The users' groups: one label per user, or a column per sensitive attribute (the groups
        are the non-empty intersections).""",
    "<<on_undefined>>": ON_UNDEFINED,
}
_fill = doc_filler(_DOCS)


@dataclass(frozen=True)
class Kernel:
    """How one Part VI measure is computed: its computation kind, context, partial, finish and options.

    >>> KERNELS["APLT"].kind, KERNELS["RSP"].options
    ('per_user', {'unlabelled': 'skip', 'denominator': 'unseen', 'empty_groups': 'undefined'})
    """

    kind: str
    context: Callable
    partial: Callable
    finish: Callable
    options: dict
    cost: str = "O(mk)"
    state: str = ""
    merge: Callable | None = None


KERNELS: dict[str, Kernel] = {}


def _evaluate(key: str, run: Run, on_undefined: str = "warn", **options) -> float:
    """``finish(partial(run, context=context(run)))``: the one-block computation of measure ``key``."""
    check_on_undefined(on_undefined)
    kernel = KERNELS[key]
    unknown = set(options) - set(kernel.options)
    if unknown:
        raise TypeError(f"{key} got unexpected options {sorted(unknown)}; its options: {sorted(kernel.options)}.")
    opts = {**kernel.options, **options}
    context = kernel.context(run, **opts)
    state = kernel.partial(run, weights=None, context=context, **opts)
    return float(kernel.finish(state, on_undefined=on_undefined, **opts))


# ============================================================================ popularity

def _popularity_context(run, *, popularity="users", min_popularity=0, head_share=0.8, crossing="include",
                        tail="catalogue", tail_items=None, tail_threshold=None, **_):
    raw = popularity_of(run.history, n_items=run.n_items, popularity=popularity)
    pop = popularity_of(run.history, n_items=run.n_items, popularity=popularity, min_popularity=min_popularity)
    # the head and the tail split the unfloored counts: WarpRec floors popularity for ARP only
    # (warprec/evaluation/metrics/bias/long_tail.py hands the raw counts to compute_head_tail)
    codes = head_tail(raw, head_share=head_share, crossing=crossing, tail=tail, tail_items=tail_items,
                      tail_threshold=tail_threshold)
    return {"popularity": pop, "codes": codes, "n_groups": 2, "total": float(raw.sum())}


def _arp_values(run, *, context, normalize=False, **_):
    pop = context["popularity"]
    if normalize:
        if context["total"] == 0:
            raise ValueError("normalize=True divides by the number of training interactions, and there are none.")
        pop = pop / context["total"]
    return pop[run.top_k].mean(axis=1)


def _tail_values(share: bool):
    def values(run, *, context, **_):
        in_tail = (context["codes"][run.top_k] == TAIL).sum(axis=1).astype(np.float64)
        return in_tail / run.k if share else in_tail

    return values


def _mean_partial(values):
    """The partial of a mean over users: the block's weighted sum of ``values(run, context=...)``."""
    def partial(run, *, weights=None, context, **options):
        return _core.per_user_state(values(run, context=context, **options), _core.user_weights(run, weights))

    partial.values = values
    return partial


def _finisher(key):
    def finish(state, *, on_undefined="warn", **_):
        return _core.per_user_finish(key, state, on_undefined)

    return finish


_POP = dict(POPULARITY_OPTIONS)
KERNELS["ARP"] = Kernel("per_user", _popularity_context, _mean_partial(_arp_values), _finisher("ARP"),
                        {"popularity": "users", "min_popularity": 0, "normalize": False},
                        state="a weighted sum and 2 weights")
KERNELS["APLT"] = Kernel("per_user", _popularity_context, _mean_partial(_tail_values(True)), _finisher("APLT"), dict(_POP),
                         state="a weighted sum and 2 weights")
KERNELS["ACLT"] = Kernel("per_user", _popularity_context, _mean_partial(_tail_values(False)), _finisher("ACLT"), dict(_POP),
                         state="a weighted sum and 2 weights")


@_fill
def arp(top_k, *, n_items, history=None, k=None, popularity="users", min_popularity=0, normalize=False,
        on_undefined="warn") -> float:
    r"""Average recommendation popularity (Abdollahpouri et al. 2019): lower is less popularity-biased.

    .. math:: \mathrm{ARP} = \frac{1}{m} \sum_u \frac{1}{k} \sum_{i \in L_u} \phi(i)

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<history>>
    <<k>>
    <<popularity>>
    normalize : bool, default=False
        Divide each item's popularity by the total number of training interactions, the sum of
        the (unfloored) counts: rectools' ``AvgRecPopularity(normalize=True)``, whose popularity
        is ``value_counts(normalize=True)`` of the interactions' items.
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \max_i \phi(i)]`; never undefined.

    Examples
    --------
    >>> arp([[0, 1], [0, 2]], n_items=4, history=[[2, 3], [1, 3]])
    0.5
    >>> arp([[0, 1], [0, 2]], n_items=4, history=[[2, 3], [1, 3]], min_popularity=1)   # WarpRec's floor
    1.0
    """
    run = Run(top_k, n_items, k=k, history=history)
    return _evaluate("ARP", run, on_undefined, popularity=popularity, min_popularity=min_popularity,
                     normalize=normalize)


@_fill
def aplt(top_k, *, n_items, history=None, k=None, popularity="users", min_popularity=0, head_share=0.8,
         crossing="include", tail="catalogue", tail_items=None, tail_threshold=None, on_undefined="warn") -> float:
    r"""Average percentage of long-tail items (Abdollahpouri et al. 2017): higher is fairer to the long tail.

    .. math:: \mathrm{APLT} = \frac{1}{m} \sum_u \frac{|L_u \cap \sim\!\Phi|}{k}

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<history>>
    <<k>>
    <<popularity>>
    <<head>>
    <<on_undefined>>

    Returns
    -------
    float
        Range [0, 1]; never undefined (the head needs some popularity: an empty history is an error).

    Examples
    --------
    >>> round(aplt([[0, 3], [1, 4], [0, 2]], n_items=5, history=[[1], [0], [1, 3]]), 4)   # tail: items 2 and 4
    0.3333
    """
    run = Run(top_k, n_items, k=k, history=history)
    return _evaluate("APLT", run, on_undefined, popularity=popularity, min_popularity=min_popularity,
                     head_share=head_share, crossing=crossing, tail=tail, tail_items=tail_items,
                     tail_threshold=tail_threshold)


@_fill
def aclt(top_k, *, n_items, history=None, k=None, popularity="users", min_popularity=0, head_share=0.8,
         crossing="include", tail="catalogue", tail_items=None, tail_threshold=None, on_undefined="warn") -> float:
    r"""Average coverage of long-tail items (Abdollahpouri et al. 2019): the mean *count* of tail items per list.

    Higher is fairer to the long tail.

    .. math:: \mathrm{ACLT} = \frac{1}{m} \sum_u |L_u \cap \sim\!\Phi|

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<history>>
    <<k>>
    <<popularity>>
    <<head>>
    <<on_undefined>>

    Returns
    -------
    float
        Range [0, k]; never undefined.

    Examples
    --------
    >>> round(aclt([[0, 3], [1, 4], [0, 2]], n_items=5, history=[[1], [0], [1, 3]]), 4)
    0.6667
    """
    run = Run(top_k, n_items, k=k, history=history)
    return _evaluate("ACLT", run, on_undefined, popularity=popularity, min_popularity=min_popularity,
                     head_share=head_share, crossing=crossing, tail=tail, tail_items=tail_items,
                     tail_threshold=tail_threshold)


# ============================================================================ RSP / REO on any item grouping

def _item_group_context(run, *, unlabelled="skip", **_):
    if run.item_groups is None:
        raise ValueError("this measure compares item groups: pass item_groups= (one label per item).")
    if unlabelled not in ("skip", "group"):
        raise ValueError(f'unlabelled must be "skip" or "group", got {unlabelled!r}.')
    codes, labels = run.item_groups, list(run.item_group_labels)
    if unlabelled == "group" and (codes < 0).any():
        codes = np.where(codes < 0, len(labels), codes)
        labels.append(None)
    return {"codes": codes, "n_groups": len(labels), "labels": labels}


def _rsp_partial(run, *, weights=None, context, denominator="unseen", **_):
    if denominator not in ("unseen", "group"):
        raise ValueError(f'denominator must be "unseen" or "group", got {denominator!r}.')
    w = _core.user_weights(run, weights)
    codes, g = context["codes"], context["n_groups"]
    rec = codes[run.top_k]
    keep = rec >= 0
    num = np.bincount(rec[keep], weights=np.broadcast_to(w[:, None], rec.shape)[keep], minlength=g)
    den = w.sum() * _core.group_items(codes, g)
    if denominator == "unseen" and run.history is not None and run.history.nnz:
        users = np.repeat(np.arange(run.n_users), np.diff(run.history.indptr))
        seen = codes[run.history.indices]
        ok = seen >= 0
        den = den - np.bincount(seen[ok], weights=w[users[ok]], minlength=g)
    return {"num": num, "den": den}


def _reo_partial(run, *, weights=None, context, **_):
    w = _core.user_weights(run, weights)
    codes, g = context["codes"], context["n_groups"]
    rel = run._need_relevant()
    rec = codes[run.top_k]
    keep = (rec >= 0) & run.hits
    num = np.bincount(rec[keep], weights=np.broadcast_to(w[:, None], rec.shape)[keep], minlength=g)
    users = np.repeat(np.arange(run.n_users), np.diff(rel.indptr))
    rc = codes[rel.indices]
    ok = rc >= 0
    den = np.bincount(rc[ok], weights=w[users[ok]], minlength=g)
    return {"num": num, "den": den}


def _parity_finish(key, what):
    def finish(state, *, on_undefined="warn", empty_groups="undefined", **_):
        num, den = np.asarray(state["num"], float), np.asarray(state["den"], float)
        if empty_groups not in ("undefined", "drop"):
            raise ValueError(f'empty_groups must be "undefined" or "drop", got {empty_groups!r}.')
        if empty_groups == "drop":
            num, den = num[den > 0], den[den > 0]
        if num.size < 2:
            return undefined(key, "fewer than two item groups" + (f" with a {what}" if empty_groups == "drop" else ""),
                             on_undefined)
        if (den == 0).any():
            g = int(np.flatnonzero(den == 0)[0])
            return undefined(key, f"item group {g} has no {what}", on_undefined)
        ratio = num / den
        mean = ratio.mean()
        if mean == 0:
            return undefined(key, "no group's item is recommended" + (" and relevant" if key.endswith("REO") else ""),
                             on_undefined)
        return float(ratio.std() / mean)

    return finish


KERNELS["PopRSP"] = Kernel("item_sums", _popularity_context, _rsp_partial,
                           _parity_finish("PopRSP", "item outside the users' histories"),
                           {**_POP, "denominator": "unseen", "empty_groups": "undefined"},
                           state="2 × 2 sums (head, tail)")
KERNELS["PopREO"] = Kernel("item_sums", _popularity_context, _reo_partial,
                           _parity_finish("PopREO", "relevant item"), {**_POP, "empty_groups": "undefined"},
                           state="2 × 2 sums (head, tail)")
KERNELS["RSP"] = Kernel("item_sums", _item_group_context, _rsp_partial,
                        _parity_finish("RSP", "item outside the users' histories"),
                        {"unlabelled": "skip", "denominator": "unseen", "empty_groups": "undefined"},
                        state="2 sums per item group")
KERNELS["REO"] = Kernel("item_sums", _item_group_context, _reo_partial, _parity_finish("REO", "relevant item"),
                        {"unlabelled": "skip", "empty_groups": "undefined"}, state="2 sums per item group")

_DOCS["<<rsp_formula>>"] = r"""
    .. math::

        P_g = \frac{\sum_u |L_u \cap G_g|}{\sum_u |G_g \setminus H_u|},\qquad
        \mathrm{RSP} = \frac{\operatorname{std}(P_1, \dots, P_N)}{\operatorname{mean}(P_1, \dots, P_N)}

    (population standard deviation). REO replaces the counts by recommended-and-relevant items
    over relevant items: :math:`P_g = \sum_u |L_u \cap G_g \cap R_u| / \sum_u |G_g \cap R_u|`.
    0 is parity; RSP is at most :math:`\sqrt{N-1}` (all recommendations in one group)."""


@_fill
def pop_rsp(top_k, *, n_items, history=None, k=None, popularity="users", min_popularity=0, head_share=0.8,
            crossing="include", tail="catalogue", tail_items=None, tail_threshold=None, denominator="unseen",
            empty_groups="undefined", on_undefined="warn") -> float:
    r"""Popularity ranking-based statistical parity (Zhu et al. 2021) between the head and the tail: lower is fairer.

    RSP (:func:`rsp`) with the two groups :math:`\Phi` and :math:`\sim\!\Phi`:

    .. math::

        \mathrm{PopRSP} = \frac{|P_\Phi - P_{\sim\Phi}|}{P_\Phi + P_{\sim\Phi}},\quad
        P_G = \frac{\sum_u |L_u \cap G|}{\sum_u |G \setminus H_u|}

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<history>>
    <<k>>
    <<popularity>>
    <<head>>
    denominator : {"unseen", "group"}, default="unseen"
        Per user, the group's items outside the history (Zhu et al.; Elliot and WarpRec too), or
        the whole group, history included (no peer we read does this).
    <<empty_groups>>
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, 1]` for two groups; undefined when a group has no candidate item.

    Examples
    --------
    >>> round(pop_rsp([[0, 3], [1, 4], [0, 2]], n_items=5, history=[[1], [0], [1, 3]]), 4)
    0.4118
    """
    run = Run(top_k, n_items, k=k, history=history)
    return _evaluate("PopRSP", run, on_undefined, popularity=popularity, min_popularity=min_popularity,
                     head_share=head_share, crossing=crossing, tail=tail, tail_items=tail_items,
                     tail_threshold=tail_threshold, denominator=denominator, empty_groups=empty_groups)


@_fill
def pop_reo(top_k, relevant, *, n_items, history=None, k=None, popularity="users", min_popularity=0,
            head_share=0.8, crossing="include", tail="catalogue", tail_items=None, tail_threshold=None,
            empty_groups="undefined", on_undefined="warn") -> float:
    r"""Popularity ranking-based equal opportunity (Zhu et al. 2021) between the head and the tail: lower is fairer.

    REO (:func:`reo`) with the two groups :math:`\Phi` and :math:`\sim\!\Phi`:

    .. math::

        \mathrm{PopREO} = \frac{|P_\Phi - P_{\sim\Phi}|}{P_\Phi + P_{\sim\Phi}},\quad
        P_G = \frac{\sum_u |L_u \cap G \cap R_u|}{\sum_u |G \cap R_u|}

    Parameters
    ----------
    <<top_k>>
    <<relevant>>
    <<n_items>>
    <<history>>
    <<k>>
    <<popularity>>
    <<head>>
    <<empty_groups>>
    <<on_undefined>>

    Returns
    -------
    float
        Range [0, 1] for two groups; undefined when the head or the tail holds no relevant item.

    Examples
    --------
    >>> pop_reo([[0, 3], [1, 4], [0, 2]], [[0, 3], [4], [2]], n_items=5, history=[[1], [0], [1, 3]])
    0.0
    """
    run = Run(top_k, n_items, k=k, history=history, relevant=relevant)
    return _evaluate("PopREO", run, on_undefined, popularity=popularity, min_popularity=min_popularity,
                     head_share=head_share, crossing=crossing, tail=tail, tail_items=tail_items,
                     tail_threshold=tail_threshold, empty_groups=empty_groups)


@_fill
def rsp(top_k, *, n_items, item_groups, history=None, k=None, unlabelled="skip", denominator="unseen",
        empty_groups="undefined", on_undefined="warn") -> float:
    r"""Ranking-based statistical parity over item groups (Zhu et al. 2021): lower is fairer, 0 is parity.
<<rsp_formula>>

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<item_groups>>
    <<history>>
    <<k>>
    <<unlabelled>>
    denominator : {"unseen", "group"}, default="unseen"
        Per user, the group's items outside the history (Zhu et al.; Elliot and WarpRec too), or
        the whole group, history included (no peer we read does this).
    <<empty_groups>>
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \sqrt{N-1}]`; undefined with fewer than two groups or when no item is recommended.

    Examples
    --------
    >>> rsp([[0, 1], [0, 2]], n_items=4, item_groups=["a", "a", "b", "b"])   # shares 3/4 and 1/4
    0.5
    """
    run = Run(top_k, n_items, k=k, history=history, item_groups=item_groups)
    return _evaluate("RSP", run, on_undefined, unlabelled=unlabelled, denominator=denominator,
                     empty_groups=empty_groups)


@_fill
def reo(top_k, relevant, *, n_items, item_groups, history=None, k=None, unlabelled="skip",
        empty_groups="undefined", on_undefined="warn") -> float:
    r"""Ranking-based equal opportunity over item groups (Zhu et al. 2021): lower is fairer, 0 is equal opportunity.
<<rsp_formula>>

    Parameters
    ----------
    <<top_k>>
    <<relevant>>
    <<n_items>>
    <<item_groups>>
    <<history>>
    <<k>>
    <<unlabelled>>
    <<empty_groups>>
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \sqrt{N-1}]`; undefined when a group has no relevant item (whatever is recommended).

    Examples
    --------
    >>> round(reo([[0, 1], [0, 2]], [[0, 3], [2]], n_items=4, item_groups=["a", "a", "b", "b"]), 4)
    0.3333
    >>> reo([[0, 1], [0, 2]], [[0], [1]], n_items=4, item_groups=["a", "a", "b", "b"], on_undefined="nan")
    nan
    """
    run = Run(top_k, n_items, k=k, history=history, relevant=relevant, item_groups=item_groups)
    return _evaluate("REO", run, on_undefined, unlabelled=unlabelled, empty_groups=empty_groups)


# ============================================================================ bias disparity, MAD

def _user_labels(run, need: str):
    """Each user's group label (the intersection of its ``user_attributes``) and the sorted distinct labels."""
    import pandas as pd

    from ..groups import encode_groups

    if run.user_attributes is None:
        raise ValueError(f"{need} compares user groups: pass groups= (one label per user) or user_attributes=.")
    frame = run.user_attributes if isinstance(run.user_attributes, pd.DataFrame) else pd.DataFrame(run.user_attributes)
    codes, labels = encode_groups(frame, n_users=run.n_users)
    per_user = [labels[c] for c in codes]
    return per_user, sorted(set(per_user), key=repr)


def _block_user_codes(run, context, need):
    """A block's users' group codes in the whole run's numbering (``context["user_labels"]``)."""
    per_user, _ = _user_labels(run, need)
    index = {label: j for j, label in enumerate(context["user_labels"])}
    missing = [label for label in per_user if label not in index]
    if missing:
        raise ValueError(f"{need}: user group {missing[0]!r} is not among the run's groups.")
    return np.array([index[label] for label in per_user], dtype=np.int64)


def _as_attributes(groups):
    """``groups=`` of the public functions as the run's ``user_attributes`` (one labelled column, or the frame)."""
    import pandas as pd

    if groups is None or isinstance(groups, pd.DataFrame):
        return groups
    return pd.DataFrame({"group": list(groups)})


def _bd_context(run, **_):
    ctx = _item_group_context(run)
    return {**ctx, "user_labels": _user_labels(run, "BD")[1]}


def _bd_partial(run, *, weights=None, context, **_):
    if run.history is None:
        raise ValueError("BD needs history= (the source's bias BS comes from the training items).")
    w = _core.user_weights(run, weights)
    g, c = len(context["user_labels"]), context["n_groups"]
    ucodes, icodes = _block_user_codes(run, context, "BD"), context["codes"]

    def table(users, items):
        cat = icodes[items]
        ok = cat >= 0
        counts = np.zeros((g, c))
        np.add.at(counts, (ucodes[users[ok]], cat[ok]), w[users[ok]])
        return counts

    h = run.history
    hist = table(np.repeat(np.arange(run.n_users), np.diff(h.indptr)), h.indices)
    rec = table(np.repeat(np.arange(run.n_users), run.k), run.top_k.ravel())
    return {"source": hist, "recommended": rec, "_items": _core.group_items(icodes, c)}


def _bd_table(state):
    src, rec, items = (np.asarray(state[n], float) for n in ("source", "recommended", "_items"))
    prior = items / items.sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        bs = src / src.sum(axis=1, keepdims=True) / prior
        br = rec / rec.sum(axis=1, keepdims=True) / prior
        bdv = (br - bs) / bs
    return bs, br, bdv


def _bd_finish(state, *, on_undefined="warn", **_):
    bs, br, bdv = _bd_table(state)
    defined = np.isfinite(bdv)
    if not defined.any():
        return undefined("BD", "no user group chose any item group in training (BS = 0 everywhere)", on_undefined)
    if not np.isfinite(br).all():
        return undefined("BD", "a user group's lists hold no item with a group", on_undefined)
    return float(np.abs(bdv[defined]).mean())


KERNELS["BD"] = Kernel("item_sums", _bd_context, _bd_partial, _bd_finish, {},
                       cost="O(mk + |H|)", state="2 (user groups × item groups) tables of counts")


@_fill
def bias_disparity(top_k, history, *, n_items, item_groups, groups, k=None):
    r"""Bias disparity (Tsintzou et al. 2019) per (user group, item group): the table BS, BR, BD.

    .. math::

        \mathrm{B}(G, c) = \frac{P(c \mid G)}{P(c)},\quad
        P(c \mid G) = \frac{\sum_{u \in G} |X_u \cap c|}{\sum_{u \in G} |X_u|},\quad
        P(c) = \frac{|c|}{n'},\quad \mathrm{BD} = \frac{\mathrm{BR} - \mathrm{BS}}{\mathrm{BS}}

    with :math:`X_u = H_u` for the source's bias BS and :math:`X_u = L_u` for the
    recommendations' bias BR; :math:`n'` counts the items with a group.

    Parameters
    ----------
    <<top_k>>
    history : sequences of int or scipy.sparse (n_users, n_items)
        Each user's training items.
    <<n_items>>
    <<item_groups>>
    <<groups>>
    <<k>>

    Returns
    -------
    pandas.DataFrame
        One row per (user group, item group), columns ``BS``, ``BR``, ``BD`` (NaN/inf where a
        user group never chose an item group in training).

    Examples
    --------
    >>> t = bias_disparity([[0], [2]], [[1], [3]], n_items=4, item_groups=["a", "a", "b", "b"], groups=["x", "y"])
    >>> t["BD"].tolist()
    [0.0, nan, nan, 0.0]
    """
    import pandas as pd

    run = Run(top_k, n_items, k=k, history=history, item_groups=item_groups, user_attributes=_as_attributes(groups))
    context = _bd_context(run)
    with np.errstate(divide="ignore", invalid="ignore"):
        bs, br, bdv = _bd_table(_bd_partial(run, context=context))
    index = pd.MultiIndex.from_product([context["user_labels"], context["labels"]], names=["user group", "item group"])
    return pd.DataFrame({"BS": bs.ravel(), "BR": br.ravel(), "BD": bdv.ravel()}, index=index)


@_fill
def bd(top_k, history, *, n_items, item_groups, groups, k=None, on_undefined="warn") -> float:
    r"""Mean absolute bias disparity over the (user group, item group) cells (registry ``BD``): lower is fairer.

    The one-number summary of :func:`bias_disparity`, how far the recommendations move each user
    group's preference for each item group away from its training preference (recfair's summary:
    the published measure is the table); 0 is no change:

    .. math:: \mathrm{BD} = \operatorname{mean}_{(G, c) : \mathrm{BS}(G, c) > 0} |\mathrm{BD}(G, c)|

    A cell whose user group never chose the item group in training has no BD (BS = 0) and is
    left out (Elliot divides by zero there).

    Parameters
    ----------
    <<top_k>>
    history : sequences of int or scipy.sparse (n_users, n_items)
        Each user's training items.
    <<n_items>>
    <<item_groups>>
    <<groups>>
    <<k>>
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \infty)`; undefined when no cell has BS > 0 or a group's lists hold no item with a group.

    Examples
    --------
    >>> bd([[0], [2]], [[1], [3]], n_items=4, item_groups=["a", "a", "b", "b"], groups=["x", "x"])
    0.0
    """
    run = Run(top_k, n_items, k=k, history=history, item_groups=item_groups, user_attributes=_as_attributes(groups))
    return _evaluate("BD", run, on_undefined)


def _gains(run, gain):
    grades = run.top_grades if run.relevant is not None else None
    if grades is None:
        raise ValueError("ItemMAD needs relevant= (the gain of a recommended item).")
    if gain == "exponential":
        return np.where(grades > 0, 2.0 ** grades - 1.0, 0.0)
    if gain == "shifted":
        return np.where(grades > 0, 2.0 ** (grades + 1.0) - 1.0, 0.0)
    raise ValueError(f'gain must be "exponential" (2^r - 1, Elliot) or "shifted" (2^(r+1) - 1, WarpRec), got {gain!r}.')


def _item_mad_partial(run, *, weights=None, context, gain="exponential", **_):
    w = _core.user_weights(run, weights)
    ww = np.broadcast_to(w[:, None], run.top_k.shape).ravel()
    items = run.top_k.ravel()
    return {"gain": np.bincount(items, weights=_gains(run, gain).ravel() * ww, minlength=run.n_items),
            "count": np.bincount(items, weights=ww, minlength=run.n_items), "_codes": context["codes"],
            "_n_groups": context["n_groups"]}


def _mad(values):
    values = np.asarray(values, float)
    pairs = [abs(a - b) for j, a in enumerate(values) for b in values[j + 1:]]
    return float(np.mean(pairs))


def _item_mad_finish(state, *, on_undefined="warn", **_):
    codes, n_groups = state["_codes"], state["_n_groups"]
    count, total = np.asarray(state["count"], float), np.asarray(state["gain"], float)
    if n_groups < 2:
        return undefined("ItemMAD", "fewer than two item groups", on_undefined)
    shown = count > 0
    per_item = np.where(shown, total / np.where(shown, count, 1.0), 0.0)
    keep = shown & (codes >= 0)
    sums = np.bincount(codes[keep], weights=per_item[keep], minlength=n_groups)
    sizes = np.bincount(codes[keep], minlength=n_groups)
    if (sizes == 0).any():
        return undefined("ItemMAD", f"no item of group {int(np.flatnonzero(sizes == 0)[0])} is recommended",
                         on_undefined)
    return _mad(sums / sizes)


KERNELS["ItemMAD"] = Kernel("item_sums", _item_group_context, _item_mad_partial, _item_mad_finish,
                            {"unlabelled": "skip", "gain": "exponential"}, state="2 sums per item")


@_fill
def item_mad(top_k, relevant, *, n_items, item_groups, k=None, unlabelled="skip", gain="exponential",
             on_undefined="warn") -> float:
    r"""Item MAD, ranking (Deldjoo et al. 2020, Elliot's ``ItemMADranking``): lower is fairer to item groups.

    Each recommended item's mean gain over the lists that show it, averaged inside each item
    group over its recommended items; then the mean absolute difference over pairs of groups:

    .. math::

        \bar v_i = \frac{\sum_{u: i \in L_u} \mathrm{gain}(u, i)}{|\{u : i \in L_u\}|},\quad
        A_g = \operatorname{mean}_{i \in G_g,\, c_i > 0} \bar v_i,\quad
        \mathrm{ItemMAD} = \binom{N}{2}^{-1} \sum_{g < h} |A_g - A_h|

    Parameters
    ----------
    <<top_k>>
    <<relevant>>
    <<n_items>>
    <<item_groups>>
    <<k>>
    <<unlabelled>>
    gain : {"exponential", "shifted"}, default="exponential"
        :math:`2^{r}-1` for a relevant item of grade :math:`r` (Elliot with threshold 1; 1 on
        binary data) or :math:`2^{r+1}-1` (WarpRec; 3 on binary data); 0 for a non-relevant item.
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \max \mathrm{gain}]`; undefined when a group has no recommended item.

    Examples
    --------
    >>> item_mad([[0, 2], [1, 3]], [[0], [3]], n_items=4, item_groups=["a", "a", "b", "b"])
    0.0
    >>> item_mad([[0, 2], [1, 3]], [[0], [1]], n_items=4, item_groups=["a", "a", "b", "b"])
    1.0
    """
    run = Run(top_k, n_items, k=k, relevant=relevant, item_groups=item_groups)
    return _evaluate("ItemMAD", run, on_undefined, unlabelled=unlabelled, gain=gain)


def _effectiveness(run, base):
    from ..relevance import per_user_effectiveness

    return per_user_effectiveness(run, base=base)


def _group_sums_partial(run, *, weights=None, context, base="NDCG", **_):
    w = _core.user_weights(run, weights)
    eff = _effectiveness(run, base)
    codes = context["user_codes"] if "user_codes" in context else _block_user_codes(run, context, "UserMAD")
    g = context["n_user_groups"]
    nan = np.isnan(eff)
    return {"sum": np.bincount(codes[~nan], weights=(w * np.nan_to_num(eff))[~nan], minlength=g),
            "count": np.bincount(codes[~nan], weights=w[~nan], minlength=g), "undefined": float(w[nan].sum())}


def _user_mad_context(run, **_):
    labels = _user_labels(run, "UserMAD")[1]
    return {"user_labels": labels, "n_user_groups": len(labels)}


def _user_mad_finish(state, *, on_undefined="warn", base="NDCG", **_):
    if state["undefined"]:
        return undefined("UserMAD", f"{state['undefined']:g} users have an undefined {base} (no relevant item)",
                         on_undefined)
    count = np.asarray(state["count"], float)
    if count.size < 2:
        return undefined("UserMAD", "a single user group", on_undefined)
    return _mad(np.asarray(state["sum"], float) / count)


KERNELS["UserMAD"] = Kernel("item_sums", _user_mad_context, _group_sums_partial, _user_mad_finish,
                            {"base": "NDCG"}, state="2 sums per user group")


@_fill
def user_mad(top_k, relevant, *, n_items, groups, k=None, base="NDCG", on_undefined="warn") -> float:
    r"""User MAD, ranking (Deldjoo et al. 2020, Elliot's ``UserMADranking``): lower is fairer to user groups.

    The mean absolute difference over pairs of user groups of their mean effectiveness, Part V's
    ``MAD_group`` (:func:`recfair.groups.mad_group`) computed from the lists:

    .. math:: \mathrm{UserMAD} = \binom{N}{2}^{-1}\sum_{g<h}|\bar S_g - \bar S_h|

    Parameters
    ----------
    <<top_k>>
    <<relevant>>
    <<n_items>>
    <<groups>>
    <<k>>
    base : str, default="NDCG"
        The per-user effectiveness (a relevance measure).
    <<on_undefined>>

    Returns
    -------
    float
        Range [0, 1]; undefined with one group or a user without a relevant item.

    Examples
    --------
    >>> user_mad([[0, 1], [2, 3]], [[0], [0]], n_items=4, groups=["f", "m"])
    1.0
    """
    run = Run(top_k, n_items, k=k, relevant=relevant, user_attributes=_as_attributes(groups))
    return _evaluate("UserMAD", run, on_undefined, base=base)


# ============================================================================ NDKL, exposure, AWRF, MMF

def _target(context, target):
    shares = _core.group_items(context["codes"], context["n_groups"])
    if isinstance(target, str):
        if target != "catalogue":
            raise ValueError(f'target must be "catalogue" or one share per item group, got {target!r}.')
        return shares / shares.sum()
    t = np.asarray(target, dtype=np.float64)
    if t.shape != (context["n_groups"],) or not np.all(np.isfinite(t)) or (t < 0).any() or \
            not math.isclose(t.sum(), 1.0, rel_tol=1e-9):
        raise ValueError(f"target must be {context['n_groups']} non-negative shares (one per item group, in the order "
                         f"of the sorted labels {context['labels']}) summing to 1.")
    return t


def _ndkl_context(run, **options):
    ctx = _item_group_context(run)
    if (ctx["codes"] < 0).any():
        raise ValueError(f"NDKL needs a group for every item: {int((ctx['codes'] < 0).sum())} items have none "
                         "(give them a group of their own).")
    return ctx


def _ndkl_values(run, *, context, target="catalogue", smoothing=0.0, **_):
    eps = check_real(smoothing, "smoothing", low=0.0)
    p_star = _target(context, target)
    g = context["n_groups"]
    onehot = np.eye(g)[context["codes"][run.top_k]]                              # (m, k, g)
    prefix = onehot.cumsum(axis=1) / np.arange(1, run.k + 1)[None, :, None]      # D_{u,i}
    disc = _core.dcg_weights(run.k)
    return (_core.kl(prefix, p_star[None, None, :], epsilon=eps) * disc).sum(axis=1) / disc.sum()


KERNELS["NDKL"] = Kernel("per_user", _ndkl_context, _mean_partial(_ndkl_values), _finisher("NDKL"),
                         {"target": "catalogue", "smoothing": 0.0}, cost="O(mkN)", state="a weighted sum and 2 weights")


@_fill
def ndkl(top_k, *, n_items, item_groups, k=None, target="catalogue", smoothing=0.0, on_undefined="warn") -> float:
    r"""Normalised discounted KL divergence (Geyik et al. 2019): lower is fairer, 0 when every prefix mirrors the target.

    .. math::

        \mathrm{NDKL} = \frac{1}{m} \sum_u \frac{1}{Z} \sum_{i=1}^{k}
        \frac{\mathrm{KL}(D_{u,i} \,\|\, p^*)}{\log_2(i+1)},\qquad Z = \sum_{i=1}^{k} \frac{1}{\log_2(i+1)}

    :math:`D_{u,i}` the group shares among the first :math:`i` items of :math:`L_u`, :math:`p^*`
    the catalogue's group shares, natural logarithms.

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<item_groups>>
        NDKL needs a group for every item.
    <<k>>
    target : "catalogue" or array-like of float, default="catalogue"
        :math:`p^*`: the catalogue's shares, or one share per group (sorted labels' order).
    smoothing : float >= 0, default=0
        Added to both distributions before the logarithm (FairRankTune: 1e-7).
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \ln(1/\min_g p^*_g)]`; never undefined.

    Examples
    --------
    >>> ndkl([[0, 2, 1, 3]], n_items=4, item_groups=["a", "a", "b", "b"]) > 0    # the first item alone is all "a"
    True
    >>> round(ndkl([[0, 1], [2, 3]], n_items=4, item_groups=["a", "a", "b", "b"]), 4)
    0.6931
    """
    run = Run(top_k, n_items, k=k, item_groups=item_groups)
    return _evaluate("NDKL", run, on_undefined, target=target, smoothing=smoothing)


def _examination_weights(run, examination, gamma=0.8):
    from ..examination import weights as _weights

    return _weights(examination, run.k, **({"gamma": gamma} if examination == "rbp" else {}))


def _exposure_partial(run, *, weights=None, context, examination="dcg", gamma=0.8, **_):
    w = _core.user_weights(run, weights)
    pos = _examination_weights(run, examination, gamma)
    codes, g = context["codes"], context["n_groups"]
    rec = codes[run.top_k]
    keep = rec >= 0
    exposure = (w[:, None] * pos[None, :])
    return {"exposure": np.bincount(rec[keep], weights=exposure[keep], minlength=g),
            "_items": _core.group_items(codes, g)}


def _exp_ratio_finish(state, *, on_undefined="warn", **_):
    exposure, items = np.asarray(state["exposure"], float), np.asarray(state["_items"], float)
    if exposure.size < 2:
        return undefined("ExpRatio", "fewer than two item groups", on_undefined)
    mean = exposure / items
    if mean.max() == 0:
        return undefined("ExpRatio", "no item with a group is recommended", on_undefined)
    return float(mean.min() / mean.max())


def _mmf_finish(state, *, on_undefined="warn", ratio=0.5, **_):
    exposure = np.sort(np.asarray(state["exposure"], float))
    r = check_real(ratio, "ratio", low=0.0, high=1.0, strict=True)
    worst = int(r * exposure.size)
    if worst == 0:
        return undefined("MMF", f"ratio={r:g} of {exposure.size} item groups selects no group", on_undefined)
    if exposure.sum() == 0:
        return undefined("MMF", "no item with a group is recommended", on_undefined)
    return float(exposure[:worst].sum() / exposure.sum())


KERNELS["ExpRatio"] = Kernel("item_sums", _item_group_context, _exposure_partial, _exp_ratio_finish,
                             {"unlabelled": "skip", "examination": "dcg", "gamma": 0.8}, state="2 sums per item group")
KERNELS["MMF"] = Kernel("item_sums", _item_group_context, _exposure_partial, _mmf_finish,
                        {"unlabelled": "skip", "examination": "dcg", "gamma": 0.8, "ratio": 0.5},
                        state="2 sums per item group")


@_fill
def exposure_ratio(top_k, *, n_items, item_groups, k=None, unlabelled="skip", examination="dcg", gamma=0.8,
                   on_undefined="warn") -> float:
    r"""Demographic parity of exposure between item groups (Singh & Joachims 2018), as a ratio: higher is fairer, 1 is parity.

    .. math::

        \mathrm{Exp}(G_g) = \frac{1}{|G_g|} \sum_{i \in G_g} \sum_u \sum_{j=1}^{k}
        \frac{[L_u(j) = i]}{\log_2(j+1)},\qquad
        \mathrm{ExpRatio} = \frac{\min_g \mathrm{Exp}(G_g)}{\max_g \mathrm{Exp}(G_g)}

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<item_groups>>
    <<k>>
    <<unlabelled>>
    examination : {"dcg", "uniform", "rbp", "inverse"}, default="dcg"
        Position weights (:mod:`recfair.examination`); Singh & Joachims use DCG's.
    gamma : float in (0, 1), default=0.8
        The patience of ``examination="rbp"`` (weights :math:`\gamma^{j-1}`; FairRankTune's
        attention with first-item share :math:`p` is ``gamma = 1 - p``).
    <<on_undefined>>

    Returns
    -------
    float
        Range [0, 1].

    Examples
    --------
    >>> exposure_ratio([[0, 2], [2, 0]], n_items=4, item_groups=["a", "a", "b", "b"])
    1.0
    """
    run = Run(top_k, n_items, k=k, item_groups=item_groups)
    return _evaluate("ExpRatio", run, on_undefined, unlabelled=unlabelled, examination=examination, gamma=gamma)


@_fill
def provider_mmf(top_k, *, n_items, item_groups, k=None, unlabelled="skip", examination="dcg", gamma=0.8, ratio=0.5,
                 on_undefined="warn") -> float:
    r"""Max-min fairness of providers (FairDiverse's ``MMF``): the worst-off groups' share of all exposure; higher is fairer.

    .. math::

        U_g = \sum_{i \in G_g} \sum_u \sum_{j=1}^{k} \frac{[L_u(j) = i]}{\log_2(j+1)},\qquad
        \mathrm{MMF} = \frac{\sum_{g=1}^{\lfloor \rho N \rfloor} U_{(g)}}{\sum_g U_g}

    :math:`U_{(1)} \le U_{(2)} \le \dots` the sorted group exposures, :math:`\rho` = ``ratio``.

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<item_groups>>
    <<k>>
    <<unlabelled>>
    examination : {"dcg", "uniform", "rbp", "inverse"}, default="dcg"
        Position weights.
    gamma : float in (0, 1), default=0.8
        The patience of ``examination="rbp"`` (weights :math:`\gamma^{j-1}`; FairRankTune's
        attention with first-item share :math:`p` is ``gamma = 1 - p``).
    ratio : float in (0, 1], default=0.5
        The share of groups counted as worst off.
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \lfloor \rho N \rfloor / N]` (the upper end when every group gets the same exposure).

    Examples
    --------
    >>> provider_mmf([[0, 2], [2, 0]], n_items=4, item_groups=["a", "a", "b", "b"])
    0.5
    """
    run = Run(top_k, n_items, k=k, item_groups=item_groups)
    return _evaluate("MMF", run, on_undefined, unlabelled=unlabelled, examination=examination, gamma=gamma,
                     ratio=ratio)


def _awrf_values(run, *, context, target="catalogue", log_base=2.0, examination="dcg", gamma=0.8, **_):
    p_star = _target(context, target)
    pos = _examination_weights(run, examination, gamma)
    codes, g = context["codes"], context["n_groups"]
    rec = codes[run.top_k]
    attention = np.zeros((run.n_users, g))
    rows = np.broadcast_to(np.arange(run.n_users)[:, None], rec.shape)
    keep = rec >= 0
    np.add.at(attention, (rows[keep], rec[keep]), np.broadcast_to(pos[None, :], rec.shape)[keep])
    total = attention.sum(axis=1)
    values = np.full(run.n_users, np.nan)
    ok = total > 0
    values[ok] = 1.0 - _core.jsd(attention[ok] / total[ok, None], p_star[None, :], base=log_base)
    return values


def _awrf_finish(state, *, on_undefined="warn", **_):
    return _core.per_user_finish("AWRF", state, on_undefined, "users whose list holds no item with a group")


KERNELS["AWRF"] = Kernel("per_user", _item_group_context, _mean_partial(_awrf_values), _awrf_finish,
                         {"unlabelled": "skip", "target": "catalogue", "log_base": 2.0, "examination": "dcg", "gamma": 0.8},
                         cost="O(mkN)", state="a weighted sum and 2 weights")


@_fill
def awrf(top_k, *, n_items, item_groups, k=None, unlabelled="skip", target="catalogue", log_base=2.0,
         examination="dcg", gamma=0.8, on_undefined="warn") -> float:
    r"""Attention-weighted rank fairness (TREC Fair Ranking 2022): higher is fairer, 1 when each list's attention matches the target.

    .. math::

        a_{u,g} = \frac{\sum_{j=1}^{k} [L_u(j) \in G_g] / \log_2(j+1)}
        {\sum_{j=1}^{k} [L_u(j) \in \cup_h G_h] / \log_2(j+1)},\qquad
        \mathrm{AWRF} = \frac{1}{m} \sum_u \bigl(1 - \mathrm{JSD}_2(a_u, p^*)\bigr)

    Parameters
    ----------
    <<top_k>>
    <<n_items>>
    <<item_groups>>
    <<k>>
    <<unlabelled>>
    target : "catalogue" or array-like of float, default="catalogue"
        :math:`p^*`: the catalogue's group shares, or one share per group.
    log_base : float > 1, default=2
        Base of the Jensen-Shannon divergence; with natural logarithms (scipy's default, the
        TREC script's) the divergence stays below :math:`\ln 2`, so AWRF never goes below
        :math:`1 - \ln 2 \approx 0.307`.
    examination : {"dcg", "uniform", "rbp", "inverse"}, default="dcg"
        The attention of each position.
    gamma : float in (0, 1), default=0.8
        The patience of ``examination="rbp"`` (weights :math:`\gamma^{j-1}`; FairRankTune's
        attention with first-item share :math:`p` is ``gamma = 1 - p``).
    <<on_undefined>>

    Returns
    -------
    float
        Range [0, 1] with ``log_base=2``; undefined when some list holds no item with a group.

    Examples
    --------
    >>> round(awrf([[0, 2], [2, 0]], n_items=4, item_groups=["a", "a", "b", "b"]), 4)
    0.9906
    >>> round(awrf([[0, 1]], n_items=4, item_groups=["a", "a", "b", "b"]), 4)    # one group only: JSD = 0.311
    0.6887
    """
    run = Run(top_k, n_items, k=k, item_groups=item_groups)
    return _evaluate("AWRF", run, on_undefined, unlabelled=unlabelled, target=target, log_base=log_base,
                     examination=examination, gamma=gamma)


# ============================================================================ expected exposure of groups

def _ee_partial(run, *, weights=None, context, patience=0.5, **_):
    from ..examination import check_gamma

    gamma = check_gamma(patience)
    w = _core.user_weights(run, weights)
    codes, g = context["codes"], context["n_groups"]
    rounds = run.rounds if run.rounds is not None else run.top_k[None]
    pos = gamma ** np.arange(run.k)
    m = run.n_users
    exposure = np.zeros((m, g))
    rows = np.broadcast_to(np.arange(m)[:, None], (m, run.k))
    for lists in rounds:
        rec = codes[lists]
        keep = rec >= 0
        np.add.at(exposure, (rows[keep], rec[keep]), np.broadcast_to(pos[None, :], rec.shape)[keep])
    exposure /= len(rounds)
    target = np.zeros((m, g))
    rel = run._need_relevant()
    n_rel = np.diff(rel.indptr)
    n_hist = np.zeros(m, dtype=np.int64) if run.history is None else np.diff(run.history.indptr)
    cum = np.concatenate([[0.0], np.cumsum(pos)])
    for u in range(m):                                     # ties share their positions' exposure (Diaz et al.)
        r = int(n_rel[u])
        rel_items = rel.indices[rel.indptr[u]:rel.indptr[u + 1]]
        top_share = cum[min(r, run.k)] / r if r else 0.0
        rest = run.n_items - r - int(n_hist[u])
        rest_share = (cum[run.k] - cum[min(r, run.k)]) / rest if rest > 0 else 0.0
        per_item = np.full(run.n_items, rest_share)
        per_item[rel_items] = top_share
        if run.history is not None:
            per_item[run.history.indices[run.history.indptr[u]:run.history.indptr[u + 1]]] = 0.0
        ok = codes >= 0
        target[u] = np.bincount(codes[ok], weights=per_item[ok], minlength=g)
    d = (exposure ** 2).sum(axis=1)
    r_ = 2 * (exposure * target).sum(axis=1)
    loss = ((exposure - target) ** 2).sum(axis=1)
    state = {}
    for key, values in (("EE-L", loss), ("EE-D", d), ("EE-R", r_)):       # flat: blocks add entry by entry
        state.update({f"{key} {name}": value for name, value in _core.per_user_state(values, w).items()})
    return state


def _ee_finish(key):
    def finish(state, *, on_undefined="warn", **_):
        own = {name: state[f"{key} {name}"] for name in ("total", "weight", "undefined")}
        return _core.per_user_finish(key, own, on_undefined)

    return finish


for _key in ("EE-L", "EE-D", "EE-R"):
    KERNELS[_key] = Kernel("per_user", _item_group_context, _ee_partial, _ee_finish(_key),
                           {"unlabelled": "skip", "patience": 0.5}, cost="O(m(Wk + n))",
                           state="3 weighted sums and their weights")

_EE_DOC = r"""

    Expected exposure of item groups (Diaz et al. 2020, as in TREC Fair Ranking 2020): for each
    user, :math:`\varepsilon_g` is group :math:`g`'s expected exposure over the rounds
    (``rounds``, or the one list ``top_k``) under rank-biased patience :math:`\gamma^{j-1}`,
    and :math:`\varepsilon^*_g` its exposure under the ideal stochastic ranking, where the items
    of one relevance level share the exposure of the positions that level occupies (truncated
    at :math:`k`; history items get none). Averaged over users:

    .. math::

        \text{EE-D} = \lVert \varepsilon \rVert_2^2,\quad \text{EE-R} = 2\,\varepsilon^\top \varepsilon^*,\quad
        \text{EE-L} = \lVert \varepsilon - \varepsilon^* \rVert_2^2 = \text{EE-D} - \text{EE-R} + \lVert\varepsilon^*\rVert_2^2

    Parameters
    ----------
    <<top_k>>
    <<relevant>>
    <<n_items>>
    <<item_groups>>
    rounds : array-like of int, shape (W, n_users, >= k), optional
        The lists of ``W`` rounds of a stochastic recommender (``rounds[0]`` equals ``top_k``).
    history : sequences of int or scipy.sparse, optional
        Items that get no exposure in the ideal ranking.
    <<k>>
    <<unlabelled>>
    patience : float in (0, 1), default=0.5
        :math:`\gamma` (expeval's default).
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \infty)`; never undefined.
"""


def _ee(key, top_k, relevant, n_items, item_groups, rounds, history, k, unlabelled, patience, on_undefined):
    run = Run(top_k, n_items, k=k, relevant=relevant, item_groups=item_groups, rounds=rounds, history=history)
    return _evaluate(key, run, on_undefined, unlabelled=unlabelled, patience=patience)


@_fill
def ee_l(top_k, relevant, *, n_items, item_groups, rounds=None, history=None, k=None, unlabelled="skip",
         patience=0.5, on_undefined="warn") -> float:
    r"""Group expected exposure loss EE-L: the squared distance of the groups' exposure from the ideal (lower is fairer).
    """
    return _ee("EE-L", top_k, relevant, n_items, item_groups, rounds, history, k, unlabelled, patience, on_undefined)


@_fill
def ee_d(top_k, relevant, *, n_items, item_groups, rounds=None, history=None, k=None, unlabelled="skip",
         patience=0.5, on_undefined="warn") -> float:
    r"""Group expected exposure disparity EE-D: how unequally the exposure is spread (lower is more equal).
    """
    return _ee("EE-D", top_k, relevant, n_items, item_groups, rounds, history, k, unlabelled, patience, on_undefined)


@_fill
def ee_r(top_k, relevant, *, n_items, item_groups, rounds=None, history=None, k=None, unlabelled="skip",
         patience=0.5, on_undefined="warn") -> float:
    r"""Group expected exposure relevance EE-R: agreement of the exposure with the ideal (higher is better).
    """
    return _ee("EE-R", top_k, relevant, n_items, item_groups, rounds, history, k, unlabelled, patience, on_undefined)


for _f, _example in ((ee_l, "0.125"), (ee_d, "1.25"), (ee_r, "2.25")):
    _f.__doc__ = _f.__doc__.rstrip() + _EE_DOC + f"""
    Examples
    --------
    >>> {_f.__name__}([[0, 2]], [[0, 2]], n_items=4, item_groups=["a", "a", "b", "b"], patience=0.5)
    {_example}
"""
    for _token, _text in _DOCS.items():
        _f.__doc__ = _f.__doc__.replace(_token, _text)


# ============================================================================ UGF, C_KL

def advantaged_users(history, *, share: float = 0.05) -> np.ndarray:
    r"""The most active users: the :math:`\lceil \text{share} \cdot m \rceil` with the largest histories, ties by index.

    Li et al.'s (2021) split for the user-oriented group fairness gap (:func:`ugf`).

    Parameters
    ----------
    history : sequences of int or scipy.sparse (n_users, n_items)
        Each user's training items.
    share : float in (0, 1), default=0.05

    Returns
    -------
    numpy.ndarray of bool, shape (n_users,)

    Examples
    --------
    >>> advantaged_users([[0, 1], [0], [0, 1], []], share=0.5).tolist()
    [True, False, True, False]
    """
    import scipy.sparse as sp

    share = check_real(share, "active_share", low=0.0, high=1.0, strict=True)
    if sp.issparse(history):
        sizes = np.diff(sp.csr_matrix(history).indptr)
    else:
        sizes = np.array([len(h) for h in history])
    m = sizes.size
    top = int(math.ceil(share * m - 1e-12))
    order = np.lexsort((np.arange(m), -sizes))
    out = np.zeros(m, dtype=bool)
    out[order[:top]] = True
    return out


def _ugf_context(run, *, groups=None, active_share=0.05, **_):
    if groups is not None:
        from ..groups import encode_groups

        codes, labels = encode_groups(groups, n_users=run.n_users)
        if len(labels) != 2:
            raise ValueError(f"UGF compares two user groups; groups= has {len(labels)} ({labels!r}).")
        return {"user_codes": codes, "n_user_groups": 2}
    if run.history is None:
        raise ValueError("UGF splits users by activity: pass history= (or groups= with two groups).")
    return {"user_codes": advantaged_users(run.history, share=active_share).astype(np.int64), "n_user_groups": 2}


def _ugf_finish(state, *, on_undefined="warn", base="NDCG", **_):
    if state["undefined"]:
        return undefined("UGF", f"{state['undefined']:g} users have an undefined {base} (no relevant item)",
                         on_undefined)
    count = np.asarray(state["count"], float)
    if (count == 0).any():
        return undefined("UGF", "one of the two user groups is empty", on_undefined)
    means = np.asarray(state["sum"], float) / count
    return float(abs(means[1] - means[0]))


# the activity split ranks every user of the run (ties by the user's index): a whole-run computation
KERNELS["UGF"] = Kernel("run", _ugf_context, _group_sums_partial, _ugf_finish,
                        {"groups": None, "active_share": 0.05, "base": "NDCG"}, state="the whole run")


@_fill
def ugf(top_k, relevant, *, n_items, history=None, groups=None, k=None, active_share=0.05, base="NDCG",
        on_undefined="warn") -> float:
    r"""User-oriented group fairness gap (Li et al. 2021): the effectiveness gap between two user groups; lower is fairer.

    .. math:: \mathrm{UGF} = \Bigl| \frac{1}{|A|} \sum_{u \in A} S(u) - \frac{1}{|D|} \sum_{u \in D} S(u) \Bigr|

    :math:`A` the advantaged users (by default the :math:`\lceil 5\% \rceil` most active by
    history size, ties by user index: :func:`advantaged_users`), :math:`D` the rest,
    :math:`S(u)` per-user NDCG.

    Parameters
    ----------
    <<top_k>>
    <<relevant>>
    <<n_items>>
    history : sequences of int or scipy.sparse, optional
        Each user's training items (the activity split).
    groups : array-like (n_users,), optional
        Two user groups instead of the activity split.
    <<k>>
    active_share : float in (0, 1), default=0.05
        Share of users counted as advantaged.
    base : str, default="NDCG"
        The per-user effectiveness.
    <<on_undefined>>

    Returns
    -------
    float
        Range [0, 1] (for effectiveness in [0, 1]); undefined when a user has no relevant item.

    Examples
    --------
    >>> ugf([[0, 1], [2, 3]], [[0], [0]], n_items=4, groups=["a", "b"])
    1.0
    """
    run = Run(top_k, n_items, k=k, relevant=relevant, history=history)
    return _evaluate("UGF", run, on_undefined, groups=groups, active_share=active_share, base=base)


def genre_distributions(item_features) -> np.ndarray:
    r"""Each item's genre distribution :math:`p(g \mid i)`: its genres share it equally (rows of zeros stay zero).

    >>> genre_distributions([[1, 1, 0], [0, 0, 1], [0, 0, 0]]).tolist()
    [[0.5, 0.5, 0.0], [0.0, 0.0, 1.0], [0.0, 0.0, 0.0]]
    """
    feats = np.asarray(item_features, dtype=np.float64)
    if feats.ndim != 2 or not np.all(np.isfinite(feats)) or (feats < 0).any():
        raise ValueError("C_KL reads item_features as genres: a non-negative (n_items, n_genres) array "
                         "(1 where the item has the genre).")
    totals = feats.sum(axis=1, keepdims=True)
    return np.divide(feats, totals, out=np.zeros_like(feats), where=totals > 0)


def _c_kl_context(run, **_):
    if run.item_features is None:
        raise ValueError("C_KL needs item_features= (items x genres).")
    return {"genres": genre_distributions(run.item_features)}


def _c_kl_values(run, *, context, mix=0.01, examination="uniform", **_):
    mix = check_real(mix, "mix", low=0.0, high=1.0)
    dist = context["genres"]
    has = dist.sum(axis=1) > 0
    if run.history is None:
        raise ValueError("C_KL needs history= (the genre distribution a user's training items show).")
    h = run.history
    users = np.repeat(np.arange(run.n_users), np.diff(h.indptr))
    p = np.zeros((run.n_users, dist.shape[1]))
    np.add.at(p, users, dist[h.indices])
    n_p = np.bincount(users, weights=has[h.indices].astype(float), minlength=run.n_users)
    if examination not in ("uniform", "dcg"):
        raise ValueError(f'examination must be "uniform" or "dcg" (Steck\'s position weights), got {examination!r}.')
    pos = _examination_weights(run, examination)
    q = np.einsum("j,ujg->ug", pos, dist[run.top_k])
    n_q = (has[run.top_k] * pos[None, :]).sum(axis=1)
    values = np.full(run.n_users, np.nan)
    ok = n_p > 0
    p = p[ok] / n_p[ok, None]
    q = np.divide(q[ok], n_q[ok, None], out=np.zeros_like(q[ok]), where=n_q[ok, None] > 0)
    values[ok] = _core.kl(p, (1 - mix) * q + mix * p)
    return values


def _c_kl_finish(state, *, on_undefined="warn", **_):
    return _core.per_user_finish("C_KL", state, on_undefined, "users without a history item with a genre")


KERNELS["C_KL"] = Kernel("per_user", _c_kl_context, _mean_partial(_c_kl_values), _c_kl_finish,
                         {"mix": 0.01, "examination": "uniform"}, cost="O(mkd + |H|d)",
                         state="a weighted sum and 2 weights")


@_fill
def c_kl(top_k, history, *, n_items, item_features, k=None, mix=0.01, examination="uniform",
         on_undefined="warn") -> float:
    r"""Steck's (2018) miscalibration :math:`C_{KL}`: how far each list's genre mix is from the user's history; lower is better calibrated.

    .. math::

        C_{KL} = \frac{1}{m} \sum_u \sum_g p(g \mid u) \ln
        \frac{p(g \mid u)}{(1-\mix)\, q(g \mid u) + \mix\, p(g \mid u)}

    :math:`p(g \mid u)` the mean genre distribution of the history's items, :math:`q(g \mid u)`
    that of the top-:math:`k` (uniform weights, or Steck's position weights
    :math:`1/\log_2(j+1)`), an item's genres sharing it equally (:func:`genre_distributions`;
    an item without a genre counts for neither). A list with no genre at all has :math:`q = 0`.

    Parameters
    ----------
    <<top_k>>
    history : sequences of int or scipy.sparse (n_users, n_items)
        Each user's training items.
    <<n_items>>
    item_features : array-like, shape (n_items, n_genres)
        1 where an item has a genre (any non-negative weights).
    <<k>>
    mix : float in [0, 1], default=0.01
        Steck's smoothing (keeps the divergence finite).
    examination : {"uniform", "dcg"}, default="uniform"
        Weights of the list's positions in :math:`q`: uniform, or Steck's position weights
        :math:`1/\log_2(j+1)` (``"dcg"``; the option is not called ``weights`` because that
        name is the engines' per-user weights).
    <<on_undefined>>

    Returns
    -------
    float
        Range :math:`[0, \ln(1/\mix)]`; undefined when a user's history has no item with a genre.

    Examples
    --------
    >>> genres = [[1, 0], [1, 0], [0, 1], [0, 1]]
    >>> c_kl([[0, 2]], [[1, 3]], n_items=4, item_features=genres)
    0.0
    >>> round(c_kl([[0, 1]], [[2, 3]], n_items=4, item_features=genres), 4)     # ln(1/mix)
    4.6052
    """
    run = Run(top_k, n_items, k=k, history=history, item_features=item_features)
    return _evaluate("C_KL", run, on_undefined, mix=mix, examination=examination)
