"""``context_expand.max_chars``: a total character budget of the rendered memory.

A real SQLite file store (``Memory.open``) with the deterministic hash embedder.
The budget keeps a prefix of the ranking (lowest hits go first, with their
windows), the best hit always survives, its neighbours go before its body is cut,
and without a budget the text is exactly what it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError
from chatmem.recall.render import LABELS
from chatmem.testing import HashEmbeddingProvider

T0 = 1_760_000_000_000
MIN = 60_000
NOW = T0 + 30 * 86_400_000

#: Five topics, each a hit with chatter around it, in sessions of their own.
TOPICS = ("lighthouse keeper ferry timetable", "sourdough starter rye flour",
          "violin lesson tuesday evening", "passport renewal embassy appointment",
          "tomato seedlings greenhouse frost")


def _messages() -> list[Message]:
    out = []
    for i, topic in enumerate(TOPICS):
        sid = f"s{i}"
        base = T0 + i * 86_400_000
        for j in range(5):
            content = (f"{topic} " * (3 - i % 2)).strip() if j == 2 else \
                f"chatter number {j} about nothing in particular, day {i}, {'x' * 40 * j}"
            out.append(Message(id=f"m{i}-{j}", session_id=sid, content=content,
                               ts=base + j * MIN, speaker_id=f"p{j % 2}",
                               speaker_name=("Ana", "Bo")[j % 2]))
    return out


QUERY = " ".join(TOPICS)


async def _open(tmp_path: Path, name: str, **config: Any) -> Memory:
    mem = await Memory.open(f"sqlite:///{tmp_path}/{name}.db",
                            embedder=Embedder(HashEmbeddingProvider()), config=config)
    await mem.add(_messages())
    await mem.flush()
    return mem


async def _text(mem: Memory, query: str = QUERY) -> str:
    out = await mem.context(query, session="asker", now=NOW)
    return out[0]["content"] if out else ""


def _lines(text: str) -> list[str]:
    return [ln for ln in text.split("\n") if ln.startswith("[")]


async def test_budget_off_is_byte_identical(tmp_path: Path) -> None:
    plain = await _open(tmp_path, "a")
    off = await _open(tmp_path, "b", context_expand={"max_chars": None})
    try:
        assert off.config.context_expand.max_chars is None
        for query in (QUERY, TOPICS[1], "frost violin", "nothing matches zzz"):
            a, b = await _text(plain, query), await _text(off, query)
            assert a == b
            # and it is what the recall pipeline renders without any budget at all
            assert a == (await plain.recall(query, session="asker", now=NOW)).text
        big = await _open(tmp_path, "c", context_expand={"max_chars": 1_000_000})
        try:
            assert await _text(big) == await _text(plain)  # fits: untouched
        finally:
            await big.close()
    finally:
        await plain.close()
        await off.close()


async def test_kept_hits_are_a_prefix_of_the_ranking_and_fit(tmp_path: Path) -> None:
    full_mem = await _open(tmp_path, "full")
    try:
        full = await full_mem.recall(QUERY, session="asker", now=NOW)
        ranking = [h.message.id for h in full.hits]
        assert len(ranking) == 5 and len(full.text) > 1200
        seen_sizes = set()
        for budget in (200, 400, 600, 800, 1000, 1200, len(full.text) - 1, len(full.text)):
            mem = await _open(tmp_path, f"b{budget}", context_expand={"max_chars": budget})
            try:
                res = await mem.recall(QUERY, session="asker", now=NOW)
                assert await _text(mem) == res.text  # context() injects exactly this
            finally:
                await mem.close()
            assert len(res.text) <= budget
            assert [h.message.id for h in res.hits] == ranking  # structured hits complete
            kept = set().union(*(s.hit_ids for s in res.snippets))
            n = len(kept)
            assert n >= 1 and kept == set(ranking[:n]), (budget, kept)
            assert ranking[0] in kept  # the best hit survives
            seen_sizes.add(n)
            if n > 1:  # whole hits with whole windows, as without a budget
                prefix = await full_mem.recall(QUERY, session="asker", now=NOW, top_k=n)
                assert res.text == prefix.text
            if n < len(ranking):  # the next hit, with its window, would not have fitted
                more = await full_mem.recall(QUERY, session="asker", now=NOW, top_k=n + 1)
                assert len(more.text) > budget
        assert len(seen_sizes) >= 3  # the budgets above really cut at different places
    finally:
        await full_mem.close()


async def test_neighbours_go_before_the_hit_farthest_first(tmp_path: Path) -> None:
    mem = await _open(tmp_path, "n", search={"top_k": 1})
    try:
        full = await mem.recall(TOPICS[3], session="asker", now=NOW)
    finally:
        await mem.close()
    best = full.hits[0].message
    assert best.id == "m3-2"
    assert [m.id for m in full.snippets[0].messages] == [f"m3-{j}" for j in range(5)]
    header = LABELS["en"].header
    lines = _lines(full.text)
    # budgets that leave room for the hit and some of its neighbours
    expected = [
        # dropped in this order: the farthest (j=0 and 4; the earlier first), then 1 and 3
        ["m3-1", "m3-2", "m3-3", "m3-4"],
        ["m3-1", "m3-2", "m3-3"],
        ["m3-2", "m3-3"],
        ["m3-2"],
    ]
    by_id = {m.id: ln for m, ln in zip(full.snippets[0].messages, lines)}
    for keep in expected:
        size = len(header) + 2 + len("\n".join(by_id[i] for i in keep))
        mem = await _open(tmp_path, f"n{len(keep)}",
                          search={"top_k": 1}, context_expand={"max_chars": size})
        try:
            res = await mem.recall(TOPICS[3], session="asker", now=NOW)
        finally:
            await mem.close()
        assert [m.id for m in res.snippets[0].messages] == keep
        assert len(res.text) == size and "truncated" not in res.text


async def test_a_best_hit_too_long_alone_is_cut_with_the_label(tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/long.db",
                            embedder=Embedder(HashEmbeddingProvider()),
                            config={"context_expand": {"max_chars": 300}})
    try:
        long_body = "glacier expedition " + "crampons ice axe rope " * 100
        await mem.add([
            Message(id="before", session_id="s", content="hello there", ts=T0),
            Message(id="hit", session_id="s", content=long_body, ts=T0 + MIN,
                    speaker_name="Ana"),
            Message(id="after", session_id="s", content="bye now", ts=T0 + 2 * MIN),
        ])
        await mem.flush()
        res = await mem.recall("glacier expedition crampons", session="asker", now=NOW)
        assert res.hits[0].message.id == "hit"
        assert len(res.text) <= 300
        assert [m.id for m in res.snippets[0].messages] == ["hit"]
        lines = _lines(res.text)
        assert len(lines) == 1 and lines[0].endswith("more characters]")
        assert "…[truncated, " in lines[0] and "glacier expedition" in lines[0]
        assert len(res.text) >= 280  # the cut uses the room there is
        # per_item_max_chars still applies within the budget
        mem.config = Config.load({"context_expand": {"max_chars": 300},
                                  "search": {"per_item_max_chars": 20}})
        cut = await mem.recall("glacier expedition crampons", session="asker", now=NOW)
        assert len(cut.text) <= 300 and cut.text.count("truncated") <= 3
    finally:
        await mem.close()


async def test_budget_is_deterministic(tmp_path: Path) -> None:
    mem = await _open(tmp_path, "d", context_expand={"max_chars": 700})
    try:
        texts = {await _text(mem) for _ in range(3)}
        assert len(texts) == 1
    finally:
        await mem.close()


@pytest.mark.parametrize("value", [0, 199, -5, "2000", 1.5, True, [2000]])
def test_bad_budget_is_a_config_error_naming_the_field(value: object) -> None:
    with pytest.raises(ConfigError, match=r"context_expand\.max_chars"):
        Config.load({"context_expand": {"max_chars": value}})


async def test_bad_budget_refused_by_open(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"context_expand\.max_chars"):
        await Memory.open(f"sqlite:///{tmp_path}/x.db",
                          embedder=Embedder(HashEmbeddingProvider()),
                          context_expand={"max_chars": 10})


def test_default_is_off_and_minimum_accepted() -> None:
    assert Config().context_expand.max_chars is None
    assert Config.load({"context_expand": {"max_chars": 200}}).context_expand.max_chars == 200


async def test_one_recall_returns_at_most_max_recall_chars(tmp_path: Path) -> None:
    """Whatever the configuration: the hits and windows a recall returns hold at most
    ``MAX_RECALL_CHARS`` characters (counted as the answer carries them), the kept hits
    are a prefix of the ranking, the one at the edge keeps its nearest neighbours, and
    the left-out hits are counted. Before, a recall of 100 hits with windows of 100
    over messages of 199,000 characters returned 3.5 GB (the HTTP API, measured)."""
    from chatmem.memory import MAX_RECALL_CHARS, text_chars

    big = "y" * 199_000
    # top_k messages: the plain recall finds 50 hits (9.95 million characters), and each
    # wide hit's window holds the whole session, so the second hit is past the budget
    count = 50
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=Embedder(HashEmbeddingProvider())) as mem:
        await mem.add([Message(session_id="s", ts=T0 + i * MIN,
                               content=f"harbour crane {i} {big}") for i in range(count)])
        await mem.flush(120)
        plain = await mem.recall("harbour crane", top_k=50, window=0, scope="all",
                                 now=NOW)  # 10 million characters: within the budget
        wide = await mem.recall("harbour crane", top_k=50, window=100, scope="all",
                                now=NOW)
    assert plain.excluded["budget"] == 0 and len(plain.hits) == 50
    carried = sum(text_chars(h.message) + sum(map(text_chars, (*h.before, *h.after)))
                  for h in wide.hits)
    assert carried <= MAX_RECALL_CHARS
    kept = [h.message.id for h in wide.hits]
    assert kept == [h.message.id for h in plain.hits][:len(kept)]
    assert wide.excluded["budget"] == 50 - len(kept) > 0
    edge = wide.hits[-1]
    order = sorted([*edge.before, edge.message, *edge.after], key=lambda m: m.ts or 0)
    at = order.index(edge.message)  # the window kept is contiguous around the hit
    assert [m.ts for m in order] == [edge.message.ts + (i - at) * MIN
                                     for i in range(len(order))]
    assert len(wide.text) <= MAX_RECALL_CHARS + 100 * len(wide.hits)  # labels and headers


async def test_at_the_budget_the_window_stays_unbroken_and_later_hits_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The hit at the edge keeps its nearest neighbours up to the first that does not
    fit, never a farther one past a gap; the hits after it are left out even when they
    are small. (The budget is lowered for the test: the rule is the same at 16 million
    characters.)"""
    import chatmem.memory

    monkeypatch.setattr(chatmem.memory, "MAX_RECALL_CHARS", 1_000)
    notes = [("far before, short", 0), ("near before " + "w" * 950, 1),
             ("kettle descaling vinegar ratio", 2), ("after, short", 3),
             ("another day entirely", 10), ("kettle descaling again soon", 11)]
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=Embedder(HashEmbeddingProvider())) as mem:
        await mem.add([Message(session_id="s", ts=T0 + minute * MIN, content=text)
                       for text, minute in notes])
        await mem.flush(30)
        result = await mem.recall("kettle descaling vinegar ratio", top_k=2, window=2,
                                  scope="all", now=NOW)
    assert [h.message.content for h in result.hits] == ["kettle descaling vinegar ratio"]
    (hit,) = result.hits
    assert [m.content for m in (*hit.before, *hit.after)] == ["after, short"]
    assert result.excluded["budget"] == 1
