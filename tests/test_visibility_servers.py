"""R4/R6 as a property through the network doors: over the random worlds of
test_visibility_property.py, a *user* API key on the HTTP API (``/v1/recall`` and
``/v1/tool``) and the MCP tool never get a message outside the asking session's
visible set, and a wider scope than the session's effective one never widens it.

The sessions are registered through ``PUT /v1/sessions/{id}`` with the owner key; the
oracle (``effective``, ``visible``) is test_visibility_property.py's.
"""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem import Memory
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.server.http import KeyTable, Namespaces, create_app
from providers import RecordingProvider
from test_visibility_property import PLATFORMS, SCOPES, WIDER, WORDS, World, root, visible, worlds
from test_visibility_property import effective as oracle_scope

pytest.importorskip("mcp")
from mcp import Client

from chatmem.server.mcp import create_server

OWNER = "owner-key-0123456789abcdef"
USER = "user-key-0123456789abcdef0"


def has_resource(world: World, sid: str) -> bool:
    s = {x.id: x for x in world.sessions}[sid]
    return (s.resource_id or root(world, sid).resource_id) is not None


async def check(world: World, asker: str, entry: str | None, requested: str | None,
                query: str) -> None:
    table = KeyTable.from_mapping({"keys": {
        "owner": {"key": OWNER, "namespace": "w", "role": "owner"},
        "bot": {"key": USER, "namespace": "w", "role": "user"}}})
    app = create_app(url="memory://", keys=table,
                     config=Config.load({"scope": world.config_scope,
                                         "indexing": {"concurrency": 1},
                                         "context_expand": {"window": 2}}),
                     embedder=Embedder(RecordingProvider(dim=32)))
    namespaces: Namespaces = app.app.state.namespaces  # type: ignore[attr-defined]
    transport = httpx.ASGITransport(app=app)
    base = oracle_scope(world, asker, entry)
    async with httpx.AsyncClient(transport=transport, base_url="http://t",
                                 headers={"Authorization": f"Bearer {OWNER}"}) as owner, \
            httpx.AsyncClient(transport=transport, base_url="http://t",
                              headers={"Authorization": f"Bearer {USER}"}) as user:
        for s in world.sessions:
            fields = {k: v for k, v in s.to_dict().items()
                      if v is not None and k not in ("id", "settings", "metadata")}
            r = await owner.put(f"/v1/sessions/{s.id}", json=fields)
            assert r.status_code == 200, r.text
        r = await owner.post("/v1/messages", json={"messages": [
            {k: v for k, v in m.to_dict().items() if k in (
                "session_id", "content", "ts", "role", "kind", "platform", "speaker_id")}
            for m in world.messages]})
        assert r.status_code == 200, r.text
        by_id = {m["id"]: world.messages[i] for i, m in enumerate(r.json()["messages"])}
        mem = await namespaces.get("w")
        for key, value in world.settings.items():
            await mem.store.meta_set("scope-settings", key, value)
        await mem.flush(timeout=30)

        def assert_visible(ids: list[str], scope: str) -> None:
            for mid in ids:
                assert visible(world, asker, entry, scope, by_id[mid]), (scope, by_id[mid])

        def check_answer(r: httpx.Response, ids: list[str]) -> None:
            if r.status_code == 400:  # resource scope without a resource id: an error
                assert "resource" in (base, requested), r.text
                return
            assert r.status_code == 200, r.text
            got = r.json()
            if requested is not None and requested not in WIDER[base]:
                assert got["scope"] == base and got["clamped"] is True
            if base != "resource" or has_resource(world, asker):
                assert_visible(ids, base)  # a user key never widens
            assert_visible(ids, got["scope"])

        # HTTP /v1/recall with a user key
        r = await user.post("/v1/recall", json={
            "query": query, "session": asker, "platform": entry, "top_k": 5,
            **({"scope": requested} if requested else {})})
        ids = [] if r.status_code != 200 else [
            m["id"] for h in r.json()["hits"] for m in (h["message"], *h["before"], *h["after"])]
        check_answer(r, ids)
        # HTTP /v1/tool with a user key
        r = await user.post("/v1/tool", json={
            "arguments": {"query": query, **({"scope": requested} if requested else {})},
            "caller": {"session_id": asker, "platform": entry}})
        check_answer(r, [] if r.status_code != 200 else [h["id"] for h in r.json()["hits"]])

        # MCP memory_recall for the same conversation (closes the memory at the end)
        async def opened() -> Memory:
            return mem

        server = create_server(opened, session=asker, platform=entry)
        async with Client(server) as client:
            args: dict[str, Any] = {"query": query}
            if requested:
                args["scope"] = requested
            result = await client.call_tool("memory_recall", args)
            if result.is_error:
                assert "resource" in (base, requested)
            else:
                got = result.structured_content
                assert got is not None
                if requested is not None and requested not in WIDER[base]:
                    assert got["scope"] == base and got["clamped"] is True
                ids = [h["id"] for h in got["hits"]]
                if base != "resource" or has_resource(world, asker):
                    assert_visible(ids, base)
                assert_visible(ids, got["scope"])
    await namespaces.close()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(world=worlds(), data=st.data())
def test_user_keys_and_mcp_never_see_outside_the_visible_set(world: World,
                                                             data: st.DataObject) -> None:
    asker = data.draw(st.sampled_from([s.id for s in world.sessions]))
    entry = data.draw(st.sampled_from([None, *PLATFORMS]))
    requested = data.draw(st.sampled_from([None, *SCOPES]))
    query = " ".join(data.draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3)))
    asyncio.run(check(world, asker, entry, requested, query))
