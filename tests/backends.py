"""Backend factories for the conformance suite (S5): one entry per backend.

Each factory is an async context manager yielding ``(store, index)``: the
message store and the vector index (the same object for SQL backends).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator, Callable
from pathlib import Path
from typing import Any

import pytest

from chatmem.store import SqliteStore

Factory = Callable[[Path], contextlib.AbstractAsyncContextManager[tuple[Any, Any]]]


@contextlib.asynccontextmanager
async def memory_backend(tmp: Path) -> AsyncIterator[tuple[Any, Any]]:
    store = await SqliteStore.open(":memory:")
    try:
        yield store, store
    finally:
        await store.close()


@contextlib.asynccontextmanager
async def sqlite_backend(tmp: Path) -> AsyncIterator[tuple[Any, Any]]:
    store = await SqliteStore.open(tmp / "conformance.db")
    try:
        yield store, store
    finally:
        await store.close()


def pg_url() -> str:
    """The test PostgreSQL URL; fails (not skips) in CI when it is missing."""
    url = os.environ.get("CHATMEM_TEST_PG_URL")
    if not url:
        if os.environ.get("CHATMEM_REQUIRE_PG") == "1":
            pytest.fail("CHATMEM_TEST_PG_URL is not set but CHATMEM_REQUIRE_PG=1")
        pytest.skip("no PostgreSQL: run `bash .ci/postgres.sh start` and export "
                    "CHATMEM_TEST_PG_URL")
    return url


#: name -> factory. PostgreSQL and Qdrant register themselves below.
BACKENDS: dict[str, Factory] = {
    "memory": memory_backend,
    "sqlite": sqlite_backend,
}
