"""An empty string where a session, speaker, resource, platform or message id is
required: no stored message or session has an empty one (``add`` refuses them), so it
is refused (as is an empty ``text`` for ``list``, which the library took as no filter
and the HTTP API refused), naming it as the caller wrote it (the library's argument, the HTTP query
parameter or body field, the CLI's option, the MCP server's option), and nothing is
read or changed. ``GET /v1/messages?platform=`` and ``Memory.list(platform="")`` took
it as a platform no message is of; ``recall(session="")`` as no session at all (the
configured scope instead of the session's own); ``speakers=[""]``, ``ids=[""]``, a tool
caller's ``platform: ""`` likewise went through."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner

from backends import PLACES
from chatmem import Memory
from chatmem.cli import main
from chatmem.embedding import Embedder
from chatmem.errors import InvalidInput
from chatmem.server.http import create_app
from providers import RecordingProvider
from servers import running
from test_http import ALICE, keys

OWNER = {"id": "op", "role": "owner"}
Lib = Callable[[Memory], Awaitable[Any]]


def lib(label: str, call: Lib, name: str) -> Any:
    return pytest.param("library", call, name, id=f"Memory.{label}")


def http(method: str, path: str, data: dict[str, Any], name: str) -> Any:
    return pytest.param("http", (method, path, data), name, id=f"{method} {path} {name}")


def cli(args: list[str], name: str) -> Any:
    words = " ".join(a if a else "''" for a in args)
    return pytest.param("cli", args, name, id=f"chatmem {words}")


def mcp(call: Any, name: str) -> Any:
    what = "memory_list" if isinstance(call, tuple) else "create_server"
    return pytest.param("mcp", call, name, id=f"mcp {what} {name}")


#: (how it is called, the call, the name the error must hold), as pytest params
CASES = [
    # the library: Memory's arguments
    lib('list(platform="")', lambda m: m.list(platform=""), "platform"),
    lib('list(visible_from="s1", platform="")',
        lambda m: m.list(visible_from="s1", platform=""), "platform"),
    lib('list(session="")', lambda m: m.list(session=""), "session"),
    lib('list(speaker_id="")', lambda m: m.list(speaker_id=""), "speaker_id"),
    lib('list(visible_from="")', lambda m: m.list(visible_from=""), "visible_from"),
    # text="" was no filter in the library (every message) while HTTP refused it
    lib('list(text="")', lambda m: m.list(text=""), "text"),
    lib('get(["m1"], visible_from="s1", platform="")',
        lambda m: m.get(["m1"], visible_from="s1", platform=""), "platform"),
    lib('get(["m1", ""])', lambda m: m.get(["m1", ""]), "ids[1]"),
    lib('index_states([""])', lambda m: m.index_states([""]), "ids[0]"),
    lib('delete([""])', lambda m: m.delete([""]), "ids[0]"),
    lib('erase(["m1", ""], dry_run=True)', lambda m: m.erase(["m1", ""], dry_run=True),
        "ids[1]"),
    lib('forget(speaker_id="")', lambda m: m.forget(speaker_id=""), "speaker_id"),
    lib('forget(session="")', lambda m: m.forget(session=""), "session"),
    lib('forget(resource_id="")', lambda m: m.forget(resource_id=""), "resource_id"),
    lib('recall(session="")', lambda m: m.recall("hello", session=""), "session"),
    lib('recall(session="s1", platform="")',
        lambda m: m.recall("hello", session="s1", platform=""), "platform"),
    lib('recall(platform="")', lambda m: m.recall("hello", platform=""), "platform"),
    lib('recall(speakers=[""])',
        lambda m: m.recall("hello", session="s1", speakers=[""]), "speakers[0]"),
    lib('recall(exclude_ids=[""])',
        lambda m: m.recall("hello", session="s1", exclude_ids=[""]), "exclude_ids[0]"),
    lib('context(session="")', lambda m: m.context("hello", session=""), "session"),
    lib('context(platform="")',
        lambda m: m.context("hello", session="s1", platform=""), "platform"),
    lib('context(speakers=[""])',
        lambda m: m.context("hello", session="s1", speakers=[""]), "speakers[0]"),
    lib('effective_scope("s1", "")', lambda m: m.effective_scope("s1", ""), "platform"),
    lib('effective_retention("s1", "")', lambda m: m.effective_retention("s1", ""),
        "platform"),
    lib('get_session("")', lambda m: m.get_session(""), "session"),
    lib('sessions(only=[""])', lambda m: m.sessions(only=[""]), "only[0]"),
    lib('visible(platform="")', lambda m: m.visible([], visible_from="s1", platform=""),
        "platform"),
    lib('call_tool(caller platform="")',
        lambda m: m.call_tool({"query": "hello"}, {"session_id": "s1", "platform": ""}),
        "caller.platform"),
    lib('call_tool(caller speaker_id="")',
        lambda m: m.call_tool({"query": "hello"}, {"session_id": "s1", "speaker_id": ""}),
        "caller.speaker_id"),
    # HTTP: the query parameter or body field, with an owner key
    http("GET", "/v1/messages", {"platform": "", "visible_from": "s1"}, "platform"),
    http("GET", "/v1/messages", {"platform": ""}, "platform"),
    http("GET", "/v1/messages", {"session": ""}, "session"),
    http("GET", "/v1/messages", {"speaker_id": ""}, "speaker_id"),
    http("GET", "/v1/messages", {"visible_from": ""}, "visible_from"),
    http("GET", "/v1/messages", {"text": ""}, "text"),
    http("GET", "/v1/settings", {"session": "s1", "platform": ""}, "platform"),
    http("GET", "/v1/settings", {"session": ""}, "session"),
    http("GET", "/v1/retention", {"session": "s1", "platform": ""}, "platform"),
    http("POST", "/v1/messages/get", {"ids": ["m1"], "visible_from": "s1", "platform": ""},
         "platform"),
    http("POST", "/v1/messages/get", {"ids": ["m1", ""]}, "ids[1]"),
    http("POST", "/v1/messages/delete", {"ids": [""]}, "ids[0]"),
    http("POST", "/v1/forget", {"speaker_id": ""}, "speaker_id"),
    http("POST", "/v1/forget", {"session": "", "dry_run": True}, "session"),
    http("POST", "/v1/forget", {"resource_id": ""}, "resource_id"),
    http("POST", "/v1/recall", {"query": "hello", "session": ""}, "session"),
    http("POST", "/v1/recall", {"query": "hello", "session": "s1", "platform": ""},
         "platform"),
    http("POST", "/v1/recall", {"query": "hello", "session": "s1", "speakers": [""]},
         "speakers[0]"),
    http("POST", "/v1/recall", {"query": "hello", "exclude_ids": [""]}, "exclude_ids[0]"),
    http("POST", "/v1/context", {"turn": "hello", "session": ""}, "session"),
    http("POST", "/v1/context", {"turn": "hello", "session": "s1", "platform": ""},
         "platform"),
    http("POST", "/v1/tool", {"arguments": {"query": "hello"},
                              "caller": {"session_id": "s1", "platform": ""}},
         "caller.platform"),
    http("POST", "/v1/tool", {"arguments": {"query": "hello"},
                              "caller": {"session_id": "s1", "speaker_id": ""}},
         "caller.speaker_id"),
    http("POST", "/v1/rewrite", {"session": "", "ts": 1, "content": "x"}, "session"),
    # the CLI: the option as typed
    cli(["list", "--visible-from", "s1", "--platform", ""], "--platform"),
    cli(["list", "--session", ""], "--session"),
    cli(["list", "--speaker-id", ""], "--speaker-id"),
    cli(["list", "--visible-from", ""], "--visible-from"),
    cli(["list", "--text", ""], "--text"),
    cli(["forget", "--speaker-id", "", "--yes"], "--speaker-id"),
    cli(["forget", "--session", "", "--yes"], "--session"),
    cli(["forget", "--resource-id", "", "--dry-run"], "--resource-id"),
    cli(["recall", "--session", "", "hello"], "--session"),
    cli(["clear", "--session", "", "--yes"], "--session"),
    cli(["scope", "show", "--session", "s1", "--platform", ""], "--platform"),
    cli(["retention", "show", "--session", ""], "--session"),
    cli(["sessions", "--after", ""], "--after"),
    # the MCP server: the conversation it serves (chatmem mcp's options, create_server's
    # arguments) and memory_list's session
    cli(["mcp", "--platform", ""], "--platform"),
    cli(["mcp", "--speaker-id", ""], "--speaker-id"),
    cli(["mcp", "--session", ""], "--session"),
    mcp({"platform": ""}, "caller.platform"),
    mcp({"speaker_id": ""}, "caller.speaker_id"),
    mcp({"session": ""}, "session"),
    mcp(("memory_list", {"session": ""}), "session"),
]


async def _memory(db: str) -> Memory:
    return await Memory.open(db, embedder=Embedder(RecordingProvider()))


async def _seed(db: str) -> None:
    async with await _memory(db) as mem:
        await mem.add([{"content": "hello there", "id": "m1", "speaker_id": "alice"},
                       {"content": "see you at nine", "id": "m2", "speaker_id": "bob"}],
                      session="s1", platform="tg")
        await mem.set_scope("session", actor=OWNER, session="s1")
        await mem.flush(timeout=30)


async def _snapshot(db: str) -> Any:
    async with await _memory(db) as mem:
        stats = await mem.stats()
        page = await mem.list()
        return ([m.to_dict() for m in page.messages], await mem.index_states(["m1", "m2"]),
                stats["vectors_by_model"], (await mem.effective_scope("s1")).scope)


@pytest.mark.parametrize("how,call,name", CASES)
def test_an_empty_selector_is_invalid_input_naming_it_and_changes_nothing(
        tmp_path: Path, how: str, call: Any, name: str) -> None:
    db = f"sqlite:///{tmp_path}/alice.db"  # namespace alice's store, for the server
    asyncio.run(_seed(db))
    before = asyncio.run(_snapshot(db))
    if how == "library":
        async def run() -> str:
            async with await _memory(db) as mem:
                with pytest.raises(InvalidInput) as info:
                    await call(mem)
                return str(info.value)
        message = asyncio.run(run())
        assert f"{name} must not be empty" in message, message
    elif how == "http":
        method, path, data = call
        app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                         embedder=Embedder(RecordingProvider()))
        with running(app) as base, httpx.Client(
                base_url=base, headers={"Authorization": f"Bearer {ALICE}"}) as c:
            r = c.request(method, path, params=data if method == "GET" else None,
                          json=data if method != "GET" else None)
        # refused by the schema, as every empty id of the API (the client raises it as
        # InvalidInput), naming the parameter or field as sent, in the library's words
        assert r.status_code == 422, r.text
        error = r.json()["error"]
        assert error == {"type": "InvalidRequest", "message": f"{name} must not be empty"}
    elif how == "cli":
        words = 2 if call[0] in ("scope", "retention") else 1  # the command's own words
        res = CliRunner().invoke(main, [*call[:words], "--db", db, *call[words:]])
        assert res.exit_code == 2, res.output
        assert res.output == f"error: {name} must not be empty\n", res.output
    else:
        from chatmem.server.mcp import create_server

        async def opened() -> Memory:
            return await _memory(db)

        if isinstance(call, dict):  # the conversation served: refused at start
            served = {"session": "s1", **call}
            with pytest.raises(InvalidInput, match=rf"^{name} must (not be empty|be a "
                                                   "non-empty string)"):
                create_server(opened, **served)
        else:
            from mcp import Client

            async def listed() -> str:
                async with Client(create_server(opened, session="s1")) as client:
                    result = await client.call_tool(call[0], call[1])
                assert result.is_error
                return "\n".join(getattr(c, "text", "") for c in result.content)
            message = asyncio.run(listed())
            assert message.endswith(f"{call[0]}: {name} must not be empty"), message
    assert asyncio.run(_snapshot(db)) == before


#: (a recall's query with no words, the refusal): these recalled nothing in silence on
#: every door, as if the store held nothing relevant (R3: empty text gets a clear error).
EMPTY_QUERIES: list[tuple[Any, str]] = [
    ("", "query must not be empty"),
    ("   ", "query must not be empty"),
    (" \n\t", "query must not be empty"),
    ([], "query must hold a text with words, got []"),
    (["", "  "], 'query must hold a text with words, got ["", "  "]'),
]
#: A turn none of whose messages has words to search for (a tool call, a tool's result):
#: a turn may come so, and recalls nothing; only a query of text must have some.
WORDLESS_TURN = [
    {"role": "assistant", "content": None, "tool_calls": [{
        "id": "c1", "type": "function",
        "function": {"name": "memory_recall", "arguments": '{"query": "nine"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "see you at nine"},
]


@pytest.mark.parametrize("place", sorted(PLACES))
async def test_an_empty_query_is_refused_by_every_backend(tmp_path: Path, place: str) -> None:
    """The same calls over every backend give the same refusal (InvalidInput naming
    query); the model's tool the one it gave already; a turn without words still recalls
    nothing, and the stored messages and vectors are as they were."""
    async with PLACES[place](tmp_path) as where, await Memory.open(
            where.url, vector=where.vector, embedder=Embedder(RecordingProvider())) as mem:
        await mem.add([{"content": "see you at nine", "id": "m2"}], session="s1")
        await mem.flush(timeout=30)
        assert [h.message.id for h in (await mem.recall("nine", window=0)).hits] == ["m2"]
        for query, says in EMPTY_QUERIES:
            with pytest.raises(InvalidInput) as info:
                await mem.recall(query, session="s1")
            assert str(info.value) == says, query
        for blank in ("", "   "):
            with pytest.raises(InvalidInput) as info:
                await mem.call_tool({"query": blank}, {"session_id": "s1"})
            assert str(info.value) == "memory_recall: query must not be empty"
        # a turn: its messages, or text, without words recalls nothing, no error
        turn = await mem.turn_context(WORDLESS_TURN, session="s1")
        assert turn.recall.query is None and turn.recall.hits == ()
        for blank in ("", "   ", [], ["", " "]):
            context = await mem.context(blank, session="s1")
            assert all(m["role"] != "system" for m in context), blank
        result = await mem.recall(WORDLESS_TURN, session="s1")
        assert result.query is None and result.hits == ()
        assert (await mem.stats())["vectors_by_model"] == {
            Embedder(RecordingProvider()).model_id: 1}


def test_an_empty_query_is_refused_on_every_door(tmp_path: Path) -> None:
    """The HTTP API (400, as the library words it), the Python client, SyncMemory, the
    command line (QUERY, as it is typed there) and the MCP server's memory_recall (a tool
    error the model reads) refuse a query with no words; POST /v1/context still takes a
    turn without words."""
    from chatmem import SyncMemory
    from chatmem.client import Client

    db = f"sqlite:///{tmp_path}/alice.db"
    asyncio.run(_seed(db))
    before = asyncio.run(_snapshot(db))
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                     embedder=Embedder(RecordingProvider()))
    with running(app) as base, httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {ALICE}"}) as c:
        for query, says in EMPTY_QUERIES:
            r = c.post("/v1/recall", json={"query": query, "session": "s1"})
            assert r.status_code == 400, r.text
            assert r.json()["error"] == {"type": "InvalidInput", "message": says}
            r = c.post("/v1/context", json={"turn": query, "session": "s1"})
            assert r.status_code == 200, r.text
            assert all(m["role"] != "system" for m in r.json()["messages"]), r.text
        for blank in ("", "   "):
            r = c.post("/v1/tool", json={"arguments": {"query": blank},
                                         "caller": {"session_id": "s1"}})
            assert r.status_code == 400, r.text
            assert r.json()["error"] == {"type": "InvalidInput",
                                         "message": "memory_recall: query must not be empty"}
        with Client(base, ALICE) as client:
            for query, says in EMPTY_QUERIES:
                with pytest.raises(InvalidInput) as info:
                    client.recall(query, session="s1")
                assert str(info.value) == says, query
    with SyncMemory.open(db, embedder=Embedder(RecordingProvider())) as sync:
        for query, says in EMPTY_QUERIES:
            with pytest.raises(InvalidInput) as info:
                sync.recall(query, session="s1")
            assert str(info.value) == says, query
    for blank in ("", "   "):
        res = CliRunner().invoke(main, ["recall", "--db", db, "--session", "s1", blank])
        assert res.exit_code == 2, res.output
        assert res.output == "error: QUERY must not be empty\n", res.output

    from mcp import Client as McpClient

    from chatmem.server.mcp import create_server

    async def opened() -> Memory:
        return await _memory(db)

    async def recalled(query: str) -> str:
        async with McpClient(create_server(opened, session="s1")) as client:
            result = await client.call_tool("memory_recall", {"query": query})
        assert result.is_error
        return "\n".join(getattr(c, "text", "") for c in result.content)
    for blank in ("", "   "):
        assert asyncio.run(recalled(blank)) == \
            "Error executing tool memory_recall: query must not be empty"
    assert asyncio.run(_snapshot(db)) == before
