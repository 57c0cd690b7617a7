"""Non-factorisation recommenders: Pop, Random, ItemKNN, UserKNN and EASE, in numpy/scipy."""

from __future__ import annotations

import numpy as np
import scipy.linalg
import scipy.sparse as sp
from tqdm.auto import tqdm

from .._validation import check_positive_int
from ..ranking import top_k_from_scores
from .._validation import check_real
from ._base import Recommender, check_bool, check_model_seed

__all__ = ["Pop", "Random", "ItemKNN", "UserKNN", "EASE"]


class Pop(Recommender):
    """Most-popular baseline: every user gets the same scores, the training counts of items.

    The score of item ``i`` is the number of training users who interacted with ``i``. Ties
    between equally popular items go to the lower item index (the ranking contract of
    :mod:`recfair.ranking`), so the ranking is fully deterministic.

    Parameters
    ----------
    seed : int or None, default 2020
        Unused (Pop is deterministic); accepted for a uniform interface.
    progress : bool, default False
        Unused; accepted for a uniform interface.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> Pop().fit(train).score([0]).tolist()        # every user gets the training counts
    [[2.0, 2.0, 2.0, 1.0]]
    """

    non_result_params = Recommender.non_result_params | {"seed"}

    def __init__(self, *, seed=2020, progress=False):
        self.seed = check_model_seed(seed)
        self.progress = check_bool(progress, "progress")

    def _fit(self, X):
        self.item_counts_ = np.asarray(X.sum(axis=0), dtype=np.float64).ravel()

    def _score(self, users):
        return np.broadcast_to(self.item_counts_, (users.size, self.n_items_)).copy()


class Random(Recommender):
    """Uniformly random scores: a fairness-friendly but uninformed baseline.

    User ``u`` gets scores drawn from a generator seeded with ``(seed, u)``, so a
    user's scores depend only on the seed and on ``u``: they are reproducible and do not
    change with the batch size, the order of users or which other users are scored.

    Parameters
    ----------
    seed : int or None, default 2020
        Seed. ``None`` draws a fresh seed at :meth:`fit` (stored in ``seed_``).
    progress : bool, default False
        Unused; accepted for a uniform interface.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> a = Random(seed=7).fit(train).score([0, 1])
    >>> bool((a == Random(seed=7).fit(train).score([0, 1])).all())   # the same seed, the same scores
    True
    """

    def __init__(self, *, seed=2020, progress=False):
        self.seed = check_model_seed(seed)
        self.progress = check_bool(progress, "progress")

    def _fit(self, X):
        if self.seed is None:
            self.seed_ = int(np.random.SeedSequence().generate_state(1, np.uint32)[0])
        else:
            self.seed_ = self.seed

    def _score(self, users):
        out = np.empty((users.size, self.n_items_), dtype=np.float64)
        for row, u in enumerate(users):
            out[row] = np.random.default_rng([self.seed_, int(u)]).random(self.n_items_)
        return out


class ItemKNN(Recommender):
    """Item-based top-N recommendation with cosine similarity (Deshpande & Karypis, 2004).

    With the binarised training matrix ``X`` (users x items), the similarity of items ``i``
    and ``j`` is the shrunk cosine

    .. math:: s_{ij} = \\frac{x_i^\\top x_j}{\\lVert x_i\\rVert\\,\\lVert x_j\\rVert + \\text{shrink}},
              \\qquad s_{ii} = 0,

    where ``x_i`` is column ``i`` of ``X``. Each item keeps only its ``k_neighbours`` most
    similar items (ties to the lower item index), giving a sparse matrix ``W`` with
    ``W[i, j] = s_ij`` if ``j`` is among the neighbours of ``i``. A user's score for ``j``
    sums the similarities from the items they interacted with: ``score(u) = X[u] @ W``.

    The similarity is computed for blocks of ``block_size`` items at a time (a sparse product,
    then a dense ``block_size x n_items`` block), so memory stays bounded for big catalogues.

    Parameters
    ----------
    k_neighbours : int, default 100
        Neighbourhood size: similar items kept per item.
    shrink : float, default 10
        Added to the denominator of the cosine; damps similarities backed by few users.
    block_size : int or None, default None
        Items whose similarities are computed at once; ``None`` picks blocks of about 4M
        entries (32 MB). A memory/speed trade-off only: results do not depend on it.
    seed : int or None, default 2020
        Unused (ItemKNN is deterministic); accepted for a uniform interface.
    progress : bool, default False
        Show a progress bar over item blocks.

    References
    ----------
    M. Deshpande and G. Karypis. Item-based top-N recommendation algorithms. ACM TOIS 22(1),
    2004.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> ItemKNN(k_neighbours=2).fit(train).score([0]).shape
    (1, 4)
    """

    non_result_params = Recommender.non_result_params | {"block_size", "seed"}

    def __init__(self, *, k_neighbours=100, shrink=10.0, block_size=None, seed=2020, progress=False):
        self.k_neighbours = check_positive_int(k_neighbours, "k_neighbours")
        self.shrink = check_real(shrink, "shrink", low=0.0)
        self.block_size = None if block_size is None else check_positive_int(block_size, "block_size")
        self.seed = check_model_seed(seed)
        self.progress = check_bool(progress, "progress")

    def _fit(self, X):
        self.train_ = X  # scores are built from each user's training items
        n = X.shape[1]
        norms = np.sqrt(np.asarray(X.sum(axis=0)).ravel())  # X is binary: |x_i|^2 = degree
        item_user = X.T.tocsr()
        step = self.block_size or max(1, _BLOCK_ENTRIES // n)
        blocks = []
        starts = range(0, n, step)
        for start in tqdm(starts, desc="ItemKNN similarity", unit="block", disable=not self.progress, leave=False):
            blocks.append(self._similarity_block(item_user[start:start + step], X, norms, start))
        self.similarity_ = sp.vstack(blocks, format="csr")

    def _similarity_block(self, rows, X, norms, offset):
        """Pruned similarity rows ``offset .. offset + rows.shape[0]`` as CSR."""
        b, n = rows.shape[0], X.shape[1]
        sim = (rows @ X).toarray()  # co-occurrence counts x_i . x_j of the block's items
        sim /= norms[offset:offset + b, None] * norms[None, :] + self.shrink
        sim[np.arange(b), offset + np.arange(b)] = 0.0
        # the ranking contract's top-k: largest similarities, ties to the lower item index
        k = min(self.k_neighbours, n)
        cols = top_k_from_scores(sim, k=k)
        vals = np.take_along_axis(sim, cols, axis=1)
        r = np.repeat(np.arange(b), k)
        keep = vals.ravel() > 0  # pairs with no common user are not neighbours
        return sp.csr_matrix((vals.ravel()[keep], (r[keep], cols.ravel()[keep])), shape=(b, n))

    def _score(self, users):
        return (self.train_[users] @ self.similarity_).toarray()


#: Similarity entries computed at once by ItemKNN when ``block_size`` is None (32 MB of float64).
_BLOCK_ENTRIES = 1 << 22


class UserKNN(Recommender):
    """User-based neighbourhood recommendation with cosine similarity (Resnick et al., 1994): Paper 5's U-KNN.

    With the binarised training matrix ``X`` (users x items), the similarity of users ``u`` and
    ``v`` is the (optionally shrunk) cosine of their rows,

    .. math:: s_{uv} = \\frac{x_u^\\top x_v}{\\lVert x_u\\rVert\\,\\lVert x_v\\rVert + \\text{shrink}},
              \\qquad s_{uu} = 0 .

    Each scored user keeps only their ``k_neighbours`` most similar other users (ties to the
    lower user index; users with no common item are never neighbours), and an item's score is
    the summed similarity of the neighbours who interacted with it:
    ``score(u) = sum_{v in N(u)} s_uv x_v``. The user itself is excluded, so its own history
    does not score its items (history is masked by :func:`~recfair.recommenders.recommend`
    anyway).

    Users are scored in blocks of ``block_size`` (a sparse product ``X_b X^T``, then a dense
    ``block_size x n_users`` block), so memory stays bounded for many users.

    Parameters
    ----------
    k_neighbours : int, default 100
        Neighbourhood size: similar users kept per scored user.
    shrink : float, default 0
        Added to the denominator of the cosine (0 = the plain cosine the paper names).
    block_size : int or None, default None
        Users scored at once; ``None`` picks blocks of about 4M similarity entries (32 MB).
        Memory/speed only: results do not depend on it.
    seed : int or None, default 2020
        Unused (UserKNN is deterministic); accepted for a uniform interface.
    progress : bool, default False
        Unused; accepted for a uniform interface.

    References
    ----------
    P. Resnick, N. Iacovou, M. Suchak, P. Bergstrom and J. Riedl. GroupLens: an open
    architecture for collaborative filtering of netnews. CSCW 1994.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [1, 1, 1, 0], [0, 0, 1, 1]])
    >>> UserKNN(k_neighbours=1).fit(train).score([0]).round(3).tolist()   # user 1 is user 0's neighbour
    [[0.816, 0.816, 0.816, 0.0]]
    """

    non_result_params = Recommender.non_result_params | {"block_size", "seed"}

    def __init__(self, *, k_neighbours=100, shrink=0.0, block_size=None, seed=2020, progress=False):
        self.k_neighbours = check_positive_int(k_neighbours, "k_neighbours")
        self.shrink = check_real(shrink, "shrink", low=0.0)
        self.block_size = None if block_size is None else check_positive_int(block_size, "block_size")
        self.seed = check_model_seed(seed)
        self.progress = check_bool(progress, "progress")

    def _fit(self, X):
        self.train_ = X
        self.train_t_ = X.T.tocsr()
        self.norms_ = np.sqrt(np.asarray(X.sum(axis=1)).ravel())  # X is binary: |x_u|^2 = history size

    def _score(self, users):
        m = self.n_users_
        step = self.block_size or max(1, _BLOCK_ENTRIES // max(m, 1))
        out = np.empty((users.size, self.n_items_))
        k = min(self.k_neighbours, m)
        for start in range(0, users.size, step):
            block = users[start:start + step]
            b = block.size
            sim = (self.train_[block] @ self.train_t_).toarray()     # common items with every user
            den = self.norms_[block, None] * self.norms_[None, :] + self.shrink
            np.divide(sim, den, out=sim, where=den > 0)
            sim[np.arange(b), block] = 0.0
            cols = top_k_from_scores(sim, k=k)
            vals = np.take_along_axis(sim, cols, axis=1)
            keep = vals.ravel() > 0
            rows = np.repeat(np.arange(b), k)
            neighbours = sp.csr_matrix((vals.ravel()[keep], (rows[keep], cols.ravel()[keep])), shape=(b, m))
            out[start:start + b] = (neighbours @ self.train_).toarray()
        return out


class EASE(Recommender):
    """Embarrassingly Shallow Autoencoder (Steck, 2019): a closed-form item-item model.

    With the binarised training matrix ``X`` and ``G = X^T X + reg * I``, let ``P = G^{-1}``.
    The item-item weights are

    .. math:: B_{ij} = -\\frac{P_{ij}}{P_{jj}} \\ (i \\ne j), \\qquad B_{jj} = 0,

    the least-squares solution of ``X ~ X B`` with an L2 penalty ``reg`` and a zero diagonal.
    Scores are ``X[u] @ B``.

    Memory: ``B`` is dense ``n_items x n_items`` float64 and is computed in place of the
    Gram matrix, so fitting needs about ``8 * n_items**2`` bytes plus LAPACK workspace
    (23 MB for ML-100K's 1,682 items, 64 MB for 2,823 items, 3.2 GB for 20,000 items). Beyond
    roughly 20k items a dense inverse is impractical.

    Parameters
    ----------
    reg : float, default 500
        L2 regularisation ``lambda``; must be > 0 (it also makes ``G`` invertible).
    seed : int or None, default 2020
        Unused (EASE is deterministic); accepted for a uniform interface.
    progress : bool, default False
        Unused (the fit is one matrix inverse); accepted for a uniform interface.

    References
    ----------
    H. Steck. Embarrassingly shallow autoencoders for sparse data. The Web Conference
    (WWW), 2019.

    Examples
    --------
    >>> import scipy.sparse as sp
    >>> train = sp.csr_matrix([[1, 1, 0, 0], [0, 1, 1, 0], [1, 0, 1, 1]])
    >>> EASE(reg=1.0).fit(train).score([0]).shape
    (1, 4)
    """

    non_result_params = Recommender.non_result_params | {"seed"}

    def __init__(self, *, reg=500.0, seed=2020, progress=False):
        self.reg = check_real(reg, "reg", low=0.0, strict=True)
        self.seed = check_model_seed(seed)
        self.progress = check_bool(progress, "progress")

    def _fit(self, X):
        self.train_ = X
        gram = (X.T @ X).toarray()
        gram[np.diag_indices_from(gram)] += self.reg
        weights = scipy.linalg.inv(gram, overwrite_a=True, check_finite=False)
        weights /= -np.diag(weights).copy()[None, :]
        weights[np.diag_indices_from(weights)] = 0.0
        self.weights_ = weights

    def _score(self, users):
        return np.asarray(self.train_[users] @ self.weights_)
