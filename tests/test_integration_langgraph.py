"""The LangGraph store (chatmem.integrations.langgraph) against the real LangGraph."""

from __future__ import annotations

import asyncio
import builtins
import contextlib
import importlib
import json
import re
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, TypedDict

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

pytest.importorskip("langgraph")

from langgraph.config import get_store
from langgraph.graph import END, START, StateGraph
from langgraph.store.base import (
    BaseStore,
    GetOp,
    Item,
    ListNamespacesOp,
    MatchCondition,
    PutOp,
    SearchItem,
    SearchOp,
)
from langgraph.store.memory import InMemoryStore

import chatmem.testing
from chatmem import Memory, Message, SyncMemory
from chatmem.errors import EventLoopMisuse, InvalidInput, StoreClosed, StoreError
from chatmem.extras import install_hint
from chatmem.integrations import langgraph as langgraph_store
from chatmem.integrations.langgraph import ChatmemStore, message_id, session_id
from chatmem.store.base import REPLACING_NAMESPACE
from chatmem.testing import hash_vector
from readme import python_blocks, section


@pytest.fixture
async def store(mem: Memory) -> ChatmemStore:
    return ChatmemStore(mem, index={"fields": ["text"]})


def hash_embed(texts: list[str]) -> list[list[float]]:
    """The test embedder's vectors, for LangGraph's own InMemoryStore."""
    out = []
    for t in texts:
        v = hash_vector(t, 384)
        out.append((v / np.linalg.norm(v)).tolist())
    return out


ITEMS: list[tuple[tuple[str, ...], str, dict[str, Any]]] = [
    (("memories", "u1"), "tea", {"text": "I drink green tea every morning", "n": 3,
                                 "kind": "habit", "tags": ["a", "b"], "meta": {"lang": "en"}}),
    (("memories", "u1"), "dog", {"text": "my dog is called Rex", "n": 5, "kind": "fact",
                                 "meta": {"lang": "en"}}),
    (("memories", "u2"), "job", {"text": "I work as a baker in Lyon", "n": 1, "kind": "fact",
                                 "meta": {"lang": "fr"}}),
    (("memories", "u2", "drafts"), "d1", {"text": "a draft about tea", "n": 7}),
    (("prefs", "u1"), "theme", {"text": "dark mode please", "n": 2, "kind": "pref"}),
]


async def fill(*stores: BaseStore) -> None:
    for s in stores:
        for ns, key, value in ITEMS:
            await s.aput(ns, key, value)


# --------------------------------------------------------------------------- basics

async def test_put_get_roundtrip_and_update_keeps_created_at(store: ChatmemStore,
                                                             mem: Memory) -> None:
    value = {"text": "I like tea", "nested": {"a": [1, 2, {"b": None}]}, "x": 1.5}
    await store.aput(("memories", "u1"), "k", value)
    item = await store.aget(("memories", "u1"), "k")
    assert isinstance(item, Item)
    assert (item.namespace, item.key, item.value) == (("memories", "u1"), "k", value)
    assert item.created_at.tzinfo is not None and item.created_at <= item.updated_at
    await asyncio.sleep(0.01)
    await store.aput(("memories", "u1"), "k", {"text": "I like coffee"})
    again = await store.aget(("memories", "u1"), "k")
    assert again is not None and again.value == {"text": "I like coffee"}
    assert again.created_at == item.created_at and again.updated_at > item.updated_at
    # one message per item, in the namespace's session, with the item's text as content
    page = await mem.list_messages(session=session_id(("memories", "u1")))
    assert [m.content for m in page.messages] == ["I like coffee"]
    assert page.messages[0].id == message_id(("memories", "u1"), "k")
    session = await mem.get_session("langgraph:memories.u1")
    assert session is not None and session.resource_id == "u1"
    assert await store.aget(("memories", "u1"), "missing") is None
    assert await store.aget(("memories", "u2"), "k") is None


async def test_a_tuple_in_a_value_is_stored_as_a_list_as_postgres_store_does(
        store: ChatmemStore) -> None:
    """A message's own metadata refuses a tuple (it would be read back as a list); an
    item's value, which LangGraph asks only to be JSON-serialisable, keeps being taken
    and read back as the list JSON holds, as LangGraph's PostgresStore does."""
    await store.aput(("a",), "k", {"text": "pair", "v": (1, (2, 3)), "w": [{"t": ("x",)}]})
    item = await store.aget(("a",), "k")
    assert item is not None and item.value == {"text": "pair", "v": [1, [2, 3]],
                                               "w": [{"t": ["x"]}]}
    assert [i.key for i in await store.asearch(("a",), query="pair")] == ["k"]


async def test_delete(store: ChatmemStore) -> None:
    await store.aput(("a", "b"), "k", {"text": "x"})
    await store.adelete(("a", "b"), "k")
    assert await store.aget(("a", "b"), "k") is None
    await store.adelete(("a", "b"), "k")  # deleting a missing item is a no-op
    assert await store.asearch(("a",)) == []
    assert await store.alist_namespaces() == []


async def test_values_survive_reopening(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path}/m.db"
    async with await Memory.open(url, embedder=chatmem.testing.embedder()) as m1:
        await ChatmemStore(m1).aput(("memories", "u1"), "k", {"text": "kept", "n": 1})
    async with await Memory.open(url, embedder=chatmem.testing.embedder()) as m2:
        s2 = ChatmemStore(m2)
        item = await s2.aget(("memories", "u1"), "k")
        assert item is not None and item.value == {"text": "kept", "n": 1}
        assert await s2.alist_namespaces() == [("memories", "u1")]


async def test_forget_resource_erases_a_users_items(store: ChatmemStore, mem: Memory) -> None:
    await fill(store)
    erased = await mem.forget(resource_id="u1")
    assert erased.messages == 3  # ("memories","u1") x2 and ("prefs","u1")
    assert await store.aget(("memories", "u1"), "tea") is None
    assert await store.alist_namespaces() == [("memories", "u2"), ("memories", "u2", "drafts")]


async def test_namespace_map(mem: Memory) -> None:
    store = ChatmemStore(mem, namespace_map=lambda ns: ns[0])
    await store.aput(("u9", "memories"), "k", {"text": "x"})
    session = await mem.get_session(session_id(("u9", "memories")))
    assert session is not None and session.resource_id == "u9"


async def test_invalid_namespaces_are_refused(store: ChatmemStore) -> None:
    from langgraph.store.base import GetOp, InvalidNamespaceError, PutOp, SearchOp

    for bad in [("a.b",), ("",), ("langgraph", "x")]:
        with pytest.raises(ValueError):
            await store.aput(bad, "k", {"text": "x"})
    # ops given to abatch directly are checked too (no ("a", "b") alias of ("a.b",))
    for op in [PutOp(("a.b",), "k", {"text": "x"}), GetOp(("a", ""), "k"),
               SearchOp(("a\x00",))]:
        with pytest.raises(InvalidNamespaceError):
            await store.abatch([op])
    assert await store.alist_namespaces() == []


async def test_filters_are_json_strict(store: ChatmemStore) -> None:
    await store.aput(("f",), "bool", {"text": "flag tea", "v": True})
    await store.aput(("f",), "one", {"text": "one tea", "v": 1})
    await store.aput(("f",), "str", {"text": "string tea", "v": "5"})
    await store.aput(("f",), "big", {"text": "big tea", "v": 2**60})
    for query in (None, "tea"):
        async def keys(flt: dict[str, Any], query: str | None = query) -> set[str]:
            return {h.key for h in await store.asearch(("f",), query=query, filter=flt)}

        assert await keys({"v": 1}) == {"one"}
        assert await keys({"v": True}) == {"bool"}
        assert await keys({"v": {"$gte": 1}}) == {"one", "big"}
        assert await keys({"v": {"$ne": 1}}) == {"bool", "str", "big"}
        assert await keys({"v": "5"}) == {"str"}
        assert await keys({"v": 2**60}) == {"big"}  # beyond 2**53: checked on the hits



@pytest.mark.parametrize(("flt", "words"), [
    ({"v": {"$in": [1, 2]}}, 'filter.v: "$in" is not a filter operator; LangGraph\'s '
                             "filters take $eq, $gt, $gte, $lt, $lte, $ne"),
    ({"v": {"$gt": 1, "lt": 5}}, 'filter.v: "lt" is not a filter operator'),
    ({"v": {"$gt": None}}, "filter.v.$gt must be a number (a range compares numbers), "
                           "got null"),
    ({"v": {"$lte": "5"}}, 'filter.v.$lte must be a number (a range compares numbers), '
                           'got "5"'),
    ({"v": {"$gte": True}}, "filter.v.$gte must be a number"),
    ({"a": {"b": {"$lt": [1]}}}, "filter.a.b.$lt must be a number"),
])
async def test_a_filter_langgraph_cannot_mean_is_refused_naming_where(
        store: ChatmemStore, flt: dict[str, Any], words: str) -> None:
    """An unknown operator or a range with no number to compare: before, it matched
    nothing without a word (an empty store, or stored values that are not numbers) or
    raised a raw ValueError ("Unsupported operator: $in") once an item was compared."""
    for query in (None, "tea"):
        with pytest.raises(InvalidInput) as refused:
            await store.asearch(("f",), query=query, filter=flt)
        assert words in str(refused.value)
    await store.aput(("f",), "one", {"text": "one tea", "v": 1, "a": {"b": 0}})
    with pytest.raises(InvalidInput) as refused:
        await store.asearch(("f",), filter=flt)
    assert words in str(refused.value)
    with pytest.raises(InvalidInput):  # a batch runs none of its ops
        await store.abatch([PutOp(("f",), "two", {"text": "two", "v": 2}),
                            SearchOp(("f",), filter=flt)])
    assert await store.aget(("f",), "two") is None
    assert [h.key for h in await store.asearch(("f",), filter={"v": {"$gt": 0, "$eq": 1}})] \
        == ["one"]


# --------------------------------------------------------------------------- as InMemoryStore

LISTED_SEARCHES: list[dict[str, Any]] = [
    {"namespace_prefix": ()},
    {"namespace_prefix": ("memories",)},
    {"namespace_prefix": ("memories", "u2")},
    {"namespace_prefix": ("memories", "u3")},
    {"namespace_prefix": (), "filter": {"kind": "fact"}},
    {"namespace_prefix": (), "filter": {"n": {"$gte": 3}}},
    {"namespace_prefix": (), "filter": {"n": {"$gt": 1, "$lt": 7}}},
    {"namespace_prefix": (), "filter": {"kind": {"$ne": "fact"}}},
    {"namespace_prefix": (), "filter": {"meta": {"lang": "en"}}},
    {"namespace_prefix": (), "filter": {"tags": ["a", "b"]}},
    {"namespace_prefix": (), "filter": {"kind": None}},
    {"namespace_prefix": ("memories",), "filter": {"kind": "fact", "n": 5}},
    {"namespace_prefix": (), "limit": 2, "offset": 1},
]


@pytest.mark.parametrize("kwargs", LISTED_SEARCHES)
async def test_listing_search_matches_in_memory_store(store: ChatmemStore,
                                                      kwargs: dict[str, Any]) -> None:
    ref = InMemoryStore()
    await fill(store, ref)
    prefix = kwargs.pop("namespace_prefix")
    ours = await store.asearch(prefix, **kwargs)
    theirs = await ref.asearch(prefix, **kwargs)
    assert all(isinstance(i, SearchItem) and i.score is None for i in ours)
    if "limit" in kwargs:  # orders differ (newest first here), so compare counts
        assert len(ours) == len(theirs)
    else:
        assert sorted((i.namespace, i.key) for i in ours) == \
            sorted((i.namespace, i.key) for i in theirs)
        assert {i.key: i.value for i in ours} == {i.key: i.value for i in theirs}


async def test_listing_is_newest_first_and_pages(store: ChatmemStore) -> None:
    await fill(store)
    keys = [i.key for i in await store.asearch((), limit=100)]
    assert keys == [key for _, key, _ in reversed(ITEMS)]
    assert [i.key for i in await store.asearch((), limit=2, offset=1)] == keys[1:3]
    assert await store.asearch((), limit=0) == []


async def test_every_listing_window_is_a_slice_of_the_whole_newest_first(
        store: ChatmemStore, mem: Memory, monkeypatch: pytest.MonkeyPatch) -> None:
    """A listing reads each namespace newest first and leaves it once its next item is
    older than the last one kept, in pages that grow: every window (across page ends,
    with items of one millisecond in one namespace and in several, with a filter) is
    the slice of the whole listing, which is newest first, ties by message id."""
    # three writers of one memory on a stopped clock: each writes 1000, 1001, …, so a
    # time is held by up to three items, in one namespace and across namespaces, and
    # page ends fall between items of one time
    monkeypatch.setattr("chatmem.integrations.langgraph._now_ms", lambda: 1_000)
    writers = [store, ChatmemStore(mem), ChatmemStore(mem)]
    for i in range(50):
        for w, u in ((0, "u1"), (1, "u1"), (0, "u2"), (1, "u3"), (2, "u1")):
            await writers[w].aput(("memories", u), f"k{i:02d}-{w}",
                                  {"text": f"item {i}", "n": i})
    whole = await store.asearch(("memories",), limit=1_000)
    assert len(whole) == 250
    assert [(i.namespace, i.key) for i in whole] == [
        (i.namespace, i.key) for i in sorted(
            whole, key=lambda i: (-i.updated_at.timestamp(), message_id(i.namespace, i.key)))]
    for offset, limit in ((0, 1), (0, 10), (5, 20), (15, 2), (16, 16), (17, 16), (40, 30),
                          (63, 7), (100, 60), (249, 5), (250, 3)):
        window = await store.asearch(("memories",), limit=limit, offset=offset)
        assert [(i.namespace, i.key) for i in window] == \
            [(i.namespace, i.key) for i in whole[offset:offset + limit]], (offset, limit)
    late = [i for i in whole if i.value["n"] >= 25]
    for offset, limit in ((0, 3), (10, 25), (70, 10)):
        window = await store.asearch(("memories",), limit=limit, offset=offset,
                                     filter={"n": {"$gte": 25}})
        assert [(i.namespace, i.key) for i in window] == \
            [(i.namespace, i.key) for i in late[offset:offset + limit]]


async def test_a_store_shared_with_chats_is_not_read_whole(store: ChatmemStore,
                                                           mem: Memory) -> None:
    """Listing items and namespaces read every session of the store (a chat store:
    100,000 sessions took 1.3 s a call): LangGraph's sessions are now read a page at
    a time from their id prefix on, around sessions that sort before and after it."""
    from chatmem import Session

    for sid in ("chat-1", "langgraph", "langgraph;x", "zz-chat", "langgraph:"):
        await mem.upsert_session(Session(id=sid))
    ref = InMemoryStore()
    await fill(store, ref)
    every = mem.store.all_sessions

    async def not_all() -> Any:
        raise AssertionError("every session of the store read")

    mem.store.all_sessions = not_all  # type: ignore[method-assign]
    try:
        assert await store.alist_namespaces() == await ref.alist_namespaces()
        ours = await store.asearch(("memories",), limit=100)
        theirs = await ref.asearch(("memories",), limit=100)
        assert sorted(i.key for i in ours) == sorted(i.key for i in theirs)
    finally:
        mem.store.all_sessions = every  # type: ignore[method-assign]


NAMESPACE_LISTINGS: list[dict[str, Any]] = [
    {},
    {"prefix": ("memories",)},
    {"prefix": ("memories", "*")},
    {"suffix": ("u1",)},
    {"prefix": ("*", "u1")},
    {"prefix": ("memories",), "suffix": ("drafts",)},
    {"max_depth": 1},
    {"max_depth": 2},
    {"prefix": ("memories",), "max_depth": 2},
    {"limit": 2},
    {"limit": 2, "offset": 2},
    {"prefix": ("nothing",)},
]


@pytest.mark.parametrize("kwargs", NAMESPACE_LISTINGS)
async def test_list_namespaces_matches_in_memory_store(store: ChatmemStore,
                                                       kwargs: dict[str, Any]) -> None:
    ref = InMemoryStore()
    await fill(store, ref)
    assert await store.alist_namespaces(**kwargs) == await ref.alist_namespaces(**kwargs)


async def test_semantic_search_ranks_like_in_memory_store(store: ChatmemStore) -> None:
    ref = InMemoryStore(index={"dims": 384, "embed": hash_embed, "fields": ["text"]})
    await fill(store, ref)
    for query in ["green tea morning", "dog Rex", "baker Lyon", "dark mode"]:
        ours = await store.asearch(("memories",), query=query, limit=2)
        theirs = await ref.asearch(("memories",), query=query, limit=2)
        assert ours[0].key == theirs[0].key, query
        assert all(i.namespace[0] == "memories" for i in ours)
        assert ours[0].score is not None and ours[0].score >= (ours[1].score or 0)


async def test_semantic_search_with_filter_prefix_and_paging(store: ChatmemStore) -> None:
    await fill(store)
    hits = await store.asearch(("memories",), query="tea", filter={"kind": "fact"})
    assert {h.key for h in hits} == {"dog", "job"}
    hits = await store.asearch(("memories", "u2"), query="tea")
    assert hits[0].key == "d1" and {h.key for h in hits} == {"d1", "job"}
    hits = await store.asearch((), query="tea", filter={"meta": {"lang": "en"}, "n": {"$lt": 4}})
    assert [h.key for h in hits] == ["tea"]
    everything = await store.asearch((), query="tea", limit=10)
    assert len(everything) == len(ITEMS)
    assert [h.key for h in await store.asearch((), query="tea", limit=2, offset=1)] == \
        [h.key for h in everything[1:3]]
    # filters that only LangGraph's semantics decide (None, lists) are checked on the hits
    assert {h.key for h in await store.asearch((), query="tea", filter={"kind": None})} == {"d1"}
    assert [h.key for h in await store.asearch((), query="tea",
                                               filter={"tags": ["a", "b"]})] == ["tea"]


async def test_a_query_with_a_filter_chatmem_cannot_translate_finds_every_match(
        store: ChatmemStore, mem: Memory) -> None:
    """A semantic search whose filter does not translate to a chatmem filter (a list, a
    boolean, None) took the recall's 100 best hits and checked the filter on them: the
    ten items it matches, ranked below a hundred others for the query, were not found
    ([] where InMemoryStore, which filters and then ranks, answers all ten). The items
    under the prefix are now filtered first and recall ranks those."""
    theirs = InMemoryStore(index={"dims": 384, "embed": hash_embed, "fields": ["text"]})
    for s in (store, theirs):
        for i in range(10):
            await s.aput(("c",), f"z{i}", {"text": f"zebra stripes {i}", "tags": ["t"],
                                           "ok": True})
        await s.abatch([PutOp(("c",), f"x{i}", {"text": f"green tea number {i}",
                                                "tags": ["u"], "ok": False})
                        for i in range(120)])
    for filter_ in ({"tags": ["t"]}, {"ok": True}):
        for limit, offset in ((10, 0), (4, 3), (20, 5)):
            ours = await store.asearch(("c",), query="green tea", filter=filter_,
                                       limit=limit, offset=offset)
            assert len(ours) == len(await theirs.asearch(
                ("c",), query="green tea", filter=filter_, limit=limit, offset=offset))
            assert all(h.key.startswith("z") and h.score is not None for h in ours)
        every = await store.asearch(("c",), query="green tea", filter=filter_, limit=10)
        assert {h.key for h in every} == {f"z{i}" for i in range(10)}
    assert await store.asearch(("c",), query="tea", filter={"tags": ["none"]}) == []


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_query_paging_past_what_recall_ranks_is_refused_not_cut_short(
        tmp_path: Path, backend: str) -> None:
    """A search with a query ranks chatmem's recall's best hits, 1,000 at most: a page
    with offset + limit past them answered fewer items than exist ([] at offset 1000
    over 1,005 items, where InMemoryStore answers the last 5), silently. Such a page is
    now refused, naming the limit and the fix; a page within them, or past them over
    fewer items, answers as InMemoryStore does."""
    async with _two_memories(tmp_path, backend) as (mem, _):
        await _deep_pages(ChatmemStore(mem, index={"fields": ["text"]}))


async def _deep_pages(store: ChatmemStore) -> None:
    theirs = InMemoryStore(index={"dims": 384, "embed": hash_embed, "fields": ["text"]})
    for s in (store, theirs):
        await s.abatch([PutOp(("d",), f"k{i}", {"text": f"green tea note {i}"})
                        for i in range(1005)])
        await s.aput(("e",), "few", {"text": "green tea alone"})
    for prefix, limit, offset in ((("d",), 10, 990), (("d",), 5, 0), (("e",), 10, 995),
                                  (("e",), 2000, 0)):
        ours = await store.asearch(prefix, query="green tea", limit=limit, offset=offset)
        assert len(ours) == len(await theirs.asearch(prefix, query="green tea", limit=limit,
                                                     offset=offset))
    assert len(await theirs.asearch(("d",), query="green tea", limit=10, offset=1000)) == 5
    for limit, offset in ((10, 1000), (2000, 0), (10, 995)):
        with pytest.raises(InvalidInput, match=re.escape(
                f"offset + limit: a search with a query ranks the 1,000 items that fit it "
                f"best at most (chatmem's recall top_k), and more match: offset {offset} + "
                f"limit {limit} = {offset + limit} is past them; page within the first "
                f"1,000, narrow namespace_prefix or filter, or search without query (which "
                f"lists every matching item, newest first)")):
            await store.asearch(("d",), query="green tea", limit=limit, offset=offset)
    listed = await store.asearch(("d",), limit=10, offset=1000)
    assert len(listed) == 5


async def test_a_query_whose_filter_matches_too_many_to_rank_is_refused_not_cut_short(
        store: ChatmemStore) -> None:
    """A filter chatmem's cannot say (a list), matching more than 800 items: it was
    checked on the recall's best hits alone, and items that match it but rank below a
    thousand others were not found ([] where InMemoryStore, which filters and then
    ranks, answers 10), silently. Refused now, naming the filter, the limits and the
    fix; a filter that translates answers."""
    theirs = InMemoryStore(index={"dims": 384, "embed": hash_embed, "fields": ["text"]})
    for s in (store, theirs):
        await s.abatch([PutOp(("c",), f"z{i}", {"text": f"zebra stripes {i}", "tags": ["t"],
                                                "kind": "z"}) for i in range(810)])
        await s.abatch([PutOp(("c",), f"x{i}", {"text": f"green tea number {i}",
                                                "tags": ["u"], "kind": "x"})
                        for i in range(1000)])
    assert len(await theirs.asearch(("c",), query="green tea", filter={"tags": ["t"]})) == 10
    with pytest.raises(InvalidInput, match=re.escape(
            "filter: more than 800 items under the prefix match it, and with a query a "
            "filter chatmem's cannot say (None, a list, a boolean) is then checked on the "
            "recall's 1,000 best hits, which hold 0 of them, fewer than offset + limit = "
            "10; narrow namespace_prefix or filter to 800 items or fewer, filter with what "
            "chatmem's filters say ($eq $ne $gt $gte $lt $lte on text and numbers), or "
            "search without query (which lists every matching item, newest first)")):
        await store.asearch(("c",), query="green tea", filter={"tags": ["t"]})
    ours = await store.asearch(("c",), query="green tea", filter={"kind": "z"})
    assert len(ours) == 10 and all(h.key.startswith("z") for h in ours)
    assert len(await store.asearch(("c",), filter={"tags": ["t"]}, limit=1000)) == 810


async def test_an_item_does_not_inherit_the_score_of_the_one_before(store: ChatmemStore,
                                                                    mem: Memory) -> None:
    await store.aput(("memories", "u1"), "a", {"text": "I like green tea"})
    await store.aput(("memories", "u1"), "b", {"text": "my dog is called Rex"})
    await store.aput(("memories", "u2"), "c", {"text": "tea is boring"})
    hits = await store.asearch(("memories",), query="green tea")
    assert [h.key for h in hits] == ["a", "c", "b"]
    assert mem.config.search.reply_share > 0  # the memory's own recall is unchanged
    timed = []
    mem.telemetry.listeners.append(timed.append)
    await store.asearch(("memories",), query="tea")
    assert [t.what for t in timed] == ["recall"]


async def test_update_replaces_the_vector(store: ChatmemStore) -> None:
    await store.aput(("m",), "k", {"text": "green tea"})
    await store.aput(("m",), "other", {"text": "sailing boats"})
    assert (await store.asearch(("m",), query="green tea"))[0].key == "k"
    await store.aput(("m",), "k", {"text": "black coffee"})
    hits = await store.asearch(("m",), query="black coffee")
    assert [h.key for h in hits] == ["k", "other"]  # one hit per item, no stale vector
    assert hits[0].value == {"text": "black coffee"}


async def test_a_bad_value_leaves_the_old_item(store: ChatmemStore) -> None:
    from chatmem.errors import InvalidInput

    await store.aput(("m",), "k", {"text": "good"})
    with pytest.raises(InvalidInput):
        await store.aput(("m",), "k", {"text": "bad", "when": float("nan")})
    item = await store.aget(("m",), "k")
    assert item is not None and item.value == {"text": "good"}


def deep_and_looped() -> tuple[dict[str, object], dict[str, object]]:
    deep: dict[str, object] = {}
    node = deep
    for _ in range(10_000):  # deeper than Python's recursion limit
        node["a"] = {}
        node = node["a"]  # type: ignore[assignment]
    looped: dict[str, object] = {}
    looped["me"] = looped
    return deep, looped


async def test_a_value_chatmem_cannot_store_is_named_and_writes_nothing(
        store: ChatmemStore, mem: Memory) -> None:
    # json.dumps raised a bare RecursionError on these, after the namespace's session
    # had been registered
    from chatmem.errors import InvalidInput

    deep, looped = deep_and_looped()
    for bad, where in ((deep, "value.d.a.a.a"), (looped, "value.d.me.me.me"),
                       (float("inf"), "value.d: inf is not a JSON number"),
                       ({1, 2}, "value.d: must be JSON")):
        value = {"text": "x", "d": bad}
        with pytest.raises(InvalidInput, match=re.escape(where)):
            await store.aput(("fresh", "u9"), "k", value)
    assert await mem.get_session(session_id(("fresh", "u9"))) is None
    assert await store.alist_namespaces() == []


async def test_concurrent_puts_of_one_key(store: ChatmemStore, mem: Memory) -> None:
    await asyncio.gather(*(store.aput(("m",), "k", {"text": f"v{i}"}) for i in range(8)))
    item = await store.aget(("m",), "k")
    assert item is not None and item.value == {"text": "v7"}
    assert len((await mem.list_messages(session=session_id(("m",)))).messages) == 1


async def test_a_cancelled_put_leaves_the_old_value_or_the_new_never_none(
        store: ChatmemStore, mem: Memory) -> None:
    # a graph run stopped mid-put: the old item was erased, the new one not stored yet,
    # and the key had no item at all (cancelled after n steps of the loop: most n in
    # 14..120 lost the item before); a put cancelled after its new value was stored now
    # puts the old one back, as a cancelled batch does (the value before the put is
    # all a cancelled put can leave; before, the new one when it had been stored)
    await store.aput(("m",), "k", {"text": "v0"})
    outcomes: set[str] = set()
    for n in range(80):
        put = asyncio.ensure_future(store.aput(("m",), "k", {"text": f"v{n + 1}"}))
        for _ in range(n):
            await asyncio.sleep(0)
        put.cancel()
        try:
            await put
            outcomes.add("ended")
        except asyncio.CancelledError:
            outcomes.add("cancelled")
        item = await store.aget(("m",), "k")
        assert item is not None, f"cancelled after {n} steps: the item is gone"
        if put.cancelled():
            assert item.value == {"text": "v0"}, f"cancelled after {n} steps"
        else:  # it ended before the cancellation reached it
            await store.aput(("m",), "k", {"text": "v0"})
        listed = await mem.list_messages(session=session_id(("m",)))
        assert [m.id for m in listed.messages] == [message_id(("m",), "k")]
    assert "cancelled" in outcomes


async def test_without_recall_a_query_lists(tmp_path: Path) -> None:
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=chatmem.testing.embedder(),
                                 semantic_recall=False) as memory:
        store = ChatmemStore(memory)
        await store.aput(("m",), "k", {"text": "tea"})
        hits = await store.asearch(("m",), query="anything")
        assert [(h.key, h.score) for h in hits] == [("k", None)]


async def test_a_blank_query_lists_as_no_query_does(store: ChatmemStore) -> None:
    """A query of spaces searched for nothing and found nothing (an empty list); recall
    now refuses a blank query, and a blank query lists, as ``query=None`` and ``""``."""
    await store.aput(("m",), "k", {"text": "tea"})
    for query in (None, "", "   "):
        hits = await store.asearch(("m",), query=query)
        assert [(h.key, h.score) for h in hits] == [("k", None)], query


async def test_index_false_and_per_item_fields(store: ChatmemStore) -> None:
    """An item put with index=False is found by get and by a search without a query, not
    by a query, even one whose answer is shorter than limit: as LangGraph's PostgresStore
    answers (its query search joins the items' vectors), which a production user moves
    from; InMemoryStore would fill the answer with it, score None."""
    await store.aput(("docs",), "secret", {"text": "unicorn password"}, index=False)
    await store.aput(("docs",), "title", {"title": "unicorn stories", "text": "other"},
                     index=["title"])
    hits = await store.asearch(("docs",), query="unicorn")
    assert [h.key for h in hits] == ["title"]
    assert {h.key for h in await store.asearch(("docs",))} == {"secret", "title"}
    item = await store.aget(("docs",), "secret")
    assert item is not None and item.value == {"text": "unicorn password"}


async def test_whole_value_is_embedded_by_default(mem: Memory) -> None:
    store = ChatmemStore(mem)
    await store.aput(("docs",), "a", {"colour": "turquoise", "n": 1})
    await store.aput(("docs",), "b", {"colour": "brown", "n": 2})
    assert (await store.asearch(("docs",), query="turquoise"))[0].key == "a"


async def test_a_batch_reads_before_it_writes_as_langgraphs_stores(store: ChatmemStore,
                                                                    mem: Memory) -> None:
    """LangGraph's InMemoryStore and PostgresStore answer a batch's reads (get, search,
    list_namespaces) against the items as they were before the batch, then apply the
    last put (or delete) of each namespace and key. ChatmemStore ran the ops in order:
    a get after a put of the same batch read the new value, where code moving from
    LangGraph's stores read the old one."""
    ops = [
        PutOp(("a",), "k", {"text": "one"}),
        GetOp(("a",), "k"),
        PutOp(("a",), "old", {"text": "after"}),
        GetOp(("a",), "old"),
        SearchOp(("a",)),
        PutOp(("b",), "new", {"text": "new"}),
        ListNamespacesOp(),
        PutOp(("a",), "k", {"text": "two"}),
        PutOp(("a",), "old", None),
        PutOp(("a",), "gone", {"text": "put, then deleted"}),
        PutOp(("a",), "gone", None),
    ]
    theirs = InMemoryStore()
    answers = []
    for s in (store, theirs):
        await s.aput(("a",), "old", {"text": "before"})
        results = await s.abatch(ops)
        answers.append([
            [(i.key, i.value) for i in r] if isinstance(r, list) and r
            and isinstance(r[0], Item) else
            (r.key, r.value) if isinstance(r, Item) else r for r in results])
        after = [await s.aget(ns, key) for ns, key in
                 [(("a",), "k"), (("a",), "old"), (("a",), "gone"), (("b",), "new")]]
        answers.append([None if i is None else i.value for i in after])
    assert answers[0] == answers[2] and answers[1] == answers[3]
    assert answers[0] == [None, None, None, ("old", {"text": "before"}),
                          [("old", {"text": "before"})], None, [("a",)],
                          None, None, None, None]
    assert answers[1] == [{"text": "two"}, None, None, {"text": "new"}]
    # the first put of "k" and the put of "gone" were never written
    assert [m.content for m in (await mem.get([message_id(("a",), "k")])).values()] \
        == ["two"]
    assert await mem.get([message_id(("a",), "gone")]) == {}


async def test_a_batch_put_of_a_namespace_given_as_a_list_is_written_once(
        store: ChatmemStore, mem: Memory) -> None:
    """A batch op's namespace may be a list (its checks take a tuple or a list, as JSON
    gives one): since a batch applies only the last put of each namespace and key, a
    PutOp(["a"], …) was a raw "TypeError: unhashable type: 'list'", and a put of ["a"]
    and one of ("a",) of the same key were both applied, in the order of their first
    put, not the last one. The last put of the item is the one kept, whichever form."""
    await store.abatch([PutOp(["a"], "k", {"text": "one"})])  # type: ignore[arg-type]
    item = await store.aget(("a",), "k")
    assert item is not None and item.value == {"text": "one"}
    await store.abatch([PutOp(("a",), "k", {"text": "two"}),
                        PutOp(["a"], "k", {"text": "three"}),  # type: ignore[arg-type]
                        PutOp(("a",), "k", {"text": "four"})])
    item = await store.aget(("a",), "k")
    assert item is not None and item.value == {"text": "four"}
    assert [m.content for m in (await mem.get([message_id(("a",), "k")])).values()] \
        == ["four"]


async def test_a_batch_search_of_a_prefix_given_as_a_list_finds_its_items(
        store: ChatmemStore) -> None:
    """A SearchOp's namespace_prefix given as a list (["memories"], as JSON gives it:
    the batch's checks take it, as LangGraph's PostgresStore does, which joins its
    labels) compared unequal to every item's namespace, a tuple: the search answered []
    silently, with a query or without. It answers as the tuple's search does."""
    await fill(store)
    for query in (None, "tea"):
        for prefix in (["memories"], ["memories", "u1"], []):
            want = await store.asearch(tuple(prefix), query=query)
            assert want
            got = (await store.abatch([SearchOp(prefix, None, 10, 0,  # type: ignore[arg-type]
                                                query=query)]))[0]
            assert [(i.namespace, i.key) for i in got] \
                == [(i.namespace, i.key) for i in want], (prefix, query)


async def test_a_batch_with_a_put_it_cannot_write_writes_none_of_it(store: ChatmemStore,
                                                                      mem: Memory) -> None:
    """A put whose indexed text is over a message's limit (index naming a long field
    many times) passed the batch's checks and was refused only when written
    ("item.content has 4500049 characters"): the puts of the batch before it were
    written, though README says a batch with a bad argument runs none of its ops. An op
    that is none of LangGraph's four was a raw ValueError. Both are now refused before
    anything runs, as InvalidInput naming what is wrong (a ValueError still, as
    LangGraph's stores raise for an unknown op); nothing is written."""
    long = {"text": "w " * 45_000}
    for bad, match in [(PutOp(("a",), "b", long, index=["text"] * 50),
                        r"^index: the value's indexed text has 4500049 characters; the "
                        r"limit is 200000"),
                       (("put", ("a",), "b", {}), r"^Unknown operation type: <class "
                        r"'tuple'> \(an op is a GetOp, PutOp, SearchOp or ListNamespacesOp\)")]:
        with pytest.raises(InvalidInput, match=match):
            await store.abatch([PutOp(("a",), "first", {"text": "x"}), GetOp(("a",), "k"),
                                bad])  # type: ignore[list-item]
        assert await mem.get([message_id(("a",), "first")]) == {}
        assert await store.asearch(("a",)) == []
    with pytest.raises(InvalidInput, match=r"^index: the value's indexed text"):
        await store.aput(("a",), "one", long, index=["text"] * 50)
    assert await store.asearch(("a",)) == []


async def _refuse_messages(mem: Memory, contents: list[str]) -> None:
    """A real failure of the store's database: a trigger refusing ('disk full') to store
    a message whose content is one of ``contents`` (the text an item indexes)."""
    from backends import refuse_inserts

    listed = ", ".join(f"'{c}'" for c in contents)
    await refuse_inserts(mem.store, "messages", f"NEW.content IN ({listed})")


async def _stored_items(mem: Memory) -> dict[str, dict[str, Any]]:
    """Every item's message as stored (its value, times, role, content), by id."""
    page = await mem.list_messages(limit=1000)
    assert page.next_cursor is None
    out = {}
    for m in page.messages:
        d = m.to_dict()
        d.pop("index_state", None)
        out[m.id or ""] = d
    return out


async def _before_failing_batch(mem: Memory) -> tuple[ChatmemStore, dict[str, dict[str, Any]]]:
    """A store holding the two items FAILING_BATCH replaces and deletes, indexed, and
    every stored message as it is before that batch."""
    store = ChatmemStore(mem, index={"fields": ["text"]})
    await store.aput(("a",), "k0", {"text": "old zero"})
    await store.aput(("a",), "gone", {"text": "my cat is called Tom"})
    await mem.flush()
    return store, await _stored_items(mem)


#: A batch whose fourth op the store refuses (_refuse_messages of "poison"): a
#: replacement, a delete and a new namespace's put before it, a put after it.
FAILING_BATCH = [PutOp(("a",), "k0", {"text": "new zero"}), PutOp(("a",), "gone", None),
                 PutOp(("b",), "k1", {"text": "one"}), PutOp(("a",), "k2", {"text": "poison"}),
                 PutOp(("a",), "k3", {"text": "three"})]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_batch_the_store_refuses_part_way_leaves_it_as_before(
        tmp_path: Path, backend: str) -> None:
    """A batch of puts and deletes whose fourth the store refused (a real fault of the
    database: a trigger, as a full disk) kept the three writes before it (a value
    replaced, an item deleted, a new namespace) and lost the one after it, and the
    error was the store's alone ("disk full"), naming no op. LangGraph's PostgresStore
    writes a batch's puts in one transaction: none of them then. The writes before the
    failing one are now undone, each item's message put back as it was (its value,
    times and vector), and the error names the op and says so."""
    async with _two_memories(tmp_path, backend) as (mem, _):
        store, before = await _before_failing_batch(mem)
        await _refuse_messages(mem, ["poison"])
        with pytest.raises(StoreError, match=re.escape(
                'batch op 3 (put of key "k2" in namespace ["a"]) failed: ') + ".*disk full.*"
                + re.escape("; the 3 write(s) of the batch before it were undone: the "
                            "store holds the items as before the batch") + "$"):
            await store.abatch(FAILING_BATCH)
        assert await _stored_items(mem) == before
        assert await store.alist_namespaces() == [("a",)]
        # the new namespace's session stays registered, empty (README § LangGraph: no
        # session delete, and removing it would race another store's put into it)
        assert [(s.session.id, s.messages) for s in (await mem.sessions()).sessions] == [
            (session_id(("a",)), 2), (session_id(("b",)), 0)]
        assert not await _replacements_left(mem)
        hits = await store.asearch(("a",), query="what is my cat called?", limit=1)
        assert [(h.key, h.value) for h in hits] == [("gone", {"text": "my cat is called Tom"})]
        # one put or delete that fails is the store's error, as before
        with pytest.raises(StoreError, match="disk full") as failed:
            await store.aput(("a",), "k2", {"text": "poison"})
        assert "batch op" not in str(failed.value)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_failed_batch_whose_undo_the_store_refuses_too_names_what_it_kept(
        tmp_path: Path, backend: str) -> None:
    """The store refusing to put back an item's old value too (the undo of the batch's
    first op): the error says which ops keep the batch's value, the others are undone."""
    async with _two_memories(tmp_path, backend) as (mem, _):
        store = ChatmemStore(mem, index={"fields": ["text"]})
        await store.aput(("a",), "k0", {"text": "old zero"})
        await store.aput(("a",), "gone", {"text": "my cat is called Tom"})
        await _refuse_messages(mem, ["poison", "old zero"])
        with pytest.raises(StoreError, match=re.escape(
                "; 2 of the 3 write(s) of the batch before it were undone; the store "
                'refused to undo op 0 (key "k0") too: those keep the batch\'s value') + "$"):
            await store.abatch(FAILING_BATCH)
        values = {k: await store.aget(ns, k) for ns, k in
                  [(("a",), "k0"), (("a",), "gone"), (("b",), "k1"), (("a",), "k2")]}
        assert {k: i and i.value for k, i in values.items()} == {
            "k0": {"text": "new zero"}, "gone": {"text": "my cat is called Tom"},
            "k1": None, "k2": None}
        assert not await _replacements_left(mem)


async def _until(check: Any, what: str) -> None:
    """Wait (at most 30 s) until ``await check()`` is true."""
    for _ in range(3000):
        if await check():
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"never: {what}")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_batch_cancelled_part_way_leaves_the_store_as_before(
        tmp_path: Path, backend: str) -> None:
    """A batch cancelled after some of its writes were stored (a graph run stopped,
    asyncio.wait_for's timeout) kept them: a value replaced, an item deleted, a new
    namespace's item, though the batch raised CancelledError. They are now undone, as
    for a batch the store refuses part way, and the undo ends even when the task is
    cancelled again while it runs. The batch is held before its fourth write by the
    item's lock (Memory.item_lock, which every put of the item takes), held here."""
    async with _two_memories(tmp_path, backend) as (mem, _):
        store, before = await _before_failing_batch(mem)
        async with contextlib.AsyncExitStack() as held:
            await held.enter_async_context(mem.item_lock(message_id(("a",), "k2")))
            batch = asyncio.ensure_future(store.abatch(FAILING_BATCH))

            async def three_written() -> bool:
                return (await store.aget(("b",), "k1")) is not None

            await _until(three_written, "the batch's first three writes stored")
            # the undo waits for the first item's lock, held now: a cancellation lands
            # during the undo too
            await held.enter_async_context(mem.item_lock(message_id(("a",), "k0")))
            batch.cancel()
            for _ in range(20):
                await asyncio.sleep(0.01)
                batch.cancel()
            assert not batch.done()
        with pytest.raises(asyncio.CancelledError):
            await batch
        assert await _stored_items(mem) == before
        assert await store.alist_namespaces() == [("a",)]
        assert not await _replacements_left(mem)
        hits = await store.asearch(("a",), query="what is my cat called?", limit=1)
        assert [(h.key, h.value) for h in hits] == [("gone", {"text": "my cat is called Tom"})]
        # cancelled by asyncio.wait_for's timeout while it waits for the fourth item
        async with mem.item_lock(message_id(("a",), "k2")):
            with pytest.raises(asyncio.TimeoutError):
                await asyncio.wait_for(store.abatch(FAILING_BATCH), 2)
        assert await _stored_items(mem) == before


async def test_a_batch_cancelled_from_another_loop_ends_after_its_undo(
        tmp_path: Path) -> None:
    """abatch awaited on another loop than the memory's (a SyncMemory's own, as a graph
    run with ainvoke over a blocking memory) and cancelled: the batch's task on the
    memory's loop undoes its writes, and the caller's cancellation is raised once that
    has ended (asyncio.wrap_future raised it at once, the undo still running: the caller
    read the batch's values), however often it is cancelled meanwhile."""
    import threading

    with SyncMemory.open(f"sqlite:///{tmp_path}/m.db",
                         embedder=chatmem.testing.embedder()) as sync:
        mem = sync.memory
        store = ChatmemStore(sync, index={"fields": ["text"]})

        def on_memory(coro: Any) -> Any:
            return asyncio.wrap_future(asyncio.run_coroutine_threadsafe(coro, sync.loop))

        release = threading.Event()

        async def holding(key: str, got: threading.Event) -> None:
            async with mem.item_lock(message_id(("a",), key)):
                got.set()
                while not release.is_set():
                    await asyncio.sleep(0.01)

        await store.aput(("a",), "k0", {"text": "old zero"})
        await store.aput(("a",), "gone", {"text": "my cat is called Tom"})
        before = await on_memory(_stored_items(mem))
        holders = [on_memory(holding("k2", threading.Event()))]
        batch = asyncio.ensure_future(store.abatch(FAILING_BATCH))

        async def three_written() -> bool:
            return (await store.aget(("b",), "k1")) is not None

        await _until(three_written, "the batch's first three writes stored")
        got = threading.Event()
        holders.append(on_memory(holding("k0", got)))  # the undo waits for it
        await _until(lambda: asyncio.sleep(0, got.is_set()), "k0's lock held")
        for _ in range(10):
            batch.cancel()
            await asyncio.sleep(0.02)
        assert not batch.done(), "the cancellation was raised before the batch's undo"
        release.set()
        await asyncio.gather(*holders)
        with pytest.raises(asyncio.CancelledError):
            await batch
        assert await on_memory(_stored_items(mem)) == before


async def _batch_held(store: ChatmemStore, mem: Memory, loop: asyncio.AbstractEventLoop,
                      release: Any) -> tuple[asyncio.Future[Any], Any]:
    """A batch awaited on this loop (another than ``loop``, the memory's) that has written
    its first put and waits, on ``loop``, for an item lock a task there holds (the
    holder, a concurrent future) until ``release`` (a threading.Event) is set."""
    import threading

    await store.aput(("a",), "k0", {"text": "old zero"})
    got = threading.Event()

    async def holding() -> None:  # on the memory's loop: the batch waits for it
        async with mem.item_lock(message_id(("a",), "k1")):
            got.set()
            while not release.is_set():
                await asyncio.sleep(0.01)

    holder = asyncio.run_coroutine_threadsafe(holding(), loop)
    await asyncio.to_thread(got.wait)
    batch = asyncio.ensure_future(store.abatch(
        [PutOp(("a",), "k0", {"text": "new zero"}), PutOp(("a",), "k1", {"text": "one"})]))

    async def first_written() -> bool:
        item = await store.aget(("a",), "k0")
        return item is not None and item.value == {"text": "new zero"}

    await _until(first_written, "the batch's first write stored")
    return batch, holder


@contextlib.asynccontextmanager
async def _batch_held_on_sync_memory(tmp_path: Path) -> AsyncIterator[
        tuple[SyncMemory, asyncio.Future[Any], Any]]:
    """A SyncMemory on a SQLite file, and a batch held on its loop (:func:`_batch_held`)."""
    import threading

    sync = SyncMemory.open(f"sqlite:///{tmp_path}/m.db", embedder=chatmem.testing.embedder())
    release = threading.Event()
    try:
        store = ChatmemStore(sync, index={"fields": ["text"]})
        batch, holder = await _batch_held(store, sync.memory, sync.loop, release)
        yield sync, batch, holder
    finally:
        release.set()
        sync.close()


async def test_a_batch_from_another_loop_whose_sync_memory_closes_says_so(
        tmp_path: Path) -> None:
    """abatch awaited on another loop than the memory's (a SyncMemory's own) while the
    SyncMemory is closed from another thread: close() cancels the calls still running
    on its loop, and the batch's caller, never cancelled itself, got that CancelledError
    (asyncio then reads it as the caller's own cancellation: a graph run "cancelled"
    that nobody stopped). It now gets the SyncMemory's own error, as store.put and the
    SyncMemory's methods do: StoreClosed, closed while the call ran."""
    import threading

    async with _batch_held_on_sync_memory(tmp_path) as (sync, batch, holder):
        closer = threading.Thread(target=sync.close)
        closer.start()
        done, _ = await asyncio.wait({batch}, timeout=60)
        assert done, "the batch never ended"
        with pytest.raises(StoreClosed,
                           match="^this SyncMemory was closed while the call ran$"):
            await batch
        await asyncio.to_thread(closer.join)
        assert holder.cancelled()


async def test_a_batch_from_another_loop_cancelled_as_its_sync_memory_closes(
        tmp_path: Path) -> None:
    """abatch awaited on another loop than its SyncMemory's, the caller cancelled and the
    SyncMemory closed before the batch's end (close() cancels it) reached the caller's
    loop: the caller then asked the SyncMemory's loop, closed by then, to stop the
    batch, and got a raw RuntimeError ("Event loop is closed") instead of its own
    cancellation. The batch has ended (close() waits for it): the cancellation is raised."""
    async with _batch_held_on_sync_memory(tmp_path) as (sync, batch, holder):
        # in one step of this loop: the batch's caller cancelled first, then the
        # SyncMemory closed (its loop closed) before this loop hears of the batch's end
        batch.cancel()
        sync.close()
        assert sync.loop.is_closed()
        done, _ = await asyncio.wait({batch}, timeout=60)
        assert done, "the batch never ended"
        with pytest.raises(asyncio.CancelledError):
            await batch
        assert holder.cancelled()


async def test_a_batch_from_another_loop_cancelled_on_its_sync_memorys_loop_says_so(
        tmp_path: Path) -> None:
    """abatch awaited on another loop than its SyncMemory's, its task there cancelled by
    something else than the caller or close() (a task canceller on the SyncMemory's
    loop): the caller, never cancelled itself, got that CancelledError, read by asyncio
    as its own cancellation. It now gets the SyncMemory's EventLoopMisuse, naming the
    cancellation's message, as the SyncMemory's own calls (and store.batch) do; the
    batch's write is undone, as for any cancelled batch."""
    async with _batch_held_on_sync_memory(tmp_path) as (sync, batch, holder):
        def cancel_the_batch() -> None:  # on the SyncMemory's loop
            for task in asyncio.all_tasks():
                if task.get_coro().cr_code is ChatmemStore._abatch.__code__:  # type: ignore[union-attr]
                    task.cancel("a watchdog")

        sync.loop.call_soon_threadsafe(cancel_the_batch)
        done, _ = await asyncio.wait({batch}, timeout=60)
        assert done, "the batch never ended"
        with pytest.raises(EventLoopMisuse) as caught:
            await batch
        assert str(caught.value).startswith(
            "a SyncMemory call was cancelled on the SyncMemory's event loop (with the "
            "message 'a watchdog'), neither by close() nor by its caller"), caught.value
        store = ChatmemStore(sync, index={"fields": ["text"]})
        item = await store.aget(("a",), "k0")
        assert item is not None and item.value == {"text": "old zero"}
        assert not holder.done()


@contextlib.asynccontextmanager
async def _batch_held_on_a_stopped_loop(tmp_path: Path) -> AsyncIterator[
        tuple[asyncio.Future[Any], list[bool]]]:
    """A Memory on a SQLite file whose loop a thread runs, a batch held on that loop
    (:func:`_batch_held`), and the loop then stopped by its owner (not closed). Yields
    the batch and a list the test appends to once the batch was told to stop: on exit
    the loop runs again and :func:`_settled` checks that its write was undone."""
    import threading

    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever)
    runner.start()
    release = threading.Event()

    async def opened() -> tuple[Memory, ChatmemStore]:  # on the memory's loop
        mem = await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                embedder=chatmem.testing.embedder())
        return mem, ChatmemStore(mem, index={"fields": ["text"]})

    mem, store = await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(opened(), loop))
    holder, stopped = None, []
    try:
        batch, holder = await _batch_held(store, mem, loop, release)
        loop.call_soon_threadsafe(loop.stop)
        await asyncio.to_thread(runner.join)
        yield batch, stopped
    finally:
        release.set()
        # the batch, told to stop, undoes its write once the memory's loop runs again
        await asyncio.to_thread(loop.run_until_complete,
                                _settled(store, mem, holder, bool(stopped)))
        loop.close()


async def test_a_batch_from_another_loop_cancelled_once_its_memory_loop_stopped(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """abatch awaited on another loop than its Memory's, that loop stopped by its owner
    (not closed) during the batch, then the caller cancelled: the caller asked the
    stopped loop to stop the batch and waited for the batch's end, which nothing would
    run, for ever, swallowing every further cancellation (a graph run that Ctrl-C could
    not end). Nothing runs the memory's loop: the cancellation is raised at once. (The
    call's own look at the loop, which ends it uncancelled, is put off here, so that
    the cancellation is what ends it.)"""
    monkeypatch.setattr(langgraph_store, "LOOP_CHECK_S", 3600.0)
    async with _batch_held_on_a_stopped_loop(tmp_path) as (batch, stopped):
        batch.cancel()
        done, _ = await asyncio.wait({batch}, timeout=20)
        assert done, "the cancelled batch waited for ever on a stopped loop"
        with pytest.raises(asyncio.CancelledError):
            await batch
        stopped.append(True)


async def test_a_batch_from_another_loop_whose_memory_loop_stops_is_refused(
        tmp_path: Path) -> None:
    """abatch awaited on another loop than its Memory's, that loop stopped by its owner
    (not closed) during the batch, the caller not cancelled: it waited for ever for an
    end that nothing would run (a blocking call is refused then). It now ends with
    EventLoopMisuse, as a blocking call does, and the batch, told to stop, undoes its
    write once the memory's loop runs again."""
    async with _batch_held_on_a_stopped_loop(tmp_path) as (batch, stopped):
        done, _ = await asyncio.wait({batch}, timeout=60)
        assert done, "the batch waited for ever on a stopped loop"
        with pytest.raises(EventLoopMisuse) as caught:
            await batch
        assert str(caught.value) == (
            "ChatmemStore: the event loop that owns the memory stopped before the call "
            "ended: the call is cancelled (a batch undoes its writes if that loop runs "
            "again); keep the loop running until the store's calls return, or use a "
            "chatmem SyncMemory, whose loop chatmem runs")
        stopped.append(True)


async def _settled(store: ChatmemStore, mem: Memory, holder: Any, stopped: bool) -> None:
    """On the memory's loop, run again after its owner stopped it during a held batch
    (:func:`_batch_held`): the holder ended, then (``stopped``: the batch was told to
    stop) its write undone, k0 back to its old value; the memory closed."""
    async def undone() -> bool:
        item = await store.aget(("a",), "k0")
        return item is not None and item.value == {"text": "old zero"}

    try:
        if holder is not None:
            await asyncio.wrap_future(holder)
        if stopped:
            await _until(undone, "the stopped batch's write undone")
    finally:
        await mem.close()


async def test_ttl_is_not_supported(store: ChatmemStore) -> None:
    with pytest.raises(NotImplementedError):
        await store.aput(("a",), "k", {"text": "x"}, ttl=5)


# --------------------------------------------------------------------------- sync and loops

def test_sync_memory_blocking_api(tmp_path: Path) -> None:
    with SyncMemory.open(f"sqlite:///{tmp_path}/m.db",
                         embedder=chatmem.testing.embedder()) as mem:
        store = ChatmemStore(mem, index={"fields": ["text"]})
        store.put(("memories", "u1"), "k", {"text": "sync tea"})
        item = store.get(("memories", "u1"), "k")
        assert item is not None and item.value == {"text": "sync tea"}
        assert [i.key for i in store.search(("memories",), query="tea")] == ["k"]
        assert store.list_namespaces() == [("memories", "u1")]

        async def from_another_loop() -> Item | None:  # awaited on a loop of its own
            return await store.aget(("memories", "u1"), "k")

        got = asyncio.run(from_another_loop())
        assert got is not None and got.key == "k"
        store.delete(("memories", "u1"), "k")
        assert store.get(("memories", "u1"), "k") is None


@pytest.mark.parametrize("api", ["blocking", "async"])
def test_the_store_over_a_closed_or_forked_sync_memory_says_so(tmp_path: Path,
                                                               api: str) -> None:
    """store.put over a SyncMemory that was closed said "the blocking API needs a chatmem
    SyncMemory", which it was given, and await store.aput from another loop "the store
    is closed" (the store bound to that loop); in a process forked from the one that
    opened it (whose loop thread did not survive the fork) both waited for ever. They are
    now the SyncMemory's own refusals, as its methods give them."""
    from processes import answered_in_fork

    with SyncMemory.open(f"sqlite:///{tmp_path}/m.db",
                         embedder=chatmem.testing.embedder()) as sync:
        store = ChatmemStore(sync, index={"fields": ["text"]})

        def put(value: dict[str, Any]) -> None:
            if api == "blocking":
                store.put(("a",), "k", value)
            else:  # awaited on a loop of its own, not the memory's
                asyncio.run(store.aput(("a",), "k", value))

        put({"text": "before the fork"})
        answer = answered_in_fork(lambda: put({"text": "in the child"}))
        assert answer.startswith(b"error: ") and b"fork" in answer, answer
        item = store.get(("a",), "k")  # the parent's store still works
        assert item is not None and item.value == {"text": "before the fork"}
    with pytest.raises(StoreClosed, match="^this SyncMemory is closed: open another one$"):
        put({"text": "after"})


def refused_as_loop_misuse(caught: pytest.ExceptionInfo[RuntimeError]) -> None:
    """The store's refusal of a call its memory's loop cannot answer: chatmem's own error
    (it was a raw RuntimeError), an InvalidInput as a SyncMemory's own refusal of a call
    on its loop's thread, and still the RuntimeError code may catch."""
    assert type(caught.value) is EventLoopMisuse
    assert isinstance(caught.value, InvalidInput)
    assert isinstance(caught.value, RuntimeError)


async def test_blocking_call_on_the_memory_loop_raises(store: ChatmemStore) -> None:
    with pytest.raises(RuntimeError, match="deadlock") as caught:
        store.put(("a",), "k", {"text": "x"})
    refused_as_loop_misuse(caught)
    # from a worker thread the blocking API works while this loop runs
    await asyncio.to_thread(store.put, ("a",), "k", {"text": "x"})
    item = await asyncio.to_thread(store.get, ("a",), "k")
    assert item is not None and item.value == {"text": "x"}


async def test_blocking_api_of_an_unbound_memory_explains(mem: Memory) -> None:
    store = await asyncio.to_thread(ChatmemStore, mem)  # built where no loop runs
    with pytest.raises(RuntimeError, match="SyncMemory") as caught:
        await asyncio.to_thread(store.get, ("a",), "k")
    refused_as_loop_misuse(caught)
    assert await store.aget(("a",), "k") is None  # the first async call binds the loop
    assert await asyncio.to_thread(store.get, ("a",), "k") is None


def test_a_memory_whose_loop_is_idle_is_refused(tmp_path: Path) -> None:
    loop = asyncio.new_event_loop()
    try:
        memory = loop.run_until_complete(Memory.open(f"sqlite:///{tmp_path}/m.db",
                                                     embedder=chatmem.testing.embedder()))
        store = ChatmemStore(memory)
        loop.run_until_complete(store.aput(("a",), "k", {"text": "x"}))  # binds this loop
        with pytest.raises(RuntimeError, match="not running") as caught:
            store.get(("a",), "k")  # nothing runs the loop now: no wait forever
        refused_as_loop_misuse(caught)

        async def elsewhere() -> None:
            await store.aget(("a",), "k")

        with pytest.raises(RuntimeError, match="not running") as caught:
            asyncio.run(elsewhere())
        refused_as_loop_misuse(caught)
        loop.run_until_complete(memory.close())
    finally:
        loop.close()


@pytest.mark.parametrize("api", ["blocking", "async"])
def test_a_memory_loop_closed_as_a_call_is_handed_to_it_is_refused_in_chatmems_words(
        tmp_path: Path, api: str) -> None:
    """A store over a Memory (a SyncMemory's memory, the store made on its loop, so
    bound there) checks that the memory's loop runs, then hands the call to it: the
    SyncMemory closed in another thread between the two (which closes its loop) gave a
    raw RuntimeError "Event loop is closed" (and a coroutine never awaited). The call now
    ends as one made just after the close does: blocking, EventLoopMisuse (the loop is
    closed: the blocking API needs a SyncMemory); awaited on another loop, it runs
    there, where the closed memory refuses it, StoreClosed. The close is made at that
    very point: in the caller's thread, as it enters asyncio.run_coroutine_threadsafe
    (sys.setprofile)."""
    sync = SyncMemory.open(f"sqlite:///{tmp_path}/m.db", embedder=chatmem.testing.embedder())
    try:
        async def bound() -> ChatmemStore:  # on the memory's loop: bound to it
            return ChatmemStore(sync.memory, index={"fields": ["text"]})

        store = sync.wait(sync.start(bound()))
        store.put(("a",), "k", {"text": "before"})  # handed to the loop, in another thread

        def closing(frame: Any, event: str, arg: Any) -> None:
            if event == "call" and frame.f_code is asyncio.run_coroutine_threadsafe.__code__:
                sys.setprofile(None)
                sync.close()

        sys.setprofile(closing)
        try:
            if api == "blocking":
                with pytest.raises(RuntimeError, match="needs a chatmem SyncMemory") as caught:
                    store.put(("a",), "k", {"text": "after"})
                refused_as_loop_misuse(caught)
            else:
                with pytest.raises(StoreClosed, match="^the store is closed$"):
                    asyncio.run(store.aput(("a",), "k", {"text": "after"}))
        finally:
            sys.setprofile(None)
        assert sync.closed and sync.loop.is_closed()
    finally:
        sync.close()


def test_a_blocking_call_whose_memory_loop_stops_is_refused_not_waited_on_for_ever(
        tmp_path: Path) -> None:
    """A blocking store.batch over a Memory whose loop, run by its owner in another
    thread, is stopped while the call waits: future.result() waited for ever on work
    nothing ran (a call made then is refused, the loop running nothing). The call now
    ends with EventLoopMisuse, and the batch, cancelled, undoes its writes once the loop
    runs again (as a batch from another loop cancelled then does)."""
    import threading

    loop = asyncio.new_event_loop()
    runner = threading.Thread(target=loop.run_forever)
    runner.start()
    release, got = threading.Event(), threading.Event()

    async def opened() -> tuple[Memory, ChatmemStore]:  # on the memory's loop
        mem = await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                embedder=chatmem.testing.embedder())
        return mem, ChatmemStore(mem, index={"fields": ["text"]})

    mem, store = asyncio.run_coroutine_threadsafe(opened(), loop).result()

    async def holding() -> None:  # on the memory's loop: the batch waits for it
        async with mem.item_lock(message_id(("a",), "k1")):
            got.set()
            while not release.is_set():
                await asyncio.sleep(0.01)

    outcome: list[BaseException | None] = []

    def call() -> None:
        try:
            store.batch([PutOp(("a",), "k0", {"text": "new zero"}),
                         PutOp(("a",), "k1", {"text": "one"})])
            outcome.append(None)
        except BaseException as exc:  # read in the test's thread
            outcome.append(exc)

    def k0() -> Any:
        item = store.get(("a",), "k0")
        return item and item.value["text"]

    caller = threading.Thread(target=call)
    holder, refused = None, False
    try:
        store.put(("a",), "k0", {"text": "old zero"})
        holder = asyncio.run_coroutine_threadsafe(holding(), loop)
        assert got.wait(30)
        caller.start()
        for _ in range(3000):  # the batch's first put written, its second held
            if k0() == "new zero":
                break
            release.wait(0.01)
        assert k0() == "new zero"
        loop.call_soon_threadsafe(loop.stop)
        runner.join()
        caller.join(20)
        assert not caller.is_alive(), "the blocking batch waited for ever on a stopped loop"
        assert type(outcome[0]) is EventLoopMisuse, outcome
        assert str(outcome[0]).startswith(
            "ChatmemStore: the event loop that owns the memory stopped before the call "
            "ended: the call is cancelled"), outcome
        refused = True
    finally:
        release.set()
        loop.run_until_complete(_settled(store, mem, holder, refused))
        if caller.ident is not None:
            caller.join()
        loop.close()
    assert refused


@pytest.mark.parametrize("when", ["running", "queued"])
@pytest.mark.parametrize("api", ["blocking", "async"])
def test_a_call_the_memory_loops_owner_cancels_is_refused_in_chatmems_words(
        tmp_path: Path, api: str, when: str) -> None:
    """A batch over a Memory whose loop another thread runs with asyncio.run, called
    from another thread (blocking, store.batch; or awaited on a loop of its own), while
    that asyncio.run ends: it cancels every task left on its loop, the batch's too
    (handed there with run_coroutine_threadsafe), and the caller, never cancelled
    itself, got a raw CancelledError (blocking: concurrent.futures'; awaited: read by
    asyncio as the caller's own cancellation). It now gets EventLoopMisuse saying the
    loop's owner cancelled the call, and the batch's write is undone, as for any
    cancelled batch. ``running``: the batch has written its first put and is held by
    the second's item lock, held on the memory's loop. ``queued``: the call is handed
    to the loop while the loop's last step runs (its owner's main coroutine, which
    waits for that, then returns), so its task is cancelled before it ever ran; awaited,
    the task that starts the batch there was cancelled so, and the caller waited for
    ever (until it was cancelled itself)."""
    import queue
    import threading

    opened: queue.Queue[tuple[Memory, ChatmemStore]] = queue.Queue()
    got, end, release = threading.Event(), threading.Event(), threading.Event()
    last_step, handed = threading.Event(), threading.Event()
    tasks: list[asyncio.Task[None]] = []

    async def holding(mem: Memory) -> None:  # the batch's second put waits for it
        async with mem.item_lock(message_id(("a",), "k1")):
            got.set()
            while not release.is_set():
                await asyncio.sleep(0.01)

    async def owner() -> None:  # the memory's loop: asyncio.run, in a thread
        mem = await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                embedder=chatmem.testing.embedder())
        store = ChatmemStore(mem, index={"fields": ["text"]})
        await store.aput(("a",), "k0", {"text": "old zero"})
        tasks.append(asyncio.ensure_future(holding(mem)))
        opened.put((mem, store))
        await asyncio.to_thread(end.wait)
        if when == "queued":  # this step holds the loop until the call is handed to it
            last_step.set()
            assert handed.wait(60)
        # returns: asyncio.run cancels the tasks left, the batch's too

    def on_hand_over(frame: Any, event: str, arg: Any) -> None:
        if event == "return" and frame.f_code is asyncio.run_coroutine_threadsafe.__code__:
            sys.setprofile(None)
            handed.set()

    runner = threading.Thread(target=asyncio.run, args=(owner(),))
    runner.start()
    ops = [PutOp(("a",), "k0", {"text": "new zero"}), PutOp(("a",), "k1", {"text": "one"})]
    outcome: list[BaseException | None] = []

    def call() -> None:
        try:
            if when == "queued":
                sys.setprofile(on_hand_over)  # this thread's
            if api == "blocking":
                store.batch(ops)
            else:
                asyncio.run(store.abatch(ops))
            outcome.append(None)
        except BaseException as exc:  # read in the test's thread
            outcome.append(exc)
        finally:
            sys.setprofile(None)

    caller = threading.Thread(target=call, daemon=True)  # no wait for it at exit
    try:
        mem, store = opened.get(timeout=60)
        assert got.wait(30)
        if when == "queued":
            end.set()
            assert last_step.wait(60)
            caller.start()
            assert handed.wait(60)
        else:
            caller.start()
            for _ in range(3000):  # the batch's first put written, its second held
                item = store.get(("a",), "k0")
                if item is not None and item.value == {"text": "new zero"}:
                    break
                release.wait(0.01)
            assert item is not None and item.value == {"text": "new zero"}
    finally:
        end.set()
        handed.set()
        runner.join()
    caller.join(60)
    assert not caller.is_alive(), "the call never ended"
    assert type(outcome[0]) is EventLoopMisuse, outcome
    said = str(outcome[0])
    # a call looks at the loop twice a second: a look between asyncio.run's end of its
    # main task and its cancelling of the others finds the loop running nothing, as a
    # stopped one, and the call is refused as such (its batch cancelled, undone)
    if not said.startswith(
            "ChatmemStore: the event loop that owns the memory stopped before the call"):
        assert said == (
            "ChatmemStore: the event loop that owns the memory cancelled the call before "
            "it ended (its owner cancelled the loop's tasks, as asyncio.run does as it "
            "returns): its writes were undone; keep that loop running until the store's "
            "calls return, or use a chatmem SyncMemory, whose loop chatmem runs"), said
    assert tasks[0].cancelled()

    async def settled() -> Any:  # the memory's loop is closed: on this one
        try:
            item = await store.aget(("a",), "k0")
            return item and item.value
        finally:
            await mem.close()

    assert asyncio.run(settled()) == {"text": "old zero"}


# --------------------------------------------------------------------------- graphs

class State(TypedDict):
    user: str
    said: str
    seen: list[str]


def remember(state: State, *, store: BaseStore) -> dict[str, Any]:
    """A node given the store as its ``store`` argument: recall, then remember."""
    ns = ("memories", state["user"])
    seen = [i.value["text"] for i in store.search(ns, query=state["said"], limit=5)]
    count = len(store.search(ns, limit=100))
    store.put(ns, f"m{count}", {"text": state["said"]})
    return {"seen": seen}


async def aremember(state: State) -> dict[str, Any]:
    """The async node reaches the store with ``get_store()``."""
    store = get_store()
    ns = ("memories", state["user"])
    seen = [i.value["text"] for i in await store.asearch(ns, query=state["said"], limit=5)]
    count = len(await store.asearch(ns, limit=100))
    await store.aput(ns, f"m{count}", {"text": state["said"]})
    return {"seen": seen}


def build(node: Any) -> StateGraph[State]:
    graph = StateGraph(State)
    graph.add_node("remember", node)
    graph.add_edge(START, "remember")
    graph.add_edge("remember", END)
    return graph


def test_sync_graph_remembers_across_runs(tmp_path: Path) -> None:
    with SyncMemory.open(f"sqlite:///{tmp_path}/m.db",
                         embedder=chatmem.testing.embedder()) as mem:
        app = build(remember).compile(store=ChatmemStore(mem, index={"fields": ["text"]}))
        first = app.invoke({"user": "u1", "said": "my cat is called Tom", "seen": []})
        assert first["seen"] == []
        second = app.invoke({"user": "u1", "said": "what is my cat called", "seen": []})
        assert second["seen"][0] == "my cat is called Tom"
        other = app.invoke({"user": "u2", "said": "my cat", "seen": []})
        assert other["seen"] == []  # another user's namespace
        assert mem.list_messages(session="langgraph:memories.u1").messages[0].content == \
            "my cat is called Tom"


async def test_async_graph_remembers_across_runs(store: ChatmemStore, mem: Memory) -> None:
    app = build(aremember).compile(store=store)
    first = await app.ainvoke({"user": "u1", "said": "I live in Paris", "seen": []})
    assert first["seen"] == []
    second = await app.ainvoke({"user": "u1", "said": "where do I live, Paris?", "seen": []})
    assert second["seen"][0] == "I live in Paris"
    assert len((await mem.list_messages(session="langgraph:memories.u1")).messages) == 2


# --------------------------------------------------------------------------- docs, import

def test_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    code = python_blocks(section("### LangGraph"))
    assert code, "README § Integrations, LangGraph has no python example"
    monkeypatch.chdir(tmp_path)
    exec(compile(code[0], "README-langgraph", "exec"), {"__name__": "__readme__"})


def test_missing_langgraph_names_the_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "langgraph.store.base", None)
    monkeypatch.delitem(sys.modules, "chatmem.integrations.langgraph")
    with pytest.raises(ImportError, match=re.escape(install_hint("langgraph"))):
        importlib.import_module("chatmem.integrations.langgraph")


# --------------------------------------------------------------------------- fuzz

_LABEL = st.sampled_from(["memories", "u1", "u2", "x.y", ""]) | st.text(max_size=4)
_NS = st.lists(_LABEL, max_size=3).map(tuple)
_KEY = (st.sampled_from(["k", "k2", "a/b", "", "1.5", "7"]) | st.text(max_size=4)
        | st.sampled_from([1.5, 7, -0.0, 1e16, float("inf"), None, True]))
_SCALAR = (st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats()
           | st.text(max_size=6))
_VALUE = st.recursive(_SCALAR, lambda inner: st.lists(inner, max_size=3)
                      | st.dictionaries(st.text(max_size=3), inner, max_size=3), max_leaves=6)
_ITEM = st.dictionaries(st.sampled_from(["text", "n", "kind"]) | st.text(max_size=3), _VALUE,
                        max_size=4)
_FILTER = st.none() | st.dictionaries(
    st.sampled_from(["n", "kind", "text"]),
    _SCALAR | st.dictionaries(st.sampled_from(["$eq", "$ne", "$gt", "$lte", "$in", "$x"]),
                              _SCALAR | st.lists(_SCALAR, max_size=2), max_size=2), max_size=2)
_COUNT = st.integers(-2, 12)
# a batch's ops, given to abatch as they are (LangGraph's methods check the namespace
# and write the key with str() before they make an op): two namespaces and two keys,
# so that its puts, gets and searches meet
_BATCH_NS = st.sampled_from([("m",), ("m", "u1")])
_BATCH_KEY = st.sampled_from(["k", "k2"])
_BATCH = st.tuples(st.just("batch"), st.lists(st.one_of(
    st.tuples(st.just("put"), _BATCH_NS, _BATCH_KEY, _ITEM),
    st.tuples(st.just("get"), _BATCH_NS, _BATCH_KEY),
    st.tuples(st.just("delete"), _BATCH_NS, _BATCH_KEY),
    st.tuples(st.just("search"), _BATCH_NS,
              _FILTER.filter(lambda f: not _has_range(f)), st.integers(0, 12),
              st.integers(0, 12))), min_size=2, max_size=6))
_OPS = st.lists(st.one_of(
    st.tuples(st.just("put"), _NS, _KEY, _ITEM),
    st.tuples(st.just("get"), _NS, _KEY),
    st.tuples(st.just("delete"), _NS, _KEY),
    st.tuples(st.just("search"), _NS, _FILTER, _COUNT, _COUNT),
    st.tuples(st.just("list"), st.none() | _NS, st.none() | _NS,
              st.none() | st.integers(-1, 4), _COUNT, _COUNT),
    _BATCH), min_size=1, max_size=8)


def _batch_op(op: tuple[Any, ...]) -> Any:
    """The LangGraph op of one call of a batch."""
    kind, *args = op
    if kind == "put":
        return PutOp(*args)
    if kind == "get":
        return GetOp(*args)
    if kind == "delete":
        return PutOp(*args, None)
    prefix, filter_, limit, offset = args
    return SearchOp(prefix, filter_, limit, offset)


def _answer(kind: str, result: Any) -> Any:
    """A call's answer, as the comparison reads it."""
    if kind == "get":
        return None if result is None else (result.namespace, result.key, result.value)
    if kind == "search":
        return sorted(repr((h.namespace, h.key, h.value)) for h in result)
    return result


async def _apply(store: BaseStore, op: tuple[Any, ...]) -> Any:
    kind, *args = op
    if kind == "batch":
        results = await store.abatch([_batch_op(o) for o in args[0]])
        return [_answer(o[0], r) for o, r in zip(args[0], results, strict=True)]
    if kind == "put":
        return await store.aput(*args)
    if kind == "get":
        return _answer(kind, await store.aget(*args))
    if kind == "delete":
        return await store.adelete(*args)
    if kind == "search":
        prefix, filter_, limit, offset = args
        return _answer(kind, await store.asearch(prefix, filter=filter_, limit=limit,
                                                 offset=offset))
    prefix, suffix, depth, limit, offset = args
    return await store.alist_namespaces(prefix=prefix, suffix=suffix, max_depth=depth,
                                        limit=limit, offset=offset)


async def _whole(store: BaseStore, call: tuple[Any, ...]) -> Any:
    """Every item a search ``call`` may answer (its filter, no page), or None."""
    if call[0] != "search":
        return None
    with contextlib.suppress(Exception):  # the call itself meets the error
        return await _apply(store, ("search", call[1], call[2], 10**6, 0))
    return None


def _has_range(filter_: Any) -> bool:
    """Whether a filter compares with ``$gt $gte $lt $lte`` anywhere."""
    if not isinstance(filter_, dict):
        return False
    return any(k in ("$gt", "$gte", "$lt", "$lte") or _has_range(v) for k, v in filter_.items())


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(ops=_OPS)
def test_any_calls_answer_like_langgraphs_store_or_name_what_chatmem_refuses(
        tmp_path_factory: pytest.TempPathFactory, ops: list[tuple[Any, ...]]) -> None:
    """Random calls on ChatmemStore and on LangGraph's InMemoryStore side by side (batches
    of puts, gets, deletes and searches given to ``abatch`` among them, each of their
    answers compared as a call's, the searches' against the items before the batch): ours
    raises nothing but a ChatmemError (a value JSON cannot hold, named) or the error
    LangGraph's own store raises for the same call, and once ours has refused nothing,
    ``get`` and filtered ``search`` answer the same. (``list_namespaces`` is left out of
    the comparison: InMemoryStore lists a namespace that a ``get`` or ``delete`` only
    looked in. A search that ``limit``/``offset`` cut answers as many hits, each one of
    InMemoryStore's whole answer: neither store promises an order without a query, and
    InMemoryStore's is its dicts' (a rewritten key keeps its place, namespaces go in
    the order they were made). A range (``$gt``…) is compared by the range tests, not
    here: InMemoryStore converts a stored ``true`` or ``"5"`` with ``float()`` and raises
    its own TypeError or ValueError on a stored ``null`` or ``"abc"``, where chatmem
    compares numbers only.)"""
    from chatmem.errors import ChatmemError

    async def run() -> None:
        path = tmp_path_factory.mktemp("fuzz") / "m.db"
        async with await Memory.open(f"sqlite:///{path}",
                                     embedder=chatmem.testing.embedder()) as memory:
            ours, theirs = ChatmemStore(memory), InMemoryStore()
            diverged = False  # after a value we refused, the two stores differ
            for op in ops:
                calls = op[1] if op[0] == "batch" else [op]
                # every item a search may answer, before the call: a batch's searches
                # read the items as they were before it, as LangGraph's stores read them
                wholes = [await _whole(theirs, call) for call in calls]
                expected: Any = None
                expected_error: Exception | None = None
                try:
                    expected = await _apply(theirs, op)
                except Exception as exc:
                    expected_error = exc
                try:
                    got = await _apply(ours, op)
                except ChatmemError as exc:
                    # a key LangGraph writes as text (str(key)) is taken as it takes it;
                    # only None and booleans are refused (by design: "None", "True")
                    assert not str(exc).startswith("key must be") \
                        or op[2] is None or isinstance(op[2], bool), (op, exc)
                    # a batch with a call we refuse runs none of them
                    writes = op[0] == "put" or (op[0] == "batch" and any(
                        call[0] in ("put", "delete") for call in calls))
                    diverged = diverged or (writes and expected_error is None)
                    continue
                except Exception as exc:
                    assert type(exc) is type(expected_error), (op, exc, expected_error)
                    continue
                if op[0] == "search" and _has_range(op[2]):
                    continue
                assert expected_error is None, (op, expected_error)
                if diverged:
                    continue
                if op[0] != "batch":
                    got, expected = [got], [expected]
                for call, whole, mine, its in zip(calls, wholes, got, expected, strict=True):
                    if call[0] == "get":
                        assert mine == its, (op, call)
                    elif call[0] == "search":
                        assert len(mine) == len(its), (op, call)
                        assert set(mine) <= set(whole), (op, call)

    asyncio.run(run())


@pytest.mark.parametrize("key", [1.5, -0.0, 1e16, float("inf"), float("nan"), 7, 10**30,
                                 uuid.UUID(int=5)], ids=repr)
async def test_a_key_langgraph_writes_as_text_is_the_same_item(store: ChatmemStore,
                                                               key: Any) -> None:
    """LangGraph's methods take any key and write it with str(): InMemoryStore.put(ns,
    1.5, v) stores the key "1.5". ChatmemStore refused a float ('key must be a string,
    got 1.5'); every key it takes is now written as LangGraph writes it: the same item
    for the key and for its text, in get, search and delete, as InMemoryStore."""
    theirs = InMemoryStore()
    for s in (store, theirs):
        await s.aput(("m",), key, {"text": "a value"})
    for s in (store, theirs):
        for asked in (key, str(key)):
            got = await s.aget(("m",), asked)
            assert got is not None and (got.key, got.value) == (str(key),
                                                                {"text": "a value"})
        assert [h.key for h in await s.asearch(("m",))] == [str(key)]
        await s.adelete(("m",), key)
        assert await s.aget(("m",), str(key)) is None


@pytest.mark.parametrize("key", [None, True, ["k"], b"k", {"k": 1}], ids=repr)
async def test_a_key_chatmem_refuses_is_named(store: ChatmemStore, mem: Memory,
                                              key: Any) -> None:
    """None and booleans (which LangGraph would write as the keys "None" and "True", a
    key variable left unset), bytes and containers (whose text is Python's repr) are
    refused, naming the key, by every method, writing nothing."""
    calls = [store.aput(("m",), key, {"text": "x"}), store.aget(("m",), key),
             store.adelete(("m",), key)]
    for call in calls:
        with pytest.raises(InvalidInput, match="^key must be text, a number or a UUID"):
            await call
    assert not (await mem.list_messages(session=session_id(("m",)))).messages


# --------------------------------------------------------------------------- kill -9

#: A process that puts ("m",) "k" twice and stops for good (``kill -9`` comes next) at
#: the second put's ``stop`` point: "erased" (the old item erased, the new one not
#: stored yet) or "added" (the new one stored, the put not yet returned).
PUT_THEN_DIE = """
import asyncio, sys
import chatmem.testing
from chatmem import Memory
from chatmem.integrations.langgraph import ChatmemStore

async def main() -> None:
    url, stop = sys.argv[1], sys.argv[2]
    mem = await Memory.open(url, embedder=chatmem.testing.embedder())
    store = ChatmemStore(mem, index={"fields": ["text"]})
    await store.aput(("m", "u1"), "k", {"text": "my cat is called Tom"})
    print("ACK", flush=True)
    real = mem.erase_held if stop == "erased" else mem.add

    async def then_stop(*args, **kwargs):
        done = await real(*args, **kwargs)
        print("STOPPED", flush=True)
        await asyncio.Event().wait()  # killed here
        return done

    setattr(mem, "erase_held" if stop == "erased" else "add", then_stop)
    await store.aput(("m", "u1"), "k", {"text": "my cat is called Felix"})

asyncio.run(main())
"""


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("stop, kept", [("erased", "Tom"), ("added", "Felix")])
async def test_a_put_killed_part_way_leaves_the_old_value_or_the_new_never_none(
        tmp_path: Path, backend: str, stop: str, kept: str) -> None:
    """A put that replaces an item erases the old message, then adds the new one: a
    process killed (``kill -9``) between the two left the key with no item, its value
    acknowledged by the put before lost. The next store's first call puts it back, and
    it is found by meaning again without any other step."""
    import os
    import signal
    import subprocess

    from backends import drop_pg_schema, pg_schema_url, pg_url

    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = (f"sqlite:///{tmp_path}/lg.db" if backend == "sqlite"
           else pg_schema_url(pg_url(), schema))
    src = str(Path(chatmem.testing.__file__).parents[1])  # the chatmem under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    try:
        proc = subprocess.Popen([sys.executable, "-c", PUT_THEN_DIE, url, stop], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            assert proc.stdout.readline() == "ACK\n", proc.stderr.read()  # type: ignore[union-attr]
            assert proc.stdout.readline() == "STOPPED\n", proc.stderr.read()  # type: ignore[union-attr]
        finally:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
        async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
            store = ChatmemStore(mem, index={"fields": ["text"]})
            item = await store.aget(("m", "u1"), "k")
            assert item is not None, "the key lost its item"
            assert item.value == {"text": f"my cat is called {kept}"}
            hits = await store.asearch(("m",), query="what is my cat called?")
            assert [h.value["text"] for h in hits] == [f"my cat is called {kept}"]
            listed = await mem.list_messages(session=session_id(("m", "u1")))
            assert [m.id for m in listed.messages] == [message_id(("m", "u1"), "k")]
            assert (await mem.stats())["indexed"] == 1
    finally:
        if backend == "postgres":
            await drop_pg_schema(pg_url(), schema)


# --------------------------------------------------------------------------- a live put

#: A process that puts ("m", "u1") "k" and replaces it, holding the replacement before
#: its erase of the old item ("HELD") and between that erase and its add of the new one
#: ("ERASED"), each time until a line comes on stdin; it prints how the put ended.
PUT_HELD = """
import asyncio, sys
import chatmem.testing
from chatmem import Memory
from chatmem.integrations.langgraph import ChatmemStore

async def main() -> None:
    mem = await Memory.open(sys.argv[1], embedder=chatmem.testing.embedder())
    store = ChatmemStore(mem, index={"fields": ["text"]})
    await store.aput(("m", "u1"), "k", {"text": "my cat is called Tom"})
    real = mem.erase_held

    async def held(*args, **kwargs):
        read = asyncio.get_running_loop().run_in_executor
        print("HELD", flush=True)
        await read(None, sys.stdin.readline)
        done = await real(*args, **kwargs)
        print("ERASED", flush=True)
        await read(None, sys.stdin.readline)
        return done

    mem.erase_held = held
    try:
        await store.aput(("m", "u1"), "k", {"text": "my cat is called Felix"})
    except Exception as exc:
        print(f"FAILED {type(exc).__name__}: {exc}", flush=True)
    else:
        print("DONE", flush=True)
    await mem.close()

asyncio.run(main())
"""


@contextlib.asynccontextmanager
async def _held_put() -> AsyncIterator[tuple[str, Any]]:
    """A PUT_HELD process on a new schema of the test PostgreSQL: (URL, process); the
    process killed and the schema dropped afterwards."""
    import os
    import subprocess

    from backends import drop_pg_schema, pg_schema_url, pg_url

    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(pg_url(), schema)
    src = str(Path(chatmem.testing.__file__).parents[1])  # the chatmem under test
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    proc = subprocess.Popen([sys.executable, "-c", PUT_HELD, url], env=env,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        yield url, proc
    finally:
        proc.kill()
        proc.wait(timeout=60)
        await drop_pg_schema(pg_url(), schema)


async def _replacements_left(mem: Memory) -> list[tuple[str, str, str]]:
    """The store's records of replacements under way."""
    return [r for r in await mem.store.meta_items() if r[0] == REPLACING_NAMESPACE]


async def _one_item_left(mem: Memory, namespace: tuple[str, ...], key: str) -> None:
    """The namespace holds one message, the item ``key``'s, and no replacement is left."""
    listed = await mem.list_messages(session=session_id(namespace))
    assert [m.id for m in listed.messages] == [message_id(namespace, key)]
    assert not await _replacements_left(mem)


async def _read_or_wait(first: asyncio.Future[Any]) -> None:
    """Until the call ``first`` has ended, or a session of the test database waits for
    an advisory lock (the call waits for the held put's lock)."""
    import psycopg

    from backends import pg_url

    query = ("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted "
             "AND database = (SELECT oid FROM pg_database WHERE datname = "
             "current_database())")
    async with await psycopg.AsyncConnection.connect(pg_url(), autocommit=True) as conn:
        for _ in range(600):
            row = await (await conn.execute(query)).fetchone()
            if first.done() or (row and row[0]):
                return
            await asyncio.sleep(0.05)


async def _until_waiting(call: asyncio.Future[Any], backend: str, mem: Memory,
                         key: Any) -> None:
    """Until ``call`` has ended or waits for a lock: on PostgreSQL an advisory lock (in
    pg_locks), on SQLite the memory's lock named ``key`` (its item's, a message's)."""
    if backend == "postgres":
        await _read_or_wait(call)
        return
    while not call.done() and not getattr(mem._key_locks.get(key), "_waiters", None):
        await asyncio.sleep(0)


async def _one_vector_of(mem: Memory, msg: Message, text: str) -> None:
    """The index holds one entry of ``msg``'s id, at its time, embedded from ``text``."""
    assert mem.index is not None and mem.embedder is not None
    entries = [e for e in await mem.index.scan_vectors(None, 100) if e.message_id == msg.id]
    assert [e.ts for e in entries] == [msg.ts]
    made_from = np.asarray(await mem.embedder.embed_one(text))
    assert float(np.dot(entries[0].vector, made_from)) > 0.99


@pytest.mark.skipif(sys.platform == "win32", reason="stdin of a subprocess")
async def test_a_new_store_leaves_another_processs_live_replacement_alone() -> None:
    """PostgreSQL, two processes: a put of process A holds its replacement between the
    erase of the old item and the add of the new one; a new store of process B makes
    its first call then. B put the old value back (a replacement left part way, it
    took it for a killed one's), and A's put then failed ('message id … already exists
    with another content'), the value B read being the old one. B now waits for A's
    replacement to end (A holds the old message's lock while it replaces, and a
    killed process's lock is freed with its connection): A's put succeeds, B reads
    the new value, and the key holds one item."""
    async with _held_put() as (url, proc):
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline() == "HELD\n", proc.stderr.read()  # type: ignore[union-attr]
        proc.stdin.write("go\n")
        proc.stdin.flush()
        assert proc.stdout.readline() == "ERASED\n", proc.stderr.read()  # type: ignore[union-attr]
        async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
            store = ChatmemStore(mem, index={"fields": ["text"]})
            first = asyncio.ensure_future(store.aget(("m", "u1"), "k"))
            await _read_or_wait(first)
            read_during_the_put = first.done()
            proc.stdin.write("go\n")
            proc.stdin.flush()
            ended = await asyncio.to_thread(proc.stdout.readline)
            item = await first
            assert ended == "DONE\n", ended + proc.stderr.read()  # type: ignore[union-attr]
            assert not read_during_the_put
            assert item is not None and item.value == {"text": "my cat is called Felix"}
            again = await store.aget(("m", "u1"), "k")
            assert again is not None and again.value == {"text": "my cat is called Felix"}
            listed = await mem.list_messages(session=session_id(("m", "u1")))
            assert [m.id for m in listed.messages] == [message_id(("m", "u1"), "k")]
            assert not await _replacements_left(mem)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_second_store_on_one_memory_leaves_a_live_replacement_alone(
        tmp_path: Path, backend: str) -> None:
    """Two stores over one memory (one process): the second's first call, made while
    the first store's put is between its erase and its add, put the old value back
    and the put failed. It now waits for that replacement to end, on every backend."""

    from backends import drop_pg_schema, pg_schema_url, pg_url

    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = (f"sqlite:///{tmp_path}/lg.db" if backend == "sqlite"
           else pg_schema_url(pg_url(), schema))
    try:
        async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
            one = ChatmemStore(mem, index={"fields": ["text"]})
            await one.aput(("m",), "k", {"text": "v0"})
            erased, go = asyncio.Event(), asyncio.Event()
            real = mem.erase_held

            async def held(ids: Any, **kwargs: Any) -> Any:
                done = await real(ids, **kwargs)
                erased.set()
                await go.wait()
                return done

            mem.erase_held = held  # type: ignore[method-assign]
            put = asyncio.ensure_future(one.aput(("m",), "k", {"text": "v1"}))
            await erased.wait()
            mem.erase_held = real  # type: ignore[method-assign]
            first = asyncio.ensure_future(
                ChatmemStore(mem, index={"fields": ["text"]}).aget(("m",), "k"))
            await asyncio.sleep(0.3)
            read_during_the_put = first.done()
            go.set()
            await put
            item = await first
            assert not read_during_the_put
            assert item is not None and item.value == {"text": "v1"}
            await _one_item_left(mem, ("m",), "k")
    finally:
        if backend == "postgres":
            await drop_pg_schema(pg_url(), schema)


@pytest.mark.skipif(sys.platform == "win32", reason="SIGKILL")
async def test_a_replacement_a_new_store_saw_begin_is_still_healed_when_killed() -> None:
    """PostgreSQL, two processes: process B's new store made its first call while
    process A's put had kept the old value but not yet erased it: B found the item
    there and dropped A's record of the replacement; A then erased the item and was
    killed before its add, and the key was left with no item for good (the next store
    found nothing to put back). B now waits for A's replacement, and when A is killed
    (its lock freed with its connection) puts the old value back."""
    import os
    import signal

    async with _held_put() as (url, proc):
        assert proc.stdout is not None and proc.stdin is not None
        assert proc.stdout.readline() == "HELD\n", proc.stderr.read()  # type: ignore[union-attr]
        async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
            store = ChatmemStore(mem, index={"fields": ["text"]})
            first = asyncio.ensure_future(store.aget(("m", "u1"), "k"))
            await _read_or_wait(first)
            proc.stdin.write("go\n")
            proc.stdin.flush()
            erased = await asyncio.to_thread(proc.stdout.readline)
            assert erased == "ERASED\n", erased + proc.stderr.read()  # type: ignore[union-attr]
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=60)
            await first
            item = await store.aget(("m", "u1"), "k")
            assert item is not None, "the key lost its item"
            assert item.value == {"text": "my cat is called Tom"}
        async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
            item = await ChatmemStore(mem).aget(("m", "u1"), "k")
            assert item is not None and item.value == {"text": "my cat is called Tom"}
            assert not await _replacements_left(mem)


async def test_a_put_replaces_an_item_with_a_pool_of_one_connection() -> None:
    """PostgreSQL with pool_size=1: the lock a replacing put holds (the old message's)
    must not take the connection its erase and add need."""

    from backends import drop_pg_schema, pg_schema_url, pg_url

    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(pg_url(), schema) + "&pool_size=1"
    try:
        async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
            store = ChatmemStore(mem, index={"fields": ["text"]})
            for i in range(3):
                await asyncio.wait_for(store.aput(("m",), "k", {"text": f"v{i}"}), 10)
            item = await store.aget(("m",), "k")
            assert item is not None and item.value == {"text": "v2"}
    finally:
        await drop_pg_schema(pg_url(), schema)


@contextlib.asynccontextmanager
async def _two_memories(tmp_path: Path, backend: str) -> AsyncIterator[tuple[Memory, Memory]]:
    """Two memories on one new store: on PostgreSQL two (two processes, a new schema
    dropped afterwards), on SQLite one twice (one process holds the file)."""

    from backends import drop_pg_schema, pg_schema_url, pg_url

    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = (f"sqlite:///{tmp_path}/lg.db" if backend == "sqlite"
           else pg_schema_url(pg_url(), schema))
    try:
        async with contextlib.AsyncExitStack() as stack:
            mem_a = await stack.enter_async_context(
                await Memory.open(url, embedder=chatmem.testing.embedder()))
            mem_b = mem_a if backend == "sqlite" else await stack.enter_async_context(
                await Memory.open(url, embedder=chatmem.testing.embedder()))
            yield mem_a, mem_b
    finally:
        if backend == "postgres":
            await drop_pg_schema(pg_url(), schema)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_two_puts_of_a_new_key_at_once_leave_one_item_and_both_succeed(
        tmp_path: Path, backend: str) -> None:
    """Two puts of a key that holds no item yet, at once (on PostgreSQL two memories:
    two processes; on SQLite two stores of one memory). The first read no item and
    added its value without a lock; the second, reading no item either, added too: a
    second message of one id ('message id … already exists with another content'), so
    that put failed though its value was valid. The first now holds the key's lock from
    its read to its add; the second waits for it, finds the item, and replaces it."""
    async with _two_memories(tmp_path, backend) as (mem_a, mem_b):
        a = ChatmemStore(mem_a, index={"fields": ["text"]})
        b = ChatmemStore(mem_b, index={"fields": ["text"]})
        adding, go = asyncio.Event(), asyncio.Event()
        real = mem_a.add

        async def held(*args: Any, **kwargs: Any) -> Any:
            adding.set()  # a read no item: its add is next
            await go.wait()
            return await real(*args, **kwargs)

        mem_a.add = held  # type: ignore[method-assign]
        first = asyncio.ensure_future(a.aput(("m",), "k", {"text": "from a"}))
        await adding.wait()
        mem_a.add = real  # type: ignore[method-assign]
        second = asyncio.ensure_future(b.aput(("m",), "k", {"text": "from b"}))
        # b waits for a's lock of the item
        await _until_waiting(second, backend, mem_a, f"langgraph:{message_id(('m',), 'k')}")
        go.set()
        await asyncio.gather(first, second)
        item = await b.aget(("m",), "k")
        assert item is not None and item.value == {"text": "from b"}
        await _one_item_left(mem_a, ("m",), "k")


@pytest.mark.parametrize("pool_size", [1, 2, 3])
async def test_more_puts_at_once_than_the_pool_has_connections(pool_size: int) -> None:
    """PostgreSQL: a put holds its item's lock on a pooled connection while its erase
    and add take others; at most half the pool is held by locks, so many more puts at
    once than the pool has connections (each store of one memory puts on its own: a
    store's puts run one at a time) neither wait on each other for good nor wait out
    the pool's 30 s timeout. Of one key: they all succeed, the key keeps one item (the
    value of one of them), where a put finding the key between another's erase and add
    added a second message of its id and failed."""
    import time

    from backends import drop_pg_schema, pg_schema_url, pg_url

    schema = f"t_{uuid.uuid4().hex[:16]}"
    url = pg_schema_url(pg_url(), schema) + f"&pool_size={pool_size}"
    n = 4 * pool_size + 4
    try:
        async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
            stores = [ChatmemStore(mem, index={"fields": ["text"]}) for _ in range(n)]
            for i, s in enumerate(stores):
                await s.aput(("m",), f"k{i}", {"text": "v0"})
            for key in (lambda i: f"k{i}", lambda i: "one"):
                started = time.monotonic()
                await asyncio.wait_for(asyncio.gather(*(
                    s.aput(("m",), key(i), {"text": f"v{i}"})
                    for i, s in enumerate(stores))), 20)
                assert time.monotonic() - started < 10
            for i in range(n):
                item = await stores[0].aget(("m",), f"k{i}")
                assert item is not None and item.value == {"text": f"v{i}"}
            one = await stores[0].aget(("m",), "one")
            assert one is not None and one.value["text"] in {f"v{i}" for i in range(n)}
            listed = await mem.list_messages(session=session_id(("m",)), limit=1000)
            assert len(listed.messages) == n + 1
            assert not await _replacements_left(mem)
    finally:
        await drop_pg_schema(pg_url(), schema)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_put_waits_for_a_rewrite_of_its_items_message(
        tmp_path: Path, backend: str) -> None:
    """Memory.rewrite of an item's message (its session and ts), under way when a put
    replaces that item (on PostgreSQL the put from another memory: another process).
    The put held the item's lock, not the message's, so it erased the message and
    added the new one while the rewrite was between its lock and its write: the
    rewrite then found no message at its ts ('no message at session …'). A put now
    takes the lock a rewrite of the item's message takes (after the item's own, in
    that order): it waits for the rewrite, then replaces the rewritten item. Both
    succeed; the key holds one message, the put's, whose vector and full-text entry
    are made from the put's text, its creation time kept; no record is left."""
    async with _two_memories(tmp_path, backend) as (mem_a, mem_b):
        store = ChatmemStore(mem_b, index={"fields": ["text"]})
        await store.aput(("m",), "k", {"text": "v0"})
        mid = message_id(("m",), "k")
        old = (await mem_a.get([mid]))[mid]
        assert old.ts is not None
        created = (await store.aget(("m",), "k")).created_at  # type: ignore[union-attr]
        rewriting, go = asyncio.Event(), asyncio.Event()
        real = mem_a.store.rewrite

        async def held(*args: Any, **kwargs: Any) -> Any:
            rewriting.set()  # under the rewrite's locks: its write is next
            await go.wait()
            return await real(*args, **kwargs)

        mem_a.store.rewrite = held  # type: ignore[method-assign]
        rewrite = asyncio.ensure_future(
            mem_a.rewrite(old.session_id, old.ts, content="v0 edited"))
        await rewriting.wait()
        put = asyncio.ensure_future(store.aput(("m",), "k", {"text": "v1"}))
        # the put waits for the rewrite's lock of the message
        await _until_waiting(put, backend, mem_a, (old.session_id, old.ts))
        put_ended_first = put.done()
        go.set()
        rewritten, _ = await asyncio.gather(rewrite, put)
        mem_a.store.rewrite = real  # type: ignore[method-assign]
        assert not put_ended_first
        assert rewritten.content == "v0 edited" and rewritten.ts == old.ts
        item = await store.aget(("m",), "k")
        assert item is not None and item.value == {"text": "v1"}
        assert item.created_at == created
        await _one_item_left(mem_a, ("m",), "k")
        for mem in {id(m): m for m in (mem_a, mem_b)}.values():
            await mem.flush()
        now = (await mem_a.get([mid]))[mid]
        assert now.content == "v1" and now.ts is not None and now.ts > old.ts
        await _one_vector_of(mem_a, now, "v1")  # the put's message's, not the old
        assert not await mem_a.storage.rewrites_owed()
        hits = await store.asearch(("m",), query="v1")
        assert [(h.key, h.value) for h in hits] == [("k", {"text": "v1"})]


class Killed(Exception):
    """Stands for ``kill -9`` of a put between its erase and its add: neither the put's
    own put-back (of a value the store refuses) nor the end of its record runs."""


async def _killed_put(store: ChatmemStore, mem: Memory, namespace: tuple[str, ...],
                      key: str, value: dict[str, Any]) -> None:
    """A put of ``key`` stopped for good between its erase and its add, as a process
    killed there leaves the store (test_a_put_killed_part_way_… kills one for real):
    the key without an item, its old value in a record of the replacement."""
    real = mem.add

    async def killed(*args: Any, **kwargs: Any) -> Any:
        raise Killed

    mem.add = killed  # type: ignore[method-assign]
    try:
        with pytest.raises(Killed):
            await store.aput(namespace, key, value)
    finally:
        mem.add = real  # type: ignore[method-assign]
    assert not await mem.get([message_id(namespace, key)])
    assert await _replacements_left(mem)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_write_after_a_killed_replacement_is_not_undone_by_the_heal(
        tmp_path: Path, backend: str) -> None:
    """A put killed between its erase and its add leaves its old value in a record,
    put back by the first call of the next store. A delete of that key, or a put, made
    meanwhile by a store that had already healed left the record in place: the heal
    then put the old value back over the later write (the deleted item came back; after
    a second killed replacement, of the later value, the heal put back whichever of the
    two records it read first, the older value too). A write of a key that finds no
    item now drops the key's record; a replacement keeps one record per item, the
    last value."""
    ns = ("m", "u1")
    async with _two_memories(tmp_path, backend) as (mem, _):
        store = ChatmemStore(mem, index={"fields": ["text"]})
        await store.aput(ns, "gone", {"text": "my cat is called Tom"})
        await _killed_put(store, mem, ns, "gone", {"text": "my cat is called Felix"})
        await store.adelete(ns, "gone")  # acknowledged: the key holds no item
        assert await ChatmemStore(mem).aget(ns, "gone") is None

        for first, then in (("Rex", "Max"), ("Fido", "Bob"), ("Spot", "Ace")):
            await store.aput(ns, "k", {"text": f"my dog is called {first}"})
            await _killed_put(store, mem, ns, "k", {"text": "my dog is called Nemo"})
            await store.aput(ns, "k", {"text": f"my dog is called {then}"})  # had none
            await _killed_put(store, mem, ns, "k", {"text": "my dog is called Nemo"})
            item = await ChatmemStore(mem).aget(ns, "k")  # a new store: it heals
            assert item is not None and item.value == {"text": f"my dog is called {then}"}
        await _one_item_left(mem, ns, "k")


async def _older_versions_killed_put(mem: Memory, namespace: tuple[str, ...],
                                     key: str) -> None:
    """The store as a put of an earlier chatmem (one record per replacement, named by
    the item's id, ":" and a random suffix) killed between its erase and its add left
    it: the key without an item, its old value in that record."""

    mid = message_id(namespace, key)
    old = (await mem.get([mid]))[mid]
    await mem.delete([mid])
    await mem.store.meta_set(REPLACING_NAMESPACE, f"{mid}:{uuid.uuid4().hex}",
                             json.dumps(old.to_dict()))


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_write_drops_an_earlier_versions_record_of_its_key(
        tmp_path: Path, backend: str) -> None:
    """A record an earlier chatmem kept of a replacement (the item's id and a random
    suffix), left by one of its puts killed part way once this store had healed (the
    two versions sharing a store during an upgrade), was healed but never dropped by a
    later write of the key: a delete of the key left it, and the next store put the
    deleted value back; a put left it too, waiting. A put or delete of the key now drops
    it with the key's own record."""
    ns = ("m", "u1")
    async with _two_memories(tmp_path, backend) as (mem, _):
        store = ChatmemStore(mem, index={"fields": ["text"]})
        await store.aput(ns, "gone", {"text": "my cat is called Tom"})  # it has healed
        await _older_versions_killed_put(mem, ns, "gone")
        await store.adelete(ns, "gone")  # acknowledged: the key holds no item
        assert not await _replacements_left(mem)
        assert await ChatmemStore(mem).aget(ns, "gone") is None

        await store.aput(ns, "k", {"text": "my dog is called Rex"})
        await _older_versions_killed_put(mem, ns, "k")
        await store.aput(ns, "k", {"text": "my dog is called Max"})
        assert not await _replacements_left(mem)
        await store.aput(ns, "k", {"text": "my dog is called Ace"})  # a replacement too
        await _older_versions_killed_put(mem, ns, "k")
        await store.aput(("m", "u2"), "k", {"text": "another key"})
        assert len(await _replacements_left(mem)) == 1  # only a write of its key drops it
        await store.aput(ns, "k", {"text": "my dog is called Bob"})
        assert not await _replacements_left(mem)
        item = await ChatmemStore(mem).aget(ns, "k")
        assert item is not None and item.value == {"text": "my dog is called Bob"}
        await _one_item_left(mem, ns, "k")


async def _heal_held_at_its_add(mem: Memory, namespace: tuple[str, ...], key: str,
                                go: asyncio.Event) -> asyncio.Future[Any]:
    """A new store's first call (a ``get`` of ``key``) on ``mem``, whose heal read the
    record of a killed replacement of the item and found the key without an item: held
    at its add of the old value until ``go`` is set."""
    adding = asyncio.Event()
    real = mem.add

    async def held(*args: Any, **kwargs: Any) -> Any:
        adding.set()  # the heal found no item: its add of the old value is next
        await go.wait()
        return await real(*args, **kwargs)

    mem.add = held  # type: ignore[method-assign]
    heal = asyncio.ensure_future(ChatmemStore(mem).aget(namespace, key))
    await adding.wait()
    mem.add = real  # type: ignore[method-assign]
    return heal


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_heal_and_a_rewrite_or_put_of_its_item_at_once_keep_one_value(
        tmp_path: Path, backend: str) -> None:
    """Pins why the heal takes the item's lock and not the rewrite lock of the item's
    message, which a put takes (ChatmemStore._heal): the heal writes only when the key
    holds no item, so there is no message for a rewrite to be in the middle of, and its
    one write, the add of the old value, is atomic. Held at that add, a rewrite of the
    old message's (session, ts) from another memory (another process on PostgreSQL)
    finds no message (it is ordered before the add; a later one rewrites the value put
    back), and a put of the key waits for the heal (the item's lock, which a put of a
    key without an item takes alone, in the same order) and then replaces the value put
    back. One value in the end, the put's, with its vector; nothing left owed."""
    from chatmem.errors import NotFound

    ns = ("m",)
    mid = message_id(ns, "k")
    async with _two_memories(tmp_path, backend) as (mem_a, mem_b):
        store = ChatmemStore(mem_b, index={"fields": ["text"]})
        await store.aput(ns, "k", {"text": "v0"})
        old = (await mem_b.get([mid]))[mid]
        assert old.ts is not None
        created = (await store.aget(ns, "k")).created_at  # type: ignore[union-attr]
        await _killed_put(store, mem_b, ns, "k", {"text": "never"})
        go = asyncio.Event()
        heal = await _heal_held_at_its_add(mem_a, ns, "k", go)
        try:
            rewritten: Message | None = await asyncio.wait_for(
                mem_b.rewrite(old.session_id, old.ts, content="v0 edited"), 30)
        except NotFound:
            rewritten = None
        assert rewritten is None or rewritten.content == "v0 edited"
        put = asyncio.ensure_future(store.aput(ns, "k", {"text": "v1"}))
        await _until_waiting(put, backend, mem_a, f"langgraph:{mid}")  # the heal's lock
        put_ended_first = put.done()
        go.set()
        healed, _ = await asyncio.gather(heal, put)
        assert not put_ended_first
        assert healed is not None and healed.value == {"text": "v0"}
        item = await store.aget(ns, "k")
        assert item is not None and item.value == {"text": "v1"}
        assert item.created_at == created
        await _one_item_left(mem_a, ns, "k")
        for mem in {id(m): m for m in (mem_a, mem_b)}.values():
            await mem.flush()
            assert not await mem.storage.rewrites_owed()
        now = (await mem_a.get([mid]))[mid]
        assert now.content == "v1"
        await _one_vector_of(mem_a, now, "v1")


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("selector", ["resource_id", "session"])
async def test_forget_erases_the_old_value_a_killed_replacement_kept(
        tmp_path: Path, backend: str, selector: str) -> None:
    """A put killed between its erase and its add keeps the item's old value in the
    store's metadata until the next store puts it back. Memory.forget of the user (or
    of the namespace's session) erased the messages and left that record: the next
    store's first call put the forgotten value back, and until then it stayed in the
    store, unseen by export. Forget now drops the records of the sessions it erases."""
    ns = ("memories", "u1")
    async with _two_memories(tmp_path, backend) as (mem, _):
        store = ChatmemStore(mem, index={"fields": ["text"]})
        await store.aput(ns, "k", {"text": "my cat is called Tom"})
        await store.aput(("memories", "u2"), "k", {"text": "my dog is called Rex"})
        await _killed_put(store, mem, ns, "k", {"text": "my cat is called Felix"})
        await _killed_put(store, mem, ("memories", "u2"), "k", {"text": "a parrot"})
        await mem.forget(**{selector: "u1" if selector == "resource_id" else session_id(ns)})
        assert [json.loads(r[2])["session_id"] for r in await _replacements_left(mem)] == [
            session_id(("memories", "u2"))]  # another user's is kept
        fresh = ChatmemStore(mem)  # its first call heals
        assert await fresh.aget(ns, "k") is None
        other = await fresh.aget(("memories", "u2"), "k")
        assert other is not None and other.value == {"text": "my dog is called Rex"}
        assert not await _replacements_left(mem)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("selector", ["resource_id", "session"])
async def test_forget_counts_the_old_values_it_drops_and_its_dry_run_says_so(
        tmp_path: Path, backend: str, selector: str) -> None:
    """Memory.forget dropped the old values killed replacements kept of the user's
    items without counting them, and its dry run (the confirmation shown before a
    forget) did not mention them: 'forget u1: 1 message' erased two values. Each now
    counts in messages as the message it would be again, once per item, in the dry
    run (which drops nothing) and in the forget alike."""
    ns = ("memories", "u1")
    async with _two_memories(tmp_path, backend) as (mem, _):
        store = ChatmemStore(mem, index={"fields": ["text"]})
        await store.aput(ns, "live", {"text": "I drink green tea"})
        await store.aput(ns, "k", {"text": "my cat is called Tom"})
        await _killed_put(store, mem, ns, "k", {"text": "my cat is called Felix"})
        await store.aput(("memories", "u2"), "k", {"text": "my dog is called Rex"})
        await _killed_put(store, mem, ("memories", "u2"), "k", {"text": "a parrot"})
        chosen = {selector: "u1" if selector == "resource_id" else session_id(ns)}
        dry = await mem.forget(**chosen, dry_run=True)
        assert len(await _replacements_left(mem)) == 2  # a dry run drops none
        erased = await mem.forget(**chosen)
        assert dry.messages == erased.messages == 2
        assert [json.loads(r[2])["session_id"] for r in await _replacements_left(mem)] == [
            session_id(("memories", "u2"))]


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("how", ["delete", "erase", "sweep"])
async def test_erasing_an_items_message_drops_the_old_value_a_killed_replacement_kept(
        tmp_path: Path, backend: str, how: str) -> None:
    """Memory.delete or Memory.erase of a LangGraph item's message id, or a retention
    sweep past its old value, left the record a put killed part way kept of that value:
    the next store's first call put the deleted (or expired) value back. Erasing the
    item now drops its record, counted as the message it would be again (a dry run
    says so and drops nothing); another item's record is kept and healed."""
    from chatmem.models import now_ms
    from chatmem.retention import DAY_MS

    gone, kept = ("memories", "u1"), ("memories", "u2")
    async with _two_memories(tmp_path, backend) as (mem, _):
        store = ChatmemStore(mem, index={"fields": ["text"]})
        for ns in (gone, kept):
            await store.aput(ns, "k", {"text": f"the old value of {ns[1]}"})
            await _killed_put(store, mem, ns, "k", {"text": "never stored"})
        mid = message_id(gone, "k")
        if how == "delete":
            assert await mem.delete([mid]) == 1
        elif how == "erase":
            assert (await mem.erase([mid], dry_run=True)).messages == 1
            assert len(await _replacements_left(mem)) == 2  # a dry run drops none
            assert (await mem.erase([mid])).messages == 1
        else:
            await mem.set_retention(1, actor={"id": "op", "role": "owner"},
                                    session=session_id(gone))
            assert (await mem.sweep_retention(now=now_ms() + 2 * DAY_MS)).messages == 1
        assert [json.loads(r[2])["session_id"] for r in await _replacements_left(mem)] == [
            session_id(kept)]
        fresh = ChatmemStore(mem)  # its first call heals
        assert await fresh.aget(gone, "k") is None
        other = await fresh.aget(kept, "k")
        assert other is not None and other.value == {"text": "the old value of u2"}
        assert not await _replacements_left(mem)


#: (label, a call on the store, words of the refusal naming the argument). Each raised a
#: raw TypeError, AttributeError, OverflowError or RecursionError from chatmem's code
#: (or, a namespace with a lone surrogate, named session.id / filter.$and[1]).
BAD_STORE_CALLS: list[tuple[str, Any, str]] = [
    ("value a list", lambda s: s.aput(("m",), "k", ["x"]), 'value must be a dict'),
    ("value a string", lambda s: s.aput(("m",), "k", "x"), 'value must be a dict'),
    ("key with NUL", lambda s: s.aput(("m",), "a\x00b", {"text": "x"}), "key contains a NUL"),
    ("namespace surrogate", lambda s: s.aput(("\ud800",), "k", {"text": "x"}),
     "namespace is not valid UTF-8"),
    ("namespace too long", lambda s: s.aput(("x" * 600,), "k", {"text": "x"}),
     "namespace is longer than"),
    ("search query a dict", lambda s: s.asearch(("m",), query={"q": 1}),
     "query must be a string"),
    ("search filter a list", lambda s: s.asearch(("m",), filter=["a"]),
     "filter must be a mapping"),
    ("search filter holding itself", lambda s: s.asearch(("m",), filter=_looped()),
     "filter.me.me"),
    ("search limit text", lambda s: s.asearch(("m",), limit="5"), "limit must be an integer"),
    ("search offset past a float", lambda s: s.asearch(("m",), offset=-(10**400)),
     "offset must be an integer"),
    ("search prefix surrogate", lambda s: s.asearch(("\udfff",), query="x"),
     "namespace_prefix is not valid UTF-8"),
    ("list limit None", lambda s: s.alist_namespaces(limit=None), "limit must be an integer"),
    ("list max_depth 0", lambda s: s.alist_namespaces(max_depth=0), "max_depth must be"),
    ("list max_depth 1.5", lambda s: s.alist_namespaces(max_depth=1.5), "max_depth must be"),
    ("list prefix a string", lambda s: s.alist_namespaces(prefix="m"), "prefix must be"),
    ("list suffix a string", lambda s: s.alist_namespaces(suffix="m"), "suffix must be"),
]


def _looped() -> dict[str, Any]:
    looped: dict[str, Any] = {}
    looped["me"] = looped
    return looped


@pytest.mark.parametrize("label,call,says", BAD_STORE_CALLS, ids=[c[0] for c in BAD_STORE_CALLS])
async def test_a_bad_argument_is_an_invalid_input_naming_it_and_writes_nothing(
        store: ChatmemStore, mem: Memory, label: str, call: Any, says: str) -> None:
    from chatmem.errors import InvalidInput

    await store.aput(("m",), "k", {"text": "good"})
    with pytest.raises(InvalidInput, match=re.escape(says)):
        await call(store)
    assert await store.alist_namespaces() == [("m",)]
    item = await store.aget(("m",), "k")
    assert item is not None and item.value == {"text": "good"}
    assert await store.alist_namespaces(prefix=["m"]) == [("m",)]  # a list is a path too


async def test_a_bad_op_in_a_batch_runs_none_of_them(store: ChatmemStore, mem: Memory) -> None:
    from langgraph.store.base import PutOp, SearchOp

    from chatmem.errors import InvalidInput

    with pytest.raises(InvalidInput, match="limit must be an integer"):
        await store.abatch([PutOp(("m",), "k", {"text": "x"}),
                            SearchOp(("m",), limit="ten")])  # type: ignore[arg-type]
    assert await store.aget(("m",), "k") is None


#: (label, a call on the store, words naming the argument, LangGraph's class it is too).
#: BaseStore's methods check these before chatmem's code runs: each raised LangGraph's
#: InvalidNamespaceError, a TypeError or NotImplementedError (not a ChatmemError), took
#: a string as a namespace of one-letter labels, or a key None as "None".
LANGGRAPHS_CHECKS: list[tuple[str, Any, str, type[Exception] | None]] = [
    ("put label a.b", lambda s: s.aput(("a.b",), "k", {"text": "x"}),
     'namespace labels must be non-empty strings without "." or NUL (U+0000), got "a.b"',
     "InvalidNamespaceError"),
    ("put label 5", lambda s: s.aput(("m", 5), "k", {"text": "x"}),
     "namespace labels must be non-empty strings", "InvalidNamespaceError"),
    ("put no label", lambda s: s.aput((), "k", {"text": "x"}),
     "namespace must hold at least one label", "InvalidNamespaceError"),
    ("put under langgraph", lambda s: s.aput(("langgraph", "x"), "k", {"text": "x"}),
     'namespace must not start with "langgraph"', "InvalidNamespaceError"),
    ("delete under langgraph", lambda s: s.aput(("langgraph",), "k", None),
     'namespace must not start with "langgraph"', "InvalidNamespaceError"),
    ("put namespace a string", lambda s: s.aput("mem", "k", {"text": "x"}),
     'namespace must be a tuple of namespace labels, got "mem"', "InvalidNamespaceError"),
    ("put namespace None", lambda s: s.aput(None, "k", {"text": "x"}),
     "namespace must be a tuple of namespace labels, got null", "InvalidNamespaceError"),
    ("get namespace 5", lambda s: s.aget(5, "k"),
     "namespace must be a tuple of namespace labels, got 5", "InvalidNamespaceError"),
    ("get key None", lambda s: s.aget(("m",), None),
     "key must be text, a number or a UUID, got null", None),
    ("delete key a list", lambda s: s.adelete(("m",), ["k"]),
     "key must be text, a number or a UUID", None),
    ("get refresh_ttl text", lambda s: s.aget(("m",), "k", refresh_ttl="yes"),
     "refresh_ttl must be true, false or None", None),
    ("search prefix None", lambda s: s.asearch(None),
     "namespace_prefix must be a tuple of namespace labels", "InvalidNamespaceError"),
    ("search label empty", lambda s: s.asearch(("m", "")),
     'namespace_prefix labels must be non-empty strings', "InvalidNamespaceError"),
    ("list prefix 5", lambda s: s.alist_namespaces(prefix=5),
     "prefix must be a tuple of namespace labels, got 5", "InvalidNamespaceError"),
    ("list suffix label a.b", lambda s: s.alist_namespaces(suffix=("a.b",)),
     'suffix labels must be non-empty strings', "InvalidNamespaceError"),
    ("put index 5", lambda s: s.aput(("m",), "k", {"text": "x"}, index=5),
     "index must be false, None or a list of JSON paths, got 5", None),
    ("put ttl", lambda s: s.aput(("m",), "k", {"text": "x"}, ttl=5),
     "ttl must be None: ChatmemStore does not expire items (supports_ttl is False); "
     "chatmem's retention erases old ones (retention.days, Memory.set_retention), got 5",
     "NotImplementedError"),
    ("batch ttl", lambda s: s.abatch([PutOp(("m",), "k", {"text": "x"}, ttl=5.0)]),
     "ttl must be None", "NotImplementedError"),
    ("batch match type", lambda s: s.abatch([ListNamespacesOp(
        match_conditions=(MatchCondition("middle", ("m",)),))]),  # type: ignore[arg-type]
     "match_conditions: a match type is prefix or suffix, got \"middle\"", None),
]


@pytest.mark.parametrize("label,call,says,also", LANGGRAPHS_CHECKS,
                         ids=[c[0] for c in LANGGRAPHS_CHECKS])
async def test_langgraphs_own_checks_are_invalid_input_naming_the_argument(
        store: ChatmemStore, label: str, call: Any, says: str, also: str | None) -> None:
    """Every bad argument of the store's methods is a ChatmemError (InvalidInput) naming
    it; a namespace's is LangGraph's InvalidNamespaceError too, and a ttl's the
    NotImplementedError BaseStore raises for it, so LangGraph code catching those still
    does. Nothing is written."""
    import langgraph.store.base as lg

    from chatmem.errors import InvalidInput

    await store.aput(("m",), "k", {"text": "good"})
    with pytest.raises(InvalidInput, match=re.escape(says)) as info:
        await call(store)
    if also is not None:
        assert isinstance(info.value, getattr(lg, also, None) or getattr(builtins, also))
    assert await store.alist_namespaces() == [("m",)]
    item = await store.aget(("m",), "k")
    assert item is not None and item.value == {"text": "good"}


def test_the_blocking_methods_check_their_arguments_alike(tmp_path: Path) -> None:
    from langgraph.store.base import InvalidNamespaceError

    from chatmem.errors import InvalidInput

    with SyncMemory.open(f"sqlite:///{tmp_path}/m.db",
                         embedder=chatmem.testing.embedder()) as mem:
        store = ChatmemStore(mem)
        for call, says in [(lambda: store.put(("a.b",), "k", {"t": 1}), "namespace labels"),
                           (lambda: store.put(("m",), "k", {"t": 1}, ttl=1), "ttl must be"),
                           (lambda: store.get(None, "k"), "namespace must be a tuple"),
                           (lambda: store.delete(("m",), None),
                            "key must be text, a number or a UUID"),
                           (lambda: store.search(5), "namespace_prefix must be a tuple"),
                           (lambda: store.list_namespaces(prefix=7), "prefix must be")]:
            with pytest.raises(InvalidInput, match=says):
                call()
        with pytest.raises(InvalidNamespaceError):
            store.get(("",), "k")
        assert store.list_namespaces() == []


@pytest.mark.parametrize("kwargs,says", [
    ({"memory": None}, "ChatmemStore memory must be a chatmem Memory or SyncMemory"),
    ({"namespace_map": "user"}, "ChatmemStore namespace_map must be a function"),
    ({"index": ["text"]}, "ChatmemStore index must be a mapping"),
    ({"index": {"fields": "text"}}, "ChatmemStore index.fields must be a list"),
    ({"index": {"fields": [5]}}, "ChatmemStore index.fields must be a list"),
    ({"flush_before_search": "no"}, "ChatmemStore flush_before_search must be true or false"),
])
async def test_the_store_checks_its_own_arguments(mem: Memory, kwargs: dict[str, Any],
                                                  says: str) -> None:
    from chatmem.errors import InvalidInput

    given = {"memory": mem, **kwargs}
    with pytest.raises(InvalidInput, match=re.escape(says)):
        ChatmemStore(given.pop("memory"), **given)


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
@pytest.mark.parametrize("how", ["erase", "forget", "sweep"])
async def test_an_erase_while_a_heal_puts_its_item_back_wins(
        tmp_path: Path, backend: str, how: str) -> None:
    """A heal (a new store's first call) that had read the record a killed put kept of
    an item, and found the key without an item, added the old value back even when
    Memory.erase of the item's message (Memory.forget of its user, a retention sweep
    past it) had dropped that record meanwhile: the erased value came back. The heal is
    held at its add (the hook stands for the moment between its read and its write);
    the erase, from another memory (another process on PostgreSQL), now waits for the
    item's lock, and erases the value put back: it never comes back."""
    from chatmem.models import now_ms
    from chatmem.retention import DAY_MS

    ns = ("memories", "u1")
    mid = message_id(ns, "k")
    async with _two_memories(tmp_path, backend) as (mem_a, mem_b):
        store = ChatmemStore(mem_b, index={"fields": ["text"]})
        await store.aput(ns, "k", {"text": "my cat is called Tom"})
        await _killed_put(store, mem_b, ns, "k", {"text": "never stored"})
        if how == "sweep":
            await mem_b.set_retention(1, actor={"id": "op", "role": "owner"},
                                      session=session_id(ns))
        go = asyncio.Event()
        heal = await _heal_held_at_its_add(mem_a, ns, "k", go)
        erase = asyncio.ensure_future(
            mem_b.erase([mid]) if how == "erase"
            else mem_b.forget(resource_id="u1") if how == "forget"
            else mem_b.sweep_retention(now=now_ms() + 2 * DAY_MS))
        await _until_waiting(erase, backend, mem_b, f"langgraph:{mid}")
        go.set()
        await heal  # it may answer the value it put back: the erase came after it
        erased = await erase
        assert erased.messages == 1
        assert not await mem_b.get([mid])
        assert not await _replacements_left(mem_b)
        assert await store.aget(ns, "k") is None
        assert await ChatmemStore(mem_b).aget(ns, "k") is None  # a new store: nothing to heal
