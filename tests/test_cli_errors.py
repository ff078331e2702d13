"""Issue 9, item 12: every CLI error is one line on stderr and exit code 2, never a
traceback; ``chatmem add -`` reads long text from standard input. Run as a user runs it:
a subprocess of ``python -m chatmem``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

#: The subprocess imports this checkout's chatmem.
ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(
    [str(Path(__file__).parents[1] / "src"), os.environ.get("PYTHONPATH", "")])}


def chatmem(*args: str, stdin: str | bytes | None = None) -> subprocess.CompletedProcess[str]:
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    proc = subprocess.run([sys.executable, "-m", "chatmem", *args], input=data,
                          capture_output=True, timeout=300, env=ENV)
    return subprocess.CompletedProcess(proc.args, proc.returncode,
                                       proc.stdout.decode("utf-8", "replace"),
                                       proc.stderr.decode("utf-8", "replace"))


def assert_one_line_error(proc: subprocess.CompletedProcess[str], names: str) -> None:
    assert proc.returncode == 2, (proc.returncode, proc.stderr)
    assert "Traceback" not in proc.stderr
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), proc.stderr
    assert names in lines[0]


@pytest.mark.parametrize("args,names", [
    (["recall", "--window", "-1", "x"], "window must be ≥ 0"),
    (["recall", "--top-k", "0", "x"], "top_k"),
    (["add", "--session", "s", "--ts", "99999999999999999999", "x"], "ts must be from 0"),
    (["add", "--session", "s", "--ts", "-5", "x"], "ts must be from 0"),
    (["add", "--session", "\udcff", "x"], "session_id"),
])
def test_bad_arguments_are_one_line_and_exit_2(tmp_path: Path, args: list[str],
                                               names: str) -> None:
    db = tmp_path / "c.db"
    # the store exists (a read-only command may refuse a missing one)
    assert chatmem("add", "--db", str(db), "--session", "s", "--no-wait", "seed").returncode \
        == 0
    proc = chatmem(args[0], "--db", str(db), *args[1:])
    assert_one_line_error(proc, names)


def test_add_reads_the_text_from_stdin(tmp_path: Path) -> None:
    db = str(tmp_path / "s.db")
    text = "line one of a long note\n" + "word " * 20_000
    proc = chatmem("add", "--db", db, "--session", "s1", "--no-wait", "--json", "-",
                   stdin=text)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["content"] == text
    # not UTF-8: one line, nothing stored
    proc = chatmem("add", "--db", db, "--session", "s1", "-", stdin=b"\xff\xfe bad")
    assert_one_line_error(proc, "UTF-8")
    stats = json.loads(chatmem("stats", "--db", db, "--json").stdout)
    assert stats["messages"] == 1


def test_add_from_stdin_reads_one_message_worth_and_no_more(tmp_path: Path) -> None:
    """Standard input is read up to one message's limit and a character more, never to
    its end: `yes | chatmem add -` (a stream that never ends) is refused at once. Before,
    1 GB piped in was read whole (2 GB of memory) only to be refused."""
    db = str(tmp_path / "s.db")
    proc = subprocess.Popen([sys.executable, "-m", "chatmem", "add", "--db", db,
                             "--session", "s1", "-"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=ENV)
    assert proc.stdin is not None
    try:
        proc.stdin.write(b"a" * 300_000)
        proc.stdin.flush()  # and left open: the stream has not ended
    except BrokenPipeError:
        pass  # it stopped reading past the limit, before all of it was written
    try:
        code = proc.wait(timeout=120)
    finally:
        proc.kill()
    assert proc.stderr is not None
    stderr = proc.stderr.read().decode("utf-8", "replace")
    assert code == 2, stderr
    assert "more than 200000 characters" in stderr and "split the text" in stderr
    assert not Path(db).exists()  # refused before the store was opened


@pytest.mark.parametrize("name,content,names", [
    ("c.yaml", "a: !!python/object/apply:os.system ['touch pwned']\n", "not valid YAML at line 1"),
    ("c.yaml", "search: [1, 2\n", "not valid YAML"),
    ("c.yaml", "[1, 2]\n", "must hold a table of options, got list"),
    ("c.yaml", "false\n", "must hold a table of options, got bool"),
    ("c.toml", "search = " + "[" * 3000 + "]" * 3000 + "\n", "nested too deeply"),
    ("c.toml", "search = \n", "not valid TOML"),
    ("c.toml", b"scope = \"\xff\"\n", "not UTF-8 text"),
    ("c.toml", "# " + "x" * (1024 * 1024) + "\n", "over 1024 KiB"),
    ("dir.toml", None, "is a folder"),
])
def test_a_bad_config_file_is_one_line_naming_it(tmp_path: Path, name: str,
                                                 content: str | bytes | None,
                                                 names: str) -> None:
    path = tmp_path / name
    if content is None:
        path.mkdir()
    elif isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content)
    for args in (["stats", "--db", str(tmp_path / "s.db"), "--config", str(path)],
                 ["serve", "--db", str(tmp_path / "{namespace}.db"), "--keys", str(path)]):
        proc = chatmem(*args)
        assert_one_line_error(proc, names)
        assert f"{args[-2]} {path}" in proc.stderr
    assert not (tmp_path / "pwned").exists() and not (tmp_path / "s.db").exists()
