"""How chatmem's MCP server reads large requests, against the parser it sits beside.

    python bench/mcp_reading.py [--sizes 8,16,32,64] [--repeat 3]
        [--out bench/results/mcp_reading.json]

Three readings a hostile client can make long, each timed (median of ``--repeat``) in
one process beside a baseline that does the same amount of work in C, so the ratio
holds on a loaded machine where the times do not:

* ``stdin lines``: :class:`chatmem.server.mcp.StdinLines` reading one line of
  ``--sizes`` MB (then a short one, handed on) from a file, against reading the file
  with ``os.read`` in the same 64 KiB chunks; time in the line's length (the ratio
  stays flat as the line grows when the reading is linear: it searched the whole
  buffer and copied it with each chunk until 42ba0bd, 30–37 s for 64 MB; a line over
  4 MiB is dropped as it is read since ca97f07, its first 4 KiB kept for its id);
* ``read_refusal``: :func:`chatmem.server.mcp.read_refusal` of a ``tools/call`` of
  1,000,000 numbers 190 levels deep (2 MB), against ``json.loads`` of the same line;
* ``as_given``: :func:`chatmem.refusals.as_given` of 700,000 small lists (4 MB as
  JSON), the value a refusal shows, against ``json.dumps`` of it.

No store and no model are involved. ``tests/test_mcp.py`` counts the Python calls of
the last two (a number that does not depend on the machine); this file says what
they cost in time.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from _common import machine, print_table, write_json
from chatmem import refusals
from chatmem.server.mcp import StdinLines, read_refusal


def timed(work: Callable[[], Any], repeat: int) -> float:
    """Median seconds of ``repeat`` runs of ``work`` (after one run not counted)."""
    work()
    runs = []
    for _ in range(repeat):
        began = time.perf_counter()
        work()
        runs.append(time.perf_counter() - began)
    return statistics.median(runs)


def stdin_lines(path: Path) -> list[int]:
    fd = os.open(path, os.O_RDONLY)
    try:
        async def lines() -> list[int]:
            return [len(line) async for line in StdinLines(fd)]
        return asyncio.run(lines())
    finally:
        os.close(fd)


def os_chunks(path: Path) -> int:
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, StdinLines.CHUNK):
            chunks.append(chunk)
        return len(b"".join(chunks))
    finally:
        os.close(fd)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="8,16,32,64",
                        help="line lengths in MB, comma-separated")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--out", default="bench/results/mcp_reading.json")
    args = parser.parse_args()
    rows: list[list[Any]] = []
    results: list[dict[str, Any]] = []

    def record(what: str, size: str, seconds: float, baseline: str, base: float) -> None:
        rows.append([what, size, f"{seconds:.3f}", baseline, f"{base:.3f}",
                     f"{seconds / base:.1f}"])
        results.append({"reading": what, "size": size, "seconds": seconds,
                        "baseline": baseline, "baseline_seconds": base,
                        "ratio": seconds / base})

    note = b'{"jsonrpc": "2.0", "method": "note"}\n'
    with tempfile.TemporaryDirectory() as folder:
        for mb in (int(s) for s in args.sizes.split(",")):
            path = Path(folder) / f"line-{mb}.jsonl"
            path.write_bytes(b"x" * (mb << 20) + b"\n" + note)
            assert stdin_lines(path) == [len(note)]  # the long line dropped as read (ca97f07)
            record("stdin lines", f"{mb} MB",
                   timed(functools.partial(stdin_lines, path), args.repeat),
                   "os.read chunks", timed(functools.partial(os_chunks, path), args.repeat))
            path.unlink()

    line = ('{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": '
            '"memory_add", "arguments": {"content": ' + "[" * 190 + "0, " * 1_000_000
            + "0" + "]" * 190 + "}}}")
    assert read_refusal(line) is None
    record("read_refusal", f"{len(line) / 1e6:.1f} MB, 190 deep",
           timed(lambda: read_refusal(line), args.repeat),
           "json.loads", timed(lambda: json.loads(line), args.repeat))

    value = [[[0]] for _ in range(700_000)]
    record("as_given", f"{len(json.dumps(value)) / 1e6:.1f} MB, 700,000 lists",
           timed(lambda: refusals.as_given(value), args.repeat),
           "json.dumps", timed(lambda: json.dumps(value), args.repeat))

    print_table(f"MCP request reading, {os.cpu_count()} cores, median of {args.repeat}",
                ["reading", "size", "seconds", "baseline", "baseline s", "ratio"], rows)
    write_json(args.out, {"machine": machine(), "model": "none", "store": "none",
                          "repeat": args.repeat, "results": results})


if __name__ == "__main__":
    main()
