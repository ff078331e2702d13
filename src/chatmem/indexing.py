"""The background indexer (F1, F2, E12): stored messages → vectors, durably.

The message store is the durable queue: every indexable message is stored
``PENDING`` before ``add`` returns, and becomes ``INDEXED`` in the same
transaction that writes its vector (or by an idempotent upsert keyed by the
message id, for a separate vector index). The in-memory queue only saves a
trip to the store; when it overflows, the oldest *queued id* is dropped, never
the message, and a sweep of the store picks it up later. After a crash the
start-up sweep indexes every pending message exactly once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from .config import IndexingConfig
from .embedding import Embedder
from .errors import EmbeddingUnavailable
from .models import IndexState, Message, Session, VectorEntry
from .models import embedded_text as embedded_text  # F1, defined with the model; re-exported
from .store.storage import (  # re-exported: the snapshot helpers used to live here
    SNAPSHOT_DIRTY,
    Storage,
    root_of,
    session_tree,
    snapshot_of,
    snapshot_sessions,
)

__all__ = ["SNAPSHOT_DIRTY", "Indexer", "IndexerStats", "embedded_text", "root_of",
           "session_tree", "snapshot_of", "snapshot_sessions", "vector_entry"]

log = logging.getLogger("chatmem.indexing")

#: Seconds between retries of messages whose embedding failed (E12).
RETRY_INTERVAL_S = 30.0
#: Seconds between retries of session changes a separate index has not caught up with.
HEAL_RETRY_S = 5.0
#: Seconds a worker holding the embedding slot waits for a partial batch to fill.
COALESCE_S = 0.02


def vector_entry(msg: Message, session: Session | None, vector: object, model_id: str
                 ) -> VectorEntry:
    assert msg.id is not None and msg.ts is not None
    return VectorEntry(
        message_id=msg.id, session_id=msg.session_id, ts=msg.ts, role=msg.role,
        model_id=model_id, vector=vector,
        # the message's own entry platform: never a copy of the session's, so that it
        # cannot go stale when the session changes (F9 tests the origin platform apart)
        platform=msg.platform,
        speaker_id=msg.speaker_id, mentions=msg.mentions,
        resource_id=session.resource_id if session else None,
        session_metadata=dict(session.metadata) if session else {},
        origin_platform=session.origin_platform if session else None,
        message_metadata=dict(msg.metadata),
        text=embedded_text(msg),
    )


@dataclass(frozen=True)
class IndexerStats:
    queued: int
    in_flight: int
    dropped_from_queue: int
    indexed: int
    failed: int
    batches: int


class Indexer:
    def __init__(self, storage: Storage, embedder: Embedder,
                 config: IndexingConfig | None = None,
                 snapshot_lock: asyncio.Lock | None = None) -> None:
        self.storage = storage
        self.store = storage.store
        self.embedder = embedder
        self.config = config or IndexingConfig()
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
        self._wakeup = asyncio.Event()
        self._idle = asyncio.Event()
        self._idle.set()
        self._sweep_needed = True  # start-up: resume whatever a previous run left pending
        # A worker takes its batch only once it may embed: while one batch runs, the
        # queue fills, and the next batch is larger and better length-sorted. Local
        # models run one inference at a time anyway (they use every core inside one).
        slots = embedder.capabilities.max_concurrency or self._worker_count()
        self._embed_slots = asyncio.Semaphore(slots)
        self._workers: list[asyncio.Task[None]] = []
        self._sweeper: asyncio.Task[None] | None = None
        self._stopping = False
        self._dropped = 0
        self._indexed = 0
        self._failed = 0
        self._batches = 0
        self._last_retry = 0.0
        self.last_error: str | None = None

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
        self._wakeup.set()

    async def stop(self) -> None:
        """Stop workers; whatever is not indexed stays pending in the store."""
        self._stopping = True
        self._wakeup.set()
        tasks = [*self._workers, *([self._sweeper] if self._sweeper else [])]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await t
        self._workers = []
        self._sweeper = None

    # ------------------------------------------------------------------ queue

    def enqueue(self, messages: Sequence[Message]) -> None:
        limit = self.config.max_queue_size
        for msg in messages:
            if not msg.indexable or msg.id is None:
                continue
            if msg.id in self._queued or msg.id in self._in_flight:
                continue
            self._queue.append(msg)
            self._queued.add(msg.id)
            if limit > 0 and len(self._queue) > limit:
                old = self._queue.popleft()
                self._queued.discard(old.id or "")
                self._dropped += 1
                self._sweep_needed = True  # it is still PENDING in the store
        if self._queue:
            self._idle.clear()
        self._wakeup.set()

    def _take(self, n: int) -> list[Message]:
        batch: list[Message] = []
        while self._queue and len(batch) < n:
            msg = self._queue.popleft()
            assert msg.id is not None
            self._queued.discard(msg.id)
            self._in_flight.add(msg.id)
            self._in_flight_msgs[msg.id] = msg
            batch.append(msg)
        return batch

    def _maybe_idle(self) -> None:
        if not self._queue and not self._in_flight and not self._sweep_needed:
            self._idle.set()

    async def _worker(self, n: int) -> None:
        while not self._stopping:
            if not self._queue:
                self._maybe_idle()
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
            try:
                await self._index_batch(batch, slot)
            except asyncio.CancelledError:
                raise
            except Exception:  # never let a worker die: the messages stay pending
                log.exception("indexing batch failed; messages stay pending")
                self._sweep_needed = True
            finally:
                for m in batch:
                    self._in_flight.discard(m.id or "")
                    self._in_flight_msgs.pop(m.id or "", None)
                self._maybe_idle()

    async def _sweep_loop(self) -> None:
        while not self._stopping:
            retry_due = time.monotonic() - self._last_retry >= RETRY_INTERVAL_S
            if self.snapshots_dirty and time.monotonic() >= self._heal_retry_at:
                try:
                    await self.heal_snapshots()
                except asyncio.CancelledError:
                    raise
                except Exception as exc:
                    self._heal_retry_at = time.monotonic() + HEAL_RETRY_S
                    log.warning("session changes not yet in the vector index (%s); retried "
                                "in %.0f s", exc, HEAL_RETRY_S)
            if self._sweep_needed or (retry_due and self._failed):
                try:
                    await self.sweep(include_failed=retry_due)
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("sweep of pending messages failed; will retry")
                    await asyncio.sleep(1.0)
                    continue
            await asyncio.sleep(0.05 if self._sweep_needed else 0.5)

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

    async def sweep(self, *, include_failed: bool = False) -> int:
        """Queue what the store holds as pending (and failed, when retrying)."""
        if include_failed:
            self._last_retry = time.monotonic()
        room = self.config.max_queue_size if self.config.max_queue_size > 0 else 10_000
        room = max(room - len(self._queue), 0)
        if room == 0:
            return 0
        self._sweep_needed = False
        pending = await self.store.pending(room + len(self._in_flight) + len(self._queue),
                                           include_failed=include_failed)
        fresh = [m for m in pending if m.id not in self._queued and m.id not in self._in_flight]
        fresh = fresh[:room]
        if len(pending) >= room:  # more may be waiting behind this page
            self._sweep_needed = True
        self.enqueue(fresh)
        self._maybe_idle()
        return len(fresh)

    # ------------------------------------------------------------------ indexing

    async def _index_batch(self, batch: list[Message],
                           slot: asyncio.Semaphore | None = None) -> None:
        """Embed (holding ``slot``, released as soon as vectors are back), then write."""
        try:
            vectors = await self.embedder.embed_many([embedded_text(m) for m in batch])
        except EmbeddingUnavailable as exc:
            if slot is not None:
                slot.release()
                slot = None
            self.last_error = str(exc)
            if len(batch) > 1 and exc.retry_decision == "invalid":
                # one bad answer must not fail its neighbours: retry one by one
                for m in batch:
                    await self._index_batch([m])
                return
            if exc.retry_decision == "defer":
                log.warning("embedding deferred (%s); %d message(s) stay pending", exc,
                            len(batch))
                self._sweep_needed = True
                await asyncio.sleep(1.0)
                return
            self._failed += len(batch)
            await self.store.set_index_state([m.id for m in batch if m.id], IndexState.FAILED)
            log.warning("embedding failed for %d message(s): %s; retried every %.0f s",
                        len(batch), exc, RETRY_INTERVAL_S)
            return
        finally:
            if slot is not None:
                slot.release()
        model_id = self.embedder.model_id
        async with self.snapshot_lock:  # the sessions as they are when the vectors land
            sessions = await snapshot_sessions(self.store, {m.session_id for m in batch})
            entries = [vector_entry(m, sessions.get(m.session_id), v, model_id)
                       for m, v in zip(batch, vectors)]
            await self.storage.write_entries(entries)
        self._indexed += len(entries)
        self._batches += 1

    async def flush(self, timeout: float | None = None) -> None:
        """Wait until every pending message has been indexed (or has failed)."""

        async def _wait() -> None:
            await self.heal_snapshots()
            while True:
                self._sweep_needed = True
                self._idle.clear()
                self._wakeup.set()
                await self.sweep()
                self._maybe_idle()
                await self._idle.wait()
                if not await self.store.pending(1):
                    return
                await asyncio.sleep(0.01)

        await asyncio.wait_for(_wait(), timeout)

    async def settle(self, session_id: str, ts: int, timeout: float = 60.0) -> None:
        """Wait until no queued or in-flight work is about the message at (session, ts) (F3)."""

        def busy() -> bool:
            return any(m.session_id == session_id and m.ts == ts
                       for m in (*self._queue, *self._in_flight_msgs.values()))

        deadline = time.monotonic() + timeout
        while busy() and time.monotonic() < deadline:
            await asyncio.sleep(0.01)

    def stats(self) -> IndexerStats:
        return IndexerStats(len(self._queue), len(self._in_flight), self._dropped,
                            self._indexed, self._failed, self._batches)
