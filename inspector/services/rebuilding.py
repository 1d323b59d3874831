"""``rebuild``: append a generation rebuilt from the raw log (seed 002's periodic rebuild).

A drifted chain is not repaired by summarising the summary again: the rebuild reads the
protected records and the raw log, states each fact with the event that carries it, and
becomes the next generation (kind ``rebuilt``), so the channel, drift and budget use it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from inspector.domain.call_input import call_input_text
from inspector.domain.canonical import keyed_digest
from inspector.domain.failures import find_failures
from inspector.domain.rebuild import RawEvent, rebuild, rebuilt_text
from inspector.domain.sif import identity_digest
from inspector.services.drift import state_facts
from inspector.services.log_reads import action_facts, failed_action_calls, log_events
from inspector.services.sessions import get_session
from inspector.store import ledger, session_rows
from inspector.store.connection import Store, fetch_one
from inspector.store.tables import SPECS


@dataclass(frozen=True, slots=True)
class Rebuilt:
    session: str
    generation: int
    parent: int | None
    context_version: int
    text: str
    covers: list[int] | None

    def as_dict(self) -> dict[str, Any]:
        return {"session": self.session, "generation": self.generation, "kind": "rebuilt", "parent": self.parent,
                "context_version": self.context_version, "covers": self.covers, "text": self.text}


async def rebuild_generation(store: Store, session: str, *, actor: str) -> Rebuilt:
    await get_session(store, session)
    async with store.transaction() as db:
        events = await log_events(db, session)
        state = await state_facts(store, session)
        facts, _said = rebuild([RawEvent(e.seq, e.kind, e.trust, e.text or "", call_input_text(e.args))
                                for e in events if e.content or e.args], state)
        failures = [f for f in find_failures([e for e in events if e.kind in ("tool_call", "tool_result")],
                                             await failed_action_calls(db, session)) if f.resolved_by is None]
        actions = [(a.id, a.intent or "", a.status) for a in await action_facts(db, session)
                   if a.status in ("unknown", "in_flight")]
        built = rebuilt_text(facts, state, [(f.seq, f"{f.signature[:120]}: {f.error[:120]}") for f in failures],
                             actions)
        row = await fetch_one(db, "SELECT MAX(generation) FROM summaries WHERE session = ?", (session,))
        parent = int(row[0]) if row and row[0] is not None else None
        found = await session_rows.get(db, session)
        cv = found.context_version + 1 if found else 1
        last = max((e.seq for e in events), default=None)
        record: dict[str, Any] = {"type": "summary", "session": session, "generation": (parent or 0) + 1,
                                  "kind": "rebuilt", "text": built.text, "base_version": cv,
                                  "unresolved": built.unresolved, "sources": built.sources}
        if parent is not None:
            record["parent"] = parent
        if last is not None:
            record["covers"] = [min(e.seq for e in events), last]
        spec = SPECS["summary"]
        await db.execute(spec.insert_sql, spec.to_row(record, identity_digest("summary", record)))
        await session_rows.set_versions(db, session, context_version=cv)
        await ledger.append(db, [ledger.NewEntry(session, "summary.rebuild", actor, {
            "generation": record["generation"], "parent": parent, "context_version": cv,
            "text_digest": keyed_digest(store.digest_key, built.text.encode()), "added": {"summary": 1}})])
    return Rebuilt(session, int(record["generation"]), parent, cv, built.text, record.get("covers"))
