"""How ``reindex`` spends its requests to a remote embedding service (the fake service
on 127.0.0.1): each answered request's vectors are stored as they come, so a run
that stops part way (the service failing, the process killed) loses at most the
requests that were not answered; and the requests go out ``max_concurrency`` at once,
each message with its own vector, none lost when one request fails."""

from __future__ import annotations

import asyncio
import logging
import threading
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chatmem import Memory, Message
from chatmem.indexing import IndexerStats
from chatmem.models import IndexState
from fake_embedding_service import (
    FakeEmbeddingService,
    Recorded,
    Step,
    expected,
    fresh_service,
)

N = 200
PER_REQUEST = 10  # embedding.batch_size: texts per request


def _messages() -> list[Message]:
    return [Message(session_id=f"s{i % 4}", content=f"note {i}: the parcel for flat {i}",
                    ts=1_000_000 + i) for i in range(N)]


def _config(service: FakeEmbeddingService, **embedding: Any) -> dict[str, Any]:
    return {
        # the cache off: a text embedded again reaches the service again; the timeout
        # far above any answer's time, as an attempt timed out on a loaded machine would
        # be counted as a request, and its texts sent again (test_outage's CI failure)
        "embedding": service.config("openai", model="bow", max_retries=0, timeout=60.0,
                                    batch_size=PER_REQUEST, cache={"enabled": False},
                                    **embedding),
        "indexing": {"retry_initial_s": 0.05, "retry_max_s": 0.2},
    }


async def _stored_and_cleared(url: str, config: dict[str, Any]) -> list[Message]:
    """N messages stored and indexed, then their vectors cleared (reindex redoes them)."""
    mem = await Memory.open(url, config=config)
    try:
        added = await mem.add(_messages())
        await asyncio.wait_for(mem.flush(), 60)
        assert (await mem.stats())["indexed"] == N
        await mem.clear("vector")
    finally:
        await mem.close()
    return added


async def test_a_reindex_cut_short_keeps_each_answered_requests_vectors(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/resume.db"
    with fresh_service() as service:
        config = _config(service)
        # retries far off: the first run's failures wait for the next run
        config["indexing"] = {"retry_initial_s": 3600.0, "retry_max_s": 3600.0}
        await _stored_and_cleared(url, config)
        answered = 6  # the width probe and five requests of texts, then the service fails
        service.requests.clear()
        service.script(*[Step() for _ in range(answered)])
        service.default = Step(status=503)
        mem = await Memory.open(url, config=config)
        try:
            first = await mem.reindex()
        finally:
            await mem.close()
        # the five answered requests' vectors were stored, not dropped with the batch
        assert first["reembedded"] == (answered - 1) * PER_REQUEST, first

        service.requests.clear()
        service.default = Step()  # the service is back: the next run finishes the work
        mem = await Memory.open(url, config=config)
        try:
            second = await mem.reindex()
            assert (await mem.stats())["indexed"] == N
        finally:
            await mem.close()
        left = N - first["reembedded"]
        assert second["reembedded"] == left, second
        # the width probe, then only the texts not answered before
        assert len(service.requests) == 1 + left // PER_REQUEST, len(service.requests)


async def test_reindex_sends_max_concurrency_requests_at_once_and_loses_none(
        tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/concurrent.db"
    with fresh_service() as service:
        config = _config(service, max_concurrency=3)
        added = await _stored_and_cleared(url, config)
        service.requests.clear()
        service.peak_in_flight = 0
        service.default = Step(delay=0.05)
        # one request of texts fails: its messages are retried, the others kept
        service.script(Step(), Step(delay=0.05), Step(delay=0.05), Step(status=503))
        mem = await Memory.open(url, config=config)
        try:
            out = await mem.reindex()
            assert out["cleared"] == N
            for _ in range(400):  # the failed request's messages come back on retry
                if (await mem.stats())["indexed"] == N:
                    break
                await asyncio.sleep(0.05)
            stats = await mem.stats()
            assert (stats["indexed"], stats["pending"], stats["failed"]) == (N, 0, 0), stats
            # each message got the vector of its own text, in whatever order they came
            states = await mem.store.index_states([m.id or "" for m in added])
            assert set(states.values()) == {IndexState.INDEXED}
            found: dict[str, Any] = {}
            after = None
            while page := await mem.index.scan_vectors(after, 1000):  # type: ignore[union-attr]
                found.update((e.message_id, e.vector) for e in page)
                after = page[-1].message_id
            assert len(found) == N
            assert all(np.allclose(found[m.id or ""], expected(m.embedded_text), atol=1e-6)
                       for m in added)
        finally:
            await mem.close()
        # bounded by max_concurrency, and using it
        assert service.peak_in_flight == 3, service.peak_in_flight
        healthy = [r for r in service.requests if r.status == 200]
        embedded = Counter(t for r in healthy for t in r.texts)
        assert all(embedded[m.embedded_text] == 1 for m in added)  # none embedded twice
        assert sum(1 for r in service.requests if r.status == 503) == 1


async def test_a_batch_whose_pieces_fail_together_is_retried_together(
        tmp_path: Path) -> None:
    """A batch's retries are due at one time (one jitter per batch, E12), so they go in
    one wave: a batch sent as pieces of one request each, failing, had each piece
    scheduled with its own jitter and time, and was retried in as many waves."""
    url = f"sqlite:///{tmp_path}/together.db"
    with fresh_service() as service:
        config = _config(service, max_concurrency=4)
        config["indexing"] = {"retry_initial_s": 3600.0, "retry_max_s": 3600.0}
        # held a while: the pieces are in flight together, then all fail
        service.default = Step(status=503, delay=0.2)
        mem = await Memory.open(url, config=config)
        assert mem._indexer is not None
        try:
            added = await mem.add(_messages()[:40])  # 4 pieces of PER_REQUEST
            for _ in range(1200):
                if mem._indexer.stats().failed >= 40:
                    break
                await asyncio.sleep(0.025)
            # sent together (one sent after the failure is known would stay unsent)
            assert 1 <= len(service.requests) <= 4, len(service.requests)
            retries = await mem.store.retries([m.id or "" for m in added])
            assert len(retries) == 40
            due = Counter(r.retry_at for r in retries.values())
            assert len(due) == 1, due
        finally:
            await mem.close()


async def test_a_retry_during_an_outage_sends_one_request_before_the_others(
        tmp_path: Path) -> None:
    """A batch sent as pieces of one request each goes ``max_concurrency`` requests at
    once; while the provider is known to fail, its retry (one batch, a probe) sends one
    piece first, and the others only once that one is answered well: one failing
    request per retry of the outage, not ``max_concurrency``."""
    url = f"sqlite:///{tmp_path}/probe.db"
    with fresh_service() as service:
        config = _config(service, max_concurrency=4)
        # held a while: pieces sent together are all in flight before one is answered
        service.default = Step(status=503, delay=0.2)
        mem = await Memory.open(url, config=config)
        assert mem._indexer is not None
        indexer = mem._indexer

        async def failed(count: int) -> int:
            """The requests made once ``count`` failed attempts (per message) are in."""
            for _ in range(1200):
                if indexer.stats().failed >= count:
                    return len(service.requests)
                await asyncio.sleep(0.025)
            raise AssertionError(f"{indexer.stats()} after 30 s")

        try:
            added = await mem.add(_messages()[:40])  # 4 pieces of PER_REQUEST
            first = await failed(40)  # the outage is not known yet: pieces together
            assert 1 <= first <= 4, first  # 4 unless a machine stalls 0.2 s
            assert indexer.stats().retries_paused_for == "provider"
            second = await failed(80)  # the retry: the probe alone, the rest unsent
            third = await failed(120)
            assert (second - first, third - second) == (1, 1), (first, second, third)

            service.default = Step(delay=0.05)  # recovered: the next probe's rest follows
            for _ in range(1200):
                if (await mem.stats())["indexed"] == 40:
                    break
                await asyncio.sleep(0.025)
            stats = await mem.stats()
            assert (stats["indexed"], stats["pending"], stats["failed"]) == (40, 0, 0), stats
        finally:
            await mem.close()
        healthy = [r for r in service.requests if r.status == 200]
        embedded = Counter(t for r in healthy for t in r.texts)
        assert all(embedded[m.embedded_text] == 1 for m in added)  # none embedded twice


async def test_reindex_queues_no_more_than_the_queue_takes(tmp_path: Path) -> None:
    """reindex queues its messages a worker's batch at a time (indexing.batch_size, 512)
    and the queue holds indexing.max_queue_size (500): the 12 more of each 512 were
    dropped from the queue and left to the reindex's closing flush, a pass of their
    own (12 + 12 of 1,000 messages, one more request). Now each step fits the queue:
    nothing dropped, and the requests are those of the steps."""
    url = f"sqlite:///{tmp_path}/steps.db"
    n = 1000
    with fresh_service() as service:
        config = _config(service)
        config["embedding"]["batch_size"] = 100
        messages = [Message(session_id=f"s{i % 4}", content=f"note {i}: the box of shelf {i}",
                            ts=1_000_000 + i) for i in range(n)]
        mem = await Memory.open(url, config=config)
        try:
            await mem.add(messages)
            await asyncio.wait_for(mem.flush(), 60)
            await mem.clear("vector")
        finally:
            await mem.close()
        service.requests.clear()
        mem = await Memory.open(url, config=config)
        try:
            out = await mem.reindex()
            stats = await mem.stats()
        finally:
            await mem.close()
        assert (out["cleared"], out["reembedded"]) == (n, n), out
        assert stats["indexer"]["dropped_from_queue"] == 0, stats["indexer"]
        # the width probe, then two steps of 500 messages in requests of 100
        assert len(service.requests) == 1 + 10, [len(r.texts) for r in service.requests]
        embedded = Counter(t for r in service.requests[1:] for t in r.texts)
        assert all(embedded[m.embedded_text] == 1 for m in messages)


async def test_a_flush_pages_no_more_than_the_queue_takes(tmp_path: Path) -> None:
    """A flush reads the messages waiting for a retry (and the pending ones) in pages
    it queues at once: pages of max(room, indexing.batch_size), 512 against a queue of
    indexing.max_queue_size 500, so the oldest 12 of each page were dropped from the
    queue and attempted apart, a request of their own (1,000 messages in requests of
    100: 11 requests where 10 fit, 12 dropped). Now a page fits the queue."""
    url = f"sqlite:///{tmp_path}/pages.db"
    n = 1000
    with fresh_service() as service:
        config = _config(service)
        config["embedding"]["batch_size"] = 100
        # retries far off: the failed messages wait for the flush below, not a sweep
        config["indexing"] = {"retry_initial_s": 3600.0, "retry_max_s": 3600.0}
        messages = [Message(session_id=f"s{i % 4}", content=f"note {i}: the key of door {i}",
                            ts=1_000_000 + i) for i in range(n)]
        service.default = Step(status=503)
        mem = await Memory.open(url, config=config)
        try:
            await mem.add(messages)
            await asyncio.wait_for(mem.flush(), 60)
            assert (await mem.stats())["failed"] == n
        finally:
            await mem.close()
        service.default = Step()  # the service is back: the flush gives each its attempt
        mem = await Memory.open(url, config=config)
        try:
            service.requests.clear()
            await asyncio.wait_for(mem.flush(), 60)
            stats = await mem.stats()
        finally:
            await mem.close()
        assert (stats["indexed"], stats["failed"]) == (n, 0), stats
        assert stats["indexer"]["dropped_from_queue"] == 0, stats["indexer"]
        sent = [r for r in service.requests if r.status == 200]
        # two pages of 500 messages in requests of 100
        assert len(sent) == 10, [len(r.texts) for r in sent]
        embedded = Counter(t for r in sent for t in r.texts)
        assert all(embedded[m.embedded_text] == 1 for m in messages)


async def test_the_indexing_history_counts_each_request_of_a_batch(tmp_path: Path) -> None:
    """The console's indexing history (stats()["indexing"]) and the batch metrics count
    each indexing batch by its outcome. A batch sent as pieces of one request each was
    counted whole by the outcome of all its pieces: one piece answered with a NaN (its
    texts retried one by one, all good) made the batch ``split``, which the history
    leaves to the batches of one, so the messages of the pieces answered well were
    never counted: 10 indexed shown of 40 written."""
    url = f"sqlite:///{tmp_path}/history.db"
    with fresh_service() as service:
        config = _config(service, max_concurrency=1)  # the pieces in order
        service.script(Step(), Step(nan=True))  # the second piece: retried one by one
        mem = await Memory.open(url, config=config)
        try:
            await mem.add(_messages()[:40])  # 4 pieces of PER_REQUEST
            await asyncio.wait_for(mem.flush(), 60)
            stats = await mem.stats()
        finally:
            await mem.close()
        assert (stats["indexed"], stats["pending"], stats["failed"]) == (40, 0, 0), stats
        # 4 requests, the NaN one's 10 texts again one by one
        assert len(service.requests) == 4 + PER_REQUEST, len(service.requests)
        history = stats["indexing"]
        assert (sum(history["indexed"]), sum(history["failed"])) == (40, 0), history

    # one piece refused (503): the pieces after it wait unsent, the one before is written
    url = f"sqlite:///{tmp_path}/history-503.db"
    with fresh_service() as service:
        config = _config(service, max_concurrency=1)
        service.script(Step(), Step(status=503))
        mem = await Memory.open(url, config=config)
        try:
            await mem.add(_messages()[:40])
            for _ in range(1200):  # the retries (0.05 s on) bring the other 30 in
                if (await mem.stats())["indexed"] == 40:
                    break
                await asyncio.sleep(0.025)
            stats = await mem.stats()
        finally:
            await mem.close()
        assert (stats["indexed"], stats["pending"], stats["failed"]) == (40, 0, 0), stats
        history = stats["indexing"]
        # 10 written at once, 30 failed and then written on their retry
        assert (sum(history["indexed"]), sum(history["failed"])) == (40, 30), history


def _holding(gate: threading.Event, held: Callable[[Recorded], bool] = lambda rec: True
             ) -> Callable[[Recorded], float]:
    """The service's hold: the requests ``held`` picks wait until ``gate`` is set."""
    def hold(rec: Recorded) -> float:
        if held(rec):
            gate.wait(60)
        return 0.0
    return hold


def _room_config(service: FakeEmbeddingService) -> dict[str, Any]:
    config = _config(service, max_concurrency=1)  # one request held holds the queue
    config["embedding"].update(batch_size=100, timeout=60.0)  # held, not given up
    # retries far off: the failed messages wait for the flush, not a sweep
    config["indexing"] = {"retry_initial_s": 3600.0, "retry_max_s": 3600.0}
    return config


def _room_messages(thing: str) -> list[Message]:
    return [Message(session_id=f"s{i % 4}", content=f"note {i}: the {thing} {i}",
                    ts=1_000_000 + i) for i in range(1500)]


async def _stored(url: str, config: dict[str, Any], messages: list[Message], *,
                  clear: bool = False) -> dict[str, Any]:
    """``messages`` added and flushed (``clear``: their vectors then cleared): the stats."""
    mem = await Memory.open(url, config=config)
    try:
        await mem.add(messages)
        await asyncio.wait_for(mem.flush(), 60)
        if clear:
            await mem.clear("vector")
        return await mem.stats()
    finally:
        await mem.close()


async def _beside_a_partly_full_queue(
        url: str, config: dict[str, Any], service: FakeEmbeddingService,
        gate: threading.Event, messages: list[Message],
        call: Callable[[Memory], Awaitable[Any]]) -> tuple[IndexerStats, Any, dict[str, Any]]:
    """``call`` (a flush, a reindex) made while the queue holds 300 of ``messages``'
    last 500: the first 200 are taken by a worker whose first request the service holds
    until ``gate`` is set (the one embedding slot), then the other 300 are added. The
    indexer's counters once 500 are queued (or some dropped), what ``call`` returned,
    and the memory's stats after it."""
    mem = await Memory.open(url, config=config)
    assert mem._indexer is not None
    indexer = mem._indexer
    try:
        await mem.add(messages[-500:-300])
        for _ in range(2400):
            if service.requests:
                break
            await asyncio.sleep(0.025)
        assert len(service.requests) == 1
        await mem.add(messages[-300:])
        assert indexer.stats().queued == 300, indexer.stats()
        running = asyncio.ensure_future(call(mem))
        for _ in range(2400):  # the flush's first page, the reindex's first step
            queued = indexer.stats()
            if queued.queued >= 500 or queued.dropped_from_queue:
                break
            await asyncio.sleep(0.025)
        gate.set()
        out = await asyncio.wait_for(running, 60)
        stats = await mem.stats()
    finally:
        gate.set()
        await mem.close()
    assert (stats["indexed"], stats["failed"], stats["pending"]) == (len(messages), 0, 0), stats
    assert stats["indexer"]["dropped_from_queue"] == 0, stats["indexer"]
    sent = [r for r in service.requests if r.status == 200]
    embedded = Counter(t for r in sent for t in r.texts)
    assert all(embedded[m.embedded_text] == 1 for m in messages)
    return queued, out, stats


async def test_a_flush_pages_no_more_than_the_room_left_in_a_partly_full_queue(
        tmp_path: Path) -> None:
    """A flush's page was max(room, indexing.queue_step), the queue's capacity (500): a
    flush whose queue already held 300 messages (a worker's request held by a slow
    service, the one embedding slot) read 500 failed messages and queued them at once,
    and the oldest 300 were dropped from the queue (stats indexer.dropped_from_queue),
    read again by a later pass. Now a page is the room left in the queue."""
    url = f"sqlite:///{tmp_path}/room.db"
    with fresh_service() as service:
        config = _room_config(service)
        messages = _room_messages("lid of jar")
        service.default = Step(status=503)
        assert (await _stored(url, config, messages[:1000]))["failed"] == 1000
        gate = threading.Event()
        service.default = Step()  # the service is back, and holds its requests
        service.hold = _holding(gate)
        service.requests.clear()
        queued, _, _ = await _beside_a_partly_full_queue(
            url, config, service, gate, messages, lambda mem: mem.flush())
        assert (queued.queued, queued.dropped_from_queue) == (500, 0), queued


async def test_reindex_queues_no_more_than_the_room_left_in_a_partly_full_queue(
        tmp_path: Path) -> None:
    """reindex's step (indexing.queue_step, 500) was queued at once whatever the queue
    held already: 300 messages waiting there (a worker's request held by a slow
    service) were dropped from the queue by the first step. Now a step is queued as
    the queue has room for it."""
    url = f"sqlite:///{tmp_path}/reindex-room.db"
    with fresh_service() as service:
        config = _room_config(service)
        messages = _room_messages("cup of hook")
        assert (await _stored(url, config, messages[:1000], clear=True))["cleared"] == 1000
        gate = threading.Event()
        held = {m.embedded_text for m in messages[1000:1200]}
        # the worker's request of the messages added below is held, not reindex's probe
        service.hold = _holding(gate, lambda rec: bool(set(rec.texts) & held))
        service.requests.clear()
        queued, out, _ = await _beside_a_partly_full_queue(
            url, config, service, gate, messages, lambda mem: mem.reindex())
        assert (queued.queued, queued.dropped_from_queue) == (500, 0), queued
        assert (out["cleared"], out["reembedded"]) == (1000, 1500), out


async def test_a_rewrite_waits_for_its_own_request_not_the_whole_batch(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A batch sent as pieces of one request each writes each piece when it is
    answered (e9f4861), but its messages counted as in flight until its last request
    was answered: a rewrite (which waits for the indexing under way of its message)
    of a message whose request was answered and written long before waited for the
    whole batch, up to indexing.batch_size (512) messages of requests; an erase of one
    waited for it too (up to 10 s, then warned that an embedding of erased messages
    was still running). Now a written piece's messages are done at once: the rewrite
    and the erase return while the batch's other requests are still held by the
    service."""
    url = f"sqlite:///{tmp_path}/pieces.db"
    with fresh_service() as service:
        config = _config(service, max_concurrency=4)
        config["embedding"]["timeout"] = 60.0  # the held requests are not given up
        messages = _messages()[:40]  # 4 pieces of PER_REQUEST
        originals = {m.embedded_text for m in messages}
        gate = threading.Event()
        # the batch's requests after the first wait for the gate; others (the rewrite's
        # own embedding) are answered
        service.hold = _holding(gate, lambda rec: rec is not service.requests[0]
                                and set(rec.texts) <= originals)
        mem = await Memory.open(url, config=config)
        assert mem._indexer is not None
        indexer = mem._indexer
        loop = asyncio.get_running_loop()
        watchdog = loop.call_later(30, gate.set)  # a rewrite that waits for them ends
        try:
            added = await mem.add(messages)
            for _ in range(2400):  # the first request is answered and written
                if len(service.requests) >= 2 and service.requests[0].status == 200:
                    first = set(service.requests[0].texts)
                    written = [m for m in added if m.embedded_text in first]
                    states = await mem.store.index_states([m.id or "" for m in written])
                    if set(states.values()) == {IndexState.INDEXED}:
                        break
                await asyncio.sleep(0.025)
            else:
                raise AssertionError(f"{len(service.requests)} requests")
            target = written[0]
            assert target.ts is not None

            async def rewritten() -> tuple[Message, bool, IndexerStats]:
                msg = await mem.rewrite(target.session_id, target.ts or 0,
                                        content="the parcel went to the neighbour")
                return msg, gate.is_set(), indexer.stats()

            msg, released, when = await asyncio.wait_for(rewritten(), 120)
            # returned while the later pieces' requests were still held by the service:
            # their 30 messages still in flight, none failed
            assert (released, when.in_flight, when.failed) == (False, 30, 0), when
            caplog.set_level(logging.WARNING, "chatmem.memory")
            erased = await asyncio.wait_for(mem.erase([written[1].id or ""]), 120)
            assert erased.messages == 1
            assert (gate.is_set(), indexer.stats().in_flight) == (False, 30)
            assert not [r for r in caplog.records if "still running" in r.getMessage()]
            gate.set()
            await asyncio.wait_for(mem.flush(), 60)
            stats = await mem.stats()
            assert (stats["indexed"], stats["pending"], stats["failed"]) == (39, 0, 0), stats
            assert msg.content == "the parcel went to the neighbour"
        finally:
            watchdog.cancel()
            gate.set()
            await mem.close()
        healthy = [r for r in service.requests if r.status == 200]
        embedded = Counter(t for r in healthy for t in r.texts)
        assert all(embedded[m.embedded_text] == 1 for m in added)  # none embedded twice
