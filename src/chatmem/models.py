"""The data model (SPEC §2), defined once and shared by every layer.

All records are frozen dataclasses: a backend returns them, the recall
pipeline passes them along, nobody mutates them.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Literal

from .errors import InvalidInput

Role = Literal["user", "assistant", "system", "tool", "notice"]
ROLES: frozenset[str] = frozenset({"user", "assistant", "system", "tool", "notice"})

#: Control kinds: event markers (compaction dividers, replies to commands).
CONTROL_KINDS: frozenset[str] = frozenset({"divider", "command_reply"})
#: Directive kinds: instructions, nobody's words; never brought in as neighbours.
DIRECTIVE_KINDS: frozenset[str] = frozenset({"directive"})
KINDS: frozenset[str] = frozenset({"message"}) | CONTROL_KINDS | DIRECTIVE_KINDS

#: Roles whose messages are embedded (F1); everything else is stored only.
INDEXED_ROLES: frozenset[str] = frozenset({"user", "assistant"})

#: Longest message body accepted, in characters (R3: huge input gets a clear error).
MAX_CONTENT_CHARS = 200_000


class IndexState(IntEnum):
    """Where a stored message stands with respect to the vector index."""

    PENDING = 0
    INDEXED = 1
    SKIPPED = 2  # stored, never embedded (F1: tool/system/notice/source/control)
    FAILED = 3  # embedding failed terminally; retried by a sweep (E12)
    #: indexable, but its vector was cleared on purpose (F12): not re-embedded in the
    #: background; ``reindex`` embeds it again
    CLEARED = 4


def now_ms() -> int:
    return int(time.time() * 1000)


@dataclass(frozen=True)
class Message:
    """One message of one session.

    ``id`` and ``ts`` are assigned by the store when not given; ``ts`` is in
    milliseconds and unique within a session (equal timestamps are staggered).
    """

    session_id: str
    content: str
    role: Role = "user"
    ts: int | None = None
    id: str | None = None
    kind: str = "message"
    visible_content: str | None = None
    source: str | None = None
    speaker_id: str | None = None
    speaker_name: str | None = None
    mentions: tuple[str, ...] = ()
    platform: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)

    @property
    def indexable(self) -> bool:
        """F1: user and assistant words are embedded; internal injections are not."""
        return (
            self.role in INDEXED_ROLES
            and self.kind == "message"
            and not self.source
        )

    @property
    def shown_text(self) -> str:
        """What the user saw: ``visible_content`` when the content is an envelope."""
        return self.visible_content if self.visible_content else self.content

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "session_id": self.session_id,
            "ts": self.ts,
            "role": self.role,
            "kind": self.kind,
            "content": self.content,
            "visible_content": self.visible_content,
            "source": self.source,
            "speaker_id": self.speaker_id,
            "speaker_name": self.speaker_name,
            "mentions": list(self.mentions),
            "platform": self.platform,
            "metadata": dict(self.metadata),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], *, where: str = "message") -> Message:
        """Build a message from JSON-like data, with errors naming the field."""
        if not isinstance(data, Mapping):
            raise InvalidInput(f"{where}: expected an object, got {type(data).__name__}")
        known = {
            "id", "session_id", "ts", "role", "kind", "content", "visible_content", "source",
            "speaker_id", "speaker_name", "mentions", "platform", "metadata",
        }
        unknown = sorted(set(data) - known)
        if unknown:
            raise InvalidInput(f"{where}: unknown field(s) {', '.join(unknown)}")
        for name in ("session_id", "content"):
            if name not in data:
                raise InvalidInput(f"{where}.{name} is required")
        mentions = data.get("mentions") or ()
        if not isinstance(mentions, (list, tuple)):
            raise InvalidInput(f"{where}.mentions must be a list of ids")
        metadata = data.get("metadata") or {}
        if not isinstance(metadata, Mapping):
            raise InvalidInput(f"{where}.metadata must be an object")
        msg = cls(
            session_id=data["session_id"],
            content=data["content"],
            role=data.get("role", "user"),
            ts=data.get("ts"),
            id=data.get("id"),
            kind=data.get("kind", "message"),
            visible_content=data.get("visible_content"),
            source=data.get("source"),
            speaker_id=data.get("speaker_id"),
            speaker_name=data.get("speaker_name"),
            mentions=tuple(mentions),
            platform=data.get("platform"),
            metadata=dict(metadata),
        )
        validate_message(msg, where=where)
        return msg


def _check_text(value: object, name: str, *, required: bool) -> None:
    if value is None:
        if required:
            raise InvalidInput(f"{name} is required")
        return
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, got {type(value).__name__}")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{name} is not valid UTF-8 text (lone surrogate at index {exc.start})"
        ) from None
    if "\x00" in value:
        raise InvalidInput(f"{name} contains a NUL character")


def validate_message(msg: Message, *, where: str = "message") -> None:
    """R3: reject what cannot be stored faithfully, naming the field."""
    _check_text(msg.session_id, f"{where}.session_id", required=True)
    if not msg.session_id.strip():
        raise InvalidInput(f"{where}.session_id must not be empty")
    if len(msg.session_id) > 512:
        raise InvalidInput(f"{where}.session_id is longer than 512 characters")
    _check_text(msg.content, f"{where}.content", required=True)
    if not msg.content.strip():
        raise InvalidInput(f"{where}.content is empty; store something or skip the message")
    if len(msg.content) > MAX_CONTENT_CHARS:
        raise InvalidInput(
            f"{where}.content has {len(msg.content)} characters; the limit is "
            f"{MAX_CONTENT_CHARS} (split the text or store an attachment reference)"
        )
    if msg.role not in ROLES:
        raise InvalidInput(f"{where}.role must be one of {sorted(ROLES)}, got {msg.role!r}")
    if msg.kind not in KINDS:
        raise InvalidInput(f"{where}.kind must be one of {sorted(KINDS)}, got {msg.kind!r}")
    if msg.ts is not None and (
        isinstance(msg.ts, bool) or not isinstance(msg.ts, int) or msg.ts < 0
    ):
        raise InvalidInput(f"{where}.ts must be a non-negative integer (milliseconds)")
    for name in ("id", "visible_content", "source", "speaker_id", "speaker_name", "platform"):
        _check_text(getattr(msg, name), f"{where}.{name}", required=False)
    if msg.visible_content is not None and len(msg.visible_content) > MAX_CONTENT_CHARS:
        raise InvalidInput(f"{where}.visible_content is longer than {MAX_CONTENT_CHARS}")
    for i, m in enumerate(msg.mentions):
        _check_text(m, f"{where}.mentions[{i}]", required=True)
    if not isinstance(msg.metadata, Mapping):
        raise InvalidInput(f"{where}.metadata must be an object")


@dataclass(frozen=True)
class Session:
    """A conversation: an IM group or private chat, a web console thread, a sub-task."""

    id: str
    parent_id: str | None = None
    resource_id: str | None = None
    origin_platform: str | None = None
    chat_type: str | None = None
    group_id: str | None = None
    group_name: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)
    settings: Mapping[str, Any] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "parent_id": self.parent_id,
            "resource_id": self.resource_id,
            "origin_platform": self.origin_platform,
            "chat_type": self.chat_type,
            "group_id": self.group_id,
            "group_name": self.group_name,
            "metadata": dict(self.metadata),
            "settings": dict(self.settings),
        }


@dataclass(frozen=True)
class VectorEntry:
    """A derived vector for one indexed message (SPEC §2 vector entry)."""

    message_id: str
    session_id: str
    ts: int
    role: str | None  # None: a legacy vector without a role (counts as "user", F7)
    model_id: str | None  # None: a legacy vector without a model id (F11)
    vector: Any  # numpy float32 array, L2-normalised
    platform: str | None = None
    speaker_id: str | None = None
    mentions: tuple[str, ...] = ()
    resource_id: str | None = None
    session_metadata: Mapping[str, Any] = field(default_factory=dict)
    #: The session's origin platform at index time (F9: same-platform test).
    origin_platform: str | None = None
    message_metadata: Mapping[str, Any] = field(default_factory=dict)
    #: The text that was embedded (F1); backends with a lexical index search it (X1).
    text: str | None = None


#: Fields a vector-index filter (``where``) may name. ``meta.<path>`` reads the
#: session-metadata snapshot, ``message.<path>`` the message metadata.
VECTOR_FIELDS: frozenset[str] = frozenset({
    "message_id", "session_id", "ts", "role", "model_id", "platform", "origin_platform",
    "speaker_id", "resource_id",
})
VECTOR_JSON_PREFIXES: tuple[str, ...] = ("meta", "message")


@dataclass(frozen=True)
class ScoredId:
    """One nearest-neighbour answer of a vector index."""

    message_id: str
    score: float
    model_id: str | None
    role: str | None
    session_id: str
    ts: int


@dataclass(frozen=True)
class StoreStats:
    messages: int
    sessions: int
    indexed: int
    pending: int
    failed: int
    skipped: int
    vectors_by_model: Mapping[str, int]
    #: Indexable messages whose vectors were cleared, waiting for ``reindex``.
    cleared: int = 0

    @classmethod
    def of(cls, states: Mapping[IndexState, int], sessions: int,
           vectors_by_model: Mapping[str, int]) -> StoreStats:
        """From message counts per index state (what every SQL store selects)."""
        return cls(messages=sum(states.values()), sessions=sessions,
                   indexed=states.get(IndexState.INDEXED, 0),
                   pending=states.get(IndexState.PENDING, 0),
                   failed=states.get(IndexState.FAILED, 0),
                   skipped=states.get(IndexState.SKIPPED, 0),
                   cleared=states.get(IndexState.CLEARED, 0),
                   vectors_by_model=vectors_by_model)


def coerce_messages(items: Message | Mapping[str, Any] | Sequence[Message | Mapping[str, Any]]
                    ) -> list[Message]:
    """Accept one message or many, as dataclasses or mappings."""
    if isinstance(items, (Message, Mapping)):
        items = [items]
    out: list[Message] = []
    for i, item in enumerate(items):
        where = f"messages[{i}]"
        if isinstance(item, Message):
            validate_message(item, where=where)
            out.append(item)
        else:
            out.append(Message.from_dict(item, where=where))
    return out
