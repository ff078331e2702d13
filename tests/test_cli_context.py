"""``chatmem context`` and ``chatmem recall --filter``: the command line over
``Memory.context`` and ``Memory.recall(filter=...)``, answering what the library and the
HTTP API answer (``POST /v1/context``, ``POST /v1/recall``), on a real SQLite file with
the default local model; a bad turn or filter is one line, exit 2, in the API's words."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from click.testing import CliRunner, Result

from chatmem import Memory
from chatmem.cli import main
from servers import running

#: This test's clock: a day after the conversation (decay is the same in every run).
NOW = 1_764_633_600_000

CHAT = [
    {"id": "m-deadline", "session_id": "s1", "ts": NOW - 86_400_000, "role": "user",
     "speaker_name": "Alex", "content": "The deadline for the report is Friday"},
    {"id": "m-noted", "session_id": "s1", "ts": NOW - 86_300_000, "role": "assistant",
     "content": "Noted: the report is due Friday"},
    {"id": "m-cat", "session_id": "s1", "ts": NOW - 86_200_000, "role": "user",
     "speaker_name": "Alex", "content": "I adopted a cat named Tudou"},
    {"id": "m-age", "session_id": "s1", "ts": NOW - 86_100_000, "role": "assistant",
     "content": "How old is Tudou?"},
    {"id": "m-budget", "session_id": "s2", "ts": NOW - 86_000_000, "role": "user",
     "content": "The deadline for the budget is Monday"},
]

#: A turn as an OpenAI chat-completions list: a system prompt (not the query) and the
#: user's question.
TURN = [{"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "when is the report due?"}]


def cli(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def build(folder: Path) -> Path:
    """A store of CHAT (each message's id given: two stores built so are alike)."""
    path = folder / "chat.db"
    log = folder / "chat.jsonl"
    log.write_text("\n".join(json.dumps(m) for m in CHAT) + "\n", encoding="utf-8")
    res = cli("add", "--db", str(path), "--messages", str(log))
    assert res.exit_code == 0, res.output
    for session, team in (("s1", "a"), ("s2", "b")):
        res = cli("session", "set", "--db", str(path), "--metadata",
                  json.dumps({"team": team}), session)
        assert res.exit_code == 0, res.output
    return path


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build(tmp_path_factory.mktemp("context"))


def library(db: Path, call: str, *args: Any, options: dict[str, Any] | None = None,
            **kwargs: Any) -> Any:
    """``Memory.<call>(*args, **kwargs)`` on the store ``db``."""
    async def ask() -> Any:
        async with await Memory.open(f"sqlite:///{db}", options=options or {},
                                     create=False) as mem:
            return await getattr(mem, call)(*args, **kwargs)
    return asyncio.run(ask())


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    """The HTTP API on 127.0.0.1 (an open server: no keys) over a store built as ``db``
    (a store file has one process at a time)."""
    from chatmem.server.http import create_app

    served = build(tmp_path_factory.mktemp("served"))
    with running(create_app(url=f"sqlite:///{served}")) as base, \
            httpx.Client(base_url=base, timeout=60) as c:
        yield c


def answer(res: Result) -> Any:
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


# ------------------------------------------------------------------ chatmem context


def test_context_prints_the_messages_memory_context_returns(db: Path, tmp_path: Path
                                                            ) -> None:
    """There was no `chatmem context`: what an agent puts before its model call could be
    seen only from Python or over HTTP. It prints Memory.context's messages as one JSON
    document, for a TEXT, a --messages file (JSON Lines or an array) or standard input."""
    said = answer(cli("context", "--db", str(db), "--session", "s1", "--now", str(NOW),
                      "when is the report due?"))
    assert said == library(db, "context", "when is the report due?", session="s1",
                           now=NOW)
    assert said[0]["role"] == "system"
    assert "The deadline for the report is Friday" in said[0]["content"]
    assert "budget" in said[0]["content"]  # scope all: the other session's line too

    # the turn as messages, with the session's last messages (an override of the
    # configuration's last_messages), from a file and from standard input
    lines = tmp_path / "turn.jsonl"
    lines.write_text("\n".join(json.dumps(m) for m in TURN) + "\n\n", encoding="utf-8")
    array = tmp_path / "turn.json"
    array.write_text(json.dumps(TURN), encoding="utf-8")
    expected = library(db, "context", TURN, session="s1", now=NOW,
                       options={"last_messages": 2})
    assert [m["content"] for m in expected[1:]] == ["I adopted a cat named Tudou",
                                                    "How old is Tudou?"]
    for source, stdin in ((str(lines), None), (str(array), None), ("-", json.dumps(TURN))):
        said = answer(cli("context", "--db", str(db), "--session", "s1", "--now", str(NOW),
                          "--last-messages", "2", "--messages", source, stdin=stdin))
        assert said == expected, source

    # the other inputs of POST /v1/context: speakers, exclude_ids, platform
    said = answer(cli("context", "--db", str(db), "--session", "s1", "--now", str(NOW),
                      "--platform", "cli", "--speaker-id", "alex", "--exclude-id",
                      "m-deadline", "when is the report due?"))
    assert said == library(db, "context", "when is the report due?", session="s1",
                           now=NOW, platform="cli", speakers=["alex"],
                           exclude_ids=["m-deadline"])
    assert "The deadline for the report is Friday" not in said[0]["content"]


def test_context_explain_is_the_http_answer(db: Path, api: httpx.Client) -> None:
    """--explain prints what POST /v1/context answers with explain: the messages,
    whether the recall was degraded, and the recall behind them."""
    said = answer(cli("context", "--db", str(db), "--session", "s1", "--now", str(NOW),
                      "--explain", "--messages", "-", stdin=json.dumps(TURN)))
    r = api.post("/v1/context", json={"turn": TURN, "session": "s1", "now": NOW,
                                      "explain": True})
    assert r.status_code == 200, r.text
    assert said == r.json()
    assert said["degraded"] is False and said["recall"]["hits"]


@pytest.mark.parametrize(("file", "says"), [
    ('{"role": "user", "content": "a"}\n{"role": "bogus", "content": "b"}\n',
     'line 2: message.role must be one of assistant, developer, function, notice, '
     'system, tool, user, got "bogus"'),
    ('[{"role": "user", "content": 5}]',
     "turn[0].content must be a string, a list of content parts or null, got 5"),
    ("5\n", "line 1: message: expected text, a Message, a mapping or a list of them, "
            "got 5"),
    ('{"role": "user"\n', "line 1: not JSON (Expecting ',' delimiter)"),
    ("\n\n", "holds no message"),
    ("[]", "holds no message"),
])
def test_a_bad_turn_file_is_one_line_naming_the_file_and_the_message(
        db: Path, tmp_path: Path, file: str, says: str) -> None:
    path = tmp_path / "turn.jsonl"
    path.write_text(file, encoding="utf-8")
    res = cli("context", "--db", str(db), "--session", "s1", "--messages", str(path))
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {path}: {says}\n"


@pytest.mark.parametrize(("args", "says"), [
    (["--messages", "{turn}", "a text"], "give TEXT or --messages FILE, not both"),
    ([], "give this turn's TEXT (- reads standard input), or --messages FILE"),
    (["--speaker-id", "alex", "--speaker-id", ""],
     "--speaker-id (the 2nd of 2) must not be empty"),
])
def test_context_usage_errors_are_one_line(db: Path, tmp_path: Path, args: list[str],
                                           says: str) -> None:
    turn = tmp_path / "turn.json"
    turn.write_text(json.dumps(TURN), encoding="utf-8")
    args = [a.format(turn=turn) for a in args]
    if "a text" not in args and "--messages" not in args and args:
        args.append("a text")
    res = cli("context", "--db", str(db), "--session", "s1", *args)
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {says}\n"


def test_context_of_a_store_that_does_not_exist_creates_none(tmp_path: Path) -> None:
    res = cli("context", "--db", str(tmp_path / "nope.db"), "--session", "s1", "hello")
    assert res.exit_code == 2 and res.stderr.startswith("error: no chatmem store at ")
    assert not (tmp_path / "nope.db").exists()


# ------------------------------------------------------------------ chatmem recall --filter


def test_recall_filter_reads_the_sessions_metadata(db: Path) -> None:
    """`chatmem recall` had no --filter: the metadata filter of Memory.recall and POST
    /v1/recall could not be given from the command line."""
    for flt, sessions in (('{"team": "b"}', {"s2"}), ('{"team": {"$in": ["a"]}}', {"s1"}),
                          ('{"$or": [{"team": "a"}, {"team": "b"}]}', {"s1", "s2"}),
                          ('{"team": "c"}', set()), ("null", {"s1", "s2"})):
        said = answer(cli("recall", "--db", str(db), "--json", "--filter", flt,
                          "deadline"))
        assert {h["message"]["session_id"] for h in said["hits"]} == sessions, flt
        expected = library(db, "recall", "deadline", filter=json.loads(flt))
        assert [h["message"]["id"] for h in said["hits"]] == \
            [h.message.id for h in expected.hits], flt


#: Filters the library refuses (FilterError): the command line says what the HTTP API
#: says, the part named and the fix.
REFUSED_FILTERS = ['{"$foo": 1}', '{"a": {"$gte": "x"}}', '{"a": {"$bogus": 1}}',
                   '{"$or": []}', '{"a": {}}', '{"session": {"$in": []}}',
                   '{"meta.team": {"$in": [[2]]}}', '{"a b": 1}']


@pytest.mark.parametrize("flt", REFUSED_FILTERS)
def test_a_bad_filter_is_refused_in_the_http_apis_words(db: Path, api: httpx.Client,
                                                        flt: str) -> None:
    r = api.post("/v1/recall", content=f'{{"query": "deadline", "filter": {flt}}}',
                 headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"]["type"] == "FilterError", r.text
    res = cli("recall", "--db", str(db), "--filter", flt, "deadline")
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {r.json()['error']['message']}\n"


@pytest.mark.parametrize(("flt", "http", "says"), [
    ("[1]", "filter must be an object, got [1]", "--filter must be an object, got '[1]'"),
    ('"x"', 'filter must be an object, got "x"',
     "--filter must be an object, got '\"x\"'"),
    ('{"a": 1, "a": 2}', 'body: the key "a" appears twice in one object; send each key '
     "once", '--filter: the key "a" appears twice in one object; give each key once'),
    ("{team", None, "--filter: not JSON (Expecting property name enclosed in double "
     "quotes)"),
])
def test_a_filter_that_is_no_json_object_is_refused_as_over_http(
        db: Path, api: httpx.Client, flt: str, http: str | None, says: str) -> None:
    """What the HTTP API refuses before the library reads the filter (not an object, a
    key twice) the command line refuses too, naming --filter as it was typed."""
    if http is not None:
        r = api.post("/v1/recall", content=f'{{"query": "deadline", "filter": {flt}}}',
                     headers={"content-type": "application/json"})
        assert r.status_code in (400, 422) and r.json()["error"]["message"] == http, r.text
    res = cli("recall", "--db", str(db), "--filter", flt, "deadline")
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {says}\n"
