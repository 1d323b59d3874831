"""Protected facts proposed from the raw log (issue: what did the compaction lose?).

A real transcript carries no typed records, so the Protected state channel of an
imported session would be empty and every verdict would have nothing to judge by.
These rules read the log and *propose* records — goal, constraints, decisions,
artifacts, failures, open issues (the agent's todo list), references — each ``pending``,
written by the actor ``extractor``, citing the events it came from and naming the rule
that proposed it. None is ever ``active`` until the owner confirms it (DESIGN rule 3).

Deterministic: the same events give the same records, keys and versions; records that
repeat one fact merge into one record with several sources.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from inspector.domain import (
    facts_goals,
    facts_pasted,
    facts_permissions,
    facts_published,
    facts_system,
    facts_text,
    facts_tools,
    facts_user_stated,
)
from inspector.domain.fact_keys import KeyMaker, make_key, redact
from inspector.domain.facts_text import Proposal
from inspector.domain.facts_window import windowed
from inspector.domain.logevents import LogEvent

EXTRACTOR = "extractor"


@dataclass(slots=True)
class ProposedFact:
    key: str
    kind: str
    value: str
    sources: list[str]
    rule: str
    version: int = 1
    rationale: str | None = None
    alternatives: list[str] = field(default_factory=list)
    detail: dict[str, Any] = field(default_factory=dict)
    at: str | None = None
    # The key this record had before keys left sensitive values out (fact_keys.py), when it
    # differs: a store made then holds that one, and the same fact is not proposed twice.
    # Never written anywhere (it spells the value).
    former_key: str | None = None

    def as_dict(self) -> dict[str, Any]:
        return {"key": self.key, "kind": self.kind, "value": self.value, "sources": self.sources,
                "writer": EXTRACTOR, "rule": self.rule, "version": self.version, "rationale": self.rationale,
                "alternatives": self.alternatives, **{k: v for k, v in self.detail.items() if v is not None}}

    def state_record(self, session: str, status: str = "pending") -> dict[str, Any]:
        rec: dict[str, Any] = {"type": "state", "session": session, "key": self.key, "kind": self.kind,
                               "value": self.value, "sources": self.sources, "writer": EXTRACTOR, "scope": "task",
                               "version": self.version, "status": status, "rule": self.rule}
        if self.at:
            rec["at"] = self.at
        if self.rationale:
            rec["rationale"] = self.rationale
        if self.alternatives:
            rec["alternatives"] = self.alternatives
        rec.update({k: v for k, v in self.detail.items() if v is not None})
        return rec


def _identity(p: Proposal, shown: Callable[[str], str] = str) -> str:
    """What makes two proposals one record; ``shown`` = ``fact_keys.redact`` for the text a key is made of."""
    if p.kind == "failure":
        return shown(str(p.detail.get("signature") or p.value))
    value = unicodedata.normalize("NFC", shown(p.value))
    return value if p.kind in ("artifact", "reference") else " ".join(value.casefold().split())


def _key_of(keys: KeyMaker, kind: str, p: Proposal, ident: str) -> dict[str, Any]:
    """The record's key, made of its identity with every sensitive value left out (fact_keys.py;
    redacted again once folded, for a value only the case-folded text shows as one), and the key
    it had before when that differs."""
    key, former = keys.key(kind, ident, redact(_identity(p, redact))), make_key(kind, ident)
    return {"key": key, "former_key": former if former != key else None}


def _merge(proposals: Iterable[Proposal], at: dict[int, str | None]) -> list[ProposedFact]:
    return list(Merged().add(proposals, at).merged.values())


class Merged:
    """Proposals merged into records, one per (kind, identity), in the order each first came;
    more can be added (a followed session's running extraction adds each look's)."""

    __slots__ = ("merged", "cited", "last", "unordered", "keys")

    def __init__(self) -> None:
        self.merged: dict[tuple[str, str], ProposedFact] = {}
        # Each record's sources as a set: a fact repeated 2,000 times in a long session made
        # the list test quadratic.
        self.cited: dict[tuple[str, str], set[str]] = {}
        # The last seq each record's sources took, and the records whose sources came out of
        # seq order: only those need sorting (a record's sources are listed by seq).
        self.last: dict[tuple[str, str], int] = {}
        self.unordered: set[tuple[str, str]] = set()
        self.keys = KeyMaker()

    def add(self, proposals: Iterable[Proposal], at: dict[int, str | None]) -> Merged:
        merged, cited, last = self.merged, self.cited, self.last
        for p in proposals:
            ident = _identity(p)
            key = (p.kind, ident)
            found = merged.get(key)
            # A rule a back-reference resolved to cites where it was said, then the endorsement.
            seqs = (*p.cites, p.seq) if p.cites else (p.seq,)
            if found is None:
                refs = [f"evt:{seq}" for seq in seqs]
                merged[key] = ProposedFact(kind=p.kind, value=p.value, sources=refs, rule=p.rule,
                                           rationale=p.rationale, alternatives=list(p.alternatives),
                                           detail=dict(p.detail), at=at.get(p.seq),
                                           **_key_of(self.keys, p.kind, p, ident))
                cited[key] = set(refs)
                if list(seqs) != sorted(seqs):
                    self.unordered.add(key)
                last[key] = max(seqs)
                continue
            seen = cited[key]
            for seq in seqs:
                ref = f"evt:{seq}"
                if ref not in seen:
                    seen.add(ref)
                    found.sources.append(ref)
                    if seq < last[key]:
                        self.unordered.add(key)
                    last[key] = seq
            for name, value in p.detail.items():  # a later occurrence knows more (e.g. a later fix)
                if value is not None and name != "todo_states":
                    found.detail[name] = value
        return self


def _goal_versions(goals: list[Proposal], at: dict[int, str | None]) -> list[ProposedFact]:
    """``goal.main`` and its restated versions, then one record per later request
    (``goal.later_request.<slug>.<6 hex>``, pending like every proposal, citing the event it came
    from: a request repeated word for word is one record with both sources)."""
    out: list[ProposedFact] = []
    later: dict[str, ProposedFact] = {}
    keys = KeyMaker()
    for p in goals:
        if p.rule in (facts_goals.LATER_REQUEST, facts_goals.IN_PROGRESS):
            ident = _identity(p)
            found = later.get(ident)
            # A pick cites the assistant's list it picked from, then itself (facts_goals).
            offered = p.detail.get("offered_in")
            refs = ([f"evt:{offered}"] if offered else []) + [f"evt:{p.seq}"]
            if found is None:
                later[ident] = ProposedFact(kind="goal", value=p.value, sources=refs, rule=p.rule, at=at.get(p.seq),
                                            **_key_of(keys, facts_goals.LATER_REQUEST, p, ident))
            else:
                found.sources += [ref for ref in refs if ref not in found.sources]
            continue
        if out and " ".join(out[-1].value.casefold().split()) == " ".join(p.value.casefold().split()):
            out[-1].sources.append(f"evt:{p.seq}")
            continue
        out.append(ProposedFact("goal.main", "goal", p.value, [f"evt:{p.seq}"], p.rule, version=len(out) + 1,
                                at=at.get(p.seq)))
    return out + list(later.values())


def extract(events: Iterable[LogEvent]) -> list[ProposedFact]:
    """Every proposal for one session's events, in a stable order (a huge event read in its
    head and tail: inspector/domain/facts_window.py)."""
    ordered = sorted(windowed(events), key=lambda e: e.seq)
    at = {e.seq: e.at for e in ordered}
    failures = facts_tools.failures(ordered)
    # A failure fixed later in the log is history, not an open issue; it stays a failure record.
    replies = facts_goals.GoalReading()
    decisions = facts_goals.read_replies(ordered, replies)  # the goals go into ``replies``
    own = replies.own  # the user's own words of the messages that quoted or pasted a line
    proposals = [*facts_system.system_constraints(ordered)[0], *facts_text.constraints(ordered, own, replies.before),
                 *facts_permissions.permissions(ordered, own, replies.before), *facts_user_stated.with_picks(decisions, ordered, own),
                 *facts_tools.artifacts(ordered),
                 *failures, *facts_tools.todos(ordered), *facts_text.references(ordered, own),
                 *facts_published.published(ordered), *facts_pasted.pasted_failures(ordered)]
    return assemble(replies.proposals, proposals, at)


def assemble(goals: list[Proposal], proposals: list[Proposal], at: dict[int, str | None]) -> list[ProposedFact]:
    """The records of the goal proposals and of the other proposals (constraints, decisions,
    artifacts, failures, todos, references, published effects, in that order): shared with the running
    extraction of a followed session (``facts_running``), so both give the same records."""
    facts = _goal_versions(goals, at) + _merge(proposals, at)
    for f in facts:
        f.sources.sort(key=_source_order)
    return facts


def assemble_merged(goals: list[Proposal], parts: Iterable[Merged], at: dict[int, str | None]) -> list[ProposedFact]:
    """``assemble`` of proposals merged already, category by category (each category's kinds
    are its own, so merging them one by one and in turn gives ``_merge``'s records in its
    order); the records are copies, the parts are left as they are."""
    facts = _goal_versions(goals, at)
    for f in facts:
        f.sources.sort(key=_source_order)
    for part in parts:
        for key, f in part.merged.items():
            copy = replace(f, sources=list(f.sources), alternatives=list(f.alternatives), detail=dict(f.detail))
            if key in part.unordered:  # the others are in seq order, as sorting would leave them
                copy.sources.sort(key=_source_order)
            facts.append(copy)
    return facts


def _source_order(source: str) -> int:
    return int(source[4:]) if source[4:].isdigit() else 0


def extract_from_records(records: Iterable[dict[str, Any]]) -> dict[str, list[ProposedFact]]:
    """Proposals per session for freshly converted sif records (the import path)."""
    by_session: dict[str, list[LogEvent]] = {}
    for r in records:
        if r.get("type") == "event":
            by_session.setdefault(r["session"], []).append(LogEvent.from_record(r))
    return {session: extract(events) for session, events in by_session.items()}
