"""Expected answer types (issue 12): a question that asks *when* is answered by a
message that states a time (rule 9, ``search.when_boost``), one that asks *how many /
how much* by a message that states a quantity (rule 22, ``search.quantity_boost``),
one about the present by a message that says something changed (rule 25,
``search.change_boost``).
The cue and answer functions of :mod:`chatmem.recall.query` and
:mod:`chatmem.recall.rank`, then the real pipeline on a real SQLite file.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.errors import ConfigError
from chatmem.recall.query import asks_quantity, asks_when
from chatmem.recall.rank import _TIME_RE, mentions_time, states_change, states_quantity
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
def test_questions_that_do_not_ask_when(query: str) -> None:
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
def test_texts_that_state_no_time(text: str) -> None:
    assert not mentions_time(text)


def test_a_number_before_a_date_character_is_tried_from_its_first_digit_only() -> None:
    """A message holding one long run of digits cost the square of its length: the
    pattern's ``\\d+\\s*[月号日点]`` was tried at every digit of the run, each try reading
    to its end (25,000 digits took 10 s of CPU, and a message may hold 200,000). A
    match starts at a run's first digit only, which finds the same times."""
    text = "1" * 1000 + "月"
    assert _TIME_RE.match(text, 0)
    assert not any(_TIME_RE.match(text, i) for i in range(1, 1000))
    assert mentions_time("x" + "2" * 500 + " 号") and mentions_time("第" + "3" * 500 + "点")
    assert not mentions_time("9" * 5000) and not mentions_time("8" * 500 + " x 月")


def test_the_plan_says_whether_it_asks_when() -> None:
    kw: dict[str, Any] = {"scope": "all", "clamped": False, "visibility": None, "where": None}
    assert plan(RecallRequest.of("when is the party"), Config(), **kw).asks_when
    assert not plan(RecallRequest.of("where is the party"), Config(), **kw).asks_when


@pytest.mark.parametrize("query", [
    "how many eggs did the clinic retrieve", "how much is my share of the entry in the end",
    "how far off my target was I", "which trainers did I buy and what did they cost",
    "what was the price of the van", "How often do I do nights these days?",
    "小王那天要接几个人", "班费加起来有多少", "医生而家话个结节隔几耐睇一次",
    "我而家个档口每个月租金几多", "单程多远", "那套房子多大",
])
def test_questions_that_ask_how_many(query: str) -> None:
    assert asks_quantity(query)


@pytest.mark.parametrize("query", [
    "what did you suggest for my sister's bed", "where is our flat", "", "谁要带投影仪",
    # 几 before no measure word names a time: "these few days", "those months"
    "这几天睡得怎么样", "那几个礼拜你让我咋办",
    # a "when" question asks for a time, not a quantity: one expected answer
    "how long ago did we move", "多久能拿到驾照",
    "how many days before the wedding is the party, when is it",
])
def test_questions_that_do_not_ask_how_many(query: str) -> None:
    assert not asks_quantity(query)


@pytest.mark.parametrize("text", [
    "sore. nine", "cushioned Brooks in a hideous orange, £70 in the sale", "2:26:40",
    "£300 ÷ 6 = £50 each", "half a day", "twice a week", "我接两个人", "一个月三千五",
    "每人交200", "报了一次",
])
def test_texts_that_state_a_quantity(text: str) -> None:
    assert states_quantity(text)


@pytest.mark.parametrize("text", [
    "ok thanks", "Anjali has moved me on to single leg raises off a step", "我们一起去吧",
    "一直下雨", "someone said so", "我接完阿强再去厦门北接你，来得及",
])
def test_texts_that_state_no_quantity(text: str) -> None:
    assert not states_quantity(text)


def test_the_plan_says_whether_it_asks_how_many() -> None:
    kw: dict[str, Any] = {"scope": "all", "clamped": False, "visibility": None, "where": None}
    assert plan(RecallRequest.of("how many eggs were there"), Config(), **kw).asks_quantity
    assert not plan(RecallRequest.of("where is the party"), Config(), **kw).asks_quantity
    # one expected answer: a question that asks when is about a time
    assert not plan(RecallRequest.of("when is the party"), Config(), **kw).asks_quantity
    assert not plan(RecallRequest.of("how long ago was the party"), Config(),
                    **kw).asks_quantity


@pytest.mark.parametrize("field", ["when_boost", "quantity_boost", "change_boost"])
@pytest.mark.parametrize("bad", [0.9, 0, 11, "x", None])
def test_a_bad_boost_names_the_field(field: str, bad: object) -> None:
    with pytest.raises(ConfigError, match=field):
        Config.load({"search": {field: bad}})


@pytest.mark.parametrize(("field", "matched", "answer", "ask"), [
    ("when_boost", "the housewarming party will be great fun", "party is on Friday 9 October",
     "when is the housewarming party"),
    ("quantity_boost", "the egg collection at the clinic went fine", "they retrieved nine",
     "how many eggs did the clinic collection get"),
])
async def test_the_message_of_the_asked_type_answers_the_question(
        tmp_path: Path, field: str, matched: str, answer: str, ask: str) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/w.db", embedder=embedder())
    try:
        await mem.add([
            Message(session_id="a", content=matched, ts=T0),
            Message(session_id="a", content=answer, ts=T0 + 60_000),
            *(Message(session_id=f"n{i}", content=t, ts=T0 + (1 + i) * DAY)
              for i, t in enumerate(UNRELATED))])
        await mem.flush()
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.content == answer
        assert hits[0].boost == pytest.approx(2.0)
        # without the boost the closer wording wins
        mem.config = Config.load({"search": {field: 1.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.content == matched
    finally:
        await mem.close()


@pytest.mark.parametrize("text", [
    "Change of plan. Graham says all the men are wearing kilts", "we switched to the 7am class",
    "moved into the Bedminster flat yesterday", "went for the blue one instead",
    "she no longer works weekends", "the match got rescheduled", "they cancelled the booking",
    "改目标了，换成南京大学", "集合点改到奥体中心东门", "以后不再去那家了", "会议推迟到周五",
    "下个月搬去杭州", "聚餐取消了", "集合點改到東門", "換咗工",
])
def test_texts_that_state_a_change(text: str) -> None:
    assert states_change(text)


@pytest.mark.parametrize("text", [
    # a state, however current it sounds, is not a change: the older statement of a
    # changed fact says "now" as often as the newer one (the words chosen on dev)
    "I now live in Chengdu", "我现在住在成都高新区", "I decided to get the gym card",
    "我决定办卡了", "the kitchen quote came in at £18,500", "ok thanks", "",
])
def test_texts_that_state_no_change(text: str) -> None:
    assert not states_change(text)


async def test_on_a_question_about_the_present_the_change_answers(tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/w.db", embedder=embedder())
    said = "the running club meets at the riverside track on saturdays"
    changed = "running club switched to the park gates"
    ask = "where does the running club meet on saturdays now"
    try:
        await mem.add([
            Message(session_id="a", content=changed, ts=T0),
            Message(session_id="b", content=said, ts=T0 + DAY),
            *(Message(session_id=f"n{i}", content=t, ts=T0 + (2 + i) * DAY)
              for i, t in enumerate(UNRELATED))])
        await mem.flush()
        mem.config = Config.load({"search": {"change_boost": 10.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.content == changed
        assert hits[0].boost == pytest.approx(10.0)
        # off, the closer wording (and the newer message) wins
        mem.config = Config.load({"search": {"change_boost": 1.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.content == said
        # a question that is not about the present is not ranked by it
        mem.config = Config.load({"search": {"change_boost": 10.0}})
        hits = (await mem.recall("where does the running club meet on saturdays", top_k=2,
                                 scope="all", window=0)).hits
        assert hits[0].message.content == said
        assert hits[0].boost == pytest.approx(1.0)
    finally:
        await mem.close()
