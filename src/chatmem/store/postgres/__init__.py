"""PostgreSQL + pgvector backend: messages, sessions, metadata and vectors (S3).

URL: ``postgresql://user:password@host:port/db`` (``postgres://`` works too), with
optional query parameters that chatmem reads and removes before connecting:

* ``schema=<name>`` puts every chatmem table in that schema (created when missing;
  default ``public``). Names match ``^[a-z_][a-z0-9_]{0,62}$``; one database can
  hold many independent stores this way.
* ``pool_size=<n>``: most pooled connections (default 10); with 1, a message's lock
  (``message_lock``) or a key's (``key_lock``) takes a connection of its own beside
  the pool.
* ``exact_threshold=<n>``: see *Search* below (default 5000; at most 10⁹).
* ``ef_search=<n>``: HNSW candidate list size, 1–1000 (default 100; raised to k).
* ``build_memory_mb=<n>``: ``maintenance_work_mem`` of a bulk load's index build,
  in MB, 16–2,097,151 (default 1024; see *Bulk loads*).

Each is given once. Every other query parameter goes to libpq unchanged (libpq's own
``%xx`` decoding); a URL libpq cannot read is a :class:`~chatmem.errors.ConfigError`
that never quotes the password (:func:`.url.parse_url`).

Semantics are those of :class:`chatmem.store.sqlite.SqliteStore`, the reference
implementation; the conformance suite (``tests/test_conformance.py``) holds both
to the same results.

Schema
    Tables ``sessions``, ``messages`` (``seq bigserial``: insertion order and the
    ``scan_messages`` cursor), ``vectors``, ``meta`` and ``chatmem_migrations``
    (``version``, ``applied_at``). Opening a store applies missing migrations in
    one transaction under a transaction-scoped advisory lock keyed by the schema,
    so processes opening the same store at once do not race; a schema written by
    a newer chatmem is refused. The ``vector`` extension is created when missing
    (this needs the privilege to do so).

Vectors
    One untyped ``vector`` column plus ``dim``, so vectors of several models and
    sizes coexist. The first vector of a dimension creates a partial HNSW
    expression index for it (``(embedding::vector(d)) vector_cosine_ops WHERE
    dim = d``; at most 2000 dimensions, pgvector's HNSW limit; larger vectors are
    searched exactly). ``upsert`` writes the vectors and marks their messages
    ``INDEXED`` in one transaction. Score = cosine similarity = 1 − distance.

Bulk loads (:meth:`PostgresStore.bulk_load`)
    Inserting a row into an HNSW graph costs about 20× the row itself, so a large
    import, migration or reindex defers the index and builds it once at the end.
    It defers only when the load is at least ``bulk_min_rows`` rows (10,000) and the table
    holds fewer vectors than the load brings (an index that other processes rely
    on for a big table is kept, and rows go in one by one). Deferring, under the
    ``hnsw`` advisory lock: mark the ``vectors`` table (a table comment, which
    exports do not carry), drop its HNSW indexes; meanwhile every search is exact
    (correct, slower). The loader holds a session advisory lock ``bulk:<schema>``
    for the whole load, so one bulk load defers at a time. At the end (also after
    an exception) it builds each dimension's index with ``CREATE INDEX
    CONCURRENTLY`` (writers are not blocked; ``maintenance_work_mem`` =
    ``build_memory_mb``) and clears the mark. A loader that dies leaves the mark
    and its lock is gone with its connection: the next open rebuilds the indexes,
    and so does a store already open, in the background, at its next search (at most
    every ``deferred_check_s``; at once after a load of its own that was cancelled).
    Other processes neither create an index while the mark is set nor lose
    correctness: their HNSW query on a dropped index is planned as a scan.

Search (filter pushed down, k results whenever k rows match)
    The filter is compiled to SQL (:func:`chatmem.store.filters.compile_postgres`;
    simple ``$eq``/``$in`` conditions on plain columns at the top level become
    ``col = ANY(...)`` so that B-tree indexes apply). Then, with
    T = ``exact_threshold``:

    1. *Small table*: at most T vectors of the query's dimension → exact search.
       The size comes from a count that stops at T + 1, cached per dimension for
       10 s (rows are wide, so even a bounded count costs a scan); this store's
       own upserts add to a small cached size, its deletes drop the cache, and a
       cached 0 is never trusted.
    2. *Selective filter*: count the matching rows, stopping at T + 1 (cheap when
       a B-tree serves the filter); at most T → exact search.
    3. Exact search too when ``k`` exceeds 1000 (``hnsw.ef_search``'s ceiling) or
       the dimension has no HNSW index (over 2000 dimensions).
    4. Otherwise HNSW with ``hnsw.ef_search = max(ef_search, k)`` and pgvector
       0.8's iterative index scan (``hnsw.iterative_scan = strict_order``), both
       set once per pooled connection (ef_search raised in a transaction when k is
       larger). The iterative scan keeps walking the graph until k rows pass the
       filter. If it still returns fewer than k rows (``hnsw.max_scan_tuples``
       reached under a filter that matches more than T rows but a tiny share of
       the table), the query is rerun exactly. Before pgvector 0.8 the same
       happens without iterative scans.

    Exact search scans the matching rows ordered by score, exact ties by newer
    ``ts``, then message id (byte-wise), as every backend and the recall pool break
    them; its ordering expression deliberately differs from the index
    expression, so the planner can never answer it from the approximate index.
    Exact search over small tables is also what makes results identical to
    SQLite's. Why a threshold at all: a scan costs roughly 2–3 ms per 1000 rows
    of 384 dimensions (the rows are wide), an HNSW probe a few ms at any size.
    So a narrow filter always returns ``min(k, matches)`` hits; above the
    threshold the hits are approximate (HNSW recall), below it exact.
    ``last_search`` tells which path answered the last query.

Errors
    Every driver error becomes :class:`~chatmem.errors.StoreError` (the psycopg
    exception chained); use after :meth:`PostgresStore.close` raises
    :class:`~chatmem.errors.StoreClosed`. User values are always bound parameters;
    identifiers (the schema, index names) are validated and quoted with
    :mod:`psycopg.sql`.

Differences from SQLite, all from PostgreSQL itself: metadata is ``jsonb`` (key
order is not kept, NaN/Infinity and U+0000 are refused with
:class:`~chatmem.errors.InvalidInput`, ``-0.0`` reads back as ``0.0``, a float is
written with a fraction: :func:`_json_floats_kept`); text may not contain U+0000
(validated messages never do);
``scan_messages`` cursors are ``bigserial`` values, which are never reused, and a
scan concurrent with appends may miss a row whose transaction commits late.
``scan_vectors`` also returns the stored ``text``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import hashlib
import inspect
import json
import logging
import math
import re
import select
import time
import uuid
from bisect import bisect_right
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import AbstractAsyncContextManager
from decimal import Decimal
from typing import Any, TypeVar

import numpy as np
import numpy.typing as npt
import psycopg
from psycopg import errors as pgerrors
from psycopg import sql
from psycopg.types.json import set_json_loads
from psycopg_pool import AsyncConnectionPool

from ... import refusals
from ..._aio import run_to_end
from ...backoff import retry_delay
from ...errors import ConfigError, DamagedRow, InvalidInput, StoreClosed, StoreError
from ...models import (
    VECTOR_FIELDS,
    Erased,
    IndexState,
    Message,
    ScoredId,
    Session,
    StoreStats,
    VectorEntry,
    retried_add,
)
from .. import sqlmessages as sm
from ..base import (
    MAX_SESSION_DEPTH,
    ArrivalClock,
    Claim,
    OneWidth,
    Retry,
    SessionSnapshot,
    SessionUnder,
    WidthConflict,
    chain_snapshots,
    chunks,
    pending_entry,
    snapshot_changes,
    sound_vector,
    stale_entries,
    widths_of,
)
from ..columns import (
    ENTRY_COLUMN_NAMES,
    Column,
    checked_vector,
    entry_fields,
    entry_values,
    pg_upsert_sql,
    read_rows,
)
from ..filters import compile_postgres
from ..sql import PENDING_ENTRY_SQL, WAITING_STATES_SQL, waiting
from ..sqlmessages import POSTGRES, Statement
from ..where import check_fields, named_ids, simple_values, vector_field_ref
from . import lexical
from .schema import MIGRATIONS
from .schema import SCHEMA_VERSION as SCHEMA_VERSION  # re-exported
from .url import describe, int_option, parse_url

log = logging.getLogger("chatmem.store.postgres")

_SCHEMA_RE = re.compile(r"[a-z_][a-z0-9_]{0,62}")
#: What a schema name takes (:data:`_SCHEMA_RE`, and not ``pg_``: PostgreSQL's own), in words.
SCHEMA_RULE = ("lowercase letters, digits and _, not starting with a digit or pg_, at most "
               "63 characters")
#: First key of every advisory lock chatmem takes ("chm"). The second is ``hashtext`` of
#: a text that begins with the store's schema (:meth:`PostgresStore._lock_name`): an
#: advisory lock belongs to the database, and stores in two schemas of one database
#: must not wait on each other's locks. Only the pgvector extension's lock
#: (``_LOCK_CLASS, 0``) is the database's own: the extension is created once per database.
_LOCK_CLASS = 0x63686D
#: chatmem's tables whose rows are a store's data: a store none of them has a row in
#: (its metadata area none but what its open wrote) is empty.
_DATA_TABLES = frozenset({"sessions", "messages", "vectors", "lexical_entries", "meta"})
#: pgvector's HNSW index supports up to this many dimensions.
HNSW_MAX_DIM = 2000
#: ``hnsw.ef_search`` accepts at most this.
EF_SEARCH_MAX = 1000
DEFAULT_EXACT_THRESHOLD = 5000
#: The largest ``exact_threshold``: every query counts rows up to it + 1 in a ``bigint``
#: ``LIMIT`` (2**63 - 1 and beyond made every query fail); no table comes near it.
EXACT_THRESHOLD_MAX = 10**9
DEFAULT_EF_SEARCH = 100
#: Seconds a counted table size is trusted (other processes write too).
SIZE_TTL_S = 10.0
#: Seconds a full-text query's corpus statistics serve the queries restricted to named
#: ids that follow it (a recall measuring its dense candidates: milliseconds later).
LEXICAL_STATS_TTL_S = 2.0
#: Query texts whose corpus statistics are kept (concurrent recalls).
LEXICAL_STATS_KEPT = 64
DEFAULT_POOL_SIZE = 10
#: A bulk load smaller than this keeps the HNSW index (per-row inserts are cheap
#: enough, and the build has a fixed cost).
BULK_MIN_ROWS = 10_000
#: Seconds between two looks, by a store that is searched, for HNSW indexes a bulk load
#: left deferred (cancelled, or its process died): found, they are built in the
#: background (:meth:`PostgresStore._rebuild_deferred`).
DEFERRED_CHECK_S = 60.0
DEFAULT_BUILD_MEMORY_MB = 1024
#: Seconds from the loss of the connection that listens for pending announcements to
#: the first attempt to listen again, doubled by each further failure in a row, at most
#: :data:`LISTEN_RETRY_MAX_S` (:func:`listen_retry_pause`).
LISTEN_RETRY_S = 1.0
#: Longest pause between two attempts to listen again: after a long outage, how long
#: a process may take to hear announcements again (a refused connection costs nothing).
LISTEN_RETRY_MAX_S = 5.0
#: PostgreSQL's largest ``maintenance_work_mem`` in MB (2**31 - 1 kB): a larger value
#: failed only at the end of a bulk load, leaving its indexes unbuilt and every later
#: open of the store (which builds them) failing too.
BUILD_MEMORY_MB_MAX = 2_097_151
#: The comment on the ``vectors`` table while a bulk load defers its HNSW indexes.
_DEFERRED = "chatmem: HNSW indexes deferred by a bulk load"
#: Now in ms on the database's clock: the leases and retry schedules of processes on
#: several hosts compare alike (:meth:`PostgresStore.clock_ms`).
_DB_NOW_MS = "(extract(epoch FROM clock_timestamp()) * 1000)::bigint"


_MSG_COLS = POSTGRES.message_columns
_SESSION_COLS = sm.SESSION_COLUMNS
_VEC_COLS = f"{ENTRY_COLUMN_NAMES}, text, embedding"
#: rows: mseq, the entry columns, text, dim, embedding, lex, lex_len (X1: written with
#: the row, see :func:`lexical.pg_lex_columns`)
_VECTORS_UPSERT = pg_upsert_sql("vectors", [("text", "%s"), ("dim", "%s"), ("embedding", "%s"),
                                            ("lex", "%s::tsvector"), ("lex_len", "%s")],
                                prefix=["mseq"])
#: Plain vector columns that are NOT NULL: ``col = ANY(...)`` is exact on them.
_TEXT_FIELDS = VECTOR_FIELDS - {"ts"}


def listen_retry_pause(failures: int) -> float:
    """Seconds before the next attempt to listen for pending announcements after
    ``failures`` in a row (1: the connection was just lost): :data:`LISTEN_RETRY_S`,
    doubled by each further one, at most :data:`LISTEN_RETRY_MAX_S`: the indexer's
    doubling (:func:`chatmem.backoff.retry_delay`), without jitter."""
    return retry_delay(failures, LISTEN_RETRY_S, LISTEN_RETRY_MAX_S)


def _claimable(owner: str | None) -> Statement | None:
    """The rows ``owner`` may claim: no other owner's lease runs (``None``: any row)."""
    if owner is None:
        return None
    return f"(claim_until <= {_DB_NOW_MS} OR claim_owner = %s)", [owner]


async def _check_idle(conn: psycopg.AsyncConnection[Any]) -> None:
    """The pool's check of a connection it hands out: a restarted or failed-over server
    leaves every idle pooled connection dead, and each would fail the next call made on
    it (up to ``pool_size`` calls failing while the server is up again). A dead
    connection has input waiting (the server's 'terminating connection' and the end of
    the stream) where an idle one has none: only such a connection is asked for a
    round trip, and one that fails it is replaced, so a healthy one costs no query."""
    if conn.closed or conn.broken:
        raise psycopg.OperationalError("the connection is closed")
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    if readable:
        await AsyncConnectionPool.check_connection(conn)


def _row_to_message(r: Sequence[Any]) -> Message:
    """A message from a row of :data:`_MSG_COLS` (seq first, index state last)."""
    return sm.row_to_message(POSTGRES, r)


def _session_scope(session_id: str | None) -> tuple[str, list[Any]]:
    """A ``WHERE`` fragment and its parameters: the rows of one session, or all."""
    return ("TRUE", []) if session_id is None else ("session_id = %s", [session_id])


async def _rows(conn: psycopg.AsyncConnection[Any], *statements: Statement | None
                ) -> list[Any]:
    """The rows of these statements, in order (``None``: a statement not needed)."""
    out: list[Any] = []
    for st in statements:
        if st is not None:
            out.extend(await (await conn.execute(*st)).fetchall())
    return out


def _to_numpy(value: Any) -> npt.NDArray[np.float32]:
    """A loaded ``vector``: a pgvector ``Vector`` (pgvector ≥ 0.3) or an array."""
    if hasattr(value, "to_numpy"):
        value = value.to_numpy()
    return np.array(value, dtype=np.float32)


def _has_nul(value: Any) -> bool:
    if isinstance(value, str):
        return "\x00" in value
    if isinstance(value, Mapping):
        return any(_has_nul(k) or _has_nul(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_has_nul(v) for v in value)
    return False


def _json(value: Any, where: str) -> str:
    """JSON text for a ``jsonb`` parameter; refuses what jsonb cannot hold."""
    try:
        text = json.dumps(value, ensure_ascii=False, allow_nan=False)
    except ValueError as exc:
        raise InvalidInput(f"{where}: {exc} (PostgreSQL jsonb holds no NaN or Infinity)"
                           ) from None
    if "\\u0000" in text and _has_nul(value):
        raise InvalidInput(f"{where} contains a NUL character (U+0000), which PostgreSQL "
                           "cannot store")
    if "e+" in text and _has_big_float(value):
        text = _json_floats_kept(value)
    return text


def _has_big_float(value: Any) -> bool:
    """Whether ``value`` holds a float that JSON writes with a positive exponent."""
    if isinstance(value, float):
        return "e+" in float.__repr__(value)
    if isinstance(value, Mapping):
        return any(_has_big_float(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_big_float(v) for v in value)
    return False


def _json_floats_kept(value: Any) -> str:
    """``value`` as JSON with every float written with a fraction, never an exponent:
    jsonb keeps a number's digits after the point, not its exponent, so ``1e+20`` read
    back as the integer 100000000000000000000 (a float of 2**63 or more then made an
    integer that no import takes: the store's export could not be restored), where
    ``100000000000000000000.0`` reads back as the float it was."""
    if isinstance(value, float):
        text = float.__repr__(value)  # as json writes it: numpy's repr is np.float64(…)
        return format(Decimal(text), "f") + ".0" if "e+" in text else text
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(k, ensure_ascii=False)}: {_json_floats_kept(v)}"
                               for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_json_floats_kept(v) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def _json_loads(data: str | bytes) -> Any:
    """A ``jsonb`` value as Python. An integer past 64 bits is a float that jsonb kept
    without its exponent before :func:`_json_floats_kept` (chatmem stores no such
    integer): read as the float it was, so that the message can be exported, imported
    and checked again."""
    return json.loads(data, parse_int=_int_or_float)


def _int_or_float(text: str) -> int | float:
    value = int(text)
    return value if -(2**63) <= value < 2**63 else float(text)


def _jsonb(where: str) -> Callable[[Any, Column], str]:
    """The JSON-column encoder of one entry: errors name the entry and the field."""
    def dump(value: Any, column: Column) -> str:
        return _json(value, f"{where} {column.field}")

    return dump


def compile_vector_where(where: Mapping[str, Any] | None) -> tuple[str, list[Any]]:
    """SQL over the ``vectors`` table selecting the entries ``where`` selects.

    Raises :class:`~chatmem.errors.FilterError` for an invalid filter. Top-level
    ``$eq``/``$in`` string conditions on plain columns become ``col = ANY(%s)`` (the
    same rows: those columns hold text or NULL, and NULL equals nothing) so that
    the B-tree indexes apply; everything else goes through ``compile_postgres``.
    """
    if not where:
        return "TRUE", []
    check_fields(where)
    parts: list[str] = []
    params: list[Any] = []
    rest: dict[str, Any] = {}
    for key, cond in where.items():
        values = simple_values(cond) if key in _TEXT_FIELDS else None
        if values is None:
            rest[key] = cond
            continue
        parts.append(f"({key} = ANY(%s::text[]))")
        params.append(values)
    if rest:
        frag, fparams = compile_postgres(rest, vector_field_ref)
        parts.append(frag)
        params.extend(fparams)
    return " AND ".join(parts), params


C = TypeVar("C", bound=type)

#: The server's refusals for want of a resource (SQLSTATE class 53), said as SQLite's
#: full disk is: what happened, then what was kept and what to do. A statement the
#: server refused is rolled back (a transaction with it, by :meth:`PostgresStore._tx`):
#: nothing of it is acknowledged.
_INSUFFICIENT_RESOURCES: dict[str, tuple[str, str]] = {
    "53100": ("the database server's disk is full",
              "this write was refused and nothing of it was stored; what was stored "
              "before is kept; free some space on the server's disk and try again"),
    "53200": ("the database server is out of memory",
              "this request was refused and nothing of it was stored; what was stored "
              "before is kept; try again, or give the server more memory"),
    "53300": ("the database server has no connection free (too many connections)",
              "nothing was done; try again when fewer clients are connected, or raise "
              "the server's max_connections or lower this store's pool_size"),
}


def _naming_damage(cls: C) -> C:
    """Every public coroutine method of ``cls`` names the store in a
    :class:`~chatmem.errors.DamagedRow` it raises (:attr:`~chatmem.errors.DamagedRow.where`):
    the rows are read in many places, the store is one."""

    def wrap(fn: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(fn)
        async def named(self: PostgresStore, *args: Any, **kwargs: Any) -> Any:
            try:
                return await fn(self, *args, **kwargs)
            except DamagedRow as exc:
                if not exc.where:
                    exc.where, exc.namespace = self._named
                raise

        return named

    for name, fn in list(vars(cls).items()):
        if not name.startswith("_") and inspect.iscoroutinefunction(fn):
            setattr(cls, name, wrap(fn))
    return cls


def valid_schema(schema: str) -> bool:
    """``schema`` is a name a store may take (:data:`SCHEMA_RULE`)."""
    return bool(_SCHEMA_RE.fullmatch(schema)) and not schema.startswith("pg_")


def _schema_shown(schema: str) -> str:
    """What of ``schema`` a store's label shows: nothing for the default (``public``)."""
    return "" if schema == "public" else f", schema {refusals.describe(schema)}"


@_naming_damage
class PostgresStore:
    """Message store and vector index in one PostgreSQL database (pgvector)."""

    supports_delete_by_filter = True

    def __init__(self, conninfo: str, *, schema: str = "public",
                 pool_size: int = DEFAULT_POOL_SIZE,
                 exact_threshold: int = DEFAULT_EXACT_THRESHOLD,
                 ef_search: int = DEFAULT_EF_SEARCH,
                 build_memory_mb: int = DEFAULT_BUILD_MEMORY_MB) -> None:
        if not valid_schema(schema):
            raise ConfigError(f"storage URL: schema {refusals.describe(schema)} is not a valid "
                              f"name ({SCHEMA_RULE})")
        self.schema = schema
        self.exact_threshold = exact_threshold
        self.ef_search = ef_search
        self.build_memory_mb = build_memory_mb
        #: Smallest load :meth:`bulk_load` defers the HNSW indexes for.
        self.bulk_min_rows = BULK_MIN_ROWS
        #: Seconds between two looks for indexes a bulk load left deferred.
        self.deferred_check_s = DEFERRED_CHECK_S
        #: when a search last looked (monotonic; -inf: the next search looks)
        self._deferred_looked_at = -math.inf
        self._rebuilding: asyncio.Task[None] | None = None
        #: What this open created (:meth:`discard` drops it while it holds no data): the
        #: schema, chatmem's tables, and the metadata rows the open itself wrote.
        self._made_schema = False
        self._made_tables: list[str] = []
        self._made_meta: set[tuple[str, str]] = set()
        self._conninfo = conninfo
        self._pool_size = pool_size
        #: A message lock holds a pooled connection while the rewrite it guards uses
        #: others (embedding included): at most half the pool is held that way, so
        #: concurrent rewrites can never take every connection and wait on themselves.
        self._message_locks = asyncio.Semaphore(max(1, pool_size // 2))
        #: the connection each task holds its first such lock on (:meth:`_held_lock`)
        self._lock_conns: dict[asyncio.Task[Any] | None, psycopg.AsyncConnection[Any]] = {}
        self._where = describe(conninfo)
        #: How the store's errors and log lines name it: ``postgres (host:port/db)``, and
        #: a schema other than ``public`` too, ``postgres (host:port/db, schema "alice")``,
        #: which sets apart two stores on one server (never the user or the password).
        self._label = f"postgres ({self._where}{_schema_shown(schema)})"
        #: How a :class:`~chatmem.errors.DamagedRow` of this store names it (``where``,
        #: ``namespace``): the schema sets apart two stores on one server.
        self._named = (self._label, schema)
        self._pool: AsyncConnectionPool[Any] | None = None
        #: :meth:`message_sessions_after` walks in code point order (as
        #: :meth:`sessions_after` pages): the database's collation is C (read at open)
        self.message_sessions_by_code_point = False
        self._closed = False
        self._arrivals = ArrivalClock()  # the ts of messages added without one
        self._search_path = ""
        self._iterative = False
        self._hnsw_dims: set[int] = set()
        self._bulk_depth = 0  # nested bulk_load calls
        self._deferring = False  # this store deferred the HNSW indexes (bulk_load)
        self._sizes: dict[int, tuple[float, int]] = {}  # dim -> (counted at, min(n, T+1))
        #: query text -> (computed at, its corpus statistics), see :meth:`lexical_query`
        self._lexical_stats: dict[str, tuple[float, lexical.CorpusStats]] = {}
        #: How the last query was answered: ``none`` (nothing matched), ``exact``,
        #: ``hnsw`` or ``hnsw+exact`` (HNSW came back short, rerun exactly).
        self.last_search = "none"

    # ---------------------------------------------------------------- plumbing

    @classmethod
    async def open(cls, url: str, *, create: bool = True) -> PostgresStore:
        """Open the store; ``create=False`` refuses a schema without chatmem's tables
        (creating nothing: no extension, schema or table)."""
        store = cls.from_url(url)
        await store._open(create)
        return store

    @classmethod
    def from_url(cls, url: str) -> PostgresStore:
        """The store ``url`` names, not yet connected: its options checked
        (:class:`~chatmem.errors.ConfigError` naming one it cannot take)."""
        conninfo, options = parse_url(url)
        return cls(
            conninfo,
            schema=options.get("schema") or "public",
            pool_size=int_option(options, "pool_size", DEFAULT_POOL_SIZE, 1),
            exact_threshold=int_option(options, "exact_threshold", DEFAULT_EXACT_THRESHOLD,
                                        0, EXACT_THRESHOLD_MAX),
            ef_search=int_option(options, "ef_search", DEFAULT_EF_SEARCH, 1, EF_SEARCH_MAX),
            build_memory_mb=int_option(options, "build_memory_mb", DEFAULT_BUILD_MEMORY_MB,
                                       16, BUILD_MEMORY_MB_MAX),
        )

    def _error(self, exc: BaseException, what: str = "") -> StoreError:
        doing = f" {what}" if what else ""
        # the server's DETAIL, HINT and CONTEXT come on lines of their own: one line, as
        # every error (the command line prints one line per error)
        said = "; ".join(line.strip() for line in str(exc).splitlines() if line.strip())
        plain = _INSUFFICIENT_RESOURCES.get(getattr(exc, "sqlstate", None) or "")
        if plain is not None:  # what the user can do, the server's words in brackets
            head, rest = plain
            return StoreError(f"{self._label}{doing}: {head} ({said}): {rest}")
        return StoreError(f"{self._label}{doing}: {said}")

    async def _open(self, create: bool = True) -> None:
        try:
            conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise self._error(exc, "cannot connect") from exc
        try:
            async with conn:
                if not create:
                    await self._check_exists(conn)
                await self._open_on(conn)
                # with the first connection still open: it holds the store open (the
                # ``open:`` lock, :meth:`_configure`) until the pool's connections do
                await self._open_pool()
        except BaseException as exc:
            # cancelled too: a new schema this open made goes with it (as a SQLite store
            # file its open made does)
            await self._drop_made()
            if isinstance(exc, psycopg.Error):
                raise self._error(exc, "opening the store") from exc
            raise

    async def _open_pool(self) -> None:
        pool = AsyncConnectionPool(
            self._conninfo, min_size=1, max_size=self._pool_size,
            kwargs={"autocommit": True}, configure=self._configure, open=False,
            name=f"chatmem-{self.schema}", check=_check_idle,
        )
        try:
            await pool.open(wait=True, timeout=30)
        except BaseException as exc:
            # cancelled too (a timeout around the open): else its connection and its
            # worker tasks are left running, unreachable
            await pool.close()
            if isinstance(exc, psycopg.Error):
                raise self._error(exc, "cannot open the connection pool") from exc
            raise
        self._pool = pool

    async def _open_on(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """The open's work on its first connection: the extension, the session settings,
        the migrations, a bulk load's deferred indexes."""
        ext_schema, version = await self._ensure_extension(conn)
        self._search_path = sql.SQL(", ").join(
            [sql.Identifier(s) for s in dict.fromkeys([self.schema, ext_schema])]
        ).as_string(conn)
        self._iterative = tuple(
            int(p) for p in re.findall(r"\d+", version)[:2]) >= (0, 8)
        # what each pooled connection will run, run here first: a failure (the
        # URL's options= making its statements fail, say) is this open's error,
        # not a pool retrying it for 30 s and reporting only a timeout
        await self._configure(conn)
        await self._migrate(conn)
        if self._made_tables:  # this open made the store: it alone may drop it
            await conn.execute("SELECT pg_advisory_unlock_shared(%s, hashtext(%s))",
                               self._open_lock())
        await self._resume_deferred(conn)
        self._hnsw_dims = await self._load_hnsw_dims(conn)
        self._deferred_looked_at = time.monotonic()  # the open looked
        # messages.session_id has the database's collation: C (libc) is byte order,
        # which for UTF-8 is code point order; to_jsonb reads datlocprovider where
        # there is one (PostgreSQL 15 on), and no ICU locale is taken as C
        row = await (await conn.execute(
            "SELECT to_jsonb(d) ->> 'datcollate', coalesce(to_jsonb(d) ->> "
            "'datlocprovider', 'c') FROM pg_database d WHERE datname = current_database()"
        )).fetchone()
        self.message_sessions_by_code_point = (
            row is not None and row[0] in ("C", "POSIX") and row[1] == "c")

    async def _configure(self, conn: psycopg.AsyncConnection[Any]) -> None:
        from pgvector.psycopg import register_vector_async

        set_json_loads(_json_loads, conn)
        await conn.execute("SELECT set_config('search_path', %s, false)", [self._search_path])
        await register_vector_async(conn)
        # HNSW settings for the whole session, so a query needs no transaction of its
        # own; the cast loads pgvector first, which defines the hnsw.* settings
        await conn.execute("SELECT '[0]'::vector")
        await conn.execute("SELECT set_config('hnsw.ef_search', %s, false)",
                           [str(self.ef_search)])
        if self._iterative:
            await conn.execute("SELECT set_config('hnsw.iterative_scan', 'strict_order', false)")
        if not self._made_tables:
            # held for the connection's life: a failed open of another process that made
            # this schema and its tables meanwhile leaves them to this one (_drop_made)
            await conn.execute("SELECT pg_advisory_lock_shared(%s, hashtext(%s))",
                               self._open_lock())

    def _open_lock(self) -> list[Any]:
        """The advisory lock each connection of a store holds, shared, while it is open,
        except those of the open that made the store's tables: the one who made them may
        drop them (:meth:`_drop_made`) only while no other holds it."""
        return [_LOCK_CLASS, "open:" + self.schema]

    async def _check_exists(self, conn: psycopg.AsyncConnection[Any]) -> None:
        row = await (await conn.execute(
            "SELECT to_regclass(%s) IS NOT NULL",
            [f"{self.schema}.chatmem_migrations"])).fetchone()  # schema: a checked name
        if not (row and row[0]):
            raise StoreError(
                f"postgres ({self._where}): no chatmem store in schema "
                f"{refusals.describe(self.schema)} (no chatmem tables): check the URL and "
                "its schema=, or create the store first "
                "(chatmem add, import or migrate --to; in Python, create=True)"
            )

    async def _ensure_extension(self, conn: psycopg.AsyncConnection[Any]) -> tuple[str, str]:
        find = ("SELECT n.nspname, e.extversion FROM pg_extension e "
                "JOIN pg_namespace n ON n.oid = e.extnamespace WHERE e.extname = 'vector'")
        row = await (await conn.execute(find)).fetchone()
        if row is None:
            try:
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock(%s, 0)", [_LOCK_CLASS])
                    await conn.execute("CREATE EXTENSION IF NOT EXISTS vector")
            except psycopg.Error as exc:
                raise StoreError(
                    f"{self._label}: the pgvector extension is not installed in "
                    f"this database and could not be created ({exc}); run `CREATE EXTENSION "
                    "vector` as a privileged user"
                ) from exc
            row = await (await conn.execute(find)).fetchone()
            assert row is not None
        return str(row[0]), str(row[1])

    async def _migrate(self, conn: psycopg.AsyncConnection[Any]) -> None:
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                               [_LOCK_CLASS, "schema:" + self.schema])
            exists = await (await conn.execute(
                "SELECT 1 FROM pg_namespace WHERE nspname = %s", [self.schema])).fetchone()
            if exists is None:
                await conn.execute(sql.SQL("CREATE SCHEMA {}").format(
                    sql.Identifier(self.schema)))
            tables_before = await self._tables(conn)
            await conn.execute("SELECT set_config('search_path', %s, true)",
                               [self._search_path])
            # qualified: created in the schema, never further along the search path, and
            # the schema is locked against a concurrent DROP until this commits, so the
            # unqualified tables of the migrations cannot land in pgvector's schema either
            await conn.execute(sql.SQL(
                "CREATE TABLE IF NOT EXISTS {}.chatmem_migrations (version integer PRIMARY KEY, "
                "applied_at timestamptz NOT NULL DEFAULT now())").format(
                    sql.Identifier(self.schema)))
            row = await (await conn.execute(
                "SELECT coalesce(max(version), 0) FROM chatmem_migrations")).fetchone()
            current = int(row[0]) if row else 0
            if current > SCHEMA_VERSION:
                raise StoreError(
                    f"postgres ({self._where}): schema {refusals.describe(self.schema)} "
                    f"was written by a newer chatmem (schema version {current}, this one "
                    f"knows {SCHEMA_VERSION}); "
                    "upgrade chatmem"
                )
            for version in range(current + 1, SCHEMA_VERSION + 1):
                for statement in MIGRATIONS[version]:
                    await conn.execute(statement)
                await conn.execute("INSERT INTO chatmem_migrations (version) VALUES (%s)",
                                   [version])
                log.info("postgres schema %s: applied migration %d", self.schema, version)
            await lexical.pg_setup(conn)  # X1: (re)tokenize rows written before or stale
            # X1: messages an older chatmem (or process) left waiting get their entries
            await self._sync_pending(conn)
            # X1: BM25's totals (migration 8) as the rows hold them: an older chatmem
            # still running beside this one writes without booking (a count of both
            # tables, at an open at least an hour after the last one: migration 9)
            repaired = await lexical.pg_repair_totals(conn)
            if repaired is not None:
                log.warning("postgres schema %s: BM25's totals were off by %d rows and %d "
                            "tokens (written by an older chatmem?); corrected. Upgrade "
                            "every process that writes to this store.", self.schema,
                            *repaired)
            made = sorted(await self._tables(conn) - tables_before)
            if made:  # what the migration wrote into the metadata area is not data
                self._made_meta = {(str(ns), str(key)) for ns, key in await (
                    await conn.execute("SELECT namespace, key FROM meta")).fetchall()}
        # noted once committed: a migration rolled back made nothing
        self._made_schema, self._made_tables = exists is None, made

    async def _tables(self, conn: psycopg.AsyncConnection[Any]) -> set[str]:
        """The tables of this store's schema."""
        rows = await (await conn.execute(
            "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
            "WHERE n.nspname = %s AND c.relkind IN ('r', 'p')", [self.schema])).fetchall()
        return {str(r[0]) for r in rows}

    async def discard(self) -> None:
        """Close after the caller failed to set up around this store: the schema and the
        tables its open created are dropped while they hold no data (as a SQLite store
        file its open created is removed); a store that was there is only closed."""
        if self._closed:
            return
        try:
            await self._drop_made()
        finally:
            await self.close()

    async def _holds_data(self, conn: psycopg.AsyncConnection[Any], tables: set[str]) -> bool:
        """Whether one of chatmem's ``tables`` holds a row (the metadata area: one its
        open did not write)."""
        ident = sql.Identifier(self.schema)
        for table in sorted(_DATA_TABLES & tables):
            if table == "meta":
                rows = await (await conn.execute(sql.SQL(
                    "SELECT namespace, key FROM {}.meta").format(ident))).fetchall()
                if {(str(ns), str(key)) for ns, key in rows} - self._made_meta:
                    return True
            elif await (await conn.execute(sql.SQL("SELECT 1 FROM {}.{} LIMIT 1").format(
                    ident, sql.Identifier(table)))).fetchone():
                return True
        return False

    async def _drop_made(self) -> None:
        """Drop what this open created (:attr:`_made_schema`, :attr:`_made_tables`) when
        none of the schema's chatmem tables holds a row (the metadata area: none but
        those the open wrote), under the lock the migrations take, so that an open of
        the schema by another process waits and then makes it anew. Anything else there
        (another process's rows, an object someone added to the new schema) keeps it
        all, as the open left it; so does another store that opened it meanwhile, not
        yet having written (its connections hold the ``open:`` lock, :meth:`_configure`,
        from before its migrations to its close)."""
        made, self._made_tables = self._made_tables, []
        schema, self._made_schema = self._made_schema, False
        if not made:
            return
        ident = sql.Identifier(self.schema)
        try:
            async with await psycopg.AsyncConnection.connect(
                    self._conninfo, autocommit=True) as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                                   [_LOCK_CLASS, "schema:" + self.schema])
                row = await (await conn.execute(
                    "SELECT pg_try_advisory_xact_lock(%s, hashtext(%s))",
                    self._open_lock())).fetchone()
                if not (row and row[0]):
                    log.info("postgres schema %s: the tables a failed open made are kept, "
                             "as another store opened them meanwhile", self.schema)
                    return
                present = await self._tables(conn)
                if await self._holds_data(conn, present):
                    log.info("postgres schema %s: the tables a failed open made are kept, "
                             "as they hold data now", self.schema)
                    return
                gone = [t for t in made if t in present]
                if gone:
                    await conn.execute(sql.SQL("DROP TABLE {}").format(sql.SQL(", ").join(
                        sql.Identifier(self.schema, t) for t in gone)))
                if schema:
                    await conn.execute(sql.SQL("DROP SCHEMA {}").format(ident))
        except psycopg.Error as exc:
            log.warning("postgres schema %s: what a failed open made is kept (%s)",
                        self.schema, exc)

    async def _load_hnsw_dims(self, conn: psycopg.AsyncConnection[Any]) -> set[int]:
        rows = await (await conn.execute(
            "SELECT c.relname FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid "
            "WHERE i.indrelid = to_regclass(%s) AND i.indisvalid",  # not a failed build
            [self._vectors_table()])).fetchall()
        out = set()
        for (name,) in rows:
            m = re.fullmatch(r"vectors_hnsw_(\d+)", str(name))
            if m:
                out.add(int(m.group(1)))
        return out

    @contextlib.asynccontextmanager
    async def _conn(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        pool = self._pool
        if self._closed or pool is None:
            raise StoreClosed("the store is closed")
        try:
            async with pool.connection() as conn:
                yield conn
        except psycopg.Error as exc:
            if self._closed:
                raise StoreClosed("the store is closed") from exc
            raise self._error(exc) from exc

    @contextlib.asynccontextmanager
    async def _tx(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        async with self._conn() as conn, conn.transaction():
            yield conn

    async def close(self) -> None:
        """Close the pool (idempotent). A close cancelled part way (``asyncio.wait_for``
        timing out, its task cancelled) still runs to its end, the cancellation raised
        after: the pool and its connections are closed."""
        if self._closed:
            return
        self._closed = True
        await run_to_end(self._close())

    async def _close(self) -> None:
        """:meth:`close`'s work, once."""
        rebuilding, self._rebuilding = self._rebuilding, None
        if rebuilding is not None and not rebuilding.done():
            # its query is cancelled too (psycopg); the mark stays for the next open.
            # Waited for without raising its cancellation (nor swallowing the caller's).
            rebuilding.cancel()
            await asyncio.wait({rebuilding})
        pool, self._pool = self._pool, None
        if pool is not None:
            with contextlib.suppress(Exception):
                await pool.close()

    # ---------------------------------------------------------------- messages

    async def append(self, messages: Sequence[Message], *,
                     states: Mapping[str, IndexState] | None = None) -> list[Message]:
        kept = sm.check_kept_states(states)
        batch = list(messages)
        if not batch:
            if self._closed:
                raise StoreClosed("the store is closed")
            return []
        for attempt in range(3):
            try:
                return await self._append_once(batch, kept)
            except StoreError as exc:
                # a concurrent append of the same id or timestamp won: replay against it
                retry = isinstance(exc.__cause__, (pgerrors.UniqueViolation,
                                                   pgerrors.DeadlockDetected))
                if not retry or attempt == 2 or isinstance(exc, StoreClosed):
                    raise
        raise AssertionError("unreachable")  # pragma: no cover

    async def _append_once(self, batch: list[Message], kept: Mapping[str, IndexState]
                           ) -> list[Message]:
        async with self._tx() as conn:
            sessions = sorted({m.session_id for m in batch})
            # one writer per session at a time: ts staggering needs a stable view
            await conn.execute(
                "SELECT pg_advisory_xact_lock(%s, h) FROM (SELECT DISTINCT hashtext(s) AS h "
                "FROM unnest(%s::text[]) AS s ORDER BY 1) AS locks",
                [_LOCK_CLASS + 1, [self._lock_name(s) for s in sessions]])
            ids = [m.id or uuid.uuid4().hex for m in batch]
            existing: dict[str, Message] = {}
            for chunk in chunks(sorted(set(ids)), 1000):
                cur = await conn.execute(
                    f"SELECT {_MSG_COLS} FROM messages WHERE id = ANY(%s::text[])", [chunk])
                for r in await cur.fetchall():
                    existing[r[1]] = _row_to_message(r)
            # the time each message will try: its own, or the next of the store's clock
            planned = [m.ts if m.ts is not None else self._arrivals.next() for m in batch]
            taken = _TakenTs(conn)
            await taken.preload(batch, planned)
            stored: list[Message] = []
            fresh: list[Message] = []  # the new rows' messages
            rows: list[tuple[Any, ...]] = []
            for i, (msg, mid) in enumerate(zip(batch, ids)):
                old = existing.get(mid)
                if old is not None:  # an idempotent retry of the same add, or an error
                    stored.append(retried_add(old, msg, mid))
                    continue
                ts = planned[i]
                # ts is unique within a session: stagger equal timestamps forward
                while await taken.has(msg.session_id, ts):
                    ts += 1
                sm.check_staggered(ts, planned[i], f"messages[{i}]")
                taken.add(msg.session_id, ts)
                if msg.ts is None:
                    self._arrivals.taken(ts)
                where = f"messages[{i}]"
                mentions = _json(list(msg.mentions), where + ".mentions")
                metadata = _json(dict(msg.metadata), where + ".metadata")
                rows.append(sm.message_row(msg, mid, ts, mentions, metadata, kept.get(mid)))
                new = dataclasses.replace(msg, id=mid, ts=ts)
                stored.append(new)
                if mid not in kept:  # a kept state waits for nothing: no pending entry
                    fresh.append(new)
                # a later duplicate in this batch sees this row as stored
                existing[mid] = dataclasses.replace(
                    new, mentions=tuple(json.loads(mentions)), metadata=json.loads(metadata))
            if rows:
                async with conn.cursor() as cur:
                    await cur.executemany(sm.insert_message_sql(POSTGRES), rows)
                await conn.execute(*sm.insert_sessions_query(POSTGRES, [r[1] for r in rows]))
                # X1: findable by full text before it is embedded, in this transaction
                await self._put_pending(conn, fresh)
        return stored

    async def get(self, ids: Sequence[str], *, damaged: list[str] | None = None
                  ) -> dict[str, Message]:
        async with self._conn() as conn:
            return sm.by_id_result(POSTGRES, await _rows(conn, *sm.get_query(POSTGRES, ids)),
                                   damaged, *self._named)

    async def rewrite(self, session_id: str, ts: int, *, content: str | None = None,
                      visible_content: str | None = None,
                      metadata: Mapping[str, Any] | None = None) -> Message | None:
        async with self._tx() as conn:
            row = await (await conn.execute(
                *sm.rewrite_select_query(POSTGRES, session_id, ts))).fetchone()
            if row is None:
                return None
            new = sm.rewritten(_row_to_message(row), content, visible_content, metadata)
            await conn.execute(*sm.rewrite_update_query(
                POSTGRES, row, new, _json(dict(new.metadata), "metadata")))
            if await (await conn.execute(
                    f"SELECT 1 FROM lexical_entries WHERE message_id = %s AND "
                    f"{PENDING_ENTRY_SQL}", [new.id])).fetchone():
                await self._put_pending(conn, [new])  # its pending entry follows (X1)
            return new

    async def scan_messages(self, after: int, limit: int
                            ) -> list[tuple[int, Message, IndexState]]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.scan_messages_query(POSTGRES, after, limit))
        return sm.scan_messages_result(POSTGRES, rows)

    async def index_states(self, ids: Sequence[str]) -> dict[str, IndexState]:
        async with self._conn() as conn:
            return sm.index_states_result(
                await _rows(conn, *sm.index_states_query(POSTGRES, ids)))

    async def delete_messages(self, ids: Sequence[str]) -> int:
        n = 0
        async with self._tx() as conn:
            async for chunk, locked in self._locked_chunks(conn, ids):
                frag, params = POSTGRES.in_list("message_id", chunk)
                await lexical.pg_delete(conn, "vectors", frag, params)
                await lexical.pg_drop(conn, chunk)  # X1: separate-index full-text rows
                if locked:
                    cur = await conn.execute(*sm.delete_messages_query(POSTGRES, locked))
                    n += cur.rowcount
        self._sizes_changed()
        return n

    @staticmethod
    async def _locked_chunks(conn: psycopg.AsyncConnection[Any], ids: Sequence[str]
                             ) -> AsyncIterator[tuple[list[str], list[str]]]:
        """The ids in chunks, each chunk's message rows locked before it is yielded, in
        one id order across chunks, as ``upsert`` locks them: a delete that took the
        vector rows first could deadlock with an upsert of the same messages. Yields
        (chunk, the ids of it locked): a message that another writer adds after its lock
        is not among them, and a delete must leave it (deleting it would wait for its
        upsert, which may wait for a row locked here)."""
        for chunk in POSTGRES.id_chunks(sorted(set(ids))):
            cur = await conn.execute('SELECT id FROM messages WHERE id = ANY(%s::text[]) '
                                     'ORDER BY id COLLATE "C" FOR UPDATE', [chunk])
            yield chunk, [r[0] for r in await cur.fetchall()]

    @classmethod
    async def _delete_locked(cls, conn: psycopg.AsyncConnection[Any], table: str,
                             where: str, params: Sequence[Any] = ()) -> tuple[int, int]:
        """:func:`lexical.pg_delete` of the rows of ``table`` matching ``where``, their
        messages locked first in id order, as every writer of a message locks them: an
        upsert holds its messages' rows while it books and writes the vector and
        full-text rows, so a delete that locked those rows first, in the table's order,
        could deadlock with it (seen with four writers on overlapping messages). Rows
        that start to match after the ids are read are left, as if written just after
        the delete. Returns (rows deleted, of them rows that held a text)."""
        ids = [r[0] for r in await (await conn.execute(
            f"SELECT message_id FROM {table} WHERE {where}", list(params))).fetchall()]
        gone = with_text = 0
        async for chunk, _ in cls._locked_chunks(conn, ids):
            n, t = await lexical.pg_delete(
                conn, table, f"({where}) AND message_id = ANY(%s::text[])",
                [*params, chunk])
            gone, with_text = gone + n, with_text + t
        return gone, with_text

    async def erase_messages(self, ids: Sequence[str]) -> Erased:
        n = vectors = lex = 0
        async with self._tx() as conn:
            async for chunk, locked in self._locked_chunks(conn, ids):
                gone, with_text = await lexical.pg_delete(
                    conn, "vectors", "message_id = ANY(%s::text[])", [chunk])
                vectors += gone
                lex += with_text  # the vector row holds its full text
                lex += await lexical.pg_drop(conn, chunk)  # pending / separate-index rows
                if locked:
                    n += (await conn.execute(
                        *sm.delete_messages_query(POSTGRES, locked))).rowcount
        self._sizes_changed()
        return Erased(messages=n, vectors=vectors, lexical=lex)

    async def list_messages(self, *, session_ids: Sequence[str] | None = None,
                            speaker_id: str | None = None, since: int | None = None,
                            until: int | None = None, after: tuple[int, str] | None = None,
                            limit: int = 100, newest_first: bool = False,
                            damaged: list[str] | None = None, platform: str | None = None,
                            or_sessions: Sequence[str] = ()) -> list[Message]:
        async with self._conn() as conn:
            return sm.messages_result(POSTGRES, await _rows(conn, sm.list_query(
                POSTGRES, session_ids=session_ids, speaker_id=speaker_id, since=since,
                until=until, after=after, limit=limit, newest_first=newest_first,
                platform=platform, or_sessions=or_sessions)), damaged, *self._named)

    async def range(self, session_id: str, around_ts: int, before: int, after: int
                    ) -> list[Message]:
        prev, nxt = sm.range_query(POSTGRES, session_id, around_ts, before, after)
        async with self._conn() as conn:
            return sm.range_result(POSTGRES, await _rows(conn, prev), await _rows(conn, nxt))

    async def recent(self, session_id: str, n: int) -> list[Message]:
        return await self._recent(session_id, n, words=True)

    async def recent_heads(self, session_id: str, n: int, *, until: int | None = None
                           ) -> list[Message]:
        return await self._recent(session_id, n, words=False, until=until)

    async def _recent(self, session_id: str, n: int, *, words: bool,
                      until: int | None = None) -> list[Message]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.recent_query(POSTGRES, session_id, n, words=words,
                                                     until=until))
        return (sm.recent_result if words else sm.heads_result)(POSTGRES, rows)

    async def pending(self, limit: int, *, include_failed: bool = False,
                      owner: str | None = None) -> list[Message]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.pending_query(POSTGRES, limit, include_failed,
                                                      _claimable(owner)))
        return sm.messages_result(POSTGRES, rows)

    async def due_retries(self, limit: int, due: int, *, owner: str | None = None
                          ) -> list[Message]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.due_retries_query(POSTGRES, limit, due,
                                                          _claimable(owner)))
        return sm.messages_result(POSTGRES, rows)

    async def claim(self, owner: str, ids: Sequence[str], lease_ms: int) -> Claim:
        wanted = sorted(set(ids))
        async with self._tx() as conn:
            # SKIP LOCKED: a row another process is claiming or writing right now is
            # left to it, never waited for (its holder may be a slow embedding away)
            got = {r[0] for r in await (await conn.execute(
                f"UPDATE messages SET claim_owner = %s, claim_until = {_DB_NOW_MS} + %s "
                "WHERE seq IN (SELECT seq FROM messages WHERE id = ANY(%s::text[]) AND "
                f"index_state IN {WAITING_STATES_SQL} AND (claim_until <= {_DB_NOW_MS} "
                "OR claim_owner = %s) ORDER BY seq FOR UPDATE SKIP LOCKED) RETURNING id",
                [owner, int(lease_ms), wanted, owner])).fetchall()}
            rest = [i for i in wanted if i not in got]
            held = None
            if rest:
                row = await (await conn.execute(
                    f"SELECT min(claim_until) - {_DB_NOW_MS} FROM messages "
                    f"WHERE id = ANY(%s::text[]) AND index_state IN {WAITING_STATES_SQL}",
                    [rest])).fetchone()
                held = None if row is None or row[0] is None else max(int(row[0]), 0)
        return Claim([i for i in dict.fromkeys(ids) if i in got], held)

    async def clock_ms(self) -> int:
        async with self._conn() as conn:
            row = await (await conn.execute(f"SELECT {_DB_NOW_MS}")).fetchone()
        assert row is not None
        return int(row[0])

    async def release_claims(self, owner: str, ids: Sequence[str]) -> int:
        async with self._tx() as conn:
            # the rows locked in id order, as every writer of a message locks them (a
            # plain UPDATE takes them in the table's order: a deadlock with a write)
            cur = await conn.execute(
                "UPDATE messages SET claim_owner = NULL, claim_until = 0 "
                "WHERE seq IN (SELECT seq FROM messages WHERE id = ANY(%s::text[]) "
                'AND claim_owner = %s ORDER BY id COLLATE "C" FOR UPDATE)',
                [sorted(set(ids)), owner])
            return int(cur.rowcount)

    def message_lock(self, session_id: str, ts: int) -> AbstractAsyncContextManager[None]:
        return self._held_lock(_LOCK_CLASS + 2, f"{ts}:{session_id}")

    def key_lock(self, key: str) -> AbstractAsyncContextManager[None]:
        return self._held_lock(_LOCK_CLASS + 3, key)

    @contextlib.asynccontextmanager
    async def _held_lock(self, kind: int, name: str) -> AsyncIterator[None]:
        """The advisory lock ``(kind, name)`` held on a connection of its own while the
        writes it guards take others. Transaction-scoped: a process that dies, or a
        connection that breaks, cannot leave it held (the transaction ends with it). At
        most half the pool is held so (``_message_locks``). A task that holds one and
        takes another (a LangGraph put: its item's, then its message's) takes it on
        the same connection, in the same transaction, which frees both: a second
        connection would wait for a slot the first may hold."""
        task = asyncio.current_task()
        held = self._lock_conns.get(task)
        if held is not None:
            try:
                await held.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                                   [kind, self._lock_name(name)])
            except psycopg.Error as exc:
                raise self._error(exc) from exc
            yield
            return
        async with self._message_locks, self._lock_conn() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                               [kind, self._lock_name(name)])
            self._lock_conns[task] = conn
            try:
                yield
            finally:
                del self._lock_conns[task]

    def _lock_name(self, name: str) -> str:
        """The text whose ``hashtext`` keys an advisory lock of this store (a session's
        appends, a message's rewrites): ``name`` in this store's schema, so that a store in
        another schema of the database never waits on it. A schema name holds no ``:``
        (:data:`_SCHEMA_RE`), so no two stores' names are the same text.

        chatmem before this took ``name`` alone, in every schema: during an upgrade, an
        older process and a newer one no longer exclude each other. Their appends to one
        session stay right (two at one time are refused by the table's ``UNIQUE
        (session_id, ts)`` and the later one is replayed, as any race is); two rewrites
        of one message at once, one by each, may apply in either order. Stop the older
        processes before starting the newer ones."""
        return f"{self.schema}:{name}"

    @contextlib.asynccontextmanager
    async def _lock_conn(self) -> AsyncIterator[psycopg.AsyncConnection[Any]]:
        """A connection to hold a message's lock on while the writes it guards take
        others: a pooled one, or with ``pool_size=1`` one of its own (the lock held the
        pool's only connection, and the rewrite under it waited for one until the pool's
        timeout)."""
        if self._pool_size > 1:
            async with self._conn() as conn:
                yield conn
            return
        try:
            async with await self._connect() as conn:
                yield conn
        except psycopg.Error as exc:
            raise self._error(exc) from exc

    async def _connect(self) -> psycopg.AsyncConnection[Any]:
        """A connection of its own, beside the pool (autocommit)."""
        if self._closed:
            raise StoreClosed("the store is closed")
        try:
            return await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
        except psycopg.Error as exc:
            raise self._error(exc, "cannot connect") from exc

    async def failed_after(self, after: int, limit: int) -> list[tuple[int, Message]]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.failed_after_query(POSTGRES, after, limit))
        return sm.failed_after_result(POSTGRES, rows)

    async def retries(self, ids: Sequence[str]) -> dict[str, Retry]:
        async with self._conn() as conn:
            return sm.retries_result(
                await _rows(conn, *sm.retries_query(POSTGRES, ids)), *self._named)

    async def schedule_retries(self, schedules: Mapping[str, Retry]) -> int:
        n = 0
        async with self._tx() as conn:
            for row in sm.schedule_rows(schedules):
                n += (await conn.execute(sm.schedule_retries_sql(POSTGRES), row)).rowcount
        return n

    async def next_retry_at(self) -> int | None:
        async with self._conn() as conn:
            return sm.next_retry_result(
                await (await conn.execute(*sm.NEXT_RETRY_QUERY)).fetchone())

    async def set_index_state(self, ids: Sequence[str], state: IndexState, *,
                              unless_model: str | None = None) -> None:
        async with self._tx() as conn:
            # the rows locked in id order first, as every writer of a message locks
            # them: one UPDATE locks them in the table's order, and a reindex marking a
            # thousand messages deadlocked with another process's vector write of some
            async for _ in self._locked_chunks(conn, ids):
                pass
            for sql_text, params in sm.set_index_state_query(POSTGRES, ids, state):
                if unless_model is not None:
                    # R5: a reindex of another process embedded them since they were
                    # read; marked again, each would be embedded twice
                    sql_text += (" AND NOT EXISTS (SELECT 1 FROM vectors v WHERE "
                                 "v.message_id = messages.id AND v.model_id = %s)")
                    params = [*params, unless_model]
                await conn.execute(sql_text, params)
            await self._sync_pending(conn, ids=list(ids))  # X1: entries follow the state

    async def reset_index_state(self, old: IndexState, new: IndexState,
                                session_id: str | None = None) -> int:
        async with self._tx() as conn:
            cur = await conn.execute(
                *sm.reset_index_state_query(POSTGRES, old, new, session_id))
            if cur.rowcount and waiting(old) != waiting(new):
                await self._sync_pending(conn, session_id=session_id)
            return int(cur.rowcount)

    async def _put_pending(self, conn: psycopg.AsyncConnection[Any],
                           messages: Sequence[Message]) -> None:
        """Inside the caller's transaction: the pending full-text entries of these
        messages, with their sessions' current snapshots."""
        todo = [m for m in messages if m.indexable]
        if not todo:
            return
        snapshots = {s.session_id: s for s in
                     await self._snapshots(conn, sorted({m.session_id for m in todo}),
                                           skip_own=False)}
        await lexical.pg_put_pending(
            conn, [pending_entry(m, snapshots.get(m.session_id)) for m in todo])

    async def _sync_pending(self, conn: psycopg.AsyncConnection[Any], *,
                            session_id: str | None = None,
                            ids: Sequence[str] | None = None) -> None:
        """Inside the caller's transaction: a pending full-text entry for each waiting
        message (of one session, or these ids, or all) that has no vector and no entry,
        and none for a message no longer waiting."""
        stale = [r[0] for r in await _rows(conn, *sm.stale_pending_query(
            POSTGRES, "message_id", session_id=session_id, ids=ids))]
        if stale:
            await lexical.pg_drop(conn, stale)
        rows = await _rows(conn, *sm.unentried_query(POSTGRES, session_id=session_id,
                                                     ids=ids))
        await self._put_pending(conn, [_row_to_message(r) for r in rows])

    # ---------------------------------------------------------------- sessions

    async def upsert_session(self, session: Session) -> Session:
        async with self._tx() as conn:
            row = await (await conn.execute(
                *sm.session_query(POSTGRES, session.id, for_update=True))).fetchone()
            # a column it cannot read (a hand edit) is replaced, as every column is
            old, unread = sm.stored_session(POSTGRES, row, self._named[0])
            await conn.execute(*sm.upsert_session_query(
                POSTGRES, session, _json(dict(session.metadata), "session.metadata"),
                _json(dict(session.settings), "session.settings")))
            # the vectors follow the session in the same transaction
            own, tree = snapshot_changes(old, session, unread=unread)
            if own:
                ids = [session.id, *(await self._descendants(conn, session.id) if tree
                                     else ())]
                await self._update_snapshots(conn, await self._snapshots(conn, ids))
        return session

    @staticmethod
    async def _descendants(conn: psycopg.AsyncConnection[Any], session_id: str) -> list[str]:
        return sm.ids_result(await _rows(conn, sm.descendants_query(POSTGRES, session_id)))

    async def _snapshots(self, conn: psycopg.AsyncConnection[Any], ids: Sequence[str], *,
                         skip_own: bool = True) -> list[SessionSnapshot]:
        """:func:`~chatmem.store.base.chain_snapshots` of ``ids``."""
        known: dict[str, Session] = {}
        damaged: list[DamagedRow] = []
        todo = set(ids)
        for _ in range(MAX_SESSION_DEPTH):  # each round loads the next parents up
            if not todo:
                break
            rows = await (await conn.execute(
                f"SELECT {_SESSION_COLS} FROM sessions WHERE id = ANY(%s::text[])",
                [sorted(todo)])).fetchall()
            for r in rows:
                known[r[0]] = sm.row_to_session(POSTGRES, r, damaged, *self._named)
            todo = {s.parent_id for s in known.values()
                    if s.parent_id and s.parent_id not in known and s.parent_id not in todo}
        return chain_snapshots(ids, known.get, damaged, skip_own=skip_own)

    @staticmethod
    async def _update_snapshots(conn: psycopg.AsyncConnection[Any],
                                snapshots: Sequence[SessionSnapshot]) -> int:
        """Inside the caller's transaction: the session fields of the vector entries (and
        of the full-text rows of a separate index's entries) of these sessions."""
        n = 0
        for s in snapshots:
            count, updates = sm.snapshot_queries(
                POSTGRES, s, _json(dict(s.metadata),
                                   f"session {refusals.describe(s.session_id)} metadata"))
            row = await (await conn.execute(*count)).fetchone()
            n += int(row[0]) if row else 0
            for st in updates:
                await conn.execute(*st)
        return n

    async def descendant_sessions(self, session_id: str) -> list[str]:
        async with self._conn() as conn:
            return await self._descendants(conn, session_id)

    async def sessions_under(self, column: str, value: str) -> list[SessionUnder]:
        async with self._conn() as conn:
            return sm.under_result(await _rows(conn, sm.sessions_under_query(
                POSTGRES, column, value)))

    async def update_session_snapshot(self, snapshots: Sequence[SessionSnapshot]) -> int:
        if not snapshots:
            if self._closed:
                raise StoreClosed("the store is closed")
            return 0
        async with self._tx() as conn:
            return await self._update_snapshots(conn, list(snapshots))

    async def get_sessions(self, ids: Sequence[str], *,
                           damaged: list[DamagedRow] | None = None) -> dict[str, Session]:
        async with self._conn() as conn:
            rows = await _rows(conn, *sm.get_sessions_query(POSTGRES, ids))
        return {s.id: s for s in sm.sessions_result(POSTGRES, rows, damaged, *self._named)}

    async def all_sessions(self) -> list[Session]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.all_sessions_query(POSTGRES))
        return sm.sessions_result(POSTGRES, rows)

    async def sessions_after(self, after: str | None, limit: int, *,
                             damaged: list[DamagedRow] | None = None) -> list[Session]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.sessions_after_query(POSTGRES, after, limit))
        return sm.sessions_result(POSTGRES, rows, damaged, *self._named)

    async def message_sessions_after(self, after: str | None, limit: int
                                     ) -> list[tuple[str, bool]]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.message_sessions_after_query(POSTGRES, after, limit))
        return sm.message_sessions_result(rows)

    async def message_sessions(self, ids: Sequence[str]) -> set[str]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.message_sessions_query(POSTGRES, ids))
        return set(sm.ids_result(rows))

    # ---------------------------------------------------------------- metadata area

    async def meta_get(self, namespace: str, key: str) -> str | None:
        async with self._conn() as conn:
            row = await (await conn.execute(
                *sm.meta_get_query(POSTGRES, namespace, key))).fetchone()
        return sm.meta_get_result(row)

    async def meta_set(self, namespace: str, key: str, value: str) -> None:
        async with self._conn() as conn:
            await conn.execute(*sm.meta_set_query(POSTGRES, namespace, key, value))

    async def meta_set_default(self, namespace: str, key: str, value: str) -> str:
        async with self._tx() as conn:
            # a concurrent insert of the key: this one waits for it, does nothing, and
            # the read (a statement of its own, read committed) sees the first writer's
            await conn.execute(*sm.meta_set_default_query(POSTGRES, namespace, key, value))
            row = await (await conn.execute(
                *sm.meta_get_query(POSTGRES, namespace, key))).fetchone()
        stored = sm.meta_get_result(row)
        assert stored is not None
        return stored

    async def meta_delete(self, namespace: str, key: str) -> None:
        async with self._conn() as conn:
            await conn.execute(*sm.meta_delete_query(POSTGRES, namespace, key))

    async def meta_guarded(self, namespace: str, *, unless: tuple[str, str] | None = None,
                           writes: Sequence[tuple[str, str | None]] = (),
                           defaults: Sequence[tuple[str, str]] = ()) -> bool:
        async with self._tx() as conn:
            # on the transaction's own connection: no second one held, so no pool slot
            await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                               [_LOCK_CLASS + 4, self._lock_name(namespace)])
            if unless is not None:
                row = await (await conn.execute(
                    *sm.meta_get_query(POSTGRES, namespace, unless[0]))).fetchone()
                if sm.meta_get_result(row) == unless[1]:
                    return False
            for statement in sm.meta_writes(POSTGRES, namespace, writes, defaults):
                await conn.execute(*statement)
        return True

    async def meta_items(self, namespace: str | None = None) -> list[tuple[str, str, str]]:
        async with self._conn() as conn:
            rows = await _rows(conn, sm.meta_items_query(POSTGRES, namespace))
        return sm.meta_items_result(rows)

    # ---------------------------------------------------------------- stats / clear

    async def stats(self) -> StoreStats:
        counts, by_model, next_retry = sm.STATS_QUERIES
        sessions = sm.sessions_count_query(POSTGRES)  # with those left without a row
        async with self._conn() as conn:
            # an indexable message (F1) left SKIPPED by an older chatmem's clear: CLEARED
            states = await _rows(conn, counts)
            holders = {v: ((await (await conn.execute(*sm.unknown_state_query(POSTGRES, v))
                                   ).fetchone()) or ("",))[0]
                       for v in sm.unknown_states(states)}
            return sm.stats_result(states, await (await conn.execute(*sessions)).fetchone(),
                                   await _rows(conn, by_model),
                                   await (await conn.execute(*next_retry)).fetchone(), holders)

    @staticmethod
    async def _count_by_model(conn: psycopg.AsyncConnection[Any]) -> dict[str, int]:
        return sm.count_by_model_result(await _rows(conn, sm.COUNT_BY_MODEL_QUERY))

    async def clear_messages(self, session_id: str | None = None) -> int:
        async with self._tx() as conn:
            # X1: the pending entries go with their messages
            stale = [r[0] for r in await _rows(
                conn, sm.pending_entries_query(POSTGRES, "message_id", session_id))]
            if stale:
                await lexical.pg_drop(conn, stale)
            cur = await conn.execute(*sm.clear_messages_query(POSTGRES, session_id))
            return int(cur.rowcount)

    # ---------------------------------------------------------------- vector index

    async def _ensure_hnsw(self, dims: set[int]) -> None:
        """Create the partial HNSW index of each dimension seen for the first time."""
        missing = sorted(d for d in dims if d <= HNSW_MAX_DIM and d not in self._hnsw_dims)
        if not missing:
            return
        if self._deferring:  # this store's bulk load builds them at its end
            return
        async with self._tx() as conn:
            await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                               [_LOCK_CLASS, "hnsw:" + self.schema])
            if await self._is_deferred(conn):  # another process's bulk load builds them
                return
            for dim in missing:
                await conn.execute(sql.SQL(
                    "CREATE INDEX IF NOT EXISTS {} ON vectors USING hnsw "
                    "((embedding::vector({})) vector_cosine_ops) WHERE dim = {}"
                ).format(sql.Identifier(f"vectors_hnsw_{dim}"), sql.Literal(dim),
                         sql.Literal(dim)))
        self._hnsw_dims.update(missing)

    # ---------------------------------------------------------------- bulk loads

    def _vectors_table(self) -> str:
        return f'"{self.schema}".vectors'  # schema: a checked name (_SCHEMA_RE)

    async def _is_deferred(self, conn: psycopg.AsyncConnection[Any]) -> bool:
        row = await (await conn.execute(
            "SELECT obj_description(to_regclass(%s), 'pg_class')",
            [self._vectors_table()])).fetchone()
        return bool(row and row[0] == _DEFERRED)

    async def _try_bulk_lock(self, conn: psycopg.AsyncConnection[Any]) -> bool:
        """The session lock a bulk load holds from start to end (released with ``conn``)."""
        row = await (await conn.execute("SELECT pg_try_advisory_lock(%s, hashtext(%s))",
                                        [_LOCK_CLASS, "bulk:" + self.schema])).fetchone()
        return bool(row and row[0])

    async def _resume_deferred(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """At open: indexes a dead bulk load deferred are built now (exact search until)."""
        if not await self._is_deferred(conn) or not await self._try_bulk_lock(conn):
            return  # nothing deferred, or a live bulk load builds them at its end
        try:
            log.warning("postgres schema %s: a bulk load ended without building its HNSW "
                        "indexes; building them now", self.schema)
            await self._build_hnsw(conn)
        finally:
            await conn.execute("SELECT pg_advisory_unlock(%s, hashtext(%s))",
                               [_LOCK_CLASS, "bulk:" + self.schema])

    @contextlib.asynccontextmanager
    async def bulk_load(self, rows: int) -> AsyncIterator[bool]:
        """Load about ``rows`` vectors with the HNSW indexes deferred when that pays
        (see *Bulk loads* in the module docstring); yields whether they are. Nested
        calls join the outer load. The indexes are built when the outermost call ends,
        also on an exception; if the process dies first, the next open builds them."""
        if self._bulk_depth:
            self._bulk_depth += 1
            try:
                yield self._deferring
            finally:
                self._bulk_depth -= 1
            return
        if rows < self.bulk_min_rows:
            yield False
            return
        async with await self._connect() as conn:
            deferring = await self._defer(conn, rows)
            self._bulk_depth, self._deferring = 1, deferring
            built = not deferring
            try:
                yield deferring
            except Exception:
                if deferring:  # what was loaded stays: index it
                    await self._finish_bulk(conn)
                    built = True
                raise
            else:
                if deferring:
                    await self._finish_bulk(conn)
                    built = True
            finally:
                self._bulk_depth, self._deferring = 0, False
                if not built:
                    # cancelled or interrupted (a timeout around a reindex, Ctrl-C):
                    # the next search builds the indexes in the background, once this
                    # load's lock is gone with its connection (before: the next open)
                    self._deferred_looked_at = -math.inf

    async def _finish_bulk(self, conn: psycopg.AsyncConnection[Any]) -> None:
        try:
            await self._build_hnsw(conn)
            self._hnsw_dims = await self._load_hnsw_dims(conn)
        except psycopg.Error as exc:
            raise self._error(exc, "building the HNSW indexes") from exc
        # Planner statistics for the new rows, and the visibility map (the state
        # autovacuum would reach later), without which counts over the new rows, as
        # full-text recall's document frequencies, read the heap. On the autocommit
        # connection, outside any transaction.
        try:
            for table in ("vectors", "lexical_entries"):
                await conn.execute(sql.SQL("VACUUM (ANALYZE) {}.{}").format(
                    sql.Identifier(self.schema), sql.Identifier(table)))
        except psycopg.Error as exc:  # the load is complete and indexed: autovacuum will
            log.warning("postgres schema %s: VACUUM after the bulk load failed (%s)",
                        self.schema, exc)

    # ---------------------------------------------------------- pending announcements

    def _pending_channel(self) -> str:
        """The LISTEN/NOTIFY channel of this schema's pending messages (a name of at
        most 63 bytes whatever the schema's)."""
        return "chatmem_pending_" + hashlib.sha256(self.schema.encode()).hexdigest()[:24]

    async def announce_pending(self) -> None:
        """Tell the other processes' indexers on this store that messages wait which no
        indexer here will embed (this one stopped with work left): each sweeps at once,
        not at its periodic sweep (``indexing.lease_s`` later)."""
        if self._closed:
            raise StoreClosed("the store is closed")
        try:
            async with self._conn() as conn:
                await conn.execute("SELECT pg_notify(%s, '')", [self._pending_channel()])
        except psycopg.Error as exc:
            raise self._error(exc, "announcing pending messages") from exc

    async def pending_announcements(self) -> AsyncIterator[None]:
        """One item per :meth:`announce_pending` of any process on this store, while the
        store is open: a connection of its own LISTENs (outside the pool; a pooler in
        transaction mode cannot keep a LISTEN, and then nothing is announced: the
        periodic sweep still finds the messages). A lost connection is reopened after
        :func:`listen_retry_pause` (1 s, then 2, 4, and 5 s between attempts however
        long the outage); once it listens again, one item stands for the announcements
        made while it was down (a server restarted: NOTIFY delivers only to the
        connections listening as it commits, so they never come)."""
        failures = 0
        while not self._closed:
            try:
                conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
                async with conn:
                    await conn.execute(sql.SQL("LISTEN {}").format(
                        sql.Identifier(self._pending_channel())))
                    lost, failures = failures > 0, 0
                    if lost:  # after the LISTEN: nothing announced from here is missed
                        yield
                    async for _ in conn.notifies():
                        yield
            except psycopg.Error as exc:
                log.debug("postgres schema %s: listening for pending messages failed (%s); "
                          "again in %.0f s", self.schema, exc,
                          listen_retry_pause(failures + 1))
            failures += 1
            if not self._closed:
                await asyncio.sleep(listen_retry_pause(failures))

    def _look_for_deferred(self) -> None:
        """At most every ``deferred_check_s`` (at once after this store's own bulk load
        ended unbuilt): look, in the background, for HNSW indexes a bulk load left
        deferred. A load cancelled, or whose process died, left them to the next open:
        a server open for weeks searched a large store by exact scans until restarted."""
        now = time.monotonic()
        if (self._bulk_depth or now < self._deferred_looked_at + self.deferred_check_s
                or (self._rebuilding is not None and not self._rebuilding.done())):
            return
        self._deferred_looked_at = now
        self._rebuilding = asyncio.get_running_loop().create_task(
            self._rebuild_deferred(), name=f"chatmem-hnsw-{self.schema}")

    async def _rebuild_deferred(self) -> None:
        """Build the HNSW indexes a bulk load left deferred, unless a live load holds
        its lock (it builds them at its end); searches stay exact (correct) until then."""
        try:
            async with self._conn() as pooled:
                if not await self._is_deferred(pooled):
                    return
            conn = await psycopg.AsyncConnection.connect(self._conninfo, autocommit=True)
            async with conn:
                await self._resume_deferred(conn)
                self._hnsw_dims = await self._load_hnsw_dims(conn)
        except Exception as exc:  # in the background: logged, looked at again later
            log.warning("postgres schema %s: building the HNSW indexes a bulk load left "
                        "deferred failed (%s); searches stay exact, tried again in %.0f s",
                        self.schema, exc, self.deferred_check_s)

    async def _defer(self, conn: psycopg.AsyncConnection[Any], rows: int) -> bool:
        """Drop the HNSW indexes for a load of ``rows`` if that pays and no other bulk
        load runs; the bulk lock is then held on ``conn`` until it closes."""
        try:
            if not await self._try_bulk_lock(conn):
                log.info("postgres schema %s: another bulk load is running; its index "
                         "build covers this one's rows", self.schema)
                return False
            await conn.execute("SELECT set_config('search_path', %s, false)",
                               [self._search_path])
            row = await (await conn.execute(
                "SELECT count(*) FROM (SELECT 1 FROM vectors LIMIT %s) AS rows",
                [rows])).fetchone()
            have = int(row[0]) if row else 0
            if have >= rows:
                log.info("postgres schema %s: bulk load of %d rows into a table of %d or "
                         "more: HNSW indexes kept (rows inserted one by one)",
                         self.schema, rows, have)
                return False
            async with conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                                   [_LOCK_CLASS, "hnsw:" + self.schema])
                await conn.execute(sql.SQL("COMMENT ON TABLE vectors IS {}").format(
                    sql.Literal(_DEFERRED)))
                for dim in sorted(await self._load_hnsw_dims(conn)):
                    await conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(
                        sql.Identifier(f"vectors_hnsw_{dim}")))
        except psycopg.Error as exc:
            raise self._error(exc, "starting a bulk load") from exc
        if have:
            log.warning("postgres schema %s: HNSW indexes dropped for a bulk load of %d "
                        "rows; searches are exact until they are built at its end",
                        self.schema, rows)
        self._hnsw_dims = set()
        return True

    async def _build_hnsw(self, conn: psycopg.AsyncConnection[Any]) -> None:
        """Build the HNSW index of every dimension present, then clear the mark. On an
        autocommit connection holding the bulk lock; CONCURRENTLY, so writers go on."""
        await conn.execute("SELECT set_config('search_path', %s, false)", [self._search_path])
        await conn.execute("SELECT set_config('maintenance_work_mem', %s, false)",
                           [f"{self.build_memory_mb}MB"])
        dims = [int(r[0]) for r in await (await conn.execute(
            "SELECT DISTINCT dim FROM vectors WHERE dim <= %s", [HNSW_MAX_DIM])).fetchall()]
        valid = await self._load_hnsw_dims(conn)
        for dim in sorted(set(dims) - valid):
            name = sql.Identifier(f"vectors_hnsw_{dim}")
            started = time.monotonic()
            # a build killed midway leaves an invalid index under the name
            await conn.execute(sql.SQL("DROP INDEX IF EXISTS {}").format(name))
            await conn.execute(sql.SQL(
                "CREATE INDEX CONCURRENTLY {} ON vectors USING hnsw "
                "((embedding::vector({})) vector_cosine_ops) WHERE dim = {}"
            ).format(name, sql.Literal(dim), sql.Literal(dim)))
            log.info("postgres schema %s: HNSW index of %d dimensions built in %.1f s",
                     self.schema, dim, time.monotonic() - started)
        async with conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))",
                               [_LOCK_CLASS, "hnsw:" + self.schema])
            await conn.execute("COMMENT ON TABLE vectors IS NULL")

    async def upsert(self, entries: Sequence[VectorEntry], *, current_only: bool = False,
                     one_width: OneWidth | None = None,
                     owner: str | None = None) -> None:
        items = list(entries)
        if not items:
            if self._closed:
                raise StoreClosed("the store is closed")
            return
        vecs = [sound_vector(e.vector, f"entries[{i}] ({refusals.describe(e.message_id)})"
                               ".vector") for i, e in enumerate(items)]
        widths = widths_of(items) if one_width is not None else {}
        await self._ensure_hnsw({v.shape[0] for v in vecs})
        async with self._tx() as conn:
            if one_width is not None:  # first: the lock is taken before any row lock
                await self._check_width(conn, widths, one_width)
            seqs: dict[str, int] = {}
            stored: dict[str, Message] = {}
            # the whole rows only when their text is compared (an import needs seq, id)
            cols = _MSG_COLS if current_only else "seq, id"
            for chunk in chunks(sorted({e.message_id for e in items}), 1000):
                # the row lock orders this write after a rewrite committed first (F3)
                cur = await conn.execute(
                    f'SELECT {cols} FROM messages WHERE id = ANY(%s::text[]) '
                    'ORDER BY id COLLATE "C" FOR UPDATE',
                    [chunk])
                for r in await cur.fetchall():
                    seqs[r[1]] = int(r[0])
                    if current_only:
                        stored[r[1]] = _row_to_message(r)
            stale = sorted(stale_entries(items, stored)) if current_only else []
            for mid in stale:
                del seqs[mid]
            if stale and owner is not None:
                # the embedding's lease is over: the new text needs another. Only the
                # writer's own: one another process took over since (this lease ran
                # out) is embedding the new text, and cleared it would be taken a third
                # time (the rows are locked above, in id order)
                await conn.execute("UPDATE messages SET claim_owner = NULL, claim_until = 0 "
                                   "WHERE id = ANY(%s::text[]) AND claim_owner = %s",
                                   [stale, owner])
            kept = [(e, vec) for e, vec in zip(items, vecs)
                    # absent: deleted meanwhile, or rewritten since it was embedded
                    if e.message_id in seqs]
            if not kept:
                return
            # X1: the full-text columns, in the same row and transaction
            lex = await lexical.pg_lex_columns(conn, [(e.message_id, e.text) for e, _ in kept])
            rows = []
            for e, vec in kept:
                dump = _jsonb(f"vector entry {refusals.describe(e.message_id)}")
                rows.append((seqs[e.message_id], *entry_values(e, dump), e.text,
                             int(vec.shape[0]), vec, *lex[e.message_id]))
            # X1: BM25's totals (the last row of an id is the one that stays)
            await lexical.pg_book_replacement(
                conn, "vectors", {e.message_id: lex[e.message_id][1] for e, _ in kept})
            async with conn.cursor() as cur:
                await cur.executemany(_VECTORS_UPSERT, rows)
            written = sorted({r[1] for r in rows})
            await lexical.pg_drop(conn, written)  # the pending entries: the vectors' now
            # the vector and the index state commit together: exactly once after a crash
            await conn.execute(
                "UPDATE messages SET index_state = %s, attempts = 0, retry_at = 0, "
                "claim_owner = NULL, claim_until = 0 WHERE id = ANY(%s::text[])",
                [int(IndexState.INDEXED), written])
        added: dict[int, int] = {}
        for r in rows:
            added[r[14]] = added.get(r[14], 0) + 1
        self._sizes_changed(added)

    async def _check_width(self, conn: psycopg.AsyncConnection[Any], widths: Mapping[str, int],
                           rule: OneWidth) -> None:
        """:class:`OneWidth` in the write's transaction, for every process on the schema:
        under a lock per model, released at commit, that a first width's writer holds
        alone (the others shared), so two first widths never land side by side. A write
        of a width the store already holds (the common case) shares the lock: indexers
        writing at once do not wait for each other. The row-level check runs after the
        lock, on what the transactions before it committed (READ COMMITTED)."""
        for model, width in sorted(widths.items()):
            statement = sm.other_width_query(POSTGRES, model, width)
            key = [_LOCK_CLASS + 3, f"width:{self.schema}:{model}"]
            if rule.takes(model, width):
                # the moving width is written beside the old one; a first-width writer
                # still waits for it (and then sees it)
                await conn.execute("SELECT pg_advisory_xact_lock_shared(%s, hashtext(%s))",
                                   key)
                continue
            held = await (await conn.execute(
                "SELECT EXISTS (SELECT 1 FROM vectors WHERE model_id = %s AND dim = %s)",
                [model, width])).fetchone()
            lock = "pg_advisory_xact_lock_shared" if held and held[0] \
                else "pg_advisory_xact_lock"
            await conn.execute(f"SELECT {lock}(%s, hashtext(%s))", key)
            other = sm.other_width_result(await (await conn.execute(*statement)).fetchone())
            if other is not None:
                raise WidthConflict(model, width, other)

    async def other_width(self, model_id: str, width: int) -> int | None:
        async with self._conn() as conn:
            return sm.other_width_result(await (await conn.execute(
                *sm.other_width_query(POSTGRES, model_id, width))).fetchone())

    async def delete_vectors(self, message_ids: Sequence[str]) -> int:
        n = 0
        async with self._tx() as conn:
            async for chunk, _ in self._locked_chunks(conn, message_ids):
                gone, _ = await lexical.pg_delete(conn, "vectors",
                                                  "message_id = ANY(%s::text[])", [chunk])
                n += gone
        self._sizes_changed()
        return n

    async def delete_by_filter(self, where: Mapping[str, Any]) -> int:
        if self._closed:
            raise StoreClosed("the store is closed")
        frag, params = compile_vector_where(where)
        async with self._tx() as conn:
            n, _ = await self._delete_locked(conn, "vectors", frag, params)
        self._sizes_changed()
        return n

    async def query(self, vector: npt.NDArray[np.float32], k: int,
                    where: Mapping[str, Any] | None = None) -> list[ScoredId]:
        if k <= 0:  # as SqliteStore: nothing asked, nothing checked
            return []
        if self._closed:
            raise StoreClosed("the store is closed")
        self._look_for_deferred()
        frag, fparams = compile_vector_where(where)
        q = sound_vector(vector, "query vector")
        dim = int(q.shape[0])
        async with self._conn() as conn:  # autocommit: each statement sees the latest rows
            size = await self._dim_size(conn, dim)
            if size == 0:
                self.last_search = "none"
                return []
            if (size <= self.exact_threshold or k > EF_SEARCH_MAX
                    or dim not in self._hnsw_dims):
                self.last_search = "exact"
                return await self._query_exact(conn, q, k, frag, fparams)
            if fparams or frag != "TRUE":
                row = await (await conn.execute(
                    "SELECT count(*) FROM (SELECT 1 FROM vectors WHERE dim = %s AND " + frag
                    + " LIMIT %s) AS matching", [dim, *fparams, self.exact_threshold + 1]
                )).fetchone()
                matching = int(row[0]) if row else 0
                if matching <= self.exact_threshold:
                    self.last_search = "exact" if matching else "none"
                    return await self._query_exact(conn, q, k, frag, fparams) if matching else []
            hits = await self._query_hnsw(conn, q, k, frag, fparams)
            if len(hits) >= k:
                self.last_search = "hnsw"
                return hits
            # more than T rows matched (or may match): a short answer is a miss
            log.debug("hnsw returned %d < %d rows; exact rerun", len(hits), k)
            self.last_search = "hnsw+exact"
            return await self._query_exact(conn, q, k, frag, fparams)

    async def _dim_size(self, conn: psycopg.AsyncConnection[Any], dim: int) -> int:
        """How many vectors have ``dim`` dimensions, counted up to T + 1 (cached)."""
        now = time.monotonic()
        cached = self._sizes.get(dim)
        if cached is not None and cached[1] > 0 and now - cached[0] < SIZE_TTL_S:
            return cached[1]
        row = await (await conn.execute(
            "SELECT count(*) FROM (SELECT 1 FROM vectors WHERE dim = %s LIMIT %s) AS rows",
            [dim, self.exact_threshold + 1])).fetchone()
        n = int(row[0]) if row else 0
        self._sizes[dim] = (now, n)
        return n

    def _sizes_changed(self, added: Mapping[int, int] | None = None) -> None:
        """Own writes: upserts (``added``: dim -> rows) grow a small cached size (an
        upper bound: replacements count too); anything else drops the cache."""
        if added is None:
            self._sizes.clear()
            return
        for dim, n in added.items():
            cached = self._sizes.get(dim)
            if cached is not None and cached[1] <= self.exact_threshold:
                self._sizes[dim] = (cached[0], min(cached[1] + n, self.exact_threshold + 1))

    async def _query_exact(self, conn: psycopg.AsyncConnection[Any],
                           q: npt.NDArray[np.float32], k: int, frag: str,
                           fparams: list[Any]) -> list[ScoredId]:
        # `embedding <=> q` (no typmod cast) is not the index expression: always a scan.
        # Exact ties: newer first, then message id in code point order (as Python's str)
        cur = await conn.execute(
            "SELECT message_id, 1 - (embedding <=> %s::vector) AS score, model_id, role, "
            "session_id, ts FROM vectors WHERE dim = %s AND " + frag
            + ' ORDER BY score DESC, ts DESC, message_id COLLATE "C" LIMIT %s',
            [q, int(q.shape[0]), *fparams, k])
        return [ScoredId(message_id=r[0], score=float(r[1]), model_id=r[2], role=r[3],
                         session_id=r[4], ts=int(r[5])) for r in await cur.fetchall()]

    async def _query_hnsw(self, conn: psycopg.AsyncConnection[Any],
                          q: npt.NDArray[np.float32], k: int, frag: str,
                          fparams: list[Any]) -> list[ScoredId]:
        query = self.hnsw_sql(int(q.shape[0]), frag)
        if k <= self.ef_search:  # the session's setting (see _configure) will do
            found = await (await conn.execute(query, [q, *fparams, k])).fetchall()
        else:
            async with conn.transaction():
                await conn.execute("SELECT set_config('hnsw.ef_search', %s, true)", [str(k)])
                found = await (await conn.execute(query, [q, *fparams, k])).fetchall()
        rows = sorted(found, key=lambda r: (r[1], -r[5], r[0]))  # ties as _query_exact
        return [ScoredId(message_id=r[0], score=1.0 - float(r[1]), model_id=r[2], role=r[3],
                         session_id=r[4], ts=int(r[5])) for r in rows]

    @staticmethod
    def hnsw_sql(dim: int, frag: str) -> sql.Composed:
        """The approximate query; parameters: the query vector, ``frag``'s, then k.

        The ORDER BY expression is the index expression of the partial index of ``dim``
        and ``dim`` is a literal, so the planner can prove the index predicate.
        """
        return sql.SQL(
            "SELECT message_id, (embedding::vector({dim})) <=> %s::vector({dim}) AS distance, "
            "model_id, role, session_id, ts FROM vectors WHERE dim = {dim} AND {frag} "
            "ORDER BY distance LIMIT %s"
        ).format(dim=sql.Literal(int(dim)), frag=sql.SQL(frag))

    async def count_by_model(self) -> dict[str, int]:
        async with self._conn() as conn:
            return await self._count_by_model(conn)

    async def vector_sizes(self) -> dict[str, frozenset[int]]:
        async with self._conn() as conn:
            return sm.vector_sizes_result(await _rows(conn, sm.VECTOR_SIZES_QUERY))

    async def scan_vectors(self, after: str | None, limit: int, *,
                           damaged: list[str] | None = None) -> list[VectorEntry]:
        async with self._conn() as conn:
            rows = await (await conn.execute(
                f"SELECT {_VEC_COLS}, dim FROM vectors WHERE message_id > %s "  # C collation
                "ORDER BY message_id LIMIT %s", [after or "", POSTGRES.limit(limit)])).fetchall()
        return read_rows(
            "vectors", rows, lambda r: r[0],
            lambda r: VectorEntry(**entry_fields(r[:-3]), text=r[-3], vector=checked_vector(
                "embedding", _to_numpy(r[-2]), r[-1])),
            damaged=damaged, reembedding=True, where=self._label)

    async def clear_vectors(self, session_id: str | None = None) -> int:
        scope, params = _session_scope(session_id)
        entries = f"{scope} AND NOT {PENDING_ENTRY_SQL}"
        indexed = int(IndexState.INDEXED)
        n = 0
        async with self._tx() as conn:
            # every message this touches, locked first in id order (:meth:`_delete_locked`):
            # its vectors, its separate-index full text, its index state
            ids = [r[0] for r in await _rows(
                conn, (f"SELECT message_id FROM vectors WHERE {scope}", params),
                (f"SELECT message_id FROM lexical_entries WHERE {entries}", params),
                (f"SELECT id FROM messages WHERE index_state = %s AND {scope}",
                 [indexed, *params]))]
            async for chunk, locked in self._locked_chunks(conn, ids):
                gone, _ = await lexical.pg_delete(
                    conn, "vectors", f"{scope} AND message_id = ANY(%s::text[])",
                    [*params, chunk])
                n += gone
                await conn.execute(
                    "UPDATE messages SET index_state = %s, attempts = 0, retry_at = 0 "
                    "WHERE index_state = %s AND id = ANY(%s::text[])",
                    [int(IndexState.CLEARED), indexed, locked])
                await lexical.pg_delete(  # X1: separate-index full-text rows
                    conn, "lexical_entries", f"{entries} AND message_id = ANY(%s::text[])",
                    [*params, chunk])
        self._sizes_changed()
        return n

    # ---------------------------------------------------------------- lexical index (X1)

    async def upsert_lexical(self, entries: Sequence[VectorEntry]) -> None:
        """Full-text rows for entries whose vectors live in a separate index."""
        if entries:
            async with self._tx() as conn:
                await lexical.pg_put_entries(conn, list(entries))

    async def delete_lexical(self, message_ids: Sequence[str]) -> int:
        async with self._tx() as conn:
            n = 0
            # locked as upsert_lexical locks them
            async for chunk, _ in self._locked_chunks(conn, message_ids):
                n += await lexical.pg_drop(conn, chunk)
            return n

    async def clear_lexical(self, session_id: str | None = None) -> int:
        """The separate index's full-text rows (of one session) go; the pending entries
        of messages still waiting for a vector stay."""
        scope, params = _session_scope(session_id)
        async with self._tx() as conn:
            n, _ = await self._delete_locked(
                conn, "lexical_entries", f"{scope} AND NOT {PENDING_ENTRY_SQL}", params)
            return n

    async def lexical_query(self, text: str, k: int,
                            where: Mapping[str, Any] | None = None) -> list[ScoredId]:
        if self._closed:
            raise StoreClosed("the store is closed")
        frag, params = compile_vector_where(where)
        # The corpus statistics (row count and mean length from the ledger, each term's
        # document frequency counted over the GIN index) are most of a small query's
        # time. A query restricted to named ids (recall measuring the full-text scores
        # of its dense candidates) scores with those of the same text's full search just
        # before, when there is one: the measured scores are then on the scale of the
        # search's, as SQLite's are, and the measurement costs a lookup by id instead of
        # counting again.
        restricted = where is not None and named_ids(where)[0] is not None
        now = time.monotonic()
        kept = self._lexical_stats.get(text) if restricted else None
        reuse = kept[1] if kept is not None and now - kept[0] < LEXICAL_STATS_TTL_S else None
        async with self._conn() as conn:
            hits, stats = await lexical.pg_query(conn, text, k, frag, params, reuse)
        if not restricted and stats is not None:
            self._lexical_stats.pop(text, None)
            self._lexical_stats[text] = (now, stats)
            while len(self._lexical_stats) > LEXICAL_STATS_KEPT:
                del self._lexical_stats[next(iter(self._lexical_stats))]
        return hits


class _TakenTs:
    """Which ``(session, ts)`` pairs are taken, read from the database in ranges.

    ``preload`` fetches, per session, the stored timestamps in windows just above
    every timestamp the batch will try; ``has`` answers from them and asks the
    database only for a timestamp outside every window (a long run of taken ones).
    """

    def __init__(self, conn: psycopg.AsyncConnection[Any]) -> None:
        self.conn = conn
        self.taken: dict[str, set[int]] = {}
        self.windows: dict[str, tuple[list[int], list[int]]] = {}  # sorted (lo, hi) pairs

    async def preload(self, batch: Sequence[Message], planned: Sequence[int]) -> None:
        """``planned``: the timestamp each message of ``batch`` will try first."""
        per: dict[str, list[int]] = {}
        for m, ts in zip(batch, planned, strict=True):
            per.setdefault(m.session_id, []).append(ts)
        for session, starts in per.items():
            span = len(starts) + 64
            merged: list[list[int]] = []
            for t in sorted(set(starts)):
                if merged and t <= merged[-1][1] + 1:
                    merged[-1][1] = max(merged[-1][1], t + span)
                else:
                    merged.append([t, t + span])
            los = [lo for lo, _ in merged]
            his = [hi for _, hi in merged]
            cur = await self.conn.execute(
                "SELECT DISTINCT m.ts FROM messages m JOIN unnest(%s::bigint[], %s::bigint[]) "
                "AS w(lo, hi) ON m.ts BETWEEN w.lo AND w.hi WHERE m.session_id = %s",
                [los, his, session])
            self.taken[session] = {int(r[0]) for r in await cur.fetchall()}
            self.windows[session] = (los, his)

    def _covered(self, session: str, ts: int) -> bool:
        los, his = self.windows.get(session, ([], []))
        i = bisect_right(los, ts) - 1
        return i >= 0 and ts <= his[i]

    async def has(self, session: str, ts: int) -> bool:
        taken = self.taken.setdefault(session, set())
        if ts in taken:
            return True
        if self._covered(session, ts):
            return False
        row = await (await self.conn.execute(
            *sm.ts_taken_query(POSTGRES, session, ts))).fetchone()
        if row is not None:
            taken.add(ts)
        return row is not None

    def add(self, session: str, ts: int) -> None:
        self.taken.setdefault(session, set()).add(ts)
