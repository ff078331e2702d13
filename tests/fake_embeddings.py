"""A real OpenAI-shaped embeddings server on 127.0.0.1, for doctor, CLI and server tests.

``POST <base>/embeddings`` with ``{"input": [...], "model": ...}`` answers
``{"data": [{"index": i, "embedding": [...]}]}`` with hashed bag-of-words
vectors (:func:`chatmem.testing.hash_vector`), so recall works through it.
``key`` makes it demand ``Authorization: Bearer <key>`` (a wrong one gets a 401
whose body echoes what was sent, as some services do: a test for redaction);
``fail_status`` makes every request fail with that status.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from chatmem.testing import hash_vector


class FakeOpenAI:
    def __init__(self, *, dim: int = 16, key: str | None = None) -> None:
        self.dim = dim
        self.key = key
        self.fail_status: int | None = None
        #: (path, headers with lower-case names, body) of every request, in order.
        self.requests: list[tuple[str, dict[str, str], Any]] = []
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    @property
    def url(self) -> str:
        """The base URL (``…/v1``) to put in ``embedding.endpoint``."""
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}/v1"

    def __enter__(self) -> FakeOpenAI:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:
                pass

            def do_POST(self) -> None:
                raw = self.rfile.read(int(self.headers.get("content-length") or 0))
                body = json.loads(raw or b"null")
                fake.requests.append((self.path, {k.lower(): v for k, v in self.headers.items()},
                                      body))
                auth = self.headers.get("authorization", "")
                if fake.key is not None and auth != f"Bearer {fake.key}":
                    self.reply(401, {"error": {"message": f"Incorrect API key: {auth!r}"}})
                elif fake.fail_status is not None:
                    self.reply(fake.fail_status, {"error": {"message": "upstream is down"}})
                elif self.path != "/v1/embeddings":
                    self.reply(404, {"error": {"message": f"no route {self.path}"}})
                else:
                    self.reply(200, {"object": "list", "model": body.get("model"), "data": [
                        {"object": "embedding", "index": i,
                         "embedding": hash_vector(t, fake.dim).tolist()}
                        for i, t in enumerate(body["input"])]})

            def reply(self, status: int, data: Any) -> None:
                payload = json.dumps(data).encode()
                self.send_response(status)
                self.send_header("content-type", "application/json")
                self.send_header("content-length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None and self._thread is not None
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=10)

    @property
    def texts(self) -> list[str]:
        """Every text embedded, in order."""
        return [t for path, _, body in self.requests if isinstance(body, dict)
                for t in body.get("input", [])]
