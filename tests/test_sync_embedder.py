"""SyncEmbedder: the blocking form of Embedder, generated from it like SyncMemory."""

from __future__ import annotations

import inspect
import threading

import numpy as np
import pytest

from chatmem import EmbeddingUnavailable, SyncEmbedder
from chatmem.embedding import Embedder
from chatmem.testing import HashEmbeddingProvider
from fake_embeddings import FakeOpenAI


def test_every_coroutine_method_has_a_blocking_twin_with_the_same_parameters() -> None:
    coros = {name: fn for name, fn in vars(Embedder).items()
             if not name.startswith("_") and inspect.iscoroutinefunction(fn)}
    assert set(coros) == {"embed_one", "embed_many", "embed_many_with_model", "aclose"}
    for name, fn in coros.items():
        twin = getattr(SyncEmbedder, "close" if name == "aclose" else name)
        assert not inspect.iscoroutinefunction(twin), name
        if name != "aclose":
            assert inspect.signature(twin) == inspect.signature(fn), name
            assert twin.__doc__ == fn.__doc__, name


def test_it_embeds_like_the_async_core_and_stops_its_thread() -> None:
    import asyncio

    provider = HashEmbeddingProvider()
    with SyncEmbedder(Embedder(provider)) as emb:
        assert any(t.name == "chatmem-sync" for t in threading.enumerate())
        one = emb.embed_one("hello world")
        many = emb.embed_many(["hello world", ("a query", "query")])
        assert np.array_equal(one, many[0]) and one.dtype == np.float32
        assert (emb.model_id, emb.dimensions) == ("test:hash", 64)
        assert emb.status.calls == 2 and emb.capabilities == provider.capabilities
        want = asyncio.run(Embedder(HashEmbeddingProvider()).embed_one("hello world"))
        assert np.array_equal(one, want)
        provider.fail_next(1)
        with pytest.raises(EmbeddingUnavailable, match="simulated outage"):
            emb.embed_one("fails")
    assert provider.closed
    assert not any(t.name == "chatmem-sync" for t in threading.enumerate())
    emb.close()  # twice is fine


def test_from_config_builds_the_local_model() -> None:
    with SyncEmbedder.from_config({}) as emb:
        vec = emb.embed_one("the local model, from a script")
        assert emb.model_id == "local:all-MiniLM-L6-v2" and vec.shape == (384,)


def test_from_config_reaches_a_remote_provider_with_a_key_from_env() -> None:
    key = "sk-sync-embedder-0123456789"
    with FakeOpenAI(key=key, dim=12) as fake, SyncEmbedder.from_config(
            {"provider": "openai", "endpoint": fake.url, "model": "fake"},
            env={"OPENAI_API_KEY": key}) as emb:
        vecs = emb.embed_many(["one", "two"])
        assert [v.shape for v in vecs] == [(12,), (12,)]
        assert fake.texts == ["one", "two"]
        assert emb.status.last_ok_at is not None


def test_a_missing_key_fails_before_any_thread_starts() -> None:
    before = {t.name for t in threading.enumerate()}
    with pytest.raises(EmbeddingUnavailable, match="OPENAI_API_KEY"):
        SyncEmbedder.from_config({"provider": "openai"}, env={})
    assert {t.name for t in threading.enumerate()} == before


def test_a_call_after_close_is_store_closed_not_a_runtime_error() -> None:
    from chatmem.errors import StoreClosed

    emb = SyncEmbedder(Embedder(HashEmbeddingProvider(dim=8)))
    emb.close()
    with pytest.raises(StoreClosed, match="SyncEmbedder is closed"):
        emb.embed_one("hello")
