"""Storage backends chosen by URL (S3).

=============================  ==========================================
URL                            backend
=============================  ==========================================
``sqlite:///abs/path.db``      SQLite file: messages and vectors (default)
``sqlite://rel.db``, a path    the same, relative path
``memory://``                  SQLite in memory (ephemeral)
``postgresql://…``             PostgreSQL + pgvector: messages and vectors
``qdrant://host:port``         Qdrant server: vectors only
``qdrant+local:///path``       Qdrant local mode (``:memory:`` or a folder)
=============================  ==========================================
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..errors import ConfigError
from .base import MessageStore, VectorIndex
from .sqlite import SqliteStore

__all__ = ["MessageStore", "SqliteStore", "VectorIndex", "open_store", "open_vector_index",
           "sqlite_path"]


def sqlite_path(url: str) -> str:
    """``sqlite:///abs/path.db`` → ``/abs/path.db``; ``sqlite://rel.db`` → ``rel.db``;
    ``memory://`` / ``sqlite:///:memory:`` → ``:memory:``; a bare path is a path."""
    if url in ("memory://", "memory", ":memory:", "sqlite://:memory:", "sqlite:///:memory:"):
        return ":memory:"
    if url.startswith("sqlite://"):
        rest = url[len("sqlite://"):]
        if not rest:
            raise ConfigError("storage URL sqlite:// needs a path, e.g. sqlite:///var/chat.db")
        return rest
    if "://" in url:
        raise ConfigError(
            f"storage URL {url!r}: unknown scheme; use sqlite:///path.db, memory:// or "
            "postgresql://user@host/db"
        )
    return str(Path(url).expanduser())


def _is_postgres(url: str) -> bool:
    return url.startswith(("postgresql://", "postgres://"))


async def open_store(url: str) -> Any:
    """Open the message store named by ``url``; SQLite and PostgreSQL stores also serve
    as their own vector index."""
    if _is_postgres(url):
        from .postgres import PostgresStore

        return await PostgresStore.open(url)
    return await SqliteStore.open(sqlite_path(url))


async def open_vector_index(url: str, store: Any) -> Any:
    """The vector index named by ``url``; ``None`` or the store's own URL → the store."""
    if url.startswith(("qdrant://", "qdrant+local://", "qdrant+http://", "qdrant+https://")):
        from .qdrant import QdrantIndex

        return await QdrantIndex.open(url)
    if _is_postgres(url) or url.startswith(("sqlite://", "memory://")):
        raise ConfigError(
            f"vector URL {url!r}: a SQL store is its own vector index; pass it as the "
            "storage URL and leave vector unset, or use qdrant://host:port"
        )
    raise ConfigError(f"vector URL {url!r}: unknown scheme; use qdrant://host:port or "
                      "qdrant+local:///path")
