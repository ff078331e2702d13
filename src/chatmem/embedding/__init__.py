"""Embedding layer: the :class:`Embedder` facade and its providers (SPEC §3)."""

from __future__ import annotations

from ..config import EmbeddingConfig
from .base import EmbeddingProvider, EmbedInput, EmbedRole, Vector
from .cache import LruEmbedCache, NullEmbedCache, cache_key
from .embedder import Embedder, EmbedderStatus, StatusDetail

__all__ = [
    "EmbedInput",
    "EmbedRole",
    "Embedder",
    "EmbedderStatus",
    "EmbeddingProvider",
    "LruEmbedCache",
    "NullEmbedCache",
    "StatusDetail",
    "Vector",
    "cache_key",
    "create_embedder",
]


def create_embedder(config: EmbeddingConfig | None = None) -> Embedder:
    """Build the configured provider behind an Embedder (the provider loads lazily)."""
    cfg = config or EmbeddingConfig()
    from .local import LocalProvider

    provider = LocalProvider(cfg.model, threads=cfg.threads, max_length=cfg.max_length)
    return Embedder(
        provider,
        batch_size=cfg.batch_size,
        dimensions=cfg.dimensions,
        normalize=cfg.normalize,
        cache_enabled=cfg.cache.enabled,
        cache_max_items=cfg.cache.max_items,
    )
