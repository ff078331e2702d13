"""The Embedder facade: the only door to embedding providers (E1, E4–E7, E10).

Pipeline of :meth:`Embedder.embed_many` (E4)::

    inputs → {text, role} → sha256(provider|model|role|text) → LRU lookup
           → misses, deduplicated, grouped by role, sorted by length
           → batches of ``batch_size`` → provider.embed()
           → dimension enforcement → float32 → L2 normalisation
           → results in input order → cache fill

Sorting a role group by length before cutting batches keeps padding short
for local models (a batch is padded to its longest member) and costs an HTTP
provider nothing. Batches are cut at the smaller of ``batch_size`` and the
provider's declared ``max_batch``.

One call has one deadline (``deadline`` seconds, the configuration's
``embedding.deadline`` unless the caller gives one): a remote provider's HTTP
layer reads it (:data:`chatmem.embedding.remote.CALL_DEADLINE`) and gives up
with decision ``defer`` rather than wait past it. Each answered request of a
call of several gives the next ones the whole deadline again: it bounds a wait
for an answer, not a batch's requests one after the other.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np

from .._sync import BlockingWrapper, blocking, ready
from ..errors import EmbeddingUnavailable, EventLoopMisuse, InvalidInput, StoreClosed
from ..models import MAX_VECTOR_LENGTH
from ..refusals import checked_number, describe
from .base import (
    Capabilities,
    EmbeddingProvider,
    EmbedInput,
    EmbedRole,
    SettlingProvider,
    Vector,
)
from .cache import CacheStats, EmbedCache, LruEmbedCache, NullEmbedCache, cache_key
from .remote import CALL_BUDGET, CALL_DEADLINE, CALL_RETRIES, RemoteProvider

if TYPE_CHECKING:
    import httpx

    from ..config import EmbeddingConfig

EmbedLike = str | tuple[str, str] | EmbedInput

log = logging.getLogger("chatmem.embedding")


@dataclass(frozen=True)
class StatusDetail:
    """Passed to ``on_status`` after every call (E10)."""

    ok: bool
    duration_ms: float
    texts: int
    provider_calls: int
    retry_decision: str | None = None
    reason: str | None = None


@dataclass
class EmbedderStatus:
    last_ok_at: float | None = None
    #: (time, message) of the last failure; a later success does not clear it (E10).
    last_error: tuple[float, str] | None = None
    calls: int = 0
    texts: int = 0
    provider_calls: int = 0
    provider_texts: int = 0
    errors: int = 0
    cache: CacheStats | None = field(default=None)


def _to_input(item: EmbedLike, index: int) -> EmbedInput:
    if isinstance(item, EmbedInput):
        text, role, name = item.text, item.role, f"inputs[{index}].text"
    elif isinstance(item, tuple):
        if len(item) != 2:
            raise InvalidInput(f"inputs[{index}]: expected (text, role)")
        text, role = item[0], item[1]  # type: ignore[assignment]
        name = f"inputs[{index}].text"
    else:
        text, role, name = item, "document", f"inputs[{index}]"
    if not isinstance(text, str):
        raise InvalidInput(f"{name} must be a string, got {describe(text)}")
    if role not in ("document", "query"):
        raise InvalidInput(f"inputs[{index}].role must be one of document, query, got "
                           f"{describe(role)}")
    return EmbedInput(text, role)


@dataclass(frozen=True)
class Embedded:
    """The vectors of one :meth:`Embedder.embed_many_with_model` call, in input order,
    and the id of the model that made them."""

    model_id: str
    vectors: list[Vector]
    #: Whether some vectors came from the cache: no service was asked for them, so a
    #: model swapped behind a remote endpoint since they were made went unseen.
    cached: bool = False


class Embedder:
    """Turn texts into float32 vectors whose dot product is cosine similarity."""

    def __init__(
        self,
        provider: EmbeddingProvider,
        *,
        batch_size: int = 32,
        dimensions: int = 0,
        normalize: bool = True,
        cache_enabled: bool = True,
        cache_max_items: int = 20000,
        on_status: Callable[[StatusDetail], Any] | None = None,
        on_error: Callable[[EmbeddingUnavailable], Any] | None = None,
        deadline: float | None = None,
    ) -> None:
        if batch_size < 1:
            raise InvalidInput(f"batch_size must be at least 1, got {describe(batch_size)}")
        if dimensions < 0:
            raise InvalidInput("dimensions must be at least 0 (0 = the provider's own size), "
                               f"got {describe(dimensions)}")
        native = provider.dimensions
        if dimensions and native and dimensions > native:
            # E7: never padded; refused here so that nothing is stored as "failed" later
            raise EmbeddingUnavailable(
                f"embedding.dimensions = {dimensions} is larger than the {native} dimensions "
                f"of {provider.model_id}: set it to {native} or less, or 0 for the model's own "
                "size", provider=provider.name, retry_decision="fail")
        self.provider = provider
        caps = provider.capabilities
        self.batch_size = min(batch_size, caps.max_batch) if caps.max_batch else batch_size
        #: Seconds one call may take in all (retries included) when the caller gives none.
        self.deadline = deadline
        self._dimensions = dimensions
        self.normalize = normalize
        self.cache: EmbedCache = (
            LruEmbedCache(cache_max_items) if cache_enabled else NullEmbedCache()
        )
        self.on_status = on_status
        self.on_error = on_error
        self._status = EmbedderStatus()
        #: model id → the width of its last answer (raw): a change empties the cache.
        self._widths: dict[str, int] = {}
        #: Monotonic time the current run of failures began (None: the last call worked).
        self._failing_since: float | None = None
        self._log = logging.getLogger(f"chatmem.embedding.{provider.name}")
        log.info("embedder: provider=%s model=%s dimensions=%s cache=%s batch_size=%d%s",
                 provider.name, provider.model_id, self.dimensions or "native",
                 f"lru({cache_max_items})" if cache_enabled else "off", self.batch_size,
                 f" endpoint={provider.redacted_endpoint}"
                 if isinstance(provider, RemoteProvider) else "")

    @classmethod
    def from_config(cls, config: EmbeddingConfig | Mapping[str, Any] | str | None = None, *,
                    env: Mapping[str, str] | None = None,
                    transport: httpx.AsyncBaseTransport | None = None,
                    on_status: Callable[[StatusDetail], Any] | None = None,
                    on_error: Callable[[EmbeddingUnavailable], Any] | None = None,
                    ) -> Embedder:
        """The embedder an ``embedding`` configuration describes (a mapping is validated
        like the configuration file's ``embedding`` section). ``env`` is where API keys
        are looked up when the configuration has none (pass ``os.environ``);
        ``transport`` replaces the network of a remote provider (tests)."""
        from ..config import EmbeddingConfig, embedding_config
        from .registry import build_provider

        cfg = config if isinstance(config, EmbeddingConfig) else embedding_config(config)
        provider = build_provider(cfg, env=env, transport=transport)
        return cls(provider, batch_size=cfg.batch_size, dimensions=cfg.dimensions,
                   normalize=cfg.normalize, cache_enabled=cfg.cache.enabled,
                   cache_max_items=cfg.cache.max_items, on_status=on_status,
                   on_error=on_error,
                   deadline=cfg.deadline if provider.capabilities.remote else None)

    @property
    def capabilities(self) -> Capabilities:
        return self.provider.capabilities

    def redact(self, text: str) -> str:
        """``text`` without the provider's secrets (for anything shown or logged)."""
        return self.provider.http.redact(text) if isinstance(self.provider, RemoteProvider) \
            else text

    @property
    def model_id(self) -> str:
        return self.provider.model_id

    @property
    def dimensions(self) -> int | None:
        """Output size: the configured one, else the provider's (None until known)."""
        return self._dimensions or self.provider.dimensions

    @property
    def status(self) -> EmbedderStatus:
        s = self._status
        return EmbedderStatus(s.last_ok_at, s.last_error, s.calls, s.texts, s.provider_calls,
                              s.provider_texts, s.errors, self.cache.stats())

    def forget_texts(self, texts: Sequence[str]) -> int:
        """Drop the cached vectors of these texts, in both roles (an erase, I8); returns
        how many entries there were."""
        name, model = self.provider.name, self.provider.model_id
        return sum(self.cache.discard(cache_key(name, model, role, text))
                   for text in dict.fromkeys(texts) for role in ("document", "query"))

    async def embed_one(self, item: EmbedLike, *, deadline: float | None = None,
                        max_retries: int | None = None) -> Vector:
        return (await self.embed_many([item], deadline=deadline,
                                      max_retries=max_retries))[0]

    async def embed_many(self, items: Sequence[EmbedLike], *,
                         deadline: float | None = None,
                         max_retries: int | None = None) -> list[Vector]:
        """Vectors of ``items`` in input order. ``deadline``: seconds the whole call may
        take (default: the embedder's ``deadline``; None = no limit but the per-attempt
        timeouts). ``max_retries``: retries of a remote provider's transient failures in
        this call (default: ``embedding.max_retries``)."""
        return (await self.embed_many_with_model(items, deadline=deadline,
                                                 max_retries=max_retries)).vectors

    async def embed_many_with_model(self, items: Sequence[EmbedLike], *,
                                    deadline: float | None = None,
                                    max_retries: int | None = None,
                                    fresh: bool = False) -> Embedded:
        """:meth:`embed_many` and the id of the model that made the vectors, read inside
        the call: what vectors are stored under (``embedding.model: auto`` can change its
        model between two calls while a store's first messages say too little).
        ``fresh``: ask the provider for every text, none from the cache (which the
        answers fill): what the model behind a remote endpoint answers now."""
        if max_retries is not None:
            checked_number(InvalidInput, "max_retries", max_retries, integer=True, least=0)
        inputs = [_to_input(item, i) for i, item in enumerate(items)]
        budget = deadline if deadline is not None else self.deadline
        if budget is not None and not budget > 0:
            raise InvalidInput(f"deadline must be a positive number of seconds, got {budget}")
        started = time.perf_counter()
        calls_before = self._status.provider_calls
        self._status.calls += 1
        self._status.texts += len(inputs)
        token = CALL_DEADLINE.set(time.monotonic() + budget if budget is not None else None)
        budget_token = CALL_BUDGET.set(budget)
        retries_token = CALL_RETRIES.set(max_retries)
        try:
            out = await self._embed(inputs, fresh)
        except EmbeddingUnavailable as exc:
            self._record_failure(exc, started, len(inputs), calls_before)
            raise
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # a provider bug or driver error: map at the edge
            err = self._error(f"{type(exc).__name__}: {exc}", "fail")
            self._record_failure(err, started, len(inputs), calls_before)
            raise err from exc
        finally:
            CALL_DEADLINE.reset(token)
            CALL_BUDGET.reset(budget_token)
            CALL_RETRIES.reset(retries_token)
        self._status.last_ok_at = time.time()
        if self._failing_since is not None:
            self._log.warning("embedding works again after %.0f s of failures",
                              time.monotonic() - self._failing_since)
            self._failing_since = None
        self._notify_status(StatusDetail(
            ok=True, duration_ms=(time.perf_counter() - started) * 1000, texts=len(inputs),
            provider_calls=self._status.provider_calls - calls_before,
        ))
        return out

    async def _embed(self, inputs: list[EmbedInput], fresh: bool = False) -> Embedded:
        # a provider whose model can still change (auto, a SettlingProvider) settles it
        # from the call's documents, then holds it to the call's last vector: the model
        # first, then the keys, so a vector is cached under its own model (a query-only
        # call, every recall's, skips the protocol check)
        steady = getattr(self.provider, "steady", None)
        if steady is None:
            return await self._embed_with_model(inputs, fresh=fresh)
        async with steady():
            docs = [inp.text for inp in inputs if inp.role == "document"]
            if docs and isinstance(self.provider, SettlingProvider):
                await self.provider.settle(docs, "document")
            return await self._embed_with_model(inputs, fresh=fresh)

    async def _embed_with_model(self, inputs: list[EmbedInput], *,
                                again: bool = True, fresh: bool = False) -> Embedded:
        """The vectors of ``inputs`` from the cache or the provider's current model.

        A model answering another width than before is another model under its name
        (swapped behind a remote endpoint; a memory's store then decides whether it is
        taken): the cache holds the old one's vectors, so it is emptied, and a call
        that already holds some of the old width is made again (``again``), once."""
        out: list[Vector | None] = [None] * len(inputs)
        name, model = self.provider.name, self.provider.model_id
        dedupe = not isinstance(self.cache, NullEmbedCache)
        cached = False
        # key -> (input, indexes that want it); insertion order kept
        misses: dict[str, tuple[EmbedInput, list[int]]] = {}
        for i, inp in enumerate(inputs):
            key = cache_key(name, model, inp.role, inp.text)
            if dedupe:
                if key in misses:  # E5: a duplicate inside one call costs nothing more
                    misses[key][1].append(i)
                    continue
                hit = None if fresh else self.cache.get(key)
                if hit is not None:
                    out[i] = hit
                    cached = True
                    continue
            else:
                self.cache.get(key)  # counts the miss
                key = f"{key}#{i}"
            misses[key] = (inp, [i])

        by_role: dict[EmbedRole, list[str]] = {}
        for key, (inp, _) in misses.items():
            by_role.setdefault(inp.role, []).append(key)
        for role, keys in by_role.items():
            keys.sort(key=lambda k: len(misses[k][0].text), reverse=True)
            for start in range(0, len(keys), self.batch_size):
                chunk = keys[start:start + self.batch_size]
                texts = [misses[k][0].text for k in chunk]
                raw = await self.provider.embed(texts, role)
                self._answered()
                self._status.provider_calls += 1
                self._status.provider_texts += len(texts)
                vecs = self._post_process(raw, len(texts))
                # the answer's own width (before any truncation); _post_process has
                # checked it is a matrix of len(texts) rows: no second array of it
                if self._swapped(model, len(raw[0])) \
                        and any(v is not None for v in out):  # some of the old width
                    if again:
                        return await self._embed_with_model(inputs, again=False,
                                                            fresh=fresh)
                    raise self._error(f"{model} answered vectors of another width twice "
                                      "in one call; is one model served under its name?")
                for k, vec in zip(chunk, vecs):
                    for i in misses[k][1]:
                        out[i] = vec
                    if dedupe:
                        self.cache.set(k, vec)
        # each caller gets its own array: one changing its vector in place must not
        # change the cached one (later calls, the index) nor a duplicate input's
        done = [v.copy() for v in out if v is not None]
        if len(done) != len(out):  # cannot happen unless the loop above is broken
            raise self._error("internal error: an input got no vector", "fail")
        return Embedded(model, done, cached)

    @staticmethod
    def _answered() -> None:
        """A provider request of the call under way was answered: the call's next
        requests get the whole deadline again. The deadline bounds a wait without an
        answer (an outage, retries and their backoff); one call of many requests, an
        indexing batch cut into ``batch_size`` texts per request, sent them one after
        the other within one deadline, so a service slower than deadline / requests per
        request, answering each, had every batch given up and its answers discarded."""
        budget = CALL_BUDGET.get()
        if budget is not None:
            CALL_DEADLINE.set(time.monotonic() + budget)

    def _swapped(self, model: str, width: int) -> bool:
        """Whether ``model`` answered ``width`` after answering another (the cache is
        emptied then: its vectors of that model came from the old one)."""
        before = self._widths.setdefault(model, width)
        if before == width:
            return False
        self._widths[model] = width
        self.cache.clear()
        self._log.warning("%s answers vectors of %d numbers, %d before: another model "
                          "under that name; the embedding cache is emptied", model, width,
                          before)
        return True

    def _post_process(self, raw: Any, expected_rows: int) -> list[Vector]:
        """Dimension enforcement (E7), float32, finiteness, L2 normalisation."""
        try:
            arr = np.asarray(raw, dtype=np.float32)
        except (TypeError, ValueError) as exc:
            raise self._error(
                f"provider returned something that is not a matrix of numbers: {exc}") from exc
        if arr.ndim != 2 or arr.shape[0] != expected_rows:
            raise self._error(f"provider returned shape {arr.shape}, expected "
                              f"({expected_rows}, d)")
        want = self._dimensions
        have = arr.shape[1]
        if want:
            if have > want:
                arr = arr[:, :want]
            elif have < want:
                # zero-padding would silently corrupt cosine similarity: refuse instead
                raise self._error(f"provider returned {have} dimensions, fewer than the "
                                  f"configured {want}; set embedding.dimensions to {have} or 0")
        if not np.isfinite(arr).all():
            raise self._error("provider returned NaN or infinite values")
        if self.normalize:
            with np.errstate(over="ignore", under="ignore"):
                norms = np.linalg.norm(arr, axis=1)
            odd = ~np.isfinite(norms) | (norms == 0)
            unit = np.empty_like(arr)
            unit[~odd] = arr[~odd] / norms[~odd, None]
            if odd.any():
                # float32 squares overflow past ~1.8e19 (the length became inf: the
                # vector, divided by it, all zeros) and vanish under ~1e-23 (a vector of
                # small numbers looked all-zero): those rows are measured in float64
                wide = arr[odd].astype(np.float64)
                lengths = np.linalg.norm(wide, axis=1, keepdims=True)
                if (lengths == 0).any():
                    raise self._error("provider returned an all-zero vector")
                unit[odd] = (wide / lengths).astype(np.float32)
            arr = unit
        else:
            lengths = np.linalg.norm(arr.astype(np.float64), axis=1)
            if (lengths > MAX_VECTOR_LENGTH).any():
                raise self._error(
                    f"provider returned a vector of length {float(lengths.max()):.3g}, over "
                    f"the {MAX_VECTOR_LENGTH:.0e} a vector kept unnormalised may have "
                    "(embedding.normalize is false): its scores would overflow; set "
                    "embedding.normalize to true, or fix the provider")
        arr = np.ascontiguousarray(arr, dtype=np.float32)
        return list(arr)

    def _error(self, reason: str, decision: str = "invalid") -> EmbeddingUnavailable:
        """An error of the provider, raised here: secrets redacted, the redacted endpoint
        of a remote provider as its ``url``."""
        url = self.provider.redacted_endpoint if isinstance(self.provider, RemoteProvider) \
            else None
        return EmbeddingUnavailable(self.redact(reason), provider=self.provider.name, url=url,
                                    retry_decision=decision)

    def _record_failure(self, exc: EmbeddingUnavailable, started: float, texts: int,
                        calls_before: int) -> None:
        self._status.errors += 1
        self._status.last_error = (time.time(), str(exc))
        # an outage fails every call: warn when it starts, then keep the channel quiet
        # (every failure stays in status, on_status and on_error)
        first = self._failing_since is None
        if first:
            self._failing_since = time.monotonic()
        self._log.log(logging.WARNING if first else logging.DEBUG,
                      "embedding failed: %s (decision=%s)%s", exc, exc.retry_decision,
                      "; further failures are logged at DEBUG until a call succeeds"
                      if first else "")
        self._notify_status(StatusDetail(
            ok=False, duration_ms=(time.perf_counter() - started) * 1000, texts=texts,
            provider_calls=self._status.provider_calls - calls_before,
            retry_decision=exc.retry_decision, reason=exc.reason,
        ))
        if self.on_error is not None:
            try:
                self.on_error(exc)
            except Exception:  # a callback must never mask the original error
                log.exception("on_error callback raised; ignored")

    def _notify_status(self, detail: StatusDetail) -> None:
        if self.on_status is None:
            return
        try:
            self.on_status(detail)
        except Exception:
            log.exception("on_status callback raised; ignored")

    async def aclose(self) -> None:
        """Release the provider's connections; the embedder can be used again after."""
        await self.provider.aclose()


class SyncEmbedder(BlockingWrapper[Embedder]):
    """Blocking access to an :class:`Embedder`, for scripts::

        with SyncEmbedder.from_config({"provider": "openai"}, env=os.environ) as emb:
            vec = emb.embed_one("hello")

    The async core runs on a private event loop in a background thread; each method
    is the async method of the same name run to completion there (see
    :func:`chatmem._sync.blocking`, which :class:`~chatmem.SyncMemory` uses too), so
    there is no second copy of any logic. :meth:`close` releases the provider's
    connections and stops the thread.
    """

    #: A call after close() or that could not run (a forked process, the embedder's own
    #: loop thread): chatmem's errors, not RuntimeError.
    closed_error = StoreClosed
    usage_error = InvalidInput
    #: A call whose task something on its loop cancelled (not close(), not its caller).
    cancelled_error = EventLoopMisuse

    def __init__(self, embedder: Embedder) -> None:
        super().__init__(lambda: ready(embedder))

    @classmethod
    def from_config(cls, config: EmbeddingConfig | Mapping[str, Any] | str | None = None,
                    **kwargs: Any) -> SyncEmbedder:
        """:meth:`Embedder.from_config` with the same arguments (``env=os.environ`` for
        API keys from the environment), wrapped."""
        return cls(Embedder.from_config(config, **kwargs))

    @property
    def embedder(self) -> Embedder:
        """The async embedder underneath."""
        return self._inner

    @property
    def model_id(self) -> str:
        return self._inner.model_id

    @property
    def dimensions(self) -> int | None:
        return self._inner.dimensions

    @property
    def capabilities(self) -> Capabilities:
        return self._inner.capabilities

    @property
    def status(self) -> EmbedderStatus:
        return self._inner.status

    @staticmethod
    async def _aclose_object(inner: Embedder) -> None:
        await inner.aclose()

    embed_one = blocking(Embedder.embed_one)
    embed_many = blocking(Embedder.embed_many)
    embed_many_with_model = blocking(Embedder.embed_many_with_model)
