"""Refusals in the library's one wording (README § Configuration): the value shown as
JSON (``got "galaxy"``, ``got 1.5``, ``got null``), a bound in words (``must be at
least 1``, ``more than 0``), never a Python repr (``'galaxy'``, ``None``, ``True``) nor
``≥``/``≤``; the command line shows a value as it was typed (``got '0'``).

Each case is a refusal that was worded otherwise, with the words it had before."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chatmem.errors import ChatmemError, ConfigError


def _refusal(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(ChatmemError) as info:
        call(*args, **kwargs)
    return str(info.value)


async def _async_refusal(call: Any, *args: Any, **kwargs: Any) -> str:
    with pytest.raises(ChatmemError) as info:
        await call(*args, **kwargs)
    return str(info.value)


def test_a_count_of_the_test_embedder_is_refused_with_its_bound_in_words() -> None:
    """hash_vector("x", 0) said 'hash_vector dim must be an integer ≥ 1, got 0'."""
    from chatmem.testing import hash_vector

    assert _refusal(hash_vector, "x", 0) == \
        "hash_vector dim must be an integer of at least 1, got 0"
    assert _refusal(hash_vector, "x", True) == \
        "hash_vector dim must be an integer of at least 1, got true"


async def test_a_limit_of_an_agents_session_is_refused_with_its_bound_in_words() -> None:
    """ChatmemSession.get_items(limit=-1) said 'limit must be an integer ≥ 0, got -1'."""
    from chatmem import Memory, testing
    from chatmem.integrations.openai_agents import ChatmemSession

    async with await Memory.open("memory://", embedder=testing.embedder()) as memory:
        session = ChatmemSession(memory, "s")
        assert await _async_refusal(session.get_items, limit=-1) == \
            "limit must be an integer of at least 0, got -1"
        assert await _async_refusal(session.get_items, limit="2") == \
            'limit must be an integer of at least 0, got "2"'


async def test_a_wait_of_memory_is_refused_with_its_bound_in_words() -> None:
    """Memory.flush(timeout=-1) said 'timeout must be a number of seconds ≥ 0 (or None:
    no limit), got -1'."""
    from chatmem import Memory, testing

    memory = await Memory.open("memory://", embedder=testing.embedder())
    try:
        assert await _async_refusal(memory.flush, timeout=-1) == (
            "timeout must be a number of seconds of at least 0 (or None: no limit), got -1")
        assert await _async_refusal(memory.flush, timeout="5") == (
            'timeout must be a number of seconds of at least 0 (or None: no limit), got "5"')
    finally:
        await memory.close()


async def test_an_embedder_s_settings_and_inputs_are_refused_with_the_value_as_json(
        ) -> None:
    """Embedder(batch_size=0) said 'batch_size must be ≥ 1' (no value), dimensions=-1
    'dimensions must be ≥ 0 (…)', embed_many(max_retries=True) 'max_retries must be an
    integer ≥ 0, got True' (Python), and embed_many([5]) 'inputs[0]: text must be a
    string, got int' (the type, not the value)."""
    from chatmem.embedding import Embedder
    from providers import RecordingProvider

    provider = RecordingProvider(dim=16)
    assert _refusal(Embedder, provider, batch_size=0) == "batch_size must be at least 1, got 0"
    assert _refusal(Embedder, provider, dimensions=-1) == (
        "dimensions must be at least 0 (0 = the provider's own size), got -1")
    embedder = Embedder(provider)
    assert await _async_refusal(embedder.embed_many, ["x"], max_retries=True) == \
        "max_retries must be an integer of at least 0, got true"
    assert await _async_refusal(embedder.embed_many, ["x"], max_retries=-1) == \
        "max_retries must be an integer of at least 0, got -1"
    assert await _async_refusal(embedder.embed_many, [5]) == \
        "inputs[0] must be a string, got 5"
    assert await _async_refusal(embedder.embed_many, [(None, "query")]) == \
        "inputs[0].text must be a string, got null"


@pytest.mark.parametrize("given,says", [
    ({"timeout": "10"}, '--client-timeout must be between 0.1 and 3600 seconds, got "10"'),
    ({"timeout": True}, "--client-timeout must be between 0.1 and 3600 seconds, got true"),
    ({"max_connections": 2.5}, "--max-connections must be an integer from 1 to 1000000, "
                               "got 2.5"),
    ({"max_concurrent_requests": "4"}, "--max-concurrent-requests must be an integer from "
                                       '1 to 100000, got "4"'),
    ({"max_unread_mb": None}, "--max-unread-mb must be an integer from 1 to 1000000 (MiB), "
                              "got null"),
])
def test_a_server_limit_is_refused_with_the_value_as_json(given: dict[str, Any],
                                                          says: str) -> None:
    """ClientLimits(timeout="10") said "… got '10'", max_unread_mb=None "… got None"."""
    from chatmem.server.limits import ClientLimits

    with pytest.raises(ConfigError) as info:
        ClientLimits(**given)
    assert str(info.value) == says


@pytest.mark.parametrize("given,says", [
    ({"timeout": 0}, "timeout must be a number of seconds more than 0 and at most 3600, "
                     "got 0"),
    ({"timeout": None}, "timeout must be a number of seconds more than 0 and at most 3600, "
                        "got null"),
    ({"connect_retries": 11}, "connect_retries must be an integer from 0 to 10, got 11"),
    ({"busy_retries": True}, "busy_retries must be an integer from 0 to 10, got true"),
    ({"max_response_bytes": "2048"}, "max_response_bytes must be an integer of at least "
                                     '1024, got "2048"'),
])
def test_a_client_setting_is_refused_with_its_bounds_in_words(given: dict[str, Any],
                                                             says: str) -> None:
    """AsyncClient(…, timeout=0) said 'timeout must be seconds in (0, 3600], got 0',
    connect_retries=11 'connect_retries must be 0 to 10, got 11', busy_retries=True
    '… got True', max_response_bytes="2048" "… got '2048'"."""
    from chatmem.client import AsyncClient

    with pytest.raises(ConfigError) as info:
        AsyncClient("http://chatmem.test", **given)
    assert str(info.value) == says


def test_a_postgres_url_option_is_refused_with_its_bound_in_words() -> None:
    """postgresql://…?pool_size=0 said 'storage URL: pool_size must be ≥ 1, got 0'."""
    from chatmem.store.postgres import PostgresStore

    with pytest.raises(ConfigError) as info:
        PostgresStore.from_url("postgresql://u@127.0.0.1:1/db?pool_size=0")
    assert str(info.value) == "storage URL: pool_size must be at least 1, got 0"


def test_an_open_number_of_the_command_line_is_refused_with_its_bound_in_words() -> None:
    """chatmem doctor --deadline 0 said "--deadline must be a number > 0, got '0'"."""
    from click.testing import CliRunner

    from chatmem.cli import main

    result = CliRunner().invoke(main, ["doctor", "--deadline", "0"])
    assert result.exit_code == 2
    assert "--deadline must be a number of more than 0, got '0'" in result.output


@pytest.mark.parametrize("data,says", [
    ({"embedding": {"timeout": 0}}, "embedding.timeout must be more than 0, got 0"),
    ({"search": {"min_score": 2}}, "search.min_score must be at most 1, got 2"),
    ({"hybrid": {"cosine_baseline": 1}}, "hybrid.cosine_baseline must be less than 1, got 1"),
    ({"indexing": {"lease_s": 0.1}}, "indexing.lease_s must be at least 0.5, got 0.1"),
    ({"indexing": {"retry_max_s": 1e6}}, "indexing.retry_max_s must be at most 86400, "
                                         "got 1000000.0"),
])
def test_a_float_bound_of_a_table_reads_as_its_number(data: dict[str, Any], says: str
                                                      ) -> None:
    """Config.load({"embedding": {"timeout": 0}}) (a file's, a table's) said
    'embedding.timeout must be more than 0.0, got 0': the bound as Python prints a float."""
    from chatmem.config import Config

    with pytest.raises(ConfigError) as info:
        Config.load(data)
    assert str(info.value) == f"invalid configuration: {says}"


@pytest.mark.parametrize("env,says", [
    ({"CHATMEM_EMBEDDING__TIMEOUT": "0"},
     "embedding.timeout must be a number of more than 0 and at most 600, got '0'"),
    ({"CHATMEM_SEARCH__HALF_LIFE_DAYS": "0"},
     "search.half_life_days must be a number of more than 0, got '0'"),
    ({"CHATMEM_RETENTION__SWEEP_INTERVAL_S": "-1"},
     "retention.sweep_interval_s must be a number of at least 0, got '-1'"),
    ({"CHATMEM_HYBRID__COSINE_BASELINE": "1"},
     "hybrid.cosine_baseline must be a number of at least 0 and less than 1, got '1'"),
    ({"CHATMEM_INDEXING__CONCURRENCY": "65"},
     "indexing.concurrency must be an integer of at most 64, got '65'"),
    ({"CHATMEM_INDEXING__LEASE_S": "0"},
     "indexing.lease_s must be a number from 0.5 to 3600, got '0'"),
])
def test_a_bound_of_a_variable_reads_in_words(env: dict[str, str], says: str) -> None:
    """CHATMEM_EMBEDDING__TIMEOUT=0 said 'embedding.timeout must be a number > 0 and ≤
    600', CHATMEM_HYBRID__COSINE_BASELINE=1 '… ≥ 0 and < 1': symbols, where a file's
    refusal of the same option says its bound in words. (The variable's text is shown as
    typed, as the command line shows it.)"""
    from chatmem.config import Config

    with pytest.raises(ConfigError) as info:
        Config.load(env=env)
    assert str(info.value) == f"invalid configuration: {next(iter(env))}: {says}"


@pytest.mark.parametrize("option,value,says", [
    ("search", 5, "search must be a table, got 5"),
    ("platforms", 5, "platforms must be a table, got 5"),
    ("semantic_recall", 5, "semantic_recall must be true, false or a table, got 5"),
    ("semantic_recall.filter", 5, "semantic_recall.filter must be a table, got 5"),
    ("embedding.headers", 5, "embedding.headers must be a table"),  # a secret: no value
    ("embedding.openrouter.order", 5, "embedding.openrouter.order must be a list, got 5"),
])
def test_a_table_or_list_is_called_the_same_in_a_file_and_a_variable(
        option: str, value: Any, says: str) -> None:
    """A file's search = 5 said 'search must be an object, got 5' (semantic_recall = 5
    'must be true, false or an object'), CHATMEM_SEARCH=5 'search must be a JSON table,
    got '5'' (CHATMEM_SEMANTIC_RECALL=5 'must be true or false or a JSON table',
    CHATMEM_EMBEDDING__OPENROUTER__ORDER=5 'must be a JSON list'), where the rest of
    the configuration's refusals (a file not holding a table, a key file's keys.o = 5)
    call it a table. Now both say 'must be a table' ('… a list')."""
    from chatmem.config import Config, env_var

    data: dict[str, Any] = {}
    node = data
    *above, last = option.split(".")
    for part in above:
        node = node.setdefault(part, {})
    node[last] = value
    with pytest.raises(ConfigError) as info:
        Config.load(data)
    assert str(info.value) == f"invalid configuration: {says}"
    var = env_var(option)
    with pytest.raises(ConfigError) as info:
        Config.load(env={var: str(value)})
    typed = says.replace(f"got {value}", f"got '{value}'")
    assert str(info.value) == f"invalid configuration: {var}: {typed}"


@pytest.mark.parametrize("url,says", [
    ("qdrant://h?https=maybe&api_key=k1",
     'vector URL "qdrant://h?https=maybe&api_key=***": https must be a flag (https=1 or '
     'https=0), got "maybe"'),
    ("qdrant://h?bogus=1", 'vector URL "qdrant://h?bogus=1": unknown option "bogus"; known: '
                           "api_key, https, prefix, timeout, exact"),
    ("qdrant://h?prefix=a&prefix=b",
     'vector URL "qdrant://h?prefix=a&prefix=b": option "prefix" is given twice'),
    ("qdrant://h:6333/q", 'vector URL "qdrant://h:6333/q": unexpected path "/q"; a path '
                          "prefix goes in the query, e.g. ?prefix=/q"),
    ("qdrant+grpc://h", 'vector URL "qdrant+grpc://h": unknown scheme "qdrant+grpc"; use '
                        "qdrant://, qdrant+http://, qdrant+https:// or qdrant+local://"),
    ("qdrant+local://rel/dir", 'vector URL "qdrant+local://rel/dir": "rel/dir" is not an '
                               "absolute folder; use qdrant+local:///absolute/folder (three "
                               "slashes) or qdrant+local://:memory:"),
    ("sqlite:///x.db", 'vector URL "sqlite:///x.db": a SQL store is its own vector index; '
                       "pass it as the storage URL and leave vector unset, or use "
                       "qdrant://host:port"),
    ("redis://h", 'vector URL "redis://h": unknown scheme; use qdrant://host:port or '
                  "qdrant+local:///path"),
])
def test_a_vector_url_is_quoted_as_json(url: str, says: str) -> None:
    """Memory.open(vector="qdrant://h?https=maybe") said "vector URL
    'qdrant://h?https=maybe': https='maybe' is not a flag; …": the URL and its parts
    quoted as Python, where a storage URL's refusal shows a value as JSON ('storage URL:
    pool_size must be an integer, got "abc"')."""
    from chatmem.store.qdrant import parse_url
    from chatmem.store.urls import check_vector_url

    with pytest.raises(ConfigError) as info:  # (qdrant+grpc: as Memory.open's index)
        (parse_url if url.startswith("qdrant") else check_vector_url)(url)
    assert str(info.value) == says


@pytest.mark.parametrize("url,says", [
    ("sqlite://chat.db", 'storage URL "sqlite://chat.db" has a host part "chat.db", which '
                         'SQLite URLs cannot have: for the file "chat.db" relative to the '
                         'working directory write "sqlite:///chat.db", for an absolute path '
                         '"sqlite:////chat.db"'),
    ("sqlite:///a.db?mode=ro", 'storage URL "sqlite:///a.db?mode=ro": SQLite URLs take no '
                               'options or fragments ("?"…); remove that part, or write a '
                               '"?" that belongs to the file name as %3F (or pass the plain '
                               "path)"),
    ("mysql://x/y", 'storage URL "mysql://x/y": unknown scheme; use sqlite:///relative/'
                    "path.db or sqlite:////absolute/path.db, a plain file path, memory:// "
                    "or postgresql://user@host/db"),
    ("postgresql://h/db?schema=Bad", 'storage URL: schema "Bad" is not a valid name '
                                     "(lowercase letters, digits and _, not starting with a "
                                     "digit or pg_, at most 63 characters)"),
])
def test_a_storage_url_is_quoted_as_json(url: str, says: str) -> None:
    """A SQLite storage URL's refusal quoted the URL as Python ("storage URL
    'sqlite://chat.db' has a host part 'chat.db'…"), a PostgreSQL schema "schema
    'Bad'", where its options' refusals show their values as JSON."""
    from chatmem.store.urls import check_store_url

    with pytest.raises(ConfigError) as info:
        check_store_url(url)
    assert str(info.value) == says


@pytest.mark.parametrize("url,says", [
    (5, "base_url must be an http:// or https:// URL, got 5"),
    ("ftp://u:pw@h/x", 'base_url must be an http:// or https:// URL, got "ftp://u:***@h/x"'),
    ("http://", 'base_url "http://" names no host, e.g. http://127.0.0.1:8765'),
])
def test_a_client_s_base_url_is_quoted_as_json(url: Any, says: str) -> None:
    """AsyncClient("ftp://h") said "base_url must be … URL, got 'ftp://h'", and
    AsyncClient(5) raised AttributeError ('int' object has no attribute 'partition'),
    no ChatmemError."""
    from chatmem.client import AsyncClient

    with pytest.raises(ConfigError) as info:
        AsyncClient(url)
    assert str(info.value) == says


def test_a_key_refused_by_the_http_api_is_quoted_as_json(tmp_path: Any) -> None:
    """A user key's DELETE said "clearing needs an owner key; key 'bot' has role
    'user'", a key bound to session s1 "session 's2': key 'dm' acts only for its own
    sessions", to platform tg "platform 'dc': key 'tg' acts only on platform 'tg'",
    GET /v1/stats "… key 'bot' has role 'user'", a body naming a key twice "body: the
    key 'target' appears twice": the key, its role and the value quoted as Python, where
    every other refusal of the HTTP API shows a value as JSON."""
    from starlette.testclient import TestClient

    from chatmem import testing
    from chatmem.server.http import KeyTable, create_app

    keys = {"owner": "owner-key-0123456789abcdef", "bot": "bot-key-0123456789abcdef00",
            "dm": "dm-key-0123456789abcdef000", "tg": "tg-key-0123456789abcdef000"}
    table = KeyTable.from_mapping({"keys": {
        "owner": {"key": keys["owner"], "namespace": "n", "role": "owner"},
        "bot": {"key": keys["bot"], "namespace": "n", "role": "user"},
        "dm": {"key": keys["dm"], "namespace": "n", "sessions": ["s1"]},
        "tg": {"key": keys["tg"], "namespace": "n", "platform": "tg"},
    }})
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=table,
                     embedder=testing.embedder())

    def refusal(key: str, method: str, path: str, status: int = 403, **kw: Any) -> str:
        headers = {"Authorization": f"Bearer {keys[key]}", **kw.pop("headers", {})}
        with TestClient(app) as c:
            r = c.request(method, path, headers=headers, **kw)
        assert r.status_code == status, r.text
        return str(r.json()["error"]["message"])

    assert refusal("bot", "POST", "/v1/clear", json={"target": "all"}) == \
        'clearing needs an owner key; key "bot" has role "user"'
    assert refusal("dm", "POST", "/v1/recall", json={"query": "x", "session": "s2"}) == \
        'session "s2": key "dm" acts only for its own sessions (keys.<name>.sessions)'
    assert refusal("tg", "POST", "/v1/recall", json={"query": "x", "session": "s1",
                                                         "platform": "dc"}) == \
        'platform "dc": key "tg" acts only on platform "tg" (keys.<name>.platform)'
    assert refusal("bot", "GET", "/v1/stats").startswith(
        "/v1/stats counts every conversation of the namespace: it needs an owner key")
    assert '; key "bot" has role "user" (its own' in refusal("bot", "GET", "/v1/stats")
    assert refusal("owner", "POST", "/v1/clear", 400,
                   content=b'{"target": "all", "target": "vector"}',
                   headers={"Content-Type": "application/json"}) == \
        'body: the key "target" appears twice in one object; send each key once'


def test_an_owner_only_change_of_the_library_quotes_the_actor_as_json() -> None:
    """Actor.owner({"id": "u1", "role": "user"}, …) said "only an owner may change
    settings; 'u1' has role 'user'"."""
    from chatmem.errors import PermissionDenied
    from chatmem.scopes import Actor

    with pytest.raises(PermissionDenied) as info:
        Actor.owner({"id": "u1", "role": "user"}, "settings")
    assert str(info.value) == 'only an owner may change settings; "u1" has role "user"'


@pytest.mark.parametrize("env,says", [
    ({"CHATMEM_SEARCH__TOP_K__X": "1"}, "CHATMEM_SEARCH__TOP_K__X: search.top_k is a number "
                                        "and has no fields; set CHATMEM_SEARCH__TOP_K"),
    ({"CHATMEM_SEARCH__TOP_K__X": "1", "CHATMEM_SEARCH__TOP_K__Y__Z": "2"},
     "CHATMEM_SEARCH__TOP_K__X and CHATMEM_SEARCH__TOP_K__Y__Z: search.top_k is a number "
     "and has no fields; set CHATMEM_SEARCH__TOP_K"),
    ({"CHATMEM_HYBRID__MODE__X": "1"}, "CHATMEM_HYBRID__MODE__X: hybrid.mode is a string "
                                       "and has no fields; set CHATMEM_HYBRID__MODE"),
    ({"CHATMEM_EMBEDDING__API_KEY__X": "k"},  # a secret: its value never shown
     "CHATMEM_EMBEDDING__API_KEY__X: embedding.api_key is a string and has no fields; set "
     "CHATMEM_EMBEDDING__API_KEY"),
    ({"CHATMEM_EMBEDDING__OPENROUTER__ORDER__X": "a"},
     "CHATMEM_EMBEDDING__OPENROUTER__ORDER__X: embedding.openrouter.order is a list and has "
     "no fields; set CHATMEM_EMBEDDING__OPENROUTER__ORDER"),
    ({"CHATMEM_SEARCH": '{"top_k": {"x": 1}}'},  # inside JSON: the value as JSON, as before
     'CHATMEM_SEARCH: search.top_k must be an integer, got {"x": 1}'),
])
def test_a_variable_inside_an_option_of_one_value_is_named(env: dict[str, str], says: str
                                                           ) -> None:
    """CHATMEM_SEARCH__TOP_K__X=1 said 'CHATMEM_SEARCH__TOP_K__X: search.top_k must be an
    integer, got {"x": "1"}': a JSON dump the user never wrote, of a table the variable
    made. Now it names the variable(s) and says what the option is."""
    from chatmem.config import Config

    with pytest.raises(ConfigError) as info:
        Config.load(env=env)
    assert str(info.value) == f"invalid configuration: {says}"


@pytest.mark.parametrize("env,says", [
    ({"CHATMEM_SCOPE__X": "1"},
     "CHATMEM_SCOPE__X: scope is a string and has no fields; set CHATMEM_SCOPE"),
    ({"CHATMEM_LAST_MESSAGES__X": "1"}, "CHATMEM_LAST_MESSAGES__X: last_messages is a number "
                                        "and has no fields; set CHATMEM_LAST_MESSAGES"),
    ({"chatmem_timezone__x__y": "UTC"}, "chatmem_timezone__x__y: timezone is a string and "
                                        "has no fields; set CHATMEM_TIMEZONE"),
])
def test_a_variable_inside_a_top_level_option_of_one_value_is_refused(
        env: dict[str, str], says: str) -> None:
    """CHATMEM_SCOPE__X=1 (or one below last_messages, timezone) was accepted and
    dropped with no word: the environment source reads variables below a section only,
    and the check for misspelt variables let every name that began with an option's
    pass. The option kept its default, whatever the user meant to set."""
    from chatmem.config import Config

    with pytest.raises(ConfigError) as info:
        Config.load(env=env)
    assert str(info.value) == f"invalid configuration: {says}"
    assert Config.load(env={"CHATMEM_SCOPE": "all"}).scope == "all"


def test_an_unknown_key_of_a_window_is_named_bare() -> None:
    """A window {"x": 1} said "context_expand.window: unknown key(s) ['x']" (a Python
    list)."""
    from chatmem.config import Config

    with pytest.raises(ConfigError) as info:
        Config.load({"context_expand": {"window": {"x": 1, "b": 2}}})
    assert str(info.value) == ("invalid configuration: context_expand.window: unknown key(s) "
                               "b, x; use an integer or {before, after}")


@pytest.mark.parametrize("data,says", [
    ({"embedding": {"model": "openai/"}}, 'embedding.model: "openai/" names the openai '
                                          "provider but no model; write openai/<model>, or "
                                          "set embedding.provider and leave embedding.model "
                                          "out"),
    ({"embedding": {"endpoint": "ftp://h"}}, "embedding.endpoint must be an http(s) URL such "
                                             'as http://127.0.0.1:11434, got "ftp://h"'),
    ({"embedding": {"headers": {"X Team": "a"}}}, 'embedding.headers: invalid header "X Team" '
                                                  "(names of ASCII letters, digits and -, "
                                                  "values of ASCII text on one line)"),
    ({"embedding": {"headers": {"Content-Length": "5"}}},
     'embedding.headers: "Content-Length" is set for each request from its body; remove it'),
    ({"platforms": {"tg": {"chat_types": {"dm": " "}}}},
     'platforms.tg.chat_types: the label of chat type "dm" must be non-empty text, such as '
     '"private chat"'),
    ({"timezone": "Mars/Base"}, 'timezone: unknown time zone "Mars/Base" (use an IANA name '
                                "such as Asia/Shanghai or UTC)"),
    ({1: 2}, "option names must be strings, got 1"),
])
def test_a_value_a_validator_of_the_configuration_refuses_is_json(data: Any, says: str
                                                                   ) -> None:
    """The configuration's own validators quoted the value as Python: 'embedding.model:
    'openai/' names the openai provider…', "embedding.endpoint must be an http(s) URL such
    as 'http://127.0.0.1:11434', got 'ftp://h'", "invalid header 'X Team'", "the label
    of chat type 'dm'", "unknown time zone 'Mars/Base'", where the rest of the
    configuration's refusals show a value as JSON."""
    from chatmem.config import Config

    with pytest.raises(ConfigError) as info:
        Config.load(data)
    assert str(info.value) == f"invalid configuration: {says}"


async def test_a_message_or_session_not_found_is_quoted_as_json(tmp_path: Any) -> None:
    """Memory.rewrite("s1", 3000, …) of no message said "no message at session 's1', ts
    3000", POST /v1/rewrite with visible_from "no message at ts=3000 in session 's1'
    that 's2' may see", GET /v1/sessions/s9 "session 's9' is not registered (PUT it
    first)": the session quoted as Python, where every other refusal shows it as JSON."""
    from starlette.testclient import TestClient

    from chatmem import Memory, testing
    from chatmem.errors import NotFound
    from chatmem.server.http import KeyTable, create_app

    async with await Memory.open("memory://", embedder=testing.embedder()) as memory:
        with pytest.raises(NotFound) as info:
            await memory.rewrite("s1", 3000, content="x")
    assert str(info.value) == 'no message at session "s1", ts 3000'

    key = "owner-key-0123456789abcdef"
    table = KeyTable.from_mapping({"keys": {
        "owner": {"key": key, "namespace": "n", "role": "owner"}}})
    app = create_app(url=f"sqlite:///{tmp_path}/{{namespace}}.db", keys=table,
                     embedder=testing.embedder())
    with TestClient(app, headers={"Authorization": f"Bearer {key}"}) as c:
        r = c.post("/v1/rewrite", json={"session": "s1", "ts": 3000, "content": "x",
                                        "visible_from": "s2"})
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"] == \
            'no message at ts=3000 in session "s1" that "s2" may see'
        r = c.get("/v1/sessions/s9")
        assert r.status_code == 404, r.text
        assert r.json()["error"]["message"] == \
            'session "s9" is not registered (PUT it first)'


async def test_a_filter_field_a_vector_index_does_not_have_is_quoted_as_json() -> None:
    """A vector index's query or delete_by_filter({"content": "x"}) said "filter field
    'content' is not a vector field; use one of ['message_id', 'model_id', …]": the field
    quoted and the fields listed as Python."""
    from chatmem import Memory, testing
    from chatmem.errors import FilterError
    from chatmem.models import VECTOR_FIELDS

    async with await Memory.open("memory://", embedder=testing.embedder()) as memory:
        with pytest.raises(FilterError) as info:
            await memory.storage.index.delete_by_filter({"content": "x"})
    assert str(info.value) == (
        f'filter field "content" is not a vector field; use one of '
        f'{", ".join(sorted(VECTOR_FIELDS))}, or meta.<key> (session metadata) / '
        "message.<key>")


async def test_the_tool_s_note_of_a_narrowed_scope_quotes_it_as_json() -> None:
    """memory_recall asking for scope "all" where the conversation may see its session
    only noted "scope 'all' is wider than this conversation may see; searched 'session'
    instead": a model read the scopes quoted as Python, where the tool's refusals show
    a value as JSON."""
    from chatmem import Memory, testing

    async with await Memory.open("memory://", embedder=testing.embedder()) as memory:
        await memory.settings.set("session", actor={"id": "owner", "role": "owner"},
                                  session="s1")
        out = await memory.call_tool({"query": "x", "scope": "all"}, {"session_id": "s1"})
    assert out["clamped"] is True
    assert out["note"] == ('scope "all" is wider than this conversation may see; '
                           'searched "session" instead')


def test_a_model_name_refused_is_quoted_as_json() -> None:
    """LocalProvider("e5-small") said "embedding.model: 'e5-small' is not a registered
    local model …", model_unavailable("nope") "'nope' is not a registered model", an auto
    store's model "the store's model 'local:other' is not one auto chooses", and versions
    of Azure that differ "embedding.api_version = '2024-10-21' and the api-version
    '2024-02-01' of embedding.endpoint differ": the name quoted as Python."""
    from chatmem.embedding import Embedder
    from chatmem.embedding.auto import AutoProvider
    from chatmem.embedding.local import LocalProvider, model_unavailable

    assert _refusal(LocalProvider, "e5-small").startswith(
        'embedding.model: "e5-small" is not a registered local model (auto, ')
    assert model_unavailable("nope") == '"nope" is not a registered model'
    assert _refusal(AutoProvider().pin, "local:other").startswith(
        'embedding.model auto: the store\'s model "local:other" is not one auto chooses')
    assert _refusal(Embedder.from_config, {
        "provider": "openai", "api_key": "k" * 20, "api_version": "2024-10-21",
        "endpoint": "https://acme.openai.azure.com/openai/deployments/d?api-version=2024-02-01",
    }).startswith('embedding.api_version = "2024-10-21" and the api-version "2024-02-01" '
                  'of embedding.endpoint differ: a request takes one')


@pytest.mark.parametrize("env,says", [
    ({"CHATMEM_CONTEXT_EXPAND__WINDOW__X": "1"},
     "CHATMEM_CONTEXT_EXPAND__WINDOW__X: context_expand.window: unknown key(s) x; use an "
     "integer or {before, after}"),
    ({"CHATMEM_CONTEXT_EXPAND__WINDOW__X": "1", "CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE": "2"},
     "CHATMEM_CONTEXT_EXPAND__WINDOW__X: context_expand.window: unknown key(s) x; use an "
     "integer or {before, after}"),
    ({"CHATMEM_CONTEXT_EXPAND__WINDOW__X": "1", "CHATMEM_CONTEXT_EXPAND__WINDOW__Y": "2"},
     "CHATMEM_CONTEXT_EXPAND__WINDOW__X and CHATMEM_CONTEXT_EXPAND__WINDOW__Y: "
     "context_expand.window: unknown key(s) x, y; use an integer or {before, after}"),
])
def test_an_unknown_key_of_a_window_set_by_a_variable_names_the_variable(
        env: dict[str, str], says: str) -> None:
    """CHATMEM_CONTEXT_EXPAND__WINDOW__X=1 said "context_expand.window: unknown key(s) x;
    …" without the variable, where every other variable's refusal starts with its name."""
    from chatmem.config import Config

    with pytest.raises(ConfigError) as info:
        Config.load(env=env)
    assert str(info.value) == f"invalid configuration: {says}"


_MSG = {"type": "message", "id": "m1", "session_id": "s1", "content": "hi", "ts": 5}
_VEC = {"type": "vector", "message_id": "m1", "session_id": "s1", "ts": 5,
        "model_id": "t:v", "vector": [0.6, 0.8]}


@pytest.mark.parametrize("records,says", [
    ([_MSG, dict(_MSG)], 'line 3: message id "m1" appears twice in the file'),
    ([{"type": "session", "id": "a"}, {"type": "session", "id": "a"}],
     'line 3: session id "a" appears twice in the file'),
    ([_MSG, {**_VEC, "session_id": "s2"}],
     'line 3: vector of message "m1": its session_id and ts must be its message\'s '
     '("s1", 5)'),
    ([_MSG, _VEC, dict(_VEC)],
     'line 4: vector of message "m1": two vectors of model "t:v"'),
    ([_MSG, _VEC, {**_MSG, "id": "m2"}, {**_VEC, "message_id": "m2", "vector": [1.0]}],
     'line 5: vector of message "m2": 1 numbers where model "t:v" has 2'),
    ([{"type": "meta", "namespace": "chatmem.other", "key": "k", "value": "v"}],
     'line 2: meta namespace "chatmem.other" is not one chatmem exports'),
    ([{"type": "session", "id": "a", "parent_id": "b"},
      {"type": "session", "id": "b", "parent_id": "a"}],
     'session "a": the parent_id links make a cycle'),
])
def test_a_line_of_an_import_file_refused_quotes_its_values_as_json(
        records: list[dict[str, Any]], says: str) -> None:
    """An import file's ids and models were quoted as Python: "message id 'm1' appears
    twice in the file", "vector of message 'm1': its session_id and ts must be its
    message's ('s1', 5)", "… two vectors of model 't:v'", "meta namespace
    'chatmem.other' is not one chatmem exports", "session 'a': the parent_id links make
    a cycle"."""
    from chatmem.transfer import validate_jsonl
    from test_transfer import _file

    with pytest.raises(ChatmemError) as info:
        validate_jsonl(_file(*records))
    assert says in str(info.value)


def test_a_host_or_origin_refused_is_quoted_as_json(tmp_path: Any) -> None:
    """An open server's Host check said "Host 'evil.example:80' is not this server's
    (DNS-rebinding protection); …" and its Origin check "Origin 'http://evil.example'
    is not this server's (…)": the header quoted as Python."""
    from starlette.testclient import TestClient

    from chatmem import testing
    from chatmem.server.http import allowed_hosts, create_app

    app = create_app(url=f"sqlite:///{tmp_path}/open.db", embedder=testing.embedder(),
                     hosts=allowed_hosts("127.0.0.1", 8798))
    with TestClient(app, base_url="http://127.0.0.1:8798") as c:
        r = c.get("/v1/stats", headers={"Host": "evil.example:80"})
        assert r.status_code == 421, r.text
        assert r.json()["error"]["message"] == (
            'Host "evil.example:80" is not this server\'s (DNS-rebinding protection); a '
            "name clients use goes in --allowed-host")
        r = c.get("/v1/stats", headers={"Origin": "http://evil.example"})
        assert r.status_code == 403, r.text
        assert r.json()["error"]["message"] == (
            'Origin "http://evil.example" is not this server\'s (a page of another site '
            "may not call it)")


async def test_a_qdrant_local_folder_refused_is_quoted_as_json(tmp_path: Any) -> None:
    """Qdrant's local mode refused a folder quoted as Python: "qdrant (…): '/home/u'
    holds files that are not Qdrant's ('notes.txt'); …", "'/x/project' is not a Qdrant
    local-mode folder (…)", "'/x/file' (or a folder above it) is a file, not a folder"."""
    import json

    from chatmem.errors import StoreError
    from chatmem.store.qdrant import QdrantIndex

    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    project = tmp_path / "project"
    project.mkdir()
    (project / "meta.json").write_text('{"name": "my project"}')
    (tmp_path / "file").write_text("x")
    for folder, says in ((home, 'holds files that are not Qdrant\'s ("notes.txt");'),
                         (project, "is not a Qdrant local-mode folder (its meta.json"),
                         (tmp_path / "file", "(or a folder above it) is a file, not a "
                                             "folder;")):
        with pytest.raises(StoreError) as info:
            await QdrantIndex.open(f"qdrant+local://{folder}")
        assert f"): {json.dumps(str(folder))} {says}" in str(info.value), str(info.value)


async def test_a_parent_a_chat_type_or_a_namespace_label_refused_is_quoted_as_json(
        tmp_path: Any) -> None:
    """Memory.upsert_session of a parent that closes a cycle said "session.parent_id
    'c1' would make a cycle (…)", platforms.register of a bad label "the label of chat
    type 'group' must be a non-empty string", and the LangGraph store "invalid namespace
    label 'a.b': labels are non-empty strings without '.' or NUL"."""
    from langgraph.store.base import InvalidNamespaceError, PutOp

    from chatmem import Memory, testing
    from chatmem.integrations.langgraph import ChatmemStore
    from chatmem.models import Session

    async with await Memory.open("memory://", embedder=testing.embedder()) as memory:
        await memory.upsert_session(Session(id="r"))
        await memory.upsert_session(Session(id="c1", parent_id="r"))
        said = await _async_refusal(memory.upsert_session, Session(id="r", parent_id="c1"))
        assert said.startswith('session.parent_id "c1" would make a cycle (')
        assert _refusal(memory.platforms.register, "qq", chat_types={"group": ""}) == \
            'platforms.register: the label of chat type "group" must be a non-empty ' \
            'string, got ""'
        store = ChatmemStore(memory)
        with pytest.raises(InvalidNamespaceError) as info:
            await store.abatch([PutOp(("a.b",), "k", {"text": "x"})])
        assert str(info.value) == ('namespace labels must be non-empty strings without "." '
                                   'or NUL (U+0000), got "a.b"')


async def test_a_message_id_taken_is_quoted_as_json() -> None:
    """Memory.add of an id stored with other content said "message id 'm1' already
    exists with another content: …", a later one "message id 'm1' already exists at ts
    1000, …", one request's two messages of one id "messages[1].id 'm1' is also
    messages[0].id, …", and Client's session "session 'a/b': the HTTP API cannot address
    a session id holding '/' …"."""
    from chatmem import Memory, testing
    from chatmem.client import Client

    async with await Memory.open("memory://", embedder=testing.embedder()) as memory:
        await memory.add([{"id": "m1", "content": "hi", "ts": 1000}], session="s")
        assert (await _async_refusal(memory.add, [{"id": "m1", "content": "bye", "ts": 1000}],
                                     session="s")).startswith(
            'message id "m1" already exists with another content: ')
        assert (await _async_refusal(memory.add, [{"id": "m1", "content": "hi", "ts": 2000}],
                                     session="s")).startswith(
            'message id "m1" already exists at ts 1000, earlier than the ts 2000 given')
        assert (await _async_refusal(memory.add, [{"id": "m2", "content": "a"},
                                                  {"id": "m2", "content": "b"}],
                                     session="s")).startswith(
            'messages[1].id "m2" is also messages[0].id, with other content')
    with Client("http://127.0.0.1:9") as client:
        assert _refusal(client.get_session, "a/b") == (
            'session "a/b": the HTTP API cannot address a session id holding "/" in '
            "/v1/sessions/{id}")


async def test_a_postgres_schema_without_a_store_is_quoted_as_json() -> None:
    """A PostgreSQL store opened with create=False in a schema without chatmem's tables
    said "postgres (…): no chatmem store in schema 't_…' (no chatmem tables): …"."""
    import uuid

    from backends import drop_pg_schema, pg_schema_url, pg_url
    from chatmem.errors import StoreError
    from chatmem.store import open_store

    base = pg_url()
    schema = f"t_{uuid.uuid4().hex[:16]}"
    try:
        with pytest.raises(StoreError) as info:
            await open_store(pg_schema_url(base, schema), create=False)
        assert f'): no chatmem store in schema "{schema}" (no chatmem tables): check ' \
            in str(info.value)
    finally:
        await drop_pg_schema(base, schema)


async def test_a_damaged_row_is_quoted_as_json(tmp_path: Any) -> None:
    """A row chatmem cannot read said "damaged row in table sessions (session id 's1'):
    column settings is not valid JSON (…): '{bad'", a message's "… (message id 'm 1'):
    column metadata holds JSON [1, 'x'], not an object; … (chatmem delete m 1; …)"."""
    import sqlite3

    import chatmem.testing
    from chatmem import Memory

    url = f"sqlite:///{tmp_path / 'chat.db'}"
    async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
        await mem.add([{"id": "m 1", "session_id": "s1", "content": "hi"}])
        await mem.flush(timeout=60)
    conn = sqlite3.connect(tmp_path / "chat.db")
    with conn:  # a hand edit
        conn.execute("UPDATE sessions SET settings = '{bad' WHERE id = 's1'")
        conn.execute("""UPDATE messages SET metadata = '[1, "x"]' WHERE id = 'm 1'""")
    conn.close()
    async with await Memory.open(url, embedder=chatmem.testing.embedder()) as mem:
        said = await _async_refusal(mem.get_session, "s1")
        assert 'damaged row in table sessions (session id "s1"): column settings is not ' \
            "valid JSON (" in said and '): "{bad"; ' in said, said
        said = await _async_refusal(mem.get, ["m 1"])
        assert 'damaged row in table messages (message id "m 1"): column metadata holds ' \
            'JSON [1, "x"], not an object; ' in said, said
        assert "(chatmem delete 'm 1'; Memory.delete)" in said, said


async def test_a_scope_refused_is_quoted_as_json() -> None:
    """A scope's refusals were quoted as Python: "scope 'resource' needs a resource id,
    and session 's1' has none: …, or use scope='session'", "scope 'thread' needs
    session=<the current session id>", "the configured scope 'thread' needs …, or
    scope='all'", "a platform-level setting takes platform only, got chat_type too
    (layer 'chat_type' reads chat_type)"."""
    import chatmem.testing
    from chatmem import Memory

    async with await Memory.open("memory://", embedder=chatmem.testing.embedder()) as mem:
        await mem.add([{"session_id": "s1", "content": "a note"}])
        assert (await _async_refusal(mem.recall, "note", session="s1", scope="resource")
                ) == ('scope "resource" needs a resource id, and session "s1" has none: '
                      "give it a resource_id (Memory.upsert_session, PUT /v1/sessions/{id}, "
                      'chatmem session set --resource-id), or use scope="session"')
        assert await _async_refusal(mem.recall, "note", scope="thread") == \
            'scope "thread" needs session=<the current session id>'
        assert (await _async_refusal(mem.set_scope, "all", actor={"id": "a", "role": "owner"},
                                     layer="platform", platform="qq", chat_type="group")
                ).startswith("a platform-level setting takes platform only, got chat_type "
                             'too (layer "chat_type" reads chat_type)')
    async with await Memory.open("memory://", embedder=chatmem.testing.embedder(),
                                 config={"scope": "thread"}) as mem:
        assert await _async_refusal(mem.recall, "note") == (
            'the configured scope "thread" needs session=<the current session id>, or '
            'scope="all"')


def test_the_command_line_quotes_a_scope_as_json_and_its_fix_as_typed(tmp_path: Any
                                                                      ) -> None:
    """chatmem recall --scope resource said "--scope 'resource' needs a resource id, and
    session 's1' has none: …, or use --scope 'session'"."""
    from click.testing import CliRunner

    from chatmem.cli import main

    db = str(tmp_path / "c.db")
    CliRunner().invoke(main, ["add", "--db", db, "--session", "s1", "--no-wait", "a"])
    res = CliRunner().invoke(main, ["recall", "--db", db, "--session", "s1", "--scope",
                                    "resource", "a"])
    assert res.exit_code == 2 and res.stderr.startswith(
        'error: --scope "resource" needs a resource id, and session "s1" has none: '), \
        res.output
    assert res.stderr.endswith(", or use --scope session\n"), res.output


async def test_a_path_refused_is_quoted_as_json(tmp_path: Any,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """A store file linking to nothing said "…/chat.db is a symbolic link to
    'missing.db', which does not exist; …", chatmem export -o a link to nothing "-o
    link.jsonl: is a symbolic link to 'missing.jsonl', …", -o in no folder "-o
    nope/x.jsonl: no folder 'nope'; create it first"."""
    import asyncio

    from click.testing import CliRunner

    from chatmem.cli import main
    from chatmem.store.sqlite import SqliteStore

    (tmp_path / "chat.db").symlink_to("missing.db")
    said = await _async_refusal(SqliteStore.open, tmp_path / "chat.db", create=True)
    assert said == (f'{tmp_path / "chat.db"} is a symbolic link to "missing.db", which '
                    "does not exist; give the store file's own path, or remove the link")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "link.jsonl").symlink_to("missing.jsonl")

    def export(output: str) -> str:
        res = CliRunner().invoke(main, ["export", "--db", "memory://", "-o", output])
        assert res.exit_code == 2, res.output
        return res.stderr

    said = await asyncio.to_thread(export, "link.jsonl")
    assert said == ('error: -o link.jsonl: is a symbolic link to "missing.jsonl", which '
                    "does not exist; give the file's own name or remove the link\n")
    said = await asyncio.to_thread(export, "nope/x.jsonl")
    assert said == 'error: -o nope/x.jsonl: no folder "nope"; create it first\n'


async def test_a_redirect_the_client_does_not_follow_is_quoted_as_json() -> None:
    """A chatmem server's (or a proxy's) redirect said "GET /v1/stats: HTTP 307 to
    'http://…/v1/stats', not followed (…)"."""
    import asyncio

    from chatmem.client import AsyncClient
    from test_client import HostileServer

    async def redirect(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                       ) -> None:
        await srv.write(writer, b"HTTP/1.1 307 Temporary Redirect\r\nLocation: "
                                b"http://elsewhere.example/v1/stats\r\nContent-Length: 0"
                                b"\r\n\r\n")

    async with HostileServer(redirect) as base, AsyncClient(base) as client:
        assert await _async_refusal(client.stats) == (
            f'GET {base}/v1/stats: HTTP 307 to "http://elsewhere.example/v1/stats", not '
            "followed (give the server's own address as base_url)")


@pytest.mark.parametrize(("coding", "shown"), [("zstd", '"zstd"'),
                                                ("gzip, gzip", '"gzip, gzip"'),
                                                ("x" * 100, f'"{"x" * 60}"…')])
async def test_an_answer_s_content_encoding_refused_is_quoted_as_json(coding: str,
                                                                      shown: str) -> None:
    """An answer in a coding not asked for said "GET /v1/stats: the answer's body cannot
    be decoded (the answer is in Content-Encoding 'zstd', which was not asked for …)"
    (the Python client; an embedding provider's answer alike)."""
    import asyncio

    from chatmem.client import AsyncClient
    from test_client import HostileServer, _ok

    async def answer(srv: HostileServer, head: bytes, writer: asyncio.StreamWriter
                     ) -> None:
        await srv.write(writer, _ok(b"\x28\xb5\x2f\xfd" * 8, f"Content-Encoding: {coding}"))

    async with HostileServer(answer) as base, AsyncClient(base) as client:
        assert await _async_refusal(client.stats) == (
            f"GET {base}/v1/stats: the answer's body cannot be decoded (the answer is in "
            f"Content-Encoding {shown}, which was not asked for (Accept-Encoding: gzip, "
            "deflate))")


def test_an_env_file_refused_is_quoted_as_json(tmp_path: Any) -> None:
    """A .env file that does not exist (CHATMEM_ENV_FILE, Config.load(env_file=)) said
    "invalid configuration: env file '/x/missing.env': does not exist"."""
    from chatmem.config import Config

    missing = tmp_path / "missing.env"
    assert _refusal(Config.load, env_file=missing) == (
        f"invalid configuration: env file {json.dumps(str(missing))}: does not exist")
    (tmp_path / "bad.env").write_text("CHATMEM_SCOPE\n=x\n", encoding="utf-8")
    assert _refusal(Config.load, env_file=tmp_path / "bad.env").startswith(
        f"invalid configuration: env file {json.dumps(str(tmp_path / 'bad.env'))}, line ")


def test_a_checkpoint_of_another_model_type_is_quoted_as_json() -> None:
    """A config.json of another model where all-mpnet-base-v2's was looked for said "not
    an MPNet checkpoint (model_type 'bert')" (None: "model_type None")."""
    from chatmem.embedding.mpnet import MPNetShape

    assert _refusal(MPNetShape.from_config, {"model_type": "bert"}) == \
        'local: not an MPNet checkpoint (model_type "bert")'
    assert _refusal(MPNetShape.from_config, {}) == \
        "local: not an MPNet checkpoint (model_type null)"
