"""Import a sif/1 file into a store: all or nothing, idempotent, ledgered.

The file is parsed and validated completely before the store is opened for writing,
and everything is written in one transaction, so a bad file, a conflict or a killed
process leaves the store as it was; running the same import again completes it.
"""

from __future__ import annotations

import contextlib
import os
from collections import Counter, defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiosqlite

from inspector.domain.canonical import keyed_digest
from inspector.domain.errors import BadInput, InspectorError
from inspector.domain.protocol import CallShape, ProtocolProblem, find_problems
from inspector.domain.sif import SifFile, SifRecord, parse_lines
from inspector.store import ledger
from inspector.store.connection import Store, open_store
from inspector.store.jsoncodec import fast_canonical, fast_loads
from inspector.services.record_writer import write_records

ProgressFn = Callable[[str, int, int], None]


@dataclass(slots=True)
class ImportReport:
    store: str
    sessions: list[str] = field(default_factory=list)
    added: dict[str, int] = field(default_factory=dict)
    skipped: dict[str, int] = field(default_factory=dict)
    problems: list[ProtocolProblem] = field(default_factory=list)
    created_store: bool = False

    def as_dict(self) -> dict[str, Any]:
        return {
            "store": self.store,
            "sessions": self.sessions,
            "events": self.added.get("event", 0),
            "materials": self.added.get("material", 0),
            "added": self.added,
            "skipped": self.skipped,
            "problems": [{"code": p.code, "line": p.line, "message": p.message, "session": p.session,
                          "seq": p.seq} for p in self.problems],
        }


def read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError as exc:
        raise BadInput(f"cannot read {path}: {exc.strerror}", code="unreadable") from None


def derived_context_version(records: list[SifRecord]) -> int:
    """DESIGN §5: the highest base_version / context_version seen on import, or 1."""
    seen = [1]
    for rec in records:
        for name in ("base_version", "context_version"):
            value = rec.record.get(name)
            if rec.type != "session" and isinstance(value, int):
                seen.append(value)
    return max(seen)


_PROTOCOL_KINDS = frozenset({"tool_call", "tool_result", "assistant_message"})


def protocol_problems(parsed: SifFile) -> list[ProtocolProblem]:
    adapters = {r.record["id"]: r.record["adapter"] for r in parsed.of_type("session")}
    shapes: dict[str, list[CallShape]] = defaultdict(list)
    for rec in parsed.of_type("event"):
        r = rec.record
        if r["kind"] not in _PROTOCOL_KINDS:
            continue  # plain messages cannot break call pairing or reasoning rules
        shapes[r["session"]].append(CallShape(r["seq"], r["kind"], r.get("call_id"), bool(r.get("tools_present")),
                                              bool(r.get("reasoning_content")), rec.line))
    found: list[ProtocolProblem] = []
    for session, events in shapes.items():
        found.extend(find_problems(session, adapters.get(session, "generic"), events))
    return found


async def _stored_sessions(db: aiosqlite.Connection, ids: set[str]) -> dict[str, tuple[int, int]]:
    marks = ", ".join("?" for _ in ids)
    async with db.execute(
        f"SELECT id, goal_revision, context_version FROM sessions WHERE id IN ({marks})", tuple(ids)
    ) as cur:
        return {row[0]: (int(row[1]), int(row[2])) for row in await cur.fetchall()}


async def import_parsed(store: Store, parsed: SifFile, *, actor: str, file_bytes_digest: str,
                        file_name: str, progress: ProgressFn | None = None) -> ImportReport:
    """Write one parsed file in one transaction (the caller's store stays open)."""
    report = ImportReport(store=str(store.path))
    per_session: dict[str, list[SifRecord]] = defaultdict(list)
    for rec in parsed.records:
        per_session[rec.session].append(rec)
    declared = set(parsed.session_ids)
    total = len(parsed.records)
    done = 0

    def step(n: int) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress("writing", done, total)

    async with store.transaction() as db:
        stored = await _stored_sessions(db, set(per_session)) if per_session else {}
        for session, recs in per_session.items():
            if session not in declared and session not in stored:
                first = recs[0]
                raise BadInput(f"{first.type} refers to session {session!r}, which is neither declared in this "
                               "file nor in the store", code="unknown_session", line=first.line)
        versions = {s: derived_context_version(r) for s, r in per_session.items()}
        async with db.execute("SELECT COALESCE(MAX(event_id), 0) FROM events") as cur:
            row = await cur.fetchone()
        last_event_id = int(row[0]) if row else 0
        added, skipped, _written = await write_records(
            db, parsed.records, set(stored), session_versions=versions, progress=step)
        await db.execute(
            "INSERT INTO events_fts (rowid, content) SELECT event_id, content FROM events "
            "WHERE event_id > ? AND content IS NOT NULL", (last_event_id,))
        entries = await _sif_ledger_records(db, parsed, added)
        for session in per_session:
            goal, version = stored.get(session, (0, 0))
            new_goal = max(goal, _file_goal_revision(parsed, session))
            new_version = max(version, versions[session])
            if session in stored and (new_goal, new_version) != (goal, version):
                await db.execute("UPDATE sessions SET goal_revision = ?, context_version = ? WHERE id = ?",
                                 (new_goal, new_version, session))
            counts = {t: n for (s, t), n in added.items() if s == session}
            if counts:
                entries.append(ledger.NewEntry(session, "import", actor, {
                    "file_name": file_name, "file_digest": file_bytes_digest, "added": counts,
                    "skipped": {t: n for (s, t), n in skipped.items() if s == session},
                    "context_version": new_version, "goal_revision": new_goal,
                }))
        await ledger.append(db, entries)
    for (_s, t), n in added.items():
        report.added[t] = report.added.get(t, 0) + n
    for (_s, t), n in skipped.items():
        report.skipped[t] = report.skipped.get(t, 0) + n
    report.sessions = list(per_session) or list(declared)
    report.problems = protocol_problems(parsed)
    return report


def _file_goal_revision(parsed: SifFile, session: str) -> int:
    for rec in parsed.of_type("session"):
        if rec.record["id"] == session:
            return int(rec.record["goal_revision"])
    return 0


async def _sif_ledger_records(db: aiosqlite.Connection, parsed: SifFile,
                              added: Counter[tuple[str, str]]) -> list[ledger.NewEntry]:
    """Acts a harness recorded (sif `ledger` lines) join the chain once, in file order."""
    entries: list[ledger.NewEntry] = []
    for rec in parsed.of_type("ledger"):
        r = rec.record
        async with db.execute("SELECT 1 FROM ledger WHERE session = ? AND record_digest = ?",
                              (r["session"], rec.digest)) as cur:
            if await cur.fetchone():
                continue
        extra = {k: val for k, val in r.items() if k not in {"type", "session", "kind", "actor", "at", "payload"}}
        payload = dict(r.get("payload", {}))
        if extra:
            payload = {**payload, "_sif_extra": extra}
        entries.append(ledger.NewEntry(r["session"], r["kind"], r["actor"], payload, at=r.get("at"),
                                       source="sif", record_digest=rec.digest))
        added[(r["session"], "ledger")] += 1
    return entries


def _remove_store_files(path: Path) -> None:
    for suffix in ("", "-wal", "-shm", "-journal"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{path}{suffix}")


async def import_file(source: Path, into: Path, *, actor: str, progress: ProgressFn | None = None) -> ImportReport:
    """Import a sif/1 file; a store created for it is removed again if the import fails."""
    if progress is not None:
        progress("reading", 0, 1)
    raw = read_bytes(source)
    parsed = parse_lines(raw.split(b"\n"), loads=fast_loads, encode=fast_canonical)
    created = not (into.exists() and into.stat().st_size > 0)
    try:
        store = await open_store(into, create=True)
    except InspectorError:
        if created:
            _remove_store_files(into)
        raise
    try:
        report = await import_parsed(store, parsed, actor=actor,
                                     file_bytes_digest=keyed_digest(store.digest_key, raw),
                                     file_name=source.name, progress=progress)
    except BaseException:
        await store.close()
        if created:
            _remove_store_files(into)
        raise
    await store.close()
    report.created_store = created
    return report
