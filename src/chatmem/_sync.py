"""Blocking wrappers over the async core, for scripts: one private event loop in a thread.

:class:`~chatmem.SyncMemory` and :class:`~chatmem.embedding.SyncEmbedder` are
made the same way: a :class:`BlockingWrapper` owns an event loop running in a
daemon thread, and each blocking method is the async method of the same name
run to completion there (:func:`blocking`), typed from the original. There is
no second copy of any logic, and nothing to keep in step by hand.

A call that cannot be run is refused with an error (the subclass's
:attr:`~BlockingWrapper.closed_error` or :attr:`~BlockingWrapper.usage_error`) instead
of waiting for ever: after :meth:`BlockingWrapper.close` (a call still
running in another thread when it closes ends with the same error), from the
wrapper's own loop thread (a callback such as ``reindex(progress=…)`` calling back
in), or in a process forked after the wrapper was made (the loop's thread does not
survive a fork). A call whose task something on the loop cancels, neither
:meth:`~BlockingWrapper.close` nor its caller, ends with the subclass's
:attr:`~BlockingWrapper.cancelled_error` saying so (:meth:`BlockingWrapper._submit`),
not a bare ``CancelledError`` the caller would read as its own.

A wrapper dropped without :meth:`~BlockingWrapper.close` is closed when it is
garbage-collected, with a :class:`ResourceWarning` (as an unclosed file is): its
loop thread would otherwise keep the object, and a store's lock, for the life of
the process.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import functools
import logging
import os
import threading
import warnings
import weakref
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Concatenate, Generic, ParamSpec, TypeVar

C = TypeVar("C")  # the async object a wrapper holds
T = TypeVar("T")
P = ParamSpec("P")
W = TypeVar("W", bound="BlockingWrapper[Any]")

#: Name of the thread running a wrapper's event loop.
THREAD_NAME = "chatmem-sync"
#: Seconds the close of a dropped wrapper may take before its thread is left running.
DROPPED_CLOSE_S = 60.0

log = logging.getLogger("chatmem.sync")


class BlockingWrapper(Generic[C]):
    """Holds an async object and runs its coroutines on a private loop in a thread.

    ``factory`` builds the object on that loop (so anything it binds to the running
    loop binds to this one); if it fails, the thread is stopped before the error
    propagates. Subclasses say how the object is closed (:meth:`_aclose_object`) and
    which errors a call that cannot run raises (chatmem's own: this module is below
    :mod:`chatmem.errors` in the layers).
    """

    #: The error of a call after :meth:`close`.
    closed_error: type[Exception] = RuntimeError
    #: The error of a call that would wait for ever: from a forked process, or from the
    #: wrapper's own loop thread.
    usage_error: type[Exception] = RuntimeError
    #: The error of a call cancelled on the wrapper's loop by something else than
    #: :meth:`close` or its caller (:meth:`cancelled_on_loop`).
    cancelled_error: type[Exception] = RuntimeError

    def __init__(self, factory: Callable[[], Awaitable[C]]) -> None:
        self._loop = asyncio.new_event_loop()
        self._pid = os.getpid()
        self._closed = False
        #: Orders each call's submission against close(): none reaches a stopped loop.
        self._submit_lock = threading.Lock()
        #: Held through close(), so that a second close() returns once the first is done.
        self._close_lock = threading.Lock()
        #: Set when the loop is told to stop: its thread then ends (_serve).
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=_serve, args=(self._loop, self._stopping),
                                        daemon=True, name=THREAD_NAME)
        self._thread.start()
        try:
            self._inner: C = self.wait(self._submit(factory()))
        except BaseException:
            try:
                # interrupted (Ctrl-C): the factory, cancelled, closes what it opened (a
                # store and its file lock) before the loop stops, not never
                self._submit(_tasks_ended(DROPPED_CLOSE_S)).result()
            finally:
                self._stop_loop()
            raise
        # Not at exit: by then the executors a close needs are shut down, and the daemon
        # thread ends with the process anyway.
        self._finalizer = weakref.finalize(
            self, _close_dropped, type(self).__name__, self._pid, self._loop,
            self._thread, self._stopping, type(self)._aclose_object, self._inner)
        self._finalizer.atexit = False

    # The seam for integrations that run the wrapped object's coroutines themselves (the
    # LangGraph store, the LlamaIndex memory block): they use these, never the private
    # attributes (tests/test_layers.py checks it).

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The event loop that runs the wrapped object, in the wrapper's own thread
        (closed once :meth:`close` has run): a coroutine of the object runs there only,
        submitted with :meth:`start` (or ``asyncio.run_coroutine_threadsafe``) from
        another thread."""
        return self._loop

    @property
    def closed(self) -> bool:
        """Whether :meth:`close` has begun (a call then fails with :attr:`closed_error`)."""
        return self._closed

    def in_own_thread(self) -> bool:
        """Whether the caller runs on the wrapper's loop thread (a callback the wrapped
        object runs): a blocking call there would wait for itself for ever, and a
        coroutine of the object can be awaited there directly. The thread itself is
        compared, not its id, which the system gives to a later thread once the loop's
        has ended (after :meth:`close`)."""
        return threading.current_thread() is self._thread

    def _refusal(self) -> Exception | None:
        """Why a call cannot run now (it would fail or wait for ever), else ``None``."""
        name = type(self).__name__
        if os.getpid() != self._pid:
            return self.usage_error(
                f"this {name} was opened in process {self._pid}, and this process is a "
                "fork of it: its event loop thread did not survive the fork. Open "
                f"another {name} in this process")
        if self.in_own_thread():
            return self._own_thread_error()
        if self._closed:
            return self.closed_error(f"this {name} is closed: open another one")
        return None

    def _own_thread_error(self) -> Exception:
        name = type(self).__name__
        return self.usage_error(
            f"a {name} method was called on the {name}'s own event loop thread (from a "
            "callback it runs, such as reindex(progress=…) or a telemetry listener): it "
            "would wait for itself for ever. Make the call after the method that runs "
            "the callback has returned")

    def _submit(self, coro: Coroutine[Any, Any, T] | Awaitable[T]
                ) -> concurrent.futures.Future[T]:
        """``coro`` run as a task of the wrapper's loop: its future, which the caller may
        cancel (the task is then cancelled), as ``asyncio.run_coroutine_threadsafe``
        gives one. The task cancelled on the loop by something else than the caller or
        :meth:`close` (a task canceller there, before or after it began, or a
        ``CancelledError`` raised in it) ends the future with :meth:`cancelled_on_loop`,
        where it raised the caller a ``CancelledError`` as if it had cancelled it."""
        loop, wrapper = self._loop, weakref.ref(self)  # no reference to the wrapper held
        handed: concurrent.futures.Future[T] = concurrent.futures.Future()
        said: list[str | None] = []  # once it began: the message it was cancelled with

        async def _await() -> T:
            said.append(None)
            try:
                return await coro
            except asyncio.CancelledError as exc:
                said[0] = cancel_message(exc)
                raise

        def ended(task: asyncio.Task[T]) -> None:  # on the loop
            if task.cancelled():
                if not said and isinstance(coro, Coroutine):
                    coro.close()  # never run: no "never awaited" warning
                owner = wrapper()
                if handed.cancelled() or owner is None or owner.closed:
                    handed.cancel()  # by the caller, or by close(): wait() says which
                    return
                outcome: BaseException | None = owner.cancelled_on_loop(said[0] if said else None)
            else:
                outcome = task.exception()
            if not handed.set_running_or_notify_cancel():
                return  # the caller cancelled it meanwhile
            if outcome is not None:
                handed.set_exception(outcome)
            else:
                handed.set_result(task.result())

        def begin() -> None:  # on the loop
            if handed.cancelled():
                if isinstance(coro, Coroutine):
                    coro.close()
                return
            task = loop.create_task(_await())
            task.add_done_callback(ended)
            # after the task is made: a cancel made before runs this callback now
            handed.add_done_callback(functools.partial(_cancel_task, loop, task))

        loop.call_soon_threadsafe(begin)
        return handed

    def start(self, coro: Coroutine[Any, Any, T] | Awaitable[T]
              ) -> concurrent.futures.Future[T]:
        """``coro`` submitted to the wrapper's loop, or why it cannot run now raised
        (:meth:`_refusal`; the coroutine is closed unrun, so no "never awaited"
        warning). Also for callers that await the future on a loop of their own."""
        with self._submit_lock:
            refusal = self._refusal()
            if refusal is None:
                return self._submit(coro)
        if isinstance(coro, Coroutine):
            coro.close()
        raise refusal

    def closed_while_running(self) -> Exception:
        """The error of a call that :meth:`close` ended while it ran."""
        return self.closed_error(f"this {type(self).__name__} was closed while the call ran")

    def cancelled_on_loop(self, message: str | None = None) -> Exception:
        """The error of a call whose task was cancelled on the wrapper's loop, neither by
        :meth:`close` nor by its caller (``message``: the cancellation's, if any)."""
        name = type(self).__name__
        said = f" (with the message {message!r})" if message else ""
        return self.cancelled_error(
            f"a {name} call was cancelled on the {name}'s event loop{said}, neither by "
            "close() nor by its caller: by code running on that loop (a callback or "
            "listener it runs, or a coroutine started there, cancelling the call's task) "
            "or, if none cancels tasks there, by chatmem itself (please report it). The "
            "call did not finish: make it again, and cancel a call from its caller (the "
            "future start() returned), never on the loop")

    def wait(self, future: concurrent.futures.Future[T]) -> T:
        """The result of ``future`` (one :meth:`start` gave), waited for as the wrapper's
        own calls wait: ended by :meth:`close`, :meth:`closed_while_running` is raised;
        cancelled on the loop by something else than its caller (a task canceller
        there), :meth:`cancelled_on_loop`; the wait interrupted (``KeyboardInterrupt``),
        the work is cancelled too. Cancelled by its caller (``future.cancel()``), it
        raises ``concurrent.futures.CancelledError``."""
        try:
            return future.result()
        except concurrent.futures.CancelledError:
            if self._closed:  # close() ended the call while it ran
                raise self.closed_while_running() from None
            raise
        except BaseException:
            # e.g. KeyboardInterrupt while waiting: the work stops too (a no-op once done)
            future.cancel()
            raise

    def _run(self, coro: Coroutine[Any, Any, T] | Awaitable[T]) -> T:
        return self.wait(self.start(coro))

    @staticmethod
    async def _aclose_object(inner: Any) -> None:
        """Close the wrapped object (run on the wrapper's loop by :meth:`close`, and when
        a wrapper nobody closed is garbage-collected: a static method, so that closing
        needs no reference to the wrapper)."""
        raise NotImplementedError

    def close(self) -> None:
        """Close the wrapped object, then stop the loop and its thread (idempotent). Calls
        still running in other threads end with :attr:`closed_error`. In a forked
        process it only marks the wrapper closed: the loop and the connections are the
        parent's."""
        if os.getpid() != self._pid:
            self._closed = True
            return
        if self.in_own_thread():
            if self._closed:
                return
            raise self._own_thread_error()  # the loop cannot stop itself and go on
        with self._close_lock:
            with self._submit_lock:
                if self._closed:
                    return
                self._closed = True
            self._finalizer.detach()
            try:
                self.wait(self._submit(self._aclose_object(self._inner)))
            finally:
                try:
                    self.wait(self._submit(_cancel_other_tasks()))
                finally:
                    self._stop_loop()

    def _stop_loop(self) -> None:
        _stop(self._loop, self._thread, self._stopping)

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


def _serve(loop: asyncio.AbstractEventLoop, stopping: threading.Event) -> None:
    """The loop thread: ``loop`` run until it is told to stop (:func:`_stop`). A task whose
    work raises KeyboardInterrupt or SystemExit (a ``reindex(progress=…)`` callback
    calling ``sys.exit()``) keeps it as its outcome, and asyncio raises it out of the
    loop as well: the thread ended there, the call and every later one (``close()``
    too) waited for ever for a loop nobody ran. The loop now runs on, and hands the
    exception to the call's waiter, which raises it in its own thread, as if the work
    had run there. Stopped by anything but :func:`_stop` (``wrapper.loop`` is public:
    code outside chatmem may send it ``loop.stop()``), it runs on too, with a warning:
    the thread ended there, and every later call waited for ever."""
    while True:
        try:
            loop.run_forever()
        except (KeyboardInterrupt, SystemExit):
            if not stopping.is_set():
                continue
        if stopping.is_set():
            return
        log.warning("the event loop of a chatmem blocking wrapper (SyncMemory, "
                    "SyncEmbedder, Client) was stopped by code outside chatmem; it runs on "
                    "(close() the wrapper to stop it)")


def _stop(loop: asyncio.AbstractEventLoop, thread: threading.Thread,
          stopping: threading.Event) -> None:
    """Stop the loop :func:`_serve` runs in ``thread``, wait for the thread, close it."""
    stopping.set()
    loop.call_soon_threadsafe(loop.stop)
    thread.join()
    loop.close()


def _close_dropped(name: str, pid: int, loop: asyncio.AbstractEventLoop,
                   thread: threading.Thread, stopping: threading.Event,
                   aclose: Callable[[Any], Coroutine[Any, Any, None]], inner: Any) -> None:
    """Close what a wrapper garbage-collected without close() held, then stop its loop."""
    if os.getpid() != pid or loop.is_closed():
        return  # a forked child's copy: the loop and the connections are the parent's
    warnings.warn(f"a {name} was not closed: closed now that nothing refers to it; call "
                  "close() or use it in a with block", ResourceWarning, stacklevel=2)

    async def close_and_cancel() -> None:
        try:
            await aclose(inner)
        finally:
            await _cancel_other_tasks()

    if threading.current_thread() is thread:  # dropped by a callback on its own loop
        task = loop.create_task(close_and_cancel())
        stopping.set()
        task.add_done_callback(lambda _: loop.stop())
        return
    try:
        asyncio.run_coroutine_threadsafe(close_and_cancel(), loop).result(DROPPED_CLOSE_S)
    except concurrent.futures.TimeoutError:
        log.warning("an unclosed %s did not close within %.0f s; its thread is left running",
                    name, DROPPED_CLOSE_S)
        return
    except Exception:
        log.warning("closing an unclosed %s failed", name, exc_info=True)
    _stop(loop, thread, stopping)


def _other_tasks() -> list[asyncio.Task[Any]]:
    """Every task of the running loop but the current one."""
    current = asyncio.current_task()
    return [t for t in asyncio.all_tasks() if t is not current]


async def _cancel_other_tasks() -> None:
    """Cancel every task of the running loop but this one, and wait for them: the calls
    that other threads still wait on (they get the wrapper's closed error)."""
    others = _other_tasks()
    for task in others:
        task.cancel()
    await asyncio.gather(*others, return_exceptions=True)


async def _tasks_ended(timeout: float) -> None:
    """Wait, at most ``timeout`` seconds, until every other task of the running loop has
    ended by itself (a cancelled call finishing its clean-up; cancelling it again would
    cut the clean-up short)."""
    others = _other_tasks()
    if others:
        await asyncio.wait(others, timeout=timeout)


def _cancel_task(loop: asyncio.AbstractEventLoop, task: asyncio.Task[Any],
                 handed: concurrent.futures.Future[Any]) -> None:
    """``task`` cancelled on ``loop`` once its caller cancelled ``handed``, its future (in
    the caller's thread: a no-op once the task ended)."""
    if handed.cancelled():
        with contextlib.suppress(RuntimeError):  # the loop closed: the task ended with it
            loop.call_soon_threadsafe(task.cancel)


def cancel_message(exc: BaseException) -> str | None:
    """The message a cancellation was given (``task.cancel("why")``), else ``None``."""
    return str(exc.args[0]) if exc.args and exc.args[0] is not None else None


async def ready(value: T) -> T:
    """A factory's coroutine for an object built outside the loop."""
    return value


__all__ = ["THREAD_NAME", "BlockingWrapper", "blocking", "cancel_message", "ready"]
