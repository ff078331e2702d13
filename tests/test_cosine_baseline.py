"""Each model's cosines on one scale before fusion (issue 12, :func:`chatmem.recall.fuse.
rescale`): multilingual-e5 gives unrelated texts ~0.8, all-MiniLM-L6-v2 ~0.13; blended
raw, e5's dense channel could hardly move a fused score."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.embedding.local import MODELS
from chatmem.errors import ConfigError
from chatmem.models import ScoredId
from chatmem.recall.fuse import REFERENCE_BASELINE, dense_only, fuse, rescale, score_fusion
from chatmem.testing import embedder


def _sid(mid: str, score: float) -> ScoredId:
    return ScoredId(mid, score, "m", "user", "s", 1)


def test_rescale_maps_the_baseline_to_the_reference_and_keeps_one() -> None:
    assert rescale(0.807, 0.807) == pytest.approx(REFERENCE_BASELINE)
    assert rescale(1.0, 0.807) == pytest.approx(1.0)
    assert rescale(0.5, None) == 0.5
    # the reference model is left as it is
    for c in (-0.2, 0.0, 0.135, 0.4, 0.9):
        assert rescale(c, REFERENCE_BASELINE) == pytest.approx(c)
    # monotone, and stretched for a model whose cosines crowd near the top
    xs = [0.7, 0.78, 0.8, 0.85, 0.9, 0.95]
    ys = [rescale(x, 0.807) for x in xs]
    assert ys == sorted(ys)
    assert ys[-1] - ys[0] > (xs[-1] - xs[0]) * 4


def test_the_registry_figures_and_the_reference_agree() -> None:
    assert MODELS["all-MiniLM-L6-v2"].cosine_baseline == REFERENCE_BASELINE
    e5 = MODELS["multilingual-e5-small"].cosine_baseline
    assert e5 is not None and 0.7 < e5 < 0.9


def test_a_compressed_model_can_outvote_a_weak_full_text_match() -> None:
    # e5-like cosines: "a" is clearly the better match (0.90 vs 0.80 where unrelated
    # texts score 0.8); "b" also has a weak full-text match
    dense = [_sid("a", 0.90), _sid("b", 0.80)]
    lexical = [_sid("b", 0.3)]
    raw = score_fusion(dense, lexical, trust=0.6, limit=5)
    assert raw[0].message_id == "b"  # raw: the dense gap (0.1) is worth 0.06
    mapped = score_fusion(dense, lexical, trust=0.6, limit=5, cosine_baseline=0.807)
    assert mapped[0].message_id == "a"
    # through fuse(), the same: the baseline is passed through
    via = fuse(dense, lexical, query="where", languages=("multilingual",), dense_weight=0.6,
               dense_weight_uncovered=0.15, limit=5, cosine_baseline=0.807)
    assert [s.message_id for s in via] == [s.message_id for s in mapped]
    # a lexical-only hit still gets the dense pool's floor on the same scale
    only = score_fusion(dense, [_sid("c", 1.0)], trust=0.6, limit=5, cosine_baseline=0.807)
    c = next(s for s in only if s.message_id == "c")
    assert c.score == pytest.approx(0.6 * rescale(0.80, 0.807) + 0.4)


@pytest.mark.parametrize("bad", [1.0, -0.1, "high", True])
def test_a_bad_baseline_names_the_field(bad: object) -> None:
    with pytest.raises(ConfigError, match="cosine_baseline"):
        Config.load({"hybrid": {"cosine_baseline": bad}})


QUERY = "a hotel room by the harbour"


async def _stored(path: Path, config: dict[str, Any] | None, texts: list[str]) -> Memory:
    """A real SQLite store holding ``texts`` in one session, indexed."""
    mem = await Memory.open(f"sqlite:///{path}", embedder=embedder(), config=config)
    await mem.add([Message(session_id="s", content=t, ts=1_700_000_000_000 + i)
                   for i, t in enumerate(texts)])
    await mem.flush()
    return mem


async def test_the_configured_baseline_reaches_the_fusion(tmp_path: Path) -> None:
    texts = ["the harbour hotel had a tiny room", "pasta with garlic for dinner",
             "train to leeds on friday", "the printer needs toner again"]
    scores = {}
    for name, cfg in (("model", None), ("set", {"hybrid": {"cosine_baseline": 0.5}})):
        mem = await _stored(tmp_path / f"{name}.db", cfg, texts)
        try:
            hits = (await mem.recall(QUERY, top_k=4, scope="all", window=0)).hits
            scores[name] = {h.message.content: h.semantic for h in hits}
        finally:
            await mem.close()
    assert scores["model"].keys() == scores["set"].keys()
    # a higher baseline stretches the dense part: the fused scores are not the same
    assert scores["model"] != pytest.approx(scores["set"])


def test_dense_only_puts_the_cosines_on_the_reference_scale() -> None:
    hits = [_sid("a", 0.95), _sid("b", 0.86), _sid("c", 0.70)]
    out = dense_only(hits, 0.807)
    assert [s.message_id for s in out] == ["a", "b", "c"]  # the order is kept
    assert out[0].score == pytest.approx(rescale(0.95, 0.807))
    assert out[1].score == pytest.approx(rescale(0.86, 0.807))
    assert out[2].score == 0.0  # below the baseline: clipped, as fusion's dense side
    # only the score changes
    assert [(s.message_id, s.model_id, s.role, s.session_id, s.ts) for s in out] == \
        [(s.message_id, s.model_id, s.role, s.session_id, s.ts) for s in hits]
    # the reference model, or one nobody measured: as they are
    assert dense_only(hits, REFERENCE_BASELINE) == hits
    assert dense_only(hits, None) == hits
    assert dense_only([], 0.807) == []


async def test_dense_only_recall_scores_on_the_reference_scale(tmp_path: Path) -> None:
    """``hybrid.enabled: false`` with a model whose unrelated texts score 0.5: the
    scores every later rule and ``min_score`` read are the mapped cosines, as the dense
    side of a fused score is (before this they were the raw cosines)."""
    texts = ["the harbour hotel had a tiny room", "a hotel by the harbour in june",
             "pasta with garlic for dinner", "train to leeds on friday"]
    query = QUERY
    seen = {}
    for name, baseline in (("raw", None), ("mapped", 0.5)):
        cfg = {"hybrid": {"enabled": False, "cosine_baseline": baseline},
               # no rule that adds scores: what is compared is the channel's own score
               "search": {"episode_share": 0.0, "reply_share": 0.0, "reply_share_cjk": 0.0}}
        mem = await _stored(tmp_path / f"{name}.db", cfg, texts)
        try:
            hits = (await mem.recall(query, top_k=4, scope="all", window=0)).hits
            seen[name] = {h.message.content: h.semantic for h in hits}
            if name == "mapped":  # min_score reads the same scale
                floor = rescale(0.5 + 1e-6, 0.5)
                kept = (await mem.recall(query, top_k=4, scope="all", window=0,
                                         min_score=floor)).hits
                assert {h.message.content for h in kept} == {
                    t for t, s in seen["mapped"].items() if s >= floor}
        finally:
            await mem.close()
    assert seen["raw"].keys() == seen["mapped"].keys()
    for text, cosine in seen["raw"].items():
        expected = min(1.0, max(0.0, rescale(cosine, 0.5)))
        assert seen["mapped"][text] == pytest.approx(expected)
