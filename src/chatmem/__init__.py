"""chatmem: semantic long-term memory for chat agents."""

from ._version import __version__
from .client import AsyncClient, Client
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

# The HTTP client is exported directly: it needs only httpx, which ``import chatmem``
# loads anyway (the embedding providers use it), so this costs no extra import.
__all__ = [
    "AsyncClient",
    "ChatmemError",
    "Client",
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
