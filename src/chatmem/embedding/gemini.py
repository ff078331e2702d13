"""``gemini``: Google's Gemini API, ``batchEmbedContents`` (E2).

Wire format::

    POST {endpoint}/models/{model}:batchEmbedContents?key=<api key>
    {"requests": [{"model": "models/{model}",
                   "content": {"parts": [{"text": "…"}]},
                   "taskType": "RETRIEVAL_DOCUMENT" | "RETRIEVAL_QUERY",
                   "outputDimensionality": d}]}       # d only when dimensions is set
    → {"embeddings": [{"values": [0.1, …]}, …]}        # in request order

Default endpoint ``https://generativelanguage.googleapis.com/v1beta``; at most 100
requests per batch; key ``embedding.api_key`` or ``GEMINI_API_KEY``.

The key travels in the URL (``?key=``): it is passed as a query parameter so that
the HTTP layer redacts it in every URL it shows (logs, exceptions, status).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import EmbedRole
from .remote import RemoteProvider, Request

TASK_TYPES: dict[EmbedRole, str] = {"document": "RETRIEVAL_DOCUMENT",
                                    "query": "RETRIEVAL_QUERY"}


class GeminiProvider(RemoteProvider):
    name = "gemini"
    max_batch = 100  # batchEmbedContents' limit
    roles = True
    sends_dimensions = True

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        model = self.model.removeprefix("models/")
        extra = {"outputDimensionality": self.settings.dimensions} \
            if self.settings.dimensions and self.sends_size else {}
        body = {"requests": [{"model": f"models/{model}", "content": {"parts": [{"text": t}]},
                              "taskType": TASK_TYPES[role], **extra} for t in texts]}
        params = {"key": self.settings.api_key} if self.settings.api_key else {}
        return Request(self.endpoint_url(f"models/{model}:batchEmbedContents"), body, params)

    def parse(self, answer: Any, count: int) -> list[Any]:
        return [e["values"] for e in answer["embeddings"]]


__all__ = ["GeminiProvider"]
