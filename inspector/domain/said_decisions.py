"""Decisions: a summary that states the rejected alternative, or drops the dispute's reasons.

``decision_reversed`` and survival's ``contradicted`` for a decision. A sentence naming
an alternative is a reversal unless it rejects it or gives the rationale; in a sentence
naming both, a switch word decides which one was chosen. Kept apart from the other rules
because it reads the record's alternatives and rationale, which no other rule does.
"""

from __future__ import annotations

import re
from functools import lru_cache

from inspector.domain.said import Hits, Said, norm_phrase, stem_in, stem_in_said
from inspector.domain.textnorm import Span, phrase_parts, terms
from inspector.domain.wordlists import wordlist


def reversed_choice(said: Said, value: str, alternatives: list[str], rationale: str | None) -> Hits | None:
    """The summary states a rejected alternative as what was chosen, or mentions the
    decision while dropping every alternative and its rationale.

    A sentence about the alternative is a reversal when it holds neither the value nor a
    rejecting word and is not the rationale itself ("Paginated export keeps long
    transactions open" gives the reason, it does not choose). In a sentence holding both,
    the one a switch word points at is the choice: "X was abandoned in favour of Y",
    "X 已放弃，改用 Y". A sentence that names only the alternative's own words ("export page
    by page (pagination)" for "paginated export", 分页方案 for 分页导出) after a choice
    word ("decision", "use", "决定", "采用") states it too."""
    for alt in alternatives:
        if not said.says(alt):  # not in the text at all: in no sentence either
            continue
        with_value: set[int] | None = None
        for i in said.mentioning(alt):
            if with_value is None:
                with_value = set(said.mentioning(value))
            s = said.sentences[i]
            if i in with_value:
                hit = _switched_to(said, s, alt, value)
                if hit is not None:
                    return hit
                continue
            if said.first("rejected_alternative", s.start, s.end) is not None:
                continue
            if rationale and _gives_reason(s.text, rationale, alt):
                continue
            return Hits([alt], said.stripped(s))
    chooser = wordlist("choice_word")
    own_value = [t for t in _own_terms(value, tuple(alternatives)) if chooser.first(t) is None]
    for alt in alternatives:
        own = _own_terms(alt, (value,))
        if not own or not any(stem_in_said(said, t) for t in own):  # not in the text: in no sentence
            continue
        for s in said.sentences_holding("choice_word"):
            if said.first("rejected_alternative", s.start, s.end) is not None or (
                    rationale and _gives_reason(s.text, rationale, alt)):
                continue
            if any(stem_in(t, s.text) for t in own) and not any(stem_in(t, s.text) for t in own_value):
                return Hits([alt], said.stripped(s))
    if alternatives and said.says(value):
        kept_any = any(said.says(a) for a in alternatives) or bool(rationale and said.says(rationale))
        if not kept_any:
            return Hits([value], "")
    return None


def _gives_reason(text: str, rationale: str, alt: str) -> bool:
    """The sentence repeats the rationale's own words (those the alternative does not
    share): "Paginated export keeps long transactions open" gives the reason; "改为同步回调"
    shares only the alternative's words with "同步回调太慢"."""
    own = _own_terms(rationale, (alt,))
    return bool(own) and sum(1 for t in own if stem_in(t, text)) >= max(1, 0.6 * len(own))


def mentions_in(text: str, phrase: str, share: float = 0.6) -> bool:
    p, ts = phrase_parts(phrase)
    if not p:
        return False
    if p in text:
        return True
    return bool(ts) and sum(1 for t in ts if t in text) >= max(1, share * len(ts))


@lru_cache(maxsize=4096)
def _own_terms(phrase: str, others: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """The terms of ``phrase`` that none of ``others`` has: what tells it apart ("paginated"
    of "paginated export" against "use streaming export"; 分页 of 分页导出)."""
    theirs = {t for o in others for t in terms(o)}
    stems = {t[:5] for t in theirs if t.isascii()}
    return tuple(t for t in dict.fromkeys(terms(phrase))
                 if t not in theirs and not (t.isascii() and t[:5] in stems) and (len(t) >= 4 or not t.isascii()))


_SWITCH_TO = re.compile(r"(?:in favou?r of|switched to|switch to|replaced (?:it )?(?:by|with)|moved to|went with|"
                        r"changed to|instead(?: we| we'll| use)?|改用|换成|改为|换用|转而)\s*$")
_DROPPED_AFTER = re.compile(r"^\s*(?:(?:was|is|has been|had been|were|got|已|已经|被)\s*)*"
                            r"(?:abandoned|dropped|rejected|discarded|scrapped|replaced|放弃|弃用|废弃|否决|不用了|作废)")


_CONTRAST = re.compile(r"(?:rather than|instead of|(?<![\w-])not(?![\w-])|而不是|而非|不用|不是)")


def _switched_to(said: Said, s: Span, alt: str, value: str) -> Hits | None:
    """In a sentence holding the value and the alternative: a switch word right before the
    alternative, or a dropping word right after the value."""
    a, v = norm_phrase(alt), norm_phrase(value)
    text = s.text
    pa = text.find(a) if a else -1
    if pa >= 0 and _SWITCH_TO.search(text[max(0, pa - 24):pa]):
        return Hits([alt], said.stripped(s))
    # "chose 60m rather than keep 45m", "用 Memcached 而不是 Redis": the alternative, then a contrast
    # word and the value's own words — the alternative is the one chosen (verdict-real-five).
    contrast = _CONTRAST.search(text[pa + len(a):pa + len(a) + 24]) if pa >= 0 else None
    if contrast is not None:
        after = text[pa + len(a) + contrast.end():pa + len(a) + contrast.end() + 60]
        if any(t in after for t in _own_terms(value, (alt,))):
            return Hits([alt], said.stripped(s))
    for needle in (v, *(t for t in _own_terms(value, (alt,)) if t in text)):
        pv = text.find(needle) if needle else -1
        if pv >= 0:
            end = pv + len(needle)
            # "streaming export was abandoned": the value's own words, then a dropping word
            rest = text[end:end + 30]
            rest = re.sub(r"^[^\s，,。.]*?(?=\s|已|被|$)", "", rest, count=1) if needle != v else rest
            if _DROPPED_AFTER.search(rest) or _DROPPED_AFTER.search(text[end:end + 30]):
                return Hits([alt], said.stripped(s))
    return None
