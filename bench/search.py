"""Recall latency and ingest throughput of the stores, against numpy exact top-k.

    python bench/search.py [--sizes 10000,100000] [--data real,synthetic] [--queries 200]
        [--probes 8,16,32,64] [--pg URL [--pg-vacuum]] [--qdrant] [--skip filters,lexical]
        [--out bench/results/search.json]

For each data set and store size, in one process:
* ingest throughput (messages/s, precomputed vectors: append + vector upsert);
* latency p50/p95 of one query with a precomputed vector (query embedding
  excluded), k=10, for: a bare numpy exact top-k over the store's own matrix
  (the baseline), SqliteStore exact, SqliteStore + ANN (IVF, faiss-cpu), and
  PostgresStore (``--pg URL``, a throwaway database: the bench clears it; measured
  right after the ingest, or with ``--pg-vacuum`` after ``VACUUM (ANALYZE)`` of its
  tables: what autovacuum leaves within about a minute of a burst of writes, and
  what spares the full-text document counts reading the heap) and
  Qdrant local mode in memory (``--qdrant``, up to ``--qdrant-max``) when their
  modules exist; the paths
  alternate query by query so that machine noise hits them alike;
* recall@10 of every path against SqliteStore exact;
* the ANN with a broad filter (role = user, half the rows) and a narrow one
  (one session, 100 rows: goes exact), and an ``nprobe`` sweep;
* the full ``Memory.recall`` path (top_k 5, window 2, rendering) with a
  provider that returns precomputed query vectors;
* full-text queries (k=20) under recall's session and role filters while 1% of
  the messages wait for their vector (pending full-text entries): answered from
  the in-memory filter columns (``fast``) and through SQL (``sql``, the same
  filter wrapped in ``$and``: what every such query did before those columns
  covered entries without a vector row).

Data (384-d, L2-normalised, model all-MiniLM-L6-v2 int8):
* ``real``: ``--real`` LoCoMo turns embedded with the default model, and the
  rest synthesised around them: normalise(v_a + α·v_b + σ·g) with v_a, v_b two
  random real turns, α ~ U(0, 0.5), g standard normal and σ·√384 ~ U(0.25, 0.75)
  (cosine to v_a ≈ 0.75–0.95: paraphrases and topic mixtures of real turns).
  Queries: LoCoMo questions embedded as queries. Measurement only.
* ``synthetic``: 2,000 random unit centres, points normalise(c + 0.05·g)
  (cosine to the centre ≈ 0.7); queries are stored points plus half that noise.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import dataclasses
import gc
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any

os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # before faiss: no spinning on 2 cores

import numpy as np

from _common import DEFAULT_LOCOMO, locomo_texts, machine, pct, pg_conninfo, print_table, write_json
from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.embedding import Capabilities, Embedder
from chatmem.models import IndexState, VectorEntry
from chatmem.store import SqliteStore
from chatmem.store.ann import DEFAULT_THRESHOLD, AnnSettings, load_faiss

DIM = 384
MODEL = "local:all-MiniLM-L6-v2"
BENCH_MODEL = "bench:precomputed"
SESSION_SIZE = 100
BLOCK = 20  # queries per path before switching: BLAS threads spinning after an exact
            # query would otherwise land on the next path's clock


# ---------------------------------------------------------------------------- data


def locomo_questions(path: Path, limit: int) -> list[str]:
    data = json.loads(path.read_text(encoding="utf-8"))
    out = [qa["question"] for conv in data for qa in conv["qa"] if qa.get("question")]
    return out[:limit]


async def embed_real(path: Path, n_turns: int, n_queries: int, threads: int
                     ) -> tuple[np.ndarray, np.ndarray]:
    from chatmem.embedding.local import LocalProvider

    emb = Embedder(LocalProvider(threads=threads), cache_enabled=False)
    turns = locomo_texts(path, n_turns)
    questions = locomo_questions(path, n_queries)
    t = time.perf_counter()
    base = np.stack(await emb.embed_many(turns)).astype(np.float32)
    queries = np.stack(await emb.embed_many([(q, "query") for q in questions])
                       ).astype(np.float32)
    print(f"embedded {len(turns)} LoCoMo turns and {len(questions)} questions in "
          f"{time.perf_counter() - t:.1f} s")
    return base, queries


def unit(x: np.ndarray) -> np.ndarray:
    return (x / np.linalg.norm(x, axis=1, keepdims=True)).astype(np.float32)


def real_derived(base: np.ndarray, n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """n vectors around the real ones, and for each the real turn it is derived from."""
    rng = np.random.default_rng(seed)
    out = np.empty((n, DIM), dtype=np.float32)
    origin = np.empty(n, dtype=np.int64)
    m = min(n, len(base))
    out[:m] = base[:m]
    origin[:m] = np.arange(m)
    for s in range(m, n, 65536):
        e = min(n, s + 65536)
        c = e - s
        ia = rng.integers(0, len(base), c)
        a = base[ia]
        b = base[rng.integers(0, len(base), c)]
        alpha = rng.uniform(0, 0.5, (c, 1)).astype(np.float32)
        sigma = (rng.uniform(0.25, 0.75, (c, 1)) / np.sqrt(DIM)).astype(np.float32)
        out[s:e] = unit(a + alpha * b + sigma * rng.standard_normal((c, DIM), np.float32))
        origin[s:e] = ia
    return out, origin


def clustered(n: int, n_queries: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    centres = unit(rng.standard_normal((2000, DIM), np.float32))
    out = np.empty((n, DIM), dtype=np.float32)
    for s in range(0, n, 65536):
        e = min(n, s + 65536)
        out[s:e] = unit(centres[rng.integers(0, len(centres), e - s)]
                        + 0.05 * rng.standard_normal((e - s, DIM), np.float32))
    q = unit(out[rng.integers(0, n, n_queries)]
             + 0.025 * rng.standard_normal((n_queries, DIM), np.float32))
    return out, q


# ---------------------------------------------------------------------------- helpers


class Precomputed:
    """An embedding provider that returns precomputed vectors: query embedding excluded."""

    name = "bench"
    model_id = BENCH_MODEL

    def __init__(self, table: dict[str, np.ndarray]) -> None:
        self.table = table

    @property
    def dimensions(self) -> int | None:
        return DIM

    async def embed(self, texts: Sequence[str], role: str) -> np.ndarray:
        return np.stack([self.table[t] for t in texts])

    capabilities = Capabilities()

    async def aclose(self) -> None:
        pass


def messages(lo: int, hi: int, texts: Sequence[str] | None = None) -> list[Message]:
    """Messages lo..hi; their text is ``texts[i]`` (real data) or ``message i``."""
    return [Message(id=f"m{i}", session_id=f"s{i // SESSION_SIZE}", ts=1_000_000 + i,
                    role="user" if i % 2 else "assistant", speaker_id=f"u{i % 7}",
                    content=texts[i] if texts is not None else f"message {i}")
            for i in range(lo, hi)]


def entries(msgs: list[Message], vecs: np.ndarray) -> list[VectorEntry]:
    return [VectorEntry(message_id=m.id or "", session_id=m.session_id, ts=m.ts or 0,
                        role=m.role, model_id=BENCH_MODEL, vector=v)
            for m, v in zip(msgs, vecs)]


async def ingest(store: Any, index: Any, vecs: np.ndarray, batch: int = 1000,
                 append: bool = True, texts: Sequence[str] | None = None) -> float:
    """Messages/s: append (when the index is also the store) + vector upsert."""
    start = time.perf_counter()
    for s in range(0, len(vecs), batch):
        e = min(len(vecs), s + batch)
        msgs = messages(s, e, texts)
        if append:
            await store.append(msgs)
        await index.upsert(entries(msgs, vecs[s:e]))
    return len(vecs) / (time.perf_counter() - start)


def numpy_top_k(mat: np.ndarray, q: np.ndarray, k: int) -> np.ndarray:
    scores = mat @ q
    part = np.argpartition(-scores, k - 1)[:k]
    return part[np.argsort(-scores[part])]


def recall_at(got: list[str], ref: list[str]) -> float:
    return len(set(got) & set(ref)) / max(1, len(ref))


def summary(lat: list[float]) -> dict[str, float]:
    return {"p50_ms": pct(lat, 50) * 1e3, "p95_ms": pct(lat, 95) * 1e3}


async def timed(fn: Callable[[], Awaitable[Any]]) -> tuple[float, Any]:
    t = time.perf_counter()
    out = await fn()
    return time.perf_counter() - t, out


# ---------------------------------------------------------------------------- one run


async def run_size(name: str, vecs: np.ndarray, queries: np.ndarray, args: argparse.Namespace,
                   tmp: Path) -> dict[str, Any]:
    n = len(vecs)
    k = args.k
    res: dict[str, Any] = {"n": n, "k": k, "queries": len(queries), "paths": {}}
    settings = AnnSettings(threshold=1, build_threads=args.build_threads,
                           nprobe=args.nprobe, persist=False)
    db = tmp / f"{name}-{n}.db"
    store = await SqliteStore.open(db, ann=settings)
    store.ann.enabled = False
    rate = await ingest(store, store, vecs, texts=args.current_texts)
    res["ingest"] = {"sqlite": rate}
    print(f"[{name} {n}] sqlite ingest {rate:,.0f} messages/s", flush=True)

    have_ann = load_faiss() is not None
    build_s = None
    if have_ann:
        store.ann.enabled = True
        t = time.perf_counter()
        await store.query(queries[0], 1)
        store.ann.wait_ready()
        build_s = time.perf_counter() - t
        print(f"[{name} {n}] ANN built in {build_s:.1f} s "
              f"({store.ann.status()[DIM]['state']})", flush=True)
    res["ann_build_s"] = build_s

    mat = store._matrices[DIM]  # the store's own matrix: the same rows numpy scans
    base = mat.vecs[: mat.used]

    async def q_exact(q: np.ndarray, kk: int = k, where: Any = None) -> list[str]:
        store.ann.enabled = False
        try:
            return [h.message_id for h in await store.query(q, kk, where)]
        finally:
            store.ann.enabled = True

    async def q_ann(q: np.ndarray, kk: int = k, where: Any = None) -> list[str]:
        return [h.message_id for h in await store.query(q, kk, where)]

    async def q_numpy(q: np.ndarray) -> list[str]:
        return [mat.message_id[int(r)] for r in numpy_top_k(base, q, k)]

    paths: dict[str, Callable[[np.ndarray], Awaitable[list[str]]]] = {
        "numpy exact": q_numpy, "sqlite exact": q_exact}
    if have_ann:
        paths["sqlite+ANN"] = q_ann
    extra: dict[str, Any] = {}
    others = await open_others(args, tmp, name, n)
    for label, (st, ix, ingest_rate) in others.items():
        res["ingest"][label] = ingest_rate
        paths[label] = _other_query(ix, k)
        extra[label] = (st, ix)

    for q in queries[:5]:  # warm up
        for fn in paths.values():
            await fn(q)
    lat: dict[str, list[float]] = {p: [] for p in paths}
    answers: dict[str, list[list[str]]] = {p: [] for p in paths}
    for b in range(0, len(queries), BLOCK):  # paths alternate block by block
        for p, fn in paths.items():
            for q in queries[b:b + BLOCK]:
                dt, got = await timed(lambda fn=fn, q=q: fn(q))  # type: ignore[misc]
                lat[p].append(dt)
                answers[p].append(got)
    refs = answers["sqlite exact"]
    recall = {p: [recall_at(a, r) for a, r in zip(answers[p], refs)] for p in paths}
    np50 = pct(lat["numpy exact"], 50)
    for p in paths:
        res["paths"][p] = {**summary(lat[p]), "x_numpy": pct(lat[p], 50) / np50,
                           "recall_at_10": float(np.mean(recall[p]))}

    if have_ann:
        ann = store.ann._indexes[DIM]
        res["ann_status"] = store.ann.status()[DIM]
        # filters: broad (role = user, half the rows) and narrow (one session)
        for label, where_of in () if "filters" in args.skip else (
            ("ANN where role=user", lambda i: {"role": "user"}),
            ("ANN where session", lambda i: {"session_id": f"s{(i * 37) % (n // SESSION_SIZE)}"}),
        ):
            lat_f, rec_f = [], []
            refs_f = [await q_exact(q, k, where_of(i)) for i, q in enumerate(queries)]
            for i, q in enumerate(queries):
                w = where_of(i)
                dt, got = await timed(lambda q=q, w=w: q_ann(q, k, w))  # type: ignore[misc]
                lat_f.append(dt)
                rec_f.append(recall_at(got, refs_f[i]))
            res["paths"][label] = {**summary(lat_f), "x_numpy": pct(lat_f, 50) / np50,
                                   "recall_at_10": float(np.mean(rec_f))}
        # nprobe sweep (the store's own query path, k=10)
        sweep = {}
        default = ann.settings
        for ef in args.probes:
            ann.settings = dataclasses.replace(default, nprobe=ef, min_scan=0)
            lat_e, rec_e = [], []
            for q, ref in zip(queries, refs):
                dt, got = await timed(lambda q=q: q_ann(q))  # type: ignore[misc]
                lat_e.append(dt)
                rec_e.append(recall_at(got, ref))
            sweep[ef] = {**summary(lat_e), "recall_at_10": float(np.mean(rec_e))}
        ann.settings = default
        res["nprobe_sweep"] = sweep
        res["nlist"] = int(ann._graph.index.nlist) if ann._graph is not None else None

    qtexts = args.current_questions
    res["lexical"] = ({} if "lexical" in args.skip else
                      await lexical_paths(store, n, args.current_texts, qtexts, len(queries)))
    res["memory_recall"] = await memory_recall(store, store, queries, have_ann, qtexts)
    for label, (st, ix) in extra.items():
        res["memory_recall"][label] = (await memory_recall(st, ix, queries, False, qtexts)
                                       )["hybrid exact"]
        await close_other(st, ix)
    await store.close()
    for f in tmp.glob(f"{name}-{n}.db*"):
        f.unlink()
    return res


#: Share of the store appended without vectors for the lexical paths (waiting messages).
PENDING_SHARE = 0.01
LEXICAL_K = 20


async def lexical_paths(store: SqliteStore, n: int, texts: Sequence[str] | None,
                        questions: Sequence[str] | None, n_queries: int
                        ) -> dict[str, dict[str, float]]:
    """Full-text latency under recall's filter shapes, fast columns vs SQL, with
    :data:`PENDING_SHARE` of the messages waiting for a vector (see the module docs)."""
    sessions = max(n // SESSION_SIZE, 1)
    extra = max(int(n * PENDING_SHARE), 1)
    await store.append([
        Message(id=f"p{i}", session_id=f"s{i % sessions}", ts=2_000_000 + i,
                role="user" if i % 2 else "assistant",
                content=texts[i % len(texts)] if texts else f"message {n + i}")
        for i in range(extra)])
    qs = list(questions) if questions else [f"message {(i * 7919) % n}"
                                            for i in range(n_queries)]
    shapes = {
        "session": lambda i: {"session_id": f"s{(i * 37) % sessions}"},
        "3 sessions, role": lambda i: {"session_id": {"$in": [f"s{(i * 37 + j) % sessions}"
                                                               for j in range(3)]},
                                       "role": "user"},
    }
    out: dict[str, dict[str, float]] = {}
    for label, where_of in shapes.items():
        # the same filter; wrapped in $and it is no shape the fast columns answer
        wheres = {"fast": [where_of(i) for i in range(len(qs))],
                  "sql": [{"$and": [where_of(i)]} for i in range(len(qs))]}
        for q in qs[:5]:  # warm up (and load the in-memory BM25)
            for ws in wheres.values():
                await store.lexical_query(q, LEXICAL_K, ws[0])
        lat: dict[str, list[float]] = {p: [] for p in wheres}
        answers: dict[str, list[list[str]]] = {p: [] for p in wheres}
        for b in range(0, len(qs), BLOCK):  # paths alternate block by block
            for p, ws in wheres.items():
                for i in range(b, min(b + BLOCK, len(qs))):
                    dt, got = await timed(
                        lambda q=qs[i], w=ws[i]: store.lexical_query(q, LEXICAL_K, w))  # type: ignore[misc]
                    lat[p].append(dt)
                    answers[p].append([h.message_id for h in got])
        assert answers["fast"] == answers["sql"], f"{label}: the two paths disagree"
        for p in wheres:
            out[f"lexical {label} {p}"] = summary(lat[p])
        out[f"lexical {label} fast"]["x_sql_p50"] = (out[f"lexical {label} fast"]["p50_ms"]
                                                     / out[f"lexical {label} sql"]["p50_ms"])
    out["pending_messages"] = {"n": float(extra)}
    return out


async def memory_recall(store: Any, index: Any, queries: np.ndarray, have_ann: bool,
                        texts: Sequence[str] | None = None) -> dict[str, dict[str, float]]:
    """Memory.recall (top_k 5 → 20 candidates, window 2, render), query embedding excluded,
    with hybrid recall (the default) and dense-only; ``texts`` are the query texts."""
    names = list(texts) if texts is not None else [f"bench query {i}" for i in
                                                   range(len(queries))]
    table = dict(zip(names, queries))
    emb = Embedder(Precomputed(table), cache_enabled=False)
    mems = {kind: Memory(store, index, emb, Config.load(hybrid={"enabled": kind == "hybrid"}))
            for kind in ("hybrid", "dense")}
    ann_modes = ["exact", "ANN"] if have_ann else ["exact"]
    modes = [(kind, a) for kind in mems for a in ann_modes]
    lat: dict[str, list[float]] = {f"{kind} {a}": [] for kind, a in modes}
    for text in names[:3]:
        for mem in mems.values():
            await mem.recall(text)
    for b in range(0, len(names), BLOCK):  # modes alternate block by block
        for kind, a in modes:
            if isinstance(store, SqliteStore):
                store.ann.enabled = a == "ANN"
            for text in names[b:b + BLOCK]:
                dt, _ = await timed(lambda m=mems[kind], t=text: m.recall(t))  # type: ignore[misc]
                lat[f"{kind} {a}"].append(dt)
    if isinstance(store, SqliteStore):
        store.ann.enabled = True
    for mem in mems.values():
        if mem._indexer is not None:
            await mem._indexer.stop()
    out = {m: summary(v) for m, v in lat.items()}
    for a in ann_modes:
        out[f"hybrid {a}"]["x_dense_p50"] = (out[f"hybrid {a}"]["p50_ms"]
                                             / out[f"dense {a}"]["p50_ms"])
    return out


# ---------------------------------------------------------------------------- other backends


def _other_query(index: Any, k: int) -> Callable[[np.ndarray], Awaitable[list[str]]]:
    async def q(v: np.ndarray) -> list[str]:
        return [h.message_id for h in await index.query(v, k)]

    return q


async def open_others(args: argparse.Namespace, tmp: Path, name: str, n: int
                      ) -> dict[str, tuple[Any, Any, float]]:
    out: dict[str, tuple[Any, Any, float]] = {}
    vecs = args.current_vecs
    if args.pg:
        if importlib.util.find_spec("chatmem.store.postgres") is None:
            print("note: chatmem.store.postgres is missing: PostgreSQL skipped")
        elif n > args.pg_max:
            print(f"note: PostgreSQL skipped at {n} (> --pg-max {args.pg_max})")
        else:
            from chatmem.store.postgres import PostgresStore

            pg = await PostgresStore.open(args.pg)
            await pg.clear_vectors()
            await pg.clear_messages()
            rate = await ingest(pg, pg, vecs, texts=args.current_texts)
            if args.pg_vacuum:
                import psycopg

                async with await psycopg.AsyncConnection.connect(pg_conninfo(args.pg),
                                                                 autocommit=True) as conn:
                    for table in ("vectors", "lexical_entries", "messages"):
                        await conn.execute(f"VACUUM (ANALYZE) {pg.schema}.{table}")
            print(f"[{name} {n}] postgres ingest {rate:,.0f} messages/s", flush=True)
            out["postgres"] = (pg, pg, rate)
    if args.qdrant:
        if importlib.util.find_spec("chatmem.store.qdrant") is None \
                or importlib.util.find_spec("qdrant_client") is None:
            print("note: chatmem.store.qdrant or qdrant-client is missing: Qdrant skipped")
        elif n > args.qdrant_max:
            print(f"note: Qdrant local mode skipped at {n} (> --qdrant-max {args.qdrant_max}; "
                  "local mode is a brute-force in-process scan, not a server)")
        else:
            from chatmem.store.qdrant import QdrantIndex

            msgs_db = await SqliteStore.open(tmp / f"qdrant-{name}-{n}.db", ann_threshold=None)
            qd = await QdrantIndex.open("qdrant+local://:memory:")
            start = time.perf_counter()
            for s in range(0, n, 1000):
                await msgs_db.append(messages(s, min(n, s + 1000), args.current_texts))
            t_msgs = time.perf_counter() - start
            rate_v = await ingest(msgs_db, qd, vecs, append=False)
            rate = n / (t_msgs + n / rate_v)
            # the vectors live in Qdrant: as the indexer does beside a separate index
            # (Storage.upsert), the store keeps their full text (else marking them indexed
            # drops their pending entries, and hybrid recall runs with no lexical side)
            # and the messages are marked indexed
            for s in range(0, n, 1000):
                e = min(n, s + 1000)
                await msgs_db.upsert_lexical(entries(messages(s, e, args.current_texts),
                                                     vecs[s:e]))
                await msgs_db.set_index_state([f"m{i}" for i in range(s, e)],
                                              IndexState.INDEXED)
            print(f"[{name} {n}] qdrant local ingest {rate:,.0f} messages/s "
                  f"(vectors alone {rate_v:,.0f}/s)", flush=True)
            out["qdrant local"] = (msgs_db, qd, rate)
    return out


async def close_other(store: Any, index: Any) -> None:
    if index is not store:
        await index.close()
    await store.close()


# ---------------------------------------------------------------------------- main


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="10000,100000")
    ap.add_argument("--data", default="real,synthetic")
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--k", type=int, default=10)
    ap.add_argument("--real", type=int, default=3000, help="real LoCoMo turns to embed")
    ap.add_argument("--threads", type=int, default=2, help="ONNX threads for the real turns")
    ap.add_argument("--probes", default="8,16,32,64", help="nprobe values to sweep")
    ap.add_argument("--nprobe", type=int, default=AnnSettings().nprobe)
    ap.add_argument("--build-threads", type=int, default=0,
                    help="OpenMP threads of the ANN build (0 = all cores; the store's "
                    "default is 1)")
    ap.add_argument("--pg", default=None, help="a throwaway PostgreSQL URL (it is cleared)")
    ap.add_argument("--pg-max", type=int, default=100_000)
    ap.add_argument("--pg-vacuum", action="store_true",
                    help="VACUUM (ANALYZE) the PostgreSQL tables after the ingest")
    ap.add_argument("--qdrant", action="store_true", help="also Qdrant local mode")
    ap.add_argument("--qdrant-max", type=int, default=10_000)
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--tmp", type=Path, default=None, help="folder for the store files")
    ap.add_argument("--embed-cache", type=Path, default=None,
                    help="an .npz to keep the real embeddings in between runs (outside the "
                    "repo: the data is measurement only)")
    ap.add_argument("--skip", default="", help="sections to leave out, comma separated: "
                    "filters (the filtered ANN rows), lexical (the pending full-text rows; "
                    "slow through SQL at 1M)")
    ap.add_argument("--out", default="bench/results/search.json")
    args = ap.parse_args()
    args.skip = {x for x in args.skip.split(",") if x}
    args.probes = [int(x) for x in args.probes.split(",") if x]
    sizes = [int(x) for x in args.sizes.split(",") if x]
    kinds = [x for x in args.data.split(",") if x]
    if load_faiss() is None:
        print("note: faiss-cpu is not installed (pip install 'chatmem[ann]'): ANN rows skipped")
    if "real" in kinds and not args.locomo.is_file():
        sys.exit(f"LoCoMo data not found at {args.locomo}; pass --locomo PATH or --data "
                 "synthetic")
    tmp = Path(tempfile.mkdtemp(prefix="chatmem-bench-", dir=args.tmp))
    out: dict[str, Any] = {
        "machine": machine(), "model": MODEL, "dim": DIM, "k": args.k,
        "command": "python " + " ".join(sys.argv),
        "ann": {"library": "faiss-cpu " + (load_faiss().__version__ if load_faiss() else
                                             "(missing)"),
                "settings": dataclasses.asdict(AnnSettings(build_threads=args.build_threads,
                                                           nprobe=args.nprobe)),
                "default_threshold": DEFAULT_THRESHOLD},
        "data": {}, "runs": [],
    }
    real = None
    real_texts: list[str] = []
    if "real" in kinds:
        real_texts = locomo_texts(args.locomo, args.real)
        cache = args.embed_cache
        if cache is not None and cache.is_file():
            with np.load(cache) as z:
                real = (z["base"][: args.real], z["queries"][: args.queries])
        else:
            real = asyncio.run(embed_real(args.locomo, args.real, args.queries, args.threads))
            if cache is not None:
                np.savez(cache, base=real[0], queries=real[1])
        out["data"]["real"] = (f"{len(real[0])} LoCoMo turns embedded with {MODEL}; the rest "
                               "normalise(v_a + α·v_b + σ·g), α~U(0,0.5), σ·√384~U(0.25,0.75); "
                               f"queries: {len(real[1])} LoCoMo questions")
    if "synthetic" in kinds:
        out["data"]["synthetic"] = ("2000 random unit centres, points normalise(c + 0.05·g); "
                                    "queries: stored points + 0.025·g")
    rows: list[list[Any]] = []
    try:
        for kind in kinds:
            for n in sizes:
                if kind == "real":
                    assert real is not None
                    (vecs, origin), queries = real_derived(real[0], n), real[1]
                    args.current_texts = [real_texts[int(i)] for i in origin]
                    args.current_questions = locomo_questions(args.locomo, len(queries))
                else:
                    vecs, queries = clustered(n, args.queries)
                    args.current_texts = args.current_questions = None
                args.current_vecs = vecs
                res = asyncio.run(run_size(kind, vecs, queries, args, tmp))
                res["data"] = kind
                out["runs"].append(res)
                del vecs
                gc.collect()
                for p, r in res["paths"].items():
                    rows.append([kind, n, p, r["p50_ms"], r["p95_ms"], r["x_numpy"],
                                 r["recall_at_10"], ""])
                for mode, r in res["memory_recall"].items():
                    ratio = r.get("x_dense_p50")
                    rows.append([kind, n, f"Memory.recall {mode}", r["p50_ms"], r["p95_ms"],
                                 "", "", "" if ratio is None else f"{ratio:.2f}"])
                for path, r in res["lexical"].items():
                    if "p50_ms" in r:
                        rows.append([kind, n, path, r["p50_ms"], r["p95_ms"], "", "", ""])
                write_json(args.out, out)  # partial results survive a long run
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    m = machine()
    print_table(f"Recall latency, k={args.k}, query embedding excluded; {m['cores']} cores, "
                f"{m['processor']}; model {MODEL} (384-d); ANN = faiss IVF-SQ8, nlist≈4·√n, "
                f"nprobe={args.nprobe}",
                ["data", "store size", "path", "p50 ms", "p95 ms", "× numpy p50",
                 "recall@10", "hybrid × dense p50"], rows)
    ing = [[r["data"], r["n"], b, v, r.get("ann_build_s") if b == "sqlite" else ""]
           for r in out["runs"] for b, v in r["ingest"].items()]
    print_table("Ingest (precomputed vectors)", ["data", "store size", "backend",
                                                 "messages/s", "ANN build s"], ing)
    sweep = [[r["data"], r["n"], r.get("nlist"), ef, s["p50_ms"], s["p95_ms"],
              s["recall_at_10"]]
             for r in out["runs"] for ef, s in r.get("nprobe_sweep", {}).items()]
    if sweep:
        print_table("nprobe sweep (sqlite+ANN, k=10, min_scan off)",
                    ["data", "store size", "nlist", "nprobe", "p50 ms", "p95 ms", "recall@10"],
                    sweep)
    write_json(args.out, out)


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
