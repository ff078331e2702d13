"""``chatmem export -o PATH`` and what PATH may be: every path is a user's file that
must not be damaged. The export is written beside its file and renamed over it, so a
path that is not a regular file (a named pipe, a device, a socket), a read-only file,
the store's lock file, or a symbolic link (the link itself) would be replaced: each is
refused with one line that names ``-o`` and the fix, and changes nothing; a link to a
regular file replaces that file and keeps the link; ``/dev/stdout`` is standard output;
a file that cannot be written to the end (a full disk) is one clear line, not an
"unexpected error"."""

from __future__ import annotations

import os
import signal
import socket
import stat
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

import chatmem
from chatmem.cli import main
from processes import grown, terminated

#: Yesterday's backup as far as -o looks at it: an export's header line.
BACKUP = '{"type": "header", "format": "chatmem-jsonl", "version": 1}\n'


def one_line_error(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    assert "Traceback" not in output and "unexpected" not in output, output
    return lines[0]


def no_temporary_files(*folders: Path) -> bool:
    return not [f for folder in folders for f in os.listdir(folder) if f.endswith(".tmp")]


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``chat.db`` in the working directory (``tmp_path``) with one message."""
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(main, ["add", "--db", "chat.db", "--session", "s", "--no-wait",
                                    "Lisbon in May"])
    assert res.exit_code == 0, res.output
    return tmp_path / "chat.db"


def export(*args: str) -> Result:
    return CliRunner().invoke(main, ["export", "--db", "chat.db", *args])


def test_export_through_a_symlink_replaces_its_file_and_keeps_the_link(
        store: Path, tmp_path: Path) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    target = docs / "backup.jsonl"
    target.write_text(BACKUP)
    target.chmod(0o640)
    link = tmp_path / "link.jsonl"
    link.symlink_to(os.path.join("docs", "backup.jsonl"))
    res = export("-o", "link.jsonl")
    assert res.exit_code == 0, res.output
    assert link.is_symlink() and os.readlink(link) == os.path.join("docs", "backup.jsonl")
    assert "Lisbon in May" in target.read_text()
    assert stat.S_IMODE(target.stat().st_mode) == 0o640  # the replaced file keeps its mode
    assert no_temporary_files(tmp_path, docs)


def test_export_replaces_only_an_export_or_an_empty_file_unless_forced(
        store: Path, tmp_path: Path) -> None:
    """A mistyped -o (notes.txt, a photo) was replaced by the export without a word;
    only an earlier export (or an empty file) is replaced now, anything else with
    --force."""
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    for name, path, before in (("notes.txt", notes, b"my notes\n"),
                               ("photo.png", photo, photo.read_bytes())):
        res = export("-o", name)
        assert res.exit_code == 2, res.output
        line = one_line_error(res.output)
        assert f"-o {name}: is a file that is not a chatmem export" in line, line
        assert "--force" in line, line
        assert path.read_bytes() == before and no_temporary_files(tmp_path)
    # an earlier export, cut short or whole, and an empty file are replaced
    for name, text in (("old.jsonl", BACKUP), ("empty.jsonl", "")):
        (tmp_path / name).write_text(text)
        res = export("-o", name)
        assert res.exit_code == 0, res.output
        assert "Lisbon in May" in (tmp_path / name).read_text()
    res = export("-o", "notes.txt", "--force")
    assert res.exit_code == 0, res.output
    assert "Lisbon in May" in notes.read_text()


def test_export_refuses_a_dangling_symlink(store: Path, tmp_path: Path) -> None:
    link = tmp_path / "link.jsonl"
    link.symlink_to("missing.jsonl")
    res = export("-o", "link.jsonl")
    assert res.exit_code == 2, res.output
    line = one_line_error(res.output)
    assert "-o link.jsonl" in line and "does not exist" in line, line
    assert link.is_symlink() and os.readlink(link) == "missing.jsonl"
    assert not (tmp_path / "missing.jsonl").exists() and no_temporary_files(tmp_path)


def _fifo(path: Path) -> str:
    os.mkfifo(path)
    return "named pipe"


def _socket(path: Path) -> str:
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.relpath(path))  # short: a socket's path has at most 107 bytes
    sock.close()  # the socket file stays
    return "socket"


def _char_device(path: Path) -> str:
    try:  # a node like /dev/null, made in the test's own folder (the real one is never used)
        os.mknod(path, stat.S_IFCHR | 0o600, os.makedev(1, 3))
    except (PermissionError, AttributeError):
        pytest.skip("making a device node needs root (CAP_MKNOD)")
    return "character device"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="POSIX special files")
@pytest.mark.parametrize("make", [_fifo, _socket, _char_device],
                         ids=["fifo", "socket", "char-device"])
def test_export_refuses_a_path_that_is_not_a_regular_file(
        store: Path, tmp_path: Path, make: Any) -> None:
    node = tmp_path / "out.jsonl"
    kind = make(node)
    before = os.lstat(node)
    for name in ("out.jsonl", "to-node.jsonl"):  # the node, and a symbolic link to it
        if name != "out.jsonl":
            (tmp_path / name).symlink_to("out.jsonl")
        res = export("-o", name)
        assert res.exit_code == 2, res.output
        line = one_line_error(res.output)
        assert f"-o {name}" in line and kind in line and "-o -" in line, line
        after = os.lstat(node)
        assert (after.st_ino, after.st_mode) == (before.st_ino, before.st_mode)
    assert (tmp_path / "to-node.jsonl").is_symlink()
    assert no_temporary_files(tmp_path)


def test_export_refuses_a_read_only_file(store: Path, tmp_path: Path) -> None:
    """chmod 444: refused to its owner, and to root as well (os.access lets root write)."""
    keep = tmp_path / "keep.jsonl"
    keep.write_text("keep me\n")
    keep.chmod(0o444)
    inode = keep.stat().st_ino
    res = export("-o", "keep.jsonl")
    assert res.exit_code == 2, res.output
    line = one_line_error(res.output)
    assert "-o keep.jsonl" in line and "read-only" in line and "chmod u+w" in line, line
    assert keep.read_text() == "keep me\n" and keep.stat().st_ino == inode
    assert stat.S_IMODE(keep.stat().st_mode) == 0o444 and no_temporary_files(tmp_path)


def test_export_refuses_a_file_this_user_may_not_write(
        store: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Another user's file (mode 644) in a folder this user may write: os.access says no."""
    theirs = tmp_path / "theirs.jsonl"
    theirs.write_text("their file\n")
    real_access = os.access
    monkeypatch.setattr(os, "access", lambda p, m, **kw: False if Path(p) == theirs
                        and m & os.W_OK else real_access(p, m, **kw))
    res = export("-o", str(theirs))
    assert res.exit_code == 2, res.output
    assert "read-only" in one_line_error(res.output)
    assert theirs.read_text() == "their file\n" and no_temporary_files(tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="hard links")
def test_export_refuses_a_hard_link_of_the_store(store: Path, tmp_path: Path) -> None:
    """Another name of the store file (a hard link, a copy made with cp -l) was replaced
    by the export: the store kept its data under chat.db, but the name the user gave it
    now held the export."""
    os.link(tmp_path / "chat.db", tmp_path / "same.db")
    res = export("-o", "same.db")
    assert res.exit_code == 2, res.output
    assert "the store's own file" in one_line_error(res.output)
    assert os.path.samefile(tmp_path / "chat.db", tmp_path / "same.db")
    assert no_temporary_files(tmp_path)


@pytest.mark.parametrize("db", ["chat.db", "sqlite:///chat.db"])
def test_export_refuses_the_store_lock_file(store: Path, tmp_path: Path, db: str) -> None:
    lock = tmp_path / "chat.db.lock"
    assert lock.exists()  # made by the store's writer (filelock)
    before = lock.stat()
    for out in ("chat.db.lock", str(lock)):
        res = CliRunner().invoke(main, ["export", "--db", db, "-o", out])
        assert res.exit_code == 2, res.output
        assert "the store's own file" in one_line_error(res.output)
    after = lock.stat()
    assert (after.st_ino, after.st_size) == (before.st_ino, before.st_size) == \
        (before.st_ino, 0)
    assert no_temporary_files(tmp_path)


@pytest.mark.skipif(not os.path.isdir("/proc/self/fd"), reason="Linux /proc")
def test_export_to_a_standard_output_name_writes_standard_output(store: Path) -> None:
    """/dev/stdout (tested by name only: an old chatmem replaced the real node), /dev/fd/1
    and /proc/self/fd/1 are standard output, like -o -; /dev/fd/2 is refused."""
    from chatmem.cli import _is_stdout

    assert _is_stdout("/dev/stdout") and _is_stdout("-")
    assert not _is_stdout("/dev/stderr") and not _is_stdout("stdout")
    for name in ("/dev/fd/1", "/proc/self/fd/1"):
        res = export("-o", name)
        assert res.exit_code == 0, res.output
        assert '"Lisbon in May"' in res.stdout and "exported" in res.stderr
    res = export("-o", "/dev/fd/2")
    assert res.exit_code == 2
    assert "-o /dev/fd/2" in one_line_error(res.output) and "-o -" in res.output


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX resource limits")
def test_export_onto_a_full_disk_is_a_clear_error(store: Path, tmp_path: Path) -> None:
    """A real process whose files may not grow past 40,000 bytes (RLIMIT_FSIZE: write
    fails with EFBIG, as a full disk fails with ENOSPC): one line naming -o's file and
    the cause; yesterday's backup is kept, a new file is not made, no temporary file."""
    import resource

    res = CliRunner().invoke(main, ["add", "--db", "chat.db", "--session", "s", "--no-wait",
                                    "Porto in June " * 5000])
    assert res.exit_code == 0, res.output
    backup = tmp_path / "backup.jsonl"
    backup.write_text(BACKUP)

    def small_files() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (40_000, 40_000))

    src = str(Path(chatmem.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    for out, kept in (("backup.jsonl", "it is left as it was"),
                      ("new.jsonl", "no file was written")):
        proc = subprocess.run([sys.executable, "-m", "chatmem", "export", "--db", "chat.db",
                               "-o", out], capture_output=True, text=True, timeout=120,
                              env=env, cwd=tmp_path, preexec_fn=small_files)
        assert proc.returncode == 2, proc.stderr
        line = one_line_error(proc.stderr)
        assert f"-o {out}: cannot write the export (File too large)" in line, line
        assert kept in line, line
    assert backup.read_text() == BACKUP
    assert not (tmp_path / "new.jsonl").exists() and no_temporary_files(tmp_path)


@pytest.mark.skipif(sys.platform == "win32", reason="flock and SIGKILL")
def test_a_killed_exports_temporary_file_is_removed_by_the_next_export(
        store: Path, tmp_path: Path) -> None:
    """``export -o`` killed part way (kill -9) left its hidden temporary file beside the
    output, holding part of the conversations, and every later export left it there: it
    could not be told from the file of an export still running. A temporary file is now
    locked (flock) while it is written; the next export of the same file removes those
    whose lock is free, and leaves the one a running export holds, and those of another
    output file."""
    import asyncio
    import fcntl
    import tempfile
    import time

    from chatmem.models import Message
    from chatmem.store import Storage

    async def grow(n: int) -> None:  # enough messages that an export takes a while
        storage = await Storage.open(str(store))
        try:
            for start in range(0, n, 1000):
                await storage.store.append([
                    Message(session_id="big", role="user", ts=1_700_000_000_000 + i,
                            content=f"message {i} " + "about the trip " * 10)
                    for i in range(start, start + 1000)])
        finally:
            await storage.close()

    src = str(Path(chatmem.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    out = tmp_path / "backup.jsonl"

    def temporary_files(name: str = "backup.jsonl") -> list[str]:
        return sorted(f for f in os.listdir(tmp_path)
                      if f.startswith(f".{name}.") and f.endswith(".tmp"))

    stale: list[str] = []
    grown = 0
    for size in (4000, 8000, 16000):  # a larger store if the export finished first
        asyncio.run(grow(size - grown))
        grown = size
        proc = subprocess.Popen([sys.executable, "-m", "chatmem", "export", "--db",
                                 "chat.db", "-o", str(out)], cwd=tmp_path, env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            deadline = time.monotonic() + 120
            while not temporary_files() and proc.poll() is None \
                    and time.monotonic() < deadline:
                time.sleep(0.001)
            proc.kill()
        finally:
            proc.wait(timeout=60)
        stale = temporary_files()
        if stale and not out.exists():
            break
        out.unlink(missing_ok=True)
    assert stale and not out.exists(), "the export always finished before it was killed"
    assert stat.S_IMODE((tmp_path / stale[0]).stat().st_mode) == 0o600
    # a running export's file (its lock held) and another output's killed one
    fd, running = tempfile.mkstemp(dir=tmp_path, prefix=".backup.jsonl.", suffix=".tmp")
    other, _ = tempfile.mkstemp(dir=tmp_path, prefix=".other.jsonl.", suffix=".tmp")
    os.close(other)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        res = export("-o", str(out))
        assert res.exit_code == 0, res.output
        assert temporary_files() == [os.path.basename(running)]
        assert len(temporary_files("other.jsonl")) == 1
        assert f'"messages": {grown + 1}' in out.read_text().splitlines()[-1]
    finally:
        os.close(fd)
    res = export("-o", str(out))  # its export gone (the lock free): removed
    assert res.exit_code == 0, res.output
    assert temporary_files() == []


def test_export_refuses_an_empty_name_or_a_folders_name(store: Path, tmp_path: Path) -> None:
    """-o "" was refused as "-o : is a directory" (the working directory, read as "."),
    and -o new/ or -o backup.jsonl/ (a folder's name, ending with /) wrote the export
    into the file new or replaced backup.jsonl: each is refused now, naming what was
    given and the fix, and nothing is written."""
    backup = tmp_path / "backup.jsonl"
    backup.write_text(BACKUP)
    before = sorted(os.listdir(tmp_path))
    for given, says in (
            ("", 'error: -o "": no file name; give one such as backup.jsonl, or -o - '
                 "to write to standard output"),
            ("new/", "error: -o new/: ends with /, a folder's name, and no folder "
                     '"new" exists; give a file name such as new/backup.jsonl (create the '
                     "folder first), or drop the /"),
            ("backup.jsonl/", "error: -o backup.jsonl/: ends with /, a folder's name, and "
                              '"backup.jsonl" is a file; give the file name without the /')):
        res = export("-o", given)
        assert res.exit_code == 2, res.output
        assert one_line_error(res.output) == says
        assert sorted(os.listdir(tmp_path)) == before
        assert backup.read_text() == BACKUP


@pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM")
def test_a_terminated_export_leaves_the_previous_file_and_no_temporary_one(
        store: Path, tmp_path: Path) -> None:
    """``export -o backup.jsonl`` stopped by SIGTERM (kill, timeout, a service manager
    stopping it) left its hidden temporary file, a part of the conversations, beside
    yesterday's backup until the next export of that file (as kill -9 must). It is
    removed now, as after Ctrl-C: the backup is left as it was, the exit status is
    143 (128 + SIGTERM)."""
    grown(store)
    out = tmp_path / "backup.jsonl"
    out.write_text(BACKUP)
    status, err = terminated(["export", "--db", "chat.db", "-o", str(out)], tmp_path,
                             lambda: not no_temporary_files(tmp_path))
    assert status == 128 + signal.SIGTERM, err
    assert out.read_text() == BACKUP
    assert no_temporary_files(tmp_path), os.listdir(tmp_path)
