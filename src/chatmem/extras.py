"""The one place that says how to install chatmem's extras (``server``, ``multilingual``…).

chatmem installs from its source (README: ``pip install '.[server]'``); the ``chatmem``
on PyPI is another project, which an extra asked for by the name ``chatmem`` installs
whenever the ``chatmem`` in the environment of the ``pip`` on the PATH does not satisfy
it (chatmem imported from a checkout through ``PYTHONPATH``, a ``pip`` of another
environment, ``-U``): so every hint names where this chatmem came from, found as pip
recorded it (``direct_url.json``, PEP 610) or as the checkout it is imported from, and
the interpreter that runs it (``python -m pip``), so the command a message gives
installs this project into this environment.
"""

from __future__ import annotations

import functools
import json
import shlex
import sys
from importlib import metadata
from pathlib import Path
from urllib.parse import unquote, urlsplit

#: What a hint says when chatmem's source cannot be found (a wheel from a private index).
UNKNOWN_SOURCE = "<the chatmem source folder>"


def install_hint(extra: str | None = None, *, upgrade: bool = False) -> str:
    """The command that installs chatmem's ``extra`` (or, with None, chatmem itself).

    ``python -m pip install '/path/to/checkout[server]'`` (``-e`` kept for an editable
    install; a VCS or archive install as a direct reference, ``<name>[server] @ <url>``,
    its commit kept unless ``upgrade``); never the extra of the name alone, which is
    PyPI's other project as soon as pip does not find this one installed.
    """
    python = shlex.quote(sys.executable) if sys.executable else "python"
    editable, source, url, pin = _source()
    suffix = f"[{extra}]" if extra else ""
    if url is not None:
        commit, _, fragment = pin.partition("#")
        url += ("" if upgrade else commit) + (f"#{fragment}" if fragment else "")
        target = shlex.quote(f"chatmem{suffix} @ {url}")
    else:
        target = shlex.quote(f"{source}{suffix}")
    return f"{python} -m pip install {'-e ' if editable else ''}{target}"


@functools.cache
def _source() -> tuple[bool, str, str | None, str]:
    """(editable, local folder, URL, pin): where this chatmem was installed from.

    The folder is set for a local directory (the URL is then None); the URL for a VCS
    or archive install, with the pin that names the installed commit (``@<commit>``,
    before any ``#subdirectory=``) for a VCS one; neither known: :data:`UNKNOWN_SOURCE`.
    """
    checkout = _checkout()
    record = _direct_url()
    dir_info = record.get("dir_info")
    local = _local_dir(record) if isinstance(dir_info, dict) else None
    editable = isinstance(dir_info, dict) and dir_info.get("editable") is True
    if checkout is not None:
        # imported from a checkout: installed from it in editable mode, or not at all
        return editable and local == checkout, str(checkout), None, ""
    if local is not None:
        return editable, str(local), None, ""
    url = record.get("url")
    if not isinstance(url, str) or not url:
        return False, UNKNOWN_SOURCE, None, ""
    pin = ""
    vcs = record.get("vcs_info")
    if isinstance(vcs, dict) and isinstance(vcs.get("vcs"), str):
        url = f"{vcs['vcs']}+{url}"
        if isinstance(vcs.get("commit_id"), str):
            pin = f"@{vcs['commit_id']}"
    subdirectory = record.get("subdirectory")
    if isinstance(subdirectory, str):
        # pip reads the pin before the fragment: url@commit#subdirectory=…
        return False, UNKNOWN_SOURCE, url, f"{pin}#subdirectory={subdirectory}"
    return False, UNKNOWN_SOURCE, url, pin


def _checkout() -> Path | None:
    """The source tree (``src/chatmem`` under a pyproject.toml) chatmem runs from."""
    package = Path(__file__).resolve().parent
    if package.parent.name != "src":
        return None
    root = package.parent.parent
    try:
        text = (root / "pyproject.toml").read_text(encoding="utf-8")
    except OSError:
        return None
    return root if 'name = "chatmem"' in text else None


def _direct_url() -> dict[str, object]:
    """The installed distribution's direct_url.json (PEP 610), or {}."""
    try:
        text = metadata.distribution("chatmem").read_text("direct_url.json")
        record = json.loads(text) if text else {}
    except (metadata.PackageNotFoundError, ValueError, OSError):
        return {}
    return record if isinstance(record, dict) else {}


def _local_dir(record: dict[str, object]) -> Path | None:
    url = record.get("url")
    if not isinstance(url, str):
        return None
    parts = urlsplit(url)
    if parts.scheme != "file":
        return None
    path = Path(unquote(parts.path))
    if isinstance(record.get("subdirectory"), str):
        path = path / str(record["subdirectory"])
    return path.resolve()
