"""``ollama``: a local Ollama server's batch endpoint ``/api/embed`` (E2).

Wire format::

    POST {endpoint}/api/embed
    {"model": "nomic-embed-text", "input": ["…", …]}
    → {"model": "…", "embeddings": [[0.1, …], …]}

Default endpoint ``http://127.0.0.1:11434``, model ``nomic-embed-text``; no roles;
no key (``Authorization: Bearer`` is sent only when ``embedding.api_key`` is set,
for a server behind an authenticating proxy). Ollama's OpenAI-compatible
``/v1/embeddings`` works too, through the ``openai`` provider.

``endpoint`` is the server's address; one copied from Ollama's documentation with the
path of an embeddings endpoint (``…/api/embed``, the older ``…/api/embeddings``) is
taken as the address before it (:attr:`OllamaProvider.endpoint_note` says so): it was
joined as ``…/api/embeddings/api/embed``, which Ollama answers 404.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from .base import EmbedRole
from .http import OLLAMA_PATHS, redact_url
from .remote import RemoteProvider, RemoteSettings, Request

#: Paths of Ollama's embeddings endpoints, left out of an ``endpoint`` that ends with one.
ENDPOINT_PATHS = OLLAMA_PATHS


class OllamaProvider(RemoteProvider):
    name = "ollama"

    def __init__(self, settings: RemoteSettings, **kwargs: Any) -> None:
        super().__init__(settings, **kwargs)
        parts = urlsplit(self.endpoint)
        path = parts.path.rstrip("/")
        for tail in ENDPOINT_PATHS:
            if path.lower().endswith(tail):
                self.endpoint = urlunsplit(parts._replace(path=path[:-len(tail)]))
                self.endpoint_note = (
                    f"embedding.endpoint ends in {path[-len(tail):]}: taken as the "
                    f"server's address {self.redacted_endpoint}, requests go to "
                    f"{self.http.redact(redact_url(self.endpoint_url('api/embed')))}")
                self.http.log.info("%s", self.endpoint_note)
                break

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        body = {"model": self.model, "input": list(texts)}
        return Request(self.endpoint_url("api/embed"), body, headers=self.bearer())

    def parse(self, answer: Any, count: int) -> list[Any]:
        return list(answer["embeddings"])


__all__ = ["OllamaProvider"]
