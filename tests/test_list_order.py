"""Listing without a session walks the store's time or speaker index (SQLite side;
the PostgreSQL side is in test_postgres.py): a sort of the whole table per page made
paging through a store quadratic (``bench/listing.py`` measures it)."""

from __future__ import annotations

from pathlib import Path

import pytest

from chatmem.models import Message
from chatmem.store import sqlmessages
from chatmem.store.sqlite import SqliteStore


@pytest.mark.parametrize("newest_first", [False, True])
@pytest.mark.parametrize("window", [{}, {"since": 10, "until": 500}])
@pytest.mark.parametrize("speaker", [None, "u3"])
async def test_a_page_without_a_session_is_a_walk_of_an_index(
        tmp_path: Path, newest_first: bool, window: dict[str, int],
        speaker: str | None) -> None:
    store = await SqliteStore.open(tmp_path / "t.db")
    try:
        await store.append([Message(session_id=f"s{i % 7}", content=f"m{i}", ts=i,
                                    speaker_id=f"u{i % 5}") for i in range(1, 600)])
        # with a speaker and a time range either index serves (the planner weighs them)
        index = ("messages_time",) if speaker is None else (
            ("messages_speaker",) if not window else ("messages_speaker", "messages_time"))
        for after in (None, (150, "zz")):
            sql, params = sqlmessages.list_query(
                sqlmessages.SQLITE, session_ids=None, speaker_id=speaker, after=after,
                limit=20, newest_first=newest_first, since=window.get("since"),
                until=window.get("until"))
            plan = " | ".join(r[-1] for r in store.conn.execute(
                "EXPLAIN QUERY PLAN " + sql, params).fetchall())
            assert any(i in plan for i in index) and "TEMP B-TREE" not in plan, plan
            if after is not None:  # a range from the position, not a scan from the start
                assert "ts<?" in plan if newest_first else "ts>?" in plan, plan
            # and the page is the one the order says
            page = await store.list_messages(after=after, limit=20, speaker_id=speaker,
                                             newest_first=newest_first, **window)
            keys = [(m.ts, m.id) for m in page]
            assert keys == sorted(keys, reverse=newest_first) and len(keys) == 20
            assert all(m.speaker_id == (speaker or m.speaker_id) for m in page)
            if after is not None:
                assert all((k < after) if newest_first else (k > after) for k in keys)
    finally:
        await store.close()


@pytest.mark.parametrize("newest_first", [False, True])
async def test_a_page_of_large_messages_ends_short_at_its_character_budget(
        tmp_path: Path, newest_first: bool) -> None:
    """1,000 of the largest messages made one page of 200 MB or more, which the
    library's own HTTP client refused to read (``max_response_bytes``); a page now ends
    once its text reaches ``MAX_PAGE_CHARS``, with a cursor, and the pages together
    are every message once, in order."""
    import chatmem.testing
    from chatmem import Memory
    from chatmem.memory import MAX_PAGE_CHARS, text_chars

    big = "x" * 199_000
    count = MAX_PAGE_CHARS // len(big) + 30
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=chatmem.testing.embedder(),
                                 semantic_recall=False) as mem:
        await mem.add([Message(session_id="s", content=f"{i} {big}", ts=1000 + i,
                               metadata={"n": i}) for i in range(count)])
        await mem.add(Message(session_id="s", content="a small one after", ts=5000))
        pages, cursor = [], None
        while True:
            page = await mem.list(session="s", limit=1000, cursor=cursor,
                                  newest_first=newest_first)
            pages.append(page.messages)
            cursor = page.next_cursor
            if cursor is None:
                break
        assert len(pages) >= 2 and len(pages[0]) < count
        for messages in pages:  # at most one message past the budget
            assert sum(text_chars(m) for m in messages[:-1]) < MAX_PAGE_CHARS
        listed = [m.ts for messages in pages for m in messages]
        expected = [1000 + i for i in range(count)] + [5000]
        assert listed == (expected[::-1] if newest_first else expected)
