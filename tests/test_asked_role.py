"""Whose words a question asks about (issue 12, :func:`chatmem.recall.query.role_cue`).

"What did you suggest for…" is answered by an assistant message; "what did I say
about…" by one of the user's. The words that say so leave the query the channels
search for, and the asked role's messages get ``search.asked_role_boost``. Real SQLite
files and the real pipeline; :class:`chatmem.testing.HashEmbeddingProvider` makes texts
that share words close and texts that share none far apart.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.errors import ConfigError
from chatmem.recall.query import asked_role, role_cue
from chatmem.recall.rank import content_length
from chatmem.recall.request import RecallRequest, plan
from chatmem.testing import embedder

T0 = 1_750_000_000_000
DAY = 86_400_000


@pytest.mark.parametrize("query", [
    "What did you suggest for my sister's bed?", "how did you tell me to ease into running",
    "what were your tips for sleeping during the day", "the routine you gave me for my back",
    "Why did you recommend a set price?", "what did the bot say to bring for the weather",
    "the assistant's tips for the trip", "what have you just suggested",
    "你之前教我用那个锅怎么弄晚饭来着", "睡不着那次你给了什么建议", "跟hr谈钱你怎么教我的",
    "刚养小猫要注意些什么，你当时说的", "宿舍吵的时候你有什么办法",
    "小助手给小杨的训练计划是怎样的", "您上次推荐的那家店叫什么",
    "小助手为什么让子涵选大一点的码", "你为啥让我先去试听",
    # "to me" between the subject and the verb: still the assistant who spoke
    "群里说话有啥讲究，你跟我说过", "你和我讲过的那个办法", "你之前对我提到的书",
    "小助手跟我说过的那家店",
    # as a model calling memory_recall writes it
    "assistant's advice about the water heater", "Assistant suggestions for the toast",
    "what did the assistant recommend for sleep", "助手之前给用户的建议",
    # the model speaking of itself: "I" is the assistant when "the user" is the listener
    "what did I tell the user about the trip", "what I recommended to the user for sleep",
    "did I suggest anything to the user about knees", "my advice to the user about sleep",
    "what did I say to the user yesterday", "我跟用户说过什么关于旅行的", "我之前告诉用户什么",
    "我给用户推荐过哪本书",
])
def test_questions_about_the_assistants_words(query: str) -> None:
    assert asked_role(query) == "assistant"


@pytest.mark.parametrize("query", [
    "what did I say when I first tried the chickpea dish", "I told you about my boss, right?",
    "我之前说过我住在哪个区来着", "你还记得我跟你说过的那家店吗",
    # as a model calling memory_recall writes it
    "what the user said about their sister visiting", "did the user mention a date",
    "the user's words about the new job", "用户之前说过的那家店", "用户提到的搬家时间",
])
def test_questions_about_the_users_words(query: str) -> None:
    assert asked_role(query) == "user"


@pytest.mark.parametrize("query", [
    "can you tell me about Paris", "do you remember the hotel", "where is your flat",
    "what should I eat at night", "你能帮我查一下吗", "我现在住在哪个城市", "谁说要带投影仪",
    "what did Alice suggest", "我让你记的那个号码是多少", "",
    # 我 as the object: someone else spoke, neither the user nor the assistant
    "他跟我说过啥", "老王和我说过的那家店",
    # someone's assistant, a user who is not the one asking
    "what did my assistant say about the schedule", "user reviews of the hotel",
    "the user count of the app", "用户量多少",
    # someone else told the user
    "他跟用户说过啥", "what did Alice tell the user",
])
def test_questions_that_do_not_say(query: str) -> None:
    assert asked_role(query) is None
    assert role_cue(query) == (None, query)


def test_the_cue_leaves_the_searched_text_and_a_named_bot_stays() -> None:
    role, text = role_cue("how did you say I should work out my pricing")
    assert role == "assistant" and "you" not in text.split() and "say" not in text.split()
    assert "pricing" in text
    role, text = role_cue("颈椎不舒服你教了啥")
    assert role == "assistant" and "你" not in text and "颈椎不舒服" in text
    role, text = role_cue("家长群里说话有啥讲究，你跟我说过")
    assert role == "assistant" and "你跟我说" not in text and "家长群" in text
    # in a group the bot is addressed by name, so its name is a word worth matching
    assert role_cue("what did the bot suggest for the walk") == (
        "assistant", "what did the bot suggest for the walk")
    # a question that is only the cue keeps its words (nothing else to search for)
    assert role_cue("did you suggest?") == ("assistant", "did you suggest?")


def test_the_plan_carries_the_role_and_the_searched_text() -> None:
    kw: dict[str, Any] = {"scope": "all", "clamped": False, "visibility": None, "where": None}
    p = plan(RecallRequest.of("what did you suggest for my sister's bed"), Config(), **kw)
    assert p.asked_role == "assistant"
    assert p.query == "what did you suggest for my sister's bed"
    assert p.search_text is not None and "suggest" not in p.search_text
    p = plan(RecallRequest.of("where is my flat"), Config(), **kw)
    assert p.asked_role is None and p.search_text == p.query


@pytest.mark.parametrize("bad", [0.5, -1, 11, "big"])
def test_a_bad_boost_names_the_field(bad: object) -> None:
    with pytest.raises(ConfigError, match="asked_role_boost"):
        Config.load({"search": {"asked_role_boost": bad}})


CHAT = [
    ("user", "my sister is visiting in april and I have no idea where her bed will be"),
    ("assistant", "get a decent air mattress with a built in pump"),
    ("user", "my sister loves the old bed in the attic"),
    ("assistant", "say hello to the cat from me"),
    # unrelated days: the pool a real store gives around the few that match
    ("user", "booked the dentist for monday morning"), ("assistant", "good luck at the dentist"),
    ("user", "the boiler makes a strange noise when it rains"),
    ("assistant", "call the landlord about the boiler"),
    ("user", "made pasta with too much garlic"), ("assistant", "garlic never hurt anyone"),
    ("user", "train tickets to leeds are bought"), ("assistant", "enjoy the trip north"),
]
QUESTION = "what did you suggest for my sister's bed"
ANSWER = "get a decent air mattress with a built in pump"


async def _store(tmp_path: Path, config: dict[str, Any] | None = None) -> Memory:
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=embedder(),
                            config=config)
    await mem.add([Message(session_id=f"d{i // 2}", content=text, role=role,
                           speaker_id="bot" if role == "assistant" else "maya",
                           ts=T0 + (i // 2) * DAY + (i % 2) * 60_000)
                   for i, (role, text) in enumerate(CHAT)])
    await mem.flush()
    return mem


async def test_the_assistants_answer_comes_first_when_its_words_are_asked_for(
        tmp_path: Path) -> None:
    on = await _store(tmp_path / "on")
    off = await _store(tmp_path / "off", {"search": {"asked_role_boost": 1.0}})
    try:
        hits = (await on.recall(QUESTION, top_k=3, scope="all", window=0)).hits
        assert hits[0].message.content == ANSWER
        assert hits[0].boost == pytest.approx(3.0)
        # the result reports the question as asked, not the searched text
        assert (await on.recall(QUESTION, top_k=1, scope="all")).query == QUESTION
        # without the boost the user's turns, which share the question's words, lead
        plain = (await off.recall(QUESTION, top_k=3, scope="all", window=0)).hits
        assert plain[0].message.role == "user"
        # a question that does not ask about anyone's words is ranked as before
        same = [h.message.content for h in (await on.recall(
            "my sister's bed", top_k=4, scope="all", window=0)).hits]
        assert same == [h.message.content for h in (await off.recall(
            "my sister's bed", top_k=4, scope="all", window=0)).hits]
    finally:
        await on.close()
        await off.close()


async def test_a_model_asking_what_it_told_the_user_gets_its_own_words(
        tmp_path: Path) -> None:
    """The ``memory_recall`` tool: a model writes "what did I tell the user…"; "I" is the
    assistant there (read as the user's words before, and the user's turns led)."""
    mem = await _store(tmp_path)
    try:
        result = await mem.call_tool(
            {"query": "what did I suggest to the user for the sister's bed", "top_k": 3},
            {"session_id": "d0"})
        first = result["hits"][0]
        assert first["role"] == "assistant"
        assert (await mem.get([first["id"]]))[first["id"]].content == ANSWER
    finally:
        await mem.close()


async def test_the_users_words_come_first_when_the_user_asks_what_they_said(
        tmp_path: Path) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/u.db", embedder=embedder())
    try:
        await mem.add([
            Message(session_id="a", content="the hotel by the harbour was lovely, you said",
                    role="assistant", ts=T0),
            Message(session_id="b", content="hotel harbour room was tiny", role="user",
                    ts=T0 + DAY),
            *(Message(session_id=f"n{i}", content=text, role=role, ts=T0 + (2 + i) * DAY)
              for i, (role, text) in enumerate(CHAT[4:]))])
        await mem.flush()
        question = "what did I say about the hotel by the harbour"
        hits = (await mem.recall(question, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.content == "hotel harbour room was tiny"
        mem.config = Config.load({"search": {"asked_role_boost": 1.0}})
        hits = (await mem.recall(question, top_k=2, scope="all", window=0)).hits
        assert hits[0].message.role == "assistant"  # more words in common
    finally:
        await mem.close()


@pytest.mark.parametrize(("text", "length"), [
    ("Perfect. Everyone will picture it.", 5), ("先别逼他说话，允许他用点头", 12),
    ("Vue学了一半", 5), ("ok 好的", 3), ("", 0), ("¡Hola! café", 2), ("don't", 2),
])
def test_content_length_counts_words_and_cjk_characters(text: str, length: int) -> None:
    assert content_length(text) == length


async def test_a_short_acknowledgement_is_not_the_advice_asked_about(tmp_path: Path) -> None:
    chat = [
        ("user", "my sister is visiting in april and I have no idea where her bed will be"),
        ("assistant", "oh how lovely"),
        ("user", "she stays five days"),
        ("assistant", "for five days an air bed with a built in pump is the least hassle "
                      "and it packs away after"),
        *CHAT[4:],
    ]
    mem = await Memory.open(f"sqlite:///{tmp_path}/a.db", embedder=embedder())
    try:
        await mem.add([Message(session_id="d", content=text, role=role, ts=T0 + i * 60_000)
                       for i, (role, text) in enumerate(chat)])
        await mem.flush()
        hits = [h for h in (await mem.recall(QUESTION, top_k=4, scope="all", window=0)).hits
                if h.message.role == "assistant"][:2]
        assert [h.message.content for h in hits] == [chat[3][1], "oh how lovely"]
        assert [h.boost for h in hits] == [pytest.approx(3.0), pytest.approx(1.0)]
        order = [h.message.content for h in
                 (await mem.recall(QUESTION, top_k=3, scope="all", window=0)).hits]
        assert order.index("oh how lovely") > order.index(chat[0][1])
        # every assistant turn boosted alike, the acknowledgement that inherits from the
        # matched turn takes the ×3 too and comes before that turn (since rule 31 the
        # advice, the assistant's second turn after it, inherits as much and leads)
        mem.config = Config.load({"search": {"asked_assistant_min_length": 0}})
        hits = (await mem.recall(QUESTION, top_k=3, scope="all", window=0)).hits
        assert [h.message.content for h in hits[:2]] == [chat[3][1], "oh how lovely"]
        assert hits[1].boost == pytest.approx(3.0)
    finally:
        await mem.close()


@pytest.mark.parametrize("bad", [-1, 1001, 2.5, "long", None])
def test_a_bad_min_length_names_the_field(bad: object) -> None:
    with pytest.raises(ConfigError, match="asked_assistant_min_length"):
        Config.load({"search": {"asked_assistant_min_length": bad}})
