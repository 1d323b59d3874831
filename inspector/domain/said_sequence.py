"""Steps reversed by the order of the telling alone: a rule fixes an order ("Migrate the database
first, then deploy") and the summary reports the two steps done, the later one first, with no
order word at all — "Deployed v2. Migrated the database.", "Deployed v2 to production;
migrated the database.", a bullet list "- Deployed v2 / - Migrated the database", "已部署 v2。
已迁移数据库。", "部署了 v2，迁移了数据库。".

``said_order`` needs an order word ("then", "before", "然后", "先") or a numbered list. A
report told in plain sentences is read in the order it is told, so here, within one
paragraph (a blank line or a heading starts another; consecutive list items are one
paragraph), outside the value's own sentences:

- two *units* — sentences, or clauses cut at ";" / "；" / "，" / ", " — at most three apart;
- the first names only the later step, the second only the earlier one (by the same telling
  words ``said_order`` uses: stems, glosses);
- both report the step **done**: an English past form ("deployed", "ran", "completed") or a
  done word ("done", "finished"), Chinese "已"/"了"/"过"/"完成";
- no order or time word anywhere in the units from the first to the second ("then",
  "before", "after", "beforehand", "earlier", "already", "previously", "had been", "first",
  "先", "之前", "之后", "事先", "早已"…): such a text tells its order in words, which
  ``said_order`` reads;
- neither denies, hedges or plans ("not", "whether", "will", "planned", "下一步").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_order import Order, order_of
from inspector.domain.said_steps import denies, first_at, forms, side_at

_ORDER_WORDS = re.compile(
    r"(?<![a-z])(?:then|before|after|afterwards|afterward|beforehand|earlier|already|previously|prior|first|"
    r"firstly|second|secondly|finally|lastly|next|later|subsequently|followed|following|once|since|until|"
    r"had|meanwhile|simultaneously|in parallel|at the same time|while)(?![a-z])|->|→|=>|"
    r"先|再|然后|随后|接着|之后|以后|之前|以前|事先|提前|早已|早就|最后|首先|其次|同时|并行|后来|完成后|前")
_PLAN = re.compile(r"(?<![a-z])(?:will|going to|plan|plans|planned|planning|next step|todo|to do|should|must|"
                   r"need to|needs to|pending|scheduled)(?![a-z])|下一步|接下来|计划|准备|打算|将要|待|需要|应该")
_DONE_EN = re.compile(r"(?<![a-z])(?:[a-z]{2,}ed|ran|ran|wrote|built|did|made|shipped|rolled out|done|finished|"
                      r"complete|completed|succeeded|went|took|put|set up|upgraded)(?![a-z])")
_DONE_ZH = re.compile(r"已|了|过|完成|完毕")
_UNIT_CUT = re.compile(r"[;；，]|,\s+")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•+]|\d{1,2}[.)])\s+")
_HEADING = re.compile(r"^\s*(?:#{1,6}\s|\*\*[^*]+\*\*\s*$)")
_REACH = 3  # units apart, at most
# A bracketed label before a unit ("[evt:13 · assistant_message · untrusted]") tells nothing done.
_LABEL = re.compile(r"^\s*\[[^\]]{0,120}\]\s*")


@dataclass(frozen=True, slots=True)
class _Unit:
    text: str
    sentence: int
    paragraph: int


def told_reversed(said: Said, value: str) -> Hits | None:
    """Two units of one paragraph that report the value's later step done, then its earlier
    one, with no order word (see the module's docstring)."""
    order = order_of(value)
    if order is None:
        return None
    return said.remember(("told_reversed", value), lambda: _told_reversed(said, value, order))


def _units(said: Said) -> list[_Unit]:
    """The text's units in order, each with its sentence and paragraph (once per generation)."""
    return said.remember(("sequence_units",), lambda: _cut_units(said))


def _cut_units(said: Said) -> list[_Unit]:
    """The units, cut once per generation (see ``_units``)."""
    found = []
    text = said.text
    paragraph = 0
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]
    breaks = set()
    for n, start in enumerate(line_starts):
        line = text[start:line_starts[n + 1] - 1 if n + 1 < len(line_starts) else len(text)]
        if not line.strip() or _HEADING.match(line):
            breaks.add(start)
    for i, s in enumerate(said.sentences):
        if any(s.start <= b < s.end or b == s.start for b in breaks) or (
                i > 0 and any(said.sentences[i - 1].end <= b <= s.start for b in breaks)):
            paragraph += 1
        for part in _UNIT_CUT.split(s.text):
            if part.strip():
                found.append(_Unit(_LABEL.sub("", _LIST_ITEM.sub("", part.strip())), i, paragraph))
    return found


@lru_cache(maxsize=4096)
def _all_forms(words: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(f for w in words for f in forms(w))


def _names(text: str, words: tuple[str, ...]) -> bool:
    """The unit names the step itself: its first telling word, or two of its words ("字段" alone,
    the tail of "逐行校验价格字段", is not the validation step)."""
    return first_at(text, words[0]) >= 0 or sum(1 for w in words[1:] if first_at(text, w) >= 0) >= 2


def _done(text: str) -> bool:
    return bool(_DONE_EN.search(text) or _DONE_ZH.search(text))


def _told_reversed(said: Said, value: str, order: Order) -> Hits | None:
    flat = said.flat()
    if side_at(flat, order.first) < 0 or side_at(flat, order.then) < 0:
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    own = set(said.holding(v)) if v else set()
    units = [u for u in _units(said) if u.sentence not in own]
    then_forms = _all_forms(order.then)
    for a, first in enumerate(units):
        # A substring test first: most units name no form of the later step at all.
        if not any(f in first.text for f in then_forms):
            continue
        if not _names(first.text, order.then) or side_at(first.text, order.first) >= 0:
            continue
        for b in range(a + 1, min(len(units), a + 1 + _REACH)):
            later = units[b]
            if later.paragraph != first.paragraph:
                break
            if not _names(later.text, order.first) or side_at(later.text, order.then) >= 0:
                continue
            span = units[a:b + 1]
            if any(_ORDER_WORDS.search(u.text) or _PLAN.search(u.text) or denies(u.text) for u in span):
                break
            if not (_done(first.text) and _done(later.text)):
                break
            where = " … ".join(dict.fromkeys(said.stripped(said.sentences[u.sentence]) for u in (first, later)))
            return Hits([f"{order.then[0]} told before {order.first[0]}"], where)
    return None


__all__ = ["told_reversed"]
