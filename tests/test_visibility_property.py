"""R4 as a property: over random worlds and random settings, no recall or tool call ever
returns a message outside its visible set, and narrowing never widens it.

The visible set is computed here independently of chatmem's code (the oracle
below restates SPEC F9/F10 from scratch). The in-memory store runs many examples;
every stored backend (SQLite file, SQLite + Qdrant, PostgreSQL) runs fewer.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from backends import PLACES, Place
from chatmem import Memory, Message, Session
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ScopeError
from providers import RecordingProvider

PLATFORMS = ["qq", "tg", "webui"]
SCOPES = ["all", "user", "platform", "resource", "session"]
WORDS = ["hike", "map", "book", "cat", "passport", "rain", "pizza", "train"]
WIDER = {"all": set(SCOPES), "user": set(SCOPES), "platform": {"platform", "session"},
         "resource": {"resource", "session"}, "session": {"session"}}


@pytest.fixture(scope="module", autouse=True)
def _no_wait_for_a_fuller_batch() -> Iterator[None]:
    """An example's messages come in one ``add``, all queued before its indexer takes a
    batch: the wait of a partial batch for more (``indexing.COALESCE_S``, 20 ms, for a
    bulk import's bursts) was a third of each in-memory example, and changes no batch."""
    import chatmem.indexing

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chatmem.indexing, "COALESCE_S", 0.0)
        yield


@dataclass
class World:
    sessions: list[Session]
    messages: list[Message]
    settings: dict[str, str]  # meta key -> raw stored value
    config_scope: str
    #: When the sessions are registered: before the messages are added (``early``), after
    #: they are indexed (``late``), or first as ``before`` and then changed to their
    #: final state after indexing (``changed``) — the vectors must follow (issue 9, #16).
    timing: str = "early"
    before: list[Session] | None = None
    order: list[int] | None = None  # the order of the late upserts


def _sessions(draw: st.DrawFn, n: int) -> list[Session]:
    sessions: list[Session] = []
    for i in range(n):
        parent = draw(st.one_of(st.none(), st.sampled_from([s.id for s in sessions])))\
            if sessions else None
        sessions.append(Session(
            id=f"s{i}", parent_id=parent,
            origin_platform=draw(st.sampled_from([None, "qq", "tg"])),
            resource_id=draw(st.sampled_from([None, "r1", "r2"])),
            chat_type=draw(st.sampled_from([None, "group", "private"])),
            group_id=draw(st.sampled_from([None, "g1", "g2"])),
            metadata=draw(st.sampled_from([{}, {"team": "a"}, {"team": "b"}])),
        ))
    return sessions


@st.composite
def worlds(draw: st.DrawFn) -> World:
    n = draw(st.integers(2, 5))
    sessions = _sessions(draw, n)
    messages = []
    for j in range(draw(st.integers(1, 10))):
        messages.append(Message(
            session_id=draw(st.sampled_from([s.id for s in sessions])),
            content=" ".join(draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))),
            ts=j * 1000,
            role=draw(st.sampled_from(["user", "user", "assistant", "tool", "system"])),
            kind=draw(st.sampled_from(["message", "message", "message", "divider"])),
            platform=draw(st.sampled_from([None, *PLATFORMS])),
            speaker_id=draw(st.sampled_from(["u1", "u2", "u3"])),
        ))
    keys = ([f"session:{s.id}" for s in sessions]
            + [f"group:{p}/{g}" for p in PLATFORMS for g in ("g1", "g2")]
            + [f"chat_type:{p}/{c}" for p in PLATFORMS for c in ("group", "private")]
            + [f"platform:{p}" for p in PLATFORMS])
    chosen = draw(st.dictionaries(st.sampled_from(keys),
                                  st.sampled_from([*SCOPES, "thread", "broken"]), max_size=4))
    raw = {k: ("{oops" if v == "broken" else json.dumps(v)) for k, v in chosen.items()}
    timing = draw(st.sampled_from(["early", "late", "changed"]))
    return World(sessions, messages, raw, draw(st.sampled_from(SCOPES)), timing,
                 _sessions(draw, n) if timing == "changed" else None,
                 draw(st.permutations(list(range(n)))))


def root(world: World, sid: str) -> Session:
    """The top of ``sid``'s parent chain: a parent that is not registered ends it (README:
    a child stored before its parent counts itself as the root). chatmem refuses cycles."""
    by_id = {s.id: s for s in world.sessions}
    s = by_id[sid]
    while s.parent_id and s.parent_id in by_id:
        s = by_id[s.parent_id]
    return s


def effective(world: World, sid: str, entry: str | None) -> str:
    s = {x.id: x for x in world.sessions}[sid]
    r = root(world, sid)
    platform = r.origin_platform or entry
    keys = [f"session:{sid}"]
    if platform:
        group = s.group_id or r.group_id
        if group:
            keys.append(f"group:{platform}/{group}")
        ctype = s.chat_type or r.chat_type
        if ctype:
            keys.append(f"chat_type:{platform}/{ctype}")
        keys.append(f"platform:{platform}")
    for k in keys:
        if k in world.settings:
            try:
                v = json.loads(world.settings[k])
            except ValueError:
                return "session"
            v = {"thread": "session"}.get(v, v)
            return v if v in SCOPES else "session"
    return world.config_scope


def visible(world: World, sid: str, entry: str | None, scope: str, msg: Message) -> bool:
    if scope in ("all", "user"):
        return True
    if scope == "session":
        return msg.session_id == sid
    by_id = {s.id: s for s in world.sessions}
    if scope == "resource":
        mine = by_id[sid].resource_id or root(world, sid).resource_id
        theirs = by_id[msg.session_id].resource_id or root(world, msg.session_id).resource_id
        return mine is not None and theirs == mine
    platform = root(world, sid).origin_platform or entry
    if platform is None or msg.session_id == sid:  # platform ⊇ session
        return msg.session_id == sid
    origin = root(world, msg.session_id).origin_platform
    return (msg.platform or origin) == platform or origin == platform


def returned(result: Any) -> list[Message]:
    out = [h.message for h in result.hits]
    out += [m for h in result.hits for m in (*h.before, *h.after)]
    out += [m for s in result.snippets for m in s.messages]
    return out


async def check(world: World, asker: str, entry: str | None, requested: str | None,
                query: str, backend: str | None = None, models: Models | None = None
                ) -> None:
    """``backend``: a name of :data:`backends.PLACES` (a fresh place per example);
    ``None``: the in-memory store. ``models``: the store holds two models' vectors
    (:func:`_check_models`)."""
    async with contextlib.AsyncExitStack() as stack:
        place = Place("memory://")
        if backend is not None:
            tmp = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            place = await stack.enter_async_context(PLACES[backend](tmp))
        if models is None:
            await _check(place, world, asker, entry, requested, query)
        else:
            await _check_models(place, world, models, asker, entry, requested, query)


async def opened(place: Place, world: World) -> Memory:
    return await Memory.open(place.url, vector=place.vector,
                             embedder=Embedder(RecordingProvider(dim=32)),
                             config=Config.load({"scope": world.config_scope,
                                                 "indexing": {"concurrency": 1},
                                                 "context_expand": {"window": 2}}))


async def stored_world(mem: Memory, world: World) -> list[Message]:
    """``world`` stored and indexed, its sessions registered as ``world.timing`` says."""
    first = world.before if world.timing == "changed" else world.sessions
    if world.timing != "late":
        for s in first or ():
            await mem.upsert_session(s)
    for key, value in world.settings.items():
        await mem.store.meta_set("scope-settings", key, value)
    stored = await mem.add(world.messages)
    await mem.flush(timeout=30)
    if world.timing != "early":  # registered or changed after indexing
        for i in world.order or range(len(world.sessions)):
            await mem.upsert_session(world.sessions[i])
    return stored


async def _check(place: Place, world: World, asker: str, entry: str | None,
                 requested: str | None, query: str) -> None:
    mem = await opened(place, world)
    try:
        stored = await stored_world(mem, world)
        by_id = {m.id: m for m in stored}
        base = effective(world, asker, entry)

        def assert_visible(result: Any, scope: str) -> None:
            for m in returned(result):
                original = by_id[m.id]
                assert visible(world, asker, entry, scope, original), (scope, original)

        # completeness (issue 9, #16): every visible indexable message is found, under
        # the sessions' final state however late they were registered
        final = {x.id: x for x in world.sessions}
        indexable = [m for m in stored if m.indexable]
        if base != "resource" or (final[asker].resource_id or root(world, asker).resource_id):
            full = await mem.recall(query, session=asker, platform=entry, top_k=50, window=0,
                                    scope=base)
            assert {h.message.id for h in full.hits} == {
                m.id for m in indexable if visible(world, asker, entry, base, by_id[m.id])}
        team = await mem.recall(query, session=asker, platform=entry, top_k=50, window=0,
                                scope="all", filter={"team": "a"})
        assert {h.message.id for h in team.hits} == {
            m.id for m in indexable if dict(final[m.session_id].metadata) == {"team": "a"}}
        # passive recall: the session's effective scope
        try:
            passive = await mem.recall(query, session=asker, platform=entry, top_k=5)
        except ScopeError:
            assert base == "resource"
        else:
            assert passive.scope == base
            assert_visible(passive, base)
        # the tool: may only narrow
        try:
            out = await mem.recall(query, session=asker, platform=entry, top_k=5,
                                   scope=requested, narrow_only=True)
        except ScopeError:
            assert "resource" in (base, requested)
            return
        if requested is not None and requested in WIDER[base]:
            assert out.scope == requested and not out.clamped
        elif requested is not None:
            assert out.scope == base and out.clamped
        has_resource = (({s.id: s for s in world.sessions}[asker].resource_id
                          or root(world, asker).resource_id) is not None)
        if base != "resource" or has_resource:  # (resource without an id has no visible set)
            assert_visible(out, base)  # narrowing never widens
        assert_visible(out, out.scope)
    finally:
        await mem.close()


def asked(world: World, data: st.DataObject) -> tuple[str, str | None, str | None, str]:
    """Who asks (the session, its entry platform), the scope it requests, and the query."""
    return (data.draw(st.sampled_from([s.id for s in world.sessions])),
            data.draw(st.sampled_from([None, *PLATFORMS])),
            data.draw(st.sampled_from([None, *SCOPES])),
            " ".join(data.draw(st.lists(st.sampled_from(WORDS), min_size=1, max_size=3))))


@settings(max_examples=2000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(world=worlds(), data=st.data())
def test_no_recall_or_tool_call_returns_a_message_outside_its_visible_set(
        world: World, data: st.DataObject) -> None:
    asker, entry, requested, query = asked(world, data)
    asyncio.run(check(world, asker, entry, requested, query))


#: Stored backends run fewer examples each (a file, a schema or a Qdrant folder per
#: example); the in-memory run above explores, these check that every backend's filters
#: and session snapshots agree with the oracle too.
@pytest.mark.parametrize("backend", sorted(PLACES))
@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(world=worlds(), data=st.data())
def test_the_same_holds_on_every_stored_backend(backend: str, world: World,
                                                data: st.DataObject) -> None:
    asker, entry, requested, query = asked(world, data)
    asyncio.run(check(world, asker, entry, requested, query, backend))


# ------------------------------------------------- stores of two models (F11 before reindex)

#: Another model of the query model's width ("test:bow", RecordingProvider's), and the
#: legacy marker's values: absent (the first search records the query model), the query
#: model's, the other model's.
OLD = "test:old"
MARKERS = [None, "test:bow", OLD]
#: Callers' metadata filters (M6: keys of the session metadata) with what they keep, some
#: already of the shapes Memory._of_own_model merges its model condition with: ``$and``,
#: ``$or``, and a top-level key named like the vector's model field (``meta.model_id``
#: once rewritten: no session has it, so it keeps nothing).
FILTERS: list[tuple[dict[str, Any] | None, Any]] = [
    (None, lambda meta: True),
    ({"team": "a"}, lambda meta: meta.get("team") == "a"),
    ({"$or": [{"team": "a"}, {"team": "b"}]}, lambda meta: meta.get("team") in ("a", "b")),
    ({"$and": [{"team": "b"}]}, lambda meta: meta.get("team") == "b"),
    ({"model_id": "test:bow"}, lambda meta: False),
    ({"$or": [{"model_id": "test:bow"}, {"team": "b"}]}, lambda meta: meta.get("team") == "b"),
]


@dataclass
class Models:
    """Which model made each message's vector (by its index in the world: ``new``, the
    query model; ``old``, :data:`OLD`; ``legacy``, no model id), the legacy marker, the
    caller's filter (an index of :data:`FILTERS`) and the tool's ``top_k``."""

    made: list[str]
    marker: str | None
    filter: int
    top_k: int


def models_for(data: st.DataObject, world: World) -> Models:
    return Models(data.draw(st.lists(st.sampled_from(["new", "old", "legacy"]),
                                     min_size=len(world.messages),
                                     max_size=len(world.messages))),
                  data.draw(st.sampled_from(MARKERS)),
                  data.draw(st.integers(0, len(FILTERS) - 1)), data.draw(st.integers(1, 5)))


async def _check_models(place: Place, world: World, models: Models, asker: str,
                        entry: str | None, requested: str | None, query: str) -> None:
    """R4 over a store holding vectors of two models of one width and legacy ones: the
    second search of the query model's space (Memory._of_own_model) merges the model
    into the scope's filter and the caller's; every answer of the index, every hit and
    neighbour of recall(), context() and the tool is in the visible set, and narrowed."""
    import numpy as np

    from chatmem.indexing import vector_entry
    from chatmem.store.base import LEGACY_KEY, LEGACY_NAMESPACE
    from chatmem.store.storage import snapshot_sessions

    mem = await opened(place, world)
    try:
        stored = await stored_world(mem, world)
        by_id = {m.id: m for m in stored}
        if models.marker is not None:
            await mem.store.meta_set(LEGACY_NAMESPACE, LEGACY_KEY, models.marker)
        # the other model's and the legacy vectors: the nearest to the question of all,
        # as the old model's of a store whose embedding.model changed
        assert mem.embedder is not None
        q = np.asarray(await mem.embedder.embed_one(query), dtype=np.float32)
        snaps = await snapshot_sessions(mem.store, {m.session_id for m in stored})
        entries = [vector_entry(m, snaps.get(m.session_id), q,
                                OLD if made == "old" else None)  # type: ignore[arg-type]
                   for m, made in zip(stored, models.made)
                   if made != "new" and m.indexable]
        if entries:
            await mem.storage.write_entries(entries)
        own_space = {"new"} | ({"legacy"} if models.marker in (None, "test:bow") else set())
        own = {m.id for m, made in zip(stored, models.made) if made in own_space}
        base = effective(world, asker, entry)
        final = {x.id: x for x in world.sessions}
        where, keeps = FILTERS[models.filter]

        def passes(m: Message, scope: str, filtered: bool) -> bool:
            return visible(world, asker, entry, scope, by_id[m.id]) and (
                not filtered or keeps(dict(final[m.session_id].metadata)))

        # every answer of the index (the first search, the one of the query model's
        # space, the cosines of full-text matches) and of full text, for the recall
        answers: list[str] = []
        index = mem.index
        assert index is not None
        query_index = index.query

        async def recorded_query(*args: Any, **kwargs: Any) -> Any:
            out = await query_index(*args, **kwargs)
            answers.extend(s.message_id for s in out)
            return out

        index.query = recorded_query  # type: ignore[method-assign]

        def assert_within(shown: list[str], scopes: list[str], filtered: bool) -> None:
            """The index's answers and what was ``shown`` are within every one of
            ``scopes`` (and the caller's filter when ``filtered``)."""
            for scope in scopes:
                for i in answers:
                    assert passes(by_id[i], scope, filtered), ("index", scope, by_id[i])
                for i in shown:
                    assert passes(by_id[i], scope, filtered), (scope, by_id[i])
            answers.clear()

        def ids(result: Any) -> list[str]:
            return [m.id for m in returned(result) if m.id is not None]

        has_resource = (final[asker].resource_id or root(world, asker).resource_id) is not None
        indexable = [m for m in stored if m.indexable]
        if base != "resource" or has_resource:
            answers.clear()
            full = await mem.recall(query, session=asker, platform=entry, top_k=50, window=0,
                                    scope=base, filter=where)
            assert_within(ids(full), [base], True)
            # the query model's vectors are all found (no other model takes their place)
            assert {h.message.id for h in full.hits} >= {
                m.id for m in indexable if m.id in own and passes(m, base, True)}
        # passive recall, and context(): the session's effective scope
        for run in ("recall", "context"):
            answers.clear()
            try:
                if run == "recall":
                    result = await mem.recall(query, session=asker, platform=entry, top_k=5,
                                              filter=where)
                else:
                    result = (await mem.turn_context(query, session=asker,
                                                     platform=entry)).recall
            except ScopeError:
                assert base == "resource"
                continue
            if result.query is not None:
                assert result.scope == base
            assert_within(ids(result), [base], run == "recall")
        # the tool and a narrowing caller: may only narrow
        answers.clear()
        try:
            out = await mem.recall(query, session=asker, platform=entry, top_k=5,
                                   scope=requested, narrow_only=True, filter=where)
        except ScopeError:
            assert "resource" in (base, requested)
        else:  # (resource without an id has no visible set)
            wide = [base] if base != "resource" or has_resource else []
            assert_within(ids(out), [*wide, out.scope], True)
        answers.clear()
        try:
            told = await mem.call_tool({"query": query, "scope": requested,
                                        "top_k": models.top_k},
                                       {"session_id": asker, "platform": entry})
        except ScopeError:
            assert "resource" in (base, requested)
        else:
            wide = [base] if base != "resource" or has_resource else []
            assert_within([h["id"] for h in told["hits"]], [*wide, told["scope"]], False)
    finally:
        await mem.close()


@settings(max_examples=1000, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(world=worlds(), data=st.data())
def test_no_recall_over_two_models_vectors_returns_a_message_outside_its_visible_set(
        world: World, data: st.DataObject) -> None:
    """R4 before ``chatmem reindex``: another model's vectors of the same width and
    legacy ones (marker absent, the query model's, the other's) make recall search the
    query model's space again with the model merged into the filters (491469d); no
    answer of that search, no hit of recall(), context() or the tool, is outside the
    visible set, with every caller's filter shape."""
    asker, entry, requested, query = asked(world, data)
    asyncio.run(check(world, asker, entry, requested, query, models=models_for(data, world)))


@pytest.mark.parametrize("backend", sorted(PLACES))
@settings(max_examples=120, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(world=worlds(), data=st.data())
def test_the_same_holds_over_two_models_on_every_stored_backend(
        backend: str, world: World, data: st.DataObject) -> None:
    asker, entry, requested, query = asked(world, data)
    asyncio.run(check(world, asker, entry, requested, query, backend,
                      models_for(data, world)))
