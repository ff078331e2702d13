"""Text analysis shared by the full-text index and the recall pipeline (X1).

One tokenizer for documents *and* queries, so that both sides of a BM25 match
agree on what a token is; it sits below both :mod:`chatmem.store` (which stores
the tokens) and :mod:`chatmem.recall` (which weighs dense against lexical
scores by the query's script, :func:`cjk_share`).

Tokenizer (:func:`tokenize`), after NFKC normalisation (full-width → ASCII), case
folding and dropping the invisible characters that do not end a word (soft hyphens,
zero-width joiners, bidi marks, variation selectors: :func:`_unicode_patterns`):

* a run of CJK characters (Han, kana, Hangul) → its overlapping character
  bigrams, then each of its characters (unigrams; a one-character run gives
  just that character). Unigrams are weighed lower by BM25
  (:data:`chatmem.store.bm25.CHAR_WEIGHT`): they let ``报账单`` find ``报销单``
  without letting single characters dominate;
* a number directly followed by a CJK character also yields the pair
  (``3月27号`` → ``3``, ``3月``, ``27``, ``27号``, …): dates, times, prices and
  counts are what chat questions ask about;
* Latin (and other alphabetic) words, with the marks written on their letters (the
  vowel signs of Devanagari or Thai, Hebrew points) → lowercased, accents dropped; common
  English function words (checked on the word and on its plural-stripped form,
  never on the stem) and single letters are dropped; a word that is then plain
  ASCII letters is reduced to its Snowball English (Porter2) stem
  (``flights`` → ``flight``, ``painting``/``painted`` → ``paint``, ``alex's`` →
  ``alex``), one of more than 64 letters kept whole; other alphabetic words get a
  light English plural strip;
* numbers stay whole (``3.2`` is one token), as do letters mixed with digits
  (``g2193``, ``test2``);
* everything else (punctuation, emoji) only separates tokens.
"""

from __future__ import annotations

import functools
import itertools
import re
import threading
import unicodedata

import snowballstemmer

#: Bump when :func:`tokenize` changes: stored token rows are rebuilt on open.
#: 3: marks belong to their word, invisible format characters are dropped.
#: 4: an ASCII word longer than :data:`_STEM_WORD_MAX` letters is kept whole, not stemmed.
TOKENIZER_VERSION = 4

_CJK = (
    "\u3040-\u30ff"  # hiragana, katakana
    "\u3400-\u4dbf"  # CJK extension A
    "\u4e00-\u9fff"  # CJK unified ideographs
    "\uf900-\ufaff"  # compatibility ideographs
    "\uac00-\ud7af"  # Hangul syllables
    "\U00020000-\U0003134f"  # extensions B–G
)


def _class_of(chars: list[str]) -> str:
    """A regular-expression character class body matching exactly ``chars`` (sorted)."""
    runs: list[list[int]] = []
    for c in map(ord, chars):
        if runs and runs[-1][1] == c - 1:
            runs[-1][1] = c
        else:
            runs.append([c, c])
    return "".join(re.escape(chr(a)) if a == b else f"{re.escape(chr(a))}-{re.escape(chr(b))}"
                   for a, b in runs)


#: Characters that only choose a glyph: variation selectors (Mongolian, standard,
#: supplement) and the combining grapheme joiner.
_GLYPH_SELECTORS = frozenset(map(chr, itertools.chain(
    range(0x180B, 0x1810), range(0xFE00, 0xFE10), range(0xE0100, 0xE01F0), (0x034F,))))


#: Where marks and format characters can be: the BMP and the SMP, without the blocks
#: that are full of other characters (CJK ideographs, Hangul syllables, surrogates and
#: private use), and plane 14's tags and variation selectors (planes 2 and 3 hold only
#: ideographs). Scanned once, at the first text that is not ASCII (some 30-50 ms).
_SCANNED = (range(0x80, 0x3400), range(0xA000, 0xAC00), range(0xD7B0, 0xD800),
            range(0xF900, 0x20000), range(0xE0000, 0xE1000))


def _marks_and_ignored() -> tuple[str, str]:
    """The character class bodies of the marks and of the ignored characters."""
    marks: list[str] = []
    ignored: list[str] = []
    for c in map(chr, itertools.chain(*_SCANNED)):
        category = unicodedata.category(c)
        if (category == "Cf" and c != "\u200b") or c in _GLYPH_SELECTORS:
            ignored.append(c)
        elif category.startswith("M"):
            marks.append(c)
    return _class_of(marks), _class_of(ignored)


@functools.cache
def _unicode_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """The ignored characters' pattern and the tokens' pattern for text that is not
    ASCII, made at the first such text (the scan of Unicode takes some 30-50 ms, which
    every ``import chatmem`` paid before; ASCII text never needs it).

    Marks (Mn, Mc, Me) are not ``\\w``, so a word was cut at each: Hindi ``हिन्दी``
    gave no token at all, Thai ``คิดถึง`` only ``ดถ``, ``İstanbul`` (``i`` and a dot
    above once folded) ``stanbul``. A word takes the marks that follow its letters.

    Invisible characters that never end a word (UAX #29 rule WB4: format characters,
    and :data:`_GLYPH_SELECTORS`) are dropped before tokenizing: a soft hyphen, a
    zero-width joiner or non-joiner, a bidi mark or a byte order mark inside a word
    cut it in two (``hyphen\\u00adation``). The zero-width space is a word break and
    stays one."""
    marks, ignored = _marks_and_ignored()
    return re.compile(f"[{ignored}]+"), re.compile(
        rf"(?P<cjk>[{_CJK}]+)"
        r"|(?P<num>\d+(?:\.\d+)+)"
        rf"|(?P<word>[^\W_{_CJK}]+(?:[{marks}]+[^\W_{_CJK}]*)*)")


#: The tokens' pattern for ASCII text, which holds no CJK and no marks: looking for a mark
#: at the end of every word made tokenizing English a fifth slower.
_ASCII_TOKEN_RE = re.compile(r"(?P<num>\d+(?:\.\d+)+)|(?P<word>[^\W_]+)")
#: One CJK character (the scripts :func:`tokenize` cuts into bigrams).
CJK_CHAR_RE = re.compile(rf"[{_CJK}]")
#: A run of letters of the other scripts (no digits, no CJK).
NON_CJK_WORD_RE = re.compile(rf"[^\W\d_{_CJK}]+")
_LETTER_RE = re.compile(rf"[^\W\d_{_CJK}]")

#: English function words: near-zero IDF anyway, and they make OR queries slow.
STOPWORDS: frozenset[str] = frozenset({
    "a", "an", "the", "and", "or", "but", "if", "of", "at", "by", "for", "with", "about", "to",
    "from", "in", "on", "into", "over", "under", "up", "down", "out", "off", "than", "then",
    "so", "too", "very", "can", "will", "just", "do", "does", "did", "doing", "done", "is",
    "am", "are", "was", "were", "be", "been", "being", "have", "has", "had", "having", "i",
    "me", "my", "we", "our", "you", "your", "he", "him", "his", "she", "her", "it", "its",
    "they", "them", "their", "this", "that", "these", "those", "what", "which", "who", "whom",
    "whose", "when", "where", "why", "how", "all", "any", "both", "each", "few", "more",
    "most", "other", "some", "such", "no", "nor", "not", "only", "own", "same", "s", "t",
    "don", "should", "now",
})


#: Most cached word stems (a chat vocabulary is far smaller; the cache stops growing here).
_STEM_CACHE_MAX = 200_000
#: Longest word that is stemmed (and so cached: a message may be one word of 200,000
#: letters, and cached, 500 such messages held 200 MB for the life of the process). A
#: longer one is kept whole: Snowball's English prelude rewrites the whole word for each
#: "y" it marks, so a word's time grows with the square of its length (199,000 "y" took
#: 9 s of CPU, per add and per query); English words are under 50 letters.
_STEM_WORD_MAX = 64
_stem_cache: dict[str, str] = {}
#: Most cached non-ASCII word foldings, and the longest word cached: bounded as the stem
#: cache is (50,000 words of 24 characters are at most about 20 MB, however hostile).
_FOLD_CACHE_MAX = 50_000
_FOLD_WORD_MAX = 24
_fold_cache: dict[str, str | None] = {}
_stemmers = threading.local()  # a Snowball stemmer keeps state: one per thread


def _stem(word: str) -> str:
    """The Snowball English (Porter2) stem of a lowercase ASCII word of at most
    :data:`_STEM_WORD_MAX` letters, cached."""
    stem = _stem_cache.get(word)
    if stem is None:
        stemmer = getattr(_stemmers, "english", None)
        if stemmer is None:
            stemmer = _stemmers.english = snowballstemmer.stemmer("english")
        stem = stemmer.stemWord(word)
        if len(_stem_cache) < _STEM_CACHE_MAX:
            _stem_cache[word] = stem
    return stem


def _strip_plural(word: str) -> str:
    """Drop an English plural ending (``flights`` → ``flight``, ``cities`` → ``city``)."""
    if len(word) > 3 and word.isalpha():
        if word.endswith("ies") and not word.endswith(("eies", "aies")):
            return word[:-3] + "y"
        if word.endswith("es") and word.endswith(("sses", "xes", "ches", "shes", "zes")):
            return word[:-2]
        if word.endswith("s") and not word.endswith(("ss", "us", "is")):
            return word[:-1]
    return word


def _fold(word: str) -> str | None:
    """A word that is not ASCII, folded: its accents stripped (combining marks, and
    enclosing ones such as a keycap's), then :func:`_fold_plain`. The marks that are
    letters of their script (a Devanagari vowel sign: ``कम`` is not ``काम``) stay.

    A word of at most :data:`_FOLD_WORD_MAX` characters is folded once and cached
    (:data:`_fold_cache`): decomposing it, testing it mark by mark and stripping its
    plural cost about 12 µs a word, and one character can be four words under NFKC
    (U+FDFA), so a message of 200,000 of them took 2.5-4.3 s of CPU in every add and
    query holding it (about half of that now; ``python bench/tokenizer.py``).
    """
    if word in _fold_cache:
        return _fold_cache[word]
    folded = _fold_plain(_drop_marks(word))
    if len(word) <= _FOLD_WORD_MAX and len(_fold_cache) < _FOLD_CACHE_MAX:
        _fold_cache[word] = folded
    return folded


def _drop_marks(word: str) -> str:
    """``word`` without its combining and enclosing marks (accents, a keycap's)."""
    return "".join(c for c in unicodedata.normalize("NFKD", word)
                   if not unicodedata.combining(c) and unicodedata.category(c) != "Me")


def _fold_plain(word: str) -> str | None:
    """A word without marks, folded: ``None`` for a function word, else its Snowball
    stem (ASCII letters) or, for other words, its plural-stripped form.

    Function words are looked up on the word and on its plural-stripped form, not
    on the stem: ``owned`` stems to ``own`` and ``willing`` to ``will``, and both stay.
    """
    light = _strip_plural(word)
    if word in STOPWORDS or light in STOPWORDS:
        return None
    if word.isascii() and word.isalpha():
        return _stem(word) if len(word) <= _STEM_WORD_MAX else word
    return light


def tokenize(text: str) -> list[str]:
    """The tokens of ``text`` in order (with repeats); the same for documents and queries.

    A CJK run gives its bigrams and then its characters (unigrams, see
    :func:`is_char`): the index weighs a character match lower.
    """
    text = unicodedata.normalize("NFKC", text).casefold()
    tokens_re = _ASCII_TOKEN_RE
    if not text.isascii():
        ignored_re, tokens_re = _unicode_patterns()
        text = ignored_re.sub("", text)
    out: list[str] = []
    pending_num: str | None = None  # a number waiting for a following CJK character
    last_end = -1
    for m in tokens_re.finditer(text):
        kind = m.lastgroup
        s = m.group()
        adjacent = m.start() == last_end
        last_end = m.end()
        if kind == "cjk":
            if pending_num is not None and adjacent:
                out.append(pending_num + s[0])
            pending_num = None
            out.extend(s[i:i + 2] for i in range(len(s) - 1))
            out.extend(s)
            continue
        pending_num = None
        if kind == "num" or s.isdigit():
            out.append(s)
            pending_num = s
            continue
        if s.isascii():
            if not s.isalpha():
                # letters with digits: a code or a model name (g2193, test2, ps5)
                out.append(s)
                continue
            word = _fold_plain(s)
        else:
            word = _fold(s)
        if word is None or (len(word) == 1 and not word.isdigit()):
            continue
        out.append(word)
    return out


def is_char(token: str) -> bool:
    """A CJK unigram: full-text search weighs it below a word or a bigram."""
    return len(token) == 1 and CJK_CHAR_RE.match(token) is not None


#: Chinese function characters (pronouns, particles, question words, copulas), dropped
#: as single-character *query* terms: a question is full of them ("我上次说的是哪个"),
#: and each matches thousands of messages while saying nothing about the topic.
#: Documents keep them (the index is unchanged), so no stored row is rebuilt.
CJK_QUERY_STOPCHARS: frozenset[str] = frozenset(
    "我你他她它的了吗呢吧啊呀是在有和就都也还说过么哪谁几这那个一不没很要会能想给让被把对"
    "跟与及或啥嘛之着得地又再才上下些")
#: Chinese function words and question phrases, dropped as two-character query terms.
CJK_QUERY_STOPWORDS: frozenset[str] = frozenset({
    "我们", "你们", "他们", "她们", "什么", "怎么", "怎样", "哪里", "哪儿", "哪个", "哪些",
    "哪家", "哪位", "多少", "可以", "一下", "一个", "这个", "那个", "这些", "那些", "时候",
    "之前", "以前", "上次", "的话", "现在", "还是", "然后", "就是", "因为", "所以", "已经",
    "还有",
})


def query_terms(text: str) -> list[str]:
    """The distinct tokens of a query, in first-seen order, without Chinese function
    characters and words (:data:`CJK_QUERY_STOPCHARS`, :data:`CJK_QUERY_STOPWORDS`)
    unless nothing else is left.

    Chosen on the dev splits of ``bench/quality.py`` (README § Recall quality): on the
    Chinese sets Hit@5 rose by 2–4 points each and knowledge updates from 0.46 to 0.69;
    segmenting the query with a dictionary (jieba) to drop bigrams that cross word
    boundaries scored lower than these lists alone."""
    terms = list(dict.fromkeys(tokenize(text)))
    kept = [t for t in terms
            if not ((len(t) == 1 and t in CJK_QUERY_STOPCHARS) or t in CJK_QUERY_STOPWORDS)]
    return kept or terms


def _script_counts(text: str) -> tuple[int, int]:
    """CJK characters and other letters of ``text`` (digits, marks and emoji are
    neither)."""
    return len(CJK_CHAR_RE.findall(text)), len(_LETTER_RE.findall(text))


def letter_count(text: str) -> int:
    """Letters of ``text``, CJK characters included."""
    return sum(_script_counts(text))


def cjk_share(text: str) -> float:
    """Share of CJK characters among the letters of ``text`` (0 when it has none)."""
    cjk, other = _script_counts(text)
    return cjk / (cjk + other) if cjk + other else 0.0


def by_script(text: str, other: float, cjk: float) -> float:
    """``cjk`` for CJK text, ``other`` for the rest; mixed text gets the average weighted
    by its :func:`cjk_share` (how per-script settings apply to a query)."""
    share = cjk_share(text)
    return share * cjk + (1.0 - share) * other

