"""``ollama``: a local Ollama server's batch endpoint ``/api/embed`` (E2).

Wire format::

    POST {endpoint}/api/embed
    {"model": "nomic-embed-text", "input": ["…", …]}
    → {"model": "…", "embeddings": [[0.1, …], …]}

Default endpoint ``http://127.0.0.1:11434``, model ``nomic-embed-text``; no roles;
no key (``Authorization: Bearer`` is sent only when ``embedding.api_key`` is set,
for a server behind an authenticating proxy). Ollama's OpenAI-compatible
``/v1/embeddings`` works too, through the ``openai`` provider.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import EmbedRole
from .remote import RemoteProvider, Request


class OllamaProvider(RemoteProvider):
    name = "ollama"

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        body = {"model": self.model, "input": list(texts)}
        return Request(self.endpoint_url("api/embed"), body, headers=self.bearer())

    def parse(self, answer: Any, count: int) -> list[Any]:
        return list(answer["embeddings"])


__all__ = ["OllamaProvider"]
