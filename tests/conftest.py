from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from collections.abc import AsyncIterator

from chatmem import Memory
from chatmem.embedding import Embedder
from providers import RecordingProvider


@pytest.fixture(scope="session")
def local_embedder() -> Embedder:
    """The real default model, loaded once for the whole test session."""
    from chatmem.embedding import create_embedder

    return create_embedder()


@pytest.fixture
def bow_embedder() -> Embedder:
    return Embedder(RecordingProvider())


@pytest.fixture
async def mem(tmp_path: Path) -> AsyncIterator[Memory]:
    """A memory in a SQLite file, embedding with :mod:`chatmem.testing`'s hash embedder
    (the integration and tool tests; a module may define its own ``mem``)."""
    import chatmem.testing

    memory = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=chatmem.testing.embedder())
    try:
        yield memory
    finally:
        await memory.close()


@pytest.fixture(autouse=True)
def fresh_damage_warnings(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test starts with no damaged column warned of yet: the process's window
    (chatmem.store.base.read_without) would turn another test's damaged row of the same
    id (PostgreSQL's test schemas share a server) into a DEBUG line."""
    from chatmem.logwindow import LogWindow
    from chatmem.store import base

    monkeypatch.setattr(base, "damage_warnings", LogWindow(base.DAMAGE_WINDOW_S))
