"""A condition written without "unless" (verdict-seven): what ``said_condition`` reads it as.

"Do not restart the API unless the health check fails" was the only shape read. The same rule
comes in other words, and in two senses:

- the act allowed only while the condition holds — "Deploy to production only if the smoke tests
  pass", "Only when the backup has finished, run the migration", "Run the migration provided that
  the backup has finished", "只有在健康检查失败时才能重启接口": broken by the act reported done
  while the condition did not hold;
- the act forbidden while the condition holds — "Do not clear the cache as long as the import is
  running", "If the import is running, do not clear the cache", "如果导入正在运行，不要清空缓存":
  broken by the act reported done while it held (``forbidden_when``).

The Chinese act is read as its first two characters (the verb, "重启") and the rest (its object,
"接口"); the condition as its subject and one of a few predicates ("失败", "通过", "运行" …).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said_steps import telling_words


@dataclass(frozen=True, slots=True)
class Conditioned:
    verb: str
    obj: tuple[str, ...]
    subject: tuple[str, ...]  # the condition's subject words ("health", "check")
    predicate: str  # its predicate's stem ("fail")
    forbidden_when: bool = False  # "do not X as long as C": the act is forbidden while C holds
    zh: bool = False
    worded: bool = False  # read by this module (not the "unless" shape said_condition reads itself)


_NO = r"(?:do not|don't|never|must not|mustn't|you must not|you may not|please do not)"
_EN = (  # (pattern, forbidden_when); a prohibition is tried before the positive shapes
    (re.compile(rf"^{_NO}\s+(?P<act>.+?)\s+(?:as long as|so long as|while|whenever|when|if)\s+(?P<cond>.+)$"), True),
    (re.compile(rf"^(?:if|when|while|whenever|as long as|so long as)\s+(?P<cond>.+?),\s*{_NO}\s+(?P<act>.+)$"), True),
    (re.compile(r"^(?:only (?:if|when|after)|provided that)\s+(?P<cond>.+?),\s*(?:you |we )?(?:may |can |should )?"
                r"(?P<act>.+)$"), False),
    (re.compile(r"^(?P<act>.+?)\s+(?:only if|only when|only after|provided that|providing that|so long as|"
                r"as long as|if and only if)\s+(?P<cond>.+)$"), False),
)
_ZH = ((re.compile(r"^只有(?:在|当)?(?P<cond>.+?)(?:时|的时候|之后|以后|后)?(?:才能|才可以|才可|才)(?P<act>.+)$"), False),
       (re.compile(r"^(?:如果|若|假如|当|只要)(?P<cond>.+?)(?:时|的时候)?[，,]\s*(?:就|则)?(?:不要|不得|不能|禁止|别|不准|不许)"
                   r"(?P<act>.+)$"), True),
       (re.compile(r"^除非(?P<cond>.+?)(?:时|的时候)?[，,]\s*(?:否则)?(?:不要|不得|不能|禁止|别|不准|不许)(?P<act>.+)$"), False))
_ZH_PRED = ("失败", "通过", "成功", "完成", "结束", "运行", "正常", "异常", "超时", "就绪", "可用", "报错")
_ZH_STATE = re.compile(r"(?:正在|还在|仍在|已经|在|已)$")
_ZH_NOT = re.compile(r"没|未|不|停止|别")
_ZH_ANYWAY = re.compile(r"虽然|尽管|即使|即便|但|仍|照样|还是")
_ZH_EARLY = re.compile(r"之前|以前|前(?![端台])")
_ZH_PLAN = re.compile(r"将|要|会|准备|可以|才能|能|应|需")


@lru_cache(maxsize=4096)
def worded_of(v: str) -> Conditioned | None:
    """The rule's act and condition, when ``v`` (normalized) says them in one of the shapes above."""
    for pat, when in _ZH:
        m = pat.match(v)
        if m:
            return _zh(m.group("act"), m.group("cond"), when)
    if not v.isascii():
        return None
    for pat, when in _EN:
        m = pat.match(v)
        if m is None:
            continue
        if not when and re.match(_NO, m.group("act")):
            return None  # "do not X only if Y": not a shape this reads
        act, cond = m.group("act").split(), m.group("cond").split()
        obj = tuple(w for w in telling_words(" ".join(act[1:])) if len(w) > 2)
        subject = tuple(w for w in telling_words(" ".join(cond[:-1])) if len(w) > 2)
        if not obj or not subject or len(act[0]) < 2:
            return None
        pred = cond[-1]
        pred = pred[:-1] if pred.endswith("s") and len(pred) > 4 else pred
        return Conditioned(act[0], obj, subject, pred[:4], when, worded=True)
    return None


def _zh(act: str, cond: str, when: bool) -> Conditioned | None:
    act = act.strip(" ，,")
    for p in _ZH_PRED:
        i = cond.rfind(p)
        if i > 0:
            subject = _ZH_STATE.sub("", cond[:i]).strip()
            if len(subject) >= 2 and len(act) >= 3:
                return Conditioned(act[:2], (act[2:].lstrip("的了"),), (subject,), p, when, zh=True, worded=True)
    return None


def zh_act_at(text: str, c: Conditioned) -> int:
    """Where a Chinese act is reported done ("重启了接口", "已重启接口"), or -1."""
    i = text.find(c.verb)
    if i < 0 or c.obj[0] not in text[i:]:
        return -1
    before, after = text[max(0, i - 3):i], text[i + len(c.verb):i + len(c.verb) + 3]
    if _ZH_NOT.search(before) or _ZH_PLAN.search(before):
        return -1
    return i if "了" in after or "已" in before or "过" in after[:1] else -1


def zh_condition(text: str, c: Conditioned) -> tuple[bool, str] | None:
    """(held, words) for a Chinese sentence naming the condition's subject; None when it does not."""
    i = text.find(c.subject[0])
    if i < 0:
        return None
    tail = text[i + len(c.subject[0]):i + len(c.subject[0]) + 8]
    j = tail.find(c.predicate)
    early = _ZH_EARLY.match(tail[j + len(c.predicate):]) if j >= 0 else None
    if early is not None:  # "在健康检查失败之前重启了接口": before it held (verdict-eight)
        return False, c.predicate + early.group()
    if j >= 0 and not _ZH_NOT.search(tail[:j]):
        return True, c.predicate
    other = next((p for p in _ZH_PRED if p != c.predicate and p in tail), None)
    if other is not None or (j >= 0 and _ZH_ANYWAY.search(text)):
        return False, other or tail[:j + len(c.predicate)]
    return None


__all__ = ["Conditioned", "worded_of", "zh_act_at", "zh_condition"]
