"""Small asyncio pieces the standard library gets wrong on the Pythons chatmem runs on.

:func:`asyncio.wait_for` before Python 3.12 drops a cancellation that arrives in the
loop iteration in which the awaited work completes: the caller gets the result and
carries on, as if never cancelled (CPython gh-86296). chatmem cancels its background
loops on close; a retention sweeper cancelled while an erase settled swept on every
interval for ever, and ``Memory.close()`` waited for it for ever (about one close in
twelve in ``tests/test_retention.py``).

:func:`run_to_end` is the other half: work that must not stop half done (a write whose
undo needs it whole) runs to its end however often the caller is cancelled, and the
cancellation is raised after.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable
from typing import TypeVar

T = TypeVar("T")


async def wait_within(work: Awaitable[T], timeout: float | None) -> T:
    """``await work``, raising :class:`asyncio.TimeoutError` after ``timeout`` seconds
    (``None``: no limit) and cancelling it, like :func:`asyncio.wait_for`; but a
    cancellation of the caller always propagates (the work is cancelled with it)."""
    task = asyncio.ensure_future(work)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout)
    except asyncio.CancelledError:
        task.cancel()
        raise
    if not done:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        raise asyncio.TimeoutError
    return task.result()


async def run_to_end(work: Awaitable[T]) -> T:
    """``await work``, run to its end even when the caller is cancelled meanwhile, once or
    again and again, the cancellation raised once it has ended (a graph run stopped
    mid-``put``: the old item was erased and the new one not yet stored; a LlamaIndex
    flush whose messages are taken off its queue). ``work``'s own error, if it fails,
    is raised instead (the caller learns the work was not done); ``work`` itself
    cancelled (a future of another loop's task, cancelled there) raises at once."""
    task = asyncio.ensure_future(work)
    cancelled: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError as exc:
            if task.cancelled():
                raise
            cancelled = cancelled or exc  # the first, with its message (cancel("why"))
    result = task.result()
    if cancelled is not None:
        raise cancelled
    return result
