"""chatmem for the OpenAI Agents SDK (chatmem's ``openai-agents`` extra).

* :class:`ChatmemSession` is an Agents SDK ``Session`` (pass it as
  ``Runner.run(agent, input, session=...)``) that keeps the conversation in a chatmem
  session: every run item becomes one stored message. User and assistant words are
  embedded, so later recalls find them; system prompts, function calls, their outputs
  and other items (reasoning, built-in tool calls) are stored and never embedded.
  Each message keeps the raw item in ``metadata["openai_agents_item"]``, and
  :meth:`~ChatmemSession.get_items` gives it back as it came.
* :func:`memory_recall_tool` is chatmem's ``memory_recall`` tool as a ``FunctionTool``:
  the model may only narrow what the session may see (:meth:`Memory.call_tool`).
* :func:`instructions_with_memory` makes dynamic instructions
  (``Agent(instructions=...)``) that append what chatmem recalls for the latest user
  input, as :meth:`Memory.context` does for a chat-completions loop.
"""

from __future__ import annotations

import builtins
import inspect
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..chat_format import TOOL_CALL_SOURCE
from ..errors import InvalidInput, RecallUnavailable
from ..extras import install_hint
from ..models import MAX_CONTENT_CHARS, MAX_LABEL_CHARS, Message, Role, check_json, check_text
from ..refusals import checked_number, describe
from ..tool import TOOL_NAME, Caller

try:
    from agents import FunctionTool, RunContextWrapper
except ImportError as exc:  # pragma: no cover - exercised without the extra installed
    raise ImportError(
        "chatmem.integrations.openai_agents needs the OpenAI Agents SDK (the openai-agents "
        f"package): {install_hint('openai-agents')}") from exc

if TYPE_CHECKING:
    from agents import Agent

    from ..memory import Memory

__all__ = ["ITEM_KEY", "ChatmemSession", "instructions_with_memory", "item_to_message",
           "memory_recall_tool", "message_to_item"]

#: The metadata key holding the raw Agents SDK item of a stored message.
ITEM_KEY = "openai_agents_item"
#: The metadata key saying where the item's text was taken out of ``ITEM_KEY`` (it is
#: the message's content): an item too large to keep whole in the metadata.
TEXT_KEY = "openai_agents_text"
#: Where an item's one text may be: a message's string content, its one text part, a
#: tool call's string output, a function call's arguments.
_TEXT_SPOTS: tuple[tuple[str | int, ...], ...] = (("content",), ("content", 0, "text"),
                                                  ("output",), ("arguments",))
#: Longest page read from the store at once.
_PAGE = 1000
#: How many items a run may have added to the session since its input, at most, for
#: :func:`instructions_with_memory` to leave out of its recall.
_RUN_ITEMS = 64
#: Message roles of the Responses input format and the chatmem role each is stored as.
_ROLES: Mapping[str, Role] = {"user": "user", "assistant": "assistant", "system": "system",
                             "developer": "system"}
_TEXT_PARTS = {"input_text": "text", "output_text": "text", "text": "text",
               "refusal": "refusal", "summary_text": "text", "reasoning_text": "text"}
_ATTACHMENTS = {"input_image": "image", "input_file": "file", "input_audio": "audio"}


def _mapping(item: object, path: str) -> Mapping[str, Any]:
    """An item (a TypedDict, or a pydantic object of the openai SDK) as a mapping."""
    dump = getattr(item, "model_dump", None)
    if not isinstance(item, Mapping) and callable(dump):
        item = dump(exclude_unset=True, mode="json")
    if not isinstance(item, Mapping):
        raise InvalidInput(f"{path} must be an Agents SDK input item (a mapping), got "
                           f"{describe(item)}")
    return item


def _plain(item: object, path: str, *, checked: bool = True) -> dict[str, Any]:
    """An item as JSON data (``checked``: also as chatmem stores it in metadata)."""
    item = _mapping(item, path)
    if checked:
        check_json(item, path)  # names the part: too deep, not finite, not JSON, NUL…
    try:
        data = json.loads(json.dumps(item, ensure_ascii=False))
    except (TypeError, ValueError) as exc:
        raise InvalidInput(f"{path} is not JSON data: {exc}") from None
    assert isinstance(data, dict)
    return data


def _text_spot(item: Mapping[str, Any]) -> tuple[str | int, ...] | None:
    """Where the item's one text is (one of ``_TEXT_SPOTS``), if it has one that is
    stored unchanged as the message's content."""
    kind = item.get("type")
    if kind in (None, "message") and item.get("role") in _ROLES:
        content = item.get("content")
        if isinstance(content, str):
            spot: tuple[str | int, ...] = ("content",)
        elif isinstance(content, (list, tuple)) and len(content) == 1 \
                and isinstance(content[0], Mapping) \
                and _TEXT_PARTS.get(str(content[0].get("type"))) == "text":
            spot = ("content", 0, "text")
        else:
            return None
    elif isinstance(kind, str) and kind.endswith("_call_output"):
        spot = ("output",)
    elif kind == "function_call":
        spot = ("arguments",)  # an agent writing a file through a tool
    else:
        return None
    text = _at(item, spot)
    return spot if isinstance(text, str) and text.strip() else None


def _at(item: Mapping[str, Any], spot: Sequence[str | int]) -> object:
    value: Any = item
    for step in spot:
        value = value[step]
    return value


def _with_text(item: Mapping[str, Any], spot: Sequence[str | int], text: str
               ) -> dict[str, Any]:
    """A copy of ``item`` with ``text`` at ``spot`` (the item itself is not changed)."""
    if len(spot) == 1:
        return {**item, str(spot[0]): text}
    first = item[str(spot[0])]
    return {**item, str(spot[0]): [{**first[0], "text": text}, *first[1:]]}


def _kept_item(data: Mapping[str, Any], path: str
               ) -> tuple[dict[str, Any], tuple[str | int, ...] | None]:
    """The raw item as kept in the metadata, and where its text was taken out (``None``:
    kept whole). An item whose JSON is too large for the metadata (a pasted document, a
    long tool output) keeps its text only as the message's content, so that storing it
    does not fail the run; it reads back whole (:func:`message_to_item`)."""
    try:
        return _plain(data, path), None
    except InvalidInput:
        spot = _text_spot(data)
        if spot is None:
            raise
        where = path + "".join(f"[{s}]" if isinstance(s, int) else f".{s}" for s in spot)
        check_text(_at(data, spot), where, max_chars=MAX_CONTENT_CHARS)
        return _plain(_with_text(data, spot, ""), path), spot


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _part_text(part: object) -> str:
    """The text of one content part; an attachment's short description."""
    if isinstance(part, str):
        return part
    if not isinstance(part, Mapping):
        return ""
    kind = part.get("type")
    if kind in _TEXT_PARTS:
        value = part.get(_TEXT_PARTS[kind])
        return value if isinstance(value, str) else ""
    if kind in _ATTACHMENTS:
        label = next((part[k] for k in ("filename", "file_id", "image_url", "file_url")
                      if isinstance(part.get(k), str) and not part[k].startswith("data:")),
                     "")
        label = label.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1]
        word = _ATTACHMENTS[kind]
        return f"[{word}: {_cut(label, 80)}]" if label else f"[{word}]"
    return f"[{kind}]" if isinstance(kind, str) else ""


def _text(content: object) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, (list, tuple)):
        return "\n".join(t for t in (_part_text(p) for p in content) if t)
    return ""


def _check_memory(value: object, where: str) -> None:
    """InvalidInput unless ``value`` is the async :class:`~chatmem.Memory` the Agents
    SDK awaits (a SyncMemory's is its ``.memory``)."""
    from ..memory import Memory, SyncMemory  # at run time: the memory imports much more

    if not isinstance(value, Memory):
        hint = " (pass its .memory)" if isinstance(value, SyncMemory) else ""
        raise InvalidInput(f"{where}(memory, …): memory must be a chatmem Memory{hint}, "
                           f"got {describe(value)}")


def item_to_message(item: object, *, session: str, platform: str | None = None,
                    speaker_id: str | None = None, path: str = "items[0]") -> Message:
    """One Agents SDK run item (Responses input format) as a chatmem message, the raw
    item kept in ``metadata["openai_agents_item"]``.

    User and assistant messages keep their role and text (content parts joined, images
    and files described); ``developer`` and ``system`` messages are stored as system;
    a ``function_call`` is an assistant message with ``source="tool_call"``, a
    ``*_call_output`` a ``tool`` message with the output, any other item (reasoning,
    built-in tool calls) a ``tool`` message whose source is the item type. Only the
    user and assistant words are embedded."""
    data = _mapping(item, path)
    kept, spot = _kept_item(data, path)
    metadata: dict[str, Any] = {ITEM_KEY: kept}
    raw = kept
    if spot is not None:
        metadata[TEXT_KEY] = list(spot)
        raw = _with_text(kept, spot, str(_at(data, spot)))
    kind = raw.get("type")
    role = raw.get("role")
    source: str | None = None
    stored_role: Role
    if kind in (None, "message") and isinstance(role, str) and role in _ROLES:
        stored_role = _ROLES[role]
        text = _text(raw.get("content"))
        if not text.strip():
            text, source = "[no text]", "openai_agents"
    elif kind == "function_call":
        stored_role, source = "assistant", TOOL_CALL_SOURCE
        args = raw.get("arguments")
        # taken out of the item, the arguments are the content as they are (it is what
        # gives them back): the description would not hold them
        text = (str(args) if spot is not None else
                f"[tool call: {_cut(str(raw.get('name') or 'tool'), 80)}"
                f"({_cut(args if isinstance(args, str) else '', 200)})]")
    elif isinstance(kind, str) and kind.endswith("_call_output"):
        stored_role = "tool"
        output = raw.get("output")
        text = _text(output) if not isinstance(output, Mapping) else json.dumps(output)
        text = text if text.strip() else "[no output]"
    elif isinstance(kind, str):
        stored_role, source = "tool", _cut(kind, MAX_LABEL_CHARS)
        summary = _text(raw.get("summary")) or _text(raw.get("content"))
        text = f"[{kind}] {summary}" if summary.strip() else f"[{kind}]"
    else:
        # the keys as JSON, as every refusal shows a value (it said ['colour', 'role'])
        raise InvalidInput(f"{path}: expected a message (role) or an item with a type, got "
                           f"keys {describe(sorted(raw))}")
    return Message(
        session_id=session, content=_cut(text, MAX_CONTENT_CHARS), role=stored_role,
        source=source, platform=platform,
        speaker_id=speaker_id if stored_role == "user" else None,
        metadata=metadata)


def message_to_item(message: Message) -> dict[str, Any] | None:
    """The Agents SDK item of a stored message: the raw item it came from, or (for a
    message stored otherwise) a plain user, assistant or system message; ``None`` for
    other messages."""
    raw = message.metadata.get(ITEM_KEY)
    if isinstance(raw, Mapping):
        spot = message.metadata.get(TEXT_KEY)
        if isinstance(spot, list) and tuple(spot) in _TEXT_SPOTS:
            return _with_text(raw, spot, message.content)  # kept as the content only
        return dict(raw)
    if message.role in ("user", "assistant", "system"):
        return {"role": message.role, "content": message.shown_text}
    return None


class ChatmemSession:
    """An Agents SDK ``Session`` kept in a chatmem session (``Runner.run(..., session=)``).

    ``memory`` is an open :class:`~chatmem.Memory`; ``session_id`` the chatmem session
    (the conversation); ``platform`` and ``speaker_id`` (of the user) label what is
    stored; ``session_settings`` is the SDK's ``SessionSettings``. Messages of the
    session stored by other means (``Memory.add``) are part of
    the history too, as plain messages."""

    session_settings: Any = None

    def __init__(self, memory: Memory, session_id: str, *, platform: str | None = None,
                 speaker_id: str | None = None, session_settings: Any = None) -> None:
        _check_memory(memory, "ChatmemSession")
        check_text(session_id, "session_id", required=True, max_chars=MAX_LABEL_CHARS)
        check_text(platform, "platform", max_chars=MAX_LABEL_CHARS)
        check_text(speaker_id, "speaker_id", max_chars=MAX_LABEL_CHARS)
        self.memory = memory
        self.session_id = session_id
        self.platform = platform
        self.speaker_id = speaker_id
        #: The SDK's ``SessionSettings`` (``limit``: how many latest items a run gets).
        self.session_settings = session_settings

    async def _messages(self) -> builtins.list[Message]:
        """Every stored message of the session, oldest first."""
        return [m async for m in self._listed(newest_first=False)]

    async def _listed(self, *, newest_first: bool = True, page_size: int = _PAGE
                      ) -> AsyncIterator[Message]:
        """The session's stored messages, the latest first (or the oldest), read a page
        at a time (the latest items of a long history without reading all of it)."""
        cursor: str | None = None
        while True:
            page = await self.memory.list(session=self.session_id, limit=page_size,
                                          cursor=cursor, newest_first=newest_first)
            for message in page.messages:
                yield message
            cursor = page.next_cursor
            if cursor is None:
                return

    def _settings_limit(self) -> object:
        """``session_settings.limit`` (a ``SessionSettings`` or a mapping), as the SDK's
        own sessions read it when ``get_items`` is given no ``limit``."""
        settings = self.session_settings
        if isinstance(settings, Mapping):
            return settings.get("limit")
        return getattr(settings, "limit", None)

    async def get_items(self, limit: int | None = None) -> builtins.list[Any]:
        """The conversation's items, oldest first; with ``limit`` (or, without it,
        ``session_settings.limit``), the latest ``limit``, read from the latest back."""
        wanted = self._settings_limit() if limit is None else limit
        if wanted is None:
            return [i for i in map(message_to_item, await self._messages()) if i is not None]
        wanted = int(checked_number(
            InvalidInput, "limit" if limit is not None else "session_settings.limit",
            wanted, integer=True, least=0))
        items: builtins.list[Any] = []
        if wanted:
            async for message in self._listed(page_size=min(wanted, _PAGE)):
                item = message_to_item(message)
                if item is not None:
                    items.append(item)
                    if len(items) == wanted:
                        break
        return items[::-1]

    async def add_items(self, items: Sequence[Any]) -> None:
        """Store the items, in order (committed before this returns; indexed in the
        background)."""
        if isinstance(items, (str, bytes, Mapping)) or not isinstance(items, Iterable):
            hint = " (one item? pass [item])" if isinstance(items, Mapping) else ""
            raise InvalidInput(f"items must be a list of Agents SDK input items, got "
                               f"{describe(items)}{hint}")
        batch = [item_to_message(item, session=self.session_id, platform=self.platform,
                                 speaker_id=self.speaker_id, path=f"items[{i}]")
                 for i, item in enumerate(items)]
        if batch:
            await self.memory.add(batch)

    async def pop_item(self) -> Any | None:
        """Erase the latest item (everywhere, as :meth:`Memory.delete`) and return it.
        Pops at once (in this process or another) each take their own item: one whose
        message another erased first is passed over for the one before it."""
        async for message in self._listed(page_size=8):
            item = message_to_item(message)
            if item is not None and message.id is not None \
                    and await self.memory.delete([message.id]):
                return item
        return None

    async def clear_session(self) -> None:
        """Erase the whole session (:meth:`Memory.forget`)."""
        await self.memory.forget(session=self.session_id)


def _recall_text(result: Mapping[str, Any]) -> str:
    text = result.get("text")
    if not isinstance(text, str) or not text:
        return json.dumps(result, ensure_ascii=False)
    note = result.get("note")
    return f"{text}\n\n(Note: {note}.)" if note else text


def memory_recall_tool(memory: Memory, session_id: str, *, platform: str | None = None,
                       speaker_id: str | None = None, strict: bool = True) -> FunctionTool:
    """chatmem's ``memory_recall`` tool for an ``Agent(tools=[...])``, bound to one
    conversation. The model's arguments are untrusted: they may only narrow what
    ``session_id`` may see (a wider scope is clamped and the answer says so). A bad
    argument comes back to the model as an error text, not an exception.

    ``strict`` (default true, as the SDK's own ``FunctionTool`` and ``function_tool``
    are): the tool is in strict mode (``strict_json_schema``), with the schema of
    ``Memory.tool_schema(strict=True)`` (every argument required, ``null`` for one left
    out), which the SDK's strict check leaves as it is. ``strict=False``: the default
    schema (optional arguments left out), not in strict mode, for a model or server
    that does not take strict function calling."""
    _check_memory(memory, "memory_recall_tool")
    caller = Caller.of({"session_id": session_id, "speaker_id": speaker_id,
                        "platform": platform})
    fn = memory.tool_schema(strict=strict)["function"]

    async def invoke(_context: Any, arguments: str) -> str:
        try:
            result = await memory.call_tool(arguments or "{}", caller)
        except InvalidInput as exc:
            return f"{TOOL_NAME} error: {exc}"
        return _recall_text(result)

    return FunctionTool(name=TOOL_NAME, description=fn["description"],
                        params_json_schema=fn["parameters"], on_invoke_tool=invoke,
                        strict_json_schema=strict)


Instructions = str | Callable[[Any, Any], "str | Awaitable[str]"] | None


def _query_text(text: str) -> str:
    """A user's words as a recall query. A user may send anything (a pasted document, a
    NUL, half a surrogate pair), and a turn must not fail because of it: the latest
    ``MAX_CONTENT_CHARS`` characters (the query reads only the latest words anyway),
    with NUL and lone surrogates replaced."""
    text = text[-MAX_CONTENT_CHARS:].replace("\x00", " ")
    return text.encode("utf-8", "replace").decode("utf-8")


def _latest_user_text(items: Sequence[Any]) -> str:
    for item in reversed(items):
        if isinstance(item, str):
            return item
        data = item if isinstance(item, Mapping) else None
        if data is None and callable(getattr(item, "model_dump", None)):
            data = item.model_dump()
        if isinstance(data, Mapping) and data.get("role") == "user" \
                and data.get("type") in (None, "message"):
            text = _text(data.get("content"))
            if text.strip():
                return text
    return ""


async def _in_input(memory: Memory, session_id: str, turn_input: Sequence[Any]
                    ) -> builtins.list[Message]:
    """The session's stored messages that the model sees already: from the oldest item
    of the run's input (a ChatmemSession stores the input before the model runs) to the
    latest (items of this run: tool calls and outputs)."""
    if not turn_input:
        return []
    recent = await memory.store.recent(session_id, min(len(turn_input) + _RUN_ITEMS, _PAGE))
    try:
        first = _plain(turn_input[0], "turn_input[0]", checked=False)
    except InvalidInput:
        return recent
    for i, message in enumerate(recent):
        if message_to_item(message) == first:
            return recent[i:]
    return recent


def instructions_with_memory(memory: Memory, session_id: str,
                             base_instructions: Instructions = None, *,
                             platform: str | None = None, speaker_id: str | None = None
                             ) -> Callable[[RunContextWrapper[Any], Agent[Any]], Awaitable[str]]:
    """Dynamic instructions for ``Agent(instructions=...)``: ``base_instructions`` (a
    string, or instructions callable as the SDK takes them) followed by what chatmem
    recalls for the run's latest user input, as :meth:`Memory.context` recalls it.
    The session's messages already in the model's input (from the run's oldest input
    item on) are not recalled again."""
    _check_memory(memory, "instructions_with_memory")
    Caller.of({"session_id": session_id, "speaker_id": speaker_id, "platform": platform})

    async def instructions(context: RunContextWrapper[Any], agent: Agent[Any]) -> str:
        base: object = base_instructions
        if callable(base_instructions):
            base = base_instructions(context, agent)
            if inspect.isawaitable(base):
                base = await base
        base_text = base if isinstance(base, str) else ""
        turn_input = builtins.list(getattr(context, "turn_input", None) or [])
        query = _query_text(_latest_user_text(turn_input))
        if not query:
            return base_text
        shown = await _in_input(memory, session_id, turn_input)
        try:
            turn = await memory.turn_context(
                query, session=session_id, platform=platform,
                speakers=[speaker_id] if speaker_id else [],
                exclude_ids=[m.id for m in shown if m.id])
        except RecallUnavailable:
            return base_text
        recalled = turn.recall.text
        if not recalled:
            return base_text
        return f"{base_text}\n\n{recalled}" if base_text else recalled

    return instructions
