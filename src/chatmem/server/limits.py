"""How long and how many: the limits a server puts on its clients' connections.

uvicorn waits for a request's head for as long as a client keeps the connection
open, and for each chunk of its body for as long as the app asks. One client that
opens connections and never finishes a request (slowloris) held them all: measured on
``chatmem serve`` under ``ulimit -n 1024``, 1,050 connections that each sent a request
line and one header were still open 22 s later, the server logged ``Too many open
files`` and a normal request timed out. Both servers (``chatmem serve``, ``chatmem mcp
--transport http``) now run with :class:`ClientLimits`:

* ``timeout``: a request's head (request line and headers) must arrive within this
  many seconds of the connection being opened or of the previous answer; a
  connection that sends nothing is closed at the same deadline. A head begun and not
  finished gets ``408 Request Timeout``.
* the same ``timeout`` between two chunks of a body, and :attr:`ClientLimits.body_deadline`
  for the whole body: a request whose body stalls gets 408 and its connection is closed.
  Both are counted only while the app waits for the body, so a slow app never makes
  its client look slow.
* the same ``timeout`` for a client to read: while an answer waits in the write
  buffer, the buffer must shrink within each ``timeout``, or the connection is dropped
  with the rest of the answer. Before, a client that asked for a page of large messages
  and never read it kept the page in the server's memory for as long as it kept the
  connection (measured: 5 such clients, a page of 300 messages of 199,000 characters,
  server RSS 393 → 731 MB, unchanged 40 s later).
* ``max_concurrent_requests``: requests worked on at once (:class:`RequestSlots`). Each
  request takes a slot once its body has arrived (at once without a body), and gives it
  back when the last part of its answer is handed to the connection; one that finds no
  slot free within ``timeout`` is answered ``503`` with ``Retry-After``. A recall builds
  its answer in memory, up to 16 million characters of messages: measured on ``chatmem
  serve`` (700 messages of 199,000 characters, ``top_k`` 100, ``window`` 100), 32 such
  recalls at once took the server to 3.9 GB and 64 to 7.2 GB, so a few hundred would
  exhaust the machine. A body still arriving holds no slot, so slow senders cannot
  starve the others.
* ``max_unread_mb``: answers waiting for their clients to read them, in all. The read
  watch above asks for progress, not speed: a client that read 256 KiB a second kept
  its answer in the server's memory for as long as it pleased, so connections asking
  for a recall of 30 MB each (100 messages of 199,000 characters, ``top_k`` 100) held
  ``chatmem serve`` at 2.3 GB (60 of them) and 4.0 GB (120; ``bench/slow_readers.py``),
  and the 1,000 connections ``max_connections`` lets in would hold 30 GB; with the
  default bound, 1.2 GB either way. When the answers waiting in write buffers pass
  this many MiB, the connections that have waited longest are dropped (reset, as by
  the read watch) until they fit; the answer just written is never the one dropped, so
  one larger than the whole budget still reaches a client that reads it. A client that
  reads at the speed of its link waits only moments and is not touched.
* ``max_connections``: connections past this many are answered ``503`` and closed,
  before the process runs out of file descriptors (which the stores, the model and the
  PostgreSQL pool need too). The default stays 128 below the process's
  ``RLIMIT_NOFILE``. The close waits for the client to close too, reading and dropping
  what it sent, for at most :data:`DRAIN_S` and :data:`DRAIN_BYTES`: closed at once with
  a request unread, the connection was reset and the client read ECONNRESET, not the
  503 (so too the 408 and 400 written here).

The head deadline and the read watch live in an ``h11`` protocol of uvicorn's
(:func:`protocol_class`): uvicorn has no such setting (its ``timeout_keep_alive``
applies only after an answer, and any byte received cancels it). The body deadlines
are plain ASGI (:func:`deadline_receive`, :class:`BodyDeadline`), so they answer in
each server's own error shape. The listen backlog is sized to the descriptors left
(:meth:`ClientLimits.backlog`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import math
import os
import socket
import struct
from collections.abc import Callable
from dataclasses import dataclass, field

import anyio
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import ConfigError
from ..refusals import as_given, describe

log = logging.getLogger(__name__)

#: File descriptors left for the process itself (store files, model, pools, logs).
RESERVED_DESCRIPTORS = 128
#: The most connections a server accepts by default, if the descriptor limit allows.
DEFAULT_MAX_CONNECTIONS = 1000
DEFAULT_TIMEOUT_S = 10.0
#: Requests worked on at once by default: a recall's working set is up to about 100 MB
#: (the largest answers), so 16 stay under 2 GB; on 2 cores more would not answer sooner.
DEFAULT_MAX_CONCURRENT_REQUESTS = 16
#: MiB of answers that may wait for slow clients to read them, over all connections: 16
#: of the largest recall answers (32 MB each).
DEFAULT_MAX_UNREAD_MB = 512
#: The whole body of a request, at the default timeout: 8 MiB in a minute is 140 KB/s.
BODY_DEADLINE_FACTOR = 6.0


#: uvicorn's listen backlog, which is also how many connections asyncio accepts in one
#: go, before any of them can be refused.
MAX_BACKLOG = 2048
#: A connection refused by the connection layer (503 at the cap, 408, 400) is not
#: closed with the answer: closing a socket whose receive buffer holds bytes the server
#: did not read (the request a client sent before the server took the connection) makes
#: the kernel reset it, and the client's kernel then drops the answer it had received
#: (the client read ECONNRESET, not the 503). The answer is written, the write side
#: shut (the client reads it to its end), and what the client sends is read and dropped
#: until it closes, for at most this many seconds and :data:`DRAIN_BYTES` bytes, so a
#: client cannot hold a descriptor with it.
DRAIN_S = 1.0
DRAIN_BYTES = 1024 * 1024
#: Refused connections draining at once, at most (:meth:`ClientLimits.draining`).
MAX_DRAINING = 256


def open_file_limit() -> int | None:
    """The process's soft ``RLIMIT_NOFILE`` (None: unlimited or unknown)."""
    try:
        import resource

        soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    except (ImportError, OSError, ValueError):  # pragma: no cover - no such limit here
        return None
    return None if soft == resource.RLIM_INFINITY else int(soft)


def default_max_connections() -> int:
    """:data:`DEFAULT_MAX_CONNECTIONS`, or fewer: :data:`RESERVED_DESCRIPTORS` below the
    process's soft ``RLIMIT_NOFILE`` (at least 16)."""
    soft = open_file_limit()
    if soft is None:
        return DEFAULT_MAX_CONNECTIONS
    return max(16, min(DEFAULT_MAX_CONNECTIONS, soft - RESERVED_DESCRIPTORS))


@dataclass(frozen=True)
class ClientLimits:
    """A server's limits on its clients (see the module docstring); ``option`` names
    are the CLI's, for the errors."""

    timeout: float = DEFAULT_TIMEOUT_S
    max_connections: int = field(default_factory=default_max_connections)
    max_concurrent_requests: int = DEFAULT_MAX_CONCURRENT_REQUESTS
    max_unread_mb: int = DEFAULT_MAX_UNREAD_MB

    def __post_init__(self) -> None:
        if isinstance(self.timeout, bool) or not isinstance(self.timeout, (int, float)) \
                or not math.isfinite(self.timeout) or not 0.1 <= self.timeout <= 3600:
            raise ConfigError(f"--client-timeout must be between 0.1 and 3600 seconds, "
                              f"got {describe(self.timeout)}")
        if isinstance(self.max_connections, bool) or not isinstance(self.max_connections, int) \
                or not 1 <= self.max_connections <= 1_000_000:
            raise ConfigError(f"--max-connections must be an integer from 1 to 1000000, "
                              f"got {describe(self.max_connections)}")
        if isinstance(self.max_concurrent_requests, bool) \
                or not isinstance(self.max_concurrent_requests, int) \
                or not 1 <= self.max_concurrent_requests <= 100_000:
            raise ConfigError("--max-concurrent-requests must be an integer from 1 to 100000, "
                              f"got {describe(self.max_concurrent_requests)}")
        if isinstance(self.max_unread_mb, bool) or not isinstance(self.max_unread_mb, int) \
                or not 1 <= self.max_unread_mb <= 1_000_000:
            raise ConfigError("--max-unread-mb must be an integer from 1 to 1000000 (MiB), "
                              f"got {describe(self.max_unread_mb)}")

    @property
    def max_unread_bytes(self) -> int:
        """Bytes of answers that may wait for their clients, over all connections."""
        return self.max_unread_mb * 1024 * 1024

    @property
    def body_deadline(self) -> float:
        """Seconds the whole body of one request may take."""
        return self.timeout * BODY_DEADLINE_FACTOR

    def backlog(self) -> int:
        """The listen backlog for uvicorn. asyncio accepts up to this many connections
        in one tick before any is refused for the cap, so the backlog must fit in the
        descriptors the cap leaves: with uvicorn's 2048 under ``ulimit -n 1024``, a burst
        of 1,050 connections ran the process out of descriptors (1,134 ``accept()``
        errors logged) although the cap was 896. Half of what is left, 16 to 2048."""
        soft = open_file_limit()
        if soft is None:
            return MAX_BACKLOG
        spare = self._spare(soft)
        if spare < 32:
            log.warning("--max-connections %d leaves %d of the %d open files this process "
                        "may have: raise ulimit -n, or lower --max-connections",
                        self.max_connections, max(0, soft - self.max_connections), soft)
        return max(16, min(MAX_BACKLOG, spare // 2))

    def draining(self) -> int:
        """How many refused connections may drain at once (:data:`DRAIN_S`): the half of
        the descriptors the cap leaves that the backlog does not take, 16 to
        :data:`MAX_DRAINING`. Past it a refused connection is closed after reading only
        what it has sent already."""
        soft = open_file_limit()
        if soft is None:
            return MAX_DRAINING
        spare = self._spare(soft)
        return max(16, min(MAX_DRAINING, spare - spare // 2))

    def _spare(self, soft: int) -> int:
        """The descriptors of ``soft`` that the cap and the process itself leave."""
        return soft - self.max_connections - RESERVED_DESCRIPTORS // 2


class ClientTooSlow(StarletteHTTPException):
    """The client did not send its request body in time (408)."""

    def __init__(self, limits: ClientLimits, whole: bool) -> None:
        what = (f"the request body did not arrive within {limits.body_deadline:g} s" if whole
                else f"no part of the request body arrived for {limits.timeout:g} s")
        super().__init__(408, f"{what}; send the body at once (--client-timeout sets it)")


def deadline_receive(receive: Receive, limits: ClientLimits) -> Receive:
    """``receive`` that raises :class:`ClientTooSlow` when a body chunk is later than
    ``limits.timeout`` after the app asked for it, or the body as a whole later than
    ``limits.body_deadline`` after the first ask. Once the body is complete, ``receive``
    is awaited as it is (a disconnect may come at any time)."""
    loop = asyncio.get_running_loop()
    deadline: float | None = None
    body_done = False

    async def timed() -> Message:
        nonlocal deadline, body_done
        if body_done:
            return await receive()
        now = loop.time()
        if deadline is None:
            deadline = now + limits.body_deadline
        left = deadline - now
        try:
            message = await asyncio.wait_for(receive(), max(0.0, min(limits.timeout, left)))
        except TimeoutError:
            raise ClientTooSlow(limits, whole=left <= limits.timeout) from None
        if message["type"] != "http.request" or not message.get("more_body", False):
            body_done = True
        return message

    return timed


class NoFreeSlot(StarletteHTTPException):
    """No request slot came free in time (503, ``Retry-After: 1``)."""

    def __init__(self, limits: ClientLimits) -> None:
        super().__init__(503, f"the server is working on {limits.max_concurrent_requests} "
                              f"requests at once and none finished within {limits.timeout:g} "
                              "s; try again (--max-concurrent-requests sets how many)",
                         headers={"Retry-After": "1"})


class RequestSlots:
    """At most ``limits.max_concurrent_requests`` requests worked on at once, for one
    server (see the module docstring): :meth:`run` runs each request in a slot."""

    def __init__(self, limits: ClientLimits) -> None:
        self.limits = limits
        self._free: anyio.Semaphore | None = None  # made in the serving event loop

    async def run(self, app: ASGIApp, scope: Scope, receive: Receive, send: Send) -> None:
        """``app`` in a slot: taken at once for a request without a body, else as its
        body completes; given back as the answer's last part is handed on, or when the
        app ends (:class:`NoFreeSlot` if none came free in time)."""
        if self._free is None:
            self._free = anyio.Semaphore(self.limits.max_concurrent_requests)
        hold = _SlotHold(self._free, self.limits)
        try:
            if not has_body(scope):
                await hold.take()
            await app(scope, hold.receive(receive), hold.send(send))
        finally:
            hold.give()


class _SlotHold:
    """One request's slot: :meth:`receive` takes it as the body completes, :meth:`send`
    gives it back as the last part of the answer is handed on, :meth:`give` in any case
    when the app ends."""

    def __init__(self, free: anyio.Semaphore, limits: ClientLimits) -> None:
        self._free, self._limits = free, limits
        self._held = self._done = False

    async def take(self) -> None:
        """Wait up to ``timeout`` for a slot; :class:`NoFreeSlot` if none came free."""
        if self._held or self._done:
            return
        with anyio.move_on_after(self._limits.timeout):
            await self._free.acquire()
            self._held = True
            return
        raise NoFreeSlot(self._limits)

    def give(self) -> None:
        self._done = True
        if self._held:
            self._held = False
            self._free.release()

    def receive(self, receive: Receive) -> Receive:
        async def slotted() -> Message:
            message = await receive()
            if message["type"] == "http.request" and not message.get("more_body", False):
                await self.take()
            return message

        return slotted

    def send(self, send: Send) -> Send:
        async def slotted(message: Message) -> None:
            if message["type"] == "http.response.body" and not message.get("more_body", False):
                self.give()  # what is left is the client's to read (the write watch)
            await send(message)

        return slotted


def has_body(scope: Scope) -> bool:
    """Whether the request announces a body (``Transfer-Encoding`` or a
    ``Content-Length`` other than 0)."""
    for key, value in scope.get("headers", ()):
        name = key.lower()
        if name == b"transfer-encoding" or (name == b"content-length"
                                            and value.strip() not in (b"", b"0")):
            return True
    return False


def jsonrpc_error_body(exc: StarletteHTTPException) -> bytes:
    """JSON-RPC's error shape for a request the MCP server did not run (no id: it was
    not read, or not in time)."""
    return json.dumps({"jsonrpc": "2.0", "id": None,
                       "error": {"code": -32600, "message": exc.detail}}).encode()


def jsonrpc_error_response(exc: StarletteHTTPException) -> Response:
    """:func:`jsonrpc_error_body` as an answer at ``exc``'s status, with its headers: an
    MCP client reads JSON-RPC's error and nothing else (the SDK's client turns any other
    body into 'Server returned an error response')."""
    return Response(jsonrpc_error_body(exc), status_code=exc.status_code,
                    headers=exc.headers, media_type="application/json")


async def send_jsonrpc_error(send: Send, exc: StarletteHTTPException) -> None:
    """An MCP transport's answer to a request it did not run: JSON-RPC's error shape."""
    body = jsonrpc_error_body(exc)
    headers = [(b"content-type", b"application/json"),
               (b"content-length", str(len(body)).encode()), (b"connection", b"close")]
    headers += [(k.lower().encode("latin-1"), v.encode("latin-1"))
                for k, v in (exc.headers or {}).items()]
    await send({"type": "http.response.start", "status": exc.status_code, "headers": headers})
    await send({"type": "http.response.body", "body": body})


class Slotted:
    """Plain ASGI: :class:`RequestSlots` around an app that answers in JSON-RPC's shape
    (the MCP server); a request that finds no slot in time is answered 503 here."""

    def __init__(self, app: ASGIApp, limits: ClientLimits) -> None:
        self.app, self.slots = app, RequestSlots(limits)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = False

        async def watched_send(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.slots.run(self.app, scope, receive, watched_send)
        except NoFreeSlot as exc:
            if started:
                raise
            await send_jsonrpc_error(send, exc)


class BodyDeadline:
    """Plain ASGI: :func:`deadline_receive` around an app that answers in its own shape
    (the MCP server). A late body is answered 408 by the app's own handler, or here if
    the exception escapes it, and the connection is closed."""

    def __init__(self, app: ASGIApp, limits: ClientLimits) -> None:
        self.app, self.limits = app, limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        started = slow = False
        timed_receive = deadline_receive(receive, self.limits)

        async def watched_receive() -> Message:
            nonlocal slow
            try:
                return await timed_receive()
            except ClientTooSlow:
                slow = True
                raise

        async def watched_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                if slow:  # the rest of the body is not read: the connection cannot be reused
                    message = {**message, "headers": [*message.get("headers", ()),
                                                      (b"connection", b"close")]}
            await send(message)

        try:
            await self.app(scope, watched_receive, watched_send)
        except ClientTooSlow as exc:
            if started:
                raise
            await send_jsonrpc_error(send, exc)


def _raw_answer(status: int, reason: str, message: str, *, retry_after: int | None = None,
                jsonrpc: bool = False) -> bytes:
    body = (jsonrpc_error_body(StarletteHTTPException(status, message)) if jsonrpc else
            json.dumps({"error": {"type": reason.replace(" ", ""), "message": message}}
                       ).encode())
    wait = "" if retry_after is None else f"retry-after: {retry_after}\r\n"
    return (f"HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n"
            f"content-length: {len(body)}\r\n{wait}connection: close\r\n\r\n").encode() + body


class _ClosingGently:
    """A connection's transport as uvicorn sees it, with its ``close`` replaced (by
    :meth:`GuardedH11Protocol._close <protocol_class>`); all else is the transport's."""

    def __init__(self, transport: asyncio.Transport, close: Callable[[], None]) -> None:
        self._transport, self.close = transport, close

    def __getattr__(self, name: str) -> object:
        return getattr(self._transport, name)


def protocol_class(limits: ClientLimits, on_answer: Callable[[int], None] | None = None,
                   *, jsonrpc: bool = False) -> type[asyncio.Protocol]:
    """uvicorn's ``h11`` protocol with the head deadline and the connection cap of
    ``limits`` (pass it as ``uvicorn.Config(http=...)``). ``on_answer`` is told the
    status of each answer written here, before any request reached the app (the app's
    own metrics never see them: a refusal at the cap is the overload signal). Those
    answers (503 at the cap, 408 for a late head, 400 for what is not HTTP) are in the
    HTTP API's error shape, or with ``jsonrpc`` in JSON-RPC's, which an MCP client reads
    (:func:`jsonrpc_error_body`), and their connections are closed without a reset: what
    the client sent is drained first (:data:`DRAIN_S`). So is a connection uvicorn
    closes after an app's answer with the request's body unread (``_close``)."""

    def answer(transport: asyncio.BaseTransport, status: int, reason: str, message: str,
               *, retry_after: int | None = None) -> None:
        assert isinstance(transport, asyncio.WriteTransport)
        transport.write(_raw_answer(status, reason, message, retry_after=retry_after,
                                    jsonrpc=jsonrpc))
        if on_answer is not None:
            try:
                on_answer(status)
            except Exception:  # counting must never break a connection's handling
                log.exception("counting a connection answer failed")

    import h11
    from uvicorn.protocols.http.h11_impl import H11Protocol

    # the connections whose answers wait in their write buffers (asyncio paused the
    # writing), and since when: one table per server, shared by its connections
    waiting: dict[GuardedH11Protocol, float] = {}
    # the refused connections being drained before their close: not counted under the
    # cap (they are done), and at most limits.draining() of them (they hold descriptors)
    draining: set[GuardedH11Protocol] = set()
    most_draining = limits.draining()
    drain_s = min(DRAIN_S, limits.timeout)

    class GuardedH11Protocol(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None
        _head_begun = False
        _write_watch: asyncio.TimerHandle | None = None
        _write_left = 0
        _drain_left: int | None = None  # bytes still read before the close, once refused
        _drain_timer: asyncio.TimerHandle | None = None
        _socket_transport: asyncio.Transport

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            self._socket_transport = transport
            super().connection_made(_ClosingGently(transport, self._close))  # type: ignore[arg-type]
            open_now = len(self.connections) - len(draining)
            if open_now > limits.max_connections:
                log.warning("connection refused: %d open, --max-connections is %d",
                            open_now - 1, limits.max_connections)
                self._refuse(503, "Service Unavailable",
                             f"the server has {limits.max_connections} connections open; "
                             "try again", retry_after=1)
                return
            self._await_head()

        def _refuse(self, status: int, reason: str, message: str, *,
                    retry_after: int | None = None) -> None:
            """Answer ``status`` and close the connection without a reset: the
            answer, then the write side shut (the client reads the answer to its end),
            then what the client sends read and dropped until it closes too, for at most
            ``drain_s`` and :data:`DRAIN_BYTES` (see :data:`DRAIN_S`)."""
            if self._drain_left is not None:  # refused already: the write side is shut
                return
            self._stop_head_timer()
            answer(self._socket_transport, status, reason, message, retry_after=retry_after)
            if self.cycle is not None and not self.cycle.response_complete:
                self.cycle.disconnected = True  # the app's request is over: its answer
                self.cycle.message_event.set()  # would follow this one
            self._close_draining()

        def _close_draining(self) -> None:
            """Close after the answer written, without a reset: the write side shut,
            then what the client sends read and dropped until it closes too, within
            ``drain_s``, :data:`DRAIN_BYTES` and ``most_draining`` (past which only
            what was sent already is read)."""
            transport = self._socket_transport
            self._drain_left = DRAIN_BYTES
            if not transport.can_write_eof():  # pragma: no cover - TLS
                transport.close()
                return
            transport.write_eof()
            if len(draining) >= most_draining:  # no descriptors to wait with
                self._drop_sent()
                transport.close()
                return
            draining.add(self)
            self.flow.resume_reading()
            self._drain_timer = self.loop.call_later(drain_s, transport.close)

        def _close(self) -> None:
            """uvicorn's close of the connection (after an answer with ``Connection:
            close``, an app that failed, a shutdown): with the request's body not read
            to its end (a 401, 403, 413 or 421 answered from the head, a 408 for a late
            body), closed at once the connection was reset and a client still sending,
            or reading to the end, read ECONNRESET; it is drained like a refusal."""
            if self._drain_left is None and self.conn.their_state is h11.SEND_BODY \
                    and not self._socket_transport.is_closing():
                self._close_draining()
            else:
                self._socket_transport.close()

        def _drop_sent(self) -> None:
            """Read and drop what the client has sent already, up to :data:`DRAIN_BYTES`
            (without waiting: the socket does not block)."""
            sock = self.transport.get_extra_info("socket")
            if sock is None:  # pragma: no cover - a socket transport has one
                return
            left = DRAIN_BYTES
            with contextlib.suppress(OSError):  # BlockingIOError: nothing more yet
                while left > 0:
                    read = len(os.read(sock.fileno(), min(left, 65536)))
                    if not read:
                        return
                    left -= read

        def connection_lost(self, exc: Exception | None) -> None:
            draining.discard(self)
            if self._drain_timer is not None:
                self._drain_timer.cancel()
                self._drain_timer = None
            self._stop_head_timer()
            self._stop_write_watch()
            waiting.pop(self, None)
            super().connection_lost(exc)

        def pause_writing(self) -> None:
            super().pause_writing()
            self._stop_write_watch()
            self._write_left = self.transport.get_write_buffer_size()
            self._write_watch = self.loop.call_later(limits.timeout, self._check_writes)
            waiting.setdefault(self, self.loop.time())
            self._fit_unread()

        def resume_writing(self) -> None:
            self._stop_write_watch()
            waiting.pop(self, None)
            super().resume_writing()

        def _fit_unread(self) -> None:
            """Drop the connections that have waited longest, never this one, until
            the answers waiting in all write buffers fit in ``max_unread_mb``."""
            sizes = {p: p.transport.get_write_buffer_size() for p in waiting}
            total = sum(sizes.values())
            for other in sorted(sizes, key=waiting.__getitem__):
                if total <= limits.max_unread_bytes:
                    return
                if other is self:
                    continue
                log.warning("answers waiting for clients to read them pass --max-unread-mb "
                            "(%d MiB): dropping a connection that has read too little of "
                            "its answer for %.1f s (%d bytes left)", limits.max_unread_mb,
                            self.loop.time() - waiting[other], sizes[other])
                other._drop()
                total -= sizes[other]

        def _drop(self) -> None:
            """Reset the connection with what is left of its answer (``abort``: ``close``
            would wait for the client to read it)."""
            waiting.pop(self, None)
            self._stop_write_watch()
            sock = self.transport.get_extra_info("socket")
            if sock is not None:  # a reset: the kernel keeps no orphaned send queue
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                    struct.pack("ii", 1, 0))
            self.transport.abort()

        def _stop_write_watch(self) -> None:
            if self._write_watch is not None:
                self._write_watch.cancel()
                self._write_watch = None

        def _check_writes(self) -> None:
            """While the answer waits in the write buffer: it must shrink between two
            looks, ``timeout`` apart, or the connection is dropped with what is left
            (``abort``: ``close`` would wait for the client to read it)."""
            self._write_watch = None
            left = self.transport.get_write_buffer_size()
            if left == 0:
                return
            if left >= self._write_left:
                log.info("client read nothing of its answer for %g s (%d bytes left): "
                         "dropping the connection", limits.timeout, left)
                self._drop()
                return
            self._write_left = left
            self._write_watch = self.loop.call_later(limits.timeout, self._check_writes)

        def data_received(self, data: bytes) -> None:
            if self._drain_left is not None:  # refused: read to be dropped
                self._drain_left -= len(data)
                if self._drain_left <= 0:
                    self.transport.close()
                return
            if self.conn.their_state is h11.IDLE:
                self._head_begun = True
            super().data_received(data)
            if self.conn.their_state is not h11.IDLE:
                self._stop_head_timer()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
                self._await_head()

        def _await_head(self) -> None:
            self._stop_head_timer()
            self._head_begun = False
            self._head_timer = self.loop.call_later(limits.timeout, self._head_late)

        def _stop_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_late(self) -> None:
            self._head_timer = None
            if self.transport.is_closing() or self.conn.their_state is not h11.IDLE:
                return
            if self._head_begun:
                log.info("request head not complete within %g s: closing", limits.timeout)
                self._refuse(408, "Request Timeout",
                             f"the request head did not arrive within {limits.timeout:g} s")
                return
            self.transport.close()

        def send_400_response(self, msg: str) -> None:
            """A request h11 cannot read (a bad request line or header, two
            Content-Lengths, a bad chunk size): the same JSON error as every other
            answer, where uvicorn wrote plain text ("Invalid HTTP request received.")."""
            self._refuse(400, "Bad Request", "the request is not valid HTTP/1.1 (its "
                         "request line, a header or the body's framing could not be read); "
                         "nothing was done")

    return GuardedH11Protocol


__all__ = ["BodyDeadline", "ClientLimits", "ClientTooSlow", "NoFreeSlot", "RequestSlots",
           "Slotted", "deadline_receive", "default_max_connections", "has_body",
           "jsonrpc_error_body", "jsonrpc_error_response", "protocol_class"]


def scope_headers(scope: Scope) -> dict[str, str]:
    """A request's headers by lower-case name (the last of a repeated one)."""
    return {k.decode("latin-1").lower(): v.decode("latin-1")
            for k, v in scope.get("headers", ())}


def foreign_host(host: str) -> str:
    """The refusal (421) of a ``Host`` that is not this server's, on both servers."""
    return (f"Host {as_given(host, 100)} is not this server's (DNS-rebinding protection); "
            "a name clients use goes in --allowed-host")


def foreign_origin(origin: str) -> str:
    """The refusal (403) of a browser ``Origin`` of another site, on both servers."""
    return (f"Origin {as_given(origin, 100)} is not this server's (a page of another site "
            "may not call it)")
