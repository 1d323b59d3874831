"""``check``: every check over every session, for CI (DESIGN §8).

Pending candidates are validated, pending handoffs checked, the latest summary
generation checked for drift, the raw log for protocol problems, and every stub against the
material it names. Decided candidates
and handoffs are history, not findings.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from inspector.services import candidates, handoffs
from inspector.services.content_warnings import content_warnings
from inspector.services.drift import latest_findings
from inspector.services.overview import protocol_problems
from inspector.services.sessions import list_sessions
from inspector.services.stub_checks import session_stub_problems
from inspector.store.connection import Store


@dataclass(slots=True)
class SessionCheck:
    session: str
    protocol: list[dict[str, Any]] = field(default_factory=list)
    candidates: list[dict[str, Any]] = field(default_factory=list)
    drift: list[dict[str, Any]] = field(default_factory=list)
    handoffs: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[dict[str, Any]] = field(default_factory=list)  # shown, never blocking
    stubs: list[dict[str, Any]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.protocol or self.candidates or self.drift or self.handoffs or self.stubs)

    def as_dict(self) -> dict[str, Any]:
        return {"session": self.session, "ok": self.ok, "protocol": self.protocol, "candidates": self.candidates,
                "drift": self.drift, "handoffs": self.handoffs, "warnings": self.warnings, "stubs": self.stubs}


async def check_store(store: Store) -> list[SessionCheck]:
    out: list[SessionCheck] = []
    for info in await list_sessions(store):
        result = SessionCheck(info.id)
        result.protocol = [p.as_dict() for p in await protocol_problems(store, info.id, info.adapter)]
        result.stubs = [p.as_dict() for p in await session_stub_problems(store.db, info.id)]
        for cand, v in await candidates.list_candidates(store, info.id):
            if cand["status"] == "pending" and v.refusals:
                result.candidates.append({"candidate": cand["id"], "refusals": [r.as_dict() for r in v.refusals]})
        result.drift = [f.as_dict() for f in await latest_findings(store, info.id) if f.severity == "finding"]
        for h, c in await handoffs.list_handoffs(store, info.id):
            if h["status"] == "pending" and not c.acceptable:
                result.handoffs.append({"handoff": h["id"], "refusals": [r.as_dict() for r in c.refusals]})
        result.warnings = await content_warnings(store, info.id)
        out.append(result)
    return out
