"""The provider contract: a provider only translates protocol (E2).

Batching, caching, dimension enforcement, normalisation, statistics and error
semantics all live in :class:`chatmem.embedding.Embedder`; retries, timeouts,
cooldowns and deadlines of remote providers live in
:mod:`chatmem.embedding.http`.

A provider *declares* what it can do in :class:`Capabilities` instead of the
facade probing for optional attributes.
"""

from __future__ import annotations

from collections.abc import Sequence
from contextlib import AbstractAsyncContextManager
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


@dataclass(frozen=True)
class Capabilities:
    """What a provider declares about itself (read by the Embedder, the indexer and
    hybrid recall)."""

    #: Languages the model was trained for (ISO 639-1; ``"multilingual"`` for many);
    #: ``None`` when the provider does not say. Hybrid recall trusts dense scores less
    #: for a query in a script the model does not cover.
    languages: tuple[str, ...] | None = None
    #: Most texts one request may carry (the Embedder cuts batches to it); None = any.
    max_batch: int | None = None
    #: Calls worth running at once (the indexer's embedding slots); None = no limit.
    max_concurrency: int | None = None
    #: Whether the provider embeds queries and documents differently (E2 roles).
    roles: bool = False
    #: Whether calls leave the process (a network service that can be down).
    remote: bool = False
    #: The cosine this model typically gives two unrelated texts (``None``: not
    #: measured). Hybrid recall maps the model's cosines onto the scale its weights
    #: were chosen with (:func:`chatmem.recall.fuse.rescale`): multilingual-e5 gives
    #: unrelated texts about 0.8, all-MiniLM-L6-v2 about 0.13.
    cosine_baseline: float | None = None
    #: The share of the dense score this model's cosines earn in hybrid recall, when it
    #: is not the default's (``hybrid.dense_weight`` unset): a stronger model earns more
    #: (all-mpnet-base-v2: 0.7, chosen on the dev splits). ``None``: the default's.
    dense_weight: float | None = None


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

    @property
    def capabilities(self) -> Capabilities:
        ...

    async def embed(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        """Embed ``texts`` (one batch, one role) into a (len(texts), d) array."""
        ...

    async def aclose(self) -> None:
        """Release connections (a no-op for in-process models)."""
        ...


@runtime_checkable
class SettlingProvider(Protocol):
    """A provider whose model is settled by the first documents it is given
    (``embedding.model: auto``). The Embedder lets it settle *before* it reads
    ``model_id`` for the cache keys of a call: a vector is cached under the model that
    made it, whichever store (sharing one cache) asked first."""

    async def settle(self, texts: Sequence[str], role: EmbedRole) -> None:
        """Choose the model now if ``texts`` (the documents of one call) decide it."""
        ...

    def steady(self) -> AbstractAsyncContextManager[None]:
        """Hold the model for one call of the Embedder, from its settling to its last
        vector: while the choice can still change, no other call changes it between
        this call's cache keys and its vectors."""
        ...
