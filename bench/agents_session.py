"""The OpenAI Agents SDK session (``ChatmemSession``) over long histories.

    python bench/agents_session.py [--sizes 1000,10000,50000] [--repeat 15]
        [--out bench/results/agents_session.json]

For each size N, in one process, a fresh SQLite store in a temporary folder holding one
session of N messages (users and assistants alternating; no recall, so nothing is
embedded: what is measured is reading the history). Each operation is timed (median of
``--repeat``) as ``ChatmemSession`` does it and as it did before stop 46 (the baseline,
run in the same process on the same store): a run's history, ``get_items(limit=20)``
(``SessionSettings(limit=20)``), was the whole session read oldest first, then its last
20 items; now the latest pages are read newest first until 20 items are found.
``pop_item`` (then ``add_items`` to put the item back) read the whole session too.
``get_items()`` without a limit reads everything either way (the reference row).
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from _common import before_now_main, median_ms
from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.integrations.openai_agents import ChatmemSession, message_to_item

LIMIT = 20


async def measure(size: int, repeat: int, folder: Path) -> list[dict[str, Any]]:
    mem = await Memory.open(f"sqlite:///{folder}/agents-{size}.db",
                            config=Config.load({"semantic_recall": False}))
    try:
        for lo in range(0, size, 1000):
            await mem.add([Message(session_id="s1", content=f"message {i} " * 5,
                                   role="user" if i % 2 else "assistant", ts=1000 + i)
                           for i in range(lo, min(lo + 1000, size))])
        session = ChatmemSession(mem, "s1")

        async def whole_then_last() -> list[Any]:  # the baseline: before stop 46
            items = [i for i in map(message_to_item, await session._messages())
                     if i is not None]
            return items[-LIMIT:]

        async def whole_then_pop() -> None:  # the baseline's pop_item, then put back
            for message in reversed(await session._messages()):
                item = message_to_item(message)
                if item is not None and message.id is not None:
                    await mem.delete([message.id])
                    await session.add_items([item])
                    return

        async def pop_and_put_back() -> None:
            await session.add_items([await session.pop_item()])

        assert await session.get_items(limit=LIMIT) == await whole_then_last()
        rows = []
        for name, now, before in (
                (f"get_items(limit={LIMIT})", lambda: session.get_items(limit=LIMIT),
                 whole_then_last),
                ("pop_item + add_items", pop_and_put_back, whole_then_pop),
                ("get_items() (all)", session.get_items, session.get_items)):
            base = await median_ms(before, repeat)
            new = await median_ms(now, repeat)
            rows.append({"messages": size, "operation": name, "before_ms": round(base, 2),
                         "now_ms": round(new, 2), "ratio": round(new / base, 4)})
        return rows
    finally:
        await mem.close()


async def main() -> None:
    await before_now_main(
        __doc__, name="agents_session", size_name="messages", measure=measure,
        title="ChatmemSession over one session of N messages, SQLite, median ms "
              "(before: the whole history read, as before stop 46; same process)",
        store="sqlite (one session)")


if __name__ == "__main__":
    asyncio.run(main())
