"""What it costs for a session change to reach its vectors (issue 9, item 16).

    python bench/session_snapshot.py [--vectors 10000] [--children 10] [--per-child 100]
        [--repeat 5] [--pg URL] [--no-qdrant] [--out bench/results/session_snapshot.json]

For each backend (SQLite file; PostgreSQL with ``--pg URL``, in a schema of its own that
is dropped afterwards; Qdrant local mode in memory with the messages in SQLite), one
session ``big`` holds ``--vectors`` indexed messages (384-d vectors), it has
``--children`` child sessions of ``--per-child`` messages each, and 50 unrelated sessions
hold 100 each. Timed through ``Memory.upsert_session`` (median of ``--repeat`` runs, ms):

* ``unchanged``: the same session again (no vector is written);
* ``metadata``: new metadata (the session's own entries are updated);
* ``origin``: a new origin platform (the session's and every descendant's entries);
* ``reindex idle``: ``Memory.reindex()`` with nothing to embed and nothing stale (the
  scan of every vector and message that finds out).

Measurement only: nothing is asserted.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import tempfile
import time
import uuid
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from _common import machine, median, pg_conninfo, pg_url, print_table, write_json
from chatmem import Memory, Message, Session
from chatmem.embedding import Capabilities, Embedder
from chatmem.models import IndexState, VectorEntry
from chatmem.store import SqliteStore

DIM = 384
MODEL = "bench:fixed"


class FixedProvider:
    """Never called for embedding here; declares the model the vectors were made with."""

    name = "bench"
    model_id = MODEL
    dimensions = DIM

    async def embed(self, texts: Sequence[str], role: str) -> npt.NDArray[np.float32]:
        return np.ones((len(texts), DIM), dtype=np.float32)

    capabilities = Capabilities()

    async def aclose(self) -> None:
        pass


async def fill(store: Any, index: Any, sizes: dict[str, int], rng: np.random.Generator
               ) -> None:
    for sid, n in sizes.items():
        for start in range(0, n, 1000):
            count = min(1000, n - start)
            msgs = await store.append([
                Message(session_id=sid, content=f"{sid} message {start + i}",
                        ts=start + i + 1) for i in range(count)])
            vecs = rng.normal(size=(count, DIM)).astype(np.float32)
            vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
            entries = [VectorEntry(m.id or "", sid, m.ts or 0, "user", MODEL, v,
                                   text=m.content) for m, v in zip(msgs, vecs)]
            await index.upsert(entries)
            if index is not store:
                await store.upsert_lexical(entries)
                await store.set_index_state([e.message_id for e in entries],
                                            IndexState.INDEXED)


@contextlib.asynccontextmanager
async def backend(name: str, tmp: Path, pg: str | None) -> AsyncIterator[tuple[Any, Any]]:
    if name == "sqlite":
        store = await SqliteStore.open(tmp / "bench.db")
        try:
            yield store, store
        finally:
            await store.close()
    elif name == "postgres":
        import psycopg
        from psycopg import sql

        from chatmem.store.postgres import PostgresStore

        assert pg is not None
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        store = await PostgresStore.open(pg_url(pg, schema=schema))
        try:
            yield store, store
        finally:
            await store.close()
            async with await psycopg.AsyncConnection.connect(pg_conninfo(pg),
                                                             autocommit=True) as conn:
                await conn.execute(sql.SQL("DROP SCHEMA {} CASCADE").format(
                    sql.Identifier(schema)))
    else:
        from chatmem.store.qdrant import QdrantIndex

        store = await SqliteStore.open(tmp / "qdrant-messages.db")
        index = await QdrantIndex.open("qdrant+local://:memory:")
        try:
            yield store, index
        finally:
            await index.close()
            await store.close()


async def timed(fn: Any, repeat: int) -> float:
    times = []
    for i in range(repeat):
        t0 = time.perf_counter()
        await fn(i)
        times.append((time.perf_counter() - t0) * 1000)
    return median(times)


async def run_one(name: str, args: argparse.Namespace) -> dict[str, Any]:
    rng = np.random.default_rng(7)
    sizes = {"big": args.vectors}
    sizes.update({f"child-{i}": args.per_child for i in range(args.children)})
    sizes.update({f"other-{i}": 100 for i in range(50)})
    with tempfile.TemporaryDirectory() as tmp:
        async with backend(name, Path(tmp), args.pg) as (store, index):
            t0 = time.perf_counter()
            await fill(store, index, sizes, rng)
            fill_s = time.perf_counter() - t0
            mem = Memory(store, index, Embedder(FixedProvider()))
            try:
                for i in range(args.children):
                    await mem.upsert_session(Session(id=f"child-{i}", parent_id="big"))
                base = Session(id="big", origin_platform="qq", resource_id="r",
                               metadata={"v": 0})
                await mem.upsert_session(base)
                out = {
                    "vectors_total": sum(sizes.values()),
                    "fill_s": round(fill_s, 1),
                    "unchanged_ms": await timed(lambda i: mem.upsert_session(base),
                                                args.repeat),
                    "metadata_ms": await timed(lambda i: mem.upsert_session(Session(
                        id="big", origin_platform="qq", resource_id="r",
                        metadata={"v": i + 1})), args.repeat),
                    "origin_ms": await timed(lambda i: mem.upsert_session(Session(
                        id="big", origin_platform=f"p{i}", resource_id="r",
                        metadata={"v": 0})), args.repeat),
                    "reindex_idle_ms": await timed(lambda i: mem.reindex(), 1),
                }
            finally:
                # the memory's background tasks (indexer, retention sweep) stop here; its
                # store and index are closed again, harmlessly, by backend()
                await mem.close()
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--vectors", type=int, default=10_000)
    ap.add_argument("--children", type=int, default=10)
    ap.add_argument("--per-child", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--pg", default=None, help="a PostgreSQL URL (a schema is made and dropped)")
    ap.add_argument("--no-qdrant", action="store_true")
    ap.add_argument("--out", default="bench/results/session_snapshot.json")
    args = ap.parse_args()
    names = ["sqlite", *(["postgres"] if args.pg else []),
             *([] if args.no_qdrant else ["qdrant"])]
    results = {name: await run_one(name, args) for name in names}
    tree = args.vectors + args.children * args.per_child
    print_table(
        f"upsert_session cost, ms (median of {args.repeat}); session 'big': {args.vectors} "
        f"vectors, with descendants {tree}; {machine()['cores']} cores",
        ["backend", "vectors", "unchanged", "metadata", "origin (tree)", "reindex idle"],
        [[n, r["vectors_total"], r["unchanged_ms"], r["metadata_ms"], r["origin_ms"],
          r["reindex_idle_ms"]] for n, r in results.items()])
    write_json(args.out, {"machine": machine(), "args": {**vars(args), "pg": bool(args.pg)},
                          "results": results})


if __name__ == "__main__":
    asyncio.run(main())
