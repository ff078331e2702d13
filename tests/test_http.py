"""The HTTP API (I4, R3, R4, R5) over a real uvicorn server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import contextlib
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ConfigError
from chatmem.server.http import KeyTable, check_bind, create_app
from providers import RecordingProvider

ALICE = "alice-key-0123456789abcdef"
ALICE_BOT = "alice-bot-key-0123456789ab"
BOB = "bob-key-0123456789abcdef00"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def running(app: Any) -> Iterator[str]:
    """The app served by uvicorn on 127.0.0.1 in a background thread."""
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port,
                                           log_level="warning", lifespan="on"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert time.monotonic() < deadline, "server did not start"
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=20)


def keys() -> KeyTable:
    return KeyTable.from_mapping({"keys": {
        "alice": {"key": ALICE, "namespace": "alice", "role": "owner"},
        "alice-bot": {"key": ALICE_BOT, "namespace": "alice", "role": "user"},
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
        # a second key of the same namespace sees that namespace
        assert recall_texts(bot, "locker code") == ["alice's locker code is 4471"]
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


def test_bad_input_gets_a_clear_error_and_changes_nothing(api: str) -> None:
    with client(api, ALICE) as c:
        r = c.post("/v1/messages", json={"messages": [{"session_id": "s1"}]})
        assert r.status_code == 422 and "messages.0.content" in r.json()["error"]["message"]
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
        r = c.post("/v1/rewrite", json={"session": "nope", "ts": 1, "content": "y"})
        assert r.status_code == 404
        r = c.post("/v1/messages", content=b"{not json",
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 422
        r = c.post("/v1/messages", content=b"x" * (8 * 1024 * 1024 + 1),
                   headers={"Content-Type": "application/json"})
        assert r.status_code == 413
        assert c.get("/v1/stats").json()["messages"] == 0  # none of it was stored


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
        text = anon.get("/metrics").text
        assert 'chatmem_messages{namespace="alice"} 1' in text
        assert 'route="/v1/messages",status="200"' in text
        paths = anon.get("/openapi.json").json()["paths"]
        for p in ("/v1/messages", "/v1/rewrite", "/v1/recall", "/v1/context", "/v1/settings",
                  "/v1/clear", "/v1/stats", "/v1/tool", "/health", "/metrics"):
            assert p in paths, p


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
    with pytest.raises(ConfigError, match="key or key_sha256"):
        KeyTable.from_mapping({"keys": {"a": {"namespace": "a"}}})
    with pytest.raises(ConfigError, match="at least 16"):
        KeyTable.from_mapping({"keys": {"a": {"key": "short", "namespace": "a"}}})
    with pytest.raises(ConfigError, match="without API keys"):
        check_bind("0.0.0.0", None)
    check_bind("127.0.0.1", None)
    with pytest.raises(ConfigError, match="must contain {namespace}"):
        create_app(url="sqlite:///one.db", keys=keys(), embedder=Embedder(RecordingProvider()))


def test_chatmem_serve_runs_with_the_real_model(tmp_path: Path) -> None:
    keys_file = tmp_path / "keys.toml"
    keys_file.write_text(f'[keys.me]\nkey = "{ALICE}"\nnamespace = "me"\nrole = "owner"\n',
                         encoding="utf-8")
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatmem", "serve", "--db", f"sqlite:///{tmp_path}/{{namespace}}.db",
         "--keys", str(keys_file), "--port", str(port)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{base}/health", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert proc.poll() is None, proc.stdout.read().decode()  # type: ignore[union-attr]
            assert time.monotonic() < deadline, "chatmem serve did not come up"
            time.sleep(0.2)
        with client(base, ALICE) as c:
            add(c, "My passport expires in March 2027", "I had pasta for lunch")
            wait_indexed(c, 2)
            assert recall_texts(c, "when does my passport run out?")[0].startswith(
                "My passport")
    finally:
        proc.terminate()
        proc.wait(timeout=30)
