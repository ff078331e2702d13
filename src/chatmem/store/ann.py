"""Approximate nearest-neighbour search over a :class:`VectorMatrix` (IVF, optional).

Exact search over the in-memory matrix is the reference and the default. Past
``AnnSettings.threshold`` vectors, an inverted-file index (faiss-cpu
``IndexIVFScalarQuantizer`` with 8-bit codes, inner product, chatmem's optional
``ann`` extra) answers
unfiltered and broad queries. It scans the ``nprobe`` lists whose centroids
are nearest to the query. (HNSW was measured and dropped: on a million
LoCoMo-derived vectors it reached recall@10 0.73 at efSearch 256 and 0.80 at
512 after a 13-minute build, where IVF gets 0.998 at nprobe 32 in 1.5 ms
after a 1-minute build; see bench/search.py.) Below, "the graph" is that
index:

* The graph is derived data. A worker thread loads it from ``<db>.ann`` or
  builds it from the matrix; queries use exact search until it is ready, and
  writes never wait for it.
* Its candidates are rescored exactly from the matrix, so scores and tie
  breaks are those of exact search; only the candidate set is approximate.
* Kept in step without hooks in the write path: each matrix row carries the
  sequence number of its last write (``VectorMatrix.seq``) and each graph
  label remembers the row and sequence number it copied. A label is live only
  while its row is alive with that same number, so deleted or rewritten rows
  never come back. Rows written after the graph's last sync (the *tail*) are
  scored exactly with each query until the worker adds them to the graph;
  when more than ``rebuild_fraction`` of the labels are dead, or the rows have
  grown ``regrow`` times past what the lists were trained on, the worker
  builds a new graph while the old one keeps answering.
* Filters: a narrow one (fewer than ``threshold`` rows, or less than
  ``min_selectivity`` of the rows) goes to exact search over the filtered
  rows. A broad one asks the graph for ``k·oversample/selectivity``
  candidates, keeps those the filter allows, and falls back to exact search
  when fewer than k survive.
* ``<db>.ann`` is a header (format, dim, list count, label count, live
  count, max rowid, CRC-32s), the store rowid of every label, a fingerprint of
  the vector each label was built from, then the faiss index. On load every
  label's fingerprint is compared with the store's vector; a
  corrupt file, other parameters, or too many labels whose vector is gone or
  changed mean a rebuild, and rows missing from the file are added.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import struct
import threading
import time
import zlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError, StoreError
from ..extras import install_hint
from ..models import ScoredId
from ..refusals import checked_number, describe
from .matrix import VectorMatrix

log = logging.getLogger("chatmem.store.ann")

#: Below this many vectors exact search answers alone and no index is built.
#: bench/search.py (2 cores): exact p50 falls behind the index's near 5,000 vectors
#: (numpy 0.44 ms vs 0.49 ms at 5k, 0.08 vs 0.29 at 2k); up to ~20,000 exact search
#: stays around 2 ms on a quiet machine, while the index costs a build (2 s at 20k)
#: and a second copy of the vectors.
DEFAULT_THRESHOLD = 20_000
MAGIC = b"CHATMEM-ANN\x00"
FORMAT = 2
#: The faiss index kind; a file of another kind is rebuilt.
BACKEND = "faiss-ivf-sq8"
HEADER_SIZE = 4096  # magic, u32 length, JSON, zero padding; rewritten last
#: A save is written to ``<file>.tmp`` and then renamed over the file.
TMP_SUFFIX = ".tmp"
_I64 = np.dtype("<i8")


@dataclass(frozen=True)
class AnnSettings:
    """How the SQLite store uses an ANN index; ``threshold=None`` disables it."""

    #: Build and use the graph once a matrix (one vector size) holds this many vectors.
    threshold: int | None = DEFAULT_THRESHOLD
    #: Inverted lists; 0 = about 4·√n for the n vectors at build time.
    nlist: int = 0
    #: Lists scanned per query (more: higher recall, slower) ...
    nprobe: int = 32
    #: ... and at least this many vectors' worth of lists: small stores have short lists.
    min_scan: int = 8000
    #: Training vectors per list for k-means (a sample of the matrix).
    train_per_list: int = 40
    #: Rebuild (retrain the lists) when the rows grow past this multiple of the build's.
    regrow: float = 4.0
    #: Candidates asked per wanted hit before exact rescoring (divided by selectivity).
    oversample: float = 2.0
    #: Filters keeping less than this fraction of the rows use exact search.
    min_selectivity: float = 0.05
    #: Rebuild when more than this fraction of the graph's labels are dead.
    rebuild_fraction: float = 0.2
    #: Keep the graph in ``<db>.ann`` (never the only copy of anything).
    persist: bool = True
    #: On close, rewrite the file when more than this fraction of labels was added.
    save_fraction: float = 0.05
    #: Rows added to the graph per lock hold while catching up (bounds query waits).
    batch: int = 256
    #: OpenMP threads of the worker (0 = one per core). One by default: the build is
    #: background work, and spinning OpenMP threads on a busy machine slow it down.
    build_threads: int = 1

    def __post_init__(self) -> None:
        # a caller's settings (SqliteStore(ann=AnnSettings(...))): each refused by name,
        # as the library refuses every input, never a raw comparison error
        if self.threshold is not None:
            checked_number(ConfigError, "ann.threshold", self.threshold, integer=True, least=1,
                           also=" (or None to turn the ANN off)")
        for name, least in (("nlist", 0), ("nprobe", 1), ("min_scan", 0),
                            ("train_per_list", 1), ("batch", 1)):
            checked_number(ConfigError, f"ann.{name}", getattr(self, name), integer=True,
                           least=least)
        checked_number(ConfigError, "ann.build_threads", self.build_threads, integer=True, least=0,
                       also=" (0 = one per core)")
        checked_number(ConfigError, "ann.regrow", self.regrow, more=1)
        checked_number(ConfigError, "ann.oversample", self.oversample, least=1)
        for name in ("min_selectivity", "rebuild_fraction"):
            checked_number(ConfigError, f"ann.{name}", getattr(self, name), more=0, most=1)
        checked_number(ConfigError, "ann.save_fraction", self.save_fraction, least=0, most=1)
        if not isinstance(self.persist, bool):
            raise ConfigError(f"ann.persist must be true or false, got "
                              f"{describe(self.persist)}")


_faiss_module: Any = None
_faiss_tried = False


def load_faiss() -> Any | None:
    """The faiss module, or None when the optional extra is not installed."""
    global _faiss_module, _faiss_tried
    if not _faiss_tried:
        _faiss_tried = True
        try:
            import faiss

            _faiss_module = faiss
        except ImportError:
            log.info("faiss-cpu is not installed (%s): search stays exact at every size",
                     install_hint("ann"))
            _faiss_module = None
    return _faiss_module


class _Labels:
    """Growable per-label arrays: the matrix row and the row's seq when copied."""

    def __init__(self, capacity: int = 1024) -> None:
        self.row = np.zeros(capacity, dtype=np.int64)
        self.seq = np.zeros(capacity, dtype=np.int64)
        self.n = 0

    def extend(self, rows: npt.NDArray[np.int64], seqs: npt.NDArray[np.int64]) -> None:
        need = self.n + rows.size
        if need > self.row.size:
            cap = max(need, self.row.size * 2)
            for name in ("row", "seq"):
                old = getattr(self, name)
                new = np.zeros(cap, dtype=np.int64)
                new[: self.n] = old[: self.n]
                setattr(self, name, new)
        self.row[self.n:need] = rows
        self.seq[self.n:need] = seqs
        self.n = need


class _Graph:
    """One faiss IVF index and its label maps; mutated only under AnnIndex.lock."""

    def __init__(self, index: Any, trained_on: int) -> None:
        self.index = index
        self.trained_on = trained_on  # rows when the lists were trained
        self.labels = _Labels()
        self.synced = 0  # matrix.write_seq up to which every write is in the graph
        self.pending = np.zeros(0, dtype=np.int64)  # older rows still to add (after a load)
        self.dead = 0
        self.saved_labels = 0  # labels in the file on disk (0: no valid file)

    def live_mask(self, m: VectorMatrix) -> npt.NDArray[np.bool_]:
        rows = self.labels.row[: self.labels.n]
        live: npt.NDArray[np.bool_] = m.alive[rows] & (m.seq[rows] ==
                                                        self.labels.seq[: self.labels.n])
        return live


class _Stop(Exception):
    pass


class AnnIndex:
    """The ANN of one matrix. Queries run on the store's thread; a worker thread
    loads, builds, catches up and rebuilds."""

    def __init__(self, matrix: VectorMatrix, settings: AnnSettings, path: str | None,
                 faiss: Any) -> None:
        self.matrix = matrix
        self.settings = settings
        self.path = path
        self.faiss = faiss
        self.lock = threading.Lock()
        self.state = "starting"  # starting | loading | building | ready | failed | closed
        self.reason = ""  # how the current graph came to be (loaded / built: why)
        self.build_seconds = 0.0
        #: Queries answered by the graph, sent to exact search as narrow, and fallbacks.
        self.counts = {"answered": 0, "narrow": 0, "fallback": 0}
        self._graph: _Graph | None = None
        self._foreign_warned = False  # a file not ours holds the path: said once
        self._stop = threading.Event()
        self._wake = threading.Event()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True,
                                        name=f"chatmem-ann-{matrix.dim}")
        self._thread.start()

    # ------------------------------------------------------------------ queries

    @property
    def ready(self) -> bool:
        return self._graph is not None

    def query(self, q: npt.NDArray[np.float32], k: int,
              rows: npt.NDArray[np.int64] | None) -> list[ScoredId] | None:
        """The top k under the filter rows (sorted matrix rows, or None for all), or None
        when exact search should answer (graph not ready, narrow filter, too few left)."""
        g = self._graph
        m = self.matrix
        if g is None or self.settings.threshold is None:
            return None
        size = m.size
        if rows is None:
            allowed = size
        else:
            allowed = int(rows.size)
            if allowed < self.settings.threshold or allowed < self.settings.min_selectivity * size:
                self.counts["narrow"] += 1
                return None  # narrow: exact over the filtered rows is cheaper and exact
        want = min(k, allowed)
        if want <= 0:
            return []
        with self.lock:
            ntotal = int(g.index.ntotal)
            live = max(1, ntotal - g.dead)
            n = math.ceil(k * self.settings.oversample * (size / max(allowed, 1))
                          * (ntotal / live))
            n = max(1, min(n, ntotal))
            nlist = int(g.index.nlist)
            per_list = max(1.0, ntotal / nlist)
            nprobe = min(nlist, max(self.settings.nprobe,
                                    math.ceil(self.settings.min_scan / per_list)))
            params = self.faiss.SearchParametersIVF(nprobe=nprobe)
            _, found = g.index.search(q[None, :], n, params=params)
            labels = found[0]
            labels = labels[labels >= 0]
            cand = g.labels.row[labels]
            seqs = g.labels.seq[labels]
            synced = g.synced
            pending = g.pending
        used = m.used
        ok = (cand < used)
        cand, seqs = cand[ok], seqs[ok]
        cand = cand[m.alive[cand] & (m.seq[cand] == seqs)]
        parts = [cand]
        if m.write_seq > synced:
            parts.append(np.flatnonzero(m.seq[:used] > synced))
        if pending.size:
            parts.append(pending[pending < used])
        if len(parts) > 1:
            cand = np.concatenate(parts)
        cand = np.unique(cand)  # sorted, no duplicates (a row may sit in the tail too)
        cand = cand[m.alive[cand]]
        if rows is not None and cand.size:
            pos = np.searchsorted(rows, cand)
            pos[pos >= rows.size] = 0
            cand = cand[rows[pos] == cand]
        hits = m.top_k(q, k, cand)
        if len(hits) < want:
            self.counts["fallback"] += 1
            return None  # the filter or the deletes ate the candidates: exact answers
        self.counts["answered"] += 1
        return hits

    # ------------------------------------------------------------------ control

    def notice(self) -> None:
        """Wake the worker when the matrix changed since the graph last caught up."""
        g = self._graph
        if g is not None and (self.matrix.write_seq > g.synced or g.pending.size):
            self._wake.set()

    def wait_ready(self, timeout: float | None = None) -> bool:
        return self._ready.wait(timeout)

    def status(self) -> dict[str, Any]:
        g = self._graph
        return {
            "state": self.state, "reason": self.reason, "path": self.path,
            "labels": 0 if g is None else int(g.labels.n), "dead": 0 if g is None else g.dead,
            "synced_seq": 0 if g is None else g.synced,
            "build_seconds": round(self.build_seconds, 3), **self.counts,
        }

    def close(self, save: bool = True) -> None:
        """Stop the worker; write the file when the graph grew enough since it was saved."""
        self._stop.set()
        self._wake.set()
        self._thread.join()
        g = self._graph
        self.state = "closed"
        if not save or g is None or not self.settings.persist or self.path is None:
            return
        # rows written since the worker last caught up count too: it runs at a lower
        # priority and wakes at most once a second, so on a busy machine a close soon
        # after a write found the graph as saved and wrote nothing (the file kept half
        # the labels; the next open added the rest again)
        m = self.matrix
        behind = int(np.count_nonzero(m.seq[:m.used] > g.synced)) + int(g.pending.size)
        added = g.labels.n + behind - g.saved_labels
        if g.saved_labels == 0 or \
                added > self.settings.save_fraction * max(1, g.labels.n + behind):
            try:
                self._catch_up(g)
            except Exception:  # derived data: never fail a close over it
                log.exception("could not save the ANN index to %s", self.path)
                return
            self._save_quietly(g)  # never over a file that is not ours

    # ------------------------------------------------------------------ worker

    def _check_stop(self) -> None:
        if self._stop.is_set():
            raise _Stop

    def _run(self) -> None:
        with contextlib.suppress(Exception):  # background work yields to the foreground
            tid = threading.get_native_id()
            os.setpriority(os.PRIO_PROCESS, tid,
                           min(19, os.getpriority(os.PRIO_PROCESS, tid) + 5))
        if self.settings.build_threads:  # OpenMP's thread count is per calling thread
            self.faiss.omp_set_num_threads(self.settings.build_threads)
        try:
            g = None
            if self.settings.persist and self.path and os.path.exists(self.path):
                self.state = "loading"
                g = self._load()
            else:
                self.reason = "built: no file" if self.path else "built"
            if g is None:
                g = self._build()
                self._save_quietly(g)
            self._publish(g)
            seen: tuple[int, int] | None = None  # first round: rows written during the build
            while not self._stop.is_set():
                self._wake.wait(1.0)
                self._wake.clear()
                self._check_stop()
                m = self.matrix
                if (m.write_seq, m.removed) == seen and not g.pending.size:
                    continue
                seen = (m.write_seq, m.removed)
                self._catch_up(g)
                g.dead = int(g.labels.n - np.count_nonzero(g.live_mask(m)))
                grown = m.size > self.settings.regrow * max(1, g.trained_on)
                if grown or g.dead > self.settings.rebuild_fraction * max(1, g.labels.n):
                    self.reason = (f"rebuilt: grown from {g.trained_on} to {m.size} rows"
                                   if grown else
                                   f"rebuilt: {g.dead} of {g.labels.n} labels dead")
                    g = self._build()
                    self._save_quietly(g)
                    self._publish(g)
        except _Stop:
            pass
        except Exception as exc:
            self.state = "failed"
            self.reason = f"{type(exc).__name__}: {exc}"
            log.exception("ANN index for dim %d failed; search stays exact",
                          self.matrix.dim)

    def _publish(self, g: _Graph) -> None:
        with self.lock:
            self._graph = g
        self.state = "ready"
        self._ready.set()

    def nlist_for(self, n: int) -> int:
        if self.settings.nlist:
            return self.settings.nlist
        return max(1, min(int(4 * math.sqrt(n)), n // 39))  # faiss wants ≥ 39 points a list

    def _new_index(self, rows: npt.NDArray[np.int64]) -> Any:
        """An IVF index with centroids trained on a sample of ``rows``."""
        faiss = self.faiss
        nlist = self.nlist_for(int(rows.size))
        quantizer = faiss.IndexFlatIP(self.matrix.dim)
        # 8-bit scalar codes: a quarter of the memory and disk of float copies; the
        # candidates are rescored exactly from the matrix, so only their choice is coarser
        index = faiss.IndexIVFScalarQuantizer(quantizer, self.matrix.dim, nlist,
                                              faiss.ScalarQuantizer.QT_8bit,
                                              faiss.METRIC_INNER_PRODUCT)
        index.cp.seed = 1234
        sample = min(int(rows.size), nlist * self.settings.train_per_list)
        pick = np.random.default_rng(1234).choice(rows.size, sample, replace=False) \
            if sample < rows.size else np.arange(rows.size)
        _, train = self._copy_rows(rows[np.sort(pick)])
        if train.shape[0] == 0:
            train = np.zeros((1, self.matrix.dim), dtype=np.float32)
        index.train(train)
        return index

    def _copy_rows(self, rows: npt.NDArray[np.int64]
                   ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.float32]]:
        """The rows' seq then their vectors (that order: see VectorMatrix)."""
        m = self.matrix
        seq_arr, vec_arr = m.seq, m.vecs
        seqs = seq_arr[rows].copy()
        vecs = np.ascontiguousarray(vec_arr[rows], dtype=np.float32)
        return seqs, vecs

    def _build(self) -> _Graph:
        self.state = "building"
        start = time.perf_counter()
        m = self.matrix
        synced = m.write_seq  # every row with seq <= synced is completely written
        used = m.used
        rows = np.flatnonzero(m.alive[:used] & (m.seq[:used] <= synced)).astype(np.int64)
        g = _Graph(self._new_index(rows), int(rows.size))
        g.synced = synced
        step = 16384
        for s in range(0, rows.size, step):
            self._check_stop()
            chunk = rows[s:s + step]
            seqs, vecs = self._copy_rows(chunk)
            g.index.add(vecs)
            g.labels.extend(chunk, seqs)
        self.build_seconds = time.perf_counter() - start
        log.info("built the ANN index for dim %d: %d vectors in %.1f s", m.dim, rows.size,
                 self.build_seconds)
        return g

    def _catch_up(self, g: _Graph) -> None:
        """Add the rows written since the last sync (and any pending ones) to the graph."""
        m = self.matrix
        target = m.write_seq
        used = m.used
        seq = m.seq[:used]
        fresh = np.flatnonzero((seq > g.synced) & (seq <= target)).astype(np.int64)
        rows = np.unique(np.concatenate([fresh, g.pending[g.pending < used]]))
        rows = rows[m.alive[rows]]
        for s in range(0, rows.size, self.settings.batch):
            chunk = rows[s:s + self.settings.batch]
            seqs, vecs = self._copy_rows(chunk)
            with self.lock:
                g.index.add(vecs)
                g.labels.extend(chunk, seqs)
        with self.lock:
            g.synced = target
            g.pending = np.zeros(0, dtype=np.int64)

    # ------------------------------------------------------------------ persistence

    def _header(self, g: _Graph, rowids: npt.NDArray[np.int64]) -> dict[str, Any]:
        live = rowids[rowids >= 0]
        return {
            "format": FORMAT, "backend": BACKEND, "faiss": self.faiss.__version__,
            "dim": self.matrix.dim, "metric": "inner_product", "nlist": int(g.index.nlist),
            "trained_on": g.trained_on, "labels": int(rowids.size),
            "live": int(live.size), "max_rowid": int(live.max()) if live.size else 0,
            "written": int(time.time()),
        }

    def _save_quietly(self, g: _Graph) -> None:
        if not self.settings.persist or self.path is None:
            return
        tmp = self.path + TMP_SUFFIX
        foreign = self.path if not ours_or_absent(self.path) else \
            tmp if not _leftover_or_absent(tmp) else None
        if foreign is not None:
            if not self._foreign_warned:
                self._foreign_warned = True
                log.warning("%s is not a chatmem ANN file: it is left alone and the graph "
                            "is not saved (rename that file to keep the graph between "
                            "runs)", foreign)
            return
        try:
            self._save(g)
        except Exception:
            log.exception("could not save the ANN index to %s", self.path)

    def _save(self, g: _Graph) -> None:
        """Write label rowids and the faiss index, then the header; atomically replace."""
        assert self.path is not None
        m = self.matrix
        n = g.labels.n
        rows = g.labels.row[:n]
        seqs, vecs = self._copy_rows(rows)
        live = g.live_mask(m) & (m.seq[rows] == seqs)  # unchanged while being read
        rowids = np.where(live, m.rowid[rows], -1).astype(_I64)
        prints = np.where(live, _fingerprints(vecs), 0).astype(np.uint64)
        header = self._header(g, rowids)
        header["rowids_crc32"] = zlib.crc32(rowids.tobytes())
        header["fingerprints_crc32"] = zlib.crc32(prints.tobytes())
        tmp = self.path + TMP_SUFFIX
        crc = 0
        size = 0
        try:
            with open(tmp, "wb") as f:

                def sink(data: bytes) -> None:
                    nonlocal crc, size
                    crc = zlib.crc32(data, crc)
                    size += len(data)
                    f.write(data)

                # the magic at once: a save cut short leaves a file that is recognisably ours
                f.write(MAGIC.ljust(HEADER_SIZE, b"\0"))
                f.write(rowids.tobytes())
                f.write(prints.tobytes())
                with self.lock:
                    self.faiss.write_index(g.index, self.faiss.PyCallbackIOWriter(_writer(sink)))
                header["index_bytes"] = size
                header["index_crc32"] = crc
                head = json.dumps(header, sort_keys=True).encode()
                block = MAGIC + struct.pack("<I", len(head)) + head
                if len(block) > HEADER_SIZE:
                    raise ValueError("ANN header too long")
                f.seek(0)
                f.write(block)
                f.flush()
                os.fsync(f.fileno())
        except BaseException:
            with contextlib.suppress(OSError):  # a full disk: no half file left behind
                os.remove(tmp)
            raise
        os.replace(tmp, self.path)
        g.saved_labels = n
        log.info("saved the ANN index (%d labels) to %s", n, self.path)

    def _load(self) -> _Graph | None:
        """The graph in the file checked against the matrix, or None (reason set) to build."""
        assert self.path is not None
        m = self.matrix
        try:
            with open(self.path, "rb") as f:
                if f.read(len(MAGIC)) != MAGIC:
                    raise ValueError("not a chatmem ANN file")
                (hlen,) = struct.unpack("<I", f.read(4))
                if hlen > HEADER_SIZE - len(MAGIC) - 4:
                    raise ValueError("header length out of range")
                header = json.loads(f.read(hlen))
                f.seek(HEADER_SIZE)
                want: dict[str, Any] = {"format": FORMAT, "backend": BACKEND,
                                        "dim": m.dim}
                if self.settings.nlist:
                    want["nlist"] = self.settings.nlist
                other = {k: header.get(k) for k in want if header.get(k) != want[k]}
                if other:
                    self.reason = f"rebuilt: the file has other parameters {other}"
                    log.info("ANN file %s: %s", self.path, self.reason)
                    return None
                n = int(header["labels"])
                raw = f.read(n * 8)
                if len(raw) != n * 8 or zlib.crc32(raw) != header["rowids_crc32"]:
                    raise ValueError("label table is truncated or corrupt")
                rowids = np.frombuffer(raw, dtype=_I64).astype(np.int64)
                raw = f.read(n * 8)
                if len(raw) != n * 8 or zlib.crc32(raw) != header["fingerprints_crc32"]:
                    raise ValueError("fingerprint table is truncated or corrupt")
                prints = np.frombuffer(raw, dtype=np.uint64)
                crc = 0
                got = 0

                def read(size: int) -> bytes:
                    nonlocal crc, got
                    data = f.read(size)
                    crc = zlib.crc32(data, crc)
                    got += len(data)
                    return data

                index = self.faiss.read_index(self.faiss.PyCallbackIOReader(read))
                if got != header["index_bytes"] or crc != header["index_crc32"] \
                        or int(index.ntotal) != n or f.read(1):
                    raise ValueError("index data is truncated or corrupt")
        except _Stop:
            raise
        except Exception as exc:
            self.reason = f"rebuilt: corrupt file ({exc})"
            log.warning("ANN file %s is unusable (%s); rebuilding", self.path, exc)
            return None
        self._check_stop()
        # every label must still hold its row's vector: compare with the source of truth
        synced = m.write_seq
        used = m.used
        rows = np.fromiter((m.row_of.get(int(r), -1) for r in rowids), dtype=np.int64,
                           count=n)
        seqs = np.full(n, -1, dtype=np.int64)
        step = 8192
        for s in range(0, n, step):
            self._check_stop()
            r = rows[s:s + step]
            ok = r >= 0
            cand = np.where(ok, r, 0)
            cur_seq = m.seq[cand].copy()
            same = ok & (cur_seq <= synced) & m.alive[cand]
            same &= _fingerprints(m.vecs[cand]) == prints[s:s + step]
            seqs[s:s + step] = np.where(same, cur_seq, -1)
        valid = seqs >= 0
        covered = np.zeros(used, dtype=bool)
        covered[rows[valid]] = True
        missing = np.flatnonzero(m.alive[:used] & ~covered & (m.seq[:used] <= synced))
        stale = int(n - np.count_nonzero(valid)) + int(missing.size)
        live_now = max(1, m.size)
        if stale > self.settings.rebuild_fraction * live_now:
            self.reason = (f"rebuilt: stale file ({header['live']} live labels up to rowid "
                           f"{header['max_rowid']}; {stale} labels gone, changed or missing "
                           f"for {m.size} vectors)")
            log.info("ANN file %s: %s", self.path, self.reason)
            return None
        g = _Graph(index, int(header.get("trained_on", n)))
        g.labels.extend(np.where(valid, rows, 0), seqs)
        g.synced = synced
        g.pending = missing.astype(np.int64)
        g.dead = int(n - np.count_nonzero(valid))
        g.saved_labels = n
        self.reason = f"loaded from {self.path} ({stale} labels to fix)"
        return g


def _writer(sink: Callable[[bytes], Any]) -> Callable[[bytes], int]:
    def write(data: bytes) -> int:
        sink(data)
        return len(data)

    return write


class AnnManager:
    """The ANN indexes of one store, one per vector size, created on demand."""

    def __init__(self, settings: AnnSettings | None, path: str | None) -> None:
        self.settings = settings or AnnSettings()
        self.path = path
        #: Turn off to force exact search (benchmarks compare both on one store).
        self.enabled = True
        self._indexes: dict[int, AnnIndex] = {}

    def for_matrix(self, matrix: VectorMatrix) -> AnnIndex | None:
        """The matrix's ANN when it should be used; starts it past the threshold."""
        threshold = self.settings.threshold
        if not self.enabled or threshold is None:
            return None
        ann = self._indexes.get(matrix.dim)
        if ann is not None and ann.matrix is not matrix:  # the matrix was replaced
            ann.close(save=False)
            del self._indexes[matrix.dim]
            ann = None
        if ann is None:
            if matrix.size < threshold:
                return None
            faiss = load_faiss()
            if faiss is None:
                return None
            ann = AnnIndex(matrix, self.settings, self._file_for(matrix.dim), faiss)
            self._indexes[matrix.dim] = ann
        ann.notice()
        return ann if matrix.size >= threshold else None

    def _file_for(self, dim: int) -> str | None:
        if self.path is None or not self.settings.persist:
            return None
        taken = {a.path for a in self._indexes.values()}
        if self.path not in taken and _file_dim(self.path) in (None, dim):
            return self.path
        return f"{self.path}.{dim}"

    def start(self, matrices: Mapping[int, VectorMatrix]) -> None:
        """Start loading or building for every matrix past the threshold (store open)."""
        self.close(save=False)
        for mat in matrices.values():
            self.for_matrix(mat)

    def wait_ready(self, timeout: float | None = None) -> bool:
        deadline = None if timeout is None else time.monotonic() + timeout
        for ann in list(self._indexes.values()):
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not ann.wait_ready(left):
                return False
        return True

    def status(self) -> dict[int, dict[str, Any]]:
        return {dim: ann.status() for dim, ann in self._indexes.items()}

    def purge_dead(self) -> int:
        """Drop every graph that still holds labels of deleted vectors, and its file, so
        that no trace of an erased vector stays (I8); a dropped graph is rebuilt from the
        live vectors on the next query (exact search meanwhile). Returns how many dead
        labels went."""
        dropped = 0
        for dim, ann in list(self._indexes.items()):
            g = ann._graph
            dead = 0 if g is None else int(g.labels.n
                                           - np.count_nonzero(g.live_mask(ann.matrix)))
            if g is not None and dead == 0 and not g.pending.size:
                continue
            ann.close(save=False)
            del self._indexes[dim]
            dropped += dead
            if ann.path is not None and ours_or_absent(ann.path):
                try:
                    os.remove(ann.path)
                except FileNotFoundError:
                    pass
                except OSError as exc:
                    raise StoreError(f"could not delete the ANN file {ann.path} holding "
                                     f"erased vectors: {exc}") from exc
        return dropped

    def close(self, save: bool = True) -> None:
        for ann in self._indexes.values():
            ann.close(save=save)
        self._indexes.clear()


def _fingerprints(vecs: npt.NDArray[np.float32]) -> npt.NDArray[np.uint64]:
    """A 64-bit fingerprint of each vector's exact bits (a multiply-add hash).

    The index holds 8-bit codes, not the vectors, so a saved label proves it still
    matches its row by this fingerprint of the vector it was built from."""
    bits = np.ascontiguousarray(vecs, dtype=np.float32).view(np.uint32).astype(np.uint64)
    mult = np.random.default_rng(0x5EED).integers(1, 2**63, size=bits.shape[1],
                                                  dtype=np.uint64) | np.uint64(1)
    with np.errstate(over="ignore"):
        out: npt.NDArray[np.uint64] = (bits * mult).sum(axis=1, dtype=np.uint64)
    return out


def ours_or_absent(path: str) -> bool:
    """Whether ``path`` is missing or a chatmem ANN file (its magic): only such a file is
    replaced or removed; another (a user's file that happens to have the name) is left
    alone."""
    try:
        with open(path, "rb") as f:
            return f.read(len(MAGIC)) == MAGIC
    except FileNotFoundError:
        return True
    except OSError:
        return False


def _leftover_or_absent(path: str) -> bool:
    """Whether ``path`` (``<db>.ann.tmp``) is missing or a save of ours cut short: it
    starts with the magic, or is empty or zeros so far (earlier versions wrote the
    magic last); any other file of that name is a user's, neither truncated nor moved. A
    symbolic link is never ours: the save would write through it into the file it names
    (creating it, for a link to nothing), then move the link."""
    if os.path.islink(path):
        return False
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER_SIZE)
    except FileNotFoundError:
        return True
    except OSError:
        return False
    return head.startswith(MAGIC) or not head.strip(b"\0")


def _file_dim(path: str) -> int | None:
    """The vector size recorded in an ANN file's header, or None (no file / unreadable)."""
    try:
        with open(path, "rb") as f:
            if f.read(len(MAGIC)) != MAGIC:
                return None
            (hlen,) = struct.unpack("<I", f.read(4))
            dim = json.loads(f.read(hlen)).get("dim")
            return dim if isinstance(dim, int) else None
    except (OSError, ValueError, struct.error):
        return None


__all__ = ["DEFAULT_THRESHOLD", "AnnIndex", "AnnManager", "AnnSettings", "load_faiss"]
