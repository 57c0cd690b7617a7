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
"""

from __future__ import annotations

import math

import numpy as np

from .._validation import check_on_undefined, check_positive_int, undefined
from ..item_exposure import RankCounts, from_rank_counts
from ..joint import measures as _joint
from ..registry import ALL_MEASURES, REGISTRY, check_needs, get
from ..relevance import mean_from_sum as _relevance_mean
from ..run import Run

__all__ = ["Accumulator", "ACCUMULABLE", "NOT_ACCUMULABLE", "costs"]

_PER_USER_MEANS = {s.key for s in ALL_MEASURES if s.family == "relevance"} | set(_joint.PER_USER)
_RANK_COUNTED = {s.key for s in ALL_MEASURES if s.family == "item_exposure"}
_ITEM_SUMS = set(_joint.ITEM_SUMS)
_GATHERED = {"SD_ind", "Gini_ind"} | {s.key for s in ALL_MEASURES if s.family == "groups"}

#: Measures an :class:`Accumulator` computes block by block.
ACCUMULABLE = tuple(s.key for s in ALL_MEASURES if s.key in _PER_USER_MEANS | _RANK_COUNTED | _GATHERED | _ITEM_SUMS)

#: Measures it cannot, and why (use :func:`recfair.evaluate`, with ``client=`` for the pairwise ones).
NOT_ACCUMULABLE = {
    **{key: "it compares every pair of users (O(m^2)); evaluate it on the whole run, on a cluster with client="
       for key in ("PUF", "ME_user", "MME_user", "PEU", "UF")},
    "MME": "its envy compares every pair of items over all users (an n_items x n_items table summed over users)",
    "DPFR": "its Pareto frontier is built from the whole run and the dataset",
}


#: Measures that visit every pair of users (their time grows as m^2).
PAIRWISE = ("PUF", "ME_user", "MME_user", "PEU", "UF")


def costs():
    """What each measure costs, from its registry record: a table for the book and for planning.

    Columns: ``part``; ``time``, the order of the work for ``m`` users, ``n`` items, cut-off ``k``
    (``O(mk)``: a pass over the lists and the relevant items; ``O(mn)``: the full ranking, i.e.
    the users x items scores; ``O(m²)``: every pair of users; ``O(n²)``: every pair of items);
    ``in blocks``, what an :class:`Accumulator` keeps between blocks of users (or, in a word, why
    it cannot: :data:`NOT_ACCUMULABLE` says it in full).

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

    rows = {}
    for spec in ALL_MEASURES:
        key = spec.key
        if key in PAIRWISE:
            time = "O(m²)"
        elif key == "MME":
            time = "O(n²)"
        elif "ranking" in spec.needs or "scores" in spec.needs:
            time = "O(mn)"
        else:
            time = "O(mk)"
        if key in _PER_USER_MEANS:
            state = "a sum, 2 counts"
        elif key in _RANK_COUNTED:
            state = "n × k counts"
        elif key == "HD":
            state = "2k sums"
        elif key in _ITEM_SUMS:
            state = "per-item sums"
        elif key in _GATHERED:
            state = "S(u)" + (", groups" if spec.family == "groups" and key != "Atk_ind" else "")
        else:
            state = "no: " + _SHORT_REASONS[key]
        rows[key] = {"part": PARTS[spec.family], "time": time, "in blocks": state}
    return pd.DataFrame.from_dict(rows, orient="index").rename_axis("measure")


_SHORT_REASONS = {**{key: "user pairs" for key in PAIRWISE}, "MME": "item pairs", "DPFR": "frontier"}


class _ExactSum:
    """A float sum kept exactly: the correctly rounded total plus its rounding error (math.fsum)."""

    __slots__ = ("parts",)

    def __init__(self, parts=()):
        self.parts = list(parts)

    def add(self, values) -> None:
        values = np.asarray(values, dtype=np.float64).ravel()
        if values.size:
            s = math.fsum(values)
            self.parts += [s, math.fsum(np.append(values, -s))]   # the exact sum = s + error, to ~1e-32
            if len(self.parts) > 64:
                self._compact()

    def _compact(self) -> None:
        s = math.fsum(self.parts)
        self.parts = [s, math.fsum(self.parts + [-s])]

    def __iadd__(self, other: "_ExactSum") -> "_ExactSum":
        self.parts += other.parts
        self._compact()
        return self

    @property
    def value(self) -> float:
        return math.fsum(self.parts)


def effectiveness_hook(spec):
    """A record's measure-from-effectiveness hook (``from_effectiveness``)."""
    return spec.from_effectiveness


class Accumulator:
    """Compute measures on a run fed in blocks of users; ``result()`` equals :func:`recfair.evaluate`.

    Parameters
    ----------
    measures : str or list of str
        Canonical names, each one of :data:`ACCUMULABLE` (the relevance measures, Part I,
        Part II's per-user averages, SD_ind, Gini_ind and Part V's measures).
    n_items : int
        Catalogue size.
    k : int, default=10
        Cut-off: every block's lists must be at least this wide (wider lists are cut).
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        As in :func:`recfair.evaluate`, applied by :meth:`result`.
    item_features : array-like (n_items, d), optional
        Item representations (VoCD with ``alpha < 2``).
    **options
        Measure parameters (``gamma``, ``base``, ``attributes``, ``epsilon``...); each must
        belong to a requested measure.

    Examples
    --------
    >>> import recfair as rf
    >>> top_k, relevant = [[0, 1], [1, 2], [2, 3]], [[1], [3], [2]]
    >>> acc = rf.Accumulator(["NDCG", "Gini_our"], n_items=4, k=2)
    >>> acc.update(top_k[:2], relevant=relevant[:2])
    >>> acc.update(top_k[2:], relevant=relevant[2:])
    >>> acc.n_users
    3
    >>> acc.result() == rf.evaluate(top_k, n_items=4, measures=["NDCG", "Gini_our"], relevant=relevant)
    True
    """

    def __init__(self, measures, *, n_items, k=10, on_undefined="warn", item_features=None, **options):
        check_on_undefined(on_undefined)
        if isinstance(measures, str):
            measures = [measures]
        try:
            names = list(measures)
        except TypeError:
            raise TypeError(f"measures must be a name or a list of names, got {type(measures).__name__}.") from None
        if not names:
            raise ValueError("measures is empty: name at least one measure.")
        specs = [get(name) for name in names]
        if len(set(names)) != len(names):
            raise ValueError(f"measures lists {sorted({m for m in names if names.count(m) > 1})} more than once.")
        bad = [name for name in names if name not in ACCUMULABLE]
        if bad:
            raise ValueError("cannot be computed block by block: " + "; ".join(
                f"{name} ({NOT_ACCUMULABLE.get(name, 'not accumulable')})" for name in bad)
                + f". Measures that can: {', '.join(ACCUMULABLE)}.")
        known = {opt for spec in specs for opt in spec.options}
        unknown = sorted(set(options) - known)
        if unknown:
            raise ValueError(f"option(s) {unknown} are not parameters of any requested measure "
                             f"(their parameters: {sorted(known) or 'none'}).")
        self.measures = names
        self.n_items = check_positive_int(n_items, "n_items")
        self.k = check_positive_int(k, "k")
        if self.k > self.n_items:
            raise ValueError(f"k={self.k} exceeds n_items={self.n_items}.")
        self.on_undefined = on_undefined
        self.item_features = item_features
        self._specs = specs
        self._options = {s.key: {o: v for o, v in options.items() if o in s.options} for s in specs}
        for key, opts in self._options.items():
            if key in _GATHERED and opts.get("base", "NDCG") not in _BASES:
                raise ValueError(f"base must be a per-user relevance measure ({', '.join(_BASES)}); "
                                 f"got {opts.get('base')!r}.")
        self.n_users = 0
        self._sums = {key: _ExactSum() for key in names if key in _PER_USER_MEANS}
        self._defined = {key: 0 for key in self._sums}
        self._reasons: dict[str, str | None] = {key: None for key in self._sums}
        self._item_sums = {key: None for key in names if key in _ITEM_SUMS}
        self._rank_counts = (RankCounts(np.zeros((self.n_items, self.k), dtype=np.int64), 0)
                             if any(key in _RANK_COUNTED for key in names) else None)
        self._bases = sorted({self._options[key].get("base", "NDCG") for key in names if key in _GATHERED})
        self._effectiveness = {base: [] for base in self._bases}
        self._attributes = [] if any(REGISTRY[key].family == "groups" and "user_attributes" in REGISTRY[key].needs
                                     for key in names) else None

    def __repr__(self) -> str:
        return f"Accumulator({self.measures}, n_items={self.n_items}, k={self.k}, n_users={self.n_users})"

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
        if run.k != self.k:
            raise ValueError(f"this block's lists have k={run.k}; the Accumulator was made with k={self.k}.")
        check_needs(run, self._specs)
        self._add(run)

    def _add(self, run: Run) -> None:
        for key, total in self._sums.items():
            opts = self._options[key]
            if key in _joint.PER_USER:
                values, reason = _joint.per_user_block(key, run, **opts)
                if reason is not None and self._reasons[key] is None:
                    self._reasons[key] = reason
            else:
                values = REGISTRY[key].per_user(run, **opts)
            values = np.asarray(values, dtype=np.float64)
            keep = ~np.isnan(values)
            total.add(values[keep])
            self._defined[key] += int(keep.sum())
        for key, sums in self._item_sums.items():
            block = _joint.item_sums_block(key, run, **self._options[key])
            self._item_sums[key] = block if sums is None else sums + block
        if self._rank_counts is not None:
            self._rank_counts = self._rank_counts + RankCounts.of(run.top_k, n_items=self.n_items)
        for base in self._bases:
            self._effectiveness[base].append(np.asarray(_BASES[base](run), dtype=np.float64))
        if self._attributes is not None:
            import pandas as pd

            frame = run.user_attributes
            self._attributes.append(frame if isinstance(frame, pd.DataFrame) else pd.DataFrame(frame))
        self.n_users += run.n_users

    def merge(self, other: "Accumulator") -> "Accumulator":
        """Add the users another Accumulator (same measures, options, ``n_items``, ``k``) has seen; returns self."""
        if not isinstance(other, Accumulator):
            raise TypeError(f"can only merge another Accumulator, got {type(other).__name__}.")
        if (other.measures, other.n_items, other.k, other._options) != (self.measures, self.n_items, self.k,
                                                                         self._options):
            raise ValueError("cannot merge Accumulators of different measures, options, n_items or k.")
        for key, total in self._sums.items():
            total += other._sums[key]
            self._defined[key] += other._defined[key]
            if self._reasons[key] is None:
                self._reasons[key] = other._reasons[key]
        for key, sums in other._item_sums.items():
            if sums is not None:
                self._item_sums[key] = sums if self._item_sums[key] is None else self._item_sums[key] + sums
        if self._rank_counts is not None:
            self._rank_counts = self._rank_counts + other._rank_counts
        for base in self._bases:
            self._effectiveness[base] += other._effectiveness[base]
        if self._attributes is not None:
            self._attributes += other._attributes
        self.n_users += other.n_users
        return self

    # ------------------------------------------------------------------ results

    def result(self) -> dict[str, float]:
        """``{name: value}`` over every user fed so far, in the order asked."""
        out = {}
        for spec in self._specs:
            key, opts = spec.key, self._options[spec.key]
            if key in _joint.PER_USER:
                out[key] = float(_joint.finish_mean(
                    key, self._sums[key].value, n_users=self.n_users, n_defined=self._defined[key],
                    reason=self._reasons[key], on_undefined=self.on_undefined))
            elif key in _PER_USER_MEANS:
                out[key] = float(_relevance_mean(key, self._sums[key].value, n_users=self.n_users,
                                                 n_undefined=self.n_users - self._defined[key],
                                                 on_undefined=self.on_undefined))
            elif key in _ITEM_SUMS:
                sums = self._item_sums[key]
                out[key] = float(_joint.finish_item_sums(
                    key, np.zeros((2, self.n_items)) if sums is None else sums, n_users=self.n_users,
                    n_items=self.n_items, k=self.k, on_undefined=self.on_undefined, **opts))
            elif key in _RANK_COUNTED:
                extra = {"item_features": self.item_features} if key == "VoCD" else {}
                out[key] = float(from_rank_counts(key, self._rank_counts, n_items=self.n_items,
                                                  on_undefined=self.on_undefined, **opts, **extra))
            else:
                out[key] = float(self._gathered(spec, opts))
        return out

    def _gathered(self, spec, opts):
        base = opts.get("base", "NDCG")
        parts = self._effectiveness[base]
        scores = np.concatenate(parts) if parts else np.zeros(0)
        rest = {o: v for o, v in opts.items() if o not in ("base", "attributes")}
        hook = effectiveness_hook(spec)
        if spec.family != "groups":
            return hook(scores, on_undefined=self.on_undefined, **rest)
        if np.isnan(scores).any():
            return undefined(spec.key, f"{int(np.isnan(scores).sum())} user(s) have an undefined {base} "
                             "(no relevant item)", self.on_undefined)
        if spec.key == "Atk_ind":
            return hook(scores, on_undefined=self.on_undefined, **rest)
        import pandas as pd

        frame = pd.concat(self._attributes, ignore_index=True) if self._attributes else pd.DataFrame()
        attributes = opts.get("attributes")
        if attributes is not None:
            columns = [attributes] if isinstance(attributes, str) else list(attributes)
            missing = [c for c in columns if c not in frame.columns]
            if missing or not columns:
                raise ValueError(f"attributes must name columns of user_attributes {list(frame.columns)}; "
                                 f"got {attributes!r}.")
            frame = frame[columns]
        return hook(scores, groups=frame, on_undefined=self.on_undefined, **rest)


#: The per-user relevance measures that can serve as S(u) (``base=``).
_BASES = {s.key: s.per_user for s in ALL_MEASURES if s.family == "relevance"}
