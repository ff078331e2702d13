"""Listing without a session: the store's time and speaker indexes against none.

    python bench/listing.py [--sizes 100000,400000] [--pg URL] [--repeat 9]
        [--out bench/results/listing.json]

For each size N, in one process, a fresh store (SQLite in a temporary folder; with
``--pg``, PostgreSQL in a throwaway schema ``bench_listing``, dropped first) holding N
messages, one a minute, spread over 2,000 sessions and 500 speakers. Each operation
is timed (median of ``--repeat``) twice on the same store: with the indexes chatmem
keeps (``messages_time`` on ``(ts, id)``, ``messages_speaker`` on ``(speaker_id, ts,
id)``) and with them dropped (what every store had before them; the baseline). The
operations are ``list_messages`` calls as chatmem makes them with no session named:

* ``first page``: the first 100 messages (``chatmem list``, ``GET /v1/messages``);
* ``one day``: 100 messages of a day in the middle (``--since`` / ``--until``);
* ``one day, newest first``: the same, the latest first (a day asked about, ranked by
  full text alone: ``Memory._latest_within``);
* ``page from the middle``: the 100 after a position halfway (the next page);
* ``one speaker``: 100 messages of one speaker (``forget --speaker`` pages so), one of
  500 who share the messages, and ``a rare speaker``, one message in 20,000;
* ``walk``: every message, 1,000 a page (``message_pages``), in seconds.

Then their write cost: 10,000 more messages appended in batches of 500, messages a
second, with and without them.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import psycopg

from _common import machine, pg_conninfo, pg_url, print_table, write_json
from chatmem.memory import message_pages
from chatmem.models import Message
from chatmem.store import MessageStore
from chatmem.store.postgres import PostgresStore
from chatmem.store.sqlite import SqliteStore

BASE_TS = 1_700_000_000_000
MINUTE = 60_000
SESSIONS = 2000
SPEAKERS = 500
#: one message in this many is the rare speaker's (5 in 100,000)
RARE_EVERY = 20_000
PAGE = 100
APPENDED = 10_000
#: the indexes measured, as chatmem creates them (PostgreSQL: ids byte-wise)
INDEXES = {"messages_time": ("ts", "id"), "messages_speaker": ("speaker_id", "ts", "id")}
BATCH = 500


def batch(lo: int, hi: int) -> list[Message]:
    """Messages lo..hi: one a minute, round the sessions and speakers."""
    return [Message(session_id=f"s{(i * 7919) % SESSIONS}", role="user",
                    content=f"message {i}", ts=BASE_TS + i * MINUTE,
                    speaker_id="rare" if i % RARE_EVERY == RARE_EVERY - 1
                    else f"u{(i * 104729) % SPEAKERS}") for i in range(lo, hi)]


async def fill(store: MessageStore, n: int) -> None:
    for lo in range(0, n, 5000):
        await store.append(batch(lo, min(n, lo + 5000)))


async def timed(fn: Callable[[], Awaitable[Any]], repeat: int) -> float:
    """The median seconds of ``repeat`` calls (one untimed call first)."""
    await fn()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def operations(store: MessageStore, n: int, repeat: int) -> dict[str, float]:
    mid = BASE_TS + (n // 2) * MINUTE
    day = {"since": mid, "until": mid + 1440 * MINUTE}

    async def walk() -> None:
        async for _ in message_pages(store, limit=1000):
            pass

    out = {
        "first page": await timed(lambda: store.list_messages(limit=PAGE), repeat),
        "one day": await timed(lambda: store.list_messages(limit=PAGE, **day), repeat),
        "one day, newest first": await timed(lambda: store.list_messages(
            limit=PAGE, newest_first=True, **day), repeat),
        "page from the middle": await timed(lambda: store.list_messages(
            limit=PAGE, after=(mid, "")), repeat),
        "one speaker": await timed(lambda: store.list_messages(
            limit=PAGE, speaker_id="u7"), repeat),
        "a rare speaker": await timed(lambda: store.list_messages(
            limit=PAGE, speaker_id="rare"), repeat),
    }
    out["walk"] = await timed(walk, 1)
    return out


async def append_rate(store: MessageStore, n: int) -> float:
    """Messages a second appending ``APPENDED`` more after message ``n``."""
    start = time.perf_counter()
    for lo in range(n, n + APPENDED, BATCH):
        await store.append(batch(lo, lo + BATCH))
    return APPENDED / (time.perf_counter() - start)


class Sqlite:
    name = "sqlite"

    def __init__(self, folder: Path) -> None:
        self.path = folder / "listing.db"

    async def open(self) -> SqliteStore:
        return await SqliteStore.open(self.path)

    async def drop_index(self, store: Any) -> None:
        for name in INDEXES:
            store.conn.execute(f"DROP INDEX {name}")

    async def create_index(self, store: Any) -> None:
        for name, columns in INDEXES.items():
            store.conn.execute(f"CREATE INDEX {name} ON messages ({', '.join(columns)})")


class Postgres:
    name = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self.conninfo = pg_conninfo(url)
        self.schema = "bench_listing"

    async def admin(self, statement: str) -> None:
        async with await psycopg.AsyncConnection.connect(self.conninfo,
                                                         autocommit=True) as conn:
            await conn.execute(statement)  # type: ignore[arg-type]  # bench names only

    async def open(self) -> PostgresStore:
        await self.admin(f"DROP SCHEMA IF EXISTS {self.schema} CASCADE")
        return await PostgresStore.open(pg_url(self.url, schema=self.schema))

    async def drop_index(self, store: Any) -> None:
        for name in INDEXES:
            await self.admin(f"DROP INDEX {self.schema}.{name}")
        await self.admin(f"ANALYZE {self.schema}.messages")

    async def create_index(self, store: Any) -> None:
        for name, columns in INDEXES.items():
            await self.admin(f"CREATE INDEX {name} ON {self.schema}.messages "
                             f"({', '.join(columns[:-1])}, id COLLATE \"C\")")
        await self.admin(f"ANALYZE {self.schema}.messages")


async def run(backend: Sqlite | Postgres, n: int, repeat: int) -> dict[str, Any]:
    store = await backend.open()
    try:
        start = time.perf_counter()
        await fill(store, n)
        built = time.perf_counter() - start
        if isinstance(backend, Postgres):
            await backend.admin(f"ANALYZE {backend.schema}.messages")
        indexed = await operations(store, n, repeat)
        await backend.drop_index(store)
        bare = await operations(store, n, repeat)
        rate_bare = await append_rate(store, n)
        await backend.create_index(store)
        rate_indexed = await append_rate(store, n + APPENDED)
    finally:
        await store.close()
    return {"backend": backend.name, "messages": n, "fill_s": built,
            "with_index_s": indexed, "without_index_s": bare,
            "append_per_s": {"with_index": rate_indexed, "without_index": rate_bare}}


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100000,400000")
    ap.add_argument("--pg", help="a throwaway PostgreSQL URL (schema bench_listing)")
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--out", default="bench/results/listing.json")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    runs = []
    with tempfile.TemporaryDirectory() as tmp:
        for n in sizes:
            backends: list[Sqlite | Postgres] = [Sqlite(Path(tmp) / str(n))]
            if args.pg:
                backends.append(Postgres(args.pg))
            for backend in backends:
                if isinstance(backend, Sqlite):
                    backend.path.parent.mkdir()
                runs.append(await run(backend, n, args.repeat))
    rows = []
    for r in runs:
        for op, t in r["with_index_s"].items():
            b = r["without_index_s"][op]
            unit, scale = ("s", 1.0) if op == "walk" else ("ms", 1e3)
            rows.append([r["backend"], r["messages"], f"{op} ({unit})", b * scale, t * scale,
                         f"{b / t:.1f}×"])
        a = r["append_per_s"]
        rows.append([r["backend"], r["messages"], "append (messages/s)",
                     a["without_index"], a["with_index"],
                     f"{a['with_index'] / a['without_index']:.2f}×"])
    print_table(f"list_messages without a session, median of {args.repeat} "
                f"({machine()['cores']} cores)",
                ["store", "messages", "operation", "without", "with the indexes",
                 "ratio"], rows)
    write_json(args.out, {"machine": machine(), "repeat": args.repeat, "page": PAGE,
                          "sessions": SESSIONS, "speakers": SPEAKERS, "runs": runs})


if __name__ == "__main__":
    asyncio.run(main())
