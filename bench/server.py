"""The HTTP server under concurrent ingest and recall (R5), with the real local model.

    python bench/server.py [--writers 8] [--readers 4] [--messages 2000]
                           [--out bench/results/server.json]

Starts ``chatmem serve`` (a subprocess, SQLite store in a temporary folder, one API
key) and drives it from this process over 127.0.0.1 with httpx: ``--writers``
clients post LoCoMo turns (one message per request) while ``--readers`` clients
post LoCoMo questions to ``/v1/recall`` until the writers are done. Then it waits
until every message is indexed and checks that none is lost: the store must hold
exactly the messages acknowledged, each indexed once.

Reports: add and recall latency (p50/p95, client side, including the model's query
embedding for recall), acknowledged messages per second, time until everything is
indexed, and errors (any non-200 answer).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

from _common import DEFAULT_LOCOMO, locomo_texts, machine, pct, print_table, write_json

KEY = "bench-key-0123456789abcdef"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def questions(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [q["question"] for conv in data for q in conv["qa"] if q.get("question")]


async def drive(base: str, texts: list[str], qs: list[str], writers: int, readers: int
                ) -> dict[str, Any]:
    lat: dict[str, list[float]] = {"add": [], "recall": []}
    errors: list[str] = []
    acked = 0
    done = asyncio.Event()
    headers = {"Authorization": f"Bearer {KEY}"}
    limits = httpx.Limits(max_connections=writers + readers + 2)
    async with httpx.AsyncClient(base_url=base, headers=headers, timeout=120,
                                 limits=limits) as c:
        async def writer(w: int) -> None:
            nonlocal acked
            for i in range(w, len(texts), writers):
                t = time.perf_counter()
                r = await c.post("/v1/messages", json={"messages": [
                    {"session_id": f"s{i % 50}", "content": texts[i],
                     "speaker_id": f"u{i % 7}", "id": f"m{i}"}]})
                lat["add"].append((time.perf_counter() - t) * 1000)
                if r.status_code == 200:
                    acked += 1
                else:
                    errors.append(f"add {r.status_code} {r.text[:200]}")

        async def reader(k: int) -> None:
            i = k
            while not done.is_set():
                t = time.perf_counter()
                r = await c.post("/v1/recall", json={"query": qs[i % len(qs)],
                                                     "scope": "all"})
                lat["recall"].append((time.perf_counter() - t) * 1000)
                if r.status_code != 200:
                    errors.append(f"recall {r.status_code} {r.text[:200]}")
                i += readers

        async def writers_then_stop() -> None:
            await asyncio.gather(*(writer(w) for w in range(writers)))
            done.set()

        t0 = time.perf_counter()
        await asyncio.gather(writers_then_stop(), *(reader(k) for k in range(readers)))
        ingest_s = time.perf_counter() - t0
        while True:
            st = (await c.get("/v1/stats")).json()
            if st["pending"] == 0:
                break
            await asyncio.sleep(0.2)
        indexed_s = time.perf_counter() - t0
    return {"lat": lat, "errors": errors, "acked": acked, "ingest_s": ingest_s,
            "indexed_s": indexed_s, "stats": st}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--writers", type=int, default=8)
    ap.add_argument("--readers", type=int, default=4)
    ap.add_argument("--messages", type=int, default=2000)
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--out", default="bench/results/server.json")
    args = ap.parse_args()
    texts = locomo_texts(args.locomo, args.messages)
    qs = questions(args.locomo)
    with tempfile.TemporaryDirectory() as tmp:
        keys = Path(tmp) / "keys.toml"
        keys.write_text(f'[keys.bench]\nkey = "{KEY}"\nnamespace = "bench"\nrole = "owner"\n',
                        encoding="utf-8")
        port = free_port()
        proc = subprocess.Popen(
            [sys.executable, "-m", "chatmem", "serve", "--db",
             f"sqlite:///{tmp}/{{namespace}}.db", "--keys", str(keys), "--port", str(port)],
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        base = f"http://127.0.0.1:{port}"
        try:
            deadline = time.monotonic() + 120
            while True:
                try:
                    if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise SystemExit("chatmem serve did not start: "
                                     + (proc.stderr.read().decode() if proc.stderr else ""))
                time.sleep(0.2)
            res = asyncio.run(drive(base, texts, qs, args.writers, args.readers))
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    st = res["stats"]
    lost = res["acked"] - st["messages"]
    rows = [["add (one message per request)", len(res["lat"]["add"]),
             pct(res["lat"]["add"], 50), pct(res["lat"]["add"], 95)],
            ["recall (top_k 5, window 2, query embedded)", len(res["lat"]["recall"]),
             pct(res["lat"]["recall"], 50), pct(res["lat"]["recall"], 95)]]
    print_table(f"chatmem serve under load: {args.writers} writers, {args.readers} readers, "
                f"{machine()['cores']} cores, local model all-MiniLM-L6-v2 int8, SQLite",
                ["request", "count", "p50 ms", "p95 ms"], rows)
    print(f"\nacknowledged {res['acked']} messages in {res['ingest_s']:.1f} s "
          f"({res['acked'] / res['ingest_s']:.0f}/s); all indexed after "
          f"{res['indexed_s']:.1f} s; stored {st['messages']}, indexed {st['indexed']}, "
          f"failed {st['failed']}; lost {lost}; errors {len(res['errors'])}")
    for e in res["errors"][:5]:
        print("  ", e)
    write_json(args.out, {
        "machine": machine(), "writers": args.writers, "readers": args.readers,
        "acked": res["acked"], "stored": st["messages"], "indexed": st["indexed"],
        "failed": st["failed"], "lost": lost, "errors": len(res["errors"]),
        "ingest_s": res["ingest_s"], "indexed_s": res["indexed_s"],
        "add_ms": {"p50": pct(res["lat"]["add"], 50), "p95": pct(res["lat"]["add"], 95),
                   "n": len(res["lat"]["add"])},
        "recall_ms": {"p50": pct(res["lat"]["recall"], 50),
                      "p95": pct(res["lat"]["recall"], 95), "n": len(res["lat"]["recall"])}})


if __name__ == "__main__":
    main()
