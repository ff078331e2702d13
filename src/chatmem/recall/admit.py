"""Admission (F4, F7, F11): which candidates of the pool may become hits, and why the
others were dropped.

Two pure steps around one store read: :func:`admit` looks at the index's answers
(model, score, role, ids the caller already has); :func:`admit_messages` at the
stored messages behind the survivors (deleted meanwhile, or this turn's own
words). The counts end up in ``RecallResult.excluded``.
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


def admit(pool: Sequence[ScoredId], plan: RecallPlan, *, model_id: str,
          legacy_model: str) -> Admission:
    """Keep the query model's vectors (legacy vectors count as ``legacy_model``; a
    full-text hit of a message not embedded yet, model :data:`PENDING_MODEL`, has no
    vector space and counts as the query model's), scores at or above the floor,
    non-assistant hits with ``others-only`` (legacy vectors without a role count as
    ``user``), and ids the caller does not already have."""
    out = Admission(kept=[])
    for s in pool:
        model = model_id if s.model_id == PENDING_MODEL else s.model_id or legacy_model
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
