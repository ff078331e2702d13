"""List pages under a resource or platform scope: the sessions a page reads, before and now.

    python bench/scope_pages.py [--sessions 5000] [--repeat 9]
        [--out bench/results/scope_pages.json]

In one process, a fresh SQLite store (in a temporary folder) with ``--sessions``
sessions of one resource (``r1``) on one platform (``tg``), two messages each, in two
layouts: ``flat`` (every session a conversation of its own) and ``threads`` (one in
five a conversation, the other four threads below it). Under scope ``resource`` and
then ``platform`` (set for platform ``tg``), each page is timed (median of
``--repeat``) with the listing as it was before (the baseline: every session of the
resource or platform read from the store, for each page, to keep those whose snapshot
is in it) and as it is now (a session without a parent is there for its own resource
or platform, which is its snapshot's: only those below another are read; a page of one
session reads that session alone), with the session rows each page reads
(``get_sessions``):

* ``first page``: ``Memory.list(visible_from=…, limit=100)`` (``GET /v1/messages``
  with a user key);
* ``next page``: the page after it (its cursor);
* ``one session``: the same with ``session=`` one of the others.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
import types
from collections.abc import Mapping
from typing import Any

from _common import machine, median_ms, print_table, write_json
from chatmem import Memory, Message, Session
from chatmem.config import Config
from chatmem.scopes import made_by

BASE_TS = 1_700_000_000_000
PAGE = 100
OWNER = {"id": "bench", "role": "owner"}


async def before_readable(self: Memory, where: Mapping[str, Any] | None,
                          session: str | None) -> Any:
    """``Memory._readable`` as it was: every session under the resource or platform
    read, for each page, then the one asked kept."""
    made = made_by(where)
    if made is None or made[0] == "session":
        return await Memory._readable(self, where, session)
    scope, value, own = made
    column, entered_on = ("resource_id", None) if scope == "resource" \
        else ("origin_platform", value)
    under = {sid for sid, _ in await self.store.sessions_under(column, value)}
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


async def measure(url: str, sessions: int, layout: str, repeat: int
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
        for scope in ("resource", "platform"):
            await mem.settings.set(scope, actor=OWNER, layer="platform", platform="tg")
            first = await mem.list(visible_from="s000000", platform="tg", limit=PAGE)
            pages: dict[str, dict[str, Any]] = {
                "first page": {}, "next page": {"cursor": first.next_cursor},
                "one session": {"session": f"s{sessions // 2:06d}"}}
            for page, extra in pages.items():
                row: dict[str, Any] = {"backend": "sqlite", "layout": layout,
                                       "sessions": sessions, "scope": scope, "page": page}
                for when, readable in (("before", types.MethodType(before_readable, mem)),
                                       ("now", now)):
                    mem._readable = readable  # type: ignore[method-assign]

                    async def listed(extra: dict[str, Any] = extra) -> Any:
                        return await mem.list(visible_from="s000000", platform="tg",
                                              limit=PAGE, **extra)

                    read.clear()
                    shown = await listed()
                    row[f"{when}_session_rows"] = len(read)
                    row[f"{when}_messages"] = len(shown.messages)
                    row[f"{when}_ms"] = round(await median_ms(listed, repeat), 1)
                assert row["before_messages"] == row["now_messages"], row
                rows.append(row)
        mem._readable = now  # type: ignore[method-assign]
    finally:
        await mem.close()
    return rows


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sessions", type=int, default=5000)
    ap.add_argument("--repeat", type=int, default=9)
    ap.add_argument("--out", default="bench/results/scope_pages.json")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        for layout in ("flat", "threads"):
            rows += await measure(f"sqlite:///{tmp}/{layout}.db", args.sessions, layout,
                                  args.repeat)
    print_table(f"List pages under a wide scope, median ms ({time.perf_counter() - started:.0f}"
                " s in all; no model)",
                ["layout", "sessions", "scope", "page", "before ms", "now ms",
                 "before rows", "now rows", "messages"],
                [[r["layout"], r["sessions"], r["scope"], r["page"], r["before_ms"],
                  r["now_ms"], r["before_session_rows"], r["now_session_rows"],
                  r["now_messages"]] for r in rows])
    write_json(args.out, {"machine": machine(), "model": "none (semantic_recall off)",
                          "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    asyncio.run(main())
