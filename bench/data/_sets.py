"""What the data generators (``make_companion.py``, ``make_group.py``) share: one set of
conversations and questions in the common JSON format, written to ``bench/data``."""
import json
import re
from pathlib import Path

HERE = Path(__file__).parent
#: Question types; ``update`` questions (and only they) carry ``stale`` ids.
QTYPES = {"paraphrase", "lexical", "temporal", "multi_hop", "update"}
#: ``== YYYY-MM-DD HH:MM``: a new day in a generator's text.
DAY_RE = re.compile(r"^== (\d{4}-\d{2}-\d{2} \d{2}:\d{2})$")
BOT = {"en": "Assistant", "zh": "小助手"}
TZ = {"en": "+01:00", "zh": "+08:00"}


def build_set(specs, lang, build_conv, qid_prefix):
    """Every conversation of ``specs`` built by ``build_conv(lang, *spec)``; questions
    numbered ``<qid_prefix>q001`` … across the set."""
    conversations, questions = [], []
    for spec in specs:
        c, qs = build_conv(lang, *spec)
        conversations.append(c)
        for q in qs:
            questions.append({"id": f"{qid_prefix}q{len(questions) + 1:03d}", **q})
    return {"version": 1, "language": lang, "conversations": conversations,
            "questions": questions}


def write_set(data, name):
    """Write ``bench/data/<name>.json`` and say what it holds."""
    out = HERE / f"{name}.json"
    out.write_text(json.dumps(data, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    n_msg = sum(len(s["messages"]) for c in data["conversations"] for s in c["sessions"])
    print(f"wrote {out} ({len(data['conversations'])} conversations, {n_msg} messages, "
          f"{len(data['questions'])} questions)")
