"""The Embedder facade (E1, E4–E7, E10) over a recording provider."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from chatmem.embedding import Embedder, EmbedInput, NullEmbedCache, cache_key
from chatmem.errors import EmbeddingUnavailable, InvalidInput
from chatmem.store.ann import load_faiss
from processes import checkout_env
from providers import RecordingProvider


def test_cache_key_is_sha256_of_provider_model_role_text() -> None:
    import hashlib

    want = hashlib.sha256(b"test|test:bow|query|hello").hexdigest()
    assert cache_key("test", "test:bow", "query", "hello") == want


async def test_results_in_input_order_normalised_float32() -> None:
    emb = Embedder(RecordingProvider())
    texts = ["a b c", "hello world", "x"]
    out = await emb.embed_many(texts)
    assert [v.dtype for v in out] == [np.float32] * 3
    for v in out:
        assert abs(float(np.linalg.norm(v)) - 1.0) < 1e-5
    # order: each output matches embedding that text alone
    for v, t in zip(out, texts):
        alone = await Embedder(RecordingProvider()).embed_one(t)
        assert np.allclose(v, alone)


async def test_duplicates_in_one_call_cost_one_round_trip_and_cache_hits() -> None:
    prov = RecordingProvider()
    emb = Embedder(prov)
    await emb.embed_many(["same", "same", "other", "same"])
    assert sum(len(t) for t, _ in prov.calls) == 2
    await emb.embed_many(["same"])
    assert sum(len(t) for t, _ in prov.calls) == 2  # served from the cache
    st = emb.status.cache
    assert st is not None and st.hits == 1 and st.size == 2


async def test_a_vector_changed_by_its_caller_leaves_the_cache_and_duplicates_alone() -> None:
    # the cache handed out its own array: a caller centring its vector in place changed
    # what every later call (the indexer's too, on a shared embedder) got for that text
    emb = Embedder(RecordingProvider())
    first = await emb.embed_one("hello world")
    kept = first.copy()
    first -= 0.5
    assert np.allclose(await emb.embed_one("hello world"), kept)
    a, b = await emb.embed_many(["same text", "same text"])
    a *= 0.0
    assert abs(float(np.linalg.norm(b)) - 1.0) < 1e-5


async def test_roles_are_batched_separately_and_keyed_separately() -> None:
    prov = RecordingProvider()
    emb = Embedder(prov)
    await emb.embed_many(["q1", ("q1", "query"), EmbedInput("d2", "document"), ("q2", "query")])
    roles = sorted(role for _, role in prov.calls)
    assert roles == ["document", "query"]
    by_role = {role: sorted(t) for t, role in prov.calls}
    assert by_role == {"document": ["d2", "q1"], "query": ["q1", "q2"]}


async def test_batch_size_chunks_calls() -> None:
    prov = RecordingProvider()
    emb = Embedder(prov, batch_size=3)
    await emb.embed_many([f"text {i}" for i in range(8)])
    assert [len(t) for t, _ in prov.calls] == [3, 3, 2]


async def test_batches_are_sorted_by_length() -> None:
    prov = RecordingProvider()
    emb = Embedder(prov, batch_size=2)
    await emb.embed_many(["a", "bbbbbbbb", "cc", "ddddd"])
    assert prov.calls[0][0] == ["bbbbbbbb", "ddddd"]


async def test_disabled_cache_embeds_every_input() -> None:
    prov = RecordingProvider()
    emb = Embedder(prov, cache_enabled=False)
    assert isinstance(emb.cache, NullEmbedCache)
    await emb.embed_many(["same", "same"])
    await emb.embed_many(["same"])
    assert sum(len(t) for t, _ in prov.calls) == 3


async def test_lru_evicts_oldest_and_counts() -> None:
    emb = Embedder(RecordingProvider(), cache_max_items=2)
    await emb.embed_many(["a", "b"])
    await emb.embed_one("a")  # a is now most recent
    await emb.embed_one("c")  # evicts b
    st = emb.status.cache
    assert st is not None and st.evictions == 1 and st.size == 2
    prov = emb.provider
    assert isinstance(prov, RecordingProvider)
    before = len(prov.calls)
    await emb.embed_one("a")
    assert len(prov.calls) == before
    await emb.embed_one("b")
    assert len(prov.calls) == before + 1


async def test_dimensions_truncate_larger_and_refuse_smaller() -> None:
    emb = Embedder(RecordingProvider(dim=64), dimensions=16)
    v = await emb.embed_one(" ".join(f"word{i}" for i in range(40)))
    assert v.shape == (16,) and abs(float(np.linalg.norm(v)) - 1) < 1e-5
    # a provider that declares its size is refused when the embedder is built (E7)
    with pytest.raises(EmbeddingUnavailable, match="dimensions = 16 is larger than the 8"):
        Embedder(RecordingProvider(dim=8), dimensions=16)
    # one that learns its size only at its first call (a model loaded lazily) is
    # refused then, never padded
    class LazySize(RecordingProvider):
        @property
        def dimensions(self) -> int | None:
            return self.dim if self.calls else None

    emb = Embedder(LazySize(dim=8), dimensions=16)
    with pytest.raises(EmbeddingUnavailable, match="fewer than the configured 16"):
        await emb.embed_one("hello")


async def test_normalize_false_keeps_raw_scale() -> None:
    emb = Embedder(RecordingProvider(), normalize=False)
    v = await emb.embed_one("hello")
    assert float(np.linalg.norm(v)) == pytest.approx(3.0)



@pytest.mark.parametrize("raw, want", [
    # one number past ~1.8e19: its square overflowed float32, the length was inf and
    # the vector, divided by it, was stored all zeros (an all-zero vector is refused)
    ([[1e20] + [0.0] * 63], [1.0] + [0.0] * 63),
    ([[3e38, -3e38] + [1.0] * 62], [2 ** -0.5, -(2 ** -0.5)] + [0.0] * 62),
    # numbers under ~1e-23: their squares vanished, and the vector was refused as
    # all-zero though it is not
    ([[1e-30] * 64], [1 / 8] * 64),
    ([[1e-45, 0.0] + [0.0] * 62], [1.0] + [0.0] * 63),
])
async def test_a_vector_of_huge_or_tiny_numbers_is_normalised_not_zeroed(
        raw: list[list[float]], want: list[float]) -> None:
    prov = RecordingProvider()
    prov.raw_override = raw
    v = await Embedder(prov).embed_one("hello")
    assert v.dtype == np.float32
    assert np.allclose(v, np.asarray(want, dtype=np.float32), atol=1e-6)
    assert abs(float(np.linalg.norm(v)) - 1) < 1e-5

@pytest.mark.parametrize("raw, why", [
    ([[float("nan")] * 64], "NaN"),
    ([[0.0] * 64], "all-zero"),
    ([[1.0] * 64, [1.0] * 64], "shape"),
    ("garbage", "not a matrix"),
])
async def test_bad_provider_output_is_an_error_never_a_vector(raw: object, why: str) -> None:
    prov = RecordingProvider()
    prov.raw_override = raw
    emb = Embedder(prov)
    with pytest.raises(EmbeddingUnavailable, match=why) as info:
        await emb.embed_one("hello")
    assert info.value.retry_decision == "invalid"
    assert emb.cache.stats().size == 0



#: A store whose ANN index is built at 50 vectors, filled with what an Embedder
#: (normalize=False) makes of a provider answering 1e37s.
HUGE_RAW_CHILD = """
import asyncio, sys
sys.path.insert(0, sys.argv[2])
from chatmem.embedding import Embedder
from chatmem.errors import EmbeddingUnavailable
from chatmem.models import Message, VectorEntry
from chatmem.store import SqliteStore
from chatmem.store.ann import AnnSettings
from providers import RecordingProvider

async def main(path):
    prov = RecordingProvider(dim=8)
    prov.raw_override = [[1e37] * 8]
    emb = Embedder(prov, normalize=False)
    store = await SqliteStore.open(path, ann=AnnSettings(threshold=50, nprobe=8, min_scan=0))
    msgs = await store.append([Message(session_id="s", content=f"m{i}", ts=i)
                               for i in range(100)])
    try:
        vecs = [await emb.embed_one(m.content) for m in msgs]
    except EmbeddingUnavailable as exc:
        print("refused:", exc)
        await store.close()
        return
    await store.upsert([VectorEntry(message_id=m.id, session_id="s", ts=m.ts, role="user",
                                    model_id="t:v", vector=v) for m, v in zip(msgs, vecs)])
    await store.query(vecs[0], 5)
    print("index ready:", store.ann.wait_ready(120))
    await store.close()

asyncio.run(main(sys.argv[1]))
"""


@pytest.mark.skipif(load_faiss() is None, reason="the ANN needs faiss-cpu")
def test_an_unnormalised_vector_too_long_to_score_never_reaches_the_index(
        tmp_path: Path) -> None:
    """With embedding.normalize false, a provider's vectors were stored as answered:
    finite 1e37s made faiss's k-means (the ANN index's build, in the worker thread)
    throw across OpenMP, and the process aborted. In a child process, which that
    killed: the answer is now refused by the Embedder, before anything is stored."""
    proc = subprocess.run(
        [sys.executable, "-c", HUGE_RAW_CHILD, str(tmp_path / "a.db"),
         str(Path(__file__).parent)],
        capture_output=True, text=True, timeout=300, env=checkout_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "refused: " in proc.stdout and "over the 1e+18" in proc.stdout
    assert "embedding.normalize is false" in proc.stdout


async def test_an_unnormalised_vector_under_the_bound_is_kept_as_answered() -> None:
    prov = RecordingProvider(dim=4)
    prov.raw_override = [[5e17, 5e17, 5e17, 5e17]]  # length 1e18
    v = await Embedder(prov, normalize=False).embed_one("hello")
    assert np.allclose(v, 5e17)

async def test_status_callbacks_and_last_error_survives_success(
        caplog: pytest.LogCaptureFixture) -> None:
    prov = RecordingProvider()
    statuses = []
    errors = []

    def bad_callback(detail: object) -> None:
        statuses.append(detail)
        raise RuntimeError("callback bug")

    emb = Embedder(prov, on_status=bad_callback, on_error=errors.append)
    await emb.embed_one("ok")
    prov.fail_with(ConnectionError("reset by peer"))
    with caplog.at_level(logging.ERROR), pytest.raises(EmbeddingUnavailable):
        await emb.embed_one("fails")
    assert "callback raised" in caplog.text
    prov.recover()
    await emb.embed_one("fine again")
    st = emb.status
    assert st.last_error is not None and "reset by peer" in st.last_error[1]
    assert st.last_ok_at is not None and st.last_ok_at >= st.last_error[0]
    assert [s.ok for s in statuses] == [True, False, True]
    assert len(errors) == 1 and st.errors == 1


async def test_bad_inputs_are_rejected() -> None:
    emb = Embedder(RecordingProvider())
    with pytest.raises(InvalidInput, match="role"):
        await emb.embed_many([("x", "passage")])
    with pytest.raises(InvalidInput, match="string"):
        await emb.embed_many([123])  # type: ignore[list-item]
