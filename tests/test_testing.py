"""chatmem.testing: the deterministic provider users test their bots with."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import numpy as np
import pytest

from chatmem import EmbeddingUnavailable, InvalidInput, Memory, Message
from chatmem.embedding import Capabilities, Embedder, EmbeddingProvider
from chatmem.testing import EmbedCall, HashEmbeddingProvider, embedder, hash_vector

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def test_it_is_a_provider_that_declares_its_capabilities() -> None:
    p = HashEmbeddingProvider(dim=32, model="m")
    assert isinstance(p, EmbeddingProvider)
    assert (p.name, p.model_id, p.dimensions) == ("test", "test:m", 32)
    assert p.capabilities == Capabilities()
    caps = Capabilities(languages=("en",), max_batch=4, remote=True)
    assert HashEmbeddingProvider(capabilities=caps).capabilities is caps
    with pytest.raises(ValueError):
        HashEmbeddingProvider(dim=0)


async def test_vectors_are_deterministic_and_similar_texts_are_close() -> None:
    emb = embedder(HashEmbeddingProvider(dim=256))
    a, b, c = await emb.embed_many(["My dog is called Biscuit", "what is my dog called?",
                                    "The invoice is overdue"])
    again = await embedder(HashEmbeddingProvider(dim=256)).embed_one(
        "My dog is called Biscuit")
    assert np.array_equal(a, again)
    assert float(a @ b) > float(a @ c) + 0.3
    assert np.array_equal(hash_vector("Dog, dog!", 8), hash_vector("dog dog", 8))
    assert hash_vector("", 8)[0] == 1.0  # a text without words still has a vector


async def test_calls_are_recorded_with_their_role() -> None:
    p = HashEmbeddingProvider()
    emb = embedder(p, batch_size=2)
    await emb.embed_many(["a b", "c", ("q", "query"), "d"])
    assert p.calls == [EmbedCall(["a b", "c"], "document"), EmbedCall(["d"], "document"),
                       EmbedCall(["q"], "query")]
    assert sorted(p.texts) == ["a b", "c", "d", "q"]
    await emb.aclose()
    assert p.closed


async def test_it_fails_on_cue_and_recovers() -> None:
    p = HashEmbeddingProvider()
    errors: list[EmbeddingUnavailable] = []
    emb = embedder(p, cache_enabled=False, on_error=errors.append)
    p.fail_next(2, decision="cooldown")
    for _ in range(2):
        with pytest.raises(EmbeddingUnavailable, match="simulated outage") as info:
            await emb.embed_one("hello")
        assert info.value.retry_decision == "cooldown" and info.value.provider == "test"
    await emb.embed_one("hello")  # the third call works again
    p.fail_with(ConnectionError("reset by peer"))
    for _ in range(3):
        with pytest.raises(EmbeddingUnavailable, match="reset by peer"):
            await emb.embed_one("hello")
    p.recover()
    await emb.embed_one("hello")
    assert len(errors) == 5 and emb.status.errors == 5 and len(p.calls) == 7
    # README § Testing your bot: texts lists every text embedded; the five calls made
    # to fail embedded nothing (they are in calls and attempted)
    assert p.texts == ["hello", "hello"] and p.attempted == ["hello"] * 7
    with pytest.raises(ValueError):
        p.fail_next(-1)


async def test_with_memory_on_a_real_sqlite_file(tmp_path: Path) -> None:
    provider = HashEmbeddingProvider()
    db = f"sqlite:///{tmp_path / 'bot.db'}"
    async with await Memory.open(db, embedder=embedder(provider), indexing={
            "retry_initial_s": 0.05, "retry_max_s": 0.1}) as mem:
        await mem.add([Message(session_id="s1", content="My dog is called Biscuit"),
                       Message(session_id="s1", content="I work at the harbour")])
        await mem.flush()
        hits = (await mem.recall("what is my dog called?", session="s1", top_k=1)).hits
        assert hits[0].message.content == "My dog is called Biscuit"
        # an outage: the message is stored at once and indexed once the provider is back
        provider.fail_with(ConnectionError("embedding service down"))
        await mem.add(Message(session_id="s1", content="I moved to Porto in June"))
        assert (await mem.stats())["messages"] == 3
        for _ in range(300):  # the indexer tried, and failed
            if "I moved to Porto in June" in provider.attempted:
                break
            await asyncio.sleep(0.02)
        assert (await mem.stats())["indexed"] == 2
        assert "I moved to Porto in June" not in provider.texts  # asked, not embedded
        provider.recover()
        for _ in range(300):
            if (await mem.stats())["indexed"] == 3:
                break
            await asyncio.sleep(0.02)
        st = await mem.stats()
        assert (st["indexed"], st["vectors_by_model"]) == (3, {"test:hash": 3})
    async with await Memory.open(db, embedder=embedder(HashEmbeddingProvider()),
                                 create=False) as again:  # the file kept it all
        hits = (await again.recall("where did I move?", session="s1", top_k=1)).hits
        assert hits[0].message.content == "I moved to Porto in June"


def test_the_readme_example_runs(tmp_path: Path) -> None:
    start = README.index("## Testing your bot")
    code = re.search(r"```python\n(.*?)```", README[start:], re.S)
    assert code is not None
    namespace: dict[str, object] = {}
    exec(compile(code.group(1), "README.md", "exec"), namespace)
    namespace["test_the_bot_remembers"](tmp_path)  # type: ignore[operator]


def test_an_embedder_over_it_is_a_real_embedder() -> None:
    emb = embedder()
    assert isinstance(emb, Embedder) and isinstance(emb.provider, HashEmbeddingProvider)
    assert emb.model_id == "test:hash" and emb.dimensions == 64


@pytest.mark.parametrize(("make", "field"), [
    (lambda: HashEmbeddingProvider(dim=0), "dim"),
    (lambda: HashEmbeddingProvider(dim="64"), "dim"),  # type: ignore[arg-type]
    (lambda: HashEmbeddingProvider(dim=64.5), "dim"),  # type: ignore[arg-type]
    (lambda: HashEmbeddingProvider(dim=True), "dim"),
    (lambda: HashEmbeddingProvider(model=""), "model"),
    (lambda: HashEmbeddingProvider(model=5), "model"),  # type: ignore[arg-type]
    (lambda: HashEmbeddingProvider(capabilities={"remote": True}),  # type: ignore[arg-type]
     "capabilities"),
    (lambda: HashEmbeddingProvider().fail_next(-1), "fail_next n"),
    (lambda: HashEmbeddingProvider().fail_next("3"), "fail_next n"),  # type: ignore[arg-type]
    (lambda: HashEmbeddingProvider().fail_next(1, decision="fial"), "decision"),
    (lambda: HashEmbeddingProvider().fail_with("service down"),  # type: ignore[arg-type]
     "fail_with"),
    (lambda: embedder("test"), "embedder"),  # type: ignore[arg-type]
], ids=["dim-0", "dim-str", "dim-float", "dim-bool", "model-empty", "model-int",
        "capabilities-dict", "n-negative", "n-str", "decision-typo", "fail_with-str",
        "embedder-str"])
def test_a_wrong_argument_is_invalid_input_naming_it(make: object, field: str) -> None:
    """A test's wrong argument was a raw ValueError or TypeError ('<' not supported
    between instances of 'str' and 'int'), or was taken: dim=64.5 broke the first
    embed, a misspelt decision simulated another failure than the one asked for (as
    'fail'), fail_with('service down') raised a TypeError inside the Embedder, which
    reported it as an outage, and embedder('test') an AttributeError."""
    with pytest.raises(InvalidInput, match=re.escape(field)):
        make()  # type: ignore[operator]


@pytest.mark.parametrize(("text", "dim", "field"), [
    ("x", 0, "dim"), ("x", "8", "dim"), (5, 8, "text"), (None, 8, "text")])
def test_hash_vector_refuses_a_wrong_argument_naming_it(text: object, dim: object,
                                                        field: str) -> None:
    """hash_vector (exported, for a test's expected vectors) raised ZeroDivisionError
    for dim=0, TypeError for dim='8' and AttributeError ('int' object has no attribute
    'lower') for a text that is not one."""
    with pytest.raises(InvalidInput, match=f"hash_vector {field}"):
        hash_vector(text, dim)  # type: ignore[arg-type]
    assert hash_vector("Biscuit the dog", 8).shape == (8,)
