"""One message-store algorithm over a small SQL dialect (SQLite, PostgreSQL).

:class:`~chatmem.store.sqlite.SqliteStore` (sync ``sqlite3`` on a thread) and
:class:`~chatmem.store.postgres.PostgresStore` (async psycopg) answer the same
message-store methods with the same SQL. Each function here builds the statements
of one method (SQL text and parameters) for a :class:`Dialect`, and the ``*_result``
functions turn the fetched rows into the method's answer; the backends only execute
the statements on their connection. So the algorithm is written once, the I/O twice.
"""

from __future__ import annotations

import dataclasses
import json
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..errors import DamagedRow, InvalidInput
from ..models import MAX_TS, IndexState, Message, Session, StoreStats
from ..refusals import describe
from .base import (
    MAX_SESSION_DEPTH,
    Retry,
    SessionSnapshot,
    SessionUnder,
    chunks,
    read_without,
)
from .columns import (
    MESSAGE_COLUMN_NAMES,
    MESSAGE_COLUMNS,
    BadColumn,
    json_object,
    load_json,
    message_fields,
    read_row,
)
from .sql import (
    FAILED_SQL,
    HIDDEN_KINDS,
    PENDING_ENTRY_SQL,
    PENDING_SQL,
    STATE_FOR_STATS,
    WAITING_STATES_SQL,
)

log = logging.getLogger("chatmem.store")

#: One statement: SQL text and its parameters.
Statement = tuple[str, Sequence[Any]]

SESSION_COLUMNS = ("id, parent_id, resource_id, origin_platform, chat_type, group_id, "
                   "group_name, metadata, settings")


@dataclass(frozen=True)
class Dialect:
    """What differs between the SQL of the two stores."""

    #: the parameter placeholder (``?`` or ``%s``)
    mark: str
    #: the insertion-order column of ``messages`` (the ``scan_messages`` cursor)
    seq: str
    #: ids per ``IN`` list / array parameter
    id_chunk: int
    #: ``col = ANY(%s::text[])`` (one array parameter) instead of ``col IN (?, ...)``
    arrays: bool
    #: appended to an ORDER BY column for byte-wise (C) ordering
    collate_c: str
    #: decodes JSON columns stored as text (``None``: the driver decodes them)
    load: Callable[[Any], Any] | None
    #: a negative LIMIT means "no limit" (SQLite); else it is spelled NULL
    negative_limit: bool
    #: appended to the placeholder of a JSON column (``::jsonb``)
    json_cast: str
    #: appended to a SELECT whose rows the transaction goes on to write
    for_update: str
    #: the NULL-safe "differs" operator
    distinct: str
    #: a text column can hold a BLOB (SQLite, a hand edit; BLOBs sort after every text)
    blobs: bool

    @property
    def message_columns(self) -> str:
        """Message rows: the sequence column first, the index state last."""
        return f"{self.seq}, {MESSAGE_COLUMN_NAMES}, index_state"

    def limit(self, n: int) -> int | None:
        return n if self.negative_limit or n >= 0 else None

    def in_list(self, column: str, values: Sequence[Any], *, negate: bool = False
                ) -> tuple[str, list[Any]]:
        """``column`` is (``negate``: is not) one of ``values`` (strings)."""
        if self.arrays:
            op = f"<> ALL({self.mark}::text[])" if negate else f"= ANY({self.mark}::text[])"
            return f"{column} {op}", [list(values)]
        marks = ", ".join([self.mark] * len(values))
        return f"{column} {'NOT IN' if negate else 'IN'} ({marks})", list(values)

    def in_set(self, column: str, values: Sequence[str]) -> tuple[str, list[Any]]:
        """``column`` is one of ``values``, however many: one parameter (a PostgreSQL
        array, a SQLite JSON array), never a placeholder per value."""
        if self.arrays:
            return self.in_list(column, values)
        return f"{column} IN (SELECT value FROM json_each({self.mark}))", [json.dumps(
            list(values))]

    def id_chunks(self, ids: Sequence[str]) -> list[list[str]]:
        return chunks(list(ids), self.id_chunk)

    def by_ids(self, select: str, column: str, ids: Sequence[str],
               params: Sequence[Any] = ()) -> list[Statement]:
        """``select`` + `` WHERE column IN (ids)``, one statement per chunk of ids
        (``params``: those of ``select``, first)."""
        out: list[Statement] = []
        for chunk in self.id_chunks(ids):
            frag, ids_params = self.in_list(column, chunk)
            out.append((f"{select} WHERE {frag}", [*params, *ids_params]))
        return out

    def sql(self, text: str) -> str:
        """``text`` written with ``?`` placeholders, in this dialect's."""
        return text if self.mark == "?" else text.replace("?", self.mark)


SQLITE = Dialect(mark="?", seq="rowid", id_chunk=500, arrays=False, collate_c="",
                 load=json.loads, negative_limit=True, json_cast="",
                 for_update="", distinct="IS NOT", blobs=True)
POSTGRES = Dialect(mark="%s", seq="seq", id_chunk=1000, arrays=True, collate_c=' COLLATE "C"',
                   load=None, negative_limit=False, json_cast="::jsonb",
                   for_update=" FOR UPDATE", distinct="IS DISTINCT FROM", blobs=False)


# ---------------------------------------------------------------- row mapping

def row_key(value: Any) -> str | bytes:
    """A row's id for a :class:`~chatmem.errors.DamagedRow`: bytes (SQLite's BLOB, a hand
    edit) as they are, named as SQL writes them; anything else as text."""
    return value if isinstance(value, bytes) else str(value)


def row_to_message(d: Dialect, row: Sequence[Any], damaged: list[str] | None = None,
                   where: str = "", namespace: str = "") -> Message:
    """A message from a row of :attr:`Dialect.message_columns`; a value chatmem cannot
    read is a :class:`~chatmem.errors.DamagedRow` naming the message and the column.
    ``damaged`` given (an erase, which needs only the texts and the position), a JSON
    column it cannot read is left empty, logged (:func:`~chatmem.store.base.read_without`:
    once a window at WARNING; ``where``, ``namespace``: the store, as
    :class:`~chatmem.errors.DamagedRow`'s), and the id added there."""
    r = tuple(row)
    bad: list[BadColumn] | None = None if damaged is None else []
    msg = read_row("messages", r[1], lambda: Message(**message_fields(
        r[1:-1], load=d.load, bad=bad)))
    if bad and damaged is not None:
        damaged.append(r[1])
        for exc in bad:
            read_without(DamagedRow("messages", r[1], exc.column, exc.problem,
                                    where=where, namespace=namespace), "to erase it")
    return msg


def row_to_session(d: Dialect, row: Sequence[Any], damaged: list[DamagedRow] | None = None,
                   where: str = "", namespace: str = "") -> Session:
    """A session from a row of :data:`SESSION_COLUMNS` (a damaged one: as
    :func:`row_to_message`). ``damaged`` given (a call that needs neither of them: one
    that replaces them, or reads the ids), a JSON column it cannot read (metadata,
    settings) is read as ``{}`` and its :class:`~chatmem.errors.DamagedRow` (``where``,
    ``namespace``: the store) added there."""
    r = tuple(row)

    def column(name: str, value: Any) -> Any:
        try:
            return json_object(name, load_json(name, value, d.load))
        except BadColumn as exc:
            bad = DamagedRow("sessions", row_key(r[0]), exc.column, exc.problem, where=where,
                             namespace=namespace)
            if damaged is None:
                raise bad from exc
            damaged.append(bad)
            return {}

    if r[0] is None:  # SQLite's TEXT PRIMARY KEY takes NULL: the store names its rowid
        raise null_session_id(where, namespace)
    if not set(map(type, r[:7])) <= _TEXT_OR_NULL:  # a few sessions a call: one pass in C
        name, value = next((n, v) for n, v in zip(_SESSION_TEXT, r)
                           if v is not None and type(v) is not str)
        raise DamagedRow("sessions", row_key(r[0]), name, f"holds {describe(value)}, not text",
                         where=where, namespace=namespace)
    return Session(id=r[0], parent_id=r[1], resource_id=r[2], origin_platform=r[3],
                   chat_type=r[4], group_id=r[5], group_name=r[6],
                   metadata=column("metadata", r[7]), settings=column("settings", r[8]))


def null_session_id(where: str = "", namespace: str = "", rowid: int | None = None
                    ) -> DamagedRow:
    """A session row whose id is NULL (SQLite's TEXT PRIMARY KEY takes it: a hand edit),
    named by its ``rowid`` when the store knows it."""
    return DamagedRow("sessions", "", "id", "is NULL, not a session id", where=where,
                      namespace=namespace, rowid=rowid)


#: The text columns of :data:`SESSION_COLUMNS` (before metadata and settings): NULL or
#: text as chatmem writes them; SQLite's BLOB, a hand edit, is neither.
_SESSION_TEXT = tuple(c.strip() for c in SESSION_COLUMNS.split(","))[:7]
_TEXT_OR_NULL = frozenset({str, type(None)})


def stored_session(d: Dialect, row: Sequence[Any] | None, where: str
                   ) -> tuple[Session | None, bool]:
    """``upsert_session``: the row it replaces (``None``: none), and whether a column of
    it could not be read (logged: the upsert's value replaces it, and the vectors'
    snapshot is written again, as the old metadata is not known)."""
    if row is None:
        return None, False
    damaged: list[DamagedRow] = []
    old = row_to_session(d, row, damaged, where)
    for exc in damaged:
        log.warning("%s; replaced by this upsert_session", exc.damage)
    return old, bool(damaged)


def messages_result(d: Dialect, rows: Sequence[Sequence[Any]],
                    damaged: list[str] | None = None, where: str = "",
                    namespace: str = "") -> list[Message]:
    """Messages of rows (``damaged``, ``where``, ``namespace``: as
    :func:`row_to_message`)."""
    return [row_to_message(d, r, damaged, where, namespace) for r in rows]


#: Where a message row (:attr:`Dialect.message_columns`: a sequence number first) holds
#: its time.
_TS_AT = 1 + [c.column for c in MESSAGE_COLUMNS].index("ts")


def by_id_result(d: Dialect, rows: Sequence[Sequence[Any]],
                 damaged: list[str] | None = None, where: str = "",
                 namespace: str = "") -> dict[str, Message]:
    """``get``: messages by id (the id is the row's second column). ``damaged`` given,
    as :func:`row_to_message`, and a row whose time it cannot read is read without it
    (``ts`` None: an erase needs its texts, whose cached vectors it drops, and places
    it by the copy of its time its index entries hold), logged as that, its id added
    there too: an erase goes by the ids."""
    out: dict[str, Message] = {}
    for r in rows:
        try:
            out[r[1]] = row_to_message(d, r, damaged, where, namespace)
        except DamagedRow as exc:
            if damaged is None:
                raise
            exc.where, exc.namespace = where, namespace
            damaged.append(r[1])
            timeless = [*r[:_TS_AT], 0, *r[_TS_AT + 1:]]
            try:
                out[r[1]] = dataclasses.replace(
                    row_to_message(d, timeless, [], where, namespace), ts=None)
            except DamagedRow:
                log.warning("%s; erased by its id alone", exc.damage)
                continue
            read_without(exc, "to erase it", why="placed among the turns beside it by the "
                         "time its index entries hold")
    return out


# ---------------------------------------------------------------- messages (read)

def get_query(d: Dialect, ids: Sequence[str]) -> list[Statement]:
    return d.by_ids(f"SELECT {d.message_columns} FROM messages", "id", ids)


def index_states_query(d: Dialect, ids: Sequence[str]) -> list[Statement]:
    return d.by_ids("SELECT id, index_state FROM messages", "id", ids)


def index_states_result(rows: Sequence[Sequence[Any]]) -> dict[str, IndexState]:
    try:
        return {r[0]: IndexState(r[1]) for r in rows}
    except ValueError:  # only then is each row looked at
        for r in rows:
            index_state(r[1], r[0])
        raise


#: What ``messages.index_state`` holds, for a :class:`~chatmem.errors.DamagedRow`.
_STATES = ", ".join(f"{s.value} {s.name.lower()}" for s in IndexState)


def index_state(value: Any, message_id: Any) -> IndexState:
    """``value`` of message ``message_id``'s ``index_state`` column; a
    :class:`~chatmem.errors.DamagedRow` naming it when that is not a state chatmem
    writes (a hand edit: 9, ``'x'``, NULL)."""
    try:
        return IndexState(value)
    except ValueError:
        raise DamagedRow("messages", row_key(message_id), "index_state",
                         f"holds {describe(value)}, not an index state ({_STATES})"
                         ) from None


def range_query(d: Dialect, session_id: str, around_ts: int, before: int, after: int
                ) -> tuple[Statement | None, Statement | None]:
    """The rows before ``around_ts`` (newest first) and after it (oldest first); ``None``
    where nothing is asked."""
    hidden, hparams = d.in_list("kind", HIDDEN_KINDS, negate=True)
    base = (f"SELECT {d.message_columns} FROM messages WHERE session_id = {d.mark} "
            f"AND role <> 'system' AND {hidden}")
    prev: Statement | None = None
    nxt: Statement | None = None
    if before > 0:
        prev = (base + d.sql(" AND ts < ? ORDER BY ts DESC LIMIT ?"),
                [session_id, *hparams, around_ts, before])
    if after > 0:
        nxt = (base + d.sql(" AND ts > ? ORDER BY ts ASC LIMIT ?"),
               [session_id, *hparams, around_ts, after])
    return prev, nxt


def range_result(d: Dialect, prev: Sequence[Sequence[Any]], nxt: Sequence[Sequence[Any]]
                 ) -> list[Message]:
    return messages_result(d, list(reversed(prev))) + messages_result(d, nxt)


#: The message columns ``recent_heads`` reads: :data:`MESSAGE_COLUMNS` in order without
#: the texts, nothing else (:func:`heads_result` reads them by place).
_HEADS = ("id", "session_id", "ts", "role", "kind", "source", "speaker_id",
          "speaker_name", "mentions", "platform", "metadata")
if tuple(c.column for c in MESSAGE_COLUMNS
         if c.column not in ("content", "visible_content")) != _HEADS:  # pragma: no cover
    raise AssertionError("recent_heads' columns are not MESSAGE_COLUMNS' without the texts")
_HEADS_COLUMNS = ", ".join(_HEADS)
#: Where a text column goes in a :attr:`Dialect.message_columns` row (a head's damaged
#: row is read again by :func:`row_to_message` from its columns, the texts empty).
_CONTENT_AT = 1 + [c.column for c in MESSAGE_COLUMNS].index("content")


def recent_query(d: Dialect, session_id: str, n: int, *, words: bool = True,
                 until: int | None = None) -> Statement:
    """``recent`` (``words=False``: ``recent_heads``, the same rows without their
    texts, in :data:`_HEADS_COLUMNS`; ``until``: those before that time)."""
    hidden, hparams = d.in_list("kind", HIDDEN_KINDS, negate=True)
    columns = d.message_columns if words else _HEADS_COLUMNS
    before, bparams = ("", []) if until is None else (f" AND ts < {d.mark}", [until])
    return (f"SELECT {columns} FROM messages WHERE session_id = {d.mark} "
            f"AND {hidden}{before} ORDER BY ts DESC LIMIT {d.mark}",
            [session_id, *hparams, *bparams, d.limit(n)])


def recent_result(d: Dialect, rows: Sequence[Sequence[Any]]) -> list[Message]:
    return messages_result(d, list(reversed(rows)))


def _plain_head(r: Sequence[Any]) -> bool:
    """Whether a :data:`_HEADS` row's id, session, time, role and kind are what
    :func:`row_to_message` would take as they are."""
    return type(r[0]) is str and type(r[1]) is str and type(r[2]) is int \
        and type(r[3]) is str and type(r[4]) is str


def heads_result(d: Dialect, rows: Sequence[Sequence[Any]]) -> list[Message]:
    """``recent_heads``: the messages of :func:`recent_query`'s rows without their
    words (``content`` empty, ``visible_content`` ``None``), as :func:`recent_result`
    makes them, built directly: :func:`row_to_message` per row was most of the time of
    finding a call behind 3,000 tool answers (``bench/context_calls.py``). A row it
    does not take as is (a column of another type, JSON that is not a list or an
    object) goes through :func:`row_to_message`, for the same message or error."""
    load = d.load
    out: list[Message] = []
    for r in reversed(rows):
        mentions, metadata = r[8], r[10]
        try:
            if load is not None:  # most mention no one
                mentions = [] if mentions == "[]" else \
                    load(mentions) if isinstance(mentions, str) else mentions
                metadata = load(metadata) if isinstance(metadata, str) else metadata
        except ValueError:
            mentions = metadata = None
        if _plain_head(r) and type(mentions) is list and type(metadata) is dict:
            out.append(Message(id=r[0], session_id=r[1], ts=r[2], role=r[3], kind=r[4],
                               content="", source=r[5], speaker_id=r[6],
                               speaker_name=r[7], mentions=tuple(mentions),
                               platform=r[9], metadata=metadata or {}))
            continue
        row = [None, *r[:_CONTENT_AT - 1], "", None, *r[_CONTENT_AT - 1:], None]
        out.append(row_to_message(d, row))
    return out


# The waiting states are literals, not parameters, and spelled as in the partial index
# ``messages_waiting`` (``index_state IN (0, 3)``) even when one state is meant: SQLite
# uses a partial index only when the query repeats its predicate.
_WAITING = f"index_state IN {WAITING_STATES_SQL}"


def pending_query(d: Dialect, limit: int, include_failed: bool,
                  also: Statement | None = None) -> Statement:
    """``pending``: PENDING rows (with ``include_failed``, FAILED ones too), oldest first
    (the ``messages_pending`` or ``messages_waiting`` index: no FAILED row is read to
    find the PENDING ones, however many wait for a retry); ``also``: a further condition
    (the claims a process may take, R5)."""
    states = _WAITING if include_failed else f"index_state = {PENDING_SQL}"
    cond, params = also or ("", [])
    return (f"SELECT {d.message_columns} FROM messages WHERE {states} "
            f"{'AND ' + cond if cond else ''} ORDER BY {d.seq} LIMIT {d.mark}",
            [*params, d.limit(limit)])


def due_retries_query(d: Dialect, limit: int, due: int, also: Statement | None = None
                      ) -> Statement:
    """``due_retries``: FAILED rows whose retry is due by ``due``, soonest first (the
    ``messages_retry`` index); ``also`` as for :func:`pending_query`."""
    cond, params = also or ("", [])
    return (f"SELECT {d.message_columns} FROM messages WHERE index_state = {FAILED_SQL} "
            f"AND retry_at <= {d.mark} {'AND ' + cond if cond else ''} "
            f"ORDER BY retry_at, {d.seq} LIMIT {d.mark}", [due, *params, d.limit(limit)])


def failed_after_query(d: Dialect, after: int, limit: int) -> Statement:
    return (f"SELECT {d.message_columns} FROM messages WHERE {_WAITING} "
            f"AND index_state = {FAILED_SQL} AND {d.seq} > {d.mark} ORDER BY {d.seq} "
            f"LIMIT {d.mark}", [after, d.limit(limit)])


def failed_after_result(d: Dialect, rows: Sequence[Sequence[Any]]
                        ) -> list[tuple[int, Message]]:
    return [(int(r[0]), row_to_message(d, r)) for r in rows]


def retries_query(d: Dialect, ids: Sequence[str]) -> list[Statement]:
    return d.by_ids("SELECT id, attempts, retry_at FROM messages", "id", ids)


def retries_result(rows: Sequence[Sequence[Any]], where: str = "", namespace: str = ""
                   ) -> dict[str, Retry]:
    """``retries``: each message's schedule. A count or time chatmem cannot read (a hand
    edit: SQLite's text, NULL) is read as 0, logged naming the message and the column
    (``where``, ``namespace``: the store, as :class:`~chatmem.errors.DamagedRow`'s): the
    schedule only sets the next delay, and the failure that read it writes it anew (the
    row repaired); a DamagedRow would leave the message failed and never scheduled."""
    try:
        return {str(r[0]): Retry(int(r[1]), int(r[2])) for r in rows}
    except (TypeError, ValueError):  # only then is each row looked at
        return {str(r[0]): Retry(_retry_number(r, 1, "attempts", where, namespace),
                                 _retry_number(r, 2, "retry_at", where, namespace))
                for r in rows}


def _retry_number(row: Sequence[Any], at: int, column: str, where: str, namespace: str
                  ) -> int:
    """``row[at]`` (``column`` of a :func:`retries_query` row) as an integer, else 0,
    logged (:func:`retries_result`)."""
    try:
        return int(row[at])
    except (TypeError, ValueError):
        read_without(DamagedRow("messages", row_key(row[0]), column,
                                f"holds {describe(row[at])}, not an integer",
                                where=where, namespace=namespace),
                     "for its retry schedule",
                     why="read as 0; the next schedule of its retries replaces it")
        return 0


def schedule_retries_sql(d: Dialect) -> str:
    """``schedule_retries``: one message's schedule (rows: attempts, retry_at, id); a
    message that stopped waiting meanwhile stays as it is."""
    return d.sql(f"UPDATE messages SET index_state = {FAILED_SQL}, attempts = ?, retry_at = ? "
                 f"WHERE id = ? AND {_WAITING}")


def schedule_rows(schedules: Mapping[str, Retry]) -> list[tuple[int, int, str]]:
    return [(r.attempts, r.retry_at, mid) for mid, r in sorted(schedules.items())]


#: ``next_retry_at`` (``messages_retry``: the index's first entry).
NEXT_RETRY_QUERY: Statement = (
    f"SELECT retry_at, id FROM messages WHERE index_state = {FAILED_SQL} "
    "ORDER BY retry_at LIMIT 1", [])


def next_retry_result(row: Sequence[Any] | None) -> int | None:
    """The soonest retry's time; a :class:`~chatmem.errors.DamagedRow` naming its
    message when it is not an integer (SQLite's text, a hand edit: it sorts after every
    number, so it is read only when no retry holds one)."""
    if row is None or row[0] is None:
        return None
    if isinstance(row[0], int) and not isinstance(row[0], bool):
        return row[0]
    try:
        return int(row[0])  # a real: SQLite's 1.5
    except (TypeError, ValueError):
        raise DamagedRow("messages", row_key(row[1]), "retry_at",
                         f"holds {describe(row[0])}, not a time in ms") from None


def unentried_query(d: Dialect, *, session_id: str | None = None,
                    ids: Sequence[str] | None = None) -> list[Statement]:
    """Waiting messages (of one session, or these ids, or all) with neither a vector nor
    a full-text entry: those that need a pending full-text entry."""
    select = (f"SELECT {d.message_columns} FROM messages WHERE {_WAITING} AND NOT EXISTS "
              "(SELECT 1 FROM vectors WHERE vectors.message_id = messages.id) AND NOT EXISTS "
              "(SELECT 1 FROM lexical_entries WHERE lexical_entries.message_id = messages.id)")
    return _scoped(d, select, "id", "session_id", session_id, ids)


def stale_pending_query(d: Dialect, key: str, *, session_id: str | None = None,
                        ids: Sequence[str] | None = None) -> list[Statement]:
    """The ``key`` column of the pending full-text entries (of one session, or these
    ids, or all) whose message is no longer waiting, or gone."""
    select = (f"SELECT {key} FROM lexical_entries WHERE {PENDING_ENTRY_SQL} AND NOT EXISTS "
              "(SELECT 1 FROM messages WHERE messages.id = lexical_entries.message_id "
              f"AND messages.{_WAITING})")
    return _scoped(d, select, "message_id", "session_id", session_id, ids)


def pending_entries_query(d: Dialect, key: str, session_id: str | None = None) -> Statement:
    """The ``key`` column of the pending full-text entries (of one session, or all)."""
    if session_id is None:
        return f"SELECT {key} FROM lexical_entries WHERE {PENDING_ENTRY_SQL}", []
    return (f"SELECT {key} FROM lexical_entries WHERE {PENDING_ENTRY_SQL} "
            f"AND session_id = {d.mark}", [session_id])


def _scoped(d: Dialect, select: str, id_column: str, session_column: str,
            session_id: str | None, ids: Sequence[str] | None) -> list[Statement]:
    """``select`` (a WHERE already begun) narrowed to one session or to some ids."""
    if ids is not None:
        out: list[Statement] = []
        for chunk in d.id_chunks(ids):
            frag, params = d.in_list(id_column, chunk)
            out.append((f"{select} AND {frag}", params))
        return out
    if session_id is not None:
        return [(f"{select} AND {session_column} = {d.mark}", [session_id])]
    return [(select, [])]


def scan_messages_query(d: Dialect, after: int, limit: int) -> Statement:
    return (f"SELECT {d.message_columns} FROM messages WHERE {d.seq} > {d.mark} "
            f"ORDER BY {d.seq} LIMIT {d.mark}", [after, d.limit(limit)])


def scan_messages_result(d: Dialect, rows: Sequence[Sequence[Any]]
                         ) -> list[tuple[int, Message, IndexState]]:
    return [(int(r[0]), row_to_message(d, r), index_state(r[-1], r[1])) for r in rows]


# ---------------------------------------------------------------- sessions (read)

def get_sessions_query(d: Dialect, ids: Sequence[str]) -> list[Statement]:
    return d.by_ids(f"SELECT {SESSION_COLUMNS} FROM sessions", "id", ids)


def all_sessions_query(d: Dialect) -> Statement:
    return f"SELECT {SESSION_COLUMNS} FROM sessions ORDER BY id", []


def sessions_after_query(d: Dialect, after: str | bytes | None, limit: int, *,
                         nulls: bool = True) -> Statement:
    """At most ``limit`` sessions by id (byte-wise: SQLite's binary collation, the
    ``COLLATE "C"`` of PostgreSQL's column), those after ``after``: the primary key's
    order, so a page reads ``limit`` rows, not the table. ``after`` bytes: past a
    SQLite id holding a BLOB (a hand edit; BLOBs sort after text). ``nulls``: with the
    rows whose id is NULL (SQLite's, a hand edit; they sort first)."""
    if after is None:
        return (d.sql(f"SELECT {SESSION_COLUMNS} FROM sessions "
                      f"{'' if nulls else 'WHERE id IS NOT NULL '}ORDER BY id LIMIT ?"),
                [limit])
    return (d.sql(f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id > ? ORDER BY id LIMIT ?"),
            [after, limit])


def _sessions_walk(d: Dialect, *, after: bool, limited: bool) -> str:
    """``WITH RECURSIVE walk(sid …)``: the ids of the sessions messages are in, in the
    order of the messages' ``(session_id, ts)`` index (byte-wise on SQLite, the
    database's collation on PostgreSQL), from the first or (``after``) those after a
    parameter. A seek of the index per session (a loose index scan), not a read of
    every message. ``limited``: each numbered ``n`` from 1, at most as many as the
    next parameter. The last row's ``sid`` is NULL (the walk's end). SQLite's ids
    holding a BLOB (a hand edit; they sort after every text) are left out: no session
    is named so."""
    text = " AND session_id < x''" if d.blobs else ""
    first = f"session_id > ?{text}" if after else f"session_id IS NOT NULL{text}"
    n, one, counted, bound = (", n", ", 1", ", n + 1", " AND n < ?") if limited \
        else ("", "", "", "")
    return d.sql(
        f"WITH RECURSIVE walk(sid{n}) AS ("
        f"SELECT (SELECT session_id FROM messages WHERE {first} "
        f"ORDER BY session_id LIMIT 1){one} "
        "UNION ALL "
        f"SELECT (SELECT session_id FROM messages WHERE session_id > walk.sid{text} "
        f"ORDER BY session_id LIMIT 1){counted} FROM walk "
        f"WHERE walk.sid IS NOT NULL{bound}) ")


def message_sessions_after_query(d: Dialect, after: str | None, limit: int) -> Statement:
    """At most ``limit`` ids of the sessions messages are in, in the order of the
    messages' ``(session_id, ts)`` index, those after ``after``, each with whether a
    session row registers it (:func:`_sessions_walk`: a page costs ``limit`` seeks)."""
    return (_sessions_walk(d, after=after is not None, limited=True)
            + f"SELECT sid, EXISTS (SELECT 1 FROM sessions s WHERE s.id = walk.sid{d.collate_c}) "
            "FROM walk WHERE sid IS NOT NULL ORDER BY n",
            [*([] if after is None else [after]), limit])


def sessions_count_query(d: Dialect) -> Statement:
    """``stats``' session count: the session rows, and the sessions that hold messages
    but have no row (removed outside chatmem, a hand DELETE FROM sessions), found as
    :func:`message_sessions_after_query` walks (:func:`_sessions_walk`): a seek of the
    messages' ``(session_id, ts)`` index per session, not a read of every message."""
    return (_sessions_walk(d, after=False, limited=False)
            + "SELECT (SELECT count(*) FROM sessions) + count(*) FROM walk "
            "WHERE sid IS NOT NULL AND NOT EXISTS (SELECT 1 FROM sessions s "
            f"WHERE s.id = walk.sid{d.collate_c})", [])


def message_sessions_query(d: Dialect, ids: Sequence[str]) -> Statement:
    """Which of ``ids`` (however many: one parameter, a PostgreSQL array or a SQLite
    JSON array) messages are in (:func:`ids_result`): a seek of the messages'
    ``(session_id, ts)`` index per id, not a read of their messages. A scalar subquery
    with LIMIT 1, which PostgreSQL runs per id: an EXISTS may become a semi-join that
    reads every message of the store (chosen so for 529 ids over 9,000 messages)."""
    given = "unnest(?::text[]) AS given(sid)" if d.arrays \
        else "(SELECT value AS sid FROM json_each(?)) AS given"
    return (d.sql(f"SELECT given.sid FROM {given} WHERE (SELECT 1 FROM messages m "
                  "WHERE m.session_id = given.sid LIMIT 1) IS NOT NULL"),
            [list(ids) if d.arrays else json.dumps(list(ids))])


def message_sessions_result(rows: Sequence[Sequence[Any]]) -> list[tuple[str, bool]]:
    return [(str(r[0]), bool(r[1])) for r in rows]


def sessions_result(d: Dialect, rows: Sequence[Sequence[Any]],
                    damaged: list[DamagedRow] | None = None, where: str = "",
                    namespace: str = "") -> list[Session]:
    """Sessions of rows (``damaged``, ``where``, ``namespace``: as
    :func:`row_to_session`)."""
    return [row_to_session(d, r, damaged, where, namespace) for r in rows]


def descendants_query(d: Dialect, session_id: str) -> Statement:
    return (d.sql(
        "WITH RECURSIVE d(id, depth) AS (SELECT id, 1 FROM sessions WHERE parent_id = ? "
        "UNION SELECT s.id, d.depth + 1 FROM sessions s JOIN d ON s.parent_id = d.id "
        "WHERE d.depth < ?) SELECT DISTINCT id FROM d WHERE id <> ? ORDER BY id"),
        [session_id, MAX_SESSION_DEPTH, session_id])


def sessions_under_query(d: Dialect, column: str, value: str) -> Statement:
    """The sessions whose stored ``column`` (``resource_id`` or ``origin_platform``)
    is ``value`` and every session below them, as deep as :data:`MAX_SESSION_DEPTH`,
    each with its parent's id and, when its parent chain reaches a session without a
    parent within :data:`MAX_SESSION_DEPTH` sessions (as
    :func:`~chatmem.store.base.parent_chain` walks it), ``column`` of its snapshot
    (:func:`~chatmem.store.storage.snapshot_sessions`: its root's origin platform; its
    own resource id, else its root's) (:func:`under_result`). The chains are walked
    here (``up``: each session, then its ancestors, one row each), so that a list over
    sessions that are mostly threads below another reads none of their rows."""
    assert column in ("resource_id", "origin_platform")
    snapshot = "COALESCE(NULLIF(s.resource_id, ''), root.resource_id)" \
        if column == "resource_id" else "root.origin_platform"
    return (d.sql(
        f"WITH RECURSIVE d(id, depth) AS (SELECT id, 0 FROM sessions WHERE {column} = ? "
        "UNION SELECT s.id, d.depth + 1 FROM sessions s JOIN d ON s.parent_id = d.id "
        "WHERE d.depth < ?), "
        "up(id, at, parent_id, n) AS (SELECT id, id, parent_id, 1 FROM sessions "
        "WHERE id IN (SELECT id FROM d) "
        "UNION ALL SELECT up.id, p.id, p.parent_id, up.n + 1 FROM up "
        "JOIN sessions p ON p.id = up.parent_id WHERE up.n < ?) "
        f"SELECT s.id, s.parent_id, r.at IS NOT NULL, {snapshot} FROM sessions s "
        "LEFT JOIN up r ON r.id = s.id AND r.parent_id IS NULL "
        "LEFT JOIN sessions root ON root.id = r.at "
        "WHERE s.id IN (SELECT id FROM d) ORDER BY s.id"),
        [value, MAX_SESSION_DEPTH, MAX_SESSION_DEPTH])


def ids_result(rows: Sequence[Sequence[Any]]) -> list[str]:
    return [str(r[0]) for r in rows]


def under_result(rows: Sequence[Sequence[Any]]) -> list[SessionUnder]:
    """Rows of :func:`sessions_under_query`."""
    return [SessionUnder(str(r[0]), None if r[1] is None else str(r[1]), bool(r[2]),
                         None if not r[2] or r[3] is None else str(r[3])) for r in rows]


# ---------------------------------------------------------------- metadata area

def meta_get_query(d: Dialect, namespace: str, key: str) -> Statement:
    return d.sql("SELECT value FROM meta WHERE namespace = ? AND key = ?"), [namespace, key]


def meta_get_result(row: Sequence[Any] | None) -> str | None:
    return None if row is None else str(row[0])


def meta_set_query(d: Dialect, namespace: str, key: str, value: str) -> Statement:
    return (d.sql("INSERT INTO meta (namespace, key, value) VALUES (?, ?, ?) "
                  "ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value"),
            [namespace, key, value])


def meta_set_default_query(d: Dialect, namespace: str, key: str, value: str) -> Statement:
    return (d.sql("INSERT INTO meta (namespace, key, value) VALUES (?, ?, ?) "
                  "ON CONFLICT (namespace, key) DO NOTHING"), [namespace, key, value])


def meta_delete_query(d: Dialect, namespace: str, key: str) -> Statement:
    return d.sql("DELETE FROM meta WHERE namespace = ? AND key = ?"), [namespace, key]


def meta_writes(d: Dialect, namespace: str, writes: Sequence[tuple[str, str | None]],
                defaults: Sequence[tuple[str, str]]) -> list[Statement]:
    """The statements of :meth:`MessageStore.meta_guarded`'s writes: ``writes`` (``None``
    deletes the key) in their order, then ``defaults`` where the key is unset."""
    return [*(meta_delete_query(d, namespace, k) if v is None
              else meta_set_query(d, namespace, k, v) for k, v in writes),
            *(meta_set_default_query(d, namespace, k, v) for k, v in defaults)]


def meta_items_query(d: Dialect, namespace: str | None = None) -> Statement:
    where, args = ("", []) if namespace is None else (d.sql(" WHERE namespace = ?"), [namespace])
    return (f"SELECT namespace, key, value FROM meta{where} ORDER BY namespace{d.collate_c}, "
            f"key{d.collate_c}", args)


def meta_items_result(rows: Sequence[Sequence[Any]]) -> list[tuple[str, str, str]]:
    return [(str(r[0]), str(r[1]), str(r[2])) for r in rows]


# ---------------------------------------------------------------- stats

#: ``stats``: the index-state counts, the vectors per model, the soonest retry (the
#: session count: :func:`sessions_count_query`).
STATS_QUERIES: tuple[Statement, Statement, Statement] = (
    (f"SELECT {STATE_FOR_STATS}, count(*) FROM messages GROUP BY 1", []),
    ("SELECT coalesce(model_id, ''), count(*) FROM vectors GROUP BY 1 ORDER BY 1", []),
    NEXT_RETRY_QUERY,
)
COUNT_BY_MODEL_QUERY = STATS_QUERIES[1]


def count_by_model_result(rows: Sequence[Sequence[Any]]) -> dict[str, int]:
    return {str(m): int(n) for m, n in rows}


#: ``vector_sizes``: the sizes of each model's vectors (legacy vectors under ``""``).
VECTOR_SIZES_QUERY: Statement = (
    "SELECT DISTINCT coalesce(model_id, ''), dim FROM vectors ORDER BY 1, 2", [])


def other_width_query(d: Dialect, model_id: str, width: int) -> Statement:
    """One row: a width of ``model_id``'s vectors when there are some and none of
    ``width``, else NULL (:meth:`~chatmem.store.base.VectorIndex.other_width`). Two
    seeks of the ``vectors_model_dim`` index, whatever the table's size."""
    m = d.mark
    return (f"SELECT CASE WHEN EXISTS (SELECT 1 FROM vectors WHERE model_id = {m} AND "
            f"dim = {m}) THEN NULL ELSE (SELECT dim FROM vectors WHERE model_id = {m} "
            "LIMIT 1) END", [model_id, width, model_id])


def other_width_result(row: Sequence[Any] | None) -> int | None:
    return None if row is None or row[0] is None else int(row[0])


def vector_sizes_result(rows: Sequence[Sequence[Any]]) -> dict[str, frozenset[int]]:
    sizes: dict[str, set[int]] = {}
    for model, dim in rows:
        sizes.setdefault(str(model), set()).add(int(dim))
    return {model: frozenset(dims) for model, dims in sizes.items()}


def unknown_states(counts: Sequence[Sequence[Any]]) -> list[Any]:
    """The states of ``stats``' counts that chatmem does not write (a hand edit), each
    to be named by a message that holds it (:func:`unknown_state_query`): looked up only
    then, not by every count (a ``min(id)`` beside each cost a third more per ``stats``,
    which every metrics scrape runs)."""
    unknown = []
    for s, _ in counts:
        try:
            IndexState(s)
        except ValueError:
            unknown.append(s)
    return unknown


def unknown_state_query(d: Dialect, value: Any) -> Statement:
    """A message whose ``index_state`` holds ``value``, one of :func:`unknown_states`."""
    if value is None:
        return "SELECT id FROM messages WHERE index_state IS NULL LIMIT 1", []
    return f"SELECT id FROM messages WHERE index_state = {d.mark} LIMIT 1", [value]


def stats_result(counts: Sequence[Sequence[Any]], sessions: Sequence[Any] | None,
                 by_model: Sequence[Sequence[Any]], next_retry: Sequence[Any] | None,
                 holders: Mapping[Any, Any] | None = None) -> StoreStats:
    """``holders``: a message of each of :func:`unknown_states`, which the
    :class:`~chatmem.errors.DamagedRow` names."""
    holders = holders or {}
    return StoreStats.of({index_state(s, holders.get(s, "")): int(n) for s, n in counts},
                         int(sessions[0]) if sessions else 0, count_by_model_result(by_model),
                         next_retry_result(next_retry))


# ---------------------------------------------------------------- messages (write)

#: A new index state, and a retry schedule that starts over (E12).
_SET_STATE = "UPDATE messages SET index_state = ?, attempts = 0, retry_at = 0"


def set_index_state_query(d: Dialect, ids: Sequence[str], state: IndexState
                          ) -> list[Statement]:
    return d.by_ids(d.sql(_SET_STATE), "id", ids, [int(state)])


def reset_index_state_query(d: Dialect, old: IndexState, new: IndexState,
                            session_id: str | None = None) -> Statement:
    """Messages in state ``old`` (of one session, or all) go to state ``new``."""
    if session_id is None:
        return d.sql(f"{_SET_STATE} WHERE index_state = ?"), [int(new), int(old)]
    return (d.sql(f"{_SET_STATE} WHERE index_state = ? AND session_id = ?"),
            [int(new), int(old), session_id])


def clear_messages_query(d: Dialect, session_id: str | None = None) -> Statement:
    if session_id is None:
        return "DELETE FROM messages", []
    return d.sql("DELETE FROM messages WHERE session_id = ?"), [session_id]


def list_query(d: Dialect, *, session_ids: Sequence[str] | None, speaker_id: str | None,
               since: int | None, until: int | None, after: tuple[int, str] | None,
               limit: int, newest_first: bool = False, platform: str | None = None,
               or_sessions: Sequence[str] = ()) -> Statement:
    """``list_messages``: a page ordered by ``(ts, id)``, ids compared byte-wise
    (``newest_first``: the reverse order, ``after`` then a position to go below).

    Both backends index ``messages (ts, id)`` and ``(speaker_id, ts, id)`` (SQLite
    ``messages_time``, ``messages_speaker``; PostgreSQL migration 10), so a page
    without a session is a walk of one of them from its position, not a sort of the
    whole table. ``platform``: only messages entered on it, or (``or_sessions``) of
    those sessions (a list's visibility under scope ``platform``, read in the store)."""
    conds: list[str] = []
    params: list[Any] = []
    m = d.mark
    if session_ids is not None:
        frag, p = d.in_set("session_id", session_ids)
        conds.append(frag)
        params += p
    if platform is not None:
        frag, p = d.in_set("session_id", or_sessions) if or_sessions else ("FALSE", [])
        conds.append(f"(platform = {m} OR {frag})")
        params += [platform, *p]
    if speaker_id is not None:
        conds.append(f"speaker_id = {m}")
        params.append(speaker_id)
    if since is not None:
        conds.append(f"ts >= {m}")
        params.append(since)
    if until is not None:
        conds.append(f"ts < {m}")
        params.append(until)
    past, order = ("<", " DESC") if newest_first else (">", "")
    if after is not None:
        # "ts >= / <= pos" first: the OR alone is no range, and the planner would walk
        # the (ts, id) index from its start to the position on every page
        conds.append(f"ts {past}= {m} AND (ts {past} {m} OR (ts = {m} "
                     f"AND id{d.collate_c} {past} {m}))")
        params += [after[0], after[0], after[0], after[1]]
    where = f" WHERE {' AND '.join(conds)}" if conds else ""
    return (f"SELECT {d.message_columns} FROM messages{where} "
            f"ORDER BY ts{order}, id{d.collate_c}{order} LIMIT {m}", [*params, limit])


def delete_messages_query(d: Dialect, chunk: Sequence[str]) -> Statement:
    """One chunk (:meth:`Dialect.id_chunks`) of the messages ``delete_messages`` deletes."""
    frag, params = d.in_list("id", chunk)
    return f"DELETE FROM messages WHERE {frag}", params


def ts_taken_query(d: Dialect, session_id: str, ts: int) -> Statement:
    """A row when ``ts`` is taken in the session (``append`` staggers it forward)."""
    return d.sql("SELECT 1 FROM messages WHERE session_id = ? AND ts = ?"), [session_id, ts]


def first_free_ts_query(d: Dialect, session_id: str, ts: int) -> Statement:
    """The first free timestamp after ``ts`` in the session, ``ts`` being taken: the end
    of the run of taken milliseconds that starts there, in one query (walking the run
    one query per millisecond made a batch of equal timestamps quadratic: 8,000
    messages at one ``ts`` took 71 s in SQLite)."""
    return d.sql("SELECT m.ts + 1 FROM messages m WHERE m.session_id = ? AND m.ts >= ? "
                 "AND NOT EXISTS (SELECT 1 FROM messages n WHERE n.session_id = m.session_id "
                 "AND n.ts = m.ts + 1) ORDER BY m.ts LIMIT 1"), [session_id, ts]


def check_staggered(ts: int, requested: int, where: str) -> None:
    """Refuse a timestamp that staggering moved past :data:`~chatmem.models.MAX_TS`:
    the store would hold a ``ts`` its own checks refuse (a cursor, ``rewrite``, an
    import of its export)."""
    if ts > MAX_TS:
        raise InvalidInput(
            f"{where}.ts: the session already has a message at every millisecond from "
            f"{requested} to the largest ts ({MAX_TS}), and timestamps are unique within "
            "a session; give this message an earlier ts")


def insert_message_sql(d: Dialect) -> str:
    """``append``'s insert; its rows come from :func:`message_row`."""
    m, j = d.mark, d.mark + d.json_cast
    return ("INSERT INTO messages (id, session_id, ts, role, kind, content, visible_content, "
            "source, speaker_id, speaker_name, mentions, platform, metadata, index_state) "
            f"VALUES ({m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {m}, {j}, {m}, {j}, {m})")


#: The states ``append(states=...)`` stores a new message in: kept from an export or a
#: migration's source, they wait for nothing (the indexer never takes them).
KEPT_STATES = (IndexState.SKIPPED, IndexState.CLEARED)


def check_kept_states(states: Mapping[str, IndexState] | None) -> Mapping[str, IndexState]:
    """``append``'s ``states`` (``None``: none), each ``SKIPPED`` or ``CLEARED``."""
    if states is None:
        return {}
    if not isinstance(states, Mapping):
        raise InvalidInput("states must be a mapping of message id to index state, got "
                           f"{describe(states)}")
    for mid, state in states.items():
        if state not in KEPT_STATES:
            raise InvalidInput(f"states[{describe(mid)}] must be IndexState.SKIPPED or "
                               f"IndexState.CLEARED, got {describe(state)}")
    return states


def message_row(msg: Message, mid: str, ts: int, mentions: str, metadata: str,
                kept: IndexState | None = None) -> tuple[Any, ...]:
    """The :func:`insert_message_sql` row of a new message (``mentions`` and ``metadata``
    already JSON text); a new message waits for the indexer when it is indexable, unless
    ``kept`` gives its state (:func:`check_kept_states`)."""
    state = kept if kept is not None else \
        IndexState.PENDING if msg.indexable else IndexState.SKIPPED
    return (mid, msg.session_id, ts, msg.role, msg.kind, msg.content, msg.visible_content,
            msg.source, msg.speaker_id, msg.speaker_name, mentions, msg.platform, metadata,
            int(state))


def insert_sessions_query(d: Dialect, session_ids: Sequence[str]) -> Statement:
    """The sessions of appended messages, created bare when missing."""
    if d.arrays:
        return (f"INSERT INTO sessions (id) SELECT DISTINCT unnest({d.mark}::text[]) "
                "ON CONFLICT (id) DO NOTHING", [sorted(set(session_ids))])
    marks = ", ".join(f"({d.mark})" for _ in sorted(set(session_ids)))
    return (f"INSERT INTO sessions (id) VALUES {marks} ON CONFLICT (id) DO NOTHING",
            sorted(set(session_ids)))


def rewrite_select_query(d: Dialect, session_id: str, ts: int) -> Statement:
    """``rewrite``: the message at ``ts`` of the session (locked for the update)."""
    return (f"SELECT {d.message_columns} FROM messages WHERE session_id = {d.mark} "
            f"AND ts = {d.mark}{d.for_update}", [session_id, ts])


def rewritten(old: Message, content: str | None, visible_content: str | None,
              metadata: Mapping[str, Any] | None) -> Message:
    """``rewrite``: the message with the given fields replaced (``None``: kept)."""
    return dataclasses.replace(
        old,
        content=old.content if content is None else content,
        visible_content=old.visible_content if visible_content is None else visible_content,
        metadata=old.metadata if metadata is None else dict(metadata),
    )


def rewrite_update_query(d: Dialect, row: Sequence[Any], new: Message, metadata: str
                         ) -> Statement:
    """``rewrite``: store ``new`` (``metadata`` its JSON text) over the selected ``row``."""
    return (f"UPDATE messages SET content = {d.mark}, visible_content = {d.mark}, "
            f"metadata = {d.mark}{d.json_cast} WHERE {d.seq} = {d.mark}",
            [new.content, new.visible_content, metadata, row[0]])


# ---------------------------------------------------------------- sessions (write)

def session_query(d: Dialect, session_id: str, *, for_update: bool = False) -> Statement:
    lock = d.for_update if for_update else ""
    return (f"SELECT {SESSION_COLUMNS} FROM sessions WHERE id = {d.mark}{lock}", [session_id])


def upsert_session_query(d: Dialect, session: Session, metadata: str, settings: str
                         ) -> Statement:
    """``upsert_session``'s write (``metadata``, ``settings``: JSON text)."""
    m, j = d.mark, d.mark + d.json_cast
    return (f"INSERT INTO sessions ({SESSION_COLUMNS}) VALUES ({m}, {m}, {m}, {m}, {m}, {m}, "
            f"{m}, {j}, {j}) ON CONFLICT (id) DO UPDATE SET "
            "parent_id = excluded.parent_id, resource_id = excluded.resource_id, "
            "origin_platform = excluded.origin_platform, chat_type = excluded.chat_type, "
            "group_id = excluded.group_id, group_name = excluded.group_name, "
            "metadata = excluded.metadata, settings = excluded.settings",
            [session.id, session.parent_id, session.resource_id, session.origin_platform,
             session.chat_type, session.group_id, session.group_name, metadata, settings])


def snapshot_queries(d: Dialect, s: SessionSnapshot, smeta: str
                     ) -> tuple[Statement, list[Statement]]:
    """``update_session_snapshot`` for one session (``smeta``: its metadata as JSON text):
    the count of its vector entries, and the updates of its vector entries and of the
    full-text rows of a separate index's entries. Rows already right stay as they are
    (in PostgreSQL an update rewrites the row into every index, the HNSW graph too)."""
    m, j, ne = d.mark, d.mark + d.json_cast, d.distinct
    count = (f"SELECT count(*) FROM vectors WHERE session_id = {m}", [s.session_id])
    updates: list[Statement] = [
        (f"UPDATE {table} SET origin_platform = {m}, resource_id = {m}, smeta = {j} "
         f"WHERE session_id = {m} AND (origin_platform {ne} {m} OR resource_id {ne} {m} "
         f"OR smeta {ne} {j})",
         [s.origin_platform, s.resource_id, smeta, s.session_id, s.origin_platform,
          s.resource_id, smeta])
        for table in ("vectors", "lexical_entries")]
    return count, updates
