"""Hybrid recall (X1): fuse the dense and the lexical candidate lists into one pool.

Pure functions; :meth:`chatmem.Memory._candidates` calls them. Both inputs are
lists of :class:`~chatmem.models.ScoredId` best first: dense scores are cosine
similarities, lexical scores are calibrated BM25 in [0, 1]
(:mod:`chatmem.store.bm25`, :mod:`chatmem.text`). The output is one list, best first, whose
``score`` is the *fused semantic score* in [0, 1] that ``rerank()`` blends with
recency and that ``min_score`` is compared with.

Fusion ``score`` (the default, ``hybrid.fusion = "score"``; calibrated score blending)::

    fused = t · dense + (1 − t) · lexical

* ``dense`` is the cosine on the reference scale (:func:`rescale`), clipped to
  [0, 1]. For a candidate found only by the lexical search it is *measured*: the
  caller asks the vector index for the cosines of exactly those ids (``measured``;
  :meth:`chatmem.Memory._candidates`). One without a vector yet (not indexed, or
  of another model) gets the lowest cosine of the dense pool: it was not among the
  dense pool, so its cosine is at most that (an upper bound, so it is never
  penalised for a score nobody could measure). Both lists hold the query model's
  space only (F11): the caller leaves another model's dense hits out and passes
  its full-text hits as full-text-only (:func:`~chatmem.recall.admit.full_text_only`).
* ``lexical`` is the calibrated BM25 score. For a candidate found only by the dense
  search it is measured the same way (``measured_lexical``: the full-text index
  scores exactly those ids); 0 when it holds none of the query's words.
* ``t`` is the *dense trust* of this query (:func:`dense_trust`): the
  ``dense_weight`` (the configured one, else the model's own, else
  :data:`DEFAULT_DENSE_WEIGHT`; the caller resolves it) when the embedding model
  declares a language of the query's script, ``dense_weight_uncovered`` when it does not (a Chinese
  query against the English-only default model), mixed by the query's share of
  CJK characters. So a weak signal cannot drown a strong one: with an
  English-only model a Chinese query is ranked mostly by BM25, an English query
  mostly by meaning.

Models differ in where their cosines sit: all-MiniLM-L6-v2 gives two unrelated
texts about 0.13 and a good match 0.5; multilingual-e5 gives them 0.8 and 0.85.
Blended raw, e5's dense channel barely moves the fused score and full text decides
(on the dev splits e5 hybrid scored below e5 dense on three of five sets). So each
model's cosines are first mapped onto the scale of the model the weights were
chosen with, by its *cosine baseline* (:attr:`~chatmem.embedding.base.Capabilities.
cosine_baseline`, measured by ``bench/cosine_baseline.py``): the baseline goes to
:data:`REFERENCE_BASELINE`, 1 stays 1. For all-MiniLM-L6-v2 this is the identity.

Why measured (stop 22): the bound grows with the store. The 20th-nearest of 70
messages is a stranger, of 450 a near neighbour, so in larger stores a message that
shared a word by chance got the cosine of a near neighbour and outranked matches by
meaning. With every conversation of a split in one store (``bench/quality.py
--haystack``, 3–6 times the messages) the dev mean Hit@5 rose 0.835 → 0.846 with
measured cosines, and to 0.858 with the full-text scores of dense-only candidates
measured too (the same bound on the other side: a lexical pool of 20 leaves out more
partial matches the larger the store); the one-conversation stores did not move
(0.912). Giving lexical-only candidates 0 instead did as well there, but where the
dense channel is weak it starved the word matches (Chinese through all-MiniLM-L6-v2; LoCoMo, 0.568 →
0.470): a measured cosine is right in both cases, since where the model cannot tell
messages apart it measures them all alike.

Fusion ``rank`` (``hybrid.fusion = "rank"``; reciprocal-rank fusion, kept for comparison)::

    fused = (t / (k + rank_dense) + (1 − t) / (k + rank_lexical)) · (k + 1)

with a missing rank contributing 0; scaled so that first place in both lists
scores 1. It ignores how strong each match is, which is why it is not the
default (see README § Hybrid recall for the measurements).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from ..models import ScoredId
from ..text import by_script

#: The names of ``hybrid.fusion`` in the configuration.
FusionMethod = Literal["score", "rank"]

#: Language codes whose script is CJK (the lexical tokenizer's bigram scripts).
CJK_LANGUAGES: frozenset[str] = frozenset({"zh", "ja", "ko"})
#: Declarations that mean "every language".
ANY_LANGUAGE: frozenset[str] = frozenset({"*", "multi", "multilingual", "xx", "mul"})


def _base(code: str) -> str:
    return code.strip().lower().replace("_", "-").split("-")[0]


def covers(languages: Sequence[str] | None, cjk: bool) -> bool:
    """Whether a model declaring ``languages`` covers CJK (``cjk``) or other scripts.

    ``None`` (a provider that declares nothing, e.g. a remote API) counts as
    covering everything: only a declared limit lowers the trust in dense scores.
    """
    if languages is None:
        return True
    langs = {_base(code) for code in languages}
    if langs & ANY_LANGUAGE:
        return True
    return bool(langs & CJK_LANGUAGES) if cjk else bool(langs - CJK_LANGUAGES)


def dense_trust(query: str, languages: Sequence[str] | None, *, dense_weight: float,
                dense_weight_uncovered: float) -> float:
    """The weight of the dense score for this query, in [0, 1].

    ``dense_weight`` where the model covers the query's script, else
    ``dense_weight_uncovered``; a query mixing scripts gets the average weighted
    by its share of CJK characters (:func:`~chatmem.text.by_script`).
    """
    w_cjk = dense_weight if covers(languages, True) else dense_weight_uncovered
    w_other = dense_weight if covers(languages, False) else dense_weight_uncovered
    return by_script(query, w_other, w_cjk)


#: The cosine baseline of all-MiniLM-L6-v2, the model ``dense_weight`` and
#: ``dense_weight_uncovered`` were chosen with on the dev splits.
REFERENCE_BASELINE = 0.135

#: ``hybrid.dense_weight`` for a model that declares none of its own: chosen on the dev
#: splits with all-MiniLM-L6-v2 (README § Recall quality, rule 6) and kept for e5.
DEFAULT_DENSE_WEIGHT = 0.6


def rescale(cosine: float, baseline: float | None) -> float:
    """``cosine`` of a model whose unrelated texts score ``baseline``, on the reference
    scale: ``baseline`` → :data:`REFERENCE_BASELINE`, 1 → 1, linear between (and
    below). ``None`` (a model nobody measured): unchanged."""
    if baseline is None:
        return cosine
    return REFERENCE_BASELINE + (cosine - baseline) * (1.0 - REFERENCE_BASELINE) \
        / (1.0 - baseline)


def _clip(x: float) -> float:
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def _on_scale(cosine: float, baseline: float | None) -> float:
    """A cosine as fusion's dense side and dense-only recall read it: on the reference
    scale (:func:`rescale`), clipped to [0, 1]."""
    return _clip(rescale(cosine, baseline))


def dense_only(hits: Sequence[ScoredId], baseline: float | None) -> list[ScoredId]:
    """The pool of a recall without full text (``hybrid.enabled: false``, or a store
    without a lexical index): the dense hits with their cosines on the reference scale
    (:func:`rescale`, clipped to [0, 1]), as :func:`score_fusion` puts its dense side.

    Why: every later rule adds or compares scores with shares chosen on that scale
    (a reply inherits 0.7 of its parent's, a sitting lends 0.2 of its best match,
    ``min_score``). Raw multilingual-e5 cosines all sit near 0.85, so a reply never
    inherited (0.7 × 0.85 is below every candidate's own score) and a sitting's 0.17
    outweighed any difference of meaning: on the dev splits of ``bench/quality.py``
    the dense-only configuration found 625 of 738 questions on raw cosines and 655 on
    the reference scale (the Chinese sets, where ``auto`` picks e5; the English
    default model's scale is the reference, so nothing changes there). Order is kept
    (the map is increasing), ties apart: cosines above 1 or below 0 after the map tie
    at the clip."""
    if baseline is None or baseline == REFERENCE_BASELINE:
        return list(hits)
    return [ScoredId(s.message_id, _on_scale(s.score, baseline), s.model_id, s.role,
                     s.session_id, s.ts) for s in hits]


def score_fusion(dense: Sequence[ScoredId], lexical: Sequence[ScoredId], *, trust: float,
                 limit: int, cosine_baseline: float | None = None,
                 measured: Sequence[ScoredId] = (),
                 measured_lexical: Sequence[ScoredId] = ()) -> list[ScoredId]:
    """Calibrated score blending: ``trust · cosine + (1 − trust) · lexical``, the
    cosine on the reference scale (:func:`rescale`). ``measured``: the cosines of
    lexical-only candidates; the rest of them get the dense pool's lowest.
    ``measured_lexical``: the full-text scores of dense-only candidates; the rest 0."""
    d = {s.message_id: _on_scale(s.score, cosine_baseline) for s in dense}
    floor = min(d.values()) if d else 0.0
    for s in measured:
        d.setdefault(s.message_id, _on_scale(s.score, cosine_baseline))
    lx = {s.message_id: _clip(s.score) for s in lexical}
    for s in measured_lexical:
        lx.setdefault(s.message_id, _clip(s.score))
    return _fused(dense, lexical, limit, lambda mid: (
        trust * d.get(mid, floor) + (1.0 - trust) * lx.get(mid, 0.0)))


def rank_fusion(dense: Sequence[ScoredId], lexical: Sequence[ScoredId], *, trust: float,
                limit: int, k: int = 60) -> list[ScoredId]:
    """Weighted reciprocal-rank fusion, scaled to [0, 1]."""
    rd = {s.message_id: i for i, s in enumerate(dense, 1)}
    rl = {s.message_id: i for i, s in enumerate(lexical, 1)}

    def score(mid: str) -> float:
        a = trust / (k + rd[mid]) if mid in rd else 0.0
        b = (1.0 - trust) / (k + rl[mid]) if mid in rl else 0.0
        return (a + b) * (k + 1)

    return _fused(dense, lexical, limit, score)


def pool_order(s: ScoredId) -> tuple[float, int, str]:
    """The candidate pool's order, as a sort key: best score first, then newer, then id
    (a stable order for ties); every stage that rescored the pool sorts by it."""
    return (-s.score, -s.ts, s.message_id)


def _fused(dense: Sequence[ScoredId], lexical: Sequence[ScoredId], limit: int,
           score: Callable[[str], float]) -> list[ScoredId]:
    by_id: dict[str, ScoredId] = {}
    for s in (*dense, *lexical):
        by_id.setdefault(s.message_id, s)
    # the constructor, not dataclasses.replace: this runs for every candidate of every recall
    out = [ScoredId(mid, score(mid), s.model_id, s.role, s.session_id, s.ts)
           for mid, s in by_id.items()]
    out.sort(key=pool_order)
    return out[:limit]


def fuse(dense: Sequence[ScoredId], lexical: Sequence[ScoredId], *, query: str,
         languages: Sequence[str] | None, dense_weight: float,
         dense_weight_uncovered: float, limit: int,
         method: FusionMethod = "score", rrf_k: int = 60,
         cosine_baseline: float | None = None,
         measured: Sequence[ScoredId] = (),
         measured_lexical: Sequence[ScoredId] = ()) -> list[ScoredId]:
    """One candidate pool of at most ``limit`` from both lists (see the module docs);
    ``measured`` / ``measured_lexical``: the cosines of the lexical-only candidates and
    the full-text scores of the dense-only ones (score fusion)."""
    trust = dense_trust(query, languages, dense_weight=dense_weight,
                        dense_weight_uncovered=dense_weight_uncovered)
    if method == "rank":
        return rank_fusion(dense, lexical, trust=trust, limit=limit, k=rrf_k)
    return score_fusion(dense, lexical, trust=trust, limit=limit,
                        cosine_baseline=cosine_baseline, measured=measured,
                        measured_lexical=measured_lexical)


__all__ = [
    "CJK_LANGUAGES",
    "DEFAULT_DENSE_WEIGHT",
    "REFERENCE_BASELINE",
    "FusionMethod",
    "covers",
    "dense_only",
    "dense_trust",
    "fuse",
    "pool_order",
    "rank_fusion",
    "rescale",
    "score_fusion",
]
