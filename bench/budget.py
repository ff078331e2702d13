"""The character budget of the rendered memory (``context_expand.max_chars``) over many
hits and over a wide window, as it is and as it was before, in one process.

    python bench/budget.py [--sizes 100,300,1000] [--repeat 5] [--out bench/results/budget.json]

``chatmem.recall.budget.fit`` is a pure function (no store, no model): it is given N
hits of one line each, window 0, and a budget one character below their text (the
worst case: every prefix but the last fits), then one best hit with N neighbours on
each side and a budget that holds about half of them. Before, every prefix of the
ranking was rendered until one did not fit, and then the hit with one neighbour fewer
at a time (:func:`every_prefix_fit`, kept here as the reference, and the oracle of
``tests/test_budget_prefixes.py``); now each prefix's length is counted as the hits
are merged and the neighbours kept are found by halving. The two answers are checked
equal; median ms of CPU of ``--repeat`` runs, alternating (``_common.alternating_ms``).
"""

from __future__ import annotations

import argparse
from collections.abc import Collection, Mapping, Sequence
from functools import partial
from typing import Any

from _common import alternating_ms, machine, print_table, write_json
from chatmem.models import Message, Session
from chatmem.recall import budget
from chatmem.recall.budget import fit, nearest_first
from chatmem.recall.expand import Snippet, merge_windows
from chatmem.recall.rank import Ranked
from chatmem.recall.render import LABELS, body_of, render

T0 = 1_760_000_000_000


def every_prefix_fit(ranked: Sequence[Ranked], neighbours: Mapping[str, Sequence[Message]],
                  exclude_ids: Collection[str], sessions: Mapping[str, Session], *,
                  max_chars: int, per_item_max_chars: int = 0
                  ) -> tuple[list[Snippet], str]:
    """The budget as it was before: every prefix rendered, one neighbour fewer at a
    time (the oracle the counted version must match exactly)."""
    def draw(hits: Sequence[Ranked], around: Mapping[str, Sequence[Message]],
             per_item: int = per_item_max_chars) -> tuple[list[Snippet], str]:
        snippets = merge_windows(hits, around, exclude_ids)
        return snippets, render(snippets, sessions, per_item_max_chars=per_item)

    snippets, text = draw(ranked, neighbours)
    if len(text) <= max_chars:
        return snippets, text
    best = None
    for n in range(1, len(ranked)):
        candidate = draw(ranked[:n], neighbours)
        if len(candidate[1]) > max_chars:
            break
        best = candidate
    if best is not None:
        return best
    hit = ranked[0]
    assert hit.message.id is not None
    window = nearest_first(hit.message, neighbours.get(hit.message.id, ()))
    while window:
        window.pop()
        candidate = draw(ranked[:1], {hit.message.id: window})
        if len(candidate[1]) <= max_chars:
            return candidate
    labels = LABELS["en"]
    shown = len(body_of(hit.message, labels, 0))
    if per_item_max_chars > 0:
        shown = min(shown, per_item_max_chars)
    return budget._truncated(hit, shown, max_chars, draw, labels.truncated)


def _line(n: int) -> list[Message]:
    return [Message(id=f"m{i}", session_id="s", ts=T0 + i * 60_000, role="user",
                    content=f"message number {i} about the trip") for i in range(n)]


def _ranked(messages: Sequence[Message]) -> list[Ranked]:
    return [Ranked(message=m, score=1 - i / 10_000, semantic=0.5, recency=1.0, boost=1.0)
            for i, m in enumerate(messages)]


def cases(size: int) -> list[tuple[str, list[Ranked], dict[str, list[Message]], int]]:
    sessions = {"s": Session(id="s")}
    hits = _ranked(_line(size))
    alone: dict[str, list[Message]] = {r.message.id or "": [] for r in hits}
    full = len(render(merge_windows(hits, alone, ()), sessions))
    line = _line(2 * size + 1)
    best = _ranked([line[size]])
    around = {line[size].id or "": line[:size] + line[size + 1:]}
    wide = len(render(merge_windows(best, around, ()), sessions))
    return [(f"{size} hits, window 0, budget 1 below", hits, alone, full - 1),
            (f"1 hit, {size} neighbours a side, budget half", best, around, wide // 2)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", default="100,300,1000")
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default="bench/results/budget.json")
    args = ap.parse_args()
    sessions = {"s": Session(id="s")}
    rows: list[dict[str, Any]] = []
    for size in (int(s) for s in args.sizes.split(",")):
        for name, ranked, neighbours, max_chars in cases(size):
            args_of = (ranked, neighbours, (), sessions)
            was, is_ = alternating_ms(partial(every_prefix_fit, *args_of, max_chars=max_chars),
                                      partial(fit, *args_of, max_chars=max_chars), args.repeat)
            rows.append({"case": name, "max_chars": max_chars,
                         "kept_chars": len(fit(*args_of, max_chars=max_chars)[1]),
                         "before_ms": round(was, 1), "now_ms": round(is_, 1),
                         "ratio": round(is_ / was, 4)})
    print_table("budget.fit, median ms (before: every prefix rendered; same process)",
                ["case", "budget", "kept", "before ms", "now ms", "now / before"],
                [[r["case"], r["max_chars"], r["kept_chars"], r["before_ms"], r["now_ms"],
                  r["ratio"]] for r in rows])
    write_json(args.out, {"machine": machine(), "store": "none (the pure function)",
                          "model": "none", "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    main()
