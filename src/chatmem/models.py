"""The data model (SPEC §2), defined once and shared by every layer.

All records are frozen dataclasses: a backend returns them, the recall
pipeline passes them along, nobody mutates them.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from enum import IntEnum
from typing import Any, Literal

from .errors import InvalidInput
from .refusals import WrittenNumber, describe, short_repr, unknown_fields, unknown_keys

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
#: Longest id or label (session id, message id, speaker, platform, source, group…).
MAX_LABEL_CHARS = 512
#: Most ids in ``mentions``.
MAX_MENTIONS = 256
#: Most messages one ``list`` page holds (I8): Memory's and the HTTP client's alike.
MAX_PAGE = 1000
#: What a page's ``limit`` must be, in every door's refusal (``limit must be an integer
#: from 1 to 1000, got 0``: the library's, the HTTP API's, the client's).
LIMIT_TAKES = f"an integer from 1 to {MAX_PAGE}"
#: Timestamps are milliseconds since the Unix epoch from 1970-01-01 to 9999-12-31
#: 23:59:59.999 UTC: every one of them renders as a date, fits a 64-bit column and
#: survives a JSON round trip through any language (R3).
MIN_TS = 0
MAX_TS = 253_402_300_799_999
#: JSON values (metadata, settings): deepest nesting and largest encoded size.
MAX_JSON_DEPTH = 32
MAX_JSON_CHARS = 100_000
#: How ``POST /v1/messages/get`` begins its 400 when the messages asked for hold more
#: text than one answer carries; :mod:`chatmem.client` then asks for fewer at a time.
TOO_MUCH_TEXT = "ids: the messages asked for hold more than"
_INT64 = 2**63


class IndexState(IntEnum):
    """Where a stored message stands with respect to the vector index."""

    PENDING = 0
    INDEXED = 1
    SKIPPED = 2  # stored, never embedded (F1: tool/system/notice/source/control)
    #: embedding failed (the provider was down, deferred, or answered garbage): waiting
    #: for a retry at its scheduled time, with a backoff that grows per attempt (E12)
    FAILED = 3
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

    @property
    def embedded_text(self) -> str:
        """F1: the text this message is embedded (and tokenized) as: :func:`embedded_text`."""
        return embedded_text(self)

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
    def from_dict(cls, data: Mapping[str, Any], *, path: str = "message") -> Message:
        """Build a message from JSON-like data, with errors naming the field (``path``:
        what the data is, ``message``, ``line 3: message``)."""
        check_text(path, "path", required=True, max_chars=MAX_LABEL_CHARS)  # in every error
        if not isinstance(data, Mapping):
            raise InvalidInput(f"{path}: expected an object, got {describe(data)}")
        known = list(cls.__dataclass_fields__)
        unknown = sorted(unknown_keys(data, known))
        if unknown:
            raise InvalidInput(unknown_fields(path, unknown, known))
        for name in ("session_id", "content"):
            if name not in data:
                raise InvalidInput(f"{path}.{name} is required")
        mentions = data.get("mentions")
        mentions = () if mentions is None else mentions
        if not isinstance(mentions, (list, tuple)):
            raise InvalidInput(f"{path}.mentions must be a list of ids, got "
                               f"{describe(mentions)}")
        metadata = data.get("metadata")
        metadata = {} if metadata is None else metadata
        if not isinstance(metadata, Mapping):
            raise InvalidInput(f"{path}.metadata must be an object, got {describe(metadata)}")
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
        validate_message(msg, path=path)
        return msg


def as_stored_json(value: Any) -> Any:
    """``value`` as a JSON store reads it back (a tuple given is a list read back), to
    compare two versions of a message's metadata: equal as JSON values (PostgreSQL's
    jsonb reads 1e16 back as an integer, equal as a number)."""
    return json.loads(json.dumps(value, default=str))


def same_indexed_version(a: Message, b: Message) -> bool:
    """Whether a vector entry made from ``a`` is one of ``b``: the same embedded text
    and the same metadata (which the entry carries for ``message.*`` filters)."""
    return (embedded_text(a) == embedded_text(b)
            and as_stored_json(a.metadata) == as_stored_json(b.metadata))


def embedded_text(msg: Message) -> str:
    """F1: the text a message is embedded as — its sender prefix plus its body.

    Defined with the model because both the indexer (what it embeds) and the
    stores (what they tokenize for full-text search, rebuilding rows from the
    message table) need it, and the stores sit below the indexer.

    User messages: the archived text as given (quotes, attachment descriptions).
    Assistant messages: what the user saw (``visible_content`` or ``content``),
    with the assistant's own name as prefix when its identity is known.
    """
    body = message_body(msg)
    if msg.speaker_name and not body.startswith(f"{msg.speaker_name}:"):
        return f"{msg.speaker_name}: {body}"
    return body


def message_body(msg: Message) -> str:
    """What a message says, without the sender prefix :func:`embedded_text` adds: the
    text as given for a user, what the user saw for the assistant. The language of a
    store is read from it (``embedding.model: auto``): a Chinese chat among senders with
    Latin handles ("xiaofeng_1994: 在吗") is still a Chinese chat."""
    return msg.shown_text if msg.role == "assistant" else msg.content


def check_text(value: object, name: str, *, required: bool = False,
               max_chars: int | None = None) -> None:
    """A string that can be stored anywhere: valid UTF-8 (no lone surrogate), no NUL."""
    if value is None:
        if required:
            raise InvalidInput(f"{name} is required")
        return
    if not isinstance(value, str):
        raise InvalidInput(f"{name} must be a string, got {describe(value)}")
    # the length first: a string of any length is refused without reading it through
    if max_chars is not None and len(value) > max_chars:
        raise InvalidInput(f"{name} is longer than {max_chars} characters ({len(value)})")
    try:
        value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise InvalidInput(
            f"{name} is not valid UTF-8 text (lone surrogate at index {exc.start})"
        ) from None
    if "\x00" in value:
        raise InvalidInput(f"{name} contains a NUL character")


def check_flag(value: object, name: str) -> bool:
    """``value`` if it is true or false, else :class:`InvalidInput` naming ``name`` (1,
    "no" or None are not taken as one)."""
    if not isinstance(value, bool):
        raise InvalidInput(f"{name} must be true or false, got {describe(value)}")
    return value


def check_label(value: object, name: str) -> str:
    """A non-empty id (session, speaker, resource, platform) naming ``name`` when it is
    not."""
    check_text(value, name, required=True, max_chars=MAX_LABEL_CHARS)
    assert isinstance(value, str)
    if not value:
        raise InvalidInput(f"{name} must not be empty")
    return value


def optional_label(value: object, name: str) -> str | None:
    """``None``, or a non-empty id (:func:`check_label`): a selector given as ``""``
    (``platform=""``, ``session=""``) is refused, naming ``name``, not taken as one
    that matches nothing (or as none at all), since no stored message or session can
    carry an empty one."""
    return None if value is None else check_label(value, name)


def check_ts(value: object, name: str) -> int:
    """A timestamp in milliseconds within [MIN_TS, MAX_TS] (year 1970 to 9999)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer (milliseconds since the epoch), "
                           f"got {describe(value)}")
    if not MIN_TS <= value <= MAX_TS:
        raise InvalidInput(f"{name} must be from {MIN_TS} to {MAX_TS} (milliseconds since "
                           f"1970 up to the year 9999), got {short_repr(value)}")
    return value


def retried_add(old: Message, new: Message, message_id: str) -> Message:
    """An add whose id is already stored: the stored message when ``new`` is the same add
    again (an idempotent retry), else :class:`InvalidInput` (S2: ids are never reused)."""
    # the store moves a ts only later (equal times within a session are staggered
    # forward), so an earlier ts asked for is the same add, stored a little later: a
    # batch of two messages at one second, retried after a timeout, was refused
    # a message of another session is another message, whatever it says: its role and
    # content are not compared, so that the refusal tells nothing of them to a caller
    # who may not see that session (a user key guessed words until "with another
    # session_id" alone confirmed them, R4)
    differing = ["session_id"] if old.session_id != new.session_id else [
        name for name, a, b in (("role", old.role, new.role),
                                ("content", old.content, new.content)) if a != b]
    if differing:
        # named for every caller (library, CLI, HTTP, import): "rewrite()" alone sent a
        # CLI or HTTP user looking for a function, and did not say what differed
        raise InvalidInput(f"message id {describe(message_id)} already exists with another "
                           f"{' and '.join(differing)}: an id names one message for good; "
                           "give a new message its own id, or change the stored one with "
                           "rewrite (Memory.rewrite, chatmem rewrite, POST /v1/rewrite)")
    if new.ts is not None and old.ts is not None and new.ts > old.ts:
        # the same words said again later are another message: saying "different
        # content" of identical text sent the caller looking in the wrong field
        raise InvalidInput(f"message id {describe(message_id)} already exists at ts {old.ts}, "
                           f"earlier than the ts {new.ts} given: a retry of an add gives the "
                           "same ts or an earlier one; give a later message its own id")
    return old


def check_json(value: object, name: str) -> None:
    """A JSON value chatmem can store and give back unchanged on every backend.

    Objects need string keys; numbers must be finite (no NaN or infinity, which are
    not JSON) and integers fit 64 bits; strings are valid UTF-8 without NUL
    (PostgreSQL's jsonb refuses it); nesting is at most ``MAX_JSON_DEPTH`` deep
    (so a self-referencing value is refused, not followed) and the encoded value
    at most ``MAX_JSON_CHARS`` characters. Anything else (sets, bytes, objects) is
    refused rather than converted, so what is read back is what was written; so is an
    object inside the value that is a mapping but not a ``dict`` (a ``MappingProxyType``),
    which no JSON encoder takes (the value itself is copied into a ``dict`` when stored)."""
    json_cost(value, name, limit=MAX_JSON_CHARS)


def check_metadata(value: object, name: str, *, tuples: bool = False) -> None:
    """A message's or session's ``metadata`` or a session's ``settings``: an object whose
    value :func:`check_json` takes, holding no tuple: JSON reads one back as a list, so
    ``{"k": (1, 2)}`` was stored and read back as ``{"k": [1, 2]}``, not what was
    written (refused, as a set is; JSON given to the HTTP API or an import has none).
    ``tuples=True``: taken as lists, for a caller that sends the value as JSON (the HTTP
    client, as ``json.dumps`` does)."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{name} must be an object, got {describe(value)}")
    json_cost(value, name, limit=MAX_JSON_CHARS, tuples=tuples)


def json_cost(value: object, name: str, *, limit: int | None = None,
              tuples: bool = True) -> int:
    """The size :func:`check_json` counts for ``value`` (a string its characters and
    quotes, a number a fixed width), after checking everything else it checks; over
    ``limit`` it stops and refuses the value, so a huge one is not walked whole.
    ``tuples=False``: a tuple is refused (:func:`check_metadata`), not taken as a list."""
    spent = [0]

    def spend(n: int, path: str) -> None:
        spent[0] += n
        if limit is not None and spent[0] > limit:
            raise InvalidInput(f"{name} is too large (more than {limit} characters "
                               "as JSON)")

    def walk(v: object, path: str, depth: int) -> None:
        if depth > MAX_JSON_DEPTH:
            raise InvalidInput(f"{path}: nested deeper than {MAX_JSON_DEPTH} levels (or "
                               "refers to itself)")
        if v is None or isinstance(v, bool):
            spend(5, path)
        elif isinstance(v, int):
            if not -_INT64 <= v < _INT64:
                raise InvalidInput(f"{path}: integer out of the 64-bit range")
            spend(20, path)
        elif isinstance(v, float):
            if isinstance(v, WrittenNumber):  # 1e400 in a JSON body
                raise InvalidInput(f"{path}: {v.shown} (use a finite number, a string or "
                                   "null)")
            if not math.isfinite(v):
                raise InvalidInput(f"{path}: {v!r} is not a JSON number (use a finite "
                                   "number, a string or null)")
            spend(24, path)
        elif isinstance(v, str):
            check_text(v, path)
            spend(len(v) + 2, path)
        elif isinstance(v, Mapping):
            if depth > 1 and not isinstance(v, dict):
                raise InvalidInput(f"{path}: must be JSON (an object as a dict), got "
                                   f"{describe(v)}")
            spend(2, path)
            for key, item in v.items():
                if not isinstance(key, str):
                    raise InvalidInput(f"{path}: keys must be strings, got {describe(key)}")
                check_text(key, f"{path} key {short_repr(key)}")
                spend(len(key) + 3, path)
                walk(item, f"{path}.{key}", depth + 1)
        elif isinstance(v, (list, tuple)):
            if isinstance(v, tuple) and not tuples:
                raise InvalidInput(f"{path}: must be a list, not a tuple (it would be read "
                                   f"back as a list), got {describe(v)}")
            spend(2, path)
            for i, item in enumerate(v):
                walk(item, f"{path}[{i}]", depth + 1)
        else:
            raise InvalidInput(f"{path}: must be JSON (string, number, true/false, null, "
                               f"list or object), got {describe(v)}")

    walk(value, name, 1)
    return spent[0]


#: A message's labels that are absent (``None``) or not empty, whether it comes as a
#: Message or a mapping: an empty one is a speaker or platform no selector can name
#: (``forget(speaker_id="")`` is refused), and in a mapping it would stand in for the
#: batch's default unseen (a user message ``name: ""`` was stored with speaker ``""``
#: instead of the batch's ``speaker_id``, so ``forget(speaker_id=…)`` missed it).
LABEL_FIELDS = ("platform", "speaker_id", "speaker_name")


def blank_labels_as_none(record: Mapping[str, Any],
                         fields: Iterable[str] = LABEL_FIELDS) -> dict[str, Any]:
    """``record`` (a message's fields, or a vector's; a session's with
    ``fields=SESSION_TEXT_FIELDS``) with an empty (blank) label as ``None``, its
    meaning: chatmem before e721bfd stored ``""`` for no speaker or platform (and took
    it for a session's resource or group), so an export, a store or a server it wrote
    may hold one, which an import or a client reads as none rather than refusing the
    whole file or page."""
    names = frozenset(fields)
    return {k: None if k in names and isinstance(v, str) and not v.strip() else v
            for k, v in record.items()}


def validate_message(msg: Message, *, path: str = "message",
                     arguments: Mapping[str, str] | None = None) -> None:
    """R3: reject what cannot be stored faithfully, naming the field: ``path.field``,
    or, with ``arguments``, the caller's own argument that gave the field
    (``arguments={"session_id": "session"}``: a method taking the fields one by one,
    as :meth:`Memory.rewrite` does, names ``session``, not ``rewrite.session_id``)."""
    def at(field: str) -> str:
        return f"{path}.{field}" if arguments is None else arguments.get(field, field)

    if not isinstance(msg, Message):
        raise InvalidInput(f"{path}: expected a Message, got {describe(msg)}")
    check_text(msg.session_id, at("session_id"), required=True, max_chars=MAX_LABEL_CHARS)
    if not msg.session_id.strip():
        raise InvalidInput(f"{at('session_id')} must not be empty")
    check_text(msg.content, at("content"), required=True)
    if not msg.content.strip():
        raise InvalidInput(f"{at('content')} is empty; store something or skip the message")
    if len(msg.content) > MAX_CONTENT_CHARS:
        raise InvalidInput(
            f"{at('content')} has {len(msg.content)} characters; the limit is "
            f"{MAX_CONTENT_CHARS} (split the text or store an attachment reference)"
        )
    if not isinstance(msg.role, str) or msg.role not in ROLES:
        raise InvalidInput(f"{at('role')} must be one of {', '.join(sorted(ROLES))}, got "
                           f"{describe(msg.role)}")
    if not isinstance(msg.kind, str) or msg.kind not in KINDS:
        raise InvalidInput(f"{at('kind')} must be one of {', '.join(sorted(KINDS))}, got "
                           f"{describe(msg.kind)}")
    if msg.ts is not None:
        check_ts(msg.ts, at("ts"))
    for name in ("id", "source", "speaker_id", "speaker_name", "platform"):
        check_text(getattr(msg, name), at(name), max_chars=MAX_LABEL_CHARS)
    for name in LABEL_FIELDS:  # as a mapping's are (chat_format.to_message): selectors
        value = getattr(msg, name)
        if value is not None and not value.strip():
            raise InvalidInput(f"{at(name)} must not be empty (leave it out when there "
                               "is none)")
    if msg.id is not None and not msg.id.strip():
        raise InvalidInput(f"{at('id')} must not be empty (leave it out to get one)")
    check_text(msg.visible_content, at("visible_content"), max_chars=MAX_CONTENT_CHARS)
    if not isinstance(msg.mentions, (list, tuple)):
        raise InvalidInput(f"{at('mentions')} must be a list of ids, got "
                           f"{describe(msg.mentions)}")
    if len(msg.mentions) > MAX_MENTIONS:
        raise InvalidInput(f"{at('mentions')} has {len(msg.mentions)} ids; the limit is "
                           f"{MAX_MENTIONS}")
    for i, m in enumerate(msg.mentions):
        check_text(m, f"{at('mentions')}[{i}]", required=True, max_chars=MAX_LABEL_CHARS)
    check_metadata(msg.metadata, at("metadata"))


SESSION_TEXT_FIELDS = ("parent_id", "resource_id", "origin_platform", "chat_type", "group_id",
                       "group_name")


def validate_session(session: object, *, path: str = "session",
                     tuples: bool = False) -> Session:
    """R3: a session (or a mapping of its fields) that can be stored faithfully
    (``tuples``: see :func:`check_metadata`)."""
    if isinstance(session, Mapping):
        known = list(Session.__dataclass_fields__)
        unknown = sorted(unknown_keys(session, known))
        if unknown:
            raise InvalidInput(unknown_fields(path, unknown, known))
        if "id" not in session:
            raise InvalidInput(f"{path}.id is required")
        session = Session(**session)
    if not isinstance(session, Session):
        raise InvalidInput(f"{path}: expected a Session or a mapping, got {describe(session)}")
    check_text(session.id, f"{path}.id", required=True, max_chars=MAX_LABEL_CHARS)
    if not session.id.strip():
        raise InvalidInput(f"{path}.id must be a non-empty string")
    for name in SESSION_TEXT_FIELDS:
        value = getattr(session, name)
        check_text(value, f"{path}.{name}", max_chars=MAX_LABEL_CHARS)
        if value is not None and not value.strip():  # as HTTP refuses it: a selector
            raise InvalidInput(f"{path}.{name} must not be empty (leave it out when "
                               "there is none)")
    if session.parent_id == session.id:
        raise InvalidInput(f"{path}.parent_id must not be the session itself")
    for name in ("metadata", "settings"):
        check_metadata(getattr(session, name), f"{path}.{name}", tuples=tuples)
    return session


#: ``Session.chat_type`` values of a chat with more than two parties.
_GROUP_TYPES = frozenset({"group", "channel"})


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

    @property
    def is_group(self) -> bool:
        """A chat of more than two parties: it has a ``group_id``, or its ``chat_type``
        is ``group`` or ``channel`` (``search.reply_window_group`` applies to it)."""
        return self.group_id is not None or (self.chat_type or "").lower() in _GROUP_TYPES

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


#: The longest vector a store keeps (an embedding with ``embedding.normalize = false``,
#: an imported one, one a library user upserts). Under it every inner product of two
#: vectors is finite in float32 (at most 1e36, FLT_MAX 3.4e38): exact search's scores,
#: and faiss's in the ANN index, whose k-means aborted the process (std::terminate,
#: "invalid cluster assignment") on a provider's 1e37s.
MAX_VECTOR_LENGTH = 1e18


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


#: The ``model_id`` of the full-text entry of a message that has no vector yet (PENDING,
#: or FAILED and waiting for a retry, E12): such a message is found by full-text search
#: as soon as it is stored, with the visibility of an indexed one (X1), and recall admits
#: it whatever the query model (F11: it has no vector, so no vector space of its own).
#: Not a real id: those are ``"<provider>:<model>"`` and legacy vectors have none.
PENDING_MODEL = "<pending>"


def message_entry(msg: Message, *, vector: Any, model_id: str | None,
                  origin_platform: str | None, resource_id: str | None,
                  session_metadata: Mapping[str, Any]) -> VectorEntry:
    """The vector entry of a stored message (SPEC §2) with its session's snapshot fields
    (origin platform and resource id as scoping sees them, session metadata)."""
    assert msg.id is not None and msg.ts is not None
    return VectorEntry(
        message_id=msg.id, session_id=msg.session_id, ts=msg.ts, role=msg.role,
        model_id=model_id, vector=vector,
        # the message's own entry platform: never a copy of the session's, so that it
        # cannot go stale when the session changes (F9 tests the origin platform apart)
        platform=msg.platform,
        speaker_id=msg.speaker_id, mentions=msg.mentions,
        resource_id=resource_id, session_metadata=dict(session_metadata),
        origin_platform=origin_platform, message_metadata=dict(msg.metadata),
        text=embedded_text(msg),
    )


#: Fields a vector-index filter (``where``) may name. ``meta.<path>`` reads the
#: session-metadata snapshot, ``message.<path>`` the message metadata.
VECTOR_FIELDS: frozenset[str] = frozenset({
    "message_id", "session_id", "ts", "role", "model_id", "platform", "origin_platform",
    "speaker_id", "resource_id",
})
VECTOR_JSON_PREFIXES: tuple[str, ...] = ("meta", "message")


def filter_document(entry: VectorEntry) -> dict[str, Any]:
    """What a vector-index filter reads of ``entry``: its :data:`VECTOR_FIELDS`, plus
    ``meta`` (the session-metadata snapshot) and ``message`` (the message metadata).
    The reference evaluator (:func:`chatmem.store.filters.evaluate`) takes this."""
    doc: dict[str, Any] = {name: getattr(entry, name) for name in VECTOR_FIELDS}
    doc["meta"] = dict(entry.session_metadata)
    doc["message"] = dict(entry.message_metadata)
    return doc


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
class Erased:
    """What an erase (``Memory.delete``, ``Memory.forget``, a retention sweep) removed,
    per kind (I8): messages, vector entries (in whichever index holds them), full-text
    rows (indexed or pending), ANN graph labels dropped (SQLite), Qdrant points (a
    separate index; also counted in ``vectors``) and embedding-cache entries.
    ``not_found``: the ids given to ``Memory.erase`` that matched no stored message, in
    the order given (a forget or a sweep selects stored messages: none); not a count, so
    neither in :meth:`to_tuple` and :meth:`to_dict` nor compared."""

    messages: int = 0
    vectors: int = 0
    lexical: int = 0
    ann: int = 0
    points: int = 0
    cache: int = 0
    not_found: tuple[str, ...] = field(default=(), compare=False)

    def __add__(self, other: Erased) -> Erased:
        messages, vectors, lexical, ann, points, cache = (
            a + b for a, b in zip(self.to_tuple(), other.to_tuple(), strict=True))
        return Erased(messages, vectors, lexical, ann, points, cache,
                      self.not_found + other.not_found)

    def to_tuple(self) -> tuple[int, int, int, int, int, int]:
        return (self.messages, self.vectors, self.lexical, self.ann, self.points, self.cache)

    def to_dict(self) -> dict[str, int]:
        return dict(zip(("messages", "vectors", "lexical", "ann", "points", "cache"),
                        self.to_tuple(), strict=True))


@dataclass(frozen=True)
class MessagePage:
    """One page of :meth:`chatmem.Memory.list`: messages ordered by ``(ts, id)`` and the
    cursor of the next page (``None``: this was the last)."""

    messages: tuple[Message, ...]
    next_cursor: str | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"messages": [m.to_dict() for m in self.messages],
                "next_cursor": self.next_cursor}


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
    #: When the soonest retry of a ``failed`` message is due (ms since the epoch; E12);
    #: ``None`` when no message waits for a retry.
    next_retry_at: int | None = None

    @classmethod
    def of(cls, states: Mapping[IndexState, int], sessions: int,
           vectors_by_model: Mapping[str, int], next_retry_at: int | None = None
           ) -> StoreStats:
        """From message counts per index state (what every SQL store selects)."""
        return cls(messages=sum(states.values()), sessions=sessions, next_retry_at=next_retry_at,
                   indexed=states.get(IndexState.INDEXED, 0),
                   pending=states.get(IndexState.PENDING, 0),
                   failed=states.get(IndexState.FAILED, 0),
                   skipped=states.get(IndexState.SKIPPED, 0),
                   cleared=states.get(IndexState.CLEARED, 0),
                   vectors_by_model=vectors_by_model)
