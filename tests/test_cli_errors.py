"""Issue 9, item 12: every CLI error is one line on stderr and exit code 2, never a
traceback; ``chatmem add -`` reads long text from standard input. Run as a user runs it:
a subprocess of ``python -m chatmem``."""

from __future__ import annotations

import asyncio
import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from chatmem.cli import main
from chatmem.store import Storage
from chatmem.transfer import export_jsonl

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
    (["recall", "--window", "-1", "x"], "window must be at least 0, got '-1'"),
    (["recall", "--top-k", "0", "x"], "--top-k must be an integer from 1 to 1000"),
    (["add", "--session", "s", "--ts", "99999999999999999999", "x"], "ts must be from 0"),
    (["add", "--session", "s", "--ts", "-5", "x"], "ts must be from 0"),
    (["add", "--session", "\udcff", "x"], "--session is not valid UTF-8"),
    # a value pasted by mistake is shown cut, with its length, not echoed whole
    (["recall", "--top-k", "9" * 6000, "x"], "got '" + "9" * 60 + "'… (6,000 characters)"),
    # more digits than int() converts (4,300) is too large, not "not an integer"
    (["recall", "--top-k", "9" * 6000, "x"], "--top-k must be an integer from 1 to 1000, got"),
    (["list", "--limit", "-" + "1" * 5000], "--limit must be an integer from 1 to 1000, got"),
    (["add", "--session", "s", "--ts", "1" * 5000, "x"], "--ts must be from 0 to"),
    (["recall", "--top-k", "9" * 400, "x"], "from 1 to 1000, got '" + "9" * 60 + "'… (400"),
    (["recall", "--scope", "z" * 400, "x"], "session, thread, got '" + "z" * 60 + "'… (400"),
    (["list", "--since", "1" * 5000], "got '" + "1" * 60 + "'… (5,000 characters)"),
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
    # the line break a file or echo ends with is not part of the message; others are
    proc = chatmem("add", "--db", db, "--session", "s1", "--no-wait", "--json", "-",
                   stdin="first line\r\n\nsecond line\n")
    assert json.loads(proc.stdout)["content"] == "first line\r\n\nsecond line"
    proc = chatmem("add", "--db", db, "--session", "s1", "-", stdin="\n\n")
    assert_one_line_error(proc, "TEXT is empty")
    # not UTF-8: one line, nothing stored
    proc = chatmem("add", "--db", db, "--session", "s1", "-", stdin=b"\xff\xfe bad")
    assert_one_line_error(proc, "UTF-8")
    stats = json.loads(chatmem("stats", "--db", db, "--json").stdout)
    assert stats["messages"] == 2


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


def test_a_bad_value_of_a_config_file_is_named_with_the_file(tmp_path: Path) -> None:
    """A valid file holding a bad value: the error (doctor's report) says which file,
    not only the field."""
    path = tmp_path / "chatmem.toml"
    path.write_text("[search]\ntopk = 3\n")
    for args in (["stats", "--db", str(tmp_path / "s.db")], ["doctor"]):
        proc = chatmem(*args, "--config", str(path))
        assert f"--config {path}: search.topk: unknown option; did you mean search.top_k?" \
            in proc.stderr + proc.stdout, (proc.stderr, proc.stdout)
    assert not (tmp_path / "s.db").exists()


def test_a_config_file_under_the_home_folder_may_be_given_with_a_tilde(tmp_path: Path
                                                                      ) -> None:
    """``--config '~/chatmem.toml'`` (quoted, or ``CHATMEM_CONFIG`` from a service's
    environment: no shell expands it) was "does not exist", where ``--db '~/…'`` is the
    home folder's: the file is read (its bad value named) and ``~`` is not a folder."""
    (tmp_path / "chatmem.toml").write_text("[search]\ntopk = 3\n")
    work = tmp_path / "work"
    work.mkdir()
    env = {**ENV, "HOME": str(tmp_path)}
    for args in (["--config", "~/chatmem.toml"], []):
        proc = subprocess.run([sys.executable, "-m", "chatmem", "stats", "--db",
                               str(work / "s.db"), *args], capture_output=True, text=True,
                              timeout=300, cwd=work,
                              env={**env, "CHATMEM_CONFIG": "~/chatmem.toml"} if not args
                              else env)
        assert "search.topk: unknown option" in proc.stderr, proc.stderr
    assert list(work.iterdir()) == []


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_a_port_that_cannot_be_listened_on_is_an_error_naming_it(tmp_path: Path,
                                                                  command: list[str]) -> None:
    """A port out of range was a uvicorn traceback (OverflowError in bind); a port in use
    and an address of another machine ended with uvicorn's log line and exit code 3.
    Now: one line naming the option and its range, or the server's log and then one line
    naming the option, exit code 2."""
    import socket

    db = str(tmp_path / "p.db")
    for port in ("99999", "-1"):
        proc = chatmem(*command, "--db", db, "--port", port)
        assert_one_line_error(proc, f"--port must be an integer from 0 to 65535, got '{port}'")

    def refused(*args: str) -> str:
        proc = chatmem(*command, "--db", db, *args)
        assert proc.returncode == 2 and "Traceback" not in proc.stderr, proc.stderr
        return proc.stderr.strip().splitlines()[-1]

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        assert refused("--port", port) == (f"error: --port {port}: another program listens "
                                           "on it at 127.0.0.1; stop it or give another "
                                           "--port")
    assert refused("--host", "192.0.2.1", "--allow-open").startswith(
        "error: --host 192.0.2.1: not an address of this machine")


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_a_start_on_a_port_in_use_makes_no_store(tmp_path: Path, command: list[str]) -> None:
    """`chatmem serve --db new.db --port P` with P in use made new.db (and new.db.lock),
    and without --db the user data folder and its chatmem.db, then failed to listen:
    the store was opened before the port was tried. Now the port is tried first: one
    line naming it and the fix, exit code 2, nothing made, an existing store unchanged."""
    import socket

    home = tmp_path / "home"
    work = tmp_path / "work"
    work.mkdir()
    existing = work / "old.db"
    env = {**ENV, "HOME": str(home), "XDG_DATA_HOME": str(home / "data")}
    for key in ("CHATMEM_DB", "CHATMEM_KEYS", "CHATMEM_CONFIG"):
        env.pop(key, None)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = str(taken.getsockname()[1])
        subprocess.run([sys.executable, "-m", "chatmem", "add", "--db", str(existing),
                        "--session", "s", "kept"], check=True, capture_output=True,
                       timeout=300, cwd=work, env=env)
        shutil.rmtree(home, ignore_errors=True)  # what the add made there, if anything
        before = {p.name: p.read_bytes() for p in work.iterdir()}
        for db in (["--db", "new.db"], ["--db", "old.db"], []):
            run = subprocess.run([sys.executable, "-m", "chatmem", *command, *db,
                                  "--port", port], capture_output=True, text=True,
                                 timeout=300, cwd=work, env=env)
            proc = subprocess.CompletedProcess(run.args, run.returncode, run.stdout,
                                               run.stderr)
            assert_one_line_error(proc, f"error: --port {port}: another program listens "
                                  "on it at 127.0.0.1; stop it or give another --port")
            assert {p.name: p.read_bytes() for p in work.iterdir()} == before, db
            assert not home.exists(), list(home.rglob("*"))


#: ``python -c`` of chatmem whose Memory.open first says which TCP ports the process
#: listens on (``listening at open: [...]``), then, with ``TAKE_PORT``, does what another
#: program could do while the store opens: listen on that port (``taking the port at
#: open: taken``, kept, or the errno's name); with ``STOP_AT_OPEN``, the process then
#: sends itself SIGTERM (a server stopped before it started ends once it has).
AT_OPEN = r"""
import errno, os, signal, socket, sys
from chatmem.cli import main
from chatmem.memory import Memory

opened = Memory.open.__func__
kept = []


def listening():
    ports = []
    for fd in map(int, os.listdir("/proc/self/fd")):
        try:
            sock = socket.socket(fileno=os.dup(fd))
        except OSError:
            continue
        with sock:
            try:
                if sock.getsockopt(socket.SOL_SOCKET, socket.SO_ACCEPTCONN):
                    ports.append(sock.getsockname()[1])
            except OSError:
                pass
    return sorted(ports)


async def at_open(cls, *args, **kwargs):
    if not kept:
        kept.append(None)
        print(f"listening at open: {listening()}", file=sys.stderr, flush=True)
        port = int(os.environ.get("TAKE_PORT", "0"))
        if port:
            other = socket.socket()
            other.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                other.bind(("127.0.0.1", port))
                other.listen()
            except OSError as exc:
                other.close()
                said = errno.errorcode[exc.errno]
            else:
                kept.append(other)
                said = "taken"
            print(f"taking the port at open: {said}", file=sys.stderr, flush=True)
        if os.environ.get("STOP_AT_OPEN"):
            os.kill(os.getpid(), signal.SIGTERM)
    return await opened(cls, *args, **kwargs)


Memory.open = classmethod(at_open)
sys.argv = ["chatmem", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_a_server_holds_its_port_while_it_opens_its_store(tmp_path: Path,
                                                           command: list[str]) -> None:
    """`chatmem serve` and `chatmem mcp --transport http` tried their port with a socket
    bound and closed at once, then opened (and made) the store, then uvicorn bound the
    port again: a program that took the port in between made the server fail to start
    with its new store left behind. Now the port is taken (listening) before the store
    opens and the server serves on that socket: another program's try is refused
    (EADDRINUSE), and the server starts there."""
    from servers import free_port

    port = free_port()
    proc = subprocess.run([sys.executable, "-c", AT_OPEN, *command, "--db", "new.db",
                           "--port", str(port)], capture_output=True, text=True,
                          timeout=300, cwd=tmp_path,
                          env={**ENV, "TAKE_PORT": str(port), "STOP_AT_OPEN": "1"})
    assert "taking the port at open: EADDRINUSE" in proc.stderr, proc.stderr
    assert f"listening at open: [{port}]" in proc.stderr, proc.stderr
    assert f"Uvicorn running on http://127.0.0.1:{port} " in proc.stderr, proc.stderr
    assert proc.returncode == 0, proc.stderr


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_a_server_on_port_0_says_and_serves_the_port_it_holds(tmp_path: Path,
                                                              command: list[str]) -> None:
    """--port 0: the port the system picks is taken before the store opens, the one the
    server says it runs on, and answered there (its Host header allowed: the open
    server's DNS-rebinding check allowed 127.0.0.1:0, so 421 for the real port)."""
    import signal
    import threading

    import httpx

    proc = subprocess.Popen([sys.executable, "-c", AT_OPEN, *command, "--db", "new.db",
                             "--port", "0"], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=ENV)
    watchdog = threading.Timer(300, proc.kill)
    watchdog.start()
    try:
        assert proc.stderr is not None
        said: list[str] = []
        found = None
        while found is None:
            line = proc.stderr.readline()
            assert line, "".join(said)
            said.append(line)
            found = re.search(r"Uvicorn running on http://127\.0\.0\.1:(\d+) ", line)
        port = int(found.group(1))
        assert port != 0 and f"listening at open: [{port}]\n" in said, said
        if command == ["serve"]:
            answer = httpx.get(f"http://127.0.0.1:{port}/v1/stats", timeout=60)
        else:
            answer = httpx.post(
                f"http://127.0.0.1:{port}/mcp", timeout=60,
                headers={"Accept": "application/json, text/event-stream"},
                json={"jsonrpc": "2.0", "id": 1, "method": "initialize",
                      "params": {"protocolVersion": "2025-03-26", "capabilities": {},
                                 "clientInfo": {"name": "t", "version": "1"}}})
        assert answer.status_code == 200, answer.text
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=120) == 0, proc.stderr.read()
    finally:
        watchdog.cancel()
        proc.kill()
        proc.wait()


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_a_key_whose_namespace_makes_no_schema_name_stops_the_server_naming_it(
        tmp_path: Path, command: list[str]) -> None:
    """`chatmem serve --db 'postgresql://…?schema=cm_{namespace}' --keys keys.toml` with
    namespace = "alice-x" (the key file takes "-") started, or refused "storage URL:
    schema "cm_alice-x" is not a valid name" naming no key, by which namespace a set
    gave first; `chatmem mcp` refused in those words. Now one line naming the key, its
    namespace, why and the fix, before anything is opened."""
    from backends import pg_url

    url = pg_url()
    keys = tmp_path / "keys.toml"
    keys.write_text('[keys.alice]\nkey = "alice-key-0123456789abcdef"\nnamespace = "alice-x"\n'
                    + ('[keys.bob]\nkey = "bob-key-0123456789abcdef00"\nnamespace = "bob"\n'
                       if command == ["serve"] else ""), encoding="utf-8")
    # a server that starts is stopped by the timeout (the test fails)
    run = subprocess.run([sys.executable, "-m", "chatmem", *command, "--db",
                          f"{url}{'&' if '?' in url else '?'}schema=cm_{{namespace}}",
                          "--keys", str(keys), "--port", "0"],
                         capture_output=True, text=True, timeout=60, env=ENV)
    proc = subprocess.CompletedProcess(run.args, run.returncode, run.stdout, run.stderr)
    assert_one_line_error(proc, f'{keys}: keys.alice.namespace "alice-x" cannot fill '
                          '{namespace} of the storage URL: it makes the PostgreSQL schema '
                          '"cm_alice-x", and a PostgreSQL schema name takes lowercase '
                          'letters, digits and _, not starting with a digit or pg_, at most '
                          '63 characters; rename the namespace, e.g. namespace = "alice_x"')


@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_an_open_bind_refusal_names_every_way_out(tmp_path: Path,
                                                  command: list[str]) -> None:
    """`chatmem serve --host 0.0.0.0` without keys was refused with "pass --keys keys.toml
    … or bind 127.0.0.1", and never said that --allow-open serves it open knowingly;
    the refusal now names all three, keys first, before opening the store."""
    db = str(tmp_path / "o.db")
    proc = chatmem(*command, "--db", db, "--host", "0.0.0.0")
    assert_one_line_error(proc, "error: refusing to serve 0.0.0.0 without API keys: pass "
                          "--keys keys.toml (see README § HTTP server) or --host 127.0.0.1; "
                          "on a trusted network only, --allow-open serves it without keys")
    assert not Path(db).exists()


@pytest.mark.parametrize("keyed", [False, True])
@pytest.mark.parametrize("command", [["serve"], ["mcp", "--transport", "http"]])
def test_a_bracketed_host_is_refused_naming_the_bare_address(
        tmp_path: Path, command: list[str], keyed: bool) -> None:
    """`--host [::1]` was 'refusing to serve [::1] without API keys' (as if it were not
    loopback) and, with keys, 'not an address or name this machine resolves': neither
    said to drop the brackets. Now one refusal, keys or not, before the store is made."""
    db = str(tmp_path / "b.db")
    keys = tmp_path / "keys.toml"
    keys.write_text('[keys.owner]\nkey = "bracket-owner-key-0123456789"\nnamespace = "b"\n'
                    'role = "owner"\n', encoding="utf-8")
    proc = chatmem(*command, "--db", db, "--host", "[::1]",
                   *(["--keys", str(keys)] if keyed else []))
    assert_one_line_error(proc, "error: --host [::1]: an address in brackets is not one to "
                          "listen on (brackets only set an IPv6 address apart in a URL); "
                          "give it without them: --host ::1")
    assert not Path(db).exists()


@pytest.mark.parametrize("command,name,port", [
    (["serve"], "chat.example.org", 8765),
    (["mcp", "--transport", "http"], "mcp.example.org", 8766)])
def test_an_allowed_host_refusal_suggests_a_name_of_its_own_server(
        tmp_path: Path, command: list[str], name: str, port: int) -> None:
    """`chatmem serve --host 0.0.0.0 --allow-open` suggested '--allowed-host
    mcp.example.org:8765', an MCP server's name for the HTTP API, and so did a bad
    --allowed-host; each server's refusal now suggests a name of its own."""
    db = str(tmp_path / "h.db")
    proc = chatmem(*command, "--db", db, "--host", "0.0.0.0", "--allow-open")
    assert_one_line_error(proc, "error: binding 0.0.0.0 needs --allowed-host with the name "
                          f"clients use (e.g. --allowed-host {name}:{port}): other Host "
                          "headers are refused (DNS-rebinding protection)")
    proc = chatmem(*command, "--db", db, "--allowed-host", "http://x/")
    assert_one_line_error(proc, f"error: --allowed-host must be host[:port] (e.g. {name}:443 "
                          f"or {name}:*), got 'http://x/'")
    assert not Path(db).exists()


def test_a_store_that_cannot_open_stops_the_server_at_start(tmp_path: Path) -> None:
    """`chatmem serve --db notes.txt` started, answered /health "ok", and failed every
    request with "not a chatmem store"; now it ends before listening, with the store's
    one-line error, the file unchanged (as `chatmem mcp` did already)."""
    path = tmp_path / "notes.txt"
    path.write_bytes(b"my notes")
    proc = subprocess.run([sys.executable, "-m", "chatmem", "serve", "--db", str(path),
                           "--port", "0"], capture_output=True, timeout=120, env=ENV,
                          text=True)
    assert_one_line_error(proc, f"{path} is not a chatmem store")
    assert path.read_bytes() == b"my notes"


@pytest.mark.parametrize("args,says", [
    (["list", "--db", "q.db", "--limit"], "error: Option '--limit' requires an argument. "
                                         "(see chatmem list --help)"),
    (["list", "--db"], "error: Option '--db' requires an argument. (see chatmem list --help)"),
    (["forget", "--db", "q.db", "--yes=1"], "error: Option '--yes' does not take a value. "
                                           "(see chatmem forget --help)"),
    (["scope", "set", "--db", "q.db", "--session"],
     "error: Option '--session' requires an argument. (see chatmem scope set --help)"),
    (["list", "--db", "q.db", "--bogus"], "error: No such option '--bogus'. "
                                          "(see chatmem list --help)"),
    (["scope", "bogus"], "error: No such command 'bogus'. (see chatmem scope --help)"),
    # an argument more than the command takes was click's "Got unexpected extra argument
    # ()": an empty one (an unset shell variable) showed as nothing
    (["recall", "--db", "q.db", "a", ""], "error: an extra argument '' after QUERY 'a': "
     "chatmem recall takes one QUERY; remove it, or quote words meant as one QUERY "
     "(see chatmem recall --help)"),
    (["add", "--db", "q.db", "--session", "s1", "a", "b", ""],
     "error: extra arguments 'b', '' after TEXT 'a': chatmem add takes one TEXT; remove "
     "them, or quote words meant as one TEXT (see chatmem add --help)"),
    (["retention", "set", "--db", "q.db", "--session", "s1", "3", "4"],
     "error: an extra argument '4' after DAYS '3': chatmem retention set takes one DAYS; "
     "remove it (see chatmem retention set --help)"),
    # cut as a refused option value is (typed_repr): past 60 characters, the first 40 and
    # the length, so a text pasted by mistake is seen for what it is (it was cut at 40
    # characters, its length not said)
    (["recall", "--db", "q.db", "a", "w" * 5000], "error: an extra argument '" + "w" * 40
     + "'… (5,000 characters) after QUERY 'a': chatmem recall takes one QUERY; remove it, "
     "or quote words meant as one QUERY (see chatmem recall --help)"),
    (["recall", "--db", "q.db", "q" * 50, "b"], "error: an extra argument 'b' after QUERY '"
     + "q" * 50 + "': chatmem recall takes one QUERY; remove it, or quote words meant as "
     "one QUERY (see chatmem recall --help)"),
    (["list", "--db", "q.db", ""], "error: an extra argument '': chatmem list takes "
     "options only; remove it, or give it after the option it is a value of (see chatmem "
     "list --help)"),
])
def test_a_usage_error_ends_with_the_command_whose_help_says_more(
        tmp_path: Path, args: list[str], says: str) -> None:
    """README § Command line: an unknown or missing option is one line, ending with the
    command whose --help says more; an option given without its value (or a flag given
    one) ended without it, click's parser raising those with no command attached."""
    proc = subprocess.run([sys.executable, "-m", "chatmem", *args], capture_output=True,
                          timeout=120, env=ENV, text=True, cwd=tmp_path)
    assert proc.returncode == 2 and proc.stdout == "", proc
    # run as `python -m chatmem`, click names the command so
    assert proc.stderr.replace("python -m chatmem", "chatmem").splitlines() == [says]
    assert not (tmp_path / "q.db").exists()


def test_the_question_before_erasing_is_asked_on_stderr_and_needs_an_answer(
        tmp_path: Path) -> None:
    """forget, delete and clear ask first: on standard error, so that `--json > out.json`
    holds JSON only (the question went to standard output: into the file, unseen, while
    the command waited for an answer); no answer (standard input at its end, a script)
    is an error naming --yes (it was Click's bare "Aborted!", exit code 1)."""
    db = str(tmp_path / "q.db")
    seed = chatmem("add", "--db", db, "--session", "s1", "--speaker-id", "bob", "--json",
                   "--no-wait", "a note")
    assert seed.returncode == 0, seed.stderr
    message_id = json.loads(seed.stdout)["id"]
    proc = chatmem("forget", "--db", db, "--speaker-id", "bob", "--json", stdin="y\n")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["messages"] == 1 and "[y/N]" in proc.stderr
    second = chatmem("add", "--db", db, "--session", "s1", "--speaker-id", "bob", "--json",
                     "--no-wait", "b")
    message_id = json.loads(second.stdout)["id"]  # the first one is forgotten
    for args in (["forget", "--speaker-id", "bob", "--json"], ["delete", message_id],
                 ["clear"]):
        proc = chatmem(args[0], "--db", db, *args[1:], stdin=b"")
        assert proc.returncode == 2 and proc.stdout == "", (proc.stdout, proc.stderr)
        question, error = proc.stderr.strip().splitlines()
        question = question.rstrip()
        assert question.endswith("[y/N]:")
        assert error == (f"error: chatmem {args[0]} asks first, and standard input gave no "
                         "answer: pass --yes to go ahead without asking")
    assert json.loads(chatmem("stats", "--db", db, "--json").stdout)["messages"] == 1


def test_a_config_file_that_is_no_file_or_cannot_be_read_is_one_line_naming_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/dev/null (and a named pipe) "did not exist"; a file this user may not read (or
    under a folder it may not enter) was "unexpected PermissionError … please report it"."""
    from click.testing import CliRunner

    from chatmem.cli import main

    for option in ("--config", "--keys"):
        proc = chatmem("serve" if option == "--keys" else "stats", "--db",
                       str(tmp_path / "s.db"), option, "/dev/null")
        assert_one_line_error(proc, f"{option} /dev/null: is not a regular file")
    path = tmp_path / "c.toml"
    path.write_text('scope = "all"\n')

    def refused(self: Path, *args: object, **kwargs: object) -> str:
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "read_text", refused)  # root reads every file: pretend
    res = CliRunner().invoke(main, ["stats", "--db", str(tmp_path / "s.db"),
                                    "--config", str(path)])
    assert res.exit_code == 2
    assert res.output == (f"error: --config {path}: cannot read it (Permission denied); "
                          "make it readable by this user or give another file\n")
    assert not (tmp_path / "s.db").exists()


# ------------------------------------------------------------------ every option's bad value

#: A lone surrogate: what a byte of a command line that is not UTF-8 becomes.
NOT_UTF8 = "a\udcffb"
UTF8 = "is not valid UTF-8 text"

#: A bad value of every parameter that takes one, of every command: (command, the
#: parameter as the command line spells it, the value, what the error line says, other
#: arguments the call needs). Whether the command's own type refuses it (a number, a
#: choice) or the library does (a range, a text it cannot store, under the library's
#: own name: ``limit``, ``messages[0].session_id``), the line names the parameter as
#: typed. A new parameter that is not here fails
#: test_every_parameter_that_takes_a_value_has_a_bad_value_here.
BAD_VALUES: list[tuple[str, str, str, str, list[str]]] = [
    ("add", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("add", "--role", "bogus", "--role must be one of user, assistant, system, tool, "
     "notice, got 'bogus'", []),
    ("add", "--speaker-id", NOT_UTF8, f"--speaker-id {UTF8}", []),
    ("add", "--speaker-name", "x" * 600, "--speaker-name is longer than 512", []),
    ("add", "--platform", NOT_UTF8, f"--platform {UTF8}", []),
    ("add", "--ts", "-5", "--ts must be from 0 to 253402300799999", []),
    ("add", "--ts", "soon", "--ts must be an integer, got 'soon'", []),
    ("add", "TEXT", NOT_UTF8, f"TEXT {UTF8}", []),
    ("add", "--messages", "no-such-file.jsonl",
     "Invalid value for '--messages': File 'no-such-file.jsonl' does not exist", []),
    ("recall", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("recall", "--scope", "everyone", "--scope must be one of all, user", []),
    ("recall", "--top-k", "0", "--top-k must be an integer from 1 to 1000, got '0'", []),
    ("recall", "--top-k", "1.5", "--top-k must be an integer, got '1.5'", []),
    ("recall", "--window", "-1", "--window must be at least 0", []),
    ("recall", "--min-score", "2", "--min-score must be a number from 0 to 1, got '2'",
     []),
    ("recall", "--min-score", "nan", "--min-score must be a number, got 'nan'", []),
    ("recall", "QUERY", NOT_UTF8, f"QUERY {UTF8}", []),
    ("recall", "--filter", "[1]", "--filter must be an object, got '[1]'", []),
    ("context", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("context", "--platform", "", "--platform must not be empty", []),
    ("context", "--speaker-id", NOT_UTF8, f"--speaker-id {UTF8}", []),
    ("context", "--exclude-id", "x" * 600, "--exclude-id is longer than 512", []),
    ("context", "--now", "-5", "--now must be from 0 to 253402300799999", []),
    ("context", "--last-messages", "1001",
     "--last-messages must be an integer from 0 to 1000, got '1001'", []),
    ("context", "TEXT", NOT_UTF8, f"TEXT {UTF8}", []),
    ("context", "--messages", "no-such-file.jsonl",
     "Invalid value for '--messages': File 'no-such-file.jsonl' does not exist", []),
    ("clear", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("clear", "--target", "vectors", "--target must be one of vector, context, all", []),
    ("list", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("list", "--speaker-id", NOT_UTF8, f"--speaker-id {UTF8}", []),
    ("list", "--since", "-5", "--since must be from 0", []),
    ("list", "--until", "tomorrow", "--until must be an integer, got 'tomorrow'", []),
    ("list", "--limit", "0", "--limit must be an integer from 1 to 1000, got '0'", []),
    ("list", "--limit", "lots", "--limit must be an integer, got 'lots'", []),
    ("list", "--cursor", "zzz", "--cursor is not one that a listing", []),
    ("list", "--text", NOT_UTF8, f"--text {UTF8}", []),
    ("list", "--visible-from", NOT_UTF8, f"--visible-from {UTF8}", []),
    ("list", "--platform", NOT_UTF8, f"--platform {UTF8}", ["--visible-from", "s1"]),
    ("forget", "--speaker-id", NOT_UTF8, f"--speaker-id {UTF8}", []),
    ("forget", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("forget", "--resource-id", NOT_UTF8, f"--resource-id {UTF8}", []),
    ("delete", "IDS", NOT_UTF8, f"IDS {UTF8}", []),
    ("sessions", "--limit", "1001", "--limit must be an integer from 1 to 1000", []),
    ("sessions", "--after", NOT_UTF8, f"--after {UTF8}", []),
    ("rewrite", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("rewrite", "--ts", "-1", "--ts must be from 0", []),
    ("rewrite", "--content", NOT_UTF8, f"--content {UTF8}", []),
    ("rewrite", "--visible-content", NOT_UTF8, f"--visible-content {UTF8}", []),
    ("rewrite", "--metadata", "[1]", "--metadata must be an object, got '[1]'", []),
    ("session show", "SESSION_ID", NOT_UTF8, f"SESSION_ID {UTF8}", []),
    ("session set", "--parent-id", NOT_UTF8, f"--parent-id {UTF8}", []),
    ("session set", "--resource-id", NOT_UTF8, f"--resource-id {UTF8}", []),
    ("session set", "--origin-platform", NOT_UTF8, f"--origin-platform {UTF8}", []),
    ("session set", "--chat-type", NOT_UTF8, f"--chat-type {UTF8}", []),
    ("session set", "--group-id", NOT_UTF8, f"--group-id {UTF8}", []),
    ("session set", "--group-name", NOT_UTF8, f"--group-name {UTF8}", []),
    ("session set", "--metadata", "[1]", "--metadata must be an object", []),
    ("session set", "--unset", "parent-id", "--unset must be one of parent_id, "
     "resource_id", []),
    ("session set", "SESSION_ID", NOT_UTF8, f"SESSION_ID {UTF8}", []),
    ("scope show", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("scope show", "--platform", NOT_UTF8, f"--platform {UTF8}", ["--session", "s1"]),
    ("retention show", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("scope set", "VALUE", "everyone", "VALUE must be one of", ["--session", "s1"]),
    ("retention set", "DAYS", "-3", "DAYS must be an integer from 0 (keep forever) to "
     "36500, got '-3'", ["--session", "s1"]),
    ("retention set", "DAYS", "soon", "DAYS must be an integer, got 'soon'",
     ["--session", "s1"]),
    *[(f"{what} {verb}", option, value, says, extra)
      for what in ("scope", "retention") for verb in ("set", "unset")
      for option, value, says, extra in (
          ("--layer", "galaxy", "--layer must be one of platform, chat_type, group, "
           "session, got 'galaxy'", []),
          ("--session", NOT_UTF8, f"--session {UTF8}", []),
          ("--platform", NOT_UTF8, f"--platform {UTF8}", ["--layer", "platform"]),
          ("--chat-type", NOT_UTF8, f"--chat-type {UTF8}",
           ["--layer", "chat_type", "--platform", "tg"]),
          ("--group-id", NOT_UTF8, f"--group-id {UTF8}",
           ["--layer", "group", "--platform", "tg"]))],
    ("doctor", "--provider", "openia", "--provider must be one of local, openai", []),
    ("doctor", "--deadline", "0", "--deadline must be a number of more than 0, got '0'", []),
    ("doctor", "--deadline", "inf", "--deadline must be a number of more than 0, got 'inf'", []),
    *[(server, option, value, says, [])
      for server in ("serve", "mcp")
      for option, value, says in (
          ("--port", "65536", "--port must be an integer from 0 to 65535"),
          ("--client-timeout", "0", "--client-timeout must be between 0.1 and 3600 "
           "seconds, got '0'"),
          ("--client-timeout", "soon", "--client-timeout must be a number, got 'soon'"),
          ("--max-connections", "0", "--max-connections must be an integer from 1"),
          ("--max-connections", "many", "--max-connections must be an integer, got"),
          ("--max-concurrent-requests", "0",
           "--max-concurrent-requests must be an integer from 1"),
          ("--max-unread-mb", "-1", "--max-unread-mb must be an integer from 1"))],
    ("mcp", "--transport", "sse", "--transport must be one of stdio, http, got 'sse'", []),
    ("mcp", "--session", NOT_UTF8, f"--session {UTF8}", []),
    ("mcp", "--platform", NOT_UTF8, f"--platform {UTF8}", []),
    ("mcp", "--speaker-id", "x" * 600, "--speaker-id is longer than 512", []),
]

#: The parameters that name where things are (a store, a file, an address) or that the
#: command hands on unchecked: each has tests of its own errors, naming it.
NOT_IN_BAD_VALUES = {"--db", "--config", "--vector", "--keys", "-o/--output", "FILE",
                     "--from", "--from-vector", "--to", "--to-vector", "--host",
                     "--allowed-host", "--model", "--endpoint"}

#: What a call of each command needs besides the bad value: options, then arguments.
CALLS: dict[str, tuple[list[str], list[str]]] = {
    "add": (["--session", "s1", "--no-wait"], ["a note"]),
    "recall": ([], ["a note"]),
    "context": (["--session", "s1"], ["a note"]),
    "delete": (["--yes"], ["m1"]),
    "clear": (["--yes"], []), "forget": (["--yes"], []),
    "rewrite": (["--session", "s1", "--ts", "1", "--content", "new"], []),
    "session show": ([], ["s1"]), "session set": ([], ["s1"]),
    "scope set": ([], ["all"]), "retention set": ([], ["3"]),
    "scope show": ([], []), "retention show": ([], []),
}


def parameters() -> list[tuple[str, click.Parameter]]:
    """Every (command path, parameter) of the command line that takes a value."""
    found: list[tuple[str, click.Parameter]] = []

    def walk(command: click.Command, path: str) -> None:
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, f"{path} {name}".strip())
            return
        found.extend((path, p) for p in command.params
                     if not (isinstance(p, click.Option) and (p.is_flag or p.name == "help")))

    walk(main, "")
    return found


def test_every_parameter_that_takes_a_value_has_a_bad_value_here() -> None:
    """The rule of one line naming the option holds only where a test tries it: each
    parameter (but those of NOT_IN_BAD_VALUES) needs a row of BAD_VALUES, each number or
    choice the CLI's own type (click's would print its usage text, three lines)."""
    from chatmem.cli import OneOf, shown_name

    covered = {(command, name) for command, name, *_ in BAD_VALUES}
    missing, raw = [], []
    for command, param in parameters():
        name = shown_name(param)
        if name not in NOT_IN_BAD_VALUES and (command, name) not in covered:
            missing.append(f"chatmem {command} {name}")
        if isinstance(param.type, (click.types.IntParamType, click.types.FloatParamType)) \
                or (isinstance(param.type, click.Choice) and not isinstance(param.type, OneOf)):
            raw.append(f"chatmem {command} {name}")
    assert not missing, f"add a bad value of each to BAD_VALUES: {missing}"
    assert not raw, f"give these a type of chatmem.cli (Number, OneOf): {raw}"
    known = {(command, shown_name(p)) for command, p in parameters()}
    assert covered <= known, f"BAD_VALUES names what no command has: {covered - known}"


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("bad-values") / "seeded.db"
    res = CliRunner().invoke(main, ["add", "--db", str(db), "--session", "s1", "--ts", "1",
                                    "--no-wait", "a note"])
    assert res.exit_code == 0, res.output
    return db


def held(db: Path) -> str:
    """What the store holds, as its export (sessions, settings, messages)."""
    async def export() -> str:
        out = io.StringIO()
        async with await Storage.open(str(db), create=False) as storage:
            await export_jsonl(storage, out, vectors=True)
        return "".join(line for line in out.getvalue().splitlines(keepends=True)
                       if '"header"' not in line)

    return asyncio.run(export())


@pytest.mark.parametrize(("command", "name", "value", "says", "extra"), BAD_VALUES,
                         ids=[f"{c}:{n}={v[:8]!r}" for c, n, v, *_ in BAD_VALUES])
def test_a_bad_value_is_one_line_naming_the_option_and_changes_nothing(
        seeded: Path, command: str, name: str, value: str, says: str,
        extra: list[str]) -> None:
    """`chatmem list --limit 0` said 'limit must be …' (the library's argument, which the
    user never typed), `--limit abc` was click's usage text in three lines, `--port
    70000` its 'Invalid value for …'. Each now is one line, exit code 2, naming the
    parameter as the command line spells it and what it takes, and the store is left as
    it was. The value is shown as typed (`--limit 0` said 'got int 0', `--min-score 2`
    'got float 2.0', `--metadata '[1]'` 'got list [1]': the library's Python values)."""
    options, arguments = CALLS.get(command, ([], []))
    bad = [*options, *extra]
    if name.startswith("-"):
        bad += [name, value]
    arguments = [value] if not name.startswith("-") else arguments
    where = [] if command == "doctor" else ["--db", str(seeded)]
    before = held(seeded)
    res = CliRunner().invoke(main, [*command.split(), *where, *bad, "--", *arguments])
    assert res.exit_code == 2, res.output
    lines = res.output.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {says}"), res.output
    assert not re.search(r"(?<![\w.-])[a-z_]+=|\w\[\d+\]", lines[0]), "the library's naming"
    if " got " in lines[0]:  # the value as typed, not as the library got it (0)
        assert lines[0].endswith(f" got {value!r}"), lines[0]
    assert held(seeded) == before


def _cursor(db: Path, *order: str) -> str:
    """The cursor of a first page of one message, listed in ``order``."""
    res = CliRunner().invoke(main, ["list", "--db", str(db), "--limit", "1", *order])
    assert res.exit_code == 0 and "--cursor " in res.stderr, res.output
    return res.stderr.split("--cursor ")[1].split()[0]


#: (arguments after the command and --db, the error line): a library error that names
#: another argument of the command than the one it begins with.
OTHER_ARGUMENTS: list[tuple[list[str], str]] = [
    (["recall", "--scope", "session", "x"],
     '--scope "session" needs --session <the current session id>'),
    (["recall", "--scope", "platform", "x"],
     '--scope "platform" needs --session <the current session id>'),
    (["recall", "--scope", "thread", "x"],  # the alias as typed, not 'session'
     '--scope "thread" needs --session <the current session id>'),
    (["recall", "--config", "{session_scope}", "x"],
     'the configured scope "session" needs --session <the current session id>, or '
     "--scope all"),
    (["recall", "--config", "{thread_scope}", "x"],  # the alias as written
     'the configured scope "thread" needs --session <the current session id>, or '
     "--scope all"),
    (["recall", "--session", "s1", "--scope", "resource", "x"],
     '--scope "resource" needs a resource id, and session "s1" has none: give it a '
     "resource_id (Memory.upsert_session, PUT /v1/sessions/{id}, chatmem session set "
     "--resource-id), or use --scope session"),
    (["list", "--since", "5", "--until", "3"], "--until must be after --since 5, got '3'"),
    (["list", "--cursor", "{newest}"], "--cursor comes from a listing newest first: go on "
     "with --newest-first, as the page that returned it was listed"),
    (["list", "--newest-first", "--cursor", "{oldest}"], "--cursor comes from a listing "
     "oldest first: go on without --newest-first, as the page that returned it was "
     "listed"),
    (["list", "--cursor", "zzz"], "--cursor is not one that a listing of this store "
     "returned: pass the last page's next cursor as it came"),
]


@pytest.mark.parametrize(("args", "says"), OTHER_ARGUMENTS,
                         ids=[" ".join(a[:3]) for a, _ in OTHER_ARGUMENTS])
def test_a_library_error_naming_another_argument_names_its_option(
        tmp_path: Path, args: list[str], says: str) -> None:
    """`chatmem recall --scope session x` said '--scope 'session' needs session=<the
    current session id>': only the first word of the library's error was the option;
    the argument it needs was the library's (likewise since=, newest_first=true,
    memory.upsert_session(...), list() and next_cursor of the cursor's errors). Each
    argument named now is the option to type, with its value."""
    (tmp_path / "s.toml").write_text('scope = "session"\n', encoding="utf-8")
    (tmp_path / "t.toml").write_text('[semantic_recall]\nscope = "thread"\n',
                                     encoding="utf-8")
    db = tmp_path / "c.db"
    for ts, text in (("1", "a note"), ("2", "another note")):
        CliRunner().invoke(main, ["add", "--db", str(db), "--session", "s1", "--ts", ts,
                                  "--no-wait", text])
    places = {"session_scope": str(tmp_path / "s.toml"),
              "thread_scope": str(tmp_path / "t.toml"),
              "newest": _cursor(db, "--newest-first"), "oldest": _cursor(db)}
    command, *rest = (a.format(**places) for a in args)
    res = CliRunner().invoke(main, [command, "--db", str(db), *rest])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {says}\n"


@pytest.mark.parametrize(("args", "says"), [
    (["recall", "--session", "top_k=3", "--scope", "resource", "x"],
     '--scope "resource" needs a resource id, and session "top_k=3" has none: give it '
     "a resource_id (Memory.upsert_session, PUT /v1/sessions/{id}, chatmem session set "
     "--resource-id), or use --scope session"),
    (["scope", "set", "--session", "s1", "--", "session=x"],
     "VALUE must be one of all, user, platform, resource, session (or thread), got "
     "'session=x'"),
    (["rewrite", "--session", "s1", "--ts", "1", "--metadata", '"ts=5"'],
     "--metadata must be an object, got '\"ts=5\"'"),
])
def test_a_value_the_error_quotes_is_shown_as_typed_even_if_it_looks_like_an_argument(
        seeded: Path, args: list[str], says: str) -> None:
    """The library's other arguments were found in its message by a pattern
    (``name=value``), which renamed the user's own value as well: a session id
    'top_k=3' was shown as '--top-k 3', a --metadata '"ts=5"' as '"--ts 5"'. The
    library's error now lists the arguments it names (InvalidInput.mentions): only
    those are renamed."""
    command, *rest = args
    sub = [rest.pop(0)] if command == "scope" else []
    res = CliRunner().invoke(main, [command, *sub, "--db", str(seeded), *rest])
    assert res.exit_code == 2, res.output
    assert res.stderr == f"error: {says}\n"


@pytest.mark.parametrize(("ids", "says"), [
    ([""], "IDS must not be empty"),
    (["m1", ""], "IDS (the 2nd of 2) must not be empty"),
    (["m1", "m2", "m3", NOT_UTF8], f"IDS (the 4th of 4) {UTF8}"),
    ([*(f"m{i}" for i in range(11)), "x" * 600], "IDS (the 12th of 12) is longer than 512"),
    ([*(f"m{i}" for i in range(22)), ""], "IDS (the 23rd of 23) must not be empty"),
])
def test_a_bad_value_of_several_is_named_by_its_place_among_them(
        seeded: Path, ids: list[str], says: str) -> None:
    """`chatmem delete m1 ""` said 'IDS[1] must not be empty': the library's index,
    counted from 0, of a list the user never wrote. The usage line shows IDS: the value
    is named by it, and by its place among those given when there are more than one."""
    before = held(seeded)
    res = CliRunner().invoke(main, ["delete", "--db", str(seeded), "--yes", "--", *ids])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(f"error: {says}") and res.stderr.count("\n") == 1
    assert held(seeded) == before
