"""Deterministic embedding providers for facade and pipeline tests.

The real local model is tested for real in test_local_model.py; these only
stand in where a test is about the Embedder's own logic or needs failures on cue.
"""

from __future__ import annotations

import hashlib
import re
from collections import Counter
from collections.abc import Sequence

import numpy as np

from chatmem.errors import EmbeddingUnavailable


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


class FlakyProvider:
    """A remote provider that can be down: hashed bag-of-words vectors (float32) while it
    is up; while ``down`` holds a retry decision (``"fail"``, ``"defer"``) every call
    raises :class:`EmbeddingUnavailable` with it. A text containing ``poison`` gets a
    NaN vector (the Embedder refuses the whole answer as ``invalid``). ``embedded``
    counts each text's successful document embeddings (exactly-once checks; build the
    Embedder without a cache, or a cache hit would hide a second indexing)."""

    name = "flaky"

    def __init__(self, dim: int = 64) -> None:
        self.dim = dim
        self.model_id = "flaky:bow"
        self.down: str | None = None
        self.poison: str | None = None
        self.embedded: Counter[str] = Counter()
        self.calls = 0
        self.failed_calls = 0

    @property
    def dimensions(self) -> int | None:
        return self.dim

    async def embed(self, texts: Sequence[str], role: str) -> np.ndarray:
        self.calls += 1
        if self.down is not None:
            self.failed_calls += 1
            raise EmbeddingUnavailable("service unavailable", provider=self.name, status=503,
                                       retry_decision=self.down)
        out = np.stack([bag_of_words(t, self.dim) for t in texts])
        bad = [i for i, t in enumerate(texts) if self.poison is not None and self.poison in t]
        out[bad] = np.nan
        if role == "document" and not bad:  # a NaN fails the whole answer (invalid)
            self.embedded.update(texts)
        return out
