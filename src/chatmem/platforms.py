"""Platform declarations: display labels of chat types, used by rendering (F6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field


@dataclass
class PlatformRegistry:
    """``memory.platforms.register("onebot", chat_types={"private": "私聊", "group": "群聊"})``

    A platform's own label for a chat type is shown as the place of a snippet
    when the session has no group name; undeclared types show the type name.
    """

    _labels: dict[tuple[str, str], str] = field(default_factory=dict)

    def register(self, platform: str, *, chat_types: Mapping[str, str]) -> None:
        if not isinstance(platform, str) or not platform:
            raise ValueError("platform must be a non-empty string")
        for chat_type, label in chat_types.items():
            if not isinstance(label, str) or not label:
                raise ValueError(f"label of chat type {chat_type!r} must be a non-empty string")
            self._labels[(platform, chat_type)] = label

    @property
    def chat_type_labels(self) -> Mapping[tuple[str, str], str]:
        return self._labels
