"""chatmem as a LlamaIndex memory block (chatmem's ``llamaindex`` extra).

:class:`ChatmemMemoryBlock` is a long-term block for LlamaIndex's
``llama_index.core.memory.Memory``: the messages that ``Memory`` flushes out of its
short-term queue (``token_limit``) are stored in chatmem (:meth:`chatmem.Memory.add`:
tool calls kept in the metadata, tool messages stored and never embedded; every one of
them, as LlamaIndex has archived them: see :meth:`ChatmemMemoryBlock._aput`), and on every
``get`` the block returns what chatmem recalls for the latest turn, the same text
:meth:`chatmem.Memory.context` puts in its system message. ``Memory`` renders it inside
``<memory><chatmem>…</chatmem></memory>`` in the system message (or the latest user
message, ``insert_method="user"``)::

    from llama_index.core.memory import Memory
    from chatmem import SyncMemory
    from chatmem.integrations.llamaindex import ChatmemMemoryBlock

    mem = SyncMemory.open("sqlite:///chat.db")
    memory = Memory.from_defaults(session_id="s1", token_limit=4000,
                                  memory_blocks=[ChatmemMemoryBlock(mem, "s1")])

``memory`` is a :class:`chatmem.SyncMemory` (works with LlamaIndex's blocking calls,
``memory.get()``, ``chat_engine.chat()``, and its async ones) or a
:class:`chatmem.Memory` (async calls only, ``aget``/``aput``/agents, on the loop that
opened it: LlamaIndex runs each blocking call on a new event loop).
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import sys
from collections.abc import Callable, Coroutine, Mapping, Sequence
from contextvars import ContextVar
from typing import Any, TypeVar

from .._aio import run_to_end
from ..extras import install_hint

try:
    from llama_index.core.base.llms.types import (
        AudioBlock,
        ChatMessage,
        DocumentBlock,
        ImageBlock,
        TextBlock,
        ToolCallBlock,
        VideoBlock,
    )
    from llama_index.core.bridge.pydantic import Field, field_validator
    from llama_index.core.memory.memory import BaseMemoryBlock
    from llama_index.core.utils import get_tokenizer
except ImportError as exc:  # pragma: no cover - depends on the environment
    raise ImportError(
        "chatmem.integrations.llamaindex needs LlamaIndex (llama-index-core>=0.14): "
        f"{install_hint('llamaindex')}; {exc}") from exc

from ..chat_format import TOOL_CALL_SOURCE, to_message
from ..errors import InvalidInput
from ..memory import Memory, SyncMemory
from ..models import (
    MAX_CONTENT_CHARS,
    MAX_JSON_CHARS,
    MAX_JSON_DEPTH,
    MAX_LABEL_CHARS,
    check_label,
    check_text,
    json_cost,
)
from ..recall.last import as_lines
from ..recall.render import LABELS
from ..recall.request import MAX_TURN_INPUTS
from ..refusals import as_given, describe

T = TypeVar("T")

log = logging.getLogger(__name__)

#: LlamaIndex roles stored under another chat-completions role (``developer`` and
#: ``function`` are chatmem's own aliases, see :mod:`chatmem.chat_format`).
ROLES: Mapping[str, str] = {"chatbot": "assistant", "model": "assistant"}
#: ``additional_kwargs`` keys that are chat-completions message fields.
KWARG_FIELDS = ("tool_calls", "tool_call_id", "name", "function_call", "refusal")
#: chatmem metadata key of a message stored cut to ``MAX_CONTENT_CHARS``: its length
#: before (the characters of the content chatmem would have stored).
CONTENT_CUT_KEY = "content_cut"
#: Metadata key of a stored message whose text held characters chatmem cannot store
#: (NUL, a lone surrogate): how many were replaced by U+FFFD (see :func:`_fit`).
CONTENT_REPLACED_KEY = "content_replaced"
#: Metadata key of a stored message whose attachments did not all fit (their
#: descriptions in the content, their records in the metadata): how many it had; the
#: first ones are kept (see :func:`_fit`).
ATTACHMENTS_CUT_KEY = "attachments_cut"
#: Metadata key of a message LlamaIndex flushed that chatmem could not take as given (a
#: field of the wrong type, a ``name`` over 512 characters…): ``{"error": …, "fields":
#: …}``, chatmem's error and, as JSON text, the fields it held (see :func:`_kept`).
UNSTORABLE_KEY = "unstorable"
_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_SURROGATE = re.compile("[\ud800-\udfff]")
#: The message fields whose values chatmem keeps in the metadata, beside the attachments.
_METADATA_FIELDS = ("tool_calls", "function_call", "tool_call_id", "refusal")
#: Room left in the metadata for the keys chatmem and the block add (``content_cut``,
#: ``attachments``, ``openai_role``…) when attachments are fitted to it.
_RESERVED = 500
#: Whether the messages being stored were flushed (archived) by a LlamaIndex ``Memory``.
_FLUSHED: ContextVar[bool] = ContextVar("chatmem_llamaindex_flushed", default=False)


def _plain(value: Any, path: str = "additional_kwargs", depth: int = 1) -> Any:
    """``value`` as JSON-like data (a pydantic tool call from an LLM SDK as its dict);
    nesting deeper than chatmem stores (or a value that holds itself) is refused here,
    naming the path, rather than recursing until Python's stack runs out."""
    if depth > MAX_JSON_DEPTH:
        raise InvalidInput(f"{path}: nested deeper than {MAX_JSON_DEPTH} levels (or refers "
                           "to itself)")
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return _plain(dump(exclude_none=True), path, depth)
    if isinstance(value, Mapping):
        return {str(k): _plain(v, f"{path}.{k}", depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{path}[{i}]", depth + 1) for i, v in enumerate(value)]
    return value


def _tool_call(block: ToolCallBlock, path: str) -> dict[str, Any]:
    args = block.tool_kwargs
    call: dict[str, Any] = {"type": "function", "function": {
        "name": block.tool_name,
        "arguments": args if isinstance(args, str) else json.dumps(
            # the name as JSON, as every refusal shows a value (it said 'lookup')
            _plain(args, f"{path}: tool call {describe(block.tool_name)} arguments"),
            ensure_ascii=False,
            default=str)}}
    if block.tool_call_id:
        call["id"] = block.tool_call_id
    return call


#: The title LlamaIndex gives a DocumentBlock that was given none.
_UNTITLED = DocumentBlock(data=b"").title


def _part(block: Any) -> dict[str, Any] | None:
    """A non-text content block as a chat-completions content part (chatmem stores a
    short description, such as ``[image: cat.png]``), or ``None`` to leave it out."""
    if isinstance(block, ImageBlock):
        if block.url is not None:
            url = str(block.url)
        elif block.path is not None:
            url = str(block.path)
        else:  # inline bytes: only the media type is kept
            url = f"data:{block.image_mimetype or 'image'};base64,"
        return {"type": "image_url", "image_url": {"url": url}}
    if isinstance(block, AudioBlock):
        return {"type": "input_audio",
                "input_audio": {"format": block.format} if block.format else {}}
    if isinstance(block, (DocumentBlock, VideoBlock)):
        # a video too: chat-completions has no part of its own for one, and a message
        # that only shows one is still a turn of the conversation
        where = block.url or block.path
        name = None
        if isinstance(block, DocumentBlock) and block.title != _UNTITLED:
            name = block.title
        if not name and where is not None:
            name = str(where).split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or None
        return {"type": "file", "file": {"filename": name} if name else {}}
    return None  # thinking, citations, cache points: not part of the conversation


def _role(message: ChatMessage) -> str:
    """The chat-completions role of ``message``."""
    role = str(getattr(message.role, "value", message.role))
    return ROLES.get(role, role)


def messages_of(value: object, name: str = "messages") -> list[ChatMessage]:
    """``value`` as a list of ``ChatMessage``; anything else is :class:`InvalidInput`
    naming ``name`` (or the item)."""
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{name} must be a list of llama_index ChatMessage, got "
                           f"{describe(value)}")
    for i, item in enumerate(value):
        if not isinstance(item, ChatMessage):
            raise InvalidInput(f"{name}[{i}] must be a llama_index ChatMessage, got "
                               f"{describe(item)}")
    return list(value)


def to_openai(message: ChatMessage, path: str = "message") -> dict[str, Any] | None:
    """One LlamaIndex ``ChatMessage`` as a chat-completions message for
    :meth:`chatmem.Memory.add`, or ``None`` when it holds nothing to remember.
    ``additional_kwargs`` fields of the wrong type are :class:`InvalidInput` naming
    ``path`` and the field."""
    if not isinstance(message, ChatMessage):
        raise InvalidInput(f"{path} must be a llama_index ChatMessage, got "
                           f"{describe(message)}")
    out: dict[str, Any] = {"role": _role(message)}
    texts: list[str] = []
    parts: list[dict[str, Any]] = []
    calls: list[Any] = []
    for block in message.blocks:
        if isinstance(block, TextBlock):
            if block.text:
                texts.append(block.text)
                parts.append({"type": "text", "text": block.text})
        elif isinstance(block, ToolCallBlock):
            calls.append(_tool_call(block, path))
        else:
            part = _part(block)
            if part is not None:
                parts.append(part)
    kwargs = message.additional_kwargs or {}
    for key in KWARG_FIELDS:
        value = kwargs.get(key)
        if value is None or value == []:
            continue
        where = f"{path}.additional_kwargs.{key}"
        if key == "tool_calls":
            given = _plain(value, where)
            if not isinstance(given, list):
                raise InvalidInput(f"{where} must be a list of tool calls, got "
                                   f"{describe(value)}")
            # an LLM integration may give a call both ways: keep the block's
            seen = {c["id"] for c in calls if "id" in c}
            calls.extend(c for c in given
                         if not (isinstance(c, Mapping) and c.get("id") in seen))
        elif key == "function_call":
            given = _plain(value, where)
            if not isinstance(given, Mapping):
                raise InvalidInput(f"{where} must be an object, got {describe(value)}")
            out[key] = given
        elif isinstance(value, str):
            out[key] = value
        else:
            raise InvalidInput(f"{where} must be a string, got {describe(value)}")
    if calls:
        out["tool_calls"] = calls
    if len(parts) == len(texts):
        content: Any = "\n".join(texts)
    else:
        content = parts
    if not content:
        if not calls and "function_call" not in out and "refusal" not in out:
            if out["role"] != "tool":
                return None  # an empty message: nothing to remember
            content = ""
        else:
            content = None
    out["content"] = content
    return out


def _attachment(part: dict[str, Any], path: str) -> tuple[str, int]:
    """An attachment part's description, as chatmem writes it in the content, and the
    characters its record takes in ``metadata["attachments"]`` (with its comma)."""
    msg = to_message({"role": "user", "content": [part]}, path=path, session="-")
    return msg.content, json_cost(msg.metadata["attachments"][0], path) + 1


def _attachments_kept(item: Mapping[str, Any], attached: Sequence[tuple[str, int]]) -> int:
    """How many of the attachments (``_attachment`` of each, in order) a message keeps:
    all of them when their records fit in the metadata beside the message's other fields
    (tool calls…); else the first ones that do, in at least half of it (tool-call
    arguments are cut to fit the rest, see :func:`chatmem.chat_format.to_message`), their
    descriptions in at most half the content: the text keeps the other half."""
    spent = 2 + sum(cost for _, cost in attached)
    if spent <= MAX_JSON_CHARS // 2:
        return len(attached)  # records are longer than descriptions: both fit
    try:
        rest = json_cost({k: item[k] for k in _METADATA_FIELDS if item.get(k) is not None},
                         "metadata")
    except InvalidInput:
        rest = 0  # refused when the message is checked, naming the field
    budget = max(MAX_JSON_CHARS - _RESERVED - rest, MAX_JSON_CHARS // 2)
    if spent <= budget:
        return len(attached)
    spent, shown = 2, 0
    for kept, (description, cost) in enumerate(attached):
        spent += cost
        shown += len(description) + 1
        if spent > budget or shown > MAX_CONTENT_CHARS // 2:
            return kept
    return len(attached)


def _fit(item: dict[str, Any], path: str, *, query: bool = False) -> dict[str, Any]:
    """``item`` (from :func:`to_openai`) with its text cut to chatmem's content limit
    (``MAX_CONTENT_CHARS``, counted as chatmem counts it: the text parts and the
    attachments' descriptions, one line each). A user may paste a document of any
    length, and neither a ``get`` nor a ``put`` may fail for it:

    - as a recall query (``query``), the last characters are kept: chatmem's query is
      the turn's last ``MAX_QUERY_CHARS`` characters anyway (the latest words, where
      the question after a pasted document is), so the recall is the one chatmem runs
      on a message just within its limit; a NUL or a lone surrogate (which chatmem
      refuses in any text) is replaced too;
    - to be stored, the first characters are kept, ending in ``…``, and the length
      before goes under ``metadata[CONTENT_CUT_KEY]``; a NUL or a lone surrogate (which
      chatmem refuses) is replaced by U+FFFD and counted under
      ``metadata[CONTENT_REPLACED_KEY]``: LlamaIndex has archived the messages it
      flushes before the block stores them, so a refusal could not be retried and
      would lose the whole batch (and fail an unrelated later ``put``).

    So many attachments that their records do not fit in the metadata (or their
    descriptions in the content) are not refused either: the first ones are kept
    (:func:`_attachments_kept`), the rest left out; stored, a last line ``…`` marks it,
    and ``metadata[ATTACHMENTS_CUT_KEY]`` holds how many there were (and
    ``metadata[CONTENT_CUT_KEY]`` the length of the whole content)."""
    content = item.get("content")
    if isinstance(content, str):
        parts: list[dict[str, Any]] = [{"type": "text", "text": content}]
    elif isinstance(content, list):
        parts = content
    else:
        return item
    if query:  # a NUL or a lone surrogate anywhere: in a text, in a document's title
        parts = [_readable(p) for p in parts]
    texts = [p["text"] for p in parts if p["type"] == "text"]
    attached = [_attachment(p, path) for p in parts if p["type"] != "text"]
    kept = _attachments_kept(item, attached)
    dropped = kept < len(attached)
    replaced = 0
    if not query:
        replaced = sum(len(_UNSTORABLE.findall(t)) for t in texts)
        texts = [_UNSTORABLE.sub("\ufffd", t) for t in texts]
    whole = (sum(map(len, texts)) + sum(len(d) for d, _ in attached) + len(texts)
             + len(attached) - 1)
    marker = 2 if dropped and not query else 0  # the line "…" of the left-out attachments
    size = (sum(map(len, texts)) + sum(len(d) for d, _ in attached[:kept]) + len(texts)
            + kept - 1 + marker)
    if size <= MAX_CONTENT_CHARS and not query and not replaced and not dropped:
        return item
    excess = max(size - MAX_CONTENT_CHARS, 0) + (0 if query or size <= MAX_CONTENT_CHARS
                                                 else len("…"))
    for i in range(len(texts)) if query else range(len(texts) - 1, -1, -1):
        if excess <= 0:
            break
        take = min(excess, len(texts[i]))
        if query:
            texts[i] = texts[i][take:]
        else:
            texts[i] = texts[i][:len(texts[i]) - take]
            if take == excess:  # the cut ends here
                texts[i] += "…"
        excess -= take
    cut_texts = iter(texts)
    out_parts: list[dict[str, Any]] = []
    seen = 0
    for p in parts:
        if p["type"] == "text":
            out_parts.append({"type": "text", "text": next(cut_texts)})
        else:
            seen += 1
            if seen <= kept:
                out_parts.append(p)
    if marker:
        out_parts.append({"type": "text", "text": "…"})
    out = {**item, "content": out_parts[0]["text"] if isinstance(content, str) else out_parts}
    if (whole > MAX_CONTENT_CHARS or dropped) and not query:
        out["metadata"] = {CONTENT_CUT_KEY: whole}
        if dropped:
            out["metadata"][ATTACHMENTS_CUT_KEY] = len(attached)
    if replaced:
        out["metadata"] = {**out.get("metadata", {}), CONTENT_REPLACED_KEY: replaced}
    return out


def _readable(value: Any) -> Any:
    """A content part with each NUL (as a space) and lone surrogate (as ``?``) of its
    strings replaced: chatmem refuses them in any text, a recall query's too."""
    if isinstance(value, str):
        return value.replace("\x00", " ").encode("utf-8", "replace").decode("utf-8")
    if isinstance(value, Mapping):
        return {k: _readable(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_readable(v) for v in value]
    return value


def _jsonable(value: object) -> object:
    """What ``json.dumps`` writes for a value JSON has no type for: an SDK's pydantic
    object as its fields, a set as a list, bytes as text, anything else as its repr."""
    dump = getattr(value, "model_dump", None)
    if callable(dump):
        return dump(exclude_none=True)
    if isinstance(value, (set, frozenset)):
        return list(value)
    if isinstance(value, (bytes, bytearray)):
        return bytes(value).decode("utf-8", "backslashreplace")
    return repr(value)


def _json_text(value: object) -> str:
    """``value`` as JSON text that chatmem stores as it is: a lone surrogate written as
    its ``\\u`` escape (JSON writes a NUL so itself). A value JSON cannot hold (one that
    holds itself, or nested past Python's stack: a LlamaIndex ``Memory`` cannot queue
    either) is described instead."""
    try:
        text = json.dumps(value, ensure_ascii=False, default=_jsonable)
    except (ValueError, TypeError, RecursionError) as exc:
        text = json.dumps(f"<{describe(value)}: not written as JSON: {exc}>",
                          ensure_ascii=False)
    return _SURROGATE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _kept(message: ChatMessage, error: InvalidInput, path: str) -> list[dict[str, Any]]:
    """``message``, which chatmem refused as given (``error``), in forms it can store,
    the most faithful first: its text and attachments as usual, and under
    ``metadata[UNSTORABLE_KEY]`` the error and, as JSON text, the fields chatmem reads
    besides its text (``additional_kwargs``' chat-completions fields, tool-call blocks,
    and, in the second form, the attachments: when they were what was refused). A
    message without text has that JSON as its content (an assistant's calls so stored
    with ``source="tool_call"``, never embedded, as chatmem stores calls). The last form
    is always storable: plain text, within the limits."""
    kwargs = message.additional_kwargs or {}
    fields: dict[str, Any] = {k: kwargs[k] for k in KWARG_FIELDS
                              if kwargs.get(k) is not None and kwargs.get(k) != []}
    calls = [b.model_dump(exclude={"block_type"}) for b in message.blocks
             if isinstance(b, ToolCallBlock)]
    if calls:
        fields["tool_call_blocks"] = calls
    others = [b for b in message.blocks if not isinstance(b, ToolCallBlock)]
    texts = [b for b in others if isinstance(b, TextBlock)]
    attachments = [p for p in map(_part, others) if p is not None]
    forms = []
    for blocks, held in ((others, fields),
                         (texts, {**fields, "attachments": attachments} if attachments
                          else fields)):
        held_text = _json_text(held)
        # text and attachments alone: no field to refuse
        item = to_openai(ChatMessage(role=message.role, blocks=blocks), path)
        if item is None or not item["content"]:  # no text: what it held is its text
            item = {"role": _role(message), "content": held_text}
            if any(k in held for k in ("tool_calls", "function_call", "tool_call_blocks")):
                item["source"] = TOOL_CALL_SOURCE
        try:
            item = _fit(item, path)
        except InvalidInput:
            continue
        note: dict[str, Any] = {"error": _cut(_UNSTORABLE.sub("\ufffd", str(error)), 2000),
                                "fields": held_text}
        room = MAX_JSON_CHARS - _RESERVED - 2 * 2000
        if len(held_text) > room:  # beside a text: cut to fit the metadata
            note["fields"] = _cut(held_text, room)
            note["fields_chars"] = len(held_text)
        item["metadata"] = {**item.get("metadata", {}), UNSTORABLE_KEY: note}
        forms.append(item)
    return forms


def turn(messages: Sequence[ChatMessage]) -> list[dict[str, Any]]:
    """The latest turn of ``messages``: from the last user message on (when there is
    none, the last message, or the call before the tool answers that end them), as
    chat-completions messages (the query of a recall), each
    within chatmem's limit (a longer one keeps its last characters), and at most
    ``MAX_TURN_INPUTS`` of them, the latest: a tool loop may run past chatmem's limit
    on a turn's messages, and chatmem's query is the turn's last words anyway. A message
    chatmem cannot take as given is read as it is stored: its text and attachments."""
    messages = messages_of(messages)
    start = next((i for i in range(len(messages) - 1, -1, -1)
                  if _role(messages[i]) == "user"), None)
    if start is None:
        # the last message, or the call before the tool answers that end the history: a
        # turn of tool answers goes only after its call, so the turn holds both (one that
        # began with the answers would have Memory.context look for their call in the
        # store, and give the context without them when it is not the last stored one)
        start = len(messages) - 1
        while start > 0 and _role(messages[start]) == "tool":
            start -= 1
    start = max(start, 0)
    out = []
    for i, msg in enumerate(messages[start:], start):
        path = f"messages[{i}]"
        try:
            item = _query(msg, path)
            if item is not None:
                to_message(item, path=path, session="-")
        except InvalidInput:
            # what chatmem cannot take as given (a field of the wrong type, a name over
            # its limit) is stored beside the message's text, under metadata[UNSTORABLE_KEY]
            # (_kept), and a get on the turn failed: the query is that text too
            item = _query(ChatMessage(role=msg.role, blocks=[
                b for b in msg.blocks if not isinstance(b, ToolCallBlock)]), path)
        if item is not None:
            out.append(item)
    out = out[-MAX_TURN_INPUTS:]
    while len(out) > 1 and out[0]["role"] == "tool":  # cut from its call: see above
        out.pop(0)
    return out


def _query(message: ChatMessage, path: str) -> dict[str, Any] | None:
    item = to_openai(message, path)
    return None if item is None else _fit(item, path, query=True)


def _check_memory(value: object) -> Any:
    if not isinstance(value, (Memory, SyncMemory)):
        raise InvalidInput("ChatmemMemoryBlock(memory, …): memory must be a chatmem "
                           f"SyncMemory or Memory, got {describe(value)}")
    return value


class ChatmemMemoryBlock(BaseMemoryBlock[str]):
    """chatmem as a long-term LlamaIndex memory block (see the module).

    ``memory``: a :class:`chatmem.SyncMemory` or :class:`chatmem.Memory`;
    ``session_id``: the chatmem session the messages are stored in and recalled for
    (default: the LlamaIndex ``Memory``'s own ``session_id``, refused as InvalidInput at
    the ``Memory``'s first use of the block when chatmem cannot store it); ``platform``: the
    chatmem platform of the messages and of the recall; ``tokenizer_fn``: the tokenizer
    :meth:`atruncate` counts with, the LlamaIndex ``Memory``'s own (its
    ``tokenizer_fn``; default: LlamaIndex's default tokenizer, as ``Memory``'s).
    Recall follows the memory's configuration (scope, ``top_k``, windows,
    ``context_expand.max_chars``, rendering).
    """

    name: str = Field(default="chatmem", description="The name of the memory block.")
    memory: Any = Field(description="The chatmem SyncMemory or Memory.", exclude=True)
    session_id: str | None = Field(
        default=None, description="The chatmem session (default: the Memory's session_id).")
    platform: str | None = Field(default=None, description="The chatmem platform.")
    # LlamaIndex asks a block to shed a number of tokens of the Memory's tokenizer, but
    # gives it neither the Memory nor its tokenizer: the block is given the same one
    tokenizer_fn: Callable[[str], list[Any]] = Field(
        default_factory=get_tokenizer, exclude=True,
        description="The tokenizer atruncate counts with (the Memory's tokenizer_fn).")

    def __init__(self, memory: Memory | SyncMemory | None = None,
                 session_id: str | None = None, **data: Any) -> None:
        # checked here, as chatmem checks its arguments (InvalidInput naming the field),
        # not left to pydantic (a ValidationError, or an empty session_id or platform
        # taken: the first silently replaced by the Memory's, the second refused only
        # when the first messages are flushed)
        _check_memory(memory)
        for name, value in (("session_id", session_id), ("platform", data.get("platform"))):
            check_text(value, f"ChatmemMemoryBlock {name}", max_chars=MAX_LABEL_CHARS)
            if isinstance(value, str) and not value.strip():
                raise InvalidInput(f"ChatmemMemoryBlock {name} must not be empty (leave it "
                                   "out when there is none)")
        tokenizer = data.get("tokenizer_fn")
        if tokenizer is None:
            data.pop("tokenizer_fn", None)  # LlamaIndex's default, as Memory's
        elif not callable(tokenizer):
            raise InvalidInput("ChatmemMemoryBlock tokenizer_fn must be a function (text → "
                               "list of tokens: the LlamaIndex Memory's tokenizer_fn), got "
                               f"{describe(tokenizer)}")
        fields: dict[str, Any] = {"memory": memory, "session_id": session_id, **data}
        super().__init__(**fields)

    @field_validator("memory")
    @classmethod
    def _check_memory(cls, value: Any) -> Any:
        return _check_memory(value)

    async def _run(self, call: Callable[[Memory], Coroutine[Any, Any, T]], *,
                   finish: bool = False) -> T:
        """Run ``call`` on the chatmem memory: on a SyncMemory's own loop (from whatever
        loop LlamaIndex runs this block on), else on the current loop. ``finish``: a
        cancellation waits for the call to end, then is passed on (the call is not
        cut short)."""
        mem = self.memory
        if not isinstance(mem, SyncMemory):
            coro: Coroutine[Any, Any, T] = call(mem)
            return await (run_to_end(coro) if finish else coro)
        if mem.in_own_thread():  # already on its loop
            inner: asyncio.Future[T] = asyncio.ensure_future(call(mem.memory))
        else:
            # refused as SyncMemory's own calls are (StoreClosed after close(), a forked
            # process), not a RuntimeError from its stopped loop or a wait for ever
            inner = asyncio.wrap_future(mem.start(call(mem.memory)))
        try:
            return await (run_to_end(inner) if finish else inner)
        except asyncio.CancelledError:
            if inner.cancelled() and mem.closed:  # close() ended the call
                raise mem.closed_while_running() from None
            raise

    def _session(self, given: object) -> str:
        """The chatmem session: the block's own, else ``given``, the LlamaIndex
        ``Memory``'s, which chatmem must be able to store (InvalidInput naming it and the
        fix: no form of a message can be stored under a session chatmem refuses)."""
        if self.session_id:
            return self.session_id
        if given is None:
            raise InvalidInput("ChatmemMemoryBlock: no session_id (give one, or use the "
                               "block in a llama_index Memory, whose session_id it then "
                               "follows)")
        try:
            return check_label(given, "session_id")
        except InvalidInput as exc:
            raise InvalidInput(
                f"ChatmemMemoryBlock, given no session_id, follows the llama_index Memory's, "
                f"which chatmem cannot store: the Memory's {exc}. Give the Memory a "
                "session_id of 1 to 512 characters without NUL or lone surrogates "
                "(Memory.from_defaults(session_id=...)), or the block one of its own "
                "(ChatmemMemoryBlock(mem, 'chat-1'))") from None

    async def _aget(self, messages: list[ChatMessage] | None = None,
                    **block_kwargs: Any) -> str:
        """What chatmem recalls for the latest turn of ``messages``: the text of
        :meth:`chatmem.Memory.context`'s system message (empty when nothing is recalled)."""
        query = turn([] if messages is None else messages)
        if not query:
            return ""
        session = self._session(block_kwargs.get("session_id"))
        context = await self._run(lambda m: m.context(query, session=session,
                                                      platform=self.platform))
        mem = self.memory
        locale = (mem.memory if isinstance(mem, SyncMemory) else mem).config.locale
        return "\n\n".join(as_lines(context, LABELS.get(locale, LABELS["en"])))

    async def atruncate(self, content: str, tokens_to_truncate: int) -> str | None:
        """Shorten the block by at least ``tokens_to_truncate`` tokens (of
        ``tokenizer_fn``) when ``Memory`` must fit ``token_limit`` (only for
        ``priority`` > 0): whole groups of lines (separated by blank lines) go from the
        end; ``None`` when only the header would be left, or when the block had
        nothing (``Memory`` then passes ``[]``)."""
        if isinstance(tokens_to_truncate, bool) or not isinstance(tokens_to_truncate, int):
            raise InvalidInput(f"tokens_to_truncate must be an integer, got "
                               f"{describe(tokens_to_truncate)}")
        if not isinstance(content, str) or not content:
            return None
        count = self.tokenizer_fn
        keep = len(count(content)) - max(tokens_to_truncate, 0)
        parts = content.split("\n\n")
        while len(parts) > 1 and len(count("\n\n".join(parts))) > keep:
            parts.pop()
        return "\n\n".join(parts) if len(parts) > 1 else None

    async def aget(self, messages: list[ChatMessage] | None = None,
                   **block_kwargs: Any) -> str:
        if messages is not None:
            messages_of(messages)
        if block_kwargs.get("session_id") is not None:
            # the first use a llama_index Memory makes of the block, when a chat engine
            # asks it before flushing: a session chatmem refuses is named now, not with
            # the first batch flushed (which LlamaIndex has archived by then)
            self._session(block_kwargs["session_id"])
        return await super().aget(messages, **block_kwargs)

    async def aput(self, messages: list[ChatMessage], from_short_term_memory: bool = False,
                   session_id: str | None = None) -> None:
        # checked before LlamaIndex writes session_id into each message
        messages_of(messages)
        if session_id is not None:
            try:
                self._session(session_id)
            except InvalidInput as exc:
                if not from_short_term_memory:
                    raise
                # archived by LlamaIndex before this call, and storable in no form: the
                # error says where they are, and is logged too, as one raised out of a
                # put may go unseen (a task's, an agent's)
                error = InvalidInput(
                    f"the {len(messages)} messages LlamaIndex flushed are not stored in "
                    f"chatmem: {exc}. LlamaIndex has archived them: they stay in its chat "
                    "store (memory.get_all(status=MessageStatus.ARCHIVED)); store them with "
                    "a block given a session_id (await block.aput(those messages))")
                log.error("%s", error)
                raise error from None
        # LlamaIndex's Memory flushes with from_short_term_memory=True, after archiving
        # the messages: _aput must then store them all (LlamaIndex passes it no flag)
        flushed = _FLUSHED.set(from_short_term_memory)
        try:
            await super().aput(messages, from_short_term_memory=from_short_term_memory,
                               session_id=session_id)
        finally:
            _FLUSHED.reset(flushed)

    async def _aput(self, messages: list[ChatMessage]) -> None:
        """Store the messages in chatmem (one over chatmem's content limit cut to it, see
        :func:`_fit`). A message chatmem cannot take as given (a field of the wrong
        type…): when LlamaIndex's ``Memory`` flushed the batch, it has archived it and
        an error would lose it all, so that message is stored in the first form of
        :func:`_kept` chatmem takes, with the rest of the batch, and a warning names it
        (index in the batch, reason, the id it was stored under); when a caller put the
        messages itself, it is :class:`InvalidInput` naming it, and none is stored."""
        messages = messages_of(messages)
        flushed = _FLUSHED.get()
        given = next((msg.additional_kwargs.get("session_id") for msg in messages
                      if msg.additional_kwargs.get("session_id")), None)
        batch: list[dict[str, Any]] = []
        refused: list[tuple[int, int, InvalidInput]] = []  # (index, place in batch, error)
        session: str | None = None
        for i, msg in enumerate(messages):  # errors name the message as LlamaIndex gave it
            path = f"messages[{i}]"
            try:
                item = to_openai(msg, path)
                if item is None:
                    continue
                item = _fit(item, path)
                session = self._session(given)
                to_message(item, path=path, session=session, platform=self.platform)
            except InvalidInput as exc:
                if not flushed:
                    raise
                session = self._session(given)
                item = self._first_taken(_kept(msg, exc, path), path, session, exc)
                refused.append((i, len(batch), exc))
            batch.append(item)
        if session is None:
            return
        # LlamaIndex has taken the messages out of its short-term queue before handing
        # them over: a cancelled put still stores them (then the cancellation goes on)
        stored = await self._run(lambda m: m.add(batch, session=session,
                                                 platform=self.platform), finish=True)
        for i, place, error in refused:
            log.warning("messages[%d] of the batch LlamaIndex flushed (session %s) is stored "
                        "as message %s, with what chatmem could not take as given under "
                        "metadata[%s]: %s", i, *(as_given(v, sys.maxsize) for v in (
                            session, stored[place].id, UNSTORABLE_KEY)), error)

    def _first_taken(self, forms: list[dict[str, Any]], path: str, session: str,
                     error: InvalidInput) -> dict[str, Any]:
        for item in forms:
            try:
                to_message(item, path=path, session=session, platform=self.platform)
            except InvalidInput:
                continue
            return item
        raise error  # a session chatmem refuses (the Memory's session_id): no form fits


__all__ = ["ChatmemMemoryBlock", "messages_of", "to_openai", "turn"]
