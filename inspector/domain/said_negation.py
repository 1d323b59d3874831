"""Negation: a protected value repeated in a summary but cancelled, weakened or lifted.

``protected_negated`` and survival's ``contradicted`` for goals, constraints, permissions,
acceptances and decisions. The hard part is *reach*: a cancelling word counts in the
value's own clause, in a label right before it, in a later clause that refers back, or in
the next sentence when that sentence refers back — and not in a clause about something
else. docs/verdicts.md lists what is read and what is not.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache

from inspector.domain.said import CANCELS, Hits, Said, norm_phrase, overlaps, stem_in
from inspector.domain.textnorm import CJK, Span, norm, terms
from inspector.domain.wordlists import Hit, pairs, wordlist


def negated_value(said: Said, value: str) -> Hits | None:
    """The value appears and is cancelled or weakened: by a cancelling word in the value's
    own clause ("do not modify the production database unless it is urgent"), in a label
    clause right before it ("Constraint (relaxed): …"), in a later clause of the sentence
    that refers back to it (an exception, "but/不过", "it/该约束", or the value's own words:
    "不得修改生产库，不过现在可以改了") — or in the very next sentence when that sentence refers
    back the same way ("That restriction was lifted yesterday.", "该约束已取消。", "现在生产库
    可以改了。", "However, the user later said writes are OK."). A cancelling word in a clause
    about something else ("…, and the debug flag was removed from staging", "预发库可以随便用
    了") says nothing about the value."""
    v = norm_phrase(value)
    if not v or not said.cancels():
        return None
    for i, vs in said.holding(v).items():  # the sentences holding the value, in order
        s = said.sentences[i]
        ve = vs + len(v)
        found = _cancelled_in_sentence(said, s, vs, ve, value)
        if found:
            return Hits(found, said.stripped(s))
        if (n := _next_sentence(said, i)) is not None:
            lifts = said.hits(_LIFTS, n.start, n.end)
            if lifts:
                contrast = said.first("contrast", n.start, n.end)
                opens = contrast is not None and contrast.start - n.start <= 3
                parts = said.clauses(n)
                words = [h.word for h in lifts if not (_grants(value) and _only_permits(said, h))
                         and (opens or _refers_back(said, *_clause_of(parts, h.start), value, at_start=False))
                         and not _permission_elsewhere(said, h, value, *_clause_of(parts, h.start))
                         and not _asks(said, *_clause_of(parts, h.start))
                         and not (_forbids(value) and act_not_needed(said.text[slice(*_clause_of(parts, h.start))]))]
                if words:
                    return Hits(words, f"{said.stripped(s)} {said.stripped(n)}")
    return None


_LIFTS = ("negation", "weakening", "permission")
# "Not needed" said of the act a prohibition forbids agrees with it ("Restarting the API is no longer
# needed since the health check passes", "不需要重启接口"); said of the rule ("the restart ban is no
# longer needed", "不再需要这条限制") it lifts it (verdict-ten: a real compaction's next sentence).
_NOT_NEEDED = re.compile(r"(?<![a-z])(?:(?:no longer|not|never)\s+(?:\w+\s+)?(?:needed|necessary|required)|"
                         r"unnecessary|needless|no need)(?![a-z])|不需要|不再需要|无需|不必|没必要|用不着")
RULE_NOUN = re.compile(r"\b(?:rule|ban|restriction|prohibition|constraint|limit|policy|forbidden|banned|allowed)\b"
                       r"|规定|禁令|限制|约束|禁止|规则|不得|不准|允许")


def act_not_needed(text: str) -> bool:
    """The clause says an act is not needed, and names no rule: nothing done, nothing lifted."""
    return _NOT_NEEDED.search(text) is not None and RULE_NOUN.search(text) is None


@lru_cache(maxsize=4096)
def _forbids(value: str) -> bool:
    return wordlist("constraint").first(norm_phrase(value)) is not None
# A line of markup only — a code fence (with its language), a rule, a table's separator —
# stands between two sentences without being one: "Constraint: …\n```\n# that
# restriction was lifted" reads the comment as the next sentence.
_MARKUP_ONLY = re.compile(r"[\W_]*(?:(?:```|~~~)[\w+-]*)?[\W_]*")


def _next_sentence(said: Said, i: int) -> Span | None:
    """The sentence after sentence ``i``, markup-only lines skipped; None at the end."""
    for n in said.sentences[i + 1:]:
        if not _MARKUP_ONLY.fullmatch(n.text.strip()):
            return n
    return None


# A cancelling word itself denied ("| … | kept (not waived) |", "never lifted") cancels nothing (verdict-five).
_DENIED_BEFORE = re.compile(r"(?<![a-z])(?:not|never|none|nothing)\s+(?:been\s+|yet\s+|be\s+)?$")


def _cancelled_in_sentence(said: Said, s: Span, vs: int, ve: int, value: str) -> list[str]:
    hits = [h for h in said.hits(CANCELS + ("exception",), s.start, s.end) if not overlaps(h, vs, ve)
            and not _DENIED_BEFORE.search(said.text[max(0, h.start - 12):h.start])]
    if not hits:
        return []
    parts = said.clauses(s)
    first = next((k for k, c in enumerate(parts) if c.start <= vs < c.end), 0)
    last = next((k for k, c in enumerate(parts) if c.start < ve <= c.end), len(parts) - 1)
    lo, hi = parts[first].start if parts else s.start, parts[last].end if parts else s.end
    found: list[str] = []
    for h in hits:
        if lo <= h.start < hi:  # the value's own clause
            found.append(h.word)
        elif h.end <= lo:  # a label right before it: "Constraint (relaxed): …"
            k = next((k for k, c in enumerate(parts) if c.start <= h.start < c.end), -1)
            label = said.text[parts[k].end:lo].strip()[:1] in (":", "：", "(", "（", ")", "）")
            if k == first - 1 and (label or _bare(said, parts[k], h)):
                found.append(h.word)
        else:
            exception = wordlist("exception").first(said.text, h.start, h.end) is not None
            k = next((k for k, c in enumerate(parts) if c.start <= h.start < c.end), -1)
            if exception or _refers_back(said, hi, h.start + 1, value, at_start=False) or _refers_back(
                    said, *_clause_of(parts, h.start), value, at_start=True) or (k >= 0 and _bare(said, parts[k], h)):
                found.append(h.word)
    return found


@lru_cache(maxsize=4096)
def _grants(value: str) -> bool:
    """The value itself permits ("You may read the staging database", "可以读预发库"): a
    permission word after it restates or narrows the grant ("Any table in the staging
    database may be read"), it cannot lift it."""
    v = norm_phrase(value)
    return wordlist("permission").first(v) is not None and wordlist("constraint").first(v) is None


def _only_permits(said: Said, hit: Hit) -> bool:
    """A permission word that is not also a cancelling one ("may", "可以"; not "is fine now")."""
    return (wordlist("permission").first(said.text, hit.start, hit.end) is not None
            and wordlist(CANCELS).first(said.text, hit.start, hit.end) is None)


def _asks(said: Said, start: int, end: int) -> bool:
    """The clause asks or hedges ("Asked whether pushing to main is ever OK"): it lifts nothing."""
    return said.first("uncertain", start, end) is not None or "?" in said.text[start:end]


def _clause_of(parts: list[Span], pos: int) -> tuple[int, int]:
    c = next((c for c in parts if c.start <= pos < c.end), None)
    return (c.start, c.end) if c else (pos, pos + 1)


def _refers_back(said: Said, start: int, end: int, value: str, *, at_start: bool) -> bool:
    """``[start, end)`` points back at the value: a back reference ("that restriction",
    "it", "该约束"), a contrast ("however", "but", "不过") — at its start when ``at_start`` —
    or most of the value's subject words ("production database", 生产库)."""
    if said.first("back_reference", start, end) is not None:
        return True
    contrast = said.first("contrast", start, end)
    if contrast is not None and (not at_start or contrast.start - start <= 3):
        return True
    own = _subject_words(value)
    if not own:
        return False
    text = said.text[start:end]
    return sum(1 for t in own if stem_in(t, text)) >= max(1, math.ceil(0.5 * len(own)))


_BARE_FILLER = re.compile(r"(?<![\w])(?:now|then|already|today|yesterday|since|from now on|at all|either)(?![\w])|"
                          r"现在|目前|如今|已经|已|了|也|都|这一条|这条|[\s\-–—:：,，.;；!()（）'\"]")


def _bare(said: Said, c: Span, hit: Hit) -> bool:
    """The clause is nothing but its cancelling words and filler ("现在可以放宽了", "where
    possible"): it has no subject of its own, so it is about the clause next to it."""
    rest = said.text[c.start:hit.start] + " " + said.text[hit.end:c.end]
    for h in said.hits(_LIFTS, c.start, c.end):
        if h != hit:
            rest = rest.replace(h.word, " ")
    return len(_BARE_FILLER.sub("", rest)) <= 2


def _permission_elsewhere(said: Said, hit: Hit, value: str, start: int, end: int) -> bool:
    """A permission word ("may", "可以") in a clause that permits something other than what
    the prohibition forbids: the clause names the value's subject but not its action
    ("You may read the production database", "生产库的只读副本可以查询" after "do not modify
    the production database"), or denies ("nobody may write to it"). Such a clause lifts nothing."""
    if wordlist("permission").first(said.text, hit.start, hit.end) is None:
        return False
    if wordlist(CANCELS).first(said.text, hit.start, hit.end) is not None:
        return False  # a cancelling word that is also a permission ("is fine now")
    own = _subject_words(value)
    if not own or wordlist("constraint").first(norm_phrase(value)) is None:
        return False
    clause = said.text[start:end]
    return not names_word(own[0], clause) or said.first("denial", start, end) is not None


@cache
def _subject_synonyms() -> dict[str, tuple[str, ...]]:
    return {k: tuple(v) for k, v in pairs("subject_synonyms").items()}


def names_word(word: str, text: str) -> bool:
    """The subject word, its stem or one of its ``subject_synonyms`` ("writes" for "modify",
    "改" for "修改") in the text."""
    if stem_in(word, text):
        return True
    for s in _subject_synonyms().get(word, ()):
        if CJK.search(s):
            if s in text:
                return True
        elif re.search(rf"(?<![\w]){re.escape(s)}(?![\w])", text):
            return True
    return False


@lru_cache(maxsize=4096)
def _subject_words(value: str) -> tuple[str, ...]:
    """A protected value's words minus its prohibition words ("do not", "不得"): what it is
    about."""
    v = norm(value)
    constraint = wordlist("constraint")
    stripped = constraint.pattern.sub(" ", v) if constraint.pattern else v
    return tuple(t for t in dict.fromkeys(terms(stripped)) if len(t) >= 2)
