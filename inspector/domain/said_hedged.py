"""A prohibition restated as a wish: "Try not to delete the audit logs" for "You must not delete
the audit logs", "最好不要删除审计日志" for "绝对不能删除审计日志" (verdict-nine).

The forbidding rules read the act reported done; the negation rules read the rule cancelled or
lifted. A hedge does neither — it keeps the verb, the object and a "not" — yet turns a rule the
agent must obey into advice it may weigh: "should not", "try not to", "ideally not", "avoid … if
possible", "is discouraged", "尽量不要", "最好不要", "不建议". Read: a clause elsewhere (not the
value's own) naming the forbidden act's verb and half its object's words, with a hedge before the
verb or a discouraging word after it. A value that is itself a hedge ("You should not …") is not
weakened by another; a clause that says the rule still holds or asks says nothing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_forbidden import forbidden_of
from inspector.domain.said_steps import first_at, upheld
from inspector.domain.textnorm import CJK

_STRICT = re.compile(r"(?<![a-z])(?:must not|mustn't|never|may not|cannot|can't|do not|don't|not allowed to|"
                     r"is forbidden|are forbidden)(?![a-z])|绝对不|不得|禁止|严禁|不能|不准|不许|不要|切勿|请勿|不可以")
_SOFT_VALUE = re.compile(r"(?<![a-z])(?:should not|shouldn't|try not|ideally|preferably|if possible|avoid)(?![a-z])|"
                         r"尽量|最好|尽可能|不建议")
_HEDGE_BEFORE = re.compile(r"(?<![a-z])(?:should not|shouldn't|try not to|try to avoid|tries not to|ideally not|"
                           r"ideally do not|ideally don't|preferably not|preferably do not|it is best not to|"
                           r"it's best not to|best not to|better not to|would rather not|aim not to|try to not)\s+"
                           r"(?:\w+\s+){0,2}$|(?:尽量|最好|尽可能|能不|不建议|不太建议|建议不要|建议别)\s*(?:不要|别|不|少)?\s*$")
_HEDGE_AFTER = re.compile(r"^[^.;。；]{0,40}?(?<![a-z])(?P<w>(?:is|are|was|were)\s+(?:now\s+)?(?:discouraged|not recommended|"
                          r"best avoided|frowned upon|not advised))(?![a-z])|^[^.;。；]{0,40}?(?<![a-z])(?P<x>(?:if|where|when)\s+"
                          r"(?:at all\s+)?(?:possible|feasible|practical|you can))(?![a-z])|^[^。；]{0,20}?(?P<y>不太好|不推荐|不建议)")
_EITHER_ZH = re.compile(r"能不(?P<v>[\u3400-\u9fff]{1,2}?)就不(?P=v)")
_STILL_STRICT = re.compile(r"(?<![a-z])(?:not allowed|forbidden|prohibited|banned|never|must not|mustn't|cannot|"
                           r"can't)(?![a-z])|不得|禁止|严禁|绝对不|不能|不准|不许")
_CUT = re.compile(r"[;；。.!！\n]|(?<![a-z])but(?![a-z])|但是|不过")


@dataclass(frozen=True, slots=True)
class Hedged:
    words: tuple[str, ...]
    sentence: str


def hedged(said: Said, value: str) -> Hedged | None:
    """The first clause elsewhere that restates the prohibition as advice, or None."""
    v = norm_phrase(value).rstrip("。.!！ ")
    if not _STRICT.search(v) or _SOFT_VALUE.search(v):
        return None
    act = forbidden_of(value)
    if act is None or not act.verb or not act.object:
        return None
    if not said.remember(("hedge_cue",), lambda: _cue(said.text)):
        return None
    need = max(1, math.ceil(0.5 * len(act.object)))
    for s in said.sentences:
        if v in s.text:
            continue
        for clause in re.split(r"[，,；;。]", s.text) if CJK.search(act.verb) and "就不" in s.text else ():
            either = _EITHER_ZH.search(clause)  # "审计日志能不删就不删"
            if either and act.verb.startswith(either.group("v")) and any(w in clause for w in act.object):
                return Hedged((either.group(),), said.stripped(s))
        for part in _CUT.split(s.text):
            at = _verb_at(part, act.verb)
            if at < 0 or "?" in part or upheld(part) or _STILL_STRICT.search(part):
                continue  # "… is not recommended and not allowed": the rule kept beside the hedge
            if sum(1 for w in act.object if first_at(part, w) >= 0) < need:
                continue
            m = _HEDGE_BEFORE.search(part[:at])
            if m:
                return Hedged((m.group().strip(),), said.stripped(s))
            m = _HEDGE_AFTER.search(part[at:])
            if m:
                return Hedged((m.group("w") or m.group("x") or m.group("y"),), said.stripped(s))
    return None


def _cue(text: str) -> bool:
    return any(w in text for w in ("should", "try", "ideally", "preferabl", "best", "better", "rather", "aim",
                                   "discourag", "recommend", "avoid", "frowned", "advised", "possible", "feasible",
                                   "尽量", "最好", "尽可能", "能不", "建议", "推荐"))


def _verb_at(part: str, verb: str) -> int:
    """Where the act's verb stands ("delete", "deleting", "删除"), or -1."""
    if CJK.search(verb):
        return part.find(verb)
    stem = verb[:-1] if verb.endswith("e") and len(verb) > 3 else verb
    m = re.search(rf"(?<![a-z]){re.escape(stem)}", part)
    return m.start() if m else -1


__all__ = ["Hedged", "hedged"]
