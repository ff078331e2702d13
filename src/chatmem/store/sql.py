"""What the SQL message stores (SQLite, PostgreSQL) share: the rules written as SQL.

The two stores differ in driver (sync ``sqlite3`` on a thread, async psycopg),
placeholders and types, but not in what they select: these constants and
helpers are the one statement of those rules, so the backends cannot drift.
"""

from __future__ import annotations

from ..models import CONTROL_KINDS, DIRECTIVE_KINDS, INDEXED_ROLES, PENDING_MODEL, IndexState

#: Kinds ``range`` and ``recent`` never return (control markers and directives).
HIDDEN_KINDS: tuple[str, ...] = tuple(sorted(CONTROL_KINDS | DIRECTIVE_KINDS))

#: States of messages waiting for the indexer (the ``messages_waiting`` partial index).
WAITING_STATES: tuple[IndexState, ...] = (IndexState.PENDING, IndexState.FAILED)

#: ``IN (...)`` list of :data:`WAITING_STATES`, for DDL (no parameters there).
WAITING_STATES_SQL = "(" + ", ".join(str(int(s)) for s in WAITING_STATES) + ")"

#: The states as SQL literals (partial indexes need literals, not parameters, to be used).
PENDING_SQL = str(int(IndexState.PENDING))
FAILED_SQL = str(int(IndexState.FAILED))

#: A full-text entry row that stands for a message without a vector yet (``lexical_entries``
#: of both SQL stores; a literal, so that the partial index on it is used).
PENDING_ENTRY_SQL = f"model_id = '{PENDING_MODEL}'"

_INDEXED_ROLES_SQL = "(" + ", ".join(f"'{r}'" for r in sorted(INDEXED_ROLES)) + ")"

#: The index state as ``stats`` counts it: an indexable message (F1,
#: ``Message.indexable``) left SKIPPED by the clear of an older chatmem counts as CLEARED.
STATE_FOR_STATS = (
    f"CASE WHEN index_state = {int(IndexState.SKIPPED)} AND role IN {_INDEXED_ROLES_SQL} "
    "AND kind = 'message' AND (source IS NULL OR source = '') "
    f"THEN {int(IndexState.CLEARED)} ELSE index_state END"
)


def waiting(state: IndexState) -> bool:
    """Whether a message in ``state`` waits for the indexer (and so has a pending
    full-text entry unless it has a vector)."""
    return state in WAITING_STATES

