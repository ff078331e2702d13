"""The one HTTP layer of every remote embedding provider (E8, E9, E11).

:meth:`HttpClient.post_json` sends one JSON request and returns the decoded
answer, or raises :class:`~chatmem.errors.EmbeddingUnavailable` with a
``retry_decision``:

* ``fail``: not worth retrying as is (400, 401, 403, 404, 422, …): the
  configuration or the input is wrong.
* ``defer``: transient (5xx, 429, network error, timeout) and the attempts are
  used up, or the next wait would not end before the caller's deadline: try
  again later (the indexer reschedules; recall degrades to full text).
* ``cooldown``: the service asked us to wait (``Retry-After``) and that time has
  not passed for this (provider, endpoint, model): failed fast, no request sent.
* ``invalid``: the service answered 2xx with something that is not JSON, JSON naming
  a key twice in one object, or a body that cannot be decoded (a broken gzip stream).

Rules of one call: each attempt has its own timeout (``timeout``, 30 s) for the
whole exchange (connect, send, every read), cut short by the deadline; the
caller's cancellation cancels the attempt under way (asyncio) and drops its
connection; 5xx, 408, 425, 429 and network errors are retried up to
``max_retries`` times after an exponential backoff with full jitter
(0.5 s · 2^attempt, at most 8 s), or after ``Retry-After`` (seconds or an HTTP
date) when the answer carries one; a ``Retry-After`` is also recorded as a
cooldown that other calls honour: a call that *starts* during a cooldown fails
fast, a call already retrying waits it out (or defers, past its deadline).

Secrets never leave this module in clear: URLs are redacted (query values of
key-like parameters and user info), and every text that reaches an exception,
a log line or a status record passes :meth:`HttpClient.redact`, which replaces
each configured secret (the API key, secret header values) by ``***``.

Hand-written rather than ``tenacity``: the deadline-aware ``defer``, the shared
cooldown book and the per-decision errors are most of the logic, and they read
more plainly as one loop than as tenacity's stop/wait/retry callbacks.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import re
import ssl
import threading
import time
import weakref
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

import httpx

from .._aio import wait_within
from .._http import AnswerTooLarge, parse_retry_after, read_bounded
from ..config import SECRET_QUERY_PARAMS
from ..errors import EmbeddingUnavailable
from ..refusals import DuplicateKey, describe, one_of_each

#: Query parameters whose values are secrets (Gemini's ``?key=``, and common others).
SECRET_PARAMS = SECRET_QUERY_PARAMS
#: Header names whose values are secrets.
SECRET_HEADERS = frozenset({"authorization", "api-key", "x-api-key", "x-goog-api-key",
                            "proxy-authorization", "cookie"})
#: Parts of a header name that mark its value as a secret too: gateways name their keys
#: freely (Azure API Management's ``Ocp-Apim-Subscription-Key``, ``X-Auth-Token``).
SECRET_HEADER_MARKERS = ("key", "token", "auth", "secret", "password", "cookie",
                         "credential", "signature")
BACKOFF_BASE_S = 0.5
BACKOFF_MAX_S = 8.0
#: Longest ``Retry-After`` honoured; a longer one is treated as this (a broken or
#: hostile header must not stall indexing for days).
RETRY_AFTER_MAX_S = 600.0
#: Characters of an error body kept in an exception (redacted).
BODY_SNIPPET_CHARS = 300
#: Bytes of answer allowed per text embedded (after decompression), and for the rest of
#: the answer: a vector of 8,192 numbers written as JSON takes at most about 200 KB, so
#: a batch's answer is bounded by its size and a URL that points at something else (a
#: file, a stream) is never read whole into memory.
ANSWER_BYTES_PER_TEXT = 8192 * 32
ANSWER_BYTES_BASE = 1024 * 1024

RETRYABLE_STATUS = frozenset({408, 425, 429})


def is_secret_header(name: str) -> bool:
    """Whether the value of header ``name`` is redacted wherever it could be shown."""
    name = name.lower()
    return name in SECRET_HEADERS or any(m in name for m in SECRET_HEADER_MARKERS)


def redact_url(url: str) -> str:
    """``url`` without secrets: user info dropped, values of key-like query params
    replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable url>"
    netloc = parts.netloc.rsplit("@", 1)[-1]
    query = parts.query
    if query:
        pairs = parse_qsl(query, keep_blank_values=True)
        query = urlencode([(k, "***" if k.lower() in SECRET_PARAMS else v) for k, v in pairs],
                          safe="*")
    if not query and parts.query:  # unparseable: drop it rather than risk a key
        query = "***"
    return urlunsplit((parts.scheme, netloc, parts.path, query, ""))


def secret_pattern(secrets: Iterable[str]) -> re.Pattern[str] | None:
    """One pattern matching each of ``secrets`` (those of 4 characters or more) as written
    and in every form a URL gives it: any of its characters percent-encoded, with hex
    digits of either case, and a space also as ``+``. A key holding ``+``, ``/`` or ``=``
    travels as ``?key=sk%2B…`` (Gemini), and a service quoting the request, or a key in
    an endpoint's path, showed it so: matched as written only, it was shown in errors,
    logs and ``chatmem doctor``. None when there is no secret.

    Longest first, so that a secret containing another is replaced whole."""
    forms = sorted({s for s in secrets if len(s) >= 4}, key=len, reverse=True)
    if not forms:
        return None
    return re.compile("|".join("".join(map(_char_forms, s)) for s in forms))


def _char_forms(char: str) -> str:
    """A pattern of ``char`` as written or percent-encoded (its UTF-8 bytes, ``%2b`` or
    ``%2B``), a space also as ``+``."""
    encoded = "".join(f"%{b:02X}" for b in char.encode())
    plus = r"|\+" if char == " " else ""
    return f"(?:{re.escape(char)}|(?i:{encoded}){plus})"


_SECRET_QUERY = re.compile(
    r"([?&](?:" + "|".join(re.escape(p) for p in sorted(SECRET_PARAMS)) + r")=)[^&#\s\"']*",
    re.IGNORECASE)


#: The loggers of the HTTP libraries. A logger's filter sees only the records created on
#: that very logger (not its children's), so httpcore's are listed one by one.
_LIB_LOGGERS = ("httpx", "httpcore", "httpcore.connection", "httpcore.http11",
                "httpcore.http2", "httpcore.proxy", "httpcore.socks")


class _RedactingFilter(logging.Filter):
    """Redacts every record of the ``httpx``/``httpcore`` loggers: httpx logs each
    request's full URL at INFO, and Gemini's key travels in the URL (``?key=``);
    httpcore logs the response headers at DEBUG (a service may echo a key)."""

    def __init__(self) -> None:
        super().__init__()
        self._clients: weakref.WeakSet[HttpClient] = weakref.WeakSet()
        self._lock = threading.Lock()  # clients are added from any thread

    def add(self, client: HttpClient) -> None:
        with self._lock:
            self._clients.add(client)

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            text = record.getMessage()
        except Exception:  # a record that cannot format itself: leave it to logging
            return True
        clean = _SECRET_QUERY.sub(r"\1***", text)
        with self._lock:
            clients = list(self._clients)
        for client in clients:
            clean = client.redact(clean)
        if clean != text:
            record.msg, record.args = clean, ()
        return True


_LIB_FILTER = _RedactingFilter()
for _name in _LIB_LOGGERS:
    logging.getLogger(_name).addFilter(_LIB_FILTER)


class CooldownBook:
    """Until when each (provider, endpoint, model) asked not to be called (E8).

    Process-wide by default (:data:`COOLDOWNS`): two embedders calling the same
    service share what it said. Thread-safe (the sync wrappers run loops in threads).
    """

    def __init__(self) -> None:
        self._until: dict[tuple[str, str, str], float] = {}
        self._lock = threading.Lock()

    def until(self, key: tuple[str, str, str]) -> float:
        """Monotonic time the cooldown of ``key`` ends (0 when none)."""
        with self._lock:
            end = self._until.get(key, 0.0)
            if end and end <= time.monotonic():
                del self._until[key]
                return 0.0
            return end

    def record(self, key: tuple[str, str, str], seconds: float) -> None:
        end = time.monotonic() + seconds
        with self._lock:
            self._until[key] = max(end, self._until.get(key, 0.0))

    def clear(self) -> None:
        with self._lock:
            self._until.clear()


COOLDOWNS = CooldownBook()


class HttpClient:
    """POSTs JSON for one provider with the rules of the module docstring."""

    def __init__(
        self,
        provider: str,
        *,
        model: str,
        timeout: float = 30.0,
        max_retries: int = 2,
        headers: Mapping[str, str] | None = None,
        secrets: Sequence[str] = (),
        transport: httpx.AsyncBaseTransport | None = None,
        cooldowns: CooldownBook | None = None,
    ) -> None:
        self.provider = provider
        self.model = model
        self.timeout = timeout
        self.max_retries = max_retries
        self.headers = dict(headers or {})
        # a secret header's whole value, and its credential alone ("Bearer <token>")
        header_secrets = [part for k, v in self.headers.items() if is_secret_header(k)
                          for part in (v, v.split()[-1] if v.split() else v)]
        # each also as an error quotes it when it cannot be sent: escaped (h11's
        # "Illegal header value b'Bearer sk-…\\r'") and without the stray whitespace
        forms = [form for s in (*secrets, *header_secrets) if s
                 for form in (s, s.strip(), s.encode("unicode_escape").decode("ascii"),
                              repr(s.encode())[2:-1])]
        self._secrets = secret_pattern(forms)
        self._transport = transport
        self.cooldowns = cooldowns if cooldowns is not None else COOLDOWNS
        #: id(loop) → (the loop, weakly; its connection pool)
        self._clients: dict[int, tuple[weakref.ref[asyncio.AbstractEventLoop],
                                       httpx.AsyncClient]] = {}
        self.log = logging.getLogger(f"chatmem.embedding.{provider}")
        _LIB_FILTER.add(self)

    # ------------------------------------------------------------------ secrets

    def redact(self, text: str) -> str:
        """``text`` with every configured secret replaced by ``***``, as written or in
        any form a URL gives it (:func:`secret_pattern`)."""
        return self._secrets.sub("***", text) if self._secrets is not None else text

    def error(self, reason: str, *, url: str, status: int | None = None,
              decision: str) -> EmbeddingUnavailable:
        """The :class:`EmbeddingUnavailable` of this provider, secrets redacted."""
        return EmbeddingUnavailable(self.redact(reason), provider=self.provider,
                                    url=self.redact(redact_url(url)), status=status,
                                    retry_decision=decision)

    # ------------------------------------------------------------------ client

    def _client(self) -> httpx.AsyncClient:
        """One connection pool per event loop (an AsyncClient must not cross loops).

        Pools are keyed by the loop's id *and* checked to belong to that very loop: a
        finished loop's id is reused by a later one, whose requests would otherwise
        land in a pool bound to a closed loop. Pools of dead loops are dropped."""
        loop = asyncio.get_running_loop()
        entry = self._clients.get(id(loop))
        if entry is not None and entry[0]() is loop and not entry[1].is_closed:
            return entry[1]
        self._clients = {k: v for k, v in self._clients.items() if _running(v[0]())}
        client = httpx.AsyncClient(transport=self._transport, follow_redirects=False,
                                   trust_env=self._transport is None)
        self._clients[id(loop)] = (weakref.ref(loop), client)
        return client

    async def aclose(self) -> None:
        """Close this loop's connection pool; pools of other (finished) loops are dropped
        (their sockets closed by the garbage collector: awaiting them here would cross
        event loops)."""
        loop = asyncio.get_running_loop()
        clients, self._clients = self._clients, {}
        entry = clients.get(id(loop))
        if entry is not None and entry[0]() is loop:
            await entry[1].aclose()

    # ------------------------------------------------------------------ requests

    def cooldown_key(self, url: str) -> tuple[str, str, str]:
        return (self.provider, redact_url(url), self.model)

    async def post_json(self, url: str, body: Any, *, params: Mapping[str, str] | None = None,
                        headers: Mapping[str, str] | None = None,
                        deadline: float | None = None,
                        max_retries: int | None = None, texts: int = 1) -> Any:
        """POST ``body`` as JSON to ``url`` and return the decoded answer.

        ``texts``: how many texts the request embeds; the answer may hold
        :data:`ANSWER_BYTES_PER_TEXT` bytes for each (an error past that, not retried).

        ``deadline`` is a :func:`time.monotonic` time after which no attempt is
        started and no wait is begun that would end past it (decision ``defer``).
        ``max_retries`` replaces the configured number for this call.
        """
        retries = self.max_retries if max_retries is None else max_retries
        full_url = url if not params else f"{url}{'&' if '?' in url else '?'}" \
            f"{urlencode(params)}"
        key = self.cooldown_key(full_url)
        send_headers = {**self.headers, **(headers or {})}
        payload = json.dumps(body, ensure_ascii=False).encode()
        cooling = self.cooldowns.until(key) - time.monotonic()
        if cooling > 0:
            raise self.error(f"the service asked to wait (Retry-After); {cooling:.1f} s of "
                             "cooldown left, no request sent", url=full_url,
                             decision="cooldown")
        answer_limit = ANSWER_BYTES_BASE + max(1, texts) * ANSWER_BYTES_PER_TEXT
        attempt = 0
        while True:
            budget = self.timeout
            if deadline is not None:
                budget = min(budget, deadline - time.monotonic())
                if budget <= 0:
                    raise self.error("deadline reached before the request could be sent",
                                     url=full_url, decision="defer")
            status: int | None = None
            retry_after: float | None = None
            started = time.perf_counter()
            try:
                # httpx's timeout bounds each network operation; wait_for bounds the
                # attempt (a server dripping bytes must not outlive it; wait_within, not
                # asyncio.wait_for, which can drop a cancellation before Python 3.12)
                response = await wait_within(read_bounded(
                    self._client(), "POST", full_url, limit=answer_limit, content=payload,
                    headers={"content-type": "application/json", **send_headers},
                    timeout=httpx.Timeout(budget)), budget)
            except AnswerTooLarge as exc:
                if exc.status < 500 and exc.status not in RETRYABLE_STATUS:
                    # not an outage: the same URL answers the same
                    raise self.error(f"the answer is larger than {exc.limit} bytes (is the "
                                     "URL an embeddings endpoint?)", url=full_url,
                                     status=exc.status, decision="fail") from None
                # an outage with a long page (a proxy's 502 in HTML, a 503 with a stack
                # trace): retried as any 5xx or 429, where it failed the batch at once
                status = exc.status
                problem = f"HTTP {status}: an answer of more than {exc.limit} bytes (not read)"
            except httpx.DecodingError as exc:  # a broken gzip body: the service's fault
                raise self.error(f"answer could not be decoded ({exc})", url=full_url,
                                 decision="invalid") from None
            except (httpx.TimeoutException, asyncio.TimeoutError) as exc:
                problem = f"timed out after {budget:.1f} s ({type(exc).__name__})"
            except httpx.ConnectError as exc:
                tls = _tls_failure(exc)
                if tls is not None:
                    # the same at every attempt (the scheme, the certificate): retried as
                    # a network error, and doctor said "is the service running?"
                    raise self.error(tls, url=full_url, decision="fail") from None
                problem = f"network error: {type(exc).__name__}: {exc}"
            except httpx.TransportError as exc:
                problem = f"network error: {type(exc).__name__}: {exc}"
            except httpx.InvalidURL as exc:
                raise self.error(f"invalid URL: {exc}", url=full_url,
                                 decision="fail") from None
            else:
                status = response.status_code
                elapsed_ms = (time.perf_counter() - started) * 1000
                self.log.debug("POST %s → %d in %.0f ms (attempt %d)",
                               self.redact(redact_url(full_url)), status, elapsed_ms,
                               attempt + 1)
                if 200 <= status < 300:
                    try:
                        # a key given twice ({"embeddings": […], "embeddings": […]}) was
                        # taken as its last: parsers disagree on which one counts
                        return response.json(object_pairs_hook=one_of_each)
                    except DuplicateKey as exc:
                        raise self.error(f"unexpected answer shape (the key "
                                         f"{snippet(describe(exc.args[0]))} is given twice "
                                         "in one object)", url=full_url, status=status,
                                         decision="invalid") from None
                    # RecursionError: arrays nested past Python's stack ("[[[[…", within
                    # the size bound) were a crash of the call, decision fail, not the
                    # service's bad answer
                    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as exc:
                        raise self.error(f"answer is not JSON ({exc.__class__.__name__}): "
                                         f"{snippet(response.text)}", url=full_url,
                                         status=status, decision="invalid") from None
                problem = f"HTTP {status}: {snippet(response.text)}"
                location = response.headers.get("location")
                if 300 <= status < 400 and location:
                    # not followed (the key goes to the configured endpoint only); the
                    # error said "rejected:" and the body, often empty, so an http://
                    # endpoint moved to https:// read as a refusal with nothing to fix
                    raise self.error(
                        f"redirected to {_redirect_target(full_url, location)}"
                        " (HTTP redirects are not followed, so that the key goes to the "
                        "configured endpoint only): set embedding.endpoint to the address "
                        "the service moved to", url=full_url, status=status, decision="fail")
                fix = model_problem(response.text, self.model)
                if fix is not None:
                    # the model named cannot embed: no outage (Ollama answers a chat model
                    # with 500), the same at every attempt, and doctor said "try later"
                    raise self.error(f"the service cannot embed with this model (HTTP "
                                     f"{status}: {snippet(response.text)}): {fix}",
                                     url=full_url, status=status, decision="fail")
                if status < 500 and status not in RETRYABLE_STATUS:
                    raise self.error(f"rejected: {snippet(response.text)}", url=full_url,
                                     status=status, decision="fail")
                retry_after = parse_retry_after(response.headers.get("retry-after"),
                                                cap=RETRY_AFTER_MAX_S)
                if retry_after is not None and retry_after > 0:
                    self.cooldowns.record(key, retry_after)
            # DEBUG: an outage fails every attempt; the Embedder warns once per outage
            self.log.debug("attempt %d of %d failed: %s", attempt + 1, retries + 1,
                          self.redact(problem))
            if attempt >= retries:
                raise self.error(f"gave up after {attempt + 1} attempt(s): {problem}",
                                 url=full_url, status=status, decision="defer")
            wait = retry_after if retry_after is not None else \
                random.uniform(0.0, min(BACKOFF_MAX_S, BACKOFF_BASE_S * 2 ** attempt))
            # a cooldown another call recorded meanwhile is honoured too
            wait = max(wait, self.cooldowns.until(key) - time.monotonic())
            if deadline is not None and time.monotonic() + wait >= deadline:
                raise self.error(f"the next attempt (in {wait:.1f} s) would pass the "
                                 f"deadline; last error: {problem}", url=full_url,
                                 status=status, decision="defer")
            await asyncio.sleep(wait)
            attempt += 1


def model_problem(text: str, model: str) -> str | None:
    """The fix when a service's error ``text`` says the model named cannot embed, at any
    status, else None. Ollama's words (its own API and its ``/v1``): a chat model is
    answered ``"llama3" does not support embeddings`` (HTTP 500 from the model runner of
    older versions, 400 from newer ones), a model not pulled ``model "x" not found, try
    pulling it first`` (404). The first was retried as an outage (decision defer) and
    ``chatmem doctor`` said "try later"."""
    said = text.lower()
    shown = snippet(model)
    if "does not support embedding" in said:
        return (f"embedding.model: {shown} is not an embedding model; set embedding.model "
                "to one (with Ollama: ollama pull nomic-embed-text)")
    if "try pulling it first" in said:
        return (f"embedding.model: the service has no model {shown}; pull it (ollama pull "
                f"{shown}), or set embedding.model to a model it has")
    return None


#: Statuses a service answers a path it does not serve with (Ollama: 404; a server that
#: routes by method too: 405).
WRONG_PATH_STATUS = frozenset({404, 405})
#: Paths of Ollama's native embeddings API and of an OpenAI-compatible one (``/v1``,
#: or its full ``/v1/embeddings``), as an endpoint ends with them.
OLLAMA_PATHS = ("/api/embeddings", "/api/embed")
OPENAI_PATHS = ("/v1/embeddings", "/v1")


def other_api(provider: str, endpoint: str) -> str | None:
    """The fix when ``endpoint`` ends with the path of the other wire format than
    ``provider`` speaks, else None: an ``ollama`` provider pointed at an OpenAI-compatible
    ``…/v1`` (Ollama serves one there, which it answers 404 for ``…/v1/api/embed``), or an
    ``openai`` provider at Ollama's native ``…/api/embed`` (404 for its
    ``…/api/embed/embeddings``) or ``…/api/embeddings`` (the older endpoint, answering
    200 without vectors): the service's error named no setting."""
    parts = urlsplit(endpoint.strip())
    path = parts.path.rstrip("/")
    own, other, tails = {"ollama": ("ollama", "openai", OPENAI_PATHS),
                         "openai": ("openai", "ollama", OLLAMA_PATHS)}.get(
                             provider, ("", "", ()))
    tail = next((t for t in tails if path.lower().endswith(t)), None)
    if tail is None:
        return None
    base = redact_url(urlunsplit(parts._replace(path=path[:-len(tail)], query="")))
    written = path[-len(tail):]
    if own == "ollama":
        return (f"embedding.endpoint ends in {written}, the path of an OpenAI-compatible "
                f"API, not Ollama's native one: use provider {other} with this endpoint, "
                f"or point provider {own} at the server's address {base}")
    return (f"embedding.endpoint ends in {written}, the path of Ollama's native API: use "
            f"provider {other} (endpoint {base}), or point provider {own} at Ollama's "
            f"OpenAI-compatible API, {base}/v1")


def _tls_failure(exc: BaseException) -> str | None:
    """What to say of a connection whose TLS handshake failed (an ``ssl.SSLError`` under
    ``exc``), or None when it is another network error."""
    seen: set[int] = set()
    cause: BaseException | None = exc
    while cause is not None and id(cause) not in seen:
        seen.add(id(cause))
        if isinstance(cause, ssl.SSLCertVerificationError):
            return (f"the service's TLS certificate was refused ({cause.verify_message}): "
                    "set embedding.endpoint to the name the certificate is for, or make "
                    "this machine trust it (SSL_CERT_FILE)")
        if isinstance(cause, ssl.SSLError):
            return (f"the TLS handshake failed ({cause.reason or cause}): if the service "
                    "speaks plain HTTP, write http:// in embedding.endpoint")
        cause = cause.__cause__ or cause.__context__
    return None


def _running(loop: asyncio.AbstractEventLoop | None) -> bool:
    return loop is not None and not loop.is_closed()


def _redirect_target(url: str, location: str) -> str:
    """Where a redirect from ``url`` points, absolute and redacted, at most 300
    characters. (A ``Location`` that is no URL never gets here: httpx refuses the
    answer as a protocol error, a network error to this module.)"""
    return snippet(redact_url(str(httpx.URL(url).join(location))))


#: Control characters (C0 but the whitespace split away, DEL, C1), written out in a snippet.
_CONTROLS = re.compile("[\x00-\x08\x0e-\x1b\x7f-\x9f]")


def snippet(text: str) -> str:
    """The service's text as an error may quote it: on one line, control characters
    written out (``\\x1b``), at most :data:`BODY_SNIPPET_CHARS` characters. An error
    body's escape sequences reached the terminal through the warnings of ``chatmem add``
    and ``recall`` ("embedding failed: …rejected: \\x1b]0;…")."""
    text = _CONTROLS.sub(lambda m: f"\\x{ord(m.group()):02x}", " ".join(text.split()))
    return text if len(text) <= BODY_SNIPPET_CHARS else text[:BODY_SNIPPET_CHARS] + "…"


__all__ = ["COOLDOWNS", "CooldownBook", "HttpClient", "is_secret_header", "model_problem",
           "redact_url", "secret_pattern", "snippet"]
