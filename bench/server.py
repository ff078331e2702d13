"""The HTTP server: recall latency with and without saturating ingest, indexing
throughput with and without concurrent recalls (R5), with the real local model.

    python bench/server.py [--ingest-rate 200] [--seconds 12] [--writers 8] [--batch 4]
                           [--recall-rate 10] [--readers 0]
                           [--pg URL] [--replicas N] [--out bench/results/server.json]

Starts ``--replicas`` ``chatmem serve`` processes (default one; SQLite in a temporary
folder, or with ``--pg URL`` a fresh schema of that PostgreSQL database, dropped at
the end) and drives them from this process over 127.0.0.1 with httpx, requests spread
round-robin over the replicas. The client side times every request, so a recall's
time includes the HTTP round trip and the model's query embedding.

One run, four phases:

1. **ingest, unloaded**: for ``--seconds``, writers post LoCoMo turns at
   ``--ingest-rate`` messages per second, ``--batch`` per request, at most
   ``--writers`` requests in flight; no recalls. Then wait until all are indexed.
2. **recall, quiet**: recalls of LoCoMo questions for ``--seconds`` with no ingest
   (the store holds the messages of phase 1).
3. **ingest + recall**: the writers post as many new turns the same way while the
   same recalls run, until the backlog is indexed; every recall of the phase counts
   (the indexer is busy throughout: that is the load).
4. wait until everything is indexed and check: the store holds exactly the messages
   acknowledged, each indexed once (vector count = messages); the replicas' own
   indexer counts show how many embeddings were done twice.

Readers model bots answering users: ``--recall-rate`` recalls per second in all,
sent on a fixed schedule whether or not earlier ones came back (open loop; a
recall's time runs from its scheduled start), plus ``--readers`` closed-loop
clients, each sending its next recall when the last one answers (0 by default).

**Saturating ingest** means the writers acknowledge messages faster than indexing
embeds them, so the backlog of pending messages grows during phases 1 and 3 (the
backlog at the end of each is printed; a run where it did not grow says so).
Indexing throughput is the messages of a phase over the seconds from its first post
until its backlog is indexed (the indexer never idles meanwhile), in phase 1
(unloaded) and phase 3 (under concurrent recalls); their ratio and the recall p50
under ingest are the acceptance figures of issue 14. Absolute numbers need a quiet
machine; the ratios come from one run and hold better on a shared one.

Without lease-based claiming (issue 14, part 1) PostgreSQL replicas each sweep and
embed the same pending messages: the ``embedded twice`` figure shows that cost.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from _common import (
    DEFAULT_LOCOMO,
    free_port,
    locomo_texts,
    machine,
    pct,
    pg_conninfo,
    pg_url,
    print_table,
    proc_status_kb,
    write_json,
)

KEY = "bench-key-0123456789abcdef"
MODEL = "all-MiniLM-L6-v2 int8 (local, default)"


def questions(path: Path) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    return [q["question"] for conv in data for q in conv["qa"] if q.get("question")]


def rss_mb(pid: int) -> float | None:
    """Resident memory of a process (Linux), in MB."""
    kb = proc_status_kb(pid, "VmRSS")
    return None if kb is None else kb / 1024


@dataclass
class Phase:
    name: str
    add_ms: list[float] = field(default_factory=list)
    recall_ms: list[float] = field(default_factory=list)
    acked: int = 0
    seconds: float = 0.0
    indexed_per_s: float | None = None
    backlog_start: int = 0
    backlog_end: int = 0


class Driver:
    def __init__(self, clients: list[httpx.AsyncClient], texts: list[str], qs: list[str],
                 args: argparse.Namespace) -> None:
        self.clients = clients
        self.texts = texts
        self.qs = qs
        self.args = args
        self.errors: list[str] = []
        self._rr = itertools.count()
        self._q = itertools.count()

    def client(self) -> httpx.AsyncClient:
        return self.clients[next(self._rr) % len(self.clients)]

    async def stats(self) -> dict[str, Any]:
        r = await self.clients[0].get("/v1/stats")
        r.raise_for_status()
        return dict(r.json())

    async def add(self, phase: Phase, ids: list[int]) -> None:
        msgs = [{"session_id": f"s{i % 50}", "content": self.texts[i],
                 "speaker_id": f"u{i % 7}", "id": f"m{i}"} for i in ids]
        t = time.perf_counter()
        r = await self.client().post("/v1/messages", json={"messages": msgs})
        phase.add_ms.append((time.perf_counter() - t) * 1000)
        if r.status_code == 200:
            phase.acked += len(ids)
        else:
            self.errors.append(f"add {r.status_code} {r.text[:200]}")

    async def recall(self, phase: Phase | None, started: float) -> None:
        q = self.qs[next(self._q) % len(self.qs)]
        try:
            r = await self.client().post("/v1/recall", json={"query": q, "scope": "all"})
        except httpx.HTTPError as exc:
            self.errors.append(f"recall {type(exc).__name__}: {exc}")
            return
        if r.status_code != 200:
            self.errors.append(f"recall {r.status_code} {r.text[:200]}")
        elif phase is not None:
            phase.recall_ms.append((time.perf_counter() - started) * 1000)

    async def writers(self, phase: Phase, ids: list[int]) -> None:
        """Post ``ids`` at ``--ingest-rate`` messages per second, ``--batch`` per request,
        at most ``--writers`` requests at a time (slower answers slow the writers down)."""
        batch = self.args.batch
        slots = asyncio.Semaphore(self.args.writers)
        tasks = []
        t0 = time.perf_counter()
        for k, start in enumerate(range(0, len(ids), batch)):
            await asyncio.sleep(max(0.0, t0 + k * batch / self.args.ingest_rate
                                    - time.perf_counter()))
            await slots.acquire()
            task = asyncio.create_task(self.add(phase, ids[start:start + batch]))
            task.add_done_callback(lambda _: slots.release())
            tasks.append(task)
        await asyncio.gather(*tasks)

    async def readers(self, phase: Phase, stop: asyncio.Event) -> None:
        """Open-loop recalls at ``--recall-rate`` plus ``--readers`` closed-loop ones
        until ``stop``; latencies of recalls started before ``stop`` count."""
        tasks: set[asyncio.Task[None]] = set()

        async def open_loop() -> None:
            rate = self.args.recall_rate
            if rate <= 0:
                return
            t0 = time.perf_counter()
            for k in itertools.count():
                due = t0 + k / rate
                await asyncio.sleep(max(0.0, due - time.perf_counter()))
                if stop.is_set():
                    return
                task = asyncio.create_task(self.recall(phase, due))
                tasks.add(task)
                task.add_done_callback(tasks.discard)

        async def closed_loop() -> None:
            while not stop.is_set():
                await self.recall(phase, time.perf_counter())

        await asyncio.gather(open_loop(), *(closed_loop() for _ in range(self.args.readers)))
        await asyncio.gather(*tasks)

    async def ingest(self, phase: Phase, ids: list[int], with_recalls: bool) -> None:
        """Post ``ids`` (with recalls meanwhile, if asked) and wait until they are all
        indexed; the recalls go on until then."""
        before = await self.stats()
        phase.backlog_start = before["pending"]
        stop = asyncio.Event()
        reading = asyncio.create_task(self.readers(phase, stop)) if with_recalls else None
        t0 = time.perf_counter()
        await self.writers(phase, ids)
        phase.seconds = time.perf_counter() - t0
        phase.backlog_end = (await self.stats())["pending"]
        after = await self.drained()
        indexing_s = time.perf_counter() - t0
        stop.set()
        if reading is not None:
            await reading
        phase.indexed_per_s = (after["indexed"] - before["indexed"]) / indexing_s

    async def quiet(self, phase: Phase, seconds: float) -> None:
        stop = asyncio.Event()
        reading = asyncio.create_task(self.readers(phase, stop))
        await asyncio.sleep(seconds)
        stop.set()
        await reading
        phase.seconds = seconds

    async def drained(self) -> dict[str, Any]:
        while True:
            st = await self.stats()
            if st["pending"] == 0:
                return st
            await asyncio.sleep(0.2)


async def drive(bases: list[str], texts: list[str], qs: list[str],
                args: argparse.Namespace) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {KEY}"}
    # idle connections close before uvicorn's 5 s keep-alive does: else a request may
    # go out on a connection the server is closing (a ReadError that is no server fault)
    limits = httpx.Limits(max_connections=args.writers + args.readers + 64,
                          keepalive_expiry=2.0)
    clients = [httpx.AsyncClient(base_url=b, headers=headers, timeout=300, limits=limits)
               for b in bases]
    try:
        d = Driver(clients, texts, qs, args)
        # warm-up: every replica loads the model (query and document sessions) before
        # anything is timed; the warm-up message counts as acknowledged
        warm = Phase("warm-up")
        for c in clients:
            r = await c.post("/v1/recall", json={"query": "warm up", "scope": "all"})
            r.raise_for_status()
        await d.add(warm, [len(texts) - 1])
        await d.drained()
        n = args.messages
        unloaded = Phase("ingest, no recalls")
        await d.ingest(unloaded, list(range(n)), with_recalls=False)
        quiet = Phase("recall, no ingest")
        await d.quiet(quiet, args.seconds)
        loaded = Phase("ingest + recalls")
        await d.ingest(loaded, list(range(n, 2 * n)), with_recalls=True)
        final = await d.drained()
        per_replica = [(await c.get("/v1/stats")).json().get("indexer", {}) for c in clients]
    finally:
        for c in clients:
            await c.aclose()
    return {"phases": [unloaded, quiet, loaded], "acked": warm.acked + unloaded.acked
            + loaded.acked, "final": final, "per_replica": per_replica, "errors": d.errors}


def start_server(db: str, keys: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatmem", "serve", "--db", db, "--keys", str(keys),
         "--port", str(port)], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return proc, f"http://127.0.0.1:{port}"


def wait_healthy(proc: subprocess.Popen[bytes], base: str) -> None:
    deadline = time.monotonic() + 120
    while True:
        try:
            if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("chatmem serve did not start: "
                             + (proc.stderr.read().decode() if proc.stderr else ""))
        time.sleep(0.2)


def drop_schema(pg: str, schema: str) -> None:
    import psycopg

    with psycopg.connect(pg_conninfo(pg), autocommit=True) as conn:
        conn.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def report(args: argparse.Namespace, res: dict[str, Any], backend: str,
           rss: list[float | None]) -> None:
    unloaded, quiet, loaded = res["phases"]
    final = res["final"]
    lost = res["acked"] - final["messages"]
    vectors = sum(final["vectors_by_model"].values())
    embedded = sum(r.get("indexed", 0) for r in res["per_replica"])
    cores = machine()["cores"]
    title = (f"chatmem serve, {backend}, {args.replicas} replica(s), {cores} cores, model "
             f"{MODEL}; store {args.messages} then {2 * args.messages} messages; recalls "
             f"{args.recall_rate}/s open loop + {args.readers} closed-loop reader(s); "
             f"{args.writers} writers x {args.batch} messages per request")
    rows = []
    for ph in (quiet, loaded):
        r = ph.recall_ms
        rows.append([f"recall, {'no ingest' if ph is quiet else 'saturating ingest'}",
                     len(r), pct(r, 50), pct(r, 95), pct(r, 99)])
    for ph in (unloaded, loaded):
        a = ph.add_ms
        rows.append([f"add ({args.batch} messages), "
                     f"{'no recalls' if ph is unloaded else 'with recalls'}",
                     len(a), pct(a, 50), pct(a, 95), pct(a, 99)])
    print_table(title, ["request", "count", "p50 ms", "p95 ms", "p99 ms"], rows)
    assert unloaded.indexed_per_s is not None and loaded.indexed_per_s is not None
    ratio = loaded.indexed_per_s / unloaded.indexed_per_s if unloaded.indexed_per_s else 0.0
    print_table("indexing throughput, first post to backlog indexed",
                ["phase", "acked/s", "indexed/s", "backlog start", "backlog, writers done"],
                [[ph.name, ph.acked / ph.seconds, ph.indexed_per_s, ph.backlog_start,
                  ph.backlog_end] for ph in (unloaded, loaded)])
    slow = pct(loaded.recall_ms, 50) / pct(quiet.recall_ms, 50)
    print(f"\nunder ingest / unloaded indexing throughput: {ratio:.0%}; "
          f"recall p50 under ingest / quiet: {slow:.1f}x")
    for ph in (unloaded, loaded):
        if ph.backlog_end <= ph.backlog_start:
            print(f"warning: the backlog did not grow in phase {ph.name!r}: ingest was not "
                  "saturating (raise --writers or --batch)")
    print(f"acknowledged {res['acked']}, stored {final['messages']}, indexed "
          f"{final['indexed']}, vectors {vectors}, failed {final['failed']}; lost {lost}; "
          f"embedded {embedded} times by the replicas ({embedded - res['acked']} twice); "
          f"errors {len(res['errors'])}; server RSS MB {[round(m) for m in rss if m]}")
    for e in res["errors"][:5]:
        print("  ", e)

    def lat(v: list[float]) -> dict[str, Any]:
        return {"p50": pct(v, 50), "p95": pct(v, 95), "p99": pct(v, 99), "n": len(v)}

    write_json(args.out, {
        "machine": machine(), "model": MODEL, "backend": backend,
        "replicas": args.replicas, "writers": args.writers, "batch": args.batch,
        "ingest_rate": args.ingest_rate, "seconds": args.seconds,
        "recall_rate": args.recall_rate, "readers": args.readers,
        "store_messages": [args.messages, 2 * args.messages],
        "recall_quiet_ms": lat(quiet.recall_ms), "recall_under_ingest_ms": lat(loaded.recall_ms),
        "add_ms": lat(unloaded.add_ms), "add_with_recalls_ms": lat(loaded.add_ms),
        "indexed_per_s": {"unloaded": unloaded.indexed_per_s, "with_recalls":
                          loaded.indexed_per_s, "ratio": ratio},
        "acked_per_s": {"unloaded": unloaded.acked / unloaded.seconds,
                        "with_recalls": loaded.acked / loaded.seconds},
        "backlog": {"unloaded": [unloaded.backlog_start, unloaded.backlog_end],
                    "with_recalls": [loaded.backlog_start, loaded.backlog_end]},
        "acked": res["acked"], "stored": final["messages"], "indexed": final["indexed"],
        "vectors": vectors, "failed": final["failed"], "lost": lost,
        "embedded_by_replicas": embedded, "embedded_twice": embedded - res["acked"],
        "errors": len(res["errors"]), "server_rss_mb": rss})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--ingest-rate", type=float, default=200.0,
                    help="messages per second the writers post (above indexing's pace)")
    ap.add_argument("--seconds", type=float, default=12.0, help="length of each phase")
    ap.add_argument("--writers", type=int, default=8,
                    help="most add requests in flight at once")
    ap.add_argument("--batch", type=int, default=4, help="messages per add request")
    ap.add_argument("--recall-rate", type=float, default=10.0,
                    help="open-loop recalls per second, over all replicas")
    ap.add_argument("--readers", type=int, default=0, help="closed-loop recall clients")
    ap.add_argument("--pg", help="PostgreSQL URL: run against a fresh schema there")
    ap.add_argument("--replicas", type=int, default=1,
                    help="chatmem serve processes on the one store (needs --pg beyond 1)")
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--out", default="bench/results/server.json")
    args = ap.parse_args()
    args.messages = int(args.ingest_rate * args.seconds)
    if args.replicas > 1 and not args.pg:
        raise SystemExit("--replicas > 1 needs --pg: a SQLite store is one process's")
    texts = locomo_texts(args.locomo, 2 * args.messages + 1)
    if len(texts) < 2 * args.messages + 1:
        raise SystemExit(f"LoCoMo has {len(texts)} turns: lower --ingest-rate × --seconds "
                         f"(the messages of a phase) to {(len(texts) - 1) // 2} or fewer")
    qs = questions(args.locomo)
    schema = f"cm_bench_{os.getpid()}_{uuid.uuid4().hex[:6]}"
    procs: list[subprocess.Popen[bytes]] = []
    with tempfile.TemporaryDirectory() as tmp:
        keys = Path(tmp) / "keys.toml"
        keys.write_text(f'[keys.bench]\nkey = "{KEY}"\nnamespace = "bench"\nrole = "owner"\n',
                        encoding="utf-8")
        if args.pg:
            db, backend = pg_url(args.pg, schema=schema), "PostgreSQL"
        else:
            db, backend = f"sqlite:///{tmp}/{{namespace}}.db", "SQLite"
        try:
            bases = []
            for _ in range(args.replicas):
                proc, base = start_server(db, keys)
                procs.append(proc)
                bases.append(base)
            for proc, base in zip(procs, bases):
                wait_healthy(proc, base)
            res = asyncio.run(drive(bases, texts, qs, args))
            rss = [rss_mb(p.pid) for p in procs]
        finally:
            for p in procs:
                p.terminate()
            for p in procs:
                p.wait(timeout=60)
            if args.pg:
                drop_schema(args.pg, schema)
    report(args, res, backend, rss)


if __name__ == "__main__":
    main()
