"""Drift rules that read what a summary *says* about a fact, not only whether it is there.

Each rule names the key, the generation and the words that triggered it, and stays
silent unless its evidence is in the text: a faithful generation yields nothing. Words
come from ``words/*.json`` (see ``wordlists``). Rules only judge facts whose sources lie
inside the range the generation covers — a summary is not blamed for what came later.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from inspector.domain.failures import FailedResult
from inspector.domain.textnorm import Span, clauses, find_word, mentions, norm, norm_keep_lines, sentences, terms
from inspector.domain.wordlists import Hit, wordlist

NEGATION_REACH = 14  # characters before a done word in which "not"/"未" cancels the claim


@dataclass(frozen=True, slots=True)
class ActionFact:
    id: str
    intent: str | None
    status: str
    tool: str | None = None


@dataclass(frozen=True, slots=True)
class DriftContext:
    """What drift needs from the raw log besides the protected state."""

    failures: tuple[FailedResult, ...] = ()
    actions: tuple[ActionFact, ...] = ()
    untrusted_rules: tuple[tuple[int, str], ...] = ()  # (seq, rule-like sentence from tool/model text)
    max_seq: int | None = None
    event_seqs: frozenset[int] | None = None
    # Events that record a compaction itself (boundary marker, the summary's own line): a
    # generation citing them cites its origin, not a fact outside its range.
    carriers: frozenset[str] = frozenset()


@dataclass(frozen=True, slots=True)
class Said:
    """A generation's text, normalised once, with its sentences."""

    text: str
    sentences: tuple[Span, ...]
    unresolved: str  # the unresolved markers, normalised and joined

    @classmethod
    def of(cls, text: str, unresolved: Iterable[str] = ()) -> Said:
        t = norm_keep_lines(text)
        return cls(t, tuple(sentences(t)), norm(" · ".join(unresolved)))

    def flat(self) -> str:
        return self.text.replace("\n", " ")


@dataclass(slots=True)
class Hits:
    words: list[str] = field(default_factory=list)
    sentence: str = ""


def _overlaps(hit: Hit, start: int, end: int) -> bool:
    return hit.start < end and start < hit.end


def _negated_before(text: str, pos: int) -> bool:
    window = text[max(0, pos - NEGATION_REACH):pos]
    return bool(re.search(r"(?<![\w])(?:not|never|no|yet to|n't)(?![\w])|未|没|尚未|还没|并非|不是|非", window))


def negated_value(said: Said, value: str) -> Hits | None:
    """The value appears and its sentence cancels or weakens it (words outside the value)."""
    v = norm(value)
    if not v:
        return None
    for s in said.sentences:
        pos = s.text.find(v)
        if pos < 0:
            continue
        vs, ve = s.start + pos, s.start + pos + len(v)
        found = [h.word for cat in ("negation", "weakening") for h in wordlist(cat).hits(said.text, s.start, s.end)
                 if not _overlaps(h, vs, ve)]
        if found:
            return Hits(found, s.text.strip())
    return None


def subject_terms(value: str) -> list[str]:
    """The words of an open issue that name *what* is open ("P95" of "P95 仍待测")."""
    status = wordlist("not_done")
    stripped = status.pattern.sub(" ", norm(value)) if status.pattern else norm(value)
    return list(dict.fromkeys(terms(stripped)))


def done_claim(said: Said, subject: list[str], *, min_share: float = 0.5) -> Hits | None:
    """A clause that names the subject and claims it done/passed, not negated, with no
    "still/pending" word between the subject and the claim."""
    if not subject:
        return None
    need = max(1, round(min_share * len(subject) + 0.01))
    for s in said.sentences:
        for c in clauses(s):
            present = [t for t in subject if t in c.text]
            if len(present) < need:
                continue
            first_subject = min(said.text.find(t, c.start, c.end) for t in present)
            for h in wordlist("done").hits(said.text, c.start, c.end):
                if _negated_before(said.text, h.start):
                    continue
                lo, hi = sorted((first_subject, h.start))
                between = wordlist("not_done").first(said.text, lo, hi)
                if between is not None and not _overlaps(between, h.start, h.end):
                    continue
                return Hits([h.word], s.text.strip())
    return None


def mentioned_anywhere(said: Said, anchors: Iterable[str]) -> str | None:
    flat = said.flat()
    for anchor in anchors:
        a = norm(anchor)
        if not a:
            continue
        if (a.startswith("evt:") and find_word(flat, a) >= 0) or (not a.startswith("evt:") and a in flat):
            return anchor
        if a in said.unresolved:
            return anchor
    return None


def reversed_choice(said: Said, value: str, alternatives: list[str], rationale: str | None) -> Hits | None:
    """The summary states a rejected alternative as what was chosen, or mentions the
    decision while dropping every alternative and its rationale."""
    rejected = wordlist("rejected_alternative")
    for alt in alternatives:
        for s in said.sentences:
            if not mentions(s.text, alt) or mentions(s.text, value):
                continue
            if rejected.first(said.text, s.start, s.end) is not None:
                continue
            return Hits([alt], s.text.strip())
    flat = said.flat()
    if alternatives and mentions(flat, value):
        kept_any = any(mentions(flat, a) for a in alternatives) or bool(rationale and mentions(flat, rationale))
        if not kept_any:
            return Hits([value], "")
    return None


def reports_not_instructs(said: Said, span: Span) -> bool:
    return wordlist("reported").first(said.text, span.start, span.end) is not None


def untrusted_rule_in(said: Said, rule: str) -> Hits | None:
    probe = norm(rule)
    probe = probe[:24] if len(probe) > 24 else probe
    if len(probe) < 6:
        return None
    for s in said.sentences:
        if probe in s.text and not reports_not_instructs(said, s):
            return Hits([probe], s.text.strip())
    return None


def action_claimed_done(said: Said, action: ActionFact) -> Hits | None:
    anchors = [a for a in (action.intent,) if a and len(norm(a)) >= 4]
    subject: list[str] = []
    for a in anchors:
        if norm(a) in said.text:
            subject.append(norm(a))
    if not subject and action.intent:
        subject = [t for t in terms(action.intent) if len(t) >= 3][:4]
    if len(action.id) >= 2 and find_word(said.text, action.id) >= 0:
        subject.append(norm(action.id))
    return done_claim(said, subject) if subject else None


def cited_outside(sources: Iterable[str], covers: tuple[int, int] | None, max_seq: int | None,
                  event_seqs: frozenset[int] | None) -> list[str]:
    bad: list[str] = []
    for src in sources:
        m = re.fullmatch(r"evt:(\d+)", str(src))
        if not m:
            continue
        n = int(m.group(1))
        missing = (event_seqs is not None and n not in event_seqs) or (max_seq is not None and n > max_seq)
        outside = covers is not None and not covers[0] <= n <= covers[1]
        if missing or outside:
            bad.append(src)
    return bad
