"""List pages under a resource or platform scope: the sessions a page reads, before and now.

    python bench/scope_pages.py [--sessions 5000] [--repeat 9] [--pg URL]
        [--out bench/results/scope_pages.json]

In one process, a fresh SQLite store (in a temporary folder; with ``--pg``, then
PostgreSQL in a throwaway schema ``bench_scope_pages``, dropped first and after) with
``--sessions`` sessions of one resource (``r1``) on one platform (``tg``), two messages
each, in two layouts: ``flat`` (every session a conversation of its own) and
``threads`` (one in five a conversation, the other four threads below it). Under scope
``resource`` and then ``platform`` (set for platform ``tg``), each page is timed
(median of ``--repeat``, the three taking turns, after one call of each) with the
listing as it was at first (``all``: every session of the resource or platform read,
for each page, to keep those whose snapshot is in it), as 1cf747e made it (``below``:
a session without a parent is there for its own resource or platform, only those below
another are read, with their parents; a page of one session reads that session alone)
and as it is now (``now``: the store walks each session's parent chain to its root in
the same query that finds them; only a session whose chain it cannot walk to a root is
read), with the session rows each page reads (``get_sessions``; those of the page's own
messages, R4, included):

* ``first page``: ``Memory.list(visible_from=…, limit=100)`` (``GET /v1/messages``
  with a user key);
* ``next page``: the page after it (its cursor);
* ``one session``: the same with ``session=`` one of the others.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
import types
from collections.abc import Mapping
from typing import Any

from _common import drop_pg_schema, machine, pg_url, print_table, write_json
from chatmem import Memory, Message, Session
from chatmem.config import Config
from chatmem.scopes import made_by

SCHEMA = "bench_scope_pages"
BASE_TS = 1_700_000_000_000
PAGE = 100
OWNER = {"id": "bench", "role": "owner"}


def _scope(self: Memory, where: Mapping[str, Any] | None) -> Any:
    """The scope's column, value, asker and platform of a list, or ``None`` for one
    ``Memory._readable`` answers without reading sessions."""
    made = made_by(where)
    if made is None or made[0] == "session":
        return None
    scope, value, own = made
    return (("resource_id", None) if scope == "resource" else ("origin_platform", value)
            ) + (value, own)


async def all_readable(self: Memory, where: Mapping[str, Any] | None,
                       session: str | None) -> Any:
    """``Memory._readable`` as it was at first: every session under the resource or
    platform read, for each page, then the one asked kept."""
    scope = _scope(self, where)
    if scope is None:
        return await Memory._readable(self, where, session)
    column, entered_on, value, own = scope
    under = {r.id for r in await self.store.sessions_under(column, value)}
    snaps = await self._sessions(under, {}, where)
    seen = sorted(sid for sid, snap in snaps.items()
                  if getattr(snap, column) == value or sid == own)
    if own is not None and own not in seen:
        seen = sorted([*seen, own])
    if session is None:
        return (seen, None, []) if entered_on is None else (None, entered_on, seen)
    if session in seen:
        return [session], None, []
    return None if entered_on is None else ([session], entered_on, [])


async def below_readable(self: Memory, where: Mapping[str, Any] | None,
                         session: str | None) -> Any:
    """``Memory._readable`` as 1cf747e made it: the sessions below another read, with
    their parents (a page of one session: that session alone)."""
    scope = _scope(self, where)
    if scope is None:
        return await Memory._readable(self, where, session)
    column, entered_on, value, own = scope
    rows = [(r.id, r.parent_id) for r in await self.store.sessions_under(column, value)]
    under = {sid for sid, _ in rows}
    if session is not None:
        if session == own or (session in under and getattr(
                (await self._sessions({session}, {}, where)).get(session), column,
                None) == value):
            return [session], None, []
        return None if entered_on is None else ([session], entered_on, [])
    below = {sid: parent for sid, parent in rows if parent is not None}
    snaps = await self._sessions(below.keys() | (set(below.values()) & under), {}, where)
    seen = sorted({sid for sid, parent in rows if parent is None}
                  | {sid for sid, snap in snaps.items() if getattr(snap, column) == value}
                  | ({own} if own is not None else set()))
    return (seen, None, []) if entered_on is None else (None, entered_on, seen)


async def fill(mem: Memory, sessions: int, layout: str) -> None:
    for i in range(sessions):
        home = layout == "flat" or i % 5 == 0
        await mem.upsert_session(Session(
            id=f"s{i:06d}", resource_id="r1" if home else None,
            origin_platform="tg" if home else None,
            parent_id=None if home else f"s{i - i % 5:06d}"))
    messages = [Message(session_id=f"s{i:06d}", role="user", content=f"message {i}-{j}",
                        ts=BASE_TS + (2 * i + j) * 1000, platform="tg")
                for i in range(sessions) for j in range(2)]
    for lo in range(0, len(messages), 1000):
        await mem.add(messages[lo:lo + 1000])


async def measure(url: str, backend: str, sessions: int, layout: str, repeat: int
                  ) -> list[dict[str, Any]]:
    mem = await Memory.open(url, config=Config.load({"semantic_recall": False}))
    rows: list[dict[str, Any]] = []
    try:
        await fill(mem, sessions, layout)
        read: list[str] = []
        get_sessions = mem.store.get_sessions

        async def counted(ids: list[str], **options: Any) -> Any:
            read.extend(ids)
            return await get_sessions(ids, **options)

        mem.store.get_sessions = counted  # type: ignore[method-assign,assignment]
        now = mem._readable
        ways = {"all": types.MethodType(all_readable, mem),
                "below": types.MethodType(below_readable, mem), "now": now}
        for scope in ("resource", "platform"):
            await mem.settings.set(scope, actor=OWNER, layer="platform", platform="tg")
            first = await mem.list(visible_from="s000000", platform="tg", limit=PAGE)
            pages: dict[str, dict[str, Any]] = {
                "first page": {}, "next page": {"cursor": first.next_cursor},
                "one session": {"session": f"s{sessions // 2:06d}"}}
            for page, extra in pages.items():
                row: dict[str, Any] = {"backend": backend, "layout": layout,
                                       "sessions": sessions, "scope": scope, "page": page}

                async def listed(extra: dict[str, Any] = extra) -> Any:
                    return await mem.list(visible_from="s000000", platform="tg",
                                          limit=PAGE, **extra)

                times: dict[str, list[float]] = {way: [] for way in ways}
                shown: dict[str, Any] = {}
                for turn in range(repeat + 1):  # in turns: a shared machine's load on all
                    for way, readable in ways.items():
                        mem._readable = readable  # type: ignore[method-assign]
                        read.clear()
                        start = time.perf_counter()
                        shown[way] = await listed()
                        if turn:  # the first of each: a warm-up
                            times[way].append((time.perf_counter() - start) * 1000)
                        row[f"{way}_session_rows"] = len(read)
                for way in ways:
                    row[f"{way}_ms"] = round(statistics.median(times[way]), 1)
                    assert shown[way].messages == shown["now"].messages, (row, way)
                row["now_messages"] = len(shown["now"].messages)
                rows.append(row)
        mem._readable = now  # type: ignore[method-assign]
    finally:
        await mem.close()
    return rows


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pg", default=None,
                    help="a PostgreSQL URL: the same there, in a schema of its own")
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--out", default="bench/results/scope_pages.json")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for layout in ("flat", "threads"):
            rows += await measure(f"sqlite:///{tmp}/{layout}.db", "sqlite", args.sessions,
                                  layout, args.repeat)
    if args.pg:
        for layout in ("flat", "threads"):
            drop_pg_schema(args.pg, SCHEMA)
            try:
                rows += await measure(pg_url(args.pg, schema=SCHEMA), "postgresql",
                                      args.sessions, layout, args.repeat)
            finally:
                drop_pg_schema(args.pg, SCHEMA)
    print_table(f"List pages under a wide scope, median ms ({time.perf_counter() - started:.0f}"
                " s in all; no model)",
                ["backend", "layout", "scope", "page", "all ms", "below ms", "now ms",
                 "all rows", "below rows", "now rows", "messages"],
                [[r["backend"], r["layout"], r["scope"], r["page"], r["all_ms"],
                  r["below_ms"], r["now_ms"], r["all_session_rows"],
                  r["below_session_rows"], r["now_session_rows"], r["now_messages"]]
                 for r in rows])
    write_json(args.out, {"machine": machine(), "model": "none (semantic_recall off)",
                          "store": f"{args.sessions} sessions of one resource on one "
                                   "platform, two messages each (flat; threads: four in "
                                   "five below another)",
                          "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    asyncio.run(main())
