"""Retention (I8): how long messages are kept, per platform / chat type / group / session.

Layered like scopes (:mod:`chatmem.scopes`): a value per platform, platform + chat
type, group and session, stored in the message store's metadata area; the most
specific layer wins, else ``retention.days`` of the configuration. ``0`` keeps
forever (and so overrides a wider layer's limit). Only an owner may change it.

A broken stored value keeps the messages (days 0, ``broken``): an erase is never
the answer to a value that cannot be read. The sweep (:meth:`chatmem.Memory.
sweep_retention`) erases expired messages through the same path as ``forget``.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import ChatmemError, InvalidInput
from .refusals import describe
from .scopes import Actor, Layer, Situation, layer_key, layer_keys
from .store.base import RETENTION_NAMESPACE, MessageStore

log = logging.getLogger("chatmem.retention")

#: The longest retention that can be set (a hundred years).
MAX_DAYS = 36_500
DAY_MS = 86_400_000
#: Sessions the sweep reads at a time.
SWEEP_SESSIONS = 500


def check_days(value: object, name: str = "days") -> int:
    """A retention in whole days, 0 (forever) to :data:`MAX_DAYS`."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_DAYS:
        raise InvalidInput(f"{name} must be an integer from 0 (keep forever) to {MAX_DAYS}, "
                           f"got {describe(value)}")
    return value


@dataclass(frozen=True)
class EffectiveRetention:
    #: Days messages are kept; 0 = forever.
    days: int
    #: Which layer decided: ``session``, ``group``, ``chat_type``, ``platform`` or ``config``.
    layer: str
    broken: bool = False


class RetentionSettings:
    """Retention per platform, platform + chat type, group and session (most specific
    wins), read from the metadata area at every sweep."""

    def __init__(self, store: MessageStore, default_days: int) -> None:
        self.store = store
        self.default_days = default_days

    async def effective(self, situation: Situation) -> EffectiveRetention:
        for layer, key in layer_keys(situation):
            try:
                raw = await self.store.meta_get(RETENTION_NAMESPACE, key)
            except ChatmemError as exc:  # unreadable: keep, never erase on a guess
                log.warning("retention setting %s unreadable (%s); keeping", key, exc)
                return EffectiveRetention(0, layer, broken=True)
            if raw is None:
                continue
            try:
                days = check_days(json.loads(raw))
            except (ValueError, RecursionError, InvalidInput):  # too deep a nesting too
                log.warning("retention setting %s is broken (%r); keeping", key, raw)
                return EffectiveRetention(0, layer, broken=True)
            return EffectiveRetention(days, layer)
        return EffectiveRetention(self.default_days, "config")

    async def any_layer(self) -> bool:
        """Whether any layer holds a value (else only the configuration decides)."""
        return any(ns == RETENTION_NAMESPACE for ns, _, _ in await self.store.meta_items())

    async def set(self, days: int | None, *, actor: Actor | Mapping[str, Any] | None,
                  layer: Layer = "session", platform: str | None = None,
                  chat_type: str | None = None, group_id: str | None = None,
                  session: str | None = None) -> None:
        """Set (``None``: remove) one layer's retention in days. Owners only."""
        who = Actor.owner(actor, "retention")
        key = layer_key(layer, platform=platform, chat_type=chat_type, group_id=group_id,
                        session_id=session)
        if days is None:
            await self.store.meta_delete(RETENTION_NAMESPACE, key)
            return
        await self.store.meta_set(RETENTION_NAMESPACE, key, json.dumps(check_days(days)))
        log.info("retention of %s set to %d day(s) by %s", key, days, who.id)
