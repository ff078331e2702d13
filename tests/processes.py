"""Real chatmem processes for the tests that stop one part way (SIGTERM), or that call
in a forked child."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import chatmem
from chatmem.models import Message
from chatmem.store import Storage


def grown(path: Path, n: int = 30000, sessions: int = 1) -> None:
    """Store ``n`` messages (over ``sessions`` sessions) in the SQLite store ``path``:
    enough that exporting or copying it takes a while."""

    async def grow() -> None:
        storage = await Storage.open(str(path))
        try:
            await storage.store.append([
                Message(session_id="big" if sessions == 1 else f"s{i % sessions}",
                        role="user", ts=1_700_000_000_000 + i,
                        content=f"message {i} " + "about the trip " * 10)
                for i in range(n)])
        finally:
            await storage.close()

    asyncio.run(grow())


def checkout_env() -> dict[str, str]:
    """The environment of a child ``python -m chatmem`` that imports this checkout's
    chatmem, without a ``CHATMEM_DB`` of the caller's."""
    src = str(Path(chatmem.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("CHATMEM_DB", None)
    return env


def reading(path: Path) -> Callable[[], bool]:
    """A ``started`` for :func:`terminated`: a child of this process has ``path`` open
    and has read some of it, not all (Linux: its descriptors' positions in /proc)."""
    want, size = str(path.resolve()), path.stat().st_size

    def children() -> list[str]:
        found: list[str] = []
        for task in Path("/proc/self/task").iterdir():
            with contextlib.suppress(OSError):
                found += (task / "children").read_text().split()
        return found

    def started() -> bool:
        for pid in children():
            with contextlib.suppress(OSError):
                for fd in Path(f"/proc/{pid}/fd").iterdir():
                    if os.readlink(fd) == want:
                        pos = int(Path(f"/proc/{pid}/fdinfo/{fd.name}").read_text()
                                  .split()[1])
                        if 0 < pos < size:
                            return True
        return False

    return started


def _ctrl_c_default() -> None:
    """In the child before it runs chatmem: SIGINT as a terminal delivers it."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def terminated(args: Sequence[str], cwd: Path, started: Callable[[], bool],
               sig: int = signal.SIGTERM) -> tuple[int, str]:
    """Run ``chatmem ARGS`` in ``cwd``, send it SIGTERM (or ``sig``) once ``started()``
    holds (it must still be running then): its exit status and standard error."""
    # a test run in the background (``cmd &``, as CI may start it) ignores SIGINT, and a
    # child inherits that: Python then installs no Ctrl-C handler, so it is restored
    proc = subprocess.Popen([sys.executable, "-m", "chatmem", *args], cwd=cwd,
                            env=checkout_env(), stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True,
                            preexec_fn=_ctrl_c_default)
    try:
        deadline = time.monotonic() + 120
        while not started() and proc.poll() is None and time.monotonic() < deadline:
            time.sleep(0.001)
        assert proc.poll() is None, f"chatmem {args[0]} finished before it was stopped"
        proc.send_signal(sig)
    finally:
        _, err = proc.communicate(timeout=60)
    return proc.returncode, err


def answered_in_fork(call: Callable[[], object]) -> bytes:
    """What ``call()`` does in a child forked from this process, within 10 s: ``answered``
    or ``error: `` and a ChatmemError's words (a child that waits for ever is killed by
    an alarm, and this fails saying so). The child never runs the parent's test
    machinery."""
    from chatmem.errors import ChatmemError

    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        signal.alarm(10)
        try:
            call()
            answer = b"answered"
        except ChatmemError as exc:
            answer = b"error: " + str(exc).encode()
        os.write(write, answer)
        os._exit(0)
    os.close(write)
    with os.fdopen(read, "rb") as pipe:
        answer = pipe.read()
    _, status = os.waitpid(pid, 0)
    assert status == 0, "the child waited for ever"
    return answer
