"""The server's memory under clients that read their answers slowly, with and without a
bound on the answers waiting for them (``--max-unread-mb``,
:func:`chatmem.server.limits.protocol_class`).

    python bench/slow_readers.py [--messages 100] [--chars 199000] [--connections 60,120]
                                 [--read-kib 256] [--seconds 60]
                                 [--out bench/results/slow_readers.json]

Builds one SQLite store in a temporary folder (``--messages`` messages of ``--chars``
characters in one session, indexed with the default local model), then for each server
setting starts ``chatmem serve`` on 127.0.0.1 and, at each ``--connections`` count,
opens that many connections over the first half of ``--seconds`` (a few a second),
each asking for ``POST /v1/recall`` (``top_k`` 100,
``window`` 0: an answer of about 30 MB) and read ``--read-kib`` KiB of it a second
(enough progress for the read watch: at 64 KiB a second the kernel's buffers absorb
what is read, the write buffer does not shrink within ``--client-timeout`` and the
watch drops the connection), for ``--seconds``. Reported:
the server's peak resident memory (sampled every round), its memory and the
connections still open at the end, and how many ``GET /v1/stats`` of a normal client,
one a round, were answered meanwhile. Settings: the default (512 MiB) and a baseline
without a practical bound (``--max-unread-mb 1000000``: what the server did before),
in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine, print_table, write_json
from concurrency import build, free_port, rss_mb
from server import wait_healthy


def slow_readers(port: int, pid: int, count: int, seconds: float, read_kib: int
                 ) -> dict[str, Any]:
    body = json.dumps({"query": "the trip passport", "session": "s", "top_k": 100,
                       "window": 0}).encode()
    head = (f"POST /v1/recall HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n").encode()
    def connect() -> socket.socket:
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.connect(("127.0.0.1", port))
        sock.sendall(head + body)
        sock.settimeout(0.01)
        return sock

    # the connections arrive over the first half of the run, a few a second
    per_round = math.ceil(count / max(1.0, seconds / 2))
    socks: list[socket.socket] = []
    open_ = [True] * count
    peak = served = rounds = 0
    started = time.monotonic()
    try:
        while time.monotonic() - started < seconds:
            round_started = time.monotonic()
            for _ in range(min(per_round, count - len(socks))):
                socks.append(connect())
            for i, sock in enumerate(socks):
                want = read_kib * 1024
                while open_[i] and want > 0:
                    try:
                        chunk = sock.recv(want)
                    except TimeoutError:
                        break
                    except OSError:
                        chunk = b""
                    open_[i] = bool(chunk)
                    want -= len(chunk)
            peak = max(peak, rss_mb(pid))
            with contextlib.suppress(httpx.HTTPError):
                served += httpx.get(f"http://127.0.0.1:{port}/v1/stats",
                                    timeout=10).status_code == 200
            rounds += 1
            time.sleep(max(0.0, 1 - (time.monotonic() - round_started)))
        end_rss = rss_mb(pid)
    finally:
        for sock in socks:
            sock.close()
    # a connection not yet made when the run ended is not one left open
    return {"connections": count, "opened": len(socks), "peak_rss_mb": peak,
            "rss_at_end_mb": end_rss, "open_at_end": sum(open_[:len(socks)]),
            "stats_served": f"{served}/{rounds}"}


def run_server(db: Path, unread_mb: int, levels: list[int], seconds: float,
               read_kib: int) -> list[dict[str, Any]]:
    port = free_port()
    proc = subprocess.Popen([sys.executable, "-m", "chatmem", "serve", "--db", str(db),
                             "--port", str(port), "--max-unread-mb", str(unread_mb)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    try:
        wait_healthy(proc, base)
        one = httpx.post(f"{base}/v1/recall", timeout=120, json={
            "query": "the trip passport", "session": "s", "top_k": 100, "window": 0})
        rows = []
        for count in levels:
            row = slow_readers(port, proc.pid, count, seconds, read_kib)
            rows.append({"max_unread_mb": unread_mb,
                         "answer_mb": round(len(one.content) / 2**20, 1), **row})
            time.sleep(2)
        return rows
    finally:
        proc.terminate()
        proc.wait(timeout=60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100)
    parser.add_argument("--chars", type=int, default=199_000)
    parser.add_argument("--connections", default="60,120")
    parser.add_argument("--read-kib", type=int, default=256)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--out", default="bench/results/slow_readers.json")
    args = parser.parse_args()
    levels = [int(x) for x in args.connections.split(",")]
    with tempfile.TemporaryDirectory() as folder:
        db = Path(folder) / "big.db"
        asyncio.run(build(db, args.messages, args.chars))
        rows = run_server(db, 1_000_000, levels, args.seconds, args.read_kib) + \
            run_server(db, 512, levels, args.seconds, args.read_kib)
    print(f"machine: {os.cpu_count()} cores; store: {args.messages} messages of "
          f"{args.chars:,} characters; model: all-MiniLM-L6-v2 (auto); recall top_k 100, "
          f"window 0; each connection reads {args.read_kib} KiB a second for "
          f"{args.seconds:g} s")
    print_table("slow readers", ["--max-unread-mb", "answer MB", "connections",
                                 "peak RSS MB", "RSS at end MB", "open at end",
                                 "/v1/stats served"],
                [[r["max_unread_mb"], r["answer_mb"], r["connections"], r["peak_rss_mb"],
                  r["rss_at_end_mb"], r["open_at_end"], r["stats_served"]] for r in rows])
    write_json(args.out, {"machine": machine(), "messages": args.messages,
                          "chars": args.chars, "model": "all-MiniLM-L6-v2",
                          "read_kib_per_s": args.read_kib, "seconds": args.seconds,
                          "rows": rows})


if __name__ == "__main__":
    main()
