"""The HTTP API (I4): the Memory facade over JSON, documented by OpenAPI (``/docs``).

``chatmem serve`` runs :func:`create_app` under uvicorn. Every route under ``/v1``
is one :class:`~chatmem.Memory` call:

=========================  ==================================================
``POST /v1/messages``      add messages (committed before the answer)
``POST /v1/rewrite``       rewrite a stored message (F3)
``POST /v1/recall``        recall: structured hits and the rendered memory
``POST /v1/context``       the messages to put before the conversation (I1)
``GET  /v1/settings``      the effective scope of a conversation (F10)
``PUT  /v1/settings``      set or remove a layer's scope (owner keys only)
``POST /v1/clear``         clear vectors, messages or both (owner keys only)
``GET  /v1/stats``         counts of messages, vectors, indexer and embedder
``GET  /v1/tool``          the ``memory_recall`` tool schema (I2)
``POST /v1/tool``          call ``memory_recall`` as the model would
``GET  /health``           liveness (no key needed)
``GET  /metrics``          Prometheus text format (no key needed)
=========================  ==================================================

Access (R4): each API key (``Authorization: Bearer <key>``) maps to one
*namespace*, and each namespace is its own store, opened on first use from the
storage URL with ``{namespace}`` filled in (``sqlite:///data/{namespace}.db``,
``postgresql://…?schema=cm_{namespace}``); so no request can reach another
namespace's messages. A key's ``role`` is ``user`` or ``owner``; changing
settings and clearing need ``owner``, and the acting owner is the key, not a
claim in the body. Without a key table the server is open, with the single
namespace ``default``, and :func:`check_bind` allows that on loopback only.

Errors have one shape, ``{"error": {"type", "message"}}``: 400 bad input (the
message names the field), 401 no or unknown key, 403 not allowed, 404 not
found, 413 body too large, 422 a body that does not match the schema, 503 the
store or the embedding provider is unavailable.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import logging
import re
import time
from collections import Counter
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import Depends, FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from ..config import Config
from ..embedding import Embedder, create_embedder
from ..errors import (
    ChatmemError,
    ConfigError,
    EmbeddingUnavailable,
    FilterError,
    InvalidInput,
    NotFound,
    PermissionDenied,
    RecallUnavailable,
    StoreError,
)
from ..memory import Memory

log = logging.getLogger("chatmem.server.http")

#: Largest request body accepted, in bytes (R3: a clear 413, not a stalled worker).
MAX_BODY_BYTES = 8 * 1024 * 1024
NAMESPACE_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
DEFAULT_NAMESPACE = "default"


# --------------------------------------------------------------------------- keys


@dataclass(frozen=True)
class ApiKey:
    """One API key: who (``name``), where (``namespace``) and what it may do (``role``)."""

    name: str
    namespace: str
    role: Literal["user", "owner"]
    sha256: str  # of the key itself: the table never needs the plain key after loading


class KeyTable:
    """Bearer keys → :class:`ApiKey`, compared in constant time."""

    def __init__(self, keys: list[ApiKey]) -> None:
        self.keys = keys

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "keys") -> KeyTable:
        """Read ``{"keys": {name: {key | key_sha256, namespace, role}}}`` (a TOML table)."""
        table = data.get("keys")
        if not isinstance(table, Mapping) or not table:
            raise ConfigError(f"{source}: needs a [keys.<name>] table with key, namespace "
                              "and role, e.g. [keys.alice-bot] key = \"…\" namespace = "
                              "\"alice\" role = \"owner\"")
        keys = []
        for name, entry in table.items():
            where = f"{source}: keys.{name}"
            if not isinstance(entry, Mapping):
                raise ConfigError(f"{where} must be a table")
            unknown = sorted(set(entry) - {"key", "key_sha256", "namespace", "role"})
            if unknown:
                raise ConfigError(f"{where}: unknown field(s) {', '.join(unknown)}")
            plain, hashed = entry.get("key"), entry.get("key_sha256")
            if (plain is None) == (hashed is None):
                raise ConfigError(f"{where}: give exactly one of key or key_sha256")
            if plain is not None and (not isinstance(plain, str) or len(plain) < 16):
                raise ConfigError(f"{where}.key must be a string of at least 16 characters")
            if hashed is not None and (not isinstance(hashed, str)
                                       or not re.fullmatch(r"[0-9a-f]{64}", hashed)):
                raise ConfigError(f"{where}.key_sha256 must be 64 lowercase hex digits")
            ns = entry.get("namespace")
            if not isinstance(ns, str) or not NAMESPACE_RE.match(ns):
                raise ConfigError(f"{where}.namespace must match {NAMESPACE_RE.pattern} "
                                  f"(letters, digits, - and _), got {ns!r}")
            role = entry.get("role", "user")
            if role not in ("user", "owner"):
                raise ConfigError(f"{where}.role must be 'user' or 'owner', got {role!r}")
            digest = hashed if hashed is not None else _sha256(str(plain))
            keys.append(ApiKey(str(name), ns, role, digest))
        if len({k.sha256 for k in keys}) != len(keys):
            raise ConfigError(f"{source}: two entries share one key")
        return cls(keys)

    @property
    def namespaces(self) -> set[str]:
        return {k.namespace for k in self.keys}

    def find(self, token: str) -> ApiKey | None:
        digest = _sha256(token)
        found = None
        for k in self.keys:  # no early exit: the time does not depend on which key matched
            if hmac.compare_digest(k.sha256, digest):
                found = k
        return found


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_bind(host: str, keys: KeyTable | None, *, allow_open: bool = False) -> None:
    """An open server (no keys) listens on loopback only, unless explicitly allowed."""
    if keys is not None or allow_open:
        return
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if not loopback:
        raise ConfigError(f"refusing to serve {host} without API keys: pass --keys keys.toml "
                          "(see README § HTTP server) or bind 127.0.0.1")


def namespace_url(url: str, namespace: str, keys: KeyTable | None) -> str:
    """The storage URL of one namespace (``{namespace}`` filled in)."""
    if "{namespace}" in url:
        return url.replace("{namespace}", namespace)
    if keys is not None and len(keys.namespaces) > 1:
        raise ConfigError("the keys map to several namespaces, so the storage URL must "
                          "contain {namespace}, e.g. sqlite:///data/{namespace}.db or "
                          "postgresql://…?schema=cm_{namespace}")
    return url


# --------------------------------------------------------------------------- namespaces


class Namespaces:
    """One open :class:`Memory` per namespace, opened on first use, sharing one embedder."""

    def __init__(self, url: str, vector: str | None, config: Config, keys: KeyTable | None,
                 embedder: Embedder) -> None:
        self.url, self.vector, self.config, self.keys = url, vector, config, keys
        self.embedder = embedder
        self.open: dict[str, Memory] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        if keys is not None:  # a bad template fails at start-up, not at the first request
            namespace_url(url, next(iter(keys.namespaces)), keys)

    async def get(self, namespace: str) -> Memory:
        mem = self.open.get(namespace)
        if mem is not None:
            return mem
        lock = self._locks.setdefault(namespace, asyncio.Lock())
        async with lock:
            mem = self.open.get(namespace)
            if mem is None:
                vector = self.vector.replace("{namespace}", namespace) if self.vector else None
                mem = await Memory.open(namespace_url(self.url, namespace, self.keys),
                                        vector=vector, embedder=self.embedder,
                                        config=self.config)
                self.open[namespace] = mem
                log.info("namespace %s opened", namespace)
            return mem

    async def close(self) -> None:
        for ns, mem in list(self.open.items()):
            try:
                await mem.close()
            except ChatmemError as exc:
                log.warning("closing namespace %s: %s", ns, exc)
        self.open.clear()


# --------------------------------------------------------------------------- request bodies


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class MessageIn(_Body):
    """A message to store (the fields of :class:`chatmem.Message`)."""

    session_id: str = Field(description="The conversation (a session id).")
    content: str = Field(description="The text as the model sees it.")
    role: str = Field("user", description="user, assistant, system, tool or notice.")
    ts: int | None = Field(None, description="Milliseconds since the epoch; default now.")
    id: str | None = Field(None, description="Your id; a retry with the same id is a no-op.")
    kind: str = Field("message", description="message, divider, command_reply or directive.")
    visible_content: str | None = Field(None, description="What the user saw, if different.")
    source: str | None = Field(None, description="Set for internal injections (not embedded).")
    speaker_id: str | None = None
    speaker_name: str | None = None
    mentions: list[str] = Field(default_factory=list)
    platform: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class AddBody(_Body):
    messages: list[MessageIn] = Field(min_length=1, max_length=1000)


class RewriteBody(_Body):
    session: str
    ts: int
    content: str | None = None
    visible_content: str | None = None
    metadata: dict[str, Any] | None = None


class WindowBody(_Body):
    before: int = Field(ge=0)
    after: int = Field(ge=0)


class RecallBody(_Body):
    query: str | list[str] = Field(description="This turn's input text(s).")
    session: str | None = Field(None, description="The conversation asking.")
    platform: str | None = None
    top_k: int | None = Field(None, ge=1, le=100)
    min_score: float | None = Field(None, ge=0, le=1)
    scope: str | None = Field(None, description="all, user, platform, resource or session.")
    window: int | WindowBody | None = Field(None, description="Neighbours each side.")
    cross_session: bool | None = None
    filter: dict[str, Any] | None = Field(None, description="Session-metadata filter.")
    speakers: list[str] = Field(default_factory=list)
    exclude_ids: list[str] = Field(default_factory=list)
    now: int | None = Field(None, description="Milliseconds; default now (for decay).")


class ContextBody(_Body):
    turn: str | list[str] = Field(description="This turn's input text(s).")
    session: str
    speakers: list[str] = Field(default_factory=list)
    exclude_ids: list[str] = Field(default_factory=list)


class SettingsBody(_Body):
    scope: str | None = Field(description="The scope to set; null removes the layer's value.")
    layer: Literal["platform", "chat_type", "group", "session"] = "session"
    platform: str | None = None
    chat_type: str | None = None
    group_id: str | None = None
    session: str | None = None


class ClearBody(_Body):
    target: Literal["vector", "context", "all"] = "all"
    session: str | None = None


class CallerBody(_Body):
    session_id: str
    speaker_id: str | None = None
    platform: str | None = None


class ToolBody(_Body):
    arguments: dict[str, Any] | str = Field(description="The model's tool-call arguments.")
    caller: CallerBody


# --------------------------------------------------------------------------- metrics


class Metrics:
    """Request counters and latency sums, rendered with the stores' counts."""

    def __init__(self) -> None:
        self.requests: Counter[tuple[str, str, int]] = Counter()
        self.seconds: dict[tuple[str, str], float] = {}

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        self.requests[(method, route, status)] += 1
        self.seconds[(method, route)] = self.seconds.get((method, route), 0.0) + seconds

    async def render(self, namespaces: Namespaces) -> str:
        lines = ["# HELP chatmem_http_requests_total HTTP requests by route and status.",
                 "# TYPE chatmem_http_requests_total counter"]
        for (method, route, status), n in sorted(self.requests.items()):
            lines.append(f'chatmem_http_requests_total{{method="{method}",route="{route}",'
                         f'status="{status}"}} {n}')
        lines += ["# HELP chatmem_http_request_seconds_total Time spent answering requests.",
                  "# TYPE chatmem_http_request_seconds_total counter"]
        for (method, route), s in sorted(self.seconds.items()):
            lines.append(f'chatmem_http_request_seconds_total{{method="{method}",'
                         f'route="{route}"}} {s:.6f}')
        gauges = {"messages": "stored messages", "indexed": "messages with a vector",
                  "pending": "messages waiting for indexing", "failed": "failed embeddings"}
        stats = {}
        for ns, mem in sorted(namespaces.open.items()):
            try:
                stats[ns] = await mem.stats()
            except ChatmemError as exc:
                log.warning("metrics: stats of %s failed: %s", ns, exc)
        for key, help_text in gauges.items():
            lines += [f"# HELP chatmem_{key} {help_text.capitalize()}, per namespace.",
                      f"# TYPE chatmem_{key} gauge"]
            lines += [f'chatmem_{key}{{namespace="{ns}"}} {s[key]}' for ns, s in stats.items()]
        return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- app


@dataclass(frozen=True)
class Principal:
    """Who is asking: the key's name, its namespace and role."""

    name: str
    namespace: str
    role: str


_bearer = HTTPBearer(auto_error=False)


async def _principal(request: Request, creds: Annotated[HTTPAuthorizationCredentials | None,
                                                         Depends(_bearer)]) -> Principal:
    keys: KeyTable | None = request.app.state.keys
    if keys is None:
        return Principal("anonymous", DEFAULT_NAMESPACE, "owner")
    if creds is None:
        raise _Unauthorized("send Authorization: Bearer <API key>")
    found = keys.find(creds.credentials)
    if found is None:
        raise _Unauthorized("unknown API key")
    return Principal(found.name, found.namespace, found.role)


async def _memory(request: Request, who: Annotated[Principal, Depends(_principal)]) -> Memory:
    namespaces: Namespaces = request.app.state.namespaces
    return await namespaces.get(who.namespace)


#: Route parameters: the caller (from the bearer key) and its namespace's Memory.
Who = Annotated[Principal, Depends(_principal)]
Mem = Annotated[Memory, Depends(_memory)]


class _Unauthorized(Exception):
    pass


def _error(status: int, kind: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status,
                        headers=headers or None)


_STATUS: list[tuple[type[ChatmemError], int]] = [
    (InvalidInput, 400), (FilterError, 400), (ConfigError, 400), (NotFound, 404),
    (PermissionDenied, 403),
    (EmbeddingUnavailable, 503), (StoreError, 503), (RecallUnavailable, 503),
]


def create_app(*, url: str, vector: str | None = None, config: Config | None = None,
               keys: KeyTable | None = None, embedder: Embedder | None = None) -> FastAPI:
    """The ASGI app; ``url`` may hold ``{namespace}`` (required with several namespaces)."""
    cfg = config or Config.load()
    emb = embedder or create_embedder(cfg.embedding)
    namespaces = Namespaces(url, vector, cfg, keys, emb)
    metrics = Metrics()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await namespaces.close()

    app = FastAPI(title="chatmem", summary="Semantic long-term memory for chat agents",
                  version=_version(), lifespan=lifespan)
    app.state.namespaces = namespaces
    app.state.keys = keys

    def owner_only(who: Principal, what: str) -> None:
        if who.role != "owner":
            raise PermissionDenied(f"{what} needs an owner key; key {who.name!r} has role "
                                   f"{who.role!r}")

    @app.middleware("http")
    async def limits_and_metrics(request: Request, call_next: Any) -> Any:
        start = time.perf_counter()
        size = request.headers.get("content-length")
        if size is not None and size.isdigit() and int(size) > MAX_BODY_BYTES:
            response = _error(413, "PayloadTooLarge",
                              f"request body over {MAX_BODY_BYTES} bytes; send fewer messages "
                              "per request")
        else:
            response = await call_next(request)
        route = request.scope.get("route")
        path = getattr(route, "path", "unmatched")
        metrics.observe(request.method, path, response.status_code,
                        time.perf_counter() - start)
        return response

    @app.exception_handler(_Unauthorized)
    async def _unauthorized(request: Request, exc: _Unauthorized) -> JSONResponse:
        return _error(401, "Unauthorized", str(exc), **{"WWW-Authenticate": "Bearer"})

    @app.exception_handler(ChatmemError)
    async def _chatmem_error(request: Request, exc: ChatmemError) -> JSONResponse:
        status = next((code for cls, code in _STATUS if isinstance(exc, cls)), 500)
        if status >= 500:
            log.warning("%s %s: %s: %s", request.method, request.url.path,
                        type(exc).__name__, exc)
        return _error(status, type(exc).__name__, str(exc))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors():
            loc = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{loc or 'body'}: {err.get('msg', 'invalid')}")
        return _error(422, "InvalidRequest", "; ".join(parts))

    @app.get("/health", tags=["operations"])
    async def health() -> dict[str, Any]:
        """Liveness; no key needed."""
        return {"status": "ok", "namespaces_open": len(namespaces.open)}

    @app.get("/metrics", tags=["operations"], response_class=PlainTextResponse)
    async def prometheus() -> str:
        """Prometheus text format: requests per route and status, and per-namespace counts
        of the namespaces opened so far. No key needed."""
        return await metrics.render(namespaces)

    @app.post("/v1/messages", tags=["memory"])
    async def add(body: AddBody, mem: Mem) -> dict[str, Any]:
        """Store messages; they are committed before the answer and indexed in the
        background. A retry with the same ``id`` and content is a no-op."""
        stored = await mem.add([m.model_dump() for m in body.messages])
        return {"messages": [m.to_dict() for m in stored]}

    @app.post("/v1/rewrite", tags=["memory"])
    async def rewrite(body: RewriteBody, mem: Mem) -> dict[str, Any]:
        """Change a stored message (found by session and ts); its vector follows (F3)."""
        msg = await mem.rewrite(body.session, body.ts, content=body.content,
                                visible_content=body.visible_content, metadata=body.metadata)
        return {"message": msg.to_dict()}

    @app.post("/v1/recall", tags=["memory"])
    async def recall(body: RecallBody, mem: Mem) -> dict[str, Any]:
        """Recall past messages relevant to the query, within the visible scope."""
        window = body.window.model_dump() if isinstance(body.window, WindowBody) \
            else body.window
        result = await mem.recall(
            body.query, session=body.session, platform=body.platform, top_k=body.top_k,
            min_score=body.min_score, scope=body.scope, window=window,
            cross_session=body.cross_session, filter=body.filter, speakers=body.speakers,
            exclude_ids=body.exclude_ids, now=body.now)
        return result.to_dict()

    @app.post("/v1/context", tags=["memory"])
    async def context(body: ContextBody, mem: Mem) -> dict[str, Any]:
        """The messages to put before the conversation: the recall system message (when
        anything is recalled) and the session's last messages (M2)."""
        return {"messages": await mem.context(body.turn, session=body.session,
                                              speakers=body.speakers,
                                              exclude_ids=body.exclude_ids)}

    @app.get("/v1/settings", tags=["settings"])
    async def get_settings(mem: Mem, session: str, platform: str | None = None
                           ) -> dict[str, Any]:
        """The effective scope of a conversation and the layer it comes from (F10)."""
        eff = await mem.settings.effective(await mem.where(session, platform))
        return {"scope": eff.scope, "layer": eff.layer, "broken": eff.broken}

    @app.put("/v1/settings", tags=["settings"])
    async def put_settings(body: SettingsBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Set (or, with ``scope: null``, remove) one layer's scope. Owner keys only."""
        owner_only(who, "changing settings")
        await mem.settings.set(body.scope, actor={"id": who.name, "role": "owner"},
                               layer=body.layer, platform=body.platform,
                               chat_type=body.chat_type, group_id=body.group_id,
                               session=body.session)
        return {"ok": True}

    @app.post("/v1/clear", tags=["settings"])
    async def clear(body: ClearBody, mem: Mem, who: Who) -> dict[str, int]:
        """Clear the vector index, the messages or both (F12). Owner keys only."""
        owner_only(who, "clearing")
        return await mem.clear(body.target, session=body.session)

    @app.get("/v1/stats", tags=["operations"])
    async def stats(mem: Mem) -> dict[str, Any]:
        """Counts of messages (indexed, pending, failed), vectors per model, indexer and
        embedder state."""
        return await mem.stats()

    @app.get("/v1/tool", tags=["tool"])
    async def tool_schema(mem: Mem) -> dict[str, Any]:
        """The ``memory_recall`` tool in OpenAI tools format."""
        return mem.tool_schema()

    @app.post("/v1/tool", tags=["tool"])
    async def call_tool(body: ToolBody, mem: Mem) -> dict[str, Any]:
        """Run ``memory_recall`` with the model's arguments for the calling conversation;
        arguments may only narrow the configuration."""
        return await mem.call_tool(body.arguments, body.caller.model_dump())

    return app


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chatmem")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


def serve(*, url: str, vector: str | None, config: Config, keys: KeyTable | None, host: str,
          port: int, allow_open: bool = False) -> None:
    """Run the API under uvicorn until interrupted (``chatmem serve``)."""
    import uvicorn

    check_bind(host, keys, allow_open=allow_open)
    app = create_app(url=url, vector=vector, config=config, keys=keys)
    log.info("chatmem API on http://%s:%d (docs at /docs)", host, port)
    uvicorn.run(app, host=host, port=port, log_level="info", access_log=False)


__all__ = ["ApiKey", "KeyTable", "Namespaces", "check_bind", "create_app", "namespace_url",
           "serve"]
