"""Servers over the Memory facade: HTTP (``http``) and MCP (``mcp``), and how their
long-running commands stop (:func:`stop_signals`)."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import logging
import signal
import time
from collections.abc import Callable, Iterator
from typing import Any

from ..errors import (
    ChatmemError,
    ConfigError,
    DamagedRow,
    EmbeddingUnavailable,
    StoreClosed,
    StoreError,
)
from ..logwindow import LogWindow, masked
from ..recall.result import DegradedReason

log = logging.getLogger("chatmem.server")

#: What stops ``chatmem serve`` and ``chatmem mcp``: Ctrl-C, and what systemd, docker
#: stop and supervisors send.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)

#: The exit code of a long-running command stopped by a stop signal, its memory closed:
#: 0. The stop was asked for and done, not an error; systemd counts 0 (not 130 or 143)
#: as a clean stop without ``SuccessExitStatus=``, docker and Kubernetes report it as
#: completed, and ``uvicorn.run`` (which ``chatmem serve`` used) exited 0 on Ctrl-C.
STOPPED = 0


@contextlib.contextmanager
def stop_signals(stop: Callable[[], None], hurry: Callable[[], None]) -> Iterator[None]:
    """Within the running event loop: the first SIGINT or SIGTERM calls ``stop`` (the
    server stops taking requests, over HTTP answers the open ones, then closes its
    memory); the second calls ``hurry`` (the open requests are dropped, unanswered, so
    never acknowledged; the memory is still closed); later ones are logged. Once a stop
    was asked, the stop signals stay ignored after the block too: the process is
    ending, and a Ctrl-C in its last moments ended it by SIGINT (exit code -2) or with
    a KeyboardInterrupt traceback.

    Python's default actions kill the process on SIGTERM without closing the memory
    (PostgreSQL indexing leases kept until they run out) and turn SIGINT into a
    KeyboardInterrupt raised wherever the server happens to be. A signal ignored when
    the command started (``nohup``) stays ignored."""
    loop = asyncio.get_running_loop()
    received = 0

    def on_signal(signum: int) -> None:
        nonlocal received
        received += 1
        name = signal.Signals(signum).name
        if received == 1:
            log.warning("%s: stopping; the memory is closed before exit (again: "
                        "without waiting for open requests)", name)
            stop()
        elif received == 2:
            log.warning("%s: dropping the open requests; closing the memory", name)
            hurry()
        else:
            log.warning("%s: already stopping (closing the memory)", name)

    handled = []
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is signal.SIG_IGN:
            continue
        try:
            loop.add_signal_handler(sig, on_signal, sig)
        except NotImplementedError:  # Windows' event loops: the default actions stay
            continue
        handled.append(sig)
    try:
        yield
    finally:
        for sig in handled:
            loop.remove_signal_handler(sig)
            if received:
                signal.signal(sig, signal.SIG_IGN)


class _NoCancelledTraceback(logging.Filter):
    """uvicorn logs each request task cancelled under it as "Exception in ASGI
    application" with a traceback; a request dropped on a stop is no error."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        return not isinstance(error, asyncio.CancelledError)


async def dropped(requests: set[asyncio.Task[Any]]) -> None:
    """Cancel the open ``requests`` of a server stopped in a hurry (unanswered, so never
    acknowledged), before its memory is closed under them."""
    if not requests:
        return
    quiet = _NoCancelledTraceback()
    uvicorn_log = logging.getLogger("uvicorn.error")
    uvicorn_log.addFilter(quiet)
    try:
        for request in requests:
            request.cancel()
        await asyncio.gather(*requests, return_exceptions=True)
    finally:
        uvicorn_log.removeFilter(quiet)
    log.warning("dropped %d open request(s), unanswered", len(requests))


#: What a caller who may not learn where the store is reads after a store's failure.
_ASK_OPERATOR = ("the server's operator has the whole error in the server's log "
                 "(reference {ref})")


#: What a caller who may not learn where the embedding provider is reads after its
#: failure, by the error's ``retry_decision`` (its answer, an endpoint it redirected to,
#: a model file's path: an API key's echo, an internal host name).
_PROVIDER_FAILED = {
    "fail": ("the embedding provider refused the request or is not set up as it needs; "
             "a retry cannot help until the operator fixes it"),
    "invalid": ("the embedding provider answered with something that is not a usable "
                "vector; if it keeps doing so tell the server's operator"),
    "cooldown": ("the embedding provider asked to wait before it is called again; send "
                 "it again later"),
    "defer": ("the embedding provider failed or could not be reached; send it again "
              "later, and if it keeps failing tell the server's operator"),
}
_WIDTH_REFUSED = ("the embedding model's vectors do not match the store's (a model or "
                  "configuration change); a retry cannot help until the operator fixes "
                  "it (chatmem reindex, or the model the store was embedded with)")


#: Seconds within which an error :func:`told` tells again (the same kind and text) is
#: logged at DEBUG under the reference its WARNING gave: during an outage the log holds
#: one WARNING per distinct error per window, not one per request.
TOLD_WINDOW_S = 60.0
#: How many distinct errors a :class:`ToldLog` remembers at once (the oldest forgotten).
TOLD_REMEMBERED = 256


class ToldLog:
    """Where :func:`told` logs the whole of the errors it tells in part, each under a
    reference the caller is given (and the HTTP API its 5xx errors told whole to an
    owner key, given none, alike). The first telling of an error (its kind and text,
    the values that vary in it masked: :func:`~chatmem.logwindow.masked`; logged whole)
    is logged at WARNING; told again within ``window`` seconds of that, it is logged at
    DEBUG under the same reference, so that every reference a caller was given is in a
    WARNING line while an outage logs one line per distinct error per window. The next
    WARNING of it says how many times it was told in between. One per server (a
    server's app); thread-safe."""

    def __init__(self, window: float = TOLD_WINDOW_S,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self._said = LogWindow(window, TOLD_REMEMBERED, clock)

    @property
    def window(self) -> float:
        return self._said.window

    def reference(self, exc: BaseException, doing: str) -> str:
        """Log ``exc`` (``doing``: the route or the tool); the reference to give."""
        # one error whatever the values its words name (a port, a row id, a request
        # id, a time): its kind and its words with those masked; logged whole
        said = self._said.said((type(exc), masked(str(exc))))
        if not said.warn:
            log.debug("%s: %s (reference %s, told again within %g s of its warning): %s",
                      doing, type(exc).__name__, said.ref, self.window, exc)
            return said.ref
        again = "" if not said.again else \
            f"; told {said.again} more time(s) in the {self.window:g} s after its last warning"
        log.warning("%s: %s (reference %s%s): %s", doing, type(exc).__name__, said.ref,
                    again, exc)
        return said.ref


def told(exc: ChatmemError, *, whole: bool, doing: str, logged: ToldLog) -> str:
    """The message of ``exc`` as a server answers it, and the whole of it logged.

    A :class:`~chatmem.errors.StoreError` names where the store is: its file, the
    PostgreSQL host, port, user and database, its schema (another tenant's name in a
    ``cm_{namespace}`` template), the driver's own words. An
    :class:`~chatmem.errors.EmbeddingUnavailable` quotes the provider: its answer (an
    API key's echo, an internal host name), an endpoint it redirected to, a model
    file's path. A caller that may not learn that (``whole`` false: a user key of the
    HTTP API, a model calling an MCP tool, R6) reads the error's kind of failure and
    what to do, with a reference to the log line that holds the whole message (logged
    at WARNING with ``doing``: the route or the tool; the same error told again soon
    after, at DEBUG under the same reference: ``logged``, the server's). A
    :class:`~chatmem.errors.DamagedRow` is told so without the row either (its id, its
    column, the damaged value). Any other error, or ``whole``, is its whole message."""
    if not isinstance(exc, (StoreError, EmbeddingUnavailable)) or whole:
        return str(exc)
    ref = logged.reference(exc, doing)
    ask = _ASK_OPERATOR.format(ref=ref)
    if isinstance(exc, EmbeddingUnavailable):
        said = _WIDTH_REFUSED if exc.width_mismatch else \
            _PROVIDER_FAILED.get(exc.retry_decision, _PROVIDER_FAILED["defer"])
        return f"{said} ({ask})"
    if isinstance(exc, DamagedRow):
        # the kind only: which row (another user's message or session id), its column
        # and what it holds (up to 60 characters of the damaged value) are the
        # operator's to read, as are the store (``where``) and the repair
        return ("a row of the store is damaged (chatmem cannot read it as it wrote it); "
                "a retry cannot help: the row stays so until the operator repairs it "
                f"({ask})")
    if isinstance(exc, StoreClosed):
        return f"the store is closed (the server is stopping); send it again later ({ask})"
    return ("the store failed or could not be reached; send it again later, and if it "
            f"keeps failing tell the server's operator ({ask})")


def told_degraded(result: dict[str, Any], *, whole: bool, doing: str,
                  logged: ToldLog) -> dict[str, Any]:
    """``result`` (a recall's, the tool's, a context's) with its ``degraded_reason`` as
    :func:`told` tells the provider's failure that made it: the whole one for ``whole``,
    else its kind, what to do and a reference (the nested ``recall`` of an explained
    context alike, under the same reference; ``logged`` as :func:`told`'s). ``result``
    is changed in place."""
    reason = result.get("degraded_reason")
    if whole or not isinstance(reason, DegradedReason):
        return result
    said = reason.told(told(reason.error, whole=False, doing=doing, logged=logged))
    result["degraded_reason"] = said
    nested = result.get("recall")
    if isinstance(nested, dict) and isinstance(nested.get("degraded_reason"),
                                               DegradedReason):
        nested["degraded_reason"] = said
    return result


def listen(host: str, port: int, backlog: int = 100) -> list[Any]:
    """Sockets listening on ``host:port`` for a server, bound as uvicorn's own would be
    (asyncio's ``create_server``: every address ``host`` resolves to, ``SO_REUSEADDR``,
    IPv6 ones ``IPV6_V6ONLY``), for ``uvicorn.Server.serve(sockets=...)``; port 0: the
    one the system picks for the first address, and the same one for the others.

    A server takes them before it opens its store and keeps them until it serves on
    them: a start that cannot listen (a name that does not resolve, an address of
    another machine, a port in use or reserved: a
    :class:`~chatmem.errors.ConfigError` naming ``--host`` or ``--port``) has made no
    store file (or the default store's folder), and no other program can take the port
    between the store's open and the server's start. Connections made meanwhile wait
    in the backlog until the server takes them."""
    import socket

    try:
        found = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except (socket.gaierror, UnicodeError) as exc:
        raise ConfigError(f"--host {host}: not an address or name this machine resolves "
                          f"({getattr(exc, 'strerror', None) or exc}); give one of its "
                          "addresses, such as 127.0.0.1") from None
    addresses = list(dict.fromkeys((f, k, p, a) for f, k, p, _, a in found))
    tries = 1 if port else 8  # port 0: the one picked for the first address may be in
    for tried in range(1, tries + 1):  # use on another (IPv4 and IPv6 ports are apart)
        try:
            sockets = _bound(addresses, port, backlog, again=tried < tries)
        except _Again:
            continue
        except OSError as exc:
            raise ConfigError(_cannot_listen(host, port, exc)) from None
        if not sockets:
            raise ConfigError(f"--host {host}: none of its addresses can be listened on "
                              "here; give one of this machine's addresses, such as "
                              "127.0.0.1")
        return sockets
    raise AssertionError("unreachable")  # pragma: no cover


class _Again(Exception):
    """The port picked for the first address is in use on another: pick again."""


def _bound(addresses: list[tuple[Any, Any, int, Any]], port: int, backlog: int, *,
           again: bool) -> list[Any]:
    """:func:`listen`'s sockets for ``addresses`` (of ``getaddrinfo``), each bound and
    listening, or an ``OSError`` (:class:`_Again` when ``again`` and the port the first
    was given is in use on another), none left open."""
    import socket

    sockets: list[socket.socket] = []
    try:
        chosen = port
        for family, kind, proto, address in addresses:
            try:
                sock = socket.socket(family, kind, proto)
            except OSError:
                continue  # a family this system lacks: asyncio skips it too
            sockets.append(sock)
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6 and hasattr(socket, "IPV6_V6ONLY"):
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind((address[0], chosen, *address[2:]))
            except OSError as exc:
                if again and chosen != port and exc.errno == errno.EADDRINUSE:
                    raise _Again from None
                raise
            # listening, not only bound: a program of its own SO_REUSEADDR could still
            # bind the port and listen first
            sock.listen(backlog)
            chosen = sock.getsockname()[1]
    except BaseException:
        for sock in sockets:
            sock.close()
        raise
    return sockets


def check_listen(host: str, port: int) -> None:
    """Refuse what :func:`listen` refuses (a :class:`~chatmem.errors.ConfigError` naming
    ``--host`` or ``--port``), tried with sockets opened and closed at once."""
    for sock in listen(host, port):
        sock.close()


def listening_port(sockets: list[Any]) -> int:
    """The port ``sockets`` (of :func:`listen`) listen on: the one the system picked
    for a server started with port 0."""
    return int(sockets[0].getsockname()[1])


def _cannot_listen(host: str, port: int, exc: OSError) -> str:
    if exc.errno == errno.EADDRINUSE:
        return (f"--port {port}: another program listens on it at {host}; stop it or give "
                "another --port")
    if exc.errno == errno.EACCES:
        return (f"--port {port}: this user may not listen on it (ports below 1024 need "
                "privileges); give another --port, such as 8765")
    if exc.errno == errno.EADDRNOTAVAIL:
        return (f"--host {host}: not an address of this machine; give one of its "
                "addresses, such as 127.0.0.1 (or 0.0.0.0 for all)")
    return f"--host {host} --port {port}: cannot listen there ({exc.strerror})"


#: uvicorn's exit code when a server did not start (it logged why).
UVICORN_STARTUP_FAILURE = 3


def uvicorn_server(config: Any) -> Any:
    """A ``uvicorn.Server`` of ``config`` that leaves SIGINT and SIGTERM to
    :func:`stop_signals` (its own raise the signal again once stopped: ``chatmem mcp
    --transport http`` exited 1, "Aborted!"), and whose ``force_exit`` (set by
    :func:`stop_signals`' ``hurry``) still runs the app's shutdown: uvicorn skips it
    then, and the memory was never closed. Served on sockets of :func:`listen`, it
    says where it listens as on its own."""
    import uvicorn

    class Server(uvicorn.Server):
        @contextlib.contextmanager
        def capture_signals(self) -> Iterator[None]:
            yield

        def install_signal_handlers(self) -> None:  # uvicorn before 0.29
            pass

        async def startup(self, sockets: Any = None) -> None:
            await super().startup(sockets)
            if sockets and self.started:
                # uvicorn says where it listens only on sockets of its own: the line it
                # writes then, with the port the system picked for --port 0
                host = self.config.host
                logging.getLogger("uvicorn.error").info(
                    "Uvicorn running on http://%s:%d (Press CTRL+C to quit)",
                    f"[{host}]" if ":" in host else host, listening_port(sockets))

        async def shutdown(self, sockets: Any = None) -> None:
            await super().shutdown(sockets)
            if self.force_exit:
                await dropped(set(self.server_state.tasks))
                await self.lifespan.shutdown()

    return Server(config)


__all__ = ["STOPPED", "STOP_SIGNALS", "TOLD_WINDOW_S", "UVICORN_STARTUP_FAILURE", "ToldLog",
           "check_listen", "listen", "listening_port", "stop_signals", "told", "told_degraded",
           "uvicorn_server"]
