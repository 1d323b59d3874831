"""Making invisible differences visible: spaces, combining marks, and a character diff."""

from __future__ import annotations

import difflib
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


def char_diff(old: str, new: str) -> Content:
    """``old`` → ``new`` as one line: removed text struck in $error, added text in $success."""
    parts: list[Content] = []
    for op, a0, a1, b0, b1 in difflib.SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        if op == "equal":
            parts.append(plain(old[a0:a1]))
            continue
        if a1 > a0:
            parts.append(markup("[strike $error]$t[/]", t=old[a0:a1]))
        if b1 > b0:
            parts.append(markup("[b $success]$t[/]", t=new[b0:b1]))
    return Content("").join(parts)
