"""Drift: where a summary generation moved away from the protected state (DESIGN §2).

Findings compare a generation with the *state* and the *raw-log rebuild*, never with
the previous summary. They are exact (verbatim text, byte for byte) and a faithful
generation yields none: a false alarm is a defect too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.vocabulary import OWNER_ONLY_KINDS


@dataclass(frozen=True, slots=True)
class StateFact:
    key: str
    kind: str
    value: str
    status: str
    sources: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class GenerationText:
    generation: int
    kind: str
    text: str
    unresolved: tuple[str, ...]
    sources: tuple[str, ...]
    claims: tuple[dict[str, Any], ...] = ()
    covers: tuple[int, int] | None = None


@dataclass(frozen=True, slots=True)
class Finding:
    code: str
    key: str | None
    message: str
    severity: str = "finding"  # or "warning"

    def as_dict(self) -> dict[str, Any]:
        return {"code": self.code, "key": self.key, "message": self.message, "severity": self.severity}


@dataclass(slots=True)
class FieldTimeline:
    keys: list[str] = field(default_factory=list)
    generations: list[int] = field(default_factory=list)
    cells: dict[str, dict[int, str]] = field(default_factory=dict)

    def as_dict(self) -> dict[str, Any]:
        return {"keys": self.keys, "generations": self.generations,
                "cells": {k: {str(g): c for g, c in row.items()} for k, row in self.cells.items()}}


def find_drift(gen: GenerationText, state: list[StateFact]) -> list[Finding]:
    findings: list[Finding] = []
    claims = {c.get("key"): c for c in gen.claims}
    active = [s for s in state if s.status == "active"]
    for fact in active:
        claim = claims.get(fact.key)
        if claim is not None and claim.get("text") != fact.value:
            findings.append(Finding("protected_rewritten", fact.key,
                                    f"generation {gen.generation} claims {fact.key} is “{claim.get('text')}”; the "
                                    f"protected value is “{fact.value}”."))
    for fact in active:
        if fact.kind in OWNER_ONLY_KINDS and fact.key not in claims and fact.value not in gen.text:
            findings.append(Finding("protected_missing", fact.key,
                                    f"the {fact.kind} “{fact.value}” ({fact.key}) is not in generation "
                                    f"{gen.generation}'s text verbatim, and no claim covers it."))
    for fact in active:
        if fact.kind == "open_issue" and fact.value not in gen.unresolved:
            findings.append(Finding("open_issue_closed", fact.key,
                                    f"the open issue “{fact.value}” is not among generation {gen.generation}'s "
                                    "unresolved markers: the summary treats it as settled."))
    for fact in state:
        if fact.kind == "decision" and fact.status == "pending" and fact.value not in gen.unresolved:
            findings.append(Finding("dispute_flattened", fact.key,
                                    f"the undecided question “{fact.value}” is not among generation {gen.generation}'s "
                                    "unresolved markers: a dispute reads as a decision."))
    if not gen.sources:
        findings.append(Finding("unsourced_assertion", None, f"generation {gen.generation} cites no sources.",
                                "warning"))
    for claim in gen.claims:
        if not claim.get("sources"):
            findings.append(Finding("unsourced_assertion", claim.get("key"),
                                    f"the claim about {claim.get('key')} cites no sources.", "warning"))
    return findings


def field_cell(gen: GenerationText, fact: StateFact) -> str:
    """kept / rewritten / missing for one protected key in one generation."""
    claim = next((c for c in gen.claims if c.get("key") == fact.key), None)
    if claim is not None:
        return "kept" if claim.get("text") == fact.value else "rewritten"
    if fact.kind == "open_issue":
        return "kept" if fact.value in gen.unresolved else "missing"
    if fact.kind == "decision" and fact.status == "pending":
        return "kept" if fact.value in gen.unresolved else "missing"
    return "kept" if fact.value in gen.text else "missing"


def field_timeline(gens: list[GenerationText], state: list[StateFact]) -> FieldTimeline:
    tracked = [s for s in state if (s.status == "active" and (s.kind in OWNER_ONLY_KINDS or s.kind == "open_issue"))
               or (s.kind == "decision" and s.status == "pending")]
    ordered = sorted(gens, key=lambda g: g.generation)
    out = FieldTimeline([s.key for s in tracked], [g.generation for g in ordered])
    for fact in tracked:
        out.cells[fact.key] = {g.generation: field_cell(g, fact) for g in ordered}
    return out
