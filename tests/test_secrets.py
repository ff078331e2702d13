"""API keys never leak (E11, issue 11): through every provider, on success and failure
paths (a service that echoes the key back in its error body and headers, Gemini's
``?key=`` URL), nothing a user or operator can see carries a fake key: log records
of every logger at DEBUG (``httpx``/``httpcore`` included), exception texts, reprs,
tracebacks and URLs, status records and callbacks, ``Memory.stats()``, and the HTTP
server's ``/v1/stats``, ``/metrics`` and error answers."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import secrets
import time
import traceback
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import quote, quote_plus

import httpx
import pytest

from chatmem import Memory
from chatmem.config import Config
from chatmem.embedding import Embedder, StatusDetail, diagnose
from chatmem.embedding.remote import RemoteProvider
from chatmem.errors import ConfigError, EmbeddingUnavailable
from chatmem.server.http import create_app
from fake_embedding_service import FakeEmbeddingService, Recorded, Step, fresh_service
from servers import running


def fake_key() -> str:
    return f"sk-FAKE-KEY-{secrets.token_hex(8)}"


class Seen(logging.Handler):
    """Everything shown: log records (formatted, with tracebacks) and other texts."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.setFormatter(logging.Formatter("%(name)s %(levelname)s %(message)s"))
        self.texts: list[str] = []
        self.records = 0

    def emit(self, record: logging.LogRecord) -> None:
        self.records += 1
        self.texts += [self.format(record), repr(record.args), str(record.msg)]

    def add(self, *items: Any) -> None:
        self.texts += [repr(i) if not isinstance(i, str) else i for i in items]

    def add_error(self, exc: BaseException) -> None:
        self.add(str(exc), repr(exc), *"".join(traceback.format_exception(exc)).splitlines())
        if isinstance(exc, EmbeddingUnavailable):
            self.add(exc.url or "", exc.reason, exc.args)

    def assert_clean(self, *keys: str) -> None:
        assert self.records > 0 and len(self.texts) > 10  # the test saw something
        for key in keys:
            leaks = [t for t in self.texts if key in t]
            assert not leaks, f"key leaked in {len(leaks)} text(s), e.g. {leaks[0][:300]!r}"


@pytest.fixture
def seen() -> Iterator[Seen]:
    handler = Seen()
    root = logging.getLogger()
    levels = {name: logging.getLogger(name).level for name in ("", "httpx", "httpcore")}
    root.addHandler(handler)
    for name in levels:
        logging.getLogger(name).setLevel(logging.DEBUG)
    try:
        yield handler
    finally:
        root.removeHandler(handler)
        for name, level in levels.items():
            logging.getLogger(name).setLevel(level)


@pytest.fixture
def service(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeEmbeddingService]:
    # these tests are about what is shown, not about backoff: keep retries quick
    monkeypatch.setattr("chatmem.embedding.http.BACKOFF_BASE_S", 0.01)
    with fresh_service() as s:
        yield s


def credential(rec: Recorded) -> str:
    """The key a request carried, however its wire format sends it."""
    return rec.query.get("key") or rec.headers.get("api-key") \
        or rec.headers.get("x-api-key") or rec.headers.get("authorization", "")


def echo(rec: Recorded) -> dict[str, Any]:
    """An error body that quotes the caller's key, as some services do."""
    key = credential(rec).removeprefix("Bearer ")
    return {"error": {"message": f"Incorrect API key provided: {key}",
                      "request": {"url": rec.path, "query": rec.query}}}


#: (name, embedding configuration given the service and key)
VARIANTS = [
    ("openai", lambda s, k: s.config("openai", key=k, path="/v1")),
    ("azure", lambda s, k: s.config("openai", key=k, path="/openai/deployments/e",
                                    api_version="2024-10-21")),
    ("openrouter", lambda s, k: s.config("openai", key=k, path="/api/v1",
                                         openrouter={"order": ["openai"]})),
    ("gemini", lambda s, k: s.config("gemini", key=k, path="/v1beta")),
    ("cohere", lambda s, k: s.config("cohere", key=k)),
    ("voyage", lambda s, k: s.config("voyage", key=k, path="/v1")),
    ("mistral", lambda s, k: s.config("mistral", key=k, path="/v1")),
    ("ollama behind a proxy", lambda s, k: s.config("ollama", key=None,
                                                    headers={"Authorization": f"Bearer {k}"})),
    ("custom key header", lambda s, k: s.config("openai", key=None, path="/v1",
                                                headers={"X-Api-Key": k})),
]


async def run_paths(service: FakeEmbeddingService, config: dict[str, Any], key: str,
                    seen: Seen) -> None:
    """Success, then refusal, server errors, garbage, another shape, resets, timeouts, a
    Retry-After past the deadline and the cooldown after it: each failure with the key
    echoed back (the first in a response header too)."""
    statuses: list[StatusDetail] = []
    errors: list[EmbeddingUnavailable] = []
    emb = Embedder.from_config({**config, "max_retries": 1, "timeout": 0.2, "deadline": 2},
                               on_status=statuses.append, on_error=errors.append)
    await emb.embed_many([("what did I say", "query"), "I said hello"])
    service.script(
        Step(401, body=echo, headers={"x-echo": key}),
        Step(500, body=echo), Step(503, body=echo),
        Step(200, body=lambda r: f"<html>oops {credential(r)}</html>"),
        Step(200, body=echo),
        Step(reset=True), Step(reset=True),
        Step(delay=1), Step(delay=1),
        Step(429, body=echo, headers={"Retry-After": "30"}),
    )
    for i in range(8):  # the last one fails fast: cooldown
        with pytest.raises(EmbeddingUnavailable) as info:
            await emb.embed_one(f"failing call {i}")
        seen.add_error(info.value)
    await emb.aclose()
    assert [e.retry_decision for e in errors] == ["fail", "defer", "invalid", "invalid",
                                                  "defer", "defer", "defer", "cooldown"]
    assert all(key in credential(r) for r in service.requests)
    seen.add(*statuses, *errors, emb.status, emb.status.last_error, emb.model_id)


@pytest.mark.parametrize("name, make", VARIANTS, ids=[v[0] for v in VARIANTS])
async def test_no_key_leaks_through_any_provider(service: FakeEmbeddingService, seen: Seen,
                                                 name: str, make: Any) -> None:
    key = fake_key()
    config = make(service, key)
    await run_paths(service, config, key, seen)
    # the service did see the key, and echoed it (so the test is not vacuous)
    assert any(key in credential(r) for r in service.requests)
    seen.assert_clean(key)
    assert any("***" in t for t in seen.texts)
    if name == "gemini":  # the URL is shown, its key is not
        assert any("batchEmbedContents?key=***" in t for t in seen.texts)


@pytest.mark.parametrize("name, make", VARIANTS, ids=[v[0] for v in VARIANTS])
async def test_the_provider_settings_and_requests_show_no_key(
        service: FakeEmbeddingService, name: str, make: Any) -> None:
    # what a debug print or a traceback with its locals (pytest --showlocals, error
    # trackers) shows of the provider: its settings, and the request it sends
    key = fake_key()
    emb = Embedder.from_config(make(service, key))
    provider = emb.provider
    assert isinstance(provider, RemoteProvider)
    request = provider.request(["a text"], "document")
    shown = [repr(provider.settings), str(provider.settings), repr(request)]
    await emb.embed_one("a text")  # the request carries the key (the test is not vacuous)
    await emb.aclose()
    assert key in credential(service.requests[0])
    leaks = [t for t in shown if key in t]
    assert not leaks, leaks
    assert provider.settings.model in shown[0] and "***" in shown[0]


@pytest.mark.parametrize("endpoint", [
    "https://generativelanguage.googleapis.com/v1beta?key={key}",
    "https://user:{key}@embed.example/v1",
    "ftp://embed.example/v1?api_key={key}",
])
def test_configuration_errors_never_echo_a_key(endpoint: str) -> None:
    key = fake_key()
    with pytest.raises(ConfigError) as info:
        Config.load(embedding={"provider": "gemini", "endpoint": endpoint.format(key=key)})
    assert "embedding.endpoint" in str(info.value) and key not in str(info.value)


async def test_key_from_the_environment_and_config_dumps(service: FakeEmbeddingService,
                                                         seen: Seen, tmp_path: Path) -> None:
    key = fake_key()
    service.script(Step(401, body=echo, headers={"x-echo": key}))
    cfg = Config.load(embedding={"provider": "gemini", "endpoint": service.url + "/v1beta"})
    mem = await Memory.open(f"sqlite:///{tmp_path}/direct.db", config=cfg,
                            env={"GEMINI_API_KEY": key})
    try:
        await mem.add([{"session_id": "s", "content": "my locker code is 4471"}])
        deadline = time.monotonic() + 20
        while (await mem.stats())["embedder"]["errors"] < 1:
            assert time.monotonic() < deadline, "the failing embedding call never happened"
            await asyncio.sleep(0.05)
        stats = await mem.stats()
        assert stats["embedder"]["last_error"]  # the error is shown, redacted
        seen.add(stats, str(stats))
    finally:
        await mem.close()
    assert service.requests[0].query["key"] == key
    strict = Config.load(embedding={"provider": "gemini", "api_key": key})
    seen.add(strict, strict.model_dump(), strict.model_dump_json(), strict.embedding)
    seen.assert_clean(key)


def test_http_server_never_shows_the_key(service: FakeEmbeddingService, seen: Seen,
                                         tmp_path: Path) -> None:
    key = fake_key()
    # the first indexing call is refused with the key echoed in body and headers; a
    # recall later hits a server error that echoes it too
    service.script(Step(401, body=echo, headers={"x-echo": key}))
    emb = Embedder.from_config(service.config("gemini", key=key, path="/v1beta"))
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db",
                     config=Config.load(context_expand={"window": 0}), embedder=emb)
    answers: list[str] = []
    with running(app) as base, httpx.Client(base_url=base, timeout=30) as c:
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": "the boiler service is on Thursday"}]})
        assert r.status_code == 200, r.text
        deadline = time.monotonic() + 20
        while c.get("/v1/stats").json()["embedder"]["errors"] < 1:
            assert time.monotonic() < deadline, "the failing embedding call never happened"
            time.sleep(0.05)
        answers.append(c.post("/v1/recall", json={"query": "boiler"}).text)
        service.script(Step(500, body=echo, headers={"x-echo": key}),
                       Step(500, body=echo), Step(500, body=echo))
        answers.append(c.post("/v1/recall", json={"query": "when is the boiler"}).text)
        answers += [c.get("/v1/stats").text, c.get("/metrics").text]
    seen.add(*answers, emb.status)
    assert any(key in credential(r) for r in service.requests)
    assert "chatmem_http_requests_total" in answers[-1]
    assert "***" in answers[-2]  # last_error, redacted
    seen.assert_clean(key)


def _lower_hex(text: str) -> str:
    return re.sub("%[0-9A-F]{2}", lambda m: m.group().lower(), text)


#: The forms a key takes in a URL, as a service (or a proxy in front of it) may quote
#: the URL or the key back: percent-encoded, a space as '+' or %20, hex digits in
#: either case, '/' left as it is
ENCODED = {
    "form-encoded": quote_plus,
    "percent-encoded": lambda k: quote(k, safe=""),
    "percent-encoded, / kept": quote,
    "lower-case hex": lambda k: _lower_hex(quote(k, safe="")),
}


@pytest.mark.parametrize("form", sorted(ENCODED))
@pytest.mark.parametrize("provider", ["gemini", "openai"])
async def test_a_key_quoted_percent_encoded_is_redacted_too(
        service: FakeEmbeddingService, seen: Seen, provider: str, form: str) -> None:
    # a key holding characters a URL encodes ('+', '/', '=', a space): Gemini sends it
    # as ?key=sk%2BFAKE%2F…, and a service quoting the request (or the key as a URL
    # carries it) put it in errors, logs, status records and chatmem doctor in a form
    # the redaction, which matched the key as written only, let through
    key = f"sk+FAKE/{secrets.token_hex(8)} k=="
    shown = ENCODED[form](key)
    assert shown != key

    def quoting(rec: Recorded) -> dict[str, Any]:
        return {"error": {"message": f"API key not valid: {shown}",
                          "request": f"POST {rec.path}?{rec.raw_query}"}}

    config = service.config(provider, key=key, path="/v1beta" if provider == "gemini"
                            else "/v1")
    statuses: list[StatusDetail] = []
    errors: list[EmbeddingUnavailable] = []
    emb = Embedder.from_config({**config, "max_retries": 1}, on_status=statuses.append,
                               on_error=errors.append)
    service.script(Step(400, body=quoting, headers={"x-echo": shown}),
                   Step(503, body=quoting), Step(503, body=quoting))
    for i in range(2):
        with pytest.raises(EmbeddingUnavailable) as info:
            await emb.embed_one(f"failing call {i}")
        seen.add_error(info.value)
    await emb.aclose()
    seen.add(*statuses, *errors, emb.status, emb.status.last_error)
    service.script(Step(401, body=quoting, headers={"x-echo": shown}))
    diagnosis = await diagnose(config)
    assert not diagnosis.ok and diagnosis.error
    seen.add(json.dumps(diagnosis.to_dict()), *diagnosis.lines())
    # the key travelled (encoded in Gemini's URL), and was quoted back
    if provider == "gemini":
        assert all(quote_plus(key) in r.raw_query for r in service.requests)
    else:
        assert all(credential(r) == f"Bearer {key}" for r in service.requests)
    assert any(shown in str(e.reason) or "***" in e.reason for e in errors)
    seen.assert_clean(key, shown, quote_plus(key), quote(key, safe=""))
    assert any("API key not valid: ***" in t for t in seen.texts)


async def test_a_key_percent_encoded_in_the_endpoint_is_redacted(
        service: FakeEmbeddingService) -> None:
    # a gateway that takes the key in its path: the endpoint carries it percent-encoded
    # ('/' must be), and the error's URL and chatmem doctor's endpoint showed it so
    key = f"gw+FAKE/{secrets.token_hex(8)}="
    config = service.config("openai", key=key, path=f"/gw/{quote(key, safe='')}/v1")
    service.script(Step(404))
    emb = Embedder.from_config(config)
    with pytest.raises(EmbeddingUnavailable) as info:
        await emb.embed_one("a text")
    await emb.aclose()
    service.script(Step(404))
    diagnosis = await diagnose(config)
    shown = [str(info.value), repr(info.value), info.value.url or "",
             repr(emb.provider), str(getattr(emb.provider, "redacted_endpoint", "")),
             json.dumps(diagnosis.to_dict()), *diagnosis.lines()]
    assert service.requests[0].path == f"/gw/{quote(key, safe='')}/v1/embeddings"
    leaks = [t for t in shown if quote(key, safe="") in t or key in t]
    assert not leaks, leaks
    assert diagnosis.endpoint and "/gw/***/v1" in diagnosis.endpoint
