"""Traditional Chinese characters read as simplified ones, for the cue words of a recall.

The question cues of :mod:`chatmem.recall.query` ("现在", "什么时候", "几个", "你让我…")
and the answer types of :mod:`chatmem.recall.rank` ("周五", "两个", "改成"…) are written
in simplified characters. A user in Hong Kong or Taiwan writes "現在", "什麼時候",
"幾個", "你讓我", "週五", "兩個", "改成": the same words, and they must ask the same.
:func:`fold_traditional` maps the traditional form of every character those patterns
use to its simplified form, one character for one, so that a match found in the
folded text covers the same span of the original text (``role_cue`` cuts the cue
words out of the query the channels search, which keeps the user's own characters).

Only the characters of the cue patterns are here, not a whole conversion table: the
searched text is never folded (full-text search and the embedding see what the user
wrote), so a character no pattern uses would change nothing: ``tests/test_hanzi.py``
fails on an entry no pattern reads, and asks traditional questions of every kind
what their simplified twins ask.
"""

from __future__ import annotations

#: Traditional → simplified, one character each (a character whose two forms are the
#: same needs no entry). Keep in step with the cue patterns of ``query.py`` and
#: ``rank.py``.
TRADITIONAL_TO_SIMPLIFIED = {
    "萬": "万", "兩": "两", "個": "个", "為": "为", "麼": "么", "麽": "么", "倆": "俩",
    "會": "会", "兒": "儿", "幾": "几", "剛": "刚", "勸": "劝", "辦": "办", "雙": "双",
    "變": "变", "號": "号", "後": "后", "嗎": "吗", "國": "国", "塊": "块", "頭": "头",
    "對": "对", "層": "层", "歲": "岁", "幫": "帮", "慶": "庆", "開": "开", "張": "张",
    "當": "当", "換": "换", "時": "时", "機": "机", "來": "来", "點": "点", "現": "现",
    "禮": "礼", "終": "终", "經": "经", "給": "给", "節": "节", "薦": "荐", "覺": "觉",
    "讓": "让", "議": "议", "講": "讲", "訴": "诉", "說": "说", "貴": "贵", "過": "过",
    "還": "还", "這": "这", "遠": "远", "遲": "迟", "裡": "里", "裏": "里", "長": "长",
    "問": "问", "陣": "阵", "週": "周", "邊": "边", "錢": "钱", "間": "间", "話": "话",
    "條": "条", "隻": "只", "輛": "辆", "場": "场", "頓": "顿", "聽": "听", "尋": "寻",
    "於": "于", "臺": "台", "願": "愿", "沒": "没",
}
_TABLE = str.maketrans(TRADITIONAL_TO_SIMPLIFIED)


def fold_traditional(text: str) -> str:
    """``text`` with the traditional characters of the cue words in their simplified
    form (:data:`TRADITIONAL_TO_SIMPLIFIED`); the same length, character for
    character."""
    return text.translate(_TABLE)
