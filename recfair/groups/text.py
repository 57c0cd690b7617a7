r"""Free-text recommendations (the paper's LLM recommenders) matched to test titles (thesis Paper 6).

An LLM recommends *titles*, not item ids, and the titles it writes differ from the catalogue's
in case, punctuation, articles and typos. Paper 6 decides relevance by string similarity: a
recommended title is a hit when its TF-IDF vector of character 3-grams has cosine similarity
≥ 0.75 with a test title of the user, and each test title is matched at most once.

Text is cleaned before the n-grams are taken: accents are removed (NFKD), letters are lowercased,
every character that is neither a letter, a digit nor white space is deleted and runs of white
space become one space. The 3-grams are taken inside each word (an n-gram with a space is
dropped), so words shorter than three characters carry nothing: "Rocky II" and "Rocky V" have
the same vector. A title without any 3-gram (every word shorter than three characters, e.g.
"Up") matches only a test title that cleans to the same text.

TF-IDF: raw n-gram counts times the smoothed inverse document frequency
:math:`\ln\frac{1 + D}{1 + \mathrm{df}} + 1` over the :math:`D` distinct titles of ``corpus``
(by default every distinct test and recommended title), each vector scaled to unit length.

A release year in the title counts like any other characters ("Heat (1995)" against "Heat"
has cosine 0.71, below the threshold): catalogues that append years (MovieLens) should pass
titles through :func:`strip_year` first, as the paper's titles carried none.

>>> m = match_titles([["toy story", "Jumanji", "Heat!"]], [["Toy Story", "Heat"]])
>>> m.hits.astype(int).tolist()
[[1, 0, 1, 0, 0, 0, 0, 0, 0, 0]]
>>> text_per_user("P", m).tolist(), text_per_user("P", m, variant="paper").round(3).tolist()
([0.2], [0.667])
"""

from __future__ import annotations

import numbers
import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import scipy.sparse as sp

from ..relevance import per_user_from_hits

__all__ = ["strip_year", "clean_title", "title_ngrams", "TfidfNgrams", "TitleMatch", "match_titles", "text_per_user",
           "TEXT_MEASURES"]

_NOT_WORD = re.compile(r"[^\w\s]|_")
_SPACES = re.compile(r"\s+")


_YEAR = re.compile(r"\s*\((?:\d{4}|\d{4}\s*[-\u2013]\s*\d{0,4})\)\s*$")


def strip_year(title) -> str:
    """A title without a trailing release year in parentheses (MovieLens style).

    Parameters
    ----------
    title : str
        A catalogue title.

    Returns
    -------
    str

    Examples
    --------
    >>> strip_year("Toy Story (1995)"), strip_year("Heat"), strip_year("1984 (1984)")
    ('Toy Story', 'Heat', '1984')
    """
    if not isinstance(title, str):
        raise TypeError(f"a title must be a string, got {type(title).__name__} {title!r}.")
    return _YEAR.sub("", title)


def clean_title(title) -> str:
    """A title as compared: no accents, lowercase, letters, digits and single spaces only.

    Parameters
    ----------
    title : str
        A title.

    Returns
    -------
    str

    Examples
    --------
    >>> clean_title("  Amélie (2001)  ")
    'amelie 2001'
    >>> clean_title("Schindler's List")
    'schindlers list'
    """
    if not isinstance(title, str):
        raise TypeError(f"a title must be a string, got {type(title).__name__} {title!r}.")
    text = unicodedata.normalize("NFKD", title)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    text = _NOT_WORD.sub("", text)
    return _SPACES.sub(" ", text).strip()


def title_ngrams(title, *, n: int = 3) -> list[str]:
    """The character n-grams of a cleaned title, inside words only.

    Parameters
    ----------
    title : str
        A title (cleaned first with :func:`clean_title`).
    n : int, default=3
        The n-gram length.

    Returns
    -------
    list of str
        In order of appearance.

    Examples
    --------
    >>> title_ngrams("Up, Heat!")
    ['hea', 'eat']
    """
    text = clean_title(title)
    return [gram for word in text.split(" ") for gram in (word[i:i + n] for i in range(len(word) - n + 1))]


class TfidfNgrams:
    """TF-IDF vectors of character n-grams, fitted on a corpus of titles.

    Parameters
    ----------
    corpus : sequence of str
        Titles from which the vocabulary and document frequencies are taken (duplicates, after
        cleaning, count once).
    n : int
        The n-gram length (3 in the paper).

    Examples
    --------
    >>> model = TfidfNgrams(["Heat", "Heathers", "Toy Story"])
    >>> v = model.transform(["heat", "HEAT!"])
    >>> round(float((v[0] @ v[1].T).toarray()[0, 0]), 6)
    1.0
    """

    def __init__(self, corpus, *, n: int = 3):
        if isinstance(n, bool) or not isinstance(n, numbers.Integral) or n < 1:
            raise ValueError(f"n must be a positive integer, got {n!r}.")
        if isinstance(corpus, str) or not isinstance(corpus, (Sequence, np.ndarray)):
            raise TypeError(f"corpus must be a sequence of titles, got {type(corpus).__name__}.")
        self.n = int(n)
        docs = sorted({clean_title(t) for t in corpus})
        self.vocabulary: dict[str, int] = {}
        df: list[int] = []
        for doc in docs:
            for gram in set(title_ngrams(doc, n=self.n)):
                j = self.vocabulary.setdefault(gram, len(df))
                if j == len(df):
                    df.append(0)
                df[j] += 1
        self.n_documents = len(docs)
        self.idf = np.log((1.0 + self.n_documents) / (1.0 + np.asarray(df, dtype=np.float64))) + 1.0

    def transform(self, titles) -> sp.csr_matrix:
        """Unit-length TF-IDF rows, one per title (n-grams outside the corpus are ignored)."""
        indptr, indices, data = [0], [], []
        for title in titles:
            counts: dict[int, int] = {}
            for gram in title_ngrams(title, n=self.n):
                j = self.vocabulary.get(gram)
                if j is not None:
                    counts[j] = counts.get(j, 0) + 1
            cols = np.fromiter(counts.keys(), dtype=np.int64, count=len(counts))
            vals = np.fromiter(counts.values(), dtype=np.float64, count=len(counts)) * self.idf[cols]
            norm = np.sqrt((vals ** 2).sum())
            if norm > 0:
                vals = vals / norm
            indices.append(cols)
            data.append(vals)
            indptr.append(indptr[-1] + cols.size)
        indices = np.concatenate(indices) if indices else np.zeros(0, np.int64)
        data = np.concatenate(data) if data else np.zeros(0)
        return sp.csr_matrix((data, indices, np.asarray(indptr)), shape=(len(indptr) - 1, len(self.idf)))


@dataclass(frozen=True)
class TitleMatch:
    """The result of :func:`match_titles`.

    Attributes
    ----------
    hits : numpy.ndarray of bool, shape (n_users, k)
        ``hits[u, r]``: the title at rank ``r + 1`` of user ``u`` matched a test title. Ranks
        beyond the user's list are ``False``.
    matched : numpy.ndarray of int, shape (n_users, k)
        The index (into the user's test titles) of the title matched at each rank, -1 if none.
    similarity : numpy.ndarray of float, shape (n_users, k)
        The cosine of the match (or of the best unmatched test title when below the threshold);
        NaN beyond the user's list.
    n_relevant : numpy.ndarray of int, shape (n_users,)
        Each user's number of test titles.
    n_returned : numpy.ndarray of int, shape (n_users,)
        How many titles each user's list holds (at most ``k``).

    Examples
    --------
    >>> m = match_titles([["Heat"]], [["heat", "Alien"]], k=2)
    >>> m.matched.tolist(), m.n_relevant.tolist(), m.n_returned.tolist()
    ([[0, -1]], [2], [1])
    """

    hits: np.ndarray
    matched: np.ndarray
    similarity: np.ndarray
    n_relevant: np.ndarray
    n_returned: np.ndarray


def _check_lists(lists, name: str) -> list[list[str]]:
    if isinstance(lists, (str, bytes)) or not isinstance(lists, (Sequence, np.ndarray)):
        raise TypeError(f"{name} must be a sequence (one per user) of sequences of titles, got "
                        f"{type(lists).__name__}.")
    out = []
    for u, row in enumerate(lists):
        if row is None:
            row = []
        if isinstance(row, str) or not isinstance(row, (Sequence, np.ndarray)):
            raise TypeError(f"{name}[{u}] must be a sequence of titles, got {type(row).__name__} {row!r}.")
        for t in row:
            if not isinstance(t, str):
                raise TypeError(f"{name}[{u}] holds a non-string title: {t!r}.")
        out.append(list(row))
    return out


def match_titles(recommended, test, *, k: int = 10, threshold: float = 0.75, n: int = 3,
                 corpus=None) -> TitleMatch:
    """Match each user's recommended titles to their test titles (TF-IDF character n-grams, cosine ≥ threshold).

    The titles are visited in rank order; each is matched to the most similar test title of the
    user not matched yet (the first one on a tie), and is a hit when the cosine similarity is
    at least ``threshold``. So each test title is matched at most once: a title recommended
    twice is a hit at most once unless the test set holds it twice.

    Parameters
    ----------
    recommended : sequence of sequences of str
        Each user's recommended titles, best first (lists may be shorter than ``k``; longer ones
        are cut to ``k``).
    test : sequence of sequences of str
        Each user's test (relevant) titles, as many users as ``recommended``.
    k : int
        The cut-off (10 in the paper).
    threshold : float in (0, 1]
        The cosine similarity needed for a hit (0.75 in the paper).
    n : int
        The character n-gram length (3).
    corpus : sequence of str, optional
        The titles the TF-IDF weights are fitted on (e.g. the whole catalogue); by default every
        distinct test and recommended title.

    Returns
    -------
    TitleMatch

    Examples
    --------
    >>> m = match_titles([["Star Wars", "Star Wars", "fargo"]], [["Star Wars", "Fargo"]], k=3)
    >>> m.hits.tolist()
    [[True, False, True]]
    """
    if isinstance(k, bool) or not isinstance(k, numbers.Integral) or k < 1:
        raise ValueError(f"k must be a positive integer, got {k!r}.")
    if isinstance(threshold, bool) or not isinstance(threshold, numbers.Real) or not 0 < threshold <= 1:
        raise ValueError(f"threshold must be a number in (0, 1], got {threshold!r}.")
    rec = _check_lists(recommended, "recommended")
    tst = _check_lists(test, "test")
    if len(rec) != len(tst):
        raise ValueError(f"recommended has {len(rec)} users but test has {len(tst)}: give one list per user.")
    rec = [row[:k] for row in rec]
    if corpus is None:
        corpus = [t for row in rec for t in row] + [t for row in tst for t in row]
    model = TfidfNgrams(corpus, n=n)
    # every distinct title is cleaned and vectorised once
    index: dict[str, int] = {}
    flat_rec = np.array([index.setdefault(t, len(index)) for row in rec for t in row], dtype=np.int64)
    flat_tst = np.array([index.setdefault(t, len(index)) for row in tst for t in row], dtype=np.int64)
    distinct = list(index)
    vectors = model.transform(distinct)
    cleaned = np.array([clean_title(t) for t in distinct], dtype=object)
    empty = np.diff(vectors.indptr) == 0

    m = len(rec)
    hits = np.zeros((m, k), dtype=bool)
    matched = np.full((m, k), -1, dtype=np.int64)
    similarity = np.full((m, k), np.nan)
    n_returned = np.array([len(r) for r in rec], dtype=np.int64)
    n_relevant = np.array([len(t) for t in tst], dtype=np.int64)
    similarity[np.arange(k)[None, :] < n_returned[:, None]] = 0.0
    r0 = np.concatenate(([0], np.cumsum(n_returned)))
    t0 = np.concatenate(([0], np.cumsum(n_relevant)))

    # every (recommended, test) pair of a user: user-major, then rank, then test title
    per_user = n_returned * n_relevant
    total = int(per_user.sum())
    if total == 0:
        return TitleMatch(hits, matched, similarity, n_relevant, n_returned)
    user = np.repeat(np.arange(m), per_user)
    local = np.arange(total) - np.repeat(np.concatenate(([0], np.cumsum(per_user)[:-1])), per_user)
    nt = n_relevant[user]
    rank, j_local = local // nt, local % nt
    rec_id, tst_id = flat_rec[r0[user] + rank], flat_tst[t0[user] + j_local]
    sim = np.asarray(vectors[rec_id].multiply(vectors[tst_id]).sum(axis=1)).ravel()
    # a title without n-grams matches only the same cleaned text
    blank = empty[rec_id] | empty[tst_id]
    if blank.any():
        sim[blank] = (cleaned[rec_id[blank]] == cleaned[tst_id[blank]]).astype(np.float64)

    # greedy in rank order, all users at once: each rank takes its user's best free test title
    used = np.zeros(int(t0[-1]), dtype=bool)
    tst_slot = t0[user] + j_local                       # the test title's position in the flat list
    by_rank = np.argsort(rank, kind="stable")
    bounds = np.searchsorted(rank[by_rank], np.arange(k + 1))
    for r in range(k):
        idx = by_rank[bounds[r]:bounds[r + 1]]
        if idx.size == 0:
            break
        vals = np.where(used[tst_slot[idx]], -np.inf, sim[idx])
        order = np.lexsort((j_local[idx], -vals, user[idx]))   # per user: best value, then first title
        first = order[np.r_[True, user[idx][order][1:] != user[idx][order][:-1]]]
        pick = idx[first]
        best = vals[first]
        users = user[pick]
        similarity[users, r] = np.where(np.isfinite(best), np.maximum(best, 0.0), 0.0)
        ok = best >= threshold - 1e-12
        hits[users[ok], r] = True
        matched[users[ok], r] = j_local[pick[ok]]
        used[tst_slot[pick[ok]]] = True
    return TitleMatch(hits, matched, similarity, n_relevant, n_returned)


#: Per-user measures :func:`text_per_user` computes.
TEXT_MEASURES = ("HR", "MRR", "P", "R", "MAP", "NDCG")


def text_per_user(measure: str, match: TitleMatch, *, variant: str = "standard") -> np.ndarray:
    r"""Per-user effectiveness of matched free-text recommendations (the base scores of Paper 6).

    ``variant="standard"`` gives recfair's definitions (:func:`recfair.relevance.per_user_from_hits`):
    P@k divides the hits by k, NDCG@k's ideal has :math:`\min(|R^*_u|, k)` hits on top (NaN for
    a user without test titles, as for R and MAP).

    ``variant="paper"`` gives the values the published numbers were computed with (the evaluation
    package the paper used): P divides the hits by the length of the returned list (0 for an
    empty list), and NDCG's ideal ranking is the user's own hit vector sorted (hits first), so it
    only rewards putting the hits early:

    .. math::

        \mathrm{NDCG}^{paper}_u = \frac{\sum_{r=1}^{k} h_{u,r}/\log_2(r+1)}{\sum_{r=1}^{H_u} 1/\log_2(r+1)},
        \qquad H_u = \sum_r h_{u,r}

    (0 without hits). The other measures are the same in both variants.

    Parameters
    ----------
    measure : {"HR", "MRR", "P", "R", "MAP", "NDCG"}
        The relevance measure.
    match : TitleMatch
        The hits of :func:`match_titles`.
    variant : {"standard", "paper"}, default="standard"
        As described above.

    Returns
    -------
    numpy.ndarray of float, shape (n_users,)
        One effectiveness value per user (the ``effectiveness`` of the group measures).

    Examples
    --------
    >>> m = match_titles([["Fargo", "Alien", "Heat"]], [["Heat", "Ronin"]], k=3)
    >>> round(float(text_per_user("NDCG", m)[0]), 4), round(float(text_per_user("NDCG", m, variant="paper")[0]), 4)
    (0.3066, 0.5)
    """
    if not isinstance(match, TitleMatch):
        raise TypeError(f"match must be the TitleMatch of match_titles, got {type(match).__name__}.")
    if variant not in ("standard", "paper"):
        raise ValueError(f"variant must be 'standard' or 'paper', got {variant!r}.")
    if measure not in TEXT_MEASURES:
        raise ValueError(f"measure must be one of {TEXT_MEASURES}, got {measure!r}.")
    hits = match.hits
    if variant == "paper" and measure == "P":
        n = match.n_returned
        out = np.zeros(hits.shape[0])
        pos = n > 0
        out[pos] = hits[pos].sum(axis=1) / n[pos]
        return out
    if variant == "paper" and measure == "NDCG":
        discount = 1.0 / np.log2(np.arange(2, hits.shape[1] + 2))
        dcg = hits @ discount
        ideal = np.concatenate(([0.0], np.cumsum(discount)))[hits.sum(axis=1)]
        out = np.zeros(hits.shape[0])
        pos = ideal > 0
        out[pos] = dcg[pos] / ideal[pos]
        return out
    return per_user_from_hits(measure, hits, match.n_relevant)
