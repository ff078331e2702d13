"""Export / import (S6, X3): a live store's export imports, session chains stay ones
scoping reads, a vector keeps its message's time, every bad field is named."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from backends import PLACES
from chatmem.errors import InvalidInput
from chatmem.models import Message, VectorEntry
from chatmem.store import Storage
from chatmem.transfer import export_jsonl, import_records, migrate, validate_jsonl
from test_transfer import _file


def _vector(mid: str, session: str, ts: int, vec: list[float]) -> dict[str, Any]:
    return {"type": "vector", "message_id": mid, "session_id": session, "ts": ts,
            "role": "user", "model_id": "t:v", "vector": vec}


async def test_an_export_of_a_store_written_meanwhile_imports(tmp_path: Path) -> None:
    """Another process adds and embeds a message after the export read the messages and
    before it reads the vectors (a PostgreSQL store in use): the vector of a message
    the file does not hold is left out, else no export of a live store imported."""
    storage = await Storage.open(f"sqlite:///{tmp_path}/live.db")
    lines = _file({"type": "message", "id": "m1", "session_id": "s", "content": "one",
                   "ts": 5}, _vector("m1", "s", 5, [1.0, 0.0]))
    await import_records(storage, validate_jsonl(lines), lines)
    assert storage.index is not None
    scan = storage.index.scan_vectors

    async def scan_after_a_write(after: str | None, limit: int) -> list[VectorEntry]:
        if after is None:  # the messages are read: a writer adds one, and embeds it
            await storage.store.append([Message("s", "two", id="m2", ts=6)])
            await storage.write_entries([VectorEntry("m2", "s", 6, "user", "t:v",
                                                     np.array([0.0, 1.0], np.float32))])
        return await scan(after, limit)

    storage.index.scan_vectors = scan_after_a_write  # type: ignore[method-assign]
    try:
        buf = io.StringIO()
        counts = await export_jsonl(storage, buf, vectors=True)
    finally:
        await storage.close()
    assert (counts.messages, counts.vectors) == (1, 1)
    checked = validate_jsonl(buf.getvalue().splitlines())
    assert list(checked.messages) == ["m1"]


def _session(sid: str, parent: str | None = None) -> dict[str, Any]:
    return {"type": "session", "id": sid, "parent_id": parent}


async def test_an_import_keeps_parent_chains_scoping_can_read(tmp_path: Path) -> None:
    """``upsert_session`` refuses a parent that makes a cycle or a chain of more than
    32 sessions (:func:`chatmem.scopes.check_parent_chain`); an import, which writes
    sessions to the store directly, refuses them too: in the file, and with the
    sessions the store holds. Nothing is written."""
    deep = [_session("d0"), *(_session(f"d{i}", f"d{i - 1}") for i in range(1, 33))]
    for lines, why in ((_file(_session("a", "b"), _session("b", "a")), "make a cycle"),
                       (_file(*deep), "more than 32 sessions"),
                       (_file(*deep[1:]), "more than 32 sessions"),  # d0 missing: counted
                       (_file(_session("x", "y"), _session("x", "z")), "appears twice")):
        with pytest.raises(InvalidInput, match=why):
            validate_jsonl(lines)
    assert len(validate_jsonl(_file(*deep[:32]))) == 32  # 32 is the most

    storage = await Storage.open(f"sqlite:///{tmp_path}/t.db")
    try:
        lines = _file(_session("a", "b"), *deep[:31])
        await import_records(storage, validate_jsonl(lines), lines)
        before = await storage.store.all_sessions()
        msg = {"type": "message", "id": "m1", "session_id": "b", "content": "hi", "ts": 5}
        for lines, why in (
                (_file(_session("b", "a"), msg), "make a cycle"),  # a's parent is b
                (_file(_session("d31", "d30"), _session("d32", "d31"), msg),
                 "more than 32 sessions"),
                (_file(_session("d0", "a"), msg), "more than 32 sessions")):
            checked = validate_jsonl(lines)  # each file is fine by itself
            with pytest.raises(InvalidInput, match=why):
                await import_records(storage, checked, lines)
        assert await storage.store.all_sessions() == before
        assert await storage.store.get(["m1"]) == {}
        # a migration checks its sessions against the target's too
        source = await Storage.open(f"sqlite:///{tmp_path}/s.db")
        try:
            lines = _file(_session("b", "a"))
            await import_records(source, validate_jsonl(lines), lines)
            with pytest.raises(InvalidInput, match="make a cycle"):
                await migrate(source, storage)
        finally:
            await source.close()
        assert await storage.store.all_sessions() == before
    finally:
        await storage.close()


async def test_a_vector_takes_its_messages_time_when_the_store_staggers_it(
        tmp_path: Path) -> None:
    """Two messages of one session at one time (a file put together by hand, or an
    import into a store whose session has a message then): the store staggers the
    second, and its vector follows it, never sitting at the other message's
    ``(session, ts)``, where a rewrite of that one would delete it."""
    storage = await Storage.open(f"sqlite:///{tmp_path}/t.db")
    try:
        lines = _file(
            {"type": "message", "id": "m1", "session_id": "s", "content": "alpha", "ts": 5},
            {"type": "message", "id": "m2", "session_id": "s", "content": "gamma", "ts": 5},
            _vector("m1", "s", 5, [1.0, 0.0]), _vector("m2", "s", 5, [0.0, 1.0]))
        await import_records(storage, validate_jsonl(lines), lines)
        buf = io.StringIO()
        await export_jsonl(storage, buf, vectors=True)
        recs = [json.loads(line) for line in buf.getvalue().splitlines()]
        times = {r.get("id") or r.get("message_id"): r["ts"] for r in recs
                 if r["type"] in ("message", "vector") and r.get("id") != "m1"
                 and r.get("message_id") != "m1"}
        stored = await storage.store.get(["m2"])
        assert stored["m2"].ts == 6 and times == {"m2": 6}
        # and the export imports again, as it is
        again = await Storage.open(f"sqlite:///{tmp_path}/again.db")
        try:
            lines = buf.getvalue().splitlines()
            await import_records(again, validate_jsonl(lines), lines)
        finally:
            await again.close()
    finally:
        await storage.close()


@pytest.mark.parametrize("place", sorted(PLACES))
async def test_an_import_that_changes_a_stored_session_moves_its_vectors(
        tmp_path: Path, place: str) -> None:
    """An import into a store that holds a session already, with other fields (another
    tenant's resource id): the session's vectors follow on every backend, so scope
    ``resource`` of the old tenant no longer finds them (beside Qdrant they kept the
    old resource id, and the old tenant went on recalling the message)."""
    async with PLACES[place](tmp_path) as where:
        storage = await Storage.open(where.url, vector=where.vector)
        try:
            lines = _file({"type": "session", "id": "s", "resource_id": "r1"},
                          {"type": "message", "id": "m1", "session_id": "s",
                           "content": "the vault code is 77", "ts": 5},
                          _vector("m1", "s", 5, [1.0, 0.0]))
            await import_records(storage, validate_jsonl(lines), lines)
            lines = _file({"type": "session", "id": "s", "resource_id": "r2"},
                          {"type": "message", "id": "m2", "session_id": "s",
                           "content": "hello", "ts": 6})
            await import_records(storage, validate_jsonl(lines), lines)
            buf = io.StringIO()
            await export_jsonl(storage, buf, vectors=True)
            vectors = [json.loads(line) for line in buf.getvalue().splitlines()
                       if '"type": "vector"' in line]
            assert [(v["message_id"], v["resource_id"]) for v in vectors] == [("m1", "r2")]
            assert storage.index is not None
            hits = await storage.index.query(np.array([1.0, 0.0], np.float32), 5,
                                             {"resource_id": "r1"})
            assert list(hits) == []
        finally:
            await storage.close()


def test_each_bad_field_of_an_import_is_named() -> None:
    """Fields no check read before: a message's index state, a vector's role and
    fields, settings chatmem could not read (a broken scope is read as ``session``, a
    broken retention as keep forever), an end line of other types."""
    msg = {"type": "message", "id": "m1", "session_id": "s", "content": "hi", "ts": 5}
    vec = _vector("m1", "s", 5, [1.0])

    def meta(ns: str, value: str) -> dict[str, Any]:
        return {"type": "meta", "namespace": ns, "key": "platform:qq", "value": value}

    for lines, why in (
            (_file({**msg, "index_state": "bogus"}), r"line 2: message\.index_state must be"),
            (_file({**msg, "index_state": ["x"]}), r"line 2: message\.index_state must be"),
            (_file(msg, {**vec, "role": "banana"}), r"line 3: vector\.role must be one"),
            (_file(msg, {**vec, "extra": 1}), r"line 3: vector: unknown field\(s\) extra"),
            (_file(meta("scope-settings", '"everything"')),
             r"line 2: meta scope-settings\.platform:qq must be one of"),
            (_file(meta("scope-settings", "{nope")), r"line 2: .*not JSON"),
            (_file(meta("retention-settings", "-5")),
             r"line 2: meta retention-settings\.platform:qq must be whole days")):
        with pytest.raises(InvalidInput, match=why):
            validate_jsonl(lines)
    lines = _file(msg)
    lines[-1] = json.dumps({"type": "end", "sessions": 0.0, "messages": True,
                            "vectors": 0, "meta": False})
    with pytest.raises(InvalidInput, match="do not match the end line"):
        validate_jsonl(lines)
    good = _file({**msg, "index_state": "skipped"}, meta("scope-settings", '"thread"'),
                 meta("retention-settings", "30"))
    assert len(validate_jsonl(good)) == 3
