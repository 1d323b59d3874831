"""Writing parsed sif records into a store inside the caller's transaction, chunk by chunk.

A record whose identity is already stored is skipped when identical and refused
(by line) when it differs; the same goes for repeats inside one file. A record a deletion
removed (its entry's ``removed_rows``, a tombstoned material) is not written again: the file
it came from still holds it (the transcript, an export written before), and importing that
file again must not undo the deletion — it is skipped with a ``deleted_record`` problem. New sessions are
written with a bulk insert under a savepoint, falling back to one row at a time only when
the bulk insert meets a repeat, so a first import pays nothing for the check.
"""

from __future__ import annotations

import functools
import json
import operator
import sqlite3
from collections import Counter, defaultdict
from typing import Any

import aiosqlite

from inspector.domain.errors import BadInput
from inspector.domain.protocol import CallShape, ProtocolProblem
from inspector.domain.sif import SifRecord
from inspector.domain.sif_schema import IDENTITY_FIELDS
from inspector.domain.terminal_safe import inert, quoted
from inspector.domain.trust import SOURCE_TRUST, UNTRUSTED, label_conflict, unconfirmed_state, unverified_act
from inspector.store import bulk, materials, seals
from inspector.store.connection import fetch_one
from inspector.store.tables import SPECS, WRITE_ORDER

SMALL_BATCH = 512  # records of one type: read by key below this, the whole session's digests above it
PROTOCOL_KINDS = frozenset({"tool_call", "tool_result", "assistant_message"})
_FIRST = operator.itemgetter(0)
# A CallShape from its six fields without the named tuple's Python-level constructor (one per
# call, result and assistant message an import reads).
new_shape = functools.partial(tuple.__new__, CallShape)
# The status a record of each type starts with when its file does not say (actions have none).
STATUS_DEFAULTS: dict[str, str | None] = {"state": "active", "candidate": "pending", "handoff": "pending",
                                          "deletion_request": "pending", "action": None}


def _name(rec: SifRecord) -> str:
    parts = rec.identity[1:] if rec.type != "session" else rec.identity
    return " / ".join(inert(p) for p in parts)


def _conflict(rec: SifRecord) -> BadInput:
    return BadInput(f"{rec.type} {_name(rec)} differs from an earlier record with the same identity (in this file "
                    "or already in the store); nothing was written", code="conflicting_record", line=rec.line,
                    identity=rec.identity)


class RecordWriter:
    """Accumulates what one import wrote: counts, derived versions, protocol shapes."""

    def __init__(self, db: aiosqlite.Connection, stored: dict[str, tuple[int, int]]) -> None:
        self.db = db
        self.stored = stored  # session -> (goal_revision, context_version) before this import
        self.added: Counter[tuple[str, str]] = Counter()
        self.skipped: Counter[tuple[str, str]] = Counter()
        self.declared: dict[str, dict[str, Any]] = {}
        self.first_use: dict[str, SifRecord] = {}
        self.versions: dict[str, int] = defaultdict(lambda: 1)
        self.shapes: dict[str, list[CallShape]] = defaultdict(list)
        self.stub_lines: dict[str, dict[str, int]] = defaultdict(dict)  # session -> stub id -> line
        self.ledger_records: list[SifRecord] = []
        # What verify replays: each added record's status unless it is the type's default, and
        # each added material's chunk binding (docs/store-format.md, "What verify replays").
        self.initial_status: dict[str, dict[str, dict[str, list[list[Any]]]]] = defaultdict(dict)
        self.bindings: dict[str, dict[str, str]] = defaultdict(dict)
        self.trust_problems: list[ProtocolProblem] = []
        # decided statuses a file claimed and the import did not take (domain/trust.py ACT_STATUSES)
        self.unverified: dict[str, list[dict[str, str]]] = defaultdict(list)
        self._known: dict[tuple[str, str], dict[tuple[Any, ...], str]] = {}
        self._gone: dict[str, dict[tuple[str, tuple[Any, ...]], str]] = {}
        # (session, type) -> the rows written, in the order written (their count and digests'
        # hash): in an empty store, every row a session has, which its import entry's seals are
        # taken over (store/seals.py) instead of reading them back.
        self.written: dict[tuple[str, str], seals.RowDigests] = defaultdict(seals.RowDigests)

    async def write(self, records: list[SifRecord]) -> None:
        by_type: dict[str, list[SifRecord]] = defaultdict(list)
        events = by_type["event"]
        first_use, shapes, track_event = self.first_use, self.shapes, self._track_event
        for rec in records:
            if rec.type == "event":  # most records: the same as _track, without the branches that cannot apply
                r = rec.record
                session = r["session"]
                if session not in first_use:
                    first_use[session] = rec
                kind = r["kind"]
                if kind in PROTOCOL_KINDS:
                    shapes[session].append(new_shape((r["seq"], kind, r.get("call_id"), bool(r.get("tools_present")),
                                                      "reasoning_content" in r, rec.line)))
                # only a label claiming more than the kind's source, or a version, needs tracking
                if ("trust" in r and kind in SOURCE_TRUST and r["trust"] not in UNTRUSTED) or "base_version" in r \
                        or "context_version" in r:
                    track_event(rec, session)
                events.append(rec)
                continue
            self._track(rec)
            if rec.type == "ledger":
                self.ledger_records.append(rec)
            else:
                by_type[rec.type].append(rec)
        for type_ in WRITE_ORDER:
            if by_type.get(type_):
                await self._write_type(type_, by_type[type_])

    def _track_event(self, rec: SifRecord, session: str) -> None:
        r = rec.record
        if conflict := label_conflict(r["kind"], r.get("trust")):
            self.trust_problems.append(ProtocolProblem("trust_label_conflict", session, r["seq"],
                                                       f"event {r['seq']}: {conflict}", rec.line))
        for name in ("base_version", "context_version"):
            value = r.get(name)
            if isinstance(value, int) and value > self.versions[session]:
                self.versions[session] = value  # DESIGN §5: the highest seen, or 1

    def _track(self, rec: SifRecord) -> None:
        session = rec.session
        self.first_use.setdefault(session, rec)
        r = rec.record
        if rec.type == "session":
            self.declared[session] = r
        elif (act := unverified_act(rec.type, r)) is not None:
            self.unverified[session].append({"type": rec.type, "id": str(r.get("id")), "claimed": str(r["status"])})
            r["status"] = act[0]  # a projection, outside the identity digest: the record stays itself
            rec.row = None  # a row built while parsing holds the claimed status
            self.trust_problems.append(ProtocolProblem("unverified_act", session, 0, act[1], rec.line))
        if rec.type == "event" and (conflict := label_conflict(r["kind"], r.get("trust"))):
            self.trust_problems.append(ProtocolProblem("trust_label_conflict", session, r["seq"],
                                                       f"event {r['seq']}: {conflict}", rec.line))
        if rec.type == "event" and r["kind"] in PROTOCOL_KINDS:
            self.shapes[session].append(CallShape(r["seq"], r["kind"], r.get("call_id"), bool(r.get("tools_present")),
                                                  "reasoning_content" in r, rec.line))
        elif rec.type == "stub":
            self.stub_lines[session][r["id"]] = rec.line
        for name in ("base_version", "context_version"):
            value = r.get(name)
            if rec.type != "session" and isinstance(value, int) and value > self.versions[session]:
                self.versions[session] = value  # DESIGN §5: the highest seen, or 1

    async def _stored_digests(self, type_: str, session: str) -> dict[tuple[Any, ...], str]:
        key = (type_, session)
        if key not in self._known:
            spec = SPECS[type_]
            ident = IDENTITY_FIELDS[type_]
            where = "id = ?" if type_ == "session" else "session = ?"
            self._known[key] = {tuple(row[:-1]): row[-1] for row in await self.db.execute_fetchall(f"SELECT {', '.join(ident)}, digest FROM {spec.table} WHERE {where}", (session,))}
        return self._known[key]

    async def _write_type(self, type_: str, batch: list[SifRecord]) -> None:
        if not self.stored:  # a new store: nothing to compare with
            fresh = batch
        else:
            fresh = await self._unstored(type_, batch)
        if type_ == "state":  # said only of a record this import adds: a stored one keeps its own status
            self.trust_problems += [ProtocolProblem("unverified_act", rec.session, 0,
                                                    unconfirmed_state(rec.record, rec.claimed), rec.line)
                                    for rec in fresh if rec.claimed is not None]
        if type_ == "material":
            if len(fresh) > 1 and await self._materials_at_once(fresh):
                return
            for rec in fresh:
                await self._one(rec, self._write_material)
        else:
            await self._bulk(type_, fresh)

    async def _looked_up(self, type_: str, batch: list[SifRecord]) -> dict[tuple[str, str], dict[tuple[Any, ...], str]]:
        """For a small batch (a followed transcript's new lines), the stored digests of just its
        records' identities, read by key — not every row of the session (_stored_digests), which
        made each follow poll of a large session cost O(session). Types keyed by more than
        (session, one field) are left to _stored_digests."""
        ident = IDENTITY_FIELDS[type_]
        if len(batch) > SMALL_BATCH or len(ident) != 2 or ident[0] != "session":
            return {}
        wanted: dict[str, list[Any]] = defaultdict(list)
        for rec in batch:
            if rec.session in self.stored and (type_, rec.session) not in self._known:
                wanted[rec.session].append(rec.identity[1])
        found: dict[tuple[str, str], dict[tuple[Any, ...], str]] = {}
        for session, keys in wanted.items():
            marks = ", ".join("?" for _ in keys)
            rows = await self.db.execute_fetchall(
                f"SELECT session, {ident[1]}, digest FROM {SPECS[type_].table} WHERE session = ? AND {ident[1]} IN ({marks})",
                (session, *keys))
            found[(type_, session)] = {(row[0], row[1]): row[2] for row in rows}
        return found

    async def _unstored(self, type_: str, batch: list[SifRecord]) -> list[SifRecord]:
        fresh: list[SifRecord] = []
        looked_up = await self._looked_up(type_, batch)
        for rec in batch:
            if rec.session in self.stored:
                gone = await self._removed(rec.session)
                if gone and (request := gone.get((type_, tuple(rec.identity)))) is not None:
                    self._not_again(rec, request)
                    continue
                some = looked_up.get((type_, rec.session))
                prior = (some if some is not None else await self._stored_digests(type_, rec.session)).get(rec.identity)
                if prior is not None:
                    if prior != rec.digest:
                        raise _conflict(rec)
                    self.skipped[(rec.session, type_)] += 1
                    continue
            fresh.append(rec)
        return fresh

    async def _removed(self, session: str) -> dict[tuple[str, tuple[Any, ...]], str]:
        """(type, identity) -> the request whose deletion removed it, for one stored session."""
        if session not in self._gone:
            gone: dict[tuple[str, tuple[Any, ...]], str] = {}
            for (payload,) in await self.db.execute_fetchall(
                    "SELECT payload FROM ledger WHERE session = ? AND kind = 'deletion' AND source = 'inspector' "
                    "ORDER BY seq", (session,)):
                body = json.loads(payload)
                request = str(body.get("request"))
                for row in body.get("removed_rows") or ():
                    if isinstance(row, dict) and isinstance(row.get("identity"), list):
                        gone.setdefault((str(row.get("type")), tuple(row["identity"])), request)
                for copy in body.get("copies") or ():
                    if isinstance(copy, dict) and copy.get("where") in ("materials", "original"):
                        gone.setdefault(("material", (session, copy.get("id"))), request)
            self._gone[session] = gone
        return self._gone[session]

    def _not_again(self, rec: SifRecord, request: str) -> None:
        self.skipped[(rec.session, rec.type)] += 1
        seq = rec.record.get("seq") if rec.type == "event" else 0
        self.trust_problems.append(ProtocolProblem(
            "deleted_record", rec.session, seq if isinstance(seq, int) else 0,
            f"{rec.type} {_name(rec)} was removed by deletion {quoted(request)}: not imported again (the file still holds "
            "what the deletion removed; importing it must not undo the deletion)", rec.line))

    def _row(self, rec: SifRecord) -> tuple[Any, ...]:
        spec = SPECS[rec.type]
        if rec.type == "session":
            return spec.to_row(rec.record, rec.digest, (1,))  # context_version is set when the import ends
        return rec.row if rec.row is not None else spec.to_row(rec.record, rec.digest)

    async def _bulk(self, type_: str, fresh: list[SifRecord]) -> None:
        if not fresh:
            return
        spec = SPECS[type_]
        rows = [r.row for r in fresh] if type_ != "session" else []
        if type_ == "session" or None in rows:
            rows = [self._row(r) for r in fresh]
        await self.db.execute("SAVEPOINT bulk")
        try:
            await bulk.insert_rows(self.db, spec, rows)
        except sqlite3.IntegrityError:
            await self.db.execute("ROLLBACK TO bulk")
            await self.db.execute("RELEASE bulk")
            for rec in fresh:  # a repeat inside the file: find it row by row
                await self._one(rec, self._insert)
            return
        await self.db.execute("RELEASE bulk")
        by_session: dict[str, list[str]] = defaultdict(list)
        if type_ == "event":  # an event row starts with its session (tables.py), ends with its digest
            for session, n in Counter(map(_FIRST, rows)).items():
                self.added[(session, type_)] += n
            for row in rows:
                by_session[row[0]].append(row[-1])
        else:
            for rec in fresh:
                self.added[(rec.session, type_)] += 1
                by_session[rec.session].append(rec.digest)
                self._note(rec)
        for session, digests in by_session.items():
            self.written[(session, type_)].add(digests)

    async def _insert(self, rec: SifRecord) -> None:
        await self.db.execute(SPECS[rec.type].insert_sql, self._row(rec))

    async def _one(self, rec: SifRecord, insert: Any) -> None:
        await self.db.execute("SAVEPOINT one")
        try:
            await insert(rec)
        except sqlite3.IntegrityError as exc:
            await self.db.execute("ROLLBACK TO one")
            await self.db.execute("RELEASE one")
            spec = SPECS[rec.type]
            ident = IDENTITY_FIELDS[rec.type]
            where = " AND ".join(f"{f} = ?" for f in ident)
            row = await fetch_one(self.db, f"SELECT digest FROM {spec.table} WHERE {where}", rec.identity)
            if row is None:
                raise BadInput(f"{rec.type} {_name(rec)} could not be stored: {exc}", line=rec.line) from None
            if row[0] != rec.digest:
                raise _conflict(rec) from None
            self.skipped[(rec.session, rec.type)] += 1
            return
        await self.db.execute("RELEASE one")
        self.added[(rec.session, rec.type)] += 1
        self.written[(rec.session, rec.type)].add([rec.digest])
        self._note(rec)

    def _note(self, rec: SifRecord) -> None:
        status = rec.record.get("status")
        if rec.type in STATUS_DEFAULTS and status != STATUS_DEFAULTS[rec.type]:
            by_status = self.initial_status[rec.session].setdefault(rec.type, {})
            by_status.setdefault(str(status), []).append(list(rec.identity))

    async def _write_material(self, rec: SifRecord) -> None:
        material_id, lay = await self._material_row(rec)
        await materials.write_chunks(self.db, material_id, rec.payload or b"", lay.chunk_size)
        self.bindings[rec.session][rec.record["id"]] = lay.chunk_binding
        # its search text is indexed after the import (store/material_index.py, format 4)

    async def _material_row(self, rec: SifRecord) -> tuple[int, materials.ChunkLayout]:
        spec = SPECS["material"]
        data = rec.payload or b""
        lay = materials.layout_for(data, rec.record["content_hash"])
        searchable = materials.is_searchable(rec.record["encoding"], rec.record.get("media_type"))
        row = spec.to_row(rec.record, rec.digest, (lay.size, lay.chunk_size, lay.chunk_count, lay.chunk_hashes,
                                                   lay.chunk_binding, lay.indexed_bytes if searchable else 0))
        cur = await self.db.execute(spec.insert_sql, row)
        material_id = int(cur.lastrowid or 0)
        await cur.close()
        return material_id, lay

    async def _materials_at_once(self, fresh: list[SifRecord]) -> bool:
        """Write a batch of materials under one savepoint, their chunks in one statement — what one :meth:`_one` per material writes, in the same order (same
        ids), in about a fifth of the round trips to SQLite's thread (each waits for the
        interpreter lock while the next chunk is parsed). False, with nothing written, when one
        of them repeats an identity: the caller then goes material by material, as before."""
        await self.db.execute("SAVEPOINT materials")
        try:
            written = [(rec, *await self._material_row(rec)) for rec in fresh]
        except sqlite3.IntegrityError:
            await self.db.execute("ROLLBACK TO materials")
            await self.db.execute("RELEASE materials")
            return False
        try:
            await materials.write_all_chunks(self.db, [(mid, rec.payload or b"", lay.chunk_size)
                                                       for rec, mid, lay in written])
        except BaseException:
            await self.db.execute("ROLLBACK TO materials")
            await self.db.execute("RELEASE materials")
            raise
        await self.db.execute("RELEASE materials")
        for rec, _mid, lay in written:
            self.bindings[rec.session][rec.record["id"]] = lay.chunk_binding
            self.added[(rec.session, rec.type)] += 1
            self.written[(rec.session, rec.type)].add([rec.digest])
            self._note(rec)
        return True

    def check_sessions(self) -> None:
        """Every record's session must be declared in the file or already stored."""
        for session, first in self.first_use.items():
            if session not in self.declared and session not in self.stored:
                raise BadInput(f"{first.type} refers to session {quoted(session)}, which is neither declared in this file "
                               "nor in the store", code="unknown_session", line=first.line)


__all__ = ["RecordWriter", "WRITE_ORDER"]
