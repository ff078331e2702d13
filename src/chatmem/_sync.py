"""Blocking wrappers over the async core, for scripts: one private event loop in a thread.

:class:`~chatmem.SyncMemory` and :class:`~chatmem.embedding.SyncEmbedder` are
made the same way: a :class:`BlockingWrapper` owns an event loop running in a
daemon thread, and each blocking method is the async method of the same name
run to completion there (:func:`blocking`), typed from the original. There is
no second copy of any logic, and nothing to keep in step by hand.
"""

from __future__ import annotations

import asyncio
import functools
import threading
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

C = TypeVar("C")  # the async object a wrapper holds
T = TypeVar("T")
P = ParamSpec("P")
W = TypeVar("W", bound="BlockingWrapper[Any]")

#: Name of the thread running a wrapper's event loop.
THREAD_NAME = "chatmem-sync"


class BlockingWrapper(Generic[C]):
    """Holds an async object and runs its coroutines on a private loop in a thread.

    ``factory`` builds the object on that loop (so anything it binds to the running
    loop binds to this one); if it fails, the thread is stopped before the error
    propagates. Subclasses say how the object is closed (:meth:`_aclose_inner`).
    """

    def __init__(self, factory: Callable[[], Awaitable[C]]) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name=THREAD_NAME)
        self._thread.start()
        try:
            self._inner: C = self._run(factory())
        except BaseException:
            self._stop_loop()
            raise

    def _run(self, coro: Coroutine[Any, Any, T] | Awaitable[T]) -> T:
        async def _await() -> T:
            return await coro

        return asyncio.run_coroutine_threadsafe(_await(), self._loop).result()

    async def _aclose_inner(self) -> None:
        """Close the wrapped object (run on the wrapper's loop by :meth:`close`)."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the wrapped object, then stop the loop and its thread (idempotent)."""
        if self._loop.is_closed():
            return
        try:
            self._run(self._aclose_inner())
        finally:
            self._stop_loop()

    def _stop_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self: W) -> W:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def blocking(method: Callable[Concatenate[C, P], Coroutine[Any, Any, T]]
             ) -> Callable[Concatenate[BlockingWrapper[C], P], T]:
    """The blocking form of one coroutine method of the wrapped class: same parameters,
    same docstring, the awaited result."""

    @functools.wraps(method)
    def call(self: BlockingWrapper[C], /, *args: P.args, **kwargs: P.kwargs) -> T:
        return self._run(method(self._inner, *args, **kwargs))

    return call


async def ready(value: T) -> T:
    """A factory's coroutine for an object built outside the loop."""
    return value


__all__ = ["THREAD_NAME", "BlockingWrapper", "blocking", "ready"]
