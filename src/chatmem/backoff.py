"""The one backoff formula of the project: a pause that starts small and doubles with
each failure in a row, up to a cap (E12).

It sits at the bottom layer so that every layer may use it: the indexer's retries of
embeddings and writes (:mod:`chatmem.indexing`) and the PostgreSQL store's attempts to
listen again for pending announcements (:func:`chatmem.store.postgres.listen_retry_pause`)
pause by the same doubling, written once."""

from __future__ import annotations

__all__ = ["retry_delay"]


def retry_delay(attempts: int, initial_s: float, max_s: float, jitter: float = 0.0) -> float:
    """Seconds from a failed attempt to the next (E12): ``initial_s`` after the first
    failure (``attempts`` = 1), doubled by each further one, at most ``max_s``, less the
    share ``jitter`` (0 to :data:`chatmem.indexing.RETRY_JITTER`) of it. The exponent
    is capped, so that however many failures there were it does not overflow."""
    base = min(max_s, initial_s * 2.0 ** min(max(attempts - 1, 0), 64))
    return base * (1.0 - jitter)
