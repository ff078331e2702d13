"""A total character budget of the rendered memory (``context_expand.max_chars``).

What the model sees is the rendered text, and a long one is paid for on every turn
and read less carefully at its end. The budget keeps the best of it:

1. hits are taken in rank order, each with its window, while the rendering fits;
   the first hit that does not fit ends the list, so the kept hits are always a
   prefix of the ranking (a lower hit never pushes out a higher one, and never
   slips in after a higher one was dropped);
2. when not even the best hit fits with its window, its neighbours go one by one,
   the one farthest from the hit first (at equal distance the earlier one);
3. when the hit alone is still too long, its body is cut with the truncation label
   (``…[truncated, N more characters]``); a label or header too long even for that
   (never with the defaults) cuts the whole text, with the same label.

Without a budget, or when everything fits, the output is :func:`render`'s, unchanged.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any
from zoneinfo import ZoneInfo

from ..models import Message, Session
from .expand import Snippet, Windows, merge_windows
from .rank import Ranked
from .render import LABELS, body_of, line_of, render, rendered_length

#: Renders some hits with the given neighbours (and a per-message cut).
Draw = Callable[..., tuple[list[Snippet], str]]


def fit(ranked: Sequence[Ranked], neighbours: Mapping[str, Sequence[Message]],
        exclude_ids: Collection[str], sessions: Mapping[str, Session], *,
        max_chars: int | None, locale: str = "en", timezone: str = "UTC",
        per_item_max_chars: int = 0,
        chat_type_labels: Mapping[tuple[str, str], str] | None = None,
        ) -> tuple[list[Snippet], str]:
    """The snippets and rendered text of ``ranked`` within ``max_chars`` (None: no limit)."""
    opts: dict[str, Any] = {"locale": locale, "timezone": timezone,
                            "chat_type_labels": chat_type_labels}

    def draw(hits: Sequence[Ranked], around: Mapping[str, Sequence[Message]],
             per_item: int = per_item_max_chars) -> tuple[list[Snippet], str]:
        snippets = merge_windows(hits, around, exclude_ids)
        return snippets, render(snippets, sessions, per_item_max_chars=per_item, **opts)

    snippets, text = draw(ranked, neighbours)
    if max_chars is None or len(text) <= max_chars:
        return snippets, text
    # 1. hits in rank order, each with its window, up to the first that does not fit:
    # each prefix's length is counted as the hits are merged (Windows' totals, each
    # message's line made once), and only the prefix kept is rendered
    labels = LABELS.get(locale, LABELS["en"])
    tz = ZoneInfo(timezone)
    ctl = chat_type_labels or {}

    def line_length(m: Message) -> int:
        return len(line_of(m, sessions.get(m.session_id), labels, tz, ctl,
                           per_item_max_chars))

    windows = Windows(exclude_ids, weight=line_length)
    fitting = 0
    for n, hit in enumerate(ranked[:-1], start=1):
        windows.add(hit, neighbours.get(hit.message.id or "", ()))
        if rendered_length(labels.header, windows.shown, windows.weight,
                           windows.blocks) > max_chars:
            break
        fitting = n
    if fitting:
        return draw(ranked[:fitting], neighbours)
    # 2. the best hit alone: its farthest neighbours go first, as few as will make it
    # fit (one hit's window is one snippet, so its length falls with each neighbour
    # left out, and the fewest is found by halving)
    hit = ranked[0]
    assert hit.message.id is not None
    window = nearest_first(hit.message, neighbours.get(hit.message.id, ()))
    # the most neighbours (fewer than all) that fit: low is the most known to fit
    # (-1: none yet), high the most that may
    low, high = -1, len(window) - 1
    best_fit: tuple[list[Snippet], str] | None = None
    while low < high:
        mid = (low + high + 1) // 2
        candidate = draw(ranked[:1], {hit.message.id: window[:mid]})
        if len(candidate[1]) <= max_chars:
            low, best_fit = mid, candidate
        else:
            high = mid - 1
    if best_fit is not None:
        return best_fit
    # 3. the hit alone, its body cut to fit
    shown = len(body_of(hit.message, labels, 0))
    if per_item_max_chars > 0:
        shown = min(shown, per_item_max_chars)
    return _truncated(hit, shown, max_chars, draw, labels.truncated)


def nearest_first(hit: Message, around: Sequence[Message]) -> list[Message]:
    """``around`` ordered by distance from the hit in the session (messages between
    them), nearest first; at equal distance the later message first, so that popping
    from the end drops the earlier one."""
    ordered = sorted([*around, hit], key=lambda m: (m.ts or 0, m.id or ""))
    at = ordered.index(hit)
    keyed = [(abs(i - at), -i, m) for i, m in enumerate(ordered) if i != at]
    keyed.sort(key=lambda t: (t[0], t[1]))
    return [m for _, _, m in keyed]


def _truncated(hit: Ranked, shown: int, max_chars: int, draw: Draw, label: str
               ) -> tuple[list[Snippet], str]:
    """``shown``: the length of the hit's body as rendered without the budget."""
    snippets, text = draw([hit], {})
    # shorten the body until the whole text fits (the truncation label and its number
    # take room too, hence the loop; it runs a step or two)
    keep = shown - (len(text) - max_chars)
    while keep >= 1:
        snippets, text = draw([hit], {}, per_item=keep)
        if len(text) <= max_chars:
            return snippets, text
        keep -= max(1, len(text) - max_chars)
    # not even one character of the body fits beside its label and the header
    cut = max(0, max_chars - len(label.format(n=len(text))))
    while cut > 0 and len(text[:cut]) + len(label.format(n=len(text) - cut)) > max_chars:
        cut -= 1
    return snippets, (text[:cut] + label.format(n=len(text) - cut))[:max_chars]
