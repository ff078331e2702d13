"""The routes and options behind the console (README § Console), over a real server on
127.0.0.1: who a key is, the sessions overview, text search and index states in the
message list, a forget's counts before it erases, the recall behind context(), and the
indexing history and store size in the stats."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest

from chatmem import Memory
from chatmem.embedding import Embedder
from chatmem.errors import InvalidInput
from chatmem.overview import IndexingHistory
from chatmem.telemetry import Timing
from providers import RecordingProvider
from test_http import ALICE, ALICE_BOT, BOB, client, wait_indexed
from test_http_forget import api, seed

__all__ = ["api"]  # the fixture, imported for its tests here


def test_whoami_names_the_key_and_its_role(api: str) -> None:
    for key, expected in ((ALICE, ("alice", "alice", "owner")),
                          (ALICE_BOT, ("alice-bot", "alice", "user")),
                          (BOB, ("bob", "bob", "owner"))):
        with client(api, key) as c:
            r = c.get("/v1/whoami")
            assert r.status_code == 200
            assert tuple(r.json()[k] for k in ("name", "namespace", "role")) == expected
    assert httpx.get(api + "/v1/whoami").status_code == 401


def test_sessions_overview_for_owner_and_user_keys(api: str) -> None:
    with client(api, ALICE) as c:
        seed(c)
        assert c.put("/v1/sessions/room2", json={"origin_platform": "telegram",
                                                 "chat_type": "group", "group_id": "g7",
                                                 "group_name": "Pets"}).status_code == 200
        assert c.put("/v1/settings", json={"scope": "session", "session": "room1"}
                     ).status_code == 200
        assert c.put("/v1/retention", json={"days": 9, "session": "room2"}).status_code == 200
        r = c.get("/v1/sessions")
        assert r.status_code == 200, r.text
        rooms = {s["id"]: s for s in r.json()["sessions"]}
        assert list(rooms) == ["room1", "room2"] and r.json()["next_after"] is None
        assert rooms["room1"]["messages"] == 4 and rooms["room1"]["states"] == {"indexed": 4}
        assert rooms["room1"]["last_ts"] == 1_003
        assert rooms["room1"]["scope"] == {"scope": "session", "layer": "session"}
        assert rooms["room1"]["retention"] == {"days": 0, "layer": "config"}
        assert rooms["room2"]["retention"] == {"days": 9, "layer": "session"}
        assert (rooms["room2"]["platform"], rooms["room2"]["group_name"]) == ("telegram", "Pets")
        # both have a session row (test_damaged_store: one removed by hand is false)
        assert [s["registered"] for s in rooms.values()] == [True, True]
        first = c.get("/v1/sessions", params={"limit": 1}).json()
        assert [s["id"] for s in first["sessions"]] == ["room1"]
        assert first["next_after"] == "room1"
        rest = c.get("/v1/sessions", params={"after": "room1"}).json()
        assert [s["id"] for s in rest["sessions"]] == ["room2"]
        assert c.get("/v1/sessions", params={"limit": 0}).status_code == 422
        # an owner's visible_from narrows too (it was ignored: every session came back)
        r = c.get("/v1/sessions", params={"visible_from": "room2"})
        assert [s["id"] for s in r.json()["sessions"]] == ["room2"]
    with client(api, ALICE_BOT) as c:
        r = c.get("/v1/sessions")
        assert r.status_code == 400 and "visible_from" in r.json()["error"]["message"]
        r = c.get("/v1/sessions", params={"visible_from": "room1"})
        assert [s["id"] for s in r.json()["sessions"]] == ["room1"]
    with client(api, BOB) as c:  # another namespace
        assert c.get("/v1/sessions").json() == {"sessions": [], "next_after": None}


def test_message_list_searches_text_and_reports_index_states(api: str) -> None:
    with client(api, ALICE) as c:
        seed(c)
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "room1", "role": "tool", "content": "ZEBRA crossing log",
             "id": "t1", "ts": 5_000}]})
        assert r.status_code == 200
        r = c.get("/v1/messages", params={"text": "zebra", "states": "true"})
        assert r.status_code == 200, r.text
        page = r.json()
        assert [m["id"] for m in page["messages"]] == [f"alice{i}" for i in range(4)] + ["t1"]
        assert page["index_states"] == {**{f"alice{i}": "indexed" for i in range(4)},
                                        "t1": "skipped"}
        r = c.get("/v1/messages", params={"text": "zebra", "limit": 2})
        assert [m["id"] for m in r.json()["messages"]] == ["alice0", "alice1"]
        assert "index_states" not in r.json()
        nxt = c.get("/v1/messages", params={"text": "zebra", "cursor": r.json()["next_cursor"]})
        assert [m["id"] for m in nxt.json()["messages"]] == ["alice2", "alice3", "t1"]
        assert c.get("/v1/messages", params={"text": "giraffe"}).json()["messages"] == []
        assert c.get("/v1/messages", params={"text": ""}).status_code == 422
    with client(api, ALICE_BOT) as c:  # still narrowed to what room2 may see
        r = c.get("/v1/messages", params={"text": "number 1", "visible_from": "room2"})
        assert r.status_code == 200, r.text
        assert {m["id"] for m in r.json()["messages"]} == {"alice1", "bob1"}


def test_forget_dry_run_counts_and_erases_nothing(api: str) -> None:
    with client(api, ALICE) as c:
        seed(c)
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "room1", "speaker_id": "alice", "role": "tool", "content": "x",
             "ts": 9_000}]})
        assert r.status_code == 200
        r = c.post("/v1/forget", json={"speaker_id": "alice", "dry_run": True})
        assert r.status_code == 200, r.text
        assert r.json() == {"messages": 5, "vectors": 4, "lexical": 0, "ann": 0,
                            "points": 0, "cache": 0}
        assert len(c.get("/v1/messages").json()["messages"]) == 9
        assert c.post("/v1/recall", json={"query": "zebra", "scope": "all"}).json()["hits"]
        r = c.post("/v1/forget", json={"speaker_id": "alice"})
        assert r.json()["messages"] == 5 and r.json()["vectors"] == 4
        assert c.post("/v1/forget", json={"speaker_id": "alice", "dry_run": True}
                      ).json()["messages"] == 0
        assert c.post("/v1/forget", json={"speaker_id": "a", "dry_run": "yes"}
                      ).status_code == 422
    with client(api, ALICE_BOT) as c:
        r = c.post("/v1/forget", json={"speaker_id": "bob", "dry_run": True})
        assert r.status_code == 403


def test_context_explain_returns_the_recall_behind_the_system_message(api: str) -> None:
    with client(api, ALICE) as c:
        seed(c)
        body = {"turn": "the zebra number", "session": "room9"}
        plain = c.post("/v1/context", json=body).json()
        assert "recall" not in plain
        r = c.post("/v1/context", json={**body, "explain": True})
        assert r.status_code == 200, r.text
        out = r.json()
        assert out["messages"] == plain["messages"]
        assert out["messages"][0]["content"] == out["recall"]["text"]
        hits = out["recall"]["hits"]
        assert hits and all(h["message"]["speaker_id"] == "alice" for h in hits[:2])
        assert all({"semantic", "recency", "boost", "before", "after"} <= set(h) for h in hits)
        assert set(out["recall"]["excluded"]) >= {"min_score"}


def test_stats_report_the_indexing_history_and_store_size(api: str, tmp_path: Path) -> None:
    with client(api, ALICE) as c:
        seed(c)
        stats = c.get("/v1/stats").json()
        assert stats["indexing"]["bucket_s"] == 10
        assert len(stats["indexing"]["indexed"]) == 30 and sum(stats["indexing"]["indexed"]) == 8
        assert stats["store_bytes"] == sum(
            p.stat().st_size for p in tmp_path.glob("alice.db*")
            if p.name in ("alice.db", "alice.db-wal", "alice.db.ann"))
        assert stats["store_bytes"] > 0
        wait_indexed(c, 8)


def test_indexing_history_buckets_batches_by_time() -> None:
    now = [1_000.0]
    history = IndexingHistory(bucket_s=10, buckets=3, clock=lambda: now[0])
    history.on_timing(Timing("index_batch", 0.1, "ok", 5))
    history.on_timing(Timing("index_batch", 0.1, "failed", 2))
    history.on_timing(Timing("recall", 0.1, "ok", 7))  # not indexing
    history.on_timing(Timing("index_batch", 0.1, "split", 4))  # its parts count themselves
    now[0] = 1_012.0
    history.on_timing(Timing("index_batch", 0.1, "ok", 1))
    assert history.to_dict() == {"bucket_s": 10, "indexed": [0, 5, 1], "failed": [0, 2, 0]}
    now[0] = 1_045.0  # everything older than three buckets is gone
    assert history.to_dict()["indexed"] == [0, 0, 0]


async def test_memory_sessions_in_process(tmp_path: Path) -> None:
    async with await Memory.open(f"sqlite:///{tmp_path}/m.db",
                                 embedder=Embedder(RecordingProvider())) as mem:
        await mem.add([{"session_id": f"s{i % 3}", "content": f"text {i}", "ts": 100 + i,
                        "platform": "discord"} for i in range(7)])
        await mem.flush()
        page = await mem.sessions(limit=2)
        assert [(s.session.id, s.messages, s.last_ts) for s in page.sessions] == [
            ("s0", 3, 106), ("s1", 2, 104)]
        assert page.next_after == "s1" and page.sessions[0].last_platform == "discord"
        page = await mem.sessions(after="s1")
        assert [s.session.id for s in page.sessions] == ["s2"] and page.next_after is None
        only = await mem.sessions(only=["s2", "nope"])
        assert [s.session.id for s in only.sessions] == ["s2"]
        assert (await mem.index_states(["m-unknown"])) == {}
        with pytest.raises(InvalidInput, match="dry_run"):
            await mem.forget(session="s0", dry_run="no")  # type: ignore[arg-type]
        assert (await mem.forget(session="s0", dry_run=True)).messages == 3
        assert (await mem.sessions(only=["s0"])).sessions[0].messages == 3


def test_a_bad_visible_from_of_the_sessions_list_is_named_as_sent(api: str) -> None:
    """GET /v1/sessions?visible_from=%00 was refused as 'only[0] contains a NUL
    character': the library's argument, which no client sends. The 400 names the query
    parameter, for both key roles, as GET /v1/messages does."""
    for key in (ALICE, ALICE_BOT):
        with client(api, key) as c:
            for path in ("/v1/sessions", "/v1/messages"):
                r = c.get(path, params={"visible_from": "room\x001"})
                assert r.status_code == 400, (key, path, r.text)
                assert r.json()["error"] == {
                    "type": "InvalidInput",
                    "message": "visible_from contains a NUL character"}, (key, path)


def test_answers_that_hold_stored_data_are_never_kept_by_a_cache(api: str) -> None:
    """Every /v1 answer says Cache-Control: no-store. Before, they said nothing about
    caching: the messages, sessions and recalls the console shows (and any client
    reads) could be kept by the browser's disk cache (an open server's GET
    /v1/messages opened in a tab) or by a proxy on the way. The console's own files
    hold no data and stay no-cache."""
    with client(api, ALICE) as c:
        seed(c)
        answers = [
            c.get("/v1/messages", params={"states": "true"}),
            c.get("/v1/sessions"),
            c.get("/v1/stats"),
            c.get("/v1/whoami"),
            c.post("/v1/messages/get", json={"ids": ["alice0"]}),
            c.post("/v1/context", json={"turn": "zebra", "session": "room1",
                                        "explain": True}),
            c.post("/v1/forget", json={"speaker_id": "alice", "dry_run": True}),
            c.get("/v1/messages", params={"visible_from": "room1\x00"}),  # an error
            c.get("/v1/nowhere"),
        ]
    with client(api, None) as c:
        answers.append(c.get("/v1/messages"))  # 401 from the guard
    with client(api, ALICE_BOT) as c:
        answers.append(c.get("/v1/sessions", params={"visible_from": "room1"}))
    for r in answers:
        assert r.headers.get("cache-control") == "no-store", (r.request.url, r.status_code)
    assert [r.status_code for r in answers] == [200] * 7 + [400, 404, 401, 200]
    for path in ("/console", "/console/console.js"):
        assert httpx.get(api + path).headers["cache-control"] == "no-cache"
