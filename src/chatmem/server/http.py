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
``GET  /v1/messages``      list stored messages, a page at a time (I8), ``text`` search
``POST /v1/messages/get``  stored messages by id
``POST /v1/messages/delete`` erase messages by id (owner keys only)
``POST /v1/forget``        erase a speaker, session or resource (owner keys only)
``GET  /v1/retention``     the retention of a conversation and the layer it comes from
``PUT  /v1/retention``     set or remove a layer's retention (owner keys only)
``GET  /v1/stats``         counts of messages, vectors, indexer and embedder (owner keys only)
``GET  /v1/sessions``      sessions with counts, last activity, scope and retention
``GET  /v1/sessions/{id}`` a stored session (404 when it has no row)
``PUT  /v1/sessions/{id}`` register or replace a session (owner keys only)
``GET  /v1/tool``          the ``memory_recall`` tool schema (I2)
``POST /v1/tool``          call ``memory_recall`` as the model would
``GET  /v1/whoami``        the calling key's name, namespace and role
``GET  /health``           liveness (no key needed)
``GET  /console``          the web console (README § Console; its calls are these routes)
``GET  /metrics``          Prometheus text format (the metrics token; an owner key: its namespace)
=========================  ==================================================

Access (R4): each API key (``Authorization: Bearer <key>``) maps to one
*namespace*, and each namespace is its own store, opened on first use from the
storage URL with ``{namespace}`` filled in (``sqlite:///data/{namespace}.db``,
``postgresql://…?schema=cm_{namespace}``); so no request can reach another
namespace's messages. A key's ``role`` is ``user`` or ``owner``; changing
settings, registering sessions and clearing need ``owner``, and the acting owner is
the key, not a claim in the body. A user key may only narrow (R6): its recall must
name the ``session`` asking, and a ``scope`` wider than that session's effective
scope is clamped, as for the tool; what no conversation's view narrows, the
namespace's counts (``/v1/stats``, ``/metrics``), is refused to it (403). Without a
key table the server is open, with the single namespace ``default``, and
:func:`check_bind` allows that on loopback only.

The outermost layer (:class:`_Guard`, plain ASGI) checks the key *before* any of
the body is read, counts body bytes as they stream (413 past
:data:`MAX_BODY_BYTES`, whatever ``Content-Length`` says), and counts every
answer in the metrics, 500s included. Under ``chatmem serve`` a client has
:class:`~chatmem.server.limits.ClientLimits`' seconds for a request's head and for each
chunk of its body, and connections past a cap are refused (503).

Errors have one shape, ``{"error": {"type", "message"}}``: 400 bad input (the
message names the field), 401 no or unknown key, 403 not allowed, 404 not
found, 405 wrong method, 408 a body that stalled, 413 body too large, 422 a body
that does not match the schema (in chatmem's words, naming the field as a 400 does:
:func:`~chatmem.refusals.schema_errors`), 500 a bug (logged with its
traceback), 503 the store or the embedding provider is unavailable.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import ipaddress
import json
import logging
import re
import sys
import time
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Annotated, Any, Literal
from urllib.parse import unquote_to_bytes

from fastapi import APIRouter, Depends, FastAPI, Path, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from fastapi.routing import APIRoute
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi_offline import FastAPIOffline
from prometheus_client import CONTENT_TYPE_LATEST
from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    StrictBool,
    TypeAdapter,
    ValidationError,
    ValidatorFunctionWrapHandler,
    WrapValidator,
    field_validator,
)
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match
from starlette.types import Message, Receive, Scope, Send

from ..config import MAX_TOP_K, MIN_SCORE_TAKES, TOP_K_TAKES, Config
from ..embedding import Embedder, create_embedder
from ..errors import (
    ChatmemError,
    ConfigError,
    DamagedRow,
    EmbeddingUnavailable,
    FilterError,
    InvalidInput,
    NotFound,
    PermissionDenied,
    RecallUnavailable,
    StoreError,
)
from ..memory import MAX_CURSOR_CHARS, MAX_PAGE_CHARS, Memory, text_chars
from ..models import LIMIT_TAKES, MAX_LABEL_CHARS, MAX_PAGE, TOO_MUCH_TEXT, Session, check_label
from ..models import Message as StoredMessage
from ..refusals import (
    DuplicateKey,
    as_given,
    describe,
    lone_surrogate,
    one_of_each,
    read_float,
    schema_errors,
    unknown_fields,
)
from ..store.urls import check_store_url, check_vector_url
from . import UVICORN_STARTUP_FAILURE, ToldLog, stop_signals, told, told_degraded, uvicorn_server
from .console import is_console_path, mount_console
from .limits import (
    ClientLimits,
    ClientTooSlow,
    NoFreeSlot,
    RequestSlots,
    deadline_receive,
    foreign_host,
    foreign_origin,
    has_body,
    protocol_class,
    scope_headers,
)
from .metrics import Metrics

log = logging.getLogger("chatmem.server.http")

#: Largest request body accepted, in bytes (R3: a clear 413, not a stalled worker).
MAX_BODY_BYTES = 8 * 1024 * 1024
NAMESPACE_RE = re.compile(r"^[a-z0-9][a-z0-9_-]{0,62}$")
#: What :data:`NAMESPACE_RE` takes, in words: lowercase, as a namespace fills a file
#: name (one file on a case-insensitive file system) and a PostgreSQL schema name.
NAMESPACE_RULE = ("(lowercase letters, digits, - and _, starting with a letter or digit, "
                  "at most 63 characters)")
DEFAULT_NAMESPACE = "default"
#: The documented timestamp range, in milliseconds: 0 to the last millisecond of 9999.
TS_MAX = 253_402_300_799_999
#: Ids read at a time by ``POST /v1/messages/get``, which stops (400) once the
#: messages read hold more than a list page may (``MAX_PAGE_CHARS``): 1,000 ids of the
#: largest messages made an answer of up to 500 million characters.
GET_BATCH = 100
#: Largest context window (neighbours each side) a request may ask for.
MAX_WINDOW = 100
#: Routes served without a key (documentation and liveness).
PUBLIC_PATHS = frozenset({"/health", "/openapi.json", "/docs", "/docs/oauth2-redirect",
                          "/redoc"})
#: Where the Swagger UI and ReDoc assets are served from (no CDN: ``/docs`` works offline);
#: public like the pages that load them.
DOCS_ASSETS = "/docs-assets"
METRICS_PATH = "/metrics"
#: The requests that take one of ``--max-concurrent-requests`` slots (the API itself; the
#: health check, metrics, docs and console answer without one).
SLOTTED_PREFIX = "/v1/"


# --------------------------------------------------------------------------- keys


@dataclass(frozen=True)
class ApiKey:
    """One API key: who (``name``), where (``namespace``) and what it may do (``role``);
    ``sessions``: the only conversations a user key may act for (``None``: any);
    ``platform``: the only entry platform it may name (``None``: any)."""

    name: str
    namespace: str
    role: Literal["user", "owner"]
    sha256: str  # of the key itself: the table never needs the plain key after loading
    sessions: frozenset[str] | None = None
    platform: str | None = None


class KeyTable:
    """Bearer keys → :class:`ApiKey`, compared in constant time."""

    def __init__(self, keys: list[ApiKey], *, metrics_sha256: str | None = None,
                 source: str = "keys") -> None:
        self.keys = keys
        #: sha256 of the token that may read ``/metrics`` only (besides every key).
        self.metrics_sha256 = metrics_sha256
        #: Where the keys were read (the file), as a refusal of one of them names it.
        self.source = source

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any], *, source: str = "keys") -> KeyTable:
        """Read ``{"keys": {name: {key | key_sha256, namespace, role}}}`` (a TOML table),
        and optionally ``{"metrics": {token | token_sha256}}``: a token that may read
        ``/metrics`` and nothing else."""
        if not isinstance(data, Mapping):
            raise ConfigError(f"{source}: must be a table with [keys.<name>] entries")
        unknown_tables = sorted(set(data) - {"keys", "metrics"})
        if unknown_tables:
            raise ConfigError(f"{source}: unknown table(s) {', '.join(map(str, unknown_tables))}"
                              " (expected [keys.<name>] and optionally [metrics])")
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
            known = ["key", "key_sha256", "namespace", "role", "sessions", "platform"]
            unknown = sorted(str(k) for k in set(entry) - set(known))
            if unknown:
                raise ConfigError(unknown_fields(where, unknown, known))
            plain, hashed = entry.get("key"), entry.get("key_sha256")
            if (plain is None) == (hashed is None):
                raise ConfigError(f"{where}: give exactly one of key or key_sha256")
            if plain is not None and (not isinstance(plain, str) or len(plain) < 16):
                raise ConfigError(f"{where}.key must be a string of at least 16 characters")
            if hashed is not None and (not isinstance(hashed, str)
                                       or not re.fullmatch(r"[0-9a-f]{64}", hashed)):
                raise ConfigError(f"{where}.key_sha256 must be 64 lowercase hex digits")
            ns = entry.get("namespace")
            # fullmatch: "$" alone lets a trailing newline through ("abc\n" made abc\n.db)
            if not isinstance(ns, str) or not NAMESPACE_RE.fullmatch(ns):
                raise ConfigError(f"{where}.namespace must match {NAMESPACE_RE.pattern} "
                                  f"{NAMESPACE_RULE}, got {describe(ns)}")
            role = entry.get("role", "user")
            if role not in ("user", "owner"):
                # worded as the configuration's choices: the value as the file holds it
                raise ConfigError(f"{where}.role must be one of user, owner, got "
                                  f"{describe(role)}")
            digest = hashed if hashed is not None else _sha256(str(plain))
            keys.append(ApiKey(str(name), ns, role, digest,
                               _bound_sessions(entry.get("sessions"), role, where),
                               _bound_platform(entry.get("platform"), role, where)))
        if len({k.sha256 for k in keys}) != len(keys):
            raise ConfigError(f"{source}: two entries share one key")
        metrics = _metrics_token(data.get("metrics"), source)
        if metrics is not None and metrics in {k.sha256 for k in keys}:
            raise ConfigError(f"{source}: metrics.token is also an API key; give it its own")
        return cls(keys, metrics_sha256=metrics, source=source)

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

    def is_metrics_token(self, token: str) -> bool:
        """``token`` is the one that may read ``/metrics`` (every namespace's series) and
        nothing else; an owner key reads its own namespace's, a user key none."""
        return self.metrics_sha256 is not None and hmac.compare_digest(
            self.metrics_sha256, _sha256(token))


def _bound_sessions(value: Any, role: str, where: str) -> frozenset[str] | None:
    """``sessions = ["alice-dm", …]`` of a user key: the conversations it acts for."""
    if value is None:
        return None
    if role == "owner":
        raise ConfigError(f"{where}.sessions binds a user key to its conversations; an "
                          "owner key acts for the whole namespace (leave sessions out, or "
                          "role = \"user\")")
    problem = "" if isinstance(value, list) and value else "is empty or not a list"
    for i, session in enumerate(value if not problem else ()):
        try:  # a session id as the library checks one
            check_label(session, f"sessions[{i}]")
        except InvalidInput as exc:
            problem = str(exc)
            break
    if problem:
        raise ConfigError(f"{where}.sessions must be a non-empty list of session ids (1 to "
                          f"{MAX_LABEL_CHARS} characters each), e.g. sessions = "
                          f"[\"alice-dm\"] ({problem})")
    return frozenset(value)


def _bound_platform(value: Any, role: str, where: str) -> str | None:
    """``platform = "tg"`` of a user key: the only entry platform it may name. A session
    without an origin platform takes the request's (its settings' platform layer and
    scope ``platform``), so an unbound key chose them: left out, or named as another,
    the owner's narrower setting for that platform did not apply."""
    if value is None:
        return None
    if role == "owner":
        raise ConfigError(f"{where}.platform binds a user key to its entry platform; an "
                          "owner key may name any (leave platform out, or role = \"user\")")
    try:
        check_label(value, "platform")
    except InvalidInput as exc:
        raise ConfigError(f"{where}.platform must be a platform name such as \"tg\" (1 to "
                          f"{MAX_LABEL_CHARS} characters) ({exc})") from None
    return str(value)


def _metrics_token(table: Any, source: str) -> str | None:
    """The sha256 of ``[metrics] token = "…"`` (or ``token_sha256``), or None."""
    if table is None:
        return None
    where = f"{source}: metrics"
    if not isinstance(table, Mapping):
        raise ConfigError(f"{where} must be a table: [metrics] token = \"…\"")
    unknown = sorted(str(k) for k in set(table) - {"token", "token_sha256"})
    if unknown:
        raise ConfigError(unknown_fields(where, unknown, ["token", "token_sha256"]))
    plain, hashed = table.get("token"), table.get("token_sha256")
    if (plain is None) == (hashed is None):
        raise ConfigError(f"{where}: give exactly one of token or token_sha256")
    if plain is not None:
        if not isinstance(plain, str) or len(plain) < 16:
            raise ConfigError(f"{where}.token must be a string of at least 16 characters")
        return _sha256(plain)
    if not isinstance(hashed, str) or not re.fullmatch(r"[0-9a-f]{64}", hashed):
        raise ConfigError(f"{where}.token_sha256 must be 64 lowercase hex digits")
    return hashed


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def bearer_token(headers: Mapping[str, str] | Any) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, or None."""
    value = headers.get("authorization")
    if not value:
        return None
    scheme, _, token = value.partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def check_bind(host: str, keys: KeyTable | None, *, allow_open: bool = False) -> None:
    """An open server (no keys) listens on loopback only, unless explicitly allowed.
    An address in brackets (``[::1]``, as a URL writes it) is refused with or without
    keys, naming the bare form: no socket (nor uvicorn) listens on one, and without keys
    it was refused as if ``[::1]`` were not loopback."""
    bracketed = re.fullmatch(r"\[([^\[\]]+)\](?::(\d+))?", host)
    if bracketed:
        address, port = bracketed.groups()
        bare = f"--host {address}" + (f" --port {port}" if port else "")
        raise ConfigError(f"--host {host}: an address in brackets is not one to listen on "
                          "(brackets only set an IPv6 address apart in a URL); give it "
                          f"without them: {bare}")
    if keys is not None or allow_open:
        return
    if not _loopback(host):
        raise ConfigError(f"refusing to serve {host} without API keys: pass --keys keys.toml "
                          "(see README § HTTP server) or --host 127.0.0.1; on a trusted "
                          "network only, --allow-open serves it without keys")


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def host_port(host: str, port: int) -> str:
    """``host:port`` as a URL writes it (an IPv6 address in brackets)."""
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


#: The server name :func:`allowed_hosts`' refusals suggest for ``chatmem serve``.
API_EXAMPLE_HOST = "chat.example.org"


def allowed_hosts(host: str, port: int, extra: Sequence[str] = (), *,
                  example: str = "mcp.example.org") -> list[str]:
    """The ``Host`` headers a server bound to ``host:port`` answers (DNS-rebinding
    protection): that address, on loopback also its ``localhost``, ``127.0.0.1`` and
    ``[::1]`` forms, and ``extra`` (``--allowed-host``: ``name:port``, or ``name:*`` for
    any port). A page that rebinds its own name to 127.0.0.1 sends its own name.
    ``example``: the server name a refusal suggests, one of the command's own (the MCP
    server's by default; :func:`serve` gives :data:`API_EXAMPLE_HOST`)."""
    hosts: list[str] = []
    for name in extra:
        if not isinstance(name, str) or not name.strip() or "/" in name or " " in name:
            raise ConfigError(f"--allowed-host must be host[:port] (e.g. {example}:443 "
                              f"or {example}:*), got {name!r}")
        hosts.append(name.strip())
    if host not in ("0.0.0.0", "::", ""):
        hosts.append(host_port(host, port))
    if _loopback(host):
        hosts += [f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}"]
    if not hosts:
        raise ConfigError(f"binding {host or 'every address'} needs --allowed-host with the "
                          f"name clients use (e.g. --allowed-host {example}:{port}): "
                          "other Host headers are refused (DNS-rebinding protection)")
    return list(dict.fromkeys(hosts))


def host_allowed(value: str, hosts: frozenset[str]) -> bool:
    """``value`` (a ``Host`` header, or an ``Origin``'s host and port) is one of
    ``hosts`` (:func:`allowed_hosts`), or its name is there with ``:*``; without a port
    it is port 80 or 443, as a browser leaves them out."""
    value = value.strip().lower()
    if not value:
        return False
    bracketed = value.startswith("[")
    has_port = (":" in value.rpartition("]")[2]) if bracketed else (":" in value)
    name = value.rpartition(":")[0] if has_port else value
    candidates = [value] if has_port else [f"{value}:80", f"{value}:443"]
    return any(c in hosts for c in candidates) or f"{name}:*" in hosts


def namespace_url(url: str, namespace: str, keys: KeyTable | None) -> str:
    """The storage URL of one namespace (``{namespace}`` filled in)."""
    if "{namespace}" in url:
        return url.replace("{namespace}", namespace)
    if keys is not None and len(keys.namespaces) > 1:
        raise ConfigError("the keys map to several namespaces, so the storage URL must "
                          "contain {namespace}, e.g. sqlite:///data/{namespace}.db or "
                          "postgresql://…?schema=cm_{namespace}")
    return url


def namespace_vector_url(url: str | None, namespace: str, keys: KeyTable | None
                         ) -> str | None:
    """The separate vector index URL of one namespace (``{namespace}`` filled in). A
    Qdrant server holds every namespace (each store has collections of its own), but
    Qdrant's local mode has one user at a time: a folder without ``{namespace}`` would
    refuse every namespace but the first, at its first request."""
    if url is None:
        return None
    if "{namespace}" in url:
        return url.replace("{namespace}", namespace)
    if (keys is not None and len(keys.namespaces) > 1 and url.startswith("qdrant+local://")
            and url != "qdrant+local://:memory:"):
        raise ConfigError("the keys map to several namespaces, and a Qdrant local-mode "
                          "folder has one user at a time: the vector URL must contain "
                          "{namespace}, e.g. qdrant+local:///data/vectors-{namespace}, or "
                          "name a Qdrant server (qdrant://host:6333)")
    return url


def check_key_namespaces(url: str, vector: str | None, keys: KeyTable | None) -> None:
    """Refuse, before serving, a key whose namespace fills ``{namespace}`` of the storage
    URL (or of the vector URL) into one its store could never take, naming the key: the
    namespace ``alice-x`` (a key file takes ``-``) in ``postgresql://…?schema=cm_{namespace}``
    makes the schema ``cm_alice-x``, which PostgreSQL's names do not take. A store opens
    at its namespace's first request, where that key's every request failed after a
    healthy start. A template that fails whatever fills it is refused with its own error."""
    if keys is None:
        return
    for template, what, check in ((url, "storage URL", check_store_url),
                                  (vector, "vector URL", check_vector_url)):
        if template is None or "{namespace}" not in template:
            continue
        for namespace in dict.fromkeys(k.namespace for k in keys.keys):
            try:
                check(template.replace("{namespace}", namespace))
            except ConfigError as exc:
                if not _fills(template, DEFAULT_NAMESPACE, check):
                    raise  # the template's own fault, not the namespace's
                raise ConfigError(_namespace_refused(keys, namespace, template, what, check,
                                                     exc)) from None


def _fills(template: str, namespace: str, check: Callable[[str], None]) -> bool:
    try:
        check(template.replace("{namespace}", namespace))
    except ConfigError:
        return False
    return True


def _namespace_refused(keys: KeyTable, namespace: str, template: str, what: str,
                       check: Callable[[str], None], exc: ConfigError) -> str:
    """The one line of :func:`check_key_namespaces`: the key, its namespace, why, the fix."""
    names = [f"keys.{k.name}" for k in keys.keys if k.namespace == namespace]
    who = f"{keys.source}: {names[0]}.namespace {describe(namespace)}"
    if len(names) > 1:
        who += f" (and {', '.join(names[1:])})"
    schema = None
    if what == "storage URL" and template.startswith(("postgresql://", "postgres://")):
        from ..store.postgres import SCHEMA_RULE, valid_schema
        from ..store.postgres.url import parse_url

        schema = parse_url(template.replace("{namespace}", namespace))[1].get("schema")
        if schema is not None and valid_schema(schema):
            schema = None
    if schema is not None:
        why = (f"it makes the PostgreSQL schema {describe(schema)}, and a PostgreSQL schema "
               f"name takes {SCHEMA_RULE}")
    else:
        why = f"the {what} it makes is refused: {exc}"
    fix = "rename the namespace"
    other = namespace.replace("-", "_")
    if other != namespace and _fills(template, other, check):
        fix += f", e.g. namespace = {describe(other)}"
    return f"{who} cannot fill {{namespace}} of the {what}: {why}; {fix}"


# --------------------------------------------------------------------------- namespaces


class Namespaces:
    """One open :class:`Memory` per namespace, opened on first use, sharing one embedder."""

    def __init__(self, url: str, vector: str | None, config: Config, keys: KeyTable | None,
                 embedder: Embedder, metrics: Metrics | None = None) -> None:
        self.url, self.vector, self.config, self.keys = url, vector, config, keys
        self.embedder = embedder
        #: Observes the recalls and indexing of each namespace opened.
        self.metrics = metrics
        self.open: dict[str, Memory] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        if keys is not None:  # a bad template fails at start-up, not at the first request
            # each key's namespace filling it, named when it makes a URL its store cannot
            # take (not only the first namespace, whichever that was)
            check_key_namespaces(url, vector, keys)
            first = next(iter(keys.namespaces))
            # and so does an option no namespace's store could take (pool_size=abc,
            # timeout=soon): each store opens at its namespace's first request, where it
            # would be every client's 400 after a healthy start
            check_store_url(namespace_url(url, first, keys))
            filled = namespace_vector_url(vector, first, keys)
            if filled is not None:
                check_vector_url(filled)

    async def get(self, namespace: str) -> Memory:
        mem = self.open.get(namespace)
        if mem is not None:
            return mem
        lock = self._locks.setdefault(namespace, asyncio.Lock())
        async with lock:
            mem = self.open.get(namespace)
            if mem is None:
                vector = namespace_vector_url(self.vector, namespace, self.keys)
                try:
                    mem = await Memory.open(namespace_url(self.url, namespace, self.keys),
                                            vector=vector, embedder=self.embedder,
                                            config=self.config)
                except (StoreError, EmbeddingUnavailable):
                    raise
                except ChatmemError as exc:
                    # the server's set-up, not the request (a store that recorded a
                    # separate index the server was not given: its folder or host):
                    # the store's failure, which only an owner key reads whole (told)
                    raise StoreError(f"namespace {describe(namespace)}: its store cannot be "
                                     f"opened as the server is configured: {exc}") from exc
                self.open[namespace] = mem
                if self.metrics is not None:
                    self.metrics.watch(namespace, mem)
                log.info("namespace %s opened", namespace)
            return mem

    async def check_store(self) -> None:
        """Open and close the store of a storage URL without ``{namespace}`` (every
        namespace's, and there is one): a path that is not a store, or a server that is
        not there, fails at start-up instead of at every request after a healthy start."""
        if "{namespace}" in self.url:
            return  # each namespace's store is made at its first request
        namespace = next(iter(self.keys.namespaces)) if self.keys else DEFAULT_NAMESPACE
        await self.get(namespace)
        await self.close()

    async def close(self) -> None:
        for ns, mem in list(self.open.items()):
            try:
                await mem.close()
            except ChatmemError as exc:
                log.warning("closing namespace %s: %s", ns, exc)
        self.open.clear()


# --------------------------------------------------------------------------- request bodies


class _Body(BaseModel):
    # strict: JSON's types as they are, as the library reads them ("no" is not false,
    # "5" and 5.0 are not 5, true is not 1), and no unknown field
    model_config = ConfigDict(extra="forbid", strict=True)

    @field_validator("*", mode="after")
    @classmethod
    def _utf8(cls, value: Any) -> Any:
        if lone_surrogate(value) is not None:
            raise ValueError("not valid UTF-8 text (a lone surrogate escape such as \\ud800)")
        return value


def _takes_one_of(takes: str, *, if_object: Any = None, if_list: Any = None,
                  if_int: Any = None) -> WrapValidator:
    """A field that takes one of several types, refused in the API's words. A value of a
    JSON kind one of them takes (``if_object``, ``if_list``, ``if_int``) is judged by
    that one alone (``window.before must be at most 100, got 101``, ``window must be at
    least 0, got -1``: the library's words); any other is one error, ``window must be an
    integer from 0 to 100 or {"before", "after"}, got "2"``. Pydantic refused it with
    every type in turn, named by its internal names (``window.constrained-int: …;
    window.WindowBody: …``)."""
    members = {kind: TypeAdapter(member) for kind, member in (
        (dict, if_object), (list, if_list), (int, if_int)) if member}

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        try:
            return handler(value)
        except ValidationError:
            member = members.get(type(value))
            if member is not None:
                member.validate_python(value, strict=True)  # raises its own errors
            raise PydanticCustomError("one_of", "must be {takes}, got {given}",
                                      {"takes": takes, "given": as_given(value)}) from None

    return WrapValidator(check)


def _within(kind: type, takes: str, low: float, high: float) -> Any:
    """``kind`` from ``low`` to ``high``, as the library bounds the same argument, and
    refused in the library's words when out of range: ``takes`` is the library's (``top_k
    must be an integer from 1 to 1000, got 0``, where pydantic's bound said ``must be at
    least 1``); the bounds are in the published schema all the same."""

    def check(value: Any, handler: ValidatorFunctionWrapHandler) -> Any:
        got = handler(value)
        if not low <= got <= high:  # NaN too
            given = value[:80] if isinstance(value, str) else as_given(value)  # a query's
            raise PydanticCustomError("one_of", "must be {takes}, got {given}",
                                      {"takes": takes, "given": given})
        return got

    return Annotated[kind, WrapValidator(check),
                     Field(json_schema_extra={"minimum": low, "maximum": high})]


#: Most hits a user key's recall may ask for: an owner key takes the library's
#: :data:`~chatmem.config.MAX_TOP_K` (1000), but an untrusted caller asking ten times the
#: hits (each with its window) is ten times the reads for one request; 100 is what
#: every key took before the library's bound was adopted.
USER_KEY_MAX_TOP_K = 100
#: A recall's ``top_k`` and ``min_score``, a page's ``limit``: the library's bounds.
_TopK = _within(int, TOP_K_TAKES, 1, MAX_TOP_K)
_MinScore = _within(float, MIN_SCORE_TAKES, 0, 1)
_Limit = _within(int, LIMIT_TAKES, 1, MAX_PAGE)


#: A message's content: its text, or chat-completions content parts.
_Content = Annotated[str | list[dict[str, Any]] | None, _takes_one_of(
    "a string or a list of content parts (objects)", if_list=list[dict[str, Any]])]


class MessageIn(_Body):
    """A message to store: the fields of :class:`chatmem.Message`, and those of an OpenAI
    chat-completions message (``name``, content parts, ``tool_calls``, …) (I7)."""

    session_id: str | None = Field(None, description="The conversation (a session id); "
                                   "default: the request's session_id.")
    content: _Content = Field(
        description="The text as the model sees it, or chat-completions content parts "
        "(text joined; image_url, input_audio and file described); null only with tool_calls "
        "(or function_call, refusal, audio).")
    role: str = Field("user", description="user, assistant, system, tool or notice; "
                      "developer (stored as system) or function (stored as tool).")
    ts: int | None = Field(None, ge=0, le=TS_MAX,
                           description="Milliseconds since the epoch; default now.")
    id: str | None = Field(None, description="Your id; a retry with the same id is a no-op.")
    kind: str = Field("message", description="message, divider, command_reply or directive.")
    visible_content: str | None = Field(None, description="What the user saw, if different.")
    source: str | None = Field(None, description="Set for internal injections (not embedded).")
    speaker_id: str | None = None
    speaker_name: str | None = None
    mentions: list[str] = Field(default_factory=list)
    platform: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    name: str | None = Field(None, description="OpenAI: the speaker (speaker_id and "
                             "speaker_name unless given).")
    tool_calls: list[dict[str, Any]] | None = Field(
        None, description="OpenAI: the assistant's tool calls, kept in the metadata; a "
        "message with only tool calls is stored and never embedded.")
    tool_call_id: str | None = Field(None, description="OpenAI: the call a tool message "
                                     "answers (kept in the metadata).")
    function_call: dict[str, Any] | None = None
    refusal: str | None = None
    audio: dict[str, Any] | None = None
    annotations: list[Any] | None = None


class AddBody(_Body):
    messages: list[MessageIn] = Field(min_length=1, max_length=1000)
    session_id: str | None = Field(None, description="The session of every message that "
                                   "gives none (e.g. an OpenAI message list).")
    platform: str | None = Field(None, description="The platform of every message that "
                                 "gives none.")
    speaker_id: str | None = Field(None, description="The speaker of every user message "
                                   "that gives none (and no name).")
    speaker_name: str | None = None


#: A session, speaker, platform or message id a request names: never "" (no stored
#: message or session has an empty one, so it would match nothing, or mean none).
IdText = Annotated[str, Field(min_length=1, max_length=512)]


class RewriteBody(_Body):
    session: IdText
    ts: int = Field(ge=0, le=TS_MAX)
    content: str | None = None
    visible_content: str | None = None
    metadata: dict[str, Any] | None = None
    visible_from: str | None = Field(None, min_length=1, max_length=512, description=(
        "The conversation asking: only a message it may see is changed (required with a "
        "user key)."))
    platform: IdText | None = Field(None, description="The visible_from session's entry "
                                    "platform.")


class WindowBody(_Body):
    # a side left out is 0, as in the library's mapping
    before: int = Field(0, ge=0, le=MAX_WINDOW)
    after: int = Field(0, ge=0, le=MAX_WINDOW)


#: A recall's query: a text or texts.
_Query = Annotated[str | list[str], _takes_one_of("a string or a list of strings",
                                                  if_list=list[str])]
#: A recall's window: the neighbours each side, or before and after apart.
_WindowSide = Annotated[int, Field(ge=0, le=MAX_WINDOW)]
_Window = Annotated[_WindowSide | WindowBody | None,
                    _takes_one_of(f'an integer from 0 to {MAX_WINDOW} or {{"before", "after"}}',
                                  if_object=WindowBody, if_int=_WindowSide)]


class RecallBody(_Body):
    query: _Query = Field(description="This turn's input text(s).")
    session: IdText | None = Field(None, description="The conversation asking (required "
                                   "with a user key: its effective scope caps the recall).")
    platform: IdText | None = Field(None, description="The entry platform of this turn.")
    top_k: _TopK | None = None  # type: ignore[valid-type]
    min_score: _MinScore | None = None  # type: ignore[valid-type]
    scope: str | None = Field(None, description="all, user, platform, resource or session; "
                              "with a user key it may only narrow the session's scope.")
    window: _Window = Field(None, description="Neighbours each side.")
    cross_session: bool | None = None
    filter: dict[str, Any] | None = Field(None, description="Session-metadata filter.")
    speakers: list[IdText] = Field(default_factory=list)
    exclude_ids: list[IdText] = Field(default_factory=list)
    now: int | None = Field(None, ge=0, le=TS_MAX,
                            description="Milliseconds; default now (for decay).")
    follow_replies: bool | None = Field(None, description=(
        "false: no reply inherits a match's score and no sitting lends one, e.g. when "
        "the stored messages are documents rather than turns; default: the "
        "configuration's shares."))


#: One input of a turn: a text or a message.
_TurnItem = Annotated[str | MessageIn, _takes_one_of("a string or a message (an object)",
                                                     if_object=MessageIn)]
#: A turn: a text, or texts and messages.
_Turn = Annotated[str | list[_TurnItem], _takes_one_of(
    "a string or a list of strings and messages (objects)", if_list=list[_TurnItem])]


class ContextBody(_Body):
    turn: _Turn = Field(
        description="This turn's input text(s), or its messages: an OpenAI chat-completions "
        "message list as is (user and assistant words are the query).")
    session: IdText
    platform: IdText | None = Field(None, description="The entry platform of this turn.")
    speakers: list[IdText] = Field(default_factory=list)
    exclude_ids: list[IdText] = Field(default_factory=list)
    now: int | None = Field(None, ge=0, le=TS_MAX,
                            description="Milliseconds; default now (for decay).")
    explain: StrictBool = Field(False, description="Also return the recall behind the system "
                          "message (its hits with semantic, recency and boost, their "
                          "neighbours, the excluded candidates by reason) as `recall`.")


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


#: Most ids one get / delete request may name.
MAX_REQUEST_IDS = 1000


class GetBody(_Body):
    ids: list[IdText] = Field(min_length=1, max_length=MAX_REQUEST_IDS,
                              description="Message ids (1–1000); unknown ones are left out.")
    visible_from: str | None = Field(None, min_length=1, max_length=512, description=(
        "Only messages visible from this session (its effective scope); required with a "
        "user key."))
    platform: IdText | None = Field(None, description="The visible_from session's entry "
                                    "platform.")


class DeleteBody(_Body):
    ids: list[IdText] = Field(min_length=1, max_length=MAX_REQUEST_IDS,
                              description="Message ids (1–1000) to erase everywhere.")
    # strict: "no" must not be read as false and erase
    dry_run: StrictBool = Field(False, description="Erase nothing: count the messages found "
                          "(and, as vectors, those indexed) that would go.")


class ForgetBody(_Body):
    speaker_id: str | None = Field(None, min_length=1, max_length=512)
    session: str | None = Field(None, min_length=1, max_length=512)
    resource_id: str | None = Field(None, min_length=1, max_length=512)
    # strict: "no" must not be read as false and erase
    dry_run: StrictBool = Field(False, description="Erase nothing: count the messages (and, as "
                          "vectors, those indexed) that would go.")


class RetentionBody(_Body):
    days: int | None = Field(ge=0, le=36_500, description="Days messages are kept (0: "
                             "forever); null removes the layer's value.")
    layer: Literal["platform", "chat_type", "group", "session"] = "session"
    platform: str | None = Field(None, max_length=512)
    chat_type: str | None = Field(None, max_length=512)
    group_id: str | None = Field(None, max_length=512)
    session: str | None = Field(None, max_length=512)


class SessionBody(_Body):
    """A session's registration (the fields of :class:`chatmem.Session` but its id, which
    is in the path, and ``settings``, which it keeps: no route changes them)."""

    parent_id: str | None = Field(None, min_length=1, description="The parent session "
                                  "(sub-tasks); a child takes its root's origin platform.")
    resource_id: str | None = Field(None, min_length=1,
                                    description="The user or tenant owning it (scope resource).")
    origin_platform: str | None = Field(None, min_length=1,
                                        description="The platform of the room (scope platform).")
    chat_type: str | None = Field(None, min_length=1, description="private, group, channel, …")
    group_id: str | None = Field(None, min_length=1)
    group_name: str | None = Field(None, min_length=1, description="The label in rendering.")
    metadata: dict[str, Any] = Field(default_factory=dict,
                                     description="Free JSON; what recall filters match.")


class CallerBody(_Body):
    session_id: IdText
    speaker_id: IdText | None = None
    platform: IdText | None = None


class ToolBody(_Body):
    arguments: Annotated[dict[str, Any] | str, _takes_one_of(
        "an object or its JSON text", if_object=dict[str, Any])] = Field(
            description="The model's tool-call arguments.")
    caller: CallerBody


class ErrorDetail(BaseModel):
    type: str = Field(description="The error class, e.g. InvalidInput, Unauthorized.")
    message: str = Field(description="What is wrong, naming the field.")


class ErrorBody(BaseModel):
    """Every error answer."""

    error: ErrorDetail


_ERRORS: dict[int | str, dict[str, Any]] = {
    code: {"model": ErrorBody, "description": text} for code, text in (
        (400, "Bad input (the message names the field); nothing was changed."),
        (401, "No API key or an unknown one."),
        (403, "The key's role may not do this."),
        (404, "Not found."),
        (413, f"The body is over {MAX_BODY_BYTES} bytes."),
        (415, "The body is not sent as JSON (Content-Type: application/json)."),
        (422, "The body does not match the schema (unknown fields included)."),
        (500, "A bug, logged with its traceback."),
        (503, "The store or the embedding provider is unavailable."),
    )}


# --------------------------------------------------------------------------- app


@dataclass(frozen=True)
class Principal:
    """Who is asking: the key's name, its namespace and role."""

    name: str
    namespace: str
    role: str
    #: the conversations a user key is bound to (``keys.<name>.sessions``); None: any
    sessions: frozenset[str] | None = None
    #: the entry platform a user key is bound to (``keys.<name>.platform``); None: any
    platform: str | None = None

    @property
    def narrow_only(self) -> bool:
        """A user key may only narrow what its conversation sees (R6)."""
        return self.role != "owner"

    def acts_for(self, session: str | None, field: str) -> None:
        """Refuse (403) a conversation a bound user key may not act for: it names the
        conversation asking, and without a binding any name was taken at its word."""
        if self.sessions is not None and session is not None \
                and session not in self.sessions:
            raise PermissionDenied(f"{field} {describe(session)}: key {describe(self.name)} "
                                   "acts only for its own sessions (keys.<name>.sessions)")

    def entry_platform(self, given: str | None, field: str = "platform") -> str | None:
        """The entry platform of a request: a bound key's own (403 for another), else
        what the request says."""
        if self.platform is None:
            return given
        if given is not None and given != self.platform:
            raise PermissionDenied(f"{field} {describe(given)}: key {describe(self.name)} "
                                   f"acts only on platform {describe(self.platform)} "
                                   "(keys.<name>.platform)")
        return self.platform


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
    return Principal(found.name, found.namespace, found.role, found.sessions, found.platform)


async def _memory(request: Request, who: Annotated[Principal, Depends(_principal)]) -> Memory:
    namespaces: Namespaces = request.app.state.namespaces
    return await namespaces.get(who.namespace)


#: Route parameters: the caller (from the bearer key) and its namespace's Memory.
Who = Annotated[Principal, Depends(_principal)]
Mem = Annotated[Memory, Depends(_memory)]
SessionId = Annotated[str, Path(min_length=1, max_length=512,
                                description="The session (conversation) id.")]


def _not_utf8(scope: Scope) -> JSONResponse | None:
    """400 for a path or query string whose %-escapes are not UTF-8 (``/v1/sessions/%ff``):
    the server decodes them with U+FFFD in their place, so a session named by bytes
    that are not text was registered as "\ufffd\ufffd", and read back by no client."""
    raw_path = scope.get("raw_path") or scope["path"].encode("utf-8", "surrogateescape")
    for part, what in ((raw_path, "path"),
                       (scope.get("query_string", b"").replace(b"+", b" "), "query string")):
        try:
            unquote_to_bytes(part).decode("utf-8")
        except UnicodeDecodeError:
            return _error(400, "InvalidInput",
                          f"the {what} holds %-escapes that are not UTF-8 text; encode "
                          "every name and value as UTF-8 before %-escaping it")
    return None


def _json_type(content_type: str) -> bool:
    """Whether FastAPI reads a body of ``content_type`` as JSON: ``application/json`` or
    ``application/…+json``, with any parameters."""
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind == "application/json" or (kind.startswith("application/")
                                          and kind.endswith("+json"))


class _StrictJsonRequest(Request):
    """A request whose JSON body may not repeat a key in one object
    (:func:`~chatmem.refusals.one_of_each`)."""

    async def json(self) -> Any:
        if not hasattr(self, "_json"):
            # a number past a float's range is named as sent (1e400), not Infinity
            self._json = json.loads(await self.body(), object_pairs_hook=one_of_each,
                                    parse_float=read_float)
        return self._json


class _StrictJsonRoute(APIRoute):
    """The routes of the API read their bodies through :class:`_StrictJsonRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(_StrictJsonRequest(request.scope, request.receive))

        return strict


class _Unauthorized(Exception):
    pass


class _BodyTooLarge(StarletteHTTPException):
    def __init__(self) -> None:
        super().__init__(413, f"request body over {MAX_BODY_BYTES} bytes; send fewer "
                              "messages per request")


def _error(status: int, kind: str, message: str, **headers: str) -> JSONResponse:
    return JSONResponse({"error": {"type": kind, "message": message}}, status_code=status,
                        headers=headers or None)


_STATUS: list[tuple[type[ChatmemError], int]] = [
    (InvalidInput, 400), (FilterError, 400), (ConfigError, 400), (NotFound, 404),
    (PermissionDenied, 403),
    # a row the store holds damaged stays so until it is repaired: not a 503, which
    # tells a client to try again
    (DamagedRow, 500),
    (EmbeddingUnavailable, 503), (StoreError, 503), (RecallUnavailable, 503),
]

_HTTP_TYPES = {400: "BadRequest", 401: "Unauthorized", 403: "Forbidden", 404: "NotFound",
               405: "MethodNotAllowed", 408: "RequestTimeout", 413: "PayloadTooLarge",
               415: "UnsupportedMediaType", 503: "ServiceUnavailable"}
_METHODS = frozenset({"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"})


class _Guard:
    """The outermost layer, plain ASGI so that nothing is buffered:

    * the API key is checked from the headers *before* any of the body is read: a
      request without a valid key gets 401 and its body is never consumed;
    * body bytes are counted as they stream in; past :data:`MAX_BODY_BYTES` the
      request ends with 413 (chunked bodies included, whatever ``Content-Length``
      claims); the rest of the body is not read;
    * a body that stalls ends with 408 (:mod:`~chatmem.server.limits`: ``timeout``
      between chunks, ``body_deadline`` in all), its connection closed;
    * a request to the API (:data:`SLOTTED_PREFIX`) takes one of
      ``max_concurrent_requests`` slots once its body has arrived, and gives it back as
      its answer's last part is handed on; none free within ``timeout``: 503 with
      ``Retry-After`` (:class:`~chatmem.server.limits.RequestSlots`);
    * every answer of the API says ``Cache-Control: no-store`` (it holds stored data);
    * every answer is counted in the metrics (500s included), and an exception that
      escapes the app is answered with a 500 in the documented shape (the app's own
      handler has logged its traceback)."""

    def __init__(self, app: FastAPI, *, keys: KeyTable | None, metrics: Metrics,
                 hosts: Sequence[str] | None = None, limits: ClientLimits | None = None
                 ) -> None:
        self.app, self.keys, self.metrics = app, keys, metrics
        self.limits = limits or ClientLimits()
        self.slots = RequestSlots(self.limits)
        self.hosts = None if hosts is None else frozenset(h.lower() for h in hosts)

    def _misdirected(self, scope: Scope) -> JSONResponse | None:
        """DNS-rebinding protection (``hosts``): a ``Host`` that is not this server's is a
        421, a browser ``Origin`` of another site a 403."""
        if self.hosts is None:
            return None
        headers = scope_headers(scope)
        host = headers.get("host", "")
        if not host_allowed(host, self.hosts):
            return _error(421, "MisdirectedRequest", foreign_host(host))
        origin = headers.get("origin")
        if origin is not None:
            scheme, sep, rest = origin.partition("://")
            if not sep or scheme.lower() not in ("http", "https") \
                    or not host_allowed(rest, self.hosts):
                return _error(403, "PermissionDenied", foreign_origin(origin))
        return None

    def _denied(self, scope: Scope) -> JSONResponse | None:
        misdirected = self._misdirected(scope)
        if misdirected is not None:
            return misdirected
        path = scope["path"]
        if self.keys is None or path in PUBLIC_PATHS or path.startswith(DOCS_ASSETS + "/") \
                or is_console_path(path):
            return _not_utf8(scope)
        headers = scope_headers(scope)
        token = bearer_token(headers)
        if token is None:
            return _error(401, "Unauthorized", "send Authorization: Bearer <API key>",
                          **{"WWW-Authenticate": "Bearer"})
        found = self.keys.find(token)
        ok = found is not None
        if scope["path"] == METRICS_PATH:
            # a namespace's series count every user's messages (R4): not a user key's
            if found is not None and found.role != "owner":
                return _error(403, "PermissionDenied", _namespace_counts_refused(
                    "/metrics", found.name, "or the metrics token ([metrics] token)"))
            ok = ok or self.keys.is_metrics_token(token)
        if not ok:
            return _error(401, "Unauthorized", "unknown API key",
                          **{"WWW-Authenticate": "Bearer"})
        return _not_utf8(scope)

    def _route(self, scope: Scope) -> str:
        route = scope.get("route")
        if route is not None:
            return str(getattr(route, "path", "unmatched"))
        for candidate in self.app.router.routes:
            match, _ = candidate.matches(scope)
            if match is not Match.NONE:
                return str(getattr(candidate, "path", "unmatched"))
        return "unmatched"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        status = 500
        started = False
        received = 0
        too_large = False  # or too slow: either way the rest of the body is not read
        timed_receive = deadline_receive(receive, self.limits)

        async def counted_receive() -> Message:
            nonlocal received, too_large
            if too_large:
                return {"type": "http.disconnect"}
            try:
                message = await timed_receive()
            except ClientTooSlow:
                too_large = True
                raise
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > MAX_BODY_BYTES:
                    too_large = True
                    raise _BodyTooLarge()
            return message

        private = scope["path"].startswith(SLOTTED_PREFIX)

        async def observed_send(message: Message) -> None:
            nonlocal status, started
            if message["type"] == "http.response.start":
                started = True
                status = int(message["status"])
                if private:  # stored messages, sessions, counts: no cache keeps them
                    message = {**message, "headers": [
                        *(h for h in message.get("headers", ())
                          if h[0].lower() != b"cache-control"),
                        (b"cache-control", b"no-store")]}
                if too_large:  # the rest of the body is not read: end the connection
                    message = {**message, "headers": [*message.get("headers", ()),
                                                      (b"connection", b"close")]}
            await send(message)

        async def answer(response: JSONResponse) -> None:
            await response(scope, receive, observed_send)

        try:
            denied = self._denied(scope)
            length = _content_length(scope)
            if denied is None and length is not None and length > MAX_BODY_BYTES:
                denied = _error(413, "PayloadTooLarge", str(_BodyTooLarge().detail))
            if denied is not None:
                if has_body(scope):  # not read: the connection cannot be reused
                    denied.headers["Connection"] = "close"
                await answer(denied)
            elif not scope["path"].startswith(SLOTTED_PREFIX):
                await self.app(scope, counted_receive, observed_send)
            else:
                try:
                    await self.slots.run(self.app, scope, counted_receive, observed_send)
                except NoFreeSlot as exc:
                    if started:
                        raise
                    log.warning("%s %s: 503, %d requests at once", scope.get("method"),
                                scope.get("path"), self.limits.max_concurrent_requests)
                    await answer(_error(503, "ServiceUnavailable", str(exc.detail),
                                        **dict(exc.headers or {})))
        except Exception:  # the app's handler answered (or could not); never a traceback
            if not started:
                log.exception("%s %s failed", scope.get("method"), scope.get("path"))
                await answer(_error(500, "InternalError", "internal error; it was logged"))
        finally:
            method = scope.get("method", "GET")
            self.metrics.observe(method if method in _METHODS else "OTHER", self._route(scope),
                                 status, time.perf_counter() - start)


def _namespace_counts_refused(what: str, key: str, also: str = "") -> str:
    """Why a user key may not read ``what`` (``/v1/stats``, ``/metrics``): they count
    every user's messages of the namespace, and a user key sees only what its
    conversation may see (R4, R6). It names the way to its own conversation's counts."""
    return (f"{what} counts every conversation of the namespace: it needs an owner key"
            f"{' ' + also if also else ''}; key {describe(key)} has role \"user\" (its own "
            "conversation's counts per index state: GET /v1/sessions?visible_from=<its "
            "session>)")


def _content_length(scope: Scope) -> int | None:
    for key, value in scope.get("headers", ()):
        if key.lower() == b"content-length":
            text = value.decode("latin-1").strip()
            return int(text) if text.isdigit() else None
    return None


def create_app(*, url: str, vector: str | None = None, config: Config | None = None,
               keys: KeyTable | None = None, embedder: Embedder | None = None,
               env: Mapping[str, str] | None = None,
               hosts: Sequence[str] | None = None,
               limits: ClientLimits | None = None) -> _Guard:
    """The ASGI app (the FastAPI application inside :class:`_Guard`); ``url`` may hold
    ``{namespace}`` (required with several namespaces). ``create_app(...).app`` is the
    FastAPI application (its ``state`` holds ``namespaces``, ``keys`` and ``metrics``).
    ``env``: where the configured embedding provider's API key is looked up when the
    configuration has none (``chatmem serve`` passes ``os.environ``). ``hosts``: the
    ``Host`` headers answered (:func:`allowed_hosts`; ``None``: any)."""
    api = create_api(url=url, vector=vector, config=config, keys=keys, embedder=embedder,
                     env=env)
    return _Guard(api, keys=keys, metrics=api.state.metrics, hosts=hosts, limits=limits)


def create_api(*, url: str, vector: str | None = None, config: Config | None = None,
               keys: KeyTable | None = None, embedder: Embedder | None = None,
               env: Mapping[str, str] | None = None) -> FastAPI:
    """The FastAPI application without the outer guard (tests and embedding)."""
    cfg = config or Config.load(env=env)
    emb = embedder or create_embedder(cfg.embedding, env=env)
    metrics = Metrics(emb)
    namespaces = Namespaces(url, vector, cfg, keys, emb, metrics)
    # the whole errors told to user keys in part: one WARNING per distinct error a window
    told_log = ToldLog()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        await namespaces.close()

    # FastAPIOffline: /docs and /redoc load their scripts and styles from DOCS_ASSETS
    # (files of the fastapi-offline package), never from a CDN
    app = FastAPIOffline(title="chatmem", summary="Semantic long-term memory for chat agents",
                         version=_version(), lifespan=lifespan, static_url=DOCS_ASSETS)
    app.state.namespaces = namespaces
    app.state.keys = keys
    app.state.metrics = metrics
    v1 = APIRouter(prefix="/v1", responses=_ERRORS, route_class=_StrictJsonRoute)

    def owner_only(who: Principal, what: str) -> None:
        if who.role != "owner":
            raise PermissionDenied(f"{what} needs an owner key; key {describe(who.name)} "
                                   f"has role {describe(who.role)}")

    @app.exception_handler(_Unauthorized)
    async def _unauthorized(request: Request, exc: _Unauthorized) -> JSONResponse:
        return _error(401, "Unauthorized", str(exc), **{"WWW-Authenticate": "Bearer"})

    @app.exception_handler(ChatmemError)
    async def _chatmem_error(request: Request, exc: ChatmemError) -> JSONResponse:
        status = next((code for cls, code in _STATUS if isinstance(exc, cls)), 500)
        # where the store is (a file, a host, a schema) is told to the owner keys (and
        # on an open server, its operator's) only: a user key reads what happened and
        # what to do, the whole error logged under a reference it is given (R6)
        token = bearer_token(request.headers)
        found = None if keys is None or token is None else keys.find(token)
        whole = keys is None or (found is not None and found.role == "owner")
        doing = f"{request.method} {request.url.path}"
        if status >= 500 and whole:
            # answered whole, logged as told to a user key: during an outage one
            # WARNING per distinct error a window, not one per request (ToldLog)
            told_log.reference(exc, doing)
        return _error(status, type(exc).__name__, told(exc, whole=whole, doing=doing,
                                                           logged=told_log))

    @app.exception_handler(RequestValidationError)
    async def _invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        route = request.scope.get("route")
        body = route.body_field.field_info.annotation if isinstance(route, APIRoute) \
            and route.body_field is not None else None
        ctype = request.headers.get("content-type")
        if body is not None and ctype and not _json_type(ctype):
            # not read as JSON (FastAPI hands the raw bytes over): the body's error
            # was a Python bytes literal of it, the content type never named
            return _error(415, "UnsupportedMediaType",
                          "the body must be JSON, sent with Content-Type: application/json; "
                          f"got Content-Type {as_given(ctype)}")
        return _error(422, "InvalidRequest", schema_errors(exc.errors(), body))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        kind = _HTTP_TYPES.get(exc.status_code, "HTTPError")
        message = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if exc.status_code == 404 and message == "Not Found":
            message = f"no route {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        elif exc.status_code == 400 and "parsing the body" in message:
            # the parser's recursion limit is a refusal of depth, not of the syntax
            cause = exc.__cause__
            if isinstance(cause, RecursionError):
                message = "body: JSON nested too deeply to read; send a flatter body"
            elif isinstance(cause, DuplicateKey):
                message = (f"body: the key {as_given(cause.args[0])} appears twice in one "
                           "object; send each key once")
            elif isinstance(cause, ValueError) and "digits" in str(cause):
                # Python's limit on the digits of an int it converts (CVE-2020-10735)
                message = ("body: a number with more digits than can be read (at most "
                           f"{sys.get_int_max_str_digits()}); send a shorter number")
            else:
                message = "body: not valid JSON (UTF-8 expected)"
        return _error(exc.status_code, kind, message, **dict(exc.headers or {}))

    @app.exception_handler(ValueError)
    @app.exception_handler(TypeError)
    async def _bad_value(request: Request, exc: Exception) -> JSONResponse:
        # the last resort for a library check that raised a plain ValueError/TypeError
        # about a request field; logged, because the body schema should have caught it
        log.warning("%s %s: %s escaped validation", request.method, request.url.path,
                    type(exc).__name__, exc_info=exc)
        return _error(400, "InvalidInput", str(exc) or type(exc).__name__)

    @app.exception_handler(Exception)
    async def _bug(request: Request, exc: Exception) -> JSONResponse:
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        return _error(500, "InternalError", "internal error; it was logged")

    # HEAD too: uptime monitors and load balancers probe with it (405 read as down)
    @app.get("/health", tags=["operations"])
    @app.head("/health", include_in_schema=False)
    async def health() -> dict[str, Any]:
        """Liveness; no key needed."""
        return {"status": "ok", "namespaces_open": len(namespaces.open)}

    # its errors are JSON, as every route's: documented so (the route's own answer is text)
    @app.get("/metrics", tags=["operations"], response_class=PlainTextResponse,
             responses={code: {"description": _ERRORS[code]["description"], "content": {
                 "application/json": {"schema": {"$ref": "#/components/schemas/ErrorBody"}}}}
                 for code in (401, 403)})
    async def prometheus(request: Request) -> Response:
        """Prometheus text format: request latency per route and status, recall and
        indexing latency, the embedder's calls by decision, and per-namespace counts of
        the namespaces opened so far (README § Metrics). With a key table, the metrics
        token (``[metrics] token``) reads every namespace's series, and an owner key
        those of its own namespace (and the process-wide ones): not another tenant's. A
        user key gets 403: a namespace's counts are of its every user (as
        ``/v1/stats``)."""
        token = bearer_token(request.headers)
        found = None if keys is None or token is None else keys.find(token)
        if found is not None and found.role != "owner":  # the guard refuses it first
            return _error(403, "PermissionDenied",
                          _namespace_counts_refused("/metrics", found.name))
        return Response(await metrics.render(
            namespaces.open, namespace=None if found is None else found.namespace),
            media_type=CONTENT_TYPE_LATEST)

    @v1.post("/messages", tags=["memory"])
    async def add(body: AddBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Store messages; they are committed before the answer and indexed in the
        background. A retry with the same ``id`` and content is a no-op. A user key
        bound to sessions stores only in them."""
        if who.sessions is not None:
            for i, m in enumerate(body.messages):
                who.acts_for(m.session_id or body.session_id,
                             f"messages[{i}].session_id")
        for i, m in enumerate(body.messages):
            who.entry_platform(m.platform, f"messages[{i}].platform")
        stored = await mem.add([m.model_dump(exclude_unset=True) for m in body.messages],
                               session=body.session_id,
                               platform=who.entry_platform(body.platform),
                               speaker_id=body.speaker_id, speaker_name=body.speaker_name)
        return {"messages": [m.to_dict() for m in stored]}

    @v1.post("/rewrite", tags=["memory"])
    async def rewrite(body: RewriteBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Change a stored message (found by session and ts); its vector follows (F3).
        With a user key ``visible_from`` (the conversation asking) is required, and a
        message it may not see is not found, as for reading."""
        if who.narrow_only and body.visible_from is None:
            raise InvalidInput("visible_from is required with a user key: only a message "
                               "that conversation may see can be changed")
        who.acts_for(body.visible_from, "visible_from")
        if body.visible_from is not None and [m.ts for m in (await mem.list(
                session=body.session, since=body.ts, limit=1,
                visible_from=body.visible_from,
                platform=who.entry_platform(body.platform))).messages] \
                != [body.ts]:
            raise NotFound(f"no message at ts={body.ts} in session {describe(body.session)} "
                           f"that {describe(body.visible_from)} may see")
        msg = await mem.rewrite(body.session, body.ts, content=body.content,
                                visible_content=body.visible_content, metadata=body.metadata)
        return {"message": msg.to_dict()}

    @v1.post("/recall", tags=["memory"])
    async def recall(body: RecallBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Recall past messages relevant to the query, within the visible scope. With a
        user key, ``session`` is required and ``scope`` may only narrow its effective
        scope (a wider one is clamped: ``clamped: true``); ``filter`` adds to the
        configured filter."""
        if who.narrow_only and body.session is None:
            raise InvalidInput("session is required with a user key: the recall is capped "
                               "by that conversation's effective scope")
        who.acts_for(body.session, "session")
        if who.narrow_only and body.top_k is not None and body.top_k > USER_KEY_MAX_TOP_K:
            raise InvalidInput(f"top_k must be at most {USER_KEY_MAX_TOP_K} with a user key, "
                               f"got {body.top_k}: ask for fewer hits (an owner key takes up "
                               f"to {MAX_TOP_K})")
        window = body.window.model_dump() if isinstance(body.window, WindowBody) \
            else body.window
        result = await mem.recall(
            body.query, session=body.session, platform=who.entry_platform(body.platform),
            top_k=body.top_k,
            min_score=body.min_score, scope=body.scope, window=window,
            cross_session=body.cross_session, filter=body.filter, speakers=body.speakers,
            exclude_ids=body.exclude_ids, now=body.now, narrow_only=who.narrow_only,
            follow_replies=body.follow_replies)
        # the provider's failure that degraded it is a user key's in its kind only (R6)
        return told_degraded(result.to_dict(), whole=not who.narrow_only,
                             doing="POST /v1/recall", logged=told_log)

    @v1.post("/context", tags=["memory"])
    async def context(body: ContextBody, mem: Mem, who: Who) -> dict[str, Any]:
        """The messages to put before the conversation: the recall system message (when
        anything is recalled) and the session's last messages (M2); ``degraded`` says
        the recall ranked by full text alone because the query could not be embedded."""
        who.acts_for(body.session, "session")
        inputs = body.turn if isinstance(body.turn, str) else [
            t if isinstance(t, str) else t.model_dump(exclude_unset=True) for t in body.turn]
        turn = await mem.turn_context(inputs, session=body.session,
                                      platform=who.entry_platform(body.platform),
                                      speakers=body.speakers, exclude_ids=body.exclude_ids,
                                      now=body.now)
        out: dict[str, Any] = {"messages": turn.messages, "degraded": turn.recall.degraded,
               "degraded_reason": turn.recall.degraded_reason}
        if body.explain:
            out["recall"] = turn.recall.to_dict()
        return told_degraded(out, whole=not who.narrow_only, doing="POST /v1/context",
                             logged=told_log)

    @v1.get("/settings", tags=["settings"])
    async def get_settings(
            mem: Mem, who: Who, session: Annotated[str, Query(min_length=1, max_length=512)],
            platform: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
    ) -> dict[str, Any]:
        """The effective scope of a conversation and the layer it comes from (F10)."""
        who.acts_for(session, "session")
        eff = await mem.effective_scope(session, who.entry_platform(platform))
        return {"scope": eff.scope, "layer": eff.layer, "broken": eff.broken}

    @v1.put("/settings", tags=["settings"])
    async def put_settings(body: SettingsBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Set (or, with ``scope: null``, remove) one layer's scope. Owner keys only."""
        owner_only(who, "changing settings")
        await mem.set_scope(body.scope, actor={"id": who.name, "role": "owner"},
                            layer=body.layer, platform=body.platform,
                            chat_type=body.chat_type, group_id=body.group_id,
                            session=body.session)
        return {"ok": True}

    @v1.get("/sessions", tags=["settings"])
    async def list_sessions(
            mem: Mem, who: Who,
            limit: Annotated[_Limit, Query()] = 100,  # type: ignore[valid-type]
            after: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
            visible_from: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
    ) -> dict[str, Any]:
        """Sessions ordered by id, a page at a time (``next_after`` as ``after``): labels,
        message counts per index state, last activity, effective scope and retention
        with their layers. ``visible_from``: that session only (as a user key sees it);
        a user key must name it (its conversation)."""
        if who.narrow_only and visible_from is None:
            raise InvalidInput("visible_from is required with a user key: it sees its own "
                               "conversation only")
        who.acts_for(visible_from, "visible_from")
        # checked here, by the name sent: the library would name its own list (only[0])
        only = None if visible_from is None else [check_label(visible_from, "visible_from")]
        page = await mem.sessions(limit=limit, after=after, only=only)
        return page.to_dict()

    @v1.get("/whoami", tags=["operations"])
    async def whoami(who: Who) -> dict[str, Any]:
        """The calling key's name, namespace and role (``user`` or ``owner``): what the
        console shows and which of its controls it offers; ``sessions`` and
        ``platform``: the conversations and the entry platform a bound user key acts for
        (``keys.<name>.sessions`` / ``.platform``; ``null``: not bound), so that the
        console refuses another session at sign-in, naming these."""
        return {"name": who.name, "namespace": who.namespace, "role": who.role,
                "sessions": None if who.sessions is None else sorted(who.sessions),
                "platform": who.platform}

    @v1.get("/sessions/{session_id}", tags=["settings"])
    async def get_session(session_id: SessionId, mem: Mem, who: Who) -> dict[str, Any]:
        """A stored session: parent, resource, origin platform, chat type, group,
        metadata and settings; registered with PUT, or made bare (every field null) by
        its first message. 404 for a session that has neither."""
        who.acts_for(session_id, "session")
        found = await mem.get_session(session_id)
        if found is None:
            raise NotFound(f"session {describe(session_id)} is not registered (PUT it first)")
        return {"session": found.to_dict()}

    @v1.put("/sessions/{session_id}", tags=["settings"])
    async def put_session(session_id: SessionId, body: SessionBody, mem: Mem, who: Who
                          ) -> dict[str, Any]:
        """Register a session, or replace its fields (every field given or not: absent
        means none). Its ``settings`` field is kept (the scope and retention settings are
        apart from it: ``PUT /v1/settings``, ``PUT /v1/retention``).
        Owner keys only: parent, resource and origin platform decide who sees what."""
        owner_only(who, "registering sessions")
        if body.parent_id == session_id:
            raise InvalidInput("parent_id: a session cannot be its own parent")
        # a metadata column it cannot read (a hand edit) is replaced, as every field is;
        # settings it keeps, and cannot keep unread: the error
        check_label(session_id, "session")
        damaged: list[DamagedRow] = []
        old = (await mem.store.get_sessions([session_id], damaged=damaged)).get(session_id)
        for row in damaged:
            if row.column == "settings":
                raise row
        session = Session(id=session_id, settings=dict(old.settings) if old else {},
                          **body.model_dump())
        stored = await mem.upsert_session(session)
        return {"session": stored.to_dict()}

    @v1.post("/clear", tags=["settings"])
    async def clear(body: ClearBody, mem: Mem, who: Who) -> dict[str, int]:
        """Clear the vector index, the messages or both (F12). Owner keys only."""
        owner_only(who, "clearing")
        return await mem.clear(body.target, session=body.session)

    @v1.get("/messages", tags=["memory"])
    async def list_messages(
            mem: Mem, who: Who,
            session: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
            speaker_id: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
            since: Annotated[int | None, Query(ge=0, le=TS_MAX)] = None,
            until: Annotated[int | None, Query(ge=0, le=TS_MAX)] = None,
            limit: Annotated[_Limit, Query()] = 100,  # type: ignore[valid-type]
            cursor: Annotated[str | None, Query(min_length=1, max_length=MAX_CURSOR_CHARS)] = None,
            visible_from: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
            platform: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
            text: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
            newest_first: bool = False,
            states: bool = False,
    ) -> dict[str, Any]:
        """Stored messages ordered by time then id, one page at a time (I8): of one
        ``session`` and/or ``speaker_id``, ``since <= ts < until``, containing ``text``
        (ignoring case); pass ``next_cursor`` as ``cursor`` for the next page (a page
        may be short). ``newest_first=true``: the latest first (the last *n* messages;
        pass it again with the cursor). ``states=true`` adds ``index_states`` (message id → pending,
        indexed, failed, skipped or cleared). With a user key ``visible_from`` (the
        session asking) is required and only what a recall from it could show is
        listed."""
        if who.narrow_only and visible_from is None:
            raise InvalidInput("visible_from is required with a user key: only what that "
                               "conversation may see is listed")
        who.acts_for(visible_from, "visible_from")
        page = await mem.list(session=session, speaker_id=speaker_id, since=since,
                              until=until, limit=limit, cursor=cursor,
                              visible_from=visible_from, platform=who.entry_platform(platform),
                              text=text,
                              newest_first=newest_first)
        out = page.to_dict()
        if states:
            out["index_states"] = await mem.index_states(
                [m.id for m in page.messages if m.id is not None])
        return out

    @v1.post("/messages/get", tags=["memory"])
    async def get_messages(body: GetBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Stored messages by id, in the order asked (unknown ids are left out). With a
        user key ``visible_from`` is required, as for listing."""
        if who.narrow_only and body.visible_from is None:
            raise InvalidInput("visible_from is required with a user key: only what that "
                               "conversation may see is returned")
        who.acts_for(body.visible_from, "visible_from")
        found: dict[str, StoredMessage] = {}
        chars = 0
        ids = list(dict.fromkeys(body.ids))
        for start in range(0, len(ids), GET_BATCH):  # a bounded answer (list pages' budget)
            batch = await mem.get(ids[start:start + GET_BATCH],
                                  visible_from=body.visible_from,
                                  platform=who.entry_platform(body.platform))
            chars += sum(map(text_chars, batch.values()))
            if chars > MAX_PAGE_CHARS:
                raise InvalidInput(
                    f"{TOO_MUCH_TEXT} {MAX_PAGE_CHARS:,} "
                    f"characters (the first {start + GET_BATCH} ids already do); ask for "
                    "fewer at a time")
            found.update(batch)
        return {"messages": [m.to_dict() for m in found.values()]}

    @v1.post("/messages/delete", tags=["memory"])
    async def delete_messages(body: DeleteBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Erase messages by id everywhere (vectors, full text, ANN, Qdrant points,
        cached embeddings): ``deleted``, how many of each kind went, as ``POST
        /v1/forget`` says, and ``not_found``, the ids that matched no message.
        ``dry_run``: erase nothing (``deleted`` 0), count the messages found and, as
        ``vectors``, those indexed. Owner keys only."""
        owner_only(who, "deleting messages")
        erased = await mem.erase(body.ids, dry_run=body.dry_run)
        return {"deleted": 0 if body.dry_run else erased.messages, **erased.to_dict(),
                "not_found": list(erased.not_found)}

    @v1.post("/forget", tags=["memory"])
    async def forget(body: ForgetBody, mem: Mem, who: Who) -> dict[str, int]:
        """Erase everything of one speaker, session or resource (exactly one), and say
        how many messages, vectors, full-text rows, ANN labels, Qdrant points and cached
        embeddings went. ``dry_run``: erase nothing, count the messages (and indexed
        vectors) that would go. Owner keys only."""
        owner_only(who, "forgetting")
        erased = await mem.forget(speaker_id=body.speaker_id, session=body.session,
                                  resource_id=body.resource_id, dry_run=body.dry_run)
        return erased.to_dict()

    @v1.get("/retention", tags=["settings"])
    async def get_retention(
            mem: Mem, who: Who, session: Annotated[str, Query(min_length=1, max_length=512)],
            platform: Annotated[str | None, Query(min_length=1, max_length=512)] = None,
    ) -> dict[str, Any]:
        """The retention of a conversation in days (0: forever) and the layer it comes
        from."""
        who.acts_for(session, "session")
        eff = await mem.effective_retention(session, who.entry_platform(platform))
        return {"days": eff.days, "layer": eff.layer, "broken": eff.broken}

    @v1.put("/retention", tags=["settings"])
    async def put_retention(body: RetentionBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Set (or, with ``days: null``, remove) one layer's retention; the background
        sweep erases older messages everywhere. Owner keys only."""
        owner_only(who, "changing retention")
        await mem.set_retention(body.days, actor={"id": who.name, "role": "owner"},
                                layer=body.layer, platform=body.platform,
                                chat_type=body.chat_type, group_id=body.group_id,
                                session=body.session)
        return {"ok": True}

    @v1.get("/stats", tags=["operations"])
    async def stats(mem: Mem, who: Who) -> dict[str, Any]:
        """Counts of messages (indexed, pending, failed), vectors per model, indexer and
        embedder state. Owner keys only: the counts are of every conversation of the
        namespace, and a user key sees only what its conversation may see (403; its
        conversation's counts are on ``GET /v1/sessions?visible_from=``)."""
        if who.narrow_only:
            raise PermissionDenied(_namespace_counts_refused("/v1/stats", who.name))
        return await mem.stats()

    @v1.get("/tool", tags=["tool"])
    async def tool_schema(mem: Mem, strict: bool = False) -> dict[str, Any]:
        """The ``memory_recall`` tool in OpenAI tools format; ``strict=true``: the form
        OpenAI's strict function calling takes (``"strict": true``, every argument
        required, ``null`` for one left out)."""
        return mem.tool_schema(strict=strict)

    @v1.post("/tool", tags=["tool"])
    async def call_tool(body: ToolBody, mem: Mem, who: Who) -> dict[str, Any]:
        """Run ``memory_recall`` with the model's arguments for the calling conversation;
        arguments may only narrow the configuration."""
        who.acts_for(body.caller.session_id, "caller.session_id")
        if isinstance(body.arguments, str):
            try:
                parsed = json.loads(body.arguments)
            except (ValueError, RecursionError):
                parsed = None  # the tool's own check names the problem
            if lone_surrogate(parsed) is not None:
                raise InvalidInput("arguments: not valid UTF-8 text (a lone surrogate escape)")
        caller = body.caller.model_dump()
        caller["platform"] = who.entry_platform(caller.get("platform"), "caller.platform")
        return told_degraded(await mem.call_tool(body.arguments, caller),
                             whole=not who.narrow_only, doing="POST /v1/tool",
                             logged=told_log)

    app.include_router(v1)
    mount_console(app)
    return app


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("chatmem")
    except PackageNotFoundError:  # pragma: no cover - running from a source tree
        return "0"


def serve(*, url: str, vector: str | None, config: Config, keys: KeyTable | None, host: str,
          port: int, allow_open: bool = False, env: Mapping[str, str] | None = None,
          extra_hosts: Sequence[str] = (), limits: ClientLimits | None = None) -> None:
    """Run the API under uvicorn until interrupted (``chatmem serve``, which passes
    ``env=os.environ`` for the embedding provider's API key). An open server (no keys)
    answers only its own ``Host`` names (:func:`allowed_hosts` with ``extra_hosts``):
    without a key to stop it, a web page that rebinds its name to 127.0.0.1 would read
    and write every memory. With keys, ``extra_hosts`` turns the same check on.
    ``limits``: how long a client may take to send a request, and how many connections
    are kept (:class:`~chatmem.server.limits.ClientLimits`)."""
    import uvicorn

    from . import listen, listening_port

    limits = limits or ClientLimits()
    check_bind(host, keys, allow_open=allow_open)
    if keys is None or extra_hosts:  # a bad --allowed-host, before anything is opened
        allowed_hosts(host, port, extra_hosts, example=API_EXAMPLE_HOST)
    servers: list[Any] = []  # the server, once made
    asked: list[bool] = []  # the stops asked (True: in a hurry), before it was too

    def stop() -> None:
        # uvicorn's graceful stop: open requests are answered, then the lifespan closes
        # every namespace's memory. A stop while the store is checked ends the server
        # as soon as it has started.
        asked.append(False)
        for server in servers:
            server.should_exit = True

    def hurry() -> None:
        asked.append(True)
        for server in servers:
            server.should_exit = server.force_exit = True

    async def run() -> None:
        with stop_signals(stop, hurry):
            # the port is taken (listening) before the store is opened, and made when
            # missing: a port in use is refused with nothing made, and none can take it
            # in between; a stop from then on is this server's
            sockets = listen(host, port, limits.backlog())
            try:
                await serve_on(sockets)
            finally:
                for sock in sockets:
                    sock.close()

    async def serve_on(sockets: list[Any]) -> None:
        bound = listening_port(sockets)  # --port 0: the one the system picked
        hosts = (allowed_hosts(host, bound, extra_hosts, example=API_EXAMPLE_HOST)
                 if keys is None or extra_hosts else None)
        app = create_app(url=url, vector=vector, config=config, keys=keys, env=env,
                         hosts=hosts, limits=limits)
        server = uvicorn_server(uvicorn.Config(
            app, host=host, port=bound, log_level="info", access_log=False,
            http=protocol_class(limits, app.metrics.on_connection_answer),
            backlog=limits.backlog()))
        servers.append(server)
        server.should_exit, server.force_exit = bool(asked), any(asked)
        await app.app.state.namespaces.check_store()
        log.info("chatmem API on http://%s (docs at /docs)", host_port(host, bound))
        await server.serve(sockets=sockets)

    asyncio.run(run())
    if not servers[0].started:
        # as uvicorn.run: the command names --host and --port (cli.listening)
        sys.exit(UVICORN_STARTUP_FAILURE)


__all__ = ["ApiKey", "KeyTable", "Namespaces", "allowed_hosts", "bearer_token", "check_bind",
           "check_key_namespaces", "create_api", "create_app", "host_allowed", "host_port",
           "namespace_url", "serve"]
