"""Filters on numbers past 2**53 (64-bit integers a payload may hold) select on Qdrant's
own engine (``qdrant-edge-py``) what :func:`evaluate` selects, as on SQLite and
PostgreSQL: the engine compares an integer payload value with a range as a double."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from chatmem.errors import FilterError
from chatmem.store.filters import MAX_INT, compile_qdrant, compile_sqlite, evaluate, make_resolver
from test_qdrant import _edge_module, to_edge

BIG = [2**53, 2**60, 1234567890123456789, 2**63]
# integers around each (those that round to it as doubles among them), both signs
AROUND = sorted({s * (c + d) for c in BIG for d in (-513, -2, -1, 0, 1, 2, 3, 64, 129, 513)
                 for s in (1, -1) if -(2**63) <= s * (c + d) < 2**63})
VALUES: list[Any] = [*AROUND, float(2**60), 0.5, [2**53 + 1], True, "x", None]
OPERANDS: list[Any] = [2**53, -(2**53), MAX_INT - 1, float(2**53), float(2**60),
                       float(1234567890123456789), float(2**63), -float(2**63), 1e300]


def test_numbers_past_2_53_compare_exactly_on_qdrants_engine(tmp_path: Path) -> None:
    qe = _edge_module()
    shard = qe.EdgeShard.create(str(tmp_path / "edge"), qe.EdgeConfig(
        vectors=qe.EdgeVectorParams(size=2, distance=qe.Distance.Cosine)))
    try:
        shard.update(qe.UpdateOperation.upsert_points([
            qe.Point(i + 1, [1.0, 0.0], {"v": v, "i": i}) for i, v in enumerate(VALUES)]))
        wrong = []
        for operand in OPERANDS:
            for op in ("$eq", "$ne", "$gt", "$gte", "$lt", "$lte", "$in", "$nin"):
                where = {"v": {op: [operand] if op in ("$in", "$nin") else operand}}
                records, _ = shard.scroll(qe.ScrollRequest(
                    limit=1000, filter=to_edge(compile_qdrant(where), qe), with_payload=["i"]))
                engine = {r.payload["i"] for r in records}
                expected = {i for i, v in enumerate(VALUES) if evaluate(where, {"v": v})}
                if engine != expected:
                    wrong.append((where, [VALUES[i] for i in engine ^ expected]))
        assert not wrong, wrong[:5]
    finally:
        shard.close()


def test_too_many_big_numbers_for_qdrant_is_a_filter_error_naming_the_field() -> None:
    where = {"meta.big": {"$in": [float(2**62 + 4096 * i) for i in range(30)]}}
    compile_sqlite(where, make_resolver("meta"))  # exact in SQL: nothing to list
    with pytest.raises(FilterError, match=r'filter on "meta\.big": .*2\*\*53'):
        compile_qdrant(where)


async def test_a_tuple_of_conditions_names_session_metadata_as_a_list_does() -> None:
    """``parse_filter`` takes a tuple for ``$and``/``$or``, but the rewrite of a caller's
    filter into vector-entry fields only went into lists: inside a tuple, ``speaker_id``
    read the message's speaker instead of the session metadata key of that name."""
    from chatmem import Memory, Message, Session
    from chatmem.embedding import Embedder
    from providers import RecordingProvider

    mem = await Memory.open("memory://", embedder=Embedder(RecordingProvider(dim=32)))
    try:
        await mem.upsert_session(Session(id="s", metadata={"speaker_id": "bob"}))
        await mem.add(Message(session_id="s", content="hello there", speaker_id="u1"))
        await mem.flush(timeout=30)
        for combine in (list, tuple):
            found = {
                who: len((await mem.recall("hello", session="s", window=0, filter={
                    "$or": combine([{"speaker_id": who}])})).hits)
                for who in ("bob", "u1")}
            assert found == {"bob": 1, "u1": 0}, (combine, found)
    finally:
        await mem.close()


@pytest.mark.parametrize("shape", ["$or", "$and", "keys"])
async def test_the_widest_filter_the_node_limit_allows_runs_on_sqlite(
        tmp_path: Path, shape: str, caplog: pytest.LogCaptureFixture) -> None:
    """999 conditions side by side are within MAX_NODES (1,000), but SQLite read
    ``a OR b OR c …`` as a chain 999 deep, past its expression depth of 1,000: the
    recall failed with StoreError ("Expression tree is too large"; 503 over HTTP), and
    before that the lexical channel failed and was dropped with a warning."""
    from chatmem import Memory, Message, Session
    from chatmem.embedding import Embedder
    from chatmem.store.filters import MAX_NODES
    from providers import RecordingProvider

    n = MAX_NODES - 1
    if shape == "$or":  # one condition of the 999 holds
        where: dict[str, Any] = {"$or": [{"meta.conv": i} for i in range(n)]}
    elif shape == "$and":  # all hold
        where = {"$and": [{"meta.conv": {"$ne": 1000 + i}} for i in range(n)]}
    else:
        where = {f"meta.k{i}": {"$exists": False} for i in range(n)}
    mem = await Memory.open(f"sqlite:///{tmp_path / 'wide.db'}",
                            embedder=Embedder(RecordingProvider(dim=32)))
    try:
        await mem.upsert_session(Session(id="s", metadata={"conv": 7}))
        await mem.add([Message(session_id="s", content=f"the lake painting number {i}")
                       for i in range(3)])
        await mem.flush(timeout=30)
        caplog.clear()
        result = await mem.recall("lake painting", session="s", window=0, filter=where)
        assert len(result.hits) == 3
        assert not [r for r in caplog.records if "search failed" in r.getMessage()]
    finally:
        await mem.close()


async def test_a_recall_parses_its_filter_a_bounded_number_of_times(tmp_path: Path) -> None:
    """A recall's neighbours and replies were judged by ``evaluate(where, …)``, which
    parses and checks the filter at every call, once per neighbour per hit, and the
    sessions read for each hit parsed it again: with a filter of 999 conditions a recall
    of top_k 20, window 5 over 3,780 messages took 13 s of CPU, and of top_k 1000,
    window 100 more than 12 minutes, in the server's event loop. Now the filter is
    parsed a fixed number of times whatever the hits and the window, and each message
    is judged once however many windows hold it."""
    import sys

    from chatmem import Memory, Message, Session
    from chatmem.embedding import Embedder
    from chatmem.store import filters
    from providers import RecordingProvider

    mem = await Memory.open(f"sqlite:///{tmp_path / 'many.db'}",
                            embedder=Embedder(RecordingProvider(dim=32)))
    where = {"$and": [{"meta.conv": {"$ne": 1000 + i}} for i in range(50)]}
    try:
        await mem.upsert_session(Session(id="s", metadata={"conv": 7}))
        await mem.add([Message(session_id="s", content=f"the lake painting number {i}",
                               ts=1_700_000_000_000 + i * 1000) for i in range(60)])
        await mem.flush(timeout=30)

        async def counted(top_k: int, window: int) -> tuple[int, int, int]:
            calls = {"parse_filter": 0, "_eval": 0}

            def profile(frame: Any, event: str, arg: Any) -> None:
                code = frame.f_code
                top_level = code.co_name == "parse_filter" or \
                    frame.f_back.f_code.co_filename != filters.__file__  # not a branch
                if event == "call" and code.co_filename == filters.__file__ \
                        and code.co_name in calls and top_level:
                    calls[code.co_name] += 1

            sys.setprofile(profile)
            try:
                result = await mem.recall("lake painting", session="s", top_k=top_k,
                                          window=window, filter=where)
            finally:
                sys.setprofile(None)
            return calls["parse_filter"], calls["_eval"], len(result.hits)

        small = await counted(2, 1)
        large = await counted(20, 5)
        assert large[2] == 20
        assert large[0] == small[0], (small, large)  # parses: not per hit or neighbour
        assert large[1] <= 2 * 60, large  # each of the 60 messages judged once per stage
    finally:
        await mem.close()
