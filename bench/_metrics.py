"""Retrieval metrics and recall variants shared by the quality benchmarks.

One definition of each metric, so that LoCoMo, zh_chat and mem0_side report the
same thing under the same name:

* ``hit@k``: the question counts 1 when any gold message is among the first k;
* ``recall@k``: the share of its gold messages among the first k;
* ``all@k`` (when asked for): 1 when every gold message is among the first k.

Scores are kept per question and grouped (a LoCoMo category, a zh_chat question
type); a summary is the *micro* mean over the questions of a group, and
:meth:`RankScores.macro` the mean over groups.

Variants are literal configuration mappings, nothing guessed from field names.
"""

from __future__ import annotations

import copy
import math
import random
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

KS = (1, 5, 10, 20)

#: The recall channels, as configuration overrides (README § Hybrid recall).
VARIANTS: dict[str, dict[str, Any]] = {
    "dense": {"hybrid": {"enabled": False}},
    "lexical": {"hybrid": {"mode": "lexical"}},
    "hybrid": {},  # the default configuration
    "hybrid-rrf": {"hybrid": {"fusion": "rank"}},
}


def deep_merge(base: Mapping[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    """``base`` with ``extra`` laid over it, nested mappings merged (both unchanged)."""
    out = copy.deepcopy(dict(base))
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(out.get(key), Mapping):
            out[key] = deep_merge(out[key], value)
        else:
            out[key] = copy.deepcopy(value)
    return out


def variant_overrides(name: str) -> dict[str, Any]:
    """The configuration overrides of one channel variant (``dense``, ``lexical``, …)."""
    if name not in VARIANTS:
        raise SystemExit(f"unknown variant {name!r}: use one of {sorted(VARIANTS)}")
    return copy.deepcopy(VARIANTS[name])


def question_metrics(gold: Iterable[str], found_at: Mapping[int, set[str]], *,
                     ks: Sequence[int] = KS, all_k: bool = False) -> dict[str, float]:
    """The metrics of one question; ``found_at[k]`` holds the ids the first k made
    visible (the first k hits, or those hits with their context windows)."""
    gold_set = set(gold)
    if not gold_set:
        raise ValueError("a question needs at least one gold message")
    out: dict[str, float] = {}
    for k in ks:
        got = gold_set & found_at[k]
        out[f"hit@{k}"] = float(bool(got))
        out[f"recall@{k}"] = len(got) / len(gold_set)
        if all_k:
            out[f"all@{k}"] = float(got == gold_set)
    return out


class RankScores:
    """Per-question metrics in groups, summarised per group, overall and as a macro mean."""

    def __init__(self, ks: Sequence[int] = KS) -> None:
        self.ks = tuple(ks)
        self.rows: dict[Any, list[dict[str, float]]] = defaultdict(list)

    def add(self, group: Any, gold: Iterable[str], found_at: Mapping[int, set[str]], *,
            all_k: bool = False) -> dict[str, float]:
        row = question_metrics(gold, found_at, ks=self.ks, all_k=all_k)
        self.rows[group].append(row)
        return row

    def add_ranked(self, group: Any, gold: Iterable[str], ranked: Sequence[str], *,
                   all_k: bool = False) -> dict[str, float]:
        return self.add(group, gold, {k: set(ranked[:k]) for k in self.ks}, all_k=all_k)

    @staticmethod
    def _mean(rows: Sequence[dict[str, float]]) -> dict[str, float] | None:
        if not rows:
            return None
        keys = [k for k in rows[0] if all(k in r for r in rows)]
        return {"n": len(rows), **{k: sum(r[k] for r in rows) / len(rows) for k in keys}}

    def group(self, name: Any) -> dict[str, float] | None:
        """Micro mean of one group, with its question count ``n``; None when empty."""
        return self._mean(self.rows.get(name, []))

    def overall(self) -> dict[str, float] | None:
        """Micro mean over every question of every group."""
        return self._mean([r for rows in self.rows.values() for r in rows])

    def macro(self, groups: Sequence[Any] | None = None) -> dict[str, float]:
        """Mean over ``groups`` (default: all) of each group's micro mean."""
        per = [g for g in (self.group(x) for x in (groups if groups is not None
                                                    else sorted(self.rows))) if g is not None]
        if not per:
            return {}
        out: dict[str, float] = {"n": sum(p["n"] for p in per), "categories": len(per)}
        for key in per[0]:
            if key != "n" and all(key in p for p in per):
                out[key] = sum(p[key] for p in per) / len(per)
        return out

    def by_group(self) -> dict[str, dict[str, float] | None]:
        return {str(g): self.group(g) for g in sorted(self.rows, key=str)}


def metric_cols(d: Mapping[str, float], ks: Sequence[int] = KS) -> list[Any]:
    """Table cells: Recall@k then Hit@k for each k (NaN when missing)."""
    return [d.get(f"recall@{k}", float("nan")) for k in ks] + \
        [d.get(f"hit@{k}", float("nan")) for k in ks]


def metric_header(ks: Sequence[int] = KS) -> list[str]:
    return [f"R@{k}" for k in ks] + [f"H@{k}" for k in ks]


def sign_test(found: int, lost: int) -> float:
    """Two-sided exact sign test (McNemar's exact test) of ``found`` against ``lost``
    discordant questions: the chance of a split at least this uneven if a change
    found and lost questions equally often. 1.0 when nothing moved."""
    n = found + lost
    if n == 0:
        return 1.0
    k = min(found, lost)
    tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)
    return min(1.0, 2.0 * tail)


def cluster_interval(outcomes: Sequence[float], clusters: Sequence[str], *,
                     rounds: int = 2000, seed: int = 0) -> tuple[float, float] | None:
    """A 95 % percentile interval of the mean of ``outcomes`` by resampling whole
    clusters (conversations) with replacement.

    Questions of one conversation are not independent (one hard conversation sinks
    many), so resampling single questions would draw the interval too narrow; with
    the few conversations of a split this one is wide, and that is the point: it is
    how far a figure can move on conversations like these. ``None`` without data.
    """
    if not outcomes:
        return None
    groups: dict[str, list[float]] = defaultdict(list)
    for value, cluster in zip(outcomes, clusters, strict=True):
        groups[cluster].append(value)
    sums = [(sum(v), len(v)) for v in groups.values()]
    rng = random.Random(seed)
    means = []
    for _ in range(rounds):
        draw = [sums[rng.randrange(len(sums))] for _ in sums]
        means.append(sum(s for s, _ in draw) / sum(n for _, n in draw))
    means.sort()
    return means[int(0.025 * (rounds - 1))], means[int(0.975 * (rounds - 1))]
