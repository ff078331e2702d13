"""Episodes (issue 12, rule 20): a candidate whose sitting also matches the question
gains a share of the best other match of that sitting.

Why: one sitting of a conversation (a day's chat with a companion, a burst of a
group chat) keeps to a few topics, and the question's words often land on the turns
around the one that answers it rather than on that turn itself. "孩儿寒假那回学画是
哪天开始上课的" matches "俺孩儿美术老师说叫他寒假去画室集训" and the talk about the
course; the answer, "报上了明个就开班", shares no word and little meaning with it, three
turns on, past the reply window (:mod:`.follow`). A message that answers nothing
asked, alone in its sitting, keeps its score; one among several matches of its
sitting moves up.

Rule (pure; :meth:`chatmem.Memory.run_recall` applies it to each pool tier after the
replies inherit, before reranking)::

    score(c) = own score of c + share · max(score(o))

over the other candidates ``o`` of the pool in ``c``'s session whose time is within
``span_ms`` of ``c``'s. Only the pool is read: a sitting counts as far as the search
found it, and no store read is added. ``share = 0`` turns the rule off.

Chosen on the dev splits only (``bench/quality.py``; lab runs outside the repository):
``share`` 0.15 / 0.2 / 0.25 / 0.3 gave a dev mean Hit@5 over the seven sets of 0.890 /
0.891 / 0.888 / 0.886 against 0.871 without the rule (0.2: 16 questions found, 3 lost;
with every conversation of a split in one store, 0.831 → 0.849), updates level (46 of
59). The mean of the best two others instead of the best one scored the same or lower.
The span does not matter where a session is one sitting (every companion-chat session
of the sets lasts under 25 minutes): 15 minutes to 24 hours score the same on dev; 6
minutes loses a question in the group chats, where one session runs for weeks in
bursts; a week (nearly the whole session) moves them +1 −1. An hour, one sitting, is
the setting (README § Recall quality, rule 20).

**On a question about one side's words** (``role``: "what did you suggest…" → the
assistant's, :func:`~chatmem.recall.query.asked_role`) only that side's candidates
borrow; every candidate still lends. The other side's turns are what the answer
replies to, not the answer, as with the replies (:mod:`.follow`, rule 31): raised by
their sitting they only crowd the asked side's messages. Chosen on dev (README § Recall
quality, rule 32): 1 question found and none lost with one store per conversation, 1
and none with ``--haystack``.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from ..models import ScoredId
from .fuse import pool_order


def _range_max(values: Sequence[float]) -> list[list[float]]:
    """A sparse table: ``table[j][i]`` is the largest of ``values[i:i + 2**j]``."""
    table = [list(values)]
    width = 1
    while 2 * width <= len(values):
        prev = table[-1]
        table.append([max(prev[i], prev[i + width]) for i in range(len(prev) - width)])
        width *= 2
    return table


def _max_of(table: list[list[float]], lo: int, hi: int) -> float:
    """The largest value of ``values[lo:hi]`` (0 when empty), in constant time."""
    if hi <= lo:
        return 0.0
    level = (hi - lo).bit_length() - 1
    return max(table[level][lo], table[level][hi - (1 << level)])


def episode_context(pool: Sequence[ScoredId], *, share: float, span_ms: int,
                    role: str | None = None) -> list[ScoredId]:
    """The pool with each candidate's score raised by ``share ×`` the best score among
    the other candidates of its session within ``span_ms`` of it (with ``role``, only
    that role's candidates are raised); sorted best first with the pool's tie break
    (score, newer, id). ``share`` 0 → the pool as it is (off means exactly the order
    without the rule).

    O(n log n) in the pool's size: per session, candidates sorted by time and a range
    maximum on each side of the candidate."""
    if share <= 0 or len(pool) < 2:
        return list(pool)
    sessions: dict[str, list[ScoredId]] = {}
    for s in pool:
        sessions.setdefault(s.session_id, []).append(s)
    out: list[ScoredId] = []
    for members in sessions.values():
        members.sort(key=lambda s: (s.ts, s.message_id))
        times = [s.ts for s in members]
        table = _range_max([s.score for s in members])
        for i, s in enumerate(members):
            if role is not None and s.role != role:
                out.append(s)
                continue
            lo = bisect_left(times, s.ts - span_ms)
            hi = bisect_right(times, s.ts + span_ms)
            other = max(_max_of(table, lo, i), _max_of(table, i + 1, hi))
            # the constructor, not dataclasses.replace: the hot path, as in .fuse
            out.append(s if other <= 0 else ScoredId(
                s.message_id, s.score + share * other, s.model_id, s.role, s.session_id,
                s.ts))
    out.sort(key=pool_order)
    return out


__all__ = ["episode_context"]
