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
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from ..models import Message, ScoredId


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
    ranked.sort(key=lambda s: (-s.score, -s.ts, s.message_id))
    return ranked


__all__ = ["follow_replies"]
