"""chatmem.client against a real ``chatmem serve`` subprocess on 127.0.0.1 (issue 13):
every method, the library's error classes rebuilt from the answers, and the sync form."""

from __future__ import annotations

import asyncio
import json
import re
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from chatmem import Erased, Hit, Message, MessagePage, RecallResult
from chatmem.client import AsyncClient, Client, TurnContext
from chatmem.errors import (
    ChatmemError,
    ConfigError,
    ConnectionFailed,
    EmbeddingUnavailable,
    FilterError,
    InvalidInput,
    NotFound,
    PermissionDenied,
    ServerBusy,
    ServerError,
    StoreError,
    Unauthorized,
)
from chatmem.models import Session
from chatmem.retention import EffectiveRetention
from chatmem.scopes import EffectiveScope
from readme import python_blocks, run_example, section
from servers import chatmem_serve, free_port

OWNER = "client-owner-key-0123456789"
USER = "client-user-key-01234567890"
OTHER = "client-other-key-0123456789"  # an owner of another namespace


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    tmp = tmp_path_factory.mktemp("client")
    keys = tmp / "keys.toml"
    keys.write_text(
        f'[keys.owner]\nkey = "{OWNER}"\nnamespace = "home"\nrole = "owner"\n'
        f'[keys.bot]\nkey = "{USER}"\nnamespace = "home"\nrole = "user"\n'
        f'[keys.other]\nkey = "{OTHER}"\nnamespace = "other"\nrole = "owner"\n',
        encoding="utf-8")
    with chatmem_serve(f"sqlite:///{tmp}/{{namespace}}.db", keys, tmp / "serve.log") as base:
        yield base


async def wait_indexed(c: AsyncClient, n: int) -> None:
    deadline = time.monotonic() + 60
    while (await c.stats())["indexed"] < n:
        assert time.monotonic() < deadline, "indexing did not finish"
        await asyncio.sleep(0.05)


async def test_upsert_session_loses_no_settings_silently(tmp_path: Path) -> None:
    """The HTTP API cannot change a session's ``settings`` (PUT keeps the stored ones):
    ``upsert_session`` dropped settings it was given without a word. Now settings the
    server holds already (a get_session → upsert_session round trip) or none are taken,
    and others are refused naming ``session.settings`` and the fix, nothing sent."""
    from chatmem import Memory

    keys = tmp_path / "keys.toml"
    keys.write_text(f'[keys.owner]\nkey = "{OWNER}"\nnamespace = "home"\nrole = "owner"\n',
                    encoding="utf-8")
    mem = await Memory.open(f"sqlite:///{tmp_path}/home.db")
    await mem.upsert_session(Session(id="tuned", resource_id="alice",
                                     settings={"tone": "brief", "langs": ["en", "fr"]}))
    await mem.close()
    with chatmem_serve(f"sqlite:///{tmp_path}/{{namespace}}.db", keys,
                       tmp_path / "serve.log") as base:
        async with AsyncClient(base, OWNER) as owner:
            got = await owner.get_session("tuned")
            assert got is not None and got.settings == {"tone": "brief", "langs": ["en", "fr"]}
            # the round trip of an unchanged session, and one changing another field
            assert await owner.upsert_session(got) == got
            moved = await owner.upsert_session({**got.to_dict(), "resource_id": "bob",
                                                "settings": {"langs": ("en", "fr"),
                                                             "tone": "brief"}})
            assert moved.resource_id == "bob" and moved.settings == got.settings
            # none given: the stored ones kept, as before
            plain = await owner.upsert_session(Session(id="tuned", resource_id="carol"))
            assert plain.settings == got.settings
            for changed, sid in (({"tone": "chatty"}, "tuned"), ({"tone": "brief"}, "fresh")):
                with pytest.raises(InvalidInput) as err:
                    await owner.upsert_session(Session(id=sid, settings=changed))
                said = str(err.value)
                assert said.startswith(f"session.settings {json.dumps(changed)}: the HTTP "
                                       "API cannot change a session's settings"), said
                assert "get_session" in said and "Memory.upsert_session" in said
            assert (await owner.get_session("tuned")).resource_id == "carol"  # type: ignore[union-attr]
            assert await owner.get_session("fresh") is None  # nothing was sent
            for bad in ("brief", {"when": {1, 2}}):
                with pytest.raises(InvalidInput, match="session.settings"):
                    await owner.upsert_session({"id": "tuned", "settings": bad})


async def test_health_stats_and_metrics(server: str) -> None:
    async with AsyncClient(server) as anon:
        assert (await anon.health())["status"] == "ok"
        with pytest.raises(Unauthorized) as err:
            await anon.stats()
        assert err.value.http_status == 401 and isinstance(err.value, PermissionDenied)
    async with AsyncClient(server, "not-a-key-of-this-server-00") as wrong:
        with pytest.raises(Unauthorized, match="unknown API key"):
            await wrong.stats()
    async with AsyncClient(server, OWNER) as c:
        stats = await c.stats()
        assert {"messages", "indexed", "pending", "embedder"} <= set(stats)
        assert "chatmem_http_requests_total" in await c.metrics()


async def test_add_recall_context_and_rewrite(server: str) -> None:
    async with AsyncClient(server, OWNER, timeout=30) as c:
        stored = await c.add([
            {"session_id": "kitchen", "content": "the boiler service is booked for Thursday",
             "speaker_id": "alice", "speaker_name": "Alice", "platform": "cli"},
            Message(session_id="kitchen", content="I prefer oat milk in my coffee",
                    speaker_id="alice", metadata={"topic": "food"}),
        ])
        assert [type(m) for m in stored] == [Message, Message]
        assert all(m.id and m.ts for m in stored)
        assert stored[1].metadata == {"topic": "food"} and stored[0].platform == "cli"
        assert await c.add([]) == []
        # a retry with the same id and content is a no-op
        again = await c.add(stored[0])
        assert again[0].id == stored[0].id
        await wait_indexed(c, 2)

        result = await c.recall("when is the boiler service?", session="kitchen", top_k=3)
        assert isinstance(result, RecallResult) and isinstance(result.hits[0], Hit)
        assert result.hits[0].message.content.startswith("the boiler")
        assert result.hits[0].message.id == stored[0].id
        # an OpenAI message list as is, its session and speaker given for the batch
        listed = await c.add([{"role": "user", "content": "the plumber comes at nine"},
                              {"role": "assistant", "content": "noted, nine it is"}],
                             session="hall", platform="web", speaker_id="bob")
        assert [(m.session_id, m.platform, m.speaker_id) for m in listed] == [
            ("hall", "web", "bob"), ("hall", "web", None)]
        await wait_indexed(c, 4)
        turn = await c.turn_context(
            [{"role": "user", "content": "when does the plumber come?"}], session="hall",
            platform="web", now=listed[-1].ts + 60_000, explain=True)  # type: ignore[operator]
        assert turn.recall is not None and "plumber" in turn.recall.text
        assert turn.recall.hits[0].message.id == listed[0].id
        assert (await c.turn_context("plumber", session="hall")).recall is None
        asked = await c.context(Message(session_id="hall", content="when is the plumber?"),
                                session="hall")
        assert "plumber comes at nine" in asked[0]["content"]
        plain = await c.recall("when is the boiler service?", session="kitchen", top_k=3,
                               follow_replies=False)
        assert plain.hits[0].message.id == stored[0].id
        with pytest.raises(InvalidInput, match="follow_replies"):
            await c.recall("boiler", follow_replies="no")  # type: ignore[arg-type]
        # "when" asks for a time: the hit states one, so its score carries
        # search.when_boost (scores are relevance × boosts, not capped at 1)
        assert 0 < result.hits[0].semantic <= 1 and "boiler" in result.text
        assert result.hits[0].boost == 2.0 and result.hits[0].score > result.hits[0].semantic
        assert not result.degraded and result.scope and result.period is None
        # the stretch of time a question names comes back as the server read it
        named = await c.recall("what did Alice say about the boiler yesterday?",
                               session="kitchen", top_k=3)
        assert named.period is not None and named.period.words == "yesterday"
        assert named.period.end - named.period.start == 86_400_000 and not named.period.only

        msgs = await c.context("when is the boiler service?", session="kitchen")
        assert msgs[0]["role"] == "system" and "boiler service" in msgs[0]["content"]
        turn = await c.turn_context(["when is the boiler service?"], session="kitchen")
        assert isinstance(turn, TurnContext) and turn.messages == msgs and not turn.degraded

        assert stored[1].ts is not None
        new = await c.rewrite("kitchen", stored[1].ts, content="I prefer soy milk now")
        assert isinstance(new, Message) and new.content == "I prefer soy milk now"
        assert new.id == stored[1].id
        hits = (await c.recall("soy milk", session="kitchen")).hits
        assert "I prefer soy milk now" in [h.message.content for h in hits]
        with pytest.raises(NotFound) as err:
            await c.rewrite("kitchen", 12345, content="nothing there")
        assert err.value.http_status == 404


async def test_sessions_settings_and_owner_only_actions(server: str) -> None:
    async with AsyncClient(server, OWNER) as owner, AsyncClient(server, USER) as bot:
        assert await owner.get_session("never-registered") is None
        s = await owner.upsert_session(Session(id="room 1·β", resource_id="alice",
                                               chat_type="group", metadata={"team": "a"}))
        assert isinstance(s, Session) and s.id == "room 1·β" and s.metadata == {"team": "a"}
        got = await bot.get_session("room 1·β")
        assert got == s
        with pytest.raises(InvalidInput, match="cannot address"):
            await owner.get_session("a/b")
        # a mapping works too
        s2 = await owner.upsert_session({"id": "room 1·β", "resource_id": "bob"})
        assert s2.resource_id == "bob" and s2.chat_type is None

        eff = await bot.effective_scope("room 1·β")
        assert isinstance(eff, EffectiveScope) and eff.layer == "config"
        await owner.set_scope("session", session="room 1·β")
        eff = await bot.effective_scope("room 1·β")
        assert (eff.scope, eff.layer) == ("session", "session")
        await owner.set_scope(None, session="room 1·β")
        assert (await bot.effective_scope("room 1·β")).layer == "config"

        # a user key doing an owner's action: PermissionDenied, as in the library
        with pytest.raises(PermissionDenied, match="owner key") as err:
            await bot.set_scope("all", session="room 1·β")
        assert err.value.http_status == 403 and not isinstance(err.value, Unauthorized)
        with pytest.raises(PermissionDenied):
            await bot.upsert_session(Session(id="room 2"))
        with pytest.raises(PermissionDenied):
            await bot.clear("all")
        # a user key must name its conversation when it recalls
        with pytest.raises(InvalidInput, match="session is required"):
            await bot.recall("anything")

        # the sessions overview and the key's identity, as the library and the console
        await owner.add({"session_id": "room 1·β", "content": "the boiler is fixed"})
        await owner.set_retention(30, session="room 1·β")
        page = await owner.sessions()
        row = next(r for r in page.sessions if r.session.id == "room 1·β")
        assert row.session.resource_id == "bob" and row.messages == 1
        assert (row.retention_days, row.retention_layer) == (30, "session")
        assert (row.scope, row.scope_layer) == ("all", "config")
        # a page of one, and the rest after it: this test's own second session, so that a
        # next page exists whatever other tests left on the module's server (or none)
        await owner.upsert_session(Session(id="room 0·α"))
        first = await owner.sessions(limit=1)
        assert len(first.sessions) == 1 and first.next_after == first.sessions[0].session.id
        rest = await owner.sessions(after=first.next_after)
        assert first.sessions[0].session.id not in {r.session.id for r in rest.sessions}
        assert {"room 0·α", "room 1·β"} <= {r.session.id for r in first.sessions + rest.sessions}
        with pytest.raises(InvalidInput, match="visible_from is required"):
            await bot.sessions()
        mine = await bot.sessions(visible_from="room 1·β")
        assert [r.session.id for r in mine.sessions] == ["room 1·β"]
        assert (await owner.whoami())["role"] == "owner"
        assert (await bot.whoami())["role"] == "user"


@pytest.mark.parametrize(("layer", "parts"), [
    ("session", {"session": "layered"}),
    ("platform", {"platform": "tg"}),
    ("chat_type", {"platform": "tg", "chat_type": "group"}),
    ("group", {"platform": "tg", "group_id": "g1"}),
])
async def test_an_owner_removes_each_layers_scope_and_retention(
        server: str, layer: Any, parts: dict[str, str]) -> None:
    """set_scope(None) and set_retention(None) remove one layer's value over HTTP (PUT
    /v1/settings and PUT /v1/retention with null), as `chatmem scope unset` and
    `chatmem retention unset` do on the store, for every layer: the next layer (here the
    configuration) decides again."""
    async with AsyncClient(server, OWNER) as owner:
        await owner.upsert_session(Session(id="layered", origin_platform="tg",
                                           chat_type="group", group_id="g1"))
        await owner.set_scope("session", layer=layer, **parts)
        await owner.set_retention(5, layer=layer, **parts)
        scope = await owner.effective_scope("layered")
        kept = await owner.effective_retention("layered")
        assert (scope.scope, scope.layer) == ("session", layer)
        assert (kept.days, kept.layer) == (5, layer)
        await owner.set_scope(None, layer=layer, **parts)
        await owner.set_retention(None, layer=layer, **parts)
        assert (await owner.effective_scope("layered")).layer == "config"
        assert (await owner.effective_retention("layered")).layer == "config"


async def test_tool_schema_and_call(server: str) -> None:
    async with AsyncClient(server, USER) as bot:
        schema = await bot.tool_schema()
        assert schema["function"]["name"] == "memory_recall"
        out = await bot.call_tool({"query": "boiler service"},
                                  {"session_id": "kitchen", "speaker_id": "alice"})
        assert isinstance(out, dict)
        out2 = await bot.call_tool('{"query": "boiler service"}', {"session_id": "kitchen"})
        assert set(out2) == set(out)
        with pytest.raises(InvalidInput):
            await bot.call_tool("{not json", {"session_id": "kitchen"})


async def test_server_errors_are_the_library_classes(server: str) -> None:
    async with AsyncClient(server, OWNER) as c:
        with pytest.raises(InvalidInput, match="content") as err:  # 400: the library check
            await c.add({"session_id": "s", "content": "", "role": "user"})
        assert err.value.http_status == 400
        with pytest.raises(InvalidInput, match="colour") as err:  # 422: the body schema
            await c.add({"session_id": "s", "content": "x", "colour": "red"})
        assert err.value.http_status == 422 and isinstance(err.value, ValueError)
        with pytest.raises(FilterError) as ferr:
            await c.recall("x", session="s", filter={"team": {"$nope": 1}})
        assert ferr.value.http_status == 400
        with pytest.raises(InvalidInput):
            await c.clear("everything")
        with pytest.raises(InvalidInput):
            await c.recall("x", top_k=0)
        # named as the library names it (was 'POST /v1/messages: the body is not JSON: …')
        with pytest.raises(InvalidInput, match=r"^messages\[0\]\.metadata\.n: nan is not a "
                                               "JSON number"):
            await c.add({"session_id": "s", "content": "x", "metadata": {"n": float("nan")}})
    # nothing listening: ConnectionFailed with the transport error attached, bounded
    async with AsyncClient(f"http://127.0.0.1:{free_port()}", OWNER,
                           connect_retries=1) as dead:
        start = time.monotonic()
        with pytest.raises(ConnectionFailed, match="cannot connect") as cerr:
            await dead.stats()
        assert isinstance(cerr.value.__cause__, httpx.ConnectError)
        assert isinstance(cerr.value, ServerError) and cerr.value.http_status is None
        assert time.monotonic() - start < 10
    with pytest.raises(ConfigError):
        AsyncClient("127.0.0.1:8765")
    with pytest.raises(ConfigError):
        AsyncClient(server, timeout=0)


async def test_get_list_delete_forget_and_retention(server: str) -> None:
    async with AsyncClient(server, OWNER) as owner, AsyncClient(server, USER) as bot:
        ledger = await owner.add([
            {"session_id": "ledger", "content": f"ledger line {i}", "speaker_id": "erin"}
            for i in range(5)])
        (diary,) = await owner.add({"session_id": "diary", "content": "carol's diary entry",
                                    "speaker_id": "carol"})
        await owner.upsert_session(Session(id="vault", resource_id="dave"))
        await owner.add({"session_id": "vault", "content": "dave's vault note"})
        ids = [m.id for m in ledger]
        assert all(isinstance(i, str) for i in ids) and diary.id

        # get: the order asked, unknown ids left out; over 1000 ids go in chunks
        got = await owner.get([ids[3], "no-such-id", ids[0]])
        assert list(got) == [ids[3], ids[0]] and got[ids[3]].content == "ledger line 3"
        assert all(isinstance(m, Message) for m in got.values())
        many = await owner.get([f"nope-{i}" for i in range(1500)] + [ids[1]])
        assert list(many) == [ids[1]]
        with pytest.raises(InvalidInput, match="list of strings"):
            await owner.get(ids[0])  # a string, not a list: refused as the library does
        assert await owner.get([]) == {} and await owner.delete(set()) == 0

        # list: pages of the library's MessagePage, followed by next_cursor
        seen: list[Message] = []
        page = await owner.list(session="ledger", limit=2)
        assert isinstance(page, MessagePage) and len(page.messages) == 2 and page.next_cursor
        while True:
            seen += page.messages
            if page.next_cursor is None:
                break
            page = await owner.list(session="ledger", limit=2, cursor=page.next_cursor)
        assert [m.id for m in seen] == [m.id for m in sorted(ledger, key=lambda m: (m.ts,
                                                                                  m.id))]
        assert (await owner.list_messages(speaker_id="carol")).messages == (diary,)
        # newest first over HTTP: the same pages reversed, its cursor kept to its direction
        back: list[Message] = []
        page = await owner.list(session="ledger", limit=2, newest_first=True)
        while True:
            back += page.messages
            if page.next_cursor is None:
                break
            with pytest.raises(InvalidInput, match="newest_first=true"):
                await owner.list(session="ledger", limit=2, cursor=page.next_cursor)
            page = await owner.list(session="ledger", limit=2, cursor=page.next_cursor,
                                    newest_first=True)
        assert [m.id for m in back] == [m.id for m in seen][::-1]
        assert [m.id for m in (await bot.list(session="ledger", visible_from="ledger",
                                              limit=1, newest_first=True)).messages] \
            == [seen[-1].id]
        with pytest.raises(InvalidInput, match="newest_first"):
            await owner.list(newest_first="yes")  # type: ignore[arg-type]
        with pytest.raises(InvalidInput):
            await owner.list(limit=0)
        with pytest.raises(InvalidInput):
            await owner.list(cursor="not-a-cursor")

        # a user key sees only what its conversation may see, and must say which
        with pytest.raises(InvalidInput, match="visible_from"):
            await bot.list()
        with pytest.raises(InvalidInput, match="visible_from"):
            await bot.get(ids)
        assert len((await bot.list(session="ledger", visible_from="ledger")).messages) == 5
        await owner.set_scope("session", session="ledger")
        assert list(await bot.get([diary.id, ids[2]], visible_from="ledger")) == [ids[2]]
        assert (await bot.list(speaker_id="carol", visible_from="ledger")).messages == ()
        await owner.set_scope(None, session="ledger")

        # owner-only erasing: a user key gets the library's PermissionDenied (HTTP 403)
        with pytest.raises(PermissionDenied, match="owner key") as err:
            await bot.forget(speaker_id="carol")
        assert err.value.http_status == 403 and not isinstance(err.value, Unauthorized)
        with pytest.raises(PermissionDenied):
            await bot.delete([diary.id])
        with pytest.raises(PermissionDenied):
            await bot.set_retention(7, session="ledger")
        assert await owner.get([diary.id])  # nothing went

        # retention: the layer that decides, set and removed by the owner
        eff = await bot.effective_retention("ledger")
        assert isinstance(eff, EffectiveRetention) and eff.layer == "config"
        await owner.set_retention(30, session="ledger")
        eff = await bot.effective_retention("ledger")
        assert (eff.days, eff.layer) == (30, "session")
        await owner.set_retention(None, session="ledger")
        assert (await owner.effective_retention("ledger")).layer == "config"
        with pytest.raises(InvalidInput):
            await owner.set_retention(-1, session="ledger")

        # delete: how many there were; forget: what went, per kind, as Erased
        assert await owner.delete([ids[0], ids[0], "no-such-id"]) == 1
        # erase names the ids that matched nothing, as Memory.erase does
        would = await owner.erase([ids[0], ids[1], "no-such-id"], dry_run=True)
        assert (would.messages, would.not_found) == (1, (ids[0], "no-such-id"))
        assert [m.id for m in (await owner.list(session="ledger")).messages] == [
            m.id for m in seen[1:]]
        assert (await owner.forget(speaker_id="carol", dry_run=True)).messages == 1
        assert list(await owner.get([diary.id])) == [diary.id]  # counted, not erased
        assert [m.id for m in (await owner.list(text="DIARY")).messages] == [diary.id]
        erased = await owner.forget(speaker_id="carol")
        assert isinstance(erased, Erased) and erased.messages == 1
        assert await owner.get([diary.id]) == {}
        assert (await owner.forget(resource_id="dave")).messages == 1
        assert await owner.forget(session="never-used") == Erased()
        with pytest.raises(InvalidInput, match="exactly one"):
            await owner.forget(speaker_id="erin", session="ledger")
        with pytest.raises(InvalidInput, match="exactly one"):
            await owner.forget()
        assert (await owner.forget(session="ledger")).messages == 4


@pytest.mark.parametrize(("status", "body", "cls"), [
    (503, {"error": {"type": "EmbeddingUnavailable", "message": "local: down"}},
     EmbeddingUnavailable),
    (503, {"error": {"type": "StoreError", "message": "disk full"}}, StoreError),
    (500, {"error": {"type": "InternalError", "message": "internal error"}}, ServerError),
    (502, "<html>bad gateway</html>", ServerError),
    (404, {"error": {"type": "NotFound", "message": "no route GET /v1/x"}}, NotFound),
    (503, {"error": {"type": "ServiceUnavailable", "message": "16 requests at once"}},
     ServerBusy),
])
async def test_error_bodies_map_to_classes(status: int, body: object,
                                           cls: type[ChatmemError]) -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        if isinstance(body, str):
            return httpx.Response(status, text=body)
        return httpx.Response(status, json=body)

    async with AsyncClient("http://chatmem.test", "k" * 20, busy_retries=0,
                           transport=httpx.MockTransport(answer)) as c:
        with pytest.raises(cls) as err:
            await c.stats()
    assert type(err.value) is cls and err.value.http_status == status


@pytest.mark.parametrize("retries", [0, 1, 3])
async def test_only_a_busy_answer_is_sent_again_and_as_often_as_asked(retries: int) -> None:
    """A 503 saying the server had no request slot free (``ServiceUnavailable`` with
    ``Retry-After``) was not worked on: sent again ``busy_retries`` times, then
    :class:`ServerBusy`. A 503 from the store or the provider is not: it may have
    been half done."""
    seen: list[str] = []

    def answer(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if request.url.path == "/v1/stats":
            return httpx.Response(503, headers={"Retry-After": "0"}, json={
                "error": {"type": "ServiceUnavailable", "message": "busy"}})
        return httpx.Response(503, json={"error": {"type": "StoreError",
                                                   "message": "disk full"}})

    async with AsyncClient("http://chatmem.test", busy_retries=retries,
                           transport=httpx.MockTransport(answer)) as c:
        with pytest.raises(ServerBusy) as busy:
            await c.stats()
        assert busy.value.retry_after == 0 and busy.value.http_status == 503
        assert not isinstance(busy.value, StoreError)
        with pytest.raises(StoreError):
            await c.add({"session_id": "s", "content": "x"})
    assert seen == ["/v1/stats"] * (retries + 1) + ["/v1/messages"]


@pytest.mark.parametrize("bad", [-1, 11, True, 1.5, "2"])
def test_busy_retries_is_checked(bad: object) -> None:
    with pytest.raises(ConfigError, match="busy_retries must be an integer from 0 to 10"):
        AsyncClient("http://chatmem.test", busy_retries=bad)  # type: ignore[arg-type]


async def test_a_timeout_is_connection_failed_and_not_retried() -> None:
    calls = 0

    def slow(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        raise httpx.ReadTimeout("read timed out", request=request)

    async with AsyncClient("http://chatmem.test", transport=httpx.MockTransport(slow),
                           timeout=1) as c:
        with pytest.raises(ConnectionFailed, match="timed out") as err:
            await c.add({"session_id": "s", "content": "x"})
    assert isinstance(err.value.__cause__, httpx.ReadTimeout) and calls == 1


def test_sync_client_is_the_async_client_run_to_completion(server: str) -> None:
    assert Client.recall.__doc__ == AsyncClient.recall.__doc__
    with Client(server, OTHER) as c:
        assert c.health()["status"] == "ok"
        stored = c.add({"session_id": "desk", "content": "my passport expires in March 2027"})
        assert isinstance(stored[0], Message)
        deadline = time.monotonic() + 60
        while c.stats()["indexed"] < 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        hits = c.recall("when does my passport run out?", session="desk").hits
        assert [h.message.content for h in hits] == ["my passport expires in March 2027"]
        assert c.context("passport?", session="desk")[0]["role"] == "system"
        page = c.list(session="desk")
        assert isinstance(page, MessagePage) and page.messages == tuple(stored)
        assert c.get([stored[0].id]) == {stored[0].id: stored[0]}
        assert c.effective_retention("desk").layer == "config"
        with pytest.raises(InvalidInput):
            c.add({"session_id": "desk", "content": ""})
        assert c.clear("all") == {"vectors": 1, "messages": 1}
        assert c.stats()["messages"] == 0
    c.close()  # idempotent
    # namespaces do not cross: the other key never saw the "desk" message
    with Client(server, OWNER) as home:
        hits = home.recall("passport", session="kitchen", scope="all").hits
        assert all("passport" not in h.message.content for h in hits)


class HostileServer:
    """A raw HTTP/1.1 server on 127.0.0.1 that answers every request with ``answer``
    (an async function of the request head and the writer), and records what it saw."""

    def __init__(self, answer: Any) -> None:
        self.answer = answer
        self.heads: list[bytes] = []
        self.sent = 0
        self.finished = False
        self.server: asyncio.AbstractServer | None = None

    async def __aenter__(self) -> str:
        async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
                self.heads.append(head)
                await self.answer(self, head, writer)
                self.finished = True
            except (ConnectionError, asyncio.IncompleteReadError):
                pass  # the client hung up: what these tests expect of it
            finally:
                writer.close()

        self.server = await asyncio.start_server(handle, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}"

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()

    async def write(self, writer: asyncio.StreamWriter, data: bytes) -> None:
        writer.write(data)
        await writer.drain()
        self.sent += len(data)


def _ok(body: bytes, *headers: str) -> bytes:
    extra = "".join(f"{h}\r\n" for h in headers)
    return (f"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n{extra}"
            f"Content-Length: {len(body)}\r\n\r\n").encode() + body


@pytest.mark.parametrize(("call", "body"), [
    ("add", b'{"unexpected": true}'),
    ("add", b'{"messages": [{"session_id": "s", "content": 7}]}'),
    ("recall", b'{"hits": [{"message": 5}]}'),
    ("recall", b'[]'),
    ("list", b'{"messages": [], "next_cursor": 5}'),
    ("stats", b'["not", "an", "object"]'),
    ("forget", b'{"messages": "many"}'),
    ("context", b'{"messages": null}'),
])
async def test_an_answer_outside_the_api_is_a_server_error(call: str, body: bytes) -> None:
    """A 200 whose JSON is not what the route sends is a ServerError naming the route,
    never a raw KeyError / TypeError from reading it."""
    async def answer(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter) -> None:
        await srv.write(writer, _ok(body))

    calls = {
        "add": lambda c: c.add({"session_id": "s", "content": "x"}),
        "recall": lambda c: c.recall("x", session="s"),
        "list": lambda c: c.list(session="s"),
        "stats": lambda c: c.stats(),
        "forget": lambda c: c.forget(session="s"),
        "context": lambda c: c.turn_context("x", session="s"),
    }
    async with HostileServer(answer) as base, AsyncClient(base, "k" * 20) as c:
        with pytest.raises(ServerError, match="is base_url a chatmem server") as err:
            await calls[call](c)
    assert err.value.http_status == 200


async def test_a_server_that_sends_a_byte_now_and_then_is_cut_at_the_timeout() -> None:
    """``timeout`` bounds the whole exchange: each byte coming before a read timeout
    would otherwise hold the call for as long as the server likes."""
    async def dribble(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter) -> None:
        await srv.write(writer, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                b"Content-Length: 1000\r\n\r\n")
        for _ in range(1000):
            await srv.write(writer, b" ")
            await asyncio.sleep(0.1)

    srv = HostileServer(dribble)
    async with srv as base, AsyncClient(base, timeout=1) as c:
        with pytest.raises(ConnectionFailed, match="no whole answer within 1 s"):
            await c.stats()
        assert not srv.finished and len(srv.heads) == 1  # cut short, and not retried


async def test_an_answer_larger_than_max_response_bytes_is_not_read_on() -> None:
    """An endless answer, and a small gzip one that inflates past the bound, stop at
    ``max_response_bytes`` (counted after decompression) with a ServerError; the
    server's endless answer is not read to its end (it took 3.7 GB of memory for
    600 MB before the bound)."""
    import gzip

    async def endless(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter) -> None:
        await srv.write(writer, b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
                                b"Transfer-Encoding: chunked\r\n\r\n")
        chunk = b"[" + b"0," * 32768
        while True:  # until the client hangs up
            await srv.write(writer, b"%x\r\n" % len(chunk) + chunk + b"\r\n")

    bomb = gzip.compress(b"[" + b"0," * (4 * 1024 * 1024) + b"0]")

    async def inflating(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                        ) -> None:
        await srv.write(writer, _ok(bomb, "Content-Encoding: gzip"))

    srv = HostileServer(endless)
    async with srv as base, AsyncClient(base, max_response_bytes=1024 * 1024) as c:
        with pytest.raises(ServerError, match="larger than max_response_bytes"):
            await c.stats()
        for _ in range(100):  # the server notices the hang-up at its next write
            if srv.server is not None and not srv.finished and srv.sent:
                break
            await asyncio.sleep(0.01)
    assert not srv.finished
    async with HostileServer(inflating) as base, \
            AsyncClient(base, max_response_bytes=1024 * 1024) as c:
        assert len(bomb) < 1024 * 1024
        with pytest.raises(ServerError, match="larger than max_response_bytes"):
            await c.stats()
    for bad in (0, 10, True, 1.5e6, "1000000"):
        with pytest.raises(ConfigError, match="max_response_bytes"):
            AsyncClient("http://127.0.0.1:1", max_response_bytes=bad)  # type: ignore[arg-type]


async def test_a_redirect_is_not_followed_and_the_key_goes_nowhere_else() -> None:
    """A 3xx answer is a ServerError naming where it pointed; the other address never
    sees a request (the bearer key would have gone with it)."""
    async def elsewhere(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                        ) -> None:
        await srv.write(writer, _ok(b'{"status": "ok"}'))

    other_server = HostileServer(elsewhere)
    async with other_server as other:
        async def redirect(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                           ) -> None:
            await srv.write(writer, f"HTTP/1.1 307 Temporary Redirect\r\nLocation: {other}"
                                    f"/v1/stats\r\nContent-Length: 0\r\n\r\n".encode())

        async with HostileServer(redirect) as base, \
                AsyncClient(base, "secret-key-0123456789") as c:
            with pytest.raises(ServerError, match="307 to .*not followed") as err:
                await c.stats()
    assert err.value.http_status == 307 and other_server.heads == []


class PathProxy:
    """A small reverse proxy on 127.0.0.1 serving ``upstream`` under the path ``/p`` (as
    a proxy in front of ``chatmem serve`` does), except the routes of ``canned``, which
    it answers itself (its own error page, a redirect, a broken answer)."""

    def __init__(self, upstream: str, canned: dict[str, bytes]) -> None:
        self.upstream = httpx.URL(upstream)
        self.canned = canned
        self.server: asyncio.AbstractServer | None = None

    async def __aenter__(self) -> str:
        self.server = await asyncio.start_server(self._handle, "127.0.0.1", 0)
        return f"http://127.0.0.1:{self.server.sockets[0].getsockname()[1]}/p"

    async def __aexit__(self, *exc: object) -> None:
        assert self.server is not None
        self.server.close()
        await self.server.wait_closed()

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
                      ) -> None:
        try:
            head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1")
            method, target, version = head.split("\r\n", 1)[0].split(" ")
            route = target.split("?", 1)[0]
            if route in self.canned:
                writer.write(self.canned[route])
            else:  # forwarded under its path less /p, to the upstream's Host, then closed
                lines = [f"{method} {target.removeprefix('/p')} {version}"] + [
                    line for line in head.split("\r\n")[1:-2]
                    if not line.lower().startswith(("host:", "connection:"))]
                lines += [f"Host: {self.upstream.netloc.decode()}", "Connection: close"]
                length = next((int(line.split(":")[1]) for line in lines
                               if line.lower().startswith("content-length:")), 0)
                body = await reader.readexactly(length)
                up_reader, up_writer = await asyncio.open_connection(
                    self.upstream.host, self.upstream.port)
                up_writer.write("\r\n".join(lines).encode("latin-1") + b"\r\n\r\n" + body)
                writer.write(await up_reader.read())
                up_writer.close()
            await writer.drain()
        finally:
            writer.close()


async def test_every_error_names_the_request_as_it_was_sent_behind_a_proxy(server: str
                                                                           ) -> None:
    """With a base_url holding a path (a proxy at /p), a proxy's error page said
    ``GET /p/v1/stats``, a redirect ``GET /v1/whoami``, a broken answer ``GET
    /v1/retention`` and a refused connection ``GET http://127.0.0.1:…/p/health``: now
    each names it ``GET http://127.0.0.1:…/p/…``, as it was sent."""
    page = b"<html><body>502 Bad Gateway</body></html>"
    canned = {
        "/p/v1/stats": (b"HTTP/1.1 502 Bad Gateway\r\nContent-Type: text/html\r\n"
                        b"Content-Length: %d\r\nConnection: close\r\n\r\n" % len(page)) + page,
        "/p/v1/whoami": (b"HTTP/1.1 307 Temporary Redirect\r\nLocation: http://127.0.0.1:1/"
                         b"v1/whoami\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
        "/p/v1/retention": _ok(b'{"days": 3}', "Connection: close"),
    }
    proxy = PathProxy(server, canned)
    async with proxy as base, AsyncClient(base, OWNER, connect_retries=0) as c:
        assert (await c.health())["status"] == "ok"  # through the proxy to the server
        assert (await c.upsert_session(Session(id="proxied", resource_id="ann"))) \
            == await c.get_session("proxied")
        said: dict[str, str] = {}
        for route, call in (("/v1/stats", c.stats()), ("/v1/whoami", c.whoami()),
                            ("/v1/retention", c.effective_retention("s"))):
            with pytest.raises(ServerError) as err:
                await call
            said[route] = str(err.value)
        await proxy.__aexit__()
        with pytest.raises(ConnectionFailed) as failed:
            await c.health()
        said["/health"] = str(failed.value)
    for route, text in said.items():
        assert text.startswith(f"GET {base}{route}: "), text
    assert "HTTP 502: <html>" in said["/v1/stats"] and "HTTP 307 to" in said["/v1/whoami"]


def test_the_readme_example_runs_as_a_script_against_the_readme_keys(tmp_path: Path) -> None:
    """README § Python client, run as a user would (a script, against a ``chatmem serve``
    with README's own key file): it adds, recalls, is refused a setting with the user
    key, lists and forgets. Before, its ``async with`` stood at the top level, where a
    script stops at once: SyntaxError: 'async with' outside async function."""
    keys = tmp_path / "keys.toml"
    [keys_example] = re.findall(r"```toml\n(.*?)```", section("## HTTP server"), re.S)
    keys.write_text(keys_example, encoding="utf-8")
    [example] = python_blocks(section("### Python client"))
    with chatmem_serve(f"sqlite:///{tmp_path}/{{namespace}}.db", keys,
                       tmp_path / "serve.log") as base:
        assert example.count("http://127.0.0.1:8765") == 3
        done = run_example(example.replace("http://127.0.0.1:8765", base), tmp_path, {})
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0].endswith(" I prefer oat milk"), out
    assert out[1].startswith("changing settings needs an owner key") and out[1].endswith(
        " 403"), out


def test_a_bad_session_id_is_refused_in_the_librarys_words(server: str, tmp_path: Path) -> None:
    """get_session and upsert_session refused a bad session id (empty, not text, too
    long) with words of their own (``session: a non-empty string is required``, for a
    number and None alike) where the library names what is wrong; and upsert_session
    sent a session the library refuses (an id of spaces, an unknown field) for the
    server to answer in other words. They now check as the library does, nothing sent."""
    from chatmem import SyncMemory

    mem = SyncMemory.open(f"sqlite:///{tmp_path}/lib.db")
    calls: list[tuple[str, Any]] = [
        *[("get_session", bad) for bad in ("", 5, None, "x" * 600, "a\x00b")],
        *[("upsert_session", bad) for bad in (
            {"id": ""}, {"id": "   "}, {"id": 5}, {"id": "x" * 600}, {"resource_id": "r"},
            {"id": "s", "bogus": 1}, Session(id=""), "s1")],
    ]
    try:
        with Client(server, OWNER) as c:
            for method, bad in calls:
                with pytest.raises(InvalidInput) as lib:
                    getattr(mem, method)(bad)
                with pytest.raises(InvalidInput) as remote:
                    getattr(c, method)(bad)
                assert str(remote.value) == str(lib.value), (method, bad)
                assert remote.value.http_status is None, (method, bad)  # nothing sent
    finally:
        mem.close()


def test_a_query_or_flag_of_the_wrong_type_is_refused_as_the_library_refuses_it(
        server: str, tmp_path: Path) -> None:
    """A query holds text only: list(limit="5") and effective_scope(5) reached the server
    as limit=5 and session "5" and were answered, where the library refuses both; a
    limit out of range was refused by the server in other words (``limit must be at most
    1000``); and erase and forget read dry_run by its truth (``dry_run="no"`` counted
    without erasing, ``dry_run=0`` erased). Each is now refused before anything is sent,
    in the library's words."""
    from chatmem import SyncMemory

    mem = SyncMemory.open(f"sqlite:///{tmp_path}/lib.db")
    calls: list[tuple[str, Any]] = [
        *[(f"list(limit={bad!r})", lambda m, bad=bad: m.list(session="s1", limit=bad))
          for bad in ("5", True, 2.0, 0, 1001)],
        *[(f"list(since={bad!r})", lambda m, bad=bad: m.list(since=bad))
          for bad in ("5", True, -1, 10**20)],
        ("list(until='9')", lambda m: m.list(until="9")),
        ("list(session=5)", lambda m: m.list(session=5)),
        ("sessions(limit='5')", lambda m: m.sessions(limit="5")),
        ("sessions(limit=0)", lambda m: m.sessions(limit=0)),
        ("sessions(after=5)", lambda m: m.sessions(after=5)),
        ("effective_scope(5)", lambda m: m.effective_scope(5)),
        ("effective_retention(5)", lambda m: m.effective_retention(5)),
        *[(f"erase(dry_run={bad!r})", lambda m, bad=bad: m.erase(["m1"], dry_run=bad))
          for bad in ("no", 0, 1, None)],
        ("forget(dry_run='no')", lambda m: m.forget(session="s1", dry_run="no")),
    ]
    try:
        with Client(server, OWNER) as c:
            for name, call in calls:
                with pytest.raises(InvalidInput) as lib:
                    call(mem)
                with pytest.raises(InvalidInput) as remote:
                    call(c)
                assert str(remote.value) == str(lib.value), name
                assert remote.value.http_status is None, name  # nothing sent
    finally:
        mem.close()
