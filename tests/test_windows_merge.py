"""Windows that bridge earlier snippets are merged without moving every message of the
joined snippet each time.

``chatmem.recall.expand.Windows`` (``merge_windows``, in every recall with a window, and
the budget's measure of each prefix) joined a bridged snippet into the first one by
moving each of its messages there, weighing each again (the budget renders its line):
for a ranking whose windows bridge the snippets before them from the last to the first,
the square of the hits (``python bench/windows.py``: 999 hits with 10 neighbours a
side, 1.3 s per ``merge_windows``, 36 s per ``budget.fit``; 28 ms and 0.6 s now). Now
the smaller groups go into the largest one; the snippets and totals are those of the
code before, which ``bench/windows.py`` keeps (:class:`MovingWindows`) and these tests
compare with.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem.models import Message, Session
from chatmem.recall.budget import fit
from chatmem.recall.expand import Windows, merge_windows
from chatmem.recall.rank import Ranked
from chatmem.recall.render import render

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from test_budget_prefixes import _calls, worlds
from windows import MovingWindows, bridging, moving_budget, moving_merge_windows


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.data())
def test_merged_windows_are_those_of_moving_every_message(
        world: tuple[list[Ranked], dict[str, list[Message]], set[str],
                     dict[str, Session], int], data: st.DataObject) -> None:
    """The snippets, and after each hit the totals the budget reads, are the code
    before's: three sessions, control and system records, hits in any order (a few
    named again later), windows that bridge snippets, excluded ids."""
    ranked, neighbours, exclude, _, _ = world
    ranked = [*ranked, *data.draw(st.lists(st.sampled_from(ranked), max_size=4))]

    def weight(m: Message) -> int:
        return len(m.content) + 3

    now, before = Windows(exclude, weight=weight), MovingWindows(exclude, weight=weight)
    for hit in ranked:
        around = neighbours.get(hit.message.id or "", ())
        now.add(hit, around)
        before.add(hit, around)
        assert (now.shown, now.weight, now.blocks) == \
            (before.shown, before.weight, before.blocks)
        assert now.snippets() == before.snippets()
    assert merge_windows(ranked, neighbours, exclude) == \
        moving_merge_windows(ranked, neighbours, exclude)


def test_windows_bridged_last_to_first_are_each_joined_once() -> None:
    """199 hits with 3 neighbours a side, the last 99 bridging the first 100's windows
    from the last gap to the first: each window's message joins a snippet once (1,393
    windowed messages; the code before moved the joined snippet each time: 45,745
    joins), and the budget makes each message's label at most three times (898
    messages: 2,690 labels; the code before made one more per move: 46,153)."""
    ranked, around = bridging(199, 3)
    sessions = {"s": Session(id="s")}
    windowed = sum(len(around[r.message.id or ""]) + 1 for r in ranked)
    assert _calls("_join", lambda: merge_windows(ranked, around)) <= windowed
    full = len(render(merge_windows(ranked, around), sessions))

    def budget() -> Any:
        return fit(ranked, around, (), sessions, max_chars=full - 1)

    messages = len({m.id for window in around.values() for m in window}
                   | {r.message.id for r in ranked})
    assert _calls("label_of", budget) <= 3 * messages
    kept = budget()
    with moving_budget():
        assert budget() == kept
