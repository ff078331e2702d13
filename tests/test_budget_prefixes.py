"""The character budget (``context_expand.max_chars``) measures the ranking's prefixes
without rendering each one.

``chatmem.recall.budget.fit`` rendered every prefix of the ranking until one did not
fit, and then the best hit with one neighbour fewer at a time: with 1,000 hits (the
largest ``top_k``) and a budget just below their text, one recall took 9-15 s of CPU,
the square of the hits (``python bench/budget.py``). It now counts each prefix's length as the hits
are merged (:class:`chatmem.recall.expand.Windows`) and halves the best hit's
neighbours; the text it returns is the one the old way returned, which these tests
keep as the reference (``bench/budget.py``'s ``every_prefix_fit``, which the benchmark
times beside it) and compare over random rankings, windows and exclusions.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem.models import Message, Session
from chatmem.recall.budget import fit
from chatmem.recall.expand import Snippet, Windows, merge_windows
from chatmem.recall.rank import Ranked
from chatmem.recall.render import LABELS, render, rendered_length

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from budget import every_prefix_fit as reference_fit

T0 = 1_760_000_000_000


@st.composite
def worlds(draw: Any) -> tuple[list[Ranked], dict[str, list[Message]], set[str],
                               dict[str, Session], int]:
    """Up to three sessions of up to 25 messages (some control, directive or system
    records, bodies of 0-120 characters), hits in any order, each with a window of its
    session's messages around it as ``store.range`` gives them, some ids excluded."""
    timelines: dict[str, list[Message]] = {}
    for s in range(draw(st.integers(1, 3))):
        sid = f"s{s}"
        timelines[sid] = [
            Message(id=f"{sid}-{i}", session_id=sid, ts=T0 + i * 60_000,
                    content="w" * draw(st.integers(1, 120)),
                    role=draw(st.sampled_from(["user", "assistant", "user", "system"])),
                    kind=draw(st.sampled_from(["message"] * 6 + ["divider", "directive"])),
                    speaker_name=draw(st.sampled_from([None, "Ana", "Bo"])))
            for i in range(draw(st.integers(1, 25)))]
    every = [m for t in timelines.values() for m in t]
    hits = draw(st.lists(st.sampled_from(every), min_size=1, max_size=30,
                         unique_by=lambda m: m.id))
    ranked = [Ranked(message=m, score=1 - i / 100, semantic=0.5, recency=1.0, boost=1.0)
              for i, m in enumerate(hits)]
    neighbours: dict[str, list[Message]] = {}
    for m in hits:
        line = timelines[m.session_id]
        at = line.index(m)
        before, after = draw(st.integers(0, 4)), draw(st.integers(0, 4))
        neighbours[m.id or ""] = [x for x in line[max(0, at - before):at + after + 1]
                                  if x is not m]
    exclude = set(draw(st.lists(st.sampled_from([m.id or "" for m in every]), max_size=8)))
    sessions = {sid: Session(id=sid) for sid in timelines}
    full = len(render(merge_windows(ranked, neighbours, exclude), sessions))
    max_chars = draw(st.integers(1, max(full + 5, 2)))
    return ranked, neighbours, exclude, sessions, max_chars


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(worlds(), st.sampled_from([0, 0, 30]))
def test_the_counted_budget_keeps_what_rendering_every_prefix_kept(
        world: tuple[list[Ranked], dict[str, list[Message]], set[str],
                     dict[str, Session], int], per_item: int) -> None:
    ranked, neighbours, exclude, sessions, max_chars = world
    got = fit(ranked, neighbours, exclude, sessions, max_chars=max_chars,
              per_item_max_chars=per_item)
    assert got == reference_fit(ranked, neighbours, exclude, sessions,
                                max_chars=max_chars, per_item_max_chars=per_item)


@settings(max_examples=300, deadline=None)
@given(worlds())
def test_windows_count_each_prefix_as_render_measures_it(
        world: tuple[list[Ranked], dict[str, list[Message]], set[str],
                     dict[str, Session], int]) -> None:
    """Hits merged one at a time give merge_windows' snippets, and totals from which
    the rendered length of every prefix follows (windows that bridge two snippets, an
    excluded hit that hides its snippet until another hit joins it)."""
    ranked, neighbours, exclude, sessions, _ = world
    line_lengths: dict[str, int] = {}

    def weight(m: Message) -> int:
        line_lengths[m.id or ""] = length = len(render(
            [Snippet(m.session_id, (m,), frozenset(), 0.0)], sessions)) - \
            len(LABELS["en"].header) - 2
        return length

    windows = Windows(exclude, weight=weight)
    for n, hit in enumerate(ranked, start=1):
        windows.add(hit, neighbours.get(hit.message.id or "", ()))
        snippets = merge_windows(ranked[:n], neighbours, exclude)
        assert windows.snippets() == snippets
        assert rendered_length(LABELS["en"].header, windows.shown, windows.weight,
                               windows.blocks) == len(render(snippets, sessions))


def _calls(name: str, run: Any) -> int:
    """How many times ``run()`` calls the chatmem function ``name`` (counted, not timed)."""
    calls = 0

    def count(frame: Any, event: str, arg: Any) -> None:
        nonlocal calls
        if event == "call" and frame.f_code.co_name == name and \
                "chatmem" in frame.f_code.co_filename:
            calls += 1

    sys.setprofile(count)
    try:
        run()
    finally:
        sys.setprofile(None)
    return calls


def test_a_budget_over_many_hits_renders_once_not_once_a_prefix() -> None:
    """300 hits of one line each, the budget one character below their text: the old
    way rendered 300 prefixes (45,150 labels); now each message's line is made once to
    count it and once in the text kept."""
    line = [Message(id=f"m{i}", session_id="s", ts=T0 + i * 60_000, role="user",
                    content=f"message {i} about the trip") for i in range(600)]
    ranked = [Ranked(message=m, score=1 - i / 1000, semantic=0.5, recency=1.0, boost=1.0)
              for i, m in enumerate(line[::2])]
    neighbours: dict[str, list[Message]] = {m.id or "": [] for m in line}
    sessions = {"s": Session(id="s")}
    full = len(render(merge_windows(ranked, neighbours, ()), sessions))

    def run() -> None:
        fit(ranked, neighbours, (), sessions, max_chars=full - 1)

    assert _calls("render", run) <= 2
    assert _calls("label_of", run) <= 3 * len(ranked)
    snippets, text = fit(ranked, neighbours, (), sessions, max_chars=full - 1)
    assert len(snippets) == len(ranked) - 1 and len(text) <= full - 1
