"""One entry point: compute any list of registered measures on one run."""

from __future__ import annotations

import inspect

import numpy as np
import pandas as pd

from .registry import Plan, check_needs, effectiveness_plan, plan, warn_undefined_users
from .run import Run
from .spec import block_states

__all__ = ["evaluate", "evaluate_per_user", "evaluate_run", "evaluate_effectiveness", "plan", "Plan"]


def evaluate_run(run: Run, *, measures, options=None, on_undefined: str = "warn", **keywords) -> dict[str, float]:
    """Like :func:`evaluate`, on an already validated :class:`~recfair.run.Run`.

    Examples
    --------
    >>> from recfair.run import Run
    >>> run = Run([[0, 1], [1, 2]], 4, relevant=[[1], [3]])
    >>> evaluate_run(run, measures=["HR", "Jain_ori"])
    {'HR': 0.5, 'Jain_ori': 0.6666666666666666}
    """
    return run_plan(run, plan(measures, options=options, keywords=keywords, on_undefined=on_undefined, run=run))


def run_plan(run: Run, the_plan: Plan, **extra) -> dict[str, float]:
    """The one engine path on an in-memory run: each record's computation on the whole run (one block).

    A measure computed in blocks (per-user values, per-item sums) is ``finish(partial(run, context=...))``
    of its record's :class:`~recfair.spec.Computation`, the very functions the
    :class:`~recfair.Accumulator` runs per block (records sharing a partial share one call); the others
    (pairs of users, the whole run) are their record's ``compute``. ``extra`` (e.g. ``client=``) goes to
    the measures whose ``compute`` accepts it.
    """
    items = list(the_plan)
    blocked = [(spec, opts) for spec, opts in items if spec.computation.in_blocks_on(run)]
    if blocked:
        check_needs(run, [spec for spec, _ in blocked])
    comps = [(spec.computation, opts) for spec, opts in blocked]
    states = block_states(comps, run, contexts=[comp.context_of(run, options=opts) for comp, opts in comps])
    finished = {spec.key: (spec.computation, state, opts) for (spec, opts), state in zip(blocked, states)}
    out = {}
    for spec, opts in items:
        if spec.key in finished:
            comp, state, opts = finished[spec.key]
            out[spec.key] = float(comp.finish(state, on_undefined=the_plan.on_undefined, **opts))
        else:
            more = {name: value for name, value in extra.items() if _accepts(spec.compute, name)}
            out[spec.key] = float(spec.compute(run, on_undefined=the_plan.on_undefined, **opts, **more))
    return out


def _accepts(func, name: str) -> bool:
    return func is not None and name in inspect.signature(func).parameters


def evaluate(top_k, *, n_items, measures, k=None, relevant=None, relevance=None, scores=None, ranking=None,
             history=None, rounds=None, item_features=None, user_attributes=None, on_undefined="warn", client=None,
             item_groups=None, options=None, **keywords) -> dict[str, float]:
    """Compute the named measures on one run; returns ``{name: score}`` in the order asked.

    Parameters
    ----------
    top_k : array-like of int, shape (n_users, >= k), or None
        Users' recommended items in rank order (0-based item indices). ``None`` derives the
        lists from ``scores`` or ``ranking``.
    n_items : int
        Catalogue size (every item of the dataset).
    measures : str or list of str
        Canonical names from :data:`recfair.REGISTRY` (``["NDCG", "Jain_our"]``), families
        (``"relevance"``) or parts (``"I"``, ``"Part II"``); keyword-only in every entry point.
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
    item_groups : array-like, shape (n_items,), optional
        One group label per item (``None``: no group), for Part VI's item-group measures
        (:mod:`recfair.field`).
    client : dask.distributed.Client, optional
        Compute on this Dask cluster (:mod:`recfair.scale`): the linear measures over partitions
        of users, merged exactly; the pairwise ones pass it to their measure functions.
    options : dict of str to dict, optional
        Per-measure options, ``{"SD_ind": {"base": "P"}, "VoCD": {"alpha": 0.3}}`` (see :func:`plan`).
    **keywords
        Plain options (e.g. ``gamma=0.5``), given to every requested measure that takes them; each
        must belong to a requested measure and mean one thing for all of them.

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
        if item_groups is not None:
            raise ValueError("item_groups= is not supported with client= or a streamed run yet: evaluate Part VI's "
                             "item-group measures on a run in memory.")
        return scale.evaluate(top_k, n_items=n_items, measures=measures, k=k, relevant=relevant, relevance=relevance,
                              scores=scores, ranking=ranking, history=history, rounds=rounds,
                              item_features=item_features, user_attributes=user_attributes,
                              on_undefined=on_undefined, client=client, options=options, **keywords)
    run = Run(top_k, n_items, k=k, relevant=relevant, scores=scores, ranking=ranking, history=history,
              relevance=relevance, rounds=rounds, user_attributes=user_attributes, item_features=item_features,
              item_groups=item_groups)
    return evaluate_run(run, measures=measures, options=options, on_undefined=on_undefined, **keywords)


def evaluate_per_user(top_k, *, n_items, measures, users=None, k=None, relevant=None, relevance=None, scores=None,
                      ranking=None, history=None, rounds=None, item_features=None, user_attributes=None,
                      on_undefined="warn", client=None, item_groups=None, options=None, **keywords) -> pd.DataFrame:
    """Per-user values of measures that score each user (the relevance measures; IAA, IFD, II-F).

    Parameters
    ----------
    top_k, n_items, measures, k, relevant, relevance, scores, ranking, history, rounds, item_features, user_attributes
        As in :func:`evaluate`.
    item_groups : array-like, shape (n_items,), optional
        As in :func:`evaluate` (not with ``client=``).
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
    options, **keywords
        As in :func:`evaluate`.

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
        if item_groups is not None:
            raise ValueError("item_groups= is not supported with client= yet.")
        return scale.evaluate_per_user(evaluate_per_user, top_k, n_items=n_items, measures=measures, users=users,
                                       k=k, relevant=relevant, relevance=relevance, scores=scores, ranking=ranking,
                                       history=history, rounds=rounds, item_features=item_features,
                                       user_attributes=user_attributes, on_undefined=on_undefined, client=client,
                                       options=options, **keywords)
    the_plan = plan(measures, options=options, keywords=keywords, on_undefined=on_undefined,
                    able=lambda s: s.per_user is not None,
                    unable="have no per-user values (they score the run as a whole).")
    run = Run(top_k, n_items, k=k, relevant=relevant, scores=scores, ranking=ranking, history=history,
              relevance=relevance, rounds=rounds, user_attributes=user_attributes, item_features=item_features,
              item_groups=item_groups)
    check_needs(run, the_plan.specs)
    index = pd.RangeIndex(run.n_users, name="user") if users is None else pd.Index(np.asarray(users), name="user")
    if len(index) != run.n_users:
        raise ValueError(f"users has {len(index)} entries but the run has {run.n_users} users.")
    frame = pd.DataFrame({s.key: s.per_user(run, **opts) for s, opts in the_plan}, index=index)
    warn_undefined_users(frame, run.n_users, on_undefined)
    return frame


def evaluate_effectiveness(effectiveness, *, measures, similarity=None, groups=None, on_undefined: str = "warn",
                           client=None, options=None, **keywords) -> dict[str, float]:
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
    options : dict of str to dict, optional
        Per-measure options, as in :func:`evaluate`.
    **keywords
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
    >>> out = evaluate_effectiveness([0.2, 0.6, 0.6], measures=["PUF", "SD_ind"], similarity=sim)
    >>> {name: round(value, 4) for name, value in out.items()}
    {'PUF': 0.0667, 'SD_ind': 0.1886}
    >>> out = evaluate_effectiveness([0.2, 0.6, 0.6], measures=["Range_group", "Atk_ind"], groups=["f", "f", "m"])
    >>> {name: round(value, 4) for name, value in out.items()}
    {'Range_group': 0.2, 'Atk_ind': 0.051}
    """
    if client is not None:                                      # pairwise measures' blocks on a Dask cluster
        from .scale import cluster as scale
        return scale.evaluate_effectiveness(evaluate_effectiveness, effectiveness, measures=measures, similarity=similarity,
                                            groups=groups, on_undefined=on_undefined, client=client,
                                            options=options, **keywords)
    the_plan = effectiveness_plan(measures, options=options, keywords=keywords, on_undefined=on_undefined)
    return {spec.key: float(spec.from_effectiveness(effectiveness, similarity=similarity, groups=groups,
                                                    on_undefined=on_undefined, **opts))
            for spec, opts in the_plan}
