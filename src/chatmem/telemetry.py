"""Timings of recall and indexing for metrics, and OpenTelemetry spans around them.

The library keeps no metrics of its own beyond counters in ``stats()``: a
:class:`Telemetry` hands each timed event to its listeners (the HTTP server's
Prometheus metrics subscribe, see :mod:`chatmem.server.metrics`), and opens a span
with the ``opentelemetry-api`` tracer ``chatmem`` when that package is installed.
The API alone records nothing: spans reach an exporter only once the application
installs and configures an OpenTelemetry SDK (README § Metrics and traces).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Literal

log = logging.getLogger("chatmem.telemetry")

#: Span names: ``chatmem.recall`` (one recall, query embedding to rendering) and
#: ``chatmem.index_batch`` (one indexing batch: embedding and writing its vectors).
RECALL_SPAN = "chatmem.recall"
INDEX_SPAN = "chatmem.index_batch"
#: Whether the code running is inside a ``chatmem.index_batch`` span (a batch that
#: failed as invalid is retried one message at a time, in spans of its own inside it).
_IN_INDEX_SPAN: ContextVar[bool] = ContextVar("chatmem_in_index_span", default=False)


@dataclass(frozen=True)
class Timing:
    """One timed event: a recall or an indexing batch."""

    what: Literal["recall", "index_batch"]
    seconds: float
    #: recall: ``ok``, ``degraded`` (ranked by full text alone) or ``error``;
    #: index_batch: ``ok`` (vectors written) or ``failed`` (retried later) or ``error``.
    outcome: str
    #: Messages in the batch (index_batch), hits returned (recall).
    size: int = 0


def _tracer() -> Any:
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    return trace.get_tracer("chatmem")


def _parent(what: str) -> Any:
    """The context a span starts in: the current one for a recall (the caller's request
    or job) and for the batches of a batch split up; an empty one for an indexing batch,
    which is background work: the indexer's workers keep the context of the call that
    started them (under ``chatmem serve``, the first request of a namespace), and every
    batch would otherwise join that request's trace for as long as the process runs."""
    if what == "recall" or _IN_INDEX_SPAN.get():
        return None
    from opentelemetry.context import Context

    return Context()


@dataclass
class Telemetry:
    """Listeners of :class:`Timing` events; a listener that raises is logged and ignored."""

    listeners: list[Callable[[Timing], Any]] = field(default_factory=list)

    def emit(self, timing: Timing) -> None:
        for listener in list(self.listeners):
            try:
                listener(timing)
            except Exception:
                log.exception("telemetry listener raised; ignored")

    @contextmanager
    def timed(self, what: Literal["recall", "index_batch"], **attributes: Any
              ) -> Iterator[Outcome]:
        """Time the block in a span; the block sets ``outcome.value`` / ``outcome.size``;
        an exception escaping it counts as ``error`` (and is recorded on the span)."""
        outcome = Outcome()
        start = time.perf_counter()
        tracer = _tracer()
        try:
            if tracer is None:
                yield outcome
            else:
                name = RECALL_SPAN if what == "recall" else INDEX_SPAN
                with tracer.start_as_current_span(name, context=_parent(what),
                                                  attributes=attributes) as span:
                    inside = _IN_INDEX_SPAN.set(what == "index_batch")
                    try:
                        yield outcome
                    except BaseException:
                        outcome.value = "error"
                        raise
                    finally:
                        _IN_INDEX_SPAN.reset(inside)
                        span.set_attribute("chatmem.outcome", outcome.value)
                        span.set_attribute("chatmem.size", outcome.size)
        except BaseException:
            outcome.value = "error"
            raise
        finally:
            self.emit(Timing(what, time.perf_counter() - start, outcome.value, outcome.size))


@dataclass
class Outcome:
    value: str = "ok"
    size: int = 0
