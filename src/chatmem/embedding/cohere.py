"""``cohere``: Cohere's embed API, v2 (E2).

Wire format::

    POST {endpoint}/v2/embed            Authorization: Bearer <api key>
    {"model": "…", "texts": ["…"], "input_type": "search_document" | "search_query",
     "embedding_types": ["float"]}
    → {"embeddings": {"float": [[0.1, …], …]}}         # v1 answered {"embeddings": [[…]]}

Default endpoint ``https://api.cohere.com``; at most 96 texts per request; key
``embedding.api_key`` or ``COHERE_API_KEY``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import EmbedRole
from .remote import RemoteProvider, Request

INPUT_TYPES: dict[EmbedRole, str] = {"document": "search_document", "query": "search_query"}


class CohereProvider(RemoteProvider):
    name = "cohere"
    max_batch = 96  # the embed endpoint's limit
    roles = True

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        body = {"model": self.model, "texts": list(texts), "input_type": INPUT_TYPES[role],
                "embedding_types": ["float"]}
        return Request(self.endpoint_url("v2/embed"), body, headers=self.bearer())

    def parse(self, answer: Any, count: int) -> list[Any]:
        embeddings = answer["embeddings"]
        return list(embeddings["float"] if isinstance(embeddings, dict) else embeddings)


__all__ = ["CohereProvider"]
