"""The SQLite store's file format: tables, schema version, and what marks a file as chatmem's.

Kept apart from the store's behaviour so that the format can be read (and the
file check in :meth:`chatmem.store.sqlite.SqliteStore.open` can compare against
it) without the store's machinery.
"""

from __future__ import annotations

import functools
import sqlite3

from ..columns import sqlite_entry_ddl
from ..sql import FAILED_SQL, PENDING_ENTRY_SQL, PENDING_SQL, WAITING_STATES_SQL
from .lexical import SQLITE_SCHEMA as LEXICAL_SCHEMA

#: 2: messages may be in IndexState.CLEARED (an older chatmem would not read them).
#: 3: the retry schedule of messages (``attempts``, ``retry_at``: E12) and the pending
#: full-text entries of messages without a vector (X1), which an older chatmem would
#: leave behind: it must not write this file.
SCHEMA_VERSION = 3
#: ``PRAGMA application_id`` of every chatmem SQLite file: 0x43484D4D, the ASCII
#: bytes ``CHMM`` (at offset 68 of the file header).
APPLICATION_ID = 0x43484D4D
#: The tables every chatmem file has had since the first version.
CORE_TABLES = frozenset({"sessions", "messages", "vectors", "meta"})
SQLITE_MAGIC = b"SQLite format 3\x00"
SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    parent_id TEXT,
    resource_id TEXT,
    origin_platform TEXT,
    chat_type TEXT,
    group_id TEXT,
    group_name TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    settings TEXT NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS messages (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL,
    ts INTEGER NOT NULL,
    role TEXT NOT NULL,
    kind TEXT NOT NULL,
    content TEXT NOT NULL,
    visible_content TEXT,
    source TEXT,
    speaker_id TEXT,
    speaker_name TEXT,
    mentions TEXT NOT NULL DEFAULT '[]',
    platform TEXT,
    metadata TEXT NOT NULL DEFAULT '{}',
    index_state INTEGER NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    retry_at INTEGER NOT NULL DEFAULT 0,
    UNIQUE (session_id, ts)
);
CREATE INDEX IF NOT EXISTS messages_waiting ON messages (rowid)
    WHERE index_state IN {waiting};
CREATE TABLE IF NOT EXISTS vectors (
    mrowid INTEGER PRIMARY KEY,
{entry_columns},
    dim INTEGER NOT NULL,
    vec BLOB NOT NULL
);
CREATE INDEX IF NOT EXISTS vectors_session ON vectors (session_id, ts);
CREATE INDEX IF NOT EXISTS sessions_parent ON sessions (parent_id);
CREATE TABLE IF NOT EXISTS meta (
    namespace TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (namespace, key)
);
""".replace("{waiting}", WAITING_STATES_SQL).replace(
    "{entry_columns}", sqlite_entry_ddl(unique_message_id=True))


#: Columns of ``messages`` added by schema 3, in order (``ALTER TABLE`` on older files).
RETRY_COLUMNS: dict[str, str] = {
    "attempts": "INTEGER NOT NULL DEFAULT 0",
    "retry_at": "INTEGER NOT NULL DEFAULT 0",
}
#: Indexes of schema 3, created once its columns exist (after :data:`RETRY_COLUMNS`): the
#: retries due soonest, the messages never attempted (a sweep reads no FAILED row to find
#: them), and the pending full-text entries. And every message in ``list_messages``'
#: order, by time (``messages_time``) and by speaker then time (``messages_speaker``):
#: without them a page of a listing that names no session (``chatmem list --since``,
#: ``GET /v1/messages``, ``forget`` by speaker, a day's latest messages) sorted the
#: whole table, 8 ms a page at 100,000 messages and growing with the store
#: (``bench/listing.py``). And each model's vector widths (``vectors_model_dim``): the
#: indexer's writes check that a model keeps one width (``OneWidth``), a recall that its
#: query's width is the store's, by two seeks of it instead of a scan of every vector.
#: Created on open when missing, as the others: an older chatmem reads a file that has
#: them unchanged.
INDEXES = f"""
CREATE INDEX IF NOT EXISTS messages_retry ON messages (retry_at)
    WHERE index_state = {FAILED_SQL};
CREATE INDEX IF NOT EXISTS messages_pending ON messages (rowid)
    WHERE index_state = {PENDING_SQL};
CREATE INDEX IF NOT EXISTS lexical_entries_pending ON lexical_entries (session_id)
    WHERE {PENDING_ENTRY_SQL};
CREATE INDEX IF NOT EXISTS messages_time ON messages (ts, id);
CREATE INDEX IF NOT EXISTS messages_speaker ON messages (speaker_id, ts, id);
CREATE INDEX IF NOT EXISTS vectors_model_dim ON vectors (model_id, dim);
"""


def migrate(conn: sqlite3.Connection) -> None:
    """Bring the tables of a file written by an older chatmem to this schema."""
    have = set(table_columns(conn, "messages"))
    for name, ddl in RETRY_COLUMNS.items():
        if name not in have:
            conn.execute(f"ALTER TABLE messages ADD COLUMN {name} {ddl}")
    conn.executescript(INDEXES)


def signed32(n: int) -> int:
    """``n`` as SQLite's PRAGMA application_id reads it (a signed 32-bit integer)."""
    return n - (1 << 32) if n >= 1 << 31 else n


@functools.cache
def reference() -> tuple[frozenset[str], tuple[str, ...]]:
    """Every table a chatmem file may hold, and the columns of ``messages``, read
    from the schema itself (in memory), so the check follows schema changes."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMA)
        conn.executescript(LEXICAL_SCHEMA)
        tables = frozenset(r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table'"))
        return tables, table_columns(conn, "messages")
    finally:
        conn.close()


def chatmem_tables() -> frozenset[str]:
    return reference()[0]


def chatmem_columns() -> tuple[str, ...]:
    return reference()[1]


def known_columns(columns: tuple[str, ...]) -> bool:
    """Whether ``columns`` are those of ``messages`` in this schema or an older one."""
    current = chatmem_columns()
    return columns in (current, tuple(c for c in current if c not in RETRY_COLUMNS))


def table_columns(conn: sqlite3.Connection, table: str) -> tuple[str, ...]:
    return tuple(r[1] for r in conn.execute(f"PRAGMA table_info({table})"))
