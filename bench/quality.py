"""Recall quality on every set, dev and validation side by side (issue 12's protocol).

    python bench/quality.py [--models auto[,all-MiniLM-L6-v2,multilingual-e5-small]]
                            [--variants default,dense,lexical] [--skip-locomo]
                            [--locomo PATH] [--threads 2] [--out bench/results/quality.json]
                            [--variant NAME=JSON ...] [--baseline bench/results/quality.json]
                            [--sets zh_chat,companion_en,...]

Sets: ``bench/data/zh_chat.json``, ``companion_en.json``, ``companion_zh.json``,
``group_en.json``, ``group_zh.json``, ``long_en.json``, ``long_zh.json`` (one format,
``bench/data/README.md`` § Format),
each split by conversation into ``dev`` and ``validation`` by
``bench/data/splits.json``; LoCoMo
(``../shared/data/locomo/locomo10.json``) is validation only. Choose methods and
parameters on ``dev``; ``validation`` is only ever reported.

Models: ``auto`` (the default of ``embedding.model``) chooses per store
(:mod:`chatmem.embedding.auto`: multilingual-e5-small for a largely-CJK store where it
loads, all-MiniLM-L6-v2 otherwise; ``Memory.open`` gives each store its own view of
the shared embedder); a named model is used for every store.

Setup, as a user calls the public API:

* each conversation is its own ``Memory.open("memory://", config=...)`` store,
  filled with ``add`` and indexed with ``flush`` (``bench/zh_chat.py``'s loader and
  store builder; LoCoMo through ``bench/locomo.py``'s);
* every question is one ``recall(question, top_k=5, scope="all", window=0,
  now=<last message of the conversation + 1 day>)``; Hit@5 = a gold message among
  the five hits;
* what the model sees: ``ctx@2000`` = a gold message's rendered line (label and body,
  as :func:`chatmem.recall.render.render` writes it) lies wholly within the first
  2,000 characters of the recall message ``context(question, session=<the question's
  session>, now=<the same now>)`` injects, with the configured (default) window and
  ``top_k``; ``chars`` = the mean length of that message (0 when nothing is recalled);
* LoCoMo: ``bench/locomo.py``'s code path (``top_k=20``, its own ``now``), macro
  Recall@10 over categories 1–4;
* knowledge updates (questions with ``stale`` ids): one more recall with
  ``top_k=20``; the question counts when a gold message ranks above every stale
  one (a gold found and a stale one not found counts; no gold found does not).

How far a figure can be trusted, printed beside it:

* each Hit@5 carries a 95 % interval from resampling whole conversations
  (``bench/_metrics.cluster_interval``): questions of one conversation succeed and
  fail together, and a split holds only a few conversations;
* a second table pairs every variant with the default on the same questions:
  questions it found that the default missed (``+``), questions it lost (``−``), and
  the exact two-sided sign test of that split (``p``), per set and pooled over the
  sets. ``--baseline`` pairs each variant with the same variant of a stored run
  (its ``missed`` lists), which is how a code change is judged on dev: a change that
  finds 4 and loses 2 is noise (p 0.69), one that finds 13 and loses none is not.

``--now-days`` moves that ``now`` (default: 1 day after the last message); a user
who calls ``recall`` without ``now`` on a history that ended long ago is years past it.

``--no-timestamps`` adds each conversation in one call with no message's ``ts``, so the
store times them as they arrive, and recalls at the wall clock: a history imported
without times (the order of the messages is then all that tells a newer statement).

``--haystack`` puts every conversation of a split into one store (other people's chats
as distractors, a history 3–6 times longer than one conversation) and asks the same
questions there, with ``now`` measured from the pooled store's last message.

Variants (the same stores; only the configuration changes; time decay as configured
by default everywhere): ``default`` (marked ``*``), ``dense`` (``hybrid.enabled:
false``), ``lexical`` (``hybrid.mode: lexical``); ``--variant NAME=JSON`` adds one
(e.g. ``budget2000='{"context_expand": {"max_chars": 2000}}'``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

from _common import DEFAULT_LOCOMO, machine, print_table, write_json
from _metrics import cluster_interval, deep_merge, sign_test, variant_overrides
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.embedding.auto import AUTO
from chatmem.memory import Memory
from chatmem.recall.render import LABELS, body_of, label_of
from zh_chat import DAY_MS, Conversation, build, load, try_embedder

DATA = Path(__file__).resolve().parent / "data"
SETS = ("zh_chat", "companion_en", "companion_zh", "group_en", "group_zh", "long_en",
        "long_zh")
SPLITS = ("dev", "validation")
TOP_K = 5
UPDATE_TOP_K = 20
#: What the model sees: the first this many characters of the injected recall message.
CTX_CHARS = 2000
VARIANTS = ("default", "dense", "lexical")
#: ``--variant NAME=JSON``: extra variants (configuration overrides), for dev experiments.
EXTRA: dict[str, dict[str, Any]] = {}


def variant_config(name: str) -> Config:
    if name in EXTRA:
        return Config.load(EXTRA[name])
    if name == "default":
        return Config()
    return Config.load(deep_merge({}, variant_overrides(name)))


def read_splits(path: Path) -> dict[str, dict[str, list[str]]]:
    splits: dict[str, dict[str, list[str]]] = json.loads(path.read_text(encoding="utf-8"))
    return splits


@dataclass
class Cell:
    """Hit@5 and the knowledge-update order of one set × split × variant, per question."""

    hits: list[float] = field(default_factory=list)
    #: the id and the conversation of each question, parallel to ``hits``
    ids: list[str] = field(default_factory=list)
    convs: list[str] = field(default_factory=list)
    newer_first: list[float] = field(default_factory=list)
    #: the ids of the update questions, parallel to ``newer_first``
    update_ids: list[str] = field(default_factory=list)
    #: a gold line within the first CTX_CHARS characters of context()'s recall message
    ctx: list[float] = field(default_factory=list)
    #: the length of that message
    chars: list[float] = field(default_factory=list)

    def missed(self) -> list[str]:
        return [q for q, hit in zip(self.ids, self.hits, strict=True) if not hit]

    def result(self) -> dict[str, Any]:
        interval = cluster_interval(self.hits, self.convs)
        return {"questions": len(self.hits), "hit@5": mean(self.hits),
                "hit@5_ci95": None if interval is None else [round(x, 4) for x in interval],
                "updates": len(self.newer_first), "newer_above_stale": mean(self.newer_first),
                f"ctx@{CTX_CHARS}": mean(self.ctx), "mean_chars": mean(self.chars),
                "asked": list(self.ids), "missed": self.missed(),
                "updates_missed": [q for q, ok in zip(self.update_ids, self.newer_first,
                                                      strict=True) if not ok]}


def paired(questions: list[str], base_missed: set[str], missed: set[str]) -> dict[str, Any]:
    """Questions found and lost against a baseline run on the same questions, with the
    exact sign test of that split (``bench/_metrics.sign_test``)."""
    found = sum(q in base_missed and q not in missed for q in questions)
    lost = sum(q in missed and q not in base_missed for q in questions)
    return {"found": found, "lost": lost, "p": round(sign_test(found, lost), 4)}


def fmt_paired(d: dict[str, Any]) -> str:
    return f"+{d['found']} −{d['lost']} (p {d['p']:.2f})"


def mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


async def gold_lines(mem: Memory, gold: tuple[str, ...]) -> list[str]:
    """Each gold message's line as the recall message renders it (label and body)."""
    cfg = mem.config
    msgs = await mem.store.get(list(gold))
    sessions = await mem.store.get_sessions(sorted({m.session_id for m in msgs.values()}))
    labels = LABELS.get(cfg.locale, LABELS["en"])
    tz = ZoneInfo(cfg.timezone)
    out = []
    for m in msgs.values():
        label = label_of(m, sessions.get(m.session_id), labels, tz,
                         mem.platforms.chat_type_labels)
        out.append(f"{label} {body_of(m, labels, cfg.search.per_item_max_chars)}")
    return out


async def injected(mem: Memory, question: str, session: str, now: int | None) -> str:
    """The recall message ``context()`` puts before the conversation ('' when none)."""
    turn = await mem.turn_context(question, session=session, now=now)
    text = turn.recall.text
    assert not text or turn.messages[0] == {"role": "system", "content": text}
    return text


def newer_above_stale(ranked: list[str], gold: tuple[str, ...], stale: tuple[str, ...]) -> float:
    pos = {mid: i for i, mid in enumerate(ranked)}
    best_gold = min((pos[g] for g in gold if g in pos), default=None)
    if best_gold is None:
        return 0.0
    return float(all(pos.get(s, len(ranked)) > best_gold for s in stale))


def haystack(convs: list[Conversation], split_of: dict[str, str]
             ) -> tuple[list[Conversation], dict[str, str]]:
    """Every conversation of a split in one store (``--haystack``): a history several
    times longer, where each question's conversation sits among other people's chats.

    The sets' conversations are 60–110 messages each, far shorter than the histories
    of a companion used daily for weeks; this asks whether the ranking holds when the
    store is 3–6 times larger (ids are unique across a set's conversations, so nothing
    is renamed). One ``now`` for the pooled store: measured from its last message."""
    pooled = []
    for sp in SPLITS:
        part = [c for c in convs if split_of[c.id] == sp]
        if part:
            pooled.append(Conversation(
                f"{sp}-haystack", [s for c in part for s in c.sessions],
                [m for c in part for m in c.messages], [q for c in part for q in c.questions]))
    return pooled, {c.id: c.id.removesuffix("-haystack") for c in pooled}


async def run_set(embedder: Embedder, convs: list[Conversation], split_of: dict[str, str],
                  variants: list[str], now_after_ms: int = DAY_MS, timestamps: bool = True
                  ) -> dict[tuple[str, str], Cell]:
    cells = {(sp, v): Cell() for sp in SPLITS for v in variants}
    configs = {v: variant_config(v) for v in variants}
    for conv in convs:
        split = split_of[conv.id]
        await embedder.embed_many([(q.text, "query") for q in conv.questions])
        mem = await build(conv, embedder, timestamps=timestamps)
        try:
            # without timestamps the store timed the messages as they came: now is now
            now = conv.last_ts + now_after_ms if timestamps else None
            for v in variants:
                mem.config = configs[v]
                cell = cells[(split, v)]
                for q in conv.questions:
                    res = await mem.recall(q.text, top_k=TOP_K, scope="all", window=0, now=now)
                    ids = {h.message.id for h in res.hits}
                    cell.hits.append(float(bool(ids & set(q.gold))))
                    cell.ids.append(q.id)
                    cell.convs.append(q.conversation)
                    text = await injected(mem, q.text, q.session, now)
                    head = text[:CTX_CHARS]
                    cell.ctx.append(float(any(line in head
                                              for line in await gold_lines(mem, q.gold))))
                    cell.chars.append(float(len(text)))
                    if q.stale:
                        res = await mem.recall(q.text, top_k=UPDATE_TOP_K, scope="all",
                                               window=0, now=now)
                        cell.newer_first.append(newer_above_stale(
                            [h.message.id or "" for h in res.hits], q.gold, q.stale))
                        cell.update_ids.append(q.id)
        finally:
            await mem.close()
    return cells


async def run_locomo(embedder: Embedder, path: Path, variants: list[str]) -> dict[str, Any]:
    import locomo

    convs, _ = locomo.load_locomo(path)
    scores = {v: locomo.Scores() for v in variants}
    configs = {v: variant_config(v) for v in variants}
    for conv in convs:
        await locomo.warm(embedder, conv)
        mem = await locomo.build_store(conv, embedder, Config())
        try:
            for v in variants:
                mem.config = configs[v]
                for q in conv.questions:
                    ranked, _ = await locomo.recall_ranked(mem, conv, q)
                    scores[v].add_question_ranked(q, ranked)
        finally:
            await mem.close()
        print(f"  locomo {conv.sample_id}: {len(conv.turns)} turns", file=sys.stderr, flush=True)
    return {"turns": sum(len(c.turns) for c in convs),
            "questions": sum(len(c.questions) for c in convs),
            "variants": {v: {"macro_recall@10": s.macro()["recall@10"], **s.summary()}
                         for v, s in scores.items()}}


def fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:.3f}"


def fmt_ci(cell: Cell) -> str:
    """Hit@5 with its 95 % interval over conversations (:func:`cluster_interval`)."""
    interval = cluster_interval(cell.hits, cell.convs)
    if interval is None:
        return "-"
    return f"{fmt(mean(cell.hits))} ({interval[0]:.2f}–{interval[1]:.2f})"


def baseline_missed(baseline: dict[str, Any] | None, model: str, name: str, variant: str,
                    split: str, asked: list[str]) -> tuple[set[str], set[str]] | None:
    """The questions a stored run (``--baseline``) asked and missed in one cell, when it
    has that cell: only the questions both runs asked are paired (a set that grew since
    must not count its new questions as found or lost). A stored run that does not list
    what it asked pairs only when it asked as many questions as this one."""
    if baseline is None:
        return None
    try:
        cell = baseline["results"][model]["sets"][name]["variants"][variant][split]
    except KeyError:
        return None
    missed = cell.get("missed")
    if missed is None:
        return None
    if "asked" in cell:
        return set(cell["asked"]), set(missed)
    if cell.get("questions") != len(asked):
        return None
    return set(asked), set(missed)


def fmt_chars(x: float | None) -> str:
    return "-" if x is None else f"{x:.0f}"


async def amain(args: argparse.Namespace) -> None:
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    variants += [v for v in EXTRA if v not in variants]  # --variant runs what it defines
    for v in variants:
        if v not in VARIANTS and v not in EXTRA:
            sys.exit(f"unknown variant {v!r}: use {', '.join(VARIANTS)} or --variant")
    splits = read_splits(args.splits)
    sets: dict[str, tuple[list[Conversation], dict[str, str]]] = {}
    names = [n.strip() for n in args.sets.split(",") if n.strip()]
    for name in names:
        if name not in SETS:
            sys.exit(f"unknown set {name!r}: use {', '.join(SETS)}")
    for name in names:
        convs = load(DATA / f"{name}.json")
        split_of = {cid: sp for sp in SPLITS for cid in splits[name][sp]}
        missing = sorted({c.id for c in convs} - set(split_of))
        if missing:
            sys.exit(f"{name}: conversations in no split: {missing}")
        sets[name] = (convs, split_of)
    models = [m.strip() for m in args.models.split(",") if m.strip()]
    baseline = json.loads(args.baseline.read_text(encoding="utf-8")) if args.baseline else None
    results: dict[str, Any] = {}
    rows: list[list[Any]] = []
    pair_rows: list[list[Any]] = []
    pooled_pairs: dict[tuple[str, str, str, str], dict[str, int]] = {}
    now_after_ms = round(args.now_days * DAY_MS)
    now_said = ("the wall clock; messages added without timestamps" if args.no_timestamps
                else f"last message of the store + {args.now_days:g} day(s)")  # title, JSON
    for model in models:
        embedder, why = await try_embedder(model, args.threads)
        if embedder is None:
            print(f"skip {model}: {why}", file=sys.stderr)
            results[model] = {"skipped": why}
            continue
        t0 = time.perf_counter()
        per_set: dict[str, Any] = {}
        for name, (convs, split_of) in sets.items():
            cells = await run_set(embedder, *(haystack(convs, split_of) if args.haystack
                                              else (convs, split_of)), variants,
                                  now_after_ms=now_after_ms,
                                  timestamps=not args.no_timestamps)
            print(f"  {model} {name}: {time.perf_counter() - t0:.0f}s", file=sys.stderr,
                  flush=True)
            per_set[name] = {
                "store": {sp: {"conversations": sum(split_of[c.id] == sp for c in convs),
                               "messages": sum(len(c.messages) for c in convs
                                               if split_of[c.id] == sp)} for sp in SPLITS},
                "variants": {v: {sp: cells[(sp, v)].result() for sp in SPLITS}
                             for v in variants}}
            for v in variants:
                d, val = (cells[(sp, v)] for sp in SPLITS)
                rows.append([model, name, v + (" *" if v == "default" else ""),
                             fmt_ci(d), fmt_ci(val),
                             fmt(mean(d.newer_first)), fmt(mean(val.newer_first)),
                             fmt(mean(d.ctx)), fmt(mean(val.ctx)),
                             fmt_chars(mean(d.chars)), fmt_chars(mean(val.chars))])
            for sp in SPLITS:
                for v in variants:
                    cell = cells[(sp, v)]
                    against: list[tuple[str, set[str], set[str]]] = []
                    if v != "default" and "default" in variants:
                        against.append(("default", set(cell.ids),
                                        set(cells[(sp, "default")].missed())))
                    stored = baseline_missed(baseline, model, name, v, sp, cell.ids)
                    if stored is not None:
                        against.append((f"{v} in {args.baseline}", *stored))
                    elif baseline is not None:
                        print(f"  {name} {sp} {v}: not paired with {args.baseline} (it "
                              "asked other questions or lacks the cell)", file=sys.stderr)
                    for base_name, base_asked, base_missed in against:
                        both = [q for q in cell.ids if q in base_asked]
                        pair = paired(both, base_missed, set(cell.missed()))
                        per_set[name]["variants"][v][sp].setdefault(
                            "paired", {})[base_name] = pair
                        pooled = pooled_pairs.setdefault((model, sp, v, base_name),
                                                         {"found": 0, "lost": 0})
                        pooled["found"] += pair["found"]
                        pooled["lost"] += pair["lost"]
                        pair_rows.append([model, name, sp, v, base_name, fmt_paired(pair)])
        if not args.skip_locomo:
            lo = await run_locomo(embedder, args.locomo, variants)
            per_set["locomo"] = lo
            for v in variants:
                rows.append([model, "locomo (R@10 macro)", v + (" *" if v == "default" else ""),
                             "-", fmt(lo["variants"][v]["macro_recall@10"]), "-", "-",
                             "-", "-", "-", "-"])
        results[model] = {"model_id": embedder.model_id, "seconds": time.perf_counter() - t0,
                          "sets": per_set}
    title = (f"recall quality: Hit@5 (recall top_k {TOP_K}, scope all, window 0, now = "
             f"{now_said}); upd = newer fact above the stale one (top_k {UPDATE_TOP_K}); "
             f"ctx@{CTX_CHARS} = a gold line within the first {CTX_CHARS} characters of "
             f"context()'s recall message (configured window), chars = its mean length; "
             f"* = default; {machine()['cores']} cores"
             + ("; --haystack: one store per set and split" if args.haystack else ""))
    print_table(title, ["model", "set", "variant", "dev", "validation", "upd dev",
                        "upd validation", f"ctx@{CTX_CHARS} dev",
                        f"ctx@{CTX_CHARS} validation", "chars dev", "chars validation"],
                rows)
    pooled_rows = [{"model": m, "split": sp, "variant": v, "against": b, **counts,
                    "p": round(sign_test(counts["found"], counts["lost"]), 4)}
                   for (m, sp, v, b), counts in pooled_pairs.items()]
    for row in pooled_rows:
        pair_rows.append([row["model"], "all sets", row["split"], row["variant"],
                          row["against"], fmt_paired(row)])
    if pair_rows:
        print_table("paired: questions found (+) and lost (−) against a baseline on the "
                    "same questions; p = exact two-sided sign test", [
                        "model", "set", "split", "variant", "against", "found / lost"],
                    pair_rows)
    write_json(args.out, {
        "machine": machine(), "models": models,
        "setup": {"top_k": TOP_K, "update_top_k": UPDATE_TOP_K, "scope": "all", "window": 0,
                  "now": now_said,
                  "haystack": args.haystack, "timestamps": not args.no_timestamps,
                  "context": {"call": "context(question, session=<its session>, now=<now>)",
                              "first_chars": CTX_CHARS},
                  "store": "memory:// per set and split (--haystack)" if args.haystack
                  else "memory:// per conversation", "threads": args.threads,
                  "splits": str(args.splits), "locomo": None if args.skip_locomo
                  else str(args.locomo),
                  "variants": {v: variant_config(v).model_dump(mode="json")["hybrid"]
                               | {"time_weight": variant_config(v).search.time_weight,
                                  "window": variant_config(v).recall_window.model_dump(),
                                  "max_chars": variant_config(v).context_expand.max_chars}
                               for v in variants}},
        "results": results,
        "paired_all_sets": pooled_rows,
    })


def non_negative_days(text: str) -> float:
    """``--now-days``: a finite number of days, 0 or more."""
    try:
        days = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of days") from None
    if not 0 <= days < 100_000:  # also refuses nan and inf
        raise argparse.ArgumentTypeError(f"{text!r}: give a number of days from 0 to 99999")
    return days


def main() -> None:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    ap.add_argument("--models", default=AUTO,
                    help="comma-separated local models (default: auto, the default of "
                         "embedding.model, which picks a model per store; e.g. "
                         "all-MiniLM-L6-v2,multilingual-e5-small)")
    ap.add_argument("--variants", default=",".join(VARIANTS),
                    help=f"comma-separated built-in variants (default: {','.join(VARIANTS)})")
    ap.add_argument("--variant", action="append", default=[], metavar="NAME=JSON",
                    help="an extra variant: a name and its configuration overrides "
                         "(choose on dev; validation is only reported)")
    ap.add_argument("--splits", type=Path, default=DATA / "splits.json", metavar="JSON",
                    help="the file that puts each conversation in dev or validation "
                         "(default: bench/data/splits.json); both splits always run")
    ap.add_argument("--sets", default=",".join(SETS),
                    help="comma-separated sets of bench/data to run (default: all)")
    ap.add_argument("--skip-locomo", action="store_true", help="leave LoCoMo out (slow)")
    ap.add_argument("--locomo", type=Path, default=DEFAULT_LOCOMO, metavar="FILE",
                    help=f"LoCoMo's JSON (validation only; default: {DEFAULT_LOCOMO})")
    ap.add_argument("--haystack", action="store_true",
                    help="one store per set and split holding all its conversations (a "
                         "longer history, other people's chats as distractors)")
    ap.add_argument("--baseline", type=Path, default=None, metavar="JSON",
                    help="a stored run (e.g. bench/results/quality.json): each variant's "
                         "questions found and lost against the same variant there")
    ap.add_argument("--now-days", type=non_negative_days, default=1.0, metavar="DAYS",
                    help="recall with now = the store's last message + DAYS (default 1; "
                         "a user calling recall without now on an old history is years "
                         "past it: e.g. 1095)")
    ap.add_argument("--no-timestamps", action="store_true",
                    help="add each conversation in one call without its messages' ts, "
                         "so the store times them as they arrive, and recall at the wall "
                         "clock (a history imported without times)")
    ap.add_argument("--threads", type=int, default=2,
                    help="embedding threads (default: 2, the cores of the machines measured)")
    ap.add_argument("--out", default=str(DATA.parent / "results" / "quality.json"),
                    help="where the JSON goes (default: bench/results/quality.json)")
    args = ap.parse_args()
    if args.no_timestamps and (args.now_days != 1.0 or not args.skip_locomo):
        ap.error("--no-timestamps: give --skip-locomo and no --now-days (without "
                 "timestamps now is the wall clock, and LoCoMo keeps its session dates)")
    for spec in args.variant:
        name, _, raw = spec.partition("=")
        EXTRA[name] = json.loads(raw)
    if not args.skip_locomo and not args.locomo.is_file():
        sys.exit(f"LoCoMo not found: {args.locomo} (use --skip-locomo)")
    asyncio.run(amain(args))


if __name__ == "__main__":
    main()
