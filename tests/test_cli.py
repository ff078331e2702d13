"""The chatmem command, run as a user runs it."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from chatmem.cli import main
from chatmem.models import Message, now_ms
from chatmem.store import SqliteStore
from chatmem.store.base import Retry
from readme import section


def test_demo_prints_the_deadline_inside_the_injected_system_message() -> None:
    proc = subprocess.run([sys.executable, "-m", "chatmem", "demo", "--json"],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    injected = json.loads(proc.stdout)
    assert injected[0]["role"] == "system"
    assert "The deadline is in two weeks." in injected[0]["content"]
    assert "[cli/Alex @ " in injected[0]["content"]


def test_demo_ignores_the_settings_of_the_environment_and_stays_offline(tmp_path: Path
                                                                        ) -> None:
    """`chatmem demo` read CHATMEM_* variables and the .env file as every command does:
    with the user's remote provider set there (CHATMEM_EMBEDDING__PROVIDER=openai and an
    endpoint) it sent the demo's conversation to that service, and a bad setting there
    (or a .env file it cannot read) stopped it. It runs on the embedded defaults: here a
    real HTTP server at the configured endpoint gets no request, and the demo answers as
    without those settings."""
    import http.server
    import threading

    asked: list[str] = []

    class Service(http.server.BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            asked.append(self.path)
            self.send_error(500)

        def log_message(self, *args: object) -> None:
            pass

    service = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
    threading.Thread(target=service.serve_forever, daemon=True).start()
    (tmp_path / ".env").write_text("CHATMEM_SCOPE=session\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH", "")]),
        "CHATMEM_EMBEDDING__PROVIDER": "openai",
        "CHATMEM_EMBEDDING__ENDPOINT": f"http://127.0.0.1:{service.server_port}/v1",
        "CHATMEM_HYBRID__FALLBACK_TO_LEXICAL": "false",
        "OPENAI_API_KEY": "sk-not-a-key", "CHATMEM_SEARCH__TOP_K": "1"}
    try:
        proc = subprocess.run([sys.executable, "-m", "chatmem", "demo", "--json"],
                              capture_output=True, text=True, timeout=300, env=env,
                              cwd=tmp_path)
        assert proc.returncode == 0, proc.stderr
        assert asked == []
        content = json.loads(proc.stdout)[0]["content"]
        assert "The deadline is in two weeks." in content and "[cli/Alex @ " in content
        # a setting it could not read (a bad value, a .env file it cannot read) is none
        # of its business either
        (tmp_path / ".env").write_text("CHATMEM_SCOPE = 'session\n")
        proc = subprocess.run([sys.executable, "-m", "chatmem", "demo"],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path,
                              env={**env, "CHATMEM_CONTEXT_EXPAND__WINDOW": "-1"})
        assert proc.returncode == 0 and asked == [], proc.stderr
        assert "The deadline is in two weeks." in proc.stdout
    finally:
        service.shutdown()
        service.server_close()
    assert "CHATMEM_" in " ".join((main.commands["demo"].help or "").split())


def test_demo_db_writes_only_into_a_store_of_its_own(tmp_path: Path) -> None:
    """`chatmem demo --db chat.db` on the user's own store added the demo's 17 messages
    (Alex, his website and Japan) to it, among the user's; run again on its own store,
    the demo added them a second time and every recalled line came out twice."""
    runner = CliRunner()
    mine = str(tmp_path / "chat.db")
    res = runner.invoke(main, ["add", "--db", mine, "--session", "s1", "--no-wait",
                               "my own note"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["demo", "--db", mine])
    assert res.exit_code == 2, res.output
    assert res.stdout == "" and mine in res.stderr and "--db" in res.stderr, res.stderr
    assert json.loads(runner.invoke(main, ["stats", "--db", mine, "--json"]).stdout
                      )["messages"] == 1

    own = str(tmp_path / "demo.db")
    first = runner.invoke(main, ["demo", "--db", own, "--json"])
    assert first.exit_code == 0, first.output
    again = runner.invoke(main, ["demo", "--db", own, "--json"])
    assert again.exit_code == 0, again.output
    lines = json.loads(again.stdout)[0]["content"].splitlines()
    assert "The deadline is in two weeks." in json.loads(first.stdout)[0]["content"]
    recalled = [line for line in lines if line.startswith("[")]
    assert recalled and len(recalled) == len(set(recalled)), lines
    assert json.loads(runner.invoke(main, ["stats", "--db", own, "--json"]).stdout
                      )["messages"] == 17
    # its mark is the store's own: an export of it imports, and makes no demo store
    backup, copy = str(tmp_path / "demo.jsonl"), str(tmp_path / "copy.db")
    res = runner.invoke(main, ["export", "--db", own, "-o", backup])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["import", "--db", copy, backup])
    assert res.exit_code == 0, res.output
    assert runner.invoke(main, ["demo", "--db", copy]).exit_code == 2


def test_demo_db_refuses_a_store_that_holds_only_settings(tmp_path: Path) -> None:
    """A store with no message or session yet but scope and retention settings (a user's
    new store, configured before its first conversation) was taken as empty: the demo
    marked it as its own and wrote its 17 messages there, under the user's settings.
    Empty means no message, no session and no setting; such a store is still taken."""
    from chatmem import Memory

    owner = {"id": "test", "role": "owner"}

    async def make(db: Path, configured: bool) -> None:
        async with await Memory.open(f"sqlite:///{db}", embedder=None) as mem:
            if configured:
                await mem.set_scope("session", layer="platform", platform="telegram",
                                    actor=owner)
                await mem.set_retention(30, layer="platform", platform="telegram",
                                        actor=owner)

    runner = CliRunner()
    mine, empty = tmp_path / "mine.db", tmp_path / "empty.db"
    asyncio.run(make(mine, True))
    asyncio.run(make(empty, False))
    for setting in ("scope", "retention"):
        before = runner.invoke(main, [setting, "show", "--db", str(mine), "--session", "x",
                                      *(["--platform", "telegram"] if setting == "scope"
                                        else []), "--json"])
        res = runner.invoke(main, ["demo", "--db", str(mine)])
        assert res.exit_code == 2 and res.stdout == "", res.output
        assert res.stderr.startswith(f"error: --db {mine} holds a chatmem store the demo "
                                     "did not make (messages, sessions or settings)")
        after = runner.invoke(main, [setting, "show", "--db", str(mine), "--session", "x",
                                     *(["--platform", "telegram"] if setting == "scope"
                                       else []), "--json"])
        assert after.output == before.output
    stats = json.loads(runner.invoke(main, ["stats", "--db", str(mine), "--json"]).stdout)
    assert (stats["messages"], stats["sessions"]) == (0, 0)
    res = runner.invoke(main, ["demo", "--db", str(empty), "--json"])
    assert res.exit_code == 0, res.output
    assert "The deadline is in two weeks." in json.loads(res.stdout)[0]["content"]


def test_add_then_recall_with_json(tmp_path: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    for text in ("I moved to Lisbon in May", "My dentist appointment is on Tuesday",
                 "Our team uses PostgreSQL for billing"):
        res = runner.invoke(main, ["add", "--db", db, "--session", "s1", "--speaker-name",
                                   "Ana", "--json", text])
        assert res.exit_code == 0, res.output
        assert json.loads(res.output)["content"] == text
    res = runner.invoke(main, ["recall", "--db", db, "--session", "s1", "--scope", "session",
                               "--window", "0", "--json", "which city do I live in?"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["hits"][0]["message"]["content"] == "I moved to Lisbon in May"
    assert data["period"] is None
    # --no-follow-replies: the three messages are one sitting, whose matches lend each
    # other a share of their relevance (rule 20); without, none does
    res = runner.invoke(main, ["recall", "--db", db, "--session", "s1", "--window", "0",
                               "--json", "--no-follow-replies", "which city do I live in?"])
    assert res.exit_code == 0, res.output
    alone = {h["message"]["id"]: h["semantic"] for h in json.loads(res.output)["hits"]}
    lent = {h["message"]["id"]: h["semantic"] for h in data["hits"]}
    assert alone.keys() == lent.keys()
    assert all(lent[i] > alone[i] + 0.01 for i in lent)
    # the stretch of time a question names, as recall read it (rule 30)
    res = runner.invoke(main, ["recall", "--db", db, "--session", "s1", "--json",
                               "what did I say today?"])
    period = json.loads(res.output)["period"]
    assert period["words"] == "today" and period["only"] is True
    assert period["end"] - period["start"] == 86_400_000
    res = runner.invoke(main, ["stats", "--db", db, "--json"])
    assert json.loads(res.output)["indexed"] == 3


def test_errors_are_one_line_with_exit_code_2(tmp_path: Path) -> None:
    runner = CliRunner()
    db = str(tmp_path / "e.db")
    res = runner.invoke(main, ["add", "--db", db, "--session", "s", " "])
    assert res.exit_code == 2 and "TEXT is empty" in res.output
    assert not Path(db).exists()  # refused before the store was opened: none is made
    assert runner.invoke(main, ["add", "--db", db, "--session", "s", "--no-wait", "x"]
                         ).exit_code == 0
    cfg = tmp_path / "bad.toml"
    cfg.write_text("[context_expand]\nwindow = -1\n")
    res = runner.invoke(main, ["recall", "--db", db, "--config", str(cfg), "x"])
    assert res.exit_code == 2 and "context_expand.window must be at least 0" in res.output
    res = runner.invoke(main, ["recall", "--db", db, "--scope", "session", "x"])
    assert res.exit_code == 2 and "needs --session <" in res.output


def test_every_command_has_an_example_and_is_documented_in_the_readme() -> None:
    readme = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
    for name, cmd in main.commands.items():
        assert "Example:" in (cmd.help or ""), f"chatmem {name} has no example in its help"
        assert f"chatmem {name}" in readme, f"chatmem {name} is not documented in README.md"


def help_examples() -> Iterator[str]:
    """Every example command line of ``chatmem --help`` and each command's ``--help``
    (continuation lines joined), and of README's command table."""
    import click

    commands: list[click.Command] = [main]
    while commands:
        cmd = commands.pop()
        if isinstance(cmd, click.Group):
            commands.extend(cmd.commands.values())
        found = re.search(r"Example:\n(.*?)(?:\n\s*\n|\Z)", cmd.help or "", re.S)
        if found:
            yield from (line.strip() for line in found.group(1).replace("\\\n", " ")
                        .splitlines() if line.strip())
    for row in section("## Command line").splitlines():
        if row.startswith("| `chatmem "):
            yield re.findall(r"`(chatmem [^`]*)`", row.rsplit(" | ", 1)[1])[0]


def test_every_example_parses_and_writes_where_a_user_may(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Each example is a command line chatmem takes as written (its options and
    arguments parse), in a folder holding the files it names, and pastes as written: a
    placeholder is one word in capitals (``--cursor NEXT_CURSOR``), never ``<next
    cursor>``, which a shell reads as redirections (``--cursor <next cursor> --json``,
    pasted, read standard input from a file ``next``, took ``cursor`` for the cursor and
    wrote the page to a file named ``--json``). A Qdrant local-mode folder in one is not
    directly under ``/``, where only root may create it: ``--to-vector qdrant+local:///q`` (the
    migrate help's example) failed for every other user, and left ``/q`` for root."""
    import shlex

    import click

    monkeypatch.chdir(tmp_path)
    for name in ("backup.jsonl", "other-model.jsonl", "chat.jsonl"):
        (tmp_path / name).write_text("")
    examples = list(help_examples())
    assert len(examples) >= 40, examples
    for example in examples:
        assert not re.search(r"[<>]", example), f"{example}: a shell reads < and > as " \
            "redirections; write a placeholder as one word in capitals (NEXT_CURSOR)"
        words = shlex.split(example.split(" | ")[-1])
        assert words[0] == "chatmem", example
        cmd: click.Command = main
        args = words[1:]
        while isinstance(cmd, click.Group):
            cmd, args = cmd.commands[args[0]], args[1:]
        try:
            cmd.make_context(words[1], args)
        except click.ClickException as exc:
            raise AssertionError(f"{example}: {exc.format_message()}") from exc
        for folder in re.findall(r"qdrant\+local://(/[^ \"']*)", example):
            assert folder.count("/") > 1, example


def test_stats_show_when_the_next_retry_is_due(tmp_path: Path) -> None:
    """E12: a message whose embedding failed is counted failed, with its next attempt."""
    db = tmp_path / "retry.db"

    async def failed_once() -> None:
        store = await SqliteStore.open(db)
        [m] = await store.append([Message(session_id="s", content="try me again")])
        assert m.id is not None
        await store.schedule_retries({m.id: Retry(2, now_ms() + 3_600_000)})
        await store.close()

    asyncio.run(failed_once())
    res = CliRunner().invoke(main, ["stats", "--db", str(db)])
    assert res.exit_code == 0, res.output
    assert "    failed: 1" in res.output
    assert re.search(r"next retry: in 3[56]\d\d s", res.output), res.output
    res = CliRunner().invoke(main, ["stats", "--db", str(db), "--json"])
    assert json.loads(res.output)["next_retry_at"] > now_ms()


def test_a_reader_that_goes_away_is_not_an_error(tmp_path: Path) -> None:
    """chatmem list | head: the closed pipe ends the command quietly (141, the shell's
    code for it), not with "unexpected BrokenPipeError … please report it"."""
    from chatmem.store.sqlite import SqliteStore

    async def fill() -> None:
        store = await SqliteStore.open(tmp_path / "big.db")
        try:
            await store.append([Message(session_id="s", content=f"message number {i} " * 8,
                                         ts=1_700_000_000_000 + i) for i in range(3000)])
        finally:
            await store.close()

    asyncio.run(fill())
    proc = subprocess.Popen([sys.executable, "-m", "chatmem", "list", "--db",
                             str(tmp_path / "big.db"), "--limit", "1000"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert b"message number 0" in proc.stdout.readline()
    proc.stdout.close()  # the reader goes away after one line
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == 141 and err == "", err


def test_the_env_files_store_is_not_the_demos(tmp_path: Path) -> None:
    """.env's CHATMEM_DB is the default of the --db options that read CHATMEM_DB; demo's
    --db (its own store, in memory by default) does not: `chatmem demo` beside a .env
    naming the user's store once wrote its 17 messages into that store."""
    db = tmp_path / "real.db"
    (tmp_path / ".env").write_text(f"CHATMEM_DB={db}\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("CHATMEM_")}
    env["PYTHONPATH"] = os.pathsep.join([str(Path(__file__).parents[1] / "src"),
                                         env.get("PYTHONPATH", "")])

    def chatmem(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "chatmem", *args], cwd=tmp_path,
                              env=env, capture_output=True, text=True, timeout=300)

    proc = chatmem("add", "--session", "s1", "--no-wait", "my own note")
    assert proc.returncode == 0, proc.stderr  # the .env's store
    assert db.exists()
    proc = chatmem("demo")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(chatmem("stats", "--json").stdout)["messages"] == 1


def test_escape_sequences_in_a_message_reach_no_terminal(tmp_path: Path) -> None:
    """A stored message is anyone's words: `chatmem list` and `recall` printed its escape
    sequences as they were, and the operator's terminal obeyed them (cleared the screen,
    retitled the window, wrote the clipboard with OSC 52, hid text behind a carriage
    return). The text output writes control characters out; --json stays exact."""
    db = str(tmp_path / "esc.db")
    name = "Eve\x1b[2J\x1b]0;pwned\x07"
    text = "deadline \x1b]52;c;ZWNobyBoaQ==\x07 Friday\rall fine\x9b31m"
    runner = CliRunner()
    res = runner.invoke(main, ["add", "--db", db, "--session", "s1", "--speaker-name",
                               name, "--no-wait", text])
    assert res.exit_code == 0, res.output
    for args in (["list", "--db", db], ["recall", "--db", db, "--session", "s1",
                                        "--scope", "session", "deadline"]):
        res = runner.invoke(main, args)
        assert res.exit_code == 0, res.output
        assert not any(c in res.output for c in "\x1b\x07\r\x9b"), repr(res.output)
        # recall renders a carriage return as the line break it is (a continuation
        # line, indented: F6); list writes it out
        breaks = "\n  " if args[0] == "recall" else "\\x0d"
        # in a recall's label a name's brackets show fullwidth (F6: no name shapes one)
        shown = "Eve\\x1b［2J\\x1b］0;pwned\\x07" if args[0] == "recall" else \
            "Eve\\x1b[2J\\x1b]0;pwned\\x07"
        assert (shown in res.output
                and f"\\x07 Friday{breaks}all fine\\x9b31m" in res.output), res.output
    res = runner.invoke(main, ["list", "--db", db, "--json"])
    assert not any(c in res.output for c in "\x1b\x07\r\x9b"), repr(res.output)
    [message] = json.loads(res.output)["messages"]
    assert message["content"] == text and message["speaker_name"] == name


def test_an_embedding_services_error_text_reaches_no_terminal(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`chatmem doctor` prints the service's own error text: its escape sequences were
    printed as they came."""
    from chatmem.embedding import doctor

    async def diagnose(*args: object, **kwargs: object) -> doctor.Diagnosis:
        return doctor.Diagnosis(ok=False, provider="openai", decision="fail", status=400,
                                error='rejected: {"message": "\x1b]0;PWNED\x07\x9b2J"}')

    monkeypatch.setattr(doctor, "diagnose", diagnose)
    for args in ([], ["--json"]):
        res = CliRunner().invoke(main, ["doctor", "--provider", "openai", *args])
        assert "]0;PWNED" in res.output, res.output
        assert not any(c in res.output for c in "\x1b\x07\x9b"), repr(res.output)
    assert json.loads(res.output)["error"].endswith("\x1b]0;PWNED\x07\x9b2J\"}")


def test_platform_labels_from_the_configuration_file(tmp_path: Path) -> None:
    """F6 through the command line: a platform's chat-type labels come from the
    configuration file (``[platforms.onebot.chat_types]``), as a server would read them;
    a blank label is an error naming the field, and nothing is written."""
    db = str(tmp_path / "p.db")
    runner = CliRunner()
    cfg = tmp_path / "chatmem.toml"
    cfg.write_text('[platforms.onebot.chat_types]\nprivate = "私聊"\n', encoding="utf-8")
    res = runner.invoke(main, ["add", "--db", db, "--session", "dm-ana", "--speaker-name",
                               "Ana", "my passport expires in March"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["session", "set", "--db", db, "--origin-platform", "onebot",
                               "--chat-type", "private", "dm-ana"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["recall", "--db", db, "--config", str(cfg), "--session",
                           "dm-ana", "--window", "0", "when does my passport expire?"])
    assert res.exit_code == 0, res.output
    assert "[onebot/私聊/Ana @ " in res.output
    res = runner.invoke(main, ["recall", "--db", db, "--session", "dm-ana", "--window", "0",
                               "when does my passport expire?"])
    assert "[onebot/private/Ana @ " in res.output  # undeclared: the type's name
    cfg.write_text('[platforms.onebot.chat_types]\nprivate = " "\n', encoding="utf-8")
    res = runner.invoke(main, ["add", "--db", db, "--config", str(cfg), "--session",
                               "dm-ana", "a second message"])
    assert res.exit_code == 2
    assert 'platforms.onebot.chat_types: the label of chat type "private"' in res.output
    res = runner.invoke(main, ["stats", "--db", db, "--json"])
    assert json.loads(res.output)["messages"] == 1


def test_what_a_command_did_is_said_in_words(tmp_path: Path) -> None:
    """export, import, migrate and clear said what they did as Python's dict repr
    (``exported {'sessions': 0, 'messages': 1, …}``): now ``kind n`` in words."""
    db, copy = str(tmp_path / "w.db"), str(tmp_path / "copy.db")
    backup = str(tmp_path / "w.jsonl")
    runner = CliRunner()
    assert runner.invoke(main, ["add", "--db", db, "--session", "s", "--no-wait",
                                "hello"]).exit_code == 0
    res = runner.invoke(main, ["export", "--db", db, "-o", backup])
    assert res.exit_code == 0, res.output
    assert "exported sessions 1, messages 1, vectors 0, meta 0" in res.stderr
    res = runner.invoke(main, ["import", "--db", copy, backup])
    assert res.exit_code == 0 and "imported sessions 1, messages 1, " in res.stderr
    res = runner.invoke(main, ["clear", "--db", copy, "--yes"])
    assert res.exit_code == 0, res.output
    assert re.search(r"^cleared [a-z]+ \d+(, [a-z]+ \d+)*$", res.stdout, re.M), res.stdout


def test_recall_help_gives_the_configurations_defaults(tmp_path: Path) -> None:
    """chatmem recall --help said '--top-k: Hits to return (default 5)', '--window
    (default 2)', '--min-score (default 0)' and '--session (needed by scope=session)',
    but the defaults are the configuration's (a file's search.top_k = 1 recalls one
    hit) and the scopes resource and platform need --session too. Then it named
    search.top_k, context_expand.window and scope only, where semantic_recall.top_k,
    message_range and scope (M3), when set, are the defaults."""
    shown = " ".join(CliRunner().invoke(main, ["recall", "--help"]).output.split())
    for said in ("the configuration's semantic_recall.top_k, else its search.top_k, 5",
                 "semantic_recall.message_range, else its context_expand.window, 2",
                 "the configuration's semantic_recall.scope, else its scope, all",
                 "search.min_score, 0", "the scopes session, resource and platform"):
        assert said in shown, said
    db, cfg = str(tmp_path / "c.db"), tmp_path / "c.toml"
    cfg.write_text("[search]\ntop_k = 1\n")
    for text in ("the cat sleeps", "the cat eats", "the cat plays"):
        assert CliRunner().invoke(main, ["add", "--db", db, "--session", "s", text]
                                  ).exit_code == 0
    res = CliRunner().invoke(main, ["recall", "--db", db, "--config", str(cfg), "--json",
                                    "cat"])
    assert res.exit_code == 0 and len(json.loads(res.output)["hits"]) == 1
    cfg.write_text("[search]\ntop_k = 3\n[semantic_recall]\ntop_k = 1\nmessage_range = 0\n")
    res = CliRunner().invoke(main, ["recall", "--db", db, "--config", str(cfg), "--json",
                                    "cat"])
    [hit] = json.loads(res.output)["hits"]
    assert (hit["before"], hit["after"]) == ([], [])
    for text in ("platform", "resource"):
        res = CliRunner().invoke(main, ["recall", "--db", db, "--scope", text, "cat"])
        assert res.exit_code == 2 and "needs --session" in res.output
