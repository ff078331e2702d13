"""Shared helpers of the benchmarks: machine facts, LoCoMo texts, table and JSON output."""

from __future__ import annotations

import argparse
import json
import os
import platform
import socket
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlencode, urlsplit, urlunsplit

DEFAULT_LOCOMO = Path(__file__).resolve().parents[2] / "shared" / "data" / "locomo" / \
    "locomo10.json"


def free_port() -> int:
    """A TCP port free on 127.0.0.1 now, for a server a benchmark starts."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def proc_status_kb(pid: int, key: str) -> int | None:
    """A ``/proc/<pid>/status`` field in kB (``VmRSS``, ``VmHWM``; Linux), None when the
    process or the field is gone."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith(key + ":"):
                return int(line.split()[1])
    except OSError:
        pass
    return None


def machine() -> dict[str, Any]:
    return {
        "cores": os.cpu_count(),
        "python": platform.python_version(),
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
    }


def pg_url(url: str, **options: Any) -> str:
    """A PostgreSQL URL with chatmem's query parameters ``options`` (``schema``, …) set:
    one the user's ``--pg`` URL already names is replaced (the store refuses a parameter
    given twice), the others are kept."""
    parts = urlsplit(url)
    kept = [item for item in parts.query.split("&")
            if item and unquote(item.partition("=")[0]) not in options]
    query = "&".join([*kept, urlencode({k: str(v) for k, v in options.items()})])
    return urlunsplit(parts._replace(query=query))


def pg_conninfo(url: str) -> str:
    """What psycopg connects with: the URL without chatmem's own query parameters."""
    from chatmem.store.postgres.url import parse_url

    return parse_url(url)[0]


def drop_pg_schema(url: str, schema: str) -> None:
    """Drop a benchmark's throwaway PostgreSQL schema (and everything in it), if any."""
    import psycopg

    with psycopg.connect(pg_conninfo(url), autocommit=True) as conn:
        conn.execute(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


def locomo_turns(conv: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(dia_id, text as chatmem embeds it: speaker prefix + text + image caption)."""
    c = conv["conversation"]
    n = 1
    while f"session_{n}" in c or f"session_{n}_date_time" in c:
        for turn in c.get(f"session_{n}", []):
            text = turn["text"]
            if turn.get("blip_caption"):
                text += f" [shares image: {turn['blip_caption']}]"
            yield turn["dia_id"], f"{turn['speaker']}: {text}"
        n += 1


def locomo_texts(path: Path, limit: int) -> list[str]:
    """Chat turns as chatmem embeds them, in conversation order, at most ``limit``."""
    data = json.loads(path.read_text(encoding="utf-8"))
    out: list[str] = []
    for conv in data:
        for _, text in locomo_turns(conv):
            out.append(text)
            if len(out) >= limit:
                return out
    return out


def pct(values: list[float], p: float) -> float:
    s = sorted(values)
    if not s:
        return float("nan")
    k = min(len(s) - 1, max(0, round(p / 100 * (len(s) - 1))))
    return s[k]


def median(values: list[float]) -> float:
    return statistics.median(values)


def alternating_ms(before: Callable[[], Any], now: Callable[[], Any], repeat: int
                   ) -> tuple[float, float]:
    """Median ms of CPU of ``before`` and of ``now``, run in turn ``repeat`` times each
    (so that the machine's noise falls on both alike), their answers checked equal."""
    spent: tuple[list[float], list[float]] = ([], [])
    for _ in range(repeat):
        answers = []
        for run, times in ((before, spent[0]), (now, spent[1])):
            start = time.process_time()
            answers.append(run())
            times.append((time.process_time() - start) * 1000)
        assert answers[0] == answers[1]
    return median(spent[0]), median(spent[1])


async def median_ms(op: Callable[[], Awaitable[Any]], repeat: int) -> float:
    """Median milliseconds of ``repeat`` awaited calls of ``op``."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await op()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def print_table(title: str, header: list[str], rows: list[list[Any]]) -> None:
    cells = [[str(h) for h in header]] + [[_fmt(c) for c in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    print(f"\n{title}")
    for j, r in enumerate(cells):
        print("  ".join(c.rjust(w) if i else c.ljust(w) for i, (c, w) in
                        enumerate(zip(r, widths))))
        if j == 0:
            print("  ".join("-" * w for w in widths))


def before_now_row(model: str, text: str, chars: int, operation: str, before: float,
                   now: float) -> dict[str, Any]:
    """One row of a before/now bench (:func:`alternating_ms`'s two medians, ms)."""
    return {"model": model, "text": text, "chars": chars, "operation": operation,
            "before_ms": round(before, 2), "now_ms": round(now, 2),
            "ratio": round(now / before, 3)}


def print_before_now(title: str, rows: list[dict[str, Any]]) -> None:
    """The table of :func:`before_now_row` rows."""
    print_table(title, ["model", "text, characters", "operation", "before ms", "now ms",
                        "now / before"],
                [[r["model"], r["text"], r["operation"], r["before_ms"], r["now_ms"],
                  r["ratio"]] for r in rows])


def _fmt(c: Any) -> str:
    if isinstance(c, float):
        return f"{c:.3f}" if abs(c) < 100 else f"{c:.1f}"
    return str(c)


def write_json(path: str | Path, data: dict[str, Any]) -> None:
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    Path(path).write_text(json.dumps(data, indent=2, ensure_ascii=False), encoding="utf-8")
    print(f"\nwrote {path}")


async def before_now_main(doc: str, *, name: str, size_name: str,
                          measure: Callable[[int, int, Path], Awaitable[list[dict[str, Any]]]],
                          title: str, store: str) -> None:
    """The command line of a benchmark that times operations now and as they were before
    (``before_ms``, ``now_ms``, ``ratio`` rows from ``measure(size, repeat, folder)``,
    one fresh temporary folder for all sizes): ``--sizes``, ``--repeat``, ``--out``
    (default ``bench/results/<name>.json``), a table, and the JSON with the machine."""
    ap = argparse.ArgumentParser(description=doc.split("\n")[0])
    ap.add_argument("--sizes", default="1000,10000,50000")
    ap.add_argument("--repeat", type=int, default=15)
    ap.add_argument("--out", default=f"bench/results/{name}.json")
    args = ap.parse_args()
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory() as tmp:
        for size in (int(s) for s in args.sizes.split(",")):
            rows += await measure(size, args.repeat, Path(tmp))
    print_table(title, [size_name, "operation", "before ms", "now ms", "now / before"],
                [[r[size_name], r["operation"], r["before_ms"], r["now_ms"], r["ratio"]]
                 for r in rows])
    write_json(args.out, {"machine": machine(), "store": store,
                          "model": "none (semantic_recall off: nothing embedded)",
                          "repeat": args.repeat, "rows": rows})
