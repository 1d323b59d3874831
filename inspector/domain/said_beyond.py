"""A rule's scope kept word for word, and gone past or narrowed elsewhere (verdict-five).

The scope rules read a grant repeated with more joined to it, or a grant of more anywhere; two
ways of leaving a scope were still a green:

- **the act done or granted beyond its bound** — "Only run the backfill in staging" beside "The
  backfill also ran in production." (``forbidden_action_done``) or "Production is fine for the
  backfill too." (``permission_widened``); "只能在预发环境运行回填" beside "回填也在生产环境跑了". A
  clause naming what the rule bounds (its object), with "also/too/as well/也/还", that does not
  name the rule's own place, reporting the act done (a past form, "了", "已") or granting it;
- **a goal's "all" narrowed** — "Migrate all tables to the new schema" beside "Scope: only the
  users table is in scope now." / "范围：现在只迁移用户表。": a clause with "only/just/只/仅" naming
  the thing the goal quantifies over ("table", "表") and a scope word or the goal's own verb,
  reporting no progress ("so far", "yet", "已", "了": "Only the users table is migrated so far"
  is progress, not a new scope) — ``protected_negated``.

Clauses that deny, hedge or ask say nothing; a clause holding the value is its own.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_steps import denies, side_at, telling_words
from inspector.domain.said_untrusted import translations
from inspector.domain.textnorm import CJK

_ONLY_EN = (re.compile(r"^(?:only|just)\s+(?P<act>.+?)\s+(?:in|on|to|against|within|under)\s+(?P<place>.+)$"),
            re.compile(r"^(?P<act>.+?)\s+only\s+(?:in|on|to|against|within|under)\s+(?P<place>.+)$"),
            # verdict-nine: "Run migrations on prod only", "Only alter the schema of the users table"
            re.compile(r"^(?P<act>.+?)\s+(?:in|on|to|against|within|under)\s+(?:the\s+)?(?P<place>[\w/.-]+)\s+only$"),
            re.compile(r"^(?:only|just)\s+(?P<act>[a-z]+\s+(?:the\s+)?[a-z]+)\s+of\s+(?P<place>the\s+[a-z][\w-]*\s+"
                       r"(?:table|database|db|bucket|repo|repository|schema|service|cluster|branch|directory|folder))$"))
_ONLY_ZH = re.compile(r"^(?:只能|只可以|仅能|仅可|只)在(?P<rest>.+)$")
_ONLY_ZH_TO = re.compile(r"^(?:只能|只可以|仅能|仅可|只|仅)(?P<act>[\u3400-\u9fff]{2,4}?)(?:到|至|在)(?P<place>.+)$")
_ONLY_ZH_LIMIT = re.compile(r"^(?P<act>[\u3400-\u9fff]{2,6}?)(?:仅限于?|只限于?)(?P<place>[\u3400-\u9fff]{2,})$")
_ZH_VERB = re.compile(r"运行|执行|使用|调用|部署|发布|写入|修改|删除|跑|做|用|写|改")
_ALSO = re.compile(r"(?<![a-z])(?:also|too|as well|additionally|in addition)(?![a-z])|也|还|同时")
_GRANT = re.compile(r"(?<![a-z])(?:fine|allowed|may|can|ok|okay|permitted|acceptable)(?![a-z])|可以|允许|能")
_DONE_EN = re.compile(r"(?<![a-z])(?:ran|run|did|done|was|were|went|gone|got|sent|put|made|[a-z]{3,}ed)(?![a-z])")
# verdict-six: "Deployed to every environment other than staging", "not only to staging but to
# production as well" — the bound's own place named, and the act taken past it all the same.
_EXCEPT = re.compile(r"(?<![a-z])(?:other than|except|except for|besides|apart from|excluding|but not)\s+(?:the\s+)?|"
                     r"除了|除")
_NOT_ONLY = re.compile(r"(?<![a-z])not (?:just|only|merely|solely|exclusively)(?![a-z])|不只|不仅|不止|不光")
_NOW = re.compile(r"(?<![a-z])(?:go|goes|now|run|runs)(?![a-z])")
_DONE_ZH = re.compile(r"了|已|过")
_ALL = re.compile(r"(?<![a-z])(?:all|every|each)\s+(?:the\s+|of\s+the\s+)?(?P<en>[a-z][a-z-]+)|(?:所有|全部|每个|每张)(?P<zh>[\u3400-\u9fff])")
_ONLY = re.compile(r"(?<![a-z])(?:only|just|solely)(?![a-z])|只|仅")
_SCOPE = re.compile(r"(?<![a-z])(?:scope|goal|target|focus|instead)(?![a-z])|范围|目标|改为|只需")
_PROGRESS = re.compile(r"(?<![a-z])(?:so far|yet|for now|until now|already|done|finished|failed|left)(?![a-z])|已|了|目前")
_CUT = re.compile(r"[;；。.!！?？\n]")
_PLACE = re.compile(r"(?<![a-z])(?:in|on|to|against|into|at)\s+(?:the\s+)?([a-z][\w/.-]*)|(?:在|到|至)([\u3400-\u9fff]{2,})")
_LISTED = re.compile(r"([^:：]{1,40})[:：]\s*(.+)")
_JOIN = re.compile(r",|，|、|(?<![a-z])(?:and|or|plus)(?![a-z])|和|及|以及|与")


@dataclass(frozen=True, slots=True)
class Beyond:
    code: str  # forbidden_action_done, permission_widened or protected_negated
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def bound_of(value: str) -> tuple[tuple[str, ...], tuple[str, ...]] | None:
    """(the telling words of what the rule bounds, of the place it bounds it to), or None."""
    v = norm_phrase(value).rstrip("。.!！ ")
    for pattern in _ONLY_EN:
        m = pattern.match(v)
        if m:
            obj, place = telling_words(m.group("act")), telling_words(m.group("place"))
            return _glossed(obj, place) if obj and place else None
    m = _ONLY_ZH.match(v)
    verb = _ZH_VERB.search(m.group("rest")) if m else None
    if m and verb and verb.start() > 0:
        rest = m.group("rest")
        # The place's head noun ("环境" of "预发环境") names every place: its own words only.
        obj, place = telling_words(rest[verb.end():]), telling_words(rest[:verb.start()])[:2]
        return _glossed(obj, place) if obj and place else None
    m = _ONLY_ZH_LIMIT.match(v)  # "迁移仅限生产环境": the act, then the one place it is bound to (verdict-nine)
    if m:
        obj, place = telling_words(m.group("act")), telling_words(m.group("place"))[:2]
        return _glossed(obj, place) if obj and place else None
    m = _ONLY_ZH_TO.match(v)  # "只部署到预发环境": the act is the verb, the place where it goes (verdict-six)
    if m:
        obj, place = telling_words(m.group("act")), telling_words(m.group("place"))[:2]
        return _glossed(obj, place) if obj and place else None
    return None


def _other_language(text: str, value: str) -> bool:
    """Whether the text holds the other language than the value's (a cross-language grant)."""
    if CJK.search(value) is None:
        return CJK.search(text) is not None
    return re.search(r"[a-z]{3,} [a-z]{2,} [a-z]{2,}", text) is not None


def _glossed(obj: tuple[str, ...], place: tuple[str, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A Chinese rule's sides with their English renderings (words/zh.json), so an English clause
    that takes the act past the bound ("Also deployed to production.") names them (verdict-six)."""
    tr = translations()
    return (tuple(dict.fromkeys(obj + tuple(e for w in obj for e in tr.get(w, ())))),
            tuple(dict.fromkeys(place + tuple(e for w in place for e in tr.get(w, ())))))


@lru_cache(maxsize=4096)
def quantified_of(value: str) -> tuple[str, tuple[str, ...]] | None:
    """(the thing a goal's "all" ranges over, the goal's verb words), or None."""
    v = norm_phrase(value)
    m = _ALL.search(v)
    if not m:
        return None
    thing = m.group("en") or m.group("zh")
    verbs = tuple(w for w in telling_words(v[:m.start()]) if w != thing) or tuple(
        w for w in telling_words(v) if _ZH_VERB.search(w) and len(w) == 2)
    return thing, verbs


def beyond(said: Said, value: str, kind: str) -> Beyond | None:
    """The act done or granted beyond the rule's bound, or a goal's "all" narrowed, elsewhere."""
    v = norm_phrase(value).rstrip("。.!！ ")
    bound = bound_of(value) if kind in ("constraint", "acceptance", "permission") else None
    quantified = quantified_of(value) if kind == "goal" else None
    if bound is None and quantified is None:
        return None
    if bound is not None and not said.remember(("beyond_cue", CJK.search(v) is None), lambda: _ALSO.search(said.text) is not None
                                               or ":" in said.text or "：" in said.text
                                               or _EXCEPT.search(said.text) is not None
                                               or _other_language(said.text, v)):
        return None
    if quantified is not None and not said.remember(("only_cue",), lambda: _ONLY.search(said.text) is not None):
        return None
    for s in said.sentences:
        for part in _CUT.split(s.text):
            if not part.strip() or v in part or denies(_NOT_ONLY.sub(" ", part)) or "whether" in part or "是否" in part:
                continue
            hit = _past_bound(part, bound) if bound else _narrowed(part, quantified) if quantified else None
            if hit is not None:
                return Beyond(hit[0], (hit[1],), said.stripped(s))
    return None


def _past_bound(part: str, bound: tuple[tuple[str, ...], tuple[str, ...]]) -> tuple[str, str] | None:
    obj, place = bound
    listed = _LISTED.fullmatch(part.strip())
    if listed and side_at(listed.group(1), obj) >= 0 and side_at(listed.group(2), place) >= 0:
        # "Backfill environments: staging and production.": the bound's place and more, labelled
        others = [x for x in _JOIN.split(listed.group(2)) if x.strip() and side_at(x, place) < 0]
        if others:
            return "permission_widened", f"{listed.group(2).strip()}"
    past = _past_own_place(part, obj, place)
    if past is not None:
        return past
    also = _ALSO.search(part)
    if also is None and side_at(part, obj) >= 0 and side_at(part, place) < 0 and (
            CJK.search(part) is not None) != (CJK.search(obj[0]) is not None):
        # A grant in the other language ("现在可以部署到生产环境了" beside "Deploy only to staging"):
        # the scope rules read a grant in the rule's own language only (verdict-six).
        grant = _GRANT.search(part)
        after = part[side_at(part, obj):]  # the place the act goes to, after the act ("现在" is no place)
        where = next((m.group(1) or m.group(2) for m in _PLACE.finditer(after)), None)
        if grant and where and side_at(where, obj) < 0:
            return "permission_widened", f"{grant.group()} … {where}"
    if also is None or side_at(part, obj) < 0 or side_at(part, place) >= 0:
        return None
    # Somewhere else named: "… in/against the production database", "在生产环境…" — or, for a
    # grant, a clause about something else ("Production is fine for the backfill too"). "The
    # backfill was also rerun after the fix" names no other place and says nothing about the bound.
    named = (m.group(1) or m.group(2) for m in _PLACE.finditer(part))
    where = next((w for w in named if w not in obj and side_at(w, obj) < 0), None)
    grant = _GRANT.search(part)
    first = next(iter(telling_words(part)), "")
    if grant and (where or (first and side_at(first, obj) < 0 and not _GRANT.fullmatch(first))):
        return "permission_widened", f"{also.group()} … {grant.group()}"
    done = _DONE_EN.search(part) or _DONE_ZH.search(part)
    if done and where:
        return "forbidden_action_done", f"{also.group()} … {done.group()} … {where}"
    return None


def _past_own_place(part: str, obj: tuple[str, ...], place: tuple[str, ...]) -> tuple[str, str] | None:
    """The act done or granted everywhere but the bound's place ("other than staging"), or "not
    only" there but somewhere else too ("not only to staging but to production as well")."""
    if side_at(part, obj) < 0 or side_at(part, place) < 0:
        return None
    grant = _GRANT.search(part)
    ex = _EXCEPT.search(part)
    if ex is not None and side_at(part[ex.end():ex.end() + 30], place) >= 0:
        done = _DONE_EN.search(part[:ex.start()]) or _DONE_ZH.search(part[ex.end():])
        if grant or done:
            return ("permission_widened" if grant else "forbidden_action_done"), f"{(grant or done).group()} … {ex.group().strip()}"  # type: ignore[union-attr]
    only = _NOT_ONLY.search(part)
    if only is not None:
        named = (m.group(1) or m.group(2) for m in _PLACE.finditer(part[only.end():]))
        where = next((w for w in named if side_at(w, place) < 0 and side_at(w, obj) < 0), None)
        done = _DONE_EN.search(part) or _DONE_ZH.search(part) or _NOW.search(part)
        if where and (grant or done):
            return ("permission_widened" if grant else "forbidden_action_done"), f"{only.group()} … {where}"
    return None


def _narrowed(part: str, quantified: tuple[str, tuple[str, ...]]) -> tuple[str, str] | None:
    thing, verbs = quantified
    only = _ONLY.search(part)
    if only is None or _PROGRESS.search(part):
        return None
    at = part.find(thing[:5]) if thing.isascii() else part.find(thing)
    if at < only.start():
        return None
    if _SCOPE.search(part) is None and side_at(part, verbs) < 0:
        return None
    return "protected_negated", part[only.start():at + len(thing)].strip()


__all__ = ["Beyond", "beyond", "bound_of", "quantified_of"]
