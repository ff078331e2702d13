"""Query text of a recall (F4)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .hanzi import fold_traditional

#: Longest query, in characters: the earliest inputs are dropped beyond it (F4).
MAX_QUERY_CHARS = 4000


def build_query(inputs: Sequence[str], limit: int = MAX_QUERY_CHARS) -> str | None:
    """This turn's input texts joined in order, dropping the earliest while too long.

    No inputs (or only blank ones) → ``None``: no search. A single input longer
    than the limit keeps its last ``limit`` characters (the most recent words).
    """
    texts = [t for t in inputs if t and t.strip()]
    # the joined length kept as a running total: joining again after each drop took
    # minutes for a turn of 1000 long inputs
    size, first = sum(map(len, texts)) + len(texts) - 1, 0
    while len(texts) - first > 1 and size > limit:
        size -= len(texts[first]) + 1
        first += 1
    texts = texts[first:]
    if not texts:
        return None
    query = "\n".join(texts)
    return query[-limit:] if len(query) > limit else query


#: Words that ask for the present state of something ("where do I live *now*", "我*现在*
#: 住哪"): a fact that changed is asked about with them, and then the newer statement
#: should win (issue 12, knowledge updates). English as whole words, Chinese as is
#: (Mandarin, then Cantonese: 而家 / 依家 "now", 最尾 "in the end", 后尾 "later on"),
#: in either script (:func:`~chatmem.recall.hanzi.fold_traditional`). A question about
#: a plan ("where *am I gonna* park", "*are we going to* sell") asks for the latest plan.
CURRENT_STATE_EN = ("now", "currently", "current", "at the moment", "these days",
                    "nowadays", "still", "anymore", "any more", "latest", "most recent",
                    "recently", "lately", "in the end", "end up", "ended up", "finally",
                    "so far")
CURRENT_STATE_ZH = ("现在", "目前", "最近", "如今", "眼下", "这几天", "这阵子", "还在",
                    "最后", "最终", "后来", "到底", "最新", "当前", "终于",
                    "而家", "依家", "宜家", "最尾", "后尾")
_CURRENT_STATE_RE = re.compile(
    r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in CURRENT_STATE_EN)
    + r"|(?:am|are|is)\s+(?:i|we|he|she|they)\s+(?:gonna|going\s+to)"
    + r")\b|" + "|".join(CURRENT_STATE_ZH), re.IGNORECASE)


def asks_current_state(query: str) -> bool:
    """Whether ``query`` asks for how things are *now* (:data:`CURRENT_STATE_EN`, ``_ZH``)."""
    return question_kinds(query).current_state


#: Words that ask for how something *began* ("what did I drink *at first*", "when did I
#: *first* go", "我*一开始*…", "*原本*说哪天还"): the mirror of the words above, the
#: older of two statements should win. "first" alone is left out: "my first
#: customer" names a thing, not a time in the conversation.
EARLIEST_EN = ("originally", "at first", "initially", "in the beginning", "to begin with",
               "at the start", "in the first place")
EARLIEST_ZH = ("最早", "一开始", "起初", "最初", "原来", "本来", "原本", "刚开始", "最先",
               "起头", "开头")
_EARLIEST_RE = re.compile(
    r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in EARLIEST_EN)
    + r"|(?:did|do|does|have|has|had)\s+\w+\s+first)\b|" + "|".join(EARLIEST_ZH),
    re.IGNORECASE)
#: "The first time" / "第一次" names an event ("where did I head the *first time* I took
#: the camper out", "*第一次*觉得娃儿在肚子里动是啥感觉"), which may come late in a
#: history: the words of the question find it, and the oldest candidates are no better
#: a guess. Only when the question asks *when* ("我什么时候*第一次*做成俯卧撑", "when was
#: the *first time* I ran 5k") is the first of several occurrences the answer.
_FIRST_TIME_RE = re.compile(r"\bfirst\s+time\b|第一次|头一回|头一次", re.IGNORECASE)


def asks_earliest(query: str) -> bool:
    """Whether ``query`` asks how something began (:data:`EARLIEST_EN`, ``_ZH``, "when
    did I first…"), or when something happened for the first time (a "when" question,
    :func:`asks_when`, with "first time" or "第一次"). A query that also asks about the
    present counts as that only."""
    return question_kinds(query).earliest


#: Words that ask *when* ("when did…", "what day", "which nights", "哪天", "几号",
#: "什么时候"; Cantonese 几时, 边日 "which day"): the answer is a message that states a
#: time (:func:`chatmem.recall.rank.mentions_time`).
_WHEN_RE = re.compile(
    r"\b(?:what\s+(?:date|day|time|month|year)|which\s+(?:day|date|month|night|"
    r"nights|weekend)|how\s+long\s+ago|since\s+when)\b"
    r"|哪天|哪一天|几号|什么时候|几月|几点|哪个月|多久|哪年|哪一年|哪周|哪个星期"
    r"|(?:周|星期|礼拜)几|几时|边日|边一日|边个月|几多号",
    re.IGNORECASE)
#: English "when" asks only as a question word: first in the question, after a filler
#: ("so when…", "remind me when…"), or before an auxiliary ("…when did", "when's").
#: Elsewhere it is a conjunction: "what did you suggest *when* I was missing home" asks
#: for advice, and on the dev splits 17 such questions had the "when" boost lift
#: dated messages over their answer.
_WHEN_ASKS_RE = re.compile(
    r"^\W*(?:(?:so|and|but|ok|okay|hey|hmm|um|also|then|wait|oh|btw|remind\s+me|"
    r"tell\s+me)\W+)*when\b"
    r"|\bwhen(?:\s+|\s*(?=['’]))(?:did|do|does|is|are|was|were|will|would|can|could|should|"
    r"shall|have|has|had|am|['’]s|['’]d|['’]ll)\b", re.IGNORECASE)


def asks_when(query: str) -> bool:
    """Whether ``query`` asks when something happened or will ("when" as a question
    word, not as a conjunction; :data:`_WHEN_ASKS_RE`)."""
    return question_kinds(query).when


#: Words that ask *how many / how much* ("how many eggs", "how far off", "what did they
#: cost", "多少钱", "几个人", "隔几耐"): the answer is a message that states a quantity
#: (:func:`chatmem.recall.rank.states_quantity`). Chinese 几 counts only before a
#: measure word (几个, 几次, 几块…) or as 几多 / 几耐 (Cantonese "how much" / "how
#: long"), and not after 这/那/前/后/过/好/头…: "这几天", "那几个月", "好几次" name a
#: time or say "several", they do not ask.
_QUANTITY_RE = re.compile(
    r"\bhow\s+(?:many|much|long|far|old|often|big|tall|heavy|fast|high)\b|\bcost\b"
    r"|\bprice\b|多少|第几|(?<![这那前后过好头末最])几"
    r"(?:[个次天岁块年月周回斤里分小遍趟位人口张本双件瓶杯碗米层万千百十条只台辆份间节场顿]"
    r"|多|耐|钱)|多长|多远|多大|多重|多高|多贵", re.IGNORECASE)


def asks_quantity(query: str) -> bool:
    """Whether ``query`` asks how many or how much (:data:`_QUANTITY_RE`) and not when:
    a question has one expected answer, and "how long ago" or "多久" asks for a time
    (:func:`asks_when`)."""
    return question_kinds(query).quantity


@dataclass(frozen=True)
class QuestionKinds:
    """What a query asks for, as the ranking reads it (each flag as its ``asks_*``)."""

    current_state: bool
    earliest: bool
    when: bool
    quantity: bool


def question_kinds(query: str) -> QuestionKinds:
    """:func:`asks_current_state`, :func:`asks_earliest`, :func:`asks_when` and
    :func:`asks_quantity` of ``query``, read from one folded copy of it
    (:func:`~chatmem.recall.hanzi.fold_traditional`), each pattern searched once (the
    last two depend on the first ones; a recall's plan reads all four)."""
    folded = fold_traditional(query)
    current = _CURRENT_STATE_RE.search(folded) is not None
    when = _WHEN_RE.search(folded) is not None or _WHEN_ASKS_RE.search(folded) is not None
    earliest = not current and (_EARLIEST_RE.search(folded) is not None or (
        when and _FIRST_TIME_RE.search(folded) is not None))
    quantity = not when and _QUANTITY_RE.search(folded) is not None
    return QuestionKinds(current, earliest, when, quantity)


#: Past-speech verbs whose subject, "you", is the assistant: "what did *you suggest*",
#: "the routine *you gave* me", "*your tips*" (issue 12: a question about what the
#: assistant said is answered by an assistant message, rarely by the user's turn that
#: raised the topic, which matches the question's words better).
_ASSISTANT_VERBS_EN = (
    "say", "said", "suggest", "suggested", "recommend", "recommended", "tell", "told",
    "advise", "advised", "propose", "proposed", "mention", "mentioned", "teach", "taught",
    "remind", "reminded", "warn", "warned", "give", "gave", "offer", "offered",
    "explain", "explained", "show", "showed", "think", "thought", "pick", "picked",
    "come up with", "came up with")
_ASSISTANT_NOUNS_EN = (
    "advice", "suggestion", "suggestions", "tip", "tips", "trick", "tricks", "idea",
    "ideas", "recommendation", "recommendations", "answer", "opinion", "take", "recipe",
    "routine", "plan", "explanation", "reminder", "warning")
_VERBS = "|".join(re.escape(v).replace(r"\ ", r"\s+") for v in _ASSISTANT_VERBS_EN)
_PAST = "|".join(v for v in _ASSISTANT_VERBS_EN
                 if v.endswith(("ed", "ght", "old", "aid", "ave", "wed")))
_NOUNS = "|".join(_ASSISTANT_NOUNS_EN)
_ADVERB = r"(?:\s+(?:ever|once|just|also|first))?"
#: "did you suggest", "you told me", "your tips".
_YOU_EN = re.compile(
    r"\b(?:(?:did|do|would|have|had|will)\s+you" + _ADVERB + r"\s+(?:" + _VERBS + r")"
    r"|you(?:'d|'ve|\s+had|\s+have)?" + _ADVERB + r"\s+(?:" + _PAST + r")"
    r"|your\s+(?:" + _NOUNS + r"))\b", re.IGNORECASE)
#: "did the bot suggest", "the assistant's tips": in a group the bot is named, and its
#: name is also a word of the messages that addressed it, so it stays in the query.
#: A model calling ``memory_recall`` may drop the article at the start of its query
#: ("assistant's advice about the water heater"); elsewhere "assistant" without "the"
#: is someone's ("my assistant said the meeting moved").
_BOT_EN = re.compile(
    r"\b(?:(?:did|do|would|have|had|will)\s+the\s+(?:bot|assistant)" + _ADVERB
    + r"\s+(?:" + _VERBS + r")|(?:the\s+|^\s*)(?:bot|assistant)(?:'s)?" + _ADVERB
    + r"\s+(?:" + _PAST + "|" + _NOUNS + r"))\b", re.IGNORECASE)
_ZH_MODIFIER = (r"(?:之前|以前|当时|上次|那次|那时|那会|那天|刚才|前几天|曾经|也|都|还|又"
                r"|嗰阵|嗰次|嗰日|头先)?"
                r"(?:是)?(?:怎么|咋|为什么|为啥)?")
_ZH_VERB = (r"(?:建议|推荐|教|让我|让|叫我|要我|提醒|说|讲|话|劝|告诉|提到|支招|给|排|安排"
            r"|出(?:了|咗|过)?(?:什么|啥|咩|乜嘢|乜|个)?(?:主意|点子)"
            r"|觉得|帮我(?:想|出|列|排|定)|有(?:什么|咩|乜嘢|乜)(?:办法|建议|主意|推荐)|怎么比)")
#: "to me" between the subject and the verb: "你*跟我*说过", "你*和我*讲过" say the
#: assistant spoke, as "你给我…" already did ("我说过" alone would read as the user's words).
_ZH_TO_ME = r"(?:跟我|和我|对我|同我|给我|畀我)?"
#: Chinese: 你 / 您 as the subject (not "跟你", "对你", Cantonese "同你"…), a time word
#: or 怎么 between, before a verb of advice or speech (Cantonese: 你话 "you said", 你出咗
#: 咩主意 "what idea did you come up with", 嗰阵 "back then").
_YOU_ZH = re.compile(r"(?<![跟和对给帮让问向替同畀])[你您]" + _ZH_MODIFIER + _ZH_TO_ME
                     + _ZH_VERB)
_BOT_ZH = re.compile(r"(?:小助手|助手|机器人)" + _ZH_MODIFIER + _ZH_TO_ME + _ZH_VERB)
#: The assistant speaking of itself, as a model calling ``memory_recall`` writes it: "what
#: *did I tell the user* about the trip", "*I recommended to the user*…", "*my advice to
#: the user*", "*我跟用户说过*…", "*我给用户推荐过*…". "I" is then the assistant, and
#: without this the user's cue below ("did I tell") read them as the user's words.
_SELF_TO_USER_EN = re.compile(
    r"\b(?:(?:did|do|have|had|would)\s+I|I(?:'d|'ve|\s+had|\s+have)?)" + _ADVERB
    + r"\s+(?:" + _VERBS + r")(?:\s+\w+)?\s+(?:to\s+|for\s+)?the\s+user\b"
    r"|\bmy\s+(?:" + _NOUNS + r")\s+(?:to|for)\s+the\s+user\b", re.IGNORECASE)
_SELF_TO_USER_ZH = re.compile(
    r"我" + _ZH_MODIFIER + r"(?:跟|和|对|给|同|向|帮)用户" + _ZH_MODIFIER + _ZH_VERB
    + r"|我" + _ZH_MODIFIER + r"(?:告诉|提醒|建议|推荐|劝|教|叮嘱)(?:过|了)?用户")
#: The user's own past words: "what did *I say*", "*I told you*", "我*跟你说过*" (我 as the
#: subject: in "他跟我说过" someone else spoke).
_USER_EN = re.compile(
    r"\b(?:did\s+I\s+(?:say|tell|mention|write|ask)|I\s+(?:said|told\s+you|mentioned|"
    r"wrote|asked\s+you))\b", re.IGNORECASE)
_USER_ZH = re.compile(r"(?<![跟和对给同向畀])我(?:之前|以前|当时|上次|那次|那时|曾经|嗰阵)?"
                      r"(?:跟你|和你|对你|给你|同你)?(?:说过|提过|提到|讲过|话过|告诉过?你)")
#: The user named, as a model calling ``memory_recall`` writes it: "what *the user
#: said* about their sister", "*did the user mention* a date", "*用户之前说过*…",
#: "*用户提到*的那家店" (用户 as the subject: in "他跟用户说过" someone else spoke).
_USER_NAMED_EN = re.compile(
    r"\b(?:(?:did|has|had)\s+the\s+user" + _ADVERB
    + r"\s+(?:say|tell|mention|write|ask|share)|the\s+user(?:'s)?" + _ADVERB
    + r"\s+(?:said|told|mentioned|wrote|asked|shared|words))\b", re.IGNORECASE)
_USER_NAMED_ZH = re.compile(r"(?<![跟和对给同向畀])用户(?:之前|以前|当时|上次|那次|曾经)?"
                            r"(?:跟你|和你|对你|跟助手|和助手)?"
                            r"(?:说过|说了|提过|提到|讲过|告诉过?(?:你|助手)?)")


def asked_role(query: str) -> str | None:
    """Whose past words ``query`` asks about: ``"assistant"`` for "what did you
    suggest…", "你让我…", ``"user"`` for "what did I say…", "我跟你说过…"; ``None``
    when it does not say (most questions).

    A question can name both ("did you say what I told you…"): the assistant then,
    since a question put to the assistant about its own words is the commoner form."""
    return role_cue(query)[0]


def role_cue(query: str) -> tuple[str | None, str]:
    """:func:`asked_role` and the query without the words that said it.

    "你让我", "did you suggest": they tell whose words are asked about, not what
    about, and left in the query they match every message where the assistant says
    "你" or "you" (issue 12)."""
    folded = fold_traditional(query)
    for role, cues, named in (("assistant", (_YOU_EN, _YOU_ZH, _SELF_TO_USER_EN,
                                             _SELF_TO_USER_ZH), (_BOT_EN, _BOT_ZH)),
                              ("user", (_USER_EN, _USER_ZH, _USER_NAMED_EN,
                                        _USER_NAMED_ZH), ())):
        if any(p.search(folded) for p in (*cues, *named)):
            rest = query
            for p in cues:
                rest = _cut(p, rest)
            return role, rest if rest.strip(" ?？!！.。,，") else query
    return None, query


def _cut(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with each match of ``pattern`` in its folded form replaced by a space:
    the cue words go, and the rest keeps the user's own characters (the folding maps
    one character to one, so the spans agree)."""
    parts, last = [], 0
    for m in pattern.finditer(fold_traditional(text)):
        parts += [text[last:m.start()], " "]
        last = m.end()
    return "".join(parts) + text[last:]
