"""Steps reordered: a protected rule fixes an order ("migrate first, then deploy", "run the
migration only after the backup completes", "先迁移数据库，再部署") and the summary narrates
the two steps the other way round ("Deployed v2, then migrated the database", "We deployed
before migrating", "先部署了，然后迁移数据库", a numbered list with the deploy first).

The seed calls order an exact field ("精确字段包括……顺序"): the rule may stand verbatim in
the text while a later sentence says the steps ran reversed, and no cancelling word is
needed for that. Read:

- the value's order: "A before B", "before B, A", "B after A", "after A, B", "A first, then B",
  "first A, then B", "A, then B", "A → B"; "先A再B", "A之后(才)B", "B之前(先)A";
- a sentence (not the value's own) naming both steps with an order word between or around
  them ("then", "before", "after", "followed by", "first", "然后", "再", "之后", "之前", "先"),
  or a numbered list whose items name them, or two sentences where the second opens with
  "then/after that/然后/之后" — and the steps in the other order. A sentence that denies or
  hedges ("we will not deploy before migrating", "whether") says no order.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_steps import denies, side_at, telling_words


@dataclass(frozen=True, slots=True)
class Order:
    first: tuple[str, ...]  # telling words of the step that must come first
    then: tuple[str, ...]  # … and of the step that must come after it


_EN_SPLITS: tuple[tuple[re.Pattern[str], bool], ...] = (
    # (pattern with groups x and y, whether x comes first)
    (re.compile(r"^(?:only\s+)?after\s+(?P<x>.+?),\s*(?P<y>.+)$"), True),
    (re.compile(r"^(?:only\s+)?once\s+(?P<x>.+?),\s*(?P<y>.+)$"), True),
    (re.compile(r"^before\s+(?P<x>.+?),\s*(?P<y>.+)$"), False),
    (re.compile(r"^(?P<x>.+?)\s+(?:only\s+)?after\s+(?P<y>.+)$"), False),
    (re.compile(r"^(?P<x>.+?)\s+before\s+(?P<y>.+)$"), True),
    (re.compile(r"^(?P<x>.+?)[,;]?\s+(?:and\s+)?(?:then|only then|after that|afterwards|followed by)\s+(?P<y>.+)$"), True),
    (re.compile(r"^(?P<x>.+?)\s*(?:->|→|=>)\s*(?P<y>.+)$"), True),
)
_ZH_SPLITS: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"先(?P<x>.+?)[，,]?\s*(?:再|然后|之后再|后再|接着)(?P<y>.+)$"), True),
    (re.compile(r"^(?:在)?(?P<x>.+?)(?:之后|以后|完成后|结束后|后再|后才)(?:[，,])?\s*(?:才能|才|再)?(?P<y>.+)$"), True),
    (re.compile(r"^(?:在)?(?P<x>.+?)(?:之前|以前)(?:[，,])?\s*(?:必须|要|须|得)?(?:先)?(?P<y>.+)$"), False),
    # "导入前必须逐行校验价格字段" (validate, then import), "测试通过后才能合并" (test, then merge)
    (re.compile(r"^(?:在)?(?P<x>[^，,]+?)前(?![端面台天置缀提期往后])[，,]?\s*(?:必须|要|须|得|应当|应|需要)\s*(?:先)?"
                r"(?P<y>.+)$"), False),
    (re.compile(r"^(?:在)?(?P<x>[^，,]+?)后[，,]?\s*(?:才能|才可以|才可|方可|才)(?P<y>.+)$"), True),
)
_LABEL = re.compile(r"^[^:：]{1,24}[:：]\s*")


@lru_cache(maxsize=4096)
def order_of(value: str) -> Order | None:
    """The two steps a value puts in order, or None (most values fix no order)."""
    v = norm_phrase(value).rstrip("。.!！ ")
    if not v:
        return None
    v = _LABEL.sub("", v, count=1) if len(v) > 30 else v
    for pattern, x_first in (_ZH_SPLITS if re.search(r"[\u3400-\u9fff]", v) else ()) + _EN_SPLITS:
        m = pattern.search(v)
        if not m:
            continue
        x, y = telling_words(_strip_first(m.group("x"))), telling_words(m.group("y"))
        x, y = tuple(w for w in x if w not in y), tuple(w for w in y if w not in x)
        if x and y:
            return Order(x, y) if x_first else Order(y, x)
    return None


def _strip_first(text: str) -> str:
    return re.sub(r"(?<![a-z])first(?![a-z])", " ", text)


# Order words between two named steps X … Y, and what they say: True = X before Y.
_BETWEEN: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"(?<![a-z])(?:only\s+)?after(?![a-z])|之前|以前"), False),
    (re.compile(r"(?<![a-z])(?:then|before|followed by|afterwards|after that|and next|next)(?![a-z])|->|→|=>|"
                r"然后|随后|接着|之后|以后|完成后|后再|后才|再"), True),
)
# Order words before the first named step X: True = X before Y.
_BEFORE_X: tuple[tuple[re.Pattern[str], bool], ...] = (
    (re.compile(r"(?<![a-z])(?:after|once)\s+(?:\w+\s+){0,3}$"), True),
    (re.compile(r"(?<![a-z])before\s+(?:\w+\s+){0,3}$"), False),
    (re.compile(r"(?<![a-z])first[,:]?\s+(?:\w+\s+){0,2}$|先\s*$|首先\s*$|第一步[:：]?\s*$"), True),
)
# "Nothing is merged before 2026-12-03": the steps named, none done in that order (verdict-nine).
_NONE_DONE = re.compile(r"(?<![a-z])(?:nothing|nobody|no one|none)(?![a-z])")
_OPENS_LATER = re.compile(r"^\W*(?:then|after that|afterwards|next|later|subsequently|然后|之后|随后|接着|再)(?![a-z])")
_ITEM = re.compile(r"^\s*(?:step\s*)?(\d{1,2})[.)：:]\s*(.*)$|^\s*第([一二三四五六七八九十])步[:：]?\s*(.*)$")
_ZH_DIGITS = "一二三四五六七八九十"


def _sentence_order(text: str, order: Order) -> bool | None:
    """True: the sentence puts the steps in the rule's order; False: reversed; None: it
    names no order of them (one step missing, no order word, or a denial or hedge)."""
    a, b = side_at(text, order.first), side_at(text, order.then)
    if a < 0 or b < 0 or a == b or denies(text) or _NONE_DONE.search(text):
        return None
    x_is_a = a < b
    lo, hi = (a, b) if x_is_a else (b, a)
    said_x_first: bool | None = None
    before = text[:lo]
    for pattern, x_first in _BEFORE_X:
        if pattern.search(before):
            said_x_first = x_first
            break
    if said_x_first is None:
        mid = text[lo:hi]
        for pattern, x_first in _BETWEEN:
            if pattern.search(mid):
                said_x_first = x_first
                break
    if said_x_first is None:
        return None
    return said_x_first if x_is_a else not said_x_first


def reordered(said: Said, value: str) -> Hits | None:
    """A sentence, list or pair of sentences that narrates the value's two steps in the other
    order (see the module's docstring)."""
    order = order_of(value)
    if order is None:
        return None
    return said.remember(("reordered", value), lambda: _reordered(said, value, order))


def _reordered(said: Said, value: str, order: Order) -> Hits | None:
    flat = said.flat()
    if side_at(flat, order.first) < 0 or side_at(flat, order.then) < 0:
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    own = set(said.holding(v)) if v else set()
    spans = said.sentences
    for i, s in enumerate(spans):
        if i in own:
            continue
        text = s.text
        if _sentence_order(text, order) is False:
            return Hits([_words(text, order)], said.stripped(s))
    for i in range(len(spans) - 1):  # "Deployed v2. Then migrated the database."
        s, n = spans[i], spans[i + 1]
        if i in own or i + 1 in own or not _OPENS_LATER.search(n.text.strip()) or denies(n.text) or denies(s.text):
            continue
        if (side_at(s.text, order.then) >= 0 and side_at(s.text, order.first) < 0
                and side_at(n.text, order.first) >= 0 and side_at(n.text, order.then) < 0):
            return Hits([_words(s.text + " " + n.text, order)], f"{said.stripped(s)} {said.stripped(n)}")
    return _list_reversed(said, order)


def _list_reversed(said: Said, order: Order) -> Hits | None:
    """A numbered list ("1. Deploy v2" / "2. Migrate the database", "第一步…") whose items
    name the later step first."""
    items: list[tuple[int, str]] = []
    for line in said.text.split("\n"):
        m = _ITEM.match(line)
        if m:
            n = int(m.group(1)) if m.group(1) else _ZH_DIGITS.index(m.group(3)) + 1
            items.append((n, m.group(2) if m.group(1) else m.group(4)))
    if len(items) < 2:
        return None
    first = [n for n, t in items if side_at(t, order.first) >= 0 and side_at(t, order.then) < 0 and not denies(t)]
    then = [n for n, t in items if side_at(t, order.then) >= 0 and side_at(t, order.first) < 0 and not denies(t)]
    if first and then and min(then) < min(first):
        a = next(t for n, t in items if n == min(then))
        b = next(t for n, t in items if n == min(first))
        return Hits([f"{order.then[0]} listed before {order.first[0]}"],
                    f"{min(then)}. {a.strip()} … {min(first)}. {b.strip()}")
    return None


def _words(text: str, order: Order) -> str:
    return f"{order.then[0]} before {order.first[0]}"


__all__ = ["Order", "order_of", "reordered"]
