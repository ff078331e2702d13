"""The chatmem command and store files (issue 9): read-only commands refuse a store
that does not exist, store-opening errors are one line with exit code 2, and the
relative ``sqlite:///`` form names a file in the working directory."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import chatmem
from chatmem.cli import main


def one_line_error(output: str) -> str:
    lines = [line for line in output.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: "), output
    assert "Traceback" not in output
    return lines[0]


READ_ONLY = [
    ["recall", "q"],
    ["stats"],
    ["export"],
    ["reindex"],
    ["clear", "--yes"],
    ["list"],
    ["forget", "--speaker-id", "alice", "--yes"],
    ["delete", "--yes", "some-id"],
]


@pytest.mark.parametrize("args", READ_ONLY, ids=lambda a: a[0])
def test_read_only_commands_refuse_a_missing_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    for db, path in (("typo.db", tmp_path / "typo.db"),
                     ("sqlite:///typo.db", tmp_path / "typo.db"),
                     (str(tmp_path / "no" / "dir" / "x.db"), tmp_path / "no" / "dir" / "x.db")):
        res = CliRunner().invoke(main, [args[0], "--db", db, *args[1:]])
        assert res.exit_code == 2, res.output
        line = one_line_error(res.output)
        assert f"no chatmem store at {path}" in line and "create the store first" in line
        assert sorted(os.listdir(tmp_path)) == []  # no store, lock file or folder made


def test_read_only_commands_refuse_the_missing_default_store(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("chatmem.cli.default_db", lambda: str(tmp_path / "data" / "chatmem.db"))
    monkeypatch.delenv("CHATMEM_DB", raising=False)
    res = CliRunner().invoke(main, ["stats"])
    assert res.exit_code == 2
    assert f"no chatmem store at {tmp_path / 'data' / 'chatmem.db'}" in one_line_error(
        res.output)
    assert not (tmp_path / "data").exists()


def test_migrate_refuses_a_missing_source_and_creates_no_destination(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["migrate", "--from", f"sqlite:///{tmp_path}/nope.db",
                                    "--to", str(tmp_path / "dst.db")])
    assert res.exit_code == 2
    assert f"no chatmem store at {tmp_path / 'nope.db'}" in one_line_error(res.output)
    assert os.listdir(tmp_path) == []


def test_migrate_refuses_one_store_as_both_ends(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(main, ["add", "--db", "chat.db", "--session", "s", "--no-wait", "x"])
    assert res.exit_code == 0, res.output
    os.link("chat.db", "copy.db")  # cp -l: another name of the same file
    for src, dst in (("sqlite:///chat.db", "chat.db"), ("chat.db", f"{tmp_path}/chat.db"),
                     ("chat.db", "copy.db")):  # the last said "open in another process"
        res = runner.invoke(main, ["migrate", "--from", src, "--to", dst])
        assert res.exit_code == 2 and "name the same store" in res.output, res.output
    res = runner.invoke(main, ["stats", "--db", "chat.db", "--json"])
    assert '"messages": 1' in res.output


@pytest.mark.parametrize("args", [["add", "--session", "s", "x"], ["import", "-"],
                                  ["demo", "--json"], ["stats"],
                                  ["migrate", "--to", "new.db"], ["migrate", "--from", "new.db"]],
                         ids=lambda a: "-".join(a[:2]))
def test_a_dash_is_no_store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                            args: list[str]) -> None:
    """`-` is standard input or output elsewhere (`add -`, `import -`, `export -o -`);
    as a store it made a file named "-" in the working directory (`chatmem add --db -`
    stored the message there). It is refused, naming the option; ./- is that file."""
    monkeypatch.chdir(tmp_path)
    if args[0] == "migrate":
        option = "--from" if args[1] == "--to" else "--to"
        argv = ["migrate", option, "-", *args[1:]]
    else:
        option = "--db"
        argv = [args[0], "--db", "-", *args[1:]]
    res = CliRunner().invoke(main, argv, input='{"type": "header"}\n')
    assert res.exit_code == 2, res.output
    assert one_line_error(res.output).startswith(f"error: {option} -: a store is a file")
    assert os.listdir(tmp_path) == []


def test_commands_that_write_create_the_store_relative_to_the_working_directory(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(main, ["add", "--db", "sqlite:///chat.db", "--session", "s",
                               "--no-wait", "Lisbon in May"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "chat.db").is_file()
    res = runner.invoke(main, ["export", "--db", "chat.db", "-o", "backup.jsonl"])
    assert res.exit_code == 0, res.output
    (tmp_path / "copy").mkdir()  # an explicit path's folder is not made (see below)
    res = runner.invoke(main, ["import", "--db", "sqlite:///copy/new.db", "--no-wait",
                               "backup.jsonl"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["migrate", "--from", "sqlite:///copy/new.db",
                               "--to", "sqlite:///moved.db", "--no-vectors"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "copy" / "new.db").is_file() and (tmp_path / "moved.db").is_file()


def _with_sources(tmp_path: Path) -> CliRunner:
    """In the working folder ``tmp_path``: a store src.db, its export backup.jsonl and a
    file of messages chat.jsonl, the sources of commands that create a store."""
    runner = CliRunner()
    res = runner.invoke(main, ["add", "--db", "src.db", "--session", "s", "--no-wait", "x"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["export", "--db", "src.db", "-o", "backup.jsonl"])
    assert res.exit_code == 0, res.output
    (tmp_path / "chat.jsonl").write_text('{"role": "user", "content": "hi"}\n')
    return runner


def test_a_new_store_in_a_missing_folder_is_refused_by_every_command_that_creates_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """chatmem add, import, migrate --to and demo --db made the missing folders of an
    explicit store path (--db nodir/chat.db, sqlite:///nodir/chat.db, CHATMEM_DB), so a
    mistyped one gave a new empty store in a new folder, where export -o refuses a
    missing folder. It is refused now, naming the path and the fix, exit 2, nothing
    made; the default store's folder (the user data directory) is still made with it."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHATMEM_DB", raising=False)
    runner = _with_sources(tmp_path)
    before = _tree(tmp_path)
    deep = str(tmp_path / "no" / "such" / "x.db")
    for db, folder in (("nodir/x.db", "nodir"), ("sqlite:///nodir/x.db", "nodir"),
                       (f"sqlite:///{deep}", os.path.dirname(deep)), (deep, os.path.dirname(deep))):
        fix = f'no folder "{folder}"; create it first (mkdir -p {folder}) or give another ' \
              "path; nothing was created"
        for args in (["add", "--db", db, "--session", "s", "--no-wait", "x"],
                     ["add", "--db", db, "--session", "s", "--messages", "chat.jsonl"],
                     ["import", "--db", db, "--no-wait", "backup.jsonl"],
                     ["migrate", "--from", "src.db", "--to", db],
                     ["demo", "--db", db]):
            res = runner.invoke(main, args)
            assert res.exit_code == 2, (args, res.output)
            option = "--to" if args[0] == "migrate" else "--db"
            assert one_line_error(res.output) == f"error: {option} {db}: {fix}", args
            assert _tree(tmp_path) == before, (args, sorted(set(_tree(tmp_path)) ^ set(before)))
    res = runner.invoke(main, ["add", "--session", "s", "--no-wait", "x"],
                        env={"CHATMEM_DB": "nodir/x.db"})
    assert res.exit_code == 2 and 'no folder "nodir"' in res.output, res.output
    assert _tree(tmp_path) == before
    # the default store's folders are made with it
    default = tmp_path / "data" / "chatmem" / "chatmem.db"
    monkeypatch.setattr("chatmem.cli.default_db", lambda: str(default))
    res = runner.invoke(main, ["add", "--session", "s", "--no-wait", "x"])
    assert res.exit_code == 0, res.output
    assert default.is_file()


@pytest.mark.parametrize("args", [["serve", "--port", "0"], ["mcp"]], ids=lambda a: a[0])
def test_a_server_refuses_a_new_store_in_a_missing_folder_before_it_starts(
        tmp_path: Path, args: list[str]) -> None:
    """chatmem serve and chatmem mcp open (and so create) their store too: an explicit
    --db in a missing folder is refused as add refuses it; with {namespace} in the path
    the folder is the part before it."""
    src = str(Path(chatmem.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    for db, folder in (("nodir/x.db", "nodir"), ("sqlite:///nodir/{namespace}/x.db", "nodir")):
        if "{namespace}" in db and args[0] == "mcp":
            continue
        try:
            proc = subprocess.run([sys.executable, "-m", "chatmem", args[0], "--db", db,
                                   *args[1:]], capture_output=True, text=True, timeout=60,
                                  env=env, cwd=tmp_path, stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{args[0]} --db {db} started")
        assert proc.returncode == 2, proc.stderr
        assert one_line_error(proc.stderr) == (
            f"error: --db {db}: no folder \"{folder}\"; create it first (mkdir -p {folder}) "
            "or give another path; nothing was created")
        assert os.listdir(tmp_path) == []


def _with_sources_for_qdrant(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> CliRunner:
    """:func:`_with_sources` (skipped without qdrant-client), with no store or vector
    index from the environment."""
    pytest.importorskip("qdrant_client")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("CHATMEM_DB", raising=False)
    monkeypatch.delenv("CHATMEM_VECTOR", raising=False)
    return _with_sources(tmp_path)


def _refused_naming_the_index(runner: CliRunner, args: list[str], vector: str, fix: str,
                              tmp_path: Path, before: dict[str, bytes | None]) -> None:
    """``chatmem args`` fails, exit 2, with one line naming the option given ``vector``
    and ``fix``, and nothing under ``tmp_path`` changed from ``before``."""
    res = runner.invoke(main, args)
    assert res.exit_code == 2, (args, res.output)
    option = args[args.index(vector) - 1]
    assert one_line_error(res.output) == f"error: {option} {vector}: {fix}", args
    assert _tree(tmp_path) == before, (args, sorted(set(_tree(tmp_path)) ^ set(before)))


def test_a_qdrant_local_folder_in_a_missing_folder_is_refused_by_every_command(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--vector qdrant+local:///some/missing/dir (CHATMEM_VECTOR, migrate --to-vector and
    --from-vector) made every missing folder of the path, where --db nodir/x.db is
    refused (2a8f7b6): a mistyped path gave a new empty index in a new folder. The same
    rule now: the local-mode folder itself is made with the index, as a store's file
    is, but a missing folder it would be in is refused, naming the fix, exit 2, nothing
    made (the store not opened either)."""
    runner = _with_sources_for_qdrant(tmp_path, monkeypatch)
    before = _tree(tmp_path)
    for folder in (str(tmp_path / "nodir"), str(tmp_path / "no" / "such")):
        vector = f"qdrant+local://{folder}/vectors"
        fix = f'no folder "{folder}"; create it first (mkdir -p {folder}) or give another ' \
              "path; nothing was created"
        for args in (["add", "--db", "new.db", "--vector", vector, "--session", "s",
                      "--no-wait", "x"],
                     ["add", "--db", "new.db", "--vector", vector, "--session", "s",
                      "--messages", "chat.jsonl"],
                     ["import", "--db", "new.db", "--vector", vector, "--no-wait",
                      "backup.jsonl"],
                     ["stats", "--db", "src.db", "--vector", vector],
                     ["migrate", "--from", "src.db", "--to", "new.db", "--to-vector", vector],
                     ["migrate", "--from", "src.db", "--from-vector", vector, "--to", "new.db"]):
            _refused_naming_the_index(runner, args, vector, fix, tmp_path, before)
    vector = f"qdrant+local://{tmp_path}/nodir/vectors"
    res = runner.invoke(main, ["add", "--db", "new.db", "--session", "s", "--no-wait", "x"],
                        env={"CHATMEM_VECTOR": vector})
    assert res.exit_code == 2 and f'no folder "{tmp_path}/nodir"' in res.output, res.output
    assert _tree(tmp_path) == before
    # the local-mode folder itself is made with the index, in a folder that exists
    res = runner.invoke(main, ["add", "--db", "new.db", "--vector",
                               f"qdrant+local://{tmp_path}/vectors", "--session", "s",
                               "--no-wait", "x"])
    assert res.exit_code == 0, res.output
    assert (tmp_path / "vectors").is_dir()


def test_a_command_that_only_reads_refuses_a_missing_qdrant_local_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """chatmem stats (recall, list, export, migrate --from-vector, …) with --vector
    qdrant+local:///existing/folder/vectors made the missing vectors folder, an empty
    index, where a missing --db of such a command is refused: a command that only reads
    read a mistyped path as an empty index and left it behind. Refused now, naming the
    option and the folder, exit 2, nothing made; a command that writes still makes it."""
    runner = _with_sources_for_qdrant(tmp_path, monkeypatch)
    before = _tree(tmp_path)
    folder = tmp_path / "vectors"
    vector = f"qdrant+local://{folder}"
    fix = (f'no vector index at "{folder}" (no such folder): check the path, or create '
           "the index first (chatmem add or chatmem import with it); nothing was created")
    read = ["--db", "src.db", "--vector", vector]
    for args in (["stats", *read], ["recall", *read, "x"], ["list", *read],
                 ["sessions", *read], ["context", *read, "--session", "s", "x"],
                 ["session", "show", *read, "s"], ["scope", "show", *read, "--session", "s"],
                 ["retention", "show", *read, "--session", "s"],
                 ["export", *read, "-o", "out.jsonl"], ["export", *read],
                 ["migrate", "--from", "src.db", "--from-vector", vector, "--to", "new.db"]):
        _refused_naming_the_index(runner, args, vector, fix, tmp_path, before)
    res = runner.invoke(main, ["stats", "--db", "src.db"], env={"CHATMEM_VECTOR": vector})
    assert res.exit_code == 2 and one_line_error(res.output) == \
        f"error: --vector {vector}: {fix}", res.output
    assert _tree(tmp_path) == before
    # an empty folder is no index either: local mode wrote its files into it
    folder.mkdir()
    before = _tree(tmp_path)
    for args in (["stats", *read], ["recall", *read, "x"], ["list", *read],
                 ["export", *read],
                 ["migrate", "--from", "src.db", "--from-vector", vector, "--to", "new.db"]):
        _refused_naming_the_index(runner, args, vector, fix.replace(
            "no such folder", "an empty folder"), tmp_path, before)
    # a command that writes makes it, and then one that reads reads it
    res = runner.invoke(main, ["add", *read, "--session", "s", "--no-wait", "y"])
    assert res.exit_code == 0, res.output
    assert folder.is_dir()
    res = runner.invoke(main, ["stats", *read])
    assert res.exit_code == 0, res.output


@pytest.mark.parametrize("args", [["serve", "--port", "0"], ["mcp"]], ids=lambda a: a[0])
def test_a_server_refuses_a_qdrant_local_folder_in_a_missing_folder_before_it_starts(
        tmp_path: Path, args: list[str]) -> None:
    """chatmem serve and chatmem mcp take --vector too: a local-mode folder in a missing
    folder is refused as add refuses it; with {namespace} in the path the folder is the
    part before it."""
    pytest.importorskip("qdrant_client")
    src = str(Path(chatmem.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("CHATMEM_VECTOR", None)
    folder = str(tmp_path / "nodir")
    for vector in (f"qdrant+local://{folder}/vectors",
                   f"qdrant+local://{folder}/{{namespace}}/vectors"):
        if "{namespace}" in vector and args[0] == "mcp":
            continue
        try:
            proc = subprocess.run([sys.executable, "-m", "chatmem", args[0], "--db", "x.db",
                                   "--vector", vector, *args[1:]], capture_output=True,
                                  text=True, timeout=60, env=env, cwd=tmp_path,
                                  stdin=subprocess.DEVNULL)
        except subprocess.TimeoutExpired:
            pytest.fail(f"{args[0]} --vector {vector} started")
        assert proc.returncode == 2, proc.stderr
        assert one_line_error(proc.stderr) == (
            f"error: --vector {vector}: no folder \"{folder}\"; create it first "
            f"(mkdir -p {folder}) or give another path; nothing was created")
        assert os.listdir(tmp_path) == []


def test_a_foreign_file_is_refused_by_every_command(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "app.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE foo (x)")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    for args in (["add", "--session", "s", "x"], ["stats"]):
        res = CliRunner().invoke(main, [args[0], "--db", str(path), *args[1:]])
        assert res.exit_code == 2
        assert f"{path} is not a chatmem store" in one_line_error(res.output)
    assert path.read_bytes() == before and os.listdir(tmp_path) == ["app.db"]


@pytest.mark.parametrize("args", [["add", "--session", "s", "x"], ["recall", "q"],
                                  ["stats"]], ids=lambda a: a[0])
def test_an_unusable_path_is_one_line_and_exit_2_in_a_real_process(
        tmp_path: Path, args: list[str]) -> None:
    src = str(Path(chatmem.__file__).parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    env.pop("CHATMEM_DB", None)
    for db in ("sqlite:////proc/chat.db", str(tmp_path)):
        proc = subprocess.run([sys.executable, "-m", "chatmem", args[0], "--db", db, *args[1:]],
                              capture_output=True, text=True, timeout=120, env=env,
                              cwd=tmp_path)
        assert proc.returncode == 2, proc.stderr
        line = one_line_error(proc.stderr)
        assert ("/proc/chat.db" if db.startswith("sqlite") else str(tmp_path)) in line
    assert not os.path.exists("/proc/chat.db.lock")


def test_export_replaces_its_file_only_when_complete(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """-o is a user's file: a failed export leaves yesterday's backup as it was (and no
    partial file, no temporary one); the store's own files are refused; a new backup is
    readable by its owner only, a replaced one keeps its mode."""
    import stat

    from chatmem.cli import _check_output, _replacing

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(main, ["add", "--db", "chat.db", "--session", "s", "--no-wait",
                               "Lisbon in May"])
    assert res.exit_code == 0, res.output
    backup = tmp_path / "backup.jsonl"
    yesterday = '{"type": "header", "format": "chatmem-jsonl", "version": 1}\n'
    backup.write_text(yesterday)
    backup.chmod(0o640)
    with pytest.raises(RuntimeError), _replacing(_check_output(str(backup), "chat.db")) \
            as out:
        out.write('{"type": "session", "id": "half of it"}\n')
        raise RuntimeError("the store went away")
    assert backup.read_text() == yesterday
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]

    res = runner.invoke(main, ["export", "--db", "chat.db", "-o", "backup.jsonl"])
    assert res.exit_code == 0, res.output
    assert "Lisbon in May" in backup.read_text()
    assert stat.S_IMODE(backup.stat().st_mode) == 0o640
    res = runner.invoke(main, ["export", "--db", "chat.db", "-o", "new.jsonl"])
    assert res.exit_code == 0 and stat.S_IMODE((tmp_path / "new.jsonl").stat().st_mode) \
        == 0o600

    store = (tmp_path / "chat.db").read_bytes()
    for bad, why in (("chat.db", "the store's own file"), ("chat.db-wal", "own file"),
                     (".", "is a directory"), ("nope/x.jsonl", "no folder")):
        res = runner.invoke(main, ["export", "--db", "sqlite:///chat.db", "-o", bad])
        assert res.exit_code == 2 and why in res.output, (bad, res.output)
    assert (tmp_path / "chat.db").read_bytes() == store
    assert not [f for f in os.listdir(tmp_path) if f.endswith(".tmp")]
    assert not (tmp_path / "nope").exists()


def _tree(root: Path) -> dict[str, bytes | None]:
    """Every file and folder under ``root``, with the bytes of the user's text files."""
    return {str(p.relative_to(root)): p.read_bytes() if p.suffix == ".txt" else None
            for p in sorted(root.rglob("*"))}


def test_a_migrate_that_fails_before_copying_removes_only_what_it_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A migration refused before anything was copied (the destination's vector index
    cannot open: a local-mode folder that is a file, a Qdrant server that refuses; the
    source refused by the checks) left the new destination store, its lock file and
    the folders made for them (and a new local vector folder) behind. They are removed;
    a file or folder the user had there stays as it was (an empty file named as the
    destination becomes the store, as before, and is kept). A destination in a missing
    folder (or a local-mode folder in one) is refused before anything is opened."""
    import socket
    import sqlite3

    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    res = runner.invoke(main, ["add", "--db", "src.db", "--session", "s", "--no-wait", "x"])
    assert res.exit_code == 0, res.output
    (tmp_path / "notes.txt").write_text("my notes\n")
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    # a source the checks refuse once both stores are open: a session its own parent
    conn = sqlite3.connect(tmp_path / "src.db")
    with conn:
        conn.execute("UPDATE sessions SET parent_id = id")
    conn.close()
    (tmp_path / "keep").mkdir()
    (tmp_path / "keep" / "mine.txt").write_text("keep me\n")
    (tmp_path / "keep" / "empty.db").write_bytes(b"")
    before = _tree(tmp_path)
    for to, vector, names in (
            ("dst.db", f"qdrant+local://{tmp_path}/notes.txt", "is a file"),
            ("new/deeper/dst.db", f"qdrant+local://{tmp_path}/notes.txt",
             'no folder "new/deeper"'),
            ("dst.db", f"qdrant://127.0.0.1:{closed}", "cannot reach a Qdrant server"),
            ("dst.db", f"qdrant+local://{tmp_path}/vectors", "make a cycle"),
            ("dst.db", f"qdrant+local://{tmp_path}/vectors/q", 'no folder "'),
            ("keep/dst.db", None, "make a cycle"),
            ("keep/empty.db", None, "make a cycle")):
        res = runner.invoke(main, ["migrate", "--from", "src.db", "--to", to,
                                   *(["--to-vector", vector] if vector else [])])
        assert res.exit_code == 2, res.output
        assert names in res.output, res.output
        assert _tree(tmp_path) == before, (to, sorted(set(_tree(tmp_path)) ^ set(before)))
    assert (tmp_path / "keep" / "empty.db").stat().st_size  # the store made in the file


def _meta(db: Path) -> list[tuple[str, ...]]:
    """The metadata rows of a SQLite store (where it records its separate index)."""
    import sqlite3

    conn = sqlite3.connect(db)
    try:
        return sorted(conn.execute("SELECT * FROM meta").fetchall())
    finally:
        conn.close()


def test_a_failed_command_leaves_an_existing_store_without_its_vector_index(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A command given a separate vector index (--vector, --to-vector, --from-vector) on
    an existing store recorded that index in the store as it opened, and kept it when
    the command then failed: a refused chatmem migrate left existing.db tied to a Qdrant
    folder (and the folder there), so that every later command without --vector was
    refused. A failed command now leaves the store (and the files around it) as they
    were; one that succeeds records the index, as before, and a failed one keeps what
    the store had recorded."""
    pytest.importorskip("qdrant_client")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    for db in ("src.db", "existing.db"):
        res = runner.invoke(main, ["add", "--db", db, "--session", "s", "--no-wait", "x"])
        assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["migrate", "--from", "src.db", "--to", "existing.db"])
    assert res.exit_code == 0, res.output
    (tmp_path / "foreign.db").write_text("not a store\n")
    q = f"qdrant+local://{tmp_path}/q"
    # the index exists (another store's): a command that only reads refuses a missing one
    res = runner.invoke(main, ["add", "--db", "other.db", "--vector", q, "--session", "s",
                               "--no-wait", "x"])
    assert res.exit_code == 0, res.output
    failing = [
        (["migrate", "--from", "src.db", "--to", "existing.db", "--to-vector", q],
         "is already in this store"),
        (["migrate", "--from", "existing.db", "--from-vector", q, "--to", "foreign.db"],
         "not a chatmem store"),
        (["list", "--db", "existing.db", "--vector", q, "--limit", "0"], "--limit"),
        (["recall", "--db", "existing.db", "--vector", q, "--top-k", "0", "x"], "top"),
    ]
    meta, before = _meta(tmp_path / "existing.db"), _tree(tmp_path)
    for args, names in failing:
        res = runner.invoke(main, args)
        assert res.exit_code == 2 and names in res.output, (args, res.output)
        assert _meta(tmp_path / "existing.db") == meta, args
        assert _tree(tmp_path) == before, (args, sorted(set(_tree(tmp_path)) ^ set(before)))
    res = runner.invoke(main, ["list", "--db", "existing.db"])
    assert res.exit_code == 0, res.output
    # a command that succeeds records the index; a later failure keeps that record, also
    # one given another index (an index moved elsewhere)
    res = runner.invoke(main, ["list", "--db", "existing.db", "--vector", q])
    assert res.exit_code == 0, res.output
    meta = _meta(tmp_path / "existing.db")
    assert ("chatmem.storage", "vectors", q) in meta
    for vector in (q, f"qdrant+local://{tmp_path}/moved"):
        res = runner.invoke(main, ["list", "--db", "existing.db", "--vector", vector,
                                   "--limit", "0"])
        assert res.exit_code == 2, res.output
        assert _meta(tmp_path / "existing.db") == meta
    assert not (tmp_path / "moved").exists()
    res = runner.invoke(main, ["list", "--db", "existing.db"])
    assert res.exit_code == 2 and "live in a separate index" in res.output, res.output


def test_a_store_a_failed_open_created_is_removed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """chatmem add, chatmem import and Memory.open with a vector index that cannot open
    (a local-mode folder that is a file, a Qdrant server that refuses) left the new
    store file and its .lock file (and a folder made for them) behind. They are removed;
    a file the user had there (an empty file named as the store, a lock file) stays. (A
    store in a missing folder is refused by the command line before it opens.)"""
    import asyncio
    import socket

    from chatmem import Memory
    from chatmem.errors import StoreError

    pytest.importorskip("qdrant_client")
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()
    (tmp_path / "notes.txt").write_text("my notes\n")
    res = runner.invoke(main, ["add", "--db", "src.db", "--session", "s", "--no-wait", "x"])
    assert res.exit_code == 0, res.output
    res = runner.invoke(main, ["export", "--db", "src.db", "-o", "backup.txt"])
    assert res.exit_code == 0, res.output
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "empty.db").write_bytes(b"")
    (tmp_path / "mine" / "old.db.lock").write_bytes(b"")
    with socket.socket() as sock:  # a port nothing listens on
        sock.bind(("127.0.0.1", 0))
        closed = sock.getsockname()[1]
    before = _tree(tmp_path)
    vectors = (f"qdrant+local://{tmp_path}/notes.txt", f"qdrant://127.0.0.1:{closed}")
    for db in ("new.db", "new/deeper/new.db", "mine/old.db", f"sqlite:///{tmp_path}/n.db"):
        for vector in vectors:
            for args in (["add", "--db", db, "--vector", vector, "--session", "s", "x"],
                         ["import", "--db", db, "--vector", vector, "backup.txt"]):
                res = runner.invoke(main, args)
                names = "no folder" if db.startswith("new/") else "qdrant"
                assert res.exit_code == 2 and names in res.output, (args, res.output)
                assert _tree(tmp_path) == before, (
                    args, sorted(set(_tree(tmp_path)) ^ set(before)))

    async def library() -> None:
        for vector in vectors:
            with pytest.raises(StoreError):
                await Memory.open(str(tmp_path / "lib" / "new.db"), vector=vector)
            assert _tree(tmp_path) == before
            # the user's empty file becomes the store (as before) and stays
            with pytest.raises(StoreError):
                await Memory.open(str(tmp_path / "mine" / "empty.db"), vector=vector)
            assert (tmp_path / "mine" / "empty.db").exists()

    asyncio.run(library())
