"""Deletion requests: see every copy a request must cover, then carry it out.

Carrying out, in one transaction: removes the events (and their search entries), deletes
material bytes and search text while keeping a tombstone row whose hashes become keyed
digests (a plain sha256 of a short secret can be brute-forced), removes every stub, state
record version, action, summary, candidate and handoff that repeats a value of the
targets, and keeps the request's reason only as a keyed digest. The search index is then
optimised, so no segment keeps trigram fragments of what was deleted. One ledger entry
holds ids, counts, tombstones for the timeline, a reason *code* and the reason's digest,
never content. After the commit the WAL is checkpointed and truncated; with
``secure_delete`` on (every connection sets it) freed pages are zeroed.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any

import aiosqlite

from inspector.domain.canonical import keyed_digest
from inspector.domain.deletion import CHECKED, NOT_CHECKED, reason_code
from inspector.domain.deletion_recurrence import fingerprints, letter_fingerprints
from inspector.domain.errors import Refusal
from inspector.domain.plurals import counted as _n
from inspector.domain.sif import identity_digest
from inspector.domain.terminal_safe import quoted
from inspector.domain.trust import reviewer_name
from inspector.services import verify_pg_schema
from inspector.services.deletion_cache import cache_warnings
from inspector.services.deletion_names import REWRITTEN_FIELD, REWRITTEN_TITLE, one_remedy, redacted_extra
from inspector.services.deletion_outside import outside_warnings
from inspector.services.deletion_recurrence import digester, later_copies
from inspector.services.deletion_scan import Coverage, coverage
from inspector.services.deletion_stores import store_warnings
from inspector.services.lookup import load_by_id
from inspector.store import deletion_residue, ledger, search_index
from inspector.store.connection import Store, checkpoint, fetch_one, utc_now
from inspector.store.jsoncodec import fast_canonical as canonical_json
from inspector.store.materials import chunk_binding
from inspector.store.schema_expected import SCHEMA_SQL, foreign_objects
from inspector.store.tables import SPECS

__all__ = ["Coverage", "DeletionResult", "check", "delete", "list_requests"]


async def check(store: Store, request: str, session: str | None = None) -> Coverage:
    async with store.snapshot() as db:
        cov = await coverage(db, await load_by_id(db, "deletion_request", request, session))
    cov.warnings += outside_warnings(getattr(store, "path", None), cov.values, cov.reason)
    cov.warnings += await asyncio.to_thread(store_warnings, getattr(store, "path", None), cov.values)  # files: off the loop
    if cov.status == "done":  # a value it removed, back in an event imported since (a followed transcript)
        async with store.snapshot() as db:
            later = await later_copies(db, store.digest_key, session=cov.session, request=request)
        if later:
            cov.warnings.append(f"{_n(len(later), 'event')} imported after this request was carried out {'holds' if len(later) == 1 else 'hold'} a value "
                                f"it removed (later copies, kept): {', '.join(f'evt:{p.seq}' for p in later[:20])}"
                                " — name them in a new deletion request to remove them")
    if cov.status == "pending":
        cov.warnings += cache_warnings(cov.values, remove=False)
        async with store.snapshot() as db:
            foreign = await _foreign_schema(store, db)
        if foreign:
            cov.warnings.append(_foreign_sentence(request, foreign) + " `delete` refuses while it is so.")
    return cov


async def _foreign_schema(store: Store, db: aiosqlite.Connection) -> list[str]:
    """Tables, triggers, views and indexes of this SQLite store the format does not make (or makes
    otherwise). A deletion finds copies in the tables it knows; a trigger added behind the
    inspector's back can copy every new event into a table of its own, where the value would stay
    after a deletion said "done" (docs/reviews/untrusted-seven.md). On PostgreSQL its triggers,
    functions, rules, policies and indexes, as verify compares them (services/verify_pg_schema.py):
    a table alone makes no copy by itself."""
    if store.dialect == "postgresql":  # a trigger, function, rule or policy added or altered (not its tables)
        said: list[dict[str, Any]] = []
        await verify_pg_schema.check_pg_schema(store, said.append)
        return sorted({str(o) for p in said if p["code"] == "schema_changed" for o in p.get("objects") or []})
    return foreign_objects({(str(t), str(n)): sql for t, n, sql in await db.execute_fetchall(SCHEMA_SQL)})


def _foreign_sentence(request: str, foreign: list[str]) -> str:
    shown = ", ".join(foreign[:6]) + (f" and {len(foreign) - 6} more" if len(foreign) > 6 else "")
    return (f"the store holds {shown}, which the inspector's format does not make: deletion request {quoted(request)} "
            "cannot find or remove a copy kept there (`inspector verify STORE` names the change).")


async def list_requests(store: Store, session: str) -> list[Coverage]:
    async with store.snapshot() as db:
        spec = SPECS["deletion_request"]
        rows = await db.execute_fetchall(f"SELECT {spec.select_columns} FROM {spec.table} WHERE session = ?",
                                         (session,))
        return [await coverage(db, spec.to_record(r)) for r in rows]


@dataclass(slots=True)
class DeletionResult:
    coverage: Coverage
    removed: dict[str, int]
    refusals: list[Refusal]
    wal_truncated: bool = False

    def as_dict(self) -> dict[str, Any]:
        if self.refusals:
            return {"request": self.coverage.request, "refusals": [r.as_dict() for r in self.refusals],
                    "kept": self.coverage.kept}
        rewrote = [c.id for c in self.coverage.copies if c.where == "sessions"]
        return {"request": self.coverage.request, "status": "done", "copies": len(self.coverage.copies),
                "removed": sum(self.removed.values()),
                "by_kind": self.removed, "rewritten": rewrote, "warnings": self.coverage.warnings,
                "wal_truncated": self.wal_truncated,
                "checked": list(CHECKED), "not_checked": list(NOT_CHECKED)}


# Copy.where -> (table, sif type, WHERE clause on (session, id part)) for rows deleted outright.
_ROWS = {
    "stubs": ("stubs", "stub", "id = ?"),
    "actions": ("actions", "action", "id = ?"),
    "summaries": ("summaries", "summary", "generation = ?"),
    "candidates": ("candidates", "candidate", "id = ?"),
    "handoffs": ("handoffs", "handoff", "id = ?"),
}


async def _rewrite(db: aiosqlite.Connection, type_: str, where: str, params: tuple[Any, ...],
                   changes: dict[str, Any]) -> None:
    """Replace fields of one record (a redaction) and store the digest of what it now holds."""
    spec = SPECS[type_]
    row = await fetch_one(db, f"SELECT {spec.select_columns} FROM {spec.table} WHERE {where}", params)
    if row is None:
        return
    record = {**spec.to_record(row), **changes}
    sets = ", ".join(f"{k} = ?" for k in changes)
    await db.execute(f"UPDATE {spec.table} SET {sets}, digest = ? WHERE {where}",
                     (*changes.values(), identity_digest(type_, record), *params))


async def _rewrite_session(db: aiosqlite.Connection, session: str, request: str, rewrite: dict[str, Any]) -> None:
    """The session's title and record fields that held a value get a new value naming the
    deletion (nothing refers to them; the deletion's ledger entry seals the new row)."""
    spec = SPECS["session"]
    row = await fetch_one(db, f"SELECT {spec.select_columns}, extra FROM sessions WHERE id = ?", (session,))
    if row is None:
        return
    changes: dict[str, Any] = {}
    if rewrite.get("title"):
        changes["title"] = REWRITTEN_TITLE.format(request=request)
    keys = list(rewrite.get("extra") or [])
    if keys:
        changes["extra"] = canonical_json(redacted_extra(row[-1], keys, request))
    record = spec.to_record(row[:-1])
    record.update({k: v for k, v in changes.items() if k != "extra"})
    record.update({k: REWRITTEN_FIELD.format(request=request) for k in keys})
    sets = ", ".join(f"{k} = ?" for k in changes)
    await db.execute(f"UPDATE sessions SET {sets}, digest = ? WHERE id = ?",
                     (*changes.values(), identity_digest("session", record), session))


async def _tombstone_material(store: Store, db: aiosqlite.Connection, session: str, material: str,
                              when: str) -> None:
    row = await fetch_one(db, "SELECT material_id, content_hash FROM materials WHERE session = ? AND id = ?",
                          (session, material))
    if row is None:
        return
    await db.execute("DELETE FROM material_chunks WHERE material_id = ?", (row[0],))
    await search_index.unindex_material(db, row[0])
    keyed = row[1] if row[1].startswith("hmac-sha256:") else keyed_digest(store.digest_key, row[1].encode("ascii"))
    await db.execute("UPDATE materials SET deleted_at = ?, chunk_hashes = x'', chunk_binding = ? WHERE material_id = ?",
                     (when, chunk_binding(keyed, b""), row[0]))
    await _rewrite(db, "material", "material_id = ?", (row[0],), {"content_hash": keyed})
    for (stub,) in await db.execute_fetchall("SELECT id FROM stubs WHERE session = ? AND material = ? AND "
                                             "content_hash = ?", (session, material, row[1])):
        await _rewrite(db, "stub", "session = ? AND id = ?", (session, stub), {"content_hash": keyed})


async def _delete_event(db: aiosqlite.Connection, session: str, seq: int) -> dict[str, Any] | None:
    row = await fetch_one(db, "SELECT event_id, content, IFNULL(at, ''), kind, call_id FROM events WHERE session = ? "
                          "AND seq = ?", (session, seq))
    if row is None:
        return None
    await search_index.unindex_event(db, row[0], row[1])
    await db.execute("DELETE FROM events WHERE event_id = ?", (row[0],))
    stone = {"seq": seq, "at": row[2], "kind": row[3]}
    return {**stone, "call_id": row[4]} if row[4] else stone


def kept_refusal(request: str, cov: Coverage) -> Refusal:
    """``copy_kept``: every copy the request cannot remove, so the refusal alone is enough to act
    on; the way out is the same for all (the app says it when ``x`` is pressed, too)."""
    shown = "; ".join(f"{k['what']} {quoted(k['name'])}" for k in cov.kept)
    ways = one_remedy(cov.session, cov.kept)
    return Refusal("copy_kept", f"deletion request {quoted(request)} cannot remove {_n(len(cov.kept), 'copy')} of what it "
                                f"targets, so nothing was deleted: {shown}. To remove them: {ways}.")


async def delete(store: Store, request: str, *, actor: str, session: str | None = None) -> DeletionResult:
    actor = reviewer_name(actor)
    async with store.transaction() as db:
        req = await load_by_id(db, "deletion_request", request, session)
        cov = await coverage(db, req)
        if req["status"] != "pending":
            return DeletionResult(cov, {}, [Refusal("already_decided", f"deletion request {quoted(request)} was already "
                                                    "carried out.")])
        foreign = await _foreign_schema(store, db)
        if foreign:  # a table or trigger no deletion knows of may hold (or keep making) a copy
            return DeletionResult(cov, {}, [Refusal("schema_changed", "Nothing was deleted: "
                                                    + _foreign_sentence(request, foreign))])
        if cov.kept:  # never "deleted" while a copy stays: nothing is removed (deletion_names.py)
            return DeletionResult(cov, {}, [kept_refusal(request, cov)])
        sid, when = req["session"], utc_now()
        removed: dict[str, int] = {}
        removed_rows: list[dict[str, Any]] = []
        tombstones: list[dict[str, Any]] = []
        tombstoned = 0

        def count(type_: str, identity: list[Any]) -> None:
            removed[type_] = removed.get(type_, 0) + 1
            removed_rows.append({"type": type_, "identity": identity})

        for copy in cov.copies:
            if copy.where == "events":
                stone = await _delete_event(db, sid, int(copy.id[4:]))
                if stone is not None:
                    tombstones.append(stone)
                    count("event", [sid, stone["seq"]])
            elif copy.where in ("materials", "original"):
                await _tombstone_material(store, db, sid, copy.id, when)
                tombstoned += 1
            elif copy.where == "state":
                key, _, version = copy.id.rpartition("@v")
                await db.execute("DELETE FROM state_records WHERE session = ? AND key = ? AND version = ?",
                                 (sid, key, int(version)))
                count("state", [sid, key, int(version)])
            elif copy.where in _ROWS:
                table, type_, where = _ROWS[copy.where]
                ident: Any = int(copy.id[4:]) if type_ == "summary" else copy.id
                await db.execute(f"DELETE FROM {table} WHERE session = ? AND {where}", (sid, ident))
                count(type_, [sid, ident])
            elif copy.where == "deletion_requests":
                other = await fetch_one(db, "SELECT reason FROM deletion_requests WHERE session = ? AND id = ?",
                                        (sid, copy.id))
                if other is not None and other[0] and not other[0].startswith("hmac-sha256:"):
                    await _rewrite(db, "deletion_request", "session = ? AND id = ?", (sid, copy.id),
                                   {"reason": keyed_digest(store.digest_key, other[0].encode("utf-8"))})
        rewritten = ["deletion_request", "material", "stub"]
        if cov.rewrite.get("title") or cov.rewrite.get("extra"):
            await _rewrite_session(db, sid, request, cov.rewrite)
            rewritten.insert(0, "session")
        if removed.get("event"):
            await search_index.after_events_deleted(db)  # the watermark stays at or below the last event
        await search_index.compact(db)  # rewrite the indexes without the deleted rows' segments
        await db.execute("UPDATE deletion_requests SET status = 'done' WHERE session = ? AND id = ?", (sid, request))
        row = await fetch_one(db, "SELECT context_version, goal_revision FROM sessions WHERE id = ?", (sid,))
        version = int(row[0]) + 1
        await db.execute("UPDATE sessions SET context_version = ? WHERE id = ?", (version, sid))
        reason = req.get("reason") or ""
        await ledger.append(db, [ledger.NewEntry(sid, "deletion", actor, {
            "request": request, "targets": req["targets"], "copies": [c.as_dict() for c in cov.copies],
            "removed": removed, "removed_rows": removed_rows, "tombstones": tombstones,
            # redacted in place (a reason digested, a material tombstoned, a stub's hash keyed): sealed again
            "rewritten": rewritten,
            "deleted_at": when,  # the tombstones' time, so verify can tell a changed one
            "materials_tombstoned": tombstoned, "reason_code": reason_code(req),
            "reason_digest": reason if reason.startswith("hmac-sha256:")
            else keyed_digest(store.digest_key, reason.encode("utf-8")),
            "warnings": len(cov.warnings), "context_version": version, "goal_revision": int(row[1]),
            # keyed digests of the values removed, so a later import can tell one arriving again
            "value_digests": sorted({*fingerprints(cov.values, digester(store.digest_key)),
                                     *letter_fingerprints(cov.values, digester(store.digest_key))}),
            "status_set": {"type": "deletion_request", "identity": [sid, request], "status": "done"}})])
    cov.status = "done"
    truncated = await checkpoint(store)
    if not truncated and getattr(store, "dialect", "sqlite") == "sqlite":  # the log's older frames hold the text
        seq = await fetch_one(store.db, "SELECT MAX(seq) FROM ledger WHERE kind = 'deletion'")
        deletion_residue.unfinished(store.path, request, int(seq[0]) if seq and seq[0] is not None else 0)
    cov.warnings += outside_warnings(getattr(store, "path", None), cov.values, cov.reason)
    cov.warnings += await asyncio.to_thread(store_warnings, getattr(store, "path", None), cov.values)  # files: off the loop
    cov.warnings += cache_warnings(cov.values, remove=True)
    return DeletionResult(cov, {**removed, **({"material_bytes": tombstoned} if tombstoned else {})}, [],
                          truncated)
