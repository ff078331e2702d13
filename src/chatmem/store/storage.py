"""One storage object: the message store, its vector index and its full-text rows.

A SQL store (SQLite, PostgreSQL) is its own vector index: it writes a vector, its
full-text row and the message's index state in one transaction. A separate vector
index (Qdrant) cannot, so every operation that changes vectors must also move the
store's full-text rows (X1) and index states by hand. Whether the index is separate
is decided once, here, and every such operation lives here, so no caller asks again.
"""

from __future__ import annotations

import contextlib
import json
import logging
import sys
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

from ..errors import ChatmemError, ConfigError, DamagedRow, StoreError
from ..models import Erased, IndexState, Session, StoreStats, VectorEntry
from ..refusals import as_given
from .base import (
    LexicalIndex,
    MessageStore,
    OneWidth,
    SessionSnapshot,
    VectorIndex,
    kept_snapshots_told_by_caller,
    load_parent_chain,
    snapshot_changes,
    stale_entries,
    walked_past,
)
from .qdrant import missing_local_index, new_owner
from .urls import check_vector_url, open_store, open_vector_index

log = logging.getLogger("chatmem.storage")

#: Metadata-area namespace of sessions whose vectors a separate index has not caught up
#: with yet (key: the session id whose change must reach its vectors and its descendants').
SNAPSHOT_DIRTY = "chatmem.snapshot-dirty"
#: Metadata-area place where a store records the separate index its vectors live in
#: (the index's URL without credentials or options; :func:`index_label`).
VECTORS_NAMESPACE = "chatmem.storage"
VECTORS_KEY = "vectors"
#: ... and the id that names the store's own collections in that index (so that stores
#: sharing one Qdrant never read, count, export or drop each other's points).
OWNER_KEY = "vectors-owner"
#: ... and the index (its label) a process last began writing vectors into, written
#: before its first vector (:meth:`Storage.write_entries`): an open that recorded that
#: index and then failed keeps the record (:meth:`Storage.unrecord`), even when the
#: index cannot show those vectors yet.
WRITING_KEY = "vectors-writing"
#: ... and, under keys with this prefix, the erasures the separate index may have missed
#: (the ids, as JSON, of messages whose points must go): written before the store erases,
#: deleted once the points are gone. A crash or an index failure in between leaves it for
#: :meth:`Storage.heal_erasures`, as the erased messages can no longer be found to be
#: forgotten again. (In this namespace, so that an export leaves it out: not data.)
ERASE_OWED_PREFIX = "erase-owed:"
#: ... and, under keys with this prefix (then ``[session_id, ts]`` as JSON), the rewrites
#: whose new vectors and full-text rows may not be written yet: a rewrite of an indexed
#: message commits its new text first and embeds it after, so a crash (or the provider
#: failing) in between would leave the old text findable for good, a redaction undone.
REWRITE_OWED_PREFIX = "rewrite-owed:"


def index_label(url: str) -> str:
    """A vector index URL as a store records it: scheme, host, port and path, without
    user info or query (an ``api_key`` must not be written into the store)."""
    try:
        parts = urlsplit(url)
        host = parts.netloc.rsplit("@", 1)[-1]
    except ValueError:
        return "a separate vector index"
    return f"{parts.scheme}://{host}{parts.path}"


async def root_of(store: MessageStore, session: Session) -> Session:
    """The root of a session's parent chain (a sub-task's room)."""
    return (await load_parent_chain(store, session)).root


async def snapshot_sessions(store: MessageStore, ids: set[str],
                            cache: dict[str, Session] | None = None,
                            damaged: list[DamagedRow] | None = None) -> dict[str, Session]:
    """Sessions as a vector snapshots them: a child takes its root's origin platform (F9)
    and, when it has none of its own, its root's resource id. ``cache``: sessions by id
    as stored, which the caller read already (not read again); those read here, and
    their ancestors, are added to it. ``damaged``: as :meth:`MessageStore.get_sessions`
    for the sessions of ``ids`` (a caller that needs neither their metadata nor their
    settings, or checks which it needs; those read so are cached so)."""
    stored: dict[str, Session] = {} if cache is None else cache
    wanted = sorted(ids - stored.keys())
    if wanted:
        extra: dict[str, Any] = {} if damaged is None else {"damaged": damaged}
        stored.update(await store.get_sessions(wanted, **extra))
    out: dict[str, Session] = {}
    # an ancestor gives its origin platform and resource id: its metadata or settings
    # that chatmem cannot read (a hand edit) are read as {} (logged)
    # (kept out of the caller's cache, which holds sessions as stored)
    walked: list[DamagedRow] = []
    chains = dict(stored)
    for sid in sorted(ids):
        session = stored.get(sid)
        if session is None:
            continue
        if session.parent_id:
            root = (await load_parent_chain(store, session, cache=chains,
                                            damaged=walked)).root
            session = replace(session, origin_platform=root.origin_platform,
                              resource_id=session.resource_id or root.resource_id)
        out[sid] = session
    unread = {bad.row for bad in walked}
    stored.update((sid, s) for sid, s in chains.items() if sid not in unread)
    walked_past(walked, doing="as a session's ancestor")
    return out


def snapshot_of(session: Session) -> SessionSnapshot:
    """The snapshot fields of a session as :func:`snapshot_sessions` resolved it."""
    return SessionSnapshot(session.id, session.origin_platform, session.resource_id,
                           dict(session.metadata))


async def session_tree(store: MessageStore, session_id: str, tree: bool = True) -> list[str]:
    """``session_id`` and, with ``tree``, every session below it."""
    return [session_id, *(await store.descendant_sessions(session_id) if tree else ())]


@dataclass(frozen=True)
class StoredSession:
    """A session upsert's outcome: the stored row, and whether its vectors (and its
    descendants') may still miss the change — a separate index failed to follow, and a
    durable marker tells :meth:`Storage.heal_snapshots` to redo it."""

    session: Session
    snapshots_owed: bool = False


#: What an open changed in the store's record of its separate index, to undo it: the keys
#: (in :data:`VECTORS_NAMESPACE`) it set, each with the value it had (``None``: unset).
Changes = list[tuple[str, str | None]]


async def _vector_owner(store: MessageStore, recorded: str | None,
                        changes: Changes) -> str | None:
    """The id of the store's own collections in a separate index: made when the store
    first opens with one (noted in ``changes``); ``None`` for a store that recorded its
    index before stores had owners (its vectors stay in the shared collections, where
    they are)."""
    owner = await store.meta_get(VECTORS_NAMESPACE, OWNER_KEY)
    if owner is not None or recorded is None:
        if owner:
            return owner
        made = new_owner()
        owner = await store.meta_set_default(VECTORS_NAMESPACE, OWNER_KEY, made)
        if owner == made:  # ours, not another process's made meanwhile
            changes.append((OWNER_KEY, None))
        return owner
    log.warning("this store's vectors are in the collections chatmem_* of %s, shared with "
                "every other store that recorded its index there before stores had "
                "collections of their own (they can see and clear each other's vectors); "
                "to give it its own, copy it: chatmem migrate --from-vector … --to-vector …",
                recorded)
    return None


async def _restore(store: MessageStore, changes: Changes) -> None:
    """Put back what :meth:`Storage.open` changed in the store's record (last first)."""
    for key, before in reversed(changes):
        if before is None:
            await store.meta_delete(VECTORS_NAMESPACE, key)
        else:
            await store.meta_set(VECTORS_NAMESPACE, key, before)


def _remove_made(index: VectorIndex) -> None:
    """Remove the local-mode folder that opening ``index`` made, now closed, when nothing
    was written to it (:meth:`chatmem.store.qdrant.QdrantIndex.remove_made`)."""
    # an optional capability, not part of the VectorIndex protocol
    remove = getattr(index, "remove_made", None)
    if remove is not None:
        remove()


async def _discard(store: MessageStore) -> None:
    """Close a store whose opener failed; a SQLite store its open created goes too
    (:meth:`chatmem.store.sqlite.SqliteStore.discard`): a failed open leaves no file."""
    # an optional capability, not part of the MessageStore protocol
    discard = getattr(store, "discard", None)
    await (discard() if discard is not None else store.close())


class Storage:
    """The message store, the vector index (``None``: a store without recall) and the
    store's full-text index (``None`` when the store keeps none), used together."""

    def __init__(self, store: MessageStore, index: VectorIndex | None = None, *,
                 record: Sequence[tuple[str, str]] = ()) -> None:
        self.store = store
        self.index = index
        #: Whether the vectors live apart from the messages: then the store's index
        #: states and full-text rows are moved here, after the index, not by the index.
        own_index = store if isinstance(store, VectorIndex) else None  # a SQL store's
        self.separate = index is not None and index is not own_index
        #: The store's full-text index (X1); hybrid recall queries it.
        self.lexical: LexicalIndex | None = store if isinstance(store, LexicalIndex) else None
        # a SQL store beside a separate index keeps only full-text rows of its entries;
        # its own snapshot update moves them (it holds no vectors)
        self._store_snapshots = own_index if self.separate and self.lexical is not None else None
        #: Whether erasures may still owe the separate index's points (start-up, or an
        #: erase whose points could not be deleted): :meth:`heal_erasures` looks.
        self.erasures_owed = self.separate
        #: Whether rewrite records may be waiting (start-up: an earlier run's; then each
        #: rewrite until a heal has looked): a flush reads the records only then.
        self.rewrites_unsettled = True
        #: What :meth:`open` changed in the store's record of the separate index, and
        #: whether a vector was written to that index since (:meth:`unrecord`).
        self._changes: Changes = []
        self._vectors_written = False
        #: What the store records of the separate index (its label, the id of the
        #: store's collections), as :meth:`open` made or found it: the first vector this
        #: storage writes puts back what another process's failed open undid meanwhile.
        self.record = list(record)
        self._record_kept = not self.record
        #: Whether :meth:`unrecord` undid it: a local-mode folder the open made goes
        #: with the close.
        self._unrecorded = False

    @classmethod
    async def open(cls, url: str, *, vector: str | None = None, create: bool = True
                   ) -> Storage:
        """The store named by ``url`` (see :mod:`chatmem.store`) with, when ``vector`` is
        given, a separate vector index (``qdrant://…``); else the store is its own index.
        ``create=False`` opens only an existing store and index (a Qdrant local-mode
        folder that is missing or empty is a :class:`StoreError` naming ``vector``,
        nothing made). A store opened with a separate
        index records it (and the id of its collections there); a command that then
        fails before writing a vector undoes that (:meth:`unrecord`, ``async with`` does
        it). An open that fails changes nothing in an existing store, and removes a
        SQLite store it created."""
        if vector is not None:
            check_vector_url(vector)  # a mistyped one creates no store
            missing = None if create else missing_local_index(vector)
            if missing:
                raise StoreError(f"vector {as_given(vector, 200)}: {missing}: check the "
                                 "path, or create the index first (create=True); nothing "
                                 "was created")
        store = await open_store(url, create=create)
        changes: Changes = []
        index: VectorIndex | None = None
        try:
            recorded = await store.meta_get(VECTORS_NAMESPACE, VECTORS_KEY)
            if vector is None:
                if recorded is not None:
                    # opened alone, it would take new vectors itself and recall would
                    # read its own (few or none) instead of the index's: a split index
                    raise ConfigError(
                        f"this store's vectors live in a separate index ({recorded}): "
                        "open it with that index (vector=… in Python, --vector on the "
                        "command line and the servers, CHATMEM_VECTOR). To keep the "
                        "vectors in a store of its own instead, copy it with chatmem "
                        "migrate --from-vector … into a store opened without one")
                return cls(store, store)
            owner = await _vector_owner(store, recorded, changes)
            index = await open_vector_index(vector, store, owner=owner)
            label = index_label(vector)
            if recorded != label:
                changes.append((VECTORS_KEY, recorded))
                await store.meta_set(VECTORS_NAMESPACE, VECTORS_KEY, label)
            record = [(VECTORS_KEY, label)] + ([(OWNER_KEY, owner)] if owner else [])
            storage = cls(store, index, record=record)
            storage._changes = changes
            return storage
        except BaseException:
            try:
                if index is not None:
                    await index.close()
                    _remove_made(index)
                if changes:
                    with contextlib.suppress(Exception):
                        await _restore(store, changes)
            finally:
                await _discard(store)
            raise

    async def unrecord(self) -> bool:
        """Undo what :meth:`open` recorded of the separate index (the index's URL, the id
        of the store's collections there) after the command that opened it failed:
        a failed command leaves the store as it was. Kept when a vector was written to
        the index through this storage, or the index holds vectors of the store (another
        process's, or a store whose index moved), or cannot say: then the store's vectors
        are (or may be) there, and the record is what keeps a later open from splitting
        them. Returns whether it was undone.

        Atomic against another process that writes vectors into the index meanwhile:
        that process notes the index in the store before its first vector
        (:data:`WRITING_KEY`), and the undo, in one transaction under the store's lock of
        the record (:meth:`MessageStore.meta_guarded`), is made only while no such note
        names this index; a writer that comes after it records the index again."""
        changes, self._changes = self._changes, []
        if not changes or self.index is None or self._vectors_written:
            return False
        try:
            if await self.index.count_by_model():
                return False
            label = dict(self.record).get(VECTORS_KEY)
            if not await self.store.meta_guarded(
                    VECTORS_NAMESPACE, unless=None if label is None else (WRITING_KEY, label),
                    writes=list(reversed(changes))):
                return False  # another process is writing vectors into the index
            self._unrecorded = True
        except ChatmemError as exc:
            log.warning("the store still records the vector index it was opened with, "
                        "as the index could not say whether it holds the store's "
                        "vectors: %s", exc)
            return False
        return True

    async def discard(self) -> None:
        """Close after the caller failed to set up around this storage (:meth:`open`
        worked): the record of the index is undone (:meth:`unrecord`) and a SQLite store
        that :meth:`open` created is removed; a store that was there is only closed."""
        try:
            with contextlib.suppress(Exception):
                await self.unrecord()
            await _discard(self.store)
        finally:
            await self._close_index()

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, *exc: object) -> None:
        """Close; when the block failed, first undo what :meth:`open` recorded of the
        separate index (:meth:`unrecord`)."""
        try:
            if exc_type is not None:
                with contextlib.suppress(Exception):
                    await self.unrecord()
        finally:
            await self.close()

    async def _keep_record(self) -> None:
        """Before the first vector into a separate index: note the index as written into
        (:data:`WRITING_KEY`), and record it again where another process's failed open
        undid the record meanwhile (:meth:`unrecord`), in one transaction with that
        undo's lock: the store never ends up without the record of an index that holds
        its vectors. A record of other collections meanwhile (another process made the
        store new ones after the undo) is refused: this storage's vectors would be
        where the store no longer looks."""
        label = dict(self.record)[VECTORS_KEY]
        await self.store.meta_guarded(VECTORS_NAMESPACE, writes=[(WRITING_KEY, label)],
                                      defaults=self.record)
        owner = dict(self.record).get(OWNER_KEY)
        if owner is not None and await self.store.meta_get(VECTORS_NAMESPACE,
                                                            OWNER_KEY) != owner:
            raise StoreError(
                "the store's record of its vector index changed since this process "
                "opened it (another process undid it and opened the store anew): "
                "open the store again")
        self._record_kept = True

    @property
    def supports_delete_by_filter(self) -> bool:
        return self.index is not None and self.index.supports_delete_by_filter

    def _require_index(self) -> VectorIndex:
        if self.index is None:
            raise ChatmemError("this storage has no vector index")
        return self.index

    # ------------------------------------------------------------------ vectors

    async def write_entries(self, entries: Sequence[VectorEntry], *,
                            current_only: bool = False, owner: str | None = None,
                            one_width: OneWidth | None = None) -> None:
        """Write vector entries as the indexer does: a SQL store writes vector, full-text
        row and ``INDEXED`` state in one transaction; with a separate index, the store's
        full-text rows and states follow the upsert (replaying it is harmless).
        ``current_only`` (the indexer, rewrites): skip entries made from text or metadata
        their message no longer has (:func:`~chatmem.store.base.stale_entries`); a SQL store
        checks under the message's row lock, beside a separate index the check reads the
        store just before the upsert (rewrites of one message are ordered by
        :meth:`MessageStore.message_lock`; an indexer racing one may leave a stale point
        until the message is rewritten or re-indexed). ``owner`` (the indexer): the
        leases of the entries skipped end if they are still its own
        (:meth:`VectorIndex.upsert`), on every backend. ``one_width``: the index refuses
        a second width of a model (:class:`~chatmem.store.base.OneWidth`, raising
        :class:`~chatmem.store.base.WidthConflict`), checked with its write."""
        index = self._require_index()
        if self.separate and current_only:
            stale = stale_entries(entries, await self.store.get(
                [e.message_id for e in entries]))
            entries = [e for e in entries if e.message_id not in stale]
            if stale and owner is not None:  # as a SQL store's upsert ends them
                await self.store.release_claims(owner, sorted(stale))
        if entries:
            if not self._record_kept:
                await self._keep_record()
            self._vectors_written = True  # before: a failed upsert may have written some
        await index.upsert(entries, current_only=current_only, one_width=one_width,
                           owner=owner)
        if self.separate:
            ids = [e.message_id for e in entries]
            # a message erased while it was being embedded: its point must not outlive it
            # (the erase deletes the messages first, then the points)
            kept = await self.store.index_states(ids)
            gone = [i for i in ids if i not in kept]
            if gone:
                await index.delete_vectors(gone)
                entries = [e for e in entries if e.message_id in kept]
            if self.lexical is not None:  # X1: the store keeps the full text
                await self.lexical.upsert_lexical(entries)
            await self.store.set_index_state([e.message_id for e in entries],
                                             IndexState.INDEXED)

    @contextlib.asynccontextmanager
    async def bulk_load(self, rows: int) -> AsyncIterator[bool]:
        """Around a load of about ``rows`` vectors (import, migration, reindex): an index
        that builds faster after the load than row by row (PostgreSQL's HNSW, see
        :meth:`chatmem.store.postgres.PostgresStore.bulk_load`) defers itself; yields
        whether it did. Others need nothing."""
        # an optional capability, not part of the VectorIndex protocol
        load = getattr(self.index, "bulk_load", None)
        if load is None:
            yield False
            return
        async with load(rows) as deferred:
            yield bool(deferred)

    async def rewrite_entry(self, entry: VectorEntry, *,
                            one_width: OneWidth | None = None) -> None:
        """Replace the vector of the message at ``(entry.session_id, entry.ts)`` by
        ``entry`` (F3). The write comes first and replaces by message id (with the
        full-text row) on every backend, so a recall meanwhile finds the old vector or
        the new one, never neither; a write refused (a second width of the model,
        :class:`~chatmem.store.base.WidthConflict`) or skipped as stale leaves the old
        vector in place. Then a delete by filter takes any vector an older write left
        under that position with another message id. Needs
        :attr:`supports_delete_by_filter`."""
        index = self._require_index()
        await self.write_entries([entry], current_only=True, one_width=one_width)
        await index.delete_by_filter({"session_id": entry.session_id, "ts": entry.ts,
                                      "message_id": {"$ne": entry.message_id}})

    async def delete_vectors(self, message_ids: Sequence[str]) -> int:
        """Delete these messages' vectors (and, beside a separate index, their full-text
        rows); returns how many vectors there were."""
        n = await self._require_index().delete_vectors(message_ids)
        if self.separate and self.lexical is not None:
            await self.lexical.delete_lexical(message_ids)
        return n

    async def erase(self, message_ids: Sequence[str]) -> Erased:
        """Erase these messages for good (I8): the store's rows, full-text rows, vectors
        and ANN labels (one transaction), then a separate index's points. Messages go
        first, so a vector the indexer writes meanwhile is deleted by the indexer itself
        (:meth:`write_entries`). ``vectors`` counts the entries of whichever index held
        them; ``points`` those of a separate (Qdrant) index. Beside a separate index, a
        durable marker first: an index failing (or a crash) after the store's commit
        leaves it, and :meth:`heal_erasures` deletes the points later."""
        if not self.separate or self.index is None:
            return await self.store.erase_messages(message_ids)
        key = ERASE_OWED_PREFIX + uuid.uuid4().hex
        await self.store.meta_set(VECTORS_NAMESPACE, key, json.dumps(list(message_ids)))
        erased = await self.store.erase_messages(message_ids)
        try:
            points = await self.index.delete_vectors(message_ids)
        except ChatmemError as exc:
            self.erasures_owed = True
            log.warning("%d message(s) erased from the store, but not yet their vectors "
                        "in the separate index (%s); deleted when it answers again",
                        erased.messages, exc)
            raise
        await self.store.meta_delete(VECTORS_NAMESPACE, key)
        return replace(erased, vectors=erased.vectors + points, points=points)

    async def heal_erasures(self) -> int:
        """Delete the separate index's points of messages an erase took from the store
        but not from the index (it failed, or the process died, in between); returns
        how many erasures were finished. A record of messages still stored (an erase
        under way, or one that died before the store's commit) stays."""
        if not self.erasures_owed or self.index is None:
            return 0
        self.erasures_owed = False  # an erase failing from now on sets it again
        try:
            done = await self._heal_erasures(self.index)
        except BaseException:
            self.erasures_owed = True
            raise
        if done:
            log.info("vectors of %d erasure(s) deleted from the separate index", done)
        return done

    async def _records(self, prefix: str) -> list[tuple[str, str]]:
        """The durable records (key, value) under ``prefix`` in :data:`VECTORS_NAMESPACE`."""
        return [(key, value) for ns, key, value in await self.store.meta_items()
                if ns == VECTORS_NAMESPACE and key.startswith(prefix)]

    async def _heal_erasures(self, index: VectorIndex) -> int:
        done = 0
        for key, value in await self._records(ERASE_OWED_PREFIX):
            try:
                ids = json.loads(value)
            except ValueError:
                ids = None
            if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
                log.warning("unreadable erase record %s dropped: %r", key, value[:200])
                await self.store.meta_delete(VECTORS_NAMESPACE, key)
                continue
            stored = await self.store.index_states(ids)
            gone = [i for i in ids if i not in stored]
            if gone:
                await index.delete_vectors(gone)
            if not stored:
                await self.store.meta_delete(VECTORS_NAMESPACE, key)
                done += 1
        return done

    async def owe_rewrite(self, session_id: str, ts: int) -> str:
        """Record, durably, that the index entries of the message at ``(session_id, ts)``
        must be made again from its text; returns the record's key
        (:meth:`rewrite_done` drops it once they are)."""
        key = REWRITE_OWED_PREFIX + json.dumps([session_id, ts], ensure_ascii=False)
        await self.store.meta_set(VECTORS_NAMESPACE, key, "")
        self.rewrites_unsettled = True
        return key

    async def rewrite_done(self, key: str) -> None:
        await self.store.meta_delete(VECTORS_NAMESPACE, key)

    async def rewrite_still_owed(self, key: str) -> bool:
        """Whether the record ``key`` (of :meth:`rewrites_owed`) is still there."""
        return await self.store.meta_get(VECTORS_NAMESPACE, key) is not None

    async def rewrites_owed(self) -> list[tuple[str, str, int]]:
        """The rewrite records (key, session id, ts) left by a crash or a failed embedding;
        an unreadable one is dropped."""
        out: list[tuple[str, str, int]] = []
        for key, _ in await self._records(REWRITE_OWED_PREFIX):
            try:
                session_id, ts = json.loads(key[len(REWRITE_OWED_PREFIX):])
            except (ValueError, TypeError, RecursionError):
                session_id = ts = None
            if not isinstance(session_id, str) or not isinstance(ts, int):
                log.warning("unreadable rewrite record %r dropped", key[:200])
                await self.rewrite_done(key)
                continue
            out.append((key, session_id, ts))
        return out

    async def clear_vectors(self, session_id: str | None = None) -> int:
        """Delete every vector (of one session) and its full-text row; the messages that
        had one move to ``CLEARED`` (F12). Returns how many vectors there were; 0
        without a vector index."""
        if self.index is None:
            return 0
        n = await self.index.clear_vectors(session_id)
        if self.separate:
            await self.store.reset_index_state(IndexState.INDEXED, IndexState.CLEARED,
                                               session_id)
            if self.lexical is not None:
                await self.lexical.clear_lexical(session_id)
        return n

    async def count_by_model(self) -> dict[str, int]:
        """Vectors per embedding model (legacy vectors under ``""``)."""
        return {} if self.index is None else await self.index.count_by_model()

    async def vector_sizes(self) -> dict[str, frozenset[int]]:
        """The sizes of each model's vectors (legacy vectors under ``""``)."""
        return {} if self.index is None else await self.index.vector_sizes()

    async def other_width(self, model_id: str, width: int) -> int | None:
        """A width of ``model_id``'s vectors when the index holds some and none of
        ``width`` (:meth:`~chatmem.store.base.VectorIndex.other_width`)."""
        return None if self.index is None else await self.index.other_width(model_id, width)

    async def stats(self) -> StoreStats:
        """The store's counts, with the vector counts of the index that holds them."""
        s = await self.store.stats()
        if self.separate:
            s = replace(s, vectors_by_model=await self.count_by_model())
        return s

    # ------------------------------------------------------------------ sessions

    async def update_session_snapshots(self, snapshots: Sequence[SessionSnapshot]) -> int:
        """Set these sessions' fields on their vector entries in place (and on the store's
        full-text rows of them, beside a separate index); returns how many entries."""
        n = await self._require_index().update_session_snapshot(snapshots)
        if self._store_snapshots is not None:
            await self._store_snapshots.update_session_snapshot(snapshots)
        return n

    async def push_snapshots(self, session_ids: Sequence[str]) -> list[str]:
        """Bring the vector entries of these sessions to the sessions' current state;
        returns the sessions left behind: those whose own metadata, which their entries
        carry, chatmem cannot read (a hand edit). A damaged row of one session does not
        hold back the others (each is pushed alone: the index's update is per session);
        the damaged one keeps the snapshot its entries have, logged with its repair, and
        the caller keeps it owed. Another damaged column (its settings, an ancestor's
        metadata or settings) changes no snapshot: read without it (logged)."""
        damaged: list[DamagedRow] = []
        sessions = await snapshot_sessions(self.store, set(session_ids), damaged=damaged)
        behind = {bad.row for bad in damaged if bad.column == "metadata"}
        for bad in damaged:
            if bad.row in behind and bad.column == "metadata":
                log.warning("%s; its vectors in the separate vector index keep the session "
                            "snapshot they have, and the change is owed to them (retried "
                            "at each open) until the column is repaired: %s",
                            bad.damage, bad.repair)
        walked_past([bad for bad in damaged if bad.row not in behind
                     or bad.column != "metadata"], doing="to bring the vectors along")
        await self._require_index().update_session_snapshot(
            [snapshot_of(sessions[i]) for i in session_ids
             if i in sessions and i not in behind])
        return sorted(behind)

    async def _push_tree(self, session_id: str, tree: bool = True) -> bool:
        """:meth:`push_snapshots` of ``session_id`` (and, with ``tree``, of every session
        below it), whose change is marked owed (:data:`SNAPSHOT_DIRTY`): the mark goes to
        the sessions left behind, the change owed to them alone, and leaves
        ``session_id`` unless it is one of them (returns whether it left)."""
        behind = await self.push_snapshots(await session_tree(self.store, session_id, tree))
        for sid in behind:
            await self.store.meta_set(SNAPSHOT_DIRTY, sid, "1")
        if session_id in behind:
            return False
        await self.store.meta_delete(SNAPSHOT_DIRTY, session_id)
        return True

    async def upsert_session(self, session: Session) -> StoredSession:
        """Insert or replace a session and bring its vectors (and, when its tree changed,
        its descendants') along. A SQL store does both in one transaction. Beside a
        separate index: a durable marker first, then the store (its full-text rows follow
        in its transaction), then the index, then the marker goes; a crash or an index
        failure in between leaves the marker for :meth:`heal_snapshots`."""
        if not self.separate:
            return StoredSession(await self.store.upsert_session(session))
        damaged: list[DamagedRow] = []  # a column it cannot read: replaced (logged there)
        old = (await self.store.get_sessions([session.id], damaged=damaged)).get(session.id)
        own, tree = snapshot_changes(old, session, unread=bool(damaged))
        if not own:
            return StoredSession(await self.store.upsert_session(session))
        if await self.store.meta_get(SNAPSHOT_DIRTY, session.id) is not None:
            tree = True  # an earlier change still owed: redo it whole
        await self.store.meta_set(SNAPSHOT_DIRTY, session.id, "1")
        # a descendant whose own metadata is damaged is logged by the push below, which
        # says what the separate index's vectors keep (not by the store's update too)
        with kept_snapshots_told_by_caller():
            stored = await self.store.upsert_session(session)
        try:
            await self._push_tree(session.id, tree)
        except ChatmemError as exc:
            log.warning("session %s is stored, but its vectors do not show the change yet "
                        "(%s); retried in the background", as_given(session.id, sys.maxsize),
                        exc)
            return StoredSession(stored, snapshots_owed=True)
        return StoredSession(stored)

    async def heal_snapshots(self) -> int:
        """Redo every session change a separate index may have missed (a crash, or an index
        that failed, between the store's commit and the index's update); returns how many."""
        dirty = sorted(key for ns, key, _ in await self.store.meta_items()
                       if ns == SNAPSHOT_DIRTY)
        done = 0
        for sid in dirty:
            done += await self._push_tree(sid)
        if done:
            log.info("session snapshots of %d changed session(s) brought to the vector index",
                     done)
        return done

    # ------------------------------------------------------------------ lifecycle

    async def close(self) -> None:
        """Close the store, and the index when it is separate (else it is the store)."""
        try:
            await self.store.close()
        finally:
            await self._close_index()

    async def _close_index(self) -> None:
        if self.separate and self.index is not None:
            await self.index.close()
            if self._unrecorded:
                _remove_made(self.index)
