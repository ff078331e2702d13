"""An embedding outage with real delays (issue 11): nothing lost, nothing embedded twice.

    python bench/outage.py [--messages 1000] [--outage 30] [--mode 503|reset]
                           [--out bench/results/outage.json]

Starts an OpenAI-compatible embedding service on 127.0.0.1 (this process, a
thread; hashed bag-of-words vectors, 256-d) that fails every request for the
first ``--outage`` seconds (HTTP 503, or the connection closed unanswered with
``--mode reset``) and then recovers. chatmem (SQLite file in a temporary folder,
``embedding.provider: openai`` pointed at that service, default retry settings)
gets ``--messages`` LoCoMo turns added in bursts during the outage, while a
reader recalls, every 0.25 s, the words of a message added a moment before.

Reports: messages acknowledged and stored, recalls during the outage and how many
were flagged ``degraded`` and found the message they asked for (full text works
before any embedding exists), recall latency while degraded, the time from
recovery until every message is indexed, and how often the service embedded each
message's text (must be exactly once).
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import re
import tempfile
import threading
import time
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np

from _common import DEFAULT_LOCOMO, locomo_texts, machine, pct, print_table, write_json
from chatmem import Memory, Message

DIM = 256


def bag_of_words(text: str) -> list[float]:
    vec = np.zeros(DIM, dtype=np.float32)
    for tok in re.findall(r"\w+", text.lower()):
        vec[int.from_bytes(hashlib.sha256(tok.encode()).digest()[:4], "little") % DIM] += 1
    if not vec.any():
        vec[0] = 1.0
    return [float(x) for x in vec]


class Service:
    """The fake embedding service: down until ``down_until``, then healthy."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        self.down_until = 0.0
        self.embedded: Counter[str] = Counter()
        self.requests = Counter[str]()
        self.lock = threading.Lock()
        service = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self) -> None:
                body = json.loads(self.rfile.read(int(self.headers["content-length"])))
                down = time.monotonic() < service.down_until
                with service.lock:
                    service.requests["failed" if down else "ok"] += 1
                if down and service.mode == "reset":
                    self.close_connection = True
                    self.connection.close()
                    return
                if down:
                    self._send(503, {"error": {"message": "service unavailable"}})
                    return
                with service.lock:
                    service.embedded.update(body["input"])
                self._send(200, {"data": [{"index": i, "embedding": bag_of_words(t)}
                                          for i, t in enumerate(body["input"])]})

            def _send(self, status: int, obj: Any) -> None:
                out = json.dumps(obj).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def endpoint(self) -> str:
        return f"http://127.0.0.1:{self.server.server_port}/v1"


async def run(texts: list[str], outage: float, mode: str, folder: Path) -> dict[str, Any]:
    service = Service(mode)
    service.down_until = time.monotonic() + outage
    started = time.monotonic()
    cfg = {"embedding": {"provider": "openai", "endpoint": service.endpoint,
                         "model": "bench-bow"}}
    mem = await Memory.open(f"sqlite:///{folder}/outage.db", config=cfg)
    acked: list[Message] = []
    recalls: list[dict[str, Any]] = []
    adding_done = asyncio.Event()
    try:
        async def writer() -> None:
            burst = max(1, len(texts) // 40)
            pause = outage * 0.8 / 40
            for i in range(0, len(texts), burst):
                acked.extend(await mem.add([
                    Message(session_id=f"s{j % 10}", content=texts[j], ts=1_000_000 + j,
                            speaker_id=f"u{j % 7}") for j in range(i, min(i + burst,
                                                                         len(texts)))]))
                await asyncio.sleep(pause)
            adding_done.set()

        async def reader() -> None:
            while time.monotonic() < service.down_until - 0.5:
                if acked:
                    target = acked[-1]
                    t0 = time.perf_counter()
                    result = await mem.recall(target.content, top_k=5)
                    recalls.append({
                        "ms": (time.perf_counter() - t0) * 1000,
                        "degraded": result.degraded,
                        "found": any(h.message.id == target.id for h in result.hits)})
                await asyncio.sleep(0.25)

        await asyncio.gather(writer(), reader())
        await adding_done.wait()
        wait = service.down_until - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
        recovered = time.monotonic()
        while True:
            s = await mem.stats()
            if s["pending"] == 0 and s["failed"] == 0 and s["indexed"] == len(acked):
                break
            if time.monotonic() - recovered > float(os.environ.get("OUTAGE_GIVE_UP", 600)):
                raise SystemExit(f"not indexed 10 minutes after recovery: {s}")
            await asyncio.sleep(0.1)
        indexed_after = time.monotonic() - recovered
        stats = await mem.stats()
        # the documents embedded so far (the recall below embeds message 0's text again,
        # as its query: the service cannot tell a query from a document)
        embedded = Counter(service.embedded)
        after = await mem.recall(acked[0].content, top_k=5)
    finally:
        await mem.close()
        service.server.shutdown()
    counts = [embedded[m.embedded_text] for m in acked]
    degraded = [r for r in recalls if r["degraded"]]
    return {
        "acknowledged": len(acked), "stored": stats["messages"], "indexed": stats["indexed"],
        "embedded_exactly_once": sum(c == 1 for c in counts),
        "embedded_never": sum(c == 0 for c in counts),
        "embedded_more_than_once": sum(c > 1 for c in counts),
        "outage_s": outage, "total_s": time.monotonic() - started,
        "recalls_during_outage": len(recalls), "degraded": len(degraded),
        "degraded_found_target": sum(r["found"] for r in degraded),
        "degraded_recall_ms_p50": pct([r["ms"] for r in degraded], 50),
        "degraded_recall_ms_p95": pct([r["ms"] for r in degraded], 95),
        "indexed_s_after_recovery": indexed_after,
        "recall_after_recovery_degraded": after.degraded,
        "requests": dict(service.requests),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--messages", type=int, default=1000)
    ap.add_argument("--outage", type=float, default=30.0)
    ap.add_argument("--mode", choices=["503", "reset"], default="503")
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--out", default="bench/results/outage.json")
    args = ap.parse_args()
    texts = locomo_texts(args.locomo, args.messages)
    with tempfile.TemporaryDirectory() as folder:
        r = asyncio.run(run(texts, args.outage, args.mode, Path(folder)))
    print_table(
        f"Embedding outage of {args.outage:.0f} s ({args.mode}), {args.messages} messages; "
        f"{machine()['cores']} cores, SQLite, openai provider → 127.0.0.1 (bag-of-words "
        f"{DIM}-d)",
        ["measure", "value"], [[k, v] for k, v in r.items() if k != "requests"])
    print(f"service requests: {r['requests']}")
    write_json(args.out, {"machine": machine(), "model": f"openai → 127.0.0.1 bag-of-words {DIM}-d",
                          "messages": args.messages,
                          "outage_s": args.outage, "mode": args.mode, **r})


if __name__ == "__main__":
    main()
