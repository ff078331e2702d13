"""The recall pipeline as plain functions: query → rank → expand → render (F4–F6)."""

from .expand import Snippet, merge_windows
from .query import MAX_QUERY_CHARS, build_query
from .rank import Candidate, Ranked, recency, rerank
from .render import LABELS, render

__all__ = [
    "LABELS",
    "MAX_QUERY_CHARS",
    "Candidate",
    "Ranked",
    "Snippet",
    "build_query",
    "merge_windows",
    "recency",
    "render",
    "rerank",
]
