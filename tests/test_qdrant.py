"""The Qdrant vector index: URLs, local-mode round trips, filters, layout, end to end.

Everything runs on qdrant-client's local mode, through the same calls the server
path makes. The filters QdrantIndex compiles are also replayed on Qdrant's own
engine in-process (``qdrant-edge-py``) over the same payloads and payload
indexes, against the reference evaluator: what a real cluster would select.
A real cluster is not covered here.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import random
import threading
import time
import traceback
import uuid
import warnings
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chatmem import Memory, Message
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError, FilterError, InvalidInput, StoreClosed, StoreError
from chatmem.models import VECTOR_FIELDS, VectorEntry, filter_document
from chatmem.store import open_vector_index
from chatmem.store.base import OneWidth
from chatmem.store.filters import compile_qdrant, evaluate
from chatmem.store.qdrant import (
    PAYLOAD_INDEXES,
    POINT_NAMESPACE,
    QdrantIndex,
    _query_filter,
    collection_name,
    entry_payload,
    parse_url,
    point_id,
)
from providers import RecordingProvider

T0 = 1_760_000_000_000


def unit(*xs: float) -> np.ndarray:
    v = np.asarray(xs, dtype=np.float32)
    out: np.ndarray = v / np.linalg.norm(v)
    return out


def entry(mid: str, vec: Sequence[float] | np.ndarray, *, session: str = "s1", ts: int = T0,
          model: str | None = "m:a", role: str | None = "user", **kw: Any) -> VectorEntry:
    return VectorEntry(message_id=mid, session_id=session, ts=ts, role=role, model_id=model,
                       vector=unit(*vec), **kw)


@pytest.fixture
async def index() -> AsyncIterator[QdrantIndex]:
    idx = await QdrantIndex.open("qdrant+local://:memory:")
    try:
        yield idx
    finally:
        await idx.close()


# --------------------------------------------------------------------------- URLs


@pytest.mark.parametrize("url, kwargs, exact", [
    ("qdrant://localhost:6333", {"url": "http://localhost:6333"}, False),
    ("qdrant://qdrant.example", {"url": "http://qdrant.example:6333"}, False),
    ("qdrant://h:6334?api_key=s3cret&https=1&prefix=q",
     {"url": "https://h:6334", "api_key": "s3cret", "prefix": "/q"}, False),
    ("qdrant://h?https=no&prefix=/a/b", {"url": "http://h:6333", "prefix": "/a/b"}, False),
    ("qdrant+https://h", {"url": "https://h:6333"}, False),
    ("qdrant+https://h:443?https=1", {"url": "https://h:443"}, False),
    ("qdrant+http://h:1?timeout=2.5&exact=1", {"url": "http://h:1", "timeout": 3}, True),
    ("qdrant://[::1]:7000", {"url": "http://[::1]:7000"}, False),
])
def test_server_urls_build_client_arguments(url: str, kwargs: dict[str, Any], exact: bool
                                            ) -> None:
    target = parse_url(url)
    assert dict(target.client_kwargs) == {"check_compatibility": False, **kwargs}
    assert (target.local, target.exact) == (False, exact)
    assert "s3cret" not in target.display


async def test_server_arguments_make_the_right_client_without_connecting() -> None:
    from qdrant_client import AsyncQdrantClient

    target = parse_url("qdrant+https://qdrant.invalid:6400?prefix=vec&api_key=k")
    client = AsyncQdrantClient(**target.client_kwargs)
    try:
        remote = client._client
        assert remote.rest_uri == "https://qdrant.invalid:6400/vec"  # type: ignore[attr-defined]
        assert remote._rest_headers["api-key"] == "k"  # type: ignore[attr-defined]
    finally:
        await client.close()


@pytest.mark.parametrize("url, kwargs", [
    ("qdrant+local:///var/lib/chatmem/q", {"path": "/var/lib/chatmem/q"}),
    ("qdrant+local:///tmp/with%20space", {"path": "/tmp/with space"}),
    ("qdrant+local://:memory:", {"location": ":memory:"}),
])
def test_local_urls(url: str, kwargs: dict[str, Any]) -> None:
    target = parse_url(url)
    assert dict(target.client_kwargs) == kwargs
    assert target.local


@pytest.mark.parametrize("url, fix", [
    ("qdrant://", "e.g. qdrant://localhost:6333"),
    ("qdrant://h:port", "qdrant://localhost:6333"),
    ("qdrant://h:0", "qdrant://h:6333"),
    ("qdrant://user:pw@h:6333", "?api_key=KEY"),
    ("qdrant://h:6333/qdrant", "?prefix=/qdrant"),
    ("qdrant://h?bogus=1", "known: api_key, https, prefix, timeout, exact"),
    ("qdrant://h?https=maybe", "https=1 or https=0"),
    ("qdrant+https://h?https=0", "drop one of them"),
    ("qdrant://h?timeout=-1", "positive number of seconds"),
    ("qdrant://h?timeout=soon", "positive number of seconds"),
    ("qdrant://h?api_key=", "api_key is empty"),
    ("qdrant://h?https=1&https=0", "given twice"),
    ("qdrant://h#frag", "fragment"),
    ("qdrant+local://relative/dir", "qdrant+local:///absolute/folder"),
    ("qdrant+local://", "qdrant+local://:memory:"),
    ("qdrant+local:///tmp/q?exact=1", "takes no options"),
    ("qdrant+grpc://h", "qdrant+local://"),
    ("qdrant:h", "qdrant://host:6333"),
])
def test_bad_urls_name_the_fix(url: str, fix: str) -> None:
    with pytest.raises(ConfigError) as info:
        parse_url(url)
    assert fix in str(info.value)


def test_url_errors_never_show_the_api_key() -> None:
    with pytest.raises(ConfigError) as info:
        parse_url("qdrant://h?api_key=s3cret&bogus=1")
    assert "s3cret" not in str(info.value)


@pytest.mark.parametrize("url", [
    "qdrant://ann:s3cret@h:6333",                  # user info: refused, never shown
    "qdrant://ann:s3cret@h:port",
    "qdrant://h?api%5Fkey=s3cret&timeout=soon",     # the key's name %-escaped
    "qdrant://h?API_KEY=s3cret",                    # the key's name in capitals
    "qdrant+local:///tmp/q?api_key=s3cret",
    "qdrant:h?api_key=s3cret",
    "qdrant://h?api_key=s3c#ret",                   # an unescaped '#' in the key
    "postgresql://ann:s3cret@db/chat",              # a store URL given as the index
    "http://h:6333?api_key=s3cret",                 # the scheme forgotten
    "QDRANT://h?api_key=s3cret",
])
async def test_url_errors_never_show_credentials(url: str) -> None:
    with pytest.raises(ConfigError) as info:
        await open_vector_index(url)
    assert "s3c" not in str(info.value) and "#ret" not in str(info.value)  # nor a part
    assert "vector URL" in str(info.value)


async def test_open_vector_index_dispatches_qdrant_urls() -> None:
    idx = await open_vector_index("qdrant+local://:memory:", None)
    try:
        assert isinstance(idx, QdrantIndex)
        assert idx.supports_delete_by_filter
    finally:
        await idx.close()


async def test_unreachable_server_is_a_store_error_at_open() -> None:
    # port 1 on the loopback: refused at once, nothing leaves the machine
    with pytest.raises(StoreError, match=r"qdrant \(http://127\.0\.0\.1:1\)"):
        await QdrantIndex.open("qdrant://127.0.0.1:1?timeout=2")


@contextlib.contextmanager
def misbehaving_server(answer: str) -> Iterator[str]:
    """A server on 127.0.0.1 that is not a working Qdrant; ``answer``: ``echo`` (a 500
    whose body repeats the API key, as some proxies do), ``401`` (the key refused, echoed
    too), ``garbage`` (not JSON) or ``hang`` (no answer). Yields its address."""
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            pass

        def do_GET(self) -> None:
            key = str(self.headers.get("api-key"))
            if answer == "hang":
                time.sleep(3)
                return
            status, body = {"echo": (500, json.dumps({"status": {"error": f"bad {key}"}})),
                            "401": (401, f"Unauthorized: {key}"),
                            "garbage": (200, "<html>a web server</html>")}[answer]
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.end_headers()
            self.wfile.write(body.encode())

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.mark.parametrize("answer, fix", [
    ("echo", "Internal Server Error"),
    ("401", "refused the request (HTTP 401): check the api_key=… option"),
    ("garbage", "the answer is not Qdrant's"),
    ("hang", "no answer within 1 s"),
])
async def test_a_misbehaving_server_is_a_store_error_without_the_key(answer: str, fix: str
                                                                      ) -> None:
    key = "-".join(["s3cret", "key"])  # not in this source, which a traceback quotes
    with misbehaving_server(answer) as address, warnings.catch_warnings():
        warnings.simplefilter("ignore")  # qdrant-client: an API key over plain http
        with pytest.raises(StoreError) as info:
            await QdrantIndex.open(f"qdrant://{address}?api_key={key}&timeout=1")
    shown = "".join(traceback.format_exception(info.value))  # what a logged error prints
    assert key not in shown
    assert f"qdrant (http://{address})" in str(info.value)
    assert fix in str(info.value)


async def test_an_unreachable_server_names_the_fix() -> None:
    with pytest.raises(StoreError) as info:
        await QdrantIndex.open("qdrant://127.0.0.1:1?timeout=2")
    assert "cannot reach a Qdrant server at http://127.0.0.1:1" in str(info.value)
    assert "host, port and https= option" in str(info.value)


async def test_a_local_folder_that_is_a_file_or_anothers_is_refused_unchanged(
        tmp_path: Path) -> None:
    store = tmp_path / "chat.db"
    store.write_bytes(b"SQLite format 3\x00 user data")
    with pytest.raises(StoreError, match="is a file, not a folder"):
        await QdrantIndex.open(f"qdrant+local://{store}")
    assert store.read_bytes() == b"SQLite format 3\x00 user data"
    project = tmp_path / "project"
    project.mkdir()
    (project / "meta.json").write_text('{"name": "my project"}')
    with pytest.raises(StoreError, match="not a Qdrant local-mode folder") as info:
        await QdrantIndex.open(f"qdrant+local://{project}")
    assert "name a new or empty folder" in str(info.value)
    assert os.listdir(project) == ["meta.json"]
    assert (project / "meta.json").read_text() == '{"name": "my project"}'
    # a folder of the user's files (a home folder, /): local mode would write its
    # meta.json, .lock and collection/ among them
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    with pytest.raises(StoreError, match='holds files that are not Qdrant.s ."notes.txt"'):
        await QdrantIndex.open(f"qdrant+local://{home}")
    assert os.listdir(home) == ["notes.txt"]

def _files(root: Path) -> list[str]:
    return sorted(str(p.relative_to(root)) for p in root.rglob("*"))


async def test_open_with_create_false_makes_no_local_folder_and_writes_none(
        tmp_path: Path) -> None:
    """Memory.open(..., vector="qdrant+local:///some/missing/folder", create=False) made
    the folder (Qdrant's local mode makes its folder), and an empty folder got local
    mode's meta.json and .lock: an empty index where only an existing one was asked
    for (the CLI's commands that only read refused a missing one since 15932dd, the
    library did not). Refused now, a StoreError naming vector and the fix, nothing made
    or written (the store not opened either); create=True still makes it."""
    db = f"sqlite:///{tmp_path}/chat.db"
    config = {"semantic_recall": False}
    memory = await Memory.open(db, config=config)
    await memory.close()
    empty = tmp_path / "empty"
    empty.mkdir()
    before = _files(tmp_path)
    for folder, why in ((tmp_path / "vectors", "no such folder"),
                        (tmp_path / "missing" / "deeper", "no such folder"),
                        (empty, "an empty folder")):
        vector = f"qdrant+local://{folder}"
        with pytest.raises(StoreError) as info:
            await Memory.open(db, vector=vector, config=config, create=False)
        assert str(info.value) == (
            f'vector "{vector}": no vector index at "{folder}" ({why}): check the path, '
            "or create the index first (create=True); nothing was created")
        assert _files(tmp_path) == before
    vector = f"qdrant+local://{tmp_path}/vectors"
    memory = await Memory.open(db, vector=vector, config=config)  # create=True makes it
    await memory.close()
    memory = await Memory.open(db, vector=vector, config=config, create=False)
    await memory.close()


async def test_a_local_folder_has_one_user_at_a_time(tmp_path: Path) -> None:
    url = f"qdrant+local://{tmp_path}/q"
    first = await QdrantIndex.open(url)
    try:
        with pytest.raises(StoreError, match="open in another process"):
            await QdrantIndex.open(url)
    finally:
        await first.close()
    again = await QdrantIndex.open(url)  # released on close
    await again.close()


# --------------------------------------------------------------------------- layout


def test_collection_names_are_safe_and_distinct() -> None:
    names = {collection_name(m, d) for m in (None, "legacy", "local:all-MiniLM-L6-v2",
                                            "LOCAL:all-minilm-l6-v2", "a/b c", "模型")
             for d in (384, 768)}
    assert len(names) == 12
    assert collection_name("local:all-MiniLM-L6-v2", 384).startswith(
        "chatmem_local-all-minilm-l6-v2_384_")
    assert collection_name(None, 384).startswith("chatmem_legacy_384_")
    for n in names:
        assert n.replace("_", "").replace("-", "").isalnum() and n.isascii() and len(n) < 100


async def test_points_payload_and_payload_indexes(index: QdrantIndex,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    client = index._client
    made: list[tuple[str, str, str]] = []
    create_index = client.create_payload_index

    async def spy(name: str, key: str, **kwargs: Any) -> Any:
        made.append((name, key, kwargs["field_schema"].value))
        return await create_index(name, key, **kwargs)

    monkeypatch.setattr(client, "create_payload_index", spy)
    e = entry("m1", [1, 0], platform="slack", origin_platform="slack", speaker_id="u1",
              mentions=("u2",), resource_id="r1", session_metadata={"team": {"id": 7}},
              message_metadata={"tags": ["a"]}, text="Ann: hello")
    await index.upsert([e])
    await index.upsert([e])  # indexes are made once per collection and process
    name = collection_name("m:a", 2)
    info = await client.get_collection(name)
    assert info.config.params.vectors.size == 2  # type: ignore[union-attr]
    assert info.config.params.vectors.distance.value == "Cosine"  # type: ignore[union-attr]
    # local mode ignores payload indexes; a server builds them from these calls
    assert made == [(name, key, schema) for key, schema in PAYLOAD_INDEXES]
    assert ("ts", "integer") in PAYLOAD_INDEXES
    assert {k for k, s in PAYLOAD_INDEXES if s == "keyword"} == {
        "session_id", "resource_id", "platform", "origin_platform", "role", "model_id"}
    (rec,) = await client.retrieve(name, ids=[point_id("m1")], with_payload=True)
    assert str(rec.id) == str(uuid.uuid5(POINT_NAMESPACE, "m1"))
    assert rec.payload == entry_payload(e) == {
        "message_id": "m1", "session_id": "s1", "ts": T0, "role": "user", "model_id": "m:a",
        "platform": "slack", "origin_platform": "slack", "speaker_id": "u1",
        "mentions": ["u2"], "resource_id": "r1", "text": "Ann: hello",
        "meta": {"team": {"id": 7}}, "message": {"tags": ["a"]},
    }


# --------------------------------------------------------------------------- round trips


async def test_query_is_cosine_nearest_first(index: QdrantIndex) -> None:
    await index.upsert([entry("a", [1, 0, 0]), entry("b", [1, 1, 0], role="assistant",
                                                      ts=T0 + 5, session="s2"),
                        entry("c", [0, 0, 1], model=None, role=None)])
    hits = await index.query(unit(1, 0.1, 0), 3)
    assert [h.message_id for h in hits] == ["a", "b", "c"]
    assert hits[0].score == pytest.approx(float(unit(1, 0.1, 0) @ unit(1, 0, 0)), abs=1e-6)
    assert hits[2].score == pytest.approx(0.0, abs=1e-6)
    b = hits[1]
    assert (b.session_id, b.ts, b.role, b.model_id) == ("s2", T0 + 5, "assistant", "m:a")
    assert (hits[2].model_id, hits[2].role) == (None, None)
    assert await index.query(unit(1, 0, 0), 0) == []
    assert await index.query(unit(1, 0, 0, 0), 5) == []  # no vectors of that size
    assert [h.message_id for h in await index.query(unit(1, 0, 0), 1)] == ["a"]


async def test_upsert_replaces_by_message_id(index: QdrantIndex) -> None:
    await index.upsert([entry("a", [1, 0]), entry("b", [0, 1])])
    await index.upsert([entry("a", [1, 0]), entry("b", [0, 1])])  # a replay
    await index.upsert([entry("a", [0, 1], session="s9"), entry("a", [-1, 1])])  # last wins
    assert await index.count_by_model() == {"m:a": 2}
    hits = await index.query(unit(-1, 1), 5)
    assert [h.message_id for h in hits] == ["a", "b"]
    assert hits[0].score == pytest.approx(1.0, abs=1e-6)
    assert hits[0].session_id == "s1"


async def test_a_message_that_moves_model_or_size_leaves_its_old_collection(
        index: QdrantIndex) -> None:
    await index.upsert([entry("a", [1, 0]), entry("b", [0, 1])])
    await index.upsert([entry("a", [1, 0, 0], model="m:b")])  # re-embedded by a new model
    assert await index.count_by_model() == {"m:a": 1, "m:b": 1}
    assert [h.message_id for h in await index.query(unit(1, 0), 5)] == ["b"]
    assert [h.message_id for h in await index.query(unit(1, 0, 0), 5)] == ["a"]
    await index.upsert([entry("a", [1, 0], model=None)])
    assert await index.count_by_model() == {"m:a": 1, "": 1}
    assert [h.model_id for h in await index.query(unit(1, 0), 5)] == [None, "m:a"]


async def test_ties_break_by_message_id_even_past_k(index: QdrantIndex) -> None:
    ids = [f"id{n:02d}" for n in range(30)]
    random.Random(3).shuffle(ids)
    await index.upsert([entry(mid, [1, 1]) for mid in ids])
    await index.upsert([entry("zz-best", [1, 1.5])])
    got = [h.message_id for h in await index.query(unit(1, 1.5), 4)]
    assert got == ["zz-best", "id00", "id01", "id02"]


async def test_more_ties_than_one_search_returns_are_gathered_by_ts_then_id(
        index: QdrantIndex) -> None:
    """Past max(4k, k + 1024) points (TIE_CAP) the ties were cut by the engine's order;
    now the newest ties first, then by message id, with no answer larger than that:
    1,100 ties at one instant (more than one search returns: their ids paged), two
    newer, 300 older over a year in ms, one better match; filtered too."""
    day = 86_400_000
    rng = random.Random(5)
    at_once = [(f"now-{i:04d}", T0) for i in range(1100)]
    newer = [("later-b", T0 + 5), ("later-a", T0 + 5)]
    older = [(f"old-{i:03d}", T0 - rng.randrange(1, 365 * day)) for i in range(300)]
    tied = at_once + newer + older
    rng.shuffle(tied)
    session = {mid: "s1" if n % 2 else "s2" for n, (mid, _) in enumerate(tied)}
    await index.upsert([entry(mid, [1, 1], ts=ts, session=session[mid]) for mid, ts in tied]
                       + [entry("best", [1, 1.5], ts=T0 - 10 * day)])
    order = [mid for mid, _ in sorted(tied, key=lambda t: (-t[1], t[0]))]
    sizes: list[int] = []
    search = index._client.query_points

    async def counted(*args: Any, **kwargs: Any) -> Any:
        sizes.append(kwargs["limit"])
        return await search(*args, **kwargs)

    index._client.query_points = counted  # type: ignore[method-assign]
    for k in (3, 5, 40, 1200):
        for where in (None, {"session_id": "s1"}):
            want = [mid for mid in order if where is None or session[mid] == "s1"]
            sizes.clear()
            got = [h.message_id for h in await index.query(unit(1, 1.5), k, where)]
            assert got == ["best", *want][:k], (k, where)
            assert max(sizes) <= max(4 * k, k + 1024) and len(sizes) <= 30, (k, sizes)
    # the year of older ties alone, in ms: found by their times, newest first
    await index.delete_vectors([mid for mid, _ in at_once + newer])
    olds = [mid for mid in order if mid.startswith("old-")]
    await index.upsert([entry(f"pad-{i:04d}", [1, 1], ts=T0 - 400 * day) for i in range(800)])
    sizes.clear()
    assert [h.message_id for h in await index.query(unit(1, 1.5), 6)] == ["best", *olds[:5]]
    assert max(sizes) <= 6 + 1024 and len(sizes) <= 30, sizes


async def test_models_of_the_same_size_share_the_pool(index: QdrantIndex) -> None:
    await index.upsert([
        entry("a1", [1, 0, 0, 0], model="m:a"), entry("b1", [1, 0.1, 0, 0], model="m:b"),
        entry("l1", [1, 0.2, 0, 0], model=None, role=None),
        entry("c1", [1, 0, 0, 0, 0, 0, 0, 0], model="m:c"),
    ])
    hits = await index.query(unit(1, 0, 0, 0), 10)
    assert [(h.message_id, h.model_id) for h in hits] == [
        ("a1", "m:a"), ("b1", "m:b"), ("l1", None)]
    assert [h.message_id for h in await index.query(unit(1, 0, 0, 0, 0, 0, 0, 0), 10)] == ["c1"]
    hits = await index.query(unit(1, 0, 0, 0), 10, {"model_id": "m:b"})
    assert [h.message_id for h in hits] == ["b1"]
    assert await index.count_by_model() == {"m:a": 1, "m:b": 1, "": 1, "m:c": 1}
    names = {c.name for c in (await index._client.get_collections()).collections}
    assert len(names) == 4


async def test_filter_applies_before_top_k(index: QdrantIndex) -> None:
    near = [entry(f"n{i}", [1, 0.01 * i]) for i in range(40)]
    far = [entry(f"f{i}", [0.1 * (i + 1), 1], session="s2") for i in range(3)]
    await index.upsert(near + far)
    hits = await index.query(unit(1, 0), 3, {"session_id": "s2"})
    assert [h.message_id for h in hits] == ["f2", "f1", "f0"]
    hits = await index.query(unit(1, 0), 3, {"session_id": {"$in": ["s2", "nope"]},
                                             "ts": {"$gte": T0}})
    assert len(hits) == 3


META_ENTRIES = [
    entry("p1", [1, 0], platform="slack", speaker_id="u1", resource_id="r1",
          session_metadata={"team": "red", "level": 3, "flags": {"vip": True}},
          message_metadata={"pinned": True, "n": 1}),
    entry("p2", [1, 0.1], platform="discord", role="assistant", ts=T0 + 10,
          session_metadata={"team": "blue", "level": 5}, message_metadata={"n": 2.5}),
    entry("p3", [1, 0.2], platform=None, role=None, model=None, session="s2", ts=T0 + 20,
          session_metadata={"team": "red", "level": None, "tags": ["x", "y"]}),
    entry("p4", [1, 0.3], platform="slack", session="s2", ts=T0 + 30,
          session_metadata={"team": "s1' OR '1'='1"}, message_metadata={"q": "\")||true"}),
]


@pytest.mark.parametrize("where, expected", [
    ({"meta.team": "red"}, {"p1", "p3"}),
    ({"meta.level": {"$gte": 4}}, {"p2"}),
    ({"meta.level": None}, {"p3"}),
    ({"meta.level": {"$exists": False}}, {"p4"}),
    ({"meta.flags.vip": True}, {"p1"}),
    ({"meta.tags": "x"}, set()),  # arrays are not searched element-wise
    ({"message.pinned": {"$ne": True}}, {"p2", "p3", "p4"}),
    ({"message.n": {"$in": [1, 2.5]}}, {"p1", "p2"}),
    ({"platform": None}, {"p3"}),
    ({"role": None}, {"p3"}),
    ({"model_id": {"$ne": "m:a"}}, {"p3"}),
    ({"$or": [{"platform": "discord"}, {"ts": {"$gt": T0 + 25}}]}, {"p2", "p4"}),
    ({"session_id": "s2", "platform": {"$nin": ["slack"]}}, {"p3"}),
    ({"speaker_id": "u1", "resource_id": "r1"}, {"p1"}),
    ({"message_id": {"$in": ["p2", "p4"]}}, {"p2", "p4"}),
    ({"ts": {"$gte": T0 + 10, "$lt": T0 + 30}}, {"p2", "p3"}),
    # injection attempts are plain data: they match only the literal value
    ({"session_id": "s1' OR '1'='1"}, set()),
    ({"meta.team": "s1' OR '1'='1"}, {"p4"}),
    ({"message.q": "\")||true"}, {"p4"}),
    ({"meta.team": "{\"$ne\": null}"}, set()),
])
async def test_filters_are_pushed_down(index: QdrantIndex, where: dict[str, Any],
                                       expected: set[str]) -> None:
    await index.upsert(META_ENTRIES)
    hits = await index.query(unit(1, 0), 10, where)
    assert {h.message_id for h in hits} == expected
    assert {h.message_id for h in hits} == reference_ids(META_ENTRIES, where)


@pytest.mark.parametrize("where, message", [
    ({"speaker_name": "Ann"}, "not a vector field"),
    ({"meta": {"$exists": True}}, "not a vector field"),
    ({"meta.x') OR 1=1 --": 1}, "invalid field name"),
    ({"meta.team": {"$regex": ".*"}}, "unknown operator"),
    ({"ts": {"$gt": "yesterday"}}, "expects a number"),
])
async def test_bad_filters_are_rejected_naming_the_part(index: QdrantIndex,
                                                        where: dict[str, Any], message: str
                                                        ) -> None:
    await index.upsert(META_ENTRIES)
    with pytest.raises(FilterError, match=message):
        await index.query(unit(1, 0), 10, where)
    with pytest.raises(FilterError, match=message):
        await index.delete_by_filter(where)
    assert sum((await index.count_by_model()).values()) == 4


async def test_delete_vectors_and_delete_by_filter(index: QdrantIndex) -> None:
    await index.upsert([*META_ENTRIES, entry("x", [1, 0, 0], model="m:b")])
    assert await index.delete_vectors(["p1", "x", "nope", "p1"]) == 2
    assert await index.delete_vectors([]) == 0
    assert await index.delete_by_filter({"meta.team": "red"}) == 1  # p3 (p1 is gone)
    assert await index.delete_by_filter({"meta.team": "green"}) == 0
    assert {h.message_id for h in await index.query(unit(1, 0), 10)} == {"p2", "p4"}
    assert await index.delete_by_filter({}) == 2
    assert await index.count_by_model() == {}


async def test_clear_one_session_then_everything(index: QdrantIndex) -> None:
    await index.upsert([*META_ENTRIES, entry("x", [1, 0, 0], model="m:b", session="s2")])
    assert await index.clear_vectors("s2") == 3
    assert await index.clear_vectors("s2") == 0
    assert {h.message_id for h in await index.query(unit(1, 0), 10)} == {"p1", "p2"}
    assert await index.clear_vectors() == 2
    assert await index.count_by_model() == {}
    assert (await index._client.get_collections()).collections == []
    await index.upsert([entry("again", [1, 0])])  # collections come back on demand
    assert [h.message_id for h in await index.query(unit(1, 0), 10)] == ["again"]


async def test_a_collection_dropped_elsewhere_is_made_again(index: QdrantIndex) -> None:
    await index.upsert([entry("a", [1, 0])])
    await index._client.delete_collection(collection_name("m:a", 2))  # another process
    assert await index.query(unit(1, 0), 5) == []
    await index.upsert([entry("b", [1, 0])])
    assert [h.message_id for h in await index.query(unit(1, 0), 5)] == ["b"]


def _made_again(size: int) -> Any:
    """What another process (a script, a Qdrant console) does to chatmem's collection: drop
    it and make one of the same name holding vectors of another ``size``."""
    from qdrant_client import models as m

    async def make(index: QdrantIndex, name: str) -> None:
        await index._client.delete_collection(name)
        await index._client.create_collection(
            name, vectors_config=m.VectorParams(size=size, distance=m.Distance.COSINE))
    return make


MADE_AGAIN = ("collection {name} holds vectors of 8 numbers, not the 2 its name says: it "
              "was made again outside chatmem; {what}. Run chatmem clear --target vector, "
              "then chatmem reindex")


async def test_a_collection_made_again_with_another_size_is_named_not_written(
        tmp_path: Path) -> None:
    """This process looked at a collection's size once: made again with another size
    after that (or before this process first used it), a write was refused in Qdrant's
    words ('Wrong input: Vector dimension error: expected dim: 8, got 2') and a search in
    NumPy's, local mode ('shapes (0,8) and (2,) not aligned'). Nothing of another size is
    ever stored; each now says what happened and the fix."""
    name = collection_name("m:a", 2)
    folder = f"qdrant+local://{tmp_path}/q"
    index = await QdrantIndex.open(folder)
    try:
        await index.upsert([entry("a", [1, 0])], one_width=OneWidth())
        await _made_again(8)(index, name)  # after this process checked it
        for call, what in ((index.upsert([entry("b", [1, 0])], one_width=OneWidth()),
                            "nothing was written to it"),
                           (index.query(unit(1, 0), 5), "it was not searched")):
            with pytest.raises(StoreError) as info:
                await call
            assert MADE_AGAIN.format(name=name, what=what) in str(info.value)
        assert (await index._client.count(name)).count == 0
    finally:
        await index.close()
    index = await QdrantIndex.open(folder)  # a process that never looked at it
    try:
        with pytest.raises(StoreError) as info:
            await index.upsert([entry("c", [0, 1])], one_width=OneWidth())
        assert MADE_AGAIN.format(name=name, what="nothing was written to it") \
            in str(info.value)
        # the fix it names: a clear drops it, and the next write makes it again
        assert await index.clear_vectors() == 0
        await index.upsert([entry("c", [0, 1])], one_width=OneWidth())
        assert [h.message_id for h in await index.query(unit(0, 1), 5)] == ["c"]
    finally:
        await index.close()


@pytest.mark.parametrize("made", ["size", "multivectors", "values"])
async def test_points_of_chatmems_payload_with_other_vectors_are_named_not_scored(
        index: QdrantIndex, made: str, caplog: pytest.LogCaptureFixture) -> None:
    """A collection made again outside chatmem under chatmem's name, holding points that
    carry chatmem's payload but vectors of another size or layout (or a vector whose
    values were changed in Qdrant's storage): the search of given ids (recall measuring
    its candidates) scored them in NumPy's words ('matmul: Input operand 1 has a
    mismatch in its core dimension 0 … (size 8 is different from 2)'), and an export
    read them as entries of another size. Each now says what happened, naming the
    collection and the fix (chatmem clear --target vector, then chatmem reindex), as a
    collection made again with another size does; and the fix mends it. One point whose
    values are not finite numbers is left out of the search of given ids (a recall then
    answers from the others, as a search does since b50b56c) with that warning, and an
    export still refuses it."""
    from qdrant_client import models as m

    name = collection_name("m:a", 2)
    await index.upsert([entry("a", [1, 0]), entry("b", [0, 1])])
    held = {"size": "vectors of 8 numbers, not the 2 its name says: it was made again "
                    "outside chatmem",
            "multivectors": "multivectors (not chatmem's layout), not the 2 its name says: "
                            "it was made again outside chatmem",
            "values": "a point of message \"a\" whose vector holds a value that is not a "
                      "finite number (its name says 2 finite numbers): it was written "
                      "outside chatmem"}[made]
    if made == "values":  # a value changed where local mode keeps the vectors
        stored = index._client._client.collections[name]
        stored.vectors[""][stored.ids[point_id("a")]][0] = np.nan
    else:
        config = m.VectorParams(size=8, distance=m.Distance.COSINE) if made == "size" \
            else m.VectorParams(size=2, distance=m.Distance.COSINE,
                                multivector_config=m.MultiVectorConfig(
                                    comparator=m.MultiVectorComparator.MAX_SIM))
        vector: Any = [1.0] * 8 if made == "size" else [[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]
        await index._client.delete_collection(name)
        await index._client.create_collection(name, vectors_config=config)
        await index._client.upsert(name, points=[
            m.PointStruct(id=point_id("a"), vector=vector,
                          payload=entry_payload(entry("a", [1, 0])))])
    fix = ("; {what}. Run chatmem clear --target vector, then chatmem reindex: they drop "
           "chatmem's collections and embed the messages again")
    calls: list[tuple[Any, str]] = [
        (lambda: index.query(unit(1, 0), 5, {"message_id": {"$in": ["a", "b"]}}),
         "it was not searched"), (lambda: index.scan_vectors(None, 10), "it was not read")]
    if made == "values":
        # one point changed, not a collection of another layout: the search of given
        # ids leaves it out as a search leaves it out (and says so), and answers
        with caplog.at_level(logging.WARNING, logger="chatmem.store.qdrant"):
            hits = await index.query(unit(1, 0), 5, {"message_id": {"$in": ["a", "b"]}})
        assert [h.message_id for h in hits] == ["b"]
        assert [r.getMessage().split(": ", 1)[1] for r in caplog.records] == [
            f"collection {name} holds a point of message \"a\" whose vector holds a value "
            "that is not a finite number: it was written outside chatmem; it was left out "
            "of the search. Run chatmem clear --target vector, then chatmem reindex: they "
            "drop chatmem's collections and embed the messages again"]
        calls = calls[1:]
    for call, what in calls:
        with pytest.raises(StoreError) as info:
            await call()
        said = str(info.value)
        assert f"collection {name} holds {held}{fix.format(what=what)}" in said, said
    # the fix it names: a clear drops the collection, and vectors written again are read
    assert await index.clear_vectors() == (1 if made != "values" else 2)
    await index.upsert([entry("a", [1, 0])])
    hits = await index.query(unit(1, 0), 5, {"message_id": {"$in": ["a"]}})
    assert [h.message_id for h in hits] == ["a"]
    assert [e.message_id for e in await index.scan_vectors(None, 10)] == ["a"]


async def test_a_search_leaves_out_a_point_whose_vector_is_not_finite_and_says_so(
        index: QdrantIndex, caplog: pytest.LogCaptureFixture) -> None:
    """A stored vector holding NaN (local mode's arrays edited; written outside chatmem)
    scores NaN, which local mode ranks first: a recall's search (not of given ids,
    which names it: test_points_of_chatmems_payload_with_other_vectors_are_named_not_scored)
    took that NaN for its k-th score, against which every comparison is false, so it
    answered nothing for k=1 and one hit short for k=2 or 3, in silence. Now the point is
    left out with a WARNING naming the collection, the message and the fix (once a
    minute per point, DEBUG lines between), and the search answers from the others."""
    import logging

    name = collection_name("m:a", 2)
    await index.upsert([entry("a", [1, 0]), entry("b", [0, 1]), entry("c", [1, 1]),
                        entry("d", [1, 0.2])])
    stored = index._client._client.collections[name]
    stored.vectors[""][stored.ids[point_id("a")]][0] = np.nan
    with caplog.at_level(logging.DEBUG, logger="chatmem.store.qdrant"):
        for k in (1, 2, 3, 10):
            hits = await index.query(unit(1, 0), k)
            assert [h.message_id for h in hits] == ["d", "c", "b"][:k], (k, hits)
            assert all(math.isfinite(h.score) for h in hits)
        hits = await index.query(unit(1, 0), 2, {"session_id": "s1"})
        assert [h.message_id for h in hits] == ["d", "c"]
    said = [r for r in caplog.records if "left out of the search" in r.getMessage()]
    assert [r.levelno for r in said] == [logging.WARNING] + [logging.DEBUG] * (len(said) - 1)
    assert f'collection {name} holds a point of message "a" whose vector holds a value ' \
           "that is not a finite number (it scores nan): it was written outside chatmem; it " \
           "was left out of the search. Run chatmem clear --target vector, then chatmem " \
           "reindex" in said[0].getMessage(), said[0].getMessage()
    # the fix it names mends it
    await index.clear_vectors()
    await index.upsert([entry("a", [1, 0]), entry("d", [1, 0.2])])
    assert [h.message_id for h in await index.query(unit(1, 0), 1)] == ["a"]


async def test_a_memory_names_a_collection_made_again_and_its_fix_mends_it(
        tmp_path: Path) -> None:
    """Through Memory: the recall fails with the clear error (not with hits missing in
    silence), and chatmem clear --target vector then reindex, the fix it names, mend it."""
    mem = await Memory.open(f"sqlite:///{tmp_path}/x.db", vector=f"qdrant+local://{tmp_path}/q",
                            embedder=Embedder(RecordingProvider()))
    try:
        await mem.add([{"session_id": "s1", "content": "my cat is called pixel"}])
        await mem.flush(timeout=30)
        assert isinstance(mem.index, QdrantIndex)
        [name] = (await mem.index._refresh())
        size = int(name.split("_")[-2])
        await _made_again(size + 1)(mem.index, name)
        with pytest.raises(StoreError, match="made again outside chatmem; it was not "
                                             "searched. Run chatmem clear --target vector"):
            await mem.recall("what is my cat called", window=0)
        await mem.clear("vector")
        await mem.reindex()
        await mem.flush(timeout=30)
        hits = (await mem.recall("what is my cat called", window=0)).hits
        assert [h.message.content for h in hits] == ["my cat is called pixel"]
    finally:
        await mem.close()


async def test_a_recall_answers_past_a_point_whose_vector_is_not_finite(
        tmp_path: Path) -> None:
    """Through Memory: a point whose stored values are not finite numbers (Qdrant's
    storage edited) failed every recall whose words matched its message (the full-text
    candidate is measured by id, which raised), while a recall of other words answered.
    Now both answer, the point's message found by its words alone."""
    mem = await Memory.open(f"sqlite:///{tmp_path}/x.db", vector=f"qdrant+local://{tmp_path}/q",
                            embedder=Embedder(RecordingProvider()))
    try:
        await mem.add([{"session_id": "s1", "content": "my cat is called pixel"},
                       {"session_id": "s1", "content": "the dog sleeps all day"}])
        await mem.flush(timeout=30)
        assert isinstance(mem.index, QdrantIndex)
        [name] = (await mem.index._refresh())
        [cat] = [m for m in (await mem.list()).messages if "cat" in (m.content or "")]
        assert cat.id is not None
        stored = mem.index._client._client.collections[name]
        stored.vectors[""][stored.ids[point_id(cat.id)]][0] = np.nan
        hits = (await mem.recall("what is my cat called", window=0)).hits
        assert "my cat is called pixel" in [h.message.content for h in hits]
        assert all(math.isfinite(h.score) for h in hits)
    finally:
        await mem.close()


async def test_a_collection_dropped_during_a_query_has_no_hits(
        index: QdrantIndex, monkeypatch: pytest.MonkeyPatch) -> None:
    await index.upsert([entry("a", [1, 0]), entry("b", [1, 0.1], model="m:b")])
    search = index._client.query_points

    async def racing(name: str, **kwargs: Any) -> Any:
        if name == collection_name("m:a", 2):  # another process clears it meanwhile
            await index._client.delete_collection(name)
        return await search(name, **kwargs)

    monkeypatch.setattr(index._client, "query_points", racing)
    assert [h.message_id for h in await index.query(unit(1, 0), 5)] == ["b"]

async def test_scan_vectors_pages_in_message_id_order(index: QdrantIndex) -> None:
    entries = [entry(f"m{n:03d}", [1, n % 7, n % 3], model=["m:a", "m:b", None][n % 3],
                     session_metadata={"n": n}, mentions=("u1",), text=f"t{n}")
               for n in range(25)]
    entries.append(entry("big", [1, 2, 3, 4], model="m:c", role=None))
    await index.upsert(entries)
    got: list[VectorEntry] = []
    after = None
    while page := await index.scan_vectors(after, 7):
        got += page
        after = page[-1].message_id
        if len(got) == 14:  # a write between pages is seen by the next page
            assert after == "m012"
            await index.upsert([entry("m0125", [1, 1, 1])])
    ids = [g.message_id for g in got]
    assert ids == sorted([e.message_id for e in entries] + ["m0125"])
    by_id = {g.message_id: g for g in got}
    for e in entries:
        g = by_id[e.message_id]
        assert (g.session_id, g.ts, g.role, g.model_id, g.mentions, g.text) == (
            e.session_id, e.ts, e.role, e.model_id, e.mentions, e.text)
        assert dict(g.session_metadata) == dict(e.session_metadata)
        assert g.vector.dtype == np.float32
        np.testing.assert_allclose(g.vector, e.vector, atol=1e-6)
    assert await index.scan_vectors("zzz", 10) == []
    assert await index.scan_vectors(None, 0) == []
    assert [g.message_id for g in await index.scan_vectors("m020", 3)] == [
        "m021", "m022", "m023"]


async def test_bad_input_is_rejected_before_any_write(index: QdrantIndex) -> None:
    with pytest.raises(InvalidInput, match="NaN or infinity"):
        await index.upsert([entry("a", [1, 0]), VectorEntry("b", "s", 1, "user", "m:a",
                                                            np.array([np.nan, 1.0]))])
    with pytest.raises(InvalidInput, match="1-D"):
        await index.upsert([VectorEntry("b", "s", 1, "user", "m:a", np.ones((2, 2)))])
    with pytest.raises(InvalidInput, match="session_metadata is not JSON"):
        await index.upsert([entry("c", [1, 0], session_metadata={"when": object()})])
    with pytest.raises(InvalidInput, match="query vector"):
        await index.query(np.ones((2, 2), dtype=np.float32), 3)
    assert await index.count_by_model() == {}
    await index.upsert([])


async def test_driver_errors_become_store_errors(index: QdrantIndex,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    await index.upsert([entry("a", [1, 0])])

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("connection reset by peer")

    monkeypatch.setattr(index._client, "query_points", broken)
    with pytest.raises(StoreError, match="connection reset by peer") as info:
        await index.query(unit(1, 0), 3)
    assert isinstance(info.value.__cause__, RuntimeError)


async def test_closed_index_raises_store_closed() -> None:
    idx = await QdrantIndex.open("qdrant+local://:memory:")
    await idx.upsert([entry("a", [1, 0])])
    await idx.close()
    await idx.close()  # idempotent
    calls = [
        idx.upsert([entry("b", [1, 0])]), idx.delete_vectors(["a"]),
        idx.delete_by_filter({"session_id": "s1"}), idx.query(unit(1, 0), 3),
        idx.count_by_model(), idx.scan_vectors(None, 10), idx.clear_vectors(),
        idx.clear_vectors("s1"),
    ]
    for call in calls:
        with pytest.raises(StoreClosed):
            await call


async def test_vectors_persist_in_a_local_folder(tmp_path: Path) -> None:
    url = f"qdrant+local://{tmp_path}/q"
    idx = await QdrantIndex.open(url)
    await idx.upsert(META_ENTRIES)
    await idx.delete_vectors(["p4"])
    await idx.close()
    idx = await QdrantIndex.open(url)
    try:
        hits = await idx.query(unit(1, 0), 10, {"meta.team": "red"})
        assert [h.message_id for h in hits] == ["p1", "p3"]
        assert await idx.count_by_model() == {"m:a": 2, "": 1}
    finally:
        await idx.close()


# --------------------------------------------------------------------------- real engine


def reference_ids(entries: Sequence[VectorEntry], where: Mapping[str, Any]) -> set[str]:
    """What SQLite selects: the reference evaluator over the vector fields (plain columns
    always exist; NULL reads as null) and the two metadata objects."""
    out = set()
    for e in entries:
        doc: dict[str, Any] = {f: getattr(e, f) for f in VECTOR_FIELDS}
        doc["meta"] = dict(e.session_metadata)
        doc["message"] = dict(e.message_metadata)
        if evaluate(where, doc):
            out.add(e.message_id)
    return out


def _edge_module() -> Any:
    try:
        import qdrant_edge
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("qdrant-edge-py is missing in CI: it is in the test extra")
        pytest.skip("qdrant-edge-py is not installed: pip install '.[test]'")
    return qdrant_edge


def to_edge(node: Any, qe: Any) -> Any:
    """A qdrant-client filter as a qdrant-edge filter (the conditions compile_qdrant uses)."""
    from qdrant_client import models as m

    if isinstance(node, m.Filter):
        def items(xs: Any) -> Any:
            if xs is None:
                return None
            return [to_edge(x, qe) for x in (xs if isinstance(xs, list) else [xs])]

        return qe.Filter(must=items(node.must), should=items(node.should),
                         must_not=items(node.must_not))
    if isinstance(node, m.FieldCondition):
        match = rng = None
        if isinstance(node.match, m.MatchValue):
            value = node.match.value
            # qdrant-edge 0.9 reads a Python bool as the integer 0/1 (bool is an int);
            # numpy's bool is not an int, so it arrives as a JSON boolean
            match = qe.MatchValue(np.bool_(value) if isinstance(value, bool) else value)
        elif isinstance(node.match, m.MatchAny):  # integers past 2**53, listed exactly
            match = qe.MatchAny(list(node.match.any))
        else:
            assert node.match is None, node
        if node.range is not None:
            r = node.range
            rng = qe.RangeFloat(gte=r.gte, gt=r.gt, lte=r.lte, lt=r.lt)
        return qe.FieldCondition(node.key, match=match, range=rng)
    if isinstance(node, m.IsEmptyCondition):
        return qe.IsEmptyCondition(node.is_empty.key)
    if isinstance(node, m.IsNullCondition):
        return qe.IsNullCondition(node.is_null.key)
    raise TypeError(f"no qdrant-edge form for {node!r}")


def _random_entries(rng: random.Random, n: int) -> list[VectorEntry]:
    values: list[Any] = ["red", "blue", "", 0, 1, 2.5, -3, True, False, None, ["red"], [],
                         {"k": 1}]
    out = []
    for i in range(n):
        meta: dict[str, Any] = {}
        for key in ("team", "level", "deep"):
            if rng.random() < 0.7:
                meta[key] = rng.choice(values)
        if rng.random() < 0.3:
            meta["deep"] = {"x": rng.choice(values)}
        out.append(entry(
            f"r{i:03d}", [1, rng.random()], session=rng.choice(["s1", "s2", "s3"]),
            ts=T0 + rng.randrange(5), model=rng.choice(["m:a", None]),
            role=rng.choice(["user", "assistant", None]),
            platform=rng.choice(["slack", "discord", None]),
            session_metadata=meta,
            message_metadata={"n": rng.choice(values)} if rng.random() < 0.5 else {},
        ))
    return out


def _random_filter(rng: random.Random, depth: int = 0) -> dict[str, Any]:
    fields = ["session_id", "ts", "role", "model_id", "platform", "meta.team", "meta.level",
              "meta.deep", "meta.deep.x", "message.n", "meta.absent"]
    atoms: list[Any] = ["red", "blue", "", "s1", "slack", "user", "m:a", 0, 1, 2.5, -3,
                        True, False, T0 + 2]
    if depth < 2 and rng.random() < 0.3:
        op = rng.choice(["$and", "$or"])
        return {op: [_random_filter(rng, depth + 1) for _ in range(rng.randint(1, 3))]}
    f = rng.choice(fields)
    kind = rng.randrange(7)
    if kind == 0:
        return {f: rng.choice([*atoms, None])}
    if kind == 1:
        return {f: {"$ne": rng.choice([*atoms, None])}}
    if kind == 2:
        return {f: {rng.choice(["$gt", "$gte", "$lt", "$lte"]):
                    rng.choice([0, 1, 2.5, -3, T0 + 2])}}
    if kind == 3:
        return {f: {rng.choice(["$in", "$nin"]): rng.sample(atoms, rng.randint(1, 3))}}
    if kind == 4:
        return {f: {"$exists": rng.random() < 0.5}}
    return {f: rng.choice(atoms), rng.choice(fields): {"$ne": rng.choice(atoms)}}


def _has_empty_array(entries: Sequence[VectorEntry], where: Mapping[str, Any]) -> bool:
    return "$exists" in repr(where) and "[]" in repr([e.session_metadata for e in entries])


async def test_compiled_filters_select_the_same_in_qdrants_engine(tmp_path: Path) -> None:
    """The payloads and payload indexes QdrantIndex writes, filtered by Qdrant's own
    engine (qdrant-edge), select what local mode and the reference evaluator select."""
    qe = _edge_module()
    rng = random.Random(2024)
    entries = _random_entries(rng, 60) + META_ENTRIES
    shard = qe.EdgeShard.create(str(tmp_path / "edge"), qe.EdgeConfig(
        vectors=qe.EdgeVectorParams(size=2, distance=qe.Distance.Cosine)))
    try:
        schemas = {"keyword": qe.PayloadSchemaType.Keyword,
                   "integer": qe.PayloadSchemaType.Integer}
        for key, schema in PAYLOAD_INDEXES:
            shard.update(qe.UpdateOperation.create_field_index(key, schemas[schema]))
        shard.update(qe.UpdateOperation.upsert_points([
            qe.Point(point_id(e.message_id), e.vector.tolist(), entry_payload(e))
            for e in entries]))
        idx = await QdrantIndex.open("qdrant+local://:memory:")
        try:
            await idx.upsert(entries)
            filters = [_random_filter(rng) for _ in range(150)]
            filters += [{"meta.team": "red"}, {"meta.level": None}, {"platform": None},
                        {"role": {"$exists": False}}, {"meta.tags": {"$exists": True}}]
            checked = 0
            for where in filters:
                records, _ = shard.scroll(qe.ScrollRequest(
                    limit=1000, filter=to_edge(compile_qdrant(where), qe),
                    with_payload=["message_id"]))
                engine = {r.payload["message_id"] for r in records}
                local = {h.message_id for h in await idx.query(unit(1, 0.5), 1000, where)}
                assert engine == local, where
                if _has_empty_array(entries, where):
                    continue  # the known divergence: Qdrant cannot tell [] from missing
                assert engine == reference_ids(entries, where), where
                checked += 1
            assert checked > 100
        finally:
            await idx.close()
    finally:
        shard.close()


# --------------------------------------------------------------------------- end to end


async def test_memory_with_messages_in_sqlite_and_vectors_in_qdrant(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path}/x.db"
    vec = f"qdrant+local://{tmp_path}/q"
    mem = await Memory.open(db, vector=vec, embedder=Embedder(RecordingProvider()))
    try:
        assert isinstance(mem.index, QdrantIndex)
        await mem.add([
            Message(session_id="s1", content="the deadline for the report is friday",
                    ts=T0, speaker_id="u1", speaker_name="Ann"),
            Message(session_id="s1", content="my cat is called pixel", ts=T0 + 1000,
                    speaker_id="u1", speaker_name="Ann"),
            Message(session_id="s2", content="ramen downtown tonight", ts=T0 + 2000,
                    speaker_id="u2", speaker_name="Ben"),
            Message(session_id="s1", content="tool output", role="tool", ts=T0 + 3000),
        ])
        await mem.flush(timeout=30)
        st = await mem.stats()
        assert (st["indexed"], st["pending"], st["skipped"]) == (3, 0, 1)
        assert await mem.index.count_by_model() == {"test:bow": 3}
        r = await mem.recall("what is my cat called", window=0)
        assert r.hits[0].message.content == "my cat is called pixel"
        r = await mem.recall("ramen", scope="session", session="s1", window=0)
        assert all(h.message.session_id == "s1" for h in r.hits)
    finally:
        await mem.close()

    mem = await Memory.open(db, vector=vec, embedder=Embedder(RecordingProvider()))
    try:
        r = await mem.recall("when is the report deadline", window=0)
        assert r.hits[0].message.content == "the deadline for the report is friday"
        assert "pixel" in r.text or len(r.hits) == 3
        assert (await mem.stats())["pending"] == 0
    finally:
        await mem.close()


def test_a_store_records_its_index_without_credentials() -> None:
    from chatmem.store.storage import index_label

    assert index_label("qdrant://user:pw@db.example:6333/p?api_key=SECRET&exact=1") \
        == "qdrant://db.example:6333/p"
    assert index_label("qdrant+local:///srv/vectors") == "qdrant+local:///srv/vectors"


def test_a_store_paired_with_qdrant_is_never_opened_alone(tmp_path: Path) -> None:
    """Opened without its index, a store would take new vectors itself and recall would
    read its own instead of the index's: a split index. It refuses, naming the fix, and
    changes nothing, at every door; a copy of it (migrate, export) is not paired."""
    import asyncio
    import sqlite3

    from click.testing import CliRunner

    from chatmem import SyncMemory
    from chatmem.cli import main
    from chatmem.store import Storage

    db, vectors = tmp_path / "chat.db", f"qdrant+local://{tmp_path}/q"
    url = f"sqlite:///{db}"
    with SyncMemory.open(url, vector=vectors, embedder=Embedder(RecordingProvider())) as mem:
        mem.add([Message(session_id="s1", content="my sister lives in Lisbon"),
                 Message(session_id="s1", content="the dentist is on Friday")])
        mem.flush()

    def rows() -> tuple[int, ...]:
        with sqlite3.connect(db) as conn:
            return tuple(conn.execute(f"SELECT count(*) FROM {t}").fetchone()[0]
                         for t in ("messages", "vectors", "meta"))

    before = rows()
    for opening in (lambda: SyncMemory.open(url, embedder=Embedder(RecordingProvider())),
                    lambda: asyncio.run(Storage.open(url))):
        with pytest.raises(ConfigError) as err:
            opening()
        assert "separate index (qdrant+local://" in str(err.value)
        assert "--vector" in str(err.value)
    assert rows() == before

    runner = CliRunner()
    for args in (["recall", "sister"], ["add", "--session", "s1", "--no-wait", "Porto"],
                 ["list"], ["stats"], ["clear", "--target", "vector", "--yes"]):
        res = runner.invoke(main, [*args[:1], "--db", url, *args[1:]])
        assert res.exit_code == 2 and "separate index" in res.output, (args, res.output)
    assert rows() == before  # nothing was written by any of them
    res = runner.invoke(main, ["list", "--db", url, "--vector", vectors, "--json"])
    assert res.exit_code == 0 and "Lisbon" in res.output, res.output
    res = runner.invoke(main, ["stats", "--db", url, "--json"],
                        env={"CHATMEM_VECTOR": vectors})
    assert res.exit_code == 0 and '"indexed": 2' in res.output, res.output

    # a copy goes into a store of its own, which opens alone
    copy = f"sqlite:///{tmp_path / 'copy.db'}"
    res = runner.invoke(main, ["migrate", "--from", url, "--from-vector", vectors,
                               "--to", copy])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["stats", "--db", copy, "--json"])
    assert res.exit_code == 0 and '"messages": 2' in res.output, res.output


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
async def test_a_failed_block_leaves_the_store_without_the_index_it_opened_with(
        tmp_path: Path, backend: str) -> None:
    """A store opened with a separate index recorded it (and the id of its collections
    there) as it opened, so a failed command left it tied to that index, with no vector
    in it. The record is undone when the ``async with`` block (of a Memory or a
    Storage) fails before a vector was written, and kept once one was: the store's
    vectors are there. An open that fails leaves it as it was too."""
    from backends import PLACES
    from chatmem.store import Storage
    from chatmem.store.storage import VECTORS_NAMESPACE

    async with PLACES[backend](tmp_path) as place:
        url, vectors = place.url, f"qdrant+local://{tmp_path}/q"
        embedder = Embedder(RecordingProvider())
        async with await Memory.open(url, embedder=embedder) as mem:
            await mem.add([Message(session_id="s1", content="my sister lives in Lisbon")])
            await mem.flush()

        async def recorded() -> list[tuple[str, str]]:
            async with await Storage.open(url, vector=vectors) as storage:
                return sorted((k, v) for ns, k, v in await storage.store.meta_items()
                              if ns == VECTORS_NAMESPACE)

        async def meta() -> list[tuple[str, str, str]]:
            async with await Storage.open(url) as storage:  # refused once it records one
                return sorted(item for item in await storage.store.meta_items()
                              if item[0] == VECTORS_NAMESPACE)

        async def fail_in(opening: Any) -> None:
            with pytest.raises(RuntimeError, match="the command failed"):
                async with await opening():
                    raise RuntimeError("the command failed")

        before = await meta()
        for opening in (lambda: Memory.open(url, vector=vectors, embedder=embedder),
                        lambda: Storage.open(url, vector=vectors)):
            await fail_in(opening)
            assert await meta() == before
            async with await Memory.open(url, embedder=embedder) as mem:  # opens alone
                assert (await mem.list()).messages
            assert not (tmp_path / "q").exists()  # the folder its open made went too
        (tmp_path / "notes").write_text("mine\n")
        with pytest.raises(StoreError):  # an index that does not open
            await Memory.open(url, vector=f"qdrant+local://{tmp_path}/notes",
                              embedder=embedder)
        assert await meta() == before

        # a vector written: the record stays, the block having failed or not
        with pytest.raises(RuntimeError):
            async with await Memory.open(url, vector=vectors, embedder=embedder) as mem:
                await mem.add([Message(session_id="s1", content="the dentist is Friday")])
                await mem.flush()
                raise RuntimeError("the command failed")
        kept = await recorded()
        assert ("vectors", vectors) in kept
        with pytest.raises(ConfigError, match="separate index"):
            await Memory.open(url, embedder=embedder)
        await fail_in(lambda: Storage.open(url, vector=vectors))
        assert await recorded() == kept


async def test_stores_sharing_one_qdrant_never_see_each_others_vectors(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """Two stores (two namespaces of a server, say) with their vectors in one Qdrant:
    each has collections of its own, so neither's stats, recall, export or clear reach
    the other's points. A store that recorded its index before stores had owners keeps
    the shared names, where its vectors are, and says so in the log."""
    import io
    import sqlite3

    from chatmem.store.storage import OWNER_KEY, VECTORS_NAMESPACE
    from chatmem.transfer import export_jsonl

    vec = f"qdrant+local://{tmp_path}/q"

    async def opened(name: str) -> Memory:
        return await Memory.open(f"sqlite:///{tmp_path}/{name}.db", vector=vec,
                                 embedder=Embedder(RecordingProvider()))

    alice = await opened("alice")
    await alice.add([Message(session_id="s1", content="alice's pin is 1234", ts=T0)])
    await alice.flush(timeout=30)
    await alice.close()

    bob = await opened("bob")
    try:
        await bob.add([Message(session_id="s1", content="bob talks about the weather",
                               ts=T0)])
        await bob.flush(timeout=30)
        assert (await bob.stats())["vectors_by_model"] == {"test:bow": 1}
        hits = (await bob.recall("pin 1234", window=0, scope="all")).hits
        assert [h.message.content for h in hits] == ["bob talks about the weather"]
        out = io.StringIO()
        await export_jsonl(bob.storage, out, vectors=True)
        assert "1234" not in out.getvalue()
        assert (await bob.clear("vector"))["vectors"] == 1
    finally:
        await bob.close()

    alice = await opened("alice")
    try:
        assert (await alice.stats())["vectors_by_model"] == {"test:bow": 1}
        hits = (await alice.recall("pin 1234", window=0, scope="all")).hits
        assert [h.message.content for h in hits] == ["alice's pin is 1234"]
        owner = await alice.storage.store.meta_get(VECTORS_NAMESPACE, OWNER_KEY)
        assert owner and [n.startswith(f"chatmem-{owner}_")
                          for n in await alice.index._refresh()] == [True]
    finally:
        await alice.close()

    # a store paired before owners existed: no owner recorded, its points in the shared
    # names; it keeps reading them (nothing lost) and warns
    with sqlite3.connect(tmp_path / "alice.db") as conn:
        conn.execute("DELETE FROM meta WHERE namespace = ? AND key = ?",
                     (VECTORS_NAMESPACE, OWNER_KEY))
    old = await QdrantIndex.open(vec)
    try:
        await old.upsert([entry("legacy-1", unit(1, 0), session="s1")])
    finally:
        await old.close()
    alice = await opened("alice")
    try:
        assert await alice.storage.store.meta_get(VECTORS_NAMESPACE, OWNER_KEY) is None
        assert all(n.startswith("chatmem_") for n in await alice.index._refresh())
        assert "shared with every other store" in caplog.text
    finally:
        await alice.close()


async def test_a_malformed_owner_is_refused_before_anything_opens(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="owner id"):
        await QdrantIndex.open(f"qdrant+local://{tmp_path}/q", owner="../x")
    assert not (tmp_path / "q").exists()


async def test_an_index_refusing_writes_is_retried_with_a_pause_and_one_traceback(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """The index refuses every write for a while (here its collection cannot be made: a
    file stands where its folder goes). The pending messages are looked at again after
    a growing pause, with one traceback for the outage (one per batch was 119 in 5 s
    with a server down), and indexed once the index takes writes again."""
    import asyncio
    import logging

    from chatmem.store.storage import OWNER_KEY, VECTORS_NAMESPACE

    provider = RecordingProvider()
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", vector=f"qdrant+local://{tmp_path}/q",
                            embedder=Embedder(provider),
                            indexing={"retry_initial_s": 0.2, "retry_max_s": 1.0})
    try:
        owner = await mem.storage.store.meta_get(VECTORS_NAMESPACE, OWNER_KEY)
        blocker = tmp_path / "q" / "collection" / collection_name(
            provider.model_id, provider.dim, f"chatmem-{owner}")
        blocker.parent.mkdir(parents=True, exist_ok=True)
        blocker.write_text("not a folder")
        caplog.set_level(logging.DEBUG, logger="chatmem.indexing")
        await mem.add([Message(session_id="s1", content=f"fact {i}", ts=T0 + i)
                       for i in range(5)])
        await asyncio.sleep(3)
        st = await mem.stats()
        assert (st["indexed"], st["pending"]) == (0, 5)
        failures = [r for r in caplog.records if "indexing batch failed" in r.getMessage()]
        assert 2 <= len(failures) <= 8  # tried again, with pauses (0.2, 0.4, 0.8, 1 s…)
        assert len([r for r in failures if r.exc_info]) == 1
        blocker.unlink()

        async def all_indexed() -> bool:
            return (await mem.stats())["indexed"] == 5

        for _ in range(100):
            if await all_indexed():
                break
            await asyncio.sleep(0.1)
        assert await all_indexed()
    finally:
        await mem.close()


@pytest.mark.parametrize("vector", ["qdrant://h:6333?bogus=1", "qdrant://h:notaport",
                                    "ftp://h/x", "sqlite:///other.db"])
async def test_a_mistyped_vector_url_creates_no_store(tmp_path: Path, vector: str) -> None:
    with pytest.raises(ConfigError, match="vector URL"):
        await Memory.open(f"sqlite:///{tmp_path}/new.db", vector=vector,
                          embedder=Embedder(RecordingProvider()))
    assert list(tmp_path.iterdir()) == []


async def test_a_query_over_given_ids_reads_them_and_answers_as_a_search(
        index: QdrantIndex) -> None:
    """Recall measuring given candidates asks for ``message_id`` in a list: the points
    are read by id and scored here (local mode scanned every point in Python for the
    id filter), with the same answer as the filtered search: the same ids, cosines
    within float rounding, the rest of the filter applied as the reference reads it."""
    rng = random.Random(45)
    entries = _random_entries(rng, 60)
    await index.upsert(entries)
    for _ in range(40):
        ids = [*rng.sample([e.message_id for e in entries], rng.randint(1, 12)), "absent"]
        rest = _random_filter(rng) if rng.random() < 0.7 else {}
        if _has_empty_array(entries, rest):
            continue  # Qdrant's one known divergence ($exists on [])
        q = unit(1, rng.uniform(-1, 1))
        where = {"message_id": {"$in": ids}, **rest}
        got = await index.query(q, len(ids), where)
        searched = await index._search(
            collection_name("m:a", 2), q.tolist(), len(ids), _query_filter(where)) + \
            await index._search(collection_name(None, 2), q.tolist(), len(ids),
                                _query_filter(where))
        want = sorted(searched, key=lambda s: (-s.score, s.message_id))
        assert [s.message_id for s in got] == [s.message_id for s in want], where
        for g, w in zip(got, want, strict=True):
            assert g.score == pytest.approx(w.score, abs=1e-5)
            assert (g.model_id, g.role, g.session_id, g.ts) == (
                w.model_id, w.role, w.session_id, w.ts)
        by_id = {e.message_id: e for e in entries}
        assert {s.message_id for s in got} == {
            i for i in ids if i in by_id and evaluate(rest, filter_document(by_id[i]))}



@pytest.mark.parametrize("undo_first", [False, True])
async def test_an_undone_record_never_leaves_another_processs_vectors_unrecorded(
        tmp_path: Path, undo_first: bool) -> None:
    """PostgreSQL, two connections (two processes) to one store whose vectors go to one
    Qdrant: A's open recorded the index, A's command failed, and A undid the record
    (``Storage.unrecord``) after counting no vector in the index. B, which opened the
    store with the index meanwhile, wrote its vectors there between A's count and A's
    undo (or just after the undo), and the store was left without the record: opened
    alone, it took new vectors itself and recall read none of B's (a split index). Now
    B notes the index in the store before its first vector, A's undo (one transaction
    under the store's lock of the record) is made only while no such note names the
    index, and a B that writes after the undo records the index again."""
    import asyncio

    from backends import PLACES
    from chatmem.store import Storage
    from chatmem.store.postgres import PostgresStore
    from chatmem.store.storage import OWNER_KEY, VECTORS_KEY, VECTORS_NAMESPACE

    async def recorded(store: Any) -> set[str]:
        return {k for ns, k, _ in await store.meta_items()
                if ns == VECTORS_NAMESPACE and k in (VECTORS_KEY, OWNER_KEY)}

    async with PLACES["postgres"](tmp_path) as place:
        vectors = f"qdrant+local://{tmp_path}/q"
        a = await Storage.open(place.url, vector=vectors)
        b_store = await PostgresStore.open(place.url)
        try:
            assert await recorded(b_store) == {VECTORS_KEY, OWNER_KEY}
            assert a.index is not None
            # B: the store as another process opened it, with the same index
            b = Storage(b_store, a.index, record=a.record)
            await b_store.append([Message(session_id="s1", id="m1", ts=T0,
                                          content="my sister lives in Lisbon")])
            write = entry("m1", [1, 0], model="test:bow")
            if undo_first:
                assert await a.unrecord()
                assert await recorded(b_store) == set()
                await b.write_entries([write])
            else:
                counted, go = asyncio.Event(), asyncio.Event()
                count = a.index.count_by_model

                async def held() -> dict[str, int]:
                    n = await count()
                    counted.set()  # A found no vector: its undo is next
                    await go.wait()
                    return n

                a.index.count_by_model = held  # type: ignore[method-assign]
                undo = asyncio.ensure_future(a.unrecord())
                await counted.wait()
                await b.write_entries([write])
                go.set()
                assert not await undo
                a.index.count_by_model = count  # type: ignore[method-assign]
            assert await recorded(b_store) == {VECTORS_KEY, OWNER_KEY}
            assert await a.index.count_by_model() == {"test:bow": 1}
        finally:
            await b_store.close()
            await a.close()
        with pytest.raises(ConfigError, match="separate index"):
            await Storage.open(place.url)
        async with await Storage.open(place.url, vector=vectors) as again:
            assert again.index is not None
            assert await again.index.count_by_model() == {"test:bow": 1}


async def test_a_writer_whose_collections_are_no_longer_the_stores_is_refused(
        tmp_path: Path) -> None:
    """PostgreSQL: A's failed open undid the record, another process then opened the
    store anew and recorded new collections; B, opened before with the old ones, would
    write its vectors where the store no longer looks. Its first write is refused,
    naming the fix, and no vector is written."""
    from backends import PLACES
    from chatmem.store import Storage
    from chatmem.store.postgres import PostgresStore
    from chatmem.store.storage import OWNER_KEY, VECTORS_NAMESPACE

    async with PLACES["postgres"](tmp_path) as place:
        a = await Storage.open(place.url, vector=f"qdrant+local://{tmp_path}/q")
        b_store = await PostgresStore.open(place.url)
        try:
            assert a.index is not None
            b = Storage(b_store, a.index, record=a.record)
            assert await a.unrecord()
            await b_store.meta_set(VECTORS_NAMESPACE, OWNER_KEY, "another")
            await b_store.append([Message(session_id="s1", id="m1", ts=T0, content="x")])
            with pytest.raises(StoreError, match="open the store again"):
                await b.write_entries([entry("m1", [1, 0], model="test:bow")])
            assert await a.index.count_by_model() == {}
        finally:
            await b_store.close()
            await a.close()
