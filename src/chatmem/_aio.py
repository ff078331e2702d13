"""Small asyncio pieces the standard library gets wrong on the Pythons chatmem runs on.

:func:`asyncio.wait_for` before Python 3.12 drops a cancellation that arrives in the
loop iteration in which the awaited work completes: the caller gets the result and
carries on, as if never cancelled (CPython gh-86296). chatmem cancels its background
loops on close; a retention sweeper cancelled while an erase settled swept on every
interval for ever, and ``Memory.close()`` waited for it for ever (about one close in
twelve in ``tests/test_retention.py``).
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
