"""A dispute flattened into an agreement: what the user refused, reported as agreed (verdict-ten).

The user said "No, I refuse to add Redis" — a prohibition ("Do not add Redis as a dependency") or a
decision with the refused option as its alternative — and the summary says "The user agreed to add
Redis as a dependency", "The user approved deleting the audit logs", "用户同意引入 Redis 依赖",
"经讨论，用户接受了 Redis 缓存". The words of the rule stand, so survival read "unknown" and drift a
``?`` at best; yet the sentence says the opposite of what the user said. Read here:

- a clause with an agreement word ("agreed", "approved", "accepted", "signed off", "okayed", "gave
  the go-ahead", "同意", "批准", "接受", "认可", "答应") that nothing denies ("did not agree", "never
  approved", "没有同意", "拒绝") and that names every telling word of what a prohibition forbids
  (its act and object; its condition is not part of it) is ``protected_negated``;
- such a clause that names the words only a decision's alternative has ("redis" of "add a Redis
  cache" beside "keep the in-memory cache") and none only the decision has is ``decision_reversed``.

Not read: an agreement in other words ("the user is OK with Redis now" is the grant rules'), or one
whose object is only a pronoun.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from inspector.domain.drift_finding import Finding
from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_steps import telling_words

_AGREED = re.compile(r"(?<![a-z])(?:agreed|agrees|approved|approves|accepted|accepts|okayed|ok'd|signed off|consented|"
                     r"gave (?:the |their |his |her )?(?:go-ahead|green light|ok|okay)|greenlit|green-lit|"
                     r"(?:is|was|are|were) (?:now )?on board with|it was agreed|we agreed|both agreed)(?![a-z])|"
                     r"同意|批准|接受|认可|答应|首肯|拍板|达成一致|没有异议")
_DENIED_EN = re.compile(r"(?<![a-z])(?:not|never|n't|no one|nobody|refused|rejected|declined|without)(?![a-z])")
_DENIED_ZH = re.compile(r"[不没未别]$|拒绝|并未|没有$")
_CUT = re.compile(r"[;；。.!！\n]|(?<![a-z])but(?![a-z])|但是|不过|却")
_PROHIBITION = re.compile(r"^(?:please\s+)?(?:you\s+)?(?:must not|mustn't|may not|do not|don't|never|should not|cannot|"
                          r"can't|are not allowed to|are not to)\s+|^(?:请)?(?:绝对)?(?:不要|不得|禁止|不能|不许|不准|别|请勿|切勿)")
_CONDITION = re.compile(r"(?<![a-z])unless\b.*$|除非[^，,。；;]*[，,]?")


@dataclass(frozen=True, slots=True)
class Agreed:
    words: tuple[str, ...]
    sentence: str


def _groups(words: tuple[str, ...]) -> list[list[str]]:
    """Telling words grouped so a Chinese run counts once, whichever piece names it."""
    return [[p for p in words if p in w] for w in words if not any(w != o and w in o for o in words)]


def _named(part: str, word: str) -> bool:
    if not word.isascii():
        return word in part
    stem = word[:5] if len(word) >= 6 else word
    return re.search(rf"(?<![a-z0-9]){re.escape(stem)}", part) is not None


@lru_cache(maxsize=4096)
def forbidden_words(value: str) -> tuple[str, ...]:
    """The telling words of what a prohibition forbids (its condition left out), or () if not one."""
    v = norm_phrase(value).rstrip("。.!！ ")
    v = _CONDITION.sub("", v).strip(" ,，")
    m = _PROHIBITION.search(v)
    if m is None:
        return ()
    return tuple(w for w in telling_words(v[m.end():]) if not w.isdigit())


def _agreements(said: Said) -> list[tuple[str, str, str]]:
    """(clause, agreement word, sentence) of every clause agreeing to something, undenied (once per text)."""
    def find() -> list[tuple[str, str, str]]:
        out = []
        for s in said.sentences:
            for part in _CUT.split(s.text):
                m = _AGREED.search(part)
                if m is None or "?" in part:
                    continue
                head = part[:m.start()]
                zh = not m.group().isascii()
                if (_DENIED_ZH.search(head[-3:]) or "拒绝" in part) if zh else _DENIED_EN.search(head):
                    continue
                tail = part[m.end():]
                if (re.search(r"[不没未别]|禁止|不得|放弃|排除", tail) if zh else _DENIED_EN.search(tail) or re.search(
                        r"(?<![a-z])(?:no|keep|keeping|off the table|ruled out|dropped|out of scope|instead of|rather "
                        r"than|against|abandon\w*)(?![a-z])", tail)):
                    continue  # "agreed: do not delete the audit logs", "同意不引入 Redis": the rule agreed to
                out.append((part[m.start():] if not zh else part, m.group(), said.stripped(s)))
        return out
    if not said.remember(("agreed_cue",), lambda: _AGREED.search(said.text) is not None):
        return []
    return said.remember(("agreements",), find)  # type: ignore[no-any-return]


def agreed_forbidden(said: Said, value: str) -> Agreed | None:
    """A clause reporting agreement to every telling word of what ``value`` forbids."""
    words = forbidden_words(value)
    if len(words) < 2 and not (words and not words[0].isascii()):
        return None
    groups = _groups(words)
    v = norm_phrase(value).rstrip("。.!！ ")
    for part, word, sentence in _agreements(said):
        if v in part:
            continue
        if all(any(_named(part, w) for w in g) for g in groups):
            return Agreed((word, *(g[0] for g in groups)), sentence)
    return None


def agreed_alternative(said: Said, value: str, alternatives: tuple[str, ...]) -> Agreed | None:
    """A clause reporting agreement to a decision's alternative: naming half the words only the
    alternative has, and none only the decision has."""
    own = set(telling_words(norm_phrase(value)))
    for alt in alternatives:
        alt_words = tuple(w for w in telling_words(norm_phrase(alt)) if w not in own)
        groups = _groups(alt_words)
        only_value = [w for w in own if w not in set(telling_words(norm_phrase(alt)))]
        if not groups:
            continue
        need = max(1, math.ceil(len(groups) / 2))
        for part, word, sentence in _agreements(said):
            named = [g[0] for g in groups if any(_named(part, w) for w in g)]
            if len(named) >= need and not any(_named(part, w) for w in only_value):
                return Agreed((word, *named), sentence)
    return None


def agreed_reversal(generation: int, fact: Any, said: Said) -> Finding | None:
    """``decision_reversed`` for a decision whose rejected alternative the text reports as agreed."""
    agreed = agreed_alternative(said, fact.value, fact.alternatives)
    if agreed is None:
        return None
    return Finding("decision_reversed", fact.key,
                   f"generation {generation} reports the rejected alternative as agreed (“{agreed.words[0]}” in "
                   f"“{agreed.sentence}”); the decision ({fact.key}) is “{fact.value}”.",
                   words=agreed.words, where=agreed.sentence)


__all__ = ["Agreed", "agreed_alternative", "agreed_forbidden", "agreed_reversal", "forbidden_words"]
