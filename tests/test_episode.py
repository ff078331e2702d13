"""Episodes (issue 12, rule 20, :mod:`chatmem.recall.episode`): a candidate gains a
share of the best other match of its sitting (its session, within
``search.episode_minutes``).

The pure function against a brute-force reading of its rule, and the real pipeline on a
real SQLite file with :class:`chatmem.testing.HashEmbeddingProvider` (texts that share
words are close): the answer of a sitting shares no word with the question, four turns
after the turn that matches it, past the reply window.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message
from chatmem.errors import ConfigError
from chatmem.models import ScoredId
from chatmem.recall.episode import episode_context
from chatmem.testing import embedder

T0 = 1_750_000_000_000
DAY = 86_400_000
MINUTE = 60_000


def _sid(mid: str, score: float, ts: int, session: str = "s") -> ScoredId:
    return ScoredId(mid, score, "m", "user", session, ts)


def test_a_candidate_gains_a_share_of_the_best_other_match_of_its_sitting() -> None:
    pool = [_sid("d", 0.9, 5 * MINUTE, "r"), _sid("a", 0.8, 0), _sid("c", 0.5, 180 * MINUTE),
            _sid("b", 0.3, 10 * MINUTE)]
    out = episode_context(pool, share=0.5, span_ms=60 * MINUTE)
    assert {s.message_id: round(s.score, 6) for s in out} == {
        "a": 0.95,  # + half of b, its sitting's other match
        "b": 0.7,   # + half of a
        "c": 0.5,   # three hours later: another sitting of the same session
        "d": 0.9,   # alone in its session, however close in time
    }
    assert [s.message_id for s in out] == ["a", "d", "b", "c"]
    # only the score changes
    assert {s.message_id: (s.model_id, s.role, s.session_id, s.ts) for s in out} == {
        s.message_id: (s.model_id, s.role, s.session_id, s.ts) for s in pool}


def test_share_zero_and_a_lone_candidate_keep_every_score() -> None:
    pool = [_sid("b", 0.3, 2), _sid("a", 0.8, 1)]
    assert episode_context(pool, share=0.0, span_ms=60 * MINUTE) == pool  # not even re-sorted
    assert episode_context(pool[:1], share=0.5, span_ms=60 * MINUTE) == pool[:1]
    assert episode_context([], share=0.5, span_ms=60 * MINUTE) == []
    # a sitting whose other matches score nothing lends nothing
    zero = [_sid("a", 0.8, 1), _sid("b", 0.0, 2)]
    assert [s.score for s in episode_context(zero, share=0.5, span_ms=MINUTE)] == [0.8, 0.4]


def test_on_a_question_about_one_side_only_that_side_borrows() -> None:
    """Rule 32: the other side's turns still lend, and never borrow."""
    pool = [ScoredId("u1", 0.8, "m", "user", "s", 0),
            ScoredId("a1", 0.3, "m", "assistant", "s", MINUTE),
            ScoredId("u2", 0.2, "m", "user", "s", 2 * MINUTE)]
    out = {s.message_id: round(s.score, 6) for s in
           episode_context(pool, share=0.5, span_ms=60 * MINUTE, role="assistant")}
    assert out == {"u1": 0.8, "a1": 0.7, "u2": 0.2}
    both = {s.message_id: round(s.score, 6) for s in
            episode_context(pool, share=0.5, span_ms=60 * MINUTE)}
    assert both == {"u1": 0.95, "a1": 0.7, "u2": 0.6}
    mine = {s.message_id: round(s.score, 6) for s in
            episode_context(pool, share=0.5, span_ms=60 * MINUTE, role="user")}
    assert mine == {"u1": 0.95, "a1": 0.3, "u2": 0.6}


def _brute_force(pool: list[ScoredId], share: float, span: int,
                 role: str | None = None) -> dict[str, float]:
    out = {}
    for s in pool:
        if role is not None and s.role != role:
            out[s.message_id] = s.score
            continue
        other = max((o.score for o in pool if o.message_id != s.message_id
                     and o.session_id == s.session_id and abs(o.ts - s.ts) <= span),
                    default=0.0)
        out[s.message_id] = s.score + share * other if other > 0 else s.score
    return out


@pytest.mark.parametrize("seed", range(40))
def test_the_range_maximum_agrees_with_the_rule_read_literally(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(2, 120)
    pool = [ScoredId(f"m{i}", rng.choice([0.0, rng.random(), -rng.random() / 4]), "m",
                     rng.choice(["user", "assistant"]), rng.choice("stu"),
                     rng.randint(0, 600) * MINUTE // rng.choice([1, 10]))
            for i in range(n)]
    share, span = rng.choice([0.1, 0.2, 1.0]), rng.choice([1, 30, 60, 300]) * MINUTE
    role = rng.choice([None, "user", "assistant"])
    out = episode_context(pool, share=share, span_ms=span, role=role)
    expected = _brute_force(pool, share, span, role)
    assert {s.message_id: s.score for s in out} == pytest.approx(expected)
    assert [s.message_id for s in out] == [
        s.message_id for s in sorted(out, key=lambda s: (-s.score, -s.ts, s.message_id))]


SITTING = [("user", "my daughter's art teacher wants her at the winter painting camp"),
           ("assistant", "how old is she, and does she want to go?"),
           ("user", "thirteen, and she is dying to go, twenty days for 680"),
           ("assistant", "a trial lesson first would show you how they teach"),
           ("user", "the trial went great, so we paid the rest"),
           ("user", "all booked, she goes in tomorrow morning")]
ANSWER = SITTING[-1][1]
# one message per session (each its own sitting), several sharing a word with the question
OTHERS = ["the camp site by the lake was lovely", "which day suits you for the dentist",
          "we began the new budget spreadsheet", "winter tyres are on the car now",
          "my painting of the harbour is finished", "the camp fire smelled great",
          "the day was long at work", "coffee with Sam on Friday", "the train was late again",
          "I need new running shoes", "the cat knocked a glass over",
          "pizza night with friends"]
QUESTION = "when did the painting camp start"


async def _camp(path: Path, config: dict[str, Any] | None = None,
                minutes_apart: int = 2) -> Memory:
    mem = await Memory.open(f"sqlite:///{path}", embedder=embedder(), config=config)
    await mem.add(
        [Message(session_id="d5", content=text, role=role,
                 ts=T0 + i * minutes_apart * MINUTE) for i, (role, text) in enumerate(SITTING)]
        + [Message(session_id=f"o{i}", content=text, role="user", ts=T0 + (i + 1) * DAY)
           for i, text in enumerate(OTHERS)])
    await mem.flush()
    return mem


async def _rank(mem: Memory, **kw: Any) -> int:
    hits = (await mem.recall(QUESTION, top_k=20, scope="all", window=0, **kw)).hits
    return [h.message.content for h in hits].index(ANSWER)


async def test_the_answer_of_a_matching_sitting_is_recalled(tmp_path: Path) -> None:
    on = await _camp(tmp_path / "on.db")
    off = await _camp(tmp_path / "off.db", {"search": {"episode_share": 0}})
    # the same sitting spread over an afternoon, with a span shorter than its gaps
    spread = await _camp(tmp_path / "spread.db", {"search": {"episode_minutes": 30}},
                         minutes_apart=45)
    try:
        off_rank = await _rank(off)
        assert off_rank >= 5           # not among the first five without the rule
        assert await _rank(on) < 3     # with it, among the first three
        # documents, not turns: neither replies nor sittings lend anything
        assert await _rank(on, follow_replies=False) == await _rank(off, follow_replies=False)
        assert await _rank(spread) == off_rank
    finally:
        for mem in (on, off, spread):
            await mem.close()


@pytest.mark.parametrize("bad", [{"episode_share": -0.1}, {"episode_share": 1.5},
                                 {"episode_share": "much"}, {"episode_minutes": 0},
                                 {"episode_minutes": 1.5}, {"episode_minutes": 10_081},
                                 {"episode_minutes": "an hour"}])
async def test_bad_episode_settings_name_the_field(tmp_path: Path,
                                                   bad: dict[str, Any]) -> None:
    with pytest.raises(ConfigError) as err:
        await Memory.open(f"sqlite:///{tmp_path}/x.db", embedder=embedder(),
                          config={"search": bad})
    assert f"search.{next(iter(bad))}" in str(err.value)
    assert not (tmp_path / "x.db").exists()
