"""A prohibition over a list, lifted for one item; a prohibition moved off its object (verdict-nine).

- **one item freed** — "Never touch the users, orders or payments tables" beside "The payments
  table may be touched.": the lifting rules want half the value's words in the clause, and one
  item of a list is a third of them. Read: the value's object cut into its items; a clause
  elsewhere naming one item's own word, the forbidden verb and a permission word ("may", "can",
  "allowed", "fine", "可以", "允许"), denying nothing;
- **the rule put on something else** — "Do not restart the database" beside "The no-restart rule
  applies to the API, not the database." / "The database is exempt.": a clause naming the object
  with "not" after "applies/covers … to", or "exempt", "excluded", "不适用于", "除外", with the verb
  or a word for the rule.

Both are ``protected_negated``. A clause holding the value, asking, or saying the rule still holds
says nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_forbidden import forbidden_of
from inspector.domain.said_steps import denies, first_at, telling_words, upheld
from inspector.domain.textnorm import CJK

_SPLIT = re.compile(r",|，|、|(?<![a-z])(?:or|and|nor)(?![a-z])|或|和|及|与")
_GRANT = re.compile(r"(?<![a-z])(?:may|can|allowed|fine|ok|okay|permitted|free to)(?![a-z])|可以|允许|能")
_OFF_EN = re.compile(r"(?<![a-z])(?:applies|apply|covers|cover|is limited|is meant|refers|holds)\s+(?:only\s+)?"
                     r"(?:to|for)\s+[^,;]{1,40}?,?\s+(?:but\s+)?not\s+(?:to\s+|for\s+)?(?:the\s+)?(?P<obj>[a-z][\w-]*)"
                     r"(?=\s*(?:$|[,.;:)]|and(?![a-z])|or(?![a-z])|itself(?![a-z])))")
_ONLY_OTHER_EN = re.compile(r"(?<![a-z])(?:covers|applies to|is limited to|is for|holds for)\s+(?:the\s+)?(?P<other>[a-z][\w-]*)"
                            r"\s+only(?![a-z])|(?<![a-z])only\s+(?:covers|applies to|holds for)\s+(?:the\s+)?(?P<other2>[a-z][\w-]*)")
_EXEMPT_EN = re.compile(r"(?<![a-z])(?:the\s+)?(?P<obj>[a-z][\w-]*)\s+(?:is|are)\s+(?:now\s+)?(?:exempt|excluded|"
                        r"not covered|out of scope)(?![a-z])")
_OFF_ZH = re.compile(r"不适用于(?P<obj>[\u3400-\u9fff]{2,})|(?P<obj2>[\u3400-\u9fff]{2,})除外|不包括(?P<obj3>[\u3400-\u9fff]{2,})")
_FREE = re.compile(r"(?<![a-z])(?:fair game|up for grabs|no longer (?:protected|off[- ]limits)|not off[- ]limits|"
                   r"unprotected|free to (?:change|edit|modify|touch))(?![a-z])|随便动|可以随便改|不再受保护")
_RULE = re.compile(r"(?<![a-z])(?:rule|restriction|ban|prohibition|constraint|no-[a-z]+)(?![a-z])|规定|限制|禁令|约束")
_CUT = re.compile(r"[;；。.!！\n]")


@dataclass(frozen=True, slots=True)
class Listed:
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def items_of(value: str) -> tuple[str, ...]:
    """Each item's own telling word, when the prohibition's object is a list of three or more
    ("the users, orders or payments tables" → users, orders, payments); () otherwise."""
    act = forbidden_of(value)
    if act is None or not act.verb or len(act.object) < 3:
        return ()
    v = norm_phrase(value).rstrip("。.!！ ")
    at = v.find(act.verb)
    pieces = [p for p in _SPLIT.split(v[at + len(act.verb):] if at >= 0 else "") if p.strip()]
    if len(pieces) < 3:
        return ()
    firsts = [next(iter(telling_words(p)), "") for p in pieces]
    return tuple(f for f in firsts if f) if all(firsts) else ()


def item_lifted(said: Said, value: str) -> Listed | None:
    items = items_of(value)
    if not items:
        return None
    act = forbidden_of(value)
    assert act is not None
    v = norm_phrase(value).rstrip("。.!！ ")
    for s in said.sentences:
        if v in s.text:
            continue
        for part in _CUT.split(s.text):
            grant = _GRANT.search(part)
            if grant is None or "?" in part or denies(part) or upheld(part) or _verb_at(part, act.verb) < 0:
                continue
            named = [w for w in items if _item_named(part, w, act.object[-1], grant.start())]
            if 0 < len(named) < len(items):
                return Listed((f"{named[0]} … {grant.group()}",), said.stripped(s))
    return _item_free(said, items, v)


def _item_named(part: str, item: str, head: str, grant_at: int) -> bool:
    """The item as the list names it, before the grant: "The payments table may be touched" —
    not "the payments service can be touched", nor "may touch a copy of the payments table"."""
    at = first_at(part, item)
    if at < 0 or at > grant_at:
        return False
    if CJK.search(item):
        return True
    stem = head[:-1] if head.endswith("s") else head
    return re.match(rf"{re.escape(item)}\W+(?:\w+\W+)?{re.escape(stem[:5])}", part[at:]) is not None


def _item_free(said: Said, items: tuple[str, ...], v: str) -> Listed | None:
    """"payments is fair game": one item said free with no verb at all."""
    if not said.remember(("item_free_cue",), lambda: _FREE.search(said.text) is not None):
        return None
    for s in said.sentences:
        if v in s.text:
            continue
        for part in _CUT.split(s.text):
            for clause in re.split(r"[,，;；]", part):
                free = _FREE.search(clause)
                if free is None or "?" in clause or denies(clause[:free.start()]):
                    continue
                named = [w for w in items if first_at(clause, w) >= 0]
                if len(named) == 1:
                    return Listed((f"{named[0]} … {free.group()}",), said.stripped(s))
    return None


def moved_off(said: Said, value: str) -> Listed | None:
    """A clause that says the prohibition does not cover its own object."""
    act = forbidden_of(value)
    if act is None or not act.verb or not act.object:
        return None
    if not said.remember(("moved_off_cue",), lambda: _cue(said.text)):
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    for s in said.sentences:
        if v in s.text:
            continue
        for part in _CUT.split(s.text):
            if "?" in part or (_verb_at(part, act.verb) < 0 and _RULE.search(part) is None):
                continue
            for m in (*_OFF_EN.finditer(part), *_EXEMPT_EN.finditer(part), *_OFF_ZH.finditer(part)):
                obj = next(g for g in m.groups() if g)
                if any(_same(obj, w) for w in act.object):
                    return Listed((m.group().strip(),), said.stripped(s))
            for m in _ONLY_OTHER_EN.finditer(part):  # "The restart ban covers the API only."
                other = m.group("other") or m.group("other2")
                if not any(_same(other, w) for w in act.object) and _verb_at(part, act.verb) >= 0 \
                        and not denies(part[:m.start()]):
                    return Listed((m.group().strip(),), said.stripped(s))
    return None


def _cue(text: str) -> bool:
    return any(w in text for w in ("not", "exempt", "exclud", "not covered", "out of scope", "only", "不适用", "除外",
                                   "不包括"))


def _same(word: str, obj: str) -> bool:
    if CJK.search(obj):
        return obj in word or word in obj
    return word.rstrip("s") == obj.rstrip("s")


def _verb_at(part: str, verb: str) -> int:
    if CJK.search(verb):
        return part.find(verb)
    stem = verb[:-1] if verb.endswith("e") and len(verb) > 3 else verb
    m = re.search(rf"(?<![a-z]){re.escape(stem)}", part)
    return m.start() if m else -1


__all__ = ["Listed", "item_lifted", "items_of", "moved_off"]
