"""The install hints of chatmem's messages (chatmem.extras): never PyPI's other chatmem.

chatmem installs from its source; PyPI's ``chatmem`` (0.1.10, no ``server`` extra) is
another project. With chatmem installed from a checkout (``pip install --no-deps .`` in a
fresh venv, pip 23.2), ``pip install --dry-run 'chatmem[server]'`` kept the installed
chatmem ("Requirement already satisfied") and added the extra's packages; but with
``-U``, in an environment where chatmem is only imported from a checkout (PYTHONPATH),
or with a ``pip`` of another environment, it installed chatmem 0.1.10 ("chatmem 0.1.10
does not provide the extra 'server'"). The hints name this chatmem's source instead.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from chatmem import extras
from chatmem.extras import UNKNOWN_SOURCE, install_hint

try:
    import tomllib
except ImportError:  # Python 3.10
    tomllib = pytest.importorskip("tomli")

ROOT = Path(__file__).resolve().parent.parent
PYTHON = shlex.quote(sys.executable)


def test_no_message_in_src_installs_chatmem_by_name_or_an_extra_it_lacks() -> None:
    """`pip install 'chatmem[server]'` (and -U chatmem) installs PyPI's chatmem whenever
    pip does not find this one; every hint goes through install_hint, with an extra
    pyproject.toml declares."""
    declared = set(tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
                   ["optional-dependencies"])
    by_name = re.compile(r"chatmem\[|pip install (?:-\S+ )*'?chatmem\b")
    named = re.compile(r"install_hint\(\s*['\"]([^'\"]*)['\"]")
    wrong, unknown, hints = [], [], 0
    for path in sorted((ROOT / "src" / "chatmem").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        where = path.relative_to(ROOT)
        wrong += [f"{where}: {m.group(0)!r}" for m in by_name.finditer(text)]
        for extra in named.findall(text):
            hints += 1
            if extra not in declared:
                unknown.append(f"{where}: install_hint({extra!r})")
    assert not wrong, f"PyPI's chatmem is another project: {wrong}"
    assert not unknown, f"pyproject.toml declares {sorted(declared)}, not {unknown}"
    assert hints >= 8, hints


@pytest.mark.parametrize(("checkout", "record", "extra", "upgrade", "expected"), [
    # imported from a checkout not installed (PYTHONPATH=src): that checkout
    ("/src/chatmem", {}, "server", False, "'/src/chatmem[server]'"),
    # the editable install of that checkout stays editable
    ("/src/chatmem", {"url": "file:///src/chatmem", "dir_info": {"editable": True}},
     "ann", False, "-e '/src/chatmem[ann]'"),
    # an editable install of another checkout: the one this chatmem runs from
    ("/src/chatmem", {"url": "file:///other", "dir_info": {"editable": True}},
     "ann", False, "'/src/chatmem[ann]'"),
    # pip install /path/with space (site-packages): the folder it was installed from
    (None, {"url": "file:///home/me/chat%20mem", "dir_info": {}}, "qdrant", False,
     "'/home/me/chat mem[qdrant]'"),
    (None, {"url": "file:///home/me/chatmem", "dir_info": {}}, None, True,
     "/home/me/chatmem"),
    # from git: the same commit for an extra, the branch's head to upgrade
    (None, {"url": "https://example.org/chatmem.git",
            "vcs_info": {"vcs": "git", "commit_id": "abc123"}}, "mpnet", False,
     "'chatmem[mpnet] @ git+https://example.org/chatmem.git@abc123'"),
    (None, {"url": "https://example.org/mono.git", "subdirectory": "py",
            "vcs_info": {"vcs": "git", "commit_id": "abc123"}}, None, True,
     "'chatmem @ git+https://example.org/mono.git#subdirectory=py'"),
    (None, {"url": "https://example.org/mono.git", "subdirectory": "py",
            "vcs_info": {"vcs": "git", "commit_id": "abc123"}}, "server", False,
     "'chatmem[server] @ git+https://example.org/mono.git@abc123#subdirectory=py'"),
    # a wheel or sdist file
    (None, {"url": "file:///w/chatmem-0.1.0-py3-none-any.whl", "archive_info": {}},
     "langgraph", False, "'chatmem[langgraph] @ file:///w/chatmem-0.1.0-py3-none-any.whl'"),
    # nothing known (a wheel from an index): a placeholder the user fills, never the name
    (None, {}, "server", False, f"'{UNKNOWN_SOURCE}[server]'"),
])
def test_the_hint_installs_this_chatmem_into_this_environment(
        monkeypatch: pytest.MonkeyPatch, checkout: str | None, record: dict[str, object],
        extra: str | None, upgrade: bool, expected: str) -> None:
    monkeypatch.setattr(extras, "_checkout", lambda: None if checkout is None
                        else Path(checkout))
    monkeypatch.setattr(extras, "_direct_url", lambda: record)
    extras._source.cache_clear()
    try:
        assert install_hint(extra, upgrade=upgrade) == f"{PYTHON} -m pip install {expected}"
    finally:
        extras._source.cache_clear()


def test_this_checkout_is_found() -> None:
    """Run from this checkout (PYTHONPATH=src, or its editable install): its folder."""
    assert install_hint("server").endswith(shlex.quote(f"{ROOT}[server]"))
