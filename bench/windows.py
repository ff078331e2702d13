"""Merging the hits' windows into snippets (``merge_windows``, and the budget's
``Windows``) for a ranking whose windows bridge the snippets before them from the last
to the first, as it is and as it was before, in one process.

    python bench/windows.py [--hits 250,500,1000] [--windows 1,10] [--repeat 3]
                            [--out bench/results/windows.json]

``chatmem.recall.expand`` is pure (no store, no model). The case: one session, N/2 hits
whose windows of W neighbours a side do not touch, then N/2 - 1 hits between them,
from the last gap to the first, each window joining the snippet that grew on its
right to the one on its left. Before, each such join moved the whole joined snippet
into the first one and pointed each of its messages there (and the budget weighed
each moved message's line again): the square of the hits. Now the smaller groups go
into the largest, and a message's group is found through the groups merged.
:class:`MovingWindows` is the code before (the oracle of
``tests/test_windows_merge.py``). Both answers are checked equal; median ms of
``--repeat`` runs, alternating: ``merge_windows`` (every recall with a window), and
``budget.fit`` under a budget one character short of all the hits' text (each prefix
measured with ``Windows``).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

from _common import alternating_ms, machine, print_table, write_json
from chatmem.models import CONTROL_KINDS, DIRECTIVE_KINDS, Message, Session
from chatmem.recall import budget
from chatmem.recall.expand import Snippet, Windows, merge_windows
from chatmem.recall.rank import Ranked
from chatmem.recall.render import render

T0 = 1_760_000_000_000


class MovingWindows(Windows):
    """``chatmem.recall.expand.Windows`` as it was before: a window that bridges
    earlier snippets moves each of their messages into the first one (weighing it
    again) and points it there (the rest of the class is as it is now)."""

    def add(self, hit: Ranked, neighbours: Sequence[Message]) -> None:
        assert hit.message.id is not None
        window = [m for m in (*neighbours, hit.message)
                  if m.kind not in CONTROL_KINDS | DIRECTIVE_KINDS and m.role != "system"]
        touching = sorted({self._where[m.id] for m in window if m.id in self._where})
        if touching:
            g = touching[0]
            self._count(g, -1)
            for other in touching[1:]:
                self._count(other, -1)
                for m in self._groups[other].values():
                    self._join(g, m)
                self._hits[g] |= self._hits[other]
                self._visible[g] = len(self._hits[g] - self._exclude)
                self._groups[other] = {}
                self._hits[other] = set()
                self._kept[other] = self._kept_weight[other] = self._visible[other] = 0
        else:
            g = self._new(hit.score)
        self._take(g, hit, window)


def moving_merge_windows(hits: Sequence[Ranked], neighbours: Mapping[str, Sequence[Message]],
                         exclude_ids: Collection[str] = ()) -> list[Snippet]:
    """``merge_windows`` as it was before (:class:`MovingWindows`)."""
    windows = MovingWindows(exclude_ids)
    for hit in hits:
        windows.add(hit, neighbours.get(hit.message.id or "", ()))
    return windows.snippets()


@contextmanager
def moving_budget() -> Iterator[None]:
    """``budget.fit`` with the windows as they were merged before."""
    now = budget.Windows, budget.merge_windows
    budget.Windows, budget.merge_windows = MovingWindows, moving_merge_windows  # type: ignore[assignment, misc]
    try:
        yield
    finally:
        budget.Windows, budget.merge_windows = now  # type: ignore[misc]


def bridging(hits: int, window: int) -> tuple[list[Ranked], dict[str, list[Message]]]:
    """``hits`` hits of one session, each with ``window`` neighbours a side: the first
    half apart, the rest in the gaps between them from the last gap to the first."""
    apart = (hits + 1) // 2
    step = 3 * window
    line = [Message(id=f"m{i}", session_id="s", ts=T0 + i * 60_000, role="user",
                    content=f"message number {i} about the trip")
            for i in range(step * apart + step)]
    places = [step * i + window for i in range(apart)]
    places += [step * i + window + step // 2 for i in reversed(range(apart - 1))]
    ranked = [Ranked(message=line[p], score=1 - j / 100_000, semantic=0.5, recency=1.0,
                     boost=1.0) for j, p in enumerate(places)]
    around = {line[p].id or "": line[max(0, p - window):p] + line[p + 1:p + window + 1]
              for p in places}
    return ranked, around


def runs(ranked: Sequence[Ranked], around: Mapping[str, Sequence[Message]],
         sessions: Mapping[str, Session]) -> list[tuple[str, Callable[[], Any],
                                                        Callable[[], Any]]]:
    """(name, now, before) of ``merge_windows`` and of ``budget.fit`` under a budget
    one character short of all the hits' text."""
    full = len(render(merge_windows(ranked, around), sessions))

    def fit() -> Any:
        return budget.fit(ranked, around, (), sessions, max_chars=full - 1)

    def moving_fit() -> Any:
        with moving_budget():
            return fit()

    return [("merge_windows", lambda: merge_windows(ranked, around),
             lambda: moving_merge_windows(ranked, around)),
            ("budget.fit", fit, moving_fit)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hits", default="250,500,1000")
    ap.add_argument("--windows", default="1,10")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--out", default="bench/results/windows.json")
    args = ap.parse_args()
    sessions = {"s": Session(id="s")}
    rows: list[dict[str, Any]] = []
    for window in (int(w) for w in args.windows.split(",")):
        for hits in (int(h) for h in args.hits.split(",")):
            ranked, around = bridging(hits, window)
            shown = sum(len(s.messages) for s in merge_windows(ranked, around))
            for name, now, before in runs(ranked, around, sessions):
                was, is_ = alternating_ms(before, now, args.repeat)
                rows.append({"case": name, "hits": len(ranked), "window": window,
                             "messages": shown, "before_ms": round(was, 1),
                             "now_ms": round(is_, 1), "ratio": round(is_ / was, 4)})
    print_table("windows bridged last to first, median ms of CPU (before: the joined "
                "snippet moved into the first each time; same process)",
                ["case", "hits", "window", "messages", "before ms", "now ms", "now / before"],
                [[r["case"], r["hits"], r["window"], r["messages"], r["before_ms"],
                  r["now_ms"], r["ratio"]] for r in rows])
    write_json(args.out, {"machine": machine(), "store": "none (the pure functions)",
                          "model": "none", "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    main()
