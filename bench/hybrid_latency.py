"""Hybrid vs dense-only recall latency at store size N (query embedding excluded).

    python bench/hybrid_latency.py [--n 100000] [--queries 100]
                                   [--out bench/results/hybrid_latency.json]

Store: one SQLite file with N messages whose texts are LoCoMo turns (cycled, each
with a distinct suffix, so the full-text index holds N rows) spread over 500
sessions, and random unit vectors (dense latency does not depend on content).
Queries: LoCoMo questions, embedded by a provider that returns precomputed vectors,
so the timings exclude query embedding. Both configurations run on the same store
in the same process, alternating query by query; window 0, top_k 5, scope all.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import DEFAULT_LOCOMO, locomo_texts, machine, pct, print_table, write_json
from chatmem import Config, Memory, Message
from chatmem.embedding import Embedder
from chatmem.models import VectorEntry
from chatmem.store import SqliteStore

DIM = 384


class Precomputed:
    """A provider answering from a table of vectors (query embedding excluded)."""

    name = "bench"
    model_id = "bench:random"
    dimensions = DIM

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table

    async def embed(self, texts: Any, role: str) -> np.ndarray:
        return np.stack([self.table[t] for t in texts])


def questions(path: Path, limit: int) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = [q["question"] for conv in data for q in conv["qa"]]
    return out[:limit]


async def build(path: Path, n: int, texts: list[str], rng: np.random.Generator) -> None:
    store = await SqliteStore.open(path)
    batch = 5000
    for start in range(0, n, batch):
        msgs = [Message(session_id=f"s{i % 500}", content=f"{texts[i % len(texts)]} #{i}",
                        ts=i, speaker_name=None) for i in range(start, min(n, start + batch))]
        stored = await store.append(msgs)
        vecs = rng.normal(size=(len(stored), DIM)).astype(np.float32)
        vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
        await store.upsert([VectorEntry(m.id, m.session_id, m.ts, "user",  # type: ignore[arg-type]
                                        Precomputed.model_id, v, text=m.content)
                            for m, v in zip(stored, vecs)])
    await store.close()


async def run(args: argparse.Namespace) -> None:
    rng = np.random.default_rng(7)
    texts = locomo_texts(args.locomo, 10_000)
    qs = questions(args.locomo, args.queries)
    table = {q: (v / np.linalg.norm(v)).astype(np.float32)
             for q, v in zip(qs, rng.normal(size=(len(qs), DIM)))}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "hybrid.db"
        t0 = time.perf_counter()
        await build(path, args.n, texts, rng)
        build_s = time.perf_counter() - t0
        emb = Embedder(Precomputed(table))
        base = {"context_expand": {"window": 0}, "indexing": {"concurrency": 1}}
        cfg = {name: Config.load(base, hybrid={"enabled": name == "hybrid"})
               for name in ("dense", "hybrid")}
        store = await SqliteStore.open(path)
        mems = {name: Memory(store, store, emb, c) for name, c in cfg.items()}
        for q in qs[:5]:  # warm caches and the ANN build trigger
            for m in mems.values():
                await m.recall(q, scope="all")
        await asyncio.sleep(args.settle)
        times: dict[str, list[float]] = {"dense": [], "hybrid": []}
        for q in qs:
            for name, m in mems.items():
                t = time.perf_counter()
                await m.recall(q, scope="all")
                times[name].append((time.perf_counter() - t) * 1000)
        for m in mems.values():
            if m._indexer is not None:
                await m._indexer.stop()
        await store.close()
    rows = [[name, pct(v, 50), pct(v, 95)] for name, v in times.items()]
    ratio = pct(times["hybrid"], 50) / pct(times["dense"], 50)
    print_table(f"Recall latency at {args.n} messages (query embedding excluded), "
                f"{len(qs)} queries, {machine()['cores']} cores",
                ["recall", "p50 ms", "p95 ms"], rows)
    print(f"\nhybrid / dense p50 = {ratio:.2f}  (store built in {build_s:.0f} s)")
    write_json(args.out, {"machine": machine(), "n": args.n, "queries": len(qs),
                          "p50_ms": {k: pct(v, 50) for k, v in times.items()},
                          "p95_ms": {k: pct(v, 95) for k, v in times.items()},
                          "ratio_hybrid_vs_dense_p50": ratio, "build_seconds": build_s})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--settle", type=float, default=10.0,
                    help="seconds to let a background ANN build finish before timing")
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--out", default="bench/results/hybrid_latency.json")
    asyncio.run(run(ap.parse_args()))


if __name__ == "__main__":
    main()
