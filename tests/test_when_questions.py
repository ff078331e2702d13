"""A question that asks *when* is answered by a message that states a time (issue 12,
``search.when_boost``): :func:`chatmem.recall.query.asks_when` and
:func:`chatmem.recall.rank.mentions_time`, then the real pipeline on a real SQLite file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.errors import ConfigError
from chatmem.recall.query import asks_when
from chatmem.recall.rank import mentions_time
from chatmem.recall.request import RecallRequest, plan
from chatmem.testing import embedder
from world import UNRELATED

T0 = 1_750_000_000_000
DAY = 86_400_000


@pytest.mark.parametrize("query", [
    "When did I first go to the running group?", "what day is the housewarming now",
    "which nights did we keep the cabin for", "what time does the class start",
    "how long ago did we move", "新车是什么时候开回家的", "Q2那个活动最后期限是哪天",
    "我们几号飞日本", "几点集合", "哪个月搬家", "so when is the party", "when's my op",
    "remind me when the op was", "do you know when did I pay", "since when do I run",
])
def test_questions_that_ask_when(query: str) -> None:
    assert asks_when(query)


@pytest.mark.parametrize("query", [
    "where is our flat", "what did you suggest for my sister's bed", "whenever you like",
    "谁说要带投影仪", "那家店叫什么", "",
    # "when" as a conjunction: the question asks for advice or a reaction, not a time
    "What did you suggest when I was missing home?",
    "How did Zuzia take it when she didn't get into the county team?",
    "what was the breathing trick for when I can't fall asleep",
])
def test_questions_that_do_not(query: str) -> None:
    assert not asks_when(query)


@pytest.mark.parametrize("text", [
    "see you on the 12th", "Friday works", "booked for 14 June", "yesterday was rough",
    "at 7pm", "meet at 18:30", "moved in last week", "3 days ago", "4月13号入职",
    "周五晚上见", "星期六集合", "下周再说", "明天出发", "put 2000 down this morning",
    "it happened last night", "今儿去医院拍了片子", "报上了明个就开班", "过年没歇", "国庆没回家",
])
def test_texts_that_state_a_time(text: str) -> None:
    assert mentions_time(text)


@pytest.mark.parametrize("text", [
    "I did 5 push-ups", "the flat costs 1200", "多吃一点", "white Model Y", "ok thanks",
    "the morning routine you gave me", "考完了！！",
])
def test_texts_that_do_not(text: str) -> None:
    assert not mentions_time(text)


def test_the_plan_says_whether_it_asks_when() -> None:
    kw: dict[str, Any] = {"scope": "all", "clamped": False, "visibility": None, "where": None}
    assert plan(RecallRequest.of("when is the party"), Config(), **kw).asks_when
    assert not plan(RecallRequest.of("where is the party"), Config(), **kw).asks_when


@pytest.mark.parametrize("bad", [0.9, 0, 11, "x"])
def test_a_bad_boost_names_the_field(bad: object) -> None:
    with pytest.raises(ConfigError, match="when_boost"):
        Config.load({"search": {"when_boost": bad}})


async def test_the_message_with_the_date_answers_the_when_question(tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/w.db", embedder=embedder())
    try:
        await mem.add([
            Message(session_id="a", content="the housewarming party will be great fun",
                    ts=T0),
            Message(session_id="a", content="party is on Friday 9 October", ts=T0 + 60_000),
            *(Message(session_id=f"n{i}", content=t, ts=T0 + (1 + i) * DAY)
              for i, t in enumerate(UNRELATED))])
        await mem.flush()
        ask = "when is the housewarming party"
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.content == "party is on Friday 9 October"
        assert hits[0].boost == pytest.approx(2.0)
        # without the boost the closer wording wins
        mem.config = Config.load({"search": {"when_boost": 1.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.content.startswith("the housewarming party")
    finally:
        await mem.close()
