"""What a recall returns: hits with their context, merged snippets, the rendered text."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import EmbeddingUnavailable
from ..models import Message
from .expand import Snippet
from .period import Period
from .rank import Ranked


class DegradedReason(str):
    """Why a recall ranked by full text alone: ``query not embedded (<the provider's
    error>); ranked by full text only``, as text. ``error`` is that error: a server
    tells a caller who may not learn where the provider is (its answer, a host) the
    same sentence around another account of it (:meth:`told`,
    :func:`chatmem.server.told_degraded`)."""

    error: EmbeddingUnavailable
    what: str

    def __new__(cls, error: EmbeddingUnavailable) -> DegradedReason:
        what = "refused" if error.width_mismatch else "not embedded"
        self = super().__new__(cls, f"query {what} ({error}); ranked by full text only")
        self.error, self.what = error, what
        return self

    def told(self, said: str) -> str:
        """The reason with ``said`` in place of the provider's error."""
        return f"query {self.what} ({said}); ranked by full text only"


@dataclass(frozen=True)
class Hit:
    """One recalled message with the neighbours brought along for context."""

    message: Message
    score: float
    semantic: float
    recency: float
    boost: float
    before: tuple[Message, ...] = ()
    after: tuple[Message, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "message": self.message.to_dict(), "score": self.score, "semantic": self.semantic,
            "recency": self.recency, "boost": self.boost,
            "before": [m.to_dict() for m in self.before],
            "after": [m.to_dict() for m in self.after],
        }


def hits_with_context(ranked: Sequence[Ranked], neighbours: Mapping[str, Sequence[Message]]
                      ) -> tuple[Hit, ...]:
    """Each ranked message with its neighbours split into before and after it."""
    out = []
    for r in ranked:
        assert r.message.id is not None and r.message.ts is not None
        around = neighbours.get(r.message.id, ())
        out.append(Hit(r.message, r.score, r.semantic, r.recency, r.boost,
                       before=tuple(m for m in around if (m.ts or 0) < r.message.ts),
                       after=tuple(m for m in around if (m.ts or 0) > r.message.ts)))
    return tuple(out)


@dataclass(frozen=True)
class RecallResult:
    """Structured hits, the merged snippets and the rendered system message."""

    query: str | None
    hits: tuple[Hit, ...] = ()
    snippets: tuple[Snippet, ...] = ()
    text: str = ""
    #: Why candidates were dropped: other_model (a vector of another model that full
    #: text did not find: one it found stays, ranked by its words, and a reply that
    #: inherits a candidate's score stays, as a reply: never a hit and counted), min_score, role,
    #: in_context, gone, budget (hits past the characters one recall returns).
    excluded: Mapping[str, int] = field(default_factory=dict)
    #: The scope that was applied, and whether a wider request was clamped to it (F8).
    scope: str = "all"
    clamped: bool = False
    #: Why this recall ranked by full text alone although dense search was asked for
    #: (the query could not be embedded: the provider is down, cooling down, too slow);
    #: None when it ran as configured.
    degraded_reason: str | None = None
    #: The stretch of time the query named, as this recall read it (rule 30:
    #: "yesterday" → that day in ``Config.timezone``), or None: says which day a
    #: relative word meant, e.g. when the time zone is not the user's.
    period: Period | None = None

    @property
    def degraded(self) -> bool:
        return self.degraded_reason is not None

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "hits": [h.to_dict() for h in self.hits],
                "text": self.text, "excluded": dict(self.excluded), "scope": self.scope,
                "clamped": self.clamped, "degraded": self.degraded,
                "degraded_reason": self.degraded_reason,
                "period": None if self.period is None else self.period.to_dict()}
