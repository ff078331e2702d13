"""Export / import / migrate (S6, X3): nothing lost, ids and settings kept."""

from __future__ import annotations

import asyncio
import io
import json
import uuid
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from backends import drop_pg_schema, pg_url
from chatmem import Memory
from chatmem.cli import main
from chatmem.embedding import Embedder
from chatmem.errors import InvalidInput
from chatmem.store import Storage
from chatmem.transfer import export_jsonl, import_records, migrate, validate_jsonl
from providers import RecordingProvider
from world import MESSAGES, SESSIONS

OWNER = {"id": "owner", "role": "owner"}


async def _source(url: str) -> tuple[Memory, dict[str, Any]]:
    mem = await Memory.open(url, embedder=Embedder(RecordingProvider()))
    for s in SESSIONS:
        await mem.upsert_session(s)
    await mem.add(MESSAGES)
    await mem.flush(timeout=30)
    await mem.settings.set("platform", actor=OWNER, layer="group", platform="qq",
                           group_id="1001")
    await mem.clear("vector", session="p-bob")  # an index state that must survive
    return mem, await snapshot(mem.storage)


async def snapshot(storage: Storage) -> dict[str, Any]:
    buf = io.StringIO()
    await export_jsonl(storage, buf, vectors=True)
    recs = [json.loads(line) for line in buf.getvalue().splitlines()]
    msgs = sorted((r for r in recs if r["type"] == "message"), key=lambda r: r["id"])
    vecs = sorted((r for r in recs if r["type"] == "vector"), key=lambda r: r["message_id"])
    return {
        "sessions": sorted((r for r in recs if r["type"] == "session"), key=lambda r: r["id"]),
        "meta": sorted((r["namespace"], r["key"], r["value"]) for r in recs
                       if r["type"] == "meta"),
        "messages": msgs,
        "vectors": [(v["message_id"], v["model_id"], [round(x, 5) for x in v["vector"]])
                    for v in vecs],
    }


async def test_round_trip_sqlite_postgres_qdrant_sqlite_keeps_everything(tmp_path: Path
                                                                         ) -> None:
    src, want = await _source(f"sqlite:///{tmp_path}/a.db")
    await src.close()
    pg = pg_url()
    schema = "t_" + uuid.uuid4().hex[:10]
    sep = "&" if "?" in pg else "?"
    hops: list[tuple[str, str | None]] = [
        (f"{pg}{sep}schema={schema}", None),
        (f"sqlite:///{tmp_path}/b.db", f"qdrant+local://{tmp_path}/q"),
        (f"sqlite:///{tmp_path}/c.db", None),
    ]
    prev: tuple[str, str | None] = (f"sqlite:///{tmp_path}/a.db", None)
    try:
        for url, vector in hops:
            source = await Storage.open(prev[0], vector=prev[1])
            target = await Storage.open(url, vector=vector)
            await migrate(source, target)
            got = await snapshot(target)
            assert got == want, f"lost something on the way to {url} {vector or ''}"
            for storage in (source, target):
                await storage.close()
            prev = (url, vector)
    finally:
        await drop_pg_schema(pg, schema)
    # the last copy still recalls, with the same settings in force
    mem = await Memory.open(prev[0], embedder=Embedder(RecordingProvider()))
    r = await mem.recall("Eagle Peak", session="g-hike", top_k=20)
    assert r.scope == "platform" and r.hits
    await mem.close()


async def test_export_import_via_cli_and_reembedding(tmp_path: Path) -> None:
    src, want = await _source(f"sqlite:///{tmp_path}/src.db")
    await src.close()
    runner = CliRunner()
    out = tmp_path / "backup.jsonl"
    # the CLI runs its own event loop: call it from a thread, as a shell would
    res = await asyncio.to_thread(runner.invoke, main, ["export", "--db",
                                                        str(tmp_path / "src.db"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    res = await asyncio.to_thread(runner.invoke, main, ["import", "--db",
                                                        str(tmp_path / "dst.db"), str(out)])
    assert res.exit_code == 0, res.output
    storage = await Storage.open(str(tmp_path / "dst.db"))
    got = await snapshot(storage)
    # the import re-embedded with the default model, auto, which recorded its choice for
    # this (English) store; the source, embedded by a test provider, had none to export
    auto = ("embedding", "auto_model", "all-MiniLM-L6-v2")
    assert auto in got["meta"] and auto not in want["meta"]
    assert got["messages"] == want["messages"]
    assert [m for m in got["meta"] if m != auto] == want["meta"]
    assert got["sessions"] == want["sessions"]
    # vectors were not exported: the import re-embedded what had been indexed
    assert {v[0] for v in got["vectors"]} == {v[0] for v in want["vectors"]}
    await storage.close()


def test_a_truncated_or_bad_export_changes_nothing(tmp_path: Path) -> None:
    good = [json.dumps({"type": "header", "format": "chatmem-jsonl", "version": 1}),
            json.dumps({"type": "message", "id": "m1", "session_id": "s", "content": "hi",
                        "ts": 1}),
            json.dumps({"type": "end", "sessions": 0, "messages": 1, "vectors": 0,
                        "meta": 0})]
    assert len(validate_jsonl(good)) == 1
    with pytest.raises(InvalidInput, match="truncated"):
        validate_jsonl(good[:2])
    with pytest.raises(InvalidInput, match="content is empty"):
        validate_jsonl([good[0], good[1].replace('"hi"', '""'), good[2]])
    with pytest.raises(InvalidInput, match="line 2: not JSON"):
        validate_jsonl([good[0], "{oops", good[2]])
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(good[:2]) + "\n")
    res = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "x.db"), str(path)])
    assert res.exit_code == 2 and "truncated" in res.output
    assert not (tmp_path / "x.db").exists()


def _file(*records: dict[str, Any]) -> list[str]:
    """An export of these records, with its header and a matching end line."""
    kinds = [r["type"] for r in records]
    return [json.dumps({"type": "header", "format": "chatmem-jsonl", "version": 1}),
            *(json.dumps(r) for r in records),
            json.dumps({"type": "end", **{k + ("" if k == "meta" else "s"): kinds.count(k)
                                          for k in ("session", "message", "vector",
                                                    "meta")}})]


async def test_a_hostile_export_is_refused_before_anything_is_written(tmp_path: Path
                                                                       ) -> None:
    """What no single line shows: ids unique and new to the store, a vector with its own
    message's session and time (a relabelled one would be recalled in another
    conversation), a sane size, metadata chatmem writes, the store's own model kept."""
    msg = {"type": "message", "id": "m1", "session_id": "secret", "content": "pin 1234",
           "ts": 5}
    vec = {"type": "vector", "message_id": "m1", "session_id": "secret", "ts": 5,
           "model_id": "t:v", "vector": [0.6, 0.8]}
    bad_files = [
        (_file(msg, {**msg, "content": "again"}), "appears twice"),
        (_file(msg, {**vec, "session_id": "public"}), "must be its message's"),
        (_file(msg, {**vec, "message_id": "ghost"}), "no such message"),
        (_file(msg, {**vec, "vector": [0.1] * 9000}), "over 8192"),
        (_file(msg, vec, {**msg, "id": "m2"}, {**vec, "message_id": "m2", "vector": [1.0]}),
         "where model 't:v' has 2"),
        (_file(msg, vec, dict(vec)), "two vectors"),
        (_file(msg, {**vec, "vector": [0.0, 0.0]}), "all zeros"),
        (_file(msg, {"type": "meta", "namespace": "embedding", "key": "auto_model",
                     "value": "../../etc/passwd"}), "not a model"),
        (_file(msg, {"type": "meta", "namespace": "chatmem.other", "key": "k",
                     "value": "v"}), "not one chatmem exports"),
    ]
    for lines, why in bad_files:
        with pytest.raises(InvalidInput, match=why):
            validate_jsonl(lines)
    header_true = _file(msg)
    header_true[0] = header_true[0].replace('"version": 1', '"version": true')
    after_end = [*_file(msg), json.dumps(msg)]
    for lines, why in ((header_true, "not a chatmem-jsonl v1"),
                       (after_end, "after the end line")):
        with pytest.raises(InvalidInput, match=why):
            validate_jsonl(lines)
    path = tmp_path / "latin1.jsonl"
    path.write_bytes("\n".join(_file(msg)).replace("pin", "pïn").encode("latin-1"))
    with open(path, encoding="utf-8") as fh, pytest.raises(InvalidInput, match="not UTF-8"):
        validate_jsonl(fh)

    # against the store: an id it holds, a model record of its own that differs
    storage = await Storage.open(f"sqlite:///{tmp_path}/t.db")
    try:
        await import_records(storage, validate_jsonl(_file(msg, vec)))
        await storage.store.meta_set("embedding", "auto_model", "all-MiniLM-L6-v2")
        before = await storage.store.stats()
        other = {**msg, "id": "m2"}
        for lines, why in (
                (_file({**other, "ts": 6}, msg), "already in this store"),
                (_file(other, {"type": "meta", "namespace": "embedding", "key": "auto_model",
                               "value": "multilingual-e5-small"}), "import into a new store")):
            with pytest.raises(InvalidInput, match=why):
                await import_records(storage, validate_jsonl(lines))
        assert await storage.store.stats() == before  # nothing written
    finally:
        await storage.close()
