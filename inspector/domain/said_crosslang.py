"""A sentence in the other language that changes a rule kept verbatim in its own.

"…禁止关闭 TLS 校验。… TLS verification may be disabled now." or "… Never disable TLS
verification. … 现在可以关闭 TLS 校验了。": the value stands word for word, and the sentence that
lifts it is in the other language, so no rule reads it — the negation and departure rules
match a value's own words, the language note only covers a value the text lacks (verdict-four).

The exact rules cannot judge a translation, so they say so: a sentence whose language is not the
value's (no CJK for a Chinese value; CJK for an English one), that names half the value's
subject — its ASCII words and identifiers ("tls", "8080", "python") as they are, its other words
through the English–Chinese tables (``gloss``, ``rule_gloss`` in words/zh.json: disable ↔ 关闭,
database ↔ 数据库, upload ↔ 上传) — and holds a change, lift or grant word of its own language
("now", "may", "no longer", "limit", "raised", "现在", "可以", "改为", "不再", "上限") is
``subject_unjudged``: ``?``, survival ``unknown``, a person (or ``--judge``) must read it.

Decided (verdict-ten): some such sentences leave nothing to translate. A sentence that names
*every* piece of a prohibition's subject (its act and object; a condition — "unless the health
check fails", "除非健康检查失败" — is not part of the subject) and softens it ("try not to", "if
possible", "avoid", "尽量不要", "最好不要") or grants it ("may", "can", "现在可以…了"), or one that lifts
the prohibition outright ("no longer forbidden", "不再禁止") while naming half the subject (or the
one identifier it names: "Redis is no longer forbidden" for "不要引入 Redis 依赖"), is
``protected_negated`` — survival ``contradicted``; before, each was a ``?`` or, for a hedge
("尽量不要删除审计日志": its "不要" read as a denial), nothing at all.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.said_untrusted import translations
from inspector.domain.textnorm import CJK, STOPWORDS, norm

_EN_CUE = re.compile(r"(?<![a-z])(?:now|no longer|may|can|allowed|permitted|fine|ok|okay|raised|increased|lowered|"
                     r"changed|moved|bumped|lifted|waived|dropped|relaxed|removed|limit|cap|capped|max|maximum|up to|"
                     r"disabled|skipped|turned off|switched)(?![a-z])")
_ZH_CUE = re.compile(r"现在|可以|允许|改为|改成|改到|不再|取消|上限|提高|放宽|调整|解除|关闭了|已关闭|关掉|移除|跳过|上调")
_EN_DENY = re.compile(r"(?<![a-z])(?:never|not|cannot|can't|mustn't|don't|doesn't|nobody|no one|still|remains?)(?![a-z])")
_ZH_DENY = re.compile(r"不得|禁止|不要|不能|不可|没有|未|仍|依然|保持")
_ASCII = re.compile(r"[a-z0-9][a-z0-9_./:-]*[a-z0-9]|[a-z0-9]")
_CJK_RUN = re.compile(r"[\u3400-\u9fff]+")
# Words of a rule's form, not its subject: "never", "must", "keep", "不得", "禁止", "必须"…
_FORM = frozenset("never must keep only always stay under over ensure make sure do don't".split()) | STOPWORDS
_ZH_FORM = ("不得", "禁止", "必须", "只能", "不要", "不能", "不可", "请勿", "务必", "保持", "超过", "不超过")


# Verdict-ten: a rule softened (a hedge) or lifted outright, in either language.
_HEDGE = re.compile(r"(?<![a-z])(?:try not to|try to avoid|avoid|if possible|where possible|when possible|ideally|"
                    r"preferably|best not to|better not to|if you can)(?![a-z])|尽量|最好|尽可能|能不.{1,4}就不")
_LIFT = re.compile(r"(?<![a-z])(?:no longer|not) (?:forbidden|prohibited|banned|disallowed)(?: any ?more)?(?![a-z])|"
                   r"(?:ban|prohibition|restriction) (?:was |has been |is )?(?:lifted|dropped|removed)|"
                   r"不再禁止|已不再禁止|解除(?:了)?(?:禁止|禁令|限制)|禁令(?:已)?(?:取消|解除)|不再受限")
_GRANT = re.compile(r"(?<![a-z])(?:may|can|allowed|permitted|fine to|ok to|okay to|free to)(?![a-z])|可以|允许|能够")
_ONLY = re.compile(r"(?<![a-z])(?:only|solely)(?![a-z])|只有|只能|仅|才")
_CONDITION = re.compile(r"(?<![a-z])unless\b.*$|除非[^，,。；;]*[，,]?")


@dataclass(frozen=True, slots=True)
class Crossed:
    words: tuple[str, ...]
    sentence: str
    decided: bool = False  # the sentence softens, grants or lifts the rule: protected_negated


@lru_cache(maxsize=4096)
def pieces_of(value: str) -> tuple[tuple[str, ...], ...]:
    """The value's subject pieces, each as the forms that name it in either language."""
    v = norm(value)
    tr = translations()
    out: list[tuple[str, ...]] = []
    for w in _ASCII.findall(v):
        if w in _FORM or (len(w) < 2 and not w.isdigit()):
            continue
        out.append((w, *tr.get(w, ())))
    for run in _CJK_RUN.findall(v):
        for form in _ZH_FORM:
            run = run.replace(form, " ")
        for part in run.split():
            glossed = [zh for zh in tr if CJK.search(zh) and zh in part]
            for zh in glossed:
                out.append((zh, *tr[zh]))
    return tuple(dict.fromkeys(out))


def _named(text: str, piece: tuple[str, ...]) -> bool:
    for form in piece:
        if CJK.search(form):
            if form in text:
                return True
        elif re.search(rf"(?<![a-z0-9]){re.escape(form)}", text):
            return True
    return False


def _prohibits(value: str) -> bool:
    from inspector.domain.said_lifted import _prohibition

    return _prohibition(value)


def crossed(said: Said, value: str) -> Crossed | None:
    """The first sentence in the other language that names the value's subject with a change,
    lift or grant word, or None; ``decided`` when it softens, grants or lifts a prohibition."""
    v = norm(value)
    zh_value = CJK.search(v) is not None
    pieces = pieces_of(value)
    if len(pieces) < 2:
        return None
    need = max(2, math.ceil(len(pieces) / 2))
    prohibition = _prohibits(value)
    subject = pieces_of(_CONDITION.sub(" ", v)) if prohibition else ()
    cond = _CONDITION.search(v) if prohibition else None
    condition = tuple(p for p in pieces_of(cond.group()) if p not in subject) if cond else ()
    for s in said.sentences:
        t = s.text
        zh_text = CJK.search(t) is not None
        if zh_text == zh_value or v in t:
            continue
        if not zh_text and len(_ASCII.findall(t)) < 3:
            continue
        # The rule's condition said too ("最好先确认健康检查失败再重启接口", "can only be restarted if the
        # health check fails"): the act bound to it, as the rule binds it — not decided.
        bound = bool(condition) and sum(1 for p in condition if _named(t, p)) * 2 >= len(condition)
        if prohibition and not bound:
            soft = _HEDGE.search(t) or _LIFT.search(t)
            grant = _GRANT.search(t) if soft is None and not (_ZH_DENY if zh_text else _EN_DENY).search(t) \
                and not _ONLY.search(t) else None
            cue = soft or grant
            if cue is not None and subject and (all(_named(t, p) for p in subject) or (
                    _LIFT.search(t) and _lift_named(t, value, subject))):
                return Crossed((cue.group(), *(p[0] for p in subject if _named(t, p))), said.stripped(s), True)
        cue = (_ZH_CUE if zh_text else _EN_CUE).search(t)
        if cue is None or (_ZH_DENY if zh_text else _EN_DENY).search(t):
            continue  # no change word, or a restatement that denies ("can never be disabled", "仍不得")
        named = [p[0] for p in pieces if _named(t, p)]
        if len(named) >= need:
            return Crossed((cue.group(), *named), said.stripped(s))
    return None


def _lift_named(t: str, value: str, subject: tuple[tuple[str, ...], ...]) -> bool:
    """A lift names the rule when it names half its subject, or an identifier the value holds as
    it is in both languages ("redis" of "不要引入 Redis 依赖")."""
    named = [p for p in subject if _named(t, p)]
    if len(named) >= max(1, math.ceil(len(subject) / 2)):
        return True
    return any(len(p) == 1 and p[0].isascii() and len(p[0]) >= 3 and p[0] in norm(value) for p in named)


__all__ = ["Crossed", "crossed", "pieces_of"]
