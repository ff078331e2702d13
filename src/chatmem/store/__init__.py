"""Storage backends chosen by URL (S3).

SQLite URLs follow SQLAlchemy's convention: three slashes and a relative path,
four slashes (three plus the path's own) for an absolute one.

===============================  ==========================================
URL                              backend
===============================  ==========================================
``sqlite:///chat.db``            SQLite file ``./chat.db`` (relative to the
                                 working directory): messages and vectors
``sqlite:////abs/path.db``       SQLite file ``/abs/path.db`` (absolute)
a plain path (``chat.db``,       the same; ``~`` is expanded, nothing else
``/abs/path.db``)                is decoded
``memory://``                    SQLite in memory (ephemeral); also
                                 ``sqlite:///:memory:``
``postgresql://…``               PostgreSQL + pgvector: messages and vectors
``qdrant://host:port``           Qdrant server: vectors only
``qdrant+local:///path``         Qdrant local mode (``:memory:`` or a folder)
===============================  ==========================================

A SQLite URL takes no host (``sqlite://host/x.db`` is refused) and no options
(``?…`` or ``#…`` is refused); in its path, ``%xx`` is decoded, so a file name
with ``?``, ``#`` or ``%`` is written ``%3F``, ``%23``, ``%25`` (or given as a
plain path, taken literally).
"""

from .base import IndexedStore, MessageStore, VectorIndex
from .sqlite import APPLICATION_ID, SqliteStore
from .storage import Storage
from .urls import open_store, open_vector_index, sqlite_path

__all__ = ["APPLICATION_ID", "IndexedStore", "MessageStore", "SqliteStore", "Storage",
           "VectorIndex", "open_store", "open_vector_index", "sqlite_path"]
