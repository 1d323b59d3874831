"""A permission widened while its wording is kept: the protected record allows reading `src/`
only, and the summary repeats it verbatim with more after it — "Only read files under src/
and everything under the repo", "You may read the staging database and the production one",
"Allowed hosts: api.internal.example, *.example.com", "可以读预发库以及生产库", or a later
"You may also write to it".

Every exact rule said "kept": the value stands whole in the text. What grew is its scope, so
the rule reads what comes right after the value in its clause, for a record that *grants or
bounds* something — a permission, or a constraint that limits by a list ("only", "just",
"except", "只能", "仅", "除了"): a prohibition widened ("do not modify the production database
or staging") is stricter, not looser, and is not read.

It widens when the value is followed (same sentence) by "and/or/as well as/plus/, /、/和/及/
以及/与/或" and then by one of: a path, host or pattern (a "/", a dotted name, "*"); a word
for more ("everything", "anything", "all", "any", "the rest", "other", "whole", "所有", "全部",
"整个", "其他", "任何"); the value's own head noun again ("the production one", "生产库" after
"预发库"); or an action verb the value does not hold ("and write", "和修改"). "etc."/"and so
on"/"等" right after it widens too. A continuation that denies ("…, but not the production
one", "其他目录不能碰") narrows and is not read. In a later sentence: "also/too/as well/也/还"
with a permission word, "it"/"它" and a verb the value does not hold.
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.letter_first import letter_first
from inspector.domain.said import Hits, Said, norm_phrase
from inspector.domain.said_pronoun import pronoun_lead
from inspector.domain.said_scope_wide import wide_possible_for
from inspector.domain.said_steps import denies, telling_words
from inspector.domain.textnorm import CJK
from inspector.domain.wordlists import _trie

_BOUNDING = letter_first(r"(?<![a-z])(?:only|just|solely|exclusively|limited to|restricted to|except|other than|"
                       r"allowed|allowlist|whitelist|permitted)(?![a-z])|只能|只可|仅|只|除了|除|限于|允许")
_JOIN = re.compile(r"^\s*(?:(?:,|、|，)\s*(?:and|or|as well as|plus|以及|和|及|与|或)?|and also|and even|and|or|"
                   r"as well as|plus|along with|together with|&|以及|和|及|与|或者|或|还有|乃至|甚至)\s*")
_ETC = re.compile(r"^\s*(?:,\s*)?(?:etc\b|and so on|and the like|and more|and beyond|and below|and its sub\w*|"
                  r"and everything|or anywhere|and elsewhere|recursively|/\*\*|\*\*|等等|等)")
_MORE = letter_first(r"(?<![a-z])(?:everything|anything|all|any|every|the rest|other|others|whole|entire|everywhere|"
                   r"anywhere|elsewhere)(?![a-z])|所有|全部|整个|其他|其它|任何|一切|别的|各个")
_SHAPED = re.compile(r"[\w*-]+/|/[\w*-]+|(?<![\d.])[a-z][\w-]*\.[a-z][\w.-]*|\*")
_VERBS = letter_first(r"(?<![a-z])(?:write|writes|modify|edit|change|delete|remove|push|deploy|run|execute|create|update|"
                    r"drop|overwrite|merge|commit|rewrite|install|access)(?![a-z])|写|修改|改|删除|删|推送|部署|执行|运行|"
                    r"创建|更新|合并|提交|访问")
_PRONOUN_OBJECT = letter_first(r"(?<![a-z])(?:it|them|there|that one)(?![a-z])|它|那里|那儿")
# What a join or an "etc." opens with: a tail that starts otherwise joins nothing (most do not).
_JOIN_LEAD = re.compile(r"\s*(?:[,、，&/*]|and|or|as|plus|along|together|etc|recursively|以及|和|及|与|或|还有|乃至|甚至|等)")
_ALSO = letter_first(r"(?<![a-z])(?:also|too|as well|in addition|additionally)(?![a-z])|也|还可以|还能|另外")
_ALSO_LEAD = re.compile("also|too|as well|addition|也|还可以|还能|另外")  # every _ALSO word holds one
_SENTENCE_END = re.compile(r"\.(?:\s|$)|[。！？!?\n]")
_PERMIT = letter_first(r"(?<![a-z])(?:may|can|allowed|permitted|free to|ok to|okay to)(?![a-z])|可以|允许|能")


@lru_cache(maxsize=4096)
def bounding(value: str, kind: str) -> bool:
    """Whether the value grants or bounds by scope (a permission, or a limit by a list)."""
    if kind == "permission":
        return True
    return kind in ("constraint", "acceptance") and _BOUNDING.search(norm_phrase(value)) is not None


def widened(said: Said, value: str, kind: str) -> Hits | None:
    """The value repeated with its scope grown (see the module's docstring)."""
    if not bounding(value, kind):
        return None
    return widened_norm(said, scope_form(value))


@lru_cache(maxsize=4096)
def scope_form(value: str) -> str:
    """The value as the scope rule looks for it: normal form, without its closing stop."""
    return norm_phrase(value).rstrip("。.!！ ")


def widened_norm(said: Said, v: str) -> Hits | None:
    """``widened`` for a bounding value already in ``scope_form``."""
    if not v:
        return None
    # Read the few characters after each occurrence first: the text is cut into sentences
    # only when something is joined to the value (most generations join nothing).
    text = said.text
    pos = text.find(v)
    first = pos
    size = len(v)
    while pos >= 0:
        end = pos + size
        if _JOIN_LEAD.match(text, end):  # most values are followed by nothing joined to them
            tail = text[end:end + 160]
            words = _grows(tail[:m.start()] if (m := _SENTENCE_END.search(tail)) else tail, v)
            if words:
                s = said.sentence_at(pos)
                return Hits(words, said.stripped(s) if s is not None else tail.strip())
        pos = text.find(v, end)
    if first < 0 or not (pronoun_lead(said) and _also_anywhere(said)):
        return None
    found = said.holding(v)
    return _also_later(said, v, min(found)) if found else None


def scope_open(said: Said, scopes: tuple[str, ...]) -> bool:
    """Whether any of these values (in ``scope_form``, none empty) has something joined right
    after it, or the text may say "you may also … it" or grant more elsewhere
    (``said_scope_wide``): when none, no scope grew in this
    generation and the records need not be asked one by one. One scan for every value (a
    prefix tree of them, as the word lists are compiled), asked once per generation."""
    if not scopes:
        return False
    text = said.text
    return _joined_pattern(scopes).search(text) is not None or (
        (pronoun_lead(said) and _also_anywhere(said) or wide_possible_for(said)) and any(v in text for v in scopes))


@lru_cache(maxsize=64)
def _joined_pattern(ends: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile("(?:" + _trie(list(ends)) + ")(?=" + _JOIN_LEAD.pattern + ")")


def _also_anywhere(said: Said) -> bool:
    """An "also/too/也" word and a permission word are in the text (once per generation)."""
    text = said.text
    return said.remember(("scope_also",), lambda: bool(_ALSO_LEAD.search(text) and _ALSO.search(text)
                                                       and _PERMIT.search(text)))


def _grows(tail: str, v: str) -> list[str]:
    etc = _ETC.match(tail)
    if etc:
        return [etc.group().strip(" ,")]
    join = _JOIN.match(tail)
    if not join or not join.group().strip():
        return []
    rest = tail[join.end():]
    rest = re.split(r"\.(?:\s|$)|[;；。!?！？]|,\s*(?:but|while|so|and then)\b|(?<![a-z])but(?![a-z])|但|不过", rest, maxsplit=1)[0]
    if not rest.strip() or denies(rest) or re.match(r"\s*(?:we|i|you|he|she|they|it|this|that|then|later|now|so|"
                                                     r"the user|我们|我|你|他|她|他们|然后|之后)(?![a-z])", rest):
        return []
    head = rest[:60]
    for pattern in (_SHAPED, _MORE):
        m = pattern.search(head)
        if m:
            return [join.group().strip() + " " + head.strip()]
    noun = _head_noun(v)
    if noun and (noun in head if CJK.search(noun) else re.search(rf"(?<![a-z]){re.escape(noun)}", head)
                 or re.search(r"(?<![a-z])(?:one|ones)(?![a-z])", head)):
        return [join.group().strip() + " " + head.strip()]
    verb = _VERBS.match(head.strip())
    if verb and verb.group() not in v:
        return [join.group().strip() + " " + head.strip()]
    return []


@lru_cache(maxsize=4096)
def _head_noun(v: str) -> str:
    """The last telling word of the value ("database" of "read the staging database", "库" of
    "读预发库"): said again after "and", it names another thing of the same kind."""
    words = telling_words(v)
    if not words:
        return ""
    last = words[-1]
    if CJK.search(last):
        return last[-1]
    return last if len(last) >= 3 and not last.endswith("/") else ""


def _also_later(said: Said, v: str, first: int) -> Hits | None:
    """A later sentence granting more on the same object: "You may also write to it"."""
    for s in said.sentences[first + 1:first + 4]:
        text = s.text
        if not (_ALSO.search(text) and _PERMIT.search(text)) or denies(text):
            continue
        verb = _VERBS.search(text)
        if verb is None or verb.group() in v:
            continue
        if _PRONOUN_OBJECT.search(text):  # "You may also write to it"
            return Hits([verb.group()], said.stripped(s))
    return None


__all__ = ["bounding", "scope_form", "scope_open", "widened", "widened_norm"]
