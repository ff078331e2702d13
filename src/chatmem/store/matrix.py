"""The in-memory float32 matrix behind exact search (SQLite and memory backends).

Rows are kept in step with the ``vectors`` table by the store's single thread.
Deleted rows become holes (``alive`` false) that are reused, so row numbers
stay stable and nothing is ever copied on delete.

Every write stamps its rows with a sequence number (``seq``) and then bumps
``write_seq``, in that order, so a reader on another thread (the ANN builder,
:mod:`chatmem.store.ann`) knows that every row with ``seq <= write_seq`` (read
first) was completely written, and that a row whose ``seq`` has changed since
it copied the row holds a different vector now.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ..models import ScoredId
from .where import simple_values

#: An entry's fields as a search hit carries them: message id, model id, role, session
#: id, ts (:class:`~chatmem.models.ScoredId` without the score).
EntryFields = tuple[str, str | None, str | None, str, int]


class _Codes:
    """Interns strings (session ids, model ids, roles) as small integers."""

    def __init__(self) -> None:
        self.code: dict[str | None, int] = {}
        self.value: list[str | None] = []

    def intern(self, value: str | None) -> int:
        c = self.code.get(value)
        if c is None:
            c = len(self.value)
            self.code[value] = c
            self.value.append(value)
        return c


class RowColumns:
    """Store rowids with the columns recall's common filters read (session, model, role),
    interned, in reusable rows: the filter half of :class:`VectorMatrix`, and alone the
    SQLite store's copy of its full-text entries without a ``vectors`` row (pending
    messages, entries of a separate index), so that the same fast filter covers them."""

    #: The per-row numpy arrays, grown together.
    _ARRAYS: tuple[str, ...] = ("alive", "rowid", "session", "model", "role")

    def __init__(self, capacity: int = 1024) -> None:
        self.alive = np.zeros(capacity, dtype=bool)
        self.rowid = np.zeros(capacity, dtype=np.int64)
        self.session = np.zeros(capacity, dtype=np.int32)
        self.model = np.zeros(capacity, dtype=np.int32)
        self.role = np.zeros(capacity, dtype=np.int32)
        self.sessions = _Codes()
        self.models = _Codes()
        self.roles = _Codes()
        self.row_of: dict[int, int] = {}  # store rowid -> row
        self.free: list[int] = []
        self.used = 0  # rows [0, used) have ever been written
        self.removed = 0  # rows ever removed (lets the ANN notice deletes cheaply)

    @property
    def size(self) -> int:
        return len(self.row_of)

    def _grow(self, need: int) -> None:
        cap = self.alive.shape[0]
        if need <= cap:
            return
        new = max(need, cap * 2)
        for name in self._ARRAYS:
            a = getattr(self, name)
            out = np.zeros((new, *a.shape[1:]), dtype=a.dtype)
            out[:cap] = a
            setattr(self, name, out)
        self._grew(new - cap)

    def _grew(self, extra: int) -> None:
        """Hook: ``extra`` rows were added to every array (grow other row storage)."""

    def _place(self, rowids: Sequence[int], sessions: Sequence[str],
               roles: Sequence[str | None], models: Sequence[str | None]
               ) -> npt.NDArray[np.int64]:
        """Rows for these store rowids (their own, or free or new ones), with their
        filter columns written and marked alive."""
        targets = []
        fresh = 0
        for rid in rowids:
            row = self.row_of.get(rid)
            if row is None:
                if self.free:
                    row = self.free.pop()
                else:
                    row = self.used + fresh
                    fresh += 1
                self.row_of[rid] = row
            targets.append(row)
        self._grow(self.used + fresh)
        self.used += fresh
        idx = np.asarray(targets, dtype=np.int64)
        self.alive[idx] = True
        self.rowid[idx] = np.asarray(rowids, dtype=np.int64)
        self.session[idx] = [self.sessions.intern(s) for s in sessions]
        self.model[idx] = [self.models.intern(m) for m in models]
        self.role[idx] = [self.roles.intern(r) for r in roles]
        return idx

    def put(self, rowid: int, session: str, role: str | None, model: str | None) -> None:
        self._place([rowid], [session], [role], [model])

    def remove(self, rowid: int) -> None:
        row = self.row_of.pop(rowid, None)
        if row is None:
            return
        self.alive[row] = False
        self._forget(row)
        self.free.append(row)
        self.removed += 1

    def _forget(self, row: int) -> None:
        """Hook: ``row`` was removed (drop what else it held)."""

    def rows_for(self, rowids: Sequence[int]) -> npt.NDArray[np.int64]:
        rows = [self.row_of[r] for r in rowids if r in self.row_of]
        return np.asarray(sorted(rows), dtype=np.int64)

    def fast_rows(self, where: Mapping[str, Any]) -> npt.NDArray[np.int64] | None:
        """Rows for the common visibility filters without SQL, else None.

        Handles an AND (top-level keys) of ``session_id`` / ``model_id`` / ``role``
        with ``$eq`` or ``$in`` (the shapes recall builds for session scopes).
        """
        mask = self.alive[: self.used].copy()
        for key, cond in where.items():
            codes_for = {"session_id": (self.sessions, self.session),
                         "model_id": (self.models, self.model),
                         "role": (self.roles, self.role)}.get(key)
            if codes_for is None:
                return None
            table, column = codes_for
            values = simple_values(cond)
            if values is None:
                return None
            codes = [table.code[v] for v in values if v in table.code]
            if not codes:
                mask[:] = False
            elif len(codes) == 1:  # one value (a session scope): a compare, not np.isin
                mask &= column[: self.used] == codes[0]
            else:
                mask &= np.isin(column[: self.used], np.asarray(codes, dtype=np.int32))
        return np.flatnonzero(mask).astype(np.int64)


class VectorMatrix(RowColumns):
    _ARRAYS = (*RowColumns._ARRAYS, "vecs", "ts", "seq")

    def __init__(self, dim: int, capacity: int = 1024) -> None:
        super().__init__(capacity)
        self.dim = dim
        self.vecs = np.zeros((capacity, dim), dtype=np.float32)
        self.ts = np.zeros(capacity, dtype=np.int64)
        self.seq = np.zeros(capacity, dtype=np.int64)  # write_seq of the row's last write
        self.message_id: list[str] = [""] * capacity
        self.write_seq = 0  # bumped after each put_many has written all its rows

    def _grew(self, extra: int) -> None:
        self.message_id.extend([""] * extra)

    def _forget(self, row: int) -> None:
        self.message_id[row] = ""

    def put_many(self, rowids: Sequence[int], message_ids: Sequence[str],
                 sessions: Sequence[str], roles: Sequence[str | None],
                 models: Sequence[str | None], ts: Sequence[int],
                 vecs: npt.NDArray[np.float32]) -> None:
        idx = self._place(rowids, sessions, roles, models)
        self.vecs[idx] = vecs
        self.ts[idx] = np.asarray(ts, dtype=np.int64)
        for row, mid in zip(idx.tolist(), message_ids):
            self.message_id[row] = mid
        # the vectors are in place: stamp the rows, then publish the new sequence number
        self.seq[idx] = self.write_seq + 1
        self.write_seq += 1

    def tie_keys(self, rowids: Iterable[int]) -> dict[int, tuple[int, str]]:
        """``(-ts, message id)`` of those of these store rowids that have a row here: how
        search breaks exact score ties (newer first, then id, as :meth:`top_k`)."""
        mid, ts, row_of = self.message_id, self.ts, self.row_of
        return {r: (-int(ts[row]), mid[row]) for r in rowids
                if (row := row_of.get(r)) is not None}

    def entry_fields(self, rowid: int) -> EntryFields | None:
        """The entry fields of store rowid ``rowid`` as :meth:`top_k` answers them, or
        ``None`` when it has no row here (full-text hits read them so, X1)."""
        row = self.row_of.get(rowid)
        if row is None:
            return None
        return (self.message_id[row], self.models.value[self.model[row]],
                self.roles.value[self.role[row]], str(self.sessions.value[self.session[row]]),
                int(self.ts[row]))

    def top_k(self, q: npt.NDArray[np.float32], k: int,
              rows: npt.NDArray[np.int64] | None) -> list[ScoredId]:
        # einsum, not ``@``: a matrix-vector product through BLAS spreads over its own
        # threads, and while indexing saturates the cores they wait on each other (24 ms
        # instead of 0.14 ms at 4,000 rows on 2 cores); one thread is as fast here
        # (memory-bound) and never waits
        if rows is None:
            scores = np.einsum("ij,j->i", self.vecs[: self.used], q)
            scores[~self.alive[: self.used]] = -np.inf
            cand = np.arange(self.used, dtype=np.int64)
        else:
            if rows.size == 0:
                return []
            scores = np.einsum("ij,j->i", self.vecs[rows], q)
            cand = rows
        live = int(np.count_nonzero(np.isfinite(scores)))
        k = min(k, live)
        if k <= 0:
            return []
        if k < scores.shape[0]:
            part = np.argpartition(-scores, k - 1)[:k]
            # include every row tied with the k-th score so ties break by the key below, not luck
            kth = scores[part].min()
            part = np.flatnonzero(scores >= kth)
        else:
            part = np.arange(scores.shape[0])
        chosen = cand[part]
        # exact ties: newer first, then message id (code point order), the recall pool's
        # order (recall.fuse.pool_order), as every backend breaks them: the newest copies
        # of a repeated text are kept, whatever order the rows were written in
        top, rows, ts = scores[part].tolist(), chosen.tolist(), self.ts[chosen].tolist()
        mid = self.message_id
        order = sorted(range(len(rows)), key=lambda j: (-top[j], -ts[j], mid[rows[j]]))[:k]
        out = []
        for j in order:
            row = rows[j]
            out.append(ScoredId(
                message_id=self.message_id[row], score=top[j],
                model_id=self.models.value[self.model[row]],
                role=self.roles.value[self.role[row]],
                session_id=str(self.sessions.value[self.session[row]]),
                ts=int(self.ts[row]),
            ))
        return out
