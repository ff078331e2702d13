"""A history added without timestamps keeps its order (issue 12): the store's
:class:`~chatmem.store.base.ArrivalClock` times each message after the one before it,
in whichever session, so on a question about the present the newer statement of a fact
still comes first. Before it, every session of a batch started at the same clock
reading and a month of daily sessions was one instant."""

from __future__ import annotations

from pathlib import Path

from chatmem import Memory, Message
from chatmem.testing import embedder
from world import UNRELATED


async def test_the_newer_statement_wins_in_a_history_added_without_timestamps(
        tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/h.db", embedder=embedder())
    try:
        days = [["my flat is in Lyon"], *([t] for t in UNRELATED), ["moved to Porto last week"]]
        # one add, one session per day, no ts: as an imported history often comes
        stored = await mem.add([Message(session_id=f"day{d:02d}", content=t)
                                for d, texts in enumerate(days) for t in texts])
        assert [m.ts for m in stored] == sorted({m.ts for m in stored})
        await mem.flush()
        hits = (await mem.recall("which city is my flat in now", top_k=5, scope="all",
                                 window=0)).hits
        # the older statement matches the words better; only the order puts it second
        assert [h.message.content for h in hits][:2] == [days[-1][0], days[0][0]]
    finally:
        await mem.close()
