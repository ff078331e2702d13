"""Embedding caches (E6): an in-memory LRU with counters, and a null cache.

Disabling the cache swaps in :class:`NullEmbedCache`, which has the same
interface; the Embedder never checks which one it holds.
"""

from __future__ import annotations

import hashlib
import logging
from collections import OrderedDict
from dataclasses import dataclass

from .base import Vector

log = logging.getLogger("chatmem.embedding.cache")


def cache_key(provider: str, model: str, role: str, text: str) -> str:
    """sha256(provider|model|role|text) as 64 hex characters (E4)."""
    return hashlib.sha256(f"{provider}|{model}|{role}|{text}".encode()).hexdigest()


@dataclass(frozen=True)
class CacheStats:
    hits: int
    misses: int
    evictions: int
    size: int
    max_items: int
    enabled: bool


class LruEmbedCache:
    def __init__(self, max_items: int = 20000) -> None:
        self.max_items = max_items
        self._items: OrderedDict[str, Vector] = OrderedDict()
        self.hits = 0
        self.misses = 0
        self.evictions = 0

    def get(self, key: str) -> Vector | None:
        vec = self._items.get(key)
        if vec is None:
            self.misses += 1
            return None
        self._items.move_to_end(key)
        self.hits += 1
        return vec

    def set(self, key: str, vec: Vector) -> None:
        self._items[key] = vec
        self._items.move_to_end(key)
        while len(self._items) > self.max_items:
            self._items.popitem(last=False)
            if not self.evictions:  # once: from now on every new entry evicts one
                log.info("embedding cache full (%d items): evicting the least recently "
                         "used; raise embedding.cache.max_items to keep more", self.max_items)
            self.evictions += 1

    def discard(self, key: str) -> bool:
        """Drop one entry (an erased message's text, I8); whether it was there."""
        return self._items.pop(key, None) is not None

    def clear(self) -> None:
        log.debug("embedding cache cleared (%d items)", len(self._items))
        self._items.clear()

    def stats(self) -> CacheStats:
        return CacheStats(self.hits, self.misses, self.evictions, len(self._items),
                          self.max_items, True)


class NullEmbedCache:
    """Remembers nothing; every lookup is a miss (benchmark mode)."""

    max_items = 0

    def __init__(self) -> None:
        self.misses = 0

    def get(self, key: str) -> Vector | None:
        self.misses += 1
        return None

    def set(self, key: str, vec: Vector) -> None:
        return None

    def discard(self, key: str) -> bool:
        return False

    def clear(self) -> None:
        return None

    def stats(self) -> CacheStats:
        return CacheStats(0, self.misses, 0, 0, 0, False)


EmbedCache = LruEmbedCache | NullEmbedCache
