"""``chatmem mcp``'s stdio input (:class:`chatmem.server.mcp.StdinLines`) over a real
pipe: lines as they come, every request answered before the lines end at the end of
input, a stop ends them at once while the client keeps stdin open, and an answer sent
never blocks the event loop. Each case runs on a selector event loop and on one that
cannot watch a pipe, as Windows' loops cannot (``add_reader`` raises
NotImplementedError there: the server failed to start)."""

from __future__ import annotations

import asyncio
import json
import os
import selectors
from collections.abc import Callable, Coroutine, Iterator
from typing import Any

import pytest

pytest.importorskip("mcp")

from chatmem.server.mcp import StdinLines

#: Seconds a step may take before the reader counts as hung.
HANG_S = 10.0


class LoopWithoutReaders(asyncio.SelectorEventLoop):
    """An event loop that cannot watch file descriptors, as Windows' proactor loop."""

    def add_reader(self, fd: Any, callback: Callable[..., Any], *args: Any) -> None:
        raise NotImplementedError


LOOPS: dict[str, Callable[[], asyncio.AbstractEventLoop]] = {
    "selector": lambda: asyncio.SelectorEventLoop(selectors.DefaultSelector()),
    "no-add_reader": lambda: LoopWithoutReaders(selectors.DefaultSelector()),
}


@pytest.fixture(params=sorted(LOOPS))
def run(request: pytest.FixtureRequest) -> Iterator[Callable[[Coroutine[Any, Any, Any]], Any]]:
    loop = LOOPS[request.param]()
    try:
        yield lambda coro: loop.run_until_complete(asyncio.wait_for(coro, HANG_S))
    finally:
        loop.close()


class Pipe:
    """A real pipe: the test writes and ends the input; readers of its read end are made
    here. Its reading threads (a loop without ``add_reader``) are waited for after the
    end of input, before the read end is closed: a thread still reading then read the
    next test's pipe, which reused the descriptor's number, and took its lines."""

    def __init__(self) -> None:
        self.read_fd, self.write_fd = os.pipe()
        self.readers: list[StdinLines] = []
        self.ended = False

    def reader(self) -> StdinLines:
        self.readers.append(StdinLines(self.read_fd))
        return self.readers[-1]

    def write(self, data: bytes) -> None:
        os.write(self.write_fd, data)

    def end_input(self) -> None:
        if not self.ended:
            self.ended = True
            os.close(self.write_fd)

    def close(self) -> None:
        self.end_input()
        for r in self.readers:
            if r.thread is not None:
                r.thread.join(HANG_S)
                assert not r.thread.is_alive(), "the reading thread outlived its input"
        os.close(self.read_fd)


@pytest.fixture
def pipe() -> Iterator[Pipe]:
    p = Pipe()
    try:
        yield p
    finally:
        p.close()


def request(n: int) -> bytes:
    return json.dumps({"jsonrpc": "2.0", "id": n, "method": "ping"}).encode() + b"\n"


def test_lines_come_as_written_and_end_after_every_request_is_answered(
        run: Callable[[Coroutine[Any, Any, Any]], Any], pipe: Pipe) -> None:
    stdin = pipe.reader()

    async def scenario() -> list[str]:
        lines = stdin.__aiter__()
        pipe.write(request(1) + b'{"jsonrpc": "2.0", "method": "note"}\n')
        got = [await lines.__anext__(), await lines.__anext__()]
        pipe.write(request(2)[:10])  # half a line: nothing to hand on yet
        later = asyncio.ensure_future(lines.__anext__())
        await asyncio.sleep(0.05)
        assert not later.done()
        pipe.write(request(2)[10:])
        got.append(await later)
        pipe.end_input()  # the end of input, two requests read, none answered
        end = asyncio.ensure_future(lines.__anext__())
        await asyncio.sleep(0.05)
        assert not end.done(), "the lines ended with requests unanswered"
        stdin.answered()
        await asyncio.sleep(0.05)
        assert not end.done(), "the lines ended with a request unanswered"
        stdin.answered()
        with pytest.raises(StopAsyncIteration):
            await end
        return got

    got = run(scenario())
    assert [json.loads(line).get("id") for line in got] == [1, None, 2]


def test_a_stop_ends_the_lines_while_stdin_stays_open(
        run: Callable[[Coroutine[Any, Any, Any]], Any], pipe: Pipe) -> None:
    stdin = pipe.reader()

    async def scenario() -> None:
        lines = stdin.__aiter__()
        pipe.write(request(1))
        await lines.__anext__()
        waiting = asyncio.ensure_future(lines.__anext__())
        await asyncio.sleep(0.05)
        assert not waiting.done()
        stdin.stop()
        with pytest.raises(StopAsyncIteration):
            await waiting

    run(scenario())


def test_an_answer_sent_never_blocks_the_loop(
        run: Callable[[Coroutine[Any, Any, Any]], Any], pipe: Pipe) -> None:
    """An answer sent while the client keeps stdin open and silent: the loop runs on
    (before: the answer woke the read-wait, whose read then blocked the loop until the
    client's next line)."""
    stdin = pipe.reader()

    async def scenario() -> None:
        lines = stdin.__aiter__()
        pipe.write(request(1))
        await lines.__anext__()
        reading = asyncio.ensure_future(lines.__anext__())
        await asyncio.sleep(0.05)
        stdin.answered()
        ticks = 0
        for _ in range(20):
            await asyncio.sleep(0.005)
            ticks += 1
        assert ticks == 20 and not reading.done()
        pipe.write(request(2))
        assert json.loads(await reading)["id"] == 2

    run(scenario())


def test_a_line_of_many_chunks_comes_whole(tmp_path: Any) -> None:
    """A line of many chunks (64 KiB each) was searched for its end from its start again
    with each chunk, and copied whole to add it: a 64 MB line took 30 s of the event
    loop (quadratic: 24 MB took 1 s). Each chunk is now searched once and added in
    place: 0.3 s; and a line over 4 MiB is no longer kept: its rest is dropped as read.
    The lines after it must still come; the time is measured by bench/mcp_reading.py
    (against os.read of the same chunks), not here."""
    path = tmp_path / "input.jsonl"
    note = b'{"jsonrpc": "2.0", "method": "note"}\n'  # a request would await its answer
    path.write_bytes(b"x" * (64 << 20) + b"\n" + note)
    fd = os.open(path, os.O_RDONLY)
    stdin = StdinLines(fd)

    async def lines() -> list[str]:
        return [line async for line in stdin]

    try:
        got = asyncio.run(asyncio.wait_for(lines(), 120))
    finally:
        os.close(fd)
    # the line, over the HTTP door's limit, is dropped as it comes (refused by run_stdio)
    assert [json.loads(line)["method"] for line in got] == ["note"]
