"""LoCoMo retrieval quality for chatmem: Recall@k and Hit@k per question category.

    python bench/locomo.py [--data PATH] [--conversations N]
                           [--variants dense,lexical,hybrid,hybrid+window,no-decay,
                                       lexical+no-decay,hybrid+no-decay]
                           [--variant-config MODE=JSON ...] [--threads 2]
                           [--out bench/results/locomo.json]

Setup (the project's LoCoMo metric, ``../shared/data/locomo/README.md``):

* each conversation is its own ``memory://`` store; each LoCoMo session is one
  chatmem session ``<sample_id>-s<N>``; each turn is a message with id
  ``<sample_id>:<dia_id>``, ``ts`` = the session's ``session_N_date_time``
  (read as UTC) plus one minute per turn, spoken by one of the two speakers
  (``speaker_id`` ``<sample_id>:<name>``, ``speaker_name`` the name), with
  `` [shares image: <blip_caption>]`` after the text when the turn shares one;
* every question is one ``recall(question, scope="all", top_k=20, window=0,
  now=<last turn + 1 day>)`` against its own conversation;
* gold = the question's evidence ``dia_id`` s, normalised (see
  :func:`normalise_evidence`); questions left without gold are not scored;
* Recall@k = fraction of the gold turns among the top k recalled messages,
  Hit@k = 1 when at least one is; k = 1, 5, 10, 20; per category 1–4, their
  macro average, and category 5 (adversarial) on its own line.

Variants (``--variants``, comma separated; every one is a row of the same run):

``dense``          ``hybrid.enabled = false``: dense search only
``lexical``        ``hybrid.mode = "lexical"``: the full-text (BM25) search only
``hybrid``         the default configuration: both fused
``hybrid-rrf``     reciprocal-rank fusion instead (``hybrid.fusion = "rank"``)
``<base>+window``  ``context_expand.window`` 2: for each k, one real recall with
                   ``top_k=k``; a gold turn counts as found when it is in any
                   rendered snippet (what the model would see); reports the mean
                   rendered characters per question.
``<base>+no-decay`` ``search.time_weight`` 0; ``no-decay`` = ``dense+no-decay``

Each mode is a literal set of configuration overrides (``bench/_metrics.VARIANTS``);
``--variant-config MODE=JSON`` replaces a mode's overrides with an explicit
configuration (e.g. ``lexical='{"hybrid":
{"mode": "lexical"}}'``). Every variant's effective configuration is printed and
written to the JSON.

All variants share one Embedder (one LRU cache): every turn and question is
embedded once per run, before any store is built, so the recall latencies of
every variant exclude query embedding. Data is read from ``--data`` and never
copied into the repository.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import hashlib
import json
import re
import sys
import time
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from _common import DEFAULT_LOCOMO, machine, pct, print_table, write_json
from _metrics import (
    KS,
    VARIANTS,
    RankScores,
    deep_merge,
    metric_cols,
    metric_header,
    variant_overrides,
)
from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.embedding import Embedder, create_embedder
from chatmem.models import embedded_text
from chatmem.recall import Ranked, merge_windows, render

TOP_K = max(KS)
CATEGORIES = {1: "multi-hop", 2: "temporal", 3: "open-domain", 4: "single-hop",
              5: "adversarial"}
MACRO_CATS = (1, 2, 3, 4)
MINUTE_MS = 60_000
DAY_MS = 86_400_000
WINDOW = 2

# --------------------------------------------------------------------------- data


@dataclass(frozen=True)
class Turn:
    message_id: str
    dia_id: str
    session_id: str
    ts: int
    speaker_id: str
    speaker_name: str
    content: str

    def message(self) -> Message:
        return Message(session_id=self.session_id, content=self.content, role="user",
                       ts=self.ts, id=self.message_id, speaker_id=self.speaker_id,
                       speaker_name=self.speaker_name, metadata={"dia_id": self.dia_id})

    @property
    def text(self) -> str:
        """The text chatmem embeds for this turn (speaker prefix + content)."""
        return embedded_text(self.message())


@dataclass(frozen=True)
class Question:
    qid: str
    sample_id: str
    category: int
    question: str
    gold: tuple[str, ...]  # message ids


@dataclass
class Conversation:
    sample_id: str
    sessions: list[tuple[str, str]]  # (session id, date string)
    turns: list[Turn]
    questions: list[Question]
    now_ms: int


@dataclass
class EvidenceReport:
    """What normalising the evidence strings did, for the results file."""

    questions: int = 0
    evidence_strings: int = 0
    clean: int = 0
    split: int = 0  # one string holding several ids ("D8:6; D9:17", space separated)
    reformatted: int = 0  # "D:11:26" -> "D11:26", "D30:05" -> "D30:5"
    dropped_unparseable: int = 0  # "D"
    dropped_unknown: int = 0  # a well-formed id that names no turn
    duplicates: int = 0
    questions_without_gold: int = 0
    details: list[dict[str, Any]] = field(default_factory=list)


_DIA = re.compile(r"D:?(\d+):(\d+)")


def normalise_evidence(raw: Iterable[str], known: set[str], report: EvidenceReport,
                       where: str) -> list[str]:
    """Evidence strings → well-formed dia_ids that name a turn of this conversation.

    Splits strings that hold several ids (on ``;``, ``,`` or white space), reads
    ``D:11:26`` as ``D11:26`` and ``D30:05`` as ``D30:5``, drops what does not
    parse (``"D"``) or names no turn, and removes duplicates. Every string that is
    not already clean is listed in ``report.details`` with what became of it.
    """
    out: list[str] = []
    for s in raw:
        report.evidence_strings += 1
        parts = [p for p in re.split(r"[;,\s]+", str(s).strip()) if p]
        notes: list[str] = []
        if len(parts) != 1:
            report.split += len(parts) > 1
            notes.append(f"split into {parts}" if parts else "empty")
        for p in parts:
            m = _DIA.fullmatch(p)
            if m is None:
                report.dropped_unparseable += 1
                notes.append(f"{p!r}: unparseable, dropped")
                continue
            did = f"D{int(m[1])}:{int(m[2])}"
            if did != p:
                report.reformatted += 1
                notes.append(f"{p!r} read as {did!r}")
            if did not in known:
                report.dropped_unknown += 1
                notes.append(f"{did!r}: no such turn, dropped")
            elif did in out:
                report.duplicates += 1
            else:
                out.append(did)
        if notes:
            report.details.append({"question": where, "evidence": s, "notes": notes})
        elif len(parts) == 1 and parts[0] in known:
            report.clean += 1
    return out


def parse_date(text: str) -> int:
    """``"1:56 pm on 8 May, 2023"`` → epoch milliseconds, read as UTC."""
    when = dt.datetime.strptime(text.strip(), "%I:%M %p on %d %B, %Y")
    return int(when.replace(tzinfo=dt.timezone.utc).timestamp() * 1000)


def load_locomo(path: Path, limit: int | None = None
                ) -> tuple[list[Conversation], EvidenceReport]:
    data = json.loads(path.read_text(encoding="utf-8"))
    report = EvidenceReport()
    convs: list[Conversation] = []
    for item in data[:limit]:
        sid = item["sample_id"]
        c = item["conversation"]
        numbers = sorted(int(m[1]) for k in c if (m := re.fullmatch(r"session_(\d+)", k)))
        sessions: list[tuple[str, str]] = []
        turns: list[Turn] = []
        for n in numbers:
            date = c[f"session_{n}_date_time"]
            start = parse_date(date)
            session_id = f"{sid}-s{n}"
            sessions.append((session_id, date))
            for i, t in enumerate(c[f"session_{n}"]):
                text = t["text"]
                if t.get("blip_caption"):
                    text += f" [shares image: {t['blip_caption']}]"
                name = t["speaker"]
                turns.append(Turn(
                    message_id=f"{sid}:{t['dia_id']}", dia_id=t["dia_id"],
                    session_id=session_id, ts=start + i * MINUTE_MS,
                    speaker_id=f"{sid}:{name.lower()}", speaker_name=name, content=text,
                ))
        known = {t.dia_id for t in turns}
        questions: list[Question] = []
        for qi, qa in enumerate(item["qa"]):
            report.questions += 1
            qid = f"{sid}#q{qi}"
            gold = normalise_evidence(qa.get("evidence") or [], known, report, qid)
            if not gold:
                report.questions_without_gold += 1
                continue
            questions.append(Question(qid, sid, int(qa["category"]), str(qa["question"]),
                                      tuple(f"{sid}:{d}" for d in gold)))
        now = max(t.ts for t in turns) + DAY_MS
        convs.append(Conversation(sid, sessions, turns, questions, now))
    return convs, report


def data_facts(path: Path, convs: Sequence[Conversation]) -> dict[str, Any]:
    cats = Counter(q.category for c in convs for q in c.questions)
    return {
        "path": str(path),
        "sha256": hashlib.sha256(path.read_bytes()).hexdigest(),
        "conversations": [c.sample_id for c in convs],
        "sessions": sum(len(c.sessions) for c in convs),
        "turns": sum(len(c.turns) for c in convs),
        "turns_with_image": sum("[shares image:" in t.content for c in convs
                                for t in c.turns),
        "questions_scored": sum(cats.values()),
        "questions_scored_by_category": {str(k): cats[k] for k in sorted(cats)},
    }


# --------------------------------------------------------------------------- metric


class Scores(RankScores):
    """LoCoMo's scores: questions grouped by category, macro mean over categories 1–4."""

    def add_question(self, q: Question, found_at: Mapping[int, set[str]]) -> None:
        """``found_at[k]``: the message ids the top k made visible."""
        self.add(q.category, q.gold, found_at)

    def add_question_ranked(self, q: Question, ranked: Sequence[str]) -> None:
        self.add_ranked(q.category, q.gold, ranked)

    def category(self, cat: int) -> dict[str, float] | None:
        return self.group(cat)

    def macro(self, cats: Sequence[Any] | None = MACRO_CATS) -> dict[str, float]:
        return super().macro(cats)

    def summary(self) -> dict[str, Any]:
        return {"macro_1_4": self.macro(), "by_category": self.by_group()}


METRIC_HEADER = metric_header(KS)

# --------------------------------------------------------------------------- variants

@dataclass
class Variant:
    name: str
    mode: str  # dense | lexical | hybrid
    window: bool
    no_decay: bool
    config: Config
    note: str

    def describe(self) -> dict[str, Any]:
        dump = self.config.model_dump(mode="json")
        out = {"mode": self.mode, "window": WINDOW if self.window else 0,
               "time_weight": dump["search"]["time_weight"], "note": self.note}
        if "hybrid" in dump:
            out["hybrid"] = dump["hybrid"]
        return out


def resolve_variants(names: Sequence[str], explicit: Mapping[str, Mapping[str, Any]],
                     base: Mapping[str, Any]) -> tuple[list[Variant], list[str]]:
    """Variant names → configurations (``bench/_metrics.VARIANTS``, or an explicit
    ``--variant-config`` for a mode); the notes say where each came from."""
    variants: list[Variant] = []
    notes: list[str] = []
    for raw in names:
        name = "dense+no-decay" if raw == "no-decay" else raw
        mode, *mods = name.split("+")
        if mode not in VARIANTS or any(m not in ("window", "no-decay") for m in mods):
            raise SystemExit(f"unknown variant {raw!r}: use <{'|'.join(VARIANTS)}>"
                             "[+window][+no-decay] or no-decay")
        if mode in explicit:
            overrides, why = dict(explicit[mode]), f"--variant-config {mode}"
        else:
            overrides = variant_overrides(mode)
            why = f"overrides {overrides or '(defaults)'}"
        cfg_map = deep_merge(base, overrides)
        if "no-decay" in mods:
            cfg_map = deep_merge(cfg_map, {"search": {"time_weight": 0.0}})
        if "window" in mods:
            cfg_map = deep_merge(cfg_map, {"context_expand": {"window": WINDOW}})
        try:
            cfg = Config.load(cfg_map)
        except Exception as exc:  # ConfigError names the field
            notes.append(f"{raw}: skipped: {exc}")
            continue
        if any(v.name == raw for v in variants):
            continue
        variants.append(Variant(raw, mode, "window" in mods, "no-decay" in mods, cfg, why))
    return variants, notes


# --------------------------------------------------------------------------- running


def shared_embedder(threads: int) -> Embedder:
    """One Embedder for every store: its LRU cache holds every turn and question."""
    cfg = Config.load({"embedding": {"threads": threads, "cache": {"max_items": 1_000_000}}})
    return create_embedder(cfg.embedding)


async def warm(embedder: Embedder, conv: Conversation, queries: bool = True) -> float:
    """Embed the conversation's turns (and questions) once; returns seconds."""
    start = time.perf_counter()
    items: list[tuple[str, str]] = [(t.text, "document") for t in conv.turns]
    if queries:
        items += [(q.question, "query") for q in conv.questions]
    await embedder.embed_many(items)
    return time.perf_counter() - start


async def build_store(conv: Conversation, embedder: Embedder, config: Config) -> Memory:
    mem = await Memory.open("memory://", embedder=embedder, config=config)
    await mem.add([t.message() for t in conv.turns])
    await mem.flush()
    return mem


@dataclass
class VariantRun:
    variant: Variant
    scores: Scores = field(default_factory=Scores)
    latency_ms: list[float] = field(default_factory=list)
    #: window variants: rendered characters of the first k hits' snippets
    chars: dict[int, list[int]] = field(default_factory=lambda: {k: [] for k in KS})
    #: window variants, real recalls with top_k=k: the hits alone, the rendered snippets
    real_hits: Scores = field(default_factory=Scores)
    real_window: Scores = field(default_factory=Scores)
    real_chars: dict[int, list[int]] = field(default_factory=lambda: {k: [] for k in KS})
    #: questions whose re-rendered top 20 differs in length from recall's own text
    render_mismatch: int = 0
    build_s: float = 0.0
    recall_s: float = 0.0

    def result(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "config": self.variant.describe(), **self.scores.summary(),
            "recall_latency_ms": {"p50": pct(self.latency_ms, 50),
                                  "p95": pct(self.latency_ms, 95),
                                  "note": "top_k 20, query embedding cached (excluded)"},
            "build_seconds": self.build_s, "recall_seconds": self.recall_s,
        }
        if self.variant.window:
            out["rendered_chars_mean"] = {str(k): mean(v) for k, v in self.chars.items()}
            out["render_check_mismatches"] = self.render_mismatch
            out["real_top_k"] = {
                "note": "one recall per top_k=k: hits alone (window 0 equivalent) and "
                        "rendered snippets (window 2); the first pool is the configured "
                        "top_k's, so these should equal the first k of the top_k=20 recall",
                "hits": self.real_hits.summary(), "window": self.real_window.summary(),
                "rendered_chars_mean": {str(k): mean(v) for k, v in self.real_chars.items()},
            }
        return out


def mean(values: Sequence[float]) -> float:
    return sum(values) / len(values) if values else float("nan")


async def recall_ranked(mem: Memory, conv: Conversation, q: Question) -> tuple[list[str], float]:
    start = time.perf_counter()
    res = await mem.recall(q.question, scope="all", top_k=TOP_K, window=0, now=conv.now_ms)
    ms = (time.perf_counter() - start) * 1000
    return [h.message.id for h in res.hits if h.message.id is not None], ms


async def recall_windowed(mem: Memory, conv: Conversation, q: Question, run: VariantRun
                          ) -> float:
    """Window variants: what the model would see (gold counts when in a rendered snippet).

    Main figures: one recall with ``top_k=20`` and the configured window; for each
    k, the snippets chatmem builds from its first k hits (same ranking as the
    window-0 rows, so the difference is the window alone), rendered with chatmem's
    own ``merge_windows`` + ``render`` to count characters. Then one real recall
    per ``top_k=k`` (``run.real_*``): the first candidate pool is the *configured*
    top_k's whatever the request asks (``chatmem.recall.request.pool_tiers``), so the
    first k hits should not depend on top_k; a difference from the main figures
    shows that they do.
    """
    cfg = mem.config
    labels = getattr(getattr(mem, "platforms", None), "chat_type_labels", None)
    start = time.perf_counter()
    res = await mem.recall(q.question, scope="all", top_k=TOP_K, now=conv.now_ms)
    ms = (time.perf_counter() - start) * 1000
    sessions = await mem.store.get_sessions(sorted({s.session_id for s in res.snippets}))
    found: dict[int, set[str]] = {}
    for k in KS:
        hits = res.hits[:k]
        ranked = [Ranked(h.message, h.score, h.semantic, h.recency, h.boost) for h in hits]
        neighbours = {h.message.id: [*h.before, *h.after] for h in hits
                      if h.message.id is not None}
        snippets = merge_windows(ranked, neighbours)
        found[k] = {m.id for s in snippets for m in s.messages if m.id is not None}
        text = render(snippets, sessions, locale=cfg.locale, timezone=cfg.timezone,
                      per_item_max_chars=cfg.search.per_item_max_chars,
                      chat_type_labels=labels)
        run.chars[k].append(len(text))
    # check: the re-rendered top 20 is exactly what recall rendered
    run.render_mismatch += len(res.hits) == TOP_K and run.chars[TOP_K][-1] != len(res.text)
    run.scores.add_question(q, found)
    real_hits: dict[int, set[str]] = {}
    real_seen: dict[int, set[str]] = {}
    for k in KS:
        r = res if k == TOP_K else await mem.recall(q.question, scope="all", top_k=k,
                                                    now=conv.now_ms)
        real_hits[k] = {h.message.id for h in r.hits if h.message.id is not None}
        real_seen[k] = {m.id for s in r.snippets for m in s.messages if m.id is not None}
        run.real_chars[k].append(len(r.text))
    run.real_hits.add_question(q, real_hits)
    run.real_window.add_question(q, real_seen)
    return ms


async def run_conversation(conv: Conversation, runs: Sequence[VariantRun],
                           embedder: Embedder) -> None:
    for run in runs:
        t0 = time.perf_counter()
        mem = await build_store(conv, embedder, run.variant.config)
        t1 = time.perf_counter()
        try:
            for q in conv.questions:
                if run.variant.window:
                    ms = await recall_windowed(mem, conv, q, run)
                else:
                    ranked, ms = await recall_ranked(mem, conv, q)
                    run.scores.add_question_ranked(q, ranked)
                run.latency_ms.append(ms)
        finally:
            await mem.close()
        run.build_s += t1 - t0
        run.recall_s += time.perf_counter() - t1


def print_results(runs: Sequence[VariantRun], title: str) -> None:
    rows = []
    for r in runs:
        m = r.scores.macro()
        chars = f"{mean(r.chars[10]):.0f}" if r.variant.window else "-"
        rows.append([r.variant.name, *metric_cols(m), chars, pct(r.latency_ms, 50)])
    print_table(f"{title}: macro over categories 1–4",
                ["variant", *METRIC_HEADER, "chars@10", "p50 ms"], rows)
    rows = []
    for c in (*MACRO_CATS, 5):
        for r in runs:
            d = r.scores.category(c)
            if d is not None:
                rows.append([f"{c} {CATEGORIES[c]}", r.variant.name, int(d["n"]),
                             *metric_cols(d)])
    print_table(f"{title}: per category (5 = adversarial, not in the macro)",
                ["category", "variant", "n", *METRIC_HEADER], rows)
    windowed = [r for r in runs if r.variant.window and r.chars[KS[0]]]
    if not windowed:
        return
    for r in windowed:
        if r.render_mismatch:
            print(f"warning: {r.variant.name}: {r.render_mismatch} questions re-rendered to a "
                  "length other than recall's own text; the chars figures are approximate")
    rows = [[r.variant.name, *(mean(r.chars[k]) for k in KS)] for r in windowed]
    rows += [[f"{r.variant.name} (real top_k)", *(mean(r.real_chars[k]) for k in KS)]
             for r in windowed]
    print_table("Rendered characters per question (window 2; first k hits of a top_k=20 "
                "recall, and real recalls with top_k=k)",
                ["variant", *(f"k={k}" for k in KS)], rows)
    rows = []
    for r in windowed:
        rows.append([f"{r.variant.name}: hits only", *metric_cols(r.real_hits.macro())])
        rows.append([f"{r.variant.name}: rendered", *metric_cols(r.real_window.macro())])
    print_table("Real recalls with top_k=k (the first pool is the configured top_k's: "
                "should equal the first k of top_k=20): macro 1–4",
                ["variant", *METRIC_HEADER], rows)


def evidence_summary(rep: EvidenceReport) -> dict[str, Any]:
    return {k: v for k, v in rep.__dict__.items()}


def print_evidence(rep: EvidenceReport) -> None:
    print(f"evidence: {rep.evidence_strings} strings in {rep.questions} questions; "
          f"{rep.split} split, {rep.reformatted} ids reformatted, "
          f"{rep.dropped_unparseable} unparseable dropped, {rep.dropped_unknown} unknown ids "
          f"dropped, {rep.duplicates} duplicates; {rep.questions_without_gold} questions "
          "without gold (not scored)")
    for d in rep.details:
        print(f"  {d['question']}: {d['evidence']!r}: {'; '.join(d['notes'])}")


def parse_variant_configs(items: Sequence[str]) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for item in items:
        mode, sep, text = item.partition("=")
        if not sep or mode not in VARIANTS:
            raise SystemExit(f"--variant-config {item!r}: expected MODE=JSON with MODE one "
                             f"of {', '.join(VARIANTS)}")
        try:
            value = json.loads(text)
        except json.JSONDecodeError as exc:
            raise SystemExit(f"--variant-config {mode}: bad JSON: {exc}") from None
        if not isinstance(value, dict):
            raise SystemExit(f"--variant-config {mode}: expected a JSON object")
        out[mode] = value
    return out


async def amain(args: argparse.Namespace) -> None:
    convs, rep = load_locomo(args.data, args.conversations)
    print_evidence(rep)
    names = [n.strip() for n in args.variants.split(",") if n.strip()]
    variants, notes = resolve_variants(names, parse_variant_configs(args.variant_config), {})
    for n in notes:
        print(f"note: {n}")
    if not variants:
        sys.exit("no variant to run")
    for v in variants:
        print(f"variant {v.name}: {json.dumps(v.describe(), ensure_ascii=False)}")
    embedder = shared_embedder(args.threads)
    runs = [VariantRun(v) for v in variants]
    started = time.perf_counter()
    embed_s = 0.0
    for conv in convs:
        t0 = time.perf_counter()
        embed_s += await warm(embedder, conv)
        await run_conversation(conv, runs, embedder)
        print(f"{conv.sample_id}: {len(conv.turns)} turns, {len(conv.questions)} questions, "
              f"{time.perf_counter() - t0:.1f}s", file=sys.stderr, flush=True)
    total_s = time.perf_counter() - started
    facts = data_facts(args.data, convs)
    title = (f"LoCoMo retrieval, {len(convs)} conversations, {facts['turns']} turns, "
             f"{facts['questions_scored']} questions, {embedder.model_id} int8, "
             f"{machine()['cores']} cores")
    print_results(runs, title)
    st = embedder.status
    print(f"\nembedding: {st.provider_texts} texts embedded once ({embed_s:.1f}s), "
          f"cache hits {st.cache.hits if st.cache else 0}; total {total_s:.1f}s")
    write_json(args.out, {
        "machine": machine(), "model": embedder.model_id, "data": facts,
        "setup": {"top_k": TOP_K, "ks": list(KS), "scope": "all", "window": 0,
                  "now": "last turn + 1 day", "turn_spacing_ms": MINUTE_MS,
                  "store": "memory:// per conversation", "threads": args.threads,
                  },
        "evidence": evidence_summary(rep), "notes": notes,
        "variants": {r.variant.name: r.result() for r in runs},
        "timing": {"embed_seconds": embed_s, "total_seconds": total_s,
                   "embedded_texts": st.provider_texts},
    })


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--data", type=Path, default=DEFAULT_LOCOMO)
    ap.add_argument("--conversations", type=int, default=None,
                    help="only the first N conversations (default: all)")
    ap.add_argument("--variants", default="dense,lexical,hybrid,hybrid+window,no-decay,"
                    "lexical+no-decay,hybrid+no-decay")
    ap.add_argument("--variant-config", action="append", default=[], metavar="MODE=JSON",
                    help="configuration deep-merged into a mode (dense/lexical/hybrid)")
    ap.add_argument("--threads", type=int, default=2, help="ONNX Runtime threads")
    ap.add_argument("--out", default="bench/results/locomo.json")
    args = ap.parse_args()
    if not args.data.is_file():
        sys.exit(f"LoCoMo data not found at {args.data}; pass --data PATH")
    asyncio.run(amain(args))


if __name__ == "__main__":
    main()
