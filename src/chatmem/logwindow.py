"""Log lines said at WARNING once a while: a condition that every request meets again
(a provider that is down, a store that cannot be reached, a damaged row every turn of
a conversation reads) must not fill the log with one WARNING per request.

A :class:`LogWindow` is asked, for each time the condition is met (its ``key``), whether
to log it at WARNING: the first time, and again once ``window`` seconds have passed
since that WARNING; in between its caller logs it at DEBUG, and the next WARNING says
how many times it was met in between. Each WARNING gets a short reference that the
DEBUG lines after it repeat (the servers give it to callers, who read the error in
part: :mod:`chatmem.server`)."""

from __future__ import annotations

import re
import secrets
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass

#: What varies from one time to the next in the words of the same condition: a quoted
#: value ('…' or "…": an id, a path, a schema), a hexadecimal word that holds a digit
#: (a request id, a uuid's parts, a reference, a hash), any other digits (a port, a row
#: id, a time, a count). An HTTP status (three digits after ``HTTP`` or ``status``) is
#: matched first, as the ``status`` group, and kept: a provider's 401 and its 500 are
#: two conditions.
_VARYING = re.compile(r"""(?P<status>\b(?:HTTP|status)(?: code)?[ :=]*[1-5]\d\d\b)"""
                      r"""|'[^'\n]*'|"[^"\n]*"|\b0x[0-9a-f]+\b|\b(?=[a-f]*\d)[0-9a-f]+\b"""
                      r"""|\d+""", re.IGNORECASE)


def masked(text: str) -> str:
    """``text`` with what varies from one time to the next (:data:`_VARYING`) each
    replaced by ``…``: the key of a condition whose words name a request's own values
    (an error naming a port, a row id, a time); an HTTP status is kept."""
    return _VARYING.sub(lambda m: m["status"] or "…", text)


@dataclass
class Said:
    """What :meth:`LogWindow.said` decided for one time a condition was met."""

    ref: str  #: the reference of its last WARNING (a new one when ``warn``)
    warn: bool  #: log it at WARNING (else at DEBUG, under ``ref``)
    again: int = 0  #: with ``warn``: how many times it was met since its last WARNING


@dataclass
class _Seen:
    ref: str
    since: float  # the clock's time of its WARNING
    again: int = 0  # met again since, logged at DEBUG


class LogWindow:
    """Which times a condition is logged at WARNING: once per ``key`` per ``window``
    seconds. At most ``remembered`` keys are kept at once (the oldest WARNING's
    forgotten first, and any whose window is over). ``clock`` gives the time in seconds
    (:func:`time.monotonic`; a test passes one it moves itself, so that what it checks
    does not hang on how fast the machine runs). Thread-safe."""

    def __init__(self, window: float, remembered: int = 256,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.window = window
        self.remembered = remembered
        self.clock = clock
        self._seen: dict[Hashable, _Seen] = {}  # oldest WARNING first
        self._lock = threading.Lock()

    def said(self, key: Hashable) -> Said:
        """The condition ``key`` is met once more: whether to warn, and its reference."""
        now = self.clock()
        with self._lock:
            seen = self._seen.get(key)
            if seen is not None and now - seen.since < self.window:
                seen.again += 1
                return Said(seen.ref, warn=False)
            before = self._seen.pop(key, None)
            seen = self._seen[key] = _Seen(secrets.token_hex(4), now)
            # the oldest first: those whose window is over, and over the bound
            while self._seen and (len(self._seen) > self.remembered or (
                    now - next(iter(self._seen.values())).since >= self.window)):
                del self._seen[next(iter(self._seen))]
        return Said(seen.ref, warn=True, again=0 if before is None else before.again)


__all__ = ["LogWindow", "Said", "masked"]
