"""Survival: for one summary generation, which protected facts it kept, lost or contradicted.

Per fact whose sources lie inside the range the generation covers, one verdict:
``kept`` (its value — for an artifact or reference its path or identifier — appears in
the summary after normalising case, white space, Unicode NFC and path prefix),
``missing``, ``contradicted`` (the summary negates it, or claims done/passed what the
evidence says is still open), or ``unknown`` (the words are partly there; the rule cannot
tell). Verdicts are exact string rules and say so; a semantic judge may add its own
opinion beside them, never in their place.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from inspector.domain import drift_rules as rules
from inspector.domain import facts_system
from inspector.domain.drift_rules import Said
from inspector.domain.facts_pasted import RULE as PASTED
from inspector.domain.failures import FailedResult, found_nothing, identifiers
from inspector.domain.owner_corrected import late_reason
from inspector.domain.quotes import in_own_words, requoted
from inspector.domain.said_agreed import agreed_alternative
from inspector.domain.said_crosslang import crossed
from inspector.domain.said_departures import departure
from inspector.domain.said_disguised import disguised, disguises
from inspector.domain.said_goal_done import goal_done_against_log, goal_done_over_failure
from inspector.domain.said_grantee import grant_taken, grantee_added
from inspector.domain.said_language import other_language
from inspector.domain.said_misnamed import log_lookup, misnamed
from inspector.domain.said_negated_rule import negated_at, negated_opening
from inspector.domain.said_output_numbers import ToolRun
from inspector.domain.said_quoted import narrative, nearest_sentence
from inspector.domain.said_renamed import identifiers_of, renamed
from inspector.domain.said_retracted import retracted, retractions
from inspector.domain.said_versions import other_version, versions_of
from inspector.domain.subjects import call_subject, glossed
from inspector.domain.survival_failure import about_other_run, pasted_subject
from inspector.domain.survival_identifiers import identifier_forms, identifier_kept, sentence_at
from inspector.domain.survival_report import VERDICTS, Survival
from inspector.domain.textnorm import CJK, find_value, find_word, phrase_parts, terms

KEEP_SHARE = 0.6  # share of a value's terms present for "partly there"
PARTIAL_SHARE = 0.3
UNTRUSTED_WRITERS = frozenset({"tool", "model"})  # as drift.UNTRUSTED_WRITERS
IDENTIFIER_KINDS = frozenset({"artifact", "reference", "evidence_ref"})
_RULE_KINDS = frozenset({"goal", "constraint", "permission", "acceptance", "decision"})
_EVT = re.compile(r"evt:(\d+)$")


@dataclass(frozen=True, slots=True)
class Fact:
    key: str
    kind: str
    value: str
    status: str
    sources: tuple[str, ...]
    writer: str | None = None
    rule: str | None = None
    rationale: str | None = None
    alternatives: tuple[str, ...] = ()
    detail: dict[str, Any] = field(default_factory=dict)
    # The evt:N numbers it cites, worked out once (every generation asks whether they lie in its range).
    seq_numbers: tuple[int, ...] = field(init=False, compare=False, repr=False, default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "seq_numbers", _event_seqs(self.sources))

    def seqs(self) -> list[int]:
        return list(self.seq_numbers)


@dataclass(frozen=True, slots=True)
class Verdict:
    fact: Fact
    verdict: str
    where: str | None  # the sentence that decided it, or why there is none
    reason: str
    as_of: str | None = None  # for a todo item: its state at the end of the range

    def as_dict(self) -> dict[str, Any]:
        f = self.fact
        return {"key": f.key, "kind": f.kind, "value": f.value, "status": f.status, "sources": list(f.sources),
                "writer": f.writer, "rule": f.rule, "verdict": self.verdict, "where": self.where,
                "reason": self.reason, **({"state_at_range_end": self.as_of} if self.as_of else {})}


@lru_cache(maxsize=65536)
def _event_seqs(sources: tuple[str, ...]) -> tuple[int, ...]:
    """The ``evt:N`` numbers of a record's sources (asked once per record and generation)."""
    return tuple(int(m.group(1)) for s in sources if (m := _EVT.match(s)))


def in_range(fact: Fact, covers: tuple[int, int] | None) -> bool:
    """Whether the generation must keep the fact: it was said by the end of the range. A
    summary replaces everything before it, so a generation covering [5, 10] that drops the
    goal of evt:1 lost it (drift's rule too: ``StateFact.within``) — judging only facts
    cited inside [5, 10] had it "keep 1 of 1 facts" while the goal and every constraint
    were gone."""
    if covers is None:
        return True
    seqs = fact.seq_numbers
    if not seqs:
        return fact.status == "active"
    return min(seqs) <= covers[1]


@lru_cache(maxsize=16384)
def _failure_subject(text: str) -> tuple[str, ...]:
    return tuple([t for t in terms(text) if len(t) >= 3][:5])


def _share(said: Said, value: str) -> float:
    """The share of the value's terms the summary holds (each term's presence remembered
    per generation: the same terms come back in many values)."""
    ts = phrase_parts(value)[1]
    if not ts:
        return 0.0
    return sum(1 for t in ts if said.has(t)) / len(ts)


def _todo_state(fact: Fact, last: int | None) -> str | None:
    trail = fact.detail.get("todo_states")
    if not isinstance(trail, list) or last is None:
        return None
    state = None
    for item in trail:
        if isinstance(item, list) and len(item) == 2 and (m := _EVT.match(str(item[0]))) and int(m.group(1)) <= last:
            state = str(item[1])
    return state


def _resolved(fact: Fact, last: int | None) -> bool:
    ref = fact.detail.get("resolved_by")
    m = _EVT.match(str(ref)) if ref else None
    return bool(m and (last is None or int(m.group(1)) <= last))


def judge(fact: Fact, said: Said, covers: tuple[int, int] | None,
          others: tuple[tuple[str, str], ...] = (), text: str | None = None, runs: tuple[ToolRun, ...] = ()) -> Verdict:
    """One fact's verdict; ``others``: the other protected values (a sentence stating one of
    them is not a renumbering of this one); ``text``: the summary as written (a value found only
    disguised in it is ``unknown``, said_disguised); ``runs``: the log's tool runs (a pass claim
    naming another command is about that run, said_run_pairing)."""
    last = covers[1] if covers else None
    if fact.kind in IDENTIFIER_KINDS:
        where = identifier_kept(said, fact.value)
        hidden = disguised(text, said, fact.value, identifier_forms(fact.value)) if (
            where is not None and text is not None and said.remember(("disguises",), lambda: disguises(text))) else None
        if hidden is not None:  # verdict-four: "hооks.go" (Cyrillic о) names another file
            return Verdict(fact, "unknown", hidden.shown, f"the path or identifier stands only after undoing "
                           f"{hidden.how}; its characters differ — a person must read it")
        if where is not None:
            return Verdict(fact, "kept", where, "the path or identifier appears in the summary")
        return Verdict(fact, "missing", None, "neither the path/identifier nor its file name appears")
    if fact.kind == "failure":
        command = str(fact.detail.get("signature") or "")
        anchors = [f"evt:{s}" for s in fact.seqs()] + [command]
        head = fact.value.split(" failed: ", 1)
        if len(head) == 2 and found_nothing(str(fact.detail.get("signature") or head[0]).split("(", 1)[0], head[1]):
            return Verdict(fact, "kept", None, "a lookup that found nothing (failures.found_nothing): it changed "
                           "nothing, so a summary that leaves it out loses nothing (drift agrees)")
        anchors += [head[1]] if len(head) == 2 and len(head[1]) >= 12 else []
        # the failure word for word ("61 checks failed: disk full"): its error alone is too short
        # to be an anchor, and the summary that repeats it whole was called "missing" (check-verdicts)
        anchors.append(fact.value)
        hit = rules.mentioned_anywhere(said, [a for a in anchors if a], (command,))  # a citation states nothing
        if hit is None and fact.rule == PASTED and len(head) == 2 and _share(said, head[1]) >= 0.5:
            hit = head[1]  # a pasted log is retold, not quoted: half its line's words name it
        resolved = _resolved(fact, last)
        if not resolved:
            # The same subject drift's failure_dropped reads (tool words, telling argument
            # values, their Chinese glosses), so both say the same about "Migration 0042 applied".
            pasted = fact.rule == PASTED  # no run in the log re-ran it (facts_pasted): its line's words
            words = [] if pasted else list(call_subject(fact.detail.get("tool"), str(fact.detail.get("signature") or "")))
            # The failing test or exception its error line names, as drift reads it.
            named = [[i.casefold()] for i in identifiers(head[1] if len(head) == 2 else "") if "/" not in i and "." not in i]
            claim = None
            for subject in (*named, words, glossed(words)) if words else (*named, [*(pasted_subject(head[-1]) if pasted else _failure_subject(fact.value))]):
                claim = claim or (rules.done_claim(said, list(subject)) if subject else None)
            if claim is not None and runs and about_other_run(claim, fact, runs, last):
                claim = None  # "after the edit `go test ./cart/` passes" beside a failed `go test ./...`
            claim = claim or rules.blanket_claim(said, "blanket_failure")
            if claim is not None and pasted:
                return Verdict(fact, "unknown", claim.sentence,
                               f"the summary says “{claim.words[0]}” about a failure the user pasted: no run in the log "
                               "re-ran what failed, so whether it was fixed is not judged")
            if claim is not None:
                return Verdict(fact, "contradicted", claim.sentence,
                               f"the summary says “{claim.words[0]}” about a failure no later result resolved")
        if hit:
            return Verdict(fact, "kept", hit, "the failing call or its error is mentioned")
        if resolved:  # a retry of the same call succeeded (failures.find_failures): nothing stays open
            return Verdict(fact, "kept", None, f"resolved by {fact.detail.get('resolved_by')} within the range: "
                           "nothing stays open, so a summary that leaves it out loses nothing (drift agrees)")
        return Verdict(fact, "missing", None, "an unresolved failure the summary does not mention")
    as_of = _todo_state(fact, last)
    still_open = fact.kind == "open_issue" and (as_of is None or as_of != "completed")
    if still_open:
        claim = (rules.done_claim(said, rules.subject_terms(fact.value), min_share=0.6)
                 or rules.blanket_claim(said, "blanket_open"))
        if claim is not None:
            return Verdict(fact, "contradicted", claim.sentence,
                           f"the summary says “{claim.words[0]}” about an item still open", as_of)
    if fact.kind in ("goal", "constraint", "permission", "acceptance", "decision"):
        neg = rules.negated_value(said, fact.value, others, fact.kind)
        if neg is not None:
            return Verdict(fact, "contradicted", neg.sentence, f"the summary cancels or weakens it: “{neg.words[0]}”")
        dep = departure(said, fact.value, fact.kind, others)
        if dep is not None and dep.code == "subject_unjudged" and find_value(said.flat(), rules.norm_phrase(fact.value)) < 0:
            dep = None  # a sentence about its subject does not make a value the text lacks "unknown"
        if dep is not None:
            # The same departures drift reads (said_departures.py), so both say the same.
            if not dep.decided:
                why = (f"the summary reports “{dep.words[0]}” done to what it forbids; the rules do not know that "
                       "verb and cannot tell whether it is the forbidden act" if dep.code == "forbidden_action_unclear"
                       else f"the summary says “{dep.words[0]}” about its subject in words the rules cannot match to "
                       "its verb, amount or order" if dep.code == "subject_unjudged"
                       else f"a pronoun a few sentences later is dismissed (“{dep.words[0]}”); the rules cannot tell "
                       "whether it means this fact")
                return Verdict(fact, "unknown", dep.sentence, why, as_of)
            why = _DEPARTED.get(dep.how, "") or _DEPARTED[dep.code]
            return Verdict(fact, "contradicted", dep.sentence, f"{why}: “{dep.words[0]}”")
        if fact.kind == "decision" and fact.alternatives:
            rev = rules.reversed_choice(said, fact.value, list(fact.alternatives), fact.rationale)
            if rev is not None and rev.sentence:
                return Verdict(fact, "contradicted", rev.sentence, f"states the rejected alternative “{rev.words[0]}”")
            agreed = agreed_alternative(said, fact.value, fact.alternatives)  # verdict-ten: a dispute flattened
            if agreed is not None:
                return Verdict(fact, "contradicted", agreed.sentence, f"reports the rejected alternative as agreed: “{agreed.words[0]}”")
        # verdict-four: the same grant to another subject too; verdict-ten: to another party only
        only = grant_taken(said, fact.value) if fact.kind == "permission" else None
        wider = only or (grantee_added(said, fact.value) if fact.kind == "permission" else None)
        if wider is not None:
            return Verdict(fact, "contradicted", wider.sentence, f"the summary grants it to another "
                           f"{'party only' if only else 'subject too'}: “{wider.words[0]}”", as_of)
        moved = other_version(said, fact.value) if versions_of(fact.value) else None
        if moved is not None:  # verdict-four: another version of the same thing; the rules cannot tell
            return Verdict(fact, "unknown", moved.sentence, f"the summary names “{moved.words[0]}” {moved.words[1]}; "
                           "the rules cannot tell whether the version moved", as_of)
        near = renamed(said, fact.value, tuple(v for v, _ in others)) if identifiers_of(fact.value) and find_value(
            said.flat(), rules.norm_phrase(fact.value)) >= 0 else None
        if near is not None:  # verdict-six: an identifier renamed by a character (a host, ticket, port, path)
            return Verdict(fact, "contradicted" if near.decided else "unknown", near.sentence,
                           f"the summary names “{near.words[0]}” for “{near.words[1]}”", as_of)
        other = crossed(said, fact.value) if fact.kind != "decision" and said.remember(
            ("cjk",), lambda: CJK.search(said.text) is not None) else None
        if other is not None:  # verdict-four: a change in the other language; verdict-ten: decided when it softens/grants/lifts
            return Verdict(fact, "contradicted" if other.decided else "unknown", other.sentence, (
                f"the summary softens, grants or lifts it in another language: “{other.words[0]}”" if other.decided else
                f"the summary says “{other.words[0]}” about its subject in another language; the exact rules cannot judge "
                "a translation"), as_of)
        taken = retracted(said, rules.norm_phrase(fact.value), fact.kind) if retractions(said) else None
        if taken is not None:  # verdict-four: every rule above taken back at once
            return Verdict(fact, "contradicted", taken.sentence,
                           f"the summary takes back every rule above it: “{taken.words[1]}”", as_of)
    v = rules.norm_phrase(fact.value)
    pos = find_value(said.flat(), v) if v else -1
    hidden = disguised(text, said, fact.value) if pos >= 0 and text is not None and said.remember(
        ("disguises",), lambda: disguises(text)) else None
    if hidden is not None:  # verdict-four: the reader sees the value, the bytes are others
        return Verdict(fact, "unknown", hidden.shown, f"the value stands only after undoing {hidden.how}; "
                       "its characters differ from the value's — a person must read it", as_of)
    flipped = negated_at(said.flat(), v) if pos >= 0 and fact.kind in _RULE_KINDS else None
    if flipped is not None:  # verdict-real-three: "Never use the player's name …" keeps no "Use the player's name …"
        return Verdict(fact, "contradicted", sentence_at(said, flipped), "the summary states the rule behind a "
                       "negation: its opposite", as_of)
    if pos >= 0:
        return Verdict(fact, "kept", sentence_at(said, pos), "the value appears in the summary", as_of)
    if fact.kind == "open_issue" and v and v in said.unresolved:
        # the summary's own unresolved markers are where an open issue belongs (DESIGN: "open
        # issues marked unresolved"); s-orders carried it only there and was called "missing"
        return Verdict(fact, "kept", None, "the summary carries it among its unresolved markers", as_of)
    opening = negated_opening(said.flat(), v) if fact.kind in _RULE_KINDS else None
    if opening is not None:  # verdict-real-four: "never use the player's name" for "Use the player's name in …"
        return Verdict(fact, "contradicted", sentence_at(said, opening[0]), f"the summary states the rule's "
                       f"opening “{opening[1]}” behind a negation: its opposite", as_of)
    share = _share(said, fact.value)
    if share >= PARTIAL_SHARE:
        dropped = ""
        if fact.kind == "decision" and fact.alternatives and rules.reversed_choice(
                said, fact.value, list(fact.alternatives), fact.rationale) is not None:
            dropped = "; its alternatives and rationale are dropped (drift: decision_reversed)"
        return Verdict(fact, "unknown", None, f"{share:.0%} of its words appear, not the value itself{dropped}", as_of)
    if other_language(fact.value, said):
        # "不得修改生产数据库" may well be "Do not modify the production database": exact
        # rules cannot tell, so they say so rather than calling the fact lost.
        return Verdict(fact, "unknown", None, "the summary is written in another language than the fact; "
                       "exact rules cannot tell whether it is kept (--judge can)", as_of)
    return Verdict(fact, "missing", None, f"{share:.0%} of its words appear", as_of)




_DEPARTED = {"permission_widened": "the summary widens its scope", "order_reversed": "the summary narrates its "
             "steps in the other order", "forbidden_action_done": "the summary reports as done what it forbids",
             "pronoun": "the summary lifts it through a pronoun", "limit": "the summary changes or loosens its limit",
             "touched": "the summary reports as done what it forbids",
             "accepted": "the summary accepts elsewhere what it excludes",
             "bound": "the summary turns its bound around", "beyond": "the summary goes past or narrows its scope", "order": "the summary says its steps may come in any order",
             "approver": "the summary reports it approved by another actor than the one it names",
             "agreed": "the summary reports what it forbids as agreed",
             "flipped": "the summary says its opposite elsewhere",
             "joined": "the summary widens the place it is bound to",
             "hedged": "the summary restates it as advice"}


def survival(generation: int, text: str, unresolved: list[str], covers: tuple[int, int] | None,
             facts: list[Fact], event_texts: dict[int, str] | None = None,
             failures: tuple[FailedResult, ...] = (), result_seqs: tuple[int, ...] = (),
             runs: tuple[ToolRun, ...] = (), written_at: int | None = None,
             replaced: dict[str, str] | None = None) -> Survival:
    # written_at: the ledger entry that added the generation; replaced: key → the value an owner's correction
    # replaced (owner_corrected: a value corrected after the text was written is not judged there)
    said = Said.of(text, unresolved)
    # A pending proposal written by a tool or the model (an injected "from now on always
    # skip validation") is not a fact a summary must keep: repeating it is the drift
    # (``untrusted_in_summary``), so it is left out of survival rather than called missing.
    chosen: list[Fact] = []
    after: list[Fact] = []
    untrusted: list[Fact] = []
    unsourced: list[Fact] = []  # review-14: were said to be "first said at , after" the range
    in_review: list[Fact] = []  # flow-eight: a correction citing its ledger entry was said to have no source
    stale: list[Fact] = []  # review-18: a proposal left pending behind its key's active version
    for f in facts:
        if f.status not in ("active", "pending"):
            continue
        if f.status == "pending" and f.detail.get("stale_behind"):
            stale.append(f)
        elif f.status == "pending" and f.writer in UNTRUSTED_WRITERS:
            untrusted.append(f)
        else:
            (chosen if in_range(f, covers) else after if f.seq_numbers
             else in_review if any(src.startswith("ledger:") for src in f.sources) else unsourced).append(f)
    others = tuple((f.value, f.kind) for f in facts
                   if f.kind in ("goal", "constraint", "permission", "acceptance", "decision"))
    verdicts = [judge(f, said, covers, others, text, runs) for f in chosen]
    if event_texts or failures:  # a goal called done while the log says it is not (said_goal_done)
        for i, v in enumerate(verdicts):
            if v.fact.kind != "goal" or v.verdict != "kept":
                continue
            done = goal_done_against_log(said, v.fact.value, event_texts, covers)
            if done is not None:
                verdicts[i] = Verdict(v.fact, "contradicted", done.sentence, f"the summary calls it done "
                                      f"(“{done.words[0]}”); the log's last word on it (evt:{done.seq}) says it is not")
                continue
            ran = goal_done_over_failure(said, v.fact.value, failures, result_seqs, covers, event_texts)
            if ran is not None:
                what = "the last tool result in range" if ran.seq in result_seqs else "the log's word on the run"
                verdicts[i] = Verdict(v.fact, "contradicted", ran.sentence, f"the summary calls it done "
                                      f"(“{ran.words[0]}”); {what} (evt:{ran.seq}) failed: “{ran.log_says}”")
    seen = log_lookup(event_texts) if event_texts else None
    for i, v in enumerate(verdicts):  # verdict-eight: a name changed by letters to one the log never shows
        n = misnamed(said, v.fact.value, tuple(o for o, _ in others), seen) if seen and v.verdict == "kept" and \
            v.fact.kind in ("goal", "constraint", "permission", "acceptance") else None
        if n is not None:
            verdicts[i] = Verdict(v.fact, "contradicted", n.sentence, f"the summary names “{n.words[0]}” for "
                                  f"“{n.words[1]}”, a name the log never shows")
    story = narrative(text) if any(v.fact.kind == "goal" and v.verdict == "kept" for v in verdicts) else None
    if story is not None:  # verdict-real-two: a quoted list of the user's messages is not their state
        told = Said.of(story, unresolved)
        verdicts = [_told(v, told, covers, others, story) if v.fact.kind == "goal" and v.verdict == "kept" else v
                    for v in verdicts]
    for i, v in enumerate(verdicts):  # corrected by the owner after this text was written (owner_corrected)
        late = late_reason(generation, v.fact.sources, written_at, (replaced or {}).get(v.fact.key), said.in_text) \
            if v.verdict in ("missing", "unknown") and v.fact.status == "active" else None
        verdicts[i] = v if late is None else Verdict(v.fact, "unknown", v.where, late, v.as_of)
    verdicts = [_prompt_rule(v) for v in verdicts]
    return Survival(generation, covers, [_own_words(v, text) for v in verdicts], after, untrusted, unsourced, in_review,
                    stale)


def _prompt_rule(verdict: Verdict) -> Verdict:
    """A system prompt's rule the summary does not restate is ``unknown``, not ``missing``
    (facts_system.not_replaced says why); a contradiction stays ``contradicted``."""
    f = verdict.fact
    if verdict.verdict != "missing" or not facts_system.from_prompt(f.rule):
        return verdict
    return Verdict(f, "unknown", verdict.where, facts_system.not_replaced(f.sources))


def _told(verdict: Verdict, told: Said, covers: tuple[int, int] | None,
          others: tuple[tuple[str, str], ...], story: str) -> Verdict:
    """A kept goal judged again on the narrative alone (said_quoted.py): kept or contradicted
    there stands; anything else is ``unknown``, never ``kept`` by the quote alone."""
    again = judge(verdict.fact, told, covers, others, story)  # what the user was told: no runs
    if again.verdict == "kept":
        return verdict
    quote = "only the summary's quoted list of the user's messages holds it word for word"
    if again.verdict == "contradicted":
        return replace(again, reason=f"{again.reason}; {quote}")
    where = again.where or nearest_sentence(told, verdict.fact.value)
    near = "; quoted: the sentence of the rest that shares most of its words" if where and not again.where else ""
    return Verdict(verdict.fact, "unknown", where, f"{quote}, and a quote is not its state (done, pending, answered "
                   f"how): in the rest of the summary {again.reason.removeprefix('the ')}{near}", again.as_of)


def _own_words(verdict: Verdict, text: str) -> Verdict:
    """F12: the deciding sentence quoted in the summary's own characters (the rules read its
    normal form: "`checkconcurrentsessions`" where the summary says "`checkConcurrentSessions`")."""
    if not verdict.where:
        return verdict
    words = tuple(re.findall(r"“([^”]*)”", verdict.reason))  # the words its reason quotes from the summary
    return replace(verdict, where=in_own_words(text, verdict.where), reason=requoted(text, verdict.reason, words))


__all__ = ["Fact", "Survival", "VERDICTS", "Verdict", "find_word", "survival"]
