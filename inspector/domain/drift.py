"""Drift: where a summary generation moved away from the protected state (DESIGN §2).

Findings compare a generation with the *state* and the *raw-log rebuild*, never with
the previous summary. They are exact (verbatim text, byte for byte) and a faithful
generation yields none: a false alarm is a defect too.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from inspector.domain import drift_rules as rules
from inspector.domain.covers_check import check_covers
from inspector.domain.drift_finding import Finding as Finding  # re-exported: services, UI, report
from inspector.domain.drift_finding import not_repeated
from inspector.domain.drift_headline import NOT_JUDGED as NOT_JUDGED  # re-exported: services, UI, report
from inspector.domain.drift_headline import (
    UNTRUSTED_WRITERS,
    beside_failed,
    facts_not_judged,
    identifier_findings,
    judged_once,
)
from inspector.domain.drift_headline import headline as headline  # re-exported: CLI, UI, tests
from inspector.domain.drift_plans import departure_plans, owner_values
from inspector.domain.drift_roster import gate_of, roster_for
from inspector.domain.drift_rules import DriftContext, Said
from inspector.domain.drift_whole import whole_text_findings
from inspector.domain.facts import EXTRACTOR
from inspector.domain.field_timeline import FieldTimeline as FieldTimeline  # re-exported: services, UI, benches
from inspector.domain.field_timeline import field_cell as field_cell
from inspector.domain.field_timeline import field_timeline as field_timeline
from inspector.domain.field_timeline import held_after_get, held_in
from inspector.domain.goal_reworded import note as goal_note
from inspector.domain.goal_reworded import pasted_retold, reworded
from inspector.domain.owner_corrected import corrected_after, replaced_in
from inspector.domain.owner_corrected import note as owner_note
from inspector.domain.prompt_rule import note as prompt_rule_note
from inspector.domain.quotes import in_own_words, requoted
from inspector.domain.said import normal_text
from inspector.domain.said_agreed import agreed_reversal
from inspector.domain.said_deadline import deadline_restated
from inspector.domain.said_departures import SUBJECT_UNJUDGED, departure, plan_of, pronoun_in
from inspector.domain.said_departures import message as departure_message
from inspector.domain.said_language import other_language
from inspector.domain.said_scope import scope_open
from inspector.domain.said_suite_green import suite_green_finding
from inspector.domain.textnorm import bounded, norm
from inspector.domain.vocabulary import OWNER_ONLY_KINDS


@lru_cache(maxsize=16384)
def _first_event(sources: tuple[str, ...]) -> int | None:
    """The earliest ``evt:N`` a record cites (asked once per record and generation)."""
    seqs = [int(s[4:]) for s in sources if s.startswith("evt:") and s[4:].isdigit()]
    return min(seqs) if seqs else None


@dataclass(frozen=True, slots=True)
class StateFact:
    key: str
    kind: str
    value: str
    status: str
    sources: tuple[str, ...] = ()
    writer: str | None = None
    rationale: str | None = None
    alternatives: tuple[str, ...] = ()
    # The earliest evt:N it cites, and the value's normal form, worked out once (every generation asks).
    first_seq: int | None = field(init=False, compare=False, repr=False, default=None)
    norm_value: str = field(init=False, compare=False, repr=False, default="")
    # Whether "in the text" needs the whole-value rule (a value starting or ending with a
    # digit: "port 8080" is not in "port 80801"); otherwise a substring test answers.
    bounded: bool = field(init=False, compare=False, repr=False, default=False)
    # Whether the value holds a digit (a renumbering can undo it without a cancelling word).
    numbered: bool = field(init=False, compare=False, repr=False, default=False)
    unit: str | None = field(init=False, compare=False, repr=False, default=None)  # "rows" of "500 rows"
    # Whether a departure rule (scope, order, forbidden action, limit; said_departures) can read
    # it, and whether the scope rule is the only one (then a generation-wide gate asks first).
    departs: bool = field(init=False, compare=False, repr=False, default=False)
    scope_only: bool = field(init=False, compare=False, repr=False, default=False)
    # Proposed from the system prompt (facts_system.from_prompt): re-sent with every request, not lost by
    # a summary that leaves it out (prompt_rule.py), as survival says (verdict-eleven).
    from_prompt: bool = False
    replaced: str | None = None  # the value an owner's correction replaced (owner_corrected)

    def __post_init__(self) -> None:
        numbered = any(ch.isdigit() for ch in self.value)
        object.__setattr__(self, "numbered", numbered)
        object.__setattr__(self, "unit", rules.unit_of(self.value) if numbered else None)
        object.__setattr__(self, "first_seq", _first_event(self.sources))
        object.__setattr__(self, "norm_value", _norm_value(self.value))
        object.__setattr__(self, "bounded", bounded(self.norm_value))
        plan = plan_of(self.value, self.kind)
        object.__setattr__(self, "departs", bool(plan))
        # Scope-only: the scope rules read it only when a scope in the text has something joined
        # (scope_open); the subject rule (said_subject) reads it whatever the scope rules do.
        object.__setattr__(self, "scope_only", plan.scope is not None and not (plan.order or plan.forbidden
                                                                              or plan.limit))

    def first_source(self) -> int | None:
        return self.first_seq

    def within(self, covers: tuple[int, int] | None) -> bool:
        """Established by the end of the covered range (or not placeable: then judged)."""
        first = self.first_seq
        return covers is None or first is None or first <= covers[1]


@dataclass(frozen=True, slots=True)
class GenerationText:
    generation: int
    kind: str
    text: str
    unresolved: tuple[str, ...]
    sources: tuple[str, ...]
    claims: tuple[dict[str, Any], ...] = ()
    covers: tuple[int, int] | None = None
    written_at: int | None = None  # the ledger entry that added it (owner_corrected: what it could know)


def find_drift(gen: GenerationText, state: list[StateFact], ctx: DriftContext | None = None) -> list[Finding]:
    """Every finding of one generation. Without ``ctx`` (the raw-log facts) only the
    state rules run; with it, failures, actions, untrusted rules and citations too."""
    findings: list[Finding] = []
    claims = {c.get("key"): c for c in gen.claims}
    ctx = ctx or DriftContext()
    # Asked of the caller's record list (the same object for every generation of a session): a
    # superset of this generation's, which is all a gate needs.
    plans = departure_plans(state)
    stated_covers = gen.covers
    honest = check_covers(gen.text, gen.covers, state, ctx)
    if honest.judged_to is not None and gen.covers is not None:
        # The text knows events after its range: judge it up to them.
        gen = replace(gen, covers=(gen.covers[0], honest.judged_to))
    if gen.covers is not None:
        last = gen.covers[1]
        in_range = [s for s in state if s.first_seq is None
                    or (ctx.established(s.value, s.sources, s.first_seq) or s.first_seq) <= last]
        # Every record in range (the usual case): the caller's list itself, so what is kept per
        # record list (departure_plans, the roster, the subject rule's shared words) is asked
        # once per session, not once per generation.
        state = state if len(in_range) == len(state) else in_range
    # "In the summary" after the one normal form every verdict uses (case, white space, NFC,
    # quotes): survival says kept for the same text. A claim does not stand in for the text:
    # a summary whose claim carries the exact value while its text says the opposite hides
    # what it says, so the value must be in the text either way.
    text_norm = _norm_text(gen.text)
    said = Said.of(gen.text, gen.unresolved)
    held = held_in(text_norm)  # shared with the field timeline, which asks the same of this text
    # One pass over the records (every generation asks about every record), each code's
    # findings kept in its own list so they come out grouped by code, in record order.
    rewritten_found: list[Finding] = []
    missing_found: list[Finding] = []
    closed_found: list[Finding] = []
    flattened_found: list[Finding] = []
    unresolved = gen.unresolved
    for fact in state:
        if fact.status != "active":
            # Not the extractor's: a user's choice awaiting confirmation is no dispute (verdict-real-five).
            if (fact.kind == "decision" and fact.status == "pending" and fact.value not in unresolved
                    and fact.writer != EXTRACTOR):
                flattened_found.append(Finding("dispute_flattened", fact.key,
                                               f"the undecided question “{fact.value}” is not among generation "
                                               f"{gen.generation}'s unresolved markers: a dispute reads as a decision."))
            continue
        claim = claims.get(fact.key)
        rewritten = claim is not None and claim.get("text") != fact.value  # reported as rewritten
        if rewritten:
            rewritten_found.append(Finding("protected_rewritten", fact.key,
                                           f"generation {gen.generation} claims {fact.key} is “{claim.get('text')}”; "
                                           f"the protected value is “{fact.value}”."))
        kind = fact.kind
        if kind in OWNER_ONLY_KINDS:
            if not rewritten and not (held.get(fact.norm_value) or held_after_get(text_norm, fact.norm_value,
                                                                           fact.bounded, held)):
                share = (reworded(said, fact.value) or pasted_retold(said, fact.value)) \
                    if kind == "goal" and claim is None else None
                late = corrected_after(fact.sources, gen.written_at) if claim is None else None
                missing_found.append(owner_note(gen.generation, fact.key, kind, fact.value, late,
                                                replaced_in(fact.replaced, said.in_text)) if late is not None
                                     else prompt_rule_note(gen.generation, fact.key, fact.value, fact.sources)
                                     if fact.from_prompt else goal_note(gen.generation, fact.key, fact.value, share)
                                     if share is not None else _deadline_restated(gen.generation, fact, said)
                                     or Finding("protected_missing", fact.key,
                                             f"the {kind} “{fact.value}” ({fact.key}) is not in generation "
                                             f"{gen.generation}'s text (after normalising case and white space)"
                                             + (", whatever its claim says." if claim is not None else ".")
                                             + (" The text is in another language than the value: the rule "
                                                "cannot tell whether it says the same (a person or --judge can)."
                                                if other_language(fact.value, said) else "")))
        elif kind == "decision" and fact.alternatives and not _decision_named(said, fact):
            late = corrected_after(fact.sources, gen.written_at) if claim is None else None
            missing_found.append(owner_note(gen.generation, fact.key, kind, fact.value, late, replaced_in(
                fact.replaced, said.in_text)) if late is not None else Finding(
                "protected_missing", fact.key, f"generation {gen.generation} names neither the decision "
                f"“{fact.value}” ({fact.key}) nor its alternatives: the choice is gone."))
        elif kind == "open_issue" and fact.value not in unresolved:
            closed_found.append(Finding("open_issue_closed", fact.key,
                                        f"the open issue “{fact.value}” is not among generation {gen.generation}'s "
                                        "unresolved markers: the summary treats it as settled."))
    findings += rewritten_found + missing_found + closed_found + flattened_found
    said_findings = _said_findings(gen, state, ctx, stated_covers, said, plans)
    if honest.later or honest.past_the_log:
        assert stated_covers is not None
        span = f"[{stated_covers[0]}, {stated_covers[1]}]"
        if honest.later:
            what = "; ".join(f"“{p}” (first at evt:{n})" for p, n in honest.later[:3])
            message = (f"generation {gen.generation} claims to cover {span} but its text repeats {what}: "
                       f"judged up to evt:{honest.judged_to}.")
        else:
            message = f"generation {gen.generation} claims to cover {span}, past the last event (evt:{ctx.max_seq})."
        # Both are findings: a range past the log's end claims to summarise events nobody
        # can see (the log lost them, or the text is made up); neither is a green.
        said_findings.append(Finding("source_outside_range", None, message,
                                     words=tuple(p for p, _ in honest.later) or (span,)))
    reversed_keys = {f.key for f in said_findings if f.code == "decision_reversed"}
    # A decision stated as its alternative is reported as reversed, not also as missing.
    findings = [f for f in findings if not (f.code == "protected_missing" and f.key in reversed_keys)]
    findings += judged_once(findings, said_findings)
    findings += whole_text_findings(gen.generation, gen.text, said, state, findings, ctx, gen.covers)
    findings += identifier_findings(gen.generation, gen.text, ctx)
    findings = beside_failed(findings)
    unjudged = facts_not_judged(gen.generation, state)
    if unjudged is not None:
        findings.append(unjudged)
    if not gen.sources:
        findings.append(Finding("unsourced_assertion", None, f"generation {gen.generation} cites no sources.",
                                "warning"))
    for claim in gen.claims:
        if not claim.get("sources"):
            findings.append(Finding("unsourced_assertion", claim.get("key"),
                                    f"the claim about {claim.get('key')} cites no sources.", "warning"))
    # F12: a finding quotes the summary's sentence in the summary's own characters, not its normal form.
    return [_own_words(f, gen.text) if f.where or f.words else f for f in not_repeated(findings)]


def _own_words(f: Finding, text: str) -> Finding:
    """F12: the finding's sentence, and the words its message quotes, in the summary's own characters."""
    return Finding(f.code, f.key, requoted(text, f.message, (f.where, *f.words)), f.severity, f.words,
                   in_own_words(text, f.where) if f.where else f.where)


def _deadline_restated(generation: int, fact: StateFact, said: Said) -> Finding | None:
    """A "?" (subject_unjudged), not ✗, for a deadline rule the text restates in other words."""
    hit = deadline_restated(said, fact.value) if fact.kind == "constraint" else None
    return None if hit is None else Finding(
        SUBJECT_UNJUDGED, fact.key, f"generation {generation} gives the deadline “{hit[0]}” of “{fact.value}” "
        f"({fact.key}) in other words: “{hit[1]}” — the rule reads a rule's words, not what they mean; a person "
        "must read it", "warning", words=(hit[0],), where=hit[1])


def _decision_named(said: Said, fact: StateFact) -> bool:
    return any(said.says(p) for p in (fact.value, *fact.alternatives))


def _said_findings(gen: GenerationText, state: list[StateFact], ctx: DriftContext,
                   stated_covers: tuple[int, int] | None = None, said: Said | None = None,
                   plans: tuple[tuple[str, ...], bool] | None = None) -> list[Finding]:
    """The rules that read what the text says (issue: drift that never gives a false all-clear)."""
    out: list[Finding] = []
    said = said or Said.of(gen.text, gen.unresolved)
    g = gen.generation
    # Asked once, when a record first needs them: no done word anywhere, no done claim to look
    # for; no cancelling word anywhere, no value can be negated (the usual case).
    claims_anything: bool | None = None
    cancels: bool | None = None
    untrusted: list[Finding] = []  # pending records from tools or the model, reported after the rest
    others: tuple[tuple[str, str], ...] | None = None  # made when a rule first needs it
    gate: bool | None = None  # whether any departure can be in this text (said_departures), asked once
    pronouns = scopes = False  # whether a bare pronoun is lifted, a scope value has something joined
    # The records this text can make a rule read (drift_roster), with the per-generation
    # answers the loop would otherwise ask at its first record that needs them.
    plans = plans if plans is not None else departure_plans(state)
    opened = gate_of(roster_for(state, lambda: owner_values(state)), said, plans)
    cancels, claims_anything, gate = opened.cancels, opened.claims_anything, opened.gate
    if gate is not None:
        pronouns, scopes = opened.pronouns, opened.scopes
    visit = state if opened.visit is None else [state[i] for i in opened.visit]
    for fact in visit:
        if fact.status != "active":
            if fact.status == "pending" and fact.writer in UNTRUSTED_WRITERS and fact.kind in OWNER_ONLY_KINDS:
                hit = rules.untrusted_rule_in(said, fact.value)
                if hit:
                    untrusted.append(Finding("untrusted_in_summary", fact.key,
                                             f"generation {g} repeats “{fact.value}”, proposed by {fact.writer} and "
                                             f"never confirmed, as an instruction: “{hit.sentence}”.",
                                             words=tuple(hit.words), where=hit.sentence))
            continue
        if fact.kind in OWNER_ONLY_KINDS or fact.kind == "decision":
            if cancels is None:
                cancels = said.cancels() or rules.dismisses(said)
            # Without a cancelling or dismissing word only a renumbering can undo a value, and
            # only when the value's unit is in the text (asked once per value and generation).
            hit = None
            if cancels or (fact.unit is not None and said.has(fact.unit)) or (
                    fact.kind == "goal" and rules.goal_restated(said)):
                if others is None:
                    others = tuple((s.value, s.kind) for s in state if s.kind in OWNER_ONLY_KINDS
                                   or s.kind == "decision")
                hit = rules.negated_value(said, fact.value, others, fact.kind)
            if hit:
                out.append(Finding("protected_negated", fact.key,
                                   f"generation {g} repeats the {fact.kind} “{fact.value}” ({fact.key}) but cancels or "
                                   f"weakens it: “{'”, “'.join(hit.words)}” in “{hit.sentence}”.", words=tuple(hit.words), where=hit.sentence))
            else:
                # Kept word for word, yet widened, reordered, broken or lifted through a pronoun.
                if gate is None:  # asked once per generation: can any departure be in this text?
                    scope_values, planned = plans
                    pronouns = pronoun_in(said)
                    scopes = bool(scope_values) and scope_open(said, scope_values)
                    gate = pronouns or scopes or planned
                scoped = scopes or not fact.scope_only
                ask = gate and (pronouns or (fact.departs and (scoped or plan_of(fact.value, fact.kind).subject)))
                dep = departure(said, fact.value, fact.kind, lambda: owner_values(state), pronouns,
                                scoped) if ask else None
                if dep is not None:
                    out.append(Finding(dep.code, fact.key, departure_message(dep, g, fact.kind, fact.value, fact.key),
                                       "finding" if dep.decided else "warning", words=dep.words, where=dep.sentence))
        if fact.kind == "open_issue" and claims_anything is None:
            claims_anything = bool(rules.done_clauses(said))
        if fact.kind == "open_issue" and claims_anything:
            hit = rules.done_claim(said, rules.subject_terms(fact.value)) or rules.blanket_claim(said, "blanket_open")
            if hit:
                out.append(Finding("open_issue_claimed_done", fact.key,
                                   f"generation {g} claims the open issue “{fact.value}” ({fact.key}) is done: "
                                   f"“{hit.words[0]}” in “{hit.sentence}”; the issue is still open.",
                                   words=tuple(hit.words), where=hit.sentence))
        if fact.kind == "decision" and fact.alternatives:
            hit = rules.reversed_choice(said, fact.value, list(fact.alternatives), fact.rationale)
            agreed = agreed_reversal(g, fact, said) if not (hit and hit.sentence) else None
            if agreed is not None:  # verdict-ten: "经讨论，用户接受了 Redis 缓存": the dispute flattened
                out.append(agreed)
            elif hit and hit.sentence:
                out.append(Finding("decision_reversed", fact.key,
                                   f"generation {g} states the rejected alternative “{hit.words[0]}” as the choice "
                                   f"(“{hit.sentence}”); the decision ({fact.key}) is “{fact.value}”.",
                                   words=tuple(hit.words), where=hit.sentence))
            elif hit:
                # The same notion of "in the summary" as survival: the value itself (kept), or
                # only most of its words (survival says unknown).
                kept = rules.value_in(said, fact.value)
                out.append(Finding("decision_reversed", fact.key,
                                   f"generation {g} {'keeps' if kept else 'names only part of'} the decision "
                                   f"“{fact.value}” ({fact.key}) but drops its "
                                   f"alternatives ({', '.join(fact.alternatives)}) and its rationale: the dispute "
                                   "reads as settled without its reasons.", words=(fact.value,)))
    out += untrusted
    if claims_anything is None and (ctx.failures or ctx.actions):
        claims_anything = bool(rules.done_clauses(said))
    # One finding per summary sentence: a rule both proposed as a pending record and seen in
    # the tool output it came from is one repetition, not two.
    reported = {f.where for f in out if f.code == "untrusted_in_summary"}
    for seq, rule in ctx.untrusted_rules:
        if gen.covers and not gen.covers[0] <= seq <= gen.covers[1]:
            continue
        hit = rules.untrusted_rule_in(said, rule)
        if hit and hit.sentence not in reported:
            reported.add(hit.sentence)
            out.append(Finding("untrusted_in_summary", f"evt:{seq}",
                               f"generation {g} repeats a rule from untrusted output (evt:{seq}) as an instruction: "
                               f"“{hit.sentence}”.", words=tuple(hit.words), where=hit.sentence))
    last = gen.covers[1] if gen.covers else None
    for failure in ctx.failures:
        if gen.covers and not gen.covers[0] <= failure.seq <= gen.covers[1]:
            continue
        if last is not None and failure.resolved_within(last):
            continue
        claim = (rules.failure_claimed_fixed(said, failure, ctx.tool_runs, last) or rules.blanket_claim(said, "blanket_failure")
                 if claims_anything else None)
        green = suite_green_finding(g, said, failure, ctx.tool_runs, last) if claim is None else None
        if green is not None:  # "All checks pass." over it: ✗, or "?" when a later run of another command passed
            out.append(green)
            continue
        if claim is not None:
            out.append(Finding("failure_dropped", f"evt:{failure.seq}",
                               f"generation {g} says the failed result evt:{failure.seq} "
                               f"({failure.signature[:80] or failure.tool}) went well: “{claim.words[0]}” in "
                               f"“{claim.sentence}”; no later result in the range resolved it.",
                               words=tuple(claim.words), where=claim.sentence))
            continue
        # The sources list states nothing: a failure it cites is named only by the text (said_failure_stated).
        if (rules.mentioned_anywhere(said, failure.anchors, (failure.signature,))
                or rules.tool_said_failed(said, failure.tool)):
            continue
        out.append(Finding("failure_dropped", f"evt:{failure.seq}",
                           f"generation {g} neither mentions nor marks unresolved the failed result evt:{failure.seq} "
                           f"({failure.signature[:80] or failure.tool}: {failure.error[:80]}).",
                           words=(failure.signature[:80],)))
    for action in ctx.actions:
        if action.status not in ("unknown", "in_flight"):
            continue
        hit = rules.action_claimed_done(said, action) if claims_anything else None
        if hit:
            out.append(Finding("unknown_claimed", action.id,
                               f"generation {g} describes action {action.id} ({action.intent or '?'}) as done: "
                               f"“{hit.words[0]}” in “{hit.sentence}”; its outcome is {action.status}.",
                               words=tuple(hit.words), where=hit.sentence))
    cited = [*gen.sources, *(s for c in gen.claims for s in (c.get("sources") or []))]
    cite_covers = stated_covers if stated_covers is not None else gen.covers
    bad = [b for b in rules.cited_outside(cited, cite_covers, ctx.max_seq, ctx.event_seqs, ctx.known_refs)
           if b not in ctx.carriers]
    if bad:
        span = f"[{cite_covers[0]}, {cite_covers[1]}]" if cite_covers else "the log"
        out.append(Finding("source_outside_range", None,
                           f"generation {g} cites {', '.join(dict.fromkeys(bad))}, which "
                           f"{'do' if len(bad) > 1 else 'does'} not exist or lie outside what it covers ({span}).",
                           words=tuple(dict.fromkeys(bad))))
    return out


# Every key asks about every generation's text (1,000 × 100 in the bench): normalise each once.
_norm_value = lru_cache(maxsize=65536)(norm)
_norm_text = normal_text  # shared with Said.of: each generation's text normalised once
