"""Making differences visible: spaces and combining marks shown, and a word diff of two texts."""

from __future__ import annotations

import difflib
import re
import unicodedata

from textual.content import Content

from inspector.ui.safe import markup, plain


def visible(text: str) -> str:
    """Spaces as ␠, tabs as ⇥, and a dotted circle before each combining mark (e◌́)."""
    out: list[str] = []
    for ch in text:
        if ch == " ":
            out.append("␠")
        elif ch == "\t":
            out.append("⇥")
        elif unicodedata.combining(ch):
            out.append("◌" + ch)
        else:
            out.append(ch)
    return "".join(out)


# A word, a run of spaces, one CJK character (those scripts put no space between words), or any
# other single character: a summary is prose, and a diff by character read as nonsense —
# "The agent creatRed docs/blue.md … Thnen itver pushed" for two sentences that share letters.
_TOKEN = re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]|\w+|\s+|.", re.DOTALL)


def word_diff(old: str, new: str) -> Content:
    """``old`` → ``new`` word by word: removed words struck in $error, added ones in $success.
    A space is never what holds the two texts together (junk to the matcher): matched alone, it
    interleaved every word ("The Red agent appended; created never …")."""
    a, b = _TOKEN.findall(old), _TOKEN.findall(new)
    parts: list[Content] = []
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(str.isspace, a, b, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(plain("".join(a[a0:a1])))
            continue
        if a1 > a0:
            parts.append(markup("[strike $error]$t[/]", t="".join(a[a0:a1])))
        if b1 > b0:
            parts.append(markup("[b $success]$t[/]", t="".join(b[b0:b1])))
    return Content("").join(parts)
