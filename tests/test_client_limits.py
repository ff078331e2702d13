"""A client's time and connections are bounded (chatmem.server.limits): a request head or
body that stalls is answered 408 and its connection closed, a connection that sends
nothing is closed, connections past the cap are answered 503, and a burst of
connections does not run the server out of file descriptors (slowloris).

Real servers on 127.0.0.1, raw sockets for the slow clients. Before this, uvicorn
waited for a head or a body for as long as the client kept the connection: each test
below that reads an answer from a stalled connection hung until its socket timeout.
"""

from __future__ import annotations

import asyncio
import json
import math
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx
import numpy as np
import pytest
from prometheus_client.parser import text_string_to_metric_families

from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError
from chatmem.server.http import allowed_hosts, create_app
from chatmem.server.limits import ClientLimits, protocol_class
from providers import RecordingProvider
from servers import chatmem_serve, free_port, running

#: How long a test waits for an answer before it fails (the server's limits are far
#: shorter: this only keeps a broken server from hanging the suite).
PATIENCE_S = 20


def read_all(sock: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    sock.settimeout(PATIENCE_S)
    data = b""
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return data
        data += chunk


def status_and_body(answer: bytes) -> tuple[int, dict[str, object], str]:
    head, _, body = answer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    return int(lines[0].split()[1]), json.loads(body), "\r\n".join(lines[1:]).lower()


def open_api(tmp_path: Path, limits: ClientLimits, port: int,
             provider: RecordingProvider | None = None) -> object:
    return create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                      config=Config.load(context_expand={"window": 0}),
                      embedder=Embedder(provider or RecordingProvider()),
                      hosts=allowed_hosts("127.0.0.1", port), limits=limits)


@pytest.fixture
def api(tmp_path: Path) -> Iterator[tuple[str, int]]:
    """The open API under the server's protocol, with a client timeout of 0.5 s."""
    limits = ClientLimits(timeout=0.5, max_connections=50)
    port = free_port()
    with running(open_api(tmp_path, limits, port), port=port,
                 http=protocol_class(limits)) as base:
        yield base, port


def connect(port: int, first: bytes = b"") -> socket.socket:
    sock = socket.create_connection(("127.0.0.1", port), timeout=PATIENCE_S)
    if first:
        sock.sendall(first)
    return sock


def messages_stored(base: str) -> int:
    return int(httpx.get(f"{base}/v1/stats", timeout=PATIENCE_S).json()["messages"])


def test_a_head_left_unfinished_is_answered_408_and_closed(api: tuple[str, int]) -> None:
    base, port = api
    with connect(port, b"GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port) as sock:
        status, body, headers = status_and_body(read_all(sock))
    assert status == 408 and "connection: close" in headers
    assert body["error"] == {"type": "RequestTimeout",
                             "message": "the request head did not arrive within 0.5 s"}
    assert httpx.get(f"{base}/v1/stats", timeout=PATIENCE_S).status_code == 200


def test_a_connection_that_sends_nothing_is_closed(api: tuple[str, int]) -> None:
    _, port = api
    with connect(port) as sock:
        assert read_all(sock) == b""  # closed without an answer: no request was begun


def test_a_kept_alive_connection_cannot_stall_its_next_head(api: tuple[str, int]) -> None:
    # uvicorn's keep-alive timer is cancelled by any byte: one byte of a next request
    # used to hold the connection for ever
    _, port = api
    with connect(port, b"GET /health HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port) as sock:
        sock.settimeout(PATIENCE_S)
        first = sock.recv(65536)
        assert first.startswith(b"HTTP/1.1 200")
        sock.sendall(b"G")
        status, body, _ = status_and_body(read_all(sock))
    assert status == 408 and body["error"]["type"] == "RequestTimeout"  # type: ignore[index]


def test_a_stalled_body_is_408_closed_and_nothing_is_stored(api: tuple[str, int]) -> None:
    base, port = api
    payload = json.dumps({"messages": [{"session_id": "s", "content": "hello there"}]})
    head = (f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n")
    with connect(port, head.encode() + payload[:20].encode()) as sock:
        status, body, headers = status_and_body(read_all(sock))
    assert status == 408 and "connection: close" in headers
    assert body["error"]["type"] == "RequestTimeout"  # type: ignore[index]
    assert "no part of the request body arrived for 0.5 s" in body["error"]["message"]  # type: ignore[index]
    assert messages_stored(base) == 0


def test_a_body_trickled_past_the_whole_deadline_is_408(api: tuple[str, int]) -> None:
    # each chunk in time (0.2 s apart, the timeout is 0.5 s), but the whole body is
    # allowed six timeouts (3 s): it never ends, so it is cut there
    base, port = api
    head = (f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
            "Content-Type: application/json\r\nContent-Length: 100000\r\n\r\n")
    with connect(port, head.encode()) as sock:
        sock.settimeout(0.2)
        answer = b""
        for _ in range(int(PATIENCE_S / 0.2)):
            try:
                sock.sendall(b" ")
                chunk = sock.recv(65536)
            except TimeoutError:
                continue
            except OSError:  # the server closed: whatever it sent is in answer
                break
            if not chunk:
                break
            answer += chunk
        answer += read_all(sock) if answer and b"\r\n\r\n" not in answer else b""
    status, body, _ = status_and_body(answer)
    assert status == 408
    assert "the request body did not arrive within 3 s" in body["error"]["message"]  # type: ignore[index]
    assert messages_stored(base) == 0


def test_a_slow_steady_body_within_the_limits_is_taken(api: tuple[str, int]) -> None:
    base, port = api
    payload = json.dumps({"messages": [{"session_id": "s", "content": "slow but steady"}]})
    head = (f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n")
    with connect(port, head.encode()) as sock:
        for start in range(0, len(payload), 20):
            time.sleep(0.1)
            sock.sendall(payload[start:start + 20].encode())
        answer = read_all(sock)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    assert messages_stored(base) == 1


def test_connections_past_the_cap_get_503_and_the_server_recovers(tmp_path: Path) -> None:
    limits = ClientLimits(timeout=30, max_connections=5)
    port = free_port()
    with running(open_api(tmp_path, limits, port), port=port,
                 http=protocol_class(limits)) as base:
        held = [connect(port) for _ in range(5)]
        try:
            with connect(port) as extra:
                status, body, headers = status_and_body(read_all(extra))
            assert status == 503 and "connection: close" in headers
            assert "retry-after: 1" in headers  # nothing was read: chatmem.client retries
            assert body["error"] == {"type": "ServiceUnavailable", "message":
                                     "the server has 5 connections open; try again"}
        finally:
            for sock in held:
                sock.close()
        deadline = time.monotonic() + PATIENCE_S
        while True:  # the server notices the closed connections on its next loop turns
            r = httpx.get(f"{base}/health", timeout=PATIENCE_S)
            if r.status_code == 200 or time.monotonic() > deadline:
                break
            time.sleep(0.05)
        assert r.status_code == 200


def mcp_api(tmp_path: Path, limits: ClientLimits, port: int) -> object:
    """The MCP server's HTTP app over a SQLite file (the app of ``chatmem mcp
    --transport http``)."""
    from chatmem import Memory
    from chatmem.server.mcp import create_server, http_app

    async def open_memory() -> Memory:
        return await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=Embedder(RecordingProvider()))

    return http_app(create_server(open_memory, session="s"), host="127.0.0.1", port=port,
                    limits=limits)


def closed_by_server(sock: socket.socket, payload: bytes) -> bool:
    """Whether the server closes ``sock`` while the client sends ``payload`` again and
    again (one byte: every 0.05 s), within :data:`PATIENCE_S`: sending then fails with a
    reset or a broken pipe."""
    try:
        for _ in range(int(PATIENCE_S / 0.05)):
            sock.sendall(payload)
            time.sleep(0.05 if len(payload) == 1 else 0)
    except TimeoutError:  # the server neither read nor closed
        return False
    except OSError:
        return True
    return False


@pytest.mark.parametrize("jsonrpc", [False, True], ids=["serve", "mcp"])
def test_a_request_sent_before_the_refusal_still_reads_the_503(tmp_path: Path,
                                                               jsonrpc: bool) -> None:
    """A client past the cap that sent its request at once, before the server took the
    connection, read ECONNRESET instead of the 503 (of 300 tries on 127.0.0.1, 289):
    the server wrote the 503 and closed a socket whose receive buffer still held the
    unread request, so the kernel reset the connection and the client's kernel dropped
    the 503 it had received. Now the server shuts its write side after the answer and
    drains what the client sent before it closes, and every try reads the 503 with its
    body, also while more refused clients than ``limits.draining()`` hold theirs (then
    the server reads only what was sent already and closes). A refused client that
    holds its connection, sending a byte now and then or without end, is closed all the
    same (the drain is bounded)."""
    limits = ClientLimits(timeout=30, max_connections=2)
    port = free_port()
    app = mcp_api(tmp_path, limits, port) if jsonrpc else open_api(tmp_path, limits, port)
    message = "the server has 2 connections open; try again"
    request = (b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json"
               b"\r\nContent-Length: 2\r\n\r\n{}" % port)
    with running(app, port=port, http=protocol_class(limits, jsonrpc=jsonrpc)):
        held = [connect(port) for _ in range(2)]

        def tries(count: int) -> dict[str, int]:
            """What ``count`` clients past the cap read, each sending at once."""
            answers: dict[str, int] = {}
            for _ in range(count):
                with connect(port, request) as sock:
                    try:
                        status, body, headers = status_and_body(read_all(sock))
                        seen = f"{status} {body}" if "retry-after: 1" in headers else headers
                    except ConnectionResetError:
                        seen = "reset"
                answers[seen] = answers.get(seen, 0) + 1
            return answers

        error = ({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}
                 if jsonrpc else {"error": {"type": "ServiceUnavailable", "message": message}})
        try:
            assert tries(100) == {f"503 {error}": 100}
            # refused clients that stay: past limits.draining() of them, the server reads
            # what was sent at once rather than waiting
            held += [connect(port) for _ in range(limits.draining())]
            assert tries(30) == {f"503 {error}": 30}
            for payload in (b"x", b"x" * 65536):  # a byte now and then, then without end
                with connect(port) as sock:
                    assert read_all(sock).startswith(b"HTTP/1.1 503 ")
                    assert closed_by_server(sock, payload)
        finally:
            for sock in held:
                sock.close()


@pytest.mark.parametrize("jsonrpc", [False, True], ids=["serve", "mcp"])
def test_a_refusal_from_the_head_is_read_to_its_end_without_a_reset(tmp_path: Path,
                                                                    jsonrpc: bool) -> None:
    """An answer the app gives from the request's head with ``Connection: close``, its
    body not read (``chatmem serve``: a foreign Host's 421, a 413 for a Content-Length
    over the limit; ``chatmem mcp``: the 401 without a key): uvicorn closed the
    connection with the body unread, so the kernel reset it and a client still sending,
    or reading to the end, read ECONNRESET after the answer (measured on 127.0.0.1:
    60 of 60 clients that sent a 512 KiB body at once and read until the close). Now
    the connection is drained like a refusal at the cap (``_close_draining``): every
    client reads the answer and then the server's close."""
    limits = ClientLimits(timeout=30, max_connections=50)
    port = free_port()
    body = b"x" * (512 * 1024)
    if jsonrpc:
        from chatmem import Memory
        from chatmem.server.http import KeyTable
        from chatmem.server.mcp import create_server, http_app

        async def open_memory() -> Memory:
            return await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                     embedder=Embedder(RecordingProvider()))

        keys = KeyTable.from_mapping({"keys": {"owner": {
            "key": "cm_owner_" + "k" * 32, "namespace": "default", "role": "owner"}}})
        app: object = http_app(create_server(open_memory, session="s"), host="127.0.0.1",
                               port=port, keys=keys, limits=limits)
        heads = {401: b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port}
    else:
        app = open_api(tmp_path, limits, port)
        heads = {421: b"POST /v1/messages HTTP/1.1\r\nHost: elsewhere.example\r\n",
                 413: b"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port}
    with running(app, port=port, http=protocol_class(limits, jsonrpc=jsonrpc)):
        for status, head in heads.items():
            length = len(body) if status != 413 else 9 * 1024 * 1024
            request = head + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % (
                length) + body
            answers: dict[str, int] = {}
            for _ in range(20):
                with connect(port, request) as sock:
                    try:
                        answer = read_all(sock)
                        seen = f"{status_and_body(answer)[0]}"
                    except ConnectionResetError:
                        seen = "reset"
                answers[seen] = answers.get(seen, 0) + 1
            assert answers == {str(status): 20}


def test_a_burst_of_stalled_connections_leaves_the_server_serving(tmp_path: Path) -> None:
    """The slowloris of the report, scaled down: ``chatmem serve`` under an open-file
    limit of 256 (so a cap of 128 connections and a listen backlog that fits what is
    left), 400 connections that each send half a head. The server never runs out of
    descriptors (before the backlog fix it logged ``Too many open files``), answers each
    stalled head 408, and a normal request then succeeds."""
    log = tmp_path / "serve.log"
    with chatmem_serve(f"sqlite:///{tmp_path}/c.db", None, log,
                       options=["--client-timeout", "1"], open_files=256) as base:
        port = int(base.rsplit(":", 1)[1])
        stalled = []
        for _ in range(400):
            try:
                stalled.append(connect(port, b"GET /v1/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n"))
            except OSError:  # the listen queue is full for a moment: the kernel says so
                break
        answers: dict[int, int] = {}
        for sock in stalled:
            with sock:
                try:
                    answer = read_all(sock)
                except ConnectionResetError:
                    # past the cap the 503 is written and what the client sent is
                    # drained before the close, but only for limits.draining()
                    # connections at once: past those, a half head that lands after the
                    # close still makes the kernel reset it, and the 503 can be lost
                    answer = b"HTTP/1.1 -1 reset"
            code = int(answer.split()[1]) if answer else 0
            answers[code] = answers.get(code, 0) + 1
        assert set(answers) <= {408, 503, -1}, answers
        assert answers.get(408, 0) >= 100, answers
        r = httpx.get(f"{base}/v1/stats", timeout=PATIENCE_S)
        assert r.status_code == 200, r.text
        # answered before any request reached the app, and still counted: a 503 at the
        # cap is the overload signal (one lost to a reset was written all the same)
        counted = {int(f.labels["status"]): int(f.value) for family in
                   text_string_to_metric_families(httpx.get(f"{base}/metrics").text)
                   if family.name == "chatmem_http_connection_answers"
                   for f in family.samples if f.name.endswith("_total")}
        assert counted.get(408, 0) == answers[408], (counted, answers)
        assert counted.get(503, 0) >= answers.get(503, 0), (counted, answers)
        assert counted.get(408, 0) + counted.get(503, 0) == len(stalled), (counted, answers)
    text = log.read_text()
    assert "Too many open files" not in text and "out of system resource" not in text, text[-2000:]


def test_limits_are_checked_and_named() -> None:
    for bad in (0, -1, 0.01, float("nan"), float("inf"), 3601, True, "10"):
        with pytest.raises(ConfigError, match="--client-timeout"):
            ClientLimits(timeout=bad)  # type: ignore[arg-type]
    for bad_count in (0, -5, 1_000_001, 2.5, True):
        with pytest.raises(ConfigError, match="--max-connections"):
            ClientLimits(max_connections=bad_count)  # type: ignore[arg-type]
    for bad_count in (0, -5, 100_001, 2.5, True, "4"):
        with pytest.raises(ConfigError, match="--max-concurrent-requests"):
            ClientLimits(max_concurrent_requests=bad_count)  # type: ignore[arg-type]
    for bad_count in (0, -5, 1_000_001, 2.5, True, "4"):
        with pytest.raises(ConfigError, match="--max-unread-mb"):
            ClientLimits(max_unread_mb=bad_count)  # type: ignore[arg-type]
    limits = ClientLimits(timeout=2)
    assert limits.body_deadline == 12 and 16 <= limits.max_connections <= 1000


def test_the_defaults_follow_the_open_file_limit() -> None:
    script = ("import resource; "
              "resource.setrlimit(resource.RLIMIT_NOFILE, "
              "({}, resource.getrlimit(resource.RLIMIT_NOFILE)[1])); "
              "from chatmem.server.limits import ClientLimits as L; "
              "l = L(); print(l.max_connections, l.backlog(), l.draining())")
    seen = {}
    for soft in (256, 1024, 4096):
        out = subprocess.run([sys.executable, "-c", script.format(soft)], check=True,
                             capture_output=True, text=True).stdout.split()
        seen[soft] = (int(out[0]), int(out[1]), int(out[2]))
    assert seen[256] == (128, 32, 32) and seen[1024] == (896, 32, 32)
    assert seen[4096] == (1000, 1516, 256)
    for soft, (cap, backlog, draining) in seen.items():
        # a full burst, and refused connections draining, still leave descriptors over
        assert cap + backlog + draining < soft


def test_the_cli_refuses_bad_limits_before_opening_anything(tmp_path: Path) -> None:
    for command in (["serve"], ["mcp", "--transport", "http"]):
        for option, value in (("--client-timeout", "0"), ("--max-connections", "0"),
                              ("--max-concurrent-requests", "0"), ("--max-unread-mb", "0")):
            db = tmp_path / "never.db"
            done = subprocess.run([sys.executable, "-m", "chatmem", *command, "--db", str(db),
                                   "--port", str(free_port()), option, value],
                                  capture_output=True, text=True, timeout=60)
            assert done.returncode == 2, done.stderr
            assert done.stderr.startswith(f"error: {option} must be"), done.stderr
            assert not db.exists()


def test_the_mcp_server_bounds_heads_and_bodies_too(tmp_path: Path) -> None:
    from chatmem import Memory
    from chatmem.server.mcp import HTTP_PATH, create_server, http_app

    async def open_memory() -> Memory:
        return await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=Embedder(RecordingProvider()))

    limits = ClientLimits(timeout=0.5, max_connections=50)
    port = free_port()
    app = http_app(create_server(open_memory, session="s"), host="127.0.0.1", port=port,
                   limits=limits)
    with running(app, port=port, http=protocol_class(limits, jsonrpc=True)):
        with connect(port, b"POST %s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                     % (HTTP_PATH.encode(), port)) as sock:
            status, error, _ = status_and_body(read_all(sock))
        assert status == 408 and error == {"jsonrpc": "2.0", "id": None, "error": {
            "code": -32600, "message": "the request head did not arrive within 0.5 s"}}
        head = (f"POST {HTTP_PATH} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                "Content-Type: application/json\r\n"
                "Accept: application/json, text/event-stream\r\n"
                "Content-Length: 1000\r\n\r\n{")
        with connect(port, head.encode()) as sock:
            answer = read_all(sock)
        head_part, _, body = answer.partition(b"\r\n\r\n")
        assert head_part.startswith(b"HTTP/1.1 408 ") and b"connection: close" in head_part
        error = json.loads(body)  # JSON-RPC's shape, not the SDK's plain text
        assert error["jsonrpc"] == "2.0" and error["error"]["code"] == -32600
        assert "no part of the request body arrived for 0.5 s" in error["error"]["message"]


def test_a_request_that_is_not_http_gets_a_json_error(tmp_path: Path) -> None:
    """What h11 cannot read (two Content-Lengths, a bad chunk size, a header without a
    colon) was answered in uvicorn's plain text; now in the API's error shape."""
    limits = ClientLimits(timeout=2.0, max_connections=50)
    port = free_port()
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                     embedder=Embedder(RecordingProvider()))
    bad_heads = (b"Content-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
                 b"Transfer-Encoding: chunked\r\n\r\nzz\r\n",
                 b"No colon here\r\n\r\n")
    with running(app, port=port, http=protocol_class(limits)):
        for head in bad_heads:
            with connect(port, b"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n"
                         % port + head) as sock:
                answer = read_all(sock)
            head_part, _, body = answer.partition(b"\r\n\r\n")
            assert head_part.startswith(b"HTTP/1.1 400 "), answer
            assert b"content-type: application/json" in head_part
            error = json.loads(body)["error"]
            assert error["type"] == "BadRequest" and "not valid HTTP/1.1" in error["message"]


def stored_page(base: str, count: int) -> int:
    """``count`` messages of 199,000 characters in session ``s``; the byte size of
    their page as JSON."""
    big = "x" * 199_000
    for start in range(0, count, 20):  # within the body limit
        r = httpx.post(f"{base}/v1/messages", timeout=PATIENCE_S, json={"messages": [
            {"session_id": "s", "content": f"{i} {big}"}
            for i in range(start, min(count, start + 20))]})
        assert r.status_code == 200, r.text
    return len(httpx.get(f"{base}/v1/messages", params={"session": "s", "limit": 1000},
                         timeout=PATIENCE_S).content)


def ask_for_page(port: int) -> socket.socket:
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # the kernel holds little
    sock.connect(("127.0.0.1", port))
    sock.sendall(b"GET /v1/messages?session=s&limit=1000 HTTP/1.1\r\n"
                 b"Host: 127.0.0.1:%d\r\n\r\n" % port)
    return sock


def test_a_client_that_stops_reading_its_answer_is_dropped(api: tuple[str, int]) -> None:
    # the page (10 MB) stayed in the server's memory for as long as the client kept
    # the connection without reading
    base, port = api
    size = stored_page(base, 50)
    with ask_for_page(port) as sock:
        time.sleep(3)  # six timeouts without reading a byte
        sock.settimeout(PATIENCE_S)
        received = 0
        with pytest.raises(ConnectionResetError):
            while chunk := sock.recv(65536):
                received += len(chunk)
            raise AssertionError("the connection ended without a reset")
    assert received < size  # what the kernels held, not the answer
    assert httpx.get(f"{base}/v1/stats", timeout=PATIENCE_S).status_code == 200


def test_a_client_that_reads_slowly_but_steadily_gets_its_whole_answer(
        api: tuple[str, int]) -> None:
    base, port = api
    size = stored_page(base, 10)
    with ask_for_page(port) as sock:
        sock.settimeout(PATIENCE_S)
        answer = b""
        while b"\r\n\r\n" not in answer or len(answer.partition(b"\r\n\r\n")[2]) < size:
            chunk = sock.recv(16384)
            assert chunk, "the server closed the connection"
            answer += chunk
            time.sleep(0.01)  # far slower than loopback, never idle for a timeout
    body = json.loads(answer.partition(b"\r\n\r\n")[2])
    assert len(body["messages"]) == 10


def read_on(sock: socket.socket, until: float = math.inf) -> tuple[int, bool]:
    """Bytes read until the server closes the connection (or ``until`` bytes are in),
    and whether it was reset."""
    sock.settimeout(PATIENCE_S)
    got = 0
    try:
        while got < until and (chunk := sock.recv(1 << 20)):
            got += len(chunk)
    except ConnectionResetError:
        return got, True
    return got, False


def test_answers_waiting_for_slow_readers_are_bounded_in_all(tmp_path: Path) -> None:
    """Before: the read watch asked for progress only, so a client reading 256 KiB a
    second kept its answer in memory as long as it liked: 120 such connections, each
    asking for a 30 MB recall, held ``chatmem serve`` at 4.0 GB (bench/slow_readers.py).
    Now, past ``max_unread_mb`` in all, the connection that has waited longest goes;
    the answer just written stays, and a client that reads gets all of it."""
    limits = ClientLimits(timeout=30, max_connections=50, max_unread_mb=1)
    port = free_port()
    with running(open_api(tmp_path, limits, port), port=port,
                 http=protocol_class(limits)) as base:
        size = stored_page(base, 40)  # 8 MB: far more than the kernel buffers hold
        slow: list[socket.socket] = []
        try:
            for _ in range(3):  # each asks and reads only the head
                sock = ask_for_page(port)
                sock.settimeout(PATIENCE_S)
                assert sock.recv(16).startswith(b"HTTP/1.1 200")
                slow.append(sock)
                time.sleep(0.3)  # its answer written: the next one waits longer
            # the first two were dropped when the next answer was written...
            for sock in slow[:2]:
                got, reset = read_on(sock)
                assert reset and got < size
            # ... the last one was not, and a client that reads gets its whole answer
            got, reset = read_on(slow[2], until=size)  # the head counts too
            assert not reset and got >= size
        finally:
            for sock in slow:
                sock.close()
        assert len(httpx.get(f"{base}/v1/messages", params={"session": "s", "limit": 1000},
                             timeout=PATIENCE_S).content) == size


# --------------------------------------------------------------- requests worked on at once

class GatedProvider(RecordingProvider):
    """Embeds a query only once :attr:`gate` is set: a recall that holds its request
    slot for as long as the test wants. :attr:`waiting` counts the queries held."""

    def __init__(self) -> None:
        super().__init__()
        self.gate = threading.Event()
        self.waiting = 0

    async def embed(self, texts: Sequence[str], role: Any) -> np.ndarray:
        if role == "query":
            self.waiting += 1
            while not self.gate.is_set():
                await asyncio.sleep(0.01)
        return await super().embed(texts, role)


def wait_until(check: Callable[[], bool]) -> None:
    deadline = time.monotonic() + PATIENCE_S
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_requests_past_the_slots_wait_then_get_503_and_a_slow_body_holds_none(
        tmp_path: Path) -> None:
    """Measured before: 32 recalls of the largest answers at once took ``chatmem serve``
    to 3.9 GB and 64 to 7.2 GB (each builds its answer in memory); with 16 slots both
    peak at 2.2 GB."""
    limits = ClientLimits(timeout=1.0, max_connections=50, max_concurrent_requests=1)
    provider = GatedProvider()
    port = free_port()
    app = open_api(tmp_path, limits, port, provider)
    recall = {"query": "what did we plan?", "session": "s"}
    with running(app, port=port, http=protocol_class(limits)) as base, \
            ThreadPoolExecutor(2) as pool:
        first = pool.submit(httpx.post, f"{base}/v1/recall", json=recall, timeout=PATIENCE_S)
        try:
            wait_until(lambda: provider.waiting == 1)  # the one slot is held
            for answer in (httpx.get(f"{base}/v1/stats", timeout=PATIENCE_S),
                           httpx.post(f"{base}/v1/recall", json=recall, timeout=PATIENCE_S)):
                assert answer.status_code == 503, answer.text
                assert answer.headers["retry-after"] == "1"
                error = answer.json()["error"]
                assert error["type"] == "ServiceUnavailable"
                assert "--max-concurrent-requests" in error["message"]
            assert provider.waiting == 1  # the refused recall never ran
            assert httpx.get(f"{base}/health", timeout=PATIENCE_S).status_code == 200
        finally:
            provider.gate.set()  # else the pool waits for the first call for ever
        assert first.result().status_code == 200
        assert httpx.get(f"{base}/v1/stats", timeout=PATIENCE_S).status_code == 200

        # a body still on its way holds no slot: the others are served meanwhile
        body = json.dumps({"messages": [{"session_id": "s", "content": "slow but sure"}]})
        head = (f"POST /v1/messages HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n")
        with connect(port, head.encode() + body[:10].encode()) as slow:
            time.sleep(0.3)
            for _ in range(3):
                assert httpx.get(f"{base}/v1/stats", timeout=PATIENCE_S).status_code == 200
            slow.sendall(body[10:].encode())
            status, _, _ = status_and_body(read_all(slow))
        assert status == 200 and messages_stored(base) == 1


class StatusRecorder(httpx.AsyncHTTPTransport):
    """The real transport, noting the status of every answer the client got."""

    def __init__(self) -> None:
        super().__init__()
        self.statuses: list[int] = []

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        response = await super().handle_async_request(request)
        self.statuses.append(response.status_code)
        return response


def test_the_client_sends_a_refused_request_again_once_a_slot_is_free(
        tmp_path: Path) -> None:
    """Before: ``chatmem.client`` read the server's 503 for "no slot free" as a
    :class:`StoreError` and gave up at once, though nothing had been done (in
    ``bench/concurrency.py``, 16 of 64 calls at once failed so)."""
    from chatmem.client import Client
    from chatmem.errors import ServerBusy, StoreError

    limits = ClientLimits(timeout=0.5, max_connections=50, max_concurrent_requests=1)
    provider = GatedProvider()
    port = free_port()
    app = open_api(tmp_path, limits, port, provider)
    with running(app, port=port, http=protocol_class(limits)) as base, \
            ThreadPoolExecutor(2) as pool, Client(base, timeout=PATIENCE_S) as holder, \
            Client(base, timeout=PATIENCE_S, busy_retries=0) as impatient:
        holder.add({"session_id": "s", "content": "we planned a trip to Lisbon"})
        recorder = StatusRecorder()
        first = pool.submit(holder.recall, "what did we plan?", session="s")
        try:
            wait_until(lambda: provider.waiting == 1)  # the one slot is held
            with pytest.raises(ServerBusy) as busy:
                impatient.recall("which trip was it?", session="s")
            assert not isinstance(busy.value, StoreError)
            assert busy.value.http_status == 503 and busy.value.retry_after == 1
            assert "--max-concurrent-requests" in str(busy.value)

            with Client(base, timeout=PATIENCE_S, transport=recorder) as patient:
                second = pool.submit(patient.recall, "where are we going?", session="s")
                wait_until(lambda: recorder.statuses == [503])  # refused, waits 1-1.5 s
                provider.gate.set()
                hits = second.result(timeout=PATIENCE_S).hits
        finally:
            provider.gate.set()  # else the pool waits for the first call for ever
        assert [h.message.content for h in first.result().hits] == [
            "we planned a trip to Lisbon"]
        assert [h.message.content for h in hits] == ["we planned a trip to Lisbon"]
        assert recorder.statuses == [503, 200]
        # two queries embedded (each asked once: a refused try never reached the model)
        assert provider.waiting == 2


#: What an MCP client sends with each request over streamable HTTP.
MCP_HEADERS = {"Accept": "application/json, text/event-stream",
               "Content-Type": "application/json", "Mcp-Protocol-Version": "2025-06-18"}


def one_slot_mcp_app(tmp_path: Path, provider: Any) -> tuple[Any, ClientLimits, int]:
    """An MCP HTTP app over a SQLite file with one request slot, its limits and port."""
    from chatmem import Memory
    from chatmem.server.mcp import create_server, http_app

    async def open_memory() -> Memory:
        return await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=Embedder(provider))

    limits = ClientLimits(timeout=1.0, max_connections=50, max_concurrent_requests=1)
    port = free_port()
    app = http_app(create_server(open_memory, session="s"), host="127.0.0.1", port=port,
                   limits=limits)
    return app, limits, port


def test_the_mcp_server_has_request_slots_too(tmp_path: Path) -> None:
    from chatmem.server.mcp import HTTP_PATH

    provider = GatedProvider()
    app, limits, port = one_slot_mcp_app(tmp_path, provider)
    headers = MCP_HEADERS
    call = {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "memory_recall", "arguments": {"query": "what did we plan?"}}}
    with running(app, port=port, path=HTTP_PATH,
                 http=protocol_class(limits, jsonrpc=True)) as url, \
            ThreadPoolExecutor(1) as pool:
        first = pool.submit(httpx.post, url, json=call, headers=headers, timeout=PATIENCE_S)
        try:
            wait_until(lambda: provider.waiting == 1)
            # streamed: a call that got in would answer 200 and then wait on the gate
            with httpx.stream("POST", url, json=call, headers=headers,
                              timeout=PATIENCE_S) as busy:
                assert busy.status_code == 503
                # JSON-RPC's shape, as an MCP client reads errors (the SDK's own
                # handler answered an error raised while it read a body in plain text)
                error = json.loads(busy.read())
                assert error["jsonrpc"] == "2.0" and error["id"] is None
                assert "--max-concurrent-requests" in error["error"]["message"]
                assert busy.headers["retry-after"] == "1"
            assert provider.waiting == 1
        finally:
            provider.gate.set()  # else the pool waits for the first call for ever
        assert first.result().status_code == 200
        assert httpx.post(url, json=call, headers=headers,
                          timeout=PATIENCE_S).status_code == 200


def test_the_mcp_server_opens_no_event_stream_that_would_hold_a_slot(tmp_path: Path) -> None:
    """GET on the MCP path opened the SDK's event stream, which this stateless server
    never sends on, and held a request slot until the client left: a few GETs that read
    nothing turned every other client away with 503. Now: 405 at once, in JSON-RPC's
    error shape, with ``Allow: POST``, and no slot taken."""
    from chatmem.server.mcp import HTTP_PATH

    app, limits, port = one_slot_mcp_app(tmp_path, RecordingProvider())
    headers = MCP_HEADERS
    with running(app, port=port, path=HTTP_PATH,
                 http=protocol_class(limits, jsonrpc=True)) as url:
        streams = [httpx.stream("GET", url, headers=headers, timeout=PATIENCE_S)
                   for _ in range(3)]
        opened = [s.__enter__() for s in streams]  # held open, nothing read
        try:
            for answer in opened:
                assert answer.status_code == 405
                assert answer.headers["allow"] == "POST"
                error = json.loads(answer.read())
                assert error["jsonrpc"] == "2.0" and error["error"]["code"] == -32600
                assert "POST" in error["error"]["message"]
            listed = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "tools/list"},
                                headers=headers, timeout=PATIENCE_S)
            assert listed.status_code == 200, listed.text
        finally:
            for s in streams:
                s.__exit__(None, None, None)


def test_the_mcp_servers_own_refusals_are_json_rpc_too(tmp_path: Path) -> None:
    """The SDK answered a body over its 4 MiB (413) and another path (404) in plain text,
    which an MCP client cannot read; now in JSON-RPC's error shape, like the rest."""
    from chatmem.server.mcp import HTTP_PATH

    app, limits, port = one_slot_mcp_app(tmp_path, RecordingProvider())
    with running(app, port=port, path=HTTP_PATH,
                 http=protocol_class(limits, jsonrpc=True)) as url:
        big = b'{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"x": "%s"}}' % (
            b"a" * (5 * 1024 * 1024))
        for answer, status, words in (
                (httpx.post(url, content=big, headers=MCP_HEADERS, timeout=PATIENCE_S),
                 413, "request body over 4194304 bytes; send a smaller request"),
                (httpx.post(url.replace(HTTP_PATH, "/elsewhere"), json={}, headers=MCP_HEADERS,
                            timeout=PATIENCE_S), 404, f"answers at {HTTP_PATH}")):
            assert answer.status_code == status, answer.text
            assert answer.headers["content-type"] == "application/json"
            error = answer.json()
            assert error["jsonrpc"] == "2.0" and error["id"] is None
            assert words in error["error"]["message"], error


def test_the_cli_default_is_the_library_default() -> None:
    from chatmem.server.limits import DEFAULT_MAX_CONCURRENT_REQUESTS, DEFAULT_MAX_UNREAD_MB

    for command in ("serve", "mcp"):
        done = subprocess.run([sys.executable, "-m", "chatmem", command, "--help"],
                              capture_output=True, text=True, timeout=60, check=True)
        text = " ".join(done.stdout.split())
        assert f"Retry-After [default: {DEFAULT_MAX_CONCURRENT_REQUESTS}]" in text
        assert f"dropped [default: {DEFAULT_MAX_UNREAD_MB}]" in text
    assert ClientLimits().max_concurrent_requests == DEFAULT_MAX_CONCURRENT_REQUESTS
    assert ClientLimits().max_unread_mb == DEFAULT_MAX_UNREAD_MB
