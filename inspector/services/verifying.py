"""Verify a store: the ledger's hash chain, and the projections it vouches for.

What is checked, and nothing more is claimed:
1. every ledger entry's hash recomputed from its body and the previous hash;
2. each session's context_version and goal_revision equal the last values the ledger recorded;
3. each session's record counts equal what the ledger says was added (minus removed);
4. every record row's identity digest recomputed from its columns (an in-place edit shows);
5. every material's chunk list bound to its content hash;
6. every status the ledger set (``status_set``: candidate accepted, action reconciled, …) is the
   row's status now, unless a later deletion removed the row (its ``removed_rows``);
7. every ``action.reconcile`` entry names its evidence and reason (an unknown outcome never
   changes without them).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from inspector.domain.canonical import GENESIS_HASH, ledger_hash
from inspector.domain.sif import identity_digest
from inspector.domain.sif_schema import IDENTITY_FIELDS
from inspector.store import ledger
from inspector.store.connection import Store, fetch_one
from inspector.store.materials import chunk_binding
from inspector.store.tables import SPECS


@dataclass(slots=True)
class VerifyReport:
    ok: bool = True
    entries: int = 0
    first_break: dict[str, Any] | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)

    def fail(self, problem: dict[str, Any]) -> None:
        self.ok = False
        if self.first_break is None:
            self.first_break = problem
        self.problems.append(problem)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "entries": self.entries, "first_break": self.first_break,
                "problems": self.problems[:50]}


async def verify_store(store: Store) -> VerifyReport:
    report = VerifyReport()
    versions: dict[str, tuple[int | None, int | None]] = {}
    counts: Counter[tuple[str, str]] = Counter()
    statuses: dict[tuple[str, tuple[Any, ...]], str] = {}
    prev = GENESIS_HASH
    expected_seq = 1
    async with store.snapshot():
        async for entry in ledger.iter_entries(store.db):
            report.entries += 1
            if entry.seq != expected_seq:
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"ledger entry {expected_seq} is missing (next is {entry.seq})"})
            expected_seq = entry.seq + 1
            if entry.prev_hash != prev:
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"entry {entry.seq} does not point at the previous entry's hash"})
            if ledger_hash(entry.prev_hash, entry.body()) != entry.hash:
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"entry {entry.seq} was changed after it was written "
                                        "(its hash does not match its content)"})
            prev = entry.hash
            _track(entry, versions, counts)
            if entry.source == "inspector":  # rows a deletion removed no longer owe the status set earlier
                for gone in entry.payload.get("removed_rows") or []:
                    if isinstance(gone, dict):
                        statuses.pop((str(gone.get("type")), tuple(gone.get("identity") or ())), None)
            if entry.kind == "action.reconcile" and not (entry.payload.get("evidence") and entry.payload.get("reason")):
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"entry {entry.seq} reconciles action {entry.payload.get('action')!r} "
                                        "without naming evidence and a reason"})
            sets = entry.payload.get("status_set")
            for status_set in sets if isinstance(sets, list) else [sets]:
                if isinstance(status_set, dict) and status_set.get("type") in SPECS:
                    statuses[(status_set["type"], tuple(status_set.get("identity", ())))] = str(status_set.get("status"))
        await _check_sessions(store, versions, report)
        await _check_counts(store, counts, report)
        await _check_digests(store, report)
        await _check_materials(store, report)
        await _check_statuses(store, statuses, report)
    return report


async def _check_statuses(store: Store, statuses: dict[tuple[str, tuple[Any, ...]], str], report: VerifyReport) -> None:
    for (type_, identity), want in statuses.items():
        spec = SPECS[type_]
        fields = IDENTITY_FIELDS[type_]
        where = " AND ".join(f"{f} = ?" for f in fields)
        row = await fetch_one(store.db, f"SELECT status FROM {spec.table} WHERE {where}", identity)
        if row is None or row[0] != want:
            report.fail({"where": spec.table, "identity": list(identity),
                         "message": f"{type_} {list(identity)} shows status {row[0] if row else 'nothing'} but the "
                                    f"ledger set it to {want}"})


def _track(entry: ledger.LedgerEntry, versions: dict[str, tuple[int | None, int | None]],
           counts: Counter[tuple[str, str]]) -> None:
    if entry.session is None:
        return
    cv, gr = versions.get(entry.session, (None, None))
    p = entry.payload
    if isinstance(p.get("context_version"), int):
        cv = p["context_version"]
    if isinstance(p.get("goal_revision"), int):
        gr = p["goal_revision"]
    versions[entry.session] = (cv, gr)
    for key, sign in (("added", 1), ("removed", -1)):
        for type_, n in (p.get(key) or {}).items() if entry.source == "inspector" else ():
            if isinstance(n, int):
                counts[(entry.session, type_)] += sign * n


async def _check_sessions(store: Store, versions: dict[str, tuple[int | None, int | None]],
                          report: VerifyReport) -> None:
    rows = await store.db.execute_fetchall("SELECT id, context_version, goal_revision FROM sessions")
    for sid, cv, gr in rows:
        want_cv, want_gr = versions.get(sid, (None, None))
        if want_cv is None:
            report.fail({"where": "sessions", "id": sid, "message": f"session {sid!r} has no ledger entry"})
            continue
        if (cv, gr) != (want_cv, want_gr):
            report.fail({"where": "sessions", "id": sid,
                         "message": f"session {sid!r} shows context v{cv} / goal r{gr} but the ledger says "
                                    f"v{want_cv} / r{want_gr}"})


async def _check_counts(store: Store, counts: Counter[tuple[str, str]], report: VerifyReport) -> None:
    for type_, spec in SPECS.items():
        column = "id" if type_ == "session" else "session"
        actual = {row[0]: int(row[1]) for row in await store.db.execute_fetchall(f"SELECT {column}, COUNT(*) FROM {spec.table} GROUP BY {column}")}
        sessions = {s for (s, t) in counts if t == type_} | set(actual)
        for sid in sessions:
            want, have = counts.get((sid, type_), 0), actual.get(sid, 0)
            if want != have:
                report.fail({"where": spec.table, "session": sid,
                             "message": f"{spec.table} holds {have} rows for {sid!r}; the ledger accounts for {want}"})


async def _check_digests(store: Store, report: VerifyReport) -> None:
    for type_, spec in SPECS.items():
        async with store.db.execute(f"SELECT {spec.select_columns}, digest FROM {spec.table}") as cur:
            async for row in cur:
                record = spec.to_record(row)
                if identity_digest(type_, record) != row[-1]:
                    ident = {k: record.get(k) for k in ("session", "id", "seq", "key", "version", "generation")
                             if k in record}
                    report.fail({"where": spec.table, **ident,
                                 "message": f"a {type_} row was edited in place (its digest no longer matches)"})


async def _check_materials(store: Store, report: VerifyReport) -> None:
    async with store.db.execute(
        "SELECT session, id, content_hash, chunk_hashes, chunk_binding FROM materials WHERE deleted_at IS NULL"
    ) as cur:
        async for sid, mid, chash, hashes, binding in cur:
            if chunk_binding(chash, bytes(hashes)) != binding:
                report.fail({"where": "materials", "session": sid, "id": mid,
                             "message": f"material {mid!r}: its chunk hashes are not bound to its content hash"})
