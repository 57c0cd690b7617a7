"""Part VI of the book: the fairness measures the field uses, analysed the thesis's way.

Popularity bias (chapter ``field-popularity``), item-group exposure and calibration
(``field-item-groups``), user-group gaps (``field-user-groups``) and TREC-style attention and
expected exposure (``field-attention``); overview ``field-overview``. Every measure is one
function here and one registry record (``rf.evaluate(top_k, n_items=n, measures=["APLT", "RSP"],
history=train, item_groups=labels)``); every convention on which the tools disagree is a named
option, with the defining paper's value as default.

Public API (for the book's chapters)
------------------------------------
================================  ===============================================================
registry name: function           inputs beyond ``top_k`` / options (defaults)
================================  ===============================================================
``ARP``: ``arp``                  ``history`` | ``popularity="users"``, ``min_popularity=0``, ``normalize=False``
``APLT``: ``aplt``                ``history`` | popularity options + ``head_share=0.8``, ``crossing="include"``,
                                  ``tail="catalogue"``, ``tail_items=None``, ``tail_threshold=None``
``ACLT``: ``aclt``                as APLT (a count, not a share)
``PopRSP``: ``pop_rsp``           as APLT + ``denominator="unseen"``, ``empty_groups="undefined"``
``PopREO``: ``pop_reo``           ``relevant``, ``history`` | as APLT + ``empty_groups="undefined"``
``RSP``: ``rsp``                  ``item_groups`` (``history``) | ``unlabelled="skip"``, ``denominator="unseen"``,
                                  ``empty_groups="undefined"``
``REO``: ``reo``                  ``relevant``, ``item_groups`` | ``unlabelled="skip"``, ``empty_groups="undefined"``
``BD``: ``bd``                    ``history``, ``item_groups``, ``groups`` (or ``user_attributes``); the
                                  full BS/BR/BD table: ``bias_disparity``
``ItemMAD``: ``item_mad``         ``relevant``, ``item_groups`` | ``gain="exponential"`` (``"shifted"``: WarpRec)
``UserMAD``: ``user_mad``         ``relevant``, ``groups`` | ``base="NDCG"``
``NDKL``: ``ndkl``                ``item_groups`` | ``target="catalogue"``, ``smoothing=0``
``ExpRatio``: ``exposure_ratio``  ``item_groups`` | ``examination="dcg"``
``MMF``: ``provider_mmf``         ``item_groups`` | ``examination="dcg"``, ``ratio=0.5``
``UGF``: ``ugf``                  ``relevant``, ``history`` (or two ``groups``) | ``active_share=0.05``
``C_KL``: ``c_kl``                ``history``, ``item_features`` (genres) | ``mix=0.01``,
                                  ``examination="uniform"`` (``"dcg"``: Steck's position weights)
``AWRF``: ``awrf``                ``item_groups`` | ``target="catalogue"``, ``log_base=2``
``EE-L``/``EE-D``/``EE-R``:       ``relevant``, ``item_groups`` (``rounds``) | ``patience=0.5``
``ee_l``/``ee_d``/``ee_r``
================================  ===============================================================

Modules: ``popularity`` (item popularity, the head and the tail: :func:`item_popularity`,
:func:`head_tail`), ``measures`` (the functions above and :data:`KERNELS`, their computation
shapes), ``records`` (the registry records), ``bounds`` (achievable ranges for given (m, n, k)
and inputs, closed forms, and the exhaustive search that checks them), ``bounds_groups`` (the
exact searches of the group measures' ranges: REO, ExpRatio, MMF, EE, C_KL, UGF, UserMAD, BD),
``generators`` (toy and
extreme runs for the explorers), ``derivations`` (the closed forms derived with sympy; loaded
on first use).

>>> from recfair.field import aplt, rsp
>>> round(aplt([[0, 3], [1, 4], [0, 2]], n_items=5, history=[[1], [0], [1, 3]]), 4)
0.3333
>>> rsp([[0, 1], [0, 2]], n_items=4, item_groups=["a", "a", "b", "b"])
0.5
"""

from __future__ import annotations

import importlib

from .measures import (KERNELS, aclt, advantaged_users, aplt, arp, awrf, bd, bias_disparity, c_kl, ee_d, ee_l, ee_r,
                       exposure_ratio, genre_distributions, item_mad, ndkl, pop_reo, pop_rsp, provider_mmf, reo, rsp,
                       ugf, user_mad)
from .popularity import head_tail, item_popularity, popularity_of

__all__ = ["arp", "aplt", "aclt", "pop_rsp", "pop_reo", "rsp", "reo", "bias_disparity", "bd", "item_mad", "user_mad",
           "ndkl", "exposure_ratio", "provider_mmf", "ugf", "c_kl", "awrf", "ee_l", "ee_d", "ee_r",
           "advantaged_users", "genre_distributions", "item_popularity", "head_tail", "popularity_of", "KERNELS"]

_SUBMODULES = ("bounds", "bounds_groups", "derivations", "generators", "measures", "popularity", "records")


def __getattr__(name):
    if name in _SUBMODULES:
        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
