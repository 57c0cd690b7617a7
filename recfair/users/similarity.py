r"""Pairwise user similarity from the users' history (train items), block by block.

Paper 5 (thesis Ch. 6) weighs each pair of users by how similar their past interactions are.
With :math:`H_u` the set of items in user :math:`u`'s history (the run's ``history``: the
binarised train interactions),

.. math::

    \mathrm{sim}_{Jacc}(u, u') = \frac{|H_u \cap H_{u'}|}{|H_u \cup H_{u'}|}, \qquad
    \mathrm{sim}_{cos}(u, u') = \frac{|H_u \cap H_{u'}|}{\sqrt{|H_u|\,|H_{u'}|}} .

A user with an empty history has similarity 0 with everyone (0/0 is read as 0). PUF then
min-max scales the similarities over the distinct pairs :math:`u \ne u'` of the users given
(:func:`minmax_offdiag`), as the paper does "to avoid extremely small values"; UF uses the raw
values.

At ML-20M scale there are :math:`m(m-1)/2 \approx 4 \times 10^9` pairs, so no function that
scores a run ever holds the :math:`m \times m` matrix: :class:`UserSimilarity` yields it in row
blocks of at most ``block_size`` rows (a sparse product :math:`X_b X^\top` of the binary
history matrix), and the measures accumulate what they need block by block. The dense
functions (:func:`jaccard`, :func:`cosine`, :func:`sim_js`) are for small ``m``: toy examples,
tests, the synthetic studies.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp

from .._validation import check_item_sets, check_similarity

__all__ = ["KINDS", "UserSimilarity", "jaccard", "cosine", "sim_js", "minmax_offdiag", "check_similarity",
           "user_similarity", "genre_distributions", "block_range",
           "upper_block_range"]

#: The similarity functions computed from history.
KINDS = ("jaccard", "cosine")

#: Entries of the similarity matrix computed at once (one row block): 4M, 32 MB of float64.
BLOCK_ENTRIES = 1 << 22
#: The most co-consumed items whose part of X X^T is a dense (BLAS) product (catalogues of > 512 items).
DENSE_ITEMS = 128


def upper_block_range(blocks) -> tuple[float, float]:
    """Smallest and largest value over :meth:`UserSimilarity.upper_blocks` (the pairs u < u' only).

    Parameters
    ----------
    blocks : iterable of (int, numpy.ndarray)
        ``(start, block)`` pairs of :meth:`UserSimilarity.upper_blocks`.

    Returns
    -------
    tuple of float
        ``(smallest, largest)``.

    Examples
    --------
    >>> upper_block_range([(0, np.array([[0.0, 0.3, 0.5], [0.0, 0.0, 0.2]])), (2, np.array([[0.0]]))])
    (0.2, 0.5)
    """
    lo, hi = np.inf, -np.inf
    for _, block in blocks:
        b = block.shape[0]
        below = np.tril_indices(b)
        block[:, :b][below] = np.inf
        lo = min(lo, float(block.min()))
        block[:, :b][below] = -np.inf
        hi = max(hi, float(block.max()))
        block[:, :b][below] = 0.0
    return lo, hi


def block_range(blocks) -> tuple[float, float]:
    """Smallest and largest off-diagonal value over ``(start, block)`` blocks whose diagonal entries are 0.

    Parameters
    ----------
    blocks : iterable of (int, numpy.ndarray)
        ``(start, block)`` pairs; a block's diagonal entries are 0.

    Returns
    -------
    tuple of float
        ``(smallest, largest)``.

    Examples
    --------
    >>> block_range([(0, np.array([[0.0, 0.3, 0.5], [0.3, 0.0, 0.2]])), (2, np.array([[0.5, 0.2, 0.0]]))])
    (0.2, 0.5)
    """
    lo, hi = np.inf, -np.inf
    for start, block in blocks:
        rows = np.arange(block.shape[0])
        diag = block[rows, start + rows].copy()
        block[rows, start + rows] = np.inf
        lo = min(lo, float(block.min()))
        block[rows, start + rows] = -np.inf
        hi = max(hi, float(block.max()))
        block[rows, start + rows] = diag
    return lo, hi


def _history_matrix(history, n_users=None, n_items=None) -> sp.csr_matrix:
    if sp.issparse(history):
        mat = sp.csr_matrix(history)
        if n_users is not None and mat.shape[0] != n_users:
            raise ValueError(f"history has {mat.shape[0]} rows but there are {n_users} users.")
        mat = mat.copy()
        mat.eliminate_zeros()
        mat.data = np.ones(mat.nnz, dtype=np.float32)
        return mat
    if n_users is None:
        n_users = len(history)
    if n_items is None:
        sizes = [int(np.max(h)) + 1 for h in history if len(h)]
        n_items = max(sizes) if sizes else 1
    return check_item_sets(history, n_users=n_users, n_items=n_items, name="history").astype(np.float32)


class UserSimilarity:
    """The pairwise similarity of ``m`` users, delivered in row blocks (never the whole matrix).

    Build it with :meth:`from_history` (Jaccard or cosine of the users' history, computed
    block by block) or :meth:`from_matrix` (a precomputed dense or sparse users x users matrix
    in [0, 1], validated). :meth:`pairs` yields, block by block, the *ordered* off-diagonal
    pairs ``(rows, cols, values)`` whose similarity is not 0; every other pair has similarity 0.

    Parameters
    ----------
    n_users : int
    kind : str
        ``"jaccard"``, ``"cosine"`` or ``"matrix"``.

    Examples
    --------
    >>> s = UserSimilarity.from_history([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], similarity="jaccard")
    >>> s.dense().round(2).tolist()[0]
    [1.0, 0.5, 0.2, 0.0]
    """

    def __init__(self, n_users: int, kind: str, *, history=None, matrix=None):
        self.n_users = int(n_users)
        self.kind = kind
        self._history = history
        self._matrix = matrix

    @classmethod
    def from_history(cls, history, *, similarity: str = "jaccard", n_items: int | None = None) -> "UserSimilarity":
        """Similarity ``similarity`` (``"jaccard"`` or ``"cosine"``) of the users' history (lists or sparse 0/1)."""
        if similarity not in KINDS:
            raise ValueError(f"similarity must be one of {KINDS} or a users x users matrix; got {similarity!r}.")
        kind = similarity
        mat = _history_matrix(history, n_items=n_items)
        return cls(mat.shape[0], kind, history=mat)

    @classmethod
    def from_matrix(cls, similarity, *, n_users: int | None = None) -> "UserSimilarity":
        """Wrap a precomputed users x users similarity (validated: square, symmetric, in [0, 1])."""
        if n_users is None:
            n_users = similarity.shape[0] if hasattr(similarity, "shape") else len(similarity)
        return cls(n_users, "matrix", matrix=check_similarity(similarity, n_users))

    def _rows_per_block(self, block_size):
        if block_size is not None:
            return max(1, int(block_size))
        return max(1, BLOCK_ENTRIES // max(self.n_users, 1))

    def blocks(self, *, block_size: int | None = None):
        """Yield ``(start, block)``: rows ``start .. start + b`` of the raw similarity as a dense ``(b, m)``
        float64 array whose diagonal entries (a user with itself) are set to 0.

        From history, the block is the product :math:`X_b X^\\top` of the binary history matrix:
        the most popular items (whose co-occurrences fill most of the matrix) with a dense BLAS
        product, the rest with a sparse one; memory is bounded by the block.
        """
        m = self.n_users
        step = self._rows_per_block(block_size)
        if self.kind == "matrix":
            mat = self._matrix
            for start in range(0, m, step):
                block = mat[start:start + step]
                block = block.toarray() if sp.issparse(block) else np.array(block, dtype=np.float64)
                rows = np.arange(block.shape[0])
                block[rows, start + rows] = 0.0
                yield start, block
            return
        dense_part, sparse_part, sparse_t = self._split_items()
        sizes = np.diff(self._history.indptr).astype(np.float64)
        for start in range(0, m, step):
            stop = min(start + step, m)
            inter = (sparse_part[start:stop] @ sparse_t).toarray().astype(np.float64)
            if dense_part is not None:
                inter += dense_part[start:stop] @ dense_part.T
            block = self._finish(inter, sizes, start, stop, first_col=0)
            rows = np.arange(stop - start)
            block[rows, start + rows] = 0.0
            yield start, block

    def upper_blocks(self, *, block_size: int | None = None):
        """Yield ``(start, block)``: the pairs ``u < u'`` of rows ``start .. start + b``, as a dense
        ``(b, m - start)`` float64 array over the columns ``start .. m - 1``.

        Entries on or below the diagonal (``u' <= u``) are set to 0, so every unordered pair
        appears exactly once over all blocks: half the work of :meth:`blocks`. The mask of
        those entries is ``np.tril(np.ones((b, b), bool))`` in the block's first ``b`` columns.
        """
        m = self.n_users
        step = self._rows_per_block(block_size)
        if self.kind == "matrix":
            for start in range(0, m, step):
                block = self._matrix[start:start + step, start:]
                block = block.toarray() if sp.issparse(block) else np.array(block, dtype=np.float64)
                b = block.shape[0]
                block[:, :b][np.tril_indices(b)] = 0.0
                yield start, block
            return
        dense_part, sparse_part, sparse_t = self._split_items()
        sizes = np.diff(self._history.indptr).astype(np.float64)
        for start in range(0, m, step):
            stop = min(start + step, m)
            inter = (sparse_part[start:stop] @ sparse_t).toarray()[:, start:].astype(np.float64)
            if dense_part is not None:
                inter += dense_part[start:stop] @ dense_part[start:].T
            block = self._finish(inter, sizes, start, stop)
            b = stop - start
            block[:, :b][np.tril_indices(b)] = 0.0
            yield start, block

    def _finish(self, inter, sizes, start, stop, first_col=None):
        """Turn the intersection counts of rows ``start:stop`` x columns ``first_col:`` into similarities, in place."""
        first_col = start if first_col is None else first_col
        if self.kind == "jaccard":
            den = np.add.outer(sizes[start:stop], sizes[first_col:])
            den -= inter
            np.maximum(den, 1.0, out=den)        # 0 only for two empty histories, whose intersection is 0
            return np.divide(inter, den, out=inter)
        if getattr(self, "_inv_norm", None) is None:
            self._inv_norm = np.divide(1.0, np.sqrt(sizes), out=np.zeros_like(sizes), where=sizes > 0)
        inter *= self._inv_norm[start:stop, None]
        inter *= self._inv_norm[None, first_col:]
        return np.minimum(inter, 1.0, out=inter)

    def _split_items(self):
        """The history split into its most co-consumed items (dense) and the rest (sparse, with its transpose)."""
        if getattr(self, "_split", None) is None:
            hist = self._history
            degree = np.asarray(hist.sum(axis=0)).ravel()
            n_dense = min(DENSE_ITEMS, int((degree > 1).sum())) if hist.shape[1] > 2 * DENSE_ITEMS else 0
            if n_dense:
                popular = np.argsort(-degree, kind="stable")[:n_dense]
                rest = np.setdiff1d(np.arange(hist.shape[1]), popular)
                dense_part = hist[:, popular].toarray().astype(np.float32)   # counts <= 128: exact
                sparse_part = hist[:, rest].tocsr()
            else:
                dense_part, sparse_part = None, hist
            self._split = (dense_part, sparse_part, sparse_part.T.tocsr())
        return self._split

    def cosine_weighted_sum(self, scores) -> float:
        r""":math:`\sum_{u \ne u'} \cos(u, u')\,|s_u - s_{u'}|` over ordered pairs in :math:`O(\mathrm{nnz} \log \mathrm{nnz})`.

        The cosine of binary histories is bilinear, :math:`\cos(u, u') = \sum_i w_u x_{ui} w_{u'} x_{u'i}`
        with :math:`w_u = |H_u|^{-1/2}`, so the weighted sum splits over items: for each item, the
        weighted sum of gaps among the users who have it, from prefix sums over those users sorted
        by score. No pair of users is visited.

        >>> s = UserSimilarity.from_history([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], similarity="cosine")
        >>> round(s.cosine_weighted_sum([0.5, 0.5, 0.5, 0.0]), 4)
        0.4082
        """
        if self.kind != "cosine":
            raise ValueError("cosine_weighted_sum needs a cosine similarity computed from history.")
        from ._kernels import cosine_weighted_sum        # per item: its users sorted by score, prefix sums

        scores = np.asarray(scores, dtype=np.float64)
        if getattr(self, "_item_users", None) is None:
            item_user = self._history.T.tocsr()
            sizes = np.diff(self._history.indptr).astype(np.float64)
            self._item_users = (item_user.indptr.astype(np.int64), item_user.indices.astype(np.int32),
                                np.divide(1.0, np.sqrt(sizes), out=np.zeros_like(sizes), where=sizes > 0))
        return 2.0 * cosine_weighted_sum(*self._item_users, scores)

    def pairs(self, *, block_size: int | None = None):
        """Yield ``(rows, cols, values)``: the ordered pairs ``u != u'`` with non-zero similarity, one row block at a time."""
        for start, block in self.blocks(block_size=block_size):
            r, c = np.nonzero(block)
            yield r.astype(np.int64) + start, c.astype(np.int64), block[r, c]

    def offdiag_range(self, *, block_size: int | None = None) -> tuple[float, float]:
        """Smallest and largest similarity over the distinct pairs ``u != u'`` (one pass over the blocks)."""
        if getattr(self, "_range", None) is None:
            from ._kernels import pair_stats                     # one compiled pass over the pairs

            stats = pair_stats(self, block_size=block_size)
            self._range = (stats["min"], stats["max"])
        return self._range

    def dense(self) -> np.ndarray:
        """The whole ``m x m`` matrix, diagonal 1 (for small ``m`` only: toy examples and tests)."""
        out = np.zeros((self.n_users, self.n_users))
        for start, block in self.blocks():
            out[start:start + block.shape[0]] = block
        np.fill_diagonal(out, 1.0)
        return out


def jaccard(history, *, n_items: int | None = None) -> np.ndarray:
    r"""Dense Jaccard similarity :math:`|H_u \cap H_{u'}| / |H_u \cup H_{u'}|` of the users' history (diagonal 1).

    Parameters
    ----------
    history : sequences of int or scipy.sparse (m, n_items)
        Each user's history items.
    n_items : int, optional
        Catalogue size.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)
        Range [0, 1], diagonal 1.

    Examples
    --------
    >>> jaccard([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]]).round(3)[0].tolist()
    [1.0, 0.5, 0.2, 0.0]
    """
    return UserSimilarity.from_history(history, similarity="jaccard", n_items=n_items).dense()


def cosine(history, *, n_items: int | None = None) -> np.ndarray:
    r"""Dense cosine similarity :math:`|H_u \cap H_{u'}| / \sqrt{|H_u||H_{u'}|}` of the binary history (diagonal 1).

    Parameters
    ----------
    history : sequences of int or scipy.sparse (m, n_items)
        Each user's history items.
    n_items : int, optional
        Catalogue size.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)
        Range [0, 1], diagonal 1.

    Examples
    --------
    >>> cosine([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]]).round(3)[0].tolist()
    [1.0, 0.667, 0.333, 0.0]
    """
    return UserSimilarity.from_history(history, similarity="cosine", n_items=n_items).dense()


def minmax_offdiag(similarity) -> np.ndarray:
    r"""Min-max scale a dense similarity over its off-diagonal entries; the diagonal is set to 1.

    .. math:: \tilde s(u, u') = \frac{s(u, u') - \min_{v \ne v'} s(v, v')}{\max_{v \ne v'} s(v, v') - \min_{v \ne v'} s(v, v')}

    When every off-diagonal entry is equal (always so with two users) there is no spread to
    scale and the values are returned unchanged.

    Parameters
    ----------
    similarity : array-like, shape (m, m)
        A dense users x users similarity.

    Returns
    -------
    numpy.ndarray of float, shape (m, m)
        Range [0, 1] off the diagonal, diagonal 1.

    Examples
    --------
    >>> minmax_offdiag([[1, .2, .4], [.2, 1, .3], [.4, .3, 1]]).round(2).tolist()
    [[1.0, 0.0, 1.0], [0.0, 1.0, 0.5], [1.0, 0.5, 1.0]]
    """
    sim = np.array(similarity, dtype=np.float64)
    m = sim.shape[0]
    off = ~np.eye(m, dtype=bool)
    if m >= 2:
        lo, hi = sim[off].min(), sim[off].max()
        if hi > lo:
            sim = (sim - lo) / (hi - lo)
    np.fill_diagonal(sim, 1.0)
    return sim


def user_similarity(history, *, similarity: str = "jaccard", minmax: bool = False,
                    n_items: int | None = None) -> np.ndarray:
    r"""The dense users x users similarity of the users' history, optionally min-max scaled over the distinct pairs.

    Jaccard: :math:`|H_u \cap H_{u'}| / |H_u \cup H_{u'}|`; cosine:
    :math:`|H_u \cap H_{u'}| / \sqrt{|H_u|\,|H_{u'}|}` (binary histories). Min-max scaling maps
    the smallest off-diagonal value to 0 and the largest to 1 (Paper 5 scales before PUF). Range:
    [0, 1]. Dense: for small numbers of users (teaching, tests); large runs use
    :class:`UserSimilarity`, which never builds the matrix.

    Parameters
    ----------
    history : sequences of int or scipy.sparse (m, n_items)
        Each user's history (train) items :math:`H_u`.
    similarity : {"jaccard", "cosine"}, default="jaccard"
        Which similarity of the histories.
    minmax : bool, default=False
        Min-max scale over the distinct pairs (:func:`minmax_offdiag`).
    n_items : int, optional
        Catalogue size (default: one more than the largest item of ``history``).

    Returns
    -------
    numpy.ndarray of float, shape (m, m)

    Examples
    --------
    >>> user_similarity([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], minmax=True).round(2)[2].tolist()
    [0.4, 0.4, 1.0, 0.5]
    >>> user_similarity([[0, 1], [0, 2]], similarity="cosine").round(2).tolist()
    [[1.0, 0.5], [0.5, 1.0]]
    """
    sim = UserSimilarity.from_history(history, similarity=similarity, n_items=n_items).dense()
    return minmax_offdiag(sim) if minmax else sim


def genre_distributions(history, item_features, *, n_items: int | None = None) -> np.ndarray:
    """Each user's distribution over item features (e.g. genres): the normalised sum of the feature rows of their history.

    Parameters
    ----------
    history : sequences of int or scipy.sparse (m, n_items)
        Each user's history items.
    item_features : array-like, shape (n_items, d)
        Non-negative item features (e.g. multi-hot genres).
    n_items : int, optional
        Catalogue size.

    Returns
    -------
    numpy.ndarray of float, shape (m, d)
        Each row sums to 1 (or is 0 for a user without feature mass).

    Examples
    --------
    >>> genre_distributions([[0, 1], [2]], [[1, 0], [1, 1], [0, 1]]).round(3).tolist()
    [[0.667, 0.333], [0.0, 1.0]]
    """
    feats = np.asarray(item_features, dtype=np.float64)
    if feats.ndim != 2 or np.any(feats < 0) or not np.all(np.isfinite(feats)):
        raise ValueError("item_features must be a finite non-negative (n_items, d) array.")
    hist = _history_matrix(history, n_items=feats.shape[0] if n_items is None else n_items)
    if hist.shape[1] != feats.shape[0]:
        raise ValueError(f"item_features has {feats.shape[0]} rows but there are {hist.shape[1]} items.")
    mass = np.asarray(hist.astype(np.float64) @ feats)
    total = mass.sum(axis=1, keepdims=True)
    return np.divide(mass, total, out=np.zeros_like(mass), where=total > 0)


def sim_js(distributions) -> np.ndarray:
    r"""Dense :math:`\mathrm{sim}_{JS}(u, u') = 1 - D_{JS}(u_\alpha, u'_\alpha)`: Jensen-Shannon *divergence*, log base 2.

    .. math:: D_{JS}(p, q) = \tfrac12 \mathrm{KL}(p \,\|\, M) + \tfrac12 \mathrm{KL}(q \,\|\, M), \quad M = \tfrac12 (p + q)

    With base 2 the divergence lies in [0, 1], so the similarity does too (Wu et al. leave the
    base open). A user without any feature mass has similarity 0 with everyone.

    Parameters
    ----------
    distributions : array-like, shape (m, d)
        Each user's distribution (rows summing to 1, or 0).

    Returns
    -------
    numpy.ndarray of float, shape (m, m)
        Range [0, 1].

    Examples
    --------
    >>> sim_js([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]]).round(3).tolist()
    [[1.0, 0.0, 0.689], [0.0, 1.0, 0.689], [0.689, 0.689, 1.0]]
    """
    p = np.asarray(distributions, dtype=np.float64)
    m = p.shape[0]
    out = np.zeros((m, m))
    has = p.sum(axis=1) > 0

    def plogp_ratio(a, mid):
        with np.errstate(divide="ignore", invalid="ignore"):
            return np.where(a > 0, a * np.log2(np.where(a > 0, a, 1.0) / np.where(mid > 0, mid, 1.0)), 0.0)

    step = max(1, BLOCK_ENTRIES // max(m * p.shape[1], 1))
    for start in range(0, m, step):
        a = p[start:start + step, None, :]
        mid = 0.5 * (a + p[None, :, :])
        div = 0.5 * plogp_ratio(a, mid).sum(axis=2) + 0.5 * plogp_ratio(np.broadcast_to(p[None], mid.shape), mid).sum(axis=2)
        out[start:start + step] = 1.0 - np.clip(div, 0.0, 1.0)
    out[~has] = 0.0
    out[:, ~has] = 0.0
    np.fill_diagonal(out, 1.0)
    return out
