"""Stubs checked against the materials they name, for import reports and ``check``."""

from __future__ import annotations

import aiosqlite

from inspector.domain.stubs import StubFact, StubProblem, stub_problems


async def session_stub_problems(db: aiosqlite.Connection, session: str, *, only: dict[str, int] | None = None
                                ) -> list[StubProblem]:
    """Problems of the session's stubs (``only``: just these stub ids, with their file lines)."""
    rows = await db.execute_fetchall(
        "SELECT s.id, s.material, s.retrieved_at, m.id IS NOT NULL, m.retrieved_at FROM stubs s "
        "LEFT JOIN materials m ON m.session = s.session AND m.id = s.material WHERE s.session = ? ORDER BY s.id",
        (session,))
    facts = [StubFact(r[0], r[1], r[2], bool(r[3]), r[4]) for r in rows if only is None or r[0] in only]
    return stub_problems(session, facts, only)
