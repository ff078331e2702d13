"""``mistral``: Mistral AI's embeddings API (E2).

Wire format::

    POST {endpoint}/embeddings          Authorization: Bearer <api key>
    {"model": "mistral-embed", "input": ["…"]}
    → {"data": [{"embedding": [0.1, …], "index": 0}, …]}   # OpenAI-shaped

Default endpoint ``https://api.mistral.ai/v1``, model ``mistral-embed`` (1024
dimensions); no roles; key ``embedding.api_key`` or ``MISTRAL_API_KEY``. The
service limits tokens per request, not texts: ``batch_size`` (32) keeps under it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import EmbedRole
from .remote import RemoteProvider, Request, data_embeddings


class MistralProvider(RemoteProvider):
    name = "mistral"

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        body = {"model": self.model, "input": list(texts)}
        return Request(self.endpoint_url("embeddings"), body, headers=self.bearer())

    def parse(self, answer: Any, count: int) -> list[Any]:
        return data_embeddings(answer)


__all__ = ["MistralProvider"]
