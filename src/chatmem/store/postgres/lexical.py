"""The PostgreSQL store's full-text columns (X1): tsvectors ranked by the shared BM25.

The same tokens as SQLite's (:func:`chatmem.text.tokenize`), stored as a
``tsvector`` built from a literal (no text search configuration parses them
again: ``3.2`` or ``青柠`` stay single lexemes), with a GIN index, and ranked by
the same BM25 as SQLite's FTS5 (:mod:`chatmem.store.bm25`; IDF over the rows
holding a ``tsvector``, term frequency from the positions, length normalisation
by ``lex_len`` = the number of tokens), so both backends give the same scores.
Functions take a psycopg ``AsyncConnection`` whose search_path is the store's.
"""

from __future__ import annotations

import hashlib
import logging
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...models import Message, ScoredId, VectorEntry, embedded_text
from ...text import TOKENIZER_VERSION, query_terms, tokenize
from ..base import LEXICAL_NAMESPACE
from ..bm25 import (
    BM25_B,
    BM25_K1,
    MAX_QUERY_TOKENS,
    MAX_TERM_COUNT,
    calibrate,
    idf,
    plan_query,
    term_weight,
)
from ..columns import entry_values, json_text, pg_upsert_sql

log = logging.getLogger("chatmem.store.postgres")
_META_NS = LEXICAL_NAMESPACE
_ENTRIES_UPSERT = pg_upsert_sql(
    "lexical_entries", [("text", "%s"), ("lex", "%s::tsvector"), ("lex_len", "%s")])


def _message_text(row: Sequence[Any]) -> str:
    """The embedded text (F1) of a row of :data:`_PG_MSG_COLS` (``seq`` first)."""
    return embedded_text(Message(session_id=row[1], role=row[2], content=row[3],
                                 visible_content=row[4], speaker_name=row[5]))


#: Migration 2 of :mod:`chatmem.store.postgres`.
PG_MIGRATION: list[str] = [
    "ALTER TABLE vectors ADD COLUMN lex tsvector",
    "ALTER TABLE vectors ADD COLUMN lex_len integer",
    "CREATE INDEX vectors_lex ON vectors USING gin (lex)",
    """CREATE TABLE lexical_entries (
        message_id text COLLATE "C" PRIMARY KEY,
        session_id text NOT NULL,
        ts bigint NOT NULL,
        role text,
        model_id text,
        platform text,
        origin_platform text,
        speaker_id text,
        mentions jsonb NOT NULL DEFAULT '[]',
        resource_id text,
        smeta jsonb NOT NULL DEFAULT '{}',
        mmeta jsonb NOT NULL DEFAULT '{}',
        text text,
        lex tsvector,
        lex_len integer
    )""",
    "CREATE INDEX lexical_entries_lex ON lexical_entries USING gin (lex)",
]
_PG_MSG_COLS = "seq, session_id, role, content, visible_content, speaker_name"
#: tsvector positions stop at 16383 (PostgreSQL's limit): rows written before
#: :data:`_PG_LEXEME_FORMAT` 2 with more tokens than this undercount their terms.
_PG_MAX_POS = 16383
#: A ``tsvector``'s most bytes of lexemes and positions (PostgreSQL's limit).
_PG_MAX_TSVECTOR = (1 << 20) - 1
#: How :func:`pg_lex` lays out a ``tsvector`` (meta key ``lexemes``). 1: each token at
#: its position in the text, so a term past position 16383 counted once however often it
#: came, and every token's lexeme written out again, so a long CJK message (some 120,000
#: characters and more) could not be stored ("string is too long for tsvector"). 2: each
#: lexeme once, with positions 1 to its term count.
_PG_LEXEME_FORMAT = "2"


#: A lexeme's most bytes in a ``tsvector`` or ``tsquery`` (PostgreSQL's limit).
_PG_MAX_LEXEME = 2047


def _pg_lexeme(token: str) -> str:
    """The lexeme that stands for ``token``: itself, or for a token over PostgreSQL's
    limit (a long URL, a base64 blob: its message could not be stored at all, 'word is
    too long') its start and a digest of the whole, unique as the token is. Documents
    and queries map alike, and ``#`` is never in a token, so BM25 scores are SQLite's."""
    raw = token.encode()
    if len(raw) <= _PG_MAX_LEXEME:
        return token
    digest = hashlib.sha256(raw).hexdigest()
    head = raw[:_PG_MAX_LEXEME - len(digest) - 1].decode("utf-8", "ignore")
    return f"{head}#{digest}"


def _pg_quote(token: str) -> str:
    """``token``'s lexeme as a ``tsvector`` / ``tsquery`` literal."""
    return _pg_quote_lexeme(_pg_lexeme(token))


def _pg_quote_lexeme(lexeme: str) -> str:
    return "'" + lexeme.replace("\\", "\\\\").replace("'", "''") + "'"


def pg_lex(text: str) -> tuple[str, int]:
    """A ``tsvector`` literal of the tokens of ``text`` and their count.

    BM25 reads only a term's count in a document, its number of positions, so each
    lexeme is written once with positions 1 to that count (at most
    :data:`~chatmem.store.bm25.MAX_TERM_COUNT`, PostgreSQL's limit); the text's real
    positions stop at 16383 and would count a term past them once. A message whose
    distinct lexemes exceed PostgreSQL's 1 MB for a ``tsvector`` (only a long run of
    CJK characters in random order, each pair a new bigram, comes near) keeps those
    that fit, in order of first appearance, so that it can still be stored."""
    toks = tokenize(text)
    parts: list[str] = []
    size = 0
    for lexeme, count in Counter(_pg_lexeme(t) for t in toks).items():
        n = min(count, MAX_TERM_COUNT)
        raw = len(lexeme.encode())
        # as PostgreSQL counts it: the lexeme, padded to 2 bytes, a count, the positions
        size += raw + (raw & 1) + 2 + 2 * n
        if size > _PG_MAX_TSVECTOR:
            log.warning("a message's full text holds more distinct words than a "
                        "PostgreSQL tsvector can (1 MB); its first %d of %d are indexed",
                        len(parts), len(set(toks)))
            break
        parts.append(f"{_pg_quote_lexeme(lexeme)}:{','.join(map(str, range(1, n + 1)))}")
    return " ".join(parts), len(toks)


async def _pg_texts(conn: Any, items: Sequence[tuple[str, str | None]]) -> list[tuple[str, str]]:
    """(message id, text) pairs; a missing text is read from the message row."""
    missing = [mid for mid, text in items if text is None]
    found: dict[str, str] = {}
    if missing:
        cur = await conn.execute(
            f"SELECT id, {_PG_MSG_COLS} FROM messages WHERE id = ANY(%s::text[])", [missing])
        for r in await cur.fetchall():
            found[r[0]] = _message_text(r[1:])
    return [(mid, text if text is not None else found.get(mid, "")) for mid, text in items]


async def pg_lex_columns(conn: Any, items: Sequence[tuple[str, str | None]]
                         ) -> dict[str, tuple[str, int]]:
    """Message id -> the ``lex`` / ``lex_len`` values of its text (:func:`pg_lex`); a
    missing text is read from the message row. The upsert writes them with the row: set
    by a later ``UPDATE``, every vector was written twice, and since ``lex`` is indexed
    the second version went into every index again (no HOT update), HNSW's included."""
    return {mid: pg_lex(text) for mid, text in await _pg_texts(conn, items)}


async def pg_put_entries(conn: Any, entries: Sequence[VectorEntry]) -> None:
    """Lexical rows for entries whose vectors live in a separate index."""
    texts = dict(await _pg_texts(conn, [(e.message_id, e.text) for e in entries]))
    # locked as every writer of these messages locks them (in id order): the rows the
    # totals are booked against (pg_book_replacement) stay the ones this write replaces
    cur = await conn.execute('SELECT id FROM messages WHERE id = ANY(%s::text[]) '
                             'ORDER BY id COLLATE "C" FOR UPDATE',
                             [[e.message_id for e in entries]])
    alive = {r[0] for r in await cur.fetchall()}
    # deleted meanwhile: nothing to index
    await _put_entry_rows(conn, [(e, texts[e.message_id]) for e in entries
                                 if e.message_id in alive])


async def pg_put_pending(conn: Any, entries: Sequence[VectorEntry]) -> None:
    """The rows of pending entries (:func:`~chatmem.store.base.pending_entry`: their
    text is given, their messages are being written in this transaction)."""
    await _put_entry_rows(conn, [(e, e.text or "") for e in entries])


async def _put_entry_rows(conn: Any, items: Sequence[tuple[VectorEntry, str]]) -> None:
    rows = []
    lengths: dict[str, int | None] = {}  # the last row of an id is the one that stays
    for e, text in items:
        lex, n = pg_lex(text)
        rows.append((*entry_values(e, json_text), text, lex, n))
        lengths[e.message_id] = n
    if rows:
        await pg_book_replacement(conn, "lexical_entries", lengths)
        async with conn.cursor() as cur:
            await cur.executemany(_ENTRIES_UPSERT, rows)


async def pg_drop(conn: Any, message_ids: Sequence[str]) -> int:
    """Delete the separate-index lexical rows of these messages; returns how many."""
    n, _ = await pg_delete(conn, "lexical_entries", "message_id = ANY(%s::text[])",
                           [list(message_ids)])
    return n


async def pg_setup(conn: Any) -> None:
    """Fill the lexical columns of rows written before them, or by another tokenizer.

    Runs at open, after the migrations, inside the caller's transaction. Rows of an
    older :data:`_PG_LEXEME_FORMAT` are rewritten too where it counted their terms
    otherwise (more than 16383 tokens); their lengths stay, so the totals do."""
    cur = await conn.execute(
        "SELECT key, value FROM meta WHERE namespace = %s AND key IN ('tokenizer', "
        "'lexemes')", [_META_NS])
    marks = dict(await cur.fetchall())
    retokenize = marks.get("tokenizer") != str(TOKENIZER_VERSION)
    if not retokenize and marks.get("lexemes") == _PG_LEXEME_FORMAT:
        return
    # no writer of another process may add a row between the rewrite and the recount
    await conn.execute("LOCK TABLE vectors, lexical_entries IN SHARE MODE")
    for table in ("vectors", "lexical_entries"):
        which = "" if retokenize else f" WHERE lex_len > {_PG_MAX_POS}"
        cur = await conn.execute(f"SELECT message_id, text FROM {table}{which}")
        rows = await cur.fetchall()
        if not rows:
            continue
        fixed = []
        for mid, text in await _pg_texts(conn, [(r[0], r[1]) for r in rows]):
            lex, n = pg_lex(text)
            fixed.append((lex, n, mid))
        async with conn.cursor() as c:
            await c.executemany(
                f"UPDATE {table} SET lex = %s::tsvector, lex_len = %s WHERE message_id = %s",
                fixed)
    if retokenize:
        await pg_recount_totals(conn)
    async with conn.cursor() as c:
        await c.executemany(
            "INSERT INTO meta (namespace, key, value) VALUES (%s, %s, %s) "
            "ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
            [(_META_NS, "tokenizer", str(TOKENIZER_VERSION)),
             (_META_NS, "lexemes", _PG_LEXEME_FORMAT)])


# ------------------------------------------------------------------ BM25's corpus totals

#: Migration 8: the number of rows with a ``tsvector`` and their total length (BM25's
#: document count and mean length), kept as a ledger that every write appends its
#: change to, in the write's own transaction. Read by every full-text query.
#:
#: Why not count them: ``count(*)`` and ``avg(lex_len)`` over the rows, even as an
#: index-only scan of migration 6's indexes, read the heap for every page autovacuum
#: has not yet marked visible; right after a burst of writes that was 13 ms of an 18 ms
#: full-text query at 20,000 rows, growing with the store. Why a ledger and not one row
#: of totals: writers only ever insert into it, so they never wait for each other nor
#: deadlock on it (one shared row would be locked by each writing transaction until it
#: commits). :func:`pg_compact_totals` folds it back into one row now and then.
#: The migration locks both tables against writes while it counts the rows once.
PG_TOTALS_MIGRATION: list[str] = [
    """CREATE TABLE lexical_totals (
        id bigserial PRIMARY KEY,
        docs bigint NOT NULL,
        tokens bigint NOT NULL
    )""",
    "LOCK TABLE vectors, lexical_entries IN SHARE MODE",
    # PG_COUNT_SQL's count, spelled out: a released migration must not change with it
    "INSERT INTO lexical_totals (docs, tokens) SELECT count(*), coalesce(sum(lex_len), 0) "
    "FROM (SELECT lex_len FROM vectors WHERE lex IS NOT NULL UNION ALL SELECT lex_len "
    "FROM lexical_entries WHERE lex IS NOT NULL) AS rows",
    # the totals replace the scan these indexes served; each write no longer pays for them
    "DROP INDEX vectors_lex_len",
    "DROP INDEX lexical_entries_lex_len",
]
#: BM25's totals as the ledger holds them (the query side; tests).
PG_TOTALS_SQL = ("SELECT coalesce(sum(docs), 0), coalesce(sum(tokens), 0) "
                 "FROM lexical_totals")
#: What the ledger should hold, counted from the rows (tests; :func:`pg_recount_totals`).
PG_COUNT_SQL = ("SELECT count(*), coalesce(sum(lex_len), 0) FROM (SELECT lex_len FROM vectors "
                "WHERE lex IS NOT NULL UNION ALL SELECT lex_len FROM lexical_entries "
                "WHERE lex IS NOT NULL) AS rows")
#: Ledger rows between two compactions (a booking whose id is a multiple of it compacts).
_COMPACT_EVERY = 256


async def _booked(conn: Any, booking_id: int | None) -> None:
    if booking_id is not None and booking_id % _COMPACT_EVERY == 0:
        await pg_compact_totals(conn)


async def pg_compact_totals(conn: Any) -> None:
    """Fold the ledger into one row, inside the caller's transaction. Safe beside
    concurrent writers and compactions: a booking not yet committed is invisible to the
    ``DELETE`` and stays; one deleted by a concurrent compaction is skipped here."""
    await conn.execute(
        "WITH gone AS (DELETE FROM lexical_totals RETURNING docs, tokens) "
        "INSERT INTO lexical_totals (docs, tokens) SELECT sum(docs), sum(tokens) FROM gone "
        "HAVING count(*) > 0")


async def pg_recount_totals(conn: Any) -> None:
    """Replace the ledger by a count of the rows, both tables locked against writes until
    the caller's transaction ends (after a re-tokenization rewrote every row)."""
    # pg_setup holds this lock already (then a no-op); any other caller needs it here
    await conn.execute("LOCK TABLE vectors, lexical_entries IN SHARE MODE")
    await conn.execute("DELETE FROM lexical_totals")
    await conn.execute("INSERT INTO lexical_totals (docs, tokens) " + PG_COUNT_SQL)


#: Seconds between two checks of the ledger against a count of the rows (at open).
TOTALS_CHECK_S = 3600
#: Migration 9: when the ledger was last checked (one row; not in ``meta``, which is the
#: store's data and moves with an export).
PG_TOTALS_CHECK_MIGRATION: list[str] = [
    """CREATE TABLE lexical_totals_checked (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        at double precision NOT NULL
    )""",
]


async def pg_repair_totals(conn: Any, every_s: float = TOTALS_CHECK_S
                           ) -> tuple[int, int] | None:
    """Compare the ledger with a count of the rows and book the difference, if any;
    returns it (rows, tokens), or ``None`` when they agree or the last check is less
    than ``every_s`` seconds old (the database's clock; the count reads both tables, 26
    ms at 20,000 rows right after a burst of writes, so not at every open). Run at
    open, under the migration's lock: a process of an older chatmem still writing to
    the store after another opened it with migration 8 writes rows without booking
    them. One statement, so the count and the ledger are read in one snapshot: a write
    not yet committed is in neither."""
    due = await (await conn.execute(
        "INSERT INTO lexical_totals_checked (one, at) VALUES (true, extract(epoch FROM "
        "now())) ON CONFLICT (one) DO UPDATE SET at = excluded.at WHERE "
        "lexical_totals_checked.at <= extract(epoch FROM now()) - %s RETURNING 1",
        [every_s])).fetchone()
    if due is None:
        return None
    row = await (await conn.execute(
        f"WITH c(docs, tokens) AS ({PG_COUNT_SQL}), l(docs, tokens) AS ({PG_TOTALS_SQL}) "
        "INSERT INTO lexical_totals (docs, tokens) SELECT c.docs - l.docs, "
        "c.tokens - l.tokens FROM c, l WHERE c.docs <> l.docs OR c.tokens <> l.tokens "
        "RETURNING docs, tokens")).fetchone()
    return None if row is None else (int(row[0]), int(row[1]))


async def pg_book_replacement(conn: Any, table: str, lengths: Mapping[str, int | None]
                              ) -> None:
    """Book the rows of ``table`` about to be written (message id -> the new row's
    ``lex_len``, ``None`` for no ``tsvector``) against those they replace. Call it just
    before the write, in its transaction. The old rows are locked here, so they are the
    ones the write replaces: a concurrent delete waits and then deletes (and books) the
    new row; one that committed first leaves nothing to replace."""
    if not lengths:
        return
    docs = sum(1 for n in lengths.values() if n is not None)
    tokens = sum(n for n in lengths.values() if n is not None)
    row = await (await conn.execute(
        f"WITH old AS (SELECT lex_len FROM {table} WHERE message_id = ANY(%s::text[]) AND "
        'lex IS NOT NULL ORDER BY message_id COLLATE "C" FOR UPDATE) '
        "INSERT INTO lexical_totals (docs, tokens) SELECT %s - count(*), "
        "%s - coalesce(sum(lex_len), 0) FROM old HAVING count(*) <> %s OR "
        "coalesce(sum(lex_len), 0) <> %s RETURNING id",
        [list(lengths), docs, tokens, docs, tokens])).fetchone()
    await _booked(conn, row[0] if row else None)


async def pg_delete(conn: Any, table: str, where: str, params: Sequence[Any] = ()
                    ) -> tuple[int, int]:
    """``DELETE FROM table WHERE where``, its rows' full text booked off the totals in
    the same statement. Returns (rows deleted, of them rows that held a text)."""
    row = await (await conn.execute(
        f"WITH gone AS (DELETE FROM {table} WHERE {where} RETURNING lex IS NOT NULL AS "
        "counted, lex_len, text IS NOT NULL AS has_text), booked AS (INSERT INTO "
        "lexical_totals (docs, tokens) SELECT -count(*), -coalesce(sum(lex_len), 0) FROM "
        "gone WHERE counted HAVING count(*) > 0 RETURNING id) SELECT count(*), "
        "count(*) FILTER (WHERE has_text), (SELECT id FROM booked) FROM gone",
        list(params))).fetchone()
    await _booked(conn, row[2])
    return int(row[0]), int(row[1])


def _pg_tsquery(terms: Sequence[str]) -> str:
    return " | ".join(_pg_quote(t) for t in terms)


@dataclass(frozen=True)
class CorpusStats:
    """What BM25 reads from the whole corpus for one query: the number of rows with a
    ``tsvector``, their mean length, and each query term's document frequency."""

    n_docs: int
    avgdl: float
    df: Mapping[str, int]


async def pg_corpus_stats(conn: Any, terms: Sequence[str]) -> CorpusStats:
    """The corpus statistics of ``terms``: the totals from the ledger (:data:`PG_TOTALS_MIGRATION`,
    a sum over a few rows), each term's document frequency from the GIN indexes."""
    stats = await (await conn.execute(PG_TOTALS_SQL)).fetchone()
    n_docs, tokens = int(stats[0]), int(stats[1])
    avgdl = tokens / n_docs if n_docs > 0 else 0.0
    if n_docs == 0 or not terms:
        return CorpusStats(n_docs, avgdl, {})
    sql = ("SELECT q.t, (SELECT count(*) FROM vectors WHERE lex @@ q.t::tsquery) "
           "+ (SELECT count(*) FROM lexical_entries WHERE lex @@ q.t::tsquery) "
           "FROM unnest(%s::text[]) AS q(t)")
    quoted = [_pg_quote(t) for t in terms]
    if len(terms) <= MAX_QUERY_TOKENS:  # a question: no more round trips than it needs
        counts = await (await conn.execute(sql, [quoted])).fetchall()
    else:
        async with conn.transaction():
            # by the GIN indexes: on a small table (hundreds of rows) the planner read
            # every row's tsvector once per term instead, 1.5 ms a term on 300 messages of
            # 300 characters: 6 s for a Chinese query of 4,000 characters (28 ms by the
            # index; the same on larger tables). So many terms' estimated cost also had
            # the statement compiled (JIT), 0.2-0.4 s
            await conn.execute("SET LOCAL enable_seqscan = off; SET LOCAL jit = off")
            counts = await (await conn.execute(sql, [quoted])).fetchall()
    return CorpusStats(n_docs, avgdl, {t: int(n) for t, (_, n) in zip(terms, counts)})


async def pg_query(conn: Any, text: str, k: int, frag: str = "TRUE",
                   params: Sequence[Any] = (), stats: CorpusStats | None = None
                   ) -> tuple[list[ScoredId], CorpusStats | None]:
    """The ``k`` best BM25 matches of ``text`` among rows matching ``frag`` (SQL over the
    vector-entry columns, as for dense search); scores calibrated as with SQLite.

    ``stats``: the corpus statistics of ``text``'s terms to score with, instead of
    computing them (:func:`pg_corpus_stats`). Returned with the matches (``None`` when
    the query has no terms), so a caller can score a second query on the same scale.
    Exact ties break by newer ``ts``, then message id (code point order), as SQLite's."""
    terms = query_terms(text)
    if not terms or k <= 0:
        return [], None
    if stats is None:
        stats = await pg_corpus_stats(conn, terms)
    n_docs, avgdl, df = stats.n_docs, stats.avgdl, stats.df
    if n_docs == 0:
        return [], stats
    plan = plan_query(terms, df, n_docs)
    if plan is None:
        return [], stats
    kept, ideal = plan
    weights = [term_weight(t) for t in kept]
    idfs = [idf(n_docs, df[t]) for t in kept]
    score = (
        f"(SELECT coalesce(sum(q.idf * (f.tf * q.w) * {BM25_K1 + 1} / (f.tf * q.w + "
        f"{BM25_K1} * ({1 - BM25_B} + {BM25_B} * e.lex_len / c.avgdl))), 0) FROM (SELECT "
        "u.lexeme, coalesce(array_length(u.positions, 1), 1) AS tf FROM unnest(e.lex) AS u) "
        "AS f JOIN q ON q.term = f.lexeme)"
    )
    parts = [
        f"SELECT e.message_id, e.model_id, e.role, e.session_id, e.ts, {score} AS r "
        f"FROM {table} AS e, c WHERE e.lex @@ %s::tsquery AND ({frag})"
        for table in ("vectors", "lexical_entries")
    ]
    tsq = _pg_tsquery(kept)
    cur = await conn.execute(
        "WITH q(term, w, idf) AS (SELECT * FROM unnest(%s::text[], %s::float8[], "
        "%s::float8[])), c(avgdl) AS (SELECT %s::float8) "
        # message_id: both tables' columns are COLLATE "C" (code point order), and a
        # UNION may be ordered by its output columns only, not by a COLLATE expression
        + " UNION ALL ".join(parts) + " ORDER BY r DESC, ts DESC, message_id LIMIT %s",
        [[_pg_lexeme(t) for t in kept], weights, idfs, max(avgdl, 1e-9), tsq, *params, tsq,
         *params, k * 2])
    out: list[ScoredId] = []
    seen: set[str] = set()
    for mid, model_id, role, session_id, ts, r in await cur.fetchall():
        if mid in seen:
            continue
        seen.add(mid)
        out.append(ScoredId(mid, calibrate(float(r), ideal), model_id, role, session_id,
                            int(ts)))
        if len(out) == k:
            break
    return out, stats
