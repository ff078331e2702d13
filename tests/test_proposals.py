"""On a question about the present, a message that itself asks ("Saturday 26
September?", "那要不2号到5号？") or reports a question ("my manager asked if I want to
switch", rule 29) is a proposal, not how things are (issue 12,
``search.current_question_factor``); on any query, the assistant's questions back
("How's the knee?") are not answers (``search.asked_back_factor``):
:func:`chatmem.recall.rank.is_question`, the ranking rules, then the real pipeline on a
real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.errors import ConfigError
from chatmem.recall.rank import Candidate, is_question, reports_question, rerank
from chatmem.testing import embedder
from world import UNRELATED

T0 = 1_750_000_000_000
DAY = 86_400_000


@pytest.mark.parametrize("text", [
    "Saturday 26 September?", "can we do the 3rd instead? I work that day",
    "那要不整体往后挪一天，2号到5号？", "还是4号走吗", "你们几点到？", "这样可以么~",
    "really?!", "晚饭吃什么",
])
def test_texts_that_ask(text: str) -> None:
    assert is_question(text)


@pytest.mark.parametrize("text", [
    "ok confirmed: Saturday 13 to Monday 15", "还是1号到4号不变", "吗啡过敏", "",
    "问了一下，呢子大衣到了", "还没到呢", "好嘛", "the form is at https://x.example/f?id=3",
])
def test_texts_that_do_not(text: str) -> None:
    assert not is_question(text)


@pytest.mark.parametrize("text", [
    "also my manager asked if I want to switch to night shifts permanently",
    "I'll ask if we can keep Monday as the last night instead, one sec",
    "she asked me whether I could cover Tuesday", "he's asking Dev if the kit is paid",
    "I'm going to ask whether the flat is still free", "房东又来问要不要装空调",
    "妹妹的妈妈问暑假能不能一周上三次", "下午问院长能不能早点入职", "老细问我使唔使加班",
    "佢問我要唔要搬", "房東又來問願不願意續租", "我問過有沒有車位",
])
def test_texts_that_report_a_question(text: str) -> None:
    assert reports_question(text)
    assert not is_question(text)  # no question mark: rule 12 alone missed them


@pytest.mark.parametrize("text", [
    # advice to ask is the assistant's advice, not a pending question
    "Ask if it's secured on your house", "calmly ask if bigger feedback could wait",
    "you should ask whether the deposit is protected", "remember to ask if it's included",
    "或者问问房东能不能换个朝里的房间", "一定问清能不能养狗",
    "ok I said yes to the night shifts", "she asked for the money back",
    "问题是没有车位", "能不能行我也不知道", "I asked around, no luck", "",
    "the form I was asked to fill in, if you need it",
])
def test_texts_that_do_not_report_one(text: str) -> None:
    assert not reports_question(text)


def _cand(mid: str, content: str, semantic: float, ts: int) -> Candidate:
    return Candidate(Message(id=mid, session_id="s", content=content, ts=ts), semantic)


def test_a_proposal_gives_way_to_a_statement_only_on_questions_about_the_present() -> None:
    pool = [_cand("said", "the party is on Friday 9 October", 0.7, 1_000),
            _cand("asked", "Saturday 3 October then?", 0.9, 2_000),
            _cand("other", "pasta recipe", 0.1, 0)]
    kw = {"now_ms": 3_000, "time_weight": 0.45, "half_life_days": 90.0}
    ranked = rerank(pool, current_state=True, question_factor=0.4, **kw)  # type: ignore[arg-type]
    assert [r.message.id for r in ranked][:2] == ["said", "asked"]
    assert ranked[1].boost == pytest.approx(0.4)
    # off (1), or not a question about the present: the better match wins
    for ranked in (rerank(pool, current_state=True, question_factor=1.0, **kw),  # type: ignore[arg-type]
                   rerank(pool, question_factor=0.4, **kw)):  # type: ignore[arg-type]
        assert [r.message.id for r in ranked][:2] == ["asked", "said"]
        assert ranked[0].boost == 1.0


@pytest.mark.parametrize(("state", "proposal", "ask"), [
    # a question mark (rule 12), a group chat: the proposal an hour after the state
    (Message(session_id="g", content="the team dinner is at the harbour", ts=T0,
             speaker_id="ana"),
     Message(session_id="g", content="is the team dinner now at the mill?",
             ts=T0 + 3_600_000, speaker_id="ben"),
     "where is the team dinner now"),
    # a reported question (rule 29): newer by a week, and its "move" takes rule 25
    (Message(session_id="w", content="I work nights at the Manchester office", ts=T0),
     Message(session_id="w",
             content="my manager asked if I want to move to nights at the Leeds office",
             ts=T0 + 7 * DAY),
     "which office do I work nights at now"),
])
async def test_the_statement_answers_what_the_plan_is_now(
        tmp_path: Path, state: Message, proposal: Message, ask: str) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/p.db", embedder=embedder())
    try:
        await mem.add([
            state, proposal,
            *(Message(session_id=f"n{i}", content=t, ts=T0 - (1 + i) * DAY)
              for i, t in enumerate(UNRELATED))])
        await mem.flush()
        now = T0 + 30 * DAY
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=now)).hits
        assert hits[0].message.content == state.content
        # without the rule the newer proposal wins the question about the present
        mem.config = Config.load({"search": {"current_question_factor": 1.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=now)).hits
        assert hits[0].message.content == proposal.content
    finally:
        await mem.close()


def test_a_reported_question_gives_way_like_a_question_mark() -> None:
    pool = [_cand("said", "I work at the Manchester office", 0.7, 1_000),
            _cand("asked", "my manager asked if I want to work at the Leeds office", 0.9,
                  2_000),
            _cand("other", "pasta recipe", 0.1, 0)]
    kw = {"now_ms": 3_000, "time_weight": 0.45, "half_life_days": 90.0}
    ranked = rerank(pool, current_state=True, question_factor=0.4, **kw)  # type: ignore[arg-type]
    assert [r.message.id for r in ranked][:2] == ["said", "asked"]
    assert {r.message.id: r.boost for r in ranked}["asked"] == pytest.approx(0.4)
    # not a question about the present: a report of a question may be what is asked
    ranked = rerank(pool, question_factor=0.4, asked_back_factor=0.4, **kw)  # type: ignore[arg-type]
    assert [r.message.id for r in ranked][:2] == ["asked", "said"]
    assert ranked[0].boost == 1.0


def test_the_assistants_question_back_gives_way_on_any_query() -> None:
    def cand(mid: str, content: str, role: str, semantic: float, ts: int) -> Candidate:
        return Candidate(Message(id=mid, session_id="s", content=content, ts=ts,
                                 role=role), semantic)
    pool = [cand("back", "How's the knee?", "assistant", 0.9, 2_000),
            cand("said", "clicks since I jumped off the trailer", "user", 0.7, 1_000),
            cand("mine", "is my knee ok?", "user", 0.8, 500),
            cand("other", "pasta recipe", "user", 0.1, 0)]
    kw = {"now_ms": 3_000, "time_weight": 0.1, "half_life_days": 90.0}
    ranked = rerank(pool, asked_back_factor=0.4, **kw)  # type: ignore[arg-type]
    assert [r.message.id for r in ranked][:3] == ["mine", "said", "back"]
    assert {r.message.id: r.boost for r in ranked}["back"] == pytest.approx(0.4)
    # the user's own question keeps its place; off (1), the question back wins
    ranked = rerank(pool, asked_back_factor=1.0, **kw)  # type: ignore[arg-type]
    assert ranked[0].message.id == "back"
    # on a question about the present the proposal rule decides, and it once only
    ranked = rerank(pool, current_state=True, question_factor=0.5,  # type: ignore[arg-type]
                    asked_back_factor=0.4, **kw)
    assert {r.message.id: r.boost for r in ranked}["back"] == pytest.approx(0.5)


async def test_the_answer_after_a_question_back_is_recalled(tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/b.db", embedder=embedder())
    try:
        await mem.add([
            Message(session_id="c", role="assistant", content="how did the knee get hurt?",
                    ts=T0),
            Message(session_id="c", role="user", content="jumped off the trailer",
                    ts=T0 + 60_000),
            *(Message(session_id=f"n{i}", content=t, ts=T0 - (1 + i) * DAY)
              for i, t in enumerate(UNRELATED))])
        await mem.flush()
        ask = "how did the knee get hurt"
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=T0 + DAY)).hits
        assert hits[0].message.content == "jumped off the trailer"
        mem.config = Config.load({"search": {"asked_back_factor": 1.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=T0 + DAY)).hits
        assert hits[0].message.content == "how did the knee get hurt?"
    finally:
        await mem.close()


@pytest.mark.parametrize("field", ["current_question_factor", "asked_back_factor"])
@pytest.mark.parametrize("bad", [-0.1, 1.5, "x"])
def test_a_bad_factor_names_the_field(field: str, bad: object) -> None:
    with pytest.raises(ConfigError, match=field):
        Config.load({"search": {field: bad}})
