"""The fields of a vector entry and of a message as the stores keep them: one table each.

A vector entry (:class:`~chatmem.models.VectorEntry`) is written out by the
SQLite store (``vectors`` and ``lexical_entries`` tables), the PostgreSQL store
(the same two tables) and Qdrant (a point's payload). Each of them derives its
column lists, its inserts, its row mapping and its payload from
:data:`ENTRY_COLUMNS`, so that a new filterable field is one line here (plus,
for PostgreSQL, a migration: its released DDL is history and stays as it was).

The vector itself, the embedded text and backend bookkeeping (row ids, the
dimension, full-text columns) are not in the table: each backend stores those
its own way.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import numpy as np
import numpy.typing as npt

from ..errors import DamagedRow
from ..models import VectorEntry
from ..refusals import describe

T = TypeVar("T")
R = TypeVar("R")
log = logging.getLogger("chatmem.store")

Kind = Literal["text", "integer", "json_list", "json_object"]

_SQLITE_TYPES: dict[Kind, str] = {
    "text": "TEXT", "integer": "INTEGER",
    "json_list": "TEXT NOT NULL DEFAULT '[]'", "json_object": "TEXT NOT NULL DEFAULT '{}'",
}


#: What a BLOB is read as: never what chatmem writes in a text column.
_BLOBS = (bytes, bytearray, memoryview)


@dataclass(frozen=True)
class Column:
    """One stored field of a record: its attribute, SQL column and Qdrant payload key."""

    field: str  #: the record's attribute (:class:`VectorEntry`, :class:`Message`)
    column: str  #: the SQL column (both SQL stores)
    key: str  #: the Qdrant payload key, also the filter field (``meta.x``: under ``meta``)
    kind: Kind
    required: bool = False  #: NOT NULL, and always present in a payload

    @property
    def is_json(self) -> bool:
        return self.kind in ("json_list", "json_object")

    def sqlite_ddl(self) -> str:
        """The column's definition in a SQLite ``CREATE TABLE``."""
        sql_type = _SQLITE_TYPES[self.kind]
        return f"{self.column} {sql_type}{' NOT NULL' if self.required else ''}"

    def plain(self, entry: VectorEntry) -> Any:
        """The entry's value as plain data (JSON columns: a list or a dict)."""
        value = getattr(entry, self.field)
        if self.kind == "json_list":
            return list(value)
        if self.kind == "json_object":
            return dict(value)
        if self.kind == "integer":
            return int(value)
        return value

    def python(self, value: Any) -> Any:
        """A stored value (decoded JSON for JSON columns) as the entry's attribute;
        :class:`BadColumn` when it is not what chatmem writes there."""
        if self.kind == "text":  # most columns: text first, which costs less than before
            if type(value) is str or (value is None and not self.required):
                return value
            if isinstance(value, _BLOBS):  # SQLite's BLOB
                raise BadColumn(self.column, f"holds {describe(value)}, not text")
            return str(value) if self.required else value
        if self.kind == "json_list":
            if value is not None and not isinstance(value, list):
                raise BadColumn(self.column, f"holds JSON {describe(value)}, not a list")
            return tuple(value or ())
        if self.kind == "json_object":
            return json_object(self.column, value)
        if self.kind == "integer":
            if isinstance(value, int) and not isinstance(value, bool):
                return value
            try:
                return int(value)
            except (TypeError, ValueError):
                raise BadColumn(self.column, f"holds {describe(value)}, not an integer"
                                ) from None
        raise AssertionError(self.kind)  # every kind is above


class BadColumn(ValueError):
    """A stored value chatmem cannot read: a column of a row, and what is wrong with it
    (:func:`read_row` names the row)."""

    def __init__(self, column: str, problem: str) -> None:
        super().__init__(f"{column}: {problem}")
        self.column, self.problem = column, problem


def json_object(column: str, value: Any) -> Any:
    """A decoded JSON object column (``{}`` for NULL); :class:`BadColumn` for another
    JSON type (PostgreSQL's ``jsonb`` holds any)."""
    if value is not None and not isinstance(value, Mapping):
        raise BadColumn(column, f"holds JSON {describe(value)}, not an object")
    return value or {}


def load_json(column: str, value: Any, load: Callable[[Any], Any] | None) -> Any:
    """A JSON column's stored value decoded by ``load`` (text only: a driver that
    decodes them gives the value); :class:`BadColumn` for text that is not JSON."""
    if load is None or not isinstance(value, str):
        return value
    try:
        return load(value)
    except ValueError as exc:
        raise BadColumn(column, f"is not valid JSON ({exc}): {describe(value)}") from None


def read_row(table: str, key: Any, build: Callable[[], T]) -> T:
    """``build()``, a record made from a row of ``table`` whose id is ``key``; a value
    it cannot read (:class:`BadColumn`) is a :class:`~chatmem.errors.DamagedRow` naming
    the table, the row and the column."""
    try:
        return build()
    except BadColumn as exc:
        raise DamagedRow(table, key if isinstance(key, bytes) else str(key), exc.column,
                         exc.problem) from exc  # bytes: named as SQL writes them


def read_rows(table: str, rows: Iterable[R], key: Callable[[R], Any],
              build: Callable[[R], T], *, damaged: list[str] | None = None,
              where: str = "", reembedding: bool = False) -> list[T]:
    """:func:`read_row` of each row. ``damaged`` given, a damaged row is left out with
    a warning and its id added there (a recall; a reindex, ``reembedding``, which
    writes it again and says so); else it is the error (``where``: the store, in its
    message)."""
    out: list[T] = []
    for r in rows:
        try:
            out.append(read_row(table, key(r), lambda: build(r)))  # noqa: B023 (called now)
        except DamagedRow as exc:
            exc.where = where
            if damaged is None:
                raise
            log.warning("%s; %s", exc.damage,
                        "re-embedding its message, which replaces the row" if reembedding
                        else "left out of recalls until chatmem reindex (Memory.reindex()) "
                             "embeds its message again, which replaces the row")
            damaged.append(exc.row)
    return out


def blob_vector(raw: Any, dim: Any) -> npt.NDArray[np.float32]:
    """A vector stored as float32 bytes (SQLite's ``vec``) whose ``dim`` column says
    its length; :class:`BadColumn` when the bytes are not that many numbers."""
    if not isinstance(raw, bytes) or len(raw) % 4:
        what = f"{len(raw)} bytes" if isinstance(raw, bytes) else describe(raw)
        raise BadColumn("vec", f"holds {what}, not float32 numbers (4 bytes each)")
    return checked_vector("vec", np.frombuffer(raw, dtype=np.float32).copy(), dim)


def checked_vector(column: str, vector: npt.NDArray[np.float32], dim: Any
                   ) -> npt.NDArray[np.float32]:
    """``vector`` as stored in ``column``, when its length is the row's ``dim``."""
    if isinstance(dim, bool) or not isinstance(dim, int) or dim <= 0:
        raise BadColumn("dim", f"holds {describe(dim)}, not a vector size")
    if vector.shape != (dim,):
        raise BadColumn(column, f"holds {vector.size} numbers where column dim says {dim}")
    return vector


#: Every field of a vector entry that a store keeps beside the vector, in the
#: column order of the SQLite tables.
ENTRY_COLUMNS: tuple[Column, ...] = (
    Column("message_id", "message_id", "message_id", "text", required=True),
    Column("session_id", "session_id", "session_id", "text", required=True),
    Column("ts", "ts", "ts", "integer", required=True),
    Column("role", "role", "role", "text"),
    Column("model_id", "model_id", "model_id", "text"),
    Column("platform", "platform", "platform", "text"),
    Column("speaker_id", "speaker_id", "speaker_id", "text"),
    Column("mentions", "mentions", "mentions", "json_list"),
    Column("resource_id", "resource_id", "resource_id", "text"),
    Column("origin_platform", "origin_platform", "origin_platform", "text"),
    Column("session_metadata", "smeta", "meta", "json_object"),
    Column("message_metadata", "mmeta", "message", "json_object"),
)

#: The stored fields of a message (both SQL stores' ``messages`` table, in column
#: order, after the backend's own sequence column and before ``index_state``).
MESSAGE_COLUMNS: tuple[Column, ...] = (
    Column("id", "id", "id", "text", required=True),
    Column("session_id", "session_id", "session_id", "text", required=True),
    Column("ts", "ts", "ts", "integer", required=True),
    Column("role", "role", "role", "text", required=True),
    Column("kind", "kind", "kind", "text", required=True),
    Column("content", "content", "content", "text", required=True),
    Column("visible_content", "visible_content", "visible_content", "text"),
    Column("source", "source", "source", "text"),
    Column("speaker_id", "speaker_id", "speaker_id", "text"),
    Column("speaker_name", "speaker_name", "speaker_name", "text"),
    Column("mentions", "mentions", "mentions", "json_list"),
    Column("platform", "platform", "platform", "text"),
    Column("metadata", "metadata", "metadata", "json_object"),
)

#: The SQL column names of :data:`MESSAGE_COLUMNS`, comma-separated, in order.
MESSAGE_COLUMN_NAMES = ", ".join(c.column for c in MESSAGE_COLUMNS)

#: The SQL column names of :data:`ENTRY_COLUMNS`, comma-separated, in order.
ENTRY_COLUMN_NAMES = ", ".join(c.column for c in ENTRY_COLUMNS)

#: Filter prefix -> JSON column (``meta.x`` is ``x`` in ``smeta``).
JSON_COLUMNS: dict[str, str] = {c.key: c.column for c in ENTRY_COLUMNS
                                if c.kind == "json_object"}


def sqlite_entry_ddl(*, unique_message_id: bool) -> str:
    """The entry columns of a SQLite ``CREATE TABLE`` (``message_id`` UNIQUE or not)."""
    parts = []
    for c in ENTRY_COLUMNS:
        ddl = c.sqlite_ddl()
        if c.field == "message_id" and unique_message_id:
            ddl += " UNIQUE"
        parts.append("    " + ddl)
    return ",\n".join(parts)


def entry_values(entry: VectorEntry,
                 dump: Callable[[Any, Column], Any]) -> tuple[Any, ...]:
    """The entry's values in :data:`ENTRY_COLUMNS` order; JSON ones through ``dump``."""
    return tuple(dump(c.plain(entry), c) if c.is_json else c.plain(entry)
                 for c in ENTRY_COLUMNS)


def json_text(value: Any, column: Column) -> str:
    """A JSON column as text (keys in order, non-ASCII kept), for a driver that binds text."""
    if not value:  # most are empty: every message's entry is written at append (X1)
        return "[]" if column.kind == "json_list" else "{}"
    return json.dumps(value, ensure_ascii=False)


def entry_fields(values: Sequence[Any] | Mapping[str, Any], *,
                 load: Callable[[Any], Any] | None = None,
                 by: Literal["column", "key"] = "column") -> dict[str, Any]:
    """:class:`VectorEntry` keyword arguments from stored values: a row in
    :data:`ENTRY_COLUMNS` order, or a mapping by column name or payload key
    (``by``). ``load`` decodes JSON columns stored as text."""
    return _fields(ENTRY_COLUMNS, values, load, by)


def message_fields(values: Sequence[Any], *, load: Callable[[Any], Any] | None = None,
                   bad: list[BadColumn] | None = None) -> dict[str, Any]:
    """:class:`~chatmem.models.Message` keyword arguments from a row in
    :data:`MESSAGE_COLUMNS` order; ``load`` decodes JSON columns stored as text.
    ``bad`` given, a JSON column it cannot read is empty and its problem added there
    (an erase, which needs none of them); else it is the error."""
    return _fields(MESSAGE_COLUMNS, values, load, "column", bad)


def _fields(columns: Sequence[Column], values: Sequence[Any] | Mapping[str, Any],
            load: Callable[[Any], Any] | None, by: Literal["column", "key"],
            bad: list[BadColumn] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for i, c in enumerate(columns):
        if isinstance(values, Mapping):
            name = c.column if by == "column" else c.key
            value = values[name] if c.required else values.get(name)
        else:
            value = values[i]
        try:
            out[c.field] = c.python(load_json(c.column, value, load) if c.is_json
                                    else value)
        except BadColumn as exc:
            if bad is None or not c.is_json:
                raise
            bad.append(exc)
            out[c.field] = c.python(None)
    return out


#: PostgreSQL placeholders for :data:`ENTRY_COLUMNS` (JSON columns are ``jsonb``).
PG_ENTRY_MARKS = ", ".join("%s::jsonb" if c.is_json else "%s" for c in ENTRY_COLUMNS)


def pg_upsert_sql(table: str, extra: Sequence[tuple[str, str]], *, prefix: Sequence[str] = ()
                  ) -> str:
    """``INSERT … ON CONFLICT (message_id) DO UPDATE`` of an entry row in PostgreSQL:
    the ``prefix`` columns (``%s`` each), :data:`ENTRY_COLUMNS`, then ``extra``
    ``(column, placeholder)`` pairs; every column but ``message_id`` is replaced."""
    names = [*prefix, *(c.column for c in ENTRY_COLUMNS), *(name for name, _ in extra)]
    marks = ", ".join([*("%s" for _ in prefix), PG_ENTRY_MARKS, *(mark for _, mark in extra)])
    updates = ", ".join(f"{n} = excluded.{n}" for n in names if n != "message_id")
    return (f"INSERT INTO {table} ({', '.join(names)}) VALUES ({marks}) "
            f"ON CONFLICT (message_id) DO UPDATE SET {updates}")
