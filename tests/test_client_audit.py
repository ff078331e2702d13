"""chatmem.client treats the server's answers as untrusted (a wrong URL, a proxy, a
broken or hostile server): every failure is a ChatmemError naming what happened, within
the configured bounds, and the API key is never in one. Raw servers on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import gzip
import tracemalloc
import zlib
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from chatmem.client import AsyncClient, Client
from chatmem.errors import (
    ChatmemError,
    ConfigError,
    ConnectionFailed,
    InvalidInput,
    NotFound,
    ServerError,
    StoreClosed,
    StoreError,
)
from test_client import HostileServer, _ok

KEY = "audit-secret-key-0123456789"
Call = Callable[[AsyncClient], Awaitable[Any]]


def answering(data: bytes) -> Any:
    async def answer(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter) -> None:
        await srv.write(writer, data)

    return answer


def _error(status: str, body: bytes, *headers: str) -> bytes:
    return _ok(body, *headers).replace(b"200 OK", status.encode(), 1)


def _gzip_of_zeros(size: int) -> bytes:
    packer = zlib.compressobj(9, zlib.DEFLATED, 31)
    block = b"\0" * (1 << 20)
    return b"".join([packer.compress(block) for _ in range(size >> 20)] + [packer.flush()])


@pytest.mark.parametrize(("encoding", "body"), [
    ("gzip", lambda: _gzip_of_zeros(64 << 20)),           # 64 KiB pieces of 64 MB each
    ("gzip, gzip", lambda: gzip.compress(_gzip_of_zeros(64 << 20))),  # about 300 bytes
])
async def test_a_compressed_answer_is_inflated_no_further_than_the_bound(
        encoding: str, body: Callable[[], bytes]) -> None:
    """httpx inflated each piece read whole before the bound was looked at: a 64 KiB
    piece of gzip became 64 MB, and 300 bytes of gzip-in-gzip 64 MB in one step (the
    memory peaked at hundreds of MB with a 1 MiB bound; gigabytes for a few KB more)."""
    wire = body()
    async with HostileServer(answering(_ok(wire, f"Content-Encoding: {encoding}"))) as base, \
            AsyncClient(base, max_response_bytes=1 << 20) as c:
        tracemalloc.start()
        try:
            with pytest.raises(ServerError) as err:
                await c.stats()
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert type(err.value) is ServerError
    assert "larger than max_response_bytes" in str(err.value) \
        or "cannot be decoded" in str(err.value)
    assert peak < 16 << 20, f"{peak >> 20} MB held for a 1 MiB bound"


@pytest.mark.parametrize("encoding", ["zstd", "br", "gzip, gzip", "compress"])
async def test_an_answer_in_a_coding_not_asked_for_is_refused(encoding: str) -> None:
    async with HostileServer(answering(_ok(b"\x28\xb5\x2f\xfd" * 8,
                                           f"Content-Encoding: {encoding}"))) as base, \
            AsyncClient(base) as c:
        with pytest.raises(ServerError, match=f"cannot be decoded.*{encoding}.*not asked "
                                              "for") as err:
            await c.stats()
    assert not isinstance(err.value, ConnectionFailed)


@pytest.mark.parametrize(("encoding", "packed"), [
    ("gzip", gzip.compress),
    ("deflate", zlib.compress),
    ("deflate", lambda data: zlib.compress(data)[2:-4]),  # raw deflate, as some send it
    ("identity", lambda data: data),
])
async def test_a_compressed_answer_within_the_bound_is_read(
        encoding: str, packed: Callable[[bytes], bytes]) -> None:
    body = b'{"status": "ok", "pad": "' + b"x" * 300_000 + b'"}'
    async with HostileServer(answering(_ok(packed(body), f"Content-Encoding: {encoding}"))
                             ) as base, AsyncClient(base, max_response_bytes=1 << 20) as c:
        assert (await c.health())["status"] == "ok"


NESTED = b"[" * 100_000 + b"]" * 100_000


@pytest.mark.parametrize(("call", "body"), [
    ("stats", NESTED),
    ("delete", b'{"deleted": 1e400}'),
    ("delete", b'{"deleted": 2.5}'),
    ("forget", b'{"messages": Infinity}'),
    ("erase", b'{"messages": 1, "not_found": ["a", 5]}'),
    ("erase", b'{"messages": 1, "not_found": "a"}'),
    ("clear", b'{"vectors": 1e999, "messages": 1}'),
    ("retention", b'{"days": 1e400, "layer": "config"}'),
    ("retention", b'{"days": 3, "layer": null}'),
    ("scope", b'{"scope": null, "layer": "config"}'),
    ("sessions", b'{"sessions": [{"id": "s", "messages": 1e400}]}'),
    ("sessions", b'{"sessions": [{"id": 5}]}'),
    ("recall", b'{"hits": [], "period": {"start": 1e400, "end": 1, "words": "x"}}'),
    ("recall", b'{"hits": [], "text": 5}'),
    ("recall", b'{"hits": [], "excluded": {"min_score": "many"}}'),
    ("recall", b'{"hits": [{"message": {"session_id": "s", "content": "x"}, "score": "NaN",'
               b' "semantic": 0, "recency": 0, "boost": 0}]}'),
    ("recall", b'{"hits": "none"}'),
    ("context", b'{"messages": [{"role": 1, "content": 2}]}'),
    ("whoami", b'{"name": {"nested": true}}'),
])
async def test_an_answer_of_the_wrong_shape_is_a_server_error(call: str, body: bytes) -> None:
    """Deep nesting was a raw RecursionError, 1e400 a raw OverflowError; a number where
    text belongs, null, or the string "NaN" as a score went into the result as is (or
    as the text "None")."""
    calls: dict[str, Call] = {
        "stats": lambda c: c.stats(),
        "delete": lambda c: c.delete(["a"]),
        "forget": lambda c: c.forget(session="s"),
        "erase": lambda c: c.erase(["a"]),
        "clear": lambda c: c.clear(),
        "retention": lambda c: c.effective_retention("s"),
        "scope": lambda c: c.effective_scope("s"),
        "sessions": lambda c: c.sessions(),
        "recall": lambda c: c.recall("x", session="s"),
        "context": lambda c: c.turn_context("x", session="s"),
        "whoami": lambda c: c.whoami(),
    }
    async with HostileServer(answering(_ok(body))) as base, AsyncClient(base, KEY) as c:
        with pytest.raises(ServerError, match="is base_url a chatmem server") as err:
            await calls[call](c)
    assert type(err.value) is ServerError and err.value.http_status == 200
    assert "Error" not in str(err.value)  # no KeyError, TypeError, OverflowError…


@pytest.mark.parametrize(("call", "body", "says"), [
    ("whoami", b'{"name": "k", "role": "owner"}',
     'GET /v1/whoami: the server\'s answer has no "namespace"'),
    ("whoami", b'{"name": "k", "namespace": "n", "role": "user", "sessions": ["a", 5]}',
     'GET /v1/whoami: "sessions[1]" in the server\'s answer should be text, not 5'),
    ("session", b'{"id": "s"}', 'GET /v1/sessions/s: the server\'s answer has no "session"'),
    ("session", b'{"session": {"id": "s", "metadata": [1]}}',
     'GET /v1/sessions/s: "session.metadata" in the server\'s answer should be a JSON '
     "object, not [1]"),
    ("recall", b'{"hits": [{"message": {"session_id": "s", "content": "x"}, "score": "NaN",'
               b' "semantic": 0, "recency": 0, "boost": 0}]}',
     'POST /v1/recall: "hits[0].score" in the server\'s answer should be a finite number, '
     'not "NaN"'),
    # numbers past a float's range, as the server wrote them (Python's json reads
    # them as inf, which the server never sent: it said 'not inf')
    *(("recall", b'{"hits": [{"message": {"session_id": "s", "content": "x"}, "score": %s,'
                 b' "semantic": 0, "recency": 0, "boost": 0}]}' % written,
       'POST /v1/recall: "hits[0].score" in the server\'s answer should be a finite number, '
       f"not {says}") for written, says in (
        (b"1e999", "1e999"), (b"-2.5E+400", "-2.5E+400"), (b"Infinity", "Infinity"),
        (b"-Infinity", "-Infinity"), (b"NaN", "NaN"),
        (b"1" + b"0" * 400 + b".5", "1" + "0" * 29 + "… (403 characters)"),
        (b"1" + b"0" * 400, "100000000000000000...0000000000000000000"))),
    ("recall", b'{"hits": [], "excluded": {"min_score": 1e400}}',
     'POST /v1/recall: "excluded.min_score" in the server\'s answer should be an integer, '
     "not 1e400"),
    ("recall", b'{"hits": [{"message": {"session_id": "s", "content": "x"}, "score": 1,'
               b' "semantic": 0, "recency": 0, "boost": 0, "after": [{"content": "y"}]}]}',
     'POST /v1/recall: "hits[0].after[0]" in the server\'s answer is not a message chatmem '
     "reads (message.session_id is required)"),
    ("recall", b'{"hits": [], "excluded": {"min_score": "many"}}',
     'POST /v1/recall: "excluded.min_score" in the server\'s answer should be an integer, '
     'not "many"'),
    ("recall", b'{"hits": [], "period": {"start": 1, "end": 2}}',
     'POST /v1/recall: the server\'s answer has no "period.words"'),
    ("sessions", b'{"sessions": [{"id": "s", "retention": {"days": "ten"}}]}',
     'GET /v1/sessions: "sessions[0].retention.days" in the server\'s answer should be an '
     'integer, not "ten"'),
    ("context", b'{"messages": [{"role": "system"}]}',
     'POST /v1/context: the server\'s answer has no "messages[0].content"'),
    ("stats", b"[1, 2]", "GET /v1/stats: the server's answer should be a JSON object, not "
                         "[1, 2]"),
    ("stats", b"<html>", "GET /v1/stats: the server's answer is not JSON"),
])
async def test_an_answer_of_the_wrong_shape_names_the_request_and_the_field(
        call: str, body: bytes, says: str) -> None:
    """A malformed 200 said ``GET /v1/whoami: the answer is not the API's (KeyError:
    'namespace')``: Python's words, and no field path for a nested one."""
    calls: dict[str, Call] = {
        "whoami": lambda c: c.whoami(),
        "session": lambda c: c.get_session("s"),
        "recall": lambda c: c.recall("x", session="s"),
        "sessions": lambda c: c.sessions(),
        "context": lambda c: c.turn_context("x", session="s"),
        "stats": lambda c: c.stats(),
    }
    async with HostileServer(answering(_ok(body))) as base, AsyncClient(base, KEY) as c:
        with pytest.raises(ServerError) as err:
            await calls[call](c)
    method, route = says.split(": ", 1)[0].split(" ")
    assert str(err.value) == (f"{method} {base}{route}: {says.split(': ', 1)[1]}; is "
                              "base_url a chatmem server?")
    assert err.value.http_status == 200


async def test_an_error_answer_nested_too_deeply_or_too_long_is_bounded() -> None:
    async with HostileServer(answering(_error("500 Oops", b'{"error": ' + NESTED + b"}"))
                             ) as base, AsyncClient(base) as c:
        with pytest.raises(ServerError, match="HTTP 500") as err:
            await c.stats()
    assert len(str(err.value)) < 1500
    long = b'{"error": {"type": "StoreError", "message": "' + b"m" * 2_000_000 + b'"}}'
    async with HostileServer(answering(_error("503 Unavailable", long))) as base, \
            AsyncClient(base, busy_retries=0) as c:
        with pytest.raises(StoreError) as store:
            await c.stats()
    assert 1000 <= len(str(store.value)) < 1500


@pytest.mark.parametrize(("status", "cls"), [
    ("404 Not Found", NotFound), ("413 Payload Too Large", InvalidInput),
    ("502 Bad Gateway", ServerError)])
async def test_an_error_page_that_is_not_chatmems_names_the_route_and_the_fix(
        status: str, cls: type[ChatmemError]) -> None:
    """A wrong URL or a proxy's page: was the bare page ("Not Found", "<html>…")."""
    page = b"<html><body>nginx</body></html>"
    async with HostileServer(answering(_error(status, page, "Content-Type: text/html"))
                             ) as base, AsyncClient(base) as c:
        with pytest.raises(cls) as err:
            await c.stats()
    assert type(err.value) is cls
    assert str(err.value).startswith(f"GET {base}/v1/stats: HTTP {status[:3]}: <html>")
    assert "is base_url its address" in str(err.value)


def _chain(exc: BaseException | None) -> str:
    """Every exception a traceback of ``exc`` shows (``from None`` hides the context)."""
    text = ""
    while exc is not None:
        text += f"{exc!s} {exc!r} {exc.args!r}\n"
        exc = exc.__cause__ or (None if exc.__suppress_context__ else exc.__context__)
    return text


async def test_the_key_is_never_in_an_error_even_from_a_server_echoing_it() -> None:
    """A server (or proxy page) that echoes the request sends the Authorization header
    back: it went into the error's message as is."""
    async def echo_error(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                         ) -> None:
        text = head.decode("latin-1").replace('"', "'").replace("\r\n", " | ")
        await srv.write(writer, _error("400 Bad Request", (
            '{"error": {"type": "InvalidRequest", "message": "' + text + '"}}').encode()))

    async def echo_page(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                        ) -> None:
        await srv.write(writer, _error("502 Bad Gateway", head, "Content-Type: text/plain"))

    async def echo_redirect(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                            ) -> None:
        await srv.write(writer, f"HTTP/1.1 302 Found\r\nLocation: http://x/?k={KEY}\r\n"
                                "Content-Length: 0\r\n\r\n".encode())

    async def echo_body(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                        ) -> None:
        await srv.write(writer, _ok(('{"name": ["' + KEY + '"]}').encode()))

    for answer in (echo_error, echo_page, echo_redirect, echo_body):
        srv = HostileServer(answer)
        async with srv as base, AsyncClient(base, KEY) as c:
            with pytest.raises(ChatmemError) as err:
                await c.whoami()
        assert KEY.encode() in srv.heads[0]  # it was sent, and came back
        assert KEY not in _chain(err.value), answer.__name__
        assert "***" in str(err.value), answer.__name__
        assert KEY not in repr(c)


@pytest.mark.parametrize("key", [
    f"{KEY}\r\nX-Injected: 1", f"clé-{KEY}", f" {KEY}", f"{KEY}\n", 12345678901234567890])
def test_a_key_no_header_can_carry_is_refused_without_showing_it(key: object) -> None:
    """A line break in it reached the transport's error with the whole key; a non-ASCII
    letter was a raw UnicodeEncodeError at the first call; a number was sent as text."""
    with pytest.raises(ConfigError, match="api_key must") as err:
        AsyncClient("http://127.0.0.1:1", key)  # type: ignore[arg-type]
    assert KEY not in str(err.value)


async def test_a_bad_base_url_is_a_config_error_and_a_password_in_it_is_not_shown() -> None:
    with pytest.raises(ConfigError, match="not a valid URL"):
        AsyncClient("http://[::1")  # was a raw httpx.InvalidURL
    with pytest.raises(ConfigError, match="names no host"):
        AsyncClient("http://")
    async with AsyncClient("http://me:hunter2-password@127.0.0.1:1", KEY,
                           connect_retries=0) as c:
        with pytest.raises(ConnectionFailed, match=r"http://me:\*\*\*@127\.0\.0\.1:1") as err:
            await c.stats()
    assert "hunter2" not in str(err.value)


async def test_a_closed_client_raises_store_closed_as_memory_does() -> None:
    """Was httpx's raw RuntimeError ("Cannot send a request, as the client has been
    closed") from the async client and the event loop's from the blocking one."""
    async with AsyncClient("http://127.0.0.1:1") as c:
        pass
    with pytest.raises(StoreClosed, match="closed"):
        await c.stats()
    blocking = Client("http://127.0.0.1:1")
    blocking.close()
    with pytest.raises(StoreClosed, match="closed"):
        blocking.stats()
