"""Reranking (F4): ``final = ((1 − w)·semantic + w·recency) × boost``.

``semantic`` here is the candidate's relevance *relative to this recall's
candidate pool*: its (fused) similarity min-max scaled over the pool, so the
best candidate counts 1 and the weakest 0. Raw cosines of sentence embeddings
crowd into a narrow band (0.3–0.6 for MiniLM), and against that band an
absolute recency in [0, 1] would decide almost every ranking: on LoCoMo (3
conversations, hybrid) Recall@10 fell from 0.571 without decay to 0.294 with
the raw formula, and is 0.527 with the calibrated one. ``time_weight`` then
means what it says: the share of the ordering that recency may move.
``min_score`` still applies to the raw similarity, before this step.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from ..models import Message
from .hanzi import fold_traditional
from .period import Period

MS_PER_DAY = 86_400_000


@dataclass(frozen=True)
class Candidate:
    message: Message
    semantic: float
    model_id: str | None = None


@dataclass(frozen=True)
class Ranked:
    message: Message
    score: float
    semantic: float
    recency: float
    boost: float


def recency(ts: int, now_ms: int, half_life_days: float) -> float:
    """0.5^(age / half_life); a message from the future counts as brand new."""
    age_days = max(now_ms - ts, 0) / MS_PER_DAY
    return float(0.5 ** (age_days / half_life_days))


def is_about(msg: Message, speakers: Collection[str]) -> bool:
    """Spoken by, or mentioning, one of ``speakers`` (the same-user boost rule)."""
    return (msg.speaker_id is not None and msg.speaker_id in speakers) or any(
        m in speakers for m in msg.mentions
    )


_MONTHS = ("january|february|march|april|may|june|july|august|september|october|november|"
           "december|jan|feb|mar|apr|jun|jul|aug|sep|sept|oct|nov|dec")
_DAYS = "monday|tuesday|wednesday|thursday|friday|saturday|sunday"
#: Time expressions: dates, weekdays, months, clock times, "yesterday", "last week",
#: "this morning", "3 days ago"; 5月, 12号, 周五, 星期六, 下周, 昨天, 今儿, 今晚, 过年,
#: 国庆… A bare number is not one.
_TIME_RE = re.compile(
    r"\b(?:\d{1,2}(?:st|nd|rd|th)|" + _DAYS + "|" + _MONTHS + r"|today|tomorrow|yesterday"
    r"|tonight|weekend|\d{1,2}(?::\d{2})?\s*(?:am|pm)|\d{1,2}:\d{2}"
    r"|(?:last|next|this)\s+(?:week|month|year|weekend)"
    r"|(?:this|last|yesterday|tomorrow)\s+(?:morning|afternoon|evening|night)|earlier\s+today"
    r"|\d+\s+(?:days?|weeks?|months?|years?)\s+ago)\b"
    # a number's first digit only: a match inside a run of digits starts at its first
    # digit too, and trying every digit of a run of 25,000 took 10 s (the square of its
    # length)
    r"|(?<!\d)\d+\s*[月号日点]|[周星期礼拜][一二三四五六日天末]"
    r"|今天|明天|昨天|后天|前天|下周|上周|这周|下个月|上个月|月底|月初|年底|早上|晚上|中午|下午"
    r"|今儿|昨儿|明儿|明个|今早|今晚|昨晚|明早|明晚|过年|春节|国庆|五一|中秋|元旦"
    # Cantonese: tomorrow, yesterday, today, this / tomorrow morning, last night, month end
    r"|听日|琴日|寻日|噚日|今日|(?<![以之])[前后]日|今朝|听朝|琴晚|寻晚|噚晚|月尾|年尾"
    r"|[上下]个?(?:礼拜|星期)",
    re.IGNORECASE)


def mentions_time(text: str) -> bool:
    """Whether ``text`` states a time (:data:`_TIME_RE`): what answers a "when"
    question (:func:`chatmem.recall.query.asks_when`)."""
    return _reads(_TIME_RE, fold_traditional(text))


#: Quantities: digits ("£70", "9 miles", "62.0", "3 sets of 15"), English number words
#: ("nine", "half", "twice"), Chinese numerals (两, 三…万, 半) and 一 before a measure
#: word (一个, 一次, 一块…; alone it is mostly "一起", "一直", "一下").
_QUANTITY_RE = re.compile(
    r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen"
    r"|twenty|thirty|forty|fifty|hundred|thousand|half|dozen|once|twice)\b"
    r"|[两二三四五六七八九十百千万半俩仨]"
    r"|一[个次天岁块年月周回斤里分小遍趟位人口张本双件瓶杯碗米层]", re.IGNORECASE)


def states_quantity(text: str) -> bool:
    """Whether ``text`` states a quantity (:data:`_QUANTITY_RE`): what answers a "how
    many / how much" question (:func:`chatmem.recall.query.asks_quantity`)."""
    return _reads(_QUANTITY_RE, fold_traditional(text))


#: Statements that something changed ("changed", "switched", "moved into", "instead",
#: "no longer", "rescheduled", "cancelled", "改成", "换了", "不再", "推迟", "取消", "搬"…):
#: what answers a question about the present when a fact changed over time (issue 12,
#: rule 25). Words that state a state ("now", "现在", "decided", "决定") are left out:
#: the older statement of a changed fact says them as often as the newer one ("我现在
#: 住在成都", then "已经在重庆住下了"), and with them the rule lost as many update
#: questions on the dev splits as it won.
_CHANGE_RE = re.compile(
    r"\b(?:chang(?:e|ed|es|ing)|switch(?:ed|ing)?|swapp?(?:ed|ing)?|mov(?:e|ed|ing)"
    r"|instead|no\s+longer|resched\w*|postponed|pushed\s+back|brought\s+forward"
    r"|cancell?ed|replac(?:e|ed|ing))\b"
    r"|改|换|变成|不再|取消|推迟|延期|提前|搬", re.IGNORECASE)


def states_change(text: str) -> bool:
    """Whether ``text`` says something changed (:data:`_CHANGE_RE`): what answers a
    question about the present (:func:`chatmem.recall.query.asks_current_state`)."""
    return _reads(_CHANGE_RE, fold_traditional(text))


#: A message that asks something: a question mark (not one inside a link's query
#: string), or a sentence-final 吗 or 么 (什么, 怎么), or Cantonese 咩, with at most
#: trailing punctuation. 呢 and 嘛 are left out: "还没到呢", "好嘛" state things.
_QUESTION_RE = re.compile(r"\?(?![\w=&%])|？|[吗么咩][\s。！!~～…]*$")


#: A message that reports a question, asked or to be asked ("my manager asked if I
#: want to switch to nights", "I'll ask if we can keep Monday instead", "房东又来问要不要
#: 装空调", "问佢使唔使"): on a question about the present it is a proposal awaiting an
#: answer, like a question mark (rule 29). English: "asked / asks / asking", or "ask"
#: after "'ll", "will", "gonna", "going to" (the speaker's own question to come), then
#: "if" or "whether" within two words. Advice to ask ("Ask if it's secured on your
#: house", "you should ask whether…", "remember to ask if…") is left out: it is the
#: assistant's advice, which a question about the present may be after.
#: Chinese: 问 then, within four characters, an A-not-A question (要不要, 能不能, 可不可以,
#: Cantonese 要唔要, 使唔使) or 有没有 / 有冇; not 问问 or 问清 ("问问房东能不能换个房间",
#: "先问清楚能不能养狗"), which are advice to ask, as in English.
_REPORTED_QUESTION_RE = re.compile(
    r"\b(?:asked|asks|asking|(?:['’]ll|will|gonna|going\s+to)\s+ask)\s+(?:\w+\s+){0,2}?"
    r"(?:if|whether)\b"
    r"|(?<!问)问(?![问清]).{0,4}?(?:([要能想行肯会是得使愿])[不唔]\1|可[不唔]可以|有(?:没有|冇))",
    re.IGNORECASE)


def reports_question(text: str) -> bool:
    """Whether ``text`` reports a question asked or to be asked
    (:data:`_REPORTED_QUESTION_RE`): on a question about the present, like
    :func:`is_question`, a proposal rather than a statement of how things are."""
    return _reads(_REPORTED_QUESTION_RE, fold_traditional(text))


def is_question(text: str) -> bool:
    """Whether ``text`` asks a question (:data:`_QUESTION_RE`). On a question about the
    present it is a proposal or a question back ("Saturday 26 September?", "那要不
    2号到5号？"), not a statement of how things are."""
    return _reads(_QUESTION_RE, fold_traditional(text))


def _reads(pattern: re.Pattern[str], folded: str) -> bool:
    """Whether ``pattern`` occurs in ``folded`` (a text already read through
    :func:`~chatmem.recall.hanzi.fold_traditional`): :func:`rerank` folds each candidate
    once and asks every answer type of it, the public predicates fold their own text."""
    return pattern.search(folded) is not None


#: A word (a run of letters or digits) or one CJK character: the unit of
#: :func:`content_length`, so that English and Chinese turns of the same content
#: measure about the same.
_LENGTH_UNIT_RE = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]"
                             r"|[^\W_\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]+")


def content_length(text: str) -> int:
    """The words of ``text``, each CJK character counting as one (:data:`_LENGTH_UNIT_RE`)."""
    return len(_LENGTH_UNIT_RE.findall(text))


def calibrate(scores: Sequence[float]) -> list[float]:
    """Min-max scale over the pool: best 1, weakest 0; all equal → all 1."""
    if not scores:
        return []
    lo, hi = min(scores), max(scores)
    if hi - lo <= 1e-12:
        return [1.0] * len(scores)
    return [(s - lo) / (hi - lo) for s in scores]


def newness(candidates: Sequence[Candidate], best: int) -> list[float]:
    """Each candidate's time within the span of the ``best`` most relevant ones: the
    newest of them 1, the oldest 0 (clipped outside that span).

    The recency of a question about the present (``RecallPlan.current_state``): a fact
    restated an hour or a month later should win either way, and an absolute half-life
    cannot tell an hour apart (on the dev splits of ``bench/quality.py`` the newer
    statement came first in 0.67 of the knowledge-update questions with the half-life,
    0.81 with this, with Hit@5 level)."""
    top = sorted(candidates, key=lambda c: -c.semantic)[:max(best, 1)]
    times = [c.message.ts or 0 for c in top]
    lo, hi = (min(times), max(times)) if times else (0, 0)
    if hi <= lo:
        return [1.0] * len(candidates)
    return [min(1.0, max(0.0, ((c.message.ts or 0) - lo) / (hi - lo))) for c in candidates]


def rerank(candidates: Sequence[Candidate], *, now_ms: int, time_weight: float,
           half_life_days: float, boost_speakers: Collection[str] = (),
           boost: float = 1.0, current_state: bool = False, earliest: bool = False,
           best: int = 5, asked_role: str | None = None,
           role_boost: float = 1.0, asks_when: bool = False,
           when_boost: float = 1.0, asks_quantity: bool = False,
           quantity_boost: float = 1.0, question_factor: float = 1.0,
           asked_back_factor: float = 1.0, change_boost: float = 1.0,
           min_length: int = 0, period: Period | None = None,
           period_boost: float = 1.0) -> list[Ranked]:
    """Score and sort; ties break by time (newer first) then id, so order is stable.

    ``current_state`` (a question about the present): recency is :func:`newness`
    among the ``best`` most relevant candidates instead of the half-life decay;
    ``earliest`` (a question about how something began): its mirror, ``1 − newness``.
    ``asked_role`` (whose past words the query asks about,
    :func:`~chatmem.recall.query.asked_role`): that role's messages are multiplied by
    ``role_boost`` (the assistant's only from ``min_length`` words or CJK characters,
    :func:`content_length`: a short turn is an acknowledgement, not the advice asked
    about); when the query asks when (``asks_when``), the messages that state
    a time (:func:`mentions_time`) by ``when_boost``; when it asks how many or how much
    (``asks_quantity``), the messages that state a quantity (:func:`states_quantity`) by
    ``quantity_boost``. On a question about the present, a message that says
    something changed (:func:`states_change`) is multiplied by ``change_boost`` and
    a message that itself asks (:func:`is_question`) or reports a question
    (:func:`reports_question`) by ``question_factor``; on any other query, an
    assistant's message that asks by ``asked_back_factor`` (a question back is not an
    answer). When the query names a stretch of time (``period``,
    :func:`~chatmem.recall.period.named_period`: "yesterday", "上周五", "at Christmas"),
    the messages sent within it are multiplied by ``period_boost``, and when the query
    names nothing else (``period.only``: "what did I tell you yesterday?") they come
    before every other message."""
    out = []
    relevance = calibrate([c.semantic for c in candidates])
    newer = newness(candidates, best) if current_state or earliest else None
    for i, (c, rel) in enumerate(zip(candidates, relevance)):
        assert c.message.ts is not None
        if newer is None:
            r = recency(c.message.ts, now_ms, half_life_days)
        else:
            r = 1.0 - newer[i] if earliest and not current_state else newer[i]
        b = boost if boost_speakers and is_about(c.message, boost_speakers) else 1.0
        text = fold_traditional(c.message.content)
        if asked_role is not None and c.message.role == asked_role and (
                asked_role != "assistant" or content_length(c.message.content) >= min_length):
            b *= role_boost
        if period is not None and period_boost != 1.0 and period.holds(c.message.ts):
            b *= period_boost
        if asks_when and when_boost != 1.0 and _reads(_TIME_RE, text):
            b *= when_boost
        if asks_quantity and quantity_boost != 1.0 and _reads(_QUANTITY_RE, text):
            b *= quantity_boost
        if current_state:
            if change_boost != 1.0 and _reads(_CHANGE_RE, text):
                b *= change_boost
            if question_factor != 1.0 and (_reads(_QUESTION_RE, text)
                                           or _reads(_REPORTED_QUESTION_RE, text)):
                b *= question_factor
        elif (asked_back_factor != 1.0 and c.message.role == "assistant"
              and _reads(_QUESTION_RE, text)):
            b *= asked_back_factor
        score = ((1.0 - time_weight) * rel + time_weight * r) * b
        out.append(Ranked(c.message, score, c.semantic, r, b))
    first = period if period is not None and period.only and period_boost != 1.0 else None
    out.sort(key=lambda h: (first is not None and not first.holds(h.message.ts), -h.score,
                            -(h.message.ts or 0), h.message.id or ""))
    return out
