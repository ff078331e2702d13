#!/usr/bin/env python3
# -*- coding: utf-8 -*-
"""Validate bench/data/zh_chat.json (stdlib only).

Usage:
    python3 bench/data/validate_zh_chat.py [path/to/zh_chat.json]

Checks structure, id uniqueness, gold existence, size limits, per-session timestamp
order, that no question text appears verbatim in (or as) any message, and that every
gold message was visible to the asker (own private chat, or a group the asker posted in).
Prints counts per conversation and per question type. Exit code 1 on any error.
"""
import json
import re
import sys
from collections import Counter, defaultdict
from datetime import datetime
from pathlib import Path

QTYPES = ("paraphrase", "lexical", "temporal", "multi_hop", "update")
PLATFORMS = {"qq", "wechat", "webui"}
MSG_MIN, MSG_MAX = 120, 200          # messages per conversation
SESS_MIN, SESS_MAX = 4, 8            # sessions per conversation
SPK_MIN, SPK_MAX = 3, 6              # human speakers per conversation
Q_PER_CONV_MIN, Q_TOTAL_MIN = 20, 120
LEN_MIN, LEN_SOFT_MAX = 5, 80        # characters; longer messages are allowed but counted


def _bigrams(text):
    t = re.sub(r"\s+", "", text.lower())
    return {t[i:i + 2] for i in range(len(t) - 1)}


def main(path):
    data = json.loads(Path(path).read_text(encoding="utf-8"))
    errors, warnings = [], []

    def err(msg):
        errors.append(msg)

    if data.get("version") != 1:
        err("version must be 1")
    if data.get("language") != "zh":
        err("language must be 'zh'")

    convs = data.get("conversations", [])
    questions = data.get("questions", [])
    if len(convs) != 5:
        err(f"expected 5 conversations, got {len(convs)}")

    all_ids = set()
    msg_index = {}                     # message id -> (conv id, session, message)
    contents = []
    conv_stats = {}
    role_counter = Counter()
    lengths = []
    long_msgs = 0

    def unique(kind, ident):
        if ident in all_ids:
            err(f"duplicate id ({kind}): {ident}")
        all_ids.add(ident)

    for conv in convs:
        cid = conv["id"]
        unique("conversation", cid)
        speakers = {s["id"]: s["name"] for s in conv["speakers"]}
        humans = [s for s in speakers if s != "bot"]
        if speakers.get("bot") != "小助手":
            err(f"{cid}: bot speaker must be id 'bot' named 小助手")
        if not SPK_MIN <= len(humans) <= SPK_MAX:
            err(f"{cid}: {len(humans)} human speakers (want {SPK_MIN}-{SPK_MAX})")
        sessions = conv["sessions"]
        if not SESS_MIN <= len(sessions) <= SESS_MAX:
            err(f"{cid}: {len(sessions)} sessions (want {SESS_MIN}-{SESS_MAX})")
        n_msgs = 0
        first_ts, last_ts = None, None
        for sess in sessions:
            sid = sess["id"]
            unique("session", sid)
            if not sid.startswith(cid + "-"):
                err(f"{sid}: session id should start with {cid}-")
            if sess.get("platform") not in PLATFORMS:
                err(f"{sid}: unknown platform {sess.get('platform')}")
            ctype = sess.get("chat_type")
            if ctype == "group":
                if not sess.get("group_id") or not sess.get("group_name"):
                    err(f"{sid}: group session needs group_id and group_name")
            elif ctype != "private":
                err(f"{sid}: chat_type must be group or private")
            prev = None
            posters = set()
            for m in sess["messages"]:
                mid = m["id"]
                unique("message", mid)
                msg_index[mid] = (cid, sess, m)
                n_msgs += 1
                for key in ("ts", "role", "speaker_id", "speaker_name", "content"):
                    if key not in m:
                        err(f"{mid}: missing {key}")
                try:
                    ts = datetime.fromisoformat(m["ts"])
                except ValueError:
                    err(f"{mid}: bad timestamp {m['ts']}")
                    continue
                if not m["ts"].endswith("+08:00"):
                    err(f"{mid}: timestamp must carry +08:00")
                if prev is not None and ts <= prev:
                    err(f"{mid}: timestamp not increasing within {sid}")
                prev = ts
                first_ts = ts if first_ts is None or ts < first_ts else first_ts
                last_ts = ts if last_ts is None or ts > last_ts else last_ts
                spk = m["speaker_id"]
                if spk not in speakers:
                    err(f"{mid}: unknown speaker {spk}")
                elif speakers[spk] != m["speaker_name"]:
                    err(f"{mid}: speaker_name mismatch")
                expected_role = "assistant" if spk == "bot" else "user"
                if m["role"] != expected_role:
                    err(f"{mid}: role {m['role']} but speaker {spk}")
                role_counter[m["role"]] += 1
                if spk != "bot":
                    posters.add(spk)
                for men in m.get("mentions", []):
                    if men not in speakers:
                        err(f"{mid}: mention of unknown speaker {men}")
                    elif "@" + speakers[men] not in m["content"]:
                        err(f"{mid}: mention {men} not present as @name in content")
                n = len(m["content"])
                lengths.append(n)
                if n < LEN_MIN:
                    err(f"{mid}: content shorter than {LEN_MIN} chars: {m['content']!r}")
                if n > LEN_SOFT_MAX:
                    long_msgs += 1
                contents.append(m["content"])
            sess["_posters"] = posters
            if ctype == "private" and len(posters) != 1:
                err(f"{sid}: private session should have exactly one human, got {sorted(posters)}")
        if not MSG_MIN <= n_msgs <= MSG_MAX:
            err(f"{cid}: {n_msgs} messages (want {MSG_MIN}-{MSG_MAX})")
        span_days = (last_ts - first_ts).days if first_ts else 0
        if span_days < 14:
            err(f"{cid}: spans only {span_days} days")
        conv_stats[cid] = {"sessions": len(sessions), "messages": n_msgs, "span_days": span_days,
                           "humans": len(humans)}

    # ---- questions
    sessions_by_id = {s["id"]: s for c in convs for s in c["sessions"]}
    q_by_conv = Counter()
    q_by_type = Counter()
    q_by_conv_type = defaultdict(Counter)
    q_gold_in_other_session = 0
    q_gold_bot = 0
    qtexts = set()
    overlap_by_type = defaultdict(list)   # share of question char-bigrams found in its gold(s)
    for q in questions:
        qid = q["id"]
        unique("question", qid)
        cid = q["conversation"]
        if cid not in conv_stats:
            err(f"{qid}: unknown conversation {cid}")
            continue
        if q["type"] not in QTYPES:
            err(f"{qid}: bad type {q['type']}")
        q_by_conv[cid] += 1
        q_by_type[q["type"]] += 1
        q_by_conv_type[cid][q["type"]] += 1
        text = q["question"].strip()
        if not text:
            err(f"{qid}: empty question")
        if text in qtexts:
            err(f"{qid}: duplicate question text")
        qtexts.add(text)
        for c_ in contents:
            if text == c_.strip() or text in c_:
                err(f"{qid}: question appears verbatim in a message: {c_!r}")
        sess = sessions_by_id.get(q["session"])
        if sess is None or not q["session"].startswith(cid + "-"):
            err(f"{qid}: bad session {q['session']}")
            continue
        if q["asker_id"] not in sess["_posters"]:
            err(f"{qid}: asker {q['asker_id']} does not take part in {q['session']}")
        golds = q["gold"]
        if not golds or len(set(golds)) != len(golds):
            err(f"{qid}: gold must be a non-empty list of distinct ids")
        if q["type"] == "multi_hop" and len(golds) != 2:
            err(f"{qid}: multi_hop needs exactly 2 gold messages")
        if q["type"] != "multi_hop" and len(golds) != 1:
            err(f"{qid}: non multi_hop question should have 1 gold message")
        qgrams = _bigrams(text)
        gold_grams = set()
        for g in golds:
            if g in msg_index:
                gold_grams |= _bigrams(msg_index[g][2]["content"])
        if qgrams:
            overlap_by_type[q["type"]].append(len(qgrams & gold_grams) / len(qgrams))
        for g in golds:
            if g not in msg_index:
                err(f"{qid}: gold {g} does not exist")
                continue
            gcid, gsess, gmsg = msg_index[g]
            if gcid != cid:
                err(f"{qid}: gold {g} is in another conversation")
            if gsess["id"] != q["session"]:
                q_gold_in_other_session += 1
            if gmsg["role"] == "assistant":
                q_gold_bot += 1
            # visibility: the asker must have been able to see the gold message
            if gsess["chat_type"] == "private":
                if gsess["_posters"] != {q["asker_id"]}:
                    err(f"{qid}: gold {g} is in someone else's private chat")
            elif q["asker_id"] not in gsess["_posters"]:
                err(f"{qid}: asker never took part in group {gsess['id']} holding gold {g}")

    for cid, n in q_by_conv.items():
        if n < Q_PER_CONV_MIN:
            err(f"{cid}: only {n} questions (want >= {Q_PER_CONV_MIN})")
    if len(questions) < Q_TOTAL_MIN:
        err(f"only {len(questions)} questions (want >= {Q_TOTAL_MIN})")
    for t in QTYPES:
        if q_by_type[t] == 0:
            err(f"no questions of type {t}")

    # ---- report
    total_msgs = sum(s["messages"] for s in conv_stats.values())
    bot_share = role_counter["assistant"] / max(1, total_msgs)
    print(f"file: {path}")
    print(f"conversations: {len(convs)}  sessions: {sum(s['sessions'] for s in conv_stats.values())}  "
          f"messages: {total_msgs}  questions: {len(questions)}")
    print(f"assistant messages: {role_counter['assistant']} ({bot_share:.1%})  "
          f"user messages: {role_counter['user']}")
    lengths.sort()
    print(f"message length (chars): min {lengths[0]}  median {lengths[len(lengths) // 2]}  "
          f"max {lengths[-1]}  >{LEN_SOFT_MAX}: {long_msgs}")
    print(f"gold messages in a different session than the question: {q_gold_in_other_session}; "
          f"gold messages written by the assistant: {q_gold_bot}")
    print()
    header = f"{'conv':<6}{'sess':>5}{'msgs':>6}{'days':>6}{'qs':>5}  " + "".join(f"{t:>11}" for t in QTYPES)
    print(header)
    for cid, st in conv_stats.items():
        row = f"{cid:<6}{st['sessions']:>5}{st['messages']:>6}{st['span_days']:>6}{q_by_conv[cid]:>5}  "
        row += "".join(f"{q_by_conv_type[cid][t]:>11}" for t in QTYPES)
        print(row)
    print(f"{'total':<6}{'':>5}{total_msgs:>6}{'':>6}{len(questions):>5}  "
          + "".join(f"{q_by_type[t]:>11}" for t in QTYPES))
    print("mean share of question char-bigrams that also occur in the gold message(s):")
    print("  " + "  ".join(f"{t} {sum(v) / len(v):.2f}" for t in QTYPES
                            for v in [overlap_by_type[t]] if v))
    print()
    for w in warnings:
        print("WARNING:", w)
    if errors:
        for e in errors:
            print("ERROR:", e)
        print(f"\n{len(errors)} error(s)")
        return 1
    print("OK: all checks passed")
    return 0


if __name__ == "__main__":
    default = Path(__file__).with_name("zh_chat.json")
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else default))
