"""Embedding layer: the :class:`Embedder` facade and its providers (SPEC §3)."""

from __future__ import annotations

from collections.abc import Mapping

from ..config import EmbeddingConfig
from .base import Capabilities, EmbeddingProvider, EmbedInput, EmbedRole, Vector
from .cache import LruEmbedCache, NullEmbedCache, cache_key
from .doctor import Diagnosis, diagnose
from .embedder import Embedder, EmbedderStatus, StatusDetail, SyncEmbedder

__all__ = [
    "Capabilities",
    "Diagnosis",
    "EmbedInput",
    "EmbedRole",
    "Embedder",
    "EmbedderStatus",
    "EmbeddingProvider",
    "LruEmbedCache",
    "NullEmbedCache",
    "StatusDetail",
    "SyncEmbedder",
    "Vector",
    "cache_key",
    "create_embedder",
    "diagnose",
]


def create_embedder(config: EmbeddingConfig | None = None, *,
                    env: Mapping[str, str] | None = None) -> Embedder:
    """Build the configured provider behind an Embedder (see :meth:`Embedder.from_config`)."""
    return Embedder.from_config(config or EmbeddingConfig(), env=env)
