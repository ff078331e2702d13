"""Filters over vector entries, shared by the backends (S4).

A ``where`` mapping is the filter language of :mod:`chatmem.store.filters`
over the fields of :data:`chatmem.models.VECTOR_FIELDS`, plus ``meta.<path>``
(the session-metadata snapshot) and ``message.<path>`` (message metadata).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import FilterError
from ..models import VECTOR_FIELDS, VECTOR_JSON_PREFIXES
from ..refusals import describe
from .columns import JSON_COLUMNS
from .filters import ColumnRef, FieldRef, JsonRef, compile_sqlite, fields, parse_filter

_INTEGER_FIELDS = {"ts"}


def check_fields(where: Mapping[str, Any]) -> None:
    """Reject fields a vector entry does not have, naming the field and the fix."""
    for name in fields(parse_filter(where)):
        head = name.split(".", 1)[0]
        if name in VECTOR_FIELDS or (head in VECTOR_JSON_PREFIXES and "." in name):
            continue
        raise FilterError(
            f"filter field {describe(name)} is not a vector field; use one of "
            f"{', '.join(sorted(VECTOR_FIELDS))}, or meta.<key> (session metadata) / "
            "message.<key>"
        )


def vector_field_ref(name: str) -> FieldRef:
    """Where a filter field lives in a SQL ``vectors`` row (both SQL backends)."""
    if name in VECTOR_FIELDS:
        return ColumnRef(name, "integer" if name in _INTEGER_FIELDS else "text")
    head, _, rest = name.partition(".")
    return JsonRef(JSON_COLUMNS[head], tuple(rest.split(".")))


def compile_where(where: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """SQL over the SQLite ``vectors`` table selecting the entries ``where`` selects."""
    check_fields(where)
    return compile_sqlite(where, vector_field_ref)


def simple_values(cond: Any) -> list[str] | None:
    """The strings of ``"x"`` / ``{"$eq": "x"}`` / ``{"$in": ["x", ...]}``, else None.

    The shapes recall builds for scopes: backends answer them without the general
    filter compiler (PostgreSQL as ``col = ANY(...)`` for its B-tree indexes, the
    in-memory matrix as a code compare).
    """
    if isinstance(cond, str):
        return [cond]
    if isinstance(cond, Mapping) and len(cond) == 1:
        ((op, operand),) = cond.items()
        if op == "$eq" and isinstance(operand, str):
            return [operand]
        if (op == "$in" and isinstance(operand, (list, tuple)) and operand
                and all(isinstance(v, str) for v in operand)):
            return list(operand)
    return None


def named_ids(where: Mapping[str, Any]) -> tuple[list[str] | None, dict[str, Any]]:
    """A top-level ``message_id`` list of strings (:func:`simple_values`; recall
    measuring given candidates) and the rest of ``where``; ``(None, where)`` without
    one. Backends answer the list from their ``message_id`` index or point ids."""
    ids = simple_values(where["message_id"]) if "message_id" in where else None
    if ids is None:
        return None, dict(where)
    return ids, {k: v for k, v in where.items() if k != "message_id"}
