"""Hybrid recall measures the cosine of a candidate only full text found (issue 12,
stop 22; :mod:`chatmem.recall.fuse`) — on every backend, since the measurement is one
more nearest-neighbour query restricted to those ids.

A provider with chosen vectors makes every cosine known: 60 messages near the query
that do not say its word fill the dense pool; two messages that say it lie outside
that pool, one at cosine 0 and one at 0.2. Their fused score must blend those
cosines, not the pool's lowest (about 0.3 here), which is what they got before and
what grows as a store fills up. The mirror: a message near in meaning that says the
word once in a long text, outside the full-text pool, gets its own (small) word
score, not 0.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pytest

from backends import BACKENDS
from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.errors import FilterError
from chatmem.store import SqliteStore
from chatmem.testing import HashEmbeddingProvider, embedder

NAMES = sorted(BACKENDS)
T0 = 1_750_000_000_000
DIM = 64
QUERY = "zebra"
#: dense weight 0.3: the word matches outrank the meaning matches, so they are hits
# one session within milliseconds: rule 20 (a sitting lends relevance) is off so that the
# fused scores these tests read are the channels' alone
CFG = Config.load({"hybrid": {"dense_weight": 0.3},
                   "search": {"time_weight": 0.0, "episode_share": 0.0}})


def unit(i: int) -> npt.NDArray[np.float32]:
    v = np.zeros(DIM, dtype=np.float32)
    v[i] = 1.0
    return v


def at_cosine(c: float, axis: int) -> npt.NDArray[np.float32]:
    """A unit vector at cosine ``c`` from the query's (axis 0), off along ``axis``."""
    return (c * unit(0) + math.sqrt(1.0 - c * c) * unit(axis)).astype(np.float32)


NEAR = {f"neighbour number {i}": at_cosine(0.9 - 0.01 * i, 1 + i) for i in range(60)}
FAR = {"zebra stripes": unit(61), "zebra crossing": at_cosine(0.2, 62)}


class ChosenVectors(HashEmbeddingProvider):
    def vector(self, text: str) -> npt.NDArray[np.float32]:
        chosen = {QUERY: unit(0), **NEAR, **FAR}
        return chosen[text] if text in chosen else super().vector(text)


@pytest.mark.parametrize("scope", ["all", "session"])
@pytest.mark.parametrize("backend", NAMES)
async def test_a_word_match_outside_the_dense_pool_gets_its_own_cosine(
        backend: str, scope: str, tmp_path: Path) -> None:
    """``scope="session"``: the measuring query keeps the recall's own filter."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, embedder(ChosenVectors(DIM)), config=CFG)
        try:
            texts = [*NEAR, *FAR]
            await mem.add([Message(id=f"m{i}", session_id="s", role="user", content=t,
                                   ts=T0 + i) for i, t in enumerate(texts)])
            await mem.flush()
            ids = {t: f"m{i}" for i, t in enumerate(texts)}
            lexical = {s.message_id: s.score
                       for s in await mem.storage.lexical.lexical_query(QUERY, 10, None)}
            assert set(lexical) == {ids["zebra stripes"], ids["zebra crossing"]}
            res = await mem.recall(QUERY, top_k=10, scope=scope, window=0,
                                   session="s" if scope == "session" else None)
            semantic = {h.message.id: h.semantic for h in res.hits}
            # top_k 10 → a pool of 40 nearest: all neighbours, neither word match
            floor = 0.9 - 0.01 * 39
            for text, cosine in (("zebra stripes", 0.0), ("zebra crossing", 0.2)):
                mid = ids[text]
                assert semantic[mid] == pytest.approx(0.3 * cosine + 0.7 * lexical[mid],
                                                      abs=1e-4), text
                assert semantic[mid] < 0.3 * floor + 0.7 * lexical[mid] - 0.02
            # with the same word score, the one nearer in meaning ranks first
            assert semantic[ids["zebra crossing"]] > semantic[ids["zebra stripes"]]
        finally:
            await mem.close()


#: 60 short messages that say the word (the full-text pool of 40 is theirs), each far
#: in meaning; one long message that says it once (a weak word match, outside that pool)
#: and means exactly the query.
WORDY = {f"zebra note {i}": unit(1 + i) for i in range(60)}
MEANT = ("the zebra came up again in a long rambling story about the school trip, the "
         "weather, the bus, the lunch boxes and everything else that happened that day")


#: dense weight 0.9: the meaning match is the first hit, whatever its word score
MEANING_FIRST = Config.load({"hybrid": {"dense_weight": 0.9},
                             "search": {"time_weight": 0.0, "episode_share": 0.0}})


class ChosenVectors2(HashEmbeddingProvider):
    def vector(self, text: str) -> npt.NDArray[np.float32]:
        chosen = {QUERY: unit(0), **WORDY, MEANT: at_cosine(0.95, 63)}
        return chosen[text] if text in chosen else super().vector(text)


@pytest.mark.parametrize("backend", NAMES)
async def test_a_meaning_match_outside_the_word_pool_gets_its_own_word_score(
        backend: str, tmp_path: Path) -> None:
    """The mirror: a dense-only candidate's full-text score is measured, not taken as 0."""
    async with BACKENDS[backend](tmp_path) as (store, index):
        mem = Memory(store, index, embedder(ChosenVectors2(DIM)), config=MEANING_FIRST)
        try:
            texts = [*WORDY, MEANT]
            await mem.add([Message(id=f"m{i}", session_id="s", role="user", content=t,
                                   ts=T0 + i) for i, t in enumerate(texts)])
            await mem.flush()
            target = f"m{len(WORDY)}"
            pool = await mem.storage.lexical.lexical_query(QUERY, 40, None)
            assert target not in {s.message_id for s in pool}  # outside the word pool
            (own,) = await mem.storage.lexical.lexical_query(
                QUERY, 5, {"message_id": {"$in": [target, "nope"]}})
            assert own.message_id == target and 0 < own.score < min(s.score for s in pool)
            res = await mem.recall(QUERY, top_k=10, scope="all", window=0)
            semantic = {h.message.id: h.semantic for h in res.hits}
            assert res.hits[0].message.id == target
            assert semantic[target] == pytest.approx(0.9 * 0.95 + 0.1 * own.score, abs=1e-4)
        finally:
            await mem.close()


async def test_a_caller_filter_near_the_node_limit_still_recalls(tmp_path: Path) -> None:
    """The measuring queries add the candidates' ids to the caller's filter; a filter
    the searches accepted but with no room left for them keeps the bounds instead of
    failing the recall."""
    store = await SqliteStore.open(tmp_path / "m.db")
    mem = Memory(store, store, embedder(ChosenVectors(DIM)), config=CFG)
    try:
        texts = [*NEAR, *FAR]
        await mem.add([Message(id=f"m{i}", session_id="s", role="user", content=t,
                               ts=T0 + i, metadata={"tag": "a"}) for i, t in enumerate(texts)])
        await mem.flush()
        wide = {"message.tag": {"$in": ["a", *(f"x{i}" for i in range(990))]}}
        res = await mem.recall(QUERY, top_k=10, scope="all", window=0, filter=wide)
        ids = {h.message.id for h in res.hits}
        # the word matches are recalled, with the dense pool's bound for their cosine
        assert {"m60", "m61"} <= ids
        with pytest.raises(FilterError):  # one node more is the caller's own error
            await mem.recall(QUERY, filter={"message.tag": {"$in": [f"x{i}" for i in
                                                                   range(1001)]}})
    finally:
        await mem.close()


@pytest.mark.parametrize(("declared", "configured", "used"), [
    (0.3, None, 0.3),    # the model's own weight when the setting is unset
    (0.3, 0.5, 0.5),     # the setting, when given, wins over the model's
    (None, None, 0.6),   # a model that declares none: the default
])
async def test_the_dense_weight_is_the_settings_else_the_models_else_the_default(
        declared: float | None, configured: float | None, used: float,
        tmp_path: Path) -> None:
    """``hybrid.dense_weight`` unset: a model's ``Capabilities.dense_weight`` (a stronger
    model earns more: all-mpnet-base-v2 declares 0.7), else 0.6."""
    from chatmem.embedding.base import Capabilities

    hybrid = {} if configured is None else {"dense_weight": configured}
    config = Config.load({"hybrid": hybrid,
                          "search": {"time_weight": 0.0, "episode_share": 0.0}})
    provider = ChosenVectors(DIM, capabilities=Capabilities(dense_weight=declared))
    mem = await Memory.open(f"sqlite:///{tmp_path / 'w.db'}", embedder=embedder(provider),
                            config=config)
    try:
        texts = [*NEAR, *FAR]
        await mem.add([Message(id=f"m{i}", session_id="s", role="user", content=t,
                               ts=T0 + i) for i, t in enumerate(texts)])
        await mem.flush()
        crossing = f"m{texts.index('zebra crossing')}"
        (word,) = await mem.storage.lexical.lexical_query(
            QUERY, 5, {"message_id": {"$in": [crossing]}})
        res = await mem.recall(QUERY, top_k=60, scope="all", window=0)
        semantic = {h.message.id: h.semantic for h in res.hits}
        assert semantic[crossing] == pytest.approx(used * 0.2 + (1 - used) * word.score,
                                                   abs=1e-4)
    finally:
        await mem.close()
