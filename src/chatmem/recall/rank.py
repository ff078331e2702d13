"""Reranking (F4): ``final = ((1 − w)·semantic + w·recency) × boost``."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..models import Message

MS_PER_DAY = 86_400_000


@dataclass(frozen=True)
class Candidate:
    message: Message
    semantic: float
    model_id: str | None = None


@dataclass(frozen=True)
class Ranked:
    message: Message
    score: float
    semantic: float
    recency: float
    boost: float


def recency(ts: int, now_ms: int, half_life_days: float) -> float:
    """0.5^(age / half_life); a message from the future counts as brand new."""
    age_days = max(now_ms - ts, 0) / MS_PER_DAY
    return float(0.5 ** (age_days / half_life_days))


def is_about(msg: Message, speakers: Collection[str]) -> bool:
    """Spoken by, or mentioning, one of ``speakers`` (the same-user boost rule)."""
    return (msg.speaker_id is not None and msg.speaker_id in speakers) or any(
        m in speakers for m in msg.mentions
    )


def rerank(candidates: Sequence[Candidate], *, now_ms: int, time_weight: float,
           half_life_days: float, boost_speakers: Collection[str] = (),
           boost: float = 1.0) -> list[Ranked]:
    """Score and sort; ties break by time (newer first) then id, so order is stable."""
    out = []
    for c in candidates:
        assert c.message.ts is not None
        r = recency(c.message.ts, now_ms, half_life_days)
        b = boost if boost_speakers and is_about(c.message, boost_speakers) else 1.0
        score = ((1.0 - time_weight) * c.semantic + time_weight * r) * b
        out.append(Ranked(c.message, score, c.semantic, r, b))
    out.sort(key=lambda h: (-h.score, -(h.message.ts or 0), h.message.id or ""))
    return out
