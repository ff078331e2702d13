"""The HTTP API (I4, R3, R4, R5) over a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from chatmem import Memory
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError, InvalidInput
from chatmem.server.http import KeyTable, check_bind, create_app
from providers import RecordingProvider
from servers import chatmem_serve, running

ALICE = "alice-key-0123456789abcdef"
ALICE_BOT = "alice-bot-key-0123456789ab"
ALICE_DM = "alice-dm-key-0123456789abc"  # a user key bound to session s1
BOB = "bob-key-0123456789abcdef00"


def keys() -> KeyTable:
    return KeyTable.from_mapping({"keys": {
        "alice": {"key": ALICE, "namespace": "alice", "role": "owner"},
        "alice-bot": {"key": ALICE_BOT, "namespace": "alice", "role": "user"},
        "alice-dm": {"key": ALICE_DM, "namespace": "alice", "sessions": ["s1"]},
        "bob": {"key": BOB, "namespace": "bob", "role": "owner"},
    }})


@pytest.fixture
def api(tmp_path: Path) -> Iterator[str]:
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                     config=Config.load(context_expand={"window": 0}),
                     embedder=Embedder(RecordingProvider()))
    with running(app) as base:
        yield base


def client(base: str, key: str | None) -> httpx.Client:
    headers = {"Authorization": f"Bearer {key}"} if key else {}
    return httpx.Client(base_url=base, headers=headers, timeout=30)


def add(c: httpx.Client, *texts: str, session: str = "s1", **extra: Any) -> httpx.Response:
    return c.post("/v1/messages", json={"messages": [
        {"session_id": session, "content": t, **extra} for t in texts]})


def recall_texts(c: httpx.Client, query: str, **extra: Any) -> list[str]:
    r = c.post("/v1/recall", json={"query": query, "scope": "all", **extra})
    assert r.status_code == 200, r.text
    return [h["message"]["content"] for h in r.json()["hits"]]


def wait_indexed(c: httpx.Client, n: int) -> None:
    deadline = time.monotonic() + 30
    while c.get("/v1/stats").json()["indexed"] < n:
        assert time.monotonic() < deadline, "indexing did not finish"
        time.sleep(0.05)


def test_add_then_recall_and_context(api: str) -> None:
    with client(api, ALICE) as c:
        r = add(c, "the boiler service is booked for Thursday", "I prefer oat milk",
                speaker_id="alice", speaker_name="Alice", platform="cli")
        assert r.status_code == 200, r.text
        stored = r.json()["messages"]
        assert stored[0]["content"].startswith("the boiler")
        assert all(m["id"] and m["ts"] for m in stored)
        wait_indexed(c, 2)
        assert recall_texts(c, "when is the boiler service")[0].startswith("the boiler")
        r = c.post("/v1/context", json={"turn": "when is the boiler service?",
                                        "session": "s1"})
        assert r.status_code == 200
        msgs = r.json()["messages"]
        assert msgs[0]["role"] == "system" and "boiler service" in msgs[0]["content"]
        # rewrite: the vector follows the new text
        r = c.post("/v1/rewrite", json={"session": "s1", "ts": stored[1]["ts"],
                                        "content": "I prefer soy milk now"})
        assert r.status_code == 200, r.text
        assert r.json()["message"]["content"] == "I prefer soy milk now"
        assert "I prefer soy milk now" in recall_texts(c, "soy milk")
        # follow_replies: false, as the library's: the answer after a match inherits
        # nothing of its score
        r = c.post("/v1/messages", json={"session_id": "s9", "messages": [
            {"content": "what should I plant in the shady corner of the garden?"},
            {"role": "assistant", "content": "ferns and hostas do well there"}]})
        assert r.status_code == 200, r.text
        wait_indexed(c, 4)
        now = r.json()["messages"][-1]["ts"] + 60_000  # one "now": recency is the same

        def reply_score(**extra: object) -> float:
            r = c.post("/v1/recall", json={"query": "plants for the shady corner",
                                           "session": "s9", "top_k": 5, "now": now,
                                           **extra})
            assert r.status_code == 200, r.text
            return next(h["score"] for h in r.json()["hits"]
                        if h["message"]["content"].startswith("ferns"))

        assert reply_score() > reply_score(follow_replies=False)
        assert reply_score(follow_replies=True) == reply_score()
        r = c.post("/v1/recall", json={"query": "x", "follow_replies": "no"})
        assert r.status_code == 422 and "follow_replies" in r.text
        # a window side left out is 0, as in the library
        r = c.post("/v1/recall", json={"query": "boiler", "window": {"before": 1}})
        assert r.status_code == 200, r.text


def pg_template(schema: str = "cm_{namespace}") -> str:
    """The README's PostgreSQL storage URL template, on the test server."""
    from backends import pg_url

    url = pg_url()
    return f"{url}{'&' if '?' in url else '?'}schema={schema}"


#: chatmem serve's refusal of a key whose namespace makes no PostgreSQL schema name.
SCHEMA_WORDS = ("cannot fill {namespace} of the storage URL: it makes the PostgreSQL schema "
                "%s, and a PostgreSQL schema name takes lowercase letters, digits and _, not "
                "starting with a digit or pg_, at most 63 characters; rename the namespace")


def test_a_key_whose_namespace_makes_no_schema_name_is_refused_at_start_naming_it(
        tmp_path: Path) -> None:
    """A key file takes namespace = "alice-x", but the README's PostgreSQL template
    ``?schema=cm_{namespace}`` makes the schema cm_alice-x, which chatmem refuses; the
    server checked only one namespace (whichever a set gave first) at start-up, so it
    either refused without naming the key or started and failed that key's every request
    (500, the schema refusal in the log). Every key's namespace is checked before serving,
    and the refusal names the key, its namespace, why and the fix; SQLite's file names
    take the "-"."""
    table = KeyTable.from_mapping({"keys": {
        "bob": {"key": BOB, "namespace": "bob"},
        "alice": {"key": ALICE, "namespace": "alice-x", "role": "owner"},
        "alice-bot": {"key": ALICE_BOT, "namespace": "alice-x"},
    }}, source="keys.toml")
    emb = Embedder(RecordingProvider())
    with pytest.raises(ConfigError) as info:
        create_app(url=pg_template(), keys=table, embedder=emb)
    assert str(info.value) == (
        'keys.toml: keys.alice.namespace "alice-x" (and keys.alice-bot) '
        + SCHEMA_WORDS % '"cm_alice-x"' + ', e.g. namespace = "alice_x"')
    # a template with the namespace alone: a digit first has no example to give
    digit = KeyTable.from_mapping({"keys": {"n": {"key": BOB, "namespace": "1team"}}},
                                  source="k.toml")
    with pytest.raises(ConfigError) as info:
        create_app(url=pg_template("{namespace}"), keys=digit, embedder=emb)
    assert str(info.value) == ('k.toml: keys.n.namespace "1team" '
                               + SCHEMA_WORDS % '"1team"')
    # a template no namespace could fill is refused with its own words, as before
    with pytest.raises(ConfigError, match='^storage URL: pool_size must be an integer'):
        create_app(url=pg_template() + "&pool_size=abc", keys=table, embedder=emb)
    # SQLite file names take the "-": the server starts and the key's requests answer
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=table,
                     embedder=emb)
    with running(app) as base, client(base, ALICE) as c:
        assert add(c, "hello").status_code == 200
        assert c.get("/v1/whoami").json()["namespace"] == "alice-x"
    assert (tmp_path / "alice-x.db").exists()


def test_keys_are_required_and_namespaces_never_cross(api: str) -> None:
    with client(api, None) as anon:
        r = anon.post("/v1/recall", json={"query": "x"})
        assert r.status_code == 401 and r.headers["www-authenticate"] == "Bearer"
        assert r.json()["error"]["type"] == "Unauthorized"
    with client(api, "not-a-key-at-all-000000") as wrong:
        assert wrong.get("/v1/stats").status_code == 401
    with client(api, ALICE) as alice, client(api, BOB) as bob, \
            client(api, ALICE_BOT) as bot:
        assert add(alice, "alice's locker code is 4471").status_code == 200
        assert add(bob, "bob's locker code is 9902").status_code == 200
        wait_indexed(alice, 1)
        wait_indexed(bob, 1)
        assert recall_texts(bob, "locker code") == ["bob's locker code is 9902"]
        assert recall_texts(alice, "locker code") == ["alice's locker code is 4471"]
        # a second key of the same namespace sees that namespace (a user key names the
        # conversation asking)
        assert recall_texts(bot, "locker code", session="s1") == [
            "alice's locker code is 4471"]
        assert bob.get("/v1/stats").json()["messages"] == 1


def test_settings_and_clear_need_an_owner_key(api: str) -> None:
    with client(api, ALICE_BOT) as bot, client(api, ALICE) as owner:
        body = {"scope": "session", "layer": "session", "session": "s1"}
        r = bot.put("/v1/settings", json=body)
        assert r.status_code == 403 and "owner" in r.json()["error"]["message"]
        assert bot.post("/v1/clear", json={"target": "all"}).status_code == 403
        assert bot.get("/v1/settings", params={"session": "s1"}).json()["scope"] == "all"
        assert owner.put("/v1/settings", json=body).status_code == 200
        eff = bot.get("/v1/settings", params={"session": "s1"}).json()
        assert eff["scope"] == "session" and eff["layer"] == "session"
        add(owner, "to be cleared")
        wait_indexed(owner, 1)
        r = owner.post("/v1/clear", json={"target": "all"})
        assert r.status_code == 200 and r.json()["messages"] == 1


def test_a_body_not_sent_as_json_is_refused_naming_its_content_type(api: str) -> None:
    """A JSON body sent as text/plain (curl's -d without -H, a form) was read as bytes
    and refused as 422 'body must be an object, got "b\'{\\"messages\\": …\'"' (a
    Python bytes literal of the body, the content type never named). Now it is 415
    naming the content type and the one to send, after the key; nothing is stored. A
    JSON type with a suffix (application/…+json) or none at all is read as JSON."""
    body = json.dumps({"messages": [{"session_id": "s1", "content": "hello"}]})
    with client(api, ALICE) as owner, client(api, None) as anon:
        for ctype in ("text/plain", "application/x-www-form-urlencoded", "text/json",
                      "application/xml"):
            r = owner.post("/v1/messages", content=body, headers={"content-type": ctype})
            assert r.status_code == 415, (ctype, r.text)
            assert r.json()["error"] == {
                "type": "UnsupportedMediaType",
                "message": "the body must be JSON, sent with Content-Type: "
                           f'application/json; got Content-Type "{ctype}"'}, r.text
            # the key first: without one, nothing is said of the body
            r = anon.post("/v1/messages", content=body, headers={"content-type": ctype})
            assert r.status_code == 401, (ctype, r.text)
        assert owner.get("/v1/messages").json()["messages"] == []
        for ctype in ("application/json", "application/json; charset=utf-8",
                      "application/merge-patch+json"):
            r = owner.post("/v1/messages", content=body, headers={"content-type": ctype})
            assert r.status_code == 200, (ctype, r.text)
        paths = owner.get("/openapi.json").json()["paths"]
        assert "415" in paths["/v1/messages"]["post"]["responses"]


def test_bad_input_gets_a_clear_error_and_changes_nothing(api: str) -> None:
    with client(api, ALICE) as c:
        r = c.post("/v1/messages", json={"messages": [{"session_id": "s1"}]})
        assert r.status_code == 422 and "messages[0].content" in r.json()["error"]["message"]
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": "fine"}, {"session_id": "s1", "content": "",
                                                        "role": "user"}]})
        assert r.status_code == 400, r.text
        assert "content" in r.json()["error"]["message"]
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": "x", "colour": "red"}]})
        assert r.status_code == 422 and "colour" in r.json()["error"]["message"]
        r = c.post("/v1/recall", json={"query": "x", "top_k": 0})
        assert r.status_code == 422 and "top_k" in r.json()["error"]["message"]
        r = c.post("/v1/recall", json={"query": "x", "filter": {"$bogus": 1}})
        assert r.status_code == 400, r.text
        # JSON's types as they are, as the library reads them: "no" is not false, "5" and
        # 5.0 are not 5, true is not 1
        for field, value in (("cross_session", "no"), ("cross_session", 0),
                             ("top_k", "5"), ("top_k", 5.0), ("top_k", True),
                             ("window", "2")):
            r = c.post("/v1/recall", json={"query": "x", field: value})
            assert r.status_code == 422, (field, value, r.text)
            assert field in r.json()["error"]["message"], r.text
        r = c.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": "x", "ts": "1000"}]})
        assert r.status_code == 422 and "ts" in r.json()["error"]["message"]
        r = c.post("/v1/recall", json={"query": "x", "min_score": 0})  # an int is a number
        assert r.status_code == 200, r.text
        r = c.post("/v1/rewrite", json={"session": "nope", "ts": 1, "content": "y"})
        assert r.status_code == 404
        r = c.post("/v1/messages", content=b"{not json",
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 422
        r = c.post("/v1/messages", content=b"x" * (8 * 1024 * 1024 + 1),
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        for depth in (2_000, 100_000):  # valid JSON, deeper than the parser reads
            r = c.post("/v1/messages", content=b'{"messages": %s%s}' % (b"[" * depth,
                                                                       b"]" * depth),
                       headers={"Content-Type": "application/json"})
            assert r.status_code == 400, r.text
            assert r.json()["error"]["message"] == (
                "body: JSON nested too deeply to read; send a flatter body")
        # a key given twice: parsers disagree on which counts (a proxy or a log that
        # keeps the first saw "dry_run": true where the server erased), so neither does
        for body in (b'{"target": "all", "target": "vector"}',
                     b'{"messages": [{"session_id": "s1", "content": "a", "content": "b"}]}'):
            r = c.post("/v1/clear" if b"target" in body else "/v1/messages", content=body,
                       headers={"Content-Type": "application/json"})
            assert r.status_code == 400, r.text
            assert "appears twice in one object; send each key once" in \
                r.json()["error"]["message"], r.text
        r = c.post("/v1/recall", content=b'{"query": "x", "top_k": %s}' % (b"9" * 5000),
                   headers={"Content-Type": "application/json"})  # valid JSON, too long
        assert r.status_code == 400, r.text
        assert "more digits than can be read" in r.json()["error"]["message"], r.text
        assert c.get("/v1/stats").json()["messages"] == 0  # none of it was stored


def test_a_user_key_bound_to_sessions_acts_for_them_only(api: str) -> None:
    """A user key names the conversation asking, and without a binding any name was
    taken at its word: an audit's bot key read and rewrote every session of its
    namespace and stored into any. ``keys.<name>.sessions`` binds it (403 elsewhere,
    nothing stored); an unbound user key is as before."""
    with client(api, ALICE) as owner, client(api, ALICE_DM) as dm, \
            client(api, ALICE_BOT) as bot:
        assert add(owner, "the vault code is 5521", session="s2").status_code == 200
        assert add(dm, "my own note").status_code == 200  # s1: its session
        for r in (add(dm, "planted", session="s2"),
                  dm.post("/v1/messages", json={"messages": [
                      {"session_id": "s1", "content": "fine"},
                      {"session_id": "s2", "content": "planted"}]}),
                  dm.post("/v1/recall", json={"query": "vault", "session": "s2"}),
                  dm.post("/v1/context", json={"turn": "vault?", "session": "s2"}),
                  dm.post("/v1/tool", json={"arguments": {"query": "vault"},
                                            "caller": {"session_id": "s2"}}),
                  dm.get("/v1/messages", params={"visible_from": "s2"}),
                  dm.post("/v1/messages/get", json={"ids": ["x"], "visible_from": "s2"}),
                  dm.get("/v1/sessions", params={"visible_from": "s2"}),
                  dm.get("/v1/sessions/s2"),
                  dm.get("/v1/settings", params={"session": "s2"}),
                  dm.get("/v1/retention", params={"session": "s2"}),
                  dm.post("/v1/rewrite", json={"session": "s2", "ts": 1, "content": "x",
                                               "visible_from": "s2"})):
            assert r.status_code == 403, (r.request.url, r.text)
            assert "acts only for its own sessions" in r.json()["error"]["message"], r.text
        listed = owner.get("/v1/messages", params={"limit": 100}).json()["messages"]
        assert sorted(m["content"] for m in listed) == ["my own note",
                                                        "the vault code is 5521"]
        assert dm.post("/v1/recall", json={"query": "note", "session": "s1"}
                       ).status_code == 200
        assert dm.get("/v1/messages", params={"visible_from": "s1"}).status_code == 200
        # an unbound user key still names any conversation of its namespace
        assert bot.get("/v1/messages", params={"visible_from": "s2"}).status_code == 200
    for entry, why in (({"role": "owner", "sessions": ["s1"]}, "owner key acts for"),
                       ({"sessions": "s1"}, "non-empty list of session ids"),
                       ({"sessions": []}, "non-empty list"), ({"sessions": [""]}, "1 to")):
        with pytest.raises(ConfigError, match=why):
            KeyTable.from_mapping({"keys": {"k": {"key": ALICE_DM, "namespace": "a",
                                                  **entry}}})


def test_an_id_stored_where_the_key_may_not_see_tells_nothing_of_that_message(
        api: str) -> None:
    """R4: a user key bound to s1 that added a message with the id of one in s2 was
    told how the two differed: 'message id "v1" already exists with another session_id
    and content' for a guess, '… with another session_id' alone for the right words,
    and '… another session_id and role' for the right words said by another role. So
    it could try contents until one was confirmed, the vault code of another
    conversation included. Now any message of another session is refused in the same
    words (the id is taken, as it must be: ids are the namespace's), saying nothing of
    its role or content; nothing is stored."""
    with client(api, ALICE) as owner, client(api, ALICE_DM) as dm:
        assert add(owner, "the vault code is 5521", session="s2", id="v1").status_code == 200
        said = set()
        for guess in ({"content": "the vault code is 0000"},
                      {"content": "the vault code is 5521"},
                      {"content": "the vault code is 5521", "role": "assistant"},
                      {"content": "the vault code is 0000", "role": "assistant"}):
            r = dm.post("/v1/messages", json={"messages": [
                {"session_id": "s1", "id": "v1", **guess}]})
            assert r.status_code == 400, r.text
            said.add(r.json()["error"]["message"])
        assert len(said) == 1, said
        [words] = said
        assert words.startswith('message id "v1" already exists with another session_id: '), \
            words
        listed = owner.get("/v1/messages", params={"limit": 100}).json()["messages"]
        assert [(m["id"], m["content"]) for m in listed] == [("v1", "the vault code is 5521")]


def test_escapes_that_are_not_utf8_are_refused_in_paths_and_queries(api: str) -> None:
    """``%ff%fe`` was decoded to U+FFFD: PUT /v1/sessions/%ff%fe registered a session
    named "\ufffd\ufffd" that no client could name again. UTF-8 escapes still work."""
    with client(api, ALICE) as c:
        for method, url in (("PUT", "/v1/sessions/%ff%fe"),
                            ("GET", "/v1/messages?session=%ff%fe"),
                            ("GET", "/v1/messages?session=ok&visible_from=a%C3")):
            r = c.request(method, url, json={} if method == "PUT" else None)
            assert r.status_code == 400, (url, r.text)
            assert "not UTF-8" in r.json()["error"]["message"], r.text
        assert c.get("/v1/sessions").json()["sessions"] == []
        r = c.put("/v1/sessions/caf%C3%A9", json={})
        assert r.status_code == 200, r.text
        assert c.get("/v1/sessions/caf%C3%A9").json()["session"]["id"] == "café"
    with client(api, None) as anon:  # the key first: no key, no word about the path
        assert anon.put("/v1/sessions/%ff", json={}).status_code == 401


def test_tool_health_metrics_and_openapi(api: str) -> None:
    with client(api, ALICE) as c:
        schema = c.get("/v1/tool").json()
        assert schema["function"]["name"] == "memory_recall"
        add(c, "the vet appointment for Miso is at 5pm")
        wait_indexed(c, 1)
        r = c.post("/v1/tool", json={"arguments": {"query": "vet appointment"},
                                     "caller": {"session_id": "s1"}})
        assert r.status_code == 200, r.text
        assert "vet appointment" in str(r.json())
    with client(api, None) as anon:
        assert anon.get("/health").json()["status"] == "ok"
        head = anon.head("/health")  # how uptime monitors probe
        assert head.status_code == 200 and head.content == b""
        assert anon.get("/metrics").status_code == 401
        paths = anon.get("/openapi.json").json()["paths"]
        for p in ("/v1/messages", "/v1/rewrite", "/v1/recall", "/v1/context", "/v1/settings",
                  "/v1/clear", "/v1/stats", "/v1/tool", "/v1/sessions/{session_id}",
                  "/health", "/metrics"):
            assert p in paths, p
    with client(api, ALICE) as owner:  # an owner key reads its namespace's metrics
        text = owner.get("/metrics").text
        assert 'chatmem_messages{namespace="alice"} 1' in text
        assert 'chatmem_cleared{namespace="alice"} 0' in text
        assert 'route="/v1/messages",status="200"' in text


def test_concurrent_adds_and_recalls_lose_nothing(api: str) -> None:
    async def load() -> None:
        async with httpx.AsyncClient(base_url=api, timeout=60,
                                     headers={"Authorization": f"Bearer {ALICE}"}) as c:
            async def writer(w: int) -> None:
                for i in range(10):
                    r = await c.post("/v1/messages", json={"messages": [
                        {"session_id": f"w{w}", "content": f"writer {w} note {i}"}]})
                    assert r.status_code == 200, r.text

            async def reader() -> None:
                for _ in range(10):
                    r = await c.post("/v1/recall", json={"query": "note", "scope": "all"})
                    assert r.status_code == 200, r.text

            await asyncio.gather(*(writer(w) for w in range(8)), *(reader() for _ in range(4)))

    asyncio.run(load())
    with client(api, ALICE) as c:
        wait_indexed(c, 80)
        assert c.get("/v1/stats").json()["messages"] == 80


def test_key_table_and_bind_errors_name_the_fix() -> None:
    with pytest.raises(ConfigError, match="keys.a.namespace"):
        KeyTable.from_mapping({"keys": {"a": {"key": ALICE, "namespace": "Bad Name"}}})
    for ns in ("abc\n", "abc\r\n", "a/b", "../a", ""):  # a file name made of it
        with pytest.raises(ConfigError, match="keys.a.namespace"):
            KeyTable.from_mapping({"keys": {"a": {"key": ALICE, "namespace": ns}}})
    with pytest.raises(ConfigError, match="unknown field"):  # a key that is not text
        KeyTable.from_mapping({"keys": {"a": {"key": ALICE, "namespace": "a", 7: 1}}})
    with pytest.raises(ConfigError, match="key or key_sha256"):
        KeyTable.from_mapping({"keys": {"a": {"namespace": "a"}}})
    with pytest.raises(ConfigError, match="at least 16"):
        KeyTable.from_mapping({"keys": {"a": {"key": "short", "namespace": "a"}}})
    with pytest.raises(ConfigError, match="without API keys"):
        check_bind("0.0.0.0", None)
    check_bind("127.0.0.1", None)
    with pytest.raises(ConfigError, match="must contain {namespace}"):
        create_app(url="sqlite:///one.db", keys=keys(), embedder=Embedder(RecordingProvider()))
    # a Qdrant local-mode folder has one user at a time: every namespace but the first
    # failed at its first request; a server (each store its own collections) is fine
    with pytest.raises(ConfigError, match="vector URL must contain {namespace}"):
        create_app(url="sqlite:///data/{namespace}.db", vector="qdrant+local:///v",
                   keys=keys(), embedder=Embedder(RecordingProvider()))
    for vector in ("qdrant://127.0.0.1:6333", "qdrant+local:///v/{namespace}"):
        create_app(url="sqlite:///data/{namespace}.db", vector=vector, keys=keys(),
                   embedder=Embedder(RecordingProvider()))


def test_chatmem_serve_runs_with_the_real_model(tmp_path: Path) -> None:
    keys_file = tmp_path / "keys.toml"
    keys_file.write_text(f'[keys.me]\nkey = "{ALICE}"\nnamespace = "me"\nrole = "owner"\n',
                         encoding="utf-8")
    with chatmem_serve(f"sqlite:///{tmp_path}/{{namespace}}.db", keys_file,
                       tmp_path / "serve.log") as base, client(base, ALICE) as c:
        add(c, "My passport expires in March 2027", "I had pasta for lunch")
        wait_indexed(c, 2)
        assert recall_texts(c, "when does my passport run out?")[0].startswith(
            "My passport")


# --------------------------------------------------------------------------- issue 9


def json_error(r: httpx.Response, status: int) -> dict[str, str]:
    """The documented error shape, and nothing else."""
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"} and set(body["error"]) == {"type", "message"}, body
    assert body["error"]["message"]
    return dict(body["error"])


class Chunks:
    """A chunked request body of ``total`` bytes that records how much was taken."""

    def __init__(self, total: int = 1 << 30, chunk: int = 64 * 1024) -> None:
        self.total, self.chunk, self.sent = total, chunk, 0

    def __iter__(self) -> Iterator[bytes]:
        while self.sent < self.total:
            self.sent += self.chunk
            yield b" " * self.chunk


def test_bodies_are_bounded_as_they_stream_and_the_key_comes_first(api: str) -> None:
    limit = 8 * 1024 * 1024
    headers = {"Content-Type": "application/json"}
    # no key: 401 before any of the body is read (not 422 after reading 1 GiB)
    body = Chunks()
    with client(api, None) as anon:
        r = anon.post("/v1/messages", content=body, headers=headers)
    json_error(r, 401)
    assert body.sent < 4 * limit, body.sent
    # a valid key and a chunked body over the limit: 413 as soon as it passes the limit
    body = Chunks()
    with client(api, ALICE) as c:
        r = c.post("/v1/messages", content=body, headers=headers)
        assert json_error(r, 413)["type"] == "PayloadTooLarge"
        assert body.sent < 4 * limit, body.sent
        # so is a declared Content-Length over the limit, before reading anything
        r = c.post("/v1/messages", content=Chunks(limit + 1024 * 1024),
                   headers={**headers, "Content-Length": str(limit + 1024 * 1024)})
        json_error(r, 413)
        # a chunked body under the limit is read normally
        small = b'{"messages": [{"session_id": "s1", "content": "chunked hello"}]}'
        r = c.post("/v1/messages", content=iter([small[:10], small[10:]]), headers=headers)
        assert r.status_code == 200, r.text
        assert c.get("/v1/stats").json()["messages"] == 1


def test_a_user_key_may_only_narrow_the_scope(api: str) -> None:
    with client(api, ALICE) as owner, client(api, ALICE_BOT) as bot:
        add(owner, "the vault code is 5521", session="a1")
        add(owner, "what was the vault code again", session="a2")
        wait_indexed(owner, 2)
        r = owner.put("/v1/settings", json={"scope": "session", "layer": "session",
                                            "session": "a2"})
        assert r.status_code == 200, r.text
        # the user key asks for a wider scope: clamped to the session's own
        r = bot.post("/v1/recall", json={"query": "vault code", "session": "a2",
                                         "scope": "all", "window": 3})
        assert r.status_code == 200, r.text
        assert r.json()["scope"] == "session" and r.json()["clamped"] is True
        assert "5521" not in r.text
        for scope in ("user", "platform", "resource"):
            r = bot.post("/v1/recall", json={"query": "vault code", "session": "a2",
                                             "scope": scope, "cross_session": True})
            assert r.status_code == 200 and "5521" not in r.text, r.text
        # without a session there is nothing to narrow from
        r = bot.post("/v1/recall", json={"query": "vault code", "scope": "all"})
        assert "session" in json_error(r, 400)["message"]
        # nor ask for more hits than every key took before top_k's bound became the
        # library's (1000, an owner key's): 100
        r = bot.post("/v1/recall", json={"query": "vault code", "session": "a2",
                                         "top_k": 101})
        assert json_error(r, 400)["message"] == (
            "top_k must be at most 100 with a user key, got 101: ask for fewer hits (an "
            "owner key takes up to 1000)")
        r = bot.post("/v1/recall", json={"query": "vault code", "session": "a2",
                                         "top_k": 100})
        assert r.status_code == 200, r.text
        r = owner.post("/v1/recall", json={"query": "vault code", "session": "a2",
                                           "top_k": 1000})
        assert r.status_code == 200, r.text
        # the tool and the context route clamp the same way
        r = bot.post("/v1/tool", json={"arguments": {"query": "vault code", "scope": "all"},
                                       "caller": {"session_id": "a2"}})
        assert r.status_code == 200 and "5521" not in r.text, r.text
        r = bot.post("/v1/context", json={"turn": "vault code", "session": "a2"})
        assert r.status_code == 200 and "5521" not in r.text, r.text
        # a narrower scope than the session's is honoured; the owner key may widen
        r = owner.post("/v1/recall", json={"query": "vault code", "session": "a2",
                                           "scope": "all"})
        assert "5521" in r.text and r.json()["clamped"] is False
        # a rewrite names the conversation asking, and changes (and shows) only what it
        # may see: a1's message is not found from a2, and stays as it was
        vault = owner.get("/v1/messages", params={"session": "a1"}).json()["messages"][0]
        change = {"session": "a1", "ts": vault["ts"], "content": "the vault code is 0000"}
        assert "visible_from" in json_error(bot.post("/v1/rewrite", json=change),
                                            400)["message"]
        hidden = json_error(bot.post("/v1/rewrite", json={**change, "visible_from": "a2"}),
                            404)["message"]
        absent = json_error(bot.post("/v1/rewrite", json={  # the same answer: no oracle
            **change, "visible_from": "a2", "ts": vault["ts"] + 1}), 404)["message"]
        assert hidden.replace(str(vault["ts"]), "T") == absent.replace(
            str(vault["ts"] + 1), "T")
        assert owner.get("/v1/messages", params={"session": "a1"}).json()[
            "messages"][0]["content"] == "the vault code is 5521"
        r = bot.post("/v1/rewrite", json={**change, "visible_from": "a1"})
        assert r.status_code == 200 and r.json()["message"]["content"].endswith("0000")
        r = owner.post("/v1/rewrite", json={**change, "content": "the vault code is 5521"})
        assert r.status_code == 200, r.text  # an owner key names no conversation


def test_metrics_need_a_key_and_count_500s(api: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmem.memory import Memory

    def broken(self: Memory, *, strict: bool = False) -> dict[str, Any]:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Memory, "tool_schema", broken)
    with client(api, ALICE) as c:
        r = c.get("/v1/tool")
        assert json_error(r, 500) == {"type": "InternalError",
                                      "message": "internal error; it was logged"}
        assert "a bug" not in r.text and "Traceback" not in r.text
        text = c.get("/metrics").text
        assert 'chatmem_http_requests_total{method="GET",route="/v1/tool",status="500"} 1' \
            in text
    with client(api, None) as anon, client(api, "not-a-key-at-all-000000") as wrong:
        json_error(anon.get("/metrics"), 401)
        json_error(wrong.get("/metrics"), 401)
    # a metrics token reads the metrics and nothing else
    token = "metrics-token-0123456789"
    table = KeyTable.from_mapping({"keys": {"a": {"key": ALICE, "namespace": "alice"}},
                                   "metrics": {"token": token}})
    app = create_app(url=f"sqlite:///{tmp_path}/m-{{namespace}}.db", keys=table,
                     embedder=Embedder(RecordingProvider()))
    with running(app) as base, client(base, token) as scraper:
        assert scraper.get("/metrics").status_code == 200
        json_error(scraper.get("/v1/stats"), 401)
    # an open loopback server (no key table) keeps its metrics open
    app = create_app(url=f"sqlite:///{tmp_path}/open.db", embedder=Embedder(RecordingProvider()))
    with running(app) as base, client(base, None) as anon:
        assert anon.get("/metrics").status_code == 200


def test_metrics_token_errors_name_the_field() -> None:
    base = {"keys": {"a": {"key": ALICE, "namespace": "a"}}}
    with pytest.raises(ConfigError, match="metrics.token must be a string of at least 16"):
        KeyTable.from_mapping({**base, "metrics": {"token": "short"}})
    with pytest.raises(ConfigError, match="one of token or token_sha256"):
        KeyTable.from_mapping({**base, "metrics": {}})
    with pytest.raises(ConfigError, match="metrics: unknown field"):
        KeyTable.from_mapping({**base, "metrics": {"token": "x" * 20, "colour": 1}})
    with pytest.raises(ConfigError, match="token_sha256 must be 64"):
        KeyTable.from_mapping({**base, "metrics": {"token_sha256": "abc"}})
    with pytest.raises(ConfigError, match="also an API key"):
        KeyTable.from_mapping({**base, "metrics": {"token": ALICE}})
    with pytest.raises(ConfigError, match="unknown table"):
        KeyTable.from_mapping({**base, "metric": {"token": "x" * 20}})


def test_every_error_has_the_documented_shape(api: str) -> None:
    with client(api, ALICE) as c:
        assert json_error(c.get("/v1/nope"), 404)["type"] == "NotFound"
        assert json_error(c.get("/nope"), 404)["type"] == "NotFound"
        e = json_error(c.delete("/v1/messages"), 405)
        assert e["type"] == "MethodNotAllowed"
        json_error(c.post("/v1/messages", content=b"{not json",
                          headers={"Content-Type": "application/json"}), 422)
        e = json_error(c.post("/v1/messages", content=b'\xff\xfe{"a"',
                              headers={"Content-Type": "application/json"}), 422)
        assert "invalid JSON" in e["message"]
        for body, field in (({"query": "x", "window": -1}, "window"),
                            ({"query": "x", "window": {"before": -1, "after": 0}}, "window"),
                            ({"query": "x", "now": -5}, "now"),
                            ({"query": "x", "now": 2**63}, "now"),
                            ({"query": "x", "top_k": 1001}, "top_k")):
            assert field in json_error(c.post("/v1/recall", json=body), 422)["message"]
        e = json_error(c.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": "x", "ts": 253402300800000}]}), 422)
        assert "messages[0].ts" in e["message"]
        e = json_error(c.post("/v1/rewrite", json={"session": "s1", "ts": -1,
                                                   "content": "y"}), 422)
        assert "ts" in e["message"]
        # text that cannot be stored or embedded (lone surrogates), at any depth
        for path, raw in (("/v1/recall", b'{"query": "x", "session": "\\ud800"}'),
                          ("/v1/recall", b'{"query": "x", "filter": {"\\udfff": 1}}'),
                          ("/v1/clear", b'{"session": "\\ud800"}'),
                          ("/v1/tool", b'{"arguments": "{\\"query\\": \\"\\\\ud800\\"}",'
                                       b' "caller": {"session_id": "s1"}}')):
            r = c.post(path, content=raw, headers={"Content-Type": "application/json"})
            assert r.status_code in (400, 422), (path, r.text)
            assert "UTF-8" in json_error(r, r.status_code)["message"], r.text
        assert c.get("/v1/stats").json()["messages"] == 0


def test_sessions_can_be_registered_by_owners_and_read_by_users(api: str) -> None:
    with client(api, ALICE) as owner, client(api, ALICE_BOT) as bot:
        json_error(bot.get("/v1/sessions/a1"), 404)
        body = {"resource_id": "r1", "origin_platform": "qq", "chat_type": "group",
                "group_id": "1001", "group_name": "Hikers", "metadata": {"topic": "hiking"}}
        e = json_error(bot.put("/v1/sessions/a1", json=body), 403)
        assert "owner" in e["message"]
        r = owner.put("/v1/sessions/a1", json=body)
        assert r.status_code == 200, r.text
        got = bot.get("/v1/sessions/a1").json()["session"]
        assert {k: got[k] for k in body} == body and got["id"] == "a1"
        owner.put("/v1/sessions/a2", json={"resource_id": "r1"})
        owner.put("/v1/sessions/a3", json={"resource_id": "r2"})
        # settings are not taken from this route, and are kept across updates
        json_error(owner.put("/v1/sessions/a1", json={"settings": {"scope": "all"}}), 422)
        json_error(owner.put("/v1/sessions/a1", json={"parent_id": "a1"}), 400)
        json_error(owner.put("/v1/sessions/a1", json={"chat_type": ""}), 422)
        # the registration drives scopes and filters
        add(owner, "the tent is in the garage", session="a1")
        add(owner, "the tent was sold last year", session="a3")
        add(owner, "where is the tent", session="a2")
        wait_indexed(owner, 3)
        r = bot.post("/v1/recall", json={"query": "tent", "session": "a2",
                                         "scope": "resource"})
        assert r.status_code == 200, r.text
        texts = r.text
        assert "garage" in texts and "sold last year" not in texts
        r = bot.post("/v1/recall", json={"query": "tent", "session": "a2",
                                         "filter": {"topic": "hiking"}})
        assert r.status_code == 200, r.text
        assert [h["message"]["session_id"] for h in r.json()["hits"]] == ["a1"]


def test_a_user_key_filter_adds_to_the_configured_filter(tmp_path: Path) -> None:
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                     config=Config.load(context_expand={"window": 0},
                                        semantic_recall={"filter": {"topic": "hiking"}}),
                     embedder=Embedder(RecordingProvider()))
    with running(app) as base, client(base, ALICE) as owner, client(base, ALICE_BOT) as bot:
        owner.put("/v1/sessions/a1", json={"metadata": {"topic": "hiking"}})
        owner.put("/v1/sessions/a3", json={"metadata": {"topic": "cooking"}})
        add(owner, "bring the tent", session="a1")
        add(owner, "bring the pan", session="a3")
        wait_indexed(owner, 2)

        def sessions(c: httpx.Client, flt: dict[str, Any]) -> set[str]:
            r = c.post("/v1/recall", json={"query": "bring the", "session": "a1",
                                           "filter": flt})
            assert r.status_code == 200, r.text
            return {h["message"]["session_id"] for h in r.json()["hits"]}

        assert sessions(bot, {}) == {"a1"}  # an empty filter does not drop the configured one
        assert sessions(bot, {"topic": "cooking"}) == set()  # AND, never instead
        assert sessions(owner, {"topic": "cooking"}) == {"a3"}  # an owner key replaces it


def test_an_open_server_answers_only_its_own_host_names(tmp_path: Path) -> None:
    """DNS rebinding: a web page that points its own name at 127.0.0.1 reaches an open
    server (no keys) as the same origin, and could read and write every memory (before:
    `Host: evil.example:8798` got 200 from /v1/stats). An open server answers only its
    own names (421), and a browser Origin of another site is refused (403)."""
    from chatmem.server.http import allowed_hosts
    from servers import free_port

    port = free_port()
    app = create_app(url=f"sqlite:///{tmp_path}/open.db", embedder=Embedder(RecordingProvider()),
                     hosts=allowed_hosts("127.0.0.1", port, ["mybox.local:*"]))
    with running(app, port=port) as base:
        def status(**headers: str) -> int:
            return httpx.get(base + "/v1/stats", headers=headers).status_code

        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"LocalHost:{port}",
                     f"[::1]:{port}", "mybox.local:1234", "mybox.local"):
            assert status(Host=host) == 200, host
        for host in (f"evil.example:{port}", "127.0.0.1", f"127.0.0.2:{port}",
                     f"localhost.evil.example:{port}", ""):
            r = httpx.get(base + "/v1/stats", headers={"Host": host})
            assert r.status_code == 421, host
            assert r.json()["error"]["type"] == "MisdirectedRequest"
        assert status(Origin=f"http://127.0.0.1:{port}") == 200
        for origin in (f"http://evil.example:{port}", "null", "file://", "http://evil.example"):
            assert status(Origin=origin) == 403, origin
        # the console and /health are behind the same door
        assert httpx.get(base + "/console", headers={"Host": "evil.example"}).status_code == 421
    with pytest.raises(ConfigError, match="needs --allowed-host"):
        allowed_hosts("0.0.0.0", port)
    with pytest.raises(ConfigError, match="host\\[:port\\]"):
        allowed_hosts("127.0.0.1", port, ["http://x/"])
    assert allowed_hosts("::1", 80) == ["[::1]:80", "127.0.0.1:80", "localhost:80"]


def test_a_bracketed_host_is_refused_naming_the_bare_address() -> None:
    """`--host [::1]` was refused without keys as if [::1] were not loopback ('refusing
    to serve [::1] without API keys'), while the Host check (_loopback) took it as
    loopback; with keys or --allow-open it went on to fail at listen ('not an address or
    name this machine resolves'): no socket, nor uvicorn, listens on an address in
    brackets. check_bind now refuses the brackets, keys or not, naming the fix."""
    from chatmem.server.http import _loopback

    for host, fix in (("[::1]", "--host ::1"), ("[127.0.0.1]", "--host 127.0.0.1"),
                      ("[fe80::1]", "--host fe80::1"), ("[::1]:8765", "--host ::1 --port 8765")):
        for table, allow_open in ((None, False), (keys(), False), (None, True)):
            with pytest.raises(ConfigError) as err:
                check_bind(host, table, allow_open=allow_open)
            assert str(err.value) == (
                f"--host {host}: an address in brackets is not one to listen on (brackets "
                f"only set an IPv6 address apart in a URL); give it without them: {fix}")
    # the bare forms: loopback ones served open, as the Host check takes them
    for host in ("::1", "127.0.0.1", "localhost"):
        check_bind(host, None)
        assert _loopback(host)
    for host in ("::", "0.0.0.0", "fe80::1"):
        assert not _loopback(host)
        with pytest.raises(ConfigError, match=f"refusing to serve {host} without API keys"):
            check_bind(host, None)
        check_bind(host, keys())


def ipv6_loopback() -> bool:
    import socket

    try:
        with socket.socket(socket.AF_INET6) as s:
            s.bind(("::1", 0))
    except OSError:
        return False
    return True


@pytest.mark.skipif(not ipv6_loopback(), reason="no IPv6 loopback here")
def test_an_open_server_on_the_ipv6_loopback_serves_it(tmp_path: Path) -> None:
    """`chatmem serve --host ::1` (what the refusal of `--host [::1]` suggests) serves
    without keys, on [::1] only, and answers its loopback names."""
    with chatmem_serve(str(tmp_path / "v6.db"), None, tmp_path / "serve.log",
                       host="::1") as base:
        port = int(base.rpartition(":")[2])
        assert httpx.get(f"{base}/v1/stats").status_code == 200  # open: no key
        for host in (f"localhost:{port}", f"127.0.0.1:{port}"):
            assert httpx.get(f"{base}/v1/stats", headers={"Host": host}).status_code == 200
        assert httpx.get(f"{base}/v1/stats", headers={"Host": "evil.example"}).status_code == 421
        with pytest.raises(httpx.TransportError):  # not on the IPv4 loopback
            httpx.get(f"http://127.0.0.1:{port}/health", timeout=2)


def test_a_server_with_keys_answers_any_host_unless_told(tmp_path: Path) -> None:
    """With keys a rebinding page has no key to send, so the Host check is off by default
    (a proxy's name needs no flag); `--allowed-host` turns it on."""
    from chatmem.server.http import allowed_hosts

    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                     embedder=Embedder(RecordingProvider()))
    with running(app) as base:
        r = httpx.get(base + "/v1/stats", headers={"Host": "proxy.example"})
        assert r.status_code == 401  # the key is what stops it
        r = httpx.get(base + "/v1/stats", headers={"Host": "proxy.example",
                                                   "Authorization": f"Bearer {ALICE}"})
        assert r.status_code == 200
    told = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                      embedder=Embedder(RecordingProvider()),
                      hosts=allowed_hosts("127.0.0.1", 1, ["api.example.org:*"]))
    with running(told) as base:
        auth = {"Authorization": f"Bearer {ALICE}"}
        assert httpx.get(base + "/v1/stats", headers={**auth, "Host": "proxy.example"}
                         ).status_code == 421
        assert httpx.get(base + "/v1/stats", headers={**auth, "Host": "api.example.org"}
                         ).status_code == 200


def test_a_user_key_reads_no_namespace_counts_and_an_owner_key_all_of_them(api: str) -> None:
    """GET /v1/stats and /metrics count every conversation of the namespace (messages,
    sessions, vectors, the indexer's queue, the store's size), whoever spoke: a user key,
    which sees only what its conversation may see, read them all (and the console's
    Health page showed them to it). Now a user key, bound or not, gets 403 from both,
    naming where its own conversation's counts are; an owner key keeps the full counts."""
    with client(api, ALICE) as owner:
        assert add(owner, "alice's note in her DM", session="s1").status_code == 200
        assert add(owner, "the team's roadmap", "the budget for Q3",
                   session="team").status_code == 200
        r = owner.put("/v1/settings", json={"scope": "session", "layer": "session",
                                            "session": "s1"})
        assert r.status_code == 200, r.text
        wait_indexed(owner, 3)
        stats = owner.get("/v1/stats").json()
        assert (stats["messages"], stats["sessions"], stats["indexed"]) == (3, 2, 3)
        assert stats["vectors_by_model"] == {"test:bow": 3}
        assert 'chatmem_messages{namespace="alice"} 3' in owner.get("/metrics").text
    for key, session in ((ALICE_BOT, "s1"), (ALICE_DM, "s1")):
        with client(api, key) as user:
            for path in ("/v1/stats", "/metrics"):
                r = user.get(path)
                e = json_error(r, 403)
                assert e["type"] == "PermissionDenied", e
                assert "owner key" in e["message"] and "visible_from" in e["message"], e
                assert "3" not in r.text and "chatmem_" not in r.text  # no count leaks
            # what it may see of its own conversation, counted: its own message only
            r = user.get("/v1/sessions", params={"visible_from": session})
            assert r.status_code == 200, r.text
            [row] = r.json()["sessions"]
            assert (row["id"], row["messages"], row["states"]) == ("s1", 1, {"indexed": 1})
    paths = httpx.get(api + "/openapi.json").json()["paths"]
    for path in ("/v1/stats", "/metrics"):
        assert "403" in paths[path]["get"]["responses"], path


def test_whoami_names_the_sessions_and_platform_a_key_is_bound_to(
        api: str, tmp_path: Path) -> None:
    """The console refuses another session at sign-in, naming the bound ones: whoami says
    them (a key's own binding; null when it has none)."""
    from chatmem.client import Client

    want = {ALICE: ("owner", None), ALICE_BOT: ("user", None), ALICE_DM: ("user", ["s1"])}
    for key, (role, sessions) in want.items():
        with client(api, key) as c:
            who = c.get("/v1/whoami").json()
        assert (who["role"], who["sessions"], who["platform"]) == (role, sessions, None)
        with Client(api, key) as typed:  # the Python client reads the new fields
            assert typed.whoami() == who
    table = KeyTable.from_mapping({"keys": {"tg": {
        "key": ALICE_DM, "namespace": "alice", "sessions": ["b", "a"], "platform": "tg"}}})
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=table,
                     embedder=Embedder(RecordingProvider()))
    with running(app) as base, client(base, ALICE_DM) as c:
        assert c.get("/v1/whoami").json() == {"name": "tg", "namespace": "alice",
                                              "role": "user", "sessions": ["a", "b"],
                                              "platform": "tg"}


def test_delete_counts_per_kind_and_counts_first_on_a_dry_run(api: str) -> None:
    """POST /v1/messages/delete answered {"deleted": n} alone, so the console's forget of
    one message could not say how many vectors went, as it does for a speaker or a
    session. It now answers the counts per kind as /v1/forget does, and takes dry_run."""
    with client(api, ALICE) as owner:
        r = owner.post("/v1/messages", json={"messages": [
            {"session_id": "s1", "content": "the vet is at 5pm", "id": "m1"},
            {"session_id": "s1", "content": "bring the cat carrier", "id": "m2"}]})
        assert r.status_code == 200, r.text
        wait_indexed(owner, 2)
        r = owner.post("/v1/messages/delete", json={"ids": ["m1", "nope"], "dry_run": True})
        assert r.status_code == 200, r.text
        assert r.json() == {"deleted": 0, "messages": 1, "vectors": 1, "lexical": 0,
                            "ann": 0, "points": 0, "cache": 0, "not_found": ["nope"]}
        assert len(owner.post("/v1/messages/get", json={"ids": ["m1"]}).json()["messages"]) \
            == 1  # counting erased nothing
        json_error(owner.post("/v1/messages/delete", json={"ids": ["m1"], "dry_run": "yes"}),
                   422)
        r = owner.post("/v1/messages/delete", json={"ids": ["m1", "nope"]})
        erased = r.json()
        assert erased["deleted"] == erased["messages"] == 1 and erased["vectors"] == 1
        assert erased["lexical"] == 1 and erased["not_found"] == ["nope"]
        assert owner.post("/v1/messages/get", json={"ids": ["m1"]}).json()["messages"] == []
    with client(api, ALICE_BOT) as bot:  # still an owner's act, dry run or not
        for dry in (True, False):
            e = json_error(bot.post("/v1/messages/delete", json={"ids": ["m2"],
                                                                 "dry_run": dry}), 403)
            assert e["type"] == "PermissionDenied"


#: (the field, as ``Model.field`` (``[]``: an item of its list), the route, a body, the
#: error): each field of a request body that takes one of several types, refused.
UNION_FIELDS: list[tuple[str, str, dict[str, Any], str]] = [
    ("RecallBody.window", "/v1/recall", {"query": "x", "window": 101},
     "window must be at most 100, got 101"),
    ("RecallBody.window", "/v1/recall", {"query": "x", "window": 2.5},
     'window must be an integer from 0 to 100 or {"before", "after"}, got 2.5'),
    ("RecallBody.window", "/v1/recall", {"query": "x", "window": "\ud800"},
     'window must be an integer from 0 to 100 or {"before", "after"}, got "\\ud800"'),
    ("RecallBody.window", "/v1/recall", {"query": "x", "window": {"before": 101}},
     "window.before must be at most 100, got 101"),
    ("RecallBody.query", "/v1/recall", {"query": 5},
     "query must be a string or a list of strings, got 5"),
    ("RecallBody.query", "/v1/recall", {"query": ["a", 5]},
     "query[1] must be a string, got 5"),
    ("ContextBody.turn", "/v1/context", {"session": "s1", "turn": True},
     "turn must be a string or a list of strings and messages (objects), got true"),
    ("ContextBody.turn[]", "/v1/context", {"session": "s1", "turn": ["a", 5]},
     "turn[1] must be a string or a message (an object), got 5"),
    ("ContextBody.turn[]", "/v1/context", {"session": "s1", "turn": [{"role": "user"}]},
     "turn[0].content is required"),
    ("MessageIn.content", "/v1/messages", {"messages": [{"session_id": "s1", "content": 5}]},
     "messages[0].content must be a string or a list of content parts (objects), got 5"),
    ("MessageIn.content", "/v1/messages",
     {"messages": [{"session_id": "s1", "content": [5]}]},
     "messages[0].content[0] must be an object, got 5"),
    ("MessageIn.content", "/v1/context",
     {"session": "s1", "turn": [{"content": {"a": "\udc00"}}]},
     'turn[0].content must be a string or a list of content parts (objects), got '
     '{"a": "\\udc00"}'),
    ("ToolBody.arguments", "/v1/tool", {"arguments": 5, "caller": {"session_id": "s1"}},
     "arguments must be an object or its JSON text, got 5"),
]


def _union_fields() -> set[str]:
    """``Model.field`` of every request body field that takes one of several types."""
    import types
    import typing

    from pydantic import BaseModel

    from chatmem.server import http

    def members(kind: Any) -> list[Any]:
        if typing.get_origin(kind) is typing.Annotated:
            return members(typing.get_args(kind)[0])
        if typing.get_origin(kind) in (typing.Union, types.UnionType):
            return [a for a in typing.get_args(kind) if a is not type(None)]
        return [kind]

    found: set[str] = set()

    def walk(kind: Any, where: str) -> None:
        if len(members(kind)) > 1:
            found.add(where)
        for member in members(kind):
            if typing.get_origin(member) is list:
                walk(typing.get_args(member)[0], f"{where}[]")

    for model in vars(http).values():
        if isinstance(model, type) and issubclass(model, BaseModel) \
                and model.__module__ == http.__name__:
            for name, info in model.model_fields.items():
                walk(info.annotation, f"{model.__name__}.{name}")
    return found


def test_every_field_of_several_types_has_a_bad_value_here() -> None:
    assert _union_fields() == {field for field, *_ in UNION_FIELDS}


def test_a_field_of_several_types_is_refused_in_the_apis_words(api: str) -> None:
    """`"window": 101` was refused with 'window.constrained-int: Input should be less
    than or equal to 100; window.WindowBody: Input should be a valid dictionary or
    object to extract fields from': each type the field takes in turn, by pydantic's
    internal names (list[union[str,MessageIn]], MessageIn, list[dict[str,any]], …), and
    a lone surrogate in the value given made a 500 of its message. A value of a kind
    one of the types takes is judged by that type alone; any other is one sentence:
    the field, what it takes, the value as sent."""
    with client(api, ALICE) as c:
        wrong = []
        for field, route, body, says in UNION_FIELDS:
            # as JSON escapes: a lone surrogate is not UTF-8
            r = c.post(route, content=json.dumps(body),
                       headers={"Content-Type": "application/json"})
            got = r.json()["error"] if r.status_code == 422 else r.text
            if got != {"type": "InvalidRequest", "message": says}:
                wrong.append(f"{field} {body}: {r.status_code} {got}")
        assert not wrong, "\n".join(wrong)


def test_schema_refusals_name_the_field_as_chatmems_own_errors_do(api: str) -> None:
    """A 400 named ``messages[0].platform``, a 422 of the same body
    ``messages.0.content``, in pydantic's words ('Input should be a valid integer',
    'Field required', 'Extra inputs are not permitted', 'String should have at least 1
    character'). Both now name the field one way and say what it must be."""
    with client(api, ALICE) as c:
        def refused(route: str, body: Any, status: int = 422) -> str:
            r = c.post(route, json=body)
            return json_error(r, status)["message"]

        one = {"session_id": "s1", "content": "x"}
        assert refused("/v1/messages", {"messages": [{**one, "platform": ""}]}, 400) == (
            "messages[0].platform must not be empty (leave it out when there is none)")
        for route, body, says in (
            ("/v1/messages", {"messages": [{"session_id": "s1"}]},
             "messages[0].content is required"),
            ("/v1/messages", {"messages": [{**one, "ts": "1000"}]},
             'messages[0].ts must be an integer, got "1000"'),
            ("/v1/messages", {"messages": [one, {**one, "ts": 253402300800000}]},
             "messages[1].ts must be at most 253402300799999, got 253402300800000"),
            ("/v1/messages", {"messages": [{**one, "sesion_id": "s1"}]},
             "messages[0]: unknown field(s) sesion_id (did you mean session_id?)"),
            ("/v1/messages", {"messages": []}, "messages must not be empty"),
            ("/v1/recall", {"query": "x", "top_k": 0, "cross_session": "no"},
             'top_k must be an integer from 1 to 1000, got 0; cross_session must be true '
             'or false, got "no"'),
            ("/v1/recall", {"query": "x", "speakers": ["a", ""]},
             "speakers[1] must not be empty"),
            ("/v1/recall", {"query": "x", "colour": 1},
             "body: unknown field(s) colour; it takes query, session, platform, top_k, "
             "min_score, scope, window, cross_session, filter, speakers, exclude_ids, "
             "now, follow_replies"),
            ("/v1/clear", {"target": "nope"},
             "target must be one of vector, context, all, got \"nope\""),
            ("/v1/tool", {"arguments": {}, "caller": {"session_id": "s1", "colr": 1}},
             "caller: unknown field(s) colr; it takes session_id, speaker_id, platform"),
            ("/v1/recall", [1, 2], "body must be an object, got [1, 2]"),
        ):
            assert refused(route, body) == says, body
        for params, says in (({"text": ""}, "text must not be empty"),
                             ({"limit": "abc"}, "limit must be an integer, got abc"),
                             ({"limit": "0"}, "limit must be an integer from 1 to 1000, got 0")):
            assert json_error(c.get("/v1/messages", params=params), 422)["message"] == says


def test_a_number_out_of_range_is_refused_in_the_librarys_words(api: str,
                                                                tmp_path: Path) -> None:
    """POST /v1/recall's 422 for top_k 0 said "top_k must be at least 1, got 0" where
    Memory.recall(top_k=0) says "top_k must be an integer from 1 to 1000, got 0" (and
    min_score, a page's limit, a window below 0 alike: pydantic's words of the bound
    crossed, or of the union); and top_k took 1-100 over HTTP, 1-1000 in the library,
    for no documented reason. The HTTP answer now carries the library's words, status
    and field name as before, and top_k takes 1-1000 at both doors."""
    async def library() -> dict[str, str]:
        mem = await Memory.open(f"sqlite:///{tmp_path}/lib.db",
                                embedder=Embedder(RecordingProvider()))
        said: dict[str, str] = {}
        try:
            for name, value in (("top_k", 0), ("top_k", 1001), ("min_score", 2),
                                ("min_score", -0.5), ("window", -1),
                                ("window", {"before": -1})):
                with pytest.raises(InvalidInput) as info:
                    await mem.recall("tea", **{name: value})
                said[f"{name}={value}"] = str(info.value)
            for limit in (0, 1001):
                with pytest.raises(InvalidInput) as info:
                    await mem.list(limit=limit)
                said[f"limit={limit}"] = str(info.value)
                with pytest.raises(InvalidInput) as info:
                    await mem.sessions(limit=limit)
                assert str(info.value) == said[f"limit={limit}"]
        finally:
            await mem.close()
        return said

    said = asyncio.run(library())
    assert said["top_k=0"] == "top_k must be an integer from 1 to 1000, got 0"
    with client(api, ALICE) as c:
        for key, words in said.items():
            name, _, value = key.partition("=")
            if name == "limit":
                for route in ("/v1/messages", "/v1/sessions"):
                    e = json_error(c.get(route, params={"limit": value}), 422)
                    assert e == {"type": "InvalidRequest", "message": words}, route
                continue
            body = {"query": "tea", "scope": "all", name: json.loads(value.replace("'", '"'))}
            e = json_error(c.post("/v1/recall", json=body), 422)
            assert e == {"type": "InvalidRequest", "message": words}, body
        # top_k as the library takes it
        for top_k in (101, 1000):
            r = c.post("/v1/recall", json={"query": "tea", "scope": "all", "top_k": top_k})
            assert r.status_code == 200, r.text
        schema = c.get("/openapi.json").json()["components"]["schemas"]["RecallBody"]
        top_k_schema = schema["properties"]["top_k"]["anyOf"][0]
        assert (top_k_schema["minimum"], top_k_schema["maximum"]) == (1, 1000)


def test_put_session_replaces_damaged_metadata_and_names_damaged_settings(
        api: str, tmp_path: Path) -> None:
    """PUT /v1/sessions/{id} replaces a session's metadata (absent: none) and keeps its
    settings: metadata chatmem cannot read (a hand edit) is replaced; settings it cannot
    read it cannot keep, and the error names them and what replaces them."""
    import sqlite3

    def damage(column: str) -> None:
        conn = sqlite3.connect(tmp_path / "alice.db")
        with conn:
            conn.execute(f"UPDATE sessions SET {column} = '{{bad' WHERE id = 's1'")
        conn.close()

    with client(api, ALICE) as c:
        assert c.put("/v1/sessions/s1", json={"metadata": {"a": 1}}).status_code == 200
        damage("metadata")
        r = c.put("/v1/sessions/s1", json={"metadata": {"a": 2}, "chat_type": "group"})
        assert r.status_code == 200, r.text
        assert r.json()["session"]["metadata"] == {"a": 2}
        damage("settings")
        r = c.put("/v1/sessions/s1", json={"metadata": {"a": 3}})
        # 500, not 503: the row stays damaged until it is repaired, a retry cannot help
        assert r.status_code == 500 and "retry-after" not in r.headers, r.text
        assert r.json()["error"]["type"] == "DamagedRow"
        assert '(session id "s1"): column settings ' in r.json()["error"]["message"], r.text
        assert "chatmem session set --unset settings s1" in r.text, r.text
        assert c.get("/v1/sessions/s1").status_code == 500  # as it was: nothing written
    # the Python client: a StoreError in the server's words (not a ServerError, a bug's)
    from chatmem.client import Client
    from chatmem.errors import StoreError

    with Client(api, ALICE) as chatmem_client, pytest.raises(StoreError) as refused:
        chatmem_client.get_session("s1")
    assert '(session id "s1"): column settings ' in str(refused.value)


def test_an_unreachable_store_is_not_located_for_a_user_key(
        caplog: pytest.LogCaptureFixture) -> None:
    """R6: a store that cannot be reached is a 503 StoreError; a user key reads that and
    what to do, never the PostgreSQL host, port, user, database or schema (the driver's
    own words name them), an owner key the whole error, which the log holds too."""
    import logging

    from servers import free_port

    port = free_port()  # nothing listens there
    app = create_app(url=f"postgresql://ghostuser@127.0.0.1:{port}/ghostdb"
                         "?schema=cm_{namespace}", keys=keys(),
                     embedder=Embedder(RecordingProvider()))
    hidden = [f"127.0.0.1:{port}", "ghostuser", "ghostdb", "cm_alice"]
    with caplog.at_level(logging.WARNING, logger="chatmem"), running(app) as base:
        said = _store_failure_located_for_the_owner_only(base, hidden, caplog)
    assert said[-1].startswith(f'postgres (127.0.0.1:{port}/ghostdb, schema "cm_alice") '), \
        said[-1]  # the owner's: which tenant's store too


def _store_failure_located_for_the_owner_only(base: str, hidden: list[str],
                                              caplog: pytest.LogCaptureFixture) -> list[str]:
    """GET /v1/messages of s1 with the user keys and the owner key: a 503 StoreError,
    whose message names ``hidden[0]`` to the owner only, and to a user key none of
    ``hidden`` but a reference to the log line that holds it. Returns the messages."""
    out = []
    for key, whole in ((ALICE_BOT, False), (ALICE_DM, False), (ALICE, True)):
        with client(base, key) as c:
            r = c.get("/v1/messages", params={"session": "s1", "visible_from": "s1"})
        assert r.status_code == 503, r.text
        error = r.json()["error"]
        assert error["type"] == "StoreError", r.text
        said = error["message"]
        out.append(said)
        assert hidden[0] in said if whole else not any(h in said for h in hidden), said
        if not whole:
            assert said.startswith("the store failed or could not be reached; send "
                                   "it again later"), said
            ref = said.rsplit("(reference ", 1)[1].split(")")[0]
            assert any(ref in m and hidden[0] in m for m in caplog.messages), caplog.text
    return out


#: What a failing embedding provider's answer may quote (an API key's echo, an internal
#: host) and where it redirected to: none of it is a user key's or a model's to read.
_PROVIDER_SECRETS = ["sk-echoed-0451", "embed-gw.corp.internal", "/tenant-7731/"]


@pytest.mark.parametrize("failure", ["rejected", "redirected"])
@pytest.mark.parametrize("fallback", [False, True])
def test_an_embedding_providers_failure_is_not_located_for_a_user_key(
        tmp_path: Path, failure: str, fallback: bool,
        caplog: pytest.LogCaptureFixture) -> None:
    """R6: an embedding provider that fails (a real HTTP service on 127.0.0.1 whose
    answer echoes an API key and names internal hosts, or which redirects there) is a
    503 EmbeddingUnavailable, or with full-text fallback a degraded recall; a user key
    (POST /v1/recall, /v1/context, /v1/tool) and a model (the MCP memory_recall) read
    its kind, what to do and a reference, never the provider's answer nor a host; an
    owner key reads the whole error, and the log holds it under the reference."""
    import logging

    from chatmem import Memory
    from chatmem.server.mcp import HTTP_PATH, create_server, http_app
    from fake_embedding_service import Step, fresh_service
    from servers import free_port, mcp_client

    with fresh_service() as service:
        config = Config.load(
            embedding=service.config("openai", model="fake", max_retries=0, timeout=5.0,
                                     path="/tenant-7731/v1", cache={"enabled": False}),
            hybrid={"fallback_to_lexical": fallback})
        app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                         config=config)
        service.default = Step(status=401, body={"error": {
            "message": "key sk-echoed-0451 is not valid for embed-gw.corp.internal "
                       "/tenant-7731/"}}) if failure == "rejected" else \
            Step(status=307, body="", headers={
                "Location": "https://embed-gw.corp.internal/tenant-7731/v1/embeddings"})
        calls = [("/v1/recall", {"query": "lighthouse sunday", "session": "s1"}),
                 ("/v1/context", {"turn": "lighthouse sunday", "session": "s1",
                                  "explain": True}),
                 ("/v1/tool", {"arguments": {"query": "lighthouse sunday"},
                               "caller": {"session_id": "s1"}})]
        with caplog.at_level(logging.WARNING, logger="chatmem"), running(app) as base:
            with client(base, ALICE) as c:
                assert add(c, "the lighthouse trip is on sunday").status_code == 200
            for key, whole in ((ALICE_BOT, False), (ALICE_DM, False), (ALICE, True)):
                for path, body in calls:
                    if path == "/v1/context" and not fallback:
                        continue  # a turn's recall always falls back
                    with client(base, key) as c:
                        r = c.post(path, json=body)
                    if fallback or path == "/v1/context":
                        assert r.status_code == 200, r.text
                        said = r.json()["degraded_reason"]
                        assert said.startswith("query not embedded ("), said
                        if path == "/v1/context":
                            assert r.json()["recall"]["degraded_reason"] == said
                    else:
                        assert r.status_code == 503, r.text
                        assert r.json()["error"]["type"] == "EmbeddingUnavailable", r.text
                        said = r.json()["error"]["message"]
                    if whole:
                        assert "embed-gw.corp.internal" in said, said
                        continue
                    for secret in _PROVIDER_SECRETS:
                        assert secret not in said, (secret, said)
                    assert "send it again" in said or "a retry cannot help" in said, said
                    ref = said.rsplit("(reference ", 1)[1].split(")")[0]
                    assert any(ref in m and "embed-gw.corp.internal" in m
                               for m in caplog.messages), caplog.text
        port = free_port()

        async def open_memory() -> Memory:
            return await Memory.open(f"sqlite:///{tmp_path}/alice.db", config=config)

        mcp_app = http_app(create_server(open_memory, session="s1"), host="127.0.0.1",
                           port=port, keys=keys())

        async def over_mcp(url: str) -> list[str]:
            said: list[str] = []
            for key in (ALICE_BOT, ALICE):  # a model reads it, whoever's key it acts with
                async with mcp_client(url, key) as session:
                    result = await session.call_tool("memory_recall",
                                                     {"query": "lighthouse sunday"})
                    text = " ".join(getattr(c, "text", "") for c in result.content)
                    assert result.is_error is not fallback, text
                    if fallback:
                        assert result.structured_content is not None, text
                        text = result.structured_content["degraded_reason"]
                    said.append(text)
            return said

        with running(mcp_app, port=port, path=HTTP_PATH) as url:
            for text in asyncio.run(over_mcp(url)):
                for secret in _PROVIDER_SECRETS:
                    assert secret not in text, (secret, text)
                assert "(reference " in text, text


def _refs(said: str) -> str:
    """The reference of a told error, or of its log line."""
    import re

    found = re.search(r"\(reference ([0-9a-f]+)[;,)]", said)
    assert found is not None, said
    return found.group(1)


def _told_lines(caplog: pytest.LogCaptureFixture, kind: str
                ) -> tuple[list[str], list[str]]:
    """chatmem.server's WARNING and DEBUG lines of errors of ``kind`` told in part."""
    import logging

    lines = [r for r in caplog.records if r.name == "chatmem.server"
             and f": {kind} (reference " in r.getMessage()]
    return ([r.getMessage() for r in lines if r.levelno == logging.WARNING],
            [r.getMessage() for r in lines if r.levelno == logging.DEBUG])


def test_an_outage_told_to_user_keys_logs_one_warning_per_error(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """During an embedding provider's outage (a real HTTP service on 127.0.0.1 failing
    every call), 20 degraded recalls of user keys (POST /v1/recall, /v1/context,
    /v1/tool) log the provider's whole error at WARNING once, under the reference of
    the first; the others are DEBUG lines under that same reference, which every user
    key is given: each reference a user received is in a WARNING line. The MCP
    memory_recall (5 calls) and a store's failure told so (an unreachable PostgreSQL,
    GET /v1/messages 10 times) alike."""
    import logging

    from mcp import Client as McpClient

    from chatmem import Memory
    from chatmem.server.mcp import create_server
    from fake_embedding_service import Step, fresh_service
    from servers import free_port

    with fresh_service() as service:
        config = Config.load(
            embedding=service.config("openai", model="fake", max_retries=0, timeout=5.0,
                                     cache={"enabled": False}),
            hybrid={"fallback_to_lexical": True})
        app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                         config=config)
        calls = [("/v1/recall", {"query": "lighthouse sunday", "session": "s1"}),
                 ("/v1/context", {"turn": "lighthouse sunday", "session": "s1"}),
                 ("/v1/tool", {"arguments": {"query": "lighthouse sunday"},
                               "caller": {"session_id": "s1"}})]
        with caplog.at_level(logging.DEBUG, logger="chatmem"), running(app) as base:
            with client(base, ALICE) as c:
                assert add(c, "the lighthouse trip is on sunday").status_code == 200
            service.default = Step(status=500, body={"error": {"message": "gateway down"}})
            given = set()
            for n in range(20):
                path, body = calls[n % len(calls)]
                with client(base, (ALICE_BOT, ALICE_DM)[n % 2]) as c:
                    r = c.post(path, json=body)
                assert r.status_code == 200, r.text
                said = r.json()["degraded_reason"]
                assert said.startswith("query not embedded (the embedding provider"), said
                given.add(_refs(said))
        warnings, debug = _told_lines(caplog, "EmbeddingUnavailable")
        assert len(warnings) == 1 and len(debug) == 19, caplog.text
        assert given == {_refs(warnings[0])}, (given, warnings)
        assert "gateway down" in warnings[0] and all(_refs(d) in given for d in debug)
        # a model's memory_recall over MCP alike (its server's own log of told errors)
        caplog.clear()

        async def open_memory() -> Memory:
            return await Memory.open(f"sqlite:///{tmp_path}/alice.db", config=config)

        async def over_mcp() -> set[str]:
            refs = set()
            async with McpClient(create_server(open_memory, session="s1")) as mcp:
                for _ in range(5):
                    result = await mcp.call_tool("memory_recall", {"query": "lighthouse"})
                    assert result.structured_content is not None
                    refs.add(_refs(result.structured_content["degraded_reason"]))
            return refs

        with caplog.at_level(logging.DEBUG, logger="chatmem"):
            given = asyncio.run(over_mcp())
        warnings, debug = _told_lines(caplog, "EmbeddingUnavailable")
        assert len(warnings) == 1 and len(debug) == 4, caplog.text
        assert given == {_refs(warnings[0])} and "MCP tool memory_recall" in warnings[0]

    caplog.clear()
    port = free_port()  # nothing listens there
    app = create_app(url=f"postgresql://ghostuser@127.0.0.1:{port}/ghostdb"
                         "?schema=cm_{namespace}", keys=keys(),
                     embedder=Embedder(RecordingProvider()))
    with caplog.at_level(logging.DEBUG, logger="chatmem"), running(app) as base:
        given = set()
        for n in range(10):
            with client(base, (ALICE_BOT, ALICE_DM)[n % 2]) as c:
                r = c.get("/v1/messages", params={"session": "s1", "visible_from": "s1"})
            assert r.status_code == 503, r.text
            given.add(_refs(r.json()["error"]["message"]))
    warnings, debug = _told_lines(caplog, "StoreError")
    assert len(warnings) == 1 and len(debug) == 9, caplog.text
    assert given == {_refs(warnings[0])} and "ghostdb" in warnings[0], (given, warnings)


def test_an_outage_told_to_the_owner_key_logs_one_warning_per_error(
        caplog: pytest.LogCaptureFixture) -> None:
    """An owner key reads a store's failure whole (an unreachable PostgreSQL, GET
    /v1/messages 10 times), and the log holds it as it holds those told to user keys:
    at WARNING once, under a reference, the others DEBUG lines under it (one WARNING
    per distinct error a window, ToldLog), whichever key's request met it first."""
    import logging

    from servers import free_port

    port = free_port()  # nothing listens there
    app = create_app(url=f"postgresql://ghostuser@127.0.0.1:{port}/ghostdb"
                         "?schema=cm_{namespace}", keys=keys(),
                     embedder=Embedder(RecordingProvider()))
    with caplog.at_level(logging.DEBUG, logger="chatmem"), running(app) as base:
        for n in range(10):
            with client(base, ALICE if n < 8 else ALICE_BOT) as c:
                r = c.get("/v1/messages", params={"session": "s1", "visible_from": "s1"})
            assert r.status_code == 503, r.text
            said = r.json()["error"]["message"]
            if n < 8:  # the owner: the whole error, no reference
                assert "ghostdb" in said and "(reference " not in said, said
            else:
                assert "ghostdb" not in said, said
    warnings, debug = _told_lines(caplog, "StoreError")
    assert len(warnings) == 1 and len(debug) == 9, caplog.text
    assert "GET /v1/messages: StoreError (reference " in warnings[0], warnings
    assert "ghostdb" in warnings[0] and all(_refs(d) == _refs(warnings[0]) for d in debug)
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING
                and r.name == "chatmem.server" and r.getMessage() not in warnings]


def test_a_told_error_is_warned_again_after_its_window(
        caplog: pytest.LogCaptureFixture) -> None:
    """chatmem.server.ToldLog: an error told again within its window is a DEBUG line
    under its WARNING's reference; once the window is over, a new WARNING with a new
    reference says how many times it was told in between; another error is its own."""
    import logging

    from chatmem.errors import StoreError
    from chatmem.server import ToldLog

    now = [0.0]  # the window's clock, moved by hand: no timing of the machine's
    told = ToldLog(window=0.5, clock=lambda: now[0])
    down, other = StoreError("sqlite (/srv/a.db): disk I/O error"), StoreError("locked")
    with caplog.at_level(logging.DEBUG, logger="chatmem.server"):
        first = []
        for _ in range(3):
            first.append(told.reference(down, "POST /v1/recall"))
            now[0] += 0.1
        assert told.reference(other, "POST /v1/recall") != first[0]
        now[0] = 0.5  # the window is over
        later = told.reference(down, "POST /v1/context")
    assert len(set(first)) == 1 and later != first[0]
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 3, warnings
    assert warnings[0] == (f"POST /v1/recall: StoreError (reference {first[0]}): "
                           "sqlite (/srv/a.db): disk I/O error"), warnings
    assert warnings[2] == (f"POST /v1/context: StoreError (reference {later}; told 2 "
                           "more time(s) in the 0.5 s after its last warning): "
                           "sqlite (/srv/a.db): disk I/O error"), warnings


def test_errors_differing_only_in_their_values_are_one_told_error(
        caplog: pytest.LogCaptureFixture) -> None:
    """chatmem.server.ToldLog groups an error by its kind and its words with what varies
    per request masked (a number, a port, a hex id, a quoted value): the same failure
    naming another request's values is told again (DEBUG, under the first WARNING's
    reference), each line holding its whole text; another kind, or other words, is its
    own error."""
    import logging

    from chatmem.errors import EmbeddingUnavailable, StoreError
    from chatmem.server import ToldLog

    told = ToldLog()
    varying = [StoreError("sqlite (/srv/a.db): database is locked after 5003 ms"),
               StoreError("sqlite (/srv/a.db): database is locked after 5011 ms"),
               StoreError('postgres (10.0.0.7:5433/chat) request 3f2c1a9e-77aa timed out'),
               StoreError('postgres (10.0.0.9:6432/chat) request 0b91ffe2-4c1d timed out'),
               StoreError("damaged row in table sessions (session id 'alice'): column x"),
               StoreError("damaged row in table sessions (session id 'bob'): column x")]
    with caplog.at_level(logging.DEBUG, logger="chatmem.server"):
        refs = [told.reference(exc, "POST /v1/recall") for exc in varying]
        other = told.reference(EmbeddingUnavailable(str(varying[0])), "POST /v1/recall")
        words = told.reference(StoreError("sqlite (/srv/a.db): disk I/O error 5003"),
                               "POST /v1/recall")
    assert refs[0] == refs[1] and refs[2] == refs[3] and refs[4] == refs[5], refs
    assert len({refs[0], refs[2], refs[4], other, words}) == 5, (refs, other, words)
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(warnings) == 5 and len(debug) == 3, (warnings, debug)
    assert warnings[0].endswith("database is locked after 5003 ms"), warnings
    assert debug[0] == (f"POST /v1/recall: StoreError (reference {refs[0]}, told again "
                        "within 60 s of its warning): sqlite (/srv/a.db): database is "
                        "locked after 5011 ms"), debug
    assert "0b91ffe2-4c1d" in debug[1] and "(session id 'bob')" in debug[2], debug


def test_errors_differing_in_their_http_status_are_two_told_errors(
        caplog: pytest.LogCaptureFixture) -> None:
    """chatmem.server.ToldLog masks the numbers of an error's words, but an HTTP status
    (three digits after HTTP or status) is the kind of failure, not a request's value: a
    provider's 401 (a revoked key) and its 500 were one told error, and the caller of
    the second was given the reference of a WARNING showing the first. Now each status
    is its own error; the same status with another request id is still one."""
    import logging

    from chatmem.errors import EmbeddingUnavailable
    from chatmem.server import ToldLog

    told = ToldLog()
    said = ["HTTP 401: failed (request 3f2c1a9e-77aa)",
            "HTTP 500: failed (request 3f2c1a9e-77aa)",
            "HTTP 500: failed (request 0b91ffe2-4c1d)",
            "rejected with status 503 after 5003 ms", "rejected with status 429 after 5011 ms"]
    with caplog.at_level(logging.DEBUG, logger="chatmem.server"):
        refs = [told.reference(EmbeddingUnavailable(f"openai: {words}"), "POST /v1/recall")
                for words in said]
    assert len(set(refs)) == 4 and refs[1] == refs[2], refs
    warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    debug = [r.getMessage() for r in caplog.records if r.levelno == logging.DEBUG]
    assert len(warnings) == 4 and len(debug) == 1, (warnings, debug)
    assert "HTTP 401" in warnings[0] and "HTTP 500" in warnings[1], warnings
    assert "0b91ffe2-4c1d" in debug[0] and refs[1] in debug[0], debug


def test_a_namespace_store_that_cannot_open_is_not_located_for_a_user_key(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    """R6: a namespace's store is opened at its first request; one that the server's
    configuration cannot open (it recorded a separate vector index the server was not
    given: a ConfigError naming that index's folder or host) is the server's failure,
    not the request's: a 503 StoreError, which a user key reads without the index's
    location (the store's kind of failure and what to do, with a reference), an owner
    key whole; it was a 400 ConfigError naming the folder to every key."""
    import logging

    from chatmem import SyncMemory

    folder = tmp_path / "hidden-vectors-4417"
    with SyncMemory.open(f"sqlite:///{tmp_path}/alice.db", vector=f"qdrant+local://{folder}",
                         embedder=Embedder(RecordingProvider())) as mem:
        mem.add([{"session_id": "s1", "content": "the lighthouse trip is on sunday"}])
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=keys(),
                     embedder=Embedder(RecordingProvider()))
    hidden = ["hidden-vectors-4417", str(tmp_path)]
    with caplog.at_level(logging.WARNING, logger="chatmem"), running(app) as base:
        said = _store_failure_located_for_the_owner_only(base, hidden, caplog)
    assert "its store cannot be opened as the server is configured: this store's " \
           "vectors live in a separate index" in said[-1], said[-1]
