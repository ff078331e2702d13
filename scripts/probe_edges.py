"""Try chatmem as a hostile user would, at every door, and count what went wrong.

    python scripts/probe_edges.py [--cases 2000] [--seed 7] [--out probe.json]

* library: random JSON-like junk (and worse: sets, bytes, NaN, lone surrogates,
  self-references, huge numbers) fed to ``add``, ``recall``, ``context``,
  ``rewrite``, ``call_tool``, ``upsert_session`` and ``Config.load``; counts
  answers that are neither a result nor a ``ChatmemError`` ("raw"), and errors
  after which the store changed ("changed").
* CLI: bad arguments and stores; counts tracebacks and exit codes other than 2.
* HTTP (``chatmem serve`` in a subprocess on 127.0.0.1, two namespaces, owner and
  user keys): malformed, oversized, unauthenticated and widening requests plus
  random junk bodies on every route; counts 500s, error bodies not in the
  documented ``{"error": {...}}`` shape, and leaks (a user key seeing a message its
  session may not see, or another namespace's).

Every count should be zero. Prints a table and writes JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from chatmem import Memory, Message  # noqa: E402
from chatmem.config import Config  # noqa: E402
from chatmem.embedding import Embedder  # noqa: E402
from chatmem.errors import ChatmemError  # noqa: E402
from chatmem.transfer import export_jsonl  # noqa: E402
from providers import RecordingProvider  # noqa: E402

OWNER = "probe-owner-key-0123456789"
USER = "probe-user-key-01234567890"
OTHER = "probe-other-key-0123456789"


# --------------------------------------------------------------------------- junk


def junk(rng: random.Random, depth: int = 0) -> Any:
    """One random value a careless or hostile caller might send."""
    self_ref: dict[str, Any] = {}
    self_ref["x"] = self_ref
    scalars: list[Callable[[], Any]] = [
        lambda: None, lambda: rng.choice([True, False]), lambda: rng.randint(-5, 5),
        lambda: rng.choice([2**63, 2**64, -(2**70), 300_000_000_000_000, 10**30]),
        lambda: rng.choice([math.nan, math.inf, -math.inf, 0.5, -0.0, 1e308]),
        lambda: rng.choice(["", " ", "x", "s1", "user", "\x00", "\ud800", "a\udfffb",
                            "x" * 300_000, "$eq", "$and", "meta.a", "all", "session",
                            "🙂", "\u202e", "../../etc/passwd"]),
        lambda: rng.choice([b"bytes", {1, 2}, frozenset(), object(), self_ref]),
    ]
    if depth < 3 and rng.random() < 0.35:
        kind = rng.randrange(3)
        n = rng.randint(0, 4)
        if kind == 0:
            return [junk(rng, depth + 1) for _ in range(n)]
        if kind == 1:
            return {rng.choice(["a", "b", "content", "session_id", 1, "$or"]):
                    junk(rng, depth + 1) for _ in range(n)}
        return tuple(junk(rng, depth + 1) for _ in range(n))
    return rng.choice(scalars)()


def message_like(rng: random.Random) -> Any:
    if rng.random() < 0.3:
        return junk(rng)
    base: dict[str, Any] = {"session_id": "s1", "content": "hello there"}
    for name in rng.sample(["session_id", "content", "role", "ts", "id", "kind", "mentions",
                            "metadata", "speaker_id", "platform", "visible_content",
                            "bogus"], rng.randint(1, 3)):
        base[name] = junk(rng)
    return base


# --------------------------------------------------------------------------- library


async def _snapshot(mem: Memory) -> str:
    out = io.StringIO()
    await export_jsonl(mem.storage, out, vectors=True)
    return out.getvalue()


async def probe_library(cases: int, rng: random.Random) -> dict[str, int]:
    counts = {"cases": 0, "results": 0, "chatmem_errors": 0, "raw": 0, "changed": 0}
    mem = await Memory.open("memory://", embedder=Embedder(RecordingProvider(dim=16)),
                            config=Config.load(indexing={"concurrency": 1}))
    await mem.add([Message(session_id="s1", content=f"seed {i}", ts=1000 + i)
                   for i in range(5)])
    await mem.flush(timeout=30)
    calls: list[Callable[[], Awaitable[Any]]] = [
        lambda: mem.add(message_like(rng) if rng.random() < 0.7
                        else [message_like(rng) for _ in range(2)]),
        lambda: mem.recall(junk(rng) if rng.random() < 0.5 else "seed",
                           **{k: junk(rng) for k in rng.sample(
                               ["session", "platform", "top_k", "min_score", "scope",
                                "window", "cross_session", "filter", "speakers",
                                "exclude_ids", "now"], rng.randint(0, 3))}),
        lambda: mem.context(junk(rng), session=junk(rng) if rng.random() < 0.5 else "s1"),
        lambda: mem.rewrite(junk(rng) if rng.random() < 0.5 else "s1",
                            junk(rng) if rng.random() < 0.5 else 1000,
                            content=junk(rng), metadata=junk(rng)),
        lambda: mem.call_tool(junk(rng) if rng.random() < 0.5 else {"query": junk(rng)},
                              junk(rng) if rng.random() < 0.5 else {"session_id": junk(rng)}),
        lambda: mem.upsert_session(junk(rng) if rng.random() < 0.5
                                   else {"id": "s9", "metadata": junk(rng)}),
    ]

    async def config_load() -> Any:
        return Config.load(junk(rng) if rng.random() < 0.5 else {
            rng.choice(["search", "context_expand", "embedding", "scope", "timezone"]):
            junk(rng)})

    calls.append(config_load)
    for _ in range(cases):
        call = rng.choice(calls)
        before = await _snapshot(mem)
        counts["cases"] += 1
        try:
            await call()
            counts["results"] += 1
            await mem.flush(timeout=30)  # so the next snapshot sees settled indexing
        except ChatmemError:
            counts["chatmem_errors"] += 1
            await mem.flush(timeout=30)
            if await _snapshot(mem) != before:
                counts["changed"] += 1
        except Exception as exc:  # what the probe is looking for
            counts["raw"] += 1
            print(f"  raw {type(exc).__name__}: {str(exc)[:120]}", file=sys.stderr)
    await mem.close()
    return counts


# --------------------------------------------------------------------------- CLI


def _cli(*args: str, stdin: bytes | None = None, cwd: str | None = None
         ) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "chatmem", *args], input=stdin,
                          capture_output=True, timeout=300, cwd=cwd)


def probe_cli(tmp: Path) -> dict[str, int]:
    db = str(tmp / "cli.db")
    assert _cli("add", "--db", db, "--session", "s", "--no-wait", "seed").returncode == 0
    foreign = tmp / "foreign.db"
    import sqlite3

    with sqlite3.connect(foreign) as c:
        c.execute("CREATE TABLE foo (x)")
    (tmp / "bad.toml").write_text("[search]\ntime_weight = \"0.5\"\n")
    (tmp / "broken.toml").write_text("[search\n")
    cases = [
        ["recall", "--db", db, "--window", "-1", "x"],
        ["recall", "--db", db, "--top-k", "0", "x"],
        ["recall", "--db", db, "--min-score", "nan", "x"],
        ["recall", "--db", db, "--scope", "resource", "--session", "s", "x"],
        ["add", "--db", db, "--session", "s", "--ts", "99999999999999999999", "x"],
        ["add", "--db", db, "--session", "s", "--ts", "-1", "x"],
        ["add", "--db", db, "--session", " ", "x"],
        ["add", "--db", db, "--session", "s", ""],
        ["recall", "--db", str(tmp / "typo.db"), "x"],
        ["stats", "--db", str(tmp / "typo.db")],
        ["migrate", "--from", f"sqlite:///{tmp}/nope.db", "--to", str(tmp / "m.db")],
        ["stats", "--db", str(foreign)],
        ["add", "--db", str(foreign), "--session", "s", "x"],
        ["stats", "--db", "sqlite:////proc/chat.db"],
        ["add", "--db", "sqlite:////proc/chat.db", "--session", "s", "x"],
        ["stats", "--db", str(tmp)],
        ["stats", "--db", "sqlite://host/x.db"],
        ["stats", "--db", "nosuch://x"],
        ["recall", "--db", db, "--config", str(tmp / "bad.toml"), "x"],
        ["recall", "--db", db, "--config", str(tmp / "broken.toml"), "x"],
        ["recall", "--db", db, "--config", str(tmp / "missing.toml"), "x"],
        ["import", "--db", db, str(tmp / "bad.toml")],
        ["clear", "--db", db, "--target", "nothing", "--yes"],
        ["serve", "--db", db, "--host", "0.0.0.0", "--port", "1"],
        ["mcp", "--db", db, "--transport", "http", "--host", "0.0.0.0", "--port", "1"],
    ]
    counts = {"cases": 0, "tracebacks": 0, "exit_not_2": 0, "multi_line": 0}
    for args in cases:
        proc = _cli(*args)
        err = proc.stderr.decode("utf-8", "replace")
        counts["cases"] += 1
        if "Traceback" in err:
            counts["tracebacks"] += 1
            print(f"  traceback: chatmem {' '.join(args)}", file=sys.stderr)
        if proc.returncode != 2:
            counts["exit_not_2"] += 1
            print(f"  exit {proc.returncode}: chatmem {' '.join(args)}: {err[:200]}",
                  file=sys.stderr)
        elif len(err.strip().splitlines()) > 1 and "Usage:" not in err:
            counts["multi_line"] += 1
            print(f"  several lines: chatmem {' '.join(args)}: {err[:300]}", file=sys.stderr)
    return counts


# --------------------------------------------------------------------------- HTTP


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _documented(resp: Any) -> bool:
    try:
        body = resp.json()
    except ValueError:
        return False
    err = body.get("error") if isinstance(body, dict) else None
    return isinstance(err, dict) and isinstance(err.get("type"), str) \
        and isinstance(err.get("message"), str)


def probe_http(tmp: Path, cases: int, rng: random.Random) -> dict[str, int]:
    import httpx

    keys = tmp / "keys.toml"
    keys.write_text(
        f'[keys.owner]\nkey = "{OWNER}"\nnamespace = "alice"\nrole = "owner"\n'
        f'[keys.user]\nkey = "{USER}"\nnamespace = "alice"\nrole = "user"\n'
        f'[keys.other]\nkey = "{OTHER}"\nnamespace = "bob"\nrole = "owner"\n')
    port = _free_port()
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatmem", "serve", "--db", f"sqlite:///{tmp}/{{namespace}}.db",
         "--keys", str(keys), "--port", str(port)],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env)
    base = f"http://127.0.0.1:{port}"
    counts = {"requests": 0, "status_500": 0, "undocumented_error": 0, "leaks": 0}
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                if httpx.get(base + "/health", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "server did not start"
            time.sleep(0.2)

        def client(key: str | None) -> httpx.Client:
            headers = {"Authorization": f"Bearer {key}"} if key else {}
            return httpx.Client(base_url=base, headers=headers, timeout=60)

        owner, user, other, anon = client(OWNER), client(USER), client(OTHER), client(None)

        def check(resp: httpx.Response) -> httpx.Response:
            counts["requests"] += 1
            if resp.status_code >= 500 and resp.status_code != 503:
                counts["status_500"] += 1
                print(f"  {resp.status_code}: {resp.request.method} {resp.request.url}: "
                      f"{resp.text[:200]}", file=sys.stderr)
            if resp.status_code >= 400 and not _documented(resp):
                counts["undocumented_error"] += 1
                print(f"  undocumented {resp.status_code}: {resp.request.method} "
                      f"{resp.request.url}: {resp.text[:200]}", file=sys.stderr)
            return resp

        # a world: two sessions, one secret, a narrow scope set by the owner
        check(owner.post("/v1/messages", json={"messages": [
            {"session_id": "a1", "content": "the vault word is kumquat", "speaker_id": "u1"},
            {"session_id": "a2", "content": "hello from a2", "speaker_id": "u2"}]}))
        check(other.post("/v1/messages", json={"messages": [
            {"session_id": "b1", "content": "bob vault word is persimmon"}]}))
        check(owner.put("/v1/settings", json={"scope": "session", "session": "a2"}))
        time.sleep(2)  # background indexing

        def leaked(resp: httpx.Response, secret: str) -> None:
            if resp.status_code == 200 and secret in resp.text:
                counts["leaks"] += 1
                print(f"  leak of {secret!r}: {resp.request.url} {resp.request.content[:200]!r}",
                      file=sys.stderr)

        # the control: an owner asking with scope all does find alice's secret, so a
        # zero leak count means something
        control = check(owner.post("/v1/recall", json={"query": "vault word", "session": "a1",
                                                       "scope": "all"}))
        counts["control_found"] = int("kumquat" in control.text)
        for scope in (None, "all", "user", "platform", "resource", "session", "thread"):
            body: dict[str, Any] = {"query": "vault word", "session": "a2"}
            if scope:
                body["scope"] = scope
            leaked(check(user.post("/v1/recall", json=body)), "kumquat")
            leaked(check(user.post("/v1/context", json={"turn": "vault word",
                                                          "session": "a2"})), "kumquat")
            leaked(check(user.post("/v1/tool", json={
                "arguments": {"query": "vault word", **({"scope": scope} if scope else {})},
                "caller": {"session_id": "a2"}})), "kumquat")
            leaked(check(owner.post("/v1/recall", json={**body, "scope": "all"})), "persimmon")
        # fixed hostile requests
        fixed: list[Callable[[], httpx.Response]] = [
            lambda: anon.post("/v1/messages", json={"messages": []}),
            lambda: client("wrong-key-0123456789abc").get("/v1/stats"),
            lambda: anon.get("/metrics"),
            lambda: user.put("/v1/settings", json={"scope": "all", "session": "a2"}),
            lambda: user.post("/v1/clear", json={"target": "all"}),
            lambda: owner.post("/v1/messages", content=b"{not json",
                               headers={"Content-Type": "application/json"}),
            lambda: owner.post("/v1/messages", content=b"\xff\xfe",
                               headers={"Content-Type": "application/json"}),
            lambda: owner.get("/no/such/route"),
            lambda: owner.delete("/v1/recall"),
            lambda: owner.post("/v1/messages", json={"messages": [
                {"session_id": "a1", "content": "x", "ts": 300000000000000}]}),
            lambda: owner.post("/v1/messages", json={"messages": [
                {"session_id": "a1", "content": "x", "ts": 2**64}]}),
            lambda: owner.post("/v1/recall", json={"query": "x", "window": -1}),
            lambda: owner.post("/v1/recall", json={"query": "x", "now": 2**70}),
            lambda: owner.post("/v1/recall", content=b'{"query": "\\ud800"}',
                               headers={"Content-Type": "application/json"}),
            lambda: owner.post("/v1/recall", json={"query": "x",
                                                   "filter": {"$and": [{}] * 3}}),
            lambda: owner.post("/v1/messages", content=b'{"messages": ' + b"[" * 50_000,
                               headers={"Content-Type": "application/json"}),
            lambda: anon.post("/v1/messages", content=(b"x" * 65536 for _ in range(200)),
                              headers={"Content-Type": "application/json"}),
            lambda: owner.post("/v1/messages", content=(b" " * 65536 for _ in range(200)),
                               headers={"Content-Type": "application/json"}),
        ]
        for make in fixed:
            try:
                check(make())
            except httpx.HTTPError as exc:  # the server may close an oversized upload
                counts["requests"] += 1
                print(f"  (connection closed: {type(exc).__name__})", file=sys.stderr)
        routes = [("POST", "/v1/messages"), ("POST", "/v1/rewrite"), ("POST", "/v1/recall"),
                  ("POST", "/v1/context"), ("PUT", "/v1/settings"), ("POST", "/v1/clear"),
                  ("POST", "/v1/tool"), ("GET", "/v1/settings"), ("GET", "/v1/stats")]
        for _ in range(cases):
            method, path = rng.choice(routes)
            if path == "/v1/clear":
                continue  # keep the world for the leak checks
            c = rng.choice([owner, user])
            payload = junk(rng) if rng.random() < 0.5 else {
                "messages": [message_like(rng)], "query": junk(rng), "session": "a2",
                "scope": junk(rng), "turn": junk(rng), "arguments": junk(rng),
                "caller": {"session_id": "a2"}}
            try:  # ASCII JSON: lone surrogates travel as \ud800 escapes, as an attacker's would
                text = json.dumps(payload, default=str, allow_nan=True)
            except (ValueError, RecursionError):
                text = "{}"
            if method == "GET":
                raw = str(payload)[:50].encode("utf-8", "surrogatepass")  # as a client sends it
                resp = c.get(path, params={"session": raw.decode("utf-8", "replace")})
            else:
                resp = c.request(method, path, content=text.encode("utf-8"),
                                 headers={"Content-Type": "application/json"})
            check(resp)
        for scope in (None, "all"):
            leaked(check(user.post("/v1/recall", json={"query": "vault word", "session": "a2",
                                                        **({"scope": scope} if scope else {})})),
                   "kumquat")
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        err = proc.stderr.read().decode("utf-8", "replace") if proc.stderr else ""
        counts["server_tracebacks"] = err.count("Traceback")
        if counts["server_tracebacks"]:
            print(err[-3000:], file=sys.stderr)
    return counts


# --------------------------------------------------------------------------- main


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cases", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--out", default=None)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    results: dict[str, Any] = {"seed": args.seed}
    with tempfile.TemporaryDirectory() as tmp_dir:
        tmp = Path(tmp_dir)
        results["library"] = asyncio.run(probe_library(args.cases, rng))
        results["cli"] = probe_cli(tmp)
        results["http"] = probe_http(tmp, args.cases // 4, rng)
    print(f"\n{'door':8} {'what':22} {'count':>7}")
    for door, counts in results.items():
        if isinstance(counts, dict):
            for what, n in counts.items():
                print(f"{door:8} {what:22} {n:>7}")
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))
        print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
