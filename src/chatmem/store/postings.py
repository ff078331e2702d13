"""In-memory BM25 over the full-text rows of a SQLite store (X1, P3).

SQLite's FTS5 calls its ``bm25()`` function once per matching row, about a
microsecond each: an OR query whose words are common in a 100k-message store
matches ~10k rows and costs ~8 ms, two to three times a dense ANN search. This
index answers the same question with numpy over posting arrays, exactly (same
BM25 as :mod:`chatmem.store.bm25`, same tokens), in well under a millisecond,
and applies a visibility filter as a mask instead of a join.

At a million messages scoring every posting of the query's words (about 25 ns
each; a LoCoMo question's words hold ~300k postings) cost more than the ANN, so
:meth:`Postings.top_k` prunes, still exactly, with MaxScore: each term has an
upper bound on what it can add to a document (its largest term count and the
shortest document holding it, :attr:`Postings.max_tf` / :attr:`Postings.min_len`,
kept on every write); terms are taken by falling bound, a taken term's new
documents are scored by binary search in the other terms' lists, dropped as soon
as what they have plus the bounds still open is below the k-th best full score so
far, and the scan stops when the bounds of the terms not taken cannot reach it.
The long lists of the common words not taken are only probed, never scanned. Scores are
summed in query order as one pass over all postings would, so results are the
same to the bit, ties included (``tests/test_postings.py`` checks against a
brute-force ranking). Measured on the 1M LoCoMo-derived corpus of
``bench/search.py`` with its 200 LoCoMo questions, k=20, 2 shared cores, one
process: p50 9.1 ms instead of 37.7 ms for the full scan (4.1×; the total over
all questions 2.9×; 2.7 ms on a quieter machine), identical answers, and hybrid
``Memory.recall`` 1.77× dense instead of 2.38× in the same run; with the hits'
fields read from memory too (:func:`chatmem.store.sqlite.lexical.sqlite_query`),
1.68× in ``bench/search.py`` itself (README, Benchmarks).

Why by hand, rather than FTS5 or a search engine: FTS5 calls ``bm25()`` once per
matching row and cannot stop early, and a separate engine would be a second copy
of the documents to keep in step with the store's transactions, plus a
dependency, for the same BM25. Here the scores are FTS5's to the bit, the index
lives beside the vector matrix under the store's one writer thread (so a hit's
fields come from memory too), and the MaxScore bounds cost 8 bytes per distinct
term and a query 1 byte per document.

The FTS5 table stays the durable copy of the tokens; this index is derived from
it on the first lexical query (:meth:`Postings.load`) and then kept in step by
the store's single thread after each committed write. The store is the only
writer of its file (it holds ``<file>.lock``), so the copy is never stale.

Layout:

* a *document* is one full-text row, keyed by the store rowid, living in a
  *slot*; a rewrite puts the document in a fresh slot and kills the old one, so
  posting lists only ever grow until the next merge;
* each term's postings are a *base* part (CSR arrays ``indptr``/``slots``/
  ``tfs``, built in one vectorised pass) plus a *delta* part (Python arrays,
  appended per write). When the delta holds more than a tenth of the base (and
  at least :data:`MERGE_MIN`) both are merged and dead slots are dropped and
  renumbered;
* document frequencies and lengths count live documents only, as FTS5 does;
* a term's count in a document stops at :data:`~chatmem.store.bm25.MAX_TERM_COUNT`,
  as PostgreSQL's does.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .bm25 import BM25_B, BM25_K1, MAX_TERM_COUNT, idf, term_weight

#: Delta postings that trigger a merge into the base arrays (or a tenth of the base).
MERGE_MIN = 50_000

_I32 = npt.NDArray[np.int32]
_F32 = npt.NDArray[np.float32]


def _grown(a: npt.NDArray[Any], need: int, fill: Any = 0) -> npt.NDArray[Any]:
    """``a`` with room for ``need`` items (capacity doubles), new items set to ``fill``."""
    if need <= a.shape[0]:
        return a
    out = np.full(max(need, 2 * a.shape[0], 64), fill, dtype=a.dtype)
    out[: a.shape[0]] = a
    return out


class Postings:
    """An inverted index with BM25 top-k (see the module docs)."""

    def __init__(self, merge_min: int = MERGE_MIN) -> None:
        self.merge_min = merge_min
        self.term_id: dict[str, int] = {}
        self.df = np.zeros(0, dtype=np.int64)  # live documents holding each term
        # per term, over every posting it ever had (dead ones too: still a bound)
        self.max_tf: _F32 = np.zeros(0, dtype=np.float32)
        self.min_len: _F32 = np.zeros(0, dtype=np.float32)
        # base, term-major CSR: term id -> (slots, term frequencies)
        self.indptr = np.zeros(1, dtype=np.int64)
        self.base_slots: _I32 = np.zeros(0, dtype=np.int32)
        self.base_tfs: _F32 = np.zeros(0, dtype=np.float32)
        # base, doc-major CSR: slot -> distinct term ids (to update df on delete)
        self.doc_indptr = np.zeros(1, dtype=np.int64)
        self.doc_terms: _I32 = np.zeros(0, dtype=np.int32)
        # delta, appended since the last merge
        self.delta_slots: dict[int, array[int]] = {}
        self.delta_tfs: dict[int, array[float]] = {}
        self.delta_doc_terms: dict[int, array[int]] = {}
        self.delta_size = 0
        # per slot
        self.n_slots = 0
        self.slot_rowid = np.zeros(0, dtype=np.int64)
        self.slot_len = np.zeros(0, dtype=np.float64)
        self.slot_alive = np.zeros(0, dtype=bool)
        # per rowid: the slot of its live document, -1 for none
        self.rowid_slot = np.zeros(0, dtype=np.int32)
        self.n_docs = 0
        self.total_len = 0.0

    # ------------------------------------------------------------------ writes

    def load(self, rows: Iterable[tuple[int, Sequence[str]]]) -> None:
        """Replace the whole index with these (rowid, tokens) documents, in one pass."""
        self.__init__(self.merge_min)  # type: ignore[misc]
        ids = array("i")
        lens: list[int] = []
        rowids: list[int] = []
        intern = self.term_id.setdefault
        for rowid, tokens in rows:
            for t in tokens:
                ids.append(intern(t, len(self.term_id)))
            lens.append(len(tokens))
            rowids.append(rowid)
        n_terms = len(self.term_id)
        tok = np.frombuffer(ids, dtype=np.int32).astype(np.int64)
        doc = np.repeat(np.arange(len(lens), dtype=np.int64), lens)
        key, tf = np.unique(doc * max(n_terms, 1) + tok, return_counts=True)
        tf = np.minimum(tf, MAX_TERM_COUNT)
        self._build((key % max(n_terms, 1)).astype(np.int32),
                    (key // max(n_terms, 1)).astype(np.int32), tf.astype(np.float32),
                    np.asarray(rowids, dtype=np.int64), np.asarray(lens, dtype=np.float64))

    def put(self, rowid: int, tokens: Sequence[str]) -> None:
        """Index (or re-index) the document of ``rowid``."""
        self.remove(rowid)
        self._add(rowid, tokens)
        if self.delta_size > max(self.merge_min, self.base_slots.shape[0] // 10):
            self.merge()

    def remove(self, rowid: int) -> None:
        if rowid >= self.rowid_slot.shape[0] or self.rowid_slot[rowid] < 0:
            return
        slot = int(self.rowid_slot[rowid])
        self.rowid_slot[rowid] = -1
        self.slot_alive[slot] = False
        self.n_docs -= 1
        self.total_len -= float(self.slot_len[slot])
        delta = self.delta_doc_terms.pop(slot, None)
        if delta is not None:
            terms: _I32 = np.frombuffer(delta, dtype=np.int32)
        else:
            terms = self.doc_terms[self.doc_indptr[slot]:self.doc_indptr[slot + 1]]
        self.df[terms] -= 1  # distinct ids: plain fancy indexing is exact

    def remove_many(self, rowids: Iterable[int]) -> None:
        for rowid in rowids:
            self.remove(rowid)

    def clear(self) -> None:
        self.__init__(self.merge_min)  # type: ignore[misc]

    def _add(self, rowid: int, tokens: Sequence[str]) -> None:
        slot = self.n_slots
        ids = array("i")
        counts = {t: min(n, MAX_TERM_COUNT) for t, n in Counter(tokens).items()}
        for term, tf in counts.items():
            tid = self.term_id.get(term)
            if tid is None:
                tid = self.term_id[term] = len(self.term_id)
            slots = self.delta_slots.get(tid)
            if slots is None:
                slots = self.delta_slots[tid] = array("i")
                self.delta_tfs[tid] = array("f")
            slots.append(slot)
            self.delta_tfs[tid].append(float(tf))
            ids.append(tid)
        self.delta_size += len(ids)
        self.delta_doc_terms[slot] = ids
        self.df = _grown(self.df, len(self.term_id))
        self.max_tf = _grown(self.max_tf, len(self.term_id))
        self.min_len = _grown(self.min_len, len(self.term_id), np.inf)
        if len(ids):
            tids = np.frombuffer(ids, dtype=np.int32)
            self.df[tids] += 1
            counts_f = np.frombuffer(array("f", counts.values()), dtype=np.float32)
            self.max_tf[tids] = np.maximum(self.max_tf[tids], counts_f)  # distinct ids
            self.min_len[tids] = np.minimum(self.min_len[tids], len(tokens))
        self.slot_rowid = _grown(self.slot_rowid, slot + 1)
        self.slot_len = _grown(self.slot_len, slot + 1)
        self.slot_alive = _grown(self.slot_alive, slot + 1, False)
        self.slot_rowid[slot] = rowid
        self.slot_len[slot] = len(tokens)
        self.slot_alive[slot] = True
        self.rowid_slot = _grown(self.rowid_slot, rowid + 1, -1)
        self.rowid_slot[rowid] = slot
        self.n_slots += 1
        self.n_docs += 1
        self.total_len += len(tokens)

    def merge(self) -> None:
        """Fold the delta into the base arrays; drop and renumber dead slots."""
        counts = np.diff(self.indptr)
        parts_t = [np.repeat(np.arange(counts.shape[0], dtype=np.int32), counts)]
        parts_s, parts_f = [self.base_slots], [self.base_tfs]
        for tid, s in self.delta_slots.items():
            parts_t.append(np.full(len(s), tid, dtype=np.int32))
            parts_s.append(np.frombuffer(s, dtype=np.int32))
            parts_f.append(np.frombuffer(self.delta_tfs[tid], dtype=np.float32))
        terms, slots, tfs = (np.concatenate(parts_t), np.concatenate(parts_s),
                             np.concatenate(parts_f))
        alive = self.slot_alive[: self.n_slots]
        keep = alive[slots]
        live = np.flatnonzero(alive)
        new_of_old = (np.cumsum(alive) - 1).astype(np.int32)
        self._build(terms[keep], new_of_old[slots[keep]], tfs[keep],
                    self.slot_rowid[live], self.slot_len[live])

    def _build(self, terms: _I32, slots: _I32, tfs: _F32, slot_rowid: npt.NDArray[np.int64],
               slot_len: npt.NDArray[np.float64]) -> None:
        """Set the base from (term, slot, tf) triples over slots ``0..len(slot_rowid)``."""
        n_terms = len(self.term_id)
        n = slot_rowid.shape[0]
        order = np.argsort(terms, kind="stable")
        self.base_slots = np.ascontiguousarray(slots[order])
        self.base_tfs = np.ascontiguousarray(tfs[order])
        self.indptr = np.zeros(n_terms + 1, dtype=np.int64)
        np.cumsum(np.bincount(terms, minlength=n_terms), out=self.indptr[1:])
        self.df = np.diff(self.indptr)  # one posting per (live document, term)
        self.max_tf = np.zeros(n_terms, dtype=np.float32)
        self.min_len = np.full(n_terms, np.inf, dtype=np.float32)
        held = np.flatnonzero(self.df)
        if held.shape[0]:
            starts = self.indptr[held]
            self.max_tf[held] = np.maximum.reduceat(self.base_tfs, starts)
            self.min_len[held] = np.minimum.reduceat(
                slot_len[self.base_slots].astype(np.float32), starts)
        by_doc = np.lexsort((terms, slots))
        self.doc_terms = np.ascontiguousarray(terms[by_doc])
        self.doc_indptr = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(np.bincount(slots, minlength=n), out=self.doc_indptr[1:])
        self.delta_slots, self.delta_tfs, self.delta_doc_terms = {}, {}, {}
        self.delta_size = 0
        self.n_slots = self.n_docs = n
        self.slot_rowid = slot_rowid.copy()
        self.slot_len = slot_len.astype(np.float64)
        self.slot_alive = np.ones(n, dtype=bool)
        size = int(slot_rowid.max()) + 1 if n else 0
        self.rowid_slot = np.full(max(size, self.rowid_slot.shape[0]), -1, dtype=np.int32)
        self.rowid_slot[slot_rowid] = np.arange(n, dtype=np.int32)
        self.total_len = float(self.slot_len.sum(dtype=np.float64))

    # ------------------------------------------------------------------ reads

    def doc_freqs(self, terms: Sequence[str]) -> dict[str, int]:
        """Live document frequencies of the terms the index holds."""
        out = {}
        for t in terms:
            tid = self.term_id.get(t)
            if tid is not None and self.df[tid] > 0:
                out[t] = int(self.df[tid])
        return out

    def _postings(self, tid: int) -> tuple[_I32, _F32]:
        if tid + 1 < self.indptr.shape[0]:
            lo, hi = int(self.indptr[tid]), int(self.indptr[tid + 1])
            s, f = self.base_slots[lo:hi], self.base_tfs[lo:hi]
        else:
            s, f = self.base_slots[:0], self.base_tfs[:0]
        if tid in self.delta_slots:
            s = np.concatenate([s, np.frombuffer(self.delta_slots[tid], dtype=np.int32)])
            f = np.concatenate([f, np.frombuffer(self.delta_tfs[tid], dtype=np.float32)])
        return s, f

    def top_k(self, terms: Sequence[str], k: int,
              allowed: npt.NDArray[np.int64] | None = None) -> list[tuple[int, float]]:
        """The best ``k`` (rowid, BM25) pairs for a query of distinct ``terms``, best first.

        ``allowed`` (store rowids) restricts the documents; ``None`` allows all.
        Every document tied with the k-th score is returned too, so the caller can
        break ties by its own key. BM25 is FTS5's: ``idf · f(k1 + 1) / (f + k1(1 − b
        + b·len/avglen))`` with ``f`` the term count times the term's column weight.

        Exact, with MaxScore pruning (see the module docs): the terms are taken by
        falling upper bound; the documents of the terms taken so far are scored in
        full (every query term) and the k-th best of them is a floor for the answer;
        a document holding none of those terms scores at most the sum of the other
        terms' bounds, so once that sum is below the floor the long posting lists of
        common words are never scanned, only probed for the candidates.
        """
        n = self.n_docs
        if n == 0 or k <= 0:
            return []
        avg = self.total_len / n
        query = [q for q in (self._query_term(t, n, avg) for t in terms) if q is not None]
        if not query:
            return []
        mask = None
        if allowed is not None:
            allowed = allowed[(allowed >= 0) & (allowed < self.rowid_slot.shape[0])]
            picked = self.rowid_slot[allowed]
            picked = picked[picked >= 0]
            if picked.shape[0] * len(query) * 8 < sum(q.slots.shape[0] for q in query):
                # a narrow filter (a session): probe its few documents in every list
                cand = np.unique(picked)
                scores = self._score(query, cand)
                return self._best(cand[scores > 0], scores[scores > 0], k)
            mask = np.zeros(self.n_slots, dtype=bool)
            mask[picked] = True
        order = sorted(range(len(query)), key=lambda j: (-query[j].bound,
                                                          query[j].slots.shape[0]))
        # beyond[i]: the most a document can score from the terms order[i:]
        beyond = [*np.cumsum([query[j].bound for j in order[::-1]])[::-1].tolist(), 0.0]
        seen = np.zeros(self.n_slots, dtype=bool)
        cands: list[_I32] = []
        scored: list[npt.NDArray[np.float64]] = []
        have, floor = 0, 0.0  # the k-th best full score so far: the answer scores no less
        for i, j in enumerate(order):
            if have >= k and beyond[i] * _SAFETY < floor:
                break  # a document none of the terms so far holds cannot reach the k-th
            q = query[j]
            fresh = ~seen[q.slots]  # the term's documents the earlier terms do not hold
            seen[q.slots] = True
            at = np.flatnonzero(fresh)
            at = at[self.slot_alive[q.slots[at]]]
            if mask is not None:
                at = at[mask[q.slots[at]]]
            cand = q.slots[at]
            parts = {j: q.scores(at, cand, self.slot_len)}
            partial = parts[j]  # the contributions so far, in probe order: bounds only
            for nxt in range(i + 1, len(order) + 1):
                if have >= k:  # drop the documents that cannot reach the k-th score
                    ok = (partial + beyond[nxt]) * _SAFETY >= floor
                    if not ok.all():
                        cand, partial = cand[ok], partial[ok]
                        parts = {t: v[ok] for t, v in parts.items()}
                if nxt == len(order) or not cand.shape[0]:
                    break
                got = parts[order[nxt]] = query[order[nxt]].probe(cand, self.slot_len)
                partial = partial + got
            if not cand.shape[0]:
                continue
            total = np.zeros(cand.shape[0], dtype=np.float64)
            for t in sorted(parts):  # in query order, as one accumulation would add them
                total += parts[t]
            cands.append(cand)
            scored.append(total)
            have += cand.shape[0]
            if have >= k:
                all_scores = np.concatenate(scored)
                floor = float(np.partition(all_scores, have - k)[have - k])
                cands, scored = [np.concatenate(cands)], [all_scores]
        if not cands:
            return []
        return self._best(np.concatenate(cands), np.concatenate(scored), k)

    def _best(self, cand: _I32, scores: npt.NDArray[np.float64], k: int
              ) -> list[tuple[int, float]]:
        """The top ``k`` of scored slots and their ties, best first, ties by slot."""
        if cand.shape[0] > k:
            kth = np.partition(scores, cand.shape[0] - k)[cand.shape[0] - k]
            keep = scores >= kth
            cand, scores = cand[keep], scores[keep]
        by_slot = np.argsort(cand)
        cand, scores = cand[by_slot], scores[by_slot]
        best = np.argsort(-scores, kind="stable")
        return list(zip(self.slot_rowid[cand[best]].tolist(), scores[best].tolist()))

    def _query_term(self, term: str, n: int, avg: float) -> _QueryTerm | None:
        tid = self.term_id.get(term)
        if tid is None or self.df[tid] <= 0:
            return None
        slots, tfs = self._postings(tid)
        w = term_weight(term)
        weight = idf(n, int(self.df[tid]))
        # the contribution grows with the term count and falls with the length
        f = float(self.max_tf[tid]) * w
        bound = weight * f * (BM25_K1 + 1) / (
            f + BM25_K1 * (1.0 - BM25_B + BM25_B * float(self.min_len[tid]) / avg))
        return _QueryTerm(slots, tfs, w, weight, bound, avg)

    def _score(self, query: Sequence[_QueryTerm], cand: _I32) -> npt.NDArray[np.float64]:
        """Full BM25 of the ascending slots ``cand``, summed in query order from 0.0 as
        one accumulation over all the postings would: the same float64 to the bit."""
        total = np.zeros(cand.shape[0], dtype=np.float64)
        for q in query:
            total += q.probe(cand, self.slot_len)
        return total


#: Margin on the bound of unseen documents, far above float64 rounding of a sum of 64 terms.
_SAFETY = 1.0 + 1e-9


class _QueryTerm(NamedTuple):
    """One query term's postings (slots ascending) and BM25 constants."""

    slots: _I32
    tfs: _F32
    w: float
    idf: float
    bound: float  # no document's contribution from this term exceeds it
    avg: float

    def scores(self, at: npt.NDArray[np.intp], slots: _I32, slot_len: npt.NDArray[np.float64]
               ) -> npt.NDArray[np.float64]:
        """The term's BM25 contribution to its postings ``at`` (documents ``slots``)."""
        f = self.tfs[at].astype(np.float64)
        if self.w != 1.0:  # times 1.0 is the identity: skipped, same bits
            f *= self.w
        norm = BM25_K1 * (1.0 - BM25_B + BM25_B * slot_len[slots] / self.avg)
        return self.idf * f * (BM25_K1 + 1) / (f + norm)

    def probe(self, cand: _I32, slot_len: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
        """The term's contribution to each of the ascending slots ``cand`` (0 when absent),
        by binary search in its postings."""
        out = np.zeros(cand.shape[0], dtype=np.float64)
        if not self.slots.shape[0]:
            return out
        at = np.searchsorted(self.slots, cand)
        at[at == self.slots.shape[0]] = 0
        hit = self.slots[at] == cand
        out[hit] = self.scores(at[hit], cand[hit], slot_len)
        return out


__all__ = ["MERGE_MIN", "Postings"]
