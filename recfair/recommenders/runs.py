"""Producing recommendation runs on a dataset split, with an on-disk cache.

:func:`produce_run` fits a registered model on a split, ranks every catalogue item for each
test user (history = train + validation items excluded) and returns a :class:`RecRun`. Runs
are cached so that the book and the studies reuse them instead of refitting.

Cache layout
------------
Each run is two files in the cache directory (default ``$RECFAIR_CACHE/runs`` if the
environment variable is set, else ``~/.cache/recfair/runs``):

* ``run-<model>-<split>-k<k>-<key>.npz`` -- compressed arrays: ``users``, ``top_k`` and,
  if stored, ``scores``;
* the same name with ``.json`` -- metadata: the full key, the model and its parameters,
  the split's name and shape, timings, library versions and the SHA-256 of the ``.npz``.

The key is a SHA-256 over the model name, its parameters (defaults included, sorted),
``k``, the matrix the model was fitted on, :data:`CACHE_VERSION`, the ``implicit`` version
for BPR/ALS, and a fingerprint of the split's train, validation and test matrices and test
users. Both files are written to a temporary name and renamed into place, the ``.json``
last, so a reader never sees a half-written run. A cached run whose ``.json`` does not
parse, whose key differs, whose ``.npz`` does not match the recorded checksum or has the
wrong shapes is reported with a :class:`RunCacheWarning` and recomputed, never used.

Score precision
---------------
Scores are rounded to float32 *before* the top-k is taken and the very same float32 array
is stored, so ``top_k`` is exactly the stable descending sort of the stored scores (as
:class:`recfair.run.Run` re-checks) whether or not scores are stored.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import scipy
import scipy.sparse as sp

from .._validation import check_item_sets, check_positive_int
from ..ranking import top_k_from_scores
from ..run import Run
from ._base import check_bool, check_enough_candidates, iter_scored_batches
from .registry import canonical_name, make_model

__all__ = ["RecRun", "produce_run", "produce_runs", "clear_cache", "default_cache_dir",
           "run_cache_key", "split_fingerprint", "RunCacheWarning", "CACHE_VERSION"]

#: Bump when the way runs are produced changes, to invalidate every cached run.
CACHE_VERSION = 1

#: Matrices a model can be fitted on.
FIT_ON = ("train", "train+valid")

#: Precision of produced scores (see the module docstring).
SCORE_DTYPE = np.float32

_PREFIX = "run-"


class RunCacheWarning(UserWarning):
    """A cached run was unreadable or inconsistent and is being recomputed.

    Examples
    --------
    >>> issubclass(RunCacheWarning, UserWarning)
    True
    """


@dataclass(repr=False, eq=False)
class RecRun:
    """A recommender's top-k lists (and optionally full scores) for a split's test users.

    Attributes
    ----------
    model : str
        Registry name of the model (``"bpr"``, ...).
    params : dict
        Its hyperparameters, defaults included; settings that cannot change the output
        (``progress``, ``seed`` of deterministic models, ...) are left out.
    users : numpy.ndarray of int64, shape (m,)
        The split's test users; row ``r`` of every array below is user ``users[r]``.
    top_k : numpy.ndarray of int64, shape (m, k)
        Recommended items in rank order; never a history item.
    scores : numpy.ndarray of float32, shape (m, n_items), or None
        The scores the lists were cut from, history items at ``-inf``.
    relevant : scipy.sparse.csr_matrix of bool, shape (m, n_items)
        Test items of each user.
    history : scipy.sparse.csr_matrix of bool, shape (m, n_items)
        Train + validation items of each user (excluded from the ranking).
    n_items : int
        Catalogue size.
    split_name : str
        Name of the split the run was produced on.
    info : dict
        Provenance: cache ``key``, ``from_cache``, ``fit_seconds``, ``score_seconds``, ``fit_on``.

    Examples
    --------
    >>> import pandas as pd
    >>> from recfair.datasets import Interactions, split_global
    >>> frame = pd.DataFrame({"user_id": [u for u in range(6) for _ in range(5)], "item_id": list(range(30))})
    >>> split = split_global(Interactions(frame), order="random", seed=0)
    >>> run = produce_run("pop", split, k=2, use_cache=False)
    >>> isinstance(run, RecRun), run.top_k.shape[1]
    (True, 2)
    """

    model: str
    params: dict
    users: np.ndarray
    top_k: np.ndarray
    scores: np.ndarray | None
    relevant: sp.csr_matrix
    history: sp.csr_matrix
    n_items: int
    split_name: str = ""
    info: dict = field(default_factory=dict)

    @property
    def k(self) -> int:
        """List length."""
        return int(self.top_k.shape[1])

    @property
    def n_users(self) -> int:
        """Number of users in the run (test users of the split)."""
        return int(self.top_k.shape[0])

    def to_run(self) -> Run:
        """The validated :class:`recfair.run.Run` (with ``scores`` when they were stored)."""
        return Run(self.top_k, self.n_items, relevant=self.relevant, scores=self.scores,
                   history=self.history)

    def __repr__(self) -> str:
        cached = self.info.get("from_cache")
        return (f"RecRun(model={self.model!r}, split={self.split_name!r}, n_users={self.n_users}, "
                f"n_items={self.n_items}, k={self.k}, scores={'yes' if self.scores is not None else 'no'}, "
                f"from_cache={cached})")


# ---- keys -------------------------------------------------------------------------------
def default_cache_dir() -> Path:
    """``$RECFAIR_CACHE/runs`` if ``RECFAIR_CACHE`` is set, else ``~/.cache/recfair/runs``.

    Examples
    --------
    >>> default_cache_dir().name
    'runs'
    """
    root = os.environ.get("RECFAIR_CACHE")
    base = Path(root).expanduser() if root else Path.home() / ".cache" / "recfair"
    return base / "runs"


def split_fingerprint(split) -> str:
    """SHA-256 of a split's train, validation and test matrices and its test users.

    Matrices are canonicalised (CSR, duplicates summed, indices sorted, int64/float64), so
    the fingerprint depends on the data only, not on how it is stored.

    Examples
    --------
    >>> import pandas as pd
    >>> from recfair.datasets import Interactions, split_global
    >>> frame = pd.DataFrame({"user_id": [u for u in range(6) for _ in range(5)], "item_id": list(range(30))})
    >>> split = split_global(Interactions(frame), order="random", seed=0)
    >>> split_fingerprint(split) == split_fingerprint(split_global(Interactions(frame), order="random", seed=0))
    True
    """
    h = hashlib.sha256()
    for part in ("train", "valid", "test"):
        mat = sp.csr_matrix(split.matrix(part), copy=True)
        mat.sum_duplicates()
        mat.sort_indices()
        h.update(f"{part}:{mat.shape[0]}x{mat.shape[1]};".encode())
        for arr, dtype in ((mat.indptr, np.int64), (mat.indices, np.int64), (mat.data, np.float64)):
            h.update(np.ascontiguousarray(arr, dtype=dtype).tobytes())
    h.update(b"test_users;")
    h.update(np.ascontiguousarray(split.test_users, dtype=np.int64).tobytes())
    return h.hexdigest()


def run_cache_key(model_name: str, params: dict, k: int, fingerprint: str, *, fit_on: str = "train",
                  extra: dict | None = None) -> str:
    """The SHA-256 cache key of a run (see the module docstring for what goes in).

    Examples
    --------
    >>> key = run_cache_key("pop", {}, 10, "0" * 64)
    >>> len(key), key == run_cache_key("pop", {}, 10, "0" * 64)
    (64, True)
    """
    material = {
        "cache_version": CACHE_VERSION,
        "model": model_name,
        "params": {name: params[name] for name in sorted(params)},
        "k": int(k),
        "fit_on": fit_on,
        "split": fingerprint,
        "extra": extra or {},
    }
    return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def _stem(model_name: str, split_name: str, k: int, key: str) -> str:
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", split_name or "split").strip("_")[:40] or "split"
    return f"{_PREFIX}{model_name}-{safe}-k{k}-{key[:24]}"


# ---- production -------------------------------------------------------------------------
def produce_run(model_name: str, split, *, k: int = 10, params: dict | None = None, cache_dir=None,
                store_scores: bool = True, progress: bool = False, fit_on: str = "train",
                use_cache: bool = True, batch_size: int = 1024) -> RecRun:
    """Fit model ``model_name`` on ``split`` and rank items for its test users, with caching.

    Parameters
    ----------
    model_name : str
        A registered model (:func:`recfair.recommenders.available_models`), case-insensitive.
    split : Split
        A dataset split: ``name``, ``n_users``, ``n_items``, ``matrix(part)``, ``test_users``,
        ``relevant(users)`` and ``history(users)`` (see :mod:`recfair.datasets`).
    k : int, default 10
        List length.
    params : dict, optional
        Hyperparameters overriding the model's defaults.
    cache_dir : str or Path, optional
        Cache directory; default :func:`default_cache_dir`.
    store_scores : bool, default True
        Keep the full float32 score matrix (history at ``-inf``) in the run and the cache;
        needed by measures that read the full ranking. A cached run without scores is
        recomputed when scores are asked for.
    progress : bool, default False
        Progress bars for training and scoring.
    fit_on : {"train", "train+valid"}, default "train"
        Matrix the model learns from. Either way, train and validation items are excluded
        from the rankings.
    use_cache : bool, default True
        Read and write the cache; ``False`` always recomputes and writes nothing. Runs of a
        stochastic model with ``seed=None`` are never cached. BPR with
        ``num_threads > 1`` is not reproducible; its cached run is one realisation.
    batch_size : int, default 1024
        Users scored at once (bounds memory for large catalogues; does not change results).

    Returns
    -------
    RecRun

    Examples
    --------
    >>> import pandas as pd
    >>> from recfair.datasets import Interactions, split_global
    >>> frame = pd.DataFrame({"user_id": [u for u in range(6) for _ in range(5)], "item_id": list(range(30))})
    >>> split = split_global(Interactions(frame), order="random", seed=0)
    >>> run = produce_run("pop", split, k=3, use_cache=False)
    >>> run.top_k.shape == (len(run.users), 3)
    True
    """
    name = canonical_name(model_name)
    k = check_positive_int(k, "k")
    store_scores = check_bool(store_scores, "store_scores")
    progress = check_bool(progress, "progress")
    use_cache = check_bool(use_cache, "use_cache")
    if fit_on not in FIT_ON:
        raise ValueError(f"fit_on must be one of {FIT_ON}, got {fit_on!r}.")
    if params is not None and not isinstance(params, dict):
        raise TypeError(f"params must be a dict or None, got {type(params).__name__}.")
    model = make_model(name, **{**(params or {}), "progress": progress})

    n_users, n_items = _split_shape(split)
    if k > n_items:
        raise ValueError(f"k={k} exceeds n_items={n_items}.")
    users = _test_users(split, n_users)
    relevant = check_item_sets(split.relevant(users), n_users=users.size, n_items=n_items, name="relevant")
    history = check_item_sets(split.history(users), n_users=users.size, n_items=n_items, name="history")
    check_enough_candidates(history, k)

    result_params = model.result_params()
    key = run_cache_key(name, result_params, k, split_fingerprint(split), fit_on=fit_on,
                        extra=model.cache_extra())
    split_name = str(getattr(split, "name", ""))
    base = dict(model=name, params=result_params, users=users, relevant=relevant, history=history,
                n_items=n_items, split_name=split_name)

    directory = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    stem = _stem(name, split_name, k, key)
    if result_params.get("seed", 0) is None:
        use_cache = False  # unseeded: every call is meant to be a fresh draw, so never reuse one
    if use_cache:
        hit = _load(directory, stem, key, users, k, n_items, need_scores=store_scores)
        if hit is not None:
            top_k, scores, meta = hit
            info = {"key": key, "from_cache": True, "fit_on": fit_on,
                    "fit_seconds": meta.get("fit_seconds"), "score_seconds": meta.get("score_seconds"),
                    "path": str(directory / f"{stem}.npz")}
            return RecRun(top_k=top_k, scores=scores if store_scores else None, info=info, **base)

    train = split.matrix(fit_on)
    if train.shape != (n_users, n_items):
        raise ValueError(f"split.matrix({fit_on!r}) has shape {train.shape}; expected ({n_users}, {n_items}).")
    start = time.perf_counter()
    model.fit(train)
    fit_seconds = time.perf_counter() - start

    start = time.perf_counter()
    top_k = np.empty((users.size, k), dtype=np.int64)
    scores = np.empty((users.size, n_items), dtype=SCORE_DTYPE) if store_scores else None
    batches = iter_scored_batches(model, users, history, batch_size=batch_size, dtype=SCORE_DTYPE,
                                  progress=progress, desc=f"{name} scoring")
    for rows, batch in batches:
        top_k[rows] = top_k_from_scores(batch, k=k)
        if scores is not None:
            scores[rows] = batch
    score_seconds = time.perf_counter() - start

    info = {"key": key, "from_cache": False, "fit_on": fit_on, "fit_seconds": fit_seconds,
            "score_seconds": score_seconds}
    if use_cache:
        meta = {
            "key": key, "cache_version": CACHE_VERSION, "model": name, "params": result_params,
            "k": k, "fit_on": fit_on, "split": split_name, "n_users": n_users, "n_items": n_items,
            "n_test_users": int(users.size), "has_scores": store_scores,
            "fit_seconds": fit_seconds, "score_seconds": score_seconds,
            "created": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "versions": _versions(model),
        }
        try:
            info["path"] = str(_save(directory, stem, meta, users, top_k, scores))
        except OSError as exc:  # a read-only or full disk must not lose the computed run
            warnings.warn(f"could not write the run cache in {directory} ({exc}); the run is "
                          f"returned but not cached.", RunCacheWarning, stacklevel=2)
    return RecRun(top_k=top_k, scores=scores, info=info, **base)


def produce_runs(model_names, split, **kwargs) -> dict[str, RecRun]:
    """:func:`produce_run` for several models: ``{name: RecRun}`` in the given order.

    ``kwargs`` are passed to every call, except ``params``, which may map model names to
    their parameter dicts (``params={"ease": {"reg": 250}}``).

    Examples
    --------
    >>> import pandas as pd
    >>> from recfair.datasets import Interactions, split_global
    >>> frame = pd.DataFrame({"user_id": [u for u in range(6) for _ in range(5)], "item_id": list(range(30))})
    >>> split = split_global(Interactions(frame), order="random", seed=0)
    >>> list(produce_runs(["pop", "random"], split, k=2, use_cache=False))
    ['pop', 'random']
    """
    per_model = kwargs.pop("params", None) or {}
    if not isinstance(per_model, dict):
        raise TypeError(f"params must map model names to dicts, got {type(per_model).__name__}.")
    per_model = {canonical_name(n): p for n, p in per_model.items()}
    return {name: produce_run(name, split, params=per_model.get(canonical_name(name)), **kwargs)
            for name in model_names}


def clear_cache(*, cache_dir=None) -> int:
    """Delete every cached run (and leftover temporary file) in ``cache_dir``; return how many files.

    Only files this module writes (``run-*.npz``, ``run-*.json`` and their temporaries) are
    removed; anything else in the directory is left alone.

    Examples
    --------
    >>> import tempfile
    >>> clear_cache(cache_dir=tempfile.mkdtemp())           # an empty cache folder: nothing to delete
    0
    """
    directory = Path(cache_dir).expanduser() if cache_dir is not None else default_cache_dir()
    if not directory.is_dir():
        return 0
    removed = 0
    for path in directory.iterdir():
        is_run = path.name.startswith(_PREFIX) and path.suffix in (".npz", ".json")
        is_tmp = path.name.startswith(f".{_PREFIX}") and path.name.endswith(".tmp")
        if path.is_file() and (is_run or is_tmp):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


# ---- helpers ----------------------------------------------------------------------------
def _split_shape(split) -> tuple[int, int]:
    for attr in ("n_users", "n_items", "matrix", "test_users", "relevant", "history"):
        if not hasattr(split, attr):
            raise TypeError(f"split must provide {attr!r} (a recfair.datasets Split); "
                            f"got {type(split).__name__} without it.")
    return (check_positive_int(int(split.n_users), "split.n_users"),
            check_positive_int(int(split.n_items), "split.n_items"))


def _test_users(split, n_users: int) -> np.ndarray:
    users = np.asarray(split.test_users)
    if users.ndim != 1 or (users.size and not np.issubdtype(users.dtype, np.integer)):
        raise ValueError(f"split.test_users must be a 1-D integer array, got {users.dtype} {users.shape}.")
    users = users.astype(np.int64)
    if users.size == 0:
        raise ValueError("split has no test users.")
    if users.min() < 0 or users.max() >= n_users:
        raise ValueError(f"split.test_users outside [0, n_users={n_users}).")
    return users


def _versions(model) -> dict:
    out = {"numpy": np.__version__, "scipy": scipy.__version__}
    out.update(model.cache_extra())
    return out


def _atomic_write(path: Path, payload: bytes) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _save(directory: Path, stem: str, meta: dict, users, top_k, scores) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    arrays = {"users": users, "top_k": top_k}
    if scores is not None:
        arrays["scores"] = scores
    buf = io.BytesIO()
    np.savez_compressed(buf, **arrays)
    payload = buf.getvalue()
    meta = {**meta, "npz_sha256": hashlib.sha256(payload).hexdigest()}
    npz_path = directory / f"{stem}.npz"
    _atomic_write(npz_path, payload)
    # the sidecar goes last: a run counts as cached only once its checksum is on disk
    _atomic_write(directory / f"{stem}.json", json.dumps(meta, indent=1, sort_keys=True).encode())
    return npz_path


def _load(directory: Path, stem: str, key: str, users, k: int, n_items: int, *, need_scores: bool):
    """``(top_k, scores, meta)`` of a valid cached run, or ``None`` (missing, incomplete or corrupt)."""
    json_path, npz_path = directory / f"{stem}.json", directory / f"{stem}.npz"
    if not json_path.is_file():
        return None
    try:
        meta = json.loads(json_path.read_text())
        if not isinstance(meta, dict) or meta.get("key") != key:
            raise ValueError("metadata does not match the run's key")
        if need_scores and not meta.get("has_scores"):
            return None  # a valid run, but without the scores asked for: recompute
        payload = npz_path.read_bytes()
        if hashlib.sha256(payload).hexdigest() != meta.get("npz_sha256"):
            raise ValueError("the .npz does not match its recorded checksum")
        with np.load(io.BytesIO(payload), allow_pickle=False) as data:
            top_k = data["top_k"]
            if not np.array_equal(data["users"], users):
                raise ValueError("cached users differ from the split's test users")
            if top_k.shape != (users.size, k) or not np.issubdtype(top_k.dtype, np.integer):
                raise ValueError(f"cached top_k has shape {top_k.shape}, dtype {top_k.dtype}")
            scores = None
            if need_scores:
                scores = data["scores"]
                if scores.shape != (users.size, n_items) or scores.dtype != SCORE_DTYPE:
                    raise ValueError(f"cached scores have shape {scores.shape}, dtype {scores.dtype}")
    except Exception as exc:  # any failure to read means: do not trust, recompute
        warnings.warn(f"ignoring corrupt cached run {npz_path.name} ({type(exc).__name__}: {exc}); "
                      f"recomputing.", RunCacheWarning, stacklevel=3)
        return None
    return top_k.astype(np.int64, copy=False), scores, meta
