"""SyncMemory offers every public method of Memory, with the same parameters, and no
logic of its own (issue 10: typed methods, checked against Memory)."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import signal
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from chatmem import Memory, Message, SyncMemory
from chatmem.embedding import Embedder
from chatmem.errors import ChatmemError, EventLoopMisuse, InvalidInput, StoreClosed, StoreError
from providers import RecordingProvider

#: Memory's seams for the integrations, which run on the memory's own event loop (its
#: asyncio locks, and an erase for a caller holding them): a blocking twin could hold
#: no such lock. A SyncMemory's integration reaches them as ``mem.memory.item_lock``, on
#: ``mem.loop`` (README § Architecture).
ASYNC_ONLY = {"erase_held", "item_lock", "rewrite_lock"}


def _public(cls: type) -> dict[str, object]:
    return {name: fn for name, fn in vars(cls).items()
            if not name.startswith("_") and callable(fn)
            and name not in ("open", "close", *ASYNC_ONLY)}


def test_every_public_memory_method_has_a_blocking_twin_with_the_same_parameters() -> None:
    sync = _public(SyncMemory)
    for name, fn in _public(Memory).items():
        assert name in sync, f"SyncMemory has no {name}()"
        assert inspect.signature(sync[name]) == inspect.signature(fn), name  # type: ignore[arg-type]
        assert not inspect.iscoroutinefunction(sync[name]), name
        assert sync[name].__doc__ == fn.__doc__, name  # type: ignore[attr-defined]


def test_sync_memory_runs_and_raises_like_the_async_core(tmp_path: Path) -> None:
    with SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider())) as mem:
        [stored] = mem.add(Message(session_id="s", content="hello sync world"))
        mem.flush(timeout=10)
        assert mem.recall("hello sync world", session="s").hits[0].message.id == stored.id
        assert mem.tool_schema()["function"]["name"] == "memory_recall"
        with pytest.raises(InvalidInput):
            mem.add(None)  # type: ignore[arg-type]


def test_a_failed_open_leaves_no_thread_behind(tmp_path: Path) -> None:
    import threading

    before = {t.name for t in threading.enumerate()}
    (tmp_path / "dir.db").mkdir()
    with pytest.raises(StoreError):
        SyncMemory.open(str(tmp_path / "dir.db"), embedder=Embedder(RecordingProvider()))
    assert {t.name for t in threading.enumerate()} - before <= {"chatmem-sqlite_0"}
    assert not any(t.name == "chatmem-sync" for t in threading.enumerate())


# ------------------------------------------------------------------ calls that cannot run
# (an audit's findings: each of these waited for ever, or raised a raw RuntimeError)

class _Held(RecordingProvider):
    """Embeds a text containing ``hold`` only after ``release`` is set (or never); says
    when such a call started and whether it was cancelled."""

    def __init__(self) -> None:
        super().__init__()
        import threading

        self.started = threading.Event()
        self.cancelled = threading.Event()
        #: The tasks the held calls ran in.
        self.tasks: list[asyncio.Task[Any]] = []
        self.release: asyncio.Event | None = None

    async def embed(self, texts: Any, role: Any) -> Any:
        if any("hold" in str(t) for t in texts):
            self.tasks.append(asyncio.current_task())  # type: ignore[arg-type]
            self.started.set()
            try:
                await asyncio.sleep(60)
            except asyncio.CancelledError:
                self.cancelled.set()
                raise
        return await super().embed(texts, role)


def test_a_call_after_close_is_store_closed_as_in_the_async_core(tmp_path: Path) -> None:
    mem = SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider()))
    mem.close()
    mem.close()  # twice is fine
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no "coroutine ... was never awaited"
        with pytest.raises(StoreClosed, match="SyncMemory is closed"):
            mem.add(Message(session_id="s", content="too late"))
        with pytest.raises(StoreClosed):
            mem.stats()


def test_a_call_after_close_from_a_new_thread_is_store_closed(tmp_path: Path) -> None:
    """The loop thread was recognised by its id, which the system gives to the next
    thread once the loop's has ended: after close(), a call from a new thread (1 of 3
    here, often each) was refused as "called on the SyncMemory's own event loop thread"
    (InvalidInput), which it was not, instead of StoreClosed. The thread itself is
    compared now."""
    import threading

    mem = SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider()))
    mem.close()
    errors: list[BaseException] = []

    def call() -> None:
        try:
            mem.get_session("s")
        except BaseException as exc:  # each kept, to be checked below
            errors.append(exc)

    for _ in range(8):
        thread = threading.Thread(target=call)
        thread.start()
        thread.join()
    assert len(errors) == 8
    assert all(isinstance(e, StoreClosed) for e in errors), errors


def test_a_loop_stopped_by_code_outside_chatmem_runs_on(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """``sync.loop`` is public (integrations submit to it): a ``loop.stop()`` sent there
    by code outside chatmem ended the loop's thread, and every later call, close()
    too, waited for ever for a loop nobody ran. The thread runs the loop again unless
    close() stopped it, logging why."""
    mem = SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider()))
    with _deadline(30), caplog.at_level("WARNING", logger="chatmem"):
        mem.add(Message(session_id="s", content="before the stop"))
        for _ in range(2):
            mem.loop.call_soon_threadsafe(mem.loop.stop)
            assert mem.stats()["messages"] >= 1
        mem.add(Message(session_id="s", content="after the stop"))
        assert mem.stats()["messages"] == 2
        mem.close()
    assert mem.closed and mem.loop.is_closed()
    stopped = [r for r in caplog.records if "stopped by code outside chatmem" in r.message]
    assert len(stopped) == 2, caplog.text  # and none for close()'s own stop


def test_a_callback_calling_back_in_is_refused_instead_of_waiting_for_ever(
        tmp_path: Path) -> None:
    mem = SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider()))
    mem.add([Message(session_id="s", content=f"note {i}") for i in range(3)])
    mem.flush(timeout=10)
    mem.clear("vector")
    called: list[object] = []

    def progress(done: int, total: int) -> None:
        called.append(mem.get_session("s"))  # on the loop's thread: waited for ever

    with _deadline(20), pytest.raises(InvalidInput, match="own event loop thread"):
        mem.reindex(progress=progress)
    assert not called
    assert mem.stats()["messages"] == 3  # and the memory still works
    mem.close()  # (not in a finally: a stuck loop could not close)


@pytest.mark.parametrize("interrupt", [KeyboardInterrupt, SystemExit])
def test_a_callback_raising_keyboard_interrupt_or_system_exit_reaches_the_caller(
        tmp_path: Path, interrupt: type[BaseException]) -> None:
    """A reindex(progress=…) callback raising KeyboardInterrupt or SystemExit (sys.exit()
    in it): asyncio raises that out of the loop, whose thread ended, and the call (then
    close()) waited for ever. The caller now gets it, in its own thread, and the memory
    goes on working."""
    mem = SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider()))
    mem.add([Message(session_id="s", content=f"note {i}") for i in range(3)])
    mem.flush(timeout=10)
    mem.clear("vector")

    def progress(done: int, total: int) -> None:
        raise interrupt

    with _deadline(20), pytest.raises(interrupt):
        mem.reindex(progress=progress)
    with _deadline(20):
        assert mem.stats()["messages"] == 3  # the memory still works
        assert mem.reindex()["model"]  # a call that runs the loop's tasks again
        mem.close()  # (not in a finally: a stuck loop could not close)


def test_a_forked_child_gets_an_error_instead_of_waiting_for_ever(tmp_path: Path) -> None:
    from processes import answered_in_fork

    with SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider())) as mem:
        mem.add(Message(session_id="s", content="before the fork"))

        def in_child() -> None:
            try:
                mem.get_session("s")
            finally:
                mem.close()  # the parent's to close: does nothing here

        answer = answered_in_fork(in_child)
        assert answer.startswith(b"error: ") and b"fork" in answer, answer
        assert mem.get(["nothing"]) == {}  # the parent's memory still works


def test_close_ends_the_calls_other_threads_wait_on(tmp_path: Path) -> None:
    import threading

    provider = _Held()
    mem = SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(provider))
    outcome: list[BaseException | object] = []

    def recall() -> None:
        try:
            outcome.append(mem.recall("hold on", session="s"))
        except BaseException as exc:  # the outcome is the test
            outcome.append(exc)

    waiter = threading.Thread(target=recall, daemon=True)
    waiter.start()
    assert provider.started.wait(10)
    mem.close()
    waiter.join(10)
    assert not waiter.is_alive(), "the recall waited for ever on a stopped loop"
    assert isinstance(outcome[0], StoreClosed), outcome
    assert provider.cancelled.is_set()


@pytest.mark.parametrize("when", ["running", "queued"])
def test_a_call_cancelled_on_its_loop_by_another_than_close_says_so(
        tmp_path: Path, when: str) -> None:
    """A SyncMemory call whose task something on the SyncMemory's loop cancels (a task
    canceller there: a listener, a coroutine started on mem.loop), neither close() nor
    its caller: the caller got a raw concurrent.futures.CancelledError, as if it had
    cancelled the call itself. It now gets EventLoopMisuse naming what happened, with
    the cancellation's message. ``running``: the call waits in its embedder when its
    task is cancelled; ``queued``: the task is cancelled before it ever ran (the loop
    busy while the call is handed to it). The memory goes on working."""
    import sys
    import threading

    provider = _Held()
    mem = SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(provider))
    outcome: list[BaseException | object] = []
    handed, busy, free = threading.Event(), threading.Event(), threading.Event()
    before: set[asyncio.Task[Any]] = set()

    def on_hand_over(frame: Any, event: str, arg: Any) -> None:  # the call's start() returns
        if event == "return" and frame.f_code is SyncMemory.start.__code__:
            sys.setprofile(None)
            handed.set()

    def recall() -> None:
        sys.setprofile(on_hand_over)  # this thread's
        try:
            outcome.append(mem.recall("hold on", session="s"))
        except BaseException as exc:  # the outcome is the test
            outcome.append(exc)
        finally:
            sys.setprofile(None)

    def holding_the_loop() -> None:  # on the loop: the call's task is made after this
        before.update(asyncio.all_tasks())
        busy.set()
        free.wait(30)

    def cancel_the_call() -> None:  # on the loop: the call's task
        for task in (provider.tasks if when == "running" else asyncio.all_tasks() - before):
            task.cancel("a watchdog on the loop")

    with _deadline(60):
        if when == "queued":
            mem.loop.call_soon_threadsafe(holding_the_loop)
            assert busy.wait(10)
        waiter = threading.Thread(target=recall, daemon=True)
        waiter.start()
        assert handed.wait(10)
        if when == "running":
            assert provider.started.wait(10)
        mem.loop.call_soon_threadsafe(cancel_the_call)
        free.set()
        waiter.join(20)
        assert not waiter.is_alive(), "the call never ended"
        assert type(outcome[0]) is EventLoopMisuse, outcome
        said = str(outcome[0])
        assert said.startswith(
            "a SyncMemory call was cancelled on the SyncMemory's event loop"
            + (" (with the message 'a watchdog on the loop')" if when == "running" else "")
            + ", neither by close() nor by its caller: by code running on that loop"), said
        assert mem.stats()["messages"] == 0  # and the memory still works
    mem.close()


def test_a_call_its_caller_cancels_still_raises_cancelled_error(tmp_path: Path) -> None:
    """A call cancelled by its caller (the future start() gave) ends with the caller's
    own concurrent.futures.CancelledError, not a chatmem error."""
    import concurrent.futures

    with SyncMemory.open(str(tmp_path / "s.db"), embedder=Embedder(RecordingProvider())) as mem:
        future = mem.start(asyncio.sleep(60))
        future.cancel()
        with pytest.raises(concurrent.futures.CancelledError):
            mem.wait(future)
        assert mem.stats()["messages"] == 0


@contextlib.contextmanager
def _deadline(seconds: int) -> Iterator[None]:
    """Fail (instead of hanging the suite) if the block takes longer than ``seconds``."""
    def expired(*_: object) -> None:
        raise AssertionError(f"still waiting after {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def test_a_dropped_sync_memory_is_closed_and_its_store_opens_again(tmp_path: Path) -> None:
    """A SyncMemory a function opened and never closed kept its store open (and its loop
    thread running) for the life of the process: opening the store again said it was
    "open in another process". Now it is closed when garbage-collected, with a
    ResourceWarning, its thread gone, the added message stored."""
    import gc
    import threading

    url = f"sqlite:///{tmp_path / 'dropped.db'}"

    def threads() -> int:
        return sum(t.name == "chatmem-sync" for t in threading.enumerate())

    before = threads()

    def note(text: str) -> None:
        mem = SyncMemory.open(url, embedder=Embedder(RecordingProvider()))
        mem.add({"session_id": "s", "content": text})

    with pytest.warns(ResourceWarning, match="SyncMemory was not closed"):
        note("first")
        gc.collect()
    assert threads() == before
    with pytest.warns(ResourceWarning):
        note("second")  # was StoreError: "open in another process"
        gc.collect()
    with SyncMemory.open(url, embedder=Embedder(RecordingProvider())) as mem:
        assert sorted(m.content for m in mem.list_messages(session="s").messages) == ["first",
                                                                             "second"]
    assert threads() == before


# ------------------------------------------------------------------ SPEC M1's composition


def test_a_store_open_given_with_a_factory_or_positionally_is_closed_not_left(
        tmp_path: Path) -> None:
    """``SyncMemory(factory, storage=SqliteStore.open(…))`` (or a store's open given
    positionally) is refused before the memory's loop runs: the coroutine given was left
    never awaited, and Python printed "RuntimeWarning: coroutine 'SqliteStore.open' was
    never awaited" when it was collected. The refusal closes it, as a refusal of
    Memory() does with what it opened; nothing is opened, the file is not made."""
    import inspect

    from chatmem.store import SqliteStore

    given = SqliteStore.open(tmp_path / "c.db")
    with pytest.raises(InvalidInput, match=r"^SyncMemory\(factory\) takes no other"):
        SyncMemory(lambda: None, storage=given, vector=given)  # type: ignore[arg-type,return-value]
    assert inspect.getcoroutinestate(given) == inspect.CORO_CLOSED
    given = SqliteStore.open(tmp_path / "c.db")
    with pytest.raises(InvalidInput, match=r"^SyncMemory\(\) takes Memory\(\)'s arguments"):
        SyncMemory(given)  # type: ignore[arg-type]
    assert inspect.getcoroutinestate(given) == inspect.CORO_CLOSED
    assert not (tmp_path / "c.db").exists()


def test_a_sync_memory_is_composed_as_memory_is(tmp_path: Path) -> None:
    """``Memory(storage=…, vector=…, embedder=…, options=…)`` had no blocking twin:
    SyncMemory took a factory only. ``SyncMemory`` now takes Memory()'s keywords, and a
    store's ``open()`` not awaited, opened on the memory's own loop (once, given twice);
    a refusal is Memory()'s, and closes what it opened (the file opens again)."""
    from chatmem.store import SqliteStore
    from chatmem.testing import embedder

    talk = [Message(session_id="s", content=text, ts=i) for i, text in enumerate(
        ["the ferry leaves at noon", "I like green tea", "my cat is called Miso"], start=1)]
    store = SqliteStore.open(tmp_path / "c.db")
    with SyncMemory(storage=store, vector=store, embedder=embedder(), options={
            "last_messages": 1, "semantic_recall": {"top_k": 1, "message_range": 0}}) as mem:
        assert mem.memory.store is mem.memory.index
        assert (mem.memory.config.last_messages, mem.memory.config.recall_top_k) == (1, 1)
        mem.add(talk)
        mem.flush(timeout=30)
        ctx = mem.context("when does the ferry leave?", session="s")
        assert "ferry" in ctx[0]["content"] and ctx[1]["content"] == talk[2].content
    for bad, match in [({"vectr": None}, r"^Memory\(\): unknown argument\(s\) vectr "
                        r"\(did you mean vector\?\)"),
                       ({"last_messages": -1}, "last_messages")]:
        store = SqliteStore.open(tmp_path / "c.db")
        with pytest.raises(ChatmemError, match=match):
            SyncMemory(storage=store, embedder=embedder(), semantic_recall=False, **bad)
    with pytest.raises(InvalidInput, match=r"^SyncMemory\(\) takes Memory\(\)'s arguments "
                       "as keywords"):
        SyncMemory("sqlite:///x.db")  # type: ignore[arg-type]
    with SyncMemory(storage=SqliteStore.open(tmp_path / "c.db"), semantic_recall=False,
                    last_messages=2) as again:  # keyword options; the file was let go
        assert [m["content"] for m in again.context("hm", session="s")] == [
            talk[1].content, talk[2].content]
