"""A query that names a stretch of time ("yesterday", "上周五", "at Christmas") finds the
messages sent within it (issue 12, rule 30): :func:`chatmem.recall.period.named_period`
resolves the words against the recall's ``now``; recall adds that stretch's best
matches to the pool and multiplies its messages by ``search.period_boost``."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from backends import PLACES, Place
from chatmem import Memory, Message, RecallResult, Session
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError, EmbeddingUnavailable
from chatmem.recall.period import named_period
from chatmem.testing import embedder
from providers import RecordingProvider

UTC = dt.timezone.utc
#: Wednesday 2 December 2026, 15:00 UTC
NOW = int(dt.datetime(2026, 12, 2, 15, 0, tzinfo=UTC).timestamp() * 1000)


def _span(query: str, now: int = NOW, timezone: str = "UTC") -> tuple[str, str] | None:
    period = named_period(query, now, timezone)
    if period is None:
        return None
    zone = dt.timezone.utc if timezone == "UTC" else None

    def day(ms: int) -> str:
        when = dt.datetime.fromtimestamp(ms / 1000, zone or UTC)
        return when.strftime("%Y-%m-%d") if zone else when.isoformat()
    return day(period.start), day(period.end)


@pytest.mark.parametrize("query, start, end", [
    # relative to the day of now
    ("what did I tell you yesterday?", "2026-12-01", "2026-12-02"),
    ("what did we talk about last night", "2026-12-01", "2026-12-02"),
    ("you said something this morning", "2026-12-02", "2026-12-03"),
    ("the day before yesterday", "2026-11-30", "2026-12-01"),
    ("3 days ago", "2026-11-29", "2026-11-30"),
    ("a few days ago you said", "2026-11-27", "2026-12-01"),
    ("two weeks ago", "2026-11-16", "2026-11-23"),
    ("last week", "2026-11-23", "2026-11-30"),
    ("this week", "2026-11-30", "2026-12-03"),
    ("last weekend", "2026-11-28", "2026-11-30"),
    ("last month", "2026-11-01", "2026-12-01"),
    ("what did you say on Friday", "2026-11-27", "2026-11-28"),
    ("on Wednesday", "2026-12-02", "2026-12-03"),
    ("last Wednesday", "2026-11-25", "2026-11-26"),
    # calendar words: the latest occurrence that began by today, or the year given
    ("in March", "2026-03-01", "2026-04-01"),
    ("late July", "2026-07-21", "2026-08-01"),
    ("March 12th", "2026-03-12", "2026-03-13"),
    ("on 3 October", "2026-10-03", "2026-10-04"),
    ("what did Melanie do on 20 May 2023?", "2023-05-20", "2023-05-21"),
    ("in May 2023", "2023-05-01", "2023-06-01"),
    ("at Christmas", "2025-12-24", "2025-12-27"),
    ("on Valentine's Day", "2026-02-14", "2026-02-15"),
    ("over Easter", "2026-04-03", "2026-04-07"),
    ("Thanksgiving", "2026-11-26", "2026-11-27"),
    ("昨天我跟你说的事", "2026-12-01", "2026-12-02"),
    ("尋日講過嘅嘢", "2026-12-01", "2026-12-02"),
    ("前天", "2026-11-30", "2026-12-01"),
    ("三天前", "2026-11-29", "2026-11-30"),
    ("上周五你说", "2026-11-27", "2026-11-28"),
    ("上个礼拜", "2026-11-23", "2026-11-30"),
    ("上周末", "2026-11-28", "2026-11-30"),
    ("上个月", "2026-11-01", "2026-12-01"),
    ("周五那天你说", "2026-11-27", "2026-11-28"),
    ("三月份加班打车", "2026-03-01", "2026-04-01"),
    ("一月底量的血压", "2026-01-21", "2026-02-01"),
    ("3月12号那次", "2026-03-12", "2026-03-13"),
    ("2023年5月3号", "2023-05-03", "2023-05-04"),
    ("国庆那几天", "2026-10-01", "2026-10-08"),
    ("儿童节那天", "2026-06-01", "2026-06-02"),
    # lunar holidays (lunar_python): 2026's new year is 17 February
    ("过年在家待到哪天", "2026-02-16", "2026-02-24"),
    ("除夕那天晚上", "2026-02-16", "2026-02-17"),
    ("端午", "2026-06-19", "2026-06-20"),
    ("中秋", "2026-09-25", "2026-09-26"),
    # several named: from the first start to the last end
    ("四月下旬提议五一那天", "2026-04-21", "2026-05-06"),
])
def test_named_periods(query: str, start: str, end: str) -> None:
    assert _span(query) == (start, end)


@pytest.mark.parametrize("query", [
    "where do we play on Sundays",        # recurring
    "每周五开黑", "一周一次", "下周五",      # recurring, a frequency, the future
    "开黑从周五挪走是因为哪门课", "周六长距离现在在哪集合",  # a weekly event
    "几月几号", "which day was it",         # a question for the date
    "三个月的课", "a month of lessons",     # durations
    "the study plan for january",          # a month as a topic
    "I may go", "五一班", "去年的分数线", "in 2023",
    "what did Maria do last weekend before April 10, 2023",  # more than MAX_SPAN apart
    "what's my cat called",
])
def test_words_that_name_no_period(query: str) -> None:
    assert named_period(query, NOW) is None


@pytest.mark.parametrize("query, named", [
    ("100天前我说了什么", None), ("10000000000天前", None), ("365日前", None),
    ("一百二十天前", None), ("一百零五天前", None), ("1.5天前", None),
    ("1.5 days ago", None), ("2,5 weeks ago", None),
    ("二十天前", "二十天前"), ("5天前", "5天前"), ("两三天前", "三天前"),
])
def test_days_ago_is_never_the_tail_of_a_longer_number(query: str, named: str | None
                                                       ) -> None:
    """"100天前" named "00天前" (today, and only: today's messages first), "120天前" 20
    days ago, "一百二十天前" "十天前": a number the patterns do not read (more than two
    digits, 百, a decimal) names no day, as "100 days ago" names none."""
    period = named_period(query, NOW)
    assert (period and period.words) == named


def test_days_begin_at_midnight_in_the_configured_time_zone() -> None:
    # 1 June 2026, 07:00 in Shanghai is 31 May, 23:00 UTC
    sent = int(dt.datetime(2026, 5, 31, 23, 0, tzinfo=UTC).timestamp() * 1000)
    shanghai = named_period("儿童节那天", NOW, "Asia/Shanghai")
    utc = named_period("儿童节那天", NOW, "UTC")
    assert shanghai is not None and utc is not None
    assert shanghai.holds(sent) and not utc.holds(sent)
    # "yesterday" of 1 December 01:00 in Shanghai (30 Nov, 17:00 UTC) is 30 November there
    late = int(dt.datetime(2026, 11, 30, 17, 0, tzinfo=UTC).timestamp() * 1000)
    period = named_period("yesterday", late, "Asia/Shanghai")
    assert period is not None
    assert period.start == int(dt.datetime(2026, 11, 29, 16, 0, tzinfo=UTC).timestamp() * 1000)


def test_period_boost_is_checked() -> None:
    assert Config.load({"search": {"period_boost": 2}}).search.period_boost == 2
    for bad in (0.5, "lots", None):
        with pytest.raises(ConfigError, match="period_boost"):
            Config.load({"search": {"period_boost": bad}})


DAY_MS = 86_400_000


def _at(day: int, hour: int) -> int:
    """``day`` days before 2 December 2026, at ``hour`` UTC."""
    return int(dt.datetime(2026, 12, 2, hour, tzinfo=UTC).timestamp() * 1000) - day * DAY_MS


#: a week of a companion chat, one session per day: yesterday's (day 1) says nothing
#: the question's words match, an older day's words match them better
WEEK_EN = {
    7: ["booked the dentist for next month", "Good, it's been a while."],
    6: ["the boiler makes a noise again", "Worth getting it serviced before winter."],
    5: ["I want to learn to make fresh pasta", "Start with flour and eggs, 100 g per egg."],
    4: ["train tickets to Leeds bought for the wedding", "Nice, when do you go?"],
    3: ["what did I tell you about the printer at work? out of toner again",
        "Classic printer."],
    2: ["my guitar lesson was fun, we did barre chords", "They get easier with practice."],
    1: ["my sister Anna called, she's expecting twins in May",
        "Twins! Congratulations to her."],
}
WEEK_ZH = {
    7: ["今天去看牙医了，补了一颗牙", "补完别马上吃硬的。"],
    6: ["家里热水器又响了", "入冬前找人检修一下。"],
    5: ["想学做手擀面", "面粉和水比例二比一，多揉一会儿。"],
    4: ["买好了去成都的高铁票，参加婚礼", "几号出发？"],
    3: ["公司打印机又没墨了", "打印机总是这样。"],
    2: ["吉他课挺好玩，今天练了横按", "多练几天就顺了。"],
    1: ["我姐打电话说她怀了双胞胎，五月生", "双胞胎！替她高兴。"],
}


async def _week(tmp_path: Path, week: dict[int, list[str]], config: Config | None = None
                ) -> Memory:
    mem = await Memory.open(f"sqlite:///{tmp_path}/week.db", config=config)
    await mem.add([Message(session_id=f"day{day}", content=text,
                           role="user" if i % 2 == 0 else "assistant",
                           ts=_at(day, 12) + i * 60_000)
                   for day, texts in week.items() for i, text in enumerate(texts)])
    await mem.flush()
    return mem


async def test_yesterday_comes_first(tmp_path: Path) -> None:
    """The real default model (e5 for this Chinese chat) and a real SQLite file: what
    the user said yesterday is the first hit, and its reply the second; with the rule
    off (``period_boost`` 1) a day whose words match better comes first."""
    mem = await _week(tmp_path, WEEK_ZH)
    try:
        question = "你还记得我昨天跟你说了什么吗"
        hits = (await mem.recall(question, top_k=5, scope="all", window=0,
                                 now=_at(0, 15))).hits
        assert [h.message.content for h in hits[:2]] == WEEK_ZH[1]
        mem.config = Config.load({"search": {"period_boost": 1}})
        hits = (await mem.recall(question, top_k=5, scope="all", window=0,
                                 now=_at(0, 15))).hits
        assert hits[0].message.content not in WEEK_ZH[1]
    finally:
        await mem.close()


async def test_the_result_says_which_stretch_it_read(tmp_path: Path) -> None:
    """``RecallResult.period`` (and its JSON, which the HTTP API and ``chatmem recall
    --json`` print) says which day a relative word meant, in the configured zone."""
    mem = await Memory.open(f"sqlite:///{tmp_path}/r.db", embedder=embedder(),
                            config=Config.load({"timezone": "Asia/Shanghai"}))
    try:
        await mem.add([Message(session_id="s", content="hello", ts=_at(3, 12))])
        await mem.flush()
        result = await mem.recall("what did I tell you yesterday?", scope="all",
                                  now=_at(0, 15))
        assert result.period is not None and result.period.only
        # 2 December 15:00 UTC is 23:00 in Shanghai: yesterday there is 1 December,
        # from 30 November 16:00 UTC
        assert result.period.start == int(
            dt.datetime(2026, 11, 30, 16, tzinfo=UTC).timestamp() * 1000)
        assert result.to_dict()["period"] == {
            "start": result.period.start, "end": result.period.start + DAY_MS,
            "words": "yesterday", "only": True}
        plain = await mem.recall("hello", scope="all", now=_at(0, 15))
        assert plain.period is None and plain.to_dict()["period"] is None
    finally:
        await mem.close()


async def test_only_the_named_days_messages_are_boosted(tmp_path: Path) -> None:
    """The real default model (MiniLM for this English chat): yesterday's messages score
    ``period_boost`` times what they score with the rule off, every other message the
    same, and what the user said yesterday comes first."""
    mem = await _week(tmp_path, WEEK_EN)
    try:
        question = "what did I tell you yesterday?"

        async def scores(boost: float) -> dict[str, float]:
            mem.config = Config.load({"search": {"period_boost": boost}})
            hits = (await mem.recall(question, top_k=20, scope="all", window=0,
                                     now=_at(0, 15))).hits
            return {h.message.content: h.score for h in hits}

        on, off = await scores(1.5), await scores(1.0)
        assert next(iter(on)) == WEEK_EN[1][0]
        assert on.keys() == off.keys() and len(on) == sum(map(len, WEEK_EN.values()))
        for text, score in on.items():
            ratio = 1.5 if text in WEEK_EN[1] else 1.0
            assert score == pytest.approx(off[text] * ratio), text
    finally:
        await mem.close()


def test_any_text_at_any_now_names_a_period_or_none() -> None:
    """Every query is a user's text: the words and the "now" at either end of the range
    ``check_ts`` allows, in time zones either side of UTC, never raise (the day after
    31 December 9999 in Kiritimati is beyond the calendar: no period)."""
    import random

    from chatmem.models import MAX_TS, MIN_TS

    rng = random.Random(12)
    words = ["0", "7", "31", "2023", " ", "年", "月", "号", "日", "周", "上", "个", "这",
             "前", "天", "八", "七", "十", "两", "初", "底", "旬", "过年", "中秋", "ago",
             "days", "weeks", "on", "the", "of", "in", "May", "March", "Feb", "early",
             "late", "last", "Friday", "Christmas", "Easter", ","]
    nows = [MIN_TS, MIN_TS + 40 * DAY_MS, MAX_TS, MAX_TS - 3 * DAY_MS, NOW]
    for _ in range(2000):
        text = "".join(rng.choice(words) for _ in range(rng.randint(1, 40)))
        now = rng.choice(nows)
        zone = rng.choice(["UTC", "Pacific/Kiritimati", "Etc/GMT+12", "Asia/Shanghai"])
        period = named_period(text, now, zone)
        assert period is None or period.start < period.end
    assert named_period("yesterday", MAX_TS, "Pacific/Kiritimati") is None
    assert named_period("八七月", NOW) is None  # not a month number


@pytest.mark.parametrize("query, only", [
    ("what did I tell you yesterday?", True),
    ("what did we talk about last week", True),
    ("do you remember what I said on Friday?", True),
    ("你还记得我昨天跟你说了什么吗", True),
    ("昨天的事你还记得吗", True),
    ("国庆那几天我是怎么过的", True),
    ("尋日我同你講咗乜", True),
    ("what did the user say yesterday?", True),  # how a model calls memory_recall
    ("用户昨天说了什么", True),
    ("what did the user say about the roof yesterday?", False),
    ("what did the doctor say yesterday", False),
    ("what did I say about the trip yesterday", False),
    ("儿童节那天睿睿表现咋样", False),
    ("三月份晚上加班打车一共花了多少钱", False),
    ("What did I cook on Valentine's Day?", False),
])
def test_a_question_about_nothing_but_a_day(query: str, only: bool) -> None:
    period = named_period(query, NOW)
    assert period is not None and period.only is only


@pytest.fixture(params=sorted(PLACES))
async def place(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Place]:
    async with PLACES[request.param](tmp_path) as p:
        yield p


#: 38 days of notes whose words match "what did I tell you yesterday?", around
#: yesterday's two messages, which match none of them
FILLER = {day: [f"note {day}-{i}: {text}" for i, text in enumerate(
    ["what did I tell you about the plan", "tell me what you said", "I told you so",
     "what did you say?", "you told me yesterday"])] for day in range(2, 40)}
YESTERDAY = ["the roof guy came, he quoted 900 for the gutters",
             "and Sam starts nursery on Monday"]
#: the caller's filter of the tests below: "elsewhere" (someone else's) stays out
MINE = {"owner": "me"}


async def _long_history(mem: Memory) -> None:
    history = {**FILLER, 1: YESTERDAY}
    for day in history:
        await mem.upsert_session(Session(id=f"day{day}", metadata={"owner": "me"}))
    await mem.upsert_session(Session(id="elsewhere", metadata={"owner": "someone"}))
    await mem.add([Message(session_id=f"day{day}", content=text,
                           ts=_at(day, 12) + i * 60_000)
                   for day, texts in history.items() for i, text in enumerate(texts)])
    await mem.add([Message(session_id="elsewhere", content="a stranger's secret",
                           ts=_at(1, 13))])
    await mem.flush()


async def _yesterday(mem: Memory, **search: object) -> RecallResult:
    mem.config = Config.load({"search": {"period_boost": 1.5}, **search})
    return await mem.recall("what did I tell you yesterday?", top_k=5, scope="all",
                            window=0, now=_at(0, 15), filter=MINE)


async def test_a_day_asked_about_alone_comes_first_in_a_long_history(place: Place) -> None:
    """"What did I tell you yesterday?" names only a day: its messages come first even
    where other days match the question's words better, and even when the store holds
    far more messages than the first candidate pool (a hash embedder: the words decide).
    Every backend (the day's own search filters on ``ts`` under the caller's filter:
    a message of that day in a session the filter leaves out stays out)."""
    mem = await Memory.open(place.url, vector=place.vector, embedder=embedder())
    try:
        await _long_history(mem)
        found = [h.message.content for h in (await _yesterday(mem)).hits]
        assert set(found[:2]) == set(YESTERDAY) and "a stranger's secret" not in found
        mem.config = Config.load({"search": {"period_boost": 1.0}})
        off = await mem.recall("what did I tell you yesterday?", top_k=5, scope="all",
                               window=0, now=_at(0, 15), filter=MINE)
        assert not {h.message.content for h in off.hits} & set(YESTERDAY)
    finally:
        await mem.close()


@pytest.mark.parametrize("ranked_by", ["hybrid.mode lexical", "the provider down"])
async def test_a_day_asked_about_alone_with_full_text_alone(place: Place,
                                                            ranked_by: str) -> None:
    """Ranked by full text alone (configured, or the fallback while the embedding
    provider is down), no search finds yesterday's messages: they share no word with
    the question, and a full-text search returns only what matches. They are read from
    the store instead (the latest first, under the caller's filter) and come first;
    before, this recall returned other days' notes or nothing at all."""
    prov = RecordingProvider()
    mem = await Memory.open(place.url, vector=place.vector, embedder=Embedder(prov))
    try:
        await _long_history(mem)
        if ranked_by == "the provider down":
            prov.fail_with(EmbeddingUnavailable("connection refused", provider="test",
                                                retry_decision="defer"))
            result = await _yesterday(mem)
            assert result.degraded
        else:
            result = await _yesterday(mem, hybrid={"mode": "lexical"})
        found = [h.message.content for h in result.hits]
        assert found[:2] == YESTERDAY[::-1] and "a stranger's secret" not in found
        assert len(found) == 5  # then the best matches of the words, as before
    finally:
        await mem.close()


async def test_a_day_alone_in_a_store_of_three_messages(tmp_path: Path) -> None:
    """Relevance is scaled over the candidates, so in a tiny store the day's message can
    be the weakest match of all (relevance 0, which no factor lifts); a question about
    nothing but that day still gets it first."""
    mem = await Memory.open(f"sqlite:///{tmp_path}/three.db")
    try:
        await mem.add([Message(session_id="s", content=text, ts=_at(day, 12))
                       for day, text in [(5, "we planned the garden for spring"),
                                         (3, "the plumber fixed the sink"),
                                         (1, "my sister called about her wedding")]])
        await mem.flush()
        firsts = {}
        for boost in (1.5, 1.0):
            mem.config = Config.load({"search": {"period_boost": boost}})
            hits = (await mem.recall("what did I tell you yesterday?", top_k=3,
                                     scope="all", window=0, now=_at(0, 15))).hits
            firsts[boost] = hits[0].message.content
        assert firsts == {1.5: "my sister called about her wedding",
                          1.0: "the plumber fixed the sink"}
    finally:
        await mem.close()
