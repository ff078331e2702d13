"""Backend factories for the conformance suite (S5): one entry per backend.

Each factory is an async context manager yielding ``(store, index)``: the
message store and the vector index (the same object for SQL backends).
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from chatmem.store import SqliteStore

Factory = Callable[[Path], contextlib.AbstractAsyncContextManager[tuple[Any, Any]]]


@contextlib.asynccontextmanager
async def memory_backend(tmp: Path) -> AsyncIterator[tuple[Any, Any]]:
    store = await SqliteStore.open(":memory:")
    try:
        yield store, store
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def sqlite_backend(tmp: Path) -> AsyncIterator[tuple[Any, Any]]:
    store = await SqliteStore.open(tmp / "conformance.db")
    try:
        yield store, store
    finally:
        await store.close()


def pg_url() -> str:
    """The test PostgreSQL URL; fails (not skips) in CI when it is missing."""
    url = os.environ.get("CHATMEM_TEST_PG_URL")
    if not url:
        if os.environ.get("CHATMEM_REQUIRE_PG") == "1":
            pytest.fail("CHATMEM_TEST_PG_URL is not set but CHATMEM_REQUIRE_PG=1")
        pytest.skip("no PostgreSQL: run `bash .ci/postgres.sh start` and export "
                    "CHATMEM_TEST_PG_URL")
    return url


def pg_schema_url(url: str, schema: str) -> str:
    """``url`` with ``schema=<schema>`` set (a store confined to that schema). The schema
    is percent-encoded as chatmem reads it back (``%xx``, not a form's ``+``), but for
    ``{`` and ``}``: a server's template (``cm_{namespace}``) stays a template, which an
    encoded ``cm_%7Bnamespace%7D`` is not. The URL's other parameters are kept as
    written."""
    from urllib.parse import quote, unquote, urlsplit, urlunsplit

    parts = urlsplit(url)
    query = [item for item in parts.query.split("&")
             if item and unquote(item.partition("=")[0]) != "schema"]
    query.append(f"schema={quote(schema, safe='{}')}")
    return urlunsplit(parts._replace(query="&".join(query)))


async def drop_pg_schema(url: str, schema: str) -> None:
    """Drop a test store's schema, after checking that BM25's totals in it (the ledger of
    migration 8) still agree with a count of its rows: every test that writes to a
    PostgreSQL store checks that its writes kept them."""
    import psycopg
    from psycopg import sql

    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        await assert_pg_totals(conn, schema)
        await conn.execute(sql.SQL("DROP SCHEMA IF EXISTS {} CASCADE").format(
            sql.Identifier(schema)))


async def assert_pg_totals(conn: Any, schema: str) -> None:
    """BM25's document count and token total in ``schema``: the ledger equals a count of
    the rows (nothing to check in a schema without the ledger)."""
    from psycopg import sql

    from chatmem.store.postgres.lexical import PG_COUNT_SQL, PG_TOTALS_SQL

    found = await (await conn.execute(
        "SELECT to_regclass(%s) IS NOT NULL AND to_regclass(%s) IS NOT NULL",
        [f'"{schema}".lexical_totals', f'"{schema}".lexical_entries'])).fetchone()
    if not found or not found[0]:
        return
    async with conn.transaction():
        await conn.execute(sql.SQL("SET LOCAL search_path = {}").format(sql.Identifier(schema)))
        booked = await (await conn.execute(PG_TOTALS_SQL)).fetchone()
        counted = await (await conn.execute(PG_COUNT_SQL)).fetchone()
    assert tuple(booked) == tuple(counted), \
        f"schema {schema}: BM25 totals booked {tuple(booked)}, rows hold {tuple(counted)}"


@contextlib.asynccontextmanager
async def postgres_backend(tmp: Path) -> AsyncIterator[tuple[Any, Any]]:
    """A PostgreSQL store in a schema of its own, dropped afterwards."""
    import uuid

    from chatmem.store.postgres import PostgresStore

    url = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    store = await PostgresStore.open(pg_schema_url(url, schema))
    try:
        yield store, store
    finally:
        await store.close()
        await drop_pg_schema(url, schema)


#: name -> factory. PostgreSQL and Qdrant register themselves below.
BACKENDS: dict[str, Factory] = {
    "memory": memory_backend,
    "sqlite": sqlite_backend,
    "postgres": postgres_backend,
}


@contextlib.asynccontextmanager
async def qdrant_backend(tmp: Path) -> AsyncIterator[tuple[Any, Any]]:
    """Messages in a SQLite file, vectors in Qdrant's local mode (the same calls as a
    server). In memory: on disk, local mode commits every point on its own, about 5×
    slower; tests/test_qdrant.py covers the folder and reopening it."""
    from chatmem.store.qdrant import QdrantIndex

    store = await SqliteStore.open(tmp / "qdrant-messages.db")
    try:
        index = await QdrantIndex.open("qdrant+local://:memory:")
        try:
            yield store, index
        finally:
            await index.close()
    finally:
        await store.close()


BACKENDS["qdrant"] = qdrant_backend


@dataclasses.dataclass(frozen=True)
class Place:
    """Where a :class:`chatmem.Memory` keeps its data: the store URL and, when the vectors
    live apart, the vector index URL (``Memory.open(place.url, vector=place.vector)``);
    the same place can be opened again (a restart)."""

    url: str
    vector: str | None = None


@contextlib.asynccontextmanager
async def sqlite_place(tmp: Path) -> AsyncIterator[Place]:
    yield Place(f"sqlite:///{tmp}/memory.db")


@contextlib.asynccontextmanager
async def qdrant_place(tmp: Path) -> AsyncIterator[Place]:
    """Messages in a SQLite file, vectors in a Qdrant local-mode folder."""
    pytest.importorskip("qdrant_client")
    yield Place(f"sqlite:///{tmp}/messages.db", vector=f"qdrant+local://{tmp}/qdrant")


@contextlib.asynccontextmanager
async def postgres_place(tmp: Path) -> AsyncIterator[Place]:
    """A PostgreSQL store in a schema of its own, dropped afterwards."""
    import uuid

    url = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    try:
        yield Place(pg_schema_url(url, schema))
    finally:
        await drop_pg_schema(url, schema)


#: name -> factory of a place for a whole Memory: SQLite as its own index, SQLite beside
#: a separate Qdrant index, PostgreSQL.
PLACES: dict[str, Callable[[Path], contextlib.AbstractAsyncContextManager[Place]]] = {
    "sqlite": sqlite_place,
    "qdrant": qdrant_place,
    "postgres": postgres_place,
}


async def add_until_full(mem: Any, content: Callable[[int], str]) -> tuple[list[str], Any]:
    """Add ``content(i)`` to session ``s`` until the store refuses one (a full disk, at
    most 400 adds): the ids acknowledged and the refusal, each checked to be there (the
    test would prove nothing without them)."""
    from chatmem.errors import StoreError

    acknowledged: list[str] = []
    refused: StoreError | None = None
    for i in range(400):
        try:
            stored = (await mem.add({"session_id": "s", "content": content(i)}))[0]
        except StoreError as exc:
            refused = exc
            break
        assert stored.id is not None
        acknowledged.append(stored.id)
    assert refused is not None, "the disk never filled: the test would prove nothing"
    assert acknowledged, "not one message fitted: the test would prove nothing"
    return acknowledged, refused


@contextlib.contextmanager
def small_tmpfs(disk: Path, size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted at the new folder ``disk`` (root on Linux; the test
    is skipped where it cannot be), unmounted after."""
    import subprocess
    import sys

    if sys.platform != "linux" or os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root on Linux")
    disk.mkdir()
    made = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(disk)],
                          capture_output=True, text=True)
    if made.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {made.stderr.strip()}")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


async def hand_edit(store: Any, statement: str, *params: Any) -> int:
    """Run ``statement`` (``?`` placeholders) on a SQL store's own database, as a user's
    own edit outside chatmem would; the rows it changed."""
    if store.__class__.__name__ == "SqliteStore":
        return int(await store._run(lambda: store.conn.execute(statement, params).rowcount))
    async with store._conn() as conn:
        cur = await conn.execute(statement.replace("?", "%s"), params)
        return int(cur.rowcount)


async def refuse_inserts(store: Any, table: str, when: str) -> None:
    """A real failure of a SQL store's database: a trigger ``stop`` raising 'disk full'
    (as a full disk) on each row inserted into ``table`` for which ``when`` holds (SQL
    that SQLite and PostgreSQL both read, the row as ``NEW``)."""
    if store.__class__.__name__ == "SqliteStore":
        await store._run(store.conn.execute,
                         f"CREATE TRIGGER stop BEFORE INSERT ON {table} WHEN {when} "
                         "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
        return
    async with store._conn() as conn:
        await conn.execute(
            "CREATE FUNCTION stop() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"IF {when} THEN RAISE EXCEPTION 'disk full'; END IF; RETURN NEW; END $$")
        await conn.execute(f"CREATE TRIGGER stop BEFORE INSERT ON {table} "
                           "FOR EACH ROW EXECUTE FUNCTION stop()")


async def accept_inserts(store: Any, table: str) -> None:
    """The failure of :func:`refuse_inserts` is over (the disk has room again)."""
    if store.__class__.__name__ == "SqliteStore":
        await store._run(store.conn.execute, "DROP TRIGGER stop")
        return
    async with store._conn() as conn:
        await conn.execute(f"DROP TRIGGER stop ON {table}")
        await conn.execute("DROP FUNCTION stop()")
