"""R3 for the library's remaining entry points (audit 1): every bad argument of
``Memory`` is a ChatmemError naming it, never a raw exception, and changes nothing.

* ``platform`` of get / list / visible / effective_scope / effective_retention /
  situation is text: a mapping there became filter operators of the visibility filter
  and widened scope ``platform`` to every platform (R4);
* a filter value with a lone surrogate is a FilterError, not a UnicodeEncodeError;
* the configuration integers that had no upper bound have one;
* clear / set_scope / set_retention / flush / visible / open check their arguments.
"""

from __future__ import annotations

import inspect
import io
import math
import re
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from chatmem import Memory, Message
from chatmem.client import AsyncClient
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ChatmemError, ConfigError, FilterError, InvalidInput
from chatmem.scopes import Actor
from chatmem.tool import Caller
from chatmem.transfer import export_jsonl
from providers import RecordingProvider

OWNER = {"id": "root", "role": "owner"}


async def _platform_world() -> Memory:
    """Scope ``platform``: alice on telegram, bob on discord."""
    mem = await Memory.open("memory://", embedder=Embedder(RecordingProvider(dim=16)),
                            config=Config.load(indexing={"concurrency": 1}, scope="platform"))
    await mem.add([{"content": "secret on telegram", "id": "tg1"}], session="alice-tg",
                  platform="telegram")
    await mem.add([{"content": "hello on discord", "id": "dc1"}], session="bob-dc",
                  platform="discord")
    await mem.flush(timeout=30)
    return mem


async def _snapshot(mem: Memory) -> str:
    out = io.StringIO()
    await export_jsonl(mem.storage, out, vectors=True)
    return out.getvalue()


def _probe(session: str = "alice-tg") -> Message:
    return Message(session_id=session, content="x", id="tg1", platform="telegram")


#: Platforms that are not text: operators, a list, a number, a lone surrogate, NUL, huge.
BAD_PLATFORMS: list[Any] = [{"$exists": True}, {"$ne": "x"}, ["discord"], 5, "\ud800",
                            "disc\x00ord", "d" * 513]

#: Each entry point that reads ``platform``, called from bob's session.
PLATFORM_CALLS: dict[str, Callable[[Memory, Any], Awaitable[Any]]] = {
    "list": lambda m, p: m.list_messages(visible_from="bob-dc", platform=p),
    "list without visible_from": lambda m, p: m.list_messages(platform=p),
    "get": lambda m, p: m.get(["tg1", "dc1"], visible_from="bob-dc", platform=p),
    "visible": lambda m, p: m.visible([_probe()], visible_from="bob-dc", platform=p),
    "effective_scope": lambda m, p: m.effective_scope("bob-dc", p),
    "effective_retention": lambda m, p: m.effective_retention("bob-dc", p),
    "situation": lambda m, p: m.situation("bob-dc", p),
}


@pytest.mark.parametrize("call", list(PLATFORM_CALLS), ids=list(PLATFORM_CALLS))
@pytest.mark.parametrize("platform", BAD_PLATFORMS,
                         ids=[repr(p)[:20] for p in BAD_PLATFORMS])
async def test_a_platform_that_is_not_text_is_refused_naming_platform(
        call: str, platform: Any) -> None:
    mem = await _platform_world()
    try:
        before = await _snapshot(mem)
        with pytest.raises(InvalidInput, match="platform"):
            await PLATFORM_CALLS[call](mem, platform)
        assert await _snapshot(mem) == before
    finally:
        await mem.close()


async def test_filter_operators_as_platform_never_widen_scope_platform() -> None:
    """The audit's injection: ``platform={"$exists": True}`` showed bob telegram's
    messages under scope ``platform``; an honest platform shows only discord's."""
    mem = await _platform_world()
    try:
        page = await mem.list_messages(visible_from="bob-dc", platform="discord")
        assert [m.id for m in page.messages] == ["dc1"]
        assert list(await mem.get(["tg1", "dc1"], visible_from="bob-dc",
                                  platform="discord")) == ["dc1"]
        assert await mem.visible([_probe()], visible_from="bob-dc", platform="discord") == []
        for op in ({"$exists": True}, {"$ne": "x"}, {"$in": ["telegram", "discord"]}):
            with pytest.raises(InvalidInput, match="platform must be a string"):
                await mem.list_messages(visible_from="bob-dc", platform=op)  # type: ignore[arg-type]
            with pytest.raises(InvalidInput, match="platform must be a string"):
                await mem.get(["tg1"], visible_from="bob-dc", platform=op)  # type: ignore[arg-type]
            with pytest.raises(InvalidInput, match="platform must be a string"):
                await mem.visible([_probe()], visible_from="bob-dc", platform=op)  # type: ignore[arg-type]
    finally:
        await mem.close()


@pytest.mark.parametrize("session", [5, None, b"s", "", "\ud800", "a\x00b", "s" * 513])
async def test_situation_checks_its_session_as_a_label(session: Any) -> None:
    mem = await _platform_world()
    try:
        with pytest.raises(InvalidInput, match="session"):
            await mem.situation(session)
    finally:
        await mem.close()


# ---------------------------------------------------------------------- filter values

@pytest.mark.parametrize("filter_", [
    {"topic": "\ud800"},
    {"topic": {"$in": ["ok", "\udfff"]}},
    {"message.tag": {"$ne": "\ud83d"}},
    {"$or": [{"a": 1}, {"b": {"$nin": ["x\udc00y"]}}]},
], ids=["eq", "in", "ne", "nin under or"])
@pytest.mark.parametrize("where", ["memory", "sqlite"])
async def test_a_lone_surrogate_in_a_filter_value_is_a_filter_error(
        filter_: dict[str, Any], where: str, tmp_path: Path) -> None:
    url = "memory://" if where == "memory" else f"sqlite:///{tmp_path / 'f.db'}"
    mem = await Memory.open(url, embedder=Embedder(RecordingProvider(dim=16)),
                            config=Config.load(indexing={"concurrency": 1}))
    try:
        await mem.add([{"content": "I love hiking in the alps"}], session="s1")
        await mem.flush(timeout=30)
        with pytest.raises(FilterError, match=r"^filter[.[].*valid UTF-8"):
            await mem.recall("hiking", session="s1", filter=filter_)
    finally:
        await mem.close()


# ---------------------------------------------------------------------- config bounds

@pytest.mark.parametrize("options,field,limit", [
    ({"last_messages": 2**63}, "last_messages", 1000),
    ({"last_messages": 1001}, "last_messages", 1000),
    ({"indexing": {"concurrency": 10**6}}, "indexing.concurrency", 64),
    ({"indexing": {"concurrency": 2**40}}, "indexing.concurrency", 64),
    ({"indexing": {"max_queue_size": 2**63}}, "indexing.max_queue_size", 100000),
    ({"embedding": {"threads": 2**40}}, "embedding.threads", 256),
    ({"indexing": {"retry_max_s": 1e17}}, "indexing.retry_max_s", 86400),
    ({"indexing": {"retry_initial_s": 1e17, "retry_max_s": 1e17}},
     "indexing.retry_initial_s", 86400),
])
def test_unbounded_config_integers_have_an_upper_bound(options: dict[str, Any], field: str,
                                                       limit: int) -> None:
    with pytest.raises(ConfigError, match=re.escape(field) + r".*at most "
                       + str(limit)):
        Config.load(**options)


def test_config_integers_at_their_bound_are_accepted() -> None:
    cfg = Config.load(last_messages=1000, embedding={"threads": 256},
                      indexing={"concurrency": 64, "max_queue_size": 100_000})
    assert (cfg.last_messages, cfg.embedding.threads) == (1000, 256)
    assert (cfg.indexing.concurrency, cfg.indexing.max_queue_size) == (64, 100_000)
    # 0 or less still means unlimited
    assert Config.load(indexing={"concurrency": -1, "max_queue_size": 0}).indexing \
        .concurrency == -1


async def test_open_refuses_a_huge_last_messages_instead_of_failing_every_context() -> None:
    with pytest.raises(ConfigError, match="last_messages"):
        await Memory.open("memory://", embedder=Embedder(RecordingProvider(dim=16)),
                          last_messages=2**63)


def test_readme_documents_the_new_bounds() -> None:
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    rows = {line.split("|")[1].strip(): line for line in readme.splitlines()
            if line.startswith("| `")}
    assert "at most 64" in rows["`indexing.concurrency`"]
    assert "at most 100,000" in rows["`indexing.max_queue_size`"]
    assert "0–256" in rows["`embedding.threads`"]
    assert "0–1000" in rows["`last_messages`"]
    assert "at most 86,400" in rows["`indexing.retry_max_s`"]
    assert "at most 86,400" in rows["`indexing.retry_initial_s`"]


# ---------------------------------------------------------------------- other arguments

async def _seeded() -> Memory:
    mem = await Memory.open("memory://", embedder=Embedder(RecordingProvider(dim=16)),
                            config=Config.load(indexing={"concurrency": 1}))
    await mem.add([{"content": "hello there", "id": "m1"}], session="s1", platform="tg")
    await mem.set_scope("session", actor=OWNER, session="s1")  # so that visible() filters
    await mem.flush(timeout=30)
    return mem


BAD_CALLS: list[tuple[str, Callable[[Memory], Awaitable[Any]], str]] = [
    ("clear session past 64 bits", lambda m: m.clear("vector", session=2**70),  # type: ignore[arg-type]
     "session must be a string"),
    ("clear session lone surrogate", lambda m: m.clear("all", session="\ud800"), "session"),
    ("clear session int", lambda m: m.clear("all", session=1), "session"),  # type: ignore[arg-type]
    ("clear session bytes", lambda m: m.clear("context", session=b"s1"),  # type: ignore[arg-type]
     "session"),
    ("clear session empty", lambda m: m.clear("all", session=""), "session"),
    ("set_scope session lone surrogate",
     lambda m: m.set_scope("session", actor=OWNER, session="\ud800"), "session"),
    ("set_scope session NUL", lambda m: m.set_scope("session", actor=OWNER, session="a\x00b"),
     "session"),
    ("set_scope platform lone surrogate",
     lambda m: m.set_scope("all", actor=OWNER, layer="platform", platform="\udfff"),
     "platform"),
    ("set_scope chat_type dict",
     lambda m: m.set_scope("all", actor=OWNER, layer="chat_type", platform="tg",
                           chat_type={"$ne": 1}),  # type: ignore[arg-type]
     "chat_type"),
    ("set_retention group_id lone surrogate",
     lambda m: m.set_retention(5, actor=OWNER, layer="group", platform="tg",
                               group_id="\ud800"), "group_id"),
    ("set_retention session too long",
     lambda m: m.set_retention(5, actor=OWNER, session="s" * 513), "session"),
    ("flush timeout as text", lambda m: m.flush("5"), "timeout"),  # type: ignore[arg-type]
    ("flush negative timeout", lambda m: m.flush(-1), "timeout"),
    ("flush NaN timeout", lambda m: m.flush(math.nan), "timeout"),
    ("flush timeout past any float", lambda m: m.flush(10**400), "timeout"),
    ("flush timeout True", lambda m: m.flush(True), "timeout"),
    ("visible metadata None",
     lambda m: m.visible([Message(session_id="s1", content="x", metadata=None)],  # type: ignore[arg-type]
                         visible_from="s1"), "messages[0].metadata"),
    ("visible ts as text",
     lambda m: m.visible([Message(session_id="s1", content="x"),
                          Message(session_id="s1", content="x", ts="5")],  # type: ignore[arg-type]
                         visible_from="s1"), "messages[1].ts"),
    ("visible session_id int",
     lambda m: m.visible([Message(session_id=5, content="x")],  # type: ignore[arg-type]
                         visible_from="s1"), "messages[0].session_id"),
    ("visible mentions None",
     lambda m: m.visible([Message(session_id="s1", content="x", mentions=None)],  # type: ignore[arg-type]
                         visible_from="s1"), "messages[0].mentions"),
]


@pytest.mark.parametrize("label,call,names", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
async def test_bad_argument_is_invalid_input_naming_it_and_changes_nothing(
        label: str, call: Callable[[Memory], Awaitable[Any]], names: str) -> None:
    mem = await _seeded()
    try:
        before = await _snapshot(mem)
        with pytest.raises(InvalidInput) as info:
            await call(mem)
        assert names in str(info.value)
        assert await _snapshot(mem) == before
        assert (await mem.effective_scope("s1")).scope == "session"
    finally:
        await mem.close()


@pytest.mark.parametrize("change", ["scope", "retention"])
@pytest.mark.parametrize(("actor", "says"), [
    ({"id": "root", "role": "owner", "rol": "user"},
     "actor: unknown field(s) rol (did you mean role?)"),
    ({"id": "root", "rle": "owner"}, "actor: unknown field(s) rle (did you mean role?)"),
    ({"id": "root", "role": "owner", "name": "Root"},
     "actor: unknown field(s) name; it takes id, role"),
    ({"user_id": "root", "role": "owner"},
     "actor: unknown field(s) user_id; it takes id, role"),
    ({"id": "root", "role": "owner", 10**5000: 1},
     "actor: unknown field(s) an integer of more than 4,300 digits"),
    ({"id": 5, "role": "owner"}, "actor.id must be a string, got 5"),
    ({"id": None, "role": "owner"}, "actor.id must be a string, got null"),
    ({"id": ["root"], "role": "owner"}, 'actor.id must be a string, got ["root"]'),
    ({"id": "root", "role": 5}, "actor.role must be a string, got 5"),
    ({"id": "root", "role": None}, "actor.role must be a string, got null"),
    ({"id": "root", "role": ["owner"]}, 'actor.role must be a string, got ["owner"]'),
    (Actor(id=5, role="owner"), "actor.id must be a string, got 5"),  # type: ignore[arg-type]
    (Actor(id="root", role=["owner"]),  # type: ignore[arg-type]
     'actor.role must be a string, got ["owner"]'),
], ids=["rol", "rle", "name", "user_id", "key past str()", "id 5", "id None", "id list",
        "role 5", "role None", "role list", "Actor id 5", "Actor role list"])
async def test_an_actor_key_set_scope_does_not_take_is_refused_naming_the_one_meant(
        change: str, actor: Any, says: str) -> None:
    """README § Scopes: set_scope(scope, actor={"id": …, "role": "owner"}). An actor
    mapping with another key was passed over: {"id": "root", "rle": "owner"} was
    refused as 'root has role "user"' (the misspelt role never read), {"id": "root",
    "role": "owner", "rol": "user"} changed the setting. Now it is refused as
    call_tool's caller is, naming the key (and the one meant), and nothing changes.
    An id or role that is not text ({"id": 5, "role": "owner"}, {"id": "root", "role":
    ["owner"]}) was refused as PermissionDenied ('… needs an actor with the owner role',
    or 'root has role "[\'owner\']"'), as if no actor had been given: now it is named."""
    mem = await _seeded()
    try:
        before = await _snapshot(mem)
        with pytest.raises(InvalidInput) as info:
            if change == "scope":
                await mem.set_scope("all", actor=actor, session="s1")
            else:
                await mem.set_retention(5, actor=actor, session="s1")
        assert str(info.value).startswith(says)
        assert await _snapshot(mem) == before
        assert (await mem.effective_scope("s1")).scope == "session"
        assert (await mem.effective_retention("s1")).layer == "config"
    finally:
        await mem.close()


@pytest.mark.parametrize(("session_id", "says"), [
    ({"id": "s1"}, 'caller.session_id must be a string, got {"id": "s1"}'),
    (5, "caller.session_id must be a string, got 5"),
    (["s1"], 'caller.session_id must be a string, got ["s1"]'),
    (b"s1", "caller.session_id must be a string, got bytes b's1'"),
    (None, "caller.session_id is required (the calling session)"),
    ("", "caller.session_id is required (the calling session)"),
    ("  ", "caller.session_id is required (the calling session)"),
], ids=["mapping", "int", "list", "bytes", "None", "empty", "blank"])
async def test_a_caller_session_id_that_is_not_text_is_named_as_what_it_is(
        session_id: Any, says: str) -> None:
    """call_tool(arguments, caller={"session_id": {…}}) said 'caller.session_id is
    required (the calling session)': it was given, of the wrong type. Now it says so, as
    every other argument does; one left out (or empty) is still required."""
    mem = await _seeded()
    try:
        for caller in ({"session_id": session_id}, Caller(session_id)):
            with pytest.raises(InvalidInput) as info:
                await mem.call_tool({"query": "hello"}, caller)
            assert str(info.value) == says
    finally:
        await mem.close()


async def test_good_arguments_still_work() -> None:
    mem = await _seeded()
    try:
        await mem.flush(0.0 + 30)
        await mem.flush(30)
        shown = await mem.visible([Message(session_id="s1", content="x"),
                                   Message(session_id="s2", content="y")], visible_from="s1")
        assert [m.session_id for m in shown] == ["s1"]
        assert (await mem.clear("vector", session="s1"))["vectors"] == 1
        await mem.set_retention(5, actor=OWNER, layer="group", platform="tg", group_id="g")
        assert (await mem.clear("all", session="s1"))["messages"] == 1
    finally:
        await mem.close()


@pytest.mark.parametrize("args,kwargs,names", [
    ((None,), {}, "url"),
    ((5,), {}, "url"),
    ((b"x.db",), {}, "url"),
    (("/tmp/\ud800.db",), {}, "url"),
    (("memory://",), {"vector": 5}, "vector"),
    (("memory://",), {"vector": "qdrant+local://\udfff"}, "vector"),
    (("memory://",), {"env": ["X=1"]}, "env"),
    (("memory://",), {"env": {"CHATMEM_SEARCH__TOP_K": 5}}, "env"),
    (("memory://",), {"create": "no"}, "create"),
    (("memory://",), {"create": 0}, "create"),
    # the store's error held the whole url: 'cannot open the store …xxx…: File name too
    # long' of 100,000 characters
    (("x" * 100_000,), {}, r"^url is longer than 4096 characters \(100000\)$"),
    (("memory://",), {"vector": "qdrant://" + "h" * 5000},
     r"^vector is longer than 4096 characters"),
], ids=["url None", "url int", "url bytes", "url surrogate", "vector int",
        "vector surrogate", "env list", "env int value", "create 'no'", "create 0",
        "url 100,000 characters", "vector 5,000 characters"])
async def test_open_checks_its_arguments(args: tuple[Any, ...], kwargs: dict[str, Any],
                                         names: str) -> None:
    with pytest.raises(InvalidInput, match=names):
        await Memory.open(*args, embedder=Embedder(RecordingProvider(dim=16)), **kwargs)


async def test_open_with_a_bad_create_creates_no_file(tmp_path: Path) -> None:
    db = tmp_path / "no.db"
    with pytest.raises(InvalidInput, match="create must be true or false"):
        await Memory.open(str(db), embedder=Embedder(RecordingProvider(dim=16)),
                          create="no")  # type: ignore[arg-type]
    assert list(tmp_path.iterdir()) == []


async def test_every_error_here_is_a_chatmem_error() -> None:
    """No raw exception on any of the audit's calls (a guard on the classes used)."""
    mem = await _seeded()
    try:
        for call in (lambda: mem.flush("5"),  # type: ignore[arg-type]
                     lambda: mem.situation("\ud800"),
                     lambda: mem.clear("vector", session=2**70)):  # type: ignore[arg-type]
            with pytest.raises(ChatmemError):
                await call()
    finally:
        await mem.close()


# ---------------------------------------------------------------------- HTTP client

#: (label, call on an AsyncClient, a part of the message naming the argument): each
#: shaped its request with dict() / list() / quote() and raised a raw TypeError,
#: ValueError or UnicodeEncodeError before.
CLIENT_CALLS: list[tuple[str, Callable[[Any], Awaitable[Any]], str]] = [
    ("add(None)", lambda c: c.add(None, session="s1"), "messages"),
    ("add(5)", lambda c: c.add(5, session="s1"), "messages"),
    ("recall filter list", lambda c: c.recall("q", session="s1", filter=["a"]), "filter"),
    ("recall(None)", lambda c: c.recall(None, session="s1"), "query"),
    ("recall speakers int", lambda c: c.recall("q", session="s1", speakers=5), "speakers"),
    ("recall exclude_ids str", lambda c: c.recall("q", exclude_ids="m1"), "exclude_ids"),
    ("upsert_session list", lambda c: c.upsert_session(["abc"]), "session"),
    ("upsert_session metadata 5",
     lambda c: c.upsert_session({"id": "s1", "metadata": 5}), "session.metadata"),
    ("rewrite metadata list", lambda c: c.rewrite("s1", 1, metadata=[1]), "metadata"),
    ("call_tool arguments None", lambda c: c.call_tool(None, {"session_id": "s1"}),
     "arguments"),
    ("call_tool caller str", lambda c: c.call_tool({"query": "q"}, "s1"), "caller"),
    ("context(5)", lambda c: c.context(5, session="s1"), "turn"),
    ("context speakers int", lambda c: c.context("q", session="s1", speakers=1), "speakers"),
    ("get_session surrogate", lambda c: c.get_session("\ud800"), "session"),
    ("list cursor surrogate", lambda c: c.list_messages(cursor="\ud800"), "cursor"),
    ("effective_scope platform dict",
     lambda c: c.effective_scope("s1", {"$ne": "x"}), "platform"),
    ("effective_scope platform surrogate",
     lambda c: c.effective_scope("s1", "\udfff"), "platform"),
    # a body JSON cannot send said 'POST /v1/context: the body is not JSON: Out of range
    # float values are not JSON compliant', naming no argument, or (nested deep) raised a
    # raw RecursionError; a query value past 64 bits or str(), or of 100,000 characters,
    # a raw ValueError or httpx.InvalidURL
    ("context session NaN", lambda c: c.context("q", session=math.nan), "session: nan"),
    ("add platform bytes", lambda c: c.add([{"content": "x"}], session="s1", platform=b"tg"),
     "platform: must be JSON"),
    ("recall now past str()", lambda c: c.recall("q", now=10**5000), "now: integer out"),
    ("rewrite content nested deep", lambda c: c.rewrite("s1", 1, content=deep_list(5000)),
     "content[0][0]"),
    ("set_scope session holding itself",
     lambda c: c.set_scope("all", session=holding_itself()), "session.a.a"),
    ("list session 100,000 characters", lambda c: c.list_messages(session="x" * 100_000),
     "session is longer than 4096 characters"),
    ("list since past str()", lambda c: c.list_messages(since=10**5000),
     "since must be from 0 to 253402300799999 (milliseconds since 1970 up to the year "
     "9999), got an integer of more than 4,300 digits"),
    ("sessions limit past 64 bits", lambda c: c.sessions(limit=2**64),
     "limit must be an integer from 1 to 1000, got 18446744073709551616"),
    # turn's parts were named messages (add's argument): 'messages: expected a Message or
    # a mapping, got list'; one mapping as turn[0], where Memory.context says turn
    ("context turn item a list", lambda c: c.context(["q", [[{"content": "x"}]]], session="s1"),
     'turn[1]: expected text, a Message or a mapping, got [[{"content": "x"}]]'),
    ("turn_context turn item int", lambda c: c.turn_context([5], session="s1"),
     "turn[0]: expected text, a Message or a mapping, got 5"),
    ("context one turn nested NaN",
     lambda c: c.context({"content": "x", "metadata": {"a": [{"b": math.nan}]}}, session="s1"),
     "turn.metadata.a[0].b: nan is not a JSON number"),
    ("context one turn nested deep",
     lambda c: c.context(Message(session_id="s1", content="x", metadata={"a": deep_list(5000)}),
                         session="s1"), "turn.metadata.a[0][0]"),
    ("add second message int", lambda c: c.add([{"content": "x"}, 5], session="s1"),
     "messages[1]: expected a Message or a mapping, got 5"),
]


def deep_list(n: int) -> Any:
    v: Any = 1
    for _ in range(n):
        v = [v]
    return v


def holding_itself() -> dict[str, Any]:
    d: dict[str, Any] = {}
    d["a"] = d
    return d


def _recording_client() -> tuple[AsyncClient, list[httpx.Request]]:
    sent: list[httpx.Request] = []

    def answer(request: httpx.Request) -> httpx.Response:
        sent.append(request)
        return httpx.Response(200, json={"scope": "all", "layer": "config"})

    return AsyncClient("http://chatmem.test", transport=httpx.MockTransport(answer)), sent


@pytest.mark.parametrize("label,call,names", CLIENT_CALLS, ids=[c[0] for c in CLIENT_CALLS])
async def test_client_refuses_a_bad_argument_before_sending(
        label: str, call: Callable[[Any], Awaitable[Any]], names: str) -> None:
    client, sent = _recording_client()
    try:
        with pytest.raises((InvalidInput, FilterError)) as info:
            await call(client)
        assert names in str(info.value)
        assert sent == []
    finally:
        await client.close()


async def test_client_still_sends_good_arguments() -> None:
    client, sent = _recording_client()
    try:
        scope = await client.effective_scope("s1", "telegram")
        assert scope.scope == "all" and len(sent) == 1
        assert sent[0].url.params["platform"] == "telegram"
    finally:
        await client.close()


@pytest.mark.parametrize(("platform", "chat_types", "field"), [
    ("", {"private": "private chat"}, "platform"),
    (5, {"private": "private chat"}, "platform"),
    ("qq", ["private"], "chat_types"),
    ("qq", None, "chat_types"),
    ("qq", {"private": "private chat", 5: "five"}, "chat type"),
    ("qq", {"private": "private chat", "group": ""}, '"group"'),
    ("qq", {"private": "private chat", "group": 5}, '"group"'),
], ids=["empty-platform", "int-platform", "list", "none", "int-type", "empty-label",
        "int-label"])
def test_platform_labels_register_refuses_a_bad_argument_and_keeps_none_of_it(
        tmp_path: Path, platform: Any, chat_types: Any, field: str) -> None:
    """README § Rendering: ``mem.platforms.register("onebot", chat_types={...})``. On
    the SyncMemory of README's examples there was no ``platforms`` (AttributeError);
    a wrong argument was a raw ValueError, or an AttributeError for a list of chat
    types ("'list' object has no attribute 'items'"), and a chat type that is not text
    was taken; a bad label kept the labels before it."""
    from chatmem import SyncMemory

    with SyncMemory.open(str(tmp_path / "p.db"),
                         embedder=Embedder(RecordingProvider(dim=16))) as mem:
        with pytest.raises(InvalidInput, match=re.escape(field)):
            mem.platforms.register(platform, chat_types=chat_types)
        assert dict(mem.platforms.chat_type_labels) == {}
        mem.upsert_session({"id": "dm", "origin_platform": "qq", "chat_type": "private"})
        mem.add([{"content": "my passport expires in March", "id": "m1"}], session="dm")
        mem.flush(timeout=30)
        mem.platforms.register("qq", chat_types={"private": "private chat"})
        assert "[qq/private chat/" in mem.recall("passport", session="dm", top_k=1).text


@pytest.mark.parametrize("given", ["provider", "name"])
def test_open_refuses_an_embedder_that_is_not_one_and_creates_no_file(
        tmp_path: Path, given: str) -> None:
    """README § Testing your bot opens ``SyncMemory.open(db, embedder=embedder(provider))``;
    a test that passed the provider itself (or a provider's name) got a raw
    AttributeError ("'HashEmbeddingProvider' object has no attribute 'provider'"), and
    the store file and its lock file were left behind."""
    from chatmem import SyncMemory
    from chatmem.testing import HashEmbeddingProvider

    wrong: Any = HashEmbeddingProvider() if given == "provider" else "local"
    with pytest.raises(InvalidInput, match=r"embedder must be .*Embedder.*embedder\(provider\)"):
        SyncMemory.open(str(tmp_path / "bot.db"), embedder=wrong)
    assert list(tmp_path.iterdir()) == []


async def test_memory_built_by_hand_refuses_a_provider_as_its_embedder() -> None:
    from chatmem.store import SqliteStore
    from chatmem.testing import HashEmbeddingProvider

    store = await SqliteStore.open(":memory:")
    try:
        with pytest.raises(InvalidInput, match=r"embedder must be .*Embedder\(provider\)"):
            Memory(store, store, embedder=HashEmbeddingProvider())  # type: ignore[arg-type]
    finally:
        await store.close()


async def test_the_spec_constructor_refuses_each_bad_argument_naming_it(tmp_path: Path
                                                                        ) -> None:
    """``Memory(storage=…, vector=…, embedder=…, options=…)`` (M1): one argument given
    under both its names, a value of the wrong kind, a misspelt or unknown keyword, or
    Memory.open's own arguments are each a ChatmemError naming it, and nothing is written
    to the store. Before, the keywords were a TypeError and a URL or nothing as the
    store an AttributeError (or no error at all) later."""
    from chatmem.store import SqliteStore, Storage
    from chatmem.store.base import MessageStore, VectorIndex
    from chatmem.testing import embedder

    store = await SqliteStore.open(tmp_path / "c.db")
    emb = embedder()
    before = (await store.stats(), await store.meta_items())
    files = sorted(tmp_path.iterdir())

    def own(protocol: type, *without: str) -> object:
        """A store or index of one's own written against an older protocol: ``store``'s
        methods but ``without``."""
        methods = {n: getattr(store, n) for n in dir(protocol)
                   if not n.startswith("_") and n not in without}
        return type("OwnStore", (), {n: staticmethod(m) for n, m in methods.items()})()

    try:
        for kwargs, said in [
                # one's own store or index that lacks a method is told which
                ({"storage": own(MessageStore, "recent_heads", "stats")},
                 r"storage must be .*got OwnStore .*; it lacks recent_heads, stats \(of "
                 r"chatmem.store.MessageStore's \d+ methods\)"),
                ({"storage": store, "vector": own(VectorIndex, "other_width")},
                 r"vector must be a vector index .*; it lacks other_width \(of "
                 r"chatmem.store.VectorIndex's \d+ methods\)"),
                ({"store": store, "storage": store}, r"Memory\(\): store and storage are "
                 "the same argument .*give one of them"),
                ({"storage": store, "index": store, "vector": store},
                 "index and vector are the same argument"),
                ({}, r"Memory\(\) needs a store: storage="),
                ({"embedder": emb}, r"Memory\(\) needs a store"),
                ({"storage": "sqlite:///x.db"},
                 r'storage must be a chatmem.store.Storage .*got "sqlite:///x.db"; a '
                 r"store's URL: Memory.open\(url\) opens it"),
                ({"storage": 3}, "storage must be a chatmem.store.Storage.*got 3"),
                ({"storage": store, "vector": "qdrant://localhost:6333"},
                 r'vector must be a vector index .*got "qdrant://localhost:6333"; an index'),
                ({"storage": store, "vector": [1.0]}, "vector must be a vector index"),
                ({"storage": Storage(store, store), "vector": store},
                 "vector=…\\): a Storage holds its own index .*leave vector out"),
                ({"storage": store, "vector": store, "embedder": "local"},
                 "embedder must be a chatmem.embedding.Embedder"),
                ({"storage": store, "vectr": store},
                 r"Memory\(\): unknown argument\(s\) vectr \(did you mean vector\?\)"),
                ({"storage": store, "vector": store, "embeder": emb},
                 r"unknown argument\(s\) embeder \(did you mean embedder\?\)"),
                ({"storage": store, "vector": store, "embedder": emb, "create": False},
                 r"Memory\(\): create is an argument of Memory.open\(url, …\)"),
                ({"storage": store, "vector": store, "embedder": emb, "config": "c.toml"},
                 'config must be a mapping of options or a Config, got "c.toml"'),
                ({"storage": store, "vector": store, "embedder": emb, "options": 20},
                 "options must be a mapping of options"),
                ({"storage": store, "vector": store, "embedder": emb,
                  "options": {"lastMessages": 2}}, "did you mean last_messages"),
                ({"storage": store, "vector": store, "embedder": emb,
                  "options": {"last_messages": -1}}, "last_messages must be at least 0"),
                ({"storage": store, "vector": store, "embedder": emb,
                  "options": {"last_messages": 1}, "last_messages": 2},
                 "last_messages is given twice, in options= and as a keyword"),
                ({"storage": store, "embedder": emb},
                 "no vector index: give it one .this store holds vectors itself: give it "
                 "as its index too, vector=the store.")]:
            with pytest.raises(ChatmemError, match=said):
                Memory(**kwargs)
        # Memory.open's own arguments misspelt, alike (they were 'unknown option')
        with pytest.raises(InvalidInput, match=r"Memory.open\(\): unknown argument\(s\) "
                           r"vectr \(did you mean vector\?\)"):
            await Memory.open(f"sqlite:///{tmp_path}/x.db", vectr="qdrant://localhost:6333")
        assert (await store.stats(), await store.meta_items()) == before
        assert sorted(tmp_path.iterdir()) == files  # no x.db, no folder for an index
    finally:
        await store.close()


async def test_platform_labels_from_the_configuration(tmp_path: Path) -> None:
    """``Memory.open(..., platforms={...})`` declares the labels register() would; a
    declaration that is not text is a ConfigError naming it, and opens nothing."""
    async with await Memory.open(
            str(tmp_path / "p.db"), embedder=Embedder(RecordingProvider(dim=16)),
            platforms={"onebot": {"chat_types": {"private": "私聊"}}}) as mem:
        assert mem.platforms.chat_type_labels == {("onebot", "private"): "私聊"}
        mem.platforms.register("onebot", chat_types={"group": "群聊"})  # adds to them
        assert len(mem.platforms.chat_type_labels) == 2
    for bad, named in [({"": {"chat_types": {}}}, "platforms: a platform must be"),
                       ({"qq": {"chat_types": {"": "x"}}}, "platforms.qq.chat_types"),
                       ({"qq": {"chat_types": {"private": 1}}},
                        "platforms.qq.chat_types.private"),
                       ({"qq": {"labels": {}}}, "platforms.qq.labels: unknown option")]:
        with pytest.raises(ConfigError, match=re.escape(named)):
            await Memory.open(str(tmp_path / "bad.db"),
                              embedder=Embedder(RecordingProvider(dim=16)), platforms=bad)
        assert not (tmp_path / "bad.db").exists()


# ---------------------------------------------------------------------- named as written

#: A good call of each public method of Memory that takes arguments (positional, then
#: keywords), on the world of _seeded: the test puts each bad value of NAMING_VALUES in
#: each argument in turn. A new method that is not here fails
#: test_every_public_method_has_a_good_call_here.
GOOD_CALLS: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "add": (([{"content": "x"}],), {"session": "s1"}),
    "upsert_session": (({"id": "s1"},), {}),
    "flush": ((), {"timeout": 30}),
    "rewrite": (("s1", 0), {"content": "y"}),  # at m1's time
    "clear": (("vector",), {"session": "s9"}),
    "reindex": ((), {}),
    "get": ((["m1"],), {"visible_from": "s1"}),
    "visible": (([Message(session_id="s1", content="x")],), {"visible_from": "s1"}),
    "list_messages": ((), {}),
    "index_states": ((["m1"],), {}),
    "sessions": ((), {}),
    "delete": ((["nope"],), {}),
    "erase": ((["nope"],), {"dry_run": True}),
    "erase_held": ((["nope"],), {"keep_replacements": True}),
    "forget": ((), {"session": "s9", "dry_run": True}),
    "set_retention": ((3,), {"actor": OWNER, "session": "s9"}),
    "effective_retention": (("s1",), {}),
    "sweep_retention": ((), {"now": 5}),
    "call_tool": (({"query": "x"}, {"session_id": "s1"}), {}),
    "situation": (("s1",), {}),
    "effective_scope": (("s1",), {}),
    "set_scope": (("all",), {"actor": OWNER, "session": "s9"}),
    "get_session": (("s1",), {}),
    "recall": (("x",), {"session": "s1"}),
    "context": (("x",), {"session": "s1"}),
    "turn_context": (("x",), {"session": "s1"}),
}

#: Public methods without an argument to check here: none taken, or a request already
#: checked (run_recall takes what RecallRequest.of, i.e. recall, checked).
NO_ARGUMENTS = {"stats", "close", "tool_schema", "run_recall",
                "list"}  # list is list_messages

#: A value of the wrong type, an empty text, a lone surrogate, a negative number, a list
#: holding an object, a mapping holding one.
NAMING_VALUES: list[Any] = [object(), "", "\ud800", -5, [object()], {"k": object()}]

#: Arguments whose error is about them together, naming each (forget takes one of
#: three; a settings layer reads some of session, platform, chat_type, group_id; the
#: owner needed to change settings), or naming what holds them (the tool's arguments,
#: named by the tool, memory_recall: its arguments are not the method's; one message
#: given to add is a batch of one, its fields messages[0].… as the list add returns).
NAMED_IN: dict[tuple[str, str], str] = {
    ("forget", "speaker_id"): "speaker_id", ("forget", "session"): "session",
    ("forget", "resource_id"): "resource_id", ("call_tool", "arguments"): "memory_recall",
    ("add", "messages"): "messages",
    **{(method, name): name for method in ("set_scope", "set_retention")
       for name in ("session", "platform", "chat_type", "group_id", "actor")}}

#: Arguments that take every value here (an empty text searches or shows nothing more).
TAKES_ALL = {("rewrite", "visible_content"), ("list_messages", "text")}


def test_every_public_method_has_a_good_call_here() -> None:
    public = {name for name, _ in inspect.getmembers(Memory, inspect.iscoroutinefunction)
              if not name.startswith("_")} | {"tool_schema"}
    assert public - NO_ARGUMENTS == set(GOOD_CALLS) | {"open"}


def _named_as_written(message: str, name: str, value: Any) -> bool:
    """``message`` begins with the argument ``name`` as the caller wrote it: ``name …``,
    ``name: …``, ``name.field …`` (a field of it), ``name[1] …`` (an item of a list given
    as it, or ``name['k']``, a filter's key), never an inner path (``rewrite.session_id``,
    ``turn[0]`` for ``query``)."""
    item = r"\[[^\]]+\]" if isinstance(value, (list, tuple, dict)) else "(?!)"
    return re.match(rf"{re.escape(name)}(?:{item})?(?:[ :.]|$)", message) is not None


@pytest.mark.parametrize("method", list(GOOD_CALLS))
async def test_every_bad_argument_of_a_method_is_named_as_the_caller_wrote_it(
        method: str) -> None:
    """`rewrite(session="")` said 'rewrite.session_id must not be empty', `recall([1])`
    'turn[0]: …', `context(5)` 'query: …' (the other method's argument), `recall("\\ud800")`
    'query[0] …' (one text, not a list), `clear(5)` 'clear target …': the caller wrote
    session, query, turn, target. Each argument of each public method, given each
    value of NAMING_VALUES, is refused with a ChatmemError naming it as written (or
    taken), never a raw exception, and at least one of them is refused."""
    mem = await _seeded()
    try:
        call = getattr(mem, method)
        args, kwargs = GOOD_CALLS[method]
        if method == "rewrite":  # the seeded message's time
            args = ("s1", (await mem.get(["m1"]))["m1"].ts)
        await call(*args, **kwargs)  # the good call is good
        wrong, refused = [], set()
        params = [p for p in inspect.signature(call).parameters.values()
                  if p.kind is not p.VAR_KEYWORD]
        for i, param in enumerate(params):
            for value in NAMING_VALUES:
                a, k = list(args), dict(kwargs)
                if param.kind is param.POSITIONAL_OR_KEYWORD and i < len(a):
                    a[i] = value
                else:
                    k[param.name] = value
                try:
                    await call(*a, **k)
                except ChatmemError as exc:
                    refused.add(param.name)
                    text = str(exc)
                    named = NAMED_IN.get((method, param.name))
                    ok = (re.search(rf"(?<![\w.]){named}(?!\w)", text) is not None
                          if named else _named_as_written(text, param.name, value))
                    if not ok:
                        wrong.append(f"{method}({param.name}={value!r:.12}): {text[:90]}")
        assert not wrong, "\n".join(wrong)
        never = {p.name for p in params} - refused - {n for m, n in TAKES_ALL if m == method}
        assert not never, f"{method}: no value of NAMING_VALUES refused for {never}"
    finally:
        await mem.close()


@pytest.mark.parametrize(("config", "says"), [
    ("chatmem.toml", 'config must be a mapping of options or a Config, got "chatmem.toml"; '
     "a file's name: read the file and pass its table (tomllib.load for TOML, "
     "yaml.safe_load for YAML)"),
    (Path("chatmem.yaml"), 'got "chatmem.yaml"; a file\'s name'),
    (5, "config must be a mapping of options or a Config, got 5"),
])
async def test_a_config_that_is_no_table_is_named_with_what_to_pass(
        tmp_path: Path, config: Any, says: str) -> None:
    """Memory.open(url, config="chatmem.toml") (a file's name, as --config takes it)
    said 'invalid configuration: expected a mapping of options, got str': neither the
    argument nor what to pass. Now it names config and, for a file's name, the way to
    read one; nothing is created."""
    from chatmem.errors import ConfigError

    with pytest.raises(ConfigError) as info:
        await Memory.open(f"sqlite:///{tmp_path}/c.db", config=config)
    assert says in str(info.value) and str(info.value).startswith("config must be")
    assert not (tmp_path / "c.db").exists()


# ---------------------------------------------------------------------- past a float

async def test_an_integer_past_a_float_is_checked_as_a_number() -> None:
    """``checked_number`` asked ``math.isfinite`` of every number, which raises a raw
    OverflowError ('int too large to convert to float') for an integer past 1e308:
    ``ChatmemSession.get_items(limit=-10**400)`` and ``embed_many(max_retries=-10**400)``
    escaped as it, and a huge limit within range was never taken."""
    embedder = Embedder(RecordingProvider(dim=16))
    with pytest.raises(InvalidInput, match=r"^max_retries must be an integer of at least 0"):
        await embedder.embed_many(["x"], max_retries=-(10**400))
    assert len(await embedder.embed_many(["x"], max_retries=10**400)) == 1
    pytest.importorskip("agents")
    from chatmem.integrations.openai_agents import ChatmemSession

    async with await Memory.open("memory://", embedder=embedder) as mem:
        await mem.add([{"content": "hello"}], session="s1")
        session = ChatmemSession(mem, "s1")
        with pytest.raises(InvalidInput, match=r"^limit must be an integer of at least 0"):
            await session.get_items(limit=-(10**400))
        assert len(await session.get_items(limit=10**400)) == 1
