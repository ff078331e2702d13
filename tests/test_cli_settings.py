"""The command line's sessions, scope and retention commands: each is the library call
the HTTP API makes (GET /v1/sessions, GET/PUT /v1/settings, GET/PUT /v1/retention),
on a real SQLite file; a bad argument is one line, exit 2, and changes nothing."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

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
            (["scope", "set", "everything", "--session", "alice-dm"], "scope must be one of"),
            (["scope", "set", "all"], "a session-level setting needs session"),
            (["scope", "set", "--layer", "platform", "--platform", "tg", "--session", "x",
              "all"], "takes platform only, got session too"),
            (["scope", "set", "--layer", "galaxy", "all"], "Invalid value for '--layer'"),
            (["retention", "set", "--session", "alice-dm", "--", "-3"],
             "days must be an integer from 0"),
            (["retention", "set", "--session", "alice-dm", "soon"], "'soon' is not a valid"),
            (["retention", "unset", "--layer", "group", "--platform", "tg"],
             "needs group_id"),
            (["scope", "show"], "Missing option '--session'")):
        res = cli(args[0], args[1], "--db", str(db), *args[2:])
        assert res.exit_code == 2, (args, res.output)
        assert says in res.output, (args, res.output)
        if "Invalid value" not in says and "Missing" not in says and "not a valid" not in says:
            assert len(res.output.strip().splitlines()) == 1 and res.output.startswith("error:")
    assert asyncio.run(library_view(db)) == before


def test_retention_set_show_and_sweep_erase_what_is_older(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    make_store(db)
    res = cli("retention", "set", "--db", str(db), "--layer", "platform", "--platform",
              "telegram", "3")
    assert res.exit_code == 0 and res.output == "retention of the platform layer set to 3\n"
    res = cli("retention", "show", "--db", str(db), "--session", "alice-dm")
    assert res.exit_code == 0 and res.output == "kept 3 days (from platform)\n"
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
