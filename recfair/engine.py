"""One entry point: compute any list of registered measures on one run."""

from __future__ import annotations

import inspect
from collections.abc import Iterable

import numpy as np
import pandas as pd

from ._validation import check_on_undefined, undefined
from .registry import ALL_MEASURES, check_needs, get
from .run import Run

__all__ = ["evaluate", "evaluate_per_user", "evaluate_run", "evaluate_effectiveness"]


def _measure_list(measures) -> list[str]:
    if isinstance(measures, str):
        measures = [measures]
    if not isinstance(measures, Iterable):
        raise TypeError(f"measures must be a name or a list of names, got {type(measures).__name__}.")
    measures = list(measures)
    if not measures:
        raise ValueError("measures is empty: name at least one measure.")
    for name in measures:
        get(name)
    if len(set(measures)) != len(measures):
        dup = sorted({m for m in measures if measures.count(m) > 1})
        raise ValueError(f"measures lists {dup} more than once.")
    return measures


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


def _dispatch(measures, options: dict, on_undefined: str, *, able=None, unable: str = "",
              options_of=_run_options) -> tuple[list, dict[str, dict]]:
    """The one dispatcher core: names -> records, checked, with each record's share of ``options``.

    ``able(spec)`` says whether a record can be computed by this entry point (``unable`` explains
    why not); ``options_of(spec)`` names the keyword options it takes. An option that no requested
    measure takes is a ``ValueError`` from every entry point alike.
    """
    check_on_undefined(on_undefined)
    specs = [get(name) for name in _measure_list(measures)]
    if able is not None:
        bad = [s.key for s in specs if not able(s)]
        if bad:
            raise ValueError(f"{bad} {unable}")
    allowed = {spec.key: set(options_of(spec)) for spec in specs}
    known = set().union(*allowed.values())
    unknown = sorted(set(options) - known)
    if unknown:
        raise ValueError(f"option(s) {unknown} are not parameters of any requested measure "
                         f"(their parameters: {sorted(known) or 'none'}).")
    return specs, {spec.key: {o: v for o, v in options.items() if o in allowed[spec.key]} for spec in specs}


def evaluate_run(run: Run, measures, *, on_undefined: str = "warn", **options) -> dict[str, float]:
    """Like :func:`evaluate`, on an already validated :class:`~recfair.run.Run`.

    Examples
    --------
    >>> from recfair.run import Run
    >>> run = Run([[0, 1], [1, 2]], 4, relevant=[[1], [3]])
    >>> evaluate_run(run, ["HR", "Jain_ori"])
    {'HR': 0.5, 'Jain_ori': 0.6666666666666666}
    """
    specs, per_spec = _dispatch(measures, options, on_undefined)
    check_needs(run, specs)
    return {spec.key: float(spec.compute(run, on_undefined=on_undefined, **per_spec[spec.key])) for spec in specs}


def evaluate(top_k, *, n_items, measures, k=None, relevant=None, relevance=None, scores=None, ranking=None,
             history=None, rounds=None, item_features=None, user_attributes=None, on_undefined="warn", client=None,
             **options) -> dict[str, float]:
    """Compute the named measures on one run; returns ``{name: score}`` in the order asked.

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, >= k), or None
        Users' recommended items in rank order (0-based item indices). ``None`` derives the
        lists from ``scores`` or ``ranking``.
    n_items : int
        Catalogue size (every item of the dataset).
    measures : str or list of str
        Canonical names from :data:`recfair.REGISTRY`, e.g. ``["NDCG", "Jain_our"]``.
    k : int, optional
        Cut-off; defaults to the width of ``top_k``.
    relevant : sequences of int or scipy.sparse (n_users, n_items) 0/1, optional
        Ground-truth relevant items per user.
    relevance : array-like or scipy.sparse (n_users, n_items) of float, optional
        Graded ground truth :math:`r_{u,i} \\ge 0` instead of ``relevant`` (0 = not relevant);
        only measures whose registry record has ``graded=True`` accept grades other than 1.
    scores : array-like (n_users, n_items), optional
        Predicted scores (``-inf`` = excluded); the full ranking is their stable descending
        sort, ties to the lower index, history last.
    ranking : array-like of int (n_users, n_items), optional
        An explicit full ranking instead of ``scores``.
    history : sequences of int or sparse matrix, optional
        Per-user excluded (train/validation) items.
    rounds : array-like of int, shape (W, n_users, >= k), optional
        The lists of ``W`` recommendation rounds, for the multi-round measures (Gini, Gini-w,
        II-D, AI-D, MME, IBO/IWO, II-F, AI-F); round 0 must equal ``top_k``.
    item_features : array-like of float, shape (n_items, d), optional
        Item representations (VoCD's cosine similarity with ``alpha < 2``).
    user_attributes : pandas.DataFrame, optional
        One row per user: sensitive attributes, for the user-group measures.
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        What an undefined measure gives: NaN with a warning, NaN, or an error.
    client : dask.distributed.Client, optional
        Compute on this Dask cluster (:mod:`recfair.scale`): the linear measures over partitions
        of users, merged exactly; the pairwise ones pass it to their measure functions.
    **options
        Measure parameters (e.g. ``gamma``); each must belong to a requested measure.

    ``top_k`` may also be a long run larger than memory (a parquet path or a Dask DataFrame
    with columns ``user, item, rank``; ``relevant``/``history`` then long frames ``user, item``),
    and ``scores`` a Dask array or a callback ``scores(users)``: the run is then streamed in
    blocks of users through :class:`recfair.Accumulator` (:mod:`recfair.scale.streaming`).

    Returns
    -------
    dict of str to float

    Examples
    --------
    >>> evaluate([[0, 1], [1, 2]], n_items=4, measures=["HR", "P"], relevant=[[1], [3]])
    {'HR': 0.5, 'P': 0.25}
    """
    from .scale import cluster as scale                  # client= and out-of-memory runs
    if client is not None or scale.wants(top_k, scores):
        return scale.evaluate(top_k, n_items=n_items, measures=measures, k=k, relevant=relevant, relevance=relevance,
                              scores=scores, ranking=ranking, history=history, rounds=rounds,
                              item_features=item_features, user_attributes=user_attributes,
                              on_undefined=on_undefined, client=client, **options)
    run = Run(top_k, n_items, k=k, relevant=relevant, scores=scores, ranking=ranking, history=history,
              relevance=relevance, rounds=rounds, user_attributes=user_attributes, item_features=item_features)
    return evaluate_run(run, measures, on_undefined=on_undefined, **options)


def evaluate_per_user(top_k, *, n_items, measures, users=None, k=None, relevant=None, relevance=None, scores=None,
                      ranking=None, history=None, rounds=None, item_features=None, user_attributes=None,
                      on_undefined="warn", client=None, **options) -> pd.DataFrame:
    """Per-user values of measures that score each user (the relevance measures; IAA, IFD, II-F).

    Parameters
    ----------
    top_k, n_items, measures, k, relevant, relevance, scores, ranking, history, rounds, item_features, user_attributes
        As in :func:`evaluate`.
    users : array-like, optional
        Labels of the rows (default ``0..m-1``).
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        A user whose value is undefined (e.g. recall without relevant items, or a user left
        out of a corrected measure) gets NaN; ``"warn"`` also issues one
        :class:`~recfair.UndefinedMeasureWarning` per measure naming how many users are
        undefined, ``"raise"`` raises :class:`~recfair.UndefinedMeasureError` instead, ``"nan"``
        is silent.
    client : dask.distributed.Client, optional
        Compute the users' partitions as tasks on this Dask cluster.
    **options
        Measure parameters (e.g. ``gamma``); each must belong to a requested measure.

    Returns
    -------
    pandas.DataFrame
        Indexed by user, one column per measure.

    Examples
    --------
    >>> evaluate_per_user([[0, 1], [1, 2]], n_items=4, measures=["HR", "MRR"], relevant=[[1], [3]],
    ...                   users=[10, 11])
            HR  MRR
    user
    10     1.0  0.5
    11     0.0  0.0
    """
    if client is not None:                                      # partitions of users on a Dask cluster
        from .scale import cluster as scale
        return scale.evaluate_per_user(evaluate_per_user, top_k, n_items=n_items, measures=measures, users=users,
                                       k=k, relevant=relevant, relevance=relevance, scores=scores, ranking=ranking,
                                       history=history, rounds=rounds, item_features=item_features,
                                       user_attributes=user_attributes, on_undefined=on_undefined, client=client,
                                       **options)
    specs, per_spec = _dispatch(measures, options, on_undefined, able=lambda s: s.per_user is not None,
                                unable="have no per-user values (they score the run as a whole).")
    run = Run(top_k, n_items, k=k, relevant=relevant, scores=scores, ranking=ranking, history=history,
              relevance=relevance, rounds=rounds, user_attributes=user_attributes, item_features=item_features)
    check_needs(run, specs)
    index = pd.RangeIndex(run.n_users, name="user") if users is None else pd.Index(np.asarray(users), name="user")
    if len(index) != run.n_users:
        raise ValueError(f"users has {len(index)} entries but the run has {run.n_users} users.")
    frame = pd.DataFrame({s.key: s.per_user(run, **per_spec[s.key]) for s in specs}, index=index)
    for name in frame.columns:
        n_undefined = int(frame[name].isna().sum())
        if n_undefined and on_undefined != "nan":
            undefined(name, f"{n_undefined} of {run.n_users} users have no defined value (NaN)", on_undefined)
    return frame


def evaluate_effectiveness(effectiveness, measures, *, similarity=None, groups=None, on_undefined: str = "warn",
                           client=None, **options) -> dict[str, float]:
    """Compute user-fairness measures from per-user effectiveness values alone; returns ``{name: value}``.

    Researchers often have only each user's effectiveness (e.g. NDCG@10 per user), not the
    lists. The measures that can be computed from those (their registry record has
    ``from_effectiveness``: Part IV's PUF, SD_ind and Gini_ind, and every measure of Part V) are
    dispatched by name; the envy measures and UF need the lists (:func:`evaluate`).

    Parameters
    ----------
    effectiveness : array-like of float, shape (m,)
        One effectiveness value per user, :math:`S(u)` (in [0, 1] for PUF); NaN marks a user
        whose effectiveness is undefined, and each measure then follows ``on_undefined``.
    measures : str or list of str
        Canonical names, e.g. ``["PUF", "SD_ind"]``.
    similarity : array-like or scipy.sparse (m, m), optional
        The users x users similarity in [0, 1] (PUF needs it; e.g.
        :func:`recfair.users.user_similarity` of the users' history, ``minmax=True``). A name
        (``"jaccard"``) needs the history, which only :func:`evaluate` has.
    groups : array-like of labels, shape (m,), or pandas.DataFrame, optional
        The users' groups, for Part V's group measures: one label per user, or one column per
        sensitive attribute (the groups are the non-empty intersections of all its columns).
    on_undefined : {"warn", "nan", "raise"}, default="warn"
        What an undefined measure gives: NaN with a warning, NaN, or an error.
    **options
        Parameters of the requested measures (PUF: ``normalization``, ``minmax``,
        ``block_size``; Atkinson: ``epsilon``; GCE: ``beta``, ``lam``, ``c``; Min: ``q``); an
        option no requested measure takes is a ``ValueError``, as in :func:`evaluate`.
    client : dask.distributed.Client, optional
        Passed to the measures that accept it (PUF's pair blocks then run on the cluster).

    Returns
    -------
    dict of str to float

    Examples
    --------
    >>> sim = [[1, .5, 0], [.5, 1, 1], [0, 1, 1]]
    >>> out = evaluate_effectiveness([0.2, 0.6, 0.6], ["PUF", "SD_ind"], similarity=sim)
    >>> {name: round(value, 4) for name, value in out.items()}
    {'PUF': 0.0667, 'SD_ind': 0.1886}
    >>> out = evaluate_effectiveness([0.2, 0.6, 0.6], ["Range_group", "Atk_ind"], groups=["f", "f", "m"])
    >>> {name: round(value, 4) for name, value in out.items()}
    {'Range_group': 0.2, 'Atk_ind': 0.051}
    """
    if client is not None:                                      # pairwise measures' blocks on a Dask cluster
        from .scale import cluster as scale
        return scale.evaluate_effectiveness(evaluate_effectiveness, effectiveness, measures, similarity=similarity,
                                            groups=groups, on_undefined=on_undefined, client=client, **options)
    able = ", ".join(s.key for s in ALL_MEASURES if s.from_effectiveness is not None)
    specs, per_spec = _dispatch(
        measures, options, on_undefined, able=lambda s: s.from_effectiveness is not None,
        unable=f"cannot be computed from per-user effectiveness alone (they need the lists: use recfair.evaluate); "
               f"measures that can: {able}.",
        options_of=_effectiveness_options)
    return {spec.key: float(spec.from_effectiveness(effectiveness, similarity=similarity, groups=groups,
                                                    on_undefined=on_undefined, **per_spec[spec.key]))
            for spec in specs}
