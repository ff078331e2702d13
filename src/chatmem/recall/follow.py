"""Replies inherit relevance (issue 12): a strong candidate lends part of its score to
the messages that follow it in its session.

Why: in a conversation the words of a later question usually match the turn that
*raised* a topic, not the turn that *answered* it. "What did you suggest for my
sister's bed?" matches "my sister is visiting, no idea where she'll sleep"; the
answer, "a decent air mattress with a built-in pump", shares no word and little
meaning with the question. The same holds for a user's reply to the assistant's
question ("What dish do you miss most?" → "her rajma chawal"). On the dev splits of
``bench/quality.py`` this was the commonest miss of every channel (dense, full
text and hybrid alike).

Rule (pure; :meth:`chatmem.Memory.run_recall` reads the followers from the store)::

    score(f) = max(own score of f, share · score(p))

for each of the ``parents`` best candidates ``p`` of the pool and each of the
``window`` messages ``f`` that follow ``p`` in its session (visible under the same
filters, and searchable: a tool output or an injected note is never a hit, F1). A
follower not in the pool joins it. ``share < 1`` keeps a reply just
below the turn it answers, so the pair shows up together rather than the reply
displacing its cause. ``share = 0`` turns the rule off.

Chosen on the dev splits only (``bench/quality.py``, README § Recall quality):
``share`` 0.6–0.8 and ``window`` 2 form a plateau; 0.7 sits in its middle.
``parents`` beyond 5 changed nothing there, nor did lowering the share of the second
follower below the first's (a falloff of 0.95 to 0.7 per step scored the same or
lower), so followers of one parent tie and the newer comes first.

**The asked side's turns** (:func:`reply_followers`, ``role``). On a question about
one side's words ("what did you suggest…", "你让我…" → the assistant's; "what did I
say…" → the user's: :func:`~chatmem.recall.query.asked_role`), the window counts that
side's turns, and only they inherit. In a one-to-one chat the two messages after a
turn are one reply of each side, and the other side's (rank's ``role_boost`` does not
lift it) is what the answer replies to, not the answer: "老伴说想回广场舞队了，你看行不"
→ "去之前最好问问康复门诊的大夫" → "大夫说可以，别跳快的" → "先跳慢节奏的，一回别超过半小时…",
where the advice asked about is the second reply. Chosen on the dev splits (against
two messages whatever their side, README § Recall quality, rule 31): one store per
conversation 3 found, 1 lost; ``--haystack`` 2 found, 2 lost; the other side's turns in
between inheriting too: 2 found, 1 lost; three of the asked side's turns: 2 found, 3
lost; one: 1 found, 6 lost. On questions about the user's words it moved nothing, and
it applies there too so that the rule reads the same both ways.

**Questions back** (``insertions``). Asked for advice, an assistant often asks back
before it answers: "the water heater's been broken three days" → "did you tell the
landlord?" → "yes, she keeps stalling" → the advice. Conversation analysis calls the
middle pair an insertion sequence. Counting the asked side's turns, the question back
and the advice are the window's two; ``search.reply_insertions`` (0) more of the
assistant's questions back may be left out of the count on a question about its words
(1 or 2: 2 found, 3 lost on dev against 0). Before rule 31, the window counted every
message and two such pairs were skipped (rule 19: dev 6 found against none).

**Group chats** (``search.reply_window_group``, off by default). After a turn in a
group, the next messages are as often other members talking past it as replies to it
("the boiler is broken again" → "call the plumber tomorrow" → "anyone seen my keys"),
so a shorter window may be set there (:attr:`chatmem.models.Session.is_group`; the
caller reads the parents' sessions). 1 found 4 dev questions and lost 1 against 2
(group_en 0.908 → 0.938, group_zh 0.875 → 0.891; 0 found 7 and lost 4), but on
validation it found 2 and lost 2 with one conversation per store, and found 1 and lost
2 with every conversation of a split in one store (where group_en fell below the dense
channel alone), so the default keeps one window everywhere (README § Recall quality,
"One follower in group chats").
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..models import Message, ScoredId
from .fuse import pool_order
from .rank import is_question


def reply_followers(after: Sequence[Message], window: int, insertions: int = 0,
                    role: str | None = None) -> list[Message]:
    """The messages of ``after`` (those following a candidate, in order) that inherit.

    ``role`` ``None``: the first ``window`` of them. Otherwise (a question about that
    side's words) the first ``window`` of that role's messages, the others left out;
    with ``role`` ``"assistant"``, up to ``insertions`` of its messages that ask
    (:func:`~chatmem.recall.rank.is_question`) inherit without counting towards the
    window. ``after`` should hold enough messages for the window (about
    ``2 × (window + insertions)`` in a one-to-one chat)."""
    if role is None:
        return list(after[:max(window, 0)])
    kept: list[Message] = []
    budget, skipped = window, 0
    for msg in after:
        if budget <= 0:
            break
        if msg.role != role:
            continue
        kept.append(msg)
        if role == "assistant" and skipped < insertions and is_question(msg.content):
            skipped += 1
        else:
            budget -= 1
    return kept


def reply_parents(pool: Sequence[ScoredId], best: int, asked_role: str | None, *,
                  other_side: bool = True) -> list[ScoredId]:
    """The candidates of ``pool`` (best first) whose replies inherit: the ``best`` first,
    and on a question about one side's words (``asked_role``) with ``other_side``, every
    later candidate of the other side too, in pool order.

    Why: asked "how did you suggest I handle Dad when he flat out refused to move?",
    the user's turn that raised it ("he says he's not leaving the bungalow till they
    carry him out in a box") is in the pool but not among its best five, so the advice
    right after it inherited nothing; and after rule 7 (×3 for the assistant's words)
    that turn cannot win on its own either. On such a question a turn of the other
    side is rarely the answer: it is what the answer replies to. Chosen on the dev
    splits (``bench/quality.py``): the user's candidates as parents too, up to 8, 10,
    15 or 20 parents in all (the pool's size), found 2 questions and lost none; the
    same for the assistant's candidates on questions about the user's words moved
    nothing, and is kept so that the rule reads the same both ways (README § Recall
    quality, rule 23)."""
    parents = list(pool[:best])
    other = _OTHER_SIDE.get(asked_role or "") if other_side else None
    if other is not None:
        parents += [s for s in pool[best:] if s.role == other]
    return parents


#: The side whose turns raise what the other side's words answer.
_OTHER_SIDE = {"assistant": "user", "user": "assistant"}


def follow_replies(pool: Sequence[ScoredId], followers: Mapping[str, Sequence[Message]],
                   *, share: float) -> list[ScoredId]:
    """The pool with each parent's followers scored ``share ×`` the parent's score.

    ``followers`` maps a parent's message id to the messages after it (already
    filtered for visibility). The result is sorted best first with the pool's tie
    break (score, newer, id); its length is the pool's plus the followers that were
    not in it."""
    by_id = {s.message_id: s for s in pool}
    lent: dict[str, ScoredId] = {}
    for parent in pool:
        for f in followers.get(parent.message_id, ()):
            if f.id is None or f.ts is None or f.id == parent.message_id \
                    or not f.indexable:  # F1: what is never searchable is never a hit
                continue
            score = share * parent.score
            best = lent.get(f.id)
            if best is None or score > best.score:
                # the follower's score is measured in its parent's model space
                lent[f.id] = ScoredId(f.id, score, parent.model_id, f.role, f.session_id,
                                      f.ts)
    out = dict(by_id)
    for mid, s in lent.items():
        own = by_id.get(mid)
        if own is None or s.score > own.score:
            out[mid] = s if own is None else ScoredId(
                mid, s.score, own.model_id, own.role, own.session_id, own.ts)
    ranked = list(out.values())
    ranked.sort(key=pool_order)
    return ranked


__all__ = ["follow_replies", "reply_followers", "reply_parents"]
