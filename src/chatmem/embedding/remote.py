"""What every remote provider shares: settings, the HTTP client, response checks.

A provider module only says how its wire format looks: :meth:`RemoteProvider.request`
(URL, body, query parameters, headers for one batch of one role) and
:meth:`RemoteProvider.parse` (the vectors in the answer), plus a few class
attributes (``name``, ``max_batch``, ``roles``, ``sends_dimensions``). Everything
else — retries, cooldowns, deadlines, redaction — is :mod:`chatmem.embedding.http`;
the answer's checks (count, numbers, finite, one width per model) are here;
batching, caching, dimension enforcement and normalisation are the Embedder's.
"""

from __future__ import annotations

import contextvars
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import urlsplit, urlunsplit

import httpx
import numpy as np
import numpy.typing as npt

from ..config import MAX_VECTOR_DIM
from ..errors import EmbeddingUnavailable
from .base import Capabilities, EmbedRole
from .http import (
    SECRET_PARAMS,
    WRONG_PATH_STATUS,
    CooldownBook,
    HttpClient,
    model_problem,
    other_api,
    redact_url,
    snippet,
)

#: The monotonic deadline of the embedding call under way (set by the Embedder for
#: one ``embed_many``); providers pass it to :meth:`HttpClient.post_json`.
CALL_DEADLINE: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "chatmem_embedding_deadline", default=None)
#: The seconds of that deadline (None: none): each answered request of the call sets
#: :data:`CALL_DEADLINE` that far ahead again (the Embedder).
CALL_BUDGET: contextvars.ContextVar[float | None] = contextvars.ContextVar(
    "chatmem_embedding_budget", default=None)
#: Retries the HTTP layer may make within the embedding call under way, when the caller
#: sets a number other than the configured ``max_retries`` (None: the configured one).
CALL_RETRIES: contextvars.ContextVar[int | None] = contextvars.ContextVar(
    "chatmem_embedding_retries", default=None)
#: Whether the call under way is judged by the widths a store holds (a memory's calls:
#: :class:`~chatmem.indexing.VectorWidths`): the provider's own check against its
#: earlier answers in this process is then left out, so a model swapped behind the
#: endpoint is taken once the store holds none of the old width (cleared, reindexed).
CALL_WIDTH_BY_STORE: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "chatmem_embedding_width_by_store", default=False)


@dataclass(frozen=True)
class RemoteSettings:
    """The resolved settings of one remote provider (key already looked up)."""

    model: str
    endpoint: str
    api_key: str | None = None
    dimensions: int = 0
    headers: Mapping[str, str] = field(default_factory=dict)
    timeout: float = 30.0
    max_retries: int = 2
    #: Provider-specific extras (Azure's api_version, OpenRouter's routing, …).
    options: Mapping[str, Any] = field(default_factory=dict)

    def __repr__(self) -> str:
        # the dataclass repr showed the key and every header value in clear (a debug
        # print, a traceback with locals); shown as EmbeddingConfig's repr shows them
        return (f"RemoteSettings(model={self.model!r}, endpoint={redact_url(self.endpoint)!r}, "
                f"api_key={'***' if self.api_key else None!r}, "
                f"dimensions={self.dimensions!r}, headers={_masked(self.headers)!r}, "
                f"timeout={self.timeout!r}, max_retries={self.max_retries!r}, "
                f"options={dict(self.options)!r})")


@dataclass(frozen=True)
class Request:
    url: str
    body: Any
    params: Mapping[str, str] = field(default_factory=dict)
    headers: Mapping[str, str] = field(default_factory=dict)

    def __repr__(self) -> str:
        # the key travels in a header (Authorization, api-key) or a parameter (Gemini's
        # ?key=): shown redacted, as the HTTP layer shows URLs
        params = {k: "***" if k.lower() in SECRET_PARAMS else v for k, v in self.params.items()}
        return (f"Request(url={redact_url(self.url)!r}, body=<{type(self.body).__name__}>, "
                f"params={params!r}, headers={_masked(self.headers)!r})")


def _masked(headers: Mapping[str, str]) -> dict[str, str]:
    """``headers`` with every value hidden (any may carry a credential)."""
    return {k: "***" for k in headers}


class RemoteProvider:
    """Base of the HTTP providers. Subclasses set :attr:`name` and the two hooks."""

    name: ClassVar[str] = ""
    #: Per-request limit of the service (the Embedder cuts batches to it).
    max_batch: ClassVar[int | None] = None
    #: Whether the wire format tells queries from documents.
    roles: ClassVar[bool] = False
    #: Whether a configured ``dimensions`` is sent to the service (which then answers
    #: vectors of that size); otherwise the Embedder truncates the native ones.
    sends_dimensions: ClassVar[bool] = False
    #: Requests in flight at once from one process's indexer, unless configured.
    default_concurrency: ClassVar[int] = 4
    #: What became of ``embedding.endpoint``, when the provider took it otherwise than
    #: as written (``chatmem doctor`` shows it); redacted.
    endpoint_note: str | None = None

    def __init__(self, settings: RemoteSettings, *,
                 transport: httpx.AsyncBaseTransport | None = None,
                 cooldowns: CooldownBook | None = None,
                 languages: tuple[str, ...] | None = None,
                 native_dimensions: int | None = None,
                 max_dimensions: int | None = None,
                 max_concurrency: int | None = None,
                 takes_dimensions: bool = True) -> None:
        #: Whether this provider sends the configured size: :attr:`sends_dimensions`,
        #: unless the model takes none (``takes_dimensions``: the registry knows).
        self.sends_size = self.sends_dimensions and takes_dimensions
        asked = settings.dimensions
        if asked and self.sends_size and max_dimensions and asked > max_dimensions:
            # the Embedder's check compares with the size asked for (what such a provider
            # answers), so this passed: every call then failed with a 400 and the
            # messages waited for retries that could never succeed
            raise EmbeddingUnavailable(
                f"embedding.dimensions = {asked} is larger than the {max_dimensions} "
                f"dimensions of {self.name}:{settings.model}: set it to {max_dimensions} or "
                "less, or 0 for the model's own size", provider=self.name,
                retry_decision="fail")
        self.settings = settings
        self.max_concurrency = max_concurrency or self.default_concurrency
        self.model = settings.model
        self.model_id = f"{self.name}:{settings.model}"
        self.endpoint = settings.endpoint.rstrip("/")
        self._languages = languages
        #: Width of the answers, as known before the first one (asked for, or the
        #: registry's native size), then as seen in the last one.
        self._expected = settings.dimensions if settings.dimensions and self.sends_size \
            else native_dimensions
        self._seen: int | None = None
        self.http = HttpClient(
            self.name, model=settings.model, timeout=settings.timeout,
            max_retries=settings.max_retries, headers=settings.headers,
            secrets=[settings.api_key] if settings.api_key else [], transport=transport,
            cooldowns=cooldowns)

    @property
    def dimensions(self) -> int | None:
        return self._seen or self._expected

    @property
    def capabilities(self) -> Capabilities:
        return Capabilities(languages=self._languages, max_batch=self.max_batch,
                            max_concurrency=self.max_concurrency, roles=self.roles,
                            remote=True)

    @property
    def redacted_endpoint(self) -> str:
        return self.http.redact(redact_url(self.endpoint))

    def endpoint_url(self, path: str) -> str:
        """``endpoint`` joined with ``path``, without repeating the segments the endpoint
        already ends with: the base URL (``…/v1``) and the full URL
        (``…/v1/embeddings``) both work."""
        parts = urlsplit(self.endpoint)
        base = parts.path.rstrip("/")
        segments = path.strip("/").split("/")
        for n in range(len(segments), 0, -1):
            if base.endswith("/" + "/".join(segments[:n])):
                segments = segments[n:]
                break
        return urlunsplit(parts._replace(path="/".join([base, *segments])))

    # the two hooks of a wire format

    def request(self, texts: Sequence[str], role: EmbedRole) -> Request:
        raise NotImplementedError

    def parse(self, answer: Any, count: int) -> list[Any]:
        raise NotImplementedError

    # shared

    async def embed(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        req = self.request(texts, role)
        try:
            answer = await self.http.post_json(req.url, req.body, params=req.params,
                                               headers=req.headers,
                                               deadline=CALL_DEADLINE.get(),
                                               max_retries=CALL_RETRIES.get(),
                                               texts=len(texts))
        except EmbeddingUnavailable as exc:
            if exc.status not in WRONG_PATH_STATUS \
                    or model_problem(exc.reason, self.http.model) is not None:
                raise
            raise self.misdirected(exc.reason, req.url, exc.status) or exc from None
        try:
            rows = list(self.parse(answer, len(texts)))
        except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
            said = answer.get("error") if isinstance(answer, dict) else None
            if said:
                # a gateway answering its error with 200: its words name the problem
                # (a model not pulled, a key refused), the missing key did not
                written = json.dumps(said, ensure_ascii=False)
                shown, fix = snippet(written), model_problem(written, self.http.model)
                if fix is not None:
                    # the model cannot embed: a setting, as at any other status
                    raise self.http.error(f"the service cannot embed with this model "
                                          f"(it answered an error: {shown}): {fix}",
                                          url=req.url, decision="fail") from None
                raise self.invalid(f"the service answered an error: {shown}",
                                   req.url) from None
            reason = f"unexpected answer shape ({type(exc).__name__}: {exc})"
            raise self.misdirected(reason, req.url) or self.invalid(reason, req.url) \
                from None
        if len(rows) != len(texts):
            raise self.invalid(f"answer has {len(rows)} vectors for {len(texts)} texts",
                               req.url)
        try:
            # no dtype first: numpy would turn "0.5" and true into numbers
            numbers = np.asarray(rows)
            if numbers.dtype.kind not in "fiu" or (numbers.ndim == 2 and _has_bool(rows)):
                # a true among numbers made numpy read the whole answer as numbers
                # ([0.5, true] → [0.5, 1.0]): it was stored as a coordinate
                raise TypeError("they hold strings, booleans, nulls or objects")
            with np.errstate(over="ignore"):  # past float32's range: inf, refused below
                out = numbers.astype(np.float32)
        except (TypeError, ValueError, OverflowError) as exc:
            raise self.invalid(f"vectors are not numbers of equal length ({exc})",
                               req.url) from None
        if out.ndim != 2 or out.shape[1] == 0:
            raise self.invalid(f"answer has shape {out.shape}, expected "
                               f"({len(texts)}, d)", req.url)
        if not np.isfinite(out).all():
            raise self.invalid("answer holds NaN or infinite values", req.url)
        if out.shape[1] > MAX_VECTOR_DIM:
            # stored, such a vector made the store's export one that import refuses (and
            # the answer bound lets one text's vector reach hundreds of thousands)
            raise self.invalid(f"answer has vectors of {out.shape[1]} numbers, more than "
                               f"the {MAX_VECTOR_DIM} a stored vector may hold (is the URL "
                               "an embeddings endpoint, and the model a text embedding "
                               "model?)", req.url)
        if self._seen is not None and out.shape[1] != self._seen \
                and not CALL_WIDTH_BY_STORE.get():
            # one model space has one size: a change means a different model answered
            raise self.invalid(f"answer has {out.shape[1]} dimensions, this model gave "
                               f"{self._seen} before in this process (another model "
                               "answers under that name: serve the model again, or set "
                               "embedding.model to the new model's name and run chatmem "
                               "reindex)", req.url)
        self._seen = int(out.shape[1])
        return out

    def misdirected(self, reason: str, url: str, status: int | None = None
                    ) -> EmbeddingUnavailable | None:
        """The error of a request the service did not serve (``reason``: a path it
        does not know, an answer of another shape), naming the fix when
        ``embedding.endpoint`` is the path of the other wire format (:func:`other_api`);
        None when it is not."""
        fix = other_api(self.name, self.settings.endpoint)
        if fix is None:
            return None
        return self.http.error(f"{reason}; {fix}", url=url, status=status, decision="fail")

    def invalid(self, reason: str, url: str) -> EmbeddingUnavailable:
        return self.http.error(reason, url=url, decision="invalid")

    def bearer(self) -> dict[str, str]:
        """``Authorization: Bearer <key>`` when a key is set."""
        key = self.settings.api_key
        return {"authorization": f"Bearer {key}"} if key else {}

    async def aclose(self) -> None:
        await self.http.aclose()


def _has_bool(rows: Sequence[Sequence[Any]]) -> bool:
    """Whether a JSON true or false stands among the numbers of ``rows`` (a matrix numpy
    read as numbers). ``map(type, …)`` keeps the look-up in C: 32 vectors of 3,072
    numbers take about 2 ms, as long as numpy takes to read them."""
    return any(bool in set(map(type, row)) for row in rows)


def data_embeddings(answer: Any) -> list[Any]:
    """The vectors of an OpenAI-shaped answer ``{"data": [{"embedding", "index"}]}``,
    in input order (the index field, when present, decides the order)."""
    data = answer["data"]
    if not isinstance(data, list):
        raise TypeError("'data' is not a list")
    labels = [d.get("index") if isinstance(d, dict) else None for d in data]
    if any(label is not None for label in labels):
        # an index the check below could not read ("0", 1.5, one item without) made
        # the whole answer be taken in its own order, whatever the others said: a
        # reversed list numbered [1, "0"] handed each text the other's vector
        indexes = [_whole_number(label) for label in labels]
        if sorted(indexes) != list(range(len(data))) and len(set(indexes)) > 1:
            # a vector would go to another text (a proxy numbering each sub-batch
            # from 0, an index skipped): refused, never stored. One index for all (a
            # server writing 0 for each) says nothing: the answer's order holds
            raise ValueError(f"the 'index' fields are not 0 to {len(data) - 1}, once each")
        data = [d for _, d in sorted(zip(indexes, data), key=lambda pair: pair[0])]
    return [d["embedding"] for d in data]


def _whole_number(label: Any) -> int:
    """An ``index`` field as the integer it says: a JSON number without a fraction
    (``1.0`` is ``1`` in JSON); anything else is refused."""
    if isinstance(label, int) and not isinstance(label, bool):
        return label
    if isinstance(label, float) and label.is_integer():
        return int(label)
    raise ValueError(f"an 'index' field is not a whole number (got {label!r:.40}); they "
                     "must number the texts from 0, once each")


__all__ = ["CALL_BUDGET", "CALL_DEADLINE", "CALL_RETRIES", "CALL_WIDTH_BY_STORE",
           "RemoteProvider", "RemoteSettings", "Request", "data_embeddings"]
