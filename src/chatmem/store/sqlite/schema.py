"""The SQLite store's file format: tables, schema version, and what marks a file as chatmem's.

Kept apart from the store's behaviour so that the format can be read (and the
file check in :meth:`chatmem.store.sqlite.SqliteStore.open` can compare against
it) without the store's machinery.
"""

from __future__ import annotations

import functools
import sqlite3

from ..columns import sqlite_entry_ddl
from ..sql import WAITING_STATES_SQL
from .lexical import SQLITE_SCHEMA as LEXICAL_SCHEMA

#: 2: messages may be in IndexState.CLEARED (an older chatmem would not read them)
SCHEMA_VERSION = 2
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


def table_columns(conn: sqlite3.Connection, table: str) -> tuple[str, ...]:
    return tuple(r[1] for r in conn.execute(f"PRAGMA table_info({table})"))
