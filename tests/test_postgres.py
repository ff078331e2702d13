"""PostgreSQL backend specifics (S3): schemas, migrations, HNSW, errors, concurrency.

The behaviour shared with every backend is in test_conformance.py; this file
covers what only PostgreSQL has. Every test uses a schema of its own.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import numpy as np
import psycopg
import pytest
from psycopg import sql

from backends import drop_pg_schema, pg_schema_url, pg_url
from chatmem import Memory
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError, InvalidInput, StoreClosed, StoreError
from chatmem.models import IndexState, Message, VectorEntry
from chatmem.store import MessageStore, VectorIndex, open_store, sqlmessages
from chatmem.store.base import OneWidth, WidthConflict
from chatmem.store.postgres import SCHEMA_VERSION, PostgresStore, compile_vector_where
from chatmem.store.postgres.lexical import PG_COUNT_SQL, pg_corpus_stats
from fake_embedding_service import Step, fresh_service


def unit_rows(n: int, dim: int, seed: int) -> np.ndarray:
    m = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


@contextlib.asynccontextmanager
async def schema_url(**params: Any) -> AsyncIterator[str]:
    """A fresh schema's URL (extra URL parameters appended); dropped afterwards."""
    base = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(base, schema)
    for key, value in params.items():
        url += f"&{key}={value}"
    try:
        yield url
    finally:
        await drop_pg_schema(base, schema)


@contextlib.asynccontextmanager
async def opened(**params: Any) -> AsyncIterator[PostgresStore]:
    async with schema_url(**params) as url:
        store = await PostgresStore.open(url)
        try:
            yield store
        finally:
            await store.close()


async def admin(query: Any, params: Any = None) -> list[Any]:
    async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as conn:
        cur = await conn.execute(query, params)
        return await cur.fetchall() if cur.description else []


async def fill(store: PostgresStore, n: int, dim: int, sessions: int = 10,
               seed: int = 1) -> list[VectorEntry]:
    vecs = unit_rows(n, dim, seed)
    msgs = await store.append([Message(session_id=f"s{i % sessions}", content=f"c{i}",
                                       ts=1000 + i, id=f"m{i:05d}") for i in range(n)])
    entries = [VectorEntry(m.id or "", m.session_id, m.ts or 0, "user", "test:m", v,
                           session_metadata={"rare": i % 500 == 7, "band": i % 20})
               for i, (m, v) in enumerate(zip(msgs, vecs))]
    for start in range(0, n, 500):
        await store.upsert(entries[start:start + 500])
    return entries


def exact(entries: list[VectorEntry], q: np.ndarray, k: int, keep: Any = None) -> list[str]:
    chosen = [e for e in entries if keep is None or keep(e)]
    scores = np.array([float(np.dot(e.vector, q)) for e in chosen])
    return [chosen[i].message_id for i in np.argsort(-scores, kind="stable")[:k]]


# --------------------------------------------------------------------------- URLs, schemas


async def test_open_store_dispatches_postgres_urls() -> None:
    async with schema_url() as url:
        store = await open_store(url)
        try:
            assert isinstance(store, PostgresStore)
            assert isinstance(store, MessageStore) and isinstance(store, VectorIndex)
            assert store.supports_delete_by_filter is True
        finally:
            await store.close()


async def test_schemas_isolate_stores_and_tables_live_in_the_schema() -> None:
    async with opened() as a, opened() as b:
        await a.append([Message(session_id="s", content="only in a", id="x")])
        assert await b.get(["x"]) == {}
        assert (await a.stats()).messages == 1 and (await b.stats()).messages == 0
        tables = {r[0] for r in await admin(
            "SELECT tablename FROM pg_tables WHERE schemaname = %s", [a.schema])}
        assert {"sessions", "messages", "vectors", "meta", "chatmem_migrations"} <= tables


@pytest.mark.parametrize("schema", ["Bad", "a-b", "x;drop", "1abc", "pg_temp2", "a" * 64,
                                    "a'); DROP TABLE vectors; --", "é"])
async def test_invalid_schema_names_are_refused(schema: str) -> None:
    with pytest.raises(ConfigError, match="schema"):
        await PostgresStore.open(pg_schema_url(pg_url(), schema))


@pytest.mark.parametrize("param", [
    "pool_size=0", "pool_size=x", "exact_threshold=-1", "ef_search=0", "ef_search=1001",
    # every query counts up to exact_threshold + 1 in a bigint LIMIT: all of them failed
    "exact_threshold=9223372036854775807",
    # over PostgreSQL's maintenance_work_mem: failed at the end of a bulk load, and then
    # every open (which builds the indexes the load left unbuilt)
    "build_memory_mb=2097152",
    "schema=a&schema=b",  # which one? (the last won)
])
async def test_bad_url_options_are_config_errors(param: str) -> None:
    with pytest.raises(ConfigError):
        await PostgresStore.open(pg_url() + ("&" if "?" in pg_url() else "?") + param)


async def test_a_url_libpq_cannot_read_is_a_config_error_naming_the_problem() -> None:
    # was a StoreError worded 'cannot connect', and a raw ValueError for a broken host
    with pytest.raises(ConfigError, match=r'"foo".*schema, pool_size'):
        await PostgresStore.open(pg_url() + ("&" if "?" in pg_url() else "?") + "foo=1")
    with pytest.raises(ConfigError, match="not a valid URL"):
        await PostgresStore.open("postgresql://me:pw@[::1/db")


@pytest.mark.parametrize("url", [
    "postgresql://me:s3cr3t%zz@127.0.0.1:1/db",  # a '%' not encoded as %25
    "postgresql://me:s3cr3t%@127.0.0.1:1/db",
    "postgresql://me:s3cr3t%00@127.0.0.1:1/db",
    "postgresql://me:s3cr3t pw@127.0.0.1:1/db",
    "postgresql://me@127.0.0.1:1/db?password=s3cr3t%00",
    "postgresql://me@127.0.0.1:1/db?connect_timeout=2&password=s3cr3t%zz",
])
async def test_a_password_libpq_cannot_read_is_never_quoted(url: str) -> None:
    # libpq's own message quoted it: 'invalid percent-encoded token: "s3cr3t%zz"'
    with pytest.raises(ConfigError, match="password is not valid in a URL") as info:
        await PostgresStore.open(url)
    assert "s3cr3t" not in str(info.value)
    assert info.value.__cause__ is None and info.value.__suppress_context__


async def test_libpq_parameters_reach_libpq_as_written() -> None:
    # a form's decoding turned %20 into '+', which libpq reads as '+': options= of any
    # -c setting failed ('unrecognized configuration parameter "+statement_timeout"')
    async with schema_url(options="-c%20statement_timeout%3D4321",
                          application_name="a%2Bb%20c") as url:
        store = await PostgresStore.open(url)
        try:
            async with store._conn() as conn:
                row = await (await conn.execute(
                    "SELECT current_setting('statement_timeout'), "
                    "current_setting('application_name')")).fetchone()
            assert row == ("4321ms", "a+b c")
        finally:
            await store.close()


async def test_a_connection_setup_that_fails_fails_the_open_at_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the pool retried it for 30 s, then said only 'pool initialization incomplete'
    async def refuse(self: PostgresStore, conn: Any) -> None:
        raise psycopg.OperationalError("setup refused")

    monkeypatch.setattr(PostgresStore, "_configure", refuse)
    async with schema_url() as url:
        started = asyncio.get_running_loop().time()
        with pytest.raises(StoreError, match="setup refused"):
            await PostgresStore.open(url)
        assert asyncio.get_running_loop().time() - started < 10


async def test_connections_a_server_restart_ended_are_replaced_not_failed() -> None:
    # a restart (or failover) ends every idle pooled connection; each failed the next
    # call made on it while the server was up again
    name = f"chatmem_{uuid.uuid4().hex[:12]}"
    async with schema_url(application_name=name) as url:
        store = await PostgresStore.open(url)
        try:
            await store.append([Message(session_id="s", content="x", id="m1")])
            held = [store._conn() for _ in range(4)]  # four connections in the pool
            for cm in held:
                await cm.__aenter__()
            for cm in held:
                await cm.__aexit__(None, None, None)
            ended = await admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                                "WHERE application_name = %s", [name])
            assert len(ended) >= 4
            for _ in range(100):
                if not await admin("SELECT 1 FROM pg_stat_activity WHERE "
                                   "application_name = %s", [name]):
                    break
                await asyncio.sleep(0.05)
            for _ in range(6):
                assert set(await store.get(["m1"])) == {"m1"}
        finally:
            await store.close()


async def test_meta_set_default_keeps_the_first_value() -> None:
    async with opened() as store:
        values = await asyncio.gather(*(store.meta_set_default("ns", "k", f"v{i}")
                                        for i in range(6)))
        assert len(set(values)) == 1 and values[0] == await store.meta_get("ns", "k")
        assert await store.meta_set_default("ns", "k", "later") == values[0]


async def test_connection_failure_is_a_store_error_without_the_password() -> None:
    with pytest.raises(StoreError, match="cannot connect") as info:
        await PostgresStore.open("postgresql://someone:s3cr3t-pw@127.0.0.1:1/nodb"
                                 "?connect_timeout=2")
    assert "s3cr3t-pw" not in str(info.value)
    assert isinstance(info.value.__cause__, psycopg.Error)


async def test_a_store_names_its_schema_in_its_errors_when_not_the_default() -> None:
    """Two stores in two schemas of one database named themselves alike, 'postgres
    (host:port/db)': an operator could not tell which schema an error is about. A schema
    other than public is named now; the user and password never are."""
    url = "postgresql://someone:s3cr3t-pw@127.0.0.1:1/nodb?connect_timeout=2"
    said = {}
    for schema in ("", "alice"):
        with pytest.raises(StoreError) as info:
            await PostgresStore.open(url + (f"&schema={schema}" if schema else ""))
        said[schema] = str(info.value)
        assert "s3cr3t-pw" not in said[schema] and "someone" not in said[schema]
    assert said[""].startswith("postgres (127.0.0.1:1/nodb) cannot connect: "), said[""]
    assert said["alice"].startswith(
        'postgres (127.0.0.1:1/nodb, schema "alice") cannot connect: '), said["alice"]
    # a store that is there: an error of its queries, and a damaged row, alike
    async with schema_url() as url_a, schema_url() as url_b:
        for where in (url_a, url_b):
            store = await PostgresStore.open(where)
            try:
                await store.append([Message(session_id="s", content="x", id="m1")])
                await admin(sql.SQL("UPDATE {}.messages SET metadata = '[1]'").format(
                    sql.Identifier(store.schema)))
                parts = urlsplit(where)
                named = f'postgres ({parts.hostname}:{parts.port}{parts.path}, ' \
                        f'schema "{store.schema}"): '
                with pytest.raises(StoreError) as info:
                    await store.get(["m1"])
                assert str(info.value).startswith(named + "damaged row in table messages "), \
                    str(info.value)
                await admin(sql.SQL("DROP TABLE {}.meta").format(sql.Identifier(store.schema)))
                with pytest.raises(StoreError) as info:
                    await store.meta_get("ns", "k")
                assert str(info.value).startswith(named), str(info.value)
            finally:
                await store.close()


# --------------------------------------------------------------------------- migrations


async def test_migrations_are_recorded_once_and_newer_schemas_refused() -> None:
    async with schema_url() as url:
        store = await PostgresStore.open(url)
        await store.append([Message(session_id="s", content="kept", id="k")])
        await store.close()
        schema = store.schema
        rows = await admin(sql.SQL("SELECT version, applied_at FROM {}.chatmem_migrations")
                           .format(sql.Identifier(schema)))
        assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
        assert all(r[1] is not None for r in rows)
        again = await PostgresStore.open(url)  # no migration is applied twice
        assert (await again.get(["k"]))["k"].content == "kept"
        await again.close()
        assert len(await admin(sql.SQL("SELECT 1 FROM {}.chatmem_migrations").format(
            sql.Identifier(schema)))) == SCHEMA_VERSION
        await admin(sql.SQL("INSERT INTO {}.chatmem_migrations (version) VALUES (999)")
                    .format(sql.Identifier(schema)))
        with pytest.raises(StoreError, match="newer chatmem"):
            await PostgresStore.open(url)


async def totals(store: PostgresStore) -> tuple[tuple[int, int], tuple[int, int], int]:
    """(the ledger's sums, a count of the rows, the ledger's rows) of a store."""
    async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as conn:
        await conn.execute(sql.SQL("SET search_path = {}").format(
            sql.Identifier(store.schema)))
        booked = await (await conn.execute(
            "SELECT coalesce(sum(docs), 0), coalesce(sum(tokens), 0), count(*) "
            "FROM lexical_totals")).fetchone()
        counted = await (await conn.execute(PG_COUNT_SQL)).fetchone()
    assert booked is not None and counted is not None
    return (int(booked[0]), int(booked[1])), (int(counted[0]), int(counted[1])), int(booked[2])


async def test_bm25_totals_follow_every_write_and_the_ledger_stays_short() -> None:
    """Migration 8: BM25's document count and token total come from a ledger each write
    appends to in its own transaction (no scan of the rows, whose pages autovacuum may
    not have marked visible yet), through every kind of write: pending entries at
    append, vectors replacing them, rewrites, deletes, erasure, clears, entries of a
    separate vector index; compaction keeps the ledger a few hundred rows at most."""
    async with opened() as store:
        entries = await fill(store, 300, 8)
        for i in range(0, 300, 7):  # one booking each: past a compaction
            await store.rewrite(f"s{i % 10}", 1000 + i, content=f"now longer words {i} x y")
        await store.append([Message(session_id="p", content=f"pending {i} words", id=f"p{i}",
                                    ts=5000 + i) for i in range(40)])
        booked, counted, _ = await totals(store)
        assert booked == counted and counted[0] == 340
        await store.upsert(entries[:50])  # replaced: the rewritten texts' lengths go
        await store.delete_messages(["m00003", "p1"])
        await store.erase_messages(["m00004", "p2"])
        await store.delete_vectors(["m00005"])
        await store.delete_by_filter({"session_id": "s9"})
        await store.clear_vectors("s8")
        sep = [VectorEntry(f"p{i}", "p", 5000 + i, "user", "test:m", None, text=f"side {i}")
               for i in range(10, 20)]
        await store.upsert_lexical(sep)
        await store.delete_lexical(["p10"])
        await store.clear_lexical("p")
        booked, counted, rows = await totals(store)
        assert booked == counted
        assert rows <= 256
        # a full-text query reads them
        async with store._conn() as conn:
            await conn.execute("SELECT set_config('search_path', %s, false)",
                               [store._search_path])
            stats = await pg_corpus_stats(conn, ["pending"])
        assert (stats.n_docs, stats.avgdl) == (counted[0], counted[1] / counted[0])
        await store.clear_vectors()
        await store.clear_messages()
        assert (await totals(store))[:2] == ((0, 0), (0, 0))
        options = {r[0]: r[1] for r in await admin(
            "SELECT c.relname, c.reloptions FROM pg_class c JOIN pg_namespace n "
            "ON n.oid = c.relnamespace WHERE n.nspname = %s", [store.schema])}
    for table in ("vectors", "lexical_entries"):  # migration 7, for the GIN counts
        assert "autovacuum_vacuum_insert_scale_factor=0.01" in (options[table] or []), \
            options[table]
    assert "vectors_lex_len" not in options  # migration 8 dropped migration 6's indexes


async def test_bm25_totals_hold_under_concurrent_writers() -> None:
    """Writers in several processes (stores) on one schema, on overlapping messages: the
    ledger is appended to, never updated, so no writer waits for another on it, and the
    sums still equal a count of the rows."""
    async with schema_url() as url:
        stores = [await PostgresStore.open(url) for _ in range(4)]
        try:
            vecs = unit_rows(200, 8, 3)

            await stores[0].append([Message(session_id="r", content=f"r{i}", id=f"r{i}",
                                            ts=100 + i) for i in range(10)])

            async def writer(k: int, store: PostgresStore) -> None:
                for r in range(5):
                    ids = [f"m{(k * 17 + r * 31 + j) % 120}" for j in range(30)]
                    await store.append([Message(session_id="s", content=f"message {mid}",
                                                id=mid, ts=10_000 + int(mid[1:]))
                                        for mid in ids])
                    await store.upsert([VectorEntry(mid, "s", 10_000 + int(mid[1:]), "user",
                                                    "test:m", vecs[int(mid[1:])],
                                                    text=f"{k} {r} " * (1 + j % 4))
                                        for j, mid in enumerate(ids[:20])])
                    await store.delete_vectors(ids[18:22])
                    await store.delete_messages(ids[25:])
                    await store.rewrite("r", 100 + (k + r) % 10, content=f"re {k} {r} " * r)
                    if r == 3:
                        await store.delete_by_filter({"session_id": "s", "ts": {"$lt": 10_010}})

            # a failing writer stops the others: the totals are compared at rest
            async with asyncio.TaskGroup() as group:
                for k, s in enumerate(stores):
                    group.create_task(writer(k, s))
            booked, counted, _ = await totals(stores[0])
            assert booked == counted and counted[0] > 0
        finally:
            for s in stores:
                await s.close()


async def test_deletes_and_upserts_of_the_same_messages_never_deadlock() -> None:
    """Every writer of a message locks its row first, in id order: a delete that locked
    vector rows in the table's order, or deleted a message added after its lock, waited
    for an upsert that waited for it (PostgreSQL aborted one: a StoreError to the
    caller). Four stores on overlapping messages, each kind of delete in every round."""
    async with schema_url() as url:
        stores = [await PostgresStore.open(url) for _ in range(4)]
        try:
            vecs = unit_rows(60, 8, 5)

            async def writer(k: int, store: PostgresStore) -> None:
                rng = np.random.default_rng(k)
                for r in range(12):
                    ids = [f"m{i}" for i in rng.permutation(60)[:40]]
                    await store.append([Message(session_id=f"s{int(mid[1:]) % 2}",
                                                content=f"message {mid}", id=mid,
                                                ts=10_000 + int(mid[1:])) for mid in ids])
                    await store.upsert([VectorEntry(mid, f"s{int(mid[1:]) % 2}",
                                                    10_000 + int(mid[1:]), "user", "test:m",
                                                    vecs[int(mid[1:])], text=f"{k} {r}")
                                        for mid in reversed(ids[:30])])
                    await store.delete_vectors(ids[20:35])
                    await store.delete_by_filter({"ts": {"$gte": 10_000 + 5 * (r % 6),
                                                         "$lt": 10_010 + 5 * (r % 6)}})
                    await store.delete_messages(ids[32:])
                    if r % 4 == 3:
                        await store.clear_vectors(f"s{k % 2}")

            async with asyncio.TaskGroup() as group:
                for k, s in enumerate(stores):
                    group.create_task(writer(k, s))
            booked, counted, _ = await totals(stores[0])
            assert booked == counted
        finally:
            for s in stores:
                await s.close()


async def test_a_store_of_schema_7_gets_its_bm25_totals_counted_once() -> None:
    """Opening a store written before migration 8 counts its rows into the ledger, with
    both tables locked against writers meanwhile."""
    async with schema_url() as url:
        store = await PostgresStore.open(url)
        await fill(store, 120, 8)
        await store.append([Message(session_id="p", content=f"pending {i}", id=f"p{i}",
                                    ts=9000 + i) for i in range(15)])
        expected = (await totals(store))[1]
        await store.close()
        ident = sql.Identifier(store.schema)
        await admin(sql.SQL("DROP TABLE {}.lexical_totals").format(ident))
        await admin(sql.SQL("CREATE INDEX vectors_lex_len ON {}.vectors (lex_len) "
                            "WHERE lex IS NOT NULL").format(ident))
        await admin(sql.SQL("CREATE INDEX lexical_entries_lex_len ON {}.lexical_entries "
                            "(lex_len) WHERE lex IS NOT NULL").format(ident))
        await admin(sql.SQL("DROP TABLE {}.lexical_totals_checked").format(ident))  # 9
        await admin(sql.SQL("DROP INDEX {}.messages_time, {}.messages_speaker")
                    .format(ident, ident))  # 10
        await admin(sql.SQL("DROP INDEX {}.vectors_model_dim").format(ident))  # 11
        await admin(sql.SQL("DELETE FROM {}.chatmem_migrations WHERE version >= 8")
                    .format(ident))
        again = await PostgresStore.open(url)
        try:
            booked, counted, rows = await totals(again)
            assert booked == counted == expected and expected[0] == 135 and rows == 1
            await again.delete_messages(["p0"])
            assert (await totals(again))[0] == (134, expected[1] - 2)
        finally:
            await again.close()


async def test_rows_written_without_booking_are_counted_at_an_open_an_hour_later(
        caplog: pytest.LogCaptureFixture) -> None:
    """A process of an older chatmem, still running beside one that applied migration 8,
    writes rows without booking them: an open at least an hour after the last check
    (the database's clock) finds the difference in one snapshot, books it and says so;
    opens within the hour do not count the rows again."""
    async with schema_url() as url:
        store = await PostgresStore.open(url)
        await fill(store, 40, 8)
        await store.close()
        ident = sql.Identifier(store.schema)
        last_check = sql.SQL("UPDATE {}.lexical_totals_checked SET at = 0").format(ident)

        async def unbooked_writes(mid: str) -> None:  # what an older chatmem does
            await admin(sql.SQL("DELETE FROM {}.vectors WHERE message_id = %s").format(ident),
                        [mid])

        async def reopen() -> str:
            caplog.clear()
            with caplog.at_level("WARNING", logger="chatmem.store.postgres"):
                await (await PostgresStore.open(url)).close()
            return caplog.text

        await unbooked_writes("m00001")
        await admin(sql.SQL("UPDATE {}.vectors SET lex = 'a:1 b:2 c:3', lex_len = 3 "
                            "WHERE message_id = 'm00002'").format(ident))
        assert "BM25" not in await reopen()  # checked at creation, less than an hour ago
        await admin(last_check)  # an hour later
        assert "BM25's totals were off by -1 rows" in await reopen()
        await unbooked_writes("m00003")
        assert "BM25" not in await reopen()
        await admin(last_check)
        assert "off by -1 rows" in await reopen()
        again = await PostgresStore.open(url)
        try:
            booked, counted, _ = await totals(again)
            assert booked == counted
        finally:
            await again.close()


async def test_a_store_of_schema_4_upgrades_in_place_to_leases() -> None:
    """R5: a store written before leases (schema 4) gains the claim columns at open (and
    migration 6's indexes); its messages stay as they were, and the waiting ones can be
    claimed."""
    async with schema_url() as url:
        store = await PostgresStore.open(url)
        await store.append([Message(session_id="s", content=f"c{i}", id=f"m{i}", ts=i)
                            for i in range(3)])
        await store.close()
        ident = sql.Identifier(store.schema)
        # back to schema 4: what a chatmem before leases left
        await admin(sql.SQL("ALTER TABLE {}.messages DROP COLUMN claim_owner, "
                            "DROP COLUMN claim_until").format(ident))
        await admin(sql.SQL("DROP TABLE {}.lexical_totals, {}.lexical_totals_checked")
                    .format(ident, ident))  # migrations 8 and 9
        await admin(sql.SQL("DROP INDEX {}.messages_time, {}.messages_speaker")
                    .format(ident, ident))  # migration 10
        await admin(sql.SQL("DROP INDEX {}.vectors_model_dim").format(ident))  # 11
        await admin(sql.SQL("DELETE FROM {}.chatmem_migrations WHERE version >= 5")
                    .format(ident))
        again = await PostgresStore.open(url)
        try:
            rows = await admin(sql.SQL("SELECT version FROM {}.chatmem_migrations")
                               .format(ident))
            assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
            indexes = {r[0] for r in await admin(
                "SELECT indexname FROM pg_indexes WHERE schemaname = %s", [again.schema])}
            assert not {"vectors_lex_len", "lexical_entries_lex_len"} & indexes  # 6, 8
            assert {"messages_time", "messages_speaker"} <= indexes  # 10
            assert "vectors_model_dim" in indexes  # 11
            assert "lexical_totals_pkey" in indexes  # migration 8
            assert [m.content for m in await again.pending(10)] == ["c0", "c1", "c2"]
            assert (await again.claim("p", ["m0", "m1"], 60_000)).ids == ["m0", "m1"]
            other = await again.claim("q", ["m1", "m2"], 60_000)
            assert other.ids == ["m2"] and other.held_ms is not None
            claims = await admin(sql.SQL("SELECT id, claim_owner FROM {}.messages ORDER BY id")
                                 .format(ident))
            assert claims == [("m0", "p"), ("m1", "p"), ("m2", "q")]
        finally:
            await again.close()


async def test_concurrent_opens_of_a_fresh_schema_do_not_race() -> None:
    async with schema_url() as url:
        stores = await asyncio.gather(*(PostgresStore.open(url) for _ in range(4)))
        try:
            await stores[0].append([Message(session_id="s", content="x", id="x")])
            for s in stores:
                assert (await s.get(["x"]))["x"].content == "x"
            rows = await admin(sql.SQL("SELECT version FROM {}.chatmem_migrations").format(
                sql.Identifier(stores[0].schema)))
            assert [r[0] for r in rows] == list(range(1, SCHEMA_VERSION + 1))
        finally:
            for s in stores:
                await s.close()


# --------------------------------------------------------------------------- errors


async def test_driver_errors_become_store_errors_and_close_is_final() -> None:
    async with opened() as store:
        # a column gone, not the table: a dropped table would be looked up in the next
        # schema of the search path (pgvector's, often public), where another store's
        # tables may live
        await admin(sql.SQL("ALTER TABLE {}.meta RENAME COLUMN value TO v").format(
            sql.Identifier(store.schema)))
        with pytest.raises(StoreError) as info:
            await store.meta_get("a", "b")
        assert isinstance(info.value.__cause__, psycopg.Error)
        assert not isinstance(info.value, StoreClosed)
        await store.close()
        with pytest.raises(StoreClosed):
            await store.get(["x"])
        with pytest.raises(StoreClosed):
            await store.query(unit_rows(1, 4, 1)[0], 3)


async def test_what_jsonb_cannot_hold_is_invalid_input_and_nothing_is_written() -> None:
    async with opened() as store:
        for bad in ({"x": float("nan")}, {"x": float("inf")}, {"x": "a\x00b"}, {"a\x00": 1}):
            with pytest.raises(InvalidInput, match="metadata"):
                await store.append([Message(session_id="s", content="ok", id="fine"),
                                    Message(session_id="s", content="bad", metadata=bad)])
        assert (await store.stats()).messages == 0
        [m] = await store.append([Message(session_id="s", content="x", id="m1")])
        [m2] = await store.append([Message(session_id="s", content="y", id="m2")])
        v = unit_rows(2, 4, 3)
        good = VectorEntry("m1", "s", m.ts or 0, "user", "test:m", v[0])
        bad_entry = VectorEntry("m2", "s", m2.ts or 0, "user", "test:m", v[1],
                                message_metadata={"x": float("nan")})
        with pytest.raises(InvalidInput):
            await store.upsert([good, bad_entry])
        # the batch is one transaction: neither vector nor index state was written
        assert await store.count_by_model() == {}
        assert set((await store.index_states(["m1", "m2"])).values()) == {IndexState.PENDING}


# --------------------------------------------------------------------------- concurrency


async def test_concurrent_appends_stagger_timestamps_and_dedupe_ids() -> None:
    async with opened() as store:
        batches = await asyncio.gather(*(
            store.append([Message(session_id="busy", content=f"c{i}", ts=5000)])
            for i in range(16)))
        assert sorted(b[0].ts or 0 for b in batches) == list(range(5000, 5016))
        same = await asyncio.gather(*(
            store.append([Message(session_id="dup", content="same", id="one", ts=1)])
            for _ in range(8)))
        assert all(s == same[0] for s in same)
        assert (await store.stats()).messages == 17


async def test_stagger_past_a_long_run_of_taken_timestamps() -> None:
    async with opened() as store:
        await store.append([Message(session_id="s", content=f"c{i}", ts=100 + i)
                            for i in range(300)])
        [m] = await store.append([Message(session_id="s", content="late", ts=100)])
        assert m.ts == 400
        got = await store.append([Message(session_id="s", content=f"d{i}", ts=50 + 10 * i)
                                  for i in range(30)])
        assert [x.ts for x in got] == [50 + 10 * i for i in range(5)] + list(range(401, 426))


# --------------------------------------------------------------------------- HNSW


async def test_one_partial_hnsw_index_per_dimension() -> None:
    async with opened() as store:
        msgs = await store.append([Message(session_id="s", content=f"c{i}", ts=i)
                                   for i in range(6)])
        sizes = [8, 8, 16, 16, 2048, 2048]
        await store.upsert([VectorEntry(m.id or "", "s", i, "user", f"m{d}",
                                        unit_rows(1, d, i)[0])
                            for i, (m, d) in enumerate(zip(msgs, sizes))])
        rows = await admin("SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = %s "
                           "AND indexname LIKE 'vectors_hnsw_%%' ORDER BY 1", [store.schema])
        assert [r[0] for r in rows] == ["vectors_hnsw_16", "vectors_hnsw_8"]
        assert "hnsw" in rows[0][1] and "vector(16)" in rows[0][1]
        assert "vector_cosine_ops" in rows[0][1] and "(dim = 16)" in rows[0][1]
        # past HNSW's 2000 dimensions: no index, exact search still works
        q = unit_rows(1, 2048, 4)[0]
        assert len(await store.query(q, 5)) == 2
        # a reopened store knows its indexes
        again = await PostgresStore.open(pg_schema_url(pg_url(), store.schema))
        assert again._hnsw_dims == {8, 16}
        await again.close()


@pytest.mark.parametrize("newest_first", [False, True])
@pytest.mark.parametrize("speaker", [None, "u3"])
async def test_a_page_without_a_session_walks_an_index(newest_first: bool,
                                                       speaker: str | None) -> None:
    """Migration 10: ``list_messages`` without a session reads ``messages (ts, id
    COLLATE "C")`` (with a speaker, ``(speaker_id, ts, id COLLATE "C")``) in its order
    from its position, no sort of the table (the SQLite side: test_list_order.py)."""
    async with opened() as store:
        await store.append([Message(session_id=f"s{i % 7}", content=f"m{i}", ts=i,
                                    speaker_id=f"u{i % 50}") for i in range(1, 5000)])
        # with a speaker and a time range either index serves (the planner weighs them)
        index = ("messages_time",) if speaker is None else ("messages_speaker",
                                                            "messages_time")
        async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as conn:
            await conn.execute(sql.SQL("SET search_path = {}").format(
                sql.Identifier(store.schema)))
            await conn.execute("ANALYZE messages")
            for plan_kind in ("seqscan", "bitmapscan", "sort"):  # a small table: the
                # planner would rather sort it; what is asked is that the walk exists
                await conn.execute(f"SET enable_{plan_kind} = off")
            for window in ({}, {"since": 10, "until": 3000}):
                for after in (None, (1500, "zz")):
                    text, params = sqlmessages.list_query(
                        sqlmessages.POSTGRES, session_ids=None, speaker_id=speaker,
                        after=after, limit=20, newest_first=newest_first,
                        since=window.get("since"), until=window.get("until"))
                    plan = "\n".join(r[0] for r in await (await conn.execute(
                        "EXPLAIN " + text, params)).fetchall())
                    assert any(i in plan for i in index) and "Sort" not in plan, plan
                    if speaker is not None and not window:
                        assert "messages_speaker" in plan, plan
                    if after is not None:  # from the position, not from the start
                        assert "Index Cond" in plan and "1500" in plan, plan


async def test_hnsw_plan_uses_the_partial_index() -> None:
    async with opened(exact_threshold=0) as store:
        await fill(store, 2000, 32)
        q = unit_rows(1, 32, 9)[0]
        async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as conn:
            from pgvector.psycopg import register_vector_async

            await conn.execute(sql.SQL("SET search_path = {}, public").format(
                sql.Identifier(store.schema)))
            await register_vector_async(conn)
            await conn.execute("ANALYZE vectors")
            await conn.execute("SET enable_seqscan = off")  # small table: force the choice
            plan = "\n".join(r[0] for r in await (await conn.execute(
                sql.SQL("EXPLAIN ") + store.hnsw_sql(32, "TRUE"), [q, 10])).fetchall())
            assert "vectors_hnsw_32" in plan, plan
            # a jsonb filter (no B-tree for it): the HNSW scan, filtered
            frag, params = compile_vector_where({"meta.rare": False})
            plan = "\n".join(r[0] for r in await (await conn.execute(
                sql.SQL("EXPLAIN ") + store.hnsw_sql(32, frag), [q, *params, 10])
            ).fetchall())
            assert "Index Scan using vectors_hnsw_32" in plan, plan


async def test_hnsw_path_recall_and_narrow_filters_return_k() -> None:
    async with opened(exact_threshold=0) as store:
        entries = await fill(store, 3000, 32, sessions=20)
        queries = unit_rows(10, 32, 77)
        overlap = []
        for q in queries:
            got = [h.message_id for h in await store.query(q, 10)]
            assert store.last_search == "hnsw"
            overlap.append(len(set(got) & set(exact(entries, q, 10))) / 10)
            scores = [h.score for h in await store.query(q, 10)]
            assert scores == sorted(scores, reverse=True)
        assert np.mean(overlap) >= 0.9, overlap
        for q in queries[:3]:
            # 150 of 3000 rows: iterative scan (or the exact rerun) still returns k
            hits = await store.query(q, 10, {"session_id": "s3"})
            assert len(hits) == 10 and {h.session_id for h in hits} == {"s3"}
            # 6 of 3000 rows, filtered on jsonb: every one of them, in exact order
            rare = await store.query(q, 10, {"meta.rare": True})
            want = exact(entries, q, 10, lambda e: e.session_metadata["rare"])
            assert [h.message_id for h in rare] == want and len(want) == 6
            assert store.last_search in ("hnsw", "hnsw+exact")
            # 5% of the rows on jsonb: the iterative scan finds k without an exact rerun
            band = await store.query(q, 10, {"meta.band": 3})
            assert store.last_search == "hnsw"
            assert len(band) == 10 and all(int(h.message_id[1:]) % 20 == 3 for h in band)
            want = exact(entries, q, 10, lambda e: e.session_metadata["band"] == 3)
            assert len(set(want) & {h.message_id for h in band}) >= 8


async def test_small_tables_and_selective_filters_search_exactly() -> None:
    async with opened(exact_threshold=500) as store:
        entries = await fill(store, 1200, 16, sessions=4)
        q = unit_rows(1, 16, 5)[0]
        got = [h.message_id for h in await store.query(q, 20, {"session_id": "s2"})]
        assert store.last_search == "exact"  # 300 rows match: under the threshold
        assert got == exact(entries, q, 20, lambda e: e.session_id == "s2")
        await store.query(q, 20)
        assert store.last_search == "hnsw"  # 1200 rows: over it
        got = [h.message_id for h in await store.query(q, 1100)]
        assert store.last_search == "exact"  # k beyond hnsw.ef_search's ceiling
        assert got == exact(entries, q, 1100)
        await store.query(unit_rows(1, 5, 1)[0], 3)
        assert store.last_search == "none"


async def test_a_second_process_writes_are_seen_at_once() -> None:
    async with opened() as a:
        b = await PostgresStore.open(pg_schema_url(pg_url(), a.schema))
        try:
            q = unit_rows(1, 8, 1)[0]
            assert await a.query(q, 5) == []  # an empty size is never cached
            [m] = await b.append([Message(session_id="s", content="x", id="x")])
            await b.upsert([VectorEntry("x", "s", m.ts or 0, "user", "test:m", q)])
            assert [h.message_id for h in await a.query(q, 5)] == ["x"]
            assert await b.delete_vectors(["x"]) == 1
            assert await a.query(q, 5) == []  # a cached size only picks the path
        finally:
            await b.close()


async def test_two_processes_never_write_two_first_widths_of_a_model() -> None:
    # OneWidth across processes: the look at the model's widths and the write are one
    # step, under a lock per model held to the commit. Process a's write of width 8 (the
    # store holding no vector of the model) is held up after its look by a third
    # connection holding its message's row; process b's write of width 12 waits for it,
    # then sees the 8 and is refused. A write of the width held only shares the lock.
    async with opened() as a:
        b = await PostgresStore.open(pg_schema_url(pg_url(), a.schema))
        hold = await psycopg.AsyncConnection.connect(pg_url())
        try:
            m1, m2, m3, m4 = await a.append([Message(session_id="s", content=f"c{i}", ts=i)
                                             for i in range(4)])

            def entry(m: Message, dim: int, seed: int) -> VectorEntry:
                return VectorEntry(m.id or "", "s", m.ts or 0, "user", "test:m",
                                   unit_rows(1, dim, seed)[0], text=m.content)

            async def waiting(n: int, *tasks: asyncio.Future[None]) -> None:
                """Until ``n`` backends wait for a lock, or one of ``tasks`` ended."""
                for _ in range(1000):
                    rows = await admin("SELECT count(DISTINCT pid) FROM pg_locks "
                                       "WHERE NOT granted")
                    if rows[0][0] >= n or any(t.done() for t in tasks):
                        return
                    await asyncio.sleep(0.01)
                raise AssertionError(f"{n} waiting backends never seen")

            rule = OneWidth()
            await hold.execute(sql.SQL("SELECT 1 FROM {}.messages WHERE id = %s FOR UPDATE")
                               .format(sql.Identifier(a.schema)), [m1.id])
            first = asyncio.ensure_future(a.upsert([entry(m1, 8, 1)], current_only=True,
                                                   one_width=rule))
            await waiting(1, first)
            second = asyncio.ensure_future(b.upsert([entry(m2, 12, 2)], current_only=True,
                                                    one_width=rule))
            await waiting(2, first, second)
            assert not second.done()  # it waits for the first width's commit
            await hold.rollback()
            await first
            with pytest.raises(WidthConflict) as refused:
                await second
            assert (refused.value.width, refused.value.held) == (12, 8)
            assert await b.vector_sizes() == {"test:m": frozenset({8})}
            assert (await b.index_states([m2.id or ""]))[m2.id or ""] == IndexState.PENDING
            # writers of the width held do not wait for each other
            await hold.execute(sql.SQL("SELECT 1 FROM {}.messages WHERE id = %s FOR UPDATE")
                               .format(sql.Identifier(a.schema)), [m3.id])
            third = asyncio.ensure_future(a.upsert([entry(m3, 8, 3)], current_only=True,
                                                   one_width=rule))
            await waiting(1, third)
            await b.upsert([entry(m4, 8, 4)], current_only=True, one_width=rule)
            assert not third.done()
            await hold.rollback()
            await third
            assert await a.count_by_model() == {"test:m": 3}
        finally:
            await hold.close()
            await b.close()


# --------------------------------------------------------------------------- facade


async def test_memory_end_to_end_on_postgres(bow_embedder: Embedder) -> None:
    async with schema_url() as url:
        mem = await Memory.open(url, embedder=bow_embedder)
        try:
            await mem.add(Message(session_id="s1", content="The deadline is in two weeks",
                                  speaker_id="u1", speaker_name="Alex"))
            await mem.add(Message(session_id="s1", content="I had pasta for lunch",
                                  speaker_id="u1", speaker_name="Alex"))
            await mem.flush()
            stats = await mem.store.stats()
            assert stats.indexed == 2 and stats.pending == 0
            result = await mem.recall("deadline weeks", session="s1")
            assert result.hits and "deadline" in result.hits[0].message.content
        finally:
            await mem.close()


# --------------------------------------------------------------------------- full text


async def test_a_query_restricted_to_ids_scores_with_the_statistics_of_the_search_before(
) -> None:
    """Recall measures the full-text scores of its dense candidates by a query restricted
    to their ids right after its full-text search: that query reuses the search's corpus
    statistics (a second scan of the index was most of a recall's time), so its scores
    are on the search's scale even when another process writes in between."""
    filler = " ".join(f"w{i}" for i in range(12))
    async with schema_url() as url:
        a, b = await PostgresStore.open(url), await PostgresStore.open(url)
        try:
            await a.append([Message(session_id="s", content=f"kiwi harvest {i} {filler}",
                                    id=f"k{i}") for i in range(3)]
                           + [Message(session_id="s", content=f"pear {i} {filler}",
                                      id=f"p{i}") for i in range(6)])
            first = {h.message_id: h.score for h in await a.lexical_query("kiwi harvest", 10)}
            assert set(first) == {"k0", "k1", "k2"}
            # another process makes "kiwi" and "harvest" common: their weight drops
            await b.append([Message(session_id="s", content=f"kiwi harvest note {i}",
                                    id=f"n{i}") for i in range(12)])
            only = {"message_id": {"$in": sorted(first)}}
            measured = {h.message_id: h.score for h in await a.lexical_query(
                "kiwi harvest", 10, only)}
            assert measured == first
            # without a search of that text before it, a restricted query counts afresh
            fresh = {h.message_id: h.score for h in await b.lexical_query(
                "kiwi harvest", 10, only)}
            assert set(fresh) == set(first)
            assert all(fresh[m] < first[m] for m in first)
            # a full search always counts afresh (it is what the statistics come from)
            again = {h.message_id: h.score for h in await a.lexical_query("kiwi harvest", 20)}
            assert {m: again[m] for m in first} == fresh
        finally:
            await a.close()
            await b.close()


async def test_a_word_over_postgresqls_lexeme_limit_is_stored_and_found_as_in_sqlite() -> None:
    # a token over 2047 bytes (a long URL, a base64 blob) made the message's full-text
    # row fail: its add raised StoreError 'word is too long', and a query holding one
    # lost full-text search; SQLite takes both
    from chatmem.store import SqliteStore

    blob, other = "y" * 3000, "é" * 1200 + "z" * 1000  # the second: multibyte, cut inside
    texts = {"long": f"pizza {blob} {other}", "twice": f"{blob} {blob} cheese",
             "short": "pizza with cheese"}
    sqlite = await SqliteStore.open(":memory:")
    try:
        async with opened() as pg:
            results = []
            for store in (sqlite, pg):
                msgs = await store.append([Message(session_id="s", content=t, id=i, ts=1 + n)
                                           for n, (i, t) in enumerate(texts.items())])
                await store.upsert([VectorEntry(m.id or "", "s", m.ts or 0, "user", "t:m", v,
                                                text=m.content)
                                    for m, v in zip(msgs, unit_rows(3, 4, 5))])
                results.append([[(h.message_id, round(h.score, 6))
                                 for h in await store.lexical_query(q, 5)]
                                for q in (blob, f"{other} pizza", "cheese")])
            assert results[0] == results[1]
            assert [h for h, _ in results[1][0]] == ["twice", "long"]
    finally:
        await sqlite.close()


async def test_a_message_lock_with_a_pool_of_one_connection_leaves_it_for_the_writes(
        ) -> None:
    """pool_size=1: a message's lock (Memory.rewrite, a LangGraph put replacing an item)
    held the pool's only connection, and the rewrite under it waited for one until the
    pool's timeout (30 s, then a StoreError). The lock now has a connection of its own
    there; it still orders the rewrites of one message across stores."""
    import chatmem.testing

    async with schema_url(pool_size=1) as url, \
            await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
        await mem.add({"session_id": "s", "content": "hello there", "ts": 5})
        done = await asyncio.wait_for(mem.rewrite("s", 5, content="bye now"), 10)
        assert done.content == "bye now"
        other = await PostgresStore.open(url)

        async def take() -> None:
            async with other.message_lock("s", 5):
                pass

        try:
            async with mem.store.message_lock("s", 5):
                waiting = asyncio.ensure_future(take())
                await asyncio.sleep(0.3)
                assert not waiting.done()  # the other store waits for this lock
                await asyncio.wait_for(mem.store.get(["x"]), 10)  # the pool is free
            await asyncio.wait_for(waiting, 10)
        finally:
            await other.close()


# ------------------------------------------------------------------ the store going away

#: The cluster .ci/postgres.sh runs the tests' PostgreSQL in (its own default).
PG_DIR = Path(os.environ.get("CHATMEM_PG_DIR", "/tmp/chatmem-pg"))


def _cluster_or_skip() -> Callable[[str], None]:
    """``.ci/postgres.sh stop`` / ``start`` of the test cluster, when the test URL is the
    cluster of ``CHATMEM_PG_DIR`` (its postmaster.pid names the URL's port): no other
    server is ever stopped."""
    port = urlsplit(pg_url()).port or 5432
    try:
        lines = (PG_DIR / "postmaster.pid").read_text().splitlines()
    except OSError:
        lines = []
    if len(lines) < 4 or lines[3].strip() != str(port):
        pytest.skip(f"the test PostgreSQL (port {port}) is not the cluster .ci/postgres.sh "
                    f"runs in {PG_DIR}: set CHATMEM_PG_DIR to stop and start it")
    script = Path(__file__).resolve().parent.parent / ".ci" / "postgres.sh"
    env = {**os.environ, "CHATMEM_PG_DIR": str(PG_DIR), "CHATMEM_PG_PORT": str(port)}

    def run(action: str) -> None:
        subprocess.run(["bash", str(script), action], env=env, check=True, timeout=120,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    return run


def test_listening_again_after_a_long_outage_waits_at_most_5_s() -> None:
    """The connection an indexer LISTENs on for pending announcements, lost (the
    server stopped), is opened again after 1 s, then 2, 4, and at most 5 s between
    attempts: it doubled up to 60 s, so after an outage of a minute or more a process
    heard another's announcement up to a minute after the server was back (measured
    by hand: 55.8 s after a 70 s outage, with lease_s 600; now 1.7 s)."""
    from chatmem.store.postgres import LISTEN_RETRY_MAX_S, listen_retry_pause

    schedule = [listen_retry_pause(n) for n in range(1, 12)]
    assert schedule == [1.0, 2.0, 4.0] + [5.0] * 8
    assert LISTEN_RETRY_MAX_S == 5.0
    assert listen_retry_pause(10**9) == 5.0  # however long the outage
    assert sum(schedule[:6]) < 30  # six refused attempts within the first 30 s


async def test_messages_left_by_a_store_outage_are_indexed_soon_after_it_ends() -> None:
    """A process whose PostgreSQL went away and came back left the messages waiting
    until its next periodic sweep, ``lease_s`` later: the sweep that was to find them
    failed (the store down), and was not tried again before then. Now a failed sweep is
    tried again after a pause growing per failure (so a store still down is not asked
    in a loop) and at once when a store call succeeds. The store fails here as in a
    failover: each query the indexer makes waits on a lock until its connection is
    ended (the batch's write, then each sweep), then the server is stopped and started
    (.ci/postgres.sh). ``lease_s`` is 600 s: the messages must be recallable well
    before the periodic sweep."""
    cluster = _cluster_or_skip()
    name = f"chatmem_{uuid.uuid4().hex[:12]}"
    with fresh_service(dims=16) as service:
        async with schema_url(application_name=name) as url:
            config = {"embedding": service.config("openai", model="bow", max_retries=0,
                                                  timeout=30.0, cache={"enabled": False}),
                      "indexing": {"retry_initial_s": 0.2, "retry_max_s": 1.0,
                                   "lease_s": 600.0}}
            mem = await Memory.open(url, config=config)
            try:
                service.script(Step(delay=2.0))  # being embedded when the store fails
                acked = await mem.add([Message(
                    session_id="s", content=f"the spare key {i} is under the blue pot")
                    for i in range(5)])
                await asyncio.to_thread(service.wait_for, 1)
                schema = parse_qs(urlsplit(url).query)["schema"][0]
                lock = await psycopg.AsyncConnection.connect(pg_url(), autocommit=True)
                await lock.execute("BEGIN")
                await lock.execute(sql.SQL("LOCK TABLE {}.messages IN ACCESS EXCLUSIVE "
                                           "MODE").format(sql.Identifier(schema)))
                ended = 0
                try:
                    deadline = time.monotonic() + 6
                    while time.monotonic() < deadline:  # the write, then sweeps, fail
                        ended += len(await admin(
                            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE "
                            "application_name = %s AND wait_event_type = 'Lock'", [name]))
                        await asyncio.sleep(0.1)
                    cluster("stop")  # the lock goes with it
                    cluster("start")
                finally:
                    await lock.close()
                assert ended >= 2
                deadline = time.monotonic() + 60  # generous, and far below lease_s
                while (await mem.stats())["indexed"] < len(acked):
                    assert time.monotonic() < deadline, await mem.stats()
                    await asyncio.sleep(0.2)
                result = await mem.recall("where is the spare key 3?", session="s")
                assert not result.degraded
                assert acked[3].id in [h.message.id for h in result.hits]
            finally:
                await mem.close()


async def _takes_without_waiting(take: Callable[[], Any]) -> None:
    """``take()`` (a coroutine that takes a lock) runs to its end while another store
    holds its lock: no advisory lock of this database is ever waited for (pg_locks's
    not granted). Decided by what PostgreSQL says, not by a time: the wait shows there
    as soon as it begins, and a lock taken ends the task."""
    task = asyncio.ensure_future(take())
    try:
        while not task.done():
            waiting = await admin("SELECT count(*) FROM pg_locks WHERE locktype = "
                                  "'advisory' AND NOT granted AND database = "
                                  "(SELECT oid FROM pg_database WHERE datname = "
                                  "current_database())")
            assert waiting == [(0,)], "a store waits on a lock of another schema's store"
            await asyncio.sleep(0.02)
        await task
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def _until_it_waits(task: asyncio.Future[Any]) -> None:
    """Returns once pg_locks shows an advisory lock waited for (not granted), or
    ``task`` ended (it took its lock without waiting)."""
    while not task.done() and not await admin(
            "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted"):
        await asyncio.sleep(0.02)


async def test_stores_in_two_schemas_of_one_database_never_wait_on_each_others_locks(
        ) -> None:
    """Advisory locks belong to the database: a session's append lock and a message's
    rewrite lock were keyed by the session (and time) alone, so a store in schema a
    holding one made the store in schema b wait, for a session of the same name. Each is
    now keyed in its schema; within one schema the lock still excludes (checked with the
    key the store computes itself, held from a connection of its own)."""
    async with schema_url() as url_a, schema_url() as url_b:
        a, b = await PostgresStore.open(url_a), await PostgresStore.open(url_b)
        try:
            # a message's lock (Memory.rewrite, a LangGraph put): a holds it, b takes its own
            async with a.message_lock("s1", 5):
                async def rewrite_lock_b() -> None:
                    async with b.message_lock("s1", 5):
                        pass
                await _takes_without_waiting(rewrite_lock_b)
            # a session's append lock, held as a's append holds it (its key, its class)
            async with await psycopg.AsyncConnection.connect(pg_url()) as held:
                await held.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                                   [0x63686D + 1, a._lock_name("s1")])
                await _takes_without_waiting(lambda: b.append(
                    [Message(session_id="s1", content="in b", ts=1)]))
                waiting = asyncio.ensure_future(a.append(
                    [Message(session_id="s1", content="in a", ts=1)]))
                try:  # the same key in a's own schema: a's append waits for it
                    await _until_it_waits(waiting)
                    assert not waiting.done(), "a's append did not take the key held"
                finally:
                    await held.rollback()  # the lock goes with the transaction
                assert [m.content for m in await waiting] == ["in a"]
            assert [m.content for m in await b.list_messages(session_ids=["s1"])] == ["in b"]
        finally:
            await a.close()
            await b.close()


async def test_a_guarded_metadata_write_checks_and_writes_under_one_lock() -> None:
    """``meta_guarded`` (the undo of a store's record of its vector index,
    ``Storage.unrecord``, and a writer's note before its first vector): its check and
    its writes are one transaction under the store's lock of the namespace, so a note
    written by another connection while the undo waits for that lock is seen by it and
    the undo is not made. Held from a connection of its own, the lock makes it wait."""
    async with schema_url() as url:
        store = await PostgresStore.open(url)
        try:
            await store.meta_set("ns", "record", "q1")
            async with await psycopg.AsyncConnection.connect(pg_url()) as held:
                await held.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                                   [0x63686D + 4, store._lock_name("ns")])
                undo = asyncio.ensure_future(store.meta_guarded(
                    "ns", unless=("writing", "q1"), writes=[("record", None)]))
                await _until_it_waits(undo)
                assert not undo.done(), "the undo did not wait for the lock"
                await held.execute(
                    f"INSERT INTO {store.schema}.meta (namespace, key, value) "
                    "VALUES ('ns', 'writing', 'q1')")
                await held.commit()  # the note, and the lock goes with the transaction
            assert await undo is False
            assert await store.meta_get("ns", "record") == "q1"
            # no note of this index: undone; defaults only where unset
            assert await store.meta_guarded("ns", unless=("writing", "q2"),
                                            writes=[("record", None)],
                                            defaults=[("owner", "o1"), ("writing", "x")])
            assert await store.meta_get("ns", "record") is None
            assert await store.meta_get("ns", "owner") == "o1"
            assert await store.meta_get("ns", "writing") == "q1"
        finally:
            await store.close()
