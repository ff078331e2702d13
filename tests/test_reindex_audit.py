"""X2: a reindex that stops part way, and a reindex beside messages being added."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from backends import BACKENDS
from chatmem import Config, Memory
from chatmem.embedding import Embedder
from providers import RecordingProvider

TEXTS = [f"note {i}: the parcel for flat {i} is at the front desk" for i in range(40)]
TEXTS[7] = "the spare key is under the blue flowerpot"
CONFIG = Config.load(indexing={"batch_size": 8})


async def _old_model_store(store: Any, index: Any) -> None:
    """Every message indexed with model ``old`` (32 numbers a vector)."""
    old = Memory(store, index, Embedder(RecordingProvider(dim=32, model="old")))
    await old.add([{"session_id": "s", "content": t, "ts": 1000 + i}
                   for i, t in enumerate(TEXTS)])
    await old.flush()
    await old._indexer.stop()  # type: ignore[union-attr]


class Stopped(Exception):
    """Stands for a reindex that stops part way (killed, Ctrl-C, a callback raising)."""


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_a_reindex_stopped_part_way_is_finished_at_the_next_open(
        backend: str, tmp_path: Path) -> None:
    """README: each message is marked pending first, so an interrupted run is finished by
    the indexer of the next open. It used to mark one batch at a time: the messages of
    the batches not reached kept the old model's vectors, which recall skips (F11)."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        await _old_model_store(store, index)
        provider = RecordingProvider(dim=48, model="new")
        mem = Memory(store, index, Embedder(provider, cache_enabled=False), config=CONFIG)

        def stop_after_first_batch(done: int, total: int) -> None:
            raise Stopped

        try:
            with pytest.raises(Stopped):
                await mem.reindex(progress=stop_after_first_batch)
        finally:
            await mem._indexer.stop()  # type: ignore[union-attr]
        # the next open: only its start-up indexer, no reindex
        again = Memory(store, index, Embedder(provider, cache_enabled=False), config=CONFIG)
        try:
            await again.flush(timeout=60)
            stats = await again.stats()
            assert stats["vectors_by_model"] == {"test:new": len(TEXTS)}
            assert (stats["indexed"], stats["pending"]) == (len(TEXTS), 0)
            hits = (await again.recall("where is the spare key?", scope="all",
                                       window=0)).hits
            assert hits[0].message.content == TEXTS[7]
            out = await again.reindex()
            assert out["reembedded"] == out["stale"] == out["pending"] == 0
        finally:
            await again._indexer.stop()  # type: ignore[union-attr]


class HeldProvider(RecordingProvider):
    """Holds the embedding of any text containing ``held`` until :attr:`release` is set;
    with ``after``, its second call and later ones wait until ``after`` holds one."""

    def __init__(self, dim: int, model: str, after: HeldProvider | None = None) -> None:
        super().__init__(dim=dim, model=model)
        self.release = asyncio.Event()
        self.holding = asyncio.Event()
        self.after = after

    async def embed(self, texts: Sequence[str], role: Any) -> np.ndarray:
        if any("held" in t for t in texts):
            self.holding.set()
            await self.release.wait()
        if self.after is not None and self.calls:
            await self.after.holding.wait()
        return await super().embed(texts, role)


async def test_reindex_does_not_wait_for_messages_added_while_it_runs(
        tmp_path: Path) -> None:
    """A reindex waited, batch after batch, for every message waiting in the store (a
    flush), those added meanwhile too: under a steady stream of adds (a busy server) a
    reindex of 600 messages that takes 1 s had done 160 after 9 minutes. Here a server
    on the same store adds a message while the reindex runs, and its embedding takes
    long; the reindex waits only for its own messages."""
    async with BACKENDS["sqlite"](tmp_path) as (store, index):
        await _old_model_store(store, index)
        server_provider = HeldProvider(dim=48, model="new")
        server = Memory(store, index, Embedder(server_provider, cache_enabled=False),
                        config=CONFIG)
        # the reindex's second batch is embedded once the server is embedding its message
        provider = HeldProvider(dim=48, model="new", after=server_provider)
        mem = Memory(store, index, Embedder(provider, cache_enabled=False), config=CONFIG)
        try:
            await server.flush()  # its start-up sweep is over: it indexes what it adds
            adds: list[asyncio.Task[Any]] = []

            def add_while_running(done: int, total: int) -> None:
                if not adds:  # after the first batch: the reindex has found its work
                    adds.append(asyncio.get_running_loop().create_task(
                        server.add({"session_id": "t", "content": "a held message"})))

            out = await asyncio.wait_for(mem.reindex(progress=add_while_running), 30)
            assert (out["stale"], out["reembedded"]) == (len(TEXTS), len(TEXTS))
            [added] = await adds[0]
            assert (await mem.index_states([added.id or ""])) == {added.id: "pending"}
            server_provider.release.set()
            await server.flush(timeout=60)
            stats = await mem.stats()
            assert stats["vectors_by_model"] == {"test:new": len(TEXTS) + 1}
            assert (await mem.index_states([added.id or ""])) == {added.id: "indexed"}
        finally:
            server_provider.release.set()
            await mem._indexer.stop()  # type: ignore[union-attr]
            await server._indexer.stop()  # type: ignore[union-attr]


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_reindex_embeds_legacy_vectors_of_another_size_than_the_model(
        backend: str, tmp_path: Path) -> None:
    """F11: legacy vectors (no model id) count as the model their marker names, recorded
    at the first search (or reindex): here the new model's, which did not make them (32
    numbers, the model makes 48). Reindex took them as the new model's and embedded
    nothing, so dense recall never found those messages again."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        await _old_model_store(store, index)
        entries = await index.scan_vectors(None, 1000)
        await index.upsert([dataclasses.replace(e, model_id=None) for e in entries])
        mem = Memory(store, index, Embedder(RecordingProvider(dim=48, model="new")))
        try:
            out = await mem.reindex()  # the first search records the marker, or this
            assert await store.meta_get("memory-vector", "legacy-model") == "test:new"
            assert (out["stale"], out["reembedded"]) == (len(TEXTS), len(TEXTS))
            assert (await mem.stats())["vectors_by_model"] == {"test:new": len(TEXTS)}
            assert (await mem.reindex())["reembedded"] == 0
        finally:
            await mem._indexer.stop()  # type: ignore[union-attr]


async def test_reindex_keeps_legacy_vectors_of_the_model_size_as_their_marker_says(
        tmp_path: Path) -> None:
    """The same size as the configured model's: the marker decides (F11), nothing is
    embedded."""
    async with BACKENDS["sqlite"](tmp_path) as (store, index):
        await _old_model_store(store, index)
        entries = await index.scan_vectors(None, 1000)
        await index.upsert([dataclasses.replace(e, model_id=None) for e in entries])
        mem = Memory(store, index, Embedder(RecordingProvider(dim=32, model="new")))
        try:
            out = await mem.reindex()
            assert (out["stale"], out["reembedded"]) == (0, 0)
        finally:
            await mem._indexer.stop()  # type: ignore[union-attr]
