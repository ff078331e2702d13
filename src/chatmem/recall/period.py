"""The stretch of time a query names ("yesterday", "last week", "in March", "at
Christmas", "昨天", "上周五", "三月份", "国庆", "过年"), as milliseconds (issue 12).

A user asks about a day as often as about a topic: "what did I tell you yesterday",
"你还记得我昨天说的事吗", "国庆那几天我是怎么过的". The words that name the day match
nothing by meaning or by word, so without this a history's messages of that day rank
no higher than any other. :func:`named_period` resolves such words against the recall's
``now`` in the configured time zone (``Config.timezone``; days begin at its midnight),
and recall multiplies the candidates sent within that stretch by
``search.period_boost`` (:func:`chatmem.recall.rank.rerank`).

A boost, not a filter: a question often names the day of what it asks about, not the
day it was said ("五一去云南坐的那趟飞机是几号" — booked in April; "what was the study
plan for January" — made in December). On the dev splits of ``bench/quality.py`` a
boost of 1.25–2 found two more questions and lost none; 3 and above lost two of those
that name such a day. Only a question that names nothing *but* the stretch
(:attr:`Period.only`, :func:`asks_only_when`: "what did I tell you yesterday?") gets
that stretch's messages first, searched within it (``Memory._with_period``).

Resolution, always into the past (a memory holds what was said):

* relative words from the day of ``now``: today, yesterday, the day before, *n* days
  ago, this / last week (Monday to Sunday), last weekend, this / last month; a weekday
  ("on Friday", "周五那天") is its latest occurrence up to today, "last Friday" /
  "上周五" the one in the week before this (a bare "周五" is as often a weekly one:
  "开黑从周五挪走", "周六长距离现在在哪集合");
* a month ("in March", "三月份", "3月", "三月初 / 上旬 / 中旬 / 下旬 / 底", "early / late
  March"), a date ("March 12", "12 March", "3月12号") and a holiday (Christmas, New
  Year, Valentine's Day, Halloween, Easter, 元旦, 情人节, 五一, 儿童节, 国庆, 圣诞; the
  lunar ones, 春节 / 过年 / 除夕 / 元宵 / 端午 / 七夕 / 中秋, through ``lunar_python``) is
  its latest occurrence that began on or before today, or the one of the year given
  ("May 2023", "20 May, 2023", "2023年5月").

Several named periods (“四月和五月”) give the stretch from the first one's start to the
last one's end, when it is at most :data:`MAX_SPAN` long. Words that name a recurring
day ("on Sundays", "每周五", "the Tuesday games"), a duration ("三个月", "a month") or a
question ("几月几号", "which day") name none. The patterns are hand-written: a general
date parser (``dateparser``) reads a date *string*, not the one date phrase inside a
sentence, and would be a large dependency for these few dozen words.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from zoneinfo import ZoneInfo

from ..text import (
    CJK_CHAR_RE,
    CJK_QUERY_STOPCHARS,
    CJK_QUERY_STOPWORDS,
    NON_CJK_WORD_RE,
    STOPWORDS,
)
from .hanzi import fold_traditional

__all__ = ["MAX_SPAN", "Period", "asks_only_when", "named_period"]

Day = dt.date


#: The longest stretch several named periods may span together ("四月和五月", "late
#: April to early May"); words that name times further apart ("the weekend before
#: 10 April 2023", read as last weekend and 10 April) name no one period.
MAX_SPAN = dt.timedelta(days=92)


@dataclass(frozen=True)
class Period:
    """``start`` ≤ ts < ``end`` (ms since the epoch); ``words``: what named it."""

    start: int
    end: int
    words: str
    #: The query names nothing but this stretch ("what did I tell you yesterday?",
    #: "你还记得我昨天跟你说了什么吗", "what did we talk about last week"): no topic is
    #: left once the time words and the words that ask what was said are taken out
    #: (:func:`asks_only_when`). Its messages then come before every other one.
    only: bool = False

    def holds(self, ts: int | None) -> bool:
        return ts is not None and self.start <= ts < self.end

    def to_dict(self) -> dict[str, object]:
        return {"start": self.start, "end": self.end, "words": self.words,
                "only": self.only}


# --- numbers -------------------------------------------------------------------------

_ZH_DIGITS = {"〇": 0, "零": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}
_EN_NUMBERS = {"a": 1, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6,
               "seven": 7, "eight": 8, "nine": 9, "ten": 10, "couple of": 2,
               "few": 3}
_ZH_NUM = r"(?:\d{1,2}|[一二两三四五六七八九]?十[一二三四五六七八九]?|[一二两三四五六七八九])"


def _zh_int(text: str) -> int:
    """"3", "十二", "二十一", "两" → int (only what :data:`_ZH_NUM` matches)."""
    if text.isdigit():
        return int(text)
    if "十" not in text:
        return _ZH_DIGITS[text]
    tens, _, ones = text.partition("十")
    return (_ZH_DIGITS[tens] if tens else 1) * 10 + (_ZH_DIGITS[ones] if ones else 0)


# --- calendar helpers ---------------------------------------------------------------

def _month_span(year: int, month: int) -> tuple[Day, Day]:
    start = dt.date(year, month, 1)
    end = dt.date(year + (month == 12), month % 12 + 1, 1)
    return start, end


def _latest(today: Day, span_of_year: Callable[[int], tuple[Day, Day] | None]
            ) -> tuple[Day, Day] | None:
    """The latest occurrence of a yearly span that began on or before ``today``."""
    for year in (today.year, today.year - 1):
        span = span_of_year(year)
        if span is not None and span[0] <= today:
            return span
    return None


def _fixed(month: int, day: int, days: int = 1) -> Callable[[int], tuple[Day, Day] | None]:
    def span(year: int) -> tuple[Day, Day] | None:
        try:
            start = dt.date(year, month, day)
        except ValueError:  # 30 February
            return None
        return start, start + dt.timedelta(days=days)
    return span


def _lunar(month: int, day: int, days: int = 1, before: int = 0
           ) -> Callable[[int], tuple[Day, Day] | None]:
    """A day of the Chinese calendar's ``year`` (its new year falls in January or
    February of the same Gregorian year), ``before`` days earlier, lasting ``days``."""
    def span(year: int) -> tuple[Day, Day] | None:
        from lunar_python import Lunar  # only when a lunar holiday is named

        solar = Lunar.fromYmd(year, month, day).getSolar()
        start = dt.date(solar.getYear(), solar.getMonth(), solar.getDay()) \
            - dt.timedelta(days=before)
        return start, start + dt.timedelta(days=days)
    return span


def _easter(year: int) -> tuple[Day, Day]:
    """Good Friday to Easter Monday (the Gregorian computus)."""
    a, b, c = year % 19, year // 100, year % 100
    d, e = divmod(b, 4)
    g = (8 * b + 13) // 25
    h = (19 * a + b - d - g + 15) % 30
    i, k = divmod(c, 4)
    l_ = (32 + 2 * e + 2 * i - h - k) % 7
    m = (a + 11 * h + 22 * l_) // 451
    month, day = divmod(h + l_ - 7 * m + 114, 31)
    sunday = dt.date(year, month, day + 1)
    return sunday - dt.timedelta(days=2), sunday + dt.timedelta(days=2)


def _thanksgiving(year: int) -> tuple[Day, Day]:
    first = dt.date(year, 11, 1)
    thursday = first + dt.timedelta(days=(3 - first.weekday()) % 7 + 21)
    return thursday, thursday + dt.timedelta(days=1)


# --- the vocabulary -----------------------------------------------------------------

_MONTHS_EN = ("january", "february", "march", "april", "may", "june", "july", "august",
              "september", "october", "november", "december")
_MONTH_EN = r"(?P<month>" + "|".join(_MONTHS_EN) + "|" \
    + "|".join(m[:3] for m in _MONTHS_EN if m != "may") + r"|sept)\b"
_WEEKDAYS_EN = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday",
                "sunday")
_WEEKDAYS_ZH = {"一": 0, "二": 1, "三": 2, "四": 3, "五": 4, "六": 5, "日": 6, "天": 6,
                "末": 5}

_HOLIDAYS_EN: tuple[tuple[str, Callable[[int], tuple[Day, Day] | None]], ...] = (
    (r"christmas\s+eve", _fixed(12, 24)),
    (r"boxing\s+day", _fixed(12, 26)),
    (r"(?:christmas|xmas)(?:\s+day)?", _fixed(12, 24, 3)),
    (r"new\s+year'?s\s+eve", _fixed(12, 31)),
    (r"new\s+year'?s(?:\s+day)?", _fixed(1, 1)),
    (r"new\s+year", _fixed(12, 31, 2)),
    (r"valentine'?s(?:\s+day)?", _fixed(2, 14)),
    (r"halloween", _fixed(10, 31)),
    (r"bonfire\s+night|guy\s+fawkes", _fixed(11, 5)),
    (r"easter(?:\s+(?:weekend|sunday|monday))?", _easter),
    (r"thanksgiving", _thanksgiving),
)
_HOLIDAYS_ZH: tuple[tuple[str, Callable[[int], tuple[Day, Day] | None]], ...] = (
    ("元旦", _fixed(1, 1)),
    ("情人节", _fixed(2, 14)),
    ("(?<![\\d一二三四五六七八九十])(?:五一|劳动节)(?![\\d一二三四五六七八九十班])",
     _fixed(5, 1, 5)),
    ("儿童节|(?<![\\d一二三四五六七八九十])六一(?![\\d一二三四五六七八九十班])",
     _fixed(6, 1)),
    ("国庆", _fixed(10, 1, 7)),
    ("平安夜", _fixed(12, 24)),
    ("圣诞", _fixed(12, 24, 3)),
    ("清明", _fixed(4, 4, 3)),
    ("除夕|年三十|大年夜", _lunar(1, 1, 1, before=1)),
    ("春节|过年|大年初[一二三四五六七八九十]|正月初[一二三四五六七八九十]",
     _lunar(1, 1, 8, before=1)),
    ("元宵", _lunar(1, 15)),
    ("端午", _lunar(5, 5)),
    ("七夕", _lunar(7, 7)),
    ("中秋", _lunar(8, 15)),
)


def _compile(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


_EN = r"(?<![\w'])"
_DAY_WORDS = _compile(
    _EN + r"(?:(?P<d0>today|tonight|this\s+(?:morning|afternoon|evening)|earlier\s+on)"
    r"|(?P<d2>the\s+day\s+before\s+yesterday)"
    r"|(?P<d1>yesterday|last\s+night)"
    r"|(?<!\d[.,])(?P<ago>\d{1,2}|a|one|two|three|four|five|six|seven|eight|nine|ten"
    r"|a\s+couple\s+of"
    r"|a\s+few)\s+(?P<unit>days?|weeks?)\s+ago"
    r"|(?P<week>(?:this|last|past)\s+week)(?!\w|\s+(?:or|and)\b)"
    r"|(?P<weekend>last\s+weekend)"
    r"|(?P<monthrel>(?:this|last)\s+month)"
    r"|(?P<last>last\s+|on\s+)(?P<weekday>" + "|".join(_WEEKDAYS_EN) + r")(?![\w'])"
    r")")
_DATE_EN = _compile(
    _EN + r"(?:(?P<part>early|mid|late|the\s+(?:start|beginning|middle|end)\s+of)[\s-]+"
    + _MONTH_EN.replace("month", "pmonth")
    + r"|(?:on\s+)?(?:the\s+)?(?P<dday>\d{1,2})(?:st|nd|rd|th)?\s+(?:of\s+)?"
    + _MONTH_EN.replace("month", "dmonth")
    + r"|" + _MONTH_EN.replace("month", "mmonth") + r"\s+(?:the\s+)?(?P<mday>\d{1,2})"
    r"(?:st|nd|rd|th)?(?!\d)"
    r"|(?:in|during|over|back\s+in|since|by)\s+" + _MONTH_EN.replace("month", "imonth")
    + r")(?:,?\s+(?P<year>(?:19|20)\d\d)(?!\d))?")
_HOLIDAY_EN = _compile(
    _EN + r"(?:" + "|".join(f"(?P<h{i}>{p})" for i, (p, _) in enumerate(_HOLIDAYS_EN))
    + r")(?![\w])")

_DAY_ZH = re.compile(
    r"(?P<d0>今天|今日|今儿|今早|今晚|今朝|今夜)"
    r"|(?P<d3>大前天|大前日)"
    r"|(?P<d2>前天|前日|前儿)"
    r"|(?P<d1>昨天|昨日|昨儿|昨晚|昨夜|琴日|寻日|尋日|琴晚)"
    # not the tail of a longer number: "100天前" is not "00天前" (today), "一百二十天前" not
    # "二十天前", "1.5天前" not "5天前" ("三四天前", a guess, stays "四天前")
    r"|(?<![\d〇零百千万亿])(?<!\d[.,])(?!十(?<=[一二两三四五六七八九]十))"
    r"(?P<ago>" + _ZH_NUM + r"|几)(?:天|日)(?:之)?前"
    r"|(?P<lastweekday>上(?:个)?(?:周|星期|礼拜|禮拜))(?P<lwd>[一二三四五六日天末])"
    r"|(?P<lastweek>上(?:个)?(?:周|星期|礼拜|禮拜))"
    r"|(?P<thisweek>这(?:个)?(?:周|星期|礼拜)|本周)(?![一二三四五六日天末])"
    r"|(?P<lastmonth>上(?:个)?月)(?![\d一二三四五六七八九十初中底末旬])"
    r"|(?P<thismonth>这(?:个)?月|本月)(?![\d一二三四五六七八九十初中底末旬])"
    r"|(?<![每逢个下这几])(?:周|星期|礼拜)(?P<weekday>[一二三四五六日天])"
    r"(?=那天|那次|那晚|那会)")
_DATE_ZH = re.compile(
    r"(?<![\d一二三四五六七八九十几个每])(?:(?P<year>(?:19|20)\d\d)年)?"
    r"(?P<month>" + _ZH_NUM + r")月(?:份)?"
    r"(?:(?P<mday>" + _ZH_NUM + r")(?:号|日)"
    r"|(?P<part>初|上旬|中旬|下旬|底|末|中))?")
_HOLIDAY_ZH = re.compile("|".join(f"(?P<h{i}>{p})" for i, (p, _) in enumerate(_HOLIDAYS_ZH)))


def _month_number(name: str) -> int:
    name = name.lower()
    return next(i for i, m in enumerate(_MONTHS_EN, 1)
                if m == name or m[:3] == name or (name == "sept" and i == 9))


def _month_part(year: int, month: int, part: str | None) -> tuple[Day, Day]:
    start, end = _month_span(year, month)
    part = (part or "").lower()
    if part in ("early", "初", "上旬") or "start" in part or "beginning" in part:
        return start, start + dt.timedelta(days=10)
    if part in ("mid", "中", "中旬") or "middle" in part:
        return start + dt.timedelta(days=10), start + dt.timedelta(days=20)
    if part in ("late", "底", "末", "下旬") or "end" in part:
        return start + dt.timedelta(days=20), end
    return start, end


def _in_month(today: Day, month: int, part: str | None = None, year: str | None = None
              ) -> tuple[Day, Day] | None:
    if not 1 <= month <= 12:
        return None
    if year:
        return _month_part(int(year), month, part)
    return _latest(today, lambda y: _month_part(y, month, part))


def _on_date(today: Day, month: int, day: int, year: str | None = None
             ) -> tuple[Day, Day] | None:
    if not 1 <= month <= 12:
        return None
    return _fixed(month, day)(int(year)) if year else _latest(today, _fixed(month, day))


def _week_start(day: Day) -> Day:
    return day - dt.timedelta(days=day.weekday())


def _weekday(today: Day, weekday: int, last_week: bool) -> tuple[Day, Day]:
    if last_week:
        day = _week_start(today) - dt.timedelta(days=7 - weekday)
    else:
        day = today - dt.timedelta(days=(today.weekday() - weekday) % 7)
    return day, day + dt.timedelta(days=1)


def _days_ago(today: Day, n: int) -> tuple[Day, Day]:
    day = today - dt.timedelta(days=n)
    return day, day + dt.timedelta(days=1)


def _days_back(groups: dict[str, str | None]) -> int | None:
    """How many days back a day word of :data:`_DAY_WORDS` or :data:`_DAY_ZH` (groups
    ``d0`` today … ``d3``) names, or None."""
    return next((n for n in range(4) if groups.get(f"d{n}")), None)


def _this_week(today: Day) -> tuple[Day, Day]:
    return _week_start(today), today + dt.timedelta(days=1)


def _last_week(today: Day) -> tuple[Day, Day]:
    start = _week_start(today) - dt.timedelta(days=7)
    return start, start + dt.timedelta(days=7)


def _this_month(today: Day) -> tuple[Day, Day]:
    return today.replace(day=1), today + dt.timedelta(days=1)


def _last_month(today: Day) -> tuple[Day, Day]:
    first = today.replace(day=1)
    return (first - dt.timedelta(days=1)).replace(day=1), first


def _last_weekend(today: Day) -> tuple[Day, Day]:
    saturday = _week_start(today) - dt.timedelta(days=2)
    if today.weekday() == 6:  # on a Sunday "the weekend" is the one under way
        saturday = today - dt.timedelta(days=1)
    return saturday, saturday + dt.timedelta(days=2)


def _en_spans(text: str, today: Day) -> Iterator[tuple[tuple[Day, Day] | None, str]]:
    tomorrow = today + dt.timedelta(days=1)
    for m in _DAY_WORDS.finditer(text):
        g = m.groupdict()
        if (back := _days_back(g)) is not None:
            yield _days_ago(today, back), m.group()
        elif g["ago"]:
            ago = " ".join(g["ago"].lower().split())
            vague = ago in ("a couple of", "a few")
            n = int(ago) if ago.isdigit() else _EN_NUMBERS[ago.removeprefix("a ")] \
                if vague else _EN_NUMBERS[ago]
            if g["unit"].lower().startswith("week"):
                start = _week_start(today) - dt.timedelta(days=7 * n)
                yield (start, start + dt.timedelta(days=7)), m.group()
            elif vague:  # "a few days ago": two days either side of three
                yield (today - dt.timedelta(days=n + 2),
                       today - dt.timedelta(days=max(n - 2, 0))), m.group()
            else:
                yield _days_ago(today, n), m.group()
        elif g["week"]:
            kind = g["week"].lower().split()[0]
            yield (_this_week(today) if kind == "this" else _last_week(today)
                   if kind == "last" else (today - dt.timedelta(days=6), tomorrow)), \
                m.group()
        elif g["weekend"]:
            yield _last_weekend(today), m.group()
        elif g["monthrel"]:
            last = g["monthrel"].lower().startswith("last")
            yield (_last_month(today) if last else _this_month(today)), m.group()
        elif g["weekday"]:
            wd = _WEEKDAYS_EN.index(g["weekday"].lower())
            yield _weekday(today, wd, g["last"].lower().startswith("last")), m.group()
    for m in _DATE_EN.finditer(text):
        g = m.groupdict()
        year = g["year"]
        if g["pmonth"]:
            yield _in_month(today, _month_number(g["pmonth"]), g["part"], year), m.group()
        elif g["dmonth"]:
            yield _on_date(today, _month_number(g["dmonth"]), int(g["dday"]), year), \
                m.group()
        elif g["mmonth"]:
            yield _on_date(today, _month_number(g["mmonth"]), int(g["mday"]), year), \
                m.group()
        elif g["imonth"]:
            yield _in_month(today, _month_number(g["imonth"]), year=year), m.group()
    for m in _HOLIDAY_EN.finditer(text):
        assert m.lastgroup is not None  # the one group hN that matched
        i = int(m.lastgroup[1:])
        yield _latest(today, _HOLIDAYS_EN[i][1]), m.group()


def _zh_spans(text: str, today: Day) -> Iterator[tuple[tuple[Day, Day] | None, str]]:
    for m in _DAY_ZH.finditer(text):
        g = m.groupdict()
        if (back := _days_back(g)) is not None:
            yield _days_ago(today, back), m.group()
        elif g["ago"]:
            if g["ago"] != "几":
                yield _days_ago(today, _zh_int(g["ago"])), m.group()
        elif g["lastweekday"]:
            if g["lwd"] == "末":
                yield _last_weekend(today), m.group()
            else:
                yield _weekday(today, _WEEKDAYS_ZH[g["lwd"]], True), m.group()
        elif g["lastweek"]:
            yield _last_week(today), m.group()
        elif g["thisweek"]:
            yield _this_week(today), m.group()
        elif g["lastmonth"]:
            yield _last_month(today), m.group()
        elif g["thismonth"]:
            yield _this_month(today), m.group()
        elif g["weekday"]:
            yield _weekday(today, _WEEKDAYS_ZH[g["weekday"]], False), m.group()
    for m in _DATE_ZH.finditer(text):
        month, year = _zh_int(m.group("month")), m.group("year")
        if m.group("mday"):
            yield _on_date(today, month, _zh_int(m.group("mday")), year), m.group()
        else:
            yield _in_month(today, month, m.group("part"), year), m.group()
    for m in _HOLIDAY_ZH.finditer(text):
        assert m.lastgroup is not None  # the one group hN that matched
        i = int(m.lastgroup[1:])
        yield _latest(today, _HOLIDAYS_ZH[i][1]), m.group()


@lru_cache(maxsize=64)
def _zone(name: str) -> ZoneInfo:
    return ZoneInfo(name)


def _ms(day: Day, zone: ZoneInfo) -> int:
    return int(dt.datetime.combine(day, dt.time(), zone).timestamp() * 1000)


def named_period(query: str, now_ms: int, timezone: str = "UTC") -> Period | None:
    """The stretch of time ``query`` names (see the module docs), or ``None``."""
    zone = _zone(timezone)
    text = fold_traditional(query)
    try:
        today = dt.datetime.fromtimestamp(now_ms / 1000, zone).date()
        spans = [(span, words) for span, words in (*_en_spans(text, today),
                                                   *_zh_spans(text, today))
                 if span is not None]
        if not spans:
            return None
        start = min(s for (s, _), _ in spans)
        end = max(e for (_, e), _ in spans)
        if end - start > MAX_SPAN:  # "last weekend before April 10, 2023": not one stretch
            return None
        named = [w for _, w in spans]
        return Period(_ms(start, zone), _ms(end, zone), " / ".join(w.strip() for w in named),
                      only=asks_only_when(text, named))
    except (OverflowError, ValueError):
        # a day beyond the calendar (year 1 or 10000: a "now" at the edge of the range
        # check_ts allows, in a time zone ahead of UTC) names nothing a store can hold
        return None


#: Words that ask *what was said*, not about what: with a named day and nothing else
#: the question is about that day ("what did I tell you yesterday?", "what did we talk
#: about last week", "anything I mentioned on Friday"). English ones are compared as
#: lowercase words, next to :data:`chatmem.text.STOPWORDS`.
SAID_EN: frozenset[str] = frozenset({
    "say", "said", "says", "saying", "tell", "told", "telling", "talk", "talked",
    "talking", "chat", "chatted", "discuss", "discussed", "mention", "mentioned",
    "speak", "spoke", "remember", "recall", "anything", "everything", "something",
    "stuff", "thing", "things", "us", "again", "back", "please", "could", "would",
    "happened", "happen", "go", "went", "through", "during", "last", "night", "day",
    "days", "week", "weekend", "ago", "earlier", "yes", "ok", "hey", "hi", "oh",
    # how a model calling the memory_recall tool names the two sides
    "user", "assistant", "bot",
})
#: The Chinese (and Cantonese) ones, taken out as phrases before the characters left are
#: compared with :data:`chatmem.text.CJK_QUERY_STOPCHARS`.
SAID_ZH = ("记不记得", "还记得", "记得", "说了什么", "说过什么", "聊了什么", "聊过什么",
           "讲了什么", "说的事", "说的话", "说过的话", "的事情", "的事", "说的", "说过",
           "说了", "聊了", "聊过", "聊的", "讲过", "讲了", "告诉", "跟你", "和你", "对你",
           "同你", "咱们", "我们", "那几天", "那天", "那时", "那会", "那晚", "讲咗乜",
           "倾咗乜", "讲咗", "倾咗", "乜嘢", "咩", "嘢", "怎么过的", "过得怎么样", "干了什么",
           "干嘛了", "做了什么", "用户", "助手")
#: longest first, so that "说了什么" goes before "说了" can split it
_SAID_ZH_PHRASES = (*sorted(SAID_ZH, key=len, reverse=True), *CJK_QUERY_STOPWORDS)


def asks_only_when(text: str, named: list[str]) -> bool:
    """Whether ``text`` asks about nothing but the stretch its ``named`` words name: once
    they, the words that ask what was said (:data:`SAID_EN`, :data:`SAID_ZH`) and the
    function words are taken out, no word is left."""
    rest = text.lower()
    for words in sorted(named, key=len, reverse=True):
        rest = rest.replace(words.lower(), " ")
    for phrase in _SAID_ZH_PHRASES:
        rest = rest.replace(phrase, " ")
    if any(c not in CJK_QUERY_STOPCHARS for c in CJK_CHAR_RE.findall(rest)):
        return False
    # single letters are what is left of "what's", "I'd": never a topic
    return all(w in STOPWORDS or w in SAID_EN
               for w in NON_CJK_WORD_RE.findall(rest) if len(w) > 1)
