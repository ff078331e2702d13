"""A fake embedding service on 127.0.0.1 for the provider, fault and secret tests.

It speaks every wire format of chatmem's remote providers, chosen by the path:

* ``…/embeddings``: OpenAI-shaped (openai, Azure, OpenRouter, voyage, mistral);
* ``…/models/<model>:batchEmbedContents``: Gemini;
* ``…/api/embed``: Ollama;
* ``…/embed``: Cohere (the v2 answer; the v1 one with ``Step(shape="v1")``).

Every request is recorded (:class:`Recorded`: path, query, headers, JSON body, the
texts). Each request takes the next scripted :class:`Step` (:meth:`script`), then
:attr:`FakeEmbeddingService.default`: a status, headers (``Retry-After``), a delay
(during which a client that goes away is noticed: :attr:`Recorded.dropped`), a
connection reset, a raw body, or a correct answer bent on purpose (NaN, another
size, another count).

The vectors are a deterministic function of the text (:func:`vector`), so a test
can check that each input got its own vector, in input order.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import random
import select
import socket
import struct
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qsl, urlsplit

import numpy as np

from chatmem.embedding.http import COOLDOWNS

DIMS = 8


def vector(text: str, dims: int = DIMS) -> list[float]:
    """The service's (raw, unnormalised) vector of ``text``."""
    rng = random.Random(int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "little"))
    return [rng.uniform(-1.0, 1.0) for _ in range(dims)]


def expected(text: str, dims: int = DIMS) -> np.ndarray:
    """What an Embedder (normalize=True) returns for the service's vector of ``text``."""
    v = np.asarray(vector(text, dims), dtype=np.float32)
    return v / np.linalg.norm(v)


@dataclass
class Recorded:
    """One request as the service saw it."""

    method: str
    path: str
    query: dict[str, str]
    #: header names in lower case
    headers: dict[str, str]
    body: Any
    texts: list[str]
    #: the client closed the connection before the answer was sent
    dropped: bool = False
    #: the status of the step that answered it (None: not yet taken)
    status: int | None = None
    #: the query string as it came, still percent-encoded
    raw_query: str = ""


@dataclass
class Step:
    """How to answer one request."""

    status: int = 200
    #: None: a correct answer in the request's wire format (an error object for a status
    #: of 300 or more); a dict or list: that JSON;
    #: str or bytes: sent as is; a callable: called with the :class:`Recorded` request
    #: and its result used as above.
    body: Any = None
    headers: Mapping[str, str] = field(default_factory=dict)
    #: seconds to wait before answering
    delay: float = 0.0
    #: close the connection without answering (TCP reset)
    reset: bool = False
    #: answer vectors of this size (default: the size asked for, else the service's)
    dims: int | None = None
    #: put a NaN in the first vector
    nan: bool = False
    #: answer this many vectors (default: one per text)
    count: int | None = None
    #: OpenAI shape: list the data in reverse order (each item keeps its ``index``)
    shuffle: bool = False
    #: Cohere: ``"v1"`` answers ``{"embeddings": [[…]]}``
    shape: str | None = None


def wire_format(path: str) -> str | None:
    if path.endswith(":batchEmbedContents"):
        return "gemini"
    if path.endswith("/api/embed"):
        return "ollama"
    if path.endswith("/embed"):
        return "cohere"
    if path.endswith("/embeddings"):
        return "openai"
    return None


def texts_of(kind: str | None, body: Any) -> list[str]:
    """The texts of a request body in wire format ``kind`` ([] when unreadable)."""
    try:
        if kind == "gemini":
            return [str(r["content"]["parts"][0]["text"]) for r in body["requests"]]
        if kind == "cohere":
            return [str(t) for t in body["texts"]]
        if kind in ("openai", "ollama"):
            inp = body["input"]
            return [inp] if isinstance(inp, str) else [str(t) for t in inp]
    except (KeyError, IndexError, TypeError):
        pass
    return []


def asked_dims(kind: str | None, body: Any) -> int | None:
    """The output size a request asks for, if any."""
    try:
        if kind == "gemini":
            return body["requests"][0].get("outputDimensionality")  # type: ignore[no-any-return]
        return body.get("dimensions") or body.get("output_dimension")  # type: ignore[no-any-return]
    except (AttributeError, IndexError, KeyError, TypeError):
        return None


def answer(kind: str, rec: Recorded, step: Step, dims: int) -> Any:
    """A correct answer to ``rec`` in wire format ``kind``, bent as ``step`` says."""
    size = step.dims or asked_dims(kind, rec.body) or dims
    vecs = [vector(t, size) for t in rec.texts]
    if step.nan and vecs:
        vecs[0][0] = float("nan")
    if step.count is not None:
        vecs = [vecs[i % len(vecs)] if vecs else vector("", size) for i in range(step.count)]
    if kind == "gemini":
        return {"embeddings": [{"values": v} for v in vecs]}
    if kind == "ollama":
        return {"model": rec.body.get("model"), "embeddings": vecs}
    if kind == "cohere":
        if step.shape == "v1":
            return {"id": "fake", "embeddings": vecs, "texts": rec.texts}
        return {"id": "fake", "embeddings": {"float": vecs}, "texts": rec.texts,
                "response_type": "embeddings_by_type"}
    data = [{"object": "embedding", "index": i, "embedding": v} for i, v in enumerate(vecs)]
    if step.shuffle:
        data.reverse()
    return {"object": "list", "data": data, "model": rec.body.get("model"),
            "usage": {"prompt_tokens": 1, "total_tokens": 1}}


class FakeEmbeddingService:
    """The service, in a background thread; use as a context manager."""

    def __init__(self, dims: int = DIMS) -> None:
        self.dims = dims
        self.default = Step()
        self.requests: list[Recorded] = []
        #: Seconds to hold each request, by who sends it (e.g. its ``authorization``
        #: header), before answering as its step says: a test can hold one client's
        #: calls while others go through.
        self.hold: Callable[[Recorded], float] = lambda rec: 0.0
        #: Requests being answered now, and the most there were at once.
        self.in_flight = 0
        self.peak_in_flight = 0
        self._steps: deque[Step] = deque()
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # ---------------------------------------------------------------- control

    @property
    def url(self) -> str:
        assert self._server is not None, "service not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def script(self, *steps: Step) -> None:
        """Answer the next requests with ``steps``, in order (then :attr:`default`)."""
        with self._lock:
            self._steps.extend(steps)

    def config(self, provider: str, *, key: str | None = "test-key-0000", path: str = "",
               **extra: Any) -> dict[str, Any]:
        """An ``embedding`` configuration pointing ``provider`` at this service."""
        out: dict[str, Any] = {"provider": provider, "endpoint": self.url + path, **extra}
        if key is not None:
            out["api_key"] = key
        return out

    def wait_for(self, count: int, timeout: float = 10.0) -> None:
        """Block until ``count`` requests have arrived."""
        end = time.monotonic() + timeout
        while len(self.requests) < count:
            assert time.monotonic() < end, f"{len(self.requests)} requests, waited for {count}"
            time.sleep(0.01)

    def wait_dropped(self, index: int = -1, timeout: float = 10.0) -> bool:
        """Whether the client of request ``index`` went away (waits up to ``timeout``)."""
        end = time.monotonic() + timeout
        while not self.requests[index].dropped and time.monotonic() < end:
            time.sleep(0.01)
        return self.requests[index].dropped

    def _next_step(self) -> Step:
        with self._lock:
            return self._steps.popleft() if self._steps else self.default

    def __enter__(self) -> FakeEmbeddingService:
        service = self

        class Handler(_Handler):
            owner = service

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever,
                                        kwargs={"poll_interval": 0.05}, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
        if self._thread is not None:
            self._thread.join(timeout=10)


class _Handler(BaseHTTPRequestHandler):
    owner: FakeEmbeddingService
    protocol_version = "HTTP/1.1"  # keep-alive, as real services

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def do_GET(self) -> None:
        self._send(404, b'{"error": "not found"}')

    def do_POST(self) -> None:
        owner = self.owner
        with owner._lock:
            owner.in_flight += 1
            owner.peak_in_flight = max(owner.peak_in_flight, owner.in_flight)
        try:
            self._answer_post()
        finally:
            with owner._lock:
                owner.in_flight -= 1

    def _answer_post(self) -> None:
        owner = self.owner
        raw = self.rfile.read(int(self.headers.get("content-length") or 0))
        parts = urlsplit(self.path)
        try:
            body = json.loads(raw)
        except ValueError:
            body = None
        kind = wire_format(parts.path)
        rec = Recorded("POST", parts.path, dict(parse_qsl(parts.query)),
                       {k.lower(): v for k, v in self.headers.items()}, body,
                       texts_of(kind, body), raw_query=parts.query)
        with owner._lock:
            owner.requests.append(rec)
        step = owner._next_step()
        rec.status = step.status
        delay = step.delay + owner.hold(rec)
        if delay and not self._wait(delay, rec):
            self.close_connection = True
            return
        if step.reset:
            # SO_LINGER 0: close() sends a TCP reset, no answer at all
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
            self.close_connection = True
            return
        content = step.body(rec) if callable(step.body) else step.body
        if content is None and step.status >= 300:
            content = {"error": {"message": f"HTTP {step.status}"}}
        if content is None:
            if kind is None:
                self._send(404, b'{"error": "no such endpoint"}', step.headers)
                return
            if not rec.texts:
                self._send(400, b'{"error": "no input texts"}', step.headers)
                return
            content = answer(kind, rec, step, owner.dims)
        if isinstance(content, str):
            content = content.encode()
        elif not isinstance(content, bytes):
            content = json.dumps(content).encode()  # NaN goes out as NaN, as a buggy server
        self._send(step.status, content, step.headers)

    def _wait(self, seconds: float, rec: Recorded) -> bool:
        """Sleep ``seconds``; False as soon as the client closes the connection."""
        end = time.monotonic() + seconds
        sock = self.connection
        while (left := end - time.monotonic()) > 0 and not self.owner._stopping.is_set():
            readable, _, _ = select.select([sock], [], [], min(left, 0.05))
            if readable:
                try:
                    gone = not sock.recv(1, socket.MSG_PEEK)
                except OSError:
                    gone = True
                if gone:
                    rec.dropped = True
                    return False
        return True

    def _send(self, status: int, content: bytes,
              headers: Mapping[str, str] | None = None) -> None:
        try:
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(content)))
            for k, v in (headers or {}).items():
                self.send_header(k, v)
            self.end_headers()
            self.wfile.write(content)
        except OSError:  # the client went away
            self.close_connection = True


@contextlib.contextmanager
def fresh_service(dims: int = DIMS) -> Iterator[FakeEmbeddingService]:
    """A started service, the process's cooldown book cleared before and after: a
    ``Retry-After`` one test provoked must not make the next test's calls fail fast."""
    COOLDOWNS.clear()
    try:
        with FakeEmbeddingService(dims) as service:
            yield service
    finally:
        COOLDOWNS.clear()


__all__ = ["DIMS", "FakeEmbeddingService", "Recorded", "Step", "expected", "fresh_service",
           "vector"]
