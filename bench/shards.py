"""A sharded vector layout simulated on one machine: recall latency and exactness.

    python bench/shards.py [--n 50000] [--shards 1,2,4] [--queries 200] [--pg URL]
        [--data clustered|broad] [--no-qdrant] [--out bench/results/shards.json]

The vectors (``--n``, 384-d synthetic: ``clustered`` as in ``bench/search.py``, or
``broad``, wider clusters whose neighbours are nearly equidistant) are split
by session (100 messages each; session j goes to shard j mod N), as a deployment
split by namespace or hashed by session would split them. Each layout answers the
same queries: every shard is asked for its top k (k = 10) at once
(``asyncio.gather``), the answers are merged by score, and the top k kept. Per
layout and N:

* latency p50/p95 of the whole fan-out + merge (query embedding excluded);
* recall@10 of the merged top 10 against the exact top 10 over all vectors (numpy).

Layouts:
* ``postgres`` (``--pg URL``, a throwaway database): N schemas ``bench_shard_<N>_<j>``
  of one server, each a chatmem ``PostgresStore`` with its own pool, loaded with
  :meth:`PostgresStore.bulk_load` (HNSW built once per shard), searched by HNSW
  (each shard is above ``exact_threshold``).
* ``qdrant local``: N in-memory Qdrant local-mode indexes (``QdrantIndex``,
  qdrant-client's in-process mode: a brute-force scan, no HNSW, so exact; run in
  one thread, so its shards do not run in parallel here as a cluster's would).

All shards share this machine's cores (2), so N > cores cannot be faster here;
what carries over to N machines is the exactness of the merge and the per-shard
cost at 1/N of the data. Queries go round the layouts one by one, so machine
noise hits them alike.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.util
import sys
import time
from typing import Any

import numpy as np
import psycopg

from _common import machine, pct, pg_conninfo, pg_url, print_table, write_json
from chatmem.models import ScoredId
from search import (
    DIM,
    SESSION_SIZE,
    clustered,
    entries,
    messages,
    numpy_top_k,
    recall_at,
    unit,
)

K = 10


class Layout:
    """N shards of one kind; ``search`` fans a query out and merges."""

    def __init__(self, name: str, shards: list[Any]) -> None:
        self.name = name
        self.shards = shards

    async def search(self, q: np.ndarray) -> list[str]:
        parts = await asyncio.gather(*(s.query(q, K) for s in self.shards))
        merged: list[ScoredId] = sorted((h for p in parts for h in p),
                                        key=lambda h: (-h.score, h.message_id))
        return [h.message_id for h in merged[:K]]

    async def close(self) -> None:
        for s in self.shards:
            await s.close()


def split(n: int, shards: int) -> list[list[int]]:
    """Session blocks of SESSION_SIZE messages, dealt round the shards."""
    out: list[list[int]] = [[] for _ in range(shards)]
    for b in range(0, n, SESSION_SIZE):
        out[(b // SESSION_SIZE) % shards].append(b)
    return out


async def pg_layout(url: str, vecs: np.ndarray, shards: int) -> tuple[Layout, float]:
    from chatmem.store.postgres import PostgresStore
    conninfo = pg_conninfo(url)
    stores = []
    start = time.perf_counter()
    for j, blocks in enumerate(split(len(vecs), shards)):
        schema = f"bench_shard_{shards}_{j}"
        async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True) as conn:
            await conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")  # a bench name
        store = await PostgresStore.open(pg_url(url, schema=schema))
        stores.append(store)
        store.bulk_min_rows = 0  # every shard's load defers its index, however small
        async with store.bulk_load(len(blocks) * SESSION_SIZE):
            for i in range(0, len(blocks), 10):
                msgs, vs = [], []
                for b in blocks[i:i + 10]:
                    e = min(len(vecs), b + SESSION_SIZE)
                    msgs += messages(b, e)
                    vs.append(vecs[b:e])
                await store.append(msgs)
                await store.upsert(entries(msgs, np.concatenate(vs)))
    return Layout("postgres", stores), time.perf_counter() - start


async def qdrant_layout(vecs: np.ndarray, shards: int) -> tuple[Layout, float]:
    from chatmem.store.qdrant import QdrantIndex

    indexes = []
    start = time.perf_counter()
    for blocks in split(len(vecs), shards):
        index = await QdrantIndex.open("qdrant+local://:memory:")
        indexes.append(index)
        for b in blocks:
            e = min(len(vecs), b + SESSION_SIZE)
            await index.upsert(entries(messages(b, e), vecs[b:e]))
    return Layout("qdrant local", indexes), time.perf_counter() - start


def broad(n: int, n_queries: int, seed: int = 7) -> tuple[np.ndarray, np.ndarray]:
    """1,000 random unit centres, points and queries normalise(c + 0.1·g) (cosine to
    the centre ≈ 0.45): neighbours nearly equidistant, a hard case for HNSW."""
    rng = np.random.default_rng(seed)
    centres = unit(rng.standard_normal((1000, DIM), np.float32))

    def around(m: int) -> np.ndarray:
        return unit(centres[rng.integers(0, len(centres), m)]
                    + 0.1 * rng.standard_normal((m, DIM), np.float32))

    return around(n), around(n_queries)


DATA = {
    "clustered": "synthetic clustered 384-d (bench/search.py clustered: 2,000 centres, "
                 "cosine to the centre ≈ 0.7; queries near stored points)",
    "broad": "synthetic broad clusters 384-d (1,000 centres, cosine to the centre ≈ 0.45; "
             "queries are new points around random centres)",
}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    if args.data == "broad":
        vecs, queries = broad(args.n, args.queries)
    else:
        vecs, queries = clustered(args.n, args.queries, seed=7)
    truth = [[f"m{i}" for i in numpy_top_k(vecs, q, K)] for q in queries]
    layouts: list[tuple[int, Layout, float]] = []
    counts = [int(s) for s in args.shards.split(",")]
    for n_shards in counts:
        if args.pg:
            layout, secs = await pg_layout(args.pg, vecs, n_shards)
            layouts.append((n_shards, layout, secs))
        if args.qdrant:
            layout, secs = await qdrant_layout(vecs, n_shards)
            layouts.append((n_shards, layout, secs))
        print(f"loaded N={n_shards}", flush=True)
    lat: list[list[float]] = [[] for _ in layouts]
    rec: list[list[float]] = [[] for _ in layouts]
    for layout in layouts:  # warm-up: pools, caches
        for q in queries[:5]:
            await layout[1].search(q)
    for qi, q in enumerate(queries):
        for li, (_, layout, _) in enumerate(layouts):
            t = time.perf_counter()
            got = await layout.search(q)
            lat[li].append(time.perf_counter() - t)
            rec[li].append(recall_at(got, truth[qi]))
    results = []
    for li, (n_shards, layout, secs) in enumerate(layouts):
        results.append({"layout": layout.name, "shards": n_shards,
                        "vectors_per_shard": args.n // n_shards, "load_s": secs,
                        "p50_ms": pct(lat[li], 50) * 1e3, "p95_ms": pct(lat[li], 95) * 1e3,
                        "recall_at_10": float(np.mean(rec[li])),
                        # PostgreSQL answers a shard at or under exact_threshold exactly
                        "search": ",".join(sorted({str(getattr(s, "last_search", "scan"))
                                                   for s in layout.shards}))})
        await layout.close()
    return {"machine": machine(), "n": args.n, "dim": DIM, "k": K, "queries": args.queries,
            "data": DATA[args.data] + "; unit length, 384 dimensions as all-MiniLM-L6-v2's",
            "command": "python bench/shards.py " + " ".join(sys.argv[1:]),
            "results": results}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--shards", default="1,2,4")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--data", choices=sorted(DATA), default="clustered")
    ap.add_argument("--pg", default=None, help="a throwaway PostgreSQL URL")
    ap.add_argument("--no-qdrant", dest="qdrant", action="store_false")
    ap.add_argument("--out", default="bench/results/shards.json")
    args = ap.parse_args()
    if args.qdrant and importlib.util.find_spec("qdrant_client") is None:
        print("note: qdrant-client is missing: Qdrant skipped")
        args.qdrant = False
    out = asyncio.run(run(args))
    print_table(f"Sharded recall, {args.n} vectors {DIM}-d {args.data}, k={K}, "
                f"{args.queries} queries, "
                f"{machine()['cores']} cores (shards share them)",
                ["layout", "N", "vectors/shard", "p50 ms", "p95 ms", "recall@10",
                 "load s", "search"],
                [[r["layout"], r["shards"], r["vectors_per_shard"], r["p50_ms"], r["p95_ms"],
                  r["recall_at_10"], r["load_s"], r["search"]] for r in out["results"]])
    write_json(args.out, out)


if __name__ == "__main__":
    main()
