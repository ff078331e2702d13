"""SQLite store (S1–S3): what only a file-backed store has. Durability across
reopening, the single-writer lock and SQLite URLs; every behaviour the backends
share is in ``tests/test_conformance.py``."""

from __future__ import annotations

import numpy as np
import pytest

from chatmem.errors import ConfigError, StoreClosed, StoreError
from chatmem.models import Message, VectorEntry
from chatmem.store import SqliteStore, sqlite_path


def unit(v: list[float]) -> np.ndarray:
    a = np.asarray(v, dtype=np.float32)
    return a / np.linalg.norm(a)


async def test_messages_and_vectors_survive_reopen(tmp_path) -> None:
    path = tmp_path / "m.db"
    store = await SqliteStore.open(path)
    stored = await store.append([
        Message(session_id="s", content="one", ts=1000),
        Message(session_id="s", content="two", ts=1000),
        Message(session_id="t", content="three", ts=1000),
    ])
    assert [m.ts for m in stored] == [1000, 1001, 1000]
    v = unit([1, 2, 3])
    m = stored[0]
    await store.upsert([VectorEntry(m.id, "s", m.ts, "user", "test:m", v)])  # type: ignore[arg-type]
    await store.close()
    store = await SqliteStore.open(path)
    got = await store.get([m.id for m in stored])  # type: ignore[misc]
    assert {m.content for m in got.values()} == {"one", "two", "three"}
    [hit] = await store.query(v, 3)
    assert hit.message_id == m.id and hit.score == pytest.approx(1.0)
    await store.close()


async def test_second_open_of_same_file_is_refused_and_closed_store_errors(tmp_path) -> None:
    path = tmp_path / "lock.db"
    store = await SqliteStore.open(path)
    with pytest.raises(StoreError, match="open in another process"):
        await SqliteStore.open(path)
    await store.close()
    with pytest.raises(StoreClosed):
        await store.get(["x"])
    again = await SqliteStore.open(path)  # the lock is released on close
    await again.close()


def test_sqlite_urls() -> None:
    # SQLAlchemy's convention: three slashes + a relative path, four for an absolute one
    assert sqlite_path("sqlite:///rel.db") == "rel.db"
    assert sqlite_path("sqlite:///data/{namespace}.db") == "data/{namespace}.db"
    assert sqlite_path("sqlite:////abs/x.db") == "/abs/x.db"
    assert sqlite_path("memory://") == ":memory:"
    assert sqlite_path("sqlite:///:memory:") == ":memory:"
    with pytest.raises(ConfigError, match='host part "rel.db".*"sqlite:///rel.db"'):
        sqlite_path("sqlite://rel.db")
    with pytest.raises(Exception, match="unknown scheme"):
        sqlite_path("mysql://x")


async def test_a_full_disk_is_reported_as_such_and_stores_nothing(tmp_path) -> None:
    """SQLite rolls a transaction back by itself after SQLITE_FULL; the store's own
    ROLLBACK then failed, and the error said "cannot rollback - no transaction is
    active" instead of what happened. The disk filling up is played by the page limit
    of the real connection (``max_page_count``), the same error SQLite gives."""
    store = await SqliteStore.open(tmp_path / "full.db")
    await store.append([Message(session_id="s", content="before", id="m0")])

    def page_limit(pages: int | None) -> None:
        if pages is None:
            pages = store.conn.execute("PRAGMA page_count").fetchone()[0]
        store.conn.execute(f"PRAGMA max_page_count={pages}")

    await store._run(page_limit, None)
    with pytest.raises(StoreError, match="full") as err:
        await store.append([Message(session_id="s", content="x" * 200_000, id=f"m{i}")
                            for i in range(1, 4)])
    assert "rollback" not in str(err.value)
    assert set(await store.get(["m0", "m1", "m2", "m3"])) == {"m0"}
    await store._run(page_limit, 1_000_000)  # room again: the store goes on
    await store.append([Message(session_id="s", content="after", id="m4")])
    assert set(await store.get(["m0", "m4"])) == {"m0", "m4"}
    await store.close()


async def test_a_store_in_a_read_only_folder_says_so(tmp_path) -> None:
    """On a read-only file system SQLite cannot make the -shm file a WAL store needs even
    to be read, and the error was its own "unable to open database file". A tmpfs
    mounted read-only plays it (root and mount needed: skipped elsewhere)."""
    import os
    import subprocess

    folder = tmp_path / "ro"
    folder.mkdir()
    if os.geteuid() != 0 or subprocess.run(
            ["mount", "-t", "tmpfs", "-o", "size=8m", "tmpfs", str(folder)],
            capture_output=True).returncode != 0:
        pytest.skip("mounting a tmpfs needs root and a mount-capable host")
    try:
        store = await SqliteStore.open(folder / "chat.db")
        await store.append([Message(session_id="s", content="kept")])
        await store.close()
        (folder / "chat.db.lock").unlink()
        assert subprocess.run(["mount", "-o", "remount,ro", str(folder)]).returncode == 0
        before = (folder / "chat.db").read_bytes()
        with pytest.raises(StoreError, match="its folder is read-only"):
            await SqliteStore.open(folder / "chat.db", create=False)
        assert (folder / "chat.db").read_bytes() == before
    finally:
        subprocess.run(["umount", str(folder)], capture_output=True)
