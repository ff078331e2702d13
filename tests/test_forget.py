"""Read and erase (I8): get, list, delete and forget on every backend.

After ``forget`` nothing of the forgotten messages is left anywhere a backend keeps
it — message rows, vectors, full-text rows (indexed and pending), ANN labels, Qdrant
points, cached embeddings — and a recall cannot return them. get / list / delete
answer the same on every backend, bad input included.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from backends import BACKENDS, PLACES
from chatmem import Erased, InvalidInput, Memory, Message, StoreError, SyncMemory
from chatmem.embedding import Embedder
from chatmem.memory import CursorSeal
from chatmem.models import VectorEntry
from chatmem.store import SqliteStore, Storage
from chatmem.store.ann import AnnSettings
from chatmem.store.base import CURSOR_KEY, CURSOR_NAMESPACE
from providers import RecordingProvider

NAMES = sorted(BACKENDS)


def corpus() -> list[dict[str, Any]]:
    """Alice and Bob in two rooms; Alice's words are her own (``zebra…``)."""
    out: list[dict[str, Any]] = []
    for i in range(6):
        out.append({"id": f"a{i}", "session_id": "room1" if i % 2 else "room2",
                    "ts": 1_000 + i, "speaker_id": "alice", "role": "user",
                    "content": f"zebra{i} alice owns a striped zebra number {i}"})
        out.append({"id": f"b{i}", "session_id": "room1" if i % 2 else "room2",
                    "ts": 1_000 + i, "speaker_id": "bob", "role": "user",
                    "content": f"bob keeps a tortoise called shell {i}"})
    out.append({"id": "t0", "session_id": "room1", "ts": 2_000, "speaker_id": "alice",
                "role": "tool", "content": "zebra tool output"})  # stored, not embedded
    return out


async def raw_rows(store: Any, ids: list[str]) -> dict[str, int]:
    """Rows of these message ids left in the backend's own tables (SQL stores)."""
    if isinstance(store, SqliteStore):
        def count() -> dict[str, int]:
            conn = store.conn
            marks = ",".join("?" * len(ids))
            rowids = "SELECT rowid FROM messages"
            return {
                "messages": conn.execute(f"SELECT count(*) FROM messages WHERE id IN ({marks})",
                                         ids).fetchone()[0],
                "vectors": conn.execute(f"SELECT count(*) FROM vectors WHERE message_id IN "
                                        f"({marks})", ids).fetchone()[0],
                # full-text rows of messages that are gone (orphans)
                "lexical": conn.execute(f"SELECT count(*) FROM lexical_docsize WHERE id NOT IN "
                                        f"({rowids})").fetchone()[0]
                + conn.execute(f"SELECT count(*) FROM lexical_entries WHERE mrowid NOT IN "
                               f"({rowids})").fetchone()[0],
            }
        return await store._run(count)
    async with store._conn() as conn:
        out = {}
        for name, sql in (("messages", "SELECT count(*) FROM messages WHERE id = ANY(%s)"),
                          ("vectors", "SELECT count(*) FROM vectors WHERE message_id = ANY(%s)"),
                          ("lexical", "SELECT count(*) FROM lexical_entries "
                                      "WHERE message_id = ANY(%s)")):
            out[name] = (await (await conn.execute(sql, [ids])).fetchone())[0]
        return out


@pytest.mark.parametrize("backend", NAMES)
async def test_forget_speaker_leaves_nothing_on_any_backend(backend: str,
                                                           tmp_path: Path) -> None:
    provider = RecordingProvider()
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(provider))
        try:
            await mem.add(corpus())
            await mem.flush()
            # one more of Alice's, still waiting for its vector (a pending full-text row)
            await store.append([Message(id="a-pending", session_id="room1", ts=3_000,
                                        speaker_id="alice", content="zebra pending note")])
            before = await mem.recall("striped zebra", scope="all", window=0, top_k=5)
            assert any(h.message.speaker_id == "alice" for h in before.hits)

            erased = await mem.forget(speaker_id="alice")

            alice = [f"a{i}" for i in range(6)] + ["t0", "a-pending"]
            assert erased.messages == 8
            assert erased.vectors == 6
            assert erased.lexical >= 7  # six indexed rows and the pending one
            assert erased.points == (6 if backend == "qdrant" else 0)
            assert erased.cache >= 6  # the embedded texts were cached
            assert await store.get(alice) == {}
            assert await store.list_messages(speaker_id="alice") == []
            left = [e.message_id for e in await index.scan_vectors(None, 1000)]
            assert sorted(left) == sorted(f"b{i}" for i in range(6))
            assert await store.lexical_query("zebra", 50) == []
            if backend != "qdrant":
                assert await raw_rows(store, alice) == {"messages": 0, "vectors": 0,
                                                        "lexical": 0}
            if isinstance(store, SqliteStore):  # no term of Alice's left in FTS5 segments
                blocks = await store._run(lambda: [bytes(r[0]) for r in store.conn.execute(
                    "SELECT block FROM lexical_data") if isinstance(r[0], bytes)])
                assert blocks and not any(b"zebra" in b for b in blocks)
                # nor anywhere in its files while it is open: the write-ahead log kept
                # every page as written, Alice's words included, until a checkpoint
                # (a server running for weeks kept them for weeks)
                if store.path != ":memory:":
                    files = [Path(store.path + suffix) for suffix in ("", "-wal")]
                    assert all(b"zebra" not in f.read_bytes() for f in files if f.exists())
                    assert b"tortoise" in files[0].read_bytes()  # Bob's, written back
            after = await mem.recall("striped zebra", scope="all", window=0, top_k=5)
            assert after.hits and all(h.message.speaker_id == "bob" for h in after.hits)
            # the cached embeddings went too: embedding Alice's text asks the provider
            calls = len(provider.calls)
            await mem.embedder.embed_one(Message(  # type: ignore[union-attr]
                session_id="x", content="zebra0 alice owns a striped zebra number 0",
                speaker_id="alice").embedded_text)
            assert len(provider.calls) == calls + 1
            # Bob is untouched; forgetting again finds nothing
            assert len(await store.list_messages(speaker_id="bob")) == 6
            assert await mem.forget(speaker_id="alice") == Erased()
        finally:
            await mem.close()


@pytest.mark.parametrize("backend", NAMES)
async def test_list_text_finds_a_word_however_it_is_written(backend: str,
                                                            tmp_path: Path) -> None:
    """``list(text=)`` compared casefolded text only: ``café`` typed the usual way
    missed the same word stored decomposed, ``istanbul`` missed ``İstanbul``, ``abc``
    the full-width ``ＡＢＣ``, ``hyphenation`` the word with a soft hyphen."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider()))
        try:
            stored = {"nfd": "un cafe\u0301 noir", "tr": "İstanbul trip",
                      "wide": "ＡＢＣ notes", "shy": "hyphen\u00adation rules",
                      "other": "nothing to see"}
            await mem.add([{"id": mid, "session_id": "s", "ts": 10 + i, "content": text}
                           for i, (mid, text) in enumerate(stored.items())])
            for needle, want in (("café", ["nfd"]), ("CAFE", ["nfd"]), ("istanbul", ["tr"]),
                                 ("abc", ["wide"]), ("hyphenation", ["shy"]),
                                 ("\u0301", []), ("see", ["other"])):
                page = await mem.list(session="s", text=needle)
                assert [m.id for m in page.messages] == want, needle
            # what is returned is what was stored
            assert (await mem.get(["nfd"]))["nfd"].content == stored["nfd"]
        finally:
            await mem.close()


@pytest.mark.parametrize("backend", ["memory", "sqlite", "postgres"])
async def test_forget_resource_over_many_pages_of_sessions(backend: str, tmp_path: Path
                                                           ) -> None:
    """forget(resource_id) reads the sessions a page at a time: a child is matched by
    its root's resource id also when the root sorts on a later page, a grandchild
    too, and a child's own resource id wins over its root's."""
    from chatmem.retention import SWEEP_SESSIONS
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider()))
        try:
            others = [f"m{i:04d}" for i in range(SWEEP_SESSIONS + 20)]
            for sid in others:
                await mem.upsert_session({"id": sid, "resource_id": "tenant-b"})
            await mem.upsert_session({"id": "z-root", "resource_id": "tenant-a"})
            await mem.upsert_session({"id": "a-child", "parent_id": "z-root"})
            await mem.upsert_session({"id": "a-grandchild", "parent_id": "a-child"})
            await mem.upsert_session({"id": "b-own", "parent_id": "z-root",
                                      "resource_id": "tenant-b"})
            sessions = [*others, "z-root", "a-child", "a-grandchild", "b-own"]
            await mem.add([{"id": f"x-{sid}", "session_id": sid, "ts": 10,
                            "content": f"note of {sid}"} for sid in sessions])
            assert (await mem.forget(resource_id="tenant-a", dry_run=True)).messages == 3
            assert (await mem.forget(resource_id="tenant-a")).messages == 3
            left = set(await mem.get([f"x-{sid}" for sid in sessions]))
            assert left == {f"x-{sid}" for sid in [*others, "b-own"]}
            assert (await mem.forget(resource_id="tenant-b")).messages == len(others) + 1
        finally:
            await mem.close()


@pytest.mark.parametrize("backend", NAMES)
async def test_forget_session_and_resource(backend: str, tmp_path: Path) -> None:
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider()))
        try:
            await mem.upsert_session({"id": "room1", "resource_id": "tenant-a"})
            await mem.upsert_session({"id": "child", "parent_id": "room1"})  # inherits it
            await mem.add([*corpus(), {"id": "c0", "session_id": "child", "ts": 5,
                                       "content": "zebra in a sub-task"}])
            await mem.flush()
            gone = await mem.forget(session="room2")
            assert gone.messages == 6 and gone.vectors == 6
            assert {m.session_id for m in (await mem.list()).messages} == {"room1", "child"}
            gone = await mem.forget(resource_id="tenant-a")
            assert gone.messages == 8  # room1: 3 + 3 + the tool message; child: 1
            assert (await mem.list()).messages == ()
            assert await index.scan_vectors(None, 100) == []
            assert await mem.forget(resource_id="nobody") == Erased()
        finally:
            await mem.close()


async def test_the_log_names_what_was_forgotten_as_json(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """forget's INFO line showed the selector's value in Python's repr ('forgot session
    'room2'', an id holding an apostrophe in double quotes); now as JSON, whole, as the
    refusals and the other log lines show an id, and its counts as JSON too."""
    import logging

    odd = "it's \"quoted\" " + "x" * 90
    async with BACKENDS["sqlite"](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider()))
        try:
            await mem.add([{"session_id": odd, "content": "zebra"},
                           {"session_id": "room2", "speaker_id": "o'brien", "content": "x"}])
            with caplog.at_level(logging.INFO, logger="chatmem"):
                await mem.forget(session=odd)
                await mem.forget(speaker_id="o'brien")
        finally:
            await mem.close()
    said = [r.getMessage() for r in caplog.records if r.getMessage().startswith("forgot ")]
    assert said[0].startswith(f"forgot session {json.dumps(odd)}: {{\"messages\": 1"), said
    assert said[1].startswith('forgot speaker_id "o\'brien": {"messages": 1'), said


def deep_cursor() -> str:
    """A cursor-shaped string decoding to JSON nested past the recursion limit."""
    import base64

    return base64.urlsafe_b64encode(b"[" * 1500).decode().rstrip("=")


def readable_cursor(ts: int, message_id: str) -> str:
    """A position as older chatmem wrote cursors (base64 JSON): anyone could write one."""
    import base64
    import json

    raw = json.dumps([ts, message_id]).encode()
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def flipped(cursor: str) -> str:
    """``cursor`` with one character in its middle changed (still base64)."""
    i = len(cursor) // 2
    return cursor[:i] + ("B" if cursor[i] == "A" else "A") + cursor[i + 1:]


async def run_reads(mem: Memory) -> list[Any]:
    """Every read and delete, and the error of every bad call, as plain data."""
    out: list[Any] = []

    def ids(page: Any) -> list[str]:
        return [m.id for m in page.messages]

    await mem.add(corpus())
    out.append(list(await mem.get(["b3", "nope", "a1", "b3"])))
    full = await mem.list(limit=1000)
    out.append(ids(full))
    assert full.next_cursor is None
    pages: list[str] = []
    cursor = None
    while True:  # every page of 4, stable (ts, then id) order
        page = await mem.list(limit=4, cursor=cursor)
        pages += ids(page)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert pages == ids(full)
    newest: list[str] = []
    cursor = None
    while True:  # newest first, pages of 3: the same order reversed
        page = await mem.list(limit=3, cursor=cursor, newest_first=True)
        newest += ids(page)
        cursor = page.next_cursor
        if cursor is None:
            break
    assert newest == ids(full)[::-1]
    out.append(ids(await mem.list(session="room1", speaker_id="alice", newest_first=True,
                                  limit=2)))
    out.append(ids(await mem.list(since=1_001, until=1_004, newest_first=True)))
    oldest_cursor = (await mem.list(limit=2)).next_cursor
    newest_cursor = (await mem.list(limit=2, newest_first=True)).next_cursor
    assert oldest_cursor is not None and newest_cursor is not None
    seal = CursorSeal.from_stored(await mem.store.meta_get(CURSOR_NAMESPACE, CURSOR_KEY)
                                  or "")
    assert seal is not None  # the key the store's cursors are sealed with
    other_store = CursorSeal(bytes(16)).encode(1_001, "a1")
    out.append(ids(await mem.list(session="room1", speaker_id="alice")))
    out.append(ids(await mem.list(since=1_002, until=1_004)))
    out.append(await mem.delete(["a0", "b0", "missing"]))
    out.append(ids(await mem.list(until=1_002)))
    for bad in (lambda: mem.get("a1"), lambda: mem.get([None]), lambda: mem.get([1]),
                lambda: mem.list(limit=0), lambda: mem.list(limit=1001),
                lambda: mem.list(limit=True), lambda: mem.list(cursor="not-a-cursor"),
                lambda: mem.list(cursor=deep_cursor()), lambda: mem.list(cursor="é"),
                lambda: mem.list(cursor=seal.encode(5, "a\x00b")),
                lambda: mem.list(cursor=readable_cursor(1_001, "a1")),
                lambda: mem.list(cursor=flipped(oldest_cursor)),
                lambda: mem.list(cursor=other_store),
                lambda: mem.list(since=5, until=5), lambda: mem.list(since=-1),
                lambda: mem.list(session=""), lambda: mem.delete("a1"),
                lambda: mem.list(newest_first="yes"),  # type: ignore[arg-type]
                lambda: mem.list(newest_first=1),  # type: ignore[arg-type]
                lambda: mem.list(cursor=oldest_cursor, newest_first=True),
                lambda: mem.list(cursor=newest_cursor),
                lambda: mem.forget(), lambda: mem.forget(speaker_id="a", session="b"),
                lambda: mem.forget(speaker_id="")):
        try:
            await bad()
        except InvalidInput as exc:
            out.append((type(exc).__name__, str(exc)))
        else:  # pragma: no cover
            raise AssertionError("bad input accepted")
    out.append(len((await mem.list()).messages))  # bad input changed nothing
    return out


async def test_reads_and_deletes_answer_the_same_on_every_backend(tmp_path: Path) -> None:
    answers: dict[str, list[Any]] = {}
    for name in NAMES:
        (tmp_path / name).mkdir()
        async with BACKENDS[name](tmp_path / name) as (store, index):
            mem = Memory(store, index, Embedder(RecordingProvider()))
            try:
                answers[name] = await run_reads(mem)
            finally:
                await mem.close()
    first = answers[NAMES[0]]
    assert first[0] == ["b3", "a1"]
    assert first[6] == 2  # the delete
    for name in NAMES[1:]:
        assert answers[name] == first, name


async def test_erase_names_the_ids_that_matched_nothing(tmp_path: Path) -> None:
    """chatmem delete read the store itself (mem.store.get) beside Memory.delete to name
    the ids that matched nothing: the library did not say. Memory.erase now does, as
    Erased.not_found (in the order given, dry run or not); it is not a count, so
    to_tuple, to_dict and equality are the counts' as before, and a sum keeps both."""
    import dataclasses

    async with await Memory.open(f"sqlite:///{tmp_path}/e.db", embedder=None) as mem:
        await mem.add([Message(session_id="s", content="one", id="m1"),
                       Message(session_id="s", content="two", id="m2")])
        would = await mem.erase(["nope", "m1", "m1x", "m1"], dry_run=True)
        assert (would.messages, would.not_found) == (1, ("nope", "m1x"))
        erased = await mem.erase(["m2", "nope", "m1"])
        assert (erased.messages, erased.not_found) == (2, ("nope",))
        assert erased == dataclasses.replace(erased, not_found=())
        assert len(erased.to_tuple()) == 6 and "not_found" not in erased.to_dict()
        total = erased + Erased(messages=1, not_found=("x",))
        assert (total.messages, total.not_found) == (3, ("nope", "x"))
        assert await mem.delete(["m1"]) == 0
        await mem.add(Message(session_id="s", content="three", id="m3"))
        assert (await mem.forget(session="s")).not_found == ()


async def test_list_for_a_viewer_shows_only_its_visible_set(tmp_path: Path) -> None:
    async with await Memory.open(f"sqlite:///{tmp_path / 'v.db'}",
                                 embedder=Embedder(RecordingProvider())) as mem:
        await mem.add(corpus())
        await mem.set_scope("session", actor={"id": "o", "role": "owner"}, session="room1")
        page = await mem.list(visible_from="room1", limit=2)
        seen = list(page.messages)
        while page.next_cursor:
            page = await mem.list(visible_from="room1", limit=2, cursor=page.next_cursor)
            seen += page.messages
        assert {m.session_id for m in seen} == {"room1"} and len(seen) == 7
        got = await mem.get(["a0", "a1"], visible_from="room1")
        assert list(got) == ["a1"]  # a0 is in room2
        # visible(): the same test for messages stored or not (what memory_add asks)
        fresh = [Message(session_id="room2", content="x"),
                 Message(session_id="room1", content="y"), got["a1"]]
        assert await mem.visible(fresh, visible_from="room1") == fresh[1:]
        assert await mem.visible(fresh, visible_from="room2") == fresh  # scope "all"
        for bad in ({"session_id": "room1", "content": "z"}, fresh[0]):
            with pytest.raises(InvalidInput, match="list of Message"):
                await mem.visible(bad, visible_from="room1")  # type: ignore[arg-type]
        with pytest.raises(InvalidInput, match="visible_from"):
            await mem.visible(fresh, visible_from="")


async def with_a_graph(store: SqliteStore, seed: int) -> tuple[list[Message], Any]:
    """400 messages in 4 sessions with random 16-d vectors, and the ANN graph built."""
    rng = np.random.default_rng(seed)
    vecs = rng.standard_normal((400, 16)).astype(np.float32)
    vecs /= np.linalg.norm(vecs, axis=1, keepdims=True)
    msgs = await store.append([Message(session_id=f"s{i % 4}", content=f"m{i}", ts=i)
                               for i in range(400)])
    await store.upsert([VectorEntry(message_id=m.id or "", session_id=m.session_id,
                                    ts=m.ts or 0, role="user", model_id="t:v", vector=v)
                        for m, v in zip(msgs, vecs, strict=True)])
    await store.query(vecs[0], 5)  # starts the graph
    assert store.ann.wait_ready(120)
    return msgs, vecs


async def test_erase_drops_the_ann_graph_and_its_file(tmp_path: Path) -> None:
    pytest.importorskip("faiss")
    db = tmp_path / "ann.db"
    store = await SqliteStore.open(db, ann=AnnSettings(threshold=200))
    try:
        msgs, vecs = await with_a_graph(store, seed=3)
        graph_file = Path(f"{db}.ann")
        assert graph_file.exists()
        doomed = [m.id or "" for m in msgs[:50]]
        erased = await store.erase_messages(doomed)
        assert erased.messages == 50 and erased.vectors == 50 and erased.ann == 50
        assert not graph_file.exists() and store.ann.status() == {}
        for q in vecs[:50]:
            hits = {h.message_id for h in await store.query(q, 10)}
            assert not hits & set(doomed)
        assert store.ann.wait_ready(120)  # rebuilt from the live vectors only
        (st,) = store.ann.status().values()
        assert st["labels"] == 350 and st["dead"] == 0
    finally:
        await store.close()


async def test_a_file_not_ours_at_the_ann_path_is_left_alone(tmp_path: Path) -> None:
    """A user's file that happens to be named <store>.ann is neither replaced by a saved
    graph nor removed by an erase: the graph is built and used, and not saved."""
    pytest.importorskip("faiss")
    db = tmp_path / "ann.db"
    theirs = Path(f"{db}.ann")
    theirs.write_bytes(b"my own notes, not a graph\n")
    store = await SqliteStore.open(db, ann=AnnSettings(threshold=200, save_fraction=0.0))
    try:
        msgs, vecs = await with_a_graph(store, seed=5)
        assert (await store.query(vecs[7], 1))[0].message_id == msgs[7].id
        erased = await store.erase_messages([m.id or "" for m in msgs[:10]])
        assert erased.messages == 10
    finally:
        await store.close()  # a save at close too
    assert theirs.read_bytes() == b"my own notes, not a graph\n"
    assert not Path(f"{db}.ann.tmp").exists()


async def test_a_point_written_after_its_message_was_erased_is_deleted(tmp_path: Path
                                                                       ) -> None:
    async with BACKENDS["qdrant"](tmp_path) as (store, index):
        storage = Storage(store, index)
        (msg,) = await store.append([Message(session_id="s", content="late", ts=1)])
        assert msg.id is not None
        await storage.erase([msg.id])
        # the indexer finishes an embedding it started before the erase
        await storage.write_entries([VectorEntry(
            message_id=msg.id, session_id="s", ts=1, role="user", model_id="t:v",
            vector=np.ones(8, dtype=np.float32) / np.sqrt(8))])
        assert await index.scan_vectors(None, 10) == []


async def test_an_erase_the_separate_index_missed_is_finished_later(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The store erased the messages, then Qdrant failed (or the process died) before
    their points went: the messages can no longer be found to be forgotten again, so the
    erase's record in the store has the points deleted later — at the next flush, and
    after a restart."""
    async with PLACES["qdrant"](tmp_path) as place:
        async def down(ids: list[str]) -> int:
            raise StoreError("qdrant unreachable")

        mem = await Memory.open(place.url, vector=place.vector,
                                embedder=Embedder(RecordingProvider()))
        try:
            await mem.add(corpus())
            await mem.flush()
            index = mem.storage.index
            assert index is not None
            monkeypatch.setattr(index, "delete_vectors", down)
            with pytest.raises(StoreError, match="unreachable"):
                await mem.forget(speaker_id="alice")
            assert await mem.forget(speaker_id="alice") == Erased()  # gone from the store
            monkeypatch.undo()
            await mem.flush()
            left = {e.message_id for e in await index.scan_vectors(None, 100)}
            assert left == {f"b{i}" for i in range(6)}
            monkeypatch.setattr(index, "delete_vectors", down)
            with pytest.raises(StoreError):
                await mem.forget(session="room1")  # Bob's b1, b3, b5; then a crash
        finally:
            await mem.close()
        mem = await Memory.open(place.url, vector=place.vector,
                                embedder=Embedder(RecordingProvider()))
        try:
            await mem.flush()
            assert mem.storage.index is not None
            left = {e.message_id for e in await mem.storage.index.scan_vectors(None, 100)}
            assert left == {"b0", "b2", "b4"}
            hits = (await mem.recall("tortoise shell", scope="all", window=0, top_k=10)).hits
            assert sorted(h.message.id or "" for h in hits) == ["b0", "b2", "b4"]
            assert not [key for ns, key, _ in await mem.store.meta_items()
                        if key.startswith("erase-owed:")]
        finally:
            await mem.close()


def test_sync_memory_reads_and_forgets(tmp_path: Path) -> None:
    with SyncMemory.open(f"sqlite:///{tmp_path / 's.db'}",
                         embedder=Embedder(RecordingProvider())) as mem:
        mem.add(corpus())
        assert [m.id for m in mem.list(speaker_id="bob", limit=2).messages] == ["b0", "b1"]
        assert list(mem.get(["a2"])) == ["a2"]
        assert mem.forget(speaker_id="bob").messages == 6
        assert mem.delete(["a2"]) == 1
        assert len(mem.list().messages) == 6


def test_cli_list_and_forget(tmp_path: Path) -> None:
    import json

    from click.testing import CliRunner

    from chatmem.cli import main

    db = f"sqlite:///{tmp_path / 'cli.db'}"
    with SyncMemory.open(db, embedder=Embedder(RecordingProvider())) as mem:
        mem.add(corpus())
        mem.flush()
    runner = CliRunner()
    res = runner.invoke(main, ["list", "--db", db, "--speaker-id", "bob", "--limit", "4"])
    assert res.exit_code == 0, res.output
    shown, cursor_line = res.output.rsplit("\n", 2)[0], res.output.splitlines()[-1]
    assert "b0" in shown and "b3" in shown and "b4" not in shown  # (a cursor may spell b4)
    assert cursor_line.startswith("next page: --cursor ")
    res = runner.invoke(main, ["list", "--db", db, "--speaker-id", "bob", "--limit", "2",
                               "--newest-first"])
    assert res.exit_code == 0, res.output
    lines = [line.split()[2] for line in res.output.splitlines() if "  " in line]
    assert lines == ["b5", "b4"] and "next page: --newest-first --cursor " in res.output
    cursor = res.output.rsplit("--cursor ", 1)[1].split()[0]
    res = runner.invoke(main, ["list", "--db", db, "--cursor", cursor])
    assert res.exit_code == 2 and "go on with --newest-first" in res.output
    assert "newest_first" not in res.output  # the library's argument, not the option
    res = runner.invoke(main, ["list", "--db", db, "--text", "SHELL 3", "--json"])
    assert [m["id"] for m in json.loads(res.output)["messages"]] == ["b3"]
    with SyncMemory.open(db, embedder=Embedder(RecordingProvider())) as mem:
        mem.set_scope("session", actor={"id": "op", "role": "owner"}, session="room2")
    res = runner.invoke(main, ["list", "--db", db, "--text", "tortoise", "--visible-from",
                               "room2", "--json"])
    assert res.exit_code == 0, res.output  # room2 sees its own messages only
    assert [m["id"] for m in json.loads(res.output)["messages"]] == ["b0", "b2", "b4"]
    res = runner.invoke(main, ["list", "--db", db, "--platform", "telegram"])
    assert res.exit_code == 2 and "give --visible-from too" in res.output
    res = runner.invoke(main, ["list", "--db", db, "--visible-from", ""])
    assert res.exit_code == 2 and "--visible-from must not be empty" in res.output
    res = runner.invoke(main, ["list", "--db", db, "--limit", "0"])
    assert res.exit_code == 2 and "limit must be an integer from 1 to 1000" in res.output
    res = runner.invoke(main, ["forget", "--db", db, "--yes"])
    assert res.exit_code == 2 and "exactly one of" in res.output
    res = runner.invoke(main, ["forget", "--db", db, "--speaker-id", "alice", "--dry-run"])
    assert res.exit_code == 0, res.output
    assert "would forget 7 message(s), 6 of them indexed (nothing erased)" in res.output
    res = runner.invoke(main, ["forget", "--db", db, "--speaker-id", "alice", "--dry-run",
                               "--json"])
    assert json.loads(res.output)["messages"] == 7
    res = runner.invoke(main, ["forget", "--db", db, "--speaker-id", "alice"], input="n\n")
    assert res.exit_code != 0  # declined: nothing erased
    assert "Erase 7 message(s) (6 indexed) of speaker alice?" in res.output
    res = runner.invoke(main, ["forget", "--db", db, "--speaker-id", "nobody"])
    assert res.exit_code == 0 and "forgot 0 messages" in res.output  # nothing to ask
    res = runner.invoke(main, ["forget", "--db", db, "--speaker-id", "alice", "--yes",
                               "--json"])
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["messages"] == 7
    # asked, the question counts the messages the ids match, not the ids typed, and
    # ids matching none ask nothing (it said "Erase 2 message(s)?" and erased nothing)
    res = runner.invoke(main, ["delete", "--db", db, "b0", "nope"], input="n\n")
    assert res.exit_code != 0 and "Erase 1 message(s) (1 indexed)? [y/N]" in res.output
    res = runner.invoke(main, ["delete", "--db", db, "nope", "b"])
    assert res.exit_code == 0 and "[y/N]" not in res.output
    assert res.output.startswith('deleted 0 message(s); no message has the id "nope", "b"')
    res = runner.invoke(main, ["delete", "--db", db, "--yes", "b0", "b1"])
    assert res.exit_code == 0 and res.output == "deleted 2 message(s)\n"
    # an id that matches nothing (the help's example ids, a part of one) was only
    # counted, 'deleted 0 message(s)', as if the erase had been done: it is named now
    res = runner.invoke(main, ["delete", "--db", db, "--yes", "3f2c9a1e", "b2", "b"])
    assert res.exit_code == 0 and res.output == (
        'deleted 1 message(s); no message has the id "3f2c9a1e", "b" (an id is whole: '
        "chatmem list shows them)\n")
    res = runner.invoke(main, ["delete", "--db", db, "--yes", *(f"x{i}" for i in range(7))])
    assert res.output.startswith('deleted 0 message(s); no message has the id "x0", "x1", '
                                 '"x2", "x3", "x4" and 2 more (')
    res = runner.invoke(main, ["list", "--db", db, "--json"])
    page = json.loads(res.output)
    assert [m["id"] for m in page["messages"]] == ["b3", "b4", "b5"]


@pytest.mark.parametrize("backend", ["sqlite", "qdrant", "postgres"])
async def test_forget_while_indexing_leaves_no_vector_and_no_cached_embedding(
        backend: str, tmp_path: Path) -> None:
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, Embedder(RecordingProvider()))
        try:
            msgs = [{"session_id": f"s{i % 3}", "speaker_id": "carol",
                     "content": f"carol's secret number {i}"} for i in range(300)]
            stored = await mem.add(msgs)  # queued and being embedded right now
            erased = await mem.forget(speaker_id="carol")
            assert erased.messages == 300
            await mem.flush()
            assert await index.scan_vectors(None, 1000) == []
            assert await store.list_messages(speaker_id="carol") == []
            texts = [m.embedded_text for m in stored]
            assert mem.embedder.forget_texts(texts) == 0  # type: ignore[union-attr]
        finally:
            await mem.close()


async def test_list_order_is_byte_wise_on_every_backend(tmp_path: Path) -> None:
    """Equal timestamps (other sessions) are ordered by id byte-wise (UTF-8), the same
    on every backend, and paging by cursor over them loses and repeats nothing."""
    ids = ["b", "B", "a", "é", "Z", "a-1", "a_1", "中", "10", "9"]
    orders: dict[str, list[str]] = {}
    for name in NAMES:
        (tmp_path / name).mkdir()
        async with BACKENDS[name](tmp_path / name) as (store, index):
            mem = Memory(store, index, Embedder(RecordingProvider()))
            try:
                await mem.add([{"id": i, "session_id": f"s{n}", "ts": 5, "content": i}
                               for n, i in enumerate(ids)])
                seen: list[str] = []
                cursor = None
                while True:
                    page = await mem.list(limit=3, cursor=cursor)
                    seen += [m.id or "" for m in page.messages]
                    if (cursor := page.next_cursor) is None:
                        break
                orders[name] = seen
                seen = []
                while True:
                    page = await mem.list(limit=3, cursor=cursor, newest_first=True)
                    seen += [m.id or "" for m in page.messages]
                    if (cursor := page.next_cursor) is None:
                        break
                assert seen == orders[name][::-1], name
            finally:
                await mem.close()
    expected = sorted(ids, key=lambda i: i.encode())
    assert all(order == expected for order in orders.values()), orders


async def test_an_erase_the_log_cannot_be_emptied_for_says_so(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Another process reading the file (here a second connection in a read
    transaction, as the sqlite3 shell holds one) keeps the log from being emptied: the
    erase still happens, and a warning says the log holds the text until later; once the
    reader is gone, the next erase empties it."""
    import logging
    import sqlite3

    db = tmp_path / "held.db"
    store = await SqliteStore.open(db)
    try:
        await store.append([Message(id=f"m{i}", session_id="s", ts=i + 1,
                                    content=f"secret quokka {i}") for i in range(3)])
        reader = sqlite3.connect(db)
        reader.execute("BEGIN")
        reader.execute("SELECT count(*) FROM messages").fetchone()
        with caplog.at_level(logging.WARNING, logger="chatmem.store.sqlite"):
            assert (await store.erase_messages(["m0"])).messages == 1
        assert "another process is reading the store" in caplog.text
        reader.rollback()
        reader.close()
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="chatmem.store.sqlite"):
            assert (await store.erase_messages(["m1", "m2"])).messages == 2
        assert caplog.text == ""
        assert not Path(f"{db}-wal").exists() or Path(f"{db}-wal").stat().st_size == 0
        assert b"quokka" not in db.read_bytes()
    finally:
        await store.close()
