"""Read and erase over HTTP (I8, R4, R6): list / get narrowed for user keys, delete and
forget for owner keys only, bounded inputs; a real server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from chatmem.config import Config
from chatmem.embedding import Embedder
from providers import RecordingProvider
from servers import running
from test_http import ALICE, ALICE_BOT, BOB, client, keys, wait_indexed


@pytest.fixture
def api(tmp_path: Path) -> Iterator[str]:
    app = create_app_for(tmp_path)
    with running(app) as base:
        yield base


def create_app_for(tmp_path: Path) -> object:
    from chatmem.server.http import create_app

    return create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                      config=Config.load(context_expand={"window": 0}),
                      embedder=Embedder(RecordingProvider()))


def seed(c: httpx.Client) -> None:
    msgs = [{"id": f"{who}{i}", "session_id": room, "ts": 1_000 + i, "speaker_id": who,
             "content": f"{who} says the {word} number {i}"}
            for i in range(4) for who, room, word in (("alice", "room1", "zebra"),
                                                      ("bob", "room2", "tortoise"))]
    assert c.post("/v1/messages", json={"messages": msgs}).status_code == 200
    wait_indexed(c, 8)


def test_owner_lists_gets_deletes_and_forgets(api: str) -> None:
    with client(api, ALICE) as c:
        seed(c)
        r = c.get("/v1/messages", params={"limit": 3})
        assert r.status_code == 200, r.text
        page = r.json()
        assert [m["id"] for m in page["messages"]] == ["alice0", "bob0", "alice1"]
        r = c.get("/v1/messages", params={"limit": 3, "cursor": page["next_cursor"]})
        assert [m["id"] for m in r.json()["messages"]] == ["bob1", "alice2", "bob2"]
        r = c.get("/v1/messages", params={"speaker_id": "bob", "since": 1_002})
        assert [m["id"] for m in r.json()["messages"]] == ["bob2", "bob3"]
        assert r.json()["next_cursor"] is None
        r = c.post("/v1/messages/get", json={"ids": ["bob3", "nope", "alice0"]})
        assert [m["id"] for m in r.json()["messages"]] == ["bob3", "alice0"]
        r = c.post("/v1/messages/delete", json={"ids": ["bob3", "nope"]})
        assert r.status_code == 200, r.text
        erased = r.json()  # deleted, and the counts per kind, as a forget says them
        assert erased["deleted"] == erased["messages"] == 1
        assert set(erased) == {"deleted", "messages", "vectors", "lexical", "ann", "points",
                               "cache", "not_found"}
        assert erased["not_found"] == ["nope"]  # the ids that matched nothing
        r = c.post("/v1/forget", json={"speaker_id": "alice"})
        assert r.status_code == 200, r.text
        counts = r.json()
        assert counts["messages"] == 4 and counts["vectors"] == 4 and counts["lexical"] == 4
        assert set(counts) == {"messages", "vectors", "lexical", "ann", "points", "cache"}
        r = c.post("/v1/recall", json={"query": "zebra", "scope": "all"})
        assert all(h["message"]["speaker_id"] == "bob" for h in r.json()["hits"])
        left = c.get("/v1/messages").json()["messages"]
        assert [m["id"] for m in left] == ["bob0", "bob1", "bob2"]
    with client(api, BOB) as c:  # another namespace: untouched, and empty
        assert c.get("/v1/messages").json() == {"messages": [], "next_cursor": None}


def test_user_keys_read_only_their_visible_set_and_cannot_erase(api: str) -> None:
    with client(api, ALICE) as c:
        seed(c)
        r = c.put("/v1/settings", json={"scope": "session", "layer": "session",
                                        "session": "room1"})
        assert r.status_code == 200, r.text
    with client(api, ALICE_BOT) as c:
        r = c.get("/v1/messages")
        assert r.status_code == 400 and "visible_from" in r.json()["error"]["message"]
        r = c.get("/v1/messages", params={"visible_from": "room1"})
        assert {m["session_id"] for m in r.json()["messages"]} == {"room1"}
        r = c.get("/v1/messages", params={"visible_from": "room1", "session": "room2"})
        assert r.json()["messages"] == []  # asking for another room shows nothing
        r = c.post("/v1/messages/get", json={"ids": ["alice0", "bob0"]})
        assert r.status_code == 400
        r = c.post("/v1/messages/get", json={"ids": ["alice0", "bob0"],
                                             "visible_from": "room1"})
        assert [m["id"] for m in r.json()["messages"]] == ["alice0"]
        for path, body in (("/v1/forget", {"speaker_id": "alice"}),
                           ("/v1/messages/delete", {"ids": ["alice0"]})):
            r = c.post(path, json=body)
            assert r.status_code == 403 and r.json()["error"]["type"] == "PermissionDenied"
    with client(api, ALICE) as c:
        assert len(c.get("/v1/messages").json()["messages"]) == 8  # nothing erased


def test_bad_read_and_erase_requests_are_refused_and_change_nothing(api: str) -> None:
    with client(api, ALICE) as c:
        seed(c)
        bad = [
            ("get", "/v1/messages", {"limit": 0}, 422),
            ("get", "/v1/messages", {"limit": 1001}, 422),
            ("get", "/v1/messages", {"since": -1}, 422),
            ("get", "/v1/messages", {"cursor": "garbage"}, 400),
            ("get", "/v1/messages", {"since": 5, "until": 5}, 400),
            ("post", "/v1/messages/get", {"ids": []}, 422),
            ("post", "/v1/messages/get", {"ids": ["x"] * 1001}, 422),
            ("post", "/v1/messages/delete", {"ids": [""]}, 422),
            ("post", "/v1/forget", {}, 400),
            ("post", "/v1/forget", {"speaker_id": "alice", "session": "room1"}, 400),
            ("post", "/v1/forget", {"speaker": "alice"}, 422),
        ]
        for method, path, data, status in bad:
            r = (c.get(path, params=data) if method == "get" else c.post(path, json=data))
            assert r.status_code == status, (path, data, r.text)
            assert set(r.json()) == {"error"}
        assert len(c.get("/v1/messages").json()["messages"]) == 8


def test_retention_over_http(api: str) -> None:
    with client(api, ALICE_BOT) as c:
        r = c.put("/v1/retention", json={"days": 1, "session": "room1"})
        assert r.status_code == 403
    with client(api, ALICE) as c:
        r = c.put("/v1/retention", json={"days": 3, "layer": "session", "session": "room1"})
        assert r.status_code == 200, r.text
        r = c.get("/v1/retention", params={"session": "room1"})
        assert r.json() == {"days": 3, "layer": "session", "broken": False}
        assert c.put("/v1/retention", json={"days": -1, "session": "room1"}).status_code == 422
        r = c.put("/v1/retention", json={"days": 1, "layer": "group", "platform": "tg"})
        assert r.status_code == 400 and "group_id" in r.json()["error"]["message"]
        assert c.get("/v1/retention", params={"session": "room1"}).json()["days"] == 3


def test_getting_more_than_a_page_of_text_by_id_is_refused_and_fewer_ids_work(
        api: str) -> None:
    """1,000 ids of the largest messages made an answer of up to 500 million characters
    (the HTTP client refused to read 700 of 199,000 characters): past a list page's
    character budget the answer is a 400 naming ``ids``, never a partial answer that
    would read as unknown ids; fewer ids come back whole, in the order asked."""
    big = "z" * 199_000
    ids = [f"big{i}" for i in range(100)]  # 19.9 million characters
    with client(api, ALICE) as c:
        for start in range(0, 100, 20):
            r = c.post("/v1/messages", json={"messages": [
                {"session_id": "s9", "id": i, "content": f"{i} {big}"}
                for i in ids[start:start + 20]]})
            assert r.status_code == 200, r.text
        r = c.post("/v1/messages/get", json={"ids": ids})
        assert r.status_code == 400, r.text[:300]
        assert r.json()["error"]["type"] == "InvalidInput"
        assert r.json()["error"]["message"].startswith(
            "ids: the messages asked for hold more than 16,000,000 characters")
        asked = [*ids[:60][::-1], ids[0], "nope"]  # a repeat and an unknown id
        r = c.post("/v1/messages/get", json={"ids": asked})
        assert r.status_code == 200, r.text[:300]
        assert [m["id"] for m in r.json()["messages"]] == ids[:60][::-1]
    # chatmem's client asks for fewer ids at a time and returns them all, as Memory.get
    from chatmem.client import Client

    with Client(api, ALICE) as library_client:
        got = library_client.get([*ids[::-1], "nope"])
    assert list(got) == ids[::-1] and got[ids[7]].content == f"{ids[7]} {big}"


@pytest.mark.parametrize("field", ["session", "speaker_id", "resource_id"])
def test_a_bad_forget_selector_is_named_as_sent(api: str, field: str) -> None:
    # the error named the library's inner path ('forget.session contains a NUL
    # character'), a name no request body holds
    with client(api, ALICE) as c:
        for dry_run in (True, False):
            r = c.post("/v1/forget", json={field: "a\x00b", "dry_run": dry_run})
            assert r.status_code == 400, r.text
            error = r.json()["error"]
            message = error["message"]
            assert error["type"] == "InvalidInput"
            assert f"{field} contains a NUL character" in message, message
            assert "forget." not in message, message
