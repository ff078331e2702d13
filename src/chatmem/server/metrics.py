"""``/metrics`` of ``chatmem serve``: Prometheus metrics with ``prometheus_client``.

Each app owns one :class:`~prometheus_client.CollectorRegistry` (nothing goes to the
process-wide default registry, so two apps in one process never share a series).

* Events are observed as they happen: every HTTP answer (latency histogram per
  route template and status), every recall and indexing batch of every open
  namespace (:class:`chatmem.telemetry.Timing`), every call of the shared embedder
  (its ``on_status``: latency and outcome by decision).
* Counts of the stores (messages, pending, failed, queue depth, …) are read lazily
  when ``/metrics`` is scraped, at most once per :attr:`Metrics.stats_ttl` seconds,
  so that frequent scrapes stay cheap. A namespace whose reading fails (any exception)
  is logged, counted and left out: the scrape still answers.

README § Metrics lists every series.
"""

from __future__ import annotations

import asyncio
import copy
import logging
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

from ..errors import ChatmemError
from ..telemetry import Timing

if TYPE_CHECKING:
    from ..embedding import Embedder
    from ..embedding.embedder import StatusDetail
    from ..memory import Memory

log = logging.getLogger("chatmem.server.metrics")

#: Buckets of work that may wait on a remote provider (seconds).
SLOW_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0, 60.0,
                120.0)
#: Per-namespace gauges read from ``Memory.stats()``: (stats key, help).
STORE_GAUGES = (
    ("messages", "Stored messages"),
    ("indexed", "Messages with a vector"),
    ("pending", "Messages waiting for indexing"),
    ("failed", "Messages whose embedding failed (each waits for a retry)"),
    ("cleared", "Messages whose vector was cleared (chatmem reindex rebuilds)"),
)


class Metrics:
    """The metrics of one app; ``render`` produces the Prometheus text format."""

    def __init__(self, embedder: Embedder | None = None, *,
                 registry: CollectorRegistry | None = None, stats_ttl: float = 1.0) -> None:
        self.registry = registry if registry is not None else CollectorRegistry()
        #: The embedder every namespace shares (its calls, errors, last success).
        self.embedder = embedder
        #: Seconds a reading of the stores' counts is reused by the next scrapes.
        self.stats_ttl = stats_ttl
        self._stats: dict[str, dict[str, Any]] = {}
        self._stats_at = -float("inf")
        #: One reading at a time: scrapes that arrive while one is under way wait for it
        #: and share it (``/metrics`` takes no request slot, so a burst of scrapes must
        #: not count every store once each). A lock per event loop: an app served again
        #: after a shutdown runs on a new loop.
        self._reading: tuple[asyncio.AbstractEventLoop, asyncio.Lock] | None = None
        r = self.registry
        self.requests = Counter("chatmem_http_requests", "HTTP requests by route and status.",
                                ["method", "route", "status"], registry=r)
        self.request_seconds = Counter(
            "chatmem_http_request_seconds", "Time spent answering requests, in seconds.",
            ["method", "route"], registry=r)
        self.request_duration = Histogram(
            "chatmem_http_request_duration_seconds",
            "Latency of HTTP answers by route template and status.",
            ["method", "route", "status"], registry=r)
        self.recall_duration = Histogram(
            "chatmem_recall_duration_seconds",
            "Latency of recalls (query embedding to rendering) by outcome: ok, degraded "
            "(full text alone), error.", ["namespace", "outcome"], buckets=SLOW_BUCKETS,
            registry=r)
        self.index_batch_duration = Histogram(
            "chatmem_indexing_batch_duration_seconds",
            "Latency of indexing batches (embedding and writing) by outcome: ok, failed "
            "(retried later), split (retried one by one), error.",
            ["namespace", "outcome"], buckets=SLOW_BUCKETS, registry=r)
        self.index_batch_messages = Counter(
            "chatmem_indexing_batch_messages", "Messages in indexing batches, by outcome "
            "(a split batch's messages count again, each under its own retry's outcome: "
            "ok counts the messages indexed).",
            ["namespace", "outcome"], registry=r)
        self.embedding_duration = Histogram(
            "chatmem_embedding_call_duration_seconds",
            "Latency of embedder calls by decision: ok, or the retry decision of a failure "
            "(retry, defer, fail, invalid, …).", ["provider", "model", "decision"],
            buckets=SLOW_BUCKETS, registry=r)
        self.embedding_outcomes = Counter(
            "chatmem_embedding_call_outcomes",
            "Embedder calls by decision: ok, or the retry decision of a failure.",
            ["provider", "model", "decision"], registry=r)
        self.connection_answers = Counter(
            "chatmem_http_connection_answers",
            "Answers the connection layer wrote before any request reached the app: 503 "
            "(the connection cap), 408 (a request head too late), 400 (not HTTP/1.1).",
            ["status"], registry=r)
        self.stats_failures = Counter(
            "chatmem_metrics_stats_failures",
            "Readings of a namespace's counts that failed at a scrape (that namespace's "
            "store series are left out of it; the log says why).", ["namespace"],
            registry=r)
        self.registry.register(_SnapshotCollector(self))
        if embedder is not None:
            _chain_on_status(embedder, self.on_embedding_status)

    # -------------------------------------------------------------- events

    def observe(self, method: str, route: str, status: int, seconds: float) -> None:
        """One HTTP answer."""
        self.requests.labels(method, route, str(status)).inc()
        self.request_seconds.labels(method, route).inc(seconds)
        self.request_duration.labels(method, route, str(status)).observe(seconds)

    def on_connection_answer(self, status: int) -> None:
        """One answer of the connection layer (:func:`~chatmem.server.limits.protocol_class`)."""
        self.connection_answers.labels(str(status)).inc()

    def watch(self, namespace: str, memory: Memory) -> None:
        """Observe the recalls and indexing batches of a namespace just opened."""
        memory.telemetry.listeners.append(lambda t: self.on_timing(namespace, t))

    def on_timing(self, namespace: str, timing: Timing) -> None:
        if timing.what == "recall":
            self.recall_duration.labels(namespace, timing.outcome).observe(timing.seconds)
        else:
            self.index_batch_duration.labels(namespace, timing.outcome).observe(timing.seconds)
            self.index_batch_messages.labels(namespace, timing.outcome).inc(timing.size)

    def on_embedding_status(self, detail: StatusDetail) -> None:
        if self.embedder is None:
            return
        decision = "ok" if detail.ok else (detail.retry_decision or "fail")
        labels = (self.embedder.provider.name, self.embedder.model_id, decision)
        self.embedding_duration.labels(*labels).observe(detail.duration_ms / 1000)
        self.embedding_outcomes.labels(*labels).inc()

    # -------------------------------------------------------------- scrape

    async def refresh(self, memories: Mapping[str, Memory]) -> None:
        """Read the counts of the open stores (namespace → memory), unless the last
        reading is under ``stats_ttl`` old (or one is under way: it is waited for)."""
        if self._fresh():
            return
        async with self._reading_lock():
            if self._fresh():  # read while this scrape waited
                return
            stats: dict[str, dict[str, Any]] = {}
            for ns, mem in sorted(memories.items()):
                try:
                    stats[ns] = await mem.stats()
                except ChatmemError as exc:
                    log.warning("metrics: stats of %s failed: %s", ns, exc)
                    self.stats_failures.labels(ns).inc()
                except Exception:
                    # a driver error chatmem does not map, or a bug: answered 500, the
                    # scrape lost every other namespace's series and the process's too
                    log.exception("metrics: stats of %s failed; its series are left out "
                                  "of this scrape", ns)
                    self.stats_failures.labels(ns).inc()
            self._stats, self._stats_at = stats, time.monotonic()

    def _fresh(self) -> bool:
        return time.monotonic() - self._stats_at < self.stats_ttl

    def _reading_lock(self) -> asyncio.Lock:
        loop = asyncio.get_running_loop()
        if self._reading is None or self._reading[0] is not loop:
            self._reading = (loop, asyncio.Lock())
        return self._reading[1]

    async def render(self, memories: Mapping[str, Memory], *,
                     namespace: str | None = None) -> bytes:
        """The Prometheus text; with ``namespace``, the series of other namespaces left
        out (what an API key of that namespace reads: its tenant's counts, and the
        process-wide series, not another tenant's)."""
        await self.refresh(memories)
        if namespace is None:
            return generate_latest(self.registry)
        return generate_latest(_OneNamespace(self.registry, namespace))


class _OneNamespace:
    """A registry's families with only the samples of one namespace (and those with no
    ``namespace`` label)."""

    def __init__(self, registry: CollectorRegistry, namespace: str) -> None:
        self.registry, self.namespace = registry, namespace

    def collect(self) -> Iterator[Any]:
        for family in self.registry.collect():
            kept = copy.copy(family)
            kept.samples = [s for s in family.samples
                            if s.labels.get("namespace", self.namespace) == self.namespace]
            yield kept


def _chain_on_status(embedder: Embedder, callback: Callable[[StatusDetail], Any]) -> None:
    """Add ``callback`` to the embedder's ``on_status`` (keeping one already set)."""
    previous = embedder.on_status
    if previous is None:
        embedder.on_status = callback
        return

    def both(detail: StatusDetail) -> None:
        callback(detail)
        previous(detail)

    embedder.on_status = both


class _SnapshotCollector(Collector):
    """The stores' counts of the last reading, and the embedder's own counters."""

    def __init__(self, metrics: Metrics) -> None:
        self.metrics = metrics

    def collect(self) -> Iterable[Metric]:
        return list(self._families())

    def _families(self) -> Iterator[Metric]:
        stats = self.metrics._stats
        for key, help_text in STORE_GAUGES:
            g = GaugeMetricFamily(f"chatmem_{key}", f"{help_text}, per namespace.",
                                  labels=["namespace"])
            for ns, s in stats.items():
                g.add_metric([ns], s[key])
            yield g
        queue = GaugeMetricFamily("chatmem_indexing_queue_depth",
                                  "Messages in the in-memory indexing queue, per namespace.",
                                  labels=["namespace"])
        flight = GaugeMetricFamily("chatmem_indexing_in_flight",
                                   "Messages being embedded or written, per namespace.",
                                   labels=["namespace"])
        # one series per namespace, its reason a label: an alert on an outage
        # (``provider``) must not fire for a model swapped behind the endpoint (``width``)
        paused = GaugeMetricFamily(
            "chatmem_indexing_retries_paused_seconds",
            "Seconds before failed messages are retried, per namespace; reason: provider "
            "(it fails), width (its vectors are refused for their width: chatmem "
            "reindex), none.", labels=["namespace", "reason"])
        for ns, s in stats.items():
            indexer = s.get("indexer")
            if indexer is not None:
                queue.add_metric([ns], indexer["queued"])
                flight.add_metric([ns], indexer["in_flight"])
                paused.add_metric([ns, indexer.get("retries_paused_for") or "none"],
                                  indexer.get("retries_paused_s", 0.0))
        yield queue
        yield flight
        yield paused
        degraded = CounterMetricFamily(
            "chatmem_recall_degraded", "Recalls ranked by full text alone because the query "
            "could not be embedded, per namespace.", labels=["namespace"])
        for ns, s in stats.items():
            degraded.add_metric([ns], s["recall"]["degraded"])
        yield degraded
        yield from self._embedder()

    def _embedder(self) -> Iterator[Metric]:
        """The shared embedder's counters; labels are the provider and model id only
        (never an endpoint: a URL may carry a key)."""
        emb = self.metrics.embedder
        if emb is None:
            return
        st = emb.status
        labels = ["provider", "model"]
        values = [emb.provider.name, emb.model_id]
        for name, help_text, value in (
            ("calls", "Embedding calls.", st.calls),
            ("texts", "Texts asked for.", st.texts),
            ("provider_calls", "Requests to the provider.", st.provider_calls),
            ("errors", "Calls that failed terminally.", st.errors),
        ):
            c = CounterMetricFamily(f"chatmem_embedding_{name}", help_text, labels=labels)
            c.add_metric(values, value)
            yield c
        for name, help_text, gauge_value in (
            ("last_ok_timestamp_seconds", "Unix time of the last successful call (0: none "
             "yet).", st.last_ok_at or 0),
            ("last_error_timestamp_seconds", "Unix time of the last failed call (0: none).",
             st.last_error[0] if st.last_error else 0),
        ):
            g = GaugeMetricFamily(f"chatmem_embedding_{name}", help_text, labels=labels)
            g.add_metric(values, gauge_value)
            yield g
