"""A rule turned into its opposite by syntax, while its words stand (verdict-six).

Two shapes no cancelling-word rule reads, since the cancelling word is the rule's own:

- **a double negative** — "It is no longer true that the API must not be restarted.", "There is
  no rule against restarting the API any more.", "Nothing stops us from restarting the API.",
  "并不是不能重启接口": a clause that denies a prohibition of the rule's act. The rule's telling
  words (its verb and object, its condition left out) must be named after the denial;
- **the negation dropped in a restatement** — "Do not restart the API unless the health check
  fails" kept, and elsewhere "Restart the API unless the health check fails." — the rule's words
  after its "do not"/"never" stated again, outside the value, with no negation in their clause.

Both are ``protected_negated`` (survival ``contradicted``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_forbidden import _CONDITION
from inspector.domain.said_steps import denies, telling_words
from inspector.domain.textnorm import CJK

_DENIED_RULE = re.compile(
    r"(?<![a-z])(?:no longer|not|n't|never)\s+(?:true|the case|so|valid|correct|in force|required|a rule)\s+that\s+|"
    r"(?<![a-z])(?:there is|there's|we have|there are)\s+no\s+(?:longer\s+(?:a|any)\s+)?(?:rule|ban|restriction|"
    r"prohibition|requirement)s?\s+(?:any more\s+|anymore\s+)?(?:against|on)\s+|"
    r"(?<![a-z])nothing\s+(?:stops|prevents|forbids|keeps)\s+(?:us|you|the agent|anyone|anybody)?\s*(?:from\s+)?|"
    r"(?:并不是|并非|不再是|没有规定|不再规定|不再要求)(?=.{0,4}(?:不得|不能|不要|禁止|不许|不准|别))")
# The Chinese shapes verdict-eight added, read over the whole clause (the rule's words often stand
# before them: "接口不是不能重启"): "不是/并非 … 不可", "未禁止", "没有说不许", "可以不必遵守".
_DENIED_ZH = re.compile(
    r"(?:并不是|并非|不再是|不是)(?=[^，,。；;！!？?]{0,4}(?:不得|不能|不要|禁止|不许|不准|不可|不允许))(?![^，,。；;]{0,4}不得不)|"
    r"(?:并未|未曾|未|没有|没)(?:说过|说|规定|明确)?(?=禁止|不许|不准|不得|不能|不允许)(?!不得不)|"
    r"(?:可以)?(?:不必|无需|无须|不需要|不用)再?(?:遵守|遵循|理会)")
_PROHIBITION_EN = re.compile(r"^(?:do not|don't|never|must not|mustn't|you must not|you may not|please do not)\s+")
_CUES = re.compile(r"no longer|not true|n't true|the case|no rule|no ban|no restriction|no prohibition|nothing stop|"
                   r"nothing prevent|nothing forbid|并不是|并非|不再是|没有规定|不再规定|不再要求")
# What may stand before the rule's words when they are an order or a grant of their own: a list
# mark, a label, "please", "we/you can/may/should" — not another subject ("Only the DBA may").
_IMPERATIVE_HEAD = re.compile(r"^[-*•\d.)\s]*(?:(?:next|todo|plan|rules?|update|now|note)\s*[:：]\s*)?"
                              r"(?:please|always|now|so|then|and|from now on|going forward)?\s*"
                              r"(?:(?:we|you|the agent|agents?|it is|it's)\s+)?(?:can|may|should|must|will|"
                              r"(?:are|is) allowed to|(?:is )?fine to|ok to|okay to|free to|feel free to)?\s*$")
_CUT = re.compile(r"[;；。.!！?？\n]")
_CLAUSE = re.compile(r"[;；,，:：]|(?<![a-z])(?:but|and|however)(?![a-z])")


@dataclass(frozen=True, slots=True)
class Flipped:
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def _core(value: str) -> tuple[str, ...]:
    """The rule's telling words less its condition ("unless the health check fails"), as stems."""
    v = _CONDITION.sub("", norm_phrase(value).rstrip("。.!！ "))
    words = [w for w in telling_words(v) if w not in ("not", "never", "don't", "must")]
    return tuple(dict.fromkeys(w if CJK.search(w) else w[:5] for w in words if len(w) >= 2))


@lru_cache(maxsize=4096)
def _positive(value: str) -> str | None:
    """The rule's words after its "do not"/"never", when it is an English prohibition."""
    v = norm_phrase(value).rstrip("。.!！ ")
    m = _PROHIBITION_EN.match(v)
    rest = v[m.end():] if m else ""
    return rest if len(rest.split()) >= 2 else None


def flipped(said: Said, value: str) -> Flipped | None:
    """A double negative that lifts the rule, or its negation dropped in a restatement."""
    cue = said.remember(("flip_cue",), lambda: _cue(said.text))
    positive = _positive(value)
    if not cue and (positive is None or positive not in said.text):
        return None  # the usual case, asked cheaply for every record of every generation
    return said.remember(("flipped", value), lambda: _double(said, value) or _dropped(said, value))


def _cue(text: str) -> bool:
    return _CUES.search(text) is not None or (not text.isascii() and _DENIED_ZH.search(text) is not None)


def _double(said: Said, value: str) -> Flipped | None:
    if not said.remember(("flip_cue",), lambda: _cue(said.text)):
        return None
    core = _core(value)
    if len(core) < 2:
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    for s in said.sentences:
        for part in _CUT.split(s.text):
            m = _DENIED_RULE.search(part)
            zh = m is None and _DENIED_ZH.search(part)
            if zh:
                m, rest = zh, part[:zh.start()] + "\n" + part[zh.end():]
            elif m is not None:  # a Chinese denial is read over the whole clause ("接口并非不能重启")
                rest = part[m.end():] if m.group().isascii() else part[:m.start()] + "\n" + part[m.end():]
            if m is None or v in part or (not m.group().isascii() and "而是" in part[m.end():]):
                continue  # "并不是不要重启接口，而是要等健康检查失败": the rule restated by contrast
            named = sum(1 for w in core if w in rest)
            if named >= max(2, (len(core) + 1) // 2):
                return Flipped((m.group().strip(),), said.stripped(s))
    return None


def _dropped(said: Said, value: str) -> Flipped | None:
    positive = _positive(value)
    if positive is None or positive not in said.text:
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    inside = [(m.start(), m.end()) for m in re.finditer(re.escape(v), said.text)]
    for m in re.finditer(re.escape(positive), said.text):
        if any(a <= m.start() < b for a, b in inside):
            continue
        s = said.sentence_at(m.start())
        if s is None:
            continue
        head = said.text[s.start:m.start()]
        cuts = [c.end() for c in _CLAUSE.finditer(head)]
        clause = head[cuts[-1] if cuts else 0:]
        if denies(clause) or not _IMPERATIVE_HEAD.match(clause):
            continue  # "Only the DBA may modify …", "The rule says …": a restatement, not the opposite
        return Flipped((positive,), said.stripped(s))
    return None


__all__ = ["Flipped", "flipped"]
