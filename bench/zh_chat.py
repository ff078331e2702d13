"""Chinese chat retrieval quality (bench/data/zh_chat.json): dense vs lexical vs hybrid.

    python bench/zh_chat.py [--data bench/data/zh_chat.json] [--models auto|a,b]
                            [--variants dense,lexical,hybrid,...] [--visible]
                            [--threads 2] [--out bench/results/zh_chat.json]

Setup:

* each conversation is its own ``memory://`` store; each session is stored with
  its platform, chat type and group name; each message with its id, time, role,
  speaker id and name, mentions and platform; everything is indexed (``flush``);
* every question is one ``recall(question, scope="all", top_k=20, window=0,
  now=<last message of the conversation + 1 day>)``; with ``--visible`` the
  recall is also filtered to the sessions the asker posts in (the asker-visible
  set of bench/data/README.md; each session's metadata marks its speakers);
* Hit@k = a gold message among the top k hits; Recall@k = share of the golds in
  the top k; for ``multi_hop`` also All@k (both golds); k = 1, 5, 10, 20; per
  question type and overall.

Variants (rows; the same stores, only the configuration changes):

``dense``    ``hybrid.enabled = false``: dense search only
``lexical``  ``hybrid.mode = "lexical"``: the full-text (BM25) search only
``hybrid``   the default configuration: dense and lexical fused (``fusion: score``)
``hybrid-rrf`` reciprocal-rank fusion instead (``fusion: rank``), for comparison
``…+decay``  the same with the default time decay (``search.time_weight`` as configured, 0.1); the
             plain rows use ``time_weight`` 0 (pure relevance, as the issue measured)

Models (``--models``): ``auto`` = the default model plus every registered local
model (``chatmem.embedding.local.MODELS``) whose engine loads offline here;
models that cannot load are listed with the reason and skipped.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import json
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from _common import machine, pct, print_table, write_json
from _metrics import KS, VARIANTS, RankScores, deep_merge, variant_overrides
from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.embedding import Embedder, create_embedder
from chatmem.models import Session

DEFAULT_DATA = Path(__file__).resolve().parent / "data" / "zh_chat.json"
TOP_K = max(KS)
DAY_MS = 86_400_000
DEFAULT_MODEL = "all-MiniLM-L6-v2"

DEFAULT_VARIANTS = "dense,lexical,hybrid,hybrid-rrf,dense+decay,lexical+decay,hybrid+decay"


def to_ms(iso: str) -> int:
    return int(dt.datetime.fromisoformat(iso).timestamp() * 1000)


@dataclass
class Question:
    id: str
    conversation: str
    asker: str
    session: str
    text: str
    gold: tuple[str, ...]
    type: str
    #: knowledge updates: the older statement(s) the gold supersedes
    stale: tuple[str, ...] = ()


@dataclass
class Conversation:
    id: str
    sessions: list[Session]
    messages: list[Message]
    questions: list[Question] = field(default_factory=list)

    @property
    def last_ts(self) -> int:
        return max(m.ts or 0 for m in self.messages)


def load(path: Path) -> list[Conversation]:
    data = json.loads(path.read_text(encoding="utf-8"))
    convs: dict[str, Conversation] = {}
    for c in data["conversations"]:
        sessions, messages = [], []
        for s in c["sessions"]:
            # who takes part: the asker-visible filter (--visible) reads these keys
            members = {f"member_{m['speaker_id']}": True for m in s["messages"]
                       if m.get("speaker_id")}
            sessions.append(Session(id=s["id"], origin_platform=s.get("platform"),
                                    chat_type=s.get("chat_type"), group_id=s.get("group_id"),
                                    group_name=s.get("group_name"), metadata=members))
            for m in s["messages"]:
                messages.append(Message(
                    id=m["id"], session_id=s["id"], content=m["content"], role=m["role"],
                    ts=to_ms(m["ts"]), speaker_id=m.get("speaker_id"),
                    speaker_name=m.get("speaker_name"), mentions=tuple(m.get("mentions", ())),
                    platform=s.get("platform")))
        convs[c["id"]] = Conversation(c["id"], sessions, messages)
    for q in data["questions"]:
        convs[q["conversation"]].questions.append(Question(
            q["id"], q["conversation"], q["asker_id"], q["session"], q["question"],
            tuple(q["gold"]), q["type"], tuple(q.get("stale", ()))))
    return list(convs.values())


# --------------------------------------------------------------------------- scoring


@dataclass
class Scores:
    """Per-question metrics (``bench/_metrics``) grouped by question type, and latencies."""

    ranks: RankScores = field(default_factory=RankScores)
    latencies_ms: list[float] = field(default_factory=list)

    def add(self, q: Question, ranked: Sequence[str], ms: float) -> None:
        self.ranks.add_ranked(q.type, q.gold, ranked, all_k=q.type == "multi_hop")
        self.latencies_ms.append(ms)

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {t: m for t, m in self.ranks.by_group().items()}
        out["overall"] = self.ranks.overall()
        out["latency_ms"] = {"p50": pct(self.latencies_ms, 50), "p95": pct(self.latencies_ms, 95)}
        return out


# --------------------------------------------------------------------------- running


def variant_config(name: str) -> Config:
    base, _, mod = name.partition("+")
    if base not in VARIANTS or mod not in ("", "decay"):
        raise SystemExit(f"unknown variant {name!r}: use {sorted(VARIANTS)} with an optional "
                         "+decay")
    cfg = variant_overrides(base)
    if mod != "decay":
        cfg = deep_merge(cfg, {"search": {"time_weight": 0.0}})
    return Config.load(cfg)


def registered_models() -> list[str]:
    from chatmem.embedding.local import MODELS

    return list(MODELS)


async def try_embedder(model: str, threads: int) -> tuple[Embedder | None, str]:
    """An Embedder for ``model`` that has embedded one text, or (None, why not)."""
    from chatmem.embedding.local import MODELS, model_unavailable

    spec = MODELS.get(model)
    if spec is not None and spec.engine == "onnx" and model != DEFAULT_MODEL:
        why = model_unavailable(model)  # None: installed here (all-mpnet-base-v2's packages)
        if why is not None:
            return None, f"not here without the hub: {why}"
    try:
        cfg = Config.load({"embedding": {"model": model, "threads": threads,
                                         "cache": {"max_items": 1_000_000}}})
        emb = create_embedder(cfg.embedding)
        await emb.embed_one("你好")
    except Exception as exc:  # the reason is reported, the model skipped
        return None, f"{type(exc).__name__}: {exc}"
    return emb, "ok"


async def build(conv: Conversation, embedder: Embedder, *, timestamps: bool = True) -> Memory:
    """One store holding ``conv``, added in one call; ``timestamps=False`` leaves every
    message's ``ts`` out, so the store times them as they arrive (an imported history
    without times; ``bench/quality.py --no-timestamps``)."""
    mem = await Memory.open("memory://", embedder=embedder, config=Config())
    for s in conv.sessions:
        await mem.upsert_session(s)
    await mem.add(conv.messages if timestamps
                  else [replace(m, ts=None) for m in conv.messages])
    await mem.flush()
    return mem


async def run_model(embedder: Embedder, convs: list[Conversation], variants: list[str],
                    visible: bool) -> dict[str, Scores]:
    scores = {v: Scores() for v in variants}
    configs = {v: variant_config(v) for v in variants}
    for conv in convs:
        t0 = time.perf_counter()
        await embedder.embed_many([(q.text, "query") for q in conv.questions])
        mem = await build(conv, embedder)
        try:
            now = conv.last_ts + DAY_MS
            for v in variants:
                mem.config = configs[v]  # same store; only search settings differ
                for q in conv.questions:
                    flt: Mapping[str, Any] | None = None
                    if visible:  # session metadata (M6): sessions the asker posts in
                        flt = {f"member_{q.asker}": True}
                    start = time.perf_counter()
                    res = await mem.recall(q.text, scope="all", top_k=TOP_K, window=0,
                                           now=now, filter=flt)
                    ms = (time.perf_counter() - start) * 1000
                    scores[v].add(q, [h.message.id or "" for h in res.hits], ms)
        finally:
            await mem.close()
        print(f"  {conv.id}: {len(conv.messages)} messages, {len(conv.questions)} questions, "
              f"{time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    return scores


def languages_of(embedder: Embedder) -> list[str] | None:
    langs = getattr(embedder.provider, "languages", None)
    return list(langs) if langs is not None else None


async def amain(args: argparse.Namespace) -> None:
    convs = load(args.data)
    nq = sum(len(c.questions) for c in convs)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for v in variants:
        variant_config(v)  # fail early on a bad name
    if args.models == "auto":
        models = [DEFAULT_MODEL] + [m for m in registered_models() if m != DEFAULT_MODEL]
    else:
        models = [m.strip() for m in args.models.split(",") if m.strip()]
    results: dict[str, Any] = {}
    skipped: dict[str, str] = {}
    for model in models:
        embedder, why = await try_embedder(model, args.threads)
        if embedder is None:
            skipped[model] = why
            print(f"skip {model}: {why}", file=sys.stderr)
            continue
        print(f"{embedder.model_id} (languages {languages_of(embedder)}):", file=sys.stderr)
        t0 = time.perf_counter()
        scores = await run_model(embedder, convs, variants, args.visible)
        results[model] = {
            "model_id": embedder.model_id, "languages": languages_of(embedder),
            "seconds": time.perf_counter() - t0,
            "variants": {v: s.summary() for v, s in scores.items()},
        }
    if not results:
        sys.exit("no model could be loaded")
    title = (f"zh_chat retrieval: {len(convs)} conversations, {nq} questions, top_k {TOP_K}, "
             f"scope {'asker-visible' if args.visible else 'all'}; {machine()['cores']} cores")
    rows = []
    for model, r in results.items():
        for v, s in r["variants"].items():
            o = s["overall"]
            rows.append([model, v, o["hit@1"], o["hit@5"], o["hit@10"], o["hit@20"],
                         o["recall@5"], o["recall@10"], o["recall@20"],
                         s["latency_ms"]["p50"]])
    print_table(title, ["model", "variant", "Hit@1", "Hit@5", "Hit@10", "Hit@20", "R@5", "R@10",
                        "R@20", "p50 ms"], rows)
    types = sorted({t for r in results.values() for s in r["variants"].values() for t in s
                    if t not in ("overall", "latency_ms")})
    rows = []
    for model, r in results.items():
        for v, s in r["variants"].items():
            rows.append([model, v, *(f"{s[t]['hit@5']:.3f}/{s[t]['recall@10']:.3f}"
                                     for t in types)])
    print_table("per type: Hit@5 / Recall@10", ["model", "variant", *types], rows)
    for model, r in results.items():
        for v, s in r["variants"].items():
            mh = s.get("multi_hop")
            if mh:
                print(f"{model} {v}: multi_hop All@5 {mh['all@5']:.3f}, All@10 {mh['all@10']:.3f}")
    for model, why in skipped.items():
        print(f"skipped {model}: {why}")
    write_json(args.out, {
        "machine": machine(),
        "data": {"path": str(args.data), "conversations": len(convs), "questions": nq,
                 "messages": sum(len(c.messages) for c in convs)},
        "setup": {"top_k": TOP_K, "ks": list(KS), "window": 0,
                  "scope": "asker-visible" if args.visible else "all",
                  "now": "last message of the conversation + 1 day",
                  "store": "memory:// per conversation", "threads": args.threads,
                  "variants": {v: variant_config(v).model_dump(mode="json")["hybrid"]
                               | {"time_weight": variant_config(v).search.time_weight}
                               for v in variants}},
        "models": results, "skipped_models": skipped,
    })


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_DATA)
    ap.add_argument("--models", default="auto",
                    help="auto (default model + every registered model that loads here) or "
                         "a comma-separated list")
    ap.add_argument("--variants", default=DEFAULT_VARIANTS)
    ap.add_argument("--visible", action="store_true",
                    help="filter each recall to the sessions the asker takes part in")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--out", default="bench/results/zh_chat.json")
    args = ap.parse_args()
    if not args.data.is_file():
        sys.exit(f"data not found: {args.data}")
    asyncio.run(amain(args))


if __name__ == "__main__":
    main()
