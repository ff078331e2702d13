"""The lexical index (X1): tokenizer, FTS5 rows kept in step with vectors, filters, scores."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import numpy as np
import pytest

from backends import BACKENDS
from chatmem.models import (
    MAX_CONTENT_CHARS,
    PENDING_MODEL,
    IndexState,
    Message,
    VectorEntry,
    now_ms,
)
from chatmem.store import SqliteStore
from chatmem.store.base import Retry
from chatmem.store.bm25 import CHAR_WEIGHT, calibrate, ideal_score, idf, plan_query
from chatmem.store.sqlite.lexical import split_tokens, sqlite_query
from chatmem.store.sqlite.schema import SCHEMA_VERSION as SQLITE_SCHEMA
from chatmem.text import cjk_share, query_terms, tokenize

# ------------------------------------------------------------------ tokenizer


def test_cjk_runs_give_bigrams_then_unigrams() -> None:
    assert tokenize("报销单") == ["报销", "销单", "报", "销", "单"]
    assert tokenize("我") == ["我"]  # a one-character run: its unigram
    # punctuation splits runs; no bigram crosses it
    assert "早青" not in tokenize("各位早，青柠")


def test_mixed_chinese_and_english() -> None:
    toks = tokenize("我买了HyperX Cloud 2耳机，iPad Pro的密码是test2")
    for t in ("hyperx", "cloud", "ipad", "pro", "test2", "耳机", "密码", "买了"):
        assert t in toks
    assert "2耳" in toks  # a number followed by a CJK character also yields the pair
    terms, chars = split_tokens("青柠App 3.2")
    assert terms.split() == ["青柠", "app", "3.2"]
    assert chars.split() == ["青", "柠"]


def test_digits_dates_and_codes() -> None:
    toks = tokenize("3月27号上线，G2193次列车，版本3.2")
    for t in ("3", "3月", "27", "27号", "g2193", "3.2"):
        assert t in toks
    # a query "3月底" shares "3月" with "3月27号"
    assert "3月" in tokenize("3月底那次")


def test_latin_words_are_lowercased_and_lightly_normalised() -> None:
    assert tokenize("Alex's Flights were delayed at the Café") == [
        "alex", "flight", "delay", "cafe"]
    assert tokenize("ＡＢＣ１２３") == ["abc123"]  # full-width → ASCII (NFKC)
    assert tokenize("the and of") == []  # function words only
    assert tokenize("😂!!! …") == []


def test_documents_and_queries_share_the_tokenizer() -> None:
    doc = "Q1费用报销单下周三（3月18号）下午五点前交给我"
    shared = set(query_terms("报销单几号交？")) & set(tokenize(doc))
    assert shared == {"报销", "销单", "报", "销", "单", "号", "交"}
    assert query_terms("生日 生日 生日") == ["生日", "生", "日"]  # distinct, in order


def test_cjk_share() -> None:
    assert cjk_share("今天吃什么") == 1.0
    assert cjk_share("what to eat today") == 0.0
    assert cjk_share("12345") == 0.0
    assert 0 < cjk_share("我用iPad") < 1


def test_calibration_helpers() -> None:
    assert idf(100, 1) > idf(100, 10) > 0
    assert idf(10, 9) == pytest.approx(1e-6)  # in most documents: no weight (FTS5 rule)
    assert ideal_score("生", 100, 5) < ideal_score("生日", 100, 5)
    assert ideal_score("生", 100, 5) == pytest.approx(
        idf(100, 5) * CHAR_WEIGHT * 2.2 / (CHAR_WEIGHT + 1.2))
    assert calibrate(3.0, 2.0) == 1.0 and calibrate(1.0, 2.0) == 0.5
    assert calibrate(1.0, 0.0) == 0.0 and calibrate(-1.0, 1.0) == 0.0
    # terms the index never saw are left out; nothing left → no query
    assert plan_query(["x", "y"], {}, 10) is None
    kept, ideal = plan_query(["x", "y"], {"x": 1}, 10)  # type: ignore[misc]
    # only "x" is searched, but the ideal match holds "y" too
    assert kept == ["x"] and ideal == pytest.approx(idf(10, 1) + idf(10, 0))


# ------------------------------------------------------------------ store


def unit(seed: int, dim: int = 8) -> np.ndarray:
    v = np.random.default_rng(seed).normal(size=dim).astype(np.float32)
    return v / np.linalg.norm(v)


async def put(store: SqliteStore, session: str, texts: list[str], *, ts0: int = 1000,
              meta: dict[str, object] | None = None) -> list[Message]:
    stored = await store.append([Message(session_id=session, content=t, ts=ts0 + i)
                                 for i, t in enumerate(texts)])
    await store.upsert([entry(m, meta=meta) for m in stored])
    return stored


def entry(m: Message, *, text: str | None = None, meta: dict[str, object] | None = None,
          seed: int = 0) -> VectorEntry:
    assert m.id is not None and m.ts is not None
    return VectorEntry(message_id=m.id, session_id=m.session_id, ts=m.ts, role=m.role,
                       model_id="test:m", vector=unit(seed), session_metadata=meta or {},
                       text=m.content if text is None else text)


async def ids(store: SqliteStore, text: str, where: dict[str, object] | None = None
              ) -> list[str]:
    return [s.message_id for s in await store.lexical_query(text, 10, where)]


@pytest.fixture(params=["memory", "postgres"])
async def store(request, tmp_path):  # type: ignore[no-untyped-def]
    """Every store that keeps a lexical index (PostgreSQL skips without a server)."""
    async with BACKENDS[request.param](tmp_path) as (s, _):
        yield s


async def test_text_missing_from_the_entry_is_read_from_the_message(store: SqliteStore
                                                                  ) -> None:
    [m] = await store.append([Message(session_id="s", content="猫粮买了吗", speaker_name="小王")])
    e = entry(m)
    await store.upsert([VectorEntry(**{**e.__dict__, "text": None})])
    assert await ids(store, "猫粮") == [m.id]
    assert await ids(store, "小王") == [m.id]  # embedded text: the speaker prefix too


async def test_reupsert_replaces_the_text(store: SqliteStore) -> None:
    [m] = await put(store, "s", ["报价是五千"])
    # a rewrite re-indexes: delete by filter, then upsert the new entry
    await store.delete_by_filter({"session_id": "s", "ts": m.ts})
    await store.upsert([entry(m, text="报价改成六万八")])
    assert await ids(store, "六万八") == [m.id]
    assert await ids(store, "五千") == []
    # a plain re-upsert (replay) never duplicates
    await store.upsert([entry(m, text="报价改成六万八")])
    assert await ids(store, "报价") == [m.id]


async def test_deletes_and_clears_follow_the_vectors(store: SqliteStore) -> None:
    a, b = await put(store, "s1", ["苹果手机", "苹果电脑"])
    c, d = await put(store, "s2", ["苹果派", "苹果汁"])
    assert len(await ids(store, "苹果")) == 4
    assert await store.delete_vectors([a.id]) == 1  # type: ignore[list-item]
    assert a.id not in await ids(store, "苹果")
    await store.delete_by_filter({"message_id": b.id})
    assert set(await ids(store, "苹果")) == {c.id, d.id}
    assert await store.clear_vectors("s2") == 2
    assert await ids(store, "苹果") == []
    e, f = await put(store, "s3", ["苹果园", "苹果酱"])
    assert await store.delete_messages([e.id]) == 1  # type: ignore[list-item]
    assert await ids(store, "苹果") == [f.id]
    assert await store.clear_vectors() == 1
    assert await ids(store, "苹果") == []


async def test_indexable_messages_are_searchable_before_their_vector(store: SqliteStore
                                                                      ) -> None:
    """A message waiting for its vector is found, marked PENDING_MODEL; stored-only
    messages (tool output) never are."""
    _, waiting = await store.append([
        Message(session_id="s", content="工具输出的苹果", role="tool"),
        Message(session_id="s", content="还没索引的苹果")])
    [hit] = await store.lexical_query("苹果", 10)
    assert (hit.message_id, hit.model_id) == (waiting.id, PENDING_MODEL)


async def test_scores_are_calibrated(store: SqliteStore) -> None:
    await put(store, "s", ["今天天气不错", "明天有雨", "周末去爬山吧", "青柠App 3.2 提测",
                           "晚饭吃火锅"])
    [full] = await store.lexical_query("青柠App 3.2 提测", 1)
    assert full.score > 0.9
    weak = await store.lexical_query("今天吃什么呀", 5)
    assert weak and all(0 < h.score < 0.5 for h in weak)


async def test_sqlite_rows_are_rebuilt_for_an_old_store(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "old.db"
    store = await SqliteStore.open(path)
    [m] = await put(store, "s", ["旧库里的消息"])
    # what a store written before the lexical index looks like
    store.conn.execute("DELETE FROM lexical")
    store.conn.execute("DELETE FROM meta WHERE namespace='chatmem.lexical'")
    await store.close()
    store = await SqliteStore.open(path)
    try:
        assert await ids(store, "旧库") == [m.id]
    finally:
        await store.close()


async def test_postgres_rows_are_rebuilt_for_an_old_store(tmp_path) -> None:  # type: ignore[no-untyped-def]
    async with BACKENDS["postgres"](tmp_path) as (store, _):
        [m] = await put(store, "s", ["旧库里的消息"])
        # what a store written before the lexical columns (or by another tokenizer) holds
        async with store._tx() as conn:
            await conn.execute("UPDATE vectors SET lex = NULL, lex_len = NULL")
            await conn.execute("DELETE FROM meta WHERE namespace = 'chatmem.lexical'")
        assert await ids(store, "旧库") == []
        again = type(store)(store._conninfo, schema=store.schema)
        await again._open()
        try:
            assert await ids(again, "旧库") == [m.id]
        finally:
            await again.close()


#: A message past PostgreSQL's 16383 tsvector positions whose last words repeat, one
#: repeating a word past its 256 positions, and short ones to rank them against.
_LONG_DOCS = [" ".join(f"w{i}" for i in range(17_000)) + " tail" * 5,
              "tail of a short one", "spam " * 300 + "ham", "spam ham eggs", "ham eggs"]


async def _lexical_answers(store: SqliteStore, queries: list[str]
                           ) -> dict[str, list[tuple[str, float]]]:
    msgs = await store.append([Message(id=f"m{i}", session_id="s", content=t, ts=i + 1)
                               for i, t in enumerate(_LONG_DOCS)])
    await store.upsert([entry(m, seed=i) for i, m in enumerate(msgs)])
    return {q: [(h.message_id, h.score) for h in await store.lexical_query(q, 5)]
            for q in queries}


async def test_sqlite_and_postgres_count_terms_of_long_messages_alike(tmp_path
                                                                     ) -> None:  # type: ignore[no-untyped-def]
    """A term's count is the same on both backends: PostgreSQL's tsvector positions stop
    at 16383 (a word repeated past them counted once) and keep 256 per word."""
    queries = ["tail", "spam ham", "spam eggs w5"]
    async with BACKENDS["memory"](tmp_path) as (lite, _):
        want = await _lexical_answers(lite, queries)
    async with BACKENDS["postgres"](tmp_path) as (pg, _):
        got = await _lexical_answers(pg, queries)
    assert got == want
    assert want["tail"][1][1] > 0.5  # the long message's five tails all count


async def test_postgres_stores_a_long_cjk_message(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """A message at the content limit fits a tsvector: each word once (its repeats as
    positions), and past PostgreSQL's 1 MB of distinct words, those that fit."""
    para = "我们明天上午九点在公司门口集合，然后一起坐大巴去郊区的农场摘草莓，中午在农家乐吃饭。"
    story = (para * (MAX_CONTENT_CHARS // len(para) + 1))[:MAX_CONTENT_CHARS]
    rng = np.random.default_rng(0)
    noise = "".join(map(chr, rng.integers(0x4E00, 0x9FFF, MAX_CONTENT_CHARS)))
    async with BACKENDS["postgres"](tmp_path) as (store, _):
        a, b = await store.append([Message(id="story", session_id="s", content=story),
                                   Message(id="noise", session_id="s", content=noise)])
        assert await ids(store, "草莓") == ["story"]
        assert await ids(store, noise[100:104]) == ["noise"]
        await store.upsert([entry(a), entry(b)])
        assert await ids(store, "郊区农场") == ["story"]


async def test_postgres_rows_of_the_old_lexeme_layout_are_rewritten(tmp_path
                                                                    ) -> None:  # type: ignore[no-untyped-def]
    async with BACKENDS["memory"](tmp_path) as (lite, _):
        want = await _lexical_answers(lite, ["tail"])
    async with BACKENDS["postgres"](tmp_path) as (store, _):
        await _lexical_answers(store, [])
        # as the first layout wrote them: each token at its position, capped at 16383
        async with store._tx() as conn:
            cur = await conn.execute("SELECT message_id, text FROM vectors")
            for mid, text in await cur.fetchall():
                old = " ".join(f"'{t}':{min(i, 16383)}"
                               for i, t in enumerate(tokenize(text), 1))
                await conn.execute("UPDATE vectors SET lex = %s::tsvector WHERE "
                                   "message_id = %s", [old, mid])
            await conn.execute("DELETE FROM meta WHERE namespace = 'chatmem.lexical' AND "
                               "key = 'lexemes'")
        assert await store.lexical_query("tail", 5) != want["tail"]
        again = type(store)(store._conninfo, schema=store.schema)
        await again._open()
        try:
            hits = await again.lexical_query("tail", 5)
            assert [(h.message_id, h.score) for h in hits] == want["tail"]
        finally:
            await again.close()


# ------------------------------------------------------------------ entries without a vector


async def test_the_fast_filter_path_agrees_with_sql_on_pending_entries(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """SQLite answers recall's common filter shapes from in-memory columns, pending
    entries (and a separate index's) included; wrapped in ``$and`` the same filter goes
    through SQL. Both must agree, after every kind of change and after a reopen."""
    path = tmp_path / "fast.db"
    store = await SqliteStore.open(path)
    wheres: list[dict[str, object]] = [
        {"session_id": "s1"}, {"session_id": {"$in": ["s1", "s2"]}}, {"role": "assistant"},
        {"model_id": PENDING_MODEL}, {"model_id": "test:m", "session_id": "s1"},
        {"session_id": "nobody"}]

    async def agree() -> None:
        for where in wheres:
            assert store._fast_rowids(where) is not None, where
            fast = await store.lexical_query("桌游 周末", 10, where)
            slow = await store.lexical_query("桌游 周末", 10, {"$and": [where]})
            assert fast == slow, where

    try:
        await put(store, "s1", ["周末去玩桌游", "桌游店关门了"])
        a, b, c = await store.append([
            Message(session_id="s1", content="桌游规则很难", role="assistant"),
            Message(session_id="s2", content="周末桌游局", ts=5),
            Message(session_id="s3", content="周末下雨")])
        assert len(await store.lexical_query("桌游", 10, {"model_id": PENDING_MODEL})) == 2
        await agree()
        await store.upsert([entry(a)])  # the pending entry becomes the indexed one
        await store.rewrite("s2", 5, content="桌游改到周日")
        await agree()
        await store.set_index_state([b.id], IndexState.CLEARED)  # type: ignore[list-item]
        await store.delete_messages([c.id])  # type: ignore[list-item]
        await agree()
        await store.set_index_state([b.id], IndexState.PENDING)  # type: ignore[list-item]
        await store.clear_vectors()
        await agree()
        await store.close()
        store = await SqliteStore.open(path)
        await agree()
        await store.clear_messages("s2")
        await agree()
    finally:
        await store.close()


async def test_tied_hits_keep_the_newest_then_smallest_ids_with_entry_fields(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Many documents tie on score (a text said again and again): the k kept are the
    newest, those of one time with the smallest message ids (as dense search and the
    recall pool break ties), whether their fields come from the in-memory vector
    columns (indexed) or from the tables (pending), and they equal what the tables say."""
    store = await SqliteStore.open(tmp_path / "ties.db")
    try:
        said = await store.append([  # three sessions: three messages at each time
            Message(session_id=f"s{i % 3}", content="the zephyr kite is red", ts=100 + i // 3,
                    role="user" if i % 2 else "assistant") for i in range(40)])
        await store.append([Message(session_id="s9", content=f"a zephyr {i} went by", ts=i)
                            for i in range(100)])  # they hold one of the words, score less
        await store.upsert([entry(m) for m in said[::2]])  # half indexed, half pending
        by_id = {m.id: m for m in said}
        for k in (1, 7, 25, 40):
            hits = await store.lexical_query("zephyr kite red", k)
            assert [h.message_id for h in hits] == [
                m.id for m in sorted(said, key=lambda m: (-(m.ts or 0), m.id))][:k]
            assert len({h.score for h in hits}) == 1
            for h in hits:
                m = by_id[h.message_id]
                indexed = said.index(m) % 2 == 0
                assert (h.session_id, h.ts, h.role, h.model_id) == (
                    m.session_id, m.ts, m.role, "test:m" if indexed else PENDING_MODEL)
            postings = await store._lexical_index()
            from_tables = await store._run(lambda k=k, p=postings: sqlite_query(
                store.conn, p, "zephyr kite red", k))  # no in-memory columns
            assert from_tables == hits
    finally:
        await store.close()


async def test_an_old_sqlite_store_gets_retry_columns_and_pending_entries(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "v2.db"
    store = await SqliteStore.open(path)
    waiting, indexed = await store.append([Message(session_id="s", content="待索引的旧消息", ts=1),
                                           Message(session_id="s", content="已索引的旧消息", ts=2)])
    await store.upsert([entry(indexed)])
    await store.set_index_state([waiting.id], IndexState.FAILED)  # type: ignore[list-item]
    await store.close()
    # what chatmem wrote before schema 3 (and before files were marked): no retry
    # columns, no pending full-text entries
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA application_id=0")
    for index in ("messages_retry", "messages_pending", "lexical_entries_pending",
                  "messages_time", "messages_speaker"):
        conn.execute(f"DROP INDEX {index}")
    conn.execute("DELETE FROM lexical WHERE rowid IN (SELECT mrowid FROM lexical_entries)")
    conn.execute("DELETE FROM lexical_entries")
    for column in ("retry_at", "attempts"):
        conn.execute(f"ALTER TABLE messages DROP COLUMN {column}")
    conn.execute("PRAGMA user_version=2")
    conn.commit()
    conn.close()
    store = await SqliteStore.open(path, create=False)
    try:
        await old_store_is_current(store, waiting, indexed)
        assert store.conn.execute("PRAGMA user_version").fetchone()[0] == SQLITE_SCHEMA
        assert {r[0] for r in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE name IN "
            "('messages_time', 'messages_speaker')")} == {"messages_time", "messages_speaker"}
    finally:
        await store.close()


async def test_an_old_postgres_store_is_migrated_and_gets_pending_entries(tmp_path) -> None:  # type: ignore[no-untyped-def]
    async with BACKENDS["postgres"](tmp_path) as (store, _):
        waiting, indexed = await store.append([
            Message(session_id="s", content="待索引的旧消息", ts=1),
            Message(session_id="s", content="已索引的旧消息", ts=2)])
        await store.upsert([entry(indexed)])
        await store.set_index_state([waiting.id], IndexState.FAILED)
        async with store._tx() as conn:  # what a schema-3 store holds
            await conn.execute("DROP INDEX messages_retry, messages_pending, "
                               "lexical_entries_pending, messages_time, messages_speaker, "
                               "vectors_model_dim")
            await conn.execute("ALTER TABLE messages DROP COLUMN attempts, "
                               "DROP COLUMN retry_at, DROP COLUMN claim_owner, "
                               "DROP COLUMN claim_until")
            await conn.execute("DELETE FROM lexical_entries")
            await conn.execute("DELETE FROM chatmem_migrations WHERE version >= 4")
        assert await ids(store, "旧消息") == [indexed.id]
        async with store._tx() as conn:  # nor BM25's totals (migrations 8, 9)
            await conn.execute("DROP TABLE lexical_totals, lexical_totals_checked")
        again = type(store)(store._conninfo, schema=store.schema)
        await again._open()
        try:
            await old_store_is_current(again, waiting, indexed)
        finally:
            await again.close()


async def old_store_is_current(store: object, waiting: Message, indexed: Message) -> None:
    """An old store's waiting message is findable by full text (a pending entry) and due
    for a retry at once; its indexed message is as it was."""
    hits = await store.lexical_query("旧消息", 10)  # type: ignore[attr-defined]
    assert {h.message_id: h.model_id for h in hits} == {waiting.id: PENDING_MODEL,
                                                       indexed.id: "test:m"}
    assert await store.retries([waiting.id]) == {waiting.id: Retry()}  # type: ignore[attr-defined]
    due = await store.due_retries(10, now_ms())  # type: ignore[attr-defined]
    assert [m.id for m in due] == [waiting.id]


async def test_a_thousand_erases_one_at_a_time_leave_the_full_text_index_whole(
        tmp_path: Path) -> None:
    """SQLite 3.40's FTS5 fails the 1,001st ``optimize`` after a delete in one database
    ("database disk image is malformed"), and every write after it: erasing messages one
    at a time (``delete``, ``forget``, a retention sweep) broke a store after about 1,000
    erases. A rebuild every few hundred merges starts SQLite's count again."""
    from chatmem import Memory, Message
    from chatmem.embedding import Embedder
    from providers import RecordingProvider

    mem = await Memory.open(f"sqlite:///{tmp_path}/s.db",
                            embedder=Embedder(RecordingProvider()))
    try:
        ids = [f"m{i}" for i in range(2_000)]  # 1,100 messages did not break SQLite
        for start in (0, 1_000):
            await mem.add([{"id": ids[i], "session_id": f"s{i}", "ts": 1_000_000 + i,
                            "content": f"message number {i} about zebra {i % 97}"}
                           for i in range(start, start + 1_000)])
        await mem.flush(timeout=60)
        for message_id in ids[:1_050]:
            assert await mem.delete([message_id]) == 1
        await mem.add(Message(session_id="s0", content="zebra after the erases", ts=9))
        await mem.flush(timeout=60)
        hits = (await mem.recall("zebra", top_k=60)).hits
        assert {h.message.id for h in hits} <= set(ids[1_050:]) | {
            m.id for m in (await mem.list(session="s0")).messages}
        assert len(hits) == 60
        store = mem.store
        assert isinstance(store, SqliteStore)
        assert store.conn.execute(
            "INSERT INTO lexical(lexical, rank) VALUES ('integrity-check', 1)").fetchall() == []
    finally:
        await mem.close()


async def test_a_full_text_index_sqlite_broke_is_rebuilt_at_the_next_open(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """A store an older chatmem erased in ~1,000 times without rebuilds: SQLite 3.40
    left its FTS5 table unopenable ("vtable constructor failed", even for ``DROP`` and
    ``'rebuild'``), and every write of the store failed. The next open rebuilds it from
    the messages, with a warning; adds, erases and lexical search work again."""
    path = tmp_path / "broken.db"
    store = await SqliteStore.open(path)
    kept = await put(store, "s", [f"garden shed note number {i}" for i in range(1_100)])
    await store.close()
    raw = sqlite3.connect(path)
    rowids = [r[0] for r in raw.execute("SELECT rowid FROM lexical ORDER BY rowid")]
    try:  # what an older chatmem's merges after one-at-a-time erases did
        for rowid in rowids[:1_050]:
            raw.execute("DELETE FROM lexical WHERE rowid=?", (rowid,))
            raw.execute("INSERT INTO lexical(lexical) VALUES ('optimize')")
            raw.commit()
    except sqlite3.DatabaseError:
        raw.rollback()
    else:  # a SQLite without the bug: the same broken state, made by hand
        raw.execute("UPDATE lexical_data SET block=x'ffffffffffffffff' WHERE id=10")
        raw.commit()
    raw.close()
    probe = sqlite3.connect(path)
    with pytest.raises(sqlite3.DatabaseError, match="vtable constructor failed"):
        probe.execute("SELECT rowid FROM lexical LIMIT 0")
    probe.close()

    store = await SqliteStore.open(path)
    try:
        found = await store.lexical_query("garden shed", 2_000)
        assert sorted(h.message_id for h in found) == sorted(str(m.id) for m in kept)
        [new] = await put(store, "s", ["kumquat after the repair"])
        assert await ids(store, "kumquat") == [new.id]
        assert (await store.erase_messages([str(kept[0].id)])).lexical == 1
        assert store.conn.execute(
            "INSERT INTO lexical(lexical, rank) VALUES ('integrity-check', 1)").fetchall() == []
        assert "full-text index cannot be opened" in caplog.text
    finally:
        await store.close()
