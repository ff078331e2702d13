"""Admission (F4, F7, F11): which candidates of the pool may become hits, and why the
others were dropped.

Pure steps around one store read: :func:`by_model` keeps the candidates of the query's
vector space before any rule lends one candidate's score to another (F11: a cosine of
another model's space means nothing, and neither does a share of it);
:func:`admit` looks at the index's answers (score, role, ids the caller already has);
:func:`admit_messages` at the stored messages behind the survivors (deleted meanwhile,
or this turn's own words). The counts end up in ``RecallResult.excluded``.

F11 excludes another model's *vectors*, not its messages' words: a full-text match
whose vector is another model's (a store not yet re-embedded after ``embedding.model``
changed) is a full-text-only candidate (:func:`full_text_only`), scored as one not
embedded yet, until ``reindex`` gives it a vector of the query's model.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from ..models import PENDING_MODEL, Message, ScoredId
from .rank import Candidate
from .request import RecallPlan

#: The reasons a candidate is dropped, in ``RecallResult.excluded`` (``budget``: a hit
#: past the characters one recall returns, ``chatmem.memory.MAX_RECALL_CHARS``).
REASONS = ("other_model", "min_score", "role", "in_context", "gone", "budget")


@dataclass
class Admission:
    """The candidates still in the running, and the counts of those dropped."""

    kept: list[ScoredId]
    excluded: dict[str, int] = field(default_factory=lambda: dict.fromkeys(REASONS, 0))
    #: Models whose vectors were skipped (F11: one warning per run lists them).
    other_models: set[str] = field(default_factory=set)
    #: The ids :func:`by_model` left out for their vectors' model, counted as
    #: ``other_model`` until :func:`admit` finds one back in the pool.
    dropped: list[str] = field(default_factory=list)


def _model_of(s: ScoredId, model_id: str, legacy_model: str) -> str:
    """The model whose space ``s``'s score is in: legacy vectors count as
    ``legacy_model``; a full-text-only candidate (model :data:`PENDING_MODEL`) has no
    vector space and counts as the query model's."""
    return model_id if s.model_id == PENDING_MODEL else s.model_id or legacy_model


def by_model(pool: Sequence[ScoredId], *, model_id: str, legacy_model: str) -> Admission:
    """The candidates whose vectors are the query model's (legacy vectors count as
    ``legacy_model``) or that have none (full-text-only); the others counted as
    ``other_model`` with their models."""
    out = Admission(kept=[])
    for s in pool:
        model = _model_of(s, model_id, legacy_model)
        if model != model_id:
            out.excluded["other_model"] += 1
            out.other_models.add(model)
            out.dropped.append(s.message_id)
        else:
            out.kept.append(s)
    return out


def full_text_only(hits: Sequence[ScoredId], model_id: str) -> list[ScoredId]:
    """Full-text hits (legacy vectors named by :func:`attributed`) with those whose
    vector is not the query model's, ``model_id``, made full-text-only candidates, model
    :data:`PENDING_MODEL`: their words match, and no cosine of theirs may be compared
    with the query's."""
    return [s if s.model_id in (model_id, PENDING_MODEL) else ScoredId(
        s.message_id, s.score, PENDING_MODEL, s.role, s.session_id, s.ts) for s in hits]


def attributed(hits: Sequence[ScoredId], legacy_model: str) -> list[ScoredId]:
    """``hits`` with legacy vectors (no ``model_id``) named ``legacy_model``, the model
    their marker records (F11)."""
    return [s if s.model_id is not None else ScoredId(
        s.message_id, s.score, legacy_model, s.role, s.session_id, s.ts) for s in hits]


def admit(pool: Sequence[ScoredId], plan: RecallPlan, *, model_id: str,
          legacy_model: str, models: Admission | None = None) -> Admission:
    """Keep the query model's vectors (:func:`by_model`), scores at or above the floor,
    non-assistant hits with ``others-only`` (legacy vectors without a role count as
    ``user``), and ids the caller does not already have. ``models``: the
    :func:`by_model` step already run on the pool's sources, whose counts go on; a
    candidate it left out that is back in ``pool`` is not counted as ``other_model``:
    a reply inheriting its parent's score (:mod:`.follow`, a share of a score of the
    query's space, never a cosine of its own vector) is a candidate as a reply not
    embedded yet is, and a hit is never also counted as dropped."""
    out = Admission(kept=[])
    if models is not None:
        out.excluded.update(models.excluded)
        out.other_models |= models.other_models
        back = {s.message_id for s in pool}
        out.excluded["other_model"] = sum(1 for i in models.dropped if i not in back)
    for s in pool:
        model = _model_of(s, model_id, legacy_model)
        if model != model_id:
            out.excluded["other_model"] += 1
            out.other_models.add(model)
        elif s.score < plan.min_score:
            out.excluded["min_score"] += 1
        elif plan.others_only and (s.role or "user") == "assistant":
            out.excluded["role"] += 1
        elif s.message_id in plan.skip_ids:
            out.excluded["in_context"] += 1
        else:
            out.kept.append(s)
    return out


def admit_messages(admission: Admission, messages: Mapping[str, Message],
                   plan: RecallPlan) -> list[Candidate]:
    """The candidates with their stored messages; a message deleted since it was indexed
    is ``gone``, this turn's own words are ``in_context``."""
    out: list[Candidate] = []
    for s in admission.kept:
        m = messages.get(s.message_id)
        if m is None:
            admission.excluded["gone"] += 1
        elif (m.session_id, m.content) in plan.turn_texts:
            admission.excluded["in_context"] += 1
        else:
            out.append(Candidate(m, s.score, s.model_id))
    return out
