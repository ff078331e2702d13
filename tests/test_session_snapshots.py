"""Item 16 of issue 9: a session's scoping fields and metadata reach its vectors.

Each vector entry carries a snapshot of its session (origin platform, resource id,
metadata; a child takes its root's origin platform and, when it has none, its root's
resource id). A session registered or changed after its messages were indexed must be
found under the new ``platform`` / ``resource`` scopes and metadata filters at once, on
every backend (SQL stores update in the session upsert's transaction; a separate Qdrant
index is updated after the store, behind a durable marker).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from backends import BACKENDS
from chatmem import Memory, Message, Session
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.indexing import SNAPSHOT_DIRTY
from chatmem.models import VectorEntry
from chatmem.store.qdrant import QdrantIndex
from providers import RecordingProvider

NOTE = "the spare key of the boathouse is under the green bucket"
QUERY = "where is the spare key of the boathouse?"


async def entries_of(index: Any, session_id: str) -> list[VectorEntry]:
    out: list[VectorEntry] = []
    after = None
    while page := await index.scan_vectors(after, 500):
        out += [e for e in page if e.session_id == session_id]
        after = page[-1].message_id
    return out


async def found(mem: Memory, **kw: Any) -> bool:
    """Whether NOTE is recalled from the asking session ``asker`` under ``kw``."""
    result = await mem.recall(QUERY, session="asker", window=0, top_k=3, **kw)
    return any(h.message.content == NOTE for h in result.hits)


@pytest.fixture(params=[(b, h) for b in sorted(BACKENDS) for h in ("hybrid", "dense")],
                ids=lambda p: f"{p[0]}-{p[1]}")
async def mem(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Memory]:
    backend, mode = request.param
    config = Config.load({"hybrid": {"enabled": mode == "hybrid"}})
    async with BACKENDS[backend](tmp_path) as (store, index):
        m = Memory(store, index, Embedder(RecordingProvider(dim=64)), config)
        try:
            yield m
        finally:
            if m._indexer is not None:
                await m._indexer.stop()


async def test_a_session_registered_after_its_messages_is_seen_by_scopes_and_filters(
        mem: Memory) -> None:
    await mem.upsert_session(Session(id="asker", origin_platform="qq", resource_id="r1"))
    await mem.add([Message(session_id="boat", content=NOTE, ts=1000, speaker_id="u1"),
                   Message(session_id="boat", content="see you at the pier", ts=2000)])
    await mem.flush(timeout=60)
    # not yet registered: no platform, no resource, no metadata
    assert await found(mem, scope="all")
    assert not await found(mem, scope="platform")
    assert not await found(mem, scope="resource")
    assert not await found(mem, scope="all", filter={"club": "sailing"})

    await mem.upsert_session(Session(id="boat", origin_platform="qq", resource_id="r1",
                                     metadata={"club": "sailing", "level": 2}))
    assert await found(mem, scope="platform")
    assert await found(mem, scope="resource")
    assert await found(mem, scope="all", filter={"club": "sailing"})
    assert await found(mem, scope="all", filter={"level": {"$gte": 2}})
    [e, _] = sorted(await entries_of(mem.index, "boat"), key=lambda e: e.ts)
    assert (e.origin_platform, e.resource_id, dict(e.session_metadata)) == (
        "qq", "r1", {"club": "sailing", "level": 2})

    # and it follows every later change, both ways
    await mem.upsert_session(Session(id="boat", origin_platform="tg", resource_id="r2",
                                     metadata={"club": "rowing"}))
    assert not await found(mem, scope="platform")
    assert not await found(mem, scope="resource")
    assert not await found(mem, scope="all", filter={"club": "sailing"})
    assert await found(mem, scope="all", filter={"club": "rowing"})
    # a message with an entry platform of its own keeps it (F9: either one counts)
    await mem.add(Message(session_id="boat", content=NOTE + " (again)", ts=3000,
                          platform="qq"))
    await mem.flush(timeout=60)
    result = await mem.recall(QUERY, session="asker", scope="platform", window=0)
    assert [h.message.content for h in result.hits] == [NOTE + " (again)"]


async def test_a_parent_change_reaches_its_descendants_vectors(mem: Memory) -> None:
    await mem.upsert_session(Session(id="asker", origin_platform="qq", resource_id="r1"))
    await mem.upsert_session(Session(id="task", parent_id="room"))
    await mem.upsert_session(Session(id="subtask", parent_id="task", resource_id="own"))
    await mem.add([Message(session_id="task", content=NOTE, ts=1000),
                   Message(session_id="subtask", content="the bucket is green", ts=1000)])
    await mem.flush(timeout=60)
    assert not await found(mem, scope="platform")

    # the root is registered later: the child takes its origin platform and resource
    await mem.upsert_session(Session(id="room", origin_platform="qq", resource_id="r1",
                                     metadata={"club": "sailing"}))
    assert await found(mem, scope="platform")
    assert await found(mem, scope="resource")
    [task] = await entries_of(mem.index, "task")
    [sub] = await entries_of(mem.index, "subtask")
    assert (task.origin_platform, task.resource_id, dict(task.session_metadata)) == (
        "qq", "r1", {})  # the child's metadata is its own
    assert (sub.origin_platform, sub.resource_id) == ("qq", "own")

    # the root changes platform: every descendant follows
    await mem.upsert_session(Session(id="room", origin_platform="tg", resource_id="r1"))
    assert not await found(mem, scope="platform")
    assert [e.origin_platform for e in [*await entries_of(mem.index, "task"),
                                        *await entries_of(mem.index, "subtask")]] == ["tg"] * 2

    # the child moves to another root
    await mem.upsert_session(Session(id="other-room", origin_platform="qq",
                                     resource_id="r9"))
    await mem.upsert_session(Session(id="task", parent_id="other-room"))
    [task] = await entries_of(mem.index, "task")
    [sub] = await entries_of(mem.index, "subtask")
    assert (task.origin_platform, task.resource_id) == ("qq", "r9")
    assert (sub.origin_platform, sub.resource_id) == ("qq", "own")
    assert await found(mem, scope="platform")
    assert not await found(mem, scope="resource")


async def test_a_parent_stored_after_its_child_with_no_fields_still_reaches_it(
        mem: Memory) -> None:
    """Found by tests/test_visibility_property.py: a child stored before its parent takes
    its own origin platform (its chain ends at the missing parent). When the parent comes
    with no platform, the child's messages must drop it: a thread's platform is its
    root's, and the parent's first upsert changes no field of its own."""
    await mem.upsert_session(Session(id="asker", origin_platform="qq"))
    await mem.add(Message(session_id="thread", content=NOTE, ts=1000))
    await mem.flush(timeout=60)
    await mem.upsert_session(Session(id="thread", parent_id="room", origin_platform="qq"))
    assert await found(mem, scope="platform")  # the chain ends at "thread" for now
    await mem.upsert_session(Session(id="room"))
    [e] = await entries_of(mem.index, "thread")
    assert e.origin_platform is None
    assert not await found(mem, scope="platform")
    assert await found(mem, scope="all")


async def test_an_unchanged_session_writes_nothing_and_indexing_uses_the_new_snapshot(
        mem: Memory) -> None:
    await mem.upsert_session(Session(id="boat", origin_platform="qq", metadata={"a": 1}))
    await mem.add(Message(session_id="boat", content=NOTE, ts=1000))
    await mem.flush(timeout=60)
    # same scoping fields and metadata (only the name changes): the vectors stay as they are
    await mem.upsert_session(Session(id="boat", origin_platform="qq", metadata={"a": 1},
                                     group_name="Boathouse"))
    [e] = await entries_of(mem.index, "boat")
    assert (e.origin_platform, dict(e.session_metadata)) == ("qq", {"a": 1})
    # a message indexed after a change carries the new snapshot
    await mem.upsert_session(Session(id="boat", origin_platform="qq", metadata={"a": 2}))
    await mem.add(Message(session_id="boat", content="pier at noon", ts=2000))
    await mem.flush(timeout=60)
    assert [dict(e.session_metadata) for e in await entries_of(mem.index, "boat")] == [
        {"a": 2}] * 2


async def test_reindex_refreshes_old_snapshots_in_place(mem: Memory) -> None:
    """A store written before snapshots followed sessions: reindex heals it without
    embedding anything."""
    stored = await mem.add([Message(session_id="boat", content=NOTE, ts=1000),
                            Message(session_id="pier", content="pier at noon", ts=1000)])
    await mem.flush(timeout=60)
    await mem.upsert_session(Session(id="boat", origin_platform="qq", metadata={"x": 1}))
    # what an older chatmem left: entries with the snapshot of index time
    old = await entries_of(mem.index, "boat")
    stale = [VectorEntry(**{**e.__dict__, "origin_platform": None, "session_metadata": {}})
             for e in old]
    await mem.index.upsert(stale)  # type: ignore[union-attr]
    if mem.index is not mem.store:  # the store's full-text rows of a separate index too
        await mem.store.upsert_lexical(stale)  # type: ignore[attr-defined]
    assert not await found(mem, scope="all", filter={"x": 1})
    provider = mem.embedder.provider  # type: ignore[union-attr]
    calls = len(provider.calls)
    out = await mem.reindex()
    assert (out["sessions_refreshed"], out["reembedded"]) == (1, 0)
    assert len(provider.calls) == calls
    assert await found(mem, scope="all", filter={"x": 1})
    assert (await mem.reindex())["sessions_refreshed"] == 0
    assert len(stored) == 2


async def test_reindex_reembeds_entries_whose_platform_an_older_chatmem_copied(
        mem: Memory) -> None:
    """Older entries copied the origin platform into ``platform`` when the message had
    none; such a copy would outlive a change of origin, so reindex replaces them."""
    await mem.upsert_session(Session(id="asker", origin_platform="tg"))
    await mem.upsert_session(Session(id="boat", origin_platform="qq"))
    await mem.add(Message(session_id="boat", content=NOTE, ts=1000))
    await mem.flush(timeout=60)
    [e] = await entries_of(mem.index, "boat")
    assert e.platform is None  # the message's own entry platform: none
    await mem.index.upsert([VectorEntry(**{**e.__dict__, "platform": "qq"})])  # type: ignore[union-attr]
    out = await mem.reindex()
    assert (out["stale"], out["reembedded"]) == (1, 1)
    [e] = await entries_of(mem.index, "boat")
    assert e.platform is None
    await mem.upsert_session(Session(id="boat", origin_platform="tg"))
    assert await found(mem, scope="platform")


# --------------------------------------------------------------------------- Qdrant durability


class Unreachable:
    """A Qdrant server that went away: every call fails as the network would."""

    def __getattr__(self, name: str) -> Any:
        async def call(*args: Any, **kwargs: Any) -> Any:
            raise ConnectionRefusedError(111, "Connection refused")

        return call


async def test_a_change_the_separate_index_missed_is_redone_at_the_next_open(
        tmp_path: Path) -> None:
    """A crash between the store's commit and Qdrant's update: the durable marker makes
    the next open bring the points up to date."""
    db = f"sqlite:///{tmp_path / 'messages.db'}"
    vec = f"qdrant+local://{tmp_path / 'qdrant'}"
    async with await Memory.open(db, vector=vec,
                                 embedder=Embedder(RecordingProvider())) as mem:
        await mem.upsert_session(Session(id="asker", origin_platform="qq", resource_id="r1"))
        await mem.add(Message(session_id="boat", content=NOTE, ts=1000))
        await mem.flush(timeout=60)
        # what Memory.upsert_session does, stopped by a crash before Qdrant's update
        await mem.store.meta_set(SNAPSHOT_DIRTY, "boat", "1")
        await mem.store.upsert_session(Session(id="boat", origin_platform="qq",
                                               resource_id="r1"))
        [e] = await entries_of(mem.index, "boat")
        assert e.origin_platform is None
    async with await Memory.open(db, vector=vec,
                                 embedder=Embedder(RecordingProvider())) as mem:
        assert isinstance(mem.index, QdrantIndex)
        await mem.flush(timeout=60)
        [e] = await entries_of(mem.index, "boat")
        assert (e.origin_platform, e.resource_id) == ("qq", "r1")
        assert await found(mem, scope="platform")
        assert await found(mem, scope="resource")
        assert [k for ns, k, _ in await mem.store.meta_items() if ns == SNAPSHOT_DIRTY] == []


async def test_a_failing_index_update_keeps_the_session_and_is_retried(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    db = f"sqlite:///{tmp_path / 'messages.db'}"
    async with await Memory.open(db, vector="qdrant+local://:memory:",
                                 embedder=Embedder(RecordingProvider())) as mem:
        await mem.upsert_session(Session(id="asker", origin_platform="qq"))
        await mem.add(Message(session_id="boat", content=NOTE, ts=1000))
        await mem.flush(timeout=60)
        index = mem.index
        assert isinstance(index, QdrantIndex)
        client = index._client
        index._client = Unreachable()  # type: ignore[assignment]
        try:
            stored = await mem.upsert_session(Session(id="boat", origin_platform="qq"))
        finally:
            index._client = client
        assert stored.origin_platform == "qq"
        assert "do not show the change yet" in caplog.text
        assert (await mem.store.get_sessions(["boat"]))["boat"].origin_platform == "qq"
        assert [k for ns, k, _ in await mem.store.meta_items() if ns == SNAPSHOT_DIRTY] == [
            "boat"]
        await mem.flush(timeout=60)  # the retry
        assert await found(mem, scope="platform")
        assert [k for ns, k, _ in await mem.store.meta_items() if ns == SNAPSHOT_DIRTY] == []


# --------------------------------------------------------------------------- SQL atomicity


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_sql_session_upsert_and_vector_update_commit_together(backend: str,
                                                                    tmp_path: Path) -> None:
    """A failing vector update (a real trigger of the database) rolls the session back."""
    from chatmem.errors import StoreError

    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider()))
        try:
            await mem.upsert_session(Session(id="boat", metadata={"v": 1}))
            await mem.add(Message(session_id="boat", content=NOTE, ts=1000))
            await mem.flush(timeout=60)
            if backend == "sqlite":
                await store._run(store.conn.execute,
                                 "CREATE TRIGGER no_update BEFORE UPDATE ON vectors "
                                 "BEGIN SELECT RAISE(ABORT, 'disk full'); END")
            else:
                async with store._conn() as conn:
                    await conn.execute(
                        "CREATE FUNCTION no_update() RETURNS trigger LANGUAGE plpgsql AS "
                        "$$ BEGIN RAISE EXCEPTION 'disk full'; END $$")
                    await conn.execute("CREATE TRIGGER no_update BEFORE UPDATE ON vectors "
                                       "FOR EACH ROW EXECUTE FUNCTION no_update()")
            with pytest.raises(StoreError, match="disk full"):
                await mem.upsert_session(Session(id="boat", metadata={"v": 2}))
            assert dict((await store.get_sessions(["boat"]))["boat"].metadata) == {"v": 1}
            [e] = await entries_of(index, "boat")
            assert dict(e.session_metadata) == {"v": 1}
        finally:
            if mem._indexer is not None:
                await mem._indexer.stop()
