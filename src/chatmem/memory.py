"""The facade: ``Memory`` (async) and ``SyncMemory`` (a thin blocking wrapper).

Data flows one way (SPEC §1): ``add`` stores messages and hands them to the
background indexer; ``recall`` embeds the query, asks the vector index under
the visibility filter, reranks, expands and renders with plain functions
from :mod:`chatmem.recall`.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import bisect
import builtins
import contextlib
import copy
import dataclasses
import difflib
import functools
import inspect
import json
import logging
import os
import struct
import sys
import time
import unicodedata
from collections.abc import (
    AsyncGenerator,
    AsyncIterator,
    Awaitable,
    Callable,
    Collection,
    Hashable,
    Iterable,
    Mapping,
    Sequence,
)
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass
from typing import Any, cast

import numpy as np

from ._aio import run_to_end, wait_within
from ._sync import BlockingWrapper, blocking
from .chat_format import coerce
from .config import Config, Window, check_env, narrower_or_equal
from .embedding import Embedder, Vector, create_embedder
from .embedding.auto import ENGLISH_MODEL, MULTILINGUAL_MODEL, AutoProvider
from .embedding.auto import META_KEY as AUTO_META_KEY
from .embedding.auto import META_NAMESPACE as AUTO_META_NAMESPACE
from .embedding.auto import META_TENTATIVE_KEY as AUTO_TENTATIVE_KEY
from .embedding.remote import RemoteProvider
from .errors import (
    ChatmemError,
    ConfigError,
    DamagedRow,
    EmbeddingUnavailable,
    EventLoopMisuse,
    FilterError,
    InvalidInput,
    NotFound,
    RecallUnavailable,
    ScopeError,
    StoreClosed,
    StoreError,
)
from .indexing import (
    Indexer,
    queue_step,
    short_reply,
    snapshot_sessions,
    takes_context,
    vector_entry,
    vector_text,
    vector_texts,
)
from .models import (
    LIMIT_TAKES,
    MAX_LABEL_CHARS,
    MAX_PAGE,
    PENDING_MODEL,
    Erased,
    IndexState,
    Message,
    MessagePage,
    Role,
    ScoredId,
    Session,
    VectorEntry,
    check_label,
    check_metadata,
    check_text,
    check_ts,
    filter_document,
    message_body,
    now_ms,
    optional_label,
    validate_message,
    validate_session,
)
from .overview import STATE_NAMES, IndexingHistory, SessionsPage, SessionSummary
from .platforms import PlatformRegistry
from .recall import (
    Ranked,
    RecallPlan,
    RecallRequest,
    RecallResult,
    TurnInput,
    admit,
    admit_messages,
    attributed,
    by_model,
    fit,
    full_text_only,
    hits_with_context,
    plan,
    rerank,
)
from .recall.budget import nearest_first
from .recall.episode import episode_context
from .recall.follow import follow_replies, reply_followers, reply_parents
from .recall.fuse import DEFAULT_DENSE_WEIGHT, dense_only, fuse, pool_order
from .recall.last import (
    follows_call,
    last_messages,
    opening_answers,
    placed_call,
    trailing_call,
)
from .recall.period import Period, named_period
from .recall.render import LABELS
from .recall.request import before_turn, id_list, turn_inputs
from .recall.result import DegradedReason
from .refusals import as_given, describe, unknown_fields
from .retention import DAY_MS, SWEEP_SESSIONS, EffectiveRetention, RetentionSettings
from .scopes import (
    EffectiveScope,
    Layer,
    ScopeSettings,
    Situation,
    check_parent_chain,
    combine,
    made_by,
    scope_filter,
    user_filter,
)
from .store import Storage
from .store.base import (
    CURSOR_KEY,
    CURSOR_NAMESPACE,
    LEGACY_KEY,
    LEGACY_NAMESPACE,
    REPLACING_NAMESPACE,
    LexicalIndex,
    MessageStore,
    SessionSnapshot,
    VectorIndex,
    WidthConflict,
    is_item_id,
    item_lock_key,
    load_parent_chain,
    one_warning_per_damage,
    read_without,
    replaced_id,
    said_damage,
    session_snapshot,
    walked_past,
)
from .store.filters import fields, matcher
from .telemetry import Telemetry
from .tool import Caller, parse_tool_arguments, tool_result, tool_schema

log = logging.getLogger("chatmem.memory")

#: Seconds a recall's query embedding may take while an outage is known (recall then
#: falls back to full text): long enough for a recovered service to answer.
OUTAGE_PROBE_S = 2.0
#: Ids per query when a recall measures candidates in the channel that did not return
#: them (rule 18): well within a filter's node limit
#: (:data:`chatmem.store.filters.MAX_NODES`) with the recall's own filter beside them.
MEASURE_BATCH = 200
#: What a recall of a scope that needs a session gives instead of one, in its error.
NEEDS_SESSION = "<the current session id>"
#: Most characters of text one ``list`` page holds (content, visible content and
#: metadata as JSON), past which it ends short with a cursor. 1,000 of the largest
#: messages made a page of 200 to 600 MB: more than a server should hold per request,
#: and more than :mod:`chatmem.client` reads (``max_response_bytes``, 128 MiB; measured:
#: 700 messages of 199,000 characters, one page, refused by the client). 16 million
#: characters are 16 to 48 MB of UTF-8.
MAX_PAGE_CHARS = 16_000_000
#: Most characters of messages one recall returns, its hits and their windows counted
#: as the answer carries them (a message in two hits' windows twice). Hits are kept in
#: rank order with their windows while they fit; the hit that does not fit keeps the
#: neighbours nearest to it that do, and the hits after it are left out (counted as
#: ``excluded["budget"]``); the best hit is always kept. Without it one recall over the
#: HTTP API (top_k 100, window 100, messages of 199,000 characters) answered 3.5 GB
#: after 54 s and left the server at 3 GB of memory.
MAX_RECALL_CHARS = 16_000_000
#: On a question about one side's words, the messages read after a candidate per turn
#: of that side its window holds (:func:`chatmem.recall.follow.reply_followers`): one
#: of each side in a one-to-one chat, and room for a third speaker's message.
FOLLOW_READ = 3


def _id_batches(ids: Sequence[str], where: Mapping[str, Any] | None
                ) -> list[tuple[list[str], dict[str, Any]]]:
    """``ids`` in parts of :data:`MEASURE_BATCH`, each with ``where`` narrowed to them.
    The id list goes beside the recall's own conditions, not under an ``$and``: a
    top-level ``message_id`` list is what the backends answer from their index."""
    out = []
    for i in range(0, len(ids), MEASURE_BATCH):
        part = list(ids[i:i + MEASURE_BATCH])
        only = {"message_id": {"$in": part}}
        narrowed = only if not where else {**where, **only} if "message_id" not in where \
            else {"$and": [dict(where), only]}
        out.append((part, narrowed))
    return out


def _not_in(hits: Sequence[ScoredId], others: Sequence[ScoredId]) -> list[str]:
    """The ids of ``hits`` that ``others`` does not hold, in ``hits``' order."""
    seen = {s.message_id for s in others}
    return [s.message_id for s in hits if s.message_id not in seen]


async def _measure(ids: Sequence[str], where: Mapping[str, Any] | None,
                   query: Callable[[list[str], dict[str, Any]], Awaitable[list[ScoredId]]]
                   ) -> list[ScoredId]:
    """``query(part, narrowed)`` over ``ids`` in :func:`_id_batches`; nothing when the
    caller's filter leaves no room for the ids under the filter node limit (the filter
    itself was accepted by the searches before): the candidates keep their bounds."""
    out: list[ScoredId] = []
    try:
        for part, narrowed in _id_batches(ids, where):
            out += await query(part, narrowed)
    except FilterError:
        return []
    return out


async def message_pages(store: MessageStore, *, limit: int = MAX_PAGE, **where: Any
                        ) -> AsyncIterator[list[Message]]:
    """Every message ``store.list_messages(**where)`` selects, ``limit`` at a time in
    ``(ts, id)`` order (``newest_first=True``: the reverse), each page resuming strictly
    past the last; a short page is the last."""
    pos: tuple[int, str] | None = None
    while rows := await store.list_messages(**where, after=pos, limit=limit):
        yield rows
        if len(rows) < limit:
            return
        last = rows[-1]
        assert last.ts is not None and last.id is not None
        pos = (last.ts, last.id)


#: Messages erased per store transaction by ``forget`` (each chunk is all-or-nothing).
ERASE_CHUNK = 2000
#: The LangGraph items an erase holds the locks of at once (:meth:`Memory._erase`): on
#: PostgreSQL advisory locks of one transaction, within max_locks_per_transaction.
ITEM_LOCKS = 64
#: Seconds an erase waits for a batch already embedding erased messages to finish.
ERASE_SETTLE_S = 10.0
#: Store pages a ``list`` under a visibility filter reads before it returns a short page.
LIST_ROUNDS = 20
#: Store pages read for the latest messages of a day asked about, ranked by full text
#: alone (``Memory._latest_within``).
PERIOD_FILL_ROUNDS = 3


def _timeout(value: object, name: str) -> float | None:
    """A wait in seconds: ``None`` (no limit) or a number of at least 0 (not NaN)."""
    if value is None:
        return None
    bad = InvalidInput(f"{name} must be a number of seconds of at least 0 (or None: no limit), got "
                       f"{describe(value)}")
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise bad
    try:
        seconds = float(value)
    except OverflowError:  # an integer past any float
        raise bad from None
    if not seconds >= 0:  # negative or NaN
        raise bad
    return seconds


#: The most characters a ``list`` cursor has: the sealed position of an id of
#: :data:`MAX_LABEL_CHARS` characters of 4 UTF-8 bytes (:class:`CursorSeal`).
MAX_CURSOR_CHARS = 4 * -(-(12 + 16 + 10 + 4 * MAX_LABEL_CHARS) // 3)


class CursorSeal:
    """Seals a ``list`` position ``(ts, id)`` into an opaque cursor, and opens it again.

    A page cut short while skipping messages the caller may not see (``visible_from``)
    ends at the last message it read, which may be a hidden one: a readable cursor told
    a user key that message's id and time (when another conversation talked). The
    position is encrypted and authenticated (AES-GCM, ``cryptography``) with a key kept
    in the store (:data:`CURSOR_NAMESPACE`, never exported), so every process of one
    store opens its cursors and no one can read or forge one. A cursor of a listing
    newest first says so, so that it cannot be read in the other direction."""

    _VERSION = 1
    _HEAD = struct.Struct(">BBq")  # version, newest first, ts
    _AAD = b"chatmem list cursor"

    def __init__(self, key: bytes) -> None:
        # imported here: 25 ms a CLI command that lists nothing need not pay
        from cryptography.hazmat.primitives.ciphers.aead import AESGCM

        self._aead = AESGCM(key)

    @classmethod
    def new_key(cls) -> str:
        """A fresh key, as the store keeps it (hex)."""
        return os.urandom(16).hex()

    @classmethod
    def from_stored(cls, value: str) -> CursorSeal | None:
        """The seal of a stored key; ``None`` when the record is not a key."""
        try:
            key = bytes.fromhex(value)
        except ValueError:
            return None
        return cls(key) if len(key) == 16 else None

    def encode(self, ts: int, message_id: str, newest_first: bool = False) -> str:
        """The cursor of the position ``(ts, message_id)``."""
        plain = self._HEAD.pack(self._VERSION, newest_first, ts) + message_id.encode()
        nonce = os.urandom(12)
        sealed = nonce + self._aead.encrypt(nonce, plain, self._AAD)
        return base64.urlsafe_b64encode(sealed).decode().rstrip("=")

    def decode(self, cursor: object, newest_first: bool = False) -> tuple[int, str]:
        """The position of a cursor; :class:`InvalidInput` naming ``cursor`` for anything
        this store did not seal (another store's cursor too), and when the cursor comes
        from a listing in the other direction than ``newest_first`` (its position would
        be read as the wrong side of the page)."""
        from cryptography.exceptions import InvalidTag

        bad = InvalidInput("cursor is not one that a listing of this store returned: pass "
                           "the last page's next cursor as it came")
        if not isinstance(cursor, str) or not cursor or len(cursor) > MAX_CURSOR_CHARS:
            raise bad
        try:
            sealed = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
            plain = self._aead.decrypt(sealed[:12], sealed[12:], self._AAD)
            version, newest, ts = self._HEAD.unpack_from(plain)
            message_id = plain[self._HEAD.size:].decode()
        except (ValueError, binascii.Error, InvalidTag, struct.error) as exc:
            raise bad from exc
        if version != self._VERSION or newest not in (0, 1):
            raise bad
        if bool(newest) != newest_first:
            raise InvalidInput(
                "cursor comes from a listing newest first: go on with newest_first=true, as "
                "the page that returned it was listed" if newest else
                "cursor comes from a listing oldest first: go on with newest_first=false, as "
                "the page that returned it was listed",
                mentions=[("newest_first", "true" if newest else "false")])
        check_ts(ts, "cursor")
        check_text(message_id, "cursor", max_chars=MAX_LABEL_CHARS)
        return ts, message_id


def text_chars(msg: Message) -> int:
    """The characters of text ``msg`` adds to a page (:data:`MAX_PAGE_CHARS`)."""
    meta = len(json.dumps(msg.metadata, ensure_ascii=False)) if msg.metadata else 0
    return len(msg.content) + len(msg.visible_content or "") + meta


def _searched(text: str) -> str:
    """``text`` as ``list(text=)`` compares it: case folded, compatibility forms
    (full-width ``ＡＢＣ``) decomposed, accents and invisible characters (a soft hyphen, a
    zero-width joiner) dropped. Casefolding alone missed ``café`` stored decomposed
    (``cafe`` and a combining accent), ``İstanbul`` for ``istanbul``, and ``ＡＢＣ``."""
    if text.isascii():
        return text.casefold()
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(c for c in decomposed if not unicodedata.combining(c)
                   and unicodedata.category(c) != "Cf").casefold()


def _contains(msg: Message, needle: str) -> bool:
    """Whether the message's content or visible content holds ``needle``
    (:func:`_searched` already)."""
    return any(needle in _searched(text) for text in (msg.content, msg.visible_content)
               if text)


def _store_bytes(store: object) -> int | None:
    """The bytes of an SQLite store on disk (the file, its WAL and its ANN graph); None
    for a server-side store (PostgreSQL) or an in-memory one."""
    path = getattr(store, "path", None)
    if not isinstance(path, str) or not os.path.isfile(path):
        return None
    return sum(os.path.getsize(p) for p in (path, path + "-wal", path + ".ann")
               if os.path.isfile(p))


@dataclass(frozen=True)
class TurnContext:
    """What :meth:`Memory.turn_context` returns."""

    #: The messages to put before the conversation (as :meth:`Memory.context`).
    messages: list[dict[str, Any]]
    #: The recall behind the system message (empty when recall is off).
    recall: RecallResult


#: Messages whose text ``embedding.model: auto`` reads to choose a store's model.
AUTO_SAMPLE = 200


def _check_embedder(embedder: object) -> None:
    if embedder is not None and not isinstance(embedder, Embedder):
        raise InvalidInput(
            "embedder must be a chatmem.embedding.Embedder (leave it out for the configured "
            "one, set with embedding.provider); a provider goes inside one: "
            "Embedder(provider), or chatmem.testing.embedder(provider) for a test's; got "
            f"{describe(embedder)}")


#: The longest store or vector index URL Memory.open takes (a path's longest on Linux).
MAX_URL_CHARS = 4096
#: Most stored messages :meth:`Memory.context` reads back to find the call a turn's first
#: tool answers answer (behind the answers stored before the turn).
MAX_CALL_READ = 4096


def _spelled_out(options: dict[str, Any]) -> dict[str, Any]:
    """:meth:`Memory.open`'s keyword options with ``options={...}`` (M1's and seed 003's
    spelling, ``Memory.open(url, options={"last_messages": 20})``) read as the same
    options given one by one; one given both ways is refused, naming it."""
    if "options" not in options:
        return options
    given, rest = options["options"], {k: v for k, v in options.items() if k != "options"}
    if not isinstance(given, Mapping):
        raise ConfigError("invalid configuration: options must be a mapping of options "
                          f"(as the keyword options take them), got {describe(given)}")
    for key in given:
        if not isinstance(key, str):
            raise ConfigError("invalid configuration: options: option names must be "
                              f"strings, got {describe(key)}")
        if key in rest:
            raise ConfigError(f"invalid configuration: {key} is given twice, in options= "
                              "and as a keyword: give it once")
    return {**given, **rest}


def _lacks(obj: Any, protocol: type) -> str:
    """What an object written as ``protocol`` (a message store or a vector index of
    one's own) lacks of it, for the refusal: ``; it lacks recent_heads, stats (of
    chatmem.store.MessageStore's 41 methods)``; empty for an object that is not one at
    all (it has none of the protocol's methods), whose refusal says what goes there."""
    methods = [n for n in dir(protocol) if not n.startswith("_")]
    missing = [n for n in methods if not callable(getattr(obj, n, None))]
    if len(missing) == len(methods) or not missing:
        return ""
    return (f"; it lacks {', '.join(missing)} (of chatmem.store.{protocol.__name__}'s "
            f"{len(methods)} methods)")


def _one_argument(name: str, value: Any, alias: str, aliased: Any) -> tuple[str, Any]:
    """Memory()'s argument ``name`` given as itself or as ``alias`` (SPEC M1's name),
    with the name it was given by; both given is refused, naming both."""
    if value is not None and aliased is not None:
        raise InvalidInput(f"Memory(): {name} and {alias} are the same argument ({alias} is "
                           f"SPEC M1's name of {name}): give one of them")
    return (alias, aliased) if aliased is not None else (name, value)


#: Memory.open's and Memory()'s own arguments: a keyword option nearer one of them than
#: any option is that argument misspelt (``vectr=``), and is refused naming it.
_OPEN_ARGUMENTS = ("url", "vector", "embedder", "config", "create", "env", "options")
_ARGUMENTS = ("store", "index", "embedder", "config", "storage", "vector", "options")


def _configured(where: str, arguments: Sequence[str], config: Any,
                options: dict[str, Any], env: Mapping[str, str] | None = None) -> Config:
    """The configuration of :meth:`Memory.open` and ``Memory()``: ``config`` (a
    :class:`Config`, a mapping of options, or None) with ``options`` (the keyword
    options, or ``options={...}``, :func:`_spelled_out`) over it, and ``env``'s
    ``CHATMEM_*`` variables between them when ``config`` is no Config. A keyword
    nearest one of ``arguments`` (``where``'s own) is refused as that one misspelt."""
    if config is not None and not isinstance(config, (Config, Mapping)):
        # config="chatmem.toml" said 'invalid configuration: expected a mapping of
        # options, got str', naming neither the argument nor what to pass
        named = isinstance(config, (str, os.PathLike))
        raise ConfigError(
            "config must be a mapping of options or a Config, got "
            f"{describe(os.fspath(config) if named else config)}" + (
                "; a file's name: read the file and pass its table (tomllib.load "
                "for TOML, yaml.safe_load for YAML)" if named else ""))
    options = _spelled_out(options)
    known = [*arguments, *Config.model_fields]
    misspelt = [k for k in options if k not in Config.model_fields
                and any(a in arguments for a in difflib.get_close_matches(k, known, n=1))]
    if misspelt:
        raise InvalidInput(f"{where}: {unknown_fields('', misspelt, arguments, arguments=True)}")
    if not isinstance(config, Config):
        return Config.load(config, env=env, **options)
    # as written: a scope given as its alias ('thread') keeps it for messages
    return Config.load(config.dump_as_written(), **options) if options else config


class _Passes:
    """Whether messages pass a filter as their vector entries would (R4), the filter
    parsed once (:func:`~chatmem.store.filters.matcher`) and each message judged once
    (by id): a recall's neighbours and replies were judged with ``evaluate``, which
    parses the filter again at every call, once per message per hit, so overlapping
    windows judged the same message again each time. With a filter of 999 conditions, a
    recall of ``top_k`` 20 and ``window`` 5 over 3,780 messages took 13 s of CPU, and of
    ``top_k`` 1000 and ``window`` 100 more than 12 minutes, all of it in the event loop."""

    def __init__(self, where: Mapping[str, Any], model_id: str) -> None:
        self._match = matcher(where)
        self._model = model_id
        self._judged: dict[str, bool] = {}

    def __call__(self, m: Message, snap: Session | None) -> bool:
        if m.id is not None and m.id in self._judged:
            return self._judged[m.id]
        passed = self._match(filter_document(vector_entry(m, snap, None, self._model)))
        if m.id is not None:
            self._judged[m.id] = passed
        return passed


class Memory:
    """Semantic long-term memory over one message store, vector index and embedder."""

    def __init__(self, store: MessageStore | Storage | None = None,
                 index: VectorIndex | None = None, embedder: Embedder | None = None,
                 config: Config | Mapping[str, Any] | None = None, *,
                 storage: MessageStore | Storage | None = None,
                 vector: VectorIndex | None = None, **options: Any) -> None:
        """Wire a memory over a :class:`Storage` (or a message store and its vector index,
        ``None`` for a store without recall). ``storage=`` and ``vector=`` are SPEC M1's
        names of ``store`` and ``index``; ``config`` and ``options`` are
        :meth:`open`'s (keywords, or ``options={...}``). Nothing runs yet: the indexer
        starts in :meth:`open`, ``async with``, or the first call that writes or waits
        for indexing, so a memory can be built outside an event loop."""
        store_name, store = _one_argument("store", store, "storage", storage)
        index_name, index = _one_argument("index", index, "vector", vector)
        if isinstance(store, Storage):
            if index is not None:
                raise InvalidInput(
                    f"Memory({store_name}=Storage, {index_name}=…): a Storage holds its own "
                    f"index (storage.index): leave {index_name} out, or give the message "
                    "store and the index")
            self.storage = store
        elif isinstance(store, MessageStore):
            if index is not None and not isinstance(index, VectorIndex):
                raise InvalidInput(
                    f"{index_name} must be a vector index (the SQL store itself, or a "
                    f"chatmem.store.qdrant.QdrantIndex) or None, got {describe(index)}"
                    + _lacks(index, VectorIndex)
                    + ("; an index's URL goes to Memory.open(url, vector=…)"
                       if isinstance(index, str) else ""))
            self.storage = Storage(store, index)
        elif store is None:
            raise InvalidInput(
                "Memory() needs a store: storage=a chatmem.store.Storage (await "
                "Storage.open(url)) or a message store; Memory.open(url) opens one by URL")
        else:
            raise InvalidInput(
                f"{store_name} must be a chatmem.store.Storage or a message store (e.g. "
                f"await Storage.open(url)), got {describe(store)}" + _lacks(store, MessageStore)
                + ("; a store's URL: Memory.open(url) opens it"
                   if isinstance(store, (str, os.PathLike)) else ""))
        index = self.storage.index
        _check_embedder(embedder)
        if embedder is not None and isinstance(embedder.provider, AutoProvider):
            # auto chooses per store: a shared embedder (the server's namespaces, one
            # per tenant) gets a view of its own for this store, with the same cache,
            # settings and status; its choice is read from the store before its first
            # embedding (this constructor cannot read it: _settle_auto_model)
            view = embedder.provider.for_store()
            view.on_first_use = self._settle_auto_model
            embedder = copy.copy(embedder)
            embedder.provider = view
        self.embedder = embedder
        #: Whether :meth:`_settle_auto_model` has run (and its lock: once per memory).
        self._auto_settled = False
        self._auto_lock = asyncio.Lock()
        opening = [k for k in _OPEN_ARGUMENTS if k in options and k not in _ARGUMENTS]
        if opening:
            raise InvalidInput(
                f"Memory(): {opening[0]} is an argument of Memory.open(url, …), which opens "
                "a store by URL; Memory() wires a store already open")
        self.config = _configured("Memory()", _ARGUMENTS, config, options)
        if self.config.semantic_recall_enabled and (index is None or embedder is None):
            own = index is None and isinstance(self.storage.store, VectorIndex)
            raise RecallUnavailable(
                "semantic recall is enabled but the memory has no "
                f"{'vector index' if index is None else 'embedder'}: give it one"
                + (" (this store holds vectors itself: give it as its index too, "
                   "vector=the store)" if own else "")
                + ", or pass semantic_recall=False for a message store without recall (M4)"
            )
        self.settings = ScopeSettings(self.storage.store, self.config.recall_scope)
        self.platforms = PlatformRegistry()
        for platform, declared in self.config.platforms.items():
            self.platforms.register(platform, chat_types=declared.chat_types)
        self._marker_lock = asyncio.Lock()
        self._cursor_seal: CursorSeal | None = None
        self._legacy_marker: str | None = None
        self._marker_warned = False
        self._warned_models: set[str] = set()
        self._key_locks: dict[Hashable, asyncio.Lock] = {}
        self._indexer: Indexer | None = None
        #: Timings of recalls and indexing batches, and their OpenTelemetry spans
        #: (:mod:`chatmem.telemetry`); add a listener to observe them.
        self.telemetry = Telemetry()
        #: Messages indexed per 10 s over the last 5 minutes (``stats()["indexing"]``).
        self._history = IndexingHistory()
        self.telemetry.listeners.append(self._history.on_timing)
        #: Orders session changes against vector writes (see Indexer.snapshot_lock).
        self._snapshot_lock = asyncio.Lock()
        if index is not None and embedder is not None:
            self._indexer = Indexer(self.storage, embedder, self.config.indexing,
                                    snapshot_lock=self._snapshot_lock,
                                    telemetry=self.telemetry)
        self.retention = RetentionSettings(self.storage.store, self.config.retention.days)
        #: The background retention sweep (started with the indexer, when configured).
        self._sweeper: asyncio.Task[None] | None = None
        #: Heals the rewrites a crash (before this open) or a failed embedding left on
        #: their old vectors, in the background (:meth:`_heal_rewrites_forever`).
        self._rewrite_healer: asyncio.Task[None] | None = None
        self._rewrite_heal_lock = asyncio.Lock()
        #: Set when a rewrite leaves its entries on the old text: wakes the healer.
        self._rewrite_left_owed = asyncio.Event()
        self._closed = False
        #: Whether the ``async with`` block ended with an exception (:meth:`__aexit__`).
        self._failed = False
        #: Set when close() has finished: a second close() (another task's) waits for it.
        self._close_done = asyncio.Event()
        #: Whether close() also closes the embedder (built by open(), not passed in).
        self._owns_embedder = False
        #: When recall started falling back to full text (the provider is down), else None.
        self._outage_since: float | None = None
        #: Recalls that fell back to full text since this memory was opened.
        self._degraded_recalls = 0
        #: Whether recall falls back to full text because the store holds the model's
        #: vectors in another width than its queries' (logged once, until dense recall).
        self._width_refused = False

    @property
    def store(self) -> MessageStore:
        """The message store (the source of truth)."""
        return self.storage.store

    @property
    def index(self) -> VectorIndex | None:
        """The vector index (the store itself for SQL stores; ``None``: no recall)."""
        return self.storage.index

    def _start_indexer(self) -> None:
        """Start background indexing (once; never after :meth:`close`): it resumes
        whatever a previous run left pending. The retention sweep starts with it."""
        if self._closed:
            return
        if self._indexer is not None:
            self._indexer.start()
        interval = self.config.retention.sweep_interval_s
        if self._sweeper is None and interval > 0:
            self._sweeper = asyncio.get_running_loop().create_task(
                self._sweep_forever(interval))

    async def _sweep_forever(self, interval: float) -> None:
        """Sweep expired messages every ``interval`` seconds (the first after a short
        delay, so that opening a memory stays quick); failures are logged and retried."""
        await asyncio.sleep(min(interval, 5.0))
        while not self._closed:  # a cancellation lost on the way still ends the loop
            try:
                await self.sweep_retention()
            except ChatmemError as exc:
                log.warning("retention sweep failed (%s); retried in %.0f s", exc, interval)
            except Exception:
                log.exception("retention sweep failed; retried in %.0f s", interval)
            await asyncio.sleep(interval)

    @classmethod
    async def open(cls, url: str = "sqlite:///chatmem.db", *, vector: str | None = None,
                   embedder: Embedder | None = None,
                   config: Config | Mapping[str, Any] | None = None, create: bool = True,
                   env: Mapping[str, str] | None = None, **options: Any) -> Memory:
        """Open a message store by URL (``sqlite:///chat.db`` = ``./chat.db``,
        ``sqlite:////abs/chat.db``, a plain path, ``memory://``, ``postgresql://…``) and,
        optionally, a separate vector index (``vector="qdrant://host:6333"``), with the
        configured embedder (the local ONNX model by default). The default URL is
        ``chatmem.db`` in the working directory. ``create=False`` opens only an existing
        store (a missing one is a :class:`StoreError` naming it, nothing is created).
        ``env`` is where a remote provider's API key is looked up when the
        configuration has none (pass ``os.environ``; chatmem never reads it itself);
        with a ``config`` mapping (or none) its ``CHATMEM_*`` variables also set options
        (``CHATMEM_SEARCH__TOP_K=8``; README § Environment variables), between ``config``
        and ``options``. ``options`` override configuration fields, as keywords or as one
        mapping (``options={"last_messages": 20}``, M1). An embedder built
        here is closed with the memory; one passed in stays the caller's."""
        # a path's longest (PATH_MAX): past it the store's error held the whole url
        check_text(url, "url", required=True, max_chars=MAX_URL_CHARS)
        check_text(vector, "vector", max_chars=MAX_URL_CHARS)
        if not isinstance(create, bool):
            raise InvalidInput(f"create must be true or false, got {describe(create)}")
        _check_embedder(embedder)  # before the store: a wrong one creates no file
        check_env(env, InvalidInput)
        cfg = _configured("Memory.open()", _OPEN_ARGUMENTS, config, options, env)
        # the embedder first: a bad embedding setting must not create a store file
        built = create_embedder(cfg.embedding, env=env) if embedder is None else None
        try:
            storage = await Storage.open(url, vector=vector, create=create)
        except BaseException:
            if built is not None:
                await built.aclose()
            raise
        try:
            memory = cls(storage, embedder=built or embedder, config=cfg)
            memory._owns_embedder = built is not None
            await memory._settle_auto_model()
        except BaseException:
            await storage.discard()  # a store this open made goes, a record is undone
            if built is not None:
                await built.aclose()
            raise
        memory._start_indexer()
        memory._rewrite_healer = asyncio.get_running_loop().create_task(
            memory._heal_rewrites_forever())
        return memory

    async def _settle_auto_model(self) -> None:
        """``embedding.model: auto`` (:mod:`chatmem.embedding.auto`): the store's recorded
        choice, else the model of the vectors it holds, else a choice at the first
        embedding of documents, from its first messages, recorded in the store. Once per
        memory: :meth:`open` runs it, ``async with``, :meth:`reindex` and :meth:`stats`
        of a memory built with ``Memory()``, else its embedder's first call."""
        provider = self.embedder.provider if self.embedder is not None else None
        if not isinstance(provider, AutoProvider) or self._auto_settled:
            return
        async with self._auto_lock:
            if not self._auto_settled:
                await self._read_auto_model(provider)
                self._auto_settled = True
                provider.on_first_use = None

    async def _read_auto_model(self, provider: AutoProvider) -> None:
        """:meth:`_settle_auto_model`'s rules, for ``provider``, this memory's view."""
        recorded = await self.store.meta_get(AUTO_META_NAMESPACE, AUTO_META_KEY)
        tentative = await self.store.meta_get(AUTO_META_NAMESPACE, AUTO_TENTATIVE_KEY)
        # vectors made under a tentative choice do not decide (auto.MIN_SAMPLE_LETTERS)
        if recorded is None and tentative is None and self.index is not None:
            counts = await self.index.count_by_model()
            known = {m: n for m, n in counts.items()
                     if m.removeprefix("local:") in (ENGLISH_MODEL, MULTILINGUAL_MODEL)}
            if known:
                recorded = max(known, key=lambda m: (known[m], m)).removeprefix("local:")
                await self.store.meta_set(AUTO_META_NAMESPACE, AUTO_META_KEY, recorded)
        if recorded is not None:
            provider.pin(recorded)
            return
        if tentative is not None:
            provider.resume(tentative)
        store = self.store

        async def first_texts() -> list[str]:
            rows = await store.scan_messages(0, AUTO_SAMPLE)
            # the senders' names are no part of the language (models.message_body)
            return [message_body(m) for _, m, _ in rows if m.indexable]

        async def record(choice: str) -> str:
            current = await store.meta_get(AUTO_META_NAMESPACE, AUTO_META_KEY)
            if current is None:
                await store.meta_set(AUTO_META_NAMESPACE, AUTO_META_KEY, choice)
                current = await store.meta_get(AUTO_META_NAMESPACE, AUTO_META_KEY)
            await store.meta_delete(AUTO_META_NAMESPACE, AUTO_TENTATIVE_KEY)
            return current or choice

        async def keep_tentative(choice: str) -> None:
            await store.meta_set(AUTO_META_NAMESPACE, AUTO_TENTATIVE_KEY, choice)

        provider.sampler, provider.on_choice = first_texts, record
        provider.on_tentative, provider.on_switch = keep_tentative, self._embed_again

    async def _embed_again(self, model_id: str) -> None:
        """Queue every message with a vector of ``model_id`` for embedding with the
        model now in use: ``auto``'s tentative choice gave way
        (:data:`chatmem.embedding.auto.MIN_SAMPLE_LETTERS`; a handful of messages, the
        store's first), as :meth:`reindex` queues its messages."""
        if self.index is None or self._indexer is None:
            return
        ids: list[str] = []
        damaged: list[str] = []  # entries it cannot read: embedded again too (logged)
        async for page in _vector_pages(self.index, damaged):
            ids += [e.message_id for e in page if e.model_id == model_id]
        ids += damaged
        if not ids:
            return
        log.info("embedding.model auto: embedding %d message(s) of %s again with %s",
                 len(ids), model_id, self.embedder.model_id if self.embedder else "?")
        await self._queue_again(ids)

    async def _queue_again(self, ids: list[str]) -> None:
        """Mark these messages pending (durable: a close before they are done leaves
        them to the next open's indexer) and queue them for the indexer."""
        assert self._indexer is not None
        await self.store.set_index_state(ids, IndexState.PENDING)
        stored = await self.store.get(ids)
        self._indexer.enqueue([stored[i] for i in ids if i in stored])

    async def __aenter__(self) -> Memory:
        await self._settle_auto_model()  # a memory built with Memory(): its store's model
        self._start_indexer()
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        """Close; when the block failed, the store's record of a separate vector index
        that :meth:`open` made is undone unless a vector was written to it
        (:meth:`Storage.unrecord`): a failed command leaves the store as it was."""
        self._failed = exc_type is not None
        await self.close()

    # ------------------------------------------------------------------ writing

    async def add(self, messages: Message | Mapping[str, Any]
                  | Sequence[Message | Mapping[str, Any]], *, session: str | None = None,
                  platform: str | None = None, speaker_id: str | None = None,
                  speaker_name: str | None = None) -> list[Message]:
        """Store messages (committed before this returns) and queue them for indexing.

        ``messages`` are :class:`Message` objects, mappings of their fields, or an OpenAI
        chat-completions message list as is (I7, :mod:`chatmem.chat_format`): ``name``
        is the speaker, ``tool`` messages and tool calls are stored and never embedded,
        content parts are joined (attachments described). ``session`` (and ``platform``,
        and ``speaker_id`` / ``speaker_name`` for the user messages) apply to every
        mapping that does not give its own; ``speaker_id`` and ``speaker_name`` are one
        speaker, given to a user message only when it names none (no ``speaker_id``,
        ``speaker_name`` or ``name``). A message without ``ts`` is timed as it is
        stored, after every message before it that had none, in any session
        (:class:`chatmem.store.base.ArrivalClock`): a history added without times keeps
        its order, which recall reads to tell a newer statement from an older one."""
        batch = coerce(messages, session=session, platform=platform, speaker_id=speaker_id,
                       speaker_name=speaker_name)
        if not batch:
            return []
        try:
            stored = await self.store.append(batch)
        except (asyncio.CancelledError, StoreError):
            # cancelled, or the connection lost, perhaps after the commit: the messages
            # may be stored and never queued
            if self._indexer is not None and not self._closed:
                self._indexer.sweep_soon()
            raise
        if self._indexer is not None:
            self._start_indexer()
            self._indexer.enqueue(stored)
            await self._requeue_followers(stored)
        return stored

    async def _requeue_followers(self, stored: Sequence[Message]) -> None:
        """Embed again the short replies (``indexing.short_reply_chars``) whose turn
        before is now one of ``stored``: a message added into the past, between a
        question and its indexed short answer, leaves that answer's vector computed with
        the words of a turn that is no longer before it (issue 12; a rewrite or an
        erase of the turn before does the same, :meth:`_reindex_rewritten`)."""
        cfg = self.config.indexing
        if self._indexer is None or cfg.short_reply_chars <= 0:
            return
        new = {m.id for m in stored}
        by_session: dict[str, builtins.list[Message]] = {}
        for m in stored:
            if m.ts is not None:
                by_session.setdefault(m.session_id, []).append(m)
        followers: dict[str, Message] = {}
        for session, added in by_session.items():
            # one read when the batch was added after the session's end (the usual
            # case): nothing stored before follows one of its messages
            first = min(m.ts or 0 for m in added)
            later = await self.store.range(session, first, 0, len(added) + 1)
            if all(m.id in new for m in later):
                continue
            for m in added:
                after = await self.store.range(session, m.ts or 0, 0, 1)
                if after and after[0].id not in new and after[0].id is not None \
                        and after[0].indexable and short_reply(after[0], cfg):
                    followers[after[0].id] = after[0]
        await self._requeue_indexed(builtins.list(followers.values()))

    async def _requeue_indexed(self, msgs: Sequence[Message]) -> None:
        """Queue those of ``msgs`` that are indexed to be embedded again, durably (made
        pending first: a crash before their new vectors are written leaves them to the
        next open), as :meth:`_queue_again` does with ids; the others are waiting
        already, or were never indexed."""
        if not msgs or self._indexer is None:
            return
        states = await self.store.index_states([m.id for m in msgs if m.id])
        again = [m for m in msgs if states.get(m.id or "") == IndexState.INDEXED]
        if again:
            await self.store.set_index_state([m.id for m in again if m.id],
                                             IndexState.PENDING)
            self._indexer.enqueue(again)

    async def upsert_session(self, session: Session | Mapping[str, Any]) -> Session:
        session = validate_session(session)
        self._start_indexer()
        async with self._snapshot_lock:
            await check_parent_chain(self.store, session)  # a chain scoping can read
            try:
                stored = await self.storage.upsert_session(session)
            except BaseException:
                # cancelled between the store's commit and the index's update: the
                # durable marker is left, and the indexer redoes it now, not at the
                # next open (the vectors would show the old resource id until then)
                if self.storage.separate and self._indexer is not None:
                    self._indexer.snapshots_dirty = True
                raise
            if stored.snapshots_owed and self._indexer is not None:
                self._indexer.snapshots_dirty = True  # the indexer redoes it
        return stored.session

    async def flush(self, timeout: float | None = None) -> None:
        """Wait until every stored message that should be indexed has been attempted:
        indexed, or (the embedding provider failing) scheduled for a retry, which
        ``stats()`` counts as ``failed`` (E12). Messages already waiting for a retry are
        tried once more at once; a batch already sent when the flush starts and failing
        while it waits is not (the provider is down now). ``timeout``: seconds
        (``None``: no limit), past which :class:`TimeoutError` is raised; indexing goes
        on in the background."""
        seconds = _timeout(timeout, "timeout")
        began = time.monotonic()
        await wait_within(self._heal_rewrites_quietly(), seconds)  # never drops a cancel
        if self._indexer is not None:
            self._start_indexer()
            left = None if seconds is None else max(0.0, seconds - (time.monotonic() - began))
            await self._indexer.flush(left)

    async def rewrite(self, session: str, ts: int, *, content: str | None = None,
                      visible_content: str | None = None,
                      metadata: Mapping[str, Any] | None = None) -> Message:
        """Change a stored message (e.g. an image reply gains its description) (F3).

        Rewrites of one message apply in arrival order, behind any indexing still
        pending for it; across processes sharing a store, one after the other
        (``store.message_lock``), and a vector embedded from the old text in another
        process never replaces the new one. The new vector is computed first; only
        then the old one is deleted and the new one written. A message never indexed
        stays unindexed; an embedding failure keeps the old vector (with a warning)
        until it is made from the new text: in the background, as a failed message is
        retried, or at the next :meth:`flush` or open (a durable record,
        :meth:`Storage.owe_rewrite`, survives a crash in between too); a
        vector index without delete-by-filter keeps the old vector too, so there is
        never a duplicate.
        """
        check_ts(ts, "ts")
        probe = Message(session_id=session, content="x" if content is None else content,
                        visible_content=visible_content)
        # named as the caller wrote them: session, content (not rewrite.session_id)
        validate_message(probe, arguments={"session_id": "session"})
        if metadata is not None:
            check_metadata(metadata, "metadata")
        async with self.rewrite_lock(session, ts):
            self._start_indexer()
            if self._indexer is not None:
                await self._indexer.settle(session, ts)
            async with self.store.message_lock(session, ts):  # other processes (R5)
                # durable before the new text is: a crash or a failed embedding after it
                # leaves the record, and _heal_rewrites makes the entries again
                owed = (await self.storage.owe_rewrite(session, ts)
                        if self.index is not None and self.embedder is not None else None)
                try:
                    msg = await self.store.rewrite(session, ts, content=content,
                                                   visible_content=visible_content,
                                                   metadata=metadata)
                    reindexed = msg is None or await self._reindex_rewritten(msg)
                except BaseException:
                    # cancelled (a timeout, a closing server) with the new text perhaps
                    # committed: healed in the background too, not at the next flush
                    if owed:
                        self._rewrite_left_owed.set()
                    raise
                if reindexed:
                    if owed:
                        await self.storage.rewrite_done(owed)
                elif owed:
                    self._rewrite_left_owed.set()  # healed in the background
                if msg is None:
                    raise NotFound(f"no message at session {describe(session)}, ts {ts}")
            return msg

    def rewrite_lock(self, session: str, ts: int) -> AbstractAsyncContextManager[None]:
        """The lock :meth:`rewrite` of the message at ``(session, ts)`` holds in this
        process (rewrites of one message apply in arrival order); ``store.message_lock``
        is the one of every process. A LangGraph put holds it around its replacement of
        an item's message (``chatmem.integrations.langgraph``)."""
        return self._key_lock((session, ts))

    def item_lock(self, mid: str) -> AbstractAsyncContextManager[None]:
        """The lock of the LangGraph item whose message id is ``mid`` in this process
        (``store.key_lock(item_lock_key(mid))`` is the one of every process): a put of
        the item holds it from its read of the item to its end, a store's heal while it
        looks at a record of the item (``chatmem.integrations.langgraph``), and an erase
        of the item's message (:meth:`erase`, :meth:`forget`, :meth:`sweep_retention`)
        while it erases it, so that no heal puts an erased value back."""
        return self._key_lock(item_lock_key(mid))

    @contextlib.asynccontextmanager
    async def _key_lock(self, key: Hashable) -> AsyncIterator[None]:
        """Writes of one ``key`` in this process, in arrival order (a message's rewrites,
        keyed ``(session, ts)``; a LangGraph item's puts, keyed by a string)."""
        lock = self._key_locks.setdefault(key, asyncio.Lock())
        try:
            async with lock:  # asyncio locks wake waiters first in, first out
                yield
        finally:
            if not lock.locked() and self._key_locks.get(key) is lock:
                del self._key_locks[key]

    async def _heal_rewrites(self) -> None:
        """Make again the index entries of rewrites a crash or a failed embedding left
        on their old text (:meth:`Storage.owe_rewrite`); a record whose entries still
        cannot be made (the provider failing) stays for the next flush or open."""
        if self.index is None or self.embedder is None:
            return
        # one heal at a time: a flush waits for the one started at open to finish
        async with self._rewrite_heal_lock:
            if not self.storage.rewrites_unsettled:
                return  # no record can be waiting: a flush reads nothing
            self.storage.rewrites_unsettled = False  # a rewrite from now on sets it again
            try:
                await self._heal_rewrite_records()
            except BaseException:
                self.storage.rewrites_unsettled = True
                raise

    async def _heal_rewrite_records(self) -> None:
        for key, session, ts in await self.storage.rewrites_owed():
            async with self.rewrite_lock(session, ts), \
                    self.store.message_lock(session, ts):
                if not await self.storage.rewrite_still_owed(key):
                    continue  # the rewrite that wrote it finished while this waited
                found = await self.store.list_messages(session_ids=[session], since=ts,
                                                       until=ts + 1, limit=1)
                if not found or await self._reindex_rewritten(found[0]):
                    await self.storage.rewrite_done(key)
                    if found:
                        log.info("rewrite of %s: index entries made from its new text",
                                 found[0].id)
                else:
                    self.storage.rewrites_unsettled = True  # again at the next flush

    async def _heal_rewrites_quietly(self) -> None:
        try:
            await self._heal_rewrites()
        except ChatmemError as exc:
            log.warning("rewrites left on their old vectors not healed yet (%s); retried "
                        "later", exc)

    async def _heal_rewrites_forever(self) -> None:
        """Heal, after the open, what a crash left; then each rewrite whose embedding
        failed, as a failed message is retried: ``indexing.retry_initial_s`` later, the
        wait doubling up to ``retry_max_s`` while the provider keeps failing. A flush
        heals at once too. Without this, a long-running server (which never flushes)
        kept a rewritten message findable by its old words until its next start."""
        if self.index is None or self.embedder is None:
            return
        cfg = self.config.indexing
        await self._heal_rewrites_quietly()
        delay = cfg.retry_initial_s
        while not self._closed:
            if not self.storage.rewrites_unsettled:
                delay = cfg.retry_initial_s
                await self._rewrite_left_owed.wait()
            self._rewrite_left_owed.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, cfg.retry_max_s)
            try:
                await self._heal_rewrites_quietly()
            except Exception:  # a bug must not end the healing for this process's life
                log.exception("healing rewrites failed; retried in %.0f s", delay)

    async def _reindex_rewritten(self, msg: Message) -> bool:
        """Make the index entries of a rewritten message (and of a short reply embedded
        with it) from the new text; ``False`` when they still hold the old text."""
        assert msg.id is not None and msg.ts is not None
        if self.index is None or self.embedder is None:
            return True
        # a short reply embedded with the old text (issue 12) is embedded again too
        follower = await self._reply_to(msg)
        candidates = [m for m in (msg if msg.indexable else None, follower) if m is not None]
        if not candidates:
            return True
        states = await self.store.index_states([m.id or "" for m in candidates])
        if msg.indexable and states.get(msg.id) == IndexState.PENDING \
                and self._indexer is not None:
            # indexed as rewritten: a batch of another process holding its old text
            # writes nothing (R5), so it is queued here too
            self._indexer.enqueue([msg])
        # never indexed: not indexed by a rewrite
        todo = [m for m in candidates if states.get(m.id or "") == IndexState.INDEXED]
        if not todo:
            return True
        if not self.storage.supports_delete_by_filter:
            log.warning("vector index cannot delete by filter: rewrite of %s not re-indexed "
                        "(the old vector stays, so there is no duplicate)", msg.id)
            return True
        try:
            # judged by the store's widths, as the indexer's (a width of another model
            # under the same name was written over the old vector)
            assert self._indexer is not None
            embedded = await self._indexer.widths.embed(
                self.embedder, await vector_texts(self.store, todo, self.config.indexing))
        except EmbeddingUnavailable as exc:
            # the provider answered when the width was refused: not a failed embedding
            what = "vectors refused for their width" if exc.width_mismatch \
                else "embedding failed"
            log.warning("rewrite of %s: %s (%s); the old vector stays until the new text "
                        "is embedded (retried in the background, and at the next flush "
                        "or open)", msg.id, what, exc)
            return False
        async with self._snapshot_lock:
            sessions = await snapshot_sessions(self.store, {m.session_id for m in todo})
            for m, vec in zip(todo, embedded.vectors):
                try:
                    await self.storage.rewrite_entry(vector_entry(
                        m, sessions.get(m.session_id), vec, embedded.model_id),
                        one_width=self._indexer.widths.rule())
                except WidthConflict as conflict:
                    # another width of the model landed since the check (another
                    # process): the old vector stays, as for a failed embedding
                    refused = await self._indexer.widths.refused(
                        conflict, self.embedder.provider.name)
                    log.warning("rewrite of %s: %s; the old vector stays until the new "
                                "text is embedded", msg.id, refused)
                    return False
        return True

    async def _sessions(self, ids: set[str], read: dict[str, Session],
                        where: Mapping[str, Any] | None = None) -> dict[str, Session]:
        """The sessions of ``ids`` as vectors snapshot them, a child's ``origin_platform``
        its root's (a thread of a Telegram group labelled its lines with no platform at
        all). ``read``: the sessions, as stored, that this recall read (each read once,
        for its visibility checks, its replies', its neighbours' and its labels, which
        all see it as it was then). ``where``: the filter they are checked against; a
        session's settings are never read, its metadata only by a filter on it (``meta.``
        fields): a column chatmem cannot read (a hand edit) that is not needed is read
        as {}, logged with its repair, not every recall from or over it refused."""
        damaged: list[DamagedRow] = []
        out = await snapshot_sessions(self.store, ids, read, damaged)
        # the filter's fields read only for a damaged row: parsing a filter of 1,000
        # nodes costs 30 ms, and a recall asks here once per hit
        needed = bool(damaged) and where is not None and any(
            name == "meta" or name.startswith("meta.") for name in fields(where))
        for bad in damaged:
            if needed and bad.column == "metadata":
                raise bad
            read_without(bad, "for a recall", repair=True,
                         why="a recall's scope needs neither a session's metadata nor its "
                             "settings")
        return out

    async def _reply_to(self, msg: Message) -> Message | None:
        """The message right after ``msg`` in its session when its vector is computed
        with ``msg``'s text (:func:`~chatmem.indexing.takes_context`)."""
        if msg.ts is None or self.config.indexing.short_reply_chars <= 0:
            return None
        after = await self.store.range(msg.session_id, msg.ts, 0, 1)
        if after and after[0].indexable and takes_context(after[0], msg,
                                                           self.config.indexing):
            return after[0]
        return None

    async def clear(self, target: str = "all", *, session: str | None = None
                    ) -> dict[str, int]:
        """F12: ``vector`` (the index), ``context`` (messages), ``all``; global or one session.

        Clearing vectors moves the messages that had them to ``IndexState.CLEARED``:
        they are not re-embedded in the background (the clear was on purpose; new
        messages are still indexed as they come), ``stats()["cleared"]`` counts them, and
        :meth:`reindex` embeds them again. Clearing every vector also deletes the
        legacy-model marker and resets its cache, after any marker read or write in
        flight has finished."""
        if target not in ("vector", "context", "all"):
            raise InvalidInput(f"target must be one of vector, context, all, "
                               f"got {describe(target)}")
        if session is not None:
            check_label(session, "session")
        out = {"vectors": 0, "messages": 0}
        if target in ("vector", "all") and self.index is not None:
            out["vectors"] = await self.storage.clear_vectors(session)
            if session is None:
                async with self._marker_lock:
                    try:
                        await self.store.meta_delete(LEGACY_NAMESPACE, LEGACY_KEY)
                    except ChatmemError as exc:
                        log.warning("could not delete the legacy-model marker: %s", exc)
                    self._legacy_marker = None
        if target in ("context", "all"):
            out["messages"] = await self.store.clear_messages(session)
        return out

    async def reindex(self, *, progress: Callable[[int, int], None] | None = None
                      ) -> dict[str, Any]:
        """X2 and F12: embed, with the configured model, every indexable message
        (:attr:`Message.indexable`) that has no vector of that model, and bring every
        vector entry's session snapshot up to date.

        Returns ``{"model", "stale", "failed", "cleared", "missing", "pending",
        "reembedded", "sessions_refreshed"}``: why messages were embedded — their vector
        came from another model (legacy vectors count as their marker's model, F11) or
        from an older chatmem that copied the session's origin platform into the entry
        (``stale``), their indexing had failed (``failed``), their vectors were cleared
        (``cleared``), they were marked indexed but the index holds no vector for them
        (``missing``), or they were still waiting for the indexer (``pending``); how many
        are now indexed (``reembedded``); and how many sessions' entries carried an old
        session snapshot and were updated in place (``sessions_refreshed``, no embedding).

        A message's new vector replaces its old one when it is written (an index keeps
        one vector per message). Recall keeps only the configured model's vectors
        (F11), so re-embedded messages become findable as they are written, not all at
        once. The work is durable: each message is marked pending before it is queued,
        so an interrupted run is finished by the indexer of the next open.
        ``progress(done, total)`` is called after each batch.
        """
        if progress is not None and not callable(progress):
            # else a TypeError out of the first batch, the reindex left half done
            raise InvalidInput("progress must be a function of (done, total), got "
                               f"{describe(progress)}")
        index, embedder = self._require_recall()
        assert self._indexer is not None
        await self._settle_auto_model()  # the model to reindex to is the store's choice
        self._start_indexer()
        current = embedder.model_id
        size = embedder.dimensions  # the size of the configured model's vectors, if known
        if isinstance(embedder.provider, RemoteProvider):
            # what the service answers now: a model swapped behind the endpoint answers
            # another width than the provider's last answer in this process (and than
            # the cache's vectors), and a vector of this model of another width was
            # made by another model under the same name, or with other dimensions.
            # Unanswered, nothing is judged by width (the service decides at its retry)
            size = None
            with contextlib.suppress(EmbeddingUnavailable):
                size = await self._indexer.widths.probe(embedder)
        if not size:
            return await self._reindex(index, current, None, progress)
        # written over the old width, this one is taken while the reindex runs
        with self._indexer.widths.moving(current, size):
            return await self._reindex(index, current, size, progress)

    async def _reindex(self, index: VectorIndex, current: str, size: int | None,
                       progress: Callable[[int, int], None] | None) -> dict[str, Any]:
        """:meth:`reindex` of the vectors of model ``current``, ``size`` the width of its
        vectors now (None: not known, the widths are not looked at)."""
        assert self._indexer is not None
        resized: set[str] = set()  # this model's vectors of another width
        expected = await self._expected_snapshots()
        legacy: str | None = None
        have: set[str] = set()  # messages with a vector of the current model
        stale: set[str] = set()
        copied: set[str] = set()  # entries whose platform may be a copied origin platform
        drift: set[str] = set()  # sessions whose entries carry an old snapshot
        # entries the index cannot read (a hand edit, a broken disk; each logged): their
        # messages are embedded again, as those of another width, which replaces them
        damaged: list[str] = []
        async for page in _vector_pages(index, damaged):
            for e in page:
                model = e.model_id
                if model is None:
                    legacy = legacy or await self._legacy_model(current)
                    model = legacy
                    if size and len(e.vector) != size:
                        # the marker names the model of the first search, which need
                        # not have made them: one of another size cannot be this one's
                        model = None
                if model != current:
                    stale.add(e.message_id)
                    continue
                if size and len(e.vector) != size:
                    resized.add(e.message_id)
                    continue
                have.add(e.message_id)
                if e.platform is not None and e.platform == e.origin_platform:
                    copied.add(e.message_id)
                snap = expected.get(e.session_id)
                if snap is not None and (e.origin_platform, e.resource_id,
                                         dict(e.session_metadata)) != (
                        snap.origin_platform, snap.resource_id, dict(snap.metadata)):
                    drift.add(e.session_id)
        resized.update(damaged)
        # the entries' message ids that no stored message has: its row was deleted
        # outside chatmem (by hand), which left its vector and full-text rows
        unmatched = have | stale | resized
        counts = {"stale": 0, "failed": 0, "cleared": 0, "missing": 0, "pending": 0}
        todo: list[str] = []
        cursor = 0
        while rows := await self.store.scan_messages(cursor, 1000):
            for _, msg, state in rows:
                unmatched.discard(msg.id or "")
                if not msg.indexable or msg.id is None:
                    continue
                if msg.id in have:
                    if msg.id not in copied or msg.platform is not None:
                        continue
                    kind = "stale"  # an older chatmem's copy of the origin platform
                elif msg.id in stale or msg.id in resized:
                    kind = "stale"
                elif state == IndexState.FAILED:
                    kind = "failed"
                elif state in (IndexState.CLEARED, IndexState.SKIPPED):
                    kind = "cleared"
                elif state == IndexState.PENDING:
                    kind = "pending"
                else:
                    kind = "missing"
                counts[kind] += 1
                todo.append(msg.id)
            cursor = rows[-1][0]
        if unmatched:
            await self._erase_unmatched(sorted(unmatched), index)
        refreshed = await self._refresh_snapshots([expected[sid] for sid in sorted(drift)])
        # every one is pending before any is embedded: a run that stops part way (killed,
        # a progress callback raising) is finished by the indexer, here or at the next open
        # R5: not one that another process's reindex embedded with this model since the
        # scan (it would be embedded twice); an entry of this model re-embedded for its
        # copied platform is marked whatever it has
        for start in range(0, len(todo), 1000):
            chunk = todo[start:start + 1000]
            # also this model's vectors of another width (their model is the current one)
            recopy = [i for i in chunk if i in have or i in resized]
            if recopy:
                await self.store.set_index_state(recopy, IndexState.PENDING)
            rest = [i for i in chunk if i not in have and i not in resized]
            if rest:
                await self.store.set_index_state(rest, IndexState.PENDING,
                                                 unless_model=current)
        # a worker's batch at a time, no more than the queue takes (max_queue_size, 500,
        # below batch_size, 512): the rest were dropped from it, left to the flush below
        step = queue_step(self.config.indexing)
        # a large reindex into a small index defers the HNSW index (PostgreSQL)
        async with self.storage.bulk_load(len(todo)):
            for start in range(0, len(todo), step):
                await self._index_waiting(todo[start:start + step])
                if progress is not None:
                    progress(min(start + step, len(todo)), len(todo))
            left = await self.store.index_states(todo) if todo else {}
            if any(state == IndexState.PENDING for state in left.values()):
                # dropped from a full queue, or held by another process's indexer (R5)
                await self._indexer.flush(retry_failed=False)
                left = await self.store.index_states(todo)
        done = sum(1 for state in left.values() if state == IndexState.INDEXED)
        return {"model": current, **counts, "reembedded": done,
                "sessions_refreshed": refreshed}

    async def _erase_unmatched(self, ids: list[str], index: VectorIndex) -> None:
        """Erase the vectors and full-text rows of these message ids, whose message no
        longer is in the store (deleted outside chatmem: a hand edit), logged: derived
        from a message that is gone, they held its words and were counted as vectors.
        As an erase does, the short reply after each (``indexing.short_reply_chars``),
        whose vector was computed with its words, is embedded again: its entry in
        ``index`` keeps its session, time and role, which place it among the turns beside
        it. Its own text's cached vector goes; one computed with the turn beside it stays
        until evicted (that text is not known: the entry keeps its own alone)."""
        replies: dict[str, Message] = {}
        texts: builtins.list[str] = []
        if self.embedder is not None and self.config.indexing.short_reply_chars > 0:
            wanted = set(ids)
            async for page in _vector_pages(index, []):  # read again: a hand edit's rare
                for e in page:
                    if e.message_id not in wanted:
                        continue
                    # a legacy entry without a role counts as the user's (F7)
                    gone = Message(id=e.message_id, session_id=e.session_id, ts=e.ts,
                                   role=cast(Role, e.role or "user"), content=e.text or "")
                    texts.append(e.text or "")
                    try:
                        reply = await self._reply_to(gone)
                    except DamagedRow as exc:
                        log.warning("%s; erasing %s without the turns beside it",
                                    exc.damage, e.message_id)
                        continue
                    if reply is not None and reply.id is not None \
                            and reply.id not in wanted:
                        replies[reply.id] = reply
        for start in range(0, len(ids), ERASE_CHUNK):
            await self.storage.erase(ids[start:start + ERASE_CHUNK])
        if self.embedder is not None:
            self.embedder.forget_texts(texts)
        await self._requeue_indexed(builtins.list(replies.values()))
        log.warning("reindex: erased the vectors and full-text rows of %d message(s) no "
                    "longer stored (deleted outside chatmem): %s", len(ids),
                    ", ".join(json.dumps(i) for i in ids[:10])
                    + (f" and {len(ids) - 10} more" if len(ids) > 10 else ""))

    async def _index_waiting(self, ids: list[str]) -> None:
        """Queue those of these messages still pending and wait until each has had its
        attempt: indexed, or failed and waiting for its retry (E12). Only these: a
        flush also waits for messages stored while it runs, so under a steady stream of
        adds a reindex waiting on flushes hardly moved."""
        assert self._indexer is not None
        stored = await self.store.get(ids)
        # read after the messages: one the indexer finished meanwhile is not queued again
        states = await self.store.index_states(ids)
        # no more at once than the queue has room for (an add, the sweeper may have
        # filled part of it): the rest were dropped from it, read by a later pass
        await self._indexer.enqueue_within_room(
            [stored[i] for i in ids if i in stored and states.get(i) == IndexState.PENDING])
        await self._indexer.settled_ids(ids)

    async def _expected_snapshots(self) -> dict[str, SessionSnapshot]:
        """Every session's snapshot as vector entries should carry it now."""
        sessions = {s.id: s for s in await self.store.all_sessions()}
        return {sid: session_snapshot(s, sessions.get) for sid, s in sessions.items()}

    async def _refresh_snapshots(self, snapshots: Sequence[SessionSnapshot]) -> int:
        """Update the entries of these sessions in place (and, with a separate index,
        the store's full-text rows of them), under the snapshot lock."""
        if not snapshots:
            return 0
        step = 500
        async with self._snapshot_lock:
            for start in range(0, len(snapshots), step):
                chunk = snapshots[start:start + step]
                await self.storage.update_session_snapshots(chunk)
        log.info("reindex: session snapshots of %d session(s) refreshed", len(snapshots))
        return len(snapshots)

    # ------------------------------------------------------------------ read and erase

    async def get(self, ids: Sequence[str], *, visible_from: str | None = None,
                  platform: str | None = None) -> dict[str, Message]:
        """The stored messages of ``ids`` (at most 10 000), in the order asked; unknown
        ids are left out (I8). ``visible_from``: only those visible from that session
        under its effective scope (F10), as a recall from it would see them (R4)."""
        wanted = id_list(ids, "ids")
        where = await self._visibility(visible_from, platform)
        found = await self.store.get(list(dict.fromkeys(wanted)))
        shown = {m.id for m in await self._visible(list(found.values()), where)}
        return {i: found[i] for i in dict.fromkeys(wanted) if i in shown}

    async def visible(self, messages: Sequence[Message], *, visible_from: str,
                      platform: str | None = None) -> builtins.list[Message]:
        """Those of ``messages``, stored or not, that a recall from ``visible_from`` could
        show under its effective scope (R4), in their order: e.g. whether a message a
        model is about to store elsewhere lands where its own conversation may see."""
        msgs = builtins.list(messages) if isinstance(messages, (builtins.list, tuple)) \
            else None
        if msgs is None or not all(isinstance(m, Message) for m in msgs):
            raise InvalidInput("messages must be a list of Message objects")
        for i, m in enumerate(msgs):  # as add() checks them: the filter reads every field
            validate_message(m, path=f"messages[{i}]")
        where = await self._visibility(visible_from, platform)
        if where is None:
            return msgs
        # an entry needs an id and a time; the scopes read neither
        probes = [m if m.id is not None and m.ts is not None
                  else dataclasses.replace(m, id=m.id or f"probe-{i}", ts=m.ts or 0)
                  for i, m in enumerate(msgs)]
        shown = {id(p) for p in await self._visible(probes, where)}
        return [m for m, p in zip(msgs, probes, strict=True) if id(p) in shown]

    async def list_messages(self, *, session: str | None = None,
                            speaker_id: str | None = None, since: int | None = None,
                            until: int | None = None, limit: int = 100,
                            cursor: str | None = None, visible_from: str | None = None,
                            platform: str | None = None, text: str | None = None,
                            newest_first: bool = False) -> MessagePage:
        """One page of stored messages ordered by ``(ts, id)`` (I8): of one ``session``
        and/or one ``speaker_id``, with ``since <= ts < until`` (ms); ``limit`` 1–1000;
        ``cursor`` is the ``next_cursor`` of the page before (``None`` on the last
        page). ``visible_from``: only messages visible from that session (as in
        :meth:`get`). ``text``: only messages whose content (or visible content)
        contains it, ignoring case (a page may then come back short, with a cursor).
        ``newest_first``: in the reverse order, the latest first (the last *n* messages
        in one page, whatever the history's length; pass it again with the cursor).
        Also available as :meth:`list`."""
        if session is not None:
            check_label(session, "session")
        if speaker_id is not None:
            check_label(speaker_id, "speaker_id")
        if since is not None:
            check_ts(since, "since")
        if until is not None:
            check_ts(until, "until")
        if since is not None and until is not None and until <= since:
            raise InvalidInput(f"until must be after since={since}, got {until}",
                               mentions=[("since", since)])
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
            raise InvalidInput(f"limit must be {LIMIT_TAKES}, got {describe(limit)}")
        if text is not None:  # "" is refused, as over HTTP, not taken as no filter
            check_label(text, "text")
        if not isinstance(newest_first, bool):
            raise InvalidInput(f"newest_first must be true or false, got "
                               f"{describe(newest_first)}")
        # a needle of accents or invisible characters alone stays itself, not "" (all)
        needle = (_searched(text) or text.casefold()) if text else None
        seal = await self._seal()
        pos = None if cursor is None else seal.decode(cursor, newest_first)
        where = await self._visibility(visible_from, platform)
        # the visibility is read in the store: only rows the caller may see are read.
        # Reading every row and dropping the hidden ones, a bounded number at a time,
        # told a user key by a short page's cursor that other sessions held messages,
        # and when (R4)
        reading = await self._readable(where, session)
        if reading is None:
            return MessagePage((), None)
        sessions, entered_on, or_sessions = reading
        out: builtins.list[Message] = []
        chars = 0
        for _ in range(LIST_ROUNDS):
            rows = await self.store.list_messages(
                session_ids=sessions, speaker_id=speaker_id,
                since=since, until=until, after=pos, limit=limit + 1,
                newest_first=newest_first, platform=entered_on, or_sessions=or_sessions)
            page = rows[:limit]
            matching = page if needle is None else [m for m in page if _contains(m, needle)]
            shown = {m.id for m in await self._visible(matching, where)}
            for i, m in enumerate(page):
                assert m.ts is not None and m.id is not None
                pos = (m.ts, m.id)
                if m.id in shown:
                    out.append(m)
                    chars += text_chars(m)
                if len(out) == limit or chars >= MAX_PAGE_CHARS:
                    more = i < len(rows) - 1
                    return MessagePage(tuple(out), seal.encode(*pos, newest_first)
                                       if more else None)
            if len(rows) <= limit:
                return MessagePage(tuple(out), None)
        assert pos is not None
        # a short page; more may follow
        return MessagePage(tuple(out), seal.encode(*pos, newest_first))

    async def _readable(self, where: Mapping[str, Any] | None, session: str | None
                        ) -> tuple[builtins.list[str] | None, str | None,
                                   builtins.list[str]] | None:
        """How a list reads what ``where`` (a scope's visibility filter) lets through,
        of ``session`` if given: the sessions to read (``None``: any), the platform its
        messages must be entered on unless they are of the sessions that follow
        (``None``: any); ``None`` when nothing can be visible. The sessions are those
        whose snapshot (:meth:`_sessions`) passes: the store's sessions of that resource
        id or origin platform and those below them, checked as recall checks them."""
        asked = None if session is None else [session]
        made = made_by(where)
        if made is None:  # no filter, or none a scope makes: read all, then drop
            return asked, None, []
        scope, value, own = made
        if scope == "session":  # its own rows alone
            if session is not None and session != value:
                return None
            return [value], None, []
        column, entered_on = ("resource_id", None) if scope == "resource" \
            else ("origin_platform", value)
        rows = {r.id: r for r in await self.store.sessions_under(column, value)}
        # the store walked each one's parent chain (a session without a parent is there
        # for its own column, a thread for its snapshot's): the rows of only those whose
        # chain it could not walk to a root (a parent missing, a cycle, past
        # MAX_SESSION_DEPTH) are read, with their parents among these in the same read.
        # A page over 5,000 sessions, four in five threads, read 5,000 rows (100-130 ms)
        unwalked = {sid: r.parent_id for sid, r in rows.items() if not r.walked}
        if session is not None:
            unwalked = {session: unwalked[session]} if session in unwalked else {}
        snaps = await self._sessions(
            {*unwalked, *(p for p in unwalked.values() if p in rows)}, {}, where) \
            if unwalked else {}
        seen = {sid for sid, r in rows.items() if r.walked and r.snapshot == value} \
            | {sid for sid in unwalked if getattr(snaps.get(sid), column, None) == value} \
            | ({own} if own is not None else set())
        if session is not None:
            if session in seen:
                return [session], None, []
            return None if entered_on is None else ([session], entered_on, [])
        listed = sorted(seen)
        return (listed, None, []) if entered_on is None else (None, entered_on, listed)

    async def _seal(self) -> CursorSeal:
        """The store's cursor seal: its key is made on the first ``list`` of a store
        (one for every process of it); a record that is not a key is replaced (a cursor
        lives for a listing, and the old one's cursors could not be opened anyway)."""
        if self._cursor_seal is None:
            stored = await self.store.meta_set_default(CURSOR_NAMESPACE, CURSOR_KEY,
                                                       CursorSeal.new_key())
            seal = CursorSeal.from_stored(stored)
            if seal is None:
                log.warning("the store's list-cursor key record is not a key: replaced")
                fresh = CursorSeal.new_key()
                await self.store.meta_set(CURSOR_NAMESPACE, CURSOR_KEY, fresh)
                seal = CursorSeal.from_stored(fresh)
                assert seal is not None
            self._cursor_seal = seal
        return self._cursor_seal

    async def index_states(self, ids: Sequence[str]) -> dict[str, str]:
        """Where each of these messages stands with the vector index: ``pending``,
        ``indexed``, ``failed`` (waiting for a retry), ``skipped`` (never embedded) or
        ``cleared``; unknown ids are left out."""
        wanted = builtins.list(dict.fromkeys(id_list(ids, "ids")))
        states = await self.store.index_states(wanted)
        return {i: STATE_NAMES[IndexState(states[i])] for i in wanted if i in states}

    async def sessions(self, *, limit: int = 100, after: str | None = None,
                       only: Sequence[str] | None = None) -> SessionsPage:
        """One page of the sessions stored (ordered by id, ``after`` the id given; every
        session with messages is one, registered or not, ``registered`` saying which):
        labels, message counts per index state, the last activity and the effective
        scope and retention with the layer each comes from (the console's Sessions
        page). ``only``: just these sessions. Counting reads each session's messages:
        one call costs time in the number of messages of the sessions listed."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= MAX_PAGE:
            raise InvalidInput(f"limit must be {LIMIT_TAKES}, got {describe(limit)}")
        if after is not None:
            check_label(after, "after")
        if only is not None:
            wanted = id_list(only, "only")
            found = await self.store.get_sessions(wanted)
            # and those holding messages whose row was removed by hand: one query for
            # them all (a query per name: 2,000 names took 300-420 ms on SQLite)
            unregistered = [sid for sid in wanted if sid not in found]
            bare = await self.store.message_sessions(unregistered) \
                if unregistered else set()
            found.update((sid, Session(id=sid)) for sid in bare)
            every = sorted(found.values(), key=lambda s: s.id)
        else:  # one page and the next one's first: not every session of the store
            every = await self.store.sessions_after(after, limit + 1)
            bound = every[limit].id if len(every) > limit else None
            bare = set(await self._unregistered_page(after, limit + 1, bound))
            every = sorted([*every, *(Session(id=sid) for sid in bare)],
                           key=lambda s: s.id)
        rest = [s for s in every if after is None or s.id > after]
        out = []
        for s in rest[:limit]:
            situation = await self.situation(s.id)
            scope = await self.settings.effective(situation)
            keep = await self.retention.effective(situation)
            states: dict[str, int] = {}
            count, last = 0, None
            async for rows in message_pages(self.store, session_ids=[s.id]):
                ids = [m.id for m in rows if m.id is not None]
                for state in (await self.store.index_states(ids)).values():
                    name = STATE_NAMES[IndexState(state)]
                    states[name] = states.get(name, 0) + 1
                count += len(rows)
                last = rows[-1]
            out.append(SessionSummary(
                s, situation.current_platform, count, states,
                None if last is None else last.ts, None if last is None else last.platform,
                scope.scope, scope.layer, keep.days, keep.layer, s.id not in bare))
        more = len(rest) > limit
        return SessionsPage(tuple(out), out[-1].session.id if more and out else None)

    async def delete(self, ids: Sequence[str]) -> int:
        """Erase these messages (at most 10 000) everywhere — rows, vectors, full-text
        rows, ANN labels, Qdrant points, cached embeddings, the old value a LangGraph put
        killed part way kept of one (:meth:`_drop_replacements`) — as :meth:`forget`
        does; returns how many messages there were (unknown ids are ignored; such an
        old value counts as its message). :meth:`erase` says what went per kind, and
        which ids matched nothing."""
        return (await self.erase(ids)).messages

    async def erase(self, ids: Sequence[str], *, dry_run: bool = False) -> Erased:
        """:meth:`delete`, returning the counts per kind as :meth:`forget` does (the
        console's Forget page shows the same for a message as for a speaker), and as
        ``not_found`` the ids that matched no stored message (a typo, a part of an id).
        ``dry_run``: erase nothing and return what would go: the messages found, and as
        ``vectors`` those of them indexed (and ``not_found``)."""
        if not isinstance(dry_run, bool):
            raise InvalidInput(f"dry_run must be true or false, got {describe(dry_run)}")
        wanted = builtins.list(dict.fromkeys(id_list(ids, "ids")))
        missing: builtins.list[str] = []
        if not dry_run:
            erased = await self._erase(wanted, missing=missing)
        else:
            found, damaged, waiting, missing = await self._reached(wanted, dry_run=True)
            erased = (await self._would_erase([*found, *(i for i in damaged if i not in found)])
                      + Erased(messages=len(waiting)))
        return dataclasses.replace(erased, not_found=tuple(missing))

    async def _reached(self, ids: Sequence[str], *, replacements: bool = True,
                       dry_run: bool = False) -> tuple[dict[str, Message], builtins.list[str],
                                                       set[str], builtins.list[str]]:
        """What an erase of ``ids`` reaches: the stored messages, the ids of damaged rows
        (an erase goes by the ids: a damaged row too, read without the JSON columns it
        cannot read, or by its id alone, each logged), the ids whose only trace is the old
        value a LangGraph put killed part way kept (:meth:`_drop_replacements`, dropped
        first, so that a store's heal cannot put one back after the erase, unless
        ``dry_run``; none when not ``replacements``), and the ids that match nothing."""
        waiting: set[str] = set()
        if replacements:
            erasing = set(ids)
            waiting = await self._drop_replacements(
                lambda record, _: replaced_id(record) in erasing, dry_run=dry_run)
        damaged: builtins.list[str] = []
        msgs = await self.store.get(ids, damaged=damaged)
        waiting -= {*msgs, *damaged}
        return msgs, damaged, waiting, [i for i in ids if i not in msgs and i not in damaged
                                        and i not in waiting]

    async def _would_erase(self, ids: Sequence[str]) -> Erased:
        """What erasing these stored messages would take (a dry run of :meth:`erase` and
        :meth:`forget`): the messages, and as ``vectors`` those of them indexed."""
        indexed = 0
        for start in range(0, len(ids), ERASE_CHUNK):
            chunk = ids[start:start + ERASE_CHUNK]
            try:
                states = await self.store.index_states(chunk)
            except DamagedRow:  # a state chatmem cannot read: the index says
                states = await self._readable_states(chunk)
                indexed += await self._holding_vectors([i for i in chunk if i not in states])
            indexed += sum(1 for st in states.values() if st == IndexState.INDEXED)
        return Erased(messages=len(ids), vectors=indexed)

    async def _holding_vectors(self, ids: Sequence[str]) -> int:
        """How many of these messages (whose index state chatmem cannot read: a hand
        edit) hold a vector, any model's, as the erase finds them: a nearest-neighbour
        query narrowed to their ids (each backend answers it from its ids) per width
        the index holds, since a query compares vectors of its own width alone."""
        index = self.storage.index
        if index is None or not ids:
            return 0
        narrowed = {"message_id": {"$in": builtins.list(ids)}}
        found: set[str] = set()
        for width in sorted({w for ws in (await index.vector_sizes()).values() for w in ws}):
            probe = np.full(width, width ** -0.5, dtype=np.float32)  # any unit vector
            found.update(s.message_id for s in await index.query(probe, len(ids), narrowed))
        return len(found.intersection(ids))

    async def _readable_states(self, ids: Sequence[str]) -> dict[str, IndexState]:
        """The index states of these messages, one by one: one whose ``index_state``
        chatmem cannot read (a hand edit) is left out, logged (an erase goes by the ids
        and needs no state)."""
        out: dict[str, IndexState] = {}
        for mid in ids:
            try:
                out.update(await self.store.index_states([mid]))
            except DamagedRow as exc:
                read_without(exc, "to erase it")
        return out

    async def forget(self, *, speaker_id: str | None = None, session: str | None = None,
                     resource_id: str | None = None, dry_run: bool = False) -> Erased:
        """Erase everything stored of one speaker, one session, or one resource (the
        sessions whose resource id, own or inherited from their root, is it): the
        messages, their vectors, full-text rows, ANN labels, Qdrant points and cached
        embeddings (I8), and the old values of LangGraph items a put killed part way
        kept to put back (:meth:`_drop_replacements`), each counted in ``messages`` as
        the message it would be again (once per item, not when the item's message is
        erased too). Exactly one selector. Returns the counts per kind; sessions'
        registrations and settings stay. ``dry_run``: erase nothing and return what
        would go: the messages (those old values too), and as ``vectors`` those of them
        indexed (the confirmation shown before a forget)."""
        if not isinstance(dry_run, bool):
            raise InvalidInput(f"dry_run must be true or false, got {describe(dry_run)}")
        given = {name: value for name, value in (("speaker_id", speaker_id),
                                                  ("session", session),
                                                  ("resource_id", resource_id))
                 if value is not None}
        if len(given) != 1:
            raise InvalidInput("forget needs exactly one of speaker_id, session or "
                               f"resource_id, got {', '.join(given) or 'none'}")
        name, value = next(iter(given.items()))
        check_label(value, name)  # the argument's own name, as the CLI and HTTP body use it
        if name == "resource_id":
            # a session's own resource id, else its root's (session_snapshot), with
            # the sessions read a page at a time, not all held at once
            scope: builtins.list[str] | None = [
                s.id async for s, root in self._sessions_with_roots("to forget by resource")
                if (s.resource_id or root.resource_id) == value]
            if not scope:
                return Erased()
        else:
            scope = [value] if name == "session" else None
        ids: builtins.list[str] = []
        for start in range(0, 1 if scope is None else len(scope), 500):
            part = None if scope is None else scope[start:start + 500]
            async for rows in message_pages(self.store, session_ids=part,
                                            speaker_id=speaker_id, damaged=[]):
                ids += [m.id for m in rows if m.id is not None]
        sessions, erasing = (None if scope is None else set(scope)), set(ids)

        def forgotten(record: str, old: Message | None) -> bool:
            # an unreadable record is left as it is, unless it is of an erased message
            return replaced_id(record) in erasing or (old is not None and (
                old.session_id in sessions if sessions is not None
                else old.speaker_id == speaker_id))

        if dry_run:
            waiting = await self._drop_replacements(forgotten, dry_run=True)
            return await self._would_erase(ids) + Erased(messages=len(waiting - erasing))
        erased = Erased()
        for start in range(0, len(ids), ERASE_CHUNK):
            erased += await self._erase(ids[start:start + ERASE_CHUNK])
        # those of the erased messages went with them (counted there)
        erased += Erased(messages=len(await self._erase_replacements(forgotten) - erasing))
        log.info("forgot %s %s: %s", name, as_given(value, sys.maxsize),
                 json.dumps(erased.to_dict()))
        return erased

    async def _replacements(self) -> builtins.list[tuple[str, Message | None]]:
        """Each record of ``REPLACING_NAMESPACE`` and the old message it keeps (``None``:
        one this cannot read)."""
        out: builtins.list[tuple[str, Message | None]] = []
        for _, record, value in await self.store.meta_items(REPLACING_NAMESPACE):
            try:
                out.append((record, Message.from_dict(json.loads(value))))
            except (ValueError, ChatmemError):
                out.append((record, None))
        return out

    async def _drop_replacements(self, which: Callable[[str, Message | None], bool], *,
                                 dry_run: bool = False) -> set[str]:
        """Drop the old values a LangGraph put keeps while it replaces an item
        (``REPLACING_NAMESPACE``, :mod:`chatmem.integrations.langgraph`) that
        ``which(record, old message)`` selects (``None``: a record this cannot read);
        returns the ids of their items. A put killed part way left its record, and the
        next LangGraph store would put an erased value back. ``dry_run``: drop none."""
        items: set[str] = set()
        for record, old in await self._replacements():
            if which(record, old):
                items.add(replaced_id(record))
                if not dry_run:
                    await self.store.meta_delete(REPLACING_NAMESPACE, record)
        return items

    async def _erase_replacements(self, which: Callable[[str, Message | None], bool]
                                  ) -> set[str]:
        """:meth:`_drop_replacements` of what ``which`` selects (for :meth:`forget` and
        :meth:`sweep_retention`, once they have erased the messages), each record under
        its item's lock (:meth:`_items_held`) and read again there: a store's heal that
        had read it put its value back meanwhile (the record gone), so the item's message,
        when ``which`` selects it too, is erased (:meth:`erase_held`): the erase wins."""
        items: set[str] = set()
        for record, old in await self._replacements():
            if not which(record, old):
                continue
            mid = replaced_id(record)
            items.add(mid)
            async with self._items_held([mid]):
                if await self.store.meta_get(REPLACING_NAMESPACE, record) is not None:
                    await self.store.meta_delete(REPLACING_NAMESPACE, record)
                    continue
                back = (await self.store.get([mid], damaged=[])).get(mid)
                if back is not None and which(record, back):
                    await self._erase_held([mid])
        return items

    async def set_retention(self, days: int | None, *, actor: Mapping[str, Any],
                            layer: Layer = "session", platform: str | None = None,
                            chat_type: str | None = None, group_id: str | None = None,
                            session: str | None = None) -> None:
        """Set (``None``: remove) one settings layer's retention in days (0 = keep
        forever); only an owner ``actor`` may (:class:`PermissionDenied` otherwise).
        Layers as for :meth:`set_scope`; the most specific wins, else
        ``retention.days``."""
        await self.retention.set(days, actor=actor, layer=layer, platform=platform,
                                 chat_type=chat_type, group_id=group_id, session=session)

    async def effective_retention(self, session: str, platform: str | None = None
                                  ) -> EffectiveRetention:
        """The retention of ``session`` now (days, 0 = forever) and the layer it comes
        from: the one the sweep applies, which follows the session's registration
        alone. ``platform`` (checked as everywhere) decides nothing: the sweep has no
        turn to take an entry platform from, so a platform layer it named would be
        reported for messages the sweep keeps."""
        check_label(session, "session")
        situation = await self.situation(session, platform)
        return await self.retention.effective(
            Situation(situation.session, situation.root, None))

    async def _sessions_with_roots(self, reading: str, *, sweep: bool = False
                                   ) -> AsyncIterator[tuple[Session, Session]]:
        """Every registered session with the root of its parent chain (itself without a
        parent), in id order, read :data:`~chatmem.retention.SWEEP_SESSIONS` at a time
        so that memory does not grow with the store; each ancestor is read once. Its
        callers (``reading``: what for, in the warning) need neither the metadata nor
        the settings: a row whose JSON column is damaged (a hand edit) is read without
        it, with a warning naming it, rather than stopping them. A row that is no
        session (SQLite's id NULL or a BLOB: no message is in it) is gone past, named
        in a warning; one whose id is text but whose chain or resource cannot be read
        (a text column holding a BLOB, its own or an ancestor's) is gone past too when
        ``sweep`` (the retention sweep keeps its messages), else its
        :class:`DamagedRow` is raised (a forget cannot tell where it belongs)."""
        ancestors: dict[str, Session] = {}
        after: str | None = None
        damaged: builtins.list[DamagedRow] = []
        who = "the retention sweep" if sweep else "forget by resource"

        def went_past(bad: DamagedRow, of: str = "") -> None:
            if bad.table == "sessions" and bad.column in ("metadata", "settings"):
                read_without(bad, reading)
            elif bad.table == "sessions" and bad.column == "id":
                said_damage(bad, f"{bad.damage}; {who} went past it (no message is in "
                                 f"a session without a text id); {bad.repair}")
            elif sweep:
                said_damage(bad, f"{bad.damage}; {who} went past it{of}, keeping its "
                                 f"messages (which retention applies to them cannot be "
                                 f"told); {bad.repair}")
            else:
                raise bad

        def logged() -> None:
            for bad in damaged:
                went_past(bad)
            damaged.clear()

        while True:
            sessions = await self.store.sessions_after(after, SWEEP_SESSIONS,
                                                       damaged=damaged)
            logged()
            if not sessions:
                return
            after = sessions[-1].id
            for s in sessions:
                root = s
                if s.parent_id:
                    try:
                        root = (await load_parent_chain(self.store, s, cache=ancestors,
                                                        damaged=damaged)).root
                    except DamagedRow as exc:  # an ancestor's row
                        went_past(exc, f" and session {describe(s.id)} below it")
                        continue
                    finally:
                        logged()
                yield s, root
            if len(sessions) < SWEEP_SESSIONS:
                return

    async def _message_sessions(self, after: str | None, step: int
                                ) -> AsyncGenerator[tuple[str, bool], None]:
        """The sessions that hold messages, those after ``after`` in the store's order
        of its messages by session, each with whether a session row registers it:
        ``message_sessions_after`` read ``step`` at a time, a page when the one before
        is used up (a caller that stops early reads no further page)."""
        while True:
            page = await self.store.message_sessions_after(after, step)
            for item in page:
                yield item
            if len(page) < step:
                return
            after = page[-1][0]

    async def _unregistered_sessions(self) -> AsyncIterator[str]:
        """The ids of the sessions that hold messages but have no session row (removed
        outside chatmem: chatmem never deletes one), read
        :data:`~chatmem.retention.SWEEP_SESSIONS` sessions at a time."""
        async for sid, registered in self._message_sessions(None, SWEEP_SESSIONS):
            if not registered:
                yield sid

    async def _unregistered_page(self, after: str | None, limit: int, bound: str | None
                                 ) -> builtins.list[str]:
        """The first ``limit`` ids (code point order) after ``after``, all below
        ``bound``, of the sessions that hold messages but have no session row (removed
        outside chatmem), for :meth:`sessions`' page. A store whose walk of the sessions
        messages are in goes in code point order (``message_sessions_by_code_point``:
        SQLite's, PostgreSQL's under the C collation) is walked from ``after`` to
        ``bound`` only: about a page's sessions; any other, each page, from its first.
        ``bound`` is the id of a session row (the ``limit``-th after ``after``, which
        :meth:`sessions` lists itself), so the session of that id is registered, not
        one of these: the walk stops on reaching it. It stopped at the next id, which,
        when a page of the walk ended at ``bound``, took one more query for nothing."""
        ordered = getattr(self.store, "message_sessions_by_code_point", False) is True
        found: builtins.list[str] = []  # the smallest, sorted
        step = min(limit, SWEEP_SESSIONS) if ordered else SWEEP_SESSIONS
        async with contextlib.aclosing(
                self._message_sessions(after if ordered else None, step)) as walk:
            async for sid, registered in walk:
                if ordered and bound is not None and sid >= bound:
                    break
                if not registered and (after is None or sid > after) \
                        and (bound is None or sid < bound):
                    bisect.insort(found, sid)
                    del found[limit:]
                    if ordered and len(found) == limit:
                        break
        return found

    async def sweep_retention(self, *, now: int | None = None) -> Erased:
        """Erase every message older than its session's retention (by ``ts``, against
        ``now``, default the clock), everywhere, as :meth:`forget` does; returns the
        counts. The background sweep (``retention.sweep_interval_s``) calls it. A
        session that holds messages but has no row (removed outside chatmem) is swept
        under its own setting, else ``retention.days``, with a warning naming it."""
        at = now_ms() if now is None else check_ts(now, "now")
        if self.config.retention.days <= 0 and not await self.retention.any_layer():
            return Erased()
        erased = Erased()
        # the sessions of old values LangGraph puts killed part way kept, and the
        # cutoff of each: such a value past it is dropped, as its message would be
        waiting = {old.session_id for _, old in await self._replacements() if old is not None}
        cutoffs: dict[str, int] = {}
        # expired messages of several sessions erased together, ERASE_CHUNK at a time:
        # an erase per session merged the full-text index and checkpointed the log once
        # per session (50,000 one-message sessions: half an hour); sessions read a page
        # at a time, so memory does not grow with the store
        due: builtins.list[str] = []

        async def expire(s: Session, root: Session) -> None:
            nonlocal erased
            eff = await self.retention.effective(Situation(s, root, None))
            cutoff = at - eff.days * DAY_MS
            if eff.days <= 0 or cutoff <= 0:
                return
            if s.id in waiting:
                cutoffs[s.id] = cutoff
            async for rows in message_pages(self.store, session_ids=[s.id], until=cutoff,
                                            damaged=[]):
                due.extend(m.id for m in rows if m.id is not None)
                while len(due) >= ERASE_CHUNK:  # the pages go on past the erased ones
                    erased += await self._erase(due[:ERASE_CHUNK])
                    del due[:ERASE_CHUNK]

        async for s, root in self._sessions_with_roots("for the retention sweep",
                                                  sweep=True):
            await expire(s, root)
        # and the messages of a session whose row was removed outside chatmem (a hand
        # DELETE FROM sessions): no registration, so the session's own setting or
        # retention.days, as effective_retention reports and as after an add (which
        # registers the session again, with nothing but its id)
        unregistered = 0
        named: builtins.list[str] = []  # the first few, for the warning
        async for sid in self._unregistered_sessions():
            unregistered += 1
            if len(named) < 10:
                named.append(sid)
            await expire(Session(id=sid), Session(id=sid))
        if unregistered:
            _said_unregistered(unregistered, named)
        if due:
            erased += await self._erase(due)
        if cutoffs:  # counted as the messages they would be again
            erased += Erased(messages=len(await self._erase_replacements(
                lambda _, old: old is not None and old.ts is not None
                and old.ts < cutoffs.get(old.session_id, 0))))
        if erased.messages:
            log.info("retention sweep erased %s", erased.to_dict())
        return erased

    async def _erase(self, ids: Sequence[str], *,
                     missing: builtins.list[str] | None = None) -> Erased:
        """:meth:`erase_held` of ``ids``, those of LangGraph items (:func:`is_item_id`)
        under their items' locks (:meth:`item_lock` and ``store.key_lock``, in every
        process), :data:`ITEM_LOCKS` items at a time: a store's heal that read an item's
        record before the erase dropped it cannot put the erased value back after it
        (the erase waits for the heal and erases the value put back), nor a put of the
        item under way keep a record of the erased value for the next heal."""
        items = [i for i in ids if is_item_id(i)]
        if not items:
            return await self._erase_held(ids, missing=missing)
        unmatched: builtins.list[str] = []
        erased = await self._erase_held([i for i in ids if not is_item_id(i)],
                                        missing=unmatched)
        for start in range(0, len(items), ITEM_LOCKS):
            part = items[start:start + ITEM_LOCKS]
            async with self._items_held(part):
                erased += await self._erase_held(part, missing=unmatched)
        if missing is not None:
            left = set(unmatched)
            missing += [i for i in ids if i in left]  # in the order asked
        return erased

    @contextlib.asynccontextmanager
    async def _items_held(self, ids: Iterable[str]) -> AsyncIterator[None]:
        """The locks of these LangGraph items held (:meth:`item_lock`), in name order:
        this process's first, then every process's (``store.key_lock``, on PostgreSQL
        advisory locks of one transaction), as a put takes them."""
        names = sorted(set(ids))
        async with contextlib.AsyncExitStack() as held:
            for mid in names:
                await held.enter_async_context(self.item_lock(mid))
            for mid in names:
                await held.enter_async_context(self.store.key_lock(item_lock_key(mid)))
            yield

    async def erase_held(self, ids: Sequence[str], *, keep_replacements: bool = False
                         ) -> Erased:
        """Erase these messages (at most 10 000) everywhere, as :meth:`erase` does
        (``not_found``: the ids that matched nothing), for a caller that holds the locks
        of the LangGraph items among them (:meth:`item_lock`, then
        ``store.key_lock(item_lock_key(id))``), which :meth:`erase` would take again: a
        LangGraph put or delete of an item (``chatmem.integrations.langgraph``).
        ``keep_replacements``: a LangGraph put erasing the item it replaces, whose own
        record of the old value must stay until its new value is stored."""
        if not isinstance(keep_replacements, bool):
            raise InvalidInput(f"keep_replacements must be true or false, got "
                               f"{describe(keep_replacements)}")
        wanted = builtins.list(dict.fromkeys(id_list(ids, "ids")))
        missing: builtins.list[str] = []
        erased = await self._erase_held(wanted, keep_replacements=keep_replacements,
                                        missing=missing)
        return dataclasses.replace(erased, not_found=tuple(missing))

    async def _erase_held(self, ids: Sequence[str], *, keep_replacements: bool = False,
                          missing: builtins.list[str] | None = None) -> Erased:
        """:meth:`erase_held` of ids already checked (or read from the store): the old
        values LangGraph puts killed part way kept of them (:meth:`_drop_replacements`;
        each counted as its message when that is not stored) go first, so that a
        store's heal cannot put one back after the erase. The ids that match neither a
        stored message nor such an old value are added to ``missing``."""
        if not ids:
            return Erased()
        msgs, _, waiting, unmatched = await self._reached(
            ids, replacements=not keep_replacements)
        if missing is not None:
            missing += unmatched
        # one whose time is damaged (ts None) is placed by the copy its index entries
        # hold, so the erase reaches the turns beside it as for any message
        context_texts, replies = await self._erased_context(
            await self._placed(builtins.list(msgs.values())), set(ids))
        texts = [t for m in msgs.values() for t in (m.embedded_text, m.content, m.shown_text)]
        try:
            erased = await self.storage.erase(ids)
        except BaseException:
            # the store may have erased them and the separate index not (its points go
            # in the background, from the erase's record): their cached vectors go now.
            # Cancelled in between too (a timeout, a closing server): the points are
            # looked for now, not at the next open, as after an index error
            if self.storage.separate:
                self.storage.erasures_owed = True
            if self.embedder is not None:
                self.embedder.forget_texts(texts + context_texts)
            raise
        if self._indexer is not None:
            # never embedded now; a batch already embedding them finishes first, so that
            # what it put in the cache goes below (and its write finds them gone)
            self._indexer.discard(ids)
            try:
                await wait_within(self._indexer.settled_ids(ids), ERASE_SETTLE_S)
            except asyncio.TimeoutError:
                log.warning("erase: an embedding of erased messages is still running; its "
                            "cached vectors stay until evicted")
        cache = 0
        if self.embedder is not None:
            cache = self.embedder.forget_texts(texts + context_texts)
        # their vectors hold erased words: embedded again, alone or with the turn now
        # before them
        await self._requeue_indexed(replies)
        return dataclasses.replace(erased, cache=cache, messages=erased.messages + len(waiting))

    async def _placed(self, msgs: builtins.list[Message]) -> builtins.list[Message]:
        """``msgs`` with a place in their sessions' order: one whose time the store could
        not read (a hand edit; read with ``ts`` None) takes the time its index entries
        hold (:meth:`~chatmem.store.sqlite.SqliteStore.entry_times`: a copy written as it
        was queued or indexed; a message's time never changes), which is where the turns
        beside it were when their vectors were computed with its words. One without
        such a copy (never indexable, or a store that keeps none) has no place: it is
        erased without the turns beside it (logged)."""
        unplaced = [m.id for m in msgs if m.ts is None and m.id is not None]
        if not unplaced or self.embedder is None \
                or self.config.indexing.short_reply_chars <= 0:
            return [m for m in msgs if m.ts is not None]
        # an optional capability, not part of the MessageStore protocol: only SQLite's
        # ts column can hold a time chatmem cannot read
        entry_times = getattr(self.store, "entry_times", None)
        times: dict[str, int] = {} if entry_times is None else await entry_times(unplaced)
        for mid in unplaced:
            if mid not in times:
                log.warning("message %s: its time is damaged and no index entry of it holds "
                            "a copy; erasing it without the turns beside it (their cached "
                            "vectors stay until evicted)", describe(mid))
        return [m if m.ts is not None else dataclasses.replace(m, ts=times[m.id or ""])
                for m in msgs if m.ts is not None or (m.id or "") in times]

    async def _erased_context(self, msgs: Sequence[Message], erased: set[str]
                              ) -> tuple[list[str], list[Message]]:
        """For an erase: the texts the vectors of ``msgs`` were computed from with the
        turn before them, and the short replies (not erased) whose vectors were
        computed with the words of one of ``msgs`` (issue 12)."""
        if self.embedder is None or self.config.indexing.short_reply_chars <= 0:
            return [], []
        cfg = self.config.indexing
        texts: list[str] = []
        replies: dict[str, Message] = {}
        for m in msgs:
            try:  # the turns before and after it: a damaged one cannot stop the erase
                own = (await vector_texts(self.store, [m], cfg))[0]
                try:
                    reply = await self._reply_to(m)
                except DamagedRow as exc:
                    # an erased message whose time is damaged: SQLite orders a text
                    # after every integer, so it follows the last turn of its session
                    # (m, placed by :meth:`_placed`, then has no reply)
                    if exc.row not in erased:
                        raise
                    reply = None
            except DamagedRow as exc:
                log.warning("%s; erasing %s without the turns beside it", exc.damage, m.id)
                continue
            if own != m.embedded_text:
                texts.append(own)
            if reply is not None and reply.id is not None and reply.id not in erased:
                texts.append(vector_text(reply, m, cfg))
                replies[reply.id] = reply
        return texts, builtins.list(replies.values())

    async def _visibility(self, session: str | None, platform: str | None
                          ) -> Mapping[str, Any] | None:
        """The visibility filter of recalls from ``session`` (``None``: no session given,
        or scope ``all``)."""
        if session is None:  # with a session, situation() checks platform
            optional_label(platform, "platform")
            return None
        check_label(session, "visible_from")
        situation = await self.situation(session, platform)
        return scope_filter((await self.settings.effective(situation)).scope, situation)

    async def _visible(self, msgs: Sequence[Message], where: Mapping[str, Any] | None,
                       read: dict[str, Session] | None = None) -> builtins.list[Message]:
        """The messages that pass ``where`` as their vector entries would (R4); their
        sessions are read into ``read`` (those it holds are not read again)."""
        if not where or not msgs:
            return builtins.list(msgs)
        snaps = await self._sessions({m.session_id for m in msgs}, {} if read is None else read,
                                    where)
        model = self.embedder.model_id if self.embedder is not None else ""
        passes = _Passes(where, model)
        return [m for m in msgs if passes(m, snaps.get(m.session_id))]

    # ------------------------------------------------------------------ tool

    def tool_schema(self, *, strict: bool = False) -> dict[str, Any]:
        """The ``memory_recall`` tool in OpenAI tools format (F8, I2). ``strict=True``:
        the form OpenAI's strict function calling takes (``"strict": true``, every
        argument required, ``null`` for one left out), of the same meaning."""
        return tool_schema(self.config, strict=strict)

    async def call_tool(self, arguments: Mapping[str, Any] | str,
                        caller: Caller | Mapping[str, Any]) -> dict[str, Any]:
        """Run ``memory_recall`` for the model. The arguments may only narrow the
        effective configuration: a wider scope is clamped (and the result says so)."""
        who = Caller.of(caller)
        args = parse_tool_arguments(arguments)
        cfg = self.config
        win = cfg.recall_window
        if args.context_window is not None:
            win = Window(before=min(win.before, args.context_window),
                         after=min(win.after, args.context_window))
        cross = cfg.context_expand.cross_session and (
            True if args.cross_session is None else args.cross_session)
        top_k = cfg.recall_top_k if args.top_k is None else min(args.top_k, cfg.recall_top_k)
        request = RecallRequest.of(
            args.query, session=who.session_id, platform=who.platform, top_k=top_k,
            scope=args.scope, window=win, cross_session=cross,
            speakers=[who.speaker_id] if who.speaker_id else [], narrow_only=True)
        return tool_result(await self.run_recall(request), args.scope)

    # ------------------------------------------------------------------ recall

    def _require_recall(self) -> tuple[VectorIndex, Embedder]:
        if self.index is None or self.embedder is None:
            # only a memory built with semantic_recall=False gets here (M4: __init__
            # refuses any other), so that setting is not the way out
            lacks = " and no ".join(name for name, part in (
                ("vector index", self.index), ("embedder", self.embedder)) if part is None)
            raise RecallUnavailable(
                f"semantic recall needs a vector index and an embedder, and this memory has "
                f"no {lacks} (semantic_recall=False keeps only context() from recalling): "
                "open it with both, e.g. Memory.open('sqlite:///chat.db')")
        return self.index, self.embedder

    async def situation(self, session: str, platform: str | None = None) -> Situation:
        """Where a recall comes from: ``session`` (entry ``platform``) and its root.
        Every visibility decision goes through here: ``platform`` becomes a literal of
        the scope filter, so anything but text (a mapping would act as filter operators
        and widen the scope, R4) is refused."""
        check_label(session, "session")
        optional_label(platform, "platform")  # "" would be a platform no message is of
        # nor do its own: a metadata or settings column chatmem cannot read (a hand
        # edit) is read as {}, each time with a warning naming its repair, not every
        # turn of the conversation refused until an operator repairs it
        own: list[DamagedRow] = []
        found = (await self.store.get_sessions([session], damaged=own)).get(session) \
            or Session(id=session)
        for bad in own:
            read_without(bad, f"for a recall from session {describe(session)}", repair=True,
                         why="its scope and retention need neither its metadata nor its "
                             "settings")
        root = found
        if found.parent_id:
            # an ancestor's metadata or settings decide nothing of a recall (the scope
            # is read from the root's platform, group, chat type and resource id, and
            # the scope settings, kept apart): one chatmem cannot read (a hand edit)
            # is read without, logged, not every recall from below it refused
            walked: list[DamagedRow] = []
            root = (await load_parent_chain(self.store, found, damaged=walked)).root
            walked_past(walked, doing=f"as the ancestor of session {describe(session)}")
        return Situation(found, root, platform)

    async def effective_scope(self, session: str, platform: str | None = None
                              ) -> EffectiveScope:
        """The scope recalls from ``session`` use now, and the settings layer it comes
        from (F10)."""
        check_text(session, "session", required=True, max_chars=MAX_LABEL_CHARS)
        return await self.settings.effective(await self.situation(session, platform))

    async def set_scope(self, scope: str | None, *, actor: Mapping[str, Any],
                        layer: Layer = "session", platform: str | None = None,
                        chat_type: str | None = None, group_id: str | None = None,
                        session: str | None = None) -> None:
        """Set (``None``: remove) one settings layer's scope; only an owner ``actor`` may
        (F10, :class:`~chatmem.errors.PermissionDenied` otherwise)."""
        await self.settings.set(scope, actor=actor, layer=layer, platform=platform,
                                chat_type=chat_type, group_id=group_id, session=session)

    async def get_session(self, session: str) -> Session | None:
        """The stored session ``session`` (its settings included), or ``None``."""
        check_label(session, "session")
        return (await self.store.get_sessions([session])).get(session)

    async def _legacy_model(self, current: str) -> str:
        """F11: the model that role-less legacy vectors are attributed to.

        Read from (or recorded into) the metadata area at the first search; when
        the store fails, legacy vectors count as the current model this time and
        the marker is tried again at the next search (one warning per run)."""
        async with self._marker_lock:
            if self._legacy_marker is not None:
                return self._legacy_marker
            try:
                value = await self.store.meta_get(LEGACY_NAMESPACE, LEGACY_KEY)
                if value is None:
                    await self.store.meta_set(LEGACY_NAMESPACE, LEGACY_KEY, current)
                    value = current
            except ChatmemError as exc:
                if not self._marker_warned:
                    self._marker_warned = True
                    log.warning("legacy model marker unavailable (%s); legacy vectors count as "
                                "%s for now", exc, current)
                return current
            self._legacy_marker = value
            return value

    async def recall(
        self,
        query: TurnInput | Sequence[TurnInput],
        *,
        session: str | None = None,
        platform: str | None = None,
        top_k: int | None = None,
        min_score: float | None = None,
        scope: str | None = None,
        window: int | Mapping[str, int] | None = None,
        cross_session: bool | None = None,
        filter: Mapping[str, Any] | None = None,
        speakers: Sequence[str] = (),
        exclude_ids: Sequence[str] = (),
        now: int | None = None,
        narrow_only: bool = False,
        follow_replies: bool | None = None,
    ) -> RecallResult:
        """Recall past messages relevant to ``query`` (text, or this turn's messages).

        ``session`` is the conversation asking (and ``platform`` the entry platform of
        this turn); the visible set is the effective scope of that session — its layered
        settings, else the configuration — unless ``scope`` names one explicitly.
        ``filter`` (seed 003) applies to the session-metadata snapshot of each vector.
        ``narrow_only`` (an untrusted caller, e.g. a user API key): ``scope`` may only
        narrow the effective scope, as in the tool, and ``filter`` is added to the
        configured filter instead of replacing it. ``follow_replies=False``: no reply
        inherits a candidate's score (``search.reply_share``) and no sitting lends one
        (``search.episode_share``) in this recall, e.g. when the messages are documents
        rather than turns. A query of text with no words (``""``, ``"   "``, ``[]``) is an
        :class:`InvalidInput`; a turn of messages without words recalls nothing.
        """
        return await self.run_recall(RecallRequest.of(
            query, session=session, platform=platform, top_k=top_k, min_score=min_score,
            scope=scope, window=window, cross_session=cross_session, filter=filter,
            speakers=speakers, exclude_ids=exclude_ids, now=now, narrow_only=narrow_only,
            follow_replies=follow_replies))

    async def run_recall(self, request: RecallRequest) -> RecallResult:
        """The recall pipeline (F4–F6), timed for the metrics, in a ``chatmem.recall``
        span (:mod:`chatmem.telemetry`)."""
        # a damaged column of its own session is read by its situation and again with
        # its hits' sessions: one warning (read_without)
        with self.telemetry.timed("recall") as outcome, one_warning_per_damage():
            result = await self._run_recall(request)
            outcome.value = "degraded" if result.degraded else "ok"
            outcome.size = len(result.hits)
            return result

    async def _run_recall(self, request: RecallRequest) -> RecallResult:
        """The recall pipeline (F4–F6), stage by stage."""
        _, embedder = self._require_recall()
        plan = await self._plan(request)
        if plan.query is None:
            return RecallResult(query=None, scope=plan.scope, clamped=plan.clamped)
        ranked: list[Ranked] = []
        excluded: Mapping[str, int] = {}
        degraded: str | None = None
        # the query is embedded once, whatever the number of tiers (None: it could not be)
        query_vector: list[Vector | None] = []
        stored: dict[str, Message] = {}
        sessions: dict[str, Session] = {}  # read once per recall (_sessions)
        now = plan.now if plan.now is not None else now_ms()  # one "now" for every tier
        search = self.config.search
        period = named_period(plan.query, now, self.config.timezone) \
            if search.period_boost != 1.0 else None
        searched_text = plan.search_text or plan.query
        for pool_size in plan.pool_tiers:
            found, tier_degraded = await self._candidates(searched_text, pool_size,
                                                          plan.where, query_vector)
            degraded = degraded or tier_degraded
            searched = len(found)
            if period is not None and period.only and pool_size == plan.pool_tiers[0]:
                # the question names only a day: that day's messages must be candidates
                # (in the first pool only, whose size does not depend on top_k)
                found = await self._with_period(searched_text, found, period, plan.where,
                                                pool_size, query_vector)
            legacy = await self._legacy_model(embedder.model_id) \
                if any(s.model_id is None for s in found) else embedder.model_id
            # F11: another model's candidates leave before a score is lent (a reply's
            # share, a sitting's): a cosine of another space is compared with nothing
            models = by_model(found, model_id=embedder.model_id, legacy_model=legacy)
            pool = episode_context(
                await self._with_replies(models.kept, plan, embedder.model_id, sessions),
                share=plan.episode_share,
                span_ms=search.episode_minutes * 60_000, role=plan.asked_role)
            admission = admit(pool, plan, model_id=embedder.model_id, legacy_model=legacy,
                              models=models)
            self._warn_other_models(embedder.model_id, admission.other_models)
            # a larger tier holds the smaller one's candidates: read only the new ones
            fetched = await self.store.get(
                [s.message_id for s in admission.kept if s.message_id not in stored])
            # R4: an index entry's session snapshot may lag its session (a separate index
            # still updating or failing to, another process's indexing, an imported
            # file): a candidate is kept only if its message, with its session as it is
            # now, passes the recall's filter, as neighbours and listed messages must
            shown = {m.id for m in await self._visible(builtins.list(fetched.values()),
                                                       plan.where, sessions)}
            stored.update({i: m for i, m in fetched.items() if i in shown})
            candidates = admit_messages(admission, stored, plan)
            tier = rerank(candidates, now_ms=now,
                          time_weight=plan.time_weight,
                          half_life_days=search.half_life_days,
                          boost_speakers=plan.boost_speakers,
                          boost=search.user_priority_boost,
                          current_state=plan.current_state,
                          earliest=plan.earliest,
                          best=self.config.recall_top_k,
                          asked_role=plan.asked_role,
                          role_boost=search.asked_role_boost,
                          asks_when=plan.asks_when,
                          when_boost=search.when_boost,
                          asks_quantity=plan.asks_quantity,
                          quantity_boost=search.quantity_boost,
                          question_factor=search.current_question_factor,
                          asked_back_factor=search.asked_back_factor,
                          change_boost=search.change_boost,
                          min_length=search.asked_assistant_min_length,
                          period=period, period_boost=search.period_boost)
            known = {r.message.id for r in ranked}
            ranked += [r for r in tier if r.message.id not in known]
            excluded = admission.excluded
            if len(ranked) >= plan.top_k or searched < pool_size:
                break  # enough hits, or no candidate left beyond this pool
        ranked = ranked[:plan.top_k]
        neighbours = await self._neighbours(ranked, plan, request.session, embedder.model_id,
                                            sessions)
        if len(ranked) > len(neighbours):  # the character budget left hits out
            excluded = {**excluded, "budget": len(ranked) - len(neighbours)}
            ranked = [r for r in ranked if r.message.id in neighbours]
        labels = await self._sessions({r.message.session_id for r in ranked}, sessions)
        snippets, text = fit(ranked, neighbours, plan.skip_ids, labels,
                             max_chars=self.config.context_expand.max_chars,
                             locale=self.config.locale, timezone=self.config.timezone,
                             per_item_max_chars=self.config.search.per_item_max_chars,
                             chat_type_labels=self.platforms.chat_type_labels)
        return RecallResult(plan.query, hits_with_context(ranked, neighbours),
                            tuple(snippets), text, excluded, scope=plan.scope,
                            clamped=plan.clamped, degraded_reason=degraded, period=period)

    async def _with_period(self, q: str, found: list[ScoredId], period: Period,
                           where: Mapping[str, Any] | None, pool_size: int,
                           query_vector: list[Vector | None]) -> list[ScoredId]:
        """``found`` and the best ``pool_size`` matches sent within ``period`` under the
        same filters: a question that names only a day ("what did I tell you
        yesterday?") matches nothing by its words, and in a long history that day's
        messages are not among the best matches of the whole store."""
        within = combine(where, {"ts": {"$gte": period.start, "$lt": period.end}})
        try:
            extra, _ = await self._candidates(q, pool_size, within, query_vector)
        except FilterError:  # the caller's filter leaves no room under the node limit
            return found
        known = {s.message_id for s in found}
        added = [s for s in extra if s.message_id not in known]
        if len(extra) < pool_size and not (query_vector and query_vector[0] is not None):
            # ranked by full text alone (hybrid.mode "lexical", or the query could not be
            # embedded): "what did I tell you yesterday?" shares no word with that day's
            # messages, and a search finds none of them. They join as the weakest
            # candidates, the latest first (rule 30 puts them before every other one).
            known |= {s.message_id for s in extra}
            added += [ScoredId(m.id, 0.0, PENDING_MODEL, m.role, m.session_id, m.ts)
                      for m in await self._latest_within(period, where, pool_size)
                      if m.id is not None and m.ts is not None and m.id not in known]
        return sorted([*found, *added], key=pool_order)

    async def _latest_within(self, period: Period, where: Mapping[str, Any] | None,
                             n: int) -> builtins.list[Message]:
        """The ``n`` latest searchable messages sent within ``period`` that ``where``
        lets through (as their index entries would), newest first. Reads at most
        :data:`PERIOD_FILL_ROUNDS` store pages of ``n × 10`` messages (each a walk of
        the store's time index): a day full of conversations ``where`` hides must not
        hold up a recall."""
        latest: builtins.list[Message] = []
        rounds = 0
        async for page in message_pages(self.store, since=period.start, until=period.end,
                                        newest_first=True, limit=n * 10):
            latest += await self._visible([m for m in page if m.indexable], where)
            rounds += 1
            if len(latest) >= n or rounds >= PERIOD_FILL_ROUNDS:
                break
        return latest[:n]

    async def _plan(self, request: RecallRequest) -> RecallPlan:
        """The request resolved: effective scope (F10), visibility (F9), filters (M6)."""
        situation = await self.situation(request.session, request.platform) \
            if request.session else None
        scope, clamped = await self._effective_scope(situation, request.scope,
                                                     request.narrow_only)
        if situation is None:
            if scope not in ("all", "user"):
                if request.scope is not None and not clamped:
                    raise ScopeError(f"scope {describe(request.scope_as_given or scope)} needs "
                                     f"session={NEEDS_SESSION}",
                                     mentions=[("session", NEEDS_SESSION)])
                # not asked for: the caller may not know where it came from, or that
                # another scope needs no session; named as the configuration wrote it
                # (thread, not the session it stands for)
                raise ScopeError(f"the configured scope "
                                 f"{describe(self.config.recall_scope_as_written)} needs "
                                 f'session={NEEDS_SESSION}, or scope="all"',
                                 mentions=[("session", NEEDS_SESSION), ("scope", '"all"')])
            visibility = None
        else:
            try:
                visibility = scope_filter(scope, situation)
            except ScopeError:
                if scope != "resource" or (request.scope is not None and not clamped):
                    raise  # asked for in the call: the call's scope is the way on
                raise await self._unasked_resource_refusal(situation) from None
        configured = self.config.recall_filter
        caller = request.filter
        if request.narrow_only and configured and caller is not None:
            # an untrusted caller's filter adds to the configured one, never replaces it
            caller = {"$and": [configured, dict(caller)]} if caller else configured
        where = combine(visibility, user_filter(caller if caller is not None else configured))
        return plan(request, self.config, scope=scope, clamped=clamped,
                    visibility=visibility, where=where)

    async def _with_replies(self, pool: list[ScoredId], plan: RecallPlan,
                            model_id: str, sessions: dict[str, Session]) -> list[ScoredId]:
        """The pool with the replies of its best candidates (:mod:`chatmem.recall.follow`);
        a reply counts only if it is visible under the same filters as the pool.
        ``sessions``: the sessions the recall read (:meth:`_sessions`)."""
        search = self.config.search
        share, window = plan.reply_share, search.reply_window
        window_group = window if search.reply_window_group is None \
            else search.reply_window_group
        if share <= 0 or max(window, window_group) <= 0 or not pool:
            return pool
        # on a question about one side's words the window counts that side's turns;
        # the assistant's questions back may be left out of the count (rule 31)
        role = plan.asked_role
        insertions = search.reply_insertions if role == "assistant" else 0
        parents = reply_parents(pool, self.config.recall_top_k, role,
                                other_side=search.reply_other_side)
        groups: set[str] = set()
        if window_group != window:
            parent_sessions = await self._sessions({p.session_id for p in parents}, sessions)
            groups = {sid for sid, session in parent_sessions.items() if session.is_group}
        followers: dict[str, list[Message]] = {}
        passes = _Passes(plan.where, model_id) if plan.where else None
        for parent in parents:
            size = window_group if parent.session_id in groups else window
            if size <= 0:
                continue
            # the session's own order decides what answers what; filters apply after
            read = size if role is None else FOLLOW_READ * (size + insertions)
            after = reply_followers(
                await self.store.range(parent.session_id, parent.ts, 0, read),
                size, insertions, role)
            if passes is not None and after:
                sid = parent.session_id
                snap = (await self._sessions({sid}, sessions, plan.where)).get(sid)
                after = [m for m in after if passes(m, snap)]
            followers[parent.message_id] = after
        return follow_replies(pool, followers, share=share)

    def _warn_other_models(self, current: str, others: set[str]) -> None:
        """F11: one warning per run per query model, listing the excluded models."""
        if others and current not in self._warned_models:
            self._warned_models.add(current)
            log.warning("recall with %s skipped vectors of other models (%s): re-embed them "
                        "(chatmem reindex) or clear the vector index", current,
                        # str: a model id of bytes (a hand edit in SQLite) is one too
                        ", ".join(sorted(map(str, others))))

    async def _unasked_resource_refusal(self, situation: Situation) -> ScopeError:
        """M5/F10: the scope ``resource`` of a session without a resource id, when the
        call did not ask for it: it came from the configuration or a settings layer, and
        the refusal says which, and the way on there (``context()`` and ``POST
        /v1/context`` take no scope to use instead; seed 003: give a resource id, or set
        the scope to ``thread``)."""
        give = ("give it a resource_id (Memory.upsert_session, PUT /v1/sessions/{id}, "
                "chatmem session set --resource-id)")
        session = describe(situation.session.id)
        layer = (await self.settings.effective(situation)).layer
        if layer == "config":
            option = self.config.recall_scope_option
            return ScopeError(f'the configured scope "resource" ({option}) needs a resource '
                              f"id, and session {session} has none: {give}, or set {option} "
                              '= "thread" (this session only)')
        return ScopeError(f'the scope "resource" that session {session} takes from its '
                          f"{layer} setting needs a resource id, and the session has none: "
                          f"{give}, or set another scope at that layer (Memory.set_scope, "
                          "PUT /v1/settings, chatmem scope set)")

    async def _effective_scope(self, situation: Situation | None, requested: str | None,
                               narrow_only: bool) -> tuple[str, bool]:
        """(scope used, whether a wider request was clamped).

        Without a request the session's layered setting decides (else configuration).
        A trusted request is used as given; an untrusted one may only narrow."""
        if situation is None:
            base = self.config.recall_scope
        else:
            base = (await self.settings.effective(situation)).scope
        if requested is None:
            return base, False
        if not narrow_only or narrower_or_equal(requested, base):
            return requested, False
        return base, True

    async def _candidates(self, q: str, pool_size: int, where: Mapping[str, Any] | None,
                          query_vector: list[Vector | None] | None = None
                          ) -> tuple[list[ScoredId], str | None]:
        """The candidate pool of a recall and, when it is degraded, why.

        The pool is the ``pool_size`` nearest vectors under ``where``, fused with the
        ``pool_size`` best full-text matches under the same ``where`` when hybrid recall
        is on and the store keeps a lexical index (X1). Each score is the fused semantic
        score in [0, 1] (:mod:`chatmem.recall.fuse`); without full text, the cosine on
        the same reference scale (:func:`~chatmem.recall.fuse.dense_only`). When the
        query cannot be embedded
        and full text is at hand, the pool is the full-text matches alone and the reason
        is returned (``hybrid.fallback_to_lexical``): a turn must not fail because the
        embedding service does.

        F11: a full-text match whose vector is another model's (or of legacy vectors
        attributed to another model) is a full-text-only candidate, as one not embedded
        yet (:func:`~chatmem.recall.admit.full_text_only`): no cosine of it is measured
        and the dense side is fused from the query model's hits alone. Dense hits of
        other models that full text did not find follow the fused pool, for admission
        to count them as ``other_model``."""
        index, embedder = self._require_recall()
        hybrid = self.config.hybrid
        lexical = self.storage.lexical if hybrid.enabled else None

        deadline = self.config.embedding.query_deadline
        retries: int | None = None
        if self._outage_since is not None and lexical is not None \
                and hybrid.fallback_to_lexical:
            last_ok = embedder.status.last_ok_at
            if last_ok is None or last_ok < self._outage_since:
                # a known outage: one brief probe instead of holding up every turn with
                # retries up to the full deadline (a success of the indexer's calls ends
                # the outage for recall too)
                deadline, retries = min(deadline, OUTAGE_PROBE_S), 0

        used: list[Vector] = []  # the query vector, to measure full-text-only candidates
        markers: list[str] = []  # the legacy model, once read: one read per search

        async def legacy_model() -> str:
            if not markers:
                markers.append(await self._legacy_model(embedder.model_id))
            return markers[0]

        async def dense() -> list[ScoredId]:
            if query_vector and query_vector[0] is not None:  # a larger tier, same recall
                used.append(query_vector[0])
                return await self._of_own_model(
                    index, query_vector[0], pool_size, where,
                    await index.query(query_vector[0], pool_size, where), legacy_model,
                    embedder.model_id)
            # refused: a width the store's vectors of the model do not have
            assert self._indexer is not None
            widths = self._indexer.widths
            embedded = await widths.embed(embedder, [(q, "query")], deadline=deadline,
                                          max_retries=retries, query=True)
            vec = embedded.vectors[0]
            hits = await index.query(vec, pool_size, where)
            if not any(h.model_id in (embedded.model_id, None) for h in hits):
                # nothing of the model: perhaps another process moved the store to
                # another width since this one read it (refused then, as above)
                await widths.found_none(embedded.model_id, len(vec), embedder.provider.name)
            if query_vector is not None:
                query_vector.append(vec)
            used.append(vec)
            return await self._of_own_model(index, vec, pool_size, where, hits,
                                            legacy_model, embedder.model_id)

        caps = embedder.capabilities
        baseline = hybrid.cosine_baseline if hybrid.cosine_baseline is not None \
            else caps.cosine_baseline
        if lexical is None:
            return dense_only(await dense(), baseline), None
        if hybrid.mode == "lexical":
            return await self._full_text_only(
                await lexical.lexical_query(q, pool_size, where)), None
        if query_vector and query_vector[0] is None:  # a smaller tier already degraded
            return await self._full_text_only(
                await self._lexical_hits(lexical, q, pool_size, where)), None
        dense_task = asyncio.ensure_future(dense())
        try:
            words = await self._lexical_hits(lexical, q, pool_size, where)
            all_dense = await dense_task
        except EmbeddingUnavailable as exc:
            if not hybrid.fallback_to_lexical:
                raise
            self._note_degraded(exc)
            if query_vector is not None:
                query_vector.append(None)
            return await self._full_text_only(words), DegradedReason(exc)
        finally:
            if not dense_task.done():
                dense_task.cancel()
        self._note_recovery()
        current = embedder.model_id
        legacy = await legacy_model() if any(h.model_id is None for h in words) \
            else markers[0] if markers else current
        all_dense, words = attributed(all_dense, legacy), attributed(words, legacy)
        dense_hits = [h for h in all_dense if h.model_id == current]
        lexical_hits = self._full_text_only_as(words, current)
        measured: list[ScoredId] = []
        measured_lexical: list[ScoredId] = []
        if hybrid.fusion == "score":  # rank fusion reads ranks, not scores
            # independent round trips (PostgreSQL, Qdrant): at once, as the searches;
            # a match whose vector is another model's is not measured
            measurable = [h for h in words if h.model_id in (current, PENDING_MODEL)]
            space = {current, None} if legacy == current else {current}
            measured, measured_lexical = await asyncio.gather(
                self._cosines_of_lexical_only(index, used[0], space,
                                              dense_hits, measurable, where),
                self._lexical_of_dense_only(lexical, q, dense_hits, lexical_hits, where))
        dense_weight = next(w for w in (hybrid.dense_weight, caps.dense_weight,
                                        DEFAULT_DENSE_WEIGHT) if w is not None)
        fused = fuse(dense_hits, lexical_hits, query=q,
                     languages=caps.languages, cosine_baseline=baseline,
                     dense_weight=dense_weight,
                     dense_weight_uncovered=hybrid.dense_weight_uncovered, limit=pool_size,
                     method=hybrid.fusion,
                     rrf_k=hybrid.rrf_k, measured=measured,
                     measured_lexical=measured_lexical)
        matched = {s.message_id for s in words}
        return fused + [h for h in all_dense
                        if h.model_id != current and h.message_id not in matched], None

    async def _of_own_model(self, index: VectorIndex, vector: Vector, k: int,
                            where: Mapping[str, Any] | None, hits: list[ScoredId],
                            legacy_model: Callable[[], Awaitable[str]], current: str
                            ) -> list[ScoredId]:
        """The ``k`` nearest vectors of the query model's space, followed by the vectors
        of other models among ``hits`` (the ``k`` nearest under ``where``, whatever
        their model) for admission to count as ``other_model`` (F11); legacy vectors
        named by their marker's model (``legacy_model``, read once per search).

        Another model's vectors of the query's width are compared inside the index
        (SQLite's exact search and ANN, pgvector, Qdrant): until ``reindex`` they took
        places among the ``k`` nearest, and 200 old vectors near a question left none of
        a pool of 20 to the 20 of the new model (dense recall of top_k 5: no hit). When
        ``hits`` hold one, the search is made again with the model in the filter, pushed
        down as any filter (legacy vectors with it when they count as the query's
        model); a store of one model searches once, as before. ``current``: the query
        model's id (the caller's embedder's)."""
        if any(h.model_id is None for h in hits):
            hits = attributed(hits, await legacy_model())
        if all(h.model_id == current for h in hits):
            return hits
        legacy = await legacy_model()  # a legacy vector beyond the k too
        space: dict[str, Any] = {"model_id": current} if legacy != current else {
            "$or": [{"model_id": current}, {"model_id": None}]}
        within = {**where, **space} if where and not space.keys() & where.keys() \
            else combine(where, space)
        try:
            own = await index.query(vector, k, within)
        except FilterError:  # the caller's filter leaves no room under the node limit
            return hits
        return attributed(own, legacy) + [h for h in hits if h.model_id != current]

    async def _legacy_of(self, hits: Sequence[ScoredId]) -> str:
        """F11: the model legacy vectors (no ``model_id``) count as: the marker's
        (:meth:`_legacy_model`, read once, and only when ``hits`` hold one), else the
        query model's."""
        current = self._require_recall()[1].model_id
        if any(h.model_id is None for h in hits):
            return await self._legacy_model(current)
        return current

    async def _full_text_only(self, hits: list[ScoredId]) -> list[ScoredId]:
        """Full-text hits ranked alone (:meth:`_full_text_only_as`), legacy vectors
        attributed first."""
        current = self._require_recall()[1].model_id
        return self._full_text_only_as(attributed(hits, await self._legacy_of(hits)),
                                       current)

    def _full_text_only_as(self, hits: Sequence[ScoredId], current: str) -> list[ScoredId]:
        """Full-text hits (their legacy vectors attributed), those whose vector is not
        ``current``'s as full-text-only candidates
        (:func:`~chatmem.recall.admit.full_text_only`; the warning of F11 names the
        models whose vectors recall skipped)."""
        others = {h.model_id for h in hits if h.model_id not in (current, PENDING_MODEL)}
        if others:
            self._warn_other_models(current, {m for m in others if m is not None})
        return full_text_only(hits, current)

    @staticmethod
    async def _cosines_of_lexical_only(index: VectorIndex, vector: Vector,
                                       space: Collection[str | None],
                                       dense_hits: Sequence[ScoredId],
                                       lexical_hits: Sequence[ScoredId],
                                       where: Mapping[str, Any] | None) -> list[ScoredId]:
        """The cosines of the full-text candidates the dense search did not return, by
        one more nearest-neighbour query restricted to their ids (under the same
        ``where``). Score fusion blends them instead of bounding them
        (:mod:`chatmem.recall.fuse`). A candidate with no vector yet is not returned;
        one whose vector is outside the query's ``space`` (the caller leaves out those
        its full-text entry says are) is dropped: a cosine across two models' spaces
        means nothing. Both keep the bound. So do all of them when the caller's filter
        is too near the filter node limit (:func:`_measure`)."""
        async def cosines(part: list[str], narrowed: dict[str, Any]) -> list[ScoredId]:
            return [s for s in await index.query(vector, len(part), narrowed)
                    if s.model_id in space]

        return await _measure(_not_in(lexical_hits, dense_hits), where, cosines)

    @staticmethod
    async def _lexical_of_dense_only(lexical: LexicalIndex, q: str,
                                     dense_hits: Sequence[ScoredId],
                                     lexical_hits: Sequence[ScoredId],
                                     where: Mapping[str, Any] | None) -> list[ScoredId]:
        """The full-text scores of the dense candidates the full-text search did not
        return (the mirror of :meth:`_cosines_of_lexical_only`): a pool of the best 20
        word matches leaves out more partial matches the larger the store, and they
        counted 0. A failing full-text index leaves them at 0, as ``_lexical_hits``
        degrades to dense."""
        async def scores(part: list[str], narrowed: dict[str, Any]) -> list[ScoredId]:
            return await lexical.lexical_query(q, len(part), narrowed)

        try:
            return await _measure(_not_in(dense_hits, lexical_hits), where, scores)
        except StoreError as exc:
            log.warning("full-text scores of dense candidates failed (%s); they count 0",
                        exc)
            return []

    def _note_degraded(self, exc: EmbeddingUnavailable) -> None:
        """One warning per outage (not one per recall). A query refused for its width
        is no outage (the provider answered): one warning naming both widths and
        ``chatmem reindex``, and no outage is started, whose short probe would cut
        later queries' deadline as if the provider were down."""
        self._degraded_recalls += 1
        if exc.width_mismatch:
            # the provider answered: an outage known before is over
            self._outage_since = None
            if not self._width_refused:
                self._width_refused = True
                log.warning("recall degraded to full text: the query's vector was refused "
                            "for its width (%s); the embedding model does not match the "
                            "store, which no retry changes (not an outage): further recalls "
                            "stay degraded quietly until it does", exc)
            return
        if self._outage_since is None:
            self._outage_since = time.time()
            log.warning("recall degraded to full text: the query could not be embedded "
                        "(%s, decision=%s); further recalls stay degraded quietly until "
                        "the provider answers", exc, exc.retry_decision)

    def _note_recovery(self) -> None:
        self._width_refused = False
        if self._outage_since is not None:
            log.warning("recall uses dense search again after %.0f s of full-text only",
                        time.time() - self._outage_since)
            self._outage_since = None

    @staticmethod
    async def _lexical_hits(lexical: LexicalIndex, q: str, pool_size: int,
                            where: Mapping[str, Any] | None) -> list[ScoredId]:
        """Full-text matches; a failing lexical index degrades recall to dense, loudly."""
        try:
            return await lexical.lexical_query(q, pool_size, where)
        except StoreError as exc:
            log.warning("lexical search failed (%s); this recall uses dense search only", exc)
            return []

    async def _neighbours(self, ranked: Sequence[Ranked], plan: RecallPlan,
                          session: str | None, model_id: str, read: dict[str, Session]
                          ) -> dict[str, list[Message]]:
        """F5: each hit's neighbours from its own session (other sessions' hits only with
        ``cross_session``); R4: a neighbour is shown only if it is visible itself and
        passes the recall's filter (the configured one and the caller's, as a hit must:
        a filter on ``message.<key>`` hides a message next to a hit too). Hits past
        :data:`MAX_RECALL_CHARS` get no entry (the caller leaves them out).
        ``read``: the sessions the recall read (:meth:`_sessions`)."""
        win = plan.window
        out: dict[str, list[Message]] = {}
        used, full = 0, False
        passes = _Passes(plan.where, model_id) if plan.where else None
        for r in ranked:
            assert r.message.id is not None and r.message.ts is not None
            used += text_chars(r.message)
            if out and (full or used > MAX_RECALL_CHARS):
                break
            around: list[Message] = []
            if (win.before or win.after) and (plan.cross_session
                                              or r.message.session_id == session):
                around = await self.store.range(r.message.session_id, r.message.ts,
                                                win.before, win.after)
                if passes is not None and around:
                    sid = r.message.session_id
                    snap = (await self._sessions({sid}, read, plan.where)).get(sid)
                    around = [m for m in around if passes(m, snap)]
            sizes = [text_chars(m) for m in around]
            if used + sum(sizes) > MAX_RECALL_CHARS:  # the nearest neighbours that fit
                keep = set()
                for m in nearest_first(r.message, around):
                    size = text_chars(m)
                    if used + size > MAX_RECALL_CHARS:
                        break  # and no farther one: the window stays unbroken
                    keep.add(m.id)
                    used += size
                around = [m for m in around if m.id in keep]
                full = True  # the hits after this one are left out
            else:
                used += sum(sizes)
            out[r.message.id] = around
        return out

    async def _call_behind(self, session: str, latest: list[Message],
                           before: list[Message]
                           ) -> tuple[list[Message], int | None, set[str | None]]:
        """:meth:`turn_context`'s ``before`` (the session's ``latest`` messages without
        the turn's, all ``tool`` answers) with the messages before them back to the call
        they answer (:func:`~chatmem.recall.last.trailing_call`; its place returned),
        up to :data:`MAX_CALL_READ` messages in all, each read going on from the oldest
        message of the one before (``until``) for as many again: each message is read
        once (each read began again at the newest, about twice as many rows in all:
        7,091 for a call 3,003 back). Those read without their words
        (:meth:`MessageStore.recent_heads`: finding the call reads roles and metadata
        only; 4,096 tool outputs read in full were megabytes for one call) and their ids
        are returned with them: what of them goes to the context is read in full by
        :meth:`_with_words`."""
        size = min(2 * len(latest), MAX_CALL_READ)
        more = await self.store.recent_heads(session, size)
        # the messages read in full are the newest of these (a message stored since is
        # after them; one deleted since leaves no place for the call)
        at = next((i for i, m in enumerate(more) if m.id == latest[0].id), None)
        if at is None:
            return before, None, set()
        older = more[:at]
        call = trailing_call(older)
        read = len(more)
        while call is None and len(more) == size and read < MAX_CALL_READ:
            # every message of ``older`` is a tool answer: the call is further back
            size = min(read, MAX_CALL_READ - read)
            more = await self.store.recent_heads(session, size, until=more[0].ts)
            read += len(more)
            older = [*more, *older]
            call = trailing_call(more)  # at the same place in ``older``
        return [*older, *before], call, {m.id for m in older}

    async def _with_words(self, last: list[Message], heads: set[str | None]
                          ) -> list[Message] | None:
        """``last`` with its messages read without their words (ids in ``heads``) read
        in full; ``None`` when one of them is gone meanwhile (erased)."""
        need = [m.id for m in last if m.id in heads and m.id is not None]
        full = await self.store.get(need) if need else {}
        if len(full) < len(set(need)):
            return None
        return [full.get(m.id or "", m) for m in last]

    async def context(self, turn: TurnInput | Sequence[TurnInput], *, session: str,
                      platform: str | None = None, speakers: Sequence[str] = (),
                      exclude_ids: Sequence[str] = (), now: int | None = None
                      ) -> list[dict[str, Any]]:
        """The messages to put before the conversation: the recall system message
        (when anything is recalled) followed by the session's ``last_messages`` (M2),
        as chat-completions messages (``[*context, *messages]`` goes to the model): an
        assistant's ``tool_calls`` with the ``tool`` messages answering them, and what
        cannot go as such a group as a labelled ``user`` message; nothing stored comes
        back as ``system`` but a system message (:mod:`chatmem.recall.last`). A turn
        that begins with ``tool`` answers gets the stored call they answer as the last
        message (past ``last_messages`` too) when it is the session's last stored
        message before them; else the context is what it is without them (the app's
        own list places the call).
        ``turn`` is this turn's text(s) or messages, or an OpenAI message list as is:
        its user and assistant words are the query; system prompts, tool calls and tool
        results are not (I7). ``platform`` is the entry platform of this turn (F9).
        ``now`` is the recall's clock, as in :meth:`recall` (replays, benchmarks).
        :meth:`turn_context` also returns the recall behind them."""
        return (await self.turn_context(turn, session=session, platform=platform,
                                        speakers=speakers, exclude_ids=exclude_ids,
                                        now=now)).messages

    async def turn_context(self, turn: TurnInput | Sequence[TurnInput], *, session: str,
                           platform: str | None = None, speakers: Sequence[str] = (),
                           exclude_ids: Sequence[str] = (), now: int | None = None
                           ) -> TurnContext:
        """:meth:`context`'s messages with the recall that made them (its hits, and
        whether it was ``degraded`` to full text because the provider was down)."""
        check_label(session, "session")
        optional_label(platform, "platform")
        # a bad turn is refused even when recall is off
        _, turn_messages = turn_inputs(turn, "turn")
        if now is not None:
            check_ts(now, "now")
        exclude_ids = id_list(exclude_ids, "exclude_ids")
        n, recall_on = self.config.last_messages, self.config.semantic_recall_enabled
        last: list[Message] = []
        stored_turn: list[Message] = []
        # a turn that begins with tool answers goes right after the call they answer
        # (the API refuses it elsewhere): that call ends the context, whatever n is
        answers = opening_answers(turn, turn_messages)
        size = len([turn] if isinstance(turn, (str, Message, Mapping)) else turn)
        # a turn of messages with ids only: the recall skips their ids (stored copies
        # included) without a read; one of text or without ids needs the stored copies'
        by_id = len(turn_messages) == size and all(m.id for m in turn_messages)
        if n or answers or (recall_on and not by_id):
            # the turn may be stored already (add, then context): the caller sends it
            # after the context, so the last messages are the N before it, and its stored
            # copies are in the caller's context, never recalled (hit or neighbour)
            size += n
            latest = await self.store.recent(session, size)
            before = before_turn(latest, turn, turn_messages, session)
            stored_turn = latest[len(before):]
            call = trailing_call(before) if answers else None
            heads: set[str | None] = set()  # messages read without their words
            if answers and call is None and len(latest) == size < MAX_CALL_READ:
                # a call behind more of its answers than were read: further back
                before, call, heads = await self._call_behind(session, latest, before)
            start = max(len(before) - n, 0)
            last = before[start:]
            placed = None
            if answers and follows_call(before, call, answers):
                assert call is not None
                placed = last if call >= start else await self._with_words(
                    placed_call(before, call, start), heads)  # the call and its answers
            if placed is None:  # nothing placed: the caller's own list puts their call
                answers = []
            else:
                last = placed
        out: list[dict[str, Any]] = []
        result = RecallResult(query=None)
        if recall_on:
            request = RecallRequest.of(turn, session=session, platform=platform,
                                       speakers=speakers, exclude_ids=exclude_ids, now=now,
                                       words=False)
            # the last messages join after the check: the caller's ids may be as many as
            # ``exclude_ids`` allows (they made a 400 of a request within its limits)
            result = await self.run_recall(dataclasses.replace(
                request, exclude_ids=(*request.exclude_ids,
                                      *(m.id for m in (*stored_turn, *last) if m.id))))
        if result.text:
            out.append({"role": "system", "content": result.text})
        # tool traffic as call/answer groups, never as system messages (recall/last.py)
        out += last_messages(last, LABELS.get(self.config.locale, LABELS["en"]),
                             then=[m.metadata["tool_call_id"] for m in answers])
        return TurnContext(out, result)

    # ------------------------------------------------------------------ housekeeping

    async def stats(self) -> dict[str, Any]:
        await self._settle_auto_model()  # the store's model, as this reports it
        s = await self.storage.stats()
        by_model = dict(s.vectors_by_model)
        out: dict[str, Any] = {
            "messages": s.messages, "sessions": s.sessions, "indexed": s.indexed,
            "pending": s.pending, "failed": s.failed, "skipped": s.skipped,
            "cleared": s.cleared,
            # E12: the failed messages wait for a retry; the soonest is due then (ms)
            "next_retry_at": s.next_retry_at,
            "vectors_by_model": by_model,
            "recall": {"degraded": self._degraded_recalls,
                       "outage_since": self._outage_since},
        }
        if self.embedder is not None:
            st = self.embedder.status
            out["embedder"] = {
                "model_id": self.embedder.model_id, "calls": st.calls, "texts": st.texts,
                "provider_calls": st.provider_calls, "errors": st.errors,
                "last_error": st.last_error[1] if st.last_error else None,
                # E10: a later success does not clear last_error; these two (Unix time,
                # s) tell whether it is still current (the console shows it only then)
                "last_error_at": st.last_error[0] if st.last_error else None,
                "last_ok_at": st.last_ok_at,
                "cache": st.cache.__dict__ if st.cache else None,
            }
            if isinstance(self.embedder.provider, AutoProvider):
                # embedding.model auto: the model chosen for this store, None before the
                # first documents (queries use all-MiniLM-L6-v2 until then), and the one
                # in use while its first messages say too little to choose
                auto = self.embedder.provider
                out["embedder"]["auto"] = {"chosen": auto.chosen, "tentative": auto.tentative}
        if self._indexer is not None:
            out["indexer"] = self._indexer.stats().__dict__
        out["indexing"] = self._history.to_dict()
        out["store_bytes"] = _store_bytes(self.store)
        return out

    async def close(self) -> None:
        """Stop the background work and close the store (idempotent). Calls still
        running in other tasks end with :class:`StoreClosed`; a close already under way
        in another task is waited for (so the store's file is free after either). A
        close cancelled part way (``asyncio.wait_for`` timing out, its task cancelled)
        still runs to its end, the cancellation raised after: the store is closed."""
        if self._closed:
            await self._close_done.wait()
            return
        self._closed = True
        await run_to_end(self._close())

    async def _close(self) -> None:
        """:meth:`close`'s work, once."""
        try:
            for task in (self._sweeper, self._rewrite_healer):
                if task is not None:
                    task.cancel()
                    with contextlib.suppress(asyncio.CancelledError):
                        await task
            if self._indexer is not None:
                await self._indexer.stop()
            try:
                if self._failed:  # after the indexer: it writes no vector now
                    with contextlib.suppress(Exception):
                        await self.storage.unrecord()
                await self.storage.close()
            finally:
                if self._owns_embedder and self.embedder is not None:
                    await self.embedder.aclose()
        finally:
            self._close_done.set()

    #: :meth:`list_messages` (last in the class: the name shadows the builtin here).
    list = list_messages


def _said_unregistered(count: int, named: Sequence[str]) -> None:
    """The retention sweep's warning about the sessions that hold messages but have no
    session row (removed outside chatmem), ``named`` the first few of ``count``."""
    log.warning(
        "retention sweep: %d session(s) hold messages but have no session row (removed "
        "outside chatmem, e.g. DELETE FROM sessions): %s; their messages are swept by "
        "the session's own retention setting, else retention.days (a platform, chat-type "
        "or group setting cannot reach them: their platform, chat type and group went "
        "with the row). Register each again for those to apply (chatmem session set ID "
        "--origin-platform P [--chat-type T] [--group-id G]; Memory.upsert_session), or "
        "erase its messages (chatmem forget --session ID)", count,
        ", ".join(json.dumps(i, ensure_ascii=False) for i in named)
        + (f" and {count - len(named)} more" if count > len(named) else ""))


def _close_unawaited(values: Iterable[object], awaited: Collection[int] = ()) -> None:
    """Close the coroutines among ``values`` (a store's ``open()`` given to a refused
    :class:`SyncMemory`) whose id is not in ``awaited``: closed, they open nothing and
    Python prints no "coroutine … was never awaited" when they are collected."""
    for value in values:
        if inspect.iscoroutine(value) and id(value) not in awaited:
            value.close()


async def _composed(arguments: Mapping[str, Any]) -> Memory:
    """``Memory(**arguments)`` entered, for :class:`SyncMemory` on its loop: an argument
    given as an awaitable (a store's ``open()`` not awaited) is awaited first, once for
    one given twice (``storage`` and ``vector``); what was opened so is closed when the
    memory cannot be built."""
    opened: dict[int, Any] = {}
    try:
        built = {}
        for key, value in arguments.items():
            if inspect.isawaitable(value):
                if id(value) not in opened:
                    opened[id(value)] = await value
                value = opened[id(value)]
            built[key] = value
        return await Memory(**built).__aenter__()
    except BaseException:
        _close_unawaited(arguments.values(), opened)
        for made in opened.values():
            with contextlib.suppress(Exception):
                await made.close()
        raise


class SyncMemory(BlockingWrapper[Memory]):
    """Blocking access to a :class:`Memory` for scripts.

    It runs the async core on a private event loop in a background thread; each
    method is the async method of the same name run to completion there (see
    :func:`chatmem._sync.blocking`), so there is no second copy of any logic.
    """

    def __init__(self, factory: Callable[[], Awaitable[Memory]] | None = None, /,
                 **arguments: Any) -> None:
        """``SyncMemory(storage=…, vector=…, embedder=…, options=…)``: a memory of your
        own objects, as ``Memory(**arguments)`` builds it (SPEC M1; the same keywords and
        refusals), entered on this wrapper's loop. A store or index may be given as an
        awaitable, ``SqliteStore.open("chat.db")`` not awaited: it is awaited there (once,
        when given as both), so what it binds to a loop binds to this one, and closed
        again when the memory cannot be built. ``factory`` (positional) makes the memory
        instead, as :meth:`open` does."""
        if factory is not None and (arguments or not callable(factory)):
            _close_unawaited([factory, *arguments.values()])
            raise InvalidInput(
                "SyncMemory() takes Memory()'s arguments as keywords (storage=…, vector=…, "
                f"embedder=…, options=…), got {describe(factory)} positionally"
                if not callable(factory) else
                "SyncMemory(factory) takes no other argument: pass Memory()'s keywords "
                "without a factory")
        super().__init__(factory if factory is not None
                         else functools.partial(_composed, arguments))

    @classmethod
    def open(cls, url: str = "sqlite:///chatmem.db", **kwargs: Any) -> SyncMemory:
        """:meth:`Memory.open` (the same URL forms and keywords, e.g. ``create=False``)."""
        return cls(lambda: Memory.open(url, **kwargs))

    @property
    def memory(self) -> Memory:
        """The async memory underneath (for its attributes: ``config``, ``store``…)."""
        return self._inner

    @property
    def platforms(self) -> PlatformRegistry:
        """The memory's platform declarations (:attr:`Memory.platforms`):
        ``mem.platforms.register("onebot", chat_types={"private": "私聊"})``."""
        return self._inner.platforms

    #: A call after close() fails as the async core's does after its close().
    closed_error = StoreClosed
    #: A call from a forked process, or from a callback on the memory's own loop thread.
    usage_error = InvalidInput
    #: A call whose task something on its loop cancelled (not close(), not its caller).
    cancelled_error = EventLoopMisuse

    @staticmethod
    async def _aclose_object(inner: Memory) -> None:
        await inner.close()

    add = blocking(Memory.add)
    upsert_session = blocking(Memory.upsert_session)
    flush = blocking(Memory.flush)
    rewrite = blocking(Memory.rewrite)
    clear = blocking(Memory.clear)
    reindex = blocking(Memory.reindex)
    call_tool = blocking(Memory.call_tool)
    situation = blocking(Memory.situation)
    effective_scope = blocking(Memory.effective_scope)
    set_scope = blocking(Memory.set_scope)
    get_session = blocking(Memory.get_session)
    run_recall = blocking(Memory.run_recall)
    recall = blocking(Memory.recall)
    context = blocking(Memory.context)
    turn_context = blocking(Memory.turn_context)
    stats = blocking(Memory.stats)
    get = blocking(Memory.get)
    list_messages = blocking(Memory.list_messages)
    delete = blocking(Memory.delete)
    erase = blocking(Memory.erase)
    forget = blocking(Memory.forget)
    visible = blocking(Memory.visible)
    index_states = blocking(Memory.index_states)
    sessions = blocking(Memory.sessions)
    set_retention = blocking(Memory.set_retention)
    effective_retention = blocking(Memory.effective_retention)
    sweep_retention = blocking(Memory.sweep_retention)

    @functools.wraps(Memory.tool_schema)
    def tool_schema(self, *, strict: bool = False) -> dict[str, Any]:
        return self._inner.tool_schema(strict=strict)

    #: :meth:`list_messages` (last in the class: the name shadows the builtin here).
    list = list_messages


async def _vector_pages(index: VectorIndex, damaged: list[str]
                        ) -> AsyncIterator[list[VectorEntry]]:
    """Every entry of ``index``, a page at a time, those it cannot read left out and
    their message ids added to ``damaged``: the scan goes on past them (a page of damaged
    entries only is empty, not the end)."""
    after: str | None = None
    while True:
        seen = len(damaged)
        page = await index.scan_vectors(after, 1000, damaged=damaged)
        ids = [*(e.message_id for e in page[-1:]), *damaged[seen:]]
        if not ids:
            return
        if page:
            yield page
        after = max(ids)
