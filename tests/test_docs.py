"""Documentation stays true: every CLI command and every configuration field is in README."""

from __future__ import annotations

import os
import re
import typing
from typing import Any

from pydantic import BaseModel

from chatmem.config import Config
from readme import README, section


def fields(model: type[BaseModel], prefix: str = "") -> list[str]:
    out = []
    for name, info in model.model_fields.items():
        dotted = f"{prefix}{name}"
        ann: Any = info.annotation
        if not (isinstance(ann, type) and issubclass(ann, BaseModel)) or ann.__name__ == "Window":
            out.append(dotted)  # a leaf (sections are documented through their fields)
        # a table of sections (``platforms``: name → declarations) shows its key as
        # ``<platform>``: ``platforms.<platform>.chat_types``
        key = f"<{name.removesuffix('s')}>." if typing.get_origin(ann) is dict else ""
        for candidate in getattr(ann, "__args__", (ann,)):
            if isinstance(candidate, type) and issubclass(candidate, BaseModel) \
                    and candidate.__name__ != "Window":
                out.extend(fields(candidate, dotted + "." + key))
    return out


def test_every_configuration_field_is_documented_with_its_default() -> None:
    missing = [f for f in fields(Config) if f"`{f}`" not in README]
    assert not missing, f"undocumented configuration fields: {missing}"


def test_every_field_maps_to_a_documented_variable_name() -> None:
    """README states the rule (section and field in capitals, ``__`` between them) and
    its examples are what :func:`env_var` gives; every field's variable follows it."""
    from chatmem.config import env_var

    text = section("### Environment variables")
    assert "`CHATMEM_<SECTION>__<FIELD>`" in text and "`CHATMEM_<FIELD>`" in text
    for example in ("search.top_k", "hybrid.enabled", "embedding.cache.max_items", "scope"):
        assert env_var(example) in text, example
    assert "`search.top_k` →\n`CHATMEM_SEARCH__TOP_K`" in README
    for field in fields(Config):
        var = env_var(field)
        assert var == "CHATMEM_" + "__".join(p.upper() for p in field.split(".")), field
        assert var.isascii() and " " not in var, field


def test_every_metric_is_documented() -> None:
    """Each series name of ``/metrics`` is in README § Metrics and traces."""
    import pytest

    pytest.importorskip("prometheus_client")
    from chatmem.embedding import Embedder
    from chatmem.server.metrics import Metrics
    from chatmem.testing import HashEmbeddingProvider

    text = section("### Metrics and traces")
    names = {m.name for m in Metrics(Embedder(HashEmbeddingProvider())).registry.collect()}
    assert len(names) >= 20
    for name in sorted(names):
        short = name.removeprefix("chatmem_embedding_")
        assert f"`{name}" in text or (short != name and f"…_{short}" in text), name


def test_the_tool_is_documented() -> None:
    assert "`memory_recall`" in README and "tool_schema()" in README


def test_every_mcp_tool_is_documented() -> None:
    """Each tool ``chatmem mcp`` serves is in README § MCP server and in the module's
    docstring, and the erase tools it does not serve say why."""
    import pytest

    pytest.importorskip("mcp")
    import asyncio

    from chatmem.server import mcp

    async def never() -> Any:
        raise AssertionError("not opened")

    server = mcp.create_server(never, session="s")
    names = sorted(t.name for t in asyncio.run(server.list_tools()))
    assert names == ["memory_add", "memory_list", "memory_recall"], names
    text = section("## MCP server")
    for name in names:
        assert f"- `{name}`" in text, name
        assert f"``{name}``" in (mcp.__doc__ or ""), name
    assert "no `memory_forget` tool" in text


def test_every_provider_is_in_the_readme_table_with_its_default_model_dimensions_and_key(
        ) -> None:
    from chatmem.config import DEFAULT_MODELS
    from chatmem.embedding.registry import PROVIDERS

    text = section("## Embedding providers")
    rows = {line.split("|")[1].strip(): line for line in text.splitlines()
            if line.startswith("| `") and "default `embedding.model`" not in line}
    assert set(rows) == {f"`{name}`" for name in ["local", *PROVIDERS]}, sorted(rows)
    assert f"`{DEFAULT_MODELS['local']}`" in rows["`local`"] and "384" in rows["`local`"]
    for name, spec in PROVIDERS.items():
        row = rows[f"`{name}`"]
        assert f"`{spec.default_model}`" in row, name
        native = spec.dimensions.get(spec.default_model)
        assert native is not None and str(native) in row, name
        assert f"`{spec.default_endpoint}`" in row, name
        var = spec.key_env(spec.default_endpoint or "", {})
        assert (f"`{var}`" in row) if var else ("none" in row), name
        assert ("yes" in row) == spec.roles, name
    for var in ("AZURE_OPENAI_API_KEY", "OPENROUTER_API_KEY"):
        assert f"`{var}`" in rows["`openai`"]


def test_the_provider_examples_are_valid_configurations() -> None:
    import re

    import pytest

    try:
        import tomllib
    except ImportError:  # Python 3.10
        tomllib = pytest.importorskip("tomli")

    text = section("## Embedding providers")
    blocks = re.findall(r"```toml\n(.*?)```", text, re.S)
    assert len(blocks) >= 5
    providers = set()
    for block in blocks:
        cfg = Config.load(tomllib.loads(block))
        providers.add((cfg.embedding.provider, cfg.embedding.endpoint))
    assert ("ollama", "http://127.0.0.1:11434") in providers
    assert ("openai", "http://127.0.0.1:11434/v1") in providers


def test_every_python_example_compiles_and_whole_ones_run_as_scripts() -> None:
    """A README example that imports what it uses is a script a reader runs as it is:
    it must compile as one (no ``await`` or ``async with`` at its top level, which stop
    a script before its first line). The others are fragments (``mem`` and the like
    given) and may ``await`` at the top level, as in an async function."""
    import ast

    from readme import python_blocks

    blocks = python_blocks()
    assert len(blocks) >= 10
    for code in blocks:
        first = code.lstrip().splitlines()[0]
        if first.startswith(("import ", "from ")):
            compile(code, "README.md", "exec")
        else:
            compile(code, "README.md", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)


def test_the_composed_memory_example_runs_as_written(tmp_path: Any) -> None:
    """README § A memory from your own objects: ``Memory(storage=…, vector=…,
    embedder=…, options=…)`` (SPEC M1) over a SQLite store opened by hand, run as a
    script; ``last_messages: 2`` puts the last two messages after the recall."""
    from readme import python_blocks, run_example

    [code] = python_blocks(section("### A memory from your own objects"))
    assert "Memory(storage=store, vector=store, embedder=embedder," in code
    done = run_example(code, tmp_path, {})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("system ") and "I live in Berlin" in done.stdout
    assert lines[1:] == ["user I row on Sundays", "user My sister is called Ana"]
    assert (tmp_path / "composed.db").exists()


def test_every_pip_install_of_chatmem_installs_this_checkout_with_an_extra_it_has() -> None:
    """chatmem installs from its source (`pip install .` at the top); the `chatmem` on
    PyPI is another project. README's `pip install 'chatmem[server]'` and the like, run
    in a new environment or with `-U`, installed that one (0.1.10, "Drop-in context memory
    layer", no `server` extra) instead of adding the extra: each is `'.[extra]'` now, with
    an extra pyproject.toml declares."""
    import re

    from readme import ROOT

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import pytest

        tomllib = pytest.importorskip("tomli")

    extras = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
                 ["optional-dependencies"])
    commands = re.findall(r"pip install ((?:-\S+ )*)('[^']*'|[^\s`;)]+)", README)
    assert len(commands) >= 10, commands
    for _, target in commands:
        name = target.strip("'")
        assert not name.startswith("chatmem"), f"pip install {target}: PyPI's chatmem is " \
            "another project; install this checkout: pip install '.[extra]'"
        if name.startswith(".["):
            wanted = set(name[2:].rstrip("]").split(","))
            assert wanted <= extras, f"pip install {target}: no extra {wanted - extras}"


#: What a README example needs that a test cannot give it offline: an OpenAI-compatible
#: server or a chatmem server (tests/test_openai_messages.py, test_client.py and
#: test_integration_openai_agents.py run those against real ones on 127.0.0.1), or a
#: provider's key.
NEEDS_A_SERVER = ("OpenAI(", "Client(", '"provider": "openai"')

#: Sections whose example a test of its own runs and checks (slow to import: LlamaIndex
#: alone takes 5-10 s), with that test's file.
RUN_BY_THEIR_OWN_TESTS = {"### LangGraph": "test_integration_langgraph.py",
                          "### LlamaIndex": "test_integration_llamaindex.py",
                          "### A memory from your own objects": "test_docs.py"}

#: Run after a whole example: its ``def test_…(tmp_path)`` functions, as pytest would.
CALL_ITS_TESTS = """
import inspect as _inspect, pathlib as _pathlib, tempfile as _tempfile
for _name, _test in list(globals().items()):
    if _name.startswith("test_") and callable(_test):
        _wants = list(_inspect.signature(_test).parameters)
        assert _wants in ([], ["tmp_path"]), f"{_name}{_wants}: only tmp_path is given"
        _test(*[_pathlib.Path(_tempfile.mkdtemp(dir="."))] * len(_wants))
        print("ran", _name)
"""


def free_names(code: str) -> set[str]:
    """The names ``code`` reads that it neither assigns, imports nor finds in builtins."""
    import ast
    import builtins

    tree = ast.parse(code)
    bound = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
             and not isinstance(n.ctx, ast.Load)}
    bound |= {(a.asname or a.name).split(".")[0] for n in ast.walk(tree)
              if isinstance(n, (ast.Import, ast.ImportFrom)) for a in n.names}
    bound |= {n.name for n in ast.walk(tree)
              if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
    bound |= {n.arg for n in ast.walk(tree) if isinstance(n, ast.arg)}
    read = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name)
            and isinstance(n.ctx, ast.Load)}
    return read - bound - set(dir(builtins))


#: What a fragment may use besides ``mem`` without defining it, and the line that gives
#: it (``t0``: a time to list from).
GIVEN = {"t0": "t0 = 0"}


def offline_examples() -> list[tuple[str, str]]:
    """(where, script) of each README Python example that runs without a server, a key
    or a package this environment lacks: a whole one as written (then its test
    functions), a fragment that needs only ``mem`` (and :data:`GIVEN`) inside an async
    function given a ``Memory`` on a new SQLite file (``await`` at its top level) or a
    ``SyncMemory``. An awaiting fragment runs on a ``SyncMemory`` too, its ``await``s
    left out: README says ``SyncMemory`` offers the same methods without ``await``."""
    import importlib.util
    import textwrap

    from readme import ROOT, python_blocks

    elsewhere = []
    for title, test_file in RUN_BY_THEIR_OWN_TESTS.items():
        assert f'section("{title}")' in (ROOT / "tests" / test_file).read_text(), title
        elsewhere += python_blocks(section(title))
    out = []
    for i, code in enumerate(python_blocks()):
        where = f"README python example {i + 1}: {code.lstrip().splitlines()[0]}"
        if code in elsewhere or any(marker in code for marker in NEEDS_A_SERVER):
            continue
        if code.lstrip().startswith(("import ", "from ")):
            modules = re.findall(r"^(?:from|import) (\w+)", code, re.M)
            if all(importlib.util.find_spec(m) for m in modules):
                out.append((where, code + CALL_ITS_TESTS))
        elif "mem" in (needs := free_names(code)) and needs - {"mem"} <= set(GIVEN):
            code = "".join(GIVEN[name] + "\n" for name in sorted(needs - {"mem"})) + code
            if "await " in code:
                out.append((where, "import asyncio\nfrom chatmem import Memory\n\n"
                            "async def main():\n"
                            "    async with await Memory.open('sqlite:///chat.db') as mem:\n"
                            + textwrap.indent(code, " " * 8) + "\nasyncio.run(main())\n"))
                code = code.replace("await ", "")
                where += " (on a SyncMemory, without await)"
            out.append((where, "from chatmem import SyncMemory\n"
                        "with SyncMemory.open('sqlite:///chat.db') as mem:\n"
                        + textwrap.indent(code, " " * 4)))
    return out


def test_the_offline_python_examples_run_as_written(tmp_path: Any) -> None:
    """A reader pastes README's examples: each that needs no server or key runs as
    written, in a folder and home of its own, all at once (a few seconds). The
    ones that need a server run in tests/test_openai_messages.py, test_client.py and
    test_integration_openai_agents.py against real ones on 127.0.0.1."""
    import subprocess
    import sys

    from readme import ROOT

    examples = offline_examples()
    assert len(examples) >= 7, [where for where, _ in examples]
    path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    env = {k: v for k, v in os.environ.items() if not k.startswith(("CHATMEM_", "XDG_"))}
    running = []
    failed = []
    try:
        for n, (where, code) in enumerate(examples):
            folder = tmp_path / f"example-{n}"
            (folder / "home").mkdir(parents=True)
            running.append((where, subprocess.Popen(
                [sys.executable, "-c", code], cwd=folder, text=True,
                stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                env={**env, "HOME": str(folder / "home"), "PYTHONPATH": path})))
        for where, process in running:
            _, err = process.communicate(timeout=120)
            if process.returncode != 0:
                failed.append(f"{where}\n{err[-2000:]}")
    finally:
        for _, process in running:
            process.kill()
            process.wait()
    assert not failed, "\n\n".join(failed)


def test_the_readme_opens_with_its_two_set_up_commands_and_ci_runs_the_second() -> None:
    """README's first lines are two one-line commands, install and demo, install and test
    (SPEC: `pip install .` and a demo, offline); CI runs the second verbatim (.ci/run), so
    what a reader pastes is what CI proves."""
    import shlex

    from chatmem.cli import main
    from readme import ROOT

    top = README[:README.index("\n## ")]
    blocks = re.findall(r"```bash\n(.*?)```", top, re.S)
    assert len(blocks) == 2 and top.count("```") == 4, blocks
    install, test = (block.strip() for block in blocks)
    assert "\n" not in install and "\n" not in test, blocks
    assert shlex.split(install) == ["pip", "install", ".", "&&", "chatmem", "demo"]
    assert shlex.split(test)[:4] == ["pip", "install", ".[test]", "&&"]
    assert "demo" in main.commands
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert test in ci, "CI runs README's test command verbatim"


def test_the_http_window_bound_is_documented_with_its_reason() -> None:
    """``POST /v1/recall`` takes a ``window`` of at most ``server.http.MAX_WINDOW`` (100)
    each side, for every key, where the library takes ``config.MAX_WINDOW`` (1000):
    README gave the library's bound only, so a 101 sent over HTTP was a 422 nothing had
    announced, and never said why the API takes less."""
    import pytest

    pytest.importorskip("fastapi")
    from chatmem.config import MAX_WINDOW as LIBRARY_MAX_WINDOW
    from chatmem.server.http import MAX_WINDOW

    assert f"`window` 0–{LIBRARY_MAX_WINDOW} each side (0–{MAX_WINDOW} over HTTP" in README
    text = section("## HTTP server")
    assert f"at most {MAX_WINDOW} neighbours each side" in text
    assert f"`window.before must be at most {MAX_WINDOW}, got {MAX_WINDOW + 1}`" in text
