"""Which records a generation's said-rules can find anything about, asked once per generation.

``drift._said_findings`` reads every record of every generation (1,000 × 100 in the drift
bench) and, for most, finds nothing: a record is only read by the negation rules when the text
holds a cancelling word, its unit or a goal-change word, and by the departure rules when a
departure can be in the text at all (``said_departures``) and one of the record's own rules
can read it — for the subject rule (``said_subject``), only when one of its subject's forms is in
the text. Those conditions are per generation, not per record, so the record list is sorted
once (per list) into the groups each condition opens, and a generation visits only the records
of the conditions its text meets — in record order, with the same per-record code as before.
Visiting a superset is always exact (a record visited for nothing finds nothing); this module
only has to never leave out a record that could find something.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from inspector.domain import drift_rules as rules
from inspector.domain.drift_headline import UNTRUSTED_WRITERS
from inspector.domain.said import Said
from inspector.domain.said_departures import plan_of, pronoun_in
from inspector.domain.said_scope import scope_open
from inspector.domain.said_subject import subject_leads
from inspector.domain.vocabulary import OWNER_ONLY_KINDS

if TYPE_CHECKING:
    from inspector.domain.drift import StateFact

Others = tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class Roster:
    """A record list's indices, by the per-generation condition under which a said-rule reads them."""
    size: int
    always: tuple[int, ...]  # pending untrusted rules, decisions with alternatives: every generation
    open_issues: tuple[int, ...]  # active open issues: when the text claims something done
    judged: tuple[int, ...]  # active owner-only records and decisions: negation and departure rules
    goals: tuple[int, ...]  # judged goals: when a goal-change word is in the text
    by_unit: tuple[tuple[str, tuple[int, ...]], ...]  # judged records with a unit: when the unit is in the text
    departing: tuple[int, ...]  # judged records an order, forbidden-action, limit or exclusion rule reads
    scoped: tuple[int, ...]  # judged records with a scope form: when a scope in the text has something joined
    subject: tuple[tuple[int, tuple[str, ...] | None], ...]  # the rest the subject rule reads, with its leads


@dataclass(slots=True)
class Gate:
    """One generation's answers, handed to the record loop so it never asks them again."""
    visit: list[int] | None  # record indices to read, in order (None: every record)
    cancels: bool | None = None
    claims_anything: bool | None = None
    gate: bool | None = None
    pronouns: bool = False
    scopes: bool = False


def roster_of(state: list[StateFact], others: Callable[[], Others]) -> Roster:
    """The groups of ``state`` (see ``Roster``); ``others`` makes the session's (value, kind)
    pairs the subject rule reads records against (``drift_plans.owner_values``)."""
    always: list[int] = []
    open_issues: list[int] = []
    judged: list[int] = []
    goals: list[int] = []
    units: dict[str, list[int]] = {}
    departing: list[int] = []
    scoped: list[int] = []
    subject: list[tuple[int, tuple[str, ...] | None]] = []
    for i, fact in enumerate(state):
        if fact.status != "active":
            if fact.status == "pending" and fact.writer in UNTRUSTED_WRITERS and fact.kind in OWNER_ONLY_KINDS:
                always.append(i)
            continue
        if fact.kind == "open_issue":
            open_issues.append(i)
        if fact.kind == "decision" and fact.alternatives:
            always.append(i)
        if not (fact.kind in OWNER_ONLY_KINDS or fact.kind == "decision"):
            continue
        judged.append(i)
        if fact.kind == "goal":
            goals.append(i)
        if fact.unit is not None:
            units.setdefault(fact.unit, []).append(i)
        plan = plan_of(fact.value, fact.kind)
        if plan.order or plan.forbidden or plan.limit or plan.excludes:
            departing.append(i)
            continue
        if plan.scope is not None:
            scoped.append(i)
        if plan.subject:
            subject.append((i, subject_leads(fact.value, fact.kind, others())))
    return Roster(len(state), tuple(always), tuple(open_issues), tuple(judged), tuple(goals),
                  tuple((u, tuple(ix)) for u, ix in units.items()), tuple(departing), tuple(scoped),
                  tuple((i, leads) for i, leads in subject if leads != ()))


def gate_of(roster: Roster, said: Said, plans: tuple[tuple[str, ...], bool]) -> Gate:
    """The records one generation's text can make a said-rule read, and the per-generation
    answers found on the way (the same calls the record loop makes when it first needs them)."""
    out = Gate(visit=None)
    visit = set(roster.always)
    if roster.open_issues:
        out.claims_anything = bool(rules.done_clauses(said))
        if out.claims_anything:
            visit.update(roster.open_issues)
    if roster.judged:
        out.cancels = said.cancels() or rules.dismisses(said)
        scope_values, planned = plans
        out.pronouns = pronoun_in(said)
        out.scopes = bool(scope_values) and scope_open(said, scope_values)
        out.gate = out.pronouns or out.scopes or planned
        if out.cancels or out.pronouns:
            return out  # every judged record is read: no narrowing worth its cost
        for unit, indices in roster.by_unit:
            if said.has(unit):
                visit.update(indices)
        if roster.goals and rules.goal_restated(said):
            visit.update(roster.goals)
        if out.gate:
            visit.update(roster.departing)
            if out.scopes:
                visit.update(roster.scoped)
            flat = said.flat()
            visit.update(i for i, leads in roster.subject if leads is None or any(f in flat for f in leads))
    out.visit = sorted(visit)
    return out


# The last record list asked about, its length then, and its roster — one tuple, replaced whole
# (the app's workers may ask from another thread), like ``drift_plans._PLANS``.
_ROSTER: tuple[Any, int, Roster | None] = (None, 0, None)


def roster_for(state: list[StateFact], others: Callable[[], Others]) -> Roster:
    """``roster_of`` kept for the same record list (every generation of a session asks)."""
    global _ROSTER
    last, size, kept = _ROSTER
    if last is state and size == len(state) and kept is not None:
        return kept
    kept = roster_of(state, others)
    _ROSTER = (state, len(state), kept)
    return kept
