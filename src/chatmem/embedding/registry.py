"""The provider registry: ``embedding.provider`` → how to build that provider (E2, E3).

Each :class:`ProviderSpec` says where a provider's class lives (imported only
when used), its default model and endpoint, where its key comes from, and what
is known of its models (native sizes, languages). :func:`build_provider` turns
an :class:`~chatmem.config.EmbeddingConfig` into a provider; a cloud provider
without a key fails here, at construction, with ``EmbeddingUnavailable`` naming
the setting — never a silent fallback to another provider.

Keys are looked up in the configuration first, then in ``env`` — the mapping
the CLI and the servers pass (``os.environ``); library code never reads the
environment itself.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import httpx

from ..config import DEFAULT_MODELS, EmbeddingConfig
from ..errors import ConfigError, EmbeddingUnavailable
from ..refusals import describe
from .base import EmbeddingProvider
from .http import CooldownBook
from .remote import RemoteSettings

#: Languages of the remote models chatmem knows; a model not listed declares none
#: (hybrid recall then trusts its dense scores for every script).
MULTI = ("multilingual",)


@dataclass(frozen=True)
class ProviderSpec:
    """How to build one provider."""

    name: str
    #: ``"module:Class"`` of the provider, imported when first used.
    target: str
    default_model: str
    default_endpoint: str | None = None
    #: Environment variable of the key, given the endpoint and options (None: no key).
    key_env: Callable[[str, Mapping[str, Any]], str | None] = lambda e, o: None
    #: Whether a key is required, given the endpoint.
    key_required: Callable[[str], bool] = lambda e: False
    #: Native output size of known models.
    dimensions: Mapping[str, int] = field(default_factory=dict)
    #: The largest size a known model can be asked for (``embedding.dimensions``, sent by
    #: the providers whose API takes one) when it is not its native size.
    max_dimensions: Mapping[str, int] = field(default_factory=dict)
    #: Known models whose size cannot be asked for at the provider's own service (the
    #: host of ``default_endpoint``), which refuses the request that tries (HTTP 400):
    #: model → the models that take a size instead. ``embedding.dimensions`` other than
    #: the native size is refused when the provider is built, and none is sent. Another
    #: host (a self-hosted server, a proxy) may serve anything under that name: it is
    #: sent the size as configured.
    fixed_size: Mapping[str, str] = field(default_factory=dict)
    #: Languages of known models.
    languages: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: Whether the wire format distinguishes queries from documents.
    roles: bool = False


def _const(name: str) -> Callable[[str, Mapping[str, Any]], str | None]:
    return lambda endpoint, options: name


def _always(endpoint: str) -> bool:
    return True


def _openai_key_env(endpoint: str, options: Mapping[str, Any]) -> str | None:
    from .openai import key_env

    return key_env(endpoint, dict(options))


def _openai_key_required(endpoint: str) -> bool:
    from .openai import needs_key

    return needs_key(endpoint)


PROVIDERS: dict[str, ProviderSpec] = {}


def register_provider(spec: ProviderSpec) -> None:
    """Add (or replace) a provider in the registry."""
    PROVIDERS[spec.name] = spec


for _spec in (
    ProviderSpec(
        "openai", "chatmem.embedding.openai:OpenAIProvider", DEFAULT_MODELS["openai"],
        "https://api.openai.com/v1", _openai_key_env, _openai_key_required,
        dimensions={"text-embedding-3-small": 1536, "text-embedding-3-large": 3072,
                    "text-embedding-ada-002": 1536},
        # "This model does not support specifying dimensions" (HTTP 400)
        fixed_size={"text-embedding-ada-002": "text-embedding-3-small or "
                    "text-embedding-3-large: only the text-embedding-3 models take one"},
        languages={"text-embedding-3-small": MULTI, "text-embedding-3-large": MULTI}),
    ProviderSpec(
        "gemini", "chatmem.embedding.gemini:GeminiProvider", DEFAULT_MODELS["gemini"],
        "https://generativelanguage.googleapis.com/v1beta", _const("GEMINI_API_KEY"),
        _always, dimensions={"gemini-embedding-001": 3072, "text-embedding-004": 768},
        languages={"gemini-embedding-001": MULTI}, roles=True),
    ProviderSpec(
        "cohere", "chatmem.embedding.cohere:CohereProvider", DEFAULT_MODELS["cohere"],
        "https://api.cohere.com", _const("COHERE_API_KEY"), _always,
        dimensions={"embed-multilingual-v3.0": 1024, "embed-english-v3.0": 1024,
                    "embed-multilingual-light-v3.0": 384, "embed-english-light-v3.0": 384},
        languages={"embed-multilingual-v3.0": MULTI, "embed-english-v3.0": ("en",),
                   "embed-multilingual-light-v3.0": MULTI,
                   "embed-english-light-v3.0": ("en",)}, roles=True),
    ProviderSpec(
        "voyage", "chatmem.embedding.voyage:VoyageProvider", DEFAULT_MODELS["voyage"],
        "https://api.voyageai.com/v1", _const("VOYAGE_API_KEY"), _always,
        dimensions={"voyage-3.5": 1024, "voyage-3.5-lite": 1024, "voyage-3-large": 1024},
        # output_dimension: 256, 512, 1024 (the default) or 2048
        max_dimensions={"voyage-3.5": 2048, "voyage-3.5-lite": 2048, "voyage-3-large": 2048},
        languages={"voyage-3.5": MULTI, "voyage-3.5-lite": MULTI, "voyage-3-large": MULTI},
        roles=True),
    ProviderSpec(
        "mistral", "chatmem.embedding.mistral:MistralProvider", DEFAULT_MODELS["mistral"],
        "https://api.mistral.ai/v1", _const("MISTRAL_API_KEY"), _always,
        dimensions={"mistral-embed": 1024}),
    ProviderSpec(
        "ollama", "chatmem.embedding.ollama:OllamaProvider", DEFAULT_MODELS["ollama"],
        "http://127.0.0.1:11434", dimensions={"nomic-embed-text": 768, "bge-m3": 1024,
                                             "mxbai-embed-large": 1024,
                                             "all-minilm": 384},
        languages={"bge-m3": MULTI}),
):
    register_provider(_spec)


def provider_key(cfg: EmbeddingConfig, env: Mapping[str, str] | None = None
                 ) -> tuple[str | None, str | None]:
    """(key, the environment variable it would come from) for ``cfg``."""
    spec = PROVIDERS.get(cfg.provider)
    if spec is None:
        return None, None
    endpoint = cfg.endpoint or spec.default_endpoint or ""
    var = spec.key_env(endpoint, _options(cfg))
    if cfg.api_key is not None and cfg.api_key.get_secret_value():
        return cfg.api_key.get_secret_value(), var
    if var and env is not None and env.get(var):
        return env[var], var
    return None, var


def _sendable_key(key: str) -> bool:
    """Whether ``key`` can travel in an HTTP header or query as it is: printable ASCII,
    no spaces around it."""
    return key == key.strip() and all(" " <= c <= "~" for c in key)


def _cleartext_to_a_cloud(spec: ProviderSpec, endpoint: str) -> bool:
    """Whether ``endpoint`` is ``http://`` to a cloud service of ``spec``: the host of its
    default endpoint, or one whose key is required (Azure, OpenRouter)."""
    parts = urlsplit(endpoint)
    if parts.scheme.lower() != "http":
        return False
    home = urlsplit(spec.default_endpoint or "")
    host = (parts.hostname or "").lower().rstrip(".")
    return (home.scheme == "https" and host == (home.hostname or "").lower()) \
        or (spec.name == "openai" and spec.key_required(endpoint))


def _at_home(spec: ProviderSpec, endpoint: str) -> bool:
    """Whether ``endpoint`` is on the host of ``spec``'s default endpoint."""
    host = (urlsplit(endpoint).hostname or "").lower().rstrip(".")
    return bool(host) and host == (urlsplit(spec.default_endpoint or "").hostname or "")


def _options(cfg: EmbeddingConfig) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if cfg.api_version:
        out["api_version"] = cfg.api_version
    if cfg.openrouter is not None:
        out["openrouter"] = {"order": list(cfg.openrouter.order),
                             "ignore": list(cfg.openrouter.ignore)}
    return out


def build_provider(cfg: EmbeddingConfig, *, env: Mapping[str, str] | None = None,
                   transport: httpx.AsyncBaseTransport | None = None,
                   cooldowns: CooldownBook | None = None) -> EmbeddingProvider:
    """The provider ``cfg`` names, ready to use (a local model loads on first use)."""
    if cfg.provider == "local":
        from .auto import AUTO, AutoProvider
        from .local import LocalProvider

        if cfg.model == AUTO:
            return AutoProvider(threads=cfg.threads, max_length=cfg.max_length)
        return LocalProvider(cfg.model, threads=cfg.threads, max_length=cfg.max_length)
    spec = PROVIDERS.get(cfg.provider)
    if spec is None:
        raise ConfigError(f"embedding.provider: unknown provider {describe(cfg.provider)}; "
                          f"known: {', '.join(sorted(['local', *PROVIDERS]))}")
    endpoint = cfg.endpoint or spec.default_endpoint
    if not endpoint:
        raise ConfigError(f"embedding.endpoint: the {cfg.provider} provider needs one")
    key, var = provider_key(cfg, env)
    if _cleartext_to_a_cloud(spec, endpoint):
        # the first request would carry the key over the network unencrypted (the
        # service's redirect to https, not followed, comes after it)
        raise ConfigError(f"embedding.endpoint: {urlsplit(endpoint).hostname} is served over "
                          "https; an http:// URL would send the API key unencrypted: write "
                          "https://")
    if key is None and spec.key_required(endpoint):
        where = f" or the {var} environment variable" if var else ""
        raise EmbeddingUnavailable(
            f"no API key: set embedding.api_key{where} (the CLI and servers read the "
            "environment; in a program pass env=os.environ)",
            provider=cfg.provider, retry_decision="fail")
    if key is not None and not _sendable_key(key):
        # refused here: the HTTP library would raise on every call with the key quoted
        # in an escaped form that redaction cannot match ("…\\r"), as an outage (retried)
        where = "embedding.api_key" if cfg.api_key is not None \
            and cfg.api_key.get_secret_value() else f"the {var} environment variable"
        raise ConfigError(
            f"embedding.api_key: the API key from {where} holds a line break, another "
            "control character, a non-ASCII character or spaces around it, which an HTTP "
            "request cannot carry (a stray newline or \\r from the file it was copied "
            "from?); set it to the key alone")
    model = cfg.model or spec.default_model
    native = spec.dimensions.get(model)
    fixed = model in spec.fixed_size and _at_home(spec, endpoint)
    if fixed and cfg.dimensions and cfg.dimensions != native:
        # the service refuses the size parameter of this model: built, every call was
        # refused (HTTP 400) and the messages waited for retries that never succeed
        raise ConfigError(
            f"embedding.dimensions: {cfg.provider}:{model} cannot be asked for a size "
            f"({urlsplit(endpoint).hostname} refuses the request that tries, HTTP 400); "
            f"set embedding.dimensions to 0 (its own {native}), or set embedding.model to "
            f"{spec.fixed_size[model]}")
    settings = RemoteSettings(
        model=model, endpoint=endpoint, api_key=key,
        dimensions=cfg.dimensions, headers=dict(cfg.headers), timeout=cfg.timeout,
        max_retries=cfg.max_retries, options=_options(cfg))
    module, _, cls_name = spec.target.partition(":")
    cls = getattr(importlib.import_module(module), cls_name)
    provider: EmbeddingProvider = cls(
        settings, transport=transport, cooldowns=cooldowns,
        languages=spec.languages.get(settings.model),
        native_dimensions=native, takes_dimensions=not fixed,
        max_dimensions=spec.max_dimensions.get(settings.model,
                                               spec.dimensions.get(settings.model)),
        max_concurrency=cfg.max_concurrency or None)
    return provider


__all__ = ["PROVIDERS", "ProviderSpec", "build_provider", "provider_key", "register_provider"]
