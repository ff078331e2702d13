"""R5 across processes: what one process erases or rewrites while another embeds.

Two memories on one PostgreSQL store, each with its own indexer (its own lease
owner), as two processes have; the embedding service (127.0.0.1) holds one of them.
"""

from __future__ import annotations

import asyncio

import numpy as np
import pytest

from chatmem import Memory
from chatmem.models import IndexState, Message
from chatmem.store.postgres import PostgresStore
from fake_embedding_service import expected, fresh_service
from test_pg_replicas import LEASE_S, shared_schema


@pytest.mark.parametrize("change", ["forget", "rewrite"])
async def test_a_short_reply_embedded_while_another_process_changes_its_turn_is_embedded_again(
        change: str) -> None:
    """Issue 12 across processes: B embeds a short reply with the turn before it (held
    by the service) while A erases or rewrites that turn. A re-embeds only replies
    already indexed, and this one was not yet: B's vector of the erased words must not
    stay. B finds the turn changed after its write and embeds the reply again."""
    async with shared_schema() as url:
        with fresh_service() as service:
            # B's embedding of the turn (and of the reply with it) is held
            service.hold = lambda rec: 2.0 if "key-b" in rec.headers.get(
                "authorization", "") and "my secret word is platypus" in rec.texts else 0.0
            store = await PostgresStore.open(url)
            try:
                [turn, reply] = await store.append([
                    Message(session_id="s", role="user", speaker_id="alice",
                            content="my secret word is platypus", ts=1000),
                    Message(session_id="s", role="assistant", content="ok", ts=2000)])
            finally:
                await store.close()

            async def memory(key: str) -> Memory:
                return await Memory.open(url, embedding=service.config(
                    "openai", key=key, path="/v1", model="text-embedding-3-small"),
                    indexing={"lease_s": LEASE_S, "short_reply_chars": 20})

            b = await memory("key-b")
            a: Memory | None = None
            try:
                flushing = asyncio.create_task(b.flush(timeout=60))
                # A opens once B embeds both (so that A's indexer does not take them)
                while not any(r.texts for r in service.requests):
                    await asyncio.sleep(0.01)
                assert service.requests[0].texts == ["my secret word is platypus\nok",
                                                     "my secret word is platypus"]
                a = await memory("key-a")
                if change == "forget":
                    await a.forget(speaker_id="alice")
                    now = "ok"
                else:
                    await a.rewrite("s", 1000, content="my word is now otter")
                    now = "my word is now otter\nok"
                await flushing
                await b.flush(timeout=60)
                await a.flush(timeout=60)
            finally:
                await b.close()
                if a is not None:
                    await a.close()
        store = await PostgresStore.open(url, create=False)
        try:
            vectors = {e.message_id: np.asarray(e.vector)
                       for e in await store.scan_vectors(None, 100)}
            states = await store.index_states([reply.id or ""])
        finally:
            await store.close()
        assert states[reply.id or ""] == IndexState.INDEXED
        np.testing.assert_allclose(vectors[reply.id or ""], expected(now), atol=1e-5)
        if change == "forget":
            assert turn.id not in vectors
