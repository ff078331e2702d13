"""The ``memory_recall`` tool (F8, I2): schema for function calling, argument checks, result."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, cast

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
)
from pydantic_core import PydanticKnownError

from .config import SCOPES, Config, normalize_scope
from .errors import InvalidInput
from .models import MAX_CONTENT_CHARS, MAX_LABEL_CHARS, check_text, optional_label
from .refusals import (
    DuplicateKey,
    as_given,
    describe,
    one_of_each,
    read_float,
    schema_errors,
    unknown_fields,
    unknown_keys,
)

if TYPE_CHECKING:
    from pydantic_core.core_schema import ErrorType

    from .recall import RecallResult

TOOL_NAME = "memory_recall"
#: Longest JSON text of one call's arguments (a query is at most 200,000 characters).
MAX_ARGUMENTS_CHARS = 1_000_000


#: The keys of a caller given as a mapping (:meth:`Caller.of`).
_CALLER_FIELDS = ("session_id", "speaker_id", "platform")


@dataclass(frozen=True)
class Caller:
    """Who calls the tool: the calling session, and the physical speaker when known.

    With several speakers in the turn and none named, no same-user boost applies."""

    session_id: str
    speaker_id: str | None = None
    platform: str | None = None

    @classmethod
    def of(cls, value: Caller | Mapping[str, Any]) -> Caller:
        sid: object
        speaker: object
        platform: object
        if isinstance(value, Caller):
            sid, speaker, platform = value.session_id, value.speaker_id, value.platform
        elif isinstance(value, Mapping):
            # a key it does not take is refused, not passed over: {"speaker": "carol"}
            # lost the same-user boost, {"platfrom": "qq"} the platform, with no word
            unknown = unknown_keys(value, _CALLER_FIELDS)
            if unknown:
                raise InvalidInput(unknown_fields("caller", unknown, _CALLER_FIELDS))
            sid = value.get("session_id")
            speaker = value.get("speaker_id")
            platform = value.get("platform")
        else:
            raise InvalidInput("caller must be a Caller or a mapping with session_id")
        # one of another type is named as what it is, not as left out
        check_text(sid, "caller.session_id", max_chars=MAX_LABEL_CHARS)
        if not isinstance(sid, str) or not sid.strip():
            raise InvalidInput("caller.session_id is required (the calling session)")
        # "" is no speaker or platform a message can be of: refused, not taken as none
        # (speaker) or as a platform that matches nothing (F9)
        speaker_id = optional_label(speaker, "caller.speaker_id")
        entry = optional_label(platform, "caller.platform")
        return value if isinstance(value, Caller) else cls(sid, speaker_id, entry)


@dataclass(frozen=True)
class ToolArguments:
    query: str
    scope: str | None = None
    context_window: int | None = None
    cross_session: bool | None = None
    top_k: int | None = None


def tool_schema(config: Config, *, strict: bool = False) -> dict[str, Any]:
    """``memory_recall`` for function calling. ``top_k`` and ``context_window`` have no
    ``maximum``: a larger one is clamped to the configuration (arguments only narrow), so
    a schema maximum would forbid what the tool takes; their descriptions say the clamp.

    Each optional argument is nullable (:func:`_nullable`): the tool takes a ``null`` as
    the argument left out, and many models send one, so the schema allows what the tool
    takes (it allowed the values alone, and a call a checker of the published schema
    refused was one the tool took).

    ``strict``: the form OpenAI's strict function calling (Structured Outputs,
    ``"strict": true``) takes, of the same meaning (:func:`strict_form`)."""
    if not isinstance(strict, bool):
        raise InvalidInput(f"strict must be true or false, got {describe(strict)}")
    window, top_k = config.recall_window, config.recall_top_k
    sides = (f"at most {window.before} on each side here" if window.before == window.after
             else f"at most {window.before} before and {window.after} after a hit here")
    schema: dict[str, Any] = {
        "type": "function",
        "function": {
            "name": TOOL_NAME,
            "description": (
                "Search your long-term memory of past conversations (all sessions you may "
                "see) for messages relevant to a query. Returns the matching messages with "
                "the messages around them, each labelled [platform/place/speaker @ time]. "
                "Lines labelled Assistant·yourself are your own earlier replies."
            ),
            "parameters": {
                "type": "object",
                "properties": {
                    "query": {"type": "string",
                              "description": "What to look for, in natural language; "
                                             "naming the day helps (\"what did the user say "
                                             "yesterday about the trip\", \"上周五\")."},
                    "scope": {"type": "string", "enum": [*SCOPES, "thread"],
                              "description": "Narrow the search: session (this "
                                             "conversation), platform, resource, user or all. "
                                             "Cannot widen beyond what this conversation "
                                             "may see."},
                    "context_window": {"type": "integer", "minimum": 0,
                                       "description": "Neighbouring messages to include on "
                                                      f"each side of a hit; {sides} (a "
                                                      "larger number gives those)."},
                    "cross_session": {"type": "boolean",
                                      "description": "Include context around hits from other "
                                                     "conversations."},
                    "top_k": {"type": "integer", "minimum": 1,
                              "description": f"How many hits at most; up to {top_k} here "
                                             f"(a larger number gives {top_k})."},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        },
    }
    parameters = schema["function"]["parameters"]
    parameters["properties"] = {name: prop if name == "query" else _nullable(prop)
                                for name, prop in parameters["properties"].items()}
    return strict_form(schema) if strict else schema


_NULL = {"type": "null"}


def _nullable(prop: Mapping[str, Any]) -> dict[str, Any]:
    """An optional argument's schema with ``null`` (left out) allowed beside its values:
    a union of its values and null, the description beside it, as pydantic (and so the
    MCP SDK's tools and OpenAI's SDKs) writes an optional argument. A union rather than
    ``"type": ["integer", "null"]``: Gemini's function declarations refuse a list of
    types, and a null type beside an enum would not do (the enum alone refuses null)."""
    if _NULL in prop.get("anyOf", ()):
        return dict(prop)
    shown = {k: v for k, v in prop.items() if k == "description"}
    values = {k: v for k, v in prop.items() if k != "description"}
    return {"anyOf": [values, _NULL], **shown}


def strict_form(schema: Mapping[str, Any]) -> dict[str, Any]:
    """A tool schema (OpenAI tools format) in the form strict function calling takes:
    every argument required and each optional one nullable (the model sends ``null``
    for one it leaves out, which :func:`parse_tool_arguments` takes as left out), no
    other argument (``additionalProperties: false``), and ``"strict": true``. The
    bounds and descriptions are the same."""
    function = dict(schema["function"])
    parameters = dict(function["parameters"])
    properties: dict[str, Any] = parameters["properties"]
    required = set(parameters.get("required", ()))
    parameters["properties"] = {name: prop if name in required else _nullable(prop)
                                for name, prop in properties.items()}
    parameters["required"] = list(properties)
    parameters["additionalProperties"] = False
    function["parameters"] = parameters
    function["strict"] = True
    return {**schema, "function": function}


def _whole(value: object, check: ValidatorFunctionWrapHandler) -> object:
    """A float of no fraction checked as the integer it is (``5.0`` is 5): JSON Schema
    counts it as an integer, so a model (or a checker) following the published schema
    may send it. Anything else as it is, for the strict check (``5.5``, ``true``, ``"5"``
    refused); a bound is refused of the value as sent (``at least 1, got 0.0``)."""
    if type(value) is not float or not value.is_integer():
        return check(value)
    try:
        return check(int(value))
    except ValidationError as exc:
        first = exc.errors()[0]  # a bound: the one error an int can have
        raise PydanticKnownError(cast("ErrorType", first["type"]), first.get("ctx")
                                 ) from None


#: An integer argument of a tool (memory_recall's; the MCP server's memory_list's):
#: ``Annotated[int, Field(ge=…, le=…), WHOLE_FLOAT]``, strict (no bool, no string), a
#: float of no fraction taken as the integer it is. Last in its ``Annotated``, after
#: the bounds: before them, pydantic's JSON schema wrote them ``"ge"``/``"le"``, which
#: JSON Schema does not know (no bound at all for a checker of the schema).
WHOLE_FLOAT = WrapValidator(_whole)


class _Arguments(BaseModel):
    """memory_recall's arguments as its schema takes them: strict, as the HTTP API's
    bodies and the MCP server's tools are (a JSON string is not an integer, ``true`` is
    not 1, ``"yes"`` is not true), no unknown one; but an integer may be written
    ``5.0``, which JSON Schema (the published schema) counts as one. No upper bound on
    ``top_k`` and ``context_window``: a larger one is clamped to the configuration
    (arguments only narrow, :meth:`Memory.call_tool`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    query: Annotated[str, Field(min_length=1)]
    scope: str | None = None
    context_window: Annotated[int, Field(ge=0), WHOLE_FLOAT] | None = None
    cross_session: bool | None = None
    top_k: Annotated[int, Field(ge=1), WHOLE_FLOAT] | None = None


#: The arguments of memory_recall, as its schema lists them.
TOOL_ARGUMENTS = tuple(_Arguments.model_fields)


def parse_tool_arguments(arguments: Mapping[str, Any] | str) -> ToolArguments:
    """Validate the model's arguments (a mapping or its JSON text), naming the bad one as
    the servers' refusals do (:func:`chatmem.refusals.schema_errors`: ``top_k must be at
    least 1, got 0``, ``unknown argument(s) topk (did you mean top_k?)``). A ``null`` is
    an argument left out, as the MCP server takes it."""
    if isinstance(arguments, str):
        if len(arguments) > MAX_ARGUMENTS_CHARS:
            raise InvalidInput(f"{TOOL_NAME} arguments are longer than {MAX_ARGUMENTS_CHARS} "
                               "characters")
        try:
            # a key named twice is refused, as the servers refuse it in a body: parsers
            # disagree on which one counts (:func:`~chatmem.refusals.one_of_each`)
            arguments = json.loads(arguments, object_pairs_hook=one_of_each,
                                   parse_float=read_float)  # 1e400 named as sent
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{TOOL_NAME} arguments are not valid JSON: {exc}") from None
        except DuplicateKey as exc:
            raise InvalidInput(f"{TOOL_NAME} arguments: the key {as_given(exc.args[0])} "
                               "appears twice in one object; send each key once") from None
        except ValueError:
            # an integer of more digits than Python converts (sys.get_int_max_str_digits)
            raise InvalidInput(f"{TOOL_NAME} arguments hold a number too long to read"
                               ) from None
        except RecursionError:
            raise InvalidInput(f"{TOOL_NAME} arguments are nested too deeply") from None
    if not isinstance(arguments, Mapping):
        raise InvalidInput(f"{TOOL_NAME} arguments must be an object, got "
                           f"{as_given(arguments)}")
    given = {str(k): v for k, v in arguments.items() if v is not None}
    try:
        args = _Arguments.model_validate(given)
    except ValidationError as exc:
        said = schema_errors(exc.errors(include_url=False), _Arguments, arguments=True)
        raise InvalidInput(f"{TOOL_NAME}: {said}") from None
    if not args.query.strip():
        raise InvalidInput(f"{TOOL_NAME}: query must not be empty")
    check_text(args.query, f"{TOOL_NAME}: query", max_chars=MAX_CONTENT_CHARS)
    scope = None if args.scope is None else normalize_scope(args.scope,
                                                            name=f"{TOOL_NAME}: scope")
    return ToolArguments(args.query, scope, args.context_window, args.cross_session,
                         args.top_k)


def tool_result(result: RecallResult, requested_scope: str | None) -> dict[str, Any]:
    """What the model gets back: the rendered memory plus a compact structure."""
    return {
        "text": result.text or "No matching memories.",
        "scope": result.scope,
        "requested_scope": requested_scope,
        "clamped": result.clamped,
        "note": (f"scope {describe(requested_scope)} is wider than this conversation may "
                 f"see; searched {describe(result.scope)} instead") if result.clamped else None,
        "degraded": result.degraded,
        "degraded_reason": result.degraded_reason,
        # which day "yesterday" was, in the configured time zone (rule 30)
        "period": None if result.period is None else result.period.to_dict(),
        "hits": [{"id": h.message.id, "session_id": h.message.session_id,
                  "ts": h.message.ts, "speaker": h.message.speaker_name or h.message.speaker_id,
                  "role": h.message.role, "score": round(h.score, 4)} for h in result.hits],
    }
