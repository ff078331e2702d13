"""R3: every bad input to the library gets a ChatmemError naming the field, and changes
nothing (issue 9, items 1, 10, 11, 14).

Two halves: one case per bad input found when chatmem was tried as a hostile user
(each failed with a raw Python exception, or was stored silently changed), and
Hypothesis properties that feed arbitrary JSON-like values (and worse: sets, bytes,
NaN, lone surrogates, self-references) to each entry point and assert that the
answer is a result or a ChatmemError, and that the store is unchanged after an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import math
import os
import re
import subprocess
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import (
    ChatmemError,
    ConfigError,
    EmbeddingUnavailable,
    FilterError,
    InvalidInput,
    NotFound,
)
from chatmem.models import MAX_TS
from chatmem.recall.render import format_time
from chatmem.store.filters import parse_filter
from chatmem.transfer import export_jsonl
from providers import RecordingProvider


def _self_ref_dict() -> dict[str, Any]:
    d: dict[str, Any] = {}
    d["x"] = d
    return d


def _self_ref_list() -> list[Any]:
    a: list[Any] = []
    a.append(a)
    return a


def _deep_filter(n: int) -> dict[str, Any]:
    d: dict[str, Any] = {"a": 1}
    for _ in range(n):
        d = {"$and": [d]}
    return d


def _deep_value(n: int) -> Any:
    v: Any = 1
    for _ in range(n):
        v = [v]
    return v


async def _open() -> Memory:
    return await Memory.open("memory://", embedder=Embedder(RecordingProvider(dim=16)),
                             config=Config.load(indexing={"concurrency": 1}))


async def _snapshot(mem: Memory) -> str:
    out = io.StringIO()
    await export_jsonl(mem.storage, out, vectors=True)
    return out.getvalue()


async def _seeded() -> Memory:
    mem = await _open()
    await mem.upsert_session({"id": "s1", "origin_platform": "qq", "metadata": {"team": "a"}})
    await mem.add([Message(session_id="s1", content=f"hello {w}", ts=1000 + i,
                           speaker_id="u1") for i, w in enumerate(["cat", "map", "rain"])])
    await mem.flush(timeout=30)
    return mem


def msg(**fields: Any) -> Message:
    return Message(**{"session_id": "s1", "content": "hi", **fields})


#: (label, call on a seeded memory, the error class, a part of the message that names
#: the field). Each of these escaped as a raw exception (or was stored changed) before.
BAD_CALLS: list[tuple[str, Callable[[Memory], Awaitable[Any]], type[ChatmemError], str]] = [
    ("ts far in the future", lambda m: m.add(msg(ts=300_000_000_000_000)), InvalidInput,
     "messages[0].ts"),
    ("ts past 64 bits", lambda m: m.add(msg(ts=2**64)), InvalidInput, "messages[0].ts"),
    ("negative ts", lambda m: m.add(msg(ts=-1)), InvalidInput, "messages[0].ts"),
    ("ts as text", lambda m: m.add({"session_id": "s1", "content": "x", "ts": "5"}),
     InvalidInput, "messages[0].ts"),
    ("metadata with a set", lambda m: m.add(msg(metadata={"a": {1, 2}})), InvalidInput,
     "messages[0].metadata.a"),
    ("metadata with bytes", lambda m: m.add(msg(metadata={"a": b"x"})), InvalidInput,
     "messages[0].metadata.a"),
    ("metadata with an object", lambda m: m.add(msg(metadata={"a": object()})), InvalidInput,
     "messages[0].metadata.a"),
    ("metadata with a lone surrogate", lambda m: m.add(msg(metadata={"a": "\ud800"})),
     InvalidInput, "messages[0].metadata.a"),
    ("metadata key with a lone surrogate", lambda m: m.add(msg(metadata={"\udc00": 1})),
     InvalidInput, "messages[0].metadata"),
    ("metadata with NaN", lambda m: m.add(msg(metadata={"a": math.nan})), InvalidInput,
     "messages[0].metadata.a"),
    ("metadata with infinity", lambda m: m.add(msg(metadata={"a": [math.inf]})), InvalidInput,
     "messages[0].metadata.a[0]"),
    ("metadata with an int key", lambda m: m.add(msg(metadata={1: "a"})), InvalidInput,
     "keys must be strings"),
    ("metadata referring to itself", lambda m: m.add(msg(metadata=_self_ref_dict())),
     InvalidInput, "nested deeper"),
    ("metadata too large", lambda m: m.add(msg(metadata={"a": "x" * 200_000})), InvalidInput,
     "messages[0].metadata is too large"),
    ("mentions as one string", lambda m: m.add(msg(mentions="alice")), InvalidInput,
     "messages[0].mentions"),
    ("mentions as one string (mapping)",
     lambda m: m.add({"session_id": "s1", "content": "x", "mentions": "alice"}), InvalidInput,
     "messages[0].mentions"),
    ("role as a list", lambda m: m.add(msg(role=["user"])), InvalidInput, "messages[0].role"),
    ("add(None)", lambda m: m.add(None), InvalidInput, "messages"),  # type: ignore[arg-type]
    ("add(42)", lambda m: m.add(42), InvalidInput, "messages"),  # type: ignore[arg-type]
    ("add([None])", lambda m: m.add([None]), InvalidInput,  # type: ignore[list-item]
     "messages[0]"),
    ("recall(None)", lambda m: m.recall(None), InvalidInput, "query"),  # type: ignore[arg-type]
    ("recall([1])", lambda m: m.recall([1]), InvalidInput, "query[0]"),  # type: ignore[list-item]
    ("recall window -1", lambda m: m.recall("x", window=-1), InvalidInput, "window"),
    ("recall window 'x'", lambda m: m.recall("x", window="x"),  # type: ignore[arg-type]
     InvalidInput, "window"),
    ("recall window with a bad key", lambda m: m.recall("x", window={"b": 1}), InvalidInput,
     "window"),
    ("recall top_k 0", lambda m: m.recall("x", top_k=0), InvalidInput, "top_k"),
    ("recall top_k huge", lambda m: m.recall("x", top_k=10**9), InvalidInput, "top_k"),
    ("recall min_score NaN", lambda m: m.recall("x", min_score=math.nan), InvalidInput,
     "min_score"),
    ("recall now past year 9999", lambda m: m.recall("x", now=2**70), InvalidInput, "now"),
    ("recall session as int", lambda m: m.recall("x", session=5),  # type: ignore[arg-type]
     InvalidInput, "session"),
    ("recall speakers as a string", lambda m: m.recall("x", speakers="u1"), InvalidInput,
     "speakers"),
    ("recall cross_session 'yes'", lambda m: m.recall("x", cross_session="yes"),  # type: ignore[arg-type]
     InvalidInput, "cross_session"),
    ("query with a lone surrogate", lambda m: m.recall("\ud800"), InvalidInput,
     "query is not valid UTF-8"),
    ("filter nested 10,000 deep", lambda m: m.recall("x", filter=_deep_filter(10_000)),
     FilterError, "nested too deeply"),
    ("filter value nested 10,000 deep",
     lambda m: m.recall("x", filter={"a": {"$eq": _deep_value(10_000)}}), FilterError,
     "$eq"),
    ("filter referring to itself", lambda m: m.recall("x", filter=_self_ref_dict()),
     FilterError, "filter"),
    ("filter $in referring to itself",
     lambda m: m.recall("x", filter={"a": {"$in": _self_ref_list()}}), FilterError, "$in"),
    ("context(None)", lambda m: m.context(None, session="s1"),  # type: ignore[arg-type]
     InvalidInput, "turn: expected"),
    ("context session None", lambda m: m.context("x", session=None),  # type: ignore[arg-type]
     InvalidInput, "session"),
    ("rewrite ts past 64 bits", lambda m: m.rewrite("s1", 2**70, content="y"), InvalidInput,
     "ts must be from"),
    ("rewrite metadata with NaN",
     lambda m: m.rewrite("s1", 1000, metadata={"a": math.nan}), InvalidInput,
     "metadata.a"),
    ("rewrite of no message", lambda m: m.rewrite("s1", 5, content="y"), NotFound, "ts 5"),
    ("call_tool arguments nested 100,000 deep",
     lambda m: m.call_tool("[" * 100_000, {"session_id": "s1"}), InvalidInput, "arguments"),
    ("call_tool query with a lone surrogate",
     lambda m: m.call_tool({"query": "\udfff"}, {"session_id": "s1"}), InvalidInput, "query"),
    ("call_tool caller None", lambda m: m.call_tool({"query": "x"}, None),  # type: ignore[arg-type]
     InvalidInput, "caller"),
    ("session metadata with NaN",
     lambda m: m.upsert_session({"id": "s2", "metadata": {"a": math.nan}}), InvalidInput,
     "session.metadata.a"),
    ("session with an unknown field", lambda m: m.upsert_session({"id": "s2", "x": 1}),
     InvalidInput, "unknown field"),
    ("session without id", lambda m: m.upsert_session({"group_name": "g"}), InvalidInput,
     "session.id"),
    ("session as its own parent", lambda m: m.upsert_session({"id": "s2", "parent_id": "s2"}),
     InvalidInput, "parent_id"),
    ("session(None)", lambda m: m.upsert_session(None),  # type: ignore[arg-type]
     InvalidInput, "session"),
    # an integer of more digits than str() converts (sys.get_int_max_str_digits): the
    # refusal's own wording of it raised ValueError "Exceeds the limit (4300 digits)"
    ("recall top_k past str()", lambda m: m.recall("x", top_k=10**5000), InvalidInput,
     "top_k must be an integer from 1 to 1000, got an integer of more than 4,300 digits"),
    ("recall now past str()", lambda m: m.recall("x", now=-(10**5000)), InvalidInput,
     "now must be from 0"),
    ("recall window past str()", lambda m: m.recall("x", window=10**5000), InvalidInput,
     "window must be at most 1000, got an integer of more than 4,300 digits"),
    ("rewrite ts past str()", lambda m: m.rewrite("s1", 10**5000, content="y"),
     InvalidInput, "ts must be from"),
    ("list since past str()", lambda m: m.list_messages(since=10**5000), InvalidInput,
     "since must be from"),
    ("sweep_retention now past str()", lambda m: m.sweep_retention(now=10**5000),
     InvalidInput, "now must be from"),
    ("add session past str()", lambda m: m.add([{"content": "x"}], session=10**5000),  # type: ignore[arg-type]
     InvalidInput, "session"),
    ("set_scope scope past str()",
     lambda m: m.set_scope(10**5000, actor={"id": "o", "role": "owner"}, session="s9"),  # type: ignore[arg-type]
     InvalidInput, "scope"),
    ("get ids past str()", lambda m: m.get(10**5000), InvalidInput, "ids"),  # type: ignore[arg-type]
    ("call_tool query past str()",
     lambda m: m.call_tool({"query": 10**5000}, {"session_id": "s1"}), InvalidInput,
     "memory_recall: query must be a string, got an integer of more than 4,300 digits"),
]


@pytest.mark.parametrize("label,call,error,names", BAD_CALLS, ids=[c[0] for c in BAD_CALLS])
async def test_bad_input_is_a_chatmem_error_naming_the_field_and_changes_nothing(
        label: str, call: Callable[[Memory], Awaitable[Any]], error: type[ChatmemError],
        names: str) -> None:
    mem = await _seeded()
    try:
        before = await _snapshot(mem)
        with pytest.raises(error) as info:
            await call(mem)
        assert names in str(info.value)
        assert len(str(info.value)) < 2000  # never the whole payload
        assert await _snapshot(mem) == before
    finally:
        await mem.close()


@pytest.mark.parametrize("data,field", [
    ([1, 2], "expected a mapping"),
    ({"search": {"time_weight": "0.5"}}, "search.time_weight"),
    ({"embedding": {"cache": {"enabled": "yes"}}}, "embedding.cache.enabled"),
    ({"search": {"half_life_days": math.inf}}, "search.half_life_days"),
    ({"search": {"min_score": math.nan}}, "search.min_score"),
    ({"context_expand": {"cross_session": 1}}, "context_expand.cross_session"),
    ({"context_expand": {"window": 10**6}}, "context_expand.window"),
    ({1: 2}, "option names must be strings"),
])
def test_configuration_is_strict(data: Any, field: str) -> None:
    with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
        Config.load(data)


def test_whole_numbers_still_count_as_numbers() -> None:
    assert Config.load({"search": {"time_weight": 1, "half_life_days": 7}}).search.time_weight \
        == 1.0


async def test_a_stored_timestamp_no_calendar_can_show_never_breaks_recall() -> None:
    """A row written before timestamps were range-checked (or by another tool) renders as
    its milliseconds; the recall around it still works."""
    mem = await _open()
    try:
        [m] = await mem.add(Message(session_id="s1", content="the secret plan", ts=1000))
        await mem.flush(timeout=30)
        assert m.id is not None
        store: Any = mem.store

        def poke() -> None:
            store.conn.execute("UPDATE messages SET ts = ? WHERE id = ?",
                               (300_000_000_000_000, m.id))

        await store._run(poke)
        result = await mem.recall("secret plan", now=2000)
        assert "ts=300000000000000" in result.text
        assert format_time(MAX_TS, __import__("zoneinfo").ZoneInfo("UTC")).startswith("9999")
    finally:
        await mem.close()


def test_embedding_dimensions_larger_than_the_model_are_refused_when_built() -> None:
    from chatmem.embedding import create_embedder

    cfg = Config.load(embedding={"dimensions": 1000}).embedding
    with pytest.raises(EmbeddingUnavailable, match=r"embedding\.dimensions = 1000"):
        create_embedder(cfg)


def test_a_missing_model_directory_says_directory_not_found(tmp_path: Any) -> None:
    from chatmem.embedding import create_embedder

    cfg = Config.load(embedding={"model": str(tmp_path / "no-such-model")}).embedding
    with pytest.raises(ConfigError, match="directory not found"):
        create_embedder(cfg)


# --------------------------------------------------------------------------- properties

_weird_text = st.one_of(
    st.text(max_size=8),
    st.sampled_from(["", " ", "\x00", "\ud800", "a\udfffb", "s1", "user", "x" * 600,
                     "$eq", "$and", "meta.a", "a..b"]),
)
_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(), st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True), _weird_text,
    st.sampled_from([b"bytes", frozenset({1}), object(), -1, 0, 2**64, MAX_TS + 1]),
)
junk = st.recursive(
    _scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4),
        st.tuples(children, children),
        st.dictionaries(st.one_of(_weird_text, st.integers(0, 3)), children, max_size=4),
    ),
    max_leaves=12,
)

_MESSAGE_FIELDS = ["session_id", "content", "role", "ts", "id", "kind", "visible_content",
                   "source", "speaker_id", "speaker_name", "mentions", "platform", "metadata",
                   "bogus"]


@st.composite
def message_like(draw: st.DrawFn) -> Any:
    """A valid message mapping with some fields replaced by junk (reaches deeper code than
    pure junk), or pure junk."""
    if draw(st.booleans()):
        return draw(junk)
    base: dict[str, Any] = {"session_id": "s1", "content": "hello there"}
    for name in draw(st.lists(st.sampled_from(_MESSAGE_FIELDS), max_size=3, unique=True)):
        base[name] = draw(junk)
    return base


_PROPERTY = settings(max_examples=120, deadline=None,
                     suppress_health_check=[HealthCheck.too_slow,
                                            HealthCheck.function_scoped_fixture])


def _check(call: Callable[[Memory], Awaitable[Any]]) -> None:
    """The call returns, or raises a ChatmemError and leaves the store as it was."""

    async def go() -> None:
        mem = await _seeded()
        try:
            before = await _snapshot(mem)
            try:
                await call(mem)
            except ChatmemError:
                await mem.flush(timeout=30)
                assert await _snapshot(mem) == before
        finally:
            await mem.close()

    asyncio.run(go())


@_PROPERTY
@given(items=st.one_of(message_like(), st.lists(message_like(), max_size=3)))
def test_add_answers_a_result_or_a_chatmem_error(items: Any) -> None:
    _check(lambda m: m.add(items))


_RECALL_ARGS = ["session", "platform", "top_k", "min_score", "scope", "window",
                "cross_session", "filter", "speakers", "exclude_ids", "now"]


@st.composite
def recall_kwargs(draw: st.DrawFn) -> dict[str, Any]:
    names = draw(st.lists(st.sampled_from(_RECALL_ARGS), max_size=3, unique=True))
    return {n: draw(junk) for n in names}


@_PROPERTY
@given(query=st.one_of(junk, message_like(), st.lists(message_like(), max_size=2)),
       kwargs=recall_kwargs())
def test_recall_answers_a_result_or_a_chatmem_error(query: Any, kwargs: dict[str, Any]
                                                    ) -> None:
    _check(lambda m: m.recall(query, **kwargs))


@_PROPERTY
@given(turn=st.one_of(junk, message_like()), session=junk, speakers=junk)
def test_context_answers_a_result_or_a_chatmem_error(turn: Any, session: Any,
                                                     speakers: Any) -> None:
    _check(lambda m: m.context(turn, session=session, speakers=speakers))


@_PROPERTY
@given(session=st.one_of(st.just("s1"), junk), ts=st.one_of(st.just(1000), junk),
       content=junk, visible=junk, metadata=junk)
def test_rewrite_answers_a_result_or_a_chatmem_error(session: Any, ts: Any, content: Any,
                                                     visible: Any, metadata: Any) -> None:
    async def call(m: Memory) -> Any:
        try:
            return await m.rewrite(session, ts, content=content, visible_content=visible,
                                   metadata=metadata)
        except NotFound:
            return None  # no message there: nothing to change, and nothing changed

    _check(call)


@_PROPERTY
@given(arguments=st.one_of(junk, st.fixed_dictionaries({"query": junk}),
                           st.fixed_dictionaries({"query": st.just("hello")},
                                                 optional={"scope": junk, "top_k": junk,
                                                           "context_window": junk,
                                                           "cross_session": junk})),
       caller=st.one_of(junk, st.fixed_dictionaries({"session_id": junk},
                                                    optional={"speaker_id": junk,
                                                              "platform": junk})))
def test_call_tool_answers_a_result_or_a_chatmem_error(arguments: Any, caller: Any) -> None:
    _check(lambda m: m.call_tool(arguments, caller))


@_PROPERTY
@given(session=st.one_of(junk, st.fixed_dictionaries(
    {"id": st.one_of(st.just("s9"), junk)},
    optional={k: junk for k in ("parent_id", "resource_id", "origin_platform", "chat_type",
                                "group_id", "group_name", "metadata", "settings")})))
def test_upsert_session_answers_a_result_or_a_chatmem_error(session: Any) -> None:
    _check(lambda m: m.upsert_session(session))


@settings(max_examples=300, deadline=None)
@given(value=junk)
def test_filters_parse_or_raise_filter_error(value: Any) -> None:
    with contextlib.suppress(FilterError):
        parse_filter(value)


@settings(max_examples=300, deadline=None)
@given(value=st.one_of(junk, st.dictionaries(
    st.sampled_from(["search", "context_expand", "indexing", "embedding", "hybrid", "scope",
                     "recall_roles", "last_messages", "semantic_recall", "locale",
                     "timezone"]), junk, max_size=3)))
def test_config_loads_or_raises_config_error(value: Any) -> None:
    with contextlib.suppress(ConfigError):
        Config.load(value)


def _export_lines(*records: dict[str, Any]) -> list[str]:
    import json

    counts = {"sessions": 0, "messages": 0, "vectors": 0, "meta": 0}
    for r in records:
        counts[{"session": "sessions", "message": "messages", "vector": "vectors",
                "meta": "meta"}[r["type"]]] += 1
    lines = [{"type": "header", "format": "chatmem-jsonl", "version": 1}, *records,
             {"type": "end", **counts}]
    return [json.dumps(r) + "\n" for r in lines]


_VECTOR = {"type": "vector", "message_id": "m1", "session_id": "s1", "ts": 5,
           "role": "user", "model_id": "test:bow", "vector": [0.5, 0.5]}


@pytest.mark.parametrize("lines,names", [
    (['{"type": "header", "format": "chatmem-jsonl", "version": 1, "x": NaN}\n'], "NaN"),
    (["[" * 100_000 + "\n"], "nested too deeply"),
    (_export_lines({"type": "session", "id": "s1", "metadata": {"a": ["\ud800"]}}),
     "line 2: session.metadata.a[0]"),
    (_export_lines({"type": "session", "id": "s1", "metadata": {}, "colour": "red"}),
     "unknown field"),
    (_export_lines({**_VECTOR, "vector": [1e300, 1.0]}), "1e+300 long, over the 1e+18"),
    # each number under the bound, the length over it: its scores would overflow float32
    (_export_lines({**_VECTOR, "vector": [8e17, 8e17]}), "1.13e+18 long, over the 1e+18"),
    # its whole length, not its largest number's
    (_export_lines({**_VECTOR, "vector": [1e29] * 384}), "1.96e+30 long, over the 1e+18"),
    (['{"type": "header", "format": "chatmem-jsonl", "version": 1, "x": Infinity}\n'],
     "Infinity"),
    (_export_lines({**_VECTOR, "vector": ["a"]}), "vector.vector"),
    (_export_lines({**_VECTOR, "ts": 2**70}), "vector.ts"),
    (_export_lines({"type": "meta", "namespace": "n", "key": 5, "value": "v"}), "meta.key"),
])
def test_an_import_file_with_bad_records_is_refused_before_anything_is_written(
        lines: list[str], names: str) -> None:
    from chatmem.transfer import validate_jsonl

    with pytest.raises(InvalidInput, match=re.escape(names)):
        validate_jsonl(lines)


_MESSAGE = {"type": "message", "id": "m1", "session_id": "s1", "ts": 5, "role": "user",
            "content": "hello"}

#: (label, a call on a memory or an export's lines, the error whole): a refused choice
#: and a record of an import file, each in the words a caller reads.
WORDED: list[tuple[str, Callable[[Memory], Awaitable[Any]] | list[str], str]] = [
    ("recall scope", lambda m: m.recall("x", scope="bogus"),
     'scope must be one of all, user, platform, resource, session (or thread), got '
     '"bogus"'),
    ("set_scope", lambda m: m.set_scope("bogus", actor={"id": "o", "role": "owner"},
                                        session="s1"),
     'scope must be one of all, user, platform, resource, session (or thread), got '
     '"bogus"'),
    ("set_scope layer", lambda m: m.set_scope("all", actor={"id": "o", "role": "owner"},
                                              layer="galaxy"),  # type: ignore[arg-type]
     'layer must be one of platform, chat_type, group, session, got "galaxy"'),
    ("clear target", lambda m: m.clear("nope"),
     'target must be one of vector, context, all, got "nope"'),
    ("message role", lambda m: m.add(msg(role="bot")),
     'messages[0].role must be one of assistant, notice, system, tool, user, got "bot"'),
    ("message kind", lambda m: m.add(msg(kind="bot")),
     'messages[0].kind must be one of command_reply, directive, divider, message, got '
     '"bot"'),
    ("chat-completions role", lambda m: m.add({"session_id": "s1", "content": "x",
                                               "role": "wizard"}),
     "messages[0].role must be one of assistant, developer, function, notice, system, "
     'tool, user, got "wizard"'),
    ("content part type", lambda m: m.add({"session_id": "s1",
                                           "content": [{"type": "video"}]}),
     "messages[0].content[0].type must be one of file, image_url, input_audio, refusal, "
     'text, got "video"'),
    ("tool argument", lambda m: m.call_tool({"query": "x", "colour": 1},
                                            {"session_id": "s1"}),
     "memory_recall: unknown argument(s) colour; it takes query, scope, context_window, "
     "cross_session, top_k"),
    ("import role", _export_lines({**_MESSAGE, "role": "bot"}),
     'line 2: message.role must be one of assistant, notice, system, tool, user, got '
     '"bot"'),
    ("import index_state", _export_lines({**_MESSAGE, "index_state": "done"}),
     "line 2: message.index_state must be one of cleared, failed, indexed, pending, "
     'skipped, got "done"'),
    ("import vector role", _export_lines(_MESSAGE, {**_VECTOR, "role": "bot"}),
     "line 3: vector.role must be one of assistant, notice, system, tool, user or null, "
     'got "bot"'),
]


@pytest.mark.parametrize("label,call,says", WORDED, ids=[w[0] for w in WORDED])
async def test_a_refused_choice_or_record_is_named_in_words(
        label: str, call: Callable[[Memory], Awaitable[Any]] | list[str], says: str) -> None:
    """The choices were a Python list ('scope must be one of ['all', 'user', …] (or
    'thread')', "unknown argument(s) ['colour']", sorted(ROLES) of a message's role, an
    import's index_state), and a message of an import file was named 'line 2.role', as
    if a line had fields, where its sessions and vectors said 'line 2: session.…'."""
    from chatmem.transfer import validate_jsonl

    if isinstance(call, list):
        with pytest.raises(InvalidInput) as info:
            validate_jsonl(call)
    else:
        mem = await _seeded()
        try:
            with pytest.raises(InvalidInput) as info:
                await call(mem)
        finally:
            await mem.close()
    assert str(info.value) == says


_SCOPE = ('scope must be one of all, user, platform, resource, session (or thread), got '
          '"galaxy"')

#: (label, method, path, body, the error whole): WORDED's refusals through the HTTP API,
#: in the library's words (which showed the value as Python, got str 'bogus', where
#: the HTTP API's own 422s show it as JSON, got "5").
WORDED_HTTP: list[tuple[str, str, str, dict[str, Any], str]] = [
    ("recall scope", "POST", "/v1/recall", {"query": "x", "scope": "galaxy"}, _SCOPE),
    ("tool scope", "POST", "/v1/tool", {"arguments": {"query": "x", "scope": "galaxy"},
                                        "caller": {"session_id": "s1"}},
     f"memory_recall: {_SCOPE}"),
    ("settings scope", "PUT", "/v1/settings", {"session": "s1", "scope": "galaxy"}, _SCOPE),
    ("message role", "POST", "/v1/messages",
     {"messages": [{"session_id": "s1", "content": "x", "role": "bot"}]},
     "messages[0].role must be one of assistant, developer, function, notice, system, "
     'tool, user, got "bot"'),
    ("message kind", "POST", "/v1/messages",
     {"messages": [{"session_id": "s1", "content": "x", "kind": "bot"}]},
     'messages[0].kind must be one of command_reply, directive, divider, message, got '
     '"bot"'),
    ("content part type", "POST", "/v1/messages",
     {"messages": [{"session_id": "s1", "content": [{"type": "video"}]}]},
     "messages[0].content[0].type must be one of file, image_url, input_audio, refusal, "
     'text, got "video"'),
]


def test_a_refused_choice_reads_the_same_on_the_http_api(tmp_path: Any) -> None:
    import httpx

    from chatmem.server.http import KeyTable, create_app
    from servers import running

    key = "owner-key-0123456789abcdef"
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                     keys=KeyTable.from_mapping({"keys": {"o": {
                         "key": key, "namespace": "n", "role": "owner"}}}),
                     embedder=Embedder(RecordingProvider(dim=16)))
    with running(app) as base, httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
        for label, method, path, body, says in WORDED_HTTP:
            r = c.request(method, path, json=body)
            assert r.status_code == 400 and r.json()["error"] == {
                "type": "InvalidInput", "message": says}, (label, r.text)
        assert c.get("/v1/stats").json()["messages"] == 0


async def test_a_refused_filter_or_flag_shows_its_value_as_json_on_every_door(
        tmp_path: Any) -> None:
    """The library and the Python client said 'filter must be a mapping, got list' (and
    the client 'newest_first must be true or false, got str'): the type alone, where
    the HTTP API's schema shows the value as JSON ('filter must be an object, got
    [1]'). The command line takes no filter, and refuses --newest-first's value itself."""
    import httpx

    from chatmem.client import AsyncClient
    from chatmem.server.http import KeyTable, create_app
    from servers import running

    mem = await _seeded()
    try:
        for bad, shown in (([1], "[1]"), ("x", '"x"'), (("a",), "tuple ('a',)")):
            with pytest.raises(FilterError) as info:
                await mem.recall("x", filter=bad)  # type: ignore[arg-type]
            assert str(info.value) == f"filter must be a mapping, got {shown}"
    finally:
        await mem.close()
    async with AsyncClient("http://127.0.0.1:9", "k" * 24) as client:  # refused unsent
        with pytest.raises(FilterError) as info:
            await client.recall("x", session="s1", filter=[1])  # type: ignore[arg-type]
        assert str(info.value) == "filter must be a mapping, got [1]"
        with pytest.raises(InvalidInput) as info:
            await client.list_messages(newest_first="yes")  # type: ignore[arg-type]
        assert str(info.value) == 'newest_first must be true or false, got "yes"'
        with pytest.raises(InvalidInput) as info:
            await client.turn_context("x", session="s1", explain=1)  # type: ignore[arg-type]
        assert str(info.value) == "explain must be true or false, got 1"
    key = "owner-key-0123456789abcdef"
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                     keys=KeyTable.from_mapping({"keys": {"o": {
                         "key": key, "namespace": "n", "role": "owner"}}}),
                     embedder=Embedder(RecordingProvider(dim=16)))
    with running(app) as base:
        async with httpx.AsyncClient(base_url=base, timeout=30,
                                     headers={"Authorization": f"Bearer {key}"}) as c:
            r = await c.post("/v1/recall", json={"query": "x", "filter": [1]})
            assert r.json()["error"]["message"] == "filter must be an object, got [1]"
            r = await c.put("/v1/settings", json={"scope": "all", "layer": "galaxy"})
            assert r.json()["error"]["message"] == (
                'layer must be one of platform, chat_type, group, session, got "galaxy"')


#: (a filter, its refusal whole): the part named as a path into the filter as JSON
#: holds it, types by JSON's names, the value as JSON. They said
#: "filter['a']['$in'][1]: $in values must be str, int, float or bool, got list [2]".
FILTER_REFUSED: list[tuple[dict[str, Any], str]] = [
    ({"$or": [{"team": "a"}, {"priority": {"$gte": "x"}}]},
     'filter.$or[1].priority: $gte expects a number, got "x"'),
    ({"a": {"$in": [1, [2]]}},
     "filter.a.$in[1]: $in values must be strings, numbers or booleans, got [2]"),
    ({"meta.team": {"$nin": ["a", None]}},
     'filter["meta.team"].$nin[1]: $nin values must be strings, numbers or booleans, got '
     "null"),
    ({"team": {"$eq": {"x": 1}}},
     'filter.team: $eq expects a string, number, boolean or null, got {"x": 1}'),
    ({"team": ["a"]}, 'filter.team: expected a string, number, boolean or null, or an '
                      'object of operators, got ["a"]'),
    ({"a b": 1}, 'filter["a b"]: invalid field name "a b" (expected dot-separated segments '
                 "of ASCII letters, digits, underscores or hyphens)"),
    ({"team": {"$regex": "a"}}, 'filter.team: unknown operator "$regex"'),
    ({"team": {"a": 1}}, 'filter.team: expected an operator such as $eq, got key "a" '
                         '(nested fields are written as dotted paths, e.g. "a.b")'),
    ({"team": {"$exists": None}}, "filter.team: $exists expects true or false, got null"),
    ({"$and": []}, "filter.$and: $and expects a non-empty list of filters, got []"),
]


async def test_a_refused_filter_names_its_part_as_json_on_every_door(tmp_path: Any) -> None:
    """A filter's refusal named the part and its value as Python (filter['a']['$in'][1],
    str, int, float, bool or None, got list [2], got None), through the HTTP API's
    filter and a configuration's semantic_recall.filter too, beside the HTTP API's own
    refusals in JSON's words (limit must be at most 50, got 51). Now the library, POST
    /v1/recall and a configuration file say the same, in JSON's words."""
    import httpx

    from chatmem.server.http import create_app
    from servers import running

    mem = await _seeded()
    try:
        for bad, says in FILTER_REFUSED:
            with pytest.raises(FilterError) as info:
                await mem.recall("x", filter=bad)
            assert str(info.value) == says
    finally:
        await mem.close()
    app = create_app(url=f"sqlite:///{tmp_path}/h.db",
                     embedder=Embedder(RecordingProvider(dim=16)))
    with running(app) as base:
        async with httpx.AsyncClient(base_url=base, timeout=30) as c:
            for bad, says in FILTER_REFUSED:
                r = await c.post("/v1/recall", json={"query": "x", "filter": bad})
                assert r.status_code == 400 and r.json()["error"] == {
                    "type": "FilterError", "message": says}, r.text
    for bad, says in FILTER_REFUSED:
        with pytest.raises(ConfigError) as config_info:
            Config.load({"semantic_recall": {"filter": bad}}, data_source="--config c.toml")
        assert str(config_info.value) == \
            f"invalid configuration: --config c.toml: semantic_recall.{says}"


def test_a_configuration_file_s_filter_is_refused_in_json_s_words(tmp_path: Any) -> None:
    """As a user meets it: the file named, then the path from semantic_recall.filter (it
    said 'semantic_recall.filter: filter['a b']: invalid field name 'a b' …')."""
    from click.testing import CliRunner

    from chatmem.cli import main

    path = tmp_path / "c.toml"
    path.write_text('[semantic_recall.filter]\n"meta.team" = { "$in" = ["a", [1]] }\n')
    res = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "c.db"),
                                    "--config", str(path)])
    assert res.exit_code == 2, res.output
    assert res.stderr == (
        f"error: invalid configuration: --config {path}: "
        'semantic_recall.filter["meta.team"].$in[1]: $in values must be strings, numbers '
        "or booleans, got [1]\n")
    assert not (tmp_path / "c.db").exists()


def test_a_server_setting_a_client_meets_shows_its_value_as_json(tmp_path: Any) -> None:
    """A namespace's store is opened at its first request, so a bad option of the storage
    or vector URL template reached the client as a 400 (now refused at start-up, by
    create_app and chatmem serve), and it showed the value as
    Python (pool_size must be an integer, got 'abc'); a key file's namespace and role
    too (got 'Bad Name', "role must be 'user' or 'owner', got 'admin'"). Now as JSON,
    as a file holds it and as the HTTP API's other refusals show a value."""
    import httpx

    from backends import pg_schema_url, pg_url
    from chatmem.server.http import KeyTable, create_app, namespace_url
    from chatmem.store.postgres.url import parse_url
    from servers import running

    for entry, says in (
            ({"namespace": "Bad Name"}, 'keys.toml: keys.o.namespace must match '
             '^[a-z0-9][a-z0-9_-]{0,62}$ (lowercase letters, digits, - and _, starting with '
             'a letter or digit, at most 63 characters), got "Bad Name"'),
            ({"namespace": 5}, "keys.toml: keys.o.namespace must match ^[a-z0-9][a-z0-9_-]{0,62}$ "
             "(lowercase letters, digits, - and _, starting with a letter or digit, at most 63 "
             "characters), got 5"),
            ({"namespace": "n", "role": "admin"},
             'keys.toml: keys.o.role must be one of user, owner, got "admin"')):
        with pytest.raises(ConfigError) as info:
            KeyTable.from_mapping({"keys": {"o": {"key": "k" * 16, **entry}}},
                                  source="keys.toml")
        assert str(info.value) == says
    key = "owner-key-0123456789abcdef"
    keys = KeyTable.from_mapping({"keys": {"o": {"key": key, "namespace": "n",
                                                 "role": "owner"}}})
    template = pg_schema_url(pg_url(), "cm_{namespace}")
    # a template still, which each namespace fills in (an encoded cm_%7Bnamespace%7D was
    # a fixed schema, and the case below never reached the template it describes)
    assert template.endswith("schema=cm_{namespace}"), template
    assert parse_url(namespace_url(template, "n", keys))[1]["schema"] == "cm_n"
    for url, vector, says in (
            (template + "&pool_size=abc", None,
             'storage URL: pool_size must be an integer, got "abc"'),
            (f"sqlite:///{tmp_path}/{{namespace}}.db",
             "qdrant://127.0.0.1:9?timeout=soon&prefix={namespace}",
             'vector URL "qdrant://127.0.0.1:9?timeout=soon&prefix=n": timeout must be a '
             'positive number of seconds, got "soon"')):
        # refused at start-up, not at each namespace's first request (a 400 to every
        # client after a healthy start)
        with pytest.raises(ConfigError) as info:
            create_app(url=url, vector=vector, keys=keys,
                       embedder=Embedder(RecordingProvider(dim=16)))
        assert str(info.value) == says
        keys_file = tmp_path / "keys.toml"
        keys_file.write_text(f'[keys.o]\nkey = "{key}"\nnamespace = "n"\nrole = "owner"\n',
                             encoding="utf-8")
        proc = subprocess.run(
            [sys.executable, "-m", "chatmem", "serve", "--db", url, "--keys", str(keys_file),
             "--port", "0", *(["--vector", vector] if vector else [])],
            capture_output=True, text=True, timeout=120)
        assert proc.returncode == 2 and proc.stderr.strip().splitlines() == [
            f"error: {says}"], proc.stderr
    # a template whose options every namespace's store can take still starts
    good = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys,
                      embedder=Embedder(RecordingProvider(dim=16)))
    with running(good) as base, httpx.Client(
            base_url=base, headers={"Authorization": f"Bearer {key}"}, timeout=30) as c:
        assert c.post("/v1/recall", json={"query": "x"}).status_code == 200


#: (label, command line after the command and its --db, the error line): the CLI
#: shows a value typed on its command line as typed (got 'galaxy', got '5': the
#: library's error said got "galaxy", got "5"), and a value of a file as JSON, as the
#: file holds it; an import's refusal names its file first.
WORDED_CLI: list[tuple[str, list[str], str]] = [
    ("scope set", ["scope", "set", "--session", "s1", "--", "galaxy"],
     "VALUE must be one of all, user, platform, resource, session (or thread), got "
     "'galaxy'"),
    ("scope set number", ["scope", "set", "--session", "s1", "--", "5"],
     "VALUE must be one of all, user, platform, resource, session (or thread), got '5'"),
    *((label, ["import", "{file}"], "{file}: " + says) for label, call, says in WORDED
      if isinstance(call, list)),
]


@pytest.mark.parametrize("label,args,says", WORDED_CLI, ids=[w[0] for w in WORDED_CLI])
def test_a_refused_choice_or_record_reads_the_same_on_the_command_line(
        tmp_path: Any, label: str, args: list[str], says: str) -> None:
    from click.testing import CliRunner

    from chatmem.cli import main

    db = str(tmp_path / "c.db")
    res = CliRunner().invoke(main, ["add", "--db", db, "--session", "s1", "--no-wait", "a"])
    assert res.exit_code == 0, res.output
    lines = next((call for name, call, _ in WORDED if name == label), [])
    assert isinstance(lines, list)
    (tmp_path / "in.jsonl").write_text("".join(lines), encoding="utf-8")
    command, *rest = (a.format(file=tmp_path / "in.jsonl") for a in args)
    sub = [rest.pop(0)] if command == "scope" else []
    res = CliRunner().invoke(main, [command, *sub, "--db", db, *rest])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {says.replace('{file}', str(tmp_path / 'in.jsonl'))}\n"


#: (option, the values it may take as every refusal of it lists them): each choice of
#: the configuration. A configuration file, a table passed to the library and
#: Memory.open's options got pydantic's words, with no value and no 'thread' ("scope:
#: Input should be 'all', 'user', 'platform', 'resource' or 'session'"), and an
#: environment variable quoted choices ("CHATMEM_SCOPE: must be one of 'all', …").
CONFIG_CHOICES: list[tuple[str, str]] = [
    ("scope", "all, user, platform, resource, session (or thread)"),
    ("semantic_recall.scope", "all, user, platform, resource, session (or thread)"),
    ("hybrid.mode", "hybrid, lexical"),
    ("hybrid.fusion", "score, rank"),
    ("embedding.provider", "local, openai, gemini, cohere, voyage, mistral, ollama"),
    ("locale", "en, zh"),
    ("recall_roles", "all, others-only"),
]


def _nested(option: str, value: Any) -> dict[str, Any]:
    section, _, name = option.rpartition(".")
    return _nested(section, {name: value}) if section else {name: value}


def _assert_refused(option: str, value: Any, says: str) -> None:
    """Config.load refuses ``value`` of ``option`` saying ``says``, and names a file's
    (data_source) before it."""
    with pytest.raises(ConfigError) as info:
        Config.load(_nested(option, value))
    assert str(info.value) == f"invalid configuration: {says}"
    with pytest.raises(ConfigError) as info:
        Config.load(_nested(option, value), data_source="--config c.toml")
    assert str(info.value) == f"invalid configuration: --config c.toml: {says}"


async def test_a_refused_choice_of_the_configuration_reads_as_the_library_words_it(
        ) -> None:
    """A table (Config.load, a file's through data_source, Memory.open's options) shows
    the value as JSON, as the file holds it, beside the choices bare: the scope's
    refusal is the one a call, a tool and the HTTP API give (_SCOPE)."""
    from chatmem.config import _choices, _option_paths

    assert {p: _choices(p) for p in _option_paths(Config) if _choices(p)} == \
        dict(CONFIG_CHOICES)  # every choice of the configuration is checked here
    for option, choices in CONFIG_CHOICES:
        for value, shown in (("galaxy", '"galaxy"'), (5, "5"), ([1], "[1]")):
            _assert_refused(option, value, f"{option} must be one of {choices}, got {shown}")
    with pytest.raises(ConfigError) as info:
        Config.load({"scope": "galaxy"})
    assert str(info.value) == f"invalid configuration: {_SCOPE}"
    with pytest.raises(ConfigError) as info:
        await Memory.open("memory://", embedder=Embedder(RecordingProvider(dim=16)),
                          scope="galaxy", hybrid={"mode": None})
    assert str(info.value) == ("invalid configuration: hybrid.mode must be one of hybrid, "
                               f"lexical, got null; {_SCOPE}")


@pytest.mark.parametrize("name,text", [
    ("c.toml", 'scope = "galaxy"\nlocale = 5\n[hybrid]\nfusion = ["rank"]\n'),
    ("c.yaml", "scope: galaxy\nlocale: 5\nhybrid:\n  fusion: [rank]\n"),
])
def test_a_refused_choice_of_a_configuration_file_reads_the_same_on_the_command_line(
        tmp_path: Any, name: str, text: str) -> None:
    """chatmem … --config c.toml said 'scope: Input should be …', no value, no 'thread'.
    A file's values are shown as it holds them: JSON."""
    where = f"--config {name}: "
    assert _refusal_of_config_file(tmp_path, name, text) == (
        f"{where}hybrid.fusion must be one of score, rank, "
        f'got ["rank"]; {where}{_SCOPE}; {where}locale must be one of en, zh, got 5')


def _refusal_of_config_file(tmp_path: Any, name: str, text: str) -> str:
    """What chatmem list --config ``name`` (holding ``text``) says of it, in a
    subprocess, after 'error: invalid configuration: '; it makes no store."""
    import subprocess
    import sys

    (tmp_path / name).write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "chatmem", "list", "--db",
                           str(tmp_path / "m.db"), "--config", name], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: invalid configuration: ")
    assert not (tmp_path / "m.db").exists()
    return proc.stderr.removeprefix("error: invalid configuration: ").removesuffix("\n")


def test_a_refused_choice_of_a_variable_shows_its_text_as_typed() -> None:
    """CHATMEM_SCOPE=galaxy said "CHATMEM_SCOPE: must be one of 'all', 'user', …, got
    'galaxy'": the choices quoted, no alias, where every other refusal of a scope lists
    them bare. A variable holds text: its value is shown as typed ('galaxy', '5'), as
    the other variables' refusals show it; a value inside the JSON a variable holds
    as JSON."""
    import subprocess
    import sys

    env = {**os.environ, "CHATMEM_SCOPE": "galaxy", "CHATMEM_HYBRID__MODE": "5",
           "CHATMEM_EMBEDDING": '{"provider": "x"}', "CHATMEM_ENV_FILE": ""}
    proc = subprocess.run([sys.executable, "-m", "chatmem", "list", "--db", "memory://"],
                          env=env, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr.startswith("error: invalid configuration: ")
    lines = proc.stderr.removeprefix("error: invalid configuration: ").strip().split("; ")
    assert sorted(lines) == [
        'CHATMEM_EMBEDDING: embedding.provider must be one of local, openai, gemini, '
        'cohere, voyage, mistral, ollama, got "x"',
        "CHATMEM_HYBRID__MODE: hybrid.mode must be one of hybrid, lexical, got '5'",
        "CHATMEM_SCOPE: scope must be one of all, user, platform, resource, session (or "
        "thread), got 'galaxy'"]
    with pytest.raises(ConfigError) as info:
        Config.load({"scope": "all"}, env={"CHATMEM_SEMANTIC_RECALL__SCOPE": "5"})
    assert str(info.value) == (
        "invalid configuration: CHATMEM_SEMANTIC_RECALL__SCOPE: semantic_recall.scope must "
        "be one of all, user, platform, resource, session (or thread), got '5'")


@pytest.mark.parametrize("role,shown", [("admin", '"admin"'), (5, "5"), (["owner"], '["owner"]')])
def test_a_refused_role_of_a_key_file_reads_as_the_configuration_words_it(
        tmp_path: Any, role: Any, shown: str) -> None:
    """chatmem serve --keys k.toml with role = "admin" said "keys.bot.role must be
    'user' or 'owner', got 'admin'": the choices quoted and the value as Python, where
    a configuration file's choice says 'must be one of a, b, got "admin"'."""
    import json
    import subprocess
    import sys

    from chatmem.server.http import KeyTable

    says = f"k.toml: keys.bot.role must be one of user, owner, got {shown}"
    with pytest.raises(ConfigError) as info:
        KeyTable.from_mapping({"keys": {"bot": {"key": "k" * 24, "namespace": "n",
                                                "role": role}}}, source="k.toml")
    assert str(info.value) == says
    (tmp_path / "k.toml").write_text(
        f'[keys.bot]\nkey = "{"k" * 24}"\nnamespace = "n"\nrole = {json.dumps(role)}\n',
        encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "chatmem", "serve", "--db",
                           str(tmp_path / "m.db"), "--port", "0", "--keys", "k.toml"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 2, proc.stderr
    assert proc.stderr == f"error: {says}\n"


def _wrong_values(option: str) -> list[tuple[Any, str]]:
    """(a value ``option`` refuses, what the refusal says it must be, ending in the
    value as JSON): one of the wrong type, and one past each bound."""
    import typing

    from chatmem.config import _field_info, _flat_types, _model_of

    info = _field_info(option)
    kinds = _flat_types(info.annotation)
    names = {getattr(t, "__name__", "") for t in kinds}
    if {"str", "SecretStr"} & names:
        wrong = [(5, "a string, got 5")]
    elif _model_of(info.annotation) is not None:
        what = "true, false or a table" if bool in kinds else "a table"
        wrong = [(5, f"{what}, got 5")]
    elif any(typing.get_origin(t) is dict for t in kinds):
        wrong = [("two", 'a table, got "two"')]
    elif any(typing.get_origin(t) is list for t in kinds):
        wrong = [("two", 'a list, got "two"')]
    else:
        what = {bool: "true or false", int: "an integer", float: "a number"}[
            next(t for t in kinds if t in (bool, int, float))]
        wrong = [("two", f'{what}, got "two"')]
    for bound in info.metadata:
        kind = type(bound).__name__
        value = getattr(bound, kind.lower(), None)
        step = 1 if int in kinds else 0.5
        # the bound as a user reads the number (0, not 0.0); the value as it was given
        said = f"{value:g}" if isinstance(value, float) else value
        if kind == "Ge":
            wrong.append((value - step, f"at least {said}, got {value - step}"))
        elif kind == "Gt":
            wrong.append((value, f"more than {said}, got {value}"))
        elif kind == "Le":
            wrong.append((value + step, f"at most {said}, got {value + step}"))
        elif kind == "Lt":
            wrong.append((value, f"less than {said}, got {value}"))
    return wrong


def test_a_refused_value_of_the_configuration_reads_as_the_library_words_it() -> None:
    """A configuration file (chatmem … --config e.toml) or a table passed to the library
    was refused in pydantic's words, without the value ('--config e.toml:
    embedding.threads: Input should be a valid integer', '… Input should be greater
    than or equal to 1'), where a choice of it, a call and the HTTP API say
    '<option> must be …, got <value>'. Every option of Config (but the choices, above,
    and the windows, whose validator words its own) gets those words, of a value of the
    wrong type and of one past each bound; a secret's value is never shown."""
    from chatmem.config import _choices, _is_secret, _option_paths

    checked = 0
    for option in _option_paths(Config):
        if _choices(option) or option in ("context_expand.window",
                                          "semantic_recall.message_range"):
            continue
        for value, must in _wrong_values(option):
            if _is_secret(option):
                must = must.partition(", got ")[0]
            _assert_refused(option, value, f"{option} must be {must}")
            checked += 1
    assert checked > 100
    with pytest.raises(ConfigError) as info:  # an item of a list by its index
        Config.load({"embedding": {"openrouter": {"order": ["a", 1]}}})
    assert str(info.value) == ("invalid configuration: embedding.openrouter.order[1] must "
                               "be a string, got 1")


@pytest.mark.parametrize("name,text", [
    ("e.toml", '[embedding]\nthreads = "two"\n[search]\ntop_k = 0\n'),
    ("e.yaml", "embedding:\n  threads: two\nsearch:\n  top_k: 0\n"),
])
def test_a_refused_value_of_a_configuration_file_reads_the_same_on_the_command_line(
        tmp_path: Any, name: str, text: str) -> None:
    """chatmem … --config e.toml said 'embedding.threads: Input should be a valid
    integer', no value."""
    where = f"--config {name}: "
    assert _refusal_of_config_file(tmp_path, name, text) == (
        f"{where}search.top_k must be at least 1, got 0; "
        f'{where}embedding.threads must be an integer, got "two"')


def test_a_refused_value_of_a_variable_names_its_option() -> None:
    """A variable's refusal named the option only when it was a choice
    ('CHATMEM_SCOPE: scope must be one of …'), not otherwise ('CHATMEM_SEARCH__TOP_K:
    must be an integer from 1 to 1000, got 'abc''); and a section given whole as JSON
    said pydantic's words with the whole variable for the value ('CHATMEM_SEARCH:
    search.top_k: Input should be a valid integer, got '{"top_k": "8"}''). Now every
    one names the option after the variable: its text as typed, or the value inside the
    JSON as JSON, in the words of a file's (_wrong_values)."""
    import json

    from chatmem.config import (
        _choices,
        _field_info,
        _flat_types,
        _is_secret,
        _option_paths,
        env_var,
    )

    with pytest.raises(ConfigError) as info:
        Config.load(env={"CHATMEM_SEARCH": '{"top_k": "8"}'})
    assert str(info.value) == ('invalid configuration: CHATMEM_SEARCH: search.top_k must '
                               'be an integer, got "8"')
    typed = inside = 0
    for option in _option_paths(Config):
        if _choices(option) or option in ("context_expand.window",
                                          "semantic_recall.message_range"):
            continue
        kinds = _flat_types(_field_info(option).annotation)
        if any(t in (int, float, bool) for t in kinds) \
                and str not in kinds:  # "two" is no value of it, nor JSON of a table
            var = env_var(option)
            with pytest.raises(ConfigError) as info:
                Config.load(env={var: "two"})
            text = str(info.value)
            assert text.startswith(f"invalid configuration: {var}: {option} must be "), text
            assert text.endswith("" if _is_secret(option) else ", got 'two'"), text
            typed += 1
        section, _, name = option.partition(".")
        if not name:
            continue
        for value, must in _wrong_values(option):
            if _is_secret(option):
                must = must.partition(", got ")[0]
            var = env_var(section)
            with pytest.raises(ConfigError) as info:
                Config.load(env={var: json.dumps(_nested(name, value))})
            assert str(info.value) == f"invalid configuration: {var}: {option} must be {must}"
            inside += 1
    assert typed > 50 and inside > 100


@pytest.mark.parametrize("namespace,shown", [("a b", '"a b"'), (5, "5"), (["n"], '["n"]'),
                                             ("Alice", '"Alice"'), ("-a", '"-a"')])
def test_a_refused_namespace_of_a_key_file_shows_its_value_as_the_file_holds_it(
        namespace: Any, shown: str) -> None:
    """A key file's namespace = "a b" was refused with its value as Python ("got 'a
    b'", namespace = ["n"] "got ['n']"), where its role and a configuration file's
    options show theirs as JSON. Its rule in words said "(letters, digits, - and _)", as
    the README's keys file did, but "Alice" and "-a" are refused: it says lowercase, the
    first a letter or digit, at most 63 characters, as the pattern takes."""
    from chatmem.server.http import NAMESPACE_RE, KeyTable

    with pytest.raises(ConfigError) as info:
        KeyTable.from_mapping({"keys": {"bot": {"key": "k" * 24, "namespace": namespace}}},
                              source="k.toml")
    assert str(info.value) == (f"k.toml: keys.bot.namespace must match {NAMESPACE_RE.pattern} "
                               "(lowercase letters, digits, - and _, starting with a letter "
                               f"or digit, at most 63 characters), got {shown}")


async def test_a_refused_choice_of_an_embedding_input_or_a_transport_lists_them_bare(
        ) -> None:
    """Embedder.embed_many([("x", "bot")]) said "inputs[0]: role must be 'document' or
    'query', got 'bot'" and chatmem.server.mcp.run(transport="tcp") "transport must be
    'stdio' or 'http', got 'tcp'": the choices quoted, the value as Python, where
    every other refusal of a choice lists them bare and shows the value as JSON."""
    from chatmem.server import mcp

    with pytest.raises(InvalidInput) as info:
        await Embedder(RecordingProvider(dim=16)).embed_many([("x", "bot")])
    assert str(info.value) == 'inputs[0].role must be one of document, query, got "bot"'
    with pytest.raises(InvalidInput) as info:
        mcp.run(url="memory://", transport="tcp")
    assert str(info.value) == 'transport must be one of stdio, http, got "tcp"'


#: memory_recall's arguments that hold themselves, or nest deeper than Python recurses:
#: the refusal's wording of them walked a cycle for ever (refusals.lone_surrogate, its
#: memory growing without bound) or raised a raw RecursionError (json.dumps in as_given).
_TOOL_CALLS_THAT_HUNG = '''
import asyncio, sys
from chatmem import Memory
from chatmem.embedding import Embedder
from chatmem.errors import InvalidInput
from chatmem.testing import HashEmbeddingProvider

def cycle():
    d = {}
    d["a"] = d
    return d

def loop():
    a = []
    a.append(a)
    return a

def deep():
    v = 1
    for _ in range(5000):
        v = [v]
    return v

async def main():
    mem = await Memory.open("memory://", embedder=Embedder(HashEmbeddingProvider()))
    for arguments in (cycle(), {"query": loop()}, {"query": "x", "scope": cycle()}, deep(),
                      {"query": deep()}):
        try:
            await mem.call_tool(arguments, {"session_id": "s1"})
        except InvalidInput as exc:
            print(exc)
    await mem.close()

asyncio.run(main())
'''


def test_tool_arguments_holding_themselves_or_nested_deep_are_refused_in_words() -> None:
    proc = subprocess.run([sys.executable, "-c", _TOOL_CALLS_THAT_HUNG], capture_output=True,
                          text=True, timeout=60, env={**os.environ, "PYTHONHASHSEED": "0"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == [
        "memory_recall: query is required; unknown argument(s) a; it takes query, scope, "
        "context_window, cross_session, top_k",
        "memory_recall: query must be a string, got [[[[[[[...]]]]]]]",
        'memory_recall: scope must be a string, got {"a": {"a": {"a": {"a": {"a": {"a": '
        '{...}}}}}}}',
        "memory_recall arguments must be an object, got [[[[[[[...]]]]]]]",
        "memory_recall: query must be a string, got [[[[[[[...]]]]]]]",
    ]
