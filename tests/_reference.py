"""Reference transcriptions of the formulas, one per formula, shared by every test module.

Each function is written from the thesis's (or the cited paper's) definition, as literally as
is practical, independently of the library: loops or dense matrices, no recfair import except
where a test needs the examination weights as data. The tests compare recfair's fast paths with
these.

Part I works on top-k lists ``(m, k)`` and item counts; Part II either on one user's relevance
*in rank order* (``rel[p - 1]`` = relevance of the item at position ``p`` of a full ranking of
all ``n`` items; graded values allowed) or on a whole run (``top_k`` and a dense users x items
grade matrix).
"""

from __future__ import annotations

import itertools
import math

import numpy as np

# ============================================================================ Part I (Paper 1)


def counts(top_k, n):
    """:math:`c_i`: how many lists show item ``i``."""
    return np.bincount(np.asarray(top_k).ravel(), minlength=n)


def jain(top_k, n):
    """Jain's index :math:`(km)^2 / (n \\sum_i c_i^2)`."""
    top_k = np.asarray(top_k)
    return top_k.size ** 2 / (n * (counts(top_k, n).astype(float) ** 2).sum())


def qf(top_k, n):
    """Coverage :math:`|R| / n`."""
    return np.count_nonzero(counts(top_k, n)) / n


def fsat(top_k, n):
    """Share of items shown at least :math:`\\lfloor km/n \\rfloor` times."""
    top_k = np.asarray(top_k)
    return np.mean(counts(top_k, n) >= top_k.size // n)


def entropy_defined(top_k, n):
    """Entropy (natural log) over the recommended items only."""
    top_k = np.asarray(top_k)
    p = counts(top_k, n) / top_k.size
    p = p[p > 0]
    return -(p * np.log(p)).sum()


def gini(exposure):
    """Gini index :math:`\\sum_j (2j - n - 1) x_j / (n \\sum_j x_j)` of ascending exposures."""
    x = np.sort(np.asarray(exposure, float))
    n = x.size
    j = np.arange(1, n + 1)
    return ((2 * j - n - 1) * x).sum() / (n * x.sum())


def gini_mean_difference(exposure):
    """The same index in its mean-absolute-difference form :math:`\\sum\\sum|x_i - x_j| / (2n^2\\bar x)`."""
    x = np.asarray(exposure, float)
    return np.abs(x[:, None] - x[None, :]).sum() / (2 * x.size ** 2 * x.mean())


def gini_w(top_k, n):
    """Gini of DCG-weighted exposure: position ``l`` adds :math:`1/\\log_2(l + 1)`."""
    top_k = np.asarray(top_k)
    w = 1 / np.log2(np.arange(2, top_k.shape[1] + 2))
    ex = np.zeros(n)
    np.add.at(ex, top_k, np.broadcast_to(w, top_k.shape))
    return gini(ex)


def vocd_all_similar(item_counts, beta):
    """VoCD with every pair of recommended items similar: mean of ``max(|c_i - c_j| / max - beta, 0)``."""
    c = np.asarray(item_counts)[np.asarray(item_counts) > 0].astype(float)
    if c.size < 2:
        return math.nan
    gaps = [abs(a - b) / max(a, b) for i, a in enumerate(c) for b in c[i + 1:]]
    return float(np.maximum(np.array(gaps) - beta, 0).mean())


def rbp_exposure(rounds, n, gamma):
    """:math:`E_{u,i} = \\frac1W \\sum_w \\gamma^{z(u,i,w) - 1}` as a dense ``(m, n)`` matrix (loops)."""
    rounds = np.asarray(rounds)
    n_rounds, m, _ = rounds.shape
    e = np.zeros((m, n))
    for w in range(n_rounds):
        for u in range(m):
            for pos, item in enumerate(rounds[w, u]):
                e[u, item] += gamma ** pos / n_rounds
    return e


# ============================================================================ Part II (Papers 2-3), one user


def _positions(n):
    return np.arange(1, n + 1)


def iaa_user(rel, k, corrected=True):
    """IAA of one user: mean over the ``n`` positions of ``|attention(p) - rel[p]|``.

    Attention is :math:`(k - p)/(k - 1)` (original) or :math:`(k + 1 - p)/k` (corrected) up to
    ``k`` and 0 after; ``rel`` is the (normalised) relevance in rank order.
    """
    rel = np.asarray(rel, float)
    p = _positions(rel.size)
    with np.errstate(divide="ignore", invalid="ignore"):
        att = np.where(p <= k, (k + 1 - p) / k if corrected else (k - p) / (k - 1), 0.0)
    return float(np.abs(att - rel).mean())


def iif_user(rel, k, gamma=0.8):
    """II-F of one user: mean squared gap between RBP exposure and the target :math:`E^*`.

    :math:`E^*_i = r_i / |R^*| \\cdot (1 - \\gamma^{|R^*|}) / (1 - \\gamma)`, :math:`|R^*|` the
    number of relevant (non-zero) items.
    """
    rel = np.asarray(rel, float)
    p = _positions(rel.size)
    size = int((rel > 0).sum())
    exposure = np.where(p <= k, gamma ** (p - 1.0), 0.0)
    target = rel / size * (1 - gamma ** size) / (1 - gamma) if size else np.zeros_like(rel)
    return float(((exposure - target) ** 2).mean())


def dcg_exposure(n, k):
    """DCG exposure of positions ``1..n``: :math:`1/\\log_2(p + 1)` up to ``k`` (``None``: no cut-off), 0 after."""
    p = _positions(n)
    e = 1 / np.log2(p + 1)
    return e if k is None else np.where(p <= k, e, 0.0)


def pair_excess(J):
    """Mean over all ordered pairs ``(a, b)`` (self-pairs included) of ``max(0, J_a - J_b)``."""
    J = np.asarray(J, float)
    return float(np.maximum(0.0, J[:, None] - J[None, :]).mean())


def ifd_div_user(rel, k):
    """IFD÷ of one user, binary relevance: :func:`pair_excess` of the DCG exposures of the relevant
    items (``H_u`` = all ordered pairs of relevant items, self-pairs included); ``k=None``: no cut-off."""
    rel = np.asarray(rel)
    J = dcg_exposure(rel.size, k)[rel > 0]
    return pair_excess(J) if J.size else math.nan


def ifd_mul_user(rel, k):
    """IFD× of one user: mean over ordered pairs of distinct positions of ``(J_a - J_b)^2``,
    :math:`J = r \\cdot e_{DCG}` within the top-k, 0 beyond."""
    rel = np.asarray(rel, float)
    n = rel.size
    J = rel * dcg_exposure(n, k)
    return float(((J[:, None] - J[None, :]) ** 2).sum() / (n * (n - 1)))     # the diagonal adds 0


def relevance_by_rank(ranking_u, grades_u):
    """One user's grades read in the order of their full ranking."""
    return [float(grades_u[i]) for i in ranking_u]


# ============================================================================ Part II, whole runs


def iaa(top_k, grades, corrected):
    """IAA of a run: each user's grades min-max normalised, then :func:`iaa_user`, averaged."""
    top_k, grades = np.asarray(top_k), np.asarray(grades, float)
    m, n = grades.shape
    k = top_k.shape[1]
    total = 0.0
    for u in range(m):
        lo, hi = grades[u].min(), grades[u].max()
        norm = (grades[u] - lo) / (hi - lo) if hi > lo else (grades[u] > 0).astype(float)
        shown = [int(i) for i in top_k[u]]
        ranking = shown + [i for i in range(n) if i not in shown]   # unexposed items: attention 0
        total += iaa_user(relevance_by_rank(ranking, norm), k=k, corrected=corrected)
    return total / m


def impacts(top_k, grades):
    """:math:`\\mathrm{Imp}_i(i') = \\frac1m\\sum_u\\sum_p r_{u,i}\\frac1p X_{u,i',p}` (``n x n``) and
    :math:`\\mathrm{Imp}^{unif}_i = \\frac{1}{mn}\\sum_p \\frac1p \\sum_u r_{u,i}`."""
    top_k, grades = np.asarray(top_k), np.asarray(grades, float)
    m, n = grades.shape
    k = top_k.shape[1]
    inverse = np.zeros((m, n))                                           # X_{u,i',p} / p
    for u in range(m):
        for p in range(k):
            inverse[u, top_k[u, p]] = 1 / (p + 1)
    imp = grades.T @ inverse / m
    unif = grades.sum(axis=0) * sum(1 / p for p in range(1, k + 1)) / (m * n)
    return imp, unif


def exposure_and_target(top_k, grades, gamma=0.8):
    """II-F/AI-F's RBP exposure :math:`E` and target :math:`E^*` as dense ``(m, n)`` matrices."""
    top_k, grades = np.asarray(top_k), np.asarray(grades, float)
    m, n = grades.shape
    k = top_k.shape[1]
    e = np.zeros((m, n))
    target = np.zeros((m, n))
    for u in range(m):
        for p in range(k):
            e[u, top_k[u, p]] = gamma ** p
        size = int((grades[u] > 0).sum())
        if size:
            target[u] = grades[u] / size * (1 - gamma ** size) / (1 - gamma)
    return e, target


def iif_aif(top_k, grades, gamma=0.8):
    """``(II-F, AI-F)`` of a run from :func:`exposure_and_target`."""
    e, target = exposure_and_target(top_k, grades, gamma)
    return ((e - target) ** 2).mean(), ((e.mean(axis=0) - target.mean(axis=0)) ** 2).mean()


def hd(top_k, grades, gamma=0.9):
    """Hellinger distance between the user-averaged relevance and click distributions over the
    positions of each user's ground-truth reference list (ties: lower item index first)."""
    top_k, grades = np.asarray(top_k), np.asarray(grades, float)
    m, n = grades.shape
    k = top_k.shape[1]
    q = np.zeros(k)
    c = np.zeros(k)
    for u in range(m):
        ref = sorted(range(n), key=lambda i: (-grades[u, i], i))[:k]     # stable: lower index first
        share = grades[u] / grades[u].sum()
        for p, i in enumerate(ref):
            q[p] += share[i] / m
        clicks, survive = np.zeros(k), 1.0
        for p in range(k):
            r = grades[u, top_k[u, p]]
            clicks[p] = r * gamma ** (p + 1) * survive
            survive *= 1 - r
        if clicks.sum() > 0:
            clicks /= clicks.sum()
        at_ref = np.array([clicks[list(top_k[u]).index(i)] if i in top_k[u] else 0.0 for i in ref])
        at_ref = np.concatenate([at_ref, np.zeros(k - len(ref))])
        if at_ref.sum() > 0:
            c += at_ref / at_ref.sum() / m
    return math.sqrt(0.5 * ((np.sqrt(q) - np.sqrt(c)) ** 2).sum())


# ============================================================================ relevance measures


def relevance_measures(top, rel_sets, k):
    """HR, MRR, P, R, MAP and NDCG @k (binary relevance; RecBole's conventions), one user at a time."""
    out = {m: [] for m in ("HR", "MRR", "P", "R", "MAP", "NDCG")}
    for row, rel in zip(top, rel_sets):
        rel = set(rel)
        hits = [1 if row[j] in rel else 0 for j in range(k)]
        out["HR"].append(float(any(hits)))
        out["MRR"].append(next((1 / (j + 1) for j in range(k) if hits[j]), 0.0))
        out["P"].append(sum(hits) / k)
        out["R"].append(sum(hits) / len(rel))
        out["MAP"].append(sum(hits[j] * sum(hits[: j + 1]) / (j + 1) for j in range(k)) / min(len(rel), k))
        dcg = sum(hits[j] / math.log2(j + 2) for j in range(k))
        out["NDCG"].append(dcg / sum(1 / math.log2(j + 2) for j in range(min(len(rel), k))))
    return {m: float(np.mean(v)) for m, v in out.items()}


# ============================================================================ re-ranking (Papers 2 and 4)


def fused_rerank(scores, k, k_prime, method, score_only_top=None):
    """Borda count or CombMNZ over each user's top-k' (relevance order x coverage order), per user with
    dictionaries; returns the fused scores and the re-ranked full rankings."""
    m, n = scores.shape
    tops = [sorted(range(n), key=lambda i, u=u: (-scores[u, i], i))[:k_prime] for u in range(m)]
    cov = {}
    for t in tops:
        for pos, i in enumerate(t):
            cov[i] = cov.get(i, 0) + (pos < k)
    cand_scores = [scores[u, i] for u in range(m) for i in tops[u]]
    lo, hi = min(cand_scores), max(cand_scores)
    cands_cov = [cov[i] for t in tops for i in t]
    clo, chi = min(cands_cov), max(cands_cov)
    fused = np.zeros((m, n))
    for u, t in enumerate(tops):
        b = sorted(t, key=lambda i: (cov[i], i))
        for i in t:
            pa, pb = t.index(i), b.index(i)
            if method == "borda":
                fused[u, i] = (k_prime - 1 - pa) + (k_prime - 1 - pb)
                continue
            sa = (scores[u, i] - lo) / (hi - lo) if hi > lo else 0.0
            sb = 1 - ((cov[i] - clo) / (chi - clo) if chi > clo else 0.0)
            if score_only_top is not None:
                sa = sa if pa < score_only_top else 0.0
                sb = sb if pb < score_only_top else 0.0
            fused[u, i] = (sa + sb) * (int(sa != 0) + int(sb != 0))
    fused[np.isneginf(scores)] = -np.inf
    ranking = np.array([sorted(range(n), key=lambda i, u=u: (-fused[u, i], i)) for u in range(m)])
    return fused, ranking


# ============================================================================ Part III (Paper 4)


def oracle2fair_walk(history, relevant, n, k):
    """Every state of Paper 4's Oracle + Oracle2Fair (Algs. 1-2), as plain lists of lists.

    A literal, slow transcription with the deterministic choices that recfair documents (ties to
    the lowest item id or user index; Fixes 1-6 of ``recfair.pareto.oracle2fair``): every choice
    is recomputed from scratch by scanning all users and items, so it shares nothing with the
    library's incremental bookkeeping.
    """
    H = [set(int(i) for i in h) for h in history]
    R = [set(int(i) for i in r) for r in relevant]
    m = len(R)
    rec = [None] * m
    cnt = [0] * n

    def count(items):
        for i in items:
            cnt[i] += 1

    for u in range(m):                                              # |R*_u| = k
        if len(R[u]) == k:
            rec[u] = sorted(R[u])
            count(rec[u])
    for size in sorted({len(r) for r in R if len(r) > k}):          # |R*_u| > k, batch by batch
        batch = [u for u in range(m) if len(R[u]) == size]
        weight = {u: sum(cnt[i] for i in R[u]) for u in batch}
        for u in sorted(batch, key=lambda u: (weight[u], u)):
            rec[u] = sorted(sorted(R[u], key=lambda i: (cnt[i], i))[:k])
            count(rec[u])
    short = [u for u in range(m) if len(R[u]) < k]                  # |R*_u| < k
    for u in short:
        rec[u] = sorted(R[u])
        count(rec[u])
    unexposed = [i for i in range(n) if cnt[i] == 0]
    for u in short:
        for i in list(unexposed):
            if len(rec[u]) == k:
                break
            if i not in H[u]:
                rec[u].append(i)
                cnt[i] += 1
                unexposed.remove(i)
        while len(rec[u]) < k:
            allowed = [i for i in range(n) if cnt[i] > 0 and i not in H[u] | R[u] and i not in rec[u]]
            i = min(allowed, key=lambda i: (cnt[i], i))
            rec[u].append(i)
            cnt[i] += 1
    states = [[list(row) for row in rec]]

    def holders(top):
        return sorted((u for u in range(m) if top in rec[u]), key=lambda u: (-rec[u].index(top), u))

    def receiver(top, i, check_list):
        cand = [u for u in holders(top) if i not in H[u] and not (check_list and i in rec[u])]
        rel = [u for u in cand if i in R[u]]
        return rel[0] if rel else (cand[0] if cand else None)

    def replace(u, top, i):
        rec[u][rec[u].index(top)] = i
        rec[u] = [x for x in rec[u] if x in R[u]] + [x for x in rec[u] if x not in R[u]]
        cnt[top] -= 1
        cnt[i] += 1
        states.append([list(row) for row in rec])

    def most_popular():
        return min(range(n), key=lambda i: (-cnt[i], i))

    broke = False
    for i in unexposed:                                             # phase 1
        top = most_popular()
        if cnt[top] <= 1:
            broke = True
            break
        u = receiver(top, i, False)
        if u is not None:
            replace(u, top, i)
    if not broke:                                                   # phase 2 (for-else)
        stop = math.ceil(k * m / n)
        while cnt[most_popular()] > stop:
            top = most_popular()
            done = False
            for i in sorted(range(n), key=lambda i: (cnt[i], i)):
                if cnt[i] > cnt[top] - 2:
                    break
                u = receiver(top, i, True)
                if u is not None:
                    replace(u, top, i)
                    done = True
                    break
            if not done:
                break
    return states


def pareto_reference_point(points, alpha, lo, hi):
    """Paper 4's reference point over ``points`` (ordered, most relevant first), admissible indices ``lo..hi-1``."""
    length = [0.0]
    for a, b in zip(points, points[1:]):
        length.append(length[-1] + math.dist(a, b))
    target = alpha * length[-1]
    best = min(range(lo, hi), key=lambda j: (abs(length[j] - target), j))
    return tuple(points[best])


def greedy_substitution(scores, k, k_prime, beta=0.05, fraction=0.25):
    """Paper 4's modified Greedy Substitution, literally (thesis Ch. 5 and the authors' code): full rankings.

    Coverage from the original top-k of items in some top-k'; C+ / C- from beta; one min-loss user per
    (i, i') pair; the cheapest round(fraction * m * k) entries applied as swaps in the full ranking.
    """
    scores = np.asarray(scores, dtype=float)
    m, n = scores.shape
    ranking = [sorted(range(n), key=lambda i: (-scores[u, i], i)) for u in range(m)]
    top = [r[:k] for r in ranking]
    cov = {}
    for row in top:
        for i in row:
            cov[i] = cov.get(i, 0) + 1
    items = sorted({i for r in ranking for i in r[:k_prime]})
    values = [cov.get(i, 0) for i in items]
    avg, high = sum(values) / len(values), max(values)
    sup = min(math.floor(avg + beta * high), high)
    inf = sup - beta * high
    plus = [i for i in items if cov.get(i, 0) > sup]
    minus = [i for i in items if cov.get(i, 0) < inf]
    if not plus or not minus:
        rest = [i for i in items if inf <= cov.get(i, 0) <= sup and cov.get(i, 0) != inf]
        if not plus:
            plus = rest
        else:
            minus = rest
    entries = []
    for i in plus:
        for ip in minus:
            best = None
            for u in range(m):
                if i in top[u] and ip not in top[u] and np.isfinite(scores[u, ip]):
                    loss = scores[u, i] - scores[u, ip]
                    if best is None or loss < best[0]:
                        best = (loss, u)
            if best is not None:
                entries.append((best[0], best[1], i, ip))
    entries.sort(key=lambda e: e[0])               # stable: ties keep the (i, i') order
    for _, u, i, ip in entries[:round(fraction * m * k)]:
        p_i, p_ip = ranking[u].index(i), ranking[u].index(ip)
        if p_i >= k:
            continue
        ranking[u][p_i], ranking[u][p_ip] = ip, i
    return np.array(ranking)


# ============================================================================ Part IV (Paper 5)
# Users are 0..m-1; ``hist`` and ``rel`` are lists of item sets, ``top`` a list of lists.


def jaccard_sim(hist):
    """Eq. PUF_eq:jacc, pair by pair (0/0 read as 0)."""
    m = len(hist)
    out = np.zeros((m, m))
    for u in range(m):
        for v in range(m):
            a, b = set(hist[u]), set(hist[v])
            out[u, v] = len(a & b) / len(a | b) if a | b else 0.0
    return out


def cosine_sim(hist):
    """Cosine of the binary history vectors, pair by pair (0 for an empty history)."""
    m = len(hist)
    out = np.zeros((m, m))
    for u in range(m):
        for v in range(m):
            a, b = set(hist[u]), set(hist[v])
            out[u, v] = len(a & b) / math.sqrt(len(a) * len(b)) if a and b else 0.0
    return out


def minmax_pairs(sim):
    """Min-max over the off-diagonal entries (unchanged when they are all equal)."""
    sim = np.array(sim, dtype=float)
    m = len(sim)
    vals = [sim[u, v] for u in range(m) for v in range(m) if u != v]
    lo, hi = min(vals), max(vals)
    return sim if hi == lo else (sim - lo) / (hi - lo)


def puf(scores, sim, printed=False):
    """Eq. PUF (lines 5702-5706): the printed 2/(m(m-1)) over ordered pairs, halved unless ``printed``."""
    m = len(scores)
    total = 0.0
    for u in range(m):
        for v in range(m):
            if u != v:
                total += sim[u][v] * abs(scores[u] - scores[v])
    printed_value = 2.0 / (m * (m - 1)) * total
    return printed_value if printed else printed_value / 2


def sd(scores):
    """Population SD."""
    mean = sum(scores) / len(scores)
    return math.sqrt(sum((x - mean) ** 2 for x in scores) / len(scores))


def gini_users(scores):
    """Sorted-ascending Gini (P6's formula); None when every score is 0."""
    x = sorted(scores)
    n = len(x)
    if sum(x) == 0:
        return None
    return sum((2 * (j + 1) - n - 1) * x[j] for j in range(n)) / (n * sum(x))


def phi(u, list_of_v, rel, k, ideal=False):
    """Corrected utility (Eq. PUF_eq:phi-our) with u's own denominator: |L ∩ R_u| / k (or / min(k, |R_u|))."""
    den = min(k, len(rel[u])) if ideal else k
    return sum(1 for i in list_of_v if i in set(rel[u])) / den if den else 0.0


def envy(u, v, top, rel, k, ideal=False):
    """Eq. PUF_eq:envy."""
    return max(phi(u, top[v], rel, k, ideal) - phi(u, top[u], rel, k, ideal), 0.0)


def mean_envy(top, rel, k, printed=False, ideal=False):
    """ME: the printed 2/(m(m-1)) sum over ordered pairs, halved unless ``printed`` (= mean over ordered pairs)."""
    m = len(top)
    total = sum(envy(u, v, top, rel, k, ideal) for u in range(m) for v in range(m) if v != u)
    value = 2.0 / (m * (m - 1)) * total
    return value if printed else value / 2


def mean_max_envy_users(top, rel, k, ideal=False):
    """MME (Do et al.): mean over users of the max envy over every user."""
    m = len(top)
    return sum(max(envy(u, v, top, rel, k, ideal) for v in range(m)) for u in range(m)) / m


def peu(top, rel, k, eps=0.05, ideal=False):
    """PEU: share of users whose max envy exceeds eps."""
    m = len(top)
    return sum(1 for u in range(m) if max(envy(u, v, top, rel, k, ideal) for v in range(m)) > eps) / m


def uf(top, hist, n_items, sim=None, item_vectors=None):
    """Eqs. PUF_eq:UF and d_L_UF, gamma=1: unordered pairs, t = mean + population SD, log base m(m-1)/2."""
    m, k = len(top), len(top[0])
    sim = jaccard_sim(hist) if sim is None else np.asarray(sim, dtype=float)
    if item_vectors is None:
        item_vectors = np.zeros((n_items, m))
        for u in range(m):
            for i in hist[u]:
                item_vectors[i, u] = 1.0
    vec = np.asarray(item_vectors, dtype=float)

    def d_cos(i, j):
        if i == j:
            return 0.0
        ni, nj = np.linalg.norm(vec[i]), np.linalg.norm(vec[j])
        return 1.0 - (float(vec[i] @ vec[j]) / (ni * nj) if ni > 0 and nj > 0 else 0.0)

    pairs = [(u, v) for u in range(m) for v in range(u + 1, m)]
    vals = [sim[u, v] for u, v in pairs]
    mean = sum(vals) / len(vals)
    t = mean + math.sqrt(sum((x - mean) ** 2 for x in vals) / len(vals))
    total = 0.0
    for u, v in pairs:
        if sim[u, v] >= t:
            d_l = sum(d_cos(i, j) for i in top[u] for j in top[v]) / k ** 2
            total += sim[u, v] * d_l
    return total, (math.log(total) / math.log(len(pairs)) if total > 0 else -math.inf)


# ============================================================================ Part V (Paper 6), user groups
# ``groups`` is a list of lists: the scores of each non-empty group.


def p6_means(groups):
    """:math:`\\bar g_j`."""
    return [sum(g) / len(g) for g in groups]


def p6_min(groups):
    """Mean of the group means <= their linearly interpolated first quartile."""
    m = sorted(p6_means(groups))
    pos = 0.25 * (len(m) - 1)
    lo = math.floor(pos)
    hi = min(lo + 1, len(m) - 1)
    q1 = m[lo] + (m[hi] - m[lo]) * (pos - lo)
    keep = [v for v in m if v <= q1]
    return sum(keep) / len(keep)


def p6_range(groups):
    m = p6_means(groups)
    return max(m) - min(m)


def p6_sd(values):
    """Population standard deviation."""
    mu = sum(values) / len(values)
    return math.sqrt(sum((v - mu) ** 2 for v in values) / len(values))


def p6_sd_group(groups):
    return p6_sd(p6_means(groups))


def p6_mad(groups):
    """Mean of |m_j - m_j'| over the unordered pairs j < j' (twice the printed formula)."""
    m = p6_means(groups)
    pairs = [abs(m[a] - m[b]) for a in range(len(m)) for b in range(a + 1, len(m))]
    return sum(pairs) / len(pairs)


def p6_gini(values):
    """Gini of non-negative values, sorted ascending: sum (2j - N - 1) x_j / (N sum x)."""
    x = sorted(values)
    n = len(x)
    return sum((2 * (j + 1) - n - 1) * x[j] for j in range(n)) / (n * sum(x))


def p6_gini_group(groups):
    return p6_gini(p6_means(groups))


def p6_cv(groups):
    m = p6_means(groups)
    return p6_sd(m) / (sum(m) / len(m))


def p6_fstat(groups):
    """One-way ANOVA F: (V / (N' - 1)) / (U / (N - N'))."""
    n = sum(len(g) for g in groups)
    k = len(groups)
    xbar = sum(sum(g) for g in groups) / n
    m = p6_means(groups)
    v = sum(len(g) * (m[j] - xbar) ** 2 for j, g in enumerate(groups)) / n
    u = sum((x - m[j]) ** 2 for j, g in enumerate(groups) for x in g) / n
    return (v / (k - 1)) / (u / (n - k))


def p6_kl(groups):
    """sum p_j log2(p_j / q_j), p = mean shares, q = size shares; 0 log 0 = 0."""
    m = p6_means(groups)
    n = sum(len(g) for g in groups)
    total = sum(m)
    out = 0.0
    for j, g in enumerate(groups):
        p = m[j] / total
        if p > 0:
            out += p * math.log2(p / (len(g) / n))
    return out


def p6_gce(groups, beta=2.0, lam=0.95, c=1e-4):
    """-1/(beta(1-beta)) [sum p_ref^beta p~_j^(1-beta) - 1], p~ the renormalised smoothed mean shares."""
    m = p6_means(groups)
    total = sum(m)
    hat = [lam * v / total + (1 - lam) * c for v in m]
    s = sum(hat)
    k = len(groups)
    inner = sum((1 / k) ** beta * (h / s) ** (1 - beta) for h in hat)
    return -(inner - 1) / (beta * (1 - beta))


def p6_ede(values, weights, eps=0.5):
    """Weighted power mean of order 1 - eps (the Atkinson equally-distributed equivalent)."""
    w = sum(weights)
    return sum(wi / w * x ** (1 - eps) for x, wi in zip(values, weights)) ** (1 / (1 - eps))


def p6_atk(values, weights=None, eps=0.5):
    """1 - EDE / weighted mean; 0 for all-zero values (the thesis's definition)."""
    weights = [1.0] * len(values) if weights is None else weights
    mean = sum(w * x for x, w in zip(values, weights)) / sum(weights)
    if mean == 0:
        return 0.0
    return 1 - p6_ede(values, weights, eps) / mean


def p6_atk_group(groups, eps=0.5):
    """Atkinson of the group EDEs, weighted by group size (weighted mean too)."""
    return p6_atk([p6_ede(g, [1.0] * len(g), eps) for g in groups], [len(g) for g in groups], eps)


def p6_shares(groups):
    """s_j: each group's share of total effectiveness."""
    total = sum(sum(g) for g in groups)
    return [sum(g) / total for g in groups]


def p6_sd_within(groups):
    return sum(s * p6_sd(g) for s, g in zip(p6_shares(groups), groups))


def p6_gini_within(groups):
    return sum(s * p6_gini(g) for s, g in zip(p6_shares(groups), groups) if s > 0)


def p6_atk_within(groups, eps=0.5):
    if sum(sum(g) for g in groups) == 0:
        return 0.0
    return sum(s * p6_atk(g, None, eps) for s, g in zip(p6_shares(groups), groups) if s > 0)


def p6_atk_ind(values, eps=0.5):
    return p6_atk(list(values), None, eps)


def p6_match_titles(recommended, test, similarity, k=10, threshold=0.75):
    """Greedy title matching in rank order: each recommended title takes the most similar test title
    not matched yet (first on ties) and is a hit when the similarity reaches the threshold."""
    hits = [[False] * k for _ in recommended]
    for u, (rec, tst) in enumerate(zip(recommended, test)):
        free = [True] * len(tst)
        for r, title in enumerate(rec[:k]):
            best, best_j = -1.0, -1
            for j, other in enumerate(tst):
                if free[j]:
                    s = similarity(title, other)
                    if s > best:
                        best, best_j = s, j
            if best_j >= 0 and best >= threshold - 1e-12:
                hits[u][r] = True
                free[best_j] = False
    return np.array(hits, dtype=bool)


# ============================================================================ the displayed formulas
# One transcription per registry formula the book displays, written from the LaTeX shown (kept
# verbatim beside it: ``tests/test_formulas.py`` checks that the record still shows exactly that
# LaTeX, then compares the transcription with the library on random inputs). A ``case`` holds a
# small run: ``top`` (m x k lists), ``rel`` (each user's relevant items, none empty), ``hist``
# (history), ``ranking`` (each user's full ranking, ``top`` first), ``n``, ``k``, ``m``, and
# per-user ``x`` (effectiveness), ``g`` (group labels), ``sim``.

DISPLAYED: dict[str, tuple[str, object]] = {}


def displayed(key, latex):
    """Register ``func`` as the transcription of record ``key``'s displayed formula ``latex``."""
    def register(func):
        DISPLAYED[key] = (latex, func)
        return func
    return register


def _hits(case, u):
    return [1 if i in set(case["rel"][u]) else 0 for i in case["top"][u]]


@displayed("HR", r"\mathrm{HR@}k = \frac{1}{m}\sum_{u\in U}\mathbb{1}\bigl[R^k_u\cap R^*_u\neq\emptyset\bigr]")
def shown_hr(case):
    return sum(bool(set(case["top"][u]) & set(case["rel"][u])) for u in range(case["m"])) / case["m"]


@displayed("MRR", r"\mathrm{MRR@}k = \frac{1}{m}\sum_{u\in U}\frac{1}{\min\{j\le k : r_{u,j}=1\}}")
def shown_mrr(case):
    total = 0.0
    for u in range(case["m"]):
        ranks = [j + 1 for j, r in enumerate(_hits(case, u)) if r]
        total += 1 / min(ranks) if ranks else 0.0
    return total / case["m"]


@displayed("P", r"\mathrm{P@}k = \frac{1}{m}\sum_{u\in U}\frac{|R^k_u\cap R^*_u|}{k}")
def shown_p(case):
    return sum(len(set(case["top"][u]) & set(case["rel"][u])) / case["k"] for u in range(case["m"])) / case["m"]


@displayed("R", r"\mathrm{R@}k = \frac{1}{m}\sum_{u\in U}\frac{|R^k_u\cap R^*_u|}{|R^*_u|}")
def shown_r(case):
    return sum(len(set(case["top"][u]) & set(case["rel"][u])) / len(case["rel"][u])
               for u in range(case["m"])) / case["m"]


@displayed("MAP", r"\mathrm{MAP@}k = \frac{1}{m}\sum_{u\in U}\frac{1}{\min(|R^*_u|,k)}\sum_{j=1}^{k} r_{u,j}\,"
                  r"\mathrm{P@}j(u)")
def shown_map(case):
    total = 0.0
    for u in range(case["m"]):
        r = _hits(case, u)
        total += sum(r[j - 1] * sum(r[:j]) / j for j in range(1, case["k"] + 1)) / min(len(case["rel"][u]), case["k"])
    return total / case["m"]


@displayed("NDCG", r"\mathrm{NDCG@}k = \frac{1}{m}\sum_{u\in U}\frac{\sum_{j=1}^{k} r_{u,j}/\log_2(j+1)}"
                   r"{\sum_{j=1}^{\min(|R^*_u|,k)} 1/\log_2(j+1)}")
def shown_ndcg(case):
    total = 0.0
    for u in range(case["m"]):
        r = _hits(case, u)
        dcg = sum(r[j - 1] / math.log2(j + 1) for j in range(1, case["k"] + 1))
        ideal = sum(1 / math.log2(j + 1) for j in range(1, min(len(case["rel"][u]), case["k"]) + 1))
        total += dcg / ideal
    return total / case["m"]


def _c(case):
    c = [0] * case["n"]
    for row in case["top"]:
        for i in row:
            c[i] += 1
    return c


def _f_r(case):
    km, n = case["k"] * case["m"], case["n"]
    return km // n, km % n


@displayed("Jain_ori", r"\mathrm{Jain}_{\mathrm{ori}} = \frac{(km)^2}{n\sum_{i\in I} c_i^2}")
def shown_jain_ori(case):
    return (case["k"] * case["m"]) ** 2 / (case["n"] * sum(c * c for c in _c(case)))


@displayed("Jain_our", r"\begin{aligned}\mathrm{Jain}_{\mathrm{our}} &= \frac{\mathrm{Jain}_{\mathrm{ori}} - k/n}"
                       r"{\mathrm{Jain}_{\max} - k/n},\\ \mathrm{Jain}_{\max} &= \frac{(km)^2}{n(nf^2 + r(2f+1))}"
                       r"\end{aligned}")
def shown_jain_our(case):
    f, r = _f_r(case)                       # km = fn + r: f the floor, r the remainder
    n, k, m = case["n"], case["k"], case["m"]
    jmax = (k * m) ** 2 / (n * (n * f * f + r * (2 * f + 1)))
    return (shown_jain_ori(case) - k / n) / (jmax - k / n)


@displayed("QF_ori", r"\mathrm{QF}_{\mathrm{ori}} = \frac{|R|}{n}")
def shown_qf_ori(case):
    return sum(c > 0 for c in _c(case)) / case["n"]


@displayed("QF_our", r"\mathrm{QF}_{\mathrm{our}} = \frac{|R| - k}{\min(km, n) - k}")
def shown_qf_our(case):
    shown, k = sum(c > 0 for c in _c(case)), case["k"]
    return (shown - k) / (min(k * case["m"], case["n"]) - k)


@displayed("Ent_ori", r"\begin{aligned}\mathrm{Ent}_{\mathrm{ori}} &= -\sum_{i\in I} p(i)\log_n p(i),\\ p(i) &= "
                      r"\frac{c_i}{km}\end{aligned}")
def shown_ent_ori(case):
    km, n = case["k"] * case["m"], case["n"]
    if min(_c(case)) == 0:
        return math.nan                     # 0 log 0 of an unshown item
    return -sum(c / km * math.log(c / km, n) for c in _c(case))


def _ent(counts, km):
    return -sum(c / km * math.log(c / km) for c in counts if c > 0)


@displayed("Ent_our", r"\begin{aligned}\mathrm{Ent}_{\mathrm{our}} &= \frac{\mathrm{Ent}_{\mathrm{def}} - \log k}"
                      r"{\mathrm{Ent}_{\max} - \log k},\\ \mathrm{Ent}_{\mathrm{def}} &= -\sum_{i\in R} p(i)\log p(i)"
                      r"\end{aligned}")
def shown_ent_our(case):
    km, k = case["k"] * case["m"], case["k"]
    f, r = _f_r(case)
    best = [f + 1] * r + [f] * (case["n"] - r)          # the most even counts reach Ent_max
    return (_ent(_c(case), km) - math.log(k)) / (_ent(best, km) - math.log(k))


def _gini_sorted(values):
    x = sorted(values)
    n = len(x)
    return sum((2 * j - n - 1) * x[j - 1] for j in range(1, n + 1)) / (n * sum(x))


@displayed("Gini_ori", r"\begin{aligned}\mathrm{Gini}_{\mathrm{ori}} &= \frac{\sum_{j=1}^{n}(2j-n-1)\,Ex_j}"
                       r"{n\sum_{j=1}^{n}Ex_j},\\ Ex_j &= \sum_{u\in U}\sum_{w=1}^{W}\mathbb{1}_{R^k_{u,w}}(x_j)"
                       r"\end{aligned}")
def shown_gini_ori(case):
    return _gini_sorted(_c(case))


@displayed("Gini_our", r"\begin{aligned}\mathrm{Gini}_{\mathrm{our}} &= \frac{\mathrm{Gini}_{\mathrm{ori}} - "
                       r"\mathrm{Gini}_{\min}}{1 - k/n - \mathrm{Gini}_{\min}},\\ \mathrm{Gini}_{\min} &= "
                       r"\frac{(n-r)\,r}{kmn}\end{aligned}")
def shown_gini_our(case):
    _, r = _f_r(case)
    n, k, m = case["n"], case["k"], case["m"]
    gmin = (n - r) * r / (k * m * n)
    return (shown_gini_ori(case) - gmin) / (1 - k / n - gmin)


@displayed("Gini-w_ori", r"\begin{aligned}\mathrm{Gini\text{-}w}_{\mathrm{ori}} &= \frac{\sum_{j=1}^{n}(2j-n-1)\,"
                         r"Ex_j}{n\sum_{j=1}^{n}Ex_j},\\ Ex_j &= \sum_{u\in U}\sum_{w=1}^{W}\frac{\mathbb{1}_"
                         r"{R^k_{u,w}}(x_j)}{\log_2(z(u,x_j,w)+1)}\end{aligned}")
def shown_gini_w_ori(case):
    ex = [0.0] * case["n"]
    for row in case["top"]:
        for z, i in enumerate(row, 1):
            ex[i] += 1 / math.log2(z + 1)
    return _gini_sorted(ex)


@displayed("Gini-w_our", r"\begin{aligned}\mathrm{Gini\text{-}w}_{\mathrm{our}} &= \frac{\mathrm{Gini\text{-}w}_"
                         r"{\mathrm{ori}} - \mathrm{Gini\text{-}w}_{\min}}{\mathrm{Gini\text{-}w}_{\max} - \mathrm{Gini"
                         r"\text{-}w}_{\min}},\\ \mathrm{Gini\text{-}w}_{\max} &= 1 - \frac{C_k}{n},\\ \mathrm{Gini"
                         r"\text{-}w}_{\min} &= \begin{cases}1 - \dfrac{mC_k}{n}, & km \le n\\[4pt] 0, & km > n"
                         r"\end{cases},\\ C_k &= \frac{\sum_{\ell=1}^{k}(2\ell-1)\,w_\ell}{\sum_{\ell=1}^{k}w_\ell},"
                         r"\\ w_\ell &= \frac{1}{\log_2(\ell+1)}\end{aligned}")
def shown_gini_w_our(case):
    n, k, m = case["n"], case["k"], case["m"]
    w = [1 / math.log2(ell + 1) for ell in range(1, k + 1)]
    c_k = sum((2 * ell - 1) * w[ell - 1] for ell in range(1, k + 1)) / sum(w)
    g_max = 1 - c_k / n
    g_min = 1 - m * c_k / n if k * m <= n else 0.0
    return (shown_gini_w_ori(case) - g_min) / (g_max - g_min)


@displayed("FSat_ori", r"\mathrm{FSat}_{\mathrm{ori}} = \frac{1}{n}\sum_{i\in I}\delta\Bigl(c_i \ge \Bigl\lfloor"
                       r"\frac{km}{n}\Bigr\rfloor\Bigr)")
def shown_fsat_ori(case):
    f, _ = _f_r(case)
    return sum(c >= f for c in _c(case)) / case["n"]


@displayed("FSat_our", r"\mathrm{FSat}_{\mathrm{our}} = \frac{\mathrm{FSat}_{\mathrm{ori}} - k/n}{1 - k/n}")
def shown_fsat_our(case):
    k, n = case["k"], case["n"]
    return (shown_fsat_ori(case) - k / n) / (1 - k / n)


@displayed("VoCD", r"\mathrm{VoCD} = \frac{1}{|A|}\sum_{(i,i')\in A}\max\Bigl(\frac{|c_i - c_{i'}|}{\max(c_i, c_{i'})}"
                   r" - \beta, 0\Bigr)")
def shown_vocd(case, beta=0.0):
    c = [x for x in _c(case) if x > 0]        # alpha = 2 (the default): every pair of recommended items is in A
    pairs = [(a, b) for j, a in enumerate(c) for b in c[j + 1:]]
    return sum(max(abs(a - b) / max(a, b) - beta, 0) for a, b in pairs) / len(pairs)


def _rbp(case, gamma):
    e = [[0.0] * case["n"] for _ in range(case["m"])]
    for u, row in enumerate(case["top"]):
        for z, i in enumerate(row, 1):
            e[u][i] = gamma ** (z - 1)
    return e


@displayed("II-D", r"\begin{aligned}\mathrm{II\text{-}D} &= \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}(E_{u,i} - "
                   r"\tilde E)^2,\\ E_{u,i} &= \frac{1}{W}\sum_{w=1}^{W}\mathbb{1}_{R^k_{u,w}}(i)\,\gamma^{z(u,i,w)-1},"
                   r"\\ \tilde E &= \frac{1-\gamma^k}{n(1-\gamma)}\end{aligned}")
def shown_iid(case, gamma=0.8):
    n, k, m = case["n"], case["k"], case["m"]
    e, et = _rbp(case, gamma), (1 - gamma ** k) / (n * (1 - gamma))
    return sum((e[u][i] - et) ** 2 for u in range(m) for i in range(n)) / (m * n)


@displayed("AI-D", r"\begin{aligned}\mathrm{AI\text{-}D} &= \frac{1}{n}\sum_{i\in I}\Bigl(\frac{1}{m}\sum_{u\in U}"
                   r"E_{u,i} - \tilde E\Bigr)^2,\\ E_{u,i} &= \frac{1}{W}\sum_{w=1}^{W}\mathbb{1}_{R^k_{u,w}}(i)\,"
                   r"\gamma^{z(u,i,w)-1},\\ \tilde E &= \frac{1-\gamma^k}{n(1-\gamma)}\end{aligned}")
def shown_aid(case, gamma=0.8):
    n, k, m = case["n"], case["k"], case["m"]
    e, et = _rbp(case, gamma), (1 - gamma ** k) / (n * (1 - gamma))
    return sum((sum(e[u][i] for u in range(m)) / m - et) ** 2 for i in range(n)) / n


@displayed("IFD_mul_ori", r"\begin{aligned}\mathrm{IFD}_\times &= \frac1m\sum_{u\in U}\frac{1}{n(n-1)}\sum_{i\in I}"
                          r"\sum_{i'\ne i}D_{u,i,i'}^2 \\ D_{u,i,i'} &= J_\times(u,i) - J_\times(u,i') \\ J_\times(u,i)"
                          r" &= r_{u,i}\,\mathbb{1}_{L_u}(i)\,e_{\mathrm{DCG}}(z(u,i))\end{aligned}")
def shown_ifd_mul(case):
    n, m = case["n"], case["m"]
    total = 0.0
    for u in range(m):
        j = [0.0] * n
        for z, i in enumerate(case["top"][u], 1):
            j[i] = (1.0 if i in set(case["rel"][u]) else 0.0) / math.log2(z + 1)
        total += sum((j[a] - j[b]) ** 2 for a in range(n) for b in range(n) if a != b) / (n * (n - 1))
    return total / m


def _r01(case, u):
    """User ``u``'s relevance r_{u,i} of every item (binary: 1 for the relevant items)."""
    return [1.0 if i in set(case["rel"][u]) else 0.0 for i in range(case["n"])]


def _rank(row, i):
    """z(u, i): the 1-based position of ``i`` in ``row``, None if it is not there."""
    return row.index(i) + 1 if i in row else None


_SHOWN_R_TILDE = (r" \\ \tilde r(u,i) &= \frac{r_{u,i} - \min_{i'} r_{u,i'}}{\max_{i'} r_{u,i'} - "
                  r"\min_{i'} r_{u,i'}} \\ &\bigl(\mathbb{1}[r_{u,i} > 0]\ \text{if } \max = \min\bigr)")


def _r_tilde(case, u):
    r = _r01(case, u)
    lo, hi = min(r), max(r)
    if hi == lo:
        return [1.0 if v > 0 else 0.0 for v in r]
    return [(v - lo) / (hi - lo) for v in r]


@displayed("IAA_ori", r"\begin{aligned}\mathrm{IAA} &= \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}\bigl|a(u,i) - \tilde r(u,i)"
                      r"\bigr| \\ a(u,i) &= \mathbb{1}_{L_u}(i)\,\frac{k-z(u,i)}{k-1}" + _SHOWN_R_TILDE + r"\end{aligned}")
def shown_iaa_ori(case):
    n, k, m = case["n"], case["k"], case["m"]
    total = 0.0
    for u in range(m):
        rt = _r_tilde(case, u)
        for i in range(n):
            z = _rank(case["top"][u], i)
            a = (k - z) / (k - 1) if z else 0.0
            total += abs(a - rt[i])
    return total / (m * n)


def _shown_per_user(symbol, score, one_relevant=False):
    """The LaTeX of a corrected per-user measure, ``score`` the rows defining M(u)."""
    hat_zero = r" \\ \hat M(u) &= 0\ \text{ if } |R^*_u| = 1" if one_relevant else ""
    kept = (r"U' &= \{u : M_{\min}(u) < M_{\max}(u)\} \\ &\quad\cup \{u : |R^*_u| = 1\}" if one_relevant
            else r"U' &= \{u : M_{\min}(u) < M_{\max}(u)\}")
    return (r"\begin{aligned}" + symbol + r" &= \frac{1}{|U'|}\sum_{u\in U'}\hat M(u) \\ \hat M(u) &= \frac{M(u) - "
            r"M_{\min}(u)}{M_{\max}(u) - M_{\min}(u)}" + hat_zero + r" \\ " + score + r" \\ M_{\min}(u) &= "
            r"\min_{L_u} M(u) \\ M_{\max}(u) &= \max_{L_u} M(u) \\ &\text{over all top-}k\text{ lists } L_u "
            r"\\ " + kept + r"\end{aligned}")


def _rescaled_mean(case, score, one_relevant=False):
    """Mean over U' of (M(u) - min M) / (max M - min M), min and max over every list of k distinct items
    of I (brute force); ``score(case, u, L)`` is M(u) when user u is shown the list L."""
    lists = [list(p) for p in itertools.permutations(range(case["n"]), case["k"])]
    kept = []
    for u in range(case["m"]):
        if one_relevant and len(case["rel"][u]) == 1:
            kept.append(0.0)
            continue
        values = [score(case, u, L) for L in lists]
        lo, hi = min(values), max(values)
        if hi - lo > 1e-12:                                 # M_min(u) < M_max(u), up to rounding
            kept.append((score(case, u, case["top"][u]) - lo) / (hi - lo))
    return sum(kept) / len(kept) if kept else math.nan


def _iaa_m(case, u, L):
    k, rt = case["k"], _r_tilde(case, u)
    e = [(k + 1 - _rank(L, i)) / k if i in L else 0.0 for i in range(case["n"])]
    return sum(abs(e[i] - rt[i]) for i in range(case["n"])) / case["n"]


@displayed("IAA_our", _shown_per_user(r"\mathrm{IAA}_{\mathrm{our}}",
                                      r"M(u) &= \frac1n\sum_{i\in I}\bigl|\tilde e(u,i) - \tilde r(u,i)\bigr| \\ "
                                      r"\tilde e(u,i) &= \mathbb{1}_{L_u}(i)\,\frac{k+1-z(u,i)}{k}" + _SHOWN_R_TILDE))
def shown_iaa_our(case):
    return _rescaled_mean(case, _iaa_m)


_SHOWN_PAIRS = (r" \\ H_u &= R^*_u \times R^*_u \\ R^*_u &= \{i\in I : "
                r"r_{u,i} > 0\}")


def _pair_mean(case, u, J):
    """(1/|H_u|) sum over H_u = R*_u x R*_u (ordered, (i, i) included) of max(0, J_i - J_i')."""
    R = case["rel"][u]
    return sum(max(0.0, J[i] - J[j]) for i in R for j in R) / len(R) ** 2


@displayed("IFD_div_ori", r"\begin{aligned}\mathrm{IFD}_\div &= \frac1m\sum_{u\in U}\frac{1}{|H_u|}\sum_{(i,i')\in H_u}"
                          r"d_{i,i'} \\ d_{i,i'} &= \max\{0,\ J_\div(u,i) - J_\div(u,i')\} \\ J_\div(u,i) &= "
                          r"\frac{e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}} \\ z(u,i) &= \text{rank of } i \text{ in all of } "
                          r"I" + _SHOWN_PAIRS + r"\end{aligned}")
def shown_ifd_div_ori(case):
    total = 0.0
    for u in range(case["m"]):
        r = _r01(case, u)
        J = {i: 1 / math.log2(_rank(case["ranking"][u], i) + 1) / r[i] for i in case["rel"][u]}
        total += _pair_mean(case, u, J)
    return total / case["m"]


def _ifd_div_m(case, u, L):
    r = _r01(case, u)
    J = {i: (1 / math.log2(_rank(L, i) + 1) if i in L else 0.0) / r[i] for i in case["rel"][u]}
    return _pair_mean(case, u, J)


@displayed("IFD_div_our", _shown_per_user(r"\mathrm{IFD}_{\div\text{-our}}",
                                          r"M(u) &= \frac{1}{|H_u|}\sum_{(i,i')\in H_u}d_{i,i'} \\ d_{i,i'} &= "
                                          r"\max\{0,\ J(u,i) - J(u,i')\} \\ J(u,i) &= \mathbb{1}_{L_u}(i)\,\frac"
                                          r"{e_{\mathrm{DCG}}(z(u,i))}{r_{u,i}}" + _SHOWN_PAIRS, one_relevant=True))
def shown_ifd_div_our(case):
    return _rescaled_mean(case, _ifd_div_m, one_relevant=True)


def _ifd_mul_m(case, u, L):
    n, r = case["n"], _r01(case, u)
    J = [r[i] * (1 / math.log2(_rank(L, i) + 1) if i in L else 0.0) for i in range(n)]
    return sum((J[a] - J[b]) ** 2 for a in range(n) for b in range(n) if a != b) / (n * (n - 1))


@displayed("IFD_mul_our", _shown_per_user(r"\mathrm{IFD}_{\times\text{-our}}",
                                          r"M(u) &= \frac{1}{n(n-1)}\sum_{i\in I}\sum_{i'\ne i}D_{u,i,i'}^2 \\ "
                                          r"D_{u,i,i'} &= J(u,i) - J(u,i') \\ J(u,i) &= r_{u,i}\,\mathbb{1}_{L_u}(i)"
                                          r"\,e_{\mathrm{DCG}}(z(u,i))"))
def shown_ifd_mul_our(case):
    return _rescaled_mean(case, _ifd_mul_m)


@displayed("HD", r"\begin{aligned}\mathrm{HD} &= \frac{1}{\sqrt2}\sqrt{\sum_{p=1}^{k}\bigl(\sqrt{q'_p} - \sqrt{c'_p}"
                 r"\bigr)^2} \\ q'_p &= \frac1m\sum_{u\in U}\sum_{i\in I}\delta\bigl(z^*(u,i) = p\bigr)\,r'_{u,i} \\ "
                 r"r'_{u,i} &= r_{u,i}\Big/\textstyle\sum_{i'\in I} r_{u,i'} \\ c'_p &= \frac1m\sum_{u\in U}\frac"
                 r"{c^*_{u,p}}{\sum_{\ell=1}^{k}c^*_{u,\ell}} \\ c^*_{u,p} &= \sum_{i\in L_u}\delta\bigl(z^*(u,i) = p"
                 r"\bigr)\,c'_{u,z(u,i)} \\ c'_{u,p} &= \frac{c_{u,p}}{\sum_{\ell=1}^{k}c_{u,\ell}} \\ c_{u,p} &= "
                 r"\gamma^{p}\,\rho_{u,p}\prod_{j<p}(1 - \rho_{u,j}) \\ \rho_{u,p} &= \sum_{i\in L_u}\delta\bigl(z(u,i)"
                 r" = p\bigr)\,r_{u,i} \\ z^*(u,i) &= \text{rank by decreasing } r_{u,i} \\ &\text{ties: "
                 r"lower index first; } 0/0 := 0\end{aligned}")
def shown_hd(case, gamma=0.9):
    n, k, m = case["n"], case["k"], case["m"]

    def ratio(a, b):
        return a / b if b else 0.0                      # 0/0 := 0

    q, c = [0.0] * (k + 1), [0.0] * (k + 1)             # index p = 1..k
    for u in range(m):
        r, L = _r01(case, u), case["top"][u]
        by_relevance = sorted(range(n), key=lambda i: (-r[i], i))
        z_star = {i: by_relevance.index(i) + 1 for i in range(n)}
        for i in range(n):
            if z_star[i] <= k:
                q[z_star[i]] += r[i] / sum(r) / m
        rho = [None] + [r[L[p - 1]] for p in range(1, k + 1)]
        clicks = [None] + [gamma ** p * rho[p] * math.prod(1 - rho[j] for j in range(1, p)) for p in range(1, k + 1)]
        c_user = [None] + [ratio(clicks[p], sum(clicks[1:])) for p in range(1, k + 1)]
        c_star = [None] + [sum(c_user[_rank(L, i)] for i in L if z_star[i] == p) for p in range(1, k + 1)]
        for p in range(1, k + 1):
            c[p] += ratio(c_star[p], sum(c_star[1:])) / m
    return math.sqrt(sum((math.sqrt(q[p]) - math.sqrt(c[p])) ** 2 for p in range(1, k + 1))) / math.sqrt(2)


_SHOWN_IMP = (r" \\ \mathrm{Imp}_i(i') &= \sum_{u\in U}\sum_{p=1}^{k} r_{u,i}\,\frac1p\,X_{u,i',p} \\ "
              r"X_{u,i',p} &= \frac{1}{Wm}\sum_{w=1}^{W}\mathbb{1}\bigl[z(u,i',w) = p\bigr]")
_SHOWN_IMP_UNIF = r" \\ \mathrm{Imp}_i^{unif} &= \frac{1}{mn}\sum_{p=1}^{k}\frac1p\sum_{u\in U}r_{u,i}"


def _imp(case):
    """Imp[i][i'] = sum_u sum_p r_{u,i} (1/p) X_{u,i',p}, X = 1/(W m) per round in which i' is at p (W = 1)."""
    n, m = case["n"], case["m"]
    imp = [[0.0] * n for _ in range(n)]
    for u, row in enumerate(case["top"]):
        for i in case["rel"][u]:
            for p, i2 in enumerate(row, 1):
                imp[i][i2] += 1 / p / m
    return imp


def _imp_unif(case, i):
    n, m, k = case["n"], case["m"], case["k"]
    return sum(1 / p for p in range(1, k + 1)) * sum(i in set(r) for r in case["rel"]) / (m * n)


@displayed("MME", r"\begin{aligned}\mathrm{MME} &= \frac1n\sum_{i\in I}\Bigl\{\max_{i'\in I}\mathrm{Imp}_i(i') - "
                  r"\mathrm{Imp}_i(i)\Bigr\}" + _SHOWN_IMP + r"\end{aligned}")
def shown_mme(case):
    imp = _imp(case)
    return sum(max(imp[i]) - imp[i][i] for i in range(case["n"])) / case["n"]


def _off(case, test):
    imp, n = _imp(case), case["n"]
    if any(_imp_unif(case, i) == 0 for i in range(n)):
        return math.nan                             # an item relevant to no user: 0/0
    return sum(test(imp[i][i] / _imp_unif(case, i)) for i in range(n)) / n


@displayed("IBO_ori", r"\begin{aligned}\mathrm{IBO} &= \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}"
                      r"{\mathrm{Imp}_i^{unif}} \ge 1.1\Bigr)" + _SHOWN_IMP + _SHOWN_IMP_UNIF + r"\end{aligned}")
def shown_ibo(case):
    return _off(case, lambda ratio: ratio >= 1.1)


@displayed("IWO_ori", r"\begin{aligned}\mathrm{IWO} &= \frac1n\sum_{i\in I}\delta\Bigl(\frac{\mathrm{Imp}_i(i)}"
                      r"{\mathrm{Imp}_i^{unif}} \le 0.9\Bigr)" + _SHOWN_IMP + _SHOWN_IMP_UNIF + r"\end{aligned}")
def shown_iwo(case):
    return _off(case, lambda ratio: ratio <= 0.9)


_SHOWN_I_MINUS = r" \\ I^- &= \{i : \textstyle\sum_{u\in U} r_{u,i} > 0\}"


def _off_relevant(case, test):
    """Share of I^- (items relevant to some user) for which test(Imp_i(i), Imp_i^unif) holds."""
    imp = _imp(case)
    i_minus = [i for i in range(case["n"]) if any(i in set(r) for r in case["rel"])]
    return sum(test(imp[i][i], _imp_unif(case, i)) for i in i_minus) / len(i_minus)


@displayed("IBO_our", r"\begin{aligned}\mathrm{IBO} &= \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i) \\ &\qquad \ge "
                      r"1.1\,\mathrm{Imp}_i^{unif}\bigr)" + _SHOWN_I_MINUS + _SHOWN_IMP + _SHOWN_IMP_UNIF
                      + r"\end{aligned}")
def shown_ibo_our(case):
    return _off_relevant(case, lambda own, unif: own >= 1.1 * unif)


@displayed("IWO_our", r"\begin{aligned}\mathrm{IWO} &= \frac{1}{|I^-|}\sum_{i\in I^-}\delta\bigl(\mathrm{Imp}_i(i) \\ &\qquad \le "
                      r"0.9\,\mathrm{Imp}_i^{unif}\bigr)" + _SHOWN_I_MINUS + _SHOWN_IMP + _SHOWN_IMP_UNIF
                      + r"\end{aligned}")
def shown_iwo_our(case):
    return _off_relevant(case, lambda own, unif: own <= 0.9 * unif)


def _e_star(case, gamma):
    e = [[0.0] * case["n"] for _ in range(case["m"])]
    for u in range(case["m"]):
        size = len(case["rel"][u])
        for i in case["rel"][u]:
            e[u][i] = 1 / size * (1 - gamma ** size) / (1 - gamma)
    return e


@displayed("II-F_ori", r"\begin{aligned}\mathrm{II\text{-}F} &= \frac{1}{mn}\sum_{u\in U}\sum_{i\in I}(E_{u,i} - "
                       r"E^*_{u,i})^2 \\ E_{u,i} &= \mathbb{1}_{L_u}(i)\,\gamma^{z(u,i)-1} \\ E^*_{u,i} &= "
                       r"\frac{r_{u,i}}{|R^*_u|}\,\frac{1-\gamma^{|R^*_u|}}{1-\gamma}\end{aligned}")
def shown_iif(case, gamma=0.8):
    n, m = case["n"], case["m"]
    e, es = _rbp(case, gamma), _e_star(case, gamma)
    return sum((e[u][i] - es[u][i]) ** 2 for u in range(m) for i in range(n)) / (m * n)


def _iif_m(case, u, L, gamma=0.8):
    n, R = case["n"], case["rel"][u]
    total = 0.0
    for i in range(n):
        e = gamma ** (_rank(L, i) - 1) if i in L else 0.0
        target = (1.0 if i in R else 0.0) / len(R) * (1 - gamma ** len(R)) / (1 - gamma)
        total += (e - target) ** 2
    return total / n


@displayed("II-F_our", _shown_per_user(r"\mathrm{II\text{-}F}_{\mathrm{our}}",
                                       r"M(u) &= \frac1n\sum_{i\in I}(E_{u,i} - E^*_{u,i})^2 \\ E_{u,i} &= "
                                       r"\mathbb{1}_{L_u}(i)\,\gamma^{z(u,i)-1} \\ E^*_{u,i} &= \frac{r_{u,i}}"
                                       r"{|R^*_u|}\,\frac{1-\gamma^{|R^*_u|}}{1-\gamma}"))
def shown_iif_our(case):
    return _rescaled_mean(case, _iif_m)


@displayed("AI-F", r"\begin{aligned}\mathrm{AI\text{-}F} &= \frac1n\sum_{i\in I}\bigl(\bar E_i - \bar E^*_i\bigr)^2 "
                   r"\\ \bar E_i &= \frac1m\sum_{u\in U}E_{u,i},\quad \bar E^*_i = \frac1m\sum_{u\in U}E^*_{u,i} \\ "
                   r"E_{u,i} &= \mathbb{1}_{L_u}(i)\,\gamma^{z(u,i)-1} \\ E^*_{u,i} &= \frac{r_{u,i}}{|R^*_u|}\,"
                   r"\frac{1-\gamma^{|R^*_u|}}{1-\gamma}\end{aligned}")
def shown_aif(case, gamma=0.8):
    n, m = case["n"], case["m"]
    e, es = _rbp(case, gamma), _e_star(case, gamma)
    return sum((sum(e[u][i] for u in range(m)) / m - sum(es[u][i] for u in range(m)) / m) ** 2
               for i in range(n)) / n


# ---- Part IV (Paper 5)

@displayed("PUF", r"\mathrm{PUF} = \frac{1}{m(m-1)} \sum_{u \in U} \sum_{u' \in U,\, u' \ne u} \mathrm{sim}(u, u')\,"
                  r"\lvert S(u) - S(u') \rvert")
def shown_puf(case):
    x, s, m = case["x"], case["sim"], case["m"]
    return sum(s[u][v] * abs(x[u] - x[v]) for u in range(m) for v in range(m) if v != u) / (m * (m - 1))


@displayed("SD_ind", r"\mathrm{SD} = \sqrt{\tfrac1m \textstyle\sum_{u \in U} (S(u) - \bar S)^2}")
def shown_sd_ind(case):
    x = case["x"]
    mean = sum(x) / len(x)
    return math.sqrt(sum((v - mean) ** 2 for v in x) / len(x))


@displayed("Gini_ind", r"\mathrm{Gini} = \frac{\sum_{j=1}^m (2j - m - 1) x_{(j)}}{m \sum_{j=1}^m x_{(j)}}")
def shown_gini_ind(case):
    return _gini_sorted(case["x"])


_SHOWN_ENVY = (r"\mathrm{envy}(u, u') = \max\{\phi_u(L_{u'}) - \phi_u(L_u), 0\},\ \phi_u(L_{u'}) = "
               r"\frac{|L_{u'} \cap R_u|}{k}")


def _envy(case, u, v):
    phi = lambda a, b: len(set(case["top"][b]) & set(case["rel"][a])) / case["k"]    # noqa: E731
    return max(phi(u, v) - phi(u, u), 0)


@displayed("ME_user", r"\mathrm{ME} = \frac{1}{m(m-1)} \sum_{u} \sum_{u' \ne u} \mathrm{envy}(u, u'),\quad "
                      + _SHOWN_ENVY)
def shown_me_user(case):
    m = case["m"]
    return sum(_envy(case, u, v) for u in range(m) for v in range(m) if v != u) / (m * (m - 1))


@displayed("MME_user", r"\mathrm{MME}_{user} = \frac1m \sum_{u} \max_{u'} \mathrm{envy}(u, u'),\quad " + _SHOWN_ENVY)
def shown_mme_user(case):
    m = case["m"]
    return sum(max(_envy(case, u, v) for v in range(m)) for u in range(m)) / m


@displayed("PEU", r"\mathrm{PEU} = \frac1m \sum_{u} \mathbb 1\bigl[\max_{u'} \mathrm{envy}(u, u') > \varepsilon\bigr],"
                  r"\quad " + _SHOWN_ENVY)
def shown_peu(case, epsilon=0.05):
    m = case["m"]
    return sum(max(_envy(case, u, v) for v in range(m)) > epsilon for u in range(m)) / m


@displayed("UF", r"\mathrm{UF} = \log_{\binom m2} \sum_{(u, u') \in U^*} \mathrm{sim}_{UF}(u, u')\, d_L(u, u')")
def shown_uf(case):
    """sim_UF: Jaccard of the histories (gamma = 1); U*: the pairs at or above mean + population SD of sim_UF;
    d_L: mean over the k x k item pairs of 1 - cosine of the items' history columns (as ``recfair.uf`` states)."""
    m, n, k = case["m"], case["n"], case["k"]
    h = [set(r) for r in case["hist"]]
    pairs = [(u, v) for u in range(m) for v in range(u + 1, m)]
    sim = {(u, v): (len(h[u] & h[v]) / len(h[u] | h[v]) if h[u] | h[v] else 0.0) for u, v in pairs}
    mean = sum(sim.values()) / len(pairs)
    t = mean + math.sqrt(sum((s - mean) ** 2 for s in sim.values()) / len(pairs))
    col = [[1.0 if i in h[u] else 0.0 for u in range(m)] for i in range(n)]

    def cos(a, b):
        na, nb = math.sqrt(sum(v * v for v in col[a])), math.sqrt(sum(v * v for v in col[b]))
        if a == b:
            return 1.0
        return sum(p * q for p, q in zip(col[a], col[b])) / (na * nb) if na and nb else 0.0

    total = 0.0
    for u, v in pairs:
        if sim[(u, v)] >= t and sim[(u, v)] > 0:
            d = sum(1 - cos(i, j) for i in case["top"][u] for j in case["top"][v]) / k ** 2
            total += sim[(u, v)] * d
    return math.log(total) / math.log(m * (m - 1) / 2) if total > 0 else -math.inf


# ---- Part V (Paper 6)

def _groups(case):
    out = {}
    for value, label in zip(case["x"], case["g"]):
        out.setdefault(label, []).append(value)
    return list(out.values())


def _gm(case):
    return [sum(g) / len(g) for g in _groups(case)]


_SHOWN_MEANS = r"\bar g_j = \tfrac{1}{|G_j|}\textstyle\sum_{u \in G_j} S(u)"


@displayed("Min_group", r"\mathrm{Min} = \operatorname{mean}\{\bar g_j : \bar g_j \le Q_{1/4}(\bar g)\},\quad "
                        + _SHOWN_MEANS)
def shown_min_group(case):
    gm = sorted(_gm(case))
    pos = 0.25 * (len(gm) - 1)                 # the linearly interpolated quartile
    lo = int(math.floor(pos))
    q = gm[lo] + (gm[min(lo + 1, len(gm) - 1)] - gm[lo]) * (pos - lo)
    chosen = [v for v in gm if v <= q]
    return sum(chosen) / len(chosen)


@displayed("Range_group", r"\mathrm{Range} = \max_j \bar g_j - \min_j \bar g_j,\quad " + _SHOWN_MEANS)
def shown_range_group(case):
    return max(_gm(case)) - min(_gm(case))


def _sd(values):
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values))


@displayed("SD_group", r"\mathrm{SD} = \sqrt{\tfrac{1}{N'}\textstyle\sum_j (\bar g_j - \bar{\bar g})^2}")
def shown_sd_group(case):
    return _sd(_gm(case))


@displayed("MAD_group", r"\mathrm{MAD} = \binom{N'}{2}^{-1} \textstyle\sum_{j < l} \lvert \bar g_j - \bar g_l \rvert")
def shown_mad_group(case):
    gm = _gm(case)
    pairs = [(a, b) for j, a in enumerate(gm) for b in gm[j + 1:]]
    return sum(abs(a - b) for a, b in pairs) / math.comb(len(gm), 2)


@displayed("Gini_group", r"\mathrm{Gini} = \frac{\sum_{j=1}^{N'} (2j - N' - 1)\, \bar g_{(j)}}{N' \sum_j \bar g_j}")
def shown_gini_group(case):
    return _gini_sorted(_gm(case))


@displayed("CV_group", r"\mathrm{CV} = \mathrm{SD}(\bar g) / \operatorname{mean}(\bar g)")
def shown_cv_group(case):
    gm = _gm(case)
    return _sd(gm) / (sum(gm) / len(gm))


@displayed("FStat_group", r"F = \frac{\sum_j |G_j| (\bar g_j - \bar S)^2 / (N' - 1)}"
                          r"{\sum_j \sum_{u \in G_j} (S(u) - \bar g_j)^2 / (m - N')}")
def shown_fstat_group(case):
    groups, x = _groups(case), case["x"]
    mean, n_groups = sum(x) / len(x), len(groups)
    between = sum(len(g) * (sum(g) / len(g) - mean) ** 2 for g in groups) / (n_groups - 1)
    within = sum((v - sum(g) / len(g)) ** 2 for g in groups for v in g) / (len(x) - n_groups)
    return between / within


@displayed("KL_group", r"\mathrm{KL} = \textstyle\sum_j p_j \log_2 \frac{p_j}{q_j},\ p_j = \frac{\bar g_j}"
                       r"{\sum_l \bar g_l},\ q_j = \frac{|G_j|}{m}")
def shown_kl_group(case):
    groups, gm = _groups(case), _gm(case)
    p = [v / sum(gm) for v in gm]
    q = [len(g) / case["m"] for g in groups]
    return sum(a * math.log2(a / b) for a, b in zip(p, q) if a > 0)


@displayed("GCE_group", r"\mathrm{GCE} = \frac{1 - \sum_{j=1}^{N'} p_f^{\beta}\,\tilde p_j^{\,1-\beta}}{\beta(1-\beta)},"
                        r"\ p_f = \frac{1}{N'},\ \tilde p_j = \frac{\lambda p_j + (1-\lambda) c}{\sum_l (\lambda p_l + "
                        r"(1-\lambda) c)},\ p_j = \frac{\bar g_j}{\sum_l \bar g_l}")
def shown_gce_group(case, beta=2.0, lam=0.95, c=1e-4):
    gm = _gm(case)
    p = [v / sum(gm) for v in gm]
    hat = [lam * v + (1 - lam) * c for v in p]
    tilde = [v / sum(hat) for v in hat]
    pf = 1 / len(gm)
    return (1 - sum(pf ** beta * t ** (1 - beta) for t in tilde)) / (beta * (1 - beta))


def _ede(values, eps):
    return (sum(v ** (1 - eps) for v in values) / len(values)) ** (1 / (1 - eps))


@displayed("Atk_group", r"\mathrm{Atk}_{\mathrm{group}} = 1 - \frac{M_{1-\varepsilon}(\xi)}{M_1(\xi)},"
                        r"\ M_r(\xi) = \Bigl(\textstyle\sum_j \frac{|G_j|}{m} \xi_j^{\,r}\Bigr)^{1/r},"
                        r"\ \xi_j = \Bigl(\tfrac{1}{|G_j|}\textstyle\sum_{u \in G_j} S(u)^{1-\varepsilon}\Bigr)"
                        r"^{1/(1-\varepsilon)}")
def shown_atk_group(case, eps=0.5):
    groups, m = _groups(case), case["m"]
    xi = [_ede(g, eps) for g in groups]

    def power_mean(r):
        return sum(len(g) / m * v ** r for g, v in zip(groups, xi)) ** (1 / r)

    return 1 - power_mean(1 - eps) / power_mean(1)


def _weights(case):
    return [sum(g) / sum(case["x"]) for g in _groups(case)]


@displayed("SD_within", r"\mathrm{SD}_{\mathrm{within}} = \textstyle\sum_j w_j\, \mathrm{SD}(G_j),"
                        r"\ w_j = \frac{\sum_{u \in G_j} S(u)}{\sum_u S(u)}")
def shown_sd_within(case):
    return sum(w * _sd(g) for w, g in zip(_weights(case), _groups(case)))


@displayed("Gini_within", r"\mathrm{Gini}_{\mathrm{within}} = \textstyle\sum_j w_j\, \mathrm{Gini}(G_j),"
                          r"\ w_j = \frac{\sum_{u \in G_j} S(u)}{\sum_u S(u)}")
def shown_gini_within(case):
    return sum(w * _gini_sorted(g) for w, g in zip(_weights(case), _groups(case)) if sum(g) > 0)


def _atk(values, eps=0.5):
    return 1 - _ede(values, eps) / (sum(values) / len(values))


@displayed("Atk_within", r"\mathrm{Atk}_{\mathrm{within}} = \textstyle\sum_j w_j\, \mathrm{Atk}(G_j),"
                         r"\ w_j = \frac{\sum_{u \in G_j} S(u)}{\sum_u S(u)}")
def shown_atk_within(case):
    return sum(w * _atk(g) for w, g in zip(_weights(case), _groups(case)) if sum(g) > 0)


@displayed("Atk_ind", r"\mathrm{Atk}_{\mathrm{ind}} = 1 - \frac{\bigl(\frac1m \sum_u S(u)^{1-\varepsilon}\bigr)"
                      r"^{1/(1-\varepsilon)}}{\bar S}")
def shown_atk_ind(case, eps=0.5):
    return _atk(case["x"], eps)


@displayed("DPFR", r"\mathrm{DPFR}_\alpha = d_E\bigl((\mathrm{Rel}, \mathrm{Fair}),\, s_\alpha\bigr),"
                   r"\quad s_\alpha = x^{t'},\\ t' = \operatorname*{argmin}_{j}\,\bigl|\mathrm{lenPF}(T^j) - "
                   r"\alpha\,\mathrm{lenPF}(P)\bigr|")
def shown_dpfr(rel_score, fair_score, points, alpha=0.5):
    """``points``: the frontier P, from the most relevant end; lenPF(T^j) the polyline length up to x^j."""
    lengths = [0.0]
    for a, b in zip(points, points[1:]):
        lengths.append(lengths[-1] + math.dist(a, b))
    t = min(range(len(points)), key=lambda j: abs(lengths[j] - alpha * lengths[-1]))
    return math.dist((rel_score, fair_score), points[t])


# ---- Part VI (recfair.field): a case adds ``ig`` (each item's group label), ``ug`` (each user's group
# label) and ``features`` (items x genres, every item with a genre).

def _phi(case):
    """phi(i): the number of users with item i in their history."""
    return [sum(1 for h in case["hist"] if i in h) for i in range(case["n"])]


def _head(case):
    """The most popular items, ties by index, taken until they hold 80 % of the history."""
    phi = _phi(case)
    order = sorted(range(case["n"]), key=lambda i: (-phi[i], i))
    head, covered = set(), 0
    for i in order:
        if covered >= 0.8 * sum(phi):
            break
        head.add(i)
        covered += phi[i]
    return head


def _item_sets(case):
    return [{i for i in range(case["n"]) if case["ig"][i] == label} for label in sorted(set(case["ig"]))]


def _rate(case, group, *, relevant):
    if relevant:
        num = sum(len(set(case["top"][u]) & group & set(case["rel"][u])) for u in range(case["m"]))
        den = sum(len(group & set(case["rel"][u])) for u in range(case["m"]))
    else:
        num = sum(len(set(case["top"][u]) & group) for u in range(case["m"]))
        den = sum(len(group - set(case["hist"][u])) for u in range(case["m"]))
    return num / den


def _cv(values):
    mean = sum(values) / len(values)
    return math.sqrt(sum((v - mean) ** 2 for v in values) / len(values)) / mean


def _ndcg_user(case, u):
    rel = set(case["rel"][u])
    dcg = sum(1 / math.log2(j + 2) for j, i in enumerate(case["top"][u]) if i in rel)
    ideal = sum(1 / math.log2(j + 2) for j in range(min(len(rel), case["k"])))
    return dcg / ideal


def _eps(case, u, gamma):
    return [sum(gamma ** j for j, i in enumerate(case["top"][u]) if i in g) for g in _item_sets(case)]


def _eps_star(case, u, gamma):
    rel, hist, n, k = set(case["rel"][u]), set(case["hist"][u]), case["n"], case["k"]
    top = sum(gamma ** (j - 1) for j in range(1, min(len(rel), k) + 1)) / len(rel)
    rest = sum(gamma ** (j - 1) for j in range(len(rel) + 1, k + 1)) / (n - len(rel) - len(hist))
    return [sum(top if i in rel else (0.0 if i in hist else rest) for i in g) for g in _item_sets(case)]


@displayed('ARP', '\\mathrm{ARP} = \\frac{1}{m} \\sum_u \\frac{1}{k} \\sum_{i \\in L_u} \\phi(i),\\quad \\phi(i) '
                '= |\\{u : i \\in H_u\\}|')
def shown_arp(case):
    phi = _phi(case)
    return sum(sum(phi[i] for i in case["top"][u]) / case["k"] for u in range(case["m"])) / case["m"]


@displayed('APLT', '\\mathrm{APLT} = \\frac{1}{m} \\sum_u \\frac{|L_u \\setminus \\Phi|}{k},\\quad \\Phi = \\text{the '
                'most popular items (ties by index)},\\ \\text{taken until } \\textstyle\\sum_{i \\in '
                '\\Phi} \\phi(i) \\ge 0.8 \\sum_i \\phi(i)')
def shown_aplt(case):
    head = _head(case)
    return sum(len(set(case["top"][u]) - head) / case["k"] for u in range(case["m"])) / case["m"]


@displayed('ACLT', '\\mathrm{ACLT} = \\frac{1}{m} \\sum_u |L_u \\setminus \\Phi|,\\quad \\Phi = \\text{the most '
                'popular items (ties by index)},\\ \\text{taken until } \\textstyle\\sum_{i \\in \\Phi} '
                '\\phi(i) \\ge 0.8 \\sum_i \\phi(i)')
def shown_aclt(case):
    head = _head(case)
    return sum(len(set(case["top"][u]) - head) for u in range(case["m"])) / case["m"]


@displayed('PopRSP', '\\mathrm{PopRSP} = \\frac{\\operatorname{std}(P_\\Phi, P_{\\sim\\Phi})}{\\operatorname{mean}(P_\\Phi, '
                'P_{\\sim\\Phi})},\\ P_G = \\frac{\\sum_u |L_u \\cap G|}{\\sum_u |G \\setminus H_u|}')
def shown_pop_rsp(case):
    head = _head(case)
    return _cv([_rate(case, g, relevant=False) for g in (head, set(range(case["n"])) - head)])


@displayed('PopREO', '\\mathrm{PopREO} = \\frac{\\operatorname{std}(P_\\Phi, P_{\\sim\\Phi})}{\\operatorname{mean}(P_\\Phi, '
                'P_{\\sim\\Phi})},\\ P_G = \\frac{\\sum_u |L_u \\cap G \\cap R_u|}{\\sum_u |G \\cap R_u|}')
def shown_pop_reo(case):
    head = _head(case)
    return _cv([_rate(case, g, relevant=True) for g in (head, set(range(case["n"])) - head)])


@displayed('RSP', '\\mathrm{RSP} = \\frac{\\operatorname{std}_g P_g}{\\operatorname{mean}_g P_g},\\ P_g '
                '= \\frac{\\sum_u |L_u \\cap G_g|}{\\sum_u |G_g \\setminus H_u|}')
def shown_rsp(case):
    return _cv([_rate(case, g, relevant=False) for g in _item_sets(case)])


@displayed('REO', '\\mathrm{REO} = \\frac{\\operatorname{std}_g P_g}{\\operatorname{mean}_g P_g},\\ P_g '
                '= \\frac{\\sum_u |L_u \\cap G_g \\cap R_u|}{\\sum_u |G_g \\cap R_u|}')
def shown_reo(case):
    return _cv([_rate(case, g, relevant=True) for g in _item_sets(case)])


@displayed('BD', '\\mathrm{BD} = \\operatorname{mean}_{(V, g) : B_H(V, g) > 0} \\Bigl|\\frac{B_L(V, g) '
                '- B_H(V, g)}{B_H(V, g)}\\Bigr|,\\ B_X(V, g) = \\frac{\\sum_{u \\in V} |X_u \\cap G_g| '
                '/ \\sum_{u \\in V} |X_u|}{|G_g| / n}')
def shown_bd(case):
    n, out = case["n"], []
    for v in sorted(set(case["ug"])):
        users = [u for u in range(case["m"]) if case["ug"][u] == v]
        for g in _item_sets(case):
            def bias(lists):
                share = sum(len(set(lists[u]) & g) for u in users) / sum(len(lists[u]) for u in users)
                return share / (len(g) / n)
            b_h, b_l = bias(case["hist"]), bias(case["top"])
            if b_h > 0:
                out.append(abs((b_l - b_h) / b_h))
    return sum(out) / len(out)


@displayed('ItemMAD', '\\mathrm{ItemMAD} = \\binom{N}{2}^{-1} \\sum_{g < h} |A_g - A_h|,\\ A_g = \\operatorname{mean}_{i '
                '\\in G_g,\\, c_i > 0} \\frac{\\sum_{u : i \\in L_u} (2^{r_{u,i}} - 1)}{c_i}')
def shown_item_mad(case):
    a = []
    for g in _item_sets(case):
        means = []
        for i in sorted(g):
            shown = [u for u in range(case["m"]) if i in case["top"][u]]
            if shown:
                means.append(sum(2 ** (1 if i in case["rel"][u] else 0) - 1 for u in shown) / len(shown))
        a.append(sum(means) / len(means))
    pairs = [abs(x - y) for j, x in enumerate(a) for y in a[j + 1:]]
    return sum(pairs) / math.comb(len(a), 2)


@displayed('UserMAD', '\\mathrm{UserMAD} = \\binom{N}{2}^{-1} \\sum_{g < h} |\\bar S_g - \\bar S_h|,\\ \\bar S_g '
                '= \\operatorname{mean}_{u \\in V_g} \\mathrm{NDCG}(u)')
def shown_user_mad(case):
    s = [_ndcg_user(case, u) for u in range(case["m"])]
    means = []
    for v in sorted(set(case["ug"])):
        vals = [s[u] for u in range(case["m"]) if case["ug"][u] == v]
        means.append(sum(vals) / len(vals))
    pairs = [abs(x - y) for j, x in enumerate(means) for y in means[j + 1:]]
    return sum(pairs) / math.comb(len(means), 2)


@displayed('NDKL', '\\mathrm{NDKL} = \\frac{1}{m} \\sum_u \\frac{1}{Z} \\sum_{i=1}^{k} \\frac{\\mathrm{KL}(D_{u,i} '
                '\\,\\|\\, p^*)}{\\log_2(i+1)},\\ Z = \\sum_{i=1}^{k} \\frac{1}{\\log_2(i+1)},\\ p^*_g = \\frac{|G_g|}{n}')
def shown_ndkl(case):
    sets, n, k = _item_sets(case), case["n"], case["k"]
    p_star = [len(g) / n for g in sets]
    z = sum(1 / math.log2(i + 1) for i in range(1, k + 1))
    total = 0.0
    for u in range(case["m"]):
        acc = 0.0
        for i in range(1, k + 1):
            d = [sum(1 for item in case["top"][u][:i] if item in g) / i for g in sets]
            acc += sum(a * math.log(a / b) for a, b in zip(d, p_star) if a > 0) / math.log2(i + 1)
        total += acc / z
    return total / case["m"]


@displayed('ExpRatio', '\\mathrm{ExpRatio} = \\frac{\\min_g E_g}{\\max_g E_g},\\ E_g = \\frac{1}{|G_g|} \\sum_u '
                '\\sum_{j=1}^{k} \\frac{[L_u(j) \\in G_g]}{\\log_2(j+1)}')
def shown_exp_ratio(case):
    e = [sum(1 / math.log2(j + 2) for u in range(case["m"]) for j, i in enumerate(case["top"][u]) if i in g) / len(g)
         for g in _item_sets(case)]
    return min(e) / max(e)


@displayed('MMF', '\\mathrm{MMF} = \\frac{\\sum_{g \\le \\lfloor N/2 \\rfloor} U_{(g)}}{\\sum_g U_g},\\ U_g '
                '= \\sum_u \\sum_{j=1}^{k} \\frac{[L_u(j) \\in G_g]}{\\log_2(j+1)}')
def shown_mmf(case):
    u_g = sorted(sum(1 / math.log2(j + 2) for u in range(case["m"]) for j, i in enumerate(case["top"][u]) if i in g)
                 for g in _item_sets(case))
    return sum(u_g[:len(u_g) // 2]) / sum(u_g)


@displayed('UGF', '\\mathrm{UGF} = \\bigl|\\operatorname{mean}_{u \\in A} \\mathrm{NDCG}(u) - \\operatorname{mean}_{u '
                '\\notin A} \\mathrm{NDCG}(u)\\bigr|,\\ A = \\text{the } \\lceil 0.05\\, m \\rceil \\text{ '
                'users with most history items}')
def shown_ugf(case):
    m = case["m"]
    order = sorted(range(m), key=lambda u: (-len(case["hist"][u]), u))
    a = set(order[:math.ceil(0.05 * m)])
    s = [_ndcg_user(case, u) for u in range(m)]
    inside = [s[u] for u in range(m) if u in a]
    outside = [s[u] for u in range(m) if u not in a]
    return abs(sum(inside) / len(inside) - sum(outside) / len(outside))


@displayed('C_KL', 'C_{KL} = \\frac{1}{m} \\sum_u \\sum_g p_{u,g} \\ln \\frac{p_{u,g}}{(1-\\alpha)\\, q_{u,g} '
                '+ \\alpha\\, p_{u,g}},\\ p_{u} = \\operatorname{mean}_{i \\in H_u} \\pi_i,\\ q_{u} = \\operatorname{mean}_{i '
                '\\in L_u} \\pi_i,\\ \\pi_{i,g} = \\frac{F_{i,g}}{\\sum_h F_{i,h}}')
def shown_c_kl(case, alpha=0.01):
    f = case["features"]
    pi = [[v / sum(row) for v in row] for row in f]
    total = 0.0
    for u in range(case["m"]):
        p = [sum(pi[i][g] for i in case["hist"][u]) / len(case["hist"][u]) for g in range(len(f[0]))]
        q = [sum(pi[i][g] for i in case["top"][u]) / len(case["top"][u]) for g in range(len(f[0]))]
        total += sum(a * math.log(a / ((1 - alpha) * b + alpha * a)) for a, b in zip(p, q) if a > 0)
    return total / case["m"]


@displayed('AWRF', '\\mathrm{AWRF} = \\frac{1}{m} \\sum_u \\bigl(1 - \\mathrm{JSD}_2(a_u, p^*)\\bigr),\\ a_{u,g} '
                '\\propto \\sum_{j=1}^{k} \\frac{[L_u(j) \\in G_g]}{\\log_2(j+1)},\\ p^*_g = \\frac{|G_g|}{n}')
def shown_awrf(case):
    sets, n = _item_sets(case), case["n"]
    p_star = [len(g) / n for g in sets]
    total = 0.0
    for u in range(case["m"]):
        att = [sum(1 / math.log2(j + 2) for j, i in enumerate(case["top"][u]) if i in g) for g in sets]
        a = [x / sum(att) for x in att]
        mid = [(x + y) / 2 for x, y in zip(a, p_star)]
        jsd = (sum(x * math.log2(x / y) for x, y in zip(a, mid) if x > 0)
               + sum(x * math.log2(x / y) for x, y in zip(p_star, mid) if x > 0)) / 2
        total += 1 - jsd
    return total / case["m"]


@displayed('EE-L', '\\text{EE-L} = \\frac{1}{m} \\sum_u \\sum_g (\\varepsilon_{u,g} - \\varepsilon^*_{u,g})^2,\\ '
                '\\varepsilon_{u,g} = \\sum_{j=1}^{k} \\gamma^{j-1} [L_u(j) \\in G_g],\\ \\varepsilon^*_{u,g} '
                '= \\sum_{i \\in G_g} \\bigl([i \\in R_u]\\, \\rho_u + [i \\notin R_u \\cup H_u]\\, \\eta_u\\bigr),\\ '
                '\\rho_u = \\frac{1}{|R_u|} \\sum_{j \\le \\min(|R_u|, k)} \\gamma^{j-1},\\ '
                '\\eta_u = \\frac{\\sum_{|R_u| < j \\le k} \\gamma^{j-1}}{n - |R_u| - |H_u|}')
def shown_ee_l(case, gamma=0.5):
    return sum(sum((e - t) ** 2 for e, t in zip(_eps(case, u, gamma), _eps_star(case, u, gamma)))
               for u in range(case["m"])) / case["m"]


@displayed('EE-D', '\\text{EE-D} = \\frac{1}{m} \\sum_u \\sum_g \\varepsilon_{u,g}^2,\\ \\varepsilon_{u,g} '
                '= \\sum_{j=1}^{k} \\gamma^{j-1} [L_u(j) \\in G_g]')
def shown_ee_d(case, gamma=0.5):
    return sum(sum(e ** 2 for e in _eps(case, u, gamma)) for u in range(case["m"])) / case["m"]


@displayed('EE-R', '\\text{EE-R} = \\frac{2}{m} \\sum_u \\sum_g \\varepsilon_{u,g}\\, \\varepsilon^*_{u,g},\\ '
                '\\varepsilon_{u,g} = \\sum_{j=1}^{k} \\gamma^{j-1} [L_u(j) \\in G_g],\\ \\varepsilon^*_{u,g} '
                '= \\sum_{i \\in G_g} \\bigl([i \\in R_u]\\, \\rho_u + [i \\notin R_u \\cup H_u]\\, \\eta_u\\bigr),\\ '
                '\\rho_u = \\frac{1}{|R_u|} \\sum_{j \\le \\min(|R_u|, k)} \\gamma^{j-1},\\ '
                '\\eta_u = \\frac{\\sum_{|R_u| < j \\le k} \\gamma^{j-1}}{n - |R_u| - |H_u|}')
def shown_ee_r(case, gamma=0.5):
    return 2 * sum(sum(e * t for e, t in zip(_eps(case, u, gamma), _eps_star(case, u, gamma)))
                   for u in range(case["m"])) / case["m"]



def reference_extremes(shown, case, *, ranked):
    """Smallest and largest value of ``shown(case)`` over every recommendation (``case["top"]`` enumerated).

    Each user's list is any ordered (``ranked``) or unordered ``k``-subset of the items outside
    its history; undefined values (a division by zero) are skipped. The brute force the
    achievable-range searches of Part VI are checked against.
    """
    n, k, m = case["n"], case["k"], case["m"]
    choose = itertools.permutations if ranked else itertools.combinations
    per_user = [list(choose([i for i in range(n) if i not in set(case["hist"][u])], k)) for u in range(m)]
    values = []
    for lists in itertools.product(*per_user):
        try:
            values.append(shown({**case, "top": [list(x) for x in lists]}))
        except ZeroDivisionError:
            continue
    return min(values), max(values)
