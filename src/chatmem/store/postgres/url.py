"""PostgreSQL URLs: chatmem's own query parameters, and a password-free description."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import psycopg
from psycopg.conninfo import conninfo_to_dict

from ...errors import ConfigError


def parse_url(url: str) -> tuple[str, dict[str, str]]:
    """Split chatmem's own query parameters off a PostgreSQL URL."""
    parts = urlsplit(url)
    if parts.scheme not in ("postgresql", "postgres"):
        raise ConfigError(f"storage URL: expected postgresql://…, got scheme {parts.scheme!r}")
    ours: dict[str, str] = {}
    rest: list[tuple[str, str]] = []
    for key, value in parse_qsl(parts.query, keep_blank_values=True):
        if key in ("schema", "pool_size", "exact_threshold", "ef_search", "build_memory_mb"):
            ours[key] = value
        else:
            rest.append((key, value))
    conninfo = urlunsplit(parts._replace(query=urlencode(rest)))
    return conninfo, ours


def int_option(options: Mapping[str, str], name: str, default: int, minimum: int,
                maximum: int | None = None) -> int:
    raw = options.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"storage URL: {name} must be an integer, got {raw!r}") from None
    if value < minimum or (maximum is not None and value > maximum):
        bounds = f"between {minimum} and {maximum}" if maximum is not None else f"≥ {minimum}"
        raise ConfigError(f"storage URL: {name} must be {bounds}, got {value}")
    return value


def describe(conninfo: str) -> str:
    """``host:port/db`` for messages: never the password."""
    try:
        info = conninfo_to_dict(conninfo)
    except psycopg.Error:
        return "postgresql"
    host = info.get("host") or "localhost"
    port = info.get("port") or "5432"
    return f"{host}:{port}/{info.get('dbname') or ''}"
