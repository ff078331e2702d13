"""Which backend a storage URL names, and opening it (the table is in
:mod:`chatmem.store`'s docstring)."""


from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote

from ..errors import ConfigError
from ..refusals import as_given
from .base import IndexedStore, MessageStore, VectorIndex
from .sqlite import SqliteStore

_MEMORY = ("memory://", "memory", ":memory:", "sqlite://:memory:", "sqlite:///:memory:")
_BAD_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
_FORMS = "sqlite:///relative/path.db or sqlite:////absolute/path.db"


def _shown(text: str) -> str:
    """A URL or a part of one as a refusal shows it: as JSON, as every value."""
    return as_given(text, 200)


def sqlite_path(url: str) -> str:
    """The SQLite file a storage URL names (``:memory:`` for an in-memory store).

    ``sqlite:///rel.db`` → ``rel.db`` (relative to the working directory);
    ``sqlite:////abs/x.db`` → ``/abs/x.db``; ``memory://`` / ``sqlite:///:memory:`` →
    ``:memory:``; a bare path is that path (``~`` expanded). Raises
    :class:`~chatmem.errors.ConfigError` for a host part, a query string or fragment,
    a bad ``%`` escape, an empty path, or an unknown scheme."""
    if url in _MEMORY:
        return ":memory:"
    if "\x00" in url:
        raise ConfigError("storage URL contains a NUL character; give a file path or "
                          "sqlite:///path.db")
    if url.lower().startswith("sqlite:"):
        return _sqlite_url_path(url)
    if "://" in url:
        raise ConfigError(
            f"storage URL {_shown(url)}: unknown scheme; use {_FORMS}, a plain file path, "
            "memory:// or postgresql://user@host/db"
        )
    if not url.strip():
        raise ConfigError("storage URL is empty; give a file path such as chat.db, "
                          f"{_FORMS}, or memory://")
    return str(Path(url).expanduser())


def _sqlite_url_path(url: str) -> str:
    if not url.lower().startswith("sqlite://"):
        raise ConfigError(f"storage URL {_shown(url)}: write {_FORMS}")
    rest = url[len("sqlite://"):]
    if not rest.startswith("/"):
        if not rest:
            raise ConfigError(f'storage URL "sqlite://" needs a path: {_FORMS}')
        host, _, path = rest.partition("/")
        raise ConfigError(
            f"storage URL {_shown(url)} has a host part {_shown(host)}, which SQLite URLs "
            f"cannot have: for the file {_shown(rest)} relative to the working directory "
            f"write {_shown('sqlite:///' + rest)}, for an absolute path "
            f"{_shown('sqlite:////' + rest)}"
        )
    path = rest[1:]
    for mark, code in (("?", "%3F"), ("#", "%23")):
        if mark in path:
            raise ConfigError(
                f"storage URL {_shown(url)}: SQLite URLs take no options or fragments "
                f"({_shown(mark)}…); remove that part, or write a {_shown(mark)} that belongs "
                f"to the file name as {code} (or pass the plain path)"
            )
    if _BAD_PERCENT.search(path):
        raise ConfigError(f'storage URL {_shown(url)}: "%" must start a %xx escape; write a '
                          '"%" that belongs to the file name as %25 (or pass the plain path)')
    try:
        decoded = unquote(path, errors="strict")
    except UnicodeDecodeError:
        raise ConfigError(f"storage URL {_shown(url)}: its %xx escapes are not UTF-8") from None
    if not decoded:
        raise ConfigError(f"storage URL {_shown(url)} names no file: {_FORMS}")
    if "\x00" in decoded:
        raise ConfigError(f"storage URL {_shown(url)}: %00 (NUL) cannot be in a file name")
    return decoded


def _is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


async def open_store(url: str, *, create: bool = True) -> IndexedStore:
    """Open the message store named by ``url``; SQLite and PostgreSQL stores also serve
    as their own vector index.

    ``create=False`` opens only an existing chatmem store: a missing SQLite file (or
    an empty one), or a PostgreSQL schema without chatmem's tables, is a
    :class:`~chatmem.errors.StoreError` naming it, and nothing is created. A file
    that is not a chatmem store is refused either way, unchanged."""
    if _is_postgres(url):
        from .postgres import PostgresStore

        return await PostgresStore.open(url, create=create)
    return await SqliteStore.open(sqlite_path(url), create=create)


def check_store_url(url: str) -> None:
    """Refuse, without connecting or creating anything, a storage URL that
    :func:`open_store` could never open: an unknown scheme, a PostgreSQL option it cannot
    take (``pool_size=abc``)."""
    if _is_postgres(url):
        from .postgres import PostgresStore

        PostgresStore.from_url(url)
        return
    sqlite_path(url)


def check_vector_url(url: str) -> None:
    """Refuse, without connecting, a URL that cannot name a separate vector index: a
    store is then not opened (nor created) for an index that could never open."""
    from .qdrant import parse_url, shown_url

    if url.startswith(("qdrant://", "qdrant+local://", "qdrant+http://", "qdrant+https://")):
        parse_url(url)
        return
    shown = shown_url(url)  # a password or an api_key in a mistyped URL stays hidden
    if _is_postgres(url) or url.startswith(("sqlite://", "memory://")):
        raise ConfigError(
            f"vector URL {shown}: a SQL store is its own vector index; pass it as the "
            "storage URL and leave vector unset, or use qdrant://host:port"
        )
    raise ConfigError(f"vector URL {shown}: unknown scheme; use qdrant://host:port or "
                      "qdrant+local:///path")


async def open_vector_index(url: str, store: MessageStore | None = None, *,
                            owner: str | None = None) -> VectorIndex:
    """The separate vector index named by ``url`` (Qdrant); a SQL store's URL is refused,
    as such a store is its own index (:meth:`Storage.open` with ``vector=None``).
    ``owner`` is the id of the store it serves, whose collections it uses (``None``:
    the names shared by every index opened without one). ``store`` is accepted for the
    callers that pass the store it serves; it is unused."""
    from .qdrant import QdrantIndex

    check_vector_url(url)
    return await QdrantIndex.open(url, owner=owner)
