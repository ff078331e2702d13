"""PostgreSQL full text: long queries on a small store (term counts by the GIN indexes).

    python bench/pg_long_query.py --pg URL [--messages 300] [--lengths 100,1000,4000]
        [--repeat 5] [--out bench/results/pg_long_query.json]

In one process, a fresh schema (``bench_longq``, dropped first and after) holding
``--messages`` messages of 300 random common Chinese characters (hash embedder: what
is measured is the full-text query). For each query length (Chinese characters; recall
passes at most the last 4,000), ``lexical_query(query, 5)`` is timed (median of
``--repeat``) as it is now and, as the baseline in the same process on the same store,
the term counts as they were before stop 47: one statement per query whatever its
number of terms, which on a table of a few hundred rows the planner answered by
reading every row's tsvector once per term (and compiled with JIT). Now a query of
more than 64 terms counts by the GIN indexes, without JIT.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from typing import Any

import psycopg

from _common import machine, median_ms, pg_conninfo, pg_url, print_table, write_json
from chatmem import Memory, Message
from chatmem.store.postgres import PostgresStore
from chatmem.store.postgres.lexical import _pg_quote
from chatmem.testing import embedder
from chatmem.text import query_terms

SCHEMA = "bench_longq"
#: The term counts as pg_corpus_stats ran them before stop 47 (the baseline).
OLD_COUNTS = ("SELECT q.t, (SELECT count(*) FROM vectors WHERE lex @@ q.t::tsquery) "
              "+ (SELECT count(*) FROM lexical_entries WHERE lex @@ q.t::tsquery) "
              "FROM unnest(%s::text[]) AS q(t)")


def chinese(rng: random.Random, n: int) -> str:
    return "".join(chr(rng.randint(0x4E00, 0x4E00 + 2000)) for _ in range(n))


async def drop(url: str) -> None:
    async with await psycopg.AsyncConnection.connect(pg_conninfo(url), autocommit=True) as c:
        await c.execute(f"DROP SCHEMA IF EXISTS {SCHEMA} CASCADE")


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--pg", required=True)
    ap.add_argument("--messages", type=int, default=300)
    ap.add_argument("--lengths", default="100,1000,4000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default="bench/results/pg_long_query.json")
    args = ap.parse_args()
    url = pg_url(args.pg, schema=SCHEMA)
    await drop(url)
    rng = random.Random(7)
    mem = await Memory.open(url, embedder=embedder())
    rows: list[dict[str, Any]] = []
    try:
        await mem.add([Message(session_id="s", content=chinese(rng, 300), ts=1000 + i)
                       for i in range(args.messages)])
        await mem.flush(timeout=600)
        store = mem.store
        assert isinstance(store, PostgresStore)
        for length in (int(n) for n in args.lengths.split(",")):
            query = chinese(rng, length)
            terms = [_pg_quote(t) for t in query_terms(query)]

            async def before(terms: list[str] = terms) -> None:
                async with store._conn() as conn:
                    await (await conn.execute(OLD_COUNTS, [terms])).fetchall()

            async def now(query: str = query) -> None:
                await store.lexical_query(query, 5)

            base = await median_ms(before, args.repeat)
            new = await median_ms(now, args.repeat)
            rows.append({"query_chars": length, "terms": len(terms),
                         "before_counts_ms": round(base, 1), "now_query_ms": round(new, 1),
                         "ratio": round(new / base, 4)})
    finally:
        await mem.close()
        await drop(url)
    print_table(f"PostgreSQL lexical_query on {args.messages} messages of 300 Chinese "
                "characters, median ms (before: the term counts alone, as before stop 47; "
                "now: the whole query; same process)",
                ["query chars", "terms", "before: counts ms", "now: query ms", "now / before"],
                [[r["query_chars"], r["terms"], r["before_counts_ms"], r["now_query_ms"],
                  r["ratio"]] for r in rows])
    write_json(args.out, {"machine": machine(), "store": f"postgresql, {args.messages} messages",
                          "model": "hash (chatmem.testing; only full text is measured)",
                          "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    asyncio.run(main())
