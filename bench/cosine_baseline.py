"""Each local model's *cosine baseline*: the cosine it gives two unrelated texts.

    python bench/cosine_baseline.py [--models a,b] [--n 300]
                                    [--out bench/results/cosine-baseline.json]

Hybrid recall maps every model's cosines onto the scale of all-MiniLM-L6-v2, the
model its weights were chosen with (``chatmem.recall.fuse.rescale``): the baseline
goes to MiniLM's, 1 stays 1. The figure is a property of the model, so it is
measured on text that is none of the evaluation sets: sentences of chatmem's own
README (English prose, 40–200 characters, code blocks left out), ``--n`` of them
spread over the file. Each sentence is embedded as a query and as a document;
the baseline is the median query–document cosine over every pair of different
sentences. The registry (``chatmem.embedding.local.MODELS``) holds the figures this
prints; a model that does not load here is skipped.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine
from zh_chat import try_embedder

README = Path(__file__).resolve().parents[1] / "README.md"
DEFAULT_MODELS = "all-MiniLM-L6-v2,multilingual-e5-small,use-multilingual-v3"


def sentences(n: int) -> list[str]:
    """``n`` English sentences spread over the README."""
    text = re.sub(r"```.*?```", " ", README.read_text(encoding="utf-8"), flags=re.S)
    text = re.sub(r"[`*|#\[\]()]", " ", text)
    found = [s.strip() for s in re.split(r"(?<=[.!?])\s+", text)]
    found = [s for s in found if 40 <= len(s) <= 200 and not re.search(r"[\u4e00-\u9fff]", s)]
    step = max(1, len(found) // n)
    return found[::step][:n]


async def baseline(model: str, texts: list[str]) -> dict[str, Any] | None:
    embedder, why = await try_embedder(model, 2)
    if embedder is None:
        print(f"  {model}: skipped ({why})")
        return None
    try:
        def matrix(vectors: list[Any]) -> np.ndarray:
            m = np.array([np.asarray(getattr(v, "vector", v), dtype=np.float64)
                          for v in vectors])
            return m / np.linalg.norm(m, axis=1, keepdims=True)

        docs = matrix(await embedder.embed_many([(t, "document") for t in texts]))
        queries = matrix(await embedder.embed_many([(t, "query") for t in texts]))
        off = ~np.eye(len(texts), dtype=bool)
        qd = (queries @ docs.T)[off]
        dd = (docs @ docs.T)[off]
        return {"model": model, "sentences": len(texts),
                "baseline": round(float(np.median(qd)), 3),
                "query_document_mean": round(float(qd.mean()), 3),
                "document_document_median": round(float(np.median(dd)), 3),
                "p10": round(float(np.percentile(qd, 10)), 3),
                "p90": round(float(np.percentile(qd, 90)), 3)}
    finally:
        await embedder.aclose()


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--models", default=DEFAULT_MODELS)
    ap.add_argument("--n", type=int, default=300, help="sentences of the README")
    ap.add_argument("--out", type=Path,
                    default=Path(__file__).resolve().parent / "results" /
                    "cosine-baseline.json")
    args = ap.parse_args()
    texts = sentences(args.n)
    rows = [r for m in args.models.split(",") if (r := await baseline(m.strip(), texts))]
    print(f"\ncosine baseline: median query-document cosine of {len(texts)} README "
          f"sentences (every pair of different ones); {machine()['cores']} cores")
    print(f"{'model':<24}{'baseline':>10}{'mean':>8}{'p10':>8}{'p90':>8}{'doc-doc':>9}")
    for r in rows:
        print(f"{r['model']:<24}{r['baseline']:>10.3f}{r['query_document_mean']:>8.3f}"
              f"{r['p10']:>8.3f}{r['p90']:>8.3f}{r['document_document_median']:>9.3f}")
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps({"machine": machine(), "rows": rows}, indent=2) + "\n",
                        encoding="utf-8")
    print(f"\nwrote {args.out}")


if __name__ == "__main__":
    asyncio.run(main())
