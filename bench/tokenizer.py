"""The full-text tokenizer (``chatmem.text.tokenize``) on chat text of several scripts.

    python bench/tokenizer.py [--repeat 5] [--out bench/results/tokenizer.json]

Every add (the full-text entry of each message) and every recall (the query) tokenizes
its text. For each text, in one process: the tokenizer as it is, with the non-ASCII
fold cache (``text._fold_cache``, warm after the first run, as in a running store), and
as it was before, every non-ASCII word decomposed, tested mark by mark and
plural-stripped wherever it occurs (the same code with an empty cache of bound 0 in
its place). Median ms of CPU of ``--repeat`` runs each, before and now alternating
(``_common.alternating_ms``), the tokens checked equal. The texts are made here (no
data file): chat lines of made-up words per script, 200,000 characters each
(``MAX_CONTENT_CHARS``, the longest message), and the same length of U+FDFA, one
character that NFKC expands to four Arabic words (the costliest text found).
"""

from __future__ import annotations

import argparse
import random
from functools import partial
from typing import Any

from _common import alternating_ms, machine, print_table, write_json
from chatmem import text
from chatmem.models import MAX_CONTENT_CHARS

WORDS: dict[str, list[str]] = {
    "English (ASCII: stem cache, unchanged)": [
        "remember", "the", "flight", "we", "booked", "to", "lisbon", "and", "the", "hotel",
        "near", "station"],
    "French / German (accents)": [
        "café", "crème", "déjà", "réservé", "hôtel", "gare", "für", "grüße", "schön", "müde",
        "straße"],
    "Russian (Cyrillic)": [
        "привет", "помнишь", "билеты", "которые", "мы", "купили", "до", "москвы"],
    "Chinese (CJK: bigrams, no fold)": ["我们", "订了", "去杭州的", "高铁票", "周六出发"],
}


def chat_text(words: list[str], seed: int) -> str:
    rng = random.Random(seed)
    out: list[str] = []
    size = 0
    while size < MAX_CONTENT_CHARS:
        line = " ".join(rng.choice(words) for _ in range(rng.randint(4, 12))) + ". "
        out.append(line)
        size += len(line)
    return "".join(out)[:MAX_CONTENT_CHARS]


def without_cache(sample: str) -> list[str]:
    """``tokenize(sample)`` as before the fold cache: none kept (its bound 0, an empty
    cache in its place), the running store's cache put back after."""
    kept, bound = text._fold_cache, text._FOLD_CACHE_MAX
    text._fold_cache, text._FOLD_CACHE_MAX = {}, 0
    try:
        return text.tokenize(sample)
    finally:
        text._fold_cache, text._FOLD_CACHE_MAX = kept, bound


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--out", default="bench/results/tokenizer.json")
    args = ap.parse_args()
    samples = {name: chat_text(words, i) for i, (name, words) in enumerate(WORDS.items())}
    samples["U+FDFA x 200,000 (NFKC: 3.6M characters, 800k words)"] = \
        "\ufdfa" * MAX_CONTENT_CHARS
    rows: list[dict[str, Any]] = []
    for name, sample in samples.items():
        text._fold_cache.clear()
        tokens = text.tokenize(sample)  # warms the cache, as a running store's is
        before, now = alternating_ms(partial(without_cache, sample),
                                     partial(text.tokenize, sample), args.repeat)
        rows.append({"text": name, "chars": len(sample), "tokens": len(tokens),
                     "before_ms": round(before, 1), "now_ms": round(now, 1),
                     "ratio": round(now / before, 3)})
    print_table("tokenize() of one 200,000-character message, median ms "
                "(before: no fold cache; same process)",
                ["text", "tokens", "before ms", "now ms", "now / before"],
                [[r["text"], r["tokens"], r["before_ms"], r["now_ms"], r["ratio"]]
                 for r in rows])
    write_json(args.out, {"machine": machine(), "store": "none (the tokenizer alone)",
                          "model": "none", "repeat": args.repeat, "rows": rows})


if __name__ == "__main__":
    main()
