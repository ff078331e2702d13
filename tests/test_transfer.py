"""Export / import / migrate (S6, X3): nothing lost, ids and settings kept."""

from __future__ import annotations

import asyncio
import io
import json
import re
import shlex
import sys
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from backends import (
    PLACES,
    accept_inserts,
    drop_pg_schema,
    pg_schema_url,
    pg_url,
    refuse_inserts,
)
from chatmem import Memory, __version__
from chatmem.cli import main
from chatmem.client import Client
from chatmem.embedding import Embedder
from chatmem.errors import ChatmemError, InvalidInput
from chatmem.extras import install_hint
from chatmem.models import IndexState, Message, Session
from chatmem.server.http import create_app
from chatmem.store import Storage
from chatmem.transfer import (
    FileLines,
    export_jsonl,
    import_records,
    migrate,
    validate_jsonl,
)
from processes import grown, reading, terminated
from providers import RecordingProvider
from servers import running
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


async def test_the_list_cursor_key_is_not_exported(tmp_path: Path) -> None:
    mem, _ = await _source(f"sqlite:///{tmp_path}/a.db")
    try:
        assert (await mem.list(limit=1)).next_cursor  # the store made its cursor key
        assert await mem.store.meta_get("chatmem.cursor", "key")
        assert all(ns != "chatmem.cursor" for ns, _, _ in (await snapshot(mem.storage))["meta"])
    finally:
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


_MSG1 = {"type": "message", "id": "m1", "session_id": "s", "content": "hi", "ts": 5}


@pytest.mark.parametrize(("lines", "says"), [
    (_file(_MSG1)[:2], "{file} is truncated: no end line (was the export interrupted?)"),
    # an export cut inside its last line: said "not JSON" and no word of the cut
    ([*_file(_MSG1)[:2], _file(_MSG1)[2][:9]], "{file}: line 3: not JSON (Expecting "
     "value), the last line: the file is truncated inside it (was the export "
     "interrupted?)"),
    ([*_file(_MSG1)[:2], _file(_MSG1)[2][:9], "", " "], "{file}: line 3: not JSON "
     "(Expecting value), the last line: the file is truncated inside it"),
    ([_file()[0], "{oops", _file()[-1]], "{file}: line 2: not JSON (Expecting property "
     "name enclosed in double quotes)"),
    (_file(_MSG1, dict(_MSG1)), '{file}: line 3: message id "m1" appears twice in the file'),
    (_file({"type": "vector", "message_id": "m9", "session_id": "s", "ts": 5,
            "model_id": "t:v", "vector": [0.6, 0.8]}),
     '{file}: line 2: vector of message "m9": no such message in the file before it'),
    # a newer chatmem's export: which version it is, which this one reads, the way on
    ([json.dumps({"type": "header", "format": "chatmem-jsonl", "version": 2,
                  "chatmem": "9.1.0"}), *_file()[1:]],
     "{file}: line 1: a chatmem-jsonl version 2 file, written by chatmem 9.1.0; this "
     f"chatmem ({__version__}) reads version 1 only: upgrade chatmem to import it (update "
     f"chatmem's source, then: {install_hint(upgrade=True)})"),
    ([json.dumps({"type": "header", "format": "chatmem-jsonl", "version": 3,
                  "chatmem": "\x1b[2J"}), *_file()[1:]],
     "{file}: line 1: a chatmem-jsonl version 3 file; this chatmem "
     f"({__version__}) reads version 1 only: upgrade chatmem"),
    ([json.dumps({"type": "header", "format": "chatmem-jsonl", "version": 0}),
      *_file()[1:]], "{file}: line 1: not a chatmem-jsonl v1 file"),
])
@pytest.mark.parametrize("stdin", [False, True])
def test_an_import_refusal_names_the_file_and_line(tmp_path: Path, lines: list[str],
                                                   says: str, stdin: bool) -> None:
    """chatmem import FILE said "the file is truncated", "line 2: not JSON" or "message
    id "m1" appears twice in the file" without naming the file (chatmem add --messages
    names it), and the last without its line; a newer chatmem's export (version 2) was
    "not a chatmem-jsonl v1 file", with no word of the version it is or the upgrade
    that reads it."""
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    db = tmp_path / "x.db"
    res = CliRunner().invoke(main, ["import", "--db", str(db), "-" if stdin else str(path)],
                             input=path.read_bytes() if stdin else None)
    shown = "standard input" if stdin else str(path)
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith("error: " + says.format(file=shown)), res.stderr
    assert len(res.stderr.splitlines()) == 1
    assert not db.exists()


@pytest.mark.parametrize("given", ["my backup.jsonl.gz", "-"])
def test_a_compressed_import_names_the_file_to_decompress(tmp_path: Path, given: str
                                                          ) -> None:
    """chatmem import of a gzip file said "decompress it first (gunzip FILE, or gunzip -c
    FILE | chatmem import -)": FILE for the user to fill in, and a command without the
    store it was importing into. It names the file now (quoted for the shell), or
    standard input, and the command that imports it into the same store; nothing is
    written, and the command given imports it."""
    import gzip

    packed = tmp_path / "my backup.jsonl.gz"
    packed.write_bytes(gzip.compress(("\n".join(_file(_MSG1)) + "\n").encode("utf-8")))
    db = tmp_path / "x.db"
    stdin = given == "-"
    res = CliRunner().invoke(main, ["import", "--db", str(db), "--no-vectors",
                                    "-" if stdin else str(packed)],
                             input=packed.read_bytes() if stdin else None)
    assert res.exit_code == 2 and res.stdout == "", res.output
    quoted, store = shlex.quote(str(packed)), shlex.quote(str(db))
    again = f"chatmem import --db {store} --no-vectors -"
    assert res.stderr.splitlines() == [
        "error: standard input is gzip-compressed: decompress it on the way in (… | "
        f"gunzip -c | {again})" if stdin else
        f"error: {packed} is gzip-compressed: decompress it on the way in (gunzip -c "
        f"{quoted} | {again})"], res.stderr
    assert not db.exists()
    res = CliRunner().invoke(main, ["import", "--db", str(db), "--no-vectors", "--no-wait",
                                    "-"], input=gzip.decompress(packed.read_bytes()))
    assert res.exit_code == 0, res.output


def test_an_import_of_a_store_file_says_it_is_a_store(tmp_path: Path) -> None:
    """chatmem import chat.db (the store, not an export of it; here the very store
    imported into) said "chat.db: line 1 or near it: not UTF-8 text (invalid
    continuation byte); an export is UTF-8 JSONL". It says what the file is and the
    command that copies a store; the store is left as it was."""
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(_file(_MSG1)) + "\n", encoding="utf-8")
    db = tmp_path / "my chat.db"
    runner = CliRunner()
    res = runner.invoke(main, ["import", "--db", str(db), "--no-wait", str(path)])
    assert res.exit_code == 0, res.output
    before = db.read_bytes()
    for given in (str(db), "-"):
        res = runner.invoke(main, ["import", "--db", str(db), "--no-wait", given],
                            input=db.read_bytes() if given == "-" else None)
        assert res.exit_code == 2 and res.stdout == "", res.output
        shown = "standard input" if given == "-" else str(db)
        source = "<that file>" if given == "-" else shlex.quote(str(db))
        assert res.stderr.splitlines() == [
            f"error: {shown} is a SQLite database (a chatmem store?), not an export: a "
            f"store is copied with chatmem migrate --from {source} --to <another store>, "
            f"or exported first (chatmem export --db {source} -o backup.jsonl)"], res.stderr
        assert db.read_bytes() == before
    with open(db, encoding="utf-8") as fh, pytest.raises(
            InvalidInput, match=r"^the file is a SQLite database \(a chatmem store\?\), not "
                                r"an export: a store is copied with migrate\(source, target\)"):
        validate_jsonl(FileLines(fh))


def test_an_import_the_store_refuses_names_the_file(tmp_path: Path) -> None:
    """A file whose message the store holds already: refused naming the file."""
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(_file(_MSG1)) + "\n", encoding="utf-8")
    db = str(tmp_path / "x.db")
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", db, "--no-wait", str(path)]).exit_code == 0
    res = runner.invoke(main, ["import", "--db", db, "--no-wait", str(path)])
    assert res.exit_code == 2 and res.stdout == "", res.output
    assert res.stderr.splitlines()[-1].startswith(
        f'error: {path}: message id "m1" is already in this store (import into a new '
        "store"), res.stderr


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
         'where model "t:v" has 2'),
        (_file(msg, vec, dict(vec)), "two vectors"),
        (_file(msg, {**vec, "vector": [0.0, 0.0]}), "all zeros"),
        (_file(msg, {"type": "meta", "namespace": "embedding", "key": "auto_model",
                     "value": "../../etc/passwd"}), "not a model"),
        (_file(msg, {"type": "meta", "namespace": "chatmem.other", "key": "k",
                     "value": "v"}), "not one chatmem exports"),
        # the key sealing list cursors is the store's own secret: never exported, and
        # a file bringing one (to open or forge the store's cursors) is refused
        (_file(msg, {"type": "meta", "namespace": "chatmem.cursor", "key": "key",
                     "value": "00" * 16}), "not one chatmem exports"),
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
    import gzip

    packed = tmp_path / "backup.jsonl.gz"  # a compressed backup given as it is
    packed.write_bytes(gzip.compress("\n".join(_file(msg)).encode("utf-8")))
    with open(packed, encoding="utf-8") as fh, pytest.raises(
            InvalidInput, match=r"gzip-compressed: decompress it first, or read it through "
                                r"gzip: FileLines\(gzip.open\(path, 'rt', encoding='utf-8'\)\)"):
        validate_jsonl(fh)
    with gzip.open(packed, "rt", encoding="utf-8") as fh:  # the way it gives
        assert validate_jsonl(FileLines(fh)).counts.messages == 1

    # against the store: an id it holds, a model record of its own that differs
    storage = await Storage.open(f"sqlite:///{tmp_path}/t.db")
    try:
        lines = _file(msg, vec)
        await import_records(storage, validate_jsonl(lines), lines)
        await storage.store.meta_set("embedding", "auto_model", "all-MiniLM-L6-v2")
        before = await storage.store.stats()
        other = {**msg, "id": "m2"}
        for lines, why in (
                (_file({**other, "ts": 6}, msg), "already in this store"),
                (_file(other, {"type": "meta", "namespace": "embedding", "key": "auto_model",
                               "value": "multilingual-e5-small"}), "import into a new store")):
            with pytest.raises(InvalidInput, match=why):
                await import_records(storage, validate_jsonl(lines), lines)
        assert await storage.store.stats() == before  # nothing written
    finally:
        await storage.close()


@pytest.mark.parametrize("place", sorted(PLACES))
async def test_vectors_of_a_size_the_store_does_not_hold_for_their_model_are_refused(
        tmp_path: Path, place: str) -> None:
    """A query is embedded once and compared with vectors of its own size only: a file
    whose vectors of a model differ in size from the store's vectors of that model
    would import "indexed" messages that meaning never finds. Refused before anything
    is written; ``vectors=False`` imports the messages, which the store embeds itself."""
    msg = {"type": "message", "id": "m1", "session_id": "s", "content": "pin 1234",
           "ts": 5}
    vec = {"type": "vector", "message_id": "m1", "session_id": "s", "ts": 5,
           "model_id": "t:v", "vector": [0.6, 0.8, 0.0]}
    other = {**msg, "id": "m2", "ts": 6, "content": "the vault code is 77"}
    async with PLACES[place](tmp_path) as where:
        storage = await Storage.open(where.url, vector=where.vector)
        try:
            lines = _file(msg, vec)
            await import_records(storage, validate_jsonl(lines), lines)
            assert await storage.vector_sizes() == {"t:v": {3}}
            before = await storage.store.stats()
            wrong = _file(other, {**vec, "message_id": "m2", "ts": 6, "vector": [0.6, 0.8]})
            with pytest.raises(InvalidInput, match=r'"t:v" have 2 numbers here and 3 in '
                                                   r"this store.*--no-vectors"):
                await import_records(storage, validate_jsonl(wrong), wrong)
            assert await storage.store.stats() == before  # nothing written
            assert (await storage.store.get(["m2"])) == {}
            # another model's vectors of another size are its own: they coexist
            new_model = _file(other, {**vec, "message_id": "m2", "ts": 6,
                                      "model_id": "t:w", "vector": [0.6, 0.8]})
            await import_records(storage, validate_jsonl(new_model), new_model)
            assert await storage.vector_sizes() == {"t:v": {3}, "t:w": {2}}
            # without its vectors the file imports and its messages wait to be embedded
            third = {**msg, "id": "m3", "ts": 7, "content": "moved to Berlin"}
            wrong = _file(third, {**vec, "message_id": "m3", "ts": 7, "vector": [1.0]})
            counts = await import_records(storage, validate_jsonl(wrong), wrong,
                                          vectors=False)
            assert (counts.messages, counts.vectors) == (1, 0)
            assert (await storage.store.index_states(["m3"]))["m3"].name == "PENDING"
            assert await storage.vector_sizes() == {"t:v": {3}, "t:w": {2}}
        finally:
            await storage.close()


def test_import_no_vectors_via_cli(tmp_path: Path) -> None:
    """`chatmem import --no-vectors`: a file of another model's vectors imports its
    messages, re-embedded by this store's model; without the flag it is refused."""
    runner = CliRunner()
    db = str(tmp_path / "c.db")
    assert runner.invoke(main, ["add", "--db", db, "--session", "s",
                                "The deadline is Friday"]).exit_code == 0
    msg = {"type": "message", "id": "m1", "session_id": "s", "content": "My sister "
           "lives in Lisbon now", "ts": 5}
    vec = {"type": "vector", "message_id": "m1", "session_id": "s", "ts": 5,
           "model_id": "local:all-MiniLM-L6-v2", "vector": [0.25] * 16}
    path = tmp_path / "other.jsonl"
    path.write_text("\n".join(_file(msg, vec)) + "\n", encoding="utf-8")
    res = runner.invoke(main, ["import", "--db", db, str(path)])
    assert res.exit_code == 2 and "16 numbers here and 384 in this store" in res.output
    res = runner.invoke(main, ["import", "--db", db, "--no-vectors", str(path)])
    assert res.exit_code == 0, res.output
    assert "messages 1, vectors 0" in res.output
    dense_only = tmp_path / "dense.toml"  # found by meaning: its vector is this store's
    dense_only.write_text("[hybrid]\nenabled = false\n", encoding="utf-8")
    res = runner.invoke(main, ["recall", "--db", db, "--config", str(dense_only),
                               "--session", "s", "--top-k", "1", "where is my sibling based"])
    assert res.exit_code == 0, res.output
    assert "Lisbon" in res.output


async def test_an_older_export_with_an_empty_speaker_or_platform_imports_as_none(
        tmp_path: Path) -> None:
    """chatmem before e721bfd stored ``""`` for no platform or speaker, so its exports
    (and stores) hold them; ``add`` now refuses an empty one, Message objects too. An
    import reads it as none, in the message and in its vector, as does a client
    reading such a store through a server."""
    session = {"type": "session", "id": "s", "resource_id": "", "origin_platform": "",
               "group_id": " ", "group_name": "", "chat_type": "", "parent_id": ""}
    msg = {"type": "message", "id": "m1", "session_id": "s", "content": "My sister "
           "lives in Lisbon now", "ts": 5, "platform": "", "speaker_id": "",
           "speaker_name": " "}
    vec = {"type": "vector", "message_id": "m1", "session_id": "s", "ts": 5,
           "model_id": "test:old", "vector": [0.25] * 16, "platform": "",
           "speaker_id": ""}
    path = tmp_path / "old.jsonl"
    path.write_text("\n".join(_file(session, msg, vec)) + "\n", encoding="utf-8")
    db = str(tmp_path / "new.db")
    res = await asyncio.to_thread(CliRunner().invoke, main, ["import", "--db", db, str(path)])
    assert res.exit_code == 0, res.output
    storage = await Storage.open(db)
    buf = io.StringIO()
    await export_jsonl(storage, buf, vectors=True)
    await storage.close()
    [m] = [r for r in map(json.loads, buf.getvalue().splitlines()) if r["type"] == "message"]
    [v] = [r for r in map(json.loads, buf.getvalue().splitlines()) if r["type"] == "vector"]
    assert (m["platform"], m["speaker_id"], m["speaker_name"]) == (None, None, None)
    assert (v["platform"], v["speaker_id"]) == (None, None)
    [s] = [r for r in map(json.loads, buf.getvalue().splitlines()) if r["type"] == "session"]
    assert [s[k] for k in ("resource_id", "origin_platform", "group_id", "group_name",
                           "chat_type", "parent_id")] == [None] * 6

    # a store an older chatmem wrote, served: its "" reads as none in a client's page
    old = f"sqlite:///{tmp_path}/served.db"
    async with await Memory.open(old, embedder=Embedder(RecordingProvider())) as mem:
        await mem.store.upsert_session(Session(id="s", resource_id="", group_id=""))
        await mem.store.append([Message(session_id="s", content="hi", ts=1, id="m1",
                                        platform="", speaker_id="")])  # as then stored
    app = create_app(url=old, embedder=Embedder(RecordingProvider()))
    with running(app) as base, Client(base) as client:
        [got] = (await asyncio.to_thread(client.list)).messages
        held = await asyncio.to_thread(client.get_session, "s")
    assert (got.id, got.platform, got.speaker_id) == ("m1", None, None)
    assert held is not None and (held.resource_id, held.group_id) == (None, None)


async def test_an_import_reads_the_file_twice_and_stops_where_it_changed(tmp_path: Path
                                                                         ) -> None:
    """The file is checked whole, then read again to be written a page at a time (the
    records are not held: 100,000 messages with vectors took 2.1 GB). A line that is
    not the one checked, or a file that ends early, is refused before anything is
    written; one that changes while the file is written (between the comparison and
    the writing pass) stops the writing with an error saying the file changed; a file
    checked and written unchanged imports whole."""
    msgs = [{"type": "message", "id": f"m{i}", "session_id": "s", "content": f"note {i}",
             "ts": i + 1} for i in range(2500)]
    lines = _file(*msgs)
    checked = validate_jsonl(lines)
    assert len(checked) == 2500 and checked.counts.messages == 2500
    changed = list(lines)
    changed[2000] = changed[2000].replace("note", "n0te")

    class Rewritten:
        """A file another program rewrites after its first reading."""

        def __init__(self, then: list[str]) -> None:
            self.readings = [lines, then]

        def __iter__(self) -> Iterator[str]:  # a reading begins with its first line
            yield from (self.readings.pop(0) if len(self.readings) > 1
                        else self.readings[0])

    for other, why, part in (
            (changed, "line 2001 is not the line validate_jsonl checked", False),
            (lines[:-1], "they end before the end line validate_jsonl checked", False),
            (Rewritten(changed), "line 2001 is not the line checked", True),
            (Rewritten(lines[:-1]), "ends before its checked end line", True)):
        storage = await Storage.open(f"sqlite:///{tmp_path}/{uuid.uuid4().hex}.db")
        try:
            with pytest.raises(InvalidInput, match=why):
                await import_records(storage, checked, other)
            assert bool((await storage.store.stats()).messages) is part
        finally:
            await storage.close()
    storage = await Storage.open(f"sqlite:///{tmp_path}/whole.db")
    try:
        counts = await import_records(storage, checked, lines)
        assert counts.messages == 2500
        got = await storage.store.get(["m0", "m1999", "m2499"])
        assert [got[k].content for k in ("m0", "m1999", "m2499")] == \
            ["note 0", "note 1999", "note 2499"]
    finally:
        await storage.close()


async def test_lines_that_are_not_the_ones_checked_are_refused_before_anything_is_written(
        tmp_path: Path) -> None:
    """import_records(storage, validate_jsonl(a), b): b another file with a's header and
    first records (a later export of the same store, or the file rewritten since it
    was checked). It wrote b's records up to the first line that differed, then
    refused: a refusal that changed the store. Now every line is compared with the
    one checked before anything is written; the refusal names ``lines`` and the fix,
    and the store stays empty. A one-shot iterator, which cannot be read twice, is
    refused for what to give instead."""
    msgs = [{"type": "message", "id": f"m{i}", "session_id": "s", "content": f"note {i}",
             "ts": i + 1} for i in range(2500)]
    session = {"type": "session", "id": "s", "metadata": {"topic": "notes"}}
    meta = {"type": "meta", "namespace": "scope-settings", "key": "global",
            "value": json.dumps("session")}
    a = _file(session, meta, *msgs)
    b = _file(session, meta, *msgs[:2200], {**msgs[2200], "content": "we moved to Oslo"},
              *msgs[2201:])
    assert a[0] == b[0] and a[:2203] == b[:2203]
    storage = await Storage.open(f"sqlite:///{tmp_path}/a.db")
    try:
        own = await storage.store.meta_items()  # the store's bookkeeping
        for lines, where in ((b, "line 2204 is not"), (a[:-1], "end before"),
                             (a[:1] + a[2:], "line 2 is not")):
            with pytest.raises(ChatmemError) as info:
                await import_records(storage, validate_jsonl(a), lines)
            said = str(info.value)
            assert said.startswith("lines: ") and where in said, said
            assert "nothing was written" in said and "validate_jsonl(lines)" in said, said
            assert (await storage.store.stats()).messages == 0
            assert await storage.store.all_sessions() == []
            assert await storage.store.meta_items() == own
        with pytest.raises(ChatmemError, match=r"^lines: an import reads the lines twice"):
            await import_records(storage, validate_jsonl(a), iter(a))
        assert (await storage.store.stats()).messages == 0
        counts = await import_records(storage, validate_jsonl(b), b)
        assert counts.messages == 2500
        assert (await storage.store.get(["m2200"]))["m2200"].content == "we moved to Oslo"
    finally:
        await storage.close()


def test_an_import_of_a_file_rewritten_after_its_check_writes_nothing_via_cli(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`chatmem import` of a file another program rewrites between the check and the
    writing: one line naming the file, the line that differs and the way on, in the
    command line's words (not the library's arguments), and nothing written: the new
    store made for it is removed."""
    import chatmem.transfer as transfer

    msgs = [{"type": "message", "id": f"m{i}", "session_id": "s", "content": f"note {i}",
             "ts": i + 1} for i in range(5)]
    backup = tmp_path / "backup.jsonl"
    backup.write_text("\n".join(_file(*msgs)) + "\n")
    checking = transfer.validate_jsonl

    def then_rewritten(lines: Any) -> Any:
        checked = checking(lines)
        backup.write_text("\n".join(_file(*msgs[:2], *msgs[3:], msgs[2])) + "\n")
        return checked

    monkeypatch.setattr(transfer, "validate_jsonl", then_rewritten)
    db = tmp_path / "chat.db"
    res = CliRunner().invoke(main, ["import", "--db", str(db), "--no-wait", str(backup)])
    assert res.exit_code == 2 and res.stdout == "", res.output
    assert res.stderr.splitlines()[-1:] == [
        f"error: {backup} changed since it was checked (line 4 differs; is another program "
        "writing it?); nothing was written: import it again once it is finished"], res.stderr
    # and the new store it made is not left behind, empty (it was before)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["backup.jsonl"]


async def test_an_import_that_stopped_part_way_is_finished_with_resume(tmp_path: Path
                                                                       ) -> None:
    """An import stopped part way (here: interrupted after two pages; a kill or a full
    disk leave the same) kept the pages it wrote, and importing the file
    again was refused for its first stored id: the only way on was a new store. With
    ``resume`` the stored messages are taken when each is the file's own, the rest
    written; a stored message that differs from the file's is refused by name, before
    anything is written, with the ways an import has on (it said the add's 'already
    exists with another content … or change the stored one with rewrite', and wrote
    the pages before it)."""
    msgs = [{"type": "message", "id": f"m{i}", "session_id": "s", "content": f"note {i}",
             "ts": i + 1} for i in range(2500)]
    lines = _file(*msgs)
    checked = validate_jsonl(lines)

    def interrupted(kind: str, n: int) -> None:
        if kind == "message":
            raise KeyboardInterrupt  # Ctrl-C after the first page

    storage = await Storage.open(f"sqlite:///{tmp_path}/part.db")
    try:
        with pytest.raises(KeyboardInterrupt):
            await import_records(storage, checked, lines, progress=interrupted)
        part = (await storage.store.stats()).messages
        assert 0 < part < 2500
        with pytest.raises(InvalidInput, match="already in this store.*--resume"):
            await import_records(storage, checked, lines)
        for field, value in (("content", "another note"), ("metadata", {"edited": True})):
            other = _file(*[{**m, field: value} if m["id"] == "m5" else m for m in msgs])
            with pytest.raises(InvalidInput) as info:
                await import_records(storage, validate_jsonl(other), other, resume=True)
            said = str(info.value)
            assert said.startswith(f'message id "m5" is in this store with another {field} '
                                   "than the file's: a resume finishes only an earlier "
                                   "import of this same file"), said
            assert "import into an empty store" in said and \
                "chatmem delete --db <this store> m5) and resume again" in said
            assert "rewrite" not in said and "migrat" not in said
            assert (await storage.store.stats()).messages == part  # nothing written
        with pytest.raises(InvalidInput, match="lines: an import reads the lines twice"):
            await import_records(storage, checked, iter(lines), resume=True)
        counts = await import_records(storage, checked, lines, resume=True)
        assert counts.messages == 2500 and (await storage.store.stats()).messages == 2500
        got = await storage.store.get(["m0", "m2499"])
        assert [got[k].content for k in ("m0", "m2499")] == ["note 0", "note 2499"]
        assert (await storage.store.get(["m5"]))["m5"].content == "note 5"
    finally:
        await storage.close()


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_an_import_stopped_while_its_file_is_checked_says_so_and_changes_nothing(
        tmp_path: Path, stop: str) -> None:
    """chatmem import stopped by SIGTERM while it still checked its file (before
    anything is written) died at once (exit -15), with no word; Ctrl-C went on with
    the check and then opened (so created) the store before it stopped. Either stop
    now ends the check at once, says that nothing was imported, and ends as a stop of
    the copy does (143 on SIGTERM; "Aborted!", exit 1, on Ctrl-C): no store made."""
    import signal

    n = 50_000
    big = tmp_path / "big.jsonl"
    with big.open("w") as fh:
        fh.write(json.dumps({"type": "header", "format": "chatmem-jsonl", "version": 1}) + "\n")
        for i in range(n):
            fh.write(json.dumps({"type": "message", "id": f"m{i}", "session_id": "s",
                                 "role": "user", "content": f"message {i} about the trip",
                                 "ts": 1_700_000_000_000 + i}) + "\n")
        fh.write(json.dumps({"type": "end", "sessions": 0, "messages": n, "vectors": 0,
                             "meta": 0}) + "\n")
    sig = getattr(signal, stop)
    status, err = terminated(["import", "--db", "new.db", "big.jsonl"], tmp_path,
                             reading(big), sig)
    assert status == (128 + signal.SIGTERM if sig == signal.SIGTERM else 1), err
    assert "Traceback" not in err, err
    said = [line for line in err.splitlines() if line != "Aborted!"]
    assert said == ["import stopped before anything was written (while big.jsonl was "
                    "being checked): nothing was imported"], err
    assert ("Aborted!" in err) == (sig == signal.SIGINT), err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.jsonl"]


@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_an_import_stopped_after_its_check_before_writing_leaves_no_new_store(
        tmp_path: Path, stop: str) -> None:
    """chatmem import into a new store stopped after its file was checked and the store
    made, while the file was read again before the first write (its lines compared with
    those checked), left the new store behind, empty (migrate removes what it made when
    nothing was copied). Now nothing it made stays, and it says nothing was imported."""
    import signal

    n = 200_000
    big = tmp_path / "big.jsonl"
    big.write_text("\n".join(_file(*(
        {"type": "message", "id": f"m{i}", "session_id": "s", "role": "user",
         "content": f"message {i} about the trip", "ts": 1_700_000_000_000 + i}
        for i in range(n)))) + "\n")
    first_pass = reading(big)

    def read_again() -> bool:  # the store is made after the check: the second reading
        return (tmp_path / "new.db").exists() and first_pass()

    sig = getattr(signal, stop)
    for _ in range(5):
        status, err = terminated(["import", "--db", "new.db", "big.jsonl"], tmp_path,
                                 read_again, sig)
        if "stopped part way" not in err:
            break
        # a loaded machine ran this test late, into the writing pass (the file read a
        # third time): pages were written, as they may be; stop it again, earlier
        for made in tmp_path.glob("new.db*"):
            made.unlink()
    assert status == (128 + signal.SIGTERM if sig == signal.SIGTERM else 1), err
    assert "Traceback" not in err, err
    assert "import stopped before anything was written: nothing was imported" in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.jsonl"]


def test_an_import_stopped_anywhere_is_finished_by_resume_with_the_files_index_states(
        tmp_path: Path) -> None:
    """An import writes a page of messages (one commit), then the index states the file
    keeps (skipped, cleared: not embedded again) in a step of their own; a stop between
    the two (two of three stops here: a cancel lands while the page commits) left those
    messages pending, to be embedded by the next open unless the import was resumed.
    A stop now waits for the page's states too. Stopped at several points (a real
    process, SIGTERM once the store reached a size picked at random), the store holds
    each message kept in the file's state, and `chatmem import --resume` finishes it:
    every message of the file there, as an import that never stopped leaves it, and
    the pending ones (and those the file had indexed, without its vectors) embedded by
    the next open that indexes."""
    import random
    import signal

    import chatmem.testing

    n, states = 8_000, ["pending", "skipped", "cleared", "indexed"]
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(_file(*(
        {"type": "message", "id": f"m{i}", "session_id": f"s{i % 7}", "role": "user",
         "content": f"message {i} about the trip", "ts": 1_700_000_000_000 + i,
         "index_state": states[i % 4]} for i in range(n)))) + "\n")
    runner = CliRunner()

    async def stored(db: Path) -> dict[str, IndexState]:
        storage = await Storage.open(str(db), create=False)
        try:
            return {msg.id or "": state async for msg, state in _states(storage)}
        finally:
            await storage.close()

    async def indexed(db: Path) -> tuple[int, ...]:
        async with await Memory.open(f"sqlite:///{db}",
                                     embedder=chatmem.testing.embedder()) as mem:
            await mem.flush(timeout=120)
            got = await mem.stats()
        return tuple(got[k] for k in ("messages", "indexed", "pending", "failed", "skipped",
                                      "cleared"))

    # what an import that never stopped leaves: the states to converge to
    whole = tmp_path / "whole.db"
    res = runner.invoke(main, ["import", "--db", str(whole), "--no-wait", str(path)])
    assert res.exit_code == 0, res.output
    want = asyncio.run(stored(whole))
    assert len(want) == n
    kept_states = {mid: state for mid, state in want.items()
                   if state not in (IndexState.PENDING, IndexState.INDEXED)}
    assert len(kept_states) == n // 2  # the file's skipped and cleared ones
    want_indexed = asyncio.run(indexed(whole))
    rng = random.Random(1)
    for run in range(3):
        db = tmp_path / f"new{run}.db"

        def size(db: Path = db) -> int:
            return sum(p.stat().st_size for p in (db, Path(f"{db}-wal")) if p.exists())

        at = rng.randrange(150_000, 2_000_000)
        status, err = terminated(["import", "--db", db.name, "--no-wait", path.name],
                                 tmp_path, lambda at=at: size() >= at)
        assert status == 128 + signal.SIGTERM, err
        kept = asyncio.run(stored(db))
        assert 0 < len(kept) < n, (at, len(kept))
        assert set(kept) <= set(want)
        # a page is kept with its states: a stop between the two left them pending
        assert {mid: kept[mid] for mid in kept_states if mid in kept} == \
            {mid: state for mid, state in kept_states.items() if mid in kept}, (run, at)
        res = runner.invoke(main, ["import", "--db", str(db), "--no-wait", "--resume",
                                   str(path)])
        assert res.exit_code == 0, res.output
        after = asyncio.run(stored(db))
        assert set(after) == set(want), run
        assert {mid: after[mid] for mid in kept_states} == kept_states, run
        assert asyncio.run(indexed(db)) == want_indexed, run


def test_an_imports_own_indexer_never_embeds_the_messages_its_file_keeps_unembedded(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An import wrote a page of messages (one commit, each indexable one pending),
    then, in steps of their own, the index states the file keeps (skipped, then
    cleared: vectors cleared on purpose): the indexer of the command's own memory
    (and any other process's) claimed some of them, pending in between, embedded them
    and marked them indexed over the file's state (PostgreSQL: 100 to 4,000 of 30,000
    cleared messages, in four runs of 60,000). The page and its kept states are now
    one transaction (``append(states=...)``). A real command (the local model, sweeps
    every half second as ``lease_s`` allows) imports 60,000 messages, 1 in 100 pending,
    into PostgreSQL; then each message is in the file's state, and only pending ones
    have a vector."""
    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(pg_url(), schema)
    n, kept = 60_000, ["skipped", "cleared"]
    want = {f"m{i}": "pending" if i % 100 == 0 else kept[i % 2] for i in range(n)}
    path = tmp_path / "backup.jsonl"
    path.write_text("\n".join(_file(*(
        {"type": "message", "id": mid, "session_id": f"s{i % 7}", "role": "user",
         "content": f"message {i} about the trip", "ts": 1_700_000_000_000 + i,
         "index_state": state} for i, (mid, state) in enumerate(want.items())))) + "\n")
    monkeypatch.setenv("CHATMEM_INDEXING__LEASE_S", "0.5")

    async def stored() -> tuple[dict[str, str], set[str]]:
        storage = await Storage.open(url, create=False)
        try:
            states = {msg.id or "": state.name.lower()
                      async for msg, state in _states(storage)}
            assert storage.index is not None
            embedded: set[str] = set()
            after = None
            while page := await storage.index.scan_vectors(after, 1000):
                embedded.update(e.message_id for e in page)
                after = page[-1].message_id
            return states, embedded
        finally:
            await storage.close()

    try:
        res = CliRunner().invoke(main, ["import", "--db", url, "--no-wait", str(path)])
        assert res.exit_code == 0, res.output
        states, embedded = asyncio.run(stored())
        wrong = {mid: got for mid, got in states.items() if got != want[mid]
                 and (want[mid], got) != ("pending", "indexed")}
        assert not wrong, f"{len(wrong)} not in the file's state: {sorted(wrong)[:5]}"
        assert {mid for mid in embedded if want[mid] != "pending"} == set()
    finally:
        asyncio.run(drop_pg_schema(pg_url(), schema))


async def _states(storage: Storage) -> AsyncIterator[tuple[Message, IndexState]]:
    """Every message of ``storage`` with its index state."""
    cursor = 0
    while page := await storage.store.scan_messages(cursor, 1000):
        for _, msg, state in page:
            yield msg, state
        cursor = page[-1][0]


async def test_an_import_into_a_store_whose_append_predates_states_keeps_the_files_states(
        tmp_path: Path) -> None:
    """A message store of one's own whose ``append`` has no ``states`` keyword (written
    before chatmem's import stored the kept states with the page) imported a file with
    skipped or cleared messages with a raw TypeError; it now gets them as before, the
    page then its states."""
    from chatmem.store import SqliteStore

    class OwnStore(SqliteStore):
        async def append(self, messages: Sequence[Message]) -> list[Message]:
            return await super().append(messages)

    states = ["pending", "skipped", "cleared", "indexed"]
    lines = _file(*({"type": "message", "id": f"m{i}", "session_id": "s", "role": "user",
                     "content": f"note {i}", "ts": 1_700_000_000_000 + i,
                     "index_state": states[i % 4]} for i in range(40)))
    store = await OwnStore.open(tmp_path / "own.db")
    storage = Storage(store, store)
    try:
        await import_records(storage, validate_jsonl(lines), lines)
        got = {msg.id: state async for msg, state in _states(storage)}
    finally:
        await storage.close()
    # indexed without its vectors in the file is embedded again: pending
    want = {"skipped": IndexState.SKIPPED, "cleared": IndexState.CLEARED}
    assert got == {f"m{i}": want.get(states[i % 4], IndexState.PENDING) for i in range(40)}


def test_a_refused_import_leaves_the_store_file_as_it_was_byte_for_byte(
        tmp_path: Path) -> None:
    """A refused import changes nothing, not even the store file's bytes: a refusal
    once the store is open (a message id it holds, a resumed message that differs)
    still bumped the SQLite file's change counter (header bytes 24..27), as every open
    set PRAGMA user_version, a write of the header page, where the version was already
    the one set. The store's folder holds the same files with the same bytes after the
    refusals as before them (a bad file is refused before the store is opened)."""
    path, changed = tmp_path / "backup.jsonl", tmp_path / "changed.jsonl"
    path.write_text("\n".join(_file(_MSG1)) + "\n", encoding="utf-8")
    changed.write_text("\n".join(_file({**_MSG1, "content": "bye"})) + "\n",
                       encoding="utf-8")
    bad = tmp_path / "bad.jsonl"
    bad.write_text("\n".join(_file(_MSG1)[:2]) + "\n", encoding="utf-8")
    store = tmp_path / "store"
    store.mkdir()
    db = str(store / "x.db")
    runner = CliRunner()
    assert runner.invoke(main, ["import", "--db", db, "--no-wait", str(path)]).exit_code == 0

    def files() -> dict[str, bytes]:
        return {p.name: p.read_bytes() for p in sorted(store.iterdir())}

    before = files()
    for args, says in (([str(path)], "is already in this store"),
                       (["--resume", str(changed)], "with another content"),
                       ([str(bad)], "truncated")):
        res = runner.invoke(main, ["import", "--db", db, "--no-wait", *args])
        assert res.exit_code == 2 and says in res.output, res.output
        after = files()
        assert after.keys() == before.keys(), (args, sorted(after.keys() ^ before.keys()))
        assert after == before, (args, before["x.db"][24:28], after["x.db"][24:28])


def test_import_resume_via_cli_names_a_message_that_differs_and_the_ways_on(
        tmp_path: Path) -> None:
    """`chatmem import --resume` of a file whose message differs from the one the store
    holds: one line naming its id, the field and the ways on that fit an import, and
    nothing written; erasing that message (`chatmem delete`), as the line says, and
    resuming finishes the import with the file's message."""
    msgs = [{"type": "message", "id": f"m{i}", "session_id": "s", "content": f"note {i}",
             "ts": i + 1} for i in range(6)]
    first, backup = tmp_path / "first.jsonl", tmp_path / "backup.jsonl"
    first.write_text("\n".join(_file(*msgs[:3])) + "\n")  # where an import stopped
    backup.write_text("\n".join(_file(*[{**m, "content": "we moved to Oslo"}
                                        if m["id"] == "m1" else m for m in msgs])) + "\n")
    db = str(tmp_path / "chat.db")
    runner = CliRunner()

    def messages() -> dict[str, str]:
        res = runner.invoke(main, ["list", "--db", db, "--json"])
        assert res.exit_code == 0, res.output
        return {m["id"]: m["content"] for m in json.loads(res.stdout)["messages"]}

    res = runner.invoke(main, ["import", "--db", db, "--no-wait", str(first)])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["import", "--db", db, "--no-wait", "--resume", str(backup)])
    assert res.exit_code == 2 and res.stdout == "", res.output
    assert res.stderr.splitlines()[-1:] == [  # after the progress bar's label
        f"error: {backup}: message id \"m1\" is in this store with another content than "
        "the file's: a "
        "resume finishes only an earlier import of this same file into this store (a "
        "message the file changed since, or one the store held before, is not its copy): "
        "import into an empty store, or erase that message from this store (chatmem "
        "delete --db <this store> m1) and resume again"], res.stderr
    assert messages() == {f"m{i}": f"note {i}" for i in range(3)}
    res = runner.invoke(main, ["delete", "--db", db, "--yes", "m1"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["import", "--db", db, "--no-wait", "--resume", str(backup)])
    assert res.exit_code == 0, res.output
    assert messages() == {**{f"m{i}": f"note {i}" for i in range(6)},
                          "m1": "we moved to Oslo"}


def test_an_import_refuses_a_line_longer_than_any_record_without_holding_it(
        tmp_path: Path) -> None:
    """A line is read at most MAX_LINE_CHARS + 1 characters at a time: one of 20 MB is
    refused naming its line, from a file and from standard input, and nothing is
    created; the largest message a store accepts fits in a line."""
    from chatmem.models import Message
    from chatmem.transfer import MAX_LINE_CHARS, read_lines

    head, tail = _file()[0], _file()[-1]
    path = tmp_path / "long.jsonl"
    path.write_text(f'{head}\n{{"type": "meta", "value": "{"x" * 20_000_000}"}}\n{tail}\n')
    with open(path, encoding="utf-8") as fh:
        it = read_lines(fh)
        assert next(it) == head + "\n"
        assert len(next(it)) == MAX_LINE_CHARS + 1
    with open(path, encoding="utf-8") as fh, \
            pytest.raises(InvalidInput, match="line 2: longer than"):
        validate_jsonl(read_lines(fh))
    for args, stdin in (([str(path)], None), (["-"], path.read_bytes())):
        res = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "x.db"), *args],
                                 input=stdin)
        assert res.exit_code == 2 and "line 2: longer than" in res.output, res.output
        assert not (tmp_path / "x.db").exists()

    # the largest message: content and shown text of 200,000 characters that JSON
    # escapes six apiece, metadata at its bound, every mention and label at theirs
    odd = "\x01"
    big = Message.from_dict({
        "id": "big", "session_id": odd * 512, "role": "assistant", "ts": 1,
        "content": odd * 200_000, "visible_content": odd * 200_000,
        "metadata": {"k": odd * 99_000}, "mentions": [odd * 512] * 256,
        "speaker_id": odd * 512, "speaker_name": odd * 512, "platform": odd * 512,
        "source": odd * 512}, path="big")
    line = json.dumps({"type": "message", **big.to_dict()}, ensure_ascii=False)
    assert 3_000_000 < len(line) < MAX_LINE_CHARS
    assert len(validate_jsonl(_file(json.loads(line)))) == 1


def test_a_vector_before_its_message_or_a_record_before_the_header_is_refused() -> None:
    msg = {"type": "message", "id": "m1", "session_id": "s", "content": "hi", "ts": 5}
    vec = {"type": "vector", "message_id": "m1", "session_id": "s", "ts": 5,
           "model_id": "t:v", "vector": [0.6, 0.8]}
    with pytest.raises(InvalidInput, match="no such message in the file before it"):
        validate_jsonl(_file(vec, msg))
    lines = _file(msg)
    with pytest.raises(InvalidInput, match="line 1: a record before the header"):
        validate_jsonl([lines[1], lines[0], lines[2]])


async def test_import_from_standard_input_and_a_streamed_migration(tmp_path: Path) -> None:
    """`chatmem import -` (read twice through an unnamed temporary copy) and `chatmem
    migrate` (the source read a page at a time, its ids compared with the target's
    first) keep everything, as a file import does."""
    src, want = await _source(f"sqlite:///{tmp_path}/src.db")
    await src.close()
    runner = CliRunner()
    out = tmp_path / "backup.jsonl"
    res = await asyncio.to_thread(runner.invoke, main, [
        "export", "--db", str(tmp_path / "src.db"), "--vectors", "-o", str(out)])
    assert res.exit_code == 0, res.output
    res = await asyncio.to_thread(runner.invoke, main, [
        "import", "--db", str(tmp_path / "in.db"), "--no-wait", "-"], input=out.read_bytes())
    assert res.exit_code == 0, res.output
    res = await asyncio.to_thread(runner.invoke, main, [
        "migrate", "--from", f"sqlite:///{tmp_path}/src.db", "--to",
        f"sqlite:///{tmp_path}/mig.db"])
    assert res.exit_code == 0, res.output
    for name in ("in.db", "mig.db"):
        storage = await Storage.open(str(tmp_path / name))
        try:
            assert await snapshot(storage) == want, name
        finally:
            await storage.close()
    # a migration into a store that holds one of the ids writes nothing
    res = await asyncio.to_thread(runner.invoke, main, [
        "migrate", "--from", f"sqlite:///{tmp_path}/src.db", "--to",
        f"sqlite:///{tmp_path}/mig.db"])
    assert res.exit_code == 2 and "already in this store" in res.output, res.output
    # naming what a migration can do: finish one that stopped, or another store
    assert "migrate into a new store" in res.output and "chatmem migrate" in res.output
    assert "--resume" in res.output and "chatmem import" not in res.output


# --------------------------------------------------------------------------- resumed migration

#: Where a migration is stopped: the destination's table that refuses its next rows.
STOPS = {"messages": 9, "vectors": 6}


async def _stop_after(storage: Storage, table: str) -> None:
    """A real failure of the destination's database (a trigger raising 'disk full')
    once ``table`` holds ``STOPS[table]`` rows: the pages written before it stay."""
    await refuse_inserts(storage.store, table,
                         f"(SELECT count(*) FROM {table}) >= {STOPS[table]}")


async def _go_on(storage: Storage, table: str) -> None:
    """The failure is over (the disk has room again)."""
    await accept_inserts(storage.store, table)


async def _resumable_source(tmp_path: Path) -> tuple[str, dict[str, Any]]:
    """The world's store with scope and retention settings, cleared vectors, as a file."""
    url = f"sqlite:///{tmp_path}/src.db"
    mem, _ = await _source(url)
    await mem.retention.set(30, actor=OWNER, layer="group", platform="qq", group_id="1001")
    want = await snapshot(mem.storage)
    await mem.close()
    return url, want


@pytest.mark.parametrize(("place", "table"), [
    ("sqlite", "messages"), ("sqlite", "vectors"), ("qdrant", "messages"),
    ("postgres", "messages"), ("postgres", "vectors")])
async def test_a_migration_that_stopped_part_way_is_finished_with_resume(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, place: str, table: str) -> None:
    """A migration stopped part way (the destination's database failing after some
    pages: of messages, or of vectors) kept the pages it wrote, and migrating again was
    refused for the first id held: the only way on was to wipe the destination. With
    ``resume`` the rest is written and the destination equals one a migration that
    never stopped made: messages, index states, sessions, scope and retention settings,
    vectors and counts; a second resume changes nothing."""
    from chatmem import transfer
    from chatmem.errors import StoreError

    monkeypatch.setattr(transfer, "PAGE", 4)  # several pages of the world's 18 messages
    src_url, want = await _resumable_source(tmp_path)
    (tmp_path / "clean").mkdir()
    (tmp_path / "part").mkdir()
    async with PLACES[place](tmp_path / "clean") as clean_at, \
            PLACES[place](tmp_path / "part") as part_at:
        source = await Storage.open(src_url, create=False)
        clean = await Storage.open(clean_at.url, vector=clean_at.vector)
        target = await Storage.open(part_at.url, vector=part_at.vector)
        try:
            done = await migrate(source, clean)
            assert await snapshot(clean) == want
            await _stop_after(target, table)
            with pytest.raises(StoreError, match="disk full"):
                await migrate(source, target)
            part = await snapshot(target)
            if table == "messages":
                assert 0 < len(part["messages"]) < len(want["messages"])
            else:
                # every message written, some still waiting for their vectors
                assert [m["id"] for m in part["messages"]] == \
                    [m["id"] for m in want["messages"]]
                assert 0 < len(part["vectors"]) < len(want["vectors"])
            with pytest.raises(InvalidInput, match=r"already in this store \(.*--resume"):
                await migrate(source, target)
            assert await snapshot(target) == part
            await _go_on(target, table)
            counts = await migrate(source, target, resume=True)
            assert counts == done
            assert await snapshot(target) == want
            assert await target.store.stats() == await clean.store.stats()
            assert await migrate(source, target, resume=True) == done
            assert await snapshot(target) == want
            assert await target.store.stats() == await clean.store.stats()
        finally:
            for storage in (source, clean, target):
                await storage.close()


@pytest.mark.parametrize("place", ["sqlite", "postgres"])
@pytest.mark.parametrize(("change", "names"), [
    # said "already exists with different content; use rewrite() to change a stored
    # message": the library's advice to an add, no way on for a migration
    ({"content": "we moved to Oslo"}, "with another content than the source's"),
    ({"metadata": {"edited": True}}, "with another metadata than the source's"),
    ({"visible_content": "shown otherwise"},
     "with another visible_content than the source's")])
async def test_a_resumed_migration_refuses_a_message_that_differs_and_writes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, place: str,
        change: dict[str, Any], names: str) -> None:
    """A destination message that is not the source's (here the source's was rewritten
    after the stop) is refused by its id before anything is written: the destination's
    sessions, messages and vectors stay as the stop left them. Keeping it would leave a
    copy unlike the source (its old metadata, or shown text) without a word."""
    from chatmem import transfer
    from chatmem.errors import StoreError
    from chatmem.models import Session

    monkeypatch.setattr(transfer, "PAGE", 4)
    src_url, _ = await _resumable_source(tmp_path)
    async with PLACES[place](tmp_path) as where:
        target = await Storage.open(where.url, vector=where.vector)
        try:
            source = await Storage.open(src_url, create=False)
            try:
                await _stop_after(target, "messages")
                with pytest.raises(StoreError, match="disk full"):
                    await migrate(source, target)
            finally:
                await source.close()
            await _go_on(target, "messages")
            part = await snapshot(target)
            held = part["messages"][-1]
            mem = await Memory.open(src_url, embedder=Embedder(RecordingProvider()))
            try:
                await mem.rewrite(held["session_id"], held["ts"], **change)
                await mem.upsert_session(Session(id=held["session_id"],
                                                 metadata={"renamed": True}))
                await mem.flush(timeout=30)
            finally:
                await mem.close()
            source = await Storage.open(src_url, create=False)
            try:
                with pytest.raises(InvalidInput, match=rf"\"{held['id']}\" .*{names}") as info:
                    await migrate(source, target, resume=True)
                # the fix: what resume is for, and the ways on
                assert "rewrite()" not in str(info.value)
                assert "resume finishes only an earlier run of this same migration" \
                    in str(info.value)
                assert f"chatmem delete --db <destination> {held['id']}" in str(info.value)
                assert "migrate into an empty store" in str(info.value)
            finally:
                await source.close()
            assert await snapshot(target) == part
        finally:
            await target.close()


def test_migrate_resume_via_cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`chatmem migrate` stopped part way says so in one line (exit 2); run again it is
    refused in one line naming --resume as the fix (exit 2); with --resume it finishes
    (exit 0) and the destination equals the source; a message there that differs from
    the source's is one line naming it (exit 2). The help shows --resume with an
    example."""
    import sqlite3

    from chatmem import transfer

    monkeypatch.setattr(transfer, "PAGE", 4)
    src_url, want = asyncio.run(_resumable_source(tmp_path))
    dst = tmp_path / "dst.db"

    async def stopping() -> None:
        target = await Storage.open(f"sqlite:///{dst}")
        try:
            await _stop_after(target, "messages")
        finally:
            await target.close()

    asyncio.run(stopping())
    runner = CliRunner()
    args = ["migrate", "--from", src_url, "--to", f"sqlite:///{dst}"]

    def one_line_error(res: Any, names: str) -> None:
        assert res.exit_code == 2, res.output
        # besides the progress bar's label (all a bar shows when not on a terminal)
        lines = [line for line in res.stderr.strip().splitlines()
                 if line != "migrating messages"]
        assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
        assert names in lines[0], res.stderr

    one_line_error(runner.invoke(main, args), "disk full")
    res = runner.invoke(main, args)
    one_line_error(res, "already in this store")
    one_line_error(res, "chatmem migrate --from … --to … --resume")
    with sqlite3.connect(dst) as conn:
        conn.execute("DROP TRIGGER stop")
    res = runner.invoke(main, [*args, "--resume"])
    assert res.exit_code == 0 and "migrated sessions " in res.stderr, res.output

    async def copied() -> dict[str, Any]:
        storage = await Storage.open(str(dst))
        try:
            return await snapshot(storage)
        finally:
            await storage.close()

    assert asyncio.run(copied()) == want
    first = want["messages"][0]["id"]
    with sqlite3.connect(dst) as conn:
        conn.execute("UPDATE messages SET content = 'edited' WHERE id = ?", (first,))
    res = runner.invoke(main, [*args, "--resume"])
    one_line_error(res, f"message id {json.dumps(first)} is in the destination with another "
                        "content than the source's")
    one_line_error(res, f"chatmem delete --db <destination> {first}")
    one_line_error(runner.invoke(main, [*args[:-2], "--to", src_url, "--resume"]),
                   "--from and --to name the same store")
    res = runner.invoke(main, ["migrate", "--help"])
    assert res.exit_code == 0 and "--resume" in res.output
    assert "--to postgresql://me@localhost/chat --resume" in res.output


@pytest.mark.parametrize("place", ["sqlite", "postgres"])
def test_a_migrate_stopped_part_way_says_what_it_kept_and_how_to_finish(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, place: str) -> None:
    """A migration stopped part way (the destination's database failing after two pages
    of messages) said only 'disk full': nothing told that the destination, a PostgreSQL
    schema too, now held a part of the copy, nor the way on. The one error line says
    what was kept and names --resume, which finishes the copy; a destination that was
    there before is not offered for deletion."""
    from chatmem import transfer

    monkeypatch.setattr(transfer, "PAGE", 4)
    src_url, want = asyncio.run(_resumable_source(tmp_path))
    schema = f"t_{uuid.uuid4().hex[:16]}"
    dst = pg_schema_url(pg_url(), schema) if place == "postgres" \
        else f"sqlite:///{tmp_path}/dst.db"

    async def destination(then: Any) -> Any:
        target = await Storage.open(dst)
        try:
            return await then(target)
        finally:
            await target.close()

    try:
        asyncio.run(destination(lambda target: _stop_after(target, "messages")))
        runner = CliRunner()
        args = ["migrate", "--from", src_url, "--to", dst]
        res = runner.invoke(main, args)
        assert res.exit_code == 2, res.output
        lines = [line for line in res.stderr.strip().splitlines()
                 if line != "migrating messages"]
        assert len(lines) == 1 and lines[0].startswith("error: "), res.stderr
        part = asyncio.run(destination(snapshot))
        assert 0 < len(part["messages"]) < len(want["messages"])
        assert "disk full" in lines[0]
        assert (f"; the destination keeps what was copied before the stop (sessions "
                f"{len(want['sessions'])}, messages {len(part['messages'])}, vectors 0): "
                "run the same chatmem migrate with --resume to finish the copy") \
            in lines[0]
        assert "delete" not in lines[0]
        asyncio.run(destination(lambda target: _go_on(target, "messages")))
        res = runner.invoke(main, [*args, "--resume"])
        assert res.exit_code == 0, res.output
        assert asyncio.run(destination(snapshot)) == want
    finally:
        if place == "postgres":
            asyncio.run(drop_pg_schema(pg_url(), schema))


def test_an_import_stopped_part_way_by_an_error_says_what_it_kept_as_migrate_does(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An import that failed part way (the store's database failing after two pages
    of messages: a full disk) said only "sqlite (…): disk full", where a migration
    stopped so, and an import stopped by Ctrl-C or SIGTERM, say what the store kept
    and name --resume: nothing told that the store now held a part of the file. The
    one error line says so in the words of the stop's line, and --resume finishes it."""
    from chatmem import transfer

    monkeypatch.setattr(transfer, "PAGE", 4)
    msgs = [{"type": "message", "id": f"m{i}", "session_id": "s", "content": f"note {i}",
             "ts": i + 1} for i in range(20)]
    backup = tmp_path / "backup.jsonl"
    backup.write_text("\n".join(_file(*msgs)) + "\n")
    db = tmp_path / "chat.db"

    async def store(then: Any) -> Any:
        storage = await Storage.open(f"sqlite:///{db}")
        try:
            return await then(storage)
        finally:
            await storage.close()

    async def held(storage: Storage) -> int:
        return (await storage.store.stats()).messages

    asyncio.run(store(lambda storage: _stop_after(storage, "messages")))
    runner = CliRunner()
    res = runner.invoke(main, ["import", "--db", str(db), "--no-wait", str(backup)])
    assert res.exit_code == 2, res.output
    lines = [line for line in res.stderr.strip().splitlines() if line != "importing"]
    part = asyncio.run(store(held))
    assert 0 < part < len(msgs)
    assert len(lines) == 1 and lines[0].startswith("error: ") and "disk full" in lines[0]
    assert lines[0].endswith(
        f"; the store keeps what was written before the stop (messages {part}): run "
        "the same chatmem import with --resume to finish it"), lines[0]
    asyncio.run(store(lambda storage: _go_on(storage, "messages")))
    res = runner.invoke(main, ["import", "--db", str(db), "--no-wait", "--resume",
                               str(backup)])
    assert res.exit_code == 0, res.output
    assert asyncio.run(store(held)) == len(msgs)


def test_a_migrate_into_a_new_file_stopped_part_way_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stopped part way (here by a source vector that cannot be read, met once the
    messages were copied), a migration keeps the new store it made, as README says,
    and its error names it as the other way on: delete it and migrate again."""
    import shutil
    import sqlite3

    from chatmem import transfer

    monkeypatch.setattr(transfer, "PAGE", 4)
    asyncio.run(_resumable_source(tmp_path))
    bad = tmp_path / "bad.db"
    shutil.copy(tmp_path / "src.db", bad)
    conn = sqlite3.connect(bad)
    with conn:
        conn.execute("UPDATE vectors SET mmeta = '{oops' "
                     "WHERE mrowid = (SELECT max(mrowid) FROM vectors)")
    conn.close()
    new = tmp_path / "out" / "new.db"
    new.parent.mkdir()
    res = CliRunner().invoke(main, ["migrate", "--from", str(bad), "--to", str(new)])
    assert res.exit_code == 2, res.output
    assert re.search(r"the destination keeps what was copied before the stop \(sessions "
                     r"\d+, messages [1-9]\d*, vectors \d+\): run the same chatmem migrate "
                     r"with --resume to finish the copy, or delete "
                     f"{re.escape(str(new))} and {re.escape(str(new))}.lock and migrate "
                     "again", res.stderr), res.stderr
    assert new.is_file() and new.with_name("new.db.lock").is_file()


def test_an_import_from_a_pipe_is_read_twice_through_a_copy(tmp_path: Path) -> None:
    """A named pipe (as `<(zcat backup.jsonl.gz)` gives) can be read once: it is copied
    to an unnamed temporary file, checked, then written."""
    import os
    import threading

    lines = _file({"type": "message", "id": "p1", "session_id": "s", "content": "piped",
                   "ts": 5})
    fifo = tmp_path / "export.fifo"
    os.mkfifo(fifo)

    def feed() -> None:
        with open(fifo, "w", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")

    writer = threading.Thread(target=feed)
    writer.start()
    res = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "p.db"), "--no-wait",
                                    str(fifo)])
    writer.join(timeout=30)
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["list", "--db", str(tmp_path / "p.db")])
    assert "piped" in res.output
    bad = tmp_path / "latin1.jsonl"
    bad.write_bytes("\n".join(lines).replace("piped", "pïped").encode("latin-1"))
    res = CliRunner().invoke(main, ["import", "--db", str(tmp_path / "q.db"), str(bad)])
    assert res.exit_code == 2 and "not UTF-8" in res.output, res.output
    assert not (tmp_path / "q.db").exists()


#: The messages of :func:`grown_store`: stopped at 3 MB (about 3,000 messages written),
#: the copy still has most of them to write.
GROWN = 10_000


@pytest.fixture(scope="module")
def grown_store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite store of :data:`GROWN` messages over 50 sessions (``src.db``) and its
    export (``backup.jsonl``), made once for the tests that copy them (they only read
    them)."""
    made = tmp_path_factory.mktemp("grown")
    grown(made / "src.db", GROWN, sessions=50)
    res = CliRunner().invoke(main, ["export", "--db", str(made / "src.db"),
                                    "-o", str(made / "backup.jsonl")])
    assert res.exit_code == 0, res.output
    return made


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM")
@pytest.mark.parametrize("command", ["import", "migrate"])
@pytest.mark.parametrize("stop", ["SIGTERM", "SIGINT"])
def test_an_import_or_migrate_stopped_by_sigterm_or_ctrl_c_says_so_and_resume_finishes_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, grown_store: Path, command: str,
        stop: str) -> None:
    """chatmem import and chatmem migrate stopped by SIGTERM (kill, timeout, a service
    manager stopping them) died at once, with no word of what was kept or of --resume
    (Ctrl-C said nothing of it either). SIGTERM now stops them as Ctrl-C does: the page
    being written is committed or not, the stores are closed, one line says what the
    destination keeps and that the same command with --resume finishes it, and the exit
    status is 143 (128 + SIGTERM); --resume then finishes the copy, nothing lost. Ctrl-C
    (SIGINT) says the same, then "Aborted!", exit 1, as before."""
    import shutil
    import signal

    n = GROWN
    for name in ("src.db", "backup.jsonl"):
        shutil.copy(grown_store / name, tmp_path / name)
    runner = CliRunner()
    args = (["import", "--db", "new.db", "--no-wait", "backup.jsonl"] if command == "import"
            else ["migrate", "--from", "src.db", "--to", "new.db", "--no-vectors"])
    new = tmp_path / "new.db"

    def size() -> int:  # what the copy wrote so far, in the store and its log
        return sum(p.stat().st_size for p in (new, tmp_path / "new.db-wal") if p.exists())

    sig = getattr(signal, stop)
    status, err = terminated(args, tmp_path, lambda: size() >= 3_000_000, sig)
    assert status == (128 + signal.SIGTERM if sig == signal.SIGTERM else 1), err
    assert ("Aborted!" in err) == (sig == signal.SIGINT), err
    lines = [line for line in err.splitlines() if "stopped part way" in line]
    assert len(lines) == 1 and "Traceback" not in err, err
    assert lines[0].startswith(f"{'import' if command == 'import' else 'migration'} stopped "
                               "part way: "), err
    assert f"run the same chatmem {command} with --resume to finish" in lines[0], err
    kept = re.search(r"messages (\d+)", lines[0])
    assert kept is not None, err

    def stored() -> int:
        res = runner.invoke(main, ["stats", "--db", str(new), "--json"])
        assert res.exit_code == 0, res.output
        return int(json.loads(res.output)["messages"])

    assert int(kept.group(1)) <= stored() < n
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(main, [*args, "--resume"])
    assert res.exit_code == 0, res.output
    assert stored() == n
    res = runner.invoke(main, ["export", "--db", str(new), "-o", str(tmp_path / "again.jsonl")])
    assert res.exit_code == 0, res.output

    def messages(path: Path) -> list[dict[str, object]]:
        # every field but index_state: the copy's indexer may embed some of the pending
        # messages while it runs (a message's words and place are what must be kept)
        return sorted(({k: v for k, v in json.loads(line).items() if k != "index_state"}
                       for line in path.read_text().splitlines()
                       if line.startswith('{"type": "message"')), key=lambda m: str(m["id"]))

    assert messages(tmp_path / "again.jsonl") == messages(tmp_path / "backup.jsonl")
