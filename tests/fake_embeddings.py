"""A real OpenAI-shaped embeddings server on 127.0.0.1, for doctor, CLI and server tests.

``POST <base>/embeddings`` with ``{"input": [...], "model": ...}`` answers
``{"data": [{"index": i, "embedding": [...]}]}`` with hashed bag-of-words
vectors (:func:`chatmem.testing.hash_vector`), so recall works through it.
``key`` makes it demand ``Authorization: Bearer <key>`` (a wrong one gets a 401
whose body echoes what was sent, as some services do: a test for redaction);
``fail_status`` makes every request fail with that status.

``POST <base>/chat/completions`` checks the message list as the OpenAI API does
(roles, content strings or parts, ``tool_call_id`` on tool messages; 400
otherwise) and answers ``fake reply <n>: <the last user text>`` (n counts from 1): a chat loop
with the real ``openai`` client runs against it.
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
                elif self.path == "/v1/chat/completions":
                    self.reply(*fake.chat(body))
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
    def chats(self) -> list[list[dict[str, Any]]]:
        """The message list of every chat completion asked for, in order."""
        return [body["messages"] for path, _, body in self.requests
                if path == "/v1/chat/completions" and isinstance(body, dict)]

    def chat(self, body: Any) -> tuple[int, Any]:
        """(status, answer) of one chat completion request."""
        problem = chat_problem(body)
        if problem:
            return 400, {"error": {"message": problem, "type": "invalid_request_error"}}
        users = [m.get("content") for m in body["messages"] if m["role"] == "user"]
        last = users[-1] if users and isinstance(users[-1], str) else ""
        n = len(self.chats)  # this request included
        return 200, {
            "id": f"chatcmpl-{n}", "object": "chat.completion", "created": 1_700_000_000,
            "model": body["model"],
            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                         "message": {"role": "assistant", "content": f"fake reply {n}: {last}",
                                     "refusal": None}}],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }

    @property
    def texts(self) -> list[str]:
        """Every text embedded, in order."""
        return [t for path, _, body in self.requests if isinstance(body, dict)
                for t in body.get("input", [])]


CHAT_ROLES = {"system", "developer", "user", "assistant", "tool"}
CHAT_FIELDS = {"role", "content", "name", "tool_calls", "tool_call_id", "refusal", "audio",
               "function_call"}


def chat_problem(body: Any) -> str | None:
    """What the OpenAI API would refuse in a chat completion request, else ``None``."""
    if not isinstance(body, dict) or not isinstance(body.get("model"), str):
        return "model is required"
    messages = body.get("messages")
    if not isinstance(messages, list) or not messages:
        return "messages must be a non-empty list"
    for i, m in enumerate(messages):
        if not isinstance(m, dict) or m.get("role") not in CHAT_ROLES:
            return f"messages[{i}]: invalid role"
        if set(m) - CHAT_FIELDS:
            return f"messages[{i}]: unrecognized fields {sorted(set(m) - CHAT_FIELDS)}"
        content = m.get("content")
        if content is None:
            if not (m["role"] == "assistant" and m.get("tool_calls")):
                return f"messages[{i}].content is required"
        elif isinstance(content, list):
            if not all(isinstance(p, dict) and isinstance(p.get("type"), str)
                       for p in content):
                return f"messages[{i}].content: invalid parts"
        elif not isinstance(content, str):
            return f"messages[{i}].content must be a string or a list of parts"
        if m["role"] == "tool" and not isinstance(m.get("tool_call_id"), str):
            return f"messages[{i}].tool_call_id is required"
    return None
