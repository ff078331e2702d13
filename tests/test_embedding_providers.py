"""Each remote provider's wire format (E2, E3) against a real HTTP service on 127.0.0.1:
auth, request body, roles, batching, response parsing and order, model ids, keys."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from typing import Any
from urllib.parse import parse_qsl

import numpy as np
import pytest

from chatmem.config import embedding_config
from chatmem.embedding import Embedder
from chatmem.embedding.registry import PROVIDERS, provider_key
from chatmem.embedding.remote import RemoteProvider
from chatmem.errors import ConfigError, EmbeddingUnavailable
from fake_embedding_service import (
    DIMS,
    FakeEmbeddingService,
    Recorded,
    Step,
    expected,
    fresh_service,
    vector,
)

KEY = "test-key-0000"


@pytest.fixture
def service() -> Iterator[FakeEmbeddingService]:
    with fresh_service() as s:
        yield s


async def embed(config: Mapping[str, Any], items: list[Any], *,
                env: Mapping[str, str] | None = None) -> tuple[Embedder, list[np.ndarray]]:
    emb = Embedder.from_config(config, env=env)
    try:
        return emb, await emb.embed_many(items)
    finally:
        await emb.aclose()


#: provider → (endpoint path to append to the service URL, request path, default model)
WIRE = {
    "openai": ("/v1", "/v1/embeddings", "text-embedding-3-small"),
    "gemini": ("/v1beta", "/v1beta/models/gemini-embedding-001:batchEmbedContents",
               "gemini-embedding-001"),
    "cohere": ("", "/v2/embed", "embed-multilingual-v3.0"),
    "voyage": ("/v1", "/v1/embeddings", "voyage-3.5"),
    "mistral": ("/v1", "/v1/embeddings", "mistral-embed"),
    "ollama": ("", "/api/embed", "nomic-embed-text"),
}


def body_for(provider: str, texts: list[str], role: str) -> dict[str, Any]:
    """The request body each wire format must carry for one batch."""
    model = WIRE[provider][2]
    if provider == "openai":
        return {"input": texts, "model": model, "encoding_format": "float"}
    if provider == "gemini":
        task = {"document": "RETRIEVAL_DOCUMENT", "query": "RETRIEVAL_QUERY"}[role]
        return {"requests": [{"model": f"models/{model}", "content": {"parts": [{"text": t}]},
                              "taskType": task} for t in texts]}
    if provider == "cohere":
        return {"model": model, "texts": texts, "embedding_types": ["float"],
                "input_type": {"document": "search_document", "query": "search_query"}[role]}
    if provider == "voyage":
        return {"input": texts, "model": model, "input_type": role}
    return {"model": model, "input": texts}  # mistral, ollama


def check_auth(provider: str, rec: Recorded, key: str | None) -> None:
    if provider == "gemini":
        assert rec.query == ({"key": key} if key else {})
        assert "authorization" not in rec.headers
    else:
        assert rec.query == {}
        assert rec.headers.get("authorization") == (f"Bearer {key}" if key else None)
    assert rec.headers["content-type"] == "application/json"


@pytest.mark.parametrize("provider", sorted(WIRE))
async def test_wire_format_auth_roles_and_parsing(service: FakeEmbeddingService,
                                                  provider: str) -> None:
    base, path, model = WIRE[provider]
    key = None if provider == "ollama" else KEY
    items = [("what is on my calendar", "query"), "the dentist is on Monday",
             ("the dentist is on Monday", "query"), "I like tea"]
    emb, out = await embed(service.config(provider, key=key, path=base), items)
    assert emb.model_id == f"{provider}:{model}"
    caps = emb.capabilities
    assert caps.remote and caps.roles == (provider in ("gemini", "cohere", "voyage"))
    # one request per role (in the order roles first appear), each the exact body of
    # its wire format; a batch lists its texts longest first
    docs = ["the dentist is on Monday", "I like tea"]
    queries = ["the dentist is on Monday", "what is on my calendar"]
    assert [r.path for r in service.requests] == [path, path]
    assert [r.body for r in service.requests] == [body_for(provider, queries, "query"),
                                                  body_for(provider, docs, "document")]
    for rec in service.requests:
        check_auth(provider, rec, key)
    # each input got its own text's vector, in input order
    for text, vec in zip([i if isinstance(i, str) else i[0] for i in items], out):
        assert vec.dtype == np.float32 and vec.shape == (DIMS,)
        assert np.allclose(vec, expected(text), atol=1e-6)


async def test_ollama_sends_a_key_only_when_configured(service: FakeEmbeddingService) -> None:
    await embed(service.config("ollama", key="proxy-key-1234"), ["hello"])
    check_auth("ollama", service.requests[0], "proxy-key-1234")


async def test_self_hosted_openai_server_needs_no_key(service: FakeEmbeddingService) -> None:
    emb, _ = await embed(service.config("openai", key=None, path="/v1", model="bge-m3"),
                         ["hello"])
    assert emb.model_id == "openai:bge-m3"
    assert "authorization" not in service.requests[0].headers
    assert service.requests[0].body["model"] == "bge-m3"


async def test_azure_mode(service: FakeEmbeddingService) -> None:
    cfg = service.config("openai", path="/openai/deployments/emb-small",
                         api_version="2024-10-21")
    _, out = await embed(cfg, ["hello azure"])
    rec = service.requests[0]
    assert rec.path == "/openai/deployments/emb-small/embeddings"
    assert rec.query == {"api-version": "2024-10-21"}
    assert rec.headers["api-key"] == KEY and "authorization" not in rec.headers
    assert np.allclose(out[0], expected("hello azure"), atol=1e-6)


async def test_openrouter_routing_fields_and_key_variable(
        service: FakeEmbeddingService) -> None:
    cfg = service.config("openai", key=None, path="/api/v1",
                         model="openai/text-embedding-3-small",
                         openrouter={"order": ["openai", "azure"], "ignore": ["deepinfra"]})
    emb, _ = await embed(cfg, ["route me"], env={"OPENROUTER_API_KEY": "or-key-5678",
                                                 "OPENAI_API_KEY": "wrong-key-0000"})
    rec = service.requests[0]
    assert rec.path == "/api/v1/embeddings"
    assert rec.body["provider"] == {"order": ["openai", "azure"], "ignore": ["deepinfra"]}
    assert rec.body["model"] == "openai/text-embedding-3-small"
    assert rec.headers["authorization"] == "Bearer or-key-5678"
    assert emb.model_id == "openai:openai/text-embedding-3-small"
    # empty routing lists send no routing object
    await embed(service.config("openai", path="/v1", openrouter={"order": []}), ["x"])
    assert "provider" not in service.requests[-1].body


@pytest.mark.parametrize("provider, endpoint", [
    ("openai", "http://api.openai.com/v1"),
    ("openai", "http://my-resource.openai.azure.com/openai/deployments/e"),
    ("openai", "http://openrouter.ai/api/v1"),
    ("gemini", "http://generativelanguage.googleapis.com/v1beta"),
    ("cohere", "http://API.cohere.com"),
    ("voyage", "http://api.voyageai.com/v1"),
    ("mistral", "http://api.mistral.ai/v1"),
])
def test_a_cloud_service_over_http_is_refused_before_a_key_is_sent(
        provider: str, endpoint: str) -> None:
    # a typo'd scheme sent the key unencrypted with the first request (the service's
    # redirect to https, not followed, came after it)
    with pytest.raises(ConfigError, match="embedding.endpoint") as info:
        Embedder.from_config({"provider": provider, "endpoint": endpoint,
                              "api_key": "sk-secret-1234"})
    assert "https://" in str(info.value) and "sk-secret" not in str(info.value)


@pytest.mark.parametrize("host", ["notopenrouter.ai", "openrouter.ai.example"])
def test_a_host_merely_named_like_openrouter_gets_no_openrouter_key(host: str) -> None:
    # a suffix test took notopenrouter.ai for OpenRouter: its key was required, and the
    # one in the environment sent there; it is any other server (OPENAI_API_KEY, optional)
    env = {"OPENROUTER_API_KEY": "or-key-5678"}
    emb = Embedder.from_config({"provider": "openai", "endpoint": f"https://{host}/api/v1"},
                               env=env)
    assert isinstance(emb.provider, RemoteProvider)
    assert emb.provider.settings.api_key is None
    assert provider_key(embedding_config({"provider": "openai",
                                          "endpoint": f"https://{host}/api/v1"}), env) \
        == (None, "OPENAI_API_KEY")
    # OpenRouter itself, and a subdomain of it, still are
    for real in ("openrouter.ai", "eu.openrouter.ai"):
        cfg = embedding_config({"provider": "openai", "endpoint": f"https://{real}/api/v1"})
        assert provider_key(cfg, env) == ("or-key-5678", "OPENROUTER_API_KEY")


@pytest.mark.parametrize("provider, field", [
    ("openai", "dimensions"), ("gemini", "outputDimensionality"), ("voyage", "output_dimension"),
    ("cohere", None), ("mistral", None), ("ollama", None),
])
async def test_dimensions(service: FakeEmbeddingService, provider: str,
                          field: str | None) -> None:
    """Providers whose API takes an output size are asked for it; for the others the
    Embedder truncates the native vectors (E7)."""
    cfg = service.config(provider, path=WIRE[provider][0], dimensions=4,
                         model="some-model")
    emb, out = await embed(cfg, ["hello"])
    body = service.requests[0].body
    sent = body["requests"][0].get(field) if provider == "gemini" else body.get(field or "")
    assert sent == (4 if field else None)
    assert emb.dimensions == 4 and out[0].shape == (4,)
    raw = np.asarray(vector("hello", 4 if field else DIMS), dtype=np.float32)[:4]
    assert np.allclose(out[0], raw / np.linalg.norm(raw), atol=1e-6)


@pytest.mark.parametrize("provider", sorted(WIRE))
async def test_batches_of_batch_size_in_input_order(service: FakeEmbeddingService,
                                                    provider: str) -> None:
    texts = [f"note {i:02d}" for i in range(70)]  # equal lengths: batches keep input order
    _, out = await embed(service.config(provider, path=WIRE[provider][0]), texts)
    assert [len(r.texts) for r in service.requests] == [32, 32, 6]
    assert [t for r in service.requests for t in r.texts] == texts
    assert all(np.allclose(v, expected(t), atol=1e-6) for v, t in zip(out, texts))


@pytest.mark.parametrize("provider, limit", [("cohere", 96), ("gemini", 100)])
async def test_provider_max_batch_cuts_batches(service: FakeEmbeddingService, provider: str,
                                               limit: int) -> None:
    cfg = service.config(provider, path=WIRE[provider][0], batch_size=500)
    emb = Embedder.from_config(cfg)
    assert emb.batch_size == limit
    texts = [f"item {i:03d}" for i in range(limit + 5)]
    out = await emb.embed_many(texts)
    await emb.aclose()
    assert [len(r.texts) for r in service.requests] == [limit, 5]
    assert all(np.allclose(v, expected(t), atol=1e-6) for v, t in zip(out, texts))


async def test_answer_order_follows_the_index_field(service: FakeEmbeddingService) -> None:
    service.default = Step(shuffle=True)
    texts = ["first text", "other text", "third text"]
    _, out = await embed(service.config("openai", path="/v1"), texts)
    assert all(np.allclose(v, expected(t), atol=1e-6) for v, t in zip(out, texts))


def _numbered(indexes: list[int]) -> Any:
    """An OpenAI-shaped answer whose items carry these ``index`` fields."""
    return lambda rec: {"data": [{"index": i, "embedding": vector(t)}
                                 for i, t in zip(indexes, rec.texts)]}


@pytest.mark.parametrize("indexes", [[0, 0, 1], [0, 1, 0], [1, 2, 3], [0, 2, 5]])
async def test_answer_whose_index_fields_do_not_number_the_texts_is_refused(
        service: FakeEmbeddingService, indexes: list[int]) -> None:
    # a proxy numbering each sub-batch from 0 (0, 1, 0): sorting by index would hand
    # one text's vector to another; it is refused, as a wrong count is
    service.default = Step(body=_numbered(indexes))
    with pytest.raises(EmbeddingUnavailable) as info:
        await embed(service.config("openai", path="/v1", max_retries=0),
                    ["first text", "other text", "third text"])
    assert info.value.retry_decision == "invalid" and "index" in str(info.value)


async def test_answer_giving_every_vector_the_same_index_keeps_its_order(
        service: FakeEmbeddingService) -> None:
    # a server writing index 0 for each item says nothing about the order: as without one
    service.default = Step(body=_numbered([0, 0, 0]))
    texts = ["first text", "other text", "third text"]
    _, out = await embed(service.config("openai", path="/v1"), texts)
    assert all(np.allclose(v, expected(t), atol=1e-6) for v, t in zip(out, texts))


def _listed_backwards(labels: list[Any]) -> Any:
    """An OpenAI-shaped answer listing the texts' vectors last first, text k's vector
    with the ``index`` field ``labels[k]`` (None: no field)."""
    def body(rec: Recorded) -> Any:
        items = [{"embedding": vector(t), **({} if label is None else {"index": label})}
                 for t, label in zip(rec.texts, labels)]
        return {"data": items[::-1]}
    return body


@pytest.mark.parametrize("labels", [[0, "1"], [0, None], [0.5, 1], [False, True]],
                         ids=["a string", "one missing", "a fraction", "booleans"])
async def test_answer_whose_index_fields_are_not_all_whole_numbers_is_refused(
        service: FakeEmbeddingService, labels: list[Any]) -> None:
    # one index it could not read made the whole answer be taken in its own order:
    # listed backwards, each text got the other's vector, stored without a word
    service.default = Step(body=_listed_backwards(labels))
    with pytest.raises(EmbeddingUnavailable) as info:
        await embed(service.config("openai", path="/v1", max_retries=0),
                    ["first text", "other text"])
    assert info.value.retry_decision == "invalid" and "'index'" in str(info.value)


async def test_index_fields_written_as_whole_floats_order_the_answer(
        service: FakeEmbeddingService) -> None:
    # 1.0 is the number 1 in JSON: it orders the answer (it was ignored, and a list
    # given backwards handed each text the other's vector)
    service.default = Step(body=_listed_backwards([0.0, 1.0, 2.0]))
    texts = ["first text", "other text", "third text"]
    _, out = await embed(service.config("openai", path="/v1"), texts)
    assert all(np.allclose(v, expected(t), atol=1e-6) for v, t in zip(out, texts))


@pytest.mark.parametrize("row", [["0.5", "0.25", "1"], [True, False, True], [0.5, None, 1.0],
                                 [0.5, "0.25", 1.0], [{"v": 1}, 0.5, 1.0],
                                 # one true among numbers: numpy read it as 1.0, stored
                                 [0.5, True, 1.0], [1, False, 0]])
async def test_answer_with_values_that_are_not_numbers_is_refused(
        service: FakeEmbeddingService, row: list[Any]) -> None:
    # "0.5" and true are not numbers in JSON: numpy would quietly read them as such
    service.default = Step(body=lambda rec: {"embeddings": [row for _ in rec.texts]})
    with pytest.raises(EmbeddingUnavailable) as info:
        await embed(service.config("ollama", key=None, max_retries=0), ["alpha", "beta"])
    assert info.value.retry_decision == "invalid" and "not numbers" in str(info.value)


@pytest.mark.parametrize("key", ["sk-live-0123456789\r", "sk-live-0123456789\n",
                                 " sk-live-0123456789", "sk-live-0123456789 ",
                                 "sk-live-01234\x0056789", "sk-live-0123456789\u00e9"])
@pytest.mark.parametrize("from_env", [False, True])
async def test_key_that_a_request_cannot_carry_is_a_config_error_without_the_key(
        service: FakeEmbeddingService, key: str, from_env: bool,
        caplog: pytest.LogCaptureFixture) -> None:
    # a key read from a file with Windows line ends: the HTTP library refused it on every
    # call, quoting it escaped ("…\\r", which redaction did not match) as a network error
    # (decision defer: retried forever; doctor said the service was unreachable)
    config = service.config("openai", key=None if from_env else key)
    env = {"OPENAI_API_KEY": key} if from_env else {}
    with caplog.at_level("DEBUG"), pytest.raises(ConfigError) as info:
        await embed(config, ["hello"], env=env)
    text = str(info.value)
    assert "embedding.api_key" in text and ("OPENAI_API_KEY" in text) == from_env
    assert "0123456789" not in text and "56789" not in caplog.text
    assert not service.requests


async def test_a_key_that_cannot_be_sent_is_not_quoted_by_the_error(
        service: FakeEmbeddingService, caplog: pytest.LogCaptureFixture) -> None:
    # a provider built directly skips the registry's check: the HTTP layer's error
    # quotes the header escaped, and that form is redacted too
    from chatmem.embedding.openai import OpenAIProvider
    from chatmem.embedding.remote import RemoteSettings

    provider = OpenAIProvider(RemoteSettings(model="m", endpoint=service.url,
                                             api_key="sk-live-0123456789\r", max_retries=0))
    emb = Embedder(provider)
    with caplog.at_level("DEBUG"), pytest.raises(EmbeddingUnavailable) as info:
        await emb.embed_many(["hello"])
    await emb.aclose()
    assert "0123456789" not in str(info.value) and "0123456789" not in caplog.text


async def test_cohere_v1_answer_shape_is_accepted(service: FakeEmbeddingService) -> None:
    service.default = Step(shape="v1")
    _, out = await embed(service.config("cohere"), ["alpha", "beta"])
    assert np.allclose(out[1], expected("beta"), atol=1e-6)


@pytest.mark.parametrize("endpoint_path, request_path", [
    ("/v1", "/v1/embeddings"), ("/v1/", "/v1/embeddings"), ("/v1/embeddings", "/v1/embeddings"),
])
async def test_openai_endpoint_base_or_full_url(service: FakeEmbeddingService,
                                                endpoint_path: str, request_path: str) -> None:
    await embed(service.config("openai", path=endpoint_path), ["x"])
    assert service.requests[0].path == request_path


@pytest.mark.parametrize("provider, endpoint_path, request_path", [
    ("ollama", "/api", "/api/embed"), ("ollama", "/api/embed", "/api/embed"),
    ("cohere", "/v2", "/v2/embed"),
])
async def test_endpoint_may_carry_part_of_the_path(service: FakeEmbeddingService, provider: str,
                                                   endpoint_path: str, request_path: str) -> None:
    await embed(service.config(provider, path=endpoint_path), ["x"])
    assert service.requests[0].path == request_path


async def test_endpoint_with_a_query_keeps_it(service: FakeEmbeddingService) -> None:
    cfg = service.config("openai", path="/openai/deployments/d?api-version=2024-10-21")
    await embed(cfg, ["x"])
    rec = service.requests[0]
    assert (rec.path, rec.query) == ("/openai/deployments/d/embeddings",
                                     {"api-version": "2024-10-21"})
    assert rec.headers["api-key"] == KEY  # an Azure host or api-version: Azure's header


async def test_router_shorthand(service: FakeEmbeddingService) -> None:
    cfg = {"model": "openai/text-embedding-3-small", "endpoint": service.url + "/v1",
           "api_key": KEY}
    emb, _ = await embed(cfg, ["short"])
    assert emb.model_id == "openai:text-embedding-3-small"
    assert service.requests[0].body["model"] == "text-embedding-3-small"
    assert embedding_config("google/gemini-embedding-001").provider == "gemini"
    # OpenRouter's model names keep their own prefix, and the service is OpenRouter
    cfg_or = embedding_config({"model": "openrouter/openai/text-embedding-3-small"})
    assert (cfg_or.provider, cfg_or.model, cfg_or.endpoint) == (
        "openai", "openai/text-embedding-3-small", "https://openrouter.ai/api/v1")


@pytest.mark.parametrize("provider, extra, var", [
    ("openai", {"path": "/v1"}, "OPENAI_API_KEY"),
    ("openai", {"path": "/openai/deployments/d", "api_version": "2024-10-21"},
     "AZURE_OPENAI_API_KEY"),
    ("openai", {"path": "/api/v1", "openrouter": {"order": ["openai"]}}, "OPENROUTER_API_KEY"),
    ("gemini", {}, "GEMINI_API_KEY"),
    ("cohere", {}, "COHERE_API_KEY"),
    ("voyage", {}, "VOYAGE_API_KEY"),
    ("mistral", {}, "MISTRAL_API_KEY"),
])
async def test_key_from_the_environment_mapping(service: FakeEmbeddingService, provider: str,
                                                extra: dict[str, Any], var: str) -> None:
    env = {var: "env-key-9999", "UNRELATED_API_KEY": "nope-0000"}
    await embed(service.config(provider, key=None, **extra), ["hello"], env=env)
    rec = service.requests[0]
    sent = rec.query.get("key") or rec.headers.get("api-key") or rec.headers["authorization"]
    assert sent.removeprefix("Bearer ") == "env-key-9999"
    # the configuration's key wins over the environment
    await embed(service.config(provider, key="cfg-key-1111", **extra), ["other"], env=env)
    rec = service.requests[1]
    sent = rec.query.get("key") or rec.headers.get("api-key") or rec.headers["authorization"]
    assert sent.removeprefix("Bearer ") == "cfg-key-1111"


@pytest.mark.parametrize("config, var", [
    ({"provider": "openai"}, "OPENAI_API_KEY"),
    ({"model": "openai/text-embedding-3-large"}, "OPENAI_API_KEY"),
    ({"provider": "openai", "api_version": "2024-10-21",
      "endpoint": "https://acme.openai.azure.com/openai/deployments/emb"}, "AZURE_OPENAI_API_KEY"),
    ({"provider": "openai", "endpoint": "https://openrouter.ai/api/v1"}, "OPENROUTER_API_KEY"),
    ({"provider": "gemini"}, "GEMINI_API_KEY"),
    ({"provider": "cohere"}, "COHERE_API_KEY"),
    ({"provider": "voyage"}, "VOYAGE_API_KEY"),
    ({"provider": "mistral"}, "MISTRAL_API_KEY"),
])
def test_cloud_provider_without_key_fails_at_construction(config: dict[str, Any],
                                                          var: str) -> None:
    env = {"SOME_OTHER_API_KEY": "x" * 12}  # no fallback to anything else
    with pytest.raises(EmbeddingUnavailable) as info:
        Embedder.from_config(config, env=env)
    err = info.value
    assert "embedding.api_key" in str(err) and var in str(err)
    assert err.retry_decision == "fail" and err.provider == embedding_config(config).provider


def test_registry_declarations_match_the_provider_classes() -> None:
    for name, spec in PROVIDERS.items():
        module, _, cls_name = spec.target.partition(":")
        cls = getattr(importlib.import_module(module), cls_name)
        assert cls.name == name and cls.roles == spec.roles, name
        assert spec.default_model and spec.default_endpoint, name


@pytest.mark.parametrize("embedding, field", [
    ({"provider": "ollama", "endpoint": "http://127.0.0.1:11434\r\nX-Injected: 1"},
     "embedding.endpoint"),
    ({"provider": "openai", "endpoint": "http://host /v1"}, "embedding.endpoint"),
    ({"model": "openai/"}, "embedding.model"),
    ("gemini/ ", "embedding.model"),
    ("azure/text-embedding-3-small", "embedding.endpoint"),
    ({"provider": "openai", "headers": {"X-Extra": "a\r\nb"}}, "embedding.headers"),
    # framing is per request: every call failed ("Too much data for declared
    # Content-Length"), or the service read no body
    ({"provider": "ollama", "headers": {"Content-Length": "5"}}, "embedding.headers"),
    ({"provider": "ollama", "headers": {"transfer-encoding": "chunked"}}, "embedding.headers"),
    ({"provider": "openai", "timeout": 0}, "embedding.timeout"),
    ({"provider": "ollama", "model": "my-model", "dimensions": 8193}, "embedding.dimensions"),
])
def test_bad_embedding_settings_are_config_errors_naming_the_field(
        embedding: Any, field: str) -> None:
    with pytest.raises(ConfigError, match=field.replace(".", r"\.")):
        Embedder.from_config(embedding, env={})


@pytest.mark.parametrize("config", [
    {"provider": "openai", "model": "text-embedding-ada-002", "dimensions": 512},
    {"provider": "openai", "model": "text-embedding-ada-002", "dimensions": 1024,
     "endpoint": "https://API.openai.com/v1/embeddings"},
    {"model": "openai/text-embedding-ada-002", "dimensions": 256},
    {"provider": "openai", "model": "text-embedding-ada-002", "dimensions": 3072},
])
def test_ada_002_at_openai_cannot_be_asked_for_a_size(config: dict[str, Any]) -> None:
    # OpenAI answers 400 to every request of text-embedding-ada-002 that carries
    # `dimensions` (only the text-embedding-3 models take it): the embedder was built,
    # then every call refused and the messages waited for retries that never succeed
    with pytest.raises(ConfigError) as info:
        Embedder.from_config({**config, "api_key": KEY})
    text = str(info.value)
    assert text.startswith("embedding.dimensions") and "text-embedding-3" in text
    assert "0" in text and KEY not in text


@pytest.mark.parametrize("dimensions", [0, 1536])
def test_ada_002_at_openai_at_its_own_size_sends_none(dimensions: int) -> None:
    emb = Embedder.from_config({"provider": "openai", "model": "text-embedding-ada-002",
                                "api_key": KEY, "dimensions": dimensions})
    provider = emb.provider
    assert isinstance(provider, RemoteProvider) and emb.dimensions == 1536
    assert "dimensions" not in provider.request(["a text"], "document").body


async def test_a_model_named_ada_002_elsewhere_is_sent_the_size(
        service: FakeEmbeddingService) -> None:
    # a self-hosted server (or a proxy) may serve any model under that name: what it
    # takes is not known, so the size is sent as configured
    _, out = await embed(service.config("openai", path="/v1", dimensions=4,
                                        model="text-embedding-ada-002"), ["hello"])
    assert service.requests[0].body["dimensions"] == 4 and out[0].shape == (4,)



@pytest.mark.parametrize("query, api_version", [
    ("?api-version=2024-10-21", "2024-10-21"),
    ("?api-version=2024-10-21", " 2024-10-21 "),
    ("?api-version=2024-10-21&api-version=2024-10-21", None),
    ("?x-ms-flag=on&api-version=2024-10-21", "2024-10-21"),
    ("?api-version=2024-10-21", None),
    ("", "2024-10-21"),
])
async def test_azure_requests_carry_one_api_version(service: FakeEmbeddingService, query: str,
                                                    api_version: str | None) -> None:
    # the version in the endpoint and in embedding.api_version both went out
    # (?api-version=2024-10-21&api-version=2024-10-21)
    extra = {"api_version": api_version} if api_version is not None else {}
    await embed(service.config("openai", path="/openai/deployments/d" + query, **extra),
                ["x"])
    rec = service.requests[0]
    pairs = parse_qsl(rec.raw_query)
    assert [v for k, v in pairs if k.lower() == "api-version"] == ["2024-10-21"], \
        rec.raw_query
    others = [p for p in parse_qsl(query.lstrip("?")) if p[0] != "api-version"]
    assert [p for p in pairs if p[0] != "api-version"] == others  # kept as they were
    assert rec.path == "/openai/deployments/d/embeddings" and rec.headers["api-key"] == KEY


@pytest.mark.parametrize("endpoint, api_version, fields", [
    ("https://acme.openai.azure.com/openai/deployments/d?api-version=2024-02-01",
     "2024-10-21", ["embedding.api_version", "embedding.endpoint"]),
    ("https://acme.openai.azure.com/openai/deployments/d?api-version=2024-02-01"
     "&api-version=2024-10-21", None, ["embedding.endpoint"]),
])
def test_azure_api_versions_that_differ_are_refused(endpoint: str, api_version: str | None,
                                                    fields: list[str]) -> None:
    config = {"provider": "openai", "endpoint": endpoint, "api_key": KEY}
    if api_version:
        config["api_version"] = api_version
    with pytest.raises(ConfigError) as info:
        Embedder.from_config(config)
    text = str(info.value)
    assert all(f in text for f in fields) and "2024-02-01" in text and "2024-10-21" in text
