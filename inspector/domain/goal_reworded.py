"""Drift's word for a confirmed goal a summary words in its own words: "?", not ✗ (verdict-real-four).

A goal is what the user asked, and real summarizers restate it, not quote it: a Codex handoff says
"The user's guess is 4." for "My guess is 4", an Anthropic compaction "asked me to use the
fixed_version tool, then tell them the version …" for "Use the fixed_version tool. Then tell me the
version …". Drift's ``protected_missing`` wants the goal's text, so every such faithful summary was ✗
(4 of 7 faithful summaries on real transcripts) while survival, reading the same words, said
``unknown`` ("N% of its words appear, not the value itself").

When most of the goal's words stand (survival's ``KEEP_SHARE``) and every exact part of it does too —
each number or word with a digit ("12-line", "4", "0.32a0"), each identifier (a path, a dotted or
hyphenated name), each capitalised name or quoted word ("SAMIRA") — drift says ``goal_reworded``, a
warning (check's "?"): the rules cannot tell whether the rewording keeps the request. A changed number
or name, or a goal mostly gone, stays ``protected_missing`` (✗). Constraints, permissions and
acceptance criteria are rules whose exact words bind: unchanged, still ✗.
"""

from __future__ import annotations

import re

from inspector.domain.drift_finding import Finding
from inspector.domain.facts_ask import told_part
from inspector.domain.said import Said
from inspector.domain.said_renamed import identifiers_of
from inspector.domain.textnorm import find_word, norm, phrase_parts

CODE = "goal_reworded"
SHARE = 0.6  # survival.KEEP_SHARE: "partly there" enough that only a reader can tell
# Words that set a request's scope: "all tables" said "the users table" is another request.
_SCOPE = ("all", "every", "each", "any", "only", "none", "no", "never", "always", "both", "first", "last",
          "at most", "at least", "not", "without")
_SENTENCE_END = re.compile(r"(?<=[.!?。！？])\s+|\n+")
_NAMED = re.compile(r"\b[A-Z][A-Z0-9]{1,}\b|\"([^\"\n]{1,80})\"|“([^”\n]{1,80})”")


def _exact_parts(value: str) -> set[str]:
    """The parts of ``value`` a rewording must keep as they are: numbers, identifiers, names."""
    terms = phrase_parts(value)[1]
    parts = {t for t in terms if any(c.isdigit() for c in t)}
    parts |= {norm(i) for i in identifiers_of(value)}
    for m in _NAMED.finditer(value):
        parts.add(norm(m.group(1) or m.group(2) or m.group(0)).strip(" .,;:!?"))
    return {p for p in parts if p}


def reworded(said: Said, value: str) -> float | None:
    """The share of ``value``'s words a passage of the summary holds when that passage is a rewording
    of it (most words there, every exact part and scope word whole); None when none is. The passage is
    as many sentences running as the goal has: words gathered from all over a summary ("3 of 12 tables
    migrated" beside "Migrated the users table") are no rewording of "Migrate all tables …"."""
    terms = phrase_parts(value)[1]
    if not terms or sum(1 for t in terms if said.has(t)) / len(terms) < SHARE:
        return None
    exact = _exact_parts(value) | {w for w in _SCOPE if _whole(norm(value), w)}
    sentences = [x for x in _SENTENCE_END.split(said.flat()) if x.strip()]
    k = max(1, len([x for x in _SENTENCE_END.split(norm(value)) if x.strip()]))
    best = None
    for i in range(max(1, len(sentences) - k + 1)):
        passage = " ".join(sentences[i:i + k])
        share = sum(1 for t in terms if t in passage) / len(terms)
        if share >= SHARE and all(_whole(passage, p) for p in exact):
            best = max(best or 0.0, share)
    return best


def pasted_retold(said: Said, value: str) -> float | None:
    """A goal made of the user's ask and the failure line they pasted (facts_ask: "… did run into this
    issue: ⨯ release failed after 22m5s") is reworded when one sentence retells that line — half its
    words or more, every number of it whole — as the retold pasted failure is kept (survival): the ask
    points at the failure ("this issue"), and a summary never quotes "I just tried to …". None otherwise
    (a summary that drops the failure still loses the goal)."""
    told = told_part(value)
    if told is None:
        return None
    terms = phrase_parts(told)[1]
    exact = {t for t in terms if any(c.isdigit() for c in t)}
    for sentence in (x for x in _SENTENCE_END.split(said.flat()) if x.strip()):
        share = sum(1 for t in terms if t in sentence) / len(terms) if terms else 0.0
        if share >= 0.5 and all(_whole(sentence, p) for p in exact):
            return share
    return None


def _whole(flat: str, part: str) -> bool:
    """``part`` stands in ``flat`` as a token of its own: "3.11" is not in "3.11-rc" nor "3.11.9",
    "12-line" not in "12-lines"."""
    if find_word(flat, part) < 0:
        return False
    return re.search(rf"(?<![\w.-]){re.escape(part)}(?![\w-]|\.\w)", flat) is not None


def note(generation: int, key: str, value: str, share: float) -> Finding:
    return Finding(CODE, key, f"generation {generation} does not quote the goal “{value}” ({key}) but holds "
                   f"{share:.0%} of its words and every number and name of it: the rules cannot tell whether "
                   "the rewording keeps the request (a person or --judge can).", "warning", words=(value,))


__all__ = ["CODE", "note", "pasted_retold", "reworded"]
