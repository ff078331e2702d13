"""Real servers on 127.0.0.1 for the HTTP and MCP tests."""

from __future__ import annotations

import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import uvicorn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running(app: Any, *, port: int | None = None, path: str = "") -> Iterator[str]:
    """``app`` under uvicorn on 127.0.0.1 (``port``, else a free one) in a background
    thread; yields its base URL with ``path``."""
    port = free_port() if port is None else port
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
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
def chatmem_serve(db: str, keys: Path, log: Path) -> Iterator[str]:
    """A real ``chatmem serve`` process on a free port of 127.0.0.1 (store URL ``db``,
    key file ``keys``, its output in ``log``); yields its base URL once ``/health``
    answers, and stops it after."""
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "chatmem", "serve", "--db", db, "--keys", str(keys),
             "--port", str(port)], stdout=out, stderr=subprocess.STDOUT)
        base = f"http://127.0.0.1:{port}"
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
