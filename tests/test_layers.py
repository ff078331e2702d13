"""Data flows one way (SPEC §1): no import cycles, deferred or not, and no module imports
one of a higher layer. The imports are read from the source (every ``import`` statement,
at any depth), not from what happens to be loaded."""

from __future__ import annotations

import ast
import inspect
import textwrap
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "chatmem"

#: Layers, lowest first. A module may import its own layer's modules (within its own
#: package) and any lower layer's. The filter language (store.filters) is shared
#: vocabulary — configuration validates filters with it — so it sits at the bottom.
#: So does the wording of a schema's refusals (chatmem.refusals), which the servers and
#: the memory_recall tool's own check (chatmem.tool) share, and the backoff formula
#: (chatmem.backoff), which the indexer and the PostgreSQL store both pause by, and how
#: to install an extra (chatmem.extras), which every layer's missing-package error says.
LAYERS: list[tuple[str, ...]] = [
    ("chatmem._version", "chatmem._sync", "chatmem._aio", "chatmem._http", "chatmem.errors",
     "chatmem.telemetry", "chatmem.refusals", "chatmem.logwindow", "chatmem.backoff",
     "chatmem.extras"),
    ("chatmem.models", "chatmem.store.filters"),
    ("chatmem.config", "chatmem.text", "chatmem.demo", "chatmem.chat_format",
     "chatmem.overview", "chatmem.platforms"),
    ("chatmem.embedding", "chatmem.store", "chatmem.recall"),
    ("chatmem.indexing", "chatmem.scopes", "chatmem.tool", "chatmem.transfer"),
    ("chatmem.retention",),
    # the HTTP client is Memory's peer (the same methods over the API), not a server
    ("chatmem.memory", "chatmem.testing", "chatmem.client"),
    ("chatmem.server",),
    ("chatmem.cli",),
    ("chatmem.__main__", "chatmem"),
]


def module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[str]:
    """Every chatmem module ``path`` imports, wherever the statement stands."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "chatmem"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            if module.split(".")[0] != "chatmem":
                continue
            for alias in node.names:  # ``from . import x`` may name a submodule
                sub = f"{module}.{alias.name}"
                out.add(sub if (PACKAGE.parent / Path(*sub.split("."))).with_suffix(".py")
                        .exists() or (PACKAGE.parent / Path(*sub.split("."))).is_dir()
                        else module)
    out.discard(name)
    return out


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports(p) for p in PACKAGE.rglob("*.py")}


def layer_of(module: str) -> int:
    best, rank = "", -1
    for i, names in enumerate(LAYERS):
        for n in names:
            if (module == n or module.startswith(n + ".")) and len(n) > len(best):
                best, rank = n, i
    assert rank >= 0, f"{module} is in no layer: add it to LAYERS in {__file__}"
    return rank


def _unit(module: str) -> str:
    """The package a module belongs to (``chatmem.store.sqlite`` → ``chatmem.store``)."""
    return ".".join(module.split(".")[:2])


def test_every_module_has_a_layer() -> None:
    for module in graph():
        layer_of(module)


def test_no_module_imports_a_higher_layer() -> None:
    wrong = []
    for module, targets in sorted(graph().items()):
        for target in sorted(targets):
            here, there = layer_of(module), layer_of(target)
            sideways = here == there and _unit(module) != _unit(target)
            if there > here or sideways:
                wrong.append(f"{module} (layer {here}) imports {target} (layer {there})")
    assert not wrong, "\n".join(wrong)


def test_no_import_cycles() -> None:
    edges = graph()
    cycles: list[list[str]] = []
    state: dict[str, int] = {}  # 1 = on the current path, 2 = done
    path: list[str] = []

    def visit(node: str) -> None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(edges.get(node, ())):
            # a package's __init__ importing its own submodules is how packages are made;
            # the reverse edge (a submodule importing its package) is what would close a loop
            if state.get(nxt) == 1:
                cycles.append([*path[path.index(nxt):], nxt])
            elif nxt in edges and state.get(nxt) is None:
                visit(nxt)
        path.pop()
        state[node] = 2

    for node in sorted(edges):
        if state.get(node) is None:
            visit(node)
    assert not cycles, "import cycles:\n" + "\n".join(" -> ".join(c) for c in cycles)


def _private_names(cls: type) -> set[str]:
    """The private names of ``cls``: its methods, properties and class attributes, its
    bases' too (``SyncMemory._start`` is BlockingWrapper's), and the attributes its
    methods (and its bases') set on ``self`` (``SyncMemory._loop``)."""
    names = {name for name in dir(cls) if name.startswith("_") and not name.startswith("__")}
    for base in cls.__mro__:
        if not base.__module__.startswith("chatmem"):
            continue
        for node in ast.walk(ast.parse(textwrap.dedent(inspect.getsource(base)))):
            if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) \
                    and isinstance(node.value, ast.Name) and node.value.id == "self" \
                    and node.attr.startswith("_") and not node.attr.startswith("__"):
                names.add(node.attr)
    return names


def test_the_integrations_use_nothing_private_of_the_facade() -> None:
    """The integrations (chatmem.integrations) sit above Memory and use what it offers
    them: its documented methods and attributes, never one of its private ones
    (``memory._erase`` changing its arguments broke the LangGraph store's put without a
    word; the store read ``SyncMemory._loop``, the LlamaIndex block ``SyncMemory._start``
    and ``._thread``). A use is ``<something>._name`` where ``_name`` is a private
    method, property or attribute of Memory or SyncMemory, or of a base of either."""
    from chatmem.memory import Memory, SyncMemory

    private = _private_names(Memory) | _private_names(SyncMemory)
    assert {"_erase", "_key_lock", "_loop", "_thread", "_closed", "_submit"} <= private
    found = []
    for path in sorted((PACKAGE / "integrations").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Attribute) and node.attr in private \
                    and not (isinstance(node.value, ast.Name) and node.value.id == "self"):
                found.append(f"{module_name(path)}:{node.lineno} .{node.attr}")
    assert not found, "\n".join(found)
