"""Storage backends chosen by URL (S3)."""

from __future__ import annotations

from pathlib import Path

from ..errors import ConfigError
from .base import MessageStore, VectorIndex
from .sqlite import SqliteStore

__all__ = ["MessageStore", "SqliteStore", "VectorIndex", "open_store", "sqlite_path"]


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
            f"storage URL {url!r}: unknown scheme; use sqlite:///path.db or memory://"
        )
    return str(Path(url).expanduser())


async def open_store(url: str) -> SqliteStore:
    """Open the message store named by ``url`` (which also serves as its vector index)."""
    return await SqliteStore.open(sqlite_path(url))
