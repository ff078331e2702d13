"""Pages of sessions in a store with many: what a page reads, before and since stop 46.

    python bench/session_pages.py [--sizes 10000,100000] [--pg URL] [--repeat 7]
        [--out bench/results/session_pages.json]

For each size N, in one process, a fresh store (SQLite in a temporary folder; with
``--pg``, PostgreSQL in a throwaway schema ``bench_session_pages``, dropped first) with N
chat sessions (``chat-000000`` …, no messages) and one LangGraph namespace of 10 items.
Timed (median of ``--repeat``):

* ``all_sessions()``: what ``Memory.sessions`` (``GET /v1/sessions``, the console's
  Sessions page) and every LangGraph ``search`` without a query and
  ``list_namespaces`` read before stop 46, for each call (the baseline);
* ``sessions_after(after, 21)``: what a page of 20 reads now (the primary key's order);
* ``Memory.sessions(limit=20)`` from the middle, and the LangGraph store's
  ``alist_namespaces()`` and ``asearch(("memories",))``, as called now.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

import psycopg

from _common import machine, median_ms, pg_conninfo, pg_url, print_table, write_json
from chatmem import Memory, Session
from chatmem.config import Config
from chatmem.integrations.langgraph import ChatmemStore

SCHEMA = "bench_session_pages"


async def measure(url: str, backend: str, size: int, repeat: int) -> list[dict[str, Any]]:
    mem = await Memory.open(url, config=Config.load({"semantic_recall": False}))
    try:
        for i in range(size):
            await mem.upsert_session(Session(id=f"chat-{i:06d}", origin_platform="tg",
                                             metadata={"title": f"chat {i}"}))
        store = ChatmemStore(mem)
        for i in range(10):
            await store.aput(("memories", "u1"), f"k{i}", {"text": f"fact {i}"}, index=False)
        middle = f"chat-{size // 2:06d}"
        ops: list[tuple[str, Callable[[], Awaitable[Any]]]] = [
            ("all_sessions() (each call before)", mem.store.all_sessions),
            ("sessions_after(after, 21) (a page now)",
             lambda: mem.store.sessions_after(middle, 21)),
            ("Memory.sessions(limit=20)", lambda: mem.sessions(limit=20, after=middle)),
            ("LangGraph alist_namespaces()", store.alist_namespaces),
            ("LangGraph asearch(('memories',))", lambda: store.asearch(("memories",))),
        ]
        return [{"backend": backend, "sessions": size, "operation": name,
                 "ms": round(await median_ms(op, repeat), 3)} for name, op in ops]
    finally:
        await mem.close()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--pg", default=None, help="a PostgreSQL URL (a schema is made)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--out", default="bench/results/session_pages.json")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            rows += await measure(f"sqlite:///{tmp}/pages-{size}.db", "sqlite", size,
                                  args.repeat)
            if args.pg:
                with psycopg.connect(pg_conninfo(args.pg), autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
                rows += await measure(pg_url(args.pg, schema=SCHEMA), "postgresql", size,
                                      args.repeat)
                with psycopg.connect(pg_conninfo(args.pg), autocommit=True) as conn:
                    conn.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")
    print_table("Pages of sessions, median ms (2 cores; no messages, no model)",
                ["backend", "sessions", "operation", "ms"],
                [[r["backend"], r["sessions"], r["operation"], r["ms"]] for r in rows])
    write_json(args.out, {"machine": machine(), "model": "none (semantic_recall off)",
                          "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    asyncio.run(main())
