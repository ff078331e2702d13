"""Local-model embedding throughput: chatmem vs a bare ONNX loop on the same texts.

    python bench/embed.py [--n 2000] [--threads 2] [--locomo PATH] [--out bench/results/embed.json]

Rows (messages/s, default model all-MiniLM-L6-v2 int8, ``--threads`` ONNX threads):
* bare ONNX loop, batches of 32 in input order
* bare ONNX loop, batches of 32 after sorting by length (the baseline)
* chatmem Embedder.embed_many (cache off)
* chatmem indexing end to end: Memory.add → background indexer → SQLite vectors
The bare loops and chatmem alternate twice in one process; the best of each is
reported, and the ratio of indexing to the length-sorted loop.
Texts: LoCoMo turns (speaker-prefixed), measurement only.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from _common import DEFAULT_LOCOMO, locomo_texts, machine, print_table, write_json
from chatmem import Memory, Message
from chatmem.embedding import Embedder
from chatmem.embedding.local import LocalProvider, resolve_model


def bare_loop(texts: list[str], threads: int, sort: bool, batch: int = 32) -> float:
    """What a careful user would write by hand with onnxruntime + tokenizers."""
    import onnxruntime as ort
    from tokenizers import Tokenizer

    spec = resolve_model("all-MiniLM-L6-v2")
    tok = Tokenizer.from_file(str(spec.tokenizer_file))
    tok.no_padding()
    tok.enable_padding(pad_id=0, pad_token="[PAD]")
    tok.enable_truncation(max_length=256)
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads
    sess = ort.InferenceSession(str(spec.model_file), opts, providers=["CPUExecutionProvider"])
    order = sorted(range(len(texts)), key=lambda i: len(texts[i])) if sort else \
        list(range(len(texts)))
    out = np.zeros((len(texts), 384), dtype=np.float32)
    start = time.perf_counter()
    for s in range(0, len(order), batch):
        idx = order[s:s + batch]
        enc = tok.encode_batch([texts[i] for i in idx])
        ids = np.array([e.ids for e in enc], dtype=np.int64)
        mask = np.array([e.attention_mask for e in enc], dtype=np.int64)
        hidden = sess.run(None, {"input_ids": ids, "attention_mask": mask,
                                 "token_type_ids": np.zeros_like(ids)})[0]
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(1) / m.sum(1)
        out[idx] = pooled / np.linalg.norm(pooled, axis=1, keepdims=True)
    return len(texts) / (time.perf_counter() - start)


async def facade(texts: list[str], threads: int) -> float:
    emb = Embedder(LocalProvider(threads=threads), cache_enabled=False)
    await emb.embed_one("warm up")
    start = time.perf_counter()
    await emb.embed_many(texts)
    return len(texts) / (time.perf_counter() - start)


async def indexing(texts: list[str], threads: int) -> float:
    emb = Embedder(LocalProvider(threads=threads), cache_enabled=False)
    await emb.embed_one("warm up")
    with tempfile.TemporaryDirectory() as tmp:
        mem = await Memory.open(f"sqlite:///{tmp}/bench.db", embedder=emb)
        msgs = [Message(session_id=f"s{i // 200}", content=t, ts=i) for i, t in
                enumerate(texts)]
        start = time.perf_counter()
        for i in range(0, len(msgs), 100):  # arrives in chunks, as a chat import would
            await mem.add(msgs[i:i + 100])
        await mem.flush()
        rate = len(texts) / (time.perf_counter() - start)
        stats = await mem.stats()
        assert stats["indexed"] == len(texts), stats
        await mem.close()
    return rate


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--out", default="bench/results/embed.json")
    args = ap.parse_args()
    if not args.locomo.is_file():
        sys.exit(f"LoCoMo data not found at {args.locomo}; pass --locomo PATH")
    texts = locomo_texts(args.locomo, args.n)
    bare_loop(texts[:64], args.threads, True)  # warm up the CPU and the page cache
    results: dict[str, list[float]] = {"bare_unsorted": [], "bare_sorted": [], "facade": [],
                                       "indexing": []}
    for _ in range(args.rounds):
        results["bare_unsorted"].append(bare_loop(texts, args.threads, False))
        results["bare_sorted"].append(bare_loop(texts, args.threads, True))
        results["facade"].append(asyncio.run(facade(texts, args.threads)))
        results["indexing"].append(asyncio.run(indexing(texts, args.threads)))
    best = {k: max(v) for k, v in results.items()}
    base = best["bare_sorted"]
    rows = [[k, best[k], best[k] / base] for k in results]
    print_table(f"Embedding throughput, {len(texts)} LoCoMo turns, all-MiniLM-L6-v2 int8, "
                f"{args.threads} threads, {machine()['cores']} cores",
                ["path", "messages/s", "vs sorted bare loop"], rows)
    write_json(args.out, {"machine": machine(), "model": "local:all-MiniLM-L6-v2",
                          "n": len(texts), "threads": args.threads, "runs": results,
                          "best": best, "ratio_indexing_vs_sorted": best["indexing"] / base})


if __name__ == "__main__":
    main()
