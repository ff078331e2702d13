"""Message times and their order, end to end, found by an audit: each on every backend
where a store is involved (SQLite, SQLite beside Qdrant, PostgreSQL)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from zoneinfo import ZoneInfo

import pytest

from backends import PLACES, Place
from chatmem import InvalidInput, Memory, Message
from chatmem.models import MAX_TS
from chatmem.recall.render import format_time
from chatmem.testing import embedder


@pytest.fixture(params=sorted(PLACES))
async def place(request: pytest.FixtureRequest, tmp_path: object) -> AsyncIterator[Place]:
    async with PLACES[request.param](tmp_path) as p:
        yield p


@pytest.mark.parametrize("zone", ["Asia/Kathmandu", "Pacific/Kiritimati", "Asia/Tokyo"])
async def test_the_last_valid_time_is_labelled_with_a_date_east_of_utc(place: Place,
                                                                      zone: str) -> None:
    """``ts`` may be up to 9999-12-31 23:59:59.999 UTC, which east of UTC is already the
    year 10000: the label said ``ts=253402300799999``, as for a row no calendar can
    show. It is the UTC date and time, saying so; in UTC and west of it, as before."""
    mem = await Memory.open(place.url, vector=place.vector, embedder=embedder(),
                            timezone=zone)
    try:
        await mem.add([Message(session_id="s", content="the zebra at the end of time",
                               ts=MAX_TS, speaker_id="alice"),
                       Message(session_id="s", content="the zebra at the start", ts=0,
                               speaker_id="alice")])
        await mem.flush(timeout=60)
        result = await mem.recall("zebra", window=0, now=MAX_TS)
        assert "[alice @ 9999-12-31 23:59 UTC] the zebra at the end of time" in result.text
        assert "ts=" not in result.text
        start = format_time(0, ZoneInfo(zone))
        assert f"[alice @ {start}] the zebra at the start" in result.text
        assert not start.endswith("UTC")  # a time the zone can show stays in the zone
    finally:
        await mem.close()


def test_labels_in_utc_and_west_of_it_and_of_impossible_rows_are_unchanged() -> None:
    assert format_time(MAX_TS, ZoneInfo("UTC")) == "9999-12-31 23:59"
    assert format_time(MAX_TS, ZoneInfo("Etc/GMT+12")) == "9999-12-31 11:59"
    assert format_time(0, ZoneInfo("Etc/GMT+12")) == "1969-12-31 12:00"
    # a row written before timestamps were checked, beyond every calendar
    assert format_time(300_000_000_000_000, ZoneInfo("Asia/Kathmandu")) \
        == "ts=300000000000000"


async def test_an_id_stored_earlier_refused_at_a_later_ts_names_the_times(place: Place
                                                                          ) -> None:
    """An add of a stored id with the same words at a later ``ts`` is another message
    (a retry gives the same ts, or an earlier one the store moved): refused, as before,
    but the error said "different content" of identical text; it names both times.
    Nothing changes, and a real retry (a batch at one ts the store staggered) still
    returns the stored messages."""
    mem = await Memory.open(place.url, vector=place.vector, embedder=embedder())
    try:
        first = await mem.add([Message(id="m1", session_id="s", content="ok", ts=1000),
                               Message(id="m2", session_id="s", content="ok", ts=1000)])
        assert [m.ts for m in first] == [1000, 1001]
        with pytest.raises(InvalidInput, match=r'"m1" already exists at ts 1000, earlier '
                                               r"than the ts 2000 given"):
            await mem.add([Message(id="m1", session_id="s", content="ok", ts=2000)])
        again = await mem.add([Message(id="m1", session_id="s", content="ok", ts=1000),
                               Message(id="m2", session_id="s", content="ok", ts=1000)])
        assert [(m.id, m.ts) for m in again] == [("m1", 1000), ("m2", 1001)]
        # said "already exists with different content; use rewrite() to change a stored
        # message" whatever differed, and only the library's name for the fix
        for change, field in (({"content": "ok!"}, "content"), ({"role": "assistant"}, "role"),
                              ({"session_id": "t"}, "session_id"),
                              # another session's message: its content is not compared
                              # (a caller who may not see it learns nothing of it, R4)
                              ({"session_id": "t", "content": "ok!"}, "session_id"),
                              ({"session_id": "t", "role": "assistant"}, "session_id")):
            given = {"id": "m1", "session_id": "s", "content": "ok", "ts": 1000, **change}
            with pytest.raises(InvalidInput) as refused:
                await mem.add([Message(**given)])  # type: ignore[arg-type]
            assert f'"m1" already exists with another {field}:' in str(refused.value)
            assert "chatmem rewrite, POST /v1/rewrite" in str(refused.value)
        page = await mem.list(session="s")
        assert [(m.id, m.ts, m.content) for m in page.messages] == [
            ("m1", 1000, "ok"), ("m2", 1001, "ok")]
    finally:
        await mem.close()
