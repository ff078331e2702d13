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
