"""Messages coming in (I7, R3): an audit's findings, each with a test that fails before.

OpenAI chat-completions shapes a real bot sends that were refused or stored wrongly,
and careless input that overwrote data silently or escaped as a raw ``TypeError``.
Each runs on SQLite and on PostgreSQL (skipped without ``CHATMEM_TEST_PG_URL``).
"""

from __future__ import annotations

import types
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from backends import drop_pg_schema, pg_schema_url, pg_url
from chatmem import InvalidInput, Memory, Message, Session
from chatmem.embedding import Embedder
from providers import RecordingProvider

CALL = {"id": "call_1", "type": "function",
        "function": {"name": "get_weather", "arguments": '{"city": "Berlin"}'}}


@pytest.fixture(params=["sqlite", "postgres"])
async def mem(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Memory]:
    if request.param == "sqlite":
        memory = await Memory.open(f"sqlite:///{tmp_path}/input.db",
                                   embedder=Embedder(RecordingProvider()))
        yield memory
        await memory.close()
        return
    base, schema = pg_url(), f"t_input_{uuid.uuid4().hex[:12]}"
    memory = await Memory.open(pg_schema_url(base, schema),
                               embedder=Embedder(RecordingProvider()))
    try:
        yield memory
    finally:
        await memory.close()
        await drop_pg_schema(base, schema)


async def stored(mem: Memory) -> list[Message]:
    return [m for s in ("s1", "s2") for m in (await mem.list(session=s)).messages]


@pytest.mark.parametrize(("message", "field"), [
    ({"role": "user", "name": "", "content": "my phone number is 555-0100"}, "name"),
    ({"role": "user", "name": "  ", "content": "my phone number is 555-0100"}, "name"),
    ({"role": "user", "speaker_id": "", "content": "my phone number is 555-0100"},
     "speaker_id"),
    ({"role": "user", "speaker_name": "", "content": "hi"}, "speaker_name"),
    ({"role": "user", "platform": "", "content": "hi"}, "platform"),
])
async def test_an_empty_speaker_or_platform_is_refused_not_stored_over_the_batch_default(
        mem: Memory, message: dict[str, Any], field: str) -> None:
    # name "" used to be stored as speaker "" instead of the batch's "alice": then
    # forget(speaker_id="alice") missed the message, and forget(speaker_id="") is refused
    with pytest.raises(InvalidInput, match=rf"messages\[1\]\.{field} must not be empty"):
        await mem.add([{"role": "user", "content": "hello"}, message], session="s1",
                      speaker_id="alice", speaker_name="Alice", platform="web")
    assert await stored(mem) == []
    [ok] = await mem.add([{"role": "user", "name": "bob", "content": "hi"}], session="s1",
                         speaker_id="alice")
    assert (ok.speaker_id, ok.speaker_name) == ("bob", "bob")


@pytest.mark.parametrize("field", ["platform", "speaker_id", "speaker_name"])
@pytest.mark.parametrize("value", ["", "  "])
async def test_an_empty_speaker_or_platform_is_refused_in_a_message_object_too(
        mem: Memory, field: str, value: str) -> None:
    """A mapping's ``platform: ""`` was refused, a Message's stored: a message no
    ``list(platform=…)`` or ``forget(speaker_id=…)`` can name. Refused the same way."""
    said = f"messages[1].{field} must not be empty (leave it out when there is none)"
    for given in ({"session_id": "s1", "content": "hi", field: value},
                  Message(session_id="s1", content="hi", **{field: value})):
        with pytest.raises(InvalidInput) as err:
            await mem.add([Message(session_id="s1", content="hello"), given])
        assert str(err.value) == said, given
    assert await stored(mem) == []


@pytest.mark.parametrize("field", ["parent_id", "resource_id", "origin_platform",
                                   "chat_type", "group_id", "group_name"])
@pytest.mark.parametrize("value", ["", "  "])
async def test_an_empty_session_field_is_refused_as_http_refuses_it(
        mem: Memory, field: str, value: str) -> None:
    """upsert_session stored resource_id "" (HTTP refused it): a session no scope could
    name, beside README's word that no stored session has an empty resource."""
    said = f"session.{field} must not be empty (leave it out when there is none)"
    for given in ({"id": "s9", field: value}, Session(id="s9", **{field: value})):
        with pytest.raises(InvalidInput) as err:
            await mem.upsert_session(given)
        assert str(err.value) == said, given
    assert await mem.store.get_sessions(["s9"]) == {}


async def test_sdk_objects_inside_a_message_mapping_are_taken_as_their_mappings(
        mem: Memory) -> None:
    # {"role": "assistant", "tool_calls": reply.tool_calls} is how many bots append a
    # reply to the history, and the OpenAI client sends it as is: it used to be refused
    # ("tool_calls[0] must be an object, got ChatCompletionMessageFunctionToolCall")
    openai = pytest.importorskip("openai")
    reply = openai.types.chat.ChatCompletionMessage.model_validate(
        {"role": "assistant", "content": None, "tool_calls": [CALL]})
    legacy = openai.types.chat.ChatCompletionMessage.model_validate(
        {"role": "assistant", "content": None,
         "function_call": {"name": "lookup", "arguments": "{}"}})
    calls, fn = await mem.add([
        {"role": "assistant", "content": reply.content, "tool_calls": reply.tool_calls},
        {"role": "assistant", "content": None, "function_call": legacy.function_call},
    ], session="s1")
    assert calls.metadata["tool_calls"] == [CALL]
    assert (calls.content, calls.source) == (
        '[tool call: get_weather({"city": "Berlin"})]', "tool_call")
    assert fn.metadata["function_call"] == {"name": "lookup", "arguments": "{}"}
    assert [m.to_dict() for m in await stored(mem)] == [calls.to_dict(), fn.to_dict()]


async def test_an_audio_reply_sent_back_by_its_id_is_stored_and_never_embedded(
        mem: Memory) -> None:
    # the OpenAI audio guide sends an earlier spoken reply back as {"role": "assistant",
    # "audio": {"id": …}} with no content: add and context refused the whole list
    history = [{"role": "user", "content": "Is a golden retriever a good family dog?"},
               {"role": "assistant", "audio": {"id": "audio_abc123"}},
               {"role": "user", "content": "Why do you say they are loyal?"}]
    _, audio, _ = await mem.add(history, session="s1")
    assert (audio.role, audio.content, audio.source) == ("assistant", "[audio reply]",
                                                         "audio")
    assert audio.metadata == {"audio": {"id": "audio_abc123"}} and not audio.indexable
    assert await mem.context(history, session="s2") is not None
    await mem.flush(timeout=30)
    assert (await mem.stats())["skipped"] == 1


@pytest.mark.parametrize(("message", "key"), [
    ({"role": "user", "content": [{"type": "image_url",
                                   "image_url": {"url": "https://ex.org/cat.png"}}]},
     "attachments"),
    ({"role": "assistant", "content": None, "tool_calls": [CALL]}, "tool_calls"),
    ({"role": "tool", "tool_call_id": "call_1", "content": "sunny"}, "tool_call_id"),
    ({"role": "developer", "content": "Answer in English"}, "openai_role"),
    ({"role": "function", "name": "lookup", "content": "42"}, "name"),
    ({"role": "assistant", "content": None, "refusal": "I can't"}, "refusal"),
    ({"role": "assistant", "content": "hi", "audio": {"id": "a1"}}, "audio"),
])
async def test_metadata_a_message_gives_is_never_overwritten_by_chatmem_s_own_keys(
        mem: Memory, message: dict[str, Any], key: str) -> None:
    mine = {key: "my own value", "tag": 1}
    with pytest.raises(InvalidInput, match=rf"messages\[0\]\.metadata\.{key} is set by "
                                           "chatmem"):
        await mem.add([{**message, "metadata": mine}], session="s1")
    assert await stored(mem) == []
    [plain] = await mem.add([message], session="s1")  # the same value again is fine
    [again] = await mem.add([{**message, "metadata": dict(plain.metadata)}], session="s1")
    assert again.metadata == plain.metadata


async def test_tool_calls_are_never_embedded_whatever_the_role(mem: Memory) -> None:
    [user_call] = await mem.add([{"role": "user", "content": None, "tool_calls": [CALL]}],
                                session="s1")
    assert (user_call.source, user_call.indexable) == ("tool_call", False)
    await mem.flush(timeout=30)
    assert (await mem.stats())["indexed"] == 0


async def test_an_id_given_twice_in_one_batch_with_other_content_names_both(
        mem: Memory) -> None:
    with pytest.raises(InvalidInput, match=r'messages\[2\]\.id "m1" is also messages\[1\]\.id'):
        await mem.add([{"content": "a", "id": "m0"}, {"content": "b", "id": "m1"},
                       {"content": "c", "id": "m1"}], session="s1")
    assert await stored(mem) == []
    twice = await mem.add([{"content": "b", "id": "m1"}, {"content": "b", "id": "m1"}],
                          session="s1")  # the same add twice: stored once
    assert [m.id for m in twice] == ["m1", "m1"] and len(await stored(mem)) == 1


@pytest.mark.parametrize("inner", [types.MappingProxyType({"b": 1})])
async def test_a_nested_mapping_that_is_not_a_dict_is_an_invalid_input_not_a_type_error(
        mem: Memory, inner: Any) -> None:
    # it passed the check, then the store's JSON encoder raised TypeError
    with pytest.raises(InvalidInput, match=r"messages\[0\]\.metadata\.a: must be JSON"):
        await mem.add([{"content": "x", "metadata": {"a": inner}}], session="s1")
    with pytest.raises(InvalidInput, match=r"session\.metadata\.a: must be JSON"):
        await mem.upsert_session({"id": "s1", "metadata": {"a": inner}})
    [msg] = await mem.add([{"content": "x", "metadata": {"a": {"b": 1}}}], session="s1")
    with pytest.raises(InvalidInput, match=r"^metadata\.a\.c: must be JSON"):
        await mem.rewrite("s1", msg.ts or 0, metadata={"a": {"c": inner}})
    assert [dict(m.metadata) for m in await stored(mem)] == [{"a": {"b": 1}}]
    session = await mem.get_session("s1")  # registered by the add, without metadata
    assert session is None or dict(session.metadata) == {}


async def test_a_tuple_in_metadata_is_refused_not_read_back_as_a_list(mem: Memory) -> None:
    """README: metadata is plain JSON, "so what you read back is what you wrote". A
    tuple inside it was taken and stored as a list: ``add`` answered ``{"k": (1, 2)}``
    and every read after gave ``{"k": [1, 2]}`` (a message, a batch, an OpenAI message,
    a rewrite, a session's metadata and settings, on SQLite and PostgreSQL). Now it is
    refused as a set is, naming where it is and the fix; nothing is stored."""
    said = "must be a list, not a tuple (it would be read back as a list), got tuple (1, 2)"
    for given in (Message(session_id="s1", content="x", metadata={"k": (1, 2)}),
                  {"session_id": "s1", "content": "x", "metadata": {"k": (1, 2)}}):
        with pytest.raises(InvalidInput) as err:  # the second message of a batch
            await mem.add([Message(session_id="s1", content="first"), given])
        assert str(err.value) == f"messages[1].metadata.k: {said}"
    with pytest.raises(InvalidInput) as err:  # nested, in an OpenAI message
        await mem.add([{"role": "user", "content": "x", "metadata": {"a": [{"k": (1, 2)}]}}],
                      session="s1")
    assert str(err.value) == f"messages[0].metadata.a[0].k: {said}"
    for field in ("metadata", "settings"):
        with pytest.raises(InvalidInput) as err:
            await mem.upsert_session({"id": "s2", field: {"k": (1, 2)}})
        assert str(err.value) == f"session.{field}.k: {said}"
    assert await stored(mem) == [] and await mem.get_session("s2") is None
    [msg] = await mem.add([{"content": "x", "metadata": {"k": [1, 2]}}], session="s1")
    assert msg.metadata == {"k": [1, 2]}  # a list is what it was
    with pytest.raises(InvalidInput) as err:
        await mem.rewrite("s1", msg.ts or 0, metadata={"k": (1, 2)})
    assert str(err.value) == f"metadata.k: {said}"
    assert [dict(m.metadata) for m in await stored(mem)] == [{"k": [1, 2]}]


PNG = ("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJ"
       "RU5ErkJggg==")


@pytest.mark.parametrize(("url", "described"), [
    (f"data:{PNG}", "[image]"),  # no media type: the bytes stood in its place
    (f"DATA:image/png;base64,{PNG}", "[image: image/png]"),  # the scheme's case
    (f" data:image/png;base64,{PNG}", "[image: image/png]"),
    ("data:" + "B" * 150_000, "[image]"),  # was "metadata is too large"
])
async def test_a_data_url_is_never_stored_whatever_its_shape(mem: Memory, url: str,
                                                             described: str) -> None:
    await mem.add([{"role": "user", "content": [
        {"type": "text", "text": "what is this?"},
        {"type": "image_url", "image_url": {"url": url}}]}], session="s1")
    [got] = await stored(mem)
    assert got.content == f"what is this?\n{described}"
    assert PNG[:20] not in str(got.to_dict()) and "BBBB" not in str(got.to_dict())


async def test_a_spoken_reply_is_stored_as_its_transcript_without_the_sound(
        mem: Memory) -> None:
    # reply.choices[0].message of an audio model carries the sound as base64, which
    # was kept in the metadata: past 100,000 characters the add was refused
    openai = pytest.importorskip("openai")
    reply = openai.types.chat.ChatCompletionMessage.model_validate(
        {"role": "assistant", "content": None, "audio": {
            "id": "audio_1", "data": "UklGR" + "A" * 300_000, "expires_at": 1730000000,
            "transcript": "Golden retrievers are loyal."}})
    [msg] = await mem.add([reply], session="s1")
    assert (msg.content, msg.indexable) == ("Golden retrievers are loyal.", True)
    assert [dict(m.metadata) for m in await stored(mem)] == [{"audio": {
        "id": "audio_1", "expires_at": 1730000000,
        "transcript": "Golden retrievers are loyal."}}]
