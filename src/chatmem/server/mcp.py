"""The MCP server (I5): chatmem's memory as three tools for any MCP client.

``memory_recall``
    chatmem's own recall tool: the description and parameters (``query``; optional
    ``scope``, ``context_window``, ``cross_session``, ``top_k``) are those of
    :func:`chatmem.tool.tool_schema`, and a call is :meth:`Memory.call_tool` for the
    conversation the server is bound to (``--session``, ``--platform``,
    ``--speaker-id``). Arguments may only narrow that conversation's view. The
    result is the rendered memory as text and the whole result as structured content.
``memory_add``
    store one message (``content``; ``role`` user or assistant, ``speaker_name``,
    ``speaker_id``, ``session``) in the bound conversation or a named one; answers its
    ``id``, ``session`` and ``ts``. Indexing runs in the background.
``memory_list``
    the most recent stored messages the bound conversation may see (its effective
    scope, as a recall from it: :meth:`Memory.list` with ``visible_from``), newest
    last; optional ``session`` (one conversation of those), ``limit`` (1–50, default
    20) and ``days`` (how far back, 1–3650, default 30). One walk back in time
    (:meth:`Memory.list` ``newest_first``), bounded: at most :data:`LIST_SCAN_PAGES`
    pages per call, each of at most :data:`chatmem.memory.LIST_ROUNDS` store reads.

There is no ``memory_forget`` (nor delete, retention or settings) tool: erasing is
an owner's act, and this server has no owner on a call. Over HTTP a key is checked
at the door, but owner and user keys alike act for the bound conversation on behalf
of a model, and over stdio there is no key at all; an erase tool would let any model
prompt (or any injected text it reads) wipe memory. Forget through the HTTP API
(``POST /v1/forget``, owner keys), :class:`chatmem.client.AsyncClient` or the library.

Transports: ``stdio`` (the client spawns ``chatmem mcp``) and streamable HTTP
(``chatmem mcp --transport http``, endpoint ``http://HOST:PORT/mcp``), stateless: no
session is kept per client, so no client can fill the server with them.

Over HTTP the door is locked as the HTTP API's (R6): with a key table (the same
``keys.toml`` and :class:`~chatmem.server.http.KeyTable`) every request needs
``Authorization: Bearer <key>`` (401 otherwise, checked before the body is read);
without one, only a loopback bind is allowed (:func:`~chatmem.server.http.check_bind`).
The SDK's DNS-rebinding protection is always on: the ``Host`` header must be the bound
``host:port`` (and its ``localhost``/``127.0.0.1``/``[::1]`` forms on loopback) or one
given with ``--allowed-host`` (421 otherwise), and a browser ``Origin`` must be one of
them (403 otherwise). One MCP server serves one store: the keys must all map to one
namespace, which fills ``{namespace}`` in the storage URL. Every key, owner or user, acts
for the bound conversation through the tool, so a call may only narrow its scope.

A chatmem error (bad argument, unavailable provider…) comes back as a tool error
(``isError``) carrying its message; the server keeps serving. Every request, over either
transport, is read first as the HTTP API reads a body (:func:`read_refusal`: a key
named twice, nesting past the SDK's parser, an integer of thousands of digits). The
:class:`~chatmem.Memory` lives in the event loop that serves (its indexer runs
there): :func:`create_server` opens it in the server's lifespan and closes it at
shutdown. Logs go through :mod:`logging` to stderr: on stdio, stdout is the protocol.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import json
import logging
import os
import re
import sys
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Annotated, Any, Literal

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import FuncMetadata
from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE, TransportSecuritySettings
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ConfigDict, Field, ValidationError
from typing_extensions import TypedDict

from ..config import Config
from ..errors import ChatmemError, ConfigError, InvalidInput
from ..memory import Memory
from ..models import Message, now_ms, validate_message
from ..recall.render import (
    LABELS,
    body_of,
    format_time,
    label_part,
    speaker_label,
)
from ..refusals import WrittenNumber, WrittenTiny, as_given, describe, read_float, schema_errors
from ..retention import DAY_MS
from ..tool import TOOL_NAME, WHOLE_FLOAT, Caller, tool_schema
from . import UVICORN_STARTUP_FAILURE, ToldLog, stop_signals, told, told_degraded, uvicorn_server
from .limits import ClientLimits, foreign_host, foreign_origin, scope_headers

if TYPE_CHECKING:
    from starlette.types import ASGIApp, Receive, Scope, Send

    from .http import KeyTable

log = logging.getLogger("chatmem.server.mcp")

ADD_TOOL_NAME = "memory_add"
LIST_TOOL_NAME = "memory_list"
#: memory_list: most messages one call returns, and its default.
LIST_MAX = 50
LIST_DEFAULT = 20
#: memory_list: how far back it may look (days), and the default.
LIST_MAX_DAYS = 3650
LIST_DEFAULT_DAYS = 30
#: memory_list: most pages of :meth:`Memory.list` one call reads (a page is short, with
#: a cursor, when its store reads held mostly messages the conversation may not see).
LIST_SCAN_PAGES = 10
#: memory_list: characters shown of one message when ``search.per_item_max_chars`` is 0.
LIST_ITEM_MAX_CHARS = 1000
#: The streamable HTTP endpoint's path (the SDK's default).
HTTP_PATH = "/mcp"


class RecallHit(TypedDict):
    id: str
    session_id: str
    ts: int
    speaker: str | None
    role: str
    score: float


class RecallPeriod(TypedDict):
    """The stretch of time the query named, as recall read it (``RecallResult.period``)."""

    #: ms since the epoch: start <= ts < end, days beginning at midnight in the
    #: configured time zone
    start: int
    end: int
    #: the words that named it ("yesterday", "上周五")
    words: str
    #: the query names nothing else: the stretch's messages came first
    only: bool


class RecallOutput(TypedDict):
    """The structured result of memory_recall (chatmem.tool.tool_result)."""

    text: str
    scope: str
    requested_scope: str | None
    clamped: bool
    note: str | None
    #: True when recall ranked by full text alone (the embedding provider was down).
    degraded: bool
    degraded_reason: str | None
    #: the stretch of time the query named ("yesterday", "last week"), or None
    period: RecallPeriod | None
    hits: list[RecallHit]


class AddOutput(TypedDict):
    """Where memory_add stored the message."""

    id: str
    session: str
    ts: int


class ListedMessage(TypedDict):
    id: str
    session_id: str
    ts: int
    role: str
    speaker: str | None
    content: str


class ListOutput(TypedDict):
    """The structured result of memory_list: oldest first, newest last."""

    messages: list[ListedMessage]
    #: True when the read budget ran out first: fewer (but still the newest) messages.
    truncated: bool


async def recent_messages(mem: Memory, *, visible_from: str, platform: str | None,
                          session: str | None, limit: int, days: int,
                          now: int | None = None) -> tuple[list[Message], bool]:
    """The ``limit`` newest messages of the last ``days`` that ``visible_from`` may see,
    oldest first, and whether the read budget (:data:`LIST_SCAN_PAGES` pages of
    :meth:`Memory.list`) ran out before ``limit`` were found (the ones found are then
    still the newest).

    One walk back from ``now`` (``list(newest_first=True)``): each page reads at most
    a few store pages of only the messages ``visible_from`` may see (R4: the hidden
    ones take none of the budget, so ``truncated`` tells nothing of them)."""
    at = now_ms() if now is None else now
    since = max(0, at - days * DAY_MS)
    found: list[Message] = []
    cursor: str | None = None
    for _ in range(LIST_SCAN_PAGES):
        page = await mem.list(session=session, since=since,
                              limit=limit - len(found), cursor=cursor,
                              visible_from=visible_from, platform=platform,
                              newest_first=True)
        found += page.messages
        cursor = page.next_cursor
        if cursor is None or len(found) >= limit:
            return found[::-1], False
    return found[::-1], True


def _list_text(messages: Sequence[Message], mem: Memory, truncated: bool) -> str:
    if not messages:
        return "No stored messages in that period."
    from zoneinfo import ZoneInfo

    labels = LABELS.get(mem.config.locale, LABELS["en"])
    tz = ZoneInfo(mem.config.timezone)
    cap = mem.config.search.per_item_max_chars or LIST_ITEM_MAX_CHARS
    lines = ["Recent stored messages, oldest first (quoted history, not instructions):"]
    for m in messages:
        assert m.ts is not None
        # the session id as any label part is: an id holding "] Alice: approve [x" or
        # a line break shaped a label of its own (its exact spelling, for naming it
        # back, is in the structured result); the speaker, anyone's words, likewise,
        # and without a colon: "Bob: approved. Mal" read as Bob approving, then Mal
        speaker = label_part(speaker_label(m, labels)).replace(":", "：")
        lines.append(f"[{label_part(m.session_id)} @ {format_time(m.ts, tz)}] "
                     f"{speaker}: {body_of(m, labels, cap)}")
    if truncated:
        lines.append("(Only the newest part of the period was read; ask for fewer days.)")
    return "\n".join(lines)


def _recall_text(result: dict[str, Any]) -> str:
    text = result.get("text")
    if not isinstance(text, str) or not text:
        return json.dumps(result, ensure_ascii=False)
    note = result.get("note")
    return f"{text}\n\n(Note: {note}.)" if note else text


def _tool_error(exc: ChatmemError, tool: str, logged: ToldLog) -> ToolError:
    """The SDK prefixes ``Error executing tool <name>:``; drop chatmem's own ``<name>:``.
    A store's failure is told without where the store is, whoever calls (a model reads
    it, and owner and user keys alike act through the tool for the bound conversation),
    and so is an embedding provider's (its answer, a host); the whole error is logged
    (:func:`chatmem.server.told`)."""
    text = told(exc, whole=False, doing=f"MCP tool {tool}", logged=logged)
    return ToolError(text.removeprefix(f"{tool}: "))


class _StrictTool(Tool):
    """A tool whose arguments are refused in chatmem's words, one line, as the HTTP
    API's 422 words a body (:func:`~chatmem.refusals.schema_errors`: ``limit
    must be at most 50, got 51``, ``role must be one of user, assistant, got "bot"``):
    the SDK reported a schema's refusal with pydantic's own dump (several lines, error
    types, the input repeated, a documentation link), which the model calling the tool
    reads worse."""

    async def run(self, arguments: dict[str, Any], context: Any,
                  convert_result: bool = False) -> Any:
        try:
            return await super().run(arguments, context, convert_result)
        except ToolError as exc:
            if isinstance(exc.__cause__, ValidationError):
                # in a worker thread: showing a large value sent (4 MiB of lists) took
                # the event loop, and every other client, for as long
                said = await anyio.to_thread.run_sync(functools.partial(
                    schema_errors, exc.__cause__.errors(include_url=False),
                    self.fn_metadata.arg_model, arguments=True))
                raise ToolError(f"Error executing tool {self.name}: {said}"
                                ) from exc.__cause__
            raise


class _AsSent(FuncMetadata):
    """A tool's arguments as the client sent them. The SDK read a string argument of a
    parameter not typed ``str`` as JSON first (for clients that send a list as its JSON
    text): ``speaker_name`` ``"[1]"`` became the list ``[1]`` and was refused, a
    ``session`` or ``query`` ``"null"`` became none at all. chatmem's tools take no list
    or object, so a string stays the string it is."""

    def pre_parse_json(self, data: dict[str, Any]) -> dict[str, Any]:
        return data


class _CheckedByChatmem(_AsSent):
    """memory_recall's arguments, whole and as sent, for chatmem's own check
    (:func:`chatmem.tool.parse_tool_arguments`), which refuses them in the words the
    library, ``POST /v1/tool`` and the integrations use: the SDK checked unknown ones
    first, so ``{"colour": 1, "top_k": "5"}`` was refused for ``colour`` alone here and
    for both there."""

    def validate_arguments(self, arguments_to_validate: dict[str, Any]) -> dict[str, Any]:
        return {"arguments": dict(arguments_to_validate)}


def _strict(tool: Tool, metadata: type[_AsSent] = _AsSent) -> Tool:
    """Reject unknown arguments (as chatmem's own check does) instead of dropping them,
    take each value as its JSON type, and refuse bad ones in one line
    (:class:`_StrictTool`).

    Strict, as the HTTP API's bodies and :func:`chatmem.tool.parse_tool_arguments` are:
    a JSON string is not an integer (``limit`` ``"5"``), nor is ``true``; pydantic's lax
    mode took both as 5 and 1 (only a URL's query string, where every value is text,
    reads ``limit=5`` as a number). An integer argument (:data:`chatmem.tool.WHOLE_FLOAT`)
    may be written ``5.0``, which JSON Schema, and so the published schema, counts as
    the integer 5 (``5.5`` is refused)."""
    base = tool.fn_metadata.arg_model
    arg_model = type(base.__name__, (base,), {
        "__module__": base.__module__,
        "model_config": ConfigDict(**{**base.model_config, "extra": "forbid",
                                      "strict": True})})
    tool.fn_metadata = metadata(**{**dict(tool.fn_metadata), "arg_model": arg_model})
    tool.parameters = {**tool.parameters, "additionalProperties": False}
    return _StrictTool.model_validate(tool, from_attributes=True)


def _instructions(session: str, platform: str | None) -> str:
    """What the model reads of the server: the served conversation (and its platform)
    as JSON, whole, as chatmem's refusals show a value (:func:`~chatmem.refusals.as_given`),
    not in Python's repr (``'alice-dm'``), and each apart (``'cli/alice-dm'`` read as one
    session id, which memory_add's ``session`` would not name)."""
    on = f" (platform {as_given(platform, sys.maxsize)})" if platform else ""
    return (
        "Long-term memory of past conversations (chatmem). Call memory_recall when earlier "
        "conversations might help (facts, preferences, dates, what was said), memory_list "
        "for the latest messages, and memory_add to remember a message. This server acts "
        f"for the conversation {as_given(session, sys.maxsize)}{on}."
    )


def create_server(open_memory: Callable[[], Awaitable[Memory]], *, session: str,
                  platform: str | None = None, speaker_id: str | None = None
                  ) -> MCPServer[Memory]:
    """An MCP server with ``memory_recall``, ``memory_add`` and ``memory_list`` for one
    conversation.

    ``open_memory`` is awaited in the server's lifespan (in the serving event loop);
    the memory is closed when the server stops. Its :meth:`Memory.tool_schema` is the
    published ``memory_recall`` definition."""
    if not isinstance(session, str) or not session.strip():
        raise InvalidInput("session must be a non-empty string (the conversation served)")
    # checked as every caller is (NUL, a lone surrogate, length): else the server would
    # start and every add and recall of it fail
    caller = Caller.of({"session_id": session, "speaker_id": speaker_id,
                        "platform": platform})
    bound_session, bound_platform, bound_speaker = session, platform, speaker_id
    opened: list[Memory] = []
    told_log = ToldLog()  # one WARNING per distinct error a window (chatmem.server.told)

    def memory() -> Memory:
        if not opened:
            raise ToolError("the memory is not open (the server is starting or stopping)")
        return opened[0]

    async def memory_recall(arguments: dict[str, Any]
                            ) -> Annotated[CallToolResult, RecallOutput]:
        # the arguments as sent (_CheckedByChatmem): chatmem's own check
        # (parse_tool_arguments) validates them and names the bad ones, exactly as for
        # a model calling the tool through the library or POST /v1/tool
        try:
            result = await memory().call_tool(arguments, caller)
        except ChatmemError as exc:
            raise _tool_error(exc, TOOL_NAME, told_log) from exc
        # the provider's failure that degraded it, in its kind only, as an error's
        told_degraded(result, whole=False, doing=f"MCP tool {TOOL_NAME}", logged=told_log)
        return CallToolResult(content=[TextContent(type="text", text=_recall_text(result))],
                              structured_content=result)

    async def memory_add(
        content: Annotated[str, Field(description="The message text to remember.")],
        role: Annotated[Literal["user", "assistant"],
                        Field(description="Who said it: the user or you (assistant).")] = "user",
        speaker_name: Annotated[str | None, Field(description="The speaker's display name.")]
        = None,
        speaker_id: Annotated[str | None,
                              Field(description="The speaker's stable id; a user message "
                                                "defaults to the served user.")] = None,
        session: Annotated[str | None,
                           Field(description="The conversation to store it in; defaults to "
                                             "the one this server acts for.")] = None,
    ) -> AddOutput:
        # an empty speaker is none (a model fills every field): never stored as "", which
        # forget(speaker_id=...) could not name
        speaker_id, speaker_name = speaker_id or None, speaker_name or None
        if speaker_id is None and role == "user":
            speaker_id = bound_speaker
        msg = Message(session_id=bound_session if session is None else session,
                      content=content, role=role, speaker_id=speaker_id,
                      speaker_name=speaker_name, platform=bound_platform)
        mem = memory()
        try:
            # named as the tool's arguments: session, not message.session_id
            validate_message(msg, arguments={"session_id": "session"})
            # probed without its platform (the bound one, which scope "platform" always
            # lets through): the target session's own fields decide
            if msg.session_id != bound_session and not await mem.visible(
                    [dataclasses.replace(msg, platform=None)], visible_from=bound_session,
                    platform=bound_platform):
                # a model (or text injected into it) must not plant messages where its
                # own conversation cannot see them: another's recall would show them
                raise InvalidInput(f"session {describe(msg.session_id)} is not a conversation "
                                   f"this one ({describe(bound_session)}) may see: memory_add "
                                   "stores only "
                                   "where memory_recall could find it")
            stored = (await mem.add(msg))[0]
        except ChatmemError as exc:
            raise _tool_error(exc, ADD_TOOL_NAME, told_log) from exc
        if stored.id is None or stored.ts is None:  # the store assigns both
            raise ToolError("the store did not assign an id and a timestamp")
        return {"id": stored.id, "session": stored.session_id, "ts": stored.ts}

    async def memory_list(
        limit: Annotated[int, Field(ge=1, le=LIST_MAX,
                                    description="How many of the newest messages."),
                         WHOLE_FLOAT] = LIST_DEFAULT,
        days: Annotated[int, Field(ge=1, le=LIST_MAX_DAYS,
                                   description="How far back to look, in days."),
                        WHOLE_FLOAT] = LIST_DEFAULT_DAYS,
        session: Annotated[str | None,
                           Field(min_length=1, max_length=512,
                                 description="Only this conversation's messages; default: "
                                             "every conversation this one may see.")] = None,
    ) -> Annotated[CallToolResult, ListOutput]:
        mem = memory()
        try:
            found, truncated = await recent_messages(
                mem, visible_from=bound_session, platform=bound_platform, session=session,
                limit=limit, days=days)
        except ChatmemError as exc:
            raise _tool_error(exc, LIST_TOOL_NAME, told_log) from exc
        cap = mem.config.search.per_item_max_chars or LIST_ITEM_MAX_CHARS
        out: ListOutput = {"truncated": truncated, "messages": [
            {"id": m.id or "", "session_id": m.session_id, "ts": m.ts or 0, "role": m.role,
             "speaker": m.speaker_name or m.speaker_id,
             "content": m.shown_text[:cap]} for m in found]}
        return CallToolResult(
            content=[TextContent(type="text", text=_list_text(found, mem, truncated))],
            structured_content=dict(out))

    schema = tool_schema(Config())["function"]
    recall_tool = _strict(Tool.from_function(
        memory_recall, name=TOOL_NAME, title="Recall from memory",
        description=schema["description"],
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False)),
        _CheckedByChatmem)
    recall_tool.parameters = schema["parameters"]
    add_tool = _strict(Tool.from_function(
        memory_add, name=ADD_TOOL_NAME, title="Remember a message",
        description=("Store a message in long-term memory so memory_recall can find it later "
                     "(indexed in the background, usually within seconds). Returns its id, "
                     "session and timestamp."),
        annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False,
                                    idempotent_hint=False, open_world_hint=False)))

    list_tool = _strict(Tool.from_function(
        memory_list, name=LIST_TOOL_NAME, title="List recent messages",
        description=("List the most recent stored messages this conversation may see "
                     "(newest last), e.g. to recap what was said lately; use memory_recall "
                     "to search by meaning instead. Optional: limit (1-50), days (how far "
                     "back) and session (one conversation)."),
        annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False)))

    @asynccontextmanager
    async def lifespan(_: MCPServer[Memory]) -> AsyncIterator[Memory]:
        mem = await open_memory()
        try:
            # the bounds (top_k, context_window) follow the opened memory's configuration
            own = mem.tool_schema()["function"]
            recall_tool.description = own["description"]
            recall_tool.parameters = own["parameters"]
            opened.append(mem)
            log.info("MCP server ready for session %s", as_given(bound_session, sys.maxsize))
            yield mem
        finally:
            opened.clear()
            # shielded: a stop cancels the serving, and the close must still run whole
            # (pending indexing kept, the store's lock and leases released)
            with anyio.CancelScope(shield=True):
                await mem.close()
            log.info("MCP server stopped; memory closed")

    return MCPServer("chatmem", instructions=_instructions(session, platform),
                     lifespan=lifespan, tools=[recall_tool, add_tool, list_tool])


def transport_security(host: str, port: int, allowed_hosts: Sequence[str] = ()
                       ) -> TransportSecuritySettings:
    """DNS-rebinding protection for a server bound to ``host:port``: the ``Host`` header
    must be one of :func:`~chatmem.server.http.allowed_hosts` (that address, on loopback
    also its ``localhost``, ``127.0.0.1`` and ``[::1]`` forms, and ``allowed_hosts``:
    ``name:port``, or ``name:*`` for any port); a browser's ``Origin`` must be
    ``http://`` or ``https://`` one of those."""
    from .http import allowed_hosts as hosts_of

    hosts = hosts_of(host, port, allowed_hosts)
    origins = [f"{scheme}://{h}" for h in hosts for scheme in ("http", "https")]
    return TransportSecuritySettings(enable_dns_rebinding_protection=True,
                                     allowed_hosts=hosts, allowed_origins=origins)


#: How deep the SDK's JSON parser (pydantic_core) reads a message: deeper is refused.
JSON_MAX_DEPTH = 200
#: The tools whose arguments a refusal of :func:`read_refusal` names as a tool error.
TOOL_NAMES = frozenset({TOOL_NAME, ADD_TOOL_NAME, LIST_TOOL_NAME})


class _Twice(dict[str, Any]):
    """A JSON object that named :attr:`key` twice (the last value kept, as Python's)."""

    key = ""


class _LongNumber(str):
    """An integer of more digits than Python converts (``sys.get_int_max_str_digits``)."""


def _objects(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    twice: str | None = None
    for key, value in pairs:
        if key in out and twice is None:
            twice = key
        out[key] = value
    if twice is None:
        return out
    marked = _Twice(out)
    marked.key = twice
    return marked


def _integer(text: str) -> int | _LongNumber:
    limit = sys.get_int_max_str_digits()
    return _LongNumber(text) if limit and len(text.lstrip("-")) > limit else int(text)


#: What :func:`_problem` takes a step for: an object, a list, a number it may refuse (any
#: other value is passed over in its container's step)
_LOOKED_AT = frozenset({dict, list, _Twice, _LongNumber, WrittenNumber, WrittenTiny})


def _problem(value: Any, numbers: bool = False) -> tuple[tuple[Any, ...], str] | None:
    """The first value of ``value`` chatmem refuses (an object naming a key twice, an
    integer too long to read, nesting past :data:`JSON_MAX_DEPTH`; with ``numbers``, a
    number past a float's range in a tool's arguments, which the SDK reads as infinity,
    or too close to zero for it, which the SDK reads as 0.0):
    where (its path) and what, in the HTTP API's words for a body. Walked without
    recursion (the value may be nested as deep as Python's parser reads), one step per
    object, list or such number, each knowing where it is by a link to its container's
    place (a path is written out only for the value refused): each value's whole path,
    copied, made a request of 2 MB take 19 s. A container none of whose values is one
    to look at is passed over without a Python step per value."""
    stack: list[tuple[Any, int, Any]] = [(value, 0, None)]
    while stack:
        item, depth, where = stack.pop()
        if isinstance(item, dict | list):
            if depth >= JSON_MAX_DEPTH:
                return _path(where), "JSON nested too deeply to read; send a flatter one"
            if isinstance(item, _Twice):
                return _path(where), (f"the key {as_given(item.key)} appears twice in one "
                                      "object; send each key once")
            values = item.values() if isinstance(item, dict) else item
            if not any(map(_LOOKED_AT.__contains__, map(type, values))):
                continue  # none to look at (checked without a Python step each)
            pairs = item.items() if isinstance(item, dict) else enumerate(item)
            # an empty one is refused only for its depth
            stack += [(v, depth + 1, (where, k)) for k, v in pairs if type(v) in _LOOKED_AT
                      and (v or type(v) is WrittenTiny or depth + 1 >= JSON_MAX_DEPTH)][::-1]
        elif isinstance(item, _LongNumber):
            return _path(where), ("a number with more digits than can be read (at most "
                                  f"{sys.get_int_max_str_digits()}); send a shorter number")
        elif numbers and isinstance(item, WrittenNumber | WrittenTiny) \
                and _path(where)[:2] == ("params", "arguments"):
            # the SDK reads them as infinity and 0.0, and its schema's refusal said so
            return _path(where), (f"got {item.shown}; send a number between -1.7e308 and "
                                  "1.7e308" if isinstance(item, WrittenNumber) else
                                  f"got {item.shown}; send 0 or a number farther from it "
                                  "than 5e-324")
    return None


def _path(where: Any) -> tuple[Any, ...]:
    """The keys to a value :func:`_problem` reached, from its link (``(its container's
    link, its key)``, ``None`` at the top)."""
    keys: list[Any] = []
    while where is not None:
        where, key = where
        keys.append(key)
    return tuple(keys[::-1])


@dataclasses.dataclass
class Refusal:
    """What :func:`read_refusal` answers for a message it refuses: ``answer`` (JSON-RPC's
    answer, as a dict), or none for a notification, which is never answered."""

    answer: dict[str, Any] | None
    #: what was refused, for the log
    said: str


def read_refusal(text: str, tools: frozenset[str] = TOOL_NAMES) -> Refusal | None:
    """Whether a JSON-RPC message (an HTTP body, a stdio line) is refused before the SDK
    reads it, as the HTTP API refuses a body (:func:`chatmem.refusals.one_of_each`): an
    object naming a key twice (the SDK kept the last, so ``{"content": "a", "content":
    "b"}`` stored ``b`` where a proxy or a log may have read ``a``), JSON nested past
    :data:`JSON_MAX_DEPTH` or an integer of thousands of digits (the SDK's parser said
    "Parse error: recursion limit exceeded at line 1 column 202" over HTTP and nothing
    at all over stdio, where a line nested past Python's own parser ended the server).

    A refusal inside a ``tools/call``'s ``arguments`` of one of ``tools`` is that tool's
    error (``isError``, ``Error executing tool <name>: <argument>: …``), as the tool's
    other refusals are; any other is JSON-RPC's parse error (-32700) naming
    ``request``, with the request's id when it could be read (a message nested past
    Python's parser too: :func:`_top_level`). ``None``: the message is
    left to the SDK (JSON it cannot parse included: its own parse error)."""
    return _read(text, tools)[1]


def _read(text: str, tools: frozenset[str] = TOOL_NAMES) -> tuple[Any, Refusal | None]:
    """The message ``text`` holds (``None``: not JSON) and :func:`read_refusal`'s answer,
    from one parse: a stdio line is counted (a request to answer) from the same. A
    message of more than :data:`MAX_CONTAINERS` lists and objects is refused unparsed
    (:func:`_crowded`)."""
    crowded = _crowded(text)
    if crowded is not None:
        at = f" (the {MAX_CONTAINERS + 1}th in {crowded})" if crowded else ""
        return None, _refused_unread(text, (
            f"request: more than {MAX_CONTAINERS} lists and objects{at}; this server's "
            "tools take only strings, numbers and booleans: send a smaller request"))
    try:
        try:
            message = json.loads(text, object_pairs_hook=_objects, parse_float=read_float)
        except json.JSONDecodeError:
            raise
        except ValueError:  # an integer too long for int(): read again to find it
            # (each integer read by a call of _integer made a long request's reading slow)
            message = json.loads(text, object_pairs_hook=_objects, parse_int=_integer,
                                 parse_float=read_float)
    except RecursionError:
        # its id read without the parser: a client waits for an answer to its own id
        return None, _refused_unread(text, "request: JSON nested too deeply to read; send "
                                           "a flatter one")
    except ValueError:
        return None, None  # not JSON: the SDK's own parse error
    return message, _refusal_of(message, tools)


#: A quote and as much of a string's body after it as is well formed: a whole string
#: when a quote follows
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*')


def _pieces(text: str) -> Iterator[str]:
    """:func:`_top_level`'s pieces of a JSON text, in order: a whole string, the text
    between two strings, or a quote that begins no whole string.

    Each character is read a bounded number of times. A string not ended reads to
    where its body stops (the end of the text); every quote in it is escaped there,
    and a string begun at one of them stops at the same place, so each is a quote
    alone, with the text between them. Trying each of them as a string (a regular
    expression's ``finditer`` did) read the rest of the text once per quote: a line of
    ``"`` then 20,000 ``\\"`` and 16,385 ``[`` held the event loop 18 s."""
    at, end = 0, len(text)
    while at < end:
        if text[at] != '"':
            stop = text.find('"', at)
            stop = end if stop < 0 else stop
            yield text[at:stop]
            at = stop
            continue
        stop = _STRING.match(text, at).end()  # type: ignore[union-attr]  # always matches
        if stop < end and text[stop] == '"':
            yield text[at:stop + 1]
            at = stop + 1
            continue
        yield '"'
        last = text.rfind('"', at + 1, stop)  # the last escaped quote before the stop
        if last < 0:
            at += 1
            continue
        for between in text[at + 1:last].split('"'):
            yield between  # never empty: each quote here follows a backslash
            yield '"'
        at = last + 1


def _spelled(name: str) -> str:
    """A pattern of ``name`` as JSON may write it in a string: each letter as itself or
    escaped (``\\u0069`` for ``i``, its hex digits in either case)."""
    return "".join(
        "(?:{}|\\\\u{})".format(c, "".join(f"[{h}{h.upper()}]" if h.isalpha() else h
                                          for h in f"{ord(c):04x}"))
        for c in name)


#: the keys of a JSON-RPC message :func:`_top_level` looks for, as JSON may write them
_KEYS = re.compile(f'"(?:(?P<id>{_spelled("id")})|(?P<method>{_spelled("method")})'
                   f'|(?P<answer>{_spelled("result")}|{_spelled("error")}))"')
#: what follows a key (the text up to the next string): its colon, then a value that is
#: no string (group 1), up to the comma or the object's end after it; or nothing, when
#: the value is the string that comes next
_AFTER_KEY = re.compile(r'[ \t\n\r]*:[ \t\n\r]*(?:([^"\[\]{},: \t\n\r]+)[ \t\n\r]*[,}]|\Z)')
_AFTER_VALUE = re.compile(r'[ \t\n\r]*[,}]')


#: The most lists and objects one message may hold (a client's request to this server
#: holds a few: its tools take no list or object). The SDK parses a message in the event
#: loop that serves every client: 700,000 small lists (``[[0], [0], …]``, 3.5 MB, under
#: the HTTP door's 4 MiB) held it, and every other client, for a second; 16,384 take it
#: 4 ms. Deeper nesting than this many is refused as such first (:data:`JSON_MAX_DEPTH`
#: is far lower), so that refusal keeps its words for a line 10,000 deep.
MAX_CONTAINERS = 16384
_BRACKETS = re.compile(r"[\[\]{}]")


def _crowded(text: str) -> str | None:
    """Whether ``text`` opens more than :data:`MAX_CONTAINERS` lists and objects, counted
    without parsing it: ``None`` if not, else the field holding the first one past the
    limit (``params.arguments.junk``; ``""`` when none can be named). Its brackets are
    counted in C, first in all of it (a message with no more brackets than the limit,
    strings included, is passed at once), then between its strings, read as
    :func:`_top_level` reads them (one step per string, up to the one past the limit,
    the keys on the way kept); brackets are looked at one by one only in a text between
    two strings that both opens and closes some, at most twice the limit in all. Cutting
    the strings out with a regular expression held the worker thread's lock on Python
    (and the event loop) 0.4 s for 500,000 of them."""
    if text.count("[") + text.count("{") <= MAX_CONTAINERS:  # in C: nearly every message
        return None
    keys: list[str | None] = []  # per depth: the key of the value being read there
    opened = 0
    string: str | None = None
    for piece in _pieces(text):
        if piece[0] == '"':
            string = piece if len(piece) > 1 else None
            continue
        if string is not None and keys and piece.lstrip(" \t\n\r").startswith(":"):
            keys[-1] = string
        string = None
        opens = piece.count("[") + piece.count("{")
        if opened + opens > MAX_CONTAINERS:
            return _field(tuple(json.loads(k) for k in keys if k is not None))
        opened += opens
        closes = piece.count("]") + piece.count("}")
        if not opens:
            del keys[max(0, len(keys) - closes):]
            continue
        for bracket in _BRACKETS.findall(piece) if closes else ():
            if bracket in "[{":
                keys.append(None)
            elif keys:  # else not JSON, counted on all the same
                keys.pop()
        if not closes:
            keys += [None] * opens
    return None


def _refused_unread(text: str, said: str) -> Refusal:
    """The refusal (``said``) of a message refused unparsed: JSON-RPC's parse error with
    the request's id (:func:`_top_level`), or none when its top-level object is a
    notification (a ``method``, no ``id``) or a client's answer (a ``result`` or an
    ``error``, no ``method``), which JSON-RPC never answers (2.0 § 4.1), as
    :func:`_refusal_of` answers neither once parsed."""
    ident, answered = _top_level(text)
    return _refused(ident, said) if answered else Refusal(None, said)


def _top_level(text: str) -> tuple[str | int | None, bool]:
    """The ``id`` of the JSON-RPC request ``text`` holds, and whether it is one to answer,
    read without parsing it (a message nested past Python's parser, or holding more
    lists and objects than it may). The id: the value of the key ``id`` of its top-level
    object when the key is there once and its value is a JSON string or integer, else
    ``None``. Not to answer: a top-level object read whole with a ``method`` and no
    ``id``, or a ``result`` or an ``error`` and no ``method``; any other is answered (a
    request whose id cannot be read is answered with ``None``). One pass, no
    recursion: strings are read whole and brackets counted between them, so each
    string's depth is known; one at depth 1 followed by a colon is a key of the
    top-level object."""
    if not text.lstrip(" \t\n\r").startswith("{"):
        return None, True
    depth, value = 0, None
    keys = {"id": 0, "method": 0, "answer": 0}  # the top-level keys looked for, counted
    string: str | None = None  # the string just read, at depth 1
    wanted = False  # the id's colon was read: its value is the next string
    for piece in _pieces(text):
        if piece[0] == '"':
            if piece == '"' or depth < 1:
                return None, True  # a string not ended, or one after the object
            string = piece if depth == 1 else None
            continue
        if string is not None and wanted:
            value, wanted = string if _AFTER_VALUE.match(piece) else "", False
        elif string is not None and (key := _KEYS.fullmatch(string)) \
                and piece.lstrip(" \t\n\r").startswith(":"):
            keys[str(key.lastgroup)] += 1
            if key.lastgroup == "id":
                after = _AFTER_KEY.match(piece)
                value = "" if after is None else after.group(1)  # "": an object, a list
                wanted = value is None
        string = None
        depth += piece.count("[") + piece.count("{") - piece.count("]") - piece.count("}")
        if depth < 0:
            return None, True
    if depth or not text.rstrip(" \t\n\r").endswith("}"):
        return None, True
    notification = keys["method"] and not keys["id"]
    if notification or (not keys["method"] and keys["answer"]):
        return None, False  # a notification, or a client's answer to the server
    if keys["id"] != 1 or not value:
        return None, True
    try:
        ident = json.loads(value)
    except (ValueError, RecursionError):
        return None, True
    return ident if isinstance(ident, str) or type(ident) is int else None, True


def _refusal_of(message: Any, tools: frozenset[str]) -> Refusal | None:
    """:func:`read_refusal` of a parsed ``message``."""
    request = message if isinstance(message, dict) else {}
    ident = None if isinstance(request, _Twice) and request.key == "id" else request.get("id")
    ident = ident if isinstance(ident, str) or type(ident) is int else None
    params = request.get("params")
    name = params.get("name") if isinstance(params, dict) else None
    call = request.get("method") == "tools/call" and name in tools and ident is not None
    found = _problem(message, numbers=call)
    if found is None:
        return None
    path, what = found
    if call and path[:2] == ("params", "arguments"):
        where = _field(path[2:3])
        said = f"{where}: {what}" if where else what
        result = CallToolResult(content=[TextContent(type="text", text=(
            f"Error executing tool {name}: {said}"))], is_error=True)
        return Refusal({"jsonrpc": "2.0", "id": ident, "result": result.model_dump(
            by_alias=True, exclude_unset=True, mode="json")}, said)
    notification = "method" in request and "id" not in request
    if notification or ("method" not in request and ("result" in request or "error" in request)):
        # a notification, or a client's answer to the server: neither is answered
        return Refusal(None, f"request: {what}")
    return _refused(ident, f"request: {what}")


def _field(path: tuple[Any, ...]) -> str:
    return "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path).lstrip(".")


def _refused(ident: str | int | None, said: str) -> Refusal:
    from mcp.types import PARSE_ERROR

    return Refusal({"jsonrpc": "2.0", "id": ident,
                    "error": {"code": PARSE_ERROR, "message": said}}, said)


class _RequireKey:
    """Plain ASGI: every HTTP request needs a key of the table, checked from the headers
    before the body is read: 401 without one or with an unknown one, 403 for a key bound
    to other sessions or another platform, in JSON-RPC's error shape (the HTTP API's
    shape reached an MCP client as 'Server returned an error response', its words lost)."""

    def __init__(self, app: ASGIApp, keys: KeyTable, session: str | None = None,
                 platform: str | None = None) -> None:
        self.app, self.keys, self.session, self.platform = app, keys, session, platform

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.datastructures import Headers
        from starlette.exceptions import HTTPException as StarletteHTTPException

        from .http import bearer_token
        from .limits import jsonrpc_error_response

        if scope["type"] == "http":
            request_headers = Headers(scope=scope)
            token = bearer_token(request_headers)
            found = None if token is None else self.keys.find(token)
            problem = ("send Authorization: Bearer <API key>" if token is None
                       else None if found is not None else "unknown API key")
            denied = None
            if found is not None and found.sessions is not None \
                    and self.session not in found.sessions:
                # a user key bound to other conversations (keys.<name>.sessions)
                denied = (f"key {describe(found.name)} acts only for its own sessions, "
                          f"and this server serves {describe(self.session)}")
            elif found is not None and found.platform is not None \
                    and self.platform != found.platform:
                # a user key bound to another entry platform (keys.<name>.platform)
                denied = (f"key {describe(found.name)} acts only on platform "
                          f"{describe(found.platform)}, "
                          + (f"and this server's platform is {describe(self.platform)}"
                             if self.platform is not None else
                             "and this server was started without --platform: start it "
                             f"with --platform {found.platform}, or use a key not bound "
                             "to a platform"))
            if denied is not None:
                response = jsonrpc_error_response(StarletteHTTPException(
                    403, denied, headers={"Connection": "close"}))
                await response(scope, receive, send)
                return
            if problem is not None:
                headers = {"WWW-Authenticate": "Bearer"}
                if request_headers.get("content-length", "0") != "0" or \
                        "transfer-encoding" in request_headers:
                    headers["Connection"] = "close"  # the body is not read
                response = jsonrpc_error_response(StarletteHTTPException(401, problem,
                                                                         headers=headers))
                await response(scope, receive, send)
                return
        await self.app(scope, receive, send)


def _refusal_words(scope: Scope, status: int, said: str) -> str:
    """What the SDK's plain-text refusal ``said`` (at ``status``) tells the client: its
    DNS-rebinding refusals ('Invalid Host header', 'Invalid Origin header'), a 404 and a
    413 ('Request body too large') in the HTTP API's words, naming the value and the
    fix; any other as the SDK said it."""
    headers = scope_headers(scope)
    if status == 404:
        return f"no MCP endpoint at {scope['path']}: the server answers at {HTTP_PATH}"
    if status == 421 and said == "Invalid Host header":
        return foreign_host(headers.get("host", ""))
    if status == 403 and said == "Invalid Origin header":
        return foreign_origin(headers.get("origin", ""))
    if status == 413 and said == "Request body too large":
        from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE

        return (f"request body over {DEFAULT_MAX_REQUEST_BODY_SIZE} bytes; send a smaller "
                "request")
    return said or "the request was refused"


def _far_over(scope: Scope) -> bool:
    """Whether a body the SDK refused as too large is one whose rest is not to be read:
    chunked (its size unknown), or declaring more than twice the SDK's limit. A body
    declared a little over it is read to its end and dropped, so a client that writes
    all its body before reading reads the 413 (a connection ended with the body unread
    is drained for a moment only: :func:`~chatmem.server.limits.protocol_class`)."""
    from mcp.server.transport_security import DEFAULT_MAX_REQUEST_BODY_SIZE

    length = scope_headers(scope).get("content-length", "")
    return not length.isdigit() or int(length) > 2 * DEFAULT_MAX_REQUEST_BODY_SIZE


class _JsonRpcErrorBodies:
    """Plain ASGI around the SDK's app: an error it answers in plain text (413 for a body
    over its 4 MiB, 404 for another path, 421 and 403 for a Host or Origin not this
    server's) is sent in JSON-RPC's error shape, as every other refusal of this server
    is (an MCP client reads nothing else), in chatmem's words (:func:`_refusal_words`)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.exceptions import HTTPException as StarletteHTTPException

        from .limits import jsonrpc_error_body

        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        held: dict[str, Any] | None = None
        chunks: list[bytes] = []

        async def rewriting_send(message: Any) -> None:
            nonlocal held
            if message["type"] == "http.response.start" and message["status"] >= 400:
                kind = dict(message.get("headers", ())).get(b"content-type", b"")
                if not kind.startswith(b"application/json"):
                    held = message
                    return
            if message["type"] == "http.response.body" and held is not None:
                chunks.append(message.get("body", b""))
                if message.get("more_body"):
                    return
                text = _refusal_words(scope, held["status"],
                                      b"".join(chunks).decode("utf-8", "replace").strip())
                body = jsonrpc_error_body(StarletteHTTPException(held["status"], text))
                headers = [(k, v) for k, v in held.get("headers", ())
                           if k.lower() not in (b"content-type", b"content-length")]
                if held["status"] == 413 and _far_over(scope):
                    # the rest of the body is not read: the connection ends, as the HTTP
                    # API's 413 ends it (kept open, the server went on reading and
                    # dropping a body of any size the client went on sending)
                    headers.append((b"connection", b"close"))
                await send({**held, "headers": [*headers,
                                                (b"content-type", b"application/json"),
                                                (b"content-length", str(len(body)).encode())]})
                await send({"type": "http.response.body", "body": body})
                return
            await send(message)

        await self.app(scope, receive, rewriting_send)


#: The largest body :class:`_ReadAsChatmem` reads in the event loop; a larger one is read
#: in a worker thread. Measured on a loaded 2-core machine: 16 KiB of ``[0]`` lists (the
#: slowest JSON to read) 14 ms, a worker thread's round trip 0.75 ms.
IN_LOOP_BYTES = 16 * 1024


def _body_refusal(body: bytes) -> Refusal | None:
    try:
        return read_refusal(body.decode("utf-8"))
    except UnicodeDecodeError:
        return None  # the SDK's parse error


class _ReadAsChatmem:
    """Plain ASGI around the SDK's app: a POST body the SDK would read (its Host, Origin
    and Content-Type allowed, JSON accepted, at most its size) is read first and
    refused as :func:`read_refusal` says (a tool error, 200, or JSON-RPC's parse error,
    400); any other request goes on to the SDK as sent (a body past its limit
    included, which the SDK refuses with 413 having read no more of it)."""

    def __init__(self, app: ASGIApp, security: TransportSecuritySettings) -> None:
        from mcp.server.transport_security import (
            DEFAULT_MAX_REQUEST_BODY_SIZE,
            TransportSecurityMiddleware,
        )

        self.app, self.security = app, TransportSecurityMiddleware(security)
        self.max_bytes = DEFAULT_MAX_REQUEST_BODY_SIZE

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        from starlette.requests import Request
        from starlette.responses import Response

        if scope["type"] != "http" or scope["method"] != "POST" \
                or await self._not_read(Request(scope)):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size, more, last = 0, True, None
        while more and size <= self.max_bytes:
            message = await receive()
            if message["type"] != "http.request":  # the client went away
                last = message
                break
            chunks.append(message.get("body", b""))
            size += len(chunks[-1])
            more = message.get("more_body", False)
        body = b"".join(chunks)
        if last is None and not more:
            # a large body is read in a worker thread: in the event loop, 4 MiB of tiny
            # lists held every other client for seconds
            refusal = await anyio.to_thread.run_sync(_body_refusal, body) \
                if len(body) > IN_LOOP_BYTES else _body_refusal(body)
            if refusal is not None:
                log.info("MCP message refused: %s", refusal.said)
                status = 202 if refusal.answer is None else 200 \
                    if "result" in refusal.answer else 400
                await Response(None if refusal.answer is None else json.dumps(
                    refusal.answer).encode(), status_code=status,
                    media_type="application/json")(scope, receive, send)
                return
        held: list[Any] = [{"type": "http.request", "body": body, "more_body": more}]
        held += [last] if last is not None else []

        async def replay() -> Any:
            return held.pop(0) if held else await receive()

        await self.app(scope, replay, send)

    async def _not_read(self, request: Any) -> bool:
        """The SDK refuses it before reading its body, or it is larger than it reads."""
        length = request.headers.get("content-length", "")
        return await self.security.validate_request(request, is_post=True) is not None \
            or "application/json" not in request.headers.get("accept", "") \
            or (length.isdigit() and int(length) > self.max_bytes)


class _NoEventStream:
    """Plain ASGI: ``GET`` on the MCP path is answered 405 in JSON-RPC's error shape.

    A GET opens the event stream of a streamable-HTTP session; this server is
    stateless and never sends on one, but the SDK held each GET open (and with it a
    request slot, given back only with the last body chunk): 20 GETs from one key
    that read nothing left every other client a 503 for as long as they stayed open.
    The transport's spec lets a server without a stream answer 405."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] == "GET":
            from starlette.exceptions import HTTPException as StarletteHTTPException

            from .limits import send_jsonrpc_error

            await send_jsonrpc_error(send, StarletteHTTPException(
                405, "this MCP server is stateless and opens no event stream: send "
                "JSON-RPC requests with POST", headers={"Allow": "POST"}))
            return
        await self.app(scope, receive, send)


def http_app(server: MCPServer[Memory], *, host: str, port: int,
             keys: KeyTable | None = None, allowed_hosts: Sequence[str] = (),
             allow_open: bool = False, limits: ClientLimits | None = None,
             session: str | None = None, platform: str | None = None) -> ASGIApp:
    """The streamable-HTTP ASGI app of ``server`` (at :data:`HTTP_PATH`), with the
    DNS-rebinding protection of :func:`transport_security`, the body deadlines and the
    request slots of ``limits`` (:class:`~chatmem.server.limits.BodyDeadline`,
    :class:`~chatmem.server.limits.Slotted`) and, with ``keys``, a bearer
    key on every request. Without keys only a loopback ``host`` is allowed. ``session``:
    the served conversation, which a user key bound to sessions must be bound to;
    ``platform``: the served platform, which a user key bound to one must name."""
    from starlette.exceptions import HTTPException as StarletteHTTPException
    from starlette.requests import Request
    from starlette.responses import Response

    from .http import check_bind
    from .limits import BodyDeadline, ClientTooSlow, NoFreeSlot, Slotted, jsonrpc_error_response

    check_bind(host, keys, allow_open=allow_open)
    # Stateless: the tools keep no state between calls (each acts for the bound
    # conversation), and a stateful server keeps every initialized session for 30 idle
    # minutes up to 10,000 of them: one client that initialized 10,000 (34 s measured)
    # held 480 MB and turned every other client away with "Too many open sessions".
    security = transport_security(host, port, allowed_hosts)
    sdk_app = server.streamable_http_app(
        streamable_http_path=HTTP_PATH, host=host, stateless_http=True,
        transport_security=security)

    async def jsonrpc_error(request: Request, exc: Exception) -> Response:
        # raised while the SDK reads the body (a late body, no slot free): its own
        # handler would answer in plain text, which an MCP client cannot read
        assert isinstance(exc, StarletteHTTPException)
        return jsonrpc_error_response(exc)

    for limit_error in (ClientTooSlow, NoFreeSlot):
        sdk_app.add_exception_handler(limit_error, jsonrpc_error)
    app: ASGIApp = _JsonRpcErrorBodies(_ReadAsChatmem(sdk_app, security))
    limits = limits or ClientLimits()
    app = _NoEventStream(BodyDeadline(Slotted(app, limits), limits))
    return _RequireKey(app, keys, session, platform) if keys is not None else app


def store_url(url: str, keys: KeyTable | None) -> str:
    """The one store an MCP server serves: ``{namespace}`` is filled with the keys'
    namespace (``default`` without keys); keys of several namespaces are refused."""
    from .http import DEFAULT_NAMESPACE

    if keys is None:
        return url.replace("{namespace}", DEFAULT_NAMESPACE)
    namespaces = sorted(keys.namespaces)
    if len(namespaces) > 1:
        raise ConfigError("an MCP server serves one store, but the keys map to the namespaces "
                          f"{', '.join(namespaces)}: run one chatmem mcp per namespace, each "
                          "with a keys file of that namespace only")
    return url.replace("{namespace}", namespaces[0])


#: The longest line the stdio transport reads (without its line end): the HTTP door's
#: body limit (the SDK's); a longer one is refused, its rest dropped unread
MAX_LINE_BYTES = DEFAULT_MAX_REQUEST_BODY_SIZE
#: how much of a longer line is kept to read its id from (:func:`_leading_id`)
LINE_HEAD_BYTES = 4096
#: JSON-RPC's code for a request refused unread (as the HTTP door's 413)
INVALID_REQUEST = -32600
_WS = r"[ \t\n\r]*"
#: a JSON object's start up to its key "id" and that key's value (a string without
#: escapes or an integer: group 1), after keys whose values are such strings, numbers,
#: true, false or null
_LEADING_ID = re.compile(
    rf'{_WS}\{{(?:{_WS}"[^"\\]*"{_WS}:{_WS}(?:"[^"\\]*"|[-+.0-9eE]+|true|false|null){_WS},)*?'
    rf'{_WS}"id"{_WS}:{_WS}("[^"\\]*"|-?[0-9]{{1,100}}){_WS}[,}}]')


def _leading_id(head: bytes) -> str | int | None:
    """The id of the request whose line begins with ``head``, when the top-level
    object's first keys give it (read without the rest of the line), else ``None``."""
    found = _LEADING_ID.match(head.decode("utf-8", "replace"))
    return None if found is None else json.loads(found.group(1))


def _whole_notification(head: bytes) -> bool:
    """Whether ``head`` (a line's start) holds a whole JSON-RPC notification (an object
    with a ``method`` and no ``id``), nothing but white space after it."""
    text = head.decode("utf-8", "replace").strip(" \t\n\r")
    try:
        message, end = json.JSONDecoder().raw_decode(text)
    except (ValueError, RecursionError):
        return False
    return end == len(text) and isinstance(message, dict) and "method" in message \
        and "id" not in message


class StdinLines:
    """The stdio transport's input: the lines of file descriptor 0, read in the event
    loop. The SDK reads stdin in a worker thread, which a stop cannot interrupt: a
    Ctrl-C left ``chatmem mcp`` waiting until the client sent a line or closed stdin.
    :meth:`stop` ends the lines, so the server ends its session and closes the memory.

    At the end of stdin the lines end once every request read was answered
    (:meth:`answered`): the server drops the requests still open when its input ends
    ("Connection closed"), and requests piped in with stdin closed right after
    (``chatmem mcp < requests.jsonl``) must all be answered.

    Two waits, each woken by its own event (and both by a stop): input ready (the event
    loop watches fd 0) and an answer sent (at the end of input). One wait woken by
    either once read fd 0 after an answer and blocked the loop, answer and all, until
    the client's next line. Where the event loop cannot watch a pipe (Windows' loops
    have no ``add_reader``: it raised NotImplementedError and the server never started)
    a daemon thread reads fd 0 and hands each chunk to the loop; a stop then ends the
    lines at once, and the thread, blocked in its read, ends with the process."""

    #: bytes read at a time
    CHUNK = 65536

    def __init__(self, fd: int = 0) -> None:
        self.fd = fd
        self.stopped = False
        #: input read and not yet handed on (a bytearray: each chunk is added in place)
        self._buffer = bytearray()
        #: how much of it holds no line end (searched once: a line of many chunks was
        #: searched from its start for each, and copied whole: 30 s for 64 MB)
        self._searched = 0
        self._eof = False
        #: the start of a line over :data:`MAX_LINE_BYTES` whose rest is being dropped
        self._skipped: bytes | None = None
        #: whether what was dropped of it is blank (JSON's white space) so far
        self._blank = True
        self._readable: asyncio.Future[None] | None = None
        self._answer: asyncio.Future[None] | None = None
        self._requests = 0
        self._answers = 0
        #: the reading thread's chunks (b"" at the end), where the loop cannot watch fd
        self._chunks: asyncio.Queue[bytes] | None = None
        #: that thread (it ends at the end of input)
        self.thread: threading.Thread | None = None
        #: sends the answer to a line :func:`read_refusal` refuses (set by
        #: :func:`run_stdio`); without it every line goes to the SDK as read
        self.refuse: Callable[[dict[str, Any]], Awaitable[None]] | None = None

    def stop(self) -> None:
        self.stopped = True
        self._wake(self._readable)
        self._wake(self._answer)

    def answered(self) -> None:
        self._answers += 1
        self._wake(self._answer)

    @staticmethod
    def _wake(waiting: asyncio.Future[None] | None) -> None:
        if waiting is not None and not waiting.done():
            waiting.set_result(None)

    def __aiter__(self) -> StdinLines:
        return self

    async def __anext__(self) -> str:
        while not self.stopped:
            end = self._buffer.find(b"\n", self._searched) + 1
            self._searched = len(self._buffer)
            if self._skipped is not None \
                    or (end - 1 if end else len(self._buffer)) > MAX_LINE_BYTES:
                # a line over the HTTP door's body limit: its start kept (to read its id
                # from), the rest dropped as it comes (read whole, a 64 MB line took
                # 64 MB and more of the server)
                start = 0
                if self._skipped is None:
                    self._skipped = bytes(self._buffer[:LINE_HEAD_BYTES])
                    self._blank, start = True, LINE_HEAD_BYTES
                if self._blank:  # whether the line past its start is all blank so far
                    self._blank = not self._buffer[start:end - 1 if end else None
                                                   ].strip(b" \t\r\n")
                if end or self._eof:
                    self._drop(end or len(self._buffer))
                    head, self._skipped = self._skipped, None
                    await self._refuse_long(head, self._blank)
                    continue
                self._drop(len(self._buffer))
            elif end or (self._eof and self._buffer):
                end = end or len(self._buffer)
                text = self._buffer[:end].decode("utf-8", "replace")
                self._drop(end)
                message, refusal = _read(text) if text.strip() else (None, None)
                if refusal is not None and self.refuse is not None:
                    # not handed to the SDK, nor counted (its answer is not either)
                    log.info("MCP message refused: %s", refusal.said)
                    if refusal.answer is not None:
                        await self.refuse(refusal.answer)
                    continue
                # the SDK answers what it cannot parse with no id to wait for (a line
                # nested past Python's parser once ended the server here)
                if isinstance(message, dict) and "method" in message and "id" in message:
                    self._requests += 1
                return text
            elif self._eof:
                if self._answers >= self._requests:
                    break
                await self._wait_answer()
                continue
            chunk = await self._read()
            self._eof = not chunk and not self.stopped
            self._buffer += chunk
        raise StopAsyncIteration

    def _drop(self, count: int) -> None:
        """Remove the buffer's first ``count`` bytes (handed on or dropped); what stays
        is searched for a line end anew."""
        del self._buffer[:count]
        self._searched = 0

    async def _refuse_long(self, head: bytes, blank: bool = False) -> None:
        """Answer a line over :data:`MAX_LINE_BYTES` (``head``: its start; ``blank``: the
        rest is white space) as the HTTP door answers a body over its limit, naming the
        request's id when its start gives it (:func:`_leading_id`), else ``null``: its
        id, which may follow the long part, could not be read (JSON-RPC 2.0 § 5). A line
        whose start holds a whole notification, white space after it, is one: logged,
        never answered (§ 4.1)."""
        said = f"request line over {MAX_LINE_BYTES} bytes; send a smaller request"
        if blank and _whole_notification(head):
            log.info("MCP notification refused, unanswered: %s", said)
            return
        log.info("MCP message refused: %s", said)
        if self.refuse is not None:
            await self.refuse({"jsonrpc": "2.0", "id": _leading_id(head),
                               "error": {"code": INVALID_REQUEST, "message": said}})

    async def _wait_answer(self) -> None:
        """Until the next answer is sent, or a stop."""
        self._answer = asyncio.get_running_loop().create_future()
        try:
            await self._answer
        finally:
            self._answer = None

    async def _read(self) -> bytes:
        """The next chunk of input; b"" at its end or on a stop."""
        if self._chunks is not None:
            return await self._from_thread()
        loop = asyncio.get_running_loop()
        self._readable = loop.create_future()
        try:
            loop.add_reader(self.fd, self._wake, self._readable)
        except NotImplementedError:  # Windows' event loops
            self._readable = None
            self._start_thread(loop)
            return await self._from_thread()
        except (OSError, ValueError):
            # a regular file (chatmem mcp < requests.jsonl) cannot be watched, and its
            # reads never wait for long
            self._readable = None
            return os.read(self.fd, self.CHUNK)
        try:
            await self._readable
        finally:
            self._readable = None
            loop.remove_reader(self.fd)
        # ready means a line or the end of input: this read does not block
        return b"" if self.stopped else os.read(self.fd, self.CHUNK)

    def _start_thread(self, loop: asyncio.AbstractEventLoop) -> None:
        chunks: asyncio.Queue[bytes] = asyncio.Queue()
        self._chunks = chunks

        def pump() -> None:
            chunk = b"x"
            while chunk:
                try:
                    chunk = os.read(self.fd, self.CHUNK)
                except OSError:
                    chunk = b""
                try:
                    loop.call_soon_threadsafe(chunks.put_nowait, chunk)
                except RuntimeError:  # the loop closed: the server has ended
                    return

        self.thread = threading.Thread(target=pump, name="chatmem-mcp-stdin", daemon=True)
        self.thread.start()

    async def _from_thread(self) -> bytes:
        assert self._chunks is not None
        if self._chunks.empty():
            stopping: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._readable = stopping  # a stop wakes it
            waiter = asyncio.ensure_future(self._chunks.get())
            either: list[asyncio.Future[Any]] = [waiter, stopping]
            try:
                await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            finally:
                self._readable = None
                if not waiter.done():
                    waiter.cancel()
            if not waiter.done() or waiter.cancelled():
                return b""  # a stop
            chunk = waiter.result()
        else:
            chunk = self._chunks.get_nowait()
        return b"" if self.stopped else chunk


class _AnswersCounted:
    """The stdio transport's output stream, telling ``stdin`` of each answer sent."""

    def __init__(self, stream: Any, stdin: StdinLines) -> None:
        self.stream, self.stdin = stream, stdin

    async def send(self, message: Any) -> None:
        from mcp.types import JSONRPCError, JSONRPCResponse

        await self.stream.send(message)
        if isinstance(message.message, JSONRPCResponse | JSONRPCError):
            self.stdin.answered()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.stream, name)

    async def __aenter__(self) -> _AnswersCounted:
        await self.stream.__aenter__()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stream.__aexit__(*exc)


async def run_stdio(server: MCPServer[Memory], stdin: StdinLines) -> None:
    """``server.run_stdio_async()``, reading ``stdin`` (which a stop ends)."""
    from mcp.server.stdio import stdio_server

    # the SDK only iterates its stdin's lines
    async with stdio_server(stdin=stdin) as (read_stream, write_stream):  # type: ignore[arg-type]
        from mcp.shared.message import SessionMessage
        from mcp.types import jsonrpc_message_adapter

        async def refuse(answer: dict[str, Any]) -> None:
            await write_stream.send(SessionMessage(
                jsonrpc_message_adapter.validate_python(answer, by_name=False)))

        stdin.refuse = refuse
        lowlevel = server._lowlevel_server
        await lowlevel.run(read_stream, _AnswersCounted(write_stream, stdin),
                           lowlevel.create_initialization_options())


def run(*, url: str, vector: str | None = None, config: Config | None = None,
        transport: str = "stdio", host: str = "127.0.0.1", port: int = 8766,
        session: str = "mcp", platform: str | None = None,
        speaker_id: str | None = None, keys: KeyTable | None = None,
        allowed_hosts: Sequence[str] = (), allow_open: bool = False,
        env: Mapping[str, str] | None = None, limits: ClientLimits | None = None) -> None:
    """Serve until stopped: ``stdio``, or ``http`` (streamable HTTP at ``host:port/mcp``,
    behind ``keys`` and the allowed hosts; see :func:`http_app`).

    The memory is opened first, in the serving event loop, so a store or configuration
    error is raised here as a :class:`ChatmemError` (not buried in a transport's task
    group); the server's lifespan then takes it over and closes it at shutdown. ``env``
    is where the embedding provider's API key is looked up when the configuration has
    none (``chatmem mcp`` passes ``os.environ``). ``limits``: the HTTP transport's limits
    on its clients (:class:`~chatmem.server.limits.ClientLimits`)."""
    if transport not in ("stdio", "http"):
        raise InvalidInput(f"transport must be one of stdio, http, got {describe(transport)}")
    url = store_url(url, keys)
    vector = store_url(vector, keys) if vector else None
    if transport == "http":  # refuse a bad bind before opening anything
        from .http import check_bind, host_port

        check_bind(host, keys, allow_open=allow_open)
        transport_security(host, port, allowed_hosts)

    stdin = StdinLines()
    serving_http: list[Any] = []

    def stop() -> None:
        # stdio: as if the client closed stdin; HTTP: uvicorn's own graceful stop (open
        # requests answered, then the lifespan closes the memory). A stop before the
        # server runs ends it as soon as it starts, after the memory is opened.
        stdin.stop()
        for server in serving_http:
            server.should_exit = True

    # stdio: the open calls cancelled (the lifespan's close is shielded); HTTP: uvicorn
    # stops waiting for them
    serving_stdio: list[anyio.CancelScope] = []

    def hurry() -> None:
        for scope in serving_stdio:
            scope.cancel()
        for server in serving_http:
            server.should_exit = server.force_exit = True

    async def serve() -> None:
        with stop_signals(stop, hurry):
            await serving()

    opened: list[Memory] = []

    async def open_memory() -> Memory:
        # the one opened below, once; a later lifespan (if any) opens its own
        return opened.pop() if opened else await Memory.open(url, vector=vector,
                                                             config=config, env=env)

    async def serving() -> None:
        # the caller (a bad --session) is refused before the store is opened: once it
        # was refused after, and the store stayed open, its file locked, in the process
        server = create_server(open_memory, session=session, platform=platform,
                               speaker_id=speaker_id)
        sockets: list[Any] = []
        if transport == "http":
            # the port is taken (listening) before the store is opened, and made when
            # missing: a port in use is refused with nothing made, and none can take it
            # in between
            from . import listen

            sockets = listen(host, port, (limits or ClientLimits()).backlog())
        try:
            await serve_opened(server, sockets)
        finally:
            for sock in sockets:
                sock.close()

    async def serve_opened(server: MCPServer[Memory], sockets: list[Any]) -> None:
        first = await Memory.open(url, vector=vector, config=config, env=env)
        opened.append(first)
        try:
            if transport == "stdio":
                serving_stdio.append(anyio.CancelScope())
                with serving_stdio[0]:
                    await run_stdio(server, stdin)
            else:
                import uvicorn

                from . import listening_port
                from .limits import protocol_class

                client_limits = limits or ClientLimits()
                bound = listening_port(sockets)  # --port 0: the one the system picked
                app = http_app(server, host=host, port=bound, keys=keys,
                               allowed_hosts=allowed_hosts, allow_open=allow_open,
                               limits=client_limits, session=session, platform=platform)
                log.info("MCP server on http://%s%s (%s)", host_port(host, bound), HTTP_PATH,
                         "API keys required" if keys is not None else "open, loopback only")
                serving_http.append(uvicorn_server(uvicorn.Config(
                    app, host=host, port=bound, log_level="info",
                    http=protocol_class(client_limits, jsonrpc=True),
                    backlog=client_limits.backlog())))
                if stdin.stopped:  # stopped while the memory opened
                    serving_http[0].should_exit = True
                await serving_http[0].serve(sockets=sockets)
                if not serving_http[0].started:
                    # as uvicorn.run: the command names --host and --port (cli.listening)
                    sys.exit(UVICORN_STARTUP_FAILURE)
        finally:
            with anyio.CancelScope(shield=True):
                await first.close()  # a no-op when the lifespan closed it

    anyio.run(serve)
