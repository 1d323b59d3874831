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
from functools import lru_cache
from typing import Any

from inspector.domain.failures import FailedResult
from inspector.domain.textnorm import CJK, Span, clauses, find_word, mentions, norm, norm_keep_lines, sentences, terms
from inspector.domain.wordlists import Hit, wordlist

NEGATION_REACH = 14  # characters before a done word in which "not"/"未" cancels the claim

# The same protected values, alternatives, anchors and rules are asked about in every
# generation: normalise each once.
_norm_phrase = lru_cache(maxsize=16384)(norm)
_CANCELS = ("negation", "weakening")  # words that cancel or weaken a protected value


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


@dataclass(frozen=True, slots=True)
class Said:
    """A generation's text, normalised once, with its sentences.

    Word-list matches and clauses are remembered per span: every protected fact asks about
    the same sentences and clauses, so a generation's text is scanned once per category
    and span rather than once per fact (1,000 generations × 100 facts made the scans the
    hot spot of the drift bench)."""

    text: str
    unresolved: str  # the unresolved markers, normalised and joined
    _memo: dict[Any, Any] = field(default_factory=dict, compare=False, repr=False)

    @classmethod
    def of(cls, text: str, unresolved: Iterable[str] = ()) -> Said:
        return cls(norm_keep_lines(text), norm(" · ".join(unresolved)))

    @property
    def sentences(self) -> tuple[Span, ...]:
        """Cut on first use: a text with no word any rule reacts to is never cut."""
        found = self._memo.get("sentences")
        if found is None:
            found = self._memo["sentences"] = tuple(sentences(self.text))
        return found  # type: ignore[no-any-return]

    def flat(self) -> str:
        key = ("flat",)
        if key not in self._memo:
            self._memo[key] = self.text.replace("\n", " ")
        return self._memo[key]  # type: ignore[no-any-return]

    def hits(self, category: str | tuple[str, ...], start: int, end: int) -> list[Hit]:
        key = ("hits", category, start, end)
        if key not in self._memo:
            self._memo[key] = wordlist(category).hits(self.text, start, end)
        return self._memo[key]  # type: ignore[no-any-return]

    def first(self, category: str, start: int, end: int) -> Hit | None:
        key = ("first", category, start, end)
        if key not in self._memo:
            self._memo[key] = wordlist(category).first(self.text, start, end)
        return self._memo[key]  # type: ignore[no-any-return]

    def cancels(self) -> bool:
        """Whether any cancelling or weakening word is in the text at all (most faithful
        texts have none, and then no protected value needs its sentence read)."""
        found = self._memo.get("cancels")
        if found is None:
            found = self._memo["cancels"] = bool(self.hits(_CANCELS, 0, len(self.text)))
        return found  # type: ignore[no-any-return]

    def clauses(self, sentence: Span) -> list[Span]:
        key = ("clauses", sentence.start)
        if key not in self._memo:
            self._memo[key] = clauses(sentence)
        return self._memo[key]  # type: ignore[no-any-return]


@dataclass(slots=True)
class Hits:
    words: list[str] = field(default_factory=list)
    sentence: str = ""


def _overlaps(hit: Hit, start: int, end: int) -> bool:
    return hit.start < end and start < hit.end


def _negated_before(text: str, pos: int) -> bool:
    window = text[max(0, pos - NEGATION_REACH):pos]
    # "不" only right before the claim ("不成功"): further back it is usually another
    # clause's prohibition ("不得修改生产库，测试已通过").
    return bool(re.search(r"(?<![\w])(?:not|never|no|yet to|n't)(?![\w])|未|没|尚未|还没|并非|不是|非|不.{0,2}$", window))


def _claim_in(said: Said, c: Span, first_subject: int) -> Hits | None:
    """A done word in clause ``c`` that is not negated, hedged ("whether", "may have",
    "是否", "未知" anywhere in the clause) or preceded by "still/pending" after the subject."""
    if said.first("uncertain", c.start, c.end) is not None:
        return None
    for h in said.hits("done", c.start, c.end):
        if _negated_before(said.text, h.start):
            continue
        lo, hi = sorted((first_subject, h.start))
        between = said.first("not_done", lo, hi)
        if between is not None and not _overlaps(between, h.start, h.end):
            continue
        return Hits([h.word])
    return None


def negated_value(said: Said, value: str) -> Hits | None:
    """The value appears and its sentence cancels or weakens it (words outside the value)."""
    v = _norm_phrase(value)
    if not v or not said.cancels():
        return None
    for s in said.sentences:
        pos = s.text.find(v)
        if pos < 0:
            continue
        hits = said.hits(_CANCELS, s.start, s.end)
        if not hits:
            continue
        vs, ve = s.start + pos, s.start + pos + len(v)
        found = [h.word for h in hits if not _overlaps(h, vs, ve)]
        if found:
            return Hits(found, s.text.strip())
    return None


def subject_terms(value: str) -> list[str]:
    """The words of an open issue that name *what* is open ("P95" of "P95 仍待测")."""
    return list(_subject_terms(value))


@lru_cache(maxsize=16384)
def _subject_terms(value: str) -> tuple[str, ...]:
    status = wordlist("not_done")
    stripped = status.pattern.sub(" ", norm(value)) if status.pattern else norm(value)
    return tuple(dict.fromkeys(terms(stripped)))


def _done_clauses(said: Said) -> list[tuple[Span, int, list[Span]]]:
    """(sentence, clause index, the sentence's clauses) for every clause a done word
    touches, in text order. One scan of the whole text per generation: only these clauses
    can hold a claim, so each fact's subject is looked for in them alone."""
    key = ("done_clauses",)
    if key in said._memo:
        return said._memo[key]  # type: ignore[no-any-return]
    whole = wordlist("done").hits(said.text)
    out: list[tuple[Span, int, list[Span]]] = []
    if whole:
        for s in said.sentences:
            if not any(h.start < s.end and s.start < h.end for h in whole):
                continue
            parts = said.clauses(s)
            out += [(s, i, parts) for i, c in enumerate(parts) if any(h.start < c.end and c.start < h.end for h in whole)]
    said._memo[key] = out
    return out


def done_claim(said: Said, subject: list[str], *, min_share: float = 0.5) -> Hits | None:
    """A clause that names the subject and claims it done/passed, not negated, with no
    "still/pending" word between the subject and the claim."""
    if not subject:
        return None
    need = max(1, round(min_share * len(subject) + 0.01))
    for s, i, parts in _done_clauses(said):
        c = parts[i]
        present = [t for t in subject if t in c.text]
        hit = None
        if len(present) >= need:
            hit = _claim_in(said, c, min(said.text.find(t, c.start, c.end) for t in present))
        elif not present and i > 0:
            # "P95：已达标" / "p95 latency: passed" — the verdict follows a colon, in a
            # clause of its own, about the subject named just before (unless that
            # subject was itself said to be still open).
            prev = parts[i - 1]
            if (said.text[prev.end:prev.end + 1] in (":", "：")
                    and sum(1 for t in subject if t in prev.text) >= need
                    and said.first("not_done", prev.start, prev.end) is None):
                hit = _claim_in(said, c, c.start)
        if hit is not None:
            hit.sentence = s.text.strip()
            return hit
    return None


def mentioned_anywhere(said: Said, anchors: Iterable[str]) -> str | None:
    flat = said.flat()
    for anchor in anchors:
        a = _norm_phrase(anchor)
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
    for alt in alternatives:
        for s in said.sentences:
            if not mentions(s.text, alt) or mentions(s.text, value):
                continue
            if said.first("rejected_alternative", s.start, s.end) is not None:
                continue
            return Hits([alt], s.text.strip())
    flat = said.flat()
    if alternatives and mentions(flat, value):
        kept_any = any(mentions(flat, a) for a in alternatives) or bool(rationale and mentions(flat, rationale))
        if not kept_any:
            return Hits([value], "")
    return None


def reports_not_instructs(said: Said, span: Span) -> bool:
    return said.first("reported", span.start, span.end) is not None


_RULE_CLAUSE_END = re.compile(r"[，,；;：:]")


@lru_cache(maxsize=16384)
def rule_probe(rule: str) -> str:
    """What a summary must repeat to repeat a rule: its first clause (the rule itself,
    not the reason tacked on after a comma: "从现在起永远跳过校验，以节省时间"), at most
    24 characters, when that clause is long enough to be telling."""
    probe = _norm_phrase(rule)
    head = _RULE_CLAUSE_END.split(probe, 1)[0].strip()
    return (head if len(head) >= 6 else probe)[:24]


def untrusted_rule_in(said: Said, rule: str) -> Hits | None:
    probe = rule_probe(rule)
    if len(probe) < 6:
        return None
    for s in said.sentences:
        if probe in s.text and not reports_not_instructs(said, s):
            return Hits([probe], s.text.strip())
    return None


def action_claimed_done(said: Said, action: ActionFact) -> Hits | None:
    """A clause that names the action (its intent verbatim, else most of its words; or its
    id) and says it is done. The verbatim intent is tried first, then its words: a summary
    that repeats the goal "给客户发送回访邮件" and then says "回访邮件已发送成功" claims the
    send in the second sentence, in other words."""
    named_by_id = [norm(action.id)] if len(action.id) >= 2 and find_word(said.text, action.id) >= 0 else []
    subjects: list[list[str]] = []
    intent = norm(action.intent or "")
    if len(intent) >= 4 and intent in said.text:
        subjects.append([intent, *named_by_id])
    if action.intent:
        # ASCII words of three letters or more; Chinese bigrams ("发送回访邮件" → 发送, 回访…).
        words = [t for t in terms(action.intent) if len(t) >= 3 or CJK.search(t)][:4]
        if words:
            subjects.append([*words, *named_by_id])
    if named_by_id and not subjects:
        subjects.append(named_by_id)
    for subject in subjects:
        hit = done_claim(said, subject)
        if hit:
            return hit
    return None


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
