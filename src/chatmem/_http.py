"""Reading an HTTP answer whole, within a bound: :func:`read_bounded`; the wait a
``Retry-After`` header asks for: :func:`parse_retry_after`.

``httpx`` reads a body whole before it hands the response over, however large it is:
a server (broken, misconfigured or hostile) answering 600 MB made the HTTP client hold
3.7 GB to read and parse it. chatmem's two HTTP callers, the API client and the HTTP
embedding provider, stream the body instead and stop at a bound counted after
decompression (a small gzip answer can inflate to any size).
"""

from __future__ import annotations

import email.utils
import time
from collections.abc import Mapping
from typing import Any

import httpx

#: Headers that described the body as sent, not as held (it is held decoded).
_TRANSFER_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})


class AnswerTooLarge(Exception):
    """The answer's body passed ``limit`` bytes; it was not read further."""

    def __init__(self, status: int, limit: int) -> None:
        super().__init__(f"the answer is larger than {limit} bytes; not read further")
        self.status = status
        self.limit = limit


async def read_bounded(client: httpx.AsyncClient, method: str, url: str, *, limit: int,
                       content: bytes | None = None,
                       params: Mapping[str, str] | None = None,
                       headers: Mapping[str, str] | None = None,
                       timeout: Any = httpx.USE_CLIENT_DEFAULT) -> httpx.Response:
    """Send one request and return its answer read whole, at most ``limit`` bytes of
    it (decoded); past that :class:`AnswerTooLarge`, the connection dropped."""
    async with client.stream(method, url, content=content, params=params,
                             headers=headers, timeout=timeout) as streamed:
        parts: list[bytes] = []
        size = 0
        async for chunk in streamed.aiter_bytes():
            size += len(chunk)
            if size > limit:
                raise AnswerTooLarge(streamed.status_code, limit)
            parts.append(chunk)
    return httpx.Response(
        streamed.status_code, content=b"".join(parts), request=streamed.request,
        headers=[(k, v) for k, v in streamed.headers.multi_items()
                 if k.lower() not in _TRANSFER_HEADERS])



def parse_retry_after(value: str | None, *, cap: float, now: float | None = None
                      ) -> float | None:
    """Seconds to wait from a ``Retry-After`` header (delta seconds or an HTTP date);
    None when absent or unreadable; at most ``cap`` (a broken or hostile header
    must not stall the caller for days)."""
    if not value:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        try:
            when = email.utils.parsedate_to_datetime(value)
        except (TypeError, ValueError, IndexError):
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), cap)


__all__ = ["AnswerTooLarge", "parse_retry_after", "read_bounded"]
