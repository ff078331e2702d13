"""Hostile input to the memory_recall tool, to OpenAI message lists and to the
framework integrations: a clear ChatmemError (or error text for the model), nothing
changed, nothing seen beyond what the conversation may see, no run killed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chatmem import InvalidInput, Memory

CALLER = {"session_id": "s1"}



async def test_a_number_too_long_to_read_in_the_arguments_is_invalid_input(mem: Memory) -> None:
    # json.loads raises a plain ValueError (not JSONDecodeError) past 4300 digits
    arguments = '{"query": "cat", "top_k": ' + "9" * 5000 + "}"
    with pytest.raises(InvalidInput, match="number too long"):
        await mem.call_tool(arguments, CALLER)


async def test_the_agents_tool_answers_a_number_too_long_with_an_error_text(
        mem: Memory) -> None:
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner
    from agents.testing import ModelStep, ScriptedModel, assistant_message
    from openai.types.responses import ResponseFunctionToolCall

    from chatmem.integrations.openai_agents import memory_recall_tool

    arguments = '{"query": "dog", "top_k": ' + "9" * 5000 + "}"
    model = ScriptedModel([
        [ResponseFunctionToolCall(type="function_call", name="memory_recall",
                                  arguments=arguments, call_id="c1")],
        ModelStep.respond(lambda call: [assistant_message("done")]),
    ])
    agent = Agent(name="a", model=model, tools=[memory_recall_tool(mem, "s1")])
    result = await Runner.run(agent, "hi", run_config=RunConfig(tracing_disabled=True))
    assert result.final_output == "done"  # the run goes on
    [output] = [i for i in model.calls[1].input
                if isinstance(i, dict) and i.get("type") == "function_call_output"]
    assert output["output"].startswith("memory_recall error: ")


@pytest.mark.parametrize("message,names", [
    ({"role": "assistant", "content": None,
      "tool_calls": [{"id": "c", "type": "function",
                      "function": {"name": "f\x00", "arguments": "{}"}}]},
     "messages[1].tool_calls[0].function.name contains a NUL"),
    ({"role": "assistant", "content": None,
      "tool_calls": [{"id": "c", "type": "function",
                      "function": {"name": "f", "arguments": "\udfff"}}]},
     "messages[1].tool_calls[0].function.arguments is not valid UTF-8"),
    ({"role": "assistant", "content": None,
      "tool_calls": [{"id": "c", "function": {"name": "f", "arguments": {"n": float("nan")}}}]},
     "messages[1].tool_calls[0].function.arguments.n: nan"),
    ({"role": "assistant", "content": None, "function_call": {"name": "f", "x": {1, 2}}},
     "messages[1].function_call.x"),
    ({"role": "assistant", "content": "x", "annotations": [{"t": float("inf")}]},
     "messages[1].annotations[0].t"),
    ({"role": "user", "content": [{"type": "image_url",
                                   "image_url": {"url": "https://x/a.png", "detail": "a\x00"}}]},
     "messages[1].content[0].image_url.detail"),
])
async def test_a_bad_openai_field_is_named_as_given_and_nothing_is_stored(
        mem: Memory, message: dict[str, Any], names: str) -> None:
    # before: named as the metadata made from it, or as the content (a NUL in a tool name)
    with pytest.raises(InvalidInput) as info:
        await mem.add([{"role": "user", "content": "hi"}, message], session="s1")
    assert names in str(info.value)
    assert not (await mem.list(session="s1")).messages


async def test_a_langgraph_search_never_reads_a_chat_message_as_an_item(mem: Memory) -> None:
    pytest.importorskip("langgraph")
    from chatmem.integrations.langgraph import ChatmemStore

    store = ChatmemStore(mem, index={"fields": ["text"]})
    await store.aput(("memories", "u1"), "m0", {"text": "my cat is called Tom"})
    # a message of another conversation (a user key may add to its own session) whose
    # metadata looks like an item of u1's namespace
    fake = {"key": "m0", "namespace": ["memories", "u1"],
            "ns": {"n0": "memories", "n1": "u1"}, "value": {"text": "INJECTED"}}
    await mem.add([{"role": "user", "content": "my cat is called Evil",
                    "metadata": {"langgraph": fake}}], session="mallory-dm")
    hits = await store.asearch(("memories", "u1"), query="what is my cat called", limit=5)
    assert [(h.key, h.value) for h in hits] == [("m0", {"text": "my cat is called Tom"})]


async def test_the_instructions_do_not_fail_the_run_whatever_the_user_sends(
        mem: Memory) -> None:
    pytest.importorskip("agents")
    from agents import Agent, RunConfig, Runner
    from agents.testing import ScriptedModel, assistant_message

    from chatmem.integrations.openai_agents import instructions_with_memory

    await mem.add([{"role": "user", "content": "my dog is called Rex"}], session="old")
    await mem.flush()
    for text in ["my dog\x00?", "my dog \udfff", "my dog " * 40_000]:
        model = ScriptedModel([[assistant_message("ok")]])
        agent = Agent(name="a", model=model,
                      instructions=instructions_with_memory(mem, "s1", "Base."))
        result = await Runner.run(agent, text, run_config=RunConfig(tracing_disabled=True))
        assert result.final_output == "ok"
        assert "my dog is called Rex" in (model.calls[0].system_instructions or "")


async def test_a_session_stores_an_item_too_large_for_the_metadata_and_gives_it_back(
        mem: Memory) -> None:
    pytest.importorskip("agents")
    from chatmem.integrations.openai_agents import ChatmemSession

    session = ChatmemSession(mem, "s1")
    page = "page " * 30_000  # 150,000 characters: more than metadata keeps (100,000)
    items = [{"role": "user", "content": page},
             {"type": "message", "role": "assistant", "id": "m1", "status": "completed",
              "content": [{"type": "output_text", "text": page, "annotations": []}]},
             {"type": "function_call_output", "call_id": "c1", "output": page},
             # an agent writing a file through a tool: the add failed ("too large")
             {"type": "function_call", "call_id": "c2", "name": "write_file",
              "arguments": json.dumps({"path": "notes.md", "text": page})},
             {"role": "user", "content": "small"}]
    await session.add_items(items)
    assert await session.get_items() == items
    stored = (await mem.list(session="s1")).messages
    assert [m.content for m in stored] == [page, page, page, items[3]["arguments"], "small"]
    assert stored[3].source == "tool_call" and not stored[3].indexable
    # anything else wrong with a large item is still named
    with pytest.raises(InvalidInput, match=r"items\[0\]\.x: nan"):
        await session.add_items([{"role": "user", "content": page, "x": float("nan")}])
    assert len((await mem.list(session="s1")).messages) == 5
    # and json.dumps of what comes back is the item as it came
    assert json.loads(json.dumps((await session.get_items())[2])) == items[2]


async def test_a_caller_key_the_tool_does_not_take_is_refused_naming_the_one_meant(
        tmp_path: Path) -> None:
    """README § The memory_recall tool: call_tool(arguments, {"session_id", "speaker_id",
    "platform"}). A caller mapping with another key was passed over: {"speaker": "carol"}
    recalled without the same-user boost and {"platfrom": "qq"} without the platform,
    and nothing said so. Now it is refused, as the tool's arguments are."""
    from chatmem import Message, testing

    def carol_over_dave(result: dict[str, Any]) -> float:
        score = {hit["speaker"]: hit["score"] for hit in result["hits"]}
        return float(score["carol"] / score["dave"])

    async with await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=testing.embedder(),
                                 scope="user") as mem:
        await mem.add([Message(session_id="s1", content="carol likes hiking",
                               speaker_id="carol"),
                       Message(session_id="s1", content="dave likes hiking",
                               speaker_id="dave")])
        await mem.flush()
        for caller, says in [
                ({"session_id": "s1", "speaker": "carol"},
                 "caller: unknown field(s) speaker (did you mean speaker_id?)"),
                ({"session_id": "s1", "platfrom": "qq"},
                 "caller: unknown field(s) platfrom (did you mean platform?)"),
                ({"session_id": "s1", "colour": "red"},
                 "caller: unknown field(s) colour; it takes session_id, speaker_id, platform")]:
            with pytest.raises(InvalidInput) as info:
                await mem.call_tool({"query": "hiking"}, caller)
            assert str(info.value) == says
        boosted = await mem.call_tool({"query": "hiking"}, {"session_id": "s1",
                                                            "speaker_id": "carol"})
        plain = await mem.call_tool({"query": "hiking"}, {"session_id": "s1"})
    assert carol_over_dave(boosted) > 1.5 * carol_over_dave(plain)
