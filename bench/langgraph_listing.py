"""The LangGraph store (``ChatmemStore``): search without a query over many items.

    python bench/langgraph_listing.py [--sizes 1000,10000,50000] [--repeat 15]
        [--out bench/results/langgraph_listing.json]

For each size N, in one process, a fresh SQLite store in a temporary folder holding N
items in ten namespaces ``("memories", "u0")`` … ``("memories", "u9")`` (no recall,
so nothing is embedded: what is measured is reading the items). ``search(("memories",),
limit=10)`` lists the newest items under the prefix; it is timed (median of
``--repeat``) as it is now and as it was before stop 47 (the baseline, run in the same
process on the same store): every item under the prefix read, held and sorted, then
10 kept; now each namespace is read newest first and left once its next item is older
than the tenth newest found. The same search with an offset of N − 10 reads nearly
everything either way (the reference row).
"""

from __future__ import annotations

import asyncio
import functools
from pathlib import Path
from typing import Any

from langgraph.store.base import PutOp, SearchOp

from _common import before_now_main, median_ms
from chatmem import Memory
from chatmem.config import Config
from chatmem.integrations.langgraph import ChatmemStore
from chatmem.models import Message

LIMIT = 10
NAMESPACES = 10


async def measure(size: int, repeat: int, folder: Path) -> list[dict[str, Any]]:
    mem = await Memory.open(f"sqlite:///{folder}/langgraph-{size}.db",
                            config=Config.load({"semantic_recall": False}))
    try:
        store = ChatmemStore(mem)
        for lo in range(0, size, 1000):
            await store.abatch([PutOp(("memories", f"u{i % NAMESPACES}"), f"k{i}",
                                      {"text": f"item {i} " * 5, "n": i})
                                for i in range(lo, min(lo + 1000, size))])

        async def whole_then_sorted(offset: int) -> list[str]:  # before stop 47
            found: list[Message] = []
            for sid, _ in await store._namespaces():
                cursor: str | None = None
                while True:
                    page = await mem.list_messages(session=sid, limit=1000, cursor=cursor)
                    found += [m for m in page.messages if store._is_item(m)]
                    cursor = page.next_cursor
                    if cursor is None:
                        break
            found.sort(key=lambda m: (-(m.ts or 0), m.id or ""))
            return [m.metadata["langgraph"]["key"] for m in found[offset:offset + LIMIT]]

        async def now(offset: int) -> list[str]:
            [items] = await store.abatch([SearchOp(("memories",), limit=LIMIT,
                                                   offset=offset)])
            return [item.key for item in items]

        rows = []
        for name, offset in ((f"search(limit={LIMIT})", 0),
                             (f"search(limit={LIMIT}, offset=N-{LIMIT})", size - LIMIT)):
            assert await now(offset) == await whole_then_sorted(offset)
            base = await median_ms(functools.partial(whole_then_sorted, offset), repeat)
            new = await median_ms(functools.partial(now, offset), repeat)
            rows.append({"items": size, "operation": name, "before_ms": round(base, 2),
                         "now_ms": round(new, 2), "ratio": round(new / base, 4)})
        return rows
    finally:
        await mem.close()


async def main() -> None:
    await before_now_main(
        __doc__, name="langgraph_listing", size_name="items", measure=measure,
        title="ChatmemStore search without a query, N items in 10 namespaces, SQLite, "
              "median ms (before: every item read and sorted, as before stop 47; "
              "same process)",
        store="sqlite (10 namespaces)")


if __name__ == "__main__":
    asyncio.run(main())
