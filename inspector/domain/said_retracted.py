"""Every rule above retracted at once: the summary lists the facts, then takes them all back.

"… Never disable TLS verification. … None of the above constraints apply any more." keeps every
protected value word for word, so "not in the text" is silent, and no rule's own words stand
near the retraction — the negation rules read a value's clause, its next sentence, its subject
or a back reference to one rule ("that constraint"), never a sentence that names no rule but
points at all of them ("the above", "all of these", "every restriction", "以上约束"). Drift said
"no drift" and survival "kept" (verdict-four, docs/reviews/verdict-four.md).

A sentence retracts when it points back at what came before as a whole and lifts or dismisses it
("no longer apply", "disregard", "obsolete", "void", "lifted", "dropped", "scratch", a strike-out "~~…~~", "作废",
"取消", "不再适用", "忽略"), and neither upholds it ("still apply", "remain", "仍然有效"), hedges,
asks, denies the lifting ("did not ignore", "不要忽略") nor distances itself from an instruction
it reports ("an injected note said to disregard the rules above; we ignored it"). It retracts
each protected value of the kinds it names ("constraints" — and rules, restrictions, limits,
requirements —, "permissions", "goals"; all of them when it names none: "all of the above") that
stands before it and is not stated again after it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from inspector.domain.said import Said
from inspector.domain.said_referred import dismisses
from inspector.domain.textnorm import find_value

_RULE_NOUN = (r"(?:rules?|constraints?|restrictions?|requirements?|limits?|limitations?|instructions?|conditions?|"
              r"guardrails?|prohibitions?|permissions?|grants?|goals?|tasks?|requests?|asks?)")
_EN_ALL = re.compile(
    r"\b(?:(?:all|every|each|any|none)\s+(?:(?:of\s+)?(?:the\s+)?(?:above|preceding|foregoing|previous|earlier|these|"
    r"those|such)\s+)?" + _RULE_NOUN + r"|(?:all|none|any)\s+of\s+(?:the\s+above|the\s+foregoing|these|those|that|"
    r"this|them)|the\s+(?:above|foregoing|preceding)(?:\s+" + _RULE_NOUN + r")?(?![\s-]+(?!" + _RULE_NOUN +
    r")[a-z])|" + _RULE_NOUN + r"\s+(?:listed\s+|stated\s+|given\s+)?above|everything\s+(?:above|before\s+this|"
    r"listed|stated)|(?:these|those)\s+" + _RULE_NOUN + r")\b")
_EN_LIFT = re.compile(
    r"\b(?:no\s+longer\s+(?:apply|applies|hold|holds|stand|stands|matter|matters|valid|in\s+force|relevant|binding|"
    r"needed|required)|(?:do|does|did)(?:\s*n't|\s+not)\s+apply|appl(?:y|ies)\s+any\s*more|holds?\s+any\s*more|"
    r"disregard(?:ed)?|ignore[ds]?|obsolete|void|voided|lifted|dropped|scrapped|cancell?ed|withdrawn|revoked|"
    r"rescinded|waived|retracted|superseded|moot|scratch|forget|not\s+binding|off\s+the\s+table)\b")
_EN_KEEP = re.compile(
    r"\b(?:still|remain|remains|remained|continue|continues|whether|if|unless|(?:not|never)\s+(?:been\s+)?(?:lifted|"
    r"dropped|obsolete|void|cancell?ed|waived|revoked|scrapped|withdrawn|retracted|superseded)|(?:do|does|did|must|"
    r"should|will)(?:\s*n't|\s+not|\s+never)\s+(?:disregard|ignore|forget|drop|lift)|never\s+(?:disregard|ignore|"
    r"forget))\b")
_ZH_NOUN = r"(?:约束|规则|限制|要求|权限|许可|目标|条件|任务|请求)"
_ZH_ALL = re.compile(r"(?:以上|上述|前述|前面)的?(?:所有|全部)?的?" + _ZH_NOUN + r"?|(?:所有|全部|这些|那些|一切)的?" + _ZH_NOUN)
_ZH_LIFT = re.compile(r"作废|取消|不再适用|不再有效|不再生效|无需遵守|不用遵守|不必遵守|忽略|无效|撤销|撤回|废除|解除|不算数|不用管|可以不管")
_ZH_KEEP = re.compile(r"仍|依然|依旧|继续有效|没有取消|未取消|没有作废|未作废|不得忽略|不要忽略|不能忽略|是否|如果|除非")

# Lifting words the negation and dismissal scans (``Said.cancels``, ``said_referred.dismisses``: asked
# of every generation already, so their answers are free here) do not hold.
_MORE_LIFTS = ("void", "withdrawn", "supersed", "off the table", "rescinded", "retracted", "moot", "scrapped",
               "not binding")
# "~~All constraints above~~": the reference itself struck out.
_STRUCK = re.compile(r"~~[^~]*~~")

_KINDS = (("constraint", ("rule", "constraint", "restriction", "requirement", "limit", "instruction", "condition",
                          "guardrail", "prohibition", "约束", "规则", "限制", "要求", "条件")),
          ("acceptance", ("requirement", "condition", "要求", "条件")),
          ("permission", ("permission", "grant", "权限", "许可")),
          ("goal", ("goal", "task", "request", "ask", "目标", "要求", "任务", "请求")))


@dataclass(frozen=True, slots=True)
class Retraction:
    start: int  # where the retracting sentence starts in the normal form
    end: int
    kinds: frozenset[str]  # the kinds it names (every kind when it names none)
    words: tuple[str, ...]
    sentence: str


def retractions(said: Said) -> tuple[Retraction, ...]:
    """The sentences of the text that take back every rule before them (once per generation)."""
    return said.remember("retractions", lambda: _find(said))


def _find(said: Said) -> tuple[Retraction, ...]:
    text = said.text
    # The usual case — no lifting word at all — answered by scans the drift rules make anyway (a
    # regex of \b-bounded alternatives over every generation cost the drift bench ~40% more CPU).
    if not (said.cancels() or dismisses(said) or any(w in text for w in _MORE_LIFTS)):
        return ()
    found: list[Retraction] = []
    for s in said.sentences:
        t = s.text
        ref = _EN_ALL.search(t) or _ZH_ALL.search(t)
        lift = _EN_LIFT.search(t) or _ZH_LIFT.search(t) or _STRUCK.search(t)
        if ref is None or lift is None or "?" in t or "？" in t:
            continue
        if _EN_KEEP.search(t) or _ZH_KEEP.search(t) or said.hits("reported", s.start, s.end):
            continue
        named = ref.group()
        kinds = frozenset(k for k, nouns in _KINDS if any(n in named for n in nouns))
        found.append(Retraction(s.start, s.end, kinds or frozenset(k for k, _ in _KINDS),
                                (ref.group(), lift.group()), t))
    return tuple(found)


def retracted(said: Said, value_norm: str, kind: str) -> Retraction | None:
    """The sentence that takes the value back with every rule above it, or None: the value stands
    before it and is not stated again after it."""
    for r in retractions(said):
        if kind not in r.kinds:
            continue
        flat = said.flat()  # the value may run over a line break; offsets are the same
        first = find_value(flat, value_norm)
        if 0 <= first < r.start and find_value(flat, value_norm, r.end) < 0:
            return r
    return None


__all__ = ["Retraction", "retracted", "retractions"]
