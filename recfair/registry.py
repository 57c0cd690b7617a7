"""One record per measure: the single source for ``evaluate``, docs, widgets, tests and tables.

Every measure of the thesis has exactly one :class:`MeasureSpec` in :data:`ALL_MEASURES`,
listed explicitly (no registering decorators, no import-time side effects). Each part of the
library keeps its own records beside its measures (``recfair/<part>/records.py``; the relevance
measures' in :mod:`recfair.relevance`); this module only collects them, in the book's order.
``REGISTRY`` maps the canonical name (``"NDCG"``, ``"Jain_our"``, ...) to its record.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable
from dataclasses import dataclass

import numpy as np
import pandas as pd

from . import relevance as _relevance
from ._validation import check_on_undefined, renamed_option_message, undefined
from .item_exposure import records as _item_exposure
from .joint import records as _joint
from .pareto import records as _pareto
from .users import records as _users
from .groups import records as _groups
from .field import records as _field
from .spec import Bounds, Extremes, MeasureSpec

__all__ = ["Bounds", "Extremes", "MeasureSpec", "ALL_MEASURES", "PARTS", "REGISTRY", "check_needs", "get", "option_meaning", "resolve", "OPTION_MEANINGS", "Plan", "plan", "names", "table", "with_directions"]


#: Every measure, in the book's order (the relevance measures, then Parts I, II, III, IV, V and VI).
ALL_MEASURES: tuple[MeasureSpec, ...] = (_relevance.RECORDS + _item_exposure.RECORDS + _joint.RECORDS
                                         + _pareto.RECORDS + _users.RECORDS + _groups.RECORDS + _field.RECORDS)

REGISTRY: dict[str, MeasureSpec] = {s.key: s for s in ALL_MEASURES}

#: The book part of each family (the library's subpackage of the same name holds it).
PARTS = {"relevance": "Foundations", "item_exposure": "I", "joint": "II", "pareto": "III", "users": "IV",
         "groups": "V", "field": "VI"}


_PATIENCE = "the patience of the position weights (probability of examining the next rank)"

#: What each option name means: one meaning per name, the same for every measure that takes it, so a
#: plain keyword (``gamma=0.5``) goes to every requested measure that takes it. ``tests/test_options.py``
#: keeps this table complete and fails when a name gains a second meaning (rename the option then, and
#: record the old name in :data:`recfair._validation.RENAMED_OPTIONS`).
OPTION_MEANINGS: dict[str, str] = {
    "alpha": "the cosine-distance threshold under which two items are similar (2: all items)",
    "fairness_weight": "the reference point's position along the frontier (0: relevance only, 1: fairness only)",
    "active_share": "the share of most active users (by history size) UGF's advantaged group takes",
    "crossing": "where the head ends: the item that reaches head_share in it ('include') or not ('exclude'), or items "
                "until the share is strictly exceeded ('exceed')",
    "denominator": "RSP's per-group denominator: the group's items unseen by the user or all its items",
    "examination": "the position weights (recfair.examination: 'dcg', 'uniform', 'rbp', 'inverse')",
    "gain": "ItemMAD's relevance gain convention ('exponential' or 'shifted')",
    "groups": "the users' groups (one label per user or a DataFrame of attributes)",
    "head_share": "the share of training interactions the popular head covers",
    "log_base": "the logarithm's base (Ent_ori's default n_items, AWRF's 2)",
    "min_popularity": "the floor of an item's popularity in ARP (the head/tail split reads the unfloored counts)",
    "mix": "the share of the history's distribution mixed into the list's (Steck's alpha)",
    "normalize": "whether ARP divides each item's popularity by the total number of training interactions",
    "empty_groups": "what a group with nothing to divide by does: make the measure 'undefined' or 'drop' out of it",
    "patience": "the patience of expected exposure's rank-biased user model",
    "popularity": "what counts as an item's popularity ('users', 'interactions' or one count per item)",
    "ratio": "the share of groups counted as worst off",
    "smoothing": "the constant added to both distributions before the logarithm",
    "tail": "which items form the tail ('catalogue': every non-head item, 'seen': only those seen in training)",
    "tail_items": "RecBole's tail: the given number (an int) or share (a float in (0, 1]) of least popular seen items",
    "tail_threshold": "RecBole's tail: the seen items whose popularity is at most this",
    "target": "the target group distribution ('catalogue' shares or one share per group)",
    "unlabelled": "what items in no group do ('skip' them or form one more 'group')",
    "attention": "which attention IAA ours compares with relevance ('corrected' or 'original')",
    "attributes": "the user_attributes columns whose intersections are the groups",
    "base": "the per-user relevance measure S(u) (e.g. 'NDCG')",
    "beta": "the tolerated normalised count gap between two similar items",
    "exponent": "the exponent of the generalised cross entropy",
    "block_size": "users per block of the pairwise kernels (memory bound)",
    "c": "the small constant that keeps the generalised cross entropy finite",
    "envy_tolerance": "the envy a user tolerates before counting as envious",
    "epsilon": "the inequality aversion of the Atkinson index",
    "exposure": "where IFD÷ ori's exposure comes from ('full' ranking or the 'top_k')",
    "fair": "the fairness measure of DPFR's frontier (a registry name)",
    "frontier": "DPFR's precomputed frontier table (recfair.pareto.oracle2fair)",
    "gamma": _PATIENCE,
    "history_weight": "the weight of the history (Jaccard) similarity mixed with the item-feature similarity",
    "index_range": "which frontier points DPFR's reference point is chosen among",
    "item_vectors": "the item representations UF compares the users' lists with",
    "lam": "the weight of the group shares in the generalised cross entropy",
    "minmax": "whether PUF min-max scales the similarity",
    "normalization": "how the pairwise envy or disparity is averaged ('mean' or 'printed')",
    "phi": "the utility's normalisation of the envy measures ('k' or 'relevant')",
    "points": "the frontier points DPFR computes",
    "q": "the quantile of users the Min measure averages",
    "rel": "the relevance measure of DPFR's frontier (a registry name)",
    "seed": "the randomness (an int, a Generator or None)",
    "similarity": "the users x users similarity (a name or a matrix)",
    "tie_break": "how HD's reference ranking breaks ties",
}


def option_meaning(measure: str, option: str) -> str:
    """What ``option`` means for ``measure`` (:data:`OPTION_MEANINGS`; "" if ``measure`` does not take it).

    >>> option_meaning("UF", "history_weight")
    'the weight of the history (Jaccard) similarity mixed with the item-feature similarity'
    >>> option_meaning("Ent_ori", "base")
    ''
    """
    spec = get(measure)
    takes = set(_run_options(spec)) | (set(_effectiveness_options(spec)) if spec.from_effectiveness else set())
    return OPTION_MEANINGS.get(option, "") if option in takes else ""


def get(name: str) -> MeasureSpec:
    """The record of measure ``name``; a clear error lists the known names otherwise.

    Examples
    --------
    >>> get("Jain_our").direction
    '↑'
    """
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(unknown_measure(name)) from None


def _part_names() -> dict[str, list[str]]:
    """Every family and part name (``"relevance"``, ``"I"``, ``"Part I"``) -> its measures, in book order."""
    out: dict[str, list[str]] = {}
    for spec in ALL_MEASURES:
        part = PARTS[spec.family]
        for alias in (spec.family, part, f"Part {part}"):
            out.setdefault(alias, []).append(spec.key)
    return out


def resolve(measure) -> list[str]:
    """Canonical measure names for a measure, a family (``"relevance"``) or a part (``"I"``, ``"Part II"``).

    An unknown name is a ``ValueError`` suggesting the closest names (case-insensitive).

    Examples
    --------
    >>> resolve("relevance")
    ['HR', 'MRR', 'P', 'R', 'MAP', 'NDCG']
    >>> resolve("Part III")
    ['DPFR']
    >>> resolve("NDGC")
    Traceback (most recent call last):
    ...
    ValueError: unknown measure 'NDGC'; did you mean NDCG? (a measure, a family such as 'relevance' or a part such as 'I'; recfair.registry.names() lists them)
    """
    if isinstance(measure, str):
        if measure in REGISTRY:
            return [measure]
        groups = _part_names()
        if measure in groups:
            return list(groups[measure])
    raise ValueError(unknown_measure(measure))


def unknown_measure(measure) -> str:
    """The message for an unknown measure name: the closest known names (case-insensitive ``difflib``)."""
    import difflib

    if not isinstance(measure, str):
        return f"a measure name must be a string, got {type(measure).__name__} {measure!r}"
    known = list(REGISTRY) + list(_part_names())
    lower = {}
    for key in known:
        lower.setdefault(key.lower(), key)
    target = measure.lower()
    close = [key for key in REGISTRY if len(target) >= 2 and key.lower().startswith(target)]
    close += [lower[x] for x in difflib.get_close_matches(target, list(lower), n=4, cutoff=0.6)
              if lower[x] not in close]
    close = close[:4]
    hint = f"did you mean {', '.join(close)}? " if close else ""
    return (f"unknown measure {measure[:40]!r}; {hint}(a measure, a family such as 'relevance' or a part such as 'I'; "
            "recfair.registry.names() lists them)")


def check_needs(run, specs) -> None:
    """Raise a ``ValueError`` naming what a run lacks for the measures ``specs`` (or a graded-relevance clash).

    >>> from recfair import Run
    >>> check_needs(Run([[0, 1]], 3), [get("Jain_our")])
    >>> check_needs(Run([[0, 1]], 3), [get("NDCG")])
    Traceback (most recent call last):
    ...
    ValueError: NDCG needs relevant, which the run does not have; pass relevant=.
    """
    for spec in specs:
        if run.graded and "relevant" in spec.needs and not spec.graded:
            raise ValueError(f"{spec.key} is defined for binary relevance only; this run has graded relevance "
                             "(measures that accept it: " + ", ".join(s.key for s in ALL_MEASURES if s.graded) + ").")
        missing = [need for need in spec.needs if not run.has(need)]
        if missing:
            raise ValueError(f"{spec.key} needs {', '.join(missing)}, which the run does not have; pass "
                             + ", ".join(f"{m}=" for m in missing) + ".")


def names(family: str | None = None) -> list[str]:
    """Canonical names, optionally of one family, in registry order.

    Examples
    --------
    >>> names("relevance")
    ['HR', 'MRR', 'P', 'R', 'MAP', 'NDCG']
    """
    return [s.key for s in ALL_MEASURES if family is None or s.family == family]


def table(family: str | None = None) -> pd.DataFrame:
    """The registry as a DataFrame (one row per measure), for docs and the book.

    Examples
    --------
    >>> t = table("item_exposure")
    >>> t.loc["Gini_ori", ["direction", "range", "part"]].tolist()
    ['↓', '[0, 1]', 'I']
    """
    rows = []
    for s in ALL_MEASURES:
        if family is not None and s.family != family:
            continue
        rows.append({
            "measure": s.key, "label": s.label, "family": s.family, "part": PARTS[s.family],
            "module": s.func.__module__, "chapter": s.chapter, "paper": s.paper,
            "version": s.version, "direction": s.direction,
            "range": f"[{_fmt(s.range[0])}, {_fmt(s.range[1])}]",
            "needs": ", ".join(s.needs), "graded": s.graded,
            "options": ", ".join(f"{k}={v!r}" for k, v in s.options.items()),
            "undefined": s.undefined, "description": s.description,
        })
    return pd.DataFrame(rows).set_index("measure")


def with_directions(frame, *, axis: int = 0):
    """Prefix each measure name of a table's labels with its direction (``"↑ NDCG"``, ``"↓ Gini_ori"``).

    For the book's result tables, where measures are the rows (``axis=0``) or the columns
    (``axis=1``); labels that are not measure names stay as they are. Takes a DataFrame (returns
    a relabelled copy) or a pandas ``Styler`` (returns it with its labels formatted).

    Examples
    --------
    >>> frame = pd.DataFrame({"run": [0.3, 0.1]}, index=["NDCG", "Gini_ori"])
    >>> with_directions(frame).index.tolist()
    ['↑ NDCG', '↓ Gini_ori']
    """
    if axis not in (0, 1):
        raise ValueError(f"axis must be 0 (rows) or 1 (columns), got {axis!r}.")

    def label(key):
        return f"{REGISTRY[key].direction} {key}" if isinstance(key, str) and key in REGISTRY else key

    if isinstance(frame, pd.DataFrame):
        return frame.rename(index=label) if axis == 0 else frame.rename(columns=label)
    if hasattr(frame, "format_index"):
        return frame.format_index(label, axis=axis)
    raise TypeError(f"with_directions takes a DataFrame or a Styler, got {type(frame).__name__}.")


def _fmt(x: float) -> str:
    """A range end as the book prints it: ``∞``, ``√2`` (DPFR's largest distance in [0, 1]²), or ``%g``.

    >>> _fmt(float("inf")), _fmt(2 ** 0.5), _fmt(0.5)
    ('∞', '√2', '0.5')
    """
    if np.isinf(x):
        return "∞" if x > 0 else "-∞"
    if x == np.sqrt(2):
        return "√2"
    return f"{x:g}"


# --------------------------------------------------------------------------- the plan

def _names(measures) -> list[str]:
    """Canonical names for ``measures``: names, families or parts (expanded in book order, each once)."""
    if isinstance(measures, str):
        measures = [measures]
    if not isinstance(measures, Iterable) or isinstance(measures, dict):
        raise TypeError(f"measures must be a name or a list of names, got {type(measures).__name__}.")
    measures = list(measures)
    if not measures:
        raise ValueError("measures is empty: name at least one measure.")
    if len({m if isinstance(m, str) else id(m) for m in measures}) != len(measures):
        dup = sorted({m for m in measures if isinstance(m, str) and measures.count(m) > 1})
        raise ValueError(f"measures lists {dup} more than once.")
    out: list[str] = []
    for entry in measures:
        out += [key for key in resolve(entry) if key not in out]
    return out


def _run_options(spec) -> tuple[str, ...]:
    return tuple(spec.options)


def _effectiveness_options(spec) -> tuple[str, ...]:
    hook = spec.from_effectiveness
    declared = getattr(hook, "options", None)          # hooks that forward **options say which
    if declared is not None:
        return tuple(declared)
    params = inspect.signature(hook).parameters
    return tuple(name for name, p in params.items()
                 if p.kind is p.KEYWORD_ONLY and name not in ("similarity", "groups", "on_undefined", "client"))


@dataclass(frozen=True)
class Plan:
    """A validated computation: the canonical names in the order asked, their records, each one's options.

    Made by :func:`plan`; every entry point (:func:`evaluate`, :func:`evaluate_per_user`,
    :func:`evaluate_effectiveness`, :func:`recfair.compare`, :class:`recfair.Accumulator`, the
    Dask path and the command line) works from one.

    >>> p = plan(["NDCG", "Ent_ori"], options={"Ent_ori": {"log_base": 2}})
    >>> p.names, p.options["Ent_ori"]
    (('NDCG', 'Ent_ori'), {'log_base': 2})
    """

    names: tuple[str, ...]
    specs: tuple
    options: dict
    on_undefined: str = "warn"

    @property
    def needs(self) -> dict[str, tuple[str, ...]]:
        """The run inputs each measure needs (``{name: needs}``)."""
        return {spec.key: spec.needs for spec in self.specs}

    def __iter__(self):
        return iter(zip(self.specs, (self.options[s.key] for s in self.specs)))


def _check_renamed(measures, options) -> None:
    """A ``ValueError`` naming the new name when ``options`` holds an old name of one of ``measures``."""
    for key in measures:
        for option in options:
            message = renamed_option_message(key, option)
            if message:
                raise ValueError(message + ".")


def plan(measures, *, options=None, keywords=None, on_undefined: str = "warn", run=None, able=None,
         unable: str = "", options_of=_run_options) -> Plan:
    """Turn (measures, families or parts; options; data) into a validated :class:`Plan`.

    Parameters
    ----------
    measures : str or list of str
        Canonical names (``"NDCG"``), families (``"relevance"``, ``"item_exposure"``) or parts
        (``"I"``, ``"Part II"``, ``"Foundations"``). An unknown name is a ``ValueError`` that
        suggests the closest names.
    options : dict of str to dict, optional
        Per-measure options, ``{"SD_ind": {"base": "P"}, "VoCD": {"alpha": 0.3}}``; they win over
        ``keywords``.
    keywords : dict, optional
        Plain keyword options (``gamma=0.5``): each goes to every requested measure that takes it
        (an option name has one meaning for every measure, :data:`recfair.registry.OPTION_MEANINGS`).
        One that no requested measure takes is a ``ValueError``; so is an option's old name
        (:data:`recfair._validation.RENAMED_OPTIONS`), naming the new one.
    on_undefined : {"warn", "nan", "raise"}
    run : Run, optional
        When given, checked to have what every measure needs.
    able, unable, options_of
        For entry points that compute only some measures: ``able(spec)`` says whether this one can
        (``unable`` explains why not); ``options_of(spec)`` names the options it takes there.

    Examples
    --------
    >>> p = plan(["Ent_ori", "SD_ind"], keywords={"base": "P", "log_base": 2})
    >>> p.names, p.options
    (('Ent_ori', 'SD_ind'), {'Ent_ori': {'log_base': 2}, 'SD_ind': {'base': 'P'}})
    >>> plan(["Ent_ori"], options={"Ent_ori": {"base": 2}})
    Traceback (most recent call last):
    ...
    ValueError: Ent_ori's option 'base' is now called 'log_base'.
    """
    check_on_undefined(on_undefined)
    names = _names(measures)
    specs = [get(name) for name in names]
    if able is not None:
        bad = [s.key for s in specs if not able(s)]
        if bad:
            raise ValueError(f"{bad} {unable}")
    allowed = {spec.key: tuple(options_of(spec)) for spec in specs}
    options = {} if options is None else options
    if not isinstance(options, dict):
        raise TypeError(f"options must be a dict {{measure: {{option: value}}}}, got {type(options).__name__}.")
    own: dict[str, dict] = {}
    for key, values in options.items():
        if key not in allowed:
            raise ValueError(f"options names {key!r}, which is not a requested measure (requested: "
                             f"{', '.join(names)}).")
        if not isinstance(values, dict):
            raise TypeError(f"options[{key!r}] must be a dict of option values, got {type(values).__name__}.")
        wrong = sorted(set(values) - set(allowed[key]))
        _check_renamed([key], wrong)
        if wrong:
            raise ValueError(f"{key} takes no option(s) {wrong} (its options: {list(allowed[key]) or 'none'}).")
        own[key] = dict(values)
    keywords = {} if keywords is None else keywords
    known = set().union(*map(set, allowed.values()))
    unknown = sorted(set(keywords) - known)
    _check_renamed(names, unknown)
    if unknown:
        raise ValueError(f"option(s) {unknown} are not parameters of any requested measure "
                         f"(their parameters: {sorted(known) or 'none'}).")
    per_measure = {key: {**{o: v for o, v in keywords.items() if o in allowed[key]}, **own.get(key, {})}
                   for key in names}
    if run is not None:
        check_needs(run, specs)
    return Plan(tuple(names), tuple(specs), per_measure, on_undefined)


def warn_undefined_users(frame, n_users: int, on_undefined: str) -> None:
    """The one per-user warning: each column of ``frame`` with NaN users follows ``on_undefined``."""
    if on_undefined == "nan":
        return
    for name in frame.columns:
        n_undefined = int(frame[name].isna().sum())
        if n_undefined:
            undefined(name, f"{n_undefined} of {n_users} users have no defined value (NaN)", on_undefined)


def effectiveness_plan(measures, *, options=None, keywords=None, on_undefined="warn") -> Plan:
    """:func:`plan` for the measures computed from per-user effectiveness alone."""
    able = ", ".join(s.key for s in ALL_MEASURES if s.from_effectiveness is not None)
    return plan(measures, options=options, keywords=keywords, on_undefined=on_undefined,
                able=lambda s: s.from_effectiveness is not None,
                unable=f"cannot be computed from per-user effectiveness alone (they need the lists: use "
                       f"recfair.evaluate); measures that can: {able}.",
                options_of=_effectiveness_options)
