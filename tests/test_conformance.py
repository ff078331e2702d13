"""S5: one conformance suite, run against every backend in ``tests/backends.py``.

Each backend gives a pair ``(store, index)``, wrapped in a
:class:`~chatmem.store.Storage`: message methods go to ``store``, vector methods to
``index`` (the same object for the SQL backends), and entries are written through
:meth:`Storage.write_entries`, as the indexer writes them (where the index is
separate: the store's full-text rows and ``INDEXED`` states follow the upsert).
The same calls must give the same results everywhere; SQLite is the reference,
and the filter language's reference is :func:`chatmem.store.filters.evaluate`.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Mapping
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backends import BACKENDS, hand_edit
from chatmem.errors import FilterError, InvalidInput, StoreClosed
from chatmem.indexing import snapshot_sessions, vector_entry
from chatmem.models import (
    MAX_TS,
    PENDING_MODEL,
    IndexState,
    Message,
    Session,
    VectorEntry,
    filter_document,
    now_ms,
)
from chatmem.store import Storage
from chatmem.store.base import LexicalIndex, OneWidth, Retry, SessionSnapshot, WidthConflict
from chatmem.store.filters import evaluate

NAMES = sorted(BACKENDS)
INJECTION = "a'); DROP TABLE vectors; --"


@dataclass(frozen=True)
class Pair:
    storage: Storage

    @property
    def store(self) -> Any:
        return self.storage.store

    @property
    def index(self) -> Any:
        return self.storage.index

    @property
    def shared(self) -> bool:
        return not self.storage.separate

    async def index_entries(self, entries: list[VectorEntry]) -> None:
        """What the indexer does (vectors, full-text rows, index states)."""
        await self.storage.write_entries(entries)


@contextlib.asynccontextmanager
async def open_pair(name: str, tmp: Path) -> AsyncIterator[Pair]:
    async with BACKENDS[name](tmp) as (store, index):
        yield Pair(Storage(store, index))


@pytest.fixture(params=NAMES)
async def pair(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Pair]:
    async with open_pair(request.param, tmp_path) as p:
        yield p


def unit_vectors(n: int, dim: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    m = rng.normal(size=(n, dim)).astype(np.float32)
    return m / np.linalg.norm(m, axis=1, keepdims=True)


def entry(m: Message, vec: np.ndarray, **kw: Any) -> VectorEntry:
    assert m.id is not None and m.ts is not None
    return VectorEntry(message_id=m.id, session_id=m.session_id, ts=m.ts,
                       role=kw.pop("role", m.role), model_id=kw.pop("model_id", "test:m"),
                       vector=vec, **kw)


def doc(e: VectorEntry) -> dict[str, Any]:
    """The document :func:`evaluate` sees for an entry."""
    return {
        "message_id": e.message_id, "session_id": e.session_id, "ts": e.ts, "role": e.role,
        "model_id": e.model_id, "platform": e.platform, "origin_platform": e.origin_platform,
        "speaker_id": e.speaker_id, "resource_id": e.resource_id,
        "meta": dict(e.session_metadata), "message": dict(e.message_metadata),
    }


def ranked(entries: list[VectorEntry], q: np.ndarray,
           where: Mapping[str, Any] | None = None) -> list[str]:
    """Reference answer: the matching ids by descending cosine."""
    chosen = [e for e in entries if evaluate(where or {}, doc(e))]
    scores = [float(np.dot(e.vector, q)) for e in chosen]
    order = sorted(range(len(chosen)), key=lambda i: -scores[i])
    return [chosen[i].message_id for i in order]


async def ids(index: Any, q: np.ndarray, k: int,
              where: Mapping[str, Any] | None = None) -> list[str]:
    return [h.message_id for h in await index.query(q, k, where)]


async def indexed_corpus(p: Pair, sessions: int = 3, per: int = 30, dim: int = 16,
                         seed: int = 11) -> list[VectorEntry]:
    vecs = unit_vectors(sessions * per, dim, seed)
    entries: list[VectorEntry] = []
    for s in range(sessions):
        msgs = await p.store.append([
            Message(session_id=f"s{s}", content=f"m{s}-{i}", ts=1000 + i, id=f"id-{s}-{i:03d}",
                    role="user" if i % 3 else "assistant")
            for i in range(per)])
        for i, m in enumerate(msgs):
            entries.append(entry(
                m, vecs[s * per + i], platform="qq" if i % 2 else "tg",
                session_metadata={"team": f"t{s % 2}", "prio": i % 5},
                message_metadata={"tag": "x" if i % 4 == 0 else "y"},
            ))
    await p.index_entries(entries)
    return entries


# --------------------------------------------------------------------------- messages


async def test_append_assigns_ids_staggers_ts_and_round_trips(pair: Pair) -> None:
    stored = await pair.store.append([
        Message(session_id="s", content="one", ts=1000),
        Message(session_id="s", content="two", ts=1000),
        Message(session_id="t", content="three", ts=1000),
        Message(session_id="s", content="four", ts=1001, speaker_id="u1", speaker_name="Al",
                mentions=("u2", "u3"), platform="qq", metadata={"a": {"b": [1, 2.5, None]}},
                visible_content="4"),
    ])
    assert [m.ts for m in stored] == [1000, 1001, 1000, 1002]
    assert all(m.id for m in stored) and len({m.id for m in stored}) == 4
    got = await pair.store.get([m.id for m in stored] + ["missing"])
    assert set(got) == {m.id for m in stored}
    for m in stored:
        assert got[m.id] == m
    now = await pair.store.append([Message(session_id="n", content="no ts")])
    assert now[0].ts is not None and now[0].ts > 1_600_000_000_000
    assert await pair.store.append([]) == []


async def test_equal_timestamps_stagger_past_runs_and_never_past_the_largest_ts(
        pair: Pair) -> None:
    """Staggering finds the end of a run of taken timestamps (kept and new ones, over
    batches, with gaps), and refuses, storing nothing, a message it would have to move
    past MAX_TS: the store held a ts that its cursors, ``rewrite`` and an import of its
    export then refused."""
    await pair.store.append([Message(session_id="s", content=f"kept {t}", ts=t)
                             for t in (102, 103, 106)])
    first = await pair.store.append([Message(session_id="s", content=f"a{i}", ts=100)
                                     for i in range(6)])
    assert [m.ts for m in first] == [100, 101, 104, 105, 107, 108]
    again = await pair.store.append([Message(session_id="s", content=f"b{i}", ts=100)
                                     for i in range(3)]
                                    + [Message(session_id="t", content="other", ts=100)])
    assert [m.ts for m in again] == [109, 110, 111, 100]
    last = await pair.store.append([Message(session_id="m", content="at the end", ts=MAX_TS)])
    assert last[0].ts == MAX_TS
    before = (await pair.store.stats()).messages
    # the same batch sent again (a retry after a timeout) is the same add, though the
    # store moved some of its timestamps later
    assert await pair.store.append([Message(session_id="s", content=f"a{i}", ts=100,
                                            id=first[i].id) for i in range(6)]) == first
    with pytest.raises(InvalidInput, match="already exists"):  # later than stored: another
        await pair.store.append([Message(session_id="s", content="a1", ts=102,
                                         id=first[1].id)])
    with pytest.raises(InvalidInput, match=r"messages\[1\]\.ts.*earlier ts"):
        await pair.store.append([Message(session_id="m", content="fits", ts=MAX_TS - 1),
                                 Message(session_id="m", content="past the end", ts=MAX_TS)])
    assert (await pair.store.stats()).messages == before  # the whole batch: nothing stored


async def test_messages_without_ts_keep_their_order_across_sessions(pair: Pair) -> None:
    """A history added in one batch without timestamps, one session per day, keeps its
    order: each message is later than every one before it, in whichever session
    (recall reads that order: which statement of a fact is newer, issue 12)."""
    stored = await pair.store.append([
        Message(session_id=f"day{d}", content=f"d{d}-{i}") for d in range(3) for i in range(4)])
    ts = [m.ts or 0 for m in stored]
    assert ts == sorted(set(ts)) and ts[0] > 1_600_000_000_000
    later = await pair.store.append([Message(session_id="day0", content="next"),
                                     Message(session_id="day9", content="other")])
    assert ts[-1] < (later[0].ts or 0) < (later[1].ts or 0)
    # a given timestamp is kept; the clock goes on after the last one it gave
    mixed = await pair.store.append([Message(session_id="x", content="a", ts=5),
                                     Message(session_id="y", content="b")])
    assert mixed[0].ts == 5 and (mixed[1].ts or 0) > (later[1].ts or 0)
    # an idempotent retry of an add without ts is still the same add
    [again] = await pair.store.append([Message(session_id="day0", content="d0-0",
                                               id=stored[0].id)])
    assert again == stored[0]


async def test_duplicate_id_is_idempotent_and_conflicts_roll_back_the_batch(pair: Pair) -> None:
    [a] = await pair.store.append([Message(session_id="s", content="x", id="m1", ts=5)])
    [b] = await pair.store.append([Message(session_id="s", content="x", id="m1")])
    assert b == a
    [c] = await pair.store.append([Message(session_id="s", content="x", id="m1", ts=5)])
    assert c == a
    for bad in (Message(session_id="s", content="different", id="m1"),
                Message(session_id="other", content="x", id="m1"),
                Message(session_id="s", content="x", id="m1", role="assistant"),
                Message(session_id="s", content="x", id="m1", ts=6)):
        with pytest.raises(InvalidInput, match="already exists"):
            await pair.store.append([bad])
    with pytest.raises(InvalidInput):
        await pair.store.append([Message(session_id="s", content="new", id="m2"),
                                 Message(session_id="s2", content="new", id="m3"),
                                 Message(session_id="s", content="different", id="m1")])
    assert await pair.store.get(["m2", "m3"]) == {}
    assert {s.id for s in await pair.store.all_sessions()} == {"s"}
    # a duplicate inside one batch: the second is the idempotent echo of the first
    first, second = await pair.store.append([
        Message(session_id="d", content="same", id="m4", ts=1, metadata={"k": 1}),
        Message(session_id="d", content="same", id="m4"),
    ])
    assert first == second
    with pytest.raises(InvalidInput, match="already exists"):
        await pair.store.append([Message(session_id="d", content="a", id="m5"),
                                 Message(session_id="d", content="b", id="m5")])
    assert (await pair.store.stats()).messages == 2


async def test_index_states_pending_and_failed(pair: Pair) -> None:
    stored = await pair.store.append([
        Message(session_id="s", content="hi", role="user"),
        Message(session_id="s", content="reply", role="assistant"),
        Message(session_id="s", content="tool out", role="tool"),
        Message(session_id="s", content="note", role="notice"),
        Message(session_id="s", content="sys", role="system"),
        Message(session_id="s", content="cron says hi", role="user", source="scheduler"),
        Message(session_id="s", content="---", kind="divider"),
        Message(session_id="s", content="later", role="user"),
    ])
    ids_ = [m.id for m in stored]
    states = await pair.store.index_states([*ids_, "missing"])
    assert [states[i] for i in ids_] == [IndexState.PENDING] * 2 + [IndexState.SKIPPED] * 5 + [
        IndexState.PENDING]
    assert "missing" not in states
    assert [m.content for m in await pair.store.pending(10)] == ["hi", "reply", "later"]
    assert [m.content for m in await pair.store.pending(2)] == ["hi", "reply"]
    await pair.store.set_index_state([ids_[1]], IndexState.FAILED)
    assert [m.content for m in await pair.store.pending(10)] == ["hi", "later"]
    assert [m.content for m in await pair.store.pending(10, include_failed=True)] == [
        "hi", "reply", "later"]
    st_ = await pair.store.stats()
    assert (st_.messages, st_.pending, st_.failed, st_.skipped, st_.indexed) == (8, 2, 1, 5, 0)
    await pair.store.append([Message(session_id="t", content="other", id="t1")])
    assert await pair.store.reset_index_state(IndexState.PENDING, IndexState.FAILED, "s") == 2
    assert await pair.store.reset_index_state(IndexState.PENDING, IndexState.FAILED, "s") == 0
    assert (await pair.store.index_states(["t1"]))["t1"] == IndexState.PENDING
    assert await pair.store.reset_index_state(IndexState.FAILED, IndexState.PENDING) == 3
    assert [m.content for m in await pair.store.pending(10)] == ["hi", "reply", "later", "other"]


async def test_append_stores_kept_index_states_in_its_own_transaction(pair: Pair) -> None:
    """``append(states=...)``: the index states an import's file (a migration's source)
    keeps, skipped and cleared, are those the new rows are stored in, by the append's
    own commit: never pending, so no indexer claims one of them meanwhile, and without
    a pending full-text entry. A stored message keeps its own state; another state is
    refused naming the message, before anything is written."""
    await pair.store.append([Message(session_id="s", content="harbour kept", id="old")])
    stored = await pair.store.append([
        Message(session_id="s", content="harbour skipped", id="k1"),
        Message(session_id="s", content="harbour cleared", id="k2"),
        Message(session_id="s", content="harbour pending", id="p1"),
        Message(session_id="s", content="harbour tool", id="t1", role="tool"),
        Message(session_id="s", content="harbour kept", id="old"),
    ], states={"k1": IndexState.SKIPPED, "k2": IndexState.CLEARED,
               "t1": IndexState.CLEARED, "old": IndexState.SKIPPED})
    assert [m.id for m in stored] == ["k1", "k2", "p1", "t1", "old"]
    assert await pair.store.index_states(["k1", "k2", "p1", "t1", "old"]) == {
        "k1": IndexState.SKIPPED, "k2": IndexState.CLEARED, "p1": IndexState.PENDING,
        "t1": IndexState.CLEARED, "old": IndexState.PENDING}
    assert [m.id for m in await pair.store.pending(10, include_failed=True)] == ["old", "p1"]
    assert (await pair.store.claim("indexer", ["k1", "k2", "p1"], 60_000)).ids == ["p1"]
    assert set(await lexical_ids(pair, "harbour")) == {"old", "p1"}
    for bad in (IndexState.PENDING, IndexState.INDEXED, IndexState.FAILED, "skipped"):
        with pytest.raises(InvalidInput, match=r'states\["n1"\] must be IndexState.SKIPPED'):
            await pair.store.append([Message(session_id="s", content="new", id="n1")],
                                    states={"n1": bad})  # type: ignore[dict-item]
    with pytest.raises(InvalidInput, match="states must be a mapping"):
        await pair.store.append([Message(session_id="s", content="new", id="n1")],
                                states=[("n1", IndexState.SKIPPED)])  # type: ignore[arg-type]
    assert await pair.store.get(["n1"]) == {}


async def test_range_and_recent_skip_hidden_records(pair: Pair) -> None:
    await pair.store.append([
        Message(session_id="s", content="m1", ts=1),
        Message(session_id="s", content="div", ts=2, kind="divider"),
        Message(session_id="s", content="m3", ts=3),
        Message(session_id="s", content="sys", ts=4, role="system"),
        Message(session_id="s", content="HIT", ts=5),
        Message(session_id="s", content="dir", ts=6, kind="directive"),
        Message(session_id="s", content="m7", ts=7, role="tool"),
        Message(session_id="s", content="cmd", ts=8, kind="command_reply"),
        Message(session_id="s", content="m9", ts=9, role="assistant"),
        Message(session_id="s", content="m10", ts=10),
        Message(session_id="other", content="x", ts=6),
    ])
    text = lambda ms: [m.content for m in ms]  # noqa: E731
    assert text(await pair.store.range("s", 5, 2, 2)) == ["m1", "m3", "m7", "m9"]
    assert text(await pair.store.range("s", 5, 0, 0)) == []
    assert text(await pair.store.range("s", 5, 10, 0)) == ["m1", "m3"]
    assert text(await pair.store.range("s", 5, 0, 1)) == ["m7"]
    assert text(await pair.store.range("s", 100, 1, 1)) == ["m10"]
    assert text(await pair.store.range("nope", 5, 2, 2)) == []
    # recent skips control kinds and directives but keeps system records
    assert text(await pair.store.recent("s", 4)) == ["HIT", "m7", "m9", "m10"]
    assert text(await pair.store.recent("s", 6)) == ["m3", "sys", "HIT", "m7", "m9", "m10"]
    assert text(await pair.store.recent("s", 0)) == []
    assert text(await pair.store.recent("other", 5)) == ["x"]
    # recent_heads: the same messages, every field but the texts
    await pair.store.append([Message(session_id="s", content="answer", ts=11, role="tool",
                                     visible_content="shown",
                                     metadata={"tool_call_id": "call_1"})])
    for n in (0, 4, 6, 20):
        full = await pair.store.recent("s", n)
        assert await pair.store.recent_heads("s", n) == [
            replace(m, content="", visible_content=None) for m in full]
    assert (await pair.store.recent("s", 1))[0].visible_content == "shown"
    assert await pair.store.recent_heads("nope", 5) == []
    # until: those before a time (exclusive), to read on behind an earlier read
    full = await pair.store.recent("s", 20)
    heads = [replace(m, content="", visible_content=None) for m in full]
    for n, until in ((2, 9), (3, 9), (20, 5), (1, 11), (5, 1), (20, 10**15)):
        assert await pair.store.recent_heads("s", n, until=until) == \
            [m for m in heads if m.ts < until][-n:], (n, until)
    assert await pair.store.recent_heads("s", 0, until=9) == []


async def test_recent_heads_builds_its_messages_without_the_row_reader(
        pair: Pair, monkeypatch: pytest.MonkeyPatch) -> None:
    """``recent_heads`` (a context finding a tool call behind up to 4,096 stored tool
    answers) read its rows without their texts but made each a message through the
    generic row reader, most of its time: SQLite's context behind 3,000 answers of
    10 KB was about as slow as reading them in full. Its messages are now built
    directly from the columns they keep (``bench/context_calls.py``): every field the
    same as ``recent``'s but the texts, for every kind of value a message holds."""
    import chatmem.store.sqlmessages as sm

    await pair.store.append([
        Message(session_id="s", content="hello", ts=1, speaker_id="u1",
                speaker_name="Ann", mentions=("u2", "u3"), platform="tg",
                metadata={"nested": {"a": [1, 2.5, None, True]}, "é": "ü"}),
        Message(session_id="s", content="", ts=2, role="assistant", source="agent",
                metadata={"tool_calls": [{"id": "c1", "type": "function", "function": {
                    "name": "f", "arguments": "{}"}}]}),
        Message(session_id="s", content="out", ts=3, role="tool", visible_content="vis",
                metadata={"tool_call_id": "c1"}),
        Message(session_id="s", content="sys", ts=4, role="system", kind="notice"),
        Message(session_id="s", content="m5", ts=5, mentions=("only",)),
    ])
    built: list[Any] = []
    reader = sm.row_to_message

    def counted(*args: Any, **kwargs: Any) -> Message:
        built.append(args)
        return reader(*args, **kwargs)

    monkeypatch.setattr(sm, "row_to_message", counted)
    full = await pair.store.recent("s", 10)
    assert len(full) == 5 and len(built) == 5  # recent reads through the row reader
    built.clear()
    for n in (10, 3, 1):
        assert await pair.store.recent_heads("s", n) == [
            replace(m, content="", visible_content=None) for m in full[-n:]]
    assert built == []


async def test_rewrite_changes_in_place(pair: Pair) -> None:
    await pair.store.append([Message(session_id="s", content="old", ts=7, id="r1",
                                     metadata={"a": 1}, visible_content="shown")])
    new = await pair.store.rewrite("s", 7, content="new")
    assert new is not None and new.content == "new" and new.visible_content == "shown"
    assert new.metadata == {"a": 1} and new.id == "r1" and new.ts == 7
    new2 = await pair.store.rewrite("s", 7, visible_content="v2", metadata={"b": [True]})
    assert new2 is not None
    assert (await pair.store.get(["r1"]))["r1"] == new2
    assert new2.content == "new" and new2.metadata == {"b": [True]}
    assert await pair.store.rewrite("s", 8, content="x") is None
    assert await pair.store.rewrite("nope", 7, content="x") is None


async def test_sessions_and_metadata_area(pair: Pair) -> None:
    await pair.store.append([Message(session_id="zeta", content="x"),
                             Message(session_id="Alpha", content="y")])
    sess = Session(id="g1", parent_id="p", resource_id="r", chat_type="group", group_id="G",
                   group_name="Hiking", origin_platform="qq", metadata={"team": "a", "n": 2},
                   settings={"scope": "session"})
    assert await pair.store.upsert_session(sess) == sess
    got = await pair.store.get_sessions(["g1", "missing", "zeta"])
    assert set(got) == {"g1", "zeta"} and got["g1"] == sess
    assert got["zeta"] == Session(id="zeta")
    await pair.store.upsert_session(Session(id="g1", group_name="Climbing"))
    assert (await pair.store.get_sessions(["g1"]))["g1"] == Session(id="g1",
                                                                     group_name="Climbing")
    assert [s.id for s in await pair.store.all_sessions()] == ["Alpha", "g1", "zeta"]
    assert await pair.store.meta_get("ns", "k") is None
    await pair.store.meta_set("ns", "k", "v1")
    await pair.store.meta_set("ns", "k", "v2")
    await pair.store.meta_set("ns2", "k", "other")
    assert await pair.store.meta_get("ns", "k") == "v2"
    await pair.store.meta_delete("ns", "k")
    await pair.store.meta_delete("ns", "never")
    assert await pair.store.meta_get("ns", "k") is None
    assert await pair.store.meta_get("ns2", "k") == "other"
    # set unless set, the first writer's value kept (a store's vector owner id)
    assert await pair.store.meta_set_default("ns3", "k", "first") == "first"
    assert await pair.store.meta_set_default("ns3", "k", "second") == "first"
    await pair.store.meta_delete("ns3", "k")
    await pair.store.meta_set("ns", "B", "1")
    await pair.store.meta_set("ns", "a", "2")
    mine = [item for item in await pair.store.meta_items() if item[0] in ("ns", "ns2")]
    assert mine == [("ns", "B", "1"), ("ns", "a", "2"), ("ns2", "k", "other")]
    assert (await pair.store.stats()).sessions == 3
    # a page of sessions after an id, byte-wise ("Z" before "a", "é" after "zeta"), as
    # Memory.sessions and the LangGraph store page them
    for sid in ("langgraph:a", "langgraph:b.c", "langgraph;", "é", "Z", "日本"):
        await pair.store.upsert_session(Session(id=sid))
    every = [s.id for s in await pair.store.all_sessions()]
    assert every == sorted(every, key=str.encode) and len(every) == 9
    for after in (None, "", "Alpha", "g", "langgraph:", "langgraph:b.c", "zeta", "é",
                  "\U0001f600"):
        for limit in (1, 2, 100):
            want = [i for i in every if after is None or i > after][:limit]
            got = await pair.store.sessions_after(after, limit)
            assert [x.id for x in got] == want, (after, limit)
    assert await pair.store.sessions_after("f", 1) == [Session(id="g1",
                                                                group_name="Climbing")]


async def test_message_sessions_page_with_whether_each_is_registered(pair: Pair) -> None:
    """The sessions messages are in, a page at a time, each with whether a session row
    registers it: the retention sweep's way to the messages of a session whose row was
    removed outside chatmem (a hand DELETE FROM sessions)."""
    assert await pair.store.message_sessions_after(None, 10) == []
    ids = ["Z", "a", "b.c", "gone", "zeta", "é", "日本", "lost"]
    await pair.store.append([Message(session_id=sid, content=f"in {sid}", ts=ts)
                             for sid in ids for ts in (1, 2, 3)])
    await pair.store.upsert_session(Session(id="no messages"))
    for sid in ("gone", "lost"):
        assert await hand_edit(pair.store, "DELETE FROM sessions WHERE id = ?", sid) == 1
    every = await pair.store.message_sessions_after(None, 100)
    assert sorted(every) == sorted((sid, sid not in ("gone", "lost")) for sid in ids)
    for limit in (1, 2, 3, 8):
        paged: list[tuple[str, bool]] = []
        after = None
        while True:
            page = await pair.store.message_sessions_after(after, limit)
            paged += page
            if len(page) < limit:
                break
            after = page[-1][0]
        assert paged == every, limit
    assert await pair.store.message_sessions_after(every[-1][0], 5) == []
    # stats counts the same walk's sessions without a row beside the rows
    assert (await pair.store.stats()).sessions == 7 + 2


async def test_message_sessions_names_those_of_the_ids_messages_are_in(pair: Pair) -> None:
    """Which of the session ids given messages are in, registered by a row or not (what
    ``Memory.sessions(only=…)`` lists besides the rows): one call for any number."""
    assert await pair.store.message_sessions([]) == set()
    assert await pair.store.message_sessions(["a", "b"]) == set()
    held = ["a", "b.c", "gone", "é", "日本", "x" * 200]
    await pair.store.append([Message(session_id=sid, content=f"in {sid}", ts=ts)
                             for sid in held for ts in (1, 2)])
    await pair.store.upsert_session(Session(id="no messages"))
    assert await hand_edit(pair.store, "DELETE FROM sessions WHERE id = ?", "gone") == 1
    named = [*held, "no messages", "nowhere", "A", "b", "a", "gone",
             *(f"nothing {i}" for i in range(1_500))]  # more than a chunk of ids
    assert await pair.store.message_sessions(named) == set(held)
    assert await pair.store.message_sessions(["nowhere", "gone"]) == {"gone"}
    await pair.store.clear_messages("gone")
    assert await pair.store.message_sessions(held) == set(held) - {"gone"}


async def test_scan_messages_pages_in_insertion_order(pair: Pair) -> None:
    msgs = [Message(session_id=f"s{i % 3}", content=f"c{i}", ts=100 - i,
                    role="tool" if i % 5 == 0 else "user") for i in range(23)]
    stored = await pair.store.append(msgs[:10])
    stored += await pair.store.append(msgs[10:])
    seen: list[tuple[Message, IndexState]] = []
    cursor = 0
    while True:
        page = await pair.store.scan_messages(cursor, 7)
        if not page:
            break
        assert len(page) <= 7
        assert all(c > cursor for c, _, _ in page)
        assert [c for c, _, _ in page] == sorted(c for c, _, _ in page)
        seen += [(m, s) for _, m, s in page]
        cursor = page[-1][0]
    assert [m for m, _ in seen] == stored
    assert [s for _, s in seen] == [IndexState.SKIPPED if m.role == "tool" else
                                    IndexState.PENDING for m in stored]


async def test_list_messages_pages_both_ways(pair: Pair) -> None:
    """``(ts, id)`` order and its reverse (``newest_first``), over sessions, within
    ``since``/``until``, each page strictly past the last position (ties on ``ts`` across
    sessions ordered by id, byte-wise)."""
    stored = await pair.store.append([
        Message(session_id=f"s{i % 3}", content=f"c{i}", ts=1000 + (i // 2) * 10)
        for i in range(25)])
    within = sorted((m for m in stored if 1030 <= (m.ts or 0) < 1100),
                    key=lambda m: (m.ts, (m.id or "").encode()))

    async def pages(newest_first: bool) -> list[Message]:
        seen: list[Message] = []
        pos: tuple[int, str] | None = None
        while page := await pair.store.list_messages(since=1030, until=1100, after=pos,
                                                     limit=4, newest_first=newest_first):
            assert len(page) <= 4
            seen += page
            pos = (page[-1].ts, page[-1].id)
        return seen

    assert len(within) == 14
    assert await pages(False) == within
    assert await pages(True) == within[::-1]
    one = await pair.store.list_messages(session_ids=["s1"], limit=3, newest_first=True)
    assert one == sorted((m for m in stored if m.session_id == "s1"),
                         key=lambda m: (m.ts, (m.id or "").encode()), reverse=True)[:3]


async def test_clear_and_delete_messages(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=2, per=5, dim=8)
    assert await pair.store.delete_messages(["id-0-000", "id-0-001", "missing"]) == 2
    if not pair.shared:  # a separate index drops the vectors itself
        assert await pair.index.delete_vectors(["id-0-000", "id-0-001", "missing"]) == 2
    left = await ids(pair.index, entries[0].vector, 100)
    assert sorted(left) == sorted(e.message_id for e in entries[2:])
    assert await pair.store.get(["id-0-000"]) == {}
    assert await pair.store.clear_messages("s1") == 5
    assert await pair.store.clear_messages("s1") == 0
    assert [m.content for m in await pair.store.recent("s1", 10)] == []
    assert await pair.store.clear_messages() == 3
    st_ = await pair.store.stats()
    assert st_.messages == 0 and st_.sessions == 2  # sessions stay


async def test_stats_count_states_and_vectors_by_model(pair: Pair) -> None:
    msgs = await pair.store.append([Message(session_id="s", content=f"c{i}", ts=i)
                                    for i in range(6)]
                                   + [Message(session_id="s", content="t", role="tool")])
    vecs = unit_vectors(6, 8, 3)
    models = ["a", "a", "b", None, "a", "b"]
    await pair.index_entries([entry(m, v, model_id=mid)
                              for m, v, mid in zip(msgs[:4], vecs, models)])
    st_ = await pair.store.stats()
    assert (st_.messages, st_.sessions, st_.indexed, st_.pending, st_.failed, st_.skipped) == (
        7, 1, 4, 2, 0, 1)
    if pair.shared:
        assert dict(st_.vectors_by_model) == {"a": 2, "b": 1, "": 1}
    assert await pair.index.count_by_model() == {"a": 2, "b": 1, "": 1}
    assert await pair.index.vector_sizes() == {"a": {8}, "b": {8}, "": {8}}


# --------------------------------------------------------------------------- vectors


async def test_query_matches_exact_reference_with_and_without_filters(pair: Pair) -> None:
    entries = await indexed_corpus(pair)
    queries = unit_vectors(4, 16, 99)
    wheres: list[dict[str, Any] | None] = [
        None, {}, {"session_id": "s1"}, {"session_id": {"$in": ["s0", "s2"]}},
        {"role": "assistant"}, {"session_id": "s2", "role": {"$ne": "assistant"}},
        {"ts": {"$gte": 1005, "$lt": 1012}}, {"meta.team": "t0"}, {"meta.prio": {"$gt": 2}},
        {"message.tag": "x"}, {"platform": {"$nin": ["qq"]}},
        {"$or": [{"session_id": "s0", "meta.prio": 0}, {"message.tag": "x", "role": "user"}]},
        {"model_id": "test:m", "message_id": {"$in": ["id-1-003", "id-2-017", "nope"]}},
        {"session_id": "none"}, {"meta.missing": {"$exists": False}, "ts": {"$lte": 1001}},
    ]
    for q in queries:
        for where in wheres:
            want = ranked(entries, q, where)
            for k in (1, 5, 10, len(entries) + 10):
                got = await pair.index.query(q, k, where)
                assert [h.message_id for h in got] == want[:k], (where, k)
        hits = await pair.index.query(q, 3, {"session_id": "s1"})
        by_id = {e.message_id: e for e in entries}
        for h in hits:
            e = by_id[h.message_id]
            assert h.score == pytest.approx(float(np.dot(e.vector, q)), abs=1e-5)
            assert (h.session_id, h.ts, h.role, h.model_id) == (e.session_id, e.ts, e.role,
                                                                e.model_id)
    assert await pair.index.query(queries[0], 0) == []
    assert await pair.index.query(unit_vectors(1, 5, 1)[0], 5) == []  # no vector of that size


async def test_a_search_under_the_query_models_space_returns_k_of_it(pair: Pair) -> None:
    """F11 before a reindex: recall searches again under its model (and legacy vectors
    when they count as it) when another model's vectors of the same width took places
    (Memory._of_own_model). Every backend pushes the model down, with a scope filter
    beside it, and answers the k nearest of that space, as the reference."""
    msgs = await pair.store.append([
        Message(session_id=f"s{i % 3}", content=f"m{i}", ts=1000 + i, id=f"id-{i:03d}")
        for i in range(90)])
    vecs = unit_vectors(90, 16, 5)
    q = unit_vectors(1, 16, 6)[0]
    # the old model's vectors the nearest to the query: it would take every place
    vecs[:60] = (vecs[:60] * 0.1 + q) / np.linalg.norm(vecs[:60] * 0.1 + q, axis=1,
                                                          keepdims=True)
    models = ["test:old"] * 60 + ["test:new"] * 20 + [None] * 10
    entries = [entry(m, v, model_id=model) for m, v, model in zip(msgs, vecs, models)]
    await pair.index_entries(entries)
    own = {"model_id": "test:new"}
    with_legacy = {"$or": [{"model_id": "test:new"}, {"model_id": None}]}
    for where in (own, with_legacy, {"session_id": "s1", **own},
                  {"session_id": {"$in": ["s0", "s2"]}, **with_legacy},
                  {"$and": [{"$or": [{"session_id": "s0"}, {"role": "user"}]}, own]}):
        want = ranked(entries, q, where)
        assert want and not any(i in want for i in ranked(entries, q, {"model_id": "test:old"}))
        for k in (1, 5, 20):
            assert await ids(pair.index, q, k, where) == want[:k], (where, k)
    # unfiltered, the old model's vectors take all 20 places
    assert {h.model_id for h in await pair.index.query(q, 20)} == {"test:old"}


async def test_narrow_filter_still_returns_k(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=3, per=40)
    q = unit_vectors(1, 16, 5)[0]
    got = await pair.index.query(q, 10, {"session_id": "s2"})
    assert len(got) == 10 and {h.session_id for h in got} == {"s2"}
    assert [h.message_id for h in got] == ranked(entries, q, {"session_id": "s2"})[:10]


async def test_upsert_replaces_by_message_id_and_is_idempotent(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=1, per=6, dim=8)
    await pair.index_entries(entries[:3])  # replay
    assert await pair.index.count_by_model() == {"test:m": 6}
    target = entries[0]
    far = -entries[1].vector
    moved = VectorEntry(target.message_id, target.session_id, target.ts, "assistant", "test:n",
                        far, session_metadata={"team": "moved"})
    await pair.index_entries([moved])
    assert await pair.index.count_by_model() == {"test:m": 5, "test:n": 1}
    [top] = await pair.index.query(far, 1)
    assert top.message_id == target.message_id and top.role == "assistant"
    assert top.model_id == "test:n" and top.score == pytest.approx(1.0, abs=1e-5)
    assert await ids(pair.index, far, 10, {"meta.team": "moved"}) == [target.message_id]
    assert await ids(pair.index, far, 10, {"meta.team": "t0"}) == [
        i for i in ranked(entries, far) if i != target.message_id]
    states = await pair.store.index_states([e.message_id for e in entries])
    assert set(states.values()) == {IndexState.INDEXED}


async def test_upsert_skips_messages_deleted_meanwhile(pair: Pair) -> None:
    if not pair.shared:
        pytest.skip("a separate vector index does not see the message store")
    [m] = await pair.store.append([Message(session_id="s", content="x", ts=1)])
    await pair.store.delete_messages([m.id])
    await pair.index.upsert([entry(m, unit_vectors(1, 8, 1)[0])])
    assert await pair.index.count_by_model() == {}
    assert await pair.index.upsert([]) is None


async def test_a_vector_no_search_could_score_is_refused_and_nothing_is_written(
        pair: Pair) -> None:
    # the embedder checks its own answers; these come from a library user. NaN was
    # stored (never found: exact search takes a NaN score for a deleted row; the ANN
    # build raised); 1e37s too (scores inf; faiss's k-means aborted the process)
    msgs = await pair.store.append([Message(session_id="s", content=f"c{i}", ts=i)
                                    for i in range(2)])
    good = entry(msgs[0], unit_vectors(1, 8, 1)[0])
    for bad, says in [(np.array([np.nan, 1.0, 0.0]), "NaN or infinity"),
                      (np.array([np.inf, 1.0]), "NaN or infinity"),
                      (np.full(8, 1e37), r"length is 2\.83e\+37, over the 1e\+18"),
                      (np.full(4, 6e17), r"length is 1\.2e\+18, over the 1e\+18"),
                      (np.ones((2, 2)), "non-empty 1-D"),
                      (np.array([]), "non-empty 1-D"),
                      (np.array(["a"]), "not a vector of numbers")]:
        where = rf"entries\[1\] \(\"{msgs[1].id}\"\)\.vector: "
        with pytest.raises(InvalidInput, match=f"{where}.*{says}"):
            await pair.index.upsert([good, entry(msgs[1], bad)])
        if bad.ndim == 1 and bad.size and bad.dtype.kind == "f":
            with pytest.raises(InvalidInput, match=f"query vector: .*{says}"):
                await pair.index.query(bad.astype(np.float32), 3)
    assert await pair.index.count_by_model() == {}
    # a vector as long as may be is kept and scored (1e36 at most: finite in float32)
    await pair.index.upsert([entry(msgs[1], np.full(4, 5e17))])
    [hit] = await pair.index.query(np.full(4, 5e17, dtype=np.float32), 1)
    # (Qdrant's collections measure cosine: 1.0 there, the inner product 1e36 elsewhere)
    assert hit.message_id == msgs[1].id and np.isfinite(hit.score) and hit.score >= 1.0


async def test_vectors_of_different_sizes_coexist(pair: Pair) -> None:
    msgs = await pair.store.append([Message(session_id="s", content=f"c{i}", ts=i)
                                    for i in range(6)])
    small = unit_vectors(3, 4, 1)
    big = unit_vectors(3, 12, 2)
    await pair.index_entries([entry(m, v, model_id="small") for m, v in zip(msgs[:3], small)]
                             + [entry(m, v, model_id="big") for m, v in zip(msgs[3:], big)])
    assert sorted(await ids(pair.index, small[0], 10)) == sorted(m.id for m in msgs[:3])
    assert sorted(await ids(pair.index, big[0], 10)) == sorted(m.id for m in msgs[3:])
    # re-embedding a message with another model moves it to the other size
    await pair.index_entries([entry(msgs[0], unit_vectors(1, 12, 3)[0], model_id="big")])
    assert msgs[0].id not in await ids(pair.index, small[0], 10)
    assert msgs[0].id in await ids(pair.index, big[0], 10)
    assert await pair.index.count_by_model() == {"small": 2, "big": 4}
    assert await pair.index.vector_sizes() == {"small": {4}, "big": {12}}
    # one model may hold two sizes (a provider asked for another size): both are listed
    await pair.index_entries([entry(msgs[1], unit_vectors(1, 6, 4)[0], model_id="big")])
    assert await pair.index.vector_sizes() == {"small": {4}, "big": {6, 12}}


async def test_one_width_per_model_is_checked_with_the_write(pair: Pair) -> None:
    # the indexer's rule: an index holding vectors of a model, none of an entry's width,
    # refuses the write whole; one holding none of the model takes any width, its first.
    # Two writes of two first widths at once: one lands, the other is refused
    msgs = await pair.store.append([Message(session_id="s", content=f"c{i}", ts=i)
                                    for i in range(5)])
    rule = OneWidth()
    first = [entry(msgs[0], unit_vectors(1, 8, 1)[0], model_id="m")]
    second = [entry(msgs[1], unit_vectors(1, 12, 2)[0], model_id="m")]
    results = await asyncio.gather(pair.storage.write_entries(first, one_width=rule),
                                   pair.storage.write_entries(second, one_width=rule),
                                   return_exceptions=True)
    refused = [r for r in results if isinstance(r, WidthConflict)]
    assert len(refused) == 1 and results.count(None) == 1, results
    kept, loser = (8, msgs[1]) if results[0] is None else (12, msgs[0])
    assert (refused[0].model_id, refused[0].held) == ("m", kept)
    assert await pair.index.vector_sizes() == {"m": {kept}}
    assert loser.id is not None  # not written: still waiting
    assert (await pair.store.index_states([loser.id]))[loser.id] == IndexState.PENDING
    assert await pair.index.other_width("m", kept) is None
    assert await pair.index.other_width("m", 20) == kept
    assert await pair.index.other_width("n", 20) is None
    # a write mixing the held width with another is refused whole
    with pytest.raises(WidthConflict):
        await pair.storage.write_entries(
            [entry(msgs[2], unit_vectors(1, kept, 3)[0], model_id="m"),
             entry(msgs[3], unit_vectors(1, 20, 4)[0], model_id="m")], one_width=rule)
    assert await pair.index.count_by_model() == {"m": 1}
    # another model's first width; the held width; a reindex moving the model to a width
    # writes it beside the old one
    await pair.storage.write_entries([entry(msgs[2], unit_vectors(1, 20, 5)[0],
                                            model_id="n")], one_width=rule)
    await pair.storage.write_entries([entry(loser, unit_vectors(1, kept, 6)[0],
                                            model_id="m")], one_width=rule)
    await pair.storage.write_entries([entry(msgs[3], unit_vectors(1, 6, 7)[0],
                                            model_id="m")], one_width=OneWidth({"m": 6}))
    assert await pair.index.vector_sizes() == {"m": {kept, 6}, "n": {20}}
    # without the rule (an import, a migration), any width is written
    await pair.storage.write_entries([entry(msgs[4], unit_vectors(1, 4, 8)[0],
                                            model_id="n")])
    assert await pair.index.vector_sizes() == {"m": {kept, 6}, "n": {4, 20}}


async def test_delete_vectors_and_delete_by_filter(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=2, per=10, dim=8)
    q = entries[0].vector
    assert await pair.index.delete_vectors(["id-0-000", "id-0-001", "nope"]) == 2
    assert await pair.index.delete_vectors([]) == 0
    assert len(await ids(pair.index, q, 100)) == 18
    if not pair.index.supports_delete_by_filter:
        return
    where = {"session_id": "s1", "meta.prio": {"$lt": 2}}
    want = [e.message_id for e in entries if evaluate(where, doc(e))]
    assert await pair.index.delete_by_filter(where) == len(want) == 4
    left = await ids(pair.index, q, 100)
    assert len(left) == 14 and not set(want) & set(left)
    assert await pair.index.delete_by_filter({"session_id": "nope"}) == 0
    with pytest.raises(FilterError):
        await pair.index.delete_by_filter({"session_id": {"$regex": "x"}})
    with pytest.raises(FilterError):
        await pair.index.delete_by_filter({"content": "x"})
    assert len(await ids(pair.index, q, 100)) == 14


async def test_clear_vectors(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=2, per=5, dim=8)
    q = entries[0].vector
    assert await pair.index.clear_vectors("s1") == 5
    assert {h.session_id for h in await pair.index.query(q, 100)} == {"s0"}
    if pair.shared:  # INDEXED messages of that session become CLEARED (not SKIPPED)
        states = await pair.store.index_states([e.message_id for e in entries])
        assert [states[e.message_id] for e in entries] == [IndexState.INDEXED] * 5 + [
            IndexState.CLEARED] * 5
    assert await pair.index.clear_vectors("nope") == 0
    assert await pair.index.clear_vectors() == 5
    assert await pair.index.query(q, 100) == []
    assert await pair.index.count_by_model() == {}
    if pair.shared:
        stats = await pair.store.stats()
        assert (stats.skipped, stats.cleared) == (0, 10)



async def test_storage_moves_vectors_full_text_and_states_together(pair: Pair) -> None:
    """Through :class:`Storage`, every backend (a separate index too) gives the same
    vector counts, full-text matches and index states after deletes and clears."""
    s = pair.storage
    msgs = await pair.store.append([Message(session_id=f"s{i % 2}", content=f"harbour {i}",
                                            ts=1000 + i) for i in range(6)])
    await s.write_entries([entry(m, v, text=m.content)
                           for m, v in zip(msgs, unit_vectors(6, 8, 5))])
    assert dict((await s.stats()).vectors_by_model) == await s.count_by_model() == {
        "test:m": 6}
    lexical = s.lexical
    assert lexical is not None  # every store here keeps the full text (X1)

    async def matches() -> set[str | None]:
        return {h.message_id for h in await lexical.lexical_query("harbour", 100)}

    assert await matches() == {m.id for m in msgs}
    assert await s.delete_vectors([msgs[0].id or ""]) == 1
    assert await matches() == {m.id for m in msgs[1:]}
    assert await s.clear_vectors("s1") == 3
    assert await matches() == {msgs[2].id, msgs[4].id}
    states = await pair.store.index_states([m.id or "" for m in msgs[1:]])
    cleared, indexed = IndexState.CLEARED, IndexState.INDEXED
    assert [states[m.id or ""] for m in msgs[1:]] == [cleared, indexed] * 2 + [cleared]
    assert dict((await s.stats()).vectors_by_model) == {"test:m": 2}
    assert await s.clear_vectors() == 2
    assert await matches() == set()
    states = await pair.store.index_states([m.id or "" for m in msgs[1:]])
    assert {states[m.id or ""] for m in msgs[1:]} == {cleared}

async def test_update_session_snapshot_sets_session_fields_in_place(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=3, per=6, dim=8)
    q = entries[0].vector
    before = await pair.index.query(q, 100)
    snap = SessionSnapshot("s0", origin_platform="qq", resource_id="r9",
                           metadata={"team": "z", "deep": {"n": 1}})
    assert await pair.index.update_session_snapshot([snap]) == 6
    assert await pair.index.update_session_snapshot([snap]) == 6  # idempotent
    assert await pair.index.update_session_snapshot([SessionSnapshot("nope")]) == 0
    assert await pair.index.update_session_snapshot([]) == 0
    # every filter field reads the new values; nothing else moved
    for where in ({"resource_id": "r9"}, {"origin_platform": "qq"}, {"meta.team": "z"},
                  {"meta.deep.n": {"$gte": 1}}):
        assert sorted(await ids(pair.index, q, 100, where)) == sorted(
            e.message_id for e in entries if e.session_id == "s0"), where
    assert await ids(pair.index, q, 100, {"meta.team": "t0"}) == [
        e.message_id for e in sorted(entries, key=lambda e: -float(np.dot(e.vector, q)))
        if e.session_id == "s2"]  # s0 had t0 too: its old metadata is gone, not merged
    after = await pair.index.query(q, 100)
    assert [(h.message_id, round(h.score, 5)) for h in after] == [
        (h.message_id, round(h.score, 5)) for h in before]  # vectors untouched
    scanned = {e.message_id: e for e in await pair.index.scan_vectors(None, 100)}
    for e in entries:
        got = scanned[e.message_id]
        assert (got.platform, dict(got.message_metadata)) == (e.platform,
                                                              dict(e.message_metadata))
        if e.session_id == "s0":
            assert (got.origin_platform, got.resource_id, dict(got.session_metadata)) == (
                "qq", "r9", {"team": "z", "deep": {"n": 1}})
        else:
            assert (got.origin_platform, got.resource_id, dict(got.session_metadata)) == (
                e.origin_platform, e.resource_id, dict(e.session_metadata))


async def test_descendant_sessions_and_sql_upsert_moves_the_vectors(pair: Pair) -> None:
    await pair.store.append([Message(session_id=s, content=s, ts=1, id=f"m-{s}")
                             for s in ("root", "child", "grand", "other")])
    for sess in (Session(id="child", parent_id="root"),
                 Session(id="grand", parent_id="child", resource_id="own"),
                 Session(id="loop-a", parent_id="loop-b"),
                 Session(id="loop-b", parent_id="loop-a")):
        await pair.store.upsert_session(sess)
    assert await pair.store.descendant_sessions("root") == ["child", "grand"]
    assert await pair.store.descendant_sessions("grand") == []
    assert await pair.store.descendant_sessions("loop-a") == ["loop-b"]  # a cycle ends
    vecs = unit_vectors(4, 8, 5)
    msgs = await pair.store.get([f"m-{s}" for s in ("root", "child", "grand", "other")])
    await pair.index_entries([entry(m, v) for m, v in zip(msgs.values(), vecs)])
    await pair.store.upsert_session(Session(id="root", origin_platform="qq",
                                            resource_id="r1", metadata={"k": 1}))
    if not pair.shared:
        return  # a separate index is moved by Memory.upsert_session (test_session_snapshots)
    got = {e.session_id: e for e in await pair.index.scan_vectors(None, 10)}
    assert {s: (e.origin_platform, e.resource_id, dict(e.session_metadata))
            for s, e in got.items()} == {
        "root": ("qq", "r1", {"k": 1}), "child": ("qq", "r1", {}),
        "grand": ("qq", "own", {}), "other": (None, None, {})}
    # metadata alone: the session's own entries only
    await pair.store.upsert_session(Session(id="child", parent_id="root", metadata={"c": 2}))
    got = {e.session_id: e for e in await pair.index.scan_vectors(None, 10)}
    assert dict(got["child"].session_metadata) == {"c": 2}
    assert (got["grand"].origin_platform, dict(got["grand"].session_metadata)) == ("qq", {})


async def test_scan_vectors_pages_by_message_id(pair: Pair) -> None:
    msgs = await pair.store.append([Message(session_id=f"s{i % 2}", content=f"c{i}", ts=i,
                                            id=f"v{(i * 7) % 13:02d}") for i in range(13)])
    vecs = unit_vectors(13, 8, 4)
    entries = [entry(m, v, platform="qq", speaker_id=f"u{i}", mentions=("a", "b"),
                     resource_id="r", origin_platform="tg",
                     session_metadata={"k": [1, {"x": None}]}, message_metadata={"m": i})
               for i, (m, v) in enumerate(zip(msgs, vecs))]
    await pair.index_entries(entries)
    seen: list[VectorEntry] = []
    after: str | None = None
    while True:
        page = await pair.index.scan_vectors(after, 5)
        if not page:
            break
        seen += page
        after = page[-1].message_id
    assert [e.message_id for e in seen] == sorted(e.message_id for e in entries)
    by_id = {e.message_id: e for e in entries}
    for got in seen:
        want = by_id[got.message_id]
        np.testing.assert_allclose(got.vector, want.vector, rtol=1e-6)
        for name in ("session_id", "ts", "role", "model_id", "platform", "speaker_id",
                     "mentions", "resource_id", "origin_platform", "session_metadata",
                     "message_metadata"):
            assert getattr(got, name) == getattr(want, name), name


# --------------------------------------------------------------------------- lexical index


def lexical(p: Pair) -> LexicalIndex:
    """The pair's full-text index: the message store (every store here keeps one)."""
    assert isinstance(p.store, LexicalIndex)
    return p.store


async def lexical_ids(p: Pair, text: str, where: Mapping[str, Any] | None = None,
                      k: int = 10) -> list[str]:
    return [h.message_id for h in await lexical(p).lexical_query(text, k, where)]


async def text_corpus(p: Pair, session: str, texts: list[str], *, ts0: int = 1000,
                      meta: Mapping[str, Any] | None = None) -> list[Message]:
    """Messages indexed as the indexer does: vectors, plus the store's full-text rows
    when the vectors live in a separate index."""
    stored = await p.store.append([Message(session_id=session, content=t, ts=ts0 + i,
                                           role="user" if i % 2 == 0 else "assistant")
                                   for i, t in enumerate(texts)])
    vecs = unit_vectors(len(stored), 8, ts0)
    entries = [entry(m, v, text=m.content, session_metadata=dict(meta or {}),
                     message_metadata={"i": i})
               for i, (m, v) in enumerate(zip(stored, vecs))]
    await p.index_entries(entries)
    if not p.shared:
        await lexical(p).upsert_lexical(entries)
    return stored


async def test_every_store_is_a_lexical_index(pair: Pair) -> None:
    assert isinstance(pair.store, LexicalIndex)


async def test_lexical_query_finds_the_text_under_filters(pair: Pair) -> None:
    a, b = await text_corpus(pair, "s", ["下周三我过生日", "今天加班到很晚"])
    hits = await lexical(pair).lexical_query("谁过生日", 10)
    assert [h.message_id for h in hits] == [a.id]
    assert 0 < hits[0].score <= 1 and hits[0].model_id == "test:m"
    assert (hits[0].session_id, hits[0].ts, hits[0].role) == ("s", a.ts, "user")
    assert await lexical_ids(pair, "加班") == [b.id]
    assert await lexical_ids(pair, "") == [] and await lexical_ids(pair, "！？") == []
    assert await lexical(pair).lexical_query("生日", 0) == []
    c, c2 = await text_corpus(pair, "s1", ["明天去医院复查", "复查结果正常"], meta={"team": "a"})
    d, d2 = await text_corpus(pair, "s2", ["医院排队太久了", "复查要空腹"], meta={"team": "b"})
    assert set(await lexical_ids(pair, "医院", {"session_id": "s1"})) == {c.id}
    assert set(await lexical_ids(pair, "医院", {"meta.team": "b"})) == {d.id}
    assert await lexical_ids(pair, "医院", {"session_id": "nobody"}) == []
    both = await lexical_ids(pair, "医院", {"$or": [{"session_id": "s1"}, {"session_id": "s2"}]})
    assert set(both) == {c.id, d.id}
    assert set(await lexical_ids(pair, "复查", {"message.i": 1})) == {c2.id, d2.id}
    assert set(await lexical_ids(pair, "复查", {"role": "user"})) == {c.id}
    # the filter is applied before the k best are taken: a narrow scope still gets k hits
    await text_corpus(pair, "s3", [f"医院通知{i}号" for i in range(30)], ts0=5000)
    narrow = await lexical(pair).lexical_query("医院", 3, {"session_id": "s1"})
    assert [h.message_id for h in narrow] == [c.id]
    assert len(await lexical(pair).lexical_query("医院", 5, {"session_id": "s3"})) == 5
    for bad in ({"content": "x"}, {"role": {"$regex": "u"}}, {INJECTION: 1}):
        with pytest.raises(FilterError):
            await lexical(pair).lexical_query("医院", 5, bad)


async def test_upsert_delete_and_clear_lexical(pair: Pair) -> None:
    """Full-text rows of entries whose vectors live elsewhere: kept by the store, with
    the entry's filter fields."""
    lex = lexical(pair)
    msgs = await pair.store.append([Message(session_id="s1", content="护照放在书房抽屉"),
                                    Message(session_id="s2", content="护照快过期了")])
    vecs = unit_vectors(2, 8, 1)

    def lex_entry(i: int, text: str | None = None, **kw: Any) -> VectorEntry:
        m = msgs[i]
        return entry(m, vecs[i], text=m.content if text is None else text, **kw)

    await pair.store.upsert_session(Session(id="s1", metadata={"k": 1}))
    await lex.upsert_lexical([lex_entry(i, session_metadata={"k": i}) for i in range(2)])
    assert len(await lexical_ids(pair, "护照")) == 2
    assert await lexical_ids(pair, "护照", {"session_id": "s2"}) == [msgs[1].id]
    assert await lexical_ids(pair, "护照", {"meta.k": 0}) == [msgs[0].id]
    await lex.upsert_lexical([lex_entry(0, text="钥匙在门口")])  # re-index by id
    assert await lexical_ids(pair, "护照") == [msgs[1].id]
    assert await lex.delete_lexical([msgs[1].id]) == 1  # type: ignore[list-item]
    assert await lex.delete_lexical(["missing"]) == 0
    assert await lexical_ids(pair, "护照") == []
    assert await lex.clear_lexical("s1") == 1
    assert await lexical_ids(pair, "钥匙") == []
    await lex.upsert_lexical([lex_entry(0), lex_entry(1)])
    assert await lex.clear_lexical() == 2
    assert await lexical_ids(pair, "护照") == []
    await lex.upsert_lexical([])
    if pair.shared:  # a vector upsert for the same message takes over: one hit
        await lex.upsert_lexical([lex_entry(0)])
        await pair.index.upsert([lex_entry(0)])
        assert await lexical_ids(pair, "护照") == [msgs[0].id]


async def test_lexical_scores_agree_across_backends(tmp_path: Path) -> None:
    texts = ["下周三我过生日", "今天加班到很晚", "生日蛋糕订好了吗", "Alex booked the flight",
             "the flights to Tokyo were delayed", "3月27号上线，版本3.2"]
    scores: dict[str, list[list[float]]] = {}
    for name in NAMES:
        async with open_pair(name, tmp_path) as p:
            await text_corpus(p, "s", texts)
            scores[name] = [[round(h.score, 6) for h in await lexical(p).lexical_query(q, 5)]
                            for q in ("谁过生日", "flight delayed", "3.2版本几号上线")]
    reference = scores["sqlite"]
    assert all(reference[i] for i in range(3))
    assert all(got == reference for got in scores.values()), scores


# --------------------------------------------------------------------------- pending full text (X1)

PENDING_SESSIONS = [
    Session(id="p-root", origin_platform="qq", resource_id="tenant", metadata={"team": "a"}),
    Session(id="p-child", parent_id="p-root", metadata={"team": "b"}),
    Session(id="p-other", origin_platform="tg", resource_id="bob"),
]
#: Filters over every field of the entry filter document (models.filter_document).
PENDING_WHERES: list[dict[str, Any] | None] = [
    None, {"session_id": "p-child"}, {"session_id": {"$in": ["p-root", "p-other"]}},
    {"origin_platform": "qq"}, {"resource_id": "tenant"}, {"meta.team": "b"},
    {"speaker_id": "u1"}, {"platform": "web"}, {"role": "assistant"}, {"ts": {"$gte": 11}},
    {"message.n": {"$in": [1, 3]}}, {"model_id": PENDING_MODEL},
    {"$or": [{"session_id": "p-other"}, {"meta.team": "a"}]}, {"role": {"$ne": "user"}},
]


async def pending_world(p: Pair) -> list[Message]:
    """Sessions (a child inherits its root's origin platform and resource id) and
    messages appended but never embedded: three indexable, two stored only."""
    for session in PENDING_SESSIONS:
        await p.store.upsert_session(session)
    return await p.store.append([
        Message(session_id="p-root", content="the zephyr kite is blue", ts=10, speaker_id="u1",
                mentions=("u2",), platform="qq", metadata={"n": 1}),
        Message(session_id="p-child", content="zephyr kite repaired", ts=11, role="assistant",
                speaker_id="mem", platform="web", metadata={"n": 2}),
        Message(session_id="p-other", content="a zephyr kite for sale", ts=12, speaker_id="u3",
                metadata={"n": 3}),
        Message(session_id="p-other", content="zephyr kite tool output", ts=13, role="tool"),
        Message(session_id="p-other", content="zephyr kite news", ts=14, source="scheduler"),
    ])


async def entries_as_indexed(p: Pair, msgs: list[Message], model_id: str | None
                             ) -> list[VectorEntry]:
    """The entries the indexer writes for these messages (``model_id`` None: the pending
    entries, which carry no vector)."""
    sessions = await snapshot_sessions(p.store, {m.session_id for m in msgs})
    vecs = unit_vectors(len(msgs), 8, 3)
    return [vector_entry(m, sessions.get(m.session_id), None if model_id is None else v,
                         model_id or PENDING_MODEL) for m, v in zip(msgs, vecs)]


async def test_pending_messages_are_found_by_full_text_as_their_entries(pair: Pair) -> None:
    """X1: an indexable message is found by full text as soon as it is appended, under
    exactly the filters its vector entry will answer to; when the vector is written,
    the hit becomes the indexed one (no duplicate, no stale field)."""
    msgs = await pending_world(pair)
    waiting = msgs[:3]
    docs = {e.message_id: filter_document(e) for e in await entries_as_indexed(
        pair, waiting, None)}
    for where in PENDING_WHERES:
        hits = await lexical(pair).lexical_query("zephyr kite", 10, where)
        want = {mid for mid, d in docs.items() if evaluate(where or {}, d)}
        assert {h.message_id for h in hits} == want, where
        assert len(hits) == len(want), where
        assert all(h.model_id == PENDING_MODEL for h in hits)
    by_id = {h.message_id: h for h in await lexical(pair).lexical_query("zephyr", 10)}
    assert [(by_id[m.id].session_id, by_id[m.id].ts, by_id[m.id].role)  # type: ignore[index]
            for m in waiting] == [(m.session_id, m.ts, m.role) for m in waiting]
    await pair.index_entries(await entries_as_indexed(pair, waiting[:2], "test:m"))
    for where in PENDING_WHERES:
        hits = await lexical(pair).lexical_query("zephyr kite", 10, where)
        want = {mid for mid, d in docs.items() if evaluate(where or {}, d)
                and (mid == waiting[2].id or where != {"model_id": PENDING_MODEL})}
        assert sorted(h.message_id for h in hits) == sorted(want), where
        assert {h.message_id: h.model_id for h in hits} == {
            mid: PENDING_MODEL if mid == waiting[2].id else "test:m" for mid in want}
    await pair.index_entries(await entries_as_indexed(pair, waiting[2:], "test:m"))
    assert await lexical_ids(pair, "zephyr", {"model_id": PENDING_MODEL}) == []
    assert len(await lexical_ids(pair, "zephyr")) == 3


async def test_pending_entries_follow_their_messages(pair: Pair) -> None:
    """Rewrites, session changes, index states, clears and deletes move a pending
    full-text entry as they would move the message's vector entry."""
    root, child, other = (await pending_world(pair))[:3]
    assert set(await lexical_ids(pair, "zephyr")) == {root.id, child.id, other.id}
    await pair.store.rewrite("p-root", 10, content="the aurora kite is blue", metadata={"n": 9})
    assert await lexical_ids(pair, "aurora") == [root.id]
    assert set(await lexical_ids(pair, "zephyr")) == {child.id, other.id}
    assert await lexical_ids(pair, "kite", {"message.n": 9}) == [root.id]
    # a session change reaches the entries of the session and of its descendants
    await pair.storage.upsert_session(Session(id="p-root", origin_platform="tg",
                                              resource_id="tenant", metadata={"team": "z"}))
    assert set(await lexical_ids(pair, "kite", {"origin_platform": "tg"})) == {
        root.id, child.id, other.id}
    assert await lexical_ids(pair, "kite", {"meta.team": "z"}) == [root.id]
    assert await lexical_ids(pair, "kite", {"meta.team": "b"}) == [child.id]
    # index states: out of the waiting states, the entry goes; back in, it comes back
    await pair.store.set_index_state([other.id], IndexState.CLEARED)
    assert set(await lexical_ids(pair, "kite")) == {root.id, child.id}
    await pair.store.set_index_state([other.id], IndexState.FAILED)
    assert set(await lexical_ids(pair, "kite")) == {root.id, child.id, other.id}
    assert await pair.store.reset_index_state(IndexState.PENDING, IndexState.CLEARED,
                                              "p-child") == 1
    assert await lexical_ids(pair, "repaired") == []
    await pair.store.reset_index_state(IndexState.CLEARED, IndexState.PENDING, "p-child")
    assert await lexical_ids(pair, "repaired", {"origin_platform": "tg"}) == [child.id]
    # clearing vectors and indexed full text leaves the waiting messages findable
    assert await pair.storage.clear_vectors() == 0
    assert await lexical(pair).clear_lexical() == 0
    assert await lexical(pair).clear_lexical("p-other") == 0
    assert set(await lexical_ids(pair, "kite")) == {root.id, child.id, other.id}
    assert await pair.store.delete_messages([child.id]) == 1  # type: ignore[list-item]
    assert await pair.store.clear_messages("p-other") == 3
    assert await lexical_ids(pair, "kite") == [root.id]
    assert await pair.store.clear_messages() == 1
    assert await lexical_ids(pair, "kite") == []


async def test_a_vector_written_after_a_rewrite_takes_the_new_text(pair: Pair) -> None:
    """The vector of a message rewritten while it waited carries the new text; its
    full-text row follows it, and a vector made from the old text (the indexer's copy
    predates the rewrite) brings the old text back with it, as before."""
    [m] = await pair.store.append([Message(session_id="s", content="old walrus", ts=1)])
    new = await pair.store.rewrite("s", 1, content="new narwhal")
    assert new is not None
    await pair.index_entries(await entries_as_indexed(pair, [new], "test:m"))
    assert [(h.message_id, h.model_id) for h in await lexical(pair).lexical_query(
        "narwhal walrus", 10)] == [(m.id, "test:m")]
    assert await lexical_ids(pair, "walrus") == []
    await pair.index_entries(await entries_as_indexed(pair, [m], "test:m"))
    assert await lexical_ids(pair, "walrus") == [m.id]
    assert await lexical_ids(pair, "narwhal") == []


async def test_a_vector_of_the_old_text_never_lands_after_a_rewrite(pair: Pair) -> None:
    """F3, R5: ``current_only`` (the indexer's writes, rewrites) skips an entry embedded
    from text its message no longer has; the message keeps waiting for its new vector."""
    [m] = await pair.store.append([Message(session_id="s", content="old walrus", ts=1)])
    [old] = await entries_as_indexed(pair, [m], "test:m")
    new = await pair.store.rewrite("s", 1, content="new narwhal")
    assert new is not None and m.id is not None
    assert (await pair.store.claim("p1", [m.id], 60_000)).ids == [m.id]
    await pair.storage.write_entries([old], current_only=True, owner="p1")
    assert (await pair.store.index_states([m.id]))[m.id] == IndexState.PENDING
    # the writer's lease is over: the new text is another's to embed
    assert (await pair.store.claim("p2", [m.id], 60_000)).ids == [m.id]
    assert await pair.storage.count_by_model() == {}
    assert await lexical_ids(pair, "walrus") == []
    await pair.storage.write_entries(await entries_as_indexed(pair, [new], "test:m"),
                                     current_only=True)
    assert (await pair.store.index_states([m.id]))[m.id] == IndexState.INDEXED
    assert await pair.storage.count_by_model() == {"test:m": 1}
    assert await lexical_ids(pair, "narwhal") == [m.id]


async def test_a_vector_of_the_old_metadata_never_lands_after_a_rewrite(pair: Pair) -> None:
    """F3, R5: a rewrite of the metadata alone (text unchanged) while the message waits,
    its batch in flight elsewhere: that batch's entry carries the old metadata, and
    ``current_only`` skipped only entries of another text, so the vector landed with
    metadata the message no longer has (filters on ``message.*`` answered by it). Now
    it is left out like a vector of old text; the entry of the new version lands."""
    [m] = await pair.store.append([Message(session_id="s", content="kite", ts=1,
                                           metadata={"tag": "draft"})])
    [old] = await entries_as_indexed(pair, [m], "test:m")
    new = await pair.store.rewrite("s", 1, metadata={"tag": "final"})
    assert new is not None and m.id is not None and new.content == m.content
    await pair.storage.write_entries([old], current_only=True)
    assert (await pair.store.index_states([m.id]))[m.id] == IndexState.PENDING
    assert await pair.storage.count_by_model() == {}
    [entry] = await entries_as_indexed(pair, [new], "test:m")
    await pair.storage.write_entries([entry], current_only=True)
    assert (await pair.store.index_states([m.id]))[m.id] == IndexState.INDEXED
    assert await ids(pair.index, entry.vector, 5, {"message.tag": "final"}) == [m.id]
    assert await ids(pair.index, entry.vector, 5, {"message.tag": "draft"}) == []
    # metadata equal as JSON stores it (a tuple read back as a list) is the same version
    [t] = await pair.store.append([Message(session_id="s", content="kite", ts=2,
                                           metadata={"pair": (1, 2)})])
    assert t.id is not None
    await pair.storage.write_entries(await entries_as_indexed(pair, [t], "test:m"),
                                     current_only=True)
    assert (await pair.store.index_states([t.id]))[t.id] == IndexState.INDEXED


async def test_rewrite_entry_replaces_the_vector_without_a_gap(pair: Pair) -> None:
    """F3: a rewritten message's vector is replaced by one write by message id, then a
    delete of what another id left under its position. It was a delete by position, then
    the write: a recall in between found neither vector, and a write refused for its
    width (another width of the model landed since the check) or left out as stale left
    the message with no vector at all until its next rewrite or re-index."""
    if not pair.index.supports_delete_by_filter:
        pytest.skip("rewrites need delete by filter")
    msgs = await pair.store.append([Message(session_id="s", content="old walrus", ts=1),
                                    Message(session_id="s", content="kite", ts=2)])
    first = await entries_as_indexed(pair, msgs, "test:m")
    await pair.storage.write_entries(first)
    m = msgs[0]
    assert m.id is not None
    new = await pair.store.rewrite("s", 1, content="new narwhal")
    assert new is not None
    [fresh] = await entries_as_indexed(pair, [new], "test:m")
    # refused for its width: the old vector stays, found as before
    wide = replace(fresh, vector=unit_vectors(1, 12, 9)[0])
    with pytest.raises(WidthConflict):
        await pair.storage.rewrite_entry(wide, one_width=OneWidth())
    assert await ids(pair.index, first[0].vector, 1) == [m.id]
    assert await pair.storage.count_by_model() == {"test:m": 2}
    # left out as stale (rewritten again since): the old vector stays for the next one
    newer = await pair.store.rewrite("s", 1, content="newer heron")
    assert newer is not None
    await pair.storage.rewrite_entry(fresh, one_width=OneWidth())
    assert await ids(pair.index, first[0].vector, 1) == [m.id]
    assert await pair.storage.count_by_model() == {"test:m": 2}
    # replaced: one vector, the new one, with its full text
    [latest] = await entries_as_indexed(pair, [newer], "test:m")
    latest = replace(latest, vector=unit_vectors(1, 8, 10)[0])
    await pair.storage.rewrite_entry(latest, one_width=OneWidth())
    assert (await pair.index.query(latest.vector, 1))[0].score > 0.99
    assert await pair.storage.count_by_model() == {"test:m": 2}
    assert await lexical_ids(pair, "heron") == [m.id]
    assert await lexical_ids(pair, "walrus narwhal") == []
    if pair.shared:
        return
    # beside a separate index, a point another id left under the position goes
    await pair.index.upsert([replace(first[1], message_id="left-over", ts=1)])
    assert await pair.storage.count_by_model() == {"test:m": 3}
    await pair.storage.rewrite_entry(latest)
    assert await pair.storage.count_by_model() == {"test:m": 2}
    assert "left-over" not in await ids(pair.index, first[1].vector, 5)


async def test_a_stale_write_ends_only_the_writers_own_lease(pair: Pair) -> None:
    """R5: indexer p1's lease ran out while it embedded the old text, the message was
    rewritten, and p2 took it over to embed the new text. p1's write, left out as stale,
    ended p2's lease too (any owner's): a third indexer took the message while p2
    still embedded it, so it was embedded twice. Now a stale write ends only its own
    writer's lease; a write without an owner (a rewrite's) ends none."""
    st = pair.store
    [m] = await st.append([Message(session_id="s", content="old walrus", ts=1)])
    assert m.id is not None
    [old] = await entries_as_indexed(pair, [m], "test:m")
    assert (await st.claim("p1", [m.id], 1)).ids == [m.id]
    assert await st.rewrite("s", 1, content="new narwhal") is not None
    await asyncio.sleep(0.05)  # p1's lease runs out
    assert (await st.claim("p2", [m.id], 60_000)).ids == [m.id]  # taken over
    for writer in ("p1", None):
        await pair.storage.write_entries([old], current_only=True, owner=writer)
        assert (await st.index_states([m.id]))[m.id] == IndexState.PENDING
        third = await st.claim("p3", [m.id], 60_000)
        assert third.ids == [] and third.held_ms is not None and third.held_ms > 50_000
        assert [x.id for x in await st.pending(10, owner="p3")] == []
    # p2 read the old text too (its write is stale as well): its own lease ends
    await pair.storage.write_entries([old], current_only=True, owner="p2")
    assert (await st.claim("p3", [m.id], 60_000)).ids == [m.id]
    assert await pair.storage.count_by_model() == {}


async def test_claims_lease_waiting_messages_to_one_owner(pair: Pair) -> None:
    """R5: a waiting message is leased to one owner at a time; its owner renews it by
    claiming again, releases it, or loses it when the lease runs out; a written vector
    ends it; messages not waiting (indexed, skipped, unknown) are never claimed."""
    st = pair.store
    a, b, _, tool = await st.append([
        *(Message(session_id="s", content=f"lease {x}", ts=i, id=x)
          for i, x in enumerate("abc")),
        Message(session_id="s", content="tool output", ts=9, id="t", role="tool")])
    got = await st.claim("p1", ["a", "b", "t", "missing"], 60_000)
    assert (got.ids, got.held_ms) == (["a", "b"], None)
    # a sweep of another owner leaves out what p1 holds; a flush (no owner) sees all
    assert [m.id for m in await st.pending(10, owner="p2")] == ["c"]
    assert [m.id for m in await st.pending(10, owner="p1")] == ["a", "b", "c"]
    assert [m.id for m in await st.pending(10)] == ["a", "b", "c"]
    other = await st.claim("p2", ["b", "a", "c"], 60_000)
    assert other.ids == ["c"] and other.held_ms is not None
    assert 50_000 < other.held_ms <= 60_000
    assert (await st.claim("p1", ["b"], 60_000)).ids == ["b"]  # renewed by its owner
    assert await st.release_claims("p2", ["a", "b"]) == 0  # not p2's
    assert await st.release_claims("p1", ["b"]) == 1
    assert (await st.claim("p2", ["b"], 60_000)).ids == ["b"]
    await pair.index_entries(await entries_as_indexed(pair, [a], "test:m"))
    after = await st.claim("p2", ["a"], 60_000)  # indexed: nothing to claim or wait for
    assert (after.ids, after.held_ms) == ([], None)
    await st.schedule_retries({"c": Retry(1, 0)})  # FAILED still waits: p2 keeps it
    assert (await st.claim("p1", ["c"], 60_000)).ids == []
    assert [m.id for m in await st.due_retries(10, now_ms(), owner="p1")] == []
    assert [m.id for m in await st.due_retries(10, now_ms(), owner="p2")] == ["c"]
    assert (await st.claim("p2", ["c"], 1)).ids == ["c"]  # renewed to a 1 ms lease
    await asyncio.sleep(0.05)
    assert (await st.claim("p1", ["c"], 60_000)).ids == ["c"]  # expired: taken over
    assert (b.id, tool.id) == ("b", "t")


async def test_retry_schedules_are_kept_in_the_store(pair: Pair) -> None:
    """E12: a failed message waits FAILED with its attempts and next due time; due
    retries come soonest first; anything that sets a state starts the schedule over."""
    st = pair.store
    a, _, c, d, tool = await st.append([
        *(Message(session_id="s", content=f"retry me {x}", ts=i, id=x)
          for i, x in enumerate("abcd")),
        Message(session_id="s", content="tool output", ts=9, id="t", role="tool")])
    assert await st.retries(["a", "t", "missing"]) == {"a": Retry(), "t": Retry()}
    assert await st.next_retry_at() is None
    assert await st.schedule_retries({"a": Retry(1, 5000), "b": Retry(3, 2000),
                                      "c": Retry(2, 2000), "t": Retry(1, 1),
                                      "missing": Retry(1, 1)}) == 3
    states = await st.index_states(["a", "b", "c", "d", "t"])
    assert [states[x] for x in "abcdt"] == [IndexState.FAILED] * 3 + [
        IndexState.PENDING, IndexState.SKIPPED]
    assert await st.retries(["a", "b", "c"]) == {"a": Retry(1, 5000), "b": Retry(3, 2000),
                                                 "c": Retry(2, 2000)}
    assert [m.id for m in await st.due_retries(10, 1999)] == []
    assert [m.id for m in await st.due_retries(10, 2000)] == ["b", "c"]
    assert [m.id for m in await st.due_retries(1, 9999)] == ["b"]
    assert [m.id for m in await st.pending(10)] == ["d"]
    assert [m.id for m in await st.pending(10, include_failed=True)] == ["a", "b", "c", "d"]
    assert await st.next_retry_at() == 2000
    s1 = await st.stats()
    assert (s1.failed, s1.pending, s1.next_retry_at) == (3, 1, 2000)
    first = await st.failed_after(0, 2)
    assert [m.id for _, m in first] == ["a", "b"]
    assert [m.id for _, m in await st.failed_after(first[-1][0], 10)] == ["c"]
    # the waiting states keep the message findable by full text
    assert len(await lexical_ids(pair, "retry")) == 4
    await st.set_index_state(["b"], IndexState.PENDING)  # queued again: starts over
    assert (await st.retries(["b"]))["b"] == Retry()
    await pair.index_entries(await entries_as_indexed(pair, [c], "test:m"))
    assert (await st.retries(["c"]))["c"] == Retry()
    assert await st.next_retry_at() == 5000
    assert await st.schedule_retries({"c": Retry(5, 1)}) == 0  # indexed meanwhile: kept
    assert (await st.index_states(["c"]))["c"] == IndexState.INDEXED
    assert await st.reset_index_state(IndexState.FAILED, IndexState.PENDING) == 1
    assert await st.next_retry_at() is None and (await st.retries(["a"]))["a"] == Retry()
    assert (a.id, d.id, tool.id) == ("a", "d", "t")


async def test_retries_are_due_by_the_store_clock(pair: Pair) -> None:
    """E12, R5: the store's clock is the one schedules are written and looked for on
    (processes sharing a store compare no clock of their own): it moves forward, a
    retry set from it is not due by it before its time, and is by then."""
    st = pair.store
    [m] = await st.append([Message(session_id="s", content="retry on time", ts=1, id="r")])
    now = await st.clock_ms()
    assert await st.schedule_retries({"r": Retry(1, now + 60_000)}) == 1
    assert await st.due_retries(10, await st.clock_ms()) == []
    assert [x.id for x in await st.due_retries(10, now + 60_000)] == ["r"]
    assert await st.next_retry_at() == now + 60_000
    assert await st.clock_ms() >= now
    assert m.id == "r"


# --------------------------------------------------------------------------- errors


async def test_bad_filters_raise_filter_error(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=1, per=5, dim=8)
    q = entries[0].vector
    for bad in ({"role": {"$regex": "u"}}, {"content": "x"}, {"meta": 1},
                {"ts": {"$gt": "x"}}, {"$or": []}, {"session_id": {"$in": []}},
                {"meta.a b": 1}, {"session_id": [1, 2]}, {"$nor": [{"role": "user"}]},
                {INJECTION: 1}, {"meta." + INJECTION: 1}):
        with pytest.raises(FilterError):
            await pair.index.query(q, 5, bad)


async def test_closed_store_and_index_raise_store_closed(pair: Pair) -> None:
    entries = await indexed_corpus(pair, sessions=1, per=2, dim=8)
    await pair.store.close()
    if not pair.shared:
        await pair.index.close()
    await pair.store.close()  # twice is fine
    with pytest.raises(StoreClosed):
        await pair.store.get(["x"])
    with pytest.raises(StoreClosed):
        await pair.store.append([Message(session_id="s", content="x")])
    with pytest.raises(StoreClosed):
        await pair.store.stats()
    with pytest.raises(StoreClosed):
        await pair.store.meta_get("a", "b")
    with pytest.raises(StoreClosed):
        await pair.index.query(entries[0].vector, 3)
    with pytest.raises(StoreClosed):
        await pair.index.upsert(entries)
    with pytest.raises(StoreClosed):
        await pair.index.count_by_model()


async def test_injection_is_rejected_as_key_and_inert_as_value(pair: Pair) -> None:
    [m] = await pair.store.append([Message(
        session_id=INJECTION, content=INJECTION, ts=1, id=INJECTION,
        metadata={INJECTION: INJECTION})])
    assert (await pair.store.get([INJECTION]))[INJECTION] == m
    entries = await indexed_corpus(pair, sessions=1, per=4, dim=8)
    inj = entry(m, unit_vectors(1, 8, 8)[0], session_metadata={"k": INJECTION},
                message_metadata={INJECTION: 1})
    await pair.index_entries([inj])
    q = entries[0].vector
    for key in (INJECTION, f"meta.{INJECTION}", f"message.{INJECTION}",
                'x"; DROP TABLE messages; --'):
        with pytest.raises(FilterError):
            await pair.index.query(q, 10, {key: 1})
        with pytest.raises(FilterError):
            await pair.index.query(q, 10, {"$or": [{key: {"$exists": True}}]})
        if pair.index.supports_delete_by_filter:
            with pytest.raises(FilterError):
                await pair.index.delete_by_filter({key: 1})
    for where in ({"session_id": INJECTION}, {"meta.k": INJECTION},
                  {"message_id": {"$in": [INJECTION, "x"]}}, {"meta.k": {"$ne": INJECTION}},
                  {"speaker_id": INJECTION}):
        want = ranked([*entries, inj], q, where)
        assert await ids(pair.index, q, 10, where) == want, where
    # the tables are all still there
    assert len(await ids(pair.index, q, 10)) == 5
    st_ = await pair.store.stats()
    assert st_.messages == 5 and st_.indexed == 5
    assert (await pair.store.get([INJECTION]))[INJECTION] == m
    assert [s.id for s in await pair.store.all_sessions()] == sorted([INJECTION, "s0"])


# --------------------------------------------------------------------------- cross-backend


async def _transcript(p: Pair, scores: list[list[float]]) -> list[Any]:
    """A scripted session whose every answer is recorded (no random ids); the query
    scores go to ``scores``, to be compared with a tolerance."""
    out: list[Any] = []
    st = p.store

    def msg_view(m: Message) -> tuple[Any, ...]:
        return (m.id, m.session_id, m.ts, m.role, m.kind, m.content, m.visible_content,
                m.source, m.speaker_id, m.mentions, m.platform, dict(m.metadata))

    stored = await st.append([
        Message(session_id=f"s{i % 3}", content=f"c{i}", ts=500 + i // 2, id=f"m{i:02d}",
                role=("user", "assistant", "tool", "system")[i % 4],
                kind="divider" if i % 11 == 5 else "message", speaker_id=f"u{i % 4}",
                mentions=(f"u{(i + 1) % 4}",), metadata={"i": i, "odd": bool(i % 2)})
        for i in range(30)])
    out.append([msg_view(m) for m in stored])
    out.append([msg_view(m) for m in await st.append([
        Message(session_id="s0", content="c0", id="m00"),
        Message(session_id="s0", content="late", ts=500, id="m30")])])
    out.append(sorted((k, int(v)) for k, v in (await st.index_states(
        [f"m{i:02d}" for i in range(32)])).items()))
    out.append([msg_view(m) for m in await st.pending(100)])
    out.append([msg_view(m) for m in await st.range("s1", 505, 3, 3)])
    out.append([msg_view(m) for m in await st.recent("s2", 4)])
    rewritten = await st.rewrite("s1", 500, content="changed", metadata={"new": True})
    out.append(None if rewritten is None else msg_view(rewritten))
    # X1, E12: pending full text and retry schedules
    out.append(sorted((h.message_id, h.model_id, h.session_id, h.ts) for h in
                      await lexical(p).lexical_query("changed c4 c9", 10)))
    out.append(await st.schedule_retries({"m08": Retry(2, 700), "m09": Retry(1, 600),
                                          "m02": Retry(1, 1)}))
    out.append([m.id for m in await st.due_retries(10, 650)])
    out.append([m.id for _, m in await st.failed_after(0, 10)])
    out.append(await st.next_retry_at())
    pend = await st.pending(100)
    vecs = unit_vectors(len(pend), 24, 21)
    entries = [entry(m, v, session_metadata={"n": j % 4}, message_metadata=dict(m.metadata))
               for j, (m, v) in enumerate(zip(pend, vecs))]
    await p.index_entries(entries)
    s = await st.stats()
    out.append((s.messages, s.sessions, s.indexed, s.pending, s.failed, s.skipped,
                s.next_retry_at))
    out.append(sorted((h.message_id, h.model_id) for h in
                      await lexical(p).lexical_query("changed c4 c9", 10)))
    q = unit_vectors(1, 24, 5)[0]
    for where in (None, {"session_id": "s1"}, {"meta.n": {"$in": [1, 3]}},
                  {"message.odd": True, "role": "user"}, {"ts": {"$gt": 505}}):
        hits = await p.index.query(q, 7, where)
        out.append([(h.message_id, h.session_id, h.ts, h.role, h.model_id) for h in hits])
        scores.append([h.score for h in hits])
    out.append(await st.delete_messages(["m01", "m04", "zz"]))
    if not p.shared:
        await p.index.delete_vectors(["m01", "m04", "zz"])
    out.append([e.message_id for e in await p.index.scan_vectors("m10", 5)])
    out.append(await p.index.clear_vectors("s2"))
    out.append(sorted(await ids(p.index, q, 100)))
    out.append(await st.clear_messages("s0"))
    out.append([msg_view(m) for _, m, _ in await st.scan_messages(0, 100)])
    out.append([x.id for x in await st.all_sessions()])
    return out


async def test_every_backend_gives_the_same_transcript(tmp_path: Path) -> None:
    transcripts: dict[str, list[Any]] = {}
    scores: dict[str, list[list[float]]] = {}
    for name in NAMES:
        try:
            async with open_pair(name, tmp_path) as p:
                scores[name] = []
                transcripts[name] = await _transcript(p, scores[name])
        except pytest.skip.Exception:
            continue
    assert "sqlite" in transcripts
    reference = transcripts["sqlite"]
    for name, got in transcripts.items():
        for i, (a, b) in enumerate(zip(reference, got)):
            assert b == a, f"{name} differs from sqlite at step {i}"
        assert len(got) == len(reference)
        for a_scores, b_scores in zip(scores["sqlite"], scores[name]):
            assert b_scores == pytest.approx(a_scores, abs=1e-5), name


# --------------------------------------------------------------------------- property

# Small value pools shared by the entries and the filters, so that most generated
# filters select a proper, non-empty subset of the entries.
SCALAR_POOL: list[Any] = ["a", "b", "", -1, 0, 1, 2, 0.5, 1.0, 2.5, True, False, None]
SCALARS = st.sampled_from(SCALAR_POOL)
JSON_VALUES = st.one_of(
    SCALARS, SCALARS, SCALARS,
    st.lists(SCALARS, min_size=1, max_size=2),  # Qdrant cannot tell [] from missing
    st.dictionaries(st.sampled_from(["x", "y"]), SCALARS, max_size=2),
)
META = st.dictionaries(st.sampled_from(["k", "n", "nested"]), JSON_VALUES, max_size=3)
TEXT_VALUE = {
    "session_id": ["s1", "s2", "s3"], "role": ["user", "assistant", None],
    "model_id": ["a", "b", None], "platform": ["qq", "tg", None],
    "origin_platform": ["qq", "tg", None], "speaker_id": ["u1", "u2", None],
    "resource_id": ["r1", None],
}
JSON_FIELDS = ["meta.k", "meta.n", "meta.nested", "meta.nested.x", "meta.missing",
               "message.k", "message.n", "message.nested", "message.nested.y"]
FILTER_FIELDS = [*TEXT_VALUE, "message_id", "ts", *JSON_FIELDS, *JSON_FIELDS]


def _atoms(name: str) -> list[Any]:
    """Values worth comparing ``name`` with: its own, plus a few of other types."""
    if name in TEXT_VALUE:
        return [v for v in TEXT_VALUE[name] if v is not None] + ["zz", 1]
    if name == "message_id":
        return ["e0", "e1", "e2", "e3", "zz"]
    if name == "ts":
        return [-1, 0, 1, 2, 3, 5, 2.5, "a", True]
    return [v for v in SCALAR_POOL if v is not None]


def _condition(name: str) -> st.SearchStrategy[Any]:
    atoms = st.sampled_from(_atoms(name))
    nullable = st.one_of(atoms, st.none())
    numbers = st.sampled_from([-1, 0, 1, 2, 3, 0.5, 1.0, 2.5] if name != "ts"
                              else [-1, 0, 1, 2, 3, 5, 2.5])
    return st.one_of(
        nullable,
        st.fixed_dictionaries({"$eq": nullable}),
        st.fixed_dictionaries({"$ne": nullable}),
        st.dictionaries(st.sampled_from(["$gt", "$gte", "$lt", "$lte"]), numbers,
                        min_size=1, max_size=2),
        st.fixed_dictionaries({"$in": st.lists(atoms, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"$nin": st.lists(atoms, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"$exists": st.booleans()}),
    )


LEAF = st.sampled_from(FILTER_FIELDS).flatmap(
    lambda name: _condition(name).map(lambda cond: {name: cond}))
FILTERS = st.recursive(
    st.one_of(LEAF, LEAF, st.just({})),
    lambda sub: st.one_of(
        st.fixed_dictionaries({"$or": st.lists(sub, min_size=1, max_size=3)}),
        st.fixed_dictionaries({"$and": st.lists(sub, min_size=1, max_size=3)}),
        st.builds(lambda a, b: {**a, **b}, sub, LEAF),
    ),
    max_leaves=5,
)


@st.composite
def entry_specs(draw: st.DrawFn) -> dict[str, Any]:
    spec = {name: draw(st.sampled_from(values)) for name, values in TEXT_VALUE.items()}
    spec["ts"] = draw(st.integers(-1, 5))
    spec["smeta"] = draw(META)
    spec["mmeta"] = draw(META)
    return spec


async def _check_filters(p: Pair, specs: list[dict[str, Any]], filters: list[dict[str, Any]],
                         seed: int) -> None:
    await p.index.clear_vectors()
    await p.store.clear_messages()
    msgs = await p.store.append([Message(session_id=s["session_id"], content=f"c{i}",
                                         id=f"e{i}") for i, s in enumerate(specs)])
    vecs = unit_vectors(len(specs) + 1, 8, seed)
    entries = [VectorEntry(
        message_id=m.id or "", session_id=s["session_id"], ts=s["ts"], role=s["role"],
        model_id=s["model_id"], vector=v, platform=s["platform"], speaker_id=s["speaker_id"],
        resource_id=s["resource_id"], origin_platform=s["origin_platform"],
        session_metadata=s["smeta"], message_metadata=s["mmeta"],
    ) for m, s, v in zip(msgs, specs, vecs)]
    if entries:
        await p.index_entries(entries)
    q = vecs[-1]
    for where in filters:
        want = ranked(entries, q, where)
        got = await ids(p.index, q, len(entries) + 1, where)
        assert got == want, where
    if p.index.supports_delete_by_filter and filters:
        where = filters[0]
        want = ranked(entries, q, where)
        assert await p.index.delete_by_filter(where) == len(want)
        left = set(await ids(p.index, q, len(entries) + 1))
        assert left == {e.message_id for e in entries} - set(want)


@pytest.mark.parametrize("name", NAMES)
def test_filters_select_what_evaluate_selects(name: str, tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    cm = open_pair(name, tmp_path)
    try:
        p = loop.run_until_complete(cm.__aenter__())
    except BaseException:
        loop.close()
        raise
    try:
        @settings(max_examples=100, deadline=None, database=None,
                  suppress_health_check=[HealthCheck.too_slow,
                                         HealthCheck.function_scoped_fixture])
        @given(specs=st.lists(entry_specs(), min_size=5, max_size=20),
               filters=st.lists(FILTERS, min_size=2, max_size=6),
               seed=st.integers(0, 2**16))
        def check(specs: list[dict[str, Any]], filters: list[dict[str, Any]],
                  seed: int) -> None:
            loop.run_until_complete(_check_filters(p, specs, filters, seed))

        check()
    finally:
        loop.run_until_complete(cm.__aexit__(None, None, None))
        loop.close()
