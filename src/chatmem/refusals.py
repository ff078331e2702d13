"""Schema refusals in chatmem's words, for both servers and the ``memory_recall`` tool.

The HTTP API's 422 (a body or query string its schema refuses), the MCP server's
tool error (arguments a tool's schema refuses) and :func:`chatmem.tool.parse_tool_arguments`
(a model's ``memory_recall`` arguments, whichever way they come: the library, ``POST
/v1/tool``, MCP, the integrations) word pydantic's errors as the library's own refusals
do, one clause each: the field as chatmem names it (``messages[0].ts``), what it must be
and the value as sent (``messages[0].ts must be an integer, got "1000"``, ``limit must
be at most 50, got 51``), not pydantic's ``messages.0.ts: Input should be a valid
integer``. One function words them all, so a model or a user reads a refusal the same
way whichever door it came through. It sits at the bottom of the layers (it needs only
pydantic), so that the tool, below the servers, can use it.
"""

from __future__ import annotations

import contextlib
import difflib
import itertools
import json
import math
import re
import reprlib
import sys
import types
import typing
from collections.abc import Mapping, Sequence
from typing import Annotated, Any

from pydantic import BaseModel


class _NotJson(Exception):
    """A value (or a part of one) that JSON does not hold, for :data:`_as_json`."""


class _PythonRepr(reprlib.Repr):
    """:class:`reprlib.Repr` that shows an integer of more digits than Python converts
    to text (``sys.get_int_max_str_digits``) by its size, where reprlib raises."""

    def repr_int(self, x: int, level: int) -> str:
        return _int_shown(x) or super().repr_int(x, level)


def _int_shown(x: int) -> str | None:
    """An integer too long for ``str()`` (``ValueError: Exceeds the limit (4300 digits)
    for integer string conversion``) in words, any other ``None``."""
    limit = sys.get_int_max_str_digits()
    if limit and x.bit_length() > 3 * limit and abs(x) >= 10 ** limit:
        return f"an integer of more than {limit:,} digits"
    return None


class _JsonRepr(_PythonRepr):
    """:class:`reprlib.Repr` written as JSON: ``"5"``, ``5``, ``true``, ``null``, ``[1,
    2]``, ``{"a": 1}``, shortened as reprlib shortens (``...``); a value JSON does not
    hold (a tuple, bytes, NaN, an object, a key that is not a string) raises
    :class:`_NotJson`."""

    def repr_str(self, x: str, level: int) -> str:
        cut = x[:self.maxstring]
        try:
            cut.encode("utf-8")  # a lone surrogate is shown as its escape (as_given)
            text = json.dumps(cut, ensure_ascii=False)
        except UnicodeEncodeError:
            text = json.dumps(cut)
        return text if cut == x else f"{text[:-1]}...\""

    def repr_bool(self, x: bool, level: int) -> str:
        return "true" if x else "false"

    def repr_NoneType(self, x: None, level: int) -> str:  # reprlib's name for it
        return "null"

    def repr_float(self, x: float, level: int) -> str:
        if isinstance(x, _Written):
            return x.shown
        if not math.isfinite(x):
            raise _NotJson
        return repr(x)

    def repr_dict(self, x: dict[Any, Any], level: int) -> str:
        if any(not isinstance(key, str) for key in x):
            raise _NotJson
        if x and level <= 0:
            return "{...}"
        pieces = [f"{self.repr1(k, level - 1)}: {self.repr1(v, level - 1)}"
                  for k, v in itertools.islice(x.items(), self.maxdict)]  # as given
        return "{" + ", ".join(pieces + ["..."] * (len(x) > self.maxdict)) + "}"

    def repr_instance(self, x: object, level: int) -> str:
        raise _NotJson

    repr_tuple = repr_set = repr_frozenset = repr_deque = repr_array = repr_instance


_W = typing.TypeVar("_W", bound="_Written")


class _Written(float):
    """A float read from a JSON number it cannot hold as written, with :attr:`text`, the
    number as it was written, for an error (:func:`read_float`)."""

    text: str

    def __new__(cls: type[_W], text: str) -> _W:
        number = super().__new__(cls, text)
        number.text = text
        return number

    @property
    def written(self) -> str:
        """:attr:`text`, shortened when long."""
        return self.text if len(self.text) <= 40 else \
            f"{self.text[:30]}… ({len(self.text)} characters)"

    @property
    def shown(self) -> str:
        """The number as written, shortened when long, and what is wrong with it."""
        return self.written


class WrittenNumber(_Written):
    """A JSON number a float cannot hold (past ±1.7976931348623157e308), read as
    Python's ``json`` reads it (infinity) with :attr:`text`, the number as it was
    written (also ``NaN``/``Infinity``, not JSON, when a reader takes them so), for an
    error: ``1e400`` was sent, not ``Infinity`` (:func:`read_float`)."""

    @property
    def shown(self) -> str:
        """The number as written, shortened when long, and what is wrong with it: ``1e400,
        a number too large``; ``NaN`` and ``Infinity`` as they are."""
        if not self.text[-1:].isdigit():  # NaN, Infinity
            return self.written
        return f"{self.written}, a number too {'large' if self > 0 else 'far below zero'}"


class WrittenTiny(_Written):
    """A JSON number too close to zero for a float (``1e-400``), which reads as 0.0 (or
    -0.0), with :attr:`text`, the number as it was written, for an error: ``1e-400`` was
    sent, not ``0.0`` (:func:`read_float`). Anywhere else, the float it reads as."""

    @property
    def shown(self) -> str:
        """The number as written, shortened when long: ``1e-400, a number too close to
        zero``."""
        return f"{self.written}, a number too close to zero"


def read_float(text: str) -> float:
    """A JSON number with a fraction or an exponent (``json.loads``' ``parse_float``): one
    past a float's range is a :class:`WrittenNumber`, one too close to zero for it (not
    zero as written: ``1e-400``) a :class:`WrittenTiny`, so a refusal says what was sent."""
    number = float(text)
    if not math.isfinite(number):
        return WrittenNumber(text)
    if number == 0 and any(map(text.lower().partition("e")[0].__contains__, "123456789")):
        return WrittenTiny(text)
    return number


_as_json = _JsonRepr()
_as_json.maxstring = _as_json.maxother = 40


class DuplicateKey(ValueError):
    """A JSON object names one key twice (:func:`one_of_each`)."""


def one_of_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """``object_pairs_hook`` of JSON a caller sends (an HTTP body, a command-line
    option): refuse a key given twice (:class:`DuplicateKey`). Parsers disagree on
    which one counts (Python's and most keep the last, some the first), so a proxy, a
    log or a review that read ``{"dry_run": true, "dry_run": false}`` saw a dry run
    where the server erased a session."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def describe(value: object) -> str:
    """A short, safe description of a bad value for an error message (never recurses
    without bound, never prints a whole huge payload): as JSON when JSON holds it, as
    the HTTP API's refusals show a value sent (``"5"``, ``5``, ``true``, ``null``, ``[1,
    2]``: a string keeps its quotes, as its type may be what is wrong), else its Python
    type and repr (``tuple (1, 2)``, ``bytes b'x'``, ``float nan``)."""
    with contextlib.suppress(_NotJson):
        return _as_json.repr(value)
    return f"{type(value).__name__} {_python.repr(value)}"


def bound(value: object) -> str:
    """A bound of a refusal (``at least 0``, ``more than 0.5``) as a user reads the
    number: a whole float as the integer JSON's reader sees (``0``, not Python's
    ``0.0``; ``1000000``, not ``1e+06``), any other as it is."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2 ** 53:
        return str(int(value))
    return str(value)


def checked_number(error: type[Exception], name: str, value: object, *,
                   integer: bool = False, least: float | None = None,
                   more: float | None = None, most: float | None = None,
                   also: str = "") -> Any:
    """``value`` when it is a number in its range, else ``error`` naming ``name`` in the
    library's words (``ann.nprobe must be an integer of at least 1, got 0``): a bool,
    a string, NaN or infinity is never a number here. ``also``: said after the range."""
    kind = "an integer" if integer else "a number"
    limits = [f"at least {bound(least)}" if least is not None else "",
              f"more than {bound(more)}" if more is not None else "",
              f"at most {bound(most)}" if most is not None else ""]
    wanted = f"{kind} of {' and '.join(x for x in limits if x)}"
    number = value if isinstance(value, int) or (
        not integer and isinstance(value, float)) else None
    if number is None or isinstance(number, bool) \
            or (isinstance(number, float) and not math.isfinite(number)) \
            or (least is not None and number < least) \
            or (more is not None and number <= more) or (most is not None and number > most):
        raise error(f"{name} must be {wanted}{also}, got {describe(value)}")
    return number


#: A value JSON does not hold, shown by its Python repr, cut as :data:`_as_json` cuts.
_python = _PythonRepr()
_python.maxstring = _python.maxother = 40


def short_repr(value: object) -> str:
    """``value``'s Python repr for an error, cut to 40 characters as reprlib cuts (an
    integer too long for ``str()`` in words)."""
    return _python.repr(value)


#: Where FastAPI's ``loc`` says a request's value was sent; pydantic's own (a tool's
#: arguments) names the field alone.
_SENT_IN = ("body", "query", "path", "header")


def lone_surrogate(value: Any) -> str | None:
    """The first string (value or key, at any depth) that is not valid UTF-8 text."""
    stack, seen = [value], set()
    while stack:  # iterative: a deeply nested body cannot exhaust the recursion limit
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return item
        elif isinstance(item, (Mapping, list, tuple)):
            if id(item) in seen:  # a value holding itself is walked once
                continue
            seen.add(id(item))
            stack.extend([*item.keys(), *item.values()] if isinstance(item, Mapping)
                         else item)
    return None


def as_given(value: Any, limit: int = 80) -> str:
    """A value as it was sent (JSON: ``"5"`` keeps its quotes, as its type may be what
    is wrong), cut to ``limit`` characters for an error; a lone surrogate (``\\ud800``)
    as its escape, which the answer's UTF-8 can hold."""
    if isinstance(value, _Written):
        return value.shown
    try:
        # only what the shown part can hold is written out: the whole value of 4 MB of
        # tiny lists took 0.3 s of the event loop (memory_recall's check runs there)
        part = _shown_part(value, limit)
        text = json.dumps(part, ensure_ascii=False, default=repr)
        try:
            # a lone surrogate found by encoding, in C: walking the value for one in
            # Python (lone_surrogate) took 7 s of a tool's refusal of 4 MB of lists
            text.encode("utf-8")
        except UnicodeEncodeError:
            text = json.dumps(part, default=repr)
    except (ValueError, RecursionError):  # an integer past str(), a cycle, nested deep
        return describe(value)
    return text if len(text) <= limit else f"{text[:limit - 1]}…"


def _shown_part(value: Any, limit: int) -> Any:
    """The part of ``value`` whose JSON begins as the whole's for more than ``limit``
    characters when anything was left out: each string cut to ``limit + 1`` characters,
    and of lists and objects, depth first, the first ``limit`` values in all (each shows
    as one character at least), the rest left out. Work as ``limit``, not as the value.
    A value that holds itself raises ValueError, as ``json.dumps`` of the whole did, and
    one nested deeper than half of ``limit`` RecursionError, as it did past Python's
    recursion limit (:func:`as_given` then describes it: ``[[[[[[[...]]]]]]]``)."""
    left = limit
    within: set[int] = set()  # the lists and objects being walked, for a cycle

    def part(item: Any, depth: int) -> Any:
        nonlocal left
        left -= 1
        if isinstance(item, str):
            return item[:limit + 1]
        if not isinstance(item, list | tuple | dict):
            return item
        if depth > limit // 2:
            raise RecursionError
        if id(item) in within:
            raise ValueError("a value that holds itself")
        within.add(id(item))
        if isinstance(item, dict):
            kept: dict[Any, Any] = {}
            for k, v in item.items():
                if left <= 0:
                    break
                kept[k[:limit + 1] if isinstance(k, str) else k] = part(v, depth + 1)
            within.discard(id(item))
            return kept
        out: list[Any] = []
        for v in item:
            if left <= 0:
                break
            out.append(part(v, depth + 1))
        within.discard(id(item))
        return out

    return part(value, 0)


def _shown(name: str, limit: int = 40) -> str:
    """An unknown field's name as sent, cut to ``limit`` characters (a model may send a
    name of any length), a lone surrogate as its escape (:func:`as_given`)."""
    if lone_surrogate(name) is not None:
        return as_given(name, limit)
    return name if len(name) <= limit else f"{name[:limit - 1]}…"


def _field_name(loc: Sequence[int | str]) -> str:
    """A field as chatmem's own errors name it, ``messages[0].content``: ``loc``
    without where it came from (the body, the query string, the path), items by their
    index (pydantic's ``messages.0.content``)."""
    steps = loc[1:] if loc and loc[0] in _SENT_IN else loc
    name = ""
    for step in steps:
        name += f"[{step}]" if isinstance(step, int) else f".{step}" if name else step
    return name


def _model_at(kind: Any, steps: Sequence[int | str]) -> type[BaseModel] | None:
    """The body model a field path leads to in ``kind`` (``None``: not a model)."""
    for step in (*steps, None):
        while typing.get_origin(kind) is Annotated:
            kind = typing.get_args(kind)[0]
        members = [kind]
        if typing.get_origin(kind) in (typing.Union, types.UnionType):
            members = [m for m in typing.get_args(kind) if m is not type(None)]
        models = [m for m in members if isinstance(m, type) and issubclass(m, BaseModel)]
        if step is None:
            return models[0] if models else None
        lists = [m for m in members if typing.get_origin(m) is list]
        if isinstance(step, int) and lists:
            kind = typing.get_args(lists[0])[0]
        elif isinstance(step, str) and models and step in models[0].model_fields:
            kind = models[0].model_fields[step].annotation
        else:
            return None
    return None


#: A pydantic error type, in chatmem's words (what the field must be; "got" the value).
_MUST_BE = {
    "int_type": "an integer", "int_parsing": "an integer", "int_from_float": "an integer",
    "bool_type": "true or false", "bool_parsing": "true or false",
    "string_type": "a string", "float_type": "a number", "float_parsing": "a number",
    "list_type": "a list", "dict_type": "an object", "model_type": "an object",
    "model_attributes_type": "an object",
    "greater_than_equal": "at least {ge}", "greater_than": "more than {gt}",
    "less_than_equal": "at most {le}", "less_than": "less than {lt}",
    "finite_number": "a finite number",
}


def schema_errors(errors: Sequence[Mapping[str, Any]], body: Any, *,
                  arguments: bool = False) -> str:
    """The refusals of a schema as chatmem's own errors word them, one clause each
    (joined by ``; ``): the field as they name it (:func:`_field_name`), what it must
    be, the value as sent (:func:`_schema_error`). Unknown fields are named together
    under their object, as the library names them (``messages[0]: unknown field(s)
    colour``), with the one meant or the fields it takes; ``body`` is the type of the
    whole, to find those.

    ``errors`` are a request's (FastAPI's): each ``loc`` begins with where the value was
    sent, and a body's value is shown as JSON, a query parameter's as the text sent.
    ``arguments``: they are an MCP tool's arguments instead (``loc`` the argument alone,
    every value JSON as the model sent it, ``body`` the arguments' model), and an
    unknown argument is named as the library's tool names one (``unknown argument(s)
    colour; it takes limit, days, session``), after the SDK's ``Error executing tool
    memory_list:``."""
    if arguments:  # a tool's arguments are its call's body
        errors = [{**err, "loc": ("body", *err.get("loc", ()))} for err in errors]
    whole = "arguments" if arguments else "body"
    parts: list[str] = []
    unknown: dict[tuple[int | str, ...], list[str]] = {}
    for err in errors:
        loc = tuple(err.get("loc", ()))
        if err.get("type") == "extra_forbidden" and loc:
            unknown.setdefault(loc[:-1], []).append(str(loc[-1]))
        else:
            parts.append(_schema_error(err, whole))
    for parent, names in unknown.items():
        model = _model_at(body, parent[1:]) if parent[:1] == ("body",) else None
        fields = list(model.model_fields) if model is not None else []
        name = _field_name(parent)
        parts.append(unknown_fields(name or whole, names, fields,
                                    arguments=arguments and not name))
    return "; ".join(parts)


#: Names other libraries and APIs give a field that chatmem names otherwise (``text``
#: for ``content``, ``timestamp`` for ``ts``): too far apart for difflib to match, and
#: what a user moving from one of them writes first.
_NAMED_ELSEWHERE = {
    "text": "content", "message": "content", "body": "content",
    "timestamp": "ts", "time": "ts", "created_at": "ts", "date": "ts",
    "speaker": "speaker_name", "sender": "speaker_name", "author": "speaker_name",
    "user_id": "speaker_id", "sender_id": "speaker_id", "meta": "metadata",
    "session": "session_id", "thread_id": "session_id", "conversation_id": "session_id",
    # a recall's or a context's body: a chat-completions list, a search API's names
    "messages": "turn", "question": "query", "k": "top_k", "limit": "top_k",
}


def unknown_keys(value: Mapping[Any, Any], fields: Sequence[str]) -> list[str]:
    """The keys of ``value`` that are not among ``fields``, in its order, each as
    :func:`unknown_fields` takes them: a key that is not text as :func:`describe` shows
    it (``str()`` of an integer past Python's limit raises)."""
    return [k if isinstance(k, str) else describe(k) for k in value if k not in fields]


def unknown_fields(where: str, names: Sequence[str], fields: Sequence[str], *,
                   arguments: bool = False) -> str:
    """The refusal of fields ``where`` does not take: each named as sent, with the one
    meant when it is close to one of ``fields`` (``sesion_id (did you mean
    session_id?)``) or is that field's name elsewhere (``text (did you mean
    content?)``), else the fields it takes (``fields`` empty: "leave them out").
    ``arguments``: a tool's arguments, named as the tool names them (``unknown
    argument(s) colour; it takes …``)."""
    near: dict[str, str | None] = {}
    for n in names:
        other = _NAMED_ELSEWHERE.get(n.lower())
        close = difflib.get_close_matches(n, fields, n=1)
        near[n] = other if other in fields else close[0] if close else None
    said = ", ".join(f"{_shown(n)} (did you mean {near[n]}?)" if near[n] else _shown(n)
                     for n in names)
    fix = ("" if all(near.values()) else f"; it takes {', '.join(fields)}" if fields
           else "; leave them out")
    return (f"unknown argument(s) {said}{fix}" if arguments
            else f"{where}: unknown field(s) {said}{fix}")


def _schema_error(err: Mapping[str, Any], whole: str) -> str:
    """One refusal of the schema (not an unknown field), in chatmem's words; ``whole``
    names what the value is when ``loc`` names no field (the body, the arguments)."""
    loc = tuple(err.get("loc", ()))
    kind, ctx = err.get("type"), err.get("ctx") or {}
    if kind == "json_invalid":
        return (f"body: invalid JSON at character {loc[-1] if loc else 0}: "
                f"{ctx.get('error', 'not valid JSON')}")
    # a query or path parameter is text as sent (limit=abc), a body's value JSON
    given = as_given(err.get("input")) if loc[:1] == ("body",) \
        else str(err.get("input"))[:80]
    return refusal(err, _field_name(loc) or whole, given)


def refusal(err: Mapping[str, Any], name: str, given: str | None) -> str:
    """A pydantic error of the value of ``name`` in chatmem's words, one clause: what
    it must be and the value (``given``, as its source holds it; None: not shown, a
    secret), ``embedding.threads must be an integer, got "two"``, ``top_k must be at
    least 1, got 0``, ``layer must be one of platform, session, got "galaxy"``. The
    HTTP API's and the tools' schemas (:func:`schema_errors`) and the configuration
    (:func:`chatmem.config.format_validation_error`) word theirs with it."""
    kind, ctx = err.get("type"), err.get("ctx") or {}
    said = str(err.get("msg", "invalid")).removeprefix("Value error, ")
    got = "" if given is None else f", got {given}"
    if kind == "one_of":  # a sentence naming the field (http's _takes_one_of)
        return f"{name} {said}"
    if kind == "missing":
        return f"{name} is required"
    if kind in ("string_too_short", "too_short") and ctx.get("min_length") == 1:
        return f"{name} must not be empty"  # as the library's check_label says it
    if kind == "string_too_short":
        return f"{name} must be at least {ctx.get('min_length')} characters{got}"
    if kind == "string_too_long":  # as the library's check_text says it
        return f"{name} is longer than {ctx.get('max_length')} characters"
    if kind == "too_short":
        return f"{name} must have at least {ctx.get('min_length')} items"
    if kind == "too_long":  # as the library says it of a message's mentions
        return f"{name} has {ctx.get('actual_length')} items; the limit is " \
               f"{ctx.get('max_length')}"
    if kind == "string_unicode":  # a field with a length bound; http's _Body._utf8 others
        said = "not valid UTF-8 text (a lone surrogate escape such as \\ud800)"
    if said.startswith("not valid UTF-8"):  # as the library's check_text says it
        return f"{name} is {said}"
    if kind == "literal_error":  # the choices bare, as the library lists them
        return f"{name} must be one of {_choices(str(ctx.get('expected', '')))}{got}"
    if kind in _MUST_BE:
        bounds = {key: bound(value) for key, value in ctx.items()}
        return f"{name} must be {_MUST_BE[kind].format(**bounds)}{got}"
    return f"{name}: {said.removeprefix('Input ')}"



def _choices(expected: str) -> str:
    """pydantic's ``'platform', 'group' or 'session'`` as chatmem lists choices:
    ``platform, group, session``."""
    quoted = re.findall(r"'((?:[^'\\]|\\.)*)'", expected)
    return ", ".join(quoted) if quoted else expected
