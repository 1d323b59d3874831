"""Departures: a protected rule kept word for word in a summary that still says the opposite.

Four ways a summary can repeat a goal, constraint, permission, acceptance or decision verbatim
— so "not in the text" and the cancelling-word rules stay silent — and yet plainly drift
from it (docs/verdicts.md, "Departures"):

- ``permission_widened`` — the value with more added to its scope ("…src/ and everything
  under the repo"; ``said_scope``);
- ``order_reversed`` — the steps it orders narrated the other way round (``said_order``);
- ``forbidden_action_done`` — what it forbids reported done or planned (``said_forbidden``);
- a limit or deadline changed or loosened elsewhere ("raised to 5 retries", "the deadline
  moved to 2025-06-15", "may exceed 500 rows"; ``protected_negated``, ``said_limits``);
- a bare pronoun two to four sentences later that lifts it (``protected_negated``) or
  dismisses something the rule cannot resolve (``reference_unresolved``, a warning: the
  verdict says it could not judge; ``said_pronoun``) — from five sentences on, always that;
- (the third attack) a grant of more written before the value or in a sentence of its own
  (``said_scope_wide``), steps reversed by the order of the telling alone (``said_sequence``),
  a limit or deadline given another value in other units or date formats with no change word
  (``said_limits_plain``), and the forbidden object acted on with another form of the verb
  (a finding) or a verb no table holds (``forbidden_action_unclear``, cannot judge;
  ``said_touched``).

Drift turns each into a finding of its code, survival into ``contradicted`` (or ``unknown``
for the unresolved pronoun), so the two agree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from inspector.domain.said import Said
from inspector.domain.said_agreed import agreed_forbidden, forbidden_words
from inspector.domain.said_approver import approved_by_other, approved_unsaid, approver_of, owner_approved
from inspector.domain.said_beyond import beyond, bound_of, quantified_of
from inspector.domain.said_bounds import bound_moved, listed_by_unit, order_freed
from inspector.domain.said_condition import (
    condition_broken,
    condition_cancelled,
    condition_lifted,
    condition_met,
    condition_untied,
    conditioned_of,
)
from inspector.domain.said_deadline import deadline_kept, deadline_moved, deadline_of
from inspector.domain.said_flipped import flipped
from inspector.domain.said_forbidden import forbidden_done, forbidden_of
from inspector.domain.said_frequency import frequency_kept, frequency_moved, frequency_of
from inspector.domain.said_hedged import hedged
from inspector.domain.said_lifted import _number_and_unit
from inspector.domain.said_limits import _date_of, limit_changed
from inspector.domain.said_limits_plain import limit_restated
from inspector.domain.said_listed import item_lifted, moved_off
from inspector.domain.said_order import order_of, reordered
from inspector.domain.said_pronoun import pronoun_lift, pronoun_sentences
from inspector.domain.said_quantities import date_of, quantity_of, times_of
from inspector.domain.said_scope import bounding, scope_form, widened_norm
from inspector.domain.said_scope_joined import scope_joined
from inspector.domain.said_scope_wide import widened_elsewhere
from inspector.domain.said_sequence import told_reversed
from inspector.domain.said_subject import CODE as SUBJECT_UNJUDGED
from inspector.domain.said_subject import subject_plan, subject_statement
from inspector.domain.said_touched import touch_plan, touched
from inspector.domain.said_weekday import weekday_kept, weekday_moved, weekday_of
from inspector.domain.said_without import accepted_elsewhere, excluded_of

# Drift warnings that say the rules could not judge a sentence: ``check`` shows "?", not "✓".
# ``value_disguised`` (drift_whole, said_disguised): a value found only after undoing look-alikes.
CANNOT_JUDGE = frozenset({"reference_unresolved", "forbidden_action_unclear", SUBJECT_UNJUDGED, "value_disguised"})
CODES = ("permission_widened", "order_reversed", "forbidden_action_done", "reference_unresolved",
         "forbidden_action_unclear", SUBJECT_UNJUDGED)


@dataclass(frozen=True, slots=True)
class Departure:
    code: str
    words: tuple[str, ...]
    sentence: str
    decided: bool = True  # False: the rule cannot tell (a warning, survival "unknown")
    how: str = ""  # for protected_negated: "limit" (changed or loosened) or "pronoun"


@dataclass(frozen=True, slots=True)
class Plan:
    """Which departure rules can read a value at all, worked out once per value."""
    scope: str | None  # the value's scope form, when it grants or bounds by a list
    order: bool
    forbidden: bool
    limit: bool
    excludes: bool = False  # "… without downtime" (said_without)
    subject: bool = False  # a statement about its subject no other rule reads (said_subject)
    beyond: bool = False  # "only … in X" or a goal's "all …" (said_beyond)
    approver: bool = False  # "The user must approve X" (said_approver)
    condition: bool = False  # "X only if C", "do not X as long as C" (said_condition)
    frequency: bool = False  # "every hour", "每小时" (said_frequency)

    def __bool__(self) -> bool:
        return (self.scope is not None or self.order or self.forbidden or self.limit or self.excludes or self.subject
                or self.beyond or self.approver or self.condition or self.frequency)


@lru_cache(maxsize=16384)
def plan_of(value: str, kind: str) -> Plan:
    return Plan(scope_form(value) if bounding(value, kind) else None, order_of(value) is not None,
                kind in ("constraint", "acceptance") and (forbidden_of(value) is not None
                                                          or touch_plan(value) is not None
                                                          or bool(forbidden_words(value))),
                _number_and_unit(value) is not None or _date_of(value) is not None
                or quantity_of(value) is not None or date_of(value.lower()) is not None or bool(times_of(value))
                or weekday_of(value) is not None or deadline_of(value) is not None,
                excluded_of(value) is not None, subject_plan(value, kind) is not None,
                (bound_of(value) is not None) if kind != "goal" else quantified_of(value) is not None,
                kind in ("acceptance", "constraint") and approver_of(value) is not None,
                kind in ("acceptance", "constraint") and conditioned_of(value) is not None,
                kind != "goal" and frequency_of(value) is not None)


def may_depart(value: str, kind: str) -> bool:
    """Whether any rule but the pronoun one can read the value at all (a scope, an order, a
    forbidden action, a limit or a date): asked once per value, so the 1,000 generations ×
    100 records of the drift bench pay for the rules only where one applies."""
    return bool(plan_of(value, kind))


def pronoun_in(said: Said) -> bool:
    """Whether the text lifts or dismisses a bare pronoun anywhere (once per generation)."""
    return bool(pronoun_sentences(said))


Others = tuple[tuple[str, str], ...]


def departure(said: Said, value: str, kind: str, others: Others | Callable[[], Others] = (),
              pronouns: bool | None = None, scopes: bool = True) -> Departure | None:
    """The first departure of one protected value in one generation's text, or None.
    ``others``: the session's protected (value, kind) pairs, or a function making them (only
    the limit and pronoun rules need them); ``pronouns``: ``pronoun_in(said)`` when the caller
    asked it already (once per generation); ``scopes``: False when the caller knows no scope in
    the text can have grown (``said_scope.scope_open``), so the scope rules are skipped."""
    plan = plan_of(value, kind)
    hit = (widened_norm(said, plan.scope) or widened_elsewhere(said, plan.scope)) if (
        plan.scope is not None and scopes) else None
    if hit is not None:
        return Departure("permission_widened", tuple(hit.words), hit.sentence)
    past = beyond(said, value, kind) if plan.beyond else None
    if past is not None:
        return Departure(past.code, past.words, past.sentence, how="beyond")
    joined = scope_joined(said, value, kind) if plan.beyond else None
    if joined is not None:  # "Migrations run on prod and staging." beside "… on prod only" (verdict-nine)
        return Departure(joined.code, joined.words, joined.sentence, how="joined")
    hit = (reordered(said, value) or told_reversed(said, value)) if plan.order else None
    if hit is not None:
        return Departure("order_reversed", tuple(hit.words), hit.sentence)
    freed = order_freed(said, value) if plan.order else None
    if freed is not None:
        return Departure("protected_negated", freed.words, freed.sentence, how="order")
    broken = condition_broken(said, value) if plan.forbidden or plan.condition else None
    if broken is not None:  # "restarted although the health check passed" (said_condition)
        return Departure("forbidden_action_done", broken.words, broken.sentence)
    lifted = (condition_lifted(said, value) or condition_cancelled(said, value) or condition_untied(said, value)) if (
        plan.forbidden or plan.condition) else None
    if lifted is not None:  # "deploy to production whenever ready" (said_condition)
        return Departure("protected_negated", lifted.words, lifted.sentence, how="flipped")
    soft = hedged(said, value) if plan.forbidden else None
    if soft is not None:  # "Try not to delete the audit logs" for "You must not …" (verdict-nine)
        return Departure("protected_negated", soft.words, soft.sentence, how="hedged")
    freed = (item_lifted(said, value) or moved_off(said, value)) if plan.forbidden else None
    if freed is not None:  # "The payments table may be touched.", "… applies to the API, not the database"
        return Departure("protected_negated", freed.words, freed.sentence, how="flipped")
    yes = agreed_forbidden(said, value) if kind in ("constraint", "acceptance") else None
    if yes is not None:  # "The user agreed to add Redis" beside "Do not add Redis …" (verdict-ten)
        return Departure("protected_negated", yes.words, yes.sentence, how="agreed")
    met = condition_met(said, value) if plan.forbidden or plan.condition else frozenset()
    hit = forbidden_done(said, value) if plan.forbidden else None
    if hit is not None and hit.sentence not in met:
        return Departure("forbidden_action_done", tuple(hit.words), hit.sentence)
    other = touched(said, value) if plan.forbidden and hit is None else None
    if other is not None and other.sentence not in met:
        return Departure("forbidden_action_done" if other.decided else "forbidden_action_unclear",
                         tuple(other.words), other.sentence, other.decided, how="touched")
    hit = (limit_changed(said, value, others) or limit_restated(said, value, others)) if plan.limit else None
    if hit is not None:
        return Departure("protected_negated", tuple(hit.words), hit.sentence, how="limit")
    day = weekday_moved(said, value) if plan.limit else None
    if day is not None:  # "The fix ships by Monday." beside "Ship the fix by Friday" (verdict-nine)
        return Departure("protected_negated", day.words, day.sentence, how="limit")
    late = deadline_moved(said, value, [v for v, _ in _resolved(others)]) if plan.limit and deadline_of(value) else None
    if late is not None:  # "… due in three weeks" beside "… in two weeks", "no deadline" (verdict-ten)
        return Departure("protected_negated", late.words, late.sentence, how="limit")
    bound = (bound_moved(said, value) or listed_by_unit(said, value)) if plan.limit else None
    if bound is not None:
        return Departure("protected_negated" if bound.decided else SUBJECT_UNJUDGED, bound.words, bound.sentence,
                         bound.decided, how="bound")
    moved = frequency_moved(said, value) if plan.frequency else None
    if moved is not None:  # "Logs are rotated every day." beside "… every hour" (verdict-eight)
        return Departure("protected_negated", moved.words, moved.sentence, how="limit")
    hit = accepted_elsewhere(said, value) if plan.excludes else None
    if hit is not None:
        return Departure("protected_negated", tuple(hit.words), hit.sentence, how="accepted")
    flip = flipped(said, value) if kind != "goal" else None
    if flip is not None:  # a double negative, or the rule's "do not" dropped in a restatement
        return Departure("protected_negated", flip.words, flip.sentence, how="flipped")
    if pronouns is None:
        pronouns = pronoun_in(said)
    pronoun = pronoun_lift(said, value, _resolved(others)) if pronouns else None
    if pronoun is not None:
        return Departure("protected_negated" if pronoun.decided else "reference_unresolved",
                         tuple(pronoun.words), pronoun.sentence, pronoun.decided, how="pronoun")
    other = approved_by_other(said, value) if plan.approver else None
    if other is not None:
        return Departure("protected_negated", other.words, other.sentence, how="approver")
    said_of = subject_statement(said, value, kind, others) if plan.subject else None
    if said_of is not None and not said_of.decided and plan.approver and said_of.sentence in owner_approved(said, value):
        return None  # "The user approved X": the acceptance met, not a sentence to read
    if said_of is not None and not said_of.decided and plan.limit and (
            weekday_kept(said_of.sentence, value) or deadline_kept(said_of.sentence, value)):
        return None  # "The fix ships by Friday as planned.", "… planned for the end of the month": restated
    if said_of is not None and not said_of.decided and (said_of.sentence in met or (
            plan.frequency and said_of.sentence in frequency_kept(said, value))):
        return None  # "健康检查失败后重启了接口": the act done as the rule's condition allows (verdict-eight)
    if said_of is not None:
        return Departure(said_of.code, said_of.words, said_of.sentence, said_of.decided, how=said_of.how)
    bare = approved_unsaid(said, value) if plan.approver else None
    if bare is not None:  # "数据库迁移已确认": approved, by whom is not said (verdict-eight)
        return Departure(SUBJECT_UNJUDGED, bare.words, bare.sentence, False)
    return None


def _resolved(others: Others | Callable[[], Others]) -> Others:
    return others() if callable(others) else others


def message(dep: Departure, generation: int, kind: str, value: str, key: str) -> str:
    """The finding's sentence: the key, the generation and the words that triggered it."""
    words = "”, “".join(dep.words)
    if dep.how == "beyond":
        what = {"permission_widened": "grants it beyond its bound", "forbidden_action_done": "reports it done "
                "beyond its bound", "protected_negated": "narrows what it covers"}[dep.code]
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but elsewhere {what}: “{words}” in "
                f"“{dep.sentence}”.")
    if dep.how == "hedged":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but elsewhere restates it as advice, "
                f"not a rule: “{words}” in “{dep.sentence}”.")
    if dep.how == "joined":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but elsewhere widens the place it is "
                f"bound to: “{words}” in “{dep.sentence}”.")
    if dep.code == "permission_widened":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) with more added to its scope: "
                f"“{words}” in “{dep.sentence}”; the protected scope is “{value}” alone.")
    if dep.code == "order_reversed":
        return (f"generation {generation} narrates the steps of the {kind} “{value}” ({key}) in the other order "
                f"({words}): “{dep.sentence}”.")
    if dep.code == "forbidden_action_done" and dep.how == "touched":
        return (f"generation {generation} reports as done what the {kind} “{value}” ({key}) forbids, in another "
                f"form of its verb: “{words}” in “{dep.sentence}”.")
    if dep.code == "forbidden_action_done":
        return (f"generation {generation} reports as done or planned what the {kind} “{value}” ({key}) forbids: "
                f"“{words}” in “{dep.sentence}”.")
    if dep.code == "forbidden_action_unclear":
        return (f"generation {generation} reports “{words}” done to what the {kind} “{value}” ({key}) forbids "
                f"touching (“{dep.sentence}”): the rules do not know that verb, so they cannot tell whether it is "
                "the forbidden act — not judged; a person (or --judge) must read it.")
    if dep.code == SUBJECT_UNJUDGED and dep.how == "bound":
        return (f"generation {generation} gives the amount of the {kind} “{value}” ({key}) as “{words}” "
                f"(“{dep.sentence}”): an approximate amount may break an exact bound — not judged; a person (or "
                "--judge) must read it.")
    if dep.code == SUBJECT_UNJUDGED:
        return (f"generation {generation} says “{words}” about what the {kind} “{value}” ({key}) concerns "
                f"(“{dep.sentence}”), in words the rules cannot match to its verb, amount or order — not judged; "
                "a person (or --judge) must read it.")
    if dep.code == "reference_unresolved":
        return (f"generation {generation} dismisses “{words}” a few sentences after the {kind} “{value}” ({key}) "
                f"(“{dep.sentence}”): the rules cannot tell whether the pronoun means this {kind} or something named "
                "in between — not judged; a person (or --judge) must read it.")
    if dep.how == "flipped":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but elsewhere says its opposite: "
                f"“{words}” in “{dep.sentence}”.")
    if dep.how == "agreed":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but reports what it forbids as "
                f"agreed: “{words}” in “{dep.sentence}” — a refusal flattened into an agreement.")
    if dep.how == "approver":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but reports it approved by another "
                f"actor than the one it names: “{words}” in “{dep.sentence}”.")
    if dep.how == "accepted":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but accepts elsewhere what it "
                f"excludes: “{words}” in “{dep.sentence}”.")
    if dep.how == "bound":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but turns its bound around "
                f"elsewhere: “{words}” in “{dep.sentence}”.")
    if dep.how == "order":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but says elsewhere that its steps "
                f"may come in any order: “{words}” in “{dep.sentence}”.")
    if dep.how == "limit":
        return (f"generation {generation} repeats the {kind} “{value}” ({key}) but changes or loosens its limit "
                f"elsewhere: “{words}” in “{dep.sentence}”.")
    return (f"generation {generation} repeats the {kind} “{value}” ({key}) but lifts it a few sentences later "
            f"through a pronoun: “{words}” in “{dep.sentence}”.")


__all__ = ["CANNOT_JUDGE", "CODES", "Departure", "Plan", "departure", "may_depart", "message", "plan_of", "pronoun_in"]
