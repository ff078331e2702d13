"""A recall as asked (:class:`RecallRequest`) and as it will run (:class:`RecallPlan`).

Every caller — ``Memory.recall``, the ``memory_recall`` tool, the HTTP API, the
CLI — builds one :class:`RecallRequest`; :meth:`RecallRequest.of` checks each
argument once, with errors naming it. :func:`plan` resolves a request against
the configuration and the effective scope into the numbers and filters the
stages use (F4): query text, ``top_k``, candidate pool, floor, window, visibility.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from ..chat_format import MESSAGE_FIELDS, OPENAI_FIELDS, to_message, turn_messages
from ..config import (
    MAX_TOP_K,
    MIN_SCORE_TAKES,
    TOP_K_TAKES,
    Config,
    SearchConfig,
    Window,
    normalize_scope,
)
from ..errors import FilterError, InvalidInput
from ..models import (
    MAX_CONTENT_CHARS,
    Message,
    check_label,
    check_text,
    check_ts,
    optional_label,
    validate_message,
)
from ..refusals import describe
from ..text import by_script
from .query import build_query, question_kinds, role_cue

#: One input of a turn: text, a stored or new message, or a mapping of message fields.
TurnInput = str | Message | Mapping[str, Any]
#: The fields a turn's mapping may use (chatmem's and chat-completions').
TURN_FIELDS = MESSAGE_FIELDS | OPENAI_FIELDS
#: Most inputs in one turn (the query keeps only the latest 4000 characters anyway).
MAX_TURN_INPUTS = 1000
#: Most ids in ``speakers`` or ``exclude_ids``.
MAX_IDS = 10_000


def turn_inputs(turn: TurnInput | Sequence[TurnInput], name: str = "query"
                ) -> tuple[list[str], list[Message]]:
    """This turn's texts (as they were indexed, F4) and the messages among them.

    ``name`` is the argument the turn came as (``query`` for recall, ``turn`` for
    context): an error names it as the caller wrote it, ``query`` for one text and
    ``query[1]`` for the second of a list."""
    if isinstance(turn, (str, Message, Mapping)):
        items: Sequence[object] = [turn]
    elif isinstance(turn, (list, tuple)):
        items = turn_messages(turn)  # the ChatCompletionMessage of a reply as its mapping
    else:
        raise InvalidInput(f"{name}: expected text, a Message, a mapping or a list of them, "
                           f"got {describe(turn)}")
    if len(items) > MAX_TURN_INPUTS:
        raise InvalidInput(f"{name}: {len(items)} inputs; the limit is {MAX_TURN_INPUTS}")
    one = isinstance(turn, (str, Message, Mapping))
    texts: list[str] = []
    msgs: list[Message] = []
    for i, item in enumerate(items):
        path = name if one else f"{name}[{i}]"
        if isinstance(item, str):
            check_text(item, path, max_chars=MAX_CONTENT_CHARS)
            texts.append(item)
        elif isinstance(item, Message):
            # a turn may come without its session: check the fields it has
            validate_message(item if item.session_id else replace(item, session_id="-"),
                             path=path)
            texts.append(item.embedded_text)  # as indexed (F4)
            msgs.append(item)
        elif isinstance(item, Mapping):
            # chatmem fields and chat-completions fields (I7); other fields are ignored
            known = {k: v for k, v in item.items() if k in TURN_FIELDS}
            # a turn may come without its session: check the fields it has
            m = to_message({**known, "session_id": known.get("session_id") or "-"},
                           path=path)
            m = replace(m, session_id=known.get("session_id") or "")
            if m.indexable:  # tool results, tool calls, system prompts: not the query (F4)
                texts.append(m.embedded_text)
            msgs.append(m)
        else:
            raise InvalidInput(f"{path}: expected text, a Message or a mapping, got "
                               f"{describe(item)}")
    return texts, msgs


def before_turn(latest: Sequence[Message], turn: TurnInput | Sequence[TurnInput],
                messages: Sequence[Message], session: str) -> list[Message]:
    """``latest`` (a session's newest messages, oldest first) without this turn's own
    messages at its end: a turn stored before its context was asked for (add the turn,
    then ``[*context(turn), *turn]``), which the caller puts after the context (M2).
    ``messages`` are the turn's messages (:func:`turn_inputs`); a stored copy is the
    same id, or without one the same role and words in this session (a text is the
    user's: the assistant's "ok" before a user's "ok" not stored yet is kept). Only the
    end is read: the same words said before are another message."""
    ids = {m.id for m in messages if m.id and m.session_id in ("", session)}
    words = Counter((m.role, m.content) for m in messages
                    if not m.id and m.session_id in ("", session))
    words.update(("user", t) for t in ([turn] if isinstance(turn, str) else
                                       turn if isinstance(turn, (list, tuple)) else ())
                 if isinstance(t, str))
    out = list(latest)
    while out:
        last = out[-1]
        if last.id in ids:
            ids.discard(last.id)
        elif words[last.role, last.content] > 0:
            words[last.role, last.content] -= 1
        else:
            break
        out.pop()
    return out


def id_list(value: object, name: str) -> tuple[str, ...]:
    """A list of ids (speakers, message ids to exclude)."""
    if isinstance(value, str) or not isinstance(value, (list, tuple, set, frozenset)):
        raise InvalidInput(f"{name} must be a list of strings, got {describe(value)}")
    if len(value) > MAX_IDS:
        raise InvalidInput(f"{name} has {len(value)} items; the limit is {MAX_IDS}")
    for i, item in enumerate(value):  # an empty id names no speaker or message
        check_label(item, f"{name}[{i}]")
    return tuple(value)


@dataclass(frozen=True)
class RecallRequest:
    """One recall as asked; ``None`` fields take the configuration's value.

    ``narrow_only`` marks an untrusted caller (the model's tool call, a user API
    key): its ``scope`` may only narrow the session's effective scope (F8, R4)."""

    texts: tuple[str, ...]
    turn: tuple[Message, ...] = ()
    session: str | None = None
    platform: str | None = None
    top_k: int | None = None
    min_score: float | None = None
    scope: str | None = None
    window: Window | None = None
    cross_session: bool | None = None
    filter: Mapping[str, Any] | None = None
    speakers: tuple[str, ...] = ()
    exclude_ids: tuple[str, ...] = ()
    now: int | None = None
    narrow_only: bool = False
    #: ``False``: the messages are documents, not turns: no reply inherits a score
    #: (``search.reply_share``) and no sitting lends one (``search.episode_share``) in
    #: this recall; ``None``: as configured.
    follow_replies: bool | None = None
    #: ``scope`` as the caller wrote it (``thread``, an alias of ``session``), for the
    #: errors: they name the scope as asked, not as resolved.
    scope_as_given: str | None = field(default=None, compare=False)

    @classmethod
    def of(cls, query: TurnInput | Sequence[TurnInput], *, session: object = None,
           platform: object = None, top_k: object = None, min_score: object = None,
           scope: object = None, window: object = None, cross_session: object = None,
           filter: object = None, speakers: object = (), exclude_ids: object = (),
           now: object = None, narrow_only: object = False,
           follow_replies: object = None, words: bool = True) -> RecallRequest:
        """Check every argument, naming the bad one (:class:`InvalidInput`).

        ``words``: a query of text (a string, or a list of strings) must hold some to
        search for: ``""``, ``"   "``, ``[]`` and ``["", " "]`` are refused, where they
        recalled nothing in silence (R3). A turn of messages none of which has words (tool
        results, a tool call) still recalls nothing, as :meth:`Memory.context` does with
        any turn (``words=False``): a turn may come without words, a search may not."""
        texts, turn = turn_inputs(query)
        if words and not turn and build_query(texts) is None:
            raise InvalidInput("query must not be empty" if isinstance(query, str) else
                               f"query must hold a text with words, got {describe(query)}")
        if top_k is not None and (isinstance(top_k, bool) or not isinstance(top_k, int)
                                  or not 1 <= top_k <= MAX_TOP_K):
            raise InvalidInput(f"top_k must be {TOP_K_TAKES}, got {describe(top_k)}")
        if min_score is not None and (isinstance(min_score, bool)
                                      or not isinstance(min_score, (int, float))
                                      or not 0 <= min_score <= 1):
            raise InvalidInput(f"min_score must be {MIN_SCORE_TAKES}, got "
                               f"{describe(min_score)}")
        for name, flag in (("cross_session", cross_session), ("narrow_only", narrow_only),
                           ("follow_replies", follow_replies)):
            if flag is not None and not isinstance(flag, bool):
                raise InvalidInput(f"{name} must be true or false, got {describe(flag)}")
        if now is not None:
            check_ts(now, "now")
        if filter is not None and not isinstance(filter, Mapping):
            raise FilterError(f"filter must be a mapping, got {describe(filter)}")
        # "" is refused, not taken as no session (the configured scope instead of the
        # session's own) or as a platform no message is of
        session_id = optional_label(session, "session")
        entry = optional_label(platform, "platform")
        if entry is None:  # the entry platform of this turn (F9)
            entry = next((m.platform for m in turn if m.platform), None)
        return cls(
            texts=tuple(texts), turn=tuple(turn), session=session_id, platform=entry,
            top_k=top_k, min_score=min_score,
            scope=None if scope is None else normalize_scope(scope),
            scope_as_given=scope if isinstance(scope, str) else None,
            window=None if window is None else Window.parse(window, "window"),
            cross_session=cross_session if isinstance(cross_session, bool) else None,
            filter=filter,  # parsed (FilterError) with the visibility filter
            speakers=id_list(speakers, "speakers"),
            exclude_ids=id_list(exclude_ids, "exclude_ids"),
            now=now if isinstance(now, int) else None,
            narrow_only=bool(narrow_only),
            follow_replies=follow_replies if isinstance(follow_replies, bool) else None,
        )


@dataclass(frozen=True)
class RecallPlan:
    """A request resolved against the configuration and the effective scope."""

    #: The query text (F4); ``None``: no inputs, no search.
    query: str | None
    top_k: int
    #: Candidate pools, smallest first (:func:`pool_tiers`): each is ranked on its own,
    #: and a larger one only adds the candidates the smaller ones did not rank.
    pool_tiers: tuple[int, ...]
    min_score: float
    window: Window
    cross_session: bool
    scope: str
    clamped: bool
    #: The visibility filter of the scope (R4); ``None``: everything is visible.
    visibility: Mapping[str, Any] | None
    #: ``visibility`` and the caller's metadata filter, pushed down to the indexes.
    where: Mapping[str, Any] | None
    others_only: bool
    #: Speakers whose hits get ``user_priority_boost`` (scope ``user`` only).
    boost_speakers: frozenset[str]
    #: Messages the caller already has: never a hit, never a neighbour.
    skip_ids: frozenset[str]
    #: The share of a candidate's score its replies inherit (0: none in this recall).
    reply_share: float
    #: The share of the best other match of its sitting a candidate gains (0: none).
    episode_share: float
    #: Whether the query asks about the present ("… now", "现在 …": ranked by
    #: :func:`~chatmem.recall.rank.newness`, :func:`~.query.asks_current_state`).
    current_state: bool
    #: Whether the query asks how something began ("at first", "原本", "哪天第一次"…): the
    #: mirror of ``current_state``, ranked by oldness (:func:`~.query.asks_earliest`).
    earliest: bool
    #: Whether the query asks when ("when did…", "哪天"; :func:`~.query.asks_when`):
    #: the messages that state a time get ``search.when_boost``.
    asks_when: bool
    #: Whether the query asks how many or how much ("how far", "多少", "几个";
    #: :func:`~.query.asks_quantity`): the messages that state a quantity get
    #: ``search.quantity_boost``.
    asks_quantity: bool
    #: Whose past words the query asks about (``"assistant"``, ``"user"``, ``None``;
    #: :func:`~chatmem.recall.query.asked_role`): their messages get
    #: ``search.asked_role_boost``.
    asked_role: str | None
    #: What the channels search for: ``query`` without the words that named
    #: ``asked_role`` ("你让我", "did you suggest"; :func:`~.query.role_cue`).
    search_text: str | None
    #: The weight of recency in the ranking: ``search.time_weight``, or
    #: ``search.time_weight_current`` when the query asks about the present.
    time_weight: float
    #: (session, content) of this turn's own messages: never a hit.
    turn_texts: frozenset[tuple[str | None, str]]
    now: int | None


#: Candidates fetched per hit asked for (twice as many with ``recall_roles: others-only``).
POOL_PER_HIT = 4
#: How much each pool tier grows over the one before.
TIER_GROWTH = 4


def pool_tiers(configured_top_k: int, top_k: int, others_only: bool) -> tuple[int, ...]:
    """The candidate pools of one recall, smallest first.

    The first is the pool of the *configured* ``top_k`` (× 4, × 8 with others-only),
    whatever this request asks for: relevance is calibrated over the pool
    (:mod:`chatmem.recall.rank`), so a pool that grew with ``top_k`` would reorder
    the first hits. A request for more hits than the first pool ranks gets the next,
    ``TIER_GROWTH`` times larger pool, whose new candidates come *after* the ones
    already ranked; the first ``k`` hits of a recall are therefore the same for every
    ``top_k ≥ k`` (issue 12)."""
    per_hit = POOL_PER_HIT * (2 if others_only else 1)
    tiers = [configured_top_k * per_hit]
    while tiers[-1] < top_k * per_hit:
        tiers.append(tiers[-1] * TIER_GROWTH)
    return tuple(tiers)


def reply_share(query: str | None, search: SearchConfig) -> float:
    """The share of a candidate's score its replies inherit: ``reply_share``, and
    ``reply_share_cjk`` for the CJK part of the query (weighted by its share of CJK
    characters, as :func:`~chatmem.recall.fuse.dense_trust` weighs the dense side)."""
    return by_script(query or "", search.reply_share, search.reply_share_cjk)


def plan(request: RecallRequest, config: Config, *, scope: str, clamped: bool,
         visibility: Mapping[str, Any] | None, where: Mapping[str, Any] | None
         ) -> RecallPlan:
    """The numbers and filters of one recall (F4, F5, F7)."""
    top_k = config.recall_top_k if request.top_k is None else request.top_k
    others_only = config.recall_roles == "others-only"
    turn_speakers = {m.speaker_id for m in request.turn if m.speaker_id}
    query = build_query(request.texts)
    search = config.search
    kinds = question_kinds(query or "")
    role, search_text = role_cue(query) if query else (None, query)
    return RecallPlan(
        query=query,
        top_k=top_k,
        pool_tiers=pool_tiers(config.recall_top_k, top_k, others_only),
        min_score=config.search.min_score if request.min_score is None else request.min_score,
        window=config.recall_window if request.window is None else request.window,
        cross_session=(config.context_expand.cross_session if request.cross_session is None
                       else request.cross_session),
        scope=scope, clamped=clamped, visibility=visibility, where=where,
        others_only=others_only,
        boost_speakers=frozenset(set(request.speakers) | turn_speakers) if scope == "user"
        else frozenset(),
        skip_ids=frozenset(request.exclude_ids) | {m.id for m in request.turn if m.id},
        reply_share=0.0 if request.follow_replies is False else reply_share(query, search),
        episode_share=0.0 if request.follow_replies is False else search.episode_share,
        current_state=kinds.current_state,
        earliest=kinds.earliest,
        asks_when=kinds.when,
        asks_quantity=kinds.quantity,
        asked_role=role,
        search_text=search_text,
        time_weight=search.time_weight_current if kinds.current_state or kinds.earliest
        else search.time_weight,
        turn_texts=frozenset((m.session_id or request.session, m.content)
                             for m in request.turn),
        now=request.now,
    )
