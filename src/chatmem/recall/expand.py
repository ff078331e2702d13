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
    one pass instead of rendering each (1,000 hits: 15 s, the square of the hits)."""

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
        self._where: dict[str, int] = {}  # message id -> group
        self.shown = 0
        self.weight = 0
        self.blocks = 0

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

    def add(self, hit: Ranked, neighbours: Sequence[Message]) -> None:
        """Merge ``hit`` and its window into the snippets so far."""
        assert hit.message.id is not None
        window = [m for m in (*neighbours, hit.message)
                  if m.kind not in CONTROL_KINDS | DIRECTIVE_KINDS and m.role != "system"]
        touching = sorted({self._where[m.id] for m in window if m.id in self._where})
        if touching:
            g = touching[0]
            self._count(g, -1)
            for other in touching[1:]:  # this window bridges earlier snippets
                self._count(other, -1)
                for m in self._groups[other].values():
                    self._join(g, m)
                self._hits[g] |= self._hits[other]
                self._visible[g] = len(self._hits[g] - self._exclude)
                self._groups[other] = {}
                self._hits[other] = set()
                self._kept[other] = self._kept_weight[other] = self._visible[other] = 0
        else:
            g = len(self._groups)
            self._groups.append({})
            self._hits.append(set())
            self._score.append(hit.score)
            self._kept.append(0)
            self._kept_weight.append(0)
            self._visible.append(0)
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
