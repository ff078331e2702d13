"""X2: ``Memory.reindex`` / ``chatmem reindex`` re-embed under a new model, on every backend."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from backends import BACKENDS
from chatmem import Memory
from chatmem.cli import main
from chatmem.embedding import Embedder
from chatmem.errors import EmbeddingUnavailable
from chatmem.models import IndexState
from providers import RecordingProvider

TEXTS = [f"note {i}: the parcel for flat {i} is at the front desk" for i in range(24)]
TEXTS[7] = "the spare key is under the blue flowerpot"


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_reindex_moves_every_vector_to_the_configured_model(backend: str,
                                                                  tmp_path: Path) -> None:
    async with BACKENDS[backend](tmp_path) as (store, index):
        old = Memory(store, index, Embedder(RecordingProvider(dim=32, model="old")))
        await old.add([{"session_id": "s", "content": t} for t in TEXTS])
        await old.flush()
        await old._indexer.stop()  # type: ignore[union-attr]

        new_provider = RecordingProvider(dim=48, model="new")
        mem = Memory(store, index, Embedder(new_provider))
        try:
            query = "where is the spare key?"
            # before: the other model's vectors are ignored (F11)
            assert not (await mem.recall(query, scope="all", window=0)).hits
            seen = []
            out = await mem.reindex(progress=lambda done, total: seen.append((done, total)))
            assert out == {"model": "test:new", "stale": len(TEXTS), "failed": 0,
                           "reembedded": len(TEXTS)}
            assert seen and seen[-1] == (len(TEXTS), len(TEXTS))
            assert (await mem.stats())["vectors_by_model"] == {"test:new": len(TEXTS)}
            hits = (await mem.recall(query, scope="all", window=0)).hits
            assert hits[0].message.content == TEXTS[7]
            # nothing left to do: a second run embeds nothing
            calls = len(new_provider.calls)
            again = await mem.reindex()
            assert again["stale"] == again["failed"] == again["reembedded"] == 0
            assert len(new_provider.calls) == calls
        finally:
            if mem._indexer is not None:
                await mem._indexer.stop()


async def test_reindex_retries_failed_messages(tmp_path: Path) -> None:
    provider = RecordingProvider(model="flaky")
    async with await Memory.open(f"sqlite:///{tmp_path / 'm.db'}",
                                 embedder=Embedder(provider)) as mem:
        provider.fail_with = EmbeddingUnavailable("provider down", retry_decision="fail")
        [msg] = await mem.add({"session_id": "s", "content": "the wifi password is hunter2"})
        await mem.flush(timeout=30)
        assert (await mem.store.index_states([msg.id]))[msg.id] == IndexState.FAILED  # type: ignore[index, list-item]
        provider.fail_with = None
        out = await mem.reindex()
        assert out == {"model": "test:flaky", "stale": 0, "failed": 1, "reembedded": 1}
        assert (await mem.store.index_states([msg.id]))[msg.id] == IndexState.INDEXED  # type: ignore[index, list-item]


def test_cli_reindex_switches_a_store_to_the_local_model(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"

    async def seed() -> None:
        async with await Memory.open(f"sqlite:///{db}",
                                     embedder=Embedder(RecordingProvider(model="bow"))) as mem:
            await mem.add([{"session_id": "s", "content": t} for t in TEXTS[:6]])
            await mem.flush()

    import asyncio
    asyncio.run(seed())
    res = CliRunner().invoke(main, ["reindex", "--db", str(db), "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.stdout)
    assert out["stale"] == 6 and out["reembedded"] == 6
    assert out["model"].startswith("local:all-MiniLM-L6-v2")
    res = CliRunner().invoke(main, ["stats", "--db", str(db), "--json"])
    assert json.loads(res.output)["vectors_by_model"] == {out["model"]: 6}
