"""The ``memory_recall`` tool's arguments are accepted or refused the same way, in the
same words, whichever door they come through: the library (``parse_tool_arguments``,
``Memory.call_tool``), the MCP server (through the MCP SDK's client), the HTTP API's
``POST /v1/tool``; and those words are the HTTP API's own 422s for the same value of
``POST /v1/recall`` (``top_k must be an integer, got "5"``; a number out of range
there is refused in ``Memory.recall``'s words, its bounds not the tool's: the tool's
``top_k`` has no largest, a larger one is clamped).

Before, the library's check said ``top_k must be an integer ≥ 1`` for ``"5"``, ``true``
and 0 alike, ``query must be a non-empty string`` for 5 and ``""``, and quoted an
unknown argument (``unknown argument(s) 'topk'; it takes …``, no did-you-mean), where
MCP's tools and the HTTP API say what the value must be and what it was; and MCP
refused an unknown argument alone, the bad values beside it unsaid."""

from __future__ import annotations

import copy
import importlib.util
import json
import tracemalloc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import jsonschema
import pytest

from chatmem import InvalidInput, Memory, SyncMemory
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.server.http import KeyTable, create_app
from chatmem.tool import TOOL_ARGUMENTS, parse_tool_arguments, tool_schema
from providers import RecordingProvider
from servers import running

TAKES = "query, scope, context_window, cross_session, top_k"

#: Arguments, and the one refusal every door gives them (after ``memory_recall: ``).
REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"query": "tea", "top_k": "5"}, 'top_k must be an integer, got "5"'),
    ({"query": "tea", "top_k": True}, "top_k must be an integer, got true"),
    ({"query": "tea", "top_k": 5.5}, "top_k must be an integer, got 5.5"),
    ({"query": "tea", "context_window": 1.5}, "context_window must be an integer, got 1.5"),
    ({"query": "tea", "top_k": 0.0}, "top_k must be at least 1, got 0.0"),
    ({"query": "tea", "top_k": 0}, "top_k must be at least 1, got 0"),
    ({"query": "tea", "context_window": "2"}, 'context_window must be an integer, got "2"'),
    ({"query": "tea", "context_window": False},
     "context_window must be an integer, got false"),
    ({"query": "tea", "context_window": -1}, "context_window must be at least 0, got -1"),
    ({"query": "tea", "cross_session": "no"},
     'cross_session must be true or false, got "no"'),
    ({"query": "tea", "cross_session": 1}, "cross_session must be true or false, got 1"),
    ({"query": 5}, "query must be a string, got 5"),
    ({"query": ""}, "query must not be empty"),
    ({"query": "  "}, "query must not be empty"),
    ({}, "query is required"),
    ({"query": None}, "query is required"),
    ({"query": "tea", "scope": 5}, "scope must be a string, got 5"),
    ({"query": "tea", "topk": 3}, "unknown argument(s) topk (did you mean top_k?)"),
    ({"query": "tea", "colour": 1}, f"unknown argument(s) colour; it takes {TAKES}"),
    ({"query": "tea", "colour": 1, "top_k": "5"},
     f'top_k must be an integer, got "5"; unknown argument(s) colour; it takes {TAKES}'),
    # the library's own check (config.normalize_scope), in the same words: the value
    # as JSON (it said got str 'galaxy')
    ({"query": "tea", "scope": "galaxy"}, "scope must be one of all, user, platform, "
     'resource, session (or thread), got "galaxy"'),
]
IDS = [str(args) for args, _ in REFUSED]
#: Arguments every door takes: a null is an argument left out, a top_k over the
#: configured one is clamped to it (arguments only narrow).
TAKEN: list[dict[str, Any]] = [{"query": "tea", "top_k": None, "scope": None},
                               {"query": "tea", "top_k": 1000, "context_window": 1000},
                               {"query": "tea", "cross_session": False, "top_k": 1},
                               # an integer written with a point, as JSON Schema counts it
                               {"query": "tea", "top_k": 5.0, "context_window": 0.0},
                               {"query": "tea", "top_k": 1e3, "context_window": 2.0}]


@pytest.mark.parametrize("args,said", REFUSED, ids=IDS)
async def test_the_library_refuses_in_the_servers_words(mem: Memory, args: dict[str, Any],
                                                        said: str) -> None:
    with pytest.raises(InvalidInput) as info:
        parse_tool_arguments(args)
    assert str(info.value) == f"memory_recall: {said}"
    with pytest.raises(InvalidInput) as info:  # its JSON text, as a model sends it
        await mem.call_tool(json.dumps(args), {"session_id": "s1"})
    assert str(info.value) == f"memory_recall: {said}"


async def test_arguments_as_json_text_naming_a_key_twice_are_refused(mem: Memory) -> None:
    """The model's arguments as JSON text (OpenAI's tool_calls carry a string) that name
    a key twice: Python's json kept the last ("b"), where the servers refuse such a body
    (parsers disagree on which one counts); refused now, in their words."""
    for text, key in [('{"query": "a", "query": "b"}', "query"),
                      ('{"query": "a", "top_k": 2, "top_k": 3}', "top_k")]:
        with pytest.raises(InvalidInput) as info:
            parse_tool_arguments(text)
        assert str(info.value) == (f'memory_recall arguments: the key "{key}" appears twice '
                                   "in one object; send each key once")
        with pytest.raises(InvalidInput):
            await mem.call_tool(text, {"session_id": "s1"})


async def test_the_library_takes_what_the_servers_take(mem: Memory) -> None:
    for args in [*TAKEN, *NULLS]:
        out = await mem.call_tool(args, {"session_id": "s1"})
        assert out["text"] == "No matching memories.", args


async def test_the_mcp_server_refuses_in_the_same_words(bow_embedder: Embedder) -> None:
    pytest.importorskip("mcp")
    from mcp import Client
    from mcp.types import TextContent

    from chatmem.server.mcp import create_server

    async def open_memory() -> Memory:
        return await Memory.open("memory://", embedder=bow_embedder)

    async with Client(create_server(open_memory, session="s1")) as client:
        for args, said in REFUSED:
            result = await client.call_tool("memory_recall", args)
            text = "\n".join(c.text for c in result.content if isinstance(c, TextContent))
            assert result.is_error and text == (
                f"Error executing tool memory_recall: {said}"), (args, text)
        for args in [*TAKEN, *NULLS]:
            result = await client.call_tool("memory_recall", args)
            assert not result.is_error, args


@pytest.fixture
def api(tmp_path: Path) -> Iterator[httpx.Client]:
    key = "owner-key-0123456789abcdef"
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                     keys=KeyTable.from_mapping({"keys": {"o": {
                         "key": key, "namespace": "n", "role": "owner"}}}),
                     config=Config.load(), embedder=Embedder(RecordingProvider()))
    with running(app) as base, httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
        yield c


def test_the_http_api_refuses_in_the_same_words(api: httpx.Client) -> None:
    caller = {"session_id": "s1"}
    for args, said in REFUSED:
        r = api.post("/v1/tool", json={"arguments": args, "caller": caller})
        assert r.status_code == 400 and r.json()["error"] == {
            "type": "InvalidInput", "message": f"memory_recall: {said}"}, (args, r.text)
    for args in [*TAKEN, *NULLS]:
        r = api.post("/v1/tool", json={"arguments": args, "caller": caller})
        assert r.status_code == 200, (args, r.text)
    # the reference: the HTTP API's own schema refuses the same values of a recall so
    for args, said in [REFUSED[i] for i in (0, 1, 2, 9, 10)]:
        r = api.post("/v1/recall", json=args)
        assert r.status_code == 422 and r.json()["error"]["message"] == said, r.text


#: JSON text of numbers past a float's range (Python's json reads them as infinity), and
#: how a refusal names them: as sent, not "Infinity"
TOO_LARGE = [("1e400", "1e400, a number too large"),
             ("-2.5E+400", "-2.5E+400, a number too far below zero"),
             ("1" + "0" * 60 + "e400", "1" + "0" * 29 + "… (65 characters), a number too large")]


async def check_named_as_sent(mem: Memory, api: httpx.Client, number: str, shown: str,
                              more: list[tuple[str, str, str]]) -> None:
    """memory_recall's ``top_k`` written ``number`` is refused naming it ``shown``, by the
    library's tool, POST /v1/tool and /v1/recall; and so are the ``more`` bodies (path,
    body, words), posted as written (httpx writes no such number)."""
    caller = {"session_id": "s1"}
    text = f'{{"query": "tea", "top_k": {number}}}'
    said = f"memory_recall: top_k must be an integer, got {shown}"
    with pytest.raises(InvalidInput) as info:
        await mem.call_tool(text, caller)
    assert str(info.value) == said
    r = api.post("/v1/tool", json={"arguments": text, "caller": caller})
    assert r.status_code == 400 and r.json()["error"]["message"] == said, r.text
    for path, body, words in [
            ("/v1/tool", f'{{"caller": {{"session_id": "s1"}}, "arguments": {text}}}', said),
            ("/v1/recall", text, f"top_k must be an integer, got {shown}"),
            ("/v1/messages", f'{{"messages": [{{"session_id": "s1", "content": "x", '
                             f'"ts": {number}}}]}}',
             f"messages[0].ts must be an integer, got {shown}"), *more]:
        r = api.post(path, content=body, headers={"Content-Type": "application/json"})
        assert r.status_code in (400, 422) and r.json()["error"]["message"] == words, \
            (path, body[:80], r.text)


async def test_a_number_past_a_floats_range_is_named_as_sent(
        mem: Memory, api: httpx.Client) -> None:
    """``"top_k": 1e400`` was refused as "got Infinity", which the model or user never
    sent (Python's json reads it as infinity): the library's tool (arguments as JSON
    text), POST /v1/tool (arguments as an object or as JSON text), and the HTTP API's own
    bodies (/v1/recall, /v1/messages) now name the number as sent and what is wrong."""
    for number, shown in TOO_LARGE:
        await check_named_as_sent(mem, api, number, shown, [
            ("/v1/recall", f'{{"query": "tea", "min_score": {number}}}',
             f"min_score must be a number from 0 to 1, got {shown}"),
            ("/v1/messages", f'{{"messages": [{{"session_id": "s1", "content": "x", '
                             f'"metadata": {{"n": {number}}}}}]}}',
             f"messages[0].metadata.n: {shown} (use a finite number, a string or null)")])
    # Infinity and NaN (not JSON) are what was sent
    with pytest.raises(InvalidInput, match="got Infinity$"):
        await mem.call_tool('{"query": "tea", "top_k": Infinity}', {"session_id": "s1"})


async def test_a_number_too_close_to_zero_is_named_as_sent(
        mem: Memory, api: httpx.Client) -> None:
    """``"top_k": 1e-400`` (Python's json reads it as 0.0) was refused as "got 0.0",
    which the model or user never sent: the library's tool, POST /v1/tool and the HTTP
    API's own bodies now name the number as sent (an integer it is not: JSON Schema's
    integer is a whole number). Where a number that reads as 0 is allowed, it still is."""
    for number in ("1e-400", "-2.5E-999"):
        await check_named_as_sent(mem, api, number, f"{number}, a number too close to zero",
                                  [])
    r = api.post("/v1/recall", content='{"query": "tea", "min_score": 1e-400}',
                 headers={"Content-Type": "application/json"})
    assert r.status_code == 200, r.text


def test_a_huge_argument_is_refused_without_reading_it_through() -> None:
    """memory_recall's check (the MCP server runs it in its event loop, as POST /v1/tool
    does) wrote a refused value out whole to quote 80 characters of it, and read a long
    string through before its length: 4 MB of small lists for ``scope`` took 0.3 s, a
    4 MB ``top_k`` string a copy of 8 MB. Each is now refused reading only what its
    words show. Work is measured as memory the check takes (the copies made), not time."""
    big = "s" * 4_000_000
    for arguments, said in [
            ({"query": "x", "scope": big},
             'scope must be one of all, user, platform, resource, session (or thread), got "'),
            ({"query": "x", "top_k": big}, 'top_k must be an integer, got "sss'),
            ({"query": "x", "scope": [big]}, 'scope must be a string, got ["sss'),
            ({"query": "x", "scope": [[0]] * 100_000}, "scope must be a string, got [[0], [0]"),
            ({"query": "x", "context_window": {"a": [big]}},
             'context_window must be an integer, got {"a": ["sss'),
            ({"query": big + "\x00"}, "query is longer than 200000 characters (4000001)")]:
        tracemalloc.start()
        try:
            with pytest.raises(InvalidInput) as info:
                parse_tool_arguments(arguments)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert str(info.value).startswith(f"memory_recall: {said}"), str(info.value)[:200]
        assert len(str(info.value)) < 300
        assert peak < 100_000, (said, peak)


#: What a memory_recall may ask beyond this configuration's top_k (3) and window (1
#: before, 2 after): more is clamped to it (arguments only narrow), so the schema allows
#: it; the schema said maximum 3 and 2, which a model following it never sent.
OVER: list[dict[str, Any]] = [{"query": "tea", "top_k": 50},
                              {"query": "tea", "context_window": 9},
                              {"query": "tea", "top_k": 4, "context_window": 3}]
#: The refusals a schema says too: not a blank query; the tool says that.
SCHEMA_REFUSED = [args for args, said in REFUSED if "query must not be empty" not in said]


#: Each optional argument sent as null (many models send one for an argument they leave
#: out), and all of them at once: the tool takes each as left out.
NULLS: list[dict[str, Any]] = [*({"query": "tea", name: None} for name in TOOL_ARGUMENTS
                                 if name != "query"),
                               {name: None for name in TOOL_ARGUMENTS} | {"query": "tea"}]


def _types(node: Any) -> Iterator[Any]:
    """Every ``type`` keyword's value in a schema, at any depth."""
    if isinstance(node, dict):
        if "type" in node:
            yield node["type"]
        for value in node.values():
            yield from _types(value)
    elif isinstance(node, list):
        for value in node:
            yield from _types(value)


def _check_schema(parameters: dict[str, Any]) -> None:
    """Every argument set the tool takes is valid under its published ``parameters``,
    as sent (a null too, which the tool takes as left out) and with its nulls left out;
    every one refused for its type, bound or name is not; the descriptions say the
    clamp. A null is a union with null, not a list of types, which Gemini's function
    declarations refuse."""
    checker = jsonschema.Draft202012Validator(parameters)
    for args in [*TAKEN, *OVER, *NULLS]:
        given = {k: v for k, v in args.items() if v is not None}
        assert not list(checker.iter_errors(given)), (args, parameters)
        assert not list(checker.iter_errors(args)), (args, parameters)
    for args in SCHEMA_REFUSED:
        given = {k: v for k, v in args.items() if v is not None}
        assert list(checker.iter_errors(given)), (args, parameters)
        assert list(checker.iter_errors(args)), (args, parameters)
    assert all(isinstance(kind, str) for kind in _types(parameters)), parameters
    props = parameters["properties"]
    assert "a larger number gives 3" in props["top_k"]["description"], props
    assert "at most 1 before and 2 after" in props["context_window"]["description"], props


CLAMPING = {"search": {"top_k": 3}, "context_expand": {"window": {"before": 1, "after": 2}}}


async def test_the_schema_allows_what_every_door_takes_and_says_the_clamp(
        tmp_path: Path, bow_embedder: Embedder) -> None:
    """The published schema (Memory.tool_schema, GET /v1/tool, the MCP server's
    tools/list) allows every value the tool takes: a top_k or context_window over the
    configured one is taken, clamped to it, and the schema says so in words rather than
    with a maximum that the tool did not hold to; a null for an optional argument is
    taken as left out, and the schema allows it (it allowed the values alone, so a
    model's call with ``"top_k": null`` was invalid for the schema and taken by the
    tool)."""
    pytest.importorskip("mcp")
    from mcp import Client

    from chatmem.server.mcp import create_server

    db = f"sqlite:///{tmp_path}/n.db"
    async with await Memory.open(db, config=Config.load(CLAMPING),
                                 embedder=bow_embedder) as mem:
        await mem.add([{"content": f"tea note {i}"} for i in range(6)], session="s1")
        await mem.flush(timeout=30)
        _check_schema(mem.tool_schema()["function"]["parameters"])
        for args in OVER:
            out = await mem.call_tool(args, {"session_id": "s1"})
            assert 1 <= len(out["hits"]) <= 3, (args, out)

    async def open_memory() -> Memory:
        return await Memory.open(db, config=Config.load(CLAMPING), embedder=bow_embedder)

    async with Client(create_server(open_memory, session="s1")) as client:
        [tool] = [t for t in (await client.list_tools()).tools if t.name == "memory_recall"]
        _check_schema(tool.input_schema)
        for args in OVER:
            assert not (await client.call_tool("memory_recall", args)).is_error, args

    key = "owner-key-0123456789abcdef"
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                     keys=KeyTable.from_mapping({"keys": {"o": {
                         "key": key, "namespace": "n", "role": "owner"}}}),
                     config=Config.load(CLAMPING), embedder=bow_embedder)
    with running(app) as base, httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
        _check_schema(c.get("/v1/tool").json()["function"]["parameters"])
        for args in OVER:
            r = c.post("/v1/tool", json={"arguments": args, "caller": {"session_id": "s1"}})
            assert r.status_code == 200 and 1 <= len(r.json()["hits"]) <= 3, r.text


#: The keywords OpenAI's strict function calling takes (Structured Outputs, "Supported
#: schemas": the types, objects' properties/required/additionalProperties, enum, const,
#: anyOf, items, $defs/$ref, descriptions; for strings pattern and format, for numbers
#: multipleOf, maximum, exclusiveMaximum, minimum, exclusiveMinimum, for arrays minItems
#: and maxItems). Any other keyword (minLength, oneOf, allOf, not, patternProperties, …)
#: is refused by the API in strict mode.
STRICT_KEYWORDS = {"type", "properties", "required", "additionalProperties", "description",
                   "enum", "const", "anyOf", "items", "$defs", "$ref",
                   "pattern", "format",
                   "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
                   "minItems", "maxItems"}


def _strict_rules(node: dict[str, Any], where: str = "parameters") -> None:
    """OpenAI's strict rules, at every level: only the keywords it takes; every object
    closed (additionalProperties false) and requiring each of its properties."""
    assert set(node) <= STRICT_KEYWORDS, (where, sorted(set(node) - STRICT_KEYWORDS))
    kinds = node.get("type")
    if kinds == "object" or (isinstance(kinds, list) and "object" in kinds):
        assert node.get("additionalProperties") is False, where
        assert node.get("required") == list(node.get("properties", {})), where
    for name, sub in node.get("properties", {}).items():
        _strict_rules(sub, f"{where}.{name}")
    for i, sub in enumerate(node.get("anyOf", [])):
        _strict_rules(sub, f"{where}.anyOf[{i}]")
    for name, sub in node.get("$defs", {}).items():
        _strict_rules(sub, f"{where}.$defs.{name}")
    if isinstance(node.get("items"), dict):
        _strict_rules(node["items"], f"{where}.items")


def _filled(args: dict[str, Any]) -> dict[str, Any]:
    """The arguments as a strict model sends them: every one, null for one left out."""
    return {**{name: None for name in TOOL_ARGUMENTS}, **args}


def _check_strict(tool: dict[str, Any], default: dict[str, Any]) -> None:
    """``tool`` is the strict form of ``default``: OpenAI's strict rules hold, and the
    schema takes (and refuses) every argument set, all present and null for those left
    out, as the default one takes (refuses) it with those left out."""
    fn = tool["function"]
    assert fn["strict"] is True and "strict" not in default["function"]
    assert {k: v for k, v in fn.items() if k not in ("strict", "parameters")} == {
        k: v for k, v in default["function"].items() if k != "parameters"}
    parameters = fn["parameters"]
    assert parameters["type"] == "object" and "anyOf" not in parameters
    _strict_rules(parameters)
    loose = jsonschema.Draft202012Validator(default["function"]["parameters"])
    checker = jsonschema.Draft202012Validator(parameters)
    for args in [*TAKEN, *OVER, *NULLS, *SCHEMA_REFUSED]:
        given = {k: v for k, v in args.items() if v is not None}
        assert checker.is_valid(_filled(args)) == loose.is_valid(given), (args, parameters)
    for args in [*TAKEN, *OVER]:
        assert checker.is_valid(_filled(args)), args
    # the same bounds and descriptions, a null beside each optional argument's values
    for name, prop in default["function"]["parameters"]["properties"].items():
        strict = parameters["properties"][name]
        assert strict["description"] == prop["description"], name
        assert checker.is_valid(_filled({"query": "tea", name: None})) == (name != "query")
    if importlib.util.find_spec("agents") is not None:  # the Agents SDK's own check
        from agents.strict_schema import ensure_strict_json_schema

        assert ensure_strict_json_schema(copy.deepcopy(parameters)) == parameters


def test_a_strict_model_s_arguments_are_taken_as_the_same_left_out_ones() -> None:
    """A model in strict mode sends every argument, null for one it leaves out: the tool
    takes them as left out, and refuses the rest in the same words."""
    for args in [*TAKEN, *OVER]:
        given = {k: v for k, v in args.items() if v is not None}
        assert parse_tool_arguments(_filled(args)) == parse_tool_arguments(given), args
        assert parse_tool_arguments(json.dumps(_filled(args))) == parse_tool_arguments(given)
    for args, said in REFUSED:
        with pytest.raises(InvalidInput) as info:
            parse_tool_arguments(_filled(args))
        assert str(info.value) == f"memory_recall: {said}", args


async def test_the_strict_schema_is_openai_strict_and_means_the_same(
        tmp_path: Path, bow_embedder: Embedder) -> None:
    """Memory.tool_schema(strict=True), the Python client's and GET /v1/tool?strict=true
    are what OpenAI's strict function calling takes ("strict": true, every argument
    required and each optional one nullable, no other, only keywords it supports), of
    the default schema's meaning; the default schema is as it was. Before, there was no
    strict form: the default one, with strict set, is refused by the API (its optional
    arguments are not required), and the Agents SDK's strict check rewrote it to require
    all five, none nullable."""
    from chatmem.client import AsyncClient

    db = f"sqlite:///{tmp_path}/n.db"
    async with await Memory.open(db, config=Config.load(CLAMPING),
                                 embedder=bow_embedder) as mem:
        default = mem.tool_schema()
        assert default == tool_schema(Config.load(CLAMPING))
        assert default["function"]["parameters"]["required"] == ["query"]
        _check_strict(mem.tool_schema(strict=True), default)
        await mem.add([{"content": f"tea note {i}"} for i in range(6)], session="s1")
        await mem.flush(timeout=30)
        for args in [*TAKEN, *OVER]:
            out = await mem.call_tool(json.dumps(_filled(args)), {"session_id": "s1"})
            assert 1 <= len(out["hits"]) <= 3, (args, out)
        with pytest.raises(InvalidInput) as info:
            mem.tool_schema(strict="yes")  # type: ignore[arg-type]
        assert str(info.value) == 'strict must be true or false, got "yes"'

    key = "owner-key-0123456789abcdef"
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                     keys=KeyTable.from_mapping({"keys": {"o": {
                         "key": key, "namespace": "n", "role": "owner"}}}),
                     config=Config.load(CLAMPING), embedder=bow_embedder)
    with running(app) as base:
        async with httpx.AsyncClient(base_url=base, timeout=30, headers={
                "Authorization": f"Bearer {key}"}) as c:
            assert (await c.get("/v1/tool")).json() == default
            assert (await c.get("/v1/tool?strict=false")).json() == default
            _check_strict((await c.get("/v1/tool?strict=true")).json(), default)
            r = await c.get("/v1/tool?strict=maybe")  # as newest_first= is refused
            assert r.status_code == 422 and r.json()["error"]["message"] == (
                "strict must be true or false, got maybe"), r.text
            for args in [*TAKEN, *OVER]:
                r = await c.post("/v1/tool", json={"arguments": _filled(args),
                                                   "caller": {"session_id": "s1"}})
                assert r.status_code == 200 and 1 <= len(r.json()["hits"]) <= 3, r.text
        async with AsyncClient(base, key) as client:
            assert await client.tool_schema() == default
            _check_strict(await client.tool_schema(strict=True), default)
            with pytest.raises(InvalidInput) as info:
                await client.tool_schema(strict=1)  # type: ignore[arg-type]
            assert str(info.value) == "strict must be true or false, got 1"


def test_the_sync_memory_gives_the_strict_schema(tmp_path: Path) -> None:
    with SyncMemory.open(f"sqlite:///{tmp_path}/s.db", semantic_recall=False) as mem:
        assert mem.tool_schema() == mem.memory.tool_schema()
        _check_strict(mem.tool_schema(strict=True), mem.tool_schema())
        assert mem.tool_schema(strict=True) == mem.memory.tool_schema(strict=True)
