"""What an operator sees of a namespace (the console's Sessions page, ``GET
/v1/sessions``): per session its labels, message counts, last activity and the
effective scope and retention with the layer each comes from."""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from .models import IndexState, Session
from .telemetry import Timing

#: The index states by the names the API and the console show.
STATE_NAMES: dict[IndexState, str] = {state: state.name.lower() for state in IndexState}


@dataclass(frozen=True)
class SessionSummary:
    """One session as the console lists it."""

    session: Session
    #: The root session's origin platform (F9): the platform its scope ``platform`` means.
    platform: str | None
    messages: int
    #: Messages per index state (``pending``, ``indexed``, ``failed``, ``skipped``,
    #: ``cleared``); states with none are left out.
    states: dict[str, int] = field(default_factory=dict)
    #: ``ts`` of the newest message (ms); None when it has none.
    last_ts: int | None = None
    #: The platform of the newest message (a session without an origin platform is
    #: labelled by it).
    last_platform: str | None = None
    scope: str = "all"
    scope_layer: str = "config"
    retention_days: int = 0
    retention_layer: str = "config"
    #: False for a session that holds messages but has no session row (removed outside
    #: chatmem, a hand ``DELETE FROM sessions …``): listed by its id alone, its labels
    #: empty, no platform, chat-type or group setting reaching it until it is
    #: registered again (README § Retention names the repair).
    registered: bool = True

    def to_dict(self) -> dict[str, Any]:
        s = self.session
        return {"id": s.id, "platform": self.platform, "chat_type": s.chat_type,
                "group_id": s.group_id, "group_name": s.group_name,
                "parent_id": s.parent_id, "resource_id": s.resource_id,
                "messages": self.messages, "states": dict(self.states),
                "last_ts": self.last_ts, "last_platform": self.last_platform,
                "scope": {"scope": self.scope, "layer": self.scope_layer},
                "retention": {"days": self.retention_days, "layer": self.retention_layer},
                "registered": self.registered}


@dataclass(frozen=True)
class SessionsPage:
    """One page of :meth:`chatmem.Memory.sessions`, ordered by session id."""

    sessions: tuple[SessionSummary, ...]
    #: Pass as ``after`` for the next page; None on the last.
    next_after: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"sessions": [s.to_dict() for s in self.sessions],
                "next_after": self.next_after}


class IndexingHistory:
    """Messages indexed and failed per ``bucket_s`` seconds over the last ``buckets``
    buckets: the throughput the console's Health page charts (``stats()["indexing"]``).
    A :class:`~chatmem.telemetry.Telemetry` listener of the indexing batches; kept in
    memory only (a restart starts it over)."""

    def __init__(self, bucket_s: int = 10, buckets: int = 30,
                 clock: Callable[[], float] = time.time) -> None:
        self.bucket_s, self.buckets, self.clock = bucket_s, buckets, clock
        #: (bucket number, indexed, failed), oldest first.
        self._counts: deque[list[int]] = deque(maxlen=buckets)

    def on_timing(self, timing: Timing) -> None:
        if timing.what != "index_batch" or timing.outcome == "split":
            return  # a split batch's messages are counted by their own batches
        bucket = int(self.clock() // self.bucket_s)
        if not self._counts or self._counts[-1][0] != bucket:
            self._counts.append([bucket, 0, 0])
        self._counts[-1][1 if timing.outcome == "ok" else 2] += timing.size

    def to_dict(self) -> dict[str, Any]:
        """``indexed`` and ``failed``: one count per bucket, oldest first, the last being
        the bucket under way; ``bucket_s`` seconds each."""
        now = int(self.clock() // self.bucket_s)
        by_bucket = {b: (ok, bad) for b, ok, bad in self._counts}
        span = range(now - self.buckets + 1, now + 1)
        return {"bucket_s": self.bucket_s,
                "indexed": [by_bucket.get(b, (0, 0))[0] for b in span],
                "failed": [by_bucket.get(b, (0, 0))[1] for b in span]}


__all__ = ["STATE_NAMES", "IndexingHistory", "SessionSummary", "SessionsPage"]
