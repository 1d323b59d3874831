"""A value kept word for word inside structure that cancels it (verdict-five).

The negation rules read a cancelling word in the value's sentence, the next one, or a clause
naming its subject. Structure carries the same meaning without any such sentence:

- a **label over a list or a section** — a heading ("## Superseded"), a line ending in a colon
  ("Rules we no longer follow:", "- Dropped:", "不再遵守的规则：", a JSON key rendered as
  ``lifted constraints:``), or a label that is a bare "Not:" — holding a lifting word; every
  line under it, until a blank line (for a heading: the next heading), is cancelled;
- a **record's status field** — a ``key: value`` line of the same list item or JSON object as
  the value, whose key says whether it holds ("active", "status", "applies", "in force", "有效",
  "状态") and whose value says it does not ("false", "no", "waived", "void", "已作废");
- a **table column** — a cell beside the value, under a header that says whether it holds
  ("status", "still applies", "有效"), that says it does not.

Read as ``protected_negated`` in drift and ``contradicted`` in survival (both ask
``negated_value``). Not read: a label that says the rules hold ("Rules we follow:", "Still
applies:"), "Never:" or "Don't:" over a list (a prohibition's own label), an open item under
"Not done yet:" (open issues are judged by the done claims, not here).
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_lifted import negated_or_lifted

# A label's lifting words (English whole words, Chinese substrings), and what keeps a label from lifting.
_LIFTING = re.compile(
    r"\b(?:no longer|superseded|obsolete|dropped|removed|withdrawn|retracted|revoked|rescinded|waived|lifted|void|"
    r"voided|deprecated|cancell?ed|abandoned|discarded|ignored|not followed|not in force|invalid|inactive|"
    r"struck|scrapped|overridden|overruled|lapsed|expired|archived?|retired)\b|不再|作废|废弃|已取消|取消的|撤销|撤回|放弃|"
    r"失效|无效|过时|归档")
_UPHOLDS = re.compile(r"\b(?:still|remain|remains)\b|仍|依然")
_BARE_NOT = re.compile(r"(?:#+\s*)?(?:[-*]\s*)?(?:not|non-rules?|不是|并非)\s*[:：]?")
_LABEL = re.compile(r"(?:#{1,6}\s+.*|.*[:：])")
_HEADING = re.compile(r"#{1,6}\s")
_ITEM = re.compile(r"(?:[-*+]|\d+[.)])\s")
# A record's status field: key says whether it holds, value says it does not.
_FIELD = re.compile(r"(?:[-*+]\s+)?([^:：|]{1,40}?)\s*[:：]\s*(.{1,40})")
_TRUE = re.compile(r"(?:true|yes|y|✓|✔|是)\s*[.。]?")
_HOLDS_KEY = re.compile(r"\b(?:active|enabled|status|state|applies|apply|in force|valid|holds|kept|current|wanted|"
                        r"needed|required|relevant)\b|有效|状态|生效|需要")
_NEGATIVE = re.compile(r"(?:false|no|off|none|n|✗|✘|❌|否|不)\s*[.。]?|.*(?:" + _LIFTING.pattern + ").*")


def negated_anywhere(said: Said, value: str, others: tuple[tuple[str, str], ...] = (),
                     kind: str | None = None) -> Hits | None:
    """``negated_or_lifted``, else a value that stands under a cancelling label, beside a
    status field or in a table column that says it no longer holds."""
    found = negated_or_lifted(said, value, others, kind)
    if found is not None:
        return found
    core = _without_condition(value)
    if core:  # "除非用户要求，不要删除旧数据" is lifted by "旧数据随时可以删除" as its core is
        found = negated_or_lifted(said, core, others, kind)
        if found is not None and norm_phrase(value) not in found.sentence:
            return found
    v = norm_phrase(value)
    if not v or not said.remember(("structured",), lambda: _structured(said.text)) or v not in said.text:
        return None
    lines = said.remember(("lines",), lambda: said.text.split("\n"))
    for i, line in enumerate(lines):
        if v not in line:
            continue
        why = _under_label(lines, i) or _status_field(lines, i) or _table_cell(lines, i, v)
        if why:
            return Hits([why], line.strip())
    return None


_CONDITION = re.compile(r"^\s*(?:unless|除非)[^,，]*[,，]\s*|[,，]?\s*(?<![a-z])(?:unless|除非).*$", re.I)


@lru_cache(maxsize=4096)
def _without_condition(value: str) -> str:
    """The value less its condition ("Do not delete old rows unless the user asks" → "Do not
    delete old rows"), or "" when it has none."""
    core = _CONDITION.sub("", value).strip(" ,，。.")
    return core if core and core != value.strip(" ,，。.") else ""


def _structured(text: str) -> bool:
    """A text with more than one line and a label, a field or a table: the only kind these rules read."""
    return "\n" in text and (":" in text or "：" in text or "|" in text or "#" in text)


_DENIED = re.compile(r"(?<![a-z])(?:none|nothing|not|no|never|without|nor)\s+(?:\w+\s+)?$|(?:未|没有|没|并未|无)$")


def _lifting(text: str) -> re.Match[str] | None:
    """A lifting word not denied right before it ("none lifted", "not waived", "未取消" lift nothing)."""
    for m in _LIFTING.finditer(text):
        if not _DENIED.search(text[max(0, m.start() - 16):m.start()]):
            return m
    return None


def _label_lifts(line: str) -> str | None:
    t = line.strip()
    if _BARE_NOT.fullmatch(t):
        return t
    if not _LABEL.fullmatch(t) or _UPHOLDS.search(t):
        return None
    m = _lifting(t)
    return m.group(0) if m else None


def _under_label(lines: list[str], i: int) -> str | None:
    """The nearest label above line ``i`` in its block (a blank line ends a list's block; a
    heading's block runs to the next heading), when it lifts."""
    blank = False
    for j in range(i - 1, -1, -1):
        t = lines[j].strip()
        if not t:
            blank = True
            continue
        if _HEADING.match(t):
            return _label_lifts(t)
        if blank:
            return None
        if (t.endswith((":", "：")) or _BARE_NOT.fullmatch(t)) and "|" not in t:
            return _label_lifts(t)
        if not _ITEM.match(t) or not _ITEM.match(lines[i].strip()):
            return None  # a label's list is its items: a line of prose ends it
    return None


def _item_bounds(lines: list[str], i: int) -> tuple[int, int]:
    """The lines of the list item (or JSON object) holding line ``i``: from its ``-`` line, or
    the first line after a blank one or a label, to the line before the next of those."""
    lo = i
    while lo > 0 and not _ITEM.match(lines[lo].strip()) and lines[lo - 1].strip() \
            and not lines[lo - 1].strip().endswith((":", "：")):
        lo -= 1
    hi = i + 1
    while hi < len(lines) and lines[hi].strip() and not _ITEM.match(lines[hi].strip()) \
            and not lines[hi].strip().endswith((":", "：")):
        hi += 1
    return lo, hi


def _status_field(lines: list[str], i: int) -> str | None:
    lo, hi = _item_bounds(lines, i)
    for j in range(lo, hi):
        if j == i:
            continue
        m = _FIELD.fullmatch(lines[j].strip())
        if m and ((_HOLDS_KEY.search(m.group(1)) and _NEGATIVE.fullmatch(m.group(2).strip())
                   and (_LIFTING.search(m.group(2)) is None or _lifting(m.group(2)) is not None))
                  or (_LIFTING.search(m.group(1)) and _TRUE.fullmatch(m.group(2).strip()))):
            return f"{m.group(1).strip()}: {m.group(2).strip()}"  # "active: false", "obsolete: true"
    return None


def _cells(line: str) -> list[str] | None:
    t = line.strip()
    if not (t.startswith("|") and t.endswith("|")):
        return None
    return [c.strip() for c in t[1:-1].split("|")]


def _table_cell(lines: list[str], i: int, v: str) -> str | None:
    row = _cells(lines[i])
    if row is None:
        return None
    k = i
    while k > 0 and _cells(lines[k - 1]) is not None:
        k -= 1
    header = _cells(lines[k])
    if header is None or k == i or len(header) != len(row):
        return None
    for h, cell in zip(header, row, strict=True):
        if v not in cell and _HOLDS_KEY.search(h) and _NEGATIVE.fullmatch(cell) and (
                _LIFTING.search(cell) is None or _lifting(cell) is not None):
            return f"{h}: {cell}"
    return None
