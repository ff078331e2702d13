"""Reading an HTTP answer whole, within a bound: :func:`read_bounded`; the wait a
``Retry-After`` header asks for: :func:`parse_retry_after`.

``httpx`` reads a body whole before it hands the response over, however large it is:
a server (broken, misconfigured or hostile) answering 600 MB made the HTTP client hold
3.7 GB to read and parse it. chatmem's two HTTP callers, the API client and the HTTP
embedding provider, stream the body instead and stop at a bound counted after
decompression (a small gzip answer can inflate to any size).

The body is decompressed here, never more than the bound at a time: ``httpx`` inflates
each piece read from the network whole, so one 64 KiB piece of gzip became 64 MB, and
an answer sent ``Content-Encoding: gzip, gzip`` (or ``zstd``) of a few hundred bytes
inflated to hundreds of megabytes in one step before the bound was looked at (492 bytes
took 400 MB with a 1 MiB bound). Only ``gzip`` and ``deflate`` are asked for and taken,
one layer; an answer in any other coding is an :class:`httpx.DecodingError`, as a
broken gzip stream is.
"""

from __future__ import annotations

import email.utils
import json
import time
import zlib
from collections.abc import AsyncIterator, Mapping
from typing import Any

import httpx

#: Headers that described the body as sent, not as held (it is held decoded).
_TRANSFER_HEADERS = frozenset({"content-encoding", "content-length", "transfer-encoding"})
#: The content codings asked for (``Accept-Encoding``) and decoded, within the bound.
ACCEPT_ENCODING = "gzip, deflate"


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
    it (decoded); past that :class:`AnswerTooLarge`, the connection dropped. A body
    that cannot be decoded, or is in a coding not asked for, is
    :class:`httpx.DecodingError`."""
    sent = httpx.Headers(headers)
    sent["Accept-Encoding"] = ACCEPT_ENCODING
    async with client.stream(method, url, content=content, params=params,
                             headers=sent, timeout=timeout) as streamed:
        parts: list[bytes] = []
        size = 0
        if streamed.is_stream_consumed:  # made in memory, decoded (httpx.MockTransport)
            decoder, pieces = _Inflater("identity"), _one(streamed.content)
        else:
            decoder, pieces = _Inflater.for_answer(streamed.headers), streamed.aiter_raw()
        async for raw in pieces:
            # never more than one byte past the bound at a time
            chunk = decoder.decode(raw, limit - size + 1)
            size += len(chunk)
            if size > limit:
                raise AnswerTooLarge(streamed.status_code, limit)
            parts.append(chunk)
        size += len(tail := decoder.flush(limit - size + 1))
        if size > limit:
            raise AnswerTooLarge(streamed.status_code, limit)
        parts.append(tail)
    return httpx.Response(
        streamed.status_code, content=b"".join(parts), request=streamed.request,
        headers=[(k, v) for k, v in streamed.headers.multi_items()
                 if k.lower() not in _TRANSFER_HEADERS])


async def _one(data: bytes) -> AsyncIterator[bytes]:
    yield data


class _Inflater:
    """Decodes a body in its ``Content-Encoding`` (none, ``gzip`` or ``deflate``), each
    call returning at most ``room`` bytes (a caller that gets ``room`` stops reading)."""

    def __init__(self, coding: str) -> None:
        self.coding = coding
        # deflate is meant as zlib-wrapped, but some servers send it raw: decided by
        # the first bytes, as httpx does
        self._inflate = zlib.decompressobj(zlib.MAX_WBITS | 16) if coding == "gzip" \
            else zlib.decompressobj() if coding == "deflate" else None
        self._first = True

    @classmethod
    def for_answer(cls, headers: httpx.Headers) -> _Inflater:
        codings = [c.strip().lower() for c in headers.get_list("content-encoding",
                                                               split_commas=True)]
        codings = [c for c in codings if c not in ("", "identity")]
        if len(codings) > 1 or (codings and codings[0] not in ("gzip", "deflate")):
            named = ", ".join(codings)  # as JSON, as refusals.as_given shows a value
            shown = json.dumps(named[:60]) + ("…" if len(named) > 60 else "")
            raise httpx.DecodingError(
                f"the answer is in Content-Encoding {shown}, which was not "
                f"asked for (Accept-Encoding: {ACCEPT_ENCODING})")
        return cls(codings[0] if codings else "identity")

    def decode(self, data: bytes, room: int) -> bytes:
        if self._inflate is None:
            return data
        first, self._first = self._first, False
        try:
            return self._inflate.decompress(data, room)
        except zlib.error as exc:
            if first and self.coding == "deflate":
                self._inflate = zlib.decompressobj(-zlib.MAX_WBITS)  # raw deflate
                return self.decode(data, room)
            raise httpx.DecodingError(f"{self.coding} body: {exc}") from exc

    def flush(self, room: int) -> bytes:
        if self._inflate is None:
            return b""
        try:
            return self._inflate.flush(room)
        except zlib.error as exc:  # pragma: no cover
            raise httpx.DecodingError(f"{self.coding} body: {exc}") from exc


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
        except (TypeError, ValueError, IndexError, OverflowError):
            # OverflowError: a zone offset or a day of twenty digits ("+99999999999999999999")
            # passed email.utils' checks and failed in datetime; it escaped as a crash of the
            # call: a 503 the service meant as "retry" became "fail", never retried
            return None
        if when is None:
            return None
        seconds = when.timestamp() - (time.time() if now is None else now)
    if seconds != seconds:  # NaN
        return None
    return min(max(seconds, 0.0), cap)


__all__ = ["ACCEPT_ENCODING", "AnswerTooLarge", "parse_retry_after", "read_bounded"]
