"""Measures fed one block of users at a time: :class:`Accumulator`.

Every measure that is a function of per-user values or of per-item counts can be computed
without holding the whole run: each block of users adds its share to a small state, and the
states of different blocks (or of different Dask partitions) add up. What each family keeps:

==========================================  ====================================================
measures                                    state (independent of the number of users unless noted)
==========================================  ====================================================
relevance (HR ... NDCG); Part II's          exact sum of the defined per-user values, the number
per-user averages (IAA, IFD, II-F)          of users and of defined users
IBO/IWO, AI-F, HD                           per-item sums over users (``n`` or ``2n`` floats;
                                            HD: ``2k``, with ``tie_break="stable"``)
Part I (Jain ... AI-D)                      how often each item fills each rank, ``(n_items, k)``
                                            integers (:class:`recfair.item_exposure.RankCounts`)
SD_ind, Gini_ind, Atk_ind, Part V's group   each user's effectiveness ``S(u)`` (8 bytes a user)
measures                                    and, for the group measures, their attribute rows
==========================================  ====================================================

Sums are exact (:func:`math.fsum` with its rounding error carried along), so the value does
not depend on how the users are split into blocks, and it equals the one-shot
:func:`recfair.evaluate` value up to the rounding of that one-shot sum (within 1e-15 relative
in practice; the count-based Part I measures are identical). The other measures need every
pair of users (PUF, the envy measures, UF), an items x items table (MME), a frontier over the
whole run (DPFR): they raise a
clear error here (:data:`NOT_ACCUMULABLE` says why).

Nothing here names a measure: each registry record's :class:`~recfair.spec.Computation` says
what a block keeps (``partial``), how two blocks combine (``merge``) and how the value follows
(``finish``); this module calls them.
"""

from __future__ import annotations

from .._validation import check_positive_int, undefined
from ..registry import ALL_MEASURES, check_needs
from ..run import Run
from ..spec import block_states

__all__ = ["Accumulator", "ACCUMULABLE", "NOT_ACCUMULABLE", "costs"]

#: Measures an :class:`Accumulator` computes block by block (their record's computation is per user or
#: per-item sums).
ACCUMULABLE = tuple(s.key for s in ALL_MEASURES if s.computation.blockwise)

_WHY = {"pairs": "it compares every pair of users (O(m^2)); evaluate it on the whole run, on a cluster with client=",
        "run": "it needs the whole run at once (its {} span all users and items)"}

#: Measures it cannot, and why (use :func:`recfair.evaluate`, with ``client=`` for the pairwise ones).
NOT_ACCUMULABLE = {s.key: (_WHY[s.computation.kind].format(s.computation.state.removeprefix("no: "))
                          if s.computation.kind in _WHY else
                          "its blocks need a whole-run context (e.g. item popularity from every user's history)")
                   for s in ALL_MEASURES if not s.computation.blockwise}

#: Measures that visit every pair of users (their time grows as m^2).
PAIRWISE = tuple(s.key for s in ALL_MEASURES if s.computation.kind == "pairs")


def costs():
    """What each measure costs, from its registry record: a table for the book and for planning.

    Columns: ``part``; ``time``, the order of the work for ``m`` users, ``n`` items, cut-off ``k``
    (``O(mk)``: a pass over the lists and the relevant items; ``O(mn)``: the full ranking, i.e.
    the users x items scores; ``O(m²)``: every pair of users; ``O(n²)``: every pair of items);
    ``in blocks``, what an :class:`Accumulator` keeps between blocks of users (or, in a word, why
    it cannot: :data:`NOT_ACCUMULABLE` says it in full). Both come from each record's
    :class:`~recfair.spec.Computation` (``cost``, ``state``).

    Examples
    --------
    >>> t = costs()
    >>> t.loc["NDCG", "time"], t.loc["IFD_div_ori", "time"], t.loc["PUF", "time"]
    ('O(mk)', 'O(mn)', 'O(m²)')
    >>> t.loc["Gini_our", "in blocks"], t.loc["UF", "in blocks"]
    ('n × k counts', 'no: user pairs')
    """
    import pandas as pd

    from ..registry import PARTS

    rows = {spec.key: {"part": PARTS[spec.family], "time": spec.computation.cost, "in blocks": spec.computation.state}
            for spec in ALL_MEASURES}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("measure")


def effectiveness_hook(spec):
    """A record's measure-from-effectiveness hook (``from_effectiveness``)."""
    return spec.from_effectiveness


def _requested(measures) -> list[str]:
    """The canonical names a ``measures`` argument asks for (unknown names are left for the plan to report)."""
    from ..registry import resolve

    if isinstance(measures, str):
        measures = [measures]
    try:
        entries = list(measures)
    except TypeError:
        return []
    out = []
    for entry in entries:
        try:
            out += resolve(entry)
        except ValueError:
            pass
    return out


class Accumulator:
    """Compute measures on a run fed in blocks of users; ``result()`` equals :func:`recfair.evaluate`.

    Parameters
    ----------
    measures : str or list of str
        Canonical names, families or parts, each measure one of :data:`ACCUMULABLE` (the relevance
        measures, Part I, Part II's per-user averages, SD_ind, Gini_ind and Part V's measures).
    n_items : int
        Catalogue size.
    k : int, optional
        Cut-off: every block's lists must be at least this wide (wider lists are cut); defaults
        to the width of the first block's lists.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        As in :func:`recfair.evaluate`, applied by :meth:`result`.
    item_features : array-like (n_items, d), optional
        Item representations (VoCD with ``alpha < 2``).
    options : dict of str to dict, optional
        Per-measure options, as in :func:`recfair.evaluate`.
    **keywords
        Plain measure parameters (``gamma``, ``base``, ``attributes``, ``epsilon``...); each must
        belong to a requested measure and mean one thing for all of them.

    Examples
    --------
    >>> import recfair as rf
    >>> top_k, relevant = [[0, 1], [1, 2], [2, 3]], [[1], [3], [2]]
    >>> acc = rf.Accumulator(measures=["NDCG", "Gini_our"], n_items=4, k=2)
    >>> acc.update(top_k[:2], relevant=relevant[:2])
    >>> acc.update(top_k[2:], relevant=relevant[2:])
    >>> acc.n_users
    3
    >>> acc.result() == rf.evaluate(top_k, n_items=4, measures=["NDCG", "Gini_our"], relevant=relevant)
    True
    """

    def __init__(self, *, measures, n_items, k=None, on_undefined="warn", item_features=None, options=None,
                 **keywords):
        from ..registry import plan

        bad = [name for name in _requested(measures) if name not in ACCUMULABLE]
        if bad:
            raise ValueError("cannot be computed block by block: " + "; ".join(
                f"{name} ({NOT_ACCUMULABLE.get(name, 'not accumulable')})" for name in bad)
                + f". Measures that can: {', '.join(ACCUMULABLE)}.")
        the_plan = plan(measures, options=options, keywords=keywords, on_undefined=on_undefined)
        names, specs = list(the_plan.names), list(the_plan.specs)
        self.measures = names
        self.n_items = check_positive_int(n_items, "n_items")
        self.k = None if k is None else check_positive_int(k, "k")
        if self.k is not None and self.k > self.n_items:
            raise ValueError(f"k={self.k} exceeds n_items={self.n_items}.")
        self.on_undefined = on_undefined
        self.item_features = item_features
        self._specs = specs
        self._options = dict(the_plan.options)
        self.n_users = 0
        self._states: dict[str, dict | None] = {key: None for key in names}

    def __repr__(self) -> str:
        return f"Accumulator(measures={self.measures}, n_items={self.n_items}, k={self.k}, n_users={self.n_users})"

    # ------------------------------------------------------------------ feeding

    def update(self, top_k=None, *, relevant=None, relevance=None, scores=None, ranking=None, history=None,
               user_attributes=None) -> None:
        """Add a block of users: their lists and whatever the measures need (as in :func:`recfair.evaluate`).

        ``scores`` (or ``ranking``) are this block's rows only, so IFD÷ ori's full-ranking
        exposure never needs the whole users x items matrix; ``top_k=None`` derives the lists
        from them. Validation is the same as for a whole run (the error names the row within
        the block).
        """
        run = Run(top_k, self.n_items, k=self.k, relevant=relevant, relevance=relevance, scores=scores,
                  ranking=ranking, history=history, user_attributes=user_attributes,
                  item_features=self.item_features)
        if self.k is None:                      # k defaults to the width of the lists (of the first block)
            self.k = run.k
        if run.k != self.k:
            raise ValueError(f"this block's lists have k={run.k}; the Accumulator was made with k={self.k}.")
        check_needs(run, self._specs)
        self._add(run)

    def _add(self, run: Run) -> None:
        states = block_states([(spec.computation, self._options[spec.key]) for spec in self._specs], run)
        for spec, state in zip(self._specs, states):
            old = self._states[spec.key]
            self._states[spec.key] = state if old is None else spec.computation.merge_states(old, state)
        self.n_users += run.n_users

    def merge(self, other: "Accumulator") -> "Accumulator":
        """Add the users another Accumulator (same measures, options, ``n_items``, ``k``) has seen; returns self."""
        if not isinstance(other, Accumulator):
            raise TypeError(f"can only merge another Accumulator, got {type(other).__name__}.")
        if self.k is None:
            self.k = other.k
        if (other.measures, other.n_items, other._options) != (self.measures, self.n_items, self._options) or (
                other.k is not None and other.k != self.k):
            raise ValueError("cannot merge Accumulators of different measures, options, n_items or k.")
        for spec in self._specs:
            mine, theirs = self._states[spec.key], other._states[spec.key]
            if theirs is not None:
                self._states[spec.key] = theirs if mine is None else spec.computation.merge_states(mine, theirs)
        self.n_users += other.n_users
        return self

    # ------------------------------------------------------------------ results

    def result(self) -> dict[str, float]:
        """``{name: value}`` over every user fed so far, in the order asked."""
        out = {}
        for spec in self._specs:
            state = self._states[spec.key]
            if state is None:
                out[spec.key] = float(undefined(spec.key, "there are no users (m = 0)", self.on_undefined))
            else:
                out[spec.key] = float(spec.computation.finish(state, on_undefined=self.on_undefined,
                                                              **self._options[spec.key]))
        return out
