"""A deadline the user gives in words is a rule to propose (verdict-twelve).

"Ship the fix by the end of the month." holds no "must", "never" or "only", so the constraint rule
(facts_text.constraint_word) proposed nothing, no record held the deadline, and a summary that
dropped it or moved it ("There is no deadline for the fix any more", "… by the end of next month")
was judged against nothing: ``said_deadline`` compares a summary's deadlines with a record's only.
A sentence of the user's that gives one deadline in words of ``said_deadline``'s shapes (the end of
a period, a span, a weekday, a month; English and Chinese) and says it *is* a deadline — "by",
"before", "until", "due", "no later than", "deadline", a span "within"/"in N days", "前", "之前",
"内", "截止" — is proposed (pending, ``constraint.deadline:<the words>``) so a summary is judged
against it. Not a deadline: a sentence telling what happened ("was", "were", "did", "last week",
"ago", "yesterday", "上周", "已经"), a question, a sentence naming no subject beside the date.
"""

from __future__ import annotations

import re

from inspector.domain.said import norm_phrase
from inspector.domain.said_deadline import _SHAPES, deadline_of

_CUE_BEFORE = re.compile(r"(?<![a-z])(?:by|before|until|till|due(?:\s+(?:by|on|at))?|no\s+later\s+than|deadline(?:\s+is)?|"
                         r"(?:at|in)\s+the\s+latest\s+by)\s+(?:the\s+)?$|截止(?:到|于)?\s*$|最晚\s*$")
_CUE_SHAPE = re.compile(r"^(?:in|within|by|before|until|till)\s|(?:之前|以前|前|内|之内|以内)$")
_TOLD = re.compile(r"(?<![a-z])(?:was|were|had|did|last|ago|yesterday|used\s+to)(?![a-z])|上周|上个月|去年|昨天|已经")


def deadline_rule(sentence: str) -> str | None:
    """The deadline words of a user's sentence that sets one, or None (the module's rule)."""
    v = norm_phrase(sentence)
    if _TOLD.search(v) or deadline_of(sentence) is None:
        return None
    m = next(_SHAPES.finditer(v))
    shape = m.group().strip()
    if _CUE_SHAPE.search(shape) or _CUE_BEFORE.search(v[:m.start()]):
        return shape
    return None


__all__ = ["deadline_rule"]
