"""The one exception tree of chatmem.

Every error chatmem raises on purpose is a :class:`ChatmemError`; driver and
provider errors are mapped at each backend's edge (``raise StoreError(...)
from exc``), so callers never need to import a driver to catch a failure::

    ChatmemError
    ├── ConfigError            (also ValueError) bad configuration; names the field
    ├── FilterError            (also ValueError) bad metadata filter; names the part
    ├── InvalidInput           (also ValueError) bad message / argument / payload
    │   ├── ScopeError         a scope that cannot be applied (e.g. no resource id)
    │   └── EventLoopMisuse    (also RuntimeError) a blocking call that would wait for
    │                          ever on the memory's event loop (LangGraph store), or a
    │                          call cancelled on that loop by neither close() nor its caller
    ├── PermissionDenied       an actor without the owner role changed settings
    │   └── Unauthorized       (HTTP client) no API key, or an unknown one (401)
    ├── NotFound               (also KeyError) no such message / session
    ├── EmbeddingUnavailable   a provider failed terminally (E9)
    ├── StoreError             a storage backend failed (driver error attached)
    │   ├── StoreClosed        the store was used after close()
    │   └── DamagedRow         a stored row chatmem cannot read; names table, row, column
    ├── RecallUnavailable      semantic recall asked for without index or embedder (M4)
    ├── ServerBusy             (HTTP client) the server had no request slot free (503,
    │                          Retry-After): nothing was done, safe to send again
    └── ServerError            (HTTP client) the server failed (500) or answered outside the API
        └── ConnectionFailed   (HTTP client) no answer: refused, reset, timed out (cause attached)

:mod:`chatmem.client` raises these same classes for the server's answers (a 400 whose
body says ``FilterError`` is a :class:`FilterError`); ``http_status`` is then the HTTP
status (``None`` for errors raised in-process).
"""

from __future__ import annotations

import json
import shlex
from collections.abc import Iterable


class ChatmemError(Exception):
    """Base class of every error chatmem raises on purpose."""

    #: The HTTP status the error came with (:mod:`chatmem.client`); None in-process.
    http_status: int | None = None


class ConfigError(ChatmemError, ValueError):
    """Invalid configuration. The message names the field and the fix."""


class FilterError(ChatmemError, ValueError):
    """Invalid metadata filter. The message names the offending part."""


class InvalidInput(ChatmemError, ValueError):
    """A message, argument or API payload that cannot be accepted as given.

    ``mentions``: the other arguments the message names with a value, as a call writes
    them (``until must be after since=5``: ``("since", 5)``), each written in the
    message as ``name=value``. A caller that names them otherwise (the command line's
    ``--since 5``) renames exactly these, never a value the message quotes (a session id
    ``'top_k=3'``)."""

    def __init__(self, message: str, *, mentions: Iterable[tuple[str, object]] = ()
                 ) -> None:
        super().__init__(message)
        self.mentions: tuple[tuple[str, str], ...] = tuple(
            (name, str(value)) for name, value in mentions)


class ScopeError(InvalidInput):
    """A recall scope that cannot be applied, e.g. ``resource`` without a resource id."""


class EventLoopMisuse(InvalidInput, RuntimeError):
    """A call that the event loop running the memory cannot answer, so that it would
    wait for ever: a blocking call made on that loop's own thread (it would deadlock),
    on a ``Memory`` no loop of another thread runs yet, or on one whose loop runs
    nothing now (stopped, or never run); also a call that loop's owner cancelled
    (``asyncio.run`` ending cancels every task left). The message names the fix: await
    the async method on that loop, or give a :class:`~chatmem.SyncMemory`. Also the
    ``RuntimeError`` raised there before, so code catching that still does.

    A blocking wrapper's call (:class:`~chatmem.SyncMemory`, ``SyncEmbedder``, the HTTP
    ``Client``) whose task something on the wrapper's private loop cancelled, neither
    ``close()`` nor its caller (a listener or a coroutine there cancelling tasks), is
    one too, naming the cancellation's message if it had one."""


class PermissionDenied(ChatmemError):
    """The actor may not do this (e.g. only an owner may change scope settings)."""


class Unauthorized(PermissionDenied):
    """The HTTP API refused the request's API key (none, or unknown): HTTP 401."""


class NotFound(ChatmemError, KeyError):
    """No such message or session."""

    def __str__(self) -> str:  # KeyError quotes its argument; keep the plain message
        return str(self.args[0]) if self.args else ""


class EmbeddingUnavailable(ChatmemError):
    """An embedding provider failed terminally (E9).

    ``retry_decision`` is ``"fail"`` (do not retry as is), ``"defer"`` (retry later:
    deadline, exhausted retries), ``"cooldown"`` (the service's ``Retry-After`` has
    not passed: failed fast, nothing sent; retry later) or ``"invalid"`` (the
    provider answered with something that is not a usable vector).
    ``width_mismatch`` is true when the provider answered and its vectors were refused
    for their width, the store holding the model's vectors in another one (a model
    swapped behind the endpoint, ``embedding.dimensions`` changed): a model or
    configuration problem that ``chatmem reindex`` or the old model solves, not an
    outage.
    """

    def __init__(
        self,
        reason: str,
        *,
        provider: str = "",
        url: str | None = None,
        status: int | None = None,
        retry_decision: str = "fail",
        width_mismatch: bool = False,
    ) -> None:
        super().__init__(reason)
        self.width_mismatch = width_mismatch
        self.provider = provider
        self.url = url
        self.status = status
        self.retry_decision = retry_decision
        self.reason = reason

    def __str__(self) -> str:
        where = f"{self.provider}: " if self.provider else ""
        status = f" (HTTP {self.status})" if self.status is not None \
            and f"HTTP {self.status}" not in self.reason else ""
        return f"{where}{self.reason}{status}"


class StoreError(ChatmemError):
    """A storage backend failed; the driver's exception is chained as ``__cause__``."""


class StoreClosed(StoreError):
    """The store was used after it was closed."""


#: What repairs a damaged row, by table: a vector or full-text entry is derived from
#: its message and ``chatmem reindex`` writes it again; a message or a session is the
#: user's own data, which chatmem cannot make up.
_REINDEX = ("run chatmem reindex (Memory.reindex()): it embeds that message again and "
            "replaces the row")
_REPAIRS = {"vectors": _REINDEX, "lexical_entries": _REINDEX}
_REPAIR_BY_HAND = ("chatmem cannot make up what was there: {erase}set that column to a "
                   "value chatmem writes with {tool}, or restore the store from an export "
                   "(chatmem import)")
#: A row without a text id (SQLite's NULL in a TEXT PRIMARY KEY, or a BLOB) is reached
#: by SQL alone (``key``: ``rowid = 7``, ``id = x'6869'``): chatmem's ids are text.
_REPAIR_BY_KEY = ("no chatmem call can reach a row without a text id: remove it with "
                  "{tool} (DELETE FROM {table} WHERE {key}), or give it an id (UPDATE "
                  "{table} SET id = '…' WHERE {key})")
#: A message row deleted by hand leaves the rows derived from it, under its old id.
_AFTER_HAND_DELETE = ("; removed so, its vector and full-text rows stay until chatmem "
                      "reindex (Memory.reindex()) erases them")
#: A damaged message can be erased as any other: an erase goes by its id.
_ERASE_MESSAGE = "erase the message (chatmem delete {row}; Memory.delete), "
#: A session's JSON column is replaced by a new value: upsert_session replaces every
#: column, chatmem session set the ones it is given (it keeps the others, so it cannot
#: keep one it cannot read).
_REPLACE_SESSION = ("give that column a new value, which replaces it (chatmem session set "
                    "{option}; Memory.upsert_session, which replaces every column), ")
_SESSION_OPTIONS = {"metadata": "--metadata JSON {row} (or --unset metadata)",
                    "settings": "--unset settings {row}"}


class DamagedRow(StoreError):
    """A row of the store that chatmem cannot read as it wrote it: JSON that does not
    parse or is not the type chatmem writes, a timestamp that is not an integer, a
    vector whose bytes do not match its dimension. Written by something other than
    chatmem (a hand edit, a broken disk). ``table``, ``row`` (the message or session
    id) and ``column`` say where; the message says what repairs it. ``where`` is the
    store (``sqlite (/path/chat.db)``), set by the backend that read the row;
    ``namespace`` what of the store ``where`` does not show (a PostgreSQL store's
    schema): two stores on one server differ by it, in the log's count of the row."""

    def __init__(self, table: str, row: str | bytes, column: str | None, problem: str,
                 *, where: str = "", namespace: str = "", rowid: int | None = None) -> None:
        super().__init__(problem)
        #: the id as stored when it is bytes (SQLite's BLOB in a text column: a hand
        #: edit), which no chatmem call can reach: named as SQL writes it (x'…')
        self.blob = row if isinstance(row, bytes) else None
        row = f"x'{row.hex()}'" if isinstance(row, bytes) else row
        self.table, self.row, self.column, self.problem = table, row, column, problem
        self.where, self.namespace = where, namespace
        #: SQLite's rowid of a row that has no id to name it by (``row`` empty: its id
        #: column is NULL, which SQLite's TEXT PRIMARY KEY takes), set by the store
        self.rowid = rowid

    @property
    def damage(self) -> str:
        """Where the row is and what is wrong with it, without the repair (a reindex,
        which is repairing it, says what it does instead)."""
        where = f"{self.where}: " if self.where else ""
        what = "session" if self.table == "sessions" else "message"
        column = f"column {self.column} " if self.column else ""
        row = json.dumps(self.row, ensure_ascii=False)  # whole: the id the repair needs
        named = f"rowid {self.rowid}" if self.rowid is not None else \
            f"{what} id {self.row}, bytes" if self.blob is not None else f"{what} id {row}"
        return (f"{where}damaged row in table {self.table} ({named}): "
                f"{column}{self.problem}")

    @property
    def repair(self) -> str:
        """What repairs the row (the command, or what to do by hand)."""
        tool = "psql" if self.where.startswith("postgres") else "sqlite3"
        if self.rowid is not None or self.blob is not None:
            key = f"rowid = {self.rowid}" if self.rowid is not None else f"id = {self.row}"
            return _REPAIR_BY_KEY.format(tool=tool, table=self.table, key=key) + (
                _AFTER_HAND_DELETE if self.table == "messages" else "")
        erase = _ERASE_MESSAGE.format(row=shlex.quote(self.row)) if self.table == "messages" else ""
        option = _SESSION_OPTIONS.get(self.column or "") if self.table == "sessions" \
            else None
        if option is not None:
            erase = _REPLACE_SESSION.format(option=option.format(row=shlex.quote(self.row)))
        return _REPAIRS.get(self.table, _REPAIR_BY_HAND).format(tool=tool, erase=erase)

    def __str__(self) -> str:
        return f"{self.damage}; {self.repair}"


class RecallUnavailable(ChatmemError):
    """Semantic recall was configured without a vector index or an embedder (M4)."""


class ServerBusy(ChatmemError):
    """The chatmem server was working on as many requests as it takes at once and none
    finished in time (HTTP 503 with ``Retry-After``): the request was not worked on, so
    sending it again is safe. :mod:`chatmem.client` does so ``busy_retries`` times
    before it raises this; ``retry_after`` is the wait the server asked for, seconds."""

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class ServerError(ChatmemError):
    """The chatmem server failed (HTTP 500) or answered outside its API (not the
    documented JSON, an unexpected status); ``http_status`` says which."""


class ConnectionFailed(ServerError):
    """The chatmem server could not be reached or did not answer in time; the transport's
    exception is chained as ``__cause__``."""
