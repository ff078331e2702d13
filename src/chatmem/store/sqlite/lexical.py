"""The SQLite store's full-text rows (X1): FTS5 tables written in the store's transactions.

Documents are stored pre-tokenized (:func:`chatmem.text.tokenize`) in an FTS5
table with two columns, ``terms`` (words, numbers, bigrams) and ``chars`` (CJK
unigrams), written in the same transaction as the message (with a pending entry in
``lexical_entries``, see :func:`~chatmem.store.base.pending_entry`) and again,
only if its text changed, with the vector (:func:`sqlite_put`). The FTS rowid is
the message's rowid, which is also the ``vectors.mrowid`` of its vector entry. The
table is the durable copy of the tokens: queries are answered by
:class:`~chatmem.store.postings.Postings`, an in-memory BM25 loaded from it
(:func:`sqlite_load`) with the same formula as FTS5's
``bm25(lexical, 1.0, CHAR_WEIGHT)`` (:mod:`chatmem.store.bm25`), many times
faster on common words; its hits pass the same vector-entry filter as dense
search, so visibility is identical, and take their entry fields from the same
in-memory columns dense search answers from: a hit with a vector costs no SQL
(only pending entries, a separate index's entries and SQL filters do;
:func:`sqlite_query`).
"""

from __future__ import annotations

import json
import logging
import shlex
import sqlite3
from collections.abc import Collection, Iterator, Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from ...errors import DamagedRow
from ...models import Message, ScoredId, VectorEntry, embedded_text
from ...refusals import describe
from ...text import TOKENIZER_VERSION, is_char, query_terms, tokenize
from ..base import LEXICAL_NAMESPACE
from ..bm25 import calibrate, plan_query
from ..columns import ENTRY_COLUMN_NAMES, ENTRY_COLUMNS, entry_values, json_text, sqlite_entry_ddl
from ..matrix import EntryFields, VectorMatrix
from ..postings import Postings
from ..sql import PENDING_ENTRY_SQL

log = logging.getLogger("chatmem.store.sqlite")


def split_tokens(text: str) -> tuple[str, str]:
    """The two FTS columns of a document: terms, and CJK characters (space-joined)."""
    return _columns(tokenize(text))


def _columns(toks: Sequence[str]) -> tuple[str, str]:
    return (" ".join(t for t in toks if not is_char(t)),
            " ".join(t for t in toks if is_char(t)))


#: Created by :func:`sqlite_setup`. ``lexical`` holds the token text of each
#: searchable message by message rowid (= ``vectors.mrowid``); ``lexical_entries``
#: holds the vector fields of entries without a ``vectors`` row to filter on: those
#: whose vector lives in a separate index (Qdrant), and the pending entries of
#: messages not embedded yet (``model_id`` = :data:`~chatmem.models.PENDING_MODEL`).
SQLITE_SCHEMA = """
CREATE VIRTUAL TABLE IF NOT EXISTS lexical USING fts5(
    terms, chars, tokenize = "unicode61 remove_diacritics 0 tokenchars '.'"
);
CREATE VIRTUAL TABLE IF NOT EXISTS lexical_vocab USING fts5vocab(lexical, 'row');
CREATE TABLE IF NOT EXISTS lexical_entries (
    mrowid INTEGER PRIMARY KEY,
{entry_columns}
);
""".replace("{entry_columns}", sqlite_entry_ddl(unique_message_id=True))
_META_NS = LEXICAL_NAMESPACE
_MSG_TEXT_COLS = "rowid, session_id, role, content, visible_content, speaker_name"


def _message_text(row: Sequence[Any]) -> str:
    """The embedded text (F1) of a message row selected with :data:`_MSG_TEXT_COLS`."""
    return embedded_text(Message(session_id=row[1], role=row[2], content=row[3],
                                 visible_content=row[4], speaker_name=row[5]))


def sqlite_setup(conn: sqlite3.Connection) -> None:
    """Create the tables; (re)build the token rows when they are missing or stale.

    A store written before the lexical index existed, or with another tokenizer
    version, has every message that has a vector entry tokenized again here.
    """
    conn.executescript(SQLITE_SCHEMA)
    _reset_if_unreadable(conn)
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


def _reset_if_unreadable(conn: sqlite3.Connection) -> None:
    """Empty the full-text table when SQLite cannot open it, so that :func:`sqlite_setup`
    tokenizes every message again.

    SQLite 3.40's FTS5 (Debian 12's) breaks a table on the 1,001st ``optimize`` after a
    delete: from then on every use of it, ``DROP TABLE`` and ``'rebuild'`` included,
    fails with "vtable constructor failed" and every write of the store with it. An
    older chatmem merged after each erase without the rebuilds that now prevent it
    (``SqliteStore._merge_lexical_sync``), so such stores exist. The table's rows are
    derived from the messages: its shadow tables are emptied in place (the virtual
    table cannot be dropped) and given the blocks of a new empty table, made in
    memory by the same SQLite, and the missing tokenizer record has them written
    again."""
    try:
        conn.execute("SELECT rowid FROM lexical LIMIT 0")  # runs the table's constructor
        return
    except sqlite3.DatabaseError as exc:
        log.warning("the full-text index cannot be opened (%s): it is rebuilt from the "
                    "messages (SQLite 3.40 FTS5 after many merges)", exc)
    empty = sqlite3.connect(":memory:")
    try:
        empty.executescript(SQLITE_SCHEMA.split(";", 1)[0])
        blocks = empty.execute("SELECT id, block FROM lexical_data").fetchall()
    finally:
        empty.close()
    conn.execute("BEGIN IMMEDIATE")
    try:
        for shadow in ("data", "idx", "content", "docsize"):
            conn.execute(f"DELETE FROM lexical_{shadow}")
        conn.executemany("INSERT INTO lexical_data (id, block) VALUES (?, ?)", blocks)
        conn.execute("DELETE FROM meta WHERE namespace=? AND key='tokenizer'", (_META_NS,))
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")


def sqlite_put(conn: sqlite3.Connection, rowid: int, text: str | None,
               entry: VectorEntry | None = None, *, vector: bool = False) -> Tokens | None:
    """Write the token row of message ``rowid`` (inside the caller's transaction) and
    its entry row: ``entry``'s fields, kept in ``lexical_entries`` for filtering (a
    pending entry, or the entry of a vector in a separate index), or none (its vector
    is in ``vectors``). ``None`` when the message is gone.

    ``text`` is the embedded text (``VectorEntry.text``); ``None`` reads it from
    the message row. ``vector``: the message's vector is being written; its pending
    entry, when it has one for this very text, already holds the tokens, which are
    then kept without tokenizing again (a rewrite changes the message first, so its
    text differs until the pending entry is written anew).
    """
    tokens = _kept_pending(conn, rowid, text) if vector else None
    tokens = tokens or _put_tokens(conn, rowid, text)
    if tokens is None:
        return None
    if entry is None:
        conn.execute("DELETE FROM lexical_entries WHERE mrowid=?", (rowid,))
    else:
        conn.execute(f"INSERT OR REPLACE INTO lexical_entries (mrowid, {ENTRY_COLUMN_NAMES}) "
                     f"VALUES (?, {','.join('?' * len(ENTRY_COLUMNS))})",
                     (rowid, *entry_values(entry, json_text)))
    return tokens


class Tokens(NamedTuple):
    """The tokens of a message's row, and whether this write changed the row."""

    tokens: list[str]
    changed: bool


def _kept_pending(conn: sqlite3.Connection, rowid: int, text: str | None) -> Tokens | None:
    """Unchanged tokens (unknown, not needed) when message ``rowid`` has a pending entry
    and ``text`` is its embedded text (``None``: it is); else ``None``."""
    row = conn.execute(
        f"SELECT {_MSG_TEXT_COLS} FROM messages WHERE rowid=? AND EXISTS (SELECT 1 FROM "
        f"lexical_entries WHERE mrowid=messages.rowid AND {PENDING_ENTRY_SQL})",
        (rowid,)).fetchone()
    if row is None or (text is not None and text != _message_text(row)):
        return None
    return Tokens([], False)


def _put_tokens(conn: sqlite3.Connection, rowid: int, text: str | None) -> Tokens | None:
    """Make the token row of message ``rowid`` hold ``text``'s tokens (``None``: its
    embedded text), rewriting it only when they differ: a message's row is written
    when it is appended and its vector, with the same text, comes later."""
    if text is None:
        row = conn.execute(f"SELECT {_MSG_TEXT_COLS} FROM messages WHERE rowid=?",
                           (rowid,)).fetchone()
        if row is None:
            return None
        text = _message_text(row)
    toks = tokenize(text)
    columns = _columns(toks)
    row = conn.execute("SELECT terms, chars FROM lexical WHERE rowid=?", (rowid,)).fetchone()
    if row is not None and tuple(row) == columns:
        return Tokens(toks, False)
    if row is not None:
        conn.execute("DELETE FROM lexical WHERE rowid=?", (rowid,))
    conn.execute("INSERT INTO lexical (rowid, terms, chars) VALUES (?, ?, ?)", (rowid, *columns))
    return Tokens(toks, True)


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


def sqlite_load(conn: sqlite3.Connection, postings: Postings, where: str = "",
                path: str = "") -> None:
    """Fill ``postings`` from the stored token rows (the first lexical query of a store).

    FTS5's columns take any value: a row changed outside chatmem (a hand edit, a tool
    that wrote NULLs) may hold a NULL, a number or bytes in ``terms`` or ``chars``. No
    row is checked on the way (a load reads every row of the store): a value without
    ``split`` stops the load, bytes leave a term that is not text, and only then is
    the load done again by :func:`_sound_rows`, which takes such a row's tokens from
    its message's text, as a rebuild writes them (``where``: the store, in its
    warnings; ``path``: its file, in the command they give)."""
    cur = conn.execute("SELECT rowid, terms, chars FROM lexical")
    try:
        postings.load((r[0], r[1].split() + r[2].split()) for r in cur)
        if set(map(type, postings.term_id)) <= {str}:  # 24 ms a million terms, in C
            return
    except AttributeError:
        pass
    postings.load(_sound_rows(conn, where, path))


def retokenize(path: str) -> str:
    """How to write a damaged token row again on disk, for the store at ``path`` (shell
    quoted): a store whose tokenizer record is missing has every token row rewritten
    from the messages when it opens."""
    return ("its tokens are read from the message's text instead; to write the row "
            "again, delete the tokenizer record while chatmem is not running (sqlite3 "
            f"{shlex.quote(path or '<file>')} \"DELETE FROM meta WHERE namespace='"
            f"{_META_NS}' AND key='tokenizer'\"): the next open rewrites every full-text "
            "row from the messages")
_WARN_ROWS = 10


def _sound_rows(conn: sqlite3.Connection, where: str, path: str
                ) -> Iterator[tuple[int, list[str]]]:
    """The token rows of :func:`sqlite_load`, each checked: one whose ``terms`` or
    ``chars`` is not text gets the tokens of its message's text (one without a message,
    or whose message cannot be read, is left out: no hit of it could pass the entry
    filter, or be shown), each logged at WARNING (the first :data:`_WARN_ROWS`, then
    how many more)."""
    seen = 0
    for rowid, terms, chars in conn.execute("SELECT rowid, terms, chars FROM lexical"):
        if type(terms) is str and type(chars) is str:
            yield rowid, terms.split() + chars.split()
            continue
        column, value = ("terms", terms) if type(terms) is not str else ("chars", chars)
        row = conn.execute(f"SELECT {_MSG_TEXT_COLS}, id FROM messages WHERE rowid=?",
                           (rowid,)).fetchone()
        tokens: list[str] | None = None
        if row is not None:
            try:
                tokens = tokenize(_message_text(row))
            except (TypeError, ValueError):  # the message's own columns are damaged too
                tokens = None
        seen += 1
        if seen <= _WARN_ROWS and row is not None:
            log.warning("%s; %s", DamagedRow(
                "lexical", str(row[-1]), column, f"holds {describe(value)}, not text",
                where=where).damage, retokenize(path) if tokens is not None else
                "left out of full-text search: its message cannot be read either")
        elif seen <= _WARN_ROWS:
            log.warning("%s: damaged full-text row (rowid %d, no message has it): column "
                        "%s holds %s, not text; left out of full-text search",
                        where or "the store", rowid, column, describe(value))
        if tokens is not None:
            yield rowid, tokens
    if seen > _WARN_ROWS:
        log.warning("%s: %d more full-text row(s) hold a value that is not text, read "
                    "as the first %d above", where or "the store", seen - _WARN_ROWS,
                    _WARN_ROWS)


def sqlite_query(conn: sqlite3.Connection, postings: Postings, text: str, k: int,
                 allowed: npt.NDArray[np.int64] | None = None,
                 where: tuple[str, Sequence[Any]] | None = None,
                 matrices: Collection[VectorMatrix] = (), store: str = ""
                 ) -> list[ScoredId]:
    """The ``k`` best BM25 matches of ``text`` among the entries the caller allows.

    ``postings`` mirrors the token rows (:mod:`chatmem.store.postings`). The
    vector-entry filter comes either as the rowids it keeps (``allowed``, from the
    in-memory columns, for the shapes recall builds) or as SQL over the entry
    columns (``where``, from :func:`~chatmem.store.where.compile_where`), checked on
    the best matches only, widening until ``k`` pass; visibility is that of dense
    search either way. A hit needs its ``vectors`` row (or its ``lexical_entries``
    row when its vector lives in a separate index). Scores are calibrated to
    [0, 1] (:func:`calibrate`); exact ties break by newer ``ts``, then message id (code
    point order), as dense search and the recall pool do.

    The entry fields of hits with a vector come from ``matrices`` (the store's
    in-memory copy of the ``vectors`` table, which dense search answers from), the
    others' from the tables: the hits include every document tied with the k-th
    score, hundreds where a text recurs, and fetching their rows by SQL cost more
    than the BM25 top-k itself at 1M messages (1.4 of 5.6 ms p50).
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
    # (-ts, message id) for the tie-break of every hit, all fields for the k kept ones only
    named: dict[int, tuple[int, str]] = {}
    for mat in matrices:
        named.update(mat.tie_keys(hits))
    stored = _stored_fields(conn, [r for r in hits if r not in named])
    try:
        named.update((r, (-f[4], f[0])) for r, f in stored.items())
    except TypeError:  # only then is each row looked at
        stored = _sound_fields(stored, store)
        named.update((r, (-f[4], f[0])) for r, f in stored.items())
        hits = {r: sc for r, sc in hits.items() if r in named}
    out = []
    for rowid in sorted(named, key=lambda r: (-hits[r], named[r]))[:k]:
        f = stored.get(rowid) or next(filter(None, (m.entry_fields(rowid) for m in matrices)))
        out.append(ScoredId(f[0], calibrate(hits[rowid], ideal), *f[1:]))
    return out


def _stored_fields(conn: sqlite3.Connection, rowids: Sequence[int]) -> dict[int, EntryFields]:
    """The entry fields of these rowids from the tables: their vector row, else their
    ``lexical_entries`` row (a pending message, a separate index's entry)."""
    if not rowids:
        return {}
    q = ",".join("?" * len(rowids))
    rows = conn.execute(
        f"SELECT mrowid, message_id, model_id, role, session_id, ts FROM vectors "
        f"WHERE mrowid IN ({q}) UNION SELECT mrowid, message_id, model_id, role, "
        f"session_id, ts FROM lexical_entries WHERE mrowid IN ({q})", [*rowids, *rowids])
    return {r[0]: tuple(r[1:]) for r in rows}  # both a vector and an entry: one hit


def _sound_fields(stored: dict[int, EntryFields], store: str) -> dict[int, EntryFields]:
    """The rows of ``stored`` whose ``ts`` and message id chatmem can order by; the
    others (a hand edit: text in ``ts``) are left out of the hits, with the warning a
    dense search gives a damaged vector row (:func:`~chatmem.store.columns.read_rows`)."""
    keep: dict[int, EntryFields] = {}
    for rowid, f in stored.items():
        if type(f[4]) is int and type(f[0]) is str:
            keep[rowid] = f
            continue
        column, value = ("ts", f[4]) if type(f[4]) is not int else ("message_id", f[0])
        bad = DamagedRow("vectors", str(f[0]), column, f"holds {describe(value)}, not "
                         + ("an integer" if column == "ts" else "text"), where=store)
        log.warning("%s; left out of recalls until chatmem reindex (Memory.reindex()) "
                    "embeds its message again, which replaces the row", bad.damage)
    return keep


def _passing(conn: sqlite3.Connection, rowids: Sequence[int], sql: str,
             params: Sequence[Any]) -> set[int]:
    """Which of these rowids have an entry (vector or separate-index row) matching ``sql``."""
    ids = json.dumps(rowids)
    return {r[0] for r in conn.execute(
        f"SELECT mrowid FROM vectors WHERE mrowid IN (SELECT value FROM json_each(?)) "
        f"AND ({sql}) UNION SELECT mrowid FROM lexical_entries WHERE mrowid IN "
        f"(SELECT value FROM json_each(?)) AND ({sql})", [ids, *params, ids, *params])}
