"""X1 during an embedding outage (E12): a message is found by full text as soon as
``add`` returns, with the visibility of an indexed one, and is indexed exactly once
after the provider recovers; on SQLite (its own index), SQLite beside Qdrant, and
PostgreSQL.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from backends import PLACES, Place
from chatmem import Memory, Message, Session
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.models import PENDING_MODEL
from chatmem.recall import RecallResult
from providers import FlakyProvider

N = 200
SESSIONS = 10
T0 = 1_760_000_000_000
#: Retries scaled down: a test never waits for a real backoff.
FAST_RETRIES = {"retry_initial_s": 0.05, "retry_max_s": 0.2, "batch_size": 16,
                "concurrency": 4}


@pytest.fixture(params=sorted(PLACES))
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Place]:
    async with PLACES[request.param](tmp_path) as p:
        yield p


async def open_memory(place: Place, provider: FlakyProvider, **options: Any) -> Memory:
    """A memory at ``place`` embedding with ``provider`` (no cache: every indexing of a
    text reaches the provider, so the provider's counts show a second one)."""
    options.setdefault("indexing", FAST_RETRIES)
    return await Memory.open(place.url, vector=place.vector,
                             embedder=Embedder(provider, cache_enabled=False), **options)


def rare_word(i: int) -> str:
    """A word only message ``i`` holds (letters only: one token, never stemmed away)."""
    letters = "bdfgklmnps"
    return "zu" + "".join(letters[int(c)] for c in f"{i:03d}") + "ko"


def world() -> tuple[list[Session], list[Message]]:
    """Ten group sessions over two platforms and three tenants; 200 messages of five
    speakers, every one with a word of its own."""
    sessions = [Session(id=f"s{k}", origin_platform="qq" if k % 2 else "tg",
                        resource_id=f"r{k % 3}", chat_type="group", metadata={"team": f"t{k % 2}"})
                for k in range(SESSIONS)]
    messages = [Message(session_id=f"s{i % SESSIONS}", ts=T0 + i,
                        content=f"note {i}: the {rare_word(i)} is in the drawer",
                        role="user" if i % 4 else "assistant", speaker_id=f"u{i % 5}",
                        speaker_name=f"User{i % 5}", platform="qq", metadata={"i": i})
                for i in range(N)]
    return sessions, messages


def hit_ids(result: RecallResult) -> list[str | None]:
    return [h.message.id for h in result.hits]


def first_hit(result: RecallResult) -> str | None:
    """The best hit (the ones after it may be its replies, :mod:`chatmem.recall.follow`)."""
    return result.hits[0].message.id if result.hits else None


@pytest.mark.parametrize("decision", ["fail", "defer"])
async def test_an_outage_loses_nothing_and_new_messages_are_found_at_once(
        place: Place, decision: str) -> None:
    provider = FlakyProvider()
    provider.down = decision
    mem = await open_memory(place, provider)
    try:
        sessions, messages = world()
        for session in sessions:
            await mem.upsert_session(session)
        stored: list[Message] = []
        for start in range(0, N, 25):
            stored += await mem.add(messages[start:start + 25])
        probe, word = stored[37], rare_word(37)  # session s7: qq, tenant r1, team t1
        assert probe.session_id == "s7" and probe.role == "user"
        lexical = mem.storage.lexical
        assert lexical is not None

        # found at once, under the very filters its vector entry will answer to
        hits = await lexical.lexical_query(word, 5)
        assert [(h.message_id, h.model_id) for h in hits] == [(probe.id, PENDING_MODEL)]
        for where in ({"session_id": "s7"}, {"meta.team": "t1"}, {"resource_id": "r1"},
                      {"origin_platform": "qq"}, {"speaker_id": "u2"}, {"message.i": 37},
                      {"role": "user"}, {"platform": "qq"}, {"ts": probe.ts}):
            assert [h.message_id for h in await lexical.lexical_query(word, 5, where)] == [
                probe.id], where
        for where in ({"session_id": "s8"}, {"meta.team": "t0"}, {"resource_id": "r0"},
                      {"origin_platform": "tg"}, {"role": "assistant"}, {"speaker_id": "u1"}):
            assert await lexical.lexical_query(word, 5, where) == [], where
        # and by recall (full-text ranking: the query needs no embedding), scoped
        by_text = Memory(mem.storage, embedder=mem.embedder,
                         config=Config.load(hybrid={"mode": "lexical"}))
        assert first_hit(await by_text.recall(word, session="s7", scope="session")) == probe.id
        assert hit_ids(await by_text.recall(word, session="s8", scope="session")) == []
        assert first_hit(await by_text.recall(word, session="s4", scope="resource")) == probe.id
        assert hit_ids(await by_text.recall(word, session="s5", scope="resource")) == []
        assert first_hit(await by_text.recall(word, session="s9", scope="platform")) == probe.id
        assert hit_ids(await by_text.recall(word, session="s8", scope="platform")) == []
        # the default (hybrid) recall, degraded to full text while the provider is down
        degraded = await mem.recall(word, session="s7", scope="session")
        assert first_hit(degraded) == probe.id and degraded.degraded_reason is not None
        assert hit_ids(await mem.recall(word, session="s8", scope="session")) == []

        # a flush with the provider down comes back: everything attempted, scheduled
        await mem.flush(timeout=60)
        st = await mem.stats()
        assert (st["messages"], st["pending"], st["failed"], st["indexed"]) == (N, 0, N, 0)
        assert st["next_retry_at"] is not None
        assert not provider.embedded
        assert first_hit(await by_text.recall(word, session="s7", scope="session")) == probe.id

        provider.down = None  # the provider recovers
        await mem.flush(timeout=120)
        st = await mem.stats()
        assert (st["messages"], st["indexed"], st["pending"], st["failed"]) == (N, N, 0, 0)
        assert st["next_retry_at"] is None
        assert st["vectors_by_model"] == {provider.model_id: N}
        # every message embedded exactly once
        assert len(provider.embedded) == N and set(provider.embedded.values()) == {1}
        # the vector's entry replaced the pending one: one hit, the indexed one
        hits = await lexical.lexical_query(word, 5)
        assert [(h.message_id, h.model_id) for h in hits] == [(probe.id, provider.model_id)]
        assert await lexical.lexical_query("drawer", N, {"model_id": PENDING_MODEL}) == []
        result = await mem.recall(word, session="s7", scope="session", top_k=5)
        assert hit_ids(result)[0] == probe.id and hit_ids(result).count(probe.id) == 1
        assert result.degraded_reason is None
        assert hit_ids(await mem.recall(word, session="s8", scope="session")).count(
            probe.id) == 0
    finally:
        await mem.close()


async def test_pending_hits_are_admitted_whatever_the_query_model(tmp_path: Path) -> None:
    """A full-text hit of a message without a vector has no vector space: recall keeps
    it under any query model (F11 drops only other models' vectors)."""
    async with PLACES["sqlite"](tmp_path) as place:
        provider = FlakyProvider()
        provider.down = "fail"
        mem = await open_memory(place, provider, hybrid={"mode": "lexical"})
        try:
            [m] = await mem.add(Message(session_id="s", content="the quokka sleeps"))
            result = await mem.recall("quokka", session="s")
            assert hit_ids(result) == [m.id]
            assert result.excluded["other_model"] == 0
        finally:
            await mem.close()
