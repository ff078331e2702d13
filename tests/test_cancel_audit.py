"""Cancellation and shutdown (helper audit): calls cancelled part way, and calls still
running when the memory closes, leave the store consistent and end with a chatmem error.

A call in flight when :meth:`Memory.close` runs gets :class:`StoreClosed` (never a raw
error, never a wait for ever); a write cancelled after its commit has what it owes the
index (a message's embedding, an erased message's points, a session's snapshot, a
rewritten message's vector) done in the background, not at the next open.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from backends import PLACES
from chatmem import Memory
from chatmem.embedding import Capabilities
from chatmem.errors import StoreClosed
from chatmem.store import SqliteStore
from chatmem.testing import HashEmbeddingProvider, embedder

#: Seconds a test waits for what must end at once; past it, the call hung.
HANG_S = 20.0


class HeldProvider(HashEmbeddingProvider):
    """Embeds one batch at a time; while :attr:`hold` is set, each call waits on it (the
    provider is slow) and :attr:`called` says a call is waiting."""

    def __init__(self) -> None:
        super().__init__(capabilities=Capabilities(max_concurrency=1))
        self.hold: asyncio.Event | None = None
        self.called = asyncio.Event()

    async def embed(self, texts: Sequence[str], role: Any) -> np.ndarray:
        if self.hold is not None:
            self.called.set()
            await self.hold.wait()
        return await super().embed(texts, role)


def notes(n: int, session: str = "s") -> list[dict[str, Any]]:
    return [{"session_id": session, "role": "user", "content": f"note {i} about cats"}
            for i in range(n)]


async def test_a_sqlite_call_queued_behind_close_gets_store_closed(tmp_path: Path) -> None:
    """A call made while the store was still open but run after its close (another
    task's, in flight when the memory closed) found no connection: AssertionError."""
    store = await SqliteStore.open(tmp_path / "s.db")
    closing = asyncio.ensure_future(store.close())
    await asyncio.sleep(0)  # the close is on the store's thread, not finished
    with pytest.raises(StoreClosed):
        await store.stats()
    await closing


@pytest.mark.parametrize("place", sorted(PLACES))
async def test_a_flush_waiting_when_the_memory_closes_gets_store_closed(
        place: str, tmp_path: Path) -> None:
    """It waited for ever: the stopped workers never settle the queued messages."""
    provider = HeldProvider()
    async with PLACES[place](tmp_path) as where:
        mem = await Memory.open(where.url, vector=where.vector, embedder=embedder(provider),
                                config={"indexing": {"batch_size": 2}})
        try:
            provider.hold = asyncio.Event()
            await mem.add(notes(10))
            flush = asyncio.ensure_future(mem.flush())
            await asyncio.wait_for(provider.called.wait(), HANG_S)
        finally:
            await mem.close()
        with pytest.raises(StoreClosed):
            await asyncio.wait_for(flush, HANG_S)
        # nothing acknowledged is lost: the next open indexes every message
        mem = await Memory.open(where.url, vector=where.vector, embedder=embedder())
        try:
            await mem.flush(HANG_S)
            stats = await mem.stats()
            assert (stats["messages"], stats["indexed"]) == (10, 10)
        finally:
            await mem.close()


async def test_a_rewrite_waiting_for_its_queued_message_when_the_memory_closes(
        tmp_path: Path) -> None:
    """It polled for its 60 s settle timeout before failing."""
    provider = HeldProvider()
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=embedder(provider),
                            config={"indexing": {"batch_size": 1}})
    try:
        provider.hold = asyncio.Event()
        stored = await mem.add(notes(3))
        await asyncio.wait_for(provider.called.wait(), HANG_S)
        last = stored[-1]
        assert last.ts is not None
        rewrite = asyncio.ensure_future(mem.rewrite("s", last.ts, content="new words"))
        await asyncio.sleep(0.05)  # it waits for the queued message to settle
        assert not rewrite.done()
    finally:
        await mem.close()
    with pytest.raises(StoreClosed):
        await asyncio.wait_for(rewrite, HANG_S)


async def test_an_add_cancelled_after_its_commit_is_indexed_without_a_flush(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The message was stored but never queued: embedded only at the periodic sweep
    (``lease_s``, 30 s by default, here an hour) or the next flush."""
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=embedder(),
                            config={"indexing": {"lease_s": 3600}})
    try:
        await mem.add(notes(1))
        await mem.flush()
        append = mem.store.append
        committed = asyncio.Event()

        async def commit_then_wait(batch: Any) -> Any:
            out = await append(batch)
            committed.set()
            await asyncio.Event().wait()  # cancelled here: after the commit
            return out

        monkeypatch.setattr(mem.store, "append", commit_then_wait)
        add = asyncio.ensure_future(mem.add({"session_id": "s", "content": "late note"}))
        await asyncio.wait_for(committed.wait(), HANG_S)
        add.cancel()
        with pytest.raises(asyncio.CancelledError):
            await add
        monkeypatch.undo()

        async def indexed() -> None:
            while (await mem.stats())["pending"]:
                await asyncio.sleep(0.02)

        await asyncio.wait_for(indexed(), HANG_S)
    finally:
        await mem.close()


async def test_a_forget_cancelled_before_qdrant_deleted_its_points(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store erased the messages and the cancellation came before Qdrant deleted
    their points: the erase's record stayed, but nothing looked at it until the next
    open, so a flush left the erased messages' vectors in Qdrant."""
    async with PLACES["qdrant"](tmp_path) as where:
        mem = await Memory.open(where.url, vector=where.vector, embedder=embedder())
        try:
            await mem.add(notes(3, "gone") + notes(2, "kept"))
            await mem.flush()
            index = mem.storage.index
            assert index is not None
            delete_vectors = index.delete_vectors
            called = asyncio.Event()

            async def slow_delete(ids: Any) -> int:
                called.set()
                await asyncio.Event().wait()
                raise AssertionError("unreachable")

            monkeypatch.setattr(index, "delete_vectors", slow_delete)
            forget = asyncio.ensure_future(mem.forget(session="gone"))
            await asyncio.wait_for(called.wait(), HANG_S)
            forget.cancel()
            with pytest.raises(asyncio.CancelledError):
                await forget
            monkeypatch.setattr(index, "delete_vectors", delete_vectors)
            await mem.flush()
            left = await index.scan_vectors(None, 100)
            assert sorted(e.session_id for e in left) == ["kept", "kept"]
        finally:
            await mem.close()


async def test_a_session_change_cancelled_before_qdrant_took_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store had the new resource id and the vectors kept the old one (what scoped
    recall filters on) until the next open, a flush included."""
    async with PLACES["qdrant"](tmp_path) as where:
        mem = await Memory.open(where.url, vector=where.vector, embedder=embedder())
        try:
            await mem.upsert_session({"id": "s", "resource_id": "alice"})
            await mem.add(notes(2))
            await mem.flush()
            push = mem.storage.push_snapshots
            called = asyncio.Event()

            async def slow_push(ids: Any) -> int:
                called.set()
                await asyncio.Event().wait()
                raise AssertionError("unreachable")

            monkeypatch.setattr(mem.storage, "push_snapshots", slow_push)
            change = asyncio.ensure_future(mem.upsert_session({"id": "s",
                                                               "resource_id": "bob"}))
            await asyncio.wait_for(called.wait(), HANG_S)
            change.cancel()
            with pytest.raises(asyncio.CancelledError):
                await change
            monkeypatch.setattr(mem.storage, "push_snapshots", push)
            await mem.flush()
            assert mem.storage.index is not None
            entries = await mem.storage.index.scan_vectors(None, 100)
            assert [e.resource_id for e in entries] == ["bob", "bob"]
        finally:
            await mem.close()


@pytest.mark.parametrize("place", ["sqlite", "qdrant"])
async def test_a_rewrite_cancelled_while_embedding_is_healed_in_the_background(
        place: str, tmp_path: Path) -> None:
    """The new text was committed and the cancellation came while its vector was being
    made: the old vector stayed (recall matched the old words) until the next flush or
    open; a failed embedding is healed in the background, and so is this now."""
    provider = HeldProvider()
    async with PLACES[place](tmp_path) as where:
        mem = await Memory.open(where.url, vector=where.vector, embedder=embedder(provider),
                                config={"indexing": {"retry_initial_s": 0.05}})
        try:
            (msg,) = await mem.add({"session_id": "s", "content": "apples and oranges"})
            await mem.flush()
            assert msg.ts is not None and mem.storage.index is not None
            provider.hold = asyncio.Event()
            rewrite = asyncio.ensure_future(mem.rewrite("s", msg.ts, content="secret plans"))
            await asyncio.wait_for(provider.called.wait(), HANG_S)
            rewrite.cancel()
            with pytest.raises(asyncio.CancelledError):
                await rewrite
            provider.hold = None
            new = provider.vector("secret plans")
            new /= np.linalg.norm(new)

            async def healed() -> None:
                index = mem.storage.index
                assert index is not None
                # (a separate index deletes the old point before writing the new one)
                while not [e for e in await index.scan_vectors(None, 1)
                           if np.allclose(e.vector, new)]:
                    await asyncio.sleep(0.02)

            await asyncio.wait_for(healed(), HANG_S)
        finally:
            await mem.close()


async def test_a_postgres_open_cancelled_while_its_pool_opens_closes_the_pool(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool (its connection and worker tasks) was left open: each open a timeout
    cut short kept a connection to the server ("Task was destroyed but it is pending")."""
    from psycopg_pool import AsyncConnectionPool

    from backends import drop_pg_schema, pg_schema_url, pg_url
    from chatmem.store.postgres import PostgresStore

    url = pg_url()
    pools: list[AsyncConnectionPool[Any]] = []
    opening = asyncio.Event()
    pool_open = AsyncConnectionPool.open

    async def slow_open(self: AsyncConnectionPool[Any], *args: Any, **kwargs: Any) -> None:
        pools.append(self)
        await pool_open(self, *args, **kwargs)
        opening.set()
        await asyncio.Event().wait()  # a slow server: cancelled here

    monkeypatch.setattr(AsyncConnectionPool, "open", slow_open)
    schema = "cancel_audit_pool"
    try:
        task = asyncio.ensure_future(PostgresStore.open(pg_schema_url(url, schema)))
        await asyncio.wait_for(opening.wait(), HANG_S)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        assert [p.closed for p in pools] == [True]
    finally:
        await drop_pg_schema(url, schema)


def ctrl_c_as_in_a_terminal() -> None:
    """In the child, before it runs Python: SIGINT's default action. A test run started
    in the background of a shell without job control (``nohup … &``, some CI runners)
    ignores SIGINT, its children inherit that, and a Python started so never turns
    Ctrl-C into KeyboardInterrupt."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted_while_embedding(tmp_path: Path, *args: str) -> str:
    """Run ``chatmem *args`` with an embedding provider that never answers, press Ctrl-C
    once it is embedding, and return what it wrote on standard error (exit code 1)."""
    import os
    import signal
    import subprocess
    import sys

    from fake_embedding_service import FakeEmbeddingService, Step

    with FakeEmbeddingService() as service:
        service.default = Step(delay=30)
        config = tmp_path / "chatmem.toml"
        config.write_text(f'[embedding]\nprovider = "openai"\nendpoint = "{service.url}/v1"\n'
                          'model = "fake"\napi_key = "k"\n')
        proc = subprocess.Popen(
            [sys.executable, "-m", "chatmem", *args, "--config", str(config)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env={**os.environ, "CHATMEM_DEBUG": ""}, preexec_fn=ctrl_c_as_in_a_terminal)
        try:
            service.wait_for(1, timeout=60)  # stored, and being embedded
            proc.send_signal(signal.SIGINT)
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
    assert proc.returncode == 1, err
    assert err.rstrip().endswith("Aborted!")
    return err


def stored_ids(db: Path) -> list[str]:
    """The ids of the messages of session s in the SQLite store ``db``."""
    from chatmem import SyncMemory

    with SyncMemory.open(f"sqlite:///{db}", semantic_recall=False) as mem:
        return [m.id or "" for m in mem.list_messages(session="s").messages]


def test_ctrl_c_while_cli_add_waits_for_indexing_says_the_message_is_stored(
        tmp_path: Path) -> None:
    """The message was stored and the command said only "Aborted!": run again, it is
    stored twice."""
    db = tmp_path / "chat.db"
    err = interrupted_while_embedding(tmp_path, "add", "--db", str(db), "--session", "s",
                                      "remember the milk")
    stored = stored_ids(db)
    assert len(stored) == 1
    assert f"stored {stored[0]} in s" in err


def test_ctrl_c_while_cli_import_waits_for_indexing_says_it_is_imported(
        tmp_path: Path) -> None:
    """The import was complete and the command said only "Aborted!"."""
    import subprocess
    import sys

    from chatmem import SyncMemory

    source, export = tmp_path / "source.db", tmp_path / "export.jsonl"
    with SyncMemory.open(f"sqlite:///{source}", semantic_recall=False) as mem:
        mem.add(notes(3))
    subprocess.run([sys.executable, "-m", "chatmem", "export", "--db", str(source),
                    "-o", str(export)], check=True, capture_output=True, timeout=60)
    db = tmp_path / "chat.db"
    err = interrupted_while_embedding(tmp_path, "import", "--db", str(db), str(export))
    assert "imported sessions 1, messages 3," in err
    assert len(stored_ids(db)) == 3


#: A script opening a SyncMemory whose open is interrupted (Ctrl-C), then opening the
#: same store again in the same process.
INTERRUPTED_OPEN = """
import asyncio, os, signal, sys, threading
from chatmem import Memory, SyncMemory
from chatmem.testing import embedder

settle = Memory._settle_auto_model

async def stuck(self):
    threading.Timer(0, os.kill, (os.getpid(), signal.SIGINT)).start()
    await asyncio.Event().wait()  # Ctrl-C arrives while the open waits here

Memory._settle_auto_model = stuck
try:
    SyncMemory.open(sys.argv[1], embedder=embedder())
except KeyboardInterrupt:
    print("interrupted")
Memory._settle_auto_model = settle
SyncMemory.open(sys.argv[1], embedder=embedder()).close()
print("opened again")
"""


def test_a_sync_open_interrupted_by_ctrl_c_leaves_the_store_closed(tmp_path: Path) -> None:
    """The loop stopped before the cancelled open had closed its store: the process kept
    the store's file lock, and the next open said it was "open in another process"."""
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", INTERRUPTED_OPEN,
                           f"sqlite:///{tmp_path}/m.db"],
                          capture_output=True, text=True, timeout=120,
                          preexec_fn=ctrl_c_as_in_a_terminal)
    assert proc.stdout.split() == ["interrupted", "opened", "again"], proc.stderr


async def test_a_second_close_waits_for_the_first(tmp_path: Path) -> None:
    """It returned at once while the first (another task's) was still closing: the
    store's file was still held, and opening it again failed as "open in another
    process"."""
    url = f"sqlite:///{tmp_path}/m.db"
    mem = await Memory.open(url, embedder=embedder())
    await mem.add(notes(20))
    first = asyncio.ensure_future(mem.close())
    await asyncio.sleep(0)  # the first close is under way
    await mem.close()
    again = await Memory.open(url, embedder=embedder())
    await again.close()
    await first


async def _hold_store_thread(
        store: SqliteStore) -> tuple[threading.Event, asyncio.Future[None]]:
    """Keep the store's one thread busy (another call running there, the future
    returned) until the event returned is set: a close made meanwhile waits, queued
    behind it."""
    release, started = threading.Event(), threading.Event()

    def hold() -> None:
        started.set()
        release.wait(HANG_S)

    held = asyncio.ensure_future(store._run(hold))
    assert await asyncio.get_running_loop().run_in_executor(None, started.wait, HANG_S)
    return release, held


async def test_a_sqlite_close_cancelled_while_queued_still_closes(tmp_path: Path) -> None:
    """Cancelled while queued behind another call on the store's thread, the close was
    dropped from the queue: the connection and the file's locks stayed, and opening the
    file again said it was "open in another process"."""
    store = await SqliteStore.open(tmp_path / "s.db")
    release, held = await _hold_store_thread(store)
    try:
        closing = asyncio.ensure_future(store.close())
        await asyncio.sleep(0)  # queued behind the held call
        closing.cancel()
        await asyncio.sleep(0)
    finally:
        release.set()
    with pytest.raises(asyncio.CancelledError):  # the cancellation, once closed
        await asyncio.wait_for(closing, HANG_S)
    await held
    with pytest.raises(StoreClosed):
        await store.stats()
    again = await SqliteStore.open(tmp_path / "s.db")
    await again.close()


@pytest.mark.parametrize("cancelled", [True, False], ids=["cancelled", "not-cancelled"])
@pytest.mark.parametrize("ending", ["close", "discard"])
async def test_a_sqlite_close_whose_work_fails_still_closes_and_is_cancelled(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        ending: str, cancelled: bool) -> None:
    """A step of the close failing (here its first, the ANN index's close: no real way
    to make one fail was found, so a wrapper of the real one raises after it) left the
    steps after it undone: the connection and the file's locks stayed held, and opening
    the file again said it was "open in another process". Cancelled while queued, that
    close also lost the cancellation: ``run_to_end`` raises the work's error in its
    place, and ``SqliteStore._end`` swallowed it (the caller went on as if never
    cancelled). The close itself still does not fail. :meth:`SqliteStore.discard` alike
    (its removal of the file it created was skipped too)."""
    store = await SqliteStore.open(tmp_path / "s.db")
    ann_close = store.ann.close

    def failing_close(save: bool = True) -> None:
        ann_close(save)
        raise OSError("the ANN file's folder went away")

    monkeypatch.setattr(store.ann, "close", failing_close)
    release, held = await _hold_store_thread(store)
    try:
        closing = asyncio.ensure_future(getattr(store, ending)())
        await asyncio.sleep(0)  # queued behind the held call
        if cancelled:
            closing.cancel()
            await asyncio.sleep(0)
    finally:
        release.set()
    if cancelled:
        with pytest.raises(asyncio.CancelledError):  # the cancellation, once closed
            await asyncio.wait_for(closing, HANG_S)
    else:
        await asyncio.wait_for(closing, HANG_S)  # the failed step is logged, not raised
    await held
    assert "the ANN file's folder went away" in caplog.text  # logged
    assert store._conn is None and store._lock_file is None and store._file_lock is None
    assert (tmp_path / "s.db").exists() is (ending == "close")  # discard: a store it made
    with pytest.raises(StoreClosed):
        await store.stats()
    again = await SqliteStore.open(tmp_path / "s.db")
    await again.close()


async def test_a_memory_close_cancelled_part_way_still_closes_the_store(
        tmp_path: Path) -> None:
    """Cancelled while closing its store, ``Memory.close()`` had set its closed flags: the
    store stayed open, a second close returned at once, and the next open of the file
    said it was "open in another process"."""
    url = f"sqlite:///{tmp_path}/m.db"
    mem = await Memory.open(url, embedder=embedder())
    await mem.add(notes(3))
    await mem.flush()  # nothing of the indexer's left queued on the store's thread
    store = mem.store
    assert isinstance(store, SqliteStore)
    release, held = await _hold_store_thread(store)
    try:
        closing = asyncio.ensure_future(mem.close())
        for _ in range(int(HANG_S / 0.01)):  # until the close waits on the store's thread
            if store._executor._work_queue.qsize():
                break
            await asyncio.sleep(0.01)
        closing.cancel()
        await asyncio.sleep(0)
    finally:
        release.set()
    with pytest.raises(asyncio.CancelledError):
        await asyncio.wait_for(closing, HANG_S)
    await held
    await mem.close()
    with pytest.raises(StoreClosed):
        await store.stats()
    again = await Memory.open(url, embedder=embedder())
    assert len((await again.list_messages(session="s")).messages) == 3
    await again.close()


@pytest.mark.parametrize("rebuilding", [False, True], ids=["closing-pool", "stopping-rebuild"])
async def test_a_postgres_close_cancelled_part_way_still_closes_the_pool(
        rebuilding: bool) -> None:
    """``PostgresStore.close()`` set its closed flag before its awaits: cancelled while
    its pool closed, the pool's idle connections stayed open and a second close returned
    at once; cancelled while it waited for its background HNSW rebuild to stop, the
    caller's cancellation was swallowed (the close went on, and so did the caller)."""
    import uuid

    from backends import drop_pg_schema, pg_schema_url, pg_url
    from chatmem.store.postgres import PostgresStore

    url = pg_url()
    schema = f"cancel_close_{uuid.uuid4().hex[:8]}"
    try:
        store = await PostgresStore.open(pg_schema_url(url, schema))
        pool = store._pool
        assert pool is not None
        async with pool.connection() as conn:  # back in the pool, idle, when closing
            await conn.execute("SELECT 1")
        if rebuilding:  # the close first stops it (not yet started: a step of the loop)
            store._deferred_looked_at = float("-inf")
            store._look_for_deferred()
            assert store._rebuilding is not None
        closing = asyncio.ensure_future(store.close())
        await asyncio.sleep(0)  # part way: waiting on the rebuild, or the pool's workers
        assert not closing.done()
        closing.cancel()
        with pytest.raises(asyncio.CancelledError):  # the caller's, once closed
            await asyncio.wait_for(closing, HANG_S)
        assert pool.closed and conn.closed
        await store.close()
        with pytest.raises(StoreClosed):
            await store.stats()
    finally:
        await drop_pg_schema(url, schema)
