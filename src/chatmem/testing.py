"""Deterministic embeddings for your own tests, as httpx ships ``MockTransport``.

:class:`HashEmbeddingProvider` runs in-process, needs no model, no network and
no key, and gives the same vector for the same text on every machine. Its
vectors are hashed bags of words, so texts that share words are close and
recall finds them: a bot's test can add messages, recall, and check what came
back. It records every call (``calls``, ``attempted``) and the texts it embedded
(``texts``), and fails on cue, to test what a bot does while the embedding service
is down::

    from chatmem import Memory
    from chatmem.testing import HashEmbeddingProvider, embedder

    provider = HashEmbeddingProvider()
    async with await Memory.open("sqlite:///test.db", embedder=embedder(provider)) as mem:
        ...
        provider.fail_next(3)          # the next 3 calls raise EmbeddingUnavailable
        provider.recover()             # and calls succeed again

It is an ordinary provider behind the real :class:`~chatmem.embedding.Embedder`
(cache, batching, normalisation, status and callbacks all run as in
production). It is not a language model: words match only when spelt alike.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from .embedding import Capabilities, Embedder, EmbeddingProvider, EmbedRole
from .errors import EmbeddingUnavailable, InvalidInput
from .refusals import checked_number, describe

_WORD = re.compile(r"\w+")
#: The ``retry_decision`` values :meth:`HashEmbeddingProvider.fail_next` simulates.
DECISIONS = ("defer", "fail", "cooldown", "invalid")


def _count(value: object, name: str, least: int) -> int:
    return int(checked_number(InvalidInput, name, value, integer=True, least=least))


def hash_vector(text: str, dim: int) -> npt.NDArray[np.float32]:
    """The raw (unnormalised) vector of ``text``: one count per word, each word in the
    bucket its SHA-256 picks. A text without words gets a fixed vector."""
    if not isinstance(text, str):
        raise InvalidInput(f"hash_vector text must be a string, got {describe(text)}")
    vec = np.zeros(_count(dim, "hash_vector dim", 1), dtype=np.float32)
    for word in _WORD.findall(text.lower()):
        h = int.from_bytes(hashlib.sha256(word.encode()).digest()[:4], "little")
        vec[h % dim] += 1.0
    if not vec.any():
        vec[0] = 1.0
    return vec


class EmbedCall(NamedTuple):
    """One call the provider received: the batch and its role."""

    texts: list[str]
    role: EmbedRole


class HashEmbeddingProvider:
    """A deterministic in-process embedding provider for tests (see the module).

    ``dim``: vector size; ``model``: its model id is ``test:<model>`` (vectors of
    another model are another space, as in production); ``capabilities``: what it
    declares (default: no limits, no roles, not remote — pass
    ``Capabilities(remote=True)`` to make a memory treat it like a network service).
    """

    name = "test"

    def __init__(self, dim: int = 64, model: str = "hash", *,
                 capabilities: Capabilities | None = None) -> None:
        self.dim = _count(dim, "HashEmbeddingProvider dim", 1)
        if not isinstance(model, str) or not model:
            raise InvalidInput("HashEmbeddingProvider model must be a non-empty string (its "
                               f"model id is test:<model>), got {describe(model)}")
        if capabilities is not None and not isinstance(capabilities, Capabilities):
            raise InvalidInput("HashEmbeddingProvider capabilities must be a "
                               "chatmem.embedding.Capabilities, such as "
                               f"Capabilities(remote=True), got {describe(capabilities)}")
        self.model_id = f"{self.name}:{model}"
        self._capabilities = capabilities or Capabilities()
        #: Every call received, failed ones included, in order.
        self.calls: list[EmbedCall] = []
        self._embedded: list[str] = []
        #: Whether :meth:`aclose` was called.
        self.closed = False
        self._fail_next = 0
        self._decision = "defer"
        self._error: BaseException | None = None

    @property
    def dimensions(self) -> int:
        return self.dim

    @property
    def capabilities(self) -> Capabilities:
        return self._capabilities

    @property
    def texts(self) -> list[str]:
        """Every text embedded, in order: of the calls that returned vectors (a call
        made to fail by :meth:`fail_next` or :meth:`fail_with` embedded nothing)."""
        return list(self._embedded)

    @property
    def attempted(self) -> list[str]:
        """Every text of every call, failed ones included, in order (:attr:`calls`'
        texts): what the provider was asked for."""
        return [t for call in self.calls for t in call.texts]

    # ------------------------------------------------------------------ failing on cue

    def fail_next(self, n: int = 1, *, decision: str = "defer") -> None:
        """Make the next ``n`` calls raise :class:`EmbeddingUnavailable` with
        ``retry_decision=decision`` (``defer``: an outage, the indexer retries later;
        ``fail``: a configuration error; ``cooldown``; ``invalid``)."""
        _count(n, "fail_next n", 0)
        if decision not in DECISIONS:
            raise InvalidInput(f"fail_next decision must be one of {', '.join(DECISIONS)}, "
                               f"got {describe(decision)}")
        self._fail_next, self._decision = n, decision

    def fail_with(self, exc: BaseException) -> None:
        """Make every call raise ``exc`` until :meth:`recover` (the Embedder turns an
        exception that is not an :class:`EmbeddingUnavailable` into one)."""
        if not isinstance(exc, BaseException):
            raise InvalidInput("fail_with takes the exception each call raises, such as "
                               f"ConnectionError('down'), got {describe(exc)}")
        self._error = exc

    def recover(self) -> None:
        """Cancel :meth:`fail_next` and :meth:`fail_with`: calls succeed again."""
        self._fail_next, self._error = 0, None

    # ------------------------------------------------------------------ the provider

    def vector(self, text: str) -> npt.NDArray[np.float32]:
        """The raw vector of one text (the Embedder L2-normalises it)."""
        return hash_vector(text, self.dim)

    async def embed(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        self.calls.append(EmbedCall(list(texts), role))
        if self._error is not None:
            raise self._error
        if self._fail_next:
            self._fail_next -= 1
            raise EmbeddingUnavailable("simulated outage (HashEmbeddingProvider.fail_next)",
                                       provider=self.name, retry_decision=self._decision)
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        vectors = np.stack([self.vector(t) for t in texts])
        self._embedded.extend(texts)
        return vectors

    async def aclose(self) -> None:
        self.closed = True


def embedder(provider: HashEmbeddingProvider | None = None, /, **options: Any) -> Embedder:
    """An :class:`Embedder` over ``provider`` (default: a new
    :class:`HashEmbeddingProvider`); ``options`` are the Embedder's (``batch_size``,
    ``cache_enabled``, ``on_status``, ``on_error``, ``deadline``, …). The provider is
    ``embedder(...).provider``."""
    if provider is not None and not isinstance(provider, EmbeddingProvider):
        raise InvalidInput("embedder takes an embedding provider, such as "
                           f"HashEmbeddingProvider(), got {describe(provider)}")
    return Embedder(provider if provider is not None else HashEmbeddingProvider(), **options)


__all__ = ["EmbedCall", "HashEmbeddingProvider", "embedder", "hash_vector"]
