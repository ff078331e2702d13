"""Is the configured embedding provider usable? (``chatmem doctor``, issue 11 §7).

:func:`diagnose` builds the embedder an ``embedding`` configuration describes,
embeds one probe text, and returns a :class:`Diagnosis`: the provider, model
id, dimensions, latency, the redacted endpoint (remote) or the model files
(local), the cache setting and batch size; or the precise error (retry
decision, HTTP status, redacted URL) and the setting to fix. It never raises
for a configuration or provider problem, and no text it returns holds a key.

Exit codes (:attr:`Diagnosis.exit_code`, used by ``chatmem doctor``):

* 0 — the probe was embedded;
* 1 — the provider is unavailable: unreachable, timing out, failing (5xx),
  rate-limiting (429, ``Retry-After`` cooldown), or answering something that is
  not vectors. Nothing in the configuration is known to be wrong; try later;
* 2 — the configuration is wrong: an invalid or missing setting, no API key, a
  key or model the service refused (401, 403, 404, 400, 422; a model it says cannot
  embed or is not pulled, at any status: Ollama's 500), a size the model
  cannot give, a local model that is not installed. :attr:`Diagnosis.fix`
  names the setting.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Mapping
from dataclasses import asdict, dataclass, replace
from typing import TYPE_CHECKING, Any

from ..config import EmbeddingConfig, embedding_config
from ..errors import ChatmemError, EmbeddingUnavailable
from .auto import AutoProvider
from .embedder import Embedder
from .http import (
    WRONG_PATH_STATUS,
    is_secret_header,
    model_problem,
    other_api,
    redact_url,
    secret_pattern,
)
from .local import LocalProvider
from .registry import PROVIDERS, provider_key
from .remote import RemoteProvider

if TYPE_CHECKING:
    import httpx

#: The text embedded by :func:`diagnose` (a second, different one measures a warm call).
PROBE_TEXT = "chatmem doctor: can this text be embedded?"
WARM_PROBE_TEXT = "chatmem doctor: a second text, to time a warm call"

EXIT_OK = 0
#: The provider is down, overloaded or answered garbage: try again later.
EXIT_UNAVAILABLE = 1
#: A setting is wrong: :attr:`Diagnosis.fix` names it.
EXIT_CONFIG = 2

_FIELD = re.compile(r"\b(embedding\.[a-z_]+(?:\.[a-z_]+)?)")

Scrub = Callable[[str | None], str | None]


@dataclass(frozen=True)
class Diagnosis:
    """What :func:`diagnose` found. Every text is redacted."""

    ok: bool
    provider: str
    #: ``"<provider>:<model>"`` (E3); None when the configuration could not be read.
    model_id: str | None = None
    dimensions: int | None = None
    #: The first probe, in milliseconds: a local model's loading or a remote service's
    #: connection set-up included.
    latency_ms: float | None = None
    #: A second probe with another text (cache not involved): the steady-state latency.
    warm_latency_ms: float | None = None
    #: Base URL of a remote provider, redacted.
    endpoint: str | None = None
    #: How the provider took ``embedding.endpoint``, when not as written (an Ollama
    #: endpoint ending in ``/api/embed``: the address before it), redacted.
    endpoint_note: str | None = None
    #: Where the API key came from: ``embedding.api_key``, the environment variable's
    #: name, or None (no key). Never the key.
    key_from: str | None = None
    #: A local model's files (or its engine's package).
    model_files: tuple[str, ...] = ()
    #: ``lru(<max_items>)`` or ``off``.
    cache: str | None = None
    batch_size: int | None = None
    #: The error, one line, redacted.
    error: str | None = None
    #: ``fail``, ``defer``, ``cooldown``, ``invalid`` (see :mod:`chatmem.embedding.http`),
    #: or ``config`` for a configuration that could not be read or built.
    decision: str | None = None
    #: HTTP status of the failing answer, if one came.
    status: int | None = None
    #: The URL that failed, redacted.
    url: str | None = None
    #: The setting to fix (and how), when the problem is one.
    fix: str | None = None
    exit_code: int = EXIT_OK

    def to_dict(self) -> dict[str, Any]:
        out = asdict(self)
        out["model_files"] = list(self.model_files)
        return out

    def lines(self) -> list[str]:
        """The report of ``chatmem doctor`` (text)."""
        why = "the provider is unavailable" if self.exit_code == EXIT_UNAVAILABLE \
            else "a setting is wrong"
        head = "ok: the probe text was embedded" if self.ok \
            else f"FAILED (exit {self.exit_code}: {why})"
        rows: list[tuple[str, object]] = [("provider", self.provider),
                                          ("model", self.model_id)]
        if self.ok:
            rows += [("dimensions", self.dimensions),
                     ("latency", f"{self.latency_ms:.0f} ms (first call), "
                                 f"{self.warm_latency_ms:.0f} ms (second call)")]
        if self.endpoint is not None:
            key = f"from {self.key_from}" if self.key_from else "none"
            rows += [("endpoint", self.endpoint), ("note", self.endpoint_note),
                     ("api key", key)]
        for f in self.model_files:
            rows.append(("model file", f))
        rows += [("cache", self.cache), ("batch size", self.batch_size)]
        if not self.ok:
            rows += [("error", self.error), ("decision", self.decision),
                     ("http status", self.status), ("url", self.url), ("fix", self.fix)]
        return [f"chatmem doctor: {head}"] + [f"  {k:<12} {v}" for k, v in rows
                                              if v is not None]


def config_failure(error: str, *, provider: str = "unknown") -> Diagnosis:
    """The diagnosis of a configuration that could not be read (``chatmem doctor``
    uses it for a ``--config`` file that is missing or invalid)."""
    m = _FIELD.search(error)
    return Diagnosis(ok=False, provider=provider, error=error, decision="config",
                     fix=m.group(1) if m else "the configuration file",
                     exit_code=EXIT_CONFIG)


async def diagnose(config: EmbeddingConfig | Mapping[str, Any] | str | None = None, *,
                   env: Mapping[str, str] | None = None,
                   transport: httpx.AsyncBaseTransport | None = None,
                   deadline: float | None = None) -> Diagnosis:
    """Build the embedder ``config`` describes and embed :data:`PROBE_TEXT` with it.

    ``env``: where API keys are looked up when the configuration has none (pass
    ``os.environ``); ``transport``: replaces a remote provider's network (tests);
    ``deadline``: seconds each probe may take, retries included (default: the
    configuration's ``embedding.query_deadline``)."""
    try:
        cfg = config if isinstance(config, EmbeddingConfig) else embedding_config(config)
    except ChatmemError as exc:
        provider = config.get("provider", "local") if isinstance(config, Mapping) \
            else "unknown"
        return config_failure(str(exc), provider=str(provider))
    key, _ = provider_key(cfg, env)
    scrub = _scrubber(cfg, key)
    spec = PROVIDERS.get(cfg.provider)
    base = Diagnosis(
        ok=False, provider=cfg.provider, model_id=f"{cfg.provider}:{cfg.model}",
        endpoint=scrub(redact_url(cfg.endpoint or spec.default_endpoint or ""))
        if spec is not None else None,
        key_from=_key_from(cfg, env) if spec is not None else None,
        cache=f"lru({cfg.cache.max_items})" if cfg.cache.enabled else "off",
        batch_size=cfg.batch_size)
    try:
        emb = Embedder.from_config(cfg, env=env, transport=transport)
    except ChatmemError as exc:
        return _failure(base, exc, cfg, env, scrub)
    try:
        prov = emb.provider
        base = replace(base, model_id=emb.model_id, batch_size=emb.batch_size,
                       model_files=prov.files if isinstance(prov, LocalProvider | AutoProvider)
                       else (),
                       endpoint=scrub(prov.redacted_endpoint)
                       if isinstance(prov, RemoteProvider) else base.endpoint,
                       endpoint_note=scrub(prov.endpoint_note)
                       if isinstance(prov, RemoteProvider) else None)
        budget = deadline if deadline is not None else cfg.query_deadline
        try:
            started = time.perf_counter()
            vec = await emb.embed_one(PROBE_TEXT, deadline=budget)
            first = (time.perf_counter() - started) * 1000
            started = time.perf_counter()
            await emb.embed_one(WARM_PROBE_TEXT, deadline=budget)
            warm = (time.perf_counter() - started) * 1000
        except EmbeddingUnavailable as exc:
            return _failure(base, exc, cfg, env, scrub)
        return replace(base, ok=True, dimensions=int(vec.shape[0]),
                       latency_ms=round(first, 1), warm_latency_ms=round(warm, 1))
    finally:
        await emb.aclose()


def _key_from(cfg: EmbeddingConfig, env: Mapping[str, str] | None) -> str | None:
    if cfg.api_key is not None and cfg.api_key.get_secret_value():
        return "embedding.api_key"
    key, var = provider_key(cfg, env)
    return var if key is not None else None


def _scrubber(cfg: EmbeddingConfig, key: str | None) -> Scrub:
    """A function removing every secret of ``cfg`` from a text (belt and braces: the
    HTTP layer already redacts what it raises)."""
    pattern = secret_pattern([key or "", *(v for k, v in cfg.headers.items()
                                          if is_secret_header(k))])

    def scrub(text: str | None) -> str | None:
        if text is None or pattern is None:
            return text
        return pattern.sub("***", text)

    return scrub


def _failure(base: Diagnosis, exc: ChatmemError, cfg: EmbeddingConfig,
             env: Mapping[str, str] | None, scrub: Scrub) -> Diagnosis:
    code, fix = _classify(exc, cfg, env)
    out = replace(base, ok=False, error=scrub(" ".join(str(exc).split())), decision="config",
                  fix=scrub(fix), exit_code=code)
    if isinstance(exc, EmbeddingUnavailable):
        out = replace(out, decision=exc.retry_decision, status=exc.status,
                      url=scrub(exc.url))
    return out


def _classify(exc: ChatmemError, cfg: EmbeddingConfig,
              env: Mapping[str, str] | None) -> tuple[int, str | None]:
    """(exit code, the setting to fix) of a failure."""
    text = str(exc)
    named = _FIELD.search(text)
    _, var = provider_key(cfg, env)
    key_setting = f"embedding.api_key or {var}" if var else "embedding.api_key"
    if not isinstance(exc, EmbeddingUnavailable):  # ConfigError: the message names it
        return EXIT_CONFIG, named.group(1) if named else "embedding"
    status, decision = exc.status, exc.retry_decision
    if "no API key" in text:
        return EXIT_CONFIG, key_setting
    fix = model_problem(text, cfg.model) if decision == "fail" else None
    if fix is not None:  # a chat model, a model not pulled: at any status (Ollama's 500)
        return EXIT_CONFIG, fix
    wrong = other_api(cfg.provider, cfg.endpoint or "")
    if wrong is not None and (status in WRONG_PATH_STATUS or wrong in text):
        return EXIT_CONFIG, wrong  # the other wire format's path: a 404 named no setting
    if status in (401, 403):
        return EXIT_CONFIG, f"{key_setting}: the service refused the key (HTTP {status})"
    if status == 404:
        return EXIT_CONFIG, ("embedding.endpoint or embedding.model: nothing answers at "
                             "that URL for this model")
    if status in (400, 422):
        also = " or embedding.dimensions" if cfg.dimensions else ""
        return EXIT_CONFIG, f"embedding.model{also}: the service refused the request"
    if decision == "fail":
        if named:
            return EXIT_CONFIG, named.group(1)
        if cfg.provider == "local":
            return EXIT_CONFIG, "embedding.model (see README § The default embedding model)"
        return EXIT_CONFIG, "embedding.endpoint"
    if decision == "invalid":
        if "dimension" in text:
            return EXIT_CONFIG, "embedding.dimensions or embedding.model"
        return EXIT_UNAVAILABLE, ("embedding.endpoint, if it is not an embeddings API of "
                                  f"the {cfg.provider} provider; else the service is broken")
    if decision == "cooldown" or status == 429:
        return EXIT_UNAVAILABLE, ("none: the service is rate-limiting (try later, or lower "
                                  "embedding.max_concurrency)")
    if status is not None and status >= 500:
        return EXIT_UNAVAILABLE, f"none: the service failed (HTTP {status}); try later"
    if "network error" not in text and ("timed out" in text or "deadline" in text):
        return EXIT_UNAVAILABLE, ("embedding.timeout / embedding.query_deadline, or the "
                                  "service is overloaded")
    return EXIT_UNAVAILABLE, ("embedding.endpoint: is the service running and reachable "
                              "at that address?")


__all__ = ["EXIT_CONFIG", "EXIT_OK", "EXIT_UNAVAILABLE", "PROBE_TEXT", "Diagnosis",
           "config_failure", "diagnose"]
