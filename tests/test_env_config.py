"""Configuration from the environment (I6): ``CHATMEM_<SECTION>__<FIELD>`` variables and
``.env`` files, read with pydantic-settings only when the caller passes them in."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from pydantic import BaseModel

from chatmem.config import Config, SemanticRecallConfig, env_var, read_env, read_env_file
from chatmem.errors import ConfigError
from test_docs import fields

#: A valid non-default value for one leaf of every section, as the environment spells it.
EXAMPLES: dict[str, tuple[str, Any]] = {
    "search.top_k": ("8", 8),
    "search.time_weight": ("0.25", 0.25),
    "search.half_life_days": ("7", 7.0),
    "context_expand.cross_session": ("false", False),
    "context_expand.max_chars": ("500", 500),
    "indexing.concurrency": ("3", 3),
    "indexing.retry_max_s": ("60", 60.0),
    "embedding.model": ("multilingual-e5-small", "multilingual-e5-small"),
    "embedding.timeout": ("12.5", 12.5),
    "embedding.normalize": ("0", False),
    "embedding.cache.max_items": ("77", 77),
    "embedding.cache.enabled": ("no", False),
    "embedding.headers": ('{"X-Team": "a"}', {"X-Team": "a"}),
    "embedding.openrouter.order": ('["a", "b"]', ["a", "b"]),
    "hybrid.enabled": ("false", False),
    "hybrid.fusion": ("rank", "rank"),
    "hybrid.rrf_k": ("10", 10),
    "recall_roles": ("others-only", "others-only"),
    "scope": ("user", "user"),
    "last_messages": ("4", 4),
    "locale": ("zh", "zh"),
    "timezone": ("Asia/Shanghai", "Asia/Shanghai"),
}


def value_at(cfg: Config, path: str) -> Any:
    node: Any = cfg
    for part in path.split("."):
        node = getattr(node, part, None)
    return node.model_dump() if isinstance(node, BaseModel) else node


def test_the_variable_name_rule() -> None:
    assert env_var("search.top_k") == "CHATMEM_SEARCH__TOP_K"
    assert env_var("embedding.cache.max_items") == "CHATMEM_EMBEDDING__CACHE__MAX_ITEMS"
    assert env_var("scope") == "CHATMEM_SCOPE"


@pytest.mark.parametrize("path", sorted(EXAMPLES))
def test_every_section_is_settable_from_the_environment(path: str) -> None:
    raw, expected = EXAMPLES[path]
    cfg = Config.load(env={env_var(path): raw})
    assert value_at(cfg, path) == expected
    assert value_at(Config.load(), path) != expected  # the variable changed something


def test_every_documented_leaf_has_a_variable_that_the_source_reads() -> None:
    """Each leaf option's variable reaches the option (a bad value is reported under the
    variable's own name), so the README rule holds for every field."""
    for path in fields(Config):
        if path in ("semantic_recall", "embedding.openrouter", "context_expand.window",
                    "semantic_recall.message_range", "semantic_recall.filter",
                    "embedding.headers", "platforms.<platform>.chat_types"):
            continue  # tables, unions: covered below
        var = env_var(path)
        try:
            _, sources = read_env({var: "not-a-valid-value-\x01"})
        except ConfigError as exc:  # a list: JSON expected, and the error names it
            assert f"{var}: not valid JSON" in str(exc), path
        else:
            assert sources and next(iter(sources.values()))[0] == var, path


def test_tables_and_unions_from_the_environment() -> None:
    cfg = Config.load(env={"CHATMEM_CONTEXT_EXPAND__WINDOW": "3"})
    assert (cfg.context_expand.window.before, cfg.context_expand.window.after) == (3, 3)
    cfg = Config.load(env={"CHATMEM_CONTEXT_EXPAND__WINDOW": '{"before": 1, "after": 0}'})
    assert (cfg.context_expand.window.before, cfg.context_expand.window.after) == (1, 0)
    cfg = Config.load(env={"CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE": "4"})
    assert cfg.context_expand.window.before == 4
    assert Config.load(env={"CHATMEM_SEMANTIC_RECALL": "false"}).semantic_recall is False
    cfg = Config.load(env={"CHATMEM_SEMANTIC_RECALL__TOP_K": "3",
                           "CHATMEM_SEMANTIC_RECALL__SCOPE": "thread",
                           "CHATMEM_SEMANTIC_RECALL__FILTER": '{"team": "a"}'})
    assert isinstance(cfg.semantic_recall, SemanticRecallConfig)
    assert (cfg.recall_top_k, cfg.recall_scope, cfg.recall_filter) == (3, "session",
                                                                       {"team": "a"})
    # a whole section as JSON; the router shorthand of embedding.model
    assert Config.load(env={"CHATMEM_SEARCH": '{"top_k": 9}'}).search.top_k == 9
    cfg = Config.load(env={"CHATMEM_EMBEDDING__MODEL": "openai/text-embedding-3-small"})
    assert (cfg.embedding.provider, cfg.embedding.model) == ("openai", "text-embedding-3-small")
    # names are case-insensitive; empty variables count as unset
    assert Config.load(env={"chatmem_search__top_k": "6"}).search.top_k == 6
    assert Config.load(env={"CHATMEM_SEARCH__TOP_K": ""}).search.top_k == 5
    assert Config.load(env={"CHATMEM_CONTEXT_EXPAND__MAX_CHARS": "null"}) \
        .context_expand.max_chars is None


def test_precedence_arguments_over_environment_over_file_over_defaults(
        tmp_path: Path) -> None:
    file = {"search": {"top_k": 3, "min_score": 0.2, "time_weight": 0.5}}
    env = {"CHATMEM_SEARCH__TOP_K": "8", "CHATMEM_SEARCH__MIN_SCORE": "0.4"}
    dotenv = tmp_path / ".env"
    dotenv.write_text("CHATMEM_SEARCH__TOP_K=11\nCHATMEM_SEARCH__TIME_WEIGHT=0.9\n"
                      "CHATMEM_LOCALE=zh\n")
    cfg = Config.load(file, env=env, env_file=dotenv, search={"min_score": 0.7})
    assert cfg.search.min_score == 0.7  # argument > environment > file
    assert cfg.search.top_k == 8  # environment > .env > file
    assert cfg.search.time_weight == 0.9  # .env > file
    assert cfg.locale == "zh"  # .env > default
    assert cfg.search.half_life_days == 90  # the default
    assert Config.load(file, env=env).search.top_k == 8
    assert Config.load(file).search.top_k == 3
    # from_env is load with the environment given
    assert Config.from_env(env, data=file).search.min_score == 0.4
    # the embedding shorthand of a file merges with the variables of its fields
    cfg = Config.load({"embedding": "openai/text-embedding-3-large"},
                      env={"CHATMEM_EMBEDDING__TIMEOUT": "5"})
    assert (cfg.embedding.provider, cfg.embedding.model, cfg.embedding.timeout) == \
        ("openai", "text-embedding-3-large", 5.0)


def test_the_library_never_reads_the_environment_by_itself(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHATMEM_SEARCH__TOP_K", "9")
    assert Config.load().search.top_k == 5
    assert Config.load(env=os.environ).search.top_k == 9


@pytest.mark.parametrize(("env", "message"), [
    ({"CHATMEM_SEARCH__TOP_K": "abc"},
     "CHATMEM_SEARCH__TOP_K: search.top_k must be an integer from 1 to 1000, got 'abc'"),
    ({"CHATMEM_SEARCH__TOP_K": "0"},
     "CHATMEM_SEARCH__TOP_K: search.top_k must be an integer from 1 to 1000, got '0'"),
    ({"CHATMEM_SEARCH__TIME_WEIGHT": "2"},
     "CHATMEM_SEARCH__TIME_WEIGHT: search.time_weight must be a number from 0 to 1, got '2'"),
    ({"CHATMEM_SEARCH__MIN_SCORE": "nan"},
     "CHATMEM_SEARCH__MIN_SCORE: search.min_score must be a number"),
    ({"CHATMEM_HYBRID__ENABLED": "maybe"},
     "CHATMEM_HYBRID__ENABLED: hybrid.enabled must be true or false, got 'maybe'"),
    ({"CHATMEM_SCOPE": "world"},
     "CHATMEM_SCOPE: scope must be one of all, user, platform, resource, session (or "
     "thread), got 'world'"),
    ({"CHATMEM_LAST_MESSAGES": "-1"},
     "CHATMEM_LAST_MESSAGES: last_messages must be an integer from 0 to 1000"),
    ({"CHATMEM_SEARCH__TOPK": "1"}, "CHATMEM_SEARCH__TOPK: unknown option search.topk"),
    ({"CHATMEM_CONTEXT_EXPAND__WINDOW": "-1"},
     "CHATMEM_CONTEXT_EXPAND__WINDOW: context_expand.window must be at least 0"),
    ({"CHATMEM_TIMEZONE": "Mars/Base"}, "CHATMEM_TIMEZONE: unknown time zone"),
    ({"CHATMEM_SEARCH": '{"top_k": "8"}'},
     'CHATMEM_SEARCH: search.top_k must be an integer, got "8"'),
    ({"CHATMEM_EMBEDDING__OPENROUTER__ORDER": "[a"},
     "CHATMEM_EMBEDDING__OPENROUTER__ORDER: not valid JSON"),
])
def test_errors_name_the_variable(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError, match="^invalid configuration: ") as info:
        Config.load(env=env)
    assert message in str(info.value)


def test_an_argument_hides_the_variable_it_overrides() -> None:
    with pytest.raises(ConfigError) as info:
        Config.load(env={"CHATMEM_SEARCH__TOP_K": "8"}, search={"top_k": 0})
    assert "search.top_k" in str(info.value) and "CHATMEM_" not in str(info.value)


@pytest.mark.parametrize("env", [
    {"CHATMEM_EMBEDDING__APIKEY": "sk-SECRET-123"},
    {"CHATMEM_EMBEDDING__ENDPOINT": "https://h/v1?key=sk-SECRET-123"},
    {"CHATMEM_EMBEDDING__ENDPOINT": "ftp://u:sk-SECRET-123@h"},
    {"CHATMEM_EMBEDDING__HEADERS": '{"Authorization": "Bearer sk-SECRET-123\\n"}'},
    {"CHATMEM_EMBEDDING__HEADERS": '["sk-SECRET-123"]'},
    {"CHATMEM_EMBEDDING": '{"api_key": "sk-SECRET-123", "timeout": "x"}'},
    {"CHATMEM_EMBEDDING": '{"api_key": ["sk-SECRET-123"]}'},
    {"CHATMEM_EMBEDDING__API_KEY": '{"x": "sk-SECRET-123"}',
     "CHATMEM_SEARCH__TOP_K": "x"},
])
def test_secrets_are_never_echoed(env: dict[str, str]) -> None:
    with pytest.raises(ConfigError) as info:
        cfg = Config.load(env=env)
        # an api_key of any text is valid: make the load fail elsewhere to see the message
        raise ConfigError(str(cfg))
    assert "SECRET" not in str(info.value)


def test_api_key_from_the_environment_stays_secret() -> None:
    cfg = Config.load(env={"CHATMEM_EMBEDDING__API_KEY": "sk-SECRET-123"})
    assert cfg.embedding.api_key is not None
    assert cfg.embedding.api_key.get_secret_value() == "sk-SECRET-123"
    assert "SECRET" not in repr(cfg)


def test_env_file(tmp_path: Path) -> None:
    path = tmp_path / "chatmem.env"
    path.write_text("# options\nCHATMEM_SEARCH__TOP_K=7\nexport CHATMEM_SCOPE='user'\n"
                    "OTHER=1\n")
    cfg = Config.load(env_file=path)
    assert (cfg.search.top_k, cfg.scope) == (7, "user")
    with pytest.MonkeyPatch.context() as home:  # "~" is the home folder, as for --db
        home.setenv("HOME", str(tmp_path))
        assert Config.load(env_file="~/chatmem.env").search.top_k == 7
    with pytest.raises(ConfigError, match="env file .* does not exist"):
        Config.load(env_file=tmp_path / "missing.env")
    path.write_text("CHATMEM_SEARCH__TOP_K=x\n")
    with pytest.raises(ConfigError,
                       match="CHATMEM_SEARCH__TOP_K: search.top_k must be an integer"):
        Config.load(env_file=path)


def test_a_hostile_env_file_is_an_error_naming_it(tmp_path: Path) -> None:
    path = tmp_path / "chatmem.env"
    # ${VAR} is not expanded: doubling references made 3.4 GB of 572 bytes
    path.write_text("A=aaaaaaaa\n" + "".join(f"A{i + 1}=${{A{i}}}${{A{i}}}\n"
                                             for i in range(40)).replace("A0", "A")
                    + "CHATMEM_SCOPE=${A}\n")
    values = read_env_file(path)
    assert values["A40"] == "${A39}${A39}" and values["CHATMEM_SCOPE"] == "${A}"
    with pytest.raises(ConfigError, match=r"CHATMEM_SCOPE: .* got '\$\{A\}'"):
        Config.load(env_file=path)
    path.write_bytes(b"CHATMEM_SCOPE=\xff\n")
    with pytest.raises(ConfigError, match="not UTF-8 text"):
        Config.load(env_file=path)
    path.write_text("# " + "x" * 300_000 + "\n")
    with pytest.raises(ConfigError, match="over 256 KiB"):
        Config.load(env_file=path)
    with pytest.raises(ConfigError, match="is a folder"):
        Config.load(env_file=tmp_path)
    # a device is no file of variables (it said "does not exist")
    with pytest.raises(ConfigError, match='/dev/null": is not a regular file'):
        Config.load(env_file="/dev/null")
    path.write_text("CHATMEM_SCOPE=user\nCHATMEM_DB chat.db\n")  # a line it cannot read
    with pytest.raises(ConfigError, match="line 2: not KEY=value"):
        Config.load(env_file=path)
    path.write_text("CHATMEM_SCOPE='user\n")
    with pytest.raises(ConfigError, match="line 1: not KEY=value"):
        Config.load(env_file=path)
    with pytest.raises(ConfigError, match="nested too deeply"):
        Config.load(env={"CHATMEM_SEMANTIC_RECALL__FILTER": "[" * 5000 + "]" * 5000})


async def test_memory_open_applies_the_environment_it_is_given() -> None:
    from chatmem import Memory

    env = {"CHATMEM_SEARCH__TOP_K": "8", "CHATMEM_LAST_MESSAGES": "2"}
    async with await Memory.open("memory://", env=env, last_messages=1,
                                 semantic_recall=False) as mem:
        assert (mem.config.search.top_k, mem.config.last_messages) == (8, 1)
    async with await Memory.open("memory://", config=Config.load(), env=env,
                                 semantic_recall=False) as mem:
        assert mem.config.search.top_k == 5  # a Config object is taken as it is


def test_cli_reads_the_environment_and_dotenv(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmem.cli import load_config, main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHATMEM_ENV_FILE", raising=False)
    (tmp_path / "c.toml").write_text("[search]\ntop_k = 3\nmin_score = 0.1\n")
    (tmp_path / ".env").write_text("CHATMEM_SEARCH__MIN_SCORE=0.3\nCHATMEM_DB=from-dotenv.db\n")
    monkeypatch.setenv("CHATMEM_SEARCH__TOP_K", "9")
    cfg = load_config(str(tmp_path / "c.toml"))
    assert (cfg.search.top_k, cfg.search.min_score) == (9, 0.3)
    assert load_config(None, search={"top_k": 2}).search.top_k == 2
    # CHATMEM_DB of the .env file is the default store of the commands
    runner = CliRunner()
    r = runner.invoke(main, ["add", "--session", "s1", "--no-wait", "hello"],
                      env={"CHATMEM_HYBRID__ENABLED": "false", "CHATMEM_DB": None})
    assert r.exit_code == 0, r.output
    assert (tmp_path / "from-dotenv.db").exists()
    # a bad variable is one line naming it, exit code 2
    r = runner.invoke(main, ["stats", "--db", str(tmp_path / "from-dotenv.db")],
                      env={"CHATMEM_SEARCH__TOP_K": "abc"})
    assert r.exit_code == 2
    assert ("CHATMEM_SEARCH__TOP_K: search.top_k must be an integer from 1 to 1000, got "
            "'abc'") in r.output
    # CHATMEM_ENV_FILE names another file; a missing one is an error naming it
    r = runner.invoke(main, ["stats", "--db", str(tmp_path / "from-dotenv.db")],
                      env={"CHATMEM_ENV_FILE": str(tmp_path / "nope.env")})
    assert r.exit_code == 2 and "nope.env" in r.output


FILTER_REFUSED = ("a filter cannot be set one variable per key (a variable's name loses "
                  "the key's case, dots and $, and its value is always text)")
HEADER_REFUSED = ("a variable's name cannot spell a header's dashes (it would send the "
                  "header with _ for each dash)")
PLATFORM_REFUSED = ("platforms cannot be declared one variable per platform or chat type "
                    "(a variable's name loses their case and dashes)")


@pytest.mark.parametrize(("env", "message"), [
    ({"CHATMEM_SEMANTIC_RECALL__FILTER__groupId": "x"},
     f"CHATMEM_SEMANTIC_RECALL__FILTER__groupId: {FILTER_REFUSED}; set "
     """CHATMEM_SEMANTIC_RECALL__FILTER='{"groupId": "…"}' instead"""),
    # lower case would be right here, but a key in capitals is no sign of it ("GROUPID")
    ({"CHATMEM_SEMANTIC_RECALL__FILTER__ROLE": "user"},
     f"""CHATMEM_SEMANTIC_RECALL__FILTER__ROLE: {FILTER_REFUSED}; set """
     """CHATMEM_SEMANTIC_RECALL__FILTER='{"role": "…"}' instead"""),
    ({"CHATMEM_SEMANTIC_RECALL__FILTER__PRIORITY": "2",
      "CHATMEM_SEMANTIC_RECALL__FILTER__TS__$gt": "1"},
     "CHATMEM_SEMANTIC_RECALL__FILTER__PRIORITY and CHATMEM_SEMANTIC_RECALL__FILTER__TS__$gt: "
     f"{FILTER_REFUSED}; set "
     """CHATMEM_SEMANTIC_RECALL__FILTER='{"priority": "…", "ts": {"$gt": "…"}}' instead"""),
    ({"CHATMEM_EMBEDDING__HEADERS__X_TEAM": "sk-SECRET"},
     f"CHATMEM_EMBEDDING__HEADERS__X_TEAM: {HEADER_REFUSED}; set "
     """CHATMEM_EMBEDDING__HEADERS='{"X-Team": "…"}' instead"""),
    # the header variable that is read exactly goes into the JSON too: both would clash
    ({"CHATMEM_EMBEDDING__HEADERS__AUTHORIZATION": "Bearer sk-SECRET",
      "chatmem_embedding__headers__x_api_key": "sk-SECRET"},
     f"chatmem_embedding__headers__x_api_key: {HEADER_REFUSED}; set "
     """CHATMEM_EMBEDDING__HEADERS='{"Authorization": "…", "x-api-key": "…"}' instead of """
     "CHATMEM_EMBEDDING__HEADERS__AUTHORIZATION and chatmem_embedding__headers__x_api_key"),
    ({"CHATMEM_PLATFORMS__OneBot__CHAT_TYPES__private": "私聊"},
     f"CHATMEM_PLATFORMS__OneBot__CHAT_TYPES__private: {PLATFORM_REFUSED}; set "
     """CHATMEM_PLATFORMS='{"OneBot": {"chat_types": {"private": "…"}}}' instead"""),
    ({"CHATMEM_PLATFORMS__ONEBOT__CHAT_TYPES": '{"group": "群聊"}'},
     f"CHATMEM_PLATFORMS__ONEBOT__CHAT_TYPES: {PLATFORM_REFUSED}; set "
     """CHATMEM_PLATFORMS='{"onebot": {"chat_types": "…"}}' instead"""),
])
def test_a_table_of_the_users_own_names_is_refused_one_variable_per_key(
        env: dict[str, str], message: str, tmp_path: Path) -> None:
    """README § Environment variables: a filter's keys, headers' names, platforms and
    chat types are the user's own names, which a variable's name cannot carry
    (pydantic-settings reads it in lower case; a shell's names hold no dash): the filter
    was silently ``{"groupid": "x"}``, the header sent as ``x_team``, the platform
    ``onebot``. Each is refused, naming the variable and the JSON to set instead."""
    with pytest.raises(ConfigError) as info:
        Config.load(env=env)
    assert str(info.value) == f"invalid configuration: {message}"
    assert "SECRET" not in str(info.value) and "私聊" not in str(info.value)
    dotenv = tmp_path / ".env"  # the same in a .env file
    dotenv.write_text("".join(f"{name}='{value}'\n" for name, value in env.items()))
    with pytest.raises(ConfigError) as info:
        Config.load(env={}, env_file=dotenv)
    assert str(info.value) == f"invalid configuration: {message}"


def test_the_json_form_of_a_table_keeps_its_names() -> None:
    cfg = Config.load(env={
        "CHATMEM_SEMANTIC_RECALL__FILTER": '{"groupId": "x", "meta.a-b": {"$gt": 1}}',
        "CHATMEM_EMBEDDING__HEADERS": '{"X-Team": "a"}',
        "CHATMEM_PLATFORMS": '{"OneBot": {"chat_types": {"Direct-Message": "私聊"}}}'})
    assert cfg.recall_filter == {"groupId": "x", "meta.a-b": {"$gt": 1}}
    assert cfg.embedding.headers == {"X-Team": "a"}
    assert cfg.platforms["OneBot"].chat_types == {"Direct-Message": "私聊"}


def test_a_header_of_one_word_may_be_its_own_variable() -> None:
    """Header names are case-insensitive, so ``…__HEADERS__AUTHORIZATION`` is exactly
    ``Authorization``: it replaces a file's ``Authorization`` (headers merge by name
    whatever its case) and a bad value is named with its own variable."""
    file = {"embedding": {"headers": {"Authorization": "Bearer a", "X-Team": "t"}}}
    cfg = Config.load(file, env={"CHATMEM_EMBEDDING__HEADERS__AUTHORIZATION": "Bearer b"})
    assert cfg.embedding.headers == {"X-Team": "t", "authorization": "Bearer b"}
    with pytest.raises(ConfigError) as info:
        Config.load(env={"CHATMEM_EMBEDDING__HEADERS__AUTHORIZATION": "Bearer sk-SECRET\n"})
    assert str(info.value).startswith("invalid configuration: "
                                      "CHATMEM_EMBEDDING__HEADERS__AUTHORIZATION: "
                                      'embedding.headers: invalid header "authorization"')
    assert "SECRET" not in str(info.value)


def test_cli_refuses_a_filter_key_as_a_variable(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    from chatmem.cli import main

    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHATMEM_ENV_FILE", raising=False)
    r = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "m.db")],
                           env={"CHATMEM_SEMANTIC_RECALL__FILTER__groupId": "x"})
    assert r.exit_code == 2, r.output
    assert f"CHATMEM_SEMANTIC_RECALL__FILTER__groupId: {FILTER_REFUSED}; set " \
        """CHATMEM_SEMANTIC_RECALL__FILTER='{"groupId": "…"}' instead""" in r.output
    assert not (tmp_path / "m.db").exists()
