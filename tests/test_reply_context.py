"""Short replies are embedded with the turn they answer (issue 12,
``indexing.short_reply_chars``): what is embedded, that full-text search still sees
the message alone, and that a rewrite or an erase of the turn before re-embeds the
reply, so no vector keeps words that are gone — on every backend.

Real stores (SQLite files, PostgreSQL, Qdrant where configured) and the library's
:class:`chatmem.testing.HashEmbeddingProvider`, whose recorded calls show exactly
which texts were embedded and whose vectors can be recomputed to compare.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from backends import BACKENDS
from chatmem import Memory, Message
from chatmem.config import Config, IndexingConfig
from chatmem.errors import ConfigError
from chatmem.indexing import takes_context, vector_text
from chatmem.testing import HashEmbeddingProvider, embedder

NAMES = sorted(BACKENDS)
T0 = 1_750_000_000_000
CFG = IndexingConfig(short_reply_chars=30)
#: The setting measured in issue 12 (off by default: README § Recall quality).
ON = Config.load({"indexing": {"short_reply_chars": 30}})

ASKED = "How old is your new kitten Tudou, and where did you get him?"
REPLY = "3 months, from a friend's cat"


def _m(mid: str, role: str, content: str, ts: int, session: str = "s") -> Message:
    return Message(id=mid, session_id=session, role=role, content=content, ts=ts,
                   speaker_name="Maya" if role == "user" else None)


def test_a_short_reply_to_the_other_side_takes_the_turn_before() -> None:
    asked = _m("a", "assistant", ASKED, 1)
    reply = _m("u", "user", REPLY, 2)
    assert takes_context(reply, asked, CFG)
    assert vector_text(reply, asked, CFG) == f"{ASKED}\nMaya: {REPLY}"
    # the assistant's short answer to the user takes the user's words (no prefix)
    answer = _m("b", "assistant", "an air mattress", 3)
    assert vector_text(answer, reply, CFG) == f"{REPLY}\nan air mattress"
    # only the beginning of a long turn before
    cut = IndexingConfig(short_reply_chars=30, reply_context_chars=10)
    assert vector_text(reply, asked, cut) == f"{ASKED[:10]}\nMaya: {REPLY}"


@pytest.mark.parametrize("case", ["same side", "long", "off", "tool before", "none"])
def test_everything_else_is_embedded_alone(case: str) -> None:
    asked = _m("a", "assistant", ASKED, 1)
    reply = _m("u", "user", REPLY, 2)
    cfg = CFG
    previous: Message | None = asked
    if case == "same side":  # two people talking past each other in a group
        previous = _m("o", "user", "anyone up for pizza tonight?", 1)
    elif case == "long":
        reply = _m("u", "user", REPLY + " and she is a tabby with white socks", 2)
    elif case == "off":
        cfg = IndexingConfig(short_reply_chars=0)
    elif case == "tool before":
        previous = _m("t", "tool", "weather: sunny", 1)
    else:
        previous = None
    assert not takes_context(reply, previous, cfg)
    assert vector_text(reply, previous, cfg) == reply.embedded_text


@pytest.mark.parametrize("data", [{"short_reply_chars": -1}, {"short_reply_chars": "30"},
                                  {"reply_context_chars": 0}])
def test_bad_settings_name_the_field(data: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as err:
        Config.load({"indexing": data})
    assert f"indexing.{next(iter(data))}" in str(err.value)


def _texts(provider: HashEmbeddingProvider) -> list[str]:
    return [t for call in provider.calls if call.role == "document" for t in call.texts]


async def _vector(index: object, mid: str) -> np.ndarray:
    entries = {e.message_id: e for e in await index.scan_vectors(None, 100)}  # type: ignore[attr-defined]
    return np.asarray(entries[mid].vector, dtype=np.float32)


def _close(a: np.ndarray, b: object) -> bool:
    return bool(np.allclose(a, np.asarray(b, dtype=np.float32), atol=1e-5))


@contextlib.asynccontextmanager
async def exchange(backend: str, tmp_path: Path, *more: Message
                   ) -> AsyncIterator[tuple[Memory, Any, HashEmbeddingProvider]]:
    """A memory on ``backend`` with reply context on, holding the question, the short
    reply and ``more``, all indexed."""
    provider = HashEmbeddingProvider()
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, embedder(provider), config=ON)
        try:
            await mem.add([_m("a", "assistant", ASKED, T0), _m("u", "user", REPLY, T0 + 1),
                           *more])
            await mem.flush()
            yield mem, index, provider
        finally:
            await mem.close()


async def _embed(mem: Memory, text: str) -> np.ndarray:
    assert mem.embedder is not None
    return np.asarray(await mem.embedder.embed_one(text), dtype=np.float32)


@pytest.mark.parametrize("backend", NAMES)
async def test_indexing_embeds_the_exchange_and_full_text_sees_the_reply_alone(
        backend: str, tmp_path: Path) -> None:
    async with exchange(backend, tmp_path, _m("u2", "user", "ok", T0 + 2)) as (
            mem, index, provider):
        texts = _texts(provider)
        assert f"{ASKED}\nMaya: {REPLY}" in texts
        assert "Maya: ok" in texts  # after the same side: alone
        assert ASKED in texts  # a long turn: alone
        # the vector is the exchange's; the full-text row is the reply's own text
        assert _close(await _vector(index, "u"), await _embed(mem, f"{ASKED}\nMaya: {REPLY}"))
        hits = await mem.store.lexical_query("kitten", 10)  # type: ignore[attr-defined]
        assert [h.message_id for h in hits] == ["a"]  # the reply does not say it
        res = await mem.recall("friend cat", scope="all", window=0, top_k=3)
        assert res.hits and res.hits[0].message.id == "u"


@pytest.mark.parametrize("backend", NAMES)
async def test_rewriting_the_turn_before_re_embeds_the_reply(backend: str,
                                                            tmp_path: Path) -> None:
    async with exchange(backend, tmp_path) as (mem, index, _):
        await mem.rewrite("s", T0, content="Where is your cat Tudou from?")
        assert _close(await _vector(index, "u"),
                      await _embed(mem, f"Where is your cat Tudou from?\nMaya: {REPLY}"))
        assert _close(await _vector(index, "a"),
                      await _embed(mem, "Where is your cat Tudou from?"))


@pytest.mark.parametrize("backend", NAMES)
async def test_a_turn_added_before_an_indexed_reply_re_embeds_the_reply(
        backend: str, tmp_path: Path) -> None:
    """A message added into the past, between the question and its indexed short reply,
    is the reply's turn before now: the reply's vector, computed with the question's
    words, is computed again with the new turn's."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, embedder(HashEmbeddingProvider()), config=ON)
        try:
            await mem.add([_m("a", "assistant", ASKED, T0), _m("u", "user", REPLY, T0 + 10)])
            await mem.flush()
            assert _close(await _vector(index, "u"),
                          await _embed(mem, f"{ASKED}\nMaya: {REPLY}"))
            await mem.add(_m("x", "assistant", "Is Tudou a good sleeper?", T0 + 5))
            await mem.flush()
            assert _close(await _vector(index, "u"),
                          await _embed(mem, f"Is Tudou a good sleeper?\nMaya: {REPLY}"))
            assert (await mem.index_states(["u", "x"])) == {"u": "indexed", "x": "indexed"}
        finally:
            await mem.close()


@pytest.mark.parametrize("backend", NAMES)
async def test_erasing_the_turn_before_leaves_no_vector_or_cache_with_its_words(
        backend: str, tmp_path: Path) -> None:
    async with exchange(backend, tmp_path, _m("b", "assistant", "cute!", T0 + 2)) as (
            mem, index, provider):
        assert f"{REPLY}\ncute!" in _texts(provider)
        assert await mem.delete(["a", "u"]) == 2
        await mem.flush()
        # "cute!" is embedded again, alone now (nothing before it), and its vector no
        # longer holds the erased reply's words
        assert _close(await _vector(index, "b"), await _embed(mem, "cute!"))
        assert (await mem.index_states(["b"])) == {"b": "indexed"}
        # the cached vectors of the texts with the erased words went too
        calls = len(provider.calls)
        for text in (f"{ASKED}\nMaya: {REPLY}", f"{REPLY}\ncute!"):
            await _embed(mem, text)
        assert len(provider.calls) == calls + 2


@pytest.mark.parametrize("setting", [None, 0])
async def test_off_by_default_embeds_every_message_alone(setting: int | None,
                                                         tmp_path: Path) -> None:
    provider = HashEmbeddingProvider()
    cfg = Config() if setting is None else Config.load(
        {"indexing": {"short_reply_chars": setting}})
    assert cfg.indexing.short_reply_chars == 0
    async with await Memory.open(f"sqlite:///{tmp_path / 'm.db'}", embedder=embedder(provider),
                                 config=cfg) as mem:
        await mem.add([_m("a", "assistant", ASKED, T0), _m("u", "user", REPLY, T0 + 1)])
        await mem.flush()
        assert sorted(_texts(provider)) == sorted([ASKED, f"Maya: {REPLY}"])
