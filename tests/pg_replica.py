"""One replica of tests/test_pg_replicas.py: a process with its own chatmem Memory on
the shared PostgreSQL store, background indexing on, embedding over HTTP.

Run as ``python tests/pg_replica.py '<json>'`` with keys ``url``, ``endpoint``,
``key`` (its API key: the embedding service tells the replicas apart by it),
``name``, ``lease_s``, ``rounds`` (adds of two messages, each followed by a recall)
and ``stop_file``: once every round is done and that file exists, the replica
flushes (so it finishes whatever another replica left: a killed one's leases run
out) and exits. Without ``stop_file`` it waits after its adds until it is killed.

Each acknowledged add prints ``ack <id> <content>`` (flushed at once, so a killed
replica's output still lists what it acknowledged); then ``added``; ``done`` last.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys

from chatmem import Memory


def say(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


async def main(cfg: dict[str, str]) -> None:
    mem = await Memory.open(
        cfg["url"],
        embedding={"provider": "openai", "endpoint": cfg["endpoint"], "api_key": cfg["key"],
                   "model": "text-embedding-3-small"},
        indexing={"lease_s": float(cfg["lease_s"]), "batch_size": 4})
    try:
        name = cfg["name"]
        for i in range(int(cfg["rounds"])):
            got = await mem.add([{"content": f"{name} note {i}.{j} about topic {i % 7}"}
                                 for j in range(2)], session=f"room-{name}")
            for m in got:
                say(f"ack {m.id} {m.content}")
            await mem.recall(f"what did {name} say in round {i}?", session=f"room-{name}")
            await asyncio.sleep(0.02)
        say("added")
        stop = cfg.get("stop_file") or ""
        if not stop:
            await asyncio.Event().wait()  # the test kills this one
        while not os.path.exists(stop):
            await asyncio.sleep(0.05)
        await mem.flush(timeout=120)
        say("done")
    finally:
        await mem.close()


if __name__ == "__main__":
    asyncio.run(main(json.loads(sys.argv[1])))
