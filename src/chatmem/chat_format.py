"""OpenAI chat-completions message lists in (I7).

``Memory.add(messages, session=…)`` and ``Memory.context(messages, session=…)`` take
the list a bot already sends to ``client.chat.completions.create`` as is. Each
mapping goes through :func:`to_message`, which accepts chatmem's own fields
(:class:`~chatmem.models.Message`) and the chat-completions ones side by side:

* ``name`` → ``speaker_id`` and ``speaker_name`` (a message's own speaker fields win);
* ``content`` as a string, ``null`` (with ``tool_calls``, ``function_call`` or
  ``refusal``) or a list of parts: text parts are joined, other parts (``image_url``,
  ``input_audio``, ``file``) become short attachment descriptions such as
  ``[image: cat.png]`` in the text and are listed in ``metadata["attachments"]``;
* ``tool_calls`` (and ``tool_call_id``, ``function_call``, ``refusal``, ``audio``,
  ``annotations``) are kept in the metadata; an assistant message that only calls
  tools is stored with ``source="tool_call"``, and ``tool`` messages are stored with
  role ``tool``: neither is embedded (F1); tool-call ``arguments`` too long for the
  metadata are cut to fit (``metadata["tool_call_arguments_cut"]``); a spoken reply is
  stored as its transcript, one sent back by its id only as ``[audio reply]`` with
  ``source="audio"``; a message's own ``metadata`` may not give another value under a
  key chatmem sets;
* roles ``developer`` and ``function`` are stored as ``system`` and ``tool``.

The batch gives ``session_id`` (and ``platform``, and the speaker of the user
messages) once; a message's own fields win. The batch's ``speaker_id`` and
``speaker_name`` are one speaker: they fill a user message that gives no speaker field
(``speaker_id``, ``speaker_name`` or ``name``), and none of a message that gives one
(its ``speaker_name`` alone does not take the batch's id). A pydantic object with ``model_dump``
(the ``ChatCompletionMessage`` of a reply, or its ``tool_calls`` in a mapping) is taken
as its mapping. An empty ``name``, ``speaker_id``, ``speaker_name`` or ``platform`` is
refused, not stored in place of the batch's.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import InvalidInput
from .models import (
    MAX_JSON_CHARS,
    MAX_LABEL_CHARS,
    ROLES,
    Message,
    check_json,
    check_text,
    json_cost,
    retried_add,
    validate_message,
)
from .refusals import describe, unknown_fields

#: chatmem's own message fields.
MESSAGE_FIELDS: frozenset[str] = frozenset(Message.__dataclass_fields__)
#: The chat-completions fields a message may carry besides ``role`` and ``content``.
OPENAI_FIELDS: frozenset[str] = frozenset({
    "name", "tool_calls", "tool_call_id", "function_call", "refusal", "audio", "annotations",
})
#: Chat-completions roles stored under another chatmem role.
ROLE_ALIASES: Mapping[str, str] = {"developer": "system", "function": "tool"}
#: Content part types and how their description starts.
PART_TYPES: Mapping[str, str] = {
    "text": "", "refusal": "", "image_url": "image", "input_audio": "audio", "file": "file",
}
#: ``source`` of an assistant message that only calls tools (stored, never embedded).
TOOL_CALL_SOURCE = "tool_call"
#: ``source`` of an assistant message that only refers to an earlier audio reply by its id
#: (``{"audio": {"id": …}}``, how a conversation sends one back): its words are not known,
#: so it is stored, never embedded.
AUDIO_SOURCE = "audio"
#: The text of such a message.
AUDIO_REPLY = "[audio reply]"
#: A media type (RFC 6838) as a ``data:`` URL starts with: the only part of one kept.
_MEDIA_TYPE = re.compile(r"[A-Za-z0-9][\w!#$&^.+-]{0,126}/[A-Za-z0-9][\w!#$&^.+-]{0,126}",
                         re.ASCII)
#: Longest label in an attachment or tool-call description.
_LABEL = 80
#: Longest tool-call arguments shown in a description.
_ARGS = 200
#: chatmem's metadata key listing the tool-call ``arguments`` cut to fit the metadata,
#: each with its length before (``{"tool_calls[0]": 150000}``).
ARGUMENTS_CUT_KEY = "tool_call_arguments_cut"


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _dumped(item: object) -> object:
    """A pydantic object as its mapping (``model_dump``); anything else as it is."""
    dump = getattr(item, "model_dump", None)
    if not isinstance(item, (Mapping, Message)) and callable(dump):
        try:
            return dump(exclude_none=True)
        except TypeError:
            return dump()
    return item


def _as_mapping(item: object) -> object:
    """A pydantic object (the ``ChatCompletionMessage`` of a reply) as its mapping, with
    only the fields chatmem knows: an SDK object carries whatever extras a provider sent
    (``reasoning_content``…), which are not part of the message."""
    data = _dumped(item)
    if data is not item and isinstance(data, Mapping):
        return {k: v for k, v in data.items() if k in MESSAGE_FIELDS | OPENAI_FIELDS}
    return data


def _plain(value: object) -> object:
    """The value of a chat-completions field with a pydantic object of an SDK (a
    ``ChatCompletionMessageToolCall``, as in ``{"role": "assistant", "tool_calls":
    reply.tool_calls}``, which the OpenAI client sends as is) as its mapping, at the top
    or as an item of a list."""
    if isinstance(value, (list, tuple)):
        return [_dumped(item) for item in value]
    return _dumped(value)


def _put(meta: dict[str, Any], given: Mapping[str, Any], key: str, value: object,
         source: str) -> None:
    """Set chatmem's own metadata key ``key`` from the field ``source``; the message's own
    ``metadata`` giving another value under it is refused rather than overwritten."""
    if key in given and given[key] != value:
        raise InvalidInput(f"{source.rsplit('.', 1)[0]}.metadata.{key} is set by chatmem "
                           f"from {source}: give it another key, or leave the field out")
    meta[key] = value


def _string(value: object, path: str) -> str:
    if not isinstance(value, str):
        raise InvalidInput(f"{path} must be a string, got {describe(value)}")
    check_text(value, path)
    return value


def _part(part: object, path: str) -> tuple[str, dict[str, Any] | None]:
    """One content part: its text (or description) and, for an attachment, its record."""
    if not isinstance(part, Mapping):
        raise InvalidInput(f"{path} must be an object with a type, got {describe(part)}")
    kind = part.get("type")
    if not isinstance(kind, str) or kind not in PART_TYPES:
        raise InvalidInput(f"{path}.type must be one of {', '.join(sorted(PART_TYPES))}, got "
                           f"{describe(kind)}")
    if kind == "text":
        return _string(part.get("text"), f"{path}.text"), None
    if kind == "refusal":
        return _string(part.get("refusal"), f"{path}.refusal"), None
    body = part.get(kind)
    if not isinstance(body, Mapping):
        raise InvalidInput(f"{path}.{kind} must be an object, got {describe(body)}")
    record: dict[str, Any] = {"type": kind}
    label = ""
    if kind == "image_url":
        url = _string(body.get("url"), f"{path}.image_url.url")
        if url.lstrip()[:5].lower() == "data:":  # the scheme is case-insensitive
            # only the media type is kept: what a malformed URL has in its place (the
            # image's bytes when it names none) is not
            media = url.lstrip()[5:].split(";", 1)[0].split(",", 1)[0]
            if _MEDIA_TYPE.fullmatch(media):
                label = record["media_type"] = media
        else:
            record["url"] = _cut(url, 2000)
            label = url.split("?", 1)[0].rstrip("/").rsplit("/", 1)[-1] or url
        if isinstance(body.get("detail"), str):
            record["detail"] = _string(body["detail"], f"{path}.image_url.detail")
    elif kind == "input_audio":
        fmt = body.get("format")
        if fmt is not None:
            label = _string(fmt, f"{path}.input_audio.format")
            record["format"] = label
    else:  # file
        for key in ("filename", "file_id"):
            value = body.get(key)
            if value is not None:
                record[key] = _cut(_string(value, f"{path}.file.{key}"), MAX_LABEL_CHARS)
        label = record.get("filename") or record.get("file_id") or ""
    word = PART_TYPES[kind]
    return (f"[{word}: {_cut(label, _LABEL)}]" if label else f"[{word}]"), record


def _content(value: object, path: str) -> tuple[str | None, list[dict[str, Any]]]:
    """The text of ``content`` (``None`` when null) and the attachments it lists."""
    if value is None:
        return None, []
    if isinstance(value, str):
        return value, []
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{path} must be a string, a list of content parts or null, "
                           f"got {describe(value)}")
    texts: list[str] = []
    attachments: list[dict[str, Any]] = []
    for j, part in enumerate(value):
        text, record = _part(part, f"{path}[{j}]")
        texts.append(text)
        if record is not None:
            attachments.append(record)
    return "\n".join(t for t in texts if t), attachments


def _tool_calls(value: object, path: str) -> list[Mapping[str, Any]]:
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{path} must be a list of tool calls, got {describe(value)}")
    for j, call in enumerate(value):
        if not isinstance(call, Mapping):
            raise InvalidInput(f"{path}[{j}] must be an object, got {describe(call)}")
        fn = call.get("function")
        if fn is not None and not isinstance(fn, Mapping):
            raise InvalidInput(f"{path}[{j}].function must be an object, got {describe(fn)}")
        # checked here, not only as metadata later: the error names the field as given
        # (a NUL in the name would otherwise be reported in the content made from it);
        # its size is not: long arguments are cut to fit (_fit_arguments)
        json_cost(call, f"{path}[{j}]")
    return list(value)


def _fit_arguments(meta: dict[str, Any], path: str) -> dict[str, Any]:
    """``meta``, or when it is too large for the metadata only because of long tool-call
    ``arguments`` (an agent writing a file through a tool), a copy with the longest cut
    to one length, just enough to fit, each ending in ``…``, and their lengths before
    under ``ARGUMENTS_CUT_KEY``: the call is remembered, and the batch not refused for
    it. Anything else too large is left for the metadata's own check to refuse."""
    if ARGUMENTS_CUT_KEY in meta:
        return meta  # the message's own metadata names it: nothing is cut for it
    spots: list[tuple[str, str]] = []  # (where, arguments)
    calls = meta.get("tool_calls")
    for j, call in enumerate(calls if isinstance(calls, list) else []):
        fn = call.get("function") if isinstance(call, Mapping) else None
        if isinstance(fn, Mapping) and isinstance(fn.get("arguments"), str):
            spots.append((f"tool_calls[{j}]", fn["arguments"]))
    fc = meta.get("function_call")
    if isinstance(fc, Mapping) and isinstance(fc.get("arguments"), str):
        spots.append(("function_call", fc["arguments"]))
    if not spots:
        return meta
    cost = json_cost(meta, path)
    # the record of what was cut, counted as if every call's were (20: a number's width)
    record = 2 + len(ARGUMENTS_CUT_KEY) + 3 + sum(len(w) + 3 + 20 for w, _ in spots)
    excess = cost + record - MAX_JSON_CHARS
    if excess <= 0:
        return meta

    def saved(cap: int) -> int:
        return sum(max(0, len(args) - cap) for _, args in spots)

    if saved(1) < excess:
        return meta  # cutting every argument would not do: refused as too large
    low, high = 1, max(len(args) for _, args in spots)  # saved(low) >= excess
    while low < high:  # the longest cap that still saves enough
        mid = (low + high + 1) // 2
        low, high = (mid, high) if saved(mid) >= excess else (low, mid - 1)
    cut = {where: len(args) for where, args in spots if len(args) > low}
    fitted = dict(meta)
    if isinstance(calls, list):
        fitted["tool_calls"] = [
            {**c, "function": {**c["function"], "arguments": _cut(
                c["function"]["arguments"], low)}} if f"tool_calls[{j}]" in cut else c
            for j, c in enumerate(calls)]
    if "function_call" in cut and isinstance(fc, Mapping):
        fitted["function_call"] = {**fc, "arguments": _cut(fc["arguments"], low)}
    fitted[ARGUMENTS_CUT_KEY] = cut
    return fitted


def call_text(call: Mapping[str, Any]) -> str:
    """``name(arguments)`` of one tool call, for the stored text."""
    found = call.get("function")
    fn: Mapping[str, Any] = found if isinstance(found, Mapping) else call
    name = fn.get("name")
    if not isinstance(name, str):
        name = str(call.get("type", "tool"))
    raw = fn.get("arguments")
    args = raw if isinstance(raw, str) else ""
    if raw is not None and not isinstance(raw, str):
        try:
            args = json.dumps(raw, ensure_ascii=False)
        except (TypeError, ValueError):
            args = ""
    return f"{_cut(name, _LABEL)}({_cut(args, _ARGS)})"


def to_message(item: Mapping[str, Any], *, path: str, session: str | None = None,
               platform: str | None = None, speaker_id: str | None = None,
               speaker_name: str | None = None) -> Message:
    """One mapping (chatmem fields, chat-completions fields, or both) as a validated
    :class:`Message`, with the batch's defaults filled in; errors name ``path``."""
    unknown = sorted(str(k) for k in set(item) - MESSAGE_FIELDS - OPENAI_FIELDS)
    if unknown:
        raise InvalidInput(unknown_fields(path, unknown, [*Message.__dataclass_fields__,
                                                          *sorted(OPENAI_FIELDS)]))
    data: dict[str, Any] = {k: v for k, v in item.items() if k in MESSAGE_FIELDS}
    extra: dict[str, Any] = {k: _plain(v) for k, v in item.items()
                             if k in OPENAI_FIELDS and v is not None}
    role = item.get("role", "user")
    if not isinstance(role, str) or (role not in ROLES and role not in ROLE_ALIASES):
        roles = ", ".join(sorted(ROLES | set(ROLE_ALIASES)))
        raise InvalidInput(f"{path}.role must be one of {roles}, got {describe(role)}")
    metadata = item.get("metadata")
    metadata = {} if metadata is None else metadata
    if not isinstance(metadata, Mapping):
        raise InvalidInput(f"{path}.metadata must be an object, got {describe(metadata)}")
    meta: dict[str, Any] = dict(metadata)
    if role in ROLE_ALIASES:
        _put(meta, metadata, "openai_role", role, f"{path}.role")
        role = ROLE_ALIASES[role]
    data["role"] = role

    if "content" not in item and not extra:
        raise InvalidInput(f"{path}.content is required")
    content, attachments = _content(item.get("content"), f"{path}.content")
    if attachments:
        _put(meta, metadata, "attachments", attachments, f"{path}.content")

    name = extra.pop("name", None)
    if name is not None:
        check_text(name, f"{path}.name", max_chars=MAX_LABEL_CHARS)
        if not name.strip():
            raise InvalidInput(f"{path}.name must not be empty (leave it out when the "
                               "speaker is not known)")
        if item.get("role") == "function":
            _put(meta, metadata, "name", name, f"{path}.name")  # the function's, not a speaker
        else:
            for key in ("speaker_id", "speaker_name"):
                if data.get(key) is None:
                    data[key] = name

    calls: list[Mapping[str, Any]] = []
    if "tool_calls" in extra:
        calls = _tool_calls(extra.pop("tool_calls"), f"{path}.tool_calls")
        if calls:
            # a copy: a function_call given too is added to ``calls`` below, not kept
            _put(meta, metadata, "tool_calls", list(calls), f"{path}.tool_calls")
    if "function_call" in extra:
        fc = extra.pop("function_call")
        if not isinstance(fc, Mapping):
            raise InvalidInput(f"{path}.function_call must be an object, got {describe(fc)}")
        json_cost(fc, f"{path}.function_call")
        _put(meta, metadata, "function_call", fc, f"{path}.function_call")
        calls.append({"function": fc})
    if "tool_call_id" in extra:
        _put(meta, metadata, "tool_call_id",
             _string(extra.pop("tool_call_id"), f"{path}.tool_call_id"), f"{path}.tool_call_id")
    refusal = extra.pop("refusal", None)
    if refusal is not None:
        _put(meta, metadata, "refusal", _string(refusal, f"{path}.refusal"), f"{path}.refusal")
    audio = extra.get("audio")
    if isinstance(audio, Mapping):
        # the sound itself (base64, often past the metadata limit) is not kept, as the data
        # of a data: URL is not: its id, transcript and expiry are
        audio = extra["audio"] = {k: v for k, v in audio.items() if k != "data"}
    for key in ("audio", "annotations"):
        value = extra.pop(key, None)
        if value:
            check_json(value, f"{path}.{key}")
            _put(meta, metadata, key, value, f"{path}.{key}")
    if (content is None or not content.strip()) and isinstance(audio, Mapping) \
            and isinstance(audio.get("transcript"), str):
        content = audio["transcript"]  # a spoken reply: what the user heard

    if content is None or not content.strip():
        if calls:
            content = "[tool call: " + "; ".join(call_text(c) for c in calls) + "]"
            if not data.get("source"):
                # stored, never embedded (F1), whatever the role: calls are not words
                data["source"] = TOOL_CALL_SOURCE
        elif refusal is not None:
            content = refusal
        elif isinstance(audio, Mapping) and audio:
            content = AUDIO_REPLY  # an earlier audio reply sent back by its id only
            if not data.get("source"):
                data["source"] = AUDIO_SOURCE
        elif role == "tool" and content is not None:
            content = "[no output]"
        elif content is None:
            raise InvalidInput(f"{path}.content is null; it may be only with tool_calls, "
                               "function_call, refusal or audio")
    data["content"] = content
    if meta or "metadata" in item:
        data["metadata"] = _fit_arguments(meta, f"{path}.metadata")

    if data.get("session_id") is None:
        if session is None:
            raise InvalidInput(
                f"{path}.session_id is required: pass session=<the conversation id> for "
                "the whole batch (mem.add(messages, session=...); over HTTP a top-level "
                "session_id), or give each message a session_id",
                mentions=[("session", "<the conversation id>")])
        data["session_id"] = session
    if data.get("platform") is None and platform is not None:
        data["platform"] = platform
    # the batch's speaker is one person: a message naming any speaker field (or
    # ``name``) is someone's own, and takes none of the batch's (its id beside another
    # message's name would credit one speaker's words to another)
    if role == "user" and data.get("speaker_id") is None \
            and data.get("speaker_name") is None:
        if speaker_id is not None:
            data["speaker_id"] = speaker_id
        if speaker_name is not None:
            data["speaker_name"] = speaker_name
    return Message.from_dict(data, path=path)


def check_defaults(**defaults: object) -> None:
    """The batch-level defaults: labels or ``None``."""
    for name, value in defaults.items():
        check_text(value, name, max_chars=MAX_LABEL_CHARS)
        if isinstance(value, str) and not value.strip():
            raise InvalidInput(f"{name} must not be empty")


def coerce(items: object, *, session: str | None = None, platform: str | None = None,
           speaker_id: str | None = None, speaker_name: str | None = None
           ) -> list[Message]:
    """One message or many (``Message``, chatmem mappings, chat-completions mappings,
    pydantic message objects), validated, with the batch's defaults filled in.
    ``Message`` objects are taken as they are."""
    check_defaults(session=session, platform=platform, speaker_id=speaker_id,
                   speaker_name=speaker_name)
    items = _as_mapping(items)
    if isinstance(items, (Message, Mapping)):
        items = [items]
    if not isinstance(items, (list, tuple)):
        raise InvalidInput("messages: expected a Message, a mapping or a list of them, got "
                           f"{describe(items)}")
    out: list[Message] = []
    for i, item in enumerate(items):
        path = f"messages[{i}]"
        item = _as_mapping(item)
        if isinstance(item, Message):
            validate_message(item, path=path)
            out.append(item)
        elif isinstance(item, Mapping):
            out.append(to_message(item, path=path, session=session, platform=platform,
                                  speaker_id=speaker_id, speaker_name=speaker_name))
        else:
            raise InvalidInput(f"{path}: expected an object, got {describe(item)}")
    _check_ids(out)
    return out


def _check_ids(batch: Sequence[Message]) -> None:
    """An id given twice in one batch names one message: the same add twice (as a retry
    would send it) is stored once, other content is refused naming both (the store's
    error could not say which message of the batch it meant)."""
    first: dict[str, tuple[int, Message]] = {}
    for i, msg in enumerate(batch):
        if msg.id is None:
            continue
        j, earlier = first.setdefault(msg.id, (i, msg))
        if j != i:
            try:
                retried_add(earlier, msg, msg.id)
            except InvalidInput:
                raise InvalidInput(f"messages[{i}].id {describe(msg.id)} is also messages[{j}].id, "
                                   "with other content: an id names one message") from None


def turn_messages(items: Sequence[object]) -> list[object]:
    """``items`` with pydantic message objects as mappings (for a turn)."""
    return [_as_mapping(item) for item in items]
