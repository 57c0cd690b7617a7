"""The common interface of every recommender, its input checks, and batched top-k.

Every model follows the same small, scikit-learn-like protocol:

* ``Model(**params, seed=2020)`` validates its hyperparameters at once;
* ``model.fit(train)`` learns from a user x item ``scipy.sparse`` matrix and returns ``self``;
* ``model.score(users)`` returns raw predicted scores ``(len(users), n_items)`` as float64,
  without any masking of seen items.

:func:`recommend` turns scores into top-k lists: it scores users in batches (so memory stays
bounded for big catalogues), masks each user's history with ``-inf`` and takes the top-k
through :func:`recfair.ranking.top_k_from_scores`, which owns the tie rule (stable sort,
ties to the lower item index).

All models treat the training matrix as **implicit feedback**: every stored non-zero entry
counts as one interaction, whatever its value (rating, play count, ...).
"""

from __future__ import annotations

import inspect
import numbers

import numpy as np
import scipy.sparse as sp
from tqdm.auto import tqdm

from .._validation import check_item_sets, check_positive_int
from ..ranking import mask_history, top_k_from_scores

__all__ = ["Recommender", "NotFittedError", "recommend", "iter_scored_batches"]

class NotFittedError(RuntimeError):
    """A model was asked for scores before :meth:`Recommender.fit` was called.

    Examples
    --------
    >>> from recfair.recommenders import Pop
    >>> try:
    ...     Pop().score([0])
    ... except NotFittedError as exc:
    ...     print(type(exc).__name__)
    NotFittedError
    """


class Recommender:
    """Base class of the recommenders: parameter handling, input checks, user validation.

    Subclasses implement ``_fit(X)`` (``X`` is the binarised float64 CSR training matrix)
    and ``_score(users)`` (``users`` is a validated int64 array), and declare every
    hyperparameter as a keyword argument of ``__init__`` stored under the same name.

    Attributes
    ----------
    n_users_, n_items_ : int
        Shape of the training matrix, set by :meth:`fit`.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> from recfair.recommenders import Pop
    >>> model = Pop().fit(train)
    >>> isinstance(model, Recommender), model.get_params()["seed"]
    (True, 2020)
    """

    n_users_: int | None = None
    n_items_: int | None = None

    #: Constructor parameters that never change what the model learns or predicts; they are
    #: left out of run-cache keys.
    non_result_params: frozenset = frozenset({"progress"})

    # ---- parameters ---------------------------------------------------------------------
    @classmethod
    def _param_names(cls) -> list[str]:
        sig = inspect.signature(cls.__init__)
        return [name for name, p in sig.parameters.items()
                if name != "self" and p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD)]

    def get_params(self) -> dict:
        """Hyperparameters as a ``{name: value}`` dict (constructor arguments, defaults included)."""
        return {name: getattr(self, name) for name in self._param_names()}

    def result_params(self) -> dict:
        """The hyperparameters that can change the output (e.g. not ``progress``), for cache keys."""
        return {k: v for k, v in self.get_params().items() if k not in self.non_result_params}

    def cache_extra(self) -> dict:
        """Extra run-cache-key material beyond the parameters (e.g. a backend library version)."""
        return {}

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
        return f"{type(self).__name__}({args})"

    # ---- the protocol -------------------------------------------------------------------
    def fit(self, train) -> "Recommender":
        """Learn from ``train``, a ``scipy.sparse`` user x item matrix ``(n_users, n_items)``.

        Every stored non-zero counts as one interaction (implicit feedback). Returns ``self``.
        """
        X = check_train(train)
        self.n_users_, self.n_items_ = X.shape
        self._fit(X)
        return self

    def score(self, users) -> np.ndarray:
        """Raw predicted scores ``(len(users), n_items)``, float64, no masking of seen items.

        Parameters
        ----------
        users : array-like of int
            Row indices of the training matrix, each in ``[0, n_users)``.
        """
        self._check_fitted()
        users = check_users(users, self.n_users_)
        out = np.asarray(self._score(users), dtype=np.float64)
        if out.shape != (users.size, self.n_items_):  # a guard on subclasses, not on callers
            raise RuntimeError(f"{type(self).__name__}._score returned shape {out.shape}, "
                               f"expected {(users.size, self.n_items_)}.")
        return out

    def _fit(self, X: sp.csr_matrix) -> None:  # pragma: no cover - abstract
        raise NotImplementedError

    def _score(self, users: np.ndarray) -> np.ndarray:  # pragma: no cover - abstract
        raise NotImplementedError

    def _check_fitted(self) -> None:
        if self.n_items_ is None:
            raise NotFittedError(f"{type(self).__name__} is not fitted yet: call fit(train) first.")


# ---- checks ------------------------------------------------------------------------------
def check_train(train) -> sp.csr_matrix:
    """Validate a training matrix and return it binarised as a float64 CSR matrix.

    Raises ``TypeError`` for anything but a 2-D ``scipy.sparse`` matrix/array and
    ``ValueError`` for an empty shape or NaN, infinite or negative values.
    """
    if not sp.issparse(train):
        raise TypeError(
            f"train must be a scipy.sparse matrix (n_users, n_items), e.g. a CSR matrix; "
            f"got {type(train).__name__}."
        )
    if train.ndim != 2:
        raise ValueError(f"train must be 2-D (n_users, n_items), got shape {train.shape}.")
    n_users, n_items = train.shape
    if n_users < 1 or n_items < 1:
        raise ValueError(f"train must have at least one user and one item, got shape {train.shape}.")
    X = sp.csr_matrix(train, dtype=np.float64, copy=True)
    X.sum_duplicates()
    if X.nnz and not np.all(np.isfinite(X.data)):
        raise ValueError("train contains NaN or infinite values.")
    if X.nnz and X.data.min() < 0:
        raise ValueError(f"train must be non-negative implicit feedback; found value {X.data.min()}.")
    X.eliminate_zeros()
    X.data[:] = 1.0
    X.sort_indices()
    return X


def check_users(users, n_users: int) -> np.ndarray:
    """Return ``users`` as a 1-D int64 array of row indices in ``[0, n_users)``."""
    arr = np.asarray(users)
    if arr.ndim == 0:
        arr = arr.reshape(1)
    if arr.ndim != 1:
        raise ValueError(f"users must be a 1-D sequence of user indices, got shape {arr.shape}.")
    if arr.size and not np.issubdtype(arr.dtype, np.integer):
        raise TypeError(f"users must hold integer indices, got dtype {arr.dtype}.")
    arr = arr.astype(np.int64, copy=False)
    if arr.size and (arr.min() < 0 or arr.max() >= n_users):
        raise ValueError(f"users holds indices outside [0, n_users={n_users}): "
                         f"min={int(arr.min())}, max={int(arr.max())}.")
    return arr


def check_model_seed(value, name: str = "seed"):
    """A model's seed as ``None`` or a non-negative int (what the run cache and ``implicit`` need).

    An int is used as is; a :class:`numpy.random.Generator` gives one int drawn from it (so a
    model seeded with a Generator is reproducible exactly when the Generator is); ``None``
    means a fresh draw on every fit, and such runs are never cached.

    >>> check_model_seed(7), check_model_seed(None)
    (7, None)
    >>> check_model_seed(np.random.default_rng(0)) == check_model_seed(np.random.default_rng(0))
    True
    """
    if value is None:
        return None
    if isinstance(value, np.random.Generator):
        return int(value.integers(0, 2**31 - 1))
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be a non-negative integer, a numpy.random.Generator or None, "
                        f"got {type(value).__name__} {value!r}.")
    if value < 0:
        raise ValueError(f"{name} must be >= 0, got {value}.")
    return int(value)


def check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}.")
    return bool(value)


# ---- batched scoring and top-k -----------------------------------------------------------
def iter_scored_batches(model: Recommender, users, history=None, *, batch_size: int = 1024,
                        dtype=np.float64, progress: bool = False, desc: str = "scoring"):
    """Yield ``(rows, scores)`` for consecutive batches of ``users``, history masked with ``-inf``.

    ``rows`` is the ``slice`` of ``users`` in the batch; ``scores`` is ``(len(batch), n_items)``
    in ``dtype``. Rounding to ``dtype`` happens *before* masking and before any top-k is
    taken, so a top-k derived from these arrays is exactly the stable sort of what is yielded.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> from recfair.recommenders import Pop
    >>> [(rows, s.shape) for rows, s in iter_scored_batches(Pop().fit(train), [0, 1, 2], batch_size=2)]
    [(slice(0, 2, None), (2, 4)), (slice(2, 3, None), (1, 4))]
    """
    model._check_fitted()
    users = check_users(users, model.n_users_)
    batch_size = check_positive_int(batch_size, "batch_size")
    dtype = np.dtype(dtype)
    if dtype not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"dtype must be float32 or float64, got {dtype}.")
    if history is not None:
        history = check_item_sets(history, n_users=users.size, n_items=model.n_items_, name="history")
    starts = range(0, users.size, batch_size)
    for start in tqdm(starts, desc=desc, unit="batch", disable=not progress, leave=False):
        rows = slice(start, min(start + batch_size, users.size))
        scores = model.score(users[rows]).astype(dtype, copy=False)
        if history is not None:
            # float32 -> float64 -> float32 is exact, and -inf survives the round trip
            scores = mask_history(scores, history[rows]).astype(dtype, copy=False)
        yield rows, scores


def recommend(model: Recommender, users, *, k: int, history=None, batch_size: int = 1024,
              dtype=np.float64, progress: bool = False) -> np.ndarray:
    """Top-``k`` items of each user, ``(len(users), k)`` int64, history excluded.

    Scores ``users`` in batches of ``batch_size``, sets each user's ``history`` items to
    ``-inf`` and selects the top ``k`` with :func:`recfair.ranking.top_k_from_scores` (stable
    descending sort: ties go to the lower item index).

    Parameters
    ----------
    model : Recommender
        A fitted model.
    users : array-like of int
        Users to recommend to (rows of the training matrix).
    k : int
        List length, ``1 <= k <= n_items``.
    history : scipy.sparse matrix or sequence of item lists, optional
        Items each user of ``users`` already has, aligned with ``users``
        (shape ``(len(users), n_items)``); they are never recommended.
    batch_size : int, default 1024
        Users scored at once; memory is about ``batch_size * n_items * 8`` bytes.
    dtype : {numpy.float64, numpy.float32}, default float64
        Precision the scores are rounded to before ranking (see :func:`iter_scored_batches`).
    progress : bool, default False
        Show a progress bar over batches.

    Raises
    ------
    ValueError
        If ``k`` is out of range, or some user has fewer than ``k`` items outside their history.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> from recfair.recommenders import Pop
    >>> recommend(Pop().fit(train), [0, 1], k=2, history=train[[0, 1]]).tolist()   # no history item again
    [[2, 3], [0, 3]]
    """
    model._check_fitted()
    k = check_positive_int(k, "k")
    if k > model.n_items_:
        raise ValueError(f"k={k} exceeds n_items={model.n_items_}.")
    users = check_users(users, model.n_users_)
    if history is not None:
        history = check_item_sets(history, n_users=users.size, n_items=model.n_items_, name="history")
        check_enough_candidates(history, k)
    out = np.empty((users.size, k), dtype=np.int64)
    for rows, scores in iter_scored_batches(model, users, history, batch_size=batch_size,
                                            dtype=dtype, progress=progress):
        out[rows] = top_k_from_scores(scores, k=k)
    return out


def check_enough_candidates(history: sp.csr_matrix, k: int) -> None:
    """Every user must keep at least ``k`` items once their history is excluded."""
    left = history.shape[1] - np.diff(history.indptr)
    short = np.flatnonzero(left < k)
    if short.size:
        u = int(short[0])
        raise ValueError(f"user at position {u} has only {int(left[u])} items outside their history, "
                         f"fewer than k={k} ({short.size} user(s) affected).")
