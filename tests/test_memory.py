"""The Memory facade end to end on a real SQLite file and the real local model."""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from chatmem import Config, ConfigError, InvalidInput, Memory, Message, SyncMemory
from chatmem.embedding import Embedder
from chatmem.errors import ScopeError
from providers import RecordingProvider

DAY = 86_400_000
T0 = 1_760_000_000_000


@pytest.mark.parametrize("window, message", [
    (-1, "context_expand.window must be at least 0"),
    (1.5, "context_expand.window must be an integer"),
    ("2", "context_expand.window must be an integer"),
    ({"before": -2}, "context_expand.window.before must be at least 0"),
    ({"before": 1, "around": 3}, "unknown key"),
])
def test_bad_window_fails_at_start_up_naming_the_field(window: object, message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace(".", r"\.").replace("(", r"\(")):
        Config.load({"context_expand": {"window": window}})


@pytest.mark.parametrize("data, field", [
    ({"search": {"top_k": 0}}, "search.top_k"),
    ({"search": {"time_weight": 1.5}}, "search.time_weight"),
    ({"search": {"topk": 3}}, "search.topk: unknown option"),
    ({"scope": "everyone"}, "scope"),
    ({"recall_roles": "mine"}, "recall_roles"),
    ({"timezone": "Mars/Olympus"}, "timezone"),
])
def test_bad_configuration_names_the_field(data: dict, field: str) -> None:
    with pytest.raises(ConfigError, match=field):
        Config.load(data)


async def test_open_with_bad_config_fails_before_touching_the_store(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="context_expand.window"):
        await Memory.open(f"sqlite:///{tmp_path}/x.db", context_expand={"window": -1})
    assert not (tmp_path / "x.db").exists()


def test_thread_is_an_alias_of_session() -> None:
    assert Config.load({"scope": "thread"}).scope == "session"


async def test_add_index_recall_with_the_real_model(tmp_path: Path, local_embedder: Embedder
                                                    ) -> None:
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=local_embedder)
    await mem.add([
        Message(session_id="s1", content="My sister's birthday is on March 3rd", ts=T0,
                speaker_id="u1", speaker_name="Ann"),
        Message(session_id="s1", content="I adopted a grey cat named Pixel", ts=T0 + 60_000,
                speaker_id="u1", speaker_name="Ann"),
        Message(session_id="s1", content="The quarterly report is due on Friday",
                ts=T0 + 120_000, speaker_id="u1", speaker_name="Ann"),
        Message(session_id="s2", content="We should try the new ramen place downtown",
                ts=T0, speaker_id="u2", speaker_name="Ben"),
    ])
    await mem.flush(timeout=60)
    st = await mem.stats()
    assert (st["indexed"], st["pending"]) == (4, 0)
    r = await mem.recall("what is the name of my pet?", session="s1", window=0,
                         now=T0 + DAY)
    assert r.hits[0].message.content == "I adopted a grey cat named Pixel"
    assert "[Ann @" in r.text and "Pixel" in r.text
    r = await mem.recall("noodle restaurant", scope="session", session="s1", window=0)
    assert all(h.message.session_id == "s1" for h in r.hits)
    r = await mem.recall("noodle restaurant", scope="all", window=0)
    assert r.hits[0].message.session_id == "s2"
    await mem.close()


async def test_recall_without_session_in_session_scope_is_an_error(local_embedder) -> None:
    mem = await Memory.open("memory://", embedder=local_embedder)
    with pytest.raises(ScopeError, match="session="):
        await mem.recall("x", scope="session")
    with pytest.raises(InvalidInput, match="query must hold a text with words"):
        await mem.recall([])  # no words to search for (it recalled nothing in silence)
    await mem.close()


async def test_bad_messages_are_rejected_and_change_nothing() -> None:
    mem = await Memory.open("memory://", embedder=Embedder(RecordingProvider()))
    bad = [
        ({"session_id": "s", "content": ""}, "content is empty"),
        ({"session_id": "s", "content": "x" * 200_001}, "limit is 200000"),
        ({"session_id": "s", "content": "bad \ud800 text"}, "not valid UTF-8"),
        ({"session_id": "s", "content": "x", "role": "robot"}, "role must be one of"),
        ({"session_id": "", "content": "x"}, "session_id must not be empty"),
        ({"content": "x"}, "session_id is required"),
        ({"session_id": "s", "content": "x", "colour": "red"}, "unknown field"),
        ({"session_id": "s", "content": "x", "ts": -5}, "ts must be from 0 to"),
    ]
    for payload, message in bad:
        with pytest.raises(InvalidInput, match=message):
            await mem.add([{"session_id": "s", "content": "fine"}, payload])
    assert (await mem.stats())["messages"] == 0
    await mem.close()


async def test_queue_overflow_drops_queued_ids_never_messages() -> None:
    prov = RecordingProvider()
    mem = await Memory.open("memory://", embedder=Embedder(prov),
                            indexing={"max_queue_size": 3, "concurrency": 1, "batch_size": 2})
    # one add of 40 while the queue holds 3: 37 queued ids are dropped, no message
    await mem.add([Message(session_id="s", content=f"message number {i}", ts=i)
                   for i in range(40)])
    await mem.flush(timeout=30)
    st = await mem.stats()
    assert st["indexed"] == 40 and st["pending"] == 0
    assert st["indexer"]["dropped_from_queue"] > 0
    assert st["vectors_by_model"] == {"test:bow": 40}
    await mem.close()


async def test_failed_embeddings_stay_stored_and_are_retried() -> None:
    prov = RecordingProvider()
    prov.fail_with(ValueError("provider exploded"))
    mem = await Memory.open("memory://", embedder=Embedder(prov),
                            indexing={"retry_initial_s": 0.05, "retry_max_s": 0.1})
    await mem.add(Message(session_id="s", content="keep me"))
    for _ in range(100):
        if (await mem.stats())["failed"] == 1:
            break
        await asyncio.sleep(0.02)
    assert (await mem.stats())["failed"] == 1
    prov.recover()  # the provider recovers
    for _ in range(200):
        if (await mem.stats())["indexed"] == 1:
            break
        await asyncio.sleep(0.02)
    st = await mem.stats()
    assert (st["indexed"], st["failed"], st["messages"]) == (1, 0, 1)
    await mem.close()


CHILD = textwrap.dedent("""
    import asyncio, os, signal, sys
    sys.path.insert(0, {tests!r})
    from chatmem import Memory, Message
    from chatmem.embedding import Embedder
    from providers import RecordingProvider

    class Stuck(RecordingProvider):
        async def embed(self, texts, role):
            await asyncio.Event().wait()  # never answers: indexing cannot finish

    async def main():
        emb = Embedder(Stuck()) if {stuck} else None
        mem = await Memory.open({url!r}, embedder=emb)
        await mem.add([Message(session_id="s", content=f"important fact {{i}}", ts=i)
                       for i in range({n})])
        print("ACK", flush=True)  # the messages are acknowledged
        os.kill(os.getpid(), signal.SIGKILL)

    asyncio.run(main())
""")


@pytest.mark.parametrize("stuck, n", [(True, 1), (False, 300)])
async def test_kill_9_before_indexing_then_reopen_indexes_exactly_once(
        tmp_path: Path, local_embedder: Embedder, stuck: bool, n: int) -> None:
    url = f"sqlite:///{tmp_path}/crash.db"
    code = CHILD.format(tests=str(Path(__file__).parent), stuck=stuck, url=url, n=n)
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    assert "ACK" in proc.stdout
    con = sqlite3.connect(tmp_path / "crash.db")
    assert con.execute("SELECT count(*) FROM messages").fetchone()[0] == n
    if stuck:
        assert con.execute("SELECT count(*) FROM vectors").fetchone()[0] == 0
    con.close()
    mem = await Memory.open(url, embedder=local_embedder)
    await mem.flush(timeout=120)
    st = await mem.stats()
    assert (st["messages"], st["indexed"], st["pending"]) == (n, n, 0)
    await mem.close()
    con = sqlite3.connect(tmp_path / "crash.db")
    rows = con.execute("SELECT count(*), count(DISTINCT message_id) FROM vectors").fetchone()
    assert rows == (n, n)  # one vector per message: exactly once
    con.close()


async def test_context_returns_recall_message_then_last_messages_deduplicated(
        local_embedder: Embedder) -> None:
    mem = await Memory.open("memory://", embedder=local_embedder, last_messages=2)
    msgs = await mem.add([
        Message(session_id="s", content="The deadline for the website is in two weeks",
                ts=T0, speaker_name="Alex"),
        Message(session_id="s", content="I practice guitar every day", ts=T0 + DAY,
                speaker_name="Alex"),
        Message(session_id="s", content="Tokyo and Kyoto next month", ts=T0 + 2 * DAY,
                speaker_name="Alex"),
        Message(session_id="s", content="When is my website deadline due?", ts=T0 + 3 * DAY,
                speaker_name="Alex"),
    ])
    await mem.flush(timeout=60)
    ctx = await mem.context([msgs[-1]], session="s")
    assert ctx[0]["role"] == "system" and "deadline for the website" in ctx[0]["content"]
    # the two before the turn: the turn, stored already, goes after the context
    assert [m["content"] for m in ctx[1:]] == ["I practice guitar every day",
                                                "Tokyo and Kyoto next month"]
    # the last messages and the turn itself never come back as recalled lines
    assert "Tokyo and Kyoto" not in ctx[0]["content"]
    assert "guitar" not in ctx[0]["content"]
    assert "When is my website deadline due?" not in ctx[0]["content"]
    await mem.close()


async def test_a_turn_of_stored_messages_costs_no_read_of_the_session(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With last_messages 0, context() read the session's newest messages on every call,
    to find the turn's stored copies and keep them out of the recall. A turn of messages
    with ids (as add() returns them) names its copies: no read, and they are still never
    recalled, as a hit or as a hit's neighbour; a turn of text still reads them."""
    mem = await Memory.open(f"sqlite:///{tmp_path}/m.db", embedder=Embedder(
        RecordingProvider()), context_expand={"window": 1})
    said = await mem.add([Message(session_id="s", content=t, ts=T0 + i) for i, t in
                          enumerate(["my passport number ends with 42",
                                     "what does my passport number end with?"])])
    await mem.flush(timeout=30)
    reads: list[int] = []
    real = mem.store.recent

    async def counted(session_id: str, n: int) -> list[Message]:
        reads.append(n)
        return await real(session_id, n)

    monkeypatch.setattr(mem.store, "recent", counted)
    for turn in ([said[1]], said[1].content):
        got = await mem.turn_context(turn, session="s")
        assert [h.message.content for h in got.recall.hits] == [said[0].content]
        assert got.recall.hits[0].after == (said[1],)  # a neighbour, not shown:
        assert "42" in got.messages[0]["content"]
        assert said[1].content not in got.messages[0]["content"]
    assert reads == [1]  # the text's
    await mem.close()


async def test_window_and_cross_session(local_embedder: Embedder) -> None:
    mem = await Memory.open("memory://", embedder=local_embedder)
    await mem.add([Message(session_id="a", content=t, ts=T0 + i) for i, t in enumerate(
        ["before two", "before one", "my passport number ends with 42", "after one",
         "after two", "after three"])])
    await mem.flush(timeout=60)
    r = await mem.recall("passport number", scope="all", top_k=1,
                         window={"before": 1, "after": 2}, session="b")
    [hit] = r.hits
    assert [m.content for m in hit.before] == ["before one"]
    assert [m.content for m in hit.after] == ["after one", "after two"]
    r = await mem.recall("passport number", top_k=1, window=2, cross_session=False,
                         session="b")
    assert r.hits[0].before == () and r.hits[0].after == ()
    await mem.close()


def test_sync_memory_wraps_the_async_core(tmp_path: Path) -> None:
    with SyncMemory.open(f"sqlite:///{tmp_path}/s.db",
                         embedder=Embedder(RecordingProvider())) as mem:
        mem.add(Message(session_id="s", content="hello sync world"))
        mem.flush(timeout=10)
        assert mem.stats()["indexed"] == 1
        r = mem.recall("hello sync world", session="s")
        assert r.hits[0].message.content == "hello sync world"



def _indexer_tasks() -> set[asyncio.Task[object]]:
    return {t for t in asyncio.all_tasks() if t.get_name().startswith("chatmem-indexer")}


def test_a_memory_is_built_without_an_event_loop_and_indexes_on_first_use(tmp_path: Path
                                                                           ) -> None:
    """Constructing a Memory only wires it: no event loop is needed and no task starts;
    the indexer starts with the first call that writes or waits for indexing, or with
    ``async with``."""
    from chatmem.store import SqliteStore, Storage

    store = asyncio.run(SqliteStore.open(tmp_path / "m.db"))
    mem = Memory(store, store, Embedder(RecordingProvider()))  # no running loop here
    assert mem.storage.store is mem.store is store and mem.index is store
    assert not mem.storage.separate

    async def first_use() -> tuple[bool, int]:
        await mem.add(Message(session_id="s", content="the pier at noon"))
        running = bool(_indexer_tasks())
        await mem.flush(timeout=30)
        indexed = (await mem.stats())["indexed"]
        await mem.close()
        return running, indexed

    assert asyncio.run(first_use()) == (True, 1)

    async def in_a_loop() -> tuple[bool, bool, int]:
        storage = await Storage.open(str(tmp_path / "m.db"))
        again = Memory(storage, embedder=Embedder(RecordingProvider()))
        idle = not _indexer_tasks()
        async with again:
            running = bool(_indexer_tasks())
            return idle, running, (await again.stats())["messages"]

    assert asyncio.run(in_a_loop()) == (True, True, 1)
    with pytest.raises(InvalidInput, match="holds its own index"):
        Memory(Storage(store, store), store)
