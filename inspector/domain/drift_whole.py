"""Drift rules that read a generation as a whole rather than record by record (verdict-four).

The per-record loop of ``drift._said_findings`` visits only the records a generation's text
can make a rule read (``drift_roster``); these rules need no such gate, since each first asks
one cheap question (of the whole text, or one substring test) that is almost always "no":

- a retraction (``said_retracted``): one sentence takes back every rule above it ("None of the
  above constraints apply any more", "以上约束全部作废") — ``protected_negated`` for each value
  it takes back;
- a permission granted to another subject (``said_grantee``): "Bob may approve merges too"
  beside "Alice may approve merges" — ``permission_widened``;
- another version of what a value names (``said_versions``): "Target runtime: Python 3.12"
  beside "… to Python 3.11" — ``subject_unjudged``, a warning: the rules cannot tell whether it moved;
- a sentence in the other language naming a value's subject with a change or grant word
  (``said_crosslang``): "TLS verification may be disabled now" beside "禁止关闭 TLS 校验" —
  ``subject_unjudged``, a warning: the exact rules cannot judge a translation;
- a disguised value (``said_disguised``): a value found only after undoing look-alike letters,
  invisible characters, fullwidth digits or another Unicode form, so its bytes differ from the
  value a reader sees — ``value_disguised``, a warning that says a person must read it.
"""

from __future__ import annotations

import re
from typing import Any

from inspector.domain.drift_context import DriftContext
from inspector.domain.drift_finding import Finding
from inspector.domain.output_said_values import said_value_findings
from inspector.domain.said import Said
from inspector.domain.said_completion import completion_findings
from inspector.domain.said_crosslang import crossed
from inspector.domain.said_departures import CANNOT_JUDGE
from inspector.domain.said_disguised import disguised, disguises
from inspector.domain.said_goal_done import goal_done_against_log, goal_done_over_failure
from inspector.domain.said_grantee import grant_any, grant_of, grant_taken, grantee_added
from inspector.domain.said_misnamed import log_lookup, misnamed, names_of
from inspector.domain.said_output_numbers import output_findings
from inspector.domain.said_renamed import identifiers_of, renamed
from inspector.domain.said_retracted import retracted, retractions
from inspector.domain.said_stale_path import stale_path_findings
from inspector.domain.said_versions import other_version, versions_of
from inspector.domain.textnorm import CJK
from inspector.domain.vocabulary import OWNER_ONLY_KINDS

# Three Latin words in a row: some English. Anchored on the space before the first (a search
# from every letter cost the drift bench's mixed-language texts ~5x more); a gate, not a rule.
_LATIN_RUN = re.compile(r" [a-z]{2,}+ [a-z]{2,}+ [a-z]")
_CHANGE_STEMS = ("now", "limit", "raised", "改为", "改成", "上限")  # besides the cancelling and grant words


def _mixed(said: Said) -> bool:
    """Whether the text holds both Chinese and some English (``said_crosslang`` can read it)."""
    text = said.text
    if text.isascii():
        return False
    # A change said in the other language needs a change, lift or grant word: the cancelling and
    # permission words (``Said.cancels``, asked of every generation already) or one of these.
    if not (said.cancels() or any(w in text for w in _CHANGE_STEMS)):
        return False
    return CJK.search(text) is not None and _LATIN_RUN.search(text) is not None


# The last record list asked about, its length then, and (every judged record, the ones naming a
# grantee or a version) — replaced whole, like ``drift_plans._PLANS``: every generation of a session
# (the Drift tab's 1,000) asks about the same list.
_JUDGED: tuple[Any, int, tuple[list[Any], list[Any]]] = (None, 0, ([], []))


def _judged(state: list[Any]) -> tuple[list[Any], list[Any]]:
    global _JUDGED
    last, size, kept = _JUDGED
    if last is state and size == len(state):
        return kept
    judged = [f for f in state if f.status == "active" and f.kind in OWNER_ONLY_KINDS]
    kept = (judged, [f for f in judged if (f.kind == "permission" and grant_any(f.value)) or versions_of(f.value)
                     or identifiers_of(f.value)])
    _JUDGED = (state, len(state), kept)
    return kept


def _values(judged: list[Any]) -> tuple[str, ...]:
    return tuple(f.value for f in judged)


def whole_text_findings(generation: int, text: str, said: Said, state: list[Any], found: list[Finding],
                        ctx: DriftContext | None = None, covers: tuple[int, int] | None = None) -> list[Finding]:
    """The retractions and disguised values of one generation, for the active goals,
    constraints, permissions and acceptances no blocking finding already names; and a goal
    called done while the log's last word on it says it is not (``ctx``: the raw log's texts); and
    numbers a tool's output contradicts (``output_misstated``, verdict-ten), whatever the records."""
    numbers = output_findings(generation, text, ctx.tool_runs, covers, said) if ctx is not None else []
    if ctx is not None and ctx.evidence is not None:  # verdict-real-five: an act no event shows
        numbers += completion_findings(generation, said, ctx.tool_runs, covers, ctx.evidence_whole, ctx.user_said)
        numbers += stale_path_findings(generation, said, ctx.evidence, ctx.evidence_whole, ctx.tool_runs, covers)
        numbers += said_value_findings(generation, said, text, ctx.evidence, ctx.evidence_whole, ctx.tool_runs, covers)
    judged, named_ones = _judged(state)
    if not judged:
        return numbers
    done = _goals_done(generation, said, judged, found, ctx, covers) if ctx is not None and (
        ctx.event_texts or ctx.failures) else []
    out = done + _whole(generation, text, said, judged, named_ones, found)
    if ctx is not None and ctx.event_texts:
        out += _misnamed(generation, said, judged, found + out, ctx.event_texts)
    return out + numbers


def _misnamed(generation: int, said: Said, judged: list[Any], found: list[Finding],
              event_texts: dict[int, str]) -> list[Finding]:
    """A protected name changed by letters to one the session's log never shows (verdict-eight)."""
    named = {f.key for f in found if f.severity == "finding" or f.code in CANNOT_JUDGE}
    out: list[Finding] = []
    for fact in judged:
        if fact.key in named or not names_of(fact.value):
            continue
        n = misnamed(said, fact.value, _values(judged), log_lookup(event_texts))
        if n is not None:
            out.append(Finding("protected_negated", fact.key,
                               f"generation {generation} repeats the {fact.kind} “{fact.value}” ({fact.key}) but names "
                               f"“{n.words[0]}” for its “{n.words[1]}” elsewhere (“{n.sentence}”): another name by a "
                               "letter or two, one the session's log never shows.", words=n.words, where=n.sentence))
    return out


def _goals_done(generation: int, said: Said, judged: list[Any], found: list[Finding], ctx: DriftContext,
                covers: tuple[int, int] | None) -> list[Finding]:
    named = {f.key for f in found if f.severity == "finding"}
    out: list[Finding] = []
    for fact in judged:
        if fact.kind != "goal" or fact.key in named:
            continue
        hit = goal_done_against_log(said, fact.value, ctx.event_texts, covers)
        if hit is None:
            ran = goal_done_over_failure(said, fact.value, ctx.failures, ctx.result_seqs, covers, ctx.event_texts)
            if ran is not None:
                what = (f"the last tool result in its range, evt:{ran.seq}, failed" if ran.seq in ctx.result_seqs else
                        f"the log says at evt:{ran.seq} that the build or the tests fail")
                out.append(Finding("open_issue_claimed_done", fact.key,
                                   f"generation {generation} calls the goal “{fact.value}” ({fact.key}) done "
                                   f"(“{ran.words[0]}” in “{ran.sentence}”), but {what} and nothing later "
                                   f"resolved it: “{ran.log_says}”.", words=ran.words, where=ran.sentence))
            continue
        if hit is not None:
            out.append(Finding("open_issue_claimed_done", fact.key,
                               f"generation {generation} calls the goal “{fact.value}” ({fact.key}) done "
                               f"(“{hit.words[0]}” in “{hit.sentence}”), but the log's last word on it, at "
                               f"evt:{hit.seq}, says it is not finished: “{hit.log_says}”.",
                               words=hit.words, where=hit.sentence))
    return out


def _whole(generation: int, text: str, said: Said, judged: list[Any], named_ones: list[Any],
           found: list[Finding]) -> list[Finding]:
    taken = retractions(said)
    hidden = disguises(text)
    mixed = _mixed(said)
    visit = judged if (taken or hidden or mixed) else named_ones
    if not visit:
        return []  # the usual case: nothing in the text any of these rules reads
    named = {f.key for f in found if f.severity == "finding"}
    unsure = {f.key for f in found if f.code in CANNOT_JUDGE}
    out: list[Finding] = []
    for fact in visit:
        if fact.key in named:
            continue
        t = grant_taken(said, fact.value) if fact.kind == "permission" else None
        if t is not None:  # verdict-ten: "Only the data team may read …" beside "You may read …"
            out.append(Finding("protected_negated", fact.key,
                               f"generation {generation} repeats the permission “{fact.value}” ({fact.key}) but gives "
                               f"it to another party only: “{t.words[0]}” in “{t.sentence}”.",
                               words=t.words, where=t.sentence))
            continue
        w = grantee_added(said, fact.value) if fact.kind == "permission" and grant_of(fact.value) else None
        if w is not None:
            out.append(Finding("permission_widened", fact.key,
                               f"generation {generation} repeats the permission “{fact.value}” ({fact.key}) but "
                               f"grants it to another subject too: “{w.words[0]}” in “{w.sentence}”.",
                               words=w.words, where=w.sentence))
            continue
        o = other_version(said, fact.value) if versions_of(fact.value) and fact.key not in unsure else None
        if o is not None:
            out.append(Finding("subject_unjudged", fact.key,
                               f"generation {generation} names “{o.words[0]}” {o.words[1]} (“{o.sentence}”) beside "
                               f"the {fact.kind} “{fact.value}” ({fact.key}): the rules cannot tell whether the version "
                               "moved — not judged; a person (or --judge) must read it.", "warning",
                               words=o.words, where=o.sentence))
            continue
        n = renamed(said, fact.value, _values(judged)) if identifiers_of(fact.value) and fact.key not in unsure else None
        if n is not None:
            out.append(Finding("protected_negated", fact.key,
                               f"generation {generation} repeats the {fact.kind} “{fact.value}” ({fact.key}) but names "
                               f"“{n.words[0]}” for its “{n.words[1]}” elsewhere (“{n.sentence}”): another "
                               "identifier by one character.", words=n.words, where=n.sentence) if n.decided else
                       Finding("subject_unjudged", fact.key,
                               f"generation {generation} names “{n.words[0]}” beside the {fact.kind} “{fact.value}” "
                               f"({fact.key}), which names “{n.words[1]}” (“{n.sentence}”): a short or longer name "
                               "for it, or another — not judged; a person (or --judge) must read it.", "warning",
                               words=n.words, where=n.sentence))
            continue
        c = crossed(said, fact.value) if mixed and fact.key not in unsure else None
        if c is not None and c.decided:  # verdict-ten: a hedge, grant or lift in the other language
            out.append(Finding("protected_negated", fact.key,
                               f"generation {generation} repeats the {fact.kind} “{fact.value}” ({fact.key}) but "
                               f"softens, grants or lifts it in another language: “{c.words[0]}” in “{c.sentence}”.",
                               words=c.words, where=c.sentence))
            continue
        if c is not None:
            out.append(Finding("subject_unjudged", fact.key,
                               f"generation {generation} says “{c.words[0]}” about what the {fact.kind} “{fact.value}” "
                               f"({fact.key}) concerns in another language (“{c.sentence}”): the exact rules cannot "
                               "judge a translation — not judged; a person (or --judge) must read it.", "warning",
                               words=c.words, where=c.sentence))
            continue
        if not taken and not hidden:
            continue
        r = retracted(said, fact.norm_value, fact.kind) if taken else None
        if r is not None:
            out.append(Finding("protected_negated", fact.key,
                               f"generation {generation} repeats the {fact.kind} “{fact.value}” ({fact.key}) but "
                               f"takes it back with every rule above it: “{'”, “'.join(r.words)}” in “{r.sentence}”.",
                               words=r.words, where=r.sentence))
            continue
        d = disguised(text, said, fact.value) if hidden else None
        if d is not None:
            out.append(Finding("value_disguised", fact.key,
                               f"generation {generation} holds the {fact.kind} “{fact.value}” ({fact.key}) only "
                               f"after undoing {d.how}: “{d.shown}” reads the same but its characters are others "
                               "(a path, command or name in it may point elsewhere) — not judged; a person must "
                               "read it.", "warning", words=(d.shown,), where=d.shown))
    return out


__all__ = ["whole_text_findings"]
