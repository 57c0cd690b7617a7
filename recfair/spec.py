"""The record types shared by every part: :class:`MeasureSpec`, :class:`Bounds`, :class:`Extremes`.

Each part of the library (``recfair.item_exposure``, ``recfair.joint``, ...) describes its
measures with :class:`MeasureSpec` records in its own ``records`` module; the central
:mod:`recfair.registry` collects them. This module imports nothing from recfair, so every part
can use it without depending on the registry.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable

import numpy as np

__all__ = ["Bounds", "Computation", "ExactSum", "Extremes", "MeasureSpec", "block_states", "mean_state"]

COMPUTATION_KINDS = ("per_user", "item_sums", "pairs", "run")


@dataclass(frozen=True)
class Bounds:
    """Ends of a range, named by fairness (or effectiveness), never by min/max.

    Examples
    --------
    >>> Bounds(most_unfair=0.1, most_fair=1.0).most_fair
    1.0
    """

    most_unfair: float
    most_fair: float

    def __iter__(self):
        """Unpack as ``most_unfair, most_fair = bounds``.

        >>> most_unfair, most_fair = Bounds(0.1, 1.0)
        >>> most_fair
        1.0
        """
        return iter((self.most_unfair, self.most_fair))

    def __getitem__(self, index):
        """Index like the pair ``(most_unfair, most_fair)``.

        >>> Bounds(0.1, 1.0)[0]
        0.1
        """
        return (self.most_unfair, self.most_fair)[index]

    def __len__(self) -> int:
        return 2


@dataclass(frozen=True)
class Computation:
    """How a measure is computed: the one description every engine consumes.

    ``evaluate`` is the one-block case (``partial`` on the whole run, then ``finish``); the
    :class:`~recfair.scale.blocks.Accumulator` calls ``partial`` per block of users and merges the
    states; ``compare``'s resampling passes user ``weights`` (multiplicities) to ``partial``; the
    Dask path maps ``partial`` over partitions and merges. No engine names a measure: everything
    measure-specific is here.

    Attributes
    ----------
    kind : ``"per_user"`` (a mean of per-user values; ``partial`` returns ``{"values": ...}``
        or, when absent, the engine uses the record's ``per_user``; NaN = undefined user),
        ``"item_sums"`` (sums over users of fixed-size arrays: blocks add up), ``"pairs"``
        (needs every pair of users: the record's ``compute``) or ``"run"`` (needs the whole run
        at once: the record's ``compute``).
    partial : ``partial(run, *, weights=None, context=None, **options) -> dict`` of arrays/floats,
        the state of one block of users (``weights``: one non-negative weight per user of the
        block, None = all 1).
    finish : ``finish(state, *, on_undefined="warn", **options) -> float``.
    merge : ``merge(a, b) -> state``; None adds matching entries, except entries whose name
        starts with ``_`` (facts of the run such as ``_n_items``), which are carried from ``a``.
    context : ``context(run, **options) -> dict``: whole-run facts a block needs (computed once,
        passed to ``partial`` as ``context=``).
    linear : optional ``linear(run, **options) -> form | None``: the measure's user-additive form for
        resampling (``form.rows`` (m, d) per-user statistics, ``form.finish(weights @ rows)`` the values of
        a batch of user weightings; :class:`recfair.item_exposure.resample.LinearForm`), None where the
        options or the run allow none. The per-user means need none: ``compare`` resamples their values.
    whole_run_if : optional ``whole_run_if(run) -> bool``: runs the block states cannot describe (Part I's
        rank counts hold one round: a multi-round run), on which ``evaluate`` uses the record's ``compute``.
    cost : time order for m users, n items, k (for ``costs()`` and the scale appendix).
    state : what a block keeps, in words.

    Examples
    --------
    >>> Computation("run", cost="O(n^2)").kind
    'run'
    >>> Computation("blocks")
    Traceback (most recent call last):
    ...
    ValueError: Computation.kind must be one of per_user, item_sums, pairs, run; got 'blocks'
    """

    kind: str
    partial: Callable | None = None
    finish: Callable | None = None
    merge: Callable | None = None
    context: Callable | None = None
    linear: Callable | None = None
    whole_run_if: Callable | None = None
    cost: str = "O(mk)"
    state: str = ""

    def __post_init__(self):
        if self.kind not in COMPUTATION_KINDS:
            raise ValueError(
                f"Computation.kind must be one of {', '.join(COMPUTATION_KINDS)}; got {self.kind!r}"
            )
        if self.kind == "item_sums" and (self.partial is None or self.finish is None):
            raise ValueError("an 'item_sums' Computation needs partial and finish")

    @property
    def blockwise(self) -> bool:
        """Whether blocks of users can be computed apart and merged (per_user, item_sums, with no whole-run
        ``context`` such as item popularity from every user's history)."""
        return self.kind in ("per_user", "item_sums") and self.context is None

    def merge_states(self, a: dict, b: dict) -> dict:
        """Merge two block states (the record's ``merge``, or matching entries added)."""
        if self.merge is not None:
            return self.merge(a, b)
        return {key: a[key] if key.startswith("_") else a[key] + b[key] for key in a}

    @property
    def in_blocks(self) -> bool:
        """Whether the measure is ``finish(partial(...))`` of block states (per_user, item_sums), a whole-run
        ``context`` allowed (``evaluate`` is one block; :attr:`blockwise` says whether blocks can be apart)."""
        return self.kind in ("per_user", "item_sums") and self.partial is not None

    def in_blocks_on(self, run) -> bool:
        """Whether ``run`` is computed as block states (:attr:`in_blocks` and not ``whole_run_if(run)``)."""
        return self.in_blocks and (self.whole_run_if is None or not self.whole_run_if(run))

    def block_state(self, run, *, options: dict, weights=None, context=None) -> dict:
        """The state of one block of users (``run``): ``partial`` with the options it takes.

        ``context`` (whole-run facts, from :meth:`context_of`) goes to a ``partial`` that needs one.
        """
        extra = {} if self.context is None else {"context": context}
        if weights is not None:
            extra["weights"] = weights
        return self.partial(run, **extra, **self.options_for_partial(options))

    def context_of(self, run, *, options: dict):
        """The whole-run facts a block needs (None when the computation needs none)."""
        return None if self.context is None else self.context(run, **options)

    def one_block(self, run, *, options: dict, on_undefined: str = "warn") -> float:
        """The measure on ``run`` as one block: ``finish(partial(run, context=context(run)))``.

        >>> from recfair import REGISTRY, Run
        >>> run = Run([[0, 1], [1, 2]], 4, relevant=[[1], [3]])
        >>> REGISTRY["HR"].computation.one_block(run, options={})
        0.5
        """
        state = self.block_state(run, options=options, context=self.context_of(run, options=options))
        return self.finish(state, on_undefined=on_undefined, **options)

    def options_for_partial(self, options: dict) -> dict:
        """The options ``partial`` takes (all of them when it takes ``**options``)."""
        import inspect

        params = inspect.signature(self.partial).parameters
        if any(p.kind is p.VAR_KEYWORD for p in params.values()):
            return dict(options)
        return {name: value for name, value in options.items() if name in params}


class ExactSum:
    """A float sum kept exactly (:func:`math.fsum` with its rounding error carried), so that blocks add up
    to the same value however the users are split.

    >>> a, b = ExactSum(), ExactSum()
    >>> a.add([0.1, 0.2]); b.add([0.3])
    >>> (a + b).value == math.fsum([0.1, 0.2, 0.3])
    True
    """

    __slots__ = ("parts",)

    def __init__(self, *, parts=()):
        self.parts = list(parts)

    def add(self, values) -> None:
        values = np.asarray(values, dtype=np.float64).ravel()
        if values.size:
            total = math.fsum(values)
            self.parts += [total, math.fsum(np.append(values, -total))]   # exact sum = total + error, to ~1e-32
            if len(self.parts) > 64:
                self._compact()

    def _compact(self) -> None:
        total = math.fsum(self.parts)
        self.parts = [total, math.fsum(self.parts + [-total])]

    def __add__(self, other: "ExactSum") -> "ExactSum":
        out = ExactSum(parts=self.parts + other.parts)
        out._compact()
        return out

    @property
    def value(self) -> float:
        return math.fsum(self.parts)


def block_states(items, run, *, weights=None, contexts=None) -> list[dict]:
    """One block's state for each ``(computation, options)`` of ``items``, in order; records that share
    a ``partial`` and its options (Part I's rank counts) share one call. ``contexts`` (one per item, or None)
    are the whole-run facts of the computations that need them.

    What :func:`recfair.evaluate` (one block) and :class:`recfair.Accumulator` (each block) both run.

    >>> from recfair import REGISTRY, Run
    >>> run = Run([[0, 1], [1, 2]], 4)
    >>> a, b = block_states([(REGISTRY[key].computation, {}) for key in ("Jain_ori", "Gini_ori")], run)
    >>> a is b                                   # Part I's records share one rank-count state
    True
    """
    shared, out = {}, []
    for index, (comp, options) in enumerate(items):
        context = None if contexts is None else contexts[index]
        mine = comp.options_for_partial(options)
        token = None
        if context is None:
            try:
                token = (comp.partial, tuple(sorted(mine.items())))
                hash(token)
            except TypeError:
                token = None
        state = shared.get(token) if token is not None else None
        if state is None:
            state = comp.block_state(run, options=options, weights=weights, context=context)
            if token is not None:
                shared[token] = state
        out.append(state)
    return out


def mean_state(values, *, weights=None) -> dict:
    """The block state of a mean of per-user values (NaN = undefined user): exact sum, defined and all users.

    ``weights`` (one non-negative weight per user, None = all 1) count each user that many times.

    >>> state = mean_state([0.5, float("nan"), 1.0])
    >>> state["sum"].value, state["defined"], state["users"]
    (1.5, 2, 3)
    """
    values = np.asarray(values, dtype=np.float64)
    keep = ~np.isnan(values)
    total = ExactSum()
    if weights is None:
        total.add(values[keep])
        return {"sum": total, "defined": int(keep.sum()), "users": int(values.size)}
    weights = np.asarray(weights, dtype=np.float64)
    total.add(values[keep] * weights[keep])
    return {"sum": total, "defined": float(weights[keep].sum()), "users": float(weights.sum())}



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
    achievable : optional ``achievable(m, n, k, **params) -> Bounds`` (achievable most unfair / most fair).
    exhaustive : optional ``exhaustive(m, n, k, **params) -> Extremes``: the exact smallest and
        largest value over every recommendation at tiny sizes (what :func:`recfair.bounds.exhaustive`
        dispatches to).
    undefined : when the measure is undefined and what recfair then does.
    description : one-sentence description.
    reference : where the measure comes from.
    no_bound : why the measure has no achievable range, where the reason is known (``achievable`` is
        then None), e.g. ItemMAD's; "" otherwise.
    chapter : label of the book chapter that treats it.
    guidelines : Paper 3's marks on the guideline factors (:mod:`recfair.joint.guidelines`), joint measures only.
    graded : whether the measure accepts graded relevance (``relevance=``); the others need
        binary relevance (or none at all).
    from_effectiveness : optional ``from_effectiveness(effectiveness, *, on_undefined=..., **options) -> float``:
        the measure computed from per-user effectiveness values alone (one value per user), for
        researchers who have only those; what :func:`recfair.evaluate_effectiveness` dispatches to
        (Part IV's PUF, SD_ind, Gini_ind; Part V's measures). A hook that compares users by
        similarity takes ``similarity=`` (a users x users matrix), one that compares groups
        ``groups=``; ``options`` on the hook (a tuple of names) lists its other keyword options.
    computation : :class:`Computation`: how the measure is computed (per user, per-item sums,
        pairs, whole run), consumed by every engine.

    Examples
    --------
    >>> from recfair import REGISTRY
    >>> spec = REGISTRY["Gini_our"]
    >>> isinstance(spec, MeasureSpec), spec.direction, spec.chapter
    (True, '↓', 'gini')
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
    exhaustive: Callable | None = None
    no_bound: str = ""
    chapter: str | None = None
    guidelines: tuple[str, ...] | None = None
    graded: bool = False
    from_effectiveness: Callable | None = None
    computation: Computation | None = None

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


class Extremes(tuple):
    """Smallest and largest value of a measure found by an exhaustive search.

    Returned by every exhaustive search (:func:`recfair.bounds.exhaustive` and the parts'
    searches). A plain pair ``(low, high)`` underneath, so ``low, high = exhaustive(...)`` works
    and it compares equal to a tuple; a search that can tell *where* the extremes are also sets
    ``argmin`` and ``argmax`` (e.g. the 1-based positions of a user's relevant items) and
    ``count``, the number of configurations it enumerated (None otherwise).

    >>> low, high = Extremes(0.25, 0.75)
    >>> high - low
    0.5
    >>> Extremes(0.25, 0.75, argmin=(1, 2), argmax=(3, 4), count=6).argmax
    (3, 4)
    """


    def __new__(cls, low: float, high: float, *, argmin=None, argmax=None, count: int | None = None):
        obj = super().__new__(cls, (low, high))
        obj.argmin, obj.argmax, obj.count = argmin, argmax, count
        return obj

    @property
    def low(self) -> float:
        """The smallest value found."""
        return self[0]

    @property
    def high(self) -> float:
        """The largest value found."""
        return self[1]

    def __repr__(self) -> str:
        return f"Extremes(low={self[0]!r}, high={self[1]!r})"

    def __reduce__(self):
        return (_extremes, (self[0], self[1], self.argmin, self.argmax, self.count))


def _extremes(low, high, argmin, argmax, count):
    return Extremes(low, high, argmin=argmin, argmax=argmax, count=count)
