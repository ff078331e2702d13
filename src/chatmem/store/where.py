"""Compile a filter-language mapping to SQL over the ``vectors`` table (SQLite)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def compile_where(where: Mapping[str, Any]) -> tuple[str, list[Any]]:
    raise NotImplementedError("general filters arrive with the filter language")
