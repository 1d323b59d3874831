"""Reading the facts that checks compare against: protected values, the action projection,
the control boundary. Shared by candidate validation, handoff checks and drift."""

from __future__ import annotations

import aiosqlite

from inspector.domain.candidates import SessionFacts
from inspector.domain.errors import NotFound
from inspector.domain.vocabulary import OWNER_ONLY_KINDS
from inspector.store import session_rows


async def _column(db: aiosqlite.Connection, sql: str, *params: object) -> list[str]:
    return [row[0] for row in await db.execute_fetchall(sql, params)]


async def required_exact(db: aiosqlite.Connection, session: str) -> dict[str, str]:
    """DESIGN §5: canonical values of every active goal, constraint, permission and acceptance."""
    marks = ", ".join("?" for _ in OWNER_ONLY_KINDS)
    return {key: value for key, value in await db.execute_fetchall(f"SELECT key, value FROM state_records WHERE session = ? AND status = 'active' AND kind IN ({marks}) "
        "ORDER BY key, version", (session, *sorted(OWNER_ONLY_KINDS)))}


async def unresolved_calls(db: aiosqlite.Connection, session: str) -> list[str]:
    return await _column(
        db, "SELECT c.call_id FROM events c WHERE c.session = ? AND c.kind = 'tool_call' AND c.call_id IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM events r WHERE r.session = c.session AND r.call_id = c.call_id "
        "AND r.kind = 'tool_result') ORDER BY c.seq", session)


async def session_facts(db: aiosqlite.Connection, session: str, *, with_texts: bool = False) -> SessionFacts:
    found = await session_rows.get(db, session)
    if found is None:
        raise NotFound(f"no session {session!r}")
    trusted: list[str] = []
    untrusted: list[str] = []
    if with_texts:
        trusted = await _column(db, "SELECT content FROM events WHERE session = ? AND trust IN ('user', 'reviewer') "
                                "AND content IS NOT NULL", session)
        untrusted = await _column(db, "SELECT content FROM events WHERE session = ? AND trust IN ('tool', 'model') "
                                  "AND content IS NOT NULL", session)
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
    )
