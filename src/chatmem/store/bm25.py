"""BM25 as SQLite FTS5 defines it, and the calibration of its scores to [0, 1] (X1).

The formula is shared by every place that scores full text: the in-memory
postings (:mod:`chatmem.store.postings`, hand-written and measured: many times
faster than FTS5's ``bm25()`` on common words), the SQLite store's query
planning, and PostgreSQL's SQL ranking, so that every backend gives the same
scores for the same store.

Scores are calibrated to [0, 1] (:func:`calibrate`): the BM25 score divided by
that of an ideal match (a document of average length holding each query token
once, :func:`plan_query`) and capped at 1. A message matching only frequent
tokens scores near 0; one holding every rare token of the query scores near 1.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

from ..text import is_char

#: Most distinct query tokens sent to the full-text index (the rarest are kept).
MAX_QUERY_TOKENS = 64

#: Weight of a CJK unigram match relative to a bigram or word match (FTS5 column weight).
CHAR_WEIGHT = 0.5

#: Most occurrences of a term in one document that BM25 counts: PostgreSQL keeps at most
#: 256 positions of a lexeme in a ``tsvector`` (its term count there), so every backend
#: caps the count alike. A term repeated that often is saturated long before (FTS5's own
#: ``bm25()`` counts them all: the one place where the two differ).
MAX_TERM_COUNT = 256

#: FTS5 ``bm25()`` constants (SQLite's built-in values).
BM25_K1 = 1.2
BM25_B = 0.75


def idf(n_docs: int, df: int) -> float:
    """FTS5's BM25 IDF: ``log((N − n + 0.5) / (n + 0.5))``, floored at 1e-6. ``n`` is
    capped at ``N``: PostgreSQL counts them in two statements, and rows other processes
    commit in between can make ``n`` the larger."""
    df = min(df, n_docs)
    v = math.log((n_docs - df + 0.5) / (df + 0.5))
    return v if v > 1e-6 else 1e-6


def term_weight(token: str) -> float:
    """The BM25 weight of a term: 1, or :data:`CHAR_WEIGHT` for a CJK unigram."""
    return CHAR_WEIGHT if is_char(token) else 1.0


def ideal_score(token: str, n_docs: int, df: int) -> float:
    """What one query term adds to the score of an ideal match: tf 1, average length.

    FTS5 scales a term's frequency by its column weight ``w`` inside the BM25
    saturation, so the term adds ``idf · w(k1 + 1) / (w + k1)``.
    """
    w = term_weight(token)
    return idf(n_docs, df) * w * (BM25_K1 + 1) / (w + BM25_K1)


def plan_query(terms: Sequence[str], df: Mapping[str, int], n_docs: int
               ) -> tuple[list[str], float] | None:
    """The terms to search and the ideal score of a query; ``None`` when nothing can match.

    The ideal score counts every distinct query term, present in the index or
    not: a message that holds only a frequent word of a query whose rare words
    appear nowhere is weak evidence, and scores low. Of the terms the index has
    seen, the :data:`MAX_QUERY_TOKENS` rarest are searched; terms in more than
    half of the documents carry no BM25 weight and are searched only when
    nothing else is left.
    """
    present = [t for t in terms if df.get(t, 0) > 0]
    if not present:
        return None
    gain = {t: ideal_score(t, n_docs, df.get(t, 0)) for t in terms}
    present.sort(key=lambda t: -gain[t])
    kept = [t for t in present[:MAX_QUERY_TOKENS] if gain[t] > 1e-5] or present[:1]
    return kept, sum(gain.values())


def calibrate(bm25: float, ideal: float) -> float:
    """A BM25 score as a share of the ideal match's score, in [0, 1]."""
    if ideal <= 0 or bm25 <= 0:
        return 0.0
    return min(1.0, bm25 / ideal)
