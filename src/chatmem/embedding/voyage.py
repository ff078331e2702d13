"""``voyage``: Voyage AI's embeddings API (E2).

Wire format::

    POST {endpoint}/embeddings          Authorization: Bearer <api key>
    {"input": ["…"], "model": "…", "input_type": "document" | "query",
     "output_dimension": d}                            # d only when dimensions is set
    → {"data": [{"embedding": [0.1, …], "index": 0}, …]}   # OpenAI-shaped

Default endpoint ``https://api.voyageai.com/v1``; at most 1,000 texts per request
(and a per-model token budget); key ``embedding.api_key`` or ``VOYAGE_API_KEY``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .base import EmbedRole
from .remote import RemoteProvider, Request, data_embeddings


class VoyageProvider(RemoteProvider):
    name = "voyage"
    max_batch = 1000  # the documented list limit
    roles = True
    sends_dimensions = True

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        body: dict[str, Any] = {"input": list(texts), "model": self.model, "input_type": role}
        if self.settings.dimensions and self.sends_size:
            body["output_dimension"] = self.settings.dimensions
        return Request(self.endpoint_url("embeddings"), body, headers=self.bearer())

    def parse(self, answer: Any, count: int) -> list[Any]:
        return data_embeddings(answer)


__all__ = ["VoyageProvider"]
