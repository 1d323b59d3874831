"""Deletion requests: see every copy a request must cover, then carry it out.

Carrying out removes the events (and their search entries), deletes material bytes and
search text while keeping a tombstone row (``deleted_at``), and removes summary
generations and candidates that cite a target or repeat its sensitive values, plus the
original transcript an imported session kept. One transaction; one ledger entry with ids,
counts and the reason, never content; the context version grows.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import aiosqlite

from inspector.domain.deletion import Copy, repeats, sensitive_values
from inspector.domain.errors import Refusal
from inspector.domain.formats.builder import ORIGINAL_MEDIA_TYPE
from inspector.services.lookup import load_by_id
from inspector.store import ledger
from inspector.store.connection import Store, fetch_one, utc_now
from inspector.store.tables import SPECS


@dataclass(slots=True)
class Coverage:
    request: str
    session: str
    status: str
    copies: list[Copy] = field(default_factory=list)
    missing: list[str] = field(default_factory=list)  # targets that resolve to nothing (already gone?)

    def as_dict(self) -> dict[str, Any]:
        return {"request": self.request, "session": self.session, "status": self.status,
                "copies": [c.as_dict() for c in self.copies], "missing": self.missing}


async def _rows(db: aiosqlite.Connection, type_: str, session: str) -> list[dict[str, Any]]:
    spec = SPECS[type_]
    return [spec.to_record(r) for r in await db.execute_fetchall(
        f"SELECT {spec.select_columns} FROM {spec.table} WHERE session = ?", (session,))]


async def coverage(db: aiosqlite.Connection, req: dict[str, Any]) -> Coverage:
    session = req["session"]
    out = Coverage(req["id"], session, req["status"])
    add = out.copies.append
    texts: list[str] = []
    refs: set[str] = set()
    for target in req["targets"]:
        if target.startswith("evt:") and target[4:].isdigit():
            row = await fetch_one(db, "SELECT event_id, content FROM events WHERE session = ? AND seq = ?",
                                  (session, int(target[4:])))
            if row is None:
                out.missing.append(target)
                continue
            refs.add(target)
            texts.append(row[1] or "")
            add(Copy("events", target, "the target event"))
            if row[1]:
                add(Copy("events_fts", target, "its search-index entry"))
            for (mid,) in await db.execute_fetchall("SELECT id FROM materials WHERE session = ? AND source_event = ? "
                                                    "AND deleted_at IS NULL", (session, int(target[4:]))):
                refs.add(mid)
                add(Copy("materials", mid, f"observed by {target}"))
        else:
            row = await fetch_one(db, "SELECT material_id, deleted_at FROM materials WHERE session = ? AND id = ?",
                                  (session, target))
            if row is None or row[1] is not None:
                out.missing.append(target)
                continue
            refs.add(target)
            chunks = await db.execute_fetchall("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx",
                                               (row[0],))
            texts.append(b"".join(bytes(c[0]) for c in chunks).decode("utf-8", errors="ignore"))
            add(Copy("materials", target, "the target material (bytes and search text; a tombstone row stays)"))
    values = sensitive_values("\n".join(texts))
    for gen in await _rows(db, "summary", session):
        cites = sorted(refs & set(gen.get("sources", [])))
        found = repeats(gen["text"], values)
        if cites or found:
            add(Copy("summaries", f"gen:{gen['generation']}", f"cites {', '.join(cites)}" if cites
                     else f"repeats {len(found)} sensitive value(s) of the targets"))
    for cand in await _rows(db, "candidate", session):
        summary = cand.get("summary") if isinstance(cand.get("summary"), str) else ""
        cites = sorted(refs & set(cand.get("sources", [])))
        found = repeats(summary, values)
        if cites or found:
            add(Copy("candidates", cand["id"], f"cites {', '.join(cites)}" if cites
                     else f"repeats {len(found)} sensitive value(s) of the targets"))
    if any(t.startswith("evt:") for t in refs):  # the original and every segment appended while it was followed
        for (original,) in await db.execute_fetchall("SELECT id FROM materials WHERE session = ? AND media_type = ? "
                                                     "AND deleted_at IS NULL ORDER BY material_id",
                                                     (session, ORIGINAL_MEDIA_TYPE)):
            add(Copy("original", original, "the imported transcript holds the events' original lines"))
    return out


async def check(store: Store, request: str, session: str | None = None) -> Coverage:
    async with store.snapshot() as db:
        return await coverage(db, await load_by_id(db, "deletion_request", request, session))


async def list_requests(store: Store, session: str) -> list[Coverage]:
    async with store.snapshot() as db:
        return [await coverage(db, r) for r in await _rows(db, "deletion_request", session)]


@dataclass(slots=True)
class DeletionResult:
    coverage: Coverage
    removed: dict[str, int]
    refusals: list[Refusal]

    def as_dict(self) -> dict[str, Any]:
        if self.refusals:
            return {"request": self.coverage.request, "refusals": [r.as_dict() for r in self.refusals]}
        return {"request": self.coverage.request, "status": "done", "removed": sum(self.removed.values()),
                "by_kind": self.removed}


async def _material_tombstone(db: aiosqlite.Connection, session: str, material: str, when: str) -> None:
    row = await fetch_one(db, "SELECT material_id FROM materials WHERE session = ? AND id = ?", (session, material))
    if row is None:
        return
    await db.execute("DELETE FROM material_chunks WHERE material_id = ?", (row[0],))
    await db.execute("DELETE FROM materials_fts WHERE rowid = ?", (row[0],))
    await db.execute("UPDATE materials SET deleted_at = ? WHERE material_id = ?", (when, row[0]))


async def delete(store: Store, request: str, *, actor: str, session: str | None = None) -> DeletionResult:
    async with store.transaction() as db:
        req = await load_by_id(db, "deletion_request", request, session)
        cov = await coverage(db, req)
        if req["status"] != "pending":
            return DeletionResult(cov, {}, [Refusal("already_decided", f"deletion request {request!r} was already "
                                                    "carried out.")])
        sid, when = req["session"], utc_now()
        removed: dict[str, int] = {}
        for copy in cov.copies:
            if copy.where == "events":
                seq = int(copy.id[4:])
                row = await fetch_one(db, "SELECT event_id, content FROM events WHERE session = ? AND seq = ?", (sid, seq))
                if row[1] is not None:
                    await db.execute("INSERT INTO events_fts (events_fts, rowid, content) VALUES ('delete', ?, ?)",
                                     (row[0], row[1]))
                await db.execute("DELETE FROM events WHERE event_id = ?", (row[0],))
                removed["event"] = removed.get("event", 0) + 1
            elif copy.where in ("materials", "original"):
                await _material_tombstone(db, sid, copy.id, when)
                removed["material_bytes"] = removed.get("material_bytes", 0) + 1
            elif copy.where == "summaries":
                await db.execute("DELETE FROM summaries WHERE session = ? AND generation = ?", (sid, int(copy.id[4:])))
                removed["summary"] = removed.get("summary", 0) + 1
            elif copy.where == "candidates":
                await db.execute("DELETE FROM candidates WHERE session = ? AND id = ?", (sid, copy.id))
                removed["candidate"] = removed.get("candidate", 0) + 1
        await db.execute("UPDATE deletion_requests SET status = 'done' WHERE session = ? AND id = ?", (sid, request))
        row = await fetch_one(db, "SELECT context_version, goal_revision FROM sessions WHERE id = ?", (sid,))
        version = int(row[0]) + 1
        await db.execute("UPDATE sessions SET context_version = ? WHERE id = ?", (version, sid))
        await ledger.append(db, [ledger.NewEntry(sid, "deletion", actor, {
            "request": request, "targets": req["targets"], "copies": [c.as_dict() for c in cov.copies],
            "removed": {k: v for k, v in removed.items() if k != "material_bytes"},
            "materials_tombstoned": removed.get("material_bytes", 0), "reason": req.get("reason", ""),
            "context_version": version, "goal_revision": int(row[1]),
            "status_set": {"type": "deletion_request", "identity": [sid, request], "status": "done"}})])
    cov.status = "done"
    return DeletionResult(cov, removed, [])
