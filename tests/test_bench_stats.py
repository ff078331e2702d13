"""The statistics ``bench/quality.py`` reports beside each figure (``bench/_metrics.py``):
the exact sign test of questions found and lost against a baseline, and the 95 %
interval of Hit@5 by resampling whole conversations."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))
from _metrics import cluster_interval, sign_test


def binomial_two_sided(found: int, lost: int) -> float:
    """The same test written the long way: every split of n as likely or less likely."""
    n = found + lost
    probs = [math.comb(n, i) / 2 ** n for i in range(n + 1)]
    observed = probs[found]
    return min(1.0, sum(p for p in probs if p <= observed + 1e-15))


@pytest.mark.parametrize("found,lost", [(13, 0), (0, 13), (4, 4), (3, 1), (7, 2), (1, 12),
                                        (10, 25), (1, 0)])
def test_sign_test_is_the_exact_two_sided_binomial(found: int, lost: int) -> None:
    assert sign_test(found, lost) == pytest.approx(binomial_two_sided(found, lost))


def test_sign_test_reads_both_directions_alike_and_nothing_moved_is_no_evidence() -> None:
    assert sign_test(0, 0) == 1.0
    assert sign_test(9, 2) == sign_test(2, 9)
    # 13 found and none lost is strong; 4 and 1 is not (a handful of questions either way)
    assert sign_test(13, 0) < 0.001
    assert sign_test(4, 1) > 0.3


def test_interval_holds_the_mean_and_is_reproducible() -> None:
    outcomes = [1.0, 1.0, 0.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0, 1.0]
    clusters = ["a", "a", "a", "b", "b", "c", "c", "d", "d", "d"]
    lo, hi = cluster_interval(outcomes, clusters) or (math.nan, math.nan)
    assert lo <= sum(outcomes) / len(outcomes) <= hi
    assert cluster_interval(outcomes, clusters) == (lo, hi)
    assert cluster_interval([], []) is None


def test_interval_widens_when_conversations_disagree() -> None:
    # the same 20 questions and the same mean (0.5): spread evenly over four
    # conversations, or two conversations where everything is found and two where nothing
    even = [1.0, 0.0] * 10
    even_clusters = [c for c in "abcd" for _ in range(5)]
    split = [1.0] * 10 + [0.0] * 10
    lo_e, hi_e = cluster_interval(even, even_clusters) or (0.0, 0.0)
    lo_s, hi_s = cluster_interval(split, even_clusters) or (0.0, 0.0)
    assert hi_s - lo_s > hi_e - lo_e
    assert (lo_s, hi_s) == (0.0, 1.0)


def test_interval_needs_a_cluster_for_every_outcome() -> None:
    with pytest.raises(ValueError):
        cluster_interval([1.0, 0.0], ["a"])
