"""SQLite store (S1–S3): durability, ordering, range rules, filter-first exact search."""

from __future__ import annotations

import numpy as np
import pytest

from chatmem.errors import ConfigError, InvalidInput, StoreClosed, StoreError
from chatmem.models import IndexState, Message, Session, VectorEntry
from chatmem.store import SqliteStore, sqlite_path


def unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float32)
    return a / np.linalg.norm(a)


async def test_append_assigns_ids_staggers_equal_ts_and_persists(tmp_path) -> None:
    path = tmp_path / "m.db"
    store = await SqliteStore.open(path)
    stored = await store.append([
        Message(session_id="s", content="one", ts=1000),
        Message(session_id="s", content="two", ts=1000),
        Message(session_id="t", content="three", ts=1000),
    ])
    assert [m.ts for m in stored] == [1000, 1001, 1000]
    assert all(m.id for m in stored)
    await store.close()
    store = await SqliteStore.open(path)
    got = await store.get([m.id for m in stored])  # type: ignore[misc]
    assert {m.content for m in got.values()} == {"one", "two", "three"}
    await store.close()


async def test_index_state_pending_only_for_indexable(tmp_path) -> None:
    store = await SqliteStore.open(":memory:")
    stored = await store.append([
        Message(session_id="s", content="hi", role="user"),
        Message(session_id="s", content="reply", role="assistant"),
        Message(session_id="s", content="tool out", role="tool"),
        Message(session_id="s", content="note", role="notice"),
        Message(session_id="s", content="sys", role="system"),
        Message(session_id="s", content="cron says hi", role="user", source="scheduler"),
        Message(session_id="s", content="---", kind="divider"),
    ])
    states = await store.index_states([m.id for m in stored])  # type: ignore[misc]
    assert [states[m.id] for m in stored] == [  # type: ignore[index]
        IndexState.PENDING, IndexState.PENDING] + [IndexState.SKIPPED] * 5
    assert [m.content for m in await store.pending(10)] == ["hi", "reply"]
    await store.close()


async def test_range_skips_control_directive_and_system_without_counting() -> None:
    store = await SqliteStore.open(":memory:")
    rows = [
        Message(session_id="s", content="m1", ts=1),
        Message(session_id="s", content="div", ts=2, kind="divider"),
        Message(session_id="s", content="m3", ts=3),
        Message(session_id="s", content="sys", ts=4, role="system"),
        Message(session_id="s", content="HIT", ts=5),
        Message(session_id="s", content="dir", ts=6, kind="directive"),
        Message(session_id="s", content="m7", ts=7, role="tool"),
        Message(session_id="s", content="cmd", ts=8, kind="command_reply"),
        Message(session_id="s", content="m9", ts=9, role="assistant"),
        Message(session_id="s", content="m10", ts=10),
        Message(session_id="other", content="x", ts=6),
    ]
    await store.append(rows)
    got = await store.range("s", 5, 2, 2)
    assert [m.content for m in got] == ["m1", "m3", "m7", "m9"]
    assert [m.content for m in await store.range("s", 5, 0, 0)] == []
    await store.close()


async def test_duplicate_id_is_idempotent_but_conflicts_are_errors() -> None:
    store = await SqliteStore.open(":memory:")
    [a] = await store.append([Message(session_id="s", content="x", id="m1", ts=5)])
    [b] = await store.append([Message(session_id="s", content="x", id="m1")])
    assert b == a
    with pytest.raises(InvalidInput, match="already exists"):
        await store.append([Message(session_id="s", content="different", id="m1")])
    # a failing batch stores nothing of it
    with pytest.raises(InvalidInput):
        await store.append([Message(session_id="s", content="new", id="m2"),
                            Message(session_id="s", content="different", id="m1")])
    assert await store.get(["m2"]) == {}
    await store.close()


async def _indexed_store(n_sessions: int = 3, per: int = 50) -> tuple[SqliteStore, dict]:
    store = await SqliteStore.open(":memory:")
    rng = np.random.default_rng(7)
    vecs = {}
    entries = []
    for s in range(n_sessions):
        msgs = await store.append([Message(session_id=f"s{s}", content=f"m{s}-{i}", ts=i)
                                   for i in range(per)])
        for m in msgs:
            v = unit(list(rng.normal(size=8)))
            vecs[m.id] = v
            entries.append(VectorEntry(m.id, m.session_id, m.ts, "user", "test:m", v))  # type: ignore[arg-type]
    await store.upsert(entries)
    return store, vecs


async def test_exact_search_matches_numpy_and_filter_applies_before_top_k() -> None:
    store, vecs = await _indexed_store()
    q = unit([1, 0, 0, 0, 0, 0, 0, 1])
    ids = list(vecs)
    mat = np.stack([vecs[i] for i in ids])
    want = [ids[j] for j in np.argsort(-(mat @ q))[:10]]
    got = await store.query(q, 10)
    assert [h.message_id for h in got] == want
    # a narrow scope still returns k hits, all from that session
    narrow = await store.query(q, 10, {"session_id": "s2"})
    assert len(narrow) == 10 and {h.session_id for h in narrow} == {"s2"}
    two = await store.query(q, 200, {"session_id": {"$in": ["s0", "s2"]}})
    assert len(two) == 100
    assert await store.query(q, 5, {"session_id": "nope"}) == []
    await store.close()


async def test_upsert_is_idempotent_and_marks_indexed() -> None:
    store, vecs = await _indexed_store(1, 5)
    some = next(iter(vecs))
    await store.upsert([VectorEntry(some, "s0", 0, "user", "test:m", vecs[some])])
    st = await store.stats()
    assert st.indexed == 5 and st.pending == 0 and st.vectors_by_model == {"test:m": 5}
    assert len(await store.query(vecs[some], 100)) == 5
    await store.close()


async def test_delete_and_clear_keep_matrix_in_step() -> None:
    store, vecs = await _indexed_store(2, 10)
    first = next(iter(vecs))
    assert await store.delete_messages([first]) == 1
    hits = await store.query(vecs[first], 100)
    assert first not in {h.message_id for h in hits} and len(hits) == 19
    await store.clear_vectors("s1")
    assert {h.session_id for h in await store.query(vecs[first], 100)} == {"s0"}
    await store.clear_vectors()
    assert await store.query(vecs[first], 100) == []
    await store.close()


async def test_vectors_survive_reopen(tmp_path) -> None:
    path = tmp_path / "v.db"
    store = await SqliteStore.open(path)
    [m] = await store.append([Message(session_id="s", content="x")])
    v = unit([1, 2, 3])
    await store.upsert([VectorEntry(m.id, "s", m.ts, "user", "test:m", v)])  # type: ignore[arg-type]
    await store.close()
    store = await SqliteStore.open(path)
    [hit] = await store.query(v, 3)
    assert hit.message_id == m.id and hit.score == pytest.approx(1.0)
    await store.close()


async def test_second_open_of_same_file_is_refused_and_closed_store_errors(tmp_path) -> None:
    path = tmp_path / "lock.db"
    store = await SqliteStore.open(path)
    with pytest.raises(StoreError, match="open in another process"):
        await SqliteStore.open(path)
    await store.close()
    with pytest.raises(StoreClosed):
        await store.get(["x"])
    again = await SqliteStore.open(path)  # the lock is released on close
    await again.close()


async def test_sessions_and_metadata_area() -> None:
    store = await SqliteStore.open(":memory:")
    await store.upsert_session(Session(id="g1", chat_type="group", group_name="Hiking",
                                       origin_platform="qq", metadata={"team": "a"}))
    got = await store.get_sessions(["g1", "missing"])
    assert list(got) == ["g1"] and got["g1"].group_name == "Hiking"
    assert await store.meta_get("memory-vector", "legacy-model") is None
    await store.meta_set("memory-vector", "legacy-model", "local:x")
    assert await store.meta_get("memory-vector", "legacy-model") == "local:x"
    await store.meta_delete("memory-vector", "legacy-model")
    assert await store.meta_get("memory-vector", "legacy-model") is None
    await store.close()


def test_sqlite_urls() -> None:
    # SQLAlchemy's convention: three slashes + a relative path, four for an absolute one
    assert sqlite_path("sqlite:///rel.db") == "rel.db"
    assert sqlite_path("sqlite:///data/{namespace}.db") == "data/{namespace}.db"
    assert sqlite_path("sqlite:////abs/x.db") == "/abs/x.db"
    assert sqlite_path("memory://") == ":memory:"
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    with pytest.raises(ConfigError, match="host part 'rel.db'.*'sqlite:///rel.db'"):
        sqlite_path("sqlite://rel.db")
    with pytest.raises(Exception, match="unknown scheme"):
        sqlite_path("mysql://x")
