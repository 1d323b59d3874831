"""A rule the summary quotes whole behind a "do not" / "never": its opposite, not the rule kept.

Survival called a value "kept" wherever its words stood whole in the summary. For an affirmative
rule that reads the words and not what stands before them: the system prompt's "Use the player's
name in the response" (the real DeepSeek dice game) was kept by "Never use the player's name in
the response", and "Give short answers" (the real Responses instructions) by "Do not give short
answers; explain every step at length" — a false all-clear on the one summary that reverses the
rule (verdict-real-three). The rules with a negation of their own ("Never touch prod") are read by
drift's negation rules; this one only asks whether a place the value stands whole is right after
a negation in the same clause.
"""

from __future__ import annotations

import re

from inspector.domain.textnorm import find_value

# A negation that ends right before the value (the text is normalised: casefolded, apostrophes
# plain): "do not give short answers", "never use the player's name", "no longer keep …".
_NEGATED = re.compile(r"(?:\b(?:do not|don't|dont|no longer|no) need to|\bnot required to|\bdo not|\bdon't|\bdont|\bdoes not|\bdoesn't|\bnever|\bno longer|\bmust not|\bmustn't|"
                      r"\bshould not|\bshouldn't|\bnot to|\bneed not|\bneedn't|\bnot)"
                      r"(?:\s+(?:always|ever|again|anymore))?\s+$")
_NEGATION_IN_VALUE = re.compile(r"\b(?:not|never|no|don't|dont|without|nor)\b|n't\b")
_LOOK_BACK = 40


def negated_at(flat: str, value_norm: str) -> int | None:
    """The offset of a place the affirmative value stands whole right after a negation, or None
    (a value that is itself negative is drift's to read)."""
    if not value_norm or _NEGATION_IN_VALUE.search(value_norm):
        return None
    pos = find_value(flat, value_norm)
    while pos >= 0:
        if _NEGATED.search(flat[max(0, pos - _LOOK_BACK):pos]) is not None:
            return pos
        pos = find_value(flat, value_norm, pos + 1)
    return None


# Where a rule's opening clause ends ("Use the player's name | in the response", "You MUST use the
# update_plan tool | and continually update it …"), and the words that only say it binds.
_CLAUSE_END = re.compile(r",|;|\s(?:and|in|on|at|for|when|if|unless|while|before|after|so|until|to the|with)\s")
_BINDING = re.compile(r"^(?:(?:you|we|the assistant|the agent)\s+)?(?:must|should|shall|always|please|make sure to|"
                      r"be sure to|need to|have to)\s+")
_MIN_OPENING_WORDS = 3


def opening_of(value_norm: str) -> str | None:
    """The rule's opening clause without the words that only say it binds, when it is three words or
    more and shorter than the rule ("use the player's name" of "use the player's name in the response")."""
    if not value_norm or _NEGATION_IN_VALUE.search(value_norm):
        return None
    head = _BINDING.sub("", value_norm.strip())
    cut = _CLAUSE_END.search(head)
    head = (head[:cut.start()] if cut else head).strip(" .")
    if len(head.split()) < _MIN_OPENING_WORDS or head == value_norm.strip(" ."):
        return None
    return head


def negated_opening(flat: str, value_norm: str) -> tuple[int, str] | None:
    """A place the rule's opening clause stands right after a negation, when the whole rule stands
    nowhere: "keep it anonymous, never use the player's name" for "Use the player's name in the
    response" (the real dice game, verdict-real-four: survival said unknown, check ?)."""
    head = opening_of(value_norm)
    if head is None or _NEGATION_IN_VALUE.search(head):
        return None
    pos = find_value(flat, head)
    while pos >= 0:
        # negated, and the clause ends with it: "do not use the player's name in logs" narrows it to
        # another place (a qualifier of its own), it does not reverse the rule
        if _NEGATED.search(flat[max(0, pos - _LOOK_BACK):pos]) and _CLAUSE_DONE.match(flat, pos + len(head)):
            return pos, head
        pos = find_value(flat, head, pos + 1)
    return _loosened(flat, head)


def _loosened(flat: str, head: str) -> tuple[int, str] | None:
    """The opening's object said to be optional ("the update_plan tool is optional" for "You MUST use
    the update_plan tool …", the real Responses instructions): the rule made a choice."""
    words = head.split()
    thing = " ".join(words[1:])
    if len(words) < _MIN_OPENING_WORDS or thing not in flat:
        return None
    m = re.search(rf"(?<![\w-]){re.escape(thing)}\s+(?:is|are)\s+(?:now\s+)?(?:optional|not required|no longer "
                  r"required|not needed|unnecessary|not mandatory)\b", flat)
    return None if m is None else (m.start(), head)


_CLAUSE_DONE = re.compile(r"\s*(?:$|[.,;:!?)\n]|(?:and|but|or|so|anymore|again|at all)\b)")
