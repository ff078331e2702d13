"""Context expansion (F5): each hit with its neighbours, windows merged, known ids dropped."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from ..models import CONTROL_KINDS, DIRECTIVE_KINDS, Message
from .rank import Ranked


@dataclass(frozen=True)
class Snippet:
    """Consecutive messages of one session around one or more hits, in time order."""

    session_id: str
    messages: tuple[Message, ...]
    hit_ids: frozenset[str]
    score: float  # the best hit's final score


def merge_windows(hits: Sequence[Ranked], neighbours: Mapping[str, Sequence[Message]],
                  exclude_ids: Collection[str] = ()) -> list[Snippet]:
    """Merge each hit's window with overlapping or touching windows of the same session.

    ``neighbours[hit_id]`` holds the hit's neighbours from ``store.range``
    (already without control kinds and system records). Messages the caller
    already has (``exclude_ids``) are dropped; a snippet left empty vanishes.
    Snippets keep the order of their best hit.
    """
    groups: list[dict[str, Message]] = []
    group_hits: list[set[str]] = []
    group_score: list[float] = []
    where: dict[str, int] = {}  # message id -> group
    for hit in hits:
        assert hit.message.id is not None
        window = [*neighbours.get(hit.message.id, ()), hit.message]
        window = [m for m in window if m.kind not in CONTROL_KINDS | DIRECTIVE_KINDS
                  and m.role != "system"]
        touching = sorted({where[m.id] for m in window if m.id in where})
        if touching:
            g = touching[0]
            for other in touching[1:]:  # this window bridges earlier snippets
                groups[g].update(groups[other])
                group_hits[g] |= group_hits[other]
                for mid in groups[other]:
                    where[mid] = g
                groups[other] = {}
                group_hits[other] = set()
        else:
            g = len(groups)
            groups.append({})
            group_hits.append(set())
            group_score.append(hit.score)
        for m in window:
            assert m.id is not None
            groups[g][m.id] = m
            where[m.id] = g
        group_hits[g].add(hit.message.id)
    out = []
    for g, members in enumerate(groups):
        kept = [m for m in members.values() if m.id not in exclude_ids]
        if not kept or not (group_hits[g] - set(exclude_ids)):
            continue
        kept.sort(key=lambda m: (m.ts or 0, m.id or ""))
        out.append(Snippet(kept[0].session_id, tuple(kept), frozenset(group_hits[g]),
                           group_score[g]))
    return out
