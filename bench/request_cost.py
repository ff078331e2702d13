"""What one request within the server's limits costs ``chatmem serve``: CPU time, wall
time and peak RSS of the server process, per request, against an ordinary one.

    python bench/request_cost.py [--store /tmp/request-cost.db] [--messages 3000]
                                 [--only NAME …] [--out bench/results/request_cost.json]

The store (SQLite) is built once through the server itself from LoCoMo turns (split
into their sessions, each registered with metadata) and the Chinese chat set, with the
configured default local model, and reused while its file exists. Each case starts
from an idle server (the indexer done): the server's CPU time is read from
``/proc/<pid>/stat`` around the request and its peak RSS from ``VmHWM`` after
resetting it (``/proc/<pid>/clear_refs``), so each row is that request alone.

Recorded run (``bench/results/request_cost.json``): 2 cores (shared), SQLite store of
3,780 messages in 166 sessions, model ``local:all-MiniLM-L6-v2`` (the default ``auto``).
An ordinary recall costs 0.01 s of CPU; the rows over 2 s are filters of 999
conditions (SQLite evaluates each on every vector row, JSON parsed per condition).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import DEFAULT_LOCOMO, free_port, machine, print_table, proc_status_kb, write_json
from server import wait_healthy

HERE = Path(__file__).resolve().parent
CLK = os.sysconf("SC_CLK_TCK")


def cpu_s(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLK


def reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")


def start_server(db: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "chatmem", "serve", "--db", db, "--port", str(port),
         "--client-timeout", "120"],
        stdout=log.open("wb"), stderr=subprocess.STDOUT)
    try:
        wait_healthy(proc, f"http://127.0.0.1:{port}")
    except SystemExit:  # its output is in the log, not a pipe
        raise SystemExit(f"server did not start: {log.read_text()[-2000:]}") from None
    return proc


def wait_idle(client: httpx.Client, pid: int) -> None:
    """Until nothing is pending and the process stops using CPU."""
    while True:
        stats = client.get("/v1/stats").json()
        if not stats["pending"]:
            break
        time.sleep(1)
    last = cpu_s(pid)
    while True:
        time.sleep(0.5)
        now = cpu_s(pid)
        if now - last < 0.02:
            return
        last = now


def build(client: httpx.Client, messages: int) -> int:
    data = json.loads(DEFAULT_LOCOMO.read_text(encoding="utf-8"))
    added = 0
    batch: list[dict[str, Any]] = []

    def flush() -> None:
        nonlocal batch, added
        if batch:
            r = client.post("/v1/messages", json={"messages": batch}, timeout=600)
            r.raise_for_status()
            added += len(batch)
            batch = []

    t0 = 1_600_000_000_000
    for ci, conv in enumerate(data):
        c = conv["conversation"]
        n = 1
        while f"session_{n}" in c and added + len(batch) < messages:
            sid = f"c{ci}-s{n}"
            client.put(f"/v1/sessions/{sid}", json={
                "resource_id": f"user{ci}", "origin_platform": "tg", "chat_type": "private",
                "metadata": {"conv": ci, "n": n, "tags": [f"t{n % 7}", f"t{ci}"],
                             "lang": "en", "deep": {"a": {"b": {"c": n}}}}}).raise_for_status()
            for k, turn in enumerate(c[f"session_{n}"]):
                text = turn["text"]
                batch.append({"session_id": sid, "content": text, "id": f"{sid}-{k}",
                              "speaker_id": turn["speaker"], "speaker_name": turn["speaker"],
                              "ts": t0 + (ci * 1000 + n) * 3_600_000 + k * 1000})
                if len(batch) >= 200:
                    flush()
            n += 1
    flush()
    zh = json.loads((HERE / "data" / "zh_chat.json").read_text(encoding="utf-8"))
    for conv in zh["conversations"]:
        for s in conv["sessions"]:
            client.put(f"/v1/sessions/{s['id']}", json={
                "origin_platform": s.get("platform") or "qq",
                "chat_type": s.get("chat_type"),
                "metadata": {"conv": conv["id"], "lang": "zh"}}).raise_for_status()
            for m in s["messages"]:
                batch.append({"session_id": s["id"], "content": m["content"], "id": m["id"],
                              "role": m["role"], "speaker_id": m.get("speaker_id"),
                              "speaker_name": m.get("speaker_name"),
                              "ts": 1_700_000_000_000 + added + len(batch)})
                if len(batch) >= 200:
                    flush()
    flush()
    return added


# --------------------------------------------------------------------------- cases

LATIN_WORDS = [f"w{i}x" for i in range(5000)]
ENGLISH = ("what did melanie say about the painting she made at the lake last summer "
           "and when did caroline go to the support group meeting ")


def recall(**body: Any) -> tuple[str, str, Callable[[], Any]]:
    """A ``POST /v1/recall`` case: the ordinary query with ``body``'s fields."""
    return "POST", "/v1/recall", lambda: {"query": ENGLISH, **body}


def cases() -> dict[str, tuple[str, str, Callable[[], Any]]]:
    """name → (method, path, body maker)."""
    long_en = (ENGLISH * 40)[:4000]
    distinct = " ".join(LATIN_WORDS)[:4000]
    cjk = ("我们上次讨论的青柠项目需求文档什么时候交给产品经理" * 200)[:4000]
    one_char = "a" * 4000
    one_cjk = "好" * 4000
    many_words_list = [" ".join(LATIN_WORDS[(i * 5) % 4960:(i * 5) % 4960 + 40])
                       for i in range(1000)]
    big_inputs = ["x " * 99_999] * 40  # 40 inputs of 200,000 chars: 8 MB body
    ids = [f"id-{i:05d}-{'z' * 480}" for i in range(10_000)]  # speakers/exclude_ids
    nested: dict[str, Any] = {"conv": {"$gte": 0}}
    for _ in range(31):
        nested = {"$or": [nested, {"n": {"$lt": 0}}]}
    wide = {"$or": [{f"meta{i}.x": {"$eq": i}} for i in range(499)]}
    in_many = {"n": {"$in": list(range(999))}}
    field_long = {".".join(["a"] * 63): {"$exists": True}}
    wide_or = {"$or": [{"meta.conv": {"$eq": 1000 + i}} for i in range(999)]}
    wide_and = {"$and": [{"meta.conv": {"$ne": 1000 + i}} for i in range(999)]}
    return {
        "recall ordinary": ("POST", "/v1/recall", lambda: {"query": ENGLISH}),
        "recall 4000 en": ("POST", "/v1/recall", lambda: {"query": long_en}),
        "recall 4000 distinct": ("POST", "/v1/recall", lambda: {"query": distinct}),
        "recall 4000 cjk": ("POST", "/v1/recall", lambda: {"query": cjk}),
        "recall 4000 'a'": ("POST", "/v1/recall", lambda: {"query": one_char}),
        "recall 4000 '好'": ("POST", "/v1/recall", lambda: {"query": one_cjk}),
        "recall 1000 inputs": ("POST", "/v1/recall", lambda: {"query": many_words_list}),
        "recall 8MB inputs": ("POST", "/v1/recall", lambda: {"query": big_inputs}),
        "recall top_k 1000 w100": recall(top_k=1000, window=100, cross_session=True),
        "recall top_k 1000 w100 min0": recall(query=long_en, top_k=1000, window=100,
                                              min_score=0, cross_session=True),
        "recall 10k exclude_ids": recall(exclude_ids=ids),
        "recall 10k speakers": recall(speakers=ids),
        **{f"recall filter {name}": recall(filter=f) for name, f in (
            ("nested 32", nested), ("500 or", wide), ("$in 999", in_many),
            ("64-key field", field_long), ("999 $or", wide_or), ("999 $and", wide_and))},
        "recall filter 999 $and k20 w5": recall(filter=wide_and, top_k=20, window=5,
                                                cross_session=True),
        "recall filter 1 k1000 w100": recall(filter={"meta.lang": "en"}, top_k=1000,
                                             window=100, cross_session=True),
        "context ordinary": ("POST", "/v1/context", lambda: {
            "turn": ENGLISH, "session": "c0-s1"}),
        "context 4000 distinct": ("POST", "/v1/context", lambda: {
            "turn": distinct, "session": "c0-s1", "explain": True}),
        "context 1000 msgs": ("POST", "/v1/context", lambda: {
            "turn": [{"role": "user", "content": w} for w in many_words_list],
            "session": "c0-s1"}),
        "context 10k exclude": ("POST", "/v1/context", lambda: {
            "turn": ENGLISH, "session": "c0-s1", "exclude_ids": ids, "speakers": ids[:5000]}),
        "tool ordinary": ("POST", "/v1/tool", lambda: {
            "arguments": {"query": ENGLISH}, "caller": {"session_id": "c0-s1"}}),
        "tool max": ("POST", "/v1/tool", lambda: {
            "arguments": {"query": "好" * 200_000, "top_k": 10**9, "context_window": 10**9,
                          "cross_session": True, "scope": "all"},
            "caller": {"session_id": "c0-s1"}}),
        "list text search": ("GET", "/v1/messages?text=" + "a" * 512 + "&limit=1000", dict),
        "list text %": ("GET", "/v1/messages?text=" + "%_" * 256 + "&limit=1000", dict),
        "sessions 1000": ("GET", "/v1/sessions?limit=1000", dict),
        "get 1000 ids": ("POST", "/v1/messages/get", lambda: {"ids": ids[:1000]}),
        "delete dry 1000": ("POST", "/v1/messages/delete", lambda: {
            "ids": ids[:1000], "dry_run": True}),
        "forget dry speaker": ("POST", "/v1/forget", lambda: {
            "speaker_id": "Caroline", "dry_run": True}),
        "stats": ("GET", "/v1/stats", dict),
    }


def measure(client: httpx.Client, pid: int, method: str, path: str, body: Any
            ) -> dict[str, Any]:
    payload = None if method == "GET" else json.dumps(body).encode()
    reset_peak(pid)
    base_rss = proc_status_kb(pid, "VmRSS") or 0
    c0, t0 = cpu_s(pid), time.perf_counter()
    r = client.request(method, path, content=payload,
                       headers={"content-type": "application/json"}, timeout=600)
    wall = time.perf_counter() - t0
    cpu = cpu_s(pid) - c0
    peak = proc_status_kb(pid, "VmHWM") or 0
    return {"status": r.status_code, "body_bytes": len(payload or b""),
            "answer_bytes": len(r.content), "wall_s": round(wall, 3),
            "cpu_s": round(cpu, 2), "rss_mb": round(base_rss / 1024),
            "peak_mb": round(peak / 1024), "peak_over_mb": round((peak - base_rss) / 1024),
            "error": r.json().get("error", {}).get("message", "")[:120]
            if r.status_code >= 400 else ""}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--store", default="/tmp/request-cost.db")
    ap.add_argument("--messages", type=int, default=3000, help="LoCoMo turns (plus 900 zh)")
    ap.add_argument("--port", type=int, default=0)
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--out", default=str(HERE / "results" / "request_cost.json"))
    args = ap.parse_args()
    port = args.port or free_port()
    work = Path(tempfile.mkdtemp(prefix="request-cost-"))
    log = work / "server.log"
    fresh = not Path(args.store).exists()
    db = str(work / "store.db")
    if not fresh:
        shutil.copy(args.store, db)
    proc = start_server(db, port, log)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=600) as client:
            if fresh:
                t = time.perf_counter()
                n = build(client, args.messages)
                wait_idle(client, proc.pid)
                print(f"built {n} messages in {time.perf_counter() - t:.0f} s")
            wait_idle(client, proc.pid)
            stats = client.get("/v1/stats").json()
            for warm in ("recall ordinary", "context ordinary", "tool ordinary"):
                method, path, make = cases()[warm]  # the model and the indexes loaded
                client.request(method, path, json=make()).raise_for_status()
            rows, out = [], []
            for name, (method, path, make) in cases().items():
                if args.only and not any(o in name for o in args.only):
                    continue
                result = measure(client, proc.pid, method, path, make())
                result["request"] = name
                out.append(result)
                rows.append([name, result["status"], f"{result['body_bytes']:,}",
                             f"{result['answer_bytes']:,}", result["wall_s"], result["cpu_s"],
                             result["peak_over_mb"], result["error"][:60]])
                print(rows[-1], flush=True)
    finally:
        proc.terminate()
        proc.wait(30)
    if fresh:
        shutil.copy(db, args.store)
    shutil.rmtree(work)
    print_table("one request's cost (server process)",
                ["request", "status", "body B", "answer B", "wall s", "cpu s", "+peak MB",
                 "error"], rows)
    write_json(args.out, {"machine": {**machine(), "note": "2 cores, shared"},
                          "store": {"kind": "sqlite", "messages": stats["messages"],
                                    "sessions": stats["sessions"],
                                    "model": (stats.get("embedder") or {}).get("model_id")},
                          "results": out})


if __name__ == "__main__":
    main()
