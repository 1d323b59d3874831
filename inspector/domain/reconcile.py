"""Settling an action whose outcome is not known (seed 000 §9.3/§9.5, DESIGN §2 "state ledger").

An ``unknown`` (or ``in_flight``) action is never rewritten to "succeeded" or "did not
happen" by a summary or by a guess: a person settles it by checking the effect, and names
what they checked. These rules decide whether a reconciliation may be recorded; the
service reads the facts and writes the ledger entry.
"""

from __future__ import annotations

from dataclasses import dataclass

from inspector.domain.errors import Refusal
from inspector.domain.terminal_safe import inert

# Outcomes a person may record after checking the effect.
RECONCILED_STATUSES = ("succeeded", "failed", "not_done")
# Statuses that mean "started, outcome not known": the only ones a reconciliation settles.
UNSETTLED_STATUSES = frozenset({"unknown", "in_flight"})


@dataclass(frozen=True, slots=True)
class EvidenceFact:
    """What the store says about the cited evidence."""

    ref: str
    exists: bool
    why_missing: str = ""
    observed_at_seq: int | None = None  # the event it is, or the event a material came from


def reconcile_refusals(action_id: str, status: str, new_status: str, evidence: EvidenceFact | None,
                       call_seq: int | None) -> list[Refusal]:
    """Every reason this reconciliation may not be recorded (empty: it may)."""
    if status == "planned":  # "is already planned" read as settled: it has not started, there is no outcome (newuser-18)
        return [Refusal("action_settled", f"action {action_id} is planned, not started: it has no outcome to settle; "
                        "only an action whose outcome is unknown (or still in flight) is reconciled.")]
    if status not in UNSETTLED_STATUSES:
        return [Refusal("action_settled", f"action {action_id} is already {status}; only an action whose outcome is "
                        "unknown (or still in flight) is reconciled.")]
    if new_status not in RECONCILED_STATUSES:
        return [Refusal("bad_status", f"{inert(new_status)} is not an outcome; one of {', '.join(RECONCILED_STATUSES)}.")]
    if evidence is None or not evidence.ref.strip():
        return [Refusal("evidence_required", f"action {action_id} is {status}: it changes only with evidence that "
                        "shows the effect (an evt:N or a stored material), never on a guess.")]
    if not evidence.exists:
        return [Refusal("evidence_missing", f"{evidence.ref} {evidence.why_missing}; cite an event or material of "
                        "this session that shows the effect.")]
    # The call that started the action (or a material taken from it) shows the intent, not the effect.
    if call_seq is not None and evidence.observed_at_seq is not None and evidence.observed_at_seq <= call_seq:
        when = "the call that started" if evidence.observed_at_seq == call_seq else "before"
        return [Refusal("evidence_before_action", f"{evidence.ref} was observed at event {evidence.observed_at_seq}, "
                        f"{when} action {action_id} (event {call_seq}); it cannot show the action's effect.")]
    return []
