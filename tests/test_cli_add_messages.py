"""``chatmem add --messages FILE``: a chat log stored from the command line as
``Memory.add`` stores it (a JSON array or JSON Lines; chatmem's fields or
chat-completions messages), on a real SQLite file with the default local model. A bad
file is one line naming the file and the message, exit 2, and stores nothing."""

from __future__ import annotations

import asyncio
import gzip
import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from chatmem import Memory
from chatmem.cli import main


def cli(*args: str, stdin: str | bytes | None = None) -> Result:
    return CliRunner().invoke(main, list(args), input=stdin)


def stored(db: Path) -> list[tuple[str, str, str, str | None]]:
    async def read() -> list[tuple[str, str, str, str | None]]:
        async with await Memory.open(f"sqlite:///{db}", embedder=None) as mem:
            page = await mem.list()
            return [(m.session_id, m.role, m.content or "", m.speaker_name)
                    for m in page.messages]
    return asyncio.run(read())


def test_a_chat_log_of_json_lines_is_stored_indexed_and_recalled(tmp_path: Path) -> None:
    log = tmp_path / "chat.jsonl"
    log.write_text("\n".join([
        json.dumps({"role": "user", "content": "I adopted a cat named Tudou"}),
        "",  # a blank line is skipped
        json.dumps({"role": "assistant", "content": "How old is Tudou?"}),
        json.dumps({"role": "user", "content": "3 months, from a friend"}),
    ]) + "\n", encoding="utf-8")
    db = tmp_path / "chat.db"
    result = cli("add", "--db", str(db), "--session", "s1", "--speaker-name", "Alex",
                 "--messages", str(log))
    assert result.exit_code == 0, result.output
    assert result.output.strip().endswith("stored 3 message(s) in 1 session(s)")
    assert stored(db) == [("s1", "user", "I adopted a cat named Tudou", "Alex"),
                          ("s1", "assistant", "How old is Tudou?", None),
                          ("s1", "user", "3 months, from a friend", "Alex")]
    recalled = cli("recall", "--db", str(db), "--session", "s1", "what is my cat called?")
    assert recalled.exit_code == 0, recalled.output
    assert "I adopted a cat named Tudou" in recalled.output
    stats = cli("stats", "--db", str(db), "--json")
    assert json.loads(stats.output)["indexed"] == 3  # the add waited for its indexing


def test_a_json_array_from_standard_input_with_sessions_of_its_own(tmp_path: Path) -> None:
    db = tmp_path / "chat.db"
    body = json.dumps([{"session_id": "a", "content": "one", "ts": 1000},
                       {"session_id": "b", "content": "two", "ts": 2000,
                        "role": "assistant"}])
    result = cli("add", "--db", str(db), "--no-wait", "--json", "--messages", "-",
                 stdin=body)
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert [(m["session_id"], m["ts"], m["role"]) for m in printed] == \
        [("a", 1000, "user"), ("b", 2000, "assistant")]
    assert stored(db) == [("a", "user", "one", None), ("b", "assistant", "two", None)]


@pytest.mark.parametrize(("args", "stdin", "says"), [
    (["--messages", "-"], '[{"session_id": "s", "content": "ok"}, {"text": "x"}]',
     "standard input: messages[1]: unknown field(s) text (did you mean content?)"),
    (["--messages", "-"], '{"content": "x"}',
     "standard input: line 1: message.session_id is required: give --session <the "
     "conversation id> for the whole file, or give each message a session_id"),
    (["--session", "s", "--messages", "-"], '{"content": "ok"}\n{"content": "x", '
     '"role": "god"}', "standard input: line 2: message.role must be one of assistant, "
     "developer, function, notice, system, tool, user, got \"god\""),
    (["--session", "s", "--messages", "-"], '{"content": "ok"}\nnot json',
     "standard input: line 2: not JSON (Expecting value)"),
    # hostile files: nested past Python's stack, a number of thousands of digits, NaN
    (["--session", "s", "--messages", "-"], "[" * 100_000 + "]" * 100_000,
     "standard input: the JSON array: nested too deeply"),
    (["--session", "s", "--messages", "-"],
     '{"content": ' + "[" * 100_000 + "]" * 100_000 + "}",
     "standard input: line 1: nested too deeply"),
    (["--session", "s", "--messages", "-"], '{"content": "x", "ts": ' + "9" * 5000 + "}",
     "standard input: line 1: a number of thousands of digits"),
    (["--session", "s", "--messages", "-"], '[{"content": NaN}]',
     "standard input: the JSON array: NaN is not a JSON number"),
    (["--session", "s", "--messages", "-"], '[1]',
     "standard input: messages[0]: expected an object, got 1"),
    (["--session", "s", "--messages", "-"], '\n\n', "standard input: holds no message"),
    (["--session", "s", "--messages", "-"],
     '[{"id": "a", "content": "x"}, {"id": "a", "content": "y"}]',
     'standard input: messages[1].id "a" is also messages[0].id, with other content: '),
    (["--session", "", "--messages", "-"], '{"content": "x"}',
     "--session must not be empty"),
    (["--session", "s", "--role", "user", "--messages", "-"], '{"content": "x"}',
     "--role applies to TEXT; with --messages each message gives its own (role in the "
     "file)"),
    (["--session", "s", "--ts", "5", "--messages", "-"], '{"content": "x"}',
     "--ts applies to TEXT; with --messages each message gives its own (ts in the file)"),
    (["--session", "s", "--messages", "-", "hello"], '{"content": "x"}',
     "give TEXT or --messages FILE, not both"),
    (["hello"], None, "--session is required with TEXT: the session (conversation) id"),
    (["--session", "s"], None,
     "give the message's TEXT (- reads standard input), or --messages FILE"),
])
def test_a_bad_file_or_option_is_one_line_and_stores_nothing(
        tmp_path: Path, args: list[str], stdin: str | None, says: str) -> None:
    db = tmp_path / "chat.db"
    result = cli("add", "--db", str(db), "--no-wait", *args, stdin=stdin)
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"error: {says}"), result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert not db.exists()  # refused before any store was opened


def test_a_gzip_file_is_refused_naming_it_with_the_way_on(tmp_path: Path) -> None:
    """A compressed chat log (``chat.jsonl.gz``) said only "not UTF-8 text (invalid
    start byte at byte 1)": it names the file as compressed and the command that reads
    it decompressed, for ``add`` and ``context`` alike, from a file or standard input;
    no store is made."""
    db = tmp_path / "chat.db"
    packed = tmp_path / "my chat.jsonl.gz"
    packed.write_bytes(gzip.compress(b'{"role": "user", "content": "hi"}\n'))
    result = cli("add", "--db", str(db), "--session", "s", "--messages", str(packed))
    assert result.exit_code == 2
    assert result.stderr == (f"error: {packed} is gzip-compressed: decompress it on the "
                             f"way in (gunzip -c '{packed}' | main add --messages - with "
                             "your other options)\n")
    result = cli("context", "--db", str(db), "--session", "s", "--messages", "-",
                 stdin=packed.read_bytes())
    assert result.exit_code == 2
    assert result.stderr.startswith("error: standard input is gzip-compressed: decompress "
                                    "it on the way in (… | gunzip -c | main context "
                                    "--messages - with")
    assert not db.exists()


def test_a_store_given_as_the_messages_file_is_refused_as_import_refuses_it(
        tmp_path: Path) -> None:
    """A chatmem store (its SQLite file) given as --messages said "chat.db: not UTF-8
    text (invalid start byte at byte 4102)", where chatmem import of the same file
    names it a store and the commands that copy one (f28875d), as add and context say
    of a gzip file what import says: the same refusal, for add and context alike,
    from a file or standard input; no store is made."""
    store, db = tmp_path / "old chat.db", tmp_path / "new.db"

    async def make() -> None:
        async with await Memory.open(f"sqlite:///{store}", embedder=None) as mem:
            await mem.add({"session_id": "s", "content": "hello"})

    asyncio.run(make())
    refusal = ("is a SQLite database (a chatmem store?), not a file of messages: a store "
               "is copied with chatmem migrate --from {source} --to <another store>, or "
               "exported first (chatmem export --db {source} -o backup.jsonl)")
    for command in ("add", "context"):
        result = cli(command, "--db", str(db), "--session", "s", "--messages", str(store))
        assert result.exit_code == 2, result.output
        assert result.stderr == f"error: {store} " + refusal.format(
            source=f"'{store}'") + "\n"
        result = cli(command, "--db", str(db), "--session", "s", "--messages", "-",
                     stdin=store.read_bytes())
        assert result.exit_code == 2, result.output
        assert result.stderr == "error: standard input " + refusal.format(
            source="<that file>") + "\n"
    result = cli("import", "--db", str(db), str(store))
    assert result.exit_code == 2
    assert result.stderr == f"error: {store} " + refusal.replace(
        "a file of messages", "an export").format(source=f"'{store}'") + "\n"
    assert not db.exists()


def test_a_key_given_twice_in_a_message_is_refused_as_over_http(tmp_path: Path) -> None:
    """``{"role": "user", "role": "tool", …}`` was read as Python's json reads it, the
    last one winning: ``add`` stored a tool message and ``context`` took a tool answer,
    where POST /v1/messages and /v1/context refuse such a body. Both commands refuse it
    naming the file, the line or array and the key, from a file or standard input; no
    store is made."""
    db = tmp_path / "chat.db"
    twice = '{"role": "user", "content": "hi", "role": "tool"}'
    lines = tmp_path / "chat.jsonl"
    lines.write_text('{"role": "user", "content": "ok"}\n' + twice + "\n", encoding="utf-8")
    result = cli("add", "--db", str(db), "--session", "s", "--messages", str(lines))
    assert result.exit_code == 2
    assert result.stderr == (f'error: {lines}: line 2: the key "role" appears twice in one '
                             "object; give each key once\n")
    for command in ("add", "context"):
        result = cli(command, "--db", str(db), "--session", "s", "--messages", "-",
                     stdin=f"[{twice}]")
        assert result.exit_code == 2, result.output
        assert result.stderr == ('error: standard input: the JSON array: the key "role" '
                                 "appears twice in one object; give each key once\n")
        result = cli(command, "--db", str(db), "--session", "s", "--messages", "-",
                     stdin='{"role": "user", "content": "a", "metadata": {"k": 1, "k": 2}}')
        assert result.exit_code == 2, result.output
        assert result.stderr == ('error: standard input: line 1: the key "k" appears twice '
                                 "in one object; give each key once\n")
    assert not db.exists()


def test_a_file_that_is_not_utf8_or_too_large_is_refused(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    db = tmp_path / "chat.db"
    latin = tmp_path / "latin.jsonl"
    latin.write_bytes(b'{"content": "caf\xe9"}\n')
    result = cli("add", "--db", str(db), "--session", "s", "--messages", str(latin))
    assert result.exit_code == 2
    assert result.stderr == (f"error: {latin}: not UTF-8 text (invalid continuation byte "
                             "at byte 16)\n")
    import chatmem.cli
    monkeypatch.setattr(chatmem.cli, "MAX_MESSAGES_FILE_BYTES", 2 * 1024 * 1024)
    big = tmp_path / "big.jsonl"
    line = json.dumps({"content": "x" * 1000}) + "\n"
    big.write_text(line * 2100, encoding="utf-8")  # 2100 lines of 1016 bytes: over 2 MiB
    result = cli("add", "--db", str(db), "--session", "s", "--messages", str(big))
    assert result.exit_code == 2
    assert result.stderr == (f"error: {big}: over 2 MiB; split it into several files "
                             "(or, for a chatmem export, use chatmem import)\n")
    assert not db.exists()


@pytest.mark.parametrize("as_array", [False, True])
def test_the_speaker_options_are_one_speaker_given_only_where_none_is_named(
        tmp_path: Path, as_array: bool) -> None:
    """--speaker-id alex filled the speaker_id of a message that gave only
    speaker_name "Zed" (the options filled the fields one at a time): Zed's words were
    stored as alex's. The options are one speaker: a user message that names any
    speaker field (or a chat-completions name) keeps its own and takes none of them;
    --session and --platform are filled field by field."""
    items = [{"content": "none named"},
             {"content": "only a name", "speaker_name": "Zed"},
             {"content": "only an id", "speaker_id": "zed"},
             {"content": "a chat name", "name": "bo"},
             {"content": "a reply", "role": "assistant"},
             {"content": "own platform", "platform": "telegram", "session_id": "s2"}]
    log = tmp_path / ("chat.json" if as_array else "chat.jsonl")
    log.write_text(json.dumps(items) if as_array
                   else "\n".join(json.dumps(i) for i in items) + "\n", encoding="utf-8")
    db = tmp_path / "chat.db"
    result = cli("add", "--db", str(db), "--no-wait", "--json", "--session", "s1",
                 "--platform", "web", "--speaker-id", "alex", "--speaker-name", "Alex",
                 "--messages", str(log))
    assert result.exit_code == 0, result.output
    printed = json.loads(result.stdout)
    assert [(m["content"], m["session_id"], m["platform"], m["speaker_id"],
             m["speaker_name"]) for m in printed] == [
        ("none named", "s1", "web", "alex", "Alex"),
        ("only a name", "s1", "web", None, "Zed"),
        ("only an id", "s1", "web", "zed", None),
        ("a chat name", "s1", "web", "bo", "bo"),
        ("a reply", "s1", "web", None, None),
        ("own platform", "s2", "telegram", "alex", "Alex"),
    ]
    shown = cli("add", "--help").output
    assert "names no speaker" in " ".join(shown.split())
