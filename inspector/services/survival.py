"""Survival reports: what each summary generation kept of the protected facts.

Reads the session's active and pending records (extractor proposals included, and
labelled so) and each generation's text and range; the verdicts are the domain's exact
rules. ``judge`` is an optional outside opinion on ``missing``/``unknown`` facts, shown
as the judge's, never as a verdict.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.domain.covers_check import check_covers
from inspector.domain.drift_rules import DriftContext
from inspector.domain.errors import BadInput, no_generation
from inspector.domain.failures import find_failures
from inspector.domain.said_output_numbers import tool_runs
from inspector.domain.stale_pending import without_stale_pending
from inspector.domain.survival import VERDICTS, Fact, Survival, Verdict, survival
from inspector.domain.survival_report import part
from inspector.domain.terminal_safe import inert
from inspector.services import outside_command
from inspector.services.channels import Generation, generations
from inspector.services.log_reads import log_events, max_seq, untrusted_rules
from inspector.services.owner_late import OwnerLate, owner_late
from inspector.services.read_once import already, kept
from inspector.services.sessions import get_session
from inspector.store.connection import Store
from inspector.store.tables import SPECS

JUDGE_TIMEOUT_S = 60
_DETAIL = ("resolved_by", "todo_states", "signature", "offered_in")


@dataclass(slots=True)
class SurvivalReport:
    session: str
    generation: int | None
    kind: str | None = None
    covers: tuple[int, int] | None = None
    result: Survival | None = None
    judged: dict[str, dict[str, str]] = field(default_factory=dict)  # key -> judge's answer

    @property
    def verdicts(self) -> list[Verdict]:
        return self.result.verdicts if self.result else []

    def headline(self) -> str:
        return self.result.headline() if self.result else "no summary generation"

    def short_headline(self) -> str:
        return self.result.short_headline() if self.result else "no summary"

    def tight_headline(self) -> str:
        return self.result.tight_headline() if self.result else "no summary"

    def as_dict(self) -> dict[str, Any]:
        facts = []
        for v in self.verdicts:
            d = v.as_dict()
            d["part"] = part(v)  # which count of "tally" it is in: lost (check's ✗), not_restated, …
            if v.fact.key in self.judged:
                d["judge"] = self.judged[v.fact.key]
            facts.append(d)
        return {"session": self.session, "generation": self.generation, "kind": self.kind,
                "covers": list(self.covers) if self.covers else None, "facts": facts,
                "counts": self.result.counts if self.result else {},
                # the headline's parts, "lost" as check's ✗ (kept + lost + not_restated + pending_lost +
                # not_judged = the facts judged); "counts" keeps the verdicts as they are
                "tally": self.result.tally()._asdict() if self.result else {},
                "counts_by_kind": self.result.by_kind if self.result else {},
                # each kind in the tally's parts, so a script's per-kind "lost" is check's ✗ too
                "tally_by_kind": self.result.tally_by_kind if self.result else {}, "headline": self.headline(),
                # the facts the counts leave out, by why: said after the range, proposed by a tool or model
                "after_range": [_left_out(f) for f in self.result.after] if self.result else [],
                "untrusted_not_counted": [_left_out(f) for f in self.result.untrusted] if self.result else [],
                "unsourced_not_counted": [_left_out(f) for f in self.result.unsourced] if self.result else [],
                "in_review_not_counted": [_left_out(f) for f in self.result.in_review] if self.result else [],
                "stale_not_counted": [_left_out(f) for f in self.result.stale] if self.result else []}


def _left_out(fact: Fact) -> dict[str, Any]:
    return {"key": fact.key, "kind": fact.kind, "value": fact.value, "status": fact.status,
            "sources": list(fact.sources), "writer": fact.writer}


async def protected_facts(store: Store, session: str) -> list[Fact]:
    spec = SPECS["state"]
    rows = await store.db.execute_fetchall(
        f"SELECT {spec.select_columns} FROM state_records WHERE session = ? AND status != 'superseded' "
        "ORDER BY key, version", (session,))
    out: list[Fact] = []
    records = [spec.to_record(row) for row in rows]
    current = {id(r) for r in without_stale_pending(records, lambda r: (r["key"], int(r["version"]), r["status"]))}
    for r in records:
        out.append(Fact(r["key"], r["kind"], r["value"], r["status"], tuple(r.get("sources") or ()), r.get("writer"),
                        r.get("rule"), r.get("rationale"), tuple(r.get("alternatives") or ()),
                        {k: r[k] for k in _DETAIL if k in r}
                        # a proposal left pending behind its key's active version: not a second fact
                        | ({} if id(r) in current else {"stale_behind": f"v{r['version']}"})))
    return out


def _report(session: str, gen: Generation, facts: list[Fact], ctx: DriftContext | None = None,
            late: OwnerLate | None = None) -> SurvivalReport:
    covers = (gen.covers[0], gen.covers[1]) if gen.covers else None
    if ctx is not None and covers is not None:
        # The same range drift judges: a text that repeats what only later events say is
        # judged up to them (domain/covers_check.py), not by its own say-so.
        honest = check_covers(gen.text, covers, facts, ctx)
        if honest.judged_to is not None:
            covers = (covers[0], honest.judged_to)
    return SurvivalReport(session, gen.generation, gen.kind, covers,
                          survival(gen.generation, gen.text, list(gen.unresolved), covers, facts,
                                   ctx.event_texts if ctx is not None else None,
                                   ctx.failures if ctx is not None else (), ctx.result_seqs if ctx is not None else (),
                                   ctx.tool_runs if ctx is not None else (),
                                   late.written_at.get(gen.generation) if late is not None else None,
                                   late.replaced if late is not None else None))


async def survival_report(store: Store, session: str, generation: int | None = None, *,
                          judge: str | None = None, ctx: DriftContext | None = None) -> SurvivalReport:
    """``ctx``: a drift context the caller already read (a superset of what survival reads).
    The latest generation's report without a judge is made once per ``reads_once()`` block."""
    if generation is None and not judge:
        return await kept("latest_survival", session, lambda: _survival_report(store, session, None, None, ctx))
    return await _survival_report(store, session, generation, judge, ctx)


async def _survival_report(store: Store, session: str, generation: int | None, judge: str | None,
                           ctx: DriftContext | None) -> SurvivalReport:
    await get_session(store, session)
    gens = await generations(store, session)
    if not gens:
        return SurvivalReport(session, None)
    chosen = gens[0] if generation is None else next((g for g in gens if g.generation == generation), None)
    if chosen is None:
        raise no_generation(session, generation, [g.generation for g in gens])
    report = _report(session, chosen, await protected_facts(store, session), ctx or await covers_context(store, session),
                     await owner_late(store, session))
    if judge:
        for v in report.verdicts:
            if v.verdict in ("missing", "unknown"):
                report.judged[v.fact.key] = await ask_judge(judge, v, chosen.text)
    return report


async def survival_all(store: Store, session: str,
                       progress: Callable[[int, int], None] | None = None) -> list[SurvivalReport]:
    """Every generation's report, newest first (one read of the facts). ``progress(done, total)``
    after each generation, yielding to the event loop so a screen can draw it."""
    facts = await protected_facts(store, session)
    gens = await generations(store, session)
    ctx = await covers_context(store, session) if gens else None
    late = await owner_late(store, session)
    out: list[SurvivalReport] = []
    latest = already("latest_survival", session)  # the header's line, made in this run already
    for index, g in enumerate(gens):
        out.append(latest if index == 0 and latest is not None else _report(session, g, facts, ctx, late))
        if progress is not None:
            progress(index + 1, len(gens))
            await asyncio.sleep(0)
    return out


async def covers_context(store: Store, session: str) -> DriftContext:
    """What ``check_covers`` reads: event texts (by their edges), untrusted rules, the last seq.
    A drift context this ``reads_once()`` block read already holds all of it."""
    read: DriftContext | None = already("drift_context", session)
    if read is not None:
        return read
    return await kept("covers_context", session, lambda: _read_covers_context(store, session))


async def _read_covers_context(store: Store, session: str) -> DriftContext:
    events = await log_events(store.db, session, kinds=("tool_call", "tool_result", "assistant_message", "user_message"))
    runs = [e for e in events if e.kind in ("tool_call", "tool_result")]
    failures = find_failures(runs)
    return DriftContext(tuple(failures), untrusted_rules=tuple(untrusted_rules(events)),
                        tool_runs=tool_runs(runs, frozenset(f.seq for f in failures)),
                        max_seq=await max_seq(store.db, session), event_texts={e.seq: e.text for e in events if e.text},
                        result_seqs=tuple(sorted(e.seq for e in runs if e.kind == "tool_result")))


async def ask_judge(command: str, verdict: Verdict, summary: str) -> dict[str, str]:
    """One fact and the summary as JSON on the judge's stdin; ``{"verdict","reason"}`` back."""
    payload = json.dumps({"fact": verdict.as_dict(), "summary": summary}, ensure_ascii=False).encode("utf-8")
    try:
        out = await outside_command.run(outside_command.split(command, "judge"), payload, JUDGE_TIMEOUT_S,
                                         what="judge", command=command)
    except outside_command.CommandFailed as exc:
        raise BadInput(str(exc), code="judge_failed") from None
    try:
        answer = json.loads(out)
        if not isinstance(answer, dict) or answer.get("verdict") not in VERDICTS:
            raise ValueError
    except ValueError:
        raise BadInput(f"judge {inert(command)} did not print {{\"verdict\", \"reason\"}} as JSON with a verdict among "
                       f"{', '.join(VERDICTS)}", code="judge_failed") from None
    return {"verdict": answer["verdict"], "reason": str(answer.get("reason", "")), "by": "judge", "command": command}
