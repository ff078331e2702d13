"""chatmem beside mem0 on LoCoMo: the same turns, gold, metric and embedding model.

    python bench/mem0_side.py [--data PATH] [--conversations N]
                              [--venv /tmp/chatmem-mem0-venv] [--repo .] [--mem0 mem0ai]
                              [--threshold 0.1] [--threads 2] [--out bench/results/mem0_side.json]

mem0 runs in its own virtualenv (created on first use; ``pip install <--mem0>
<--repo>``, so that chatmem's local model is there too) through
``bench/_mem0_worker.py``: ``add(..., infer=False)`` (no LLM: each turn is stored
as it is, one ``add`` per turn, metadata ``dia_id``), one ``user_id`` per
conversation, mem0's embedded Qdrant (local folder per conversation) and, as the
embedder, chatmem's own ``create_embedder()`` (all-MiniLM-L6-v2 int8 on ONNX
Runtime) wrapped in mem0's ``EmbeddingBase``; each turn is given to mem0 as the
exact text chatmem embeds (``Speaker: text [shares image: …]``), so only the
retrieval differs. Searches: ``search(question, top_k=20, filters={user_id},
threshold=--threshold)`` (0.1 is mem0's default).

chatmem runs in this environment on the same conversations and questions (the
setup of ``bench/locomo.py``: one ``memory://`` store per conversation,
``recall(scope="all", top_k=20, window=0, now=last turn + 1 day)``) in three
configurations: ``default`` (``Config()`` as shipped), ``dense`` (hybrid switched
off when the configuration has a ``hybrid`` section) and ``dense, no decay``
(``search.time_weight`` 0: pure cosine, the like-for-like row for mem0's
semantic search). Each configuration has its own Embedder whose cache is seeded
with the turns' vectors but not the questions', so a recall's latency includes
embedding its question, as a mem0 search does.

Everything runs one after the other (mem0 first), never at the same time.
Latencies are wall-clock on a shared 2-core machine: compare them within a run.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from _common import DEFAULT_LOCOMO, machine, pct, print_table, write_json
from _metrics import KS, metric_cols
from chatmem.config import Config
from chatmem.embedding import Embedder, cache_key
from locomo import (
    CATEGORIES,
    MACRO_CATS,
    METRIC_HEADER,
    TOP_K,
    Conversation,
    Scores,
    Variant,
    build_store,
    data_facts,
    evidence_summary,
    load_locomo,
    print_evidence,
    resolve_variants,
    shared_embedder,
)

BENCH = Path(__file__).resolve().parent
BLOCKED_PACKAGES = ("torch", "sentence-transformers")

# --------------------------------------------------------------------------- mem0 venv


def venv_python(venv: Path) -> Path:
    return venv / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def ensure_venv(venv: Path, mem0_req: str, repo: Path) -> dict[str, Any]:
    """Create the virtualenv if needed and install mem0 and this repository into it."""
    log: dict[str, Any] = {"venv": str(venv), "requirement": mem0_req, "repo": str(repo)}
    py = venv_python(venv)
    t0 = time.perf_counter()
    if not py.exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        log["created"] = True
    cmd = [str(py), "-m", "pip", "install", "--quiet", mem0_req, str(repo)]
    print("$ " + " ".join(cmd), file=sys.stderr, flush=True)
    done = subprocess.run(cmd, capture_output=True, text=True)
    log["pip_seconds"] = time.perf_counter() - t0
    if done.returncode != 0:
        log["pip_error"] = done.stderr[-4000:]
        return log
    listed = subprocess.run([str(py), "-m", "pip", "list", "--format", "json"],
                            capture_output=True, text=True, check=True)
    pkgs = {p["name"].lower(): p["version"] for p in json.loads(listed.stdout)}
    log["packages"] = {n: pkgs.get(n) for n in ("mem0ai", "qdrant-client", "chatmem",
                                               "onnxruntime", "openai", "fastembed", "spacy")}
    log["forbidden_present"] = [n for n in BLOCKED_PACKAGES if n in pkgs]
    return log


def iso(ts_ms: int) -> str:
    return dt.datetime.fromtimestamp(ts_ms / 1000, dt.timezone.utc).isoformat()


def run_mem0(args: argparse.Namespace, convs: Sequence[Conversation], work: Path
             ) -> dict[str, Any]:
    spec = {
        "workdir": str(work), "threads": args.threads, "top_k": TOP_K,
        "threshold": args.threshold,
        "probe_texts": [t.text for t in convs[0].turns[:8]],
        "conversations": [{
            "sample_id": c.sample_id,
            "turns": [{"dia_id": t.dia_id, "text": t.text, "speaker": t.speaker_name,
                       "session_id": t.session_id, "time": iso(t.ts)} for t in c.turns],
            "questions": [{"qid": q.qid, "question": q.question} for q in c.questions],
        } for c in convs],
    }
    (work / "spec.json").write_text(json.dumps(spec, ensure_ascii=False), encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("OPENAI_", "MEM0_"))}
    env.update({"MEM0_TELEMETRY": "False", "MEM0_DIR": str(work / "mem0home"),
                "HF_HUB_OFFLINE": "1", "PYTHONPATH": ""})
    cmd = [str(venv_python(args.venv)), str(BENCH / "_mem0_worker.py"),
           str(work / "spec.json"), str(work / "out.json")]
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, cwd=work)
    wall = time.perf_counter() - t0
    out_file = work / "out.json"
    if not out_file.exists():
        return {"ok": False, "error": f"worker exited {done.returncode} without a report",
                "wall_seconds": wall}
    out: dict[str, Any] = json.loads(out_file.read_text(encoding="utf-8"))
    out["wall_seconds"] = wall
    return out


# --------------------------------------------------------------------------- chatmem


def fresh_embedder(seed: Embedder) -> Embedder:
    """Same model (the seed's provider), own cache; the turns' vectors copied in."""
    return Embedder(seed.provider, batch_size=seed.batch_size, normalize=seed.normalize,
                    cache_max_items=1_000_000)


def seed_documents(seed: Embedder, target: Embedder, texts: Sequence[str]) -> None:
    name, model = seed.provider.name, seed.provider.model_id
    for text in texts:
        key = cache_key(name, model, "document", text)
        vec = seed.cache.get(key)
        if vec is not None:
            target.cache.set(key, vec)


async def run_chatmem(variants: Sequence[Variant], convs: Sequence[Conversation],
                      threads: int) -> tuple[Embedder, dict[str, dict[str, Any]]]:
    seed = shared_embedder(threads)
    t0 = time.perf_counter()
    for c in convs:
        await seed.embed_many([(t.text, "document") for t in c.turns])
    embed_s = time.perf_counter() - t0
    out: dict[str, dict[str, Any]] = {}
    for v in variants:
        emb = fresh_embedder(seed)
        scores, lat = Scores(), []
        build_s = 0.0
        for c in convs:
            seed_documents(seed, emb, [t.text for t in c.turns])
            t1 = time.perf_counter()
            mem = await build_store(c, emb, v.config)
            build_s += time.perf_counter() - t1
            try:
                for q in c.questions:
                    start = time.perf_counter()
                    res = await mem.recall(q.question, scope="all", top_k=TOP_K, window=0,
                                           now=c.now_ms)
                    lat.append((time.perf_counter() - start) * 1000)
                    ranked = [h.message.id for h in res.hits if h.message.id is not None]
                    scores.add_question_ranked(q, ranked)
            finally:
                await mem.close()
        out[v.name] = {"scores": scores, "latency_ms": lat, "build_seconds": build_s,
                       "config": v.describe(), "query_texts_embedded":
                       emb.status.provider_texts}
        print(f"chatmem {v.name}: done", file=sys.stderr, flush=True)
    out["_embed"] = {"seconds": embed_s, "texts": seed.status.provider_texts}
    return seed, out


# --------------------------------------------------------------------------- main


def chatmem_variants() -> tuple[list[Variant], list[str]]:
    variants, notes = resolve_variants(["dense", "dense+no-decay"], {}, {})
    default = Variant("default", "default", False, False, Config(), "Config() as shipped")
    dense = next((v for v in variants if v.name == "dense"), None)
    if dense is not None and dense.config == default.config:
        notes.append("default = dense (the configuration has no hybrid section); run once")
        dense.name = "default = dense"
        return variants, notes
    return [default, *variants], notes


def probe_check(seed: Embedder, texts: Sequence[str], vectors: Sequence[Sequence[float]]
                ) -> float | None:
    """Smallest cosine between the worker's vectors and this process's for the same texts."""
    if not vectors:
        return None
    name, model = seed.provider.name, seed.provider.model_id
    mine = [seed.cache.get(cache_key(name, model, "document", t)) for t in texts]
    cos = [float(np.dot(a, np.asarray(b, dtype=np.float32) / np.linalg.norm(b)))
           for a, b in zip(mine, vectors) if a is not None]
    return min(cos) if cos else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--conversations", type=int, default=10,
                    help="the first N LoCoMo conversations (default 10 = all)")
    ap.add_argument("--venv", type=Path, default=Path("/tmp/chatmem-mem0-venv"))
    ap.add_argument("--repo", type=Path, default=BENCH.parent,
                    help="this repository, pip-installed into the venv for the model")
    ap.add_argument("--mem0", default="mem0ai", help="pip requirement for mem0")
    ap.add_argument("--threshold", type=float, default=0.1,
                    help="mem0 search threshold (0.1 = mem0's default)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--workdir", type=Path, default=None,
                    help="mem0's Qdrant folders and history DBs (default: a temp dir)")
    ap.add_argument("--out", default="bench/results/mem0_side.json")
    args = ap.parse_args()
    if not args.data.is_file():
        sys.exit(f"LoCoMo data not found at {args.data}; pass --data PATH")
    started = time.perf_counter()
    convs, rep = load_locomo(args.data, args.conversations)
    print_evidence(rep)
    variants, notes = chatmem_variants()
    for n in notes:
        print(f"note: {n}")

    install = ensure_venv(args.venv, args.mem0, args.repo.resolve())
    if "pip_error" in install:
        mem0: dict[str, Any] = {"ok": False, "error": "pip install failed",
                                "detail": install["pip_error"]}
    elif install["forbidden_present"]:
        mem0 = {"ok": False, "error": f"the mem0 venv holds {install['forbidden_present']}; "
                "refusing to run (no PyTorch / sentence-transformers here)"}
    else:
        with tempfile.TemporaryDirectory(prefix="mem0-locomo-") as tmp:
            work = args.workdir or Path(tmp)
            work.mkdir(parents=True, exist_ok=True)
            mem0 = run_mem0(args, convs, work)

    seed, cm = asyncio.run(run_chatmem(variants, convs, args.threads))
    total_s = time.perf_counter() - started

    rows, results = [], {}
    per_cat: list[list[Any]] = []
    if mem0.get("ok"):
        scores, lat = Scores(), []
        for c in convs:
            for q in c.questions:
                got = mem0["results"].get(q.qid)
                if got is None:
                    continue
                scores.add_question_ranked(q, [f"{c.sample_id}:{d}" for d in got["ranked"] if d])
                lat.append(got["ms"])
        ingest = sum(v["ingest_seconds"] for v in mem0["conversations"].values())
        short = sum(v["searches_with_fewer_than_top_k"] for v in mem0["conversations"].values())
        label = f"mem0 {mem0['mem0ai']} (infer=False)"
        rows.append([label, *metric_cols(scores.macro()), pct(lat, 50), pct(lat, 95), ingest])
        per_cat += [[f"{k} {CATEGORIES[k]}", label, *metric_cols(d)]
                    for k in (*MACRO_CATS, 5) if (d := scores.category(k))]
        results["mem0"] = {**scores.summary(), "search_latency_ms": {
            "p50": pct(lat, 50), "p95": pct(lat, 95), "n": len(lat)},
            "ingest_seconds": ingest, "searches_with_fewer_than_top_k": short}
    for name, r in cm.items():
        if name.startswith("_"):
            continue
        s, lat = r["scores"], r["latency_ms"]
        label = f"chatmem {name}"
        ingest = cm["_embed"]["seconds"] + r["build_seconds"]  # the one embedding pass + add
        rows.append([label, *metric_cols(s.macro()), pct(lat, 50), pct(lat, 95), ingest])
        per_cat += [[f"{k} {CATEGORIES[k]}", label, *metric_cols(d)]
                    for k in (*MACRO_CATS, 5) if (d := s.category(k))]
        results[f"chatmem {name}"] = {**s.summary(), "config": r["config"],
                                      "search_latency_ms": {"p50": pct(lat, 50),
                                                            "p95": pct(lat, 95),
                                                            "n": len(lat)},
                                      "ingest_seconds": ingest,
                                      "store_build_seconds": r["build_seconds"]}
    facts = data_facts(args.data, convs)
    title = (f"LoCoMo, {len(convs)} conversations ({', '.join(facts['conversations'])}), "
             f"{facts['turns']} turns, {facts['questions_scored']} questions, "
             f"{seed.model_id} int8 on both sides, {machine()['cores']} cores")
    print_table(f"{title}: macro over categories 1–4",
                ["system", *METRIC_HEADER, "p50 ms", "p95 ms", "ingest s"], rows)
    print("p50/p95: one search (mem0) or recall (chatmem), question embedding included; "
          "ingest: every turn embedded and stored (chatmem: its one batched embedding pass "
          "plus add + flush)")
    print_table("per category (5 = adversarial, not in the macro)",
                ["category", "system", *METRIC_HEADER], sorted(per_cat, key=lambda r: r[0]))
    if not mem0.get("ok"):
        print(f"\nmem0 did not run: {mem0.get('error')}")
        if mem0.get("traceback"):
            print(mem0["traceback"][-3000:])
    else:
        cos = probe_check(seed, [t.text for t in convs[0].turns[:8]],
                          mem0.get("probe_vectors", []))
        mem0["probe_min_cosine_vs_main_env"] = cos
        print(f"\nmem0 {mem0['mem0ai']}, qdrant-client {mem0['qdrant_client']}; embedder "
              f"vectors vs this process: min cosine {cos}; outbound network attempts: "
              f"{mem0.get('blocked_network') or 'none'}; searches with fewer than "
              f"{TOP_K} results: {results['mem0']['searches_with_fewer_than_top_k']}")
        for w, n in mem0.get("log_warnings", []):
            print(f"  mem0 logged ({n}x): {w}")
    mem0.pop("results", None)
    mem0.pop("probe_vectors", None)
    print(f"total {total_s:.1f}s (mem0 worker {mem0.get('wall_seconds', 0):.1f}s)")
    write_json(args.out, {
        "machine": machine(), "model": seed.model_id, "data": facts,
        "setup": {"top_k": TOP_K, "ks": list(KS), "mem0_threshold": args.threshold,
                  "chatmem": "memory:// per conversation, scope all, window 0, "
                             "now = last turn + 1 day",
                  "mem0": "Memory per conversation (user_id = sample_id), embedded Qdrant "
                          "(local folder), add(infer=False) one turn per call, "
                          "metadata dia_id; same texts as chatmem embeds",
                  "latency": "wall clock per search / recall, question embedding included "
                             "on both sides"},
        "evidence": evidence_summary(rep), "notes": notes, "mem0_install": install,
        "mem0_run": mem0, "results": results,
        "timing": {"total_seconds": total_s, "chatmem_embed": cm["_embed"]},
    })


if __name__ == "__main__":
    main()
