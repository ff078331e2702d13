"""The server's memory under many large recalls at once, with and without request slots
(``--max-concurrent-requests``, :class:`chatmem.server.limits.RequestSlots`).

    python bench/concurrency.py [--messages 700] [--chars 199000] [--levels 1,32,64]
                                [--slots 16] [--client-levels 64]
                                [--out bench/results/concurrency.json]

Builds one SQLite store in a temporary folder (``--messages`` messages of ``--chars``
characters in one session, indexed with the default local model), then for each
server setting starts ``chatmem serve`` on 127.0.0.1 and sends, at each ``--levels``
count, that many ``POST /v1/recall`` at once (``top_k`` 100, ``window`` 100: answers of
up to 16 million characters of messages, the largest a recall returns). Reported per
level: the server's peak resident memory (sampled every 50 ms from ``/proc``), its
memory after the burst, the wall time of the burst and the answers' status codes.
Settings: ``--slots`` (the default, 16) and a baseline without a practical limit
(100,000 slots: what the server did before), in the same run.

Then, with ``--slots``, each ``--client-levels`` count of the same recalls at once through
:class:`chatmem.client.AsyncClient`, one client per call: with ``busy_retries`` 0 (a
refused call fails at once, as every call did before the client read the server's "no
slot free" 503) and with the default, reported as how many calls returned and how many
raised, by error class.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import os
import random
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import free_port, machine, print_table, proc_status_kb, write_json
from chatmem import Memory, Message
from chatmem.client import DEFAULT_BUSY_RETRIES, AsyncClient
from server import wait_healthy

WORDS = ["alpha", "budget", "trip", "passport", "dinner", "meeting", "garden", "visa",
         "train", "doctor"]


async def build(path: Path, messages: int, chars: int) -> None:
    rnd = random.Random(1)
    start = int(time.time() * 1000) - 86_400_000
    async with await Memory.open(f"sqlite:///{path}") as mem:
        for first in range(0, messages, 100):
            batch = []
            for k in range(first, min(messages, first + 100)):
                body = " ".join(rnd.choice(WORDS) for _ in range(chars // 5))
                batch.append(Message(session_id="s", content=f"note {k} about the trip {body}"
                                     [:chars], ts=start + k * 1000))
            await mem.add(batch)
        await mem.flush(1800)


def rss_mb(pid: int) -> int:
    return (proc_status_kb(pid, "VmRSS") or 0) // 1024


async def burst(base: str, count: int) -> tuple[float, dict[int, int]]:
    body = {"query": "the trip passport", "session": "s", "top_k": 100, "window": 100}
    async with httpx.AsyncClient(timeout=600,
                                 limits=httpx.Limits(max_connections=count + 5)) as client:
        async def one() -> int:
            answer = await client.post(f"{base}/v1/recall", json=body)
            await answer.aread()
            return answer.status_code

        started = time.perf_counter()
        codes = await asyncio.gather(*(one() for _ in range(count)))
        return time.perf_counter() - started, dict(collections.Counter(codes))


async def client_burst(base: str, count: int, busy_retries: int
                       ) -> tuple[float, dict[str, int]]:
    async def one() -> str:
        async with AsyncClient(base, timeout=600, busy_retries=busy_retries) as client:
            try:
                await client.recall("the trip passport", session="s", top_k=100, window=100)
            except Exception as exc:  # counted by class: what the caller would catch
                return type(exc).__name__
            return "returned"

    started = time.perf_counter()
    outcomes = await asyncio.gather(*(one() for _ in range(count)))
    return time.perf_counter() - started, dict(collections.Counter(outcomes))


def run_server(db: Path, slots: int, levels: list[int], client_levels: list[int]
               ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "chatmem", "serve", "--db", str(db),
                             "--port", str(port), "--max-concurrent-requests", str(slots)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    base = f"http://127.0.0.1:{port}"
    peak = [0]
    try:
        wait_healthy(proc, base)

        def watch() -> None:
            while proc.poll() is None:
                try:
                    peak[0] = max(peak[0], rss_mb(proc.pid))
                except (OSError, IndexError):
                    return
                time.sleep(0.05)

        threading.Thread(target=watch, daemon=True).start()
        asyncio.run(burst(base, 1))  # loads the model and warms the caches
        rows = []
        for count in levels:
            peak[0] = 0
            seconds, codes = asyncio.run(burst(base, count))
            time.sleep(1)
            rows.append({"slots": slots, "at_once": count, "seconds": round(seconds, 2),
                         "peak_rss_mb": peak[0], "rss_after_mb": rss_mb(proc.pid),
                         "codes": codes})
        client_rows = []
        for count in client_levels:
            for retries in (0, DEFAULT_BUSY_RETRIES):
                seconds, outcomes = asyncio.run(client_burst(base, count, retries))
                time.sleep(1)
                client_rows.append({"slots": slots, "at_once": count,
                                    "busy_retries": retries, "seconds": round(seconds, 2),
                                    "outcomes": outcomes})
        return rows, client_rows
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=700)
    parser.add_argument("--chars", type=int, default=199_000)
    parser.add_argument("--levels", default="1,32,64")
    parser.add_argument("--slots", type=int, default=16)
    parser.add_argument("--client-levels", default="64",
                        help="calls at once through chatmem.client ('' for none)")
    parser.add_argument("--out", default="bench/results/concurrency.json")
    args = parser.parse_args()
    levels = [int(x) for x in args.levels.split(",")]
    client_levels = [int(x) for x in args.client_levels.split(",") if x]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "big.db"
        started = time.perf_counter()
        asyncio.run(build(db, args.messages, args.chars))
        built = time.perf_counter() - started
        store_mb = round(sum(p.stat().st_size for p in Path(folder).iterdir()) / 2**20, 1)
        rows, _ = run_server(db, 100_000, levels, [])
        slotted, client_rows = run_server(db, args.slots, levels, client_levels)
        rows += slotted
    print(f"machine: {os.cpu_count()} cores; store: {args.messages} messages of "
          f"{args.chars:,} characters ({store_mb} MB, built and indexed in {built:.0f} s); "
          "model: all-MiniLM-L6-v2 (auto); recall top_k 100, window 100")
    print_table("POST /v1/recall bursts", ["slots", "at once", "seconds", "peak RSS MB",
                                           "RSS after MB", "answers"],
                [[r["slots"], r["at_once"], r["seconds"], r["peak_rss_mb"],
                  r["rss_after_mb"], " ".join(f"{k}×{v}" for k, v in sorted(r["codes"].items()))]
                 for r in rows])
    if client_rows:
        print_table("chatmem.client bursts (one client per call)",
                    ["slots", "at once", "busy_retries", "seconds", "outcomes"],
                    [[r["slots"], r["at_once"], r["busy_retries"], r["seconds"],
                      " ".join(f"{k}×{v}" for k, v in sorted(r["outcomes"].items()))]
                     for r in client_rows])
    write_json(args.out, {"machine": machine(), "messages": args.messages,
                          "chars": args.chars, "store_mb": store_mb,
                          "model": "all-MiniLM-L6-v2", "rows": rows,
                          "client_rows": client_rows})


if __name__ == "__main__":
    main()
