"""Real servers on 127.0.0.1 for the HTTP and MCP tests."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.asynccontextmanager
async def mcp_client(url: str, key: str) -> AsyncIterator[Any]:
    """An initialised MCP client session of the streamable HTTP server at ``url``,
    sending the API key ``key``."""
    import httpx2
    from mcp import ClientSession
    from mcp.client.streamable_http import streamable_http_client

    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {key}"},
                                  timeout=30) as http, \
            streamable_http_client(url, http_client=http) as (read, write), \
            ClientSession(read, write) as client:
        await client.initialize()
        yield client


@contextlib.contextmanager
def running(app: Any, *, port: int | None = None, path: str = "",
            **options: Any) -> Iterator[str]:
    """``app`` under uvicorn on 127.0.0.1 (``port``, else a free one) in a background
    thread; yields its base URL with ``path``. ``options`` go to ``uvicorn.Config``
    (e.g. ``http=`` a protocol class)."""
    port = free_port() if port is None else port
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on", **options))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}{path}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


@contextlib.contextmanager
def chatmem_serve(db: str, keys: Path | None, log: Path, *, options: Sequence[str] = (),
                  open_files: int | None = None, host: str = "127.0.0.1") -> Iterator[str]:
    """A real ``chatmem serve`` process on ``host`` (127.0.0.1, or another loopback
    address such as ::1) at a port free on 127.0.0.1 (store URL ``db``, key file
    ``keys`` or none, more ``options``, its output in ``log``, at most ``open_files``
    descriptors if given); yields its base URL once ``/health`` answers, and stops it
    after."""
    port = free_port()
    command = [sys.executable, "-m", "chatmem", "serve", "--db", db, "--port", str(port),
               "--host", host, *(["--keys", str(keys)] if keys is not None else []),
               *options]

    def limit_files() -> None:  # in the child, before it runs chatmem
        if open_files is not None:
            import resource

            hard = resource.getrlimit(resource.RLIMIT_NOFILE)[1]
            resource.setrlimit(resource.RLIMIT_NOFILE, (open_files, hard))

    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT,
                                preexec_fn=limit_files)
        base = f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                assert proc.poll() is None, log.read_text()
                assert time.monotonic() < deadline, "chatmem serve did not come up"
                time.sleep(0.2)
            yield base
        finally:
            proc.terminate()
            proc.wait(timeout=30)
