"""E12: a message whose embedding failed waits FAILED with a durable schedule whose delay
grows per attempt; the indexer retries it on its own, a restart keeps the schedule,
nothing is lost and nothing is embedded twice, and ``flush`` never hangs on a provider
that is down. Real stores (SQLite, SQLite beside Qdrant, PostgreSQL), no mocks: the
provider below fails on cue, as a remote service that is down would.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path

import pytest

from backends import PLACES, Place
from chatmem import Message
from chatmem.errors import ConfigError
from chatmem.indexing import RETRY_JITTER, retry_delay
from chatmem.models import IndexState, now_ms
from chatmem.store import Storage
from chatmem.store.base import Retry
from providers import FlakyProvider
from test_pending_fulltext import FAST_RETRIES, open_memory


@pytest.fixture(params=sorted(PLACES))
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Place]:
    async with PLACES[request.param](tmp_path) as p:
        yield p


async def until(done: Callable[[], Awaitable[bool]], what: str, limit_s: float = 60.0) -> None:
    """Wait until ``done()`` holds (a deadline against hanging, not a speed check)."""
    deadline = time.monotonic() + limit_s
    while not await done():
        assert time.monotonic() < deadline, f"still not {what} after {limit_s} s"
        await asyncio.sleep(0.02)


def notes(n: int, session: str = "s", tag: str = "note") -> list[Message]:
    return [Message(session_id=session, content=f"{tag} number {i} of {session}", ts=1000 + i)
            for i in range(n)]


# --------------------------------------------------------------------------- the schedule


def test_retry_delays_double_up_to_the_cap() -> None:
    assert [retry_delay(n, 1.0, 300.0) for n in range(1, 12)] == [
        1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300]
    assert retry_delay(10_000, 1.0, 300.0) == 300.0  # no overflow, however many
    assert retry_delay(3, 1.0, 300.0, jitter=RETRY_JITTER) == 4.0 * (1 - RETRY_JITTER)
    assert retry_delay(1, 0.05, 0.2) == 0.05 and retry_delay(4, 0.05, 0.2) == 0.2


def test_the_doubling_is_written_once_where_every_layer_may_use_it() -> None:
    """The backoff formula lives in chatmem.backoff, the bottom layer: the indexer's
    retries and the PostgreSQL store's pauses before listening again use it, instead of
    the store writing it a second time because it may not import the indexer (a fix to
    one copy, such as the cap on the exponent, then missed the other). Read from the
    source: neither the indexer nor any store raises 2 to a varying power (2**63, a
    constant, is a bound, not a backoff)."""
    import ast

    import chatmem
    import chatmem.backoff
    from chatmem.store.postgres import LISTEN_RETRY_MAX_S, LISTEN_RETRY_S, listen_retry_pause

    assert retry_delay is chatmem.backoff.retry_delay  # still importable from indexing
    assert [listen_retry_pause(n) for n in range(0, 70)] == [
        chatmem.backoff.retry_delay(n, LISTEN_RETRY_S, LISTEN_RETRY_MAX_S) for n in range(0, 70)]
    src = Path(chatmem.__file__).parent
    doubling = [
        f"{path.relative_to(src)}:{node.lineno}"
        for path in [src / "indexing.py", *sorted((src / "store").rglob("*.py"))]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Pow)
        and isinstance(node.left, ast.Constant) and node.left.value == 2
        and not isinstance(node.right, ast.Constant)]
    assert doubling == [], doubling


def test_retry_settings_are_validated() -> None:
    from chatmem.config import Config

    cfg = Config.load(indexing={"retry_initial_s": 0.5, "retry_max_s": 60})
    assert (cfg.indexing.retry_initial_s, cfg.indexing.retry_max_s) == (0.5, 60.0)
    for bad, message in (({"retry_initial_s": 0}, "retry_initial_s"),
                         ({"retry_max_s": -1}, "retry_max_s"),
                         ({"retry_initial_s": 10, "retry_max_s": 5}, "at least")):
        with pytest.raises(ConfigError, match=message):
            Config.load(indexing=bad)


async def test_each_failed_attempt_is_scheduled_later_and_kept_in_the_store(
        tmp_path: Path) -> None:
    """Each flush with the provider down gives the message one more attempt; each
    failure stores the attempt count and a due time one (jittered) doubling further."""
    initial, cap = 10.0, 40.0  # far off: only the flushes below make attempts
    async with PLACES["sqlite"](tmp_path) as place:
        provider = FlakyProvider()
        provider.down = "fail"
        mem = await open_memory(place, provider, indexing={
            **FAST_RETRIES, "retry_initial_s": initial, "retry_max_s": cap})
        try:
            [m] = await mem.add(Message(session_id="s", content="keep trying"))
            assert m.id is not None
            await mem.flush(timeout=30)
            last = (await mem.store.retries([m.id]))[m.id].attempts
            assert last >= 1
            for _ in range(4):
                before = now_ms()
                await mem.flush(timeout=30)
                after = now_ms()
                r = (await mem.store.retries([m.id]))[m.id]
                assert r.attempts == last + 1
                delay_ms = retry_delay(r.attempts, initial, cap) * 1000
                assert before + delay_ms * (1 - RETRY_JITTER) - 1 <= r.retry_at
                assert r.retry_at <= after + delay_ms
                last = r.attempts
            st = await mem.stats()
            assert (st["failed"], st["pending"], st["next_retry_at"]) == (1, 0, r.retry_at)
            assert st["indexer"]["failed"] >= 5
            provider.down = None
            await mem.flush(timeout=30)
            assert (await mem.store.retries([m.id]))[m.id] == Retry()  # indexed: reset
            assert provider.embedded == {"keep trying": 1}
        finally:
            await mem.close()


# --------------------------------------------------------------------------- the indexer


async def test_failed_messages_are_retried_on_their_own(place: Place) -> None:
    """No flush: the sweeper retries the due messages once the provider is back."""
    provider = FlakyProvider()
    provider.down = "fail"
    mem = await open_memory(place, provider)
    try:
        stored = await mem.add(notes(30))

        async def all_failed() -> bool:
            return (await mem.stats())["failed"] == 30

        await until(all_failed, "failed")
        provider.down = None

        async def all_indexed() -> bool:
            return (await mem.stats())["indexed"] == 30

        await until(all_indexed, "indexed")
        st = await mem.stats()
        assert (st["pending"], st["failed"], st["next_retry_at"]) == (0, 0, None)
        assert set(provider.embedded.values()) == {1} and len(provider.embedded) == 30
        left = await mem.store.retries([m.id for m in stored if m.id])
        assert set(left.values()) == {Retry()}
    finally:
        await mem.close()


async def test_the_retry_schedule_survives_a_restart(place: Place) -> None:
    provider = FlakyProvider()
    provider.down = "defer"
    retries = {**FAST_RETRIES, "retry_initial_s": 1.0, "retry_max_s": 1.0}
    mem = await open_memory(place, provider, indexing=retries)
    try:
        stored = await mem.add(notes(20))
        ids = [m.id for m in stored if m.id]
        await mem.flush(timeout=60)
        before = await mem.store.retries(ids)
    finally:
        await mem.close()
    assert all(r.attempts >= 1 and r.retry_at > 0 for r in before.values())
    # the store (with its index, as a store paired with one must be opened), as the next
    # process finds it
    async with await Storage.open(place.url, vector=place.vector, create=False) as storage:
        kept = await storage.store.retries(ids)
        states = await storage.store.index_states(ids)
        stats = await storage.store.stats()
    assert set(states.values()) == {IndexState.FAILED}
    assert all(kept[i].attempts >= before[i].attempts and kept[i].retry_at >= before[i].retry_at
               for i in ids)
    assert stats.next_retry_at == min(r.retry_at for r in kept.values())
    provider.down = None  # back after the restart: the schedule, not a flush, retries
    mem = await open_memory(place, provider, indexing=retries)
    try:
        async def all_indexed() -> bool:
            return (await mem.stats())["indexed"] == 20

        await until(all_indexed, "indexed")
        assert set(provider.embedded.values()) == {1} and len(provider.embedded) == 20
    finally:
        await mem.close()


async def test_a_garbage_answer_fails_only_its_message(tmp_path: Path) -> None:
    """``invalid`` (a NaN vector for one text): the batch is retried one by one, the
    good messages are indexed, the bad one waits for its retry, and the provider is not
    taken for down (retries are not paused)."""
    async with PLACES["sqlite"](tmp_path) as place:
        provider = FlakyProvider()
        provider.poison = "poison"
        mem = await open_memory(place, provider)
        try:
            stored = await mem.add([*notes(5), Message(session_id="s", content="poison pill",
                                                        ts=2000)])
            bad = stored[-1].id
            assert bad is not None
            await mem.flush(timeout=30)
            st = await mem.stats()
            assert (st["indexed"], st["failed"], st["pending"]) == (5, 1, 0)
            assert (await mem.store.retries([bad]))[bad].attempts >= 1
            assert st["indexer"]["retries_paused_s"] == 0
            assert set(provider.embedded.values()) == {1} and len(provider.embedded) == 5
            provider.poison = None
            await mem.flush(timeout=30)
            st = await mem.stats()
            assert (st["indexed"], st["failed"]) == (6, 0)
            assert provider.embedded["poison pill"] == 1
        finally:
            await mem.close()


async def test_a_provider_whose_every_answer_is_invalid_is_not_asked_once_per_message(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Every answer is ``invalid`` (a model of another size behind the URL, an HTML page,
    NaN for everything): after the batch and three of its texts alone, the rest waits for
    its retry as in an outage. It was one request and one warning per message at every
    retry step (500 messages: 219 requests and 218 log lines in 10 s, 283 not yet tried).
    Nothing is lost: once the answers are good every message is indexed."""
    import logging

    async with PLACES["sqlite"](tmp_path) as place:
        provider = FlakyProvider()
        provider.poison = ""  # in every text: every vector NaN
        mem = await open_memory(place, provider, indexing={
            "retry_initial_s": 0.5, "retry_max_s": 1.0, "batch_size": 40, "concurrency": 1})
        try:
            caplog.set_level(logging.WARNING, logger="chatmem.indexing")
            await mem.add(notes(40))

            async def all_failed() -> bool:
                return (await mem.stats())["failed"] == 40

            await until(all_failed, "failed", limit_s=10)
            # the batch, then 3 texts alone (the rest is not sent): not 1 + 40
            assert len(provider.calls) == 1 + 3, len(provider.calls)
            assert len([r for r in caplog.records if r.name == "chatmem.indexing"
                        and "invalid" in r.getMessage()]) == 1
            provider.poison = None
            await mem.flush(timeout=30)
            st = await mem.stats()
            assert (st["indexed"], st["failed"], st["pending"]) == (40, 0, 0)
            assert set(provider.embedded.values()) == {1} and len(provider.embedded) == 40
        finally:
            await mem.close()


async def test_a_provider_that_stays_down_is_not_called_in_a_loop(tmp_path: Path) -> None:
    """``defer`` schedules a retry instead of trying again at once: over a second, one
    message costs a handful of calls (the backoff's steps), not a loop's thousands."""
    async with PLACES["sqlite"](tmp_path) as place:
        provider = FlakyProvider()
        provider.down = "defer"
        mem = await open_memory(place, provider, indexing={
            **FAST_RETRIES, "retry_initial_s": 0.2, "retry_max_s": 0.4})
        try:
            await mem.add(Message(session_id="s", content="patience"))
            await asyncio.sleep(1.0)
            assert 1 <= len(provider.calls) <= 8
            st = await mem.stats()
            assert st["failed"] == 1 and st["next_retry_at"] is not None
        finally:
            await mem.close()


async def test_a_flapping_provider_still_embeds_every_message_exactly_once(
        place: Place) -> None:
    """Adds while the provider goes down and up, a queue small enough to overflow, many
    small batches and workers: every message ends up indexed, each embedded once."""
    provider = FlakyProvider()
    mem = await open_memory(place, provider, indexing={
        **FAST_RETRIES, "retry_initial_s": 0.01, "retry_max_s": 0.05, "batch_size": 8,
        "max_queue_size": 40})
    try:
        total = 0
        for chunk in range(12):
            provider.down = ("fail", None, "defer", None)[chunk % 4]
            total += len(await mem.add(notes(25, session=f"s{chunk % 3}", tag=f"c{chunk}")))
            await asyncio.sleep(0.01)
        provider.down = None
        await mem.flush(timeout=120)
        st = await mem.stats()
        assert (st["messages"], st["indexed"], st["pending"], st["failed"]) == (
            total, total, 0, 0)
        assert len(provider.embedded) == total and set(provider.embedded.values()) == {1}
        await mem.flush(timeout=30)
        assert set(provider.embedded.values()) == {1}
    finally:
        await mem.close()


async def test_batches_failing_together_count_as_one_failure_of_the_provider(
        tmp_path: Path) -> None:
    """In an outage every batch fails: the provider's backoff grows per probe, not per
    batch, or a short outage would leave retries paused for ``retry_max_s``."""
    initial = 5.0
    async with PLACES["sqlite"](tmp_path) as place:
        provider = FlakyProvider()
        provider.down = "defer"
        mem = await open_memory(place, provider, indexing={
            **FAST_RETRIES, "batch_size": 2, "retry_initial_s": initial, "retry_max_s": 300.0})
        try:
            for i in range(10):
                await mem.add(notes(2, session=f"s{i}"))
            await mem.flush(timeout=60)
            st = await mem.stats()
            assert st["failed"] == 20 and len(provider.calls) >= 10
            assert 0 < st["indexer"]["retries_paused_s"] <= initial
        finally:
            await mem.close()


async def test_erasing_messages_of_a_queued_retry_wave_does_not_stop_retries(
        tmp_path: Path) -> None:
    """A wave of retries waits in the queue behind a slow batch when part of it is
    erased (``forget``, a retention sweep): the wave still ends, and a message failing
    later is retried on its own (the erased ids kept it open for good, so no retry was
    ever queued again until a restart or a flush)."""
    from chatmem import Memory
    from fake_embedding_service import Step, fresh_service

    with fresh_service(dims=16) as service:
        service.default = Step(503)
        config = {"embedding": service.config("openai", model="bow", max_retries=0,
                                              max_concurrency=1, cache={"enabled": False}),
                  "indexing": {"retry_initial_s": 0.1, "retry_max_s": 0.3, "batch_size": 5}}
        mem = await Memory.open(f"sqlite:///{tmp_path}/wave.db", config=config)
        try:
            await mem.add([Message(session_id="gone" if i % 2 else "kept",
                                   content=f"note {i}", ts=1000 + i) for i in range(40)])

            async def all_failed() -> bool:
                return (await mem.stats())["failed"] == 40

            await until(all_failed, "failed")
            service.default = Step(delay=0.3)  # back, slowly: the wave waits queued

            async def wave_queued() -> bool:
                indexer = (await mem.stats())["indexer"]
                return indexer["queued"] >= 10 and indexer["retrying"] >= 10

            await until(wave_queued, "queued")
            await mem.forget(session="gone")

            async def wave_over() -> bool:
                st = await mem.stats()
                return st["indexed"] == 20 and st["indexer"]["retrying"] == 0

            await until(wave_over, "over", limit_s=30)
            service.default = Step(503)
            await mem.add(Message(session_id="kept", content="a late note", ts=5000))

            async def late_failed() -> bool:
                return (await mem.stats())["failed"] == 1

            await until(late_failed, "failed")
            service.default = Step()

            async def late_indexed() -> bool:
                return (await mem.stats())["indexed"] == 21

            await until(late_indexed, "indexed without a flush", limit_s=15)
        finally:
            await mem.close()

