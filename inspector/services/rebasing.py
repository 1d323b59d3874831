"""Rebase a stale compression candidate onto the session's current base (seed 002, branch rules).

A candidate built on an old base is never merged blind: it is replayed on the new base or
stays stale. Rebasing copies the candidate (same summary, exact fields, action lists,
sources) into a *new* candidate on the current context version and goal revision, linked
to the stale one, and validates it afresh, so every exact comparison runs against the state
as it is now. It also records what changed in between: the inspector's acts since the old
base, the protected-state versions written since, and the raw events after the last event
the old base covered. The stale candidate stays exactly as it was.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.candidates import Validation
from inspector.domain.errors import Refusal
from inspector.domain.plurals import counted as _n
from inspector.domain.sif import identity_digest
from inspector.domain.terminal_safe import quoted
from inspector.services.candidates import validate_record
from inspector.services.lookup import load_by_id
from inspector.store import ledger, session_rows
from inspector.store.connection import Store, fetch_one
from inspector.store.tables import SPECS

LISTED_EVENTS = 50  # events since the base are listed up to this many, then counted


@dataclass(slots=True)
class Rebase:
    stale: str
    session: str
    candidate: str | None = None
    from_version: tuple[int, int] = (0, 0)
    to_version: tuple[int, int] = (0, 0)
    changes: dict[str, Any] = field(default_factory=dict)
    validation: Validation | None = None
    refusals: list[Refusal] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rebased_from": self.stale, "session": self.session}
        if self.refusals:
            return {**out, "refusals": [r.as_dict() for r in self.refusals]}
        assert self.validation is not None
        return {**out, "candidate": self.candidate,
                "from": {"base_version": self.from_version[0], "goal_revision": self.from_version[1]},
                "to": {"base_version": self.to_version[0], "goal_revision": self.to_version[1]},
                "changes": self.changes, "validation": self.validation.as_dict()}


async def changes_since(db: aiosqlite.Connection, session: str, base: int) -> dict[str, Any]:
    """What moved the session on from context version ``base``: acts, state versions, events."""
    acts: list[dict[str, Any]] = []
    act_versions: dict[int, int] = {}
    async with db.execute("SELECT seq, kind, actor, payload FROM ledger WHERE session = ? AND source = 'inspector' "
                          "AND kind != 'import' ORDER BY seq", (session,)) as cur:
        async for seq, kind, actor, payload in cur:
            p = json.loads(payload)
            cv = p.get("context_version")
            if isinstance(cv, int):
                act_versions[seq] = cv
                if cv > base:
                    what = p.get("key") or p.get("candidate") or p.get("generation") or p.get("request") or ""
                    acts.append({"ledger": seq, "kind": kind, "actor": actor, "context_version": cv,
                                 "what": str(what)})
    # The last raw event the old base covered: the end of the widest summary written on it or before.
    row = await fetch_one(db, "SELECT MAX(json_extract(covers, '$[1]')) FROM summaries WHERE session = ? "
                          "AND base_version <= ? AND covers IS NOT NULL", (session, base))
    anchor = int(row[0]) if row and row[0] is not None else None
    anchor_at = None
    if anchor is not None:
        at_row = await fetch_one(db, "SELECT at FROM events WHERE session = ? AND seq = ?", (session, anchor))
        anchor_at = at_row[0] if at_row else None
    state: list[str] = []
    spec = SPECS["state"]
    for r in await db.execute_fetchall(f"SELECT {spec.select_columns} FROM state_records WHERE session = ? "
                                       "ORDER BY key, version", (session,)):
        rec = spec.to_record(r)
        ledger_refs = [int(s[7:]) for s in rec.get("sources") or [] if s.startswith("ledger:") and s[7:].isdigit()]
        if ledger_refs:  # written through the inspector: by the act that wrote it
            since = any(act_versions.get(n, 0) > base for n in ledger_refs)
        else:  # imported: by time, against the last event the old base covered
            since = anchor_at is not None and rec.get("at") is not None and rec["at"] > anchor_at
        if since:
            state.append(f"{rec['key']} v{rec['version']} ({rec['status']})")
    events: dict[str, Any] = {"known": anchor is not None}
    if anchor is not None:
        seqs = [r[0] for r in await db.execute_fetchall(
            "SELECT seq FROM events WHERE session = ? AND seq > ? ORDER BY seq", (session, anchor))]
        events.update({"after": f"evt:{anchor}", "count": len(seqs),
                       "refs": [f"evt:{s}" for s in seqs[:LISTED_EVENTS]]})
    return {"acts": acts, "state_versions": state, "events": events}


def describe_changes(changes: dict[str, Any]) -> list[str]:
    """What changed since a base, one line each (the CLI and the review screen show the same)."""
    lines = [f"  act L{a['ledger']} {a['kind']} {a['what']} by {a['actor']} → v{a['context_version']}"
             for a in changes.get("acts", [])]
    lines += [f"  state {s}" for s in changes.get("state_versions", [])]
    events = changes.get("events", {})
    if events.get("known") and not events["count"]:  # not "0 event(s) after evt:11: " and nothing after it
        lines.append(f"  no event after {events['after']}")
    elif events.get("known"):
        lines.append(f"  {_n(events['count'], 'event')} after {events['after']}: {', '.join(events['refs'])}")
    else:
        lines.append("  events: the store does not record which events the old base covered")
    return lines


async def rebase(store: Store, candidate: str, *, actor: str, session: str | None = None) -> Rebase:
    async with store.transaction() as db:
        old = await load_by_id(db, "candidate", candidate, session)
        sid = old["session"]
        result = Rebase(candidate, sid)
        found = await session_rows.get(db, sid)
        cv, gr = (found.context_version, found.goal_revision) if found else (0, 0)
        result.from_version, result.to_version = (old["base_version"], old["goal_revision"]), (cv, gr)
        new_id = f"{candidate}-on-v{cv}"
        if old["status"] != "pending":
            result.refusals = [Refusal("already_decided", f"candidate {quoted(candidate)} was already {old['status']}; "
                                       "only a pending candidate is rebased.")]
        elif (old["base_version"], old["goal_revision"]) == (cv, gr):
            result.refusals = [Refusal("not_stale", f"candidate {quoted(candidate)} is already on the current base "
                                       f"(context v{cv}, goal r{gr}); there is nothing to rebase onto.")]
        elif await fetch_one(db, "SELECT 1 FROM candidates WHERE session = ? AND id = ?", (sid, new_id)):
            result.refusals = [Refusal("already_rebased", f"candidate {quoted(candidate)} was already rebased onto "
                                       f"context v{cv} as {quoted(new_id)}; review that one.")]
        if result.refusals:
            return result
        result.changes = await changes_since(db, sid, old["base_version"])
        record = {k: v for k, v in old.items() if k not in ("rebased_from", "status")}
        record.update({"id": new_id, "base_version": cv, "goal_revision": gr, "status": "pending",
                       "rebased_from": {"candidate": candidate, "base_version": old["base_version"],
                                        "goal_revision": old["goal_revision"]}})
        spec = SPECS["candidate"]
        await db.execute(spec.insert_sql, spec.to_row(record, identity_digest("candidate", record)))
        validation = await validate_record(db, await load_by_id(db, "candidate", new_id, sid))
        changes = result.changes
        await ledger.append(db, [ledger.NewEntry(sid, "candidate.rebase", actor, {
            "candidate": new_id, "rebased_from": candidate, "from_base": old["base_version"], "to_base": cv,
            "reason": f"{candidate} was built on context v{old['base_version']} / goal r{old['goal_revision']}; the "
                      f"session is at v{cv} / r{gr}",
            "from_goal": old["goal_revision"], "to_goal": gr,
            "changes": {"acts": [a["ledger"] for a in changes["acts"]], "state_versions": changes["state_versions"],
                        "events_since": changes["events"].get("count")},
            "structure_verified": validation.structure_verified, "refusals": [r.code for r in validation.refusals],
            "added": {"candidate": 1}})])
        result.candidate, result.validation = new_id, validation
    return result


async def rebase_info(store: Store, candidate: dict[str, Any]) -> tuple[str | None, dict[str, Any] | None]:
    """For the review screen: the candidate this one was rebased into (if any), and, for a
    rebased candidate, what changed between its old base and the one it was replayed on."""
    sid = candidate["session"]
    async with store.snapshot() as db:
        rows = await db.execute_fetchall("SELECT id FROM candidates WHERE session = ? AND "
                                         "json_extract(extra, '$.rebased_from.candidate') = ? ORDER BY rowid",
                                         (sid, candidate["id"]))
        origin = candidate.get("rebased_from")
        changes = await changes_since(db, sid, int(origin["base_version"])) if isinstance(origin, dict) else None
    return (rows[-1][0] if rows else None), changes
