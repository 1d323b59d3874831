"""Checking a new-session handoff before a person accepts it (DESIGN §2 "handoff", §6).

Every check is listed with its result, so the reviewer sees what was checked, not only
what failed. The material must enter the new session as task input: anything in it that
poses as an assistant turn, a signature or a continuation item is refused.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.errors import Refusal
from inspector.domain.exact import compare_exact
from inspector.domain.plurals import counted
from inspector.domain.terminal_safe import inert

# Keys and values that mark provider continuation items or assistant turns.
DISGUISE_KEYS = frozenset({"signature", "encrypted_content", "reasoning_content", "thought_signature",
                           "redacted_thinking", "continuation"})
DISGUISE_TYPES = frozenset({"thinking", "redacted_thinking", "reasoning", "signature", "compaction"})


@dataclass(frozen=True, slots=True)
class HandoffFacts:
    status: str
    session_goal_revision: int
    session_context_version: int
    has_events: bool
    has_ledger: bool
    missing_state_keys: list[str]
    required_exact: dict[str, str]
    open_calls: list[str]
    in_flight: list[str]
    unknown_actions: list[str]
    tool_hashes: dict[str, str]
    unreadable: dict[str, str]  # ref -> why
    tools_in_use: list[str] = field(default_factory=list)  # defined or called in the old session
    successor: tuple[str, str] | None = None  # (handoff, new session) already accepted from this session
    open_issues: dict[str, str] = field(default_factory=dict)  # active open_issue key -> value
    decisions: dict[str, str] = field(default_factory=dict)  # active decision key -> value
    constraints: dict[str, str] = field(default_factory=dict)  # active constraint key -> value
    # a session the handoff names as new already exists (an imported file's, or the old session itself)
    new_session_taken: bool = False


@dataclass(frozen=True, slots=True)
class Check:
    name: str
    code: str
    ok: bool
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"name": self.name, "code": self.code, "ok": self.ok, "message": self.message}


@dataclass(slots=True)
class HandoffCheck:
    handoff: str
    checks: list[Check] = field(default_factory=list)

    @property
    def refusals(self) -> list[Refusal]:
        return [Refusal(c.code, c.message) for c in self.checks if not c.ok]

    @property
    def acceptable(self) -> bool:
        return all(c.ok for c in self.checks)

    def as_dict(self) -> dict[str, Any]:
        return {"handoff": self.handoff, "acceptable": self.acceptable, "checks": [c.as_dict() for c in self.checks],
                "refusals": [r.as_dict() for r in self.refusals]}


def _folded(value: Any) -> str:
    return value.strip().casefold() if isinstance(value, str) else ""


def disguises(value: Any, path: str = "material") -> list[str]:
    """Paths inside the material that pose as an assistant message or a continuation item
    (compared case-insensitively: ``"Assistant"`` poses just as well as ``"assistant"``)."""
    found: list[str] = []
    if isinstance(value, dict):
        if _folded(value.get("role")) in ("assistant", "model"):
            found.append(f"{path} has role: {value['role']}")
        if _folded(value.get("type")) in DISGUISE_TYPES:
            found.append(f"{path} has type: {value['type']}")
        for key, item in value.items():
            if _folded(key) in DISGUISE_KEYS:
                found.append(f"{path}.{key}")
            found += disguises(item, f"{path}.{key}")
    elif isinstance(value, list):
        for i, item in enumerate(value):
            found += disguises(item, f"{path}[{i}]")
    return found


def check_handoff(handoff: dict[str, Any], facts: HandoffFacts) -> HandoffCheck:
    material = handoff.get("material") or {}
    result = HandoffCheck(handoff["id"])
    add = result.checks.append
    add(Check("not decided yet", "already_decided", facts.status == "pending",
              "pending: nobody has decided it yet." if facts.status == "pending" else
              f"this handoff was already {facts.status}; it cannot be decided again."))
    waiting = [f"call {c}" for c in facts.open_calls] + [f"action {a} (in flight)" for a in facts.in_flight]
    add(Check("old actions ended", "actions_open", not waiting,
              "no unresolved call and no action in flight." if not waiting else
              f"the old session still has {', '.join(waiting)}; a handoff happens after the old actions end."))
    listed = set(material.get("unknowns") or [])
    written_off = [a for a in facts.unknown_actions if a not in listed]
    add(Check("unknown outcomes carried", "unknown_written_off", not written_off,
              "every action with an unknown outcome is listed in the material's unknowns." if not written_off else
              f"{'action' if len(written_off) == 1 else 'actions'} {', '.join(written_off)} ended with an unknown outcome but the material does not list them: "
              "an unknown effect must never be written off as 'did not happen'."))
    retained = facts.has_events and facts.has_ledger and not facts.missing_state_keys
    why = ("the old session has no raw events" if not facts.has_events else
           "the old session has no ledger entries" if not facts.has_ledger else
           f"the material's keys {', '.join(facts.missing_state_keys)} have no record in the old session")
    add(Check("original record retained", "record_missing", retained,
              "the old session's events, ledger and protected records are stored." if retained else why + "."))
    goal = handoff.get("goal_revision")
    add(Check("goal revision current", "stale_goal", goal == facts.session_goal_revision,
              f"goal revision {goal} is current." if goal == facts.session_goal_revision else
              f"the handoff was prepared for goal revision {goal}; the goal is at revision {facts.session_goal_revision}."))
    version = handoff.get("context_version")
    add(Check("context version bound", "stale_base", version == facts.session_context_version,
              f"bound to context version {version}, the current one." if version == facts.session_context_version else
              f"the handoff was prepared at context version {version}; the session is at {facts.session_context_version}."))
    diffs = compare_exact(facts.required_exact, material.get("exact_fields") or {})
    add(Check("exact fields carried byte for byte", "exact_fields_changed", not diffs,
              "every active goal, constraint, permission and acceptance is carried exactly." if not diffs else
              "; ".join(f"{d.key}: {d.kind} ({d.explanation})" for d in diffs) + "."))
    mapping = handoff.get("tool_mapping") or {}
    if not mapping and facts.tools_in_use:
        add(Check("tool definitions compatible", "tool_definition_changed", False,
                  f"the handoff maps no tools, but the old session uses {', '.join(facts.tools_in_use)}: the new "
                  "session's tools cannot be checked against definitions nobody named."))
    changed = [f"{name} (handoff {h[:15]}…, session {facts.tool_hashes[name][:15]}…)" if name in facts.tool_hashes
               else f"{name} (no definition in the old session)"
               for name, h in sorted(mapping.items()) if facts.tool_hashes.get(name) != h]
    add(Check("tool definitions compatible", "tool_definition_changed", not changed,
              f"{counted(len(mapping), 'tool')} {'maps' if len(mapping) == 1 else 'map'} to the same definition hashes." if not changed else
              f"same name is not compatibility: {', '.join(changed)}."))
    add(Check("evidence readable in the new scope", "evidence_unreadable", not facts.unreadable,
              _refs_read(len(material.get('evidence_refs') or [])) if not facts.unreadable
              else "; ".join(f"{ref}: {why}" for ref, why in facts.unreadable.items()) + "."))
    incomplete = missing_material(material, facts)
    add(Check("material complete", "material_incomplete", not incomplete,
              "the material carries the goal, the open issues, the decisions and the constraints." if not incomplete
              else f"the material does not carry: {'; '.join(incomplete)}."))
    add(Check("session not handed off yet", "already_handed_off", facts.successor is None,
              "no other handoff from this session was accepted." if facts.successor is None else
              f"this session already continued in {inert(facts.successor[1])} (handoff {facts.successor[0]}); a session "
              "hands off once, so two successors never carry the same open and unknown actions."))
    if facts.status == "pending" and facts.new_session_taken:  # once accepted, it is the one it created
        add(Check("new session id free", "already_decided", False, f"a session {inert(handoff.get('to_session'))} "
                  "already exists; the handoff cannot create it again."))
    posed = disguises(material)
    add(Check("material is task input", "disguised_material", not posed,
              "the material is plain task input." if not posed else
              f"the material poses as model output or a continuation item ({', '.join(posed[:4])}); it must enter "
              "the new session as task input."))
    return result


def _carried(value: str, where: Any) -> bool:
    return any(value in text for text in _texts(where))


def _texts(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for item in value.values() for t in _texts(item)]
    if isinstance(value, list):
        return [t for item in value for t in _texts(item)]
    return []


def missing_material(material: dict[str, Any], facts: HandoffFacts) -> list[str]:
    """What the material must carry and does not: the goal, every active open issue and
    decision (verbatim, anywhere in open_points / decisions), every active constraint
    (as an exact field, or verbatim in limits)."""
    missing: list[str] = []
    if not (isinstance(material.get("goal"), str) and material["goal"].strip()):
        missing.append("the goal")
    for key, value in sorted(facts.open_issues.items()):
        if not _carried(value, material.get("open_points")):
            missing.append(f"open issue {key}")
    for key, value in sorted(facts.decisions.items()):
        if not _carried(value, material.get("decisions")):
            missing.append(f"decision {key}")
    exact = material.get("exact_fields") or {}
    for key, value in sorted(facts.constraints.items()):
        if key not in exact and not _carried(value, material.get("limits")):
            missing.append(f"constraint {key}")
    return missing


def ownership_check(actor: str, owner: str | None, goal_setters: set[str]) -> Check:
    """Only the session's owner (or whoever set its current goal) accepts a handoff."""
    allowed = ({owner} if owner else set()) | goal_setters
    ok = actor in allowed
    who = ", ".join(sorted(allowed)) or "nobody (the session records no owner)"
    return Check("accepted by the owner", "not_owner", ok,
                 f"{actor} owns this session." if ok else
                 f"{actor} is not the session's owner; only {who} may accept its handoff.")


def _refs_read(n: int) -> str:
    """"1 evidence ref resolves and is readable", "3 evidence refs resolve …" (it said "ref(s)")."""
    return f"{counted(n, 'evidence ref')} {'resolves and is' if n == 1 else 'resolve and are'} readable."
