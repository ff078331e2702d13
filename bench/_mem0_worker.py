"""mem0 side of ``bench/mem0_side.py``; runs inside the separate virtualenv only.

    <venv>/bin/python bench/_mem0_worker.py SPEC.json OUT.json

SPEC (written by mem0_side.py): conversations with their turns (``dia_id``, the
exact text chatmem embeds, speaker, session, ISO time) and questions, plus
``top_k``, ``threshold`` and ``threads``. OUT: per question the ranked
``dia_id`` s mem0 returned and the search latency, ingest timings, mem0's
version, the warnings it logged, and every outbound network attempt.

mem0 is configured with no LLM work (``add(..., infer=False)``: each message is
stored as it is), its embedded Qdrant (local mode, one folder per conversation
under the work directory) and, as its embedder, chatmem's own local ONNX model
(``chatmem.embedding.create_embedder()``: all-MiniLM-L6-v2 int8) wrapped in
mem0's ``EmbeddingBase``. mem0's config has no slot for a custom embedder class
(its ``EmbedderConfig`` accepts a fixed list of providers), so the memory is
built with the ``openai`` provider and a dummy key (no call is ever made) and
its ``embedding_model`` is then replaced by the wrapper.

Network: the benchmark is offline. Before mem0 is imported, ``socket`` is
patched so that any lookup or connection to a non-loopback address is refused
and recorded; telemetry is switched off with ``MEM0_TELEMETRY=False``.
"""

from __future__ import annotations

import os

os.environ["MEM0_TELEMETRY"] = "False"  # before mem0 is imported: no PostHog client

import asyncio
import json
import logging
import platform
import socket
import sys
import threading
import time
import traceback
from collections import Counter
from pathlib import Path
from typing import Any

BLOCKED: list[str] = []
_LOOPBACK = ("localhost", "127.", "::1", "0:0:0:0:0:0:0:1")
_getaddrinfo = socket.getaddrinfo
_connect = socket.socket.connect
_connect_ex = socket.socket.connect_ex


def _local(host: object) -> bool:
    if isinstance(host, bytes):
        host = host.decode(errors="replace")
    return isinstance(host, str) and (host == "" or host.startswith(_LOOPBACK))


def _guarded_getaddrinfo(host: Any, *args: Any, **kwargs: Any) -> Any:
    if host is not None and not _local(host):
        BLOCKED.append(f"getaddrinfo {host!r} port {args[0] if args else '?'}")
        raise socket.gaierror(socket.EAI_NONAME, f"offline benchmark: lookup of {host} refused")
    return _getaddrinfo(host, *args, **kwargs)


def _check(sock: socket.socket, address: Any) -> None:
    if sock.family == getattr(socket, "AF_UNIX", None):
        return
    host = address[0] if isinstance(address, tuple) else address
    if not _local(host):
        BLOCKED.append(f"connect {address!r}")
        raise ConnectionRefusedError(f"offline benchmark: connection to {address!r} refused")


def _guarded_connect(self: socket.socket, address: Any) -> None:
    _check(self, address)
    return _connect(self, address)


def _guarded_connect_ex(self: socket.socket, address: Any) -> int:
    _check(self, address)
    return _connect_ex(self, address)


socket.getaddrinfo = _guarded_getaddrinfo  # type: ignore[assignment]
socket.socket.connect = _guarded_connect  # type: ignore[method-assign]
socket.socket.connect_ex = _guarded_connect_ex  # type: ignore[method-assign]


class _Collect(logging.Handler):
    """Keeps every distinct warning or error mem0 (or anything else) logs, with a count."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.seen: Counter[str] = Counter()

    def emit(self, record: logging.LogRecord) -> None:
        self.seen[f"{record.levelname} {record.name}: {record.getMessage()[:300]}"] += 1


def _version(dist: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def make_embedder_class() -> type:
    from mem0.embeddings.base import EmbeddingBase

    from chatmem.config import EmbeddingConfig
    from chatmem.embedding import create_embedder

    class ChatmemEmbedding(EmbeddingBase):  # type: ignore[misc]
        """chatmem's Embedder (local ONNX model, LRU cache) behind mem0's interface.

        mem0 calls ``embed`` synchronously, possibly from worker threads; the async
        Embedder runs on one private event loop in a background thread.
        """

        def __init__(self, threads: int) -> None:
            super().__init__()
            self.chatmem = create_embedder(EmbeddingConfig(threads=threads))
            self.config.embedding_dims = self.chatmem.dimensions
            self._loop = asyncio.new_event_loop()
            self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
            self._thread.start()

        def _run(self, coro: Any) -> Any:
            return asyncio.run_coroutine_threadsafe(coro, self._loop).result()

        @staticmethod
        def _role(action: str | None) -> str:
            return "query" if action == "search" else "document"

        def embed(self, text: str, memory_action: str | None = None) -> list[float]:
            vec = self._run(self.chatmem.embed_one((text, self._role(memory_action))))
            return [float(x) for x in vec]

        def embed_batch(self, texts: list[str], memory_action: str = "add"
                        ) -> list[list[float]]:
            role = self._role(memory_action)
            vecs = self._run(self.chatmem.embed_many([(t, role) for t in texts]))
            return [[float(x) for x in v] for v in vecs]

        def close(self) -> None:
            self._loop.call_soon_threadsafe(self._loop.stop)
            self._thread.join(timeout=5)

    return ChatmemEmbedding


def run(spec: dict[str, Any], out: dict[str, Any]) -> None:
    from mem0 import Memory

    work = Path(spec["workdir"])
    embedder = make_embedder_class()(int(spec["threads"]))
    out["embedder"] = {"class": "ChatmemEmbedding(chatmem.embedding.create_embedder())",
                       "model_id": embedder.chatmem.model_id}
    # vectors of a few texts, for the caller to check they match its own embedder
    probe = spec.get("probe_texts", [])
    out["probe_vectors"] = [embedder.embed(t, "add") for t in probe]
    top_k, threshold = int(spec["top_k"]), float(spec["threshold"])
    results: dict[str, Any] = out.setdefault("results", {})
    convs: dict[str, Any] = out.setdefault("conversations", {})
    for conv in spec["conversations"]:
        sid = conv["sample_id"]
        config = {
            "vector_store": {"provider": "qdrant", "config": {
                "collection_name": f"locomo_{sid.replace('-', '_')}",
                "embedding_model_dims": embedder.chatmem.dimensions or 384,
                "path": str(work / f"qdrant-{sid}"), "on_disk": False}},
            "embedder": {"provider": "openai", "config": {"api_key": "offline-unused"}},
            "llm": {"provider": "openai", "config": {"api_key": "offline-unused"}},
            "history_db_path": str(work / f"history-{sid}.db"),
        }
        mem = Memory.from_config(config)
        mem.embedding_model = embedder  # the same ONNX model chatmem runs
        t0 = time.perf_counter()
        for t in conv["turns"]:
            mem.add([{"role": "user", "content": t["text"], "name": t["speaker"]}],
                    user_id=sid, infer=False,
                    metadata={"dia_id": t["dia_id"], "locomo_session": t["session_id"],
                              "created_at": t["time"]})
        ingest_s = time.perf_counter() - t0
        mem.search("warm up", top_k=top_k, filters={"user_id": sid}, threshold=threshold)
        t1 = time.perf_counter()
        short = 0
        for q in conv["questions"]:
            start = time.perf_counter()
            got = mem.search(q["question"], top_k=top_k, filters={"user_id": sid},
                             threshold=threshold)
            ms = (time.perf_counter() - start) * 1000
            hits = got["results"] if isinstance(got, dict) else got
            ranked = [(h.get("metadata") or {}).get("dia_id") for h in hits]
            short += len(ranked) < top_k
            results[q["qid"]] = {"ranked": ranked, "ms": ms}
        convs[sid] = {"turns": len(conv["turns"]), "questions": len(conv["questions"]),
                      "ingest_seconds": ingest_s, "search_seconds": time.perf_counter() - t1,
                      "searches_with_fewer_than_top_k": short}
        print(f"mem0 {sid}: {len(conv['turns'])} turns in {ingest_s:.1f}s, "
              f"{len(conv['questions'])} searches", file=sys.stderr, flush=True)
        mem.vector_store.client.close()
    embedder.close()


def main() -> None:
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    collect = _Collect()
    logging.getLogger().addHandler(collect)
    logging.getLogger().setLevel(logging.INFO)
    out: dict[str, Any] = {
        "ok": False, "python": platform.python_version(), "mem0ai": _version("mem0ai"),
        "qdrant_client": _version("qdrant-client"), "chatmem": _version("chatmem"),
        "torch_installed": _version("torch") is not None,
        "sentence_transformers_installed": _version("sentence-transformers") is not None,
        "spacy_installed": _version("spacy") is not None,
        "fastembed_installed": _version("fastembed") is not None,
    }
    try:
        run(spec, out)
        out["ok"] = True
    except BaseException as exc:  # report exactly why mem0 could not run
        out["error"] = f"{type(exc).__name__}: {exc}"
        out["traceback"] = traceback.format_exc()
        print(out["traceback"], file=sys.stderr)
    out["blocked_network"] = sorted(Counter(BLOCKED).items())
    out["log_warnings"] = sorted(collect.seen.items())
    Path(sys.argv[2]).write_text(json.dumps(out, ensure_ascii=False), encoding="utf-8")
    sys.exit(0 if out["ok"] else 1)


if __name__ == "__main__":
    main()
