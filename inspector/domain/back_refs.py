"""What a user's "keep that rule" points back to: the one rule of the message it answers, or nothing.

An endorsement that names nothing but a back-reference ("keep that rule", "stick to it",
"always do that", "必须遵守这条规定") was proposed as a constraint in those very words: a
protected record no summary can keep, so every summary was judged to have lost it. What it
endorses is a rule said just before, so it resolves to that rule when exactly one is there:

* the lines the message quoted or pasted back, when they hold a rule ("> 2. Never touch prod"
  then "keep that rule": the user picked that one out of the plan), else
* the assistant's reply since the user's previous message, with that previous message.

The record cites where the rule was said and where the user endorsed it. None, or two rules
there, and nothing is proposed: a pending "keep that rule" could only be judged missing from
every summary (tests/test_back_reference_rule.py). A prohibition pointing back ("don't do that")
is not an endorsement of what it points at, and stays the user's words, as before.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from inspector.domain.textnorm import CJK, norm

# The constraint words that endorse what they name (facts_text.constraint_word's words).
ENDORSING = frozenset({"keep", "stick to", "always", "make sure", "ensure", "must", "必须", "务必"})
_NEGATION = re.compile(r"\b(?:not|never|no)\b|n't\b|[不别勿]")
_WORD = re.compile(r"[a-z0-9']+")
# Words that point back, and words an endorsement is said with: a sentence of these alone names nothing.
_POINTING = frozenset("that this it those these them same the one ones way rule rules constraint constraints "
                      "restriction restrictions limit limits requirement requirements prohibition ban".split())
_FILLER = frozenset("please pls ok okay and but also so then just yes yeah sure agreed right do doing to with in "
                    "mind place going as is are follow following obey respect honor honour apply remember keep "
                    "stick always make ensure must you we".split())
_ZH_POINTING = re.compile(r"(?:这|那|该|此|上述)(?:条|个|项|一)?(?:规则|规定|约束|限制|要求)?|它")
_ZH_FILLER = re.compile(r"必须|务必|遵守|坚持|保持|按照|按|照|执行|一直|继续|都|要|还是|请|就|记住")
_ZH_REST = re.compile(r"[\s，,。.!！、；;：:]+")
_LIST_MARK = re.compile(r"^\s*(?:>\s*)*(?:[-*•+]\s+|\d{1,2}[.)]\s+)?")


@dataclass(frozen=True, slots=True)
class Before:
    """What a user's message can point back to: each line it quoted or pasted (with the seq of the
    assistant's message it was said in, None when not found), the assistant's messages since the
    user's previous message, and that previous message's own words."""
    quoted: tuple[tuple[int | None, str], ...]
    said: tuple[tuple[int, str], ...]
    asked: tuple[int, str] | None


def names_nothing(sentence: str, word: str) -> bool:
    """Whether a constraint sentence is an endorsement that names nothing but what it points back
    to ("keep that rule", "make sure to follow it", "必须遵守这条规定")."""
    if word not in ENDORSING:
        return False
    s = norm(sentence)
    if _NEGATION.search(s):
        return False
    if CJK.search(s):
        rest = _ZH_FILLER.sub("", s)
        pointed = _ZH_POINTING.search(rest) is not None
        return pointed and not _ZH_REST.sub("", _ZH_POINTING.sub("", rest))
    words = _WORD.findall(s)
    return any(w in _POINTING for w in words) and all(w in _POINTING or w in _FILLER for w in words)


def rule_value(sentence: str) -> str:
    """A rule as a record holds it: without list marks, emphasis and the closing stop."""
    return _LIST_MARK.sub("", sentence).replace("**", "").strip().rstrip("。.!！ ")


def resolve(before: Before | None, rules_in: Callable[[str], list[str]]) -> tuple[str, list[int]] | None:
    """The one rule an endorsement points back to and the seqs of the messages it was said in,
    or None when there is no such single rule. ``rules_in`` gives a text's rules (facts_text)."""
    if before is None:
        return None
    found: dict[str, tuple[str, set[int]]] = {}

    def add(text: str, seq: int | None) -> None:
        for rule in rules_in(text):
            value = rule_value(rule)
            entry = found.setdefault(" ".join(value.casefold().split()), (value, set()))
            if seq is not None:
                entry[1].add(seq)

    for seq, line in before.quoted:
        add(_LIST_MARK.sub("", line), seq)
    if not found:  # the quote named no rule: the reply it answers, and the user's message before it
        for seq, text in before.said:
            add(text, seq)
        if before.asked is not None:
            add(before.asked[1], before.asked[0])
    if len(found) != 1:
        return None
    value, seqs = next(iter(found.values()))
    return (value, sorted(seqs)) if value else None
