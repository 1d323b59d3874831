"""Drift of a summary generation against the protected state and a rebuild from the raw log."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.call_input import call_input_of_extra
from inspector.domain.drift import (
    FieldTimeline,
    Finding,
    GenerationText,
    StateFact,
    field_timeline,
    find_drift,
)
from inspector.domain.drift_rules import DriftContext
from inspector.domain.errors import BadInput, no_generation
from inspector.domain.facts_system import from_prompt
from inspector.domain.facts_window import WHOLE_BELOW, window_of
from inspector.domain.failures import find_failures
from inspector.domain.rebuild import RawEvent, RebuiltFact, rebuild
from inspector.domain.result_in_part import LongResult, at_risk
from inspector.domain.result_in_part import finding as result_in_part_finding
from inspector.domain.result_in_part_claims import answered
from inspector.domain.said_output_numbers import gives_counts, tool_runs
from inspector.domain.stale_pending import without_stale_pending
from inspector.domain.unreadable import finding as unreadable_finding
from inspector.domain.unreadable import in_part_finding
from inspector.services import outside_command
from inspector.services.channels import StateRecord, generations, state_records
from inspector.services.evidence_text import evidence_text, evidence_whole
from inspector.services.log_reads import (
    FACTS_TEXT,
    action_facts,
    compaction_carriers,
    failed_action_calls,
    known_refs,
    log_events,
    max_seq,
    read_in_part,
    untrusted_rules,
    user_readings,
)
from inspector.services.owner_late import owner_late
from inspector.services.read_once import already, kept
from inspector.services.sessions import get_session
from inspector.store.connection import Store
from inspector.store.ledger import ledger_tail
from inspector.store.tables import SPECS

SUMMARIZER_TIMEOUT_S = 120


@dataclass(slots=True)
class DriftReport:
    session: str
    generation: int | None
    findings: list[Finding] = field(default_factory=list)
    rebuild: list[RebuiltFact] = field(default_factory=list)
    user_statements: list[str] = field(default_factory=list)
    narrative: str | None = None
    timeline: FieldTimeline = field(default_factory=FieldTimeline)
    # Events of the generation's range the rules read only in part (log_reads.read_in_part): every
    # verdict above is about their head and tail, and the report says so.
    read_in_part: list[dict[str, Any]] = field(default_factory=list)

    @property
    def blocking(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "finding"]

    def as_dict(self) -> dict[str, Any]:
        return {"session": self.session, "generation": self.generation,
                "findings": [f.as_dict() for f in self.findings], "rebuild": [r.as_dict() for r in self.rebuild],
                "user_statements": self.user_statements, "narrative_rebuild": self.narrative,
                "field_timeline": self.timeline.as_dict(), "read_in_part": self.read_in_part}


async def state_facts(store: Store, session: str) -> list[StateFact]:
    """Active and pending versions (superseded ones are history, not facts; a pending one older than
    its key's active version neither: domain/stale_pending.py), each marked when it was proposed from
    the system prompt (drift then says what survival says of it)."""
    prompt = await _prompt_rules(store, session)
    replaced = (await owner_late(store, session)).replaced  # the value an owner's correction replaced
    return [StateFact(r.key, r.kind, r.value, r.status, tuple(r.sources), r.writer, r.rationale, tuple(r.alternatives),
                      from_prompt=(r.key, r.version) in prompt,
                      replaced=replaced.get(r.key) if r.status == "active" else None)
            for r in without_stale_pending(await state_records(store, session), _version_of) if r.status != "superseded"]


def _version_of(r: StateRecord) -> tuple[str, int, str]:
    return r.key, r.version, r.status


async def _prompt_rules(store: Store, session: str) -> set[tuple[str, int]]:
    """(key, version) of the records whose rule says they came from the system prompt."""
    spec = SPECS["state"]
    rows = await store.db.execute_fetchall(
        f"SELECT {spec.select_columns} FROM state_records WHERE session = ? AND status != 'superseded'", (session,))
    return {(r["key"], int(r["version"])) for r in map(spec.to_record, rows) if from_prompt(r.get("rule"))}


async def drift_context(db: aiosqlite.Connection, session: str) -> DriftContext:
    """The raw-log facts drift reads: failures, actions, untrusted rules, the last event
    (read once per ``read_once.reads_once()`` block, e.g. one report)."""
    return await kept("drift_context", session, lambda: _read_drift_context(db, session))


async def _read_drift_context(db: aiosqlite.Connection, session: str) -> DriftContext:
    events = await log_events(db, session, kinds=("tool_call", "tool_result", "assistant_message", "user_message"))
    failures = find_failures([e for e in events if e.kind in ("tool_call", "tool_result")],
                             await failed_action_calls(db, session))
    carriers = await compaction_carriers(db, session)
    whole, gap = await evidence_whole(db, session)
    return DriftContext(tuple(failures), tuple(await action_facts(db, session)), tuple(untrusted_rules(events)),
                        await max_seq(db, session), carriers=carriers,
                        known_refs=await known_refs(db, session),
                        event_texts={e.seq: e.text for e in events if e.text},
                        evidence=await evidence_text(db, session, carriers),
                        evidence_whole=whole, evidence_gap=gap,
                        result_seqs=tuple(sorted(e.seq for e in events if e.kind == "tool_result")),
                        tool_runs=tool_runs(events, frozenset(f.seq for f in failures)),
                        user_said=tuple((e.seq, e.text) for e in events if e.kind == "user_message" and e.text),
                        said_in_part=await _said_in_part(db, session),
                        results_in_part=await _results_in_part(db, session))


async def _results_in_part(db: aiosqlite.Connection, session: str) -> tuple[LongResult, ...]:
    """The tool results every rule read only in part, with the tool of the call that made them."""
    rows = await db.execute_fetchall(
        "SELECT r.seq, length(r.content), COALESCE((SELECT c.tool FROM events c WHERE c.session = r.session "
        "AND c.kind = 'tool_call' AND c.call_id = r.call_id LIMIT 1), r.tool, '') FROM events r "
        "WHERE r.session = ? AND r.kind = 'tool_result' AND length(r.content) >= ? ORDER BY r.seq",
        (session, WHOLE_BELOW))
    return tuple(LongResult(int(r[0]), int(r[1]), str(r[2])) for r in rows)


async def _said_in_part(db: aiosqlite.Connection, session: str) -> tuple[tuple[int, int], ...]:
    """The user's messages every rule read only in part: (seq, characters). The user's only — the
    protected facts are proposed from what the user said (a long tool output is drift's "read in
    part" note, not a "?")."""
    rows = await db.execute_fetchall(
        "SELECT seq, length(content) FROM events WHERE session = ? AND kind = 'user_message' "
        "AND trust IN ('user', 'reviewer') AND length(content) >= ? ORDER BY seq", (session, WHOLE_BELOW))
    # only a message whose own words the rules skipped: one whose every own-words paragraph was read
    # around a pasted log is judged as any other (facts_own_words, flow-19)
    readings = await user_readings(db, session, [int(r[0]) for r in rows])
    return tuple((int(r[0]), int(r[1])) for r in rows if int(r[0]) not in readings or readings[int(r[0])].own_skipped)


async def generation_texts(store: Store, session: str) -> list[GenerationText]:
    written = (await owner_late(store, session)).written_at  # read only when the owner corrected a value
    return [GenerationText(g.generation, g.kind, g.text, tuple(g.unresolved), tuple(g.sources), tuple(g.claims),
                           (g.covers[0], g.covers[1]) if g.covers else None, written.get(g.generation))
            for g in await generations(store, session)]


async def unreadable_generations(store: Store, session: str) -> dict[int, str]:
    """Generations whose text the importer could not read (an encrypted compaction), with why
    (domain/unreadable.py): their drift is "not judged", never "no drift found"."""
    rows = await store.db.execute_fetchall(
        "SELECT generation, extra FROM summaries WHERE session = ? AND extra LIKE ?", (session, '%"unreadable"%'))
    out: dict[int, str] = {}
    for generation, extra in rows:
        why = json.loads(extra).get("unreadable")
        if isinstance(why, str) and why:
            out[int(generation)] = why
    return out


def _judged(gen: GenerationText, state: list[StateFact], ctx: DriftContext, unreadable: dict[int, str]) -> list[Finding]:
    """The drift rules' findings, after the warning that the text could not be read at all."""
    found = find_drift(gen, state, ctx)
    upto = gen.covers[1] if gen.covers else None  # what the generation replaced: a message after it is not its
    found += [in_part_finding(seq, n) for seq, n in ctx.said_in_part if upto is None or seq <= upto]
    if ctx.results_in_part:  # a long result whose unread middle could hold a failure or a count
        failing = frozenset(f.seq for f in ctx.failures)
        done = answered(ctx.results_in_part, gen.covers, gen.text, ctx.tool_runs)  # per claim (verdict-twelve)
        found += [result_in_part_finding(r) for r in at_risk(ctx.results_in_part, gen.covers, failing,
                                                             gives_counts(gen.text), done)]
    why = unreadable.get(gen.generation)
    return [unreadable_finding(gen.generation, why), *found] if why else found


async def _events(store: Store, session: str, covers: tuple[int, int] | None) -> tuple[list[RawEvent], list[RawEvent]]:
    """The events in range for the rebuild (a tool call with its input, even without text: an
    edited file's path is only there) and, of them, those with text, as a summarizer is given."""
    lo, hi = covers or (0, 2**62)
    rows = await store.db.execute_fetchall(
        f"SELECT seq, kind, trust, {FACTS_TEXT}, CASE WHEN kind = 'tool_call' THEN extra END FROM events "
        "WHERE session = ? AND seq BETWEEN ? AND ? AND (content IS NOT NULL OR kind = 'tool_call') ORDER BY seq",
        (session, lo, hi))
    # a huge user message comes whole from FACTS_TEXT and is read here as every rule reads it (its own words)
    read = [(RawEvent(int(r[0]), r[1], r[2], window_of(r[1], r[3]) if r[3] else "", call_input_of_extra(r[4])),
             r[3] is not None) for r in rows]
    return [e for e, has_text in read if has_text or e.call_input is not None], [e for e, has_text in read if has_text]


async def run_summarizer(command: str, events: list[RawEvent]) -> str:
    """An external narrative rebuild: events as JSON on stdin, text on stdout."""
    payload = json.dumps([{"seq": e.seq, "kind": e.kind, "trust": e.trust, "content": e.content} for e in events],
                         ensure_ascii=False).encode("utf-8")
    try:
        return await outside_command.run(outside_command.split(command, "summarizer"), payload, SUMMARIZER_TIMEOUT_S,
                                         what="summarizer", command=command)
    except outside_command.CommandFailed as exc:
        raise BadInput(str(exc), code="summarizer_failed") from None


async def drift(store: Store, session: str, generation: int | None = None, *,
                summarizer: str | None = None) -> DriftReport:
    await get_session(store, session)
    gens = await generation_texts(store, session)
    state = await state_facts(store, session)
    ctx = await drift_context(store.db, session) if gens else None
    report = DriftReport(session, None, timeline=field_timeline(gens, state, ctx))
    if not gens or ctx is None:
        return report
    chosen = gens[0] if generation is None else next((g for g in gens if g.generation == generation), None)
    if chosen is None:
        raise no_generation(session, generation, [g.generation for g in gens])
    report.generation = chosen.generation
    report.findings = _judged(chosen, state, ctx, await unreadable_generations(store, session))
    report.read_in_part = await read_in_part(store.db, session, chosen.covers[1] if chosen.covers else None)
    events, with_text = await _events(store, session, chosen.covers)
    report.rebuild, report.user_statements = rebuild(events, state)
    if summarizer:
        report.narrative = await run_summarizer(summarizer, with_text)
    return report


async def check_text(store: Store, session: str, text: str, unresolved: list[str],
                     parent: dict[str, Any]) -> list[Finding]:
    """Drift of a text that is about to become a generation (a correction), judged with the
    range, sources and claims of the generation it corrects."""
    covers = parent.get("covers")
    now = (await ledger_tail(store.db))[0] + 1  # written now: after every correction, so it could know them
    gen = GenerationText(int(parent.get("generation", 0)) + 1, "corrected", text, tuple(unresolved),
                         tuple(parent.get("sources") or ()), (), (covers[0], covers[1]) if covers else None, now)
    return find_drift(gen, await state_facts(store, session), await drift_context(store.db, session))


async def latest_findings(store: Store, session: str) -> list[Finding]:
    """The latest generation's findings alone: the rules, without the raw-log rebuild that
    ``drift`` also builds for people to read (which reads every event in range)."""
    return (await latest_findings_and_context(store, session))[0]


async def latest_findings_and_context(store: Store, session: str) -> tuple[list[Finding], DriftContext | None]:
    """:func:`latest_findings` and the raw-log context they were judged with (None when the
    session has no generation), so the header's survival line reads the log no second time."""
    return await kept("latest_findings", session, lambda: _latest_findings_and_context(store, session))


async def _latest_findings_and_context(store: Store, session: str) -> tuple[list[Finding], DriftContext | None]:
    gens = await generation_texts(store, session)
    if not gens:
        return [], None
    ctx = await drift_context(store.db, session)
    return _judged(gens[0], await state_facts(store, session), ctx, await unreadable_generations(store, session)), ctx


async def drift_overview(store: Store, session: str) -> tuple[dict[int, list[Finding]], FieldTimeline,
                                                              list[GenerationText]]:
    """Findings of every generation, the field timeline, and the generations themselves."""
    state = await state_facts(store, session)
    gens = await generation_texts(store, session)
    ctx = await drift_context(store.db, session) if gens else DriftContext()
    unreadable = await unreadable_generations(store, session) if gens else {}
    latest = already("latest_findings", session)  # the header's verdict, judged in this run already
    found = {g.generation: latest[0] if latest is not None and index == 0 else _judged(g, state, ctx, unreadable)
             for index, g in enumerate(gens)}
    return found, field_timeline(gens, state, ctx if gens else None), gens
