"""``openai``: any OpenAI-compatible ``/embeddings`` endpoint (E2).

One wire format, four kinds of service:

* OpenAI itself (default endpoint ``https://api.openai.com/v1``, model
  ``text-embedding-3-small``), ``Authorization: Bearer <key>``;
* Azure OpenAI: ``endpoint`` is the deployment URL
  (``https://<resource>.openai.azure.com/openai/deployments/<deployment>``) and
  ``api_version`` is set; the key travels in the ``api-key`` header and the
  version as ``?api-version=``, once: the endpoint may carry it instead (or the
  same one), a version in each that differ is a ``ConfigError``;
* OpenRouter (``https://openrouter.ai/api/v1``, or any endpoint when
  ``openrouter`` routing is configured, e.g. a proxy): ``openrouter.order`` /
  ``openrouter.ignore`` become its ``provider`` routing object, and the key's
  variable is ``OPENROUTER_API_KEY``;
* self-hosted servers (Ollama's ``/v1``, TEI, vLLM, LM Studio, …): any other
  ``endpoint``; a key is optional there.

``endpoint`` may be the base URL (``…/v1``) or the full ``…/embeddings`` URL.
``dimensions`` (when set) is sent as the request field of the same name, which
the ``text-embedding-3`` models honour; other servers ignore or refuse it.
OpenAI's ``text-embedding-ada-002`` refuses it (HTTP 400): at ``api.openai.com`` a
size other than its 1,536 is refused when the provider is built, and none is sent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import parse_qsl, urlsplit, urlunsplit

from ..errors import ConfigError
from ..refusals import describe
from .base import EmbedRole
from .remote import RemoteProvider, RemoteSettings, Request, data_embeddings

#: Azure's query parameter of the API version.
API_VERSION = "api-version"


def is_azure(endpoint: str, options: dict[str, Any]) -> bool:
    """Azure mode: ``api_version`` set, an Azure host, or ``?api-version=`` in the endpoint."""
    parts = urlsplit(endpoint)
    return bool(options.get("api_version")) or "api-version=" in parts.query \
        or (parts.hostname or "").lower().endswith(".openai.azure.com")


def _is_version(segment: str) -> bool:
    """Whether one ``name=value`` segment of a query is the ``api-version`` parameter."""
    pairs = parse_qsl(segment, keep_blank_values=True)
    return bool(pairs) and pairs[0][0].strip().lower() == API_VERSION


def without_api_version(url: str) -> str:
    """``url`` without its ``api-version`` parameters; the others are kept as written."""
    parts = urlsplit(url)
    kept = [seg for seg in parts.query.split("&") if seg and not _is_version(seg)]
    return urlunsplit(parts._replace(query="&".join(kept)))


def api_version(endpoint: str, options: dict[str, Any]) -> str | None:
    """The one ``api-version`` a request to ``endpoint`` carries: the endpoint's own, or
    ``embedding.api_version``, or both when they agree. They were both sent
    (``?api-version=…&api-version=…``); versions that differ are a :class:`ConfigError`
    naming the two settings."""
    found = [v.strip() for seg in urlsplit(endpoint).query.split("&") if _is_version(seg)
             for _, v in parse_qsl(seg, keep_blank_values=True)[:1]]
    in_url = sorted(set(found))
    if len(in_url) > 1:
        raise ConfigError(f"embedding.endpoint carries api-version {' and '.join(in_url)}: "
                          "a request takes one; keep one of them (or remove them and set "
                          "embedding.api_version)")
    configured = str(options.get("api_version") or "").strip() or None
    if in_url and configured and in_url[0] != configured:
        raise ConfigError(f"embedding.api_version = {describe(configured)} and the "
                          f"api-version {describe(in_url[0])} of embedding.endpoint differ: a "
                          "request takes one; "
                          "remove ?api-version= from embedding.endpoint, or set "
                          "embedding.api_version to the same version")
    return configured or (in_url[0] if in_url else None)


def is_openrouter(endpoint: str) -> bool:
    return _on_host(endpoint, "openrouter.ai")


def _on_host(endpoint: str, domain: str) -> bool:
    """Whether ``endpoint``'s host is ``domain`` or one of its subdomains: a bare suffix
    test took ``notopenrouter.ai`` for OpenRouter, and sent it ``OPENROUTER_API_KEY``."""
    host = (urlsplit(endpoint).hostname or "").lower().rstrip(".")
    return host == domain or host.endswith("." + domain)


def needs_key(endpoint: str) -> bool:
    """A cloud endpoint needs a key; a self-hosted server usually does not."""
    host = (urlsplit(endpoint).hostname or "").lower()
    return host == "api.openai.com" or host.endswith(".openai.azure.com") \
        or is_openrouter(endpoint)


def key_env(endpoint: str, options: dict[str, Any]) -> str:
    """The conventional environment variable of the key for this endpoint."""
    if is_azure(endpoint, options):
        return "AZURE_OPENAI_API_KEY"
    if is_openrouter(endpoint) or options.get("openrouter"):
        return "OPENROUTER_API_KEY"
    return "OPENAI_API_KEY"


class OpenAIProvider(RemoteProvider):
    name = "openai"
    max_batch = 2048  # OpenAI's per-request input limit
    sends_dimensions = True

    def __init__(self, settings: RemoteSettings, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        options = dict(settings.options)
        self.azure = is_azure(self.endpoint, options)
        #: The request's one api-version (Azure), the endpoint's own or the configured one.
        self.api_version = api_version(self.endpoint, options) if self.azure else None

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        options = dict(self.settings.options)
        url = self.endpoint_url("embeddings")
        body: dict[str, Any] = {"input": list(texts), "model": self.model,
                                "encoding_format": "float"}
        if self.settings.dimensions and self.sends_size:
            body["dimensions"] = self.settings.dimensions
        params: dict[str, str] = {}
        if self.azure:
            headers = {"api-key": self.settings.api_key} if self.settings.api_key else {}
            if self.api_version:
                # once: the endpoint's own is taken out, the one version added
                url = without_api_version(url)
                params[API_VERSION] = self.api_version
        else:
            headers = self.bearer()
        routing = {k: list(v) for k, v in (options.get("openrouter") or {}).items() if v}
        if routing:
            body["provider"] = routing
        return Request(url, body, params, headers)

    def parse(self, answer: Any, count: int) -> list[Any]:
        return data_embeddings(answer)


__all__ = ["OpenAIProvider", "api_version", "is_azure", "is_openrouter", "key_env",
           "needs_key", "without_api_version"]
