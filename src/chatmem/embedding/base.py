"""The provider contract: a provider only translates protocol (E2).

Batching, caching, dimension enforcement, normalisation, statistics and error
semantics all live in :class:`chatmem.embedding.Embedder`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol, runtime_checkable

import numpy as np
import numpy.typing as npt

EmbedRole = Literal["document", "query"]
Vector = npt.NDArray[np.float32]


@dataclass(frozen=True)
class EmbedInput:
    text: str
    role: EmbedRole = "document"


@runtime_checkable
class EmbeddingProvider(Protocol):
    """What the Embedder needs from a provider."""

    #: Provider name, e.g. ``local``; used in log channels and cache keys.
    name: str
    #: Vector-space identity ``"<provider>:<model>"`` (E3, F11).
    model_id: str

    @property
    def dimensions(self) -> int | None:
        """Native output size when known before the first call, else None."""
        ...

    async def embed(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        """Embed ``texts`` (one batch, one role) into a (len(texts), d) array."""
        ...
