"""PostgreSQL migration 11 (index ``vectors_model_dim``) on a large vectors table.

    python bench/pg_migrate11.py --pg URL [--sizes 100000] [--repeat 3]
        [--out bench/results/pg_migrate11.json]

For each size N, in one process, a fresh schema of a throwaway database
(``bench_migrate11_<N>``, dropped first and after): N messages and their 384-d
synthetic vectors (``bench/search.py``, ``clustered``; one model), written as
``bench/pg_bulk.py``'s bulk path writes them (HNSW built once). The store is then put
back at schema version 10 (the index dropped, migration 11 forgotten), and timed:

* ``migrate``: ``PostgresStore.open`` applying migration 11 (the migrations run in
  one transaction under the schema's advisory lock, with the open's other work), and
  ``open``: the same open with nothing to migrate (median of ``--repeat``): the
  difference is the migration's cost at open.
* While the migration's transaction holds the table (``CREATE INDEX`` takes a SHARE
  lock: reads go on, writes wait until the commit), one read and one write from
  another connection: how long each waited.
* ``CREATE INDEX`` alone (median of ``--repeat``, index dropped between), and
  ``CREATE INDEX CONCURRENTLY`` (writes go on; not possible inside the migrations'
  transaction), with the index's and the table's size.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from typing import Any

import psycopg

from _common import machine, pg_conninfo, pg_url, print_table, write_json
from chatmem.store.postgres import SCHEMA_VERSION, PostgresStore
from search import DIM, clustered, entries, messages

BATCH = 1000
#: The migration timed: the last one when this was written.
VERSION = 11
INDEX = "vectors_model_dim"
CREATE = f"CREATE INDEX {INDEX} ON vectors (model_id, dim)"


async def admin(conninfo: str, schema: str, *statements: str) -> list[Any]:
    """Run ``statements`` in ``schema`` (autocommit); the first row of the last."""
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        await conn.execute(f"SET search_path = {schema}, public")  # a bench name
        row: Any = None
        for s in statements:
            cur = await conn.execute(s)
            row = await cur.fetchone() if cur.description else None
        return list(row or [])


async def load(url: str, n: int) -> float:
    """Seconds to write ``n`` messages and vectors (bulk path: HNSW built once)."""
    vecs, _ = clustered(n, 1, seed=n)
    store = await PostgresStore.open(url)
    try:
        start = time.perf_counter()
        async with store.bulk_load(n):
            for s in range(0, n, BATCH):
                e = min(n, s + BATCH)
                msgs = messages(s, e)
                await store.append(msgs)
                await store.upsert(entries(msgs, vecs[s:e]))
        return time.perf_counter() - start
    finally:
        await store.close()


async def back_to_10(conninfo: str, schema: str) -> None:
    await admin(conninfo, schema, f"DROP INDEX IF EXISTS {INDEX}",
                f"DELETE FROM chatmem_migrations WHERE version >= {VERSION}")


async def opened_s(url: str) -> float:
    start = time.perf_counter()
    store = await PostgresStore.open(url)
    took = time.perf_counter() - start
    await store.close()
    return took


async def waits_during_migration(url: str, conninfo: str, schema: str
                                 ) -> tuple[float, dict[str, float | None]]:
    """The migrating open's seconds, and how long a read and a write from another
    connection waited, started once the migration holds the vectors table's SHARE lock
    (None: the migration was over before the lock was seen)."""
    waited: dict[str, float | None] = {"read_wait_s": None, "write_wait_s": None}
    done = asyncio.Event()

    async def other() -> None:
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            await conn.execute(f"SET search_path = {schema}, public")
            while not done.is_set():
                row = await (await conn.execute(
                    "SELECT 1 FROM pg_locks WHERE relation = to_regclass('vectors') "
                    "AND mode = 'ShareLock' AND granted")).fetchone()
                if row:
                    break
                await asyncio.sleep(0.005)
            else:
                return
            start = time.perf_counter()
            await conn.execute("SELECT ts FROM vectors WHERE message_id = 'm5'")
            waited["read_wait_s"] = time.perf_counter() - start
            start = time.perf_counter()
            await conn.execute("UPDATE vectors SET ts = ts WHERE message_id = 'm5'")
            waited["write_wait_s"] = time.perf_counter() - start

    watcher = asyncio.create_task(other())
    try:
        took = await opened_s(url)
    finally:
        done.set()
        await watcher
    return took, waited


async def run_size(args: argparse.Namespace, n: int) -> dict[str, Any]:
    schema = f"bench_migrate11_{n}"
    conninfo = pg_conninfo(args.pg)
    url = pg_url(args.pg, schema=schema)
    await admin(conninfo, "public", f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    out: dict[str, Any] = {"n": n}
    try:
        out["load_s"] = await load(url, n)
        await admin(conninfo, schema, "VACUUM ANALYZE vectors")
        migrate, builds, concurrently = [], [], []
        for _ in range(args.repeat):
            await back_to_10(conninfo, schema)
            took, waited = await waits_during_migration(url, conninfo, schema)
            migrate.append({"open_s": took, **waited})
        out["migrate"] = migrate
        out["open_s"] = statistics.median([await opened_s(url) for _ in range(args.repeat)])
        (out["schema_version"],) = await admin(
            conninfo, schema, "SELECT max(version) FROM chatmem_migrations")
        for _ in range(args.repeat):
            await admin(conninfo, schema, f"DROP INDEX {INDEX}")
            start = time.perf_counter()
            await admin(conninfo, schema, CREATE)
            builds.append(time.perf_counter() - start)
            await admin(conninfo, schema, f"DROP INDEX {INDEX}")
            start = time.perf_counter()
            await admin(conninfo, schema, CREATE.replace("INDEX", "INDEX CONCURRENTLY", 1))
            concurrently.append(time.perf_counter() - start)
        out["create_index_s"] = statistics.median(builds)
        out["create_index_concurrently_s"] = statistics.median(concurrently)
        out["index_bytes"], out["table_bytes"], out["maintenance_work_mem"] = await admin(
            conninfo, schema, f"SELECT pg_relation_size('{INDEX}'), "
            "pg_total_relation_size('vectors'), current_setting('maintenance_work_mem')")
    finally:
        await admin(conninfo, "public", f"DROP SCHEMA IF EXISTS {schema} CASCADE")
    return out


def ms(seconds: float | None) -> str:
    return "-" if seconds is None else f"{seconds * 1000:.0f}"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pg", required=True, help="a throwaway PostgreSQL URL")
    ap.add_argument("--sizes", default="100000")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="bench/results/pg_migrate11.json")
    args = ap.parse_args()
    assert SCHEMA_VERSION >= VERSION
    runs = [asyncio.run(run_size(args, int(s))) for s in args.sizes.split(",")]
    rows = []
    for r in runs:
        mig = r["migrate"]
        rows.append([
            r["n"], ms(statistics.median(m["open_s"] for m in mig)), ms(r["open_s"]),
            ms(r["create_index_s"]), ms(r["create_index_concurrently_s"]),
            " / ".join(ms(m["read_wait_s"]) for m in mig),
            " / ".join(ms(m["write_wait_s"]) for m in mig),
            f"{r['index_bytes'] / 2**20:.1f}", f"{r['table_bytes'] / 2**20:.0f}"])
    print_table(f"PostgreSQL migration {VERSION} ({INDEX}), {DIM}-d vectors of one model, "
                f"{machine()['cores']} cores (shared), ms (median of {args.repeat}; the waits "
                "of each run)",
                ["N", "open migrating", "open, nothing to do", "CREATE INDEX",
                 "… CONCURRENTLY", "read waited", "write waited", "index MiB",
                 "table MiB"], rows)
    write_json(args.out, {"machine": machine(), "dim": DIM, "batch": BATCH,
                          "data": "synthetic clustered (bench/search.py clustered), one model",
                          "migration": VERSION, "statement": CREATE,
                          "command": "python bench/pg_migrate11.py " + " ".join(sys.argv[1:]),
                          "runs": runs})


if __name__ == "__main__":
    main()
