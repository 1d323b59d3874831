"""New-session handoff: check the transfer, accept it by hand, start the new session.

Accepting binds the transfer in the old session's ledger (its ledger head hash, goal
revision, context version, tool mapping) and creates the new session, whose first event
is the material as task input (``user_message`` from ``trust: reviewer``), never an
assistant message. Open and unknown actions are carried over with their status, so an
unknown effect stays unknown. The two sessions point at each other.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

import aiosqlite

from inspector.domain.handoff import Check, HandoffCheck, HandoffFacts, check_handoff, ownership_check
from inspector.domain.sif import identity_digest
from inspector.domain.terminal_safe import inert
from inspector.domain.trust import reviewer_name
from inspector.services.expanding import DEFAULT_SCOPES
from inspector.services.lookup import load_by_id
from inspector.services.session_facts import required_exact, unresolved_calls
from inspector.store import ledger
from inspector.store.connection import Store, fetch_one, utc_now
from inspector.store.tables import SPECS


async def _load(db: aiosqlite.Connection, record_id: str, session: str | None) -> dict[str, Any]:
    return await load_by_id(db, "handoff", record_id, session)


async def _col(db: aiosqlite.Connection, sql: str, *params: Any) -> list[Any]:
    return [r[0] for r in await db.execute_fetchall(sql, params)]


async def _unreadable(db: aiosqlite.Connection, session: str, refs: list[str], scopes: tuple[str, ...]) -> dict[str, str]:
    out: dict[str, str] = {}
    for ref in refs:
        if ref.startswith("evt:"):
            seq = ref[4:]
            if not seq.isdigit() or await fetch_one(db, "SELECT 1 FROM events WHERE session = ? AND seq = ?",
                                                     (session, int(seq))) is None:
                out[ref] = "no such event in the old session"
            continue
        row = await fetch_one(db, "SELECT deleted_at, disclosure_scope FROM materials WHERE session = ? AND id = ?",
                              (session, ref))
        if row is None:
            out[ref] = "does not resolve to a stored material"
        elif row[0] is not None:
            out[ref] = f"was deleted on {row[0]}"
        elif row[1] is not None and row[1] not in scopes:
            out[ref] = f"is disclosed to scope {inert(row[1])}, outside the new session's scopes ({', '.join(scopes)})"
    return out


async def handoff_facts(db: aiosqlite.Connection, h: dict[str, Any]) -> HandoffFacts:
    sid = h["session"]
    row = await fetch_one(db, "SELECT goal_revision, context_version FROM sessions WHERE id = ?", (sid,))
    material = h.get("material") or {}
    keys = list((material.get("exact_fields") or {}).keys())
    stored_keys = set(await _col(db, "SELECT DISTINCT key FROM state_records WHERE session = ?", sid))
    scopes = tuple(h.get("scopes") or DEFAULT_SCOPES)
    return HandoffFacts(
        status=h["status"], session_goal_revision=int(row[0]), session_context_version=int(row[1]),
        has_events=await fetch_one(db, "SELECT 1 FROM events WHERE session = ? LIMIT 1", (sid,)) is not None,
        has_ledger=await fetch_one(db, "SELECT 1 FROM ledger WHERE session = ? LIMIT 1", (sid,)) is not None,
        missing_state_keys=[k for k in keys if k not in stored_keys],
        required_exact=await required_exact(db, sid),
        open_calls=await unresolved_calls(db, sid),
        in_flight=sorted(await _col(db, "SELECT id FROM actions WHERE session = ? AND status = 'in_flight'", sid)),
        unknown_actions=sorted(await _col(db, "SELECT id FROM actions WHERE session = ? AND status = 'unknown'", sid)),
        tool_hashes={r[0]: r[1] for r in await db.execute_fetchall(
            "SELECT name, definition_hash FROM tool_defs WHERE session = ?", (sid,))},
        unreadable=await _unreadable(db, sid, list(material.get("evidence_refs") or []), scopes),
        tools_in_use=sorted(set(await _col(db, "SELECT name FROM tool_defs WHERE session = ?", sid))
                            | set(await _col(db, "SELECT DISTINCT tool FROM events WHERE session = ? AND "
                                                 "kind = 'tool_call' AND tool IS NOT NULL", sid))),
        successor=await _successor(db, sid, h["id"]),
        open_issues=await _active(db, sid, "open_issue"),
        decisions=await _active(db, sid, "decision"),
        constraints=await _active(db, sid, "constraint"),
        new_session_taken=await fetch_one(db, "SELECT 1 FROM sessions WHERE id = ?", (h["to_session"],)) is not None,
    )


async def _active(db: aiosqlite.Connection, session: str, kind: str) -> dict[str, str]:
    return {r[0]: r[1] for r in await db.execute_fetchall(
        "SELECT key, value FROM state_records WHERE session = ? AND kind = ? AND status = 'active' ORDER BY key, version",
        (session, kind))}


async def _successor(db: aiosqlite.Connection, session: str, handoff: str) -> tuple[str, str] | None:
    row = await fetch_one(db, "SELECT id, to_session FROM handoffs WHERE session = ? AND status = 'accepted' AND id != ? "
                          "ORDER BY rowid LIMIT 1", (session, handoff))
    return (str(row[0]), str(row[1])) if row else None


async def goal_setters(db: aiosqlite.Connection, session: str) -> set[str]:
    """Who set the session's current goal through the inspector (a correction by the owner that
    made it active, or the owner's confirmation of it)."""
    active = {(r[0], int(r[1])) for r in await db.execute_fetchall(
        "SELECT key, version FROM state_records WHERE session = ? AND kind = 'goal' AND status = 'active'", (session,))}
    setters: set[str] = set()
    for kind, actor, payload in await db.execute_fetchall(
            "SELECT kind, actor, payload FROM ledger WHERE session = ? AND source = 'inspector' AND kind IN "
            "('correction', 'confirmation')", (session,)):
        p = json.loads(payload)
        version = p.get("new_version") if kind == "correction" else p.get("version")
        confirmed = p.get("status") == "active" if kind == "correction" else p.get("decision") == "confirmed"
        if confirmed and (p.get("key"), version) in active:
            setters.add(actor)
    return setters


async def check(store: Store, handoff: str, session: str | None = None) -> HandoffCheck:
    async with store.snapshot() as db:
        h = await _load(db, handoff, session)
        return check_handoff(h, await handoff_facts(db, h))


async def may_accept(store: Store, handoff: str, actor: str, session: str | None = None) -> Check:
    """Whether ``actor`` may accept the handoff (the check :func:`accept` makes), read before
    anyone presses accept: the dialog greys the key and says who may, instead of offering it."""
    async with store.snapshot() as db:
        h = await _load(db, handoff, session)
        owner = await fetch_one(db, "SELECT owner FROM sessions WHERE id = ?", (h["session"],))
        return ownership_check(actor, owner[0] if owner else None, await goal_setters(db, h["session"]))


async def standing(store: Store, handoff: str, session: str | None = None) -> dict[str, Any]:
    """Where the handoff stands and who may move it: its session, the session it starts, its status
    and the names allowed to accept it — what `handoff` prints after the checks, so the way on is said
    (the check list alone said "acceptable" to a reviewer who was then refused ``not_owner``, and
    "REFUSED" of a handoff already accepted)."""
    async with store.snapshot() as db:
        h = await _load(db, handoff, session)
        owner = await fetch_one(db, "SELECT owner FROM sessions WHERE id = ?", (h["session"],))
        allowed = ({str(owner[0])} if owner and owner[0] else set()) | await goal_setters(db, h["session"])
    return {"session": h["session"], "new_session": h["to_session"], "status": h["status"],
            "may_accept": sorted(allowed)}


async def listed_unknowns(store: Store, handoff: str, session: str | None = None) -> list[str]:
    """The action ids the handoff's material carries as unknown."""
    async with store.snapshot() as db:
        h = await _load(db, handoff, session)
    return [str(a) for a in (h.get("material") or {}).get("unknowns") or []]


async def list_handoffs(store: Store, session: str) -> list[tuple[dict[str, Any], HandoffCheck]]:
    spec = SPECS["handoff"]
    async with store.snapshot() as db:
        rows = [spec.to_record(r) for r in await db.execute_fetchall(
            f"SELECT {spec.select_columns} FROM handoffs WHERE session = ? ORDER BY rowid", (session,))]
        return [(h, check_handoff(h, await handoff_facts(db, h))) for h in rows]


MATERIAL_SECTIONS = (("goal", "Goal"), ("exact_fields", "Exact fields (byte for byte)"), ("corrections", "Corrections"),
                     ("decisions", "Decisions"), ("open_actions", "Open actions"), ("unknowns", "Unknown outcomes"),
                     ("open_points", "Open points"), ("evidence_refs", "Evidence"), ("limits", "Limits"))


def handed_over(h: dict[str, Any]) -> list[tuple[str, list[str]]]:
    """What the handoff carries, section by section, as plain lines (no JSON quoting: issue 15, 7)."""
    m = h.get("material") or {}
    out: list[tuple[str, list[str]]] = []
    for name, title in MATERIAL_SECTIONS:
        if name not in m:
            continue
        value = m[name]
        if isinstance(value, dict):
            lines = [f"{k}: {v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)}" for k, v in value.items()]
        elif isinstance(value, list):
            lines = [v if isinstance(v, str) else json.dumps(v, ensure_ascii=False) for v in value]
        else:
            lines = [value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)]
        out.append((title, lines))
    return out


def task_input(h: dict[str, Any], old_title: str | None) -> str:
    """The material as the new session's first task input, plainly labelled, one item per line."""
    lines = [f"Accepted handoff {h['id']} from session {h['session']} ({old_title or 'untitled'})."]
    for title, items in handed_over(h):
        lines.append(f"\n{title}:" if items else f"\n{title}: none")
        lines += [f"- {item}" for item in items]
    return "\n".join(lines)


async def carried_records(db: aiosqlite.Connection, h: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(key, kind, value) of the old session's active open issues and decisions that the new session
    keeps besides the exact fields (a new session once kept the goal but lost the open issue)."""
    exact = set(((h.get("material") or {}).get("exact_fields") or {}).keys())
    rows = await db.execute_fetchall(
        "SELECT key, kind, value FROM state_records WHERE session = ? AND status = 'active' "
        "AND kind IN ('open_issue', 'decision') ORDER BY kind, key, version", (h["session"],))
    return [(str(k), str(kind), str(v)) for k, kind, v in rows if k not in exact]


async def preview(store: Store, handoff: str, session: str | None = None
                  ) -> tuple[list[tuple[str, list[str]]], list[tuple[str, str, str]]]:
    """What accepting would hand over: the material's sections, and the records the new session keeps."""
    async with store.snapshot() as db:
        h = await _load(db, handoff, session)
        return handed_over(h), await carried_records(db, h)


@dataclass(slots=True)
class HandoffDecision:
    check: HandoffCheck
    status: str
    new_session: str | None

    def as_dict(self) -> dict[str, Any]:
        if not self.check.acceptable:
            return self.check.as_dict()
        return {"handoff": self.check.handoff, "status": self.status, "new_session": self.new_session}


async def _insert(db: aiosqlite.Connection, rec: dict[str, Any], derived: tuple[Any, ...] = ()) -> None:
    spec = SPECS[rec["type"]]
    await db.execute(spec.insert_sql, spec.to_row(rec, identity_digest(rec["type"], rec), derived))


async def accept(store: Store, handoff: str, *, actor: str, session: str | None = None) -> HandoffDecision:
    actor = reviewer_name(actor)
    async with store.transaction() as db:
        h = await _load(db, handoff, session)
        result = check_handoff(h, await handoff_facts(db, h))
        new_id = h["to_session"]
        owner = await fetch_one(db, "SELECT owner FROM sessions WHERE id = ?", (h["session"],))
        result.checks.append(ownership_check(actor, owner[0] if owner else None, await goal_setters(db, h["session"])))
        if not result.acceptable:
            return HandoffDecision(result, h["status"], None)
        old = h["session"]
        head_seq, head_hash = await ledger.ledger_tail(db)
        old_row = await fetch_one(db, "SELECT title, adapter, owner FROM sessions WHERE id = ?", (old,))
        now = utc_now()
        new_session = {"type": "session", "id": new_id, "title": f"{old_row[0] or old} (continued)", "created_at": now,
                       "adapter": h.get("adapter") or old_row[1], "owner": old_row[2], "goal_revision": 1,
                       "continued_from": {"session": old, "handoff": h["id"]}}
        await _insert(db, new_session, (1,))
        await _insert(db, {"type": "event", "session": new_id, "seq": 1, "kind": "user_message",
                           "content": task_input(h, old_row[0]), "at": now, "trust": "reviewer",
                           "origin": {"handoff": h["id"], "from_session": old}})
        added = {"session": 1, "event": 1, "state": 0, "action": 0}
        initial: dict[str, list[list[str]]] = {}
        kinds = {r[0]: r[1] for r in await db.execute_fetchall(
            "SELECT key, kind FROM state_records WHERE session = ? AND status = 'active'", (old,))}
        for key, value in ((h.get("material") or {}).get("exact_fields") or {}).items():
            await _insert(db, {"type": "state", "session": new_id, "key": key, "kind": kinds.get(key, "constraint"),
                               "value": value, "sources": ["evt:1"], "writer": "reviewer", "at": now, "scope": "task",
                               "version": 1, "status": "active"})
            added["state"] += 1
        for key, kind, value in await carried_records(db, h):
            await _insert(db, {"type": "state", "session": new_id, "key": key, "kind": kind, "value": value,
                               "sources": ["evt:1"], "writer": "reviewer", "at": now, "scope": "task",
                               "rationale": f"carried from session {old} by handoff {h['id']}",
                               "version": 1, "status": "active"})
            added["state"] += 1
        for action in await db.execute_fetchall(
                "SELECT id, intent, call_id, status, result_ref FROM actions WHERE session = ? "
                "AND status IN ('planned', 'unknown')", (old,)):
            rec = {"type": "action", "session": new_id, "id": action[0], "status": action[3]}
            rec.update({k: v for k, v in zip(("intent", "call_id"), action[1:3], strict=True) if v is not None})
            rec["result_ref"] = f"{old}:{action[4]}" if action[4] else f"{old}:{action[0]}"
            await _insert(db, rec)
            added["action"] += 1
            initial.setdefault(str(action[3]), []).append([new_id, action[0]])  # replayed by verify
        await db.execute("UPDATE handoffs SET status = 'accepted' WHERE session = ? AND id = ?", (old, h["id"]))
        await ledger.append(db, [
            ledger.NewEntry(old, "handoff.accept", actor, {
                "handoff": h["id"], "new_session": new_id, "old_ledger_head": {"seq": head_seq, "hash": head_hash},
                "goal_revision": h.get("goal_revision"), "context_version": h.get("context_version"),
                "tool_mapping": h.get("tool_mapping") or {},
                "status_set": {"type": "handoff", "identity": [old, h["id"]], "status": "accepted"}}),
            ledger.NewEntry(new_id, "session.created", actor, {
                "from_session": old, "handoff": h["id"], "added": {k: v for k, v in added.items() if v},
                "context_version": 1, "goal_revision": 1, "initial_status": {"action": initial} if initial else {}}),
        ])
    return HandoffDecision(result, "accepted", new_id)
