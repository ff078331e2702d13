"""``openai``: any OpenAI-compatible ``/embeddings`` endpoint (E2).

One wire format, four kinds of service:

* OpenAI itself (default endpoint ``https://api.openai.com/v1``, model
  ``text-embedding-3-small``), ``Authorization: Bearer <key>``;
* Azure OpenAI: ``endpoint`` is the deployment URL
  (``https://<resource>.openai.azure.com/openai/deployments/<deployment>``) and
  ``api_version`` is set; the key travels in the ``api-key`` header and the
  version as ``?api-version=``;
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
from urllib.parse import urlsplit

from .base import EmbedRole
from .remote import RemoteProvider, Request, data_embeddings


def is_azure(endpoint: str, options: dict[str, Any]) -> bool:
    """Azure mode: ``api_version`` set, an Azure host, or ``?api-version=`` in the endpoint."""
    parts = urlsplit(endpoint)
    return bool(options.get("api_version")) or "api-version=" in parts.query \
        or (parts.hostname or "").lower().endswith(".openai.azure.com")


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

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        options = dict(self.settings.options)
        url = self.endpoint_url("embeddings")
        body: dict[str, Any] = {"input": list(texts), "model": self.model,
                                "encoding_format": "float"}
        if self.settings.dimensions and self.sends_size:
            body["dimensions"] = self.settings.dimensions
        params: dict[str, str] = {}
        if is_azure(self.endpoint, options):
            headers = {"api-key": self.settings.api_key} if self.settings.api_key else {}
            if options.get("api_version"):
                params["api-version"] = str(options["api_version"])
        else:
            headers = self.bearer()
        routing = {k: list(v) for k, v in (options.get("openrouter") or {}).items() if v}
        if routing:
            body["provider"] = routing
        return Request(url, body, params, headers)

    def parse(self, answer: Any, count: int) -> list[Any]:
        return data_embeddings(answer)


__all__ = ["OpenAIProvider", "is_azure", "is_openrouter", "key_env", "needs_key"]
