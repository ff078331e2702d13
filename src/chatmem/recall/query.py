"""Query text of a recall (F4)."""

from __future__ import annotations

from collections.abc import Sequence

#: Longest query, in characters: the earliest inputs are dropped beyond it (F4).
MAX_QUERY_CHARS = 4000


def build_query(inputs: Sequence[str], limit: int = MAX_QUERY_CHARS) -> str | None:
    """This turn's input texts joined in order, dropping the earliest while too long.

    No inputs (or only blank ones) → ``None``: no search. A single input longer
    than the limit keeps its last ``limit`` characters (the most recent words).
    """
    texts = [t for t in inputs if t and t.strip()]
    while len(texts) > 1 and len("\n".join(texts)) > limit:
        texts.pop(0)
    if not texts:
        return None
    query = "\n".join(texts)
    return query[-limit:] if len(query) > limit else query
