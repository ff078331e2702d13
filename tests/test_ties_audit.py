"""Exact score ties, found by an audit: a text said again and again (40 copies of "my
favourite colour is blue", one a day) scores the same for every copy, and each search cut
its ties at k by its own rule (insertion order on SQLite, the in-memory store and
PostgreSQL's dense search; message id on Qdrant and in both full-text searches), so the
newest copies never reached the recall pool, whose own rule is newer first. Every search
now breaks exact ties as the pool does (:func:`chatmem.recall.fuse.pool_order`): newer
``ts`` first, then message id in code point order, past the k-th too; on every backend."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from backends import BACKENDS, PLACES, Place
from chatmem import Memory, Message
from chatmem.models import VectorEntry
from chatmem.store import Storage
from chatmem.store.base import LexicalIndex
from chatmem.testing import embedder

DAY = 86_400_000


@contextlib.asynccontextmanager
async def memory_place(tmp: Path) -> AsyncIterator[Place]:
    yield Place("memory://")


#: every place a Memory can live in: in memory, SQLite, SQLite beside Qdrant, PostgreSQL
RECALL_PLACES = {"memory": memory_place, **PLACES}


@pytest.fixture(params=sorted(RECALL_PLACES))
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Place]:
    async with RECALL_PLACES[request.param](tmp_path) as p:
        yield p


@pytest.mark.parametrize("ids", ["day order", "reverse day order", "uuid"])
async def test_the_newest_copies_of_a_repeated_message_are_recalled(place: Place,
                                                                    ids: str) -> None:
    """The copies of days 39..35, on every backend, whatever the message ids: with ids in
    day order every backend returned days 19..15 (the first 20 written made the pool),
    with uuids each backend its own five."""
    def message_id(day: int) -> dict[str, str]:
        if ids == "uuid":
            return {}
        return {"id": f"m{day:02d}" if ids == "day order" else f"m{39 - day:02d}"}

    mem = await Memory.open(place.url, vector=place.vector, embedder=embedder())
    try:
        await mem.add([Message(session_id="s", content="my favourite colour is blue",
                               ts=day * DAY, **message_id(day))  # type: ignore[arg-type]
                       for day in range(40)])
        await mem.flush(timeout=60)
        result = await mem.recall("favourite colour", top_k=5, now=41 * DAY)
        assert [h.message.ts // DAY for h in result.hits] == [39, 38, 37, 36, 35]
    finally:
        await mem.close()


#: message ids whose code point order differs from a locale's collation (case, accents,
#: punctuation, characters beyond the BMP)
IDS = ["Zed", "alpha", "Émile", "éclair", "ß", "日本", "\U0001f600x", "a-b", "a_b", "A",
       "ab", "a", "b-1", "B-1", "z", "Ω", "ﬁ", "a b", "a.b", "10", "9", "~", "Ā", "zz"]
TEXT = "the zephyr kite is red today"


def tie_order(hits: list[tuple[str, int]]) -> list[str]:
    """Message ids by the tie rule: newer first, then message id (code point order)."""
    return [mid for mid, _ in sorted(hits, key=lambda h: (-h[1], h[0]))]


async def tied_corpus(storage: Storage) -> tuple[np.ndarray, list[tuple[str, int]]]:
    """The 24 :data:`IDS`, each in a session of its own at one of three times, every one
    with the same vector and text, written in a shuffled order; and one better match
    of both searches (``best``: the query vector itself, a shorter text)."""
    rng = random.Random(7)
    tied = [(mid, 1000 * (1 + i % 3)) for i, mid in enumerate(IDS)]
    written = tied[:]
    rng.shuffle(written)
    messages = [Message(session_id=f"s-{mid}", id=mid, ts=ts, content=TEXT)
                for mid, ts in written]
    messages.insert(len(messages) // 2, Message(session_id="s-best", id="best", ts=1,
                                                content="the zephyr kite is red"))
    stored = await storage.store.append(messages)
    assert [(m.id, m.ts) for m in stored] == [(m.id, m.ts) for m in messages]
    q = np.zeros(8, dtype=np.float32)
    q[0] = 1.0
    other = np.full(8, 0.5, dtype=np.float32)
    other /= np.linalg.norm(other)
    entries = [VectorEntry(message_id=str(m.id), session_id=m.session_id, ts=int(m.ts or 0),
                           role="user", model_id="test:m", text=m.content,
                           vector=q if m.id == "best" else other)
               for m in stored]
    await storage.write_entries(entries)
    if storage.separate:
        assert isinstance(storage.store, LexicalIndex)
        await storage.store.upsert_lexical(entries)
    return q, tied


@pytest.mark.parametrize("channel", ["dense", "lexical"])
@pytest.mark.parametrize("name", sorted(BACKENDS))
async def test_every_search_breaks_exact_ties_newer_first_then_by_id(
        name: str, channel: str, tmp_path: Path) -> None:
    """Dense and full-text search, unfiltered and filtered (the in-memory columns' path,
    and SQL's), keep the same ids on every backend: the best match, then the tied ones
    newer first, then by id in code point order, cut at any k."""
    async with BACKENDS[name](tmp_path) as (store, index):
        storage = Storage(store, index)
        q, tied = await tied_corpus(storage)
        lexical = storage.store
        assert isinstance(lexical, LexicalIndex)
        everyone: dict[str, Any] = {"role": "user"}  # the in-memory columns' filter path
        broad: dict[str, Any] = {"ts": {"$gte": 0}}  # a filter only SQL answers
        for where in (None, everyone, broad):
            for k in (1, 2, 5, 9, 25, 30):
                hits = await (storage.index.query(q, k, where) if channel == "dense"
                              else lexical.lexical_query("zephyr kite red", k, where))
                assert [h.message_id for h in hits] == ["best", *tie_order(tied)][:k], \
                    (where, k)
                assert len({h.score for h in hits[1:]}) <= 1


async def test_postgres_hnsw_hits_are_sorted_as_exact_search_sorts_them(tmp_path: Path
                                                                        ) -> None:
    """The HNSW path re-sorts what the index found by the same key (it sorted ties by
    insertion order); which of many tied rows the approximate index finds is its own
    business, so k here takes them all."""
    import uuid

    from backends import drop_pg_schema, pg_schema_url, pg_url
    from chatmem.store.postgres import PostgresStore

    url = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    store = await PostgresStore.open(pg_schema_url(url, schema) + "&exact_threshold=0")
    try:
        q, tied = await tied_corpus(Storage(store, store))
        hits = await store.query(q, len(tied) + 1)
        assert store.last_search == "hnsw"
        assert [h.message_id for h in hits] == ["best", *tie_order(tied)]
    finally:
        await store.close()
        await drop_pg_schema(url, schema)


@pytest.mark.parametrize("times", ["spread", "one instant"])
@pytest.mark.parametrize("name", sorted(BACKENDS))
async def test_more_ties_than_a_search_gathers_are_broken_as_everywhere(
        name: str, times: str, tmp_path: Path) -> None:
    """1,100 copies of one message ("ok": the same vector, so the same score) past the
    best match: Qdrant gathered the k best plus the points tied with the k-th only up
    to max(4k, k + 1024), and the copies beyond were chosen by the engine's order, so
    its top k were other copies than SQLite's. The same ids everywhere, cut at any k,
    unfiltered and filtered: copies at 400 times, three at each (one per session:
    broken by id), or all at one instant in sessions of their own."""
    n = 1100
    rng = random.Random(11)
    if times == "spread":
        tied = [(f"ok-{i:04d}", 1000 + i // 3) for i in range(n)]
        session = {mid: f"s{i % 3}" for i, (mid, _) in enumerate(tied)}
    else:
        tied = [(f"ok-{i:04d}", 5000) for i in range(n)]
        session = {mid: f"s{i}" for i, (mid, _) in enumerate(tied)}
    written = tied[:]
    rng.shuffle(written)
    async with BACKENDS[name](tmp_path) as (store, index):
        storage = Storage(store, index)
        stored = await storage.store.append(
            [Message(session_id="s-best", id="best", ts=1, content="ok then")]
            + [Message(session_id=session[mid], id=mid, ts=ts, content="ok")
               for mid, ts in written])
        assert [(m.id, m.ts) for m in stored[1:]] == written
        q = np.zeros(8, dtype=np.float32)
        q[0] = 1.0
        same = np.full(8, 0.5, dtype=np.float32)
        same /= np.linalg.norm(same)
        await storage.write_entries([
            VectorEntry(message_id=str(m.id), session_id=m.session_id, ts=int(m.ts or 0),
                        role="user", model_id="test:m", text=m.content,
                        vector=q if m.id == "best" else same)
            for m in stored])
        want = ["best", *tie_order(tied)]
        for where in (None, {"role": "user"}, {"ts": {"$gte": 0}}):
            for k in (1, 5, 40):
                hits = await storage.index.query(q, k, where)
                assert [h.message_id for h in hits] == want[:k], (where, k)
