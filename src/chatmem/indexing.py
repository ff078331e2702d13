"""The background indexer (F1, F2, E12): stored messages → vectors, durably.

The message store is the durable queue: every indexable message is stored
``PENDING`` (with its pending full-text entry, so full-text search finds it at
once, X1) before ``add`` returns, and becomes ``INDEXED`` in the same transaction
that writes its vector (or by an idempotent upsert keyed by the message id, for a
separate vector index). The in-memory queue only saves a trip to the store; when
it overflows, the oldest *queued id* is dropped, never the message, and a sweep of
the store picks it up later. After a crash the start-up sweep indexes every
pending message exactly once.

Retries (E12). An embedding that fails — the provider is down or refuses
(``fail``), asks to wait (``defer``: deadline, retries exhausted; ``cooldown``: its
``Retry-After`` has not passed), or
answers garbage (``invalid``; a batch is first retried one message at a time, so
only the bad message fails) — leaves its messages ``FAILED`` with a schedule in
their rows: the attempts so far and when the next is due, ``retry_initial_s`` ×
2^(attempts − 1) capped at ``retry_max_s`` (:class:`~chatmem.config.IndexingConfig`),
less up to :data:`RETRY_JITTER` of it, drawn once per batch so that a batch that
failed together is retried together. The due time is on the store's clock
(:meth:`~chatmem.store.base.MessageStore.clock_ms`, PostgreSQL's server clock), as is
"now" when due retries are looked for: processes sharing a store whose own clocks
differ retry each other's messages on time. ``FAILED`` is therefore the durable "waiting
for a retry" state, not a terminal one. It is kept rather than replaced by a new
state because stores, exports (``index_state: "failed"``), ``reindex`` (which embeds
failed messages at once) and stats already give it that meaning; only the schedule
is new, and a restart keeps it. The sweeper queues the retries that are due, one
wave at a time, and sleeps until the next is due. While the provider keeps failing
(``fail``, ``defer``, ``cooldown``), retries also wait for the provider's own backoff (the same
doubling, per batch failed in a row) and then one batch goes ahead as a probe; the
others follow once a batch succeeds. So an outage costs a provider call per backoff
step, not one per message, and nothing retries in a loop.

Exactly once: an id is queued or in flight at most once, and a store read that
ran while a batch finished (and so may show that batch's messages as still
waiting) is discounted for those messages. A message's vector and its ``INDEXED``
state commit together, so after recovery every message is indexed once.

Shared work (R5). Several processes may index one store (replicas of a server on one
PostgreSQL, a server beside a batch import). A worker *claims* its batch in the store
before embedding it (:meth:`~chatmem.store.base.MessageStore.claim`): a lease naming
this indexer's :attr:`Indexer.owner`, expiring on the store's clock, renewed every
third of ``lease_s`` while the batch runs, up to its vector write, and ended when it is
over (writing a vector ends it too; a write left out as stale ends it only while it is
still this indexer's, another having perhaps taken it over, and no renewal follows
that write to take the rewritten message back). Messages another process holds are dropped from
the batch (and a sweep does not read them); the sweeper looks again when the soonest
of those leases runs out (at most :data:`CLAIM_RECHECK_S` later), and sweeps the store
every ``lease_s`` anyway, so the leases of a process killed mid-batch run out and
another process embeds its messages. An indexer that stops with work left announces
it where the store can (PostgreSQL's NOTIFY), and the others' sweepers, listening,
sweep at once. A vector is written only if its message still has the text and
metadata it was read with (``current_only``): a rewrite in another process while the
batch ran wins, and its message is embedded again.

A store that fails (PostgreSQL restarted or unreachable) fails a batch or a sweep; the
messages stay pending in it. A failed sweep is tried again after a pause growing per
failure in a row (capped at ``lease_s``), and at once when a store call succeeds again (a
claim, an ``add`` that enqueues): a process whose store came back no longer waits for its
periodic sweep. Nor does one whose listening connection was lost: listening again, it
sweeps, as the announcements made meanwhile never reach it.

``flush`` waits until everything waiting when it starts (and stored while it runs)
has been attempted: indexed, or failed and scheduled again. Messages already waiting
for a retry get one attempt at once, whatever their schedule. A provider that is
down therefore never hangs a flush. A batch in flight when it starts that fails while
it waits gets no second attempt: the provider is down now (a service that does not
answer is waited for one ``embedding.deadline``, not two).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random
import socket
import time
import uuid
from collections import deque
from collections.abc import AsyncIterator, Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

from ._aio import wait_within
from .backoff import retry_delay  # re-exported: it used to be defined here
from .config import IndexingConfig
from .embedding import Embedder
from .embedding.embedder import Embedded, EmbedLike
from .embedding.remote import CALL_WIDTH_BY_STORE
from .errors import EmbeddingUnavailable, StoreClosed
from .models import (
    IndexState,
    Message,
    Session,
    VectorEntry,
    message_entry,
    now_ms,
    same_indexed_version,
)
from .models import embedded_text as embedded_text  # F1, defined with the model; re-exported
from .store.base import MessageStore, OneWidth, Retry, WidthConflict
from .store.storage import (  # re-exported: the snapshot helpers used to live here
    SNAPSHOT_DIRTY,
    Storage,
    root_of,
    session_tree,
    snapshot_of,
    snapshot_sessions,
)
from .telemetry import Outcome, Telemetry

__all__ = ["DIALOGUE_ROLES", "RETRY_JITTER", "SNAPSHOT_DIRTY", "Indexer", "IndexerStats",
           "embedded_text", "previous_turn", "queue_step", "retry_delay", "root_of",
           "session_tree", "snapshot_of", "snapshot_sessions", "takes_context", "vector_entry",
           "vector_text", "vector_texts"]

log = logging.getLogger("chatmem.indexing")

#: Share of a retry delay taken off at random (E12), so that retries of messages that
#: failed at different moments do not all arrive at once.
RETRY_JITTER = 0.25
#: Seconds between retries of session changes a separate index has not caught up with.
HEAL_RETRY_S = 5.0
#: Seconds a worker holding the embedding slot waits for a partial batch to fill.
COALESCE_S = 0.02
#: Longest sleep of the sweeper between looks at its flags (new work, heals).
SWEEP_POLL_S = 0.5
#: Longest wait before messages another process held are looked at again (R5): its
#: batch may end without writing them (a rewrite won, the provider failed).
CLAIM_RECHECK_S = 1.0
#: A batch answered ``invalid`` is retried one text at a time (one bad text must not fail
#: its neighbours); when this many in a row are invalid too and none was embedded, the
#: provider is broken (a model of another size behind the URL, an HTML page, NaN for
#: everything), not a text: the rest waits for its retry, as in an outage, instead of
#: one request and one log line per message at every retry step.
INVALID_SPLIT_PROBES = 3


def vector_entry(msg: Message, session: Session | None, vector: object, model_id: str
                 ) -> VectorEntry:
    """The vector entry of ``msg`` with ``session`` as :func:`snapshot_sessions` resolved it."""
    return message_entry(
        msg, vector=vector, model_id=model_id,
        origin_platform=session.origin_platform if session else None,
        resource_id=session.resource_id if session else None,
        session_metadata=session.metadata if session else {})


#: Roles whose messages answer each other (a turn of a dialogue).
DIALOGUE_ROLES = ("user", "assistant")


def _said(msg: Message) -> str:
    """What a message says, without a sender prefix (an assistant: what was shown)."""
    return msg.shown_text if msg.role == "assistant" else msg.content


def short_reply(msg: Message, config: IndexingConfig) -> bool:
    """Short enough to take the turn before it (``config.short_reply_chars``, 0: never)."""
    return (config.short_reply_chars > 0 and msg.role in DIALOGUE_ROLES
            and len(_said(msg)) <= config.short_reply_chars)


def takes_context(msg: Message, previous: Message | None, config: IndexingConfig) -> bool:
    """Whether ``msg`` is embedded together with ``previous``, the message before it in
    its session: it is short (at most ``config.short_reply_chars``) and answers the
    other side (user after assistant or assistant after user).

    Issue 12: a short reply means little alone ("three months, from a friend's cat"
    answering "how old is Tudou?", "hr说最多32k 我接了"); a question asked days later
    matches the exchange, not either half. Chosen on the dev splits: replies up to
    20-40 characters with the other side's turn gained 2-5 questions on the Chinese
    companion chats and at most one elsewhere; same-side neighbours (two people talking
    past each other in a group) lost group questions, so they are left out. On the
    validation splits it helped dense-only recall on every Chinese set (companion_zh
    0.639 → 0.687) but cost the hybrid default 4 questions there, so it is off by
    default (``short_reply_chars`` 0)."""
    return (previous is not None and short_reply(msg, config)
            and previous.role in DIALOGUE_ROLES and previous.role != msg.role)


def vector_text(msg: Message, previous: Message | None, config: IndexingConfig) -> str:
    """The text ``msg``'s vector is computed from: :func:`embedded_text`, after the
    first ``config.reply_context_chars`` of ``previous`` when :func:`takes_context`.
    Full-text search always indexes the message alone (its entry's ``text``)."""
    own = embedded_text(msg)
    if previous is None or not takes_context(msg, previous, config):
        return own
    return f"{_said(previous)[:config.reply_context_chars]}\n{own}"


async def previous_turn(store: MessageStore, msg: Message) -> Message | None:
    """The message before ``msg`` in its session (control records skipped, F5)."""
    if msg.ts is None:
        return None
    before = await store.range(msg.session_id, msg.ts, 1, 0)
    return before[-1] if before else None


async def vector_texts(store: MessageStore, msgs: Sequence[Message],
                       config: IndexingConfig) -> list[str]:
    """:func:`vector_text` of each message, reading the turn before each short one."""
    out = []
    for m in msgs:
        previous = await previous_turn(store, m) if short_reply(m, config) else None
        out.append(vector_text(m, previous, config))
    return out


def queue_step(config: IndexingConfig) -> int:
    """How many messages to queue at once for a pass over many (a reindex step): a
    worker's batch (``batch_size``), no more than the queue holds (``max_queue_size``;
    the batch alone when the queue is unbounded). More were the oldest dropped from the
    queue, attempted apart: a pass and requests of their own. (A flush's page is the
    room left in the queue, :meth:`Indexer._page`.)"""
    step = max(config.batch_size, 1)
    if config.max_queue_size > 0:
        step = min(step, config.max_queue_size)
    return step


def _earliest(a: int | None, b: int | None) -> int | None:
    return b if a is None else a if b is None else min(a, b)


@dataclass
class _Lease:
    """A batch's leases (R5): the messages whose leases are renewed while it runs, and
    whether its vectors were written (which ended them)."""

    renewed: set[str]
    written: bool = False
    #: The messages of its pieces written while it runs (:meth:`Indexer._piece_written`):
    #: done then, their leases ended; the batch's end leaves them alone.
    done: set[str] = field(default_factory=set)
    #: Held by a renewal under way (:meth:`Indexer._leased`).
    renewing: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def let_go(self, ids: Iterable[str]) -> None:
        """Renew these leases no more: their vector write comes next, and ends them (a
        write left out as stale ends them too; a renewal after it took the rewritten
        message back, and the batch, counted as written, never released it: other
        processes waited ``lease_s`` for it). A renewal under way finishes first."""
        async with self.renewing:
            self.renewed.difference_update(ids)


@dataclass
class _Schedule:
    """The retry schedule shared by the pieces of one batch (:meth:`Indexer._by_requests`):
    one jitter, and the store's time of the first piece's failure, so that a batch
    failing together is retried together (its pieces in one wave, not one per piece)."""

    jitter: float = field(default_factory=lambda: random.uniform(0.0, RETRY_JITTER))
    #: the store's clock when the first of its pieces was scheduled (None: none yet)
    now: int | None = None


def _remove_this(watchers: list[set[str]], watch: set[str]) -> None:
    """Take ``watch`` itself out of ``watchers``. Not ``list.remove``: it removes the
    first *equal* set, and two reads under way often hold equal sets (both saw the
    same batches finish), so it took out the other read's set, which then missed
    the batches that finished after, and this one's removal failed (ValueError)."""
    for i, other in enumerate(watchers):
        if other is watch:
            del watchers[i]
            return


@contextlib.contextmanager
def _watch_set(watchers: list[set[str]]) -> Iterator[set[str]]:
    """A new set in ``watchers`` while the block runs (what its owners add meanwhile)."""
    watch: set[str] = set()
    watchers.append(watch)
    try:
        yield watch
    finally:
        _remove_this(watchers, watch)


@dataclass(frozen=True)
class IndexerStats:
    queued: int
    in_flight: int
    dropped_from_queue: int
    indexed: int
    #: Embedding attempts that failed, counted per message (each is scheduled again).
    failed: int
    batches: int
    #: Messages of the retry wave under way (queued or in flight).
    retrying: int = 0
    #: Seconds before retries may go on, paused for :attr:`retries_paused_for` (0: not
    #: paused).
    retries_paused_s: float = 0.0
    #: The last embedding failure of the indexer (redacted), None before any: the
    #: provider's, or an answer of another width than the store's vectors of that model.
    last_error: str | None = None
    #: Why retries are paused: ``"provider"`` (it fails: an outage), ``"width"`` (its
    #: answers are refused for their width, the store holding the model's vectors in
    #: another one: not an outage, ``chatmem reindex`` ends it), None: not paused.
    retries_paused_for: str | None = None
    #: Since when (Unix time, s) retries are paused for that reason: when the outage
    #: (or the refusals) began, for the console's "failing since"; None: not paused.
    retries_paused_since: float | None = None


class VectorWidths:
    """The widths of each model's vectors in the store, to refuse an answer of another
    width before it is stored.

    A model space has one width. The remote provider refuses a width other than its
    process's first answer, which held for the life of the process only: after the
    service came back with another model under the same name (a model swapped behind
    the endpoint, a restart), a new process stored the new width under the same model
    id beside the old one, and a recall's query found one width of the two.

    What the store holds decides, not the process: a model's widths are looked at in
    the store when one of its widths is first checked, kept up to date with this
    process's writes, and looked at again before an answer is refused (vectors
    cleared, or rewritten by another process, meanwhile): an empty store takes any
    width. Each look is two seeks of the index of each model's widths
    (:meth:`~chatmem.store.storage.Storage.other_width`), never a read of every
    vector's width, so a process refused at every call (the old model still answering
    it after a reindex) costs the store little. That look ahead of the write spares
    the store a refused write; the store itself checks each write with it (:meth:`rule`,
    :class:`~chatmem.store.base.OneWidth`), so that two batches answering different
    widths into a store holding none of the model never both land. :meth:`moving`
    lets a reindex write the width the service answers now over the old one. A
    memory's embeddings go through :meth:`embed`, which leaves out the provider's own
    check against its earlier answers in this process (that one held after a clear,
    until a restart), and looks again at the store when the cache answered: no service
    was asked then, so a swap since went unseen."""

    def __init__(self, storage: Storage) -> None:
        self._storage = storage
        #: model id → the widths of its vectors the store holds, as this process last
        #: saw (a model not in it is looked at when a width of it is first checked)
        self._sizes: dict[str, frozenset[int]] = {}
        #: model id → the widths reindexes under way in this process move it to (the
        #: last one started decides); the model's other widths are stale meanwhile.
        self._moving: dict[str, list[int]] = {}

    def rule(self) -> OneWidth:
        """What the store checks with each write of this process's vectors."""
        return OneWidth({model: widths[-1] for model, widths in self._moving.items()})

    @staticmethod
    async def _call(embedder: Embedder, items: Sequence[EmbedLike], *,
                    deadline: float | None = None, max_retries: int | None = None,
                    fresh: bool = False) -> Embedded:
        token = CALL_WIDTH_BY_STORE.set(True)
        try:
            return await embedder.embed_many_with_model(items, deadline=deadline,
                                                        max_retries=max_retries, fresh=fresh)
        finally:
            CALL_WIDTH_BY_STORE.reset(token)

    async def embed(self, embedder: Embedder, items: Sequence[EmbedLike], *,
                    deadline: float | None = None, max_retries: int | None = None,
                    query: bool = False) -> Embedded:
        """``embedder.embed_many_with_model(items)``, the answer's width judged by what
        the store holds (:meth:`check`), not by the provider's earlier answers.
        ``query``: the items are a recall's query (the refusal says what becomes of it).

        Vectors from the embedder's cache reached no service: made by the model that
        answered before, they are of its width. When the store holds vectors of that
        model, none of that width (another process moved it: a reindex after a model
        was swapped behind the endpoint), the texts are embedded again by the service,
        and that answer is judged: taken when the service answers the store's width,
        else refused as any other answer of another width."""
        embedded = await self._call(embedder, items, deadline=deadline,
                                    max_retries=max_retries)
        if not embedded.vectors:
            return embedded
        width = len(embedded.vectors[0])
        if embedded.cached and not self.rule().takes(embedded.model_id, width) \
                and await self._held(embedded.model_id, width):
            log.info("vectors of %s of %d numbers from the embedding cache, none of that "
                     "width in the store: embedded again", embedded.model_id, width)
            embedded = await self._call(embedder, items, deadline=deadline,
                                        max_retries=max_retries, fresh=True)
            width = len(embedded.vectors[0])
        await self.check(embedded.model_id, width, embedder.provider.name, query=query)
        return embedded

    async def probe(self, embedder: Embedder) -> int:
        """The width of the vectors the configured model answers now: one text, asked of
        the service (not from the cache, nor from an earlier answer of this process)."""
        embedded = await self._call(embedder, ["chatmem reindex"], fresh=True)
        return len(embedded.vectors[0])

    async def check(self, model_id: str, width: int, provider: str, *,
                    query: bool = False) -> None:
        """Raise :class:`EmbeddingUnavailable` (decision ``fail``) when the store holds
        vectors of ``model_id`` and none of ``width`` (``query``: of a recall's query)."""
        if self.rule().takes(model_id, width) \
                or width in self._sizes.get(model_id, frozenset()):
            return
        await self._judge(model_id, width, provider, query=query)

    async def found_none(self, model_id: str, width: int, provider: str) -> None:
        """After a search by a query vector of ``model_id`` and ``width`` found no vector
        of that model: :meth:`check`'s refusal when the store holds the model's vectors
        in another width only. The service's answer matched what this process last
        read of the store, but another process moved the store since (a reindex after a
        model was swapped behind the endpoint, the old one still answering here), so
        the search looked in a width the store no longer holds. The look at the store
        (:meth:`~chatmem.store.storage.Storage.other_width`, two index seeks) is made
        only then: a search that finds something of the model costs nothing more."""
        if not self.rule().takes(model_id, width):
            await self._judge(model_id, width, provider, query=True)

    async def _judge(self, model_id: str, width: int, provider: str, *,
                     query: bool) -> None:
        """Refuse ``width`` when the store, looked at now, holds vectors of
        ``model_id`` and none of that width (what this process knew of it is brought
        up to date)."""
        held = await self._held(model_id, width)
        if held:
            raise self._refusal(model_id, width, held, provider, query=query)

    async def _held(self, model_id: str, width: int,
                    seen: int | None = None) -> frozenset[int]:
        """A width of ``model_id``'s vectors in the store when it holds some and none
        of ``width``, else nothing; kept as what this process knows of the store.
        Asked by the index of the model's widths (two seeks, :meth:`Storage.other_width
        <chatmem.store.storage.Storage.other_width>`), not the whole list of widths (a
        scan of the vectors, made by every recall of a process still answered the old
        width after a reindex). ``seen``: a width the store refused a write for, when
        the look finds none (the other write's width gone again meanwhile)."""
        other = await self._storage.other_width(model_id, width)
        if other is None:
            other = seen
        # held: ``width`` now, or nothing (a later width is looked at again, and taken
        # when the store holds none of the model)
        held = frozenset({width if other is None else other})
        self._sizes[model_id] = held
        return frozenset() if other is None else held

    async def refused(self, conflict: WidthConflict, provider: str) -> EmbeddingUnavailable:
        """The error of a write the store refused (another width landed first, in
        another batch or process, since :meth:`check`)."""
        held = await self._held(conflict.model_id, conflict.width, conflict.held)
        return self._refusal(conflict.model_id, conflict.width, held, provider)

    @staticmethod
    def _refusal(model_id: str, width: int, held: Iterable[int], provider: str, *,
                 query: bool = False) -> EmbeddingUnavailable:
        """The refusal of an answer of ``width``, saying what becomes of what was
        embedded: messages wait for a retry; a query (``query``) is not compared with
        vectors of another width, so its recall has no search by meaning."""
        widths = " and ".join(str(w) for w in sorted(held))
        fate = ("no search by meaning for this query (full text only, where the store "
                "keeps it)") if query else "not stored, the messages wait"
        return EmbeddingUnavailable(
            f"the answer has vectors of {width} numbers, the store's vectors of {model_id} "
            f"have {widths}: another model answers under that name (swapped behind "
            "embedding.endpoint, or a service restarted with another one), or "
            f"embedding.dimensions changed; {fate}. Serve the "
            "model again (or set embedding.dimensions back), or set embedding.model to the "
            "new model's name, then run chatmem reindex", provider=provider,
            retry_decision="fail", width_mismatch=True)

    def wrote(self, model_id: str, width: int) -> None:
        """Vectors of ``model_id`` and ``width`` were written."""
        held = self._sizes.get(model_id, frozenset())
        if self.rule().moving.get(model_id) == width:
            held = frozenset()  # the old width goes as the reindex goes on
        self._sizes[model_id] = held | {width}

    @contextlib.contextmanager
    def moving(self, model_id: str, width: int) -> Iterator[None]:
        """Around a reindex that re-embeds the vectors of ``model_id`` at ``width``:
        written over the old ones, that width is taken while it runs. After it, the
        store's widths decide again (a width it holds is taken, as always)."""
        widths = self._moving.setdefault(model_id, [])
        widths.append(width)
        try:
            yield
        finally:
            widths.remove(width)
            if not widths:
                del self._moving[model_id]


class Indexer:
    def __init__(self, storage: Storage, embedder: Embedder,
                 config: IndexingConfig | None = None,
                 snapshot_lock: asyncio.Lock | None = None,
                 telemetry: Telemetry | None = None,
                 clock: Callable[[], int] = now_ms) -> None:
        """``clock``: this process's wall clock (ms since the epoch). It only measures
        time between two reads of the store's clock (:meth:`MessageStore.clock_ms`),
        which retry schedules are kept on: another process's clock may differ."""
        self.storage = storage
        #: Where batch timings go (the memory's, so that metrics see them).
        self.telemetry = telemetry or Telemetry()
        self.store = storage.store
        self.embedder = embedder
        self.config = config or IndexingConfig()
        #: The widths of the store's vectors, per model (one answer's width is checked).
        self.widths = VectorWidths(storage)
        #: Held from reading session snapshots to writing the vectors made with them, and
        #: by ``Memory.upsert_session`` from the store's commit to the index's update: a
        #: session change never lands between the two (the new vectors would miss it).
        self.snapshot_lock = snapshot_lock or asyncio.Lock()
        #: Whether session changes may still have to reach a separate index (start-up).
        self.snapshots_dirty = storage.separate
        self._heal_lock = asyncio.Lock()
        self._heal_retry_at = 0.0
        self._queue: deque[Message] = deque()
        self._queued: set[str] = set()
        self._in_flight: set[str] = set()
        self._in_flight_msgs: dict[str, Message] = {}
        #: In-flight short replies whose turn before changed while they were embedded
        #: (:meth:`_context_moved`): queued again when their batch is over.
        self._again: dict[str, Message] = {}
        #: Queued messages enqueued again meanwhile (a rewrite): the version a worker takes.
        self._newer: dict[str, Message] = {}
        self._wakeup = asyncio.Event()
        #: Cuts the sweeper's sleep short (a retry wave ended, retries were scheduled).
        self._sweeper_wakeup = asyncio.Event()
        #: Set whenever queued or in-flight work finishes or is dropped, or a worker takes
        #: from the queue (flush waits on it).
        self._progress = asyncio.Event()
        #: One set per store read under way: the ids whose batch finished meanwhile.
        self._watchers: list[set[str]] = []
        #: One set per flush waiting on a page: the ids the full queue dropped meanwhile.
        self._drop_watchers: list[set[str]] = []
        #: One set per flush under way: the ids whose embedding failed since it began
        #: (scheduled for a retry): fresh news of an outage, given no second attempt.
        self._failure_watchers: list[set[str]] = []
        self._sweep_needed = True  # start-up: resume whatever a previous run left pending
        #: E12 retries: the ids of the wave under way, the soonest known due time (ms),
        #: whether to read it again from the store, due times scheduled since that read
        #: began, why retries are paused (:attr:`IndexerStats.retries_paused_for`), the
        #: pauses in a row for that reason, and until when retries pause (monotonic).
        self._retrying: set[str] = set()
        self._next_retry_at: int | None = None
        self._retry_reload = True
        self._scheduled_min: int | None = None
        self._paused_for: str | None = None
        self._paused_since: float | None = None
        self._failures_in_a_row = 0
        #: Batches in a row that failed past the embedding (the store or the separate
        #: index refusing the write): the pending messages are looked at again after a
        #: growing pause, as retries are while the provider fails.
        self._write_failures = 0
        #: Sweeps in a row that failed (the store not answering) and when (monotonic) the
        #: next may try: a failed sweep is tried again after a pause growing per failure
        #: (the retries' doubling, at most ``lease_s``), and at once when a store call
        #: succeeds (:meth:`_store_answered`); before, its messages waited for the
        #: periodic sweep, ``lease_s`` later.
        self._sweep_failures = 0
        self._sweep_retry_at = 0.0
        self._retry_pause_until = 0.0
        # A worker takes its batch only once it may embed: while one batch runs, the
        # queue fills, and the next batch is larger and better length-sorted. Local
        # models run one inference at a time anyway (they use every core inside one).
        slots = embedder.capabilities.max_concurrency or self._worker_count()
        self._embed_slots = asyncio.Semaphore(slots)
        self._workers: list[asyncio.Task[None]] = []
        self._sweeper: asyncio.Task[None] | None = None
        #: sweeps at once on another process's announcement (a store that can announce)
        self._listener: asyncio.Task[None] | None = None
        self._stopping = False
        self._dropped = 0
        self._indexed = 0
        self._failed = 0
        self._batches = 0
        self.last_error: str | None = None
        #: R5: this indexer's name on the leases it takes (host, process, instance).
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:8]}"
        #: Messages found held by another process, and when (monotonic) their lease may
        #: run out: flush waits on them; entries past that are dropped at each claim.
        self._held: dict[str, float] = {}
        #: When to sweep again (monotonic): others' leases run out, or ``lease_s`` passed.
        self._sweep_at = time.monotonic() + self.config.lease_s
        self.clock = clock
        #: The store's clock less ``clock``, as last read (:meth:`_store_now`).
        self._clock_offset_ms = 0

    # ------------------------------------------------------------------ lifecycle

    def _worker_count(self) -> int:
        return self.config.concurrency if self.config.concurrency > 0 else 64

    @property
    def running(self) -> bool:
        return self._sweeper is not None

    def start(self) -> None:
        """Start the workers and the sweeper (in the running event loop); idempotent."""
        if self.running:
            return
        self._stopping = False
        n = self._worker_count()
        self._workers = [asyncio.create_task(self._worker(i), name=f"chatmem-indexer-{i}")
                         for i in range(n)]
        self._sweeper = asyncio.create_task(self._sweep_loop(), name="chatmem-indexer-sweep")
        if getattr(self.store, "pending_announcements", None) is not None:
            self._listener = asyncio.create_task(self._listen_for_announcements(),
                                                 name="chatmem-indexer-listen")
        self._wakeup.set()

    async def stop(self) -> None:
        """Stop workers; whatever is not indexed stays pending in the store. Calls
        waiting for work to settle (flush, reindex, rewrite) end with
        :class:`~chatmem.errors.StoreClosed`: no worker is left to settle it."""
        self._stopping = True
        self._wakeup.set()
        left = bool(self._queue or self._in_flight) and self.running
        tasks = [*self._workers, *(t for t in (self._sweeper, self._listener) if t)]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._workers = []
        self._sweeper = self._listener = None
        self._progress.set()  # wake the waiters, which see _stopping
        if left:  # their leases are released: the other processes' indexers take them
            await self._announce_pending()

    async def _announce_pending(self) -> None:
        """Tell the indexers of other processes on a shared store (PostgreSQL) that
        messages this one leaves wait: before, they found them only at their periodic
        sweep, ``lease_s`` later (30 s by default)."""
        announce = getattr(self.store, "announce_pending", None)
        if announce is None:
            return
        try:
            await announce()
        except Exception as exc:  # the periodic sweeps still find them
            log.debug("announcing the pending messages left failed: %s", exc)

    async def _listen_for_announcements(self) -> None:
        """Sweep at once when another process announces pending messages it left."""
        announcements = self.store.pending_announcements()  # type: ignore[attr-defined]
        async with contextlib.aclosing(announcements):
            async for _ in announcements:
                self.sweep_soon()

    # ------------------------------------------------------------------ queue

    def enqueue(self, messages: Sequence[Message], *, retry: bool = False) -> None:
        """Queue these messages (``retry``: they wait for a retry, a wave of them), which
        the caller has just read or written in the store: it answers."""
        self._store_answered()
        self._enqueue(messages, retry=retry)

    def _enqueue(self, messages: Sequence[Message], *, retry: bool = False) -> None:
        limit = self.config.max_queue_size
        for msg in messages:
            if not msg.indexable or msg.id is None:
                continue
            if msg.id in self._in_flight:
                flying = self._in_flight_msgs.get(msg.id)
                if flying is not None and not same_indexed_version(flying, msg):
                    # rewritten (text or metadata) while its batch runs: that batch's
                    # write is left out as stale (current_only), so this version follows
                    # it (else it waited for the next periodic sweep, ``lease_s`` later)
                    self._again[msg.id] = msg
                continue
            if msg.id in self._queued:
                self._newer[msg.id] = msg  # the queued version may be older: sent instead
                continue
            self._queue.append(msg)
            self._queued.add(msg.id)
            if retry:
                self._retrying.add(msg.id)
            if limit > 0 and len(self._queue) > limit:
                old = self._queue.popleft()
                self._queued.discard(old.id or "")
                self._newer.pop(old.id or "", None)
                self._settle_ids([old.id or ""])
                self._dropped += 1
                for dropped in self._drop_watchers:
                    dropped.add(old.id or "")
                self._sweep_needed = True  # it is still waiting in the store
        self._wakeup.set()

    def sweep_soon(self) -> None:
        """Look in the store for pending messages at the sweeper's next turn: a write
        that was cancelled may have committed messages that were never queued (else
        they would wait for the periodic sweep, ``lease_s`` later)."""
        self._sweep_needed = True
        self._sweeper_wakeup.set()

    def _room(self) -> int:
        """How many more ids the queue takes now."""
        limit = self.config.max_queue_size if self.config.max_queue_size > 0 else 10_000
        return max(limit - len(self._queue), 0)

    def _settle_ids(self, ids: Iterable[str]) -> None:
        """These ids left the queue or the workers: tell the waiters; a retry wave whose
        last message this was is over (the next due time is read again)."""
        ids = list(ids)
        for watch in self._watchers:
            watch.update(ids)
        if self._retrying:
            self._retrying.difference_update(ids)
            if not self._retrying:
                self._retry_reload = True
                self._sweeper_wakeup.set()
        self._progress.set()

    @contextlib.contextmanager
    def _watching(self) -> Iterator[set[str]]:
        """Around a store read of waiting messages: the ids whose batch finished while
        it ran (the read may predate their new state, see :meth:`_fresh`)."""
        with _watch_set(self._watchers) as watch:
            yield watch

    def _fresh(self, found: Sequence[Message], watch: set[str]) -> list[Message]:
        """Of the messages a read found waiting, those to queue: not queued or in flight,
        and not finished while the read ran. So none is embedded twice."""
        return [m for m in found if m.id not in watch and m.id not in self._queued
                and m.id not in self._in_flight]

    def discard(self, ids: Sequence[str]) -> int:
        """Take these messages out of the queue (they were erased, I8), so they are never
        embedded; returns how many were queued."""
        gone = set(ids) & self._queued
        if gone:
            self._queue = deque(m for m in self._queue if m.id not in gone)
            self._queued -= gone
            for mid in gone:
                self._newer.pop(mid, None)
            # settled like a finished batch: a retry wave they belonged to must still
            # end, or no retry would be queued again
            self._settle_ids(gone)
        return len(gone)

    async def settled_ids(self, ids: Sequence[str]) -> None:
        """Wait until none of these messages is queued or in flight."""
        while any(i in self._queued or i in self._in_flight for i in ids):
            self._check_running()
            self._progress.clear()
            await self._progress.wait()

    def _check_running(self) -> None:
        """A wait for queued work after :meth:`stop` (the memory closed) would never end."""
        if self._stopping:
            raise StoreClosed("the memory was closed while this call waited for indexing; "
                              "the messages not yet indexed stay pending and are indexed "
                              "after the next open")

    async def _settled(self, messages: Sequence[Message]) -> None:
        """Wait until none of these messages is queued or in flight."""
        await self.settled_ids([m.id for m in messages if m.id])

    def _take(self, n: int) -> list[Message]:
        batch: list[Message] = []
        while self._queue and len(batch) < n:
            msg = self._queue.popleft()
            msg = self._newer.pop(msg.id or "", msg)
            assert msg.id is not None
            self._queued.discard(msg.id)
            self._in_flight.add(msg.id)
            self._in_flight_msgs[msg.id] = msg
            batch.append(msg)
        if batch:
            self._progress.set()  # room in the queue: a flush waiting for it reads on
        return batch

    async def _worker(self, n: int) -> None:
        while not self._stopping:
            if not self._queue:
                self._wakeup.clear()
                await self._wakeup.wait()
                continue
            slot = self._embed_slots
            await slot.acquire()
            if len(self._queue) < self.config.batch_size:
                # a bulk import arrives in bursts: a moment's wait gives a fuller,
                # better length-sorted batch (search never waits for indexing)
                await asyncio.sleep(COALESCE_S)
            batch = self._take(self.config.batch_size)
            if not batch:
                slot.release()
                continue
            lease: _Lease | None = None
            try:
                try:
                    mine = await self._claim(batch)
                except BaseException:
                    slot.release()
                    raise
                if not mine:
                    slot.release()
                else:
                    async with self._leased(mine) as lease:
                        lease.written = await self._index_batch(mine, slot,
                                                                lease=lease) == "ok"
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # never let a worker die: the messages stay pending
                # the store or the index is failing (Qdrant down): every batch would fail
                # at once, so look for them again after a pause that grows per failure in
                # a row, with one traceback per outage (one per batch was 119 in 5 s)
                self._write_failures += 1
                pause = retry_delay(self._write_failures, self.config.retry_initial_s,
                                    self.config.retry_max_s, random.uniform(0, RETRY_JITTER))
                if self._write_failures == 1:
                    log.exception("indexing batch failed; messages stay pending, looked "
                                  "at again in %.3g s", pause)
                else:
                    log.debug("indexing batch failed again (%s); looked at again in %.3g s",
                              exc, pause)
                self._sweep_at = min(self._sweep_at, time.monotonic() + pause)
            finally:
                # not those of its pieces done already: some may be in flight again
                done = lease.done if lease is not None else set()
                self._finish([m for m in batch if m.id not in done])

    def _finish(self, batch: Sequence[Message]) -> None:
        """These messages' attempt is over: out of flight, and settled (whoever waits
        for them goes on); a version rewritten while they were embedded is queued
        first, so that a waiter waits for it too."""
        for m in batch:
            self._in_flight.discard(m.id or "")
            self._in_flight_msgs.pop(m.id or "", None)
        again = [self._again.pop(m.id) for m in batch if m.id in self._again]
        if again:
            self._enqueue(again)
        self._settle_ids(m.id or "" for m in batch)

    async def _release(self, ids: Sequence[str]) -> None:
        """End this indexer's leases of these messages (a failure is logged: they run
        out by themselves)."""
        try:
            await self.store.release_claims(self.owner, ids)
        except Exception as exc:
            log.debug("releasing the lease of %d message(s) failed: %s", len(ids), exc)

    async def _claim(self, batch: list[Message]) -> list[Message]:
        """The messages of ``batch`` leased to this indexer (R5); those another process
        holds are left to it, and looked at again when its lease may be over."""
        claim = await self.store.claim(self.owner, [m.id or "" for m in batch],
                                       int(self.config.lease_s * 1000))
        self._store_answered()
        got = set(claim.ids)
        now = time.monotonic()
        self._held = {i: until for i, until in self._held.items()
                      if until > now and i not in got}
        held = [m.id or "" for m in batch if m.id not in got]
        if held and claim.held_ms is not None:
            self._held.update(dict.fromkeys(held, now + claim.held_ms / 1000.0))
            recheck = min(claim.held_ms / 1000.0, CLAIM_RECHECK_S)
            self._sweep_at = min(self._sweep_at, time.monotonic() + recheck)
            self._sweeper_wakeup.set()  # its sleep may be longer than that
        return [m for m in batch if m.id in got]

    @contextlib.asynccontextmanager
    async def _leased(self, batch: Sequence[Message]) -> AsyncIterator[_Lease]:
        """Keep this batch's leases while it runs (renewed every third of ``lease_s``
        until its vectors are written: :meth:`_Lease.let_go`), and end them after: a SQL
        store's vector write ends them (vectors written, or left out as rewritten
        meanwhile); else (failed: another process may retry them; a separate index)
        they are released here."""
        ids = [m.id or "" for m in batch]
        lease_ms = int(self.config.lease_s * 1000)
        lease = _Lease(set(ids))

        async def renew() -> None:
            while True:
                await asyncio.sleep(self.config.lease_s / 3)
                async with lease.renewing:
                    # not those whose write has begun (_Lease.let_go): it ends them
                    renewed = [i for i in ids if i in lease.renewed]
                    if not renewed:
                        return
                    try:
                        await self.store.claim(self.owner, renewed, lease_ms)
                    except asyncio.CancelledError:
                        raise
                    except Exception as exc:  # the next renewal may get through
                        log.warning("renewing the lease of %d message(s) failed: %s",
                                    len(renewed), exc)

        renewer = asyncio.create_task(renew(), name="chatmem-indexer-lease")
        try:
            yield lease
        finally:
            renewer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await renewer
            # a SQL store's write ended them: no round trip per batch for nothing; nor
            # those of a piece done already (_piece_written ended them), perhaps another
            # batch's of this indexer by now
            left = [i for i in ids if i not in lease.done]
            if left and (not lease.written or self.storage.separate):
                await self._release(left)

    async def _sweep_loop(self) -> None:
        while not self._stopping:
            self._sweeper_wakeup.clear()  # a wake-up from here on ends the sleep below
            if time.monotonic() >= self._sweep_at:
                # R5: leases of other processes may have run out (one was killed)
                self._sweep_needed = True
                self._sweep_at = time.monotonic() + self.config.lease_s
            if (self.snapshots_dirty or self.storage.erasures_owed) \
                    and time.monotonic() >= self._heal_retry_at:
                try:
                    await self.heal_snapshots()
                    await self.heal_erasures()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self._heal_retry_at = time.monotonic() + HEAL_RETRY_S
                    log.warning("session changes or erasures not yet in the vector index "
                                "(%s); retried in %.0f s", exc, HEAL_RETRY_S)
            retries = self._retries_due()
            store_paused = time.monotonic() < self._sweep_retry_at  # it failed: wait
            if not store_paused and (self._sweep_needed or retries or self._retry_reload):
                try:
                    if self._retry_reload and not self._retrying:
                        await self._reload_next_retry()
                        retries = self._retries_due()
                    if self._sweep_needed or retries:
                        await self.sweep(retries=retries)
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self._sweep_failed(exc)
                    continue
            with contextlib.suppress(asyncio.TimeoutError):
                await wait_within(self._sweeper_wakeup.wait(), self._sweep_wait())

    def _sweep_failed(self, exc: Exception) -> None:
        """A sweep (or the read of the retry schedule) failed: the store is down or
        refusing. What it was to read still waits: it is read again after a pause that
        grows per failure in a row (the retries' doubling, capped at ``lease_s``), so a
        store that is still down is not asked in a loop; a store call that succeeds
        meanwhile ends the pause (:meth:`_store_answered`). Before, the sweep was not
        tried again until the periodic one, ``lease_s`` (30 s) later."""
        self._sweep_failures += 1
        self._sweep_needed = True
        self._retry_reload = True
        pause = retry_delay(self._sweep_failures, self.config.retry_initial_s,
                            min(self.config.retry_max_s, self.config.lease_s),
                            random.uniform(0, RETRY_JITTER))
        self._sweep_retry_at = time.monotonic() + pause
        if self._sweep_failures == 1:  # one traceback per outage
            log.warning("sweep of pending messages failed; tried again in %.3g s, or as "
                        "soon as the store answers", pause, exc_info=exc)
        else:
            log.debug("sweep of pending messages failed again (%s); tried again in %.3g s",
                      exc, pause)

    def _store_answered(self, *, sweeping: bool = False) -> None:
        """A store call succeeded (``sweeping``: the sweep's own read). After failed
        sweeps, the messages they were to find are looked for now, not when the pause
        (or the periodic sweep) ends."""
        if not self._sweep_failures:
            return
        log.info("the store answers again after %d failed sweep(s); %s",
                 self._sweep_failures, "sweeping" if sweeping else "sweeping now")
        self._sweep_failures = 0
        self._sweep_retry_at = 0.0
        if not sweeping:
            self.sweep_soon()

    async def _store_now(self) -> int:
        """Now on the store's clock (R5, E12): retry schedules are written and compared
        on it, so that processes whose clocks differ retry each other's messages when
        they are due (a schedule on the writer's clock came minutes early or late to a
        process whose clock differed by that). Between two reads, :meth:`_store_time`."""
        now = await self.store.clock_ms()
        self._clock_offset_ms = now - self.clock()
        return now

    def _store_time(self) -> int:
        """The store's clock as :meth:`_store_now` last read it, moved on by ``clock``:
        when the sweeper wakes up for a retry (which the store then says is due or not)."""
        return self.clock() + self._clock_offset_ms

    def _retries_due(self) -> bool:
        """Whether the sweeper should queue retries now: one is due, no wave is under
        way, and retries are not paused (the provider failing)."""
        return (not self._retrying and self._next_retry_at is not None
                and self._store_time() >= self._next_retry_at
                and time.monotonic() >= self._retry_pause_until)

    def _sweep_wait(self) -> float:
        """Seconds the sweeper sleeps: briefly when work is waiting, else until the next
        retry is due (or retries resume), at most :data:`SWEEP_POLL_S`."""
        paused = self._sweep_retry_at - time.monotonic()  # a failed sweep's pause
        if self._sweep_needed and paused <= 0:
            return 0.05
        wait = min(SWEEP_POLL_S, max(self._sweep_at - time.monotonic(), paused, 0.01))
        if self._next_retry_at is not None and not self._retrying:
            due_in = max((self._next_retry_at - self._store_time()) / 1000.0,
                         self._retry_pause_until - time.monotonic())
            wait = min(wait, max(due_in, 0.01))
        return wait

    async def _reload_next_retry(self) -> None:
        """Read the soonest due retry from the store (at start-up, after a wave); a
        failure scheduled while the read runs is kept too."""
        self._retry_reload = False
        self._scheduled_min = None
        await self._store_now()  # the time ``found`` is compared with
        found = await self.store.next_retry_at()
        self._next_retry_at = _earliest(found, self._scheduled_min)

    async def heal_snapshots(self) -> None:
        """Redo the session changes a separate index has not caught up with (durable
        markers in the store's metadata area, see :meth:`Storage.heal_snapshots`)."""
        async with self._heal_lock:  # a heal under way finishes before flush goes on
            if not self.snapshots_dirty:
                return
            self.snapshots_dirty = False  # a change failing from now on sets it again
            try:
                async with self.snapshot_lock:
                    await self.storage.heal_snapshots()
            except BaseException:
                self.snapshots_dirty = True
                raise

    async def heal_erasures(self) -> None:
        """Delete the points of erased messages a separate index missed (durable records
        in the store's metadata area, see :meth:`Storage.heal_erasures`)."""
        async with self._heal_lock:
            await self.storage.heal_erasures()

    async def sweep(self, *, retries: bool = False) -> int:
        """Queue what the store holds as pending and, with ``retries``, a wave of the
        retries that are due (one batch, a probe, while the provider is failing)."""
        room = self._room()
        limit = self.config.max_queue_size
        if room == 0 or (self._queue and limit > 0 and room < limit // 2):
            # a read takes the queued and in-flight rows too (to skip them): while the
            # queue is more than half full it would parse hundreds of rows for a few new
            # ones, on the store's thread that recalls need (R5); it drains first
            return 0
        self._sweep_needed = False
        busy = len(self._in_flight) + len(self._queue)
        with self._watching() as watch:
            # R5: not what other processes hold (their live leases): a sweep that read
            # those would queue them, fail to claim them and read them again, in a loop
            found = await self.store.pending(room + busy, owner=self.owner)
        self._store_answered(sweeping=True)
        fresh = self._fresh(found, watch)[:room]
        if len(found) >= room:  # more may be waiting behind this page
            self._sweep_needed = True
        self._enqueue(fresh)
        taken = len(fresh)
        if retries:
            wave = room - taken
            if self._paused_for:  # a probe: the rest follows once a batch succeeds
                wave = min(wave, self.config.batch_size)
            if wave > 0:
                with self._watching() as watch:
                    due = await self.store.due_retries(wave + busy, await self._store_now(),
                                                       owner=self.owner)
                due = self._fresh(due, watch)[:wave]
                self._enqueue(due, retry=True)
                taken += len(due)
                if not due:  # all taken elsewhere meanwhile: look again in a while
                    self._next_retry_at = None
                    self._retry_reload = True
                    self._retry_pause_until = max(self._retry_pause_until,
                                                  time.monotonic() + SWEEP_POLL_S)
        return taken

    # ------------------------------------------------------------------ indexing

    async def _index_batch(self, batch: list[Message],
                           slot: asyncio.Semaphore | None = None, *,
                           quiet: bool = False, lease: _Lease | None = None) -> str:
        """Embed (holding ``slot``, released as soon as vectors are back), then write;
        a failed embedding schedules the batch's retries (E12). The outcome: ``ok``,
        ``failed`` (retried later) or ``split`` (retried one by one at once).
        ``lease``: the leases of the worker's batch (R5), renewed no more from the
        write of these messages on. Timed for the metrics, in a ``chatmem.index_batch``
        span (:mod:`chatmem.telemetry`).

        A remote provider's batch of more texts than one request takes is sent as
        requests of that size (:meth:`_by_requests`), each written when answered, and
        timed and counted per request, each by its own outcome (the messages of the
        requests answered well count as indexed whatever the others' outcome), not
        as a whole."""
        per_request = self.embedder.batch_size
        if self.embedder.capabilities.remote and len(batch) > per_request:
            if slot is not None:
                slot.release()  # each request takes a slot of its own
            return await self._by_requests(batch, per_request, quiet=quiet, lease=lease)
        with self._timed(batch) as outcome:
            outcome.value = (await self._embed_and_write_one(batch, slot, quiet=quiet,
                                                             lease=lease))[0]
        return outcome.value

    @contextlib.contextmanager
    def _timed(self, batch: Sequence[Message]) -> Iterator[Outcome]:
        """The timing and span of one embedding call's messages (the block sets the
        outcome)."""
        with self.telemetry.timed("index_batch",
                                  **{"chatmem.batch_size": len(batch)}) as outcome:
            outcome.size = len(batch)
            yield outcome

    async def _index_one_by_one(self, batch: list[Message], exc: EmbeddingUnavailable,
                                lease: _Lease | None = None) -> EmbeddingUnavailable | None:
        """A batch answered ``invalid``, retried one text at a time, in random order (so
        that a few bad texts cannot stand first every time), with one log line. Returns
        the error the rest was scheduled with when every text tried alone was invalid
        too (the provider answers nothing good; None: some were good)."""
        order = random.sample(batch, len(batch))
        invalid = 0
        given_up = None
        for i, m in enumerate(order):
            if await self._index_batch([m], quiet=True, lease=lease) == "failed":
                invalid += 1
            if invalid == INVALID_SPLIT_PROBES == i + 1 and i + 1 < len(order):
                rest = order[i + 1:]
                given_up = EmbeddingUnavailable(
                    f"{INVALID_SPLIT_PROBES} texts sent one by one were invalid too: "
                    f"{self.last_error}", provider=exc.provider, retry_decision="fail")
                await self._schedule_retries(rest, given_up, quiet=True)
                invalid += len(rest)
                break
        if invalid:
            log.warning("embedding invalid for %d of %d message(s) sent one by one (%s); "
                        "each retried later", invalid, len(batch), self.last_error)
        return given_up

    async def _by_requests(self, batch: list[Message], size: int, *, quiet: bool,
                           lease: _Lease | None) -> str:
        """A batch as pieces of ``size`` messages, one request each, up to the provider's
        ``max_concurrency`` in flight (the embedding slots, shared by every worker), each
        written as soon as it is answered: a run stopped part way (the process killed,
        the service failing) loses only the requests not answered, and a large batch (a
        reindex, an import) is not sent one request after the other. Once a piece fails
        for a reason every piece shares (the service down, a setting, a width refused),
        the pieces not yet sent are scheduled for their retry as it is, unsent; once one
        raises (the store failing), they stay pending, unsent. The pieces that fail are
        scheduled together (one jitter, one time: :class:`_Schedule`), so the batch
        is retried in one wave, as one call's was. A piece written is done at once
        (:meth:`_piece_written`): a rewrite or an erase of one of its messages, a
        reindex's step, a flush wait for its request, not for the batch's others (a
        piece failing, or split one by one, stays the batch's until its end). While the
        provider is known to fail (:attr:`IndexerStats.retries_paused_for`: an outage,
        or its width refused), the first piece goes alone, a probe, and the others are
        sent only once it has been answered well: a retry wave of 512 messages sends one
        request while the provider is down, not ``max_concurrency`` failing ones at
        once."""
        slots = self._embed_slots
        failure: EmbeddingUnavailable | None = None
        broken = False
        schedule = _Schedule()  # the pieces failing are retried together
        probed = asyncio.Event() if self._paused_for else None

        async def piece(part: list[Message], lead: bool) -> str:
            if probed is not None and not lead:
                await probed.wait()  # the probe's outcome is known: failure, or go on
            try:
                outcome = await sent(part)
            finally:
                if lead and probed is not None:
                    probed.set()
            if outcome == "ok" and lease is not None:
                await self._piece_written(part, lease)
            return outcome

        async def sent(part: list[Message]) -> str:
            nonlocal failure, broken
            # the slot is held until the piece's outcome is known (its texts sent one by
            # one included): a piece after a failed one is sent only if that is not shared
            async with slots:
                if broken:
                    return "failed"
                if failure is None:
                    # timed and counted as a batch of its own (the history, the metrics)
                    with self._timed(part) as timing:
                        try:
                            timing.value, exc = await self._embed_and_write_one(
                                part, quiet=quiet, lease=lease, schedule=schedule)
                        except Exception:
                            broken = True
                            raise
                    if exc is not None and exc.retry_decision != "invalid" \
                            and failure is None:
                        failure = exc
                    return timing.value
            assert failure is not None
            with self._timed(part) as timing:  # failed unsent: counted as failed
                await self._schedule_retries(part, failure, quiet=True, schedule=schedule)
                timing.value = "failed"
            return "failed"

        tasks = [asyncio.ensure_future(piece(batch[start:start + size], start == 0))
                 for start in range(0, len(batch), size)]
        try:
            # each piece ends (written, failed) before this does: none is cut mid-write
            results = await asyncio.gather(*tasks, return_exceptions=True)
        except asyncio.CancelledError:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
            raise
        for result in results:
            if isinstance(result, BaseException):
                raise result
        if all(outcome == "ok" for outcome in results):
            return "ok"
        return "failed" if "failed" in results else "split"

    async def _piece_written(self, part: list[Message], lease: _Lease) -> None:
        """A piece of a worker's batch was written (:meth:`_by_requests`): its messages
        are done now, not once the batch's last request is answered (up to
        ``indexing.batch_size`` messages of requests later), so whoever waits for them
        (a rewrite, an erase, a reindex's step, a flush) goes on. Their leases end here
        (a SQL store's write ended them; beside a separate index they are released), not
        at the batch's end, by when they may be another batch's of this indexer (a
        rewrite queues its message again). Cancelled first, the batch's end does both."""
        ids = [m.id or "" for m in part]
        if self.storage.separate:
            await self._release(ids)
        lease.done.update(ids)
        self._finish(part)

    async def _embed_and_write_one(self, batch: list[Message],
                                   slot: asyncio.Semaphore | None = None, *,
                                   quiet: bool = False, lease: _Lease | None = None,
                                   schedule: _Schedule | None = None
                                   ) -> tuple[str, EmbeddingUnavailable | None]:
        """:meth:`_index_batch` of one embedding call, untimed, and the error that failed it
        (None: written, or split one by one with some texts answered well).
        ``schedule``: the batch's retry schedule, when this call is a piece of it."""
        try:
            texts = await vector_texts(self.store, batch, self.config)
            embedded = await self.widths.embed(self.embedder, texts)
            width = len(embedded.vectors[0]) if len(embedded.vectors) else 0
        except EmbeddingUnavailable as exc:
            if slot is not None:
                slot.release()
                slot = None
            self.last_error = str(exc)
            if len(batch) > 1 and exc.retry_decision == "invalid":
                # one bad answer must not fail its neighbours: retry one by one
                return "split", await self._index_one_by_one(batch, exc, lease)
            await self._schedule_retries(batch, exc, quiet=quiet, schedule=schedule)
            return "failed", exc
        finally:
            if slot is not None:
                slot.release()
        if self._paused_for == "provider":  # it answers: retries go on at once
            self._resume()
        async with self.snapshot_lock:  # the sessions as they are when the vectors land
            sessions = await snapshot_sessions(self.store, {m.session_id for m in batch})
            # stored under the model that made them (auto may change its model between
            # two calls, embedding.auto.MIN_SAMPLE_LETTERS)
            entries = [vector_entry(m, sessions.get(m.session_id), v, embedded.model_id)
                       for m, v in zip(batch, embedded.vectors)]
            if lease is not None:
                await lease.let_go(m.id or "" for m in batch)
            try:
                # a message rewritten (in another process) since it was read keeps
                # waiting, its lease ended only if still this indexer's (another may have
                # taken it over); the store refuses a model's second width (its first having
                # landed since the check: another batch, another process)
                await self.storage.write_entries(entries, current_only=True,
                                                 one_width=self.widths.rule(),
                                                 owner=self.owner)
                refused = None
            except WidthConflict as conflict:
                refused = await self.widths.refused(conflict, self.embedder.provider.name)
        if refused is not None:
            self.last_error = str(refused)
            await self._schedule_retries(batch, refused, quiet=quiet, schedule=schedule)
            return "failed", refused
        if width:
            self.widths.wrote(embedded.model_id, width)
        await self._context_moved(batch, texts)
        if self._write_failures:  # the failed batches' messages wait in the store
            self.sweep_soon()
        self._write_failures = 0
        self._resume()  # written: the store takes what the provider answers
        self._indexed += len(entries)
        self._batches += 1
        return "ok", None

    async def _context_moved(self, batch: Sequence[Message], texts: Sequence[str]) -> None:
        """Issue 12: a short reply embedded with the turn before it whose turn was erased
        or rewritten meanwhile (by another process, or while its batch ran) holds words
        that are no longer there; the erase or rewrite re-embeds only replies already
        indexed. So each written reply's text is read again after its write: one that
        moved is made pending and queued again. An erase that commits after this read
        finds the reply indexed, and re-embeds it itself."""
        replies = [(m, t) for m, t in zip(batch, texts) if short_reply(m, self.config)]
        if not replies:
            return
        now = await vector_texts(self.store, [m for m, _ in replies], self.config)
        moved = [m for (m, was), text in zip(replies, now) if text != was]
        if not moved:
            return
        states = await self.store.index_states([m.id or "" for m in moved])
        # still waiting: not written (its own text changed), its rewriter queues it
        stale = [m for m in moved if states.get(m.id or "") == IndexState.INDEXED]
        if stale:
            await self.store.set_index_state([m.id or "" for m in stale], IndexState.PENDING)
            self._again.update((m.id or "", m) for m in stale)
            log.info("%d short repl(ies) embedded with a turn that changed meanwhile: "
                     "embedded again", len(stale))

    def _resume(self) -> None:
        """Retries go on when due, in full waves: the provider answers (an outage is
        over), or a batch was written (no width refused)."""
        self._paused_for = None
        self._paused_since = None
        self._failures_in_a_row = 0
        self._retry_pause_until = 0.0

    async def _schedule_retries(self, batch: Sequence[Message], exc: EmbeddingUnavailable,
                                *, quiet: bool = False, schedule: _Schedule | None = None
                                ) -> None:
        """Mark the batch ``FAILED`` with each message's next attempt (E12) and pause
        retries for the shortest of those delays. ``schedule``: the batch's, when these
        messages are a piece of it (its pieces that fail are due together).

        A batch refused for its width (``exc.width_mismatch``) is no outage: the
        provider answered, and no retry helps until the store and the model agree again
        (``chatmem reindex``, or the old model served again). Its retries pause and go
        one batch at a time as in an outage (each is embedded again: a full wave would
        embed every waiting message for nothing), but the pause is the width's, said
        as such once (stats: ``retries_paused_for``): it ends an outage known before,
        and an outage after it is warned of as one."""
        ids = [m.id for m in batch if m.id]
        for seen in self._failure_watchers:  # before any wait: when the failure was seen
            seen.update(ids)
        known = await self.store.retries(ids)
        now = await self._store_now()
        # one jitter per batch, retried together; a piece at the times of its batch's others
        schedule = schedule or _Schedule()
        jitter = schedule.jitter
        if schedule.now is None:
            schedule.now = now
        now = schedule.now
        cfg = self.config
        schedules: dict[str, Retry] = {}
        for mid in ids:
            attempts = known.get(mid, Retry()).attempts + 1
            delay = retry_delay(attempts, cfg.retry_initial_s, cfg.retry_max_s, jitter)
            schedules[mid] = Retry(attempts, now + int(delay * 1000))
        await self.store.schedule_retries(schedules)
        self._failed += len(ids)
        if not schedules:
            return
        soonest = min(r.retry_at for r in schedules.values())
        self._next_retry_at = _earliest(self._next_retry_at, soonest)
        self._scheduled_min = _earliest(self._scheduled_min, soonest)
        self._sweeper_wakeup.set()  # its sleep (up to SWEEP_POLL_S) may end after this is due
        wait_s = max(soonest - now, 0) / 1000.0
        # None: one text failed (a garbage answer), always worth a line; else every
        # batch fails alike: warn when it begins, then keep quiet (the counts are in
        # stats), and again when the reason changes
        reason = None if exc.retry_decision == "invalid" \
            else "width" if exc.width_mismatch else "provider"
        loud = not quiet and (reason is None or reason != self._paused_for)
        if reason is not None:
            if reason != self._paused_for:  # its own backoff, from the first step
                self._resume()
                self._paused_for = reason
                self._paused_since = time.time()  # wall clock: shown to people
            clock = time.monotonic()
            if clock >= self._retry_pause_until:
                # the provider's own backoff: it grows per failure once the last pause is
                # over (a probe), not per batch failing meanwhile (batches fail together
                # in an outage), so an outage (or a width refused) is probed ever more
                # rarely
                self._failures_in_a_row += 1
                pause = retry_delay(self._failures_in_a_row, cfg.retry_initial_s,
                                    cfg.retry_max_s, jitter)
                self._retry_pause_until = clock + max(wait_s, pause)
            wait_s = max(wait_s, self._retry_pause_until - clock)
        level = logging.WARNING if loud else logging.DEBUG
        if reason == "width":
            log.log(level, "vectors of %d message(s) refused for their width, not an outage "
                    "(the provider answered): %s; retried in %.3g s, one batch at a time "
                    "while refused", len(ids), exc, wait_s)
            return
        log.log(level,
                "embedding %s for %d message(s): %s; retried in %.3g s",
                    {"defer": "deferred", "cooldown": "deferred (cooldown)",
                     "invalid": "invalid"}.get(exc.retry_decision, "failed"),
                    len(ids), exc, wait_s)

    async def flush(self, timeout: float | None = None, *, retry_failed: bool = True) -> None:
        """Wait until every message waiting when this starts, or stored meanwhile, has
        been attempted: indexed, or failed and scheduled again (E12: so a provider that
        is down cannot hang it). With ``retry_failed``, messages already waiting for a
        retry get one attempt now, whatever their schedule; one failing again keeps
        waiting, and the flush does not wait for it. A batch already in flight when the
        flush starts is waited for; one whose embedding failed before the flush began
        (its retry still being scheduled) gets that attempt too, as the provider may be
        back since. One failing while the flush waits (a service that does not answer,
        given up at ``embedding.deadline``) is news that the provider is down now: it
        keeps waiting for its retry, so the flush waits one deadline for it, not two."""

        async def _wait() -> None:
            began_before = set(self._in_flight)
            # the ids whose embedding fails (scheduled for a retry) while it runs
            with _watch_set(self._failure_watchers) as failed_meanwhile:
                await self.heal_snapshots()
                await self.heal_erasures()
                if retry_failed:
                    cursor = 0
                    while True:
                        with self._watching() as watch:
                            page = await self.store.failed_after(cursor, await self._page())
                        if not page:
                            break
                        cursor = page[-1][0]
                        # not one failing while this flush waited (a batch in flight)
                        await self._attempt_once([m for _, m in page
                                                  if m.id not in failed_meanwhile], watch)
                while True:
                    with self._watching() as watch:
                        found = await self.store.pending(await self._page())
                    if not found:
                        break
                    self.enqueue(self._fresh(found, watch))
                    await self._settled(found)
                    # found but taken: their batch is being written, here or (R5) elsewhere
                    now = time.monotonic()
                    held = any(self._held.get(m.id or "", 0.0) > now for m in found)
                    await asyncio.sleep(CLAIM_RECHECK_S / 10 if held else 0)
                if retry_failed and began_before:
                    await self.settled_ids(sorted(began_before))
                    states = await self.store.index_states(sorted(began_before))
                    failed = [i for i, st in states.items()
                              if st is IndexState.FAILED and i not in failed_meanwhile]
                    if failed:
                        with self._watching() as watch:
                            again = list((await self.store.get(failed)).values())
                        await self._attempt_once(again, watch)

        await wait_within(_wait(), timeout)

    async def _attempt_once(self, found: list[Message], watch: set[str]) -> None:
        """Give these messages waiting for a retry one attempt and wait for it (flush).
        Ones a full queue drops before their attempt (the sweeper fills it too) are
        queued again while the store still shows them waiting: a flush never moves
        past a page, as the pending loop never does, with some of it unattempted."""
        while found:
            dropped: set[str] = set()
            self._drop_watchers.append(dropped)
            try:
                self.enqueue(self._fresh(found, watch), retry=True)
                await self._settled(found)
            finally:
                _remove_this(self._drop_watchers, dropped)
            missed = sorted(dropped & {m.id for m in found})
            if not missed:
                return
            with self._watching() as watch:
                states = await self.store.index_states(missed)
            found = [m for m in found if m.id in missed
                     and states.get(m.id or "") is IndexState.FAILED]

    async def _page(self) -> int:
        """A flush's page (and a part of :meth:`enqueue_within_room`): what the queue
        takes now, the room left in it. Not its capacity (:func:`queue_step`): a queue
        already holding messages (a worker waiting for an embedding slot, an ``add``
        meanwhile) dropped the oldest of a page that size, read again by a later pass,
        in requests of their own. A full queue is waited on until a worker takes from
        it."""
        while not (room := self._room()):
            self._check_running()
            self._progress.clear()
            await self._progress.wait()
        return room

    async def enqueue_within_room(self, messages: Sequence[Message]) -> None:
        """:meth:`enqueue`, no more at once than the queue has room for (a full queue
        waited on until a worker takes from it): none of these, nor of the messages
        queued before them, is dropped from the queue (a reindex's step)."""
        rest = list(messages)
        while rest:
            room = await self._page()
            self.enqueue(rest[:room])
            rest = rest[room:]

    async def settle(self, session_id: str, ts: int, timeout: float = 60.0) -> None:
        """Wait until no queued or in-flight work is about the message at (session, ts) (F3)."""

        def busy() -> bool:
            return any(m.session_id == session_id and m.ts == ts
                       for m in (*self._queue, *self._in_flight_msgs.values()))

        deadline = time.monotonic() + timeout
        while busy() and time.monotonic() < deadline:
            self._check_running()
            await asyncio.sleep(0.01)

    def stats(self) -> IndexerStats:
        return IndexerStats(len(self._queue), len(self._in_flight), self._dropped,
                            self._indexed, self._failed, self._batches, len(self._retrying),
                            max(self._retry_pause_until - time.monotonic(), 0.0)
                            if self._paused_for else 0.0, self.last_error, self._paused_for,
                            self._paused_since)

