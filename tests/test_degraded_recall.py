"""Recall while the embedding provider is down (issue 11 §6): full text, flagged."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from chatmem import Memory, Message
from chatmem.embedding import Embedder
from chatmem.errors import EmbeddingUnavailable
from providers import RecordingProvider

FACTS = ["the launch code word is pineapple", "we meet at the harbour on friday",
         "my sister lives in Lisbon", "the printer on floor three is broken"]


async def _memory(tmp_path: Path, **config: object) -> tuple[Memory, RecordingProvider]:
    prov = RecordingProvider()
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=Embedder(prov),
                            config=config or None)
    await mem.add([Message(session_id="s1", content=t, ts=1000 + i, speaker_id="u1")
                   for i, t in enumerate(FACTS)])
    await mem.flush()
    return mem, prov


def _down(prov: RecordingProvider, decision: str = "defer") -> None:
    prov.fail_with(EmbeddingUnavailable("connection refused", provider="test",
                                        retry_decision=decision))


async def test_recall_falls_back_to_full_text_and_says_so(tmp_path: Path,
                                                          caplog: pytest.LogCaptureFixture
                                                          ) -> None:
    mem, prov = await _memory(tmp_path)
    try:
        healthy = await mem.recall("pineapple code word", session="s1")
        assert not healthy.degraded and healthy.degraded_reason is None
        _down(prov)  # (a query embedded before is cached, so it would still work)
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            first = await mem.recall("what was the code word, pineapple?", session="s1")
            second = await mem.recall("Lisbon sister", session="s1")
        assert first.degraded and "connection refused" in (first.degraded_reason or "")
        assert first.hits and "pineapple" in first.hits[0].message.content
        assert second.degraded and "Lisbon" in second.hits[0].message.content
        assert first.to_dict()["degraded"] is True
        # logged once per outage, not once per recall
        assert sum("recall degraded" in r.getMessage() for r in caplog.records) == 1
        # the tool and the context report the same flag
        tool = await mem.call_tool({"query": "harbour friday"}, {"session_id": "s1"})
        assert tool["degraded"] is True and "harbour" in tool["text"]
        turn = await mem.turn_context("where do we meet friday?", session="s1")
        assert turn.recall.degraded and "harbour" in turn.messages[0]["content"]
        stats = (await mem.stats())["recall"]
        assert stats["degraded"] == 4 and stats["outage_since"] is not None
        # the provider answers again: dense search is back, and the recovery is logged
        prov.recover()
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            back = await mem.recall("the code word pineapple", session="s1")
        assert not back.degraded
        assert any("dense search again" in r.getMessage() for r in caplog.records)
        assert (await mem.stats())["recall"]["outage_since"] is None
    finally:
        await mem.close()


@pytest.mark.parametrize("config", [{"hybrid": {"fallback_to_lexical": False}},
                                    {"hybrid": {"enabled": False}}])
async def test_without_fallback_or_full_text_the_error_is_raised(
        tmp_path: Path, config: dict) -> None:
    mem, prov = await _memory(tmp_path, **config)
    try:
        _down(prov, "cooldown")
        with pytest.raises(EmbeddingUnavailable) as err:
            await mem.recall("pineapple", session="s1")
        assert err.value.retry_decision == "cooldown"
    finally:
        await mem.close()


async def test_lexical_mode_never_embeds_so_it_is_never_degraded(tmp_path: Path) -> None:
    mem, prov = await _memory(tmp_path, hybrid={"mode": "lexical"})
    try:
        _down(prov)
        result = await mem.recall("pineapple", session="s1")
        assert not result.degraded and result.hits
    finally:
        await mem.close()
