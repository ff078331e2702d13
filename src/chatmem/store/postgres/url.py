"""PostgreSQL URLs: chatmem's own query parameters, and a password-free description."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import SplitResult, unquote, urlsplit, urlunsplit

import psycopg
from psycopg.conninfo import conninfo_to_dict

from ... import refusals
from ...errors import ConfigError

#: The query parameters chatmem reads (and removes) itself; the others are libpq's.
OPTIONS = ("schema", "pool_size", "exact_threshold", "ef_search", "build_memory_mb")
#: What stands for a password in a URL that is checked only to word an error.
_HIDDEN = "hidden"


def parse_url(url: str) -> tuple[str, dict[str, str]]:
    """Split chatmem's own query parameters off a PostgreSQL URL. The rest goes to libpq
    as written (its ``%xx`` decoding, not a form's: ``+`` stays ``+``) and is read by
    libpq's parser here, so a URL it cannot read is a :class:`ConfigError` before any
    connection, and never one that quotes the password."""
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # e.g. an unclosed '[' of an IPv6 host
        raise ConfigError(f"storage URL: not a valid URL ({exc}); expected "
                          "postgresql://user:password@host:port/database") from None
    if parts.scheme not in ("postgresql", "postgres"):
        raise ConfigError(f"storage URL: expected postgresql://…, got scheme "
                          f"{refusals.describe(parts.scheme)}")
    ours: dict[str, str] = {}
    rest: list[str] = []
    for item in parts.query.split("&"):
        key, _, value = item.partition("=")
        name = unquote(key)
        if name not in OPTIONS:
            if item:
                rest.append(item)  # libpq's, untouched
        elif name in ours:
            raise ConfigError(f"storage URL: {name} is given twice; give it once")
        else:
            ours[name] = unquote(value)
    conninfo = urlunsplit(parts._replace(query="&".join(rest)))
    try:
        conninfo_to_dict(conninfo)
    except psycopg.Error:
        raise ConfigError(f"storage URL: {_unreadable(parts, rest)}") from None
    return conninfo, ours


def _unreadable(parts: SplitResult, rest: list[str]) -> str:
    """Why libpq cannot read a URL, in words that never quote its password: libpq's own
    message quotes the value it stumbled on, which may be the password, so the message
    is that of the URL with every password replaced."""
    netloc = parts.netloc
    if parts.password is not None:
        userinfo, _, hostport = netloc.rpartition("@")
        netloc = f"{userinfo.partition(':')[0]}:{_HIDDEN}@{hostport}"
    query = [f"password={_HIDDEN}" if unquote(item.partition("=")[0]) == "password"
             else item for item in rest]
    try:
        conninfo_to_dict(urlunsplit(parts._replace(netloc=netloc, query="&".join(query))))
    except psycopg.Error as exc:
        reason = str(exc).strip()
        if "query parameter" in reason:
            reason += (f" (chatmem's own parameters are {', '.join(OPTIONS)}; the others "
                       "go to libpq: see its connection parameters)")
        return reason
    return ("its password is not valid in a URL: write each '%', space, '@', ':', '/', "
            "'?', '#' or '&' in it as its %xx escape (%25, %20, %40, %3A, %2F, %3F, %23, %26)")


def int_option(options: Mapping[str, str], name: str, default: int, minimum: int,
                maximum: int | None = None) -> int:
    raw = options.get(name)
    if raw is None:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"storage URL: {name} must be an integer, got "
                          f"{refusals.describe(raw)}") from None
    if value < minimum or (maximum is not None and value > maximum):
        bounds = (f"between {minimum} and {maximum}" if maximum is not None
                  else f"at least {minimum}")
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
