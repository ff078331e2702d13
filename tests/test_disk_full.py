"""A SQLite store on a full disk (SQLITE_FULL): the error says the disk is full where
the store is, and that nothing acknowledged was lost; it was "database or disk is
full", or for the user of the command line an unexplained store error. A real small
filesystem: a tmpfs of 320 KiB (root may mount one; else the test is skipped)."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

import chatmem.testing
from backends import add_until_full, small_tmpfs
from chatmem import Memory


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    with small_tmpfs(tmp_path / "disk", "320k") as disk:
        yield disk


async def test_a_full_disk_is_named_and_nothing_acknowledged_is_lost(small_disk: Path
                                                                      ) -> None:
    db = small_disk / "chat.db"
    async with await Memory.open(f"sqlite:///{db}",
                                 embedder=chatmem.testing.embedder()) as mem:
        # 400 × 4 KB: far more than the disk holds
        acknowledged, refused = await add_until_full(mem, lambda i: f"note {i} " + "x" * 4000)
    text = str(refused)
    assert f"sqlite ({db}): the disk is full where the store is ({small_disk})" in text
    assert "nothing of it was stored" in text and "what was stored before is kept" in text
    assert "disk I/O error" not in text

    # the command line: one line, the same words
    src = str(Path(chatmem.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.run([sys.executable, "-m", "chatmem", "add", "--db", str(db),
                           "--session", "s", "--no-wait", "y" * 20000],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 2, proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: sqlite ("), proc.stderr
    assert "the disk is full where the store is" in lines[0], lines[0]

    # room again: every acknowledged message is there, nothing else
    subprocess.run(["mount", "-o", "remount,size=8m", str(small_disk)], check=True)
    async with await Memory.open(f"sqlite:///{db}",
                                 embedder=chatmem.testing.embedder()) as mem:
        page = await mem.list(session="s", limit=1000)
        assert sorted(m.id for m in page.messages if m.id) == sorted(acknowledged)
