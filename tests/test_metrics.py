"""``/metrics`` with prometheus_client (X4) over a real server on 127.0.0.1, and the
OpenTelemetry spans around recall and indexing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from prometheus_client.parser import text_string_to_metric_families

from chatmem import Memory, Message
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import EmbeddingUnavailable
from chatmem.server.http import KeyTable, create_app
from chatmem.telemetry import INDEX_SPAN, RECALL_SPAN, Telemetry, Timing
from providers import RecordingProvider
from servers import running

KEY = "alice-key-0123456789abcdef"
TOKEN = "metrics-token-0123456789"
BOB_KEY = "bob-key-0123456789abcdef0"


def scrape(c: httpx.Client) -> dict[str, list[tuple[dict[str, str], float]]]:
    """Every sample of ``/metrics`` by name: [(labels, value)]."""
    r = c.get("/metrics")
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("text/plain")
    out: dict[str, list[tuple[dict[str, str], float]]] = {}
    for family in text_string_to_metric_families(r.text):
        for s in family.samples:
            out.setdefault(s.name, []).append((s.labels, s.value))
    return out


def value(samples: dict[str, list[tuple[dict[str, str], float]]], name: str,
          **labels: str) -> float:
    found = [v for ls, v in samples.get(name, []) if all(ls.get(k) == x
                                                          for k, x in labels.items())]
    assert found, f"no {name} {labels} in {sorted(samples)}"
    return sum(found)


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[str, RecordingProvider]]:
    prov = RecordingProvider()
    table = KeyTable.from_mapping({"keys": {"alice": {"key": KEY, "namespace": "alice",
                                                      "role": "owner"}},
                                   "metrics": {"token": TOKEN}})
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=table,
                     config=Config.load(context_expand={"window": 0}),
                     embedder=Embedder(prov))
    app.app.state.metrics.stats_ttl = 0  # every scrape reads the stores (the test's pace)
    with running(app) as base:
        yield base, prov


def client(base: str, key: str | None) -> httpx.Client:
    return httpx.Client(base_url=base, timeout=30,
                        headers={"Authorization": f"Bearer {key}"} if key else {})


def wait_indexed(c: httpx.Client, n: int) -> None:
    deadline = time.monotonic() + 30
    while c.get("/v1/stats").json()["indexed"] < n:
        assert time.monotonic() < deadline
        time.sleep(0.05)


@contextlib.contextmanager
def two_tenants(tmp_path: Path, alice_role: str) -> Iterator[tuple[Any, str]]:
    """A server of two namespaces (alice's key of ``alice_role``, bob an owner) and the
    metrics token, each namespace holding one message: (app, base URL)."""
    table = KeyTable.from_mapping({"keys": {
        "alice": {"key": KEY, "namespace": "alice", "role": alice_role},
        "bob": {"key": BOB_KEY, "namespace": "bob", "role": "owner"}},
        "metrics": {"token": TOKEN}})
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=table,
                     embedder=Embedder(RecordingProvider()))
    app.app.state.metrics.stats_ttl = 0
    with running(app) as base:
        for key in (KEY, BOB_KEY):
            with client(base, key) as c:
                assert c.post("/v1/messages", json={"messages": [
                    {"session_id": "s", "content": "hello"}]}).status_code == 200
        yield app, base


def test_metrics_parse_and_count_requests_recalls_indexing_and_embedder(
        served: tuple[str, RecordingProvider]) -> None:
    base, prov = served
    with client(base, KEY) as c, client(base, TOKEN) as scraper:
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": t} for t in
            ("the boiler is serviced on thursday", "I prefer oat milk")]})
        assert r.status_code == 200
        wait_indexed(c, 2)
        for _ in range(3):
            assert c.post("/v1/recall", json={"query": "boiler", "scope": "all"}
                          ).status_code == 200
        assert c.get("/v1/sessions/nope").status_code == 404
        m = scrape(scraper)
        # request latency per route template and status (and the old counters)
        assert value(m, "chatmem_http_request_duration_seconds_count", method="POST",
                     route="/v1/recall", status="200") == 3
        assert value(m, "chatmem_http_request_duration_seconds_bucket", route="/v1/recall",
                     status="200", le="+Inf") == 3
        assert value(m, "chatmem_http_requests_total", method="POST", route="/v1/recall",
                     status="200") == 3
        assert value(m, "chatmem_http_requests_total", route="/v1/sessions/{session_id}",
                     status="404") == 1
        assert value(m, "chatmem_http_request_seconds_total", route="/v1/recall") > 0
        # recall and indexing latency
        assert value(m, "chatmem_recall_duration_seconds_count", namespace="alice",
                     outcome="ok") == 3
        assert value(m, "chatmem_indexing_batch_duration_seconds_count", namespace="alice",
                     outcome="ok") >= 1
        assert value(m, "chatmem_indexing_batch_messages_total", namespace="alice",
                     outcome="ok") == 2
        # the stores' counts, read at the scrape
        assert value(m, "chatmem_messages", namespace="alice") == 2
        assert value(m, "chatmem_indexed", namespace="alice") == 2
        assert value(m, "chatmem_pending", namespace="alice") == 0
        assert value(m, "chatmem_failed", namespace="alice") == 0
        assert value(m, "chatmem_indexing_queue_depth", namespace="alice") == 0
        assert value(m, "chatmem_recall_degraded_total", namespace="alice") == 0
        # the embedder: calls by decision, and its own counters
        ok_calls = value(m, "chatmem_embedding_call_outcomes_total", decision="ok")
        assert ok_calls >= 4  # one indexing batch at least, three queries
        assert value(m, "chatmem_embedding_call_duration_seconds_count", decision="ok") \
            == ok_calls
        assert value(m, "chatmem_embedding_calls_total", provider=prov.name) >= 4

        # the provider goes down: recalls degrade, new messages fail and wait
        prov.fail_with(EmbeddingUnavailable("connection refused", provider="test",
                                            retry_decision="defer"))
        r = c.post("/v1/recall", json={"query": "oat milk", "scope": "all"})
        assert r.status_code == 200 and r.json()["degraded"] is True
        c.post("/v1/messages", json={"messages": [{"session_id": "s1",
                                                   "content": "a new fact"}]})
        deadline = time.monotonic() + 30
        while True:
            m = scrape(scraper)
            if value(m, "chatmem_failed", namespace="alice") >= 1:
                break
            assert time.monotonic() < deadline, "the failure was not counted"
            time.sleep(0.05)
        assert value(m, "chatmem_recall_duration_seconds_count", namespace="alice",
                     outcome="degraded") == 1
        assert value(m, "chatmem_recall_degraded_total", namespace="alice") == 1
        assert value(m, "chatmem_indexing_batch_duration_seconds_count", namespace="alice",
                     outcome="failed") >= 1
        assert value(m, "chatmem_embedding_call_outcomes_total", decision="defer") >= 2
        assert value(m, "chatmem_embedding_errors_total") >= 2


def test_the_retry_pause_and_its_reason_are_a_gauge(
        served: tuple[str, RecordingProvider]) -> None:
    # /v1/stats said why retries wait (provider, width); a Prometheus alert could not
    base, prov = served
    with client(base, KEY) as c, client(base, TOKEN) as scraper:
        assert c.get("/v1/stats").status_code == 200  # the namespace is open
        m = scrape(scraper)
        assert value(m, "chatmem_indexing_retries_paused_seconds", namespace="alice",
                     reason="none") == 0
        prov.fail_with(ConnectionError("provider down"))
        assert c.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": "the boiler is serviced on thursday"}]}
            ).status_code == 200
        deadline = time.monotonic() + 30
        while c.get("/v1/stats").json()["indexer"]["retries_paused_for"] != "provider":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        m = scrape(scraper)
        assert value(m, "chatmem_indexing_retries_paused_seconds", namespace="alice",
                     reason="provider") > 0
        assert [ls for ls, _ in m["chatmem_indexing_retries_paused_seconds"]] == [
            {"namespace": "alice", "reason": "provider"}]  # one series per namespace
        prov.recover()


def test_metrics_access_is_unchanged(served: tuple[str, RecordingProvider]) -> None:
    base, _ = served
    with client(base, None) as anon, client(base, "not-a-key-at-all-000000") as wrong:
        assert anon.get("/metrics").status_code == 401
        assert wrong.get("/metrics").status_code == 401
    with client(base, TOKEN) as scraper:
        assert scraper.get("/v1/stats").status_code == 401  # the token reads metrics only
    with client(base, KEY) as c:
        assert c.get("/metrics").status_code == 200


def test_each_app_has_its_own_registry(tmp_path: Path) -> None:
    apps = [create_app(url=f"sqlite:///{tmp_path}/{i}.db", embedder=Embedder(RecordingProvider()))
            for i in range(2)]
    assert apps[0].app.state.metrics.registry is not apps[1].app.state.metrics.registry
    with running(apps[0]) as a, running(apps[1]) as b, client(a, None) as ca, \
            client(b, None) as cb:
        for _ in range(2):
            ca.get("/health")
        assert value(scrape(ca), "chatmem_http_requests_total", route="/health") == 2
        assert not [v for ls, v in scrape(cb).get("chatmem_http_requests_total", [])
                    if ls["route"] == "/health"]


def test_scrapes_reuse_a_recent_reading_of_the_stores(tmp_path: Path) -> None:
    app = create_app(url=f"sqlite:///{tmp_path}/s.db", embedder=Embedder(RecordingProvider()))
    metrics = app.app.state.metrics
    assert metrics.stats_ttl == 1.0
    calls = 0
    with running(app) as base, client(base, None) as c:
        c.post("/v1/messages", json={"messages": [{"session_id": "s", "content": "x"}]})
        mem = app.app.state.namespaces.open["default"]
        original = mem.stats

        async def counted() -> dict[str, Any]:
            nonlocal calls
            calls += 1
            return await original()

        mem.stats = counted
        metrics.stats_ttl = 60
        metrics._stats_at = -float("inf")
        for _ in range(5):
            assert value(scrape(c), "chatmem_messages", namespace="default") == 1
    assert calls == 1


def test_concurrent_scrapes_share_one_reading_of_the_stores(tmp_path: Path) -> None:
    """/metrics takes no request slot: a burst of scrapes while the reading is stale
    must read the stores once, not once per scrape (any key may scrape, and the
    counts of every namespace are read)."""
    app = create_app(url=f"sqlite:///{tmp_path}/s.db", embedder=Embedder(RecordingProvider()))
    calls = 0
    with running(app) as base, client(base, None) as c:
        c.post("/v1/messages", json={"messages": [{"session_id": "s", "content": "x"}]})
        mem = app.app.state.namespaces.open["default"]
        original = mem.stats

        async def slow() -> dict[str, Any]:
            nonlocal calls
            calls += 1
            await asyncio.sleep(0.2)  # a store that takes a moment to count
            return await original()

        mem.stats = slow
        app.app.state.metrics.stats_ttl = 60
        app.app.state.metrics._stats_at = -float("inf")

        async def burst() -> list[int]:
            async with httpx.AsyncClient(base_url=base, timeout=30) as ac:
                answers = await asyncio.gather(*(ac.get("/metrics") for _ in range(20)))
            return [r.status_code for r in answers]

        assert asyncio.run(burst()) == [200] * 20
        assert value(scrape(c), "chatmem_messages", namespace="default") == 1
    assert calls == 1


def test_an_app_served_again_answers_concurrent_scrapes(tmp_path: Path) -> None:
    """The scrapes' shared reading is per event loop: the same app served again after
    a shutdown (a new loop) still answers a burst of scrapes."""
    app = create_app(url=f"sqlite:///{tmp_path}/s.db", embedder=Embedder(RecordingProvider()))
    app.app.state.metrics.stats_ttl = 0
    for _ in range(2):
        with running(app) as base:
            async def burst() -> list[int]:
                async with httpx.AsyncClient(base_url=base, timeout=30) as ac:
                    answers = await asyncio.gather(*(ac.get("/metrics") for _ in range(10)))
                return [r.status_code for r in answers]

            assert asyncio.run(burst()) == [200] * 10


def test_a_namespace_whose_counts_fail_is_left_out_and_the_scrape_answers(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Only a ChatmemError of a namespace's stats() was caught: any other exception (a
    driver error not mapped, a bug) made /metrics answer 500, and every other
    namespace's series and the process-wide ones were lost with it. Now the failure is
    logged with its traceback, that namespace is left out of the scrape, and the
    failures are counted per namespace."""
    from chatmem.errors import StoreError

    caplog.set_level(logging.WARNING, logger="chatmem.server.metrics")
    with two_tenants(tmp_path, "owner") as (app, base):
        mem = app.app.state.namespaces.open["alice"]
        failure: Exception = RuntimeError("the driver lost its connection")

        async def broken() -> dict[str, Any]:  # no real store raises on demand
            raise failure

        mem.stats = broken
        with client(base, TOKEN) as scraper:
            m = scrape(scraper)  # 200 (was 500)
            assert value(m, "chatmem_messages", namespace="bob") == 1
            assert not [ls for ls, _ in m["chatmem_messages"] if ls["namespace"] == "alice"]
            assert "chatmem_http_requests_total" in m
            assert value(m, "chatmem_metrics_stats_failures_total", namespace="alice") == 1
            failure = StoreError("the store is locked")  # chatmem's own: counted too
            m = scrape(scraper)
            assert value(m, "chatmem_metrics_stats_failures_total", namespace="alice") == 2
            assert not [ls for ls, _ in m.get("chatmem_metrics_stats_failures_total", [])
                        if ls["namespace"] == "bob"]
    logged = [r for r in caplog.records if r.name == "chatmem.server.metrics"]
    assert logged and "alice" in logged[0].getMessage() and logged[0].exc_info
    assert logged[0].exc_info[0] is RuntimeError


# ------------------------------------------------------------------ OpenTelemetry


async def test_spans_open_with_the_api_alone(tmp_path: Path) -> None:
    """Without an SDK the API's tracer is a no-op: spans open and close without error."""
    pytest.importorskip("opentelemetry.trace")
    seen: list[Timing] = []
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=Embedder(RecordingProvider())) as mem:
        mem.telemetry.listeners.append(seen.append)
        await mem.add(Message(session_id="s", content="the spare key is under the mat"))
        await mem.flush()
        result = await mem.recall("spare key", session="s")
        assert result.hits
    assert [t.what for t in seen].count("recall") == 1
    assert any(t.what == "index_batch" and t.outcome == "ok" and t.size == 1 for t in seen)


def test_a_listener_that_raises_is_ignored() -> None:
    tele = Telemetry(listeners=[lambda t: 1 / 0])
    with tele.timed("recall") as outcome:
        outcome.size = 2
    with pytest.raises(KeyError), tele.timed("index_batch"):
        raise KeyError("x")


async def test_spans_reach_an_sdk_exporter(tmp_path: Path) -> None:
    sdk_trace = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    in_memory = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    from opentelemetry import trace

    exporter = in_memory.InMemorySpanExporter()
    provider = sdk_trace.TracerProvider()
    provider.add_span_processor(export.SimpleSpanProcessor(exporter))
    # a provider of this test only (the global one can be set once per process)
    import chatmem.telemetry as telemetry

    original = telemetry._tracer
    telemetry._tracer = lambda: trace.get_tracer("chatmem", tracer_provider=provider)
    try:
        async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                     embedder=Embedder(RecordingProvider())) as mem:
            await mem.add(Message(session_id="s", content="the spare key is under the mat"))
            await mem.flush()
            await mem.recall("spare key", session="s")
    finally:
        telemetry._tracer = original
    spans = {s.name: s for s in exporter.get_finished_spans()}
    assert {RECALL_SPAN, INDEX_SPAN} <= set(spans)
    assert spans[RECALL_SPAN].attributes["chatmem.outcome"] == "ok"
    assert spans[RECALL_SPAN].attributes["chatmem.size"] == 1
    assert spans[INDEX_SPAN].attributes["chatmem.batch_size"] == 1


@pytest.fixture
def exporter() -> Iterator[Any]:
    """Spans of the tracer ``chatmem`` (and of ``app``, the tracer of the test's own
    spans) into an in-memory exporter; yields (exporter, app tracer)."""
    sdk_trace = pytest.importorskip("opentelemetry.sdk.trace")
    export = pytest.importorskip("opentelemetry.sdk.trace.export")
    in_memory = pytest.importorskip("opentelemetry.sdk.trace.export.in_memory_span_exporter")
    from opentelemetry import trace

    import chatmem.telemetry as telemetry

    spans = in_memory.InMemorySpanExporter()
    provider = sdk_trace.TracerProvider()
    provider.add_span_processor(export.SimpleSpanProcessor(spans))
    original = telemetry._tracer
    telemetry._tracer = lambda: trace.get_tracer("chatmem", tracer_provider=provider)
    try:
        yield spans, trace.get_tracer("app", tracer_provider=provider)
    finally:
        telemetry._tracer = original


async def test_index_batches_do_not_join_the_trace_that_opened_the_store(
        tmp_path: Path, exporter: Any) -> None:
    """The indexer's workers keep the context of the call that started them (under
    ``chatmem serve``, a namespace's first request): its batches are background work,
    each in a trace of its own, not children of that request for as long as it runs."""
    spans, app = exporter
    with app.start_as_current_span("first request"):
        mem = await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                embedder=Embedder(RecordingProvider()))
    async with mem:
        for i in range(3):
            await mem.add(Message(session_id="s", content=f"fact number {i}"))
            await mem.flush()
    batches = [s for s in spans.get_finished_spans() if s.name == INDEX_SPAN]
    assert len(batches) == 3
    assert [s.parent for s in batches] == [None] * 3
    assert len({s.context.trace_id for s in batches}) == 3


def test_a_batch_split_up_holds_the_spans_of_its_parts(exporter: Any) -> None:
    spans, app = exporter
    tele = Telemetry()
    with app.start_as_current_span("request"), tele.timed("index_batch") as outcome:
        outcome.value = "split"
        for _ in range(2):
            with tele.timed("index_batch"):
                pass
    with app.start_as_current_span("request"), tele.timed("recall"):
        pass
    by_name: dict[str, list[Any]] = {}
    for s in spans.get_finished_spans():
        by_name.setdefault(s.name, []).append(s)
    split = next(s for s in by_name[INDEX_SPAN] if s.attributes["chatmem.outcome"] == "split")
    assert split.parent is None
    parts = [s for s in by_name[INDEX_SPAN] if s is not split]
    assert [s.parent.span_id for s in parts] == [split.context.span_id] * 2
    # a recall is part of its caller's work
    assert by_name[RECALL_SPAN][0].parent.span_id == by_name["request"][1].context.span_id


def test_an_owner_key_reads_its_own_namespaces_series_and_the_token_every_one(
        tmp_path: Path) -> None:
    """Two tenants on one server: a key of one read the other's message counts, recall
    and indexing series by namespace name; now an owner key reads only its own
    namespace's (and the process-wide series), while the metrics token reads them all.
    A user key reads none (test_stats_and_metrics_are_refused_to_a_user_key)."""
    with two_tenants(tmp_path, "owner") as (_, base), client(base, KEY) as alice, \
            client(base, BOB_KEY) as bob, client(base, TOKEN) as scraper:
        seen = {who: {ls["namespace"] for samples in scrape(c).values()
                      for ls, _ in samples if "namespace" in ls}
                for who, c in (("alice", alice), ("bob", bob), ("token", scraper))}
        assert seen == {"alice": {"alice"}, "bob": {"bob"}, "token": {"alice", "bob"}}
        assert "chatmem_http_requests_total" in scrape(alice)  # process-wide: kept
