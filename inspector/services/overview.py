"""What the header shows about a session: versions and the badges that need attention."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.domain.protocol import CallShape, ProtocolProblem, find_problems, thinking_is_off
from inspector.domain.stale_pending import without_stale_pending
from inspector.domain.trust import label_conflict
from inspector.services import claims, unread_lines
from inspector.services.action_rules import rule_acts, rule_findings
from inspector.services.drift import latest_findings_and_context
from inspector.services.sessions import SessionSummary, get_session
from inspector.services.survival import survival_report
from inspector.services.survival_verdict import survival_verdict
from inspector.services.tombstones import deleted_calls
from inspector.services.unjudged import UNJUDGED_CODES, unjudged_and_lost
from inspector.store import session_rows
from inspector.store.connection import Store, fetch_one


@dataclass(frozen=True, slots=True)
class Badges:
    pending_candidates: int
    unknown_actions: int
    pending_state: int
    protocol: dict[str, int] = field(default_factory=dict)
    drift: int = 0  # findings (not warnings) in the latest summary generation
    survival: str | None = None  # "gen 1 keeps 14 of 31 facts", for the latest generation
    # What check's line counts as not judged (services/unjudged.py): the header says "? N not judged",
    # not only the drift count, which is 0 when the verdict is "?".
    not_judged: int = 0
    survival_short: str | None = None  # "gen 1 14/31 kept": the same, for a narrow header
    # Confirmed facts the latest generation lost or contradicts: check's ✗ survival findings
    # (services/survival_verdict.py), so the header never shows less than check.
    survival_lost: int = 0
    # Where the "?" warnings are, each place once, in check's order (drift's, survival's, then the acts an
    # imported file claimed: "candidate", "handoff", …): the header's "? N warnings" opens the first. It
    # always opened Drift, though the demo's two are survival's (lead-16-17 item 6).
    not_judged_in: tuple[str, ...] = ()
    survival_tight: str | None = None  # "gen 3 1/8 kept, 2 lost, 5 other": when the short one is wider than the line
    # Pending proposals older than their key's active version (domain/stale_pending.py): confirm refuses
    # them (stale_pending), only a reject decides them. Counted apart, not in pending_state, as survival
    # leaves them out ("· 1 stale proposal not counted"): "◌ 3 pending records" promised three to confirm.
    stale_state: int = 0
    # Tool calls that did what a confirmed rule forbids: check's ✗ ``action_against_rule`` findings
    # (services/action_rules.py), so the header never shows less than check; its "?" ones are in not_judged.
    rules_broken: int = 0

    def as_dict(self) -> dict[str, Any]:
        return {"pending_candidates": self.pending_candidates, "unknown_actions": self.unknown_actions,
                "pending_state": self.pending_state, "protocol": self.protocol, "drift": self.drift,
                "survival": self.survival, "not_judged": self.not_judged,
                "survival_lost": self.survival_lost, "stale_state": self.stale_state,
                "rules_broken": self.rules_broken}


async def _count(store: Store, sql: str, *params: Any) -> int:
    row = await fetch_one(store.db, sql, params)
    return int(row[0]) if row else 0


async def session_badges(store: Store, session: str) -> Badges:
    """Counts for the header. Protocol problems look only at call events and assistant
    turns (through the call index), so a session of a million plain messages stays cheap."""
    info = await get_session(store, session)
    by_code: dict[str, int] = {}
    for p in await _shape_problems(store, session, info.adapter):
        by_code[p.code] = by_code.get(p.code, 0) + 1
    # Label conflicts depend on (kind, label) alone: counted per pair, not listed per event.
    for kind, trust, count in await store.db.execute_fetchall(
            f"SELECT kind, trust, COUNT(*) FROM events WHERE session = ? AND {_LABEL_SUSPECTS} GROUP BY kind, trust",
            (session,)):
        if label_conflict(kind, trust):
            by_code["trust_label_conflict"] = by_code.get("trust_label_conflict", 0) + count
    unread = await unread_lines.unread_lines(store, session)
    if unread:  # lines an import could not read: remembered, said in the header as check says them
        by_code["lines_unread"] = len(unread)
    # Drift and survival judge the same raw log: read it once for both.
    findings, ctx = await latest_findings_and_context(store, session)
    drift = sum(1 for f in findings if f.severity == "finding")
    report = await survival_report(store, session, ctx=ctx)
    survival = report.headline() if report.generation is not None and report.verdicts else None
    unjudged = await unjudged_and_lost(store, session, findings, report)
    unjudged += claims.warnings(session, await claims.unverified_acts(store, session))
    broken, said = rule_findings(session, await rule_acts(store, session))
    unjudged += said
    pending, stale = await _pending_and_stale(store, session)
    return Badges(
        pending_candidates=await _count(
            store, "SELECT COUNT(*) FROM candidates WHERE session = ? AND status = 'pending'", session),
        unknown_actions=await _count(
            store, "SELECT COUNT(*) FROM actions WHERE session = ? AND status = 'unknown'", session),
        pending_state=pending - stale,
        stale_state=stale,
        protocol=by_code,
        drift=drift,
        survival=survival,
        survival_short=report.short_headline() if survival is not None else None,
        survival_tight=report.tight_headline() if survival is not None else None,
        not_judged=sum(1 for w in unjudged if w["code"] in UNJUDGED_CODES),
        not_judged_in=tuple(dict.fromkeys(w["where"] for w in unjudged if w["code"] in UNJUDGED_CODES)),
        survival_lost=len(survival_verdict(session, report).findings),
        rules_broken=len(broken),
    )


async def _pending_and_stale(store: Store, session: str) -> tuple[int, int]:
    """The session's pending records, and how many of them are stale (older than their key's active
    version: only a reject decides them)."""
    rows = await store.db.execute_fetchall(
        "SELECT key, version, status FROM state_records WHERE session = ? AND status IN ('pending', 'active')",
        (session,))
    pending = sum(1 for r in rows if r[2] == "pending")
    current = sum(1 for r in without_stale_pending(rows, lambda r: (r[0], int(r[1]), r[2])) if r[2] == "pending")
    return pending, pending - current


async def _thinking_off(store: Store, session: str) -> bool:
    """Whether the session record declares its thinking off (see thinking_is_off)."""
    row = await session_rows.get(store.db, session)
    if row is None or "thinking" not in row.extra:
        return False
    return thinking_is_off({"thinking": row.extra["thinking"]})


# The events whose trust label may claim more than their kind allows; the same terms as the
# partial index events_trust_label (schema format 2), so these reads use it.
_LABEL_SUSPECTS = ("kind IN ('tool_result', 'tool_call', 'assistant_message') AND trust IS NOT NULL "
                   "AND trust NOT IN ('tool', 'model')")


async def protocol_problems(store: Store, session: str, adapter: str) -> list[Any]:
    """Every protocol problem of the session, one per event (what ``check`` lists)."""
    problems = await _shape_problems(store, session, adapter)
    for seq, kind, trust in await store.db.execute_fetchall(
            f"SELECT seq, kind, trust FROM events WHERE session = ? AND {_LABEL_SUSPECTS} ORDER BY seq", (session,)):
        conflict = label_conflict(kind, trust)
        if conflict:
            problems.append(ProtocolProblem("trust_label_conflict", session, seq, f"event {seq}: {conflict}"))
    return sorted(problems, key=lambda p: (p.seq, p.code))


async def _shape_problems(store: Store, session: str, adapter: str) -> list[Any]:
    """Call pairing and reasoning problems (everything but label conflicts)."""
    # A call id with one call and one result in the log pairs up whatever else it holds, and
    # deleted events only add pairs (tombstones): only the other ids can be orphaned or open.
    # The covering call index groups them without reading a row.
    shapes = [CallShape(seq, kind, call_id) for seq, kind, call_id in await store.db.execute_fetchall(
        "SELECT seq, kind, call_id FROM events WHERE session = ? AND call_id IN ("
        "SELECT call_id FROM events WHERE session = ? AND call_id IS NOT NULL GROUP BY call_id "
        "HAVING NOT (MAX(kind = 'tool_call') AND MAX(kind = 'tool_result')) "
        "OR COUNT(CASE WHEN kind = 'tool_call' THEN 1 END) > 1 OR COUNT(CASE WHEN kind = 'tool_result' THEN 1 END) > 1)", (session, session))]  # an id used twice
    for (call_id, kind), seq in (await deleted_calls(store.db, session)).items():
        shapes.append(CallShape(seq, kind, call_id))  # deleted, but it happened: no orphan, no open call
    if adapter == "deepseek-thinking-tools":
        async with store.db.execute(
            "SELECT seq, json_extract(extra, '$.tools_present'), json_type(extra, '$.reasoning_content') IS NOT NULL "
            "FROM events WHERE session = ? AND kind = 'assistant_message'", (session,)
        ) as cur:
            async for seq, tools, reasoning in cur:  # present, even empty, is sent back: only absence is a problem
                shapes.append(CallShape(seq, "assistant_message", None, bool(tools), bool(reasoning)))
    thinking_off = await _thinking_off(store, session)
    if thinking_off and adapter != "deepseek-thinking-tools":
        async with store.db.execute(
            "SELECT seq, kind FROM events WHERE session = ? AND json_type(extra, '$.reasoning_content') IS NOT NULL",
            (session,)
        ) as cur:
            async for seq, kind in cur:
                shapes.append(CallShape(seq, kind, None, False, True))
    return find_problems(session, adapter, shapes, thinking_off=thinking_off)


async def overview(store: Store, session: str) -> tuple[SessionSummary, Badges]:
    return await get_session(store, session), await session_badges(store, session)
