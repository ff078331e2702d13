"""Deterministic embedding providers for facade and pipeline tests.

The real local model is tested for real in test_local_model.py; these only
stand in where a test is about the Embedder's own logic or needs failures on cue.
They are chatmem's own test provider (:mod:`chatmem.testing`), as users get it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

import numpy as np

from chatmem.embedding import Capabilities
from chatmem.errors import EmbeddingUnavailable
from chatmem.testing import EmbedCall, HashEmbeddingProvider


class RecordingProvider(HashEmbeddingProvider):
    """:class:`HashEmbeddingProvider` (model ``test:bow``) whose raw vectors are scaled
    by 3 (so that normalisation shows) or replaced by ``raw_override`` (bad output)."""

    def __init__(self, dim: int = 64, model: str = "bow") -> None:
        super().__init__(dim=dim, model=model)
        self.raw_override: object | None = None

    async def embed(self, texts: Sequence[str], role: Any) -> np.ndarray:
        out = await super().embed(texts, role)
        if self.raw_override is not None:
            return self.raw_override  # type: ignore[return-value]
        return out * 3.0


class FlakyProvider(HashEmbeddingProvider):
    """A remote provider that can be down (E12 tests): while ``down`` holds a retry
    decision (``"fail"``, ``"defer"``, ``"cooldown"``) every call raises
    :class:`EmbeddingUnavailable` with it. A text containing ``poison`` gets a NaN
    vector (the Embedder refuses the whole answer as ``invalid``). ``embedded`` counts
    each text's successful document embeddings (exactly-once checks; build the
    Embedder without a cache, or a cache hit would hide a second indexing); ``failed``
    the calls that raised."""

    name = "flaky"

    def __init__(self, dim: int = 64) -> None:
        super().__init__(dim=dim, model="bow", capabilities=Capabilities(remote=True))
        self.down: str | None = None
        self.poison: str | None = None
        self.embedded: Counter[str] = Counter()
        self.failed = 0

    async def embed(self, texts: Sequence[str], role: Any) -> np.ndarray:
        if self.down is not None:
            self.calls.append(EmbedCall(list(texts), role))
            self.failed += 1
            raise EmbeddingUnavailable("service unavailable", provider=self.name, status=503,
                                       retry_decision=self.down)
        out = await super().embed(texts, role)
        bad = [i for i, t in enumerate(texts) if self.poison is not None and self.poison in t]
        out[bad] = np.nan
        if role == "document" and not bad:  # a NaN fails the whole answer (invalid)
            self.embedded.update(texts)
        return out


class CountingTokenizer:
    """A local model's real ``tokenizers.Tokenizer``, counting the characters it is given
    to encode (``chars``)."""

    def __init__(self, tokenizer: Any) -> None:
        self.tokenizer, self.chars = tokenizer, 0

    def encode(self, text: str) -> Any:
        self.chars += len(text)
        return self.tokenizer.encode(text)

    def encode_batch(self, texts: list[str]) -> Any:
        self.chars += sum(map(len, texts))
        return self.tokenizer.encode_batch(texts)
