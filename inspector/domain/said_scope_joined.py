"""A bounded scope joined to more, or opened to all of its kind, elsewhere (verdict-nine).

``said_beyond`` reads an act taken past its bound with "also / too / 也", "other than", "not
only"; a summary can widen the bound with none of those words:

- **the own place joined to another** — "Run migrations on prod only" beside "Migrations run on
  prod and staging."; "迁移仅限生产环境" beside "迁移可在生产和测试环境执行" or "迁移包括测试环境":
  a clause naming the act, its own place, and a join word ("and", "or", "plus", "和", "及", "、")
  to another place that ends the clause or stands before a place noun ("environment", "环境");
  or "包括 / 包含 / 扩展到" another place beside the act;
- **the bound's kind opened to all** — "Only alter the schema of the users table" beside "Schema
  changes are allowed on all tables.": a clause naming the act with "all / every / any" and the
  place's head noun ("tables"), without its own telling word ("users").

A grant word makes it ``permission_widened``; otherwise the rule's scope is misstated
(``protected_negated``). Clauses that deny, hedge or ask, and clauses holding the value, say
nothing (the caller skips them as ``said_beyond`` does).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_beyond import bound_of
from inspector.domain.said_steps import denies, side_at, upheld
from inspector.domain.textnorm import CJK

_PLACE_NOUN = (r"environments?|envs?|clusters?|databases?|dbs?|servers?|regions?|hosts?|instances?|nodes?|"
               r"machines?|buckets?|branch(?:es)?|tables?|repos?|repositories|accounts?|projects?|namespaces?")
# The other place: a word an environment is called, or any word before a place noun ("the eu
# region"); "Deployed to staging and verified." joins a verb, not a place (verdict-nine).
_ENV = r"prod|production|staging|stage|dev|development|qa|uat|preprod|pre-prod|sandbox|canary|replica"
_JOIN_EN = re.compile(rf"\s*(?:,|and|or|plus|as well as|&)\s+(?:the\s+|in\s+|on\s+|to\s+)?(?:(?P<env>{_ENV})(?![\w-])|"
                      rf"(?P<named>[a-z][\w-]*)(?=\s+(?:{_PLACE_NOUN})(?![a-z])))")
_BEFORE_EN = re.compile(rf"(?<![a-z])(?:in|on|to|against|into|at)\s+(?:the\s+|both\s+)?({_ENV})\s*(?:,|and|or|plus|&)"
                        r"\s+(?:the\s+)?$")
_JOIN_ZH = re.compile(r"^(?:环境|库|集群)?\s*(?:和|及|与|、|以及|跟|加上)\s*([\u3400-\u9fff]{2,})")
_INCLUDE_ZH = re.compile(r"(?:也)?(?:包括|包含|扩展到|扩大到|覆盖到|推广到)(?:了)?([\u3400-\u9fff]{2,})")
_ALL_EN = re.compile(r"(?<![a-z])(?:all|every|any)\s+(?:the\s+|other\s+|of\s+the\s+)?([a-z][a-z-]+)")
_ANY_PLACE = re.compile(r"(?<![a-z])(?:(?:all|every|any)\s+(?:other\s+)?(?:environments?|envs?|hosts?|clusters?|"
                        r"databases?|servers?|regions?|machines?)|everywhere|anywhere)(?![a-z])|所有环境|任何环境|任意环境|各个环境")
_ACTED = re.compile(r"(?<![a-z])(?:ran|run|runs|executed|applied|deployed|went|rolled out|shipped)(?![a-z])|执行|运行|部署|上线")
_GRANT = re.compile(r"(?<![a-z])(?:fine|allowed|may|can|ok|okay|permitted|acceptable)(?![a-z])|可以|可|允许|能")
_CUT = re.compile(r"[;；。.!！?？\n]|(?<![a-z])but(?![a-z])|但是|不过")


@dataclass(frozen=True, slots=True)
class Joined:
    code: str  # permission_widened or protected_negated
    words: tuple[str, ...]
    sentence: str


def scope_joined(said: Said, value: str, kind: str) -> Joined | None:
    """The first clause elsewhere that joins the bound's place to another, or opens it to all."""
    if kind not in ("constraint", "acceptance", "permission"):
        return None
    bound = bound_of(value)
    if bound is None:
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    for s in said.sentences:
        for part in _CUT.split(s.text):
            if not part.strip() or v in part or denies(part) or upheld(part) or "whether" in part or "是否" in part:
                continue
            words = _joined(part, *bound) or _opened(part, *bound)
            if words:
                code = "permission_widened" if _GRANT.search(part) else "protected_negated"
                return Joined(code, (words,), said.stripped(s))
    return None


def _joined(part: str, obj: tuple[str, ...], place: tuple[str, ...]) -> str:
    act = side_at(part, obj)
    if act < 0:
        return ""
    at = side_at(part, place)
    if at >= 0 and re.search(r"[，,;；]", part[min(act, at):max(act, at)]):
        return ""  # "生产和测试环境的配置一致，迁移只在生产执行": the act in another clause than the place
    if CJK.search(place[0]) is not None:
        inc = _INCLUDE_ZH.search(part)
        if inc and side_at(inc.group(1), place) < 0 and side_at(inc.group(1), obj) < 0 and not re.search(
                r"[，,;；]", part[min(act, inc.start()):max(act, inc.start())]):
            return inc.group(0)
        if at < 0:
            return ""
        word = next((w for w in place if part.startswith(w, at)), place[0])
        m = _JOIN_ZH.match(part[at + len(word):])
        if m and side_at(m.group(1), place[:1]) < 0 and side_at(m.group(1), obj) < 0:
            return part[at:at + len(word) + m.end()]
        return ""
    if at < 0:
        return ""
    end = at + len(re.match(r"[\w-]*", part[at:]).group())  # type: ignore[union-attr]
    m = _JOIN_EN.match(part[end:])
    other = (m.group("env") or m.group("named")) if m else ""
    if other and side_at(other, place) < 0 and side_at(other, obj) < 0:
        return part[at:end + m.end()].strip()  # type: ignore[union-attr]
    b = _BEFORE_EN.search(part[:at])
    if b and side_at(b.group(1), place) < 0 and side_at(b.group(1), obj) < 0:
        return part[b.start():end].strip()
    return ""


def _opened(part: str, obj: tuple[str, ...], place: tuple[str, ...]) -> str:
    """"all tables" where the bound names "the users table": its head noun, not its telling word."""
    if side_at(part, obj) < 0:
        return ""
    anywhere = _ANY_PLACE.search(part)  # "Migrations are fine on any environment."
    if anywhere and side_at(part, place) < 0 and (_GRANT.search(part) or _ACTED.search(part)):
        return anywhere.group()  # granted or done there; "Migrations are logged everywhere" is neither
    own = tuple(w for w in place if w.isascii())  # the English words (a gloss follows them)
    if len(own) < 2:
        return ""
    if not _GRANT.search(part) and side_at(part, obj[:1]) < 0:
        return ""  # "The schema of all tables was checked": neither granted nor the act
    head, telling = own[-1], own[:-1]
    if any(re.search(rf"(?<![a-z]){re.escape(w)}", part) for w in telling):
        return ""
    for m in _ALL_EN.finditer(part):
        noun = m.group(1)
        if noun.startswith(head[:4]) or head.startswith(noun):
            return m.group(0)
    return ""


__all__ = ["Joined", "scope_joined"]
