"""A conditional prohibition's act reported done, and whether its condition held (verdict-six).

"Do not restart the API unless the health check fails": "The API was restarted although the
health check passed." broke it — but "check" is a word that only reads, so the act rules passed
the sentence as a green — while "The API was restarted once, after the health check failed." kept
it and was still a ``?``. The rule's act (its verb in any form, or a passive, with its object) and
its condition ("the health check fails": its subject words and its predicate, "fail") are read in
the same sentence:

- the condition's subject named with its predicate, not denied ("after the health check failed")
  — the exception the rule allows: ``condition_met`` (the act rules' ``?`` or finding for that
  sentence is dropped);
- the condition's subject named without its predicate, or with it denied, after a word that says
  the act went ahead anyway ("although", "even though", "despite", "while", "but") or with an
  opposite ("passed", "was green", "healthy", "did not fail") — ``condition_broken``:
  ``forbidden_action_done``.

verdict-seven: the same condition written without "unless" — "Deploy to production only if the
smoke tests pass", "Run the migration provided that the backup has finished", "只有在健康检查失败时
才能重启接口" (the act allowed only while the condition holds: broken when it did not), and its
mirror, "Do not clear the cache as long as the import is running", "如果导入正在运行，不要清空缓存"
(the act forbidden while the condition holds: broken when it did, ``forbidden_when``). A positive
rule has no "do not", so ``said_departures`` asks these rules for any value this module reads.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said, norm_phrase
from inspector.domain.said_condition_worded import Conditioned, worded_of, zh_act_at, zh_condition
from inspector.domain.said_forbidden import _IRREGULAR, forbidden_of
from inspector.domain.said_steps import telling_words
from inspector.domain.textnorm import Span

_UNLESS = re.compile(r"(?<![a-z])(?:unless|except when|except if)\s+(?P<cond>.+)$")
_ANYWAY = re.compile(r"(?<![a-z])(?:although|though|even though|even if|despite|while|whereas|but|yet)(?![a-z])")
_OPPOSITE = re.compile(r"(?<![a-z])(?:passed|passing|passes|green|healthy|fine|ok|okay|succeeded|was good|"
                       r"all clear|never|not|n't|no)(?![a-z])")
_NOT = re.compile(r"(?<![a-z])(?:not|never|n't|no|without)(?![a-z])")
_BEFORE = re.compile(r"(?<![a-z])(?:before|ahead of|prior to)(?![a-z])")
# What says a predicate did not hold, for the predicates a worded condition names (verdict-seven).
_ANTONYMS = {p: re.compile(rf"(?<![a-z])(?:{w})(?![a-z])") for p, w in (
    ("pass", r"fail|fails|failed|failing|red|broke|broken"),
    ("fini", r"running|unfinished|incomplete|in progress|still"),
    ("comp", r"running|unfinished|incomplete|in progress|still"),
    ("runn", r"finished|done|complete|completed|stopped|idle|over"))}
_NOT_WHILE = re.compile(r"(?<![a-z])(?:not|never|n't|no|without|stopped|ceased|finished|ended|done|over|completed|no longer)(?![a-z])")


@dataclass(frozen=True, slots=True)
class Broken:
    words: tuple[str, ...]
    sentence: str


@lru_cache(maxsize=4096)
def conditioned_of(value: str) -> Conditioned | None:
    v = norm_phrase(value).rstrip("。.!！ ")
    m = _UNLESS.search(v)
    act = forbidden_of(value)
    if m is None or act is None or not act.verb or not act.object or act.command:
        return worded_of(v)
    words = [w for w in telling_words(m.group("cond")) if w.isascii()]
    if len(words) < 2:
        return None
    pred = words[-1]
    pred = pred[:-1] if pred.endswith("s") and len(pred) > 4 else pred
    return Conditioned(act.verb, act.object, tuple(words[:-1]), pred[:4])


def _verb(c: Conditioned) -> str:
    forms = (re.escape(c.verb[:max(4, len(c.verb) - 2)]) + "[a-z]*",) + tuple(_IRREGULAR.get(c.verb, ()))
    return r"(?<![a-z])(?:" + "|".join(forms) + r")(?![a-z])"


def _act_at(text: str, c: Conditioned) -> int:
    """Where the rule's act is reported in the sentence (its verb in any form near its object), or -1."""
    if c.zh:
        return zh_act_at(text, c)
    verb = re.search(_verb(c), text)
    if verb is None or not all(re.search(rf"(?<![a-z]){re.escape(o[:5])}", text) for o in c.obj):
        return -1
    return verb.start()


def _condition(text: str, c: Conditioned) -> tuple[bool, str] | None:
    """(held, words) for a sentence naming the condition's subject; None when it does not."""
    if c.zh:
        return zh_condition(text, c)
    at = [m.start() for w in c.subject for m in [re.search(rf"(?<![a-z]){re.escape(w[:5])}", text)] if m]
    if len(at) < max(1, (len(c.subject) + 1) // 2):
        return None
    start = min(at)
    tail = text[start:start + 60]
    pred = re.search(rf"(?<![a-z]){re.escape(c.predicate)}[a-z]*", tail)
    neg = _NOT_WHILE if c.forbidden_when else _NOT  # "after the import stopped running": it no longer held
    early = _BEFORE.search(text[max(0, start - 16):start])  # "deployed before / ahead of the smoke tests …"
    if early is not None:  # verdict-eight: an "unless" rule too ("restarted before the health check failed")
        return False, early.group()
    if pred is not None and not neg.search(tail[:pred.start()]) and not _NOT.search(text[max(0, start - 20):start]):
        return True, pred.group()
    before = text[:start]
    anyway = _ANYWAY.search(before)
    opposite = _ANTONYMS.get(c.predicate, _OPPOSITE).search(tail)
    if anyway or opposite:
        return False, (anyway or opposite).group()  # type: ignore[union-attr]
    return None


def condition_met(said: Said, value: str) -> frozenset[str]:
    """The sentences reporting the act done with the rule's condition named as held."""
    c = conditioned_of(value)
    if c is None:
        return frozenset()
    return said.remember(("condition_met", value), lambda: frozenset(
        said.stripped(s) for s in said.sentences if _act_at(s.text, c) >= 0
        and (got := _condition(s.text, c)) is not None and got[0] != c.forbidden_when))


# The act said not to be needed: nothing was done ("Restarting the API is no longer needed since the
# health check passes", "不需要重启接口"), so the condition cannot have been broken (round nine's
# false alarm, fixed in verdict-ten).
_NOT_NEEDED = re.compile(r"(?<![a-z])(?:(?:no longer|not|never)\s+(?:\w+\s+)?(?:needed|necessary|required)|"
                         r"unnecessary|needless|no need)(?![a-z])|不需要|无需|不必|没必要|用不着")


def condition_broken(said: Said, value: str) -> Broken | None:
    """The first sentence reporting the act done while the condition did not hold."""
    c = conditioned_of(value)
    if c is None:
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    for s in said.sentences:
        if v in s.text:
            continue
        at = _act_at(s.text, c)
        if at < 0 or (not c.zh and (_NOT.search(s.text[:at]) or re.search(
                r"(?<![a-z])(?:will|would|may|might|should|must|can|could|if|whether|unless)(?![a-z])", s.text[:at]))):
            continue
        if _NOT_NEEDED.search(s.text):
            continue  # "Restarting the API is no longer needed since the health check passes": not done
        got = _condition(s.text if c.zh else s.text[at:], c)
        if got is not None and got[0] == c.forbidden_when:
            act = re.search(_verb(c), s.text) if not c.zh else None
            return Broken(((act.group() if act else c.verb), got[1]), said.stripped(s))
    return None


_FREE = re.compile(r"(?<![a-z])(?:whenever|any ?time|at any time|regardless|no matter|unconditionally|even if|"
                   r"even when)(?![a-z])|随时|任何时候|无论|不管|不论|即使|就算")
_FREE_ANYWAY = re.compile(r"even if|even when|即使|就算")
_ZH_NEG = re.compile(r"不|别|禁止|没|未")


def _cued(said: Said, value: str, name: str,
          cue: re.Pattern[str]) -> tuple[Conditioned, list[tuple[Span, re.Match[str]]]] | None:
    """The rule's condition and the sentences holding ``cue`` but not the rule's own words — where
    the lifting, cancelling and untying rules each look — or None when the summary holds no cue
    (remembered per summary under ``name``) or the rule has no condition."""
    if not said.remember((name,), lambda: cue.search(said.text) is not None):
        return None
    c = conditioned_of(value)
    if c is None:
        return None
    v = norm_phrase(value).rstrip("。.!！ ")
    return c, [(s, m) for s in said.sentences if (m := cue.search(s.text)) is not None and v not in s.text]


def condition_lifted(said: Said, value: str) -> Broken | None:
    """The rule's act said to be done or allowed whatever its condition (verdict-seven): "Deploy to
    production whenever ready", "The API can be restarted at any time now", "现在可以随时重启接口",
    "The migration may run even if the backup has not finished" — the condition dropped."""
    cued = _cued(said, value, "free_cue", _FREE)
    if cued is None:
        return None
    c, sentences = cued
    for s, free in sentences:
        if c.zh:
            i = s.text.find(c.verb)
            if i < 0 or c.obj[0] not in s.text[i:] or _ZH_NEG.search(re.sub("不管|不论", "", s.text[max(0, i - 4):i])):
                continue
        else:
            at = re.search(_verb(c), s.text)
            if at is None or not all(re.search(rf"(?<![a-z]){re.escape(o[:5])}", s.text) for o in c.obj) \
                    or _NOT.search(s.text[:at.start()]):
                continue
        got = _condition(s.text, c)
        if (got is not None and got[0] != c.forbidden_when) or (got is None and _FREE_ANYWAY.match(free.group())):
            continue  # "restart the API whenever the health check fails": the rule restated
        return Broken((free.group(),), said.stripped(s))
    return None


# A condition cancelled in words about it (verdict-eight): "The restart condition was dropped.",
# "The health-check requirement no longer applies.", "重启条件已取消。" — the rule's act or its
# condition's subject named beside "condition" / "requirement" (条件 / 前提 / 要求) and a word
# that takes it away; "still applies", "was kept", "was not dropped" do not.
_CANCEL = re.compile(r"(?<![a-z])(?:(?:was|were|has been|have been|is|are|got|been)\s+(?:now\s+)?(?:dropped|removed|"
                     r"lifted|waived|cancell?ed|scrapped|deleted|relaxed|abandoned|retired|gone)|no longer (?:applies|"
                     r"apply|holds|hold|stands|matters|in force|in effect)|(?:does|do)(?: not|n't) apply any ?more)(?![a-z])|"
                     r"已取消|取消了|被取消|已作废|作废了|不再适用|不再有效|已去掉|去掉了|已移除|移除了|已废除|废除了|已失效|失效了")
_APART = re.compile(r"[,;:，；：。]|(?<![a-z])(?:and|but|then|so)(?![a-z])|然后|并且|但")
_ABOUT = re.compile(r"(?<![a-z])(?:condition|requirement|precondition|prerequisite|exception|caveat|proviso)s?"
                    r"(?![a-z])|条件|前提|要求|例外")


def condition_cancelled(said: Said, value: str) -> Broken | None:
    """A sentence cancelling the rule's condition in words about it (not the whole rule's words)."""
    cued = _cued(said, value, "cancel_cue", _CANCEL)
    if cued is None:
        return None
    c, sentences = cued
    named = (c.verb, *c.subject) if c.zh else (c.verb[:5], *(w[:5] for w in c.subject))
    for s, cancel in sentences:
        about = _ABOUT.search(s.text)
        if about is None:
            continue
        if c.zh:
            hit = any(w in s.text[:about.start()] for w in named) and not _ZH_NEG.search(
                s.text[max(0, cancel.start() - 2):cancel.start()])
        else:
            head = s.text[max(0, about.start() - 30):about.start()]
            hit = any(re.search(rf"(?<![a-z]){re.escape(w)}", head) for w in named) and not re.search(
                r"(?<![a-z])(?:not|never|n't)\s+(?:been\s+)?$", s.text[:cancel.start()] + " ")
        between = s.text[about.end():cancel.start()]
        if hit and about.start() < cancel.start() and len(between) <= 24 and not _APART.search(between):
            return Broken((cancel.group(),), said.stripped(s))
    return None


# The condition cut loose from the act with no word for "condition" (verdict-nine): "The health
# check no longer matters for restarts", "Restarts no longer depend on the health check", "重启接口
# 不再需要看健康检查" — the act and the condition's subject both named beside a word that unties them.
_UNTIED = re.compile(r"(?<![a-z])(?:no longer (?:matters?|depends?|counts?|gates?|governs?|decides?|needed|required|"
                     r"relevant|blocks?)|(?:does|do)(?: not|n't) (?:matter|count|depend on [a-z ]{1,30}) any ?more|"
                     r"is (?:now )?irrelevant|(?:is|are) (?:now )?optional|(?:is|are) not (?:needed|required) any ?more)(?![a-z])|不再需要|不再取决于|不再依赖|不再看|不用再看|无需再看|不再管|不再受")


def _act_is_unneeded(text: str, untied: re.Match[str], c: Conditioned) -> bool:
    """A need cue ("no longer needed", "不再需要") whose subject is the rule's act, not its
    condition: "Restarting the API is no longer needed since the health check passes" (the act
    before the cue, the condition's subject only after it), "不再需要重启接口" (the act right after
    the cue). Nothing was done and nothing was untied (round nine's false alarm)."""
    if not re.search(r"needed|required|需要", untied.group()):
        return False
    if c.zh:
        return text[untied.end():].lstrip().startswith(c.verb)
    head = text[:untied.start()]
    head = head[max(head.rfind(","), head.rfind(";"), head.rfind(":")) + 1:]
    return re.search(rf"(?<![a-z]){re.escape(c.verb[:5])}", head) is not None and not any(
        re.search(rf"(?<![a-z]){re.escape(w[:5])}", head) for w in c.subject)


def condition_untied(said: Said, value: str) -> Broken | None:
    """A sentence that says the rule's act no longer hangs on its condition."""
    cued = _cued(said, value, "untied_cue", _UNTIED)
    if cued is None:
        return None
    c, sentences = cued
    for s, untied in sentences:
        if c.zh:
            hit = c.verb in s.text and all(w in s.text for w in c.subject)
        else:
            hit = re.search(rf"(?<![a-z]){re.escape(c.verb[:5])}", s.text) is not None and all(
                re.search(rf"(?<![a-z]){re.escape(w[:5])}", s.text) for w in c.subject)
        if hit and _act_is_unneeded(s.text, untied, c):
            continue  # "Restarting the API is no longer needed since …": the act is what is not needed
        if hit and not re.search(r"(?<![a-z])(?:not|never|n't|still)\s+$|仍|依然|还是$", s.text[:untied.start()] + " ") \
                and not re.search(r"(?<![a-z])(?:not|except)\s+(?:for|to|on)(?![a-z])|不包括|除了", s.text[untied.end():]):
            return Broken((untied.group(),), said.stripped(s))
    return None


__all__ = ["Broken", "Conditioned", "condition_broken", "condition_cancelled", "condition_untied", "condition_lifted", "condition_met",
           "conditioned_of"]
