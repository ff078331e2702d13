"""The default local model, run for real, against a sentence-transformers fp32 reference.

``tests/data/minilm_reference.json`` was written once by
``scripts/make_minilm_reference.py`` (torch 2.13.0 CPU + sentence-transformers).
"""

from __future__ import annotations

import json
import os
import shutil
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from chatmem import Memory
from chatmem.config import Config
from chatmem.embedding import Embedder, local
from chatmem.embedding.local import LocalProvider, resolve_model
from chatmem.errors import ConfigError
from chatmem.models import MAX_CONTENT_CHARS
from providers import CountingTokenizer

REFERENCE = Path(__file__).parent / "data" / "minilm_reference.json"


@pytest.fixture(scope="module")
def reference() -> dict:
    return json.loads(REFERENCE.read_text(encoding="utf-8"))


async def test_int8_onnx_matches_sentence_transformers_fp32(local_embedder: Embedder,
                                                            reference: dict) -> None:
    assert len(reference["sentences"]) >= 100
    got = np.stack(await local_embedder.embed_many(reference["sentences"]))
    want = np.asarray(reference["embeddings"], dtype=np.float32)
    assert got.shape == want.shape == (len(reference["sentences"]), 384)
    cos = (got * want).sum(axis=1) / np.linalg.norm(want, axis=1)
    assert cos.mean() >= 0.99, cos.mean()
    assert cos.min() >= 0.98, (cos.min(), reference["sentences"][int(cos.argmin())])


def test_padding_is_to_the_batch_longest_and_long_texts_reach_256_tokens() -> None:
    prov = LocalProvider()
    prov.embed_sync(["warm up"], "document")
    tok = prov._ensure_loaded().tokenizer
    short = tok.encode_batch(["hi", "hello there"])
    assert len(short[0].ids) == len(short[1].ids) < 16  # not a fixed 128
    long = tok.encode_batch(["word " * 400])
    assert len(long[0].ids) == 256


def test_a_long_message_is_tokenized_from_a_prefix_with_the_same_vectors() -> None:
    """A 200,000-character message used to be tokenized whole and then cut to 256 tokens
    (about 1,300 of its characters): the tokenizer now reads a prefix that gives the same
    first 256 tokens, and the vectors are the same bit for bit, for documents (a batch
    with short texts) and queries (the one-thread session)."""
    words = ["remember", "the", "flight", "we", "booked", "to", "lisbon", "and", "the",
             "hotel", "near", "station"]
    long = " ".join(words[i * 7 % len(words)] for i in range(MAX_CONTENT_CHARS))
    long = long[:MAX_CONTENT_CHARS]
    batch = [long, "a short one", "café crème " * 5000]
    prov = LocalProvider()
    model = prov._ensure_loaded()
    counting = CountingTokenizer(model.tokenizer)
    prov._onnx = replace(model, tokenizer=counting)
    try:
        documents = prov.embed_sync(batch, "document")
        query = prov.embed_sync([long], "query")
    finally:
        prov._onnx = model
    # before: 200,000 + 11 + 55,000 characters, then 200,000 again for the query
    assert counting.chars < 10_000, counting.chars
    whole = type(model.cut)(None, model.cut.max_length, model.cut.pad_id)
    prov._onnx = replace(model, cut=whole)  # as before: every text encoded whole
    try:
        assert np.array_equal(documents, prov.embed_sync(batch, "document"))
        assert np.array_equal(query, prov.embed_sync([long], "query"))
    finally:
        prov._onnx = model


async def test_model_loads_from_a_directory_with_the_same_vectors(tmp_path: Path,
                                                                  local_embedder: Embedder
                                                                  ) -> None:
    spec = resolve_model("all-MiniLM-L6-v2")
    assert spec.model_file is not None and spec.tokenizer_file is not None
    shutil.copy(spec.model_file, tmp_path / "model.onnx")
    shutil.copy(spec.tokenizer_file, tmp_path / "tokenizer.json")
    (tmp_path / "chatmem_model.json").write_text(json.dumps(
        {"name": "my-minilm", "pooling": "mean", "max_length": 256}))
    emb = Embedder(LocalProvider(str(tmp_path), threads=1))
    assert emb.model_id == "local:my-minilm"
    text = "the same model from a directory"
    a = await emb.embed_one(text)
    b = await local_embedder.embed_one(text)
    assert float(a @ b) > 0.9999


def test_a_directory_without_model_files_is_a_config_error(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="must hold model.onnx"):
        LocalProvider(str(tmp_path))


@pytest.mark.parametrize("name", ["autox", "all-MiniLM-L6", "e5-small"])
async def test_an_unknown_model_name_is_a_config_error_before_any_download(
        name: str, tmp_path: Path) -> None:
    """A bare name that is neither registered nor a directory is a typo (a hub id is
    owner/name): the error names the field and the choices, and nothing is written."""
    with pytest.raises(ConfigError) as err:
        LocalProvider(name)
    assert f'embedding.model: "{name}" is not a registered local model' in str(err.value)
    assert "auto, all-MiniLM-L6-v2" in str(err.value)
    db = tmp_path / "m.db"
    with pytest.raises(ConfigError, match="embedding.model"):
        await Memory.open(f"sqlite:///{db}", config=Config.load({"embedding": {"model": name}}))
    assert not db.exists()


async def test_the_onnx_model_is_loaded_once_per_process(caplog: pytest.LogCaptureFixture
                                                         ) -> None:
    import logging

    from chatmem.embedding import local

    # however many embedders, one session (maybe loaded by an earlier test)
    minilm = {"model": "all-MiniLM-L6-v2"}
    a, b = Embedder.from_config(minilm), Embedder.from_config(minilm)
    va, vb = await a.embed_one("shared session"), await b.embed_one("shared session")
    assert isinstance(a.provider, LocalProvider) and isinstance(b.provider, LocalProvider)
    assert a.provider._ensure_loaded() is b.provider._ensure_loaded()
    assert np.array_equal(va, vb)
    # a key no other test uses: exactly one load for two embedders
    before = local.loaded_onnx_models()
    with caplog.at_level(logging.INFO, logger="chatmem.embedding.local"):
        c = Embedder.from_config({**minilm, "max_length": 77})
        d = Embedder.from_config({**minilm, "max_length": 77})
        vc, vd = await c.embed_one("shared session"), await d.embed_one("shared session")
    assert local.loaded_onnx_models() == before + 1
    assert sum(r.getMessage().startswith("loaded ") for r in caplog.records) == 1
    assert np.array_equal(vc, vd) and float(vc @ va) > 0.9999  # short text: same vector


def test_a_query_never_waits_for_document_inference() -> None:
    """R5: while the document thread is busy (held here, as by a long indexing run), a
    query is embedded on its own session, and both sessions give the same vector."""
    prov = LocalProvider()
    text = "where did Caroline go hiking last summer?"
    doc = prov.embed_sync([text], "document")
    model = prov._ensure_loaded()
    gate = threading.Event()
    busy = model.documents.submit(gate.wait, 120)
    try:
        with ThreadPoolExecutor(1) as pool:
            query = pool.submit(prov.embed_sync, [text], "query").result(timeout=120)
        assert not busy.done()  # the query did not wait for the document thread
    finally:
        gate.set()
    assert busy.result() is True
    np.testing.assert_allclose(query, doc, atol=1e-5)
    # a bulk query call (an evaluation) runs like documents, on every core
    many = prov.embed_sync([text] * 8, "query")
    np.testing.assert_allclose(many, np.repeat(doc, 8, axis=0), atol=1e-5)


@pytest.mark.skipif(sys.platform != "linux", reason="per-thread nice values are Linux's")
def test_document_inference_runs_at_a_lower_priority() -> None:
    prov = LocalProvider()
    prov.embed_sync(["load the model"], "document")
    base = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    thread = next(t for t in threading.enumerate()
                  if t.name.startswith("chatmem-embed-documents"))
    assert thread.native_id is not None
    assert os.getpriority(os.PRIO_PROCESS, thread.native_id) == min(base + local.DOCUMENT_NICE,
                                                                     19)
    # the session's own threads were started from it and inherit its priority; this
    # thread (queries, request handling) keeps the process's
    nices = [os.getpriority(os.PRIO_PROCESS, int(tid)) for tid in os.listdir("/proc/self/task")]
    assert nices.count(min(base + local.DOCUMENT_NICE, 19)) >= 2
    assert base in nices
