"""Validating a compression candidate against the session as it is now (DESIGN §2, §6).

Everything here is an exact comparison that explains itself. ``structure_verified`` is
true only with no refusal; ``semantic_lossless`` is always "unknown", because no check
here (or anywhere) proves that meaning was kept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.errors import Refusal
from inspector.domain.exact import FieldDiff, compare_exact
from inspector.domain.text_checks import sensitive_data, untrusted_rules

REWRITE_FORBIDDEN_ADAPTERS = frozenset({"deepseek-thinking-tools"})
# Provider continuation items are bound to the exact history they were issued for: a rewrite
# of that history invalidates them (DESIGN §2), so only a new-session handoff is safe.
CONTINUATION_NAMES = {
    "signature": "Anthropic thinking signature",
    "redacted_thinking": "Anthropic redacted thinking block",
    "encrypted_content": "OpenAI encrypted reasoning item",
    "thought_signature": "Gemini thought signature",
    "opaque": "opaque continuation item",
}


@dataclass(frozen=True, slots=True)
class SessionFacts:
    """What a candidate is checked against, read in the same transaction as the check."""

    adapter: str
    context_version: int
    goal_revision: int
    required_exact: dict[str, str]
    open_actions: list[str]  # ids of planned actions, sorted
    unknowns: list[str]  # ids of actions whose outcome is unknown, sorted
    unresolved_calls: list[str]
    in_flight: list[str]
    open_issues: list[str]  # values of active open_issue records
    pending_decisions: list[str]  # values of pending decision records
    trusted_texts: list[str] = field(default_factory=list)
    untrusted_texts: list[str] = field(default_factory=list)
    continuation: dict[str, list[int]] = field(default_factory=dict)  # item kind -> seqs of events holding one


def continuation_sentence(continuation: dict[str, list[int]]) -> str:
    """"2 Anthropic thinking signatures (evt:4, evt:9) and 1 OpenAI encrypted reasoning item (evt:6)"."""
    parts = []
    for kind, seqs in sorted(continuation.items()):
        name = CONTINUATION_NAMES.get(kind, f"{kind} item")
        refs = ", ".join(f"evt:{s}" for s in seqs[:5]) + (", …" if len(seqs) > 5 else "")
        parts.append(f"{len(seqs)} {name}{'s' if len(seqs) != 1 else ''} ({refs})")
    return ", ".join(parts[:-1]) + (" and " if len(parts) > 1 else "") + parts[-1]


@dataclass(slots=True)
class Validation:
    candidate: str
    status: str
    refusals: list[Refusal] = field(default_factory=list)
    warnings: list[Refusal] = field(default_factory=list)
    field_diffs: list[FieldDiff] = field(default_factory=list)

    @property
    def structure_verified(self) -> bool:
        return not self.refusals

    def as_dict(self) -> dict[str, Any]:
        return {"candidate": self.candidate, "status": self.status, "structure_verified": self.structure_verified,
                "semantic_lossless": "unknown", "refusals": [r.as_dict() for r in self.refusals],
                "warnings": [w.as_dict() for w in self.warnings],
                "field_diffs": [d.as_dict() for d in self.field_diffs]}


def _list_mismatch(code: str, what: str, theirs: list[str], ours: list[str]) -> Refusal | None:
    if sorted(theirs) == ours:
        return None
    missing = sorted(set(ours) - set(theirs))
    extra = sorted(set(theirs) - set(ours))
    parts = [f"leaves out {', '.join(missing)}" if missing else "", f"adds {', '.join(extra)}" if extra else ""]
    detail = " and ".join(p for p in parts if p) or "lists them differently"
    return Refusal(code, f"the candidate's {what} {detail}; the action ledger says [{', '.join(ours)}].")


def validate_candidate(candidate: dict[str, Any], facts: SessionFacts) -> Validation:
    result = Validation(candidate["id"], candidate.get("status", "pending"))
    refuse = result.refusals.append
    if facts.unresolved_calls or facts.in_flight:
        waiting = [f"call {c}" for c in facts.unresolved_calls] + [f"action {a} (in flight)" for a in facts.in_flight]
        refuse(Refusal("not_at_boundary", f"the session is not at a control boundary: {', '.join(waiting)} has no "
                       "outcome yet. Representation changes wait for the boundary."))
    if facts.adapter in REWRITE_FORBIDDEN_ADAPTERS:
        refuse(Refusal("rewrite_not_allowed", f"the {facts.adapter} adapter must send every earlier reasoning_content "
                       "back; its history cannot be rewritten in place. Use a new-session handoff instead."))
    if facts.continuation:
        refuse(Refusal("rewrite_not_allowed", f"the session holds {continuation_sentence(facts.continuation)}; they "
                       "are bound to the history exactly as it was sent, so rewriting it in place would invalidate "
                       "them. Only a new-session handoff is safe."))
    if candidate["base_version"] != facts.context_version:
        refuse(Refusal("stale_base", f"the candidate was built on context version {candidate['base_version']}; the "
                       f"session is at version {facts.context_version}. It describes a history that has moved on."))
    if candidate["goal_revision"] != facts.goal_revision:
        refuse(Refusal("stale_goal", f"the candidate was built for goal revision {candidate['goal_revision']}; the "
                       f"goal is now at revision {facts.goal_revision}."))
    result.field_diffs = compare_exact(facts.required_exact, candidate.get("exact_fields") or {})
    if result.field_diffs:
        names = "; ".join(f"{d.key}: {d.kind}" + (f" ({d.explanation})" if d.kind == "changed" else "")
                          for d in result.field_diffs)
        refuse(Refusal("exact_fields_changed", f"protected values must be carried byte for byte: {names}."))
    for code, what, theirs, ours in (
        ("open_actions_mismatch", "open actions", candidate.get("open_actions") or [], facts.open_actions),
        ("unknowns_mismatch", "unknown-outcome actions", candidate.get("unknowns") or [], facts.unknowns),
    ):
        found = _list_mismatch(code, what, theirs, ours)
        if found:
            refuse(found)
    summary = candidate.get("summary")
    if not isinstance(summary, str) or not summary.strip():
        refuse(Refusal("summary_not_text", f"the candidate's summary is {type(summary).__name__ if summary is not None else 'missing'}"
                       ", not text; only a text summary can stand in the input."))
        summary = ""
    _warnings(result, candidate, summary, facts)
    return result


def _warnings(result: Validation, candidate: dict[str, Any], summary: str, facts: SessionFacts) -> None:
    warn = result.warnings.append
    for value in facts.open_issues:
        if value not in summary:
            warn(Refusal("open_issue_not_marked", f"the open issue “{value}” does not appear in the summary; a reader "
                         "would take it as settled."))
    for value in facts.pending_decisions:
        if value not in summary:
            warn(Refusal("open_issue_not_marked", f"the undecided question “{value}” does not appear in the summary."))
    if not candidate.get("sources"):
        warn(Refusal("unsourced_assertion", "the candidate cites no sources, so none of its statements can be traced "
                     "to the raw log."))
    for sentence in untrusted_rules(summary, facts.trusted_texts, facts.untrusted_texts):
        warn(Refusal("untrusted_instruction", f"“{sentence}” reads as a standing rule and comes from a tool result "
                     "or model output, not from the user; it needs an authorised confirmation before it binds."))
    for kind in sensitive_data(summary):
        warn(Refusal("sensitive_data", f"the summary contains what looks like a {kind}; check whether it may be kept."))
