"""Reading the facts that checks compare against: protected values, the action projection,
the control boundary. Shared by candidate validation, handoff checks and drift."""

from __future__ import annotations

import aiosqlite

from inspector.domain.candidates import SessionFacts
from inspector.domain.trust import SOURCE_TRUST
from inspector.domain.vocabulary import OWNER_ONLY_KINDS
from inspector.services.tombstones import deleted_calls
from inspector.store import session_rows

_UNTRUSTED_KINDS = "(" + ", ".join(f"'{k}'" for k in sorted(SOURCE_TRUST)) + ")"


async def _column(db: aiosqlite.Connection, sql: str, *params: object) -> list[str]:
    return [row[0] for row in await db.execute_fetchall(sql, params)]


async def required_exact(db: aiosqlite.Connection, session: str) -> dict[str, str]:
    """DESIGN §5: canonical values of every active goal, constraint, permission and acceptance."""
    marks = ", ".join("?" for _ in OWNER_ONLY_KINDS)
    return {key: value for key, value in await db.execute_fetchall(f"SELECT key, value FROM state_records WHERE session = ? AND status = 'active' AND kind IN ({marks}) "
        "ORDER BY key, version", (session, *sorted(OWNER_ONLY_KINDS)))}


async def unresolved_calls(db: aiosqlite.Connection, session: str) -> list[str]:
    """Calls without a result; a result a deletion removed still answered its call."""
    deleted = {call for call, kind in await deleted_calls(db, session) if kind == "tool_result"}
    return [c for c in await _column(
        db, "SELECT c.call_id FROM events c WHERE c.session = ? AND c.kind = 'tool_call' AND c.call_id IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM events r WHERE r.session = c.session AND r.call_id = c.call_id "
        "AND r.kind = 'tool_result') ORDER BY c.seq", session) if c not in deleted]


async def continuation_items(db: aiosqlite.Connection, session: str) -> dict[str, list[int]]:
    """Provider continuation items the session's events hold: kind -> event seqs."""
    out: dict[str, list[int]] = {}
    for seq, kind in await db.execute_fetchall(
            "SELECT e.seq, json_extract(j.value, '$.kind') FROM events e, json_each(e.extra, '$.continuation') j "
            "WHERE e.session = ? AND instr(e.extra, '\"continuation\"') > 0 "
            "AND json_type(e.extra, '$.continuation') = 'array' ORDER BY e.seq", (session,)):
        seqs = out.setdefault(str(kind), [])
        if not seqs or seqs[-1] != seq:
            seqs.append(int(seq))
    return out


async def session_facts(db: aiosqlite.Connection, session: str, *, with_texts: bool = False) -> SessionFacts:
    found = await session_rows.get(db, session)
    if found is None:
        raise await session_rows.no_session(db, session)
    trusted: list[str] = []
    untrusted: list[str] = []
    if with_texts:
        # Trust from the source (domain/trust.py): tool results and model output are untrusted
        # whatever their label says.
        trusted = await _column(db, "SELECT content FROM events WHERE session = ? AND trust IN ('user', 'reviewer') "
                                f"AND kind NOT IN {_UNTRUSTED_KINDS} AND content IS NOT NULL", session)
        untrusted = await _column(db, "SELECT content FROM events WHERE session = ? AND (trust IN ('tool', 'model') "
                                  f"OR kind IN {_UNTRUSTED_KINDS}) AND content IS NOT NULL", session)
    return SessionFacts(
        adapter=found.adapter, context_version=found.context_version, goal_revision=found.goal_revision,
        required_exact=await required_exact(db, session),
        open_actions=sorted(await _column(db, "SELECT id FROM actions WHERE session = ? AND status = 'planned'", session)),
        unknowns=sorted(await _column(db, "SELECT id FROM actions WHERE session = ? AND status = 'unknown'", session)),
        unresolved_calls=await unresolved_calls(db, session),
        in_flight=sorted(await _column(db, "SELECT id FROM actions WHERE session = ? AND status = 'in_flight'", session)),
        open_issues=await _column(db, "SELECT value FROM state_records WHERE session = ? AND kind = 'open_issue' "
                                  "AND status = 'active' ORDER BY key", session),
        pending_decisions=await _column(db, "SELECT value FROM state_records WHERE session = ? AND kind = 'decision' "
                                        "AND status = 'pending' ORDER BY key", session),
        trusted_texts=trusted, untrusted_texts=untrusted,
        continuation=await continuation_items(db, session),
    )
