"""The PostgreSQL store's schema, as numbered migrations applied in order at open.

A migration, once released, is history: stores in the field ran exactly these
statements, so they are never edited, only appended to.
"""

from __future__ import annotations

from ..sql import FAILED_SQL, PENDING_ENTRY_SQL, PENDING_SQL, WAITING_STATES_SQL
from .lexical import PG_MIGRATION as LEXICAL_MIGRATION
from .lexical import PG_TOTALS_CHECK_MIGRATION, PG_TOTALS_MIGRATION

#: version -> statements, applied in order in one transaction (search_path = the schema).
MIGRATIONS: dict[int, list[str]] = {
    1: [
        """CREATE TABLE sessions (
            id text COLLATE "C" PRIMARY KEY,
            parent_id text,
            resource_id text,
            origin_platform text,
            chat_type text,
            group_id text,
            group_name text,
            metadata jsonb NOT NULL DEFAULT '{}',
            settings jsonb NOT NULL DEFAULT '{}'
        )""",
        """CREATE TABLE messages (
            seq bigserial PRIMARY KEY,
            id text NOT NULL UNIQUE,
            session_id text NOT NULL,
            ts bigint NOT NULL,
            role text NOT NULL,
            kind text NOT NULL,
            content text NOT NULL,
            visible_content text,
            source text,
            speaker_id text,
            speaker_name text,
            mentions jsonb NOT NULL DEFAULT '[]',
            platform text,
            metadata jsonb NOT NULL DEFAULT '{}',
            index_state smallint NOT NULL,
            UNIQUE (session_id, ts)
        )""",
        "CREATE INDEX messages_waiting ON messages (seq) WHERE index_state IN "
        + WAITING_STATES_SQL,
        """CREATE TABLE vectors (
            message_id text COLLATE "C" PRIMARY KEY,
            mseq bigint NOT NULL,
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
            dim integer NOT NULL CHECK (dim > 0),
            embedding vector NOT NULL
        )""",
        "CREATE INDEX vectors_session ON vectors (session_id, ts)",
        """CREATE TABLE meta (
            namespace text NOT NULL,
            key text NOT NULL,
            value text NOT NULL,
            PRIMARY KEY (namespace, key)
        )""",
    ],
}
MIGRATIONS[2] = LEXICAL_MIGRATION  # X1: full-text columns, GIN index (store/postgres/lexical.py)
#: A session change updates its vectors' snapshot columns in place (store/base.py,
#: ``update_session_snapshot``). Half-empty heap pages let PostgreSQL keep each new row
#: version on its page (a HOT update, no index touched); on full pages every updated
#: row is inserted into every index again, the HNSW graph included: 200× slower.
#: The price: the vectors heap takes about twice the disk. Pages written before this
#: migration stay full until ``VACUUM FULL vectors``. Parents are looked up by id.
MIGRATIONS[3] = [
    "ALTER TABLE vectors SET (fillfactor = 50)",
    "CREATE INDEX sessions_parent ON sessions (parent_id)",
]
#: E12: the retry schedule of a message whose embedding failed (attempts so far, when the
#: next is due; 0 = now), the index of the retries due soonest and that of the messages
#: never attempted (a sweep reads no FAILED row to find them). X1: the pending
#: full-text entries (``lexical_entries`` rows of messages without a vector yet) are
#: found by a partial index; messages left waiting by an older chatmem get theirs at
#: open (``PostgresStore._migrate``).
MIGRATIONS[4] = [
    "ALTER TABLE messages ADD COLUMN attempts integer NOT NULL DEFAULT 0",
    "ALTER TABLE messages ADD COLUMN retry_at bigint NOT NULL DEFAULT 0",
    f"CREATE INDEX messages_retry ON messages (retry_at, seq) WHERE index_state = {FAILED_SQL}",
    f"CREATE INDEX messages_pending ON messages (seq) WHERE index_state = {PENDING_SQL}",
    f"CREATE INDEX lexical_entries_pending ON lexical_entries (session_id) "
    f"WHERE {PENDING_ENTRY_SQL}",
]
#: R5: a lease on a waiting message (``store.claim``), so that several processes on one
#: store embed each message once: who holds it (an indexer's owner id) and until when
#: (ms since the epoch on the database's clock; 0 = free). A process killed mid-batch
#: loses its leases when they run out. No index: claims go by id, sweeps by the
#: existing partial indexes of waiting messages.
MIGRATIONS[5] = [
    "ALTER TABLE messages ADD COLUMN claim_owner text",
    "ALTER TABLE messages ADD COLUMN claim_until bigint NOT NULL DEFAULT 0",
]
#: X1: every full-text query reads the number and mean length of the rows with a
#: ``tsvector`` (BM25's corpus statistics). Without an index that is a scan of the whole
#: ``vectors`` heap (embeddings included; 10 ms of a 16 ms query at 20,000 rows); from
#: these partial indexes it is an index-only scan (1–3 ms once autovacuum has marked
#: the pages visible). Dropped by migration 8, whose ledger replaced that scan.
MIGRATIONS[6] = [
    "CREATE INDEX vectors_lex_len ON vectors (lex_len) WHERE lex IS NOT NULL",
    "CREATE INDEX lexical_entries_lex_len ON lexical_entries (lex_len) WHERE lex IS NOT NULL",
]
#: X1, with migration 6: an index-only scan reads the heap for every row on a page
#: autovacuum has not yet marked visible. By default an insert-only table is vacuumed
#: after 1,000 + 20 % new rows, so a 1M-row store could lag 200,000 rows behind; at 1 %
#: the lag stays near 1 %. Measured at 20,000 rows + 4,000 inserted, 75 s later: 7,000
#: heap fetches and 4.7 ms by default, none and 1.0 ms at 1 % (autovacuum had run).
MIGRATIONS[7] = [
    "ALTER TABLE vectors SET (autovacuum_vacuum_insert_scale_factor = 0.01)",
    "ALTER TABLE lexical_entries SET (autovacuum_vacuum_insert_scale_factor = 0.01)",
]
#: X1: BM25's document count and mean length from a ledger the writes keep (see
#: :data:`~chatmem.store.postgres.lexical.PG_TOTALS_MIGRATION`), instead of migration 6's
#: index-only scan, which read the heap for every page written since autovacuum last ran.
MIGRATIONS[8] = PG_TOTALS_MIGRATION
#: X1: when an open last checked that ledger against a count of the rows (a process of an
#: older chatmem writes without booking; the count is not for every open).
MIGRATIONS[9] = PG_TOTALS_CHECK_MIGRATION
#: Every message in ``list_messages``' order (ids byte-wise, as it compares them), by
#: time and by speaker then time: a page of a listing that names no session (``chatmem
#: list --since``, ``GET /v1/messages``, ``forget`` by speaker, a day's latest
#: messages) was a sort of the whole table (``bench/listing.py``).
MIGRATIONS[10] = [
    'CREATE INDEX messages_time ON messages (ts, id COLLATE "C")',
    'CREATE INDEX messages_speaker ON messages (speaker_id, ts, id COLLATE "C")',
]
#: Each model's vector widths: a write of the indexer checks, under a lock per model,
#: that the model keeps one width (``OneWidth``), and a recall that its query's width is
#: the store's, by two seeks of this index instead of a scan of every vector.
MIGRATIONS[11] = [
    "CREATE INDEX vectors_model_dim ON vectors (model_id, dim)",
]
SCHEMA_VERSION = max(MIGRATIONS)
