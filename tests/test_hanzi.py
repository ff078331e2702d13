"""Cue words in traditional characters and in Cantonese (issue 12, rule 26): a question
in either script, or in Cantonese, asks what its simplified Mandarin twin asks, and a
message answers the same. The folding, the cue functions, then a real SQLite file."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from chatmem import Memory, Message
from chatmem.recall import query, rank
from chatmem.recall.hanzi import TRADITIONAL_TO_SIMPLIFIED, fold_traditional
from chatmem.recall.query import question_kinds, role_cue
from chatmem.recall.rank import is_question, mentions_time, states_change, states_quantity
from chatmem.testing import embedder
from world import UNRELATED

T0 = 1_750_000_000_000
DAY = 86_400_000


def _pattern_characters() -> set[str]:
    """Every CJK character of the compiled cue patterns of ``query`` and ``rank``."""
    chars: set[str] = set()
    for module in (query, rank):
        for value in vars(module).values():
            if isinstance(value, re.Pattern):
                chars |= set(re.findall(r"[\u4e00-\u9fff]", value.pattern))
    return chars


def test_the_folding_maps_one_character_to_one() -> None:
    text = "你之前讓我怎麼勸我爸？現在還是週五見, ok"
    folded = fold_traditional(text)
    assert len(folded) == len(text)
    # 見 is no cue's character: only the cue patterns' characters are folded
    assert folded == "你之前让我怎么劝我爸？现在还是周五見, ok"
    assert all(len(t) == 1 and len(s) == 1 and t != s
               for t, s in TRADITIONAL_TO_SIMPLIFIED.items())


def test_the_table_keeps_in_step_with_the_patterns() -> None:
    # an entry no pattern reads would be dead weight; a pattern character without its
    # traditional form would not be found in a traditional question (checked below)
    unused = set(TRADITIONAL_TO_SIMPLIFIED.values()) - _pattern_characters()
    assert not unused, f"table entries no cue pattern uses: {sorted(unused)}"


@pytest.mark.parametrize(("traditional", "simplified"), [
    ("我現在住在哪個城市", "我现在住在哪个城市"),
    ("我們什麼時候搬家", "我们什么时候搬家"),
    ("這幾天還在下雨嗎", "这几天还在下雨吗"),
    ("一開始說的是哪天", "一开始说的是哪天"),
    ("最後報了幾個班", "最后报了几个班"),
    ("你當時讓我怎麼做", "你当时让我怎么做"),
    ("我跟你說過我的生日嗎", "我跟你说过我的生日吗"),
    ("我哪一天第一次見到他", "我哪一天第一次见到他"),
    ("房租多少錢", "房租多少钱"),
])
def test_a_traditional_question_asks_what_its_simplified_twin_asks(
        traditional: str, simplified: str) -> None:
    assert question_kinds(traditional) == question_kinds(simplified)
    assert role_cue(traditional)[0] == role_cue(simplified)[0]


def test_the_cue_words_are_cut_from_the_users_own_characters() -> None:
    role, rest = role_cue("你之前讓我怎麼勸我爸")
    assert role == "assistant"
    assert rest == " 怎麼勸我爸"  # not "怎么劝我爸": the channels search what was written


@pytest.mark.parametrize(("question", "kind"), [
    ("我而家個檔口每個月租金幾多", "current_state"), ("依家边个帮我睇档", "current_state"),
    ("最尾揀咗边间", "current_state"), ("我哋几时去饮茶", "when"), ("边日搬屋", "when"),
    ("件衫几钱", "quantity"), ("俊仔考第几", "quantity"), ("终于定了哪家", "current_state"),
    ("你最先叫我咋个对他", "earliest"), ("哪年结的婚", "when"), ("补习班礼拜几上课", "when"),
])
def test_cantonese_and_mandarin_cue_words(question: str, kind: str) -> None:
    assert getattr(question_kinds(question), kind)


@pytest.mark.parametrize(("question", "role"), [
    ("同阿芬嘈完，你出咗咩主意", "assistant"), ("你嗰阵话我应该点做", "assistant"),
    ("你出了什么主意", "assistant"), ("我同你讲过我阿妈嘅事", "user"),
    ("佢同你讲过乜嘢", None),  # 你 after 同 is the one spoken to, not the speaker
])
def test_cantonese_whose_words(question: str, role: str | None) -> None:
    assert role_cue(question)[0] == role


@pytest.mark.parametrize(("question", "kind"), [
    ("这学期几门课", "when"), ("以后日子怎么过", "when"), ("我现在住哪", "earliest"),
])
def test_what_the_new_words_do_not_catch(question: str, kind: str) -> None:
    assert not getattr(question_kinds(question), kind)


def test_messages_are_read_in_either_script_and_in_cantonese() -> None:
    assert mentions_time("週五晚上見") and mentions_time("听日去饮茶")
    assert mentions_time("下个礼拜再讲") and mentions_time("今朝管理处贴通知")
    assert not mentions_time("以后日子好过了")
    assert states_quantity("我接兩個人") and states_change("集合點改到東門")
    assert is_question("你好嗎") and is_question("佢系咩人咩")
    assert not is_question("佢讲咗咩都唔记得")


async def test_a_traditional_question_gets_the_same_ranking_as_a_simplified_one(
        tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/w.db", embedder=embedder())
    try:
        await mem.add([
            Message(session_id="a", role="user", content="我爸不肯搬家", ts=T0),
            Message(session_id="a", role="assistant", content="先聽聽他為什麼不想搬",
                    ts=T0 + 60_000),
            *(Message(session_id=f"n{i}", content=t, ts=T0 + (1 + i) * DAY)
              for i, t in enumerate(UNRELATED))])
        await mem.flush()
        for ask in ("你之前讓我怎麼勸我爸搬家", "你之前让我怎么劝我爸搬家"):
            hits = (await mem.recall(ask, top_k=2, scope="all", window=0)).hits
            assert hits[0].message.role == "assistant", ask
            assert hits[0].boost == pytest.approx(mem.config.search.asked_role_boost), ask
    finally:
        await mem.close()
