"""Issue 11's acceptance scenario, with the delays scaled down: an embedding service
that fails for a while and then recovers. Every message added during the outage is
indexed exactly once afterwards, and recalls made during the outage return full-text
results flagged ``degraded``. (``bench/outage.py`` runs it with real delays.)"""

from __future__ import annotations

import asyncio
from collections import Counter
from pathlib import Path

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
        tmp_path: Path) -> None:
    with fresh_service(dims=16) as service:
        config = {
            # the cache off: a text embedded twice would reach the service twice
            "embedding": service.config("openai", model="bow", max_retries=1, timeout=2.0,
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
            assert counts == {1: N}, counts

            after = await mem.recall("where is token517x filed?", session="s7")
            assert not after.degraded
            ids = [h.message.id for h in after.hits]
            # the service's vectors are random (no meaning to rank by): the word match is
            # recalled, blended with its own (random) cosine since stop 22, not first
            assert acked[517].id in ids and len(ids) == len(set(ids))
        finally:
            await mem.close()
