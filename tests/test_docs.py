"""Documentation stays true: every CLI command and every configuration field is in README."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from pydantic import BaseModel

from chatmem.config import Config

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def fields(model: type[BaseModel], prefix: str = "") -> list[str]:
    out = []
    for name, info in model.model_fields.items():
        dotted = f"{prefix}{name}"
        ann: Any = info.annotation
        if not (isinstance(ann, type) and issubclass(ann, BaseModel)) or ann.__name__ == "Window":
            out.append(dotted)  # a leaf (sections are documented through their fields)
        for candidate in getattr(ann, "__args__", (ann,)):
            if isinstance(candidate, type) and issubclass(candidate, BaseModel) \
                    and candidate.__name__ != "Window":
                out.extend(fields(candidate, dotted + "."))
    return out


def test_every_configuration_field_is_documented_with_its_default() -> None:
    missing = [f for f in fields(Config) if f"`{f}`" not in README]
    assert not missing, f"undocumented configuration fields: {missing}"


def test_the_tool_is_documented() -> None:
    assert "`memory_recall`" in README and "tool_schema()" in README
