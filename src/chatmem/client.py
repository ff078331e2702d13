"""A typed client of the HTTP API (``chatmem serve``): :class:`AsyncClient` and :class:`Client`.

The methods mirror :class:`~chatmem.Memory` (same names, same keywords, same result
types: :class:`~chatmem.Message`, :class:`~chatmem.RecallResult` with its
:class:`~chatmem.Hit` s, :class:`~chatmem.models.Session`,
:class:`~chatmem.scopes.EffectiveScope`, :class:`~chatmem.MessagePage`,
:class:`~chatmem.Erased`, :class:`~chatmem.retention.EffectiveRetention`), one route
each, so code written against a local ``Memory`` runs against a server by changing
how it is opened::

    async with AsyncClient("http://127.0.0.1:8765", api_key="…") as mem:
        await mem.add({"session_id": "s1", "content": "I prefer oat milk"})
        result = await mem.recall("what milk?", session="s1")

Errors are the library's own (:mod:`chatmem.errors`), rebuilt from the server's
``{"error": {"type", "message"}}`` body: a 400 that says ``FilterError`` raises
:class:`~chatmem.errors.FilterError`, a 403 :class:`~chatmem.errors.PermissionDenied`,
a 404 :class:`~chatmem.errors.NotFound`, a 503 :class:`~chatmem.errors.StoreError` or
:class:`~chatmem.errors.EmbeddingUnavailable` (a busy server's 503,
:class:`~chatmem.errors.ServerBusy`)…; each carries ``http_status``. A 401 is
:class:`~chatmem.errors.Unauthorized`, a 500 or an answer outside the API
:class:`~chatmem.errors.ServerError`, and no answer at all (refused, reset, timed
out) :class:`~chatmem.errors.ConnectionFailed` with the transport's error as
``__cause__``.

Bounded: every request has a timeout (``timeout`` seconds, default 30) for the whole
exchange, connecting to the last byte of the answer (a server that sends a byte now and
then cannot hold a call longer), and an answer may hold at most ``max_response_bytes``
(default 128 MiB, counted after decompression); past either the call fails
(:class:`~chatmem.errors.ConnectionFailed`, :class:`~chatmem.errors.ServerError`)
without reading on (answers are decompressed within that bound: :mod:`chatmem._http`).
An answer whose JSON is not what the API sends (a missing field, a list for an object,
a number past 1e308, nesting past Python's stack) is a
:class:`~chatmem.errors.ServerError` too, naming the request and the field
(``hits[0].score``) in chatmem's words, never a raw ``KeyError``, ``TypeError``,
``OverflowError`` or ``RecursionError``. Every error the client words itself names the
request one way (:func:`_request_named`: the method and the URL sent, ``base_url``'s
path included). The API key is never in an error: the server's
text is quoted without it (an echoing server sends it back). A connection that could
not be *opened* is retried (``connect_retries`` times, default 2, 0.2 s then 0.4 s
apart), since nothing reached the server then; so is a request the server answered
503 ``ServiceUnavailable`` with ``Retry-After`` (no request slot came free: it was not
worked on), after the wait it asks for, ``busy_retries`` times (default 2), then
:class:`~chatmem.errors.ServerBusy`.
Any other request that was sent is never retried. Redirects are not followed
(the key is never sent elsewhere).

:class:`Client` is the blocking form for scripts: each method is the
:class:`AsyncClient` method of the same name run on a private event loop
(:mod:`chatmem._sync`, as :class:`~chatmem.SyncMemory`), not a second copy.
"""

from __future__ import annotations

import asyncio
import json
import math
import random
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal, TypeVar
from urllib.parse import quote

import httpx

from ._aio import wait_within
from ._http import AnswerTooLarge, parse_retry_after, read_bounded
from ._sync import BlockingWrapper, blocking
from .errors import (
    ChatmemError,
    ConfigError,
    ConnectionFailed,
    EmbeddingUnavailable,
    EventLoopMisuse,
    FilterError,
    InvalidInput,
    NotFound,
    PermissionDenied,
    RecallUnavailable,
    ScopeError,
    ServerBusy,
    ServerError,
    StoreClosed,
    StoreError,
    Unauthorized,
)
from .models import (
    LIMIT_TAKES,
    MAX_PAGE,
    SESSION_TEXT_FIELDS,
    TOO_MUCH_TEXT,
    Erased,
    Message,
    MessagePage,
    Session,
    as_stored_json,
    blank_labels_as_none,
    check_flag,
    check_json,
    check_label,
    check_text,
    check_ts,
    validate_session,
)
from .overview import SessionsPage, SessionSummary
from .recall.period import Period
from .recall.request import id_list
from .recall.result import Hit, RecallResult
from .refusals import WrittenNumber, as_given, describe, read_float
from .retention import EffectiveRetention
from .scopes import EffectiveScope

#: Default seconds for one request, from connecting to the answer's last byte.
DEFAULT_TIMEOUT = 30.0
#: Default largest answer read, in bytes after decompression (a 600 MB answer took
#: 3.7 GB of memory to read and parse before this bound).
DEFAULT_MAX_RESPONSE_BYTES = 128 * 1024 * 1024
#: Default times a request the server was too busy to take (503 ``ServiceUnavailable``
#: with ``Retry-After``: nothing was done) is sent again before :class:`ServerBusy`.
DEFAULT_BUSY_RETRIES = 2
#: Longest wait a busy server's ``Retry-After`` may ask of a call (a broken or hostile
#: header must not hold it for long); waits are also spread by up to half again, so
#: that the clients a burst turned away do not all come back at the same instant.
BUSY_WAIT_MAX_S = 30.0
#: The error type the server's body names when it had no request slot free.
_BUSY_TYPE = "ServiceUnavailable"
#: Most ids one ``/v1/messages/get`` or ``/v1/messages/delete`` request may name: longer
#: lists are sent in chunks of this many (the library takes up to 10 000).
IDS_PER_REQUEST = 1000
#: Most characters of the server's text an error carries.
_MESSAGE_CHARS = 1000
#: Error types of the server's body → the library's class.
_BY_TYPE: dict[str, type[ChatmemError]] = {cls.__name__: cls for cls in (
    ConfigError, FilterError, InvalidInput, ScopeError, PermissionDenied, NotFound,
    EmbeddingUnavailable, StoreError, StoreClosed, RecallUnavailable)}
#: A damaged row of the server's store (500): a StoreError here, its words kept (the
#: library's DamagedRow is built from the row's parts, which the answer does not carry).
_BY_TYPE["DamagedRow"] = StoreError
#: When the body's type is not a library class (e.g. ``InvalidRequest``: schema, 422).
_BY_STATUS: dict[int, type[ChatmemError]] = {
    400: InvalidInput, 401: Unauthorized, 403: PermissionDenied, 404: NotFound,
    413: InvalidInput, 415: InvalidInput, 422: InvalidInput, 503: StoreError}

Layer = Literal["platform", "chat_type", "group", "session"]
MessageLike = Message | Mapping[str, Any]
T = TypeVar("T")


@dataclass(frozen=True)
class TurnContext:
    """:meth:`AsyncClient.turn_context`: the context messages and whether the recall
    behind them was ``degraded`` to full text (the query could not be embedded)."""

    messages: list[dict[str, Any]]
    degraded: bool = False
    degraded_reason: str | None = None
    #: The recall behind the messages, when asked for (``explain=True``); its hits carry
    #: no ``snippets``.
    recall: RecallResult | None = None


def _name_what_is_not_json(body: Any) -> None:
    """InvalidInput naming the argument (a field of the request's body, as the method
    names it: ``session``, ``now``, ``messages[0].metadata.a``) that JSON cannot send
    (NaN, bytes, an integer past str(), a lone surrogate, a value holding itself)."""
    for name, value in body.items() if isinstance(body, Mapping) else ():
        try:
            json.dumps(value, ensure_ascii=False, allow_nan=False).encode("utf-8")
        except (TypeError, ValueError, RecursionError) as exc:
            check_json(value, name)  # in the library's words
            raise InvalidInput(f"{name}: not JSON ({exc})") from None


def error_from_response(response: httpx.Response) -> ChatmemError:
    """The library error an error answer stands for (see the module docstring)."""
    status = response.status_code
    where = _request_named(response.request.method, response.request.url)
    # the server's words go into the error bounded, and never with the key in them (a
    # server echoing the request, or a proxy's error page, sends it back)
    key = response.request.headers.get("authorization", "").partition(" ")[2].strip()
    kind, message = "", ""
    try:
        body = response.json()
        detail = body["error"]
        kind, message = str(detail["type"]), _told(str(detail["message"]), key)
    except (ValueError, KeyError, TypeError, RecursionError):  # nested past Python's stack
        text = _told(response.text.strip(), key) or response.reason_phrase
        message = (f"{where}: HTTP {status}: {text} (not an error answer of chatmem serve: "
                   "is base_url its address, and is any proxy in between working?)")
    cls = _BY_TYPE.get(kind) or _BY_STATUS.get(status, ServerError)
    if status == 401:
        cls = Unauthorized
    exc: ChatmemError
    if status == 503 and kind == _BUSY_TYPE:
        exc = ServerBusy(f"{where}: {message}", retry_after=parse_retry_after(
            response.headers.get("retry-after"), cap=BUSY_WAIT_MAX_S))
    elif cls is EmbeddingUnavailable:
        exc = EmbeddingUnavailable(message, retry_decision="defer")
    elif cls is ServerError and kind:
        exc = ServerError(f"{where}: HTTP {status}: {message}")
    else:
        exc = cls(message)
    exc.http_status = status
    return exc


def _request_named(method: str, url: httpx.URL | str) -> str:
    """A request as every error of the client names it: its method and the URL it was
    sent to, ``base_url``'s path included (``GET http://127.0.0.1:8765/p/v1/stats``
    behind a proxy at ``/p``), without its query, a password in it hidden."""
    sent = httpx.URL(url) if isinstance(url, str) else url
    return f"{method} {_shown_url(str(sent.copy_with(query=None, fragment=None)))}"


#: The readers of one field of an answer's object below: each raises :class:`_Unread`
#: for a value the API would not send (or a missing one without a default), rather than
#: handing on a number where text belongs, a string "NaN" as a score or None as "None".
_MISSING: Any = object()


class _Unread(Exception):
    """A part of the server's answer that is missing or not what the API sends:
    ``field``, its place in the answer (``hits[0].score``; ``""``: the whole answer),
    and ``wrong``, what is wrong with it (``None``: it is missing). The readers below
    raise it; :meth:`AsyncClient._call` words it."""

    def __init__(self, field: str, wrong: str | None) -> None:
        super().__init__(field, wrong)
        self.field, self.wrong = field, wrong

    def within(self, outer: str) -> _Unread:
        """This one as a part of ``outer`` (``hits[0]`` + ``score``)."""
        inner = self.field if not self.field or self.field.startswith("[") \
            else f".{self.field}"
        return _Unread(outer + inner if outer else self.field, self.wrong)

    def words(self) -> str:
        """What is wrong, in chatmem's words."""
        if self.wrong is None:
            return f"the server's answer has no {as_given(self.field, 100)}"
        if not self.field:
            return f"the server's answer {self.wrong}"
        return f"{as_given(self.field, 100)} in the server's answer {self.wrong}"


def _part(outer: str, read: Callable[[Any], T], value: Any) -> T:
    """``read(value)`` of the part ``outer`` of an answer: what it finds wrong is named
    within ``outer``."""
    try:
        return read(value)
    except _Unread as exc:
        raise exc.within(outer) from None


def _nested(data: Any, key: str, read: Callable[[Any], T]) -> T:
    """``read`` of the field ``key`` of ``data``, which must be there."""
    return _part(key, read, _field(data, key, _MISSING))


def _each(data: Any, key: str, read: Callable[[Any], T], default: Any = _MISSING
          ) -> list[T]:
    """``read`` of each item of the list ``key`` of ``data``, named ``key[i]``."""
    return [_part(f"{key}[{i}]", read, item)
            for i, item in enumerate(_list(data, key, default))]


def _message(data: Any) -> Message:
    """A message as the server wrote it, checked as the library checks one (fields a
    newer server may add are left out; an older chatmem's empty speaker or platform,
    still in its store, read as none)."""
    try:
        return Message.from_dict(blank_labels_as_none(
            {k: v for k, v in _object(data).items() if k in _MESSAGE_FIELDS}))
    except InvalidInput as exc:
        raise _Unread("", f"is not a message chatmem reads ({exc})") from None


_MESSAGE_FIELDS = frozenset(Message.__dataclass_fields__)


def _hit(data: Any) -> Hit:
    return Hit(message=_nested(data, "message", _message), score=_number(data, "score"),
               semantic=_number(data, "semantic"), recency=_number(data, "recency"),
               boost=_number(data, "boost"),
               before=tuple(_each(data, "before", _message, ())),
               after=tuple(_each(data, "after", _message, ())))


def _recall_result(data: Any) -> RecallResult:
    """A :class:`RecallResult` from its JSON form (``snippets`` are not sent: empty)."""
    return RecallResult(
        query=_text_or_none(data, "query"), hits=tuple(_each(data, "hits", _hit, ())),
        text=_text(data, "text", ""), excluded=_counts(data, "excluded"),
        scope=_text(data, "scope", "all"), clamped=_flag(data, "clamped", False),
        degraded_reason=_text_or_none(data, "degraded_reason"),
        period=_part("period", _period, _field(data, "period", None)))


def _context_message(data: Any) -> dict[str, Any]:
    """A chat-completions message of ``POST /v1/context``: ``role`` and ``content`` (null
    beside ``tool_calls``), an assistant's ``tool_calls``, a tool's ``tool_call_id``."""
    out: dict[str, Any] = {"role": _text(data, "role")}
    if "tool_calls" in _object(data):  # content null only beside the calls
        out["content"] = _text_or_none(data, "content")
        out["tool_calls"] = _each(data, "tool_calls", _object)
    else:
        out["content"] = _text(data, "content")
    if "tool_call_id" in data:
        out["tool_call_id"] = _text(data, "tool_call_id")
    return out


def _turn_context(data: Any) -> TurnContext:
    return TurnContext(_each(data, "messages", _context_message),
                       degraded=_flag(data, "degraded", False),
                       degraded_reason=_text_or_none(data, "degraded_reason"),
                       recall=_nested(data, "recall", _recall_result)
                       if "recall" in _object(data) else None)


def _object(data: Any) -> dict[str, Any]:
    """A JSON object as the API sends one (anything else is not the API's answer)."""
    if not isinstance(data, dict):
        raise _Unread("", f"should be a JSON object, not {describe(data)}")
    return data


def _field(data: Any, key: str, default: Any) -> Any:
    value = _object(data).get(key, default)
    if value is _MISSING:
        raise _Unread(key, None)
    return value


def _as_written(value: Any) -> str:
    """A bad value of the server's answer for an error: as :func:`describe` says it, a
    number past a float's range (:class:`~chatmem.refusals.WrittenNumber`) as the server
    wrote it (shortened when long)."""
    if isinstance(value, WrittenNumber):
        text = value.text
    elif _whole(value) and not _finite(value):
        text = describe(value)  # an integer past a float: its digits, shortened
    else:
        return describe(value)
    return text if len(text) <= 40 else f"{text[:30]}… ({len(text)} characters)"


def _typed(data: Any, key: str, default: Any, ok: Callable[[Any], bool], kind: str) -> Any:
    """The field ``key`` of ``data`` when ``ok`` of it, else what is wrong: not ``kind``."""
    value = _field(data, key, default)
    if not ok(value):
        raise _Unread(key, f"should be {kind}, not {_as_written(value)}")
    return value


def _text(data: Any, key: str, default: Any = _MISSING) -> str:
    return str(_typed(data, key, default, lambda v: isinstance(v, str), "text"))


def _text_or_none(data: Any, key: str) -> str | None:
    value = _typed(data, key, None, lambda v: v is None or isinstance(v, str), "text or null")
    return None if value is None else str(value)


def _whole(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _int(data: Any, key: str, default: Any = _MISSING) -> int:
    return int(_typed(data, key, default, _whole, "an integer"))


def _finite(value: Any) -> bool:
    """A JSON number that a float holds, not infinity or NaN (an integer of 400 digits
    is not: ``float()`` of it overflows)."""
    if not (_whole(value) or isinstance(value, float)):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def _number(data: Any, key: str) -> float:
    return float(_typed(data, key, _MISSING, _finite, "a finite number"))


def _flag(data: Any, key: str, default: Any = _MISSING) -> bool:
    return bool(_typed(data, key, default, lambda v: isinstance(v, bool), "true or false"))


def _list(data: Any, key: str, default: Any = _MISSING) -> list[Any]:
    return list(_typed(data, key, default, lambda v: isinstance(v, (list, tuple)), "a list"))


def _mapping_field(data: Any, key: str) -> dict[str, Any]:
    """An object field (``metadata``, ``settings``); null or absent: empty."""
    value = _field(data, key, None)
    return {} if value is None else dict(_part(key, _object, value))


def _counts(data: Any, key: str) -> dict[str, int]:
    """An object of counts by name (``excluded``, ``states``); null or absent: none."""
    return _part(key, lambda counts: {str(k): _int(counts, k) for k in counts},
                 _mapping_field(data, key))


def _as_text(value: Any) -> str:
    """An item of a list of text (``sessions`` of ``GET /v1/whoami``)."""
    if not isinstance(value, str):
        raise _Unread("", f"should be text, not {describe(value)}")
    return value


def _period(data: Any) -> Period | None:
    """The named stretch of a recall from its JSON form (None from a server without it)."""
    if not data:
        return None
    return Period(_int(data, "start"), _int(data, "end"), _text(data, "words"),
                  only=_flag(data, "only", False))


def _session(data: Any) -> Session:
    """A session as the server wrote it (an older chatmem's empty resource, platform or
    group, still in its store, read as none, as an import reads it)."""
    data = blank_labels_as_none(_object(data), SESSION_TEXT_FIELDS)
    return Session(id=_text(data, "id"), parent_id=_text_or_none(data, "parent_id"),
                   resource_id=_text_or_none(data, "resource_id"),
                   origin_platform=_text_or_none(data, "origin_platform"),
                   chat_type=_text_or_none(data, "chat_type"),
                   group_id=_text_or_none(data, "group_id"),
                   group_name=_text_or_none(data, "group_name"),
                   metadata=_mapping_field(data, "metadata"),
                   settings=_mapping_field(data, "settings"))


def _session_summary(data: Any) -> SessionSummary:
    """A row of ``GET /v1/sessions`` (the fields :meth:`SessionSummary.to_dict` writes)."""
    scope, scope_layer = _part("scope", lambda v: (
        _text(v, "scope", "all"), _text(v, "layer", "config")), _mapping_field(data, "scope"))
    days, retention_layer = _part("retention", lambda v: (
        _int(v, "days", 0), _text(v, "layer", "config")), _mapping_field(data, "retention"))
    last_ts = _field(data, "last_ts", None)
    return SessionSummary(
        session=_session(data), platform=_text_or_none(data, "platform"),
        messages=_int(data, "messages", 0), states=_counts(data, "states"),
        last_ts=None if last_ts is None else _int(data, "last_ts"),
        last_platform=_text_or_none(data, "last_platform"),
        scope=scope, scope_layer=scope_layer, retention_days=days,
        retention_layer=retention_layer,
        # a server older than this field does not say: read as registered, as it was
        registered=_flag(data, "registered", True))


def _message_json(m: object, path: str, *, text: bool = False) -> Any:
    """A message to send, :class:`InvalidInput` naming ``path`` (``messages[1]``,
    ``turn[0]``: where the caller put it) when it is none (``text``: a turn's part,
    which may also be text)."""
    if isinstance(m, Message):
        return m.to_dict()
    if isinstance(m, Mapping):
        return dict(m)
    raise InvalidInput(f"{path}: expected {'text, ' if text else ''}a Message or a mapping, "
                       f"got {describe(m)}")


def _mapping(value: object, name: str) -> dict[str, Any]:
    """``value`` as a dict to send, :class:`InvalidInput` naming ``name`` when it is not
    a mapping (``dict()`` of it would raise a raw TypeError or ValueError)."""
    if not isinstance(value, Mapping):
        raise InvalidInput(f"{name} must be an object (a mapping), got {describe(value)}")
    return dict(value)


def _sequence(value: object, name: str) -> list[Any]:
    """``value`` as a list to send: a list or tuple, else :class:`InvalidInput`."""
    if not isinstance(value, (list, tuple)):
        raise InvalidInput(f"{name} must be a list, got {describe(value)}")
    return list(value)


def _session_path(session: str) -> str:
    check_label(session, "session")  # in the library's words; quote() needs UTF-8
    if "/" in session:  # the server decodes %2F before routing: no route would match
        raise InvalidInput(f"session {describe(session)}: the HTTP API cannot address a "
                           'session id holding "/" in /v1/sessions/{id}')
    return "/v1/sessions/" + quote(session, safe="")


#: An API key as an HTTP header can carry it: printable ASCII, no spaces at either end
#: (the server strips them, so the key would not be the one meant).
_KEY_RE = re.compile(r"[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?")


def _shown_url(url: str) -> str:
    """``url`` as an error may show it: a password in it hidden."""
    scheme, sep, rest = url.partition("://")
    authority, slash, path = rest.partition("/")
    user, at, host = authority.rpartition("@")
    if not (sep and at):
        return url
    return f"{scheme}://{user.partition(':')[0]}:***@{host}{slash}{path}"


def _refused_url(url: object) -> str:
    """A ``base_url`` refused, as a refusal shows a value: as JSON (``"ftp://h"``,
    ``5``), a password in it hidden."""
    return as_given(_shown_url(url), 200) if isinstance(url, str) else describe(url)


def _told(text: str, secret: str | None) -> str:
    """``text`` of the server's answer as an error carries it: without the API key (a
    server that echoes the request, or a proxy's error page, sends it back) and at most
    :data:`_MESSAGE_CHARS` long (a hostile answer's text may be as long as the answer)."""
    if secret:
        text = text.replace(secret, "***")
    return text if len(text) <= _MESSAGE_CHARS else text[:_MESSAGE_CHARS] + "…"


def _drop_none(body: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in body.items() if v is not None}


def _erased(data: Any) -> Erased:
    """What an erase or a forget went (the counts per kind), and the ids a delete found
    no message of (``not_found``; a forget's answer has none)."""
    messages, vectors, lexical, ann, points, cache = (_int(data, k, 0)
                                                      for k in Erased().to_dict())
    return Erased(messages, vectors, lexical, ann, points, cache,
                  tuple(_each(data, "not_found", _as_text, ())))


def _ids(ids: Sequence[str]) -> list[str]:
    """The distinct ids in order, checked as the library checks them (a list, tuple or
    set of non-empty strings, at most 10 000; a lone string is refused)."""
    return list(dict.fromkeys(id_list(ids, "ids")))


#: The longest text of one query parameter the client sends.
_MAX_QUERY_VALUE = 4096


def _query(params: Mapping[str, Any]) -> dict[str, str]:
    """Query parameters: ``None`` left out, integers as text. A value of the wrong type
    is refused in the library's words (a query holds text only: ``limit="5"`` and
    ``session=5`` reached the server as the same text as ``limit=5`` and ``session="5"``,
    which the library refuses): ``since``/``until`` times, ``limit`` 1 to 1000 (as
    :meth:`~chatmem.Memory.list_messages` and ``sessions`` check them), the rest text."""
    out: dict[str, str] = {}
    for k, v in params.items():
        if v is None:
            continue
        if k in ("since", "until"):
            check_ts(v, k)
        elif k == "limit":
            if isinstance(v, bool) or not isinstance(v, int) or not 1 <= v <= MAX_PAGE:
                raise InvalidInput(f"limit must be {LIMIT_TAKES}, got {describe(v)}")
        else:
            # a URL holds UTF-8 only, and httpx refuses one past 65,536 characters (every
            # value here is a label or a cursor: far shorter when good)
            check_text(v, k, max_chars=_MAX_QUERY_VALUE)
        out[k] = str(v)
    return out


class AsyncClient:
    """The HTTP API of ``chatmem serve`` with :class:`~chatmem.Memory`'s methods.

    ``api_key``: the bearer key (its namespace and role decide what is visible and
    allowed; None for an open server). ``timeout``: seconds per request, the whole
    exchange. ``max_response_bytes``: the largest answer read.
    ``transport``: an ``httpx`` async transport (tests: ``httpx.ASGITransport(app)``).
    """

    def __init__(self, base_url: str, api_key: str | None = None, *,
                 timeout: float = DEFAULT_TIMEOUT,
                 transport: httpx.AsyncBaseTransport | None = None,
                 connect_retries: int = 2,
                 max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
                 busy_retries: int = DEFAULT_BUSY_RETRIES) -> None:
        if not isinstance(base_url, str) or not base_url.startswith(("http://", "https://")):
            raise ConfigError("base_url must be an http:// or https:// URL, got "
                              f"{_refused_url(base_url)}")
        try:
            host = httpx.URL(base_url).host
        except httpx.InvalidURL as exc:
            raise ConfigError(f"base_url {_refused_url(base_url)} is not a valid URL "
                              f"({exc})") from None
        if not host:
            raise ConfigError(f"base_url {_refused_url(base_url)} names no host, e.g. "
                              "http://127.0.0.1:8765")
        if api_key is not None and not isinstance(api_key, str):
            raise ConfigError(f"api_key must be text (the key), got {type(api_key).__name__}")
        if api_key and not _KEY_RE.fullmatch(api_key):
            # the key itself is not shown: one with a line break reached the transport's
            # error message, one with a non-ASCII letter a raw UnicodeEncodeError
            raise ConfigError("api_key must be printable ASCII without leading or trailing "
                              "spaces (it is sent in an HTTP header); check it for a line "
                              "break or a stray character")
        if isinstance(timeout, bool) or not (isinstance(timeout, (int, float))
                                             and 0 < timeout <= 3600):
            raise ConfigError("timeout must be a number of seconds more than 0 and at most 3600, "
                              f"got {describe(timeout)}")
        if isinstance(connect_retries, bool) or not (isinstance(connect_retries, int)
                                                     and 0 <= connect_retries <= 10):
            raise ConfigError("connect_retries must be an integer from 0 to 10, got "
                              f"{describe(connect_retries)}")
        if isinstance(busy_retries, bool) or not (isinstance(busy_retries, int)
                                                  and 0 <= busy_retries <= 10):
            raise ConfigError("busy_retries must be an integer from 0 to 10, got "
                              f"{describe(busy_retries)}")
        if isinstance(max_response_bytes, bool) or not (
                isinstance(max_response_bytes, int) and max_response_bytes >= 1024):
            raise ConfigError(f"max_response_bytes must be an integer of at least 1024, "
                              f"got {describe(max_response_bytes)}")
        self.timeout = float(timeout)
        self.max_response_bytes = max_response_bytes
        headers = {"Accept": "application/json"}
        if api_key:
            headers["Authorization"] = f"Bearer {api_key}"
        self.base_url = base_url.rstrip("/")
        self._secret = api_key or None
        self.connect_retries = connect_retries
        self.busy_retries = busy_retries
        self._http = httpx.AsyncClient(base_url=self.base_url, headers=headers,
                                       timeout=httpx.Timeout(timeout), transport=transport,
                                       follow_redirects=False)

    async def __aenter__(self) -> AsyncClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close the connections (idempotent)."""
        await self._http.aclose()

    # ------------------------------------------------------------------ transport

    def _named(self, method: str, path: str) -> str:
        """The request of ``path`` as errors name it (:func:`_request_named`)."""
        return _request_named(method, self.base_url + path)

    async def _send(self, method: str, path: str, *, body: Any = None,
                    params: Mapping[str, str] | None = None) -> httpx.Response:
        if self._http.is_closed:  # as Memory after close(); httpx raised a RuntimeError
            raise StoreClosed(f"{self._named(method, path)}: the client is closed; open a "
                              "new one")
        content = None
        headers = {}
        if body is not None:
            try:
                content = json.dumps(body, ensure_ascii=False, allow_nan=False).encode("utf-8")
            except (TypeError, ValueError, RecursionError) as exc:
                _name_what_is_not_json(body)
                raise InvalidInput(f"{self._named(method, path)}: the body is not JSON: "
                                   f"{exc}") from exc
            headers["Content-Type"] = "application/json"
        busy_left = self.busy_retries
        while True:
            response = await self._send_once(method, path, content, params, headers)
            if response.status_code < 400:
                break
            error = error_from_response(response)
            if not isinstance(error, ServerBusy) or busy_left == 0:
                raise error
            busy_left -= 1  # not worked on: sending it again is safe
            wait = 1.0 if error.retry_after is None else error.retry_after
            await asyncio.sleep(wait * (1 + random.random() / 2))
        if response.is_redirect:  # the key would go wherever it points: not followed
            err = ServerError(
                f"{self._named(method, path)}: HTTP {response.status_code} to "
                f"{as_given(_told(response.headers.get('location', ''), self._secret), 200)}"
                ", not followed (give the server's own address as base_url)")
            err.http_status = response.status_code
            raise err
        return response

    async def _send_once(self, method: str, path: str, content: bytes | None,
                         params: Mapping[str, str] | None, headers: Mapping[str, str]
                         ) -> httpx.Response:
        """One request sent and its answer read, whatever its status; a connection that
        could not be opened is tried ``connect_retries`` more times."""
        for attempt in range(self.connect_retries + 1):
            try:
                response = await wait_within(
                    self._exchange(method, path, content, params, headers), self.timeout)
            except asyncio.TimeoutError as exc:
                raise ConnectionFailed(f"{self._named(method, path)}: no whole answer "
                                       f"within {self.timeout:g} s (timeout)") from exc
            except httpx.ConnectError as exc:  # nothing reached the server: safe to retry
                if attempt < self.connect_retries:
                    await asyncio.sleep(0.2 * 2 ** attempt)
                    continue
                raise ConnectionFailed(f"{self._named(method, path)}: cannot connect "
                                       f"({exc})") from exc
            except httpx.DecodingError as exc:  # an answer, but not one to read
                err = ServerError(f"{self._named(method, path)}: the answer's body cannot "
                                  f"be decoded ({exc})")
                raise err from exc
            except httpx.TimeoutException as exc:
                raise ConnectionFailed(f"{self._named(method, path)}: timed out "
                                       f"({type(exc).__name__})") from exc
            except httpx.HTTPError as exc:
                raise ConnectionFailed(f"{self._named(method, path)}: {type(exc).__name__}:"
                                       f" {exc}") from exc
            return response
        raise AssertionError("unreachable")  # pragma: no cover

    async def _exchange(self, method: str, path: str, content: bytes | None,
                        params: Mapping[str, str] | None, headers: Mapping[str, str]
                        ) -> httpx.Response:
        """One request, its answer read whole up to :attr:`max_response_bytes`."""
        try:
            return await read_bounded(self._http, method, path,
                                      limit=self.max_response_bytes, content=content,
                                      params=params, headers=headers)
        except AnswerTooLarge as exc:
            err = ServerError(f"{self._named(method, path)}: the answer is larger than "
                              f"max_response_bytes ({exc.limit}); not read further")
            err.http_status = exc.status
            raise err from exc

    async def _json(self, method: str, path: str, *, body: Any = None,
                    params: Mapping[str, str] | None = None) -> Any:
        response = await self._send(method, path, body=body, params=params)
        try:
            return response.json(parse_float=read_float, parse_constant=WrittenNumber)
        except (ValueError, RecursionError) as exc:  # nested past Python's stack
            err = self._unreadable(method, path, "the server's answer is not JSON" + (
                " (nested too deeply)" if isinstance(exc, RecursionError) else ""))
            err.http_status = response.status_code
            raise err from exc

    async def _call(self, method: str, path: str, read: Callable[[Any], T], *,
                    body: Any = None, params: Mapping[str, str] | None = None) -> T:
        """``read`` applied to the JSON answer: the one place every answer is read. One
        it cannot read (a field missing or not what the API sends) is a
        :class:`ServerError` naming the request and the field, in chatmem's words."""
        data = await self._json(method, path, body=body, params=params)
        try:
            return read(data)
        except _Unread as exc:
            raise self._unreadable(method, path, exc.words()) from None
        except (KeyError, IndexError, TypeError, ValueError, AttributeError, OverflowError,
                RecursionError, InvalidInput) as exc:  # past the readers' own checks
            err = self._unreadable(method, path, f"the server's answer cannot be read ({exc})")
            if self._secret and self._secret in str(exc):  # it quotes the answer's text
                raise err from None
            raise err from exc

    def _unreadable(self, method: str, path: str, wrong: str) -> ServerError:
        """The error of a 200 whose body is not the API's answer (``wrong``: what)."""
        err = ServerError(f"{self._named(method, path)}: {_told(wrong, self._secret)}; is "
                          "base_url a chatmem server?")
        err.http_status = 200
        return err

    # ------------------------------------------------------------------ writing

    async def add(self, messages: MessageLike | Sequence[MessageLike], *,
                  session: str | None = None, platform: str | None = None,
                  speaker_id: str | None = None, speaker_name: str | None = None
                  ) -> list[Message]:
        """Store messages (committed before this returns) and queue them for indexing:
        ``POST /v1/messages``. ``session`` (and ``platform``, and ``speaker_id`` /
        ``speaker_name`` for the user messages) apply to every mapping that gives none,
        e.g. an OpenAI message list as is. The stored messages come back with ``id``
        and ``ts``."""
        batch = [messages] if isinstance(messages, (Message, Mapping)) \
            else _sequence(messages, "messages")
        if not batch:
            return []
        sent = [_message_json(m, f"messages[{i}]") for i, m in enumerate(batch)]
        body = {"messages": sent, **_drop_none({
            "session_id": session, "platform": platform, "speaker_id": speaker_id,
            "speaker_name": speaker_name})}
        return await self._call("POST", "/v1/messages",
                                lambda data: _each(data, "messages", _message),
                                body=body)

    async def rewrite(self, session: str, ts: int, *, content: str | None = None,
                      visible_content: str | None = None,
                      metadata: Mapping[str, Any] | None = None,
                      visible_from: str | None = None, platform: str | None = None
                      ) -> Message:
        """Change a stored message, found by session and ts (F3): ``POST /v1/rewrite``.
        ``visible_from`` (required with a user key): only a message that conversation
        may see (``NotFound`` otherwise)."""
        body = _drop_none({"session": session, "ts": ts, "content": content,
                           "visible_content": visible_content,
                           "metadata": None if metadata is None
                           else _mapping(metadata, "metadata"),
                           "visible_from": visible_from, "platform": platform})
        return await self._call("POST", "/v1/rewrite",
                                lambda data: _nested(data, "message", _message), body=body)

    async def upsert_session(self, session: Session | Mapping[str, Any]) -> Session:
        """Register a session or replace its fields (owner keys): ``PUT /v1/sessions/{id}``.
        Its ``settings`` (a free JSON field) the HTTP API cannot change: the server keeps
        the stored ones. So none (``{}``) or the stored ones (what :meth:`get_session`
        returned) are taken, and others are refused (:class:`InvalidInput` naming
        ``session.settings``, nothing sent) rather than dropped; they are compared with
        the server's first (one more request). The scope and retention settings are
        apart from it: :meth:`set_scope`, :meth:`set_retention`. A session the library
        refuses is refused in its words (:func:`~chatmem.models.validate_session`),
        nothing sent."""
        validate_session(session, tuples=True)  # sent as JSON: a tuple is a list
        fields = session.to_dict() if isinstance(session, Session) \
            else _mapping(session, "session")
        sid = fields.pop("id", None)
        path = _session_path(sid)
        settings = fields.pop("settings", None)
        body = {k: (_mapping(v, "session.metadata") if k == "metadata" else v)
                for k, v in fields.items() if v is not None}
        if settings is not None:  # none: the stored ones kept, as the server does
            wanted = _mapping(settings, "session.settings")
            check_json(wanted, "session.settings")
            # compared as JSON reads them back (a tuple equals the list the server holds)
            wanted = as_stored_json(wanted)
            if wanted:
                await self._settings_kept(sid, wanted)
        return await self._call("PUT", path, lambda data: _nested(data, "session", _session),
                                body=body)

    async def _settings_kept(self, session: str, settings: dict[str, Any]) -> None:
        """Refuse ``settings`` unless the server holds them already for ``session``
        (``PUT /v1/sessions/{id}`` keeps the stored ones: others would be lost)."""
        stored = await self.get_session(session)
        held = {} if stored is None else as_stored_json(stored.settings)
        if settings != held:
            raise InvalidInput(
                f"session.settings {as_given(settings, 200)}: the HTTP API cannot change a "
                f"session's settings (PUT /v1/sessions/{{id}} keeps the stored ones, "
                f"{as_given(held, 200)}); pass the settings get_session returns (or none) "
                "to change the other fields, and change settings with the library on the "
                "store (Memory.upsert_session); scope and retention are set_scope and "
                "set_retention")

    async def clear(self, target: str = "all", *, session: str | None = None
                    ) -> dict[str, int]:
        """Clear ``vector``, ``context`` or ``all`` (F12, owner keys): ``POST /v1/clear``."""
        return await self._call("POST", "/v1/clear",
                                lambda data: {k: _int(data, k) for k in _object(data)},
                                body=_drop_none({"target": target, "session": session}))

    # ------------------------------------------------------------------ read and erase

    async def get(self, ids: Sequence[str], *, visible_from: str | None = None,
                  platform: str | None = None) -> dict[str, Message]:
        """The stored messages of ``ids``, in the order asked; unknown ids (and, with
        ``visible_from``, those that session may not see) are left out:
        ``POST /v1/messages/get``. A user key needs ``visible_from``. Over 1000 ids go
        in several requests, and fewer when the server says their text is too much for
        one answer."""
        wanted = _ids(ids)
        found: dict[str, Message] = {}
        batches = [wanted[start:start + IDS_PER_REQUEST]
                   for start in range(0, len(wanted), IDS_PER_REQUEST)]
        while batches:
            batch = batches.pop(0)
            body = _drop_none({"ids": batch, "visible_from": visible_from,
                               "platform": platform})
            try:
                page = await self._call("POST", "/v1/messages/get",
                                        lambda data: _each(data, "messages", _message),
                                        body=body)
            except InvalidInput as exc:  # too much text for one answer: halves
                if len(batch) < 2 or not str(exc).startswith(TOO_MUCH_TEXT):
                    raise
                batches[:0] = [batch[:len(batch) // 2], batch[len(batch) // 2:]]
                continue
            found.update((msg.id, msg) for msg in page if msg.id is not None)
        return {i: found[i] for i in wanted if i in found}

    async def list_messages(self, *, session: str | None = None,
                            speaker_id: str | None = None, since: int | None = None,
                            until: int | None = None, limit: int = 100,
                            cursor: str | None = None, visible_from: str | None = None,
                            platform: str | None = None, text: str | None = None,
                            newest_first: bool = False) -> MessagePage:
        """One page of stored messages ordered by ``(ts, id)``: ``GET /v1/messages``.
        Pass the page's ``next_cursor`` as ``cursor`` for the next (``None``: the last
        page). ``text``: only those containing it, ignoring case. ``newest_first``: the
        latest first (pass it again with the cursor). A user key needs
        ``visible_from``. Also available as :meth:`list`."""
        if not isinstance(newest_first, bool):
            raise InvalidInput(f"newest_first must be true or false, got "
                               f"{describe(newest_first)}")
        params = _query({"session": session, "speaker_id": speaker_id, "since": since,
                         "until": until, "limit": limit, "cursor": cursor,
                         "visible_from": visible_from, "platform": platform, "text": text,
                         "newest_first": "true" if newest_first else None})
        return await self._call("GET", "/v1/messages", lambda data: MessagePage(
            tuple(_each(data, "messages", _message)),
            _text_or_none(data, "next_cursor")),
            params=params)

    async def delete(self, ids: Sequence[str]) -> int:
        """Erase these messages everywhere; returns how many there were (unknown ids
        are ignored): ``POST /v1/messages/delete``. Owner keys only. Over 1000 ids go
        in several requests."""
        wanted = _ids(ids)
        deleted = 0
        for start in range(0, len(wanted), IDS_PER_REQUEST):
            deleted += await self._call(
                "POST", "/v1/messages/delete", lambda data: _int(data, "deleted"),
                body={"ids": wanted[start:start + IDS_PER_REQUEST]})
        return deleted

    async def erase(self, ids: Sequence[str], *, dry_run: bool = False) -> Erased:
        """:meth:`delete`, saying what went per kind (as :meth:`forget`) and which ids
        matched nothing (``not_found``): ``POST /v1/messages/delete``. ``dry_run``:
        erase nothing, count what would go. Owner keys only. Over 1000 ids go in
        several requests."""
        check_flag(dry_run, "dry_run")  # "no" or 0 read as true or false: refused
        wanted = _ids(ids)
        erased = Erased()
        for start in range(0, len(wanted), IDS_PER_REQUEST):
            erased += await self._call(
                "POST", "/v1/messages/delete",
                _erased,
                body={"ids": wanted[start:start + IDS_PER_REQUEST],
                      **({"dry_run": True} if dry_run else {})})
        return erased

    async def forget(self, *, speaker_id: str | None = None, session: str | None = None,
                     resource_id: str | None = None, dry_run: bool = False) -> Erased:
        """Erase everything of one speaker, session or resource (exactly one) and say
        what went, per kind: ``POST /v1/forget``. ``dry_run``: erase nothing, count
        what would go. Owner keys only."""
        check_flag(dry_run, "dry_run")
        return await self._call(
            "POST", "/v1/forget", _erased,
            body=_drop_none({"speaker_id": speaker_id, "session": session,
                             "resource_id": resource_id, "dry_run": dry_run or None}))

    async def set_retention(self, days: int | None, *, layer: Layer = "session",
                            platform: str | None = None, chat_type: str | None = None,
                            group_id: str | None = None, session: str | None = None) -> None:
        """Set (``None``: remove) one settings layer's retention in days (0: keep
        forever): ``PUT /v1/retention``. Owner keys only; the acting owner is the key."""
        body: dict[str, Any] = {"days": days, "layer": layer}
        body.update(_drop_none({"platform": platform, "chat_type": chat_type,
                                "group_id": group_id, "session": session}))
        await self._json("PUT", "/v1/retention", body=body)

    async def effective_retention(self, session: str, platform: str | None = None
                                  ) -> EffectiveRetention:
        """The retention of ``session`` now (days, 0 = forever) and the layer it comes
        from: ``GET /v1/retention``."""
        return await self._call(
            "GET", "/v1/retention",
            lambda data: EffectiveRetention(days=_int(data, "days"),
                                            layer=_text(data, "layer"),
                                            broken=_flag(data, "broken", False)),
            params=_query({"session": session, "platform": platform}))

    # ------------------------------------------------------------------ recall

    async def recall(
        self,
        query: str | Sequence[str],
        *,
        session: str | None = None,
        platform: str | None = None,
        top_k: int | None = None,
        min_score: float | None = None,
        scope: str | None = None,
        window: int | Mapping[str, int] | None = None,
        cross_session: bool | None = None,
        filter: Mapping[str, Any] | None = None,
        speakers: Sequence[str] = (),
        exclude_ids: Sequence[str] = (),
        now: int | None = None,
        follow_replies: bool | None = None,
    ) -> RecallResult:
        """Recall past messages relevant to ``query``: ``POST /v1/recall``. With a user key
        ``session`` is required and ``scope`` may only narrow (``clamped`` says so).
        ``follow_replies=False``: no reply or sitting inherits a match's score. The
        result has no ``snippets`` (the API does not send them)."""
        if filter is not None and not isinstance(filter, Mapping):
            raise FilterError(f"filter must be a mapping, got {describe(filter)}")
        body = _drop_none({
            "query": query if isinstance(query, str) else _sequence(query, "query"),
            "session": session,
            "platform": platform, "top_k": top_k, "min_score": min_score, "scope": scope,
            "window": dict(window) if isinstance(window, Mapping) else window,
            "cross_session": cross_session,
            "filter": dict(filter) if filter is not None else None,
            "speakers": list(id_list(speakers, "speakers")),
            "exclude_ids": list(id_list(exclude_ids, "exclude_ids")), "now": now,
            "follow_replies": follow_replies})
        return await self._call("POST", "/v1/recall", _recall_result, body=body)

    async def turn_context(self, turn: str | MessageLike | Sequence[str | MessageLike], *,
                           session: str, platform: str | None = None,
                           speakers: Sequence[str] = (), exclude_ids: Sequence[str] = (),
                           now: int | None = None, explain: bool = False) -> TurnContext:
        """:meth:`context`'s messages and whether the recall was degraded:
        ``POST /v1/context``. ``turn``: this turn's text(s) or messages (an OpenAI message
        list as is). ``explain=True`` also returns the recall behind them."""
        if not isinstance(explain, bool):
            raise InvalidInput(f"explain must be true or false, got {describe(explain)}")
        one = isinstance(turn, (str, Message, Mapping))
        turns = [turn] if one else _sequence(turn, "turn")
        # each part named as Memory.context names it: turn[1], or turn for one message
        parts = [t if isinstance(t, str) else _message_json(t, "turn" if one else f"turn[{i}]",
                                                            text=True)
                 for i, t in enumerate(turns)]
        if one and not isinstance(turn, str):
            _name_what_is_not_json({"turn": parts[0]})
        body = {"turn": turn if isinstance(turn, str) else parts,
                "session": session, "speakers": list(id_list(speakers, "speakers")),
                "exclude_ids": list(id_list(exclude_ids, "exclude_ids")),
                **_drop_none({"platform": platform, "now": now}),
                **({"explain": True} if explain else {})}
        return await self._call("POST", "/v1/context", _turn_context, body=body)

    async def context(self, turn: str | MessageLike | Sequence[str | MessageLike], *,
                      session: str, platform: str | None = None,
                      speakers: Sequence[str] = (), exclude_ids: Sequence[str] = (),
                      now: int | None = None) -> list[dict[str, Any]]:
        """The messages to put before the conversation (M2): the recall system message
        (when anything is recalled) and the session's last messages."""
        return (await self.turn_context(turn, session=session, platform=platform,
                                        speakers=speakers, exclude_ids=exclude_ids,
                                        now=now)).messages

    # ------------------------------------------------------------------ settings

    async def effective_scope(self, session: str, platform: str | None = None
                              ) -> EffectiveScope:
        """The scope recalls from ``session`` use now and its layer (F10):
        ``GET /v1/settings``."""
        params = _query({"session": session, "platform": platform})
        return await self._call(
            "GET", "/v1/settings",
            lambda data: EffectiveScope(scope=_text(data, "scope"), layer=_text(data, "layer"),
                                        broken=_flag(data, "broken", False)),
            params=params)

    async def set_scope(self, scope: str | None, *, layer: Layer = "session",
                        platform: str | None = None, chat_type: str | None = None,
                        group_id: str | None = None, session: str | None = None) -> None:
        """Set (``None``: remove) one settings layer's scope: ``PUT /v1/settings``. Owner
        keys only; the acting owner is the key (no ``actor`` argument)."""
        body: dict[str, Any] = {"scope": scope, "layer": layer}
        body.update(_drop_none({"platform": platform, "chat_type": chat_type,
                                "group_id": group_id, "session": session}))
        await self._json("PUT", "/v1/settings", body=body)

    async def get_session(self, session: str) -> Session | None:
        """The registered session ``session`` (its settings included), or ``None``:
        ``GET /v1/sessions/{id}``."""
        try:
            return await self._call("GET", _session_path(session),
                                    lambda data: _nested(data, "session", _session))
        except NotFound as exc:
            if exc.http_status == 404 and "not registered" in str(exc):
                return None
            raise

    async def sessions(self, *, limit: int = 100, after: str | None = None,
                       visible_from: str | None = None) -> SessionsPage:
        """One page of sessions ordered by id (pass ``next_after`` as ``after`` for the
        next): labels, message counts per index state, last activity, effective scope
        and retention with their layers: ``GET /v1/sessions``. A user key must pass
        ``visible_from`` (its conversation) and gets that session only."""
        params = _query({"limit": limit, "after": after, "visible_from": visible_from})
        return await self._call("GET", "/v1/sessions", lambda data: SessionsPage(
            tuple(_each(data, "sessions", _session_summary)),
            _text_or_none(data, "next_after")), params=params)

    async def whoami(self) -> dict[str, Any]:
        """The calling key's ``name``, ``namespace`` and ``role`` (``user`` or
        ``owner``), and the ``sessions`` and ``platform`` a bound user key acts for
        (``None``: not bound; a server before them leaves them out): ``GET
        /v1/whoami``."""
        def read(data: Any) -> dict[str, Any]:
            out: dict[str, Any] = {k: _text(data, k) for k in ("name", "namespace", "role")}
            sessions = _field(data, "sessions", None)
            out["sessions"] = None if sessions is None else _each(data, "sessions", _as_text)
            out["platform"] = _text_or_none(data, "platform")
            return out

        return await self._call("GET", "/v1/whoami", read)

    # ------------------------------------------------------------------ tool

    async def tool_schema(self, *, strict: bool = False) -> dict[str, Any]:
        """The ``memory_recall`` tool in OpenAI tools format (I2): ``GET /v1/tool``;
        ``strict=True``: the form OpenAI's strict function calling takes
        (``GET /v1/tool?strict=true``)."""
        if not isinstance(strict, bool):
            raise InvalidInput(f"strict must be true or false, got {describe(strict)}")
        return await self._call("GET", "/v1/tool", _object,
                                params=_query({"strict": "true" if strict else None}))

    async def call_tool(self, arguments: Mapping[str, Any] | str,
                        caller: Mapping[str, Any]) -> dict[str, Any]:
        """Run ``memory_recall`` with the model's arguments for ``caller``
        (``session_id``, ``speaker_id``, ``platform``): ``POST /v1/tool``."""
        body = {"arguments": arguments if isinstance(arguments, str)
                else _mapping(arguments, "arguments"),
                "caller": _drop_none(_mapping(caller, "caller"))}
        return await self._call("POST", "/v1/tool", _object, body=body)

    # ------------------------------------------------------------------ operations

    async def stats(self) -> dict[str, Any]:
        """Counts of messages, vectors, indexer and embedder state: ``GET /v1/stats``.
        Owner keys only: they count every conversation of the namespace (a user key gets
        :class:`~chatmem.errors.PermissionDenied`; its own conversation's counts are on
        :meth:`sessions` with ``visible_from``)."""
        return await self._call("GET", "/v1/stats", _object)

    async def health(self) -> dict[str, Any]:
        """Liveness (no key needed): ``GET /health``."""
        return await self._call("GET", "/health", _object)

    async def metrics(self) -> str:
        """The Prometheus text of ``GET /metrics``."""
        return (await self._send("GET", "/metrics")).text

    #: :meth:`list_messages` (last in the class: the name shadows the builtin here).
    list = list_messages


class Client(BlockingWrapper[AsyncClient]):
    """Blocking :class:`AsyncClient` for scripts (same arguments, methods and errors)::

        with Client("http://127.0.0.1:8765", api_key="…") as mem:
            mem.add({"session_id": "s1", "content": "I prefer oat milk"})
    """

    #: A call after close(), as :class:`AsyncClient` (and Memory) raise.
    closed_error = StoreClosed
    #: A call from a forked process, or from the client's own loop thread.
    usage_error = InvalidInput
    #: A call whose task something on its loop cancelled (not close(), not its caller).
    cancelled_error = EventLoopMisuse

    def __init__(self, base_url: str, api_key: str | None = None, *,
                 timeout: float = DEFAULT_TIMEOUT,
                 transport: httpx.AsyncBaseTransport | None = None,
                 connect_retries: int = 2,
                 max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
                 busy_retries: int = DEFAULT_BUSY_RETRIES) -> None:
        async def make() -> AsyncClient:  # on the wrapper's loop: the pool binds to it
            return AsyncClient(base_url, api_key, timeout=timeout, transport=transport,
                               connect_retries=connect_retries,
                               max_response_bytes=max_response_bytes,
                               busy_retries=busy_retries)

        super().__init__(make)

    @property
    def async_client(self) -> AsyncClient:
        """The async client underneath."""
        return self._inner

    @staticmethod
    async def _aclose_object(inner: AsyncClient) -> None:
        await inner.close()

    add = blocking(AsyncClient.add)
    rewrite = blocking(AsyncClient.rewrite)
    upsert_session = blocking(AsyncClient.upsert_session)
    clear = blocking(AsyncClient.clear)
    get = blocking(AsyncClient.get)
    list_messages = blocking(AsyncClient.list_messages)
    delete = blocking(AsyncClient.delete)
    erase = blocking(AsyncClient.erase)
    forget = blocking(AsyncClient.forget)
    set_retention = blocking(AsyncClient.set_retention)
    effective_retention = blocking(AsyncClient.effective_retention)
    recall = blocking(AsyncClient.recall)
    turn_context = blocking(AsyncClient.turn_context)
    context = blocking(AsyncClient.context)
    effective_scope = blocking(AsyncClient.effective_scope)
    set_scope = blocking(AsyncClient.set_scope)
    get_session = blocking(AsyncClient.get_session)
    sessions = blocking(AsyncClient.sessions)
    whoami = blocking(AsyncClient.whoami)
    tool_schema = blocking(AsyncClient.tool_schema)
    call_tool = blocking(AsyncClient.call_tool)
    stats = blocking(AsyncClient.stats)
    health = blocking(AsyncClient.health)
    metrics = blocking(AsyncClient.metrics)
    #: :meth:`list_messages` (last in the class: the name shadows the builtin here).
    list = list_messages


__all__ = ["AsyncClient", "Client", "TurnContext", "error_from_response"]
