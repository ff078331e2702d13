"""R5: several processes on one PostgreSQL share the indexing work (issue 14).

Every embedding goes to a real HTTP service on 127.0.0.1
(:class:`~fake_embedding_service.FakeEmbeddingService`, OpenAI-shaped) that logs each
text it embeds and can hold the calls of one client (told apart by API key). The
stores are real PostgreSQL schemas (``CHATMEM_TEST_PG_URL``, required in CI).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import numpy as np

from backends import drop_pg_schema, pg_schema_url, pg_url
from chatmem import Memory
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.indexing import RETRY_JITTER, Indexer
from chatmem.models import IndexState, Message, embedded_text, now_ms
from chatmem.store import Storage
from chatmem.store.postgres import PostgresStore
from fake_embedding_service import FakeEmbeddingService, Recorded, expected, fresh_service
from providers import FlakyProvider

LEASE_S = 2.0
REPLICA = Path(__file__).with_name("pg_replica.py")


@contextlib.asynccontextmanager
async def shared_schema() -> AsyncIterator[str]:
    """A fresh schema's URL, its tables created; dropped afterwards."""
    base = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(base, schema)
    try:
        await (await PostgresStore.open(url)).close()
        yield url
    finally:
        await drop_pg_schema(base, schema)


@contextlib.contextmanager
def embedding_service() -> Iterator[FakeEmbeddingService]:
    """The service, holding every batch of notes of a client whose key names ``held``
    until that client goes away (its queries go through), and each other call a moment
    (so batches overlap)."""
    with fresh_service() as service:
        service.hold = lambda rec: 600.0 if held_batch(rec) else 0.02
        yield service


def held_batch(rec: Recorded) -> bool:
    return ("held" in rec.headers.get("authorization", "")
            and any(" note " in t for t in rec.texts))


def embedding(service: FakeEmbeddingService, key: str) -> dict[str, Any]:
    return service.config("openai", key=key, path="/v1", model="text-embedding-3-small")


def embed_counts(service: FakeEmbeddingService) -> Counter[str]:
    return Counter(t for rec in list(service.requests) for t in rec.texts)


async def stored_state(url: str) -> tuple[list[Message], dict[str, IndexState],
                                          dict[str, np.ndarray]]:
    """Every message, its index state and its vector, read back from the store."""
    store = await PostgresStore.open(url, create=False)
    try:
        rows = await store.scan_messages(0, 100_000)
        vectors = {e.message_id: np.asarray(e.vector)
                   for e in await store.scan_vectors(None, 100_000)}
    finally:
        await store.close()
    return [m for _, m, _ in rows], {m.id or "": s for _, m, s in rows}, vectors


def assert_each_vector_is_its_text(messages: list[Message], states: dict[str, IndexState],
                                   vectors: dict[str, np.ndarray]) -> None:
    assert {m.id for m in messages if m.indexable} == set(vectors)
    for m in messages:
        assert states[m.id or ""] == IndexState.INDEXED, m
        np.testing.assert_allclose(vectors[m.id or ""], expected(embedded_text(m)), atol=1e-5)


async def indexed_soon(mem: Memory, m: Message) -> None:
    """Until ``m`` is indexed, at most 30 s (an indexer whose periodic sweep is an hour
    away took it at once)."""
    end = time.monotonic() + 30
    while (await mem.store.index_states([m.id or ""]))[m.id or ""] != IndexState.INDEXED:
        assert time.monotonic() < end, "it waits for its periodic sweep (an hour)"
        await asyncio.sleep(0.05)


# --------------------------------------------------------------------------- one process


async def test_two_memories_on_one_store_never_embed_the_same_message() -> None:
    """Two indexers sweep the same pending messages at once: each is embedded once."""
    async with shared_schema() as url:
        with embedding_service() as service:
            store = await PostgresStore.open(url)
            try:
                await store.append([Message(session_id=f"s{i % 3}", content=f"pending {i}")
                                    for i in range(120)])
            finally:
                await store.close()
            mems = [await Memory.open(url, embedding=embedding(service, f"key-{n}"),
                                      indexing={"lease_s": LEASE_S, "batch_size": 4})
                    for n in ("a", "b")]
            try:
                await asyncio.gather(*(m.flush(timeout=60) for m in mems))
            finally:
                for m in mems:
                    await m.close()
            counts = embed_counts(service)
            keys = Counter(rec.headers["authorization"] for rec in service.requests)
        messages, states, vectors = await stored_state(url)
        assert len(messages) == 120
        assert_each_vector_is_its_text(messages, states, vectors)
        assert {t: n for t, n in counts.items() if t.startswith("pending")} == {
            m.content: 1 for m in messages}
        assert len(keys) == 2  # both took part


async def test_messages_a_closing_memory_leaves_are_taken_by_another_at_once() -> None:
    """A memory closed with messages not yet embedded (its indexer stopped, their leases
    released) left them to the other processes' periodic sweep, ``lease_s`` later (30 s
    by default, an hour here): it now announces them, and the indexer of another memory
    on the store sweeps at once and embeds them."""
    hour = {"lease_s": 3600}
    async with shared_schema() as url:
        with fresh_service() as service:
            # A's embeddings never come back while it runs
            service.hold = lambda rec: 600.0 if "key-a" in rec.headers.get(
                "authorization", "") else 0.0
            b = await Memory.open(url, embedding=embedding(service, "key-b"), indexing=hour)
            try:
                await b.flush(timeout=60)  # its start-up sweep is over: it waits an hour
                a = await Memory.open(url, embedding=embedding(service, "key-a"),
                                      indexing=hour)
                try:
                    [m] = await a.add({"content": "left behind", "ts": 5}, session="s")
                    end = time.monotonic() + 30
                    while not any("key-a" in r.headers.get("authorization", "")
                                  for r in list(service.requests)):
                        assert time.monotonic() < end, "A never started embedding it"
                        await asyncio.sleep(0.01)
                finally:
                    await a.close()
                await indexed_soon(b, m)
            finally:
                await b.close()
        _, _, vectors = await stored_state(url)
        np.testing.assert_allclose(vectors[m.id or ""], expected(embedded_text(m)),
                                   atol=1e-5)


async def test_retries_are_due_on_the_database_clock_whatever_each_process_clock_says(
        ) -> None:
    """E12, R5: a failed message's next try was set by the clock of the process that
    failed it and looked for by the clock of the process that swept: A, whose clock is
    ten minutes ahead, failed it (its provider down) and set it due ten minutes late;
    B, whose clock is ten minutes behind and whose provider answers, found it due
    twenty minutes later. Now both times are the database's: the schedule is A's
    delay from the database's now, and B embeds the message when it is due."""
    skew_ms = 600_000
    cfg = Config.load(indexing={"retry_initial_s": 0.05, "retry_max_s": 0.2,
                                "lease_s": LEASE_S, "batch_size": 4}).indexing
    async with shared_schema() as url:
        store_a, store_b = await PostgresStore.open(url), await PostgresStore.open(url)
        down, up = FlakyProvider(), FlakyProvider()
        down.down = "fail"
        a = Indexer(Storage(store_a, store_a), Embedder(down, cache_enabled=False), cfg,
                    clock=lambda: now_ms() + skew_ms)
        b = Indexer(Storage(store_b, store_b), Embedder(up, cache_enabled=False), cfg,
                    clock=lambda: now_ms() - skew_ms)
        try:
            [m] = await store_a.append([Message(session_id="s", content="late walrus",
                                                ts=5)])
            assert m.id is not None
            a.start()
            # the database runs on this machine: its clock is this process's
            before = now_ms()
            await a.flush(timeout=30)  # one attempt, which fails
            after = now_ms()
            await a.stop()
            assert (await store_b.index_states([m.id]))[m.id] == IndexState.FAILED
            retry = (await store_b.retries([m.id]))[m.id]
            assert retry.attempts == 1
            assert before + 50 * (1 - RETRY_JITTER) - 1 <= retry.retry_at <= after + 50
            b.start()
            end = time.monotonic() + 30
            while (await store_b.index_states([m.id]))[m.id] != IndexState.INDEXED:
                assert time.monotonic() < end, "B finds it due twenty minutes later"
                await asyncio.sleep(0.02)
            assert up.embedded == Counter({"late walrus": 1})
        finally:
            await a.stop()
            await b.stop()
            await store_a.close()
            await store_b.close()


async def test_a_rewrite_in_another_process_wins_over_the_old_text_being_embedded(
        ) -> None:
    """F3 across processes: A embeds a pending message's old text (held by the service)
    while B rewrites it; A's vector of the old text is not written, and the message
    ends up with the vector of its new text, embedded once."""
    async with shared_schema() as url:
        with embedding_service() as service:
            service.hold = lambda rec: 1.0 if "key-a" in rec.headers.get(
                "authorization", "") else 0.0
            store = await PostgresStore.open(url)
            try:
                [m] = await store.append([Message(session_id="s", content="old walrus",
                                                  ts=5)])
            finally:
                await store.close()
            a = await Memory.open(url, embedding=embedding(service, "key-a"),
                                  indexing={"lease_s": LEASE_S})
            b = await Memory.open(url, embedding=embedding(service, "key-b"),
                                  indexing={"lease_s": LEASE_S})
            try:
                flushing = asyncio.create_task(a.flush(timeout=60))
                while not any("old walrus" in r.texts for r in service.requests):
                    await asyncio.sleep(0.01)
                await b.rewrite("s", 5, content="new narwhal")
                await flushing
                await b.flush(timeout=60)
                await a.flush(timeout=60)
            finally:
                await a.close()
                await b.close()
            counts = embed_counts(service)
        messages, states, vectors = await stored_state(url)
        assert [x.content for x in messages] == ["new narwhal"]
        assert_each_vector_is_its_text(messages, states, vectors)
        assert (counts["old walrus"], counts["new narwhal"]) == (1, 1)
        assert m.id in vectors


async def test_rewrites_of_one_message_in_two_processes_apply_one_after_the_other(
        ) -> None:
    """F3 across processes: A's rewrite embeds its text (held by the service) while B
    rewrites the same indexed message; B waits for A's rewrite to finish (the message
    lock), so the last rewrite's text has the message's one vector."""
    async with shared_schema() as url:
        with embedding_service() as service:
            service.hold = lambda rec: 1.0 if "first rewrite" in rec.texts else 0.0
            a = await Memory.open(url, embedding=embedding(service, "key-a"),
                                  indexing={"lease_s": LEASE_S})
            b = await Memory.open(url, embedding=embedding(service, "key-b"),
                                  indexing={"lease_s": LEASE_S})
            try:
                await a.add({"content": "original", "ts": 7}, session="s")
                await a.flush(timeout=60)
                first = asyncio.create_task(a.rewrite("s", 7, content="first rewrite"))
                while not any("first rewrite" in r.texts for r in service.requests):
                    await asyncio.sleep(0.01)
                await b.rewrite("s", 7, content="second rewrite")
                assert first.done()  # B went after A
                await first
            finally:
                await a.close()
                await b.close()
        messages, states, vectors = await stored_state(url)
        assert [x.content for x in messages] == ["second rewrite"]
        assert_each_vector_is_its_text(messages, states, vectors)


# --------------------------------------------------------------------------- processes


def start_replica(tmp: Path, url: str, service: FakeEmbeddingService, name: str, key: str,
                  rounds: int, stop_file: Path | None) -> tuple[subprocess.Popen[bytes], Path]:
    out = tmp / f"{name}.out"
    cfg = {"url": url, "endpoint": service.url + "/v1", "key": key, "name": name,
           "lease_s": str(LEASE_S), "rounds": str(rounds),
           "stop_file": str(stop_file) if stop_file else ""}
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}
    with open(out, "wb") as sink:
        proc = subprocess.Popen([sys.executable, str(REPLICA), json.dumps(cfg)],
                                stdout=sink, stderr=subprocess.STDOUT, env=env)
    return proc, out


def acked(out: Path) -> dict[str, str]:
    """id -> content of every add the replica acknowledged."""
    lines = out.read_text(errors="replace").splitlines()
    return dict(line[4:].split(" ", 1) for line in lines if line.startswith("ack "))


def wait_until(check: Any, what: str, timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, f"timed out waiting for {what}"
        time.sleep(0.02)


async def test_three_processes_share_the_work_and_survive_a_kill_mid_batch(
        tmp_path: Path) -> None:
    """Three replicas add and recall at once; one is killed (``kill -9``) while the
    service holds its batches. Every acknowledged message is stored once and has one
    vector of its text; the service embedded every message once, except the killed
    replica's claimed ones: once in its lost calls, once more after their leases ran out."""
    stop = tmp_path / "stop"
    async with shared_schema() as url:
        with embedding_service() as service:
            victim, victim_out = start_replica(tmp_path, url, service, "victim", "key-held",
                                               10, None)
            others = [start_replica(tmp_path, url, service, n, f"key-{n}", 30, stop)
                      for n in ("alice", "bob")]
            try:
                def victim_held() -> list[Recorded]:
                    return [r for r in list(service.requests) if held_batch(r)]

                wait_until(lambda: "added" in victim_out.read_text(errors="replace")
                           and victim_held(), "the victim's adds and a held batch")
                assert victim.poll() is None
                os.kill(victim.pid, signal.SIGKILL)
                assert victim.wait(timeout=30) == -signal.SIGKILL
                held = victim_held()
                wait_until(lambda: all(r.dropped for r in held), "the held calls to drop")
                assert all(p.poll() is None for p, _ in others)  # still adding
                stop.touch()
                for p, _ in others:
                    assert p.wait(timeout=180) == 0
            finally:
                for p in (victim, *(p for p, _ in others)):
                    if p.poll() is None:
                        p.kill()
                        p.wait()
            counts = embed_counts(service)
        for _, out in others:
            assert "done" in out.read_text(), out.read_text()
        ack = {**acked(victim_out), **{k: v for _, o in others for k, v in acked(o).items()}}
        assert len(ack) == 10 * 2 + 2 * 30 * 2

        messages, states, vectors = await stored_state(url)
        by_content = Counter(m.content for m in messages)
        assert all(by_content[c] == 1 for c in ack.values())  # stored once
        stored = {m.id: m.content for m in messages}
        assert all(stored.get(i) == c for i, c in ack.items())
        assert_each_vector_is_its_text(messages, states, vectors)

        # the victim's claims were embedded by it (lost with it) and once more elsewhere
        lost = {t for r in held for t in r.texts}
        assert lost and lost <= set(by_content)
        twice = {t for t, n in counts.items() if t in by_content and n > 1}
        assert twice == lost
        assert all(counts[t] == 2 for t in twice)
        assert all(counts[c] >= 1 for c in by_content)


async def test_announcements_made_while_the_listening_connection_was_down_are_not_lost(
        ) -> None:
    """The connection an indexer LISTENs on ends (the server restarted, failed over, or
    the connection was cut) and is reopened a moment later: a memory closed in between
    announced the messages it left (NOTIFY), which reached no one, and the indexer took
    them only at its periodic sweep (``lease_s`` later, an hour here). Reopened, the
    connection now makes the indexer sweep at once. The cut here is the server ending
    that backend (``pg_terminate_backend``, as a restart does); the announcement is made
    again until no backend was listening for it."""
    import psycopg

    hour = {"lease_s": 3600}
    name = f"chatmem_{uuid.uuid4().hex[:12]}"
    listening = ("SELECT pid FROM pg_stat_activity WHERE application_name = %s "
                 "AND query LIKE 'LISTEN %%'")
    async with shared_schema() as url, \
            await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as admin:

        async def listeners() -> list[int]:
            return [r[0] for r in await (await admin.execute(listening, [name])).fetchall()]

        with fresh_service() as service:
            b = await Memory.open(f"{url}&application_name={name}",
                                  embedding=embedding(service, "key-b"), indexing=hour)
            try:
                await b.flush(timeout=60)  # its start-up sweep is over: it waits an hour
                end = time.monotonic() + 30
                while not await listeners():
                    assert time.monotonic() < end, "B never listened"
                    await asyncio.sleep(0.02)
                left = await PostgresStore.open(url)
                try:
                    [m] = await left.append([Message(session_id="s", content="left behind",
                                                     ts=5)])
                    while True:  # cut B's LISTEN, and announce while none listens
                        for pid in await listeners():
                            await admin.execute("SELECT pg_terminate_backend(%s)", [pid])
                        await left.announce_pending()
                        if not await listeners():  # none came back before it: missed
                            break
                finally:
                    await left.close()
                await indexed_soon(b, m)
                assert await listeners()  # and it listens again
            finally:
                await b.close()
