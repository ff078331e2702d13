"""The metadata filter language: parse, evaluate, and compile to SQLite, PostgreSQL, Qdrant.

A filter is a MongoDB-like mapping (as in Mastra's semantic-recall ``filter``)::

    {"role": "user",                                  # literal: shorthand for $eq
     "meta.priority": {"$gte": 2, "$lt": 5},          # several operators on one field: AND
     "$or": [{"tags": {"$in": ["a", "b"]}}, {"pinned": {"$exists": True}}]}

Keys at one level are ANDed; ``{}`` matches everything. Field operators are
``$eq $ne $gt $gte $lt $lte $in $nin $exists``; ``$and``/``$or`` take a non-empty
list of filters. A field is a dotted path (``a.b`` walks nested objects).

:func:`parse_filter` validates a mapping into a small tree of frozen dataclasses
(raising :class:`~chatmem.errors.FilterError` that names the offending part in the
HTTP API's words, ``filter.$or[1].priority: $gte expects a number, got "x"``) and
:func:`evaluate` is the reference semantics. The compilers
(:func:`compile_sqlite`, :func:`compile_postgres`, :func:`compile_qdrant`) must
select exactly the documents :func:`evaluate` selects.

Reference semantics (JSON-strict):

* A missing field, or a path through something that is not an object, is
  *missing*: ``$eq``/``$in``/ranges/``$exists: true`` are false on it,
  ``$ne``/``$nin``/``$exists: false`` are true.
* ``$eq: None`` matches an explicit ``null`` only, never a missing field.
* Booleans are never equal to numbers (``True != 1``); ``1 == 1.0``.
* Ranges compare numbers only: a string or boolean value never satisfies one.
* A value that is an array or an object never equals anything and is in no
  range; it does exist (so ``$ne``/``$nin`` are true on it). Arrays are not
  searched element-wise.
* Numbers compare exactly. Integer operands are limited to ±2**53 (exactly
  representable as a JSON double); document values may be any 64-bit integer
  (Qdrant's engine compares those as doubles, so :func:`compile_qdrant` also
  lists the integers it would take for an operand of magnitude 2**53 or more).
* Strings containing U+0000 are rejected as operands (PostgreSQL cannot store
  them and SQLite's JSON functions truncate at them).

Backend notes:

* In SQL a plain column (:class:`ColumnRef`) is a field that always exists;
  SQL ``NULL`` in it reads as JSON ``null``.
* Qdrant cannot tell an empty array ``[]`` from a missing key, so with
  :func:`compile_qdrant` ``$exists`` treats ``[]`` as absent (the only known
  divergence from :func:`evaluate`).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import TYPE_CHECKING, Any, Final, Literal, TypeAlias

from chatmem.errors import FilterError
from chatmem.refusals import describe

if TYPE_CHECKING:
    from qdrant_client import models as qmodels

__all__ = [
    "MATCH_ALL",
    "MAX_DEPTH",
    "MAX_FIELD_KEYS",
    "MAX_INT",
    "MAX_NODES",
    "And",
    "Atom",
    "ColumnRef",
    "Compare",
    "CompareOp",
    "Exists",
    "FieldKind",
    "FieldRef",
    "Filter",
    "FilterError",
    "In",
    "JsonRef",
    "MatchAll",
    "Or",
    "Resolver",
    "Scalar",
    "and_",
    "compile_postgres",
    "compile_qdrant",
    "compile_sqlite",
    "evaluate",
    "fields",
    "json_ref",
    "make_resolver",
    "matcher",
    "parse_filter",
]

#: Deepest allowed nesting of filter mappings (the top-level mapping is depth 1).
MAX_DEPTH: Final = 32
#: Most nodes (conditions, ``$and``/``$or`` lists and ``$in``/``$nin`` values) in one filter.
MAX_NODES: Final = 1000
#: Largest integer operand magnitude: 2**53, the end of exactly representable doubles.
MAX_INT: Final = 2**53
#: Most dot-separated keys in one field name: twice the deepest metadata
#: (:data:`chatmem.models.MAX_JSON_DEPTH`, 32 levels), so a longer name reaches nothing
#: chatmem stores. Unbounded, PostgreSQL's compiled filter guarded each numeric key with
#: the path up to it, the square of the keys: a name of 4,000 keys ``0.0.…`` (8 KB of an
#: HTTP body) bound 16 million path elements and took 12-24 s in one query over 100 rows
#: (``python bench/filter_paths.py``).
MAX_FIELD_KEYS: Final = 64

_FIELD_RE: Final = re.compile(r"[A-Za-z0-9_-]+(?:\.[A-Za-z0-9_-]+)*")
_SEGMENT_RE: Final = re.compile(r"[A-Za-z0-9_-]+")
# A path element PostgreSQL's ``#>`` would read as an array index (strtol, base 10).
_PG_INDEX_RE: Final = re.compile(r"-?[0-9]+")

Atom: TypeAlias = str | int | float | bool
Scalar: TypeAlias = str | int | float | bool | None
CompareOp: TypeAlias = Literal["$eq", "$ne", "$gt", "$gte", "$lt", "$lte"]

_EQ_OPS: Final = ("$eq", "$ne")
_RANGE_OPS: Final = ("$gt", "$gte", "$lt", "$lte")
_COMPARE_OPS: Final[dict[str, CompareOp]] = {
    "$eq": "$eq",
    "$ne": "$ne",
    "$gt": "$gt",
    "$gte": "$gte",
    "$lt": "$lt",
    "$lte": "$lte",
}
_SQL_OPS: Final = {"$eq": "=", "$gt": ">", "$gte": ">=", "$lt": "<", "$lte": "<="}


# --------------------------------------------------------------------------- tree


@dataclass(frozen=True, slots=True)
class Compare:
    """``field <op> value``: ``$eq``/``$ne`` take a scalar, ranges a finite number."""

    field: str
    op: CompareOp
    value: Scalar


@dataclass(frozen=True, slots=True)
class In:
    """``field`` equals one of ``values`` (``$in``), or none of them (``$nin``)."""

    field: str
    values: tuple[Atom, ...]
    negated: bool = False


@dataclass(frozen=True, slots=True)
class Exists:
    """``field`` is present (``present=True``) or missing (``present=False``)."""

    field: str
    present: bool


@dataclass(frozen=True, slots=True)
class And:
    """All of ``items`` hold."""

    items: tuple[Filter, ...]


@dataclass(frozen=True, slots=True)
class Or:
    """At least one of ``items`` holds."""

    items: tuple[Filter, ...]


@dataclass(frozen=True, slots=True)
class MatchAll:
    """The empty filter: every document matches."""


MATCH_ALL: Final = MatchAll()

Filter: TypeAlias = Compare | In | Exists | And | Or | MatchAll
_TREE_TYPES: Final = (Compare, In, Exists, And, Or, MatchAll)


# --------------------------------------------------------------------------- parsing


#: A key a path shows after a dot: a word (an operator with its ``$``) of up to 40
#: characters. Any other key, a dotted field name among them, is shown in brackets as
#: its JSON string, cut as :func:`~chatmem.refusals.describe` cuts a long one.
_PATH_WORD_RE: Final = re.compile(r"\$?[A-Za-z_][A-Za-z0-9_-]{0,39}")


def _at(path: str, key: str) -> str:
    """``path`` and then ``key``, as chatmem names a place in a JSON body
    (``messages[0].ts``): ``filter.a.$in``, and ``filter["meta.team"]``,
    ``filter["a b"]`` for a key that is not a word, so that the path reads back to the
    keys as sent (``filter.meta.team`` would name ``{"meta": {"team": …}}``)."""
    return f"{path}.{key}" if _PATH_WORD_RE.fullmatch(key) else f"{path}[{describe(key)}]"


class _Parser:
    def __init__(self, max_depth: int, max_nodes: float) -> None:
        self.max_depth = max_depth
        self.max_nodes = max_nodes
        self.nodes = 0

    def tick(self, path: str, count: int = 1) -> None:
        self.nodes += count
        if self.nodes > self.max_nodes:
            raise FilterError(f"{path}: filter is too large (more than {self.max_nodes} nodes)")

    def filter(self, obj: object, path: str, depth: int) -> Filter:
        if not isinstance(obj, Mapping):
            raise FilterError(f"{path}: expected a filter object, got {describe(obj)}")
        if depth > self.max_depth:
            raise FilterError(
                f"{path}: filter is nested too deeply (maximum depth {self.max_depth})"
            )
        items: list[Filter] = []
        for key, value in obj.items():
            if not isinstance(key, str):
                raise FilterError(f"{path}: filter keys must be strings, got {describe(key)}")
            sub = _at(path, key)
            if key == "$and":
                items.append(And(self.branches(value, sub, key, depth)))
            elif key == "$or":
                items.append(Or(self.branches(value, sub, key, depth)))
            elif key.startswith("$"):
                raise FilterError(
                    f"{sub}: unknown operator {describe(key)} (only $and and $or may appear "
                    "where a field name is expected)"
                )
            else:
                items.extend(self.field(key, value, sub))
        if not items:
            return MATCH_ALL
        return items[0] if len(items) == 1 else And(tuple(items))

    def branches(self, value: object, path: str, op: str, depth: int) -> tuple[Filter, ...]:
        if not isinstance(value, (list, tuple)) or not value:
            raise FilterError(
                f"{path}: {op} expects a non-empty list of filters, got {describe(value)}"
            )
        self.tick(path)
        return tuple(self.filter(item, f"{path}[{i}]", depth + 1) for i, item in enumerate(value))

    def field(self, name: str, value: object, path: str) -> list[Filter]:
        if not _FIELD_RE.fullmatch(name):
            raise FilterError(
                f"{path}: invalid field name {describe(name)} (expected dot-separated "
                "segments of ASCII letters, digits, underscores or hyphens)"
            )
        _check_keys(name, path)
        if not isinstance(value, Mapping):
            if value is not None and not isinstance(value, (str, int, float)):
                raise FilterError(
                    f"{path}: expected a string, number, boolean or null, or an object of "
                    f"operators, got {describe(value)}"
                )
            return [self.condition(name, "$eq", value, path)]
        if not value:
            raise FilterError(f"{path}: empty object of operators (give at least one operator)")
        out: list[Filter] = []
        for op, operand in value.items():
            if not isinstance(op, str) or not op.startswith("$"):
                raise FilterError(
                    f"{path}: expected an operator such as $eq, got key {describe(op)} (nested "
                    'fields are written as dotted paths, e.g. "a.b")'
                )
            out.append(self.condition(name, op, operand, path))
        return out

    def condition(self, name: str, op: str, operand: object, path: str) -> Filter:
        self.tick(path)
        if op in _EQ_OPS:
            return Compare(name, _COMPARE_OPS[op], self.scalar(operand, op, path))
        if op in _RANGE_OPS:
            return Compare(name, _COMPARE_OPS[op], self.number(operand, op, path))
        if op in ("$in", "$nin"):
            if not isinstance(operand, (list, tuple)) or not operand:
                raise FilterError(
                    f"{path}: {op} expects a non-empty list of strings, numbers or booleans, "
                    f"got {describe(operand)}"
                )
            self.tick(path, len(operand))
            values = tuple(
                self.atom(item, op, f"{_at(path, op)}[{i}]") for i, item in enumerate(operand)
            )
            return In(name, values, negated=op == "$nin")
        if op == "$exists":
            if not isinstance(operand, bool):
                raise FilterError(f"{path}: $exists expects true or false, got {describe(operand)}")
            return Exists(name, operand)
        if op in ("$and", "$or"):
            raise FilterError(
                f"{path}: {op} is not a field operator; use it at filter level, e.g. "
                f'{{"{op}": [{{...}}, {{...}}]}}'
            )
        raise FilterError(f"{path}: unknown operator {describe(op)}")

    def check(self, node: object, path: str, depth: int) -> Filter:
        """Validate a tree built by hand (not by :func:`parse_filter`)."""
        if depth > 2 * self.max_depth:
            raise FilterError(
                f"{path}: filter is nested too deeply (maximum depth {self.max_depth})"
            )
        if isinstance(node, MatchAll):
            return node
        if isinstance(node, (And, Or)):
            kind = "$and" if isinstance(node, And) else "$or"
            if not isinstance(node.items, tuple) or not node.items:
                raise FilterError(f"{path}: {kind} expects a non-empty tuple of filters")
            for i, item in enumerate(node.items):
                self.check(item, f"{path}.items[{i}]", depth + 1)
            return node
        if not isinstance(node, (Compare, In, Exists)):
            raise FilterError(f"{path}: expected a filter, got {describe(node)}")
        field = node.field
        if not isinstance(field, str) or not _FIELD_RE.fullmatch(field):
            raise FilterError(f"{path}: invalid field name {describe(field)}")
        sub = _at(path, field)
        _check_keys(field, sub)
        if isinstance(node, Exists):
            self.condition(field, "$exists", node.present, sub)
        elif isinstance(node, In):
            self.condition(field, "$nin" if node.negated else "$in", list(node.values), sub)
        elif node.op not in _COMPARE_OPS:
            raise FilterError(f"{sub}: unknown operator {describe(node.op)}")
        else:
            self.condition(field, node.op, node.value, sub)
        return node

    def scalar(self, value: object, op: str, path: str) -> Scalar:
        if value is None:
            return None
        if isinstance(value, (str, int, float)):
            return self.atom(value, op, path)
        raise FilterError(
            f"{path}: {op} expects a string, number, boolean or null, got {describe(value)}")

    def atom(self, value: object, op: str, path: str) -> Atom:
        if isinstance(value, bool):
            return bool(value)
        if isinstance(value, (int, float)):
            return self.number(value, op, path)
        if isinstance(value, str):
            if "\x00" in value:
                raise FilterError(f"{path}: {op} strings must not contain NUL (U+0000)")
            try:  # a lone surrogate cannot reach any backend (UnicodeEncodeError there)
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                raise FilterError(f"{path}: {op} strings must be valid UTF-8 text (lone "
                                  f"surrogate at index {exc.start})") from None
            return str.__str__(value)
        raise FilterError(
            f"{path}: {op} values must be strings, numbers or booleans, got {describe(value)}")

    def number(self, value: object, op: str, path: str) -> int | float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise FilterError(f"{path}: {op} expects a number, got {describe(value)}")
        if isinstance(value, int):
            if not -MAX_INT <= value <= MAX_INT:
                raise FilterError(
                    f"{path}: {op} integer {describe(value)} is out of range (at most ±2**53, "
                    "the exactly representable JSON integers)"
                )
            return int(value)
        if not math.isfinite(value):
            raise FilterError(f"{path}: {op} expects a finite number, got {describe(value)}")
        return float(value)


def _check_keys(name: str, path: str) -> None:
    """A field name of at most :data:`MAX_FIELD_KEYS` keys."""
    keys = name.count(".") + 1
    if keys > MAX_FIELD_KEYS:
        raise FilterError(
            f"{path}: a field name of {keys} dot-separated keys; at most {MAX_FIELD_KEYS} "
            "(metadata nests at most 32 levels, so a longer name reaches nothing)"
        )


def parse_filter(obj: object, *, max_depth: int = MAX_DEPTH, max_nodes: int = MAX_NODES,
                 name: str = "filter") -> Filter:
    """Validate a filter mapping into a :data:`Filter` tree (a tree is checked, then
    returned as is).

    Raises :class:`FilterError` naming the offending part by its path from ``name``
    (where the filter was given: ``semantic_recall.filter`` in a configuration), e.g.
    ``filter.$or[1].priority: $gte expects a number, got "x"``. The words are those of
    the HTTP API's refusals, as a filter mostly comes as JSON (the ``filter`` of ``POST
    /v1/recall``, of the ``memory_recall`` tool, of a configuration file): a key that is
    not a word is shown in brackets as its JSON string (``filter["meta.team"]``), a value
    as JSON (:func:`~chatmem.refusals.describe`: ``"x"``, ``null``, ``[]``), and types by
    JSON's names (a string, number, boolean or null).
    """
    if isinstance(obj, _TREE_TYPES):
        return _Parser(max_depth, math.inf).check(obj, "tree", 1)
    return _Parser(max_depth, max_nodes).filter(obj, name, 1)


def _tree(f: Filter | Mapping[str, Any]) -> Filter:
    return parse_filter(f)


def and_(*parts: Filter | Mapping[str, Any]) -> Filter:
    """AND filters together (e.g. a visibility scope and a user filter) into one tree."""
    items: list[Filter] = []
    for part in parts:
        tree = _tree(part)
        if isinstance(tree, MatchAll):
            continue
        if isinstance(tree, And):
            items.extend(tree.items)
        else:
            items.append(tree)
    if not items:
        return MATCH_ALL
    return items[0] if len(items) == 1 else And(tuple(items))


def _walk(tree: Filter) -> Iterator[Filter]:
    yield tree
    if isinstance(tree, (And, Or)):
        for item in tree.items:
            yield from _walk(item)


def fields(f: Filter | Mapping[str, Any]) -> set[str]:
    """Every field a filter refers to."""
    return {node.field for node in _walk(_tree(f)) if isinstance(node, (Compare, In, Exists))}


# --------------------------------------------------------------------------- reference


class _Missing:
    __slots__ = ()

    def __repr__(self) -> str:
        return "<missing>"


_MISSING: Final = _Missing()


def _lookup(doc: Mapping[str, Any], name: str) -> Any:
    value: Any = doc
    for segment in name.split("."):
        if not isinstance(value, Mapping) or segment not in value:
            return _MISSING
        value = value[segment]
    return value


def _is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _equals(value: object, literal: Scalar) -> bool:
    if literal is None:
        return value is None
    if isinstance(literal, bool):
        return isinstance(value, bool) and value == literal
    if isinstance(literal, str):
        return isinstance(value, str) and value == literal
    return _is_number(value) and value == literal


def _in_range(value: Any, op: str, operand: Scalar) -> bool:
    if not _is_number(value) or not isinstance(operand, (int, float)):
        return False
    if op == "$gt":
        return bool(value > operand)
    if op == "$gte":
        return bool(value >= operand)
    if op == "$lt":
        return bool(value < operand)
    return bool(value <= operand)


def _eval(node: Filter, doc: Mapping[str, Any]) -> bool:
    if isinstance(node, MatchAll):
        return True
    if isinstance(node, And):
        return all(_eval(item, doc) for item in node.items)
    if isinstance(node, Or):
        return any(_eval(item, doc) for item in node.items)
    value = _lookup(doc, node.field)
    if isinstance(node, Exists):
        return (value is not _MISSING) == node.present
    if isinstance(node, In):
        return any(_equals(value, item) for item in node.values) != node.negated
    if node.op == "$eq":
        return _equals(value, node.value)
    if node.op == "$ne":
        return not _equals(value, node.value)
    return _in_range(value, node.op, node.value)


def evaluate(f: Filter | Mapping[str, Any], doc: Mapping[str, Any]) -> bool:
    """Whether the JSON-like ``doc`` matches the filter: the reference semantics."""
    return _eval(_tree(f), doc)


def matcher(f: Filter | Mapping[str, Any]) -> Callable[[Mapping[str, Any]], bool]:
    """:func:`evaluate` of ``f`` as a function of the document, ``f`` parsed and checked
    once: :func:`evaluate` does both at every call, which for a filter of 1,000 nodes
    costs far more than the evaluation itself (30 ms against under 1 ms)."""
    tree = _tree(f)
    return lambda doc: _eval(tree, doc)


# --------------------------------------------------------------------------- field refs

FieldKind: TypeAlias = Literal["text", "integer", "real"]


@dataclass(frozen=True, slots=True)
class ColumnRef:
    """A plain scalar column: SQL expression ``expr`` holding ``kind`` values or NULL.

    The field always exists; NULL reads as JSON null. ``expr`` is trusted SQL written
    by chatmem (never user input); for PostgreSQL it must not contain ``%``.
    """

    expr: str
    kind: FieldKind

    def __post_init__(self) -> None:
        if self.kind not in ("text", "integer", "real"):
            raise FilterError(f"column {self.expr}: unknown kind {describe(self.kind)}")


@dataclass(frozen=True, slots=True)
class JsonRef:
    """A value at ``path`` (object keys) inside the JSON/JSONB column ``column``."""

    column: str
    path: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for segment in self.path:
            if not isinstance(segment, str) or not _SEGMENT_RE.fullmatch(segment):
                raise FilterError(f"json path of {self.column}: invalid key {describe(segment)}")

    @property
    def sqlite_path(self) -> str:
        """The SQLite JSON path, every key quoted: ``$."a"."b"``."""
        return "$" + "".join(f'."{segment}"' for segment in self.path)


FieldRef: TypeAlias = ColumnRef | JsonRef
Resolver: TypeAlias = Callable[[str], FieldRef]


def json_ref(column: str, name: str) -> JsonRef:
    """The dotted field ``name`` inside the JSON column ``column``."""
    return JsonRef(column, tuple(name.split(".")))


def make_resolver(json_column: str, columns: Mapping[str, ColumnRef] | None = None) -> Resolver:
    """Fields named in ``columns`` are plain columns; every other one lives in ``json_column``."""
    table = dict(columns or {})

    def resolve(name: str) -> FieldRef:
        ref = table.get(name)
        return ref if ref is not None else json_ref(json_column, name)

    return resolve


# --------------------------------------------------------------------------- SQL

_Group: TypeAlias = Literal["string", "number", "boolean"]
_Frag: TypeAlias = tuple[str, list[Any]]


def _group(value: Atom) -> _Group:
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, str):
        return "string"
    return "number"


@dataclass(frozen=True, slots=True)
class _Typed:
    """How to read a field as one JSON type: ``test`` holds when it is of that type
    (NULL counts as no), and then ``value`` is its SQL value; ``cast`` types parameters."""

    test: _Frag
    value: _Frag
    cast: str = ""


def _balanced(parts: Sequence[str], joiner: str) -> str:
    """``parts`` joined by ``joiner`` (AND or OR, in their order) as a balanced tree of
    parentheses: ``a OR b OR c OR d`` is a chain as deep as it is long to SQLite, whose
    expressions may be at most 1,000 deep (``SQLITE_MAX_EXPR_DEPTH``), so a filter of
    about 990 conditions side by side, within :data:`MAX_NODES`, failed the recall
    ("Expression tree is too large"); halved, the depth is the logarithm of the count."""
    if len(parts) <= 2:
        return "(" + joiner.join(parts) + ")"
    half = len(parts) // 2
    return "(" + _balanced(parts[:half], joiner) + joiner + _balanced(parts[half:], joiner) + ")"


class _SqlCompiler:
    true = "1"
    false = "0"

    def __init__(self, resolve: Resolver) -> None:
        self.resolve = resolve

    # --- dialect hooks
    def typed(self, ref: FieldRef, group: _Group) -> _Typed | None:
        raise NotImplementedError

    def null_test(self, ref: FieldRef) -> _Frag:
        raise NotImplementedError

    def present(self, ref: FieldRef) -> _Frag:
        raise NotImplementedError

    def param(self, typed: _Typed, value: Atom) -> _Frag:
        raise NotImplementedError

    def member(self, typed: _Typed, values: Sequence[Atom]) -> _Frag:
        raise NotImplementedError

    # --- generic part: every fragment it returns is TRUE or FALSE, never NULL
    def compile(self, node: Filter) -> _Frag:
        if isinstance(node, MatchAll):
            return self.true, []
        if isinstance(node, (And, Or)):
            parts = [self.compile(item) for item in node.items]
            joiner = " AND " if isinstance(node, And) else " OR "
            params = [p for _, ps in parts for p in ps]
            return _balanced([sql for sql, _ in parts], joiner), params
        ref = self.resolve(node.field)
        if not isinstance(ref, (ColumnRef, JsonRef)):
            raise FilterError(
                f"resolver gave {describe(ref)} for field {describe(node.field)}, not a FieldRef")
        if isinstance(node, Exists):
            return self.negate(self.present(ref), not node.present)
        if isinstance(node, In):
            return self.negate(self.any_of(ref, node.values), node.negated)
        if node.op in _EQ_OPS:
            if node.value is None:
                frag = self.null_test(ref)
            else:
                frag = self.compare(ref, _group(node.value), "=", node.value)
            return self.negate(frag, node.op == "$ne")
        if node.value is None:  # pragma: no cover - excluded by validation
            raise FilterError(f"{node.op} on {describe(node.field)} expects a number")
        return self.compare(ref, "number", _SQL_OPS[node.op], node.value)

    def negate(self, frag: _Frag, flag: bool) -> _Frag:
        return (f"(NOT {frag[0]})", frag[1]) if flag else frag

    def compare(self, ref: FieldRef, group: _Group, op: str, value: Atom) -> _Frag:
        typed = self.typed(ref, group)
        if typed is None:
            return self.false, []
        psql, pparams = self.param(typed, value)
        sql = f"(CASE WHEN {typed.test[0]} THEN {typed.value[0]} {op} {psql} ELSE {self.false} END)"
        return sql, [*typed.test[1], *typed.value[1], *pparams]

    def any_of(self, ref: FieldRef, values: Sequence[Atom]) -> _Frag:
        groups: dict[_Group, list[Atom]] = {"string": [], "number": [], "boolean": []}
        for value in values:
            groups[_group(value)].append(value)
        branches: list[str] = []
        params: list[Any] = []
        for group, members in groups.items():
            typed = self.typed(ref, group) if members else None
            if typed is None:
                continue
            msql, mparams = self.member(typed, members)
            branches.append(f"WHEN {typed.test[0]} THEN {typed.value[0]} {msql}")
            params += [*typed.test[1], *typed.value[1], *mparams]
        if not branches:
            return self.false, []
        return f"(CASE {' '.join(branches)} ELSE {self.false} END)", params


class _SqliteCompiler(_SqlCompiler):
    @staticmethod
    def _doc(ref: JsonRef) -> str:
        """``ref``'s column, NULL when its text is not JSON (a row damaged outside
        chatmem), read as holding no field, as PostgreSQL reads a ``jsonb`` that is not
        an object: SQLite's JSON functions failed the whole statement on one such row
        ("malformed JSON"), and every filtered recall with it."""
        return f"(CASE WHEN json_valid({ref.column}) THEN {ref.column} END)"

    def typed(self, ref: FieldRef, group: _Group) -> _Typed | None:
        if isinstance(ref, ColumnRef):
            expr = ref.expr
            if group == "string":
                return _Typed((f"typeof({expr}) = 'text'", []), (expr, []))
            if group == "number":
                return _Typed((f"typeof({expr}) IN ('integer', 'real')", []), (expr, []))
            return None  # a plain column never holds a JSON boolean
        path = ref.sqlite_path
        jtype = f"json_type({self._doc(ref)}, ?)"
        value = (f"json_extract({self._doc(ref)}, ?)", [path])
        names = {
            "string": "('text')",
            "number": "('integer', 'real')",
            "boolean": "('true', 'false')",
        }
        # json_extract gives booleans as 1/0, so the type test comes first
        return _Typed((f"{jtype} IN {names[group]}", [path]), value)

    def null_test(self, ref: FieldRef) -> _Frag:
        if isinstance(ref, ColumnRef):
            return f"({ref.expr} IS NULL)", []
        return f"(json_type({self._doc(ref)}, ?) IS 'null')", [ref.sqlite_path]

    def present(self, ref: FieldRef) -> _Frag:
        if isinstance(ref, ColumnRef):
            return self.true, []
        return f"(json_type({self._doc(ref)}, ?) IS NOT NULL)", [ref.sqlite_path]

    @staticmethod
    def _value(value: Atom) -> Any:
        return int(value) if isinstance(value, bool) else value

    def param(self, typed: _Typed, value: Atom) -> _Frag:
        return "?", [self._value(value)]

    def member(self, typed: _Typed, values: Sequence[Atom]) -> _Frag:
        marks = ", ".join("?" for _ in values)
        return f"IN ({marks})", [self._value(v) for v in values]


class _PostgresCompiler(_SqlCompiler):
    true = "TRUE"
    false = "FALSE"

    @staticmethod
    def _json_value(ref: JsonRef) -> _Frag:
        """``column #> path``, NULL when the path is missing or runs through a non-object.

        ``#>`` reads a numeric key as an index when the container is an array; such
        keys are guarded so that they only ever address object members.
        """
        col = ref.column
        path = list(ref.path)
        guards: list[str] = []
        params: list[Any] = []
        for i, segment in enumerate(path):
            if _PG_INDEX_RE.fullmatch(segment):
                if i == 0:
                    guards.append(f"jsonb_typeof({col}) = 'object'")
                else:
                    guards.append(f"jsonb_typeof({col} #> %s::text[]) = 'object'")
                    params.append(path[:i])
        if guards:
            sql = f"(CASE WHEN {' AND '.join(guards)} THEN {col} #> %s::text[] END)"
        else:
            sql = f"({col} #> %s::text[])"
        return sql, [*params, path]

    def typed(self, ref: FieldRef, group: _Group) -> _Typed | None:
        if isinstance(ref, ColumnRef):
            expr = ref.expr
            test: _Frag = (f"{expr} IS NOT NULL", [])
            if group == "string" and ref.kind == "text":
                return _Typed(test, (expr, []), "text")
            if group == "number" and ref.kind == "integer":
                return _Typed(test, (f"({expr})::numeric", []), "numeric")
            if group == "number" and ref.kind == "real":
                return _Typed(test, (f"({expr})::double precision", []), "double precision")
            return None
        vsql, vparams = self._json_value(ref)
        jtype = {"string": "string", "number": "number", "boolean": "boolean"}[group]
        test = (f"jsonb_typeof({vsql}) = '{jtype}'", vparams)
        if group == "string":
            return _Typed(test, (f"({vsql} #>> '{{}}')", list(vparams)), "text")
        if group == "number":
            return _Typed(test, (f"({vsql})::numeric", list(vparams)), "numeric")
        return _Typed(test, (f"({vsql})::boolean", list(vparams)), "boolean")

    def null_test(self, ref: FieldRef) -> _Frag:
        if isinstance(ref, ColumnRef):
            return f"({ref.expr} IS NULL)", []
        vsql, vparams = self._json_value(ref)
        return f"COALESCE(jsonb_typeof({vsql}) = 'null', FALSE)", vparams

    def present(self, ref: FieldRef) -> _Frag:
        if isinstance(ref, ColumnRef):
            return self.true, []
        vsql, vparams = self._json_value(ref)
        return f"({vsql} IS NOT NULL)", vparams

    @staticmethod
    def _value(cast: str, value: Atom) -> Any:
        if cast == "numeric":
            # exact: the shortest repr of a float is what JSON text holds for it
            return Decimal(value) if isinstance(value, int) else Decimal(repr(value))
        if cast == "double precision":
            return float(value)
        return value

    def param(self, typed: _Typed, value: Atom) -> _Frag:
        return f"%s::{typed.cast}", [self._value(typed.cast, value)]

    def member(self, typed: _Typed, values: Sequence[Atom]) -> _Frag:
        return f"= ANY(%s::{typed.cast}[])", [[self._value(typed.cast, v) for v in values]]


def compile_sqlite(f: Filter | Mapping[str, Any], resolve: Resolver) -> tuple[str, list[Any]]:
    """An SQLite boolean expression (``?`` parameters, JSON1) selecting what :func:`evaluate`
    selects. ``resolve(field)`` says where each field lives (:class:`ColumnRef` or
    :class:`JsonRef` over a JSON text column). Values and JSON paths are always bound.
    A JSON column whose text is not JSON (damaged outside chatmem) holds no field."""
    return _SqliteCompiler(resolve).compile(_tree(f))


def compile_postgres(f: Filter | Mapping[str, Any], resolve: Resolver) -> tuple[str, list[Any]]:
    """A PostgreSQL boolean expression for psycopg 3 (``%s`` parameters) over ``jsonb``
    selecting what :func:`evaluate` selects. :class:`JsonRef` columns must be ``jsonb``;
    values and paths are always bound (paths as ``text[]``)."""
    return _PostgresCompiler(resolve).compile(_tree(f))


# --------------------------------------------------------------------------- Qdrant


#: The 64-bit integers a payload may hold (:func:`chatmem.models.check_json`): [-2**63, 2**63).
_INT64: Final = 2**63
#: Most integers one compiled Qdrant filter lists to compare numbers past 2**53 exactly
#: (:func:`_rounding_ints`: up to about 2,000 per such number).
_MAX_LISTED_INTS: Final = 20_000

_QdrantCondition: TypeAlias = "qmodels.FieldCondition | qmodels.Filter"


def _rounding_ints(bound: float) -> list[int]:
    """The 64-bit integers other than ``bound`` whose nearest double is ``bound``.

    Qdrant's engine compares an integer payload value with a ``Range`` as a double, so
    past 2**53 it takes these for ``bound`` (2**53 + 1 for 2**53): the compiled
    conditions list them, to compare them exactly as :func:`evaluate` does."""
    if not MAX_INT <= abs(bound) <= 2 * _INT64:
        return []
    center = int(bound)  # a double this large is an integer
    step = int(math.ulp(bound))
    return [x for x in range(max(center - step, -_INT64), min(center + step, _INT64 - 1) + 1)
            if x != center and float(x) == bound]


class _QdrantCompiler:
    def __init__(self, key: Callable[[str], str]) -> None:
        self.key = key
        self.listed = 0  # integers listed so far (listing())

    def compile(self, node: Filter) -> qmodels.Filter:
        from qdrant_client import models as m

        if isinstance(node, MatchAll):
            return m.Filter()
        if isinstance(node, And):
            return m.Filter(must=[self.compile(item) for item in node.items])
        if isinstance(node, Or):
            return m.Filter(should=[self.compile(item) for item in node.items])
        key = self.key(node.field)
        if isinstance(node, Exists):
            # IsEmpty: missing, null or []; IsNull tells null back apart ([] cannot be)
            present = m.Filter(
                should=[
                    m.Filter(must_not=[m.IsEmptyCondition(is_empty=m.PayloadField(key=key))]),
                    m.IsNullCondition(is_null=m.PayloadField(key=key)),
                ]
            )
            return present if node.present else m.Filter(must_not=[present])
        if isinstance(node, In):
            found = self.scalar(key, [self.matcher(v, node.field) for v in node.values])
            return m.Filter(must_not=[found]) if node.negated else found
        if node.op in _EQ_OPS:
            if node.value is None:
                # IsNull also holds for an array holding a null: "key[]" finds those
                found = m.Filter(
                    must=[m.IsNullCondition(is_null=m.PayloadField(key=key))],
                    must_not=[m.IsNullCondition(is_null=m.PayloadField(key=key + "[]"))],
                )
            else:
                found = self.scalar(key, [self.matcher(node.value, node.field)])
            return m.Filter(must_not=[found]) if node.op == "$ne" else found
        value = node.value
        if not isinstance(value, (int, float)) or isinstance(value, bool):
            raise FilterError(  # pragma: no cover - excluded by validation
                f"{node.op} on {describe(node.field)} expects a number")
        bound = float(value)
        ranges = {
            "$gt": m.Range(gt=bound),
            "$gte": m.Range(gte=bound),
            "$lt": m.Range(lt=bound),
            "$lte": m.Range(lte=bound),
        }
        near = self.listing(_rounding_ints(bound), node.field)
        # the integers the engine takes for the bound: "$gt"/"$lt" miss those past it,
        # "$gte"/"$lte" let through those short of it
        above = [x for x in near if x > value]
        below = [x for x in near if x < value]
        fixed = {
            "$gt": self.number(ranges["$gt"], add=above),
            "$gte": self.number(ranges["$gte"], drop=below),
            "$lt": self.number(ranges["$lt"], add=below),
            "$lte": self.number(ranges["$lte"], drop=above),
        }
        return self.scalar(key, [fixed[node.op]])

    def listing(self, ints: list[int], field: str) -> list[int]:
        """``ints``, counted against the filter's limit of listed integers."""
        self.listed += len(ints)
        if self.listed > _MAX_LISTED_INTS:
            raise FilterError(
                f"filter on {describe(field)}: too many numbers of magnitude 2**53 or more "
                "for Qdrant, which needs up to about 2,000 integers listed for each of them to "
                f"compare 64-bit integers exactly (at most {_MAX_LISTED_INTS} in all); use fewer"
            )
        return ints

    def matcher(self, value: Atom, field: str) -> Callable[[str], _QdrantCondition]:
        from qdrant_client import models as m

        if isinstance(value, (bool, str)):
            match = m.MatchValue(value=value)
            return lambda k: m.FieldCondition(key=k, match=match)
        # numbers: a range, since exact match never sees floats (and 1 must equal 1.0)
        number = float(value)
        near = self.listing(_rounding_ints(number), field)
        return self.number(m.Range(gte=number, lte=number), drop=near)

    @staticmethod
    def number(range_: qmodels.Range, *, add: Sequence[int] = (), drop: Sequence[int] = ()
               ) -> Callable[[str], _QdrantCondition]:
        """``range_`` on a number, where the integers ``add`` also hold and those in
        ``drop`` do not (Qdrant compares integers with a range as doubles; a ``MatchAny``
        of integers compares them exactly and never matches a float)."""
        from qdrant_client import models as m

        def make(k: str) -> _QdrantCondition:
            cond = m.FieldCondition(key=k, range=range_)
            if add:
                listed = m.FieldCondition(key=k, match=m.MatchAny(any=list(add)))
                return m.Filter(should=[cond, listed])
            if drop:
                listed = m.FieldCondition(key=k, match=m.MatchAny(any=list(drop)))
                return m.Filter(must=[cond], must_not=[listed])
            return cond

        return make

    @staticmethod
    def scalar(key: str, matchers: list[Callable[[str], _QdrantCondition]]) -> qmodels.Filter:
        """Some matcher holds for the value at ``key`` *as a scalar*.

        Qdrant matches arrays element-wise; an element that matches is also found
        through ``key[]``, which yields nothing for a non-array value.
        """
        from qdrant_client import models as m

        return m.Filter(
            must=[m.Filter(should=[make(key) for make in matchers])],
            must_not=[make(key + "[]") for make in matchers],
        )


def compile_qdrant(
    f: Filter | Mapping[str, Any], key: Callable[[str], str] | None = None
) -> qmodels.Filter:
    """A ``qdrant_client.models.Filter`` selecting what :func:`evaluate` selects.

    ``key(field)`` gives the payload key (a dotted payload path; identity by default).
    Qdrant's array, null and type semantics are bridged with ``key[]`` exclusions,
    ``IsNull``/``IsEmpty`` and numeric ``Range`` conditions; a number of magnitude 2**53
    or more also lists (``MatchAny``) the 64-bit integers the engine would read as equal
    to it, and more than ``_MAX_LISTED_INTS`` of those in one filter is a
    :class:`FilterError`. Known divergence: Qdrant cannot tell ``[]`` from a missing
    key, so ``$exists`` treats an empty array as absent.
    """
    tree = _tree(f)
    return _QdrantCompiler(key if key is not None else (lambda name: name)).compile(tree)
