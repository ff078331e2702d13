"""A store damaged outside chatmem (a hand edit, a broken disk): each row chatmem cannot
read is a :class:`~chatmem.errors.DamagedRow` (a StoreError) naming the table, the row
(message or session id) and the column, and what repairs it; never an "unexpected
JSONDecodeError … please report it".

A damaged vector row is derived data: a recall leaves it out (with a warning) instead of
failing until it is repaired, ``reindex`` embeds its message again, which replaces it,
and an export or a migration fails naming it (the file would lack that vector) and
saying to run ``chatmem reindex``. A damaged message or session row is the user's own
data: every call that needs it fails naming it, an export too (it must not drop a
message silently), and chatmem cannot make up what was there (a session's metadata and
settings decide no recall's scope: a recall reads the session without them, logged);
a damaged message is erased by its id, and a session's damaged JSON column is replaced
by a call that gives it a new value (upsert_session, chatmem session set --metadata /
--unset).

The rows are damaged with SQL in real SQLite files and real PostgreSQL tables; jsonb
holds only valid JSON, so PostgreSQL's damage is JSON of another type than chatmem
writes, or a vector whose length is not its row's ``dim``."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import shlex
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

import chatmem.testing
from backends import PLACES, Place
from chatmem import Memory, errors
from chatmem.cli import main
from chatmem.errors import StoreError
from chatmem.store import Storage
from chatmem.transfer import export_jsonl, migrate

TEXTS = ["the lighthouse trip is on sunday", "bring a raincoat for the ferry"]


async def _memory(place: Place) -> Memory:
    return await Memory.open(place.url, vector=place.vector,
                             embedder=chatmem.testing.embedder())


async def _seed(place: Place) -> list[str]:
    async with await _memory(place) as mem:
        stored = await mem.add([{"session_id": "s1", "content": t} for t in TEXTS])
        await mem.flush(timeout=60)
        return [m.id for m in stored if m.id is not None]


async def _damage(place: Place, statement: str, *params: Any) -> None:
    """Run ``statement`` on the store's own database, as a hand edit would."""
    if place.url.startswith("sqlite:///"):
        conn = sqlite3.connect(place.url[len("sqlite:///"):])
        with conn:
            assert conn.execute(statement, params).rowcount == 1
        conn.close()
        return
    import psycopg

    from backends import pg_url

    schema = place.url.rsplit("schema=", 1)[1]
    async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as conn:
        await conn.execute(f'SET search_path TO "{schema}", public')
        cur = await conn.execute(statement.replace("?", "%s"), params)
        assert cur.rowcount == 1


@pytest.fixture(params=["sqlite", "postgres"])
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Place]:
    async with PLACES[request.param](tmp_path) as where:
        yield where


def _per_backend(name: str, values: list[str], *, sqlite_only: tuple[str, ...] = (),
                 backends: tuple[str, ...] = ("sqlite", "postgres")) -> pytest.MarkDecorator:
    """Parametrize ``place`` (the backend, of ``backends``: ``qdrant`` is SQLite's
    messages beside a Qdrant index) and ``name`` with ``values``; a value PostgreSQL's
    column types cannot hold (``sqlite_only``) is absent on PostgreSQL, not a skip
    there, so a skip in CI's count is a backend that did not run."""
    return pytest.mark.parametrize(
        ("place", name), [pytest.param(backend, value, id=f"{backend}-{value}")
                          for backend in backends for value in values
                          if backend != "postgres" or value not in sqlite_only],
        indirect=["place"])


def _sqlite(place: Place) -> bool:
    return place.url.startswith("sqlite:")


def _names(exc: BaseException, table: str, row: str, column: str) -> str:
    assert isinstance(exc, errors.DamagedRow) and isinstance(exc, StoreError), repr(exc)
    text = str(exc)
    assert f"damaged row in table {table} (" in text and json.dumps(row) in text, text
    assert f"column {column} " in text, text
    assert "JSONDecodeError" not in text and "please report" not in text
    return text


async def _export(mem: Memory, *, vectors: bool) -> str:
    out = io.StringIO()
    await export_jsonl(mem.storage, out, vectors=vectors)
    return out.getvalue()


# a pgvector value is numbers: a wrong length is the dim case there
@_per_backend("damage", ["meta", "length", "dim"], sqlite_only=("length",))
async def test_a_damaged_vector_row_is_left_out_of_recall_and_reindex_repairs_it(
        place: Place, damage: str, caplog: pytest.LogCaptureFixture) -> None:
    ids = await _seed(place)
    bad = ids[0]
    if damage == "meta":  # SQLite: not JSON; PostgreSQL's jsonb: not an object
        await _damage(place, "UPDATE vectors SET mmeta = ? WHERE message_id = ?",
                      "{bad" if _sqlite(place) else "[1]", bad)
        column = "mmeta"
    elif damage == "length" and _sqlite(place):  # bytes that are not float32 numbers
        await _damage(place, "UPDATE vectors SET vec = x'00010203ff' WHERE message_id = ?",
                      bad)
        column = "vec"
    else:  # a vector whose length is not its row's dim
        await _damage(place, "UPDATE vectors SET dim = 3 WHERE message_id = ?", bad)
        column = "vec" if _sqlite(place) else "embedding"
    async with await _memory(place) as mem:
        # a recall is not broken by it: the other message is still found
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            hits = (await mem.recall("raincoat ferry", scope="all", window=0)).hits
        assert [h.message.id for h in hits][:1] == [ids[1]]
        # an export with vectors, and a migration, fail naming it and the repair
        with pytest.raises(StoreError) as caught:
            await _export(mem, vectors=True)
        text = _names(caught.value, "vectors", bad, column)
        assert "chatmem reindex" in text
        assert ("sqlite (" if _sqlite(place) else "postgres (") in text
        assert TEXTS[0] in await _export(mem, vectors=False)  # the messages are intact
        out = await mem.reindex()
        assert out["stale"] == out["reembedded"] == 1, out
        assert bad in caplog.text  # the recall's or the reindex's warning named it
        exported = await _export(mem, vectors=True)
        assert exported.count('"type": "vector"') == 2
    async with await _memory(place) as mem:  # repaired on disk: a fresh open reads it
        hits = (await mem.recall("lighthouse trip sunday", scope="all", window=0)).hits
        assert hits and hits[0].message.id == bad
        assert (await _export(mem, vectors=True)).count('"type": "vector"') == 2


async def _seed_damaged(place: Place, column: str, which: int) -> list[str]:
    """The messages of :func:`_seed`, the ``which``-th damaged in ``column`` as a hand
    edit leaves it: SQLite's text that is not JSON (or an integer), PostgreSQL's jsonb
    of another type (its bigint holds only integers: no ``ts`` case there)."""
    assert column != "ts" or _sqlite(place), "PostgreSQL's bigint holds only integers"
    ids = await _seed(place)
    value = {"metadata": "{bad" if _sqlite(place) else "[1]",
             "mentions": "[1," if _sqlite(place) else '{"a": 1}', "ts": "yesterday"}[column]
    await _damage(place, f"UPDATE messages SET {column} = ? WHERE id = ?", value, ids[which])
    return ids


@_per_backend("column", ["metadata", "mentions", "ts"], sqlite_only=("ts",))
async def test_a_damaged_message_row_is_named_by_every_read(place: Place,
                                                            column: str) -> None:
    """The user's own data: every read of it fails naming it (an export too: it must not
    drop the message), and the error says how to repair it by hand."""
    ids = await _seed_damaged(place, column, 0)
    async with await _memory(place) as mem:
        for read in (lambda: mem.list(session="s1"), lambda: mem.get([ids[0]]),
                     lambda: _export(mem, vectors=False),
                     lambda: mem.recall("lighthouse trip sunday", scope="all"),
                     lambda: mem.store.recent_heads("s1", 10)):  # a context's, by place
            with pytest.raises(StoreError) as caught:
                await read()
            text = _names(caught.value, "messages", ids[0], column)
            assert ("sqlite3" if _sqlite(place) else "psql") in text
            assert f"chatmem delete {ids[0]}" in text  # erasing it is a repair too
        assert (await mem.get([ids[1]]))[ids[1]].content == TEXTS[1]  # the others are read




@_per_backend("column", ["metadata", "mentions", "ts"], sqlite_only=("ts",))
async def test_a_damaged_message_row_can_be_erased(place: Place, column: str,
                                                   caplog: pytest.LogCaptureFixture
                                                   ) -> None:
    """An erase goes by the ids: the damaged row, its vector and full-text rows go,
    with a warning naming it; the other messages stay, and nothing of it is left."""
    ids = await _seed_damaged(place, column, 0)
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            would = await mem.erase([ids[0]], dry_run=True)
            assert (would.messages, would.vectors) == (1, 1), would
            erased = await mem.erase([ids[0]])
        assert (erased.messages, erased.vectors) == (1, 1), erased
        assert ids[0] in caplog.text and column in caplog.text
        assert await mem.delete([ids[0]]) == 0  # gone
        assert [m.id for m in (await mem.list(session="s1")).messages] == [ids[1]]
        hits = (await mem.recall("lighthouse trip sunday", scope="all", window=0)).hits
        assert ids[0] not in [h.message.id for h in hits]
        exported = await _export(mem, vectors=True)  # nothing of it left, nothing damaged
        assert TEXTS[0] not in exported and exported.count('"type": "vector"') == 1


@_per_backend("column", ["metadata", "mentions", "ts"], sqlite_only=("ts",))
async def test_erases_reading_a_damaged_message_row_log_one_warning_a_window(
        place: Place, column: str, caplog: pytest.LogCaptureFixture) -> None:
    """An erase reads a damaged message row without what it cannot read, logged ('…;
    read without it, to erase it'); each erase touching it logged a WARNING of its own
    (a dry run, as the console's Forget page shows before it erases, then the erase).
    Now it goes through chatmem.store.base.read_without as every other read past a
    damaged column: one WARNING per row and column a window, DEBUG lines of the same
    words between."""
    ids = await _seed_damaged(place, column, 0)
    async with await _memory(place) as mem:
        with caplog.at_level(logging.DEBUG, logger="chatmem"):
            for _ in range(2):
                assert (await mem.erase([ids[0]], dry_run=True)).messages == 1
            assert (await mem.erase([ids[0]])).messages == 1
        row = f"(message id {json.dumps(ids[0])}): column {column} "
        said = [r for r in caplog.records if row in r.getMessage()
                and "read without it, to erase it" in r.getMessage()]
        warnings = [r.getMessage() for r in said if r.levelno == logging.WARNING]
        debug = [r.getMessage() for r in said if r.levelno == logging.DEBUG]
        assert len(warnings) == 1 and len(debug) == 2, (warnings, debug)
        if column == "ts":
            assert warnings[0].endswith("read without it, to erase it (placed among the "
                                        "turns beside it by the time its index entries "
                                        "hold)"), warnings[0]
        else:
            assert warnings[0].endswith("; read without it, to erase it"), warnings[0]


@_per_backend("column", ["metadata", "ts"], sqlite_only=("ts",))
async def test_forget_erases_a_damaged_message_row_or_names_it(place: Place,
                                                                column: str) -> None:
    """forget selects by session, speaker or resource: a message whose JSON columns are
    damaged is erased with the others; one whose time is damaged has no place in the
    session's order, and forget stops on it, naming it and chatmem delete."""
    ids = await _seed_damaged(place, column, 1)
    async with await _memory(place) as mem:
        if column == "ts":
            with pytest.raises(StoreError) as caught:
                await mem.forget(session="s1")
            assert f"chatmem delete {ids[1]}" in _names(caught.value, "messages", ids[1],
                                                         column)
            assert await mem.delete([ids[1]]) == 1
        assert (await mem.forget(session="s1", dry_run=True)).messages == (
            1 if column == "ts" else 2)
        assert (await mem.forget(session="s1")).messages == (1 if column == "ts" else 2)
        assert (await mem.list(session="s1")).messages == ()
        assert (await mem.stats())["messages"] == 0


@pytest.mark.parametrize("column", ["metadata", "settings"])
async def test_a_recall_from_a_session_with_a_damaged_json_column_goes_past_it(
        place: Place, column: str, caplog: pytest.LogCaptureFixture,
        tmp_path: Path) -> None:
    """A recall (and a context, the memory_recall tool, HTTP /v1/recall and /v1/context,
    the MCP memory_recall) from a session whose own metadata or settings chatmem cannot
    read (a hand edit) works: neither decides its scope, so the session is read without
    it, and each such read is a WARNING naming the row, the column and the command that
    repairs it. What reads, shows or carries the column's value still fails naming it:
    a filter on the sessions' metadata, the session's get (chatmem session show), the
    session listing, an export, a migration."""
    import httpx
    from mcp import Client

    from chatmem.server.http import create_app
    from chatmem.server.mcp import create_server
    from servers import running

    ids = await _seed_session(place, column)
    query = "lighthouse trip sunday"
    option = "--metadata JSON s1" if column == "metadata" else "--unset settings s1"

    def warned(text: str, *, first: bool = False) -> None:
        # one WARNING per damaged column a window (the first read of it), the later
        # reads DEBUG lines of the same words
        said = [r for r in caplog.records if '(session id "s1")' in r.getMessage()]
        levels = [r.levelno for r in said]
        assert said and set(levels) <= {logging.WARNING, logging.DEBUG}, text
        assert levels.count(logging.WARNING) == first, text
        for line in (r.getMessage() for r in said):
            assert f"column {column} " in line and f"(chatmem session set {option}" in line
            assert "; read without it, for a recall" in line, line
        assert 'read without it, for a recall from session "s1"' in said[0].getMessage()
        caplog.clear()

    async with await _memory(place) as mem:
        with caplog.at_level(logging.DEBUG, logger="chatmem"):
            result = await mem.recall(query, session="s1", scope="session", window=0)
            assert result.hits and result.hits[0].message.id == ids[0]
            warned(caplog.text, first=True)
            context = await mem.context(query, session="s1")
            assert context[0]["role"] == "system" and TEXTS[0] in context[0]["content"]
            warned(caplog.text)
            tool = await mem.call_tool({"query": query}, {"session_id": "s1"})
            assert tool["hits"] and tool["hits"][0]["id"] == ids[0]
            warned(caplog.text)
            assert (await mem.effective_scope("s1")).scope
            warned(caplog.text)
        # what needs the column's value still names it, with its repair: a filter on
        # the session's metadata (a recall checks it against the session as it is now),
        # the session's get, an export
        target = await Storage.open(f"sqlite:///{tmp_path / 'copy.db'}")
        reads = [lambda: mem.get_session("s1"), lambda: mem.sessions(),
                 lambda: _export(mem, vectors=False), lambda: migrate(mem.storage, target)]
        if column == "metadata":
            reads.append(lambda: mem.recall(query, session="s1", filter={"team": "a"}))
        else:  # the settings are never read by a recall, a filtered one neither
            assert (await mem.recall(query, session="s1", filter={"team": "a"})).hits
        for read in reads:
            with pytest.raises(StoreError) as caught:
                await read()
            _session_advice(_names(caught.value, "sessions", "s1", column), column)
        await target.close()
    _session_advice(_names_line(_error(await _cli("session", "show", "--db", place.url,
                                                  "s1")), column), column)
    app = create_app(url=place.url, embedder=chatmem.testing.embedder())
    with caplog.at_level(logging.DEBUG, logger="chatmem"), running(app) as base, \
            httpx.Client(base_url=base, timeout=30) as c:
        r = c.post("/v1/recall", json={"query": query, "session": "s1", "scope": "session"})
        assert r.status_code == 200, r.text
        assert r.json()["hits"][0]["message"]["id"] == ids[0], r.text
        warned(caplog.text)
        r = c.post("/v1/context", json={"turn": query, "session": "s1"})
        assert r.status_code == 200, r.text
        assert TEXTS[0] in r.json()["messages"][0]["content"], r.text
        warned(caplog.text)

    async def open_memory() -> Memory:
        return await _memory(place)

    with caplog.at_level(logging.DEBUG, logger="chatmem"):
        async with Client(create_server(open_memory, session="s1")) as client:
            found = await client.call_tool("memory_recall", {"query": query})
            said = " ".join(getattr(c, "text", "") for c in found.content)
            assert not found.is_error and TEXTS[0] in said, said
        warned(caplog.text)


@pytest.mark.parametrize("column", ["metadata", "settings"])
async def test_a_damaged_own_session_row_logs_one_warning_a_window(
        place: Place, column: str, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A conversation whose own session row is damaged reads it every turn (its
    situation, then its hits' sessions): once per recall at most, and once per window
    across turns (chatmem.store.base.read_without), it is a WARNING; the other reads
    are DEBUG lines of the same words. The next WARNING after a window says how many
    times it was read so in between."""
    from chatmem.store import base

    await _seed_session(place, column)
    query = "lighthouse trip sunday"

    def lines() -> tuple[list[str], list[str]]:
        said = [r for r in caplog.records if '(session id "s1")' in r.getMessage()]
        caplog.clear()
        return ([r.getMessage() for r in said if r.levelno == logging.WARNING],
                [r.getMessage() for r in said if r.levelno == logging.DEBUG])

    async with await _memory(place) as mem:
        turns = [lambda: mem.recall(query, session="s1", scope="session", window=0),
                 lambda: mem.context(query, session="s1"),
                 lambda: mem.call_tool({"query": query}, {"session_id": "s1"})]
        with caplog.at_level(logging.DEBUG, logger="chatmem"):
            for n in range(6):
                await turns[n % 3]()
            warnings, debug = lines()
            assert len(warnings) == 1 and len(debug) == 11, (warnings, debug)
            assert 'read without it, for a recall from session "s1"' in warnings[0]
            assert all(f"column {column} " in d for d in debug), debug
            # a window of 0: every turn warns, each once (not its situation's read and
            # its hits' both)
            monkeypatch.setattr(base.damage_warnings, "window", 0.0)
            for n in range(3):
                await turns[n]()
                warnings, debug = lines()
                assert len(warnings) == 1 and len(debug) == 1, (n, warnings, debug)
            # a window over: its next WARNING counts the turns read so in between (the
            # window's clock moved by hand: a slow machine's turns take what they take)
            now = [1000.0]
            monkeypatch.setattr(base.damage_warnings, "clock", lambda: now[0])
            monkeypatch.setattr(base.damage_warnings, "window", 0.5)
            for _ in range(3):
                await turns[0]()
                now[0] += 0.1
            now[0] += 0.5
            await turns[0]()
            warnings, debug = lines()
            assert len(warnings) == 2 and len(debug) == 6, (warnings, debug)
            assert warnings[1].endswith("(read so 2 more time(s) in the 0.5 s after its "
                                        "last warning)"), warnings[1]


def _hand_edit(db: Path, statement: str, query: str) -> Any:
    """Run ``statement`` on the SQLite file ``db``; the first value ``query`` reads."""
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(statement)
        value = conn.execute(query).fetchone()[0]
    conn.close()
    return value


def test_cli_names_a_damaged_vector_row_and_reindex_repairs_it(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    runner = CliRunner()
    for text in TEXTS:
        res = runner.invoke(main, ["add", "--db", str(db), "--session", "s1", text])
        assert res.exit_code == 0, res.output
    bad = _hand_edit(db, "UPDATE vectors SET mmeta = '{bad' WHERE rowid = 1",
                     "SELECT message_id FROM vectors WHERE rowid = 1")
    res = runner.invoke(main, ["recall", "--db", str(db), "--scope", "all", "raincoat"])
    assert res.exit_code == 0, res.output
    assert TEXTS[1] in res.stdout
    res = runner.invoke(main, ["export", "--db", str(db), "--vectors",
                               "-o", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 2
    line = [x for x in res.output.splitlines() if x.startswith("error: ")][-1]
    assert line.startswith(f"error: sqlite ({db}): damaged row in table vectors "
                           f"(message id {json.dumps(bad)}): column mmeta is not valid JSON"), line
    assert "run chatmem reindex" in line and "please report" not in res.output
    res = runner.invoke(main, ["reindex", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "re-embedded 1 message(s)" in res.stdout
    res = runner.invoke(main, ["export", "--db", str(db), "--vectors",
                               "-o", str(tmp_path / "x.jsonl")])
    assert res.exit_code == 0, res.output
    assert "vectors 2" in res.output


def test_cli_names_a_damaged_message_row(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    runner = CliRunner()
    res = runner.invoke(main, ["add", "--db", str(db), "--session", "s1", "--no-wait",
                               TEXTS[0]])
    assert res.exit_code == 0, res.output
    mid = _hand_edit(db, "UPDATE messages SET metadata = '{bad'", "SELECT id FROM messages")
    for args in (["list"], ["export", "-o", str(tmp_path / "x.jsonl")]):
        res = runner.invoke(main, [*args, "--db", str(db)])
        assert res.exit_code == 2, res.output
        line = [x for x in res.output.splitlines() if x.startswith("error: ")][-1]
        assert (f"damaged row in table messages (message id {json.dumps(mid)}): column metadata "
                "is not valid JSON") in line, line
        assert "please report" not in line
        assert f"chatmem delete {mid}" in line
    assert not (tmp_path / "x.jsonl").exists()
    res = runner.invoke(main, ["delete", "--db", str(db), "--yes", mid])
    assert res.exit_code == 0, res.output
    assert "deleted 1 message(s)" in res.stdout
    res = runner.invoke(main, ["list", "--db", str(db)])
    assert res.exit_code == 0 and mid not in res.output, res.output


async def test_reindex_says_it_is_re_embedding_a_damaged_vector_row(
        place: Place, caplog: pytest.LogCaptureFixture) -> None:
    """The reindex's own warnings do not tell the user to run the reindex running (the
    search's, as the reindex writes vectors, says what the reindex is doing)."""
    ids = await _seed(place)
    await _damage(place, "UPDATE vectors SET dim = 3 WHERE message_id = ?", ids[0])
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            out = await mem.reindex()
        assert out["reembedded"] == 1, out
    said = [r.getMessage() for r in caplog.records if ids[0] in r.getMessage()]
    assert said, caplog.text
    for line in said:
        assert "damaged row in table vectors" in line, line
        assert ("re-embedding its message, which replaces the row" in line
                or "left out of recalls until chatmem reindex" in line), line
        assert "run chatmem reindex" not in line, line


async def test_a_filtered_recall_leaves_out_a_damaged_vector_row(
        place: Place, caplog: pytest.LogCaptureFixture) -> None:
    """A recall whose filter reads the damaged JSON column works: SQLite's JSON
    functions failed the whole search ("malformed JSON"); now the column holds no field
    for a filter (as PostgreSQL reads a jsonb that is not an object), and SQLite's
    search leaves the row out with a warning, as it leaves out any damaged vector row.
    A filter on a field it held never selects it."""
    async with await _memory(place) as mem:
        stored = await mem.add([{"session_id": "s1", "content": t, "metadata": {"k": i}}
                                for i, t in enumerate(TEXTS)])
        await mem.flush(timeout=60)
    ids = [m.id for m in stored if m.id is not None]
    await _damage(place, "UPDATE vectors SET mmeta = ? WHERE message_id = ?",
                  "{bad" if _sqlite(place) else '"k"', ids[0])
    async with await _memory(place) as mem:
        for where in ({"message.k": 1}, {"message.k": {"$in": [0, 1]}},
                      {"message.k": {"$ne": 5}}, {"message.k": {"$exists": False}},
                      {"$or": [{"message.k": 0}, {"message.k": {"$gte": 1}}]}):
            with caplog.at_level(logging.WARNING, logger="chatmem"):
                hits = (await mem.recall("raincoat ferry", scope="all", window=0,
                                         filter=where)).hits
            found = [h.message.id for h in hits]
            if _sqlite(place) or ("$ne" not in str(where) and "$exists" not in str(where)):
                assert ids[0] not in found, (where, found)
            if "$exists" not in str(where):
                assert found[:1] == [ids[1]], (where, found)
        if _sqlite(place):
            assert (f"damaged row in table vectors (message id {json.dumps(ids[0])}): "
                    "column mmeta is not valid JSON") in caplog.text


async def _seed_session(place: Place, column: str) -> list[str]:
    """Session s1 (resource r, metadata team a, settings x 1) with the messages of
    :func:`_seed`, its ``column`` damaged as :func:`_seed_damaged` damages a message's."""
    async with await _memory(place) as mem:
        await mem.upsert_session({"id": "s1", "resource_id": "r",
                                  "metadata": {"team": "a"}, "settings": {"x": 1}})
    ids = await _seed(place)
    await _damage(place, f"UPDATE sessions SET {column} = ? WHERE id = ?",
                  "{bad" if _sqlite(place) else "[1]", "s1")
    return ids


def _session_advice(text: str, column: str) -> None:
    option = "--metadata JSON s1" if column == "metadata" else "--unset settings s1"
    assert f"give that column a new value, which replaces it (chatmem session set {option}" \
        in text, text
    assert "Memory.upsert_session" in text, text


@pytest.mark.parametrize("column", ["metadata", "settings"])
async def test_upsert_session_replaces_a_damaged_session_column(
        place: Place, column: str, caplog: pytest.LogCaptureFixture) -> None:
    """upsert_session replaces every column of a session: it never needed the old ones,
    and a damaged one is replaced too (logged), its vectors' snapshot written again."""
    ids = await _seed_session(place, column)
    async with await _memory(place) as mem:
        with pytest.raises(StoreError) as caught:
            await mem.get_session("s1")
        _session_advice(_names(caught.value, "sessions", "s1", column), column)
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            stored = await mem.upsert_session({"id": "s1", "resource_id": "r",
                                               "metadata": {"team": "b"},
                                               "settings": {"x": 2}})
        assert '(session id "s1")' in caplog.text and f"column {column} " in caplog.text
        assert "replaced by this upsert_session" in caplog.text
        assert (stored.metadata, stored.settings) == ({"team": "b"}, {"x": 2})
    async with await _memory(place) as mem:  # on disk: a fresh open reads it
        found = await mem.get_session("s1")
        assert found is not None and (found.metadata, found.settings) == (
            {"team": "b"}, {"x": 2})
        # the vectors' snapshot follows the new metadata (the old was not known)
        hits = (await mem.recall("lighthouse trip sunday", scope="all", window=0,
                                 filter={"team": "b"})).hits
        assert ids[0] in [h.message.id for h in hits]
        assert TEXTS[0] in await _export(mem, vectors=True)


@pytest.mark.parametrize("column", ["metadata", "settings"])
async def test_forget_by_resource_goes_past_a_damaged_session_column(
        place: Place, column: str, caplog: pytest.LogCaptureFixture) -> None:
    """forget --resource-id needs a session's id, parent and resource only: one whose
    metadata or settings are damaged is read without them (logged) and forgotten."""
    await _seed_session(place, column)
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            assert (await mem.forget(resource_id="r", dry_run=True)).messages == 2
            assert (await mem.forget(resource_id="r")).messages == 2
        assert f'(session id "s1"): column {column} ' in caplog.text
        assert "read without it, to forget by resource" in caplog.text
        assert (await mem.stats())["messages"] == 0


async def _cli(*args: str) -> Any:
    """chatmem ``args``, run beside this test's event loop (the command runs its own)."""
    return await asyncio.to_thread(CliRunner().invoke, main, list(args))


def _error(res: Any) -> str:
    assert res.exit_code == 2, res.output
    assert "please report" not in res.output
    return [x for x in res.output.splitlines() if x.startswith("error: ")][-1]


async def test_cli_session_set_replaces_a_damaged_column_or_names_its_option(
        place: Place) -> None:
    """chatmem session set keeps the fields it is not given (settings too): a damaged
    one it cannot keep, so it refuses naming the option that replaces it, and that
    option (--metadata, --unset metadata, --unset settings) repairs it."""
    await _seed_session(place, "metadata")
    db = place.url
    line = _error(await _cli("session", "set", "--db", db, "--chat-type", "group", "s1"))
    _session_advice(_names_line(line, "metadata"), "metadata")
    assert "(or --unset metadata)" in line
    res = await _cli("session", "set", "--db", db, "--metadata", '{"team": "c"}', "s1")
    assert res.exit_code == 0, res.output
    shown = await _cli("session", "show", "--db", db, "s1")
    assert shown.exit_code == 0, shown.output
    # the new metadata; the settings and the resource id kept
    assert '"team": "c"' in shown.stdout and '"x": 1' in shown.stdout, shown.stdout
    assert '"resource_id": "r"' in shown.stdout
    await _damage(place, "UPDATE sessions SET settings = ? WHERE id = ?",
                  "{bad" if _sqlite(place) else "[1]", "s1")
    line = _error(await _cli("session", "set", "--db", db, "--chat-type", "group", "s1"))
    _session_advice(_names_line(line, "settings"), "settings")
    res = await _cli("session", "set", "--db", db, "--unset", "settings", "--chat-type",
                     "group", "s1")
    assert res.exit_code == 0, res.output
    await _damage(place, "UPDATE sessions SET metadata = ? WHERE id = ?",
                  "{bad" if _sqlite(place) else "[1]", "s1")
    res = await _cli("session", "set", "--db", db, "--unset", "metadata", "s1")
    assert res.exit_code == 0, res.output
    async with await _memory(place) as mem:
        found = await mem.get_session("s1")
        assert found is not None and (found.metadata, found.settings, found.chat_type,
                                      found.resource_id) == ({}, {}, "group", "r")
    res = await _cli("forget", "--db", db, "--resource-id", "r", "--yes")
    assert res.exit_code == 0, res.output


def _names_line(line: str, column: str) -> str:
    assert (f'damaged row in table sessions (session id "s1"): column {column} '
            in line), line
    return line


def _whereabouts(place: Place) -> list[str]:
    """What tells where ``place``'s store is: its file, or its PostgreSQL host and port,
    user, database and schema."""
    if _sqlite(place):
        return [place.url[len("sqlite:///"):]]
    from urllib.parse import parse_qs, urlsplit

    parts = urlsplit(place.url)
    return [f"{parts.hostname}:{parts.port}", f"{parts.username}@",
            parts.path.lstrip("/"), parse_qs(parts.query)["schema"][0]]


async def test_a_server_tells_a_user_key_a_row_is_damaged_but_not_which_nor_where(
        place: Place, caplog: pytest.LogCaptureFixture) -> None:
    """R6: a DamagedRow answered to a user key (HTTP) or to a model (an MCP tool) says
    that a row is damaged and that the operator repairs it, with a reference: never
    which row (its id, its column, the damaged value), nor the store's file, host,
    user, database or schema; an owner key reads the whole error, and the log holds it
    under the reference the user was given."""
    import httpx

    from chatmem.server.http import KeyTable, create_app
    from chatmem.server.mcp import HTTP_PATH, create_server, http_app
    from servers import free_port, mcp_client, running

    ids = await _seed_damaged(place, "metadata", 0)
    value = '"{bad"' if _sqlite(place) else "[1]"  # as the error quotes it
    owner, user = "owner-key-0123456789abcdef", "user-key-0123456789abcdef0"
    keys = KeyTable.from_mapping({"keys": {
        "boss": {"key": owner, "namespace": "alice", "role": "owner"},
        "bot": {"key": user, "namespace": "alice", "role": "user"}}})
    hidden = _whereabouts(place)
    app = create_app(url=place.url, keys=keys, embedder=chatmem.testing.embedder())
    with caplog.at_level(logging.WARNING, logger="chatmem"), running(app) as base:
        for key, whole in ((user, False), (owner, True)):
            r = httpx.get(f"{base}/v1/messages", params={"session": "s1", "visible_from": "s1"},
                          headers={"Authorization": f"Bearer {key}"}, timeout=30)
            assert r.status_code == 500, r.text
            error = r.json()["error"]
            assert error["type"] == "DamagedRow", r.text
            said = error["message"]
            row = [f"damaged row in table messages (message id {json.dumps(ids[0])}): column "
                   "metadata ", value]
            # the owner's: the file, or host:port/database (never the user, nor here
            # the schema), and the row with what it holds
            assert all(h in said for h in [*row, hidden[0]]) if whole else \
                not any(h in said for h in [*hidden, *row, ids[0]]), said
            if not whole:
                assert said.startswith("a row of the store is damaged (chatmem cannot "
                                       "read it as it wrote it); a retry cannot help: "
                                       "the row stays so until the operator repairs it "
                                       "(the server's operator has the whole error in "
                                       "the server's log (reference "), said
                ref = said.rsplit("(reference ", 1)[1].split(")")[0]
                logged = [r.getMessage() for r in caplog.records if ref in r.getMessage()]
                assert logged and hidden[0] in logged[0], caplog.text
    port = free_port()

    async def open_memory() -> Memory:
        return await _memory(place)

    mcp_app = http_app(create_server(open_memory, session="s1"), host="127.0.0.1",
                       port=port, keys=keys)

    with running(mcp_app, port=port, path=HTTP_PATH) as url:
        for key in (user, owner):  # a model reads it, whoever's key it acts with
            async with mcp_client(url, key) as client:
                for tool, args in (("memory_list", {}),
                                   ("memory_recall", {"query": "lighthouse trip sunday"})):
                    result = await client.call_tool(tool, args)
                    said = " ".join(getattr(c, "text", "") for c in result.content)
                    assert result.is_error, said
                    assert "a row of the store is damaged" in said, said
                    assert "the operator repairs it (" in said, said
                    for where in [*hidden, ids[0], "column metadata", value]:
                        assert where not in said, (where, said)


@pytest.mark.parametrize("column", ["metadata", "settings"])
@pytest.mark.parametrize("damaged", ["parent", "child"])
async def test_upsert_session_walks_past_another_sessions_damaged_column(
        place: Place, column: str, damaged: str, caplog: pytest.LogCaptureFixture) -> None:
    """A session's chain is walked by its ids and parents only: an ancestor's or a
    descendant's metadata or settings that chatmem cannot read (a hand edit) do not
    block upsert_session of a sound session (the damaged one is named in the log), on
    the check of its parent chain and on bringing its descendants' vectors along; a
    descendant whose own metadata (which its vectors snapshot) is damaged keeps the
    snapshot its vectors have."""
    async with await _memory(place) as mem:
        await mem.upsert_session({"id": "root", "origin_platform": "tg", "resource_id": "r"})
        await mem.upsert_session({"id": "mid", "parent_id": "root"})
        await mem.upsert_session({"id": "leaf", "parent_id": "mid"})
        stored = await mem.add([{"session_id": "leaf", "content": TEXTS[0]}])
        await mem.flush(timeout=60)
    other = "root" if damaged == "parent" else "leaf"
    await _damage(place, f"UPDATE sessions SET {column} = ? WHERE id = ?",
                  "{bad" if _sqlite(place) else "[1]", other)
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            # a new session under the chain, and the middle one moved and back
            await mem.upsert_session({"id": "new", "parent_id": "mid"})
            await mem.upsert_session({"id": "mid", "resource_id": "r2"})
            await mem.upsert_session({"id": "mid", "parent_id": "root",
                                      "metadata": {"k": 1}})
        assert f"(session id {json.dumps(other)}): column {column} " in caplog.text, caplog.text
        found = await mem.get_session("new")
        assert found is not None and found.parent_id == "mid"
        found = await mem.get_session("mid")
        assert found is not None and (found.parent_id, found.metadata) == ("root", {"k": 1})
        if other == "root":  # the leaf's vector is still found (a damaged leaf's
            # own row is named by a recall that reads it, as before)
            hits = (await mem.recall("lighthouse trip sunday", scope="all", window=0)).hits
            assert [h.message.id for h in hits] == [stored[0].id]


@_per_backend("column", ["metadata", "ts"], sqlite_only=("ts",))
async def test_erasing_a_damaged_message_clears_its_cached_vectors(
        place: Place, column: str, caplog: pytest.LogCaptureFixture) -> None:
    """An erase drops the erased texts' cached vectors at once, as for a sound message:
    a message whose time is damaged too (its texts are read without it; the turns beside
    it: test_erasing_a_message_whose_time_is_damaged_reaches_the_turns_beside_it), not
    left until the cache evicts them."""
    embedder = chatmem.testing.embedder()
    async with await Memory.open(place.url, embedder=embedder) as mem:
        stored = await mem.add([{"session_id": "s1", "content": t} for t in TEXTS])
        await mem.flush(timeout=60)
    ids = [m.id for m in stored if m.id is not None]
    await _damage(place, f"UPDATE messages SET {column} = ? WHERE id = ?",
                  {"metadata": "{bad" if _sqlite(place) else "[1]", "ts": "yesterday"}[column],
                  ids[0])
    async with await Memory.open(place.url, embedder=embedder) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            erased = await mem.erase([ids[0]])
        assert (erased.messages, erased.vectors) == (1, 1), erased
        assert erased.cache >= 1, erased
        assert f"column {column} " in caplog.text and ids[0] in caplog.text
    assert embedder.forget_texts([TEXTS[0]]) == 0  # nothing of it left in the cache
    assert embedder.forget_texts([TEXTS[1]]) >= 1  # the other message's is kept


@pytest.mark.parametrize("column", ["metadata", "settings"])
async def test_a_recall_from_below_a_damaged_root_goes_past_its_json_columns(
        place: Place, column: str, caplog: pytest.LogCaptureFixture) -> None:
    """A recall from a session whose root's metadata or settings chatmem cannot read (a
    hand edit) works: neither decides its scope (the root's resource id, platform,
    group and chat type do, and the scope settings, which are kept apart); the root is
    named in the log. A recall from the damaged root itself works too, its warning
    naming the command that repairs it (its get still fails naming it), and once
    repaired so, the warning is gone."""
    async with await _memory(place) as mem:
        await mem.upsert_session({"id": "root", "origin_platform": "tg", "resource_id": "r",
                                  "metadata": {"team": "a"}, "settings": {"x": 1}})
        await mem.upsert_session({"id": "leaf", "parent_id": "root"})
        await mem.upsert_session({"id": "other", "resource_id": "r2"})
        stored = await mem.add([{"session_id": "leaf", "content": TEXTS[0]},
                                {"session_id": "other", "content": TEXTS[0] + " again"}])
        await mem.flush(timeout=60)
    await _damage(place, f"UPDATE sessions SET {column} = ? WHERE id = ?",
                  "{bad" if _sqlite(place) else "[1]", "root")
    query = "lighthouse trip sunday"
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            # scope resource: the root's resource id r, not the other session's r2
            result = await mem.recall(query, session="leaf", scope="resource", window=0)
            assert [h.message.id for h in result.hits] == [stored[0].id]
            assert (await mem.effective_scope("leaf")).scope == "all"
            tool = await mem.call_tool({"query": query, "scope": "resource"},
                                       {"session_id": "leaf"})
            assert [h["id"] for h in tool["hits"]] == [stored[0].id]
        assert f'(session id "root"): column {column} ' in caplog.text, caplog.text
        assert 'as the ancestor of session "leaf"' in caplog.text, caplog.text
        # from the damaged root itself too (a recall from it reads it without the
        # column): the line names the command that repairs it (a DEBUG line: the same
        # column was warned of within the window, read_without)
        caplog.clear()
        with caplog.at_level(logging.DEBUG, logger="chatmem"):
            assert (await mem.recall(query, session="root", scope="resource",
                                     window=0)).hits
        named = "--metadata JSON root" if column == "metadata" else "--unset settings root"
        assert 'read without it, for a recall from session "root"' in caplog.text
        assert f"(chatmem session set {named}" in caplog.text, caplog.text
        with pytest.raises(StoreError) as caught:
            await mem.get_session("root")
        said = _names(caught.value, "sessions", "root", column)
        assert f"(chatmem session set {named}" in said, said
    # the repair it names works: the command line gives the column a new value
    option = ["--metadata", "{}"] if column == "metadata" else ["--unset", "settings"]
    res = await _cli("session", "set", "--db", place.url, *option, "root")
    assert res.exit_code == 0, res.output
    caplog.clear()
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            assert (await mem.recall(query, session="root", scope="resource",
                                     window=0)).hits
            result = await mem.recall(query, session="leaf", scope="resource", window=0)
        assert [h.message.id for h in result.hits] == [stored[0].id]
        assert "damaged row" not in caplog.text, caplog.text


async def _entries(mem: Memory) -> dict[str, tuple[str | None, dict[str, Any]]]:
    """Each session's (resource id, session metadata) as its vector entries carry them."""
    assert mem.storage.index is not None
    out: dict[str, tuple[str | None, dict[str, Any]]] = {}
    for e in await mem.storage.index.scan_vectors(None, 100):
        out[e.session_id] = (e.resource_id, dict(e.session_metadata))
    return out


def _embedded(provider: Any) -> list[str]:
    """The texts ``provider`` (a HashEmbeddingProvider) embedded as documents."""
    return [t for call in provider.calls if call.role == "document" for t in call.texts]


def _owed(items: list[tuple[str, str, str]]) -> list[str]:
    """The sessions whose change a separate index still owes (SNAPSHOT_DIRTY markers)."""
    from chatmem.indexing import SNAPSHOT_DIRTY

    return sorted(key for ns, key, _ in items if ns == SNAPSHOT_DIRTY)


async def test_a_separate_index_gets_the_sound_sessions_past_a_damaged_descendant(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Beside a separate vector index (Qdrant), a session change is pushed to the
    snapshots of its tree's vectors: a descendant whose own metadata (which its vectors
    carry) chatmem cannot read (a hand edit) made the whole push fail, kept owed and
    retried with a warning, so its sound siblings' vectors never showed the change and
    Memory.flush failed with the DamagedRow. Now the sound sessions are pushed; the
    damaged one keeps the snapshot its vectors have, named in a warning with the command
    that repairs it, and only it stays owed: repaired by hand (sqlite3) the next open
    brings its vectors along, repaired with chatmem (upsert_session) at once."""
    async with PLACES["qdrant"](tmp_path) as place:
        async def memory() -> Memory:
            return await Memory.open(place.url, vector=place.vector,
                                     embedder=chatmem.testing.embedder())

        async with await memory() as mem:
            await mem.upsert_session({"id": "root", "resource_id": "r"})
            await mem.upsert_session({"id": "mid", "parent_id": "root"})
            for sid in ("leaf", "sib"):
                await mem.upsert_session({"id": sid, "parent_id": "mid",
                                          "metadata": {"team": sid}})
            await mem.add([{"session_id": sid, "content": f"{TEXTS[0]} ({sid})"}
                           for sid in ("mid", "leaf", "sib")])
            await mem.flush(timeout=60)
        await _damage(place, "UPDATE sessions SET metadata = ? WHERE id = ?", "{bad", "leaf")
        async with await memory() as mem:
            with caplog.at_level(logging.WARNING, logger="chatmem"):
                await mem.upsert_session({"id": "root", "resource_id": "r2"})
                await mem.flush(timeout=60)  # heals what is owed: no DamagedRow
            assert await _entries(mem) == {"mid": ("r2", {}), "sib": ("r2", {"team": "sib"}),
                                           "leaf": ("r", {"team": "leaf"})}
            said = [r.getMessage() for r in caplog.records
                    if '(session id "leaf"): column metadata ' in r.getMessage()
                    and "separate vector index" in r.getMessage()]
            assert said, caplog.text
            assert "chatmem session set --metadata JSON leaf" in said[0], said
            assert _owed(await mem.store.meta_items()) == ["leaf"]
            assert "retried in" not in caplog.text and "do not show the change" \
                not in caplog.text, caplog.text
        # repaired by hand: the next open brings the leaf's vectors along
        await _damage(place, "UPDATE sessions SET metadata = ? WHERE id = ?",
                      '{"team": "fixed"}', "leaf")
        caplog.clear()
        async with await memory() as mem:
            with caplog.at_level(logging.WARNING, logger="chatmem"):
                await mem.flush(timeout=60)
            assert (await _entries(mem))["leaf"] == ("r2", {"team": "fixed"})
            assert _owed(await mem.store.meta_items()) == []
            assert "damaged row" not in caplog.text, caplog.text
        # damaged again, then repaired with chatmem: its vectors follow at once
        await _damage(place, "UPDATE sessions SET metadata = ? WHERE id = ?", "{bad", "leaf")
        async with await memory() as mem:
            await mem.upsert_session({"id": "root", "resource_id": "r3"})
            assert _owed(await mem.store.meta_items()) == ["leaf"]
            await mem.upsert_session({"id": "leaf", "parent_id": "mid",
                                      "metadata": {"team": "new"}})
            assert await _entries(mem) == {"mid": ("r3", {}), "sib": ("r3", {"team": "sib"}),
                                           "leaf": ("r3", {"team": "new"})}
            assert _owed(await mem.store.meta_items()) == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_one_session_change_names_a_damaged_descendant_beside_a_separate_index_once(
        tmp_path: Path, backend: str, caplog: pytest.LogCaptureFixture) -> None:
    """Beside a separate vector index (a local Qdrant), one upsert_session of an ancestor
    logged a descendant whose own metadata is damaged twice at WARNING: once from the
    store's own snapshot update (chatmem.store.base.chain_snapshots: '…; its vectors
    keep the session snapshot they have until that column is given a new value …'),
    though beside the index the store holds only full-text rows, and once from the push
    to the index (Storage.push_snapshots). Now once, in the push's words (the separate
    index, the change owed, the repair); the store's line is a DEBUG line. Without a
    separate index the store's line is the WARNING, as before."""
    pytest.importorskip("qdrant_client")
    async with PLACES[backend](tmp_path) as store:
        place = Place(store.url, vector=f"qdrant+local://{tmp_path}/qdrant")

        async def memory() -> Memory:
            return await Memory.open(place.url, vector=place.vector,
                                     embedder=chatmem.testing.embedder())

        async with await memory() as mem:
            await mem.upsert_session({"id": "root", "resource_id": "r"})
            for sid in ("leaf", "sib"):
                await mem.upsert_session({"id": sid, "parent_id": "root",
                                          "metadata": {"team": sid}})
            await mem.add([{"session_id": sid, "content": f"{TEXTS[0]} ({sid})"}
                           for sid in ("leaf", "sib")])
            await mem.flush(timeout=60)
        await _damage(place, "UPDATE sessions SET metadata = ? WHERE id = ?",
                      "{bad" if backend == "sqlite" else "[1]", "leaf")
        async with await memory() as mem:
            await mem.flush(timeout=60)  # the open's heal: nothing owed yet
            with caplog.at_level(logging.DEBUG, logger="chatmem"):
                await mem.upsert_session({"id": "root", "resource_id": "r2"})
            said = [r for r in caplog.records
                    if '(session id "leaf"): column metadata ' in r.getMessage()]
            warnings = [r.getMessage() for r in said if r.levelno == logging.WARNING]
            assert len(warnings) == 1, warnings
            assert "its vectors in the separate vector index keep the session snapshot " \
                "they have, and the change is owed to them" in warnings[0], warnings
            assert "chatmem session set --metadata JSON leaf" in warnings[0], warnings
            assert any(r.levelno == logging.DEBUG and "its vectors keep the session "
                       "snapshot they have until" in r.getMessage() for r in said), said
            assert (await _entries(mem))["sib"] == ("r2", {"team": "sib"})
    # the store alone (its own vectors): the store's line is the WARNING
    caplog.clear()
    async with PLACES[backend](tmp_path / "alone") as place:
        async with await _memory(place) as mem:
            await mem.upsert_session({"id": "root", "resource_id": "r"})
            await mem.upsert_session({"id": "leaf", "parent_id": "root",
                                      "metadata": {"team": "leaf"}})
        await _damage(place, "UPDATE sessions SET metadata = ? WHERE id = ?",
                      "{bad" if backend == "sqlite" else "[1]", "leaf")
        async with await _memory(place) as mem:
            with caplog.at_level(logging.WARNING, logger="chatmem"):
                await mem.upsert_session({"id": "root", "resource_id": "r2"})
        warnings = [r.getMessage() for r in caplog.records
                    if '(session id "leaf"): column metadata ' in r.getMessage()]
        assert len(warnings) == 1 and "its vectors keep the session snapshot they have " \
            "until that column is given a new value" in warnings[0], warnings


@pytest.mark.parametrize("where", ["sqlite", "qdrant"])
async def test_erasing_a_message_whose_time_is_damaged_reaches_the_turns_beside_it(
        tmp_path: Path, where: str, caplog: pytest.LogCaptureFixture) -> None:
    """With short replies embedded with the turn before (``indexing.short_reply_chars``),
    an erase drops the cached vectors computed with the erased words, the reply's own
    with the turn before it and the next turn's with it, and embeds that next turn again.
    A message whose time chatmem cannot read (a hand edit: SQLite's ts column holds
    text) has no place in its session's order of its own, so an erase of it reached
    neither; its index entries (its vector's row, or its full-text row beside a separate
    index) keep a copy of its time, written when it was indexed, which places it: the
    erase now reaches both, as for a sound message."""
    from chatmem.config import Config
    from chatmem.testing import HashEmbeddingProvider

    asked = "How old is your new kitten Tudou, and where did you get him?"
    reply = "3 months, from a friend's cat"
    t0 = 1_750_000_000_000
    provider = HashEmbeddingProvider()
    embedder = chatmem.testing.embedder(provider)
    config = Config.load({"indexing": {"short_reply_chars": 30}})
    async with PLACES[where](tmp_path) as place:
        async def memory() -> Memory:
            return await Memory.open(place.url, vector=place.vector, embedder=embedder,
                                     config=config)

        async with await memory() as mem:
            await mem.add([
                {"id": "a", "session_id": "s", "role": "assistant", "content": asked,
                 "ts": t0},
                {"id": "u", "session_id": "s", "role": "user", "content": reply,
                 "speaker_name": "Maya", "ts": t0 + 10},
                {"id": "b", "session_id": "s", "role": "assistant", "content": "cute!",
                 "ts": t0 + 20},
                # and a session whose reply is its last turn
                {"id": "a2", "session_id": "s2", "role": "assistant", "content": "And you?",
                 "ts": t0},
                {"id": "u2", "session_id": "s2", "role": "user", "content": "Lisbon!",
                 "speaker_name": "Maya", "ts": t0 + 10}])
            await mem.flush(timeout=60)
        with_reply = [f"{asked}\nMaya: {reply}", f"{reply}\ncute!", "And you?\nMaya: Lisbon!"]
        assert set(with_reply) <= set(_embedded(provider)), _embedded(provider)
        for mid in ("u", "u2"):
            await _damage(place, "UPDATE messages SET ts = ? WHERE id = ?", "yesterday", mid)
        async with await memory() as mem:
            with caplog.at_level(logging.WARNING, logger="chatmem"):
                erased = await mem.erase(["u", "u2"])
            assert (erased.messages, erased.vectors) == (2, 2), erased
            assert '(message id "u"): column ts ' in caplog.text, caplog.text
            assert "without the turns beside it" not in caplog.text, caplog.text
            # the replies' vector texts, with the turn before, and the next turn's, with
            # the reply: none is left in the cache
            assert [embedder.forget_texts([t]) for t in with_reply] == [0, 0, 0]
            # the next turn is embedded again, alone now (the turn before it is the
            # assistant's own): no vector keeps the erased words
            provider.calls.clear()
            await mem.flush(timeout=60)
            assert _embedded(provider) == ["cute!"], _embedded(provider)
            assert await mem.index_states(["a", "b", "a2"]) == {
                "a": "indexed", "b": "indexed", "a2": "indexed"}


async def test_two_schemas_on_one_server_each_warn_of_their_own_damaged_row(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Two PostgreSQL stores on one server (two schemas), each with session s1's metadata
    damaged: chatmem.store.base.read_without keyed its window on the store's text,
    which names host, port and database but not the schema, so the second store's
    damage was a DEBUG line for a minute. Now each store warns of its own row once."""
    async with PLACES["postgres"](tmp_path) as one, PLACES["postgres"](tmp_path) as two:
        for place in (one, two):
            await _seed_session(place, "metadata")
        with caplog.at_level(logging.DEBUG, logger="chatmem"):
            for place in (one, two):
                for _ in range(2):
                    async with await _memory(place) as mem:
                        await mem.recall("lighthouse trip sunday", session="s1",
                                         scope="session", window=0)
        said = [r for r in caplog.records if '(session id "s1"): column metadata '
                in r.getMessage()]
        levels = [r.levelno for r in said]
        # each store: its first read a WARNING, the rest (its second recall) DEBUG lines
        assert levels.count(logging.WARNING) == 2, levels
        assert levels[0] == logging.WARNING and levels[len(levels) // 2] == logging.WARNING, \
            levels
        # and each names its store's schema, which the host, port and database do not
        warned = [r.getMessage() for r in said if r.levelno == logging.WARNING]
        for text, place in zip(warned, (one, two)):
            schema = place.url.rsplit("schema=", 1)[1]
            assert text.startswith("postgres (") and \
                f', schema "{schema}"): damaged row in table sessions' in text, text


@pytest.mark.parametrize(("column", "value"), [("terms", None), ("chars", None),
                                               ("terms", 5), ("terms", b"\x00\xff")],
                         ids=["terms-null", "chars-null", "terms-integer", "terms-bytes"])
async def test_a_damaged_full_text_row_is_read_from_its_message(
        tmp_path: Path, column: str, value: Any, caplog: pytest.LogCaptureFixture) -> None:
    """FTS5's columns take any value: a token row holding NULL, a number or bytes (a
    hand edit) made every lexical query, so every recall and context, an
    AttributeError ('NoneType' object has no attribute 'split'), or (bytes) left the
    message out of full-text search without a word. The load now takes that row's
    tokens from its message's text, as a rebuild writes them: the query answers as it
    did before the damage, a warning names the row, the column and how to write it
    again, and the file is left as it is (a row without a message is left out)."""
    place = Place(f"sqlite:///{tmp_path}/chat.db")
    db = tmp_path / "chat.db"
    async with await _memory(place) as mem:
        stored = await mem.add([{"session_id": "s1", "content": t} for t in
                                [*TEXTS, "the ferry leaves at noon", "pack some lunch"]])
        await mem.flush(timeout=60)
        ids = [m.id for m in stored if m.id is not None]
        before = await mem.store.lexical_query("lighthouse trip raincoat ferry", 5)
    assert ids[0] in {h.message_id for h in before}, before
    await _damage(place, f"UPDATE lexical SET {column} = ? WHERE rowid = 1", value)
    await _damage(place, "INSERT INTO lexical (rowid, terms, chars) VALUES (99, NULL, '')")
    with caplog.at_level(logging.WARNING, logger="chatmem"):
        async with await _memory(place) as mem:
            after = await mem.store.lexical_query("lighthouse trip raincoat ferry", 5)
            hits = (await mem.recall("lighthouse sunday", scope="all", window=0)).hits
    assert after == before
    assert hits[0].message.id == ids[0]
    said = caplog.text
    assert (f"sqlite ({db}): damaged row in table lexical (message id "
            f"{json.dumps(ids[0])}): column {column} holds ") in said, said
    assert "read from the message's text instead" in said
    # the store's own path, ready to paste into a shell (it said <file>)
    assert (f"sqlite3 {shlex.quote(str(db))} \"DELETE FROM meta WHERE "
            "namespace='chatmem.lexical' AND key='tokenizer'\"") in said, said
    assert "<file>" not in said
    assert "rowid 99, no message has it" in said
    assert _hand_edit(db, "SELECT 1", f"SELECT {column} FROM lexical WHERE rowid = 1"
                      ) == value  # nothing written


@_per_backend("state", ["9", "x"], sqlite_only=("x",),
              backends=("sqlite", "postgres", "qdrant"))
async def test_a_message_whose_index_state_is_unknown_is_named_and_can_be_erased(
        place: Place, state: str, caplog: pytest.LogCaptureFixture) -> None:
    """An index_state chatmem never writes (9; SQLite's text) made stats, an export,
    the session listing and reindex a raw ValueError ('9 is not a valid IndexState');
    now a DamagedRow naming the message, the column and the states chatmem writes. An
    erase goes by the ids: its dry run counts that message's vector as the erase does,
    by the index (the dry run counted it without one: 0 against the erase's 1), logged,
    and the erase takes it."""
    ids = await _seed(place)
    await _damage(place, "UPDATE messages SET index_state = ? WHERE id = ?",
                  int(state) if state.isdigit() else state, ids[0])
    async with await _memory(place) as mem:
        for read in (mem.stats, lambda: _export(mem, vectors=False), mem.sessions,
                     mem.reindex):
            with pytest.raises(StoreError) as caught:
                await read()
            text = _names(caught.value, "messages", ids[0], "index_state")
            assert "not an index state (0 pending, 1 indexed" in text, text
            assert f"chatmem delete {ids[0]}" in text
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            would = await mem.erase(ids, dry_run=True)
        assert (would.messages, would.vectors) == (2, 2), would
        assert f"(message id {json.dumps(ids[0])}): column index_state" in caplog.text
        would = await mem.erase([ids[0]], dry_run=True)
        erased = await mem.erase([ids[0]])
        assert (would.messages, would.vectors) == (erased.messages, erased.vectors) == (1, 1)
        assert (await mem.stats())["messages"] == 1
    if not _sqlite(place):  # PostgreSQL's full-text totals count the vector row deleted
        return
    # one without a vector: neither counts one
    if place.vector is None:
        await _damage(place, "DELETE FROM vectors WHERE message_id = ?", ids[1])
    else:  # its point gone from the separate index
        async with await _memory(place) as mem:
            assert mem.storage.index is not None
            assert await mem.storage.index.delete_vectors([ids[1]]) == 1
    await _damage(place, "UPDATE messages SET index_state = 9 WHERE id = ?", ids[1])
    async with await _memory(place) as mem:
        would = await mem.erase([ids[1]], dry_run=True)
        erased = await mem.erase([ids[1]])
        assert (would.messages, would.vectors) == (erased.messages, erased.vectors) == (1, 0)


async def test_a_failed_message_whose_retry_time_is_not_a_number_is_named(
        tmp_path: Path) -> None:
    """SQLite's retry_at holding text (a hand edit) made stats (chatmem stats) a raw
    ValueError (invalid literal for int()); now a DamagedRow naming the message and the
    column (the indexer, which reads the same soonest retry, logs it and goes on)."""
    place = Place(f"sqlite:///{tmp_path}/chat.db")
    ids = await _seed(place)
    await _damage(place, "UPDATE messages SET index_state = 3, retry_at = 'soon' "
                  "WHERE id = ?", ids[0])
    async with await _memory(place) as mem:
        with pytest.raises(StoreError) as caught:
            await mem.stats()
        text = _names(caught.value, "messages", ids[0], "retry_at")
        assert 'holds "soon", not a time in ms' in text, text
    await _damage(place, "UPDATE messages SET retry_at = 1.5 WHERE id = ?", ids[0])
    async with await _memory(place) as mem:
        assert (await mem.stats())["next_retry_at"] == 1


async def test_a_full_text_hit_whose_vector_time_is_damaged_is_left_out(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A vector row whose ts holds text (a hand edit) is left out of dense search; its
    full-text hit read the row from the table and made the recall a raw TypeError (bad
    operand type for unary -: 'str'). It is now left out of the full-text hits too, with
    the same warning, and reindex repairs it."""
    place = Place(f"sqlite:///{tmp_path}/chat.db")
    ids = await _seed(place)
    await _damage(place, "UPDATE vectors SET ts = 'x' WHERE message_id = ?", ids[0])
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            hits = (await mem.recall("lighthouse trip sunday", scope="all", window=0)).hits
        assert ids[0] not in [h.message.id for h in hits]
        assert (f"damaged row in table vectors (message id {json.dumps(ids[0])}): column ts "
                'holds "x", not an integer; left out of recalls') in caplog.text
        assert (await mem.reindex())["reembedded"] == 1
        hits = (await mem.recall("lighthouse trip sunday", scope="all", window=0)).hits
        assert hits[0].message.id == ids[0]


@pytest.mark.parametrize("column", ["content", "visible_content", "speaker_id", "platform"])
async def test_a_message_text_column_holding_bytes_is_named(tmp_path: Path,
                                                             column: str) -> None:
    """SQLite's text columns take a BLOB (a hand edit, x'…'): a recall rendering it was
    a raw TypeError (sequence item 0: expected str instance, bytes found), an export
    too (Object of type bytes is not JSON serializable), and a list or get gave the
    bytes back as the text (content: "b'hi\\\\xff'"). Every read now names it, as a
    damaged JSON column; chatmem delete erases it."""
    place = Place(f"sqlite:///{tmp_path}/chat.db")
    ids = await _seed(place)
    await _damage(place, f"UPDATE messages SET {column} = x'6869ff' WHERE id = ?", ids[0])
    async with await _memory(place) as mem:
        for read in (lambda: mem.list(session="s1"), lambda: mem.get([ids[0]]),
                     lambda: _export(mem, vectors=False),
                     lambda: mem.recall("lighthouse trip sunday", scope="all")):
            with pytest.raises(StoreError) as caught:
                await read()
            text = _names(caught.value, "messages", ids[0], column)
            assert "holds bytes b'hi\\xff', not text" in text, text
            assert f"chatmem delete {ids[0]}" in text
        assert await mem.delete([ids[0]]) == 1
        assert [m.id for m in (await mem.list(session="s1")).messages] == ids[1:]


@pytest.mark.parametrize(("table", "column"), [("sessions", "parent_id"),
                                               ("sessions", "resource_id"),
                                               ("vectors", "role")])
async def test_a_session_or_vector_text_column_holding_bytes_is_named(
        tmp_path: Path, table: str, column: str) -> None:
    """A session's text column holding a BLOB made an export a raw TypeError (and a
    parent id of bytes was no parent: the chain, so the scope, was read otherwise,
    without a word); it is now a DamagedRow naming the session wherever the session is
    read. A vector's: the export names it and reindex repairs it."""
    place = Place(f"sqlite:///{tmp_path}/chat.db")
    async with await _memory(place) as mem:
        await mem.upsert_session({"id": "root", "resource_id": "alice"})
        await mem.upsert_session({"id": "s1", "parent_id": "root"})
        stored = await mem.add([{"session_id": "s1", "content": t} for t in TEXTS])
        await mem.flush(timeout=60)
    ids = [m.id for m in stored if m.id is not None]
    row = {"parent_id": "s1", "resource_id": "root", "role": ids[0]}[column]
    key = "message_id" if table == "vectors" else "id"
    await _damage(place, f"UPDATE {table} SET {column} = x'6869' WHERE {key} = ?", row)
    async with await _memory(place) as mem:
        reads = [lambda: _export(mem, vectors=table == "vectors")]
        if table == "sessions":
            reads += [lambda: mem.get_session(row), mem.sessions,
                      lambda: mem.recall("lighthouse trip sunday", session="s1")]
        for read in reads:
            with pytest.raises(StoreError) as caught:
                await read()
            text = _names(caught.value, table, row, column)
            assert "holds bytes b'hi', not text" in text, text
        if table == "vectors":
            assert (await mem.reindex())["reembedded"] == 1
            assert (await _export(mem, vectors=True)).count('"type": "vector"') == 2


async def test_a_vector_whose_model_id_is_bytes_is_another_models(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A vector row whose model_id holds a BLOB (a hand edit) is not the current model's:
    a recall skips it and warns of the other models, which was a raw TypeError (sequence
    item 0: expected str instance, bytes found) out of that warning; reindex embeds its
    message again, which replaces it."""
    place = Place(f"sqlite:///{tmp_path}/chat.db")
    ids = await _seed(place)
    await _damage(place, "UPDATE vectors SET model_id = x'6869' WHERE message_id = ?", ids[0])
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            await mem.recall("lighthouse trip sunday", scope="all", window=0)
        assert "skipped vectors of other models (b'hi')" in caplog.text
        assert (await mem.reindex())["reembedded"] == 1
        hits = (await mem.recall("lighthouse trip sunday", scope="all", window=0)).hits
        assert hits[0].message.id == ids[0]


def test_cli_list_reads_past_a_damaged_index_state(tmp_path: Path) -> None:
    """chatmem list and recall (any command that opens the store with the default
    model, auto) failed on a message whose index_state or retry time is damaged: auto's
    choice counts the vectors per model with the whole stats, which reads every
    message's state. It now counts the vectors alone; stats still names the row."""
    db = tmp_path / "chat.db"
    runner = CliRunner()
    for text in TEXTS:
        res = runner.invoke(main, ["add", "--db", str(db), "--session", "s1", "--no-wait",
                                   text])
        assert res.exit_code == 0, res.output
    mid = _hand_edit(db, "UPDATE messages SET index_state = 9 WHERE rowid = 1",
                     "SELECT id FROM messages WHERE rowid = 1")
    res = runner.invoke(main, ["list", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert TEXTS[0] in res.output and TEXTS[1] in res.output
    res = runner.invoke(main, ["stats", "--db", str(db)])
    assert res.exit_code == 2, res.output
    assert (f"(message id {json.dumps(mid)}): column index_state holds 9, not an index "
            "state") in res.output


async def test_a_failed_message_whose_attempt_count_is_damaged_is_retried_from_zero(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """SQLite's attempts holding text (a hand edit) made the message's next failure a raw
    ValueError (invalid literal for int()) out of the indexer's read of its schedule, so
    it was never scheduled again. The count only sets the next delay and that schedule
    replaces it: it is read as 0 attempts with a warning naming the message and the
    column, and the failure writes attempts 1 (the row repaired)."""
    from providers import FlakyProvider
    from test_pending_fulltext import FAST_RETRIES, open_memory

    place = Place(f"sqlite:///{tmp_path}/chat.db")
    provider = FlakyProvider()
    provider.down = "fail"
    far = {**FAST_RETRIES, "retry_initial_s": 600.0, "retry_max_s": 600.0}
    mem = await open_memory(place, provider, indexing=far)
    try:
        [m] = await mem.add({"session_id": "s1", "content": TEXTS[0]})
        assert m.id is not None
        await mem.flush(timeout=30)
        assert (await mem.store.retries([m.id]))[m.id].attempts >= 1
    finally:
        await mem.close()
    await _damage(place, "UPDATE messages SET attempts = 'x' WHERE id = ?", m.id)
    mem = await open_memory(place, provider, indexing=far)
    try:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            await mem.flush(timeout=30)
        assert (await mem.store.retries([m.id]))[m.id].attempts == 1
        assert "ValueError" not in caplog.text, caplog.text
        assert f'damaged row in table messages (message id "{m.id}"): column attempts ' \
            in caplog.text, caplog.text
        provider.down = None
        await mem.flush(timeout=30)
        assert (await mem.stats())["indexed"] == 1
    finally:
        await mem.close()


def test_a_session_row_without_an_id_is_named_by_its_rowid(tmp_path: Path) -> None:
    """SQLite's id TEXT PRIMARY KEY takes NULL (a hand edit): Memory.sessions and chatmem
    sessions said "InvalidInput: session is required", which reads as the caller's
    mistake. It is a DamagedRow naming the row by its rowid and the column, and the
    sqlite3 command that removes it (no message can belong to a session without an
    id)."""
    db = tmp_path / "chat.db"
    place = Place(f"sqlite:///{db}")
    res = CliRunner().invoke(main, ["add", "--db", str(db), "--session", "s1", "--no-wait",
                                    TEXTS[0]])
    assert res.exit_code == 0, res.output
    conn = sqlite3.connect(db)
    with conn:
        rowid = conn.execute("INSERT INTO sessions (id) VALUES (NULL)").lastrowid
    conn.close()

    async def listing() -> None:
        async with await _memory(place) as mem:
            await mem.sessions()
            await _export(mem, vectors=False)

    with pytest.raises(StoreError) as caught:
        asyncio.run(listing())
    text = str(caught.value)
    assert isinstance(caught.value, errors.DamagedRow), repr(caught.value)
    assert f"damaged row in table sessions (rowid {rowid}): column id is NULL" in text, text
    assert f"DELETE FROM sessions WHERE rowid = {rowid}" in text, text
    assert "session is required" not in text

    async def exporting() -> None:
        async with await _memory(place) as mem:
            await _export(mem, vectors=False)

    with pytest.raises(errors.DamagedRow, match=rf"\(rowid {rowid}\): column id is NULL"):
        asyncio.run(exporting())
    out = CliRunner().invoke(main, ["sessions", "--db", str(db)])
    assert out.exit_code == 2, out.output
    assert f"(rowid {rowid}): column id is NULL" in out.output, out.output
    conn = sqlite3.connect(db)
    with conn:  # the command it gives repairs the store
        conn.execute(f"DELETE FROM sessions WHERE rowid = {rowid}")
    conn.close()
    asyncio.run(listing())


async def test_a_message_whose_id_is_bytes_is_named_so_it_can_be_removed(
        tmp_path: Path) -> None:
    """A message whose id itself holds a BLOB (a hand edit) was named "b'hi'" and the
    repair said chatmem delete b'hi', which no call can reach (an id is text). It is
    named by the bytes as SQL writes them (x'6869') with the sqlite3 command that
    removes it, and that command repairs the store."""
    place = Place(f"sqlite:///{tmp_path}/chat.db")
    db = tmp_path / "chat.db"
    ids = await _seed(place)
    await _damage(place, "UPDATE messages SET id = x'6869' WHERE id = ?", ids[0])
    async with await _memory(place) as mem:
        for read in (lambda: mem.list(session="s1"), lambda: _export(mem, vectors=False)):
            with pytest.raises(errors.DamagedRow) as caught:
                await read()
            text = str(caught.value)
            assert "damaged row in table messages (message id x'6869', bytes): column id " \
                in text, text
            assert "message id \"b'hi'\"" not in text and "chatmem delete" not in text, text
            assert "DELETE FROM messages WHERE id = x'6869'" in text, text
    _hand_edit(db, "DELETE FROM messages WHERE id = x'6869'", "SELECT count(*) FROM messages")
    async with await _memory(place) as mem:
        assert [m.id for m in (await mem.list(session="s1")).messages] == ids[1:]
    # a session's id alike
    _hand_edit(db, "INSERT INTO sessions (id) VALUES (x'6869')", "SELECT count(*) FROM sessions")
    async with await _memory(place) as mem:
        with pytest.raises(errors.DamagedRow) as caught:
            await mem.sessions()
        text = str(caught.value)
        assert "(session id x'6869', bytes): column id " in text, text
        assert "DELETE FROM sessions WHERE id = x'6869'" in text, text


_SESSION_DAMAGE = {"metadata": "UPDATE sessions SET metadata = ? WHERE id = 'bad'",
                   "settings": "UPDATE sessions SET settings = ? WHERE id = 'bad'",
                   "id-null": "UPDATE sessions SET id = NULL WHERE id = 'bad'",
                   "id-bytes": "UPDATE sessions SET id = x'6869' WHERE id = 'bad'",
                   "parent-bytes": "UPDATE sessions SET parent_id = x'6869' WHERE id = 'bad'"}


@_per_backend("damage", list(_SESSION_DAMAGE),
              sqlite_only=("id-null", "id-bytes", "parent-bytes"))
async def test_the_retention_sweep_goes_past_a_session_row_it_cannot_read(
        place: Place, damage: str, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A session row chatmem cannot read as a session (SQLite's id NULL or a BLOB, a
    text column holding bytes: a hand edit) made Memory.sweep_retention, so the
    background sweep, and forget by resource raise its DamagedRow for every session:
    nothing expired was erased anywhere. They now go past it, the sweep keeping what
    it cannot decide of (a session whose chain it cannot walk), with a warning naming
    the row and its repair; the other sessions are swept, a page at a time as before.
    A session whose metadata or settings are damaged is swept as ever (read without
    them)."""
    from chatmem import memory as memory_module

    monkeypatch.setattr(memory_module, "SWEEP_SESSIONS", 1)  # a page past a skipped row
    owner = {"id": "admin", "role": "owner"}
    t0 = 1_700_000_000_000
    now = t0 + 10 * 86_400_000
    async with await _memory(place) as mem:
        for sid in ("a", "bad", "z"):
            await mem.upsert_session({"id": sid, "resource_id": "r"})
            await mem.add([{"id": f"{sid}-old", "session_id": sid, "content": "old",
                            "ts": t0},
                           {"id": f"{sid}-new", "session_id": sid, "content": "new",
                            "ts": now}])
            await mem.set_retention(1, actor=owner, session=sid)
        await mem.flush(timeout=60)
    json_column = damage in ("metadata", "settings")
    await _damage(place, _SESSION_DAMAGE[damage],
                  *((("{bad" if _sqlite(place) else "[1]"),) if json_column else ()))
    async with await _memory(place) as mem:
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            erased = await mem.sweep_retention(now=now)
        # the bad session's old message goes when the sweep can read its chain, and
        # when no row is session "bad" any more (its id NULL or bytes): its messages
        # are a session's without a row, swept by its own setting (1 day)
        gone = ["a-old", "z-old", *(["bad-old"] if damage != "parent-bytes" else [])]
        assert (erased.messages, erased.vectors) == (len(gone), len(gone)), erased
        left = sorted(m.id or "" for m in (await mem.list(limit=100)).messages)
        assert left == sorted({f"{s}-{a}" for s in ("a", "bad", "z")
                               for a in ("old", "new")} - set(gone)), left
        said = [r.getMessage() for r in caplog.records if "damaged row in table sessions"
                in r.getMessage() and "retention sweep" in r.getMessage()]
        assert said, caplog.text
        if not json_column:
            named = {"id-null": "(rowid ", "id-bytes": "(session id x'6869', bytes)",
                     "parent-bytes": '(session id "bad"): column parent_id '}[damage]
            assert named in said[0] and "DELETE FROM sessions WHERE " in said[0] \
                if damage != "parent-bytes" else named in said[0], said
            assert "the retention sweep went past it" in said[0], said
        # forget of a sound session, and of the damaged one by its id, work
        assert (await mem.forget(session="a")).messages == 1
        assert (await mem.forget(session="bad")).messages == len(
            [i for i in left if i.startswith("bad-")])
        if damage == "parent-bytes":  # forget by resource cannot tell where it belongs
            with pytest.raises(errors.DamagedRow, match="column parent_id "):
                await mem.forget(resource_id="r")
        else:
            assert (await mem.forget(resource_id="r")).messages == 1
            assert [m.id for m in (await mem.list(limit=100)).messages] == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_reindex_erases_the_entries_of_a_message_deleted_by_hand(
        tmp_path: Path, backend: str, caplog: pytest.LogCaptureFixture) -> None:
    """A message whose id holds bytes is named with the sqlite3 command that removes it
    (DELETE FROM messages WHERE id = x'…'); run, it left the message's vector row (and
    its full-text row, its words) under the message's old id, which nothing removed:
    stats counted the vector (vectors_by_model 2 for 1 message) and reindex kept it. The
    error now says that chatmem reindex erases them after such a delete, and it does
    (any message deleted by hand: on PostgreSQL, a DELETE by its id)."""
    async with PLACES[backend](tmp_path) as place:
        ids = await _seed(place)
        if backend == "sqlite":
            await _damage(place, "UPDATE messages SET id = x'6869' WHERE id = ?", ids[0])
            async with await _memory(place) as mem:
                with pytest.raises(errors.DamagedRow) as caught:
                    await mem.list(session="s1")
            text = str(caught.value)
            assert "DELETE FROM messages WHERE id = x'6869'" in text, text
            assert "its vector and full-text rows stay until chatmem reindex" in text, text
            await _damage(place, "DELETE FROM messages WHERE id = x'6869'")
        else:
            await _damage(place, "DELETE FROM messages WHERE id = ?", ids[0])
        async with await _memory(place) as mem:
            assert (await mem.stats())["vectors_by_model"] == {"test:hash": 2}
            with caplog.at_level(logging.WARNING, logger="chatmem"):
                out = await mem.reindex()
            assert out["reembedded"] == 0, out
            assert (f"reindex: erased the vectors and full-text rows of 1 message(s) no "
                    f'longer stored (deleted outside chatmem): "{ids[0]}"') in caplog.text
            assert (await mem.stats())["vectors_by_model"] == {"test:hash": 1}
            assert await mem.store.lexical_query("lighthouse trip sunday", 5) == []
            exported = await _export(mem, vectors=True)
            assert exported.count('"type": "vector"') == 1 and ids[0] not in exported
            caplog.clear()
            with caplog.at_level(logging.WARNING, logger="chatmem"):
                await mem.reindex()  # nothing left of it
            assert "deleted outside chatmem" not in caplog.text
        if backend == "sqlite":
            db = Path(place.url[len("sqlite:///"):])
            assert _hand_edit(db, "SELECT 1", "SELECT count(*) FROM vectors") == 1
            assert _hand_edit(db, "SELECT 1", "SELECT count(*) FROM lexical") == 1
            # an erase by the old id takes them too, counting the full-text row (its
            # terms merged out of the index's segments, as for any erase)
            _hand_edit(db, "DELETE FROM messages", "SELECT count(*) FROM messages")
            async with await _memory(place) as mem:
                erased = await mem.erase([ids[1]])
            assert (erased.messages, erased.vectors, erased.lexical) == (0, 1, 1), erased
            assert _hand_edit(db, "SELECT 1", "SELECT count(*) FROM lexical") == 0


@pytest.mark.parametrize("place", ["sqlite", "postgres", "qdrant"], indirect=True)
async def test_the_retention_sweep_reaches_the_messages_of_a_session_whose_row_was_deleted(
        place: Place, caplog: pytest.LogCaptureFixture,
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The sweep read the registered sessions only: a session row removed by hand
    (DELETE FROM sessions …) left its messages unswept, never erased when they expired,
    until an add to the session registered it again. The sweep now reaches them too,
    under the session's own setting, else retention.days (the setting effective_retention
    reports for it, and the one an add's registration, its id alone, would give), and
    erases them everywhere (vectors, full-text rows, a separate index's points), with a
    warning naming the sessions and how to register them again; a page at a time."""
    from chatmem import memory as memory_module

    monkeypatch.setattr(memory_module, "SWEEP_SESSIONS", 1)  # pages of one session
    t0 = 1_700_000_000_000
    now = t0 + 10 * 86_400_000
    sessions = ("a", "gone", "own", "z")
    config = {"retention": {"days": 3, "sweep_interval_s": 0}}
    async with await Memory.open(place.url, vector=place.vector, config=config,
                                 embedder=chatmem.testing.embedder()) as mem:
        for sid in sessions:
            await mem.upsert_session({"id": sid, "origin_platform": "tg"})
            await mem.add([{"id": f"{sid}-old", "session_id": sid, "ts": t0,
                            "content": f"the {sid} lighthouse trip is on sunday"},
                           {"id": f"{sid}-new", "session_id": sid, "ts": now,
                            "content": f"bring a {sid} raincoat for the ferry"}])
        # a session's own setting outlives its row: "own" keeps 20 days
        await mem.set_retention(20, actor={"id": "admin", "role": "owner"}, session="own")
        await mem.flush(timeout=60)
    for sid in ("gone", "own"):
        await _damage(place, "DELETE FROM sessions WHERE id = ?", sid)
    async with await Memory.open(place.url, vector=place.vector, config=config,
                                 embedder=chatmem.testing.embedder()) as mem:
        assert (await mem.effective_retention("gone")).layer == "config"
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            erased = await mem.sweep_retention(now=now)
        gone = {"a-old", "gone-old", "z-old"}
        assert (erased.messages, erased.vectors) == (3, 3), erased
        assert erased.points == (3 if place.vector else 0), erased
        everything = {f"{s}-{a}" for s in sessions for a in ("old", "new")}
        left = {m.id for m in (await mem.list(limit=100)).messages}
        assert left == everything - gone, left
        index = mem.storage.index
        assert index is not None
        assert {v.message_id for v in await index.scan_vectors(None, 100)} == left
        words = {h.message_id for h in await mem.store.lexical_query("gone lighthouse", 20)}
        assert "gone-old" not in words and words, words
        said = [r.getMessage() for r in caplog.records if "no session row" in r.getMessage()]
        assert len(said) == 1, caplog.text
        assert said[0].startswith('retention sweep: 2 session(s) hold messages but have no '
                                  'session row (removed outside chatmem, e.g. DELETE FROM '
                                  'sessions): "gone", "own"; '), said
        assert "chatmem session set ID --origin-platform P" in said[0], said
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            assert (await mem.sweep_retention(now=now)).messages == 0  # nothing left
        # registered again (chatmem session set), its platform's layers reach it again
        await mem.upsert_session({"id": "gone", "origin_platform": "tg"})
        await mem.set_retention(1, actor={"id": "admin", "role": "owner"},
                                layer="platform", platform="tg")
        caplog.clear()
        with caplog.at_level(logging.WARNING, logger="chatmem"):
            erased = await mem.sweep_retention(now=now + 2 * 86_400_000)
        # "own" keeps its own 20 days
        assert {m.id for m in (await mem.list(limit=100)).messages} == {"own-old", "own-new"}
        assert erased.messages == 3, erased
        said = [r.getMessage() for r in caplog.records if "no session row" in r.getMessage()]
        assert len(said) == 1 and ': "own"; ' in said[0], said


async def _two_rows_deleted(place: Place) -> None:
    """Sessions a, gone, lost and z of two messages each, and "empty", a row without
    messages; the rows of gone and lost then deleted by hand, their messages kept."""
    async with await _memory(place) as mem:
        for sid in ("a", "gone", "lost", "z"):
            await mem.add([{"session_id": sid, "ts": ts, "content": f"{sid} said {ts}"}
                           for ts in (1, 2)])
        await mem.upsert_session({"id": "empty", "origin_platform": "tg"})  # no messages
        await mem.flush(timeout=60)
    for sid in ("gone", "lost"):
        await _damage(place, "DELETE FROM sessions WHERE id = ?", sid)


@pytest.mark.parametrize("place", ["sqlite", "postgres", "qdrant"], indirect=True)
async def test_the_sessions_list_and_count_keep_a_session_whose_row_was_deleted(
        place: Place) -> None:
    """Memory.sessions (the console's Sessions page, GET /v1/sessions, chatmem sessions)
    lists every session with messages, registered or not, and stats counts it: a session
    whose row was removed by hand (DELETE FROM sessions …) while its messages stayed was
    in neither. It is listed now, in id order among the others, page by page, and by
    ``only`` (what a user key's ``visible_from`` reads); a session with neither a row nor
    messages is not."""
    await _two_rows_deleted(place)
    every = ["a", "empty", "gone", "lost", "z"]
    async with await _memory(place) as mem:
        assert (await mem.stats())["sessions"] == 5
        page = await mem.sessions()
        assert [s.session.id for s in page.sessions] == every, page
        assert page.next_after is None
        gone = page.sessions[2]
        assert (gone.messages, gone.states, gone.last_ts) == (2, {"indexed": 2}, 2), gone
        # a store whose walk of the sessions messages are in is not in id order (a
        # PostgreSQL database of another collation than C) is walked from its first
        for ordered in (True, False):
            mem.store.message_sessions_by_code_point = ordered  # type: ignore[attr-defined]
            for limit in (1, 2, 3):
                paged: list[str] = []
                after = None
                while True:
                    page = await mem.sessions(limit=limit, after=after)
                    paged += [s.session.id for s in page.sessions]
                    if page.next_after is None:
                        break
                    after = page.next_after
                assert paged == every, (ordered, limit)
        assert [s.session.id for s in (await mem.sessions(after="gone")).sessions] == [
            "lost", "z"]
        only = await mem.sessions(only=["gone", "nowhere"])
        assert [(s.session.id, s.messages) for s in only.sessions] == [("gone", 2)]


async def test_every_listing_of_sessions_says_which_have_no_row(place: Place) -> None:
    """A session whose row was removed by hand (DELETE FROM sessions …) is listed with
    its messages and empty labels, which read as a bare session's: nothing told a
    caller that it has no row (and that no platform, chat-type or group setting
    reaches it). ``SessionSummary.registered`` is False for it, True for the others,
    in every page (code point walk or not), by ``only``, in ``GET /v1/sessions``
    (an owner's and a user key's ``visible_from``) and ``chatmem.client``'s reading of
    it, and ``chatmem sessions`` marks it "no session row" with the repair (--json:
    the field)."""
    import httpx

    from chatmem.client import AsyncClient
    from chatmem.server.http import KeyTable, create_app
    from servers import running

    await _two_rows_deleted(place)
    want = [("a", True), ("empty", True), ("gone", False), ("lost", False), ("z", True)]
    async with await _memory(place) as mem:
        page = await mem.sessions()
        assert [(s.session.id, s.registered) for s in page.sessions] == want
        assert [s.to_dict()["registered"] for s in page.sessions] == [r for _, r in want]
        for ordered in (True, False):
            mem.store.message_sessions_by_code_point = ordered  # type: ignore[attr-defined]
            for limit in (1, 2):
                paged: list[tuple[str, bool]] = []
                after = None
                while True:
                    page = await mem.sessions(limit=limit, after=after)
                    paged += [(s.session.id, s.registered) for s in page.sessions]
                    if page.next_after is None:
                        break
                    after = page.next_after
                assert paged == want, (ordered, limit)
        only = await mem.sessions(only=["z", "gone", "nowhere", "empty"])
        assert [(s.session.id, s.registered) for s in only.sessions] == [
            ("empty", True), ("gone", False), ("z", True)]
    owner, user = "owner-key-0123456789abcdef", "user-key-0123456789abcdef0"
    keys = KeyTable.from_mapping({"keys": {
        "boss": {"key": owner, "namespace": "alice", "role": "owner"},
        "bot": {"key": user, "namespace": "alice", "role": "user"}}})
    app = create_app(url=place.url, keys=keys, embedder=chatmem.testing.embedder())
    with running(app) as base:
        def listed(key: str, **params: str) -> list[tuple[str, bool]]:
            r = httpx.get(f"{base}/v1/sessions", params=params, timeout=30,
                          headers={"Authorization": f"Bearer {key}"})
            assert r.status_code == 200, r.text
            return [(s["id"], s["registered"]) for s in r.json()["sessions"]]

        assert listed(owner) == want
        assert listed(owner, limit="2", after="empty") == want[2:4]
        assert listed(user, visible_from="gone") == [("gone", False)]
        assert listed(user, visible_from="a") == [("a", True)]
        async with AsyncClient(base, owner, timeout=30) as c:
            assert [(s.session.id, s.registered) for s in (await c.sessions()).sessions] \
                == want
    res = await _cli("sessions", "--db", place.url)
    assert res.exit_code == 0, res.output
    lines = res.stdout.splitlines()
    assert [line.split()[0] for line in lines] == [sid for sid, _ in want], lines
    assert [line.endswith("  no session row") for line in lines] == [
        not registered for _, registered in want], lines
    assert "2 session(s) marked 'no session row' hold messages but have no session row" \
        in res.stderr, res.stderr
    assert f"chatmem session set --db {shlex.quote(place.url)} --origin-platform P " \
        "[--chat-type T] [--group-id G] ID" in res.stderr, res.stderr
    assert f"chatmem forget --db {shlex.quote(place.url)} --session ID" in res.stderr
    res = await _cli("sessions", "--db", place.url, "--json")
    assert res.exit_code == 0, res.output
    assert [(s["id"], s["registered"]) for s in json.loads(res.stdout)["sessions"]] == want
    # registered again, as the repair says: listed as registered
    res = await _cli("session", "set", "--db", place.url, "--origin-platform", "tg", "gone")
    assert res.exit_code == 0, res.output
    async with await _memory(place) as mem:
        page = await mem.sessions()
        assert [(s.session.id, s.registered) for s in page.sessions] == [
            (sid, registered or sid == "gone") for sid, registered in want]
        assert page.sessions[2].platform == "tg"


async def test_the_walk_of_sessions_without_a_row_reads_no_further_page(
        place: Place, monkeypatch: pytest.MonkeyPatch) -> None:
    """Memory.sessions and the retention sweep find the sessions that hold messages but
    have no row with ``message_sessions_after``, a page at a time: a store that walks in
    code point order is read from ``after`` and no further than the page's last
    registered id (``bound``) or than the page's ``limit + 1`` such sessions, any other
    from its first to its end; the sweep reads every page. The real store's calls are
    counted (their ``after`` and ``limit``), with pages of 3 sessions. The walk stopped
    at the first id past ``bound``, so a page of it that ended at ``bound`` cost one
    more call, of a page it did not use: it stops on reaching ``bound`` now (a
    registered session, never one to list), and goes past it only when ``bound``
    holds no messages (the walk does not meet it)."""
    from chatmem import memory

    monkeypatch.setattr(memory, "SWEEP_SESSIONS", 3)
    ids = [f"s{i:02d}" for i in range(12)]
    gone = ["s03", "s04", "s07", "s10"]
    async with await _memory(place) as mem:
        await mem.add([{"session_id": sid, "ts": 1, "content": f"{sid} said"} for sid in ids])
    for sid in gone:
        await _damage(place, "DELETE FROM sessions WHERE id = ?", sid)
    async with await _memory(place) as mem:
        real = mem.store.message_sessions_after
        calls: list[tuple[str | None, int]] = []

        async def counted(after: str | None, limit: int) -> list[tuple[str, bool]]:
            calls.append((after, limit))
            return await real(after, limit)

        mem.store.message_sessions_after = counted  # type: ignore[method-assign]
        assert [sid async for sid in mem._unregistered_sessions()] == gone
        assert calls == [(None, 3), ("s02", 3), ("s05", 3), ("s08", 3), ("s11", 3)]
        unordered = [(None, 3), ("s02", 3), ("s05", 3), ("s08", 3), ("s11", 3)]
        # (after, limit): the calls of a code point walk. Its step is limit + 1; it stops
        # on reaching the page's last registered id (its limit + 1-th, bound), or once
        # it holds limit + 1 without a row. (None, 1), (None, 2) and (None, 5) end a
        # page of the walk at bound (s01, s02, s08): one call more before, its page unused
        want = {
            (None, 1): [(None, 2)], (None, 2): [(None, 3)],
            (None, 5): [(None, 3), ("s02", 3), ("s05", 3)],
            ("s02", 1): [("s02", 2)], ("s02", 2): [("s02", 3), ("s05", 3)],
            ("s02", 5): [("s02", 3), ("s05", 3), ("s08", 3), ("s11", 3)],
            ("s05", 2): [("s05", 3), ("s08", 3)], ("s06", 1): [("s06", 2), ("s08", 2)],
            ("s06", 5): [("s06", 3), ("s09", 3)], ("s09", 1): [("s09", 2), ("s11", 2)],
            ("s09", 5): [("s09", 3)]}
        for ordered in (True, False):
            mem.store.message_sessions_by_code_point = ordered  # type: ignore[attr-defined]
            for (after, limit), walk in want.items():
                calls.clear()
                page = await mem.sessions(limit=limit, after=after)
                assert [s.session.id for s in page.sessions] == [
                    i for i in ids if after is None or i > after][:limit]
                assert calls == (walk if ordered else unordered), (ordered, after, limit)
        # a bound without messages (a row of its own) is not met: the walk goes on to
        # the first id past it, in the page (s04, 1) or in the next one (s03, 1)
        await mem.upsert_session({"id": "s05x"})
        mem.store.message_sessions_by_code_point = True  # type: ignore[attr-defined]
        for (after, limit), walk in {("s04", 1): [("s04", 2)],
                                     ("s03", 1): [("s03", 2), ("s05", 2)]}.items():
            calls.clear()
            page = await mem.sessions(limit=limit, after=after)
            assert [s.session.id for s in page.sessions] == [
                i for i in sorted([*ids, "s05x"]) if i > after][:limit]
            assert calls == walk, (after, limit)


async def test_sessions_only_asks_the_store_once_for_the_names_without_a_row(
        place: Place) -> None:
    """``sessions(only=…)`` (what GET /v1/sessions?visible_from= reads) lists a named
    session without a row when it holds messages (its row removed by hand). It asked
    the store once per such name (``list_messages`` of the one session, up to 10,000
    queries one after another); it now asks once for them all
    (``MessageStore.message_sessions``). The real store's calls are counted: 500 names
    of nothing cost the same calls as 5, and the listing is the same."""
    from chatmem.store.base import MessageStore

    async with await _memory(place) as mem:
        for sid in ("a", "gone", "lost", "z"):
            await mem.add([{"session_id": sid, "ts": ts, "content": f"{sid} said {ts}"}
                           for ts in (1, 2)])
        await mem.upsert_session({"id": "empty"})  # a row, no messages
    for sid in ("gone", "lost"):
        await _damage(place, "DELETE FROM sessions WHERE id = ?", sid)
    async with await _memory(place) as mem:
        calls: dict[str, int] = {}
        listing = asyncio.current_task()  # not the indexer's calls meanwhile

        def counted(name: str, real: Any) -> Any:
            def call(*args: Any, **kwargs: Any) -> Any:
                if asyncio.current_task() is listing:
                    calls[name] = calls.get(name, 0) + 1
                return real(*args, **kwargs)
            return call

        for name in dir(MessageStore):
            if not name.startswith("_"):
                setattr(mem.store, name, counted(name, getattr(mem.store, name)))

        async def listed(names: list[str]) -> tuple[list[tuple[str, int]], dict[str, int]]:
            calls.clear()
            page = await mem.sessions(only=names)
            return [(s.session.id, s.messages) for s in page.sessions], dict(calls)

        named = ["z", "gone", "nowhere", "empty", "lost"]
        want = [("empty", 0), ("gone", 2), ("lost", 2), ("z", 2)]
        few, few_calls = await listed(named)
        many, many_calls = await listed(named + [f"nothing {i}" for i in range(495)])
        assert few == many == want
        assert many_calls == few_calls, (few_calls, many_calls)
        assert many_calls["message_sessions"] == 1
        assert (await mem.sessions(only=["gone"], limit=1)).sessions[0].messages == 2


@pytest.mark.parametrize("where", ["sqlite", "postgres", "qdrant"])
async def test_reindex_embeds_again_the_short_reply_after_a_message_deleted_by_hand(
        tmp_path: Path, where: str) -> None:
    """With short replies embedded with the turn before (``indexing.short_reply_chars``),
    an erase embeds again the reply after an erased message, whose vector holds its
    words; a message row deleted by hand, whose vector and full-text rows reindex
    erases (f19b477), left that reply's vector with the deleted words. Its entries keep
    its session, time and role: reindex now finds the reply after it and embeds it
    again, alone (the turn before it now is the assistant's own)."""
    from chatmem.config import Config
    from chatmem.testing import HashEmbeddingProvider

    provider = HashEmbeddingProvider()
    embedder = chatmem.testing.embedder(provider)
    turns = [("a", "assistant", "How old is your kitten Tudou, and where did you get him?"),
             ("u", "user", "3 months, from a friend's cat"), ("b", "assistant", "cute!")]
    async with PLACES[where](tmp_path) as place:
        def memory() -> Any:
            return Memory.open(place.url, vector=place.vector, embedder=embedder,
                               config=Config.load({"indexing": {"short_reply_chars": 30}}))

        async with await memory() as mem:
            await mem.add([{"id": mid, "session_id": "s", "role": role, "content": text,
                            "ts": 1_750_000_000_000 + 10 * n}
                           for n, (mid, role, text) in enumerate(turns)])
            await mem.flush(timeout=60)
        assert f"{turns[1][2]}\ncute!" in _embedded(provider), _embedded(provider)
        await _damage(place, "DELETE FROM messages WHERE id = ?", "u")
        provider.calls.clear()
        async with await memory() as mem:
            await mem.reindex()
            await mem.flush(timeout=60)
            assert _embedded(provider) == ["cute!"], _embedded(provider)
            assert await mem.index_states(["a", "b"]) == {"a": "indexed", "b": "indexed"}
            assert (await mem.stats())["vectors_by_model"] == {"test:hash": 2}
