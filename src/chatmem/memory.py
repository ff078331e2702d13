"""The facade: ``Memory`` (async) and ``SyncMemory`` (a thin blocking wrapper).

Data flows one way (SPEC §1): ``add`` stores messages and hands them to the
background indexer; ``recall`` embeds the query, asks the vector index under
the visibility filter, reranks, expands and renders with plain functions
from :mod:`chatmem.recall`.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Awaitable, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar, cast

from .config import Config, Window
from .embedding import Embedder, create_embedder
from .errors import InvalidInput, RecallUnavailable, ScopeError
from .indexing import Indexer
from .models import Message, ScoredId, Session, coerce_messages, now_ms
from .recall import Candidate, Ranked, Snippet, build_query, merge_windows, render, rerank
from .store import open_store, open_vector_index
from .store.base import MessageStore, VectorIndex

log = logging.getLogger("chatmem.memory")
T = TypeVar("T")

TurnInput = str | Message | Mapping[str, Any]


@dataclass(frozen=True)
class Hit:
    """One recalled message with the neighbours brought along for context."""

    message: Message
    score: float
    semantic: float
    recency: float
    boost: float
    before: tuple[Message, ...] = ()
    after: tuple[Message, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "message": self.message.to_dict(), "score": self.score, "semantic": self.semantic,
            "recency": self.recency, "boost": self.boost,
            "before": [m.to_dict() for m in self.before],
            "after": [m.to_dict() for m in self.after],
        }


@dataclass(frozen=True)
class RecallResult:
    """Structured hits, the merged snippets and the rendered system message."""

    query: str | None
    hits: tuple[Hit, ...] = ()
    snippets: tuple[Snippet, ...] = ()
    text: str = ""
    #: Why candidates were dropped: other_model, min_score, role, in_context, gone.
    excluded: Mapping[str, int] = field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "hits": [h.to_dict() for h in self.hits],
                "text": self.text, "excluded": dict(self.excluded)}


def _turn_texts(turn: TurnInput | Sequence[TurnInput]) -> tuple[list[str], list[Message]]:
    items: Sequence[TurnInput] = [turn] if isinstance(turn, (str, Message, Mapping)) else turn
    texts: list[str] = []
    msgs: list[Message] = []
    for i, item in enumerate(items):
        if isinstance(item, str):
            texts.append(item)
        elif isinstance(item, Message):
            texts.append(_query_text(item))
            msgs.append(item)
        elif isinstance(item, Mapping):
            if not isinstance(item.get("content"), str):
                raise InvalidInput(f"turn[{i}].content must be a string")
            data = {"session_id": "", **item}
            m = Message(**{k: v for k, v in data.items() if k in Message.__dataclass_fields__})
            texts.append(_query_text(m))
            msgs.append(m)
        else:
            raise InvalidInput(f"turn[{i}]: expected text, a Message or a mapping")
    return texts, msgs


def _query_text(msg: Message) -> str:
    from .indexing import embedded_text

    return embedded_text(msg)  # the same text the message is indexed as (F4)


class Memory:
    """Semantic long-term memory over one message store, vector index and embedder."""

    def __init__(self, store: MessageStore, index: VectorIndex | None,
                 embedder: Embedder | None, config: Config | None = None) -> None:
        self.store = store
        self.index = index
        self.embedder = embedder
        self.config = config or Config()
        self._indexer: Indexer | None = None
        if index is not None and embedder is not None:
            self._indexer = Indexer(store, index, embedder, self.config.indexing)
            self._indexer.start()
        self._closed = False

    @classmethod
    async def open(cls, url: str = "sqlite:///chatmem.db", *, vector: str | None = None,
                   embedder: Embedder | None = None,
                   config: Config | Mapping[str, Any] | None = None, **options: Any) -> Memory:
        """Open a message store by URL (``sqlite:///path.db``, ``memory://``,
        ``postgresql://…``) and, optionally, a separate vector index (``vector=
        "qdrant://host:6333"``), with the configured embedder (the local ONNX model by
        default). ``options`` override configuration fields."""
        cfg = config if isinstance(config, Config) else Config.load(config, **options)
        if isinstance(config, Config) and options:
            cfg = Config.load(config.model_dump(), **options)
        store = await open_store(url)
        try:
            index = store if vector is None else await open_vector_index(vector, store)
        except BaseException:
            await store.close()
            raise
        emb = embedder or create_embedder(cfg.embedding)
        return cls(store, index, emb, cfg)

    async def __aenter__(self) -> Memory:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # ------------------------------------------------------------------ writing

    async def add(self, messages: Message | Mapping[str, Any]
                  | Sequence[Message | Mapping[str, Any]]) -> list[Message]:
        """Store messages (committed before this returns) and queue them for indexing."""
        batch = coerce_messages(messages)
        if not batch:
            return []
        stored = await self.store.append(batch)
        if self._indexer is not None:
            self._indexer.enqueue(stored)
        return stored

    async def upsert_session(self, session: Session | Mapping[str, Any]) -> Session:
        if isinstance(session, Mapping):
            try:
                session = Session(**session)
            except TypeError as exc:
                raise InvalidInput(f"session: {exc}") from None
        if not isinstance(session.id, str) or not session.id.strip():
            raise InvalidInput("session.id must be a non-empty string")
        return await self.store.upsert_session(session)

    async def flush(self, timeout: float | None = None) -> None:
        """Wait until every stored message that should be indexed is indexed."""
        if self._indexer is not None:
            await self._indexer.flush(timeout)

    # ------------------------------------------------------------------ recall

    def _require_recall(self) -> tuple[VectorIndex, Embedder]:
        if self.index is None or self.embedder is None:
            raise RecallUnavailable(
                "semantic recall needs a vector index and an embedder; open the memory with "
                "both (e.g. Memory.open('sqlite:///chat.db')) or set semantic_recall=False"
            )
        return self.index, self.embedder

    def _visibility(self, scope: str, session: str | None) -> dict[str, Any] | None:
        if scope == "all":
            return None
        if scope == "session":
            if not session:
                raise ScopeError("scope 'session' needs session=<the current session id>")
            return {"session_id": session}
        raise ScopeError(f"scope {scope!r} is not supported yet; use 'all' or 'session'")

    async def recall(
        self,
        query: TurnInput | Sequence[TurnInput],
        *,
        session: str | None = None,
        top_k: int | None = None,
        min_score: float | None = None,
        scope: str | None = None,
        window: int | Mapping[str, int] | None = None,
        cross_session: bool | None = None,
        speakers: Sequence[str] = (),
        exclude_ids: Sequence[str] = (),
        now: int | None = None,
    ) -> RecallResult:
        """Recall past messages relevant to ``query`` (text, or this turn's messages)."""
        index, embedder = self._require_recall()
        cfg = self.config
        texts, turn_msgs = _turn_texts(query)
        q = build_query(texts)
        if q is None:
            return RecallResult(query=None)
        k = cfg.search.top_k if top_k is None else top_k
        if isinstance(k, bool) or not isinstance(k, int) or k < 1:
            raise InvalidInput("top_k must be an integer ≥ 1")
        floor = cfg.search.min_score if min_score is None else min_score
        eff_scope = cfg.scope if scope is None else {"thread": "session"}.get(scope, scope)
        win = cfg.context_expand.window if window is None else Window.parse(window, "window")
        cross = cfg.context_expand.cross_session if cross_session is None else cross_session
        others_only = cfg.recall_roles == "others-only"
        where = self._visibility(eff_scope, session)

        pool = await self._candidates(q, k * (8 if others_only else 4), where)

        excluded = {"other_model": 0, "min_score": 0, "role": 0, "in_context": 0, "gone": 0}
        skip_ids = set(exclude_ids) | {m.id for m in turn_msgs if m.id}
        turn_texts = {(m.session_id or session, m.content) for m in turn_msgs}
        kept = []
        for s in pool:
            if s.model_id is not None and s.model_id != embedder.model_id:
                excluded["other_model"] += 1
            elif s.score < floor:
                excluded["min_score"] += 1
            elif others_only and (s.role or "user") == "assistant":
                excluded["role"] += 1
            elif s.message_id in skip_ids:
                excluded["in_context"] += 1
            else:
                kept.append(s)
        msgs = await self.store.get([s.message_id for s in kept])
        candidates = []
        for s in kept:
            m = msgs.get(s.message_id)
            if m is None:
                excluded["gone"] += 1
            elif (m.session_id, m.content) in turn_texts:
                excluded["in_context"] += 1
            else:
                candidates.append(Candidate(m, s.score, s.model_id))
        boost_speakers = set(speakers) | {m.speaker_id for m in turn_msgs if m.speaker_id}
        ranked = rerank(
            candidates, now_ms=now if now is not None else now_ms(),
            time_weight=cfg.search.time_weight, half_life_days=cfg.search.half_life_days,
            boost_speakers=boost_speakers if eff_scope == "user" else (),
            boost=cfg.search.user_priority_boost,
        )[:k]
        return await self._expand_and_render(q, ranked, session, win, cross, skip_ids, excluded)

    async def _candidates(self, q: str, pool_size: int, where: dict[str, Any] | None
                          ) -> list[ScoredId]:
        """The candidate pool of a recall: the ``pool_size`` nearest vectors under ``where``."""
        index, embedder = self._require_recall()
        vec = await embedder.embed_one((q, "query"))
        return await index.query(vec, pool_size, where)

    async def _expand_and_render(self, q: str, ranked: list[Ranked], session: str | None,
                                 win: Window, cross: bool, skip_ids: set[str],
                                 excluded: dict[str, int]) -> RecallResult:
        cfg = self.config
        neighbours: dict[str, list[Message]] = {}
        hits = []
        for r in ranked:
            assert r.message.id is not None and r.message.ts is not None
            around: list[Message] = []
            if (win.before or win.after) and (cross or r.message.session_id == session):
                around = await self.store.range(r.message.session_id, r.message.ts,
                                                win.before, win.after)
            neighbours[r.message.id] = around
            hits.append(Hit(
                r.message, r.score, r.semantic, r.recency, r.boost,
                before=tuple(m for m in around if (m.ts or 0) < r.message.ts),
                after=tuple(m for m in around if (m.ts or 0) > r.message.ts),
            ))
        snippets = merge_windows(ranked, neighbours, skip_ids)
        sessions = await self.store.get_sessions(sorted({s.session_id for s in snippets}))
        text = render(snippets, sessions, locale=cfg.locale, timezone=cfg.timezone,
                      per_item_max_chars=cfg.search.per_item_max_chars)
        return RecallResult(q, tuple(hits), tuple(snippets), text, excluded)

    async def context(self, turn: TurnInput | Sequence[TurnInput], *, session: str,
                      speakers: Sequence[str] = (), exclude_ids: Sequence[str] = (),
                      ) -> list[dict[str, str]]:
        """The messages to put before the conversation: the recall system message
        (when anything is recalled) followed by the session's ``last_messages`` (M2)."""
        last: list[Message] = []
        if self.config.last_messages > 0:
            last = await self.store.recent(session, self.config.last_messages)
        result = await self.recall(
            turn, session=session, speakers=speakers,
            exclude_ids=[*exclude_ids, *(m.id for m in last if m.id)],
        )
        out: list[dict[str, str]] = []
        if result.text:
            out.append({"role": "system", "content": result.text})
        for m in last:
            role = m.role if m.role in ("user", "assistant", "system") else "system"
            out.append({"role": role, "content": m.shown_text})
        return out

    # ------------------------------------------------------------------ housekeeping

    async def stats(self) -> dict[str, Any]:
        s = await self.store.stats()
        out: dict[str, Any] = {
            "messages": s.messages, "sessions": s.sessions, "indexed": s.indexed,
            "pending": s.pending, "failed": s.failed, "skipped": s.skipped,
            "vectors_by_model": dict(s.vectors_by_model),
        }
        if self.embedder is not None:
            st = self.embedder.status
            out["embedder"] = {
                "model_id": self.embedder.model_id, "calls": st.calls, "texts": st.texts,
                "provider_calls": st.provider_calls, "errors": st.errors,
                "last_error": st.last_error[1] if st.last_error else None,
                "cache": st.cache.__dict__ if st.cache else None,
            }
        if self._indexer is not None:
            out["indexer"] = self._indexer.stats().__dict__
        return out

    async def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._indexer is not None:
            await self._indexer.stop()
        await self.store.close()
        if self.index is not None and cast(object, self.index) is not cast(object, self.store):
            await self.index.close()


class SyncMemory:
    """Blocking access to a :class:`Memory` for scripts.

    It runs the async core on a private event loop in a background thread and
    forwards every coroutine method; there is no second copy of any logic.
    """

    def __init__(self, memory_factory: Callable[[], Awaitable[Memory]]) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True,
                                        name="chatmem-sync")
        self._thread.start()
        self._memory: Memory = self._run(memory_factory())

    @classmethod
    def open(cls, url: str = "sqlite:///chatmem.db", **kwargs: Any) -> SyncMemory:
        return cls(lambda: Memory.open(url, **kwargs))

    def _run(self, coro: Coroutine[Any, Any, T] | Awaitable[T]) -> T:
        async def _await() -> T:
            return await coro

        return asyncio.run_coroutine_threadsafe(_await(), self._loop).result()

    @property
    def memory(self) -> Memory:
        return self._memory

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self._memory, name)
        if not asyncio.iscoroutinefunction(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            return self._run(attr(*args, **kwargs))

        call.__name__ = name
        call.__doc__ = attr.__doc__
        return call

    def close(self) -> None:
        if self._loop.is_closed():
            return
        self._run(self._memory.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()

    def __enter__(self) -> SyncMemory:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
