"""Which measure should I use? The book's measure selector and measure index, from the registry.

Every fact used here is a field of a measure's registry record (:class:`recfair.spec.MeasureSpec`):
its family, inputs (``needs``), ``graded``, ``version``, ``per_user``, ``undefined`` and, for the
relevance-aware measures, Paper 3's guideline marks (``guidelines``, factors in
:data:`recfair.joint.guidelines.FACTORS`). :func:`recommend_measures` turns what a run *has* and
what a reader *wants* into the measures that fit, each with the reasons; :func:`measure_index`
lists every measure with a link to its chapter.
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from ..joint.guidelines import FACTORS
from ..registry import ALL_MEASURES, PARTS, MeasureSpec, _fmt

__all__ = ["HAS", "WANTS", "KINDS", "recommend_measures", "chapter_doc", "measure_index"]

#: What a run can provide beyond the top-k lists (which every run has, except one given as
#: per-user effectiveness values only).
HAS = {
    "relevance": "relevance judgements: each user's relevant (test) items",
    "graded": "graded relevance: a grade per (user, item), not only relevant / not relevant",
    "ranking": "a full ranking or scores for every item, not only the top-k",
    "history": "each user's train/validation items (the split the recommender learnt from)",
    "similarity": "a users x users similarity matrix (instead of computing it from the history)",
    "item_features": "item features (vectors that say which items are similar, or the items' genres)",
    "item_groups": "item groups: one label per item (a provider, a genre, popular head or long tail)",
    "user_attributes": "user attributes, i.e. the users' groups (e.g. gender or age groups)",
    "effectiveness": "only one effectiveness value per user (e.g. NDCG@10), no lists",
}

#: Properties a reader may require of a measure.
WANTS = {
    "corrected": "where the thesis corrects a measure (an _ori/_our pair), only the corrected version",
    "realisable_range": "its fairest and most unfair recommendations are proven to reach the ends of its range",
    "always_defined": "it has a value for every run but degenerate sizes (no users, k = n, one item)",
    "per_user": "it gives one value per user (to compare users or groups of users)",
}

#: The kinds of measure one can ask for, and the registry families of each.
KINDS = {
    "fairness": tuple(family for family in PARTS if family != "relevance"),
    "item fairness": ("item_exposure", "joint"),
    "exposure": ("item_exposure",),
    "relevance-aware": ("joint",),
    "joint evaluation": ("pareto",),
    "user fairness": ("users", "groups"),
    "individual users": ("users",),
    "user groups": ("groups",),
    "field measures": tuple(family for family in PARTS if family not in
                            ("relevance", "item_exposure", "joint", "pareto", "users", "groups")),
    "effectiveness": ("relevance",),
    "any": tuple(PARTS),
}

#: The book folder of each registry family (the chapter file is ``book/<folder>/<chapter>``).
FOLDERS = {"relevance": "foundations", "item_exposure": "item_exposure", "joint": "joint", "pareto": "pareto",
           "users": "users", "groups": "groups"}

_KIND_TEXT = {"relevance": "effectiveness", "item_exposure": "exposure-based item fairness",
              "joint": "relevance-aware item fairness", "pareto": "relevance and fairness jointly (Pareto frontier)",
              "users": "fairness to individual users", "groups": "fairness to user groups"}
_I1 = [code for code, _ in FACTORS].index("I1")
#: Inputs that make no sense for a run given as per-user effectiveness values only.
_LIST_INPUTS = {"relevance", "graded", "ranking", "history", "item_features", "item_groups"}


def _names(values, allowed: dict, what: str) -> set[str]:
    if isinstance(values, str):
        values = [values]
    if not isinstance(values, Iterable):
        raise TypeError(f"{what} must be a list of names, got {type(values).__name__}.")
    values = set(values)
    unknown = sorted(v for v in values if v not in allowed)
    if unknown:
        raise ValueError(f"unknown {what} {unknown}; choose from {', '.join(allowed)}.")
    return values


_DEGENERATE = ("never", "no users", "a run with no users", "the achievable range is empty", "k = n", "n < 2")


def _undefined_cases(spec: MeasureSpec) -> list[str]:
    """The record's undefined cases that are not degenerate sizes (see :data:`WANTS`)."""
    clauses, depth, start = [], 0, 0
    for i, char in enumerate(spec.undefined + ";"):
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char == ";" and depth == 0:
            clauses.append(spec.undefined[start:i].strip())
            start = i + 1
    return [c for c in clauses if c and not c.startswith(_DEGENERATE)]


def _corrected_version(spec: MeasureSpec) -> str | None:
    """The name of the corrected (``_our``) version of an original measure, if the library has one."""
    if spec.version != "original" or not spec.key.endswith("_ori"):
        return None
    name = spec.key[: -len("_ori")] + "_our"
    return name if any(s.key == name for s in ALL_MEASURES) else None


def _from_effectiveness(spec: MeasureSpec):
    """The record's hook computing the measure from per-user effectiveness values, or None."""
    return spec.from_effectiveness


def _needs_similarity(spec: MeasureSpec) -> bool:
    """Whether the measure weighs user pairs by a similarity that it computes from the history by default."""
    return isinstance(spec.options.get("similarity"), str)


def _realisable(spec: MeasureSpec, graded: bool) -> tuple[bool, str]:
    """Whether the measure's ends are known to be reachable, and the reason true of that measure."""
    if spec.family == "relevance":
        return False, "its reachable range depends on the data (how many items each user finds relevant)"
    if spec.family == "pareto":
        return False, ("a distance to the data's own Pareto frontier: 0 (on the frontier) is reachable, "
                       "its largest value depends on the data")
    corrected = _corrected_version(spec)
    if corrected is not None:
        return False, f"its most fair or most unfair score is out of reach; {corrected} is its corrected version"
    if spec.family in ("users", "groups"):
        return False, ("no achievable bounds are derived for it (the thesis gives none and it has no corrected "
                       "version): its extremes depend on the users, their similarity or their groups")
    if spec.no_bound:
        return False, spec.no_bound
    if spec.version == "single":
        if spec.guidelines is not None and spec.guidelines[_I1] == "no":
            return False, "Paper 3: its fairest and unfairest recommendations miss the ends of its range (no corrected version exists)"
        return False, ("no corrected version exists, and its achievable ends (derived in its chapter) "
                       "do not cover its whole range")
    if spec.guidelines is not None:
        mark = spec.guidelines[_I1]
        if mark == "no":
            return False, "Paper 3: its fairest and unfairest recommendations miss the ends of its range"
        if mark == "binary" and graded:
            return False, "Paper 3: its ends are reached only with binary relevance"
    return True, "corrected: both ends reachable"


def chapter_doc(measure: str) -> str:
    """The book chapter (file path without suffix, from the repository root) that treats a measure.

    Examples
    --------
    >>> chapter_doc("Gini_our"), chapter_doc("NDCG")
    ('book/item_exposure/gini', 'book/foundations/data')
    """
    from ..registry import get

    spec = get(measure)
    return f"book/{FOLDERS.get(spec.family, spec.family)}/{spec.chapter}"


def _missing(spec: MeasureSpec, has: set[str]) -> list[str]:
    """What the run lacks for this measure (readable phrases; empty if it has everything)."""
    if "effectiveness" in has:
        if _from_effectiveness(spec) is None:
            return ["the top-k lists (it cannot be computed from per-user effectiveness values alone)"]
        missing = []
        if _needs_similarity(spec) and "similarity" not in has:
            missing.append("a users x users similarity matrix")
        if "user_attributes" in spec.needs and "user_attributes" not in has:
            missing.append(_INPUT_TEXT["user_attributes"])
        return missing
    available = {"top_k"} | (has & {"item_features", "item_groups", "user_attributes", "history"})
    if "relevance" in has:
        available.add("relevant")
    if "ranking" in has:
        available |= {"ranking", "scores"}
    missing = [_INPUT_TEXT.get(need, need) for need in spec.needs if need not in available]
    if _needs_similarity(spec) and "history" not in spec.needs and not has & {"history", "similarity"}:
        missing.append("each user's history or a users x users similarity matrix")
    return missing


def _uses(spec: MeasureSpec, has: set[str]) -> str:
    if "effectiveness" in has:
        extra = [_INPUT_TEXT[n] for n in ("user_attributes",) if n in spec.needs]
        if _needs_similarity(spec):
            extra.append("the similarity matrix")
        return "from per-user effectiveness" + (" and " + " and ".join(extra) if extra else "")
    if spec.needs == ("top_k",):
        return "lists only"
    used = [_INPUT_TEXT.get(n, n) for n in spec.needs if n != "top_k"]
    if _needs_similarity(spec) and "history" not in spec.needs:
        used.append("the similarity matrix" if "similarity" in has and "history" not in has
                    else "each user's history (for the similarity)")
    return "uses " + " and ".join(used)


def recommend_measures(*, has=(), wants=(), kind: str = "fairness", explain: bool = False) -> pd.DataFrame:
    """The measures that fit what a run has and what the reader wants, with the reasons.

    Parameters
    ----------
    has : list of str
        What the run provides besides the top-k lists (keys of :data:`HAS`). ``"graded"``
        implies ``"relevance"``: graded judgements then rule out the measures that take
        binary relevance only. ``"effectiveness"`` describes a run given as one effectiveness
        value per user and no lists (what :func:`recfair.evaluate_effectiveness` takes): only
        the measures computed from those values fit, with ``"similarity"`` or
        ``"user_attributes"`` where they weigh or group the users.
    wants : list of str
        Required properties (keys of :data:`WANTS`).
    kind : str
        Which measures to consider (a key of :data:`KINDS`): ``"fairness"`` (every part),
        ``"item fairness"`` (Parts I-II), ``"exposure"``, ``"relevance-aware"``,
        ``"joint evaluation"`` (Part III), ``"user fairness"`` (Parts IV-V),
        ``"individual users"``, ``"user groups"``, ``"field measures"`` (the field's other
        measures, Part VI: every part after V), ``"effectiveness"`` or ``"any"``.
    explain : bool
        Also return the measures of that kind that do not fit, with the first reason why not.

    Returns
    -------
    pandas.DataFrame
        One row per measure (index ``measure``, registry order) with ``direction``, ``range``,
        ``part``, ``chapter`` (the chapter's label) and ``why`` (the reasons it fits, or the
        reason it does not); with ``explain=True`` also a boolean column ``fits``.

    Examples
    --------
    >>> fit = recommend_measures(has=["relevance"], wants=["realisable_range", "always_defined"])
    >>> fit.index.tolist()
    ['Jain_our', 'QF_our', 'Ent_our', 'Gini_our', 'Gini-w_our', 'FSat_our']
    >>> fit.loc["Gini_our", "why"].split("; ")[:2]
    ['exposure-based item fairness', 'lists only']
    >>> recommend_measures(kind="relevance-aware").empty
    True
    >>> recommend_measures(has=["relevance", "history"], wants=["corrected"], kind="joint evaluation").index.tolist()
    ['DPFR']
    >>> recommend_measures(has=["effectiveness", "user_attributes"], kind="user groups").index[:3].tolist()
    ['Min_group', 'Range_group', 'SD_group']
    >>> recommend_measures(has=["ranks"])
    Traceback (most recent call last):
    ...
    ValueError: unknown inputs ['ranks']; choose from relevance, graded, ranking, history, similarity, item_features, item_groups, user_attributes, effectiveness.
    """
    has = _names(has, HAS, "inputs")
    wants = _names(wants, WANTS, "properties")
    if not isinstance(kind, str) or kind not in KINDS:
        raise ValueError(f"kind must be one of {', '.join(KINDS)}; got {kind!r}.")
    if not isinstance(explain, bool):
        raise TypeError(f"explain must be True or False, got {type(explain).__name__}.")
    if "effectiveness" in has and has & _LIST_INPUTS:
        raise ValueError(f"'effectiveness' describes a run without lists (one value per user); it cannot be "
                         f"combined with {sorted(has & _LIST_INPUTS)}. Leave it out when the run has top-k lists.")
    graded = "graded" in has
    if graded:
        has.add("relevance")

    rows = []
    for spec in ALL_MEASURES:
        if spec.family not in KINDS[kind]:
            continue
        kind_text = _KIND_TEXT.get(spec.family, f"Part {PARTS[spec.family]}: {spec.family} measures")
        if spec.family == "groups" and "user_attributes" not in spec.needs:
            kind_text = "fairness to individual users (the Atkinson index that Part V decomposes)"
        why, why_not = [kind_text], None
        missing = _missing(spec, has)
        if missing:
            why_not = "needs " + " and ".join(missing)
        elif graded and "relevant" in spec.needs and not spec.graded:
            why_not = "takes binary relevance only (grades would have to be binarised)"
        else:
            why.append(_uses(spec, has))
            if graded and spec.graded:
                why.append("uses the grades")
        if why_not is None and "corrected" in wants:
            corrected = _corrected_version(spec)
            if corrected is not None:
                why_not = f"superseded by {corrected}, its corrected version"
            elif spec.version == "corrected" and spec.family in ("item_exposure", "joint"):
                why.append("the thesis's corrected version")
        if why_not is None and "realisable_range" in wants:
            ok, reason = _realisable(spec, graded)
            why_not = None if ok else reason
            if ok:
                why.append(reason)
        if why_not is None and "always_defined" in wants:
            cases = _undefined_cases(spec)
            if cases:
                why_not = f"undefined: {cases[0]}"
            else:
                why.append("no 0/0 case on real runs")
        if why_not is None and "per_user" in wants:
            if spec.per_user is not None:
                why.append("per-user values")
            else:
                why_not = "a single value for the whole run (no per-user values)"
        if why_not is not None and not explain:
            continue
        rows.append({"measure": spec.key, "direction": spec.direction,
                     "range": f"[{_fmt(spec.range[0])}, {_fmt(spec.range[1])}]",
                     "part": PARTS[spec.family], "chapter": spec.chapter,
                     "fits": why_not is None, "why": "; ".join(why) if why_not is None else why_not})
    columns = ["measure", "direction", "range", "part", "chapter", "fits", "why"]
    frame = pd.DataFrame(rows, columns=columns).set_index("measure")
    return frame if explain else frame.drop(columns="fits")


_INPUT_TEXT = {"relevant": "relevance judgements", "ranking": "a full ranking (or scores)",
               "scores": "scores for every item", "item_features": "item features",
               "user_attributes": "user attributes (the users' groups)", "history": "each user's history",
               "item_groups": "item groups (one label per item)",
               "rounds": "several rounds of recommendation"}


def measure_index(*, link: str = "myst") -> pd.DataFrame:
    """Every registered measure with its name, direction, part, range, inputs and chapter.

    Parameters
    ----------
    link : {"myst", "name"}
        ``"myst"`` writes the chapter as a MyST ``{ref}`` role (a working link when the table is
        rendered as Markdown in the book); ``"name"`` gives the chapter's label.

    Examples
    --------
    >>> index = measure_index(link="name")
    >>> index.loc["Gini_our"].tolist()
    ['Gini index (corrected)', '↓', 'I', '[0, 1]', 'top_k', 'gini']
    >>> measure_index().loc["NDCG", "chapter"]
    '{ref}`data`'
    """
    if link not in ("myst", "name"):
        raise ValueError(f"link must be 'myst' or 'name', got {link!r}.")
    rows = []
    for spec in ALL_MEASURES:
        chapter = f"{{ref}}`{spec.chapter}`" if link == "myst" else spec.chapter
        rows.append({"measure": spec.key, "name": spec.label, "dir.": spec.direction, "part": PARTS[spec.family],
                     "range": f"[{_fmt(spec.range[0])}, {_fmt(spec.range[1])}]",
                     "needs": ", ".join(spec.needs), "chapter": chapter})
    return pd.DataFrame(rows).set_index("measure")
