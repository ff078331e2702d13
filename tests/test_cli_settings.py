"""The command line's sessions, scope and retention commands: each is the library call
the HTTP API makes (GET /v1/sessions, GET/PUT /v1/settings, GET/PUT /v1/retention),
on a real SQLite file; a bad argument is one line, exit 2, and changes nothing."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from chatmem import Memory, Message
from chatmem.cli import main
from chatmem.models import now_ms

DAY_MS = 86_400_000


def cli(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def make_store(db: Path) -> None:
    async def fill() -> None:
        async with await Memory.open(f"sqlite:///{db}", embedder=None) as mem:
            await mem.upsert_session({"id": "alice-dm", "origin_platform": "telegram"})
            await mem.upsert_session({"id": "bob\x1b[2J", "origin_platform": "slack"})
            old = now_ms() - 10 * DAY_MS
            await mem.add([
                Message(session_id="alice-dm", content="old news", ts=old, platform="telegram"),
                Message(session_id="alice-dm", content="fresh news", platform="telegram"),
                Message(session_id="bob\x1b[2J", content="hi", platform="slack"),
                Message(session_id="carol", content="hello", platform="web")])

    asyncio.run(fill())


async def library_view(db: Path) -> dict[str, object]:
    async with await Memory.open(f"sqlite:///{db}", embedder=None, create=False) as mem:
        scope = await mem.effective_scope("alice-dm", "telegram")
        keep = await mem.effective_retention("alice-dm")
        page = await mem.sessions(limit=100)
        listed = await mem.list(session="alice-dm")
        return {"scope": (scope.scope, scope.layer), "retention": (keep.days, keep.layer),
                "sessions": page.to_dict(), "alice": [m.content for m in listed.messages]}


def test_sessions_pages_as_the_library_does_and_prints_ids_safely(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    make_store(db)
    res = cli("sessions", "--db", str(db), "--json")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output) == asyncio.run(library_view(db))["sessions"]
    first = cli("sessions", "--db", str(db), "--limit", "2")
    assert first.exit_code == 0, first.output
    lines = first.stdout.splitlines()
    assert [line.split()[0] for line in lines] == ["alice-dm", "bob\\x1b[2J"]  # escaped
    assert "\x1b" not in first.output
    assert "2 message(s)" in lines[0] and "scope all (config)" in lines[0]
    assert "next page: --after bob\\x1b[2J" in first.stderr
    rest = cli("sessions", "--db", str(db), "--after", "bob\x1b[2J")
    assert [line.split()[0] for line in rest.stdout.splitlines()] == ["carol"]
    assert "next page" not in rest.stderr
    bad = cli("sessions", "--db", str(db), "--limit", "0")
    assert bad.exit_code == 2 and "limit must be an integer from 1 to 1000" in bad.output


def test_scope_set_show_unset_is_the_settings_api(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    make_store(db)
    res = cli("scope", "show", "--db", str(db), "--session", "alice-dm")
    assert res.exit_code == 0 and res.output == "scope all (from config)\n"
    res = cli("scope", "set", "--db", str(db), "--layer", "platform", "--platform",
              "telegram", "session")
    assert res.exit_code == 0, res.output
    assert res.output == "scope of the platform layer set to session\n"
    assert asyncio.run(library_view(db))["scope"] == ("session", "platform")
    res = cli("scope", "show", "--db", str(db), "--session", "alice-dm", "--json")
    assert json.loads(res.output) == {"scope": "session", "layer": "platform",
                                      "broken": False}
    # the session layer wins over the platform's; an alias is taken as the library takes it
    assert cli("scope", "set", "--db", str(db), "--session", "alice-dm", "thread"
               ).exit_code == 0
    assert asyncio.run(library_view(db))["scope"] == ("session", "session")
    assert cli("scope", "unset", "--db", str(db), "--session", "alice-dm").exit_code == 0
    assert asyncio.run(library_view(db))["scope"] == ("session", "platform")
    assert cli("scope", "unset", "--db", str(db), "--layer", "platform", "--platform",
               "telegram").exit_code == 0
    assert asyncio.run(library_view(db))["scope"] == ("all", "config")


def test_bad_scope_and_retention_changes_are_one_line_and_change_nothing(
        tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    make_store(db)
    before = asyncio.run(library_view(db))
    for args, says in (
            (["scope", "set", "everything", "--session", "alice-dm"], "VALUE must be one of"),
            # the layer's parts are named by their options, not the library's arguments
            (["scope", "set", "all"], "error: --layer session (the default) needs --session"),
            (["scope", "set", "--layer", "platform", "--platform", "tg", "--session", "x",
              "all"], "error: --layer platform takes --platform only, got --session too "
                      "(--layer session reads --session)"),
            (["scope", "set", "--layer", "chat_type", "--platform", "tg", "all"],
             "error: --layer chat_type needs --chat-type"),
            (["scope", "set", "--layer", "galaxy", "all"], "--layer must be one of"),
            (["retention", "set", "--session", "alice-dm", "--", "-3"],
             "DAYS must be an integer from 0"),
            (["retention", "set", "--session", "alice-dm", "soon"],
             "DAYS must be an integer, got 'soon'"),
            (["retention", "unset", "--layer", "group", "--platform", "tg"],
             "error: --layer group needs --group-id"),
            (["retention", "set", "--layer", "group", "--platform", "tg", "--group-id", "g",
              "--chat-type", "private", "3"],
             "error: --layer group takes --platform and --group-id only, got --chat-type "
             "too (--layer chat_type reads --chat-type)"),
            (["scope", "show"], "Missing option '--session'")):
        res = cli(args[0], args[1], "--db", str(db), *args[2:])
        assert res.exit_code == 2, (args, res.output)
        assert says in res.output, (args, res.output)
        assert len(res.output.strip().splitlines()) == 1 and res.output.startswith("error:")
    assert asyncio.run(library_view(db)) == before


def test_retention_set_show_and_sweep_erase_what_is_older(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    make_store(db)
    res = cli("retention", "set", "--db", str(db), "--layer", "platform", "--platform",
              "telegram", "3")
    # in days, as show and sessions say it (set said "set to 3", no unit)
    assert res.exit_code == 0 and res.output == \
        "retention of the platform layer set to 3 days\n"
    res = cli("retention", "show", "--db", str(db), "--session", "alice-dm")
    assert res.exit_code == 0 and res.output == "kept 3 days (from platform)\n"
    for days, said, kept in (("1", "1 day", "kept 1 day"),
                             ("0", "0 days (kept forever)", "kept forever")):
        res = cli("retention", "set", "--db", str(db), "--session", "carol", days)
        assert res.exit_code == 0 and res.output == \
            f"retention of the session layer set to {said}\n"
        res = cli("retention", "show", "--db", str(db), "--session", "carol")
        assert res.exit_code == 0 and res.output == f"{kept} (from session)\n"
        res = cli("sessions", "--db", str(db))
        listed = [line for line in res.output.splitlines() if line.startswith("carol ")]
        assert res.exit_code == 0 and len(listed) == 1, res.output
        assert listed[0].endswith(f"retention {kept.removeprefix('kept ')} (session)")
    assert cli("retention", "unset", "--db", str(db), "--session", "carol").output == \
        "retention of the session layer removed\n"
    # asked first: no answer on standard input erases nothing
    res = cli("retention", "sweep", "--db", str(db))
    assert res.exit_code == 2 and "pass --yes" in res.output
    assert asyncio.run(library_view(db))["alice"] == ["old news", "fresh news"]
    res = cli("retention", "sweep", "--db", str(db), "--json", "--yes")
    assert res.exit_code == 0, res.output
    assert json.loads(res.output)["messages"] == 1
    view = asyncio.run(library_view(db))
    assert view["alice"] == ["fresh news"] and view["retention"] == (3, "platform")
    res = cli("retention", "unset", "--db", str(db), "--layer", "platform", "--platform",
              "telegram")
    assert res.exit_code == 0
    assert asyncio.run(library_view(db))["retention"] == (0, "config")


def test_the_commands_refuse_a_missing_store_and_make_no_file(tmp_path: Path) -> None:
    for args in (["sessions"], ["scope", "show", "--session", "s"],
                 ["scope", "set", "--session", "s", "all"],
                 ["retention", "show", "--session", "s"],
                 ["retention", "set", "--session", "s", "3"],
                 ["retention", "sweep", "--yes"]):
        n = 2 if args[0] != "sessions" else 1
        res = cli(*args[:n], "--db", str(tmp_path / "typo.db"), *args[n:])
        assert res.exit_code == 2, (args, res.output)
        assert f"no chatmem store at {tmp_path / 'typo.db'}" in res.output
        assert os.listdir(tmp_path) == []


async def stored_session(db: Path, sid: str) -> dict[str, object] | None:
    async with await Memory.open(f"sqlite:///{db}", embedder=None, create=False) as mem:
        found = await mem.get_session(sid)
        return None if found is None else found.to_dict()


def test_session_set_on_a_session_an_older_chatmem_stored_with_empty_fields(
        tmp_path: Path) -> None:
    """An older chatmem stored "" for none; upsert_session refuses "" now, and session
    set kept the stored fields, so any change of such a session was refused for a
    field the user never gave. The "" is kept as none."""
    from chatmem.models import Session

    db = tmp_path / "chat.db"

    async def old_store() -> None:
        async with await Memory.open(f"sqlite:///{db}") as mem:
            await mem.store.upsert_session(Session(id="s", resource_id="", group_id=""))

    asyncio.run(old_store())
    res = cli("session", "set", "--db", str(db), "--group-name", "Team", "s")
    assert res.exit_code == 0, res.output
    held = asyncio.run(stored_session(db, "s"))
    assert held is not None
    assert (held["resource_id"], held["group_id"], held["group_name"]) == (None, None, "Team")


def test_session_set_changes_the_fields_given_and_keeps_the_rest(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    make_store(db)
    res = cli("session", "show", "--db", str(db), "nobody")
    # quoted as JSON, as every other refusal quotes an id (was Python's 'nobody')
    assert res.exit_code == 2 and res.stderr == \
        'error: session "nobody" is not registered (chatmem session set registers it)\n'
    res = cli("session", "show", "--db", str(db), "it's")
    assert res.exit_code == 2 and 'session "it\'s" is not registered' in res.stderr
    assert cli("scope", "set", "--db", str(db), "--session", "alice-dm", "session"
               ).exit_code == 0
    res = cli("session", "set", "--db", str(db), "--resource-id", "alice", "--metadata",
              '{"tz": "Europe/Berlin"}', "alice-dm")
    assert res.exit_code == 0 and res.output == "session alice-dm changed\n"
    # no field given: it said 'session alice-dm changed', and changed nothing
    before = asyncio.run(stored_session(db, "alice-dm"))
    res = cli("session", "set", "--db", str(db), "alice-dm")
    assert res.exit_code == 0 and res.output == (
        "session alice-dm is registered already; nothing given to change (give a field "
        "such as --resource-id, or --unset FIELD)\n")
    assert asyncio.run(stored_session(db, "alice-dm")) == before
    alice = asyncio.run(stored_session(db, "alice-dm"))
    assert alice is not None
    assert (alice["origin_platform"], alice["resource_id"], alice["metadata"]) == (
        "telegram", "alice", {"tz": "Europe/Berlin"})  # kept, set, set
    assert asyncio.run(library_view(db))["scope"] == ("session", "session")  # kept
    res = cli("session", "show", "--db", str(db), "alice-dm")
    assert res.exit_code == 0 and json.loads(res.output) == alice
    res = cli("session", "set", "--db", str(db), "--parent-id", "alice-dm", "--json", "t1")
    assert res.exit_code == 0 and json.loads(res.output)["parent_id"] == "alice-dm"
    assert cli("session", "set", "--db", str(db), "--unset", "parent_id", "t1").exit_code == 0
    assert asyncio.run(stored_session(db, "t1"))["parent_id"] is None  # type: ignore[index]
    # bad changes: one line, exit 2, nothing changed
    assert cli("session", "set", "--db", str(db), "--parent-id", "alice-dm", "t1"
               ).exit_code == 0
    before = asyncio.run(stored_session(db, "alice-dm")), asyncio.run(stored_session(db, "t1"))
    for args, says in ((["--parent-id", "t1", "alice-dm"], "would make a cycle"),
                       (["--metadata", "[1", "t1"], "--metadata: not JSON"),
                       (["--metadata", "[1]", "t1"], "--metadata must be an object"),
                       (["--unset", "group_id", "--group-id", "g", "t1"],
                        "--group-id is given and unset")):
        res = cli("session", "set", "--db", str(db), *args)
        assert res.exit_code == 2 and says in res.output, (args, res.output)
        assert res.output.startswith("error:") and len(res.output.splitlines()) == 1
    assert (asyncio.run(stored_session(db, "alice-dm")),
            asyncio.run(stored_session(db, "t1"))) == before


def test_session_set_keeps_the_settings_and_unset_clears_an_object(tmp_path: Path) -> None:
    """session set said it kept a session's settings (its help, README) and wrote {}
    over them (upsert_session replaces every column); --unset metadata, one of its
    choices, was refused ('--metadata must be an object, got null'). The settings are
    kept, and --unset metadata or settings makes the object {}."""
    db = tmp_path / "chat.db"
    make_store(db)

    async def register() -> None:
        async with await Memory.open(f"sqlite:///{db}", embedder=None) as mem:
            await mem.upsert_session({"id": "s", "metadata": {"tz": "UTC"},
                                      "settings": {"x": 1}})

    asyncio.run(register())
    assert cli("session", "set", "--db", str(db), "--chat-type", "group", "s").exit_code == 0
    held = asyncio.run(stored_session(db, "s"))
    assert held is not None and (held["chat_type"], held["metadata"], held["settings"]) == (
        "group", {"tz": "UTC"}, {"x": 1})
    res = cli("session", "set", "--db", str(db), "--unset", "metadata", "s")
    assert res.exit_code == 0, res.output
    res = cli("session", "set", "--db", str(db), "--unset", "settings", "s")
    assert res.exit_code == 0, res.output
    held = asyncio.run(stored_session(db, "s"))
    assert held is not None and (held["chat_type"], held["metadata"], held["settings"]) == (
        "group", {}, {})


@pytest.mark.parametrize(("given", "says"), [
    ('{"tz": "UTC", "tz": "CET"}',
     '--metadata: the key "tz" appears twice in one object; give each key once'),
    ('{"a": {"b": 1, "b": 2}}',
     '--metadata: the key "b" appears twice in one object; give each key once'),
    ("[" * 5000 + "]" * 5000, "--metadata: nested too deeply"),
    ('{"n": ' + "9" * 5000 + "}", "--metadata: a number of thousands of digits"),
    ('{"n": NaN}', "--metadata: NaN is not a JSON number"),
    ("{tz", "--metadata: not JSON (Expecting property name enclosed in double quotes)"),
])
@pytest.mark.parametrize("command", ["rewrite", "session set"])
def test_a_metadata_option_is_read_as_recall_filter_and_the_http_api_read_json(
        tmp_path: Path, command: str, given: str, says: str) -> None:
    """rewrite --metadata and session set --metadata read their JSON with Python's
    json.loads: a key given twice ({"tz": "UTC", "tz": "CET"}) was stored with the last
    value, where recall --filter, add --messages and the HTTP API refuse it, and JSON
    nested 5000 deep was "unexpected RecursionError … please report it". They are read
    as --filter is: one line naming --metadata, exit 2, nothing changed."""
    db = tmp_path / "chat.db"

    async def fill() -> None:
        async with await Memory.open(f"sqlite:///{db}", embedder=None) as mem:
            await mem.upsert_session({"id": "s1", "metadata": {"tz": "UTC"}})
            await mem.add(Message(session_id="s1", content="hello", ts=1_000,
                                  metadata={"tz": "UTC"}))

    async def held() -> tuple[object, object]:
        async with await Memory.open(f"sqlite:///{db}", embedder=None,
                                     create=False) as mem:
            [msg] = (await mem.list(session="s1")).messages
            session = (await mem.store.get_sessions(["s1"])).get("s1")
            return msg.metadata, session.metadata if session else None

    asyncio.run(fill())
    before = asyncio.run(held())
    target = ["--session", "s1", "--ts", "1000"] if command == "rewrite" else ["s1"]
    res = cli(*command.split(), "--db", str(db), "--metadata", given, *target)
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {says}\n"
    assert asyncio.run(held()) == before


def test_rewrite_changes_the_message_and_its_recall(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"

    async def first() -> Message:
        # the default model, as the command line uses it (no --config)
        async with await Memory.open(f"sqlite:///{db}") as mem:
            [m] = await mem.add(Message(session_id="s1", content="[image]", ts=1_000))
            await mem.add(Message(session_id="s1", content="the weather is grey", ts=2_000))
            return m

    msg = asyncio.run(first())
    res = cli("rewrite", "--db", str(db), "--session", "s1", "--ts", "1000")
    assert res.exit_code == 2 and "needs --content, --visible-content or --metadata" in res.output
    res = cli("rewrite", "--db", str(db), "--session", "s1", "--ts", "3000", "--content", "x")
    # the time is exact to the millisecond: the error says where to read it
    assert res.exit_code == 2 and res.stderr == (
        f'error: no message at session "s1", ts 3000 (chatmem list --db {db} --session s1 '
        "shows each of its messages' ts, first on its line)\n")
    assert cli("list", "--db", str(db), "--session", "s1").output.startswith("1000  s1  ")
    res = cli("rewrite", "--db", str(db), "--session", "s1", "--ts", "1000", "--metadata",
              '{"n": NaN}')
    assert res.exit_code == 2 and "--metadata: NaN is not a JSON number" in res.output

    async def now() -> tuple[Message | None, list[str]]:
        async with await Memory.open(f"sqlite:///{db}", create=False) as mem:
            got = (await mem.get([msg.id or ""])).get(msg.id or "")
            hits = await mem.recall("a cat asleep on a red sofa", session="s1", top_k=1)
            return got, [h.message.content for h in hits.hits]

    got, hits = asyncio.run(now())
    assert got is not None and got.content == "[image]" and hits != [
        "a cat asleep on a red sofa"]
    res = cli("rewrite", "--db", str(db), "--session", "s1", "--ts", "1000", "--content",
              "a cat asleep on a red sofa", "--metadata", '{"kind": "caption"}')
    assert res.exit_code == 0, res.output
    assert res.stdout == f"rewrote {msg.id}: a cat asleep on a red sofa\n"
    got, hits = asyncio.run(now())
    assert got is not None and got.metadata == {"kind": "caption"} and got.ts == 1_000
    assert hits == ["a cat asleep on a red sofa"]


def test_every_example_of_the_settings_commands_runs_as_written(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each example of chatmem scope, retention and session's --help, pasted into a
    folder holding chat.db, does what it shows. `chatmem scope set --help` gave
    '--layer group --platform slack --group-id T1 group', which stopped with 'VALUE must
    be one of all, user, platform, resource, session (or thread), got 'group'', and
    listed the values as 'session, resource, group, platform, all' (no user; group is a
    layer, not a scope) over 'the configuration's recall.scope' (the option is scope)."""
    import re
    import shlex

    import click

    monkeypatch.chdir(tmp_path)
    make_store(tmp_path / "chat.db")
    ran = 0
    for name in ("scope", "retention", "session"):
        group = main.commands[name]
        assert isinstance(group, click.Group)
        for sub in (group, *group.commands.values()):
            found = re.search(r"Example:\n(.*?)(?:\n\s*\n|\Z)", sub.help or "", re.S)
            assert found, f"chatmem {name} {sub.name} has no example"
            for line in found.group(1).replace("\\\n", " ").splitlines():
                if line.strip():
                    res = cli(*shlex.split(line)[1:])
                    assert res.exit_code == 0, f"{line.strip()}: {res.output}"
                    ran += 1
    assert ran >= 12
    scope_help = cli("scope", "set", "--help").output
    assert "VALUE: all, user, platform, resource, session" in scope_help
    assert "recall.scope" not in scope_help
