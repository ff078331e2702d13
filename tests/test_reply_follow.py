"""Replies inherit relevance (issue 12, :mod:`chatmem.recall.follow`), and a query about
the present weighs recency more (``search.time_weight_current``).

Real SQLite files and the real pipeline; :class:`chatmem.testing.HashEmbeddingProvider`
makes texts that share words close and texts that share none far apart, which is
exactly the situation the rule is for: the answer shares no word with the question.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message, Session
from chatmem.config import Config
from chatmem.errors import ConfigError, InvalidInput
from chatmem.models import ScoredId
from chatmem.recall.follow import follow_replies, reply_followers, reply_parents
from chatmem.recall.query import asks_current_state, asks_earliest
from chatmem.recall.request import RecallRequest, plan
from chatmem.testing import embedder

T0 = 1_750_000_000_000
DAY = 86_400_000


def _without_sittings(config: dict[str, Any] | None) -> dict[str, Any]:
    """Rule 20 (a sitting lends relevance) off: these stores put the turns of one day in
    one session, and these tests measure the reply rules alone."""
    config = dict(config or {})
    config["search"] = {"episode_share": 0.0, **config.get("search", {})}
    return config


def _sid(mid: str, score: float, ts: int, role: str = "user") -> ScoredId:
    return ScoredId(mid, score, "m", role, "s", ts)


def _msg(mid: str, ts: int, role: str = "assistant") -> Message:
    return Message(id=mid, session_id="s", content=mid, ts=ts, role=role)


def test_followers_get_the_share_of_their_parent_and_keep_a_better_own_score() -> None:
    pool = [_sid("a", 0.8, 1), _sid("b", 0.5, 5), _sid("c", 0.1, 9)]
    followers = {"a": [_msg("x", 2), _msg("c", 9)], "b": [_msg("y", 6)]}
    out = follow_replies(pool, followers, share=0.5)
    scores = {s.message_id: round(s.score, 6) for s in out}
    assert scores == {"a": 0.8, "b": 0.5, "c": 0.4, "x": 0.4, "y": 0.25}
    # best first, ties newer first: c (ts 9) before x (ts 2)
    assert [s.message_id for s in out] == ["a", "b", "c", "x", "y"]
    # a follower keeps the model of its parent (it has no vector of its own here)
    assert {s.message_id: s.model_id for s in out}["x"] == "m"
    # the best parent decides: a follower of two parents takes the larger share
    twice = follow_replies(pool, {"a": [_msg("x", 2)], "b": [_msg("x", 2)]}, share=0.5)
    assert {s.message_id: s.score for s in twice}["x"] == pytest.approx(0.4)


def test_a_parent_never_follows_itself_and_no_followers_change_nothing() -> None:
    pool = [_sid("a", 0.8, 1), _sid("b", 0.5, 5)]
    assert follow_replies(pool, {"a": [_msg("a", 1)]}, share=0.9) == pool
    # F1: what is never embedded is never a hit, through a parent either
    tool = Message(id="t", session_id="s", content="raw tool output", ts=2, role="tool")
    injected = Message(id="i", session_id="s", content="note", ts=3, source="orchestration")
    assert follow_replies(pool, {"a": [tool, injected]}, share=0.9) == pool
    assert follow_replies(pool, {}, share=0.9) == pool


CHAT = [
    # day 1: the user raises a topic; the assistant's answer shares none of its words
    ("user", "my sister is visiting in april and I have no idea where she will sleep"),
    ("assistant", "get a decent air mattress with a built in pump"),
    ("user", "great thanks"),
    # noise on other days
    # (sharing a word or two with the question, unlike the answer)
    ("user", "my boiler makes a strange noise when it rains"),
    ("assistant", "call the landlord about my boiler when you can"),
    ("user", "booked my dentist for monday"),
    ("assistant", "good luck when visiting the dentist"),
]


async def _store(tmp_path: Path, config: dict[str, Any] | None = None) -> Memory:
    config = _without_sittings(config)
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=embedder(),
                            config=config)
    await mem.add([Message(session_id="d1" if i < 3 else f"d{i}", content=text, role=role,
                           speaker_id="bot" if role == "assistant" else "maya",
                           ts=T0 + (i * DAY if i >= 3 else i * 60_000))
                   for i, (role, text) in enumerate(CHAT)])
    await mem.flush()
    return mem


QUESTION = "where should my sister sleep when visiting"
ANSWER = "get a decent air mattress with a built in pump"


async def test_the_answer_to_a_matched_turn_is_recalled(tmp_path: Path) -> None:
    mem = await _store(tmp_path)
    try:
        hits = (await mem.recall(QUESTION, top_k=3, scope="all", window=0)).hits
        texts = [h.message.content for h in hits]
        assert texts[0].startswith("my sister is visiting")
        assert ANSWER in texts, texts
        # below the turn it answers
        assert texts.index(ANSWER) > 0
    finally:
        await mem.close()


async def _rank_of_answer(mem: Memory) -> int:
    hits = (await mem.recall(QUESTION, top_k=len(CHAT), scope="all", window=0)).hits
    return [h.message.content for h in hits].index(ANSWER)


async def test_reply_share_zero_turns_it_off(tmp_path: Path) -> None:
    on = await _store(tmp_path / "on")
    off = await _store(tmp_path / "off", {"search": {"reply_share": 0.0}})
    try:
        assert await _rank_of_answer(on) <= 2 < await _rank_of_answer(off)
    finally:
        await on.close()
        await off.close()


async def test_followers_obey_the_same_filters_as_the_pool(tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/f.db", embedder=embedder())
    try:
        # a message-level filter can hide a reply in the parent's own session
        await mem.add([
            Message(session_id="d1", content=CHAT[0][1], ts=T0, metadata={"shared": True}),
            Message(session_id="d1", content=ANSWER, ts=T0 + 1, role="assistant"),
            Message(session_id="d1", content="great thanks", ts=T0 + 2,
                    metadata={"shared": True})])
        await mem.flush()
        shown = await mem.recall(QUESTION, top_k=5, scope="all", window=0,
                                 filter={"message.shared": True})
        assert [h.message.content for h in shown.hits] == [CHAT[0][1], "great thanks"]
    finally:
        await mem.close()
    mem = await _store(tmp_path / "o", {"recall_roles": "others-only"})
    try:
        hits = (await mem.recall(QUESTION, top_k=5, scope="all", window=0)).hits
        assert all(h.message.role != "assistant" for h in hits)
    finally:
        await mem.close()


@pytest.mark.parametrize(("query", "share"), [
    ("how old is my cat", 0.7), ("土豆几个月大", 0.8), ("", 0.7),
    # a query mixing scripts: weighted by its share of CJK characters (5 of 11)
    ("Model Y是哪天提的", 0.7 + (0.8 - 0.7) * 5 / 11),
])
def test_cjk_queries_use_their_own_reply_share(query: str, share: float) -> None:
    from chatmem.recall.request import reply_share
    search = Config().search
    assert reply_share(query, search) == pytest.approx(share)
    kw: dict[str, Any] = {"scope": "all", "clamped": False, "visibility": None, "where": None}
    if query:
        assert plan(RecallRequest.of(query), Config(), **kw).reply_share == \
            pytest.approx(share)
        # off for one call: no reply inherits, in any script
        assert plan(RecallRequest.of(query, follow_replies=False), Config(),
                    **kw).reply_share == 0.0


@pytest.mark.parametrize("bad", [{"reply_share": 1.5}, {"reply_share": -0.1},
                                 {"reply_share_cjk": 1.5}, {"reply_share_cjk": "x"},
                                 {"reply_window": -1}, {"reply_window": 2.5},
                                 {"reply_window_group": -1}, {"reply_window_group": "1"},
                                 {"reply_window_group": 21}, {"reply_window_group": 1.0},
                                 {"reply_insertions": -1}, {"reply_insertions": 1.5},
                                 {"reply_insertions": 11}, {"reply_insertions": "two"},
                                 {"time_weight_current": 2}])
def test_bad_settings_name_the_field(bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError, match=next(iter(bad))):
        Config.load({"search": bad})


@pytest.mark.parametrize("query", [
    "Which city am I living in now?", "what do I take at the moment", "how do I get to work "
    "these days", "Did I end up taking the job", "is she still coming", "currently reading?",
    "我现在住在哪个城市", "目前的上司怎么样", "最后报的是哪所学校", "我最近一次查的血糖",
    # a plan asked about is the latest plan (rule 27)
    "where am i gonna park the truck to sell", "Am I going to sell the house or not?",
])
def test_questions_about_the_present(query: str) -> None:
    assert asks_current_state(query)


@pytest.mark.parametrize("query", [
    "what did you suggest for my sister's bed", "where is Stillwater", "nowhere to go",
    "when did I first go running", "你上次推荐的那家店叫什么", "谁说要带投影仪",
    "I'm going to the gym, what did you say about stretching", "are you going to remind me",
])
def test_questions_not_about_the_present(query: str) -> None:
    assert not asks_current_state(query)


@pytest.mark.parametrize("query", [
    "What did my flatmate agree to at first?", "when did I first go to the running group",
    "what was the plan originally", "how much did it cost initially", "我什么时候第一次做成俯卧撑",
    "我原来每天喝几杯咖啡", "房东一开始说涨到多少", "木木原本说哪天还",
    # the first of several occurrences, asked when
    "when was the first time I ran 5k", "哪天第一次去的健身房",
    # the English idiom for "originally" (rule 27)
    "how did I wreck my knee in the first place?",
])
def test_questions_about_how_it_began(query: str) -> None:
    assert asks_earliest(query)


@pytest.mark.parametrize("query", [
    "what did you say after my first class", "how much for the first three labels",
    "where do I live now", "最后谈下来的比第一次给的多了多少",  # the present wins
    "what did you suggest for my sister's bed", "",
    # "the first time" names an event, and the question asks about it, not when
    "Where did I head the very first time I took the camper out without anyone?",
    "what did my lining measure the first time round", "第一次觉得娃儿在肚子里动是啥感觉",
    "头一回教我熬的那个稀饭咋做来着",
])
def test_questions_not_about_how_it_began(query: str) -> None:
    assert not asks_earliest(query)


def test_the_plan_takes_the_weight_of_its_query() -> None:
    cfg = Config.load({"search": {"time_weight": 0.1, "time_weight_current": 0.6}})
    kw: dict[str, Any] = {"scope": "all", "clamped": False, "visibility": None, "where": None}
    assert plan(RecallRequest.of("where do I live now"), cfg, **kw).time_weight == 0.6
    assert plan(RecallRequest.of("where did I live"), cfg, **kw).time_weight == 0.1
    first = plan(RecallRequest.of("where did I live at first"), cfg, **kw)
    assert first.earliest and not first.current_state and first.time_weight == 0.6


async def test_the_assistants_second_reply_is_recalled(tmp_path: Path) -> None:
    """Asked what the assistant said, its second reply after the matched turn inherits,
    not the user's turn between them; asked anything else, the two messages after it
    do, and the advice stays far down."""
    mem = await _heater(tmp_path, day=DANCE)
    advice, between = DANCE[3][1], DANCE[2][1]
    try:
        asked = "what did you suggest about my wife and her dance class"
        assert await _rank(mem, asked, advice) <= 1
        hits = (await mem.recall(asked, top_k=3, scope="all", window=0)).hits
        assert between not in [h.message.content for h in hits]
        assert await _rank(mem, "is my wife back at her dance class", advice) > 3
    finally:
        await mem.close()


def _unrelated() -> list[Message]:
    """Four messages about nothing asked, days 20–23."""
    return [Message(session_id=f"n{i}", content=text, ts=T0 + (20 + i) * DAY)
            for i, text in enumerate(["booked the dentist", "boiler noise again",
                                      "pasta recipe please", "train tickets bought"])]


async def test_a_question_about_how_it_began_prefers_the_older_statement(tmp_path: Path
                                                                        ) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/e.db", embedder=embedder())
    try:
        old = Message(session_id="d1", content="four cups of coffee for me", ts=T0,
                      speaker_id="maya")
        new = Message(session_id="d9", content="now I drink one cup of coffee a day, down "
                      "from four cups a day", ts=T0 + 40 * DAY, speaker_id="maya")
        await mem.add([old, new, *_unrelated()])
        await mem.flush()
        now = T0 + 41 * DAY
        ask = "how many cups of coffee a day did I drink at first"
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=now)).hits
        assert hits[0].message.content == old.content
        # weighed like any other question, the newer (and closer worded) one leads
        mem.config = Config.load({"search": {"time_weight_current": 0.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=now)).hits
        assert hits[0].message.content == new.content
    finally:
        await mem.close()


async def test_a_question_about_the_present_prefers_the_newer_statement(tmp_path: Path
                                                                        ) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/u.db", embedder=embedder())
    try:
        old = Message(session_id="d1", content="our flat is in Paris",
                      ts=T0, speaker_id="maya")
        new = Message(session_id="d9", content="we moved, our flat is in Berlin, near the park",
                      ts=T0 + 150 * DAY, speaker_id="maya")
        await mem.add([old, new, *_unrelated()])
        await mem.flush()
        now = T0 + 160 * DAY
        present = await mem.recall("where is our flat now", top_k=2, scope="all",
                                   window=0, now=now)
        assert present.hits[0].message.content == new.content
        # the same question weighed as one not about the present (newness and the
        # "moved" of rule 25 off)
        mem.config = Config.load({"search": {"time_weight_current": 0.1, "change_boost": 1}})
        assert (await mem.recall("where is our flat now", top_k=2, scope="all", window=0,
                                 now=now)).hits[0].message.content == old.content
    finally:
        await mem.close()


def test_newness_spans_the_best_matches() -> None:
    from chatmem.recall.rank import Candidate, newness, rerank

    def cand(mid: str, semantic: float, ts: int) -> Candidate:
        return Candidate(Message(id=mid, session_id="s", content=mid, ts=ts), semantic)

    pool = [cand("old", 0.9, 1_000), cand("new", 0.8, 4_600_000), cand("weak", 0.1, 9_000_000),
            cand("older", 0.2, 0)]
    # the span of the two best (ts 1000 .. 4.6e6): newer beyond it clips to 1, older to 0
    assert newness(pool, 2) == [0.0, 1.0, 1.0, 0.0]
    # an hour apart, a month ago: the half-life cannot tell them apart, newness can
    month = 30 * DAY
    ranked = rerank(pool, now_ms=4_600_000 + month, time_weight=0.45, half_life_days=90,
                    current_state=True, best=2)
    assert [r.message.id for r in ranked][:2] == ["new", "old"]
    plain = rerank(pool, now_ms=4_600_000 + month, time_weight=0.45, half_life_days=90)
    assert [r.message.id for r in plain][:2] == ["old", "new"]
    assert newness([cand("a", 0.5, 7)], 5) == [1.0] and newness([], 5) == []


@pytest.mark.parametrize("weight", [0.45, 0.0])
async def test_an_update_an_hour_later_wins_a_question_about_the_present(
        tmp_path: Path, weight: float) -> None:
    # off means newness off and the "moves" of rule 25 (a statement of change) too
    mem = await Memory.open(f"sqlite:///{tmp_path}/h.db", embedder=embedder(),
                            config={"search": {"time_weight_current": weight,
                                               "change_boost": 1.5 if weight else 1.0}})
    try:
        first = Message(session_id="g", content="the meetup point is the north bridge at 6",
                        ts=T0, speaker_id="lena")
        moved = Message(session_id="g", content="change: the meetup point moves to the "
                        "stadium east gate", ts=T0 + 3_600_000, speaker_id="lena")
        await mem.add([first, moved, *[Message(session_id=f"n{i}", content=t, ts=T0 + i)
                                       for i, t in enumerate(["pasta recipe", "dentist monday",
                                                              "train tickets"])]])
        await mem.flush()
        now = T0 + 40 * DAY
        hits = (await mem.recall("where is the meetup point now", top_k=2, scope="all",
                                 window=0, now=now)).hits
        # the default weights put the newer first; without them the closer wording wins
        assert hits[0].message.content == (moved if weight else first).content
    finally:
        await mem.close()


async def test_follow_replies_false_turns_it_off_for_one_call(tmp_path: Path) -> None:
    mem = await _store(tmp_path)
    try:
        hits = (await mem.recall(QUESTION, top_k=len(CHAT), scope="all", window=0,
                                 follow_replies=False)).hits
        off = [h.message.content for h in hits].index(ANSWER)
        assert await _rank_of_answer(mem) <= 2 < off
        with pytest.raises(InvalidInput, match="follow_replies"):
            await mem.recall(QUESTION, follow_replies="no")  # type: ignore[arg-type]
    finally:
        await mem.close()


def _turn(mid: str, role: str, content: str) -> Message:
    return Message(id=mid, session_id="s", content=content, ts=int(mid[1:]), role=role)


def test_on_a_question_about_one_side_the_window_counts_that_sides_turns() -> None:
    back = _turn("m1", "assistant", "did you tell the landlord?")
    answer = _turn("m2", "user", "yes, she keeps stalling")
    advice = _turn("m3", "assistant", "send her a dated note")
    after = [back, answer, advice, _turn("m4", "user", "ok"), _turn("m5", "user", "bye")]
    # any other question: the next ``window`` messages, whoever sent them
    assert reply_followers(after, 2) == after[:2]
    assert reply_followers(after, 2, 2) == after[:2]  # questions back only count by role
    # a question about the assistant's words: its next two turns, the user's left out
    assert reply_followers(after, 2, role="assistant") == [back, advice]
    assert reply_followers(after, 1, role="assistant") == [back]
    # ... and about the user's words: the user's next two
    assert reply_followers(after, 2, role="user") == [answer, after[3]]
    assert reply_followers(after, 0, role="assistant") == []
    assert reply_followers([], 2, 2, role="assistant") == []
    # up to ``insertions`` of the assistant's questions back do not count
    again = [back, answer, _turn("m3", "assistant", "since when？"), _turn("m4", "user", "monday"),
             _turn("m5", "assistant", "和她说过吗"), _turn("m6", "user", "说了"), advice]
    assert reply_followers(again, 2, role="assistant") == [back, again[2]]
    assert reply_followers(again, 2, 1, role="assistant") == [back, again[2], again[4]]
    assert reply_followers(again, 1, 3, role="assistant") == [back, again[2], again[4],
                                                              advice]
    # the user's questions are the topic, never skipped
    asks = [_turn("m1", "user", "what should I do?"), _turn("m2", "user", "any idea?"),
            _turn("m3", "user", "ok")]
    assert reply_followers(asks, 2, 2, role="user") == asks[:2]


#: One day of chat where the assistant asks back before it advises: the advice shares no
#: word with a later question about it, and comes three turns after the turn that does.
HEATER = [("user", "my water heater is broken, three days without a hot shower"),
          ("assistant", "did you tell the landlord?"),
          ("user", "yes, she keeps stalling"),
          ("assistant", "send her a dated note listing each missed repair deadline"),
          ("user", "ok will do")]
ADVICE = HEATER[3][1]


#: The advice asked about is the assistant's second reply, after a first that is no
#: question back (rule 31; before it, the two messages after the matched turn inherited:
#: the first reply and the user's answer).
DANCE = [("user", "my wife wants to go back to her dance class, is that ok"),
         ("assistant", "ask her physio first"),
         ("user", "the physio says yes, just nothing fast"),
         ("assistant", "start with slow numbers, half an hour at most, stop if her chest "
                       "feels tight"),
         ("user", "she is so happy")]


async def _heater(tmp_path: Path, config: dict[str, Any] | None = None,
                  day: list[tuple[str, str]] = HEATER) -> Memory:
    config = _without_sittings(config)
    mem = await Memory.open(f"sqlite:///{tmp_path}/w.db", embedder=embedder(), config=config)
    await mem.add([Message(session_id="d1", content=text, role=role, ts=T0 + i * 60_000,
                           speaker_id="bot" if role == "assistant" else "maya",
                           metadata={"shared": i in (0, 3)})
                   for i, (role, text) in enumerate(day)] + _unrelated() + [
        # other days, sharing a word with the questions: the pool's best five are the
        # matched turn and these, not the user's answer after the question back (the
        # assistant's advice there is 10 words or more, so it takes rule 7's boost too)
        Message(session_id=f"o{i // 2}", content=text, ts=T0 + (30 + i) * DAY,
                role="assistant" if i % 2 else "user")
        for i, text in enumerate([
            "my phone screen is broken",
            "a broken screen is a quick fix at the mall, most shops do it in an hour",
            "my bike chain is broken",
            "oil the bike chain weekly and wipe it down after every ride in the rain",
            "I forget to drink water",
            "keep a full bottle of water on your desk and refill it when you stand"])])
    await mem.flush()
    return mem


async def _rank(mem: Memory, query: str, text: str, **kw: Any) -> int:
    hits = (await mem.recall(query, top_k=20, scope="all", window=0, **kw)).hits
    return [h.message.content for h in hits].index(text)


async def test_the_advice_after_a_question_back_is_recalled(tmp_path: Path) -> None:
    """The question back and the advice are the assistant's two turns after the matched
    one: on a question about its words both inherit (rule 31); with a window of one
    turn, or on another question (two messages: the question back and its answer),
    the advice does not."""
    asked = "what did you suggest about my broken water heater"
    on = await _heater(tmp_path / "on")
    off = await _heater(tmp_path / "off", {"search": {"reply_window": 1}})
    try:
        assert await _rank(on, asked, ADVICE) <= 1
        assert await _rank(off, asked, ADVICE) > 3
        # only a question about the assistant's words counts the assistant's turns
        plain = "how long was my water heater broken"
        assert await _rank(on, plain, ADVICE) > 3
        # a filter that hides the question back and its answer still lets the advice
        # inherit from the matched turn
        shown = await on.recall(asked, top_k=2, scope="all", window=0,
                                filter={"message.shared": True})
        assert {h.message.content for h in shown.hits} == {HEATER[0][1], ADVICE}
    finally:
        await on.close()
        await off.close()


def test_on_a_question_about_one_side_the_other_sides_turns_all_lend() -> None:
    pool = [_sid("a1", 0.9, 1, "assistant"), _sid("u1", 0.8, 2), _sid("a2", 0.7, 3,
            "assistant"), _sid("u2", 0.6, 4), _sid("a3", 0.5, 5, "assistant"),
            _sid("u3", 0.4, 6), _sid("a4", 0.3, 7, "assistant"), _sid("u4", 0.2, 8)]
    ids = lambda parents: [s.message_id for s in parents]  # noqa: E731
    # the best three lend whatever is asked
    assert ids(reply_parents(pool, 3, None)) == ["a1", "u1", "a2"]
    # asked for the assistant's words: every later user turn lends too, in pool order
    assert ids(reply_parents(pool, 3, "assistant")) == ["a1", "u1", "a2", "u2", "u3", "u4"]
    # and the mirror
    assert ids(reply_parents(pool, 3, "user")) == ["a1", "u1", "a2", "a3", "a4"]
    # off: the best three only
    assert ids(reply_parents(pool, 3, "assistant", other_side=False)) == ["a1", "u1", "a2"]
    assert ids(reply_parents(pool, 20, "assistant")) == ids(pool)


DAD = [("user", "dad refused to move"),
       ("assistant", "ask what matters most to him and look for places that keep those")]
DAD_ADVICE = DAD[1][1]


async def _dad(tmp_path: Path, config: dict[str, Any] | None = None) -> Memory:
    mem = await Memory.open(f"sqlite:///{tmp_path}/d.db", embedder=embedder(),
                            config=_without_sittings(config))
    await mem.add([Message(session_id="d1", content=text, role=role, ts=T0 + i * 60_000)
                   for i, (role, text) in enumerate(DAD)] + _unrelated() + [
        # the user's own turns of other days, closer in words to the question: the
        # pool's best five, so the turn that raised it is further down
        Message(session_id=f"o{i}", content=f"handle dad when he refused to move the {thing}",
                ts=T0 + (30 + i) * DAY, role="user")
        for i, thing in enumerate(["sofa", "piano", "car", "bed", "boxes", "table"])])
    await mem.flush()
    return mem


async def test_the_advice_to_a_turn_outside_the_best_five_is_recalled(tmp_path: Path
                                                                    ) -> None:
    asked = "how did you suggest I handle dad when he refused to move"
    on = await _dad(tmp_path / "on")
    off = await _dad(tmp_path / "off", {"search": {"reply_other_side": False}})
    try:
        hits = [h.message.content for h in
                (await on.recall(asked, top_k=5, scope="all", window=0)).hits]
        assert hits[0] == DAD_ADVICE, hits
        hits = [h.message.content for h in
                (await off.recall(asked, top_k=5, scope="all", window=0)).hits]
        assert DAD_ADVICE not in hits, hits
        # a question that names neither side: the best five lend, as before
        plain = "dad refused to move, what now"
        assert [h.message.content for h in
                (await on.recall(plain, top_k=5, scope="all", window=0)).hits] == \
            [h.message.content for h in
             (await off.recall(plain, top_k=5, scope="all", window=0)).hits]
    finally:
        await on.close()
        await off.close()


@pytest.mark.parametrize("bad", [1, "yes", None])
def test_a_bad_reply_other_side_names_the_field(bad: object) -> None:
    with pytest.raises(ConfigError, match="reply_other_side"):
        Config.load({"search": {"reply_other_side": bad}})


GROUP = [("alice", "the boiler is broken again"), ("bob", "call the plumber tomorrow"),
         ("carol", "anyone seen my keys")]


async def _chat(tmp_path: Path, session: Session, config: dict[str, Any] | None = None
                ) -> Memory:
    mem = await Memory.open(f"sqlite:///{tmp_path}/c.db", embedder=embedder(),
                            config=_without_sittings(config))
    await mem.upsert_session(session)
    await mem.add([Message(session_id=session.id, content=text, speaker_id=who,
                           ts=T0 + i * 60_000) for i, (who, text) in enumerate(GROUP)]
                  + _unrelated())
    await mem.flush()
    return mem


async def _scores(mem: Memory) -> dict[str, float]:
    hits = (await mem.recall("is the boiler broken", top_k=20, scope="all", window=0)).hits
    return {h.message.content: h.semantic for h in hits}


@pytest.mark.parametrize("session", [
    Session(id="g", chat_type="group"), Session(id="g", group_id="G1"),
    Session(id="g", chat_type="Channel")])
async def test_reply_window_group_applies_to_group_chats_only(tmp_path: Path,
                                                            session: Session) -> None:
    assert session.is_group
    one = {"search": {"reply_window_group": 1}}
    group = await _chat(tmp_path / "group", session, one)
    private = await _chat(tmp_path / "private", Session(id="g", chat_type="private"), one)
    # unset (the default): a group chat has the same window as any other
    same = await _chat(tmp_path / "same", session)
    try:
        top = (await _scores(group))[GROUP[0][1]]
        # the next message is a reply in any chat
        for mem in (group, private, same):
            assert (await _scores(mem))[GROUP[1][1]] == pytest.approx(0.7 * top)
        # the one after it, in a group, is another member talking past the turn
        assert (await _scores(group)).get(GROUP[2][1], 0.0) < 0.3 * top
        assert (await _scores(private))[GROUP[2][1]] == pytest.approx(0.7 * top)
        assert (await _scores(same))[GROUP[2][1]] == pytest.approx(0.7 * top)
    finally:
        for mem in (group, private, same):
            await mem.close()


def test_what_counts_as_a_group_chat() -> None:
    assert not Session(id="p").is_group
    assert not Session(id="p", chat_type="private").is_group
    assert Session(id="g", chat_type="group").is_group
    assert Session(id="g", group_id="1001").is_group
