"""Parent chains scoping can read (an audit's findings): a cycle of parents, or a chain
longer than the walk to the root follows, let a session take another platform's root
and recall showed it that platform's messages. Such a parent is refused when a session
is stored; and over random sessions whose parents come in any order (a parent stored
later, one never stored, one that would close a cycle, sessions moved after their
messages), no recall shows a message outside the README's visible set."""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backends import Place, sqlite_place
from chatmem import Memory, Message, Session
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import InvalidInput, ScopeError
from chatmem.store.base import MAX_SESSION_DEPTH
from providers import RecordingProvider
from test_visibility_property import World, effective, returned, root, visible

PLATFORMS = ["qq", "tg", "webui"]
WORDS = ["hike", "map", "book", "cat"]


async def _memory(url: str = "memory://", scope: str = "platform") -> Memory:
    return await Memory.open(url, embedder=Embedder(RecordingProvider(dim=32)),
                             config=Config.load({"scope": scope,
                                                 "indexing": {"concurrency": 1}}))


async def test_a_parent_that_would_make_a_cycle_is_refused_and_changes_nothing() -> None:
    mem = await _memory()
    try:
        await mem.upsert_session(Session(id="a", origin_platform="qq", parent_id="b"))
        with pytest.raises(InvalidInput, match=r"cycle \(b → a → b\)"):
            await mem.upsert_session(Session(id="b", origin_platform="tg", parent_id="a"))
        assert await mem.get_session("b") is None
        # a longer one, closed by moving the root under its own grandchild
        await mem.upsert_session(Session(id="r", origin_platform="qq"))
        await mem.upsert_session(Session(id="c1", parent_id="r"))
        await mem.upsert_session(Session(id="c2", parent_id="c1"))
        with pytest.raises(InvalidInput, match='parent_id "c2" would make a cycle'):
            await mem.upsert_session(Session(id="r", origin_platform="qq", parent_id="c2"))
        assert (await mem.get_session("r")) == Session(id="r", origin_platform="qq")
        # and the tg room's message stays out of the qq session's platform scope
        await mem.add(Message(session_id="tg-room", content="hike plan", platform="tg"))
        await mem.flush(timeout=10)
        for asker in ("a", "c2"):
            assert not (await mem.recall("hike plan", session=asker, platform="tg")).hits
    finally:
        await mem.close()


async def test_a_chain_longer_than_scoping_reads_is_refused() -> None:
    """Before: the 40th sub-task of a qq room took its 9th ancestor as its root, hence
    the turn's entry platform (tg), and saw a tg room's messages."""
    mem = await _memory()
    try:
        await mem.add(Message(session_id="tg-room", content="hike plan", platform="tg"))
        await mem.upsert_session(Session(id="d0", origin_platform="qq"))
        for i in range(1, MAX_SESSION_DEPTH):  # 32 sessions: the walk reaches the root
            await mem.upsert_session(Session(id=f"d{i}", parent_id=f"d{i - 1}"))
        last = f"d{MAX_SESSION_DEPTH - 1}"
        assert (await mem.situation(last, "tg")).current_platform == "qq"
        with pytest.raises(InvalidInput, match="more than 32 sessions"):
            await mem.upsert_session(Session(id="deeper", parent_id=last))
        assert await mem.get_session("deeper") is None
        # the chain below a session counts too: a subtree stored first, attached later
        await mem.upsert_session(Session(id="b0"))
        for i in range(1, 20):
            await mem.upsert_session(Session(id=f"b{i}", parent_id=f"b{i - 1}"))
        with pytest.raises(InvalidInput, match="more than 32 sessions"):
            await mem.upsert_session(Session(id="b0", parent_id="d19"))
        # ... or a child stored before its parent, which then comes with a parent
        await mem.upsert_session(Session(id="x0", parent_id="y"))
        for i in range(1, 20):
            await mem.upsert_session(Session(id=f"x{i}", parent_id=f"x{i - 1}"))
        with pytest.raises(InvalidInput, match="more than 32 sessions"):
            await mem.upsert_session(Session(id="y", parent_id="d19"))
        await mem.upsert_session(Session(id="y", parent_id="d5"))  # 7 + 21: fits
        await mem.flush(timeout=10)
        for asker in (last, "x19"):  # sub-tasks of the qq room, however deep
            situation = await mem.situation(asker, "tg")
            assert (situation.root.id, situation.current_platform) == ("d0", "qq"), asker
            assert not (await mem.recall("hike plan", session=asker, platform="tg",
                                         scope="platform")).hits, asker
        assert (await mem.situation("b19")).root.id == "b0"  # not attached: its own root
    finally:
        await mem.close()


# ------------------------------------------------------------------ property

@st.composite
def plans(draw: st.DrawFn) -> tuple[list[Session], list[Session], list[Message], str]:
    """Sessions upserted in any order, with parents among all of them (a later one, a
    cycle, the session itself), or ``ghost`` (never stored); then some of them again,
    changed (moved to another platform, parent, group); and messages in any of them."""
    n = draw(st.integers(2, 6))
    ids = [f"s{i}" for i in range(n)]

    def session(sid: str) -> Session:
        return Session(
            id=sid, parent_id=draw(st.sampled_from([None, None, "ghost", *ids])),
            origin_platform=draw(st.sampled_from([None, "qq", "tg"])),
            resource_id=draw(st.sampled_from([None, "r1", "r2"])),
            chat_type=draw(st.sampled_from([None, "group"])),
            group_id=draw(st.sampled_from([None, "g1"])))

    first = [session(sid) for sid in draw(st.permutations(ids))]
    later = [session(sid) for sid in draw(st.lists(st.sampled_from(ids), max_size=4))]
    messages = [Message(session_id=draw(st.sampled_from(ids)),
                        content=" ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1,
                                                       max_size=2))),
                        ts=j * 1000, platform=draw(st.sampled_from([None, *PLATFORMS])))
                for j in range(draw(st.integers(1, 8)))]
    return first, later, messages, draw(st.sampled_from(["all", "platform", "resource",
                                                         "session"]))


async def _upsert_all(mem: Memory, sessions: list[Session]) -> None:
    for s in sessions:
        try:
            await mem.upsert_session(s)
        except InvalidInput as exc:  # a cycle (or itself): refused, nothing stored
            assert "cycle" in str(exc) or "itself" in str(exc), exc


async def _check_plan(url: str, first: list[Session], later: list[Session],
                      messages: list[Message], scope: str, asker: str,
                      entry: str | None) -> None:
    mem = await _memory(url, scope)
    try:
        await _upsert_all(mem, first)
        stored = await mem.add(messages)
        await mem.flush(timeout=30)
        await _upsert_all(mem, later)  # moved after their messages were indexed
        sessions = [s for s in [await mem.get_session(f"s{i}") for i in range(6)] if s]
        world = World(sessions, stored, {}, scope)
        by_id = {s.id: s for s in sessions}
        for s in sessions:  # every stored chain ends: no cycle got in
            seen, current = {s.id}, s
            while current.parent_id in by_id:
                current = by_id[current.parent_id]
                assert current.id not in seen, s
                seen.add(current.id)
        base = effective(world, asker, entry)
        assert base == scope
        try:
            result = await mem.recall(" ".join(WORDS), session=asker, platform=entry,
                                      top_k=50, window=2)
        except ScopeError:
            assert scope == "resource" and not (by_id[asker].resource_id
                                                or root(world, asker).resource_id)
            return
        for m in returned(result):
            original = next(x for x in stored if x.id == m.id)
            assert visible(world, asker, entry, scope, original), (scope, original)
        assert {h.message.id for h in result.hits} == {
            m.id for m in stored if visible(world, asker, entry, scope, m)}
    finally:
        await mem.close()


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(plan=plans(), data=st.data())
def test_no_parent_order_or_move_shows_a_message_outside_the_visible_set(
        plan: tuple[list[Session], list[Session], list[Message], str],
        data: st.DataObject) -> None:
    first, later, messages, scope = plan
    asker = data.draw(st.sampled_from(sorted({m.session_id for m in messages})))
    entry = data.draw(st.sampled_from([None, *PLATFORMS]))
    asyncio.run(_check_plan("memory://", first, later, messages, scope, asker, entry))


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(plan=plans(), data=st.data())
def test_the_same_holds_in_a_sqlite_file(
        plan: tuple[list[Session], list[Session], list[Message], str],
        data: st.DataObject) -> None:
    first, later, messages, scope = plan
    asker = data.draw(st.sampled_from(sorted({m.session_id for m in messages})))
    entry = data.draw(st.sampled_from([None, *PLATFORMS]))

    async def run() -> None:
        async with contextlib.AsyncExitStack() as stack:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            place: Place = await stack.enter_async_context(sqlite_place(tmp))
            await _check_plan(place.url, first, later, messages, scope, asker, entry)

    asyncio.run(run())


async def test_a_sessions_page_reads_that_page_not_every_session() -> None:
    """``Memory.sessions`` (``GET /v1/sessions``, the console's Sessions page) read every
    session of the store for each page (100,000 sessions: 0.9 s for a page of 20): it
    now reads the page and the next page's first, in the same order."""
    mem = await Memory.open("memory://", config=Config.load({"semantic_recall": False}))
    try:
        ids = [f"s{i:02d}" for i in range(23)] + ["Z", "é"]
        for sid in ids:
            await mem.upsert_session(Session(id=sid))
        every = mem.store.all_sessions

        async def not_all() -> list[Session]:
            raise AssertionError("every session of the store read")

        mem.store.all_sessions = not_all  # type: ignore[method-assign]
        seen: list[str] = []
        after = None
        while True:
            page = await mem.sessions(limit=7, after=after)
            seen += [s.session.id for s in page.sessions]
            if (after := page.next_after) is None:
                break
        mem.store.all_sessions = every  # type: ignore[method-assign]
        assert seen == [s.id for s in await mem.store.all_sessions()] == sorted(ids)
        assert [s.session.id for s in (await mem.sessions(after="s21")).sessions] == [
            "s22", "é"]
    finally:
        await mem.close()
