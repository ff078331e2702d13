"""The ``memory_recall`` tool (F8, I2): schema for function calling, argument checks, result."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .config import SCOPES, Config, normalize_scope
from .errors import InvalidInput
from .models import MAX_CONTENT_CHARS, MAX_LABEL_CHARS, check_text, optional_label

if TYPE_CHECKING:
    from .recall import RecallResult

TOOL_NAME = "memory_recall"
#: Longest JSON text of one call's arguments (a query is at most 200,000 characters).
MAX_ARGUMENTS_CHARS = 1_000_000


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
            sid = value.get("session_id")
            speaker = value.get("speaker_id")
            platform = value.get("platform")
        else:
            raise InvalidInput("caller must be a Caller or a mapping with session_id")
        if not isinstance(sid, str) or not sid.strip():
            raise InvalidInput("caller.session_id is required (the calling session)")
        check_text(sid, "caller.session_id", max_chars=MAX_LABEL_CHARS)
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


def tool_schema(config: Config) -> dict[str, Any]:
    return {
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
                                       "maximum": max(config.recall_window.before,
                                                      config.recall_window.after),
                                       "description": "Neighbouring messages to include on "
                                                      "each side of a hit."},
                    "cross_session": {"type": "boolean",
                                      "description": "Include context around hits from other "
                                                     "conversations."},
                    "top_k": {"type": "integer", "minimum": 1,
                              "maximum": config.recall_top_k,
                              "description": "How many hits at most."},
                },
                "required": ["query"],
                "additionalProperties": False,
            },
        },
    }


#: The arguments of memory_recall, as its schema lists them.
TOOL_ARGUMENTS = ("query", "scope", "context_window", "cross_session", "top_k")


def parse_tool_arguments(arguments: Mapping[str, Any] | str) -> ToolArguments:
    """Validate the model's arguments (a mapping or its JSON text), naming the bad one."""
    if isinstance(arguments, str):
        if len(arguments) > MAX_ARGUMENTS_CHARS:
            raise InvalidInput(f"{TOOL_NAME} arguments are longer than {MAX_ARGUMENTS_CHARS} "
                               "characters")
        try:
            arguments = json.loads(arguments)
        except json.JSONDecodeError as exc:
            raise InvalidInput(f"{TOOL_NAME} arguments are not valid JSON: {exc}") from None
        except ValueError:
            # an integer of more digits than Python converts (sys.get_int_max_str_digits)
            raise InvalidInput(f"{TOOL_NAME} arguments hold a number too long to read"
                               ) from None
        except RecursionError:
            raise InvalidInput(f"{TOOL_NAME} arguments are nested too deeply") from None
    if not isinstance(arguments, Mapping):
        raise InvalidInput(f"{TOOL_NAME} arguments must be an object")
    unknown = set(arguments) - set(TOOL_ARGUMENTS)
    if unknown:
        raise InvalidInput(f"{TOOL_NAME}: unknown argument(s) "
                           f"{', '.join(sorted(repr(str(k)[:40]) for k in unknown))}; it "
                           f"takes {', '.join(TOOL_ARGUMENTS)}")
    query = arguments.get("query")
    if not isinstance(query, str) or not query.strip():
        raise InvalidInput(f"{TOOL_NAME}: query must be a non-empty string")
    check_text(query, f"{TOOL_NAME}: query", max_chars=MAX_CONTENT_CHARS)
    scope = arguments.get("scope")
    if scope is not None:
        scope = normalize_scope(scope, name=f"{TOOL_NAME}: scope")
    window = arguments.get("context_window")
    if window is not None and (isinstance(window, bool) or not isinstance(window, int)
                               or window < 0):
        raise InvalidInput(f"{TOOL_NAME}: context_window must be an integer ≥ 0")
    cross = arguments.get("cross_session")
    if cross is not None and not isinstance(cross, bool):
        raise InvalidInput(f"{TOOL_NAME}: cross_session must be true or false")
    top_k = arguments.get("top_k")
    if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int)
                              or top_k < 1):
        raise InvalidInput(f"{TOOL_NAME}: top_k must be an integer ≥ 1")
    return ToolArguments(query, scope, window, cross, top_k)


def tool_result(result: RecallResult, requested_scope: str | None) -> dict[str, Any]:
    """What the model gets back: the rendered memory plus a compact structure."""
    return {
        "text": result.text or "No matching memories.",
        "scope": result.scope,
        "requested_scope": requested_scope,
        "clamped": result.clamped,
        "note": (f"scope {requested_scope!r} is wider than this conversation may see; "
                 f"searched {result.scope!r} instead") if result.clamped else None,
        "degraded": result.degraded,
        "degraded_reason": result.degraded_reason,
        # which day "yesterday" was, in the configured time zone (rule 30)
        "period": None if result.period is None else result.period.to_dict(),
        "hits": [{"id": h.message.id, "session_id": h.message.session_id,
                  "ts": h.message.ts, "speaker": h.message.speaker_name or h.message.speaker_id,
                  "role": h.message.role, "score": round(h.score, 4)} for h in result.hits],
    }
