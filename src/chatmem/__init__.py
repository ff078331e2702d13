"""chatmem: semantic long-term memory for chat agents."""

from .config import Config
from .embedding import Embedder
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
from .memory import Hit, Memory, RecallResult, SyncMemory
from .models import Message, Session

__version__ = "0.1.0"

__all__ = [
    "ChatmemError",
    "Config",
    "ConfigError",
    "Embedder",
    "EmbeddingUnavailable",
    "FilterError",
    "Hit",
    "InvalidInput",
    "Memory",
    "Message",
    "NotFound",
    "PermissionDenied",
    "RecallResult",
    "RecallUnavailable",
    "ScopeError",
    "Session",
    "StoreError",
    "SyncMemory",
    "__version__",
]
