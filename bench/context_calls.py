"""A context for tool answers whose call is behind many stored tool answers, before and now.

    python bench/context_calls.py [--answers 3000] [--chars 10240] [--pg URL]
        [--repeat 7] [--out bench/results/context_calls.json]

In one process, a fresh SQLite store (in a temporary folder; with ``--pg``, then
PostgreSQL in a throwaway schema ``bench_context_calls``, dropped first and after)
holding one session: a user message, an assistant message calling two tools, the
answer to the first, then ``--answers`` stored tool answers of ``--chars`` characters
each to other calls. A turn answers the second call, so ``Memory.context(turn)``
(``last_messages`` 3, no recall) reads back past every stored answer to find the call,
without their words (``MessageStore.recent_heads``, doubling up to 4,096 messages).
Timed (median of ``--repeat``, the two taking turns, after one call of each) with
``recent_heads`` as it was before (the baseline: every message column but the texts,
read as ``''`` and ``NULL``, with the row's sequence number and index state, each row
made a message by the generic row reader) and as it is now (only the columns a message
keeps but its texts, each message built directly), on the same store:

* ``context``: the whole ``Memory.context(turn)`` (the contexts compared: the same);
* ``recent_heads 4096``: one read of the session's 4,096 latest heads (all of them);
* ``context, reads going on``: the whole ``Memory.context(turn)`` with the reads that
  find the call as they were before (the baseline: each read began again at the
  session's newest message, twice as many each time: ``recent_heads`` reading the
  reads before again with each) and as they are now (each goes on from the oldest
  message of the one before, ``until``), both with today's columns; with the rows
  read in all (``before_rows``, ``now_rows``).
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import statistics
import tempfile
import time
from typing import Any

from _common import drop_pg_schema, machine, pg_url, print_table, write_json
from chatmem import Memory
from chatmem.config import Config
from chatmem.store import sqlmessages as sm
from chatmem.store.columns import MESSAGE_COLUMNS

SCHEMA = "bench_context_calls"
SESSION = "s1"
CALL: list[dict[str, Any]] = [
    {"role": "user", "content": "Find the release notes and the build status."},
    {"role": "assistant", "content": None, "tool_calls": [
        {"id": "call_notes", "type": "function", "function": {
            "name": "search", "arguments": '{"q": "release notes"}'}},
        {"id": "call_build", "type": "function", "function": {
            "name": "build_status", "arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "call_notes", "content": "the notes"},
]
TURN = [{"role": "tool", "tool_call_id": "call_build", "content": "green"}]

#: recent_heads' columns before: every message column, the texts as constants
_BEFORE_COLUMNS = ", ".join(
    "'' AS content" if c.column == "content" else
    "NULL AS visible_content" if c.column == "visible_content" else c.column
    for c in MESSAGE_COLUMNS)


def before_query(d: sm.Dialect, n: int, until: int | None = None) -> sm.Statement:
    hidden, hparams = d.in_list("kind", sm.HIDDEN_KINDS, negate=True)
    later, lparams = ("", []) if until is None else (f" AND ts < {d.mark}", [until])
    return (f"SELECT {d.seq}, {_BEFORE_COLUMNS}, index_state FROM messages "
            f"WHERE session_id = {d.mark} AND {hidden}{later} ORDER BY ts DESC "
            f"LIMIT {d.mark}", [SESSION, *hparams, *lparams, d.limit(n)])


def before_heads(store: Any, backend: str) -> Any:
    """``store.recent_heads`` as it was (its columns; ``until`` as now)."""
    if backend == "sqlite":
        def read(n: int, until: int | None) -> list[Any]:
            return sm.recent_result(sm.SQLITE, store._rows(before_query(sm.SQLITE, n,
                                                                        until)))

        async def heads(session_id: str, n: int, *, until: int | None = None) -> list[Any]:
            return await store._run(functools.partial(read, n, until))
        return heads

    from chatmem.store.postgres import _rows

    async def pg_heads(session_id: str, n: int, *, until: int | None = None) -> list[Any]:
        async with store._conn() as conn:
            rows = await _rows(conn, before_query(sm.POSTGRES, n, until))
        return sm.recent_result(sm.POSTGRES, rows)
    return pg_heads


async def measure(url: str, backend: str, answers: int, chars: int, repeat: int
                  ) -> list[dict[str, Any]]:
    mem = await Memory.open(url, config=Config.load(
        {"semantic_recall": False, "last_messages": 3}))
    rows: list[dict[str, Any]] = []
    try:
        await mem.add(CALL, session=SESSION)
        for lo in range(0, answers, 500):
            await mem.add([{"role": "tool", "tool_call_id": f"other_{i}",
                            "content": f"output {i} " + "x" * chars}
                           for i in range(lo, min(lo + 500, answers))], session=SESSION)
        store = mem.store
        now = store.recent_heads
        before = before_heads(store, backend)
        rows_read: dict[str, int] = {}

        async def going_on(session_id: str, n: int, *, until: int | None = None
                           ) -> list[Any]:
            got = await now(session_id, n, until=until)
            rows_read["now"] = rows_read.get("now", 0) + len(got)
            return got

        read_so_far: list[int] = []

        async def starting_over(session_id: str, n: int, *, until: int | None = None
                                ) -> list[Any]:
            """The reads as they were: each from the newest message, as many as the
            reads before and ``n`` more (8, 16, 32, …), of which those before ``until``
            are the read asked for."""
            if until is None:
                read_so_far.clear()
            size = sum(read_so_far) + n if until is not None else n
            got = await now(session_id, size)
            read_so_far.append(n)
            rows_read["before"] = rows_read.get("before", 0) + len(got)
            return got if until is None else [m for m in got if m.ts < until][-n:]

        context = lambda: mem.context(TURN, session=SESSION)  # noqa: E731
        ops: dict[str, tuple[Any, dict[str, Any]]] = {
            # the baseline of each: recent_heads as it was, or the reads starting over
            "context": (context, {"before": before, "now": now}),
            "recent_heads 4096": (lambda: store.recent_heads(SESSION, 4096),
                                  {"before": before, "now": now}),
            "context, reads going on": (context, {"before": starting_over,
                                                   "now": going_on}),
        }
        for name, (op, variants) in ops.items():
            row: dict[str, Any] = {"backend": backend, "answers": answers, "chars": chars,
                                   "operation": name}
            got: dict[str, Any] = {}
            times: dict[str, list[float]] = {"before": [], "now": []}
            for turn in range(repeat + 1):  # alternately: a shared machine's load on both
                for when, heads in variants.items():
                    store.recent_heads = heads
                    rows_read.pop(when, None)
                    start = time.perf_counter()
                    got[when] = await op()
                    if turn:  # the first of each: a warm-up
                        times[when].append((time.perf_counter() - start) * 1000)
            store.recent_heads = now
            for when, ms in times.items():
                row[f"{when}_ms"] = round(statistics.median(ms), 1)
                if when in rows_read:
                    row[f"{when}_rows"] = rows_read[when]
            assert got["before"] == got["now"], name
            row["ratio"] = round(row["now_ms"] / row["before_ms"], 2)
            rows.append(row)
    finally:
        await mem.close()
    return rows


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--answers", type=int, default=3000)
    ap.add_argument("--chars", type=int, default=10240)
    ap.add_argument("--pg", default=None, help="a PostgreSQL URL (a schema is made)")
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--out", default="bench/results/context_calls.json")
    args = ap.parse_args()
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        rows = await measure(f"sqlite:///{tmp}/calls.db", "sqlite", args.answers,
                             args.chars, args.repeat)
    if args.pg:
        drop_pg_schema(args.pg, SCHEMA)
        try:
            rows += await measure(pg_url(args.pg, schema=SCHEMA), "postgresql",
                                  args.answers, args.chars, args.repeat)
        finally:
            drop_pg_schema(args.pg, SCHEMA)
    print_table(f"A call behind {args.answers:,} tool answers of {args.chars:,} characters, "
                f"median ms ({time.perf_counter() - started:.0f} s in all; no model)",
                ["backend", "operation", "before ms", "now ms", "now / before",
                 "rows before / now"],
                [[r["backend"], r["operation"], r["before_ms"], r["now_ms"], r["ratio"],
                  f"{r['before_rows']} / {r['now_rows']}" if "now_rows" in r else ""]
                 for r in rows])
    write_json(args.out, {"machine": machine(), "model": "none (semantic_recall off)",
                          "store": f"one session: a call, its first answer, then "
                                   f"{args.answers} tool answers of {args.chars} "
                                   "characters",
                          "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    asyncio.run(main())
