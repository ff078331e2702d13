"""Who may see what: recall scopes, their filters, and layered per-scope settings (F9, F10, M5).

Scopes and their widths::

    all = user  ⊇  platform  ⊇  session
    resource    ⊇  session

* ``all`` / ``user``: every session (``user`` adds the same-user boost).
* ``platform``: this session, and candidates whose vector's platform, or whose session's origin
  platform, is the current platform — the session's origin platform (a child
  session takes its root's), else the turn's entry platform. A platform is
  never parsed out of a session id.
* ``resource``: sessions of the same resource (user / tenant, seed 003).
* ``session``: this session only (``thread`` is its alias).

A scope becomes a filter in the filter language of :mod:`chatmem.store.filters`
and is pushed down to the vector index, so k hits come back under any scope.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .config import normalize_scope
from .errors import (
    ChatmemError,
    DamagedRow,
    FilterError,
    InvalidInput,
    PermissionDenied,
    ScopeError,
)
from .models import MAX_LABEL_CHARS, Session, check_text
from .refusals import describe, unknown_fields, unknown_keys
from .store.base import (
    MAX_SESSION_DEPTH,
    SETTINGS_NAMESPACE,
    MessageStore,
    load_parent_chain,
    parent_chain,
    walked_past,
)
from .store.filters import parse_filter

log = logging.getLogger("chatmem.scopes")



@dataclass(frozen=True)
class Situation:
    """The situation of a recall: which session, which platform the turn came in on."""

    session: Session
    root: Session
    entry_platform: str | None = None

    @property
    def current_platform(self) -> str | None:
        """F9: the root session's origin platform, else the entry platform."""
        return self.root.origin_platform or self.entry_platform


async def check_parent_chain(store: MessageStore, session: Session) -> None:
    """Refuse (:class:`InvalidInput`, before anything is stored) a ``session.parent_id``
    after which the session's chain has no root, or one too far for scoping to read:
    the parent is the session itself or its descendant (a cycle: each session of it
    would take another one's origin platform as its root's), or the chain from the
    session's farthest descendant up to the root would hold more than
    :data:`MAX_SESSION_DEPTH` sessions (the walk to the root stops there, and the
    sessions below would take a wrong root's platform, or the turn's entry platform).
    Checked when the parent changes or the session is new; a missing parent ends the
    chain, as it does for scoping."""
    # its parent alone is read: a JSON column it cannot read (a hand edit) is replaced
    stored = (await store.get_sessions([session.id], damaged=[])).get(session.id)
    if session.parent_id is None or (stored is not None
                                     and stored.parent_id == session.parent_id):
        return
    # the chain's ids and parents are read: another session's JSON column it cannot
    # read (a hand edit) does not stop it (logged)
    walked: list[DamagedRow] = []
    up = await load_parent_chain(store, session, MAX_SESSION_DEPTH + 1, damaged=walked)
    if up.cycle is not None:
        path = [s.id for s in up.sessions]
        raise InvalidInput(
            f"session.parent_id {describe(session.parent_id)} would make a cycle "
            f"({' → '.join([*path, up.cycle])}): a session cannot be its own ancestor; "
            "the root of a chain has no parent_id")
    # The chain counts the session's unknown parent too: it will hold a session once
    # that parent is stored.
    chain = len(up.sessions) + (up.unknown is not None)
    # The most sessions from a stored descendant up to (not counting) the session: each
    # descendant's walk over the descendants alone stops at the session, unknown there.
    ids = await store.descendant_sessions(session.id)
    below_sessions = await store.get_sessions(ids, damaged=walked)
    walked_past(walked, doing="to check the parent chain")
    below = max((len(c.sessions) for c in (
        parent_chain(s, below_sessions.get, MAX_SESSION_DEPTH + 1)
        for s in below_sessions.values()) if c.unknown == session.id), default=0)
    if chain + below > MAX_SESSION_DEPTH:
        raise InvalidInput(
            f"session.parent_id {describe(session.parent_id)}: the chain from the root down to "
            f"the session's last descendant would hold more than {MAX_SESSION_DEPTH} "
            "sessions (scopes read a sub-task's platform from its root, at most "
            f"{MAX_SESSION_DEPTH - 1} parents up); give the session a parent nearer the "
            "root")


def scope_filter(scope: str, situation: Situation) -> dict[str, Any] | None:
    """The visibility filter of ``scope`` from ``situation``; ``None`` means everything."""
    if scope in ("all", "user"):
        return None
    if scope == "session":
        return {"session_id": situation.session.id}
    if scope == "resource":
        rid = situation.session.resource_id or situation.root.resource_id
        if not rid:
            raise ScopeError(
                f'scope "resource" needs a resource id, and session '
                f"{describe(situation.session.id)} has none: give it a resource_id "
                "(Memory.upsert_session, PUT /v1/sessions/{id}, chatmem session set "
                '--resource-id), or use scope="session"',
                mentions=[("scope", '"session"')])
        return {"resource_id": rid}
    if scope == "platform":
        platform = situation.current_platform
        if not platform:
            # no platform known at all: the narrowest scope, never a wider one
            return {"session_id": situation.session.id}
        # the session itself always belongs to its own platform scope (platform ⊇ session),
        # even where its messages carry no platform at all
        return {"$or": [{"platform": platform}, {"origin_platform": platform},
                        {"session_id": situation.session.id}]}
    raise ScopeError(f"unknown scope {describe(scope)}")


def made_by(where: Mapping[str, Any] | None) -> tuple[str, str, str | None] | None:
    """The scope :func:`scope_filter` made ``where`` for, read back from its shape (a
    list reads only what that scope lets through): ``("session", session id, None)``,
    ``("resource", resource id, None)``, ``("platform", platform, session id)``;
    ``None`` for no filter or one of another shape."""
    if where is None:
        return None
    if list(where) == ["session_id"] and isinstance(where["session_id"], str):
        return "session", where["session_id"], None
    if list(where) == ["resource_id"] and isinstance(where["resource_id"], str):
        return "resource", where["resource_id"], None
    shape = where.get("$or") if list(where) == ["$or"] else None
    if not isinstance(shape, list) or len(shape) != 3 \
            or not all(isinstance(c, Mapping) for c in shape):
        return None
    platform, own = shape[0].get("platform"), shape[2].get("session_id")
    if isinstance(platform, str) and isinstance(own, str) and shape == [
            {"platform": platform}, {"origin_platform": platform}, {"session_id": own}]:
        return "platform", platform, own
    return None


def user_filter(filter_: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """M6: a caller's filter names session-metadata keys; ``message.<key>`` reads the
    message metadata. Rewrite it into vector-entry fields (``meta.<key>``)."""
    if not filter_:
        return None
    if not isinstance(filter_, Mapping):
        raise FilterError(f"filter must be a mapping, got {describe(filter_)}")
    parse_filter(filter_)  # bounded: depth, size and types are checked before the rewrite

    def rewrite(node: Any) -> Any:
        if not isinstance(node, Mapping):
            return node
        out: dict[str, Any] = {}
        for key, value in node.items():
            # a tuple too (parse_filter takes one): its keys were left as vector-entry
            # fields, so {"$or": ({"speaker_id": "u1"},)} read the message's speaker
            if key in ("$and", "$or") and isinstance(value, (list, tuple)):
                out[key] = [rewrite(v) for v in value]
            elif isinstance(key, str) and not key.startswith(("$", "message.", "meta.")):
                out[f"meta.{key}"] = value
            else:
                out[key] = value
        return out

    result: dict[str, Any] = rewrite(filter_)
    return result


def combine(*parts: Mapping[str, Any] | None) -> dict[str, Any] | None:
    present = [dict(p) for p in parts if p]
    if not present:
        return None
    if len(present) == 1:
        return present[0]
    return {"$and": present}


# ---------------------------------------------------------------------------- settings

Layer = Literal["platform", "chat_type", "group", "session"]


#: The keys of an actor given as a mapping (:meth:`Actor.of`).
_ACTOR_FIELDS = ("id", "role")


def _check_actor_fields(value: Mapping[str, Any]) -> None:
    """:class:`InvalidInput` naming ``actor.id`` or ``actor.role`` when given and not text."""
    for name in _ACTOR_FIELDS:
        if name in value and not isinstance(value[name], str):
            raise InvalidInput(f"actor.{name} must be a string, got {describe(value[name])}")


@dataclass(frozen=True)
class Actor:
    """Who asks for a settings change; only ``role == "owner"`` may change scopes."""

    id: str
    role: str = "user"

    @classmethod
    def of(cls, value: Actor | Mapping[str, Any] | None) -> Actor:
        if isinstance(value, Actor):
            _check_actor_fields({"id": value.id, "role": value.role})
            return value
        if isinstance(value, Mapping):
            # a key it does not take is refused, not passed over: {"rle": "owner"} was
            # read as role "user", {"role": "owner", "rol": "user"} as an owner
            unknown = unknown_keys(value, _ACTOR_FIELDS)
            if unknown:
                raise InvalidInput(unknown_fields("actor", unknown, _ACTOR_FIELDS))
            # one that is not text is named, not taken for no actor ({"id": 5}) or for
            # a role of its str() ({"role": ["owner"]}: role "['owner']")
            _check_actor_fields(value)
        if isinstance(value, Mapping) and "id" in value:
            return cls(id=value["id"], role=value.get("role", "user"))
        raise PermissionDenied("changing scope settings needs an actor with the owner role, "
                               "e.g. actor={'id': 'alice', 'role': 'owner'}")

    @classmethod
    def owner(cls, value: Actor | Mapping[str, Any] | None, change: str) -> Actor:
        """The actor of ``value`` if it is an owner, else :class:`PermissionDenied`
        saying that only an owner may change ``change``."""
        who = cls.of(value)
        if who.role != "owner":
            raise PermissionDenied(f"only an owner may change {change}; "
                                   f"{describe(who.id)} has role {describe(who.role)}")
        return who


#: The parts each settings layer's key is made of.
LAYER_PARTS: dict[str, tuple[str, ...]] = {
    "platform": ("platform",), "chat_type": ("platform", "chat_type"),
    "group": ("platform", "group_id"), "session": ("session",)}
#: The layer a part given to a layer that does not read it names.
PART_LAYER = {"platform": "platform", "chat_type": "chat_type", "group_id": "group",
               "session": "session"}


def _key(layer: Layer, *, platform: str | None, chat_type: str | None, group_id: str | None,
         session_id: str | None) -> str:
    def need(value: str | None, name: str) -> str:
        if not value or not isinstance(value, str):
            raise InvalidInput(f"a {layer}-level setting needs {name}")
        return value

    if layer == "platform":
        return f"platform:{need(platform, 'platform')}"
    if layer == "chat_type":
        return f"chat_type:{_platform_part(need(platform, 'platform'))}/" \
               f"{need(chat_type, 'chat_type')}"
    if layer == "group":
        return f"group:{_platform_part(need(platform, 'platform'))}/" \
               f"{need(group_id, 'group_id')}"
    return f"session:{need(session_id, 'session')}"


def _platform_part(platform: str) -> str:
    """The platform as the first part of a two-part key (``group:<platform>/<group>``):
    without a ``/``, so that the first ``/`` ends it, else platform ``tg`` and group
    ``x/y`` would share the key of platform ``tg/x`` and group ``y`` (one group's
    setting deciding for the other). ``%`` too, so that the escape is read one way.
    A platform without either keeps its key as it was."""
    return platform.replace("%", "%25").replace("/", "%2F")


def layer_keys(situation: Situation) -> list[tuple[str, str]]:
    """The settings keys of a situation, most specific first: (layer, key)."""
    platform = situation.current_platform
    keys: list[tuple[str, str]] = [("session", f"session:{situation.session.id}")]
    if platform:
        group_id = situation.session.group_id or situation.root.group_id
        if group_id:
            keys.append(("group", _key("group", platform=platform, chat_type=None,
                                       group_id=group_id, session_id=None)))
        chat_type = situation.session.chat_type or situation.root.chat_type
        if chat_type:
            keys.append(("chat_type", _key("chat_type", platform=platform,
                                           chat_type=chat_type, group_id=None,
                                           session_id=None)))
        keys.append(("platform", _key("platform", platform=platform, chat_type=None,
                                      group_id=None, session_id=None)))
    return keys


def layer_key(layer: Layer, *, platform: str | None, chat_type: str | None,
              group_id: str | None, session_id: str | None) -> str:
    """The settings key of one layer (:class:`InvalidInput` when a part is missing, or
    one given is not text that a store can hold)."""
    if layer not in ("platform", "chat_type", "group", "session"):
        raise InvalidInput("layer must be one of platform, chat_type, group, session, got "
                           f"{describe(layer)}")
    for name, value in (("platform", platform), ("chat_type", chat_type),
                        ("group_id", group_id), ("session", session_id)):
        check_text(value, name, max_chars=MAX_LABEL_CHARS)
    # a part the layer does not read is refused, not dropped: layer "platform" with a
    # chat_type would set the whole platform's value where one chat type's was meant
    takes = LAYER_PARTS[layer]
    extra = [name for name, value in (("platform", platform), ("chat_type", chat_type),
                                      ("group_id", group_id), ("session", session_id))
             if value is not None and name not in takes]
    if extra:
        reads = "; ".join(f"layer {describe(PART_LAYER[name])} reads {name}" for name in extra)
        raise InvalidInput(
            f"a {layer}-level setting takes {' and '.join(takes)} only, got "
            f"{', '.join(extra)} too ({reads}): name the layer meant, or leave "
            f"{'them' if len(extra) > 1 else 'it'} out")
    return _key(layer, platform=platform, chat_type=chat_type, group_id=group_id,
                session_id=session_id)


@dataclass(frozen=True)
class EffectiveScope:
    scope: str
    #: Which layer decided: ``session``, ``group``, ``chat_type``, ``platform`` or ``config``.
    layer: str
    broken: bool = False


class ScopeSettings:
    """Scope settings per platform, platform + chat type, group and session.

    Stored in the message store's metadata area and read at every search, so a
    change applies to the next recall of every process sharing the store. The
    most specific layer wins; a broken stored value at any layer means
    ``session`` (the narrowest), never a fall-back to a wider layer.
    """

    def __init__(self, store: MessageStore, default_scope: str) -> None:
        self.store = store
        self.default_scope = default_scope

    async def effective(self, situation: Situation) -> EffectiveScope:
        for layer, key in layer_keys(situation):
            try:
                raw = await self.store.meta_get(SETTINGS_NAMESPACE, key)
            except ChatmemError as exc:  # unreadable: the narrowest scope, never a wider one
                log.warning('scope setting %s unreadable (%s); using "session"', key, exc)
                return EffectiveScope("session", layer, broken=True)
            if raw is None:
                continue
            try:
                value = json.loads(raw)
                scope = normalize_scope(value)
            except (ValueError, RecursionError, InvalidInput):  # too deep a nesting too
                log.warning('scope setting %s is broken (%s); using "session"', key,
                            describe(raw))
                return EffectiveScope("session", layer, broken=True)
            return EffectiveScope(scope, layer)
        return EffectiveScope(self.default_scope, "config")

    async def set(self, scope: str | None, *, actor: Actor | Mapping[str, Any] | None,
                  layer: Layer = "session", platform: str | None = None,
                  chat_type: str | None = None, group_id: str | None = None,
                  session: str | None = None) -> None:
        """Set (or with ``scope=None`` remove) the scope of one layer. Owners only."""
        who = Actor.owner(actor, "scope settings")
        key = layer_key(layer, platform=platform, chat_type=chat_type, group_id=group_id,
                        session_id=session)
        if scope is None:
            await self.store.meta_delete(SETTINGS_NAMESPACE, key)
            return
        value = normalize_scope(scope)
        await self.store.meta_set(SETTINGS_NAMESPACE, key, json.dumps(value))
        log.info("scope of %s set to %s by %s", key, value, who.id)
