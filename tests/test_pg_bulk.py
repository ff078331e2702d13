"""PostgreSQL bulk loads: the HNSW index deferred and built once (issue 14).

Every load here is real: real PostgreSQL schemas, a real second process that dies
mid-load. ``bulk_min_rows`` is lowered on the instance so small loads defer.
"""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
import textwrap
import uuid
from collections.abc import AsyncIterator

import numpy as np
import psycopg
import psycopg.sql
import pytest

from backends import drop_pg_schema, pg_schema_url, pg_url
from chatmem.models import IndexState, Message, VectorEntry
from chatmem.store import Storage
from chatmem.store.postgres import _DEFERRED, PostgresStore
from chatmem.transfer import migrate
from test_postgres import admin, exact, fill, schema_url, unit_rows
from test_transfer import _source, snapshot


async def hnsw_indexes(store: PostgresStore) -> list[str]:
    rows = await admin(
        "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
        "JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = %s "
        "AND c.relname LIKE 'vectors_hnsw_%%' AND i.indisvalid ORDER BY 1", [store.schema])
    return [r[0] for r in rows]


async def deferred_mark(store: PostgresStore) -> str | None:
    rows = await admin("SELECT obj_description(to_regclass(%s), 'pg_class')",
                       [f"{store.schema}.vectors"])
    return rows[0][0]


def batch(lo: int, hi: int, dim: int, seed: int) -> tuple[list[Message], list[VectorEntry]]:
    vecs = unit_rows(hi - lo, dim, seed)
    msgs = [Message(session_id=f"s{i % 7}", content=f"c{i}", ts=10_000 + i, id=f"b{i:05d}")
            for i in range(lo, hi)]
    return msgs, [VectorEntry(m.id or "", m.session_id, m.ts or 0, "user", "test:m", v)
                  for m, v in zip(msgs, vecs)]


async def test_bulk_migration_leaves_the_same_data_and_a_working_hnsw_index(tmp_path: object
                                                                          ) -> None:
    src, want = await _source(f"sqlite:///{tmp_path}/a.db")
    await src.close()
    got = {}
    for name, min_rows in (("bulk", 1), ("per_row", 10**9)):
        source = await Storage.open(f"sqlite:///{tmp_path}/a.db", create=False)
        async with schema_url() as url:
            target = await PostgresStore.open(url)
            target.bulk_min_rows = min_rows
            await migrate(source, Storage(target, target))
            got[name] = await snapshot(Storage(target, target))
            assert await deferred_mark(target) is None
            dims = sorted(target._hnsw_dims)
            assert dims and await hnsw_indexes(target) == [f"vectors_hnsw_{d}" for d in dims]
            await target.close()
        await source.close()
    assert got["bulk"] == got["per_row"] == want


async def test_bulk_load_defers_then_answers_by_hnsw() -> None:
    async with schema_url(exact_threshold=0) as url:
        store = await PostgresStore.open(url)
        other = await PostgresStore.open(url)  # another process's view, opened before
        try:
            store.bulk_min_rows = 100
            await fill(store, 50, 8)  # a small table: the index is created per row
            assert await hnsw_indexes(store) == ["vectors_hnsw_8"]
            msgs, entries = batch(0, 600, 8, seed=2)
            async with store.bulk_load(len(entries)) as deferred:
                assert deferred
                assert await hnsw_indexes(store) == [] and await deferred_mark(store)
                for s in range(0, 600, 200):
                    await store.append(msgs[s:s + 200])
                    await store.upsert(entries[s:s + 200])
                # meanwhile: exact answers here, correct ones there (HNSW SQL on no index)
                q = entries[123].vector
                hits = await store.query(q, 5)
                assert store.last_search == "exact" and hits[0].message_id == "b00123"
                assert [h.message_id for h in await other.query(q, 5)] == \
                    [h.message_id for h in hits]
                # a process opened during the load creates no index, not even a new size's
                late = await PostgresStore.open(url)
                m4, e4 = batch(900, 901, 4, seed=3)
                await late.append(m4)
                await late.upsert(e4)
                assert await hnsw_indexes(late) == [] and late._hnsw_dims == set()
                await late.close()
            assert await deferred_mark(store) is None
            assert await hnsw_indexes(store) == ["vectors_hnsw_4", "vectors_hnsw_8"]
            # vacuumed: the full-text statistics read the lex_len index, not the heap
            async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as c:
                [(vacuumed,)] = await (await c.execute(
                    "SELECT last_vacuum IS NOT NULL FROM pg_stat_user_tables "
                    "WHERE schemaname = %s AND relname = 'vectors'", [store.schema])
                ).fetchall()
            assert vacuumed
            hits = await store.query(entries[321].vector, 5)
            assert store.last_search == "hnsw" and hits[0].message_id == "b00321"
            # a big table is not unindexed for a load smaller than it
            async with store.bulk_load(200) as deferred:
                assert not deferred
            assert len(await hnsw_indexes(store)) == 2
        finally:
            await other.close()
            await store.close()


@contextlib.asynccontextmanager
async def small_load() -> AsyncIterator[tuple[PostgresStore, list[VectorEntry], list[Message],
                                             list[VectorEntry]]]:
    """A store of 50 vectors whose loads of 100 rows or more defer, and a load of 600:
    (the store, its vectors, the load's messages and its vectors)."""
    async with schema_url(exact_threshold=0) as url:
        store = await PostgresStore.open(url)
        try:
            store.bulk_min_rows = 100
            yield store, await fill(store, 50, 8), *batch(0, 600, 8, seed=4)
        finally:
            await store.close()


async def test_a_bulk_load_interrupted_by_an_exception_keeps_its_rows_and_the_index() -> None:
    async with small_load() as (store, before, msgs, entries):
        with pytest.raises(RuntimeError, match="midway"):
            async with store.bulk_load(len(entries)):
                await store.append(msgs)
                await store.upsert(entries[:300])
                raise RuntimeError("midway")
        assert await deferred_mark(store) is None
        assert await hnsw_indexes(store) == ["vectors_hnsw_8"]
        states = await store.index_states([m.id or "" for m in msgs])
        assert sum(s == IndexState.INDEXED for s in states.values()) == 300
        assert sum(s == IndexState.PENDING for s in states.values()) == 300
        written = before + entries[:300]
        q = entries[42].vector
        hits = await store.query(q, 10)
        assert store.last_search == "hnsw"
        assert hits[0].message_id == "b00042"
        assert len(set(h.message_id for h in hits) & set(exact(written, q, 10))) >= 8
        # the rest of the load, later, without a bulk: the index takes them row by row
        await store.upsert(entries[300:])
        assert sum((await store.count_by_model()).values()) == 650


async def until_built(store: PostgresStore, want: list[str]) -> None:
    """Wait (at most a minute) until ``store``'s schema has no mark and ``want`` indexes."""
    end = asyncio.get_running_loop().time() + 60
    while await deferred_mark(store) is not None or await hnsw_indexes(store) != want:
        assert asyncio.get_running_loop().time() < end, \
            "the deferred indexes were never built (left to the next open)"
        await asyncio.sleep(0.05)


async def test_a_cancelled_bulk_load_has_its_index_built_after_the_next_search() -> None:
    """A bulk load cancelled midway (a timeout around a reindex, Ctrl-C) left its
    indexes to the next open: an open store, a server say, searched exactly from then
    on. Its next search now builds them in the background; that search is exact and
    correct, the ones after the build use HNSW again."""
    async with small_load() as (store, before, msgs, entries):
        loaded = asyncio.Event()

        async def load() -> None:
            async with store.bulk_load(len(entries)):
                await store.append(msgs)
                await store.upsert(entries)
                loaded.set()
                await asyncio.Event().wait()  # cancelled here

        task = asyncio.create_task(load())
        await loaded.wait()
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert await deferred_mark(store) and await hnsw_indexes(store) == []
        q = entries[42].vector
        hits = await store.query(q, 10)
        assert store.last_search == "exact"
        assert [h.message_id for h in hits] == exact(before + entries, q, 10)
        await until_built(store, ["vectors_hnsw_8"])
        await asyncio.sleep(0.05)  # the task reads the built dimensions last
        hits = await store.query(q, 10)
        assert store.last_search == "hnsw" and hits[0].message_id == "b00042"


_DIES_MIDWAY = textwrap.dedent("""
    import asyncio, os, sys
    import numpy as np
    from chatmem.models import Message, VectorEntry
    from chatmem.store.postgres import _DEFERRED, PostgresStore

    async def main():
        store = await PostgresStore.open(sys.argv[1])
        store.bulk_min_rows = 10
        rng = np.random.default_rng(5)
        async with store.bulk_load(1000):
            msgs = [Message(session_id="s", content=f"c{i}", ts=i, id=f"k{i:04d}")
                    for i in range(400)]
            await store.append(msgs)
            vecs = rng.normal(size=(400, 8)).astype(np.float32)
            await store.upsert([VectorEntry(m.id, "s", m.ts, "user", "test:m", v)
                                for m, v in zip(msgs, vecs)])
            print("loaded", flush=True)
            os._exit(9)  # the process dies: no index build, no cleanup

    asyncio.run(main())
""")


async def test_a_bulk_loader_that_dies_leaves_a_correct_store_whose_next_open_builds_the_index(
) -> None:
    base = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(base, schema) + "&exact_threshold=0"
    try:
        first = await PostgresStore.open(url)
        await fill(first, 30, 8)
        assert await hnsw_indexes(first) == ["vectors_hnsw_8"]
        proc = await asyncio.to_thread(subprocess.run, [sys.executable, "-c", _DIES_MIDWAY, url],
                                       capture_output=True, text=True, timeout=120)
        assert proc.returncode == 9 and "loaded" in proc.stdout, proc.stderr
        # left behind: the mark, no index; a store already open still answers correctly
        assert await deferred_mark(first) and await hnsw_indexes(first) == []
        rows = await admin(f'SELECT message_id, embedding FROM "{schema}".vectors')
        all_vecs = {r[0]: np.array(str(r[1]).strip("[]").split(","), dtype=np.float32)
                    for r in rows}
        assert len(all_vecs) == 430
        q = unit_rows(1, 8, seed=6)[0]
        want = sorted(all_vecs, key=lambda i: -float(
            np.dot(all_vecs[i] / np.linalg.norm(all_vecs[i]), q)))[:10]
        assert [h.message_id for h in await first.query(q, 10)] == want
        assert await deferred_mark(first)  # looked at most every deferred_check_s (60)
        # a store that stays open looks again: a search starts the build in the background
        first.deferred_check_s = 0.0
        await first.query(q, 10)
        await until_built(first, ["vectors_hnsw_8"])
        await first.close()
        await admin(f'DROP INDEX "{schema}".vectors_hnsw_8')  # as the dead loader left it
        await admin(psycopg.sql.SQL("COMMENT ON TABLE {}.vectors IS {}").format(
            psycopg.sql.Identifier(schema), psycopg.sql.Literal(_DEFERRED)))
        # the next open sees the dead loader's mark (its lock went with it) and builds
        again = await PostgresStore.open(url)
        try:
            assert await deferred_mark(again) is None
            assert await hnsw_indexes(again) == ["vectors_hnsw_8"]
            assert again._hnsw_dims == {8}
            hits = await again.query(q, 10)
            assert again.last_search == "hnsw"
            assert len(set(h.message_id for h in hits) & set(want)) >= 8
        finally:
            await again.close()
    finally:
        await drop_pg_schema(base, schema)


@pytest.mark.parametrize("value", ["x", "8", "-1"])
async def test_a_bad_build_memory_is_refused_naming_the_parameter(value: str) -> None:
    from chatmem.errors import ConfigError

    with pytest.raises(ConfigError, match="build_memory_mb"):
        await PostgresStore.open(pg_schema_url(pg_url(), "t_never") + f"&build_memory_mb={value}")
    assert await admin("SELECT 1 FROM pg_namespace WHERE nspname = 't_never'") == []
