"""Verify a store: the ledger's hash chain, a replay of the projections it vouches for,
the seals of every act's rows, and SQLite's own page checks. What is checked, and nothing
more is claimed (docs/store-format.md, "What verify can and cannot detect"):

1. every ledger entry's payload is JSON and its hash recomputes from its body and the
   previous hash; seqs run without a gap; with ``head`` (``SEQ:HASH`` a person pinned
   earlier) the entry at SEQ still has that hash, so a cut or recomputed tail shows;
2. each session's context_version and goal_revision equal the last values the ledger recorded;
3. each session's record counts equal what the ledger says was added (minus removed);
4. every record row's identity digest recomputed from its columns (a naive in-place edit);
5. each (session, type)'s rows against the seal of the last entry that changed them
   (inspector/store/seals.py): an edit with a recomputed row digest, a row added, removed
   or reordered;
6. every status (state record, action, candidate, handoff, deletion request) equal to a
   replay of the ledger: the status each import or act set, else the type's default;
   every tombstone covered by a deletion (at its time) and every deletion's copies gone;
7. every ``action.reconcile`` entry names its evidence and reason (an unknown outcome never
   changes without them);
8. every material's chunk list bound to its content hash, and that binding equal to the
   one its import bound in the ledger (chunks rewritten and rebound); its layout (size,
   chunk count and sizes, indexed prefix) recomputed from its chunks; its bytes rehashed
   when the stored materials are small or with ``full``;
9. the search indexes' coverage of the events (up to the watermark) and of the materials,
   and their text against what they index (inspector/services/verify_index_text.py; what a
   default run skips is listed in ``not_checked``);
10. the append-only guard triggers are present;
11. ``PRAGMA quick_check`` (``integrity_check`` for small stores or with ``full``).
12. the file's length against its page size and its header's page count, first: a store cut
    short is ``damaged_store`` even where SQLite still opens it (services/verify_length.py).

A store SQLite cannot read past some page, or a JSON column that no longer parses, is
reported as a break, never as a traceback.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import sqlite3
from collections import Counter
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from typing import Any

from inspector.domain.canonical import GENESIS_HASH, ledger_hash
from inspector.domain.errors import BadInput
from inspector.domain.sif import identity_digest
from inspector.services import verify_index_text, verify_layout, verify_length, verify_pages, verify_remembered
from inspector.services.replay import Replay, check_bindings
from inspector.store import ledger, seals, session_rows
from inspector.store.connection import Store
from inspector.store.materials import chunk_binding
from inspector.store.schema import APPLICATION_ID
from inspector.store.tables import SPECS

FULL_CHECK_BELOW = 64 << 20  # stores smaller than this get PRAGMA integrity_check by default


@dataclass(slots=True)
class VerifyReport:
    ok: bool = True
    entries: int = 0
    first_break: dict[str, Any] | None = None
    problems: list[dict[str, Any]] = field(default_factory=list)
    head: dict[str, Any] = field(default_factory=lambda: {"seq": 0, "hash": GENESIS_HASH})
    integrity: str = "quick_check"
    not_replayed: list[str] = field(default_factory=list)
    not_sealed: list[str] = field(default_factory=list)  # "session/type" whose rows no entry sealed
    bytes_rehashed: bool = False
    search_index: str = "not_checked"
    not_checked: list[str] = field(default_factory=list)  # what this run skipped, in words
    remembered_head: dict[str, Any] | None = None  # the head this machine's last good verify saw

    def fail(self, problem: dict[str, Any]) -> None:
        self.ok = False
        if self.first_break is None:
            self.first_break = problem
        self.problems.append(problem)

    def checked(self) -> str:
        """What this run checked, in words (a reader must not take it for more)."""
        bytes_ = "material bytes rehashed" if self.bytes_rehashed else "material bytes NOT rehashed (--full does)"
        index = ("search index coverage and text" if self.search_index == "checked"
                 else "search index not checked")
        return f"chain, seals, replayed projections, material layout, {bytes_}, {index} and {self.integrity}"

    def not_covered(self) -> str:
        parts = [f"not replayed (written before replay): {', '.join(self.not_replayed)}"] if self.not_replayed else []
        if self.not_sealed:
            parts.append(f"not sealed (written before seals): {', '.join(self.not_sealed[:8])}"
                         + (f" and {len(self.not_sealed) - 8} more" if len(self.not_sealed) > 8 else ""))
        parts += [f"not checked: {item}" for item in self.not_checked]
        return "; ".join(parts)

    def as_dict(self) -> dict[str, Any]:
        return {"ok": self.ok, "entries": self.entries, "first_break": self.first_break,
                "problems": self.problems[:50], "head": self.head, "integrity": self.integrity,
                "not_replayed": self.not_replayed, "not_sealed": self.not_sealed,
                "bytes_rehashed": self.bytes_rehashed, "search_index": self.search_index,
                "not_checked": self.not_checked, "remembered_head": self.remembered_head}


def parse_head(text: str) -> tuple[int, str]:
    """``SEQ:HASH`` as printed by verify, or :class:`BadInput`."""
    seq, _, digest = text.partition(":")
    if not seq.isdigit() or len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        raise BadInput(f"--head must be SEQ:HASH as verify prints it (e.g. 12:{'0' * 8}…), not {text!r}",
                       code="bad_head")
    return int(seq), digest


async def verify_store(store: Store, *, head: tuple[int, str] | None = None, full: bool | None = None,
                       progress: Callable[[int, int], None] | None = None, forget: bool = False) -> VerifyReport:
    """``progress(done, total)`` is called every 250 ledger entries (the app's progress line);
    ``forget``: drop the head remembered for this store first (it was replaced on purpose)."""
    report = VerifyReport()
    if forget:
        verify_remembered.forget_head(store)
    try:
        await _verify(store, report, head, full, progress)
        await verify_remembered.check_remembered(store, report, head)
    except (sqlite3.DatabaseError, UnicodeDecodeError) as exc:  # a page SQLite cannot read: damaged there
        report.fail({"where": "sqlite", "message": f"SQLite cannot read the store past this point ({exc}); run "
                                                   "verify --full and restore from a copy"})
    return report


SQLITE_HEADER = b"SQLite format 3\x00"


def unfinished_report(exc: Exception) -> VerifyReport | None:
    """A copy ``migrate`` has not finished (store/migration_marker.py) holds part of a store: a
    break to report (exit 1) with the refusal's sentence — what it is a copy of and how to
    finish it — not a chain to check. None for any other error."""
    if getattr(exc, "code", "") != "migration_unfinished":
        return None
    report = VerifyReport()
    report.fail({"where": "store_meta", "code": "migration_unfinished", "message": str(exc)})
    return report


def cut_report(path: Any) -> VerifyReport | None:
    """A store file cut short (services/verify_length.py), judged before SQLite opens it: a
    ``damaged_store`` break (exit 1) without opening it — so nothing (a checkpoint of what its
    WAL holds, a format upgrade) writes to it. None when its length is whole."""
    problem = verify_length.cut_short(path, APPLICATION_ID)
    if problem is None:
        return None
    report = VerifyReport()
    report.fail(problem)
    return report


def damaged_report(path: Any, exc: Exception) -> VerifyReport | None:
    """A file that begins as an SQLite database but cannot be opened as a store any more (a cut
    tail, damaged pages) was a store: that is a break to report (exit 1), not bad input. None
    for anything else (not SQLite, a folder, a URL): those stay exit 3."""
    if getattr(exc, "code", "") != "not_a_store":
        return None
    try:
        if not os.path.isfile(path):  # a FIFO would block the read below for ever; a folder, a URL: not a store
            return None
        with open(path, "rb") as f:
            header = f.read(100)
    except (OSError, TypeError, ValueError):
        return None
    if not header.startswith(SQLITE_HEADER) or \
            int.from_bytes(header[68:72], "big") != APPLICATION_ID:  # SQLite, and the inspector's own
        return None
    report = VerifyReport()
    report.fail({"where": "sqlite", "code": "damaged_store",
                 "message": f"the store cannot be read any more ({exc}): its file was cut short or its pages were "
                            "damaged; restore it from a copy"})
    return report


async def _verify(store: Store, report: VerifyReport, head: tuple[int, str] | None, full: bool | None,
                  progress: Callable[[int, int], None] | None = None) -> None:
    versions: dict[str, tuple[int | None, int | None]] = {}
    counts: Counter[tuple[str, str]] = Counter()
    replay = Replay()
    sealed: dict[tuple[str, str], tuple[int, list[str]]] = {}
    pinned: str | None = None
    prev = GENESIS_HASH
    expected_seq = 1
    if store.dialect != "postgresql":  # a cut inside a page opens, and its zeros would blame a record
        cut = await asyncio.to_thread(verify_length.cut_short, store.path, APPLICATION_ID)
        if cut is not None:
            report.fail(cut)
    async with store.snapshot():
        report.integrity = verify_pages.page_check(store, full, FULL_CHECK_BELOW)
        report.integrity, problem = await verify_pages.check_pages(store, report.integrity)
        if problem is not None:
            report.fail(problem)
        total = 0
        if progress is not None:
            rows = await store.db.execute_fetchall("SELECT COUNT(*) FROM ledger")
            total = int(rows[0][0]) if rows else 0
        async for entry, problem in _entries(store):
            report.entries += 1
            if progress is not None and report.entries % 250 == 0:
                progress(report.entries, total)
            report.head = {"seq": entry.seq, "hash": entry.hash}
            if head is not None and entry.seq == head[0]:
                pinned = entry.hash
            if problem:
                report.fail({"where": "ledger", "seq": entry.seq, "message": problem})
            if entry.seq != expected_seq:
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"ledger entry {expected_seq} is missing (next is {entry.seq})"})
            expected_seq = entry.seq + 1
            if entry.prev_hash != prev:
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"entry {entry.seq} does not point at the previous entry's hash"})
            if not problem and ledger_hash(entry.prev_hash, entry.body()) != entry.hash:
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"entry {entry.seq} was changed after it was written "
                                        "(its hash does not match its content)"})
            prev = entry.hash
            _track(entry, versions, counts)
            if entry.kind == "action.reconcile" and entry.source == "inspector" and not (
                    entry.payload.get("evidence") and entry.payload.get("reason")):
                report.fail({"where": "ledger", "seq": entry.seq,
                             "message": f"entry {entry.seq} reconciles action {entry.payload.get('action')!r} "
                                        "without naming evidence and a reason"})
            replay.feed(entry.session, entry.kind, entry.source, entry.payload)
            _track_seals(entry, sealed)
        if head is not None:
            _check_head(report, head, pinned)
        report.not_replayed = sorted(replay.unbound)
        await _check_sessions(store, versions, report)
        await _check_session_order(store, list(versions), report)
        await _check_counts(store, counts, report)
        await _check_digests(store, report)
        await _check_seals(store, sealed, report)
        await replay.compare(store, report.fail)
        await check_bindings(store, report.fail, replay.unbound)
        report.bytes_rehashed = bool(full) or (full is None and await _material_bytes(store) < FULL_CHECK_BELOW)
        await _check_materials(store, report, report.bytes_rehashed)
        await verify_layout.check_material_layout(store, report.fail)
        report.search_index = await verify_layout.check_event_index(store, report.fail)
        await verify_layout.check_guards(store, report.fail)  # last: the edit it hints at is named first
    # FTS5 compares an index with its text only through a statement spelled as a write, and the
    # short-query index is rebuilt in a temporary table: both need the writer (nothing is changed)
    writable = store.dialect != "postgresql" and not store.read_only and store.has_writer
    if not writable:
        async with store.snapshot():
            report.not_checked = await verify_index_text.check_index_text(store, report.fail, full, writable=False)
        return
    try:
        async with store.transaction():
            report.not_checked = await verify_index_text.check_index_text(store, report.fail, full, writable=True)
            raise _RolledBack  # rolled back, never committed: verify leaves the file byte for byte as it was
    except _RolledBack:
        pass


class _RolledBack(Exception):
    """Ends verify's write transaction with a rollback."""


def _check_head(report: VerifyReport, head: tuple[int, str], pinned: str | None) -> None:
    seq, digest = head
    last = int(report.head["seq"])
    if last < seq:
        report.fail({"where": "ledger", "seq": last + 1,
                     "message": f"the ledger ends at entry {last}, but entry {seq} was pinned: entries "
                                f"{last + 1}–{seq} were removed (a truncated tail)"})
    elif pinned != digest:
        report.fail({"where": "ledger", "seq": seq,
                     "message": f"entry {seq} now hashes to {str(pinned)[:12]}…, not the pinned {digest[:12]}…: "
                                "the history up to it was rewritten"})


async def _entries(store: Store) -> AsyncIterator[tuple[ledger.LedgerEntry, str | None]]:
    """Every entry in order with the reason it cannot be read, if any (a payload that is no
    longer JSON is a break to report, not an exception)."""
    after = 0
    while True:
        rows = await store.db.execute_fetchall(
            f"SELECT {ledger.COLUMNS.replace('payload', 'CAST(payload AS BLOB)')} FROM ledger WHERE seq > ? "
            "ORDER BY seq LIMIT 2000", (after,))
        if not rows:
            return
        for row in rows:
            problem = None
            try:
                payload = json.loads(bytes(row[5]).decode("utf-8"))
                if not isinstance(payload, dict):
                    raise ValueError("not an object")
            except (ValueError, TypeError, UnicodeDecodeError) as exc:
                payload, problem = {}, f"entry {row[0]}'s payload is no longer a JSON object ({exc})"
            yield ledger.LedgerEntry(row[0], row[1], row[2], row[3], row[4], payload, row[6], row[7], row[8],
                                     row[9]), problem
        after = int(rows[-1][0])


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
    versions.setdefault(entry.session, (cv, gr))
    versions[entry.session] = (cv, gr)  # dicts keep first insertion: the order sessions were created in
    for key, sign in (("added", 1), ("removed", -1)):
        for type_, n in (p.get(key) or {}).items() if entry.source == "inspector" else ():
            if isinstance(n, int):
                counts[(entry.session, type_)] += sign * n


async def _check_sessions(store: Store, versions: dict[str, tuple[int | None, int | None]],
                          report: VerifyReport) -> None:
    for sid, (gr, cv) in (await session_rows.versions(store.db)).items():  # columns only: a damaged extra is not read
        want_cv, want_gr = versions.get(sid, (None, None))
        if want_cv is None:
            report.fail({"where": "sessions", "id": sid, "message": f"session {sid!r} has no ledger entry"})
            continue
        if (cv, gr) != (want_cv, want_gr):
            report.fail({"where": "sessions", "id": sid,
                         "message": f"session {sid!r} shows context v{cv} / goal r{gr} but the ledger says "
                                    f"v{want_cv} / r{want_gr}"})


async def _check_session_order(store: Store, created: list[str], report: VerifyReport) -> None:
    """Sessions are listed (and exported) in stored order: that order must be the order of
    their first ledger entries, so rows moved or swapped in the table show."""
    rank = {sid: i for i, sid in enumerate(created)}
    stored = [sid for sid in await session_rows.ids(store.db) if sid in rank]
    for before, after in zip(stored, stored[1:], strict=False):
        if rank[before] > rank[after]:
            report.fail({"where": "sessions", "id": after,
                         "message": f"session {after!r} is stored before {before!r} was, though the ledger created "
                                    "it later: the sessions were reordered outside an act (lists and exports show "
                                    "them in another order)"})
            return


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


def _track_seals(entry: ledger.LedgerEntry, sealed: dict[tuple[str, str], tuple[int, list[str]]]) -> None:
    """Per (session, type): the seq of the last entry that sealed it and the seals since the last
    whole one (a whole seal alone, or a whole seal's value then the links that chain on it)."""
    found = entry.payload.get(seals.SEALED)
    if entry.source != "inspector" or entry.session is None or not isinstance(found, dict):
        return
    for type_, value in found.items():
        if type_ in SPECS and isinstance(value, str):
            got = sealed.get((entry.session, type_))
            chain = got[1] if got is not None and seals.link_size(value) is not None else []
            sealed[(entry.session, type_)] = (entry.seq, [*chain, value])


async def _check_seals(store: Store, sealed: dict[tuple[str, str], tuple[int, list[str]]],
                       report: VerifyReport) -> None:
    """Each (session, type)'s rows against the seal of the last act that changed them (through
    the links of appending imports since the last whole seal): a row edited with its digest
    recomputed, added, removed or reordered outside an act shows here."""
    stored = await session_rows.ids(store.db)
    for sid in stored:
        for type_ in SPECS:
            got = sealed.get((sid, type_))
            if got is None:
                report.not_sealed.append(f"{sid}/{type_}")
                continue
            seq, chain = got
            links = [v for v in chain if seals.link_size(v) is not None]
            rows = await seals.digests(store.db, sid, type_)
            if seals.expected(store.digest_key, type_, rows, links) != chain[-1]:
                report.fail({"where": SPECS[type_].table, "session": sid, "seq": seq,
                             "message": f"the {type_} rows of session {sid!r} are not the ones ledger entry {seq} "
                                        "sealed: a row was edited (its digest recomputed), added, removed or "
                                        "reordered outside an act"})


async def _check_digests(store: Store, report: VerifyReport) -> None:
    for type_, spec in SPECS.items():
        async with store.db.execute(f"SELECT {spec.select_columns}, digest FROM {spec.table}") as cur:
            async for row in cur:
                try:
                    record = spec.to_record(row)
                except (ValueError, TypeError) as exc:  # a JSON column is no longer JSON: edited, not a crash
                    report.fail({"where": spec.table, "message": f"a {type_} row was edited in place: a JSON "
                                                                 f"column no longer parses ({exc})"})
                    continue
                if identity_digest(type_, record) != row[-1]:
                    ident = {k: record.get(k) for k in ("session", "id", "seq", "key", "version", "generation")
                             if k in record}
                    report.fail({"where": spec.table, **ident,
                                 "message": f"a {type_} row was edited in place (its digest no longer matches)"})


async def _material_bytes(store: Store) -> int:
    rows = await store.db.execute_fetchall("SELECT COALESCE(SUM(size), 0) FROM materials WHERE deleted_at IS NULL")
    return int(rows[0][0]) if rows else 0


async def _rehash(store: Store, material_id: int) -> str:
    """The whole material's content hash, read chunk by chunk (memory stays at one chunk)."""
    digest = hashlib.sha256()
    async with store.db.execute("SELECT data FROM material_chunks WHERE material_id = ? ORDER BY idx",
                                (material_id,)) as cur:
        async for (data,) in cur:  # SQLite keeps whatever type a tamperer wrote: text is hashed as its bytes
            digest.update(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    return "sha256:" + digest.hexdigest()


async def _check_materials(store: Store, report: VerifyReport, full: bool) -> None:
    async with store.db.execute(
        "SELECT material_id, session, id, content_hash, chunk_hashes, chunk_binding FROM materials "
        "WHERE deleted_at IS NULL"
    ) as cur:
        rows = [tuple(r) async for r in cur]
    for material_id, sid, mid, chash, hashes, binding in rows:
        if chunk_binding(chash, bytes(hashes)) != binding:
            report.fail({"where": "materials", "session": sid, "id": mid,
                         "message": f"material {mid!r}: its chunk hashes are not bound to its content hash"})
        elif full and await _rehash(store, material_id) != chash:
            report.fail({"where": "materials", "session": sid, "id": mid,
                         "message": f"material {mid!r}: its stored bytes no longer hash to its content hash"})
