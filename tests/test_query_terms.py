"""Query-side Chinese function characters and words (issue 12, :func:`chatmem.text.query_terms`)."""

from __future__ import annotations

from pathlib import Path

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.testing import embedder
from chatmem.text import CJK_QUERY_STOPCHARS, CJK_QUERY_STOPWORDS, query_terms, tokenize


def test_function_characters_and_words_leave_the_query_not_the_index() -> None:
    terms = query_terms("我上次说的那家店叫什么")
    for gone in ("我", "的", "说", "什么", "上次"):
        assert gone not in terms
    for kept in ("家店", "店", "家", "叫"):
        assert kept in terms
    # documents keep every token: the index is unchanged
    assert {"我", "的", "什么"} <= set(tokenize("我的什么"))


def test_a_query_of_only_function_words_keeps_them() -> None:
    assert query_terms("我") == ["我"]
    assert query_terms("的") == ["的"]
    # a bigram across two function characters is not in the word list: it stays
    assert query_terms("你呢") == ["你呢"]


def test_english_and_numbers_are_untouched() -> None:
    assert query_terms("what did I say about the 3月 trip") == \
        list(dict.fromkeys(tokenize("what did I say about the 3月 trip")))


def test_the_lists_hold_single_characters_and_two_character_words() -> None:
    assert all(len(c) == 1 for c in CJK_QUERY_STOPCHARS)
    assert all(len(w) == 2 for w in CJK_QUERY_STOPWORDS)


async def test_a_chinese_question_finds_its_answer_among_function_word_noise(tmp_path: Path
                                                                             ) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/q.db", embedder=embedder(),
                            config=Config.load({"hybrid": {"mode": "lexical"}}))
    try:
        noise = ["我的是你的吗", "他说了什么呢", "我们上次说的是这个", "你在哪里呀",
                 "那个是什么时候的事", "我也想说一下"]
        answer = "那家米线店叫阿香"
        await mem.add([Message(session_id=f"s{i}", content=t)
                       for i, t in enumerate([*noise, answer])])
        await mem.flush()
        res = await mem.recall("我上次说的那家店叫什么来着", top_k=1, window=0)
        assert [h.message.content for h in res.hits] == [answer]
    finally:
        await mem.close()
