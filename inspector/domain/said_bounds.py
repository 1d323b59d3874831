"""A rule's bound or order kept word for word, and turned around or loosened elsewhere (verdict-five).

The limit rules read another *amount* ("raised to 5 retries"); these read the same amount with
another *bound*, and an order declared free:

- **the direction flipped** — "At most 3 retries per job" beside "Retries per job: at least 3."
  / "每个任务至少重试 3 次": the value's own number, its thing (the unit or half the subject's
  words) named in the clause, with a bound word of the other direction right before the number
  (``protected_negated``, survival ``contradicted``);
- **an exact bound made approximate** — "Jobs get about 3 retries each." / "每个任务大约重试 3
  次": "about", "around", "roughly", "大约", "左右" before (or "左右" after) the value's number:
  an upper bound of 3 may now be 4 — the rules cannot tell, and say so (``subject_unjudged``,
  ``?``, survival ``unknown``);
- **an order declared free** — "Migrate the schema first, then deploy the API" beside "The API
  deploy and the schema migration can happen in either order." / "…的顺序无所谓": a clause naming
  both steps that says the order does not matter (``protected_negated``; "The deploy and the
  changelog can go in either order" names one and says nothing about this rule).

A clause that denies, hedges or asks ("Retries were never at least 3", "whether either order
works") says nothing; a clause that states the value itself is its own.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_lifted import _number_and_unit
from inspector.domain.said_order import order_of
from inspector.domain.said_quantities import quantity_of
from inspector.domain.said_steps import denies, side_at, telling_words

_UPPER = re.compile(r"(?<![a-z])(?:at most|no more than|not more than|up to|maximum|max|under|below|less than|"
                    r"fewer than|not exceed|never exceed)(?![a-z])|最多|至多|不超过|不得超过|不能超过|以内|以下|"
                    r"(?<![不])(?:低于|少于|小于)|不高于|不多于|不大于")  # verdict-nine: "低于" / "高于" read too
_LOWER = re.compile(r"(?<![a-z])(?:at least|no fewer than|no less than|not fewer than|not less than|minimum|min|"
                    r"(?<!no )(?<!not )more than|above)(?![a-z])|至少|最少|不少于|不低于|以上|"
                    r"(?<![不])(?:高于|多于|大于)|不小于|(?<![a-z])(?<!not )(?<!never )(?<!n't )exceeds?(?![a-z])")
_APPROX = re.compile(r"(?<![a-z])(?:about|around|roughly|approximately|approx|circa|some|~)(?![a-z])|大约|大概|约|左右|上下")
_FREE = re.compile(r"(?<![a-z])(?:either order|any order|whatever order|regardless of (?:the )?order|order does not matter|"
                   r"order doesn't matter|order is not important|order is unimportant|in parallel|at the same time|"
                   r"interchangeabl[ey]|independent of each other|no fixed order|no particular order|no set order)(?![a-z])|"
                   r"顺序无所谓|顺序不重要|不分先后|先后无所谓|先后都可以|哪个先都可以|顺序随意|同时进行|并行")
_CUT = re.compile(r"[;；。.!！?？\n]|(?<![a-z])but(?![a-z])|但是|不过")


@dataclass(frozen=True, slots=True)
class BoundSaid:
    words: tuple[str, ...]
    sentence: str
    decided: bool  # False: the bound made approximate (the rules cannot tell)
    how: str  # "bound" or "order"


def bound_moved(said: Said, value: str) -> BoundSaid | None:
    """The value's own amount with its bound turned around or made approximate, elsewhere."""
    shape = _bound_shape(value)
    if shape is None:
        return None
    number, thing, subject, upper = shape
    if number not in said.flat():
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    for part in _parts(said):
        if v in part or number not in part or denies(_UPPER.sub(" ", _LOWER.sub(" ", part))):
            continue
        at = _number_at(part, number)
        if at < 0 or not _names(part, thing, subject):
            continue
        before = part[max(0, at - 24):at]
        after = part[at + len(number):at + len(number) + 8]
        other = (_LOWER if upper else _UPPER).search(before)
        if other and other.group().startswith("exceed") and not _names(part, thing, _unitless(value, subject)):
            other = None  # "p99 exceeds 200 ms" beside "Keep p95 latency below 200 ms": only the unit named
        if other and not (_UPPER if upper else _LOWER).search(before[other.end():]):
            return BoundSaid((f"{other.group()} {number}",), part.strip(), True, "bound")
        approx = _APPROX.search(before[-12:]) or re.search(r"左右|上下", after)
        if approx:
            return BoundSaid((f"{approx.group()} {number}",), part.strip(), False, "bound")
    return None


def order_freed(said: Said, value: str) -> BoundSaid | None:
    """A clause elsewhere that says the value's two steps may come in any order."""
    order = order_of(value)
    if order is None or not said.remember(("order_free",), lambda: _FREE.search(said.flat()) is not None):
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    for part in _parts(said):
        m = _FREE.search(part)
        if not m or v in part or "?" in part or "whether" in part or "是否" in part:
            continue
        if side_at(part, order.first) >= 0 and side_at(part, order.then) >= 0:
            return BoundSaid((m.group(),), part.strip(), True, "order")
    return None


def listed_by_unit(said: Said, value: str) -> BoundSaid | None:
    """A list labelled by the value's unit that gives its subject another number: "Ports: database
    8080, API 5432." beside "The database must listen on port 5432" (verdict-four's e-d3: no clause
    held the subject, the unit and the number together)."""
    shape = _unit_shape(value)
    if shape is None or shape[1] not in said.flat():
        return None
    number, unit, subject = shape
    for m in re.finditer(rf"(?<![a-z]){re.escape(unit)}s?\s*[:：]\s*([^\n.;。；]+)", said.text):
        for item in re.split(r",|，|、|\band\b|和", m.group(1)):
            n = re.search(r"(?<![\d.])\d+(?![\d.])", item)
            if n and n.group() != number and set(telling_words(item)) & subject:
                return BoundSaid((f"{item.strip()} (the value says {number})",), m.group(0).strip(), True, "limit")
    return None


@lru_cache(maxsize=4096)
def _unit_shape(value: str) -> tuple[str, str, frozenset[str]] | None:
    nu = _number_and_unit(value)
    if nu is None or not nu[1].isascii():
        return None
    number, unit, _ = nu
    subject = frozenset(w for w in telling_words(norm_phrase(value)) if w not in (number, unit) and not w.isdigit())
    return (number, unit, subject) if subject else None


@lru_cache(maxsize=4096)
def _bound_shape(value: str) -> tuple[str, str, tuple[str, ...], bool] | None:
    """(the number as written, the thing counted, the subject words, whether it is an upper
    bound) of a value that bounds one amount one way; None otherwise."""
    v = norm_phrase(value)
    upper, lower = _UPPER.search(v) is not None, _LOWER.search(v) is not None
    q = quantity_of(value)
    if q is None or upper == lower:
        return None
    number = f"{q.number:g}"
    thing = q.dimension.split(":", 1)[1] if q.dimension.startswith("count:") else ""
    # The bound words cut out first: "每个请求重试不超过" is no word a restatement with "最多" holds.
    subject = tuple(w for w in telling_words(_LOWER.sub(" ", _UPPER.sub(" ", v))) if not any(ch.isdigit() for ch in w)
                    and not _UPPER.fullmatch(w) and not _LOWER.fullmatch(w))
    return number, thing, subject, upper


def _unitless(value: str, subject: tuple[str, ...]) -> tuple[str, ...]:
    q = quantity_of(value)
    unit = set(q.text.split()) if q is not None else set()
    return tuple(w for w in subject if w not in unit)


def _parts(said: Said) -> list[str]:
    return said.remember(("bound_parts",), lambda: [p for p in _CUT.split(said.text) if p.strip()])


def _number_at(part: str, number: str) -> int:
    m = re.search(rf"(?<![\d.,]){re.escape(number)}(?![\d]|[.,]\d)", part)
    return m.start() if m else -1


def _names(part: str, thing: str, subject: tuple[str, ...]) -> bool:
    """The clause names what the bound counts: its thing ("retr-", "次" with a subject word) or
    half the subject's words."""
    named = sum(1 for w in subject if side_at(part, (w,)) >= 0)
    if thing and thing.isascii() and side_at(part, (thing[:4],)) >= 0:
        return True
    return bool(subject) and named >= max(1, math.ceil(0.5 * len(subject)))


__all__ = ["BoundSaid", "bound_moved", "listed_by_unit", "order_freed"]
