"""Encode only the start of a long text that a local ONNX model keeps.

A message holds up to 200,000 characters and a local model keeps its first
``max_length`` tokens (128 to 512). Encoding the whole text and then truncating
spent about half of an add or a query of a long message in the tokenizer (100 ms
or more of CPU for 200,000 characters of English with all-MiniLM-L6-v2, whose 256
tokens cover about 1,300 of them). :class:`TokenCut` gives the tokenizer a
prefix of the text instead, cut where the tokens of the prefix are provably the
first tokens of the whole text, and only when that prefix yields at least as
many tokens as the model keeps: the kept ids, so the vectors, are the same bit
for bit.

Where a text may be cut (a *boundary* ``b``: the content tokens of ``text`` are
those of ``text[:b]`` followed by others) follows from how a ``tokenizers``
pipeline works: added tokens are split out of the raw text, each remaining
segment is normalised, split into words by the pre-tokenizer, each word is
encoded by the model alone, and the post-processor adds special tokens. So a
boundary is a place that no added token, normaliser step or pre-tokenizer rule
reads across, and where the pre-tokenizer always splits. That is read from the
tokenizer's configuration, for the components whose behaviour is known; any
other component, and a text with no boundary early enough, is encoded whole as
before:

* ``bert`` (BertNormalizer or none, BertPreTokenizer: all-MiniLM-L6-v2,
  all-mpnet-base-v2, bge-small-zh): the normaliser works one character at a
  time (control characters removed, whitespace made a space, CJK ideographs
  spaced, NFD and non-spacing marks removed, lowercase per character), and the
  words are split at whitespace and around punctuation. A boundary is a
  whitespace character, the place after an ASCII punctuation character, or
  after a CJK ideograph (when the normaliser spaces them). Long words that
  become ``[UNK]``, runs of whitespace and combining marks all stay on one
  side of such a place.
* ``spaced`` (SentencePiece-style and others: Precompiled, NFKC and the like,
  lowercase, accent stripping, Strip, Prepend, Replace of runs of spaces;
  Metaspace that splits, ByteLevel with its regex, Whitespace, Punctuation,
  Digits): a single space between two *plain* characters (letters and digits
  of the scripts below U+0D00, CJK ideographs, kana, Hangul syllables, all
  assigned since Unicode 3.2). None of these steps reads across it: such a
  character is a grapheme of its own beside a space (Precompiled maps
  graphemes), a space composes with nothing (NFC/NFKC), no run of spaces
  includes it, and every listed pre-tokenizer ends a word at it. When the
  tokenizer loads, its normaliser is checked to map every plain character to
  something that is neither empty nor holds whitespace, and to keep the
  spaces between them: a charsmap that does otherwise turns the cut off.

In both, no added token may hold whitespace (nor, for the places after a
character, that character), so none straddles a boundary; a WordPiece, Unigram,
WordLevel or BPE model without dropout encodes each word alone.

The first prefix tried is :data:`CHARS_PER_TOKEN` characters a kept token, cut
at the last boundary before that; one that yields too few tokens is followed by
one at least twice as long, until a prefix would reach half the text, which is
then encoded whole. A text under twice the first prefix is encoded whole at
once. So the prefixes that fail add up to less than the text: at worst (a text whose
first half yields fewer tokens than are kept, such as one long word and then a
few others) the cost is under twice what it was, and the ids are the same.
"""

from __future__ import annotations

import json
import logging
import re
import string
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from typing import Any

import numpy as np
import numpy.typing as npt

log = logging.getLogger("chatmem.embedding.tokencut")

#: The first prefix tried is this many characters per token the model keeps (English
#: chat text runs about 5 characters a WordPiece token, French 3, Chinese and Russian
#: about 1.3): one prefix is enough for most texts.
CHARS_PER_TOKEN = 6
#: A failed prefix's token density predicts the next one's length, with this margin.
MARGIN = 1.25

#: BertNormalizer's CJK ranges (tokenizers' ``is_chinese_char``), as ``(first, last)``.
_BERT_CJK = ((0x4E00, 0x9FFF), (0x3400, 0x4DBF), (0x20000, 0x2A6DF), (0x2A700, 0x2B73F),
             (0x2B740, 0x2B81F), (0x2B920, 0x2CEAF), (0xF900, 0xFAFF), (0x2F800, 0x2FA1F))
#: Kana and Hangul syllables: letters that are graphemes of their own beside a space.
_KANA_HANGUL = ((0x3041, 0x3096), (0x30A1, 0x30FA), (0xAC00, 0xD7A3))
_LETTERS = frozenset({"Lu", "Ll", "Lt", "Lo", "Nd"})
#: The whitespace a ``bert`` boundary stands before (Python and Rust agree on these).
_WHITESPACE = frozenset(" \t\n\r")

_BERT_NORMALIZERS = frozenset({"BertNormalizer"})
_SPACED_NORMALIZERS = frozenset({"BertNormalizer", "NFC", "NFD", "NFKC", "NFKD", "Lowercase",
                                 "StripAccents", "Precompiled", "Strip", "Prepend"})
#: Pre-tokenizers that always end a word at a space, and ones that only split further.
_SPACE_SPLITTERS = frozenset({"BertPreTokenizer", "Whitespace", "WhitespaceSplit",
                              "Metaspace", "ByteLevel"})
_LOCAL_SPLITTERS = frozenset({"Punctuation", "Digits"})
_MODELS = frozenset({"WordPiece", "WordLevel", "Unigram", "BPE"})
_POST_PROCESSORS = frozenset({"TemplateProcessing", "RobertaProcessing", "BertProcessing",
                              "ByteLevel"})


def _assigned_since_3_2(c: str, categories: frozenset[str]) -> bool:
    """``c`` has one of ``categories`` now and had one in Unicode 3.2 (a character every
    Unicode table a tokenizer may carry knows)."""
    return (unicodedata.category(c) in categories
            and unicodedata.ucd_3_2_0.category(c) in categories)


def _chars(ranges: Iterable[tuple[int, int]], keep: Callable[[str], bool]) -> list[str]:
    return [chr(cp) for lo, hi in ranges for cp in range(lo, hi + 1) if keep(chr(cp))]


@cache
def _char_class(chars: tuple[str, ...]) -> str:
    """A regular-expression class (without brackets) of exactly ``chars``."""
    cps = sorted({ord(c) for c in chars})
    parts: list[str] = []
    i = 0
    while i < len(cps):
        j = i
        while j + 1 < len(cps) and cps[j + 1] == cps[j] + 1:
            j += 1
        parts.append(f"\\U{cps[i]:08x}" if i == j else f"\\U{cps[i]:08x}-\\U{cps[j]:08x}")
        i = j + 1
    return "".join(parts)


@cache
def plain_chars() -> tuple[str, ...]:
    """The characters a ``spaced`` boundary's space stands between."""
    def keep(c: str) -> bool:
        return _assigned_since_3_2(c, _LETTERS)
    return tuple(_chars(((0x30, 0x0CFF), *_BERT_CJK, *_KANA_HANGUL), keep))


@cache
def bert_cjk_chars() -> tuple[str, ...]:
    """The CJK ideographs BertNormalizer spaces (assigned since Unicode 3.2: one a
    tokenizer's older tables do not know is removed as unassigned, not spaced)."""
    return tuple(_chars(_BERT_CJK, lambda c: _assigned_since_3_2(c, frozenset({"Lo"}))))


def _types(component: Any, key: str) -> list[dict[str, Any]]:
    """The steps of a normaliser / pre-tokenizer / post-processor, Sequences flattened."""
    if component is None:
        return []
    if component.get("type") == "Sequence":
        return [step for part in component.get(key, []) for step in _types(part, key)]
    return [component]


def _has_space(text: str) -> bool:
    return any(c.isspace() for c in text)


def _bert(config: dict[str, Any]) -> str | None:
    """The boundary pattern of a ``bert`` tokenizer, or None if it is not one."""
    normalizer, pre = config.get("normalizer"), config.get("pre_tokenizer")
    if normalizer is not None and normalizer.get("type") not in _BERT_NORMALIZERS:
        return None
    if pre is None or pre.get("type") != "BertPreTokenizer":
        return None
    added = config.get("added_tokens") or []
    # no added token may hold the character a boundary stands after; one matched in the
    # normalised text may also match a character normalised into one of its own (a
    # compatibility ideograph into a CJK one), so one with non-ASCII turns CJK off
    in_added = {c for token in added for c in str(token.get("content", ""))}
    chars = [*_WHITESPACE, *(c for c in string.punctuation if c not in in_added)]
    if (normalizer is not None and normalizer.get("handle_chinese_chars", True)
            and not any(token.get("normalized") and not str(token.get("content", "")).isascii()
                        for token in added)):
        chars += [c for c in bert_cjk_chars() if c not in in_added]
    return f"[{_char_class(tuple(chars))}]"


def _spaced(config: dict[str, Any], normalize: Callable[[str], str] | None) -> str | None:
    """The boundary pattern of a ``spaced`` tokenizer, or None if it is not one."""
    for step in _types(config.get("normalizer"), "normalizers"):
        kind = step.get("type")
        if kind == "Replace":
            pattern, content = step.get("pattern", {}), str(step.get("content", ""))
            if pattern.get("Regex") == " {2,}":
                continue
            literal = pattern.get("String")
            if (isinstance(literal, str) and literal and content
                    and not _has_space(literal + content) and "\u2581" not in literal + content):
                continue
            return None
        if kind not in _SPACED_NORMALIZERS:
            return None
    splits_at_spaces = False
    for step in _types(config.get("pre_tokenizer"), "pretokenizers"):
        kind = step.get("type")
        if kind == "Metaspace" and step.get("split", True) is False:
            return None
        if kind == "ByteLevel" and step.get("use_regex", True) is False:
            return None
        if kind in _SPACE_SPLITTERS:
            splits_at_spaces = True
        elif kind not in _LOCAL_SPLITTERS:
            return None
    if not splits_at_spaces:
        return None
    plain = plain_chars()
    if normalize is not None:
        pieces = normalize(" ".join(plain)).split(" ")
        if len(pieces) != len(plain) or any(not p or _has_space(p) for p in pieces):
            log.debug("the normaliser changes plain characters or the spaces between them")
            return None
    cls = _char_class(plain)
    return f"(?<=[{cls}]) (?=[{cls}])"


def boundary_pattern(config: dict[str, Any], normalize: Callable[[str], str] | None
                     ) -> re.Pattern[str] | None:
    """Where a text may be cut for the tokenizer of ``config`` (its ``tokenizer.json``),
    or None when it may not be cut anywhere: a pattern matching one character, the
    boundary before it when it is whitespace, after it when not
    (:meth:`TokenCut.boundaries`). ``normalize`` is the normaliser's ``normalize_str``
    (None if it has none)."""
    model = config.get("model") or {}
    if model.get("type") not in _MODELS or model.get("dropout") not in (None, 0, 0.0):
        return None
    if any(step.get("type") not in _POST_PROCESSORS
           for step in _types(config.get("post_processor"), "processors")):
        return None
    for token in config.get("added_tokens") or []:
        content = str(token.get("content", ""))
        if _has_space(content) or (token.get("normalized") and normalize is not None
                                   and _has_space(normalize(content))):
            return None
    found = _bert(config) or _spaced(config, normalize)
    return None if found is None else re.compile(found)


class TokenCut:
    """How one loaded tokenizer (truncating at ``max_length``, padding to the batch's
    longest) encodes texts, a long one from a prefix that yields the same kept ids."""

    def __init__(self, pattern: re.Pattern[str] | Callable[[], re.Pattern[str] | None] | None,
                 max_length: int, pad_id: int, *,
                 chars_per_token: int = CHARS_PER_TOKEN) -> None:
        """``pattern``: the boundaries' (None: texts are encoded whole), or what reads it
        from the tokenizer when a long text first needs it (about 100 ms, which a
        process that embeds only short texts, a CLI call, never spends)."""
        self._pattern = None if callable(pattern) else pattern
        self._find = pattern if callable(pattern) else None
        self.max_length = max_length
        self.pad_id = pad_id
        #: Length of the first prefix tried, per token kept; a text under twice that
        #: is encoded whole.
        self.first_chars = chars_per_token * max_length

    @classmethod
    def for_tokenizer(cls, tokenizer: Any, max_length: int) -> TokenCut:
        """Read ``tokenizer``'s configuration (a ``tokenizers.Tokenizer`` already set to
        truncate at ``max_length`` and pad to the longest)."""
        def find() -> re.Pattern[str] | None:
            config = json.loads(tokenizer.to_str())
            normalizer = tokenizer.normalizer
            pattern = boundary_pattern(
                config, None if normalizer is None else normalizer.normalize_str)
            if pattern is None:
                log.info("this tokenizer encodes long texts whole (no place to cut them "
                         "known)")
            return pattern

        pad = tokenizer.padding or {}
        return cls(find, max_length, int(pad.get("pad_id", 0)))

    @property
    def pattern(self) -> re.Pattern[str] | None:
        """The boundaries' pattern, read on first use (two threads reading it at once
        both compute the same)."""
        if self._find is not None:
            self._pattern = self._find()
            self._find = None
        return self._pattern

    def boundaries(self, text: str, start: int = 0, end: int | None = None
                   ) -> Iterator[int]:
        """The boundaries of ``text`` found by matches of :attr:`pattern` in
        ``text[start:end]``: a match is one character, and the boundary is before it if
        it is whitespace, after it if not."""
        assert self.pattern is not None
        for m in self.pattern.finditer(text, start, len(text) if end is None else end):
            yield m.start() if text[m.start()] in _WHITESPACE else m.end()

    def last_boundary(self, text: str, end: int, floor: int = 0) -> int:
        """The last boundary ``b`` of ``text`` with ``floor < b <= end``, or 0 if none."""
        span, hi = 256, end
        while hi > floor:
            lo = max(floor, hi - span)
            best = 0
            # a match ends at most one character after its boundary, and a lookahead
            # reads one more
            for b in self.boundaries(text, max(0, lo - 1), min(len(text), hi + 2)):
                if floor < b <= hi:
                    best = b
            if best:
                return best
            hi, span = lo, span * 4
        return 0

    def encode_one(self, tokenizer: Any, text: str) -> Any:
        """``tokenizer.encode(text)``, from the shortest boundary prefix tried that
        yields ``max_length`` ids (at least as many content tokens as are kept)."""
        end, seen = self.first_chars, 0
        while self.pattern is not None and 2 * end < len(text):
            b = self.last_boundary(text, end, seen)
            seen = end  # no boundary after b up to here; none looked for twice
            if b:
                enc = tokenizer.encode(text[:b])
                if len(enc.ids) >= self.max_length:
                    return enc
                # the next prefix: at least twice as long, as long as this one's density
                # of tokens says is enough
                end = max(2 * end, int(b * MARGIN * self.max_length / max(len(enc.ids), 1)))
            else:
                end *= 2
        return tokenizer.encode(text)

    def encode(self, tokenizer: Any, texts: Sequence[str]) -> list[Any]:
        """The encodings of ``texts``: as ``tokenizer.encode_batch`` gives them, except
        that a long text's comes from a prefix, unpadded (:meth:`arrays` pads)."""
        limit = 2 * self.first_chars
        # the length test first: the pattern is read only once a long text comes
        if all(len(t) <= limit for t in texts) or self.pattern is None:
            return list(tokenizer.encode_batch(list(texts)))
        short = [i for i, t in enumerate(texts) if len(t) <= limit]
        out: list[Any] = [None] * len(texts)
        if short:
            for i, enc in zip(short, tokenizer.encode_batch([texts[i] for i in short])):
                out[i] = enc
        return [self.encode_one(tokenizer, t) if enc is None else enc
                for t, enc in zip(texts, out)]

    def arrays(self, encodings: Sequence[Any]
               ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64]]:
        """Ids and attention mask, padded on the right to the longest with the pad id and
        0, as the tokenizer pads a batch."""
        width = max((len(e.ids) for e in encodings), default=0)
        ids = np.full((len(encodings), width), self.pad_id, dtype=np.int64)
        mask = np.zeros((len(encodings), width), dtype=np.int64)
        for row, enc in enumerate(encodings):
            ids[row, :len(enc.ids)] = enc.ids
            mask[row, :len(enc.attention_mask)] = enc.attention_mask
        return ids, mask
