"""R3 as a property, argument by argument: every parameter of every public method of
``Memory`` (the table of test_library_inputs.GOOD_CALLS) and of the LangGraph store,
given a hostile value in place of a good one, on a real SQLite store in a temporary
directory, either works or raises a ChatmemError that names the parameter; after an
error the store holds what it held (messages, sessions, vectors: its export).

test_library_inputs sweeps each parameter with six values on ``memory://``, and
test_bad_input's properties feed junk to add, recall, context, rewrite, call_tool and
upsert_session; this reaches the rest (flush, clear, get, list_messages, sessions,
delete, erase, forget, the settings, situation, sweep_retention, …) with the values
they missed: NaN and infinities, integers past 64 bits, past a float and past str(),
bools for numbers, NUL, lone surrogates, 100,000 characters, bytes, nesting deeper
than Python recurses, values that hold themselves. It found the raw ValueError of an
integer past str(), the OverflowError of one past a float, the endless walk of a
value holding itself and the LangGraph store's raw TypeErrors.

The same property reaches the library's other doors: Memory.open's keyword arguments
and options (in the test's folder, beside a user's file given as the store: after an
error the folder is byte for byte as it was), Config.load's, Message.from_dict's (each
field, the data, a key, ``path``) and the export and import functions of
chatmem.transfer (export_jsonl, validate_jsonl, import_records, migrate, read_lines,
FileLines, parse_json; a user's file given where chatmem's was wanted is refused and left as it
was, and nothing is written to the store or to a fresh target).

Hypothesis runs derandomized (the same examples on every run) and small: a few
seconds a test.
"""

from __future__ import annotations

import asyncio
import inspect
import io
import math
import os
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chatmem import Memory, Message, transfer
from chatmem.config import Config
from chatmem.embedding import Embedder
from chatmem.errors import ChatmemError, ConfigError, InvalidInput, NotFound, PermissionDenied
from chatmem.store import Storage
from chatmem.transfer import export_jsonl
from providers import RecordingProvider
from test_library_inputs import GOOD_CALLS, NAMED_IN, OWNER, deep_list, holding_itself

#: Values no parameter should meet as a raw exception.
HOSTILE: list[Any] = [
    None, True, False, 0, -1, -5, 2**63, 2**64, -(2**63) - 1, 10**400, -(10**400),
    10**5000, math.nan, math.inf, -math.inf, -0.0, 1.5, 1e308, "", " ", "\x00", "a\x00b",
    "\ud800", "s1\udfff", "x" * 100_000, b"s1", bytearray(b"s1"), object(), [], {}, (),
    [object()], {"k": object()}, {"$ne": 1}, {"$exists": True}, ["s1", 5], ("s1",),
    {"s1"}, frozenset({1}), [{"content": math.nan}], {"id": "s1", "x": math.nan},
    deep_list(5000), holding_itself(), [[[[["s1"]]]]],
]

#: The values of HOSTILE that test_library_inputs' six (an object, "", a lone surrogate,
#: -5, a list and a mapping holding an object) do not stand for: swept in every
#: parameter; the rest Hypothesis draws.
SWEPT: list[Any] = [True, math.nan, math.inf, 2**64, -(10**400), 10**5000, "a\x00b",
                    "x" * 100_000, b"s1", ("s1",), {"$ne": 1}, deep_list(5000),
                    holding_itself()]

hostile = st.one_of(
    st.sampled_from(HOSTILE),
    st.integers(), st.integers(-(2**80), 2**80),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6), st.binary(max_size=4),
    st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=3),
                           st.floats()),
                 lambda inner: st.one_of(st.lists(inner, max_size=3),
                                         st.dictionaries(st.text(max_size=3), inner,
                                                         max_size=3)),
                 max_leaves=6),
)

_FUZZ = settings(max_examples=250, derandomize=True, deadline=None, database=None,
                 suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                        HealthCheck.function_scoped_fixture])


def _parameters(call: Callable[..., Any]) -> list[inspect.Parameter]:
    return [p for p in inspect.signature(call).parameters.values()
            if p.kind is not p.VAR_KEYWORD]


#: (method, parameter) of Memory, in a fixed order.
SLOTS: list[tuple[str, int, str]] = [
    (method, i, p.name) for method in GOOD_CALLS
    for i, p in enumerate(_parameters(getattr(Memory, method))[1:])]  # without self


def _names(message: str, method: str, name: str) -> bool:
    named = NAMED_IN.get((method, name), name)
    return re.search(rf"(?<![\w]){re.escape(named)}(?!\w)", message) is not None


class Loop:
    """One event loop for a whole test, so that Hypothesis's examples (run one by one,
    synchronously) share one opened store."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()

    def run(self, awaitable: Any) -> Any:
        return self.loop.run_until_complete(asyncio.wait_for(awaitable, 60))

    def close(self) -> None:
        self.loop.close()


@pytest.fixture
def loop() -> Iterator[Loop]:
    runner = Loop()
    yield runner  # pytest closes it whether the test passed or not
    runner.close()


async def _snapshot(mem: Memory) -> str:
    await mem.flush(timeout=30)  # a success's vectors are written, not counted as a change
    out = io.StringIO()
    await export_jsonl(mem.storage, out, vectors=True)
    return out.getvalue()


async def _open(tmp_path: Path) -> Memory:
    mem = await Memory.open(f"sqlite:///{tmp_path / 'fuzz.db'}",
                            embedder=Embedder(RecordingProvider(dim=16)),
                            config=Config.load(indexing={"concurrency": 1}))
    await mem.add([{"content": "hello there", "id": "m1"}], session="s1", platform="tg")
    await mem.set_scope("session", actor=OWNER, session="s1")
    await mem.flush(timeout=30)
    return mem


def test_every_parameter_of_memory_is_fuzzed() -> None:
    assert {(m, n) for m, _, n in SLOTS} >= {("flush", "timeout"), ("sessions", "only"),
                                              ("forget", "dry_run"), ("get", "platform")}


def _check_memory(loop: Loop, mem: Memory, ts: int, slot: tuple[str, int, str],
                  value: Any) -> None:
    """``slot``'s method called with ``value`` for ``slot``'s parameter works, or raises a
    ChatmemError naming the parameter and leaves the store as it was."""
    method, index, name = slot
    args, kwargs = GOOD_CALLS[method]
    args = ("s1", ts) if method == "rewrite" else args
    a, k = list(args), dict(kwargs)
    param = _parameters(getattr(Memory, method))[1:][index]
    if param.kind is param.POSITIONAL_OR_KEYWORD and index < len(a):
        a[index] = value
    else:
        k[name] = value
    before = loop.run(_snapshot(mem))
    try:
        result = getattr(mem, method)(*a, **k)
        if inspect.isawaitable(result):
            loop.run(result)
    except TimeoutError:
        assert method == "flush"  # documented: past timeout, indexing goes on
    except (NotFound, PermissionDenied):
        pass  # a good shape for no such message / not the owner: nothing to name
    except ChatmemError as exc:
        assert _names(str(exc), method, name), f"{method}({name}=…): {exc}"
        assert len(str(exc)) < 2000  # never the whole value
        assert loop.run(_snapshot(mem)) == before, f"{method}({name}=…) changed it"


def test_each_hostile_value_in_each_parameter_works_or_is_refused_naming_it(
        loop: Loop, tmp_path: Path) -> None:
    """The sweep: every value of SWEPT in every parameter, in order."""
    mem: Memory = loop.run(_open(tmp_path))
    ts = loop.run(mem.get(["m1"]))["m1"].ts
    wrong: list[str] = []
    try:
        for slot in SLOTS:
            for i, value in enumerate(SWEPT):
                try:
                    _check_memory(loop, mem, ts, slot, value)
                except Exception as exc:  # every one found, each with its slot and value
                    wrong.append(f"{slot[0]}({slot[2]}=SWEPT[{i}]): "
                                 f"{type(exc).__name__}: {str(exc)[:150]}")
    finally:
        loop.run(mem.close())
    assert not wrong, "\n".join(wrong)


def test_a_hostile_argument_works_or_is_refused_naming_it_and_changes_nothing(
        loop: Loop, tmp_path: Path) -> None:
    """The property: values Hypothesis makes (integers and floats of every size, text,
    bytes, nested lists and mappings) in a parameter drawn from all of them."""
    mem: Memory = loop.run(_open(tmp_path))
    ts = loop.run(mem.get(["m1"]))["m1"].ts
    try:
        @_FUZZ
        @given(slot=st.sampled_from(SLOTS), value=hostile)
        def check(slot: tuple[str, int, str], value: Any) -> None:
            _check_memory(loop, mem, ts, slot, value)

        check()
    finally:
        loop.run(mem.close())


# ---------------------------------------------------------------------- LangGraph store

#: A good call of each method of ChatmemStore (LangGraph's BaseStore), by keyword: every
#: parameter of each (test_every_parameter_of_the_langgraph_store_is_fuzzed).
STORE_CALLS: dict[str, dict[str, Any]] = {
    "aput": {"namespace": ("m",), "key": "k1", "value": {"text": "x"}, "index": None,
             "ttl": None},
    "aget": {"namespace": ("m",), "key": "k0", "refresh_ttl": None},
    "adelete": {"namespace": ("m",), "key": "nope"},
    "asearch": {"namespace_prefix": ("m",), "query": "hello", "filter": None, "limit": 10,
                "offset": 0, "refresh_ttl": None},
    "alist_namespaces": {"prefix": None, "suffix": None, "max_depth": None, "limit": 100,
                         "offset": 0},
}

STORE_SLOTS = [(m, n) for m, kw in STORE_CALLS.items() for n in kw]


def test_every_parameter_of_the_langgraph_store_is_fuzzed() -> None:
    pytest.importorskip("langgraph")
    from chatmem.integrations.langgraph import ChatmemStore

    for method, kwargs in STORE_CALLS.items():
        assert [p.name for p in _parameters(getattr(ChatmemStore, method))[1:]] == list(kwargs)


def _check_store(loop: Loop, mem: Memory, store: Any, slot: tuple[str, str],
                 value: Any) -> None:
    """``slot``'s method of the LangGraph store called with ``value`` for ``slot``'s
    parameter works, or raises a ChatmemError naming the parameter and leaves the store
    as it was; LangGraph's own checks included (BaseStore's methods check a namespace, a
    key, a prefix before they make an op: they raised InvalidNamespaceError, TypeError
    or, for a ttl, NotImplementedError)."""
    method, name = slot
    kwargs = {**STORE_CALLS[method], name: value}
    before = loop.run(_snapshot(mem))
    try:
        positional = [kwargs.pop("namespace_prefix")] if method == "asearch" else []
        loop.run(getattr(store, method)(*positional, **kwargs))
    except ChatmemError as exc:
        assert re.search(rf"(?<!\w){name}(?!\w)", str(exc)), f"{method}({name}): {exc}"
        assert len(str(exc)) < 2000  # never the whole value
        assert loop.run(_snapshot(mem)) == before


def test_a_hostile_argument_of_the_langgraph_store_is_refused_naming_it(
        loop: Loop, tmp_path: Path) -> None:
    pytest.importorskip("langgraph")
    from chatmem.integrations.langgraph import ChatmemStore

    mem: Memory = loop.run(_open(tmp_path))
    try:
        store = ChatmemStore(mem)
        loop.run(store.aput(("m",), "k0", {"text": "hello world"}))
        wrong: list[str] = []
        for slot in STORE_SLOTS:  # the sweep, then the property
            for i, value in enumerate([*SWEPT, "m", None, 5, object(), [object()]]):
                try:
                    _check_store(loop, mem, store, slot, value)
                except Exception as exc:  # every one found, each with its slot and value
                    wrong.append(f"{slot[0]}({slot[1]}=value {i}): "
                                 f"{type(exc).__name__}: {str(exc)[:150]}")
        assert not wrong, "\n".join(wrong)

        @_FUZZ
        @given(slot=st.sampled_from(STORE_SLOTS), value=hostile)
        def check(slot: tuple[str, str], value: Any) -> None:
            _check_store(loop, mem, store, slot, value)

        check()
    finally:
        loop.run(mem.close())


# ---------------------------------------------------------------------- Message.from_dict

#: A message with every field set, as Message.from_dict reads one.
GOOD_MESSAGE: dict[str, Any] = {
    "session_id": "s1", "content": "hello", "role": "user", "ts": 1000, "id": "m1",
    "kind": "message", "visible_content": "hi", "source": "telegram", "speaker_id": "u1",
    "speaker_name": "Ann", "mentions": ["u2"], "platform": "tg", "metadata": {"k": 1}}

#: Where from_dict takes a value: each field, the data itself, ``path`` and a key.
MESSAGE_SLOTS = [*GOOD_MESSAGE, "(data)", "(key)", "path"]


def _works_or_names(call: Callable[[], Any], named: str) -> None:
    """``call()`` works, or raises a ChatmemError whose message names ``named`` (a
    regular expression), in under 2,000 characters."""
    try:
        call()
    except ChatmemError as exc:
        assert re.search(named, str(exc)), f"{named}: {exc}"
        assert len(str(exc)) < 2000


def _check_from_dict(slot: str, value: Any) -> None:
    if slot == "(data)":
        _works_or_names(lambda: Message.from_dict(value), r"^message\b")
    elif slot == "path":
        _works_or_names(lambda: Message.from_dict(GOOD_MESSAGE, path=value), r"\bpath\b")
    elif slot == "(key)":
        try:
            data = {**GOOD_MESSAGE, value: 1}
        except TypeError:  # not hashable: no mapping holds it as a key
            return
        _works_or_names(lambda: Message.from_dict(data), r"^message: unknown field")
    else:
        _works_or_names(lambda: Message.from_dict({**GOOD_MESSAGE, slot: value}),
                        rf"^message\.{slot}\b")


def test_message_from_dict_refuses_each_hostile_value_naming_it() -> None:
    wrong: list[str] = []
    for slot in MESSAGE_SLOTS:
        for i, value in enumerate(SWEPT):
            try:
                _check_from_dict(slot, value)
            except Exception as exc:
                wrong.append(f"{slot}=SWEPT[{i}]: {type(exc).__name__}: {str(exc)[:150]}")
    assert not wrong, "\n".join(wrong)
    assert Message.from_dict(GOOD_MESSAGE).speaker_name == "Ann"


@_FUZZ
@given(slot=st.sampled_from(MESSAGE_SLOTS), value=hostile)
def test_message_from_dict_takes_a_hostile_value_or_names_it(slot: str, value: Any) -> None:
    _check_from_dict(slot, value)


# ---------------------------------------------------------------------- Config.load

#: Config.load's own keyword arguments and options given as keywords (each a
#: configuration field, named by its path), with the regular expression its refusal
#: names it by.
CONFIG_SLOTS: dict[str, str] = {
    "data": r"configuration|\bdata\b", "env": r"\benv\b", "env_file": r"\benv[ _]file\b",
    "data_source": r"\bdata_source\b", **{name: rf"\b{name}\b" for name in (
        "scope", "last_messages", "search", "embedding", "indexing", "semantic_recall",
        "context_expand", "retention", "platforms", "hybrid", "no_such_option")}}


def _check_config_load(slot: str, value: Any) -> None:
    _works_or_names(lambda: Config.load(**{slot: value}), CONFIG_SLOTS[slot])


def test_config_load_refuses_each_hostile_value_naming_it() -> None:
    wrong: list[str] = []
    for slot in CONFIG_SLOTS:
        for i, value in enumerate([*SWEPT, 5, "x", ["x"], {"CHATMEM_SEARCH__TOP_K": 5}]):
            try:
                _check_config_load(slot, value)
            except Exception as exc:
                wrong.append(f"{slot}=values[{i}]: {type(exc).__name__}: {str(exc)[:150]}")
    assert not wrong, "\n".join(wrong)


@_FUZZ
@given(slot=st.sampled_from(list(CONFIG_SLOTS)), value=hostile)
def test_config_load_takes_a_hostile_value_or_names_it(slot: str, value: Any) -> None:
    _check_config_load(slot, value)


@pytest.mark.parametrize(("kwargs", "says"), [
    ({"env": {"CHATMEM_SEARCH__TOP_K": 5}},
     'env must be a mapping of variable names to strings (e.g. os.environ), got '
     '{"CHATMEM_SEARCH__TOP_K": 5}'),
    ({"env": {5: "x"}}, "env must be a mapping of variable names to strings"),
    ({"env": ["CHATMEM_SEARCH__TOP_K=5"]}, "env must be a mapping"),
    ({"env_file": 5}, "env_file must be a path (text or a pathlib.Path), got 5"),
    ({"env_file": b".env"}, "env_file must be a path (text or a pathlib.Path), got bytes"),
    ({"data_source": 5}, "data_source must be a string (where data was read from), got 5"),
], ids=["env int value", "env int name", "env list", "env_file int", "env_file bytes",
        "data_source int"])
def test_config_load_checks_its_own_arguments(kwargs: dict[str, Any], says: str) -> None:
    """Config.load(env={"CHATMEM_SEARCH__TOP_K": 5}) passed the variable over (a value
    that is not text was dropped: top_k stayed 10, with no word), env=["…"] raised a raw
    AttributeError ('list' object has no attribute 'items'), env_file=5 a raw TypeError
    and data_source=10**5000 a raw ValueError. Memory.open refused such an env; Config.load
    now refuses each, naming it."""
    with pytest.raises(ConfigError) as info:
        Config.load(**kwargs)
    assert str(info.value).startswith(says)


# ---------------------------------------------------------------------- export, import

def _progress(kind: str, n: int) -> None:
    return None


#: A good call of each public function of chatmem.transfer that exports or imports, by
#: keyword (built by _transfer_call on the world of _open): each parameter gets each
#: hostile value in turn.
TRANSFER_CALLS: dict[str, tuple[str, ...]] = {
    "export_jsonl": ("storage", "out", "vectors", "progress"),
    "validate_jsonl": ("lines",),
    "import_records": ("storage", "checked", "lines", "progress", "vectors", "resume"),
    "migrate": ("source", "target", "vectors", "progress", "resume", "writing"),
    "read_lines": ("fh",),
    "FileLines": ("fh",),
    "parse_json": ("text", "where"),
}
TRANSFER_SLOTS = [(f, p) for f, params in TRANSFER_CALLS.items() for p in params]
#: What names a parameter: an export's lines are its file, named line by line; the text
#: parse_json reads by where it comes from (its ``where``, "line 1").
TRANSFER_NAMED = {"lines": r"\blines?\b|\bfile\b", "text": r"\btext\b|^line 1:"}


class TransferWorld:
    """The store of _open, its export's lines, and a user's file that is not ours."""

    def __init__(self, loop: Loop, mem: Memory, tmp_path: Path) -> None:
        self.loop, self.mem = loop, mem
        self.export = loop.run(_snapshot(mem))  # the store as it is, all through
        self.lines = self.export.splitlines(keepends=True)
        self.checked = transfer.validate_jsonl(self.lines)  # read, never changed
        self.notes = tmp_path / "notes.txt"
        self.notes.write_text("my own notes\n", encoding="utf-8")
        self.folder = tmp_path
        self.empty = ""  # an empty store's export, as the first target's

    def disk(self) -> tuple[list[str], bytes]:
        return sorted(os.listdir(self.folder)), self.notes.read_bytes()

    async def call(self, function: str, slot: str, value: Any) -> None:
        target = await Storage.open("memory://")
        try:
            good: dict[str, Any] = {
                "storage": target if function == "import_records" else self.mem.storage,
                "out": io.StringIO(), "vectors": True, "progress": _progress,
                "lines": self.lines, "checked": self.checked,
                "resume": False, "source": self.mem.storage, "target": target,
                "writing": None, "fh": io.StringIO("".join(self.lines)),
                "text": self.lines[0], "where": "line 1"}
            kwargs = {p: good[p] for p in TRANSFER_CALLS[function]}
            kwargs[slot] = value
            self.empty = self.empty or await _export(target)
            result = getattr(transfer, function)(**kwargs)
            try:
                if inspect.isawaitable(result):
                    await asyncio.wait_for(result, 60)
                elif function in ("read_lines", "FileLines"):
                    list(result)
            except ChatmemError:
                assert await _export(target) == self.empty, f"{function}({slot}=…) wrote"
                raise
        finally:
            await target.close()


async def _export(storage: Storage) -> str:
    out = io.StringIO()
    await export_jsonl(storage, out, vectors=True)
    return out.getvalue()


def _check_transfer(world: TransferWorld, slot: tuple[str, str], value: Any) -> None:
    function, name = slot
    disk = world.disk()
    try:
        world.loop.run(world.call(function, name, value))
    except ChatmemError as exc:
        named = TRANSFER_NAMED.get(name, rf"\b{name}\b")
        assert re.search(named, str(exc)), f"{function}({name}=…): {exc}"
        assert len(str(exc)) < 2000
        assert world.disk() == disk, f"{function}({name}=…) changed the disk"
        assert world.loop.run(_export(world.mem.storage)) == world.export, \
            f"{function}({name}=…) changed the store"


def test_each_hostile_value_in_each_transfer_parameter_works_or_is_refused_naming_it(
        loop: Loop, tmp_path: Path) -> None:
    """The sweep, with a user's file given where a file of chatmem's was wanted: its
    path (text or a Path), opened to read only, opened as bytes. export_jsonl(storage,
    "backup.jsonl") raised a raw AttributeError ('str' object has no attribute 'write'),
    a binary file a TypeError, import_records(vectors=1) took 1, migrate(Memory, …) an
    AttributeError; each now names the argument and writes nothing anywhere."""
    world = TransferWorld(loop, loop.run(_open(tmp_path)), tmp_path)
    wrong: list[str] = []
    try:
        with open(world.notes, encoding="utf-8") as reading, \
                open(world.notes, "rb") as binary:
            values = [*SWEPT, str(world.notes), world.notes, reading, binary, world.mem,
                      1, "yes", [b"{}\n"], {"type": "header"}]
            for slot in TRANSFER_SLOTS:
                for i, value in enumerate(values):
                    try:
                        _check_transfer(world, slot, value)
                    except Exception as exc:
                        wrong.append(f"{slot[0]}({slot[1]}=values[{i}]): "
                                     f"{type(exc).__name__}: {str(exc)[:150]}")
    finally:
        loop.run(world.mem.close())
    assert world.notes.read_text(encoding="utf-8") == "my own notes\n"
    assert not wrong, "\n".join(wrong)


def test_a_hostile_transfer_argument_works_or_is_refused_naming_it(
        loop: Loop, tmp_path: Path) -> None:
    world = TransferWorld(loop, loop.run(_open(tmp_path)), tmp_path)
    try:
        @_FUZZ
        @given(slot=st.sampled_from(TRANSFER_SLOTS), value=hostile)
        def check(slot: tuple[str, str], value: Any) -> None:
            _check_transfer(world, slot, value)

        check()
    finally:
        loop.run(world.mem.close())


async def test_an_export_into_a_path_is_refused_and_leaves_the_file_as_it_was(
        tmp_path: Path) -> None:
    """export_jsonl(storage, out) writes into a file the caller opened: a path given
    as out (yesterday's backup, a file that is not an export) is refused, naming out
    and how to open it, and the file is as it was."""
    backup = tmp_path / "backup.jsonl"
    backup.write_text("not ours\n", encoding="utf-8")
    async with await Memory.open(f"sqlite:///{tmp_path / 'm.db'}",
                                 embedder=Embedder(RecordingProvider(dim=16))) as mem:
        await mem.add([{"content": "hello"}], session="s1")
        for out in (str(backup), backup):
            with pytest.raises(InvalidInput, match=r"^out must be a text file open for "
                               r"writing, got .*; a path: open it first \(open\(path, 'w'"):
                await export_jsonl(mem.storage, out)  # type: ignore[arg-type]
        with open(backup, "rb") as binary, pytest.raises(InvalidInput, match="binary"):
            await export_jsonl(mem.storage, binary)  # type: ignore[arg-type]
        with pytest.raises(InvalidInput, match=r"^storage .*; a Memory: pass its \.storage"):
            await export_jsonl(mem, io.StringIO())  # type: ignore[arg-type]
    assert backup.read_text(encoding="utf-8") == "not ours\n"


# ---------------------------------------------------------------------- Memory.open

#: Memory.open's keyword arguments (test_library_inputs.test_open_checks_its_arguments
#: takes six values of url, vector, env and create) and options given as keywords, with
#: the regular expression its refusal names each by.
OPEN_SLOTS: dict[str, str] = {
    "url": r"(?i)\burl\b|\bstore\b", "vector": r"\bvector\b", "embedder": r"\bembedder\b",
    "config": r"\bconfig(uration)?\b", "create": r"\bcreate\b", "env": r"\benv\b|CHATMEM_",
    **{name: rf"\b{name}\b" for name in (
        "scope", "last_messages", "search", "embedding", "indexing", "semantic_recall",
        "retention", "platforms", "no_such_option")}}


class OpenWorld:
    """A folder (the working one: a relative url lands here) holding a user's file
    that is not a store."""

    def __init__(self, loop: Loop, folder: Path) -> None:
        self.loop, self.folder = loop, folder
        self.notes = folder / "notes.txt"
        self.notes.write_text("my own notes\n", encoding="utf-8")
        self.embedder = Embedder(RecordingProvider(dim=16))

    def disk(self) -> dict[str, bytes]:
        return {p.name: p.read_bytes() if p.is_file() else b"" for p in self.folder.iterdir()}

    def check(self, slot: str, value: Any) -> None:
        if slot == "embedder" and value is None:
            return  # the default embedder: the local model, not a value to refuse
        kwargs: dict[str, Any] = {"url": f"sqlite:///{self.folder / 'fresh.db'}",
                                  "embedder": self.embedder, slot: value}
        before = self.disk()
        try:
            mem = self.loop.run(Memory.open(**kwargs))
        except ChatmemError as exc:
            assert re.search(OPEN_SLOTS[slot], str(exc)), f"open({slot}=…): {exc}"
            assert len(str(exc)) < 2000
            assert self.disk() == before, f"open({slot}=…) changed the folder"
            return
        self.loop.run(mem.close())
        assert self.notes.read_text(encoding="utf-8") == "my own notes\n"
        for made in set(self.disk()) - set(before):  # a store it opened: gone again
            path = self.folder / made
            if path.is_file():
                path.unlink()


@pytest.fixture
def open_world(loop: Loop, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> OpenWorld:
    monkeypatch.chdir(tmp_path)
    return OpenWorld(loop, tmp_path)


def test_each_hostile_value_in_each_open_argument_works_or_is_refused_naming_it(
        open_world: OpenWorld) -> None:
    """The sweep, with the user's file given as the store (its path, as sqlite:///…):
    refused as not a store, and left as it was."""
    notes = str(open_world.notes)
    wrong: list[str] = []
    for slot in OPEN_SLOTS:
        for i, value in enumerate([*SWEPT, notes, f"sqlite:///{notes}", open_world.notes]):
            try:
                open_world.check(slot, value)
            except Exception as exc:
                wrong.append(f"open({slot}=values[{i}]): {type(exc).__name__}: "
                             f"{str(exc)[:150]}")
    assert not wrong, "\n".join(wrong)


def test_a_hostile_open_argument_works_or_is_refused_naming_it(
        open_world: OpenWorld) -> None:
    @settings(_FUZZ, max_examples=120)
    @given(slot=st.sampled_from(list(OPEN_SLOTS)), value=hostile)
    def check(slot: str, value: Any) -> None:
        open_world.check(slot, value)

    check()
