"""How ``reindex`` spends its requests to a remote embedding service (the fake service
on 127.0.0.1): each answered request's vectors are stored as they come, so a run
that stops part way (the service failing, the process killed) loses at most the
requests that were not answered."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chatmem import Memory, Message
from fake_embedding_service import FakeEmbeddingService, Step, fresh_service

N = 200
PER_REQUEST = 10  # embedding.batch_size: texts per request


def _messages() -> list[Message]:
    return [Message(session_id=f"s{i % 4}", content=f"note {i}: the parcel for flat {i}",
                    ts=1_000_000 + i) for i in range(N)]


def _config(service: FakeEmbeddingService, **embedding: Any) -> dict[str, Any]:
    return {
        # the cache off: a text embedded again reaches the service again
        "embedding": service.config("openai", model="bow", max_retries=0, timeout=5.0,
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
