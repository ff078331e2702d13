"""PostgreSQL ingest: HNSW maintained row by row vs deferred and built once (bulk load).

    python bench/pg_bulk.py --pg URL [--sizes 50000,200000] [--per-row-max 50000]
        [--tail 10000] [--queries 100] [--out bench/results/pg_bulk.json]

For each size N, in one process, into fresh schemas of a throwaway database
(``bench_bulk_*``, dropped first), 384-d synthetic clustered vectors (see
``bench/search.py``, ``synthetic``), batches of 1000 as the indexer and
``chatmem import`` write them (message append + vector upsert):

* ``per-row``: the normal path, the HNSW index created by the first upsert and
  updated by every row. Above ``--per-row-max`` the whole run would take too long on
  2 cores, so the first N − ``--tail`` rows are bulk-loaded and only the last
  ``--tail`` rows are timed row by row: the marginal rate at that size.
* ``bulk``: the same load inside ``PostgresStore.bulk_load(N)`` (index dropped,
  rows written, index built once with ``CREATE INDEX CONCURRENTLY``); the rate
  includes the build, whose time is also shown alone.

Then both stores are checked to hold a valid HNSW index (``pg_indexes``) and
answer ``--queries`` queries by HNSW (p50 latency, recall@10 against numpy exact).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from typing import Any

import numpy as np
import psycopg

from _common import machine, pct, pg_conninfo, pg_url, print_table, write_json
from chatmem.store.postgres import PostgresStore
from chatmem.store.postgres.url import parse_url
from search import DIM, clustered, entries, messages, numpy_top_k, recall_at

BATCH = 1000


async def fresh(url: str, schema: str, build_memory_mb: int) -> PostgresStore:
    conninfo = pg_conninfo(url)
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")  # a bench name
    store = await PostgresStore.open(
        pg_url(url, schema=schema, build_memory_mb=build_memory_mb))
    # the bulk path and HNSW answers (what check() asserts) at every size, small ones too
    store.bulk_min_rows = 0
    store.exact_threshold = 0
    return store


async def load(store: PostgresStore, vecs: np.ndarray, lo: int, hi: int) -> float:
    """Seconds to append and upsert rows lo..hi in batches."""
    start = time.perf_counter()
    for s in range(lo, hi, BATCH):
        e = min(hi, s + BATCH)
        msgs = messages(s, e)
        await store.append(msgs)
        await store.upsert(entries(msgs, vecs[s:e]))
    return time.perf_counter() - start


async def check(store: PostgresStore, vecs: np.ndarray, queries: np.ndarray) -> dict[str, Any]:
    conninfo, _ = parse_url(store._conninfo)
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
        # the valid ones only (a failed build is listed by pg_indexes too)
        idx = [f"vectors_hnsw_{d}" for d in sorted(await store._load_hnsw_dims(conn))]
    lat, rec = [], []
    for q in queries:
        t = time.perf_counter()
        hits = await store.query(q, 10)
        lat.append(time.perf_counter() - t)
        assert store.last_search == "hnsw", store.last_search
        ref = [f"m{i}" for i in numpy_top_k(vecs, q, 10)]
        rec.append(recall_at([h.message_id for h in hits], ref))
    return {"indexes": idx, "query_p50_ms": pct(lat, 50) * 1e3,
            "recall_at_10": float(np.mean(rec))}


async def run_size(args: argparse.Namespace, n: int) -> dict[str, Any]:
    vecs, queries = clustered(n, args.queries, seed=n)
    out: dict[str, Any] = {"n": n}

    store = await fresh(args.pg, f"bench_bulk_row_{n}", args.build_memory_mb)
    try:
        timed_from = 0 if n <= args.per_row_max else n - args.tail
        if timed_from:
            async with store.bulk_load(timed_from):
                await load(store, vecs, 0, timed_from)
        secs = await load(store, vecs, timed_from, n)
        out["per_row"] = {"timed_rows": n - timed_from, "seconds": secs,
                          "rows_per_s": (n - timed_from) / secs,
                          "marginal": bool(timed_from), **await check(store, vecs, queries)}
    finally:
        await store.close()

    store = await fresh(args.pg, f"bench_bulk_load_{n}", args.build_memory_mb)
    try:
        start = time.perf_counter()
        async with store.bulk_load(n) as deferred:
            assert deferred
            rows_s = await load(store, vecs, 0, n)
            built_at = time.perf_counter()
        total = time.perf_counter() - start
        out["bulk"] = {"timed_rows": n, "seconds": total, "rows_per_s": n / total,
                       "load_s": rows_s, "build_s": total - (built_at - start),
                       **await check(store, vecs, queries)}
    finally:
        await store.close()
    out["speedup"] = out["bulk"]["rows_per_s"] / out["per_row"]["rows_per_s"]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pg", required=True, help="a throwaway PostgreSQL URL")
    ap.add_argument("--sizes", default="50000,200000")
    ap.add_argument("--per-row-max", type=int, default=50_000)
    ap.add_argument("--tail", type=int, default=10_000)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--build-memory-mb", type=int, default=1024)
    ap.add_argument("--out", default="bench/results/pg_bulk.json")
    args = ap.parse_args()
    runs = [asyncio.run(run_size(args, int(s))) for s in args.sizes.split(",")]
    rows = []
    for r in runs:
        pr, bl = r["per_row"], r["bulk"]
        rows.append([r["n"], f"{pr['rows_per_s']:.0f}" + (f" (last {pr['timed_rows']})"
                                                         if pr["marginal"] else ""),
                     f"{bl['rows_per_s']:.0f}", f"{bl['load_s']:.1f}", f"{bl['build_s']:.1f}",
                     f"{r['speedup']:.1f}x", f"{pr['recall_at_10']:.3f}",
                     f"{bl['recall_at_10']:.3f}"])
    print_table(f"PostgreSQL ingest, {DIM}-d synthetic, batches of {BATCH}, "
                f"{machine()['cores']} cores (noisy: ratios from one run)",
                ["N", "per-row rows/s", "bulk rows/s", "bulk load s", "index build s",
                 "speedup", "recall@10 per-row", "recall@10 bulk"], rows)
    write_json(args.out, {"machine": machine(), "dim": DIM, "batch": BATCH,
                          "data": "synthetic clustered (bench/search.py clustered), 384-d",
                          "build_memory_mb": args.build_memory_mb,
                          "command": "python bench/pg_bulk.py " + " ".join(sys.argv[1:]),
                          "runs": runs})


if __name__ == "__main__":
    main()
