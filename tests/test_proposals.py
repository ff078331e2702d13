"""On a question about the present, a message that itself asks ("Saturday 26
September?", "那要不2号到5号？") is a proposal, not how things are (issue 12,
``search.current_question_factor``): :func:`chatmem.recall.rank.is_question`, the
ranking rule, then the real pipeline on a real SQLite file."""

from __future__ import annotations

from pathlib import Path

import pytest

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.errors import ConfigError
from chatmem.recall.rank import Candidate, is_question, rerank
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


async def test_the_statement_answers_what_the_plan_is_now(tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/p.db", embedder=embedder())
    try:
        await mem.add([
            Message(session_id="g", content="the team dinner is at the harbour",
                    ts=T0, speaker_id="ana"),
            Message(session_id="g", content="is the team dinner now at the mill?",
                    ts=T0 + 3_600_000, speaker_id="ben"),
            *(Message(session_id=f"n{i}", content=t, ts=T0 - (1 + i) * DAY)
              for i, t in enumerate(UNRELATED))])
        await mem.flush()
        ask = "where is the team dinner now"
        now = T0 + 30 * DAY
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=now)).hits
        assert hits[0].message.content == "the team dinner is at the harbour"
        # without the rule the newer proposal wins the question about the present
        mem.config = Config.load({"search": {"current_question_factor": 1.0}})
        hits = (await mem.recall(ask, top_k=2, scope="all", window=0, now=now)).hits
        assert hits[0].message.content == "is the team dinner now at the mill?"
    finally:
        await mem.close()


@pytest.mark.parametrize("bad", [-0.1, 1.5, "x"])
def test_a_bad_factor_names_the_field(bad: object) -> None:
    with pytest.raises(ConfigError, match="current_question_factor"):
        Config.load({"search": {"current_question_factor": bad}})
