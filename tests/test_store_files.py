"""Store files and URLs (issue 9): what a storage URL names, refusing a missing store,
never touching another application's file, and the lock file.

Each refused open must leave the disk exactly as it was: the same bytes in the file,
and no ``.lock``, ``-wal``, ``-shm`` or new folder next to it.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import sqlite3
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import chatmem
from backends import drop_pg_schema, pg_schema_url, pg_url
from chatmem import Memory
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError, StoreError
from chatmem.models import Message
from chatmem.store import APPLICATION_ID, SqliteStore, open_store, sqlite_path
from providers import RecordingProvider

# --------------------------------------------------------------------------- helpers


def tree(root: Path) -> dict[str, str]:
    """Every file under ``root`` (relative name → sha256), folders as ``<dir>``."""
    out: dict[str, str] = {}
    for p in sorted(root.rglob("*")):
        rel = str(p.relative_to(root))
        out[rel] = "<dir>" if p.is_dir() else hashlib.sha256(p.read_bytes()).hexdigest()
    return out


@contextlib.contextmanager
def unchanged(root: Path) -> Iterator[None]:
    before = tree(root)
    yield
    assert tree(root) == before


def app_id(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA application_id").fetchone()[0])
    finally:
        conn.close()


async def make_store(path: Path | str, content: str = "hello") -> None:
    store = await SqliteStore.open(path)
    await store.append([Message(session_id="s", content=content)])
    await store.close()


# --------------------------------------------------------------------------- 6. URLs


@pytest.mark.parametrize(("url", "path"), [
    ("sqlite:///chat.db", "chat.db"),                      # relative to the working dir
    ("sqlite:///data/{namespace}.db", "data/{namespace}.db"),
    ("sqlite:////abs/chat.db", "/abs/chat.db"),            # four slashes: absolute
    ("SQLite:////abs/chat.db", "/abs/chat.db"),
    ("sqlite:///my%20chat%3F%23%25.db", "my chat?#%.db"),  # %xx decoded in URLs only
    ("sqlite:///caf%C3%A9.db", "café.db"),
    ("chat.db", "chat.db"),                                # a plain path is a path
    ("/abs/odd?name#x%41.db", "/abs/odd?name#x%41.db"),    # ... taken literally
    ("memory://", ":memory:"),
    ("sqlite:///:memory:", ":memory:"),
])
def test_sqlite_url_forms(url: str, path: str) -> None:
    assert sqlite_path(url) == path


@pytest.mark.parametrize(("url", "message"), [
    ("sqlite://chat.db", r'host part "chat.db".*write "sqlite:///chat.db"'),
    ("sqlite://host/x.db", r'host part "host".*"sqlite:////host/x.db"'),
    ("sqlite://", "needs a path"),
    ("sqlite:///", "names no file"),
    ("sqlite:x.db", "write sqlite:///relative/path.db"),
    ("sqlite:///chat.db?mode=ro", r"no options.*%3F"),
    ("sqlite:///chat.db#top", r"no options.*%23"),
    ("sqlite:///100%.db", "%25"),
    ("sqlite:///%FF.db", "not UTF-8"),
    ("sqlite:///a%00.db", "NUL"),
    ("", "empty"),
    ("mysql://x/y", "unknown scheme"),
])
def test_bad_sqlite_urls_are_config_errors_naming_the_fix(url: str, message: str) -> None:
    with pytest.raises(ConfigError, match=message):
        sqlite_path(url)


async def test_relative_and_absolute_urls_open_the_files_they_name(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    store = await open_store("sqlite:///rel.db")
    assert store.path == str(work / "rel.db")
    await store.close()
    assert (work / "rel.db").is_file()
    store = await open_store("sqlite:///data/ns1.db")  # relative folders are created
    await store.close()
    assert (work / "data" / "ns1.db").is_file()
    store = await open_store(f"sqlite:///{tmp_path}/abs.db")  # = sqlite:////tmp/…/abs.db
    await store.close()
    assert (tmp_path / "abs.db").is_file()
    store = await open_store("sqlite:///odd%3Fname.db")
    await store.close()
    assert (work / "odd?name.db").is_file()


async def test_memory_open_default_is_chatmem_db_in_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    async with await Memory.open(embedder=Embedder(RecordingProvider())) as mem:
        await mem.add(Message(session_id="s", content="kept in ./chatmem.db"))
    assert app_id(tmp_path / "chatmem.db") == APPLICATION_ID


# --------------------------------------------------------------------------- 7. missing stores


async def test_create_false_refuses_a_missing_store_and_creates_nothing(tmp_path: Path) -> None:
    for target in (tmp_path / "typo.db", tmp_path / "no" / "such" / "dir" / "x.db"):
        with unchanged(tmp_path), pytest.raises(StoreError) as err:
            await open_store(str(target), create=False)
        assert f"no chatmem store at {target}" in str(err.value)
        assert "create the store first" in str(err.value)
    with unchanged(tmp_path), pytest.raises(StoreError, match="no chatmem store at"):
        await Memory.open(f"sqlite:///{tmp_path}/typo.db", create=False,
                          embedder=Embedder(RecordingProvider()))
    (tmp_path / "empty.db").touch()
    with unchanged(tmp_path), pytest.raises(StoreError, match="empty.db is an empty file"):
        await open_store(str(tmp_path / "empty.db"), create=False)
    sqlite3.connect(tmp_path / "blank.db").execute("VACUUM").connection.close()
    with unchanged(tmp_path), pytest.raises(StoreError, match="an empty SQLite database"):
        await open_store(str(tmp_path / "blank.db"), create=False)


async def test_create_false_opens_an_existing_store(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    await make_store(db)
    store = await open_store(str(db), create=False)
    assert (await store.stats()).messages == 1
    await store.close()


async def test_a_new_or_empty_file_is_initialised(tmp_path: Path) -> None:
    (tmp_path / "empty.db").touch()
    await make_store(tmp_path / "empty.db")
    sqlite3.connect(tmp_path / "blank.db").execute("VACUUM").connection.close()
    await make_store(tmp_path / "blank.db")
    await make_store(tmp_path / "new.db")
    for name in ("empty.db", "blank.db", "new.db"):
        assert app_id(tmp_path / name) == APPLICATION_ID


async def test_postgres_create_false_refuses_a_schema_without_chatmem_tables() -> None:
    base = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(base, schema)
    try:
        with pytest.raises(StoreError, match=f'no chatmem store in schema "{schema}"'):
            await open_store(url, create=False)
        import psycopg

        async with await psycopg.AsyncConnection.connect(base, autocommit=True) as conn:
            row = await (await conn.execute(
                "SELECT 1 FROM pg_namespace WHERE nspname = %s", [schema])).fetchone()
        assert row is None  # nothing was created
        store = await open_store(url)
        await store.close()
        store = await open_store(url, create=False)
        await store.close()
    finally:
        await drop_pg_schema(base, schema)


# --------------------------------------------------------------------------- 8. foreign files


def _foreign_foo(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE foo (x INTEGER)")
    conn.execute("INSERT INTO foo VALUES (42)")
    conn.commit()
    conn.close()


def _foreign_messages(path: Path) -> None:  # a table named as ours, other columns
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, body TEXT)")
    conn.execute("INSERT INTO messages (body) VALUES ('theirs')")
    conn.commit()
    conn.close()


def _foreign_wal(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode=WAL")
    conn.execute("CREATE TABLE foo (x INTEGER)")
    conn.commit()
    conn.close()


def _foreign_app_id(path: Path) -> None:  # another application's mark, our table set
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id=1234")
    conn.execute("CREATE TABLE sessions (id TEXT)")
    conn.commit()
    conn.close()


def _chatmem_tables_plus_one(path: Path) -> None:
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=1")
    conn.executescript(
        "CREATE TABLE sessions (id TEXT); CREATE TABLE vectors (id TEXT);"
        "CREATE TABLE meta (id TEXT); CREATE TABLE messages (id TEXT); "
        "CREATE TABLE payroll (id TEXT);")
    conn.close()


def _text(path: Path) -> None:
    path.write_text("name,value\n" + "row,1\n" * 50, encoding="utf-8")


def _short(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00")


@pytest.mark.parametrize("make", [_foreign_foo, _foreign_messages, _foreign_wal,
                                  _foreign_app_id, _chatmem_tables_plus_one, _text, _short])
@pytest.mark.parametrize("create", [True, False])
async def test_a_foreign_file_is_refused_byte_for_byte_unchanged(
        tmp_path: Path, make: object, create: bool) -> None:
    path = tmp_path / "their.db"
    make(path)  # type: ignore[operator]
    with unchanged(tmp_path), pytest.raises(StoreError) as err:
        await open_store(str(path), create=create)
    assert f"{path} is not a chatmem store" in str(err.value)
    with unchanged(tmp_path), pytest.raises(StoreError, match="not a chatmem store"):
        await Memory.open(str(path), embedder=Embedder(RecordingProvider()))


async def test_a_legacy_chatmem_file_opens_and_is_stamped(tmp_path: Path) -> None:
    path = tmp_path / "legacy.db"
    await make_store(path, "written before the mark")
    conn = sqlite3.connect(path)  # what chatmem wrote before files were marked
    conn.execute("PRAGMA application_id=0")
    conn.commit()
    conn.close()
    assert app_id(path) == 0
    store = await open_store(str(path), create=False)
    [m] = await store.recent("s", 5)
    assert m.content == "written before the mark"
    await store.close()
    assert app_id(path) == APPLICATION_ID


async def test_a_legacy_file_without_the_lexical_tables_opens(tmp_path: Path) -> None:
    path = tmp_path / "older.db"
    await make_store(path, "from before the lexical index")
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id=0")
    for table in ("lexical_vocab", "lexical", "lexical_entries"):
        conn.execute(f"DROP TABLE {table}")
    conn.commit()
    conn.close()
    store = await open_store(str(path))
    [m] = await store.recent("s", 5)
    assert m.content == "from before the lexical index"
    await store.close()
    assert app_id(path) == APPLICATION_ID


async def test_a_newer_chatmem_file_is_refused_without_a_lock_file(tmp_path: Path) -> None:
    path = tmp_path / "newer.db"
    await make_store(path)
    (tmp_path / "newer.db.lock").unlink()
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version=99")
    conn.commit()
    conn.close()
    with unchanged(tmp_path), pytest.raises(StoreError, match="newer chatmem"):
        await open_store(str(path))


# --------------------------------------------------------------------------- 9. paths, locks


async def test_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "dir.db").mkdir()
    with unchanged(tmp_path), pytest.raises(StoreError, match="is a directory.*chatmem.db"):
        await open_store(str(tmp_path / "dir.db"))
    with unchanged(tmp_path), pytest.raises(StoreError, match="is a directory"):
        await open_store(str(tmp_path))


async def test_a_special_file_is_refused() -> None:
    before = sorted(os.listdir("/dev"))
    with pytest.raises(StoreError, match="/dev/null is not a regular file"):
        await open_store("/dev/null")
    assert sorted(os.listdir("/dev")) == before  # no /dev/null.lock, no -journal


@pytest.mark.parametrize("create", [True, False])
async def test_unwritable_places_are_store_errors_naming_the_path(create: bool) -> None:
    for path in ("/proc/chatmem-test.db", "/proc/no/such/dir/x.db"):
        with pytest.raises(StoreError, match=path):
            await open_store(f"sqlite:///{path}", create=create)
        assert not os.path.exists(path + ".lock") and not os.path.exists(path)


async def test_a_path_under_a_file_is_a_store_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("x")
    with unchanged(tmp_path), pytest.raises(StoreError, match="file/x.db"):
        await open_store(str(tmp_path / "file" / "x.db"))


async def test_a_failed_open_removes_what_it_created(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def boom(self: SqliteStore, stamp: bool) -> None:
        raise StoreError("disk on fire")

    monkeypatch.setattr(SqliteStore, "_init_schema", boom)
    with unchanged(tmp_path), pytest.raises(StoreError, match="disk on fire"):
        await open_store(str(tmp_path / "new" / "deeper" / "x.db"))
    # an existing store: its own files stay, the lock file this open made goes
    monkeypatch.undo()
    await make_store(tmp_path / "kept.db")
    (tmp_path / "kept.db.lock").unlink()
    monkeypatch.setattr(SqliteStore, "_init_schema", boom)
    with unchanged(tmp_path), pytest.raises(StoreError, match="disk on fire"):
        await open_store(str(tmp_path / "kept.db"))


async def test_the_lock_refuses_a_second_open_and_survives_a_refused_one(tmp_path: Path) -> None:
    path = tmp_path / "one.db"
    store = await SqliteStore.open(path)
    with pytest.raises(StoreError, match="open in another process"):
        await SqliteStore.open(path)
    await store.append([Message(session_id="s", content="still mine")])  # lock still held
    with pytest.raises(StoreError, match="open in another process"):
        await SqliteStore.open(path, create=False)
    await store.close()
    again = await SqliteStore.open(path, create=False)
    await again.close()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
@pytest.mark.parametrize("empty", [False, True], ids=["store", "empty-file"])
async def test_a_read_only_store_file_is_refused_unchanged(tmp_path: Path, empty: bool
                                                          ) -> None:
    """chmod 444 on a store, its folder writable: root wrote it anyway (SQLite opens it
    read-write), and anyone else got "attempt to write a readonly database … its folder
    is read-only … copy the store to a writable folder", with a -wal and -shm left
    beside it. Now one error naming the file and the fix, nothing written."""
    path = tmp_path / "kept.db"
    if empty:
        path.touch()
    else:
        await make_store(path)
        (tmp_path / "kept.db.lock").unlink()
    path.chmod(0o444)
    for create in (True, False) if not empty else (True,):
        with unchanged(tmp_path), pytest.raises(StoreError) as err:
            await SqliteStore.open(path, create=create)
        assert str(err.value) == (
            f"{path} is read-only, and chatmem writes to its store even to read it (its "
            "write-ahead log, what it indexed); it was left unchanged: make it writable "
            f"(chmod u+w {path}) or copy it to a file you may write")
    path.chmod(0o644)  # made writable: it opens
    store = await SqliteStore.open(path)
    assert len(await store.recent("s", 5)) == (0 if empty else 1)
    await store.close()


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX modes")
def test_the_cli_names_a_read_only_store_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "kept.db"
    asyncio.run(make_store(path))
    path.chmod(0o444)
    with unchanged(tmp_path):
        res = subprocess.run([sys.executable, "-m", "chatmem", "list", "--db", str(path)],
                             capture_output=True, text=True, cwd=tmp_path)
    assert (res.returncode, res.stdout) == (2, "") and res.stderr.count("\n") == 1
    assert res.stderr.startswith(f"error: {path} is read-only"), res.stderr


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
@pytest.mark.parametrize("target", ["missing.db", "no/such/folder/x.db"])
async def test_a_link_to_nothing_is_refused_naming_it(tmp_path: Path, target: str) -> None:
    """SQLite would create the link's target; O_EXCL refused it as 'cannot create the
    store …: File exists; check that its folder exists…', of a file that does not."""
    link = tmp_path / "chat.db"
    link.symlink_to(target)
    for create in (True, False):
        with pytest.raises(StoreError) as err:
            await SqliteStore.open(link, create=create)
        assert str(err.value) == (
            f"{link} is a symbolic link to {json.dumps(target)}, which does not exist; "
            "give the store file's own path, or remove the link")
        assert os.listdir(tmp_path) == ["chat.db"] and os.readlink(link) == target


def _users_file(lock: Path) -> None:
    lock.write_text("my notes, not a lock\n")


def _link_to_users_file(lock: Path) -> None:
    (lock.parent / "notes.txt").write_text("my notes, not a lock\n")
    lock.symlink_to(lock.parent / "notes.txt")


def _folder(lock: Path) -> None:
    lock.mkdir()
    (lock / "inside.txt").write_text("mine\n")


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links")
@pytest.mark.parametrize(("make", "what"), [
    (_users_file, "a file of 21 bytes"), (_link_to_users_file, "a symbolic link"),
    (_folder, "a directory")], ids=["file", "symlink", "folder"])
@pytest.mark.parametrize("existing", [False, True], ids=["new", "existing"])
async def test_a_users_file_at_the_lock_path_is_refused_unchanged(
        tmp_path: Path, make: object, what: str, existing: bool) -> None:
    """``<db>.lock`` is the lock file's name, not chatmem's own file: a user's file there
    was used as the lock, which filelock 3 (accepted by chatmem) opens with O_TRUNC,
    emptying it (through a link too); a folder there was 'cannot create the lock file
    …: Is a directory; chatmem needs write access to the folder'."""
    path = tmp_path / "chat.db"
    if existing:
        await make_store(path)
        (tmp_path / "chat.db.lock").unlink()
    make(tmp_path / "chat.db.lock")  # type: ignore[operator]
    for create in (True, False):
        if not existing and not create:
            continue  # no store: refused for that first
        with unchanged(tmp_path), pytest.raises(StoreError) as err:
            await SqliteStore.open(path, create=create)
        assert str(err.value) == (
            f"{path}.lock is {what}, not chatmem's lock file (an empty file it keeps beside "
            "the store); it was left unchanged: move it away, or give the store another "
            "path")
    assert os.path.islink(tmp_path / "chat.db.lock") == (make is _link_to_users_file)


async def test_the_lock_file_chatmem_left_is_taken_again(tmp_path: Path) -> None:
    """An empty lock file (what a clean close leaves) is the store's: opened again."""
    path = tmp_path / "chat.db"
    await make_store(path)
    assert (tmp_path / "chat.db.lock").stat().st_size == 0
    (tmp_path / "other.db.lock").touch()  # left by a store since removed
    for store_path in (path, tmp_path / "other.db"):
        store = await SqliteStore.open(store_path)
        await store.close()


@pytest.mark.skipif(sys.platform == "win32", reason="hard links and flock: POSIX")
@pytest.mark.parametrize("link", ["hard", "symbolic"])
async def test_another_name_of_an_open_store_is_refused(tmp_path: Path, link: str) -> None:
    """The lock file is found by name: through a hard link, each name had its own lock
    and SQLite its own -wal, so two processes wrote one database through two logs (it
    came out malformed, acknowledged messages gone). The store file itself is locked."""
    path = tmp_path / "chat.db"
    store = await SqliteStore.open(path)
    await store.append([Message(session_id="s", content="first", id="m1")])
    alias = tmp_path / "alias.db"
    if link == "hard":
        os.link(path, alias)
    else:
        alias.symlink_to(path)
    with pytest.raises(StoreError, match="open in another process, or by another name"):
        await SqliteStore.open(alias)
    await store.append([Message(session_id="s", content="second", id="m2")])
    await store.close()
    again = await SqliteStore.open(alias, create=False)  # closed: any name opens it
    assert set(await again.get(["m1", "m2"])) == {"m1", "m2"}
    await again.close()


def _killed_mid_write(path: Path, wal: bool) -> None:
    """Another program's database, left as a process killed while writing leaves it:
    committed pages still in its -wal (``wal``), or a hot -journal of a transaction
    half written into the file."""
    code = (
        "import os, sqlite3, sys\n"
        "conn = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
        + ("conn.execute('PRAGMA journal_mode=WAL')\n"
           "conn.execute('PRAGMA wal_autocheckpoint=0')\n"
           "conn.execute('CREATE TABLE notes (x)')\n"
           "conn.execute('INSERT INTO notes VALUES (1)')\n" if wal else
           "conn.execute('CREATE TABLE notes (x)')\n"
           "conn.execute('PRAGMA cache_size=1')\n"
           "conn.execute('BEGIN')\n"
           "conn.execute('INSERT INTO notes SELECT randomblob(3000) FROM (WITH RECURSIVE "
           "r(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM r WHERE i < 50) SELECT i FROM r)')\n")
        + "os.kill(os.getpid(), 9)\n")
    subprocess.run([sys.executable, "-c", code, str(path)], timeout=60)
    assert os.path.exists(f"{path}-wal" if wal else f"{path}-journal")


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("wal", [True, False], ids=["wal", "hot-journal"])
async def test_another_programs_leftover_log_is_not_applied(tmp_path: Path, wal: bool) -> None:
    """Opening it read-write to look merged the -wal into the file on close, or rolled
    the hot journal back, before refusing it as "left unchanged". (The -shm file is
    SQLite's shared scratch index, rebuilt by any reader; it is not compared.)"""
    path = tmp_path / "theirs.db"
    _killed_mid_write(path, wal)

    def files() -> dict[str, str]:
        return {k: v for k, v in tree(tmp_path).items() if not k.endswith("-shm")}

    before = files()
    for create in (True, False):
        with pytest.raises(StoreError, match="not a chatmem store|without changing it"):
            await SqliteStore.open(path, create=create)
        assert files() == before


def test_chatmem_imports_and_opens_a_store_without_fcntl(tmp_path: Path) -> None:
    """Windows has no fcntl: the lock must not need it."""
    code = (
        "import sys, asyncio\n"
        "sys.modules['fcntl'] = None\n"  # import fcntl now raises ImportError
        "import chatmem\n"
        "from chatmem.store import SqliteStore\n"
        "async def main():\n"
        "    s = await SqliteStore.open(sys.argv[1])\n"
        "    await s.close()\n"
        "    s = await SqliteStore.open(sys.argv[1], create=False)\n"
        "    await s.close()\n"
        "asyncio.run(main())\n"
        "print('ok')\n"
    )
    src = str(Path(chatmem.__file__).parents[1])  # the chatmem under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.run([sys.executable, "-c", code, str(tmp_path / "w.db")],
                          capture_output=True, text=True, timeout=120, env=env)
    assert proc.returncode == 0 and proc.stdout.strip() == "ok", proc.stderr


async def test_a_failed_open_of_a_new_postgres_schema_leaves_nothing(tmp_path: Path) -> None:
    """``Memory.open("postgresql://…?schema=new", vector=<an index that does not open>)``
    created the schema and chatmem's tables, then failed, and left them, empty (where a
    failed open of a new SQLite store removes the file it made). The schema and tables
    that open made are now dropped; a schema that was there keeps what it held, and a
    store with data keeps everything."""
    import psycopg

    base = pg_url()
    (tmp_path / "notes").write_text("mine\n")  # a local-mode 'folder' that is a file
    bad = f"qdrant+local://{tmp_path}/notes"

    async def schema_tables(schema: str) -> list[str] | None:
        async with await psycopg.AsyncConnection.connect(base, autocommit=True) as conn:
            if await (await conn.execute("SELECT 1 FROM pg_namespace WHERE nspname = %s",
                                         [schema])).fetchone() is None:
                return None
            rows = await (await conn.execute(
                "SELECT tablename FROM pg_tables WHERE schemaname = %s ORDER BY 1",
                [schema])).fetchall()
            return [r[0] for r in rows]

    new, kept, data = (f"t_{uuid.uuid4().hex[:16]}" for _ in range(3))
    try:
        with pytest.raises(StoreError, match="file"):
            await Memory.open(pg_schema_url(base, new), vector=bad,
                              embedder=Embedder(RecordingProvider()))
        assert await schema_tables(new) is None  # no schema, no table left

        # a schema that was there (empty, someone's): only the tables the open made go
        async with await psycopg.AsyncConnection.connect(base, autocommit=True) as conn:
            await conn.execute(f"CREATE SCHEMA {kept}")
            await conn.execute(f"CREATE TABLE {kept}.theirs (x int)")
        with pytest.raises(StoreError, match="file"):
            await Memory.open(pg_schema_url(base, kept), vector=bad,
                              embedder=Embedder(RecordingProvider()))
        assert await schema_tables(kept) == ["theirs"]

        # a store with data: its open made nothing, a failed one drops nothing
        async with await Memory.open(pg_schema_url(base, data),
                                     embedder=Embedder(RecordingProvider())) as mem:
            await mem.add([Message(session_id="s1", content="keep me")])
        before = await schema_tables(data)
        with pytest.raises(StoreError, match="file"):
            await Memory.open(pg_schema_url(base, data), vector=bad,
                              embedder=Embedder(RecordingProvider()))
        assert await schema_tables(data) == before
        async with await Memory.open(pg_schema_url(base, data),
                                     embedder=Embedder(RecordingProvider())) as mem:
            assert [m.content for m in (await mem.list()).messages] == ["keep me"]
    finally:
        for schema in (new, kept, data):
            if await schema_tables(schema) is not None:
                await drop_pg_schema(base, schema)


async def _opened_or_waiting(url: str, opening: asyncio.Future[Any]) -> None:
    """Until ``opening`` has ended or a session of the test database waits for an
    advisory lock."""
    import psycopg

    query = ("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
             "AND database = (SELECT oid FROM pg_database WHERE datname = "
             "current_database())")
    async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
        for _ in range(600):
            row = await (await conn.execute(query)).fetchone()
            if opening.done() or (row and row[0]):
                return
            await asyncio.sleep(0.05)


async def test_a_failed_open_leaves_a_new_schema_another_store_opened_meanwhile() -> None:
    """Store A's open makes a new schema and its tables; store B (another connection:
    another process) opens the same schema, finding the tables there, and writes
    nothing yet; then A's open fails (its vector index does not open) and drops what it
    made, as it holds no data (PostgresStore.discard). B's tables were gone under it:
    its first write failed ('relation "messages" does not exist'). Now a store that
    made the schema drops it only while no other store holds it open: B's first write,
    after A's discard, succeeds, whether B opened before A failed or was still opening
    (its migrations done, its pool not yet open) when A dropped; and A's failed open
    with no other store still leaves nothing."""
    from chatmem.store.postgres import PostgresStore

    base = pg_url()

    async def present(schema: str) -> bool:
        import psycopg

        async with await psycopg.AsyncConnection.connect(base, autocommit=True) as conn:
            row = await (await conn.execute(
                "SELECT to_regclass(%s) IS NOT NULL", [f"{schema}.messages"])).fetchone()
            return bool(row and row[0])

    opened, still_opening, alone, alone_again = (f"t_{uuid.uuid4().hex[:16]}"
                                                 for _ in range(4))
    try:
        # B opened before A's open failed
        url = pg_schema_url(base, opened)
        a = await PostgresStore.open(url)
        b = await PostgresStore.open(url)
        try:
            await a.discard()  # as Storage does when A's vector index does not open
            await b.append([Message(session_id="s1", content="mine", id="m1")])
            assert [m.content for m in (await b.get(["m1"])).values()] == ["mine"]
        finally:
            await b.close()

        # B still opening when A drops: its migrations found the tables, its pool is
        # not open yet
        url = pg_schema_url(base, still_opening)
        a = await PostgresStore.open(url)
        b = PostgresStore.from_url(url)
        migrated, go = asyncio.Event(), asyncio.Event()
        real = b._open_pool

        async def held() -> None:
            migrated.set()
            await go.wait()
            await real()

        b._open_pool = held  # type: ignore[method-assign]
        opening = asyncio.ensure_future(b._open())
        try:
            await migrated.wait()
            await a.discard()
            go.set()
            await opening
            await b.append([Message(session_id="s1", content="mine", id="m1")])
        finally:
            go.set()
            with contextlib.suppress(Exception):
                await opening
            await b.close()

        # alone: the failed open still drops what it made; B opening while A drops
        # waits for the drop to end (an advisory lock), then makes the schema anew
        url = pg_schema_url(base, alone)
        a = await PostgresStore.open(url)
        dropping, go = asyncio.Event(), asyncio.Event()
        looked = a._holds_data

        async def slow(*args: Any) -> bool:
            dropping.set()  # under the drop's locks
            await go.wait()
            return await looked(*args)

        a._holds_data = slow  # type: ignore[method-assign]
        discarding = asyncio.ensure_future(a.discard())
        await dropping.wait()
        b_open = asyncio.ensure_future(PostgresStore.open(url))
        try:
            await _opened_or_waiting(base, b_open)
            assert not b_open.done()
            go.set()
            await discarding
            b = await b_open
            try:
                await b.append([Message(session_id="s1", content="mine", id="m1")])
            finally:
                await b.close()
        finally:
            go.set()
            await asyncio.gather(discarding, b_open, return_exceptions=True)
        a = await PostgresStore.open(pg_schema_url(base, alone_again))
        await a.discard()
        assert not await present(alone_again)
    finally:
        for schema in (opened, still_opening, alone, alone_again):
            await drop_pg_schema(base, schema)
