"""The MCP server (I5) end to end: ``chatmem mcp`` as a real subprocess, driven by the
MCP SDK's own clients over stdio and streamable HTTP."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import pytest

pytest.importorskip("mcp")

from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp_types import CallToolResult, TextContent

from chatmem import Memory
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import StoreClosed
from chatmem.server.mcp import create_server
from chatmem.tool import tool_schema

PASSPORT = "My passport expires in March 2027"


def text_of(result: CallToolResult) -> str:
    return "\n".join(c.text for c in result.content if isinstance(c, TextContent))


async def recall(client: ClientSession, query: str, **extra: Any) -> CallToolResult:
    result = await client.call_tool("memory_recall", {"query": query, **extra})
    assert not result.is_error, text_of(result)
    return result


async def recall_until(client: ClientSession, query: str, needle: str,
                       timeout: float = 30.0) -> CallToolResult:
    """Poll until the background indexer has made ``needle`` findable."""
    deadline = time.monotonic() + timeout
    while True:
        result = await recall(client, query)
        if needle in text_of(result) or time.monotonic() > deadline:
            return result
        await asyncio.sleep(0.3)


def server_args(db: Path, *extra: str) -> list[str]:
    return ["-m", "chatmem", "mcp", "--db", str(db), "--session", "alice-dm",
            "--platform", "cli", "--speaker-id", "alice", *extra]


async def test_stdio_end_to_end(tmp_path: Path) -> None:
    params = StdioServerParameters(command=sys.executable, args=server_args(tmp_path / "m.db"))
    with (tmp_path / "server.log").open("w") as errlog, anyio.fail_after(90):
        async with stdio_client(params, errlog=errlog) as (read, write), \
                ClientSession(read, write) as client:
            init = await client.initialize()
            assert init.server_info.name == "chatmem"

            tools = {t.name: t for t in (await client.list_tools()).tools}
            assert set(tools) == {"memory_recall", "memory_add"}
            own = tool_schema(Config())["function"]
            assert tools["memory_recall"].description == own["description"]
            schema = tools["memory_recall"].input_schema
            assert schema["properties"] == own["parameters"]["properties"]
            assert schema["required"] == ["query"]
            assert tools["memory_add"].input_schema["required"] == ["content"]

            ids = []
            for content in (PASSPORT, "I like green tea", "The dentist is on Tuesday"):
                added = await client.call_tool("memory_add", {"content": content})
                assert not added.is_error, text_of(added)
                assert added.structured_content is not None
                assert added.structured_content["session"] == "alice-dm"
                assert isinstance(added.structured_content["ts"], int)
                ids.append(added.structured_content["id"])
            assert len(set(ids)) == 3

            await recall_until(client, "passport", PASSPORT)
            result = await recall(client, "when does my passport expire?")
            assert PASSPORT in text_of(result)
            assert result.structured_content is not None
            hits = result.structured_content["hits"]
            assert hits and hits[0]["id"] == ids[0]
            assert hits[0]["session_id"] == "alice-dm"

            # chatmem's validation comes back as a tool error naming the problem ...
            bad = await client.call_tool("memory_add", {"content": "   "})
            assert bad.is_error
            assert "content is empty" in text_of(bad)
            bad = await client.call_tool("memory_recall", {"query": "tea", "top_k": 0})
            assert bad.is_error
            assert "top_k" in text_of(bad)
            bad = await client.call_tool("memory_recall", {"query": ""})
            assert bad.is_error
            assert "query must be a non-empty string" in text_of(bad)
            bad = await client.call_tool("memory_recall", {"query": "tea", "limit": 3})
            assert bad.is_error
            assert "limit" in text_of(bad)

            # ... and the server keeps serving
            added = await client.call_tool("memory_add", {"content": "Assistant noted it",
                                                          "role": "assistant"})
            assert not added.is_error, text_of(added)
            result = await recall(client, "green tea", scope="session", top_k=2)
            assert result.structured_content is not None
            assert result.structured_content["scope"] == "session"


async def test_create_server_in_process(bow_embedder: Embedder) -> None:
    """The lifespan opens the memory once and closes it; adds land where they should."""
    opened: list[Memory] = []

    async def open_memory() -> Memory:
        opened.append(await Memory.open("memory://", embedder=bow_embedder))
        return opened[-1]

    server = create_server(open_memory, session="alice-dm", platform="cli", speaker_id="alice")
    assert not opened  # nothing is opened before the server runs
    async with Client(server) as client:
        assert len(opened) == 1
        mem = opened[0]
        user = await client.call_tool("memory_add", {"content": "I like green tea"})
        bot = await client.call_tool("memory_add", {
            "content": "Noted", "role": "assistant", "session": "notes",
            "speaker_name": "Bot"})
        assert not user.is_error and not bot.is_error
        assert user.structured_content and bot.structured_content
        assert bot.structured_content["session"] == "notes"
        got = await mem.store.get([user.structured_content["id"],
                                   bot.structured_content["id"]])
        u, b = got[user.structured_content["id"]], got[bot.structured_content["id"]]
        assert (u.session_id, u.role, u.speaker_id, u.platform) == (
            "alice-dm", "user", "alice", "cli")
        assert (b.session_id, b.role, b.speaker_id, b.speaker_name, b.platform) == (
            "notes", "assistant", None, "Bot", "cli")
        await mem.flush(10)
        result = await client.call_tool("memory_recall", {"query": "green tea"})
        assert not result.is_error, text_of(result)
        assert "green tea" in text_of(result)
        bad = await client.call_tool("memory_add", {"content": "x", "role": "system"})
        assert bad.is_error
    with pytest.raises(StoreClosed):  # closed at shutdown
        await mem.store.get([user.structured_content["id"]])


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def wait_for_port(port: int, proc: subprocess.Popen[bytes], log: Path,
                        timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        if proc.poll() is not None:
            pytest.fail(f"server exited with {proc.returncode}:\n{log.read_text()}")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            if time.monotonic() > deadline:
                pytest.fail(f"server did not listen on {port}:\n{log.read_text()}")
            await asyncio.sleep(0.2)
        else:
            writer.close()
            await writer.wait_closed()
            return


async def test_streamable_http(tmp_path: Path) -> None:
    port = free_port()
    log = tmp_path / "server.log"
    with log.open("w") as errlog:
        proc = subprocess.Popen(
            [sys.executable, *server_args(tmp_path / "m.db", "--transport", "http",
                                          "--port", str(port))],
            stdin=subprocess.DEVNULL, stdout=errlog, stderr=errlog)
    try:
        await wait_for_port(port, proc, log)
        with anyio.fail_after(60):
            async with streamable_http_client(f"http://127.0.0.1:{port}/mcp") as (read, write), \
                    ClientSession(read, write) as client:
                await client.initialize()
                names = {t.name for t in (await client.list_tools()).tools}
                assert names == {"memory_recall", "memory_add"}
                added = await client.call_tool("memory_add", {"content": PASSPORT})
                assert not added.is_error, text_of(added)
                result = await recall_until(client, "when does my passport expire?", PASSPORT)
                assert PASSPORT in text_of(result)
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    assert "Traceback" not in log.read_text(), log.read_text()
