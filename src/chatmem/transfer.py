"""Export, import and migration of whole stores as JSONL (S6, X3).

One JSON object per line, each with a ``type``::

    {"type": "header", "format": "chatmem-jsonl", "version": 1, ...}
    {"type": "session", "id": ..., "metadata": {...}, "settings": {...}, ...}
    {"type": "meta", "namespace": ..., "key": ..., "value": ...}      # scope settings, markers
    {"type": "message", "id": ..., "session_id": ..., "ts": ..., "index_state": "indexed", ...}
    {"type": "vector", "message_id": ..., "model_id": ..., "vector": [...], ...}  # optional
    {"type": "end", "sessions": N, "messages": N, "vectors": N, "meta": N}

Messages keep their ids and timestamps. On import, a message is indexed
again unless its vector came along. Vectors are derived data, so leaving
them out loses nothing: the importing store re-embeds. The ``end`` line lets
an import detect a truncated file.
"""

from __future__ import annotations

import array
import asyncio
import hashlib
import inspect
import io
import json
import re
import shlex
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Callable,
    Collection,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import Any, TextIO

import numpy as np
from pydantic import ValidationError

from ._version import __version__
from .config import MAX_VECTOR_DIM as CONFIG_MAX_VECTOR_DIM
from .config import RetentionConfig, normalize_scope
from .demo import DEMO_STORE_MARK
from .embedding.auto import ENGLISH_MODEL, MULTILINGUAL_MODEL
from .embedding.auto import META_NAMESPACE as AUTO_META_NAMESPACE
from .errors import InvalidInput
from .extras import install_hint
from .models import (
    MAX_VECTOR_LENGTH,
    ROLES,
    SESSION_TEXT_FIELDS,
    IndexState,
    Message,
    Session,
    VectorEntry,
    blank_labels_as_none,
    check_flag,
    check_json,
    check_text,
    check_ts,
    validate_session,
)
from .refusals import DuplicateKey, as_given, describe, one_of_each, unknown_fields
from .store import Storage
from .store.base import (
    CURSOR_NAMESPACE,
    LEGACY_NAMESPACE,
    LEXICAL_NAMESPACE,
    MAX_SESSION_DEPTH,
    REPLACING_NAMESPACE,
    RETENTION_NAMESPACE,
    SETTINGS_NAMESPACE,
    MessageStore,
    parent_chain,
)
from .store.storage import SNAPSHOT_DIRTY, VECTORS_NAMESPACE

FORMAT = "chatmem-jsonl"
VERSION = 1
PAGE = 1000

#: The longest line an import reads. A record is bounded by its fields: a message's
#: content and shown text of 200,000 characters each, six characters apiece when JSON
#: escapes them, its metadata, mentions and labels; a vector of 8,192 numbers.
MAX_LINE_CHARS = 8 * 1024 * 1024

#: Bytes of the digest of each checked line (BLAKE2b), compared when it is read again.
DIGEST_SIZE = 8

Progress = Callable[[str, int], None]


@dataclass
class TransferCounts:
    sessions: int = 0
    messages: int = 0
    vectors: int = 0
    meta: int = 0

    def as_dict(self) -> dict[str, int]:
        return dict(self.__dict__)


def _noop(kind: str, n: int) -> None:
    return None


# ---------------------------------------------------------------------- arguments
# The functions below check what they are given before they read or write anything:
# a path where a file was wanted, a binary file, a Memory for its storage, 1 for true
# is an InvalidInput naming the argument, never an AttributeError part way.

_PROGRESS = "of a record's kind and a count"


def _check_storage(value: object, name: str) -> None:
    if not isinstance(value, Storage):
        held = isinstance(getattr(value, "storage", None), Storage)
        raise InvalidInput(f"{name} must be a chatmem Storage, got {describe(value)}"
                           + ("; a Memory: pass its .storage" if held else ""))


def _check_callable(value: object, name: str, what: str) -> None:
    if not callable(value):
        raise InvalidInput(f"{name} must be a function ({what}), got {describe(value)}")


def _check_file(value: object, name: str, mode: str) -> None:
    """``value`` is a text file open for ``mode`` (``write``, ``read``): not a path (the
    caller opens it; chatmem writes into no path it did not open), not a binary file."""
    reading = mode == "read"
    method, able, doing = ("readline", "readable", "reading") if reading \
        else ("write", "writable", "writing")
    opened = "open(path, encoding='utf-8')" if reading else "open(path, 'w', encoding='utf-8')"
    if isinstance(value, (str, bytes, PurePath)):
        why = f"; a path: open it first ({opened})"
    elif isinstance(value, (io.RawIOBase, io.BufferedIOBase)):
        why = f"; a binary file: open it in text mode ({opened})"
    elif not callable(getattr(value, method, None)):
        why = ""
    elif callable(getattr(value, able, None)) and not getattr(value, able)():
        why = f"; it is not open for {doing}"
    else:
        return
    raise InvalidInput(f"{name} must be a text file open for {doing}, got "
                       f"{describe(value)}{why}")


def _check_lines(value: object) -> None:
    """``lines``: the lines of an export (an open text file, a list of strings,
    :class:`FileLines`), not one text nor a mapping."""
    if isinstance(value, (str, bytes, bytearray, Mapping)) or not isinstance(value, Iterable):
        raise InvalidInput(
            "lines must be the lines of an export (an open text file, a list of strings "
            f"or FileLines(file)), got {describe(value)}"
            + ("; a whole text: pass text.splitlines(keepends=True)"
               if isinstance(value, str) else ""))


class _IdDigests:
    """A set of message ids held as 8-byte digests (8 MB a million ids, where a set of
    the ids themselves took over 100 MB), filled, then frozen and asked in pages."""

    def __init__(self) -> None:
        self._digests = array.array("Q")
        self._sorted: np.ndarray | None = None

    @staticmethod
    def _of(mid: str) -> int:
        return int.from_bytes(_digest(mid), "little")

    def add(self, mid: str) -> None:
        self._digests.append(self._of(mid))

    def freeze(self) -> None:
        self._sorted = np.sort(np.frombuffer(self._digests, dtype=np.uint64))
        self._digests = array.array("Q")

    def contains(self, ids: Sequence[str]) -> list[bool]:
        assert self._sorted is not None, "freeze() first"
        if not len(self._sorted):
            return [False] * len(ids)
        want = np.fromiter((self._of(i) for i in ids), dtype=np.uint64, count=len(ids))
        at = np.minimum(np.searchsorted(self._sorted, want), len(self._sorted) - 1)
        return [bool(x) for x in self._sorted[at] == want]


async def _records(storage: Storage, vectors: bool) -> AsyncIterator[dict[str, Any]]:
    """The records of a store, read a page at a time. A store written meanwhile (another
    process adding to a PostgreSQL store) is read as it is reached, not as one snapshot;
    a vector is written only when its message was (one stored, and embedded, after the
    message pages were read is left for the next export), since an import refuses a
    vector without its message: every export of a live store once failed to import."""
    store, index = storage.store, storage.index
    exported = _IdDigests()
    for s in await store.all_sessions():
        yield {"type": "session", **s.to_dict()}
    for ns, key, value in await store.meta_items():
        if ns in NOT_EXPORTED_META:
            # the key sealing list cursors is a secret; where this store's vectors live
            # is not data: the store it goes into has its own pairing (recorded when
            # that one is opened with a separate index); nor is how its full-text rows
            # are laid out (the tokenizer's version, a backend's own layout): the store
            # it goes into writes its own rows
            continue
        yield {"type": "meta", "namespace": ns, "key": key, "value": value}
    cursor = 0
    while True:
        page = await store.scan_messages(cursor, PAGE)
        if not page:
            break
        for pos, msg, state in page:
            yield {"type": "message", **msg.to_dict(), "index_state": state.name.lower()}
            if vectors and msg.id is not None:
                exported.add(msg.id)
            cursor = pos
    exported.freeze()
    if vectors and index is not None:
        after: str | None = None
        while True:
            entries = await index.scan_vectors(after, PAGE)
            if not entries:
                break
            written = exported.contains([e.message_id for e in entries])
            for e, message_written in zip(entries, written):
                after = e.message_id
                if not message_written:
                    continue
                yield {
                    "type": "vector", "message_id": e.message_id, "session_id": e.session_id,
                    "ts": e.ts, "role": e.role, "model_id": e.model_id,
                    "platform": e.platform, "origin_platform": e.origin_platform,
                    "speaker_id": e.speaker_id, "mentions": list(e.mentions),
                    "resource_id": e.resource_id, "session_metadata": dict(e.session_metadata),
                    "message_metadata": dict(e.message_metadata), "text": e.text,
                    "vector": [float(x) for x in np.asarray(e.vector, dtype=np.float32)],
                }


async def export_jsonl(storage: Storage, out: TextIO, *, vectors: bool = False,
                       progress: Progress = _noop) -> TransferCounts:
    """Write every session, setting, message (and optionally vector) as JSONL into
    ``out``, a text file open for writing (the caller's: chatmem opens no path)."""
    _check_storage(storage, "storage")
    _check_file(out, "out", "write")
    check_flag(vectors, "vectors")
    _check_callable(progress, "progress", _PROGRESS)
    counts = TransferCounts()
    out.write(json.dumps({"type": "header", "format": FORMAT, "version": VERSION,
                          "chatmem": __version__, "vectors": vectors}) + "\n")
    async for rec in _records(storage, vectors):
        out.write(json.dumps(rec, ensure_ascii=False) + "\n")
        kind = rec["type"]
        setattr(counts, _plural(kind), getattr(counts, _plural(kind)) + 1)
        progress(kind, 1)
    out.write(json.dumps({"type": "end", **counts.as_dict()}) + "\n")
    return counts


def is_export_header(record: object) -> bool:
    """``record`` is the header line of a chatmem export, of any version."""
    return isinstance(record, dict) and record.get("type") == "header" \
        and record.get("format") == FORMAT


#: A chatmem version as an export's header gives it (``0.1.0``, ``1.2.0rc1``).
_RELEASE = re.compile(r"[0-9][0-9A-Za-z.+-]{0,39}")


def _newer_export(header: Mapping[str, Any]) -> str:
    """The refusal of an export ``header`` of a format version newer than
    :data:`VERSION`: which version the file has, which this chatmem reads, and the way
    on (a newer chatmem reads it)."""
    writer = header.get("chatmem")
    by = f", written by chatmem {writer}" \
        if isinstance(writer, str) and _RELEASE.fullmatch(writer) else ""
    return (f"a {FORMAT} version {header['version']} file{by}; this chatmem "
            f"({__version__}) reads version {VERSION} only: upgrade chatmem to import it "
            f"(update chatmem's source, then: {install_hint(upgrade=True)})")


def _plural(kind: str) -> str:
    return {"session": "sessions", "message": "messages", "vector": "vectors",
            "meta": "meta"}[kind]


def read_lines(fh: TextIO) -> Iterator[str]:
    """The lines of a text file, each read at most :data:`MAX_LINE_CHARS` + 1 characters
    at a time, so that a line too long for any record is refused (by
    :func:`_utf8_lines`) without being held whole: a 1.5 GB line once took 3.1 GB
    before it failed as "not JSON"."""
    _check_file(fh, "fh", "read")
    return _read_lines(fh)


def _read_lines(fh: TextIO) -> Iterator[str]:
    while line := fh.readline(MAX_LINE_CHARS + 1):
        yield line


class FileLines:
    """The lines of a file that can seek (:func:`read_lines`), from its start each time
    they are iterated: an import reads its file to check it, and again to write it (and
    with ``resume`` once more, to compare what the store holds before writing)."""

    def __init__(self, fh: TextIO) -> None:
        _check_file(fh, "fh", "read")
        _check_callable(getattr(fh, "seek", None), "fh.seek", "a file that can seek")
        self.fh = fh

    def __iter__(self) -> Iterator[str]:
        self.fh.seek(0)
        return read_lines(self.fh)


#: The first bytes of a gzip file (a compressed backup given as it is).
GZIP_MAGIC = b"\x1f\x8b"


class GzipCompressed(InvalidInput):
    """The lines are a gzip file's bytes (a compressed backup given as it is)."""


#: The first bytes of a SQLite database (a store given where its export was meant).
SQLITE_MAGIC = b"SQLite format 3\x00"


class SqliteDatabase(InvalidInput):
    """The lines are a SQLite database's bytes (a store, not an export of it)."""

    def __init__(self) -> None:
        super().__init__("the file is a SQLite database (a chatmem store?), not an export: "
                         "a store is copied with migrate(source, target), or exported "
                         "first (export_jsonl)")


def _utf8_lines(lines: Iterable[str]) -> Iterable[tuple[int, str]]:
    """The lines, numbered; a file that is not UTF-8, or a line longer than any record,
    is an error naming the line, and a gzip file or a SQLite database (a store) is
    refused as one (:class:`GzipCompressed`, :class:`SqliteDatabase`)."""
    it = iter(lines)
    n = 0
    while True:
        n += 1
        try:
            line = next(it)
        except StopIteration:
            return
        except UnicodeDecodeError as exc:
            if n == 1 and bytes(exc.object[:len(SQLITE_MAGIC)]) == SQLITE_MAGIC:
                raise SqliteDatabase from None
            if n == 1 and bytes(exc.object[:2]) == GZIP_MAGIC:
                raise GzipCompressed(
                    "the file is gzip-compressed: decompress it first, or read it through "
                    "gzip: FileLines(gzip.open(path, 'rt', encoding='utf-8'))") from None
            raise InvalidInput(f"line {n} or near it: not UTF-8 text ({exc.reason}); "
                               "an export is UTF-8 JSONL") from None
        if n == 1 and isinstance(line, str) and line.startswith(SQLITE_MAGIC.decode()):
            raise SqliteDatabase
        if not isinstance(line, str):
            raise InvalidInput(f"lines: line {n} is not text, got {describe(line)}" + (
                "; open the file in text mode (open(path, encoding='utf-8'))"
                if isinstance(line, (bytes, bytearray)) else ""))
        if len(line) > MAX_LINE_CHARS:
            raise InvalidInput(f"line {n}: longer than {MAX_LINE_CHARS:,} characters, "
                               "more than any record of an export holds")
        yield n, line


def _digest(line: str) -> bytes:
    return hashlib.blake2b(line.encode("utf-8", "surrogatepass"),
                           digest_size=DIGEST_SIZE).digest()


def parse_json(text: str, where: str, *, unique_keys: bool = False) -> Any:
    """``text`` as JSON, every way it is not refused as :class:`InvalidInput` beginning
    with ``where``: not JSON, nested past Python's stack, a number of thousands of
    digits, ``NaN`` / ``Infinity`` (not JSON, never stored), and with ``unique_keys``
    an object that names a key twice, as the HTTP API refuses a body that does
    (:func:`~chatmem.refusals.one_of_each`). ``text`` that is not a string (bytes, a
    file, a number) is one too, naming it, as is a ``where`` that is not."""
    if not isinstance(where, str):
        raise InvalidInput(f"where must be a string (what the text is), got {describe(where)}")
    if not isinstance(text, str):
        raise InvalidInput(f"{where}: text must be a string (the JSON to read), got "
                           f"{describe(text)}")
    try:
        return json.loads(text, parse_constant=_no_constant,
                          object_pairs_hook=one_of_each if unique_keys else None)
    except json.JSONDecodeError as exc:
        raise InvalidInput(f"{where}: not JSON ({exc.msg})") from None
    except DuplicateKey as exc:
        raise InvalidInput(f"{where}: the key {as_given(exc.args[0])} appears twice in one "
                           "object; give each key once") from None
    except RecursionError:
        raise InvalidInput(f"{where}: nested too deeply") from None
    except ValueError as exc:
        if "integer string conversion" in str(exc):
            raise InvalidInput(f"{where}: a number of thousands of digits") from None
        raise InvalidInput(f"{where}: {exc}") from None


def _parse_lines(lines: Iterable[str], digests: bytearray | None = None
                 ) -> Iterable[tuple[int, dict[str, Any], bytes]]:
    """Each non-blank line's number, record and digest (appended to ``digests``). The
    last line not JSON is said to be where the file was cut (an export interrupted
    inside a line: its JSON ends early, and no end line follows)."""
    numbered = iter(_utf8_lines(lines))
    for n, line in numbered:
        if not line.strip():
            continue
        try:
            rec = parse_json(line, f"line {n}")
        except InvalidInput as exc:
            if ": not JSON (" in str(exc) and _ends(numbered):
                raise InvalidInput(f"{exc}, the last line: the file is truncated inside it "
                                   "(was the export interrupted?)") from None
            raise
        if not isinstance(rec, dict) or "type" not in rec:
            raise InvalidInput(f"line {n}: expected an object with a 'type'")
        if rec["type"] in ("message", "vector"):  # an older chatmem's "" for none
            rec = blank_labels_as_none(rec)
        elif rec["type"] == "session":
            rec = blank_labels_as_none(rec, SESSION_TEXT_FIELDS)
        yield n, rec, _digest(line)


def _ends(numbered: Iterator[tuple[int, str]]) -> bool:
    """No line but blank ones follows (one that cannot be read is one)."""
    try:
        return all(not later.strip() for _, later in numbered)
    except InvalidInput:
        return False


@dataclass
class CheckedExport:
    """What :func:`validate_jsonl` keeps of a checked file for the writing pass: a
    digest of each record (the file is read again to write it, and must not have
    changed), each message's session and time (a vector must match its message, the
    store must not hold the id yet) and the store records to compare with the target.
    The records themselves are not kept: an export of 100,000 messages with their
    vectors took 2.1 GB held whole, and a million would not fit most machines."""

    counts: TransferCounts
    digests: bytes
    messages: dict[str, tuple[str, int | None]]
    store_records: list[dict[str, Any]]
    #: the size of each model's vectors in the file (one per model)
    vector_sizes: dict[str, int] = field(default_factory=dict)
    #: each session's parent_id (the chains must stay ones scoping can read)
    parents: dict[str, str | None] = field(default_factory=dict)

    def __len__(self) -> int:
        """How many records (sessions, meta, messages, vectors) the file holds."""
        return sum(self.counts.as_dict().values())


def validate_jsonl(lines: Iterable[str]) -> CheckedExport:
    """Read and check a whole export before anything is written (bad input changes
    nothing), keeping only what the writing pass needs (:class:`CheckedExport`)."""
    _check_lines(lines)
    counts = TransferCounts()
    digests = bytearray()
    links = _Links()
    store_records: list[dict[str, Any]] = []
    parents: dict[str, str | None] = {}
    header = end = None
    for n, rec, digest in _parse_lines(lines):
        digests += digest
        kind = rec["type"]
        if end is not None:
            raise InvalidInput(f"line {n}: a record after the end line")
        if kind == "header":
            version = rec.get("version")  # 1, not true or 1.0 (both == 1 in Python)
            if is_export_header(rec) and type(version) is int and version > VERSION:
                raise InvalidInput(f"line {n}: {_newer_export(rec)}")
            if not is_export_header(rec) or type(version) is not int \
                    or version != VERSION:
                raise InvalidInput(f"line {n}: not a {FORMAT} v{VERSION} file")
            if header is not None:
                raise InvalidInput(f"line {n}: a second header line")
            header = rec
            continue
        if kind == "end":
            end = rec
            continue
        if header is None:
            raise InvalidInput(f"line {n}: a record before the header line")
        if kind == "message":
            data = {k: v for k, v in rec.items() if k not in ("type", "index_state")}
            Message.from_dict(data, path=f"line {n}: message")
            state = rec.get("index_state")
            if state is not None and (not isinstance(state, str)
                                      or state not in INDEX_STATES):
                raise InvalidInput(f"line {n}: message.index_state must be one of "
                                   f"{', '.join(sorted(INDEX_STATES))}, got {describe(state)}")
            links.message(rec, n)
        elif kind == "session":
            session = validate_session({k: v for k, v in rec.items() if k != "type"},
                                       path=f"line {n}: session")
            if session.id in parents:
                raise InvalidInput(f"line {n}: session id {describe(session.id)} appears twice in "
                                   "the file")
            parents[session.id] = session.parent_id
        elif kind == "meta":
            for name in ("namespace", "key", "value"):
                check_text(rec.get(name), f"line {n}: meta.{name}", required=True)
            _check_meta(rec, n)
            if rec["namespace"] in STORE_RECORDS:
                store_records.append(rec)
        elif kind == "vector":
            _check_vector(rec, n)
            links.vector(rec, n)
        else:
            raise InvalidInput(f"line {n}: unknown record type {describe(kind)}")
        setattr(counts, _plural(kind), getattr(counts, _plural(kind)) + 1)
    if header is None:
        raise InvalidInput(f"not a {FORMAT} file: no header line")
    if end is None:
        raise InvalidInput("the file is truncated: no end line (was the export interrupted?)")
    got = counts.as_dict()
    want = {k: end.get(k) for k in got}
    if got != want or any(type(v) is not int for v in want.values()):  # not true, 1.0
        raise InvalidInput(f"record counts {got} do not match the end line {want}")
    check_parent_chains(parents, {})
    return CheckedExport(counts, bytes(digests), links.messages, store_records,
                         links.sizes, parents)


def check_parent_chains(parents: Mapping[str, str | None],
                        stored: Mapping[str, str | None]) -> None:
    """Refuse sessions (``parents``: each one's parent_id) that, over the sessions
    already ``stored`` (the same), would make a parent chain scoping cannot read: a
    cycle, or more than :data:`MAX_SESSION_DEPTH` sessions from one up to its root (a
    missing parent counted, as :func:`chatmem.scopes.check_parent_chain` does for
    ``upsert_session``, which an import does not go through). Only the chains that
    pass through a session of ``parents`` are checked."""
    def parent(sid: str) -> str | None:
        return parents[sid] if sid in parents else stored.get(sid)

    # the stored sessions below the incoming ones: each chain through one starts there
    children: dict[str, list[str]] = {}
    for sid, up in stored.items():
        if up is not None and sid not in parents:
            children.setdefault(up, []).append(sid)
    below: list[str] = []
    reached = set(parents)
    level = list(parents)
    for _ in range(MAX_SESSION_DEPTH):
        level = [c for sid in level for c in children.get(sid, ()) if c not in reached]
        if not level:
            break
        reached.update(level)
        below += level

    def lookup(sid: str) -> Session | None:
        known = sid in parents or sid in stored
        return Session(id=sid, parent_id=parent(sid)) if known else None

    for start in (*parents, *below):
        chain = parent_chain(Session(id=start, parent_id=parent(start)), lookup,
                             MAX_SESSION_DEPTH + 1)
        if not any(s.id in parents for s in chain.sessions):
            continue  # a stored chain the file does not change
        if chain.cycle is not None:
            raise InvalidInput(
                f"session {describe(start)}: the parent_id links make a cycle "
                f"({' → '.join([*(s.id for s in chain.sessions), chain.cycle])}): a "
                "session cannot be its own ancestor; the root of a chain has no parent_id")
        if len(chain.sessions) + (chain.unknown is not None) > MAX_SESSION_DEPTH:
            raise InvalidInput(
                f"session {describe(start)}: its chain of parents up to the root would hold more "
                f"than {MAX_SESSION_DEPTH} sessions (scopes read a sub-task's platform "
                f"from its root, at most {MAX_SESSION_DEPTH - 1} parents up); give it a "
                "parent nearer the root")


#: The metadata namespaces an import accepts. :data:`NOT_IMPORTED_META` are not
#: exported (where a store's vectors live, and how its full-text rows are laid out, are
#: the store's own: the target writes its rows), and skipped in files of older exports
#: that hold them; the model records go with the vectors: an import brings them into a
#: store without them, and never changes a store's own.
IMPORTED_META = frozenset({SETTINGS_NAMESPACE, RETENTION_NAMESPACE, AUTO_META_NAMESPACE,
                           LEGACY_NAMESPACE, LEXICAL_NAMESPACE, SNAPSHOT_DIRTY})
NOT_IMPORTED_META = frozenset({LEXICAL_NAMESPACE, VECTORS_NAMESPACE})
#: Nor is the key sealing the store's ``list`` cursors (a secret; an import refuses it),
#: nor the mark of a store ``chatmem demo --db`` made (the demo's own store, not data),
#: nor a LangGraph item's old value kept while a put replaces it.
NOT_EXPORTED_META = NOT_IMPORTED_META | {CURSOR_NAMESPACE, DEMO_STORE_MARK[0],
                                         REPLACING_NAMESPACE}
STORE_RECORDS = frozenset({AUTO_META_NAMESPACE, LEGACY_NAMESPACE})


async def holds_data(store: MessageStore) -> bool:
    """Whether ``store`` holds anything an export of it would carry: a message, a
    session, or a record of its metadata area (scope and retention settings, the model
    chosen for it), not the store's own bookkeeping (:data:`NOT_EXPORTED_META`). One
    that does not is empty: nothing of anyone's would be lost or mixed by writing to it
    (``chatmem demo --db`` takes only such a store, or its own)."""
    if await store.list_messages(limit=1) or await store.sessions_after(None, 1):
        return True
    return any(ns not in NOT_EXPORTED_META for ns, _, _ in await store.meta_items())

#: The fields of a vector record (as :func:`_records` writes them).
VECTOR_FIELDS = frozenset({"type", "message_id", "session_id", "ts", "role", "model_id",
                           "platform", "origin_platform", "speaker_id", "mentions",
                           "resource_id", "session_metadata", "message_metadata", "text",
                           "vector"})
#: A message record's ``index_state``s.
INDEX_STATES = frozenset(state.name.lower() for state in IndexState)

#: Most numbers in one imported vector (:data:`chatmem.config.MAX_VECTOR_DIM`: no
#: provider's answer is stored wider, so every export imports).
MAX_VECTOR_DIM = CONFIG_MAX_VECTOR_DIM


def _check_meta(rec: dict[str, Any], n: int) -> None:
    """A meta record of a namespace an export writes, an auto-model record naming one
    of the models ``auto`` picks, and a scope or retention setting chatmem can read."""
    if rec["namespace"] not in IMPORTED_META:
        raise InvalidInput(f"line {n}: meta namespace {describe(rec['namespace'])} is not "
                           "one chatmem exports (was the file written by a newer version?)")
    if rec["namespace"] == AUTO_META_NAMESPACE \
            and rec["value"] not in (ENGLISH_MODEL, MULTILINGUAL_MODEL):
        raise InvalidInput(f"line {n}: meta {AUTO_META_NAMESPACE}.{rec['key']}: "
                           f"{describe(rec['value'])} is not a model embedding.model auto picks")
    # a broken setting would be read as the narrowest scope, or as keep-forever
    check = {SETTINGS_NAMESPACE: normalize_scope, RETENTION_NAMESPACE: _check_days}.get(
        rec["namespace"])
    if check is not None:
        where = f"line {n}: meta {rec['namespace']}.{rec['key']}"
        try:
            value = json.loads(rec["value"], parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise InvalidInput(f"{where}: not JSON, as chatmem writes its settings") \
                from None
        check(value, name=where)


def _check_days(value: object, *, name: str) -> None:
    """A retention layer's days, as ``retention.days`` takes them (this layer does not
    import :func:`chatmem.retention.check_days`, the same bounds)."""
    try:
        RetentionConfig.model_validate({"days": value})
    except ValidationError:
        raise InvalidInput(f"{name} must be whole days, 0 (keep forever) up to what "
                           f"retention.days takes, got {describe(value)}") from None


class _Links:
    """What no single record shows, checked as the records come: message ids are
    unique; each vector follows a message of the file (as an export writes them), with
    that message's session and time (a vector relabelled to another session would be
    recalled there: R4), once per model, and one model's vectors have one size of at
    most :data:`MAX_VECTOR_DIM`."""

    def __init__(self) -> None:
        self.messages: dict[str, tuple[str, int | None]] = {}
        self._sessions: dict[str, str] = {}  # one string per session id, not per message
        self._vectors: set[tuple[str, str]] = set()
        self.sizes: dict[str, int] = {}

    def message(self, rec: dict[str, Any], n: int) -> None:
        """The message record of line ``n``."""
        mid = rec.get("id")
        if mid is None:
            return  # given one when stored
        if mid in self.messages:
            raise InvalidInput(f"line {n}: message id {describe(mid)} appears twice in the "
                               "file")
        session = self._sessions.setdefault(rec["session_id"], rec["session_id"])
        self.messages[mid] = (session, rec.get("ts"))

    def vector(self, rec: dict[str, Any], n: int) -> None:
        """The vector record of line ``n``."""
        mid, model = rec["message_id"], str(rec.get("model_id"))
        where = f"line {n}: vector of message {describe(mid)}"
        msg = self.messages.get(mid)
        if msg is None:
            raise InvalidInput(f"{where}: no such message in the file before it (an "
                               "export writes every message before the vectors)")
        if (rec["session_id"], rec["ts"]) != msg:
            raise InvalidInput(f"{where}: its session_id and ts must be its message's "
                               f"({describe(msg[0])}, {describe(msg[1])})")
        if (mid, model) in self._vectors:
            raise InvalidInput(f"{where}: two vectors of model {as_given(model, 200)}")
        self._vectors.add((mid, model))
        size = len(rec["vector"])
        if size > MAX_VECTOR_DIM:
            raise InvalidInput(f"{where}: {size} numbers, over {MAX_VECTOR_DIM}")
        if self.sizes.setdefault(model, size) != size:
            raise InvalidInput(f"{where}: {size} numbers where model {as_given(model, 200)} has "
                               f"{self.sizes[model]}")


def _no_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _check_vector(rec: dict[str, Any], n: int) -> None:
    """A vector record that can be written as given: ids, a range-checked ts, finite
    numbers, JSON metadata (R2: a wrong vector is never stored)."""
    where = f"line {n}: vector"
    unknown = sorted(str(k) for k in set(rec) - VECTOR_FIELDS)
    if unknown:
        raise InvalidInput(unknown_fields(where, unknown, sorted(VECTOR_FIELDS)))
    for name in ("message_id", "session_id"):
        check_text(rec.get(name), f"{where}.{name}", required=True)
    check_ts(rec.get("ts"), f"{where}.ts")
    for name in ("role", "model_id", "platform", "origin_platform", "speaker_id",
                 "resource_id", "text"):
        check_text(rec.get(name), f"{where}.{name}")
    if rec.get("role") is not None and rec["role"] not in ROLES:  # a string by now
        raise InvalidInput(f"{where}.role must be one of {', '.join(sorted(ROLES))} or null, got "
                           f"{describe(rec['role'])}")
    mentions = rec.get("mentions") or []
    if not isinstance(mentions, list):
        raise InvalidInput(f"{where}.mentions must be a list of ids")
    for i, m in enumerate(mentions):
        check_text(m, f"{where}.mentions[{i}]", required=True)
    for name in ("session_metadata", "message_metadata"):
        value = rec.get(name) or {}
        if not isinstance(value, dict):
            raise InvalidInput(f"{where}.{name} must be an object")
        check_json(value, f"{where}.{name}")
    vec = rec.get("vector")
    if (not isinstance(vec, list) or not vec
            or not all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in vec)):
        raise InvalidInput(f"{where}.vector must be a non-empty list of numbers")
    arr = np.asarray(vec, dtype=np.float64)
    if not np.isfinite(arr).all():
        raise InvalidInput(f"{where}.vector holds a number that is not finite")
    # measured scaled by its largest number: a square of one past 1e154 is inf in float64
    biggest = float(np.abs(arr).max())
    length = biggest * float(np.linalg.norm(arr / biggest)) if biggest else 0.0
    if length > MAX_VECTOR_LENGTH:
        raise InvalidInput(f"{where}.vector is {length:.3g} long, over the "
                           f"{MAX_VECTOR_LENGTH:.0e} a stored vector may have (its scores "
                           "would overflow); normalise it")
    if not arr.any():
        raise InvalidInput(f"{where}.vector is all zeros (it has no direction)")


async def check_target(storage: Storage, message_ids: AsyncIterable[list[str]],
                       store_records: Sequence[dict[str, Any]],
                       vector_sizes: Mapping[str, Collection[int]], *,
                       parents: Mapping[str, str | None] | None = None,
                       resume: bool = False, migrating: bool = False) -> None:
    """What the records would collide with in ``storage``, refused before anything is
    written: a message id it already holds (``message_ids``, in pages), a record of
    its own (its model) with another value, or vectors of a model whose vectors in the
    store have another size (``vector_sizes``: the incoming sizes per model). A query
    is embedded once and compared only with vectors of its size, so such vectors would
    be stored, counted as indexed and never found by meaning. ``parents`` (each incoming
    session's parent_id): sessions that, with the store's, would make a parent chain
    scoping cannot read (:func:`check_parent_chains`). ``resume``: the ids
    already held are not refused here (an import of this file, or a migration, that
    stopped part way); each must then be the same message as the incoming one, which
    writing checks (and a migration before it, :func:`check_kept`).
    ``migrating``: the errors name what a migration can do."""
    store = storage.store
    if parents:
        check_parent_chains(parents, {s.id: s.parent_id for s in await store.all_sessions()})
    if vector_sizes:
        own_sizes = await storage.vector_sizes()
        for model, sizes in sorted(vector_sizes.items()):
            held = own_sizes.get(model)
            other = sorted(set(sizes) - set(held)) if held else []
            if other:
                raise InvalidInput(
                    f"the vectors of model {as_given(model, 200)} have {other[0]} numbers here and "
                    f"{', '.join(map(str, sorted(held or ())))} in this store: they could "
                    "never be compared (import without the vectors, `chatmem import "
                    "--no-vectors`, so that this store embeds the messages itself, or "
                    "into a new store)")
    if not resume:
        async for page in message_ids:
            taken = await store.get(page) if page else {}
            if taken:
                fix = ("a migration that stopped part way is finished with resume: "
                       "chatmem migrate --from … --to … --resume; else migrate into a "
                       "new store, or delete those messages there first"
                       if migrating else
                       "import into a new store, or delete those messages first; an "
                       "import of this file that stopped part way is finished with "
                       "resume: chatmem import --resume")
                raise InvalidInput(
                    f"message id {describe(next(iter(taken)))} is already in this store ({fix})")
    for rec in store_records:
        own = await store.meta_get(rec["namespace"], rec["key"])
        if own is not None and own != rec["value"]:
            theirs, fix = (("the source's", "migrate into a new store") if migrating
                           else ("the file's", "import into a new store"))
            raise InvalidInput(
                f"this store's {rec['namespace']}.{rec['key']} is {describe(own)} and "
                f"{theirs} {describe(rec['value'])}: {fix}")


async def check_kept(storage: Storage, messages: AsyncIterable[list[Message]], *,
                     migrating: bool) -> None:
    """Before a resumed migration or import writes anything: each of ``messages`` (in
    pages) that ``storage`` holds already must be the one it would write, or the copy
    would not be the source's (or the file's): the same session, role and content
    (:func:`~chatmem.models.retried_add`, which writing applies again) and the same
    other fields (a source message rewritten since the stop, its metadata or shown
    text, would keep the old ones); its time may be a later one the target gave it (a
    time its session already had a message at is staggered), never an earlier one.
    One that differs is refused naming its id, the fields that differ and the ways a
    migration (``migrating``) or an import has on (an add's error offers a rewrite,
    which does not make the copy the source's)."""
    store = storage.store
    async for page in messages:
        held = await store.get([m.id for m in page if m.id is not None]) if page else {}
        for given in page:
            kept = held.get(given.id or "")
            if kept is None or given.id is None:
                continue
            mine, theirs = kept.to_dict(), given.to_dict()
            other = [name for name in theirs if mine[name] != theirs[name] and (
                name != "ts" or mine["ts"] is None or theirs["ts"] is None
                or mine["ts"] < theirs["ts"])]
            if not other:
                continue
            fields, named = " and ".join(other), shlex.quote(given.id)
            if migrating:
                raise InvalidInput(
                    f"message id {describe(given.id)} is in the destination with another "
                    f"{fields} than the source's: a resume finishes only an earlier run "
                    "of this same migration, from this source (a message the source "
                    "changed since, or another store's, is not its copy): migrate into "
                    "an empty store, or erase that message from the destination "
                    f"(chatmem delete --db <destination> {named}) and resume again")
            raise InvalidInput(
                f"message id {describe(given.id)} is in this store with another {fields} than "
                "the file's: a resume finishes only an earlier import of this same file "
                "into this store (a message the file changed since, or one the store "
                "held before, is not its copy): import into an empty store, or erase "
                f"that message from this store (chatmem delete --db <this store> "
                f"{named}) and resume again")


def _message_of(rec: dict[str, Any]) -> Message:
    """The message of a checked message record."""
    return Message.from_dict({k: v for k, v in rec.items()
                              if k not in ("type", "index_state")})


async def _file_messages(lines: Iterable[str]) -> AsyncIterator[list[Message]]:
    """The messages of a checked file, a page at a time."""
    page: list[Message] = []
    for _, rec, _ in _parse_lines(lines):
        if rec["type"] == "message":
            page.append(_message_of(rec))
            if len(page) >= PAGE:
                yield page
                page = []
    if page:
        yield page


async def _pages(ids: Iterable[str]) -> AsyncIterator[list[str]]:
    page: list[str] = []
    for mid in ids:
        page.append(mid)
        if len(page) >= PAGE:
            yield page
            page = []
    if page:
        yield page


class NotTheLinesChecked(InvalidInput):
    """``lines`` given to :func:`import_records` are not the ones its ``checked`` was
    made of (another file, or the file changed since it was checked): refused before
    anything is written. ``line``: the first that differs (None: the lines end before
    the checked ones do)."""

    def __init__(self, message: str, line: int | None) -> None:
        super().__init__(message)
        self.line = line


def _check_same_lines(checked: CheckedExport, lines: Iterable[str]) -> None:
    """Refuse ``lines`` unless they are, line for line, the ones ``checked`` was made of
    (the digest :func:`validate_jsonl` kept of each), reading them once, before anything
    is written: an import of one file checked as another once wrote its records up to
    the first line that differed. A pass of digests only: 0.12 s on a file of 100,000
    messages (23 MB) where checking it again (validate_jsonl) took 1.9 s."""
    if iter(lines) is lines:
        raise InvalidInput("lines: an import reads the lines twice (to compare them with the "
                           "ones validate_jsonl checked, then to write them); give a list or "
                           "FileLines(file), which read the file from its start each time")
    size, i = DIGEST_SIZE, 0
    fix = ("(another file, or the file changed since it was checked); nothing was "
           "written: import the lines checked (checked = validate_jsonl(lines), then "
           "import_records(storage, checked, lines)), checking them again once the file "
           "no longer changes")
    for n, line in _utf8_lines(lines):
        if not line.strip():
            continue
        if checked.digests[i * size:(i + 1) * size] != _digest(line):
            raise NotTheLinesChecked(f"lines: line {n} is not the line validate_jsonl "
                                     f"checked {fix}", n)
        i += 1
    if i * size != len(checked.digests):
        raise NotTheLinesChecked(f"lines: they end before the end line validate_jsonl "
                                 f"checked {fix}", None)


async def import_records(storage: Storage, checked: CheckedExport, lines: Iterable[str], *,
                         progress: Progress = _noop, vectors: bool = True,
                         resume: bool = False,
                         writing: Callable[[], None] | None = None) -> TransferCounts:
    """Write a checked file (:func:`validate_jsonl`) into ``storage``, reading ``lines``
    (the same file) again, as one bulk load: an index that builds faster afterwards
    than row by row defers itself. ``lines`` is read twice, so it must read the file
    from its start each time it is iterated (a list, or :class:`FileLines`): first
    each line is compared with the digest ``checked`` kept of it, and lines that are
    not the ones checked (another file, the file changed since) are refused naming
    the first that differs, before anything is written (:class:`NotTheLinesChecked`;
    a pass of digests, 0.12 s on 100,000 messages where checking the file again took
    1.9 s). What the file would collide with in the store is refused next
    (:func:`check_target`). A line that changes after that, while the file is written
    (another program writing it), stops the import with an error naming it; what was
    written before it is kept, and ``resume`` finishes it. ``vectors=False``:
    the file's vectors and its model records are left out, and the store embeds the
    messages itself (a file made with another model, or vectors of another size).

    ``resume``: finish an import of the same file that stopped part way (killed, a full
    disk): the messages already stored are taken as they are when each is the file's
    own (:func:`check_kept`: the same message, all compared before anything is
    written; ``lines`` is then read once more), the rest are written, and
    sessions, records and vectors are written again (each an upsert). A stored message
    that differs is refused naming it, its fields that differ and the ways on. Without
    it such an import was refused for its first stored id, and the only way on was a
    new store.

    ``writing`` is called once the checks passed, before the first write, as
    :func:`migrate`'s: an error before it left the store as it was (the command line
    removes a store it created), one after it a part of the file that ``resume``
    finishes."""
    _check_storage(storage, "storage")
    if not isinstance(checked, CheckedExport):
        raise InvalidInput("checked must be what validate_jsonl(lines) returns, got "
                           f"{describe(checked)}")
    _check_lines(lines)
    _check_callable(progress, "progress", _PROGRESS)
    check_flag(vectors, "vectors")
    check_flag(resume, "resume")
    if writing is not None:
        _check_callable(writing, "writing", "called before the first write")
    _check_same_lines(checked, lines)
    await check_target(storage, _pages(checked.messages),
                       checked.store_records if vectors else (),
                       {model: (size,) for model, size in checked.vector_sizes.items()}
                       if vectors else {}, parents=checked.parents, resume=resume)
    if resume:
        await check_kept(storage, _file_messages(lines), migrating=False)
    if writing is not None:
        writing()
    left_out = set() if vectors else {"vector"}

    async def records() -> AsyncIterator[dict[str, Any]]:
        size = DIGEST_SIZE
        changed = ("the file changed while it was imported (the records before it were "
                   "written; once the file no longer changes, finish the import with "
                   "resume, or import it into a new store)")
        read = 0
        for i, (n, rec, digest) in enumerate(_parse_lines(lines)):
            if checked.digests[i * size:(i + 1) * size] != digest:
                raise InvalidInput(f"line {n} is not the line checked before the import "
                                   f"began: {changed}")
            read = i + 1
            if rec["type"] in left_out or (not vectors and rec["type"] == "meta"
                                           and rec["namespace"] in STORE_RECORDS):
                continue
            if rec["type"] not in ("header", "end"):
                yield rec
        if read * size != len(checked.digests):
            raise InvalidInput(f"the file ends before its checked end line: {changed}")

    async with storage.bulk_load(checked.counts.vectors if vectors else 0):
        return await _write(storage, records(), progress, resume=resume)


def _takes_keyword(method: Callable[..., Any], name: str) -> bool:
    """Whether ``method`` takes the keyword ``name`` (a store of one's own may predate
    it: chatmem's protocols gain keywords as they grow)."""
    try:
        params = inspect.signature(method).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD
                                 for p in params.values())


async def _write(storage: Storage, records: AsyncIterable[dict[str, Any]],
                 progress: Progress, *, resume: bool) -> TransferCounts:
    """Write checked records in their order, messages and vectors a page at a time (a
    vector's message is written before it); ``resume``: into a store that may hold
    some of them already."""
    store = storage.store
    counts = TransferCounts()
    session_fields = set(Session.__dataclass_fields__)
    messages: list[Message] = []
    kept: dict[IndexState, list[str]] = {IndexState.SKIPPED: [], IndexState.CLEARED: []}
    entries: list[VectorEntry] = []
    # the messages the store timed otherwise than the file (a time its session already
    # has a message at is staggered): their vectors take the stored time, or a vector
    # would sit at another message's (session, ts), which a rewrite of that one deletes
    moved: dict[str, int] = {}
    # beside a separate index (Qdrant) the vectors of a session follow a change of its
    # fields (a resource id scoping filters on) only through the storage, as a SQL
    # store's do in its own transaction; an index without vectors (an import into a new
    # store) has none to move, and the file's vectors carry their sessions' fields
    follow = storage.separate and bool(await storage.vector_sizes())
    own_states = _takes_keyword(store.append, "states")

    async def write_page() -> list[Message]:
        # "skipped" and "cleared" (vectors cleared on purpose) are kept, not re-indexed:
        # stored in that state by the page's own transaction, so no indexer (this
        # process's, another's) takes one of them as pending meanwhile, and a stop never
        # leaves one pending
        states = {mid: state for state, ids in kept.items() for mid in ids}
        # a message store of one's own written before append took states: the page,
        # then its states, as before (an indexer may take some of them in between)
        together = bool(states) and own_states
        stored = await (store.append(messages, states=states) if together
                        else store.append(messages))
        if resume or (states and not together):
            # a message stored already keeps its state: one an earlier import left
            # pending (it stopped between its page and the page's states) gets the file's
            for state, ids in kept.items():
                if ids:
                    await store.set_index_state(ids, state)
        return stored

    async def write_messages() -> None:
        if not messages:
            return
        # the page (and, resumed, its kept index states) as one step: a stop (Ctrl-C,
        # SIGTERM: a cancel) that lands in it waits for it to end
        step = asyncio.ensure_future(write_page())
        try:
            stored = await asyncio.shield(step)
        except asyncio.CancelledError:
            await asyncio.wait([step])
            if not step.cancelled():
                step.exception()  # retrieved: the stop is what is reported
            raise
        for given, got in zip(messages, stored):
            if given.id is not None and got.ts is not None and given.ts != got.ts:
                moved[given.id] = got.ts
        counts.messages += len(stored)
        for ids in kept.values():
            ids.clear()
        progress("message", len(messages))
        messages.clear()

    async def write_vectors() -> None:
        if not entries:
            return
        await storage.write_entries(entries)
        counts.vectors += len(entries)
        progress("vector", len(entries))
        entries.clear()

    async for rec in records:
        kind = rec["type"]
        if kind == "session":
            session = Session(**{k: v for k, v in rec.items() if k in session_fields})
            if follow:
                await storage.upsert_session(session)
            else:
                await store.upsert_session(session)
            counts.sessions += 1
            progress("session", 1)
        elif kind == "meta":
            if rec["namespace"] not in NOT_IMPORTED_META:
                await store.meta_set(rec["namespace"], rec["key"], rec["value"])
                counts.meta += 1
        elif kind == "message":
            messages.append(_message_of(rec))
            for state, ids in kept.items():
                if rec.get("index_state") == state.name.lower():
                    ids.append(rec["id"])
            if len(messages) >= PAGE:
                await write_messages()
        elif kind == "vector" and storage.index is not None:
            await write_messages()  # its message first
            entries.append(_entry(rec, moved.get(rec["message_id"])))
            if len(entries) >= PAGE:
                await write_vectors()
    await write_messages()
    await write_vectors()
    return counts


def _entry(rec: dict[str, Any], ts: int | None = None) -> VectorEntry:
    return VectorEntry(
        message_id=rec["message_id"], session_id=rec["session_id"],
        ts=rec["ts"] if ts is None else ts,
        role=rec.get("role"), model_id=rec.get("model_id"),
        vector=np.asarray(rec["vector"], dtype=np.float32),
        platform=rec.get("platform"), speaker_id=rec.get("speaker_id"),
        mentions=tuple(rec.get("mentions") or ()), resource_id=rec.get("resource_id"),
        session_metadata=rec.get("session_metadata") or {},
        origin_platform=rec.get("origin_platform"),
        message_metadata=rec.get("message_metadata") or {}, text=rec.get("text"),
    )


async def migrate(source: Storage, target: Storage, *, vectors: bool = True,
                  progress: Progress = _noop, resume: bool = False,
                  writing: Callable[[], None] | None = None) -> TransferCounts:
    """Copy everything from one backend to another, vectors included (no re-embedding):
    the source's message ids are compared with the target's first, then its records
    are written as they are read, a page at a time (never the whole store at once).

    ``resume``: finish a migration from this source that stopped part way (killed, a
    full disk, a lost connection), as an import's ``resume``: the messages the target
    holds already are kept when each is the source's own (:func:`check_kept`, all
    compared before anything is written; one that differs is refused by name), the
    rest are written, and sessions, settings and vectors are written again (each an
    upsert), so the target ends as a migration that never stopped leaves it. Without
    it such a target is refused for its first id held.

    ``writing`` is called once the checks passed, before the first write: an error
    before it left the target as it was (the command line removes a destination it
    created), one after it a part of the copy that ``resume`` finishes."""
    _check_storage(source, "source")
    _check_storage(target, "target")
    check_flag(vectors, "vectors")
    _check_callable(progress, "progress", _PROGRESS)
    check_flag(resume, "resume")
    if writing is not None:
        _check_callable(writing, "writing", "called before the first write")
    async def messages() -> AsyncIterator[list[Message]]:
        cursor = 0
        while page := await source.store.scan_messages(cursor, PAGE):
            yield [msg for _, msg, _ in page]
            cursor = page[-1][0]

    async def ids() -> AsyncIterator[list[str]]:
        async for page in messages():
            yield [msg.id for msg in page if msg.id is not None]

    own = [{"namespace": ns, "key": key, "value": value}
           for ns, key, value in await source.store.meta_items() if ns in STORE_RECORDS]
    await check_target(target, ids(), own, await source.vector_sizes() if vectors else {},
                       parents={s.id: s.parent_id for s in await source.store.all_sessions()},
                       resume=resume, migrating=True)
    if resume:
        await check_kept(target, messages(), migrating=True)
    if writing is not None:
        writing()
    async with target.bulk_load((await source.store.stats()).messages if vectors else 0):
        return await _write(target, _records(source, vectors), progress, resume=resume)
