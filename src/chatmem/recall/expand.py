"""Context expansion (F5): each hit with its neighbours, windows merged, known ids dropped."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
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
    windows = Windows(exclude_ids)
    for hit in hits:
        windows.add(hit, neighbours.get(hit.message.id or "", ()))
    return windows.snippets()


class Windows:
    """:func:`merge_windows` one hit at a time, with running totals of what its
    snippets would show: :attr:`shown` messages, their :attr:`weight` (the sum of
    ``weight(message)``: the budget counts each message's rendered line) and
    :attr:`blocks` (snippets). The totals are kept as hits are added, so that the
    budget (:func:`chatmem.recall.budget.fit`) measures every prefix of the ranking in
    one pass instead of rendering each (1,000 hits: 15 s, the square of the hits).

    A window that bridges earlier snippets joins them into the first of them (its
    place and score), the smaller ones' messages moved into the largest one's, each
    group's totals added, and each message's group found through the groups merged
    (``_into``): moving the whole joined snippet into the first one each time, and
    pointing each of its messages there, cost the square of the hits for a ranking
    that bridges its snippets from the last to the first (999 hits with 10
    neighbours a side: 1.3 s per merge, 36 s per budget; ``python bench/windows.py``)."""

    def __init__(self, exclude_ids: Collection[str] = (),
                 weight: Callable[[Message], int] | None = None) -> None:
        self._exclude = frozenset(exclude_ids)
        self._weight = weight
        self._groups: list[dict[str, Message]] = []
        self._hits: list[set[str]] = []
        self._score: list[float] = []
        self._kept: list[int] = []  # per group: messages not excluded
        self._kept_weight: list[int] = []
        self._visible: list[int] = []  # per group: hits not excluded
        self._into: list[int] = []  # per group: itself, or a group it was merged into
        self._where: dict[str, int] = {}  # message id -> its group, or one merged since
        self.shown = 0
        self.weight = 0
        self.blocks = 0

    def _group(self, g: int) -> int:
        """The group that now holds what was group ``g`` (the paths halved on the way)."""
        into = self._into
        while into[g] != g:
            into[g] = into[into[g]]
            g = into[g]
        return g

    def _count(self, g: int, sign: int) -> None:
        """Add (1) or take away (-1) group ``g``'s part of the totals."""
        if self._kept[g] and self._visible[g]:
            self.shown += sign * self._kept[g]
            self.weight += sign * self._kept_weight[g]
            self.blocks += sign

    def _join(self, g: int, m: Message) -> None:
        assert m.id is not None
        if m.id not in self._groups[g] and m.id not in self._exclude:
            self._kept[g] += 1
            self._kept_weight[g] += self._weight(m) if self._weight else 0
        self._groups[g][m.id] = m
        self._where[m.id] = g

    def _merge(self, g: int, others: Sequence[int]) -> None:
        """Groups ``others`` (later than ``g``) joined into ``g``: the smaller message
        maps and hit sets moved into the largest, which then stands at ``g``. A message
        is in one group only, so the groups' counts add up; a hit may be named twice."""
        groups = [g, *others]
        members = max((self._groups[o] for o in groups), key=len)
        hits = max((self._hits[o] for o in groups), key=len)
        visible = next(self._visible[o] for o in groups if self._hits[o] is hits)
        for o in groups:
            if self._groups[o] is not members:
                members.update(self._groups[o])
            if self._hits[o] is not hits:
                visible += sum(1 for h in self._hits[o]
                               if h not in hits and h not in self._exclude)
                hits |= self._hits[o]
        self._kept[g] = sum(self._kept[o] for o in groups)
        self._kept_weight[g] = sum(self._kept_weight[o] for o in groups)
        self._groups[g], self._hits[g], self._visible[g] = members, hits, visible
        for o in others:
            self._groups[o] = {}
            self._hits[o] = set()
            self._kept[o] = self._kept_weight[o] = self._visible[o] = 0
            self._into[o] = g

    def add(self, hit: Ranked, neighbours: Sequence[Message]) -> None:
        """Merge ``hit`` and its window into the snippets so far."""
        assert hit.message.id is not None
        window = [m for m in (*neighbours, hit.message)
                  if m.kind not in CONTROL_KINDS | DIRECTIVE_KINDS and m.role != "system"]
        touching = sorted({self._group(self._where[m.id]) for m in window
                           if m.id in self._where})
        if touching:
            g = touching[0]
            for t in touching:
                self._count(t, -1)
            if len(touching) > 1:  # this window bridges earlier snippets
                self._merge(g, touching[1:])
        else:
            g = self._new(hit.score)
        self._take(g, hit, window)

    def _new(self, score: float) -> int:
        """A new group, empty, of a hit of ``score``."""
        g = len(self._groups)
        self._groups.append({})
        self._hits.append(set())
        self._score.append(score)
        self._kept.append(0)
        self._kept_weight.append(0)
        self._visible.append(0)
        self._into.append(g)
        return g

    def _take(self, g: int, hit: Ranked, window: Sequence[Message]) -> None:
        """``hit`` and its ``window`` into group ``g``, and ``g`` back in the totals."""
        assert hit.message.id is not None
        for m in window:
            self._join(g, m)
        if hit.message.id not in self._hits[g]:
            self._hits[g].add(hit.message.id)
            self._visible[g] += hit.message.id not in self._exclude
        self._count(g, 1)

    def snippets(self) -> list[Snippet]:
        """The snippets of the hits added so far, in the order of their best hit."""
        out = []
        for g, members in enumerate(self._groups):
            if not (self._kept[g] and self._visible[g]):
                continue
            kept = [m for m in members.values() if m.id not in self._exclude]
            kept.sort(key=lambda m: (m.ts or 0, m.id or ""))
            out.append(Snippet(kept[0].session_id, tuple(kept),
                               frozenset(self._hits[g]), self._score[g]))
        return out
