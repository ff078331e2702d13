"""Deterministic embedding providers for facade and pipeline tests.

The real local model is tested for real in test_local_model.py; these only
stand in where a test is about the Embedder's own logic or needs failures on cue.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence

import numpy as np

from chatmem.embedding import Capabilities


def bag_of_words(text: str, dim: int) -> np.ndarray:
    vec = np.zeros(dim, dtype=np.float32)
    for tok in re.findall(r"\w+", text.lower()):
        h = int.from_bytes(hashlib.sha256(tok.encode()).digest()[:4], "little")
        vec[h % dim] += 1.0
    if not vec.any():
        vec[0] = 1.0
    return vec


class RecordingProvider:
    """Bag-of-words vectors; records every call; fails on cue."""

    name = "test"

    def __init__(self, dim: int = 64, model: str = "bow") -> None:
        self.dim = dim
        self.model_id = f"test:{model}"
        self.calls: list[tuple[list[str], str]] = []
        self.fail_with: Exception | None = None
        self.raw_override: object | None = None

    @property
    def dimensions(self) -> int | None:
        return self.dim

    async def embed(self, texts: Sequence[str], role: str) -> np.ndarray:
        self.calls.append((list(texts), role))
        if self.fail_with is not None:
            raise self.fail_with
        if self.raw_override is not None:
            return self.raw_override  # type: ignore[return-value]
        return np.stack([bag_of_words(t, self.dim) * 3.0 for t in texts])

    capabilities = Capabilities()

    async def aclose(self) -> None:
        pass
