"""Memory, disk and cold start of a SQLite store (P4), at given store sizes.

    python bench/footprint.py [--sizes 100000,1000000] [--embed-cache PATH]
                              [--out bench/results/footprint.json]

For each size N: a SQLite store is filled with N messages (the texts of real LoCoMo
turns, 384-d vectors derived from their real MiniLM vectors as in
``bench/search.py``), its ANN index is built and saved, and the store is closed.
Then a *fresh process* opens it and measures, one step after the other:

* ``open``: ``SqliteStore.open`` (schema check, vectors loaded into the in-memory
  matrix), and the process's resident memory (RSS) after it;
* ``first dense query``: loads ``<db>.ann`` (the ANN index) on first use;
* ``first lexical query``: loads the in-memory BM25 postings from the token rows;
* ``model load``: the default local model (ONNX Runtime session + tokenizer) and
  one query embedding;
* the RSS after each step, and the files on disk (database, WAL, ANN).

RSS is read from ``/proc/self/statm`` (Linux); the baseline is the process after
its imports (numpy, faiss, onnxruntime).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np

from _common import DEFAULT_LOCOMO, locomo_texts, machine, print_table, write_json

MiB = 1024 * 1024
#: the vectors' model (bench/search.py's real-derived data) and the one the cold start loads
#: (``Config().embedding``: ``auto``, all-MiniLM-L6-v2 outside a store)
MODEL = "local:all-MiniLM-L6-v2 int8"


def rss_mib() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / MiB


async def build(db: Path, n: int, args: argparse.Namespace) -> dict[str, float]:
    from chatmem.store import SqliteStore
    from chatmem.store.ann import AnnSettings
    from search import embed_real, ingest, real_derived

    cache = args.embed_cache
    if cache is not None and Path(cache).is_file():
        with np.load(cache) as z:
            base = z["base"][: args.real]
    else:
        base, queries = await embed_real(args.locomo, args.real, 200, 2)
        if cache is not None:
            np.savez(cache, base=base, queries=queries)
    texts = locomo_texts(args.locomo, args.real)
    vecs, origin = real_derived(base, n)
    store = await SqliteStore.open(db, ann=AnnSettings(threshold=20_000))
    t = time.perf_counter()
    await ingest(store, store, vecs, texts=[texts[int(i)] for i in origin])
    ingest_s = time.perf_counter() - t
    t = time.perf_counter()
    await store.query(vecs[0], 10)  # starts the background ANN build
    store.ann.wait_ready()
    ann_s = time.perf_counter() - t
    await store.close()  # saves <db>.ann
    return {"ingest_s": ingest_s, "ann_build_s": ann_s}


async def cold(db: str) -> dict[str, float]:
    """Runs in a fresh process: the steps of a cold start, timed, with RSS."""
    import faiss  # noqa: F401  (imported up front: its size is not the store's)
    import onnxruntime  # noqa: F401

    from chatmem.config import Config
    from chatmem.embedding import create_embedder
    from chatmem.store import SqliteStore

    out: dict[str, float] = {"rss_baseline_mib": rss_mib()}
    t = time.perf_counter()
    store = await SqliteStore.open(db)
    out["open_s"] = time.perf_counter() - t
    out["rss_open_mib"] = rss_mib()
    q = np.ones(384, dtype=np.float32) / np.sqrt(384)
    t = time.perf_counter()
    await store.query(q, 10)
    store.ann.wait_ready()
    await store.query(q, 10)
    out["first_dense_s"] = time.perf_counter() - t
    out["rss_dense_mib"] = rss_mib()
    t = time.perf_counter()
    await store.lexical_query("when did Caroline go to the support group", 20)
    out["first_lexical_s"] = time.perf_counter() - t
    out["rss_lexical_mib"] = rss_mib()
    t = time.perf_counter()
    emb = create_embedder(Config().embedding)
    await emb.embed_one(("when did Caroline go to the support group", "query"))
    out["model_load_s"] = time.perf_counter() - t
    out["rss_model_mib"] = rss_mib()
    await store.close()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100000,1000000")
    ap.add_argument("--real", type=int, default=3000, help="real LoCoMo turns to embed")
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--embed-cache", type=Path, default=None,
                    help="npz of embedded turns (written by this or bench/search.py)")
    ap.add_argument("--tmp", type=Path, default=None, help="folder for the store files")
    ap.add_argument("--cold", default=None, help=argparse.SUPPRESS)  # the child process
    ap.add_argument("--out", default="bench/results/footprint.json")
    args = ap.parse_args()
    if args.cold:
        print(json.dumps(asyncio.run(cold(args.cold))))
        return
    rows, runs = [], []
    with tempfile.TemporaryDirectory(dir=args.tmp) as tmp:
        for n in [int(x) for x in args.sizes.split(",")]:
            db = Path(tmp) / f"footprint-{n}.db"
            built = asyncio.run(build(db, n, args))
            files = {p.name.replace(f"footprint-{n}", "store"): p.stat().st_size / MiB
                     for p in Path(tmp).glob(f"footprint-{n}.db*") if p.is_file()}
            child = subprocess.run([sys.executable, __file__, "--cold", str(db)],
                                   capture_output=True, text=True, check=True,
                                   cwd=Path(__file__).parent)
            c = json.loads(child.stdout.strip().splitlines()[-1])
            run = {"n": n, **built, "files_mib": files, "cold": c}
            runs.append(run)
            base = c["rss_baseline_mib"]
            rows.append([n, f"{sum(files.values()):.0f}",
                         ", ".join(f"{k} {v:.0f}" for k, v in sorted(files.items())),
                         f"{c['open_s']:.2f}", f"{c['rss_open_mib'] - base:.0f}",
                         f"{c['first_dense_s']:.2f}", f"{c['rss_dense_mib'] - base:.0f}",
                         f"{c['first_lexical_s']:.2f}", f"{c['rss_lexical_mib'] - base:.0f}",
                         f"{c['model_load_s']:.2f}", f"{c['rss_model_mib'] - base:.0f}"])
            for p in Path(tmp).glob(f"footprint-{n}.db*"):
                p.unlink()
            write_json(args.out, {"machine": machine(), "model": MODEL, "runs": runs})
    print_table(f"SQLite store footprint and cold start ({machine()['cores']} cores; model "
                f"{MODEL}; "
                "RSS in MiB above the process after its imports; times in s)",
                ["messages", "disk MiB", "files MiB", "open s", "RSS open",
                 "1st dense s", "RSS +ANN", "1st lexical s", "RSS +BM25", "model s",
                 "RSS +model"], rows)
    write_json(args.out, {"machine": machine(), "model": MODEL, "runs": runs})


if __name__ == "__main__":
    main()
