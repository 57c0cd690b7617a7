"""``client=`` and out-of-memory inputs for :func:`recfair.evaluate` and its siblings.

:mod:`recfair.engine` branches here, early, when a call names a Dask ``client`` or gives a
run that is not an in-memory array (a parquet path or Dask DataFrame of a long run, scores as
a Dask array or a callback). What happens then:

* **linear measures** (:data:`recfair.scale.blocks.ACCUMULABLE`): the users are cut into
  partitions, each partition's :class:`~recfair.Accumulator` is computed as a task on the
  cluster, and the Accumulators are merged (exact sums, so the value equals the local one);
* **pairwise measures** (PUF, the envy measures, UF): the client is passed to their hooks when
  these accept ``client=`` (their pair blocks then run on the cluster), else they are computed here;
* the few others (HD, MME, IBO/IWO, AI-F, DPFR) are computed here, on the whole run.

An in-memory run is validated here, whole, before anything is sent, so bad input raises the
same error as without a client. Dask is imported only on this path.
"""

from __future__ import annotations

import inspect

import numpy as np

from .._validation import check_on_undefined
from .blocks import ACCUMULABLE, Accumulator, effectiveness_hook
from ..registry import effectiveness_plan, plan, warn_undefined_users
from ..run import Run
from .streaming import check_client, evaluate_long, is_dask_collection, is_long_source, map_merge

__all__ = ["wants", "partitions"]

#: Users per task when an in-memory run is spread over a cluster (at least one task per worker thread).
TASK_USERS = 50_000


def wants(top_k=None, scores=None) -> bool:
    """Whether :func:`recfair.evaluate` must come here for these inputs (without a client).

    >>> wants([[0, 1]]), wants("run.parquet"), wants([[0, 1]], scores=lambda users: None)
    (False, True, True)
    """
    return is_long_source(top_k) or (scores is not None and (is_dask_collection(scores)
                                                              or (callable(scores) and not hasattr(scores, "shape"))))


def partitions(n_users: int, client, task_users: int = TASK_USERS) -> list[tuple[int, int]]:
    """Consecutive user ranges ``(start, stop)``: at least two per worker thread, at most ``task_users`` users each.

    >>> partitions(10, None, task_users=4)
    [(0, 3), (3, 7), (7, 10)]
    """
    threads = 1 if client is None else max(1, sum(client.nthreads().values()))
    count = max(2 * threads if client is not None else 1, -(-n_users // task_users))
    count = max(1, min(count, n_users))
    edges = np.linspace(0, n_users, count + 1).round().astype(int)
    return [(int(a), int(b)) for a, b in zip(edges[:-1], edges[1:]) if b > a]


def _rows(x, a: int, b: int, name: str | None = None):
    """Rows ``a:b`` (users) of one input of a run."""
    if x is None:
        return None
    if name == "rounds":
        return np.asarray(x)[:, a:b]
    if isinstance(x, dict):
        import pandas as pd

        x = pd.DataFrame(x)
    if hasattr(x, "iloc"):
        return x.iloc[a:b].reset_index(drop=True)
    return x[a:b]


def _accumulate_rows(block, *, measures, n_items, k, on_undefined, item_features, options) -> Accumulator:
    """A task: the Accumulator of one block of users (``block``: their rows of each input)."""
    acc = Accumulator(measures=measures, n_items=n_items, k=k, on_undefined=on_undefined, item_features=item_features,
                      **options)
    acc.update(block["top_k"], **{name: value for name, value in block.items() if name != "top_k"})
    return acc


def _accepts_client(hook) -> bool:
    return hook is not None and "client" in inspect.signature(hook).parameters


def evaluate(top_k, *, n_items, measures, k=None, relevant=None, relevance=None, scores=None, ranking=None,
             history=None, rounds=None, item_features=None, user_attributes=None, on_undefined="warn", client=None,
             options=None, **keywords) -> dict[str, float]:
    """:func:`recfair.evaluate` with a client or an out-of-memory run (its parameters; see the module)."""
    client = check_client(client)
    check_on_undefined(on_undefined)
    if is_long_source(top_k):
        for name, value in (("relevance", relevance), ("ranking", ranking), ("rounds", rounds)):
            if value is not None:
                raise ValueError(f"a long run (parquet path or Dask DataFrame) takes relevant= and history= as long "
                                 f"frames; {name}= is not supported with it.")
        return evaluate_long(top_k, n_items=n_items, measures=measures, k=k, relevant=relevant, history=history,
                             scores=scores, user_attributes=user_attributes, on_undefined=on_undefined, client=client,
                             item_features=item_features, options=options, **keywords)
    if scores is not None and wants(None, scores):
        return _scores_in_blocks(top_k, n_items=n_items, measures=measures, k=k, relevant=relevant,
                                 relevance=relevance, scores=scores, history=history, item_features=item_features,
                                 user_attributes=user_attributes, on_undefined=on_undefined, client=client,
                                 options=options, **keywords)
    run = Run(top_k, n_items, k=k, relevant=relevant, scores=scores, ranking=ranking, history=history,
              relevance=relevance, rounds=rounds, user_attributes=user_attributes, item_features=item_features)
    probe = plan(measures, options=options, keywords=keywords, on_undefined=on_undefined, run=run)
    out = {}
    linear = [s.key for s in probe.specs if s.key in ACCUMULABLE and run.rounds is None
              and ("ranking" not in s.needs or run.scores is not None or run._ranking is None)]
    if linear:
        lin_opts = {key: probe.options[key] for key in linear}
        total = Accumulator(measures=linear, n_items=run.n_items, k=run.k, on_undefined=on_undefined,
                            item_features=run.item_features, options=lin_opts)
        if client is None:
            total.update(run.top_k, relevance=run.relevance_values if run.has("relevant") else None,
                         scores=run.scores, history=run.history, user_attributes=run.user_attributes)
        else:
            inputs = dict(top_k=run.top_k, relevance=run.relevance_values if run.has("relevant") else None,
                          scores=run.scores, history=run.history, user_attributes=run.user_attributes)
            blocks = [{name: _rows(value, a, b) for name, value in inputs.items()}
                      for a, b in partitions(run.n_users, client)]
            kwargs = dict(measures=linear, n_items=run.n_items, k=run.k, on_undefined=on_undefined,
                          item_features=run.item_features, options={"options": lin_opts})
            total = map_merge(client, _accumulate_rows, blocks, kwargs, total)
        out.update(total.result())
    for spec in probe.specs:
        if spec.key in out:
            continue
        extra = {"client": client} if client is not None and _accepts_client(spec.compute) else {}
        out[spec.key] = float(spec.compute(run, on_undefined=on_undefined, **probe.options[spec.key], **extra))
    return {name: out[name] for name in probe.names}


def _scores_in_blocks(top_k, *, n_items, measures, k, relevant, relevance, scores, history, item_features,
                      user_attributes, on_undefined, client, options=None, **keywords):
    """An in-memory run whose scores come in blocks (Dask array or callback): the Accumulator over row blocks."""
    n_users = int(scores.shape[0]) if hasattr(scores, "shape") else (None if top_k is None else len(top_k))
    if n_users is None:
        raise ValueError("scores given as a callback need top_k (or users) to know how many users there are.")
    total = Accumulator(measures=measures, n_items=n_items, k=10 if k is None and top_k is None else
                        (k if k is not None else np.asarray(top_k[:1]).shape[1]), on_undefined=on_undefined,
                        item_features=item_features, options=options, **keywords)
    for a, b in partitions(n_users, None, task_users=max(1, (1 << 24) // max(int(n_items), 1))):
        users = np.arange(a, b)
        if callable(scores) and not hasattr(scores, "shape"):
            block = np.asarray(scores(users), dtype=np.float64)
            if block.shape != (b - a, n_items):
                raise ValueError(f"the scores callback returned shape {block.shape} for users {a}..{b - 1}; expected "
                                 f"({b - a}, {n_items}).")
        else:
            block = scores[a:b]
            block = np.asarray(block.compute() if is_dask_collection(block) else block, dtype=np.float64)
        total.update(_rows(top_k, a, b), relevant=_rows(relevant, a, b), relevance=_rows(relevance, a, b),
                     scores=block, history=_rows(history, a, b), user_attributes=_rows(user_attributes, a, b))
    return total.result()


_DATA = ("relevant", "relevance", "scores", "ranking", "history", "rounds", "user_attributes")


def _per_user_rows(start, *, entry, top_k, n_items, measures, data, options):
    """A task: the per-user frame of one block of users (``top_k`` and ``data``: their rows)."""
    return start, entry(top_k, n_items=n_items, measures=measures, on_undefined="nan", **data, **options)


def evaluate_per_user(func, top_k, *, n_items, measures, users=None, client=None, on_undefined="warn", k=None,
                      item_features=None, **inputs):
    """:func:`recfair.evaluate_per_user` (``func``) with its users' partitions computed on ``client``."""
    import pandas as pd
    from distributed import as_completed

    client = check_client(client)
    check_on_undefined(on_undefined)
    data = {name: v for name, v in inputs.items() if name in _DATA and v is not None}
    options = {name: v for name, v in inputs.items() if name not in _DATA}
    run = Run(top_k, n_items, k=k, item_features=item_features, **data)     # the whole run, validated here
    if client is None or run.n_users == 0:
        return func(top_k, n_items=n_items, measures=measures, users=users, k=k, on_undefined=on_undefined,
                    item_features=item_features, **inputs)
    # names, options and per-user-ness checked on one user: the same errors as without a client
    func(run.top_k[:1], n_items=n_items, measures=measures, k=run.k, on_undefined="nan", item_features=item_features,
         **{name: _rows(v, 0, 1, name) for name, v in data.items()}, **options)
    index = pd.RangeIndex(run.n_users, name="user") if users is None else pd.Index(np.asarray(users), name="user")
    if len(index) != run.n_users:
        raise ValueError(f"users has {len(index)} entries but the run has {run.n_users} users.")
    # each task carries its own rows: a task lost with its worker is run again elsewhere
    futures = [client.submit(_per_user_rows, a, entry=func, top_k=run.top_k[a:b], n_items=n_items,
                             measures=measures, data={name: _rows(v, a, b, name) for name, v in data.items()},
                             options=dict(options, k=run.k, item_features=item_features), pure=False)
               for a, b in partitions(run.n_users, client)]
    pieces = {}
    try:
        for future in as_completed(futures):
            start, frame = future.result()
            pieces[start] = frame
    finally:
        client.cancel(futures)
    frame = pd.concat([pieces[s] for s in sorted(pieces)], ignore_index=True)
    frame.index = index
    warn_undefined_users(frame, run.n_users, on_undefined)
    return frame


def evaluate_effectiveness(func, effectiveness, *, measures, client=None, options=None, on_undefined="warn",
                           similarity=None, groups=None, **keywords):
    """The per-user-effectiveness entry point (``func``) with ``client`` passed to the measures that take it.

    The measures computed from one value per user are linear in the users except PUF, whose
    pair blocks run on the cluster when its hook accepts ``client=``; the others are computed here.
    """
    client = check_client(client)
    the_plan = effectiveness_plan(measures, options=options, keywords=keywords, on_undefined=on_undefined)
    pairwise = [s for s in the_plan.specs if _accepts_client(effectiveness_hook(s))]
    out = {}
    rest = [s.key for s in the_plan.specs if s not in pairwise]
    if rest:
        out.update(func(effectiveness, measures=rest, similarity=similarity, groups=groups, on_undefined=on_undefined,
                        options={key: the_plan.options[key] for key in rest}))
    for spec in pairwise:
        hook = effectiveness_hook(spec)
        data = {name: value for name, value in (("similarity", similarity), ("groups", groups),
                                                  ("on_undefined", on_undefined))
                if name in inspect.signature(hook).parameters}
        out[spec.key] = float(hook(effectiveness, client=client, **data, **the_plan.options[spec.key]))
    return {name: out[name] for name in the_plan.names}
