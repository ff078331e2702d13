"""A PostgreSQL store on a full disk (SQLSTATE 53100 disk_full): the error says the
database server's disk is full and that nothing acknowledged was lost, as SQLite's does;
it was the server's "could not extend file …: No space left on device" alone. A real
small filesystem: the store's tables are moved to a tablespace on a tmpfs of 1 MiB
(root may mount one beside a server of this machine; else the test is skipped)."""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import chatmem.testing
from backends import PLACES, Place, add_until_full, pg_url, small_tmpfs
from chatmem import Memory

TABLES = ("messages", "vectors", "lexical_entries")


async def _sql(place: Place, *statements: str) -> list[object]:
    """Run ``statements`` in the store's schema; the first value of each (or None)."""
    import psycopg

    schema = place.url.rsplit("schema=", 1)[1]
    out: list[object] = []
    async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as conn:
        await conn.execute(f'SET search_path TO "{schema}", public')
        for statement in statements:
            cur = await conn.execute(statement)  # type: ignore[arg-type]
            row = await cur.fetchone() if cur.description else None
            out.append(row[0] if row else None)
    return out


@pytest.fixture
async def full_place(tmp_path: Path) -> AsyncIterator[Place]:
    """A PostgreSQL store whose tables live on a 1 MiB tmpfs of the server's machine."""
    async with PLACES["postgres"](tmp_path) as place:
        async with await Memory.open(place.url):
            pass  # the schema and its tables
        (data_dir,) = await _sql(place, "SHOW data_directory")
        if not os.path.isdir(str(data_dir)):
            pytest.skip("the PostgreSQL server is not on this machine")
        # beside the test's folder, which the server's user cannot enter (0700, root's)
        outer = Path(tempfile.mkdtemp(prefix="chatmem-pg-disk-"))
        outer.chmod(0o711)
        try:
            with small_tmpfs(outer / "disk", "1m") as disk:
                owner = os.stat(str(data_dir))
                os.chown(disk, owner.st_uid, owner.st_gid)
                async for ready in _on_tablespace(place, disk):
                    yield ready
        finally:
            shutil.rmtree(outer, ignore_errors=True)


async def _on_tablespace(place: Place, disk: Path) -> AsyncIterator[Place]:
    """``place`` with its tables moved to a tablespace at ``disk``, moved back after."""
    space = f"chatmem_full_{secrets.token_hex(4)}"
    await _sql(place, f"CREATE TABLESPACE {space} LOCATION '{disk}'")
    try:
        await _sql(place, *(f"ALTER TABLE {t} SET TABLESPACE {space}" for t in TABLES))
        yield place
    finally:
        await _sql(place, *(f"ALTER TABLE {t} SET TABLESPACE pg_default" for t in TABLES))
        await _sql(place, f"DROP TABLESPACE {space}")


async def test_a_full_disk_is_named_and_nothing_acknowledged_is_lost(full_place: Place
                                                                      ) -> None:
    async with await Memory.open(full_place.url,
                                 embedder=chatmem.testing.embedder()) as mem:
        # 400 × 8 KB of text that does not compress: far past 1 MiB
        acknowledged, refused = await add_until_full(
            mem, lambda i: f"note {i} " + secrets.token_hex(4000))
        text = str(refused)
        assert text.startswith("postgres (") and "the database server's disk is full (" \
            in text, text
        assert "No space left on device" in text  # the server's own words, kept
        assert ("this write was refused and nothing of it was stored; what was stored "
                "before is kept") in text, text
        assert "\n" not in text
        # every acknowledged message is there, nothing else
        page = await mem.list(session="s", limit=1000)
        assert sorted(m.id for m in page.messages if m.id) == sorted(acknowledged)
