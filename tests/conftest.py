from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

from chatmem.embedding import Embedder
from providers import RecordingProvider


@pytest.fixture(scope="session")
def local_embedder() -> Embedder:
    """The real default model, loaded once for the whole test session."""
    from chatmem.embedding import create_embedder

    return create_embedder()


@pytest.fixture
def bow_embedder() -> Embedder:
    return Embedder(RecordingProvider())
