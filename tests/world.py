"""A realistic two-platform world for the recall-semantics tests.

* ``qq`` (an IM platform): group 「Hiking club」 (g-hike), group 「Book club」 (g-book),
  private chats of Alice and Bob, and a sub-task session spawned from the hiking group.
* ``webui``: the owner's web console session (no origin platform of its own).
* Five people (Alice, Bob, Carol, Dave, Erin), the assistant ("Mem"), mentions,
  notices, dividers, tool output and a system record.
"""

from __future__ import annotations

from chatmem import Memory, Message, Session
from chatmem.embedding import Embedder

DAY = 86_400_000
T0 = 1_760_000_000_000  # 2025-10-09

#: Messages about nothing the tests ask (the filler of the ranking tests).
UNRELATED = ["booked the dentist", "the boiler makes a noise", "pasta recipe please",
             "train tickets bought", "the printer is out of toner", "guitar lesson was fun"]

PEOPLE = {"alice": "Alice", "bob": "Bob", "carol": "Carol", "dave": "Dave", "erin": "Erin"}

SESSIONS = [
    Session(id="g-hike", origin_platform="qq", chat_type="group", group_id="1001",
            group_name="Hiking club", resource_id="tenant-a", metadata={"club": "hiking"}),
    Session(id="g-book", origin_platform="qq", chat_type="group", group_id="1002",
            group_name="Book club", resource_id="tenant-a", metadata={"club": "books"}),
    Session(id="p-alice", origin_platform="qq", chat_type="private", resource_id="alice"),
    Session(id="p-bob", origin_platform="qq", chat_type="private", resource_id="bob"),
    Session(id="task-1", parent_id="g-hike", chat_type="task"),
    Session(id="web-owner", chat_type="console", resource_id="owner"),
]


def say(sid: str, who: str, text: str, t: int, **kw: object) -> Message:
    return Message(session_id=sid, content=text, ts=T0 + t, speaker_id=who,
                   speaker_name=PEOPLE.get(who, who), platform=kw.pop("platform", "qq"),  # type: ignore[arg-type]
                   **kw)  # type: ignore[arg-type]


def bot(sid: str, text: str, t: int, **kw: object) -> Message:
    return Message(session_id=sid, content=text, ts=T0 + t, role="assistant",
                   speaker_id="mem", speaker_name="Mem", platform=kw.pop("platform", "qq"),  # type: ignore[arg-type]
                   **kw)  # type: ignore[arg-type]


MESSAGES = [
    say("g-hike", "alice", "Alice: the hike to Eagle Peak starts at 7am on Saturday", 0),
    bot("g-hike", "Noted: Eagle Peak hike, Saturday 7am", 1000),
    say("g-hike", "bob", "@Carol can you bring the trail map for Eagle Peak", 2000,
        mentions=("carol",)),
    Message(session_id="g-hike", content="--- earlier messages were compacted ---",
            ts=T0 + 2500, kind="divider", role="notice"),
    say("g-hike", "carol", "I will bring the trail map and extra water", 3000),
    Message(session_id="g-hike", content="[delivery report] reply delivered", ts=T0 + 3500,
            role="system"),
    say("g-hike", "dave", "my knee hurts so I may skip the hike", 4000),
    say("g-book", "erin", "next book is The Left Hand of Darkness", DAY),
    say("g-book", "alice", "I am halfway through The Left Hand of Darkness", DAY + 1000),
    bot("g-book", "Book club picked The Left Hand of Darkness", DAY + 2000),
    say("p-alice", "alice", "my passport expires in March, remind me to renew it", 2 * DAY),
    bot("p-alice", "I will remind you about the passport renewal", 2 * DAY + 1000),
    say("p-bob", "bob", "my favourite trail snack is dried mango", 2 * DAY),
    Message(session_id="task-1", content="sub-task: compile the hike packing list",
            ts=T0 + 3 * DAY, role="user", speaker_id="mem", source="orchestration"),
    bot("task-1", "packing list for Eagle Peak: map, water, headlamp", 3 * DAY + 1000),
    say("web-owner", "owner", "owner note: Eagle Peak permit number is 4471", 4 * DAY,
        platform="webui"),
    Message(session_id="web-owner", content="tool output: weather sunny", ts=T0 + 4 * DAY + 500,
            role="tool", platform="webui"),
    say("g-hike", "owner", "owner from webui: bring sunscreen to Eagle Peak", 5 * DAY,
        platform="webui"),
]


async def build_world(embedder: Embedder, **config: object) -> Memory:
    mem = await Memory.open("memory://", embedder=embedder, **config)  # type: ignore[arg-type]
    for s in SESSIONS:
        await mem.upsert_session(s)
    await mem.add(MESSAGES)
    await mem.flush(timeout=60)
    return mem
