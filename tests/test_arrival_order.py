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
        days = [["I live in a flat in Lyon with two cats"],
                *([t] for t in UNRELATED),
                ["home is a flat in Porto now, the cats came too"]]
        # one add, one session per day, no ts: as an imported history often comes
        stored = await mem.add([Message(session_id=f"day{d:02d}", content=t)
                                for d, texts in enumerate(days) for t in texts])
        assert [m.ts for m in stored] == sorted({m.ts for m in stored})
        await mem.flush()
        hits = (await mem.recall("which city is my flat in these days", top_k=5,
                                 scope="all", window=0)).hits
        found = [h.message.content for h in hits]
        assert found[0] == days[-1][0] and days[0][0] in found
    finally:
        await mem.close()
