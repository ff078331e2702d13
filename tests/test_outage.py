"""Issue 11's acceptance scenario, with the delays scaled down: an embedding service
that fails for a while and then recovers. Every message added during the outage is
indexed exactly once afterwards, and recalls made during the outage return full-text
results flagged ``degraded``. (``bench/outage.py`` runs it with real delays.)"""

from __future__ import annotations

import asyncio
import logging
from collections import Counter
from pathlib import Path

import pytest

from chatmem import Memory, Message
from fake_embedding_service import Step, fresh_service

N = 1000
SESSIONS = 10


def _message(i: int) -> Message:
    # one rare word per message ("token<i>x"), so a recall can ask for exactly it
    return Message(session_id=f"s{i % SESSIONS}", content=f"note {i}: the token{i}x is "
                   f"filed under drawer {i % 37}", ts=1_000_000 + i, speaker_id=f"u{i % 7}",
                   platform="slack")


async def test_a_provider_outage_loses_nothing_and_recall_degrades_to_full_text(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG, logger="chatmem.embedding")
    with fresh_service(dims=16) as service:
        config = {
            # the cache off: a text embedded twice would reach the service twice. The
            # attempt's timeout far above any answer's time (the service answers at
            # once): an attempt timed out on a loaded machine is sent again, its first
            # answer unread, which the exactly-once count below takes for a second
            # embedding (CI, at 2 s: one request of 32 texts counted twice)
            "embedding": service.config("openai", model="bow", max_retries=1, timeout=60.0,
                                        query_deadline=1.0, cache={"enabled": False}),
            "indexing": {"retry_initial_s": 0.05, "retry_max_s": 0.4},
        }
        service.default = Step(status=503)  # the outage begins
        mem = await Memory.open(f"sqlite:///{tmp_path}/outage.db", config=config)
        try:
            acked: list[Message] = []
            for start in range(0, N, 50):
                acked += await mem.add([_message(i) for i in range(start, start + 50)])
            assert len(acked) == N

            # recalls during the outage: full text, flagged, the asked-for message first
            for i in (3, 517, 999):
                result = await mem.recall(f"where is token{i}x filed?", session=f"s{i % 10}")
                assert result.degraded, result
                assert result.hits and result.hits[0].message.id == acked[i].id
            # and within the visibility of the asking session (scope session)
            narrow = await mem.recall("where is token517x filed?", session="s0",
                                      scope="session")
            assert narrow.degraded and all(h.message.session_id == "s0" for h in narrow.hits)
            before = await mem.stats()
            assert before["indexed"] == 0 and before["messages"] == N

            assert all(r.status == 503 for r in service.requests) and service.requests
            service.default = Step()  # the service recovers
            await asyncio.wait_for(mem.flush(), 60)
            # flush may return with messages still scheduled; wait for the retries
            for _ in range(600):
                s = await mem.stats()
                if s["indexed"] == N:
                    break
                await asyncio.sleep(0.05)
            s = await mem.stats()
            assert (s["indexed"], s["pending"], s["failed"]) == (N, 0, 0), s
            assert s["vectors_by_model"] == {"openai:bow": N}

            # exactly once: every message's text was embedded by one successful request
            healthy = [r for r in service.requests if r.status == 200]
            embedded = Counter(t for r in healthy for t in r.texts)
            counts = Counter(embedded[m.embedded_text] for m in acked)
            # a second request must be one chatmem never had the answer of (timed out)
            assert counts == {1: N}, (counts, [r.getMessage() for r in caplog.records
                                               if "timed out" in r.getMessage()])

            after = await mem.recall("where is token517x filed?", session="s7")
            assert not after.degraded
            ids = [h.message.id for h in after.hits]
            # the service's vectors are random (no meaning to rank by): the word match is
            # recalled, blended with its own (random) cosine since stop 22, not first
            assert acked[517].id in ids and len(ids) == len(set(ids))
        finally:
            await mem.close()


async def test_a_flush_during_an_outage_gives_the_batch_in_flight_no_second_attempt(
        tmp_path: Path) -> None:
    """A service that never answers: the background indexer's request is in flight when
    the flush starts, and is given up at ``embedding.deadline`` while the flush waits.
    That is news the service is down now, so the flush sends no second request (it did,
    and waited two deadlines); the message waits for its retry. Once the service is
    back, the next flush tries that (older) failure again, and nothing is left failed.
    The deadline (5 s, ample under load) only has to outlast the gap between the
    request's arrival and the flush's start."""
    with fresh_service(dims=16) as service:
        config = {
            "embedding": service.config("openai", model="bow", deadline=5.0, timeout=60.0,
                                        max_retries=0, cache={"enabled": False}),
            # far off: only the flushes below make attempts
            "indexing": {"retry_initial_s": 60.0, "retry_max_s": 60.0},
        }
        service.default = Step(delay=600)  # the service takes requests, answers none
        mem = await Memory.open(f"sqlite:///{tmp_path}/hang.db", config=config)
        try:
            [msg] = await mem.add(_message(1))
            for _ in range(1000):  # the indexer's request reaches the service
                if service.requests:
                    break
                await asyncio.sleep(0.01)
            assert len(service.requests) == 1
            await asyncio.wait_for(mem.flush(), 60)
            assert len(service.requests) == 1, [r.texts for r in service.requests]
            s = await mem.stats()
            assert (s["indexed"], s["pending"], s["failed"]) == (0, 0, 1), s

            service.default = Step()  # the service recovers
            await asyncio.wait_for(mem.flush(), 60)
            assert len(service.requests) == 2
            assert service.requests[1].texts == [msg.embedded_text]
            s = await mem.stats()
            assert (s["indexed"], s["pending"], s["failed"]) == (1, 0, 0), s
        finally:
            await mem.close()


async def test_a_failure_from_before_the_flush_in_a_batch_still_in_flight_is_tried_again(
        tmp_path: Path) -> None:
    """One indexing batch sent as two requests: one is refused (503) and its messages
    are scheduled for a retry before the flush starts, while the other is still held by
    the service. The flush waits for the batch; the older failure gets its attempt (the
    service may be back since: it is), the request given up at the deadline while the
    flush waited gets none (it did, a fourth request). The deadline (5 s, ample under
    load) only has to outlast the few store reads between the refusal and the flush's
    start."""
    with fresh_service(dims=16) as service:
        config = {
            "embedding": service.config("openai", model="bow", deadline=5.0, timeout=60.0,
                                        max_retries=0, batch_size=2, max_concurrency=2,
                                        cache={"enabled": False}),
            "indexing": {"retry_initial_s": 60.0, "retry_max_s": 60.0},
        }
        service.script(Step(status=503))  # the first request to arrive is refused
        service.default = Step(delay=600)  # the other is never answered
        mem = await Memory.open(f"sqlite:///{tmp_path}/half.db", config=config)
        try:
            acked = await mem.add([_message(i) for i in range(4)])
            for _ in range(1000):  # the refused request's messages wait for a retry
                if (await mem.stats())["failed"] == 2:
                    break
                await asyncio.sleep(0.01)
            assert len(service.requests) == 2 and (await mem.stats())["failed"] == 2
            service.default = Step()  # the service recovers
            await asyncio.wait_for(mem.flush(), 60)
            refused = [r for r in service.requests if r.status == 503]
            assert len(refused) == 1 and len(service.requests) == 3, [
                (r.status, r.texts) for r in service.requests]
            assert sorted(service.requests[2].texts) == sorted(refused[0].texts)
            s = await mem.stats()
            assert (s["indexed"], s["pending"], s["failed"]) == (2, 0, 2), s
            await asyncio.wait_for(mem.flush(), 60)  # the held request's messages too
            s = await mem.stats()
            assert (s["indexed"], s["failed"], len(service.requests)) == (4, 0, 4), s
            assert {t for r in service.requests[2:] for t in r.texts} == {
                m.embedded_text for m in acked}
        finally:
            await mem.close()


async def test_a_retry_due_sooner_than_the_sweepers_sleep_wakes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A failed message is retried ``indexing.retry_initial_s`` after the failure, as the
    log line says ("retried in 0.05 s"), also when that is sooner than the sweeper's
    sleep: a failure did not wake it, so with ``retry_initial_s`` 0.05 (README § Testing
    your bot: how a test shortens the waits) the retry came with the sweeper's next look,
    up to ``SWEEP_POLL_S`` (0.5 s) later. That sleep is an hour here (and the periodic
    sweep, ``lease_s``, too), so the retry comes only if the failure wakes the sweeper;
    no flush is called."""
    from chatmem import indexing
    from chatmem.testing import HashEmbeddingProvider, embedder

    monkeypatch.setattr(indexing, "SWEEP_POLL_S", 3600.0)
    provider = HashEmbeddingProvider(dim=16)
    provider.fail_next(1)
    async with await Memory.open(
            f"sqlite:///{tmp_path}/retry.db", embedder=embedder(provider),
            indexing={"retry_initial_s": 0.05, "retry_max_s": 0.05,
                      "lease_s": 3600}) as mem:
        [msg] = await mem.add([Message(session_id="s", content="the first try fails")])
        for _ in range(2000):  # 20 s: the retry is due after 0.05 s
            if (await mem.index_states([msg.id or ""])).get(msg.id or "") == "indexed":
                break
            await asyncio.sleep(0.01)
        states = await mem.index_states([msg.id or ""])
        assert states == {msg.id: "indexed"}, (states, len(provider.calls))
        assert len(provider.calls) == 2 and provider.texts == [msg.embedded_text]
