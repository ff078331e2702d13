"""A filter field of many numeric keys (``{"0.0.0…": 1}``) on PostgreSQL, as it was
compiled and run before its keys were bounded, and as it is now, in one process.

    python bench/filter_paths.py [--keys 1000,2000,4000] [--pg URL] [--rows 100]
                                 [--out bench/results/filter_paths.json]

PostgreSQL's ``#>`` reads a numeric key as an array index, so the compiled filter
guards each numeric key with the path up to it (``jsonb_typeof(meta #> '{0,0,…}') =
'object'``): N keys bind about N²/2 path elements, and the server walks each guard's
path for every row. A field name had no bound but the body's (8 MiB over HTTP), so
``POST /v1/recall`` with ``{"filter": {"0.0.…": 1}}`` made that square in one request.
Before: the tree compiled directly (``_PostgresCompiler``, as ``compile_postgres`` did
without the bound) and, with ``--pg``, run over ``--rows`` rows of a temporary table;
now: the refusal (``parse_filter``, :data:`chatmem.store.filters.MAX_FIELD_KEYS`), and
the longest name taken, compiled and run the same way. ms of CPU (compile, refusal)
and of wall time (the query, which the server spends).
"""

from __future__ import annotations

import argparse
import time
from typing import Any

from _common import machine, print_table, write_json
from chatmem.errors import FilterError
from chatmem.store.filters import (
    MAX_FIELD_KEYS,
    Compare,
    _PostgresCompiler,
    compile_postgres,
    make_resolver,
)

RESOLVE = make_resolver("meta")


def elements(params: list[Any]) -> int:
    return sum(len(p) if isinstance(p, list) else 1 for p in params)


def run(conn: Any, sql: str, params: list[Any]) -> float:
    start = time.perf_counter()
    conn.execute(f"SELECT count(*) FROM bench_filter_docs WHERE {sql}", params).fetchall()
    return (time.perf_counter() - start) * 1000


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--keys", default="1000,2000,4000")
    ap.add_argument("--pg", help="a PostgreSQL URL (a temporary table is used)")
    ap.add_argument("--rows", type=int, default=100)
    ap.add_argument("--out", default="bench/results/filter_paths.json")
    args = ap.parse_args()
    conn = None
    if args.pg:
        import psycopg

        conn = psycopg.connect(args.pg, autocommit=True)
        conn.execute("CREATE TEMP TABLE bench_filter_docs (id integer, meta jsonb)")
        conn.execute("INSERT INTO bench_filter_docs SELECT g, '{\"0\": {\"0\": 1}}' "
                     "FROM generate_series(1, %s) g", [args.rows])
    rows: list[dict[str, Any]] = []
    for keys in (int(k) for k in args.keys.split(",")):
        name = ".".join(["0"] * keys)
        start = time.process_time()
        sql, params = _PostgresCompiler(RESOLVE).compile(Compare(name, "$eq", 1))
        compiled = (time.process_time() - start) * 1000
        start = time.process_time()
        try:
            compile_postgres({name: 1}, RESOLVE)
            refused = None
        except FilterError:
            refused = (time.process_time() - start) * 1000
        rows.append({"keys": keys, "before_path_elements": elements(params),
                     "before_compile_ms": round(compiled, 1),
                     "before_query_ms": round(run(conn, sql, params), 1) if conn else None,
                     "now_refused_ms": None if refused is None else round(refused, 3)})
    name = ".".join(["0"] * MAX_FIELD_KEYS)
    start = time.process_time()
    sql, params = compile_postgres({name: 1}, RESOLVE)
    longest = {"keys": MAX_FIELD_KEYS, "path_elements": elements(params),
               "compile_ms": round((time.process_time() - start) * 1000, 2),
               "query_ms": round(run(conn, sql, params), 1) if conn else None}
    print_table(f"a field of N numeric keys, PostgreSQL ({args.rows} rows); before: "
                "compiled without a bound; now: refused",
                ["keys", "path elements", "compile ms", "query ms", "now: refused in ms"],
                [[r["keys"], r["before_path_elements"], r["before_compile_ms"],
                  r["before_query_ms"], r["now_refused_ms"]] for r in rows])
    print(f"now, the longest name ({MAX_FIELD_KEYS} keys): {longest['path_elements']} path "
          f"elements, compiled in {longest['compile_ms']} ms, query {longest['query_ms']} ms")
    write_json(args.out, {"machine": machine(), "store": "PostgreSQL" if conn else "none",
                          "model": "none", "rows_in_table": args.rows, "rows": rows,
                          "longest_taken": longest})


if __name__ == "__main__":
    main()
