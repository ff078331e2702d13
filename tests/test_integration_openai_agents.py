"""The OpenAI Agents SDK adapter (issue 13 part 3), against the real ``agents`` package.

The model is the SDK's own ``ScriptedModel`` (no network), or the chat completions
model pointed at the fake OpenAI-compatible server on 127.0.0.1 (the README example).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("agents")

from agents import Agent, FunctionTool, RunConfig, Runner
from agents.memory import Session, SessionSettings
from agents.testing import (
    ModelCall,
    ModelStep,
    ScriptedModel,
    assistant_message,
    function_call,
)
from openai.types.responses import ResponseFunctionToolCall

import chatmem.testing
from chatmem import InvalidInput, Memory, Message
from chatmem.extras import install_hint
from chatmem.integrations.openai_agents import (
    ITEM_KEY,
    ChatmemSession,
    instructions_with_memory,
    item_to_message,
    memory_recall_tool,
)
from fake_embeddings import FakeOpenAI
from readme import python_blocks, run_example, section

ROOT = Path(__file__).parents[1]
NO_TRACES = RunConfig(tracing_disabled=True)



def echo(call: ModelCall) -> list[Any]:
    """A reply naming the user texts the model was given, oldest first."""
    users = [item["content"] for item in call.input
             if isinstance(item, dict) and item.get("role") == "user"]
    return [assistant_message("saw: " + " | ".join(users))]


async def stored(mem: Memory, session: str) -> list[tuple[str, str | None, str]]:
    return [(m.role, m.source, m.content)
            for m in (await mem.list(session=session)).messages]


async def test_a_chatmem_session_is_an_agents_session_and_the_second_run_sees_the_first(
        mem: Memory, tmp_path: Path) -> None:
    session = ChatmemSession(mem, "alex-dm", speaker_id="alex", platform="web")
    assert isinstance(session, Session)  # the SDK's runtime-checkable protocol
    model = ScriptedModel([ModelStep.respond(echo), ModelStep.respond(echo)])
    agent = Agent(name="assistant", model=model, instructions="Be brief.")

    first = await Runner.run(agent, "I live in Berlin", session=session, run_config=NO_TRACES)
    assert first.final_output == "saw: I live in Berlin"
    second = await Runner.run(agent, "Which city do I live in?", session=session,
                              run_config=NO_TRACES)
    assert second.final_output == "saw: I live in Berlin | Which city do I live in?"
    # the second model call got the first run's items back from chatmem, intact
    second_input = model.calls[1].input
    assert second_input[0] == {"role": "user", "content": "I live in Berlin"}
    assert second_input[1]["type"] == "message" and second_input[1]["role"] == "assistant"
    assert second_input[1]["content"][0]["text"] == "saw: I live in Berlin"

    # the chatmem store (a real SQLite file) holds the conversation as messages
    assert (tmp_path / "m.db").exists()
    assert await stored(mem, "alex-dm") == [
        ("user", None, "I live in Berlin"),
        ("assistant", None, "saw: I live in Berlin"),
        ("user", None, "Which city do I live in?"),
        ("assistant", None, "saw: I live in Berlin | Which city do I live in?"),
    ]
    messages = (await mem.list(session="alex-dm")).messages
    assert [(m.speaker_id, m.platform) for m in messages[:2]] == [("alex", "web"),
                                                                   (None, "web")]
    assert messages[1].metadata[ITEM_KEY]["id"] == "scripted-message"
    # and recall finds it
    await mem.flush()
    hits = (await mem.recall("Berlin", session="alex-dm")).hits
    assert "I live in Berlin" in [h.message.content for h in hits]

    # a new session object on the same chatmem session (a restart) sees the same items
    again = ChatmemSession(mem, "alex-dm")
    assert await again.get_items() == await session.get_items()
    assert len(await again.get_items(limit=3)) == 3
    assert (await again.get_items(limit=1))[0]["role"] == "assistant"
    assert await again.get_items(limit=0) == []


async def test_the_memory_recall_tool_runs_in_an_agent_and_tool_items_are_not_embedded(
        mem: Memory) -> None:
    await mem.add([{"role": "user", "content": "My dog is called Biscuit"},
                   {"role": "assistant", "content": "Nice name for a dog"}],
                  session="old-chat", speaker_id="alex")
    await mem.flush()
    tool = memory_recall_tool(mem, "alex-dm", speaker_id="alex")
    assert isinstance(tool, FunctionTool) and tool.name == "memory_recall"
    assert tool.params_json_schema == mem.tool_schema(strict=True)["function"]["parameters"]

    model = ScriptedModel([
        [function_call("memory_recall", {"query": "what is my dog called", "top_k": 3},
                       call_id="call_1")],
        ModelStep.respond(lambda call: [assistant_message("It is Biscuit")]),
    ])
    agent = Agent(name="assistant", model=model, tools=[tool])
    session = ChatmemSession(mem, "alex-dm", speaker_id="alex")
    result = await Runner.run(agent, "What is my dog called?", session=session,
                              run_config=NO_TRACES)
    assert result.final_output == "It is Biscuit"
    [output] = [i for i in model.calls[1].input
                if isinstance(i, dict) and i.get("type") == "function_call_output"]
    assert "My dog is called Biscuit" in output["output"]

    rows = await stored(mem, "alex-dm")
    assert [(role, source) for role, source, _ in rows] == [
        ("user", None), ("assistant", "tool_call"), ("tool", None), ("assistant", None)]
    assert rows[1][2] == '[tool call: memory_recall({"query":"what is my dog called","top_k":3})]'
    assert "My dog is called Biscuit" in rows[2][2]
    items = await session.get_items()
    assert items[1]["type"] == "function_call" and items[1]["call_id"] == "call_1"
    assert items[2] == {"type": "function_call_output", "call_id": "call_1",
                        "output": output["output"]}
    # only the user's and the assistant's words are embedded
    await mem.flush()
    assert mem.index is not None
    embedded = {e.message_id for e in await mem.index.scan_vectors(None, 1000)}
    messages = (await mem.list(session="alex-dm")).messages
    assert {m.id for m in messages if m.id in embedded} == {messages[0].id, messages[3].id}


async def test_the_tool_only_narrows_and_answers_bad_arguments_with_an_error_text(
        mem: Memory) -> None:
    await mem.add([{"role": "user", "content": "the harbour crane is blue"}],
                  session="elsewhere")
    await mem.flush()
    tool = memory_recall_tool(mem, "alex-dm")
    invoke = tool.on_invoke_tool
    answer = await invoke(None, json.dumps({"query": "harbour crane", "scope": "session"}))
    assert "harbour" not in answer  # narrowed to this conversation: nothing there
    answer = await invoke(None, json.dumps({"query": "harbour crane"}))
    assert "the harbour crane is blue" in answer
    assert (await invoke(None, "{not json")).startswith("memory_recall error: ")
    assert "unknown argument" in await invoke(None, json.dumps({"query": "x", "session": "y"}))


async def test_a_strict_tool_is_chatmem_s_strict_schema_and_takes_a_strict_call(
        mem: Memory) -> None:
    """memory_recall_tool is in the SDK's strict mode by default, as the SDK's own
    FunctionTool and function_tool are, with the schema of
    Memory.tool_schema(strict=True), which the SDK's strict check leaves as it is: the
    tool the SDK sends to a chat completions model is chatmem's strict schema itself.
    strict=False gives the default schema out of strict mode. Before, the tool was
    strict only when asked (strict=False by default, against the SDK's default and its
    advice), and at first never, the default schema under the SDK's check coming out
    requiring all five arguments, none of them nullable."""
    import inspect

    from agents import function_tool
    from agents.models.chatcmpl_converter import Converter

    # the SDK's own defaults, which chatmem's follows
    assert FunctionTool.__dataclass_fields__["strict_json_schema"].default is True
    assert inspect.signature(function_tool).parameters["strict_mode"].default is True
    await mem.add([{"role": "user", "content": "My dog is called Biscuit"}],
                  session="old-chat", speaker_id="alex")
    await mem.flush()
    loose = memory_recall_tool(mem, "alex-dm", strict=False)
    assert loose.strict_json_schema is False
    assert Converter.tool_to_openai(loose) == {**mem.tool_schema(), "function": {
        **mem.tool_schema()["function"], "strict": False}}
    tool = memory_recall_tool(mem, "alex-dm", speaker_id="alex")
    assert tool.strict_json_schema is True
    assert tool.params_json_schema == mem.tool_schema(strict=True)["function"]["parameters"]
    assert Converter.tool_to_openai(tool) == mem.tool_schema(strict=True)
    assert Converter.tool_to_openai(memory_recall_tool(mem, "alex-dm", strict=True)) == (
        mem.tool_schema(strict=True))

    every = {"query": "what is my dog called", "scope": None, "context_window": None,
             "cross_session": None, "top_k": None}
    model = ScriptedModel([
        [function_call("memory_recall", every, call_id="call_1")],
        ModelStep.respond(lambda call: [assistant_message("It is Biscuit")]),
    ])
    agent = Agent(name="assistant", model=model, tools=[tool])
    result = await Runner.run(agent, "What is my dog called?", run_config=NO_TRACES)
    assert result.final_output == "It is Biscuit"
    [output] = [i for i in model.calls[1].input
                if isinstance(i, dict) and i.get("type") == "function_call_output"]
    assert "My dog is called Biscuit" in output["output"]
    with pytest.raises(InvalidInput, match='strict must be true or false, got "yes"'):
        memory_recall_tool(mem, "alex-dm", strict="yes")  # type: ignore[arg-type]


async def test_a_streamed_run_with_a_session_limit(mem: Memory) -> None:
    session = ChatmemSession(mem, "s1", session_settings=SessionSettings(limit=2))
    await session.add_items([{"role": "user", "content": "one"},
                             {"role": "assistant", "content": "two"},
                             {"role": "user", "content": "three"}])
    model = ScriptedModel([ModelStep.respond(echo)])
    agent = Agent(name="a", model=model)
    result = Runner.run_streamed(agent, "four", session=session, run_config=NO_TRACES)
    async for _ in result.stream_events():
        pass
    assert result.final_output == "saw: three | four"  # the latest 2 items, then the input
    assert [m.content for m in (await mem.list(session="s1")).messages] == [
        "one", "two", "three", "four", "saw: three | four"]


async def test_pop_item_and_clear_session(mem: Memory) -> None:
    session = ChatmemSession(mem, "s1")
    other = ChatmemSession(mem, "s2")
    assert await session.pop_item() is None
    await session.add_items([{"role": "user", "content": "one"},
                             {"role": "assistant", "content": "two"},
                             {"role": "user", "content": "three"}])
    await other.add_items([{"role": "user", "content": "kept"}])
    assert await session.pop_item() == {"role": "user", "content": "three"}
    assert await session.get_items() == [{"role": "user", "content": "one"},
                                         {"role": "assistant", "content": "two"}]
    assert [m.content for m in (await mem.list(session="s1")).messages] == ["one", "two"]
    await session.clear_session()
    assert await session.get_items() == []
    assert (await mem.list(session="s1")).messages == ()
    assert await other.get_items() == [{"role": "user", "content": "kept"}]

    # the SDK's own pop after a run: the latest item goes
    model = ScriptedModel([[assistant_message("hello")]])
    agent = Agent(name="a", model=model)
    await Runner.run(agent, "hi", session=session, run_config=NO_TRACES)
    popped = await session.pop_item()
    assert popped is not None and popped["content"][0]["text"] == "hello"
    assert await session.get_items() == [{"content": "hi", "role": "user"}]


async def test_pops_at_once_take_each_their_own_item(mem: Memory) -> None:
    """Two pops at once both read the latest item, and both returned it (one erased it,
    the other erased nothing): an item was reported popped twice, another stayed."""
    session = ChatmemSession(mem, "s1")
    await session.add_items([{"role": "user", "content": f"m{i}"} for i in range(4)])
    popped = await asyncio.gather(session.pop_item(), session.pop_item(), session.pop_item())
    assert sorted(p["content"] for p in popped) == ["m1", "m2", "m3"]
    assert await session.get_items() == [{"role": "user", "content": "m0"}]


async def test_get_items_reads_the_latest_items_only(mem: Memory) -> None:
    """``get_items(limit)`` (what a run asks for, ``SessionSettings(limit=…)``) and
    ``pop_item`` read from the latest back, not the whole history; without a ``limit``
    ``get_items`` takes ``session_settings.limit``, as the SDK's own sessions do."""
    await mem.add([Message(session_id="s1", content=f"m{i}", role="user", ts=1000 + i)
                   for i in range(3000)])
    session = ChatmemSession(mem, "s1", session_settings=SessionSettings(limit=2))
    rows = [0]
    listed = mem.store.list_messages

    async def counted(**kw: Any) -> Any:
        page = await listed(**kw)
        rows[0] += len(page)
        return page

    mem.store.list_messages = counted  # type: ignore[method-assign]
    assert await session.get_items() == [{"role": "user", "content": "m2998"},
                                         {"role": "user", "content": "m2999"}]
    assert [i["content"] for i in await session.get_items(limit=3)] == [
        "m2997", "m2998", "m2999"]
    assert (await session.pop_item())["content"] == "m2999"
    assert rows[0] < 100, rows
    assert len(await session.get_items(limit=5000)) == 2999
    for bad in (-1, 1.5, True):
        with pytest.raises(InvalidInput, match="session_settings.limit must be"):
            await ChatmemSession(mem, "s1", session_settings={"limit": bad}).get_items()


async def test_messages_added_with_memory_add_are_part_of_the_history(mem: Memory) -> None:
    await mem.add([Message(session_id="s1", content="from the bot before", role="user"),
                   Message(session_id="s1", content="internal", role="tool")])
    session = ChatmemSession(mem, "s1")
    assert await session.get_items() == [{"role": "user", "content": "from the bot before"}]


async def test_instructions_append_what_chatmem_recalls_for_the_latest_user_input(
        mem: Memory) -> None:
    await mem.add([{"role": "user", "content": "I live in Berlin and love rowing"}],
                  session="old-chat", speaker_id="alex")
    await mem.flush()

    async def base(context: Any, agent: Agent[Any]) -> str:
        return f"You are {agent.name}."

    model = ScriptedModel([[assistant_message("ok")], [assistant_message("ok")]])
    agent = Agent(name="helper", model=model,
                  instructions=instructions_with_memory(mem, "alex-dm", base,
                                                        speaker_id="alex"))
    session = ChatmemSession(mem, "alex-dm", speaker_id="alex")
    await Runner.run(agent, "where do I live? rowing", session=session, run_config=NO_TRACES)
    system = model.calls[0].system_instructions
    assert system is not None and system.startswith("You are helper.\n\n")
    assert "I live in Berlin and love rowing" in system
    # the run's own input (stored before the model ran) is not recalled back
    assert "where do I live? rowing" not in system

    # nothing recalled (an empty store): the base instructions alone
    empty = await Memory.open("memory://", embedder=chatmem.testing.embedder())
    try:
        quiet = ScriptedModel([[assistant_message("ok")]])
        plain = Agent(name="p", model=quiet,
                      instructions=instructions_with_memory(empty, "s9", "Base."))
        await Runner.run(plain, "where do I live?", run_config=NO_TRACES)
        assert quiet.calls[0].system_instructions == "Base."
    finally:
        await empty.close()


def test_items_map_to_messages() -> None:
    dev = item_to_message({"role": "developer", "content": "be nice"}, session="s")
    assert (dev.role, dev.content, dev.metadata[ITEM_KEY]["role"]) == ("system", "be nice",
                                                                       "developer")
    parts = item_to_message({"role": "user", "content": [
        {"type": "input_text", "text": "look"},
        {"type": "input_image", "image_url": "https://x.test/cat.png?s=1", "detail": "auto"},
        {"type": "input_file", "filename": "notes.pdf", "file_data": "data:..."}]},
        session="s", speaker_id="u1")
    assert parts.content == "look\n[image: cat.png]\n[file: notes.pdf]"
    assert (parts.role, parts.speaker_id, parts.indexable) == ("user", "u1", True)
    reasoning = item_to_message({"type": "reasoning", "id": "rs_1", "summary": [
        {"type": "summary_text", "text": "thinking"}]}, session="s")
    assert (reasoning.role, reasoning.source, reasoning.content) == (
        "tool", "reasoning", "[reasoning] thinking")
    assert not reasoning.indexable
    call = item_to_message(ResponseFunctionToolCall(
        type="function_call", call_id="c1", name="f", arguments="{}"), session="s")
    assert (call.role, call.source, call.content) == ("assistant", "tool_call",
                                                      "[tool call: f({})]")
    assert call.metadata[ITEM_KEY] == {"type": "function_call", "call_id": "c1", "name": "f",
                                       "arguments": "{}"}
    empty = item_to_message({"type": "function_call_output", "call_id": "c1", "output": ""},
                            session="s")
    assert (empty.role, empty.content) == ("tool", "[no output]")
    with pytest.raises(InvalidInput, match=r"items\[0\]"):
        item_to_message({"content": "no role"}, session="s")
    with pytest.raises(InvalidInput, match="mapping"):
        item_to_message(42, session="s")


def test_without_the_sdk_the_import_error_says_what_to_install() -> None:
    code = ("import sys; sys.modules['agents'] = None\n"
            "try:\n"
            "    import chatmem.integrations.openai_agents\n"
            "except ImportError as exc:\n"
            "    print(exc)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": str(ROOT / "src")})
    assert install_hint("openai-agents") in done.stdout, done.stderr


# --------------------------------------------------------------------------- README


def readme_example() -> str:
    """The README's OpenAI Agents SDK example."""
    return python_blocks(section("### OpenAI Agents SDK"))[0]


def test_the_readme_example_runs_against_an_openai_compatible_server(tmp_path: Path) -> None:
    """Run as README tells a user of another server than OpenAI's: with the variable that
    keeps the SDK's traces (the run's inputs and outputs) from going to OpenAI's tracing
    service with that server's key. README named none: the example, run as written,
    printed "[non-fatal] Tracing request failed" where that service is out of reach."""
    code = readme_example()
    assert "ChatmemSession(" in code and "Runner.run(" in code
    told = re.search(r"run with `(OPENAI_AGENTS_\w+)=(\w+)`", section("### OpenAI Agents SDK"))
    assert told, "README § OpenAI Agents SDK says how to keep the SDK's traces at home"
    with FakeOpenAI() as fake:
        done = run_example(code, tmp_path, {"OPENAI_BASE_URL": fake.url,
                                            "OPENAI_API_KEY": "sk-test",
                                            told.group(1): told.group(2)})
        assert done.returncode == 0, done.stderr
        assert "Tracing" not in done.stderr, done.stderr
        chats = fake.chats
    assert done.stdout.splitlines() == ["fake reply 1: I live in Berlin",
                                        "fake reply 2: Which city do I live in?"]
    assert len(chats) == 2
    # the second call carries the first run's items (from the chatmem session)
    assert [(m["role"], m["content"]) for m in chats[1][1:]] == [
        ("user", "I live in Berlin"), ("assistant", "fake reply 1: I live in Berlin"),
        ("user", "Which city do I live in?")]
    assert chats[1][0]["role"] == "system"
    assert chats[1][0]["content"].startswith("You are a helpful assistant")

    async def rows() -> list[tuple[str, str]]:
        memory = await Memory.open(f"sqlite:///{tmp_path}/agent.db", semantic_recall=False,
                                   create=False)
        try:
            return [(m.role, m.content)
                    for m in (await memory.list(session="alex-dm")).messages]
        finally:
            await memory.close()

    assert asyncio.run(rows()) == [
        ("user", "I live in Berlin"), ("assistant", "fake reply 1: I live in Berlin"),
        ("user", "Which city do I live in?"),
        ("assistant", "fake reply 2: Which city do I live in?")]


async def test_bad_items_are_named_and_nothing_is_stored(mem: Memory) -> None:
    # a bare RecursionError or TypeError before: json.dumps on a deep or self-holding
    # item, enumerate() on None
    session = ChatmemSession(mem, "s1")
    deep: dict[str, Any] = {}
    node = deep
    for _ in range(10_000):
        node["a"] = {}
        node = node["a"]
    looped: dict[str, Any] = {}
    looped["me"] = looped
    for items, message in (
            (None, "items must be a list of Agents SDK input items, got null"),
            ({"role": "user", "content": "hi"}, "(one item? pass [item])"),
            ("hello", 'items must be a list of Agents SDK input items, got "hello"'),
            ([{"role": "user", "content": "hi"}, {"role": "user", "content": "x", "x": deep}],
             "items[1].x.a.a.a"),
            ([{"role": "user", "content": "x", "x": looped}], "items[0].x.me.me"),
            ([{"role": "user", "content": "x", "n": float("nan")}],
             "items[0].n: nan is not a JSON number"),
            # neither a message nor an item with a type: its keys as JSON (they were
            # quoted as Python, ['colour', 'content'])
            ([{"role": "user", "content": "hi"}, {"colour": "red", "content": "x"}],
             'items[1]: expected a message (role) or an item with a type, got keys '
             '["colour", "content"]'),
            ([{"role": "bot", "content": "x"}],
             'items[0]: expected a message (role) or an item with a type, got keys '
             '["content", "role"]')):
        with pytest.raises(InvalidInput) as info:
            await session.add_items(items)
        assert message in str(info.value), str(info.value)
    assert await session.get_items() == []


@pytest.mark.parametrize("make", ["memory_recall_tool", "ChatmemSession",
                                  "instructions_with_memory"])
@pytest.mark.parametrize("wrong", [None, "memory", "sync"])
def test_a_memory_that_is_not_one_is_refused_naming_it(tmp_path: Any, make: str,
                                                       wrong: str) -> None:
    """memory_recall_tool(None, "s1") raised a raw AttributeError ('NoneType' object has
    no attribute 'tool_schema'); ChatmemSession and instructions_with_memory took it and
    failed at the first run."""
    from chatmem import SyncMemory
    from chatmem.integrations import openai_agents

    with SyncMemory.open(str(tmp_path / "a.db"),
                         embedder=chatmem.testing.embedder()) as sync:
        given: Any = {"memory": "chatmem.db", "sync": sync}.get(wrong)
        said = rf"^{make}\(memory, …\): memory must be a chatmem Memory"
        with pytest.raises(InvalidInput, match=said + (r" \(pass its \.memory\)"
                                                      if wrong == "sync" else "")):
            getattr(openai_agents, make)(given, "s1")
