"""Storage contracts (S1, S2): one Protocol per kind of store.

The message store is the source of truth; a vector index holds derived data
that can always be rebuilt from it. Backends map their driver errors to
:class:`chatmem.errors.StoreError` at their edge.
"""

from __future__ import annotations

import logging
import os
import re
from collections.abc import Callable, Hashable, Iterator, Mapping, Sequence
from contextlib import AbstractAsyncContextManager, contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Protocol, TypeVar, runtime_checkable

import numpy as np
import numpy.typing as npt

from ..errors import DamagedRow, InvalidInput, StoreError
from ..logwindow import LogWindow
from ..models import (
    MAX_VECTOR_LENGTH,
    PENDING_MODEL,
    Erased,
    IndexState,
    Message,
    ScoredId,
    Session,
    StoreStats,
    VectorEntry,
    as_stored_json,
    embedded_text,
    message_entry,
    now_ms,
)

T = TypeVar("T")

log = logging.getLogger("chatmem.store")


class ArrivalClock:
    """The time of a message stored without ``ts``: the wall clock, but always at least a
    millisecond after the previous time this clock gave, whatever the session.

    Why: recall reads the order of a history (which statement of a fact is newer, issue
    12), and a history imported in one ``add`` without timestamps, one session per day,
    used to take the same clock reading in every session (``ts`` is staggered only
    within a session), so day 30 was no newer than day 1. Measured by ``bench/quality.py
    --no-timestamps`` (the histories added without timestamps, recall at the wall clock;
    README § Recall quality), dev / validation: Hit@5 648 → 665 of 738 and 591 → 606 of
    695, the newer statement first in 48 → 59 of 75 and 44 → 53 of 77 knowledge-update
    questions (60 and 52 with the timestamps). One clock per store object: two
    processes writing to one database order their own batches, as each one's wall clock
    does."""

    def __init__(self) -> None:
        self._last = -1

    def next(self) -> int:
        """A time for the next message without one: now, or just after the last given."""
        self._last = max(now_ms(), self._last + 1)
        return self._last

    def taken(self, ts: int) -> None:
        """``ts`` was stored for a message this clock timed (after the store staggered it
        within its session): the next time given comes after it."""
        self._last = max(self._last, ts)


#: Most parent links followed from a session to its root (a cycle stops earlier).
MAX_SESSION_DEPTH = 32

# The store's metadata area (``MessageStore.meta_get``), by namespace: defined here, the
# layer every writer and ``chatmem.transfer`` (which exports and imports them) can read.
#: Scope settings per layer (:mod:`chatmem.scopes`).
SETTINGS_NAMESPACE = "scope-settings"
#: Retention settings per layer (:mod:`chatmem.retention`).
RETENTION_NAMESPACE = "retention-settings"
#: The model of legacy (model-less) vectors (F11; :class:`chatmem.Memory`).
LEGACY_NAMESPACE = "memory-vector"
LEGACY_KEY = "legacy-model"
#: The full-text tokenizer's version the store's rows were written with.
LEXICAL_NAMESPACE = "chatmem.lexical"
#: The key sealing the store's ``list`` cursors (:class:`chatmem.memory.CursorSeal`):
#: a secret, never exported.
CURSOR_NAMESPACE = "chatmem.cursor"
#: The LangGraph store's replacements under way (:mod:`chatmem.integrations.langgraph`):
#: an item's old message, kept until its new one is stored; a store's own bookkeeping,
#: never exported.
REPLACING_NAMESPACE = "chatmem.langgraph.replacing"
CURSOR_KEY = "key"


#: The message ids of LangGraph items (``chatmem.integrations.langgraph.message_id``):
#: ``"lg-"`` and 40 hexadecimal digits of a hash of the namespace and key.
ITEM_ID_PREFIX = "lg-"
_ITEM_ID = re.compile(r"lg-[0-9a-f]{40}")


def is_item_id(mid: str) -> bool:
    """Whether ``mid`` may be a LangGraph item's message id (:data:`ITEM_ID_PREFIX`): one
    whose puts, heals and erases take its lock (:func:`item_lock_key`)."""
    return _ITEM_ID.fullmatch(mid) is not None


def item_lock_key(mid: str) -> str:
    """The name of the lock of the LangGraph item whose message id is ``mid``, in this
    process (``Memory.item_lock``) and in every process (:meth:`MessageStore.key_lock`):
    held by a put of the item from its read to its end, by a heal while it looks at a
    record of the item, and by an erase of the item's message."""
    return f"langgraph:{mid}"


def replaced_id(record: str) -> str:
    """The message id a record of :data:`REPLACING_NAMESPACE` keeps the old value of: its
    key, or the part of its key before ":" for a record an earlier chatmem wrote (one
    per replacement: the id, ":" and a random suffix). An item's id holds no ":"."""
    return record.partition(":")[0]


@dataclass(frozen=True)
class SessionSnapshot:
    """The session fields every vector entry of one session carries (SPEC §2): its origin
    platform and resource id as scoping sees them (a child takes its root's origin
    platform, and its root's resource id when it has none of its own) and its metadata."""

    session_id: str
    origin_platform: str | None = None
    resource_id: str | None = None
    metadata: Mapping[str, Any] = field(default_factory=dict)


class SessionUnder(NamedTuple):
    """A session :meth:`MessageStore.sessions_under` found under a resource id or an
    origin platform."""

    id: str
    #: its parent's id (``None``: none; such a one is there for its own column)
    parent_id: str | None
    #: whether the store walked its parent chain (:func:`parent_chain`) to a session
    #: without a parent within :data:`MAX_SESSION_DEPTH` sessions: then ``snapshot`` is
    #: its snapshot's column; else (a parent missing, a cycle, a longer chain) the
    #: caller reads its snapshot (:func:`~chatmem.store.storage.snapshot_sessions`)
    walked: bool = False
    #: the column (``resource_id`` or ``origin_platform``) of its snapshot
    #: (:class:`SessionSnapshot`), when ``walked``
    snapshot: str | None = None


@dataclass(frozen=True)
class ParentChain:
    """A session's parent chain as one walk up found it: the session, then each ancestor
    found, nearest first. The walk ends at a session without a parent (the root), at a
    parent the lookup does not find (``unknown``: a missing parent ends a chain), at a
    parent already in the chain (``cycle``: that parent's id), or at ``limit`` sessions."""

    sessions: tuple[Session, ...]
    unknown: str | None = None
    cycle: str | None = None

    @property
    def root(self) -> Session:
        """The farthest session reached: the root scoping reads a sub-task's platform from."""
        return self.sessions[-1]


def parent_chain(session: Session, lookup: Callable[[str], Session | None],
                 limit: int = MAX_SESSION_DEPTH) -> ParentChain:
    """The one walk up a parent chain (scoping, snapshots, retention and the check of a
    new parent all read it): ``lookup`` finds a session by id; at most ``limit`` sessions."""
    chain = [session]
    seen = {session.id}
    while (parent_id := chain[-1].parent_id) and len(chain) < limit:
        if parent_id in seen:
            return ParentChain(tuple(chain), cycle=parent_id)
        parent = lookup(parent_id)
        if parent is None:
            return ParentChain(tuple(chain), unknown=parent_id)
        seen.add(parent_id)
        chain.append(parent)
    return ParentChain(tuple(chain))


async def load_parent_chain(store: MessageStore, session: Session,
                            limit: int = MAX_SESSION_DEPTH,
                            cache: dict[str, Session] | None = None,
                            damaged: list[DamagedRow] | None = None) -> ParentChain:
    """:func:`parent_chain` over a store: each walk that stops at a parent not loaded yet
    loads it (one read per ancestor) and walks again. ``cache``: sessions by id as
    stored, which the caller read already; the ancestors loaded are added to it.
    ``damaged``: as :meth:`MessageStore.get_sessions` (a chain needs only the ids)."""
    loaded: dict[str, Session] = {} if cache is None else cache
    # given only when asked for: a store (or a wrapper) without it reads as before
    extra: dict[str, Any] = {} if damaged is None else {"damaged": damaged}
    while True:
        chain = parent_chain(session, loaded.get, limit)
        wanted = chain.unknown
        if wanted is None:
            return chain
        found = (await store.get_sessions([wanted], **extra)).get(wanted)
        if found is None:
            return chain
        loaded[wanted] = found


#: Seconds within which a damaged column read without again (the same store, row and
#: column) is logged at DEBUG: a conversation whose own session row is damaged reads it
#: every turn, and logs one WARNING per window, not one per turn.
DAMAGE_WINDOW_S = 60.0
#: The damaged columns read without in this process (:func:`read_without`).
damage_warnings = LogWindow(DAMAGE_WINDOW_S)
#: The damaged columns already logged within this call (:func:`one_warning_per_damage`).
_WARNED_IN_CALL: ContextVar[set[Hashable] | None] = ContextVar("chatmem_damage_warned",
                                                                default=None)


@contextmanager
def one_warning_per_damage() -> Iterator[None]:
    """Within the block (a recall: its situation, then the sessions of its hits), a
    damaged column :func:`read_without` is given is logged at WARNING once at most,
    whatever :data:`damage_warnings`' window."""
    token = _WARNED_IN_CALL.set(set())
    try:
        yield
    finally:
        _WARNED_IN_CALL.reset(token)


def read_without(bad: DamagedRow, doing: str = "", *, why: str = "",
                 repair: bool = False) -> None:
    """Log that ``bad``'s column was read without (as ``{}``): a caller that needs none
    of it (``doing``: what for; ``why``: why it needs none; ``repair``: the line ends
    with what repairs it) goes past a column chatmem cannot read (a hand edit). At
    WARNING the first time that store's row and column is read so, and again once
    :data:`DAMAGE_WINDOW_S` has passed (that line says how many times it was read so in
    between); at DEBUG in between, and within one :func:`one_warning_per_damage` block
    after its first line."""
    said_damage(bad, f"{bad.damage}; read without it{f', {doing}' if doing else ''}"
                f"{f' ({why})' if why else ''}{f'; {bad.repair}' if repair else ''}")


def said_damage(bad: DamagedRow, text: str) -> None:
    """Log ``text``, which says what a caller did past ``bad`` (a row or column chatmem
    cannot read), as :func:`read_without` logs: WARNING once a window per store, row and
    column, DEBUG in between."""
    key = (bad.where, bad.namespace, bad.table, bad.row, bad.rowid, bad.column)
    warned = _WARNED_IN_CALL.get()
    if warned is not None and key in warned:
        log.debug("%s (logged already in this call)", text)
        return
    if warned is not None:
        warned.add(key)
    said = damage_warnings.said(key)
    if not said.warn:
        log.debug("%s (read so again within %g s of its warning)", text,
                  damage_warnings.window)
        return
    again = "" if not said.again else (f" (read so {said.again} more time(s) in the "
                                       f"{damage_warnings.window:g} s after its last warning)")
    log.warning("%s%s", text, again)


def walked_past(damaged: Sequence[DamagedRow], *, doing: str = "") -> None:
    """Log each session column a walk of session chains read without: a chain needs only
    the sessions' ids, parents, origin platforms and resource ids, so another session's
    metadata or settings that chatmem cannot read (a hand edit) do not stop it."""
    for bad in damaged:
        read_without(bad, doing, why="a session chain needs only its ids and parents")


#: Set while the caller of a store's session change says itself what a session whose own
#: metadata is damaged keeps (:func:`kept_snapshots_told_by_caller`).
_KEPT_TOLD_BY_CALLER: ContextVar[bool] = ContextVar("chatmem_kept_told_by_caller",
                                                    default=False)


@contextmanager
def kept_snapshots_told_by_caller() -> Iterator[None]:
    """Within the block, :func:`chain_snapshots` logs a session that keeps its vectors'
    snapshot (its own metadata damaged) at DEBUG: its caller logs it at WARNING, in the
    words of where the vectors are. Beside a separate vector index the store's update
    moves only its full-text rows, and :meth:`chatmem.store.Storage.push_snapshots` says
    what the index's vectors keep and how the change stays owed to them; both logged the
    same row at WARNING for one ``upsert_session``."""
    token = _KEPT_TOLD_BY_CALLER.set(True)
    try:
        yield
    finally:
        _KEPT_TOLD_BY_CALLER.reset(token)


def chain_snapshots(ids: Sequence[str], lookup: Callable[[str], Session | None],
                    damaged: list[DamagedRow], *, skip_own: bool = True
                    ) -> list[SessionSnapshot]:
    """The snapshots of the sessions ``ids`` that ``lookup`` finds, each chain walked by
    ``lookup``, which reads a damaged JSON column as ``{}`` and adds it to ``damaged``.
    An ancestor's damaged column changes no snapshot (logged); a session whose own
    metadata, which its vectors hold, is damaged gets none (``skip_own``: a session
    change bringing its tree's vectors along): its vectors keep the snapshot they have
    until a call gives that column a new value (logged, at DEBUG within
    :func:`kept_snapshots_told_by_caller`); else (a message's first entry, which would
    lack it) that is the error."""
    found = {sid: s for sid in ids if (s := lookup(sid)) is not None}
    own = {bad.row for bad in damaged if bad.column == "metadata"} & found.keys()
    if own and not skip_own:
        raise next(bad for bad in damaged if bad.row in own and bad.column == "metadata")
    out = [session_snapshot(s, lookup) for sid, s in found.items() if sid not in own]
    kept = log.debug if _KEPT_TOLD_BY_CALLER.get() else log.warning
    for bad in damaged:
        if bad.row in own and bad.column == "metadata":
            kept("%s; its vectors keep the session snapshot they have until that column "
                 "is given a new value (upsert_session)", bad.damage)
    walked_past([bad for bad in damaged if bad.row not in own or bad.column != "metadata"],
                doing="to bring the vectors along")
    return out


def session_snapshot(session: Session, lookup: Callable[[str], Session | None]
                     ) -> SessionSnapshot:
    """The snapshot of ``session``; ``lookup`` finds a session by id (its parent chain)."""
    root = parent_chain(session, lookup).root
    return SessionSnapshot(session.id, root.origin_platform,
                           session.resource_id or root.resource_id, dict(session.metadata))


def pending_entry(msg: Message, snapshot: SessionSnapshot | None) -> VectorEntry:
    """The full-text entry of a stored message that has no vector yet (X1, E12): the
    fields of its future vector entry, ``model_id`` :data:`~chatmem.models.PENDING_MODEL`
    and no vector, so that it is found, under the same filters, before it is embedded."""
    snap = snapshot or SessionSnapshot(msg.session_id)
    return message_entry(msg, vector=None, model_id=PENDING_MODEL,
                         origin_platform=snap.origin_platform, resource_id=snap.resource_id,
                         session_metadata=snap.metadata)


@dataclass(frozen=True)
class Retry:
    """A message's retry schedule (E12): embedding attempts that failed since it was
    last indexed or queued again, and when the next one is due (ms since the epoch on
    the store's clock, :meth:`MessageStore.clock_ms`; 0 = now). Kept in the message
    row, so that a restart keeps it."""

    attempts: int = 0
    retry_at: int = 0


@dataclass(frozen=True)
class Claim:
    """What :meth:`MessageStore.claim` got: the ids now leased to the owner (in the
    order asked), and, when some of the others still wait for the indexer, the
    milliseconds until the soonest of their leases runs out (0: one is free again, or
    was being claimed at that instant; ``None``: none of the others waits any more)."""

    ids: list[str] = field(default_factory=list)
    held_ms: int | None = None


@dataclass(frozen=True)
class OneWidth:
    """The rule of the indexer's and a rewrite's writes (not an import's): one width per
    model in an index. An entry of a model the index holds vectors of, none of the
    entry's width, is refused (:class:`WidthConflict`, the whole write with it); an
    index holding no vector of the model takes any width, its first. The check and the
    write are one step for every writer of the index: a SQL store's transaction (under
    a lock per model, PostgreSQL's shared by its processes), Qdrant's write lock (this
    process's writers only). ``moving``: model id → the width a reindex moves the model
    to, written beside the old width (whose vectors it embeds again)."""

    moving: Mapping[str, int] = field(default_factory=dict)

    def takes(self, model_id: str | None, width: int) -> bool:
        """Whether an entry of ``model_id`` and ``width`` is written without a look at
        the index: a legacy entry (no model), or the width a reindex moves to."""
        return model_id is None or self.moving.get(model_id) == width


class WidthConflict(StoreError):
    """A write under :class:`OneWidth` refused: the index holds vectors of ``model_id``
    of width ``held`` and none of ``width``; nothing of the write was stored."""

    def __init__(self, model_id: str, width: int, held: int) -> None:
        super().__init__(f"vectors of {model_id} have {held} numbers in this index, the "
                         f"entries {width}: not written (one width per model)")
        self.model_id = model_id
        self.width = width
        self.held = held


def sound_vector(value: Any, what: str) -> npt.NDArray[np.float32]:
    """``value`` as the float32 vector a backend stores or searches with, or
    :class:`~chatmem.errors.InvalidInput` naming ``what``: a non-empty 1-d array of
    finite numbers no longer than :data:`~chatmem.models.MAX_VECTOR_LENGTH`. The
    embedder checks its own answers; this is the store's edge, for vectors a library
    user hands it. A NaN stored was never found (exact search takes a NaN score for a
    deleted row) and made the ANN index's build raise; a longer vector made scores
    infinite, and faiss's k-means abort the process."""
    try:
        vec = np.ascontiguousarray(value, dtype=np.float32)
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{what}: not a vector of numbers ({exc})") from None
    if vec.ndim != 1 or vec.shape[0] == 0:
        raise InvalidInput(f"{what}: expected a non-empty 1-D vector, got shape {vec.shape}")
    if not np.isfinite(vec).all():
        raise InvalidInput(f"{what}: the vector holds NaN or infinity")
    length = float(np.linalg.norm(vec.astype(np.float64)))
    if length > MAX_VECTOR_LENGTH:
        raise InvalidInput(f"{what}: the vector's length is {length:.3g}, over the "
                           f"{MAX_VECTOR_LENGTH:.0e} a stored vector may have (its scores "
                           "would overflow float32); normalise it")
    return vec


def widths_of(entries: Sequence[VectorEntry]) -> dict[str, int]:
    """The model and width of each entry that :class:`OneWidth` checks, once each
    (``{model: width}``; two widths of one model in one write are a conflict of
    their own)."""
    out: dict[str, int] = {}
    for e in entries:
        if e.model_id is None:
            continue
        width = int(np.shape(e.vector)[0])
        seen = out.setdefault(e.model_id, width)
        if seen != width:
            raise WidthConflict(e.model_id, width, seen)
    return out


def stale_entries(entries: Sequence[VectorEntry], stored: Mapping[str, Message]
                  ) -> set[str]:
    """The ids of ``entries`` made from a version that is no longer their message's (it
    was rewritten after it was read for embedding: other text, or other metadata, which
    the entry carries for filters): ``upsert(current_only=True)`` skips them, so a
    vector of an old version never replaces the newer one's (metadata compared as JSON
    values, :func:`~chatmem.models.as_stored_json`)."""
    return {e.message_id for e in entries
            if e.message_id in stored and (
                e.text != embedded_text(stored[e.message_id])
                or as_stored_json(e.message_metadata)
                != as_stored_json(stored[e.message_id].metadata))}


#: Session fields whose change moves the snapshot of the session's descendants too.
TREE_FIELDS = ("parent_id", "origin_platform", "resource_id")


def snapshot_changes(old: Session | None, new: Session, *, unread: bool = False
                     ) -> tuple[bool, bool]:
    """(whether the vectors of ``new``'s session must follow this upsert, whether those of
    its descendants must too), ``old`` being the stored row (``None``: none yet;
    ``unread``: a JSON column of it could not be read, so its metadata is not known).

    A session stored for the first time moves its descendants even when every field is
    empty: a child stored before its parent took its own ``origin_platform`` as its
    root's (the chain ended at the missing parent); now the chain reaches the parent."""
    before = old or Session(id=new.id)
    tree = old is None or any(getattr(before, f) != getattr(new, f) for f in TREE_FIELDS)
    return tree or unread or dict(before.metadata) != dict(new.metadata), tree


@runtime_checkable
class MessageStore(Protocol):
    async def append(self, messages: Sequence[Message], *,
                     states: Mapping[str, IndexState] | None = None) -> list[Message]:
        """Store messages durably (committed on return); assign ids and staggered ts.

        A message without ``ts`` takes the store's :class:`ArrivalClock`: now, and later
        than every message before it in the batch that had none, in any session, so a
        history added without timestamps keeps its order.

        Indexable messages (F1) are stored ``PENDING``, the rest ``SKIPPED``. A store
        that is a :class:`LexicalIndex` writes the pending full-text entry of each
        indexable message (:func:`pending_entry`) in the same transaction, so full-text
        search finds it before it is embedded (X1).

        ``states``: index states kept from elsewhere (an import's file, a migration's
        source), by message id, each ``SKIPPED`` or ``CLEARED`` (not embedded again;
        another value is an :class:`~chatmem.errors.InvalidInput` naming it): a new
        message whose id is there is stored in that state, in the same transaction, and
        without a pending full-text entry, so no indexer (this process's or another's)
        ever takes it; a message already stored keeps its own.
        """
        ...

    async def get(self, ids: Sequence[str], *, damaged: list[str] | None = None
                  ) -> dict[str, Message]:
        """The stored messages of these ids. A row chatmem cannot read is a
        :class:`~chatmem.errors.DamagedRow`; with ``damaged`` (an erase, which goes by
        the ids and needs only the texts and the position) a JSON column it cannot
        read is empty, a time it cannot read ``None`` (a row it cannot read even so is
        left out), each logged and its id added there."""
        ...

    async def delete_messages(self, ids: Sequence[str]) -> int:
        """Delete messages (and, in a combined backend, their vectors)."""
        ...

    async def erase_messages(self, ids: Sequence[str]) -> Erased:
        """Erase messages for good (I8): the rows, their full-text rows (indexed or
        pending), the vectors the store holds and, in a store with an ANN graph, the
        graph's labels of them, in one transaction; freed pages are overwritten where the
        backend can. Returns the counts (``points`` and ``cache`` stay 0 here)."""
        ...

    async def list_messages(self, *, session_ids: Sequence[str] | None = None,
                            speaker_id: str | None = None, since: int | None = None,
                            until: int | None = None, after: tuple[int, str] | None = None,
                            limit: int = 100, newest_first: bool = False,
                            damaged: list[str] | None = None, platform: str | None = None,
                            or_sessions: Sequence[str] = ()) -> list[Message]:
        """Up to ``limit`` messages ordered by ``(ts, id)`` (ids compared byte-wise):
        of these sessions (``None``: any; a list of any length), spoken by ``speaker_id``
        (``None``: anyone), with ``since <= ts < until``, strictly after the position
        ``after``. ``platform``: only those entered on it (their own ``platform``), or of
        one of ``or_sessions``. ``newest_first``: in the reverse order, strictly before
        ``after``.
        ``damaged``: a JSON column it cannot read is empty, as :meth:`get` reads it (a
        row whose time it cannot read stays the error: it has no place in the order)."""
        ...

    async def rewrite(self, session_id: str, ts: int, *, content: str | None = None,
                      visible_content: str | None = None,
                      metadata: Mapping[str, Any] | None = None) -> Message | None:
        """Change a stored message in place (F3); ``None`` when there is no such message."""
        ...

    async def index_states(self, ids: Sequence[str]) -> dict[str, IndexState]: ...

    async def scan_messages(self, after: int, limit: int
                            ) -> list[tuple[int, Message, IndexState]]:
        """Every message in insertion order from cursor ``after`` (0 = start): export."""
        ...

    async def all_sessions(self) -> list[Session]: ...

    async def sessions_after(self, after: str | None, limit: int, *,
                             damaged: list[DamagedRow] | None = None) -> list[Session]:
        """At most ``limit`` sessions ordered by id (byte-wise), those whose id comes
        after ``after`` (``None``: from the first): a page of a store's sessions.
        ``damaged``: as :meth:`get_sessions`."""
        ...

    async def message_sessions_after(self, after: str | None, limit: int
                                     ) -> list[tuple[str, bool]]:
        """At most ``limit`` ids of the sessions that hold messages, those after
        ``after`` (``None``: from the first) in the store's order of its messages by
        session, each with whether a session row registers it (``False``: the row was
        removed outside chatmem, which never deletes one). A page shorter than
        ``limit`` is the last. The retention sweep reaches the messages of a session
        without a row so."""
        ...

    async def message_sessions(self, ids: Sequence[str]) -> set[str]:
        """Those of these session ids (any number) that messages are in, registered by
        a session row or not: ``Memory.sessions(only=…)`` lists a named session whose
        row was removed outside chatmem so. One query for them all."""
        ...

    async def range(self, session_id: str, around_ts: int, before: int, after: int
                    ) -> list[Message]:
        """Up to ``before`` messages before and ``after`` after ``around_ts``, in time order.

        Control kinds, directives and system records are skipped without being
        counted (F5); the message at ``around_ts`` itself is not included.
        """
        ...

    async def recent(self, session_id: str, n: int) -> list[Message]: ...

    async def recent_heads(self, session_id: str, n: int, *, until: int | None = None
                           ) -> list[Message]:
        """:meth:`recent`'s messages without their texts (``content`` empty,
        ``visible_content`` ``None``; every other field as stored): what finding a
        tool call behind many of its answers reads (their roles and metadata), not
        what each of them says. ``until`` (ms, exclusive): the ``n`` latest before it,
        to read on from the oldest message of a read before (a session's ``ts`` are
        unique) without reading the newer ones again."""
        ...

    async def pending(self, limit: int, *, include_failed: bool = False,
                      owner: str | None = None) -> list[Message]:
        """Messages waiting for the indexer (``include_failed``: and those waiting for a
        retry, ``FAILED``), oldest first; with ``owner``, only those it may claim (no
        other owner's lease runs, :meth:`claim`)."""
        ...

    async def claim(self, owner: str, ids: Sequence[str], lease_ms: int) -> Claim:
        """Lease these messages to ``owner`` for ``lease_ms`` (R5: several processes on one
        store embed each message once), the lease's end on :meth:`clock_ms`'s clock.
        Claimed are those still waiting (``PENDING``, ``FAILED``) whose lease is free,
        expired or already ``owner``'s (so claiming again renews); a message another
        owner holds, or is claiming at this instant, is skipped, never waited for.
        Writing a message's vector ends its lease, whoever holds it (the message waits no
        more); an ``upsert(current_only=True, owner=owner)`` that leaves it out as
        rewritten ends it only while it is still ``owner``'s: another owner that took it
        over since (the writer's lease ran out) is embedding the new version."""
        ...

    async def release_claims(self, owner: str, ids: Sequence[str]) -> int:
        """End ``owner``'s leases of these messages (its batch is over, written or not);
        returns how many it held."""
        ...

    def message_lock(self, session_id: str, ts: int) -> AbstractAsyncContextManager[None]:
        """Held around a rewrite of the message at ``(session_id, ts)`` and the write of
        its new vector, so that rewrites of one message apply one after the other in
        every process sharing the store (F3, R5)."""
        ...

    def key_lock(self, key: str) -> AbstractAsyncContextManager[None]:
        """Held around a read-then-write of something named ``key`` that must apply one
        at a time in every process sharing the store (a LangGraph item's put: its read
        of the item, then its erase and add). ``key`` is the caller's own name (prefix it
        with what it names); it never shares a lock with :meth:`message_lock`."""
        ...

    async def due_retries(self, limit: int, due: int, *, owner: str | None = None
                          ) -> list[Message]:
        """``FAILED`` messages whose retry is due by ``due`` (ms since the epoch, on
        :meth:`clock_ms`'s clock), soonest first (E12); ``owner`` as for :meth:`pending`."""
        ...

    async def failed_after(self, after: int, limit: int) -> list[tuple[int, Message]]:
        """``FAILED`` messages, due or not, in insertion order from cursor ``after``
        (0 = start), with their cursor: a flush gives each one attempt."""
        ...

    async def retries(self, ids: Sequence[str]) -> dict[str, Retry]:
        """The retry schedule of these messages (E12; absent ids are left out)."""
        ...

    async def schedule_retries(self, schedules: Mapping[str, Retry]) -> int:
        """Mark these messages ``FAILED`` with their schedule, in one transaction; a
        message no longer waiting (indexed, cleared or deleted meanwhile) is left as it
        is. Returns how many changed."""
        ...

    async def next_retry_at(self) -> int | None:
        """When the soonest retry of a ``FAILED`` message is due (on :meth:`clock_ms`'s
        clock); ``None``: none waits."""
        ...

    async def clock_ms(self) -> int:
        """Now on the store's clock (ms since the epoch): the clock that retry schedules
        (:class:`Retry`) and leases (:meth:`claim`) are kept on. Several processes
        share a store (R5), and their own clocks may differ by seconds or minutes: a
        time one of them wrote is compared only with this clock, never with another
        process's. PostgreSQL: the database server's clock; SQLite: the clock of the
        process, the only one that opens the file."""
        ...

    async def set_index_state(self, ids: Sequence[str], state: IndexState, *,
                              unless_model: str | None = None) -> None:
        """Set the index state of these messages; their retry schedule starts over. A
        message moved to a waiting state (``PENDING``, ``FAILED``) without a vector or
        a full-text entry gets its pending full-text entry (:func:`pending_entry`); one
        moved out of them loses it. ``unless_model``: leave the messages that have a
        vector of that model in this store (``reindex``: another process embedded them
        since they were read; a separate index's vectors are not looked at)."""
        ...

    async def reset_index_state(self, old: IndexState, new: IndexState,
                                session_id: str | None = None) -> int:
        """Move every message (of one session) in state ``old`` to ``new``, as
        :meth:`set_index_state` does."""
        ...

    async def upsert_session(self, session: Session) -> Session:
        """Insert or replace a session. A store that is its own vector index also moves
        the snapshot of this session's vector entries (and, when its parent, origin
        platform or resource id changed, of every descendant's) in the same transaction,
        as :meth:`VectorIndex.update_session_snapshot` does."""
        ...

    async def descendant_sessions(self, session_id: str) -> list[str]:
        """The ids of every session below ``session_id`` (children, their children, …)."""
        ...

    async def sessions_under(self, column: str, value: str) -> list[SessionUnder]:
        """The sessions whose stored ``column`` (``resource_id`` or ``origin_platform``)
        is ``value``, and every session below them (:class:`SessionUnder`: each with its
        parent's id and, when the store walked its parent chain to its root, its
        snapshot's ``column``), in id order."""
        ...

    async def get_sessions(self, ids: Sequence[str], *,
                           damaged: list[DamagedRow] | None = None) -> dict[str, Session]:
        """The registered sessions of these ids. A row chatmem cannot read is a
        :class:`~chatmem.errors.DamagedRow`; with ``damaged`` (a call that replaces its
        JSON columns, or needs only the others) a JSON column it cannot read
        (metadata, settings) is ``{}`` and its DamagedRow is added there."""
        ...

    async def meta_get(self, namespace: str, key: str) -> str | None: ...

    async def meta_set(self, namespace: str, key: str, value: str) -> None: ...

    async def meta_set_default(self, namespace: str, key: str, value: str) -> str:
        """Set ``key`` to ``value`` unless it is set; returns the value it holds (the
        first writer's when several set it at once)."""
        ...

    async def meta_delete(self, namespace: str, key: str) -> None: ...

    async def meta_guarded(self, namespace: str, *, unless: tuple[str, str] | None = None,
                           writes: Sequence[tuple[str, str | None]] = (),
                           defaults: Sequence[tuple[str, str]] = ()) -> bool:
        """In one transaction, one call at a time per ``namespace`` in every process
        sharing the store: unless the key ``unless[0]`` holds ``unless[1]``, set each of
        ``writes`` (``None``: delete the key) and each of ``defaults`` that is unset.
        Returns whether it wrote (``False``: ``unless`` held)."""
        ...

    async def meta_items(self, namespace: str | None = None) -> list[tuple[str, str, str]]:
        """Every (namespace, key, value) of the metadata area (export, migration), or of
        one ``namespace`` (read by its own index, not the whole area)."""
        ...

    async def stats(self) -> StoreStats: ...

    async def clear_messages(self, session_id: str | None = None) -> int: ...

    async def close(self) -> None: ...


@runtime_checkable
class VectorIndex(Protocol):
    #: Whether :meth:`delete_by_filter` is supported (F3 skips rewrites without it).
    supports_delete_by_filter: bool

    async def upsert(self, entries: Sequence[VectorEntry], *, current_only: bool = False,
                     one_width: OneWidth | None = None,
                     owner: str | None = None) -> None:
        """Insert or replace by message id: replaying an upsert never duplicates.
        ``current_only``: skip an entry whose ``text`` or message metadata is no longer
        its message's (:func:`stale_entries`; checked under the message's row lock where the index
        holds the messages, by :class:`~chatmem.store.storage.Storage` otherwise).
        ``owner``: the indexer whose leases this write ends (:meth:`MessageStore.claim`);
        the lease of an entry skipped as stale ends only if it is still ``owner``'s
        (``None``: no lease is ended). An index that holds no messages holds no leases.
        ``one_width``: refuse a second width of a model (:class:`OneWidth`), checked
        with the write."""
        ...

    async def other_width(self, model_id: str, width: int) -> int | None:
        """A width of ``model_id``'s vectors when the index holds some and none of
        ``width`` (a vector of ``width`` would be the model's second), else None: a
        look at the index as it is now, by its indexes (not a scan)."""
        ...

    async def delete_vectors(self, message_ids: Sequence[str]) -> int: ...

    async def delete_by_filter(self, where: Mapping[str, Any]) -> int: ...

    async def query(self, vector: npt.NDArray[np.float32], k: int,
                    where: Mapping[str, Any] | None = None) -> list[ScoredId]:
        """The k nearest vectors by cosine among those matching ``where`` (pushed down).
        Exact score ties, past the k-th too, break by newer ``ts``, then message id in
        code point order: the recall pool's order (``recall.fuse.pool_order``), so every
        backend keeps the same entries, the newest copies of a repeated text first."""
        ...

    async def count_by_model(self) -> dict[str, int]: ...

    async def vector_sizes(self) -> dict[str, frozenset[int]]:
        """The sizes of each model's vectors (legacy vectors under ``""``): a query
        compares only vectors of its own size, so an import checks its vectors' here."""
        ...

    async def scan_vectors(self, after: str | None, limit: int, *,
                           damaged: list[str] | None = None) -> list[VectorEntry]:
        """Every entry ordered by message id, after ``after``: export and migration.

        An entry the backend cannot read (:class:`~chatmem.errors.DamagedRow`) is the
        error; with ``damaged`` (a reindex, which writes it again) it is left out with
        a warning and its message id added there."""
        ...

    async def clear_vectors(self, session_id: str | None = None) -> int:
        """Delete every vector (of one session); returns how many. A store that is its own
        index moves the messages it held vectors for to ``CLEARED`` (F12)."""
        ...

    async def update_session_snapshot(self, snapshots: Sequence[SessionSnapshot]) -> int:
        """Set the session fields (``origin_platform``, ``resource_id``, session metadata)
        of every entry of each snapshot's session, in place, without re-embedding;
        returns how many entries there were. Idempotent."""
        ...

    async def close(self) -> None: ...


@runtime_checkable
class LexicalIndex(Protocol):
    """Full-text search over the embedded text of every indexable message that is
    indexed or waiting to be (X1), kept by the message store so that it works whichever
    vector index is used.

    A message gets a *pending* full-text entry (:func:`pending_entry`, model
    :data:`~chatmem.models.PENDING_MODEL`) in the transaction that appends it, so it is
    found while its embedding waits (for the indexer, or for a retry while the provider
    is down); the entry follows the message (rewrite, session snapshot, delete, clear,
    index state) until its vector is written, when the vector's entry replaces it.

    A store that is its own vector index writes the lexical rows in its ``upsert``
    (same transaction) and deletes them wherever it deletes vectors. With a separate
    vector index, the indexer calls :meth:`upsert_lexical` after each upsert, and
    whoever deletes vectors from that index calls :meth:`delete_lexical` /
    :meth:`clear_lexical` on the store.
    """

    async def upsert_lexical(self, entries: Sequence[VectorEntry]) -> None:
        """Index ``entry.text`` of each entry (its filter fields too), replacing by id."""
        ...

    async def delete_lexical(self, message_ids: Sequence[str]) -> int: ...

    async def clear_lexical(self, session_id: str | None = None) -> int:
        """Delete the full-text rows of every indexed entry (of one session); pending
        entries stay (their messages still wait for a vector). Returns how many."""
        ...

    async def lexical_query(self, text: str, k: int,
                            where: Mapping[str, Any] | None = None) -> list[ScoredId]:
        """The k best full-text matches among entries matching ``where`` (the same filter
        as :meth:`VectorIndex.query`), best first; ``score`` is calibrated to [0, 1].
        Exact ties break as :meth:`VectorIndex.query`'s: newer ``ts``, then message id."""
        ...


def missing_folders(path: str) -> list[str]:
    """The folders of ``path`` (``path`` itself included) that do not exist, outermost
    first: what making ``path`` creates, and so all that an open which then fails may
    remove (anything already there is the user's)."""
    missing: list[str] = []
    while path and not os.path.lexists(path):
        missing.append(path)
        path = os.path.dirname(path)
    return missing[::-1]


def chunks(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` in lists of at most ``size`` (bound-parameter and batch limits)."""
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


@runtime_checkable
class IndexedStore(MessageStore, VectorIndex, Protocol):
    """A message store that is its own vector index (SQLite, PostgreSQL): it writes a
    vector with its message's index state in one transaction."""
