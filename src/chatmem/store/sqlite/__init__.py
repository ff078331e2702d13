"""SQLite backend: one file holds sessions, messages, vectors and metadata (S3).

* Every call runs on one dedicated thread that owns the connection, so many
  asyncio tasks may call concurrently and SQLite sees one writer.
* WAL journal; a message is committed before ``append`` returns.
* Exact search: the vectors live in an in-memory float32 matrix kept in step
  with the ``vectors`` table; the filter is applied *before* top-k (a narrow
  scope still returns k hits) and no row is ever skipped by a scan cap.
* The file is locked (``<file>.lock``, a portable lock from ``filelock``) while
  open: this store is its only writer, so the in-memory matrix is never stale. The
  store file itself is ``flock``-ed too (POSIX systems): the lock file is found by
  name, and another name of the same file (a hard link) had its own, so two processes
  wrote one database through two write-ahead logs and corrupted it.
* The file is marked as chatmem's by ``PRAGMA application_id`` =
  :data:`APPLICATION_ID`. Opening checks the file *before* writing anything (no
  table, no WAL switch, no lock file): a new or empty file is initialised; a file
  with our application id, or (written by chatmem before the mark existed) with
  application id 0 and only chatmem's tables, is opened (and stamped); anything
  else is refused unchanged. A file whose header does not carry our id and that has
  a ``-wal`` or ``-journal`` beside it is read through a read-only connection first:
  a read-write one would roll back that leftover journal, or merge the log into the
  file on close. (Without one, the read-write connection changes nothing, and a
  read-only one would leave ``-wal`` and ``-shm`` files behind.)
  ``create=False`` opens only an existing store.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import functools
import json
import logging
import os
import sqlite3
import stat
import threading
import time
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, Concatenate, ParamSpec, TypeVar
from urllib.parse import quote

import numpy as np
import numpy.typing as npt
from filelock import FileLock, Timeout

from ..._aio import run_to_end
from ...errors import DamagedRow, StoreClosed, StoreError
from ...models import (
    Erased,
    IndexState,
    Message,
    ScoredId,
    Session,
    StoreStats,
    VectorEntry,
    now_ms,
    retried_add,
)
from ...refusals import as_given, describe
from .. import sqlmessages as sm
from ..ann import DEFAULT_THRESHOLD, AnnManager, AnnSettings
from ..base import (
    LEXICAL_NAMESPACE,
    ArrivalClock,
    Claim,
    OneWidth,
    Retry,
    SessionSnapshot,
    SessionUnder,
    WidthConflict,
    chain_snapshots,
    chunks,
    missing_folders,
    pending_entry,
    snapshot_changes,
    sound_vector,
    stale_entries,
    widths_of,
)
from ..columns import (
    ENTRY_COLUMN_NAMES,
    ENTRY_COLUMNS,
    blob_vector,
    entry_fields,
    entry_values,
    json_text,
    load_json,
    read_rows,
)
from ..matrix import RowColumns, VectorMatrix
from ..postings import Postings
from ..sql import PENDING_ENTRY_SQL, waiting
from ..sqlmessages import SQLITE, Statement
from ..where import check_fields, compile_where, named_ids
from . import lexical
from .schema import APPLICATION_ID as APPLICATION_ID  # the file mark, re-exported
from .schema import (
    CORE_TABLES,
    SCHEMA,
    SCHEMA_VERSION,
    SQLITE_MAGIC,
    chatmem_tables,
    known_columns,
    migrate,
    signed32,
    table_columns,
)

log = logging.getLogger("chatmem.store.sqlite")

#: How long the checkpoint after an erase waits for another process's reader before it
#: gives up (the store's thread waits meanwhile: every call of the store does).
CHECKPOINT_WAIT_MS = 200
#: SQLite's result code of a write refused for want of space (``sqlite3.SQLITE_FULL``,
#: which typeshed does not declare); an extended code keeps it in its low byte.
SQLITE_FULL = 13
T = TypeVar("T")
P = ParamSpec("P")

_ENTRY_MARKS = ",".join("?" * len(ENTRY_COLUMNS))
_MSG_COLS = SQLITE.message_columns

#: Full-text merges after erases between two rebuilds (:meth:`SqliteStore._merge_lexical_sync`):
#: well under the 1,000 SQLite 3.40 survives. A rebuild costs about 3 optimizes (100,000
#: rows: 320 ms against 105-120 ms).
OPTIMIZES_BEFORE_REBUILD = 250
#: The meta key (namespace ``chatmem.lexical``) counting them.
OPTIMIZES_KEY = "optimizes"


def _row_to_message(row: sqlite3.Row) -> Message:
    """A message from a row of :data:`_MSG_COLS` (rowid first, index state last)."""
    return sm.row_to_message(SQLITE, row)


def _on_store_thread(
    method: Callable[Concatenate[SqliteStore, P], T],
) -> Callable[Concatenate[SqliteStore, P], Coroutine[Any, Any, T]]:
    """The async form of a method that uses the connection: it runs on the store's
    one thread (:meth:`SqliteStore._run`), which owns the connection and makes
    SQLite see one writer. Written once here instead of a nested function and a
    ``return await self._run(...)`` in every method."""

    async def on_thread(self: SqliteStore, /, *args: P.args, **kwargs: P.kwargs) -> T:
        return await self._run(functools.partial(method, self, *args, **kwargs))

    functools.update_wrapper(on_thread, method)  # name, docstring, signature
    return on_thread


def _sound(row: sqlite3.Row) -> bool:
    """Whether a ``vectors`` row is as chatmem writes it (:func:`_searchable` would take
    it), tested without numpy or a call per column: the search tests every stored
    vector as it loads them, and the tests that say what is wrong cost ten times as
    much (100,000 rows: 0.03 s against 0.3 s)."""
    vec, dim = row["vec"], row["dim"]
    return (type(vec) is bytes and type(dim) is int and dim > 0 and len(vec) == 4 * dim
            and type(row["ts"]) is int and bool(row["smeta_ok"]) and bool(row["mmeta_ok"]))


def _searchable(row: sqlite3.Row) -> sqlite3.Row:
    """A ``vectors`` row the search can hold: a vector of its ``dim``, an integer time
    and JSON metadata a filter can read (:class:`~chatmem.store.columns.BadColumn`
    otherwise)."""
    blob_vector(row["vec"], row["dim"])
    ENTRY_COLUMNS[2].python(row["ts"])
    for column in ("smeta", "mmeta"):
        if not row[f"{column}_ok"]:
            load_json(column, row[column], json.loads)  # says what is wrong with it
    return row


def _vector_where_sql(where: Mapping[str, Any]) -> tuple[str, list[Any]]:
    """SQL over ``vectors`` selecting the entries ``where`` selects. A top-level
    ``message_id`` condition of strings (``$eq`` / ``$in``, as recall measures given
    candidates) becomes a plain ``message_id IN (…)`` that the column's UNIQUE index
    answers: the general compiler guards each comparison with ``typeof``, which no
    index can serve (10 ms a query at 100,000 vectors), and the column is text, never
    NULL, so the guard changes nothing there."""
    ids, rest = named_ids(where)
    if ids is None:
        return compile_where(where)
    sql = f"message_id IN ({', '.join('?' * len(ids))})"
    if not rest:
        return sql, list(ids)
    rest_sql, rest_params = compile_where(rest)
    return f"{sql} AND {rest_sql}", [*ids, *rest_params]


def _remove(path: str) -> bool:
    """Remove a file, or a folder when empty; whether it is gone (or was never there)."""
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            os.rmdir(path)
        elif os.path.lexists(path):
            os.remove(path)
    except OSError:
        return False
    return True


class SqliteStore:
    """Message store and vector index in one SQLite file (or in memory)."""

    #: :meth:`message_sessions_after` walks in code point order (SQLite's binary
    #: collation of UTF-8), as :meth:`sessions_after` pages
    message_sessions_by_code_point = True

    supports_delete_by_filter = True

    def __init__(self, path: str | Path, *, ann_threshold: int | None = DEFAULT_THRESHOLD,
                 ann: AnnSettings | None = None) -> None:
        """``ann_threshold``: vectors (of one size) past which an ANN index answers broad
        queries, ``None`` = exact search only; ``ann``: every ANN setting (wins over
        ``ann_threshold``), see :class:`chatmem.store.ann.AnnSettings`."""
        self._in_memory = str(path) == ":memory:"
        #: the file (absolute, so a later chdir changes nothing), or ``:memory:``
        self.path = str(path) if self._in_memory else os.path.abspath(path)
        settings = ann if ann is not None else AnnSettings(threshold=ann_threshold)
        #: The ANN indexes (derived data, ``<db>.ann``); ``ann.enabled = False`` forces exact.
        self.ann = AnnManager(settings, None if self._in_memory else self.path + ".ann")
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="chatmem-sqlite")
        self._conn: sqlite3.Connection | None = None
        self._lock_file: Any = None
        self._file_lock: int | None = None  # the flock-ed descriptor of the store file
        self._header_id = 0  # the application id in an existing file's header
        #: What the open created (folders, the store file, its lock file), in the order
        #: made: :meth:`discard` removes it when the opener fails before using the store.
        self._made: list[str] = []
        self._closed = False
        self._arrivals = ArrivalClock()  # the ts of messages added without one
        #: R5 leases: message id -> (owner, until in ms). One process holds the file (the
        #: lock), so leases in memory order its indexers as PostgreSQL's columns do.
        self._claims: dict[str, tuple[str, int]] = {}
        self._matrices: dict[int, VectorMatrix] = {}
        #: the filter columns of ``lexical_entries`` (full-text entries without a
        #: ``vectors`` row), so that the fast filter path covers them too
        self._entry_rows = RowColumns()
        #: their changes in the open transaction, applied on commit: (rowid, entry or
        #: None for a removed row), or None for "every row went"
        self._entry_ops: list[tuple[int, VectorEntry | None] | None] = []
        #: BM25 over the token rows, built on the first lexical query (X1)
        self._postings: Postings | None = None
        #: token-row changes of the open transaction, applied to _postings on commit
        self._lex_pending: list[tuple[str, Any]] = []
        #: committed changes while _postings loads (None when no load is running)
        self._lex_backlog: list[tuple[str, Any]] | None = None
        self._postings_load: asyncio.Future[None] | None = None
        self._thread_check = threading.local()

    # ---------------------------------------------------------------- plumbing

    @classmethod
    async def open(cls, path: str | Path, *, create: bool = True,
                   ann_threshold: int | None = DEFAULT_THRESHOLD,
                   ann: AnnSettings | None = None) -> SqliteStore:
        """Open (``create=True``: or create) the store in the file ``path``.

        ``create=False`` opens only an existing chatmem store: a missing or empty file
        is a :class:`StoreError` naming it and nothing is created. A file that is not
        a chatmem store (another application's SQLite file, not SQLite at all, a
        directory) is refused either way, byte for byte unchanged."""
        store = cls(path, ann_threshold=ann_threshold, ann=ann)
        try:
            await store._run(store._open_sync, create)
        except BaseException:
            await store.close()
            raise
        return store

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        if self._closed:
            raise StoreClosed("the store is closed")
        loop = asyncio.get_running_loop()
        # in the caller's context, as asyncio.to_thread runs a call: what a caller sets
        # for the call (chatmem.store.base.one_warning_per_damage,
        # kept_snapshots_told_by_caller) holds on the store's thread too
        context = contextvars.copy_context()
        try:
            return await loop.run_in_executor(self._executor, context.run,
                                              self._unless_closed, fn, *args)
        except sqlite3.Error as exc:
            if getattr(exc, "sqlite_errorcode", 0) & 0xFF == SQLITE_FULL:
                raise self._disk_full() from exc
            raise StoreError(f"sqlite ({self.path}): {exc}") from exc
        except DamagedRow as exc:  # a row chatmem cannot read: named with the store
            exc.where = exc.where or self._where
            raise
        except RuntimeError as exc:  # executor shut down under us
            if self._closed:
                raise StoreClosed("the store is closed") from exc
            raise

    def _disk_full(self) -> StoreError:
        """SQLITE_FULL: the write was refused and rolled back (:meth:`_tx`), nothing of
        it is acknowledged; what was committed before stays."""
        return StoreError(
            f"sqlite ({self.path}): the disk is full where the store is "
            f"({os.path.dirname(self.path) or '.'}): this write was refused and nothing "
            "of it was stored; what was stored before is kept; free some space there and "
            "try again")

    @property
    def _where(self) -> str:
        """The store, as its errors name it."""
        return f"sqlite ({self.path})"

    def _unless_closed(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` on the store's thread, unless :meth:`close` ran there first: a
        call made while the store was open but queued behind the close (another task's,
        in flight when the memory closed) would find no connection."""
        if self._closed:
            raise StoreClosed("the store is closed")
        return fn(*args)

    @property
    def conn(self) -> sqlite3.Connection:
        assert self._conn is not None
        return self._conn

    def _rows(self, *statements: Statement | None) -> list[Any]:
        """The rows of these statements, in order (``None``: a statement not needed)."""
        out: list[Any] = []
        for st in statements:
            if st is not None:
                out.extend(self.conn.execute(*st).fetchall())
        return out

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        conn.row_factory = sqlite3.Row
        return conn

    def _open_sync(self, create: bool) -> None:
        if self._in_memory:
            self._conn = self._connect()
            self._init_schema(stamp=True)
            self._load_matrices()
            return
        made: list[str] = []  # files and folders this open created: removed if it fails
        try:
            new = self._check_file(create, made)
            self._hold_file()
            if new or self._header_id == signed32(APPLICATION_ID) or not any(
                    os.path.lexists(self.path + end) for end in ("-wal", "-journal")):
                self._conn = self._connect()
                stamp = self._inspect(self._conn, create, new)
            else:  # maybe another program's, with its log beside it: read it first
                stamp = self._inspect_read_only(create)
                self._conn = self._connect()
            self._take_lock(made)
            self._init_schema(stamp)
            self._load_matrices()
            self._made = made
        except BaseException as exc:
            self._abort_open(made)
            if isinstance(exc, OSError):
                raise StoreError(f"cannot open the store {self.path}: {exc}") from exc
            if isinstance(exc, sqlite3.OperationalError) and not self._writable_here():
                raise StoreError(
                    f"cannot open the store {self.path} ({exc}): its folder is read-only "
                    "(a read-only file system, or no write permission), and chatmem "
                    "writes its write-ahead log and lock file beside the store, even to "
                    "read it; copy the store to a writable folder") from exc
            raise

    def _writable_here(self) -> bool:
        """Whether the store's folder (where its -wal, -shm and lock files go) and the
        file itself may be written."""
        folder = os.path.dirname(self.path) or "."
        try:
            if hasattr(os, "statvfs") and os.statvfs(folder).f_flag & os.ST_RDONLY:
                return False
        except OSError:
            return True  # nothing more to say than SQLite's own error
        return os.access(folder, os.W_OK) and (
            not os.path.exists(self.path) or os.access(self.path, os.W_OK))

    def _check_file(self, create: bool, made: list[str]) -> bool:
        """Check the path before anything touches it; ``True``: a new or empty file
        (created here when missing and ``create``)."""
        path = self.path
        try:
            st = os.stat(path)
        except FileNotFoundError:
            st = None
        except OSError as exc:  # e.g. a parent is a file, or not searchable
            raise StoreError(f"cannot open the store {path}: {exc.strerror or exc}; check "
                             "the path") from None
        if st is not None:
            if stat.S_ISDIR(st.st_mode):
                raise StoreError(f"{path} is a directory, not a chatmem store; give a file "
                                 f"path, e.g. {os.path.join(path, 'chatmem.db')}")
            if not stat.S_ISREG(st.st_mode):
                raise StoreError(f"{path} is not a regular file, so not a chatmem store; "
                                 "give the path of a store file (e.g. chat.db)")
            if st.st_size == 0:
                if not create:
                    raise StoreError(f"{path} is an empty file, not a chatmem store yet: "
                                     "check the path, or create the store first")
                self._check_writable(st)
                return True
            self._header_id = self._check_header()
            self._check_writable(st)
            self._check_lock_path()
            return False
        if os.path.islink(path):  # O_EXCL refuses it: 'File exists', of a missing file
            raise StoreError(f"{path} is a symbolic link to {as_given(os.readlink(path), 200)}"
                             ", which does not exist; give the store file's own path, or "
                             "remove the link")
        if not create:
            raise StoreError(
                f"no chatmem store at {path} (no such file): check the path, or create the "
                "store first (chatmem add or chatmem import; in Python, create=True)"
            )
        self._check_lock_path()
        try:
            for folder in missing_folders(os.path.dirname(path)):
                os.mkdir(folder)
                made.append(folder)
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
        except OSError as exc:
            raise StoreError(f"cannot create the store {path}: {exc.strerror or exc}; check "
                             "that its folder exists or can be created and is writable"
                             ) from None
        made.append(path)
        return True

    def _check_writable(self, st: os.stat_result) -> None:
        """Refuse a store file that is read-only (``chmod 444``, or another user's), the
        folder being writable: root writes it anyway, and to anyone else SQLite's "attempt
        to write a readonly database" was blamed on the folder."""
        if st.st_mode & 0o222 and os.access(self.path, os.W_OK):
            return
        with contextlib.suppress(OSError):
            if hasattr(os, "statvfs") and os.statvfs(self.path).f_flag & os.ST_RDONLY:
                return  # a read-only file system: the open's error says so, and the fix
        raise StoreError(
            f"{self.path} is read-only, and chatmem writes to its store even to read it (its "
            f"write-ahead log, what it indexed); it was left unchanged: make it writable "
            f"(chmod u+w {self.path}) or copy it to a file you may write")

    def _check_lock_path(self) -> None:
        """Refuse a ``<file>.lock`` that is not a lock file chatmem could have made (an
        empty regular file): a user's file that has the name, a symbolic link or a folder.
        filelock 3 (which chatmem accepts) opens the lock file with ``O_TRUNC``, through
        a link too, so such a file was emptied."""
        lock_path = self.path + ".lock"
        try:
            st = os.lstat(lock_path)
        except OSError:
            return  # missing (made by the lock), or an error the lock itself names
        if stat.S_ISREG(st.st_mode) and st.st_size == 0:
            return
        what = ("a symbolic link" if stat.S_ISLNK(st.st_mode)
                else "a directory" if stat.S_ISDIR(st.st_mode)
                else f"a file of {st.st_size} bytes" if stat.S_ISREG(st.st_mode)
                else "not a regular file")
        raise StoreError(
            f"{lock_path} is {what}, not chatmem's lock file (an empty file it keeps beside "
            "the store); it was left unchanged: move it away, or give the store another "
            "path")

    def _check_header(self) -> int:
        """Refuse a file that is not SQLite, or is another application's SQLite file
        (a non-zero application id not ours), without opening it as a database; the
        application id its header carries."""
        try:
            with open(self.path, "rb") as fh:
                head = fh.read(100)
        except OSError as exc:
            raise StoreError(f"cannot read the store {self.path}: {exc.strerror or exc}"
                             ) from None
        if len(head) < 100 or not head.startswith(SQLITE_MAGIC):
            raise StoreError(f"{self.path} is not a chatmem store (not an SQLite database); "
                             "it was left unchanged: check the path")
        app_id = int.from_bytes(head[68:72], "big", signed=True)
        if app_id not in (0, signed32(APPLICATION_ID)):
            raise self._foreign(f"its application_id is {app_id & 0xFFFFFFFF:#010x}")
        return app_id

    def _foreign(self, why: str) -> StoreError:
        return StoreError(
            f"{self.path} is not a chatmem store ({why}); it belongs to another application "
            "and was left unchanged: give the path of a chatmem store or of a new file"
        )

    def _hold_file(self) -> None:
        """``flock`` the store file (its inode, whatever name it was opened by) for as
        long as the store is open. Released by :meth:`_release_file`, only after the
        SQLite connection is closed: closing any descriptor of a file drops the POSIX
        locks the process holds on it, SQLite's included."""
        try:
            import fcntl
        except ImportError:  # Windows: the lock file alone
            return

        fd = os.open(self.path, os.O_RDONLY | os.O_CLOEXEC)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise self._open_elsewhere(", or by another name (a hard link)") from None
        except OSError as exc:  # a file system without flock: the lock file still holds
            os.close(fd)
            log.debug("no flock on %s (%s): the lock file alone guards it", self.path, exc)
            return
        self._file_lock = fd

    def _open_elsewhere(self, how: str) -> StoreError:
        return StoreError(f"{self.path} is open in another process{how}: chatmem is the "
                          "only writer of its store file; stop that process or talk to it "
                          "over HTTP")

    def _release_file(self) -> None:
        if self._file_lock is not None:
            with contextlib.suppress(OSError):
                os.close(self._file_lock)
            self._file_lock = None

    def _close_connection(self) -> None:
        conn, self._conn = self._conn, None
        if conn is not None:
            conn.close()

    def _release_lock(self) -> None:
        lock, self._lock_file = self._lock_file, None
        if lock is not None:
            lock.release()  # the file stays: waiters share its inode

    def _inspect_read_only(self, create: bool) -> bool:
        """:meth:`_inspect` through a read-only connection, closed after it."""
        uri = "file:" + quote(self.path) + "?mode=ro"
        try:
            conn = sqlite3.connect(uri, uri=True, isolation_level=None)
        except sqlite3.Error as exc:
            raise self._unreadable(exc) from exc
        try:
            return self._inspect(conn, create, False)
        except sqlite3.Error as exc:
            raise self._unreadable(exc) from exc
        finally:
            conn.close()

    def _unreadable(self, exc: sqlite3.Error) -> StoreError:
        return StoreError(
            f"{self.path} cannot be read without changing it ({exc}): it is not marked as "
            "a chatmem store, and a -journal or -wal file left beside it by a program that "
            "did not close it would be rolled back or merged into it; it was left "
            "unchanged: open it with the program that wrote it, or give another path")

    def _inspect(self, conn: sqlite3.Connection, create: bool, new: bool) -> bool:
        """Read (never write) an existing file: is it chatmem's? Returns whether it
        still needs the application id stamped."""
        if new:
            return True
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        if app_id == signed32(APPLICATION_ID):
            stamp = False
        elif app_id != 0:
            raise self._foreign(f"its application_id is {app_id & 0xFFFFFFFF:#010x}")
        else:
            objects = conn.execute(
                "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite\\_%' "
                "ESCAPE '\\'").fetchall()
            tables = {name for kind, name in objects if kind == "table"}
            if not objects and version == 0:  # an empty SQLite database: nobody's yet
                if not create:
                    raise StoreError(f"{self.path} is an empty SQLite database, not a "
                                     "chatmem store yet: check the path, or create the "
                                     "store first")
            elif not (version >= 1 and CORE_TABLES <= tables <= chatmem_tables()
                      and known_columns(table_columns(conn, "messages"))):
                shown = ", ".join(sorted(tables)[:5]) or "none"
                raise self._foreign(f"application_id 0 and tables {shown}"
                                    + (", …" if len(tables) > 5 else ""))
            stamp = True  # ours, written before files were marked: stamp it
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer chatmem (schema {version}); upgrade chatmem"
            )
        return stamp

    def _take_lock(self, made: list[str]) -> None:
        lock_path = self.path + ".lock"
        existed = os.path.lexists(lock_path)
        lock = FileLock(lock_path, timeout=0, thread_local=False)
        try:
            lock.acquire(timeout=0)
        except Timeout:
            raise self._open_elsewhere(" (a server?)") from None
        except OSError as exc:
            if not existed and os.path.lexists(lock_path):
                made.append(lock_path)
            raise StoreError(f"cannot create the lock file {lock_path}: "
                             f"{exc.strerror or exc}; chatmem needs write access to the "
                             "folder of its store") from None
        if not existed:
            made.append(lock_path)
        self._lock_file = lock

    def _init_schema(self, stamp: bool) -> None:
        conn = self.conn
        if stamp:  # first, so a store killed while being set up is still recognised
            conn.execute(f"PRAGMA application_id={signed32(APPLICATION_ID)}")
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")  # WAL + NORMAL: durable across process kill
        conn.execute("PRAGMA foreign_keys=ON")
        conn.executescript(SCHEMA)
        lexical.sqlite_setup(conn)  # X1: full-text rows, rebuilt when missing or stale
        migrate(conn)  # schema 3: retry schedule columns and their indexes
        with self._tx():  # messages an older chatmem left waiting get their entries
            self._sync_pending()
        # set only when it differs: setting it writes the header page, so every open (a
        # refused import, a stats) changed the file (its change counter)
        if conn.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            conn.execute(f"PRAGMA user_version={SCHEMA_VERSION}")

    @property
    def created(self) -> bool:
        """Whether its open created the store file (it was not there)."""
        return self.path in self._made

    async def discard(self) -> None:
        """Close, and remove what the open created (the store file with the files SQLite
        keeps beside it, its lock file, folders made for it, a folder only when empty):
        the caller failed before using a store it had just made. Nothing that was there
        before the open is removed, and the ANN graph is not saved (:meth:`_abort_open`).
        A store the open did not create is only closed."""
        if self._closed:
            return
        await self._end(functools.partial(self.ann.close, save=False),
                        functools.partial(self._abort_open, self._made))

    def _abort_open(self, made: list[str]) -> None:
        """Undo a failed open: close, remove what this open created, unlock. The store
        file (and those beside it) goes while its locks are still held, so that no other
        process opens it in between and then writes to a file that is gone (where a file
        cannot be removed while open, Windows, it goes after)."""
        with contextlib.suppress(Exception):
            self._close_connection()
        ends = ("-wal", "-shm", "-journal", "")
        files = [self.path + end for end in ends] if self.path in made else []
        left = [p for p in files if not _remove(p)]
        self._release_file()
        with contextlib.suppress(Exception):
            self._release_lock()
        for path in left + [p for p in reversed(made) if p not in files]:
            _remove(path)

    def _load_matrices(self) -> None:
        self._matrices.clear()
        self._entry_rows = RowColumns()
        for r in self.conn.execute(
                "SELECT mrowid, session_id, role, model_id FROM lexical_entries"):
            self._entry_rows.put(r[0], r[1], r[2], r[3])
        cur = self.conn.execute(
            "SELECT mrowid, message_id, session_id, ts, role, model_id, dim, vec, "
            # the JSON read only when it is not JSON (a damaged row), to say so
            "json_valid(smeta) AS smeta_ok, json_valid(mmeta) AS mmeta_ok, "
            "CASE WHEN NOT json_valid(smeta) THEN smeta END AS smeta, "
            "CASE WHEN NOT json_valid(mmeta) THEN mmeta END AS mmeta "
            "FROM vectors ORDER BY mrowid"
        )
        while True:
            rows = cur.fetchmany(10000)
            if not rows:
                break
            by_dim: dict[int, list[sqlite3.Row]] = {}
            # a damaged row (written by another program, a broken disk) is left out of
            # the search with a warning: one row must not stop every recall, and
            # ``chatmem reindex`` writes it again (:meth:`scan_vectors` names it there)
            sound: list[sqlite3.Row] = []
            suspect: list[sqlite3.Row] = []
            for r in rows:
                (sound if _sound(r) else suspect).append(r)
            for r in (*sound, *read_rows("vectors", suspect, lambda r: r["message_id"],
                                         _searchable, damaged=[], where=self._where)):
                by_dim.setdefault(r["dim"], []).append(r)
            for dim, group in by_dim.items():
                mat = self._matrices.setdefault(dim, VectorMatrix(dim))
                vecs = np.frombuffer(b"".join(r["vec"] for r in group), dtype=np.float32)
                mat.put_many(
                    [r["mrowid"] for r in group], [r["message_id"] for r in group],
                    [r["session_id"] for r in group], [r["role"] for r in group],
                    [r["model_id"] for r in group], [r["ts"] for r in group],
                    vecs.reshape(len(group), dim),
                )
        # past the threshold, load <db>.ann or build the ANN in the background
        self.ann.start(self._matrices)

    @contextlib.contextmanager
    def _tx(self) -> Any:
        self.conn.execute("BEGIN IMMEDIATE")
        self._lex_pending.clear()
        self._entry_ops.clear()
        try:
            yield self.conn
        except BaseException:
            self._lex_pending.clear()
            self._entry_ops.clear()
            # SQLite rolls back by itself after some errors (SQLITE_FULL, SQLITE_IOERR):
            # a second ROLLBACK would raise over the error that says what happened
            if self.conn.in_transaction:
                self.conn.execute("ROLLBACK")
            raise
        else:
            self.conn.execute("COMMIT")
            self._apply_lexical()

    # token rows (X1): written in the caller's transaction, mirrored after the commit

    def _lex_put(self, rowid: int, text: str | None, entry: VectorEntry | None = None, *,
                 vector: bool = False) -> None:
        """The token row of message ``rowid`` and its entry row (``None``: none, its
        vector is in ``vectors``), see :func:`lexical.sqlite_put`."""
        put = lexical.sqlite_put(self.conn, rowid, text, entry, vector=vector)
        if put is None:
            return
        if put.changed:
            self._lex_pending.append(("put", (rowid, put.tokens)))
        self._entry_ops.append((rowid, entry))

    def _lex_drop(self, rowids: Sequence[int]) -> int:
        self._lex_pending.append(("drop", list(rowids)))
        self._entry_ops.extend((r, None) for r in rowids)
        return lexical.sqlite_drop(self.conn, rowids)

    def _lex_clear(self, session_id: str | None = None) -> int:
        """Drop the token rows of indexed entries (of one session); the pending entries
        of messages still waiting for a vector stay. Returns how many rows went."""
        keep = {r[0] for r in self._rows(sm.pending_entries_query(SQLITE, "mrowid",
                                                                  session_id))}
        if session_id is not None:
            return self._lex_drop([r for r in lexical.sqlite_rowids(
                self.conn, session_id=session_id) if r not in keep])
        if not keep:
            self._lex_pending.append(("clear", None))
            self._entry_ops.append(None)
            return lexical.sqlite_clear(self.conn)
        drop = {r[0] for r in self.conn.execute(
            f"SELECT id FROM lexical_docsize UNION SELECT mrowid FROM lexical_entries "
            f"WHERE NOT {PENDING_ENTRY_SQL}")}
        return self._lex_drop(sorted(drop - keep))

    def _put_pending(self, items: Sequence[tuple[int, Message]]) -> None:
        """Inside the caller's transaction: the pending full-text entries of these
        (rowid, message) pairs, with their sessions' current snapshots."""
        todo = [(rowid, m) for rowid, m in items if m.indexable]
        if not todo:
            return
        snapshots = {s.session_id: s for s in
                     self._snapshots_sync(sorted({m.session_id for _, m in todo}),
                                         skip_own=False)}
        for rowid, msg in todo:
            entry = pending_entry(msg, snapshots.get(msg.session_id))
            self._lex_put(rowid, entry.text, entry)

    def _sync_pending(self, *, session_id: str | None = None,
                      ids: Sequence[str] | None = None) -> None:
        """Inside the caller's transaction: a pending full-text entry for each waiting
        message (of one session, or these ids, or all) that has no vector and no entry,
        and none for a message no longer waiting."""
        stale = [r[0] for r in self._rows(*sm.stale_pending_query(
            SQLITE, "mrowid", session_id=session_id, ids=ids))]
        if stale:
            self._lex_drop(stale)
        rows = self._rows(*sm.unentried_query(SQLITE, session_id=session_id, ids=ids))
        self._put_pending([(int(r[0]), _row_to_message(r)) for r in rows])

    def _apply_lexical(self) -> None:
        for op in self._entry_ops:
            if op is None:
                self._entry_rows = RowColumns()
            elif op[1] is None:
                self._entry_rows.remove(op[0])
            else:
                e = op[1]
                self._entry_rows.put(op[0], e.session_id, e.role, e.model_id)
        self._entry_ops = []
        pending, self._lex_pending = self._lex_pending, []
        if self._postings is not None:
            _replay(self._postings, pending)
        elif self._lex_backlog is not None:  # loading: replayed onto the loaded index
            self._lex_backlog.extend(pending)
        # else: not loaded yet, and the load will read these rows

    async def _lexical_index(self) -> Postings:
        """The in-memory BM25 index, loaded on first use without holding up writes.

        The token rows are read on another thread through a second, read-only
        connection (a WAL snapshot), while this store keeps writing; changes
        committed meanwhile are kept in a backlog and replayed onto the loaded
        index (replaying a change the snapshot already holds is harmless: puts and
        drops are idempotent). Concurrent first queries share one load."""
        if self._postings is not None:
            return self._postings
        if self._postings_load is None or self._postings_load.cancelled():
            # none yet, or one its loop cancelled as it ended (asyncio.run returning after
            # its caller gave up): the store outlives a loop, and loads again
            self._postings_load = asyncio.ensure_future(self._load_postings())
        task = self._postings_load
        try:
            await asyncio.shield(task)
        except BaseException:
            if task.done() and self._postings_load is task:
                self._postings_load = None  # a failed load is tried again next time
            raise
        assert self._postings is not None
        return self._postings

    async def _load_postings(self) -> None:
        t0 = time.perf_counter()
        if self._in_memory:  # a second connection cannot see an in-memory database
            def _load_here() -> None:
                postings = Postings()
                lexical.sqlite_load(self.conn, postings, self._where, str(self.path))
                self._postings = postings

            await self._run(_load_here)
        else:
            try:
                await self._run(self._begin_backlog)
                postings = await asyncio.get_running_loop().run_in_executor(
                    None, self._read_postings)
                await self._run(self._finish_load, postings)
            except BaseException as exc:
                # failed or cancelled (its loop ending): no backlog is kept for it, or every
                # write appended to it until the next load
                self._drop_backlog()
                if isinstance(exc, sqlite3.Error):
                    raise StoreError(f"sqlite ({self.path}): loading the lexical index: "
                                     f"{exc}") from exc
                raise
        p = self._postings
        assert p is not None
        log.info("lexical index of %s: %d documents, %d terms loaded in %.2f s", self.path,
                 p.n_docs, len(p.term_id), time.perf_counter() - t0)

    def _begin_backlog(self) -> None:
        self._lex_backlog = []

    def _end_backlog(self) -> None:
        self._lex_backlog = None

    def _drop_backlog(self) -> None:
        """:meth:`_end_backlog` on the store's thread (where writes extend the backlog),
        behind the calls queued there and without waiting: a load cancelled cannot
        await (its loop may be ending), and one after :meth:`close` has nothing to drop."""
        with contextlib.suppress(RuntimeError):  # the store's thread stopped: closed
            self._executor.submit(self._end_backlog)

    def _read_postings(self) -> Postings:
        """Runs on a worker thread with its own read-only connection."""
        uri = Path(self.path).resolve().as_uri() + "?mode=ro"  # percent-encodes odd names
        conn = sqlite3.connect(uri, uri=True, check_same_thread=False)
        try:
            conn.execute("BEGIN")  # one snapshot for the whole read
            postings = Postings()
            lexical.sqlite_load(conn, postings, self._where, str(self.path))
            conn.execute("COMMIT")
            return postings
        finally:
            conn.close()

    def _finish_load(self, postings: Postings) -> None:
        _replay(postings, self._lex_backlog or [])
        self._lex_backlog = None
        self._postings = postings

    async def close(self) -> None:
        if self._closed:
            return
        # the ANN index first: it stops its worker and saves <db>.ann while the lock is held
        await self._end(self.ann.close, self._close_connection, self._release_file,
                        self._release_lock)

    async def _end(self, *steps: Callable[[], object]) -> None:
        """Run ``steps`` (:meth:`close`'s or :meth:`discard`'s) on the store's thread, then
        stop the thread. They run to their end even when the caller is cancelled
        meanwhile, the cancellation raised after: cancelled while queued behind another
        call, they were dropped from the queue, and the connection and the file's locks
        stayed held. A step that fails is logged and the next ones run all the same (a
        close does not fail, and the file is always let go): one failing left the
        connection and the locks held, and cancelled, the caller's cancellation was lost
        (:func:`run_to_end` raises the work's error in its place)."""

        def work() -> None:
            self._closed = True  # the calls queued behind this one end with StoreClosed
            for step in steps:
                try:
                    step()
                except Exception:
                    log.exception("closing the store %s: a step failed (the traceback "
                                  "says which); the other steps ran all the same", self.path)

        try:
            await run_to_end(asyncio.get_running_loop().run_in_executor(
                self._executor, work))
        finally:
            self._closed = True
            self._executor.shutdown(wait=True)

    # ---------------------------------------------------------------- messages

    @_on_store_thread
    def append(self, messages: Sequence[Message], *,
               states: Mapping[str, IndexState] | None = None) -> list[Message]:
        kept = sm.check_kept_states(states)
        stored: list[Message] = []
        fresh: list[tuple[int, Message]] = []  # new rows: (rowid, message)
        # per (session, requested ts): the first millisecond the batch has not yet
        # checked, so a batch of equal timestamps walks their run once
        after: dict[tuple[str, int], int] = {}
        with self._tx() as conn:
            for i, msg in enumerate(messages):
                mid = msg.id or uuid.uuid4().hex
                existing = conn.execute(
                    f"SELECT {_MSG_COLS} FROM messages WHERE id=?", (mid,)
                ).fetchone()
                if existing is not None:  # an idempotent retry of the same add, or an error
                    stored.append(retried_add(_row_to_message(existing), msg, mid))
                    continue
                requested = msg.ts if msg.ts is not None else self._arrivals.next()
                # ts is unique within a session: stagger equal timestamps forward, to
                # the end of the run of taken ones
                key = (msg.session_id, requested)
                ts = after.get(key, requested)
                if conn.execute(*sm.ts_taken_query(SQLITE, msg.session_id, ts)).fetchone():
                    ts = conn.execute(*sm.first_free_ts_query(SQLITE, msg.session_id, ts)
                                      ).fetchone()[0]
                sm.check_staggered(ts, requested, f"messages[{i}]")
                after[key] = ts + 1
                if msg.ts is None:
                    self._arrivals.taken(ts)
                cur = conn.execute(sm.insert_message_sql(SQLITE), sm.message_row(
                    msg, mid, ts, json.dumps(list(msg.mentions), ensure_ascii=False),
                    json.dumps(dict(msg.metadata), ensure_ascii=False), kept.get(mid)))
                conn.execute(*sm.insert_sessions_query(SQLITE, [msg.session_id]))
                stored.append(Message(**{**msg.__dict__, "id": mid, "ts": ts}))
                assert cur.lastrowid is not None
                if mid not in kept:  # a kept state waits for nothing: no pending entry
                    fresh.append((cur.lastrowid, stored[-1]))
            # X1: findable by full text before it is embedded, in this transaction
            self._put_pending(fresh)
        return stored

    @_on_store_thread
    def get(self, ids: Sequence[str], *, damaged: list[str] | None = None
            ) -> dict[str, Message]:
        return sm.by_id_result(SQLITE, self._rows(*sm.get_query(SQLITE, ids)), damaged,
                               self._where)

    @_on_store_thread
    def entry_times(self, ids: Sequence[str]) -> dict[str, int]:
        """The times the index entries of these messages hold (their vector's row, or the
        full-text row of a pending message or of a separate index's entry): a copy of
        each message's time, written as it was queued or indexed, by which an erase
        places a message whose own time is damaged (a hand edit: only SQLite's ``ts``
        column holds other than an integer; a message's time never changes) among the
        turns beside it (``Memory.erase``). A message without such an entry (never
        indexable, or its rows damaged too) is left out."""
        out: dict[str, int] = {}
        for chunk in SQLITE.id_chunks(ids):
            marks = ", ".join("?" * len(chunk))
            for mid, ts in self.conn.execute(
                    f"SELECT message_id, ts FROM vectors WHERE message_id IN ({marks}) "
                    "AND typeof(ts) = 'integer' UNION ALL SELECT message_id, ts FROM "
                    f"lexical_entries WHERE message_id IN ({marks}) "
                    "AND typeof(ts) = 'integer'", [*chunk, *chunk]):
                out.setdefault(mid, ts)
        return out

    @_on_store_thread
    def rewrite(self, session_id: str, ts: int, *, content: str | None = None,
                visible_content: str | None = None,
                metadata: Mapping[str, Any] | None = None) -> Message | None:
        with self._tx() as conn:
            row = conn.execute(*sm.rewrite_select_query(SQLITE, session_id, ts)).fetchone()
            if row is None:
                return None
            new = sm.rewritten(_row_to_message(row), content, visible_content, metadata)
            conn.execute(*sm.rewrite_update_query(
                SQLITE, row, new, json.dumps(dict(new.metadata), ensure_ascii=False)))
            if conn.execute(f"SELECT 1 FROM lexical_entries WHERE mrowid=? AND "
                            f"{PENDING_ENTRY_SQL}", (row[0],)).fetchone():
                self._put_pending([(row[0], new)])  # its pending entry follows (X1)
            return new

    @_on_store_thread
    def scan_messages(self, after: int, limit: int
                      ) -> list[tuple[int, Message, IndexState]]:
        return sm.scan_messages_result(
            SQLITE, self._rows(sm.scan_messages_query(SQLITE, after, limit)))

    @_on_store_thread
    def scan_vectors(self, after: str | None, limit: int, *,
                     damaged: list[str] | None = None) -> list[VectorEntry]:
        rows = self.conn.execute(
            f"SELECT {ENTRY_COLUMN_NAMES}, dim, vec FROM vectors WHERE message_id > ? "
            "ORDER BY message_id LIMIT ?", (after or "", limit)).fetchall()
        return read_rows(
            "vectors", rows, lambda r: r[0],
            lambda r: VectorEntry(**entry_fields(tuple(r)[:-2], load=json.loads),
                                  vector=blob_vector(r[-1], r[-2])),
            damaged=damaged, reembedding=True, where=self._where)

    @_on_store_thread
    def index_states(self, ids: Sequence[str]) -> dict[str, IndexState]:
        return sm.index_states_result(self._rows(*sm.index_states_query(SQLITE, ids)))

    @_on_store_thread
    def delete_messages(self, ids: Sequence[str]) -> int:
        n = 0
        with self._tx() as conn:
            for chunk in SQLITE.id_chunks(ids):
                self._drop_vectors_sync(*SQLITE.in_list("message_id", chunk))
                # separate-index rows too
                self._lex_drop(lexical.sqlite_rowids(conn, message_ids=chunk))
                n += conn.execute(*sm.delete_messages_query(SQLITE, chunk)).rowcount
        return n

    @_on_store_thread
    def erase_messages(self, ids: Sequence[str]) -> Erased:
        conn = self.conn
        secure = conn.execute("PRAGMA secure_delete").fetchone()[0]
        conn.execute("PRAGMA secure_delete=ON")  # freed pages are overwritten (I8)
        n = vectors = lex = 0
        try:
            with self._tx():
                for chunk in SQLITE.id_chunks(ids):
                    # and the rows of entries whose message row is gone (deleted by
                    # hand): their full-text row is at their own rowid
                    rowids = [*lexical.sqlite_rowids(conn, message_ids=chunk),
                              *self._unmatched_rowids(chunk)]
                    lex += self._lex_drop(rowids)  # indexed and pending full text
                    vectors += self._drop_vectors_sync(*SQLITE.in_list("message_id", chunk))
                    n += conn.execute(*sm.delete_messages_query(SQLITE, chunk)).rowcount
                if lex:
                    # FTS5 keeps a deleted row's terms in its segments until they merge:
                    # merge them now, so that no term of an erased message stays
                    self._merge_lexical_sync(conn)
        finally:
            conn.execute(f"PRAGMA secure_delete={int(secure)}")
        if n or vectors or lex:
            self._truncate_wal()
        # the graph keeps the erased vectors (quantised) as dead labels, on disk too:
        # drop it and its file; it is rebuilt from the live vectors (exact meanwhile)
        ann = self.ann.purge_dead() if vectors else 0
        return Erased(messages=n, vectors=vectors, lexical=lex, ann=ann)

    def _unmatched_rowids(self, ids: Sequence[str]) -> list[int]:
        """The rowids of the entries (vectors, full-text entries) of these message ids
        that no message row holds: its message was deleted outside chatmem (a hand
        edit), and an erase by the entry's id reaches them."""
        marks = ", ".join("?" * len(ids))
        gone = "NOT EXISTS (SELECT 1 FROM messages m WHERE m.rowid = e.mrowid)"
        return [r[0] for r in self.conn.execute(
            f"SELECT mrowid FROM vectors e WHERE message_id IN ({marks}) AND {gone} UNION "
            f"SELECT mrowid FROM lexical_entries e WHERE message_id IN ({marks}) AND {gone}",
            [*ids, *ids])]

    def _merge_lexical_sync(self, conn: sqlite3.Connection) -> None:
        """Merge the full-text segments after an erase (in its transaction): FTS5's
        ``optimize``, and every :data:`OPTIMIZES_BEFORE_REBUILD`-th time a ``rebuild``
        from the rows' own text instead (it drops the erased terms as well). SQLite
        3.40's FTS5 (Debian 12's) fails the 1,001st ``optimize`` that follows a delete
        in one database with "database disk image is malformed", whatever its size or
        connection, and every write after it (reproduced without chatmem); a rebuild
        starts the count again. The count is kept in the store (meta ``chatmem.lexical``
        ``optimizes``): it is the database's, not the process's."""
        done = sm.meta_get_result(
            conn.execute(*sm.meta_get_query(SQLITE, LEXICAL_NAMESPACE, OPTIMIZES_KEY)).fetchone())
        # no count: a store erased in by an older chatmem, which may have merged
        # hundreds of times already; it is rebuilt at once
        count = int(done) + 1 if done and done.isdigit() else OPTIMIZES_BEFORE_REBUILD
        if count >= OPTIMIZES_BEFORE_REBUILD:
            conn.execute("INSERT INTO lexical(lexical) VALUES ('rebuild')")
            count = 0
        else:
            conn.execute("INSERT INTO lexical(lexical) VALUES ('optimize')")
        conn.execute(*sm.meta_set_query(SQLITE, LEXICAL_NAMESPACE, OPTIMIZES_KEY, str(count)))

    def _truncate_wal(self) -> None:
        """Copy the write-ahead log into the database and empty it, after an erase.

        The log keeps every page as a transaction wrote it, the erased text included,
        until a checkpoint copies the pages back and the log is overwritten from its
        start: in a server that runs for weeks, for weeks (measured: the erased words
        were still in ``<db>-wal`` after ``POST /v1/forget`` answered). The pages the
        erase wrote are overwritten already (``secure_delete``); a TRUNCATE checkpoint
        puts them in the database file over the old ones and cuts the log to zero
        bytes. A reader of the file in another process (the ``sqlite3`` shell) can
        hold the checkpoint back: then the words stay in the log until the next
        erase or the close, and a warning says so."""
        conn = self.conn
        wait = conn.execute("PRAGMA busy_timeout").fetchone()[0]
        conn.execute(f"PRAGMA busy_timeout={CHECKPOINT_WAIT_MS}")  # not the store's 5 s
        try:
            busy, _, _ = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        finally:
            conn.execute(f"PRAGMA busy_timeout={int(wait)}")
        if busy:
            log.warning("%s: another process is reading the store, so the write-ahead "
                        "log still holds the erased messages until the next erase or "
                        "until the store is closed", self.path)

    @_on_store_thread
    def list_messages(self, *, session_ids: Sequence[str] | None = None,
                      speaker_id: str | None = None, since: int | None = None,
                      until: int | None = None, after: tuple[int, str] | None = None,
                      limit: int = 100, newest_first: bool = False,
                      damaged: list[str] | None = None, platform: str | None = None,
                      or_sessions: Sequence[str] = ()) -> list[Message]:
        return sm.messages_result(SQLITE, self._rows(sm.list_query(
            SQLITE, session_ids=session_ids, speaker_id=speaker_id, since=since,
            until=until, after=after, limit=limit, newest_first=newest_first,
            platform=platform, or_sessions=or_sessions)), damaged, self._where)

    @_on_store_thread
    def range(self, session_id: str, around_ts: int, before: int, after: int
              ) -> list[Message]:
        prev, nxt = sm.range_query(SQLITE, session_id, around_ts, before, after)
        return sm.range_result(SQLITE, self._rows(prev), self._rows(nxt))

    @_on_store_thread
    def recent(self, session_id: str, n: int) -> list[Message]:
        return sm.recent_result(SQLITE, self._rows(sm.recent_query(SQLITE, session_id, n)))

    @_on_store_thread
    def recent_heads(self, session_id: str, n: int, *, until: int | None = None
                     ) -> list[Message]:
        return sm.heads_result(SQLITE, self._rows(sm.recent_query(
            SQLITE, session_id, n, words=False, until=until)))

    @_on_store_thread
    def pending(self, limit: int, *, include_failed: bool = False,
                owner: str | None = None) -> list[Message]:
        return self._claimable(owner, sm.messages_result(
            SQLITE, self._rows(sm.pending_query(SQLITE, limit, include_failed))))

    @_on_store_thread
    def due_retries(self, limit: int, due: int, *, owner: str | None = None
                    ) -> list[Message]:
        return self._claimable(owner, sm.messages_result(
            SQLITE, self._rows(sm.due_retries_query(SQLITE, limit, due))))

    def _claimable(self, owner: str | None, found: list[Message]) -> list[Message]:
        """Of ``found``, those ``owner`` may claim (``None``: all). The leases live in
        memory, so this filters after the query (and may return fewer than asked)."""
        if owner is None or not self._claims:
            return found
        now = now_ms()
        return [m for m in found if self._claims.get(m.id or "", ("", 0))[1] <= now
                or self._claims[m.id or ""][0] == owner]

    @_on_store_thread
    def claim(self, owner: str, ids: Sequence[str], lease_ms: int) -> Claim:
        now = now_ms()
        states = sm.index_states_result(self._rows(*sm.index_states_query(SQLITE, ids)))
        got: list[str] = []
        held: int | None = None
        for mid in dict.fromkeys(ids):
            if mid not in states or not waiting(states[mid]):
                continue
            holder, until = self._claims.get(mid, ("", 0))
            if until <= now or holder == owner:
                self._claims[mid] = (owner, now + int(lease_ms))
                got.append(mid)
            else:
                held = until - now if held is None else min(held, until - now)
        return Claim(got, held)

    async def clock_ms(self) -> int:
        # one process holds the file (its lock): that process's clock is every reader's
        if self._closed:
            raise StoreClosed("the store is closed")
        return now_ms()

    @_on_store_thread
    def release_claims(self, owner: str, ids: Sequence[str]) -> int:
        mine = [i for i in set(ids) if self._claims.get(i, ("", 0))[0] == owner]
        for mid in mine:
            del self._claims[mid]
        return len(mine)

    @contextlib.asynccontextmanager
    async def message_lock(self, session_id: str, ts: int) -> AsyncIterator[None]:
        # one process holds the file, and Memory orders its own rewrites of a message
        yield

    @contextlib.asynccontextmanager
    async def key_lock(self, key: str) -> AsyncIterator[None]:
        # one process holds the file: its callers order their own writes (Memory._key_lock)
        yield

    @_on_store_thread
    def failed_after(self, after: int, limit: int) -> list[tuple[int, Message]]:
        return sm.failed_after_result(SQLITE, self._rows(sm.failed_after_query(SQLITE, after,
                                                                               limit)))

    @_on_store_thread
    def retries(self, ids: Sequence[str]) -> dict[str, Retry]:
        return sm.retries_result(self._rows(*sm.retries_query(SQLITE, ids)),
                                 self._where)

    @_on_store_thread
    def schedule_retries(self, schedules: Mapping[str, Retry]) -> int:
        with self._tx() as conn:
            return sum(conn.execute(sm.schedule_retries_sql(SQLITE), row).rowcount
                       for row in sm.schedule_rows(schedules))

    @_on_store_thread
    def next_retry_at(self) -> int | None:
        return sm.next_retry_result(self.conn.execute(*sm.NEXT_RETRY_QUERY).fetchone())

    @_on_store_thread
    def set_index_state(self, ids: Sequence[str], state: IndexState, *,
                        unless_model: str | None = None) -> None:
        with self._tx() as conn:
            for sql, params in sm.set_index_state_query(SQLITE, ids, state):
                if unless_model is not None:  # embedded meanwhile (another reindex)
                    sql += (" AND rowid NOT IN (SELECT mrowid FROM vectors "
                            "WHERE model_id = ?)")
                    params = [*params, unless_model]
                conn.execute(sql, params)
            self._sync_pending(ids=list(ids))  # X1: pending entries follow the state

    @_on_store_thread
    def reset_index_state(self, old: IndexState, new: IndexState,
                          session_id: str | None = None) -> int:
        with self._tx() as conn:
            n = int(conn.execute(
                *sm.reset_index_state_query(SQLITE, old, new, session_id)).rowcount)
            if n and waiting(old) != waiting(new):
                self._sync_pending(session_id=session_id)
            return n

    # ---------------------------------------------------------------- sessions

    @_on_store_thread
    def upsert_session(self, session: Session) -> Session:
        with self._tx() as conn:
            row = conn.execute(*sm.session_query(SQLITE, session.id)).fetchone()
            # a column it cannot read (a hand edit) is replaced, as every column is
            old, unread = sm.stored_session(SQLITE, row, self._where)
            conn.execute(*sm.upsert_session_query(
                SQLITE, session, json.dumps(dict(session.metadata), ensure_ascii=False),
                json.dumps(dict(session.settings), ensure_ascii=False)))
            # the vectors follow the session in the same transaction
            own, tree = snapshot_changes(old, session, unread=unread)
            if own:
                ids = [session.id, *(self._descendants_sync(session.id) if tree else ())]
                self._update_snapshots_sync(self._snapshots_sync(ids))
        return session

    def _descendants_sync(self, session_id: str) -> list[str]:
        return sm.ids_result(self._rows(sm.descendants_query(SQLITE, session_id)))

    def _snapshots_sync(self, ids: Sequence[str], *, skip_own: bool = True
                        ) -> list[SessionSnapshot]:
        """:func:`~chatmem.store.base.chain_snapshots` of ``ids``."""
        cache: dict[str, Session | None] = {}
        damaged: list[DamagedRow] = []

        def lookup(sid: str) -> Session | None:
            if sid not in cache:
                row = self.conn.execute(*sm.session_query(SQLITE, sid)).fetchone()
                cache[sid] = None if row is None else sm.row_to_session(
                    SQLITE, row, damaged, self._where)
            return cache[sid]

        return chain_snapshots(ids, lookup, damaged, skip_own=skip_own)

    def _update_snapshots_sync(self, snapshots: Sequence[SessionSnapshot]) -> int:
        """Inside the caller's transaction: the session fields of the vector entries (and
        of the full-text rows of a separate index's entries) of these sessions."""
        n = 0
        for s in snapshots:
            count, updates = sm.snapshot_queries(
                SQLITE, s, json.dumps(dict(s.metadata), ensure_ascii=False))
            n += self.conn.execute(*count).fetchone()[0]
            for st in updates:
                self.conn.execute(*st)
        return n

    async def descendant_sessions(self, session_id: str) -> list[str]:
        return await self._run(self._descendants_sync, session_id)

    @_on_store_thread
    def sessions_under(self, column: str, value: str) -> list[SessionUnder]:
        return sm.under_result(self._rows(sm.sessions_under_query(SQLITE, column, value)))

    @_on_store_thread
    def update_session_snapshot(self, snapshots: Sequence[SessionSnapshot]) -> int:
        with self._tx():
            return self._update_snapshots_sync(list(snapshots))

    @_on_store_thread
    def get_sessions(self, ids: Sequence[str], *, damaged: list[DamagedRow] | None = None
                     ) -> dict[str, Session]:
        return {s.id: s for s in sm.sessions_result(
            SQLITE, self._rows(*sm.get_sessions_query(SQLITE, ids)), damaged, self._where)}

    @_on_store_thread
    def all_sessions(self) -> list[Session]:
        with self._naming_rowid():
            return sm.sessions_result(SQLITE, self._rows(sm.all_sessions_query(SQLITE)))

    @_on_store_thread
    def sessions_after(self, after: str | None, limit: int, *,
                       damaged: list[DamagedRow] | None = None) -> list[Session]:
        if damaged is not None:
            return self._readable_sessions_after(after, limit, damaged)
        with self._naming_rowid():
            return sm.sessions_result(
                SQLITE, self._rows(sm.sessions_after_query(SQLITE, after, limit)), None,
                self._where)

    @_on_store_thread
    def message_sessions_after(self, after: str | None, limit: int
                               ) -> list[tuple[str, bool]]:
        return sm.message_sessions_result(
            self._rows(sm.message_sessions_after_query(SQLITE, after, limit)))

    @_on_store_thread
    def message_sessions(self, ids: Sequence[str]) -> set[str]:
        return set(sm.ids_result(self._rows(sm.message_sessions_query(SQLITE, ids))))

    def _readable_sessions_after(self, after: str | None, limit: int,
                                 damaged: list[DamagedRow]) -> list[Session]:
        """:meth:`sessions_after` for a caller that goes past what it cannot read: a
        JSON column read as ``{}``, and a row that is no session it can read (its id
        NULL or a BLOB, a text column holding a BLOB: a hand edit) left out, each
        added to ``damaged``. The page reads on past a row left out, so it holds
        ``limit`` sessions unless the table ends (a caller stops at a short page);
        the rows whose id is NULL sort first and are named with the first page."""
        if after is None:
            damaged += [sm.null_session_id(self._where, rowid=int(r[0])) for r in
                        self.conn.execute("SELECT rowid FROM sessions WHERE id IS NULL "
                                          "ORDER BY rowid")]
        out: list[Session] = []
        cursor: str | bytes | None = after
        while len(out) < limit:
            asked = limit - len(out)
            rows = self._rows(sm.sessions_after_query(SQLITE, cursor, asked, nulls=False))
            for row in rows:
                try:
                    out.append(sm.row_to_session(SQLITE, row, damaged, self._where))
                except DamagedRow as exc:
                    damaged.append(exc)
            if len(rows) < asked:
                break
            cursor = rows[-1][0]
        return out

    @contextlib.contextmanager
    def _naming_rowid(self) -> Iterator[None]:
        """A session row whose id is NULL (SQLite's TEXT PRIMARY KEY takes it: a hand
        edit), read by a listing, is named by its rowid: it has no id to name it by."""
        try:
            yield
        except DamagedRow as exc:
            if exc.table == "sessions" and exc.column == "id" and not exc.row \
                    and exc.rowid is None:
                row = self.conn.execute("SELECT rowid FROM sessions WHERE id IS NULL "
                                        "ORDER BY rowid LIMIT 1").fetchone()
                exc.rowid = None if row is None else int(row[0])
            raise

    # ---------------------------------------------------------------- metadata area

    @_on_store_thread
    def meta_get(self, namespace: str, key: str) -> str | None:
        return sm.meta_get_result(
            self.conn.execute(*sm.meta_get_query(SQLITE, namespace, key)).fetchone())

    @_on_store_thread
    def meta_set(self, namespace: str, key: str, value: str) -> None:
        self.conn.execute(*sm.meta_set_query(SQLITE, namespace, key, value))

    @_on_store_thread
    def meta_set_default(self, namespace: str, key: str, value: str) -> str:
        with self._tx():  # no other writer between the insert and the read
            self.conn.execute(*sm.meta_set_default_query(SQLITE, namespace, key, value))
            stored = sm.meta_get_result(
                self.conn.execute(*sm.meta_get_query(SQLITE, namespace, key)).fetchone())
        assert stored is not None
        return stored

    @_on_store_thread
    def meta_delete(self, namespace: str, key: str) -> None:
        self.conn.execute(*sm.meta_delete_query(SQLITE, namespace, key))

    @_on_store_thread
    def meta_guarded(self, namespace: str, *, unless: tuple[str, str] | None = None,
                     writes: Sequence[tuple[str, str | None]] = (),
                     defaults: Sequence[tuple[str, str]] = ()) -> bool:
        # one process holds the file (README § Scaling) and one thread runs its
        # statements: one transaction is the whole of the guard
        with self._tx():
            if unless is not None and sm.meta_get_result(self.conn.execute(
                    *sm.meta_get_query(SQLITE, namespace, unless[0])).fetchone()) == unless[1]:
                return False
            for statement in sm.meta_writes(SQLITE, namespace, writes, defaults):
                self.conn.execute(*statement)
        return True

    @_on_store_thread
    def meta_items(self, namespace: str | None = None) -> list[tuple[str, str, str]]:
        return sm.meta_items_result(self._rows(sm.meta_items_query(SQLITE, namespace)))

    # ---------------------------------------------------------------- stats / clear

    @_on_store_thread
    def stats(self) -> StoreStats:
        counts, by_model, next_retry = sm.STATS_QUERIES
        sessions = sm.sessions_count_query(SQLITE)  # with those left without a row
        states = self._rows(counts)
        holders = {v: (self.conn.execute(*sm.unknown_state_query(SQLITE, v)).fetchone()
                       or ("",))[0] for v in sm.unknown_states(states)}
        return sm.stats_result(states, self.conn.execute(*sessions).fetchone(),
                               self._rows(by_model), self.conn.execute(*next_retry).fetchone(),
                               holders)

    @_on_store_thread
    def clear_messages(self, session_id: str | None = None) -> int:
        with self._tx() as conn:
            # X1: the pending entries go with their messages
            self._lex_drop([r[0] for r in self._rows(
                sm.pending_entries_query(SQLITE, "mrowid", session_id))])
            return int(conn.execute(*sm.clear_messages_query(SQLITE, session_id)).rowcount)

    # ---------------------------------------------------------------- vector index

    @_on_store_thread
    def upsert(self, entries: Sequence[VectorEntry], *, current_only: bool = False,
               one_width: OneWidth | None = None,
               owner: str | None = None) -> None:
        if not entries:
            return
        vecs = [sound_vector(e.vector, f"entries[{i}] ({describe(e.message_id)}).vector")
                for i, e in enumerate(entries)]
        rows = []
        with self._tx() as conn:
            if one_width is not None:  # in the transaction: the file has one writer
                self._check_width(widths_of(entries), one_width)
            stale = stale_entries(entries, sm.by_id_result(SQLITE, self._rows(
                *sm.get_query(SQLITE, [e.message_id for e in entries])))
                                  ) if current_only else set()
            for e, vec in zip(entries, vecs):
                r = conn.execute("SELECT rowid FROM messages WHERE id=?", (e.message_id,)
                                 ).fetchone()
                if e.message_id in stale:  # rewritten meanwhile
                    # its lease ends only if it is still the writer's: one another
                    # indexer took over since (the writer's ran out) is embedding the
                    # new text, and cleared it would be taken a third time
                    if self._claims.get(e.message_id, ("", 0))[0] == owner:
                        del self._claims[e.message_id]
                    continue
                # written (it waits no more) or deleted: no lease is left
                self._claims.pop(e.message_id, None)
                if r is None:
                    continue
                conn.execute(
                    f"INSERT OR REPLACE INTO vectors (mrowid, {ENTRY_COLUMN_NAMES}, dim, vec) "
                    f"VALUES (?, {_ENTRY_MARKS}, ?, ?)",
                    (r[0], *entry_values(e, json_text), vec.shape[0], vec.tobytes()),
                )
                self._lex_put(r[0], e.text, vector=True)  # X1: full text, same transaction
                # the vector and the index state commit together: exactly once after a crash
                conn.execute("UPDATE messages SET index_state=?, attempts=0, retry_at=0 "
                             "WHERE rowid=?", (int(IndexState.INDEXED), r[0]))
                rows.append((r[0], e, vec))
        # the transaction committed: bring the matrix in step
        for rowid, e, vec in rows:
            for dim, mat in self._matrices.items():
                if dim != vec.shape[0]:
                    mat.remove(rowid)
            mat = self._matrices.setdefault(vec.shape[0], VectorMatrix(vec.shape[0]))
            mat.put_many([rowid], [e.message_id], [e.session_id], [e.role], [e.model_id],
                         [e.ts], vec[None, :])

    def _drop_vectors_sync(self, where_sql: str, params: Sequence[Any]) -> int:
        rowids = [r[0] for r in self.conn.execute(
            f"SELECT mrowid FROM vectors WHERE {where_sql}", params)]
        if not rowids:
            return 0
        for chunk in chunks(rowids, 500):
            q = ",".join("?" * len(chunk))
            self.conn.execute(f"DELETE FROM vectors WHERE mrowid IN ({q})", chunk)
        self._lex_drop(rowids)  # X1: full text follows the vectors
        for mat in self._matrices.values():
            for rowid in rowids:
                mat.remove(rowid)
        return len(rowids)

    @_on_store_thread
    def delete_vectors(self, message_ids: Sequence[str]) -> int:
        n = 0
        with self._tx():
            for chunk in chunks(list(message_ids), 500):
                q = ",".join("?" * len(chunk))
                n += self._drop_vectors_sync(f"message_id IN ({q})", chunk)
        return n

    @_on_store_thread
    def delete_by_filter(self, where: Mapping[str, Any]) -> int:
        sql, params = compile_where(where)
        with self._tx():
            return self._drop_vectors_sync(sql, params)

    async def query(self, vector: npt.NDArray[np.float32], k: int,
                    where: Mapping[str, Any] | None = None) -> list[ScoredId]:
        if k <= 0:
            return []
        q = sound_vector(vector, "query vector")
        return await self._run(self._query_sync, q, k, where)

    def _query_sync(self, q: npt.NDArray[np.float32], k: int,
                    where: Mapping[str, Any] | None) -> list[ScoredId]:
        if where:
            check_fields(where)  # a bad filter is an error even on an empty index
        mat = self._matrices.get(q.shape[0])
        if mat is None or mat.size == 0:
            return []
        rows: npt.NDArray[np.int64] | None = None
        if where:
            fast = mat.fast_rows(where)
            if fast is not None:
                rows = fast
            else:
                sql, params = _vector_where_sql(where)
                rowids = [r[0] for r in self.conn.execute(
                    f"SELECT mrowid FROM vectors WHERE {sql}", params)]
                rows = mat.rows_for(rowids)
        # past the threshold the ANN answers unfiltered and broad queries; it declines
        # (None) while building, for narrow filters and when too few candidates survive
        ann = self.ann.for_matrix(mat)
        if ann is not None:
            hits = ann.query(q, k, rows)
            if hits is not None:
                return hits
        return mat.top_k(q, k, rows)

    @_on_store_thread
    def count_by_model(self) -> dict[str, int]:
        # the vectors' count alone: not the messages' states, which a damaged row of a
        # message (its index_state, its retry time) fails to read (auto's model choice,
        # at every open, reads this)
        return sm.count_by_model_result(self._rows(sm.COUNT_BY_MODEL_QUERY))

    def _check_width(self, widths: Mapping[str, int], rule: OneWidth) -> None:
        for model, width in widths.items():
            if rule.takes(model, width):
                continue
            held = sm.other_width_result(self.conn.execute(
                *sm.other_width_query(SQLITE, model, width)).fetchone())
            if held is not None:
                raise WidthConflict(model, width, held)

    @_on_store_thread
    def other_width(self, model_id: str, width: int) -> int | None:
        return sm.other_width_result(self.conn.execute(
            *sm.other_width_query(SQLITE, model_id, width)).fetchone())

    @_on_store_thread
    def vector_sizes(self) -> dict[str, frozenset[int]]:
        return sm.vector_sizes_result(self._rows(sm.VECTOR_SIZES_QUERY))

    @_on_store_thread
    def clear_vectors(self, session_id: str | None = None) -> int:
        with self._tx():
            if session_id is None:
                n = int(self.conn.execute("DELETE FROM vectors").rowcount)
                self._lex_clear()  # X1: full text follows the vectors (pending entries stay)
            else:
                n = self._drop_vectors_sync("session_id=?", (session_id,))
            self.conn.execute(*sm.reset_index_state_query(
                SQLITE, IndexState.INDEXED, IndexState.CLEARED, session_id))
            if session_id is None:
                self._matrices.clear()
            return n

    # ---------------------------------------------------------------- lexical index (X1)

    @_on_store_thread
    def upsert_lexical(self, entries: Sequence[VectorEntry]) -> None:
        """Full-text rows for entries whose vectors live in a separate index."""
        with self._tx() as conn:
            for e in entries:
                r = conn.execute("SELECT rowid FROM messages WHERE id=?",
                                 (e.message_id,)).fetchone()
                if r is not None:
                    self._lex_put(r[0], e.text, e, vector=True)

    @_on_store_thread
    def delete_lexical(self, message_ids: Sequence[str]) -> int:
        with self._tx() as conn:
            return self._lex_drop(lexical.sqlite_rowids(conn,
                                                        message_ids=list(message_ids)))

    @_on_store_thread
    def clear_lexical(self, session_id: str | None = None) -> int:
        with self._tx():
            return self._lex_clear(session_id)

    async def lexical_query(self, text: str, k: int,
                            where: Mapping[str, Any] | None = None) -> list[ScoredId]:
        postings = await self._lexical_index()

        def _query() -> list[ScoredId]:
            mats = list(self._matrices.values())
            if not where:
                return lexical.sqlite_query(self.conn, postings, text, k, matrices=mats,
                                            store=self._where)
            sql, params = compile_where(where)  # validates, even when the fast path answers
            ids, rest = named_ids(where)
            if ids is not None:  # given messages (recall measuring its candidates)
                return lexical.sqlite_query(
                    self.conn, postings, text, k, self._named_rowids(ids),
                    where=compile_where(rest) if rest else None, matrices=mats, store=self._where)
            allowed = self._fast_rowids(where)
            if allowed is not None:
                return lexical.sqlite_query(self.conn, postings, text, k, allowed,
                                            matrices=mats, store=self._where)
            return lexical.sqlite_query(self.conn, postings, text, k, where=(sql, params),
                                        matrices=mats, store=self._where)

        return await self._run(_query)

    def _named_rowids(self, ids: Sequence[str]) -> npt.NDArray[np.int64]:
        """The rowids of the entries of these message ids — vectors and full-text
        entries, by their UNIQUE ``message_id`` indexes. BM25 then probes just those
        documents (``Postings.top_k``)."""
        marks = ", ".join("?" * len(ids))
        rows = self.conn.execute(
            f"SELECT mrowid FROM vectors WHERE message_id IN ({marks}) UNION "
            f"SELECT mrowid FROM lexical_entries WHERE message_id IN ({marks})",
            [*ids, *ids]).fetchall()
        return np.asarray([r[0] for r in rows], dtype=np.int64)

    def _fast_rowids(self, where: Mapping[str, Any]) -> npt.NDArray[np.int64] | None:
        """The rowids of the entries matching ``where`` — vectors, and full-text entries
        without a vector row (pending messages, a separate index's entries) — read from
        the in-memory columns for the session/model/role shapes that recall builds (as
        dense search does); ``None`` for any other filter."""
        parts = []
        for columns in (*self._matrices.values(), self._entry_rows):
            rows = columns.fast_rows(where)
            if rows is None:
                return None
            parts.append(columns.rowid[rows])
        return np.concatenate(parts)


def _replay(postings: Postings, changes: Sequence[tuple[str, Any]]) -> None:
    """Apply committed token-row changes to the in-memory index, in order."""
    for op, arg in changes:
        if op == "put":
            postings.put(*arg)
        elif op == "drop":
            postings.remove_many(arg)
        else:
            postings.clear()

