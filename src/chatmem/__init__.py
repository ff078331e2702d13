"""chatmem: semantic long-term memory for chat agents."""

from ._version import __version__
from .config import Config
from .embedding import Embedder, SyncEmbedder
from .errors import (
    ChatmemError,
    ConfigError,
    EmbeddingUnavailable,
    FilterError,
    InvalidInput,
    NotFound,
    PermissionDenied,
    RecallUnavailable,
    ScopeError,
    StoreError,
)
from .memory import Memory, SyncMemory
from .models import Erased, Message, MessagePage, Session
from .recall import Hit, RecallResult

__all__ = [
    "ChatmemError",
    "Config",
    "ConfigError",
    "Embedder",
    "EmbeddingUnavailable",
    "Erased",
    "FilterError",
    "Hit",
    "InvalidInput",
    "Memory",
    "Message",
    "MessagePage",
    "NotFound",
    "PermissionDenied",
    "RecallResult",
    "RecallUnavailable",
    "ScopeError",
    "Session",
    "StoreError",
    "SyncEmbedder",
    "SyncMemory",
    "__version__",
]
