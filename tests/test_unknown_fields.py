"""A field chatmem does not take is named with the one meant, on every door.

The HTTP API already said ``messages[0]: unknown field(s) sesion_id (did you mean
session_id?)``; the library, an import file and the key file said ``unknown field(s)
text`` with no word of what to write instead, and no door knew ``text`` (mem0,
LangChain), ``timestamp`` or ``speaker`` (too far from ``content``, ``ts``,
``speaker_name`` for a spelling match) as what a user moving from another library
writes first."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from chatmem import Memory, testing
from chatmem.config import Config
from chatmem.errors import ChatmemError, ConfigError, InvalidInput
from chatmem.server.http import KeyTable, create_app
from chatmem.transfer import validate_jsonl
from servers import running

KEY = "owner-key-0123456789abcdef"

MESSAGE_CASES = [
    ({"text": "x"}, "unknown field(s) text (did you mean content?)"),
    ({"content": "x", "timestamp": 5}, "unknown field(s) timestamp (did you mean ts?)"),
    ({"content": "x", "speaker": "Alex"},
     "unknown field(s) speaker (did you mean speaker_name?)"),
    ({"content": "x", "sesion_id": "s"},
     "unknown field(s) sesion_id (did you mean session_id?)"),
]


@pytest.mark.parametrize(("message", "says"), MESSAGE_CASES)
async def test_a_message_s_unknown_field_is_named_with_the_one_meant(
        tmp_path: Path, message: dict[str, Any], says: str) -> None:
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=testing.embedder()) as memory:
        with pytest.raises(InvalidInput) as info:
            await memory.add(message, session="s1")
        assert str(info.value) == f"messages[0]: {says}"
        assert (await memory.list()).messages == ()  # nothing stored


async def test_an_unknown_field_with_nothing_near_lists_what_is_taken(tmp_path: Path
                                                                       ) -> None:
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=testing.embedder()) as memory:
        with pytest.raises(InvalidInput) as info:
            await memory.add({"content": "x", "colour": "red"}, session="s1")
        said = str(info.value)
        assert said.startswith("messages[0]: unknown field(s) colour; it takes session_id, "
                               "content, role, ts, "), said
        assert "tool_calls" in said  # a chat-completions message's fields too
        with pytest.raises(InvalidInput) as info:
            await memory.upsert_session({"id": "s2", "parent": "s1", "x": 1})
        assert str(info.value) == (
            "session: unknown field(s) parent (did you mean parent_id?), x; it takes id, "
            "parent_id, resource_id, origin_platform, chat_type, group_id, group_name, "
            "metadata, settings")


def test_an_import_line_and_a_key_file_name_the_field_meant() -> None:
    lines = [json.dumps({"type": "header", "format": "chatmem-jsonl", "version": 1}),
             json.dumps({"type": "message", "id": "m1", "session_id": "s",
                         "content": "hi", "ts": 5}),
             json.dumps({"type": "vector", "message_id": "m1", "session_id": "s", "ts": 5,
                         "vectr": [1.0]})]
    with pytest.raises(ChatmemError) as info:
        validate_jsonl(lines)
    assert "vector: unknown field(s) vectr (did you mean vector?)" in str(info.value)
    with pytest.raises(ConfigError) as config_info:
        KeyTable.from_mapping({"keys": {"a": {"key": KEY, "namespace": "a",
                                              "rol": "owner"}}})
    assert str(config_info.value).endswith(
        "keys.a: unknown field(s) rol (did you mean role?)")


@pytest.fixture
def api(tmp_path: Path) -> Iterator[str]:
    keys = KeyTable.from_mapping({"keys": {"o": {"key": KEY, "namespace": "o",
                                                 "role": "owner"}}})
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys,
                     config=Config.load(), embedder=testing.embedder())
    with running(app) as base:
        yield base


@pytest.mark.parametrize(("message", "says"), MESSAGE_CASES)
def test_the_http_api_names_the_field_meant_as_the_library_does(
        api: str, message: dict[str, Any], says: str) -> None:
    with httpx.Client(base_url=api, headers={"Authorization": f"Bearer {KEY}"},
                      timeout=30) as c:
        r = c.post("/v1/messages", json={"messages": [{"session_id": "s1", **message}]})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].endswith(f"messages[0]: {says}")
        assert c.get("/v1/stats").json()["messages"] == 0


def test_a_context_or_recall_body_in_other_libraries_names_is_told_the_field_meant(
        api: str) -> None:
    """POST /v1/context of a chat-completions body ({"messages": […]}) said "turn is
    required; body: unknown field(s) messages; it takes turn, session, …"."""
    with httpx.Client(base_url=api, headers={"Authorization": f"Bearer {KEY}"},
                      timeout=30) as c:
        turn = [{"role": "user", "content": "where do I live?"}]
        r = c.post("/v1/context", json={"messages": turn, "session": "s1"})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"] == (
            "turn is required; body: unknown field(s) messages (did you mean turn?)")
        r = c.post("/v1/recall", json={"question": "where?", "k": 3})
        assert r.json()["error"]["message"] == (
            "query is required; body: unknown field(s) question (did you mean query?), "
            "k (did you mean top_k?)")
