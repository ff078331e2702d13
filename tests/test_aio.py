"""chatmem._aio: wait_within (asyncio.wait_for without its lost cancellations) and
run_to_end (work run to its end through cancellations)."""

from __future__ import annotations

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from chatmem._aio import run_to_end, wait_within


async def _cancelled_as_it_completes(wait: Callable[[Awaitable[Any], float], Awaitable[Any]]
                                     ) -> asyncio.Task[Any]:
    """A task waiting (through ``wait``) on a future that completes in the loop
    iteration in which the task is cancelled: what close() does to a background loop
    whose erase has just settled."""
    fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    task = asyncio.ensure_future(wait(fut, 10))
    for _ in range(3):
        await asyncio.sleep(0)
    fut.set_result(1)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    return task


async def test_a_cancellation_is_never_dropped() -> None:
    assert (await _cancelled_as_it_completes(wait_within)).cancelled()


@pytest.mark.skipif(sys.version_info >= (3, 12), reason="fixed in asyncio.wait_for 3.12")
async def test_asyncio_wait_for_drops_it_here() -> None:
    """Why the helper exists: the same case with asyncio.wait_for returns the result."""
    with pytest.raises(pytest.fail.Exception):
        await _cancelled_as_it_completes(asyncio.wait_for)


async def test_result_error_and_timeout_as_wait_for() -> None:
    async def value() -> int:
        await asyncio.sleep(0)
        return 7

    async def broken() -> None:
        raise ValueError("boom")

    cancelled = asyncio.Event()

    async def slow() -> None:
        try:
            await asyncio.sleep(30)
        except asyncio.CancelledError:
            cancelled.set()
            raise

    assert await wait_within(value(), 1) == 7
    assert await wait_within(value(), None) == 7
    with pytest.raises(ValueError, match="boom"):
        await wait_within(broken(), 1)
    with pytest.raises(asyncio.TimeoutError):
        await wait_within(slow(), 0.05)
    assert cancelled.is_set()  # the work is cancelled at the timeout, and waited for

    # the caller cancelled while the work runs: both end
    inner = asyncio.ensure_future(slow())
    cancelled.clear()
    outer = asyncio.ensure_future(wait_within(inner, 10))
    await asyncio.sleep(0.01)
    outer.cancel()
    with pytest.raises(asyncio.CancelledError):
        await outer
    await asyncio.sleep(0)
    assert inner.cancelled() and cancelled.is_set()


async def test_run_to_end_finishes_the_work_then_raises_the_cancellation() -> None:
    """chatmem._aio.run_to_end (the LangGraph store's writes and undo, the LlamaIndex
    block's put): the caller cancelled twice while the work runs, the work still runs to
    its end, and the caller's CancelledError is raised after it."""
    steps: list[int] = []
    go_on = asyncio.Event()

    async def work() -> int:
        steps.append(1)
        await go_on.wait()
        steps.append(2)
        return 7

    caller = asyncio.ensure_future(run_to_end(work()))
    for _ in range(2):
        while not steps:
            await asyncio.sleep(0)
        caller.cancel()
        await asyncio.sleep(0)
        assert not caller.done()
    go_on.set()
    with pytest.raises(asyncio.CancelledError):
        await caller
    assert steps == [1, 2]
    # uncancelled: the result; the work's own error rather than a cancellation
    assert await run_to_end(work()) == 7

    async def broken() -> None:
        await asyncio.sleep(0)
        raise ValueError("boom")

    caller = asyncio.ensure_future(run_to_end(broken()))
    await asyncio.sleep(0)
    caller.cancel()
    with pytest.raises(ValueError, match="boom"):
        await caller
    # the work itself cancelled (a future of another loop's task): raised at once
    fut: asyncio.Future[int] = asyncio.get_running_loop().create_future()
    caller = asyncio.ensure_future(run_to_end(fut))
    await asyncio.sleep(0)
    fut.cancel()
    with pytest.raises(asyncio.CancelledError):
        await caller
