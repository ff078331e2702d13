"""The demo conversation of seed 003: topic drift, then a question about the first topic."""

from __future__ import annotations

from .models import Message

DEMO_SESSION = "demo"
DEMO_USER = ("u-alex", "Alex")
DEMO_BOT = "Mem"

#: (user message, assistant reply), one turn a minute apart, on day 0 .. day 2.
DEMO_TURNS: list[tuple[str, str]] = [
    ("Let's talk about my work project first.", "Sure, tell me about it."),
    ("I'm working on a new website for a client.", "Nice! What kind of website?"),
    ("The deadline is in two weeks.", "Two weeks, got it. I'll keep that in mind."),
    ("Now let's switch topics. I'm also planning a vacation.", "Fun! Where are you going?"),
    ("I'll be visiting Japan next month.", "Japan is lovely that time of year."),
    ("I'll be staying in Tokyo and Kyoto.", "Great pair of cities: modern and traditional."),
    ("Let's talk about something else. I'm learning to play guitar.",
     "Cool, acoustic or electric?"),
    ("I practice for 30 minutes every day.", "Thirty minutes daily adds up quickly."),
]
DEMO_QUESTION = "Can you remind me about my work project deadline?"
#: The metadata-area record (namespace, key) marking a store as the demo's own
#: (``chatmem demo --db``): the demo writes into no other store holding anything.
DEMO_STORE_MARK = ("chatmem-demo", "store")


def demo_messages(start_ms: int) -> list[Message]:
    out = []
    for i, (user, bot) in enumerate(DEMO_TURNS):
        # spread the topics over three days, as a real conversation would be
        ts = start_ms + (i // 3) * 86_400_000 + i * 120_000
        out.append(Message(session_id=DEMO_SESSION, content=user, ts=ts, role="user",
                           speaker_id=DEMO_USER[0], speaker_name=DEMO_USER[1], platform="cli"))
        out.append(Message(session_id=DEMO_SESSION, content=bot, ts=ts + 30_000,
                           role="assistant", speaker_id="bot", speaker_name=DEMO_BOT,
                           platform="cli"))
    return out
