"""Platform declarations: display labels of chat types, used by rendering (F6)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from .errors import InvalidInput
from .refusals import describe


def _text(value: object) -> bool:
    return isinstance(value, str) and bool(value.strip())


@dataclass
class PlatformRegistry:
    """``memory.platforms.register("onebot", chat_types={"private": "私聊", "group": "群聊"})``

    A platform's own label for a chat type is shown as the place of a snippet
    when the session has no group name; undeclared types show the type name.
    """

    _labels: dict[tuple[str, str], str] = field(default_factory=dict)

    def register(self, platform: str, *, chat_types: Mapping[str, str]) -> None:
        """Declare ``platform``'s labels, chat type → label (text each). A wrong argument
        is :class:`~chatmem.errors.InvalidInput` naming it, and registers none of them."""
        if not _text(platform):
            raise InvalidInput("platforms.register platform must be a non-empty string, "
                               f"got {describe(platform)}")
        if not isinstance(chat_types, Mapping):
            raise InvalidInput("platforms.register chat_types must be a mapping of chat type "
                               "to label, such as {'private': 'private chat'}, got "
                               f"{describe(chat_types)}")
        for chat_type, label in chat_types.items():
            if not _text(chat_type):
                raise InvalidInput("platforms.register: each chat type must be a non-empty "
                                   f"string, got {describe(chat_type)}")
            if not _text(label):
                raise InvalidInput(f"platforms.register: the label of chat type "
                                   f"{describe(chat_type)} must be a non-empty string, got "
                                   f"{describe(label)}")
        self._labels.update({(platform, t): label for t, label in chat_types.items()})

    @property
    def chat_type_labels(self) -> Mapping[tuple[str, str], str]:
        return self._labels
