"""The in-memory BM25 index (X1, P3): exact against a brute-force BM25 and against
SQLite FTS5's own ``bm25()`` on a real store, through writes, deletes and merges."""

from __future__ import annotations

import math
from collections import Counter
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chatmem.models import Message, VectorEntry
from chatmem.store import SqliteStore
from chatmem.store.bm25 import BM25_B, BM25_K1, CHAR_WEIGHT, calibrate, plan_query, term_weight
from chatmem.store.postings import Postings
from chatmem.store.where import compile_where
from chatmem.text import query_terms

VOCAB = ["alpha", "beta", "gamma", "delta", "eps", "报销", "销单", "报", "单", "3月"]


def brute_bm25(docs: dict[int, list[str]], terms: list[str]) -> dict[int, float]:
    """BM25 as FTS5 defines it, straight from the documents."""
    n = len(docs)
    avg = sum(len(d) for d in docs.values()) / n
    out: dict[int, float] = {}
    for rowid, toks in docs.items():
        counts = Counter(toks)
        score = 0.0
        for t in terms:
            df = sum(1 for d in docs.values() if t in d)
            if not counts[t]:
                continue
            idf = max(math.log((n - df + 0.5) / (df + 0.5)), 1e-6)
            f = counts[t] * term_weight(t)
            score += idf * f * (BM25_K1 + 1) / (
                f + BM25_K1 * (1 - BM25_B + BM25_B * len(toks) / avg))
        if score > 0:
            out[rowid] = score
    return out


ops = st.lists(st.one_of(
    st.tuples(st.just("put"), st.integers(1, 30),
              st.lists(st.sampled_from(VOCAB), min_size=0, max_size=8)),
    st.tuples(st.just("remove"), st.integers(1, 30), st.just([])),
    st.tuples(st.just("merge"), st.just(0), st.just([])),
    st.tuples(st.just("clear"), st.just(0), st.just([])),
), max_size=60)


@settings(max_examples=300, deadline=None)
@given(ops=ops, query=st.lists(st.sampled_from(VOCAB), min_size=1, max_size=4, unique=True),
       allowed=st.one_of(st.none(), st.sets(st.integers(0, 35))), load_first=st.booleans())
def test_matches_brute_force_bm25_through_any_writes(
        ops: list[tuple[str, int, list[str]]], query: list[str],
        allowed: set[int] | None, load_first: bool) -> None:
    docs: dict[int, list[str]] = {}
    p = Postings(merge_min=3)  # merges often
    if load_first:
        docs = {i: [VOCAB[i % len(VOCAB)], VOCAB[(i * 3) % len(VOCAB)]] for i in range(1, 6)}
        p.load(list(docs.items()))
    for op, rowid, toks in ops:
        if op == "put":
            p.put(rowid, toks)
            docs[rowid] = list(toks)
        elif op == "remove":
            p.remove(rowid)
            docs.pop(rowid, None)
        elif op == "merge":
            p.merge()
        else:
            p.clear()
            docs = {}
    assert p.n_docs == len(docs)
    assert p.doc_freqs(query) == {t: n for t in query
                                  if (n := sum(1 for d in docs.values() if t in d))}
    want = brute_bm25(docs, query) if docs else {}
    if allowed is not None:
        want = {r: s for r, s in want.items() if r in allowed}
    arr = None if allowed is None else np.asarray(sorted(allowed), dtype=np.int64)
    got = dict(p.top_k(query, 1000, arr))
    assert got.keys() == want.keys()
    for r, s in want.items():
        assert got[r] == pytest.approx(s, rel=1e-9, abs=1e-12)


def brute_top_k(docs: dict[int, list[str]], terms: list[str], k: int,
                allowed: set[int] | None) -> list[tuple[int, float]]:
    """The top ``k`` and every tie with the k-th, by (score desc, rowid), scored as
    :func:`brute_bm25` does (terms summed in query order: equal to the last bit)."""
    if not docs:
        return []
    n = len(docs)
    avg = sum(len(d) for d in docs.values()) / n
    df = {t: sum(1 for d in docs.values() if t in d) for t in terms}
    ranked = []
    for rowid, toks in docs.items():
        if allowed is not None and rowid not in allowed:
            continue
        counts = Counter(toks)
        score = 0.0
        for t in terms:
            if counts[t]:
                idf = max(math.log((n - df[t] + 0.5) / (df[t] + 0.5)), 1e-6)
                f = counts[t] * term_weight(t)
                score += idf * f * (BM25_K1 + 1) / (
                    f + BM25_K1 * (1 - BM25_B + BM25_B * len(toks) / avg))
        if score > 0:
            ranked.append((rowid, score))
    ranked.sort(key=lambda h: (-h[1], h[0]))
    if len(ranked) > k:
        ranked = [h for h in ranked if h[1] >= ranked[k - 1][1]]
    return ranked


#: Zipf-like vocabulary: a few words in most documents, many in a handful; CJK
#: unigrams (weight 0.5) and bigrams among them.
ZIPF_VOCAB = [f"w{i}" for i in range(150)] + list("报销单财务截止青柠版本上线") + [
    "报销", "销单", "财务", "截止", "版本", "上线"]


@pytest.mark.parametrize("seed", range(8))
def test_pruned_top_k_is_the_brute_force_top_k(seed: int) -> None:
    """MaxScore skips documents by upper bounds; it must never change the answer.
    Common and rare terms, duplicate documents (ties), rewrites, deletes, merges,
    Chinese terms, filters broad and narrow: the same (rowid, score) set, to the bit."""
    rng = np.random.default_rng(seed)
    weights = 1.0 / np.arange(1, len(ZIPF_VOCAB) + 1) ** 1.1
    weights /= weights.sum()

    def doc() -> list[str]:
        n = int(rng.integers(1, 25))
        return [ZIPF_VOCAB[i] for i in rng.choice(len(ZIPF_VOCAB), n, p=weights)]

    docs: dict[int, list[str]] = {}
    p = Postings(merge_min=int(rng.integers(50, 400)))
    initial = {r: doc() for r in range(1, 400)}
    for r in range(400, 600):  # copies: tied scores
        initial[r] = list(initial[int(rng.integers(1, 400))])
    p.load(list(initial.items()))
    docs.update(initial)
    for step in range(6):
        for _ in range(150):
            r = int(rng.integers(1, 900))
            if rng.random() < 0.2:
                p.remove(r)
                docs.pop(r, None)
            else:
                toks = doc() if rng.random() < 0.7 or not docs else list(
                    docs[int(rng.choice(list(docs)))])
                p.put(r, toks)
                docs[r] = toks
        if step == 3:
            p.merge()
        rowids = sorted(docs)
        for _ in range(12):
            n_terms = int(rng.integers(1, 9))
            terms = list(dict.fromkeys(
                [ZIPF_VOCAB[i] for i in rng.choice(len(ZIPF_VOCAB), n_terms, p=weights)]
                + ["absent"] * int(rng.random() < 0.2)))
            k = int(rng.choice([1, 2, 5, 10, 20]))
            for allowed in (None, set(rng.choice(rowids, len(rowids) // 2).tolist()),
                            set(rng.choice(rowids, 4).tolist()), set()):
                arr = None if allowed is None else np.asarray(sorted(allowed), dtype=np.int64)
                got = p.top_k(terms, k, arr)
                assert [s for _, s in got] == sorted((s for _, s in got), reverse=True)
                assert sorted(got, key=lambda h: (-h[1], h[0])) == brute_top_k(
                    docs, terms, k, allowed), (seed, step, terms, k)


def test_top_k_keeps_every_tie_with_the_kth() -> None:
    p = Postings()
    p.load([(1, ["a"]), (2, ["a"]), (3, ["a"]), (4, ["b"]), (5, ["b", "b"])])
    hits = p.top_k(["a"], 1)
    assert sorted(r for r, _ in hits) == [1, 2, 3]


def test_a_rewritten_document_is_counted_once() -> None:
    p = Postings()
    p.put(7, ["a", "b"])
    p.put(7, ["a"])
    assert p.n_docs == 1 and p.doc_freqs(["a", "b"]) == {"a": 1}
    p.merge()
    assert p.n_slots == 1 and [r for r, _ in p.top_k(["a"], 5)] == [7]


# --------------------------------------------------------- against FTS5 on a real store

def fts5_reference(store: SqliteStore, text: str, k: int,
                   where: dict[str, Any] | None = None) -> list[tuple[str, float]]:
    """The same query answered by FTS5's ``bm25()`` over the store's token rows."""
    conn = store.conn
    sql, params = compile_where(where) if where else ("1", [])
    terms = query_terms(text)
    n = conn.execute("SELECT count(*) FROM lexical_docsize").fetchone()[0]
    df = {r[0]: r[1] for r in conn.execute(
        f"SELECT term, doc FROM lexical_vocab WHERE term IN ({','.join('?' * len(terms))})",
        terms)}
    plan = plan_query(terms, df, n)
    if plan is None:
        return []
    kept, ideal = plan
    rows = conn.execute(
        f"SELECT v.message_id, bm25(lexical, 1.0, {CHAR_WEIGHT}) AS r FROM lexical "
        f"JOIN vectors v ON v.mrowid = lexical.rowid WHERE lexical MATCH ? AND ({sql}) "
        "ORDER BY r, v.ts DESC, v.message_id LIMIT ?",  # ties: newer first, then id
        (" OR ".join(f'"{t}"' for t in kept), *params, k)).fetchall()
    return [(mid, calibrate(-r, ideal)) for mid, r in rows]


TEXTS = [
    "Caroline went to the LGBTQ support group yesterday",
    "Melanie painted a sunrise over the lake",
    "we are going camping in June, Melanie said",
    "报销单三月底前交给财务，3月27号截止",
    "青柠App 3.2 版本的报账单功能上线了",
    "the support group meets every Tuesday",
    "Caroline: I researched adoption agencies",
    "camping camping camping at the lake",
]


@pytest.mark.parametrize("build_early", [True, False])
async def test_store_answers_as_fts5_does_after_writes(tmp_path, build_early: bool
                                                       ) -> None:  # type: ignore[no-untyped-def]
    store = await SqliteStore.open(tmp_path / "m.db")
    try:
        queries = ["support group Caroline", "camping lake", "报账单 3月", "sunrise painting",
                   "adoption"]
        if build_early:  # postings exist before the writes: the incremental path is used
            assert await store.lexical_query("anything", 5) == []
        rng = np.random.default_rng(3)
        msgs = await store.append([
            Message(session_id=f"s{i % 3}", content=TEXTS[i % len(TEXTS)] + f" n{i}", ts=i)
            for i in range(60)])

        async def index(ms: list[Message], texts: list[str]) -> None:
            await store.upsert([VectorEntry(m.id, m.session_id, m.ts, "user", "m",  # type: ignore[arg-type]
                                            rng.normal(size=4).astype(np.float32), text=t)
                                for m, t in zip(ms, texts)])

        await index(msgs, [m.content for m in msgs])
        await store.delete_vectors([m.id for m in msgs[:5]])  # type: ignore[misc]
        await index(msgs[10:15], ["camping by the lake with Caroline"] * 5)  # re-upsert
        await store.clear_vectors("s2")
        await store.delete_messages([msgs[20].id])  # type: ignore[list-item]
        filters: list[dict[str, Any] | None] = [
            None, {"session_id": "s1"}, {"session_id": {"$in": ["s0", "s1"]}},
            {"ts": {"$gte": 30}}, {"$or": [{"session_id": "s0"}, {"ts": {"$lt": 12}}]}]
        for q in queries:
            for where in filters:  # the in-memory shapes and the SQL path alike
                got = [(s.message_id, s.score) for s in await store.lexical_query(q, 8, where)]
                want = fts5_reference(store, q, 8, where)
                assert [m for m, _ in got] == [m for m, _ in want], (q, where)
                assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-9)
        # a fresh open loads the same index from the stored rows
        await store.close()
        store = await SqliteStore.open(tmp_path / "m.db")
        for q in queries:
            got = [s.message_id for s in await store.lexical_query(q, 8)]
            assert got == [m for m, _ in fts5_reference(store, q, 8)], q
    finally:
        await store.close()


async def test_a_rolled_back_write_leaves_the_index_alone(tmp_path) -> None:  # type: ignore[no-untyped-def]
    store = await SqliteStore.open(tmp_path / "m.db")
    try:
        [m] = await store.append([Message(session_id="s", content="orchid garden", ts=1)])
        await store.upsert([VectorEntry(m.id, "s", 1, "user", "m",  # type: ignore[arg-type]
                                        np.ones(4, np.float32), text=m.content)])
        assert [h.message_id for h in await store.lexical_query("orchid", 3)] == [m.id]

        def failing() -> None:
            with store._tx():
                store._lex_drop([1])
                raise RuntimeError("boom")

        with pytest.raises(RuntimeError):
            await store._run(failing)
        assert [h.message_id for h in await store.lexical_query("orchid", 3)] == [m.id]
    finally:
        await store.close()


async def test_a_sql_filter_keeping_only_weak_matches_widens_until_k_pass(tmp_path
                                                                          ) -> None:  # type: ignore[no-untyped-def]
    store = await SqliteStore.open(tmp_path / "m.db")
    try:
        # the 550 oldest messages say "camping" more often, so they outrank the rest
        msgs = await store.append([
            Message(session_id="s", content="camping " * (2 if i < 550 else 1) + f"x{i}", ts=i)
            for i in range(600)])
        await store.upsert([VectorEntry(m.id, "s", m.ts, "user", "m",  # type: ignore[arg-type]
                                        np.ones(4, np.float32), text=m.content) for m in msgs])
        where = {"ts": {"$gte": 550}}  # not an in-memory shape: the SQL path
        got = [h.message_id for h in await store.lexical_query("camping", 5, where)]
        assert got == [m for m, _ in fts5_reference(store, "camping", 5, where)]
        assert len(got) == 5 and all(int(m.ts) >= 550 for m in msgs if m.id in got)  # type: ignore[arg-type]
    finally:
        await store.close()


async def test_writes_during_the_load_are_replayed_onto_the_loaded_index(tmp_path
                                                                         ) -> None:  # type: ignore[no-untyped-def]
    """The load reads a snapshot on another thread while the store keeps writing: the
    steps of :meth:`SqliteStore._load_postings`, run by hand so that writes land both
    before the snapshot (in it and in the backlog) and after it (backlog only)."""
    import asyncio

    store = await SqliteStore.open(tmp_path / "m.db")
    try:
        rng = np.random.default_rng(5)
        msgs = await store.append([Message(session_id=f"s{i % 2}", content=TEXTS[i % 8],
                                           ts=i) for i in range(40)])

        async def index(ms: list[Message], text: str | None = None) -> None:
            await store.upsert([VectorEntry(m.id, m.session_id, m.ts, "user", "m",  # type: ignore[arg-type]
                                            rng.normal(size=4).astype(np.float32),
                                            text=text or m.content) for m in ms])

        await index(msgs[:20])
        await store._run(store._begin_backlog)
        await index(msgs[20:30])  # before the snapshot: read by the load and replayed
        loaded = await asyncio.get_running_loop().run_in_executor(None, store._read_postings)
        await index(msgs[30:40])  # after it: only in the backlog
        await index(msgs[:3], "camping by the lake with Caroline")  # rewritten text
        await store.delete_vectors([m.id for m in msgs[5:8]])  # type: ignore[misc]
        await store._run(store._finish_load, loaded)
        assert store._postings is loaded and store._lex_backlog is None
        for q in ["support group Caroline", "camping lake", "报账单 3月", "adoption"]:
            got = [(s.message_id, s.score) for s in await store.lexical_query(q, 10)]
            want = fts5_reference(store, q, 10)
            assert [m for m, _ in got] == [m for m, _ in want], q
            assert [s for _, s in got] == pytest.approx([s for _, s in want], rel=1e-9)
    finally:
        await store.close()


async def test_concurrent_first_queries_share_one_load(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import asyncio

    store = await SqliteStore.open(tmp_path / "m.db")
    try:
        msgs = await store.append([Message(session_id="s", content=t, ts=i)
                                   for i, t in enumerate(TEXTS)])
        await store.upsert([VectorEntry(m.id, "s", m.ts, "user", "m",  # type: ignore[arg-type]
                                        np.ones(4, np.float32), text=m.content) for m in msgs])
        results = await asyncio.gather(*(store.lexical_query("camping", 3) for _ in range(5)))
        assert all(r == results[0] for r in results) and results[0]
        assert store._postings is not None and store._postings_load is not None
    finally:
        await store.close()


def test_a_load_cancelled_as_its_loop_ends_keeps_no_backlog_and_loads_again(tmp_path
                                                                            ) -> None:  # type: ignore[no-untyped-def]
    """The first lexical query loads the index in a task of the caller's loop; a caller
    cancelled meanwhile leaves it running (shielded), but the loop ending (``asyncio.run``
    returning, its tasks cancelled) cancels the load itself. The store, not bound to a
    loop, is used on from the next one: the load's backlog stayed, every later write
    appended to it (kept in memory until the next lexical query), and that query raised
    the ended load's CancelledError, though nobody had cancelled it."""
    import asyncio
    import threading
    from concurrent.futures import ThreadPoolExecutor

    def vectors(ms: list[Message]) -> list[VectorEntry]:
        return [VectorEntry(m.id, m.session_id, m.ts, "user", "m",  # type: ignore[arg-type]
                            np.ones(4, np.float32), text=m.content) for m in ms]

    store = asyncio.run(SqliteStore.open(tmp_path / "m.db"))
    try:
        async def load_until_the_loop_ends() -> list[Message]:
            msgs = await store.append([Message(session_id="s", content=t, ts=i)
                                       for i, t in enumerate(TEXTS)])
            await store.upsert(vectors(msgs))
            # the load's read (on the loop's default executor) queued behind a held call
            loop = asyncio.get_running_loop()
            reader = ThreadPoolExecutor(max_workers=1)
            loop.set_default_executor(reader)
            release = threading.Event()
            held = loop.run_in_executor(None, release.wait, 20.0)
            query = asyncio.ensure_future(store.lexical_query("camping", 3))
            while not reader._work_queue.qsize():  # type: ignore[attr-defined]
                await asyncio.sleep(0.01)
            query.cancel()  # the caller gives up (a timeout): the load goes on
            with pytest.raises(asyncio.CancelledError):
                await query
            load = store._postings_load
            assert load is not None and not load.done() and store._lex_backlog == []
            load.add_done_callback(lambda _: release.set())  # the held call ends with it
            written = await store.append([Message(session_id="s", content="orchid one",
                                                  ts=100)])  # while the load reads
            await store.upsert(vectors(written))
            del held
            return written  # asyncio.run cancels the load

        during = asyncio.run(load_until_the_loop_ends())
        assert store._postings_load is not None and store._postings_load.cancelled()

        async def write_and_search() -> None:
            after = await store.append([Message(session_id="s", content=f"orchid {w}",
                                                ts=101 + i)
                                        for i, w in enumerate(["two", "three", "four"])])
            await store.upsert(vectors(after))
            assert store._lex_backlog is None  # no load runs: nothing kept for one
            got = {h.message_id for h in await store.lexical_query("orchid", 10)}
            assert got == {m.id for m in during + after}
            assert {h.message_id for h in await store.lexical_query("camping", 10)} \
                == {h[0] for h in fts5_reference(store, "camping", 10)}

        asyncio.run(write_and_search())
    finally:
        asyncio.run(store.close())
