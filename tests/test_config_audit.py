"""Configuration as a careless user writes it: misspelt options and variables, a
byte-order mark, one side of a window from the environment, secrets in ``repr``, and
README's table of options and defaults."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel

from chatmem.config import Config, read_small_text
from chatmem.errors import ConfigError
from readme import section
from test_docs import fields


@pytest.mark.parametrize("data, message", [
    ({"search": {"topk": 3}}, "search.topk: unknown option; did you mean search.top_k?"),
    ({"serch": {"top_k": 3}}, "serch: unknown option; did you mean search?"),
    ({"embedding": {"cache": {"max_item": 3}}},
     "embedding.cache.max_item: unknown option; did you mean embedding.cache.max_items?"),
    ({"semantic_recall": {"topk": 3}},
     "semantic_recall.topk: unknown option; did you mean semantic_recall.top_k?"),
    ({"zzz": 1}, "zzz: unknown option (check the spelling"),
])
def test_a_misspelt_option_is_named_with_the_nearest_one(data: dict[str, Any],
                                                         message: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.load(data)
    assert message in str(info.value)


@pytest.mark.parametrize("env, message", [
    ({"CHATMEM_SEARCH__TOPK": "3"},
     "CHATMEM_SEARCH__TOPK: unknown option search.topk; did you mean CHATMEM_SEARCH__TOP_K?"),
    # an unknown section, a single underscore, a misspelt top-level option: each was
    # ignored, and the option silently kept its default
    ({"CHATMEM_SERCH__TOP_K": "3"},
     "CHATMEM_SERCH__TOP_K: unknown option; did you mean CHATMEM_SEARCH__TOP_K?"),
    ({"CHATMEM_SEARCH_TOP_K": "3"},
     "CHATMEM_SEARCH_TOP_K: unknown option; did you mean CHATMEM_SEARCH__TOP_K?"),
    ({"CHATMEM_TIMEZON": "Asia/Shanghai"},
     "CHATMEM_TIMEZON: unknown option; did you mean CHATMEM_TIMEZONE?"),
    ({"CHATMEM_FOO__BAR": "1"}, "CHATMEM_FOO__BAR: unknown option (check the spelling"),
])
def test_a_misspelt_variable_is_named_not_ignored(env: dict[str, str], message: str) -> None:
    with pytest.raises(ConfigError) as info:
        Config.load(env=env)
    assert message in str(info.value)


def test_variables_that_are_not_options_are_left_alone() -> None:
    env = {name: "x" for name in ("CHATMEM_DB", "CHATMEM_CONFIG", "CHATMEM_KEYS",
                                  "CHATMEM_VECTOR", "CHATMEM_ENV_FILE", "CHATMEM_DEBUG",
                                  "CHATMEM_TEST_PG_URL", "CHATMEM_REQUIRE_PG", "chatmem_db")}
    assert Config.load(env={**env, "CHATMEM_SEARCH__TOP_K": "8"}).search.top_k == 8


def test_a_secret_in_a_misspelt_variable_is_not_shown() -> None:
    with pytest.raises(ConfigError) as info:
        Config.load(env={"CHATMEM_EMBEDDING_API_KEY": "sk-SECRET-1"})
    assert "did you mean CHATMEM_EMBEDDING__API_KEY?" in str(info.value)
    assert "SECRET" not in str(info.value)


@pytest.mark.parametrize("name", ["chatmem.toml", "chatmem.yaml", ".env"])
def test_a_byte_order_mark_is_not_part_of_the_text(tmp_path: Path, name: str) -> None:
    """Windows Notepad writes one: TOML refused line 1 of such a file."""
    from chatmem.cli import read_table

    path = tmp_path / name
    if name == ".env":
        path.write_bytes(b"\xef\xbb\xbfCHATMEM_SEARCH__TOP_K=7\n")
        assert Config.load(env={}, env_file=path).search.top_k == 7
    else:
        body = "[search]\ntop_k = 7\n" if name.endswith(".toml") else "search:\n  top_k: 7\n"
        path.write_bytes(b"\xef\xbb\xbf" + body.encode())
        assert Config.load(read_table(str(path), "--config")).search.top_k == 7
    assert not read_small_text(path, "x", 1024, "a file").startswith("\ufeff")


def test_a_variable_below_an_option_is_named() -> None:
    with pytest.raises(ConfigError) as info:
        Config.load(env={"CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE": "x"})
    assert "CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE: context_expand.window.before" \
        in str(info.value)
    with pytest.raises(ConfigError) as info:
        Config.load(env={"CHATMEM_EMBEDDING__API_KEY__X": "sk-SECRET-2"})
    assert "CHATMEM_EMBEDDING__API_KEY__X: embedding.api_key" in str(info.value)
    assert "SECRET" not in str(info.value)
    # the file's bad side is not blamed on the variable that set the other one
    with pytest.raises(ConfigError) as info:
        Config.load({"context_expand": {"window": -1}},
                    env={"CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE": "1"})
    assert "CHATMEM_" not in str(info.value)
    assert "context_expand.window.after must be at least 0" in str(info.value)


def test_one_side_of_a_window_set_above_keeps_the_other() -> None:
    """Precedence is per field: a variable setting ``before`` leaves the file's
    ``after``, which used to become 0."""
    file = {"context_expand": {"window": 3}, "semantic_recall": {"message_range": 5}}
    cfg = Config.load(file, env={"CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE": "1",
                                 "CHATMEM_SEMANTIC_RECALL__MESSAGE_RANGE__AFTER": "0"})
    assert (cfg.context_expand.window.before, cfg.context_expand.window.after) == (1, 3)
    assert (cfg.recall_window.before, cfg.recall_window.after) == (5, 0)
    cfg = Config.load(file, env={"CHATMEM_CONTEXT_EXPAND__WINDOW": "4"},
                      context_expand={"window": {"after": 0}})
    assert (cfg.context_expand.window.before, cfg.context_expand.window.after) == (4, 0)
    cfg = Config.load(file, env={"CHATMEM_CONTEXT_EXPAND__WINDOW": "1"})
    assert (cfg.context_expand.window.before, cfg.context_expand.window.after) == (1, 1)


def test_one_side_of_a_window_set_above_the_defaults_keeps_the_default_other() -> None:
    """README § Environment variables: ``CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE=1`` sets
    one side, precedence being per field down to the defaults. With no file setting the
    window, the other side became 0 (the variable's table read alone: {before: 1}),
    where over a file's window it kept the file's; it keeps the default 2 now, and an
    unset message_range keeps the context window's side, which it stands for."""
    def sides(cfg: Config) -> tuple[tuple[int, int], tuple[int, int]]:
        own, recall = cfg.context_expand.window, cfg.recall_window
        return (own.before, own.after), (recall.before, recall.after)

    assert sides(Config.load(env={"CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE": "1"})) \
        == ((1, 2), (1, 2))
    assert sides(Config.load(env={"CHATMEM_CONTEXT_EXPAND__WINDOW__AFTER": "0"})) \
        == ((2, 0), (2, 0))
    assert sides(Config.load(context_expand={"window": {"before": 1}})) == ((1, 2), (1, 2))
    assert sides(Config.load(env={"CHATMEM_SEMANTIC_RECALL__MESSAGE_RANGE__BEFORE": "1"})) \
        == ((2, 2), (1, 2))
    assert sides(Config.load({"context_expand": {"window": 4}, "semantic_recall": True},
                             env={"CHATMEM_SEMANTIC_RECALL__MESSAGE_RANGE__BEFORE": "1"})) \
        == ((4, 4), (1, 4))
    # one table in one place is read as written: a side it leaves out is 0
    assert sides(Config.load({"context_expand": {"window": {"before": 1}}})) \
        == ((1, 0), (1, 0))


def test_header_values_are_never_in_repr() -> None:
    cfg = Config.load({"embedding": {"provider": "openai", "api_key": "sk-SECRET-3",
                                     "headers": {"Authorization": "Bearer sk-SECRET-4"}}})
    for shown in (repr(cfg), str(cfg), repr(cfg.embedding), str(cfg.embedding)):
        assert "SECRET" not in shown and "'Authorization'" in shown
    assert cfg.embedding.headers == {"Authorization": "Bearer sk-SECRET-4"}


def test_a_long_bad_value_is_cut_short() -> None:
    with pytest.raises(ConfigError) as info:
        Config.load(env={"CHATMEM_SEARCH__TOP_K": "9" * 100_000})
    assert "CHATMEM_SEARCH__TOP_K: search.top_k must be an integer from 1 to 1000" \
        in str(info.value)
    assert len(str(info.value)) < 300


def _class_default(path: str) -> Any:
    model: Any = Config
    info: Any = None
    for part in path.split("."):
        if part.startswith("<"):  # a table's key (``platforms.<platform>``)
            continue
        info = model.model_fields[part]
        model = next((t for t in (info.annotation, *getattr(info.annotation, "__args__", ()))
                      if isinstance(t, type) and issubclass(t, BaseModel)), None)
    return info.get_default(call_default_factory=True)


def _agrees(default: Any, documented: str) -> bool:
    text = documented.strip()
    if default is None or default == "":
        return text.split(" ")[0].rstrip(":") in ("unset", "none", "the")
    if isinstance(default, bool):
        return text.strip("`") == str(default).lower()
    if isinstance(default, str):
        return text == f"`{default}`"
    if isinstance(default, (dict, list)):
        return text == f"`{default!r}`"
    if isinstance(default, BaseModel):  # a window
        return default.model_dump() == {"before": int(text), "after": int(text)}
    return float(text.replace(",", "")) == default


def test_every_option_has_its_own_row_with_the_code_default() -> None:
    """The older test finds the name anywhere in README (an option mentioned in another
    row passed without a row of its own) and never read the default."""
    rows = dict(re.findall(r"^\| `([a-z_.<>]+)` \| ([^|]*) \|", section("## Configuration"),
                           re.M))
    missing = [f for f in fields(Config) if f not in rows]
    assert not missing, f"configuration fields without a row in README: {missing}"
    wrong = {f: (_class_default(f), rows[f]) for f in fields(Config)
             if not _agrees(_class_default(f), rows[f])}
    assert not wrong, f"README defaults that are not the code's: {wrong}"


@pytest.mark.parametrize("endpoint", ["http://127.0.0.1:99999/v1", "http://h:0/",
                                      "http://h:abc/"])
def test_an_endpoint_port_out_of_range_is_refused_at_start_up(endpoint: str) -> None:
    """It was accepted, and every call then failed with "ExceptionGroup: unhandled errors
    in a TaskGroup"."""
    with pytest.raises(ConfigError, match=r"embedding\.endpoint: the port must be a number "
                       "from 1 to 65535"):
        Config.load({"embedding": {"provider": "ollama", "endpoint": endpoint}})
    for fine in ("http://[::1]:8080/", "http://h:65535/", "http://h/"):
        assert Config.load({"embedding": {"endpoint": fine}}).embedding.endpoint == fine


@pytest.mark.parametrize("headers", [{"X-A": "é"}, {"X-é": "a"}, {"X-A": "a\x01b"},
                                     {"X-(a)": "a"}, {"": "a"}])
def test_a_header_http_cannot_send_is_refused_at_start_up(headers: dict[str, str]) -> None:
    """Non-ASCII text failed every call with a UnicodeEncodeError."""
    with pytest.raises(ConfigError, match=r"embedding\.headers: invalid header"):
        Config.load({"embedding": {"provider": "ollama", "headers": headers}})
    ok = {"Authorization": "Bearer sk-x", "X_Team": "a b\tc", "X-Trace-Id": "~!#"}
    assert Config.load({"embedding": {"headers": ok}}).embedding.headers == ok


def test_a_bad_value_of_a_file_is_named_with_the_file() -> None:
    """``data_source`` names the file (the CLI's ``--config``) in the errors of its own
    values, not in those of a variable or an explicit argument."""
    where = "--config chatmem.toml"
    with pytest.raises(ConfigError) as info:
        Config.load({"search": {"top_k": 0, "topk": 1}},
                    env={"CHATMEM_SEARCH__TIME_WEIGHT": "2"}, data_source=where)
    text = str(info.value)
    assert f"{where}: search.top_k" in text and f"{where}: search.topk: unknown option" in text
    assert "; CHATMEM_SEARCH__TIME_WEIGHT: search.time_weight must be a number from 0 to 1" in text
    with pytest.raises(ConfigError) as info:
        Config.load({"search": {"top_k": 3}}, data_source=where, search={"top_k": 0})
    assert "chatmem.toml" not in str(info.value)
    with pytest.raises(ConfigError, match=f"^invalid configuration: {where}: option names"):
        Config.load({1: 2}, data_source=where)
    with pytest.raises(ConfigError) as info:
        Config.load({"embedding": {"api_key": 5, "headers": {"A": "sk-SECRET-5\n"}}},
                    data_source=where)
    assert f"{where}: embedding.api_key" in str(info.value)
    assert "SECRET" not in str(info.value)


@pytest.mark.parametrize("value", ["1_0", "٣", "１０", "1_0.5"])
def test_a_number_is_spelt_in_ascii_digits(value: str) -> None:
    """README: values are converted "only from text that spells it"; int() also read
    these."""
    for var in ("CHATMEM_SEARCH__TOP_K", "CHATMEM_SEARCH__HALF_LIFE_DAYS"):
        with pytest.raises(ConfigError, match=rf"{var}: search\.\w+ must be"):
            Config.load(env={var: value})
    assert Config.load(env={"CHATMEM_SEARCH__TOP_K": " 8 "}).search.top_k == 8
    assert Config.load(env={"CHATMEM_SEARCH__HALF_LIFE_DAYS": "1e1"}).search.half_life_days \
        == 10.0


def test_a_model_name_given_as_an_argument_keeps_the_files_provider() -> None:
    """``Config.load(file, embedding="model")``: the shorthand a file may use replaced
    the file's whole section as an argument (provider back to local, the key and
    endpoint gone); now it names the model only, as in a file."""
    file = {"embedding": {"provider": "openai", "api_key": "sk-test",
                          "model": "text-embedding-3-small",
                          "endpoint": "http://127.0.0.1:9/v1"}}
    cfg = Config.load(file, embedding="text-embedding-3-large")
    assert (cfg.embedding.provider, cfg.embedding.model, cfg.embedding.endpoint) == (
        "openai", "text-embedding-3-large", "http://127.0.0.1:9/v1")
    assert cfg.embedding.api_key is not None
    with pytest.raises(ConfigError, match="set CHATMEM_EMBEDDING__MODEL=<model>"):
        Config.load({}, env={"CHATMEM_EMBEDDING": "text-embedding-3-large"})


RECALL_OFF_UNDER_ITS_OPTIONS = [
    # (file, variables, keyword options, the sources the error names)
    ({"semantic_recall": False}, {"CHATMEM_SEMANTIC_RECALL__MESSAGE_RANGE__BEFORE": "1"}, {},
     ("--config chatmem.toml sets semantic_recall = false",
      "CHATMEM_SEMANTIC_RECALL__MESSAGE_RANGE__BEFORE sets semantic_recall.message_range")),
    ({"semantic_recall": False}, {"CHATMEM_SEMANTIC_RECALL__TOP_K": "3",
                                  "CHATMEM_SEMANTIC_RECALL__SCOPE": "user"}, {},
     ("--config chatmem.toml sets semantic_recall = false",
      "CHATMEM_SEMANTIC_RECALL__SCOPE and CHATMEM_SEMANTIC_RECALL__TOP_K set")),
    ({"semantic_recall": False}, {"CHATMEM_SEMANTIC_RECALL": '{"top_k": 3}'}, {},
     ("--config chatmem.toml sets semantic_recall = false",
      "CHATMEM_SEMANTIC_RECALL sets semantic_recall.top_k")),
    ({}, {"CHATMEM_SEMANTIC_RECALL": "false"}, {"semantic_recall": {"top_k": 3}},
     ("CHATMEM_SEMANTIC_RECALL sets semantic_recall = false",
      "the argument semantic_recall sets semantic_recall.top_k")),
    ({"semantic_recall": False}, {}, {"semantic_recall": {"message_range": 1}},
     ("--config chatmem.toml sets semantic_recall = false",
      "the argument semantic_recall sets semantic_recall.message_range")),
]


@pytest.mark.parametrize("file, env, options, names", RECALL_OFF_UNDER_ITS_OPTIONS)
def test_recall_turned_off_below_its_options_is_an_error_naming_both(
        file: dict[str, Any], env: dict[str, str], options: dict[str, Any],
        names: tuple[str, str]) -> None:
    """``semantic_recall = false`` in a file under a variable setting one of its options
    (``…__MESSAGE_RANGE__BEFORE=1``): the merge put the variable's table in place of the
    ``false``, and recall came back on with no word. Either layer could be the one meant:
    the error names both."""
    with pytest.raises(ConfigError) as info:
        Config.load(file, env=env, data_source="--config chatmem.toml", **options)
    message = str(info.value)
    assert all(name in message for name in names), message
    assert "remove one of them" in message and "\n" not in message


def test_recall_off_above_or_on_above_is_a_plain_override() -> None:
    """The layer above decides when it sets the switch itself."""
    file = {"semantic_recall": {"top_k": 3}}
    assert Config.load(file, env={"CHATMEM_SEMANTIC_RECALL": "false"}).semantic_recall is False
    assert Config.load({"semantic_recall": False}, env={"CHATMEM_SEMANTIC_RECALL": "true"}
                       ).semantic_recall is True
    cfg = Config.load({"semantic_recall": False}, env={"CHATMEM_SEMANTIC_RECALL": "true"},
                      semantic_recall={"top_k": 4})  # off, on, then an option of it
    assert cfg.recall_top_k == 4
    assert Config.load({"semantic_recall": True}, env={"CHATMEM_SEMANTIC_RECALL__TOP_K": "2"}
                       ).recall_top_k == 2


async def test_memory_open_refuses_recall_off_under_an_option_of_it(tmp_path: Path) -> None:
    from chatmem import Memory

    with pytest.raises(ConfigError, match="the configuration sets semantic_recall = false"):
        await Memory.open(f"sqlite:///{tmp_path / 'm.db'}", config={"semantic_recall": False},
                          env={"CHATMEM_SEMANTIC_RECALL__TOP_K": "3"})
    assert not (tmp_path / "m.db").exists()


@pytest.mark.parametrize("env", [
    {"CHATMEM_SEMANTIC_RECALL": "false", "CHATMEM_SEMANTIC_RECALL__TOP_K": "3"},
    {"CHATMEM_SEMANTIC_RECALL": "true", "CHATMEM_SEMANTIC_RECALL__SCOPE": "user"},
    {"CHATMEM_CONTEXT_EXPAND__WINDOW": "3", "CHATMEM_CONTEXT_EXPAND__WINDOW__BEFORE": "1"},
    {"CHATMEM_SEARCH": '{"top_k": 8}', "chatmem_search__time_weight": "0.2"},
])
def test_a_variable_beside_one_of_an_option_inside_it_is_an_error_naming_both(
        env: dict[str, str]) -> None:
    """Two variables of one option, neither above the other: the environment source
    kept the outer one and dropped the inner (recall stayed off under
    ``…__TOP_K=3``, a window of 3 ignored ``…__BEFORE=1``), or beside a JSON section
    left the inner one's text unconverted (``search.time_weight: Input should be a valid
    number, got '{"top_k": 8}'``)."""
    with pytest.raises(ConfigError) as info:
        Config.load(env=env)
    outer, inner = sorted(name.upper() for name in env)
    assert f"{outer} and {inner} are both set" in str(info.value)
    assert "set one of them" in str(info.value)


def test_an_empty_variable_beside_an_option_inside_it_is_unset() -> None:
    """README: an empty variable counts as unset, also beside an option inside it (it
    used to be read as the section, and the option's text was not converted)."""
    cfg = Config.load(env={"CHATMEM_SEARCH": "", "CHATMEM_SEARCH__TIME_WEIGHT": "0.2"})
    assert cfg.search.time_weight == 0.2
    cfg = Config.load(env={"CHATMEM_SEMANTIC_RECALL": "", "CHATMEM_SEMANTIC_RECALL__TOP_K": "2"})
    assert cfg.recall_top_k == 2


def test_a_filter_set_above_replaces_the_one_below_whole(tmp_path: Path) -> None:
    """A filter is one value: merged key by key across layers, a file's
    ``{"role": "user"}`` under an environment's ``{"platform": "qq"}`` silently became
    both conditions (and ``{"ts": {"$gt": 1}}`` under ``{"ts": {"$lt": 9}}`` a range)."""
    file = {"semantic_recall": {"top_k": 3, "filter": {"role": "user",
                                                       "ts": {"$gt": 1}}}}
    env = {"CHATMEM_SEMANTIC_RECALL__FILTER": '{"platform": "qq", "ts": {"$lt": 9}}'}
    cfg = Config.load(file, env=env)
    assert cfg.recall_filter == {"platform": "qq", "ts": {"$lt": 9}}
    assert cfg.recall_top_k == 3  # the other options of semantic_recall still merge
    cfg = Config.load(file, env=env, semantic_recall={"filter": {"team": "a"}})
    assert (cfg.recall_filter, cfg.recall_top_k) == ({"team": "a"}, 3)
    assert Config.load(file, semantic_recall={"filter": {"team": "a"}}).recall_filter \
        == {"team": "a"}
    # the environment's filter replaces the .env file's, as any variable does, also one
    # the file spells in another case (a filter one variable per key is refused, but
    # not where the environment's filter hides it)
    dotenv = tmp_path / ".env"
    dotenv.write_text("chatmem_semantic_recall__filter='{\"role\": \"user\"}'\n")
    env = {"CHATMEM_SEMANTIC_RECALL__FILTER": '{"platform": "qq"}'}
    assert Config.load(env=env, env_file=dotenv).recall_filter == {"platform": "qq"}
    assert Config.load(env={}, env_file=dotenv).recall_filter == {"role": "user"}
    cfg = Config.load(env={"CHATMEM_SEMANTIC_RECALL__FILTER": ""}, env_file=dotenv)
    assert cfg.recall_filter == {"role": "user"}  # an empty variable is unset
    dotenv.write_text("CHATMEM_SEMANTIC_RECALL__FILTER__ROLE=user\n")
    assert Config.load(env=env, env_file=dotenv).recall_filter == {"platform": "qq"}


def test_headers_merge_by_name_whatever_its_case() -> None:
    """README § Configuration: each layer adds its headers, a higher one's replacing the
    same header below. Names are case-insensitive in HTTP: a file's ``Authorization``
    and a variable's ``authorization`` were both kept, and both sent."""
    file = {"embedding": {"headers": {"Authorization": "Bearer a", "X-Team": "t"}}}
    env = {"CHATMEM_EMBEDDING__HEADERS": '{"authorization": "Bearer b"}'}
    assert Config.load(file, env=env).embedding.headers == {"X-Team": "t",
                                                            "authorization": "Bearer b"}
    cfg = Config.load(file, env=env, embedding={"headers": {"X-TEAM": "u"}})
    assert cfg.embedding.headers == {"authorization": "Bearer b", "X-TEAM": "u"}
    # one table naming a header twice: neither is above the other
    with pytest.raises(ConfigError, match=re.escape(
            'embedding.headers: "X-Team" and "x-team" are the same header (names are '
            "case-insensitive); keep one")):
        Config.load({"embedding": {"headers": {"X-Team": "a", "x-team": "b"}}})


def test_platform_declarations_merge_by_platform_and_chat_type() -> None:
    """README § Configuration: each layer adds its declarations (as
    ``Memory.platforms.register`` does), a higher one's label of a chat type winning."""
    file = {"platforms": {"onebot": {"chat_types": {"private": "私聊", "group": "群"}},
                          "qq": {"chat_types": {"group": "QQ群"}}}}
    env = {"CHATMEM_PLATFORMS": '{"onebot": {"chat_types": {"group": "群聊"}}}'}
    cfg = Config.load(file, env=env)
    assert {name: p.chat_types for name, p in cfg.platforms.items()} == {
        "onebot": {"private": "私聊", "group": "群聊"}, "qq": {"group": "QQ群"}}
