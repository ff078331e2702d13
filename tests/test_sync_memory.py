"""SyncMemory offers every public method of Memory, with the same parameters, and no
logic of its own (issue 10: typed methods, checked against Memory)."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from chatmem import Memory, Message, SyncMemory
from chatmem.embedding import Embedder
from chatmem.errors import InvalidInput, StoreError
from providers import RecordingProvider


def _public(cls: type) -> dict[str, object]:
    return {name: fn for name, fn in vars(cls).items()
            if not name.startswith("_") and callable(fn) and name not in ("open", "close")}


def test_every_public_memory_method_has_a_blocking_twin_with_the_same_parameters() -> None:
    sync = _public(SyncMemory)
    for name, fn in _public(Memory).items():
        assert name in sync, f"SyncMemory has no {name}()"
        assert inspect.signature(sync[name]) == inspect.signature(fn), name  # type: ignore[arg-type]
        assert not inspect.iscoroutinefunction(sync[name]), name
        assert sync[name].__doc__ == fn.__doc__, name  # type: ignore[attr-defined]


def test_sync_memory_runs_and_raises_like_the_async_core(tmp_path: Path) -> None:
    with SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider())) as mem:
        [stored] = mem.add(Message(session_id="s", content="hello sync world"))
        mem.flush(timeout=10)
        assert mem.recall("hello sync world", session="s").hits[0].message.id == stored.id
        assert mem.tool_schema()["function"]["name"] == "memory_recall"
        with pytest.raises(InvalidInput):
            mem.add(None)  # type: ignore[arg-type]


def test_a_failed_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    import threading

    before = {t.name for t in threading.enumerate()}
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(StoreError):
        SyncMemory.open(str(tmp_path / "dir.db"), embedder=Embedder(RecordingProvider()))
    assert {t.name for t in threading.enumerate()} - before <= {"chatmem-sqlite_0"}
    assert not any(t.name == "chatmem-sync" for t in threading.enumerate())
