"""Races between indexing workers, reindex runs and writers on one PostgreSQL store.

Real PostgreSQL schemas (``CHATMEM_TEST_PG_URL``); the interleavings are made
deterministic with row locks the test itself holds on its own connection, and by
waiting (polling ``pg_locks``) until each statement is seen blocked on a lock. The
race of a lease renewal with a vector write is run on every backend, held by the
storage between the write and the end of its batch.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import psycopg
import pytest

from backends import BACKENDS
from chatmem import Config, Memory
from chatmem.embedding import Embedder
from chatmem.indexing import Indexer, vector_entry
from chatmem.models import IndexState, Message, VectorEntry
from chatmem.store import Storage
from chatmem.store.base import Claim
from chatmem.store.postgres import _LOCK_CLASS, PostgresStore
from chatmem.store.sqlite import SqliteStore
from chatmem.testing import HashEmbeddingProvider
from fake_embedding_service import Recorded, expected, fresh_service
from test_pg_replicas import shared_schema


def schema_of(url: str) -> str:
    return dict(parse_qsl(urlsplit(url).query))["schema"]


def conninfo_of(url: str) -> str:
    """``url`` without chatmem's ``schema`` parameter (psycopg does not know it)."""
    parts = urlsplit(url)
    query = "&".join(f"{k}={v}" for k, v in parse_qsl(parts.query) if k != "schema")
    return parts._replace(query=query).geturl()


async def blocked_backends(admin: psycopg.AsyncConnection[object]) -> int:
    """How many other backends of this database wait for a lock."""
    cur = await admin.execute(
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
    row = await cur.fetchone()
    return int(row[0]) if row else 0


async def until_blocked(admin: psycopg.AsyncConnection[object], n: int,
                        *tasks: asyncio.Task[object]) -> None:
    """Wait until ``n`` backends wait for a lock (none of ``tasks`` may end first)."""
    end = time.monotonic() + 30
    while await blocked_backends(admin) < n:
        for t in tasks:
            assert not t.done(), t.result()
        assert time.monotonic() < end, "the statements never blocked"
        await asyncio.sleep(0.01)


def entry(msg: Message) -> VectorEntry:
    return vector_entry(msg, None, np.ones(4, dtype=np.float32), "m")


@pytest.mark.parametrize("change", ["mark_pending", "release_claims"])
async def test_changing_waiting_messages_does_not_deadlock_with_a_vector_write(
        change: str) -> None:
    """A reindex marks its messages pending (in one statement), or an indexer whose
    batch failed releases its leases, while another process's indexer writes the
    vectors of some of them. Both lock the same message rows: the write in id order,
    so the others must too, or each holds a row the other waits for and PostgreSQL
    kills one ("deadlock detected": the indexer logged a failed batch and paused, or
    the reindex failed). Seen with two reindex runs on one store. Here: rows stored in
    the reverse of their id order, the test holding the middle one so that the change
    takes the first and the write the last before either can go on."""
    async with shared_schema() as url:
        store_a = await PostgresStore.open(url)
        store_b = await PostgresStore.open(url)
        try:
            # stored (so laid out) as z, m, a: a table scan meets them in that order
            msgs = await store_a.append([
                Message(id=f"msg-{c}", session_id="s", role="user", content=f"text {c}",
                        ts=1000 + i) for i, c in enumerate("zma")])
            ids = [m.id or "" for m in msgs]
            if change == "release_claims":
                assert (await store_b.claim("b", ids, 60_000)).ids == ids
            async with await psycopg.AsyncConnection.connect(
                    conninfo_of(url), autocommit=True) as admin, \
                    await psycopg.AsyncConnection.connect(conninfo_of(url)) as holder:
                await holder.execute(f'SET search_path TO "{schema_of(url)}"')
                await holder.execute("SELECT 1 FROM messages WHERE id = 'msg-m' FOR UPDATE")
                marking = asyncio.create_task(
                    store_b.set_index_state(ids, IndexState.PENDING)
                    if change == "mark_pending" else store_b.release_claims("b", ids))
                await until_blocked(admin, 1, marking)
                # the write of msg-z and msg-a takes msg-a (first in id order) and
                # waits for msg-z, which the marking (unfixed) holds
                writing = asyncio.create_task(store_a.upsert(
                    [entry(msgs[0]), entry(msgs[2])], current_only=True))
                await until_blocked(admin, 2, marking, writing)
                await holder.rollback()  # the marking goes on
                results = await asyncio.gather(marking, writing, return_exceptions=True)
            assert [r for r in results if isinstance(r, BaseException)] == []
            states = await store_a.index_states(ids)
            # each ran whole: the write's messages are both indexed or both waiting
            assert states["msg-m"] == IndexState.PENDING
            assert states["msg-z"] == states["msg-a"]
        finally:
            await store_a.close()
            await store_b.close()


@pytest.mark.parametrize("change", ["content", "metadata"])
@pytest.mark.parametrize("old_text_is", ["in_flight", "queued"])
async def test_a_message_rewritten_while_its_old_text_waits_to_be_embedded_is_embedded_again(
        old_text_is: str, change: str) -> None:
    """A rewrite waits for this process's indexing of the message, then commits the
    new text under the message's lock; a sweep may queue the message (old text) in
    between. The rewrite then queues the new text, but the id was queued or in flight,
    so the queue took nothing; the old text was embedded, its write left out as
    stale, and the new text waited for the next periodic sweep (``lease_s``, 30 s by
    default; here an hour): recall could not find the new words meanwhile. The test
    holds the rewrite in the message lock (its own connection holds it) and, at the
    service, the old text's embedding (in flight) or another message's (the only
    worker is busy: queued), so the sweep's version is still waiting when the
    rewrite commits. A rewrite of the metadata alone (``change``): the in-flight batch
    wrote its entry with the old metadata (the stale check compared text only), so
    ``message.*`` filters answered by metadata the message no longer had."""
    held_text = "old words" if old_text_is == "in_flight" else "busy worker"
    async with shared_schema() as url:
        with fresh_service() as service:
            release = threading.Event()

            def hold(rec: Recorded) -> float:
                if any(held_text in t for t in rec.texts):
                    release.wait(30)
                return 0.0

            def times_asked(text: str) -> int:
                return sum(text in t for r in list(service.requests) for t in r.texts)

            def asked(text: str) -> bool:
                return times_asked(text) > 0

            async def until_asked(text: str, why: str) -> None:
                end = time.monotonic() + 30
                while not asked(text):
                    assert time.monotonic() < end, why
                    await asyncio.sleep(0.01)

            service.hold = hold
            memory = await Memory.open(url, embedding=service.config(
                "openai", key="k", path="/v1", model="text-embedding-3-small"),
                indexing={"lease_s": 3600, "concurrency": 1})
            other = await PostgresStore.open(url)
            try:
                indexer = memory._indexer
                assert indexer is not None
                if old_text_is == "queued":
                    await memory.add({"content": "busy worker", "ts": 1}, session="t")
                    await until_asked("busy worker", "the worker never started")
                # stored by another process: this one's indexer has not queued it
                [msg] = await other.append([Message(session_id="s", role="user",
                                                    content="old words", ts=5)])
                async with await psycopg.AsyncConnection.connect(
                        conninfo_of(url), autocommit=True) as admin, \
                        await psycopg.AsyncConnection.connect(conninfo_of(url)) as holder:
                    # the rewrite lock of message (s, 5) in this store's schema
                    # (PostgresStore._lock_name)
                    await holder.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                                         [_LOCK_CLASS + 2, f"{schema_of(url)}:5:s"])
                    rewriting = asyncio.create_task(
                        memory.rewrite("s", 5, content="new words") if change == "content"
                        else memory.rewrite("s", 5, metadata={"v": 2}))
                    await until_blocked(admin, 1, rewriting)
                    indexer.sweep_soon()  # the sweep takes the old text
                    if old_text_is == "in_flight":
                        await until_asked("old words", "the sweep never embedded it")
                    else:
                        end = time.monotonic() + 30
                        while indexer.stats().queued < 1:
                            assert time.monotonic() < end, "the sweep never queued it"
                            await asyncio.sleep(0.01)
                    await holder.rollback()  # the rewrite commits
                    await rewriting
                release.set()
                if change == "content":
                    await until_asked("new words",
                                      "the new text waits for the periodic sweep (an hour)")
                else:  # the same text again: the embedder's cache answers, not the service
                    end = time.monotonic() + 30
                    while (await other.index_states([msg.id or ""])).get(
                            msg.id or "") != IndexState.INDEXED:
                        assert time.monotonic() < end, \
                            "the new metadata waits for the periodic sweep (an hour)"
                        await asyncio.sleep(0.01)
                await memory.flush(timeout=60)
                if old_text_is == "queued":
                    # the newer version went instead
                    assert times_asked("old words") == (change == "metadata")
            finally:
                release.set()
                await other.close()
                await memory.close()
        store = await PostgresStore.open(url, create=False)
        try:
            entries = {e.message_id: e for e in await store.scan_vectors(None, 100)}
        finally:
            await store.close()
        if change == "content":
            np.testing.assert_allclose(np.asarray(entries[msg.id or ""].vector),
                                       expected("new words"), atol=1e-5)
        assert entries[msg.id or ""].message_metadata == (
            {"v": 2} if change == "metadata" else {})


async def test_a_second_reindex_does_not_embed_again_what_the_first_embedded_since_its_scan(
        ) -> None:
    """Two reindex runs on one store (two servers, or ``chatmem reindex`` beside a
    server): B reads which messages lack a vector of the model, then marks them
    pending. A message A embedded in between was marked pending again and embedded a
    second time (a batch or more per run, measured: 8 of 200 with batches of 8). Here
    the test holds B's marking (a row lock on the other message) while A's vector of
    the first message is written."""
    async with shared_schema() as url:
        with fresh_service() as service:
            release_first = threading.Event()
            release_second = threading.Event()

            def hold(rec: Recorded) -> float:
                if rec.body.get("model") == "text-embedding-3-large":
                    if "first message" in rec.texts:
                        release_first.wait(30)
                    if "second message" in rec.texts:
                        release_second.wait(30)
                return 0.0

            service.hold = hold

            def config(key: str, model: str) -> dict[str, object]:
                return service.config("openai", key=key, path="/v1", model=model)

            store = await PostgresStore.open(url)
            try:
                # ids in the reverse of their order: B locks "msg-a" (the second) first
                await store.append([
                    Message(id="msg-b", session_id="s", role="user", content="first message",
                            ts=1),
                    Message(id="msg-a", session_id="s", role="user", content="second message",
                            ts=2)])
                old = await Memory.open(url, embedding=config("k0", "text-embedding-3-small"))
                await old.flush(timeout=60)
                await old.close()
                a = await Memory.open(url, embedding=config("key-a", "text-embedding-3-large"),
                                      indexing={"batch_size": 1})
                b = await Memory.open(url, embedding=config("key-b", "text-embedding-3-large"),
                                      indexing={"batch_size": 1})
                try:
                    first = asyncio.create_task(a.reindex())
                    end = time.monotonic() + 30
                    while (await store.index_states(["msg-a"]))["msg-a"] != IndexState.PENDING:
                        assert time.monotonic() < end and not first.done()
                        await asyncio.sleep(0.01)
                    async with await psycopg.AsyncConnection.connect(
                            conninfo_of(url), autocommit=True) as admin, \
                            await psycopg.AsyncConnection.connect(conninfo_of(url)) as holder:
                        await holder.execute(f'SET search_path TO "{schema_of(url)}"')
                        await holder.execute(
                            "SELECT 1 FROM messages WHERE id = 'msg-a' FOR UPDATE")
                        second = asyncio.create_task(b.reindex())
                        await until_blocked(admin, 1, second)  # B marks: held
                        release_first.set()  # A writes the first message's vector
                        while (await store.index_states(["msg-b"]))["msg-b"] \
                                != IndexState.INDEXED:
                            assert time.monotonic() < end
                            await asyncio.sleep(0.01)
                        await holder.rollback()  # B marks what it found stale
                    release_second.set()
                    await asyncio.gather(first, second)
                    await a.flush(timeout=60)
                    await b.flush(timeout=60)
                finally:
                    release_first.set()
                    release_second.set()
                    await a.close()
                    await b.close()
                vectors = {e.message_id: np.asarray(e.vector)
                           for e in await store.scan_vectors(None, 100)}
                states = await store.index_states(["msg-a", "msg-b"])
            finally:
                await store.close()
            # each reindex asks the service for one vector first, to learn the width its
            # model answers now (VectorWidths.probe): not a message
            embedded = Counter(t for rec in list(service.requests)
                               if rec.body.get("model") == "text-embedding-3-large"
                               for t in rec.texts if t != "chatmem reindex")
        assert embedded == {"first message": 1, "second message": 1}
        assert states == {"msg-a": IndexState.INDEXED, "msg-b": IndexState.INDEXED}
        np.testing.assert_allclose(vectors["msg-b"], expected("first message"), atol=1e-5)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_marking_pending_unless_a_vector_of_the_model_leaves_those_embedded(
        backend: str, tmp_path: Path) -> None:
    """``set_index_state(unless_model=…)`` (reindex, R5) leaves a message with a vector
    of that model; one with a vector of another model, or none, is marked."""
    async with contextlib.AsyncExitStack() as stack:
        if backend == "sqlite":
            store: SqliteStore | PostgresStore = await SqliteStore.open(tmp_path / "m.db")
        else:
            url = await stack.enter_async_context(shared_schema())
            store = await PostgresStore.open(url)
        try:
            msgs = await store.append([
                Message(id=f"msg-{i}", session_id="s", role="user", content=f"text {i}",
                        ts=i) for i in range(3)])
            await store.upsert([vector_entry(msgs[0], None, np.ones(4), "new"),
                                vector_entry(msgs[1], None, np.ones(4), "old")])
            await store.set_index_state(["msg-0", "msg-1", "msg-2"], IndexState.PENDING,
                                        unless_model="new")
            assert await store.index_states(["msg-0", "msg-1", "msg-2"]) == {
                "msg-0": IndexState.INDEXED, "msg-1": IndexState.PENDING,
                "msg-2": IndexState.PENDING}
        finally:
            await store.close()


#: Short leases: renewed every half second (lease_s / 3).
LEASE_S = 1.5


class SeenClaims:
    """A message store whose claims the test sees; every other call goes through."""

    def __init__(self, store: Any) -> None:
        self.store = store
        #: Set when a claim begins, and when one ends.
        self.began, self.ended = asyncio.Event(), asyncio.Event()
        #: (owner, the ids it got) of each claim that ended.
        self.claims: list[tuple[str, list[str]]] = []

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def claim(self, owner: str, ids: list[str], lease_ms: int) -> Claim:
        self.began.set()
        try:
            got: Claim = await self.store.claim(owner, ids, lease_ms)
        finally:
            self.ended.set()
        self.claims.append((owner, list(got.ids)))
        return got


class StaleWrite(Storage):
    """The indexer's first vector write meets a rewrite in another process: the
    message is rewritten just before it, so the write leaves it out as stale and
    ends its lease. The batch is then held until a renewal of its leases (every
    ``lease_s`` / 3, from the batch's start) has run, or two of its periods have
    passed: a renewal due before the batch ended runs in the hold."""

    def __init__(self, store: Any, index: Any) -> None:
        super().__init__(store, index)
        self.seen = SeenClaims(store)
        self.store = self.seen  # the indexer's claims go through it
        self.held = asyncio.Event()
        #: The claims of the hold, and what another process could claim after it.
        self.renewals: list[tuple[str, list[str]]] = []
        self.taken_by_another: list[str] = []

    async def write_entries(self, entries: Any, **kwargs: Any) -> None:
        if self.held.is_set():
            await super().write_entries(entries, **kwargs)
            return
        try:
            [written] = entries
            real = self.seen.store
            assert await real.rewrite(written.session_id, written.ts,
                                      content="new narwhal") is not None
            await super().write_entries(entries, **kwargs)
            self.seen.began.clear()
            self.seen.ended.clear()
            before = len(self.seen.claims)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(self.seen.began.wait(), 2 * LEASE_S / 3)
                await self.seen.ended.wait()  # a renewal under way: its answer too
            self.renewals = self.seen.claims[before:]
            got = await real.claim("another", [written.message_id], 60_000)
            self.taken_by_another = list(got.ids)
            await real.release_claims("another", got.ids)
        finally:
            self.held.set()


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_no_lease_renewal_takes_back_a_message_its_stale_write_let_go(
        backend: str, tmp_path: Path) -> None:
    """R5: the indexer renews its batch's leases every lease_s / 3 until the batch is
    over. A renewal after a vector write that left a message out as stale (it was
    rewritten meanwhile, and the write ended its lease) claimed the rewritten message
    again; the batch counted as written, so its leases were not released, and other
    processes waited up to lease_s for the message. Now the renewal stops with the
    write (and a renewal under way finishes first)."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        storage = StaleWrite(store, index)
        [m] = await store.append([Message(session_id="s", content="old walrus", ts=1)])
        config = Config.load(indexing={"lease_s": LEASE_S, "concurrency": 1}).indexing
        indexer = Indexer(storage, Embedder(HashEmbeddingProvider(), cache_enabled=False),
                          config)
        indexer.start()
        try:
            await asyncio.wait_for(storage.held.wait(), 60)
            # nothing renewed after the write: another process takes the message at once
            assert storage.taken_by_another == [m.id]
            assert storage.renewals == []
            await indexer.flush(timeout=60)  # the new text is embedded by the next batch
        finally:
            await indexer.stop()
        assert (await store.index_states([m.id or ""])) == {m.id: IndexState.INDEXED}
