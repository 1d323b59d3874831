"""Compression regression (seed 002, 压缩回归): a case, its generations, and their verdicts.

A *case* is one sif/1 session whose active state records are the facts that must
survive. The suite splits the case's events into N consecutive chunks and has a
summarizer compress "previous summary + next chunk" N times, recursively, the way a
long-running agent does. Each generation is judged with the same exact rules as a
stored one — survival verdicts for the must-keep facts in its range, drift findings
against the state and the raw log — so a compressor that quietly loses a constraint
fails here before it fails a user.

Pure: parsing the summarizer's answer, chunking and judging touch no store and no
process; running the summarizer is the service's job.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from inspector.domain.drift import Finding, GenerationText, StateFact, find_drift
from inspector.domain.drift_rules import DriftContext
from inspector.domain.errors import BadInput
from inspector.domain.logevents import LogEvent
from inspector.domain.sif import SifFile
from inspector.domain.survival import Fact, Survival, Verdict, survival
from inspector.domain.survival_report import part
from inspector.domain.terminal_safe import inert
from inspector.domain.textnorm import mentions, norm

DEFAULT_GENERATIONS = 10
PAYLOAD_FIELDS = ("seq", "kind", "trust", "content", "tool", "call_id", "args")
_DETAIL = ("resolved_by", "todo_states", "signature", "offered_in")
_CITED = re.compile(r"(?<![\w:])evt:(\d+)\b")


@dataclass(frozen=True, slots=True)
class RegressCase:
    """One session of a case file: its events in seq order, state and actions."""

    id: str
    file: str
    session: str
    events: tuple[dict[str, Any], ...]
    state: tuple[dict[str, Any], ...]
    actions: tuple[dict[str, Any], ...]

    def must_keep(self) -> list[Fact]:
        """The active state records: what every generation must carry."""
        return [_fact(r) for r in self.state if r.get("status") == "active"]

    def state_facts(self) -> list[StateFact]:
        """Active and pending records as drift reads them (pending ones carry the
        injected rules and open disputes a summary must not turn into instructions)."""
        return [StateFact(r["key"], r["kind"], r["value"], r["status"], tuple(r.get("sources") or ()),
                          r.get("writer"), r.get("rationale"), tuple(r.get("alternatives") or ()))
                for r in self.state if r.get("status") != "superseded"]

    def log_events(self) -> list[LogEvent]:
        return [LogEvent.from_record(e) for e in self.events]


def _fact(r: dict[str, Any]) -> Fact:
    return Fact(r["key"], r["kind"], r["value"], r["status"], tuple(r.get("sources") or ()), r.get("writer"),
                r.get("rule"), r.get("rationale"), tuple(r.get("alternatives") or ()),
                {k: r[k] for k in _DETAIL if k in r})


def cases_of(sif: SifFile, file: str, stem: str) -> list[RegressCase]:
    """Every session of one parsed file as a case (id: the file's stem, plus the session
    when the file holds several). Refuses a session without events or without an active
    state record: it has nothing to compress or nothing to check."""
    sessions = [r.record["id"] for r in sif.records if r.type == "session"]
    if not sessions:
        raise BadInput(f"{file}: no session record; a case is one sif/1 session", code="bad_case")
    out: list[RegressCase] = []
    for session in sessions:
        mine = [r for r in sif.records if r.type != "session" and r.session == session]
        events = sorted((r.record for r in mine if r.type == "event"), key=lambda e: int(e["seq"]))
        state = tuple(r.record for r in mine if r.type == "state")
        if not events:
            raise BadInput(f"{file}: session {inert(session)} has no events to compress", code="bad_case")
        if not any(s.get("status") == "active" for s in state):
            raise BadInput(f"{file}: session {inert(session)} has no active state record, so no fact must survive",
                           code="bad_case")
        case_id = stem if len(sessions) == 1 else f"{stem}/{session}"
        out.append(RegressCase(case_id, file, session, tuple(events), state,
                               tuple(r.record for r in mine if r.type == "action")))
    return out


def chunks(events: tuple[dict[str, Any], ...] | list[dict[str, Any]], n: int) -> list[list[dict[str, Any]]]:
    """``n`` consecutive chunks of near-equal size (fewer when there are fewer events)."""
    count = min(max(n, 1), len(events))
    size, extra = divmod(len(events), count)
    out: list[list[dict[str, Any]]] = []
    start = 0
    for i in range(count):
        end = start + size + (1 if i < extra else 0)
        out.append(list(events[start:end]))
        start = end
    return out


def payload(case: RegressCase, generation: int, previous: str | None, previous_unresolved: list[str],
            chunk: list[dict[str, Any]]) -> dict[str, Any]:
    """What the summarizer reads on stdin for one generation."""
    return {"previous_summary": previous, "previous_unresolved": previous_unresolved,
            "events": [{k: e.get(k) for k in PAYLOAD_FIELDS} for e in chunk],
            "generation": generation, "case": case.id}


@dataclass(frozen=True, slots=True)
class Answer:
    text: str
    unresolved: tuple[str, ...]
    sources: tuple[str, ...]
    form: str  # "json" or "text"


def read_answer(out: str, case: RegressCase, command: str) -> Answer:
    """The summarizer's stdout: a JSON object ``{"text", "unresolved"?, "sources"?}`` or plain
    text. For plain text the unresolved markers are the active open issues (and pending
    decisions) the text mentions, and the sources are the ``evt:N`` it cites."""
    stripped = out.strip()
    if stripped.startswith("{"):
        try:
            obj = json.loads(stripped)
        except ValueError:
            obj = None
        if isinstance(obj, dict) and "text" in obj:
            text, unresolved, sources = obj.get("text"), obj.get("unresolved", []), obj.get("sources")
            if not isinstance(text, str):
                raise BadInput(f"summarizer {inert(command)} printed JSON whose \"text\" is not a string",
                               code="summarizer_failed")
            if not (isinstance(unresolved, list) and all(isinstance(u, str) for u in unresolved)):
                raise BadInput(f"summarizer {inert(command)} printed JSON whose \"unresolved\" is not a list of strings",
                               code="summarizer_failed")
            if sources is not None and not (isinstance(sources, list) and all(isinstance(s, str) for s in sources)):
                raise BadInput(f"summarizer {inert(command)} printed JSON whose \"sources\" is not a list of strings",
                               code="summarizer_failed")
            cited = tuple(sources) if sources is not None else cited_sources(text)
            return Answer(text, tuple(unresolved), cited, "json")
    return Answer(out, tuple(markers_in(out, case)), cited_sources(out), "text")


def markers_in(text: str, case: RegressCase) -> list[str]:
    """Open issues and undecided questions of the case that the text mentions."""
    flat = norm(text)
    return [r["value"] for r in case.state
            if ((r.get("kind") == "open_issue" and r.get("status") == "active")
                or (r.get("kind") == "decision" and r.get("status") == "pending"))
            and mentions(flat, r["value"])]


def cited_sources(text: str) -> tuple[str, ...]:
    return tuple(dict.fromkeys(f"evt:{m.group(1)}" for m in _CITED.finditer(text)))


@dataclass(slots=True)
class GenerationResult:
    generation: int
    covers: tuple[int, int]
    answer: Answer
    survival: Survival
    findings: list[Finding]

    @property
    def lost(self) -> list[Verdict]:
        # check's ✗ (survival_report.part): a missing evidence reference is "not restated" there, so a
        # generation regress failed on was "?" in check and survival (verdict-real-four)
        return [v for v in self.survival.verdicts if part(v) == "lost"]

    @property
    def blocking(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "finding"]

    @property
    def passed(self) -> bool:
        return not self.lost and not self.blocking

    def as_dict(self) -> dict[str, Any]:
        return {"generation": self.generation, "covers": list(self.covers), "passed": self.passed,
                "text": self.answer.text, "unresolved": list(self.answer.unresolved),
                "sources": list(self.answer.sources), "answer_form": self.answer.form,
                "counts": self.survival.counts, "tally": self.survival.tally()._asdict(), "facts": [v.as_dict() for v in self.survival.verdicts],
                "findings": [f.as_dict() for f in self.findings]}


def judge_generation(case: RegressCase, generation: int, covers: tuple[int, int], answer: Answer,
                     ctx: DriftContext) -> GenerationResult:
    """Survival of the must-keep facts in range and every drift finding, for one generation."""
    gen = GenerationText(generation, "recursive", answer.text, answer.unresolved, answer.sources, (), covers)
    return GenerationResult(generation, covers, answer,
                            survival(generation, answer.text, list(answer.unresolved), covers, case.must_keep()),
                            find_drift(gen, case.state_facts(), ctx))


@dataclass(frozen=True, slots=True)
class Failure:
    """The first generation at which one fact was lost or one finding appeared."""

    generation: int
    key: str | None
    what: str  # a verdict (missing, contradicted) or a finding code
    value: str | None
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"generation": self.generation, "key": self.key, "what": self.what, "value": self.value,
                "message": self.message}


@dataclass(slots=True)
class CaseResult:
    case: RegressCase
    generations: list[GenerationResult] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return all(g.passed for g in self.generations)

    @property
    def first_failing_generation(self) -> int | None:
        return next((g.generation for g in self.generations if not g.passed), None)

    def failures(self) -> list[Failure]:
        """Each lost fact and each finding (by code and key), at its first failing generation."""
        seen: set[tuple[str, str | None]] = set()
        out: list[Failure] = []
        for g in self.generations:
            for v in g.lost:
                if ("fact", v.fact.key) not in seen:
                    seen.add(("fact", v.fact.key))
                    out.append(Failure(g.generation, v.fact.key, v.verdict, v.fact.value, v.reason))
            for f in g.blocking:
                if (f.code, f.key) not in seen:
                    seen.add((f.code, f.key))
                    out.append(Failure(g.generation, f.key, f.code, None, f.message))
        return out

    def as_dict(self) -> dict[str, Any]:
        c = self.case
        return {"case": c.id, "file": c.file, "session": c.session, "events": len(c.events),
                "must_keep": [{"key": f.key, "kind": f.kind, "value": f.value} for f in c.must_keep()],
                "passed": self.passed, "first_failing_generation": self.first_failing_generation,
                "failures": [f.as_dict() for f in self.failures()],
                "generations": [g.as_dict() for g in self.generations]}
