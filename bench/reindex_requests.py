"""How long ``reindex`` takes against a remote service that answers each request after
a delay, by ``embedding.max_concurrency``.

    python bench/reindex_requests.py [--messages 640] [--delay 0.05] [--batch 32]
                                     [--concurrency 1,2,4,8]
                                     [--out bench/results/reindex_requests.json]

Starts an OpenAI-compatible embedding service on 127.0.0.1 (this process, a thread;
each request held ``--delay`` seconds, then hashed vectors of 64 numbers) and counts the
requests it holds at once. chatmem (SQLite file in a temporary folder,
``embedding.provider: openai`` pointed at that service, ``embedding.batch_size``
``--batch``) stores ``--messages`` messages, indexes them, clears their vectors and
times ``reindex()`` once per ``max_concurrency``. Reports the seconds, the requests
sent, the most the service held at once, and the speed-up against
``max_concurrency`` 1 (requests one after the other, as every reindex sent them before).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from _common import machine, print_table, write_json
from chatmem import Memory, Message

DIM = 64


def hashed(text: str) -> list[float]:
    digest = hashlib.sha256(text.encode()).digest() * 2
    return [b / 255.0 - 0.5 for b in digest[:DIM]]


class Service:
    """The embedding service: each request held ``delay`` seconds; counts in flight."""

    def __init__(self, delay: float) -> None:
        self.delay = delay
        self.requests = 0
        self.in_flight = 0
        self.peak = 0
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                with service.lock:
                    service.requests += 1
                    service.in_flight += 1
                    service.peak = max(service.peak, service.in_flight)
                try:
                    time.sleep(service.delay)
                    data = [{"index": i, "embedding": hashed(t)}
                            for i, t in enumerate(body["input"])]
                    out = json.dumps({"data": data}).encode()
                    self.send_response(200)
                    self.send_header("content-type", "application/json")
                    self.send_header("content-length", str(len(out)))
                    self.end_headers()
                    self.wfile.write(out)
                finally:
                    with service.lock:
                        service.in_flight -= 1

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def reset(self) -> None:
        with self.lock:
            self.requests = self.peak = 0

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


async def run(service: Service, folder: str, messages: int, batch: int,
              concurrency: int) -> dict[str, Any]:
    config = {"embedding": {"provider": "openai", "model": "bench", "endpoint": service.url,
                            "batch_size": batch, "max_concurrency": concurrency,
                            "cache": {"enabled": False}}}
    url = f"sqlite:///{folder}/reindex-{concurrency}.db"
    async with await Memory.open(url, config=config) as mem:
        await mem.add([Message(session_id=f"s{i % 8}", content=f"note {i}: parcel {i} waits",
                               ts=1_000_000 + i) for i in range(messages)])
        await mem.flush()
        await mem.clear("vector")
        service.reset()
        started = time.perf_counter()
        out = await mem.reindex()
        seconds = time.perf_counter() - started
    assert out["reembedded"] == messages, out
    return {"max_concurrency": concurrency, "seconds": round(seconds, 3),
            "requests": service.requests, "peak_in_flight": service.peak}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=640)
    parser.add_argument("--delay", type=float, default=0.05)
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--concurrency", default="1,2,4,8")
    parser.add_argument("--out", default="bench/results/reindex_requests.json")
    args = parser.parse_args()
    service = Service(args.delay)
    try:
        with tempfile.TemporaryDirectory() as folder:
            rows = [await run(service, folder, args.messages, args.batch, int(c))
                    for c in args.concurrency.split(",")]
    finally:
        service.close()
    base = rows[0]["seconds"]
    for row in rows:
        row["speedup"] = round(base / row["seconds"], 2)
    print_table(f"reindex of {args.messages} messages, {args.batch} per request, "
                f"{args.delay * 1000:.0f} ms per request",
                ["max_concurrency", "seconds", "requests", "peak in flight", "speed-up"],
                [[r["max_concurrency"], r["seconds"], r["requests"], r["peak_in_flight"],
                  r["speedup"]] for r in rows])
    write_json(args.out, {"machine": machine(), "messages": args.messages,
                          "delay_s": args.delay, "batch": args.batch, "runs": rows})


if __name__ == "__main__":
    asyncio.run(main())
