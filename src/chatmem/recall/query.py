"""Query text of a recall (F4)."""

from __future__ import annotations

import re
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


#: Words that ask for the present state of something ("where do I live *now*", "我*现在*
#: 住哪"): a fact that changed is asked about with them, and then the newer statement
#: should win (issue 12, knowledge updates). English as whole words, Chinese as is.
CURRENT_STATE_EN = ("now", "currently", "current", "at the moment", "these days",
                    "nowadays", "still", "anymore", "any more", "latest", "most recent",
                    "recently", "lately", "in the end", "end up", "ended up", "finally",
                    "so far")
CURRENT_STATE_ZH = ("现在", "目前", "最近", "如今", "眼下", "这几天", "这阵子", "还在",
                    "最后", "最终", "后来", "到底", "最新", "当前")
_CURRENT_STATE_RE = re.compile(
    r"\b(?:" + "|".join(re.escape(w).replace(r"\ ", r"\s+") for w in CURRENT_STATE_EN)
    + r")\b|" + "|".join(CURRENT_STATE_ZH), re.IGNORECASE)


def asks_current_state(query: str) -> bool:
    """Whether ``query`` asks for how things are *now* (:data:`CURRENT_STATE_EN`, ``_ZH``)."""
    return _CURRENT_STATE_RE.search(query) is not None
