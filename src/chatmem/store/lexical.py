"""The lexical (full-text) index of the message store (X1): tokenizer, scoring, SQL rows.

Dense search with an English-only model is weak on Chinese chat; BM25 over
character n-grams is strong there. This module holds the one tokenizer used for
documents *and* queries, the backend-neutral scoring rules, and the SQLite FTS5
plumbing that :class:`~chatmem.store.sqlite.SqliteStore` calls inside its own
transactions.

Tokenizer (:func:`tokenize`), after NFKC normalisation (full-width → ASCII) and
case folding:

* a run of CJK characters (Han, kana, Hangul) → its overlapping character
  bigrams, then each of its characters (unigrams; a one-character run gives
  just that character). Unigrams are weighed at :data:`CHAR_WEIGHT`: they let
  ``报账单`` find ``报销单`` without letting single characters dominate;
* a number directly followed by a CJK character also yields the pair
  (``3月27号`` → ``3``, ``3月``, ``27``, ``27号``, …): dates, times, prices and
  counts are what chat questions ask about;
* Latin (and other alphabetic) words → lowercased, accents dropped; common
  English function words (checked on the word and on its plural-stripped form,
  never on the stem) and single letters are dropped; a word that is then plain
  ASCII letters is reduced to its Snowball English (Porter2) stem
  (``flights`` → ``flight``, ``painting``/``painted`` → ``paint``, ``alex's`` →
  ``alex``); other alphabetic words get a light English plural strip;
* numbers stay whole (``3.2`` is one token), as do letters mixed with digits
  (``g2193``, ``test2``);
* everything else (punctuation, emoji) only separates tokens.

Documents are stored pre-tokenized in an FTS5 table with two columns, ``terms``
(words, numbers, bigrams) and ``chars`` (CJK unigrams), written in the same
transaction as the vector. The FTS rowid is the message's rowid, which is also
the ``vectors.mrowid`` of its vector entry. The table is the durable copy of the
tokens: queries are answered by :class:`~chatmem.store.postings.Postings`, an
in-memory BM25 loaded from it (:func:`sqlite_load`) with the same formula as
FTS5's ``bm25(lexical, 1.0, CHAR_WEIGHT)``, many times faster on common words;
its hits pass the same vector-entry filter as dense search, so visibility is
identical (:func:`sqlite_query`).

Scores are calibrated to [0, 1] (:func:`calibrate`): the BM25 score divided by
that of an ideal match (a document of average length holding each query token
once, :func:`plan_query`) and capped at 1. A message matching only frequent
tokens scores near 0; one holding every rare token of the query scores near 1.
"""

from __future__ import annotations

import json
import math
import re
import sqlite3
import threading
import unicodedata
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt
import snowballstemmer

from ..models import ScoredId, VectorEntry

if TYPE_CHECKING:
    from .postings import Postings

#: Bump when :func:`tokenize` changes: stored token rows are rebuilt on open.
TOKENIZER_VERSION = 2

#: Most distinct query tokens sent to the full-text index (the rarest are kept).
MAX_QUERY_TOKENS = 64

#: Weight of a CJK unigram match relative to a bigram or word match (FTS5 column weight).
CHAR_WEIGHT = 0.5

#: FTS5 ``bm25()`` constants (SQLite's built-in values).
BM25_K1 = 1.2
BM25_B = 0.75

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # compatibility ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\U00020000-\U0003134f"  # extensions B–G
)
_TOKEN_RE = re.compile(
    rf"(?P<cjk>[{_CJK}]+)"
    r"|(?P<num>\d+(?:\.\d+)+)"
    rf"|(?P<word>[^\W_{_CJK}]+)"
)
_CJK_RE = re.compile(rf"[{_CJK}]")
_LETTER_RE = re.compile(rf"[^\W\d_{_CJK}]")

#: English function words: near-zero IDF anyway, and they make OR queries slow.
STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "the", "and", "or", "but", "if", "of", "at", "by", "for", "with", "about", "to",
    "from", "in", "on", "into", "over", "under", "up", "down", "out", "off", "than", "then",
    "so", "too", "very", "can", "will", "just", "do", "does", "did", "doing", "done", "is",
    "am", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having", "i",
    "me", "my", "we", "our", "you", "your", "he", "him", "his", "she", "her", "it", "its",
    "they", "them", "their", "this", "that", "these", "those", "what", "which", "who", "whom",
    "whose", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more",
    "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same", "s", "t",
    "don", "should", "now",
})


#: Most cached word stems (a chat vocabulary is far smaller; the cache stops growing here).
_STEM_CACHE_MAX = 200_000
_stem_cache: dict[str, str] = {}
_stemmers = threading.local()  # a Snowball stemmer keeps state: one per thread


def _stem(word: str) -> str:
    """The Snowball English (Porter2) stem of a lowercase ASCII word, cached."""
    stem = _stem_cache.get(word)
    if stem is None:
        stemmer = getattr(_stemmers, "english", None)
        if stemmer is None:
            stemmer = _stemmers.english = snowballstemmer.stemmer("english")
        stem = stemmer.stemWord(word)
        if len(_stem_cache) < _STEM_CACHE_MAX:
            _stem_cache[word] = stem
    return stem


def _strip_plural(word: str) -> str:
    """Drop an English plural ending (``flights`` → ``flight``, ``cities`` → ``city``)."""
    if len(word) > 3 and word.isalpha():
        if word.endswith("ies") and not word.endswith(("eies", "aies")):
            return word[:-3] + "y"
        if word.endswith("es") and word.endswith(("sses", "xes", "ches", "shes", "zes")):
            return word[:-2]
        if word.endswith("s") and not word.endswith(("ss", "us", "is")):
            return word[:-1]
    return word


def _fold(word: str) -> str | None:
    """Strip accents, then stem (ASCII) or strip a plural; ``None`` for a function word.

    Function words are looked up on the word and on its plural-stripped form, not
    on the stem: ``owned`` stems to ``own`` and ``willing`` to ``will``, and both stay.
    """
    if not word.isascii():
        word = "".join(c for c in unicodedata.normalize("NFKD", word)
                       if not unicodedata.combining(c))
    light = _strip_plural(word)
    if word in STOPWORDS or light in STOPWORDS:
        return None
    if word.isascii() and word.isalpha():
        return _stem(word)
    return light


def tokenize(text: str) -> list[str]:
    """The tokens of ``text`` in order (with repeats); the same for documents and queries.

    A CJK run gives its bigrams and then its characters (unigrams, see
    :func:`is_char`): the index weighs a character match at :data:`CHAR_WEIGHT`.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    out: list[str] = []
    pending_num: str | None = None  # a number waiting for a following CJK character
    last_end = -1
    for m in _TOKEN_RE.finditer(text):
        kind = m.lastgroup
        s = m.group()
        adjacent = m.start() == last_end
        last_end = m.end()
        if kind == "cjk":
            if pending_num is not None and adjacent:
                out.append(pending_num + s[0])
            pending_num = None
            out.extend(s[i:i + 2] for i in range(len(s) - 1))
            out.extend(s)
            continue
        pending_num = None
        if kind == "num" or s.isdigit():
            out.append(s)
            pending_num = s
            continue
        if s.isascii() and not s.isalpha():
            # letters with digits: a code or a model name (g2193, test2, ps5)
            out.append(s)
            continue
        word = _fold(s)
        if word is None or (len(word) == 1 and not word.isdigit()):
            continue
        out.append(word)
    return out


def is_char(token: str) -> bool:
    """A CJK unigram (stored in the ``chars`` column, weighed at :data:`CHAR_WEIGHT`)."""
    return len(token) == 1 and _CJK_RE.match(token) is not None


def split_tokens(text: str) -> tuple[str, str]:
    """The two FTS columns of a document: terms, and CJK characters (space-joined)."""
    return _columns(tokenize(text))


def _columns(toks: Sequence[str]) -> tuple[str, str]:
    return (" ".join(t for t in toks if not is_char(t)),
            " ".join(t for t in toks if is_char(t)))


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters of ``text`` (0 when it has none)."""
    cjk = len(_CJK_RE.findall(text))
    letters = len(_LETTER_RE.findall(text))
    total = cjk + letters
    return cjk / total if total else 0.0


def query_terms(text: str) -> list[str]:
    """The distinct tokens of a query, in first-seen order."""
    return list(dict.fromkeys(tokenize(text)))


def idf(n_docs: int, df: int) -> float:
    """FTS5's BM25 IDF: ``log((N − n + 0.5) / (n + 0.5))``, floored at 1e-6."""
    v = math.log((n_docs - df + 0.5) / (df + 0.5))
    return v if v > 1e-6 else 1e-6


def term_weight(token: str) -> float:
    """The BM25 weight of a term: 1, or :data:`CHAR_WEIGHT` for a CJK unigram."""
    return CHAR_WEIGHT if is_char(token) else 1.0


def ideal_score(token: str, n_docs: int, df: int) -> float:
    """What one query term adds to the score of an ideal match: tf 1, average length.

    FTS5 scales a term's frequency by its column weight ``w`` inside the BM25
    saturation, so the term adds ``idf · w(k1 + 1) / (w + k1)``.
    """
    w = term_weight(token)
    return idf(n_docs, df) * w * (BM25_K1 + 1) / (w + BM25_K1)


def plan_query(terms: Sequence[str], df: Mapping[str, int], n_docs: int
               ) -> tuple[list[str], float] | None:
    """The terms to search and the ideal score of a query; ``None`` when nothing can match.

    The ideal score counts every distinct query term, present in the index or
    not: a message that holds only a frequent word of a query whose rare words
    appear nowhere is weak evidence, and scores low. Of the terms the index has
    seen, the :data:`MAX_QUERY_TOKENS` rarest are searched; terms in more than
    half of the documents carry no BM25 weight and are searched only when
    nothing else is left.
    """
    present = [t for t in terms if df.get(t, 0) > 0]
    if not present:
        return None
    gain = {t: ideal_score(t, n_docs, df.get(t, 0)) for t in terms}
    present.sort(key=lambda t: -gain[t])
    kept = [t for t in present[:MAX_QUERY_TOKENS] if gain[t] > 1e-5] or present[:1]
    return kept, sum(gain.values())


def calibrate(bm25: float, ideal: float) -> float:
    """A BM25 score as a share of the ideal match's score, in [0, 1]."""
    if ideal <= 0 or bm25 <= 0:
        return 0.0
    return min(1.0, bm25 / ideal)


# --------------------------------------------------------------------------- SQLite

#: Created by :func:`sqlite_setup`. ``lexical`` holds the token text of each
#: searchable message by message rowid (= ``vectors.mrowid``); ``lexical_entries``
#: holds the vector fields of entries whose vector lives in a separate index
#: (Qdrant), since there is no ``vectors`` row to filter on for those.
SQLITE_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS lexical USING fts5(
    terms, chars, tokenize = "unicode61 remove_diacritics 0 tokenchars '.'"
);
CREATE VIRTUAL TABLE IF NOT EXISTS lexical_vocab USING fts5vocab(lexical, 'row');
CREATE TABLE IF NOT EXISTS lexical_entries (
    mrowid INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL UNIQUE,
    session_id TEXT NOT NULL,
    ts INTEGER NOT NULL,
    role TEXT,
    model_id TEXT,
    platform TEXT,
    speaker_id TEXT,
    mentions TEXT NOT NULL DEFAULT '[]',
    resource_id TEXT,
    origin_platform TEXT,
    smeta TEXT NOT NULL DEFAULT '{}',
    mmeta TEXT NOT NULL DEFAULT '{}'
);
"""
_META_NS = "chatmem.lexical"
_MSG_TEXT_COLS = "rowid, session_id, role, content, visible_content, speaker_name"


def _message_text(row: Sequence[Any]) -> str:
    """The embedded text (F1) of a message row selected with :data:`_MSG_TEXT_COLS`."""
    from ..indexing import embedded_text
    from ..models import Message

    return embedded_text(Message(session_id=row[1], role=row[2], content=row[3],
                                 visible_content=row[4], speaker_name=row[5]))


def sqlite_setup(conn: sqlite3.Connection) -> None:
    """Create the tables; (re)build the token rows when they are missing or stale.

    A store written before the lexical index existed, or with another tokenizer
    version, has every message that has a vector entry tokenized again here.
    """
    conn.executescript(SQLITE_SCHEMA)
    row = conn.execute("SELECT value FROM meta WHERE namespace=? AND key='tokenizer'",
                       (_META_NS,)).fetchone()
    if row is not None and row[0] == str(TOKENIZER_VERSION):
        return
    conn.execute("BEGIN IMMEDIATE")
    try:
        conn.execute("DELETE FROM lexical")
        cur = conn.execute(
            f"SELECT {_MSG_TEXT_COLS} FROM messages WHERE rowid IN "
            "(SELECT mrowid FROM vectors UNION SELECT mrowid FROM lexical_entries)")
        while batch := cur.fetchmany(2000):
            conn.executemany("INSERT INTO lexical (rowid, terms, chars) VALUES (?, ?, ?)",
                             [(r[0], *split_tokens(_message_text(r))) for r in batch])
        conn.execute(
            "INSERT INTO meta (namespace, key, value) VALUES (?, 'tokenizer', ?) "
            "ON CONFLICT(namespace, key) DO UPDATE SET value=excluded.value",
            (_META_NS, str(TOKENIZER_VERSION)))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def sqlite_put(conn: sqlite3.Connection, rowid: int, text: str | None,
               entry: VectorEntry | None = None) -> list[str] | None:
    """Write the token row of message ``rowid`` (inside the caller's transaction);
    returns its tokens (``None`` when the message is gone).

    ``text`` is the embedded text (``VectorEntry.text``); ``None`` reads it from
    the message row. ``entry`` is given when the vector lives in a separate
    index: its fields are kept in ``lexical_entries`` for filtering.
    """
    if text is None:
        row = conn.execute(f"SELECT {_MSG_TEXT_COLS} FROM messages WHERE rowid=?",
                           (rowid,)).fetchone()
        if row is None:
            return None
        text = _message_text(row)
    toks = tokenize(text)
    conn.execute("DELETE FROM lexical WHERE rowid=?", (rowid,))
    conn.execute("INSERT INTO lexical (rowid, terms, chars) VALUES (?, ?, ?)",
                 (rowid, *_columns(toks)))
    if entry is None:
        conn.execute("DELETE FROM lexical_entries WHERE mrowid=?", (rowid,))
    else:
        conn.execute("INSERT OR REPLACE INTO lexical_entries (mrowid, message_id, session_id, "
                     "ts, role, model_id, platform, speaker_id, mentions, resource_id, "
                     "origin_platform, smeta, mmeta) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?)",
                     _entry_row(rowid, entry))
    return toks


def sqlite_drop(conn: sqlite3.Connection, rowids: Sequence[int]) -> int:
    """Delete the token rows (and separate-index entries) of these message rowids;
    returns how many token rows there were."""
    n = 0
    for i in range(0, len(rowids), 500):
        chunk = list(rowids[i:i + 500])
        q = ",".join("?" * len(chunk))
        n += conn.execute(f"SELECT count(*) FROM lexical_docsize WHERE id IN ({q})",
                          chunk).fetchone()[0]
        conn.execute(f"DELETE FROM lexical WHERE rowid IN ({q})", chunk)
        conn.execute(f"DELETE FROM lexical_entries WHERE mrowid IN ({q})", chunk)
    return n


def sqlite_rowids(conn: sqlite3.Connection, *, message_ids: Sequence[str] | None = None,
                  session_id: str | None = None) -> list[int]:
    """The message rowids of these message ids, or of one session's messages."""
    if session_id is not None:
        return [r[0] for r in conn.execute("SELECT rowid FROM messages WHERE session_id=?",
                                           (session_id,))]
    out: list[int] = []
    ids = list(message_ids or ())
    for i in range(0, len(ids), 500):
        chunk = ids[i:i + 500]
        q = ",".join("?" * len(chunk))
        out.extend(r[0] for r in conn.execute(
            f"SELECT rowid FROM messages WHERE id IN ({q})", chunk))
    return out


def sqlite_clear(conn: sqlite3.Connection) -> int:
    """Delete every token row; returns how many."""
    n = conn.execute("SELECT count(*) FROM lexical_docsize").fetchone()[0]
    conn.execute("DELETE FROM lexical")
    conn.execute("DELETE FROM lexical_entries")
    return int(n)


def sqlite_load(conn: sqlite3.Connection, postings: Postings) -> None:
    """Fill ``postings`` from the stored token rows (the first lexical query of a store)."""
    cur = conn.execute("SELECT rowid, terms, chars FROM lexical")
    postings.load((r[0], r[1].split() + r[2].split()) for r in cur)


def sqlite_query(conn: sqlite3.Connection, postings: Postings, text: str, k: int,
                 allowed: npt.NDArray[np.int64] | None = None,
                 where: tuple[str, Sequence[Any]] | None = None) -> list[ScoredId]:
    """The ``k`` best BM25 matches of ``text`` among the entries the caller allows.

    ``postings`` mirrors the token rows (:mod:`chatmem.store.postings`). The
    vector-entry filter comes either as the rowids it keeps (``allowed``, from the
    in-memory columns, for the shapes recall builds) or as SQL over the entry
    columns (``where``, from :func:`~chatmem.store.where.compile_where`), checked on
    the best matches only, widening until ``k`` pass; visibility is that of dense
    search either way. A hit needs its ``vectors`` row (or its ``lexical_entries``
    row when its vector lives in a separate index). Scores are calibrated to
    [0, 1] (:func:`calibrate`); ties break by message id.
    """
    terms = query_terms(text)
    if not terms or k <= 0 or postings.n_docs == 0:
        return []
    plan = plan_query(terms, postings.doc_freqs(terms), postings.n_docs)
    if plan is None:
        return []
    kept, ideal = plan
    if where is None:
        hits = dict(postings.top_k(kept, k, allowed))
    else:
        n = max(8 * k, 256)
        while True:  # every match missing from a round scores below all of the round's
            ranked = postings.top_k(kept, n, allowed)
            passing = _passing(conn, [r for r, _ in ranked], *where)
            hits = {r: sc for r, sc in ranked if r in passing}
            if len(hits) >= k or len(ranked) < n:
                break
            n *= 8
    if not hits:
        return []
    q = ",".join("?" * len(hits))
    rows = conn.execute(
        f"SELECT mrowid, message_id, model_id, role, session_id, ts FROM vectors "
        f"WHERE mrowid IN ({q}) UNION SELECT mrowid, message_id, model_id, role, "
        f"session_id, ts FROM lexical_entries WHERE mrowid IN ({q})",
        [*hits, *hits]).fetchall()
    found = {r[0]: r for r in rows}  # both a vector and a separate-index entry: one hit
    best = sorted(found.values(), key=lambda r: (-hits[r[0]], r[1]))[:k]
    return [ScoredId(r[1], calibrate(hits[r[0]], ideal), r[2], r[3], r[4], r[5])
            for r in best]


def _passing(conn: sqlite3.Connection, rowids: Sequence[int], sql: str,
             params: Sequence[Any]) -> set[int]:
    """Which of these rowids have an entry (vector or separate-index row) matching ``sql``."""
    ids = json.dumps(rowids)
    return {r[0] for r in conn.execute(
        f"SELECT mrowid FROM vectors WHERE mrowid IN (SELECT value FROM json_each(?)) "
        f"AND ({sql}) UNION SELECT mrowid FROM lexical_entries WHERE mrowid IN "
        f"(SELECT value FROM json_each(?)) AND ({sql})", [ids, *params, ids, *params])}


def _entry_row(rowid: int, e: VectorEntry) -> tuple[Any, ...]:
    return (rowid, e.message_id, e.session_id, e.ts, e.role, e.model_id, e.platform,
            e.speaker_id, json.dumps(list(e.mentions), ensure_ascii=False), e.resource_id,
            e.origin_platform, json.dumps(dict(e.session_metadata), ensure_ascii=False),
            json.dumps(dict(e.message_metadata), ensure_ascii=False))


# --------------------------------------------------------------------------- PostgreSQL
#
# The same tokens, stored as a ``tsvector`` built from a literal (no text search
# configuration parses them again: ``3.2`` or ``青柠`` stay single lexemes), with
# a GIN index, and ranked by the same BM25 as SQLite's FTS5 (IDF over the rows
# holding a ``tsvector``, term frequency from the positions, length normalisation
# by ``lex_len`` = the number of tokens), so both backends give the same scores.
# Functions take a psycopg ``AsyncConnection`` whose search_path is the store's.

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
#: tsvector positions stop at 16383 (PostgreSQL's limit).
_PG_MAX_POS = 16383


def _pg_quote(token: str) -> str:
    return "'" + token.replace("\\", "\\\\").replace("'", "''") + "'"


def pg_lex(text: str) -> tuple[str, int]:
    """A ``tsvector`` literal of the tokens of ``text`` (with positions) and their count."""
    toks = tokenize(text)
    return (" ".join(f"{_pg_quote(t)}:{min(i, _PG_MAX_POS)}" for i, t in enumerate(toks, 1)),
            len(toks))


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


async def pg_put(conn: Any, items: Sequence[tuple[str, str | None]]) -> None:
    """Set the lexical columns of these vectors rows (inside the caller's transaction)."""
    rows = []
    for mid, text in await _pg_texts(conn, items):
        lex, n = pg_lex(text)
        rows.append((lex, n, mid))
    if rows:
        async with conn.cursor() as cur:
            await cur.executemany(
                "UPDATE vectors SET lex = %s::tsvector, lex_len = %s WHERE message_id = %s", rows)


async def pg_put_entries(conn: Any, entries: Sequence[VectorEntry]) -> None:
    """Lexical rows for entries whose vectors live in a separate index."""
    texts = dict(await _pg_texts(conn, [(e.message_id, e.text) for e in entries]))
    cur = await conn.execute("SELECT id FROM messages WHERE id = ANY(%s::text[])",
                             [[e.message_id for e in entries]])
    alive = {r[0] for r in await cur.fetchall()}
    rows = []
    for e in entries:
        if e.message_id not in alive:  # deleted meanwhile: nothing to index
            continue
        lex, n = pg_lex(texts[e.message_id])
        rows.append((e.message_id, e.session_id, e.ts, e.role, e.model_id, e.platform,
                     e.origin_platform, e.speaker_id,
                     json.dumps(list(e.mentions), ensure_ascii=False), e.resource_id,
                     json.dumps(dict(e.session_metadata), ensure_ascii=False),
                     json.dumps(dict(e.message_metadata), ensure_ascii=False),
                     texts[e.message_id], lex, n))
    if not rows:
        return
    async with conn.cursor() as cur:
        await cur.executemany(
            "INSERT INTO lexical_entries (message_id, session_id, ts, role, model_id, platform, "
            "origin_platform, speaker_id, mentions, resource_id, smeta, mmeta, text, lex, "
            "lex_len) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s::jsonb, %s, %s::jsonb, "
            "%s::jsonb, %s, %s::tsvector, %s) ON CONFLICT (message_id) DO UPDATE SET "
            "session_id = excluded.session_id, ts = excluded.ts, role = excluded.role, "
            "model_id = excluded.model_id, platform = excluded.platform, "
            "origin_platform = excluded.origin_platform, speaker_id = excluded.speaker_id, "
            "mentions = excluded.mentions, resource_id = excluded.resource_id, "
            "smeta = excluded.smeta, mmeta = excluded.mmeta, text = excluded.text, "
            "lex = excluded.lex, lex_len = excluded.lex_len", rows)


async def pg_drop(conn: Any, message_ids: Sequence[str]) -> int:
    """Delete the separate-index lexical rows of these messages; returns how many."""
    cur = await conn.execute("DELETE FROM lexical_entries WHERE message_id = ANY(%s::text[])",
                             [list(message_ids)])
    return int(cur.rowcount)


async def pg_clear(conn: Any, session_id: str | None = None) -> int:
    if session_id is None:
        cur = await conn.execute("DELETE FROM lexical_entries")
    else:
        cur = await conn.execute("DELETE FROM lexical_entries WHERE session_id = %s",
                                 [session_id])
    return int(cur.rowcount)


async def pg_setup(conn: Any) -> None:
    """Fill the lexical columns of rows written before them, or by another tokenizer.

    Runs at open, after the migrations, inside the caller's transaction."""
    row = await (await conn.execute(
        "SELECT value FROM meta WHERE namespace = %s AND key = 'tokenizer'", [_META_NS]
    )).fetchone()
    if row is not None and row[0] == str(TOKENIZER_VERSION):
        return
    for table in ("vectors", "lexical_entries"):
        cur = await conn.execute(f"SELECT message_id, text FROM {table}")
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
    await conn.execute(
        "INSERT INTO meta (namespace, key, value) VALUES (%s, 'tokenizer', %s) "
        "ON CONFLICT (namespace, key) DO UPDATE SET value = excluded.value",
        [_META_NS, str(TOKENIZER_VERSION)])


def _pg_tsquery(terms: Sequence[str]) -> str:
    return " | ".join(_pg_quote(t) for t in terms)


async def pg_query(conn: Any, text: str, k: int, frag: str = "TRUE",
                   params: Sequence[Any] = ()) -> list[ScoredId]:
    """The ``k`` best BM25 matches of ``text`` among rows matching ``frag`` (SQL over the
    vector-entry columns, as for dense search); scores calibrated as with SQLite."""
    terms = query_terms(text)
    if not terms or k <= 0:
        return []
    stats = await (await conn.execute(
        "SELECT count(*), coalesce(avg(lex_len), 0) FROM (SELECT lex_len FROM vectors "
        "WHERE lex IS NOT NULL UNION ALL SELECT lex_len FROM lexical_entries "
        "WHERE lex IS NOT NULL) AS rows")).fetchone()
    n_docs, avgdl = int(stats[0]), float(stats[1])
    if n_docs == 0:
        return []
    cur = await conn.execute(
        "SELECT q.t, (SELECT count(*) FROM vectors WHERE lex @@ q.t::tsquery) "
        "+ (SELECT count(*) FROM lexical_entries WHERE lex @@ q.t::tsquery) "
        "FROM unnest(%s::text[]) AS q(t)", [[_pg_quote(t) for t in terms]])
    df = {t: int(n) for t, (_, n) in zip(terms, await cur.fetchall())}
    plan = plan_query(terms, df, n_docs)
    if plan is None:
        return []
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
        + " UNION ALL ".join(parts) + " ORDER BY r DESC, message_id LIMIT %s",
        [kept, weights, idfs, max(avgdl, 1e-9), tsq, *params, tsq, *params, k * 2])
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
    return out
