"""Deterministic embedding providers for facade and pipeline tests.

The real local model is tested for real in test_local_model.py; these only
stand in where a test is about the Embedder's own logic or needs failures on cue.
They are chatmem's own test provider (:mod:`chatmem.testing`), as users get it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chatmem.testing import HashEmbeddingProvider


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
