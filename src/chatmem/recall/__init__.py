"""The recall pipeline as plain functions (F4–F6), in the order they run:

request (:mod:`.request`: check and plan) → candidates (the indexes, in ``Memory``)
→ admission (:mod:`.admit`) → rerank (:mod:`.rank`) → expand (:mod:`.expand`,
neighbours from the store) → render (:mod:`.render`, within the character budget of
:mod:`.budget`) → result (:mod:`.result`).
"""

from .admit import Admission, admit, admit_messages, attributed, by_model, full_text_only
from .budget import fit
from .expand import Snippet, merge_windows
from .query import MAX_QUERY_CHARS, build_query
from .rank import Candidate, Ranked, recency, rerank
from .render import LABELS, render
from .request import RecallPlan, RecallRequest, TurnInput, plan
from .result import Hit, RecallResult, hits_with_context

__all__ = [
    "LABELS",
    "MAX_QUERY_CHARS",
    "Admission",
    "Candidate",
    "Hit",
    "Ranked",
    "RecallPlan",
    "RecallRequest",
    "RecallResult",
    "Snippet",
    "TurnInput",
    "admit",
    "admit_messages",
    "attributed",
    "build_query",
    "by_model",
    "fit",
    "full_text_only",
    "hits_with_context",
    "merge_windows",
    "plan",
    "recency",
    "render",
    "rerank",
]
