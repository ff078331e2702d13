"""X2: ``Memory.reindex`` / ``chatmem reindex`` re-embed under a new model, on every backend."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from click.testing import CliRunner

from backends import BACKENDS
from chatmem import Memory
from chatmem.cli import main
from chatmem.embedding import Embedder
from chatmem.errors import EmbeddingUnavailable
from chatmem.models import IndexState, message_entry
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
            # before: the other model's vectors (of another width here) are ignored
            # (F11); the words still match
            before = await mem.recall(query, scope="all", window=0)
            assert before.hits[0].message.content == TEXTS[7]
            seen = []
            out = await mem.reindex(progress=lambda done, total: seen.append((done, total)))
            assert out == {"model": "test:new", "stale": len(TEXTS), "failed": 0,
                           "cleared": 0, "missing": 0, "pending": 0,
                           "reembedded": len(TEXTS), "sessions_refreshed": 0}
            assert seen and seen[-1] == (len(TEXTS), len(TEXTS))
            assert (await mem.stats())["vectors_by_model"] == {"test:new": len(TEXTS)}
            hits = (await mem.recall(query, scope="all", window=0)).hits
            assert hits[0].message.content == TEXTS[7]
            # nothing left to do: a second run embeds nothing
            calls = len(new_provider.calls)
            again = await mem.reindex()
            assert again["stale"] == again["failed"] == again["reembedded"] == 0
            assert again["cleared"] == again["missing"] == again["sessions_refreshed"] == 0
            assert len(new_provider.calls) == calls
        finally:
            if mem._indexer is not None:
                await mem._indexer.stop()


async def test_reindex_retries_failed_messages(tmp_path: Path) -> None:
    provider = RecordingProvider(model="flaky")
    async with await Memory.open(f"sqlite:///{tmp_path / 'm.db'}",
                                 embedder=Embedder(provider)) as mem:
        provider.fail_with(EmbeddingUnavailable("provider down", retry_decision="fail"))
        [msg] = await mem.add({"session_id": "s", "content": "the wifi password is hunter2"})
        await mem.flush(timeout=30)
        assert (await mem.store.index_states([msg.id]))[msg.id] == IndexState.FAILED  # type: ignore[index, list-item]
        provider.recover()
        out = await mem.reindex()
        assert out == {"model": "test:flaky", "stale": 0, "failed": 1, "cleared": 0,
                       "missing": 0, "pending": 0, "reembedded": 1, "sessions_refreshed": 0}
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


# ------------------------------------------------------------------ F12: reindex after clear

CLEAR_TEXTS = [f"memo {i}: locker {i} holds the {c} umbrella" for i, c in
               enumerate(["red", "green", "blue", "grey", "black", "white"] * 2)]
CLEAR_TEXTS[5] = "the boat trip to the lighthouse is on sunday"


def _clear_world() -> list[dict[str, object]]:
    """Indexable words in two sessions, and every kind of message that is never embedded."""
    msgs: list[dict[str, object]] = [
        {"session_id": f"s{i % 2}", "content": t, "ts": 1000 + i,
         "role": "assistant" if i % 4 == 3 else "user"} for i, t in enumerate(CLEAR_TEXTS)]
    msgs += [
        {"session_id": "s0", "content": "tool says 42", "role": "tool", "ts": 2000},
        {"session_id": "s0", "content": "delivery report", "role": "system", "ts": 2001},
        {"session_id": "s1", "content": "image sent", "role": "notice", "ts": 2002},
        {"session_id": "s1", "content": "cron ran the boat job", "source": "cron", "ts": 2003},
        {"session_id": "s1", "content": "--- divider ---", "kind": "divider", "ts": 2004},
    ]
    return msgs


def _counts(stats: dict[str, object]) -> tuple[object, ...]:
    return tuple(stats[k] for k in ("messages", "indexed", "pending", "failed", "skipped",
                                    "cleared"))


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_reindex_rebuilds_an_index_cleared_on_purpose(backend: str,
                                                            tmp_path: Path) -> None:
    """Item 15: after clear(vector) the indexable messages are `cleared` (not `skipped`),
    stay unembedded until reindex, and reindex embeds every one of them again."""
    n = len(CLEAR_TEXTS)
    async with BACKENDS[backend](tmp_path) as (store, index):
        provider = RecordingProvider(dim=48)
        mem = Memory(store, index, Embedder(provider, cache_enabled=False))
        try:
            await mem.add(_clear_world())
            await mem.flush(timeout=60)
            assert _counts(await mem.stats()) == (n + 5, n, 0, 0, 5, 0)
            query = "when is the boat trip to the lighthouse?"
            assert (await mem.recall(query, scope="all", window=0)).hits[0].message.content \
                == CLEAR_TEXTS[5]

            assert (await mem.clear("vector"))["vectors"] == n
            stats = await mem.stats()
            assert _counts(stats) == (n + 5, 0, 0, 0, 5, n)  # cleared, not skipped
            assert stats["vectors_by_model"] == {}
            assert not (await mem.recall(query, scope="all", window=0)).hits
            # a clear on purpose is not undone in the background
            calls = len(provider.calls)
            await mem.flush(timeout=60)
            assert len(provider.calls) == calls
            assert _counts(await mem.stats()) == (n + 5, 0, 0, 0, 5, n)

            out = await mem.reindex()
            assert (out["cleared"], out["reembedded"], out["stale"], out["failed"],
                    out["missing"]) == (n, n, 0, 0, 0)
            embedded = [t for texts, role in provider.calls[calls:] if role == "document"
                        for t in texts]
            assert sorted(embedded) == sorted(CLEAR_TEXTS)  # never the tool/system ones
            stats = await mem.stats()
            assert _counts(stats) == (n + 5, n, 0, 0, 5, 0)
            assert stats["vectors_by_model"] == {"test:bow": n}
            assert (await mem.recall(query, scope="all", window=0)).hits[0].message.content \
                == CLEAR_TEXTS[5]

            # one session only: the other keeps its vectors, reindex embeds just the cleared
            assert (await mem.clear("vector", session="s1"))["vectors"] == n // 2
            assert _counts(await mem.stats()) == (n + 5, n // 2, 0, 0, 5, n // 2)
            calls = len(provider.calls)
            out = await mem.reindex()
            assert (out["cleared"], out["reembedded"]) == (n // 2, n // 2)
            assert sum(len(texts) for texts, _ in provider.calls[calls:]) == n // 2
            assert _counts(await mem.stats()) == (n + 5, n, 0, 0, 5, 0)
            again = await mem.reindex()
            assert again["reembedded"] == again["cleared"] == 0
        finally:
            if mem._indexer is not None:
                await mem._indexer.stop()


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_reindex_embeds_messages_an_older_chatmem_cleared_as_skipped(
        backend: str, tmp_path: Path) -> None:
    """Stores cleared before `cleared` existed hold indexable messages as SKIPPED:
    stats counts them as cleared, and reindex embeds them."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider()))
        try:
            stored = await mem.add(_clear_world())
            await mem.flush(timeout=60)
            await index.clear_vectors()
            ids = [m.id for m in stored if m.indexable and m.id]
            await store.set_index_state(ids, IndexState.SKIPPED)  # what the old clear did
            assert _counts(await mem.stats()) == (len(ids) + 5, 0, 0, 0, 5, len(ids))
            out = await mem.reindex()
            assert (out["cleared"], out["reembedded"]) == (len(ids), len(ids))
            assert _counts(await mem.stats()) == (len(ids) + 5, len(ids), 0, 0, 5, 0)
        finally:
            if mem._indexer is not None:
                await mem._indexer.stop()


async def test_reindex_embeds_messages_marked_indexed_whose_vector_is_missing(
        tmp_path: Path) -> None:
    """A vector index swapped for an empty one: the store says indexed, the index has none."""
    db = f"sqlite:///{tmp_path / 'm.db'}"
    async with await Memory.open(db, vector=f"qdrant+local://{tmp_path / 'q1'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        await mem.add(_clear_world())
        await mem.flush(timeout=60)
    async with await Memory.open(db, vector=f"qdrant+local://{tmp_path / 'q2'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        out = await mem.reindex()
        n = len(CLEAR_TEXTS)
        assert (out["missing"], out["reembedded"]) == (n, n)
        assert await mem.index.count_by_model() == {"test:bow": n}  # type: ignore[union-attr]


def test_cli_clear_then_stats_and_reindex(tmp_path: Path) -> None:
    db = tmp_path / "cli.db"
    runner = CliRunner()
    for text in ("the lighthouse trip is on sunday", "bring a raincoat"):
        res = runner.invoke(main, ["add", "--db", str(db), "--session", "s1", text])
        assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["clear", "--db", str(db), "--target", "vector", "--yes"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["stats", "--db", str(db), "--json"])
    stats = json.loads(res.stdout)
    assert (stats["indexed"], stats["skipped"], stats["cleared"]) == (0, 0, 2)
    res = runner.invoke(main, ["stats", "--db", str(db)])
    assert "cleared: 2" in res.stdout
    res = runner.invoke(main, ["reindex", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "re-embedded 2 message(s)" in res.stdout and "2 cleared" in res.stdout
    res = runner.invoke(main, ["stats", "--db", str(db), "--json"])
    stats = json.loads(res.stdout)
    assert (stats["indexed"], stats["cleared"]) == (2, 0)


async def test_cleared_state_survives_export_and_import(tmp_path: Path) -> None:
    import io

    from chatmem.transfer import export_jsonl, import_records, validate_jsonl

    n = len(CLEAR_TEXTS)
    async with await Memory.open(f"sqlite:///{tmp_path / 'a.db'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        await mem.add(_clear_world())
        await mem.flush(timeout=60)
        await mem.clear("vector")
        buf = io.StringIO()
        await export_jsonl(mem.storage, buf)
    async with await Memory.open(f"sqlite:///{tmp_path / 'b.db'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        lines = buf.getvalue().splitlines()
        await import_records(mem.storage, validate_jsonl(lines), lines)
        await mem.flush(timeout=60)
        assert _counts(await mem.stats()) == (n + 5, 0, 0, 0, 5, n)
        assert (await mem.reindex())["reembedded"] == n


async def test_overlapping_store_reads_each_keep_watching_until_they_end(
        tmp_path: Path) -> None:
    """Two reads of waiting messages under way at once (two reindex runs, a flush and
    the sweeper) each hold the set of ids whose batch finished meanwhile. When the
    sets were equal, the later read's end took out the earlier read's set (by
    equality), which then missed later batches and failed on its own end
    (ValueError: list.remove, seen in CI with two reindex runs on PostgreSQL)."""
    async with await Memory.open(f"sqlite:///{tmp_path / 'm.db'}",
                                 embedder=Embedder(RecordingProvider(model="watch"))) as mem:
        indexer = mem._indexer
        assert indexer is not None
        with indexer._watching() as first:
            with indexer._watching() as second:
                indexer._settle_ids(["a"])  # both reads see "a" finish: equal sets
            indexer._settle_ids(["b"])  # the first read still under way
            assert first == {"a", "b"}
            assert second == {"a"}
        assert indexer._watchers == []


OLD_TEXTS = ["the spare key is under the blue flowerpot",
             "the parcel for flat 3 is at the front desk",
             "the boiler makes a strange noise when it rains"]
NEW_TEXTS = ["I gave a spare key to the neighbour upstairs",
             "the dentist moved my appointment to monday"]


def _by_content(result: Any) -> dict[str, float]:
    return {h.message.content: h.semantic for h in result.hits}


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_until_reindex_another_models_messages_are_found_by_their_words(
        backend: str, tmp_path: Path) -> None:
    """F11 drops another model's vectors, not its messages' words: before a reindex,
    a store embedded by another model answers by full text; its dense hits stay out,
    counted as ``other_model``; a store half re-embedded answers both ways, and no
    score is a cosine between the query and a vector of the other model."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        old = Memory(store, index, Embedder(RecordingProvider(dim=32, model="old")))
        # one session each: a reply or a sitting brings in no other candidate
        await old.add([{"session_id": f"s{i}", "content": t}
                       for i, t in enumerate(OLD_TEXTS)])
        await old.flush()
        await old._indexer.stop()  # type: ignore[union-attr]
        query = "where is the spare key?"

        dense = Memory(store, index, Embedder(RecordingProvider(dim=32, model="new")),
                       config={"hybrid": {"enabled": False}})
        mem = Memory(store, index, Embedder(RecordingProvider(dim=32, model="new")))
        try:
            # dense only: nothing but the other model's vectors, all left out and counted
            r = await dense.recall(query, scope="all", window=0)
            assert r.hits == () and r.excluded["other_model"] == len(OLD_TEXTS)
            # hybrid: the words still match; the dense hits that full text did not find
            # stay out, counted
            r = await mem.recall(query, scope="all", window=0)
            assert list(_by_content(r)) == [OLD_TEXTS[0]]
            assert r.excluded["other_model"] == len(OLD_TEXTS) - 1

            # half re-embedded: new messages get the new model's vectors (the first
            # one in the old key's session: it follows it, in its sitting)
            await mem.add([{"session_id": f"s{i * 9}", "content": t}
                           for i, t in enumerate(NEW_TEXTS)])
            await mem.flush()
            assert (await mem.stats())["vectors_by_model"] == {
                "test:old": len(OLD_TEXTS), "test:new": len(NEW_TEXTS)}
            r = await mem.recall(query, scope="all", window=0)
            first = _by_content(r)
            assert set(first) == {OLD_TEXTS[0], *NEW_TEXTS}
            assert r.excluded["other_model"] == len(OLD_TEXTS) - 1
            r = await dense.recall(query, scope="all", window=0)
            assert set(_by_content(r)) == set(NEW_TEXTS)
            assert r.excluded["other_model"] == len(OLD_TEXTS)

            # no score mixes the spaces: the old model's vectors made the query's own
            # vector (a cosine of 1 if it were compared) change no score
            qvec = await mem.embedder.embed_one(query)  # type: ignore[union-attr]
            olds = [m for m in await mem.store.list_messages() if m.content in OLD_TEXTS]
            await mem.storage.write_entries([message_entry(
                m, vector=qvec, model_id="test:old", origin_platform=None,
                resource_id=None, session_metadata={}) for m in olds])
            assert (await mem.stats())["vectors_by_model"]["test:old"] == len(OLD_TEXTS)
            assert _by_content(await mem.recall(query, scope="all", window=0)) == first
        finally:
            for m in (mem, dense):
                if m._indexer is not None:
                    await m._indexer.stop()


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_a_reply_of_another_models_vector_is_a_hit_or_counted_never_both(
        backend: str, tmp_path: Path) -> None:
    """Before a reindex, the reply after a full-text match inherits its parent's score
    (search.reply_share: a share of a score of the query's space, never a cosine of the
    reply's own vector), as a reply not embedded yet would: it is a hit, and not counted
    as ``other_model`` too; without replies inheriting it is counted, and not a hit."""
    key, answer = "where did I leave the spare key?", "under the blue flowerpot by the door"
    dentist = "the dentist moved my appointment to monday"
    async with BACKENDS[backend](tmp_path) as (store, index):
        old = Memory(store, index, Embedder(RecordingProvider(dim=32, model="old")))
        await old.add([{"session_id": "s", "role": "user", "content": key, "ts": 1000},
                       {"session_id": "s", "role": "assistant", "content": answer,
                        "ts": 2000},
                       {"session_id": "t", "role": "user", "content": dentist,
                        "ts": 3000}])
        await old.flush()
        await old._indexer.stop()  # type: ignore[union-attr]
        mem = Memory(store, index, Embedder(RecordingProvider(dim=32, model="new")))
        try:
            # the three old vectors are the dense pool; full text matches the key only
            r = await mem.recall("spare key", scope="all", window=0)
            assert [h.message.content for h in r.hits] == [key, answer]
            assert r.excluded["other_model"] == 1  # the dentist's: not a hit
            r = await mem.recall("spare key", scope="all", window=0, follow_replies=False)
            assert [h.message.content for h in r.hits] == [key]
            assert r.excluded["other_model"] == 2
        finally:
            if mem._indexer is not None:
                await mem._indexer.stop()


def _near(q: np.ndarray, away: np.ndarray, by: float) -> np.ndarray:
    v = q + by * away
    return (v / np.linalg.norm(v)).astype(np.float32)


@pytest.mark.parametrize("backend", sorted(BACKENDS))
async def test_other_models_vectors_of_the_same_width_take_no_place_of_the_query_models(
        backend: str, tmp_path: Path) -> None:
    """F11 before a reindex: 200 vectors of the old model nearer the question than the
    20 of the new model, all of one width. The index compared them all and the pool of
    20 (top_k 5 × 4) held only old ones: no hit. The search of the query model's own
    space gives its 5 nearest, on every backend the same; the old ones are still
    counted as ``other_model``, and their messages, sharing no word, are no hit."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider(dim=32, model="new")),
                     config={"hybrid": {"enabled": False}})
        both = Memory(store, index, Embedder(RecordingProvider(dim=32, model="new")))
        try:
            olds = await mem.add([{"session_id": f"o{i}", "content": f"old note {i}"}
                                  for i in range(200)])
            news = await mem.add([{"session_id": f"n{i}", "content": f"new note {i}"}
                                  for i in range(20)])
            await mem.flush()
            query = "apple pie"
            q = np.asarray(await mem.embedder.embed_one(query))  # type: ignore[union-attr]
            rng = np.random.default_rng(7)
            away = rng.normal(size=(2, 32)).astype(np.float32)
            away -= np.outer(away @ q, q)  # orthogonal to the query
            away /= np.linalg.norm(away, axis=1, keepdims=True)
            # every old vector nearer the question than any new one
            entries = [message_entry(m, vector=_near(q, away[0], 0.01 * (1 + i / 200)),
                                     model_id="test:old", origin_platform=None,
                                     resource_id=None, session_metadata={})
                       for i, m in enumerate(olds)]
            entries += [message_entry(m, vector=_near(q, away[1], 0.2 + 0.1 * i),
                                      model_id="test:new", origin_platform=None,
                                      resource_id=None, session_metadata={})
                        for i, m in enumerate(news)]
            await mem.storage.write_entries(entries)
            assert (await mem.stats())["vectors_by_model"] == {"test:old": 200,
                                                               "test:new": 20}
            want = [f"new note {i}" for i in range(5)]
            for m in (mem, both):  # dense only, and hybrid (no word matches)
                r = await m.recall(query, scope="all", top_k=5, window=0)
                assert [h.message.content for h in r.hits] == want
                assert r.excluded["other_model"] == 20
        finally:
            for m in (mem, both):
                if m._indexer is not None:
                    await m._indexer.stop()
