"""Recall pipeline edge cases found by an audit, each on every backend where a store is
involved (SQLite, SQLite beside Qdrant, PostgreSQL): what a recall may show, and what it
renders."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from backends import PLACES, Place
from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.testing import embedder


@pytest.fixture(params=sorted(PLACES))
async def place(request: pytest.FixtureRequest, tmp_path: object) -> AsyncIterator[Place]:
    async with PLACES[request.param](tmp_path) as p:
        yield p


#: A message its metadata marks private between two that are not.
DIARY = [Message(session_id="s", content="my bank pin is 4321", ts=1000,
                 metadata={"private": True}),
         Message(session_id="s", content="the garden needs watering", ts=2000),
         Message(session_id="s", content="my diary entry", ts=3000, role="assistant",
                 metadata={"private": True})]
PUBLIC = {"message.private": {"$ne": True}}


async def test_a_neighbour_the_filter_hides_is_not_shown(place: Place) -> None:
    """A neighbour passes the recall's filter as a hit must: the configured
    ``semantic_recall.filter`` (which a user key's filter only adds to) hid the private
    messages as hits, but the window brought them along in ``context()``, in the
    structured hits and in the rendered text."""
    config = Config.load({"semantic_recall": {"filter": PUBLIC}})
    mem = await Memory.open(place.url, vector=place.vector, embedder=embedder(),
                            config=config)
    try:
        await mem.add(DIARY)
        await mem.flush()
        context = await mem.context("garden watering", session="s")
        assert "garden" in context[0]["content"]
        assert "pin" not in context[0]["content"] and "diary" not in context[0]["content"]
        for narrow_only, caller in ((False, None), (False, PUBLIC), (True, {})):
            result = await mem.recall("garden watering", session="s", window=2,
                                      filter=caller, narrow_only=narrow_only)
            hit, = result.hits
            assert hit.message.content == "the garden needs watering"
            assert hit.before == () and hit.after == () and "pin" not in result.text
            assert "diary" not in result.text
        # without a filter the window is whole, as before
        mem.config = Config.load({})
        hit, = (await mem.recall("garden watering", session="s", window=2, top_k=1)).hits
        assert [m.content for m in (*hit.before, *hit.after)] == [
            "my bank pin is 4321", "my diary entry"]
    finally:
        await mem.close()


def test_a_line_break_at_the_end_of_a_message_leaves_no_empty_line() -> None:
    """Snippets are separated by an empty line: a message ending in a line break ("ok\\n",
    "\\r\\n", "\\u2028") rendered one inside its snippet, so that the messages after it
    read as another conversation."""
    from chatmem.recall.expand import Snippet
    from chatmem.recall.render import render

    for end in ("\n", "\r\n", "\u2028", "\n\n"):
        msgs = tuple(Message(session_id="s", id=f"m{i}", ts=i * 60_000, content=text)
                     for i, text in enumerate([f"first{end}", "second", f"a\n[x]{end}"]))
        text = render([Snippet("s", msgs, frozenset({"m0"}), 1.0)], {})
        _header, body = text.split("\n\n")  # the header, then one snippet
        assert [line for line in body.split("\n") if line.strip()] == [
            "[someone @ 1970-01-01 00:00] first", "[someone @ 1970-01-01 00:01] second",
            "[someone @ 1970-01-01 00:02] a", "  [x]"]


def test_a_turn_of_many_long_inputs_builds_its_query_at_once() -> None:
    """A turn may hold 1000 inputs of 200,000 characters each: the query (the latest
    4000 characters) was built by joining all that is left after each dropped input,
    93 s of one core per recall; now one pass."""
    import time

    from chatmem.recall import MAX_QUERY_CHARS, build_query

    start = time.monotonic()
    query = build_query(["x" * 200_000] * 999 + ["the latest words"])
    assert time.monotonic() - start < 5
    assert query == "the latest words"
    assert build_query(["x" * 200_000] * 1000) == "x" * MAX_QUERY_CHARS
    assert build_query(["a" * 10, "b" * 3989]) == "a" * 10 + "\n" + "b" * 3989
    assert build_query(["a" * 10, "b" * 3990]) == "b" * 3990


async def test_context_takes_as_many_exclude_ids_as_recall(tmp_path: object) -> None:
    """``context()`` added the ids of its ``last_messages`` to the caller's before
    checking them: 10,000 ids (the limit) with ``last_messages`` 3 failed with
    "exclude_ids has 10003 items"."""
    from chatmem.recall.request import MAX_IDS

    mem = await Memory.open(f"sqlite:///{tmp_path}/c.db", embedder=embedder(),
                            config=Config.load({"last_messages": 3}))
    try:
        await mem.add([Message(session_id="s", content=f"note {i}", ts=1000 + i)
                       for i in range(5)])
        await mem.flush()
        turn = await mem.turn_context("note", session="s",
                                      exclude_ids=[f"x{i}" for i in range(MAX_IDS)])
        assert [m["content"] for m in turn.messages[-3:]] == ["note 2", "note 3", "note 4"]
        assert {h.message.content for h in turn.recall.hits} == {"note 0", "note 1"}
    finally:
        await mem.close()
