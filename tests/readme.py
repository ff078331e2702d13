"""The README as tests read it: its sections and Python examples, and a way to run one
as a user would (a fresh interpreter with this checkout's ``src`` on the path)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def section(title: str) -> str:
    """The README text under ``title`` up to the next heading of the same level or above
    (``##`` at most: a ``# `` line inside a code block is a comment, not a heading)."""
    level = title.split(" ")[0]
    start = README.index(f"\n{title}\n")
    ends = [i for i in (README.find(f"\n{'#' * n} ", start + len(title) + 2)
                        for n in range(2, len(level) + 1)) if i != -1]
    return README[start:min(ends) if ends else len(README)]


def python_blocks(text: str = README) -> list[str]:
    """The ```python blocks of ``text``, in order."""
    return re.findall(r"```python\n(.*?)```", text, re.S)


def run_example(code: str, cwd: Path, env: Mapping[str, str]) -> subprocess.CompletedProcess[str]:
    """Run ``code`` in a new interpreter in ``cwd`` with ``env`` added to the environment."""
    path = os.pathsep.join([str(ROOT / "src"), os.environ.get("PYTHONPATH", "")])
    return subprocess.run([sys.executable, "-c", code], cwd=cwd,
                          env={**os.environ, **env, "PYTHONPATH": path},
                          capture_output=True, text=True, timeout=300)
