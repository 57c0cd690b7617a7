r"""Compiled pair kernels of Paper 5's pairwise measures: PUF, the envy measures and UF.

Every pairwise measure visits all :math:`m(m-1)/2` user pairs (4.05·10⁹ at ML-20M scale), so the
cost of a visit decides. The kernels here (numba, compiled once and cached on disk) fold
everything a measure needs about a pair into running per-user values in the same loop; no
users × users block is ever written to memory:

* **history similarities** (:func:`pair_stats`): user :math:`u`'s intersections with every
  later user :math:`u' > u` are counted in two parts. The 128 most consumed items are a
  bitset per user (two 64-bit words), so their shared count is two ``popcount``\ s per pair;
  the other items are walked through an item → users inverted index, incrementing a per-call
  counter array (only the users after :math:`u` in each item's sorted posting list). One
  vectorised sweep over :math:`u' > u` then forms Jaccard or cosine, and accumulates
  :math:`\sum \mathrm{sim}\,|S_u - S_{u'}|`, :math:`\sum \mathrm{sim}`, :math:`\sum \mathrm{sim}^2`,
  the smallest and the largest similarity (of non-negative doubles, compared as integers so
  that the sweep vectorises). A precomputed matrix (dense or sparse) is read row by row instead.
* **envy** (:func:`envy_stats`): for user :math:`u`, each relevant item's list-inverted index
  (the users whose top-k holds it) counts :math:`|L_{u'} \cap R_u|` for the few users that
  hit at all; every other pair has envy 0.
* **UF's list distance** (:func:`uf_stats`): the pairs at or above UF's threshold are collected
  in the same sweep; for each user with such pairs either the row
  :math:`A_u = \sum_{i \in L_u} \cos(\vec i, \cdot)` over the recommended items is built (then each
  pair costs ``k`` lookups: :math:`\sum_{i' \in L_{u'}} A_u[i']`) or, with few similar pairs, the
  summed item vector :math:`\sum_{i \in L_u} \vec i` is dotted with each partner's, whichever is
  cheaper.

Each kernel takes a block of users and returns one row of partial results per user. The blocks
run on local threads or as Dask tasks (:func:`recfair.scale._distributed.map_blocks`); the per-user
rows are combined in user order, so the value is identical wherever the blocks ran.
Values agree with the loop transcriptions of the formulas (``tests/_reference.py``) to 1e-12.
"""

from __future__ import annotations

import numba as nb
import numpy as np
import scipy.sparse as sp
from llvmlite import ir
from numba.core import cgutils, types
from numba.extending import intrinsic

from ..scale._distributed import interleaved_blocks, map_blocks

# a private module: no __all__ (the measures of recfair.users are its public face)

#: Items held as a per-user bitset (two 64-bit words): the most consumed ones, shared by most pairs.
BITSET_ITEMS = 128
#: Users per block (a Dask task): at 10⁶ users a block is ~5·10⁸ pairs.
BLOCK_USERS = 1024
#: Kernel kinds of similarity.
JACCARD, COSINE, DENSE, SPARSE = 0, 1, 2, 3
_FAST = {"reassoc", "nsz", "contract", "nnan", "ninf"}     # no 'arcp'/'afn': divisions stay exact
_JIT = dict(cache=True, nogil=True)


@intrinsic
def _popcount(typingctx, x):
    sig = types.uint64(types.uint64)

    def codegen(context, builder, signature, args):
        fn = cgutils.get_or_insert_function(builder.module, ir.FunctionType(ir.IntType(64), [ir.IntType(64)]),
                                            "llvm.ctpop.i64")
        return builder.call(fn, args)
    return sig, codegen


@intrinsic
def _bits(typingctx, x):
    """The bit pattern of a float64 as int64 (order-preserving for non-negative values)."""
    sig = types.int64(types.float64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.IntType(64))
    return sig, codegen


@intrinsic
def _float(typingctx, x):
    sig = types.float64(types.int64)

    def codegen(context, builder, signature, args):
        return builder.bitcast(args[0], ir.DoubleType())
    return sig, codegen


_INF_BITS = 0x7FF0000000000000


# ------------------------------------------------------------------------------------ similarity rows

@nb.njit(fastmath=_FAST, **_JIT)
def _tail_counts(u, tail_ptr, tail_idx, inv_ptr, inv_idx, cnt):
    """cnt[v] += |H_u ∩ H_v| over the non-bitset items, for every v > u (posting lists sorted)."""
    for p in range(tail_ptr[u], tail_ptr[u + 1]):
        item = tail_idx[p]
        a, b = inv_ptr[item], inv_ptr[item + 1]
        first = np.searchsorted(inv_idx[a:b], u, side="right") + a
        for q in range(first, b):
            cnt[inv_idx[q]] += 1


@nb.njit(fastmath=_FAST, **_JIT)
def _history_row(u, kind, bits, size, norm, cnt, out_sim):
    """out_sim[0 : m-u-1] = sim(u, v) for v = u+1 .. m-1 (Jaccard or cosine); cnt reset to 0 there."""
    m = size.size
    n = m - u - 1
    c = cnt[u + 1:]
    r0, r1 = bits[0], bits[1]
    x0, x1 = r0[u + 1:], r1[u + 1:]
    b0, b1 = r0[u], r1[u]
    if kind == JACCARD:
        zu = size[u]
        zs = size[u + 1:]
        for j in range(n):
            inter = np.float64(c[j] + np.int32(_popcount(b0 & x0[j]) + _popcount(b1 & x1[j])))
            c[j] = 0
            den = zu + zs[j] - inter
            den = den if den > 1.0 else 1.0            # 0 only for two empty histories (intersection 0)
            out_sim[j] = inter / den
    else:
        nu = norm[u]
        ns = norm[u + 1:]
        for j in range(n):
            inter = np.float64(c[j] + np.int32(_popcount(b0 & x0[j]) + _popcount(b1 & x1[j])))
            c[j] = 0
            sim = inter * nu * ns[j]
            out_sim[j] = sim if sim < 1.0 else 1.0
    return n


@nb.njit(fastmath=_FAST, **_JIT)
def _row(u, kind, tail_ptr, tail_idx, inv_ptr, inv_idx, bits, size, norm, dense, sp_ptr, sp_idx, sp_val,
         cnt, sims, cols):
    """The similarities of u with the users after it: (count, dense?) -> sims[:count] (and cols[:count] if sparse).

    Dense rows (history kinds, a dense matrix) cover v = u+1 .. m-1 in order; a sparse matrix
    gives its stored entries v > u in ``cols`` (every other pair has similarity 0).
    """
    if kind == JACCARD or kind == COSINE:
        _tail_counts(u, tail_ptr, tail_idx, inv_ptr, inv_idx, cnt)
        return _history_row(u, kind, bits, size, norm, cnt, sims), True
    if kind == DENSE:
        m = dense.shape[0]
        row = dense[u, u + 1:]
        for j in range(m - u - 1):
            sims[j] = row[j]
        return m - u - 1, True
    a, b = sp_ptr[u], sp_ptr[u + 1]
    n = 0
    for p in range(a, b):
        v = sp_idx[p]
        if v > u and sp_val[p] != 0.0:
            sims[n] = sp_val[p]
            cols[n] = v
            n += 1
    return n, False


# -------------------------------------------------------------------------------- PUF / UF moments

@nb.njit(fastmath=_FAST, **_JIT)
def _pair_stats_kernel(users, kind, tail_ptr, tail_idx, inv_ptr, inv_idx, bits, size, norm, dense, sp_ptr, sp_idx,
                       sp_val, s, out):
    """out[t] = (sum sim |s_u - s_v|, sum sim, sum sim², min sim, max sim) over v > u, u = users[t]."""
    m = size.size
    cnt = np.zeros(m, np.int32)
    sims = np.empty(m, np.float64)
    cols = np.empty(m, np.int64)
    r0, r1 = bits[0], bits[1]
    for t in range(users.size):
        u = users[t]
        su = s[u]
        tot = 0.0
        s1 = 0.0
        s2 = 0.0
        lo = np.int64(_INF_BITS)
        hi = np.int64(0)
        if kind == JACCARD or kind == COSINE:          # fused: intersections, similarity and sums in one sweep
            _tail_counts(u, tail_ptr, tail_idx, inv_ptr, inv_idx, cnt)
            n = m - u - 1
            c, ss = cnt[u + 1:], s[u + 1:]
            x0, x1 = r0[u + 1:], r1[u + 1:]
            b0, b1 = r0[u], r1[u]
            if kind == JACCARD:
                zu, zs = size[u], size[u + 1:]
                for j in range(n):
                    inter = np.float64(c[j] + np.int32(_popcount(b0 & x0[j]) + _popcount(b1 & x1[j])))
                    c[j] = 0
                    den = zu + zs[j] - inter
                    den = den if den > 1.0 else 1.0
                    sim = inter / den
                    tot += sim * abs(su - ss[j])
                    s1 += sim
                    s2 += sim * sim
                    bb = _bits(sim)
                    lo = bb if bb < lo else lo
                    hi = bb if bb > hi else hi
            else:
                nu, ns = norm[u], norm[u + 1:]
                for j in range(n):
                    inter = np.float64(c[j] + np.int32(_popcount(b0 & x0[j]) + _popcount(b1 & x1[j])))
                    c[j] = 0
                    sim = inter * nu * ns[j]
                    sim = sim if sim < 1.0 else 1.0
                    tot += sim * abs(su - ss[j])
                    s1 += sim
                    s2 += sim * sim
                    bb = _bits(sim)
                    lo = bb if bb < lo else lo
                    hi = bb if bb > hi else hi
            out[t, 0] = tot
            out[t, 1] = s1
            out[t, 2] = s2
            out[t, 3] = _float(lo) if u < m - 1 else np.inf
            out[t, 4] = _float(hi) if u < m - 1 else -np.inf
            continue
        n, full = _row(u, kind, tail_ptr, tail_idx, inv_ptr, inv_idx, bits, size, norm, dense, sp_ptr, sp_idx,
                       sp_val, cnt, sims, cols)
        if full:
            ss = s[u + 1:]
            for j in range(n):
                sim = sims[j]
                tot += sim * abs(su - ss[j])
                s1 += sim
                s2 += sim * sim
                bb = _bits(sim)
                lo = bb if bb < lo else lo
                hi = bb if bb > hi else hi
        else:
            for j in range(n):
                sim = sims[j]
                tot += sim * abs(su - s[cols[j]])
                s1 += sim
                s2 += sim * sim
                bb = _bits(sim)
                lo = bb if bb < lo else lo
                hi = bb if bb > hi else hi
            if n < m - u - 1:                   # a pair not stored has similarity 0
                lo = 0
        out[t, 0] = tot
        out[t, 1] = s1
        out[t, 2] = s2
        out[t, 3] = _float(lo) if u < m - 1 else np.inf
        out[t, 4] = _float(hi) if u < m - 1 else -np.inf
    return out


def _pair_stats_task(shared, users):
    index, s = shared
    out = np.empty((users.size, 5))
    return _pair_stats_kernel(users, *index, s, out)


# --------------------------------------------------------------------------------------------- UF

@nb.njit(fastmath=_FAST, **_JIT)
def _uf_kernel(users, kind, tail_ptr, tail_idx, inv_ptr, inv_idx, bits, size, norm, dense, sp_ptr, sp_idx, sp_val,
               threshold, strategy, pos, vec_ptr, vec_idx, vec_val, feat_ptr, feat_idx, feat_val, row_work, cache, slot,
               inv_n, binary, out):
    """out[t] = (sum over v > u with sim >= threshold, sim > 0 of sim (1 - cross(u, v) / k²), their count)."""
    m = size.size
    k = pos.shape[1]
    r = vec_ptr.size - 1
    d = feat_ptr.size - 1
    cnt = np.zeros(m, np.int32)
    sims = np.empty(m, np.float64)
    cols = np.empty(m, np.int64)
    arow = np.zeros(r, np.float64)
    acache = np.zeros(r, np.float64)
    summed = np.zeros(d, np.float64)
    kk = np.float64(k) * np.float64(k)
    list_nnz = 0.0                                   # mean stored entries of a list's k item vectors
    for i in range(r):
        list_nnz += vec_ptr[i + 1] - vec_ptr[i]
    list_nnz = list_nnz / max(r, 1) * k
    for t in range(users.size):
        u = users[t]
        n, full = _row(u, kind, tail_ptr, tail_idx, inv_ptr, inv_idx, bits, size, norm, dense, sp_ptr, sp_idx,
                       sp_val, cnt, sims, cols)
        n_sim = 0
        for j in range(n):
            sim = sims[j]
            n_sim += 1 if (sim >= threshold and sim > 0.0) else 0
        out[t, 0] = 0.0
        out[t, 1] = n_sim
        if n_sim == 0:
            continue
        cost_row = np.float64(r)                        # build A_u over the r recommended items, k lookups a pair
        for a in range(k):
            i = pos[u, a]
            cost_row += r / 8.0 if slot[i] >= 0 else row_work[i]
        use_row = strategy == 1 or (strategy == 0 and cost_row <= n_sim * list_nnz)
        if use_row:
            cached = False
            for a in range(k):
                i = pos[u, a]
                if slot[i] >= 0:                        # a co-occurrence row held in memory: one dense sweep
                    row = cache[slot[i]]
                    coef = inv_n[i]
                    for j in range(r):
                        acache[j] += coef * row[j]
                    cached = True
                    continue
                if binary:                              # 0/1 vectors: count co-occurrences, weigh them once
                    coef = inv_n[i]
                    if coef == 0.0:                     # an item without any user: cosine 1 with itself only
                        arow[i] += 1.0
                        continue
                    for p in range(vec_ptr[i], vec_ptr[i + 1]):
                        f = vec_idx[p]
                        for q in range(feat_ptr[f], feat_ptr[f + 1]):
                            acache[feat_idx[q]] += coef
                    cached = True
                    continue
                for p in range(vec_ptr[i], vec_ptr[i + 1]):
                    f = vec_idx[p]
                    w = vec_val[p]
                    for q in range(feat_ptr[f], feat_ptr[f + 1]):
                        arow[feat_idx[q]] += w * feat_val[q]
            if cached:
                for j in range(r):
                    arow[j] += acache[j] * inv_n[j]
                    acache[j] = 0.0
        else:                                           # or dot the summed item vectors of u and each partner
            for a in range(k):
                i = pos[u, a]
                for p in range(vec_ptr[i], vec_ptr[i + 1]):
                    summed[vec_idx[p]] += vec_val[p]
        total = 0.0
        for j in range(n):
            sim = sims[j]
            if sim >= threshold and sim > 0.0:
                v = (u + 1 + j) if full else cols[j]
                cross = 0.0
                if use_row:
                    for b in range(k):
                        cross += arow[pos[v, b]]
                else:
                    for b in range(k):
                        i = pos[v, b]
                        for p in range(vec_ptr[i], vec_ptr[i + 1]):
                            cross += vec_val[p] * summed[vec_idx[p]]
                total += sim * (1.0 - cross / kk)
        if use_row:
            arow[:] = 0.0
        else:
            for a in range(k):
                i = pos[u, a]
                for p in range(vec_ptr[i], vec_ptr[i + 1]):
                    summed[vec_idx[p]] = 0.0
        out[t, 0] = total
    return out


@nb.njit(**_JIT)
def _cooccurrence_kernel(items, slot, vec_ptr, vec_idx, feat_ptr, feat_idx, cache):
    """cache[slot[i], j] = number of features (users) shared by the binary vectors of items i and j."""
    for t in range(items.size):
        i = items[t]
        row = cache[slot[i]]
        for p in range(vec_ptr[i], vec_ptr[i + 1]):
            f = vec_idx[p]
            for q in range(feat_ptr[f], feat_ptr[f + 1]):
                row[feat_idx[q]] += 1
    return 0


def _cooccurrence_task(shared, items):
    return _cooccurrence_kernel(items, *shared)


def _uf_task(shared, users):
    index, threshold, strategy, lists = shared
    out = np.empty((users.size, 2))
    return _uf_kernel(users, *index, threshold, strategy, *lists, out)


# ------------------------------------------------------------------------------------------- envy

@nb.njit(**_JIT)
def _envy_kernel(users, rel_ptr, rel_idx, lst_ptr, lst_idx, inv, own, out):
    """out[t] = (sum over v != u of envy(u, v), max over v of envy(u, v)), u = users[t]."""
    m = own.size
    cnt = np.zeros(m, np.int32)
    touched = np.empty(m, np.int64)
    for t in range(users.size):
        u = users[t]
        n = 0
        for p in range(rel_ptr[u], rel_ptr[u + 1]):
            item = rel_idx[p]
            for q in range(lst_ptr[item], lst_ptr[item + 1]):
                v = lst_idx[q]
                if cnt[v] == 0:
                    touched[n] = v
                    n += 1
                cnt[v] += 1
        total = 0.0
        best = 0.0
        iu, ou = inv[u], own[u]
        for j in range(n):
            v = touched[j]
            if v != u:
                e = np.float64(cnt[v]) * iu - ou
                if e > 0.0:
                    total += e
                    best = e if e > best else best
            cnt[v] = 0
        out[t, 0] = total
        out[t, 1] = best
    return out


def _envy_task(shared, users):
    out = np.empty((users.size, 2))
    return _envy_kernel(users, *shared, out)


# ------------------------------------------------------------------------------ cosine, bilinear

@nb.njit(**_JIT)
def _cosine_weighted_kernel(item_ptr, item_users, weight, scores):
    """sum over items of sum over pairs of its users of w_u w_v |s_u - s_v| (each unordered pair once)."""
    total = 0.0
    for item in range(item_ptr.size - 1):
        a, b = item_ptr[item], item_ptr[item + 1]
        if b - a < 2:
            continue
        users = item_users[a:b]
        order = np.argsort(scores[users], kind="mergesort")
        cum_w = 0.0
        cum_ws = 0.0
        part = 0.0
        for t in range(b - a):
            u = users[order[t]]
            w = weight[u]
            ws = w * scores[u]
            part += ws * cum_w - w * cum_ws             # w_u w_v (s_u - s_v) over the users v before u
            cum_w += w
            cum_ws += ws
        total += part
    return total


def cosine_weighted_sum(item_ptr, item_users, weight, scores) -> float:
    """:math:`\\sum_{u < u'} \\cos(u, u') |s_u - s_{u'}|` from the item -> users index (no pair visited)."""
    return float(_cosine_weighted_kernel(item_ptr, item_users, weight, np.ascontiguousarray(scores, np.float64)))


# ------------------------------------------------------------------------------------------ drivers

def n_blocks(m: int, block_size: int | None = None) -> int:
    """Blocks of users for ``m`` users: ``ceil(m / block_size)`` (default :data:`BLOCK_USERS`), at least 8 when m allows.

    >>> n_blocks(90_000), n_blocks(10), n_blocks(100, 10)
    (88, 8, 10)
    """
    size = BLOCK_USERS if block_size is None else max(1, int(block_size))
    return max(min(8, m), -(-m // size))


def _combine_rows(m, blocks):
    def combine(parts):
        width = parts[0].shape[1]
        full = np.empty((m, width))
        for users, part in zip(blocks, parts):
            full[users] = part
        return full
    return combine


def _run(task, shared, m, client, block_size):
    blocks = interleaved_blocks(m, n_blocks(m, block_size))
    return map_blocks(task, blocks, shared=shared, client=client, combine=_combine_rows(m, blocks))


_EMPTY_I64 = np.zeros(1, np.int64)
_EMPTY_I32 = np.zeros(1, np.int32)
_EMPTY_F64 = np.zeros(1, np.float64)


def history_index(source) -> tuple:
    """The arrays the kernels read for a :class:`~recfair.users.UserSimilarity` (built once, cached on it)."""
    index = getattr(source, "_kernel_index", None)
    if index is not None:
        return index
    m = source.n_users
    dummy_bits = np.zeros((2, m), np.uint64)
    if source.kind == "matrix":
        mat = source._matrix
        if sp.issparse(mat):
            upper = sp.triu(mat, k=1, format="csr")
            upper.eliminate_zeros()
            index = (SPARSE, _EMPTY_I64, _EMPTY_I32, _EMPTY_I64, _EMPTY_I32, dummy_bits, np.zeros(m), _EMPTY_F64,
                     np.zeros((1, 1)), upper.indptr.astype(np.int64), upper.indices.astype(np.int64),
                     upper.data.astype(np.float64))
        else:
            index = (DENSE, _EMPTY_I64, _EMPTY_I32, _EMPTY_I64, _EMPTY_I32, dummy_bits, np.zeros(m), _EMPTY_F64,
                     np.ascontiguousarray(mat, dtype=np.float64), _EMPTY_I64, _EMPTY_I64, _EMPTY_F64)
    else:
        hist = sp.csr_matrix(source._history)
        n = hist.shape[1]
        degree = np.bincount(hist.indices, minlength=n)
        popular = np.argsort(-degree, kind="stable")[:BITSET_ITEMS]
        popular = popular[degree[popular] > 1]
        slot = np.full(n, -1, np.int64)
        slot[popular] = np.arange(popular.size)
        rows = np.repeat(np.arange(m), np.diff(hist.indptr))
        in_bits = slot[hist.indices] >= 0
        bits = np.zeros((2, m), np.uint64)
        word_bits = slot[hist.indices[in_bits]]
        np.bitwise_or.at(bits, (word_bits // 64, rows[in_bits]), np.left_shift(np.uint64(1),
                                                                                (word_bits % 64).astype(np.uint64)))
        keep = ~in_bits
        tail = sp.csr_matrix((np.ones(int(keep.sum()), np.float32), (rows[keep], hist.indices[keep])), shape=(m, n))
        tail.sort_indices()
        inv = tail.T.tocsr()
        inv.sort_indices()
        sizes = np.diff(hist.indptr).astype(np.float64)
        norm = np.divide(1.0, np.sqrt(sizes), out=np.zeros_like(sizes), where=sizes > 0)
        index = (JACCARD if source.kind == "jaccard" else COSINE, tail.indptr.astype(np.int64),
                 tail.indices.astype(np.int32), inv.indptr.astype(np.int64), inv.indices.astype(np.int32), bits,
                 sizes, norm, np.zeros((1, 1)), _EMPTY_I64, _EMPTY_I64, _EMPTY_F64)
    source._kernel_index = index
    return index


def pair_stats(source, scores=None, *, client=None, block_size=None) -> dict:
    r"""Over the unordered pairs :math:`u < u'`: ``{"weighted": \sum sim |s_u - s_u'|, "sum": \sum sim,
    "sum_sq": \sum sim², "min": min sim, "max": max sim}`` of a :class:`~recfair.users.UserSimilarity`.

    >>> from recfair.users import UserSimilarity
    >>> s = UserSimilarity.from_history([[0, 1, 2], [0, 1, 3], [2, 3, 4], [4, 5]], similarity="jaccard")
    >>> st = pair_stats(s, [0.5, 0.5, 0.5, 0.0])
    >>> round(st["weighted"], 4), st["min"], st["max"]
    (0.1, 0.0, 0.5)
    """
    m = source.n_users
    index = history_index(source)
    s = np.zeros(m) if scores is None else np.ascontiguousarray(scores, dtype=np.float64)
    rows = _run(_pair_stats_task, (index, s), m, client, block_size)
    return {"weighted": float(np.sum(rows[:, 0])), "sum": float(np.sum(rows[:, 1])),
            "sum_sq": float(np.sum(rows[:, 2])), "min": float(np.min(rows[:, 3])), "max": float(np.max(rows[:, 4]))}


def _item_vectors(vectors, items):
    """Unit vectors of the recommended ``items`` as CSR (r × d') and the transposed CSR; a zero vector gets its
    own extra feature so that every item is at cosine 1 (distance 0) from itself. Built in place (UF's memory)."""
    unit = vectors[items]
    unit = sp.csr_matrix(unit, dtype=np.float64) if sp.issparse(unit) else sp.csr_matrix(np.asarray(unit, np.float64))
    unit.eliminate_zeros()
    unit.sort_indices()
    r = unit.shape[0]
    rows = np.repeat(np.arange(r, dtype=np.int32), np.diff(unit.indptr))
    norms = np.sqrt(np.bincount(rows, weights=unit.data * unit.data, minlength=r))
    binary = unit.nnz > 0 and bool(np.all(unit.data == 1.0))
    zero = norms == 0
    inv_n = np.divide(1.0, norms, out=np.zeros_like(norms), where=~zero)
    unit.data *= inv_n[rows]
    del rows
    if zero.any():
        extra = sp.csr_matrix((np.ones(int(zero.sum())), (np.flatnonzero(zero), np.arange(int(zero.sum())))),
                              shape=(r, int(zero.sum())))
        unit = sp.hstack([unit, extra], format="csr")
        unit.sort_indices()
    vec = (unit.indptr.astype(np.int64), unit.indices.astype(np.int32, copy=False), unit.data)
    feat = unit.T.tocsr()
    del unit
    feat.sort_indices()
    feat = (feat.indptr.astype(np.int64), feat.indices.astype(np.int32, copy=False), feat.data)
    feat_nnz = np.diff(feat[0]).astype(np.float64)
    row_work = np.add.reduceat(feat_nnz[vec[1]], vec[0][:-1]) if vec[1].size else np.zeros(r)
    row_work[np.diff(vec[0]) == 0] = 0.0
    out = vec + feat + (row_work,)
    return out + _cooccurrence_cache(binary, norms, inv_n, out)


#: Memory for UF's co-occurrence rows of the most expensive recommended items (binary item vectors only).
UF_CACHE_BYTES = 192 << 20


def _cooccurrence_cache(binary, norms, inv_n, arrays):
    """For binary item vectors: exact co-occurrence counts of the costliest items' rows, within :data:`UF_CACHE_BYTES`.

    ``cos(i, j) = co(i, j) / sqrt(n_i n_j)``; with the row of ``co`` in memory, adding item ``i`` to
    :math:`A_u` is one dense sweep instead of a walk over its users' histories.
    """
    r = norms.size
    top = int(round(float(norms.max()) ** 2)) if binary else 0
    dtype = np.uint16 if top < (1 << 16) else np.uint32
    n_rows = min(r, UF_CACHE_BYTES // max(r * np.dtype(dtype).itemsize, 1)) if binary else 0
    slot = np.full(r, -1, np.int32)
    if n_rows == 0:
        return np.zeros((1, 1), np.uint16), slot, inv_n, binary
    vec_ptr, vec_idx, _, feat_ptr, feat_idx, _, row_work = arrays
    chosen = np.argsort(-row_work, kind="stable")[:n_rows]
    chosen = chosen[(row_work[chosen] > r / 16) & (inv_n[chosen] > 0)]   # cheaper to walk: leave them; an item
    #                                                              without users is at cosine 1 with itself only
    slot[chosen] = np.arange(chosen.size, dtype=np.int32)
    cache = np.zeros((max(chosen.size, 1), r), dtype)
    map_blocks(_cooccurrence_task, [chosen[b] for b in interleaved_blocks(chosen.size, 64)] if chosen.size else [],
               shared=(slot, vec_ptr, vec_idx, feat_ptr, feat_idx, cache))
    return cache, slot, inv_n, binary


#: How UF's kernel sums a user's list distances: per user, the cheaper way; always the row A_u; always dots.
UF_STRATEGIES = ("auto", "row", "dot")


def uf_stats(source, top, vectors, threshold: float, *, client=None, block_size=None,
             strategy: str = "auto") -> tuple[float, int]:
    """``(sum over pairs u < u' with threshold <= sim, sim > 0 of sim · d_L(u, u'), their number)``.

    ``vectors``: the items' vectors (rows; dense or sparse, ``n_items`` rows); ``top`` the ``(m, k)`` lists;
    ``strategy``: one of :data:`UF_STRATEGIES` (the same value either way, up to rounding).
    """
    m = source.n_users
    index = history_index(source)
    items, pos = np.unique(top, return_inverse=True)
    pos = np.ascontiguousarray(pos.reshape(top.shape), dtype=np.int32)
    lists = (pos,) + _item_vectors(vectors, items)
    rows = _run(_uf_task, (index, float(threshold), UF_STRATEGIES.index(strategy), lists), m, client, block_size)
    return float(np.sum(rows[:, 0])), int(np.sum(rows[:, 1]))


def envy_stats(top, rel, inv, own, *, client=None, block_size=None) -> tuple[float, np.ndarray]:
    """``(sum of envy over the ordered pairs, each user's largest envy)``: ``rel`` CSR of relevant items,
    ``inv`` each user's 1/denominator of phi, ``own`` each user's utility of their own list."""
    m, k = top.shape
    n = rel.shape[1]
    lists = sp.csr_matrix((np.ones(top.size, np.float32), top.ravel(), np.arange(0, top.size + 1, k)),
                          shape=(m, n)).T.tocsr()
    shared = (rel.indptr.astype(np.int64), rel.indices.astype(np.int64), lists.indptr.astype(np.int64),
              lists.indices.astype(np.int64), np.ascontiguousarray(inv, np.float64),
              np.ascontiguousarray(own, np.float64))
    rows = _run(_envy_task, shared, m, client, block_size)
    return float(np.sum(rows[:, 0])), rows[:, 1].copy()
